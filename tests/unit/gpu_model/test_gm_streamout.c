/*
 * test_gm_streamout.c - streamout end to end through PM4 and assembled
 * shaders, driven the way radeonsi drives GFX8 (docs/gcn-streamout.md): 1-4
 * buffers, interleaved and separate layouts, overflow mid-draw (whole
 * primitives only), begin / end / pause / resume through the filled-size
 * slot, DrawTF with the opaque vertex count, instancing, queries with
 * bit 63, predication on PRIMCOUNT, and a GS writing two vertex streams.
 */
#include <stdio.h>

#include "gm_test_util.h"

/* One streamout output: `comps` dwords to `buffer` at `dst_dw` in the vertex. */
struct so_out { unsigned buffer, dst_dw, comps; };

/*
 * A VS whose output o, component j, is (instance << 20 | vertex_id << 8 |
 * o << 4 | j), with radeonsi's streamout epilogue (docs/gcn-streamout.md).  User
 * SGPRs s[0:1] point at the streamout descriptors (16 bytes each); the
 * streamout SGPRs follow: s2 config, s3 write_index, s4.. offsets.
 */
static uint64_t so_vs(struct tgpu *t, const struct so_out *outs, unsigned n_out, const unsigned stride_dw[4])
{
	char src[8192];
	size_t len = 0;
	unsigned k = 0, sgpr_of[4];

	for (unsigned b = 0; b < 4; b++)
		sgpr_of[b] = stride_dw[b] ? 4 + k++ : 0;
#define P(...) len += (size_t)snprintf(src + len, sizeof src - len, __VA_ARGS__)
	for (unsigned b = 0; b < 4; b++)
		if (stride_dw[b])
			P("s_load_dwordx4 s[%u:%u], s[0:1], %u\n", 20 + 4 * b, 23 + 4 * b, 16 * b);
	P("v_lshl_b32 v40, v3, 20\nv_lshl_b32 v41, v0, 8\nv_or_b32 v40, v40, v41\n");
	for (unsigned o = 0; o < n_out; o++)
		for (unsigned j = 0; j < outs[o].comps; j++)
			P("v_or_b32 v%u, v40, %u\n", 10 + 4 * o + j, o << 4 | j);
	P("s_bfe_u32 s36, s2, 0x70010\n"
	  "v_laneid_u32 v41\n"
	  "v_cmp_lt_u32 vcc, v41, s36\n"
	  "s_and_saveexec_b64 s[44:45], vcc\n"
	  "s_cbranch_execz done\n"
	  "v_add_u32 v41, v41, s3\n");
	for (unsigned b = 0; b < 4; b++)
		if (stride_dw[b])
			P("v_mul_lo_u32 v%u, v41, %u\ns_lshl_b32 s%u, s%u, 2\nv_add_u32 v%u, v%u, s%u\n",
			  50 + b, stride_dw[b] * 4, 37 + b, sgpr_of[b], 50 + b, 50 + b, 37 + b);
	for (unsigned o = 0; o < n_out; o++) {
		unsigned b = outs[o].buffer, c = outs[o].comps;
		P("buffer_store_dword%s v[%u:%u], v%u, s[%u:%u], 0 offset:%u offen glc slc\n",
		  c == 1 ? "" : c == 2 ? "x2" : c == 3 ? "x3" : "x4", 10 + 4 * o, 10 + 4 * o + c - 1,
		  50 + b, 20 + 4 * b, 23 + 4 * b, outs[o].dst_dw * 4);
	}
	P("done:\ns_or_b64 exec, exec, s[44:45]\nexp pos0, v[10:13] done\ns_endpgm\n");
#undef P
	return tgpu_shader(t, src);
}

static uint32_t expect(unsigned inst, unsigned vid, unsigned o, unsigned j)
{
	return inst << 20 | vid << 8 | o << 4 | j;
}

/* A GPU with a VS capturing outs[] into buffers of size_dw dwords each. */
struct so_setup {
	struct tgpu t;
	struct gm_bo *buf[4], *table, *slots, *query;
	unsigned stride[4];
};

