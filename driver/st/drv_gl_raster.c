/*
 * drv_gl_raster.c - the rasterization and per-fragment state: viewport
 * and depth range, face culling, polygon mode and offset, point size and
 * line width, the depth and stencil tests, the logic op; drv_gl_context.c
 * keeps blending, drv_gl_pixels.c the write masks and the scissor box.
 * Each call checks its arguments as the specification says (GL 4.6 / ES
 * 3.2 sections named below) and keeps the values; drv_gl_raster_validate
 * turns them, with the enables, into the hardware layer's state
 * (drv_pipe.h) before a draw that reaches the rasterizer.  Also here:
 * sampler parameters, multisample renderbuffer storage, the reset status
 * and the compiler-thread hint, which a GL compositor (ANGLE's GL back end
 * under Chromium, tests/integration/test_chromium.py) sets around every
 * draw.
 */
#include <string.h>

#include "drv_gl_int.h"

/* ---- stencil (GL 4.6 / ES 3.2 §17.3.5) ---------------------------------------- */

static bool face_ok(GLenum face)
{
	return face == GL_FRONT || face == GL_BACK || face == GL_FRONT_AND_BACK;
}

static bool func_ok(GLenum func)
{
	return func >= GL_NEVER && func <= GL_ALWAYS;
}

static bool op_ok(GLenum op)
{
	switch (op) {
	case GL_KEEP: case GL_ZERO: case GL_REPLACE: case GL_INCR: case GL_DECR:
	case GL_INVERT: case GL_INCR_WRAP: case GL_DECR_WRAP:
		return true;
	default:
		return false;
	}
}

