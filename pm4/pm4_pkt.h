/*
 * pm4_pkt.h - PM4 type-3 packets: builders and parsers side by side.
 *
 * For every packet the database (specs/gfx8_regs.xml; docs/gcn-streamout.md
 * §5) knows, this header has a builder that appends it to a command stream
 * and, right below it, the typed payload struct and the unpacker that reads
 * it back, so a layout is written down once per direction, next to each
 * other.  The
 * round trip builder -> pm4_parser_next() -> unpacker is unit-tested for
 * every kind (tests/unit/pm4).
 *
 * Header (docs/gcn-streamout.md §5.1):
 *   [31:30] TYPE=3  [29:16] COUNT = payload dwords - 1
 *   [15:8] IT_OPCODE  [1] SHADER_TYPE  [0] PREDICATE
 * Two special dwords: 0x80000000 is a type-2 NOP (1 dword) and 0xFFFF1000
 * (NOP with COUNT 0x3FFF) a header-only type-3 NOP (1 dword).
 *
 * Builders never fail: they append to caller storage and, when it is full,
 * drop the packet and set cs->overflow; an argument they cannot encode (a
 * register outside every SET_* space) sets cs->invalid.  Check both once
 * after building.
 *
 * The parser is bounds-checked and never reads outside the buffer.  A dword
 * that cannot start a packet yields one PM4_PKT_BAD item that spans up to the
 * next plausible header (a known opcode whose count fits), so callers resync
 * without having to know how.
 */
#ifndef PM4_PKT_H
#define PM4_PKT_H

#include <stdbool.h>
#include <stdint.h>

#include "pm4_regs.h"
#include "xt_rc.h"

/* ---------------------------------------------------------------- header */

#define PM4_TYPE2_NOP 0x80000000u
#define PM4_NOP_PAD   0xFFFF1000u   /* PKT3(NOP, 0x3FFF, 0): a 1-dword packet */
#define PM4_MAX_PAYLOAD_DW 0x4000u  /* COUNT is 14 bits */

/* Type-3 header for `payload_dw` (1..0x4000) payload dwords. */
static inline uint32_t pm4_pkt3_header(unsigned opcode, uint32_t payload_dw, bool predicate)
{
	return (3u << 30) | (((payload_dw - 1u) & 0x3FFFu) << 16) |
	       ((opcode & 0xFFu) << 8) | (predicate ? 1u : 0u);
}

static inline unsigned pm4_hdr_type(uint32_t h) { return h >> 30; }
static inline unsigned pm4_hdr_opcode(uint32_t h) { return (h >> 8) & 0xFFu; }
/* Payload dwords announced by a type-3 header (COUNT + 1). */
static inline uint32_t pm4_hdr_payload_dw(uint32_t h) { return ((h >> 16) & 0x3FFFu) + 1u; }
static inline bool pm4_hdr_predicate(uint32_t h) { return h & 1u; }
static inline bool pm4_hdr_compute(uint32_t h) { return (h >> 1) & 1u; }

/* ---------------------------------------------------------- command stream */

struct pm4_cs {
	uint32_t *buf;          /* caller storage */
	uint32_t cdw;           /* dwords written */
	uint32_t max_dw;        /* capacity of buf */
	bool overflow;          /* a packet did not fit and was dropped */
	bool invalid;           /* a builder got an argument it cannot encode */
	bool predicate;         /* header PREDICATE bit of the packets emitted while set */
};

static inline void pm4_cs_init(struct pm4_cs *cs, uint32_t *storage, uint32_t max_dw)
{
	cs->buf = storage;
	cs->cdw = 0;
	cs->max_dw = max_dw;
	cs->overflow = cs->invalid = cs->predicate = false;
}

static inline bool pm4_cs_ok(const struct pm4_cs *cs) { return !cs->overflow && !cs->invalid; }

/*
 * Reserves room for a whole packet; false (and overflow set) if it does not
 * fit, so no packet is ever half written.
 */
static inline bool pm4_cs_room(struct pm4_cs *cs, uint32_t dw)
{
	if (cs->overflow || dw > cs->max_dw - cs->cdw) {
		cs->overflow = true;
		return false;
	}
	return true;
}

/* Appends one dword; only call after pm4_cs_room() said yes. */
static inline void pm4_emit(struct pm4_cs *cs, uint32_t v) { cs->buf[cs->cdw++] = v; }

static inline void pm4_emit_hdr(struct pm4_cs *cs, unsigned opcode, uint32_t payload_dw)
{
	pm4_emit(cs, pm4_pkt3_header(opcode, payload_dw, cs->predicate));
}

static inline uint32_t pm4_lo32(uint64_t v) { return (uint32_t)v; }
static inline uint32_t pm4_hi32(uint64_t v) { return (uint32_t)(v >> 32); }

