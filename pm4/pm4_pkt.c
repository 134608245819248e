/*
 * pm4_pkt.c - the PM4 parser: header checks, resync, and the unpackers
 * that sit next to the builders in pm4_pkt.h.
 *
 * Resync.  PM4 has no sync marker: any dword may look like a header.  When
 * the dword at the read position cannot start a packet (wrong type, reserved
 * bits, a count that runs past the end), the parser looks for the next dword
 * that passes a stricter test - a known opcode whose count fits both its
 * layout and the buffer, or a type-2 NOP - and reports everything in between
 * as one PM4_PKT_BAD item.  The strict test is only for resyncing: at a
 * position reached by following counts, an unknown opcode is still a packet
 * (decoded as raw dwords), as in ac_parse_ib.
 */
#include "pm4_pkt.h"

#include <string.h>

#define CORRUPT XT_ERR_CORRUPT

/* Space a SET_*_REG opcode writes; PM4_SPACE_NONE for other opcodes. */
static enum pm4_reg_space set_reg_space(unsigned opcode)
{
	switch (opcode) {
	case PKT3_SET_CONFIG_REG: return PM4_SPACE_CONFIG;
	case PKT3_SET_CONTEXT_REG: return PM4_SPACE_CONTEXT;
	case PKT3_SET_SH_REG: return PM4_SPACE_SH;
	case PKT3_SET_UCONFIG_REG:
	case PKT3_SET_UCONFIG_REG_INDEX: return PM4_SPACE_UCONFIG;
	default: return PM4_SPACE_NONE;
	}
}

/* Bytes in a register space (docs/gcn-streamout.md §2: Mesa 18's ends). */
static uint32_t space_size(enum pm4_reg_space space)
{
	switch (space) {
	case PM4_SPACE_CONFIG: return PM4_CONFIG_REG_END - PM4_CONFIG_REG_BASE;
	case PM4_SPACE_SH: return PM4_SH_REG_END - PM4_SH_REG_BASE;
	case PM4_SPACE_CONTEXT: return PM4_CONTEXT_REG_END - PM4_CONTEXT_REG_BASE;
	case PM4_SPACE_UCONFIG: return PM4_UCONFIG_REG_END - PM4_UCONFIG_REG_BASE;
	default: return 0;
	}
}

const char *pm4_header_problem(const uint32_t *at, uint32_t left_dw, bool strict)
{
	const struct pm4_packet_info *info;
	uint32_t payload, hdr;

	if (left_dw == 0)
		return "end of buffer";
	hdr = at[0];
	if (hdr == PM4_TYPE2_NOP || hdr == PM4_NOP_PAD)
		return NULL;
	switch (pm4_hdr_type(hdr)) {
	case 0: return "type 0 packet";
	case 1: return "type 1 packet";
	case 2: return "type 2 packet other than NOP";
	default: break;
	}
	/* Assumption: GFX8 uses no header bit in [7:2] (bit 2 is GFX11+). */
	if (hdr & 0xFCu)
		return "reserved header bits [7:2] set";
	payload = pm4_hdr_payload_dw(hdr);
	if (payload > left_dw - 1)
		return "count runs past the end of the buffer";
	if (!strict)
		return NULL;
	info = pm4_packet_by_opcode(pm4_hdr_opcode(hdr));
	if (!info)
		return "unknown opcode";
	if (payload < info->min_dw || payload > info->max_dw)
		return "count does not fit the opcode";
	if (set_reg_space(info->opcode) != PM4_SPACE_NONE) {
		enum pm4_reg_space space = set_reg_space(info->opcode);
		uint32_t first = (at[1] & 0xFFFFu) << 2;
		uint32_t span = space_size(space);

		if (first >= span || (payload - 1u) > (span - first) / 4)
			return "registers outside their space";
	}
	return NULL;
}

void pm4_parser_init(struct pm4_parser *ps, const uint32_t *buf, uint32_t num_dw)
{
	ps->buf = buf;
	ps->num_dw = buf ? num_dw : 0;
	ps->pos = 0;
}

