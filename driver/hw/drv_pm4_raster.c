/*
 * drv_pm4_raster.c - the pixel pipeline's state, as radeonsi emits it for
 * GFX8: the framebuffer (CB_COLORn_*, DB_*; si_emit_framebuffer_state),
 * viewport and scissors (PA_CL_VPORT_*, PA_SC_*_SCISSOR_*;
 * si_state_viewport.c), the rasterizer (PA_SU_SC_MODE_CNTL, PA_CL_CLIP_CNTL,
 * PA_SU_POINT_*, PA_SU_LINE_CNTL, PA_SC_MODE_CNTL_0; si_create_rs_state),
 * depth-stencil (DB_DEPTH_CONTROL, DB_STENCIL_CONTROL, DB_STENCILREFMASK*;
 * si_create_dsa_state), blending (CB_BLENDn_CONTROL, CB_BLEND_RED..,
 * CB_COLOR_CONTROL, CB_TARGET_MASK; si_create_blend_state), DB_COUNT_CONTROL
 * (si_emit_db_render_state) and the pixel shader (SPI_SHADER_PGM_*_PS,
 * SPI_PS_*, SPI_SHADER_*_FORMAT, CB_SHADER_MASK, DB_SHADER_CONTROL;
 * si_shader_ps, si_emit_spi_map).
 *
 * A draw binds its pixel shader only when the driver emits everything the
 * model needs for it (drv_pm4_ps_unusable); otherwise no pixel shader is
 * bound (the model then ends the primitives after streamout) and the
 * draw's surfaces are marked as holding what the model did not draw.
 *
 * Two atoms: DRV_ATOM_FRAMEBUFFER and DRV_ATOM_PIXEL, and the pixel
 * shader's registers when the bound shader changes.  They are emitted
 * by draws that reach the rasterizer only; under GL_RASTERIZER_DISCARD
 * (DX_RASTERIZATION_KILL) nothing they program is used, and a TF-only
 * trace keeps the PM4 it had before the pixel pipeline existed.
 * PA_CL_CLIP_CNTL and PA_SU_SC_MODE_CNTL are DRV_ATOM_RASTER's
 * (drv_pm4_state.c), which every draw emits: drv_pm4_clip_cntl and
 * drv_pm4_su_sc_mode_cntl compute them here, and with GL's default state
 * they hold only the rasterization kill and the provoking vertex.
 *
 * Surfaces are linear (docs/isa.md "Pixel shaders", "Surfaces"):
 * TILE_MODE_INDEX 8 (ARRAY_LINEAR_ALIGNED in VI's table), pitch in tiles
 * of 8 pixels, heights rounded up to 8 rows.
 */
#include <string.h>

#include "drv_hw.h"

#define DRV_MAX_POINT_SIZE 8192.0f   /* pixels (PA_SU_POINT_MINMAX) */

static uint32_t fui(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* 12.4 fixed point (si_pack_float_12p4). */
static uint32_t pack_12p4(float x)
{
	return x <= 0 ? 0 : x >= 4095 ? 0xFFFF : (uint32_t)(x * 16);
}

static uint32_t log2_samples(uint32_t samples)
{
	return samples >= 8 ? 3 : samples >= 4 ? 2 : samples >= 2 ? 1 : 0;
}

/*
 * radeonsi's sample patterns (si_state_msaa.c, the standard D3D positions):
 * 4-bit signed offsets in 1/16 pixel from the pixel centre, x then y, the
 * largest distance (MAX_SAMPLE_DIST) and the centroid order
 * (PA_SC_CENTROID_PRIORITY_0/1, 4 bits each: field k is the sample k-th
 * nearest to the centre).
 */
struct msaa_pattern {
	unsigned samples, max_dist;
	int8_t loc[8][2];
	uint64_t centroid_priority;
};

static const struct msaa_pattern msaa_patterns[] = {
	{ 2, 4, { { 4, 4 }, { -4, -4 } }, 0x1010101010101010ull },
	{ 4, 6, { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } }, 0x3210321032103210ull },
	{ 8, 7, { { 1, -3 }, { -1, 3 }, { 5, 1 }, { -3, -5 }, { -5, 5 }, { -7, -1 }, { 3, 7 }, { 7, -7 } },
	  0x3546012735460127ull },
};

/* The pattern of a target of `samples` samples (the model's counts: 2, 4, 8). */
static const struct msaa_pattern *msaa_pattern(uint32_t samples)
{
	return &msaa_patterns[samples >= 8 ? 2 : samples >= 4 ? 1 : 0];
}

bool drv_pipe_sample_position(uint32_t samples, uint32_t index, float xy[2])
{
	const struct msaa_pattern *pat;

	if (samples <= 1) {
		if (index)
			return false;
		xy[0] = xy[1] = 0.5f;
		return true;
	}
	pat = msaa_pattern(samples);
	if (index >= pat->samples)
		return false;
	/* the PA covers sample s of pixel (x, y) at (x + 1/2 + dx / 16,
	 * y + 1/2 + dy / 16) of GL's window coordinates (docs/pixel-pipeline.md),
	 * which is what radeonsi's si_get_sample_position reports too */
	xy[0] = (float)(8 + pat->loc[index][0]) / 16.0f;
	xy[1] = (float)(8 + pat->loc[index][1]) / 16.0f;
	return true;
}

/* PA_CL_GB_*_DISC_ADJ for viewport scale `scale` (pixels per NDC unit). */
static float disc_adj(const struct drv_pipe_rasterizer_state *rs, float scale)
{
	float s = scale < 0 ? -scale : scale;
	return rs->point_clip_xy || !(s > 0) ? 1.0f : 1.0f + DRV_MAX_POINT_SIZE / (2 * s);
}

/* ---- the state setters ------------------------------------------------------------------ */

void drv_pipe_set_rasterizer(struct drv_pipe *pipe, const struct drv_pipe_rasterizer_state *rs)
{
	if (memcmp(&pipe->rs, rs, sizeof *rs)) {
		pipe->rs = *rs;
		pipe->dirty |= 1u << DRV_ATOM_PIXEL | 1u << DRV_ATOM_RASTER;
	}
}

void drv_pipe_set_depth_stencil(struct drv_pipe *pipe, const struct drv_pipe_depth_stencil_state *dsa)
{
	if (memcmp(&pipe->dsa, dsa, sizeof *dsa)) {
		pipe->dsa = *dsa;
		pipe->dirty |= 1u << DRV_ATOM_PIXEL;
	}
}

