/*
 * test_pm4.c - unit tests of pm4/: the generated register database, the
 * builders and parsers (a round trip per packet kind), resync after
 * garbage, and the decoder on hostile input (10 000 random buffers, run
 * under ASan/UBSan in the sanitizer build).
 */
#include <stdlib.h>
#include <string.h>

#include "pm4_decode.h"
#include "pm4_pkt.h"
#include "pm4_regs.h"
#include "xt_test.h"

#define CAP 4096

/* xorshift32: a fixed-seed generator, so failures reproduce. */
static uint32_t rng_state = 0x12345678u;
static uint32_t rnd(void)
{
	uint32_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return rng_state = x;
}

/* Parses buf and expects exactly one packet, typed, of opcode op. */
static bool parse_one(const uint32_t *buf, uint32_t n, unsigned op, struct pm4_packet *p)
{
	struct pm4_parser ps;
	struct pm4_packet extra;

	pm4_parser_init(&ps, buf, n);
	if (!pm4_parser_next(&ps, p))
		return false;
	return p->kind == PM4_PKT_TYPE3 && p->opcode == op && p->typed &&
	       p->size_dw == n && !pm4_parser_next(&ps, &extra);
}

/* ------------------------------------------------------------ database */

static void test_every_register_is_found_by_offset_and_name(void)
{
	CHECK(pm4_num_regs > 100);
	for (uint32_t i = 0; i < pm4_num_regs; i++) {
		const struct pm4_reg_info *r = &pm4_regs[i];

		CHECK(pm4_reg_by_offset(r->offset) == r);
		CHECK(pm4_reg_by_name(r->name) == r);
		CHECK(pm4_reg_space_of(r->offset) == r->space);
		CHECK(r->doc && r->doc[0]);
		if (i)
			CHECK(pm4_regs[i - 1].offset < r->offset);
	}
	CHECK(pm4_reg_by_offset(0x028B96) == NULL);
	CHECK(pm4_reg_by_name("VGT_STRMOUT_EN") == NULL); /* r600 only */
}

/* Offsets and field encodings as Mesa's sid.h spells them. */
static void test_register_offsets_and_fields_match_sid_h(void)
{
	uint32_t v;

	CHECK_EQ_INT(REG_VGT_STRMOUT_CONFIG, 0x028B94);
	CHECK_EQ_INT(R_028B94_VGT_STRMOUT_CONFIG, 0x028B94);
	CHECK_EQ_INT(REG_VGT_STRMOUT_BUFFER_SIZE_2, 0x028AF0);
	CHECK_EQ_INT(REG_VGT_STRMOUT_BUFFER_SIZE(3), 0x028B00);
	CHECK_EQ_INT(REG_VGT_STRMOUT_BUFFER_OFFSET(1), 0x028AEC);
	CHECK_EQ_INT(REG_VGT_STRMOUT_BUFFER_FILLED_SIZE(1), 0x030914);
	CHECK_EQ_INT(REG_VGT_GSVS_RING_OFFSET(1), 0x028A60);
	CHECK_EQ_INT(REG_VGT_GSVS_RING_OFFSET_3, 0x028A68);
	CHECK_EQ_INT(REG_CP_STRMOUT_CNTL >> 2, 0xC03F);
	CHECK_EQ_INT(REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE >> 2, 0xA2CB);
	CHECK_EQ_INT(REG_SPI_SHADER_USER_DATA_VS_15, 0x00B16C);
	CHECK_EQ_INT(REG_VGT_PRIMITIVE_TYPE__SPACE, PM4_SPACE_UCONFIG);
	CHECK_EQ_INT(VGT_STRMOUT_CONFIG_RAST_STREAM__MASK, 0x70);
	CHECK_EQ_INT(VGT_STRMOUT_CONFIG_RAST_STREAM(7), 0x70);
	CHECK_EQ_INT(VGT_STRMOUT_CONFIG_RAST_STREAM(8), 0); /* excess bits dropped */
	CHECK_EQ_INT(VGT_STRMOUT_CONFIG_USE_RAST_STREAM_MASK(1), 0x80000000u);
	CHECK_EQ_INT(SPI_SHADER_PGM_RSRC2_VS_SO_EN(1) | SPI_SHADER_PGM_RSRC2_VS_SO_BASE0_EN(1), 0x1100);
	CHECK_EQ_INT(VGT_STRMOUT_VTX_STRIDE_STRIDE(0x3FF), 0x3FF);
	CHECK_EQ_INT(VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_AUTO_INDEX) |
		     VGT_DRAW_INITIATOR_USE_OPAQUE(1), 0x42);
	CHECK_EQ_INT(VGT_EVENT_INITIATOR_EVENT_TYPE_GET(0x320), V_SAMPLE_STREAMOUTSTATS);
	CHECK_EQ_INT(V_SO_VGTSTREAMOUT_FLUSH, 0x1F);
	CHECK_EQ_INT(PKT3_STRMOUT_BUFFER_UPDATE, 0x34);
	CHECK_EQ_INT(PKT3_STRMOUT_BUFFER_UPDATE_CONTROL_OFFSET_SOURCE(V_STRMOUT_OFFSET_FROM_MEM), 4);
	CHECK(pm4_reg_field_value(REG_VGT_STRMOUT_BUFFER_CONFIG, "STREAM_1_BUFFER_EN", 0x00A0, &v));
	CHECK_EQ_INT(v, 0xA);
	CHECK(!pm4_reg_field_value(REG_VGT_STRMOUT_BUFFER_CONFIG, "NO_SUCH", 0, &v));
	CHECK(!pm4_reg_field_value(0x028000, "X", 0, &v));
	CHECK_EQ_STR(pm4_enum_name(pm4_enum_by_name("VGT_EVENT_TYPE"), 0x1F), "SO_VGTSTREAMOUT_FLUSH");
	CHECK(pm4_enum_name(pm4_enum_by_name("VGT_EVENT_TYPE"), 0x3F) == NULL);
	CHECK(pm4_enum_name(NULL, 0) == NULL);
	CHECK(pm4_enum_value(pm4_enum_by_name("VGT_DI_PRIM_TYPE"), "DI_PT_TRISTRIP_ADJ", &v));
	CHECK_EQ_INT(v, 0x0D);
}

