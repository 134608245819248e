/*
 * drv_pm4_blit.c - blits (drv_pipe_blit), as radeonsi does them through
 * Gallium's u_blitter: a draw of the destination rectangle (a triangle
 * strip of four vertices) whose pixel shader samples the source surface
 * as a 2D texture and writes every colour target, run through the same
 * PM4 and model path as an application's draw, so that the blit's shaders,
 * descriptors and registers show in the call's dumps.
 *
 * The blitter's state replaces the application's for the draw and is
 * taken back after it (u_blitter's save / restore): no blending, logic op
 * or write mask, no depth or stencil buffer, no culling, clip planes or
 * polygon offset, its own viewport (the destination rectangle), the
 * scissor only when the caller asks (glBlitFramebuffer's scissor test,
 * GL 4.6 §18.3.1), streamout and the occlusion counter off (radeonsi's
 * set_active_query_state(false)): the blit is not a draw for transform
 * feedback or queries.
 *
 * The programs (one per sampler kind: float, signed and unsigned integer,
 * and source sample count) are GLSL compiled by the driver's compiler at
 * their first use in a context:
 *
 *   VS  gl_VertexID 0..3 picks a corner of the rectangle; position and
 *       source coordinate are mixed from two constants (exact: the
 *       weights are 0 and 1)
 *   PS  texture() of the source at the interpolated (normalized)
 *       coordinate, or for a multisampled source (a resolve) texelFetch
 *       of each sample and their average; written to the eight colour
 *       outputs (the targets bound take it)
 *
 * The viewport maps clip x, y = -1 .. 1 exactly onto the destination
 * rectangle's edges (integers), so the rectangle covers exactly its
 * pixels; the source coordinate at a pixel centre is the centre's image
 * under GL's linear mapping of the rectangles.
 */
#include <stdio.h>
#include <string.h>

#include "drv_hw.h"
#include "xt_fault.h"

enum blit_kind { BLIT_FLOAT, BLIT_SINT, BLIT_UINT, BLIT_KINDS };

/* the programs: per sampler kind and log2 of the source's samples, then
 * the two of the pixel rectangles (drv_pipe_pixrect) */
#define BLIT_PROGS (BLIT_KINDS * 4)
#define PIXRECT_IMAGE BLIT_PROGS
#define ALL_PROGS (BLIT_PROGS + 1)

struct drv_blitter {
	struct drv_program *prog[ALL_PROGS];
	struct drv_pipe_shader shader[ALL_PROGS];
	uint32_t pos_offset[ALL_PROGS], tc_offset[ALL_PROGS];  /* the constants' bytes */
	uint32_t z_offset[ALL_PROGS];  /* the pixel rectangles' */
	uint64_t consts_version;      /* bumped at every blit: new constants */
	bool failed[ALL_PROGS];       /* did not compile (reported) */
	/* the pixel groups of the last pixel rectangle: kept until the next
	 * one (after a flush), as the draw reads them on the GPU */
	struct drv_pipe_surface pixrect_src;
};

static const char blit_vs[] =
	"#version 330 core\n"
	"uniform vec4 xt_blit_pos;   /* x0, y0, x1, y1: clip coordinates of two corners */\n"
	"uniform vec4 xt_blit_tc;    /* s0, t0, s1, t1: the source coordinates there */\n"
	"noperspective out vec2 xt_tc;\n"
	"void main()\n"
	"{\n"
	"	vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n"
	"	gl_Position = vec4(mix(xt_blit_pos.xy, xt_blit_pos.zw, c), 0.0, 1.0);\n"
	"	xt_tc = mix(xt_blit_tc.xy, xt_blit_tc.zw, c);\n"
	"}\n";

/* The pixel shader: its head, then a body.  %s: the sampler's prefix
 * ("", "i", "u"), more declarations, the outputs' ("", "i", "u"). */
