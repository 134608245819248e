/*
 * gm_gs.c - the geometry-shader path: ES -> ESGS ring -> GS -> GSVS ring ->
 * copy shader (the hardware VS) with streamout per vertex stream, as
 * radeonsi drives GFX8 (docs/gcn-streamout.md §7; radeonsi's GS copy
 * shader, §8.3).
 *
 * A draw is cut into subgroups of P input primitives such that the ES wave
 * (P * vertices-per-primitive lanes), the GS wave (P * GS instances lanes)
 * and both rings (VGT_ESGS_RING_SIZE, VGT_GSVS_RING_SIZE) hold them; each
 * subgroup starts at ring offset 0.  The ring layouts are ours and are
 * specified in docs/isa.md "Shader ABI" (GCN's swizzled layouts are not
 * public enough to copy):
 *
 *   ESGS: ES lane i's item at es2gs_offset + i * VGT_ESGS_RING_ITEMSIZE * 4
 *   GSVS: GS lane l's record at gs2vs_offset + l * VGT_GSVS_RING_ITEMSIZE * 4;
 *         stream s (s >= 1) from VGT_GSVS_RING_OFFSET_s * 4 inside it;
 *         vertex k of stream s at k * VGT_GS_VERT_ITEMSIZE[_s] * 4 in that.
 *
 * The GS tells the VGT about vertices with s_sendmsg gs_emit / gs_cut
 * (per stream, for the lanes in exec); the VGT then assembles each
 * stream's output strips per VGT_GS_OUT_PRIM_TYPE into list primitives
 * (odd strip triangles keep their provoking vertex and winding as the
 * input assembly does, gm_vgt_prim.c: (k-1, k-2, k) under
 * PA_SU_SC_MODE_CNTL.PROVOKING_VTX_LAST, else (k-2, k, k-1), the order of
 * Mesa's NGG GS export for this hardware's successors)
 * and runs the copy shader over them, one stream at a time, with the
 * stream id in streamout_config[25:24].  Emits beyond VGT_GS_MAX_VERT_OUT
 * are dropped and recorded as a ring overflow.
 */
#include <stdlib.h>
#include <string.h>

#include "gm_px.h"
#include "xt_fault.h"

struct gs_emit {
	uint32_t max_vert;          /* VGT_GS_MAX_VERT_OUT */
	uint32_t count[64][4];      /* vertices emitted per lane and stream */
	uint8_t *cut;               /* [lane][stream][k]: a cut precedes vertex k */
	bool overflowed;
	struct gm *gm;
};

static uint8_t *cut_at(struct gs_emit *e, unsigned lane, unsigned s, uint32_t k)
{
	return &e->cut[((size_t)lane * 4 + s) * (e->max_vert + 1) + k];
}

static void gs_sendmsg(void *ctx, struct gm_wave *w, unsigned msg, unsigned s, uint64_t exec)
{
	struct gs_emit *e = ctx;
	(void)w;
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		if (msg == ISA_MSG_GS_EMIT) {
			if (e->count[l][s] >= e->max_vert) {
				if (!e->overflowed)
					gm_fault_record(&e->gm->faults, GM_FAULT_RING_OVERFLOW, 0,
							"GS lane %u emitted more than VGT_GS_MAX_VERT_OUT = %u vertices on stream %u; extra emits dropped",
							l, e->max_vert, s);
				e->overflowed = true;
				continue;
			}
			e->count[l][s]++;
		} else if (msg == ISA_MSG_GS_CUT) {
			*cut_at(e, l, s, e->count[l][s]) = 1;
		}
	}
}

static uint32_t out_prim_type(uint32_t reg, unsigned s)
{
	if (!VGT_GS_OUT_PRIM_TYPE_UNIQUE_TYPE_PER_STREAM_GET(reg) || s == 0)
		return VGT_GS_OUT_PRIM_TYPE_OUTPRIM_TYPE_GET(reg);
	if (s == 1) return (reg >> 8) & 0x3F;    /* OUTPRIM_TYPE_1 [13:8] */
	if (s == 2) return (reg >> 16) & 0x3F;   /* OUTPRIM_TYPE_2 [21:16] */
	return (reg >> 22) & 0x3F;               /* OUTPRIM_TYPE_3 [27:22] */
}

struct gs_layout {
	uint32_t esgs_item, gsvs_item;   /* bytes */
	uint32_t stream_off[4], vert_item[4];  /* bytes */
};

