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
 *
 * Payloads are read through pm4/'s unpackers (pm4_pkt.h), the ones the
 * decoder and the tests use, so each packet's layout is decoded in one
 * place.  The CP keeps its own count checks: it demands what it needs to
 * execute a packet (a SET_*_REG with a value, a WRITE_DATA with data),
 * stricter than the database's decoding bounds; after them an unpacker
 * cannot fail.
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

/* The CP's count check for `name`, then the payload unpacked by `unpack`. */
#define UNPACK(gm, pkt, name, min, max, unpack, out) \
	(pkt_len_ok((gm), (name), (pkt)->payload_dw, (min), (max)) && unpack((pkt), (out)) == XT_OK)

static void set_reg_packet(struct gm *gm, const struct pm4_packet *pkt)
{
	struct pm4_set_reg s;

	/* INDEX [31:28] changes nothing here. */
	if (!UNPACK(gm, pkt, "SET_*_REG", 2, PM4_MAX_PAYLOAD_DW, pm4_set_reg_unpack, &s))
		return;
	for (uint32_t i = 0; i < s.num_values; i++) {
		uint32_t reg = s.reg + i * 4;
		if (pm4_reg_space_of(reg) != s.space) {
			gm_fault_record(&gm->faults, GM_FAULT_BAD_REGISTER, reg,
					"%s register 0x%06x is outside the %s space",
					pm4_packet_by_opcode(s.opcode) ? pm4_packet_by_opcode(s.opcode)->name : "SET",
					reg, pm4_reg_space_name(s.space));
			return;
		}
		gm_regs_write(&gm->regs, reg, s.values[i]);
	}
}

/* A packet's 64-bit address field as the CP uses it: 48 bits. */
static uint64_t addr48(uint64_t va)
{
	return va & 0xFFFFFFFFFFFFull;
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

static void copy_data(struct gm *gm, const struct pm4_packet *pkt)
{
	struct pm4_copy_data c;
	uint32_t v[2] = { 0, 0 };
	unsigned words;

	if (!UNPACK(gm, pkt, "COPY_DATA", 5, 5, pm4_copy_data_unpack, &c))
		return;
	words = c.count_sel ? 2 : 1;

	/* A register source or destination is the address field's low dword
	 * as an absolute register dword offset. */
	switch (c.src_sel) {
	case V_COPY_DATA_SRC_REG:
		for (unsigned i = 0; i < words; i++)
			if (!gm_reg_read_checked(gm, (pm4_lo32(c.src) + i) * 4, &v[i]))
				return;
		break;
	case V_COPY_DATA_SRC_MEM:
	case V_COPY_DATA_SRC_TC_L2:
		for (unsigned i = 0; i < words; i++)
			if (!mem_read32(gm, addr48(c.src) + 4 * i, &v[i], "COPY_DATA"))
				return;
		break;
	case V_COPY_DATA_SRC_IMM:
		v[0] = pm4_lo32(c.src);
		v[1] = pm4_hi32(c.src);
		break;
	case V_COPY_DATA_SRC_GPU_CLOCK:
		/* Assumption: a deterministic clock, the packet sequence number. */
		v[0] = (uint32_t)gm->seq;
		v[1] = (uint32_t)(gm->seq >> 32);
		break;
	default:
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "COPY_DATA SRC_SEL %u is not modelled", c.src_sel);
		return;
	}
	switch (c.dst_sel) {
	case V_COPY_DATA_DST_REG:
	case V_COPY_DATA_DST_MEM_MAPPED_REG_DC:
		for (unsigned i = 0; i < words; i++)
			gm_reg_write_checked(gm, (pm4_lo32(c.dst) + i) * 4, v[i]);
		break;
	case V_COPY_DATA_DST_MEM_SYNC:
	case V_COPY_DATA_DST_TC_L2:
	case V_COPY_DATA_DST_MEM_ASYNC:
		gm_cp_mem_write(gm, addr48(c.dst), v, 4 * words, "COPY_DATA");
		break;
	default:
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "COPY_DATA DST_SEL %u is not modelled", c.dst_sel);
	}
}