/* Every field of every register and packet dword encodes and decodes. */
static void check_fields(const struct pm4_reg_info *r)
{
	uint32_t used = 0;

	for (uint32_t i = 0; i < r->num_fields; i++) {
		const struct pm4_field_info *f = &r->fields[i];
		uint32_t max = f->width == 32 ? 0xFFFFFFFFu : (1u << f->width) - 1;
		uint32_t x = rnd() & max, base = rnd(), v = pm4_field_set(f, base, x);

		CHECK(f->width >= 1 && f->shift + f->width <= 32);
		CHECK_EQ_INT(f->mask, max << f->shift);
		CHECK_EQ_INT(pm4_field_get(f, v), x);
		CHECK_EQ_INT(v & ~f->mask, base & ~f->mask);
		CHECK_EQ_INT(pm4_field_get(f, pm4_field_set(f, 0, max)), max);
		CHECK((used & f->mask) == 0);
		CHECK(pm4_reg_field(r, f->name) == f);
		used |= f->mask;
		if (i)
			CHECK(r->fields[i - 1].shift < f->shift);
		if (f->enum_info)
			for (uint32_t k = 0; k < f->enum_info->num_values; k++)
				CHECK(f->enum_info->values[k].value <= max);
	}
}

static void test_field_encode_decode_for_every_field(void)
{
	for (uint32_t i = 0; i < pm4_num_regs; i++)
		check_fields(&pm4_regs[i]);
	for (uint32_t i = 0; i < pm4_num_packets; i++)
		for (uint32_t k = 0; k < pm4_packets[i].num_dwords; k++)
			if (pm4_packets[i].dwords[k].layout)
				check_fields(pm4_packets[i].dwords[k].layout);
}

static void test_packet_table_is_consistent(void)
{
	CHECK(pm4_num_packets >= 25);
	for (uint32_t i = 0; i < pm4_num_packets; i++) {
		const struct pm4_packet_info *p = &pm4_packets[i];

		CHECK(pm4_packet_by_opcode(p->opcode) == p);
		CHECK(pm4_packet_by_name(p->name) == p);
		CHECK(p->min_dw >= 1 && p->min_dw <= p->max_dw);
		CHECK(pm4_packet_dword(p, 1) != NULL);
		if (i)
			CHECK(pm4_packets[i - 1].opcode < p->opcode);
	}
	CHECK(pm4_packet_by_opcode(0x55) == NULL);
	CHECK(pm4_packet_by_name("STRMOUT_BUFFER_UPDATE")->ac_parse_ib_raw);
	CHECK(!pm4_packet_by_name("SET_CONTEXT_REG")->ac_parse_ib_raw);
	/* repeats: SET_CONTEXT_REG value 100 is the VALUE layout */
	CHECK_EQ_STR(pm4_packet_dword(pm4_packet_by_name("SET_CONTEXT_REG"), 100)->name, "VALUE");
	CHECK(pm4_packet_dword(pm4_packet_by_name("DRAW_INDEX_AUTO"), 3) == NULL);
}

/* ---------------------------------------------------- builder -> parser */

/* PKT3(op, count, predicate) = (3 << 30) | (count << 16) | (op << 8) | predicate. */
static void test_header_builder_matches_pkt3_encoding(void)
{
	CHECK_EQ_INT(pm4_pkt3_header(PKT3_SET_CONTEXT_REG, 3, false), 0xC0026900u);
	CHECK_EQ_INT(pm4_pkt3_header(PKT3_EVENT_WRITE, 1, false), 0xC0004600u);
	CHECK_EQ_INT(pm4_pkt3_header(PKT3_EVENT_WRITE, 3, false), 0xC0024600u);
	CHECK_EQ_INT(pm4_pkt3_header(PKT3_STRMOUT_BUFFER_UPDATE, 5, false), 0xC0043400u);
	CHECK_EQ_INT(pm4_pkt3_header(PKT3_WAIT_REG_MEM, 6, false), 0xC0053C00u);
	CHECK_EQ_INT(pm4_pkt3_header(PKT3_COPY_DATA, 5, false), 0xC0044000u);
	CHECK_EQ_INT(pm4_pkt3_header(PKT3_DRAW_INDEX_AUTO, 2, true), 0xC0012D01u);
	CHECK_EQ_INT(pm4_pkt3_header(PKT3_NOP, 0x4000, false), PM4_NOP_PAD);
}

/* radeonsi's streamout begin (si_flush_vgt_streamout + si_emit_streamout_begin,
 * docs/gcn-streamout.md; tests/golden/pm4/02_begin.dw), built with the builders. */
static void test_builders_emit_radeonsis_begin_sequence(void)
{
	static const uint32_t want[] = {
		0xC0017900, 0x0000003F, 0x00000000,
		0xC0004600, 0x0000001F,
		0xC0053C00, 0x00000003, 0x0000C03F, 0x00000000, 0x00000001, 0x00000001, 0x00000004,
		0xC0026900, 0x000002B4, 0x00000018, 0x00000001,
		0xC0043400, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
	};
	uint32_t buf[64];
	struct pm4_cs cs;
	struct pm4_wait_reg_mem w = { V_WAIT_REG_MEM_EQUAL, V_WAIT_REG_MEM_SPACE_REGISTER, 0,
				      V_ENGINE_ME, REG_CP_STRMOUT_CNTL >> 2, 1,
				      CP_STRMOUT_CNTL_OFFSET_UPDATE_DONE(1), 4 };
	struct pm4_strmout_buffer_update u = { 0 };

	pm4_cs_init(&cs, buf, 64);
	pm4_set_uconfig_reg(&cs, REG_CP_STRMOUT_CNTL, 0);
	pm4_event_write(&cs, V_SO_VGTSTREAMOUT_FLUSH, 0);
	pm4_wait_reg_mem(&cs, &w);
	if (pm4_set_reg_seq(&cs, REG_VGT_STRMOUT_BUFFER_SIZE(0), 2)) {
		pm4_emit(&cs, (0 + 96) >> 2);
		pm4_emit(&cs, 1);
	}
	u.offset_source = V_STRMOUT_OFFSET_FROM_PACKET;
	pm4_strmout_buffer_update(&cs, &u);
	CHECK(pm4_cs_ok(&cs));
	CHECK_EQ_INT(cs.cdw, sizeof(want) / 4);
	CHECK(cs.cdw == sizeof(want) / 4 && !memcmp(buf, want, sizeof(want)));
}