/* ---------------------------------------------------------------- parser */

enum pm4_pkt_kind {
	PM4_PKT_TYPE3 = 0,      /* a type-3 packet (opcode known or not) */
	PM4_PKT_TYPE2_NOP = 1,  /* 0x80000000 */
	PM4_PKT_BAD = 2,        /* dwords that start no packet: size_dw of them */
};

struct pm4_set_reg {            /* SET_{CONFIG,CONTEXT,SH,UCONFIG}_REG(_INDEX) */
	unsigned opcode;
	enum pm4_reg_space space;
	uint32_t reg;           /* byte address of the first register */
	uint32_t index;         /* INDEX [31:28] of the offset dword */
	uint32_t num_values;
	const uint32_t *values; /* borrowed from the parsed buffer */
};

struct pm4_event_write {
	uint32_t event_type;    /* V_SO_VGTSTREAMOUT_FLUSH, ... */
	uint32_t event_index;
	bool inv_l2;
	bool has_address;       /* 3 payload dwords */
	uint64_t address;
};

struct pm4_event_write_eop {
	uint32_t event_type, event_index;
	uint64_t address;       /* 48 bits */
	uint32_t int_sel, data_sel;
	uint64_t data;
};

struct pm4_strmout_buffer_update {
	bool store_filled_size;     /* write FILLED_SIZE[buffer] to dst_address */
	uint32_t offset_source;     /* V_STRMOUT_OFFSET_FROM_PACKET ... _NONE */
	uint32_t data_type;         /* V_STRMOUT_DATA_TYPE_DWORDS / _BYTES */
	uint32_t buffer_select;     /* 0..3 */
	uint64_t dst_address;
	uint32_t buffer_offset;     /* dword 4 (the offset for FROM_PACKET) */
	uint64_t src_address;       /* dwords 4/5 (FROM_MEM) */
};

struct pm4_draw_index_auto { uint32_t vertex_count, draw_initiator; };
struct pm4_draw_index_2 {
	uint32_t max_size;
	uint64_t index_base;        /* 40 bits */
	uint32_t index_count, draw_initiator;
};
struct pm4_draw_index_offset_2 { uint32_t max_size, index_offset, index_count, draw_initiator; };
struct pm4_draw_indirect {      /* DRAW_INDIRECT and DRAW_INDEX_INDIRECT */
	uint32_t data_offset, base_vtx_loc, start_inst_loc, draw_initiator;
};
struct pm4_draw_indirect_multi {
	uint32_t data_offset, base_vtx_loc, start_inst_loc;
	uint32_t draw_index_loc;
	bool count_indirect_enable, draw_index_enable;
	uint32_t count;
	uint64_t count_address;
	uint32_t stride, draw_initiator;
};
struct pm4_copy_data {
	uint32_t src_sel, dst_sel;  /* V_COPY_DATA_SRC_*, V_COPY_DATA_DST_* */
	bool count_sel, wr_confirm; /* count_sel: 64-bit */
	uint32_t engine_sel;
	uint32_t control;           /* the whole control dword */
	uint64_t src, dst;          /* address, absolute reg dword, or immediate */
};
struct pm4_write_data {
	uint32_t dst_sel, engine_sel;
	bool wr_one_addr, wr_confirm;
	uint64_t dst;
	uint32_t num_data;
	const uint32_t *data;       /* borrowed */
};
struct pm4_wait_reg_mem {
	uint32_t function, mem_space, operation, engine;
	uint64_t address;           /* memory VA, or absolute register dword */
	uint32_t reference, mask, poll_interval;
};
struct pm4_context_control { uint32_t load_control, shadow_control; };
struct pm4_set_predication {
	uint64_t address;           /* 40 bits */
	bool draw_visible, hint_nowait, continue_;
	uint32_t pred_op;
};
struct pm4_set_base { uint32_t base_index; uint64_t address; };
struct pm4_index_base { uint64_t address; uint32_t base_select; };
struct pm4_load_context_reg_index { uint64_t address; uint32_t reg; /* byte */ uint32_t num_dw; };
struct pm4_nop { uint32_t num_body; const uint32_t *body; };
struct pm4_one_value { uint32_t value; };  /* NUM_INSTANCES, INDEX_TYPE, INDEX_BUFFER_SIZE, CLEAR_STATE, PFP_SYNC_ME */