bool pm4_parser_next(struct pm4_parser *ps, struct pm4_packet *pkt)
{
	uint32_t pos = ps->pos, left, hdr;
	const char *problem;

	if (pos >= ps->num_dw)
		return false;
	memset(pkt, 0, sizeof(*pkt));
	left = ps->num_dw - pos;
	hdr = ps->buf[pos];
	pkt->offset_dw = pos;
	pkt->header = hdr;

	problem = pm4_header_problem(ps->buf + pos, left, false);
	if (problem) {
		uint32_t end = pos + 1;

		while (end < ps->num_dw &&
		       pm4_header_problem(ps->buf + end, ps->num_dw - end, true))
			end++;
		pkt->kind = PM4_PKT_BAD;
		pkt->bad_reason = problem;
		pkt->size_dw = end - pos;
		ps->pos = end;
		return true;
	}
	if (hdr == PM4_TYPE2_NOP) {
		pkt->kind = PM4_PKT_TYPE2_NOP;
		pkt->size_dw = 1;
		ps->pos = pos + 1;
		return true;
	}

	pkt->kind = PM4_PKT_TYPE3;
	pkt->opcode = pm4_hdr_opcode(hdr);
	pkt->predicate = pm4_hdr_predicate(hdr);
	pkt->compute = pm4_hdr_compute(hdr);
	pkt->payload = ps->buf + pos + 1;
	pkt->payload_dw = hdr == PM4_NOP_PAD ? 0 : pm4_hdr_payload_dw(hdr);
	pkt->size_dw = 1 + pkt->payload_dw;
	pkt->info = pm4_packet_by_opcode(pkt->opcode);
	if (pkt->info && hdr != PM4_NOP_PAD)
		pkt->count_bad = pkt->payload_dw < pkt->info->min_dw ||
				 pkt->payload_dw > pkt->info->max_dw;
	if (pkt->info && !pkt->count_bad)
		pkt->typed = pm4_packet_unpack(pkt, &pkt->u) == XT_OK;
	ps->pos = pos + pkt->size_dw;
	return true;
}

/* ------------------------------------------------------------ unpackers */

/* Fails unless `p` is opcode `op` with at least `n` payload dwords. */
static bool need(const struct pm4_packet *p, unsigned op, uint32_t n)
{
	return p->kind == PM4_PKT_TYPE3 && p->opcode == op && p->payload_dw >= n;
}

static uint64_t va48(uint32_t lo, uint32_t hi)
{
	return (uint64_t)lo | ((uint64_t)(hi & 0xFFFFu) << 32);
}

static uint64_t va64(uint32_t lo, uint32_t hi)
{
	return (uint64_t)lo | ((uint64_t)hi << 32);
}

enum xt_rc pm4_set_base_unpack(const struct pm4_packet *p, struct pm4_set_base *out)
{
	if (!need(p, PKT3_SET_BASE, 3))
		return CORRUPT;
	out->base_index = PKT3_SET_BASE_BASE_INDEX_BASE_INDEX_GET(p->payload[0]);
	out->address = va48(p->payload[1], p->payload[2]);
	return XT_OK;
}

enum xt_rc pm4_set_predication_unpack(const struct pm4_packet *p, struct pm4_set_predication *out)
{
	uint32_t c;

	if (!need(p, PKT3_SET_PREDICATION, 2))
		return CORRUPT;
	c = p->payload[1];
	out->address = (uint64_t)p->payload[0] |
		       ((uint64_t)PKT3_SET_PREDICATION_PRED_CONTROL_ADDRESS_HI_GET(c) << 32);
	out->draw_visible = PKT3_SET_PREDICATION_PRED_CONTROL_DRAW_VISIBLE_GET(c);
	out->hint_nowait = PKT3_SET_PREDICATION_PRED_CONTROL_HINT_GET(c);
	out->pred_op = PKT3_SET_PREDICATION_PRED_CONTROL_PRED_OP_GET(c);
	out->continue_ = PKT3_SET_PREDICATION_PRED_CONTROL_CONTINUE_GET(c);
	return XT_OK;
}

enum xt_rc pm4_draw_indirect_unpack(const struct pm4_packet *p, struct pm4_draw_indirect *out)
{
	if (!need(p, PKT3_DRAW_INDIRECT, 4) && !need(p, PKT3_DRAW_INDEX_INDIRECT, 4))
		return CORRUPT;
	out->data_offset = p->payload[0];
	out->base_vtx_loc = p->payload[1] & 0xFFFFu;
	out->start_inst_loc = p->payload[2] & 0xFFFFu;
	out->draw_initiator = p->payload[3];
	return XT_OK;
}

enum xt_rc pm4_index_base_unpack(const struct pm4_packet *p, struct pm4_index_base *out)
{
	if (!need(p, PKT3_INDEX_BASE, 2))
		return CORRUPT;
	out->address = va48(p->payload[0], p->payload[1]);
	out->base_select = PKT3_INDEX_BASE_ADDRESS_HI_BASE_SELECT_GET(p->payload[1]);
	return XT_OK;
}

