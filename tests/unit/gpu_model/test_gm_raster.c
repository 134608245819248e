/*
 * test_gm_raster.c - the pixel pipeline (docs/isa.md "Pixel shaders",
 * docs/pixel-pipeline.md) driven as the driver drives it: PM4 in model
 * memory, a VS that fetches positions and one colour, a PS assembled from
 * text, and radeonsi-shaped PA / SC / SPI / DB / CB registers.  Every
 * expectation is derived from GL's rules in the comment beside it (pixel
 * centres at +0.5, the fill convention, perspective-correct interpolation,
 * the depth test, blend equations, unorm rounding), not read back from the
 * model.
 */
#include <math.h>
#include <stdio.h>

#include "gm_raster_util.h"

#define W 8
#define H 8

static struct vtx wv(float x, float y, float z, float w, float r, float g, float b, float a)
{
	return rt_vtx(W, H, x, y, z, w, r, g, b, a);
}

static const uint8_t *px8(struct rt *r, unsigned x, unsigned y)
{
	return (const uint8_t *)gm_bo_map(r->cb) + (y * W + x) * 4 * r->samples;
}

/* Two triangles sharing the diagonal of the square [0,4)^2, additively
 * blended: GL's fill rule (the model's top-left rule with y the memory row)
 * gives every pixel of the square to exactly one of them.  Pixel centres
 * (x + .5, y + .5) with x + y = 3 lie on the shared edge; for the lower-left
 * triangle it is a bottom-right edge (excluded), for the other a top-left
 * edge (included), so red has x + y <= 2, green x + y >= 3. */
static void test_fill_rule_shared_edge(void)
{
	struct rt r;
	struct vtx v[6] = {
		wv(0, 0, 0, 1, 1, 0, 0, 1), wv(4, 0, 0, 1, 1, 0, 0, 1), wv(0, 4, 0, 1, 1, 0, 0, 1),
		wv(4, 0, 0, 1, 0, 1, 0, 1), wv(4, 4, 0, 1, 0, 1, 0, 1), wv(0, 4, 0, 1, 0, 1, 0, 1),
	};
	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	pm4_set_context_reg(&r.t.cs, REG_CB_BLEND0_CONTROL, CB_BLEND_CONTROL_ENABLE(1) |
			    CB_BLEND_CONTROL_COLOR_SRCBLEND(V_BLEND_ONE) | CB_BLEND_CONTROL_COLOR_DESTBLEND(V_BLEND_ONE) |
			    CB_BLEND_CONTROL_COLOR_COMB_FCN(V_COMB_DST_PLUS_SRC));
	draw(&r, V_DI_PT_TRILIST, v, 6);
	submit_clean(&r);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			const uint8_t *p = px8(&r, x, y);
			bool in = x < 4 && y < 4;
			unsigned er = in && x + y <= 2 ? 255 : 0, eg = in && x + y >= 3 ? 255 : 0;
			if (p[0] != er || p[1] != eg || p[3] != (in ? 255 : 0))
				fprintf(stderr, "pixel (%u,%u) = %u %u %u %u\n", x, y, p[0], p[1], p[2], p[3]);
			CHECK_EQ_INT(p[0], er);
			CHECK_EQ_INT(p[1], eg);
			CHECK_EQ_INT(p[3], in ? 255 : 0);
		}
	tgpu_fini(&r.t);
}

/* A full-screen quad whose red goes 0 -> 1 from window x = 0 to 8 and
 * whose clip w differs per vertex: red at pixel centre x + .5 is, by GL's
 * perspective-correct interpolation, r = (b1 r1 / w1 + ...) / (b0 / w0 +
 * ...); with w constant along y and linear in x the expected value is
 * computed here from the screen-space barycentric t = (x + .5) / 8. */
static void test_interpolation_perspective(void)
{
	struct rt r;
	const float wl = 1.0f, wr = 3.0f;
	struct vtx v[6] = {
		wv(0, 0, 0, wl, 0, 0.25f, 0, 1), wv(8, 0, 0, wr, 1, 0.25f, 0, 1), wv(8, 8, 0, wr, 1, 0.25f, 0, 1),
		wv(0, 0, 0, wl, 0, 0.25f, 0, 1), wv(8, 8, 0, wr, 1, 0.25f, 0, 1), wv(0, 8, 0, wl, 0, 0.25f, 0, 1),
	};
	rt_init(&r, W, H, V_COLOR_32_32_32_32, V_NUMBER_FLOAT, 16, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	draw(&r, V_DI_PT_TRILIST, v, 6);
	submit_clean(&r);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			const float *p = (const float *)gm_bo_map(r.cb) + (y * W + x) * 4;
			double t = (x + 0.5) / 8, exp_r = (t / wr) / ((1 - t) / wl + t / wr);
			CHECK(fabs(p[0] - exp_r) < 1e-6);
			CHECK(p[1] == 0.25f);   /* constant attributes stay exact */
			CHECK(p[3] == 1.0f);
		}
	tgpu_fini(&r.t);
}

/* Depth: a quad at NDC z = 0 (window 0.5) then one at NDC z = 0.5 (window
 * 0.75) over the left half with GL_LESS: the second fails everywhere; a
 * third at NDC z = -0.5 (0.25) over the top half passes.  The occlusion
 * counter (ZPASS_DONE pair) counts the samples that passed: 64 + 0 + 32. */
static void test_depth_test_and_occlusion_count(void)
{
	struct rt r;
	struct vtx q0[6], q1[6], q2[6];
	uint64_t b, e;
	const float *zb;
	struct pm4_cs *cs;

	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	cs = &r.t.cs;
	pm4_set_context_reg(cs, REG_DB_DEPTH_INFO, DB_DEPTH_INFO_ARRAY_MODE(V_ARRAY_LINEAR_ALIGNED));
	pm4_set_context_reg(cs, REG_DB_Z_INFO, DB_Z_INFO_FORMAT(V_Z_32_FLOAT));
	pm4_set_context_reg(cs, REG_DB_Z_READ_BASE, (uint32_t)(gm_bo_va(r.zb) >> 8));
	pm4_set_context_reg(cs, REG_DB_Z_WRITE_BASE, (uint32_t)(gm_bo_va(r.zb) >> 8));
	pm4_set_context_reg(cs, REG_DB_DEPTH_SIZE, DB_DEPTH_SIZE_PITCH_TILE_MAX(W / 8 - 1) | DB_DEPTH_SIZE_HEIGHT_TILE_MAX(H / 8 - 1));
	pm4_set_context_reg(cs, REG_DB_DEPTH_CONTROL, DB_DEPTH_CONTROL_Z_ENABLE(1) | DB_DEPTH_CONTROL_Z_WRITE_ENABLE(1) |
			    DB_DEPTH_CONTROL_ZFUNC(V_FRAG_LESS));
	pm4_set_context_reg(cs, REG_DB_COUNT_CONTROL, DB_COUNT_CONTROL_PERFECT_ZPASS_COUNTS(1));
	for (unsigned i = 0; i < W * H; i++)
		((float *)gm_bo_map(r.zb))[i] = 1.0f;          /* glClearDepth(1) */
	{
		struct vtx a[6] = { wv(0, 0, 0, 1, 1, 0, 0, 1), wv(8, 0, 0, 1, 1, 0, 0, 1), wv(8, 8, 0, 1, 1, 0, 0, 1),
				    wv(0, 0, 0, 1, 1, 0, 0, 1), wv(8, 8, 0, 1, 1, 0, 0, 1), wv(0, 8, 0, 1, 1, 0, 0, 1) };
		memcpy(q0, a, sizeof a);
		for (unsigned i = 0; i < 6; i++) {
			q1[i] = a[i], q2[i] = a[i];
			q1[i].p[0] = a[i].p[0] > 0 ? 0 : -1;          /* left half */
			q1[i].p[2] = 0.5f, q1[i].c[0] = 0, q1[i].c[1] = 1;
			q2[i].p[1] = a[i].p[1] < 0 ? 0 : 1;           /* top half: y 4..8 */
			q2[i].p[2] = -0.5f, q2[i].c[0] = 0, q2[i].c[2] = 1;
		}
	}
	pm4_event_write_addr(cs, V_ZPASS_DONE, 1, gm_bo_va(r.query));
	/* three draws from three vertex ranges of one buffer */
	memcpy((struct vtx *)gm_bo_map(r.vb), q0, sizeof q0);
	memcpy((struct vtx *)gm_bo_map(r.vb) + 6, q1, sizeof q1);
	memcpy((struct vtx *)gm_bo_map(r.vb) + 12, q2, sizeof q2);
	tgpu_draw_auto(&r.t, V_DI_PT_TRILIST, 18, 1);
	pm4_event_write_addr(cs, V_ZPASS_DONE, 1, gm_bo_va(r.query) + 8);
	submit_clean(&r);
	memcpy(&b, gm_bo_map(r.query), 8);
	memcpy(&e, (const uint8_t *)gm_bo_map(r.query) + 8, 8);
	CHECK(b >> 63 && e >> 63);
	CHECK_EQ_INT((int)((e - b) & ~(1ull << 63)), 64 + 32);
	zb = gm_bo_map(r.zb);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			const uint8_t *p = px8(&r, x, y);
			bool top = y >= 4;
			CHECK_EQ_INT(p[0], top ? 0 : 255);
			CHECK_EQ_INT(p[1], 0);
			CHECK_EQ_INT(p[2], top ? 255 : 0);
			CHECK(zb[y * W + x] == (top ? 0.25f : 0.5f));
		}
	tgpu_fini(&r.t);
}

/* GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA over a unorm8 target holding
 * (0, 255, 0, 255): red 1, alpha 0.5 gives r = 0.5 -> 127.5 -> 128 (round
 * to nearest even), g = 0.5 -> 128, b = 0, a = 0.5 * 0.5 + 1 * 0.5 = 0.75
 * -> 191.25 -> 191; a colour mask without blue and alpha keeps b and a. */
static void test_blend_and_write_mask(void)
{
	struct rt r;
	struct vtx v[3] = { wv(-8, -8, 0, 1, 1, 0, 0.5f, 0.5f), wv(24, -8, 0, 1, 1, 0, 0.5f, 0.5f),
			    wv(-8, 24, 0, 1, 1, 0, 0.5f, 0.5f) };
	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	for (unsigned i = 0; i < W * H; i++)
		((uint32_t *)gm_bo_map(r.cb))[i] = 0xFF00FF00u;
	pm4_set_context_reg(&r.t.cs, REG_CB_BLEND0_CONTROL, CB_BLEND_CONTROL_ENABLE(1) |
			    CB_BLEND_CONTROL_COLOR_SRCBLEND(V_BLEND_SRC_ALPHA) |
			    CB_BLEND_CONTROL_COLOR_DESTBLEND(V_BLEND_ONE_MINUS_SRC_ALPHA));
	draw(&r, V_DI_PT_TRILIST, v, 3);
	submit_clean(&r);
	CHECK_EQ_INT(px8(&r, 3, 5)[0], 128);
	CHECK_EQ_INT(px8(&r, 3, 5)[1], 128);
	CHECK_EQ_INT(px8(&r, 3, 5)[2], 0 + 64);      /* 0.5 * 0.5 + 0 -> 63.75 -> 64 */
	CHECK_EQ_INT(px8(&r, 3, 5)[3], 191);
	tgpu_fini(&r.t);
	/* glColorMask(1, 1, 0, 0): CB_TARGET_MASK 0x3 */
	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	for (unsigned i = 0; i < W * H; i++)
		((uint32_t *)gm_bo_map(r.cb))[i] = 0x11223344u;
	pm4_set_context_reg(&r.t.cs, REG_CB_TARGET_MASK, 0x3);
	draw(&r, V_DI_PT_TRILIST, v, 3);
	submit_clean(&r);
	CHECK_EQ_INT(px8(&r, 0, 0)[0], 255);
	CHECK_EQ_INT(px8(&r, 0, 0)[1], 0);
	CHECK_EQ_INT(px8(&r, 0, 0)[2], 0x22);
	CHECK_EQ_INT(px8(&r, 0, 0)[3], 0x11);
	tgpu_fini(&r.t);
}

/* Helper lanes and derivatives: the PS turns on whole quads (s_wqm_b64),
 * computes ddx(gl_FragCoord.x) with quad permutes (exactly 1 everywhere, also
 * in quads with a single covered pixel) and discards pixels with odd x.  A
 * triangle covering only some pixels of a quad writes 1.0 exactly on its
 * covered even-x pixels. */