union pm4_payload {
	struct pm4_set_reg set_reg;
	struct pm4_event_write event_write;
	struct pm4_event_write_eop event_write_eop;
	struct pm4_strmout_buffer_update strmout_buffer_update;
	struct pm4_draw_index_auto draw_index_auto;
	struct pm4_draw_index_2 draw_index_2;
	struct pm4_draw_index_offset_2 draw_index_offset_2;
	struct pm4_draw_indirect draw_indirect;
	struct pm4_draw_indirect_multi draw_indirect_multi;
	struct pm4_copy_data copy_data;
	struct pm4_write_data write_data;
	struct pm4_wait_reg_mem wait_reg_mem;
	struct pm4_context_control context_control;
	struct pm4_set_predication set_predication;
	struct pm4_set_base set_base;
	struct pm4_index_base index_base;
	struct pm4_load_context_reg_index load_context_reg_index;
	struct pm4_nop nop;
	struct pm4_one_value one;
};

struct pm4_packet {
	enum pm4_pkt_kind kind;
	uint32_t offset_dw;         /* position of the header / first bad dword */
	uint32_t size_dw;           /* dwords covered (header + payload, or bad span) */
	uint32_t header;            /* the first dword */
	unsigned opcode;            /* type 3 only */
	bool predicate, compute;    /* header bits 0 and 1 */
	uint32_t payload_dw;        /* dwords after the header */
	const uint32_t *payload;    /* borrowed from the parsed buffer */
	const struct pm4_packet_info *info;  /* NULL: opcode not in the database */
	bool count_bad;             /* known opcode, payload_dw outside min..max */
	const char *bad_reason;     /* PM4_PKT_BAD: why the header is bad (static) */
	bool typed;                 /* `u` holds the unpacked payload */
	union pm4_payload u;
};

struct pm4_parser {
	const uint32_t *buf;        /* borrowed; must outlive the parser */
	uint32_t num_dw;
	uint32_t pos;               /* next dword to read */
};

void pm4_parser_init(struct pm4_parser *ps, const uint32_t *buf, uint32_t num_dw);
/*
 * Reads the next item into *pkt.  Returns false at the end of the buffer.
 * Type-3 packets of a known opcode with a valid count are unpacked into
 * pkt->u (pkt->typed).  Never reads outside buf.
 */
bool pm4_parser_next(struct pm4_parser *ps, struct pm4_packet *pkt);

/*
 * Why the dword at `at`, with `left_dw` dwords left in the buffer (itself
 * included, >= 1), cannot start a packet; NULL if it can.  `strict` (used to
 * resync) also demands a known opcode whose count fits its layout and, for
 * SET_*_REG, a register range inside its space.
 */
const char *pm4_header_problem(const uint32_t *at, uint32_t left_dw, bool strict);

/*
 * Unpacks a type-3 packet's payload by opcode.  XT_ERR_CORRUPT if the
 * payload is too short for the layout (or the opcode has no typed form:
 * XT_ERR_UNSUPPORTED); *out is then unspecified.
 */
enum xt_rc pm4_packet_unpack(const struct pm4_packet *pkt, union pm4_payload *out);

/* ============================================================ the packets */

/* NOP (0x10): body of n >= 1 dwords, ignored by the CP. */
static inline void pm4_nop(struct pm4_cs *cs, const uint32_t *body, uint32_t n)
{
	if (n == 0 || n > PM4_MAX_PAYLOAD_DW) {
		cs->invalid = true;
		return;
	}
	if (!pm4_cs_room(cs, n + 1))
		return;
	pm4_emit_hdr(cs, PKT3_NOP, n);
	for (uint32_t i = 0; i < n; i++)
		pm4_emit(cs, body ? body[i] : 0);
}
static inline void pm4_nop_pad(struct pm4_cs *cs)
{
	if (pm4_cs_room(cs, 1))
		pm4_emit(cs, PM4_NOP_PAD);
}
static inline void pm4_type2_nop(struct pm4_cs *cs)
{
	if (pm4_cs_room(cs, 1))
		pm4_emit(cs, PM4_TYPE2_NOP);
}
/* NOP parses into u.nop (a header-only 0xFFFF1000 has num_body 0). */

/* SET_BASE (0x11) */
static inline void pm4_set_base(struct pm4_cs *cs, uint32_t base_index, uint64_t va)
{
	if (!pm4_cs_room(cs, 4))
		return;
	pm4_emit_hdr(cs, PKT3_SET_BASE, 3);
	pm4_emit(cs, PKT3_SET_BASE_BASE_INDEX_BASE_INDEX(base_index));
	pm4_emit(cs, pm4_lo32(va));
	pm4_emit(cs, pm4_hi32(va) & 0xFFFFu);
}
enum xt_rc pm4_set_base_unpack(const struct pm4_packet *p, struct pm4_set_base *out);

