/*
 * gm_cp.c - the command processor: walks indirect buffers in GPU memory and
 * executes type-3 packets (docs/gcn-streamout.md §5.1-5.2): register writes,
 * memory and register copies, waits, index / instance state and draws.
 * Streamout, query and predication packets are in gm_cp_so.c.
 *
 * Nothing here trusts the IB.  A header that cannot start a packet is a
 * fault and the CP resyncs at the next dword; a packet that runs past the
 * end of its IB ends that IB; an unknown opcode is skipped by its count.
 * Nesting depth, chain hops and the total packet count per submission are
 * bounded, so a self-referencing IB cannot hang the model.
 *
 * There is only one engine and nothing runs behind the CP's back, so a
 * WAIT_REG_MEM whose condition is false when it executes can never become
 * true: it is reported as an infinite wait and skipped.
 */
#include <string.h>

#include "gm_priv.h"

static bool pkt_len_ok(struct gm *gm, const char *name, uint32_t n, uint32_t min, uint32_t max)
{
	if (n >= min && n <= max)
		return true;
	gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "%s with %u payload dwords (expected %u..%u)",
			name, n, min, max);
	return false;
}

static void set_reg_packet(struct gm *gm, unsigned opcode, const uint32_t *p, uint32_t n)
{
	enum pm4_reg_space space = opcode == PKT3_SET_CONFIG_REG ? PM4_SPACE_CONFIG :
				   opcode == PKT3_SET_CONTEXT_REG ? PM4_SPACE_CONTEXT :
				   opcode == PKT3_SET_SH_REG ? PM4_SPACE_SH : PM4_SPACE_UCONFIG;
	uint32_t base = pm4_reg_space_base(space), first;

	if (!pkt_len_ok(gm, "SET_*_REG", n, 2, PM4_MAX_PAYLOAD_DW))
		return;
	first = base + (p[0] & 0xFFFFu) * 4;  /* [15:0] offset; [31:28] INDEX changes nothing here */
	for (uint32_t i = 0; i + 1 < n; i++) {
		uint32_t reg = first + i * 4;
		if (pm4_reg_space_of(reg) != space) {
			gm_fault_record(&gm->faults, GM_FAULT_BAD_REGISTER, reg,
					"%s register 0x%06x is outside the %s space",
					pm4_packet_by_opcode(opcode) ? pm4_packet_by_opcode(opcode)->name : "SET",
					reg, pm4_reg_space_name(space));
			return;
		}
		gm_regs_write(&gm->regs, reg, p[1 + i]);
	}
}

static uint64_t addr48(uint32_t lo, uint32_t hi)
{
	return (uint64_t)lo | (uint64_t)(hi & 0xFFFFu) << 32;
}

static bool mem_read32(struct gm *gm, uint64_t va, uint32_t *v, const char *what)
{
	uint8_t *p = gm_mem_ptr(&gm->mem, va, 4);
	if (!p) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_ADDRESS, va, "%s reads unmapped 0x%llx", what,
				(unsigned long long)va);
		*v = 0;
		return false;
	}
	memcpy(v, p, 4);
	return true;
}

bool gm_cp_mem_write(struct gm *gm, uint64_t va, const void *src, uint32_t size, const char *what)
{
	uint8_t *p = gm_mem_ptr(&gm->mem, va, size);
	if (!p) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_ADDRESS, va, "%s writes unmapped 0x%llx (%u bytes)",
				what, (unsigned long long)va, size);
		return false;
	}
	memcpy(p, src, size);
	return true;
}