static const char blit_fs[] =
	"#version 330 core\n"
	"uniform %ssampler2D xt_blit_src;\n"
	"noperspective in vec2 xt_tc;\n"
	"%s"
	"layout(location = 0) out %svec4 o0;\n"
	"layout(location = 1) out %svec4 o1;\n"
	"layout(location = 2) out %svec4 o2;\n"
	"layout(location = 3) out %svec4 o3;\n"
	"layout(location = 4) out %svec4 o4;\n"
	"layout(location = 5) out %svec4 o5;\n"
	"layout(location = 6) out %svec4 o6;\n"
	"layout(location = 7) out %svec4 o7;\n"
	"void main()\n"
	"{\n"
	"	%svec4 c;\n"
	"%s"
	"	o0 = c; o1 = c; o2 = c; o3 = c; o4 = c; o5 = c; o6 = c; o7 = c;\n"
	"}\n";

/* A single-sampled source: filtered at the normalized coordinate. */
static const char body_sample[] = "	c = texture(xt_blit_src, xt_tc);\n";
/* A multisampled source (a resolve, 1:1): its surface seen as an image N
 * times as wide (the samples of a pixel are consecutive, docs/isa.md
 * "Surfaces"), xt_tc in source pixels; the average of the N samples
 * (GL 4.6 §18.3.1: resolved in an implementation-dependent manner), or
 * for integer formats sample 0 (GL: a single sample).  %d: N. */
static const char body_resolve[] =
	"	const int n = %d;\n"
	"	ivec2 p = ivec2(floor(xt_tc));\n"
	"	c = texelFetch(xt_blit_src, ivec2(p.x * n, p.y), 0);\n"
	"%s";
static const char body_average[] =
	"	for (int s = 1; s < n; s++)\n"
	"		c += texelFetch(xt_blit_src, ivec2(p.x * n + s, p.y), 0);\n"
	"	c *= 1.0 / float(n);\n";

/* The pixel rectangles' vertex shader: the blit's, at the raster
 * position's window z (the viewport leaves z as it is). */
static const char pixrect_vs[] =
	"#version 330 core\n"
	"uniform vec4 xt_blit_pos;\n"
	"uniform vec4 xt_blit_tc;\n"
	"uniform float xt_pixrect_z;\n"
	"noperspective out vec2 xt_tc;\n"
	"void main()\n"
	"{\n"
	"	vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n"
	"	gl_Position = vec4(mix(xt_blit_pos.xy, xt_blit_pos.zw, c), xt_pixrect_z, 1.0);\n"
	"	xt_tc = mix(xt_blit_tc.xy, xt_blit_tc.zw, c);\n"
	"}\n";

/* Its pixel shader's body (in blit_fs, float outputs): a glDrawPixels /
 * glCopyPixels fragment takes its group's colour (GL 4.6 compatibility
 * §14.8.1). */
static const char body_image[] = "	c = texture(xt_blit_src, xt_tc);\n";

void drv_pm4_blit_fini(struct drv_pipe *pipe)
{
	struct drv_blitter *b = pipe->blitter;

	if (!b)
		return;
	for (unsigned k = 0; k < ALL_PROGS; k++) {
		drv_pipe_shader_release(pipe->screen, &b->shader[k]);
		drv_program_destroy(b->prog[k]);
	}
	drv_pipe_surface_release(pipe->screen, &b->pixrect_src);
	xt_free(b);
	pipe->blitter = NULL;
}

static bool uniform_offset(const struct drv_program *prog, const char *name, uint32_t *out)
{
	unsigned idx, element;

	if (drv_program_uniform_location(prog, name, &idx, &element) < 0)
		return false;
	*out = prog->uniforms[idx].offset;
	return true;
}

/* Program k of the blitter (a blit's of `kind` for a source of 2^log2s
 * samples, or PIXRECT_*), compiled and uploaded at its first use; NULL
 * (reported) when it cannot be. */