/* DISPATCH_DIRECT (0x15): dim_x x dim_y x dim_z workgroups. */
static inline void pm4_dispatch_direct(struct pm4_cs *cs, uint32_t dim_x, uint32_t dim_y, uint32_t dim_z,
				       uint32_t dispatch_initiator)
{
	if (!pm4_cs_room(cs, 5))
		return;
	pm4_emit_hdr(cs, PKT3_DISPATCH_DIRECT, 4);
	pm4_emit(cs, dim_x);
	pm4_emit(cs, dim_y);
	pm4_emit(cs, dim_z);
	pm4_emit(cs, dispatch_initiator);
}

/* DISPATCH_INDIRECT (0x16): the group counts at SET_BASE(1) + data_offset. */
static inline void pm4_dispatch_indirect(struct pm4_cs *cs, uint32_t data_offset, uint32_t dispatch_initiator)
{
	if (!pm4_cs_room(cs, 3))
		return;
	pm4_emit_hdr(cs, PKT3_DISPATCH_INDIRECT, 2);
	pm4_emit(cs, data_offset);
	pm4_emit(cs, dispatch_initiator);
}

/* CLEAR_STATE (0x12), PFP_SYNC_ME (0x42): one dummy dword. */
static inline void pm4_clear_state(struct pm4_cs *cs)
{
	if (!pm4_cs_room(cs, 2))
		return;
	pm4_emit_hdr(cs, PKT3_CLEAR_STATE, 1);
	pm4_emit(cs, 0);
}
static inline void pm4_pfp_sync_me(struct pm4_cs *cs)
{
	if (!pm4_cs_room(cs, 2))
		return;
	pm4_emit_hdr(cs, PKT3_PFP_SYNC_ME, 1);
	pm4_emit(cs, 0);
}

/* One-value packets: INDEX_BUFFER_SIZE (0x13), INDEX_TYPE (0x2A), NUM_INSTANCES (0x2F). */
static inline void pm4_one_value_packet(struct pm4_cs *cs, unsigned opcode, uint32_t v)
{
	if (!pm4_cs_room(cs, 2))
		return;
	pm4_emit_hdr(cs, opcode, 1);
	pm4_emit(cs, v);
}
static inline void pm4_index_buffer_size(struct pm4_cs *cs, uint32_t num_indices)
{
	pm4_one_value_packet(cs, PKT3_INDEX_BUFFER_SIZE, num_indices);
}
/* `vgt_dma_index_type`: VGT_DMA_INDEX_TYPE fields, e.g. VGT_DMA_INDEX_TYPE_INDEX_TYPE(V_VGT_INDEX_32). */
static inline void pm4_index_type(struct pm4_cs *cs, uint32_t vgt_dma_index_type)
{
	pm4_one_value_packet(cs, PKT3_INDEX_TYPE, vgt_dma_index_type);
}
static inline void pm4_num_instances(struct pm4_cs *cs, uint32_t n)
{
	pm4_one_value_packet(cs, PKT3_NUM_INSTANCES, n);
}
/* These (and CLEAR_STATE, PFP_SYNC_ME) parse into u.one. */

/* SET_PREDICATION (0x20), GFX6-8 layout. */
static inline void pm4_set_predication(struct pm4_cs *cs, const struct pm4_set_predication *p)
{
	if (!pm4_cs_room(cs, 3))
		return;
	pm4_emit_hdr(cs, PKT3_SET_PREDICATION, 2);
	pm4_emit(cs, pm4_lo32(p->address));
	pm4_emit(cs, PKT3_SET_PREDICATION_PRED_CONTROL_ADDRESS_HI(pm4_hi32(p->address)) |
		     PKT3_SET_PREDICATION_PRED_CONTROL_DRAW_VISIBLE(p->draw_visible) |
		     PKT3_SET_PREDICATION_PRED_CONTROL_HINT(p->hint_nowait) |
		     PKT3_SET_PREDICATION_PRED_CONTROL_PRED_OP(p->pred_op) |
		     PKT3_SET_PREDICATION_PRED_CONTROL_CONTINUE(p->continue_));
}
enum xt_rc pm4_set_predication_unpack(const struct pm4_packet *p, struct pm4_set_predication *out);

/* DRAW_INDIRECT (0x24) / DRAW_INDEX_INDIRECT (0x25): `opcode` picks which. */
static inline void pm4_draw_indirect(struct pm4_cs *cs, unsigned opcode,
				     const struct pm4_draw_indirect *d)
{
	if (opcode != PKT3_DRAW_INDIRECT && opcode != PKT3_DRAW_INDEX_INDIRECT) {
		cs->invalid = true;
		return;
	}
	if (!pm4_cs_room(cs, 5))
		return;
	pm4_emit_hdr(cs, opcode, 4);
	pm4_emit(cs, d->data_offset);
	pm4_emit(cs, d->base_vtx_loc & 0xFFFFu);
	pm4_emit(cs, d->start_inst_loc & 0xFFFFu);
	pm4_emit(cs, d->draw_initiator);
}
enum xt_rc pm4_draw_indirect_unpack(const struct pm4_packet *p, struct pm4_draw_indirect *out);