static void test_helpers_derivatives_discard(void)
{
	static const char *ps =
		"s_mov_b64 s[4:5], exec\n"
		"s_wqm_b64 exec, exec\n"
		"v_add_f32 v8, v0, 0\n"          /* computed by helpers too */
		"v_mov_b32_qperm v1, v8, 1, 1, 3, 3\n"
		"v_mov_b32_qperm v2, v8, 0, 0, 2, 2\n"
		"v_sub_f32 v3, v1, v2\n"          /* ddx(x) */
		"v_mov_b32 v4, 0\n"
		"v_mov_b32 v5, 0\n"
		"v_mov_b32 v6, 1.0\n"
		"s_and_b64 exec, exec, s[4:5]\n"  /* back to the live lanes */
		"v_cvt_i32_f32 v7, v0\n"
		"v_and_b32 v7, 1, v7\n"
		"v_cmp_eq_i32 exec, 0, v7\n"      /* discard odd x */
		"exp mrt0, v[3:6] done vm\n"
		"s_endpgm\n";
	struct rt r;
	/* lower-left triangle of [0,5)^2: pixel centres with x + y <= 3 */
	struct vtx v[3] = { wv(0, 0, 0, 1, 0, 0, 0, 1), wv(5, 0, 0, 1, 0, 0, 0, 1), wv(0, 5, 0, 1, 0, 0, 0, 1) };
	rt_init(&r, W, H, V_COLOR_32_32_32_32, V_NUMBER_FLOAT, 16, 1, ps, SPI_PS_INPUT_ENA_POS_X_FLOAT_ENA(1));
	pm4_set_context_reg(&r.t.cs, REG_DB_SHADER_CONTROL, DB_SHADER_CONTROL_Z_ORDER(V_EARLY_Z_THEN_LATE_Z) |
			    DB_SHADER_CONTROL_KILL_ENABLE(1));
	for (unsigned i = 0; i < W * H * 4; i++)
		((float *)gm_bo_map(r.cb))[i] = 0.5f;      /* what no pixel may overwrite */
	draw(&r, V_DI_PT_TRILIST, v, 3);
	submit_clean(&r);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			const float *p = (const float *)gm_bo_map(r.cb) + (y * W + x) * 4;
			bool written = x + y <= 3 && !(x & 1);
			CHECK(p[0] == (written ? 1.0f : 0.5f));
			CHECK(p[3] == (written ? 1.0f : 0.5f));
		}
	tgpu_fini(&r.t);
}

/* 4x MSAA: a triangle whose right edge is the vertical x = 2.5 covers, in
 * column 2, exactly the samples left of it: radeonsi's 4x positions have x
 * offsets -2, 6, -6, 2 sixteenths, so samples 0 and 2 (x 2.375, 2.125). */
static void test_msaa_4x_edge_samples(void)
{
	struct rt r;
	struct vtx v[3] = { wv(-8, -8, 0, 1, 1, 1, 1, 1), wv(2.5f, -8, 0, 1, 1, 1, 1, 1), wv(2.5f, 24, 0, 1, 1, 1, 1, 1) };
	/* the triangle's left side: from (-8,-8) to (2.5,24) */
	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 4, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	draw(&r, V_DI_PT_TRILIST, v, 3);
	submit_clean(&r);
	{
		/* row 0, column 2: inside the triangle's left side too (x > -8 +
		 * 10.5 * (y + 8) / 32 = -5.1 at y = 0.5) */
		const uint8_t *p = px8(&r, 2, 0);
		CHECK_EQ_INT(p[0 * 4], 255);
		CHECK_EQ_INT(p[1 * 4], 0);
		CHECK_EQ_INT(p[2 * 4], 255);
		CHECK_EQ_INT(p[3 * 4], 0);
		p = px8(&r, 1, 0);   /* fully inside */
		CHECK_EQ_INT(p[0] & p[4] & p[8] & p[12], 255);
		p = px8(&r, 3, 0);   /* fully outside */
		CHECK_EQ_INT(p[0] | p[4] | p[8] | p[12], 0);
	}
	tgpu_fini(&r.t);
}

/* Points and lines as GL rasterizes them: a point of size 2 at window
 * (3, 3) covers the pixels whose centres lie in [2, 4)^2; a width-1
 * horizontal line from (0.5, 2.5) to (6.5, 2.5) is the rectangle
 * [0.5, 6.5) x [2, 3): pixel centres x + .5 in it, row 2, x = 0..5. */
static void test_point_and_line(void)
{
	struct rt r;
	struct vtx p[1] = { wv(3, 3, 0, 1, 1, 1, 1, 1) };
	struct vtx l[2] = { wv(0.5f, 2.5f, 0, 1, 1, 1, 1, 1), wv(6.5f, 2.5f, 0, 1, 1, 1, 1, 1) };

	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	pm4_set_context_reg(&r.t.cs, REG_PA_SU_POINT_SIZE, PA_SU_POINT_SIZE_WIDTH(16) | PA_SU_POINT_SIZE_HEIGHT(16));
	pm4_set_context_reg(&r.t.cs, REG_PA_SU_POINT_MINMAX, PA_SU_POINT_MINMAX_MAX_SIZE(0xFFFF));
	draw(&r, V_DI_PT_POINTLIST, p, 1);
	submit_clean(&r);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++)
			CHECK_EQ_INT(px8(&r, x, y)[0], (x == 2 || x == 3) && (y == 2 || y == 3) ? 255 : 0);
	tgpu_fini(&r.t);

	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	pm4_set_context_reg(&r.t.cs, REG_PA_SU_LINE_CNTL, PA_SU_LINE_CNTL_WIDTH(8));
	draw(&r, V_DI_PT_LINELIST, l, 2);
	submit_clean(&r);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++)
			CHECK_EQ_INT(px8(&r, x, y)[0], y == 2 && x <= 5 ? 255 : 0);
	tgpu_fini(&r.t);
}

/* Facing and culling: a counter-clockwise triangle (GL's front with
 * PA_SU_SC_MODE_CNTL.FACE = 0) on the left and a clockwise one on the
 * right.  The PS writes the FRONT_FACE input (1.0 front, 0.0 back); with
 * CULL_BACK only the left one is drawn. */
static void test_facing_and_culling(void)
{
	static const char *ps =
		"v_mov_b32 v1, 0\n"
		"v_mov_b32 v2, 0\n"
		"v_mov_b32 v3, 1.0\n"
		"exp mrt0, v[0:3] done vm\n"
		"s_endpgm\n";
	struct vtx v[6] = {
		wv(0, 0, 0, 1, 0, 0, 0, 1), wv(4, 0, 0, 1, 0, 0, 0, 1), wv(0, 8, 0, 1, 0, 0, 0, 1),   /* CCW */
		wv(4, 0, 0, 1, 0, 0, 0, 1), wv(4, 8, 0, 1, 0, 0, 0, 1), wv(8, 0, 0, 1, 0, 0, 0, 1),   /* CW */
	};
	for (unsigned cull = 0; cull < 2; cull++) {
		struct rt r;
		rt_init(&r, W, H, V_COLOR_32_32_32_32, V_NUMBER_FLOAT, 16, 1, ps, SPI_PS_INPUT_ENA_FRONT_FACE_ENA(1));
		pm4_set_context_reg(&r.t.cs, REG_PA_SU_SC_MODE_CNTL, PA_SU_SC_MODE_CNTL_CULL_BACK(cull));
		draw(&r, V_DI_PT_TRILIST, v, 6);
		submit_clean(&r);
		{
			const float *l = (const float *)gm_bo_map(r.cb) + (1 * W + 0) * 4;   /* (0, 1): left tri */
			const float *rr = (const float *)gm_bo_map(r.cb) + (1 * W + 5) * 4;  /* (5, 1): right tri */
			CHECK(l[0] == 1.0f && l[3] == 1.0f);
			CHECK(rr[0] == 0.0f);
			CHECK(rr[3] == (cull ? 0.0f : 1.0f));
		}
		tgpu_fini(&r.t);
	}
}

/* Flat shading: SPI_PS_INPUT_CNTL_0.FLAT_SHADE with v_interp_mov_f32 p0
 * reads the provoking vertex's value: the first vertex's (0.125) by default,
 * the last's (0.375) with PROVOKING_VTX_LAST (GL's glProvokingVertex). */