static const struct drv_program *blit_program(struct drv_pipe *pipe, enum blit_kind kind, unsigned log2s,
					      unsigned k)
{
	static const char *const prefix[BLIT_KINDS] = { "", "i", "u" };
	struct drv_blitter *b = pipe->blitter;
	char fs[sizeof blit_fs + sizeof body_resolve + sizeof body_average + 96], body[sizeof body_resolve +
										 sizeof body_average + 16];
	struct drv_program *prog = NULL;
	struct xt_err err;
	const char *p = prefix[kind], *vs = blit_vs;
	const bool pixrect = k >= BLIT_PROGS;

	if (!b && !(b = pipe->blitter = xt_calloc(1, sizeof *b))) {
		drv_hw_out_of_memory(pipe);
		return NULL;
	}
	if (b->prog[k])
		return b->prog[k];
	if (b->failed[k])
		return NULL;
	if (pixrect) {
		vs = pixrect_vs;
		snprintf(body, sizeof body, "%s", body_image);
	} else if (log2s) {
		snprintf(body, sizeof body, body_resolve, 1 << log2s, kind == BLIT_FLOAT ? body_average : "");
	} else {
		snprintf(body, sizeof body, "%s", body_sample);
	}
	snprintf(fs, sizeof fs, blit_fs, p, "", p, p, p, p, p, p, p, p, p, body);
	struct drv_program_desc d = { .source = { [DRV_STAGE_VERTEX] = vs, [DRV_STAGE_FRAGMENT] = fs } };
	if (drv_program_create(&d, &prog, &err) != XT_OK) {
		drv_hw_out_of_memory(pipe);
		return NULL;
	}
	if (!prog->linked || !prog->hw[DRV_HW_PS].present ||
	    !uniform_offset(prog, "xt_blit_pos", &b->pos_offset[k]) ||
	    !uniform_offset(prog, "xt_blit_tc", &b->tc_offset[k]) ||
	    (pixrect && !uniform_offset(prog, "xt_pixrect_z", &b->z_offset[k]))) {
		b->failed[k] = true;
		drv_program_destroy(prog);
		drv_hw_unsupported(pipe, pixrect ? "a pixel rectangle: the blitter's shaders did not compile"
						 : "a blit: the blitter's shaders did not compile");
		return NULL;
	}
	if (!drv_pipe_shader_upload(pipe->screen, &b->shader[k], prog)) {
		drv_program_destroy(prog);
		drv_hw_out_of_memory(pipe);
		return NULL;
	}
	b->prog[k] = prog;
	return prog;
}

static enum blit_kind kind_of(enum drv_pipe_format f)
{
	const struct drv_pipe_format_info *fi = drv_pipe_format_info(f);
	return fi->is_sint ? BLIT_SINT : fi->is_uint ? BLIT_UINT : BLIT_FLOAT;
}

const char *drv_pipe_blit_unsupported(const struct drv_pipe_surface *src, const struct drv_pipe_surface *dst)
{
	const struct drv_pipe_format_info *s = drv_pipe_format_info(src->format);
	const struct drv_pipe_format_info *d = drv_pipe_format_info(dst->format);

	if (!s->components || !d->components)
		return "a blit of depth or stencil values (the blitter copies colour)";
	if (src->samples > 8 || (src->samples > 1 && dst->samples > 1))
		return "a blit between multisampled colour buffers (a copy of samples)";
	if ((s->is_uint || s->is_sint) != (d->is_uint || d->is_sint))
		return "a blit between integer and non-integer formats";
	return NULL;
}

/* The clip coordinate of window coordinate `w` on a viewport from lo to hi. */
static float clip_of(int32_t w, int32_t lo)
{
	return w == lo ? -1.0f : 1.0f;
}