static void write_data(struct gm *gm, const struct pm4_packet *pkt)
{
	struct pm4_write_data w;
	uint64_t dst;

	if (!UNPACK(gm, pkt, "WRITE_DATA", 4, PM4_MAX_PAYLOAD_DW, pm4_write_data_unpack, &w))
		return;
	dst = addr48(w.dst);
	for (uint32_t i = 0; i < w.num_data; i++) {
		uint32_t v = w.data[i];
		switch (w.dst_sel) {
		case V_WRITE_DATA_DST_MEM_MAPPED_REGISTER:
			if (!gm_reg_write_checked(gm, (pm4_lo32(w.dst) + (w.wr_one_addr ? 0 : i)) * 4, v))
				return;
			break;
		case V_WRITE_DATA_DST_MEMORY_SYNC:
		case V_WRITE_DATA_DST_TC_L2:
		case V_WRITE_DATA_DST_MEM_ASYNC:
			if (!gm_cp_mem_write(gm, dst + (w.wr_one_addr ? 0 : 4ull * i), &v, 4, "WRITE_DATA"))
				return;
			break;
		default:
			gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "WRITE_DATA DST_SEL %u is not modelled",
					w.dst_sel);
			return;
		}
	}
}

static void wait_reg_mem(struct gm *gm, const struct pm4_packet *pkt)
{
	static const char *fn_name[8] = { "always", "<", "<=", "==", "!=", ">=", ">", "?" };
	struct pm4_wait_reg_mem w;
	uint32_t fn, space, v = 0, ref, mask, x;
	uint64_t at;
	bool ok;

	if (!UNPACK(gm, pkt, "WAIT_REG_MEM", 6, 6, pm4_wait_reg_mem_unpack, &w))
		return;
	fn = w.function;
	space = w.mem_space;
	ref = w.reference;
	mask = w.mask;
	/* A register: the address's low dword as a register dword offset. */
	at = space == V_WAIT_REG_MEM_SPACE_REGISTER ? pm4_lo32(w.address) * 4ull : addr48(w.address);
	if (space == V_WAIT_REG_MEM_SPACE_REGISTER) {
		if (!gm_reg_read_checked(gm, pm4_lo32(w.address) * 4, &v))
			return;
	} else if (!mem_read32(gm, at & ~3ull, &v, "WAIT_REG_MEM")) {
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
		gm_fault_record(&gm->faults, GM_FAULT_INFINITE_WAIT, at,
				"WAIT_REG_MEM on %s 0x%llx: (0x%08x & 0x%08x) %s 0x%08x is false and nothing can change it",
				space == V_WAIT_REG_MEM_SPACE_REGISTER ? "register" : "memory",
				(unsigned long long)at, v, mask, fn_name[fn & 7], ref);
}

static void event_write_eop(struct gm *gm, const struct pm4_packet *pkt)
{
	struct pm4_event_write_eop e;
	uint32_t sel;
	uint64_t va, data;

	if (!UNPACK(gm, pkt, "EVENT_WRITE_EOP", 5, 5, pm4_event_write_eop_unpack, &e))
		return;
	sel = e.data_sel;
	va = e.address;
	data = e.data;
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

static void load_context_reg_index(struct gm *gm, const struct pm4_packet *pkt)
{
	struct pm4_load_context_reg_index l;
	uint64_t va;
	uint32_t reg;

	if (!UNPACK(gm, pkt, "LOAD_CONTEXT_REG_INDEX", 4, 4, pm4_load_context_reg_index_unpack, &l))
		return;
	va = addr48(l.address) & ~3ull;
	reg = l.reg;
	for (uint32_t i = 0; i < l.num_dw && i < 0x400; i++) {
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
	gm_regs_apply_overrides(&gm->regs);
	gm_regs_write(&gm->regs, REG_VGT_DRAW_INITIATOR, d->initiator);
	gm_regs_write(&gm->regs, REG_VGT_NUM_INDICES, d->count);
	if (predicated && gm->pred_enabled && !gm->pred_draw) {
		gm->stats.draws_skipped++;
		return;
	}
	d->instances = gm->num_instances ? gm->num_instances : 1;
	gm_vgt_draw(gm, d);
}

static void draw_packet(struct gm *gm, const struct pm4_packet *pkt)
{
	const unsigned opcode = pkt->opcode;
	union pm4_payload u;
	struct gm_draw d;
	uint32_t isz = index_size(gm_regs_get(&gm->regs, REG_VGT_DMA_INDEX_TYPE));

	memset(&d, 0, sizeof d);
	switch (opcode) {
	case PKT3_DRAW_INDEX_AUTO:
		if (!UNPACK(gm, pkt, "DRAW_INDEX_AUTO", 2, 2, pm4_draw_index_auto_unpack, &u.draw_index_auto))
			return;
		d.count = u.draw_index_auto.vertex_count;
		d.initiator = u.draw_index_auto.draw_initiator;
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
	case PKT3_DRAW_INDEX_2: {
		const struct pm4_draw_index_2 *x = &u.draw_index_2;
		if (!UNPACK(gm, pkt, "DRAW_INDEX_2", 5, 5, pm4_draw_index_2_unpack, &u.draw_index_2))
			return;
		/* VGT_DMA_BASE_HI gets BASE_ADDR [7:0], the register's only
		 * field (tests/unit/gpu_model/test_gm_cp.c). */
		gm_regs_write(&gm->regs, REG_VGT_DMA_MAX_SIZE, x->max_size);
		gm_regs_write(&gm->regs, REG_VGT_DMA_BASE, pm4_lo32(x->index_base));
		gm_regs_write(&gm->regs, REG_VGT_DMA_BASE_HI,
			      VGT_DMA_BASE_HI_BASE_ADDR(pm4_hi32(x->index_base)));
		d.indexed = true;
		d.index_va = x->index_base;
		d.index_max = x->max_size;
		d.count = x->index_count;
		d.initiator = x->draw_initiator;
		break;
	}
	case PKT3_DRAW_INDEX_OFFSET_2: {
		const struct pm4_draw_index_offset_2 *x = &u.draw_index_offset_2;
		if (!UNPACK(gm, pkt, "DRAW_INDEX_OFFSET_2", 4, 4, pm4_draw_index_offset_2_unpack,
			    &u.draw_index_offset_2))
			return;
		gm_regs_write(&gm->regs, REG_VGT_DMA_MAX_SIZE, x->max_size);
		d.indexed = true;
		d.index_va = gm->index_base_va + (uint64_t)x->index_offset * isz;
		d.index_max = x->max_size > x->index_offset ? x->max_size - x->index_offset : 0;
		d.count = x->index_count;
		d.initiator = x->draw_initiator;
		break;
	}
	case PKT3_DRAW_INDIRECT:
	case PKT3_DRAW_INDEX_INDIRECT: {
		const struct pm4_draw_indirect *x = &u.draw_indirect;
		bool ix = opcode == PKT3_DRAW_INDEX_INDIRECT;
		uint32_t args[5] = { 0 };
		uint32_t vtx_loc, inst_loc;
		if (!UNPACK(gm, pkt, ix ? "DRAW_INDEX_INDIRECT" : "DRAW_INDIRECT", 4, 4,
			    pm4_draw_indirect_unpack, &u.draw_indirect))
			return;
		for (unsigned i = 0; i < (ix ? 5u : 4u); i++)
			if (!mem_read32(gm, gm->set_base_va + x->data_offset + 4ull * i, &args[i],
					"DRAW_INDIRECT"))
				return;
		vtx_loc = x->base_vtx_loc;
		inst_loc = x->start_inst_loc;
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
		d.initiator = x->draw_initiator;
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
	draw(gm, &d, pkt->predicate);
}

/* ---- dispatch ---------------------------------------------------------------- */

/* The value of a one-dword packet (INDEX_BUFFER_SIZE, INDEX_TYPE,
 * NUM_INSTANCES) after the CP's count check. */
static bool one_value(struct gm *gm, const struct pm4_packet *pkt, const char *name, uint32_t *v)
{
	union pm4_payload u;

	if (!pkt_len_ok(gm, name, pkt->payload_dw, 1, 1) || pm4_packet_unpack(pkt, &u) != XT_OK)
		return false;
	*v = u.one.value;
	return true;
}

/* DISPATCH_DIRECT: DIM_X, DIM_Y, DIM_Z, initiator; DISPATCH_INDIRECT:
 * DATA_OFFSET from the SET_BASE index 1 base, initiator (gm_cs.c runs it). */
static void dispatch_packet(struct gm *gm, const struct pm4_packet *pkt)
{
	uint32_t groups[3];

	if (pkt->opcode == PKT3_DISPATCH_DIRECT) {
		if (!pkt_len_ok(gm, "DISPATCH_DIRECT", pkt->payload_dw, 4, 4))
			return;
		memcpy(groups, pkt->payload, sizeof groups);
		gm_cs_dispatch(gm, groups, pkt->payload[3]);
		return;
	}
	if (!pkt_len_ok(gm, "DISPATCH_INDIRECT", pkt->payload_dw, 2, 2))
		return;
	for (unsigned i = 0; i < 3; i++)
		if (!mem_read32(gm, gm->set_base_va + pkt->payload[0] + 4ull * i, &groups[i], "DISPATCH_INDIRECT"))
			return;
	gm_cs_dispatch(gm, groups, pkt->payload[1]);
}

static void execute(struct gm *gm, const struct pm4_packet *pkt)
{
	const unsigned opcode = pkt->opcode;
	struct pm4_set_base sb;
	struct pm4_index_base ib;
	uint32_t v;

	if (pkt->predicate && gm->pred_enabled && !gm->pred_draw &&
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
		set_reg_packet(gm, pkt);
		break;
	case PKT3_SET_BASE:
		if (UNPACK(gm, pkt, "SET_BASE", 3, 3, pm4_set_base_unpack, &sb) && sb.base_index == 1)
			gm->set_base_va = sb.address;
		break;
	case PKT3_INDEX_BASE:
		if (UNPACK(gm, pkt, "INDEX_BASE", 2, 2, pm4_index_base_unpack, &ib))
			gm->index_base_va = ib.address;
		break;
	case PKT3_INDEX_BUFFER_SIZE:
		if (one_value(gm, pkt, "INDEX_BUFFER_SIZE", &v))
			gm->index_buffer_size = v;
		break;
	case PKT3_INDEX_TYPE:
		if (one_value(gm, pkt, "INDEX_TYPE", &v)) {
			if (!index_size(v))
				gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "INDEX_TYPE %u is reserved", v & 3);
			gm_regs_write(&gm->regs, REG_VGT_DMA_INDEX_TYPE, v);
		}
		break;
	case PKT3_NUM_INSTANCES:
		if (one_value(gm, pkt, "NUM_INSTANCES", &v)) {
			gm->num_instances = v;
			gm_regs_write(&gm->regs, REG_VGT_NUM_INSTANCES, v);
		}
		break;
	case PKT3_COPY_DATA: copy_data(gm, pkt); break;
	case PKT3_WRITE_DATA: write_data(gm, pkt); break;
	case PKT3_WAIT_REG_MEM: wait_reg_mem(gm, pkt); break;
	case PKT3_EVENT_WRITE: gm_cp_event_write(gm, pkt); break;
	case PKT3_EVENT_WRITE_EOP: event_write_eop(gm, pkt); break;
	case PKT3_STRMOUT_BUFFER_UPDATE: gm_cp_strmout_buffer_update(gm, pkt); break;
	case PKT3_SET_PREDICATION: gm_cp_set_predication(gm, pkt); break;
	case PKT3_LOAD_CONTEXT_REG_INDEX: load_context_reg_index(gm, pkt); break;
	case PKT3_DISPATCH_DIRECT:
	case PKT3_DISPATCH_INDIRECT: dispatch_packet(gm, pkt); break;
	case PKT3_DRAW_INDEX_AUTO:
	case PKT3_DRAW_INDEX_2:
	case PKT3_DRAW_INDEX_OFFSET_2:
	case PKT3_DRAW_INDIRECT:
	case PKT3_DRAW_INDEX_INDIRECT:
		draw_packet(gm, pkt);
		break;
	default:
		gm_fault_record(&gm->faults, GM_FAULT_BAD_PACKET, 0, "unknown type-3 opcode 0x%02x (%u payload dwords skipped)",
				opcode, pkt->payload_dw);
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
				ib_va = (uint64_t)dw[pos + 1] | (uint64_t)(dw[pos + 2] & 0xFFFFu) << 32;
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
			execute(gm, &(struct pm4_packet){
				.kind = PM4_PKT_TYPE3, .offset_dw = pos, .size_dw = 1 + n, .header = hdr,
				.opcode = opcode, .predicate = pm4_hdr_predicate(hdr),
				.compute = pm4_hdr_compute(hdr), .payload_dw = n, .payload = dw + pos + 1 });
			pos += 1 + n;
		}
		if (!chained)
			return;
	}
}