static void test_flat_shading_provoking_vertex(void)
{
	static const char *ps =
		"v_interp_mov_f32 v2, p0, attr0.x\n"
		"v_interp_mov_f32 v3, p0, attr0.y\n"
		"v_interp_mov_f32 v4, p0, attr0.z\n"
		"v_interp_mov_f32 v5, p0, attr0.w\n"
		"exp mrt0, v[2:5] done vm\n"
		"s_endpgm\n";
	struct vtx v[3] = { wv(-8, -8, 0, 1, 0.125f, 0, 0, 1), wv(24, -8, 0, 1, 0.25f, 0, 0, 1),
			    wv(-8, 24, 0, 1, 0.375f, 0, 0, 1) };
	for (unsigned last = 0; last < 2; last++) {
		struct rt r;
		rt_init(&r, W, H, V_COLOR_32_32_32_32, V_NUMBER_FLOAT, 16, 1, ps, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
		pm4_set_context_reg(&r.t.cs, REG_SPI_PS_INPUT_CNTL_0, SPI_PS_INPUT_CNTL_OFFSET(0) | SPI_PS_INPUT_CNTL_FLAT_SHADE(1));
		pm4_set_context_reg(&r.t.cs, REG_PA_SU_SC_MODE_CNTL, PA_SU_SC_MODE_CNTL_PROVOKING_VTX_LAST(last));
		draw(&r, V_DI_PT_TRILIST, v, 3);
		submit_clean(&r);
		for (unsigned i = 0; i < W * H; i++)
			CHECK(((const float *)gm_bo_map(r.cb))[4 * i] == (last ? 0.375f : 0.125f));
		tgpu_fini(&r.t);
	}
}

/* Clipping by a user plane (PA_CL_UCP_0 = (1, 0, 0, 0): x_clip >= 0, the
 * right half of the window) keeps the attributes continuous: red still is
 * the window x / 8 at each centre; the left half stays empty.  A scissor
 * (PA_SC_VPORT_SCISSOR_0 [5, 7) x [1, 6)) then cuts the rest. */
static void test_user_plane_clip_and_scissor(void)
{
	struct vtx v[3] = { wv(0, 0, 0, 1, 0, 0, 0, 1), wv(16, 0, 0, 1, 2, 0, 0, 1), wv(0, 16, 0, 1, 0, 0, 0, 1) };
	for (unsigned sc = 0; sc < 2; sc++) {
		struct rt r;
		rt_init(&r, W, H, V_COLOR_32_32_32_32, V_NUMBER_FLOAT, 16, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
		pm4_set_context_reg(&r.t.cs, REG_PA_CL_CLIP_CNTL, PA_CL_CLIP_CNTL_UCP_ENA_0(1));
		set_f(&r, REG_PA_CL_UCP_0_X, 1.0f);
		if (sc) {
			pm4_set_context_reg(&r.t.cs, REG_PA_SC_MODE_CNTL_0, PA_SC_MODE_CNTL_0_VPORT_SCISSOR_ENABLE(1));
			pm4_set_context_reg(&r.t.cs, REG_PA_SC_VPORT_SCISSOR_0_TL, PA_SC_VPORT_SCISSOR_TL_TL_X(5) |
					    PA_SC_VPORT_SCISSOR_TL_TL_Y(1) | PA_SC_VPORT_SCISSOR_TL_WINDOW_OFFSET_DISABLE(1));
			pm4_set_context_reg(&r.t.cs, REG_PA_SC_VPORT_SCISSOR_0_BR, PA_SC_VPORT_SCISSOR_BR_BR_X(7) |
					    PA_SC_VPORT_SCISSOR_BR_BR_Y(6));
		}
		draw(&r, V_DI_PT_TRILIST, v, 3);
		submit_clean(&r);
		for (unsigned y = 0; y < H; y++)
			for (unsigned x = 0; x < W; x++) {
				const float *p = (const float *)gm_bo_map(r.cb) + (y * W + x) * 4;
				bool in = x >= 4 && (!sc || (x >= 5 && x < 7 && y >= 1 && y < 6));
				CHECK(p[3] == (in ? 1.0f : 0.0f));
				if (in)
					CHECK(fabs(p[0] - (x + 0.5) / 8) < 1e-6);
			}
		tgpu_fini(&r.t);
	}
}

/* Stencil: a left-half quad with ALWAYS / REPLACE (ref 1) marks the
 * stencil buffer without colour (CB_TARGET_MASK 0); a full quad with EQUAL
 * ref 1, KEEP everywhere, then draws only where the mark is. */
static void test_stencil_mask(void)
{
	struct rt r;
	struct gm_bo *sb;
	struct pm4_cs *cs;
	struct vtx q[12];
	struct vtx a[6] = { wv(0, 0, 0, 1, 1, 1, 1, 1), wv(8, 0, 0, 1, 1, 1, 1, 1), wv(8, 8, 0, 1, 1, 1, 1, 1),
			    wv(0, 0, 0, 1, 1, 1, 1, 1), wv(8, 8, 0, 1, 1, 1, 1, 1), wv(0, 8, 0, 1, 1, 1, 1, 1) };
	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	cs = &r.t.cs;
	sb = tgpu_bo(&r.t, W * H);
	for (unsigned i = 0; i < 6; i++) {
		q[i] = a[i];
		q[i].p[0] = a[i].p[0] > 0 ? 0 : -1;      /* left half */
		q[6 + i] = a[i];
	}
	pm4_set_context_reg(cs, REG_DB_DEPTH_INFO, DB_DEPTH_INFO_ARRAY_MODE(V_ARRAY_LINEAR_ALIGNED));
	pm4_set_context_reg(cs, REG_DB_STENCIL_INFO, DB_STENCIL_INFO_FORMAT(V_STENCIL_8));
	pm4_set_context_reg(cs, REG_DB_STENCIL_READ_BASE, (uint32_t)(gm_bo_va(sb) >> 8));
	pm4_set_context_reg(cs, REG_DB_STENCIL_WRITE_BASE, (uint32_t)(gm_bo_va(sb) >> 8));
	pm4_set_context_reg(cs, REG_DB_DEPTH_SIZE, DB_DEPTH_SIZE_PITCH_TILE_MAX(W / 8 - 1) | DB_DEPTH_SIZE_HEIGHT_TILE_MAX(H / 8 - 1));
	pm4_set_context_reg(cs, REG_DB_STENCILREFMASK, DB_STENCILREFMASK_STENCILTESTVAL(1) |
			    DB_STENCILREFMASK_STENCILMASK(0xFF) | DB_STENCILREFMASK_STENCILWRITEMASK(0xFF) |
			    DB_STENCILREFMASK_STENCILOPVAL(1));
	memcpy(gm_bo_map(r.vb), q, sizeof q);
	/* pass 1 */
	pm4_set_context_reg(cs, REG_CB_TARGET_MASK, 0);
	pm4_set_context_reg(cs, REG_DB_DEPTH_CONTROL, DB_DEPTH_CONTROL_STENCIL_ENABLE(1) |
			    DB_DEPTH_CONTROL_STENCILFUNC(V_FRAG_ALWAYS));
	pm4_set_context_reg(cs, REG_DB_STENCIL_CONTROL, DB_STENCIL_CONTROL_STENCILZPASS(V_STENCIL_REPLACE_TEST));
	tgpu_draw_auto(&r.t, V_DI_PT_TRILIST, 6, 1);
	/* pass 2: vertices 6..11 through the VS's index (vertex id) */
	pm4_set_context_reg(cs, REG_CB_TARGET_MASK, 0xF);
	pm4_set_context_reg(cs, REG_DB_DEPTH_CONTROL, DB_DEPTH_CONTROL_STENCIL_ENABLE(1) |
			    DB_DEPTH_CONTROL_STENCILFUNC(V_FRAG_EQUAL));
	pm4_set_context_reg(cs, REG_DB_STENCIL_CONTROL, 0);
	pm4_set_context_reg(cs, REG_VGT_INDX_OFFSET, 6);
	tgpu_draw_auto(&r.t, V_DI_PT_TRILIST, 6, 1);
	submit_clean(&r);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			CHECK_EQ_INT(((const uint8_t *)gm_bo_map(sb))[y * W + x], x < 4 ? 1 : 0);
			CHECK_EQ_INT(px8(&r, x, y)[0], x < 4 ? 255 : 0);
		}
	tgpu_fini(&r.t);
}

/* Formats and exports: linear 0.5 to an sRGB target is the sRGB encoding
 * 1.055 * 0.5^(1/2.4) - 0.055 = 0.7354 -> 187.5 -> 188 (alpha stays linear:
 * 128); FP16 exports (v_cvt_pkrtz_f16_f32) into a 16_16_16_16 FLOAT target
 * store the halves (0.1 -> 0x2E66, 1.0 -> 0x3C00); the XOR logic op
 * (ROP3 0x66) of 1.0 (0xFF) with 0x0F is 0xF0. */
static void test_formats_and_logic_op(void)
{
	static const char *ps_fp16 =
		"v_interp_p1_f32 v2, v0, attr0.x\n"
		"v_interp_p2_f32 v2, v1, attr0.x\n"
		"v_interp_p1_f32 v3, v0, attr0.w\n"
		"v_interp_p2_f32 v3, v1, attr0.w\n"
		"v_cvt_pkrtz_f16_f32 v4, v2, v2\n"     /* x, y */
		"v_cvt_pkrtz_f16_f32 v5, v3, v3\n"     /* z, w */
		"exp mrt0, v[4:7] done vm\n"
		"s_endpgm\n";
	struct vtx v[3] = { wv(-8, -8, 0, 1, 0.5f, 0.5f, 0.5f, 0.5f), wv(24, -8, 0, 1, 0.5f, 0.5f, 0.5f, 0.5f),
			    wv(-8, 24, 0, 1, 0.5f, 0.5f, 0.5f, 0.5f) };
	struct vtx v2[3];
	struct rt r;

	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_SRGB, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	draw(&r, V_DI_PT_TRILIST, v, 3);
	submit_clean(&r);
	CHECK_EQ_INT(px8(&r, 2, 3)[0], 188);
	CHECK_EQ_INT(px8(&r, 2, 3)[3], 128);
	tgpu_fini(&r.t);

	for (unsigned i = 0; i < 3; i++) {
		v2[i] = v[i];
		v2[i].c[0] = 0.1f;
		v2[i].c[3] = 1.0f;
	}
	rt_init(&r, W, H, V_COLOR_16_16_16_16, V_NUMBER_FLOAT, 8, 1, ps_fp16, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	pm4_set_context_reg(&r.t.cs, REG_SPI_SHADER_COL_FORMAT, SPI_SHADER_COL_FORMAT_COL0_EXPORT_FORMAT(V_SPI_SHADER_FP16_ABGR));
	draw(&r, V_DI_PT_TRILIST, v2, 3);
	submit_clean(&r);
	{
		const uint16_t *h = (const uint16_t *)gm_bo_map(r.cb) + (3 * W + 2) * 4;
		CHECK_EQ_INT(h[0], 0x2E66);
		CHECK_EQ_INT(h[1], 0x2E66);
		CHECK_EQ_INT(h[3], 0x3C00);
	}
	tgpu_fini(&r.t);

	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	for (unsigned i = 0; i < W * H; i++)
		((uint32_t *)gm_bo_map(r.cb))[i] = 0x0F0F0F0Fu;
	pm4_set_context_reg(&r.t.cs, REG_CB_COLOR_CONTROL, CB_COLOR_CONTROL_MODE(V_CB_NORMAL) | CB_COLOR_CONTROL_ROP3(0x66));
	for (unsigned i = 0; i < 3; i++)
		v2[i].c[0] = 1.0f, v2[i].c[1] = 0.0f;
	draw(&r, V_DI_PT_TRILIST, v2, 3);
	submit_clean(&r);
	CHECK_EQ_INT(px8(&r, 2, 3)[0], 0xF0);
	CHECK_EQ_INT(px8(&r, 2, 3)[1], 0x0F);
	tgpu_fini(&r.t);
}

/* Hostile input: NaN, infinite and huge positions draw nothing and fault
 * nothing; an unmapped render target, a PS reading an input beyond
 * NUM_INTERP and a tiled surface are faults that name the cause, and the
 * GPU keeps working afterwards. */
static unsigned faults_with(const char *ps, unsigned what, const char *needle)
{
	struct rt r;
	unsigned n, found = 0;
	uint64_t before;
	struct vtx v[3] = { wv(0, 0, 0, 1, 1, 1, 1, 1), wv(8, 0, 0, 1, 1, 1, 1, 1), wv(0, 8, 0, 1, 1, 1, 1, 1) };

	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	if (what == 1)
		pm4_set_context_reg(&r.t.cs, REG_CB_COLOR0_BASE, 0x7FFFFF00u);
	if (what == 2)
		pm4_set_context_reg(&r.t.cs, REG_CB_COLOR0_ATTRIB, CB_COLOR_ATTRIB_TILE_MODE_INDEX(14));
	if (what == 3) {
		v[0].p[0] = NAN;
		v[1].p[3] = INFINITY;
		v[2].p[1] = 1e30f;
	}
	draw(&r, V_DI_PT_TRILIST, v, 3);
	before = gm_fault_count(r.t.gm);
	tgpu_submit(&r.t);
	n = (unsigned)(gm_fault_count(r.t.gm) - before);
	for (uint64_t i = before; i < gm_fault_count(r.t.gm); i++) {
		const struct gm_fault *f = gm_fault_get(r.t.gm, i);
		if (f && needle && strstr(f->reason, needle))
			found++;
	}
	CHECK(!needle || found);
	tgpu_fini(&r.t);
	return n;
}

static void test_hostile_input_faults_not_crashes(void)
{
	static const char *ps_attr5 =
		"v_interp_p1_f32 v2, v0, attr5.x\n"
		"exp mrt0, v[2:5] done vm\n"
		"s_endpgm\n";
	CHECK_EQ_INT(faults_with(ps_smooth, 3, NULL), 0);
	CHECK(faults_with(ps_smooth, 1, "render target 0") >= 1);
	CHECK(faults_with(ps_smooth, 2, "TILE_MODE_INDEX") >= 1);
	CHECK(faults_with(ps_attr5, 0, "NUM_INTERP") >= 1);
}

/* Point sprites as radeonsi sets them (SPI_INTERP_CONTROL_0: PNT_SPRITE_ENA,
 * OVRD x = S, y = T, z = 0, w = 1; PT_SPRITE_TEX on the input): a point of
 * size 4 at window (4, 4) covers [2, 6)^2; at pixel centre (x + .5, y + .5)
 * s = (x + .5 - 2) / 4 and t = (y + .5 - 2) / 4 (t = 0 on the row of
 * smallest y, PNT_SPRITE_TOP_1 off). */
static void test_point_sprite(void)
{
	struct rt r;
	struct vtx p[1] = { wv(4, 4, 0, 1, 0.5f, 0.5f, 0.5f, 0.5f) };
	rt_init(&r, W, H, V_COLOR_32_32_32_32, V_NUMBER_FLOAT, 16, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	pm4_set_context_reg(&r.t.cs, REG_PA_SU_POINT_SIZE, PA_SU_POINT_SIZE_WIDTH(32) | PA_SU_POINT_SIZE_HEIGHT(32));
	pm4_set_context_reg(&r.t.cs, REG_PA_SU_POINT_MINMAX, PA_SU_POINT_MINMAX_MAX_SIZE(0xFFFF));
	pm4_set_context_reg(&r.t.cs, REG_SPI_INTERP_CONTROL_0, SPI_INTERP_CONTROL_0_PNT_SPRITE_ENA(1) |
			    SPI_INTERP_CONTROL_0_PNT_SPRITE_OVRD_X(2) | SPI_INTERP_CONTROL_0_PNT_SPRITE_OVRD_Y(3) |
			    SPI_INTERP_CONTROL_0_PNT_SPRITE_OVRD_Z(0) | SPI_INTERP_CONTROL_0_PNT_SPRITE_OVRD_W(1));
	pm4_set_context_reg(&r.t.cs, REG_SPI_PS_INPUT_CNTL_0, SPI_PS_INPUT_CNTL_OFFSET(0) | SPI_PS_INPUT_CNTL_PT_SPRITE_TEX(1));
	draw(&r, V_DI_PT_POINTLIST, p, 1);
	submit_clean(&r);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			const float *c = (const float *)gm_bo_map(r.cb) + (y * W + x) * 4;
			bool in = x >= 2 && x < 6 && y >= 2 && y < 6;
			CHECK(c[3] == (in ? 1.0f : 0.0f));
			if (in) {
				CHECK(fabs(c[0] - (x + 0.5 - 2) / 4) < 1e-6);
				CHECK(fabs(c[1] - (y + 0.5 - 2) / 4) < 1e-6);
				CHECK(c[2] == 0.0f);
			}
		}
	tgpu_fini(&r.t);
}

/* The VS's position exports after pos0 (docs/isa.md "Pixel shaders";
 * radeonsi's packing): the VS below exports the vertex's second vector c
 * as pos1 and pos2; PA_CL_VS_OUT_CNTL says what they are.  Point size
 * (USE_VTX_POINT_SIZE, the misc vector's x): a point of size 3 at window
 * (4.5, 4.5) covers [3, 6)^2, 9 pixels, against 1 of the register's size
 * 1.  Clip distances (CLIP_DIST_ENA_n, in the next vector: pos2 after the
 * misc vector, pos1 without it): a triangle covering the window whose
 * distance 1 is window x - 4 keeps x >= 4 (GL 4.6 §13.7, the distance
 * interpolated linearly), as a cull distance (CULL_DIST_ENA_n) it is
 * whole (not every vertex negative); a point with a negative distance 1
 * is culled by CULL_DIST_ENA_1 and, by radeonsi's account of the PA, not
 * clipped by CLIP_DIST_ENA_1 (docs/pixel-pipeline.md).  A user plane
 * (UCP_ENA_1, PA_CL_UCP_1 = 0) is the position's, not the distance. */
static void test_vs_point_size_and_clip_distances(void)
{
	static const char *vs =
		"buffer_load_dwordx4 v[4:7], v0, s[0:3], 0 idxen\n"
		"buffer_load_dwordx4 v[8:11], v0, s[0:3], 0 offset:16 idxen\n"
		"exp pos0, v[4:7]\n"
		"exp pos1, v[8:11]\n"
		"exp pos2, v[8:11] done\n"
		"exp param0, v[8:11]\n"
		"s_endpgm\n";
	const uint32_t misc = PA_CL_VS_OUT_CNTL_VS_OUT_MISC_VEC_ENA(1), cc0 = PA_CL_VS_OUT_CNTL_VS_OUT_CCDIST0_VEC_ENA(1);
	const struct {
		unsigned prim;
		uint32_t vs_out, clip_cntl;
		int pixels;
	} cases[] = {
		{ V_DI_PT_POINTLIST, misc | PA_CL_VS_OUT_CNTL_USE_VTX_POINT_SIZE(1), 0, 9 },
		{ V_DI_PT_POINTLIST, misc, 0, 1 },
		{ V_DI_PT_POINTLIST, misc | cc0 | PA_CL_VS_OUT_CNTL_USE_VTX_POINT_SIZE(1) |
					     PA_CL_VS_OUT_CNTL_CULL_DIST_ENA_1(1), 0, 0 },
		{ V_DI_PT_POINTLIST, misc | cc0 | PA_CL_VS_OUT_CNTL_USE_VTX_POINT_SIZE(1) |
					     PA_CL_VS_OUT_CNTL_CLIP_DIST_ENA_1(1), 0, 9 },
		{ V_DI_PT_TRILIST, cc0 | PA_CL_VS_OUT_CNTL_CLIP_DIST_ENA_1(1), 0, 4 * 8 },
		{ V_DI_PT_TRILIST, misc | cc0 | PA_CL_VS_OUT_CNTL_CLIP_DIST_ENA_1(1), 0, 4 * 8 },
		{ V_DI_PT_TRILIST, cc0 | PA_CL_VS_OUT_CNTL_CULL_DIST_ENA_1(1), 0, 64 },
		{ V_DI_PT_TRILIST, cc0, PA_CL_CLIP_CNTL_UCP_ENA_1(1), 64 },
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct rt r;
		uint32_t desc[4];
		struct vtx v[3];
		bool tri = cases[i].prim == V_DI_PT_TRILIST;
		int pixels = 0;

		rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
		tgpu_desc(desc, gm_bo_va(r.vb), sizeof(struct vtx), RT_MAX_VERTICES, V_BUF_DATA_FORMAT_32,
			  V_BUF_NUM_FORMAT_UINT);
		tgpu_vs(&r.t, tgpu_shader(&r.t, vs), 4, desc, 0);
		pm4_set_context_reg(&r.t.cs, REG_SPI_SHADER_POS_FORMAT, V_SPI_SHADER_4COMP * 0x111u);
		pm4_set_context_reg(&r.t.cs, REG_PA_SU_POINT_SIZE, PA_SU_POINT_SIZE_WIDTH(8) | PA_SU_POINT_SIZE_HEIGHT(8));
		pm4_set_context_reg(&r.t.cs, REG_PA_SU_POINT_MINMAX, PA_SU_POINT_MINMAX_MAX_SIZE(0xFFFF));
		pm4_set_context_reg(&r.t.cs, REG_PA_CL_VS_OUT_CNTL, cases[i].vs_out);
		pm4_set_context_reg(&r.t.cs, REG_PA_CL_CLIP_CNTL, cases[i].clip_cntl);
		if (tri) {
			/* c = (size, x - 4, 0, 1) */
			v[0] = wv(0, 0, 0, 1, 1, -4, 0, 1);
			v[1] = wv(16, 0, 0, 1, 1, 12, 0, 1);
			v[2] = wv(0, 16, 0, 1, 1, -4, 0, 1);
		} else {
			v[0] = wv(4.5f, 4.5f, 0, 1, 3, -1, 0, 1);
		}
		draw(&r, cases[i].prim, v, tri ? 3 : 1);
		submit_clean(&r);
		for (unsigned y = 0; y < H; y++)
			for (unsigned x = 0; x < W; x++) {
				bool in = px8(&r, x, y)[3] == 255;
				pixels += in;
				if (in && pixels <= cases[i].pixels)
					CHECK(tri ? x >= 4 || cases[i].pixels == 64 : x >= 3 && x < 6 && y >= 3 && y < 6);
			}
		if (pixels != cases[i].pixels)
			fprintf(stderr, "case %u: %d pixels\n", i, pixels);
		CHECK_EQ_INT(pixels, cases[i].pixels);
		tgpu_fini(&r.t);
	}
}

/* The discard band of points (PA_CL_GB_HORZ_DISC_ADJ): a point of size 3
 * centred at window (8.5, 4.5), right of the 8-pixel window, reaches
 * column 7; with DISC_ADJ 1 (GL: a point outside the view volume is
 * discarded, GL 4.6 §13.7) nothing is drawn, with 1 + 1.5 / 4 (half the
 * size over the viewport's x scale, GLES's) column 7 of rows 3..5. */
static void test_point_discard_band(void)
{
	for (unsigned wide = 0; wide < 2; wide++) {
		struct rt r;
		struct vtx v[1] = { wv(8.5f, 4.5f, 0, 1, 1, 1, 1, 1) };
		int pixels = 0;

		rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
		pm4_set_context_reg(&r.t.cs, REG_PA_SU_POINT_SIZE, PA_SU_POINT_SIZE_WIDTH(24) | PA_SU_POINT_SIZE_HEIGHT(24));
		pm4_set_context_reg(&r.t.cs, REG_PA_SU_POINT_MINMAX, PA_SU_POINT_MINMAX_MAX_SIZE(0xFFFF));
		set_f(&r, REG_PA_CL_GB_HORZ_DISC_ADJ, wide ? 1.0f + 1.5f / (W / 2.0f) : 1.0f);
		set_f(&r, REG_PA_CL_GB_VERT_DISC_ADJ, 1.0f);
		draw(&r, V_DI_PT_POINTLIST, v, 1);
		submit_clean(&r);
		for (unsigned y = 0; y < H; y++)
			for (unsigned x = 0; x < W; x++) {
				bool in = px8(&r, x, y)[3] == 255;
				pixels += in;
				if (in)
					CHECK(x == 7 && y >= 3 && y < 6);
			}
		CHECK_EQ_INT(pixels, wide ? 3 : 0);
		tgpu_fini(&r.t);
	}
}

/* With a geometry shader the copy shader's exports of the rasterized
 * stream reach the PA: one input point, a GS emitting one triangle that
 * covers the window ((-1,-1) (3,-1) (-1,3) in clip space) in red; every
 * pixel is red. */
static void test_gs_copy_shader_rasterizes(void)
{
	struct rt r;
	struct pm4_cs *cs;
	struct gm_bo *ring, *table;
	uint32_t desc[8], user[2];
	uint64_t es, gs, vs;
	struct vtx v[1] = { wv(0, 0, 0, 1, 0, 0, 0, 0) };

	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	cs = &r.t.cs;
	ring = tgpu_bo(&r.t, 8192);
	table = tgpu_bo(&r.t, 256);
	tgpu_desc(desc + 0, gm_bo_va(ring), 0, 4096, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	tgpu_desc(desc + 4, gm_bo_va(ring) + 4096, 0, 4096, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	memcpy(gm_bo_map(table), desc, sizeof desc);
	user[0] = (uint32_t)gm_bo_va(table);
	user[1] = (uint32_t)(gm_bo_va(table) >> 32);
	es = tgpu_shader(&r.t, "s_endpgm\n");
	gs = tgpu_shader(&r.t,
		"s_load_dwordx4 s[12:15], s[0:1], 16\n"
		"v_laneid_u32 v11\n"
		"v_mul_lo_u32 v11, v11, 96\n"
		"v_add_u32 v11, v11, s2\n"
		"v_mov_b32 v22, 0\n"
		"v_mov_b32 v23, 1.0\n"
		"v_mov_b32 v24, 1.0\n"
		"v_mov_b32 v25, 0\n"
		"v_mov_b32 v26, 0\n"
		"v_mov_b32 v27, 1.0\n"
		"v_mov_b32 v20, -1.0\n"
		"v_mov_b32 v21, -1.0\n"
		"buffer_store_dwordx4 v[20:23], v11, s[12:15], 0 offen\n"
		"buffer_store_dwordx4 v[24:27], v11, s[12:15], 0 offset:16 offen\n"
		"s_sendmsg gs_emit stream 0\n"
		"v_mov_b32 v20, 3.0\n"
		"buffer_store_dwordx4 v[20:23], v11, s[12:15], 0 offset:32 offen\n"
		"buffer_store_dwordx4 v[24:27], v11, s[12:15], 0 offset:48 offen\n"
		"s_sendmsg gs_emit stream 0\n"
		"v_mov_b32 v20, -1.0\n"
		"v_mov_b32 v21, 3.0\n"
		"buffer_store_dwordx4 v[20:23], v11, s[12:15], 0 offset:64 offen\n"
		"buffer_store_dwordx4 v[24:27], v11, s[12:15], 0 offset:80 offen\n"
		"s_sendmsg gs_emit stream 0\n"
		"s_sendmsg gs_done\n"
		"s_endpgm\n");
	vs = tgpu_shader(&r.t,
		"s_load_dwordx4 s[12:15], s[0:1], 16\n"
		"buffer_load_dwordx4 v[4:7], v0, s[12:15], 0 offen\n"
		"buffer_load_dwordx4 v[8:11], v0, s[12:15], 0 offset:16 offen\n"
		"exp pos0, v[4:7] done\n"
		"exp param0, v[8:11]\n"
		"s_endpgm\n");
	tgpu_vs(&r.t, vs, 2, user, 0);
	pm4_set_sh_reg(cs, REG_SPI_SHADER_PGM_LO_ES, (uint32_t)(es >> 8));
	pm4_set_sh_reg(cs, REG_SPI_SHADER_PGM_HI_ES, (uint32_t)(es >> 40));
	pm4_set_sh_reg(cs, REG_SPI_SHADER_PGM_RSRC1_ES, SPI_SHADER_PGM_RSRC1_ES_VGPRS(3) | SPI_SHADER_PGM_RSRC1_ES_SGPRS(1));
	pm4_set_sh_reg(cs, REG_SPI_SHADER_PGM_RSRC2_ES, 0);
	pm4_set_sh_reg(cs, REG_SPI_SHADER_PGM_LO_GS, (uint32_t)(gs >> 8));
	pm4_set_sh_reg(cs, REG_SPI_SHADER_PGM_HI_GS, (uint32_t)(gs >> 40));
	pm4_set_sh_reg(cs, REG_SPI_SHADER_PGM_RSRC1_GS, SPI_SHADER_PGM_RSRC1_GS_VGPRS(7) | SPI_SHADER_PGM_RSRC1_GS_SGPRS(1));
	pm4_set_sh_reg(cs, REG_SPI_SHADER_PGM_RSRC2_GS, SPI_SHADER_PGM_RSRC2_GS_USER_SGPR(2));
	pm4_set_sh_reg(cs, REG_SPI_SHADER_USER_DATA_GS_0, user[0]);
	pm4_set_sh_reg(cs, REG_SPI_SHADER_USER_DATA_GS_0 + 4, user[1]);
	pm4_set_context_reg(cs, REG_VGT_SHADER_STAGES_EN,
			    VGT_SHADER_STAGES_EN_ES_EN(V_ES_STAGE_REAL) | VGT_SHADER_STAGES_EN_GS_EN(1) |
			    VGT_SHADER_STAGES_EN_VS_EN(V_VS_STAGE_COPY_SHADER));
	pm4_set_context_reg(cs, REG_VGT_GS_MODE, VGT_GS_MODE_MODE(V_GS_SCENARIO_G));
	pm4_set_context_reg(cs, REG_VGT_GS_MAX_VERT_OUT, 3);
	pm4_set_context_reg(cs, REG_VGT_ESGS_RING_ITEMSIZE, 1);
	pm4_set_context_reg(cs, REG_VGT_GSVS_RING_ITEMSIZE, 24);
	pm4_set_context_reg(cs, REG_VGT_GS_VERT_ITEMSIZE, 8);
	pm4_set_context_reg(cs, REG_VGT_GS_OUT_PRIM_TYPE, VGT_GS_OUT_PRIM_TYPE_OUTPRIM_TYPE(V_TRISTRIP));
	pm4_set_uconfig_reg(cs, REG_VGT_ESGS_RING_SIZE, 4096 / 256);
	pm4_set_uconfig_reg(cs, REG_VGT_GSVS_RING_SIZE, 4096 / 256);
	draw(&r, V_DI_PT_POINTLIST, v, 1);
	submit_clean(&r);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			CHECK_EQ_INT(px8(&r, x, y)[0], 255);
			CHECK_EQ_INT(px8(&r, x, y)[1], 0);
		}
	tgpu_fini(&r.t);
}

/* Images: an 8x8 RGBA8 texture with texel (x, y) = (16x, 16y, 7, 255).
 * texelFetch (image_load) at the pixel's integer position copies it;
 * image_sample with bilinear filtering at u = x / 8 (a texel edge), v at
 * texel centres averages texels x - 1 and x: red (16(x-1) + 16x) / 2, with
 * GL_REPEAT texel -1 is texel 7 (red 56 at x = 0), with GL_CLAMP_TO_EDGE
 * texel 0 (red 0). */
static void image_run(bool sample, unsigned clamp, uint8_t out[W * H][4])
{
	static const char *ps_load =
		"v_cvt_u32_f32 v2, v0\n"
		"v_cvt_u32_f32 v3, v1\n"
		"image_load v[4:7], v[2:3], s[0:7] dmask:0xf\n"
		"exp mrt0, v[4:7] done vm\n"
		"s_endpgm\n";
	static const char *ps_sample =
		"v_sub_f32 v2, v0, 0.5\n"
		"v_mul_f32 v2, 0x3e000000, v2\n"
		"v_mul_f32 v3, 0x3e000000, v1\n"
		"image_sample v[4:7], v[2:3], s[0:7], s[8:11] dmask:0xf\n"
		"exp mrt0, v[4:7] done vm\n"
		"s_endpgm\n";
	struct rt r;
	struct gm_bo *tex;
	uint32_t user[12] = { 0 };
	struct vtx v[3] = { wv(-8, -8, 0, 1, 0, 0, 0, 1), wv(24, -8, 0, 1, 0, 0, 0, 1), wv(-8, 24, 0, 1, 0, 0, 0, 1) };

	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, sample ? ps_sample : ps_load,
		SPI_PS_INPUT_ENA_POS_X_FLOAT_ENA(1) | SPI_PS_INPUT_ENA_POS_Y_FLOAT_ENA(1));
	tex = tgpu_bo(&r.t, 8 * 8 * 4);
	for (unsigned y = 0; y < 8; y++)
		for (unsigned x = 0; x < 8; x++) {
			uint8_t *p = (uint8_t *)gm_bo_map(tex) + (y * 8 + x) * 4;
			p[0] = (uint8_t)(16 * x), p[1] = (uint8_t)(16 * y), p[2] = 7, p[3] = 255;
		}
	user[0] = SQ_IMG_RSRC_WORD0_BASE_ADDRESS((uint32_t)(gm_bo_va(tex) >> 8));
	user[1] = SQ_IMG_RSRC_WORD1_BASE_ADDRESS_HI((uint32_t)(gm_bo_va(tex) >> 40)) |
		  SQ_IMG_RSRC_WORD1_DATA_FORMAT(V_BUF_DATA_FORMAT_8_8_8_8) | SQ_IMG_RSRC_WORD1_NUM_FORMAT(V_IMG_NUM_FORMAT_UNORM);
	user[2] = SQ_IMG_RSRC_WORD2_WIDTH(7) | SQ_IMG_RSRC_WORD2_HEIGHT(7);
	user[3] = SQ_IMG_RSRC_WORD3_DST_SEL_X(V_SQ_SEL_X) | SQ_IMG_RSRC_WORD3_DST_SEL_Y(V_SQ_SEL_Y) |
		  SQ_IMG_RSRC_WORD3_DST_SEL_Z(V_SQ_SEL_Z) | SQ_IMG_RSRC_WORD3_DST_SEL_W(V_SQ_SEL_W) |
		  SQ_IMG_RSRC_WORD3_TILING_INDEX(8) | SQ_IMG_RSRC_WORD3_TYPE(V_SQ_RSRC_IMG_2D);
	user[4] = SQ_IMG_RSRC_WORD4_PITCH(7);
	user[8] = SQ_IMG_SAMP_WORD0_CLAMP_X(clamp) | SQ_IMG_SAMP_WORD0_CLAMP_Y(clamp);
	user[10] = SQ_IMG_SAMP_WORD2_XY_MAG_FILTER(V_SQ_TEX_XY_FILTER_BILINEAR) |
		   SQ_IMG_SAMP_WORD2_XY_MIN_FILTER(V_SQ_TEX_XY_FILTER_BILINEAR);
	pm4_set_sh_reg(&r.t.cs, REG_SPI_SHADER_PGM_RSRC2_PS, SPI_SHADER_PGM_RSRC2_PS_USER_SGPR(12));
	for (unsigned i = 0; i < 12; i++)
		pm4_set_sh_reg(&r.t.cs, REG_SPI_SHADER_USER_DATA_PS_0 + 4 * i, user[i]);
	draw(&r, V_DI_PT_TRILIST, v, 3);
	submit_clean(&r);
	memcpy(out, gm_bo_map(r.cb), W * H * 4);
	tgpu_fini(&r.t);
}

static void test_images(void)
{
	uint8_t px[W * H][4];
	image_run(false, V_SQ_TEX_WRAP, px);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			CHECK_EQ_INT(px[y * W + x][0], 16 * x);
			CHECK_EQ_INT(px[y * W + x][1], 16 * y);
			CHECK_EQ_INT(px[y * W + x][2], 7);
		}
	image_run(true, V_SQ_TEX_WRAP, px);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			CHECK_EQ_INT(px[y * W + x][0], (16 * ((x + 7) % 8) + 16 * x) / 2);
			CHECK_EQ_INT(px[y * W + x][1], 16 * y);
		}
	image_run(true, V_SQ_TEX_CLAMP_LAST_TEXEL, px);
	for (unsigned y = 0; y < H; y++)
		CHECK_EQ_INT(px[y * W][0], 0);
}

