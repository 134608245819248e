/*
 * gm_cp_so.c - the CP's streamout, query and predication packets:
 * EVENT_WRITE (SO_VGTSTREAMOUT_FLUSH, SAMPLE_STREAMOUTSTATS[1-3],
 * PIPELINESTAT_START/STOP, ZPASS_DONE), STRMOUT_BUFFER_UPDATE and
 * SET_PREDICATION (docs/gcn-streamout.md §5.3, §6.1, §6.5-6.7), payloads
 * read through pm4/'s unpackers as in gm_cp.c.
 *
 * ZPASS_DONE writes each render backend's count of samples that passed
 * the depth test, a u64 with bit 63 set, at address + 16 * backend
 * (radeonsi's occlusion slots, §6.7).  The model does not rasterize: the
 * count is exact, 0, while no draw reached the rasterizer (rasterizer
 * discard, or no draw); a sample taken after one did is recorded as a
 * fault that names it, never a made-up count.
 *
 * The VGT keeps each buffer's live write offset in
 * VGT_STRMOUT_BUFFER_OFFSET_n and advances it as it writes.
 * VGT_STRMOUT_BUFFER_FILLED_SIZE_n is only brought up to date by
 * SO_VGTSTREAMOUT_FLUSH (AMD's register documentation: the VGT must be
 * flushed before the register can be read; docs/gcn-streamout.md §3.1,
 * §10.7), so a driver that stores the filled size without flushing first
 * stores a stale value here, as it would on hardware.
 */
#include <string.h>

#include "gm_priv.h"

static void so_flush(struct gm *gm)
{
	for (unsigned b = 0; b < 4; b++)
		gm_regs_write(&gm->regs, REG_VGT_STRMOUT_BUFFER_FILLED_SIZE(b),
			      gm_regs_get(&gm->regs, REG_VGT_STRMOUT_BUFFER_OFFSET(b)));
	gm_regs_write(&gm->regs, REG_CP_STRMOUT_CNTL,
		      gm_regs_get(&gm->regs, REG_CP_STRMOUT_CNTL) | CP_STRMOUT_CNTL_OFFSET_UPDATE_DONE(1));
}

/* SAMPLE_STREAMOUTSTATS*: {PrimStorageNeeded, NumPrimitivesWritten} of one
 * stream as two u64 with bit 63 set (docs/gcn-streamout.md §6.7; order as
 * the code of radeonsi / RADV / PAL reads it, not as their comments say). */
static void sample_streamout_stats(struct gm *gm, unsigned stream, uint64_t va)
{
	uint64_t v[2] = {
		(gm->prims_needed[stream] & ~(1ull << 63)) | 1ull << 63,
		(gm->prims_written[stream] & ~(1ull << 63)) | 1ull << 63,
	};
	if (va & 7)
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, va,
				"SAMPLE_STREAMOUTSTATS address 0x%llx is not 8-byte aligned", (unsigned long long)va);
	gm_cp_mem_write(gm, va & ~7ull, v, sizeof v, "SAMPLE_STREAMOUTSTATS");
}

static void zpass_done(struct gm *gm, uint64_t va)
{
	/* the samples that passed so far (gm_db.c), bit 63 = valid */
	uint64_t v = (gm->zpass_count & ~(1ull << 63)) | 1ull << 63;

	if (gm->unshaded_draws != gm->zpass_seen_draws)
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, va,
				"ZPASS_DONE after %llu draws reached the rasterizer with no pixel shader "
				"(SPI_SHADER_PGM_LO_PS = 0): the model did not draw them, so it cannot count "
				"their samples (occlusion query)",
				(unsigned long long)(gm->unshaded_draws - gm->zpass_seen_draws));
	gm->zpass_seen_draws = gm->unshaded_draws;
	if (va & 7)
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, va,
				"ZPASS_DONE address 0x%llx is not 8-byte aligned", (unsigned long long)va);
	for (unsigned rb = 0; rb < GM_RENDER_BACKENDS; rb++)
		gm_cp_mem_write(gm, (va & ~7ull) + 16 * rb, &v, sizeof v, "ZPASS_DONE");
}