static void so_setup(struct so_setup *s, const struct so_out *outs, unsigned n_out, const unsigned stride[4],
		     uint32_t size_dw)
{
	uint32_t desc[16], user[2], so_bits = SPI_SHADER_PGM_RSRC2_VS_SO_EN(1), bufmask = 0;
	uint64_t vs;

	memset(s, 0, sizeof *s);
	tgpu_init(&s->t);
	s->table = tgpu_bo(&s->t, 256);
	s->slots = tgpu_bo(&s->t, 64);
	s->query = tgpu_bo(&s->t, 256);
	memset(desc, 0, sizeof desc);
	for (unsigned b = 0; b < 4; b++) {
		s->stride[b] = stride[b];
		if (!stride[b])
			continue;
		s->buf[b] = tgpu_bo(&s->t, size_dw * 4 + 64);
		memset(gm_bo_map(s->buf[b]), 0xEE, size_dw * 4 + 64);   /* sentinel */
		/* radeonsi (Mesa 18): base = buffer VA, NUM_RECORDS = ~0, format 32 */
		tgpu_desc(desc + 4 * b, gm_bo_va(s->buf[b]), 0, 0xFFFFFFFFu, V_BUF_DATA_FORMAT_32,
			  V_BUF_NUM_FORMAT_UINT);
		so_bits |= (SPI_SHADER_PGM_RSRC2_VS_SO_BASE0_EN(1) << b);
		bufmask |= 1u << b;
	}
	memcpy(gm_bo_map(s->table), desc, sizeof desc);
	vs = so_vs(&s->t, outs, n_out, stride);
	user[0] = (uint32_t)gm_bo_va(s->table);
	user[1] = (uint32_t)(gm_bo_va(s->table) >> 32);
	tgpu_vs(&s->t, vs, 2, user, so_bits);
	tgpu_so_enable(&s->t, 0xF, bufmask);
	tgpu_so_flush(&s->t);
	for (unsigned b = 0; b < 4; b++)
		if (stride[b])
			tgpu_so_begin(&s->t, b, size_dw, stride[b], 0, 0);
}

static void so_end_all(struct so_setup *s)
{
	tgpu_so_flush(&s->t);
	for (unsigned b = 0; b < 4; b++)
		if (s->stride[b])
			tgpu_so_end(&s->t, b, gm_bo_va(s->slots) + 4 * b);
}

static void test_so_one_buffer_points_with_query(void)
{
	static const struct so_out outs[] = { { 0, 0, 4 } };
	static const unsigned stride[4] = { 4, 0, 0, 0 };
	struct so_setup s;
	uint64_t q[4];
	bool ok = true;

	so_setup(&s, outs, 1, stride, 256);
	pm4_event_write_addr(&s.t.cs, V_SAMPLE_STREAMOUTSTATS, 3, gm_bo_va(s.query));
	tgpu_draw_auto(&s.t, V_DI_PT_POINTLIST, 10, 1);
	pm4_event_write_addr(&s.t.cs, V_SAMPLE_STREAMOUTSTATS, 3, gm_bo_va(s.query) + 16);
	so_end_all(&s);
	tgpu_submit(&s.t);
	CHECK_EQ_INT(gm_fault_count(s.t.gm), 0);
	for (unsigned v = 0; v < 10; v++)
		for (unsigned j = 0; j < 4; j++)
			ok &= rd32(s.buf[0], v * 4 + j) == expect(0, v, 0, j);
	CHECK(ok);
	CHECK_EQ_INT(rd32(s.buf[0], 40), 0xEEEEEEEEu);
	CHECK_EQ_INT(rd32(s.slots, 0), 40);                  /* filled size, dwords */
	memcpy(q, gm_bo_map(s.query), sizeof q);
	CHECK(q[0] == 1ull << 63 && q[1] == 1ull << 63);
	CHECK(q[2] == (10 | 1ull << 63) && q[3] == (10 | 1ull << 63));
	tgpu_fini(&s.t);
}

static void test_so_four_buffers_separate(void)
{
	static const struct so_out outs[] = { { 0, 0, 1 }, { 1, 0, 2 }, { 2, 0, 3 }, { 3, 0, 4 } };
	static const unsigned stride[4] = { 1, 2, 3, 4 };
	struct so_setup s;
	bool ok = true;

	so_setup(&s, outs, 4, stride, 256);
	tgpu_draw_auto(&s.t, V_DI_PT_TRILIST, 6, 1);
	so_end_all(&s);
	tgpu_submit(&s.t);
	CHECK_EQ_INT(gm_fault_count(s.t.gm), 0);
	for (unsigned b = 0; b < 4; b++) {
		for (unsigned v = 0; v < 6; v++)
			for (unsigned j = 0; j <= b; j++)
				ok &= rd32(s.buf[b], v * stride[b] + j) == expect(0, v, b, j);
		CHECK_EQ_INT(rd32(s.slots, b), 6 * stride[b]);
	}
	CHECK(ok);
	tgpu_fini(&s.t);
}

static void test_so_interleaved_with_padding(void)
{
	/* one buffer, stride 8: out0 xyzw at 0, out1 xy at 5 (dword 4 and 7 skipped) */
	static const struct so_out outs[] = { { 0, 0, 4 }, { 0, 5, 2 } };
	static const unsigned stride[4] = { 8, 0, 0, 0 };
	struct so_setup s;
	bool ok = true;

	so_setup(&s, outs, 2, stride, 256);
	tgpu_draw_auto(&s.t, V_DI_PT_LINESTRIP, 3, 1);      /* 2 lines -> 4 vertices */
	so_end_all(&s);
	tgpu_submit(&s.t);
	{
		static const unsigned order[4] = { 0, 1, 1, 2 };
		for (unsigned v = 0; v < 4; v++) {
			for (unsigned j = 0; j < 4; j++)
				ok &= rd32(s.buf[0], v * 8 + j) == expect(0, order[v], 0, j);
			ok &= rd32(s.buf[0], v * 8 + 4) == 0xEEEEEEEEu;
			ok &= rd32(s.buf[0], v * 8 + 5) == expect(0, order[v], 1, 0);
			ok &= rd32(s.buf[0], v * 8 + 6) == expect(0, order[v], 1, 1);
			ok &= rd32(s.buf[0], v * 8 + 7) == 0xEEEEEEEEu;
		}
	}
	CHECK(ok);
	CHECK_EQ_INT(rd32(s.slots, 0), 32);
	tgpu_fini(&s.t);
}