static void copy_data(struct gm *gm, const uint32_t *p, uint32_t n)
{
	uint32_t ctl, src_sel, dst_sel, v[2] = { 0, 0 };
	unsigned words;
	uint64_t src, dst;

	if (!pkt_len_ok(gm, "COPY_DATA", n, 5, 5))
		return;
	ctl = p[0];
	src_sel = PKT3_COPY_DATA_CONTROL_SRC_SEL_GET(ctl);
	dst_sel = PKT3_COPY_DATA_CONTROL_DST_SEL_GET(ctl);
	words = PKT3_COPY_DATA_CONTROL_COUNT_SEL_GET(ctl) ? 2 : 1;
	src = (uint64_t)p[1] | (uint64_t)p[2] << 32;
	dst = (uint64_t)p[3] | (uint64_t)p[4] << 32;

	switch (src_sel) {
	case V_COPY_DATA_SRC_REG:
		for (unsigned i = 0; i < words; i++)
			if (!gm_reg_read_checked(gm, (uint32_t)(p[1] + i) * 4, &v[i]))
				return;
		break;
	case V_COPY_DATA_SRC_MEM:
	case V_COPY_DATA_SRC_TC_L2:
		for (unsigned i = 0; i < words; i++)
			if (!mem_read32(gm, (src & 0xFFFFFFFFFFFFull) + 4 * i, &v[i], "COPY_DATA"))
				return;
		break;
	case V_COPY_DATA_SRC_IMM:
		v[0] = p[1];
		v[1] = p[2];
		break;
	case V_COPY_DATA_SRC_GPU_CLOCK:
		/* Assumption: a deterministic clock, the packet sequence number. */
		v[0] = (uint32_t)gm->seq;
		v[1] = (uint32_t)(gm->seq >> 32);
		break;
	default:
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "COPY_DATA SRC_SEL %u is not modelled", src_sel);
		return;
	}
	switch (dst_sel) {
	case V_COPY_DATA_DST_REG:
	case V_COPY_DATA_DST_MEM_MAPPED_REG_DC:
		for (unsigned i = 0; i < words; i++)
			gm_reg_write_checked(gm, (uint32_t)(p[3] + i) * 4, v[i]);
		break;
	case V_COPY_DATA_DST_MEM_SYNC:
	case V_COPY_DATA_DST_TC_L2:
	case V_COPY_DATA_DST_MEM_ASYNC:
		gm_cp_mem_write(gm, dst & 0xFFFFFFFFFFFFull, v, 4 * words, "COPY_DATA");
		break;
	default:
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "COPY_DATA DST_SEL %u is not modelled", dst_sel);
	}
}

static void write_data(struct gm *gm, const uint32_t *p, uint32_t n)
{
	uint32_t dst_sel;
	bool one;
	uint64_t dst;

	if (!pkt_len_ok(gm, "WRITE_DATA", n, 4, PM4_MAX_PAYLOAD_DW))
		return;
	dst_sel = PKT3_WRITE_DATA_CONTROL_DST_SEL_GET(p[0]);
	one = PKT3_WRITE_DATA_CONTROL_WR_ONE_ADDR_GET(p[0]);
	dst = addr48(p[1], p[2]);
	for (uint32_t i = 0; i + 3 < n; i++) {
		uint32_t v = p[3 + i];
		switch (dst_sel) {
		case V_WRITE_DATA_DST_MEM_MAPPED_REGISTER:
			if (!gm_reg_write_checked(gm, (p[1] + (one ? 0 : i)) * 4, v))
				return;
			break;
		case V_WRITE_DATA_DST_MEMORY_SYNC:
		case V_WRITE_DATA_DST_TC_L2:
		case V_WRITE_DATA_DST_MEM_ASYNC:
			if (!gm_cp_mem_write(gm, dst + (one ? 0 : 4ull * i), &v, 4, "WRITE_DATA"))
				return;
			break;
		default:
			gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "WRITE_DATA DST_SEL %u is not modelled",
					dst_sel);
			return;
		}
	}
}

static void wait_reg_mem(struct gm *gm, const uint32_t *p, uint32_t n)
{
	static const char *fn_name[8] = { "always", "<", "<=", "==", "!=", ">=", ">", "?" };
	uint32_t fn, space, v = 0, ref, mask, x;
	bool ok;

	if (!pkt_len_ok(gm, "WAIT_REG_MEM", n, 6, 6))
		return;
	fn = PKT3_WAIT_REG_MEM_OP_FUNCTION_GET(p[0]);
	space = PKT3_WAIT_REG_MEM_OP_MEM_SPACE_GET(p[0]);
	ref = p[3];
	mask = p[4];
	if (space == V_WAIT_REG_MEM_SPACE_REGISTER) {
		if (!gm_reg_read_checked(gm, p[1] * 4, &v))
			return;
	} else if (!mem_read32(gm, addr48(p[1] & ~3u, p[2]), &v, "WAIT_REG_MEM")) {
		return;
	}
	x = v & mask;
	switch (fn) {
	case V_WAIT_REG_MEM_ALWAYS: ok = true; break;
	case V_WAIT_REG_MEM_LESS: ok = x < ref; break;
	case V_WAIT_REG_MEM_LESS_EQUAL: ok = x <= ref; break;
	case V_WAIT_REG_MEM_EQUAL: ok = x == ref; break;
	case V_WAIT_REG_MEM_NOT_EQUAL: ok = x != ref; break;
	case V_WAIT_REG_MEM_GREATER_EQUAL: ok = x >= ref; break;
	case V_WAIT_REG_MEM_GREATER: ok = x > ref; break;
	default:
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "WAIT_REG_MEM FUNCTION %u is reserved", fn);
		return;
	}
	if (!ok)
		gm_fault_record(&gm->faults, GM_FAULT_INFINITE_WAIT,
				space == V_WAIT_REG_MEM_SPACE_REGISTER ? p[1] * 4ull : addr48(p[1], p[2]),
				"WAIT_REG_MEM on %s 0x%llx: (0x%08x & 0x%08x) %s 0x%08x is false and nothing can change it",
				space == V_WAIT_REG_MEM_SPACE_REGISTER ? "register" : "memory",
				space == V_WAIT_REG_MEM_SPACE_REGISTER ? p[1] * 4ull : addr48(p[1], p[2]),
				v, mask, fn_name[fn & 7], ref);
}