/* INDEX_BASE (0x26) */
static inline void pm4_index_base(struct pm4_cs *cs, uint64_t va, uint32_t base_select)
{
	if (!pm4_cs_room(cs, 3))
		return;
	pm4_emit_hdr(cs, PKT3_INDEX_BASE, 2);
	pm4_emit(cs, pm4_lo32(va));
	pm4_emit(cs, PKT3_INDEX_BASE_ADDRESS_HI_ADDRESS_HI(pm4_hi32(va)) |
		     PKT3_INDEX_BASE_ADDRESS_HI_BASE_SELECT(base_select));
}
enum xt_rc pm4_index_base_unpack(const struct pm4_packet *p, struct pm4_index_base *out);

/* DRAW_INDEX_2 (0x27) */
static inline void pm4_draw_index_2(struct pm4_cs *cs, const struct pm4_draw_index_2 *d)
{
	if (!pm4_cs_room(cs, 6))
		return;
	pm4_emit_hdr(cs, PKT3_DRAW_INDEX_2, 5);
	pm4_emit(cs, d->max_size);
	pm4_emit(cs, pm4_lo32(d->index_base));
	pm4_emit(cs, VGT_DMA_BASE_HI_BASE_ADDR(pm4_hi32(d->index_base)));
	pm4_emit(cs, d->index_count);
	pm4_emit(cs, d->draw_initiator);
}
enum xt_rc pm4_draw_index_2_unpack(const struct pm4_packet *p, struct pm4_draw_index_2 *out);

/* CONTEXT_CONTROL (0x28); radeonsi 18: pm4_context_control(cs, 0x80000000, 0x80000000). */
static inline void pm4_context_control(struct pm4_cs *cs, uint32_t load, uint32_t shadow)
{
	if (!pm4_cs_room(cs, 3))
		return;
	pm4_emit_hdr(cs, PKT3_CONTEXT_CONTROL, 2);
	pm4_emit(cs, load);
	pm4_emit(cs, shadow);
}
enum xt_rc pm4_context_control_unpack(const struct pm4_packet *p, struct pm4_context_control *out);

/* DRAW_INDIRECT_MULTI (0x2C) */
static inline void pm4_draw_indirect_multi(struct pm4_cs *cs, const struct pm4_draw_indirect_multi *d)
{
	if (!pm4_cs_room(cs, 10))
		return;
	pm4_emit_hdr(cs, PKT3_DRAW_INDIRECT_MULTI, 9);
	pm4_emit(cs, d->data_offset);
	pm4_emit(cs, d->base_vtx_loc & 0xFFFFu);
	pm4_emit(cs, d->start_inst_loc & 0xFFFFu);
	pm4_emit(cs, PKT3_DRAW_INDIRECT_MULTI_DRAW_INDEX_LOC_DRAW_INDEX_LOC(d->draw_index_loc) |
		     PKT3_DRAW_INDIRECT_MULTI_DRAW_INDEX_LOC_COUNT_INDIRECT_ENABLE(d->count_indirect_enable) |
		     PKT3_DRAW_INDIRECT_MULTI_DRAW_INDEX_LOC_DRAW_INDEX_ENABLE(d->draw_index_enable));
	pm4_emit(cs, d->count);
	pm4_emit(cs, pm4_lo32(d->count_address));
	pm4_emit(cs, pm4_hi32(d->count_address));
	pm4_emit(cs, d->stride);
	pm4_emit(cs, d->draw_initiator);
}
enum xt_rc pm4_draw_indirect_multi_unpack(const struct pm4_packet *p, struct pm4_draw_indirect_multi *out);

/*
 * DRAW_INDEX_AUTO (0x2D).  A plain draw: draw_initiator =
 * VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_AUTO_INDEX); DrawTF: count 0
 * and | VGT_DRAW_INITIATOR_USE_OPAQUE(1) (= 0x42, docs/gcn-streamout.md
 * §6.6).
 */
static inline void pm4_draw_index_auto(struct pm4_cs *cs, uint32_t vertex_count,
				       uint32_t draw_initiator)
{
	if (!pm4_cs_room(cs, 3))
		return;
	pm4_emit_hdr(cs, PKT3_DRAW_INDEX_AUTO, 2);
	pm4_emit(cs, vertex_count);
	pm4_emit(cs, draw_initiator);
}
enum xt_rc pm4_draw_index_auto_unpack(const struct pm4_packet *p, struct pm4_draw_index_auto *out);