void drv_gl_StencilFuncSeparate(GLenum face, GLenum func, GLint ref, GLuint mask)
{
	DRV_CTX(ctx);
	if (!face_ok(face) || !func_ok(func)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	for (unsigned f = 0; f < 2; f++) {
		if (face == (f ? GL_FRONT : GL_BACK))
			continue;
		ctx->rast.stencil[f].func = func;
		ctx->rast.stencil[f].ref = ref;
		ctx->rast.stencil[f].mask = mask;
	}
}

void drv_gl_StencilFunc(GLenum func, GLint ref, GLuint mask)
{
	drv_gl_StencilFuncSeparate(GL_FRONT_AND_BACK, func, ref, mask);
}

void drv_gl_StencilOpSeparate(GLenum face, GLenum sfail, GLenum dpfail, GLenum dppass)
{
	DRV_CTX(ctx);
	if (!face_ok(face) || !op_ok(sfail) || !op_ok(dpfail) || !op_ok(dppass)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	for (unsigned f = 0; f < 2; f++) {
		if (face == (f ? GL_FRONT : GL_BACK))
			continue;
		ctx->rast.stencil[f].fail = sfail;
		ctx->rast.stencil[f].zfail = dpfail;
		ctx->rast.stencil[f].zpass = dppass;
	}
}

void drv_gl_StencilOp(GLenum sfail, GLenum dpfail, GLenum dppass)
{
	drv_gl_StencilOpSeparate(GL_FRONT_AND_BACK, sfail, dpfail, dppass);
}

/* The stencil write masks: drv_gl_pixels.c (clears write through them). */

/* ---- depth range (§13.8.1): any value, clamped; no error ---------------------------- */

void drv_gl_DepthRange(GLdouble n, GLdouble f)
{
	DRV_CTX(ctx);
	ctx->rast.depth_range[0] = n < 0 ? 0 : n > 1 ? 1 : n;
	ctx->rast.depth_range[1] = f < 0 ? 0 : f > 1 ? 1 : f;
}

void drv_gl_DepthRangef(GLfloat n, GLfloat f) { drv_gl_DepthRange(n, f); }

/* ---- sampler objects (GL 4.6 §8.2, ES 3.2 §8.2) ------------------------------------- */

/* Names, binding and labels of sampler objects: drv_gl_label.c. */

/* glSamplerParameter*: the sampler, then the pname (§8.2:
 * INVALID_OPERATION for a name that is no sampler, INVALID_ENUM for a
 * pname that is no sampler state), then the value (drv_tex_params_set,
 * drv_gl_tex.c).  The comparison, anisotropy and sRGB-decode states are
 * accepted and not kept: the sim samples no shadow samplers and filters
 * isotropically. */
static void sampler_parameter(GLuint sampler, GLenum pname, const GLint *iv, const GLfloat *fv)
{
	DRV_CTX(ctx);
	struct drv_tex_params *p = sampler ? drv_names_get(&ctx->shared->samplers, sampler) : NULL;
	if (!p) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	switch (pname) {
	case GL_TEXTURE_WRAP_S: case GL_TEXTURE_WRAP_T: case GL_TEXTURE_WRAP_R:
	case GL_TEXTURE_MIN_FILTER: case GL_TEXTURE_MAG_FILTER: case GL_TEXTURE_BORDER_COLOR:
	case GL_TEXTURE_MIN_LOD: case GL_TEXTURE_MAX_LOD: case GL_TEXTURE_LOD_BIAS:
		drv_tex_params_set(ctx, p, pname, iv, fv);
		return;
	case GL_TEXTURE_COMPARE_MODE: case GL_TEXTURE_COMPARE_FUNC:
	case GL_TEXTURE_MAX_ANISOTROPY: case GL_TEXTURE_SRGB_DECODE_EXT:
		return;
	default:
		drv_gl_error(ctx, GL_INVALID_ENUM);
	}
}

void drv_gl_SamplerParameteri(GLuint s, GLenum pname, GLint param) { sampler_parameter(s, pname, &param, NULL); }
void drv_gl_SamplerParameterf(GLuint s, GLenum pname, GLfloat param) { sampler_parameter(s, pname, NULL, &param); }
void drv_gl_SamplerParameteriv(GLuint s, GLenum pname, const GLint *param) { sampler_parameter(s, pname, param, NULL); }
void drv_gl_SamplerParameterfv(GLuint s, GLenum pname, const GLfloat *param) { sampler_parameter(s, pname, NULL, param); }

/* ---- multisample renderbuffers (§9.2.4) --------------------------------------------- */

void drv_gl_RenderbufferStorageMultisample(GLenum target, GLsizei samples, GLenum internalformat,
					   GLsizei w, GLsizei h)
{
	DRV_CTX(ctx);
	if (samples < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if ((GLuint)samples > DRV_MAX_SAMPLES) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	drv_gl_fb_renderbuffer_storage(target, samples, internalformat, w, h);
}

/* ---- robustness (GL 4.6 §2.3.2): the model never loses a context ----------------- */

GLenum drv_gl_GetGraphicsResetStatus(void)
{
	return GL_NO_ERROR;
}

/* KHR_parallel_shader_compile: a hint; the model compiles at once. */
void drv_gl_MaxShaderCompilerThreadsKHR(GLuint count) {}

/* ---- viewport (§13.8.1), faces (§14.6.1), polygons (§14.6.4 - 5), points and
 * lines (§14.4, §14.5), depth test (§17.3.4), logic op (§17.3.9) ------------------ */

void drv_gl_raster_init(struct drv_context *ctx)
{
	struct drv_raster_gl *r = &ctx->rast;
	r->depth_range[1] = 1.0;
	r->cull_face = GL_BACK;
	r->front_face = GL_CCW;
	r->polygon_mode[0] = r->polygon_mode[1] = GL_FILL;
	r->point_size = r->line_width = 1.0f;
	r->depth_func = GL_LESS;
	for (unsigned f = 0; f < 2; f++) {
		r->stencil[f].func = GL_ALWAYS;
		r->stencil[f].mask = ~0u;
		r->stencil[f].fail = r->stencil[f].zfail = r->stencil[f].zpass = GL_KEEP;
		r->blend_src[f] = GL_ONE;
		r->blend_dst[f] = GL_ZERO;
		r->blend_eq[f] = GL_FUNC_ADD;
	}
	r->logic_op = GL_COPY;
}

void drv_gl_Viewport(GLint x, GLint y, GLsizei w, GLsizei h)
{
	DRV_CTX(ctx);
	if (w < 0 || h < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/* clamped to GL_MAX_VIEWPORT_DIMS (drv_gl_get.c: 16384) */
	ctx->rast.viewport[0] = x;
	ctx->rast.viewport[1] = y;
	ctx->rast.viewport[2] = w > 16384 ? 16384 : w;
	ctx->rast.viewport[3] = h > 16384 ? 16384 : h;
}

void drv_gl_CullFace(GLenum mode)
{
	DRV_CTX(ctx);
	if (!face_ok(mode)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->rast.cull_face = mode;
}

void drv_gl_FrontFace(GLenum mode)
{
	DRV_CTX(ctx);
	if (mode != GL_CW && mode != GL_CCW) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->rast.front_face = mode;
}

void drv_gl_PolygonMode(GLenum face, GLenum mode)
{
	DRV_CTX(ctx);
	/* core: GL_FRONT_AND_BACK only (§14.6.4); compatibility: any face */
	if (!face_ok(face) || (ctx->core && face != GL_FRONT_AND_BACK) ||
	    (mode != GL_POINT && mode != GL_LINE && mode != GL_FILL)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (face != GL_BACK)
		ctx->rast.polygon_mode[0] = mode;
	if (face != GL_FRONT)
		ctx->rast.polygon_mode[1] = mode;
}

void drv_gl_PolygonOffset(GLfloat factor, GLfloat units)
{
	DRV_CTX(ctx);
	ctx->rast.offset_factor = factor;
	ctx->rast.offset_units = units;
}

void drv_gl_PointSize(GLfloat size)
{
	DRV_CTX(ctx);
	if (!(size > 0)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	ctx->rast.point_size = size;
}

void drv_gl_LineWidth(GLfloat width)
{
	DRV_CTX(ctx);
	if (!(width > 0)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	ctx->rast.line_width = width;
}

void drv_gl_DepthFunc(GLenum func)
{
	DRV_CTX(ctx);
	if (!func_ok(func)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->rast.depth_func = func;
}

void drv_gl_LogicOp(GLenum op)
{
	DRV_CTX(ctx);
	if (op < GL_CLEAR || op > GL_SET) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->rast.logic_op = op;
}

/* ---- to the hardware layer ---------------------------------------------------------- */

static bool enabled(const struct drv_context *ctx, GLenum cap)
{
	for (unsigned i = 0; i < ctx->n_enable_caps; i++)
		if (ctx->enable_caps[i] == cap)
			return true;
	return false;
}

static enum drv_pipe_fill fill_of(GLenum mode)
{
	return mode == GL_POINT ? DRV_FILL_POINT : mode == GL_LINE ? DRV_FILL_LINE : DRV_FILL_FILL;
}

static enum drv_pipe_stencil_op stencil_op(GLenum op)
{
	switch (op) {
	case GL_ZERO: return DRV_STENCIL_ZERO;
	case GL_REPLACE: return DRV_STENCIL_REPLACE;
	case GL_INCR: return DRV_STENCIL_INCR;
	case GL_DECR: return DRV_STENCIL_DECR;
	case GL_INVERT: return DRV_STENCIL_INVERT;
	case GL_INCR_WRAP: return DRV_STENCIL_INCR_WRAP;
	case GL_DECR_WRAP: return DRV_STENCIL_DECR_WRAP;
	default: return DRV_STENCIL_KEEP;
	}
}

static enum drv_pipe_blend_factor blend_factor(GLenum f)
{
	switch (f) {
	case GL_ZERO: return DRV_BLEND_ZERO;
	case GL_SRC_COLOR: return DRV_BLEND_SRC_COLOR;
	case GL_ONE_MINUS_SRC_COLOR: return DRV_BLEND_INV_SRC_COLOR;
	case GL_SRC_ALPHA: return DRV_BLEND_SRC_ALPHA;
	case GL_ONE_MINUS_SRC_ALPHA: return DRV_BLEND_INV_SRC_ALPHA;
	case GL_DST_ALPHA: return DRV_BLEND_DST_ALPHA;
	case GL_ONE_MINUS_DST_ALPHA: return DRV_BLEND_INV_DST_ALPHA;
	case GL_DST_COLOR: return DRV_BLEND_DST_COLOR;
	case GL_ONE_MINUS_DST_COLOR: return DRV_BLEND_INV_DST_COLOR;
	case GL_SRC_ALPHA_SATURATE: return DRV_BLEND_SRC_ALPHA_SATURATE;
	case GL_CONSTANT_COLOR: return DRV_BLEND_CONST_COLOR;
	case GL_ONE_MINUS_CONSTANT_COLOR: return DRV_BLEND_INV_CONST_COLOR;
	case GL_CONSTANT_ALPHA: return DRV_BLEND_CONST_ALPHA;
	case GL_ONE_MINUS_CONSTANT_ALPHA: return DRV_BLEND_INV_CONST_ALPHA;
	case GL_SRC1_COLOR: return DRV_BLEND_SRC1_COLOR;
	case GL_ONE_MINUS_SRC1_COLOR: return DRV_BLEND_INV_SRC1_COLOR;
	case GL_SRC1_ALPHA: return DRV_BLEND_SRC1_ALPHA;
	case GL_ONE_MINUS_SRC1_ALPHA: return DRV_BLEND_INV_SRC1_ALPHA;
	default: return DRV_BLEND_ONE;
	}
}

static enum drv_pipe_blend_func blend_func(GLenum eq)
{
	switch (eq) {
	case GL_FUNC_SUBTRACT: return DRV_BLEND_SUBTRACT;
	case GL_FUNC_REVERSE_SUBTRACT: return DRV_BLEND_REVERSE_SUBTRACT;
	case GL_MIN: return DRV_BLEND_MIN;
	case GL_MAX: return DRV_BLEND_MAX;
	default: return DRV_BLEND_ADD;
	}
}

/* GL's logic op (table 17.3) as its truth table: bit (src << 1 | dst) is
 * the result for those source and destination bits. */
static unsigned logic_table(GLenum op)
{
	unsigned t = 0;
	for (unsigned s = 0; s < 2; s++) {
		for (unsigned d = 0; d < 2; d++) {
			unsigned r;
			switch (op) {
			case GL_CLEAR: r = 0; break;
			case GL_AND: r = s & d; break;
			case GL_AND_REVERSE: r = s & !d; break;
			case GL_NOOP: r = d; break;
			case GL_AND_INVERTED: r = (1 - s) & d; break;
			case GL_XOR: r = s ^ d; break;
			case GL_OR: r = s | d; break;
			case GL_NOR: r = !(s | d); break;
			case GL_EQUIV: r = !(s ^ d); break;
			case GL_INVERT: r = !d; break;
			case GL_OR_REVERSE: r = s | !d; break;
			case GL_COPY_INVERTED: r = !s; break;
			case GL_OR_INVERTED: r = (1 - s) | d; break;
			case GL_NAND: r = !(s & d); break;
			case GL_SET: r = 1; break;
			default: r = s; break;       /* GL_COPY */
			}
			t |= r << (s << 1 | d);
		}
	}
	return t;
}

/* Compatibility / legacy per-fragment state the driver does not apply
 * (GL 4.6 compatibility §14.4 - §14.6, §15, §17.3): a reason, NULL when
 * none is on.  The fixed-function fragment stage of a program with no
 * fragment shader is only the primary colour; that of drawing without a
 * program is what drv_gl_compat.c's fixed-function programs do. */
static const char *unmodelled_state(struct drv_context *ctx, const struct drv_program_obj *p)
{
	static const struct { GLenum cap; const char *why; } caps[] = {
		{ 0x0BC0 /* GL_ALPHA_TEST */, "were drawn with the alpha test, which the driver does not apply" },
		{ 0x0B42 /* GL_POLYGON_STIPPLE */, "were drawn with polygon stipple, which the driver does not apply" },
		{ 0x0B24 /* GL_LINE_STIPPLE */, "were drawn with line stipple, which the driver does not apply" },
		{ GL_POLYGON_SMOOTH, "were drawn with polygon antialiasing, which the driver does not apply" },
		{ GL_LINE_SMOOTH, "were drawn with line antialiasing, which the driver does not apply" },
		{ 0x0B10 /* GL_POINT_SMOOTH */, "were drawn with point antialiasing, which the driver does not apply" },
		{ GL_SAMPLE_ALPHA_TO_COVERAGE, "were drawn with alpha to coverage, which the driver does not apply" },
		{ GL_SAMPLE_ALPHA_TO_ONE, "were drawn with alpha to one, which the driver does not apply" },
		{ GL_SAMPLE_COVERAGE, "were drawn with a sample coverage value, which the driver does not apply" },
		{ GL_SAMPLE_MASK, "were drawn with a sample mask, which the driver does not apply" },
		{ 0x8643 /* GL_VERTEX_PROGRAM_TWO_SIDE */, "were drawn with two-sided colours, which the driver "
							 "does not select" },
	};
	static const GLenum ff_caps[] = { 0x0B60 /* GL_FOG */, 0x8458 /* GL_COLOR_SUM */ };
	const char *why;
	bool has_fs = false;

	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
		if (enabled(ctx, caps[i].cap))
			return caps[i].why;
	if (ctx->core || ctx->gles || !p)
		return NULL;
	if (drv_gl_is_ff_program(ctx, p)) {
		/* fixed-function vertex processing is unlit (drv_gl_compat.c) */
		if (enabled(ctx, 0x0B50 /* GL_LIGHTING */))
			return "were drawn with fixed-function lighting, which the driver does not apply";
		if ((why = drv_gl_ff_fragment_unmodelled(ctx, p)))
			return why;
	} else {
		if ((why = drv_gl_ff_shade_model_unmodelled(ctx, p)))
			return why;
		for (unsigned i = 0; i < p->n_attached; i++)
			has_fs |= p->attached[i] && p->attached[i]->type == GL_FRAGMENT_SHADER;
		/* a program without a fragment shader gets the primary colour
		 * alone (drv_program_desc.ff_fragment) */
		if (!has_fs && drv_gl_ff_texturing(ctx))
			return "were drawn with fixed-function texturing, fog or colour sum, which the "
			       "driver does not apply";
	}
	for (size_t i = 0; !has_fs && i < sizeof ff_caps / sizeof ff_caps[0]; i++)
		if (enabled(ctx, ff_caps[i]))
			return "were drawn with fixed-function texturing, fog or colour sum, which the "
			       "driver does not apply";
	return NULL;
}

void drv_gl_raster_validate(struct drv_context *ctx, const struct drv_program_obj *p)
{
	const struct drv_raster_gl *r = &ctx->rast;
	struct drv_pipe_rasterizer_state rs = { 0 };
	struct drv_pipe_depth_stencil_state dsa = { 0 };
	struct drv_pipe_blend_state bl = { 0 };
	struct drv_pipe_viewport_state vp;
	struct drv_pipe_rect sc;
	bool cull = enabled(ctx, GL_CULL_FACE), stencil = enabled(ctx, GL_STENCIL_TEST);
	double n = r->depth_range[0], f = r->depth_range[1];

	rs.cull_front = cull && r->cull_face != GL_BACK;
	rs.cull_back = cull && r->cull_face != GL_FRONT;
	rs.front_ccw = r->front_face == GL_CCW;
	rs.fill_front = fill_of(r->polygon_mode[0]);
	rs.fill_back = fill_of(r->polygon_mode[1]);
	rs.offset_tri = enabled(ctx, GL_POLYGON_OFFSET_FILL);
	rs.offset_line = enabled(ctx, GL_POLYGON_OFFSET_LINE);
	rs.offset_point = enabled(ctx, GL_POLYGON_OFFSET_POINT);
	rs.offset_units = r->offset_units;
	rs.offset_scale = r->offset_factor;
	rs.point_size = r->point_size;
	rs.line_width = r->line_width;
	/* the shader's gl_PointSize with GL_PROGRAM_POINT_SIZE (GL 4.6
	 * §14.4), always in GLES (ES 3.2 §13.3) */
	rs.point_size_per_vertex = ctx->gles || enabled(ctx, GL_PROGRAM_POINT_SIZE);
	/* GL 4.6 §13.7: a point outside the clip volume is discarded; OpenGL
	 * ES clips points by the near and far planes only (Primitive
	 * Clipping), so a wide point near the window's edge is drawn in part */
	rs.point_clip_xy = !ctx->gles;
	rs.scissor = enabled(ctx, GL_SCISSOR_TEST);
	/* GL_MAX_CLIP_DISTANCES is 8 */
	for (unsigned i = 0; i < 8; i++)
		rs.clip_plane_enable |= (unsigned)enabled(ctx, GL_CLIP_DISTANCE0 + i) << i;
	rs.depth_clamp = enabled(ctx, GL_DEPTH_CLAMP);
	rs.unmodelled = unmodelled_state(ctx, p);
	drv_pipe_set_rasterizer(ctx->pipe, &rs);

	dsa.depth_enable = enabled(ctx, GL_DEPTH_TEST);
	dsa.depth_write = ctx->px.depth_mask;
	dsa.depth_func = (enum drv_pipe_func)(r->depth_func - GL_NEVER);
	for (unsigned i = 0; i < 2; i++) {
		dsa.stencil[i] = (struct drv_pipe_stencil_face){
			.enabled = stencil,
			.func = (enum drv_pipe_func)(r->stencil[i].func - GL_NEVER),
			.fail_op = stencil_op(r->stencil[i].fail),
			.zfail_op = stencil_op(r->stencil[i].zfail),
			.zpass_op = stencil_op(r->stencil[i].zpass),
			.valuemask = (uint8_t)r->stencil[i].mask,
			.writemask = (uint8_t)ctx->px.stencil_writemask[i],
			/* §17.3.5: the reference is clamped to [0, 2^s - 1] */
			.ref = (uint8_t)(r->stencil[i].ref < 0 ? 0 : r->stencil[i].ref > 255 ? 255 : r->stencil[i].ref),
		};
	}
	drv_pipe_set_depth_stencil(ctx->pipe, &dsa);

	for (unsigned i = 0; i < 8; i++) {
		bl.rt[i] = (struct drv_pipe_rt_blend){
			.enable = enabled(ctx, GL_BLEND),
			.rgb_func = blend_func(r->blend_eq[0]),
			.alpha_func = blend_func(r->blend_eq[1]),
			.rgb_src = blend_factor(r->blend_src[0]),
			.rgb_dst = blend_factor(r->blend_dst[0]),
			.alpha_src = blend_factor(r->blend_src[1]),
			.alpha_dst = blend_factor(r->blend_dst[1]),
			.colormask = ctx->px.color_mask[i],
		};
	}
	bl.logicop_enable = enabled(ctx, GL_COLOR_LOGIC_OP);
	bl.logicop = logic_table(r->logic_op);
	memcpy(bl.color, r->blend_color, sizeof bl.color);
	drv_pipe_set_blend(ctx->pipe, &bl);

	/* §13.8.1: xw = (px / 2) xd + ox, ox = x + w / 2; likewise y; zw =
	 * ((f - n) / 2) zd + (n + f) / 2; window y is the memory row (docs/isa.md) */
	vp = (struct drv_pipe_viewport_state){
		.scale = { r->viewport[2] / 2.0f, r->viewport[3] / 2.0f, (float)((f - n) / 2) },
		.translate = { (float)(r->viewport[0] + r->viewport[2] / 2.0),
			       (float)(r->viewport[1] + r->viewport[3] / 2.0), (float)((n + f) / 2) },
		.zmin = (float)(n < f ? n : f), .zmax = (float)(n < f ? f : n),
	};
	drv_pipe_set_viewport(ctx->pipe, &vp);
	sc = (struct drv_pipe_rect){ ctx->px.scissor[0], ctx->px.scissor[1],
				     (int32_t)((int64_t)ctx->px.scissor[0] + ctx->px.scissor[2]),
				     (int32_t)((int64_t)ctx->px.scissor[1] + ctx->px.scissor[3]) };
	drv_pipe_set_scissor(ctx->pipe, &sc);
}