static void event_write_eop(struct gm *gm, const uint32_t *p, uint32_t n)
{
	uint32_t sel;
	uint64_t va, data;

	if (!pkt_len_ok(gm, "EVENT_WRITE_EOP", n, 5, 5))
		return;
	sel = PKT3_EVENT_WRITE_EOP_DATA_CNTL_DATA_SEL_GET(p[2]);
	va = (uint64_t)p[1] | (uint64_t)PKT3_EVENT_WRITE_EOP_DATA_CNTL_ADDRESS_HI_GET(p[2]) << 32;
	data = (uint64_t)p[3] | (uint64_t)p[4] << 32;
	switch (sel) {
	case V_EOP_DATA_SEL_DISCARD: break;
	case V_EOP_DATA_SEL_VALUE_32BIT: gm_cp_mem_write(gm, va, &data, 4, "EVENT_WRITE_EOP"); break;
	case V_EOP_DATA_SEL_VALUE_64BIT: gm_cp_mem_write(gm, va, &data, 8, "EVENT_WRITE_EOP"); break;
	case V_EOP_DATA_SEL_TIMESTAMP:
		data = gm->seq;   /* Assumption: deterministic clock = packet sequence number */
		gm_cp_mem_write(gm, va, &data, 8, "EVENT_WRITE_EOP");
		break;
	default:
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "EVENT_WRITE_EOP DATA_SEL %u is reserved", sel);
	}
}

static void load_context_reg_index(struct gm *gm, const uint32_t *p, uint32_t n)
{
	uint64_t va;
	uint32_t reg;

	if (!pkt_len_ok(gm, "LOAD_CONTEXT_REG_INDEX", n, 4, 4))
		return;
	va = addr48(p[0] & ~3u, p[1]);
	reg = PM4_CONTEXT_REG_BASE + (p[2] & 0xFFFFu) * 4;   /* REG_OFFSET [15:0], dwords */
	for (uint32_t i = 0; i < p[3] && i < 0x400; i++) {
		uint32_t v;
		if (!mem_read32(gm, va + 4ull * i, &v, "LOAD_CONTEXT_REG_INDEX"))
			return;
		if (pm4_reg_space_of(reg + 4 * i) != PM4_SPACE_CONTEXT) {
			gm_fault_record(&gm->faults, GM_FAULT_BAD_REGISTER, reg + 4 * i,
					"LOAD_CONTEXT_REG_INDEX past the context space");
			return;
		}
		gm_regs_write(&gm->regs, reg + 4 * i, v);
	}
}

/* ---- draws ---------------------------------------------------------------- */

static unsigned index_size(uint32_t vgt_dma_index_type)
{
	switch (VGT_DMA_INDEX_TYPE_INDEX_TYPE_GET(vgt_dma_index_type)) {
	case V_VGT_INDEX_16: return 2;
	case V_VGT_INDEX_32: return 4;
	case V_VGT_INDEX_8: return 1;
	}
	return 0;
}

static void draw(struct gm *gm, struct gm_draw *d, bool predicated)
{
	gm_regs_write(&gm->regs, REG_VGT_DRAW_INITIATOR, d->initiator);
	gm_regs_write(&gm->regs, REG_VGT_NUM_INDICES, d->count);
	if (predicated && gm->pred_enabled && !gm->pred_draw) {
		gm->stats.draws_skipped++;
		return;
	}
	d->instances = gm->num_instances ? gm->num_instances : 1;
	gm_vgt_draw(gm, d);
}