enum xt_rc pm4_draw_index_2_unpack(const struct pm4_packet *p, struct pm4_draw_index_2 *out)
{
	if (!need(p, PKT3_DRAW_INDEX_2, 5))
		return CORRUPT;
	out->max_size = p->payload[0];
	out->index_base = (uint64_t)p->payload[1] |
			  ((uint64_t)VGT_DMA_BASE_HI_BASE_ADDR_GET(p->payload[2]) << 32);
	out->index_count = p->payload[3];
	out->draw_initiator = p->payload[4];
	return XT_OK;
}

enum xt_rc pm4_context_control_unpack(const struct pm4_packet *p, struct pm4_context_control *out)
{
	if (!need(p, PKT3_CONTEXT_CONTROL, 2))
		return CORRUPT;
	out->load_control = p->payload[0];
	out->shadow_control = p->payload[1];
	return XT_OK;
}

enum xt_rc pm4_draw_indirect_multi_unpack(const struct pm4_packet *p,
					  struct pm4_draw_indirect_multi *out)
{
	const uint32_t *d = p->payload;

	if (!need(p, PKT3_DRAW_INDIRECT_MULTI, 9))
		return CORRUPT;
	out->data_offset = d[0];
	out->base_vtx_loc = d[1] & 0xFFFFu;
	out->start_inst_loc = d[2] & 0xFFFFu;
	out->draw_index_loc = PKT3_DRAW_INDIRECT_MULTI_DRAW_INDEX_LOC_DRAW_INDEX_LOC_GET(d[3]);
	out->count_indirect_enable = PKT3_DRAW_INDIRECT_MULTI_DRAW_INDEX_LOC_COUNT_INDIRECT_ENABLE_GET(d[3]);
	out->draw_index_enable = PKT3_DRAW_INDIRECT_MULTI_DRAW_INDEX_LOC_DRAW_INDEX_ENABLE_GET(d[3]);
	out->count = d[4];
	out->count_address = va64(d[5], d[6]);
	out->stride = d[7];
	out->draw_initiator = d[8];
	return XT_OK;
}

enum xt_rc pm4_draw_index_auto_unpack(const struct pm4_packet *p, struct pm4_draw_index_auto *out)
{
	if (!need(p, PKT3_DRAW_INDEX_AUTO, 2))
		return CORRUPT;
	out->vertex_count = p->payload[0];
	out->draw_initiator = p->payload[1];
	return XT_OK;
}

enum xt_rc pm4_strmout_buffer_update_unpack(const struct pm4_packet *p,
					    struct pm4_strmout_buffer_update *out)
{
	uint32_t c;

	if (!need(p, PKT3_STRMOUT_BUFFER_UPDATE, 5))
		return CORRUPT;
	c = p->payload[0];
	out->store_filled_size = PKT3_STRMOUT_BUFFER_UPDATE_CONTROL_STORE_BUFFER_FILLED_SIZE_GET(c);
	out->offset_source = PKT3_STRMOUT_BUFFER_UPDATE_CONTROL_OFFSET_SOURCE_GET(c);
	out->data_type = PKT3_STRMOUT_BUFFER_UPDATE_CONTROL_DATA_TYPE_GET(c);
	out->buffer_select = PKT3_STRMOUT_BUFFER_UPDATE_CONTROL_BUFFER_SELECT_GET(c);
	out->dst_address = va48(p->payload[1], p->payload[2]);
	out->buffer_offset = p->payload[3];
	out->src_address = va48(p->payload[3], p->payload[4]);
	return XT_OK;
}

enum xt_rc pm4_draw_index_offset_2_unpack(const struct pm4_packet *p,
					  struct pm4_draw_index_offset_2 *out)
{
	if (!need(p, PKT3_DRAW_INDEX_OFFSET_2, 4))
		return CORRUPT;
	out->max_size = p->payload[0];
	out->index_offset = p->payload[1];
	out->index_count = p->payload[2];
	out->draw_initiator = p->payload[3];
	return XT_OK;
}

enum xt_rc pm4_write_data_unpack(const struct pm4_packet *p, struct pm4_write_data *out)
{
	uint32_t c;

