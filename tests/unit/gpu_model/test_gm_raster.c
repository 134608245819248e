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

#include "gm_test_util.h"

#define W 8
#define H 8

/* Vertex layout: clip position (4 floats), colour (4 floats). */
struct vtx { float p[4], c[4]; };

struct rt {
	struct tgpu t;
	struct gm_bo *vb, *cb, *zb, *query;
	unsigned samples;
};

static const char *vs_src =
	"buffer_load_dwordx4 v[4:7], v0, s[0:3], 0 idxen\n"
	"buffer_load_dwordx4 v[8:11], v0, s[0:3], 0 offset:16 idxen\n"
	"exp pos0, v[4:7] done\n"
	"exp param0, v[8:11]\n"
	"s_endpgm\n";

/* param0 interpolated (PERSP_CENTER: v0 = I, v1 = J) to mrt0. */
static const char *ps_smooth =
	"v_interp_p1_f32 v2, v0, attr0.x\n"
	"v_interp_p2_f32 v2, v1, attr0.x\n"
	"v_interp_p1_f32 v3, v0, attr0.y\n"
	"v_interp_p2_f32 v3, v1, attr0.y\n"
	"v_interp_p1_f32 v4, v0, attr0.z\n"
	"v_interp_p2_f32 v4, v1, attr0.z\n"
	"v_interp_p1_f32 v5, v0, attr0.w\n"
	"v_interp_p2_f32 v5, v1, attr0.w\n"
	"exp mrt0, v[2:5] done vm\n"
	"s_endpgm\n";