/* List-form primitives of one stream, as GSVS byte offsets of their vertices. */
static uint32_t assemble_stream(struct gs_emit *e, const struct gs_layout *lay, unsigned lanes, unsigned s,
				unsigned vpp, bool provoking_last, uint32_t *out)
{
	uint32_t n = 0;
	for (unsigned l = 0; l < lanes; l++) {
		uint32_t run = 0;
		uint32_t base = l * lay->gsvs_item + lay->stream_off[s];
		for (uint32_t k = 0; k < e->count[l][s]; k++) {
			if (*cut_at(e, l, s, k))
				run = 0;
			run++;
			if (run < vpp)
				continue;
			if (vpp == 3 && !(run & 1) && !provoking_last) {   /* odd: (k-2, k, k-1) */
				out[n++] = base + (k - 2) * lay->vert_item[s];
				out[n++] = base + k * lay->vert_item[s];
				out[n++] = base + (k - 1) * lay->vert_item[s];
				continue;
			} else if (vpp == 3 && !(run & 1)) {    /* odd: (k-1, k-2, k) */
				out[n++] = base + (k - 1) * lay->vert_item[s];
				out[n++] = base + (k - 2) * lay->vert_item[s];
			} else if (vpp == 3) {
				out[n++] = base + (k - 2) * lay->vert_item[s];
				out[n++] = base + (k - 1) * lay->vert_item[s];
			} else if (vpp == 2) {
				out[n++] = base + (k - 1) * lay->vert_item[s];
			}
			out[n++] = base + k * lay->vert_item[s];
		}
	}
	return n / vpp;
}

static void copy_shader(struct gm *gm, const struct gm_stage *vs, const uint32_t *verts, uint32_t prims,
			unsigned vpp, unsigned s, uint32_t instance, struct gm_so_draw *sd, struct gm_px *px)
{
	unsigned per_wave = 64 / vpp;
	uint32_t rsrc2 = gm_regs_get(&gm->regs, REG_SPI_SHADER_PGM_RSRC2_VS);

	for (uint32_t first = 0; first < prims; first += per_wave) {
		uint32_t p = prims - first < per_wave ? prims - first : per_wave;
		unsigned lanes = p * vpp, sg;
		struct gm_wave_env env = { 0 };
		struct gm_so_wave so;
		struct gm_wave *w = gm->wave;

		gm_so_wave(gm, sd, s, p, vpp, &so);
		sg = gm_stage_wave_begin(gm, vs, lanes == 64 ? ~0ull : (1ull << lanes) - 1);
		if (SPI_SHADER_PGM_RSRC2_VS_SO_EN_GET(rsrc2)) {
			w->s[sg++] = so.config;
			w->s[sg++] = so.write_index;
			for (unsigned b = 0; b < 4; b++)
				if ((rsrc2 >> (SPI_SHADER_PGM_RSRC2_VS_SO_BASE0_EN__SHIFT + b)) & 1)
					w->s[sg++] = so.offset_dw[b];
		}
		for (unsigned l = 0; l < lanes; l++) {
			w->v[0][l] = verts[first * vpp + l];
			w->v[1][l] = 0;
			w->v[2][l] = first + l / vpp;
			w->v[3][l] = instance;
		}
		if (px) {   /* the rasterized stream: on to the PA */
			env.ctx = px;
			env.export_ = gm_px_vs_export;
			gm_px_vs_wave_begin(px);
		}
		gm_stage_wave_run(gm, vs, &env);
		if (px && !w->killed)
			gm_pa_prims(px, p, vpp, NULL);
	}
}