static void test_set_reg_round_trip_in_every_space(void)
{
	static const uint32_t regs[] = { REG_PA_CL_ENHANCE, REG_SPI_SHADER_PGM_RSRC2_VS,
					 REG_VGT_STRMOUT_CONFIG, REG_VGT_PRIMITIVE_TYPE };
	static const unsigned ops[] = { PKT3_SET_CONFIG_REG, PKT3_SET_SH_REG,
					PKT3_SET_CONTEXT_REG, PKT3_SET_UCONFIG_REG };
	uint32_t buf[16];
	struct pm4_cs cs;
	struct pm4_packet p;

	for (unsigned i = 0; i < 4; i++) {
		pm4_cs_init(&cs, buf, 16);
		pm4_set_reg(&cs, regs[i], 0xABCD0000u + i);
		CHECK(parse_one(buf, cs.cdw, ops[i], &p));
		CHECK_EQ_INT(p.u.set_reg.reg, regs[i]);
		CHECK_EQ_INT(p.u.set_reg.num_values, 1);
		CHECK_EQ_INT(p.u.set_reg.values[0], 0xABCD0000u + i);
		CHECK_EQ_INT(p.u.set_reg.space, pm4_reg_space_of(regs[i]));
	}
	pm4_cs_init(&cs, buf, 16);
	pm4_set_uconfig_reg_idx(&cs, REG_VGT_PRIMITIVE_TYPE, 1, V_DI_PT_TRISTRIP);
	CHECK(parse_one(buf, cs.cdw, PKT3_SET_UCONFIG_REG, &p));
	CHECK_EQ_INT(p.u.set_reg.index, 1);
	CHECK_EQ_INT(buf[1], 0x10000242u);
	/* wrong space / no space: nothing emitted, invalid set */
	pm4_cs_init(&cs, buf, 16);
	pm4_set_context_reg(&cs, REG_VGT_PRIMITIVE_TYPE, 1);
	CHECK(cs.invalid && cs.cdw == 0);
	pm4_cs_init(&cs, buf, 16);
	pm4_set_reg(&cs, 0x1000, 1);
	CHECK(cs.invalid && cs.cdw == 0);
}

static void test_event_write_round_trips(void)
{
	uint32_t buf[8];
	struct pm4_cs cs;
	struct pm4_packet p;

	pm4_cs_init(&cs, buf, 8);
	pm4_event_write(&cs, V_VS_PARTIAL_FLUSH, 4);
	CHECK(parse_one(buf, cs.cdw, PKT3_EVENT_WRITE, &p));
	CHECK_EQ_INT(p.u.event_write.event_type, V_VS_PARTIAL_FLUSH);
	CHECK_EQ_INT(p.u.event_write.event_index, 4);
	CHECK(!p.u.event_write.has_address);

	pm4_cs_init(&cs, buf, 8);
	pm4_event_write_addr(&cs, V_SAMPLE_STREAMOUTSTATS, 3, 0x0000123400070010ull);
	CHECK(parse_one(buf, cs.cdw, PKT3_EVENT_WRITE, &p));
	CHECK_EQ_INT(buf[1], 0x320);
	CHECK(p.u.event_write.has_address);
	CHECK_EQ_INT(p.u.event_write.address, 0x0000123400070010ull);

	struct pm4_event_write_eop e = { V_BOTTOM_OF_PIPE_TS, 5, 0x0000ABCD12345678ull, 2,
					 V_EOP_DATA_SEL_VALUE_64BIT, 0x1122334455667788ull };
	pm4_cs_init(&cs, buf, 8);
	pm4_event_write_eop(&cs, &e);
	CHECK(parse_one(buf, cs.cdw, PKT3_EVENT_WRITE_EOP, &p));
	CHECK_EQ_INT(p.u.event_write_eop.event_type, e.event_type);
	CHECK_EQ_INT(p.u.event_write_eop.event_index, e.event_index);
	CHECK_EQ_INT(p.u.event_write_eop.address, e.address);
	CHECK_EQ_INT(p.u.event_write_eop.int_sel, e.int_sel);
	CHECK_EQ_INT(p.u.event_write_eop.data_sel, e.data_sel);
	CHECK_EQ_INT(p.u.event_write_eop.data, e.data);
}

static void test_strmout_buffer_update_round_trips(void)
{
	uint32_t buf[8];
	struct pm4_cs cs;
	struct pm4_packet p;
	struct pm4_strmout_buffer_update u = { 0 }, *g = &p.u.strmout_buffer_update;

	/* resume of buffer 2 from memory */
	u.offset_source = V_STRMOUT_OFFSET_FROM_MEM;
	u.buffer_select = 2;
	u.src_address = 0x0000000100060404ull;
	pm4_cs_init(&cs, buf, 8);
	pm4_strmout_buffer_update(&cs, &u);
	CHECK(parse_one(buf, cs.cdw, PKT3_STRMOUT_BUFFER_UPDATE, &p));
	CHECK_EQ_INT(buf[1], 0x204);
	CHECK_EQ_INT(g->offset_source, V_STRMOUT_OFFSET_FROM_MEM);
	CHECK_EQ_INT(g->buffer_select, 2);
	CHECK_EQ_INT(g->src_address, u.src_address);
	CHECK(!g->store_filled_size);

	/* end: store filled size, offset unchanged */
	memset(&u, 0, sizeof(u));
	u.store_filled_size = true;
	u.offset_source = V_STRMOUT_OFFSET_NONE;
	u.buffer_select = 3;
	u.data_type = V_STRMOUT_DATA_TYPE_BYTES;
	u.dst_address = 0x0000BEEF00060400ull;
	pm4_cs_init(&cs, buf, 8);
	pm4_strmout_buffer_update(&cs, &u);
	CHECK(parse_one(buf, cs.cdw, PKT3_STRMOUT_BUFFER_UPDATE, &p));
	CHECK_EQ_INT(buf[1], 0x387);
	CHECK(g->store_filled_size);
	CHECK_EQ_INT(g->data_type, V_STRMOUT_DATA_TYPE_BYTES);
	CHECK_EQ_INT(g->dst_address, u.dst_address);

	/* fresh begin at an offset */
	memset(&u, 0, sizeof(u));
	u.buffer_offset = 40;
	pm4_cs_init(&cs, buf, 8);
	pm4_strmout_buffer_update(&cs, &u);
	CHECK(parse_one(buf, cs.cdw, PKT3_STRMOUT_BUFFER_UPDATE, &p));
	CHECK_EQ_INT(g->offset_source, V_STRMOUT_OFFSET_FROM_PACKET);
	CHECK_EQ_INT(g->buffer_offset, 40);
}