/* A 2D MSAA image (docs/isa.md "Images"): 8x8 RGBA8, 4 samples a texel,
 * consecutive; texel (x, y) sample s = (16x, 16y, 50s + 10, 255), samples
 * = 2^LAST_LEVEL as radeonsi writes it.  Pixel (x, y) reads sample x & 7
 * of its texel with image_load (the sample the `da` coordinate): samples
 * 0..3 differ, 4..7 are outside and read 0.  With `resinfo`,
 * image_get_resinfo at level 0 instead: (8, 8, 0, 1 level) as integers
 * into a UINT target. */
static void msaa_image_run(bool resinfo, uint8_t out[W * H][4])
{
	static const char *ps_load =
		"v_cvt_u32_f32 v2, v0\n"
		"v_cvt_u32_f32 v3, v1\n"
		"v_and_b32 v4, 7, v2\n"
		"image_load v[5:8], v[2:4], s[0:7] dmask:0xf da\n"
		"exp mrt0, v[5:8] done vm\n"
		"s_endpgm\n";
	static const char *ps_resinfo =
		"v_mov_b32 v2, 0\n"
		"image_get_resinfo v[4:7], v[2:2], s[0:7] dmask:0xf\n"
		"exp mrt0, v[4:7] done vm\n"
		"s_endpgm\n";
	struct rt r;
	struct gm_bo *tex;
	uint32_t user[8] = { 0 };
	struct vtx v[3] = { wv(-8, -8, 0, 1, 0, 0, 0, 1), wv(24, -8, 0, 1, 0, 0, 0, 1), wv(-8, 24, 0, 1, 0, 0, 0, 1) };

	rt_init(&r, W, H, V_COLOR_8_8_8_8, resinfo ? V_NUMBER_UINT : V_NUMBER_UNORM, 4, 1,
		resinfo ? ps_resinfo : ps_load, SPI_PS_INPUT_ENA_POS_X_FLOAT_ENA(1) | SPI_PS_INPUT_ENA_POS_Y_FLOAT_ENA(1));
	tex = tgpu_bo(&r.t, 8 * 8 * 4 * 4);
	for (unsigned y = 0; y < 8; y++)
		for (unsigned x = 0; x < 8; x++)
			for (unsigned smp = 0; smp < 4; smp++) {
				uint8_t *p = (uint8_t *)gm_bo_map(tex) + ((y * 8 + x) * 4 + smp) * 4;
				p[0] = (uint8_t)(16 * x), p[1] = (uint8_t)(16 * y), p[2] = (uint8_t)(50 * smp + 10), p[3] = 255;
			}
	user[0] = SQ_IMG_RSRC_WORD0_BASE_ADDRESS((uint32_t)(gm_bo_va(tex) >> 8));
	user[1] = SQ_IMG_RSRC_WORD1_BASE_ADDRESS_HI((uint32_t)(gm_bo_va(tex) >> 40)) |
		  SQ_IMG_RSRC_WORD1_DATA_FORMAT(V_BUF_DATA_FORMAT_8_8_8_8) | SQ_IMG_RSRC_WORD1_NUM_FORMAT(V_IMG_NUM_FORMAT_UNORM);
	user[2] = SQ_IMG_RSRC_WORD2_WIDTH(7) | SQ_IMG_RSRC_WORD2_HEIGHT(7);
	user[3] = SQ_IMG_RSRC_WORD3_DST_SEL_X(V_SQ_SEL_X) | SQ_IMG_RSRC_WORD3_DST_SEL_Y(V_SQ_SEL_Y) |
		  SQ_IMG_RSRC_WORD3_DST_SEL_Z(V_SQ_SEL_Z) | SQ_IMG_RSRC_WORD3_DST_SEL_W(V_SQ_SEL_W) |
		  SQ_IMG_RSRC_WORD3_LAST_LEVEL(2) | SQ_IMG_RSRC_WORD3_TILING_INDEX(8) |
		  SQ_IMG_RSRC_WORD3_TYPE(V_SQ_RSRC_IMG_2D_MSAA);
	user[4] = SQ_IMG_RSRC_WORD4_PITCH(7);
	pm4_set_sh_reg(&r.t.cs, REG_SPI_SHADER_PGM_RSRC2_PS, SPI_SHADER_PGM_RSRC2_PS_USER_SGPR(8));
	for (unsigned i = 0; i < 8; i++)
		pm4_set_sh_reg(&r.t.cs, REG_SPI_SHADER_USER_DATA_PS_0 + 4 * i, user[i]);
	draw(&r, V_DI_PT_TRILIST, v, 3);
	submit_clean(&r);
	memcpy(out, gm_bo_map(r.cb), W * H * 4);
	tgpu_fini(&r.t);
}