static bool load_layout(struct gm *gm, struct gs_layout *lay, uint32_t max_vert)
{
	uint32_t need;
	lay->esgs_item = VGT_ESGS_RING_ITEMSIZE_ITEMSIZE_GET(gm_regs_get(&gm->regs, REG_VGT_ESGS_RING_ITEMSIZE)) * 4;
	lay->gsvs_item = VGT_GSVS_RING_ITEMSIZE_ITEMSIZE_GET(gm_regs_get(&gm->regs, REG_VGT_GSVS_RING_ITEMSIZE)) * 4;
	lay->stream_off[0] = 0;
	lay->stream_off[1] = VGT_GSVS_RING_OFFSET_1_OFFSET_GET(gm_regs_get(&gm->regs, REG_VGT_GSVS_RING_OFFSET_1)) * 4;
	lay->stream_off[2] = VGT_GSVS_RING_OFFSET_2_OFFSET_GET(gm_regs_get(&gm->regs, REG_VGT_GSVS_RING_OFFSET_2)) * 4;
	lay->stream_off[3] = VGT_GSVS_RING_OFFSET_3_OFFSET_GET(gm_regs_get(&gm->regs, REG_VGT_GSVS_RING_OFFSET_3)) * 4;
	lay->vert_item[0] = VGT_GS_VERT_ITEMSIZE_ITEMSIZE_GET(gm_regs_get(&gm->regs, REG_VGT_GS_VERT_ITEMSIZE)) * 4;
	lay->vert_item[1] = VGT_GS_VERT_ITEMSIZE_1_ITEMSIZE_GET(gm_regs_get(&gm->regs, REG_VGT_GS_VERT_ITEMSIZE_1)) * 4;
	lay->vert_item[2] = VGT_GS_VERT_ITEMSIZE_2_ITEMSIZE_GET(gm_regs_get(&gm->regs, REG_VGT_GS_VERT_ITEMSIZE_2)) * 4;
	lay->vert_item[3] = VGT_GS_VERT_ITEMSIZE_3_ITEMSIZE_GET(gm_regs_get(&gm->regs, REG_VGT_GS_VERT_ITEMSIZE_3)) * 4;
	for (unsigned s = 0; s < 4; s++) {
		if (!lay->vert_item[s])
			continue;
		need = lay->stream_off[s] + max_vert * lay->vert_item[s];
		if (need > lay->gsvs_item) {
			gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, REG_VGT_GSVS_RING_ITEMSIZE,
					"GSVS layout: stream %u needs %u bytes per GS invocation, VGT_GSVS_RING_ITEMSIZE gives %u",
					s, need, lay->gsvs_item);
			return false;
		}
	}
	return true;
}

void gm_gs_draw(struct gm *gm, const struct gm_prim_list *in, uint32_t instance, uint32_t first_prim_id,
		struct gm_so_draw *sd, struct gm_px *px)
{
	uint32_t inst_reg = gm_regs_get(&gm->regs, REG_VGT_GS_INSTANCE_CNT);
	unsigned ninst = VGT_GS_INSTANCE_CNT_ENABLE_GET(inst_reg) ? VGT_GS_INSTANCE_CNT_CNT_GET(inst_reg) : 1;
	uint32_t max_vert = VGT_GS_MAX_VERT_OUT_MAX_VERT_OUT_GET(gm_regs_get(&gm->regs, REG_VGT_GS_MAX_VERT_OUT));
	uint64_t esgs_ring = (uint64_t)gm_regs_get(&gm->regs, REG_VGT_ESGS_RING_SIZE) * 256;
	uint64_t gsvs_ring = (uint64_t)gm_regs_get(&gm->regs, REG_VGT_GSVS_RING_SIZE) * 256;
	uint32_t outprim = gm_regs_get(&gm->regs, REG_VGT_GS_OUT_PRIM_TYPE);
	uint32_t cfg = gm_regs_get(&gm->regs, REG_VGT_STRMOUT_CONFIG);
	unsigned vin = in->verts_per_prim, P;
	struct gm_stage es, gs, vs;
	struct gs_layout lay;
	struct gs_emit *e = NULL;
	uint32_t *verts = NULL;

