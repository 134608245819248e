/*
 * gm_raster_util.h - a render target and the PA / SC / SPI / DB / CB state
 * radeonsi would write for it, a VS that fetches a clip position and a
 * colour per vertex, and a smooth-colour PS: what test_gm_raster.c and
 * bench/raster.c draw with (docs/isa.md "Pixel shaders").
 */
#ifndef GM_RASTER_UTIL_H
#define GM_RASTER_UTIL_H

#include <stdio.h>

#include "gm_test_util.h"

/* Vertex layout: clip position (4 floats), colour (4 floats). */
struct vtx { float p[4], c[4]; };

struct rt {
	struct tgpu t;
	struct gm_bo *vb, *cb, *zb, *query;
	unsigned w, h, samples;
};

#define RT_MAX_VERTICES 4096

static const char *const vs_src =
	"buffer_load_dwordx4 v[4:7], v0, s[0:3], 0 idxen\n"
	"buffer_load_dwordx4 v[8:11], v0, s[0:3], 0 offset:16 idxen\n"
	"exp pos0, v[4:7] done\n"
	"exp param0, v[8:11]\n"
	"s_endpgm\n";

/* param0 interpolated (PERSP_CENTER: v0 = I, v1 = J) to mrt0. */
static const char *const ps_smooth =
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

static inline uint32_t fbits(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

static inline void set_f(struct rt *r, uint32_t reg, float f) { pm4_set_context_reg(&r->t.cs, reg, fbits(f)); }

/* A W x H target (W a multiple of 8, W * H of 64) of `fmt`/`ntype` (bytes
 * per sample `bpp`), the viewport covering it (GL's glViewport(0, 0, W, H),
 * depth range [0, 1]), no depth buffer, the PS `ps` with `ena` inputs and
 * one interpolated input. */
static inline void rt_init(struct rt *r, unsigned W, unsigned H, unsigned fmt, unsigned ntype, unsigned bpp, unsigned samples,
		    const char *ps, uint32_t ena)
{
	struct pm4_cs *cs;
	uint64_t vs, psva;
	uint32_t desc[4];

	memset(r, 0, sizeof *r);
	tgpu_init(&r->t);
	cs = &r->t.cs;
	r->samples = samples;
	r->w = W;
	r->h = H;
	r->vb = tgpu_bo(&r->t, RT_MAX_VERTICES * sizeof(struct vtx));
	r->cb = tgpu_bo(&r->t, W * H * bpp * samples);
	r->zb = tgpu_bo(&r->t, W * H * 4 * samples);
	r->query = tgpu_bo(&r->t, 64);
	vs = tgpu_shader(&r->t, vs_src);
	psva = tgpu_shader(&r->t, ps);
	tgpu_desc(desc, gm_bo_va(r->vb), sizeof(struct vtx), RT_MAX_VERTICES, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
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
	if (samples > 1) {
		pm4_set_context_reg(cs, REG_PA_SC_AA_CONFIG, PA_SC_AA_CONFIG_MSAA_NUM_SAMPLES(samples == 2 ? 1 : samples == 4 ? 2 : 3));
		pm4_set_context_reg(cs, REG_PA_SC_MODE_CNTL_0, PA_SC_MODE_CNTL_0_MSAA_ENABLE(1));
	}
	if (samples == 4) {
		/* radeonsi's 4x locations: (-2,-6) (6,-2) (-6,2) (2,6) sixteenths */
		uint32_t locs = 0x622AE6AEu;
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
			    CB_COLOR_ATTRIB_NUM_SAMPLES(samples == 8 ? 3 : samples == 4 ? 2 : samples == 2 ? 1 : 0));
	pm4_set_context_reg(cs, REG_CB_BLEND0_CONTROL, 0);
}

/* A vertex at window (x, y) (pixels; GL's window coordinates) of a W x H
 * viewport, depth z in NDC, clip w, colour c. */
static inline struct vtx rt_vtx(unsigned W, unsigned H, float x, float y, float z, float w,
				float r, float g, float b, float a)
{
	struct vtx v = { { (x / (W / 2.0f) - 1) * w, (y / (H / 2.0f) - 1) * w, z * w, w }, { r, g, b, a } };
	return v;
}

static inline void draw(struct rt *r, unsigned prim, const struct vtx *v, unsigned n)
{
	memcpy(gm_bo_map(r->vb), v, n * sizeof *v);
	tgpu_draw_auto(&r->t, prim, n, 1);
}

static inline void submit_clean(struct rt *r)
{
	uint64_t before = gm_fault_count(r->t.gm);
	tgpu_submit(&r->t);
	CHECK_EQ_INT(gm_fault_count(r->t.gm) - before, 0);
}

#endif