bool drv_pipe_blit(struct drv_pipe *pipe, const struct drv_pipe_blit_info *info)
{
	struct drv_pipe_surface *src = info->src;
	const struct drv_pipe_rasterizer_state saved_rs = pipe->rs;
	const struct drv_pipe_depth_stencil_state saved_dsa = pipe->dsa;
	const struct drv_pipe_blend_state saved_blend = pipe->blend;
	const struct drv_pipe_viewport_state saved_vp = pipe->viewport;
	const struct drv_pipe_rect saved_scissor = pipe->scissor;
	const struct drv_pipe_framebuffer saved_fb = pipe->fb;
	const struct drv_pipe_query *saved_cond = pipe->render_cond;
	const bool saved_discard = pipe->rasterizer_discard;
	enum blit_kind kind = kind_of(src->format);
	const unsigned log2s = src->samples >= 8 ? 3 : src->samples >= 4 ? 2 : src->samples >= 2 ? 1 : 0;
	const struct drv_program *prog;
	struct drv_blitter *b;
	unsigned k = 0;
	bool ok;

	for (unsigned i = 0; i < 8; i++) {
		const char *why = info->dst[i] ? drv_pipe_blit_unsupported(src, info->dst[i]) : NULL;
		if (why) {
			drv_hw_unsupported(pipe, why);
			return false;
		}
	}
	if (!src->bo || info->dx0 == info->dx1 || info->dy0 == info->dy1)
		return true;
	k = kind * 4 + log2s;
	if (!(prog = blit_program(pipe, kind, log2s, k)))
		return false;
	b = pipe->blitter;

	/* the source: level 0 of a 2D image over the surface's memory (a
	 * multisampled one 2^log2s times as wide: its samples), missing
	 * components 0 (alpha 1), clamped to its edge */
	struct drv_pipe_buffer src_buf = { src->bo };
	const unsigned comps = drv_pipe_format_info(src->format)->components;
	struct drv_pipe_draw_state st = { .prog = prog, .shader = &b->shader[k] };
	struct drv_pipe_sampler_view *v = &st.tex[0];
	*v = (struct drv_pipe_sampler_view){
		.buffer = &src_buf, .integer = kind != BLIT_FLOAT, .target = DRV_TEX_2D, .depth = 1,
		.format = src->format, .width = src->width << log2s, .height = src->height,
		.pitch = src->pitch << log2s,
		.levels = 1, .wrap_s = DRV_WRAP_CLAMP_TO_EDGE, .wrap_t = DRV_WRAP_CLAMP_TO_EDGE,
		.wrap_r = DRV_WRAP_CLAMP_TO_EDGE, .mag_linear = info->linear, .min_linear = info->linear,
		.mip = DRV_MIP_NONE, .max_lod = 1000.0f, .border = DRV_BORDER_TRANSPARENT_BLACK,
	};
	for (unsigned c = 0; c < 4; c++)
		v->swizzle[c] = c < comps && !(c == 3 && info->src_alpha_one) ? (uint8_t)c :
				c == 3 ? DRV_SWIZZLE_1 : DRV_SWIZZLE_0;

	/* the constants: corner (dx0, dy0) samples (sx0, sy0), and so on */
	const int32_t xlo = info->dx0 < info->dx1 ? info->dx0 : info->dx1;
	const int32_t ylo = info->dy0 < info->dy1 ? info->dy0 : info->dy1;
	const int32_t xhi = info->dx0 < info->dx1 ? info->dx1 : info->dx0;
	const int32_t yhi = info->dy0 < info->dy1 ? info->dy1 : info->dy0;
	uint8_t consts[256] = { 0 };
	const float pos[4] = { clip_of(info->dx0, xlo), clip_of(info->dy0, ylo), clip_of(info->dx1, xlo),
			       clip_of(info->dy1, ylo) };
	/* normalized, or in source pixels for a resolve */
	const float sw = log2s ? 1.0f : (float)src->width, sh = log2s ? 1.0f : (float)src->height;
	const float tc[4] = { (float)info->sx0 / sw, (float)info->sy0 / sh, (float)info->sx1 / sw,
			      (float)info->sy1 / sh };
	if (b->pos_offset[k] + sizeof pos > sizeof consts || b->tc_offset[k] + sizeof tc > sizeof consts ||
	    prog->const_buffer_size > sizeof consts) {
		drv_hw_unsupported(pipe, "a blit: the blitter's constants do not fit");
		return false;
	}
	memcpy(consts + b->pos_offset[k], pos, sizeof pos);
	memcpy(consts + b->tc_offset[k], tc, sizeof tc);
	st.consts = consts;
	st.consts_size = prog->const_buffer_size;
	st.consts_version = ++b->consts_version;
	static const uint32_t zero[4];
	for (unsigned loc = 0; loc < DRV_MAX_ATTRIBS; loc++)
		st.vertex[loc] = (struct drv_pipe_vertex_input){ .current = zero };

	/* the blitter's state */
	struct drv_pipe_rasterizer_state rs = {
		.fill_front = DRV_FILL_FILL, .fill_back = DRV_FILL_FILL, .front_ccw = true,
		.point_size = 1.0f, .line_width = 1.0f, .point_clip_xy = true, .scissor = info->scissor,
	};
	struct drv_pipe_depth_stencil_state dsa = { .depth_func = DRV_FUNC_ALWAYS };
	struct drv_pipe_blend_state blend = { 0 };
	struct drv_pipe_viewport_state vp = {
		.scale = { (float)(xhi - xlo) * 0.5f, (float)(yhi - ylo) * 0.5f, 1.0f },
		.translate = { (float)xlo + (float)(xhi - xlo) * 0.5f, (float)ylo + (float)(yhi - ylo) * 0.5f, 0.0f },
		.zmin = 0.0f, .zmax = 1.0f,
	};
	struct drv_pipe_framebuffer fb = { 0 };
	for (unsigned i = 0; i < 8; i++) {
		blend.rt[i].colormask = 0xF;
		blend.rt[i].rgb_func = blend.rt[i].alpha_func = DRV_BLEND_ADD;
		blend.rt[i].rgb_src = blend.rt[i].alpha_src = DRV_BLEND_ONE;
		blend.rt[i].rgb_dst = blend.rt[i].alpha_dst = DRV_BLEND_ZERO;
		fb.cbufs[i] = info->dst[i];
	}
	dsa.stencil[0].func = dsa.stencil[1].func = DRV_FUNC_ALWAYS;
	drv_pipe_set_rasterizer(pipe, &rs);
	drv_pipe_set_depth_stencil(pipe, &dsa);
	drv_pipe_set_blend(pipe, &blend);
	drv_pipe_set_viewport(pipe, &vp);
	if (info->scissor)
		drv_pipe_set_scissor(pipe, &info->scissor_rect);
	drv_pipe_set_framebuffer(pipe, &fb);
	drv_pipe_set_rasterizer_discard(pipe, false);
	if (!info->render_condition)
		pipe->render_cond = NULL;
	pipe->blitting = true;
	pipe->dirty |= 1u << DRV_ATOM_PIXEL;   /* DB_COUNT_CONTROL: no counting */
	drv_pm4_so_enable(pipe);               /* VGT_STRMOUT_CONFIG off */

	const struct drv_pipe_draw d = { .prim = DRV_PRIM_TRIANGLE_STRIP, .count = 4, .instances = 1 };
	ok = drv_pipe_draw_begin(pipe, prog, &b->shader[k]) && drv_pipe_draw_reserve(pipe, &st, &d) &&
	     drv_pipe_draw(pipe, &st, &d);

	/* the application's state again */
	pipe->blitting = false;
	pipe->render_cond = saved_cond;
	drv_pm4_so_enable(pipe);
	pipe->dirty |= 1u << DRV_ATOM_PIXEL;   /* DB_COUNT_CONTROL */
	drv_pipe_set_rasterizer_discard(pipe, saved_discard);
	drv_pipe_set_rasterizer(pipe, &saved_rs);
	drv_pipe_set_depth_stencil(pipe, &saved_dsa);
	drv_pipe_set_blend(pipe, &saved_blend);
	drv_pipe_set_viewport(pipe, &saved_vp);
	drv_pipe_set_scissor(pipe, &saved_scissor);
	drv_pipe_set_framebuffer(pipe, &saved_fb);
	return ok;
}