	if (!ninst)
		ninst = 1;
	if (!max_vert || max_vert > 1024) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, REG_VGT_GS_MAX_VERT_OUT,
				"VGT_GS_MAX_VERT_OUT = %u (1..1024)", max_vert);
		return;
	}
	if (!load_layout(gm, &lay, max_vert))
		return;
	P = 64 / vin < 64 / ninst ? 64 / vin : 64 / ninst;
	while (P && ((uint64_t)P * vin * lay.esgs_item > esgs_ring || (uint64_t)P * ninst * lay.gsvs_item > gsvs_ring))
		P--;
	if (!P) {
		gm_fault_record(&gm->faults, GM_FAULT_RING_OVERFLOW, 0,
				"one primitive needs %u ESGS / %u GSVS bytes; the rings have %llu / %llu",
				vin * lay.esgs_item, ninst * lay.gsvs_item, (unsigned long long)esgs_ring,
				(unsigned long long)gsvs_ring);
		return;
	}
	if (!gm_stage_load(gm, &es, REG_SPI_SHADER_PGM_LO_ES, REG_SPI_SHADER_PGM_HI_ES, REG_SPI_SHADER_PGM_RSRC1_ES,
			   REG_SPI_SHADER_PGM_RSRC2_ES, REG_SPI_SHADER_USER_DATA_ES_0, "ES"))
		return;
	if (!gm_stage_load(gm, &gs, REG_SPI_SHADER_PGM_LO_GS, REG_SPI_SHADER_PGM_HI_GS, REG_SPI_SHADER_PGM_RSRC1_GS,
			   REG_SPI_SHADER_PGM_RSRC2_GS, REG_SPI_SHADER_USER_DATA_GS_0, "GS"))
		goto out_es;
	if (!gm_stage_load(gm, &vs, REG_SPI_SHADER_PGM_LO_VS, REG_SPI_SHADER_PGM_HI_VS, REG_SPI_SHADER_PGM_RSRC1_VS,
			   REG_SPI_SHADER_PGM_RSRC2_VS, REG_SPI_SHADER_USER_DATA_VS_0, "VS (copy shader)"))
		goto out_gs;
	e = xt_calloc(1, sizeof *e);
	verts = xt_malloc((size_t)64 * (max_vert * 3) * sizeof *verts);
	if (e)
		e->cut = xt_calloc((size_t)64 * 4 * (max_vert + 1), 1);
	if (!e || !e->cut || !verts) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, 0, "out of host memory for the GS path");
		goto out;
	}
	e->gm = gm;
	e->max_vert = max_vert;

	for (uint32_t first = 0; first < in->n; first += P) {
		uint32_t p = in->n - first < P ? in->n - first : P;
		unsigned es_lanes = p * vin, gs_lanes = p * ninst, sg;
		struct gm_wave_env env = { 0 };
		struct gm_wave *w = gm->wave;

		/* ES: one lane per input vertex (list form, adjacency included). */
		sg = gm_stage_wave_begin(gm, &es, es_lanes == 64 ? ~0ull : (1ull << es_lanes) - 1);
		w->s[sg] = 0;                                  /* es2gs_offset */
		for (unsigned l = 0; l < es_lanes; l++) {
			w->v[0][l] = in->verts[first * vin + l];
			w->v[1][l] = first * vin + l;
			w->v[2][l] = first + l / vin;
			w->v[3][l] = instance;
		}
		gm_stage_wave_run(gm, &es, &env);

		/* GS: one lane per (primitive, GS instance). */
		memset(e->count, 0, sizeof e->count);
		memset(e->cut, 0, (size_t)64 * 4 * (max_vert + 1));
		sg = gm_stage_wave_begin(gm, &gs, gs_lanes == 64 ? ~0ull : (1ull << gs_lanes) - 1);
		w->s[sg] = 0;                                  /* gs2vs_offset */
		w->s[sg + 1] = first;                          /* gs_wave_id */
		for (unsigned l = 0; l < gs_lanes; l++) {
			unsigned prim = l / ninst;
			for (unsigned j = 0; j < 6; j++)
				w->v[j][l] = j < vin ? (prim * vin + j) * lay.esgs_item : 0;
			w->v[6][l] = first_prim_id + first + prim;
			w->v[7][l] = l % ninst;
		}
		env.ctx = e;
		env.sendmsg = gs_sendmsg;
		gm_stage_wave_run(gm, &gs, &env);

		/* Copy shader per stream: the rasterized stream always, others
		 * when their streamout is enabled. */
		for (unsigned s = 0; s < 4; s++) {
			uint32_t t = out_prim_type(outprim, s);
			unsigned vpp = t == V_POINTLIST ? 1 : t == V_LINESTRIP ? 2 : 3;
			uint32_t prims;
			if (s != VGT_STRMOUT_CONFIG_RAST_STREAM_GET(cfg) && !((cfg >> s) & 1))
				continue;
			prims = assemble_stream(e, &lay, gs_lanes, s, vpp,
						PA_SU_SC_MODE_CNTL_PROVOKING_VTX_LAST_GET(
							gm_regs_get(&gm->regs, REG_PA_SU_SC_MODE_CNTL)),
						verts);
			if (prims)
				copy_shader(gm, &vs, verts, prims, vpp, s, instance, sd,
					    s == VGT_STRMOUT_CONFIG_RAST_STREAM_GET(cfg) ? px : NULL);
		}
	}
out:
	if (e)
		xt_free(e->cut);
	xt_free(e);
	xt_free(verts);
	gm_stage_fini(&vs);
out_gs:
	gm_stage_fini(&gs);
out_es:
	gm_stage_fini(&es);
}