static void test_so_overflow_writes_whole_primitives_only(void)
{
	static const struct so_out outs[] = { { 0, 0, 4 } };
	static const unsigned stride[4] = { 4, 0, 0, 0 };
	struct so_setup s;
	struct gm_so_stats st;
	uint64_t q[4];

	so_setup(&s, outs, 1, stride, 20);                  /* room for 5 vertices = 1 triangle */
	pm4_event_write_addr(&s.t.cs, V_SAMPLE_STREAMOUTSTATS, 3, gm_bo_va(s.query));
	tgpu_draw_auto(&s.t, V_DI_PT_TRILIST, 12, 1);
	pm4_event_write_addr(&s.t.cs, V_SAMPLE_STREAMOUTSTATS, 3, gm_bo_va(s.query) + 16);
	so_end_all(&s);
	tgpu_submit(&s.t);
	CHECK_EQ_INT(rd32(s.buf[0], 8), expect(0, 2, 0, 0));
	CHECK_EQ_INT(rd32(s.buf[0], 12), 0xEEEEEEEEu);      /* 2nd triangle did not fit: nothing */
	CHECK_EQ_INT(rd32(s.buf[0], 19), 0xEEEEEEEEu);
	CHECK_EQ_INT(rd32(s.slots, 0), 12);
	memcpy(q, gm_bo_map(s.query), sizeof q);
	CHECK_EQ_INT((q[2] - q[0]), 4);                     /* needed */
	CHECK_EQ_INT((q[3] - q[1]), 1);                     /* written */
	gm_so_stats_get(s.t.gm, &st);
	CHECK_EQ_INT(st.prims_needed[0], 4);                /* 12 vertices, 4 triangles */
	CHECK_EQ_INT(st.prims_written[0], 1);
	tgpu_fini(&s.t);
}

static void test_so_pause_resume_through_filled_size_slot(void)
{
	static const struct so_out outs[] = { { 0, 0, 4 } };
	static const unsigned stride[4] = { 4, 0, 0, 0 };
	struct so_setup s;

	so_setup(&s, outs, 1, stride, 256);
	tgpu_draw_auto(&s.t, V_DI_PT_POINTLIST, 3, 1);       /* vertices 0..2 */
	so_end_all(&s);                                       /* pause: slot = 12 */
	tgpu_so_enable(&s.t, 0, 0);
	tgpu_draw_auto(&s.t, V_DI_PT_POINTLIST, 4, 1);       /* not captured */
	tgpu_so_enable(&s.t, 0xF, 1);                         /* resume */
	tgpu_so_flush(&s.t);
	tgpu_so_begin(&s.t, 0, 256, 4, 0, gm_bo_va(s.slots));
	tgpu_draw_auto(&s.t, V_DI_PT_POINTLIST, 2, 1);       /* vertices 0..1 appended */
	so_end_all(&s);
	tgpu_submit(&s.t);
	CHECK_EQ_INT(gm_fault_count(s.t.gm), 0);
	CHECK_EQ_INT(rd32(s.buf[0], 8), expect(0, 2, 0, 0));
	CHECK_EQ_INT(rd32(s.buf[0], 12), expect(0, 0, 0, 0));
	CHECK_EQ_INT(rd32(s.buf[0], 16), expect(0, 1, 0, 0));
	CHECK_EQ_INT(rd32(s.buf[0], 20), 0xEEEEEEEEu);
	CHECK_EQ_INT(rd32(s.slots, 0), 20);
	tgpu_fini(&s.t);
}

static void test_so_end_without_flush_stores_stale_size(void)
{
	static const struct so_out outs[] = { { 0, 0, 4 } };
	static const unsigned stride[4] = { 4, 0, 0, 0 };
	struct so_setup s;

	so_setup(&s, outs, 1, stride, 256);
	tgpu_draw_auto(&s.t, V_DI_PT_POINTLIST, 3, 1);
	tgpu_so_end(&s.t, 0, gm_bo_va(s.slots));            /* driver bug: no flush first */
	tgpu_submit(&s.t);
	CHECK_EQ_INT(rd32(s.slots, 0), 0);                    /* FILLED_SIZE from the begin flush */
	tgpu_fini(&s.t);
}