static void draw_packet(struct gm *gm, unsigned opcode, const uint32_t *p, uint32_t n, bool pred)
{
	struct gm_draw d;
	uint32_t isz = index_size(gm_regs_get(&gm->regs, REG_VGT_DMA_INDEX_TYPE));

	memset(&d, 0, sizeof d);
	switch (opcode) {
	case PKT3_DRAW_INDEX_AUTO:
		if (!pkt_len_ok(gm, "DRAW_INDEX_AUTO", n, 2, 2))
			return;
		d.count = p[0];
		d.initiator = p[1];
		if (VGT_DRAW_INITIATOR_USE_OPAQUE_GET(d.initiator)) {
			uint32_t filled = gm_regs_get(&gm->regs, REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE);
			uint32_t off = gm_regs_get(&gm->regs, REG_VGT_STRMOUT_DRAW_OPAQUE_OFFSET);
			uint32_t stride = VGT_STRMOUT_DRAW_OPAQUE_VERTEX_STRIDE_VERTEX_STRIDE_GET(
				gm_regs_get(&gm->regs, REG_VGT_STRMOUT_DRAW_OPAQUE_VERTEX_STRIDE));
			if (!stride) {
				gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, REG_VGT_STRMOUT_DRAW_OPAQUE_VERTEX_STRIDE,
						"DRAW_INDEX_AUTO USE_OPAQUE with VGT_STRMOUT_DRAW_OPAQUE_VERTEX_STRIDE = 0");
				d.count = 0;
			} else {
				d.count = filled > off ? (filled - off) / stride : 0;
			}
		}
		break;
	case PKT3_DRAW_INDEX_2:
		if (!pkt_len_ok(gm, "DRAW_INDEX_2", n, 5, 5))
			return;
		gm_regs_write(&gm->regs, REG_VGT_DMA_MAX_SIZE, p[0]);
		gm_regs_write(&gm->regs, REG_VGT_DMA_BASE, p[1]);
		gm_regs_write(&gm->regs, REG_VGT_DMA_BASE_HI, p[2]);
		d.indexed = true;
		d.index_va = (uint64_t)p[1] | (uint64_t)VGT_DMA_BASE_HI_BASE_ADDR_GET(p[2]) << 32;
		d.index_max = p[0];
		d.count = p[3];
		d.initiator = p[4];
		break;
	case PKT3_DRAW_INDEX_OFFSET_2:
		if (!pkt_len_ok(gm, "DRAW_INDEX_OFFSET_2", n, 4, 4))
			return;
		gm_regs_write(&gm->regs, REG_VGT_DMA_MAX_SIZE, p[0]);
		d.indexed = true;
		d.index_va = gm->index_base_va + (uint64_t)p[1] * isz;
		d.index_max = p[0] > p[1] ? p[0] - p[1] : 0;
		d.count = p[2];
		d.initiator = p[3];
		break;
	case PKT3_DRAW_INDIRECT:
	case PKT3_DRAW_INDEX_INDIRECT: {
		bool ix = opcode == PKT3_DRAW_INDEX_INDIRECT;
		uint32_t args[5] = { 0 };
		uint32_t vtx_loc, inst_loc;
		if (!pkt_len_ok(gm, ix ? "DRAW_INDEX_INDIRECT" : "DRAW_INDIRECT", n, 4, 4))
			return;
		for (unsigned i = 0; i < (ix ? 5u : 4u); i++)
			if (!mem_read32(gm, gm->set_base_va + p[0] + 4ull * i, &args[i], "DRAW_INDIRECT"))
				return;
		vtx_loc = PKT3_DRAW_INDIRECT_BASE_VTX_LOC_BASE_VTX_LOC_GET(p[1]);
		inst_loc = PKT3_DRAW_INDIRECT_START_INST_LOC_START_INST_LOC_GET(p[2]);
		/* The CP writes the base vertex / start instance into the user
		 * SGPR registers named by the packet (docs/gcn-streamout.md
		 * §5.2). */
		if (vtx_loc)
			gm_reg_write_checked(gm, PM4_SH_REG_BASE + vtx_loc * 4, ix ? args[3] : args[2]);
		if (inst_loc)
			gm_reg_write_checked(gm, PM4_SH_REG_BASE + inst_loc * 4, ix ? args[4] : args[3]);
		gm->num_instances = args[1];
		gm_regs_write(&gm->regs, REG_VGT_NUM_INSTANCES, args[1]);
		d.count = args[0];
		d.initiator = p[3];
		if (ix) {
			d.indexed = true;
			d.index_va = gm->index_base_va + (uint64_t)args[2] * isz;
			d.index_max = gm->index_buffer_size > args[2] ? gm->index_buffer_size - args[2] : 0;
		}
		if (!args[1]) {
			gm_regs_write(&gm->regs, REG_VGT_DRAW_INITIATOR, d.initiator);
			return;        /* instance count 0 from memory: nothing to draw */
		}
		break;
	}
	}
	if (d.indexed && VGT_DRAW_INITIATOR_SOURCE_SELECT_GET(d.initiator) != V_DI_SRC_SEL_DMA)
		d.indexed = false;
	if (!d.indexed && VGT_DRAW_INITIATOR_SOURCE_SELECT_GET(d.initiator) == V_DI_SRC_SEL_DMA) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, 0,
				"auto-index draw packet with SOURCE_SELECT = DI_SRC_SEL_DMA");
		return;
	}
	draw(gm, &d, pred);
}