/*
 * STRMOUT_BUFFER_UPDATE (0x34), docs/gcn-streamout.md §5.3.  Dwords 4/5
 * carry src_address when offset_source is FROM_MEM, else dword 4 =
 * buffer_offset, dword 5 = 0.
 * radeonsi: begin {.offset_source = FROM_PACKET, .buffer_offset = off_dw},
 * resume {FROM_MEM, .src_address = slot}, end {NONE, .store_filled_size = 1,
 * .dst_address = slot}.
 */
static inline void pm4_strmout_buffer_update(struct pm4_cs *cs,
					     const struct pm4_strmout_buffer_update *u)
{
	bool from_mem = u->offset_source == V_STRMOUT_OFFSET_FROM_MEM;

	if (!pm4_cs_room(cs, 6))
		return;
	pm4_emit_hdr(cs, PKT3_STRMOUT_BUFFER_UPDATE, 5);
	pm4_emit(cs, PKT3_STRMOUT_BUFFER_UPDATE_CONTROL_STORE_BUFFER_FILLED_SIZE(u->store_filled_size) |
		     PKT3_STRMOUT_BUFFER_UPDATE_CONTROL_OFFSET_SOURCE(u->offset_source) |
		     PKT3_STRMOUT_BUFFER_UPDATE_CONTROL_DATA_TYPE(u->data_type) |
		     PKT3_STRMOUT_BUFFER_UPDATE_CONTROL_BUFFER_SELECT(u->buffer_select));
	pm4_emit(cs, pm4_lo32(u->dst_address));
	pm4_emit(cs, pm4_hi32(u->dst_address) & 0xFFFFu);
	pm4_emit(cs, from_mem ? pm4_lo32(u->src_address) : u->buffer_offset);
	pm4_emit(cs, from_mem ? pm4_hi32(u->src_address) & 0xFFFFu : 0);
}
/* Fills both buffer_offset (dword 4) and src_address (dwords 4/5). */
enum xt_rc pm4_strmout_buffer_update_unpack(const struct pm4_packet *p,
					    struct pm4_strmout_buffer_update *out);

/* DRAW_INDEX_OFFSET_2 (0x35) */
static inline void pm4_draw_index_offset_2(struct pm4_cs *cs, const struct pm4_draw_index_offset_2 *d)
{
	if (!pm4_cs_room(cs, 5))
		return;
	pm4_emit_hdr(cs, PKT3_DRAW_INDEX_OFFSET_2, 4);
	pm4_emit(cs, d->max_size);
	pm4_emit(cs, d->index_offset);
	pm4_emit(cs, d->index_count);
	pm4_emit(cs, d->draw_initiator);
}
enum xt_rc pm4_draw_index_offset_2_unpack(const struct pm4_packet *p, struct pm4_draw_index_offset_2 *out);

/* WRITE_DATA (0x37): n >= 1 data dwords to dst (address or absolute reg dword). */
static inline void pm4_write_data(struct pm4_cs *cs, uint32_t dst_sel, uint32_t engine_sel,
				  bool wr_confirm, uint64_t dst, const uint32_t *data, uint32_t n)
{
	if (n == 0 || n > PM4_MAX_PAYLOAD_DW - 3) {
		cs->invalid = true;
		return;
	}
	if (!pm4_cs_room(cs, 4 + n))
		return;
	pm4_emit_hdr(cs, PKT3_WRITE_DATA, 3 + n);
	pm4_emit(cs, PKT3_WRITE_DATA_CONTROL_DST_SEL(dst_sel) |
		     PKT3_WRITE_DATA_CONTROL_WR_CONFIRM(wr_confirm) |
		     PKT3_WRITE_DATA_CONTROL_ENGINE_SEL(engine_sel));
	pm4_emit(cs, pm4_lo32(dst));
	pm4_emit(cs, pm4_hi32(dst));
	for (uint32_t i = 0; i < n; i++)
		pm4_emit(cs, data[i]);
}
enum xt_rc pm4_write_data_unpack(const struct pm4_packet *p, struct pm4_write_data *out);

/*
 * WAIT_REG_MEM (0x3C).  radeonsi's streamout flush wait:
 * {V_WAIT_REG_MEM_EQUAL, V_WAIT_REG_MEM_SPACE_REGISTER, 0, ENGINE_ME,
 *  REG_CP_STRMOUT_CNTL >> 2, 1, CP_STRMOUT_CNTL_OFFSET_UPDATE_DONE(1), 4}.
 */