static void test_so_drawtf_uses_opaque_vertex_count(void)
{
	static const struct so_out outs[] = { { 0, 0, 4 }, { 1, 0, 1 } };
	static const unsigned stride[4] = { 4, 1, 0, 0 };
	struct so_setup s;

	so_setup(&s, outs, 2, stride, 256);
	tgpu_draw_auto(&s.t, V_DI_PT_POINTLIST, 7, 1);
	so_end_all(&s);
	/* second pass: capture only into buffer 1, drawing "the TF buffer" */
	tgpu_so_enable(&s.t, 0xF, 2);
	tgpu_so_flush(&s.t);
	tgpu_so_begin(&s.t, 1, 256, 1, 100, 0);
	pm4_set_context_reg(&s.t.cs, REG_VGT_STRMOUT_DRAW_OPAQUE_VERTEX_STRIDE, 4);
	pm4_copy_data(&s.t.cs, PKT3_COPY_DATA_CONTROL_SRC_SEL(V_COPY_DATA_SRC_MEM) |
			       PKT3_COPY_DATA_CONTROL_DST_SEL(V_COPY_DATA_DST_REG) |
			       PKT3_COPY_DATA_CONTROL_WR_CONFIRM(1),
		      gm_bo_va(s.slots), REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE >> 2);
	pm4_set_uconfig_reg_idx(&s.t.cs, REG_VGT_PRIMITIVE_TYPE, 1, V_DI_PT_POINTLIST);
	pm4_draw_index_auto(&s.t.cs, 0, VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_AUTO_INDEX) |
				       VGT_DRAW_INITIATOR_USE_OPAQUE(1));
	tgpu_so_flush(&s.t);
	tgpu_so_end(&s.t, 1, gm_bo_va(s.slots) + 8);
	tgpu_submit(&s.t);
	CHECK_EQ_INT(gm_fault_count(s.t.gm), 0);
	CHECK_EQ_INT(rd32(s.slots, 0), 28);
	CHECK_EQ_INT(rd32(s.slots, 2), 107);                 /* 100 + 7 vertices of DrawTF */
	CHECK_EQ_INT(rd32(s.buf[1], 106), expect(0, 6, 1, 0));
	CHECK_EQ_INT(rd32(s.buf[1], 107), 0xEEEEEEEEu);
	tgpu_fini(&s.t);
}

static void test_so_instancing(void)
{
	static const struct so_out outs[] = { { 0, 0, 1 } };
	static const unsigned stride[4] = { 1, 0, 0, 0 };
	struct so_setup s;

	so_setup(&s, outs, 1, stride, 256);
	tgpu_draw_auto(&s.t, V_DI_PT_LINELIST, 4, 3);
	so_end_all(&s);
	tgpu_submit(&s.t);
	CHECK_EQ_INT(rd32(s.slots, 0), 12);
	CHECK_EQ_INT(rd32(s.buf[0], 0), expect(0, 0, 0, 0));
	CHECK_EQ_INT(rd32(s.buf[0], 4), expect(1, 0, 0, 0));
	CHECK_EQ_INT(rd32(s.buf[0], 11), expect(2, 3, 0, 0));
	tgpu_fini(&s.t);
}

static void predicated_draw_runs(bool overflow, bool *ran)
{
	static const struct so_out outs[] = { { 0, 0, 1 } };
	static const unsigned stride[4] = { 1, 0, 0, 0 };
	struct so_setup s;
	struct pm4_set_predication pred = { 0 };
	struct gm_so_stats st;

	so_setup(&s, outs, 1, stride, overflow ? 4 : 256);
	pm4_event_write_addr(&s.t.cs, V_SAMPLE_STREAMOUTSTATS, 3, gm_bo_va(s.query));
	tgpu_draw_auto(&s.t, V_DI_PT_TRILIST, 6, 1);
	pm4_event_write_addr(&s.t.cs, V_SAMPLE_STREAMOUTSTATS, 3, gm_bo_va(s.query) + 16);
	/* radeonsi's render condition on SO_OVERFLOW_PREDICATE: PRIMCOUNT,
	 * DRAW_NOT_VISIBLE = "draw if overflow" (docs/gcn-streamout.md) */
	pred.address = gm_bo_va(s.query);
	pred.pred_op = V_PREDICATION_OP_PRIMCOUNT;
	pred.draw_visible = false;
	pm4_set_predication(&s.t.cs, &pred);
	pm4_set_uconfig_reg_idx(&s.t.cs, REG_VGT_PRIMITIVE_TYPE, 1, V_DI_PT_POINTLIST);
	pm4_emit(&s.t.cs, pm4_pkt3_header(PKT3_DRAW_INDEX_AUTO, 2, true));
	pm4_emit(&s.t.cs, 1);
	pm4_emit(&s.t.cs, VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_AUTO_INDEX));
	tgpu_submit(&s.t);
	gm_so_stats_get(s.t.gm, &st);
	*ran = st.draws == 2 && st.draws_skipped == 0;
	CHECK_EQ_INT(st.draws + st.draws_skipped, 2);
	tgpu_fini(&s.t);
}

static void test_predication_primcount_draws_only_on_overflow(void)
{
	bool ran;
	predicated_draw_runs(true, &ran);
	CHECK(ran);
	predicated_draw_runs(false, &ran);
	CHECK(!ran);
}