static void test_draw_packets_round_trip(void)
{
	uint32_t buf[16];
	struct pm4_cs cs;
	struct pm4_packet p;
	struct pm4_draw_index_2 d2 = { 300, 0x000000AB12345600ull, 299, 0 };
	struct pm4_draw_index_offset_2 o2 = { 256, 16, 48, 0x20 };
	struct pm4_draw_indirect di = { 0x40, 0x50, 0x51, 2 };
	struct pm4_draw_indirect_multi dm = { 8, 0x50, 0x51, 0x52, true, true, 7,
					      0x0000000200001000ull, 20, 2 };

	pm4_cs_init(&cs, buf, 16);
	pm4_draw_index_auto(&cs, 0, VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_AUTO_INDEX) |
				      VGT_DRAW_INITIATOR_USE_OPAQUE(1));
	CHECK(parse_one(buf, cs.cdw, PKT3_DRAW_INDEX_AUTO, &p));
	CHECK_EQ_INT(p.u.draw_index_auto.vertex_count, 0);
	CHECK_EQ_INT(p.u.draw_index_auto.draw_initiator, 0x42);

	pm4_cs_init(&cs, buf, 16);
	pm4_draw_index_2(&cs, &d2);
	CHECK(parse_one(buf, cs.cdw, PKT3_DRAW_INDEX_2, &p));
	CHECK_EQ_INT(p.u.draw_index_2.max_size, d2.max_size);
	CHECK_EQ_INT(p.u.draw_index_2.index_base, d2.index_base);
	CHECK_EQ_INT(p.u.draw_index_2.index_count, d2.index_count);
	CHECK_EQ_INT(p.u.draw_index_2.draw_initiator, d2.draw_initiator);

	pm4_cs_init(&cs, buf, 16);
	pm4_draw_index_offset_2(&cs, &o2);
	CHECK(parse_one(buf, cs.cdw, PKT3_DRAW_INDEX_OFFSET_2, &p));
	CHECK_EQ_INT(p.u.draw_index_offset_2.max_size, o2.max_size);
	CHECK_EQ_INT(p.u.draw_index_offset_2.index_offset, o2.index_offset);
	CHECK_EQ_INT(p.u.draw_index_offset_2.index_count, o2.index_count);
	CHECK_EQ_INT(p.u.draw_index_offset_2.draw_initiator, o2.draw_initiator);

	pm4_cs_init(&cs, buf, 16);
	pm4_draw_indirect(&cs, PKT3_DRAW_INDEX_INDIRECT, &di);
	CHECK(parse_one(buf, cs.cdw, PKT3_DRAW_INDEX_INDIRECT, &p));
	CHECK_EQ_INT(p.u.draw_indirect.data_offset, di.data_offset);
	CHECK_EQ_INT(p.u.draw_indirect.base_vtx_loc, di.base_vtx_loc);
	CHECK_EQ_INT(p.u.draw_indirect.start_inst_loc, di.start_inst_loc);
	CHECK_EQ_INT(p.u.draw_indirect.draw_initiator, di.draw_initiator);
	pm4_cs_init(&cs, buf, 16);
	pm4_draw_indirect(&cs, PKT3_DRAW_INDIRECT, &di);
	CHECK(parse_one(buf, cs.cdw, PKT3_DRAW_INDIRECT, &p));
	pm4_cs_init(&cs, buf, 16);
	pm4_draw_indirect(&cs, PKT3_NOP, &di);
	CHECK(cs.invalid && cs.cdw == 0);

	pm4_cs_init(&cs, buf, 16);
	pm4_draw_indirect_multi(&cs, &dm);
	CHECK(parse_one(buf, cs.cdw, PKT3_DRAW_INDIRECT_MULTI, &p));
	{
		const struct pm4_draw_indirect_multi *g = &p.u.draw_indirect_multi;

		CHECK_EQ_INT(g->data_offset, dm.data_offset);
		CHECK_EQ_INT(g->base_vtx_loc, dm.base_vtx_loc);
		CHECK_EQ_INT(g->start_inst_loc, dm.start_inst_loc);
		CHECK_EQ_INT(g->draw_index_loc, dm.draw_index_loc);
		CHECK_EQ_INT(g->count_indirect_enable, dm.count_indirect_enable);
		CHECK_EQ_INT(g->draw_index_enable, dm.draw_index_enable);
		CHECK_EQ_INT(g->count, dm.count);
		CHECK_EQ_INT(g->count_address, dm.count_address);
		CHECK_EQ_INT(g->stride, dm.stride);
		CHECK_EQ_INT(g->draw_initiator, dm.draw_initiator);
	}
}

static void test_one_value_and_misc_packets_round_trip(void)
{
	uint32_t buf[16], body[2] = { 0xCAFE, 0xF00D };
	struct pm4_cs cs;
	struct pm4_packet p;
	struct pm4_set_predication sp = { 0x000000AB00070000ull, true, true, true, V_PREDICATION_OP_PRIMCOUNT };
	struct pm4_index_base ib;
	struct pm4_set_base sb;

	pm4_cs_init(&cs, buf, 16);
	pm4_num_instances(&cs, 9);
	CHECK(parse_one(buf, cs.cdw, PKT3_NUM_INSTANCES, &p) && p.u.one.value == 9);
	pm4_cs_init(&cs, buf, 16);
	pm4_index_type(&cs, VGT_DMA_INDEX_TYPE_INDEX_TYPE(V_VGT_INDEX_32));
	CHECK(parse_one(buf, cs.cdw, PKT3_INDEX_TYPE, &p) && p.u.one.value == 1);
	pm4_cs_init(&cs, buf, 16);
	pm4_index_buffer_size(&cs, 77);
	CHECK(parse_one(buf, cs.cdw, PKT3_INDEX_BUFFER_SIZE, &p) && p.u.one.value == 77);
	pm4_cs_init(&cs, buf, 16);
	pm4_clear_state(&cs);
	CHECK(parse_one(buf, cs.cdw, PKT3_CLEAR_STATE, &p));
	pm4_cs_init(&cs, buf, 16);
	pm4_pfp_sync_me(&cs);
	CHECK(parse_one(buf, cs.cdw, PKT3_PFP_SYNC_ME, &p));

	pm4_cs_init(&cs, buf, 16);
	pm4_context_control(&cs, 0x80000000u, 0x80000001u);
	CHECK(parse_one(buf, cs.cdw, PKT3_CONTEXT_CONTROL, &p));
	CHECK_EQ_INT(p.u.context_control.load_control, 0x80000000u);
	CHECK_EQ_INT(p.u.context_control.shadow_control, 0x80000001u);

	pm4_cs_init(&cs, buf, 16);
	pm4_set_predication(&cs, &sp);
	CHECK(parse_one(buf, cs.cdw, PKT3_SET_PREDICATION, &p));
	CHECK_EQ_INT(p.u.set_predication.address, sp.address);
	CHECK_EQ_INT(p.u.set_predication.draw_visible, sp.draw_visible);
	CHECK_EQ_INT(p.u.set_predication.hint_nowait, sp.hint_nowait);
	CHECK_EQ_INT(p.u.set_predication.continue_, sp.continue_);
	CHECK_EQ_INT(p.u.set_predication.pred_op, sp.pred_op);

	pm4_cs_init(&cs, buf, 16);
	pm4_index_base(&cs, 0x0000123456789ABEull, 1);
	CHECK(parse_one(buf, cs.cdw, PKT3_INDEX_BASE, &p));
	ib = p.u.index_base;
	CHECK_EQ_INT(ib.address, 0x0000123456789ABEull);
	CHECK_EQ_INT(ib.base_select, 1);

	pm4_cs_init(&cs, buf, 16);
	pm4_set_base(&cs, 1, 0x0000000300000008ull);
	CHECK(parse_one(buf, cs.cdw, PKT3_SET_BASE, &p));
	sb = p.u.set_base;
	CHECK_EQ_INT(sb.base_index, 1);
	CHECK_EQ_INT(sb.address, 0x0000000300000008ull);

	pm4_cs_init(&cs, buf, 16);
	pm4_nop(&cs, body, 2);
	CHECK(parse_one(buf, cs.cdw, PKT3_NOP, &p));
	CHECK(p.u.nop.num_body == 2 && p.u.nop.body[1] == 0xF00D);
	pm4_cs_init(&cs, buf, 16);
	pm4_nop_pad(&cs);
	CHECK(parse_one(buf, cs.cdw, PKT3_NOP, &p) && p.u.nop.num_body == 0);
	pm4_cs_init(&cs, buf, 16);
	pm4_type2_nop(&cs);
	{
		struct pm4_parser ps;

		pm4_parser_init(&ps, buf, cs.cdw);
		CHECK(pm4_parser_next(&ps, &p) && p.kind == PM4_PKT_TYPE2_NOP && p.size_dw == 1);
	}

	pm4_cs_init(&cs, buf, 16);
	pm4_load_context_reg_index(&cs, 0x0000000100060400ull,
				   REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE, 1);
	CHECK(parse_one(buf, cs.cdw, PKT3_LOAD_CONTEXT_REG_INDEX, &p));
	CHECK_EQ_INT(buf[3], 0x2CB);
	CHECK_EQ_INT(p.u.load_context_reg_index.reg, REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE);
	CHECK_EQ_INT(p.u.load_context_reg_index.address, 0x0000000100060400ull);
	CHECK_EQ_INT(p.u.load_context_reg_index.num_dw, 1);
}