static inline void pm4_wait_reg_mem(struct pm4_cs *cs, const struct pm4_wait_reg_mem *w)
{
	if (!pm4_cs_room(cs, 7))
		return;
	pm4_emit_hdr(cs, PKT3_WAIT_REG_MEM, 6);
	pm4_emit(cs, PKT3_WAIT_REG_MEM_OP_FUNCTION(w->function) |
		     PKT3_WAIT_REG_MEM_OP_MEM_SPACE(w->mem_space) |
		     PKT3_WAIT_REG_MEM_OP_OPERATION(w->operation) |
		     PKT3_WAIT_REG_MEM_OP_ENGINE(w->engine));
	pm4_emit(cs, pm4_lo32(w->address));
	pm4_emit(cs, pm4_hi32(w->address));
	pm4_emit(cs, w->reference);
	pm4_emit(cs, w->mask);
	pm4_emit(cs, w->poll_interval);
}
enum xt_rc pm4_wait_reg_mem_unpack(const struct pm4_packet *p, struct pm4_wait_reg_mem *out);

/*
 * COPY_DATA (0x40).  `control` from the PKT3_COPY_DATA_CONTROL_* macros;
 * radeonsi's DrawTF load: control 0x00100001 (SRC mem, DST reg, WR_CONFIRM),
 * src = filled-size slot, dst = REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE >> 2.
 */
static inline void pm4_copy_data(struct pm4_cs *cs, uint32_t control, uint64_t src, uint64_t dst)
{
	if (!pm4_cs_room(cs, 6))
		return;
	pm4_emit_hdr(cs, PKT3_COPY_DATA, 5);
	pm4_emit(cs, control);
	pm4_emit(cs, pm4_lo32(src));
	pm4_emit(cs, pm4_hi32(src));
	pm4_emit(cs, pm4_lo32(dst));
	pm4_emit(cs, pm4_hi32(dst));
}
enum xt_rc pm4_copy_data_unpack(const struct pm4_packet *p, struct pm4_copy_data *out);

/* EVENT_WRITE (0x46) without an address, e.g. (V_SO_VGTSTREAMOUT_FLUSH, 0). */
static inline void pm4_event_write(struct pm4_cs *cs, uint32_t event_type, uint32_t event_index)
{
	if (!pm4_cs_room(cs, 2))
		return;
	pm4_emit_hdr(cs, PKT3_EVENT_WRITE, 1);
	pm4_emit(cs, PKT3_EVENT_WRITE_EVENT_CNTL_EVENT_TYPE(event_type) |
		     PKT3_EVENT_WRITE_EVENT_CNTL_EVENT_INDEX(event_index));
}
/* EVENT_WRITE with an address (SAMPLE_STREAMOUTSTATS*: index 3; va 8-byte aligned). */
static inline void pm4_event_write_addr(struct pm4_cs *cs, uint32_t event_type,
					uint32_t event_index, uint64_t va)
{
	if (!pm4_cs_room(cs, 4))
		return;
	pm4_emit_hdr(cs, PKT3_EVENT_WRITE, 3);
	pm4_emit(cs, PKT3_EVENT_WRITE_EVENT_CNTL_EVENT_TYPE(event_type) |
		     PKT3_EVENT_WRITE_EVENT_CNTL_EVENT_INDEX(event_index));
	pm4_emit(cs, pm4_lo32(va));
	pm4_emit(cs, pm4_hi32(va) & 0xFFFFu);
}
enum xt_rc pm4_event_write_unpack(const struct pm4_packet *p, struct pm4_event_write *out);

/* EVENT_WRITE_EOP (0x47) */
static inline void pm4_event_write_eop(struct pm4_cs *cs, const struct pm4_event_write_eop *e)
{
	if (!pm4_cs_room(cs, 6))
		return;
	pm4_emit_hdr(cs, PKT3_EVENT_WRITE_EOP, 5);
	pm4_emit(cs, PKT3_EVENT_WRITE_EOP_EVENT_CNTL_EVENT_TYPE(e->event_type) |
		     PKT3_EVENT_WRITE_EOP_EVENT_CNTL_EVENT_INDEX(e->event_index));
	pm4_emit(cs, pm4_lo32(e->address));
	pm4_emit(cs, PKT3_EVENT_WRITE_EOP_DATA_CNTL_ADDRESS_HI(pm4_hi32(e->address)) |
		     PKT3_EVENT_WRITE_EOP_DATA_CNTL_INT_SEL(e->int_sel) |
		     PKT3_EVENT_WRITE_EOP_DATA_CNTL_DATA_SEL(e->data_sel));
	pm4_emit(cs, pm4_lo32(e->data));
	pm4_emit(cs, pm4_hi32(e->data));
}
enum xt_rc pm4_event_write_eop_unpack(const struct pm4_packet *p, struct pm4_event_write_eop *out);

/*
 * SET_*_REG (0x68 config, 0x69 context, 0x76 SH, 0x79 uconfig).
 * pm4_set_reg_seq() writes the header and the offset dword for `n` (>= 1)
 * consecutive registers starting at byte address `reg` and reserves room
 * for the values; the caller then pm4_emit()s exactly n values.  It returns
 * false (and emits nothing) if the packet does not fit or `reg` is in no
 * space (cs->invalid).  The packet follows from the address
 * (docs/gcn-streamout.md §2).
 */