	if (!need(p, PKT3_WRITE_DATA, 3))
		return CORRUPT;
	c = p->payload[0];
	out->dst_sel = PKT3_WRITE_DATA_CONTROL_DST_SEL_GET(c);
	out->engine_sel = PKT3_WRITE_DATA_CONTROL_ENGINE_SEL_GET(c);
	out->wr_one_addr = PKT3_WRITE_DATA_CONTROL_WR_ONE_ADDR_GET(c);
	out->wr_confirm = PKT3_WRITE_DATA_CONTROL_WR_CONFIRM_GET(c);
	out->dst = va64(p->payload[1], p->payload[2]);
	out->num_data = p->payload_dw - 3;
	out->data = p->payload + 3;
	return XT_OK;
}

enum xt_rc pm4_wait_reg_mem_unpack(const struct pm4_packet *p, struct pm4_wait_reg_mem *out)
{
	uint32_t c;

	if (!need(p, PKT3_WAIT_REG_MEM, 6))
		return CORRUPT;
	c = p->payload[0];
	out->function = PKT3_WAIT_REG_MEM_OP_FUNCTION_GET(c);
	out->mem_space = PKT3_WAIT_REG_MEM_OP_MEM_SPACE_GET(c);
	out->operation = PKT3_WAIT_REG_MEM_OP_OPERATION_GET(c);
	out->engine = PKT3_WAIT_REG_MEM_OP_ENGINE_GET(c);
	out->address = va64(p->payload[1], p->payload[2]);
	out->reference = p->payload[3];
	out->mask = p->payload[4];
	out->poll_interval = p->payload[5];
	return XT_OK;
}

enum xt_rc pm4_copy_data_unpack(const struct pm4_packet *p, struct pm4_copy_data *out)
{
	uint32_t c;

	if (!need(p, PKT3_COPY_DATA, 5))
		return CORRUPT;
	c = p->payload[0];
	out->control = c;
	out->src_sel = PKT3_COPY_DATA_CONTROL_SRC_SEL_GET(c);
	out->dst_sel = PKT3_COPY_DATA_CONTROL_DST_SEL_GET(c);
	out->count_sel = PKT3_COPY_DATA_CONTROL_COUNT_SEL_GET(c);
	out->wr_confirm = PKT3_COPY_DATA_CONTROL_WR_CONFIRM_GET(c);
	out->engine_sel = PKT3_COPY_DATA_CONTROL_ENGINE_SEL_GET(c);
	out->src = va64(p->payload[1], p->payload[2]);
	out->dst = va64(p->payload[3], p->payload[4]);
	return XT_OK;
}

enum xt_rc pm4_event_write_unpack(const struct pm4_packet *p, struct pm4_event_write *out)
{
	uint32_t c;

	if (!need(p, PKT3_EVENT_WRITE, 1))
		return CORRUPT;
	c = p->payload[0];
	out->event_type = PKT3_EVENT_WRITE_EVENT_CNTL_EVENT_TYPE_GET(c);
	out->event_index = PKT3_EVENT_WRITE_EVENT_CNTL_EVENT_INDEX_GET(c);
	out->inv_l2 = PKT3_EVENT_WRITE_EVENT_CNTL_INV_L2_GET(c);
	out->has_address = p->payload_dw >= 3;
	out->address = out->has_address ? va48(p->payload[1], p->payload[2]) : 0;
	return XT_OK;
}

enum xt_rc pm4_event_write_eop_unpack(const struct pm4_packet *p, struct pm4_event_write_eop *out)
{
	uint32_t c;

	if (!need(p, PKT3_EVENT_WRITE_EOP, 5))
		return CORRUPT;
	out->event_type = PKT3_EVENT_WRITE_EOP_EVENT_CNTL_EVENT_TYPE_GET(p->payload[0]);
	out->event_index = PKT3_EVENT_WRITE_EOP_EVENT_CNTL_EVENT_INDEX_GET(p->payload[0]);
	c = p->payload[2];
	out->address = (uint64_t)p->payload[1] |
		       ((uint64_t)PKT3_EVENT_WRITE_EOP_DATA_CNTL_ADDRESS_HI_GET(c) << 32);
	out->int_sel = PKT3_EVENT_WRITE_EOP_DATA_CNTL_INT_SEL_GET(c);
	out->data_sel = PKT3_EVENT_WRITE_EOP_DATA_CNTL_DATA_SEL_GET(c);
	out->data = va64(p->payload[3], p->payload[4]);
	return XT_OK;
}