/* Occlusion (ZPASS_DONE pairs, radeonsi's layout): with rasterizer discard
 * nothing reaches the depth test, so the count is exactly 0 (valid bit set)
 * and a ZPASS predicate ("draw if visible") skips the draw; once a draw was
 * rasterized the model cannot count, and says so with a fault. */
static void zpass_run(bool discard, uint64_t *begin, uint64_t *end, bool *ran, unsigned *faults)
{
	static const struct so_out outs[] = { { 0, 0, 1 } };
	static const unsigned stride[4] = { 1, 0, 0, 0 };
	struct so_setup s;
	struct pm4_set_predication pred = { 0 };
	struct gm_so_stats st;

	so_setup(&s, outs, 1, stride, 256);
	pm4_set_context_reg(&s.t.cs, REG_PA_CL_CLIP_CNTL, PA_CL_CLIP_CNTL_DX_RASTERIZATION_KILL(discard));
	pm4_event_write_addr(&s.t.cs, V_ZPASS_DONE, 1, gm_bo_va(s.query));
	tgpu_draw_auto(&s.t, V_DI_PT_TRILIST, 6, 1);
	pm4_event_write_addr(&s.t.cs, V_ZPASS_DONE, 1, gm_bo_va(s.query) + 8);
	pred.address = gm_bo_va(s.query);
	pred.pred_op = V_PREDICATION_OP_ZPASS;
	pred.draw_visible = true;
	pm4_set_predication(&s.t.cs, &pred);
	pm4_set_uconfig_reg_idx(&s.t.cs, REG_VGT_PRIMITIVE_TYPE, 1, V_DI_PT_POINTLIST);
	pm4_emit(&s.t.cs, pm4_pkt3_header(PKT3_DRAW_INDEX_AUTO, 2, true));
	pm4_emit(&s.t.cs, 1);
	pm4_emit(&s.t.cs, VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_AUTO_INDEX));
	tgpu_submit(&s.t);
	memcpy(begin, (const uint8_t *)gm_bo_map(s.query), 8);
	memcpy(end, (const uint8_t *)gm_bo_map(s.query) + 8, 8);
	gm_so_stats_get(s.t.gm, &st);
	*ran = st.draws_skipped == 0;
	*faults = gm_fault_count(s.t.gm);
	tgpu_fini(&s.t);
}

static void test_zpass_counts_zero_without_rasterization_and_names_what_it_cannot_count(void)
{
	uint64_t b, e;
	bool ran;
	unsigned faults;

	zpass_run(true, &b, &e, &ran, &faults);
	CHECK(b == 1ull << 63 && e == 1ull << 63);
	CHECK(!ran);                 /* no sample passed: "draw if visible" skips */
	CHECK_EQ_INT(faults, 0);
	zpass_run(false, &b, &e, &ran, &faults);
	CHECK_EQ_INT(faults, 1);     /* the end sample after a rasterized draw */
}

/* GS: each input point emits two points on stream 0 (2*id, 2*id+1) and one
 * on stream 1 (id+100); the copy shader sends stream s to buffer s. */