static inline unsigned pm4_set_reg_opcode(enum pm4_reg_space space)
{
	switch (space) {
	case PM4_SPACE_CONFIG: return PKT3_SET_CONFIG_REG;
	case PM4_SPACE_SH: return PKT3_SET_SH_REG;
	case PM4_SPACE_CONTEXT: return PKT3_SET_CONTEXT_REG;
	case PM4_SPACE_UCONFIG: return PKT3_SET_UCONFIG_REG;
	default: return 0;
	}
}
static inline bool pm4_set_reg_seq_idx(struct pm4_cs *cs, uint32_t reg, uint32_t n, uint32_t index)
{
	enum pm4_reg_space space = pm4_reg_space_of(reg);

	if (space == PM4_SPACE_NONE || reg % 4 || n == 0 || n >= PM4_MAX_PAYLOAD_DW || index > 15) {
		cs->invalid = true;
		return false;
	}
	if (!pm4_cs_room(cs, 2 + n))
		return false;
	pm4_emit_hdr(cs, pm4_set_reg_opcode(space), 1 + n);
	pm4_emit(cs, ((reg - pm4_reg_space_base(space)) >> 2) | (index << 28));
	return true;
}
static inline bool pm4_set_reg_seq(struct pm4_cs *cs, uint32_t reg, uint32_t n)
{
	return pm4_set_reg_seq_idx(cs, reg, n, 0);
}
/* One register, any space: pm4_set_reg(cs, REG_VGT_STRMOUT_CONFIG, v). */
static inline void pm4_set_reg(struct pm4_cs *cs, uint32_t reg, uint32_t value)
{
	if (pm4_set_reg_seq_idx(cs, reg, 1, 0))
		pm4_emit(cs, value);
}
/* The space-checked forms radeonsi's code reads like; a wrong space sets invalid. */
static inline void pm4_set_reg_in(struct pm4_cs *cs, enum pm4_reg_space space,
				  uint32_t reg, uint32_t value, uint32_t index)
{
	if (pm4_reg_space_of(reg) != space) {
		cs->invalid = true;
		return;
	}
	if (pm4_set_reg_seq_idx(cs, reg, 1, index))
		pm4_emit(cs, value);
}
static inline void pm4_set_config_reg(struct pm4_cs *cs, uint32_t reg, uint32_t v)
{
	pm4_set_reg_in(cs, PM4_SPACE_CONFIG, reg, v, 0);
}
static inline void pm4_set_context_reg(struct pm4_cs *cs, uint32_t reg, uint32_t v)
{
	pm4_set_reg_in(cs, PM4_SPACE_CONTEXT, reg, v, 0);
}
static inline void pm4_set_sh_reg(struct pm4_cs *cs, uint32_t reg, uint32_t v)
{
	pm4_set_reg_in(cs, PM4_SPACE_SH, reg, v, 0);
}
static inline void pm4_set_uconfig_reg(struct pm4_cs *cs, uint32_t reg, uint32_t v)
{
	pm4_set_reg_in(cs, PM4_SPACE_UCONFIG, reg, v, 0);
}
/* GFX7/8 VGT_PRIMITIVE_TYPE goes with index 1 (docs/gcn-streamout.md §3.2). */
static inline void pm4_set_uconfig_reg_idx(struct pm4_cs *cs, uint32_t reg, uint32_t index, uint32_t v)
{
	pm4_set_reg_in(cs, PM4_SPACE_UCONFIG, reg, v, index);
}
/* Also parses SET_UCONFIG_REG_INDEX (0x7A). */
enum xt_rc pm4_set_reg_unpack(const struct pm4_packet *p, struct pm4_set_reg *out);

/* LOAD_CONTEXT_REG_INDEX (0x9F): load num_dw context registers from `reg` (byte address). */
static inline void pm4_load_context_reg_index(struct pm4_cs *cs, uint64_t va, uint32_t reg, uint32_t num_dw)
{
	if (pm4_reg_space_of(reg) != PM4_SPACE_CONTEXT) {
		cs->invalid = true;
		return;
	}
	if (!pm4_cs_room(cs, 5))
		return;
	pm4_emit_hdr(cs, PKT3_LOAD_CONTEXT_REG_INDEX, 4);
	pm4_emit(cs, pm4_lo32(va));
	pm4_emit(cs, pm4_hi32(va));
	pm4_emit(cs, (reg - PM4_CONTEXT_REG_BASE) >> 2);
	pm4_emit(cs, num_dw);
}
enum xt_rc pm4_load_context_reg_index_unpack(const struct pm4_packet *p,
					     struct pm4_load_context_reg_index *out);

#endif