static void test_msaa_images(void)
{
	uint8_t px[W * H][4];
	msaa_image_run(false, px);
	for (unsigned y = 0; y < H && y < 8; y++)
		for (unsigned x = 0; x < W && x < 8; x++) {
			unsigned smp = x & 7;
			CHECK_EQ_INT(px[y * W + x][0], smp < 4 ? 16 * x : 0);
			CHECK_EQ_INT(px[y * W + x][1], smp < 4 ? 16 * y : 0);
			CHECK_EQ_INT(px[y * W + x][2], smp < 4 ? 50 * smp + 10 : 0);
		}
	msaa_image_run(true, px);
	CHECK_EQ_INT(px[0][0], 8);
	CHECK_EQ_INT(px[0][1], 8);
	CHECK_EQ_INT(px[0][2], 0);
	CHECK_EQ_INT(px[0][3], 1);
}

/* Mip levels: a 4x4 RGBA8 image with levels 4x4, 2x2, 1x1 laid out one
 * after the other (docs/isa.md "Images"), every texel of level l red
 * 10 + 90 l.  image_sample_l at LOD x / 4 (pixel column x) with nearest
 * mip filtering picks level ceil(lod + 1/2) - 1 (GL 4.6 §8.14.3), with
 * linear mip filtering blends floor(lod) and the next level; the LOD
 * clamps at LAST_LEVEL 2.  image_sample with u = x / 2 (an 8-pixel-wide
 * ramp over 4 texels: 2 texels per pixel across x, 0 across y) has
 * LOD log2(2) = 1 from the quad's derivatives: level 1 (in every quad,
 * those along the triangle's edge too: s_wqm_b64 runs the helper lanes).  image_load_mip
 * reads level 1 at mip 1; mip 3 is past LAST_LEVEL and reads 0. */