void drv_pipe_set_blend(struct drv_pipe *pipe, const struct drv_pipe_blend_state *blend)
{
	if (memcmp(&pipe->blend, blend, sizeof *blend)) {
		pipe->blend = *blend;
		pipe->dirty |= 1u << DRV_ATOM_PIXEL;
	}
}

void drv_pipe_set_viewport(struct drv_pipe *pipe, const struct drv_pipe_viewport_state *vp)
{
	if (memcmp(&pipe->viewport, vp, sizeof *vp)) {
		pipe->viewport = *vp;
		pipe->dirty |= 1u << DRV_ATOM_PIXEL;
	}
}

void drv_pipe_set_scissor(struct drv_pipe *pipe, const struct drv_pipe_rect *scissor)
{
	if (memcmp(&pipe->scissor, scissor, sizeof *scissor)) {
		pipe->scissor = *scissor;
		pipe->dirty |= 1u << DRV_ATOM_PIXEL;
	}
}

void drv_pipe_set_clip_planes(struct drv_pipe *pipe, const float planes[6][4])
{
	if (memcmp(pipe->clip_planes, planes, sizeof pipe->clip_planes)) {
		memcpy(pipe->clip_planes, planes, sizeof pipe->clip_planes);
		pipe->dirty |= 1u << DRV_ATOM_PIXEL;
	}
}

/* ---- registers every draw emits (DRV_ATOM_RASTER) ------------------------------------------- */

uint32_t drv_pm4_clip_cntl(const struct drv_pipe *pipe)
{
	const struct drv_pipe_rasterizer_state *rs = &pipe->rs;
	uint32_t ucp = rs->clip_plane_enable & 0x3Fu;

	/* si_create_rs_state: GL's clip space (DX_CLIP_SPACE_DEF 0: -w <= z),
	 * depth clamp disables the near / far planes; si_emit_clip_regs: the
	 * user planes */
	return PA_CL_CLIP_CNTL_UCP_ENA_0(ucp & 1) | PA_CL_CLIP_CNTL_UCP_ENA_1(ucp >> 1 & 1) |
	       PA_CL_CLIP_CNTL_UCP_ENA_2(ucp >> 2 & 1) | PA_CL_CLIP_CNTL_UCP_ENA_3(ucp >> 3 & 1) |
	       PA_CL_CLIP_CNTL_UCP_ENA_4(ucp >> 4 & 1) | PA_CL_CLIP_CNTL_UCP_ENA_5(ucp >> 5 & 1) |
	       PA_CL_CLIP_CNTL_ZCLIP_NEAR_DISABLE(rs->depth_clamp) |
	       PA_CL_CLIP_CNTL_ZCLIP_FAR_DISABLE(rs->depth_clamp) |
	       PA_CL_CLIP_CNTL_DX_RASTERIZATION_KILL(pipe->rasterizer_discard);
}

/* si_translate_fill: POLYMODE_*_PTYPE 0 points, 1 lines, 2 triangles. */
static uint32_t fill_ptype(enum drv_pipe_fill f)
{
	return f == DRV_FILL_POINT ? 0 : f == DRV_FILL_LINE ? 1 : 2;
}

uint32_t drv_pm4_su_sc_mode_cntl(const struct drv_pipe *pipe)
{
	const struct drv_pipe_rasterizer_state *rs = &pipe->rs;
	bool poly_mode = rs->fill_front != DRV_FILL_FILL || rs->fill_back != DRV_FILL_FILL;
	/* si_create_rs_state: the offset enables follow each face's fill mode */
	bool off_front = rs->fill_front == DRV_FILL_FILL ? rs->offset_tri
		       : rs->fill_front == DRV_FILL_LINE ? rs->offset_line : rs->offset_point;
	bool off_back = rs->fill_back == DRV_FILL_FILL ? rs->offset_tri
		      : rs->fill_back == DRV_FILL_LINE ? rs->offset_line : rs->offset_point;

	return PA_SU_SC_MODE_CNTL_CULL_FRONT(rs->cull_front) |
	       PA_SU_SC_MODE_CNTL_CULL_BACK(rs->cull_back) |
	       PA_SU_SC_MODE_CNTL_FACE(!rs->front_ccw) |
	       PA_SU_SC_MODE_CNTL_POLY_MODE(poly_mode) |
	       PA_SU_SC_MODE_CNTL_POLYMODE_FRONT_PTYPE(poly_mode ? fill_ptype(rs->fill_front) : 0) |
	       PA_SU_SC_MODE_CNTL_POLYMODE_BACK_PTYPE(poly_mode ? fill_ptype(rs->fill_back) : 0) |
	       PA_SU_SC_MODE_CNTL_POLY_OFFSET_FRONT_ENABLE(off_front) |
	       PA_SU_SC_MODE_CNTL_POLY_OFFSET_BACK_ENABLE(off_back) |
	       PA_SU_SC_MODE_CNTL_PROVOKING_VTX_LAST(!pipe->flatshade_first);
}

/* ---- the framebuffer ------------------------------------------------------------------------ */

/* CB_COLORn_INFO.FORMAT / NUMBER_TYPE of a colour format (si_translate_colorformat). */
static void cb_format(enum drv_pipe_format f, uint32_t *format, uint32_t *ntype)
{
	switch (f) {
	case DRV_FORMAT_RGBA8_UNORM: *format = V_COLOR_8_8_8_8; *ntype = V_NUMBER_UNORM; return;
	case DRV_FORMAT_RG8_UNORM: *format = V_COLOR_8_8; *ntype = V_NUMBER_UNORM; return;
	case DRV_FORMAT_R8_UNORM: *format = V_COLOR_8; *ntype = V_NUMBER_UNORM; return;
	case DRV_FORMAT_RGBA16_FLOAT: *format = V_COLOR_16_16_16_16; *ntype = V_NUMBER_FLOAT; return;
	case DRV_FORMAT_RGBA32_FLOAT: *format = V_COLOR_32_32_32_32; *ntype = V_NUMBER_FLOAT; return;
	case DRV_FORMAT_RG32_FLOAT: *format = V_COLOR_32_32; *ntype = V_NUMBER_FLOAT; return;
	case DRV_FORMAT_R32_FLOAT: *format = V_COLOR_32; *ntype = V_NUMBER_FLOAT; return;
	case DRV_FORMAT_RGBA32_UINT: *format = V_COLOR_32_32_32_32; *ntype = V_NUMBER_UINT; return;
	case DRV_FORMAT_RGBA32_SINT: *format = V_COLOR_32_32_32_32; *ntype = V_NUMBER_SINT; return;
	case DRV_FORMAT_R32_UINT: *format = V_COLOR_32; *ntype = V_NUMBER_UINT; return;
	case DRV_FORMAT_R32_SINT: *format = V_COLOR_32; *ntype = V_NUMBER_SINT; return;
	default: *format = V_COLOR_INVALID; *ntype = V_NUMBER_UNORM; return;
	}
}