/*
 * A pixel rectangle (drv_pipe_pixrect), as Mesa's state tracker draws
 * glDrawPixels: the groups are uploaded as a 2D image and a rectangle is
 * drawn over their window area with a pixel shader that samples it
 * (NEAREST: the group a fragment's centre lies in, GL 4.6 compatibility
 * §14.8.1's zoomed groups).  Unlike a blit, the fragments go through the
 * application's per-fragment operations (§14.8: scissor, stencil and
 * depth tests at the raster position's z, occlusion counting, blending,
 * logic op, write masks) into its framebuffer; only what shapes
 * primitives is the blitter's (no culling, polygon mode or offset, clip
 * planes; its viewport), and streamout stays off (a pixel rectangle makes
 * no primitives for transform feedback, §13.3).
 *
 * Mesa draws a bitmap with a pixel shader that kills the fragments of
 * its 0s; this driver draws it (written before its compiler had discard)
 * as rectangles covering exactly its 1s (runs of 1s, stacked while
 * consecutive rows have the same runs), each a 1 x 1 image of the
 * colour stretched over it: the same fragments, with the same colour.
 */
static bool pixrect_draw(struct drv_pipe *pipe, uint32_t w, uint32_t h, const float *rgba, float x0, float y0,
			 float x1, float y1, float z)
{
	const unsigned k = PIXRECT_IMAGE;
	const struct drv_program *prog;
	struct drv_blitter *b;

	if (!(prog = blit_program(pipe, BLIT_FLOAT, 0, k)))
		return false;
	b = pipe->blitter;

	/* the groups: the previous rectangle's image is free once its draw
	 * was submitted */
	struct drv_pipe_surface *src = &b->pixrect_src;
	drv_pipe_flush(pipe);
	if (!drv_pipe_surface_alloc(pipe->screen, src, DRV_FORMAT_RGBA32_FLOAT, w, h, 1)) {
		drv_hw_out_of_memory(pipe);
		return false;
	}
	for (uint32_t y = 0; y < h; y++)
		memcpy(src->bo->map + (uint64_t)y * src->pitch * 16, rgba + (uint64_t)y * w * 4, (size_t)w * 16);

	struct drv_pipe_buffer src_buf = { src->bo };
	struct drv_pipe_draw_state st = { .prog = prog, .shader = &b->shader[k] };
	st.tex[0] = (struct drv_pipe_sampler_view){
		.buffer = &src_buf, .target = DRV_TEX_2D, .depth = 1, .format = src->format,
		.width = src->width, .height = src->height, .pitch = src->pitch, .levels = 1,
		.wrap_s = DRV_WRAP_CLAMP_TO_EDGE, .wrap_t = DRV_WRAP_CLAMP_TO_EDGE, .wrap_r = DRV_WRAP_CLAMP_TO_EDGE,
		.mip = DRV_MIP_NONE, .max_lod = 1000.0f, .border = DRV_BORDER_TRANSPARENT_BLACK,
		.swizzle = { DRV_SWIZZLE_R, DRV_SWIZZLE_G, DRV_SWIZZLE_B, DRV_SWIZZLE_A },
	};

	/* corner (x0, y0) samples the image's (0, 0), (x1, y1) its (1, 1) */
	const float xlo = x0 < x1 ? x0 : x1, xhi = x0 < x1 ? x1 : x0;
	const float ylo = y0 < y1 ? y0 : y1, yhi = y0 < y1 ? y1 : y0;
	const float pos[4] = { x0 == xlo ? -1.0f : 1.0f, y0 == ylo ? -1.0f : 1.0f, x1 == xlo ? -1.0f : 1.0f,
			       y1 == ylo ? -1.0f : 1.0f };
	const float tc[4] = { 0.0f, 0.0f, 1.0f, 1.0f };
	uint8_t consts[256] = { 0 };
	if (b->pos_offset[k] + sizeof pos > sizeof consts || b->tc_offset[k] + sizeof tc > sizeof consts ||
	    b->z_offset[k] + sizeof z > sizeof consts || prog->const_buffer_size > sizeof consts) {
		drv_hw_unsupported(pipe, "a pixel rectangle: the blitter's constants do not fit");
		return false;
	}
	memcpy(consts + b->pos_offset[k], pos, sizeof pos);
	memcpy(consts + b->tc_offset[k], tc, sizeof tc);
	memcpy(consts + b->z_offset[k], &z, sizeof z);
	st.consts = consts;
	st.consts_size = prog->const_buffer_size;
	st.consts_version = ++b->consts_version;
	static const uint32_t zero[4];
	for (unsigned loc = 0; loc < DRV_MAX_ATTRIBS; loc++)
		st.vertex[loc] = (struct drv_pipe_vertex_input){ .current = zero };

	/* The viewport maps clip x, y = -1 .. 1 onto the rectangle and keeps
	 * z (window z = the raster position's). */
	struct drv_pipe_viewport_state vp = {
		.scale = { (xhi - xlo) * 0.5f, (yhi - ylo) * 0.5f, 1.0f },
		.translate = { xlo + (xhi - xlo) * 0.5f, ylo + (yhi - ylo) * 0.5f, 0.0f },
		.zmin = 0.0f, .zmax = 1.0f,
	};
	drv_pipe_set_viewport(pipe, &vp);
	const struct drv_pipe_draw d = { .prim = DRV_PRIM_TRIANGLE_STRIP, .count = 4, .instances = 1 };
	return drv_pipe_draw_begin(pipe, prog, &b->shader[k]) && drv_pipe_draw_reserve(pipe, &st, &d) &&
	       drv_pipe_draw(pipe, &st, &d);
}