void gm_cp_event_write(struct gm *gm, const struct pm4_packet *pkt)
{
	struct pm4_event_write e;
	int stream = -1;

	if (pkt->payload_dw != 1 && pkt->payload_dw != 3) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "EVENT_WRITE with %u payload dwords (1 or 3)",
				pkt->payload_dw);
		return;
	}
	if (pm4_event_write_unpack(pkt, &e) != XT_OK)
		return;
	switch (e.event_type) {
	case V_SO_VGTSTREAMOUT_FLUSH:
		so_flush(gm);
		break;
	case V_SAMPLE_STREAMOUTSTATS: stream = 0; break;
	case V_SAMPLE_STREAMOUTSTATS1: stream = 1; break;
	case V_SAMPLE_STREAMOUTSTATS2: stream = 2; break;
	case V_SAMPLE_STREAMOUTSTATS3: stream = 3; break;
	/* Assumption (docs/gcn-streamout.md §6.7, §10.5): the streamout
	 * counters run only between PIPELINESTAT_START and _STOP; they start
	 * running. */
	case V_ZPASS_DONE:
		if (!e.has_address) {
			gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "ZPASS_DONE without an address");
			return;
		}
		zpass_done(gm, e.address);
		return;
	case V_PIPELINESTAT_START: gm->pipelinestat_stopped = false; break;
	case V_PIPELINESTAT_STOP: gm->pipelinestat_stopped = true; break;
	default:
		break;       /* cache flushes, partial flushes, syncs: nothing to model */
	}
	if (stream >= 0) {
		if (!e.has_address) {
			gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0,
					"SAMPLE_STREAMOUTSTATS%s without an address", stream ? "1-3" : "");
			return;
		}
		sample_streamout_stats(gm, (unsigned)stream, e.address);
	}
}

static uint32_t mem_value(struct gm *gm, uint64_t va, bool *ok)
{
	uint32_t v = 0;
	uint8_t *ptr = gm_mem_ptr(&gm->mem, va, 4);
	*ok = ptr != NULL;
	if (ptr)
		memcpy(&v, ptr, 4);
	else
		gm_fault_record(&gm->faults, GM_FAULT_BAD_ADDRESS, va,
				"STRMOUT_BUFFER_UPDATE reads the offset from unmapped 0x%llx", (unsigned long long)va);
	return v;
}

void gm_cp_strmout_buffer_update(struct gm *gm, const struct pm4_packet *pkt)
{
	struct pm4_strmout_buffer_update u;
	uint32_t b, filled;
	bool bytes, ok = true;

	if (pkt->payload_dw != 5) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0,
				"STRMOUT_BUFFER_UPDATE with %u payload dwords (expected 5)", pkt->payload_dw);
		return;
	}
	if (pm4_strmout_buffer_update_unpack(pkt, &u) != XT_OK)
		return;
	b = u.buffer_select;
	/* Assumption (docs/gcn-streamout.md §10.1): DATA_TYPE = bytes applies
	 * to values in memory only, never to the packet's own offset. */
	bytes = u.data_type == V_STRMOUT_DATA_TYPE_BYTES;
	filled = gm_regs_get(&gm->regs, REG_VGT_STRMOUT_BUFFER_FILLED_SIZE(b));

	/* The store reads FILLED_SIZE before the offset changes (radeonsi's end
	 * uses OFFSET_SOURCE NONE, so the order only matters to odd drivers). */
	if (u.store_filled_size) {
		uint32_t v = bytes ? filled * 4 : filled;
		gm_cp_mem_write(gm, u.dst_address & ~3ull, &v, 4, "STRMOUT_BUFFER_UPDATE");
	}
	switch (u.offset_source) {
	case V_STRMOUT_OFFSET_FROM_PACKET:
		gm_regs_write(&gm->regs, REG_VGT_STRMOUT_BUFFER_OFFSET(b), u.buffer_offset);
		break;
	case V_STRMOUT_OFFSET_FROM_VGT_FILLED_SIZE:
		gm_regs_write(&gm->regs, REG_VGT_STRMOUT_BUFFER_OFFSET(b), filled);
		break;
	case V_STRMOUT_OFFSET_FROM_MEM: {
		uint32_t v = mem_value(gm, u.src_address & ~3ull, &ok);
		if (!ok)
			return;
		gm_regs_write(&gm->regs, REG_VGT_STRMOUT_BUFFER_OFFSET(b), bytes ? v / 4 : v);
		break;
	}
	case V_STRMOUT_OFFSET_NONE:
		return;
	}
	/* A new offset ends a previous overflow of this buffer. */
	gm->so_overflow[b] = false;
}