static uint32_t rows8(uint32_t height)
{
	return (height + 7u) & ~7u;
}

static void emit_framebuffer(struct drv_pipe *pipe, struct pm4_cs *cs)
{
	const struct drv_pipe_framebuffer *fb = &pipe->fb;
	uint32_t w = 16384, h = 16384, samples = 1;
	bool any = false;

	for (unsigned i = 0; i < 8; i++) {
		const struct drv_pipe_surface *s = fb->cbufs[i];
		uint32_t format, ntype;
		if (!s || !s->bo) {
			pm4_set_context_reg(cs, REG_CB_COLOR_INFO(i), CB_COLOR_INFO_FORMAT(V_COLOR_INVALID));
			continue;
		}
		const struct drv_pipe_format_info *fi = drv_pipe_format_info(s->format);
		cb_format(s->format, &format, &ntype);
		if (pm4_set_reg_seq(cs, REG_CB_COLOR_BASE(i), 6)) {
			pm4_emit(cs, (uint32_t)(s->bo->va >> 8));
			pm4_emit(cs, CB_COLOR_PITCH_TILE_MAX(s->pitch / 8 - 1));
			pm4_emit(cs, CB_COLOR_SLICE_TILE_MAX(s->pitch * rows8(s->height) / 64 - 1));
			pm4_emit(cs, 0);          /* CB_COLORn_VIEW: slice 0 */
			/* si_initialize_color_surface: integer formats bypass
			 * blending, normalized ones clamp, ROUND_MODE for the
			 * others */
			pm4_emit(cs, CB_COLOR_INFO_FORMAT(format) | CB_COLOR_INFO_NUMBER_TYPE(ntype) |
				     CB_COLOR_INFO_COMP_SWAP(V_SWAP_STD) |
				     CB_COLOR_INFO_BLEND_CLAMP(ntype == V_NUMBER_UNORM) |
				     CB_COLOR_INFO_BLEND_BYPASS(fi->is_uint || fi->is_sint) |
				     CB_COLOR_INFO_SIMPLE_FLOAT(1) |
				     CB_COLOR_INFO_ROUND_MODE(ntype != V_NUMBER_UNORM));
			pm4_emit(cs, CB_COLOR_ATTRIB_TILE_MODE_INDEX(8) |
				     CB_COLOR_ATTRIB_NUM_SAMPLES(log2_samples(s->samples)) |
				     CB_COLOR_ATTRIB_NUM_FRAGMENTS(log2_samples(s->samples)));
		}
		w = any && w < s->width ? w : s->width;
		h = any && h < s->height ? h : s->height;
		samples = s->samples;
		any = true;
	}
	if (fb->zsbuf && fb->zsbuf->bo) {
		const struct drv_pipe_surface *z = fb->zsbuf;
		const struct drv_pipe_format_info *fi = drv_pipe_format_info(z->format);
		uint32_t zfmt = !fi->depth ? V_Z_INVALID : z->format == DRV_FORMAT_Z16_UNORM ? V_Z_16
			      : fi->is_float ? V_Z_32_FLOAT : V_Z_24;
		uint64_t sva = z->bo->va + z->stencil_offset;
		pm4_set_context_reg(cs, REG_DB_DEPTH_VIEW, 0);
		if (pm4_set_reg_seq(cs, REG_DB_DEPTH_INFO, 9)) {
			pm4_emit(cs, DB_DEPTH_INFO_ARRAY_MODE(V_ARRAY_LINEAR_ALIGNED));
			pm4_emit(cs, DB_Z_INFO_FORMAT(zfmt) | DB_Z_INFO_NUM_SAMPLES(log2_samples(z->samples)) |
				     DB_Z_INFO_TILE_MODE_INDEX(8));
			pm4_emit(cs, DB_STENCIL_INFO_FORMAT(fi->stencil ? V_STENCIL_8 : V_STENCIL_INVALID) |
				     DB_STENCIL_INFO_TILE_MODE_INDEX(8));
			pm4_emit(cs, (uint32_t)(z->bo->va >> 8));      /* DB_Z_READ_BASE */
			pm4_emit(cs, (uint32_t)(sva >> 8));            /* DB_STENCIL_READ_BASE */
			pm4_emit(cs, (uint32_t)(z->bo->va >> 8));      /* DB_Z_WRITE_BASE */
			pm4_emit(cs, (uint32_t)(sva >> 8));            /* DB_STENCIL_WRITE_BASE */
			pm4_emit(cs, DB_DEPTH_SIZE_PITCH_TILE_MAX(z->pitch / 8 - 1) |
				     DB_DEPTH_SIZE_HEIGHT_TILE_MAX(rows8(z->height) / 8 - 1));
			pm4_emit(cs, DB_DEPTH_SLICE_SLICE_TILE_MAX(z->pitch * rows8(z->height) / 64 - 1));
		}
		w = any && w < z->width ? w : z->width;
		h = any && h < z->height ? h : z->height;
		samples = z->samples;
		any = true;
	} else if (pm4_set_reg_seq(cs, REG_DB_Z_INFO, 2)) {
		pm4_emit(cs, DB_Z_INFO_FORMAT(V_Z_INVALID));
		pm4_emit(cs, DB_STENCIL_INFO_FORMAT(V_STENCIL_INVALID));
	}
	/* si_emit_framebuffer_state: the window scissor is the framebuffer */
	pm4_set_context_reg(cs, REG_PA_SC_WINDOW_SCISSOR_TL,
			    PA_SC_WINDOW_SCISSOR_TL_WINDOW_OFFSET_DISABLE(1));
	pm4_set_context_reg(cs, REG_PA_SC_WINDOW_SCISSOR_BR,
			    PA_SC_WINDOW_SCISSOR_BR_BR_X(w) | PA_SC_WINDOW_SCISSOR_BR_BR_Y(h));
	pipe->fb_width = w;
	pipe->fb_height = h;
	/* si_emit_msaa_sample_locs / si_emit_msaa_config: the pattern of the
	 * target's sample count, the same for the four pixels of a quad */
	if (samples >= 2) {
		const struct msaa_pattern *pat = msaa_pattern(samples);
		uint32_t v[2] = { 0, 0 };
		for (unsigned s = 0; s < pat->samples; s++)
			v[s / 4] |= ((uint32_t)pat->loc[s][0] & 0xFu) << (8 * (s % 4)) |
				    ((uint32_t)pat->loc[s][1] & 0xFu) << (8 * (s % 4) + 4);
		for (unsigned r = 0; r < 2; r++) {
			pm4_set_context_reg(cs, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0(r), v[r]);
			pm4_set_context_reg(cs, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X1Y0(r), v[r]);
			pm4_set_context_reg(cs, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y1(r), v[r]);
			pm4_set_context_reg(cs, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X1Y1(r), v[r]);
		}
		if (pm4_set_reg_seq(cs, REG_PA_SC_CENTROID_PRIORITY_0, 2)) {
			pm4_emit(cs, (uint32_t)pat->centroid_priority);
			pm4_emit(cs, (uint32_t)(pat->centroid_priority >> 32));
		}
		pm4_set_context_reg(cs, REG_PA_SC_AA_CONFIG,
				    PA_SC_AA_CONFIG_MSAA_NUM_SAMPLES(log2_samples(pat->samples)) |
				    PA_SC_AA_CONFIG_MAX_SAMPLE_DIST(pat->max_dist) |
				    PA_SC_AA_CONFIG_MSAA_EXPOSED_SAMPLES(log2_samples(pat->samples)));
	} else {
		pm4_set_context_reg(cs, REG_PA_SC_AA_CONFIG, 0);
	}
	/* si_emit_msaa_sample_locs / the sample mask: every sample of the
	 * four pixels of a quad (GL's sample mask is not modelled) */
	if (pm4_set_reg_seq(cs, REG_PA_SC_AA_MASK_X0Y0_X1Y0, 2)) {
		pm4_emit(cs, 0xFFFFFFFFu);
		pm4_emit(cs, 0xFFFFFFFFu);
	}
	pipe->fb_samples = samples;
}