/* The runs of 1s of bitmap row `row` (w bytes) into runs[] (start, end
 * pairs); how many. */
static uint32_t bitmap_runs(const uint8_t *row, uint32_t w, uint32_t *runs)
{
	uint32_t n = 0;
	for (uint32_t x = 0; x < w;) {
		while (x < w && !row[x])
			x++;
		if (x == w)
			break;
		runs[2 * n] = x;
		while (x < w && row[x])
			x++;
		runs[2 * n + 1] = x;
		n++;
	}
	return n;
}

static bool bitmap_draw(struct drv_pipe *pipe, const struct drv_pipe_pixrect_info *info)
{
	uint32_t *runs = xt_malloc(((size_t)info->width + 2) * 2 * sizeof *runs);
	uint32_t *next = xt_malloc(((size_t)info->width + 2) * 2 * sizeof *next);
	uint32_t n = 0, y0 = 0;
	bool ok = runs && next;

	if (!ok)
		drv_hw_out_of_memory(pipe);
	/* rows y0 .. y - 1 have the runs runs[0 .. n) */
	for (uint32_t y = 0; ok && y <= info->height; y++) {
		uint32_t m = y < info->height ? bitmap_runs(info->bits + (uint64_t)y * info->width, info->width, next)
					      : 0;
		if (y < info->height && m == n && !memcmp(runs, next, (size_t)n * 2 * sizeof *runs))
			continue;
		for (uint32_t r = 0; ok && r < n; r++)
			ok = pixrect_draw(pipe, 1, 1, info->color, info->x0 + (float)runs[2 * r], info->y0 + (float)y0,
					  info->x0 + (float)runs[2 * r + 1], info->y0 + (float)y, info->z);
		uint32_t *t = runs;
		runs = next;
		next = t;
		n = m;
		y0 = y;
	}
	xt_free(runs);
	xt_free(next);
	return ok;
}