static void test_cp_data_packets_round_trip(void)
{
	uint32_t buf[16], data[2] = { 7, 8 };
	struct pm4_cs cs;
	struct pm4_packet p;
	struct pm4_wait_reg_mem w = { V_WAIT_REG_MEM_GREATER, V_WAIT_REG_MEM_SPACE_MEMORY, 1,
				      V_ENGINE_PFP, 0x0000000500001000ull, 3, 0xFF, 10 };
	uint32_t ctl = PKT3_COPY_DATA_CONTROL_SRC_SEL(V_COPY_DATA_SRC_MEM) |
		       PKT3_COPY_DATA_CONTROL_DST_SEL(V_COPY_DATA_DST_REG) |
		       PKT3_COPY_DATA_CONTROL_WR_CONFIRM(1);

	CHECK_EQ_INT(ctl, 0x00100001u); /* sid.h: SRC_SEL(1) | DST_SEL(0) | WR_CONFIRM (1 << 20) */
	pm4_cs_init(&cs, buf, 16);
	pm4_copy_data(&cs, ctl, 0x0000000100060400ull,
		      REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE >> 2);
	CHECK(parse_one(buf, cs.cdw, PKT3_COPY_DATA, &p));
	CHECK_EQ_INT(p.u.copy_data.src_sel, V_COPY_DATA_SRC_MEM);
	CHECK_EQ_INT(p.u.copy_data.dst_sel, V_COPY_DATA_DST_REG);
	CHECK(p.u.copy_data.wr_confirm && !p.u.copy_data.count_sel);
	CHECK_EQ_INT(p.u.copy_data.src, 0x0000000100060400ull);
	CHECK_EQ_INT(p.u.copy_data.dst, 0xA2CB);

	pm4_cs_init(&cs, buf, 16);
	pm4_wait_reg_mem(&cs, &w);
	CHECK(parse_one(buf, cs.cdw, PKT3_WAIT_REG_MEM, &p));
	CHECK_EQ_INT(p.u.wait_reg_mem.function, w.function);
	CHECK_EQ_INT(p.u.wait_reg_mem.mem_space, w.mem_space);
	CHECK_EQ_INT(p.u.wait_reg_mem.operation, w.operation);
	CHECK_EQ_INT(p.u.wait_reg_mem.engine, w.engine);
	CHECK_EQ_INT(p.u.wait_reg_mem.address, w.address);
	CHECK_EQ_INT(p.u.wait_reg_mem.reference, w.reference);
	CHECK_EQ_INT(p.u.wait_reg_mem.mask, w.mask);
	CHECK_EQ_INT(p.u.wait_reg_mem.poll_interval, w.poll_interval);

	pm4_cs_init(&cs, buf, 16);
	pm4_write_data(&cs, V_WRITE_DATA_DST_MEM_MAPPED_REGISTER, V_ENGINE_ME, true,
		       REG_CP_STRMOUT_CNTL >> 2, data, 2);
	CHECK(parse_one(buf, cs.cdw, PKT3_WRITE_DATA, &p));
	CHECK_EQ_INT(p.u.write_data.dst, 0xC03F);
	CHECK(p.u.write_data.wr_confirm);
	CHECK(p.u.write_data.num_data == 2 && p.u.write_data.data[1] == 8);
}

/* Builds one packet into buf; true when it is exactly `want`, else prints both. */
static bool emits(const char *what, const uint32_t *buf, const struct pm4_cs *cs, const uint32_t *want,
		  uint32_t n)
{
	bool same = pm4_cs_ok(cs) && cs->cdw == n && !memcmp(buf, want, n * 4);

	if (!same) {
		fprintf(stderr, "%s: built %u dwords:", what, cs->cdw);
		for (uint32_t i = 0; i < cs->cdw; i++)
			fprintf(stderr, " %08x", buf[i]);
		fprintf(stderr, "\n%s: want  %u dwords:", what, n);
		for (uint32_t i = 0; i < n; i++)
			fprintf(stderr, " %08x", want[i]);
		fprintf(stderr, "\n");
	}
	return same;
}

/*
 * The builders against dwords encoded by hand from Mesa's sid.h and the way
 * radeonsi 18 emits each packet (si_cp_release_mem, si_emit_set_predication,
 * si_emit_draw_packets, si_cp_wait_mem): the round trips above only show
 * that builder and parser agree with each other, not with the hardware.
 */