/* ---- dispatch ---------------------------------------------------------------- */

static void execute(struct gm *gm, unsigned opcode, const uint32_t *p, uint32_t n, bool pred)
{
	if (pred && gm->pred_enabled && !gm->pred_draw &&
	    opcode != PKT3_DRAW_INDEX_AUTO && opcode != PKT3_DRAW_INDEX_2 &&
	    opcode != PKT3_DRAW_INDEX_OFFSET_2 && opcode != PKT3_DRAW_INDIRECT &&
	    opcode != PKT3_DRAW_INDEX_INDIRECT)
		return;          /* a predicated non-draw packet, skipped */
	switch (opcode) {
	case PKT3_NOP:
	case PKT3_CONTEXT_CONTROL:
	case PKT3_PFP_SYNC_ME:
	case GM_PKT3_SURFACE_SYNC:
	case GM_PKT3_ACQUIRE_MEM:
		break;
	case PKT3_CLEAR_STATE:
		gm_regs_clear_context(&gm->regs);
		break;
	case PKT3_SET_CONFIG_REG:
	case PKT3_SET_CONTEXT_REG:
	case PKT3_SET_SH_REG:
	case PKT3_SET_UCONFIG_REG:
		set_reg_packet(gm, opcode, p, n);
		break;
	case PKT3_SET_BASE:
		if (pkt_len_ok(gm, "SET_BASE", n, 3, 3) && PKT3_SET_BASE_BASE_INDEX_BASE_INDEX_GET(p[0]) == 1)
			gm->set_base_va = addr48(p[1], p[2]);
		break;
	case PKT3_INDEX_BASE:
		if (pkt_len_ok(gm, "INDEX_BASE", n, 2, 2))
			gm->index_base_va = addr48(p[0], PKT3_INDEX_BASE_ADDRESS_HI_ADDRESS_HI_GET(p[1]));
		break;
	case PKT3_INDEX_BUFFER_SIZE:
		if (pkt_len_ok(gm, "INDEX_BUFFER_SIZE", n, 1, 1))
			gm->index_buffer_size = p[0];
		break;
	case PKT3_INDEX_TYPE:
		if (pkt_len_ok(gm, "INDEX_TYPE", n, 1, 1)) {
			if (!index_size(p[0]))
				gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "INDEX_TYPE %u is reserved", p[0] & 3);
			gm_regs_write(&gm->regs, REG_VGT_DMA_INDEX_TYPE, p[0]);
		}
		break;
	case PKT3_NUM_INSTANCES:
		if (pkt_len_ok(gm, "NUM_INSTANCES", n, 1, 1)) {
			gm->num_instances = p[0];
			gm_regs_write(&gm->regs, REG_VGT_NUM_INSTANCES, p[0]);
		}
		break;
	case PKT3_COPY_DATA: copy_data(gm, p, n); break;
	case PKT3_WRITE_DATA: write_data(gm, p, n); break;
	case PKT3_WAIT_REG_MEM: wait_reg_mem(gm, p, n); break;
	case PKT3_EVENT_WRITE: gm_cp_event_write(gm, p, n); break;
	case PKT3_EVENT_WRITE_EOP: event_write_eop(gm, p, n); break;
	case PKT3_STRMOUT_BUFFER_UPDATE: gm_cp_strmout_buffer_update(gm, p, n); break;
	case PKT3_SET_PREDICATION: gm_cp_set_predication(gm, p, n); break;
	case PKT3_LOAD_CONTEXT_REG_INDEX: load_context_reg_index(gm, p, n); break;
	case PKT3_DRAW_INDEX_AUTO:
	case PKT3_DRAW_INDEX_2:
	case PKT3_DRAW_INDEX_OFFSET_2:
	case PKT3_DRAW_INDIRECT:
	case PKT3_DRAW_INDEX_INDIRECT:
		draw_packet(gm, opcode, p, n, pred);
		break;
	default:
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "unknown type-3 opcode 0x%02x (%u payload dwords skipped)",
				opcode, n);
	}
}