/* One PRIMCOUNT pair: 32 bytes {needed, written} at begin and at end. */
static bool primcount_overflow(struct gm *gm, uint64_t va, bool *ready)
{
	uint64_t v[4];
	uint8_t *ptr = gm_mem_ptr(&gm->mem, va, sizeof v);

	*ready = false;
	if (!ptr) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_ADDRESS, va,
				"SET_PREDICATION reads unmapped 0x%llx", (unsigned long long)va);
		return false;
	}
	memcpy(v, ptr, sizeof v);
	*ready = (v[0] & v[1] & v[2] & v[3]) >> 63;
	for (unsigned i = 0; i < 4; i++)
		v[i] &= ~(1ull << 63);
	return v[2] - v[0] != v[3] - v[1];
}

void gm_cp_set_predication(struct gm *gm, const struct pm4_packet *pkt)
{
	struct pm4_set_predication sp;
	uint32_t op;
	uint64_t va;
	bool visible = true, ready = true;
	if (pkt->payload_dw != 2) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0,
				"SET_PREDICATION with %u payload dwords (GFX8 form has 2)", pkt->payload_dw);
		return;
	}
	if (pm4_set_predication_unpack(pkt, &sp) != XT_OK)
		return;
	op = sp.pred_op;
	va = sp.address & ~0xFull;
	switch (op) {
	case V_PREDICATION_OP_CLEAR:
		gm->pred_enabled = false;
		return;
	case V_PREDICATION_OP_PRIMCOUNT: {
		/* Assumption (docs/gcn-streamout.md §6.7, §10.10): "visible"
		 * means no pair overflowed (written == needed); CONTINUE folds
		 * this pair into the previous packet's result, so radeonsi's
		 * "draw if overflow" is DRAW_VISIBLE = 0 over all pairs. */
		bool ov = primcount_overflow(gm, va, &ready);
		bool prev_ov = gm->pred_enabled && sp.continue_ &&
			       gm->pred_visible_acc == false;
		visible = !(ov || prev_ov);
		break;
	}
	case V_PREDICATION_OP_ZPASS: {
		/* "visible": some backend counted a sample between the begin
		 * (+0) and end (+8) of its 16-byte pair; CONTINUE folds in the
		 * previous packet's result */
		bool prev_visible = gm->pred_enabled && sp.continue_ && gm->pred_visible_acc;
		visible = prev_visible;
		for (unsigned rb = 0; rb < GM_RENDER_BACKENDS && ready; rb++) {
			uint64_t v[2];
			uint8_t *ptr = gm_mem_ptr(&gm->mem, va + 16 * rb, sizeof v);
			if (!ptr) {
				gm_fault_record(&gm->faults, GM_FAULT_BAD_ADDRESS, va + 16 * rb,
						"SET_PREDICATION reads unmapped 0x%llx",
						(unsigned long long)(va + 16 * rb));
				gm->pred_enabled = false;
				return;
			}
			memcpy(v, ptr, sizeof v);
			ready = (v[0] & v[1]) >> 63;
			visible |= ((v[1] & ~(1ull << 63)) - (v[0] & ~(1ull << 63))) != 0;
		}
		break;
	}
	case V_PREDICATION_OP_BOOL64:
	case V_PREDICATION_OP_BOOL32: {
		uint64_t v = 0;
		uint8_t *ptr = gm_mem_ptr(&gm->mem, va, op == V_PREDICATION_OP_BOOL64 ? 8 : 4);
		if (!ptr) {
			gm_fault_record(&gm->faults, GM_FAULT_BAD_ADDRESS, va, "SET_PREDICATION reads unmapped 0x%llx",
					(unsigned long long)va);
			return;
		}
		memcpy(&v, ptr, op == V_PREDICATION_OP_BOOL64 ? 8 : 4);
		visible = v != 0;
		break;
	}
	default:
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0,
				"SET_PREDICATION PRED_OP %u is not modelled (no occlusion counters)", op);
		gm->pred_enabled = false;
		return;
	}
	if (!ready) {
		gm_fault_record(&gm->faults, GM_FAULT_INFINITE_WAIT, va,
				"SET_PREDICATION data at 0x%llx lacks bit 63 (never written); predication off",
				(unsigned long long)va);
		gm->pred_enabled = false;
		return;
	}
	gm->pred_visible_acc = visible;
	gm->pred_enabled = true;
	gm->pred_draw = sp.draw_visible ? visible : !visible;
}