bool drv_pipe_pixrect(struct drv_pipe *pipe, const struct drv_pipe_pixrect_info *info)
{
	const struct drv_pipe_rasterizer_state saved_rs = pipe->rs;
	const struct drv_pipe_viewport_state saved_vp = pipe->viewport;
	bool ok;

	if (!info->width || !info->height || info->x0 == info->x1 || info->y0 == info->y1)
		return true;
	/* what shapes the rectangle is the blitter's; the rest the
	 * application's */
	struct drv_pipe_rasterizer_state rs = saved_rs;
	rs.cull_front = rs.cull_back = false;
	rs.fill_front = rs.fill_back = DRV_FILL_FILL;
	rs.offset_point = rs.offset_line = rs.offset_tri = false;
	rs.clip_plane_enable = 0;
	rs.depth_clamp = false;
	drv_pipe_set_rasterizer(pipe, &rs);
	pipe->pixrect = true;
	drv_pm4_so_enable(pipe);               /* VGT_STRMOUT_CONFIG off */

	ok = info->bits ? bitmap_draw(pipe, info)
			: pixrect_draw(pipe, info->width, info->height, info->rgba, info->x0, info->y0, info->x1,
				       info->y1, info->z);

	pipe->pixrect = false;
	drv_pm4_so_enable(pipe);
	drv_pipe_set_rasterizer(pipe, &saved_rs);
	drv_pipe_set_viewport(pipe, &saved_vp);
	return ok;
}