void gm_cp_run_ib(struct gm *gm, uint64_t va, uint32_t size_dw, unsigned depth)
{
	unsigned chain_hops = 0;

	for (;;) {
		const uint32_t *dw = (const uint32_t *)gm_mem_ptr(&gm->mem, va, (uint64_t)size_dw * 4);
		uint32_t pos = 0;
		bool chained = false;

		if (!dw || (va & 3)) {
			gm_fault_record(&gm->faults, GM_FAULT_BAD_ADDRESS, va,
					"IB at 0x%llx (%u dwords) is %s", (unsigned long long)va, size_dw,
					(va & 3) ? "not dword aligned" : "not (entirely) mapped");
			return;
		}
		while (pos < size_dw && !gm->abort_submit) {
			uint32_t hdr = dw[pos], n;
			unsigned opcode;

			gm->faults.packet_va = va + pos * 4ull;
			gm->faults.packet_header = hdr;
			gm->faults.seq = gm->seq;
			if (!gm->packets_left--) {
				gm_fault_record(&gm->faults, GM_FAULT_IB_DEPTH, va + pos * 4ull,
						"more than %llu packets in one submission (an IB loop?); submission stopped",
						(unsigned long long)gm->opts.max_packets);
				gm->abort_submit = true;
				return;
			}
			if (hdr == PM4_TYPE2_NOP || hdr == PM4_NOP_PAD) {
				pos++;
				continue;
			}
			if (pm4_hdr_type(hdr) != 3) {
				gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, va + pos * 4ull,
						"type-%u header 0x%08x is not executed; resync at the next dword",
						pm4_hdr_type(hdr), hdr);
				pos++;
				continue;
			}
			n = pm4_hdr_payload_dw(hdr);
			if (n > size_dw - pos - 1) {
				gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, va + pos * 4ull,
						"packet 0x%08x needs %u payload dwords, the IB has %u left",
						hdr, n, size_dw - pos - 1);
				return;
			}
			opcode = pm4_hdr_opcode(hdr);
			gm->seq++;
			if (opcode == GM_PKT3_INDIRECT_BUFFER) {
				uint64_t ib_va;
				uint32_t ib_size;
				if (n != 3) {
					gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0,
							"INDIRECT_BUFFER with %u payload dwords (expected 3)", n);
					pos += 1 + n;
					continue;
				}
				ib_va = addr48(dw[pos + 1], dw[pos + 2]);
				ib_size = GM_IB_SIZE_GET(dw[pos + 3]);
				if (!ib_size) {
					pos += 1 + n;
					continue;
				}
				if (GM_IB_CHAIN_GET(dw[pos + 3])) {
					if (++chain_hops > 65536) {
						gm_fault_record(&gm->faults, GM_FAULT_IB_DEPTH, ib_va,
								"more than 65536 chained IBs; chain stopped");
						return;
					}
					va = ib_va;
					size_dw = ib_size;
					chained = true;
					break;
				}
				if (depth + 1 > gm->opts.max_ib_depth) {
					gm_fault_record(&gm->faults, GM_FAULT_IB_DEPTH, ib_va,
							"INDIRECT_BUFFER nested deeper than %u levels; skipped",
							gm->opts.max_ib_depth);
				} else {
					gm_cp_run_ib(gm, ib_va, ib_size, depth + 1);
				}
				pos += 1 + n;
				continue;
			}
			execute(gm, opcode, dw + pos + 1, n, pm4_hdr_predicate(hdr));
			pos += 1 + n;
		}
		if (!chained)
			return;
	}
}