/* ---- viewport, scissors, rasterizer, depth-stencil, blend ------------------------------------- */

static uint32_t stencil_op(enum drv_pipe_stencil_op op)
{
	static const uint32_t t[] = {
		[DRV_STENCIL_KEEP] = V_STENCIL_KEEP, [DRV_STENCIL_ZERO] = V_STENCIL_ZERO,
		[DRV_STENCIL_REPLACE] = V_STENCIL_REPLACE_TEST, [DRV_STENCIL_INCR] = V_STENCIL_ADD_CLAMP,
		[DRV_STENCIL_DECR] = V_STENCIL_SUB_CLAMP, [DRV_STENCIL_INVERT] = V_STENCIL_INVERT,
		[DRV_STENCIL_INCR_WRAP] = V_STENCIL_ADD_WRAP, [DRV_STENCIL_DECR_WRAP] = V_STENCIL_SUB_WRAP,
	};
	return (unsigned)op < sizeof t / sizeof t[0] ? t[op] : V_STENCIL_KEEP;
}

static uint32_t blend_factor(enum drv_pipe_blend_factor f)
{
	static const uint32_t t[] = {
		[DRV_BLEND_ZERO] = V_BLEND_ZERO, [DRV_BLEND_ONE] = V_BLEND_ONE,
		[DRV_BLEND_SRC_COLOR] = V_BLEND_SRC_COLOR, [DRV_BLEND_INV_SRC_COLOR] = V_BLEND_ONE_MINUS_SRC_COLOR,
		[DRV_BLEND_SRC_ALPHA] = V_BLEND_SRC_ALPHA, [DRV_BLEND_INV_SRC_ALPHA] = V_BLEND_ONE_MINUS_SRC_ALPHA,
		[DRV_BLEND_DST_ALPHA] = V_BLEND_DST_ALPHA, [DRV_BLEND_INV_DST_ALPHA] = V_BLEND_ONE_MINUS_DST_ALPHA,
		[DRV_BLEND_DST_COLOR] = V_BLEND_DST_COLOR, [DRV_BLEND_INV_DST_COLOR] = V_BLEND_ONE_MINUS_DST_COLOR,
		[DRV_BLEND_SRC_ALPHA_SATURATE] = V_BLEND_SRC_ALPHA_SATURATE,
		[DRV_BLEND_CONST_COLOR] = V_BLEND_CONSTANT_COLOR,
		[DRV_BLEND_INV_CONST_COLOR] = V_BLEND_ONE_MINUS_CONSTANT_COLOR,
		[DRV_BLEND_CONST_ALPHA] = V_BLEND_CONSTANT_ALPHA,
		[DRV_BLEND_INV_CONST_ALPHA] = V_BLEND_ONE_MINUS_CONSTANT_ALPHA,
		[DRV_BLEND_SRC1_COLOR] = V_BLEND_SRC1_COLOR, [DRV_BLEND_INV_SRC1_COLOR] = V_BLEND_INV_SRC1_COLOR,
		[DRV_BLEND_SRC1_ALPHA] = V_BLEND_SRC1_ALPHA, [DRV_BLEND_INV_SRC1_ALPHA] = V_BLEND_INV_SRC1_ALPHA,
	};
	return (unsigned)f < sizeof t / sizeof t[0] ? t[f] : V_BLEND_ONE;
}

static uint32_t blend_func(enum drv_pipe_blend_func f)
{
	switch (f) {
	case DRV_BLEND_SUBTRACT: return V_COMB_SRC_MINUS_DST;
	case DRV_BLEND_REVERSE_SUBTRACT: return V_COMB_DST_MINUS_SRC;
	case DRV_BLEND_MIN: return V_COMB_MIN_DST_SRC;
	case DRV_BLEND_MAX: return V_COMB_MAX_DST_SRC;
	default: return V_COMB_DST_PLUS_SRC;
	}
}

