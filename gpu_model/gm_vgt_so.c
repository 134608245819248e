/*
 * gm_vgt_so.c - the VGT's streamout bookkeeping: per stream and per wave,
 * how many whole primitives fit in every buffer bound to the stream, the
 * streamout SGPRs handed to the shader (docs/gcn-streamout.md §7.1), and
 * the advance of offsets and the PrimStorageNeeded / NumPrimitivesWritten
 * counters.
 *
 * The rule is the model rule of docs/gcn-streamout.md §7.3, applied wave
 * by wave:  fit = min over the stream's buffers of
 * floor((SIZE_b - OFFSET_b) / (vpp * STRIDE_b)), written = min(prims, fit),
 * all in dwords.  Once a primitive did not fit, the buffer stays
 * overflowed (nothing more is written to the stream, needed keeps counting)
 * until its offset is set again by STRMOUT_BUFFER_UPDATE - as Mesa's NGG
 * emulation of this VGT does.  SIZE_b = 0 (radeonsi's "end") writes
 * nothing and counts nothing as written.
 *
 * Assumption: the offsets in the SGPRs are the buffers' offsets when the
 * draw started and write_index counts the vertices the draw already wrote
 * to the stream; a shader that ignores write_index therefore overwrites
 * its own output, which the tests can see.  Mesa only shows that the sum
 * offset*4 + (write_index + lane) * stride is the address.
 */
#include "gm_priv.h"

void gm_so_draw_begin(struct gm *gm, struct gm_so_draw *sd)
{
	for (unsigned b = 0; b < 4; b++) {
		sd->offset_at_draw[b] = gm_regs_get(&gm->regs, REG_VGT_STRMOUT_BUFFER_OFFSET(b));
		sd->written_vtx[b] = 0;
	}
}

void gm_so_wave(struct gm *gm, struct gm_so_draw *sd, unsigned s, uint32_t prims, unsigned vpp,
		struct gm_so_wave *out)
{
	uint32_t cfg = gm_regs_get(&gm->regs, REG_VGT_STRMOUT_CONFIG);
	unsigned mask = (gm_regs_get(&gm->regs, REG_VGT_STRMOUT_BUFFER_CONFIG) >> (4 * s)) & 0xF;
	bool counting = !gm->pipelinestat_stopped;
	uint32_t w = prims;

	out->write_index = sd->written_vtx[s];
	for (unsigned b = 0; b < 4; b++)
		out->offset_dw[b] = sd->offset_at_draw[b];
	out->prims_written = 0;
	out->config = (uint32_t)s << 24;
	if (!((cfg >> s) & 1))       /* STREAMOUT_s_EN */
		return;
	if (counting)
		gm->prims_needed[s] += prims;
	if (!mask)
		w = 0;
	for (unsigned b = 0; b < 4; b++) {
		uint32_t size, off, stride;
		if (!(mask >> b & 1))
			continue;
		size = gm_regs_get(&gm->regs, REG_VGT_STRMOUT_BUFFER_SIZE(b));
		off = gm_regs_get(&gm->regs, REG_VGT_STRMOUT_BUFFER_OFFSET(b));
		stride = VGT_STRMOUT_VTX_STRIDE_STRIDE_GET(gm_regs_get(&gm->regs, REG_VGT_STRMOUT_VTX_STRIDE(b)));
		if (!size || gm->so_overflow[b]) {
			w = 0;
		} else if (stride) {
			uint32_t fit = size > off ? (size - off) / (vpp * stride) : 0;
			if (fit < w)
				w = fit;
		}
	}
	for (unsigned b = 0; b < 4; b++) {
		uint32_t stride;
		if (!(mask >> b & 1))
			continue;
		if (w < prims && gm_regs_get(&gm->regs, REG_VGT_STRMOUT_BUFFER_SIZE(b)))
			gm->so_overflow[b] = true;
		stride = VGT_STRMOUT_VTX_STRIDE_STRIDE_GET(gm_regs_get(&gm->regs, REG_VGT_STRMOUT_VTX_STRIDE(b)));
		gm_regs_write(&gm->regs, REG_VGT_STRMOUT_BUFFER_OFFSET(b),
			      gm_regs_get(&gm->regs, REG_VGT_STRMOUT_BUFFER_OFFSET(b)) + w * vpp * stride);
	}
	sd->written_vtx[s] += w * vpp;
	if (counting)
		gm->prims_written[s] += w;
	out->prims_written = w;
	out->config |= (w * vpp) << 16;
}