static void test_gs_two_streams(void)
{
	struct tgpu t;
	struct gm_bo *esgs, *gsvs, *table, *buf0, *buf1, *slots;
	uint32_t desc[16], user[2];
	uint64_t es, gs, vs;
	struct gm_so_stats st;

	tgpu_init(&t);
	esgs = tgpu_bo(&t, 4096);
	gsvs = tgpu_bo(&t, 4096);
	table = tgpu_bo(&t, 256);
	buf0 = tgpu_bo(&t, 1024);
	buf1 = tgpu_bo(&t, 1024);
	slots = tgpu_bo(&t, 64);
	tgpu_desc(desc + 0, gm_bo_va(esgs), 0, 4096, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	tgpu_desc(desc + 4, gm_bo_va(gsvs), 0, 4096, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	tgpu_desc(desc + 8, gm_bo_va(buf0), 0, 0xFFFFFFFFu, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	tgpu_desc(desc + 12, gm_bo_va(buf1), 0, 0xFFFFFFFFu, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	memcpy(gm_bo_map(table), desc, sizeof desc);
	user[0] = (uint32_t)gm_bo_va(table);
	user[1] = (uint32_t)(gm_bo_va(table) >> 32);

	es = tgpu_shader(&t,
		"s_load_dwordx4 s[8:11], s[0:1], 0\n"
		"v_laneid_u32 v5\n"
		"v_lshl_b32 v5, v5, 2\n"
		"v_add_u32 v5, v5, s2\n"
		"buffer_store_dword v0, v5, s[8:11], 0 offen\n"
		"s_endpgm\n");
	gs = tgpu_shader(&t,
		"s_load_dwordx4 s[8:11], s[0:1], 0\n"
		"s_load_dwordx4 s[12:15], s[0:1], 16\n"
		"buffer_load_dword v10, v0, s[8:11], 0 offen\n"
		"v_laneid_u32 v11\n"
		"v_mul_lo_u32 v11, v11, 16\n"
		"v_add_u32 v11, v11, s2\n"
		"v_lshl_b32 v12, v10, 1\n"
		"buffer_store_dword v12, v11, s[12:15], 0 offen\n"
		"s_sendmsg gs_emit stream 0\n"
		"v_add_u32 v12, v12, 1\n"
		"buffer_store_dword v12, v11, s[12:15], 0 offset:4 offen\n"
		"s_sendmsg gs_emit stream 0\n"
		"v_add_u32 v13, v10, 100\n"
		"buffer_store_dword v13, v11, s[12:15], 0 offset:8 offen\n"
		"s_sendmsg gs_emit stream 1\n"
		"s_sendmsg gs_done\n"
		"s_endpgm\n");
	vs = tgpu_shader(&t,
		"s_load_dwordx4 s[12:15], s[0:1], 16\n"
		"buffer_load_dword v10, v0, s[12:15], 0 offen\n"
		"s_bfe_u32 s20, s2, 0x20018\n"
		"s_bfe_u32 s21, s2, 0x70010\n"
		"v_laneid_u32 v11\n"
		"v_cmp_lt_u32 vcc, v11, s21\n"
		"s_and_saveexec_b64 s[30:31], vcc\n"
		"s_cbranch_execz done\n"
		"v_add_u32 v11, v11, s3\n"
		"v_lshl_b32 v11, v11, 2\n"
		"s_cmp_eq_u32 s20, 1\n"
		"s_cbranch_scc1 stream1\n"
		"s_load_dwordx4 s[16:19], s[0:1], 32\n"
		"s_lshl_b32 s22, s4, 2\n"
		"v_add_u32 v12, v11, s22\n"
		"buffer_store_dword v10, v12, s[16:19], 0 offen glc slc\n"
		"s_branch done\n"
		"stream1:\n"
		"s_load_dwordx4 s[16:19], s[0:1], 48\n"
		"s_lshl_b32 s22, s5, 2\n"
		"v_add_u32 v12, v11, s22\n"
		"buffer_store_dword v10, v12, s[16:19], 0 offen glc slc\n"
		"done:\n"
		"s_or_b64 exec, exec, s[30:31]\n"
		"s_endpgm\n");
	tgpu_vs(&t, vs, 2, user, SPI_SHADER_PGM_RSRC2_VS_SO_EN(1) | SPI_SHADER_PGM_RSRC2_VS_SO_BASE0_EN(1) |
				 SPI_SHADER_PGM_RSRC2_VS_SO_BASE1_EN(1));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_LO_ES, (uint32_t)(es >> 8));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_HI_ES, (uint32_t)(es >> 40));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC1_ES, SPI_SHADER_PGM_RSRC1_ES_VGPRS(3) | SPI_SHADER_PGM_RSRC1_ES_SGPRS(1));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC2_ES, SPI_SHADER_PGM_RSRC2_ES_USER_SGPR(2));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_USER_DATA_ES_0, user[0]);
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_USER_DATA_ES_0 + 4, user[1]);
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_LO_GS, (uint32_t)(gs >> 8));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_HI_GS, (uint32_t)(gs >> 40));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC1_GS, SPI_SHADER_PGM_RSRC1_GS_VGPRS(3) | SPI_SHADER_PGM_RSRC1_GS_SGPRS(1));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC2_GS, SPI_SHADER_PGM_RSRC2_GS_USER_SGPR(2));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_USER_DATA_GS_0, user[0]);
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_USER_DATA_GS_0 + 4, user[1]);
	pm4_set_context_reg(&t.cs, REG_VGT_SHADER_STAGES_EN,
			    VGT_SHADER_STAGES_EN_ES_EN(V_ES_STAGE_REAL) | VGT_SHADER_STAGES_EN_GS_EN(1) |
			    VGT_SHADER_STAGES_EN_VS_EN(V_VS_STAGE_COPY_SHADER));
	pm4_set_context_reg(&t.cs, REG_VGT_GS_MODE, VGT_GS_MODE_MODE(V_GS_SCENARIO_G));
	pm4_set_context_reg(&t.cs, REG_VGT_GS_MAX_VERT_OUT, 2);
	pm4_set_context_reg(&t.cs, REG_VGT_ESGS_RING_ITEMSIZE, 1);
	pm4_set_context_reg(&t.cs, REG_VGT_GSVS_RING_ITEMSIZE, 4);
	pm4_set_context_reg(&t.cs, REG_VGT_GSVS_RING_OFFSET_1, 2);
	pm4_set_context_reg(&t.cs, REG_VGT_GS_VERT_ITEMSIZE, 1);
	pm4_set_context_reg(&t.cs, REG_VGT_GS_VERT_ITEMSIZE_1, 1);
	pm4_set_context_reg(&t.cs, REG_VGT_GS_OUT_PRIM_TYPE, VGT_GS_OUT_PRIM_TYPE_OUTPRIM_TYPE(V_POINTLIST));
	pm4_set_uconfig_reg(&t.cs, REG_VGT_ESGS_RING_SIZE, 4096 / 256);
	pm4_set_uconfig_reg(&t.cs, REG_VGT_GSVS_RING_SIZE, 4096 / 256);
	tgpu_so_enable(&t, 0x3, 0x1 | 0x2 << 4);
	tgpu_so_flush(&t);
	tgpu_so_begin(&t, 0, 256, 1, 0, 0);
	tgpu_so_begin(&t, 1, 256, 1, 0, 0);
	tgpu_draw_auto(&t, V_DI_PT_POINTLIST, 5, 1);
	tgpu_so_flush(&t);
	tgpu_so_end(&t, 0, gm_bo_va(slots));
	tgpu_so_end(&t, 1, gm_bo_va(slots) + 4);
	tgpu_submit(&t);
	CHECK_EQ_INT(gm_fault_count(t.gm), 0);
	for (unsigned i = 0; i < 10; i++)
		CHECK_EQ_INT(rd32(buf0, i), i);
	for (unsigned i = 0; i < 5; i++)
		CHECK_EQ_INT(rd32(buf1, i), 100 + i);
	CHECK_EQ_INT(rd32(slots, 0), 10);
	CHECK_EQ_INT(rd32(slots, 1), 5);
	gm_so_stats_get(t.gm, &st);
	CHECK_EQ_INT(st.prims_needed[0], 10);
	CHECK_EQ_INT(st.prims_written[1], 5);
	tgpu_fini(&t);
}