static void emit_pixel(struct drv_pipe *pipe, struct pm4_cs *cs)
{
	const struct drv_pipe_rasterizer_state *rs = &pipe->rs;
	const struct drv_pipe_depth_stencil_state *dsa = &pipe->dsa;
	const struct drv_pipe_blend_state *bl = &pipe->blend;
	const struct drv_pipe_viewport_state *vp = &pipe->viewport;
	struct drv_pipe_rect sc = { 0, 0, (int32_t)pipe->fb_width, (int32_t)pipe->fb_height };
	uint32_t target_mask = 0;

	/* si_emit_viewports / si_emit_depth_ranges */
	if (pm4_set_reg_seq(cs, REG_PA_CL_VPORT_XSCALE(0), 6)) {
		pm4_emit(cs, fui(vp->scale[0]));
		pm4_emit(cs, fui(vp->translate[0]));
		pm4_emit(cs, fui(vp->scale[1]));
		pm4_emit(cs, fui(vp->translate[1]));
		pm4_emit(cs, fui(vp->scale[2]));
		pm4_emit(cs, fui(vp->translate[2]));
	}
	if (pm4_set_reg_seq(cs, REG_PA_SC_VPORT_ZMIN(0), 2)) {
		pm4_emit(cs, fui(vp->zmin));
		pm4_emit(cs, fui(vp->zmax));
	}
	pm4_set_context_reg(cs, REG_PA_CL_VTE_CNTL,
			    PA_CL_VTE_CNTL_VPORT_X_SCALE_ENA(1) | PA_CL_VTE_CNTL_VPORT_X_OFFSET_ENA(1) |
			    PA_CL_VTE_CNTL_VPORT_Y_SCALE_ENA(1) | PA_CL_VTE_CNTL_VPORT_Y_OFFSET_ENA(1) |
			    PA_CL_VTE_CNTL_VPORT_Z_SCALE_ENA(1) | PA_CL_VTE_CNTL_VPORT_Z_OFFSET_ENA(1) |
			    PA_CL_VTE_CNTL_VTX_W0_FMT(1));
	/* si_init_config: pixel centres at half pixels, 1/256 subpixels */
	pm4_set_context_reg(cs, REG_PA_SU_VTX_CNTL,
			    PA_SU_VTX_CNTL_PIX_CENTER(1) | PA_SU_VTX_CNTL_ROUND_MODE(V_X_ROUND_TO_EVEN) |
			    PA_SU_VTX_CNTL_QUANT_MODE(V_X_16_8_FIXED_POINT_1_256TH));
	/* no guard band (clip adjust 1); the discard band the PA drops points
	 * outside of is the view volume's x / y planes for GL and, for GLES,
	 * as far out as half the largest point reaches (si_emit_guardband:
	 * 1 + max point size / (2 * viewport scale)) */
	if (pm4_set_reg_seq(cs, REG_PA_CL_GB_VERT_CLIP_ADJ, 4)) {
		pm4_emit(cs, fui(1.0f));
		pm4_emit(cs, fui(disc_adj(rs, vp->scale[1])));
		pm4_emit(cs, fui(1.0f));
		pm4_emit(cs, fui(disc_adj(rs, vp->scale[0])));
	}
	/* scissors: the screen and generic ones open, the viewport scissor
	 * is GL's scissor box when the test is on */
	pm4_set_context_reg(cs, REG_PA_SC_SCREEN_SCISSOR_TL, 0);
	pm4_set_context_reg(cs, REG_PA_SC_SCREEN_SCISSOR_BR,
			    PA_SC_SCREEN_SCISSOR_BR_BR_X(16384) | PA_SC_SCREEN_SCISSOR_BR_BR_Y(16384));
	pm4_set_context_reg(cs, REG_PA_SC_GENERIC_SCISSOR_TL,
			    PA_SC_GENERIC_SCISSOR_TL_WINDOW_OFFSET_DISABLE(1));
	pm4_set_context_reg(cs, REG_PA_SC_GENERIC_SCISSOR_BR,
			    PA_SC_GENERIC_SCISSOR_BR_BR_X(16384) | PA_SC_GENERIC_SCISSOR_BR_BR_Y(16384));
	if (rs->scissor) {
		sc.x0 = pipe->scissor.x0 > 0 ? pipe->scissor.x0 : 0;
		sc.y0 = pipe->scissor.y0 > 0 ? pipe->scissor.y0 : 0;
		sc.x1 = pipe->scissor.x1 < sc.x1 ? pipe->scissor.x1 : sc.x1;
		sc.y1 = pipe->scissor.y1 < sc.y1 ? pipe->scissor.y1 : sc.y1;
		if (sc.x1 < sc.x0)
			sc.x1 = sc.x0;
		if (sc.y1 < sc.y0)
			sc.y1 = sc.y0;
	}
	pm4_set_context_reg(cs, REG_PA_SC_VPORT_SCISSOR_TL(0),
			    PA_SC_VPORT_SCISSOR_TL_TL_X((uint32_t)sc.x0) |
			    PA_SC_VPORT_SCISSOR_TL_TL_Y((uint32_t)sc.y0) |
			    PA_SC_VPORT_SCISSOR_TL_WINDOW_OFFSET_DISABLE(1));
	pm4_set_context_reg(cs, REG_PA_SC_VPORT_SCISSOR_BR(0),
			    PA_SC_VPORT_SCISSOR_BR_BR_X((uint32_t)sc.x1) |
			    PA_SC_VPORT_SCISSOR_BR_BR_Y((uint32_t)sc.y1));
	pm4_set_context_reg(cs, REG_PA_SC_MODE_CNTL_0,
			    PA_SC_MODE_CNTL_0_MSAA_ENABLE(pipe->fb_samples > 1) |
			    PA_SC_MODE_CNTL_0_VPORT_SCISSOR_ENABLE(1));
	/* si_create_rs_state: points and lines, half sizes in 12.4 */
	pm4_set_context_reg(cs, REG_PA_SU_POINT_SIZE,
			    PA_SU_POINT_SIZE_HEIGHT(pack_12p4(rs->point_size / 2)) |
			    PA_SU_POINT_SIZE_WIDTH(pack_12p4(rs->point_size / 2)));
	pm4_set_context_reg(cs, REG_PA_SU_POINT_MINMAX,
			    PA_SU_POINT_MINMAX_MIN_SIZE(0) |
			    PA_SU_POINT_MINMAX_MAX_SIZE(pack_12p4(DRV_MAX_POINT_SIZE / 2)));
	pm4_set_context_reg(cs, REG_PA_SU_LINE_CNTL, PA_SU_LINE_CNTL_WIDTH(pack_12p4(rs->line_width / 2)));
	pm4_set_context_reg(cs, REG_PA_SC_LINE_CNTL, 0);
	/* si_emit_clip_state: the user planes */
	for (unsigned i = 0; i < 6; i++) {
		if (!(rs->clip_plane_enable >> i & 1) || !pm4_set_reg_seq(cs, REG_PA_CL_UCP_0_X + 16 * i, 4))
			continue;
		for (unsigned c = 0; c < 4; c++)
			pm4_emit(cs, fui(pipe->clip_planes[i][c]));
	}
	/* si_create_dsa_state */
	pm4_set_context_reg(cs, REG_DB_DEPTH_CONTROL,
			    DB_DEPTH_CONTROL_Z_ENABLE(dsa->depth_enable) |
			    DB_DEPTH_CONTROL_Z_WRITE_ENABLE(dsa->depth_enable && dsa->depth_write) |
			    DB_DEPTH_CONTROL_ZFUNC(dsa->depth_func) |
			    DB_DEPTH_CONTROL_STENCIL_ENABLE(dsa->stencil[0].enabled) |
			    DB_DEPTH_CONTROL_STENCILFUNC(dsa->stencil[0].func) |
			    DB_DEPTH_CONTROL_BACKFACE_ENABLE(dsa->stencil[1].enabled) |
			    DB_DEPTH_CONTROL_STENCILFUNC_BF(dsa->stencil[1].func));
	pm4_set_context_reg(cs, REG_DB_STENCIL_CONTROL,
			    DB_STENCIL_CONTROL_STENCILFAIL(stencil_op(dsa->stencil[0].fail_op)) |
			    DB_STENCIL_CONTROL_STENCILZPASS(stencil_op(dsa->stencil[0].zpass_op)) |
			    DB_STENCIL_CONTROL_STENCILZFAIL(stencil_op(dsa->stencil[0].zfail_op)) |
			    DB_STENCIL_CONTROL_STENCILFAIL_BF(stencil_op(dsa->stencil[1].fail_op)) |
			    DB_STENCIL_CONTROL_STENCILZPASS_BF(stencil_op(dsa->stencil[1].zpass_op)) |
			    DB_STENCIL_CONTROL_STENCILZFAIL_BF(stencil_op(dsa->stencil[1].zfail_op)));
	if (pm4_set_reg_seq(cs, REG_DB_STENCILREFMASK, 2)) {
		for (unsigned f = 0; f < 2; f++)
			pm4_emit(cs, DB_STENCILREFMASK_STENCILTESTVAL(dsa->stencil[f].ref) |
				     DB_STENCILREFMASK_STENCILMASK(dsa->stencil[f].valuemask) |
				     DB_STENCILREFMASK_STENCILWRITEMASK(dsa->stencil[f].writemask) |
				     DB_STENCILREFMASK_STENCILOPVAL(1));
	}
	/* si_create_blend_state */
	for (unsigned i = 0; i < 8; i++) {
		const struct drv_pipe_rt_blend *rt = &bl->rt[i];
		bool on = rt->enable && pipe->fb.cbufs[i] && !bl->logicop_enable;
		bool separate = rt->rgb_func != rt->alpha_func || rt->rgb_src != rt->alpha_src ||
				rt->rgb_dst != rt->alpha_dst;
		target_mask |= (uint32_t)(pipe->fb.cbufs[i] ? rt->colormask & 0xF : 0) << (4 * i);
		/* MIN / MAX ignore the factors: ONE, ONE (si_create_blend_state) */
		bool rgb_minmax = rt->rgb_func == DRV_BLEND_MIN || rt->rgb_func == DRV_BLEND_MAX;
		bool a_minmax = rt->alpha_func == DRV_BLEND_MIN || rt->alpha_func == DRV_BLEND_MAX;
		pm4_set_context_reg(cs, REG_CB_BLEND_CONTROL(i),
				    !on ? 0
					: CB_BLEND_CONTROL_ENABLE(1) |
						  CB_BLEND_CONTROL_COLOR_COMB_FCN(blend_func(rt->rgb_func)) |
						  CB_BLEND_CONTROL_COLOR_SRCBLEND(rgb_minmax ? V_BLEND_ONE : blend_factor(rt->rgb_src)) |
						  CB_BLEND_CONTROL_COLOR_DESTBLEND(rgb_minmax ? V_BLEND_ONE : blend_factor(rt->rgb_dst)) |
						  CB_BLEND_CONTROL_SEPARATE_ALPHA_BLEND(separate) |
						  CB_BLEND_CONTROL_ALPHA_COMB_FCN(blend_func(rt->alpha_func)) |
						  CB_BLEND_CONTROL_ALPHA_SRCBLEND(a_minmax ? V_BLEND_ONE : blend_factor(rt->alpha_src)) |
						  CB_BLEND_CONTROL_ALPHA_DESTBLEND(a_minmax ? V_BLEND_ONE : blend_factor(rt->alpha_dst)));
	}
	if (pm4_set_reg_seq(cs, REG_CB_BLEND_RED, 4)) {
		for (unsigned c = 0; c < 4; c++)
			pm4_emit(cs, fui(bl->color[c]));
	}
	/* the logic op's 4-bit GL function as ROP3: func * 0x11 (radeonsi);
	 * COPY (0xCC) without it */
	pm4_set_context_reg(cs, REG_CB_COLOR_CONTROL,
			    CB_COLOR_CONTROL_MODE(target_mask ? V_CB_NORMAL : V_CB_DISABLE) |
			    CB_COLOR_CONTROL_ROP3(bl->logicop_enable ? (bl->logicop & 0xFu) * 0x11u : 0xCCu));
	/* si_emit_cb_render_state */
	pm4_set_context_reg(cs, REG_CB_TARGET_MASK, target_mask);
	/* si_emit_db_render_state: the ZPASS counter counts (every sample)
	 * while an occlusion query is active (not in a blit's draw) */
	pm4_set_context_reg(cs, REG_DB_COUNT_CONTROL,
			    pipe->occlusion_queries > 0 && !pipe->blitting
				    ? DB_COUNT_CONTROL_PERFECT_ZPASS_COUNTS(1) |
					      DB_COUNT_CONTROL_SAMPLE_RATE(log2_samples(pipe->fb_samples)) |
					      DB_COUNT_CONTROL_ZPASS_ENABLE(1) |
					      DB_COUNT_CONTROL_SLICE_EVEN_ENABLE(1) |
					      DB_COUNT_CONTROL_SLICE_ODD_ENABLE(1)
				    : DB_COUNT_CONTROL_ZPASS_INCREMENT_DISABLE(1));
}