static void test_builders_emit_the_sid_h_encodings(void)
{
	uint32_t buf[16];
	struct pm4_cs cs;

	{	/* EVENT_TYPE(BOTTOM_OF_PIPE_TS 0x28) | EVENT_INDEX(5); address; ADDRESS_HI
		 * | EOP_INT_SEL(2) (<< 24) | EOP_DATA_SEL(VALUE_64BIT 2) (<< 29); data */
		struct pm4_event_write_eop e = { V_BOTTOM_OF_PIPE_TS, 5, 0x0000ABCD12345678ull, 2,
						 V_EOP_DATA_SEL_VALUE_64BIT, 0x1122334455667788ull };
		static const uint32_t want[] = { 0xC0044700, 0x00000528, 0x12345678, 0x4200ABCD,
						 0x55667788, 0x11223344 };
		pm4_cs_init(&cs, buf, 16);
		pm4_event_write_eop(&cs, &e);
		CHECK(emits("EVENT_WRITE_EOP", buf, &cs, want, 6));
	}
	{	/* WAIT_REG_MEM_GREATER (6) | WAIT_REG_MEM_MEM_SPACE(1) (<< 4) | PFP (1 << 8) */
		struct pm4_wait_reg_mem w = { V_WAIT_REG_MEM_GREATER, V_WAIT_REG_MEM_SPACE_MEMORY, 0,
					      V_ENGINE_PFP, 0x0000000500001000ull, 3, 0xFF, 10 };
		static const uint32_t want[] = { 0xC0053C00, 0x00000116, 0x00001000, 0x00000005,
						 0x00000003, 0x000000FF, 0x0000000A };
		pm4_cs_init(&cs, buf, 16);
		pm4_wait_reg_mem(&cs, &w);
		CHECK(emits("WAIT_REG_MEM", buf, &cs, want, 7));
	}
	{	/* GFX8 SET_PREDICATION: va; PREDICATION_CONTINUE (1 << 31) | PRED_OP(PRIMCOUNT 2)
		 * (<< 16) | HINT_NOWAIT_DRAW (1 << 12) | DRAW_VISIBLE (1 << 8) | va bits 39:32 */
		struct pm4_set_predication sp = { 0x000000AB00070000ull, true, true, true,
						  V_PREDICATION_OP_PRIMCOUNT };
		static const uint32_t want[] = { 0xC0012000, 0x00070000, 0x800211AB };
		pm4_cs_init(&cs, buf, 16);
		pm4_set_predication(&cs, &sp);
		CHECK(emits("SET_PREDICATION", buf, &cs, want, 3));
	}
	{	/* DRAW_INDEX_2: max size, index va low, high, count, initiator (DI_SRC_SEL_DMA) */
		struct pm4_draw_index_2 d = { 300, 0x000000AB12345600ull, 299, 0 };
		static const uint32_t want[] = { 0xC0042700, 300, 0x12345600, 0xAB, 299, 0 };
		pm4_cs_init(&cs, buf, 16);
		pm4_draw_index_2(&cs, &d);
		CHECK(emits("DRAW_INDEX_2", buf, &cs, want, 6));
	}
	{	/* INDEX_BASE: va low; va bits 47:32 | BASE_SELECT (bits 31:30) */
		static const uint32_t want[] = { 0xC0012600, 0x56789ABE, 0x40001234 };
		pm4_cs_init(&cs, buf, 16);
		pm4_index_base(&cs, 0x0000123456789ABEull, 1);
		CHECK(emits("INDEX_BASE", buf, &cs, want, 3));
	}
	{	/* WRITE_DATA to CP_STRMOUT_CNTL (the GFX9 flush): DST_SEL(MEM_MAPPED_REGISTER 0)
		 * | WR_CONFIRM (1 << 20) | ENGINE_SEL(ME 0); the register's dword address */
		static const uint32_t data[2] = { 0, 7 };
		static const uint32_t want[] = { 0xC0043700, 0x00100000, 0x0000C03F, 0, 0, 7 };
		pm4_cs_init(&cs, buf, 16);
		pm4_write_data(&cs, V_WRITE_DATA_DST_MEM_MAPPED_REGISTER, V_ENGINE_ME, true,
			       REG_CP_STRMOUT_CNTL >> 2, data, 2);
		CHECK(emits("WRITE_DATA", buf, &cs, want, 6));
	}
	{	/* the DrawTF load: COPY_DATA mem -> VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE */
		static const uint32_t want[] = { 0xC0044000, 0x00100001, 0x00060400, 0x00000001,
						 0x0000A2CB, 0 };
		pm4_cs_init(&cs, buf, 16);
		pm4_copy_data(&cs, PKT3_COPY_DATA_CONTROL_SRC_SEL(V_COPY_DATA_SRC_MEM) |
				   PKT3_COPY_DATA_CONTROL_DST_SEL(V_COPY_DATA_DST_REG) |
				   PKT3_COPY_DATA_CONTROL_WR_CONFIRM(1),
			      0x0000000100060400ull, REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE >> 2);
		CHECK(emits("COPY_DATA", buf, &cs, want, 6));
	}
	{	/* the GFX9 DrawTF load: (R_028B2C - SI_CONTEXT_REG_OFFSET) >> 2, one dword */
		static const uint32_t want[] = { 0xC0039F00, 0x00060400, 0x00000001, 0x000002CB, 1 };
		pm4_cs_init(&cs, buf, 16);
		pm4_load_context_reg_index(&cs, 0x0000000100060400ull,
					   REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE, 1);
		CHECK(emits("LOAD_CONTEXT_REG_INDEX", buf, &cs, want, 5));
	}
	{	/* SET_SH_REG of SPI_SHADER_USER_DATA_VS_4 (0xB140): (0xB140 - 0xB000) >> 2 */
		static const uint32_t want[] = { 0xC0017600, 0x00000050, 0xCAFE };
		pm4_cs_init(&cs, buf, 16);
		pm4_set_sh_reg(&cs, REG_SPI_SHADER_USER_DATA_VS_0 + 16, 0xCAFE);
		CHECK(emits("SET_SH_REG", buf, &cs, want, 3));
	}
	{	/* DRAW_INDEX_AUTO of 3 vertices (DI_SRC_SEL_AUTO_INDEX 2), NUM_INSTANCES 9 */
		static const uint32_t want[] = { 0xC0012D00, 3, 2, 0xC0002F00, 9 };
		pm4_cs_init(&cs, buf, 16);
		pm4_draw_index_auto(&cs, 3, VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_AUTO_INDEX));
		pm4_num_instances(&cs, 9);
		CHECK(emits("DRAW_INDEX_AUTO + NUM_INSTANCES", buf, &cs, want, 5));
	}
	{	/* DISPATCH_DIRECT 3 x 2 x 1, DISPATCH_INDIRECT at offset 16, with
		 * radeonsi's initiator COMPUTE_SHADER_EN | FORCE_START_AT_000 | ORDER_MODE */
		static const uint32_t want[] = { 0xC0031500, 3, 2, 1, 0x45, 0xC0011600, 16, 0x45 };
		const uint32_t init = COMPUTE_DISPATCH_INITIATOR_COMPUTE_SHADER_EN(1) |
				      COMPUTE_DISPATCH_INITIATOR_FORCE_START_AT_000(1) |
				      COMPUTE_DISPATCH_INITIATOR_ORDER_MODE(1);
		pm4_cs_init(&cs, buf, 16);
		pm4_dispatch_direct(&cs, 3, 2, 1, init);
		pm4_dispatch_indirect(&cs, 16, init);
		CHECK(emits("DISPATCH_DIRECT + DISPATCH_INDIRECT", buf, &cs, want, 8));
	}
}