static void mip_run(const char *ps, unsigned mip_filter, uint8_t out[W * H][4])
{
	struct rt r;
	struct gm_bo *tex;
	uint32_t user[12] = { 0 };
	struct vtx v[3] = { wv(-8, -8, 0, 1, 0, 0, 0, 1), wv(24, -8, 0, 1, 0, 0, 0, 1), wv(-8, 24, 0, 1, 0, 0, 0, 1) };
	uint8_t *p;

	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps,
		SPI_PS_INPUT_ENA_POS_X_FLOAT_ENA(1) | SPI_PS_INPUT_ENA_POS_Y_FLOAT_ENA(1));
	tex = tgpu_bo(&r.t, (16 + 4 + 1) * 4);
	p = gm_bo_map(tex);
	for (unsigned i = 0; i < 21; i++) {
		unsigned level = i < 16 ? 0 : i < 20 ? 1 : 2;
		p[4 * i] = (uint8_t)(10 + 90 * level), p[4 * i + 1] = 0, p[4 * i + 2] = 0, p[4 * i + 3] = 255;
	}
	user[0] = SQ_IMG_RSRC_WORD0_BASE_ADDRESS((uint32_t)(gm_bo_va(tex) >> 8));
	user[1] = SQ_IMG_RSRC_WORD1_BASE_ADDRESS_HI((uint32_t)(gm_bo_va(tex) >> 40)) |
		  SQ_IMG_RSRC_WORD1_DATA_FORMAT(V_BUF_DATA_FORMAT_8_8_8_8) | SQ_IMG_RSRC_WORD1_NUM_FORMAT(V_IMG_NUM_FORMAT_UNORM);
	user[2] = SQ_IMG_RSRC_WORD2_WIDTH(3) | SQ_IMG_RSRC_WORD2_HEIGHT(3);
	user[3] = SQ_IMG_RSRC_WORD3_DST_SEL_X(V_SQ_SEL_X) | SQ_IMG_RSRC_WORD3_DST_SEL_Y(V_SQ_SEL_Y) |
		  SQ_IMG_RSRC_WORD3_DST_SEL_Z(V_SQ_SEL_Z) | SQ_IMG_RSRC_WORD3_DST_SEL_W(V_SQ_SEL_W) |
		  SQ_IMG_RSRC_WORD3_BASE_LEVEL(0) | SQ_IMG_RSRC_WORD3_LAST_LEVEL(2) |
		  SQ_IMG_RSRC_WORD3_TILING_INDEX(8) | SQ_IMG_RSRC_WORD3_TYPE(V_SQ_RSRC_IMG_2D);
	user[4] = SQ_IMG_RSRC_WORD4_PITCH(3);
	user[9] = SQ_IMG_SAMP_WORD1_MAX_LOD(15 << 8);
	user[10] = SQ_IMG_SAMP_WORD2_MIP_FILTER(mip_filter);
	pm4_set_sh_reg(&r.t.cs, REG_SPI_SHADER_PGM_RSRC2_PS, SPI_SHADER_PGM_RSRC2_PS_USER_SGPR(12));
	for (unsigned i = 0; i < 12; i++)
		pm4_set_sh_reg(&r.t.cs, REG_SPI_SHADER_USER_DATA_PS_0 + 4 * i, user[i]);
	draw(&r, V_DI_PT_TRILIST, v, 3);
	submit_clean(&r);
	memcpy(out, gm_bo_map(r.cb), W * H * 4);
	tgpu_fini(&r.t);
}

static void test_image_mips(void)
{
	static const char *ps_lod =
		"v_sub_f32 v4, v0, 0.5\n"           /* x */
		"v_mul_f32 v4, 0.5, v4\n"
		"v_mul_f32 v4, 0.5, v4\n"           /* lod = x / 4 */
		"v_mov_b32 v2, 0.5\n"
		"v_mov_b32 v3, 0.5\n"
		"image_sample_l v[4:7], v[2:4], s[0:7], s[8:11] dmask:0xf\n"
		"exp mrt0, v[4:7] done vm\n"
		"s_endpgm\n";
	static const char *ps_implicit =
		"s_wqm_b64 exec, exec\n"           /* helper lanes compute u too */
		"v_mul_f32 v2, 0.5, v0\n"            /* u = x / 2: du/dx = 4 texels / 2 = 2 */
		"v_mov_b32 v3, 0.5\n"
		"image_sample v[4:7], v[2:3], s[0:7], s[8:11] dmask:0xf\n"
		"exp mrt0, v[4:7] done vm\n"
		"s_endpgm\n";
	static const char *ps_bias =
		"s_wqm_b64 exec, exec\n"
		"v_mov_b32 v2, 1.0\n"               /* the shader's bias, before the coordinates */
		"v_mul_f32 v3, 0.5, v0\n"            /* u = x / 2: LOD 1, + 1 */
		"v_mov_b32 v4, 0.5\n"
		"image_sample_b v[4:7], v[2:4], s[0:7], s[8:11] dmask:0xf\n"
		"exp mrt0, v[4:7] done vm\n"
		"s_endpgm\n";
	static const char *ps_fetch =
		"v_mov_b32 v2, 0\n"
		"v_mov_b32 v3, 1\n"
		"v_mov_b32 v4, 1\n"
		"v_cmp_lt_f32 vcc, 4.0, v0\n"       /* x >= 4: mip 3 */
		"v_cndmask_b32 v4, v4, 3, vcc\n"
		"image_load_mip v[4:7], v[2:4], s[0:7] dmask:0xf\n"
		"exp mrt0, v[4:7] done vm\n"
		"s_endpgm\n";
	uint8_t px[W * H][4];

	mip_run(ps_lod, V_SQ_TEX_Z_FILTER_POINT, px);
	for (unsigned x = 0; x < W; x++) {
		double lod = x / 4.0;
		unsigned level = lod <= 0.5 ? 0 : (unsigned)ceil(lod + 0.5) - 1;
		CHECK_EQ_INT(px[3 * W + x][0], 10 + 90 * (level > 2 ? 2 : level));
	}
	mip_run(ps_lod, V_SQ_TEX_Z_FILTER_LINEAR, px);
	for (unsigned x = 0; x < W; x++) {
		double lod = x / 4.0, f = lod - floor(lod);
		unsigned d = (unsigned)floor(lod);
		double want = d >= 2 ? 190 : (1 - f) * (10 + 90 * d) + f * (10 + 90 * (d + 1));
		CHECK(fabs(px[3 * W + x][0] - want) <= 0.51);
	}
	mip_run(ps_implicit, V_SQ_TEX_Z_FILTER_POINT, px);
	for (unsigned x = 0; x < W; x++)
		for (unsigned y = 0; y < H; y++)
			CHECK_EQ_INT(px[y * W + x][0], 100);
	/* image_sample_b: LOD 1 + bias 1 selects level 2 */
	mip_run(ps_bias, V_SQ_TEX_Z_FILTER_POINT, px);
	for (unsigned x = 0; x < W; x++)
		for (unsigned y = 0; y < H; y++)
			CHECK_EQ_INT(px[y * W + x][0], 190);
	mip_run(ps_fetch, V_SQ_TEX_Z_FILTER_NONE, px);
	for (unsigned x = 0; x < W; x++)
		CHECK_EQ_INT(px[W + x][0], x < 4 ? 100 : 0);
	/* without MIP_FILTER the base level is sampled at any LOD */
	mip_run(ps_lod, V_SQ_TEX_Z_FILTER_NONE, px);
	CHECK_EQ_INT(px[W + 7][0], 10);
}

/* Depth formats: window depth 0.5 (NDC 0) stored as Z_24 is
 * round(0.5 * (2^24 - 1)) = 8388607.5 -> 8388608 (nearest even) in the low
 * 24 bits, the high byte kept; as Z_16 32767.5 -> 32768.  A second draw at
 * the same depth with GL_LESS fails (equal), with GL_LEQUAL passes. */
static void depth_fmt_run(unsigned zfmt, unsigned func, uint32_t *z00, uint8_t *red)
{
	struct rt r;
	struct pm4_cs *cs;
	struct vtx v[6] = { wv(-8, -8, 0, 1, 1, 0, 0, 1), wv(24, -8, 0, 1, 1, 0, 0, 1), wv(-8, 24, 0, 1, 1, 0, 0, 1),
			    wv(-8, -8, 0, 1, 0, 1, 0, 1), wv(24, -8, 0, 1, 0, 1, 0, 1), wv(-8, 24, 0, 1, 0, 1, 0, 1) };
	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	cs = &r.t.cs;
	for (unsigned i = 0; i < W * H; i++) {
		if (zfmt == V_Z_16)
			((uint16_t *)gm_bo_map(r.zb))[i] = 0xFFFF;
		else
			((uint32_t *)gm_bo_map(r.zb))[i] = 0xABFFFFFFu;
	}
	pm4_set_context_reg(cs, REG_DB_DEPTH_INFO, DB_DEPTH_INFO_ARRAY_MODE(V_ARRAY_LINEAR_ALIGNED));
	pm4_set_context_reg(cs, REG_DB_Z_INFO, DB_Z_INFO_FORMAT(zfmt));
	pm4_set_context_reg(cs, REG_DB_Z_READ_BASE, (uint32_t)(gm_bo_va(r.zb) >> 8));
	pm4_set_context_reg(cs, REG_DB_Z_WRITE_BASE, (uint32_t)(gm_bo_va(r.zb) >> 8));
	pm4_set_context_reg(cs, REG_DB_DEPTH_SIZE, DB_DEPTH_SIZE_PITCH_TILE_MAX(W / 8 - 1) | DB_DEPTH_SIZE_HEIGHT_TILE_MAX(H / 8 - 1));
	pm4_set_context_reg(cs, REG_DB_DEPTH_CONTROL, DB_DEPTH_CONTROL_Z_ENABLE(1) | DB_DEPTH_CONTROL_Z_WRITE_ENABLE(1) |
			    DB_DEPTH_CONTROL_ZFUNC(func));
	draw(&r, V_DI_PT_TRILIST, v, 6);
	submit_clean(&r);
	*z00 = zfmt == V_Z_16 ? ((const uint16_t *)gm_bo_map(r.zb))[0] : ((const uint32_t *)gm_bo_map(r.zb))[0];
	*red = px8(&r, 0, 0)[0];
	tgpu_fini(&r.t);
}