/* ---- the VS's position exports (si_shader_vs, si_emit_clip_regs) ------------------------------- */

uint32_t drv_pm4_vs_out_cntl(const struct drv_pipe *pipe, const struct drv_program *prog)
{
	const struct drv_vs_out_info *o = &prog->vs_out;
	/* GL 4.6 §13.7: plane i clips where CLIP_DISTANCEi is enabled; a
	 * plane the shader writes no distance for is undefined, so it is left
	 * out (radeonsi: the written mask & clip_plane_enable).  The PA does
	 * not clip points by clip distances, so they are cull distances as
	 * well (si_emit_clip_regs), which drop a point outside the plane */
	uint32_t clip = o->clip_dist & pipe->rs.clip_plane_enable & 0xFFu;
	/* cull distances (GL 4.6 §13.7, ARB_cull_distance) have no enable:
	 * every one written culls */
	uint32_t cull = clip | o->cull_dist;
	uint8_t cc = o->clip_dist | o->cull_dist;

	/* GL 4.6 §14.4: the point size is gl_PointSize with
	 * PROGRAM_POINT_SIZE (always in GLES, ES 3.2 §13.3), else the state's
	 * (PA_SU_POINT_SIZE); GLES leaves the size of a point whose shader
	 * writes none undefined, and it gets the state's too */
	return PA_CL_VS_OUT_CNTL_USE_VTX_POINT_SIZE(o->point_size && pipe->rs.point_size_per_vertex) |
	       PA_CL_VS_OUT_CNTL_VS_OUT_MISC_VEC_ENA(o->point_size) |
	       PA_CL_VS_OUT_CNTL_VS_OUT_MISC_SIDE_BUS_ENA(o->point_size) |
	       PA_CL_VS_OUT_CNTL_VS_OUT_CCDIST0_VEC_ENA((cc & 0x0Fu) != 0) |
	       PA_CL_VS_OUT_CNTL_VS_OUT_CCDIST1_VEC_ENA((cc & 0xF0u) != 0) |
	       clip << PA_CL_VS_OUT_CNTL_CLIP_DIST_ENA_0__SHIFT | cull << PA_CL_VS_OUT_CNTL_CULL_DIST_ENA_0__SHIFT;
}