static void test_builder_overflow_drops_whole_packet(void)
{
	uint32_t buf[4] = { 0, 0, 0, 0 };
	struct pm4_cs cs;

	pm4_cs_init(&cs, buf, 4);
	pm4_event_write(&cs, V_SO_VGTSTREAMOUT_FLUSH, 0);          /* 2 dw: fits */
	pm4_draw_index_auto(&cs, 3, 2);                             /* 3 dw: does not */
	CHECK(cs.overflow);
	CHECK_EQ_INT(cs.cdw, 2);
	CHECK_EQ_INT(buf[2], 0);
	pm4_event_write(&cs, V_SO_VGTSTREAMOUT_FLUSH, 0);          /* sticky */
	CHECK_EQ_INT(cs.cdw, 2);
	CHECK(!pm4_cs_ok(&cs));
}

/* ------------------------------------------------- resync and hostility */

/* Random valid packets with type-0 garbage between them: every packet is found again. */
static void test_parser_resyncs_after_garbage(void)
{
	static uint32_t buf[CAP];
	uint32_t starts[256], n_starts = 0;
	struct pm4_cs cs;
	struct pm4_parser ps;
	struct pm4_packet p;
	uint32_t found = 0, bad = 0;

	pm4_cs_init(&cs, buf, CAP);
	for (int i = 0; i < 200 && cs.cdw < CAP - 64; i++) {
		uint32_t garbage = rnd() % 4;

		for (uint32_t g = 0; g < garbage; g++)
			pm4_emit(&cs, rnd() & 0x3FFFFFFFu); /* type 0: never plausible */
		starts[n_starts++] = cs.cdw;
		switch (rnd() % 4) {
		case 0: pm4_set_context_reg(&cs, REG_VGT_STRMOUT_CONFIG, 0xF); break;
		case 1: pm4_event_write(&cs, V_SO_VGTSTREAMOUT_FLUSH, 0); break;
		case 2: pm4_draw_index_auto(&cs, rnd(), 2); break;
		default: {
			struct pm4_strmout_buffer_update u = { 0 };

			u.buffer_select = rnd() % 4;
			pm4_strmout_buffer_update(&cs, &u);
		}
		}
	}
	CHECK(pm4_cs_ok(&cs));
	pm4_parser_init(&ps, buf, cs.cdw);
	while (pm4_parser_next(&ps, &p)) {
		if (p.kind == PM4_PKT_BAD) {
			bad++;
			CHECK(p.bad_reason != NULL);
			continue;
		}
		CHECK(found < n_starts && p.offset_dw == starts[found]);
		CHECK(p.typed);
		found++;
	}
	CHECK_EQ_INT(found, n_starts);
	CHECK(bad > 0);
}

static void test_decoder_reports_bad_header_and_resyncs(void)
{
	static const uint32_t buf[] = { 0x12345678, 0xC0004600, 0x0000001F };
	struct xt_buf out = XT_BUF_INIT;
	struct pm4_decode_stats st;

	CHECK(pm4_decode(buf, 3, NULL, &out, &st) == XT_OK);
	CHECK(xt_buf_append(&out, "", 1) == XT_OK);
	CHECK(strstr((char *)out.data, "bad packet header 0x12345678 at dword 0") != NULL);
	CHECK(strstr((char *)out.data, "EVENT_TYPE = SO_VGTSTREAMOUT_FLUSH") != NULL);
	CHECK_EQ_INT(st.bad, 1);
	CHECK_EQ_INT(st.packets, 1);
	xt_buf_fini(&out);
}

static void test_decoder_prints_the_real_ac_parse_ib_dump(void)
{
	/* The real ac_parse_ib output of tests/golden/pm4/01_enable.ac_parse_ib. */
	static const char want[] =
		"------------------ IB begin ------------------\n"
		"c0026900 SET_CONTEXT_REG:\n"
		"000002e5 \n"
		"0000000f         VGT_STRMOUT_CONFIG <- STREAMOUT_0_EN = 1\n"
		"                                       STREAMOUT_1_EN = 1\n"
		"                                       STREAMOUT_2_EN = 1\n"
		"                                       STREAMOUT_3_EN = 1\n"
		"                                       RAST_STREAM = 0\n"
		"                                       RAST_STREAM_MASK = 0\n"
		"                                       USE_RAST_STREAM_MASK = 0\n"
		"00000001         VGT_STRMOUT_BUFFER_CONFIG <- STREAM_0_BUFFER_EN = 1\n"
		"                                              STREAM_1_BUFFER_EN = 0\n"
		"                                              STREAM_2_BUFFER_EN = 0\n"
		"                                              STREAM_3_BUFFER_EN = 0\n"
		"------------------- IB end -------------------\n";
	static const uint32_t buf[] = { 0xC0026900, 0x2E5, 0xF, 0x1 };
	struct xt_buf out = XT_BUF_INIT;

	CHECK(pm4_decode(buf, 4, NULL, &out, NULL) == XT_OK);
	CHECK(xt_buf_append(&out, "", 1) == XT_OK);
	CHECK_EQ_STR((char *)out.data, want);
	xt_buf_fini(&out);
}