/* GS output strips: one input point emits a 4-vertex triangle strip
 * (values 0..3); the copy shader captures stream 0.  Its odd triangle keeps
 * the provoking vertex where PA_SU_SC_MODE_CNTL.PROVOKING_VTX_LAST puts it:
 * (2, 1, 3) under the last-vertex convention, (1, 3, 2) under the first. */
static void gs_strip_run(bool provoking_last, uint32_t got[6])
{
	struct tgpu t;
	struct gm_bo *esgs, *gsvs, *table, *buf0, *slots;
	uint32_t desc[12], user[2];
	uint64_t es, gs, vs;

	tgpu_init(&t);
	esgs = tgpu_bo(&t, 4096);
	gsvs = tgpu_bo(&t, 4096);
	table = tgpu_bo(&t, 256);
	buf0 = tgpu_bo(&t, 1024);
	slots = tgpu_bo(&t, 64);
	tgpu_desc(desc + 0, gm_bo_va(esgs), 0, 4096, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	tgpu_desc(desc + 4, gm_bo_va(gsvs), 0, 4096, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	tgpu_desc(desc + 8, gm_bo_va(buf0), 0, 0xFFFFFFFFu, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	memcpy(gm_bo_map(table), desc, sizeof desc);
	user[0] = (uint32_t)gm_bo_va(table);
	user[1] = (uint32_t)(gm_bo_va(table) >> 32);

	es = tgpu_shader(&t,
		"s_load_dwordx4 s[8:11], s[0:1], 0\n"
		"v_laneid_u32 v5\n"
		"v_lshl_b32 v5, v5, 2\n"
		"v_add_u32 v5, v5, s2\n"
		"buffer_store_dword v0, v5, s[8:11], 0 offen\n"
		"s_endpgm\n");
	gs = tgpu_shader(&t,
		"s_load_dwordx4 s[8:11], s[0:1], 0\n"
		"s_load_dwordx4 s[12:15], s[0:1], 16\n"
		"buffer_load_dword v10, v0, s[8:11], 0 offen\n"
		"v_laneid_u32 v11\n"
		"v_mul_lo_u32 v11, v11, 16\n"
		"v_add_u32 v11, v11, s2\n"
		"v_lshl_b32 v12, v10, 2\n"
		"buffer_store_dword v12, v11, s[12:15], 0 offen\n"
		"s_sendmsg gs_emit stream 0\n"
		"v_add_u32 v12, v12, 1\n"
		"buffer_store_dword v12, v11, s[12:15], 0 offset:4 offen\n"
		"s_sendmsg gs_emit stream 0\n"
		"v_add_u32 v12, v12, 1\n"
		"buffer_store_dword v12, v11, s[12:15], 0 offset:8 offen\n"
		"s_sendmsg gs_emit stream 0\n"
		"v_add_u32 v12, v12, 1\n"
		"buffer_store_dword v12, v11, s[12:15], 0 offset:12 offen\n"
		"s_sendmsg gs_emit stream 0\n"
		"s_sendmsg gs_done\n"
		"s_endpgm\n");
	vs = tgpu_shader(&t,
		"s_load_dwordx4 s[12:15], s[0:1], 16\n"
		"buffer_load_dword v10, v0, s[12:15], 0 offen\n"
		"s_bfe_u32 s21, s2, 0x70010\n"
		"v_laneid_u32 v11\n"
		"v_cmp_lt_u32 vcc, v11, s21\n"
		"s_and_saveexec_b64 s[30:31], vcc\n"
		"s_cbranch_execz done\n"
		"v_add_u32 v11, v11, s3\n"
		"v_lshl_b32 v11, v11, 2\n"
		"s_load_dwordx4 s[16:19], s[0:1], 32\n"
		"s_lshl_b32 s22, s4, 2\n"
		"v_add_u32 v12, v11, s22\n"
		"buffer_store_dword v10, v12, s[16:19], 0 offen glc slc\n"
		"done:\n"
		"s_or_b64 exec, exec, s[30:31]\n"
		"s_endpgm\n");
	tgpu_vs(&t, vs, 2, user, SPI_SHADER_PGM_RSRC2_VS_SO_EN(1) | SPI_SHADER_PGM_RSRC2_VS_SO_BASE0_EN(1));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_LO_ES, (uint32_t)(es >> 8));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_HI_ES, (uint32_t)(es >> 40));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC1_ES, SPI_SHADER_PGM_RSRC1_ES_VGPRS(3) | SPI_SHADER_PGM_RSRC1_ES_SGPRS(1));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC2_ES, SPI_SHADER_PGM_RSRC2_ES_USER_SGPR(2));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_USER_DATA_ES_0, user[0]);
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_USER_DATA_ES_0 + 4, user[1]);
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_LO_GS, (uint32_t)(gs >> 8));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_HI_GS, (uint32_t)(gs >> 40));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC1_GS, SPI_SHADER_PGM_RSRC1_GS_VGPRS(3) | SPI_SHADER_PGM_RSRC1_GS_SGPRS(1));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC2_GS, SPI_SHADER_PGM_RSRC2_GS_USER_SGPR(2));
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_USER_DATA_GS_0, user[0]);
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_USER_DATA_GS_0 + 4, user[1]);
	pm4_set_context_reg(&t.cs, REG_VGT_SHADER_STAGES_EN,
			    VGT_SHADER_STAGES_EN_ES_EN(V_ES_STAGE_REAL) | VGT_SHADER_STAGES_EN_GS_EN(1) |
			    VGT_SHADER_STAGES_EN_VS_EN(V_VS_STAGE_COPY_SHADER));
	pm4_set_context_reg(&t.cs, REG_VGT_GS_MODE, VGT_GS_MODE_MODE(V_GS_SCENARIO_G));
	pm4_set_context_reg(&t.cs, REG_VGT_GS_MAX_VERT_OUT, 4);
	pm4_set_context_reg(&t.cs, REG_VGT_ESGS_RING_ITEMSIZE, 1);
	pm4_set_context_reg(&t.cs, REG_VGT_GSVS_RING_ITEMSIZE, 4);
	pm4_set_context_reg(&t.cs, REG_VGT_GS_VERT_ITEMSIZE, 1);
	pm4_set_context_reg(&t.cs, REG_VGT_GS_OUT_PRIM_TYPE, VGT_GS_OUT_PRIM_TYPE_OUTPRIM_TYPE(V_TRISTRIP));
	pm4_set_context_reg(&t.cs, REG_PA_SU_SC_MODE_CNTL, PA_SU_SC_MODE_CNTL_PROVOKING_VTX_LAST(provoking_last));
	pm4_set_uconfig_reg(&t.cs, REG_VGT_ESGS_RING_SIZE, 4096 / 256);
	pm4_set_uconfig_reg(&t.cs, REG_VGT_GSVS_RING_SIZE, 4096 / 256);
	tgpu_so_enable(&t, 0x1, 0x1);
	tgpu_so_flush(&t);
	tgpu_so_begin(&t, 0, 256, 1, 0, 0);
	tgpu_draw_auto(&t, V_DI_PT_POINTLIST, 1, 1);
	tgpu_so_flush(&t);
	tgpu_so_end(&t, 0, gm_bo_va(slots));
	tgpu_submit(&t);
	CHECK_EQ_INT(gm_fault_count(t.gm), 0);
	CHECK_EQ_INT(rd32(slots, 0), 6);
	for (unsigned i = 0; i < 6; i++)
		got[i] = rd32(buf0, i);
	tgpu_fini(&t);
}