/* PA_CL_VS_OUT_CNTL and the position exports' formats (4 components each,
 * as many as the shader exports: drv_vs_out_info.pos_exports). */
static void emit_vs_out(struct drv_pipe *pipe, struct pm4_cs *cs, const struct drv_program *prog)
{
	uint32_t cntl = drv_pm4_vs_out_cntl(pipe, prog), format = 0;

	if (pipe->vs_out_cntl == cntl + 1)
		return;
	for (unsigned k = 0; k < prog->vs_out.pos_exports || k < 1; k++)
		format |= (uint32_t)V_SPI_SHADER_4COMP << (4 * k);
	pm4_set_context_reg(cs, REG_PA_CL_VS_OUT_CNTL, cntl);
	pm4_set_context_reg(cs, REG_SPI_SHADER_POS_FORMAT, format);
	pipe->vs_out_cntl = cntl + 1;
}

/* ---- the pixel shader (si_shader_ps, si_emit_spi_map) ------------------------------------------ */

const char *drv_pm4_ps_unusable(const struct drv_pipe *pipe, const struct drv_program *prog)
{
	const struct drv_pipe_rasterizer_state *rs = &pipe->rs;
	if (!prog->hw[DRV_HW_PS].present)
		return prog->ps_unsupported ? prog->ps_unsupported
		       : "were drawn by a draw whose fragment processing the driver cannot compile "
			 "yet, which the simulated GPU therefore does not rasterize";
	if (rs->offset_tri || rs->offset_line || rs->offset_point)
		return "were drawn with polygon offset, which the simulated GPU does not rasterize";
	if (rs->unmodelled)
		return rs->unmodelled;
	/* GLSL 4.60 §7.1.5: gl_PointCoord is undefined for other primitives
	 * (the model would give (0, 0)): not drawn as if it were GL's */
	for (unsigned n = 0; n < prog->ps.n_inputs && !pipe->draws_points; n++)
		if (prog->ps.input_sprite[n])
			return "were drawn by a fragment shader reading gl_PointCoord for primitives other "
			       "than points (undefined in GL), which the simulated GPU does not rasterize";
	/* 1, 2, 4 and 8 samples: the framebuffer atom programs each count's
	 * pattern (msaa_patterns) */
	for (unsigned i = 0; i < 9; i++) {
		const struct drv_pipe_surface *sf = i < 8 ? pipe->fb.cbufs[i] : pipe->fb.zsbuf;
		if (sf && sf->samples != 1 && sf->samples != 2 && sf->samples != 4 && sf->samples != 8)
			return "were drawn into a surface of more than 8 samples, which the simulated GPU "
			       "does not rasterize";
	}
	return NULL;
}