static void test_number_format_follows_ac_parse_ib(void)
{
	/* 9, 10, 32768, 32769 (hex), 1.0f, and an unknown context register */
	static const uint32_t buf[] = { 0xC0066900, 0x000002CA, 9, 10, 32768, 32769,
					0x3F800000, 0x00000001 };
	struct xt_buf out = XT_BUF_INIT;
	const char *s;

	CHECK(pm4_decode(buf, 8, NULL, &out, NULL) == XT_OK);
	CHECK(xt_buf_append(&out, "", 1) == XT_OK);
	s = (const char *)out.data;
	CHECK(strstr(s, "VGT_STRMOUT_DRAW_OPAQUE_OFFSET <- 9\n"));
	CHECK(strstr(s, "VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE <- 10 (0x0000000a)\n"));
	CHECK(strstr(s, "VGT_STRMOUT_DRAW_OPAQUE_VERTEX_STRIDE <- VERTEX_STRIDE = 0\n"));
	CHECK(strstr(s, "0x28b34 <- 0x00008001\n"));
	CHECK(strstr(s, "VGT_GS_MAX_VERT_OUT <- MAX_VERT_OUT = 0\n"));
	CHECK(strstr(s, "0x28b3c <- 0x00000001\n"));
	xt_buf_fini(&out);
	{
		static const uint32_t b2[] = { 0xC0016900, 0x000002CA, 0x3F800000 };
		static const uint32_t b3[] = { 0xC0016900, 0x000002CA, 0xDEADBEEF };

		CHECK(pm4_decode(b2, 3, NULL, &out, NULL) == XT_OK && xt_buf_append(&out, "", 1) == XT_OK);
		CHECK(strstr((char *)out.data, "<- 1.0f (0x3f800000)\n"));
		xt_buf_reset(&out);
		CHECK(pm4_decode(b3, 3, NULL, &out, NULL) == XT_OK && xt_buf_append(&out, "", 1) == XT_OK);
		CHECK(strstr((char *)out.data, "<- 0xdeadbeef\n"));
		xt_buf_fini(&out);
	}
}

/*
 * Registers the database types f32 print as floats whatever the value
 * (ac_parse_ib's guess would show 0.0 as "0" and 1/3 as hex); registers
 * without a type keep the guess.
 */
static void test_f32_registers_print_as_floats(void)
{
	static const struct {
		uint32_t bits;
		const char *text;
	} cases[] = {
		{ 0x00000000, "0.0f (0x00000000)" },    { 0x80000000, "-0.0f (0x80000000)" },
		{ 0x42000000, "32.0f (0x42000000)" },   { 0x3EAAAAAB, "0.33333334f (0x3eaaaaab)" },
		{ 0x3DCCCCCD, "0.1f (0x3dcccccd)" },    { 0x00000001, "1e-45f (0x00000001)" },
		{ 0x7F7FFFFF, "3.4028235e+38f (0x7f7fffff)" },
		{ 0x7FC00000, "nan (0x7fc00000)" },     { 0xFF800000, "-inf (0xff800000)" },
	};
	char text[48];
	struct xt_buf out = XT_BUF_INIT;

	CHECK(pm4_reg_by_name("PA_CL_VPORT_XSCALE_0")->type == PM4_TYPE_F32);
	CHECK(pm4_reg_by_name("PA_CL_GB_HORZ_CLIP_ADJ")->type == PM4_TYPE_F32);
	CHECK(pm4_reg_by_name("VGT_STRMOUT_VTX_STRIDE_0")->type == PM4_TYPE_U32);
	CHECK(pm4_reg_by_name("PA_SU_POINT_SIZE")->type == PM4_TYPE_U32);  /* 12.4 fixed */
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		pm4_f32_text(cases[i].bits, text, sizeof text);
		CHECK_EQ_STR(text, cases[i].text);
	}
	/* SET_CONTEXT_REG PA_CL_VPORT_XSCALE_0, XOFFSET_0 = 0.0, 1/3 */
	static const uint32_t buf[] = { 0xC0026900, (REG_PA_CL_VPORT_XSCALE_0 - 0x28000) / 4, 0,
					0x3EAAAAAB };
	CHECK(pm4_decode(buf, 4, NULL, &out, NULL) == XT_OK && xt_buf_append(&out, "", 1) == XT_OK);
	CHECK(strstr((char *)out.data, "PA_CL_VPORT_XSCALE_0 <- 0.0f (0x00000000)\n"));
	CHECK(strstr((char *)out.data, "PA_CL_VPORT_XOFFSET_0 <- 0.33333334f (0x3eaaaaab)\n"));
	xt_buf_fini(&out);
}

/*
 * 10 000 random buffers (fixed seed): the parser covers every dword exactly
 * once and the decoder never fails, crashes or reads out of bounds (the
 * buffers are heap blocks of exactly their size, so ASan sees any overrun).
 * A third of them are biased towards plausible headers to reach deep paths.
 */
static void test_random_buffers_never_crash(void)
{
	struct xt_buf out = XT_BUF_INIT;
	uint32_t ok = 0;

	rng_state = 0xC0FFEEu;
	for (int iter = 0; iter < 10000; iter++) {
		uint32_t n = rnd() % 64;
		uint32_t *buf = malloc(n ? n * 4 : 1);
		struct pm4_parser ps;
		struct pm4_packet p;
		uint32_t next = 0;
		bool covered = true;

		if (!buf)
			break;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t v = rnd();

			if (iter % 3 == 0 && rnd() % 3 == 0) {
				/* a type-3 header of a known opcode, small count */
				const struct pm4_packet_info *info = &pm4_packets[rnd() % pm4_num_packets];

				v = pm4_pkt3_header(info->opcode, 1 + rnd() % 8, rnd() & 1) |
				    (rnd() & 2);
			}
			buf[i] = v;
		}
		pm4_parser_init(&ps, buf, n);
		while (pm4_parser_next(&ps, &p)) {
			covered &= p.offset_dw == next && p.size_dw >= 1;
			next = p.offset_dw + p.size_dw;
		}
		covered &= next == n;
		CHECK(covered);
		xt_buf_reset(&out);
		if (pm4_decode(buf, n, NULL, &out, NULL) == XT_OK)
			ok++;
		free(buf);
	}
	CHECK_EQ_INT(ok, 10000);
	xt_buf_fini(&out);
}

int main(void)
{
	XT_RUN(test_every_register_is_found_by_offset_and_name);
	XT_RUN(test_register_offsets_and_fields_match_sid_h);
	XT_RUN(test_field_encode_decode_for_every_field);
	XT_RUN(test_packet_table_is_consistent);
	XT_RUN(test_header_builder_matches_pkt3_encoding);
	XT_RUN(test_builders_emit_radeonsis_begin_sequence);
	XT_RUN(test_set_reg_round_trip_in_every_space);
	XT_RUN(test_event_write_round_trips);
	XT_RUN(test_strmout_buffer_update_round_trips);
	XT_RUN(test_draw_packets_round_trip);
	XT_RUN(test_one_value_and_misc_packets_round_trip);
	XT_RUN(test_cp_data_packets_round_trip);
	XT_RUN(test_builders_emit_the_sid_h_encodings);
	XT_RUN(test_builder_overflow_drops_whole_packet);
	XT_RUN(test_parser_resyncs_after_garbage);
	XT_RUN(test_decoder_reports_bad_header_and_resyncs);
	XT_RUN(test_decoder_prints_the_real_ac_parse_ib_dump);
	XT_RUN(test_number_format_follows_ac_parse_ib);
	XT_RUN(test_f32_registers_print_as_floats);
	XT_RUN(test_random_buffers_never_crash);
	XT_TEST_MAIN_END();
}