enum xt_rc pm4_set_reg_unpack(const struct pm4_packet *p, struct pm4_set_reg *out)
{
	enum pm4_reg_space space;

	if (p->kind != PM4_PKT_TYPE3 || p->payload_dw < 1)
		return CORRUPT;
	space = set_reg_space(p->opcode);
	if (space == PM4_SPACE_NONE)
		return CORRUPT;
	out->opcode = p->opcode;
	out->space = space;
	out->reg = pm4_reg_space_base(space) +
		   (PKT3_SET_CONTEXT_REG_REG_OFFSET_REG_OFFSET_GET(p->payload[0]) << 2);
	out->index = PKT3_SET_CONTEXT_REG_REG_OFFSET_INDEX_GET(p->payload[0]);
	out->num_values = p->payload_dw - 1;
	out->values = p->payload + 1;
	return XT_OK;
}

enum xt_rc pm4_load_context_reg_index_unpack(const struct pm4_packet *p,
					     struct pm4_load_context_reg_index *out)
{
	if (!need(p, PKT3_LOAD_CONTEXT_REG_INDEX, 4))
		return CORRUPT;
	out->address = va64(p->payload[0], p->payload[1]);
	out->reg = PM4_CONTEXT_REG_BASE + ((p->payload[2] & 0xFFFFu) << 2);
	out->num_dw = p->payload[3];
	return XT_OK;
}

enum xt_rc pm4_packet_unpack(const struct pm4_packet *p, union pm4_payload *out)
{
	if (p->kind != PM4_PKT_TYPE3)
		return CORRUPT;
	switch (p->opcode) {
	case PKT3_NOP:
		out->nop.num_body = p->payload_dw;
		out->nop.body = p->payload;
		return XT_OK;
	case PKT3_SET_BASE: return pm4_set_base_unpack(p, &out->set_base);
	case PKT3_CLEAR_STATE:
	case PKT3_INDEX_BUFFER_SIZE:
	case PKT3_INDEX_TYPE:
	case PKT3_NUM_INSTANCES:
	case PKT3_PFP_SYNC_ME:
		if (p->payload_dw < 1)
			return CORRUPT;
		out->one.value = p->payload[0];
		return XT_OK;
	case PKT3_SET_PREDICATION: return pm4_set_predication_unpack(p, &out->set_predication);
	case PKT3_DRAW_INDIRECT:
	case PKT3_DRAW_INDEX_INDIRECT: return pm4_draw_indirect_unpack(p, &out->draw_indirect);
	case PKT3_INDEX_BASE: return pm4_index_base_unpack(p, &out->index_base);
	case PKT3_DRAW_INDEX_2: return pm4_draw_index_2_unpack(p, &out->draw_index_2);
	case PKT3_CONTEXT_CONTROL: return pm4_context_control_unpack(p, &out->context_control);
	case PKT3_DRAW_INDIRECT_MULTI: return pm4_draw_indirect_multi_unpack(p, &out->draw_indirect_multi);
	case PKT3_DRAW_INDEX_AUTO: return pm4_draw_index_auto_unpack(p, &out->draw_index_auto);
	case PKT3_STRMOUT_BUFFER_UPDATE:
		return pm4_strmout_buffer_update_unpack(p, &out->strmout_buffer_update);
	case PKT3_DRAW_INDEX_OFFSET_2: return pm4_draw_index_offset_2_unpack(p, &out->draw_index_offset_2);
	case PKT3_WRITE_DATA: return pm4_write_data_unpack(p, &out->write_data);
	case PKT3_WAIT_REG_MEM: return pm4_wait_reg_mem_unpack(p, &out->wait_reg_mem);
	case PKT3_COPY_DATA: return pm4_copy_data_unpack(p, &out->copy_data);
	case PKT3_EVENT_WRITE: return pm4_event_write_unpack(p, &out->event_write);
	case PKT3_EVENT_WRITE_EOP: return pm4_event_write_eop_unpack(p, &out->event_write_eop);
	case PKT3_SET_CONFIG_REG:
	case PKT3_SET_CONTEXT_REG:
	case PKT3_SET_SH_REG:
	case PKT3_SET_UCONFIG_REG:
	case PKT3_SET_UCONFIG_REG_INDEX: return pm4_set_reg_unpack(p, &out->set_reg);
	case PKT3_LOAD_CONTEXT_REG_INDEX:
		return pm4_load_context_reg_index_unpack(p, &out->load_context_reg_index);
	default:
		return XT_ERR_UNSUPPORTED;
	}
}