static void emit_ps(struct drv_pipe *pipe, struct pm4_cs *cs, const struct drv_program *prog,
		    const struct drv_pipe_shader *shader)
{
	const struct drv_stage_binary *ps = &prog->hw[DRV_HW_PS];
	const struct drv_ps_info *pi = &prog->ps;
	uint64_t va;
	uint32_t col_format = 0, shader_mask = 0;
	bool mask_export = false;

	if (drv_pm4_ps_unusable(pipe, prog)) {
		/* no pixel shader: the primitives end after streamout */
		if (pm4_set_reg_seq(cs, REG_SPI_SHADER_PGM_LO_PS, 2)) {
			pm4_emit(cs, 0);
			pm4_emit(cs, 0);
		}
		return;
	}
	va = shader->code->va + drv_pm4_code_offset(prog, DRV_HW_PS);
	if (pm4_set_reg_seq(cs, REG_SPI_SHADER_PGM_LO_PS, 4)) {
		pm4_emit(cs, (uint32_t)(va >> 8));
		pm4_emit(cs, SPI_SHADER_PGM_HI_PS_MEM_BASE((uint32_t)(va >> 40)));
		pm4_emit(cs, SPI_SHADER_PGM_RSRC1_PS_VGPRS((ps->num_vgprs ? ps->num_vgprs - 1 : 0) / 4) |
			     SPI_SHADER_PGM_RSRC1_PS_SGPRS((ps->num_sgprs ? ps->num_sgprs - 1 : 0) / 8));
		pm4_emit(cs, SPI_SHADER_PGM_RSRC2_PS_USER_SGPR(ps->user_sgprs));
	}
	if (pm4_set_reg_seq(cs, REG_SPI_PS_INPUT_ENA, 2)) {
		pm4_emit(cs, pi->input_ena);
		pm4_emit(cs, pi->input_ena);    /* SPI_PS_INPUT_ADDR = ENA */
	}
	pm4_set_context_reg(cs, REG_SPI_PS_IN_CONTROL, SPI_PS_IN_CONTROL_NUM_INTERP(pi->n_inputs));
	pm4_set_context_reg(cs, REG_SPI_BARYC_CNTL, SPI_BARYC_CNTL_POS_FLOAT_LOCATION(2));
	/* si_emit_spi_map: input n reads param n, or the default (0, 0, 0, 0)
	 * when the VS does not write it */
	if (pi->n_inputs && pm4_set_reg_seq(cs, REG_SPI_PS_INPUT_CNTL(0), pi->n_inputs)) {
		for (unsigned n = 0; n < pi->n_inputs; n++)
			pm4_emit(cs, SPI_PS_INPUT_CNTL_OFFSET(pi->input_written[n] ? n : 0x20) |
				     SPI_PS_INPUT_CNTL_FLAT_SHADE(pi->input_flat[n]) |
				     SPI_PS_INPUT_CNTL_PT_SPRITE_TEX(pi->input_sprite[n]));
	}
	/* gl_PointCoord (an input with PT_SPRITE_TEX): x, y the sprite's s,
	 * t, z = 0, w = 1 (radeonsi's si_emit_spi_map); GL's default origin
	 * GL_UPPER_LEFT (the sim has no glPointParameter: GL 4.6 §14.4.1,
	 * t = 1/2 - (y_f + 1/2 - y_w) / size) is t = 0 at the largest window
	 * y, the top row in GL's bottom-up rows: PNT_SPRITE_TOP_1 */
	pm4_set_context_reg(cs, REG_SPI_INTERP_CONTROL_0,
			    SPI_INTERP_CONTROL_0_PNT_SPRITE_ENA(1) |
			    SPI_INTERP_CONTROL_0_PNT_SPRITE_OVRD_X(2) |   /* SPI_PNT_SPRITE_SEL_S */
			    SPI_INTERP_CONTROL_0_PNT_SPRITE_OVRD_Y(3) |   /* _T */
			    SPI_INTERP_CONTROL_0_PNT_SPRITE_OVRD_Z(0) |   /* _0 */
			    SPI_INTERP_CONTROL_0_PNT_SPRITE_OVRD_W(1) |   /* _1 */
			    SPI_INTERP_CONTROL_0_PNT_SPRITE_TOP_1(1));
	pm4_set_context_reg(cs, REG_SPI_VS_OUT_CONFIG,
			    SPI_VS_OUT_CONFIG_VS_EXPORT_COUNT(pi->n_inputs ? pi->n_inputs - 1 : 0));
	/* colour exports: 32_ABGR for every written target that is bound (the
	 * shader exports four f32 whatever the format; radeonsi picks a
	 * narrower format per target, si_get_spi_shader_col_format) */
	for (unsigned i = 0; i < 8; i++) {
		if (!(pi->colors_written >> i & 1) || !pipe->fb.cbufs[i])
			continue;
		col_format |= (uint32_t)V_SPI_SHADER_32_ABGR << (4 * i);
		shader_mask |= 0xFu << (4 * i);
	}
	/* gl_FragDepth: exp mrtz's x, gl_SampleMask its z (radeonsi's
	 * si_get_spi_shader_z_format: 32_ABGR with the mask).  GL 4.6 §17.3.3:
	 * the shader's mask applies only with SAMPLE_BUFFERS one, so
	 * MASK_EXPORT_ENABLE only on a multisampled framebuffer */
	for (unsigned i = 0; i < 9 && pi->writes_mask; i++) {
		const struct drv_pipe_surface *sf = i < 8 ? pipe->fb.cbufs[i] : pipe->fb.zsbuf;
		if (sf && sf->samples > 1)
			mask_export = true;
	}
	pm4_set_context_reg(cs, REG_SPI_SHADER_Z_FORMAT,
			    SPI_SHADER_Z_FORMAT_Z_EXPORT_FORMAT(pi->writes_mask ? V_SPI_SHADER_32_ABGR :
								pi->writes_z ? V_SPI_SHADER_32_R : V_SPI_SHADER_ZERO));
	pm4_set_context_reg(cs, REG_SPI_SHADER_COL_FORMAT, col_format);
	pm4_set_context_reg(cs, REG_CB_SHADER_MASK, shader_mask);
	pm4_set_context_reg(cs, REG_DB_SHADER_CONTROL,
			    DB_SHADER_CONTROL_Z_ORDER(pi->writes_z || mask_export ? V_LATE_Z : V_EARLY_Z_THEN_LATE_Z) |
			    DB_SHADER_CONTROL_Z_EXPORT_ENABLE(pi->writes_z) |
			    DB_SHADER_CONTROL_MASK_EXPORT_ENABLE(mask_export) |
			    DB_SHADER_CONTROL_KILL_ENABLE(pi->kills));
}

void drv_pm4_emit_pixel_state(struct drv_pipe *pipe, struct pm4_cs *cs, const struct drv_program *prog,
			      const struct drv_pipe_shader *shader)
{
	uint64_t ps_va;

	if (pipe->rasterizer_discard)
		return;
	ps_va = !drv_pm4_ps_unusable(pipe, prog) ? shader->code->va + drv_pm4_code_offset(prog, DRV_HW_PS) + 2 : 1;
	for (unsigned i = 0; i < 9; i++) {
		const struct drv_pipe_surface *sf = i < 8 ? pipe->fb.cbufs[i] : pipe->fb.zsbuf;
		uint64_t va = sf && sf->bo ? sf->bo->va : 0;
		if (va != pipe->fb_va[i])
			pipe->dirty |= 1u << DRV_ATOM_FRAMEBUFFER;
		pipe->fb_va[i] = va;
	}
	if (pipe->dirty & (1u << DRV_ATOM_FRAMEBUFFER)) {
		emit_framebuffer(pipe, cs);
		/* the scissor, masks and export formats follow the targets */
		pipe->dirty |= 1u << DRV_ATOM_PIXEL;
		pipe->ps_va = 0;
	}
	if (pipe->dirty & (1u << DRV_ATOM_PIXEL))
		emit_pixel(pipe, cs);
	emit_vs_out(pipe, cs, prog);
	if (pipe->ps_va != ps_va || (pipe->dirty & (1u << DRV_ATOM_SHADER))) {
		emit_ps(pipe, cs, prog, shader);
		pipe->ps_va = ps_va;
	}
	pipe->dirty &= ~(1u << DRV_ATOM_FRAMEBUFFER | 1u << DRV_ATOM_PIXEL);
}