static uint32_t fbits(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

static void set_f(struct rt *r, uint32_t reg, float f) { pm4_set_context_reg(&r->t.cs, reg, fbits(f)); }

/* A W x H target of `fmt`/`ntype` (bytes per sample `bpp`), the viewport
 * covering it (GL's glViewport(0, 0, W, H), depth range [0, 1]), no depth
 * buffer, the PS `ps` with `ena` inputs and one interpolated input. */
static void rt_init(struct rt *r, unsigned fmt, unsigned ntype, unsigned bpp, unsigned samples,
		    const char *ps, uint32_t ena)
{
	struct pm4_cs *cs;
	uint64_t vs, psva;
	uint32_t desc[4];

	memset(r, 0, sizeof *r);
	tgpu_init(&r->t);
	cs = &r->t.cs;
	r->samples = samples;
	r->vb = tgpu_bo(&r->t, 64 * sizeof(struct vtx));
	r->cb = tgpu_bo(&r->t, W * H * bpp * samples);
	r->zb = tgpu_bo(&r->t, W * H * 4 * samples);
	r->query = tgpu_bo(&r->t, 64);
	vs = tgpu_shader(&r->t, vs_src);
	psva = tgpu_shader(&r->t, ps);
	tgpu_desc(desc, gm_bo_va(r->vb), sizeof(struct vtx), 64, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	tgpu_vs(&r->t, vs, 4, desc, 0);
	pm4_set_context_reg(cs, REG_SPI_VS_OUT_CONFIG, 0);
	pm4_set_context_reg(cs, REG_SPI_SHADER_POS_FORMAT, SPI_SHADER_POS_FORMAT_POS0_EXPORT_FORMAT(V_SPI_SHADER_4COMP));
	/* PA: viewport transform on, GL's lower-left viewport unflipped */
	pm4_set_context_reg(cs, REG_PA_CL_CLIP_CNTL, 0);
	pm4_set_context_reg(cs, REG_PA_SU_SC_MODE_CNTL, 0);
	pm4_set_context_reg(cs, REG_PA_CL_VTE_CNTL, 0x3F);
	set_f(r, REG_PA_CL_VPORT_XSCALE_0, W / 2.0f);
	set_f(r, REG_PA_CL_VPORT_XOFFSET_0, W / 2.0f);
	set_f(r, REG_PA_CL_VPORT_YSCALE_0, H / 2.0f);
	set_f(r, REG_PA_CL_VPORT_YOFFSET_0, H / 2.0f);
	set_f(r, REG_PA_CL_VPORT_ZSCALE_0, 0.5f);
	set_f(r, REG_PA_CL_VPORT_ZOFFSET_0, 0.5f);
	set_f(r, REG_PA_SC_VPORT_ZMIN_0, 0.0f);
	set_f(r, REG_PA_SC_VPORT_ZMAX_0, 1.0f);
	set_f(r, REG_PA_CL_GB_HORZ_CLIP_ADJ, 1.0f);
	set_f(r, REG_PA_CL_GB_VERT_CLIP_ADJ, 1.0f);
	pm4_set_context_reg(cs, REG_PA_SU_VTX_CNTL, PA_SU_VTX_CNTL_PIX_CENTER(1) |
			    PA_SU_VTX_CNTL_ROUND_MODE(V_X_ROUND_TO_EVEN) |
			    PA_SU_VTX_CNTL_QUANT_MODE(V_X_16_8_FIXED_POINT_1_256TH));
	pm4_set_context_reg(cs, REG_PA_SC_WINDOW_SCISSOR_TL, PA_SC_WINDOW_SCISSOR_TL_WINDOW_OFFSET_DISABLE(1));
	pm4_set_context_reg(cs, REG_PA_SC_WINDOW_SCISSOR_BR, PA_SC_WINDOW_SCISSOR_BR_BR_X(W) | PA_SC_WINDOW_SCISSOR_BR_BR_Y(H));
	pm4_set_context_reg(cs, REG_PA_SC_GENERIC_SCISSOR_TL, PA_SC_GENERIC_SCISSOR_TL_WINDOW_OFFSET_DISABLE(1));
	pm4_set_context_reg(cs, REG_PA_SC_GENERIC_SCISSOR_BR, PA_SC_GENERIC_SCISSOR_BR_BR_X(W) | PA_SC_GENERIC_SCISSOR_BR_BR_Y(H));
	pm4_set_context_reg(cs, REG_PA_SC_SCREEN_SCISSOR_TL, 0);
	pm4_set_context_reg(cs, REG_PA_SC_SCREEN_SCISSOR_BR, PA_SC_SCREEN_SCISSOR_BR_BR_X(W) | PA_SC_SCREEN_SCISSOR_BR_BR_Y(H));
	pm4_set_context_reg(cs, REG_PA_SC_AA_MASK_X0Y0_X1Y0, 0xFFFFFFFFu);
	pm4_set_context_reg(cs, REG_PA_SC_AA_MASK_X0Y1_X1Y1, 0xFFFFFFFFu);
	if (samples == 4) {
		/* radeonsi's 4x locations: (-2,-6) (6,-2) (-6,2) (2,6) sixteenths */
		uint32_t locs = 0x622AE6AEu;
		pm4_set_context_reg(cs, REG_PA_SC_AA_CONFIG, PA_SC_AA_CONFIG_MSAA_NUM_SAMPLES(2));
		pm4_set_context_reg(cs, REG_PA_SC_MODE_CNTL_0, PA_SC_MODE_CNTL_0_MSAA_ENABLE(1));
		pm4_set_context_reg(cs, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0, locs);
		pm4_set_context_reg(cs, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X1Y0_0, locs);
		pm4_set_context_reg(cs, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y1_0, locs);
		pm4_set_context_reg(cs, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X1Y1_0, locs);
	}
	/* SPI: the PS */
	pm4_set_sh_reg(cs, REG_SPI_SHADER_PGM_LO_PS, (uint32_t)(psva >> 8));
	pm4_set_sh_reg(cs, REG_SPI_SHADER_PGM_HI_PS, (uint32_t)(psva >> 40));
	pm4_set_sh_reg(cs, REG_SPI_SHADER_PGM_RSRC1_PS, SPI_SHADER_PGM_RSRC1_PS_VGPRS(3) | SPI_SHADER_PGM_RSRC1_PS_SGPRS(1));
	pm4_set_sh_reg(cs, REG_SPI_SHADER_PGM_RSRC2_PS, 0);
	pm4_set_context_reg(cs, REG_SPI_PS_INPUT_ENA, ena);
	pm4_set_context_reg(cs, REG_SPI_PS_INPUT_ADDR, ena);
	pm4_set_context_reg(cs, REG_SPI_PS_IN_CONTROL, SPI_PS_IN_CONTROL_NUM_INTERP(1));
	pm4_set_context_reg(cs, REG_SPI_PS_INPUT_CNTL_0, SPI_PS_INPUT_CNTL_OFFSET(0));
	pm4_set_context_reg(cs, REG_SPI_SHADER_COL_FORMAT, SPI_SHADER_COL_FORMAT_COL0_EXPORT_FORMAT(V_SPI_SHADER_32_ABGR));
	pm4_set_context_reg(cs, REG_SPI_SHADER_Z_FORMAT, 0);
	/* DB: none; early Z */
	pm4_set_context_reg(cs, REG_DB_Z_INFO, 0);
	pm4_set_context_reg(cs, REG_DB_STENCIL_INFO, 0);
	pm4_set_context_reg(cs, REG_DB_SHADER_CONTROL, DB_SHADER_CONTROL_Z_ORDER(V_EARLY_Z_THEN_LATE_Z));
	pm4_set_context_reg(cs, REG_DB_COUNT_CONTROL, DB_COUNT_CONTROL_ZPASS_INCREMENT_DISABLE(1));
	/* CB: one linear target */
	pm4_set_context_reg(cs, REG_CB_COLOR_CONTROL, CB_COLOR_CONTROL_MODE(V_CB_NORMAL) | CB_COLOR_CONTROL_ROP3(0xCC));
	pm4_set_context_reg(cs, REG_CB_TARGET_MASK, 0xF);
	pm4_set_context_reg(cs, REG_CB_SHADER_MASK, 0xF);
	pm4_set_context_reg(cs, REG_CB_COLOR0_BASE, (uint32_t)(gm_bo_va(r->cb) >> 8));
	pm4_set_context_reg(cs, REG_CB_COLOR0_PITCH, CB_COLOR_PITCH_TILE_MAX(W / 8 - 1));
	pm4_set_context_reg(cs, REG_CB_COLOR0_SLICE, CB_COLOR_SLICE_TILE_MAX(W * H / 64 - 1));
	pm4_set_context_reg(cs, REG_CB_COLOR0_VIEW, 0);
	pm4_set_context_reg(cs, REG_CB_COLOR0_INFO, CB_COLOR_INFO_FORMAT(fmt) | CB_COLOR_INFO_NUMBER_TYPE(ntype));
	pm4_set_context_reg(cs, REG_CB_COLOR0_ATTRIB, CB_COLOR_ATTRIB_TILE_MODE_INDEX(8) |
			    CB_COLOR_ATTRIB_NUM_SAMPLES(samples == 4 ? 2 : 0));
	pm4_set_context_reg(cs, REG_CB_BLEND0_CONTROL, 0);
}

/* A vertex at window (x, y) (pixels; GL's window coordinates), depth z in
 * NDC, clip w, colour c. */
static struct vtx wv(float x, float y, float z, float w, float r, float g, float b, float a)
{
	struct vtx v = { { (x / (W / 2.0f) - 1) * w, (y / (H / 2.0f) - 1) * w, z * w, w }, { r, g, b, a } };
	return v;
}

static void draw(struct rt *r, unsigned prim, const struct vtx *v, unsigned n)
{
	memcpy(gm_bo_map(r->vb), v, n * sizeof *v);
	tgpu_draw_auto(&r->t, prim, n, 1);
}

static void submit_clean(struct rt *r)
{
	uint64_t before = gm_fault_count(r->t.gm);
	tgpu_submit(&r->t);
	CHECK_EQ_INT(gm_fault_count(r->t.gm) - before, 0);
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
	rt_init(&r, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
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
	rt_init(&r, V_COLOR_32_32_32_32, V_NUMBER_FLOAT, 16, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
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

	rt_init(&r, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
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
	rt_init(&r, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
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
	rt_init(&r, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
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
	rt_init(&r, V_COLOR_32_32_32_32, V_NUMBER_FLOAT, 16, 1, ps, SPI_PS_INPUT_ENA_POS_X_FLOAT_ENA(1));
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
	rt_init(&r, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 4, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
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

	rt_init(&r, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	pm4_set_context_reg(&r.t.cs, REG_PA_SU_POINT_SIZE, PA_SU_POINT_SIZE_WIDTH(16) | PA_SU_POINT_SIZE_HEIGHT(16));
	pm4_set_context_reg(&r.t.cs, REG_PA_SU_POINT_MINMAX, PA_SU_POINT_MINMAX_MAX_SIZE(0xFFFF));
	draw(&r, V_DI_PT_POINTLIST, p, 1);
	submit_clean(&r);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++)
			CHECK_EQ_INT(px8(&r, x, y)[0], (x == 2 || x == 3) && (y == 2 || y == 3) ? 255 : 0);
	tgpu_fini(&r.t);

	rt_init(&r, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth, SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	pm4_set_context_reg(&r.t.cs, REG_PA_SU_LINE_CNTL, PA_SU_LINE_CNTL_WIDTH(8));
	draw(&r, V_DI_PT_LINELIST, l, 2);
	submit_clean(&r);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++)
			CHECK_EQ_INT(px8(&r, x, y)[0], y == 2 && x <= 5 ? 255 : 0);
	tgpu_fini(&r.t);
}

int main(void)
{
	XT_RUN(test_fill_rule_shared_edge);
	XT_RUN(test_interpolation_perspective);
	XT_RUN(test_depth_test_and_occlusion_count);
	XT_RUN(test_blend_and_write_mask);
	XT_RUN(test_helpers_derivatives_discard);
	XT_RUN(test_msaa_4x_edge_samples);
	XT_RUN(test_point_and_line);
	XT_TEST_MAIN_END();
}