static void test_gs_output_strip_keeps_the_provoking_vertex(void)
{
	static const uint32_t last[6] = { 0, 1, 2, 2, 1, 3 }, first[6] = { 0, 1, 2, 1, 3, 2 };
	uint32_t got[6];

	gs_strip_run(true, got);
	CHECK(!memcmp(got, last, sizeof got));
	gs_strip_run(false, got);
	CHECK(!memcmp(got, first, sizeof got));
}

int main(void)
{
	XT_RUN(test_so_one_buffer_points_with_query);
	XT_RUN(test_so_four_buffers_separate);
	XT_RUN(test_so_interleaved_with_padding);
	XT_RUN(test_so_overflow_writes_whole_primitives_only);
	XT_RUN(test_so_pause_resume_through_filled_size_slot);
	XT_RUN(test_so_end_without_flush_stores_stale_size);
	XT_RUN(test_so_drawtf_uses_opaque_vertex_count);
	XT_RUN(test_so_instancing);
	XT_RUN(test_predication_primcount_draws_only_on_overflow);
	XT_RUN(test_zpass_counts_zero_without_rasterization_and_names_what_it_cannot_count);
	XT_RUN(test_gs_two_streams);
	XT_RUN(test_gs_output_strip_keeps_the_provoking_vertex);
	XT_TEST_MAIN_END();
}