static void test_depth_formats(void)
{
	uint32_t z;
	uint8_t red;
	depth_fmt_run(V_Z_24, V_FRAG_LESS, &z, &red);
	CHECK_EQ_INT(z, 0xAB800000u);
	CHECK_EQ_INT(red, 255);            /* the second (green) draw failed */
	depth_fmt_run(V_Z_24, V_FRAG_LEQUAL, &z, &red);
	CHECK_EQ_INT(red, 0);
	depth_fmt_run(V_Z_16, V_FRAG_LESS, &z, &red);
	CHECK_EQ_INT(z, 0x8000);
	CHECK_EQ_INT(red, 255);
}

/* Component order and integers: COMP_SWAP ALT on 8_8_8_8 stores B G R A
 * (a BGRA window buffer): (1, 0.5, 0, 1) -> bytes 0, 128, 255, 255; a 32_R
 * export of 0x12345678 into COLOR_32 UINT stores it; into COLOR_8 UINT the
 * low 8 bits (0x78). */
static void test_swap_and_integer_targets(void)
{
	static const char *ps_int =
		"v_mov_b32 v2, 0x12345678\n"
		"exp mrt0, v[2:5] done vm\n"
		"s_endpgm\n";
	struct vtx v[3] = { wv(-8, -8, 0, 1, 1, 0.5f, 0, 1), wv(24, -8, 0, 1, 1, 0.5f, 0, 1), wv(-8, 24, 0, 1, 1, 0.5f, 0, 1) };
	struct rt r;

	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	pm4_set_context_reg(&r.t.cs, REG_CB_COLOR0_INFO, CB_COLOR_INFO_FORMAT(V_COLOR_8_8_8_8) |
			    CB_COLOR_INFO_NUMBER_TYPE(V_NUMBER_UNORM) | CB_COLOR_INFO_COMP_SWAP(V_SWAP_ALT));
	draw(&r, V_DI_PT_TRILIST, v, 3);
	submit_clean(&r);
	CHECK_EQ_INT(px8(&r, 1, 1)[0], 0);
	CHECK_EQ_INT(px8(&r, 1, 1)[1], 128);
	CHECK_EQ_INT(px8(&r, 1, 1)[2], 255);
	CHECK_EQ_INT(px8(&r, 1, 1)[3], 255);
	tgpu_fini(&r.t);

	rt_init(&r, W, H, V_COLOR_32, V_NUMBER_UINT, 4, 1, ps_int, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	pm4_set_context_reg(&r.t.cs, REG_SPI_SHADER_COL_FORMAT, SPI_SHADER_COL_FORMAT_COL0_EXPORT_FORMAT(V_SPI_SHADER_32_R));
	draw(&r, V_DI_PT_TRILIST, v, 3);
	submit_clean(&r);
	CHECK_EQ_INT(((const uint32_t *)gm_bo_map(r.cb))[9], 0x12345678u);
	tgpu_fini(&r.t);

	rt_init(&r, W, H, V_COLOR_8, V_NUMBER_UINT, 1, 1, ps_int, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	pm4_set_context_reg(&r.t.cs, REG_SPI_SHADER_COL_FORMAT, SPI_SHADER_COL_FORMAT_COL0_EXPORT_FORMAT(V_SPI_SHADER_32_R));
	draw(&r, V_DI_PT_TRILIST, v, 3);
	submit_clean(&r);
	CHECK_EQ_INT(((const uint8_t *)gm_bo_map(r.cb))[9], 0x78);
	CHECK_EQ_INT(((const uint8_t *)gm_bo_map(r.cb))[10], 0x78);
	tgpu_fini(&r.t);
}

/* Hostile state: 300 draws of random primitive types with random values
 * in the pixel pipeline's registers (positions, viewports, formats, tests,
 * samples, exports; the window scissors stay 8x8 so that no draw is
 * unbounded).  None crashes (the sanitizer build watches), the nonsense is
 * recorded as faults, and afterwards, the registers restored, the same GPU
 * draws the triangles of test_fill_rule_shared_edge exactly. */
static void test_random_state_never_crashes(void)
{
	static const uint32_t fuzzed[] = {
		REG_SPI_PS_INPUT_ENA, REG_SPI_PS_INPUT_ADDR,
		REG_PA_CL_CLIP_CNTL, REG_PA_SU_SC_MODE_CNTL, REG_PA_CL_VTE_CNTL, REG_PA_CL_VS_OUT_CNTL,
		REG_PA_CL_VPORT_XSCALE_0, REG_PA_CL_VPORT_XOFFSET_0, REG_PA_CL_VPORT_YSCALE_0,
		REG_PA_CL_VPORT_YOFFSET_0, REG_PA_CL_VPORT_ZSCALE_0, REG_PA_CL_VPORT_ZOFFSET_0,
		REG_PA_CL_GB_HORZ_CLIP_ADJ, REG_PA_CL_GB_VERT_CLIP_ADJ, REG_PA_SU_VTX_CNTL,
		REG_PA_SU_POINT_SIZE, REG_PA_SU_POINT_MINMAX, REG_PA_SU_LINE_CNTL, REG_PA_SC_AA_CONFIG,
		REG_PA_SC_MODE_CNTL_0, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0, REG_PA_SC_AA_MASK_X0Y0_X1Y0,
		REG_PA_SC_CENTROID_PRIORITY_0, REG_PA_SC_VPORT_SCISSOR_0_TL, REG_PA_SC_VPORT_SCISSOR_0_BR,
		REG_PA_SC_VPORT_ZMIN_0, REG_PA_SC_VPORT_ZMAX_0, REG_PA_CL_UCP_0_X, REG_PA_CL_UCP_0_W,
		REG_SPI_PS_IN_CONTROL, REG_SPI_PS_INPUT_CNTL_0, REG_SPI_INTERP_CONTROL_0,
		REG_SPI_SHADER_COL_FORMAT, REG_SPI_SHADER_Z_FORMAT,
		REG_DB_SHADER_CONTROL, REG_DB_DEPTH_CONTROL, REG_DB_STENCIL_CONTROL, REG_DB_STENCILREFMASK,
		REG_DB_Z_INFO, REG_DB_STENCIL_INFO, REG_DB_DEPTH_INFO, REG_DB_DEPTH_SIZE, REG_DB_COUNT_CONTROL,
		REG_CB_COLOR_CONTROL, REG_CB_TARGET_MASK, REG_CB_SHADER_MASK, REG_CB_COLOR0_INFO,
		REG_CB_COLOR0_ATTRIB, REG_CB_COLOR0_PITCH, REG_CB_COLOR0_SLICE, REG_CB_BLEND0_CONTROL,
	};
	enum { N = sizeof fuzzed / sizeof fuzzed[0] };
	static const unsigned prims[4] = { V_DI_PT_TRILIST, V_DI_PT_POINTLIST, V_DI_PT_LINELIST, V_DI_PT_TRISTRIP };
	uint32_t saved[N], x = 2463534242u;
	struct rt r;
	struct vtx v[6] = {
		wv(0, 0, 0, 1, 1, 0, 0, 1), wv(4, 0, 0, 1, 1, 0, 0, 1), wv(0, 4, 0, 1, 1, 0, 0, 1),
		wv(4, 0, 0, 1, 0, 1, 0, 1), wv(4, 4, 0, 1, 0, 1, 0, 1), wv(0, 4, 0, 1, 0, 1, 0, 1),
	};

	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	pm4_set_context_reg(&r.t.cs, REG_DB_Z_READ_BASE, (uint32_t)(gm_bo_va(r.zb) >> 8));
	pm4_set_context_reg(&r.t.cs, REG_DB_STENCIL_READ_BASE, (uint32_t)(gm_bo_va(r.zb) >> 8));
	memcpy(gm_bo_map(r.vb), v, sizeof v);
	tgpu_submit(&r.t);
	for (unsigned i = 0; i < N; i++)
		CHECK(gm_reg_get(r.t.gm, fuzzed[i], &saved[i]));
	for (unsigned it = 0; it < 300; it++) {
		for (unsigned k = 0; k < 6; k++) {
			unsigned i;
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			i = x % N;
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			/* a random value, or one bit flipped in the valid one */
			pm4_set_context_reg(&r.t.cs, fuzzed[i], (x & 3) ? x : saved[i] ^ (1u << (x >> 27)));
		}
		if (x & 0x100) {   /* often a valid ADDR = ENA pair, so draws get further */
			pm4_set_context_reg(&r.t.cs, REG_SPI_PS_INPUT_ENA, saved[0]);
			pm4_set_context_reg(&r.t.cs, REG_SPI_PS_INPUT_ADDR, saved[1]);
		}
		tgpu_draw_auto(&r.t, prims[x >> 30], 6, 1);
		gm_submit_ib(r.t.gm, gm_bo_va(r.t.ib) + r.t.submitted * 4ull, r.t.cs.cdw - r.t.submitted);
		r.t.submitted = r.t.cs.cdw;
	}
	CHECK(gm_fault_count(r.t.gm) > 0);
	for (unsigned i = 0; i < N; i++)
		pm4_set_context_reg(&r.t.cs, fuzzed[i], saved[i]);
	memset(gm_bo_map(r.cb), 0, W * H * 4);
	tgpu_draw_auto(&r.t, V_DI_PT_TRILIST, 6, 1);
	submit_clean(&r);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x2 = 0; x2 < W; x2++) {
			const uint8_t *p = px8(&r, x2, y);
			bool in = x2 < 4 && y < 4;
			CHECK_EQ_INT(p[0], in && x2 + y <= 2 ? 255 : 0);
			CHECK_EQ_INT(p[1], in && x2 + y >= 3 ? 255 : 0);
		}
	tgpu_fini(&r.t);
}

/* Stencil on depth failure (GL's glStencilOp(KEEP, INCR, ZERO)): depth
 * cleared to 0 with GL_LESS fails everywhere, so the covered samples take
 * the ZFAIL operation (ADD_CLAMP of STENCILOPVAL 1: 5 -> 6), the colour
 * stays, and back faces with BACKFACE_ENABLE use the _BF operation
 * (SUB_CLAMP: 5 -> 4). */
static void test_stencil_depth_fail(void)
{
	for (unsigned back = 0; back < 2; back++) {
		struct rt r;
		struct gm_bo *sb;
		struct pm4_cs *cs;
		/* counter-clockwise (front) or clockwise (back) over the whole window */
		struct vtx v[3] = { wv(-8, -8, 0, 1, 1, 1, 1, 1), wv(24, -8, 0, 1, 1, 1, 1, 1), wv(-8, 24, 0, 1, 1, 1, 1, 1) };
		if (back) {
			struct vtx t = v[1];
			v[1] = v[2], v[2] = t;
		}
		rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
		cs = &r.t.cs;
		sb = tgpu_bo(&r.t, W * H);
		memset(gm_bo_map(sb), 5, W * H);
		memset(gm_bo_map(r.zb), 0, W * H * 4);           /* depth 0.0 */
		pm4_set_context_reg(cs, REG_DB_DEPTH_INFO, DB_DEPTH_INFO_ARRAY_MODE(V_ARRAY_LINEAR_ALIGNED));
		pm4_set_context_reg(cs, REG_DB_Z_INFO, DB_Z_INFO_FORMAT(V_Z_32_FLOAT));
		pm4_set_context_reg(cs, REG_DB_Z_READ_BASE, (uint32_t)(gm_bo_va(r.zb) >> 8));
		pm4_set_context_reg(cs, REG_DB_STENCIL_INFO, DB_STENCIL_INFO_FORMAT(V_STENCIL_8));
		pm4_set_context_reg(cs, REG_DB_STENCIL_READ_BASE, (uint32_t)(gm_bo_va(sb) >> 8));
		pm4_set_context_reg(cs, REG_DB_DEPTH_SIZE, DB_DEPTH_SIZE_PITCH_TILE_MAX(W / 8 - 1) | DB_DEPTH_SIZE_HEIGHT_TILE_MAX(H / 8 - 1));
		pm4_set_context_reg(cs, REG_DB_DEPTH_CONTROL, DB_DEPTH_CONTROL_STENCIL_ENABLE(1) | DB_DEPTH_CONTROL_Z_ENABLE(1) |
				    DB_DEPTH_CONTROL_Z_WRITE_ENABLE(1) | DB_DEPTH_CONTROL_ZFUNC(V_FRAG_LESS) |
				    DB_DEPTH_CONTROL_STENCILFUNC(V_FRAG_ALWAYS) | DB_DEPTH_CONTROL_STENCILFUNC_BF(V_FRAG_ALWAYS) |
				    DB_DEPTH_CONTROL_BACKFACE_ENABLE(1));
		pm4_set_context_reg(cs, REG_DB_STENCIL_CONTROL,
				    DB_STENCIL_CONTROL_STENCILZFAIL(V_STENCIL_ADD_CLAMP) | DB_STENCIL_CONTROL_STENCILZPASS(V_STENCIL_ZERO) |
				    DB_STENCIL_CONTROL_STENCILZFAIL_BF(V_STENCIL_SUB_CLAMP) |
				    DB_STENCIL_CONTROL_STENCILZPASS_BF(V_STENCIL_ZERO));
		pm4_set_context_reg(cs, REG_DB_STENCILREFMASK, DB_STENCILREFMASK_STENCILMASK(0xFF) |
				    DB_STENCILREFMASK_STENCILWRITEMASK(0xFF) | DB_STENCILREFMASK_STENCILOPVAL(1));
		pm4_set_context_reg(cs, REG_DB_STENCILREFMASK_BF, DB_STENCILREFMASK_STENCILMASK(0xFF) |
				    DB_STENCILREFMASK_STENCILWRITEMASK(0xFF) | DB_STENCILREFMASK_STENCILOPVAL(1));
		draw(&r, V_DI_PT_TRILIST, v, 3);
		submit_clean(&r);
		for (unsigned i = 0; i < W * H; i++) {
			CHECK_EQ_INT(((const uint8_t *)gm_bo_map(sb))[i], back ? 4 : 6);
			CHECK_EQ_INT(((const uint8_t *)gm_bo_map(r.cb))[4 * i], 0);
		}
		tgpu_fini(&r.t);
	}
}

/* 8x MSAA with the positions in both sample-location registers of each
 * quad pixel (radeonsi's 8x set: x offsets 1, -1, 5, -3, -5, -7, 3, 7
 * sixteenths): the edge x = 2.5 leaves samples 1, 3, 4, 5 of column 2
 * inside. */
static void test_msaa_8x_edge_samples(void)
{
	struct rt r;
	struct vtx v[3] = { wv(-8, -8, 0, 1, 1, 1, 1, 1), wv(2.5f, -8, 0, 1, 1, 1, 1, 1), wv(2.5f, 24, 0, 1, 1, 1, 1, 1) };
	/* (1,-3) (-1,3) (5,1) (-3,-5) | (-5,5) (-7,-1) (3,7) (7,-7) */
	const uint32_t l0 = 0xBD153FD1u, l1 = 0x9773F95Bu;
	rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 8, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	for (unsigned p = 0; p < 4; p++) {
		static const uint32_t regs[4] = { REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X1Y0_0,
						  REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y1_0, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X1Y1_0 };
		pm4_set_context_reg(&r.t.cs, regs[p], l0);
		pm4_set_context_reg(&r.t.cs, regs[p] + 4, l1);
	}
	draw(&r, V_DI_PT_TRILIST, v, 3);
	submit_clean(&r);
	for (unsigned s = 0; s < 8; s++)
		CHECK_EQ_INT(px8(&r, 2, 0)[4 * s], (0x3Au >> s & 1) ? 255 : 0);
	tgpu_fini(&r.t);
}

/* Polygon modes (PA_SU_SC_MODE_CNTL.POLY_MODE, GL 4.6 compat §14.6.4): the
 * square with corners at the pixel centres (1.5, 1.5) and (6.5, 6.5),
 * counter-clockwise (front).  Its boundary edges as width-1 lines are the
 * parallelograms [1.5, 6.5) x [1, 2) and so on (docs/pixel-pipeline.md):
 * rows 1 and 6 for x = 1..5, columns 1 and 6 for y = 1..5.  As a quad the
 * diagonal that splits it into two triangles is not an edge (§10.1.17:
 * only the quad's own edges are boundary edges), so (3, 3) and (4, 4)
 * stay empty; as a triangle strip of the same four vertices it is an edge
 * of both triangles and is drawn.  In point mode the four vertices are
 * points of size 2, the pixels [0, 2) and [5, 7) squared.  The facing
 * picks the mode: filled front (POLYMODE_FRONT_PTYPE 2: the centres in
 * [1.5, 6.5) squared, x, y = 1..5), lines back; and
 * a culled face draws nothing. */
static bool ring_pixel(unsigned x, unsigned y)
{
	return ((y == 1 || y == 6) && x >= 1 && x <= 5) || ((x == 1 || x == 6) && y >= 1 && y <= 5);
}

static void test_polygon_modes(void)
{
	struct vtx quad[4] = { wv(1.5f, 1.5f, 0, 1, 1, 1, 1, 1), wv(6.5f, 1.5f, 0, 1, 1, 1, 1, 1),
			       wv(6.5f, 6.5f, 0, 1, 1, 1, 1, 1), wv(1.5f, 6.5f, 0, 1, 1, 1, 1, 1) };
	struct vtx cw[4] = { quad[0], quad[3], quad[2], quad[1] };
	struct vtx strip[4] = { quad[0], quad[1], quad[3], quad[2] };
	enum { LINES_QUAD, LINES_STRIP, POINTS_QUAD, FILL_FRONT, LINE_BACK, CULLED_BACK, N_CASES };

	for (unsigned c = 0; c < N_CASES; c++) {
		struct rt r;
		unsigned front = c == POINTS_QUAD ? 0 : c >= FILL_FRONT ? 2 : 1, back = c == POINTS_QUAD ? 0 : 1;
		rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
		pm4_set_context_reg(&r.t.cs, REG_PA_SU_LINE_CNTL, PA_SU_LINE_CNTL_WIDTH(8));
		pm4_set_context_reg(&r.t.cs, REG_PA_SU_POINT_SIZE, PA_SU_POINT_SIZE_WIDTH(16) | PA_SU_POINT_SIZE_HEIGHT(16));
		pm4_set_context_reg(&r.t.cs, REG_PA_SU_POINT_MINMAX, PA_SU_POINT_MINMAX_MAX_SIZE(0xFFFF));
		pm4_set_context_reg(&r.t.cs, REG_PA_SU_SC_MODE_CNTL,
				    PA_SU_SC_MODE_CNTL_POLY_MODE(1) | PA_SU_SC_MODE_CNTL_POLYMODE_FRONT_PTYPE(front) |
				    PA_SU_SC_MODE_CNTL_POLYMODE_BACK_PTYPE(back) |
				    PA_SU_SC_MODE_CNTL_CULL_BACK(c == CULLED_BACK));
		if (c == LINES_STRIP)
			draw(&r, V_DI_PT_TRISTRIP, strip, 4);
		else
			draw(&r, V_DI_PT_QUADLIST, c == LINE_BACK || c == CULLED_BACK ? cw : quad, 4);
		submit_clean(&r);
		for (unsigned y = 0; y < H; y++)
			for (unsigned x = 0; x < W; x++) {
				bool on;
				switch (c) {
				case LINES_STRIP:
					/* the diagonal (1.5, 6.5) - (6.5, 1.5): x-major ties
					 * aside, the pixels x + y = 7 strictly inside */
					on = ring_pixel(x, y) || (x + y == 7 && x >= 2 && x <= 5);
					break;
				case POINTS_QUAD: on = (x <= 1 || (x >= 5 && x <= 6)) && (y <= 1 || (y >= 5 && y <= 6)); break;
				case FILL_FRONT: on = x >= 1 && x <= 5 && y >= 1 && y <= 5; break;
				case CULLED_BACK: on = false; break;
				default: on = ring_pixel(x, y); break;
				}
				if (px8(&r, x, y)[0] != (on ? 255 : 0))
					fprintf(stderr, "case %u pixel (%u, %u)\n", c, x, y);
				CHECK_EQ_INT(px8(&r, x, y)[0], on ? 255 : 0);
			}
		tgpu_fini(&r.t);
	}
}

/* Polygon modes after clipping: the triangle (1.5, 1.5), (13.5, 1.5),
 * (1.5, 13.5) in GL_LINE mode, cut at window x = 4.5 either by user plane
 * 0 (-x_clip + 0.125 w_clip >= 0) or by the near plane (z_ndc = -1 at
 * x = 4.5: -0.5 at the left vertices, -2.5 at the right one, linear).
 * What remains of its edges (row 1 and column 1) is drawn either way; the
 * new edge along the plane, column 4, is a boundary edge for the user
 * plane and not for the view volume's near plane (docs/pixel-pipeline.md,
 * Polygon modes). */
static void test_polygon_mode_clipped_edges(void)
{
	struct vtx v[3] = { wv(1.5f, 1.5f, -0.5f, 1, 1, 1, 1, 1), wv(13.5f, 1.5f, -2.5f, 1, 1, 1, 1, 1),
			    wv(1.5f, 13.5f, -0.5f, 1, 1, 1, 1, 1) };

	for (unsigned user = 0; user < 2; user++) {
		struct rt r;
		rt_init(&r, W, H, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
		pm4_set_context_reg(&r.t.cs, REG_PA_SU_LINE_CNTL, PA_SU_LINE_CNTL_WIDTH(8));
		pm4_set_context_reg(&r.t.cs, REG_PA_SU_SC_MODE_CNTL,
				    PA_SU_SC_MODE_CNTL_POLY_MODE(1) | PA_SU_SC_MODE_CNTL_POLYMODE_FRONT_PTYPE(1) |
				    PA_SU_SC_MODE_CNTL_POLYMODE_BACK_PTYPE(1));
		if (user) {
			/* z inside: the near plane cuts nothing */
			for (unsigned i = 0; i < 3; i++)
				v[i].p[2] = 0;
			pm4_set_context_reg(&r.t.cs, REG_PA_CL_CLIP_CNTL, PA_CL_CLIP_CNTL_UCP_ENA_0(1));
			set_f(&r, REG_PA_CL_UCP_0_X, -1.0f);
			set_f(&r, REG_PA_CL_UCP_0_W, 0.125f);
		}
		draw(&r, V_DI_PT_TRILIST, v, 3);
		submit_clean(&r);
		for (unsigned y = 2; y <= 6; y++) {
			CHECK_EQ_INT(px8(&r, 1, y)[0], 255);
			CHECK_EQ_INT(px8(&r, 4, y)[0], user ? 255 : 0);
			CHECK_EQ_INT(px8(&r, 6, y)[0], 0);
		}
		CHECK_EQ_INT(px8(&r, 2, 1)[0], 255);
		tgpu_fini(&r.t);
	}
}

int main(void)
{
	XT_RUN(test_fill_rule_shared_edge);
	XT_RUN(test_interpolation_perspective);
	XT_RUN(test_depth_test_and_occlusion_count);
	XT_RUN(test_blend_and_write_mask);
	XT_RUN(test_helpers_derivatives_discard);
	XT_RUN(test_msaa_4x_edge_samples);
	XT_RUN(test_msaa_8x_edge_samples);
	XT_RUN(test_point_and_line);
	XT_RUN(test_facing_and_culling);
	XT_RUN(test_polygon_modes);
	XT_RUN(test_polygon_mode_clipped_edges);
	XT_RUN(test_flat_shading_provoking_vertex);
	XT_RUN(test_user_plane_clip_and_scissor);
	XT_RUN(test_stencil_mask);
	XT_RUN(test_stencil_depth_fail);
	XT_RUN(test_formats_and_logic_op);
	XT_RUN(test_hostile_input_faults_not_crashes);
	XT_RUN(test_point_sprite);
	XT_RUN(test_vs_point_size_and_clip_distances);
	XT_RUN(test_point_discard_band);
	XT_RUN(test_gs_copy_shader_rasterizes);
	XT_RUN(test_images);
	XT_RUN(test_msaa_images);
	XT_RUN(test_image_mips);
	XT_RUN(test_depth_formats);
	XT_RUN(test_swap_and_integer_targets);
	XT_RUN(test_random_state_never_crashes);
	XT_TEST_MAIN_END();
}
