/*
 * drv_gl_pixels.c - the framebuffer's pixels: clears (glClear,
 * glClearBuffer*, with the scissor and the write masks) and read-backs
 * (glReadPixels with the pack state, into client memory or a pixel pack
 * buffer), on the surfaces drv_gl_fb.c resolves.
 *
 * Rules (GL 4.6): §17.4.3 clearing (scissor test, colour / depth / stencil
 * write masks apply; RASTERIZER_DISCARD ignores clears, §14.1); §18.2
 * reading pixels: the read buffer, the pack parameters of table 8.1
 * (§8.4.4.1's row length and alignment, §18.2.9's skips), pixels outside
 * the read framebuffer undefined (left as they are, as Mesa does),
 * colour conversion of §18.2.8: a fixed-point buffer's values are in
 * [0, 1] already (GL_CLAMP_READ_COLOR's default GL_FIXED_ONLY), and
 * converting to a normalized type is equation 2.4: round(clamp(f) *
 * (2^b - 1)); integer buffers are read by integer formats only
 * (GL_INVALID_OPERATION otherwise).
 *
 * A surface whose contents the model could not make (drawn by a draw
 * before the rasterizer existed, texels uploaded and not kept) is not
 * read: the call is reported as not modelled, by its reason, and writes
 * nothing.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

void drv_gl_pixels_init(struct drv_context *ctx)
{
	struct drv_pixel_state *px = &ctx->px;
	px->clear_depth = 1.0;
	for (unsigned i = 0; i < DRV_MAX_DRAW_BUFFERS; i++)
		px->color_mask[i] = 0xF;
	px->depth_mask = true;
	px->stencil_writemask[0] = px->stencil_writemask[1] = ~0u;
	px->pack_alignment = 4;
	px->unpack_alignment = 4;
	px->zoom[0] = px->zoom[1] = 1.0f;
}

static bool enabled(const struct drv_context *ctx, GLenum cap)
{
	for (unsigned i = 0; i < ctx->n_enable_caps; i++)
		if (ctx->enable_caps[i] == cap)
			return true;
	return false;
}

/* ---- state -------------------------------------------------------------------------- */

void drv_gl_Scissor(GLint x, GLint y, GLsizei w, GLsizei h)
{
	DRV_CTX(ctx);
	if (w < 0 || h < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	ctx->px.scissor[0] = x;
	ctx->px.scissor[1] = y;
	ctx->px.scissor[2] = w;
	ctx->px.scissor[3] = h;
}

void drv_gl_ClearColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a)
{
	DRV_CTX(ctx);
	ctx->px.clear_color[0] = r;
	ctx->px.clear_color[1] = g;
	ctx->px.clear_color[2] = b;
	ctx->px.clear_color[3] = a;
}

void drv_gl_ClearDepth(GLdouble d)
{
	DRV_CTX(ctx);
	ctx->px.clear_depth = d < 0 ? 0 : d > 1 ? 1 : d;
}

void drv_gl_ClearDepthf(GLfloat d) { drv_gl_ClearDepth(d); }

void drv_gl_ClearStencil(GLint s)
{
	DRV_CTX(ctx);
	ctx->px.clear_stencil = s;
}

static unsigned rgba_mask(GLboolean r, GLboolean g, GLboolean b, GLboolean a)
{
	return (r ? 1u : 0) | (g ? 2u : 0) | (b ? 4u : 0) | (a ? 8u : 0);
}

void drv_gl_ColorMask(GLboolean r, GLboolean g, GLboolean b, GLboolean a)
{
	DRV_CTX(ctx);
	for (unsigned i = 0; i < DRV_MAX_DRAW_BUFFERS; i++)
		ctx->px.color_mask[i] = (uint8_t)rgba_mask(r, g, b, a);
}

void drv_gl_ColorMaski(GLuint buf, GLboolean r, GLboolean g, GLboolean b, GLboolean a)
{
	DRV_CTX(ctx);
	if (buf >= DRV_MAX_DRAW_BUFFERS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	ctx->px.color_mask[buf] = (uint8_t)rgba_mask(r, g, b, a);
}

void drv_gl_DepthMask(GLboolean flag)
{
	DRV_CTX(ctx);
	ctx->px.depth_mask = flag;
}

void drv_gl_StencilMaskSeparate(GLenum face, GLuint mask)
{
	DRV_CTX(ctx);
	if (face != GL_FRONT && face != GL_BACK && face != GL_FRONT_AND_BACK) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (face != GL_BACK)
		ctx->px.stencil_writemask[0] = mask;
	if (face != GL_FRONT)
		ctx->px.stencil_writemask[1] = mask;
}

void drv_gl_StencilMask(GLuint mask)
{
	drv_gl_StencilMaskSeparate(GL_FRONT_AND_BACK, mask);
}

void drv_gl_PixelStorei(GLenum pname, GLint param)
{
	DRV_CTX(ctx);
	struct drv_pixel_state *px = &ctx->px;
	switch (pname) {
	case GL_PACK_ALIGNMENT:
		if (param != 1 && param != 2 && param != 4 && param != 8) {
			drv_gl_error(ctx, GL_INVALID_VALUE);
			return;
		}
		px->pack_alignment = param;
		return;
	case GL_PACK_ROW_LENGTH: case GL_PACK_SKIP_ROWS: case GL_PACK_SKIP_PIXELS:
		if (param < 0) {
			drv_gl_error(ctx, GL_INVALID_VALUE);
			return;
		}
		if (pname == GL_PACK_ROW_LENGTH)
			px->pack_row_length = param;
		else if (pname == GL_PACK_SKIP_ROWS)
			px->pack_skip_rows = param;
		else
			px->pack_skip_pixels = param;
		return;
	case GL_UNPACK_ALIGNMENT:
		if (param != 1 && param != 2 && param != 4 && param != 8) {
			drv_gl_error(ctx, GL_INVALID_VALUE);
			return;
		}
		px->unpack_alignment = param;
		return;
	case GL_UNPACK_ROW_LENGTH: case GL_UNPACK_SKIP_ROWS: case GL_UNPACK_SKIP_PIXELS:
	case GL_UNPACK_IMAGE_HEIGHT: case GL_UNPACK_SKIP_IMAGES:
		if (param < 0) {
			drv_gl_error(ctx, GL_INVALID_VALUE);
			return;
		}
		if (pname == GL_UNPACK_ROW_LENGTH)
			px->unpack_row_length = param;
		else if (pname == GL_UNPACK_SKIP_ROWS)
			px->unpack_skip_rows = param;
		else if (pname == GL_UNPACK_SKIP_PIXELS)
			px->unpack_skip_pixels = param;
		else if (pname == GL_UNPACK_IMAGE_HEIGHT)
			px->unpack_image_height = param;
		else
			px->unpack_skip_images = param;
		return;
	case GL_UNPACK_LSB_FIRST: case GL_UNPACK_SWAP_BYTES:
		/* read by glBitmap and glDrawPixels (drv_gl_pixrect.c); the
		 * texel uploads take no types they apply to (drv_gl_tex.c) */
		if (pname == GL_UNPACK_LSB_FIRST)
			px->unpack_lsb_first = param != 0;
		else
			px->unpack_swap_bytes = param != 0;
		return;
	default:
		return;
	}
}

/* ---- clears ------------------------------------------------------------------------- */

/* The rectangle a clear writes: the draw framebuffer, cut by the scissor. */
static struct drv_pipe_rect clear_rect(struct drv_context *ctx)
{
	uint32_t w, h;
	struct drv_pipe_rect r;

	drv_gl_fb_size(ctx, false, &w, &h);
	r = (struct drv_pipe_rect){ 0, 0, (int32_t)w, (int32_t)h };
	if (enabled(ctx, GL_SCISSOR_TEST)) {
		const GLint *s = ctx->px.scissor;
		int64_t x1 = (int64_t)s[0] + s[2], y1 = (int64_t)s[1] + s[3];
		r.x0 = s[0] > r.x0 ? s[0] : r.x0;
		r.y0 = s[1] > r.y0 ? s[1] : r.y0;
		r.x1 = x1 < r.x1 ? (int32_t)x1 : r.x1;
		r.y1 = y1 < r.y1 ? (int32_t)y1 : r.y1;
	}
	return r;
}

/* Whether clears happen now; a clear under conditional rendering is done
 * and its surfaces marked, as the condition is not evaluated for it. */
static bool clears_apply(struct drv_context *ctx)
{
	return !ctx->rasterizer_discard;
}

static void mark_conditional(struct drv_context *ctx, struct drv_pipe_surface *s)
{
	if (ctx->cond_query && s)
		s->unfaithful = "were cleared under conditional rendering, which the sim does not "
				"evaluate for clears";
}

/* Clears colour draw buffer i to `v` (read as the buffer's type: kind
 * GL_FLOAT, GL_INT or GL_UNSIGNED_INT; a value of another kind than the
 * buffer's leaves it undefined, §17.4.3.1: untouched here). */
static void clear_color(struct drv_context *ctx, unsigned i, const union drv_pipe_color *v,
			GLenum kind)
{
	const char *why;
	struct drv_pipe_surface *s = drv_gl_fb_color(ctx, false, i, NULL, &why);
	const struct drv_pipe_format_info *fi;
	struct drv_pipe_rect r = clear_rect(ctx);

	if (!s)
		return;
	fi = drv_pipe_format_info(s->format);
	if ((kind == GL_INT) != fi->is_sint || (kind == GL_UNSIGNED_INT) != fi->is_uint)
		return;
	drv_pipe_clear_color(ctx->pipe, s, &r, ctx->px.color_mask[i], v);
	mark_conditional(ctx, s);
}

static void clear_zs(struct drv_context *ctx, bool depth, bool stencil, double d, GLint st)
{
	const char *why;
	struct drv_pipe_surface *s = drv_gl_fb_zs(ctx, false, &why);
	struct drv_pipe_rect r = clear_rect(ctx);

	if (!s)
		return;
	drv_pipe_clear_depth_stencil(ctx->pipe, s, &r, depth && ctx->px.depth_mask,
				     d < 0 ? 0 : d > 1 ? 1 : d,
				     stencil ? (uint8_t)ctx->px.stencil_writemask[0] : 0, (uint8_t)st);
	mark_conditional(ctx, s);
}

void drv_gl_Clear(GLbitfield mask)
{
	DRV_CTX(ctx);
	if (mask & ~(GLbitfield)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!clears_apply(ctx))
		return;
	if (mask & GL_COLOR_BUFFER_BIT) {
		union drv_pipe_color v;
		memcpy(v.f, ctx->px.clear_color, sizeof v.f);
		for (unsigned i = 0; i < DRV_MAX_DRAW_BUFFERS; i++)
			clear_color(ctx, i, &v, GL_FLOAT);
	}
	if (mask & (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
		clear_zs(ctx, mask & GL_DEPTH_BUFFER_BIT, mask & GL_STENCIL_BUFFER_BIT,
			 ctx->px.clear_depth, ctx->px.clear_stencil);
}

/* glClearBuffer* (GL 4.6 §17.4.3.1): `color`, `depth`, `stencil`,
 * `depth_stencil`: which buffers the entry point takes. */
static bool clear_buffer_ok(struct drv_context *ctx, GLenum buffer, GLint drawbuffer, bool color,
			    bool depth, bool stencil, bool depth_stencil)
{
	bool ok = (buffer == GL_COLOR && color) || (buffer == GL_DEPTH && depth) ||
		  (buffer == GL_STENCIL && stencil) || (buffer == GL_DEPTH_STENCIL && depth_stencil);
	if (!ok) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return false;
	}
	if (buffer == GL_COLOR ? drawbuffer < 0 || drawbuffer >= (GLint)DRV_MAX_DRAW_BUFFERS
			       : drawbuffer != 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return false;
	}
	return clears_apply(ctx);
}

void drv_gl_ClearBufferfv(GLenum buffer, GLint drawbuffer, const GLfloat *value)
{
	DRV_CTX(ctx);
	if (!clear_buffer_ok(ctx, buffer, drawbuffer, true, true, false, false))
		return;
	if (buffer == GL_COLOR) {
		union drv_pipe_color v;
		memcpy(v.f, value, sizeof v.f);
		clear_color(ctx, (unsigned)drawbuffer, &v, GL_FLOAT);
	} else {
		clear_zs(ctx, true, false, value[0], 0);
	}
}

void drv_gl_ClearBufferiv(GLenum buffer, GLint drawbuffer, const GLint *value)
{
	DRV_CTX(ctx);
	if (!clear_buffer_ok(ctx, buffer, drawbuffer, true, false, true, false))
		return;
	if (buffer == GL_COLOR) {
		union drv_pipe_color v;
		memcpy(v.i, value, sizeof v.i);
		clear_color(ctx, (unsigned)drawbuffer, &v, GL_INT);
	} else {
		clear_zs(ctx, false, true, 0, value[0]);
	}
}

void drv_gl_ClearBufferuiv(GLenum buffer, GLint drawbuffer, const GLuint *value)
{
	DRV_CTX(ctx);
	if (!clear_buffer_ok(ctx, buffer, drawbuffer, true, false, false, false))
		return;
	union drv_pipe_color v;
	memcpy(v.u, value, sizeof v.u);
	clear_color(ctx, (unsigned)drawbuffer, &v, GL_UNSIGNED_INT);
}

void drv_gl_ClearBufferfi(GLenum buffer, GLint drawbuffer, GLfloat depth, GLint stencil)
{
	DRV_CTX(ctx);
	if (clear_buffer_ok(ctx, buffer, drawbuffer, false, false, false, true))
		clear_zs(ctx, true, true, depth, stencil);
}

/* ---- glReadPixels ------------------------------------------------------------------- */

/* Components of a pixel format: which of R, G, B, A (or depth, stencil)
 * in order; 0 components for a format that is none. */
struct pack_format {
	unsigned n;
	int comp[4];          /* 0..3 = R, G, B, A */
	bool integer;
};

static bool pack_format(GLenum format, struct pack_format *pf)
{
	static const struct { GLenum f; unsigned n; int c[4]; bool integer; } t[] = {
		{ GL_RED, 1, { 0 }, false }, { GL_GREEN, 1, { 1 }, false },
		{ GL_BLUE, 1, { 2 }, false }, { GL_ALPHA, 1, { 3 }, false },
		{ GL_RG, 2, { 0, 1 }, false }, { GL_RGB, 3, { 0, 1, 2 }, false },
		{ GL_BGR, 3, { 2, 1, 0 }, false }, { GL_RGBA, 4, { 0, 1, 2, 3 }, false },
		{ GL_BGRA, 4, { 2, 1, 0, 3 }, false },
		{ GL_RED_INTEGER, 1, { 0 }, true }, { GL_RG_INTEGER, 2, { 0, 1 }, true },
		{ GL_RGB_INTEGER, 3, { 0, 1, 2 }, true }, { GL_RGBA_INTEGER, 4, { 0, 1, 2, 3 }, true },
		{ GL_DEPTH_COMPONENT, 1, { 0 }, false }, { GL_STENCIL_INDEX, 1, { 0 }, true },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		if (t[i].f == format) {
			*pf = (struct pack_format){ t[i].n, { t[i].c[0], t[i].c[1], t[i].c[2], t[i].c[3] },
						    t[i].integer };
			return true;
		}
	}
	return false;
}

static unsigned type_size(GLenum type)
{
	switch (type) {
	case GL_UNSIGNED_BYTE: case GL_BYTE: return 1;
	case GL_UNSIGNED_SHORT: case GL_SHORT: case GL_HALF_FLOAT: return 2;
	case GL_UNSIGNED_INT: case GL_INT: case GL_FLOAT: return 4;
	default: return 0;
	}
}

/* A fixed-point depth value of `bits` bits as a normalized integer of
 * `to_bits` bits: equation 2.2 then 2.4, exact in double. */
static double depth_unorm(uint32_t v, unsigned bits, unsigned to_bits)
{
	return floor(v / (double)((1ull << bits) - 1) * (double)((1ull << to_bits) - 1) + 0.5);
}

/* One component into `type` at p (§18.2.8, equation 2.4 for normalized
 * types); a fixed-point depth (`depth`) converts from its stored
 * value. */
static void store(GLenum type, bool integer, const union drv_pipe_color *v, int c, uint8_t *p,
		  bool depth)
{
	float f = v->f[c];
	if (depth && v->u[2] && (type == GL_UNSIGNED_INT || type == GL_UNSIGNED_SHORT)) {
		double u = depth_unorm(v->u[1], v->u[2], type == GL_UNSIGNED_INT ? 32 : 16);
		if (type == GL_UNSIGNED_INT) {
			uint32_t x = (uint32_t)u;
			memcpy(p, &x, 4);
		} else {
			uint16_t x = (uint16_t)u;
			memcpy(p, &x, 2);
		}
		return;
	}
	switch (type) {
	case GL_FLOAT:
		memcpy(p, &f, 4);
		return;
	case GL_UNSIGNED_BYTE: {
		uint8_t b = integer ? (uint8_t)v->u[c]
				    : (uint8_t)(f > 0 ? (f >= 1 ? 255 : floor(f * 255.0 + 0.5)) : 0);
		*p = b;
		return;
	}
	case GL_UNSIGNED_SHORT: {
		uint16_t u = integer ? (uint16_t)v->u[c]
				     : (uint16_t)(f > 0 ? (f >= 1 ? 65535 : floor(f * 65535.0 + 0.5)) : 0);
		memcpy(p, &u, 2);
		return;
	}
	case GL_UNSIGNED_INT: {
		uint32_t u = integer ? v->u[c]
				     : (uint32_t)(f > 0 ? (f >= 1 ? 4294967295.0 : floor(f * 4294967295.0 + 0.5)) : 0);
		memcpy(p, &u, 4);
		return;
	}
	case GL_INT:
		memcpy(p, &v->i[c], 4);
		return;
	default:
		return;
	}
}

static void read_pixels(struct drv_context *ctx, GLint x, GLint y, GLsizei w, GLsizei h,
			GLenum format, GLenum type, GLsizei buf_size, void *pixels)
{
	static _Thread_local char why_buf[512];
	struct drv_pixel_state *px = &ctx->px;
	struct pack_format pf;
	unsigned tsize = type_size(type);
	bool alpha_one = false;
	const char *why = NULL;
	struct drv_pipe_surface *s;
	enum drv_pipe_read what = DRV_READ_COLOR;
	uint32_t fb_w, fb_h;
	uint64_t row_bytes, stride, need;
	uint8_t *dst;

	if (w < 0 || h < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!pack_format(format, &pf) || !tsize) {
		snprintf(why_buf, sizeof why_buf, "glReadPixels of format 0x%04X type 0x%04X", format, type);
		drv_gl_unsupported(ctx, why_buf);
		return;
	}
	if (format == GL_DEPTH_COMPONENT) {
		what = DRV_READ_DEPTH;
		s = drv_gl_fb_zs(ctx, true, &why);
	} else if (format == GL_STENCIL_INDEX) {
		what = DRV_READ_STENCIL;
		s = drv_gl_fb_zs(ctx, true, &why);
	} else {
		s = drv_gl_fb_color(ctx, true, 0, &alpha_one, &why);
	}
	if (ctx->error)
		return;                   /* out of memory for the surface */
	if (!s && !why) {
		if (!ctx->fb.read && !ctx->fb.window.known)
			drv_gl_unsupported(ctx, "reading the window-system framebuffer, whose size and "
						"config the replay did not give");
		else
			drv_gl_error(ctx, GL_INVALID_OPERATION);   /* no read buffer / image */
		return;
	}
	if (!s) {
		snprintf(why_buf, sizeof why_buf, "reading pixels of %s", why);
		drv_gl_unsupported(ctx, why_buf);
		return;
	}
	{
		const struct drv_pipe_format_info *fi = drv_pipe_format_info(s->format);
		bool int_buf = fi->is_uint || fi->is_sint;
		if (what == DRV_READ_COLOR && int_buf != pf.integer) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		if ((what == DRV_READ_DEPTH && !fi->depth) || (what == DRV_READ_STENCIL && !fi->stencil)) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		if (ctx->fb.read && s->samples > 1) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);   /* §18.2.1: a multisampled FBO */
			return;
		}
	}
	if (s->samples > 1) {
		drv_gl_unsupported(ctx, "reading a multisampled window-system framebuffer (a resolve)");
		return;
	}
	if (s->unfaithful) {
		snprintf(why_buf, sizeof why_buf, "reading pixels that %s", s->unfaithful);
		drv_gl_unsupported(ctx, why_buf);
		return;
	}
	/* the pack layout (§8.4.4.1, table 8.1) */
	row_bytes = (uint64_t)(px->pack_row_length ? px->pack_row_length : w) * pf.n * tsize;
	stride = tsize >= (unsigned)px->pack_alignment
			 ? row_bytes
			 : (row_bytes + (uint64_t)px->pack_alignment - 1) / (uint64_t)px->pack_alignment *
				   (uint64_t)px->pack_alignment;
	need = w && h ? (uint64_t)(px->pack_skip_rows + h - 1) * stride +
				(uint64_t)(px->pack_skip_pixels + w) * pf.n * tsize
		      : 0;
	if (ctx->pixel_pack) {
		struct drv_buffer *b = ctx->pixel_pack;
		uint64_t off = (uint64_t)(uintptr_t)pixels;
		if (b->mapped || off + need > (uint64_t)b->size || off % tsize) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		if (!need)
			return;
		if (!drv_gl_buffer_storage(ctx, b)) {
			drv_gl_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		dst = drv_pipe_buffer_map(&b->store) + off;
	} else {
		if (buf_size >= 0 && need > (uint64_t)buf_size) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);   /* glReadnPixels */
			return;
		}
		if (!need)
			return;
		if (!pixels) {
			drv_gl_unsupported(ctx, "glReadPixels into client address NULL");
			return;
		}
		dst = pixels;
	}
	/* the part inside the framebuffer; the rest is undefined (kept) */
	drv_gl_fb_size(ctx, true, &fb_w, &fb_h);
	struct drv_pipe_rect r = { x < 0 ? 0 : x, y < 0 ? 0 : y,
				   (int64_t)x + w > (int64_t)fb_w ? (int32_t)fb_w : x + w,
				   (int64_t)y + h > (int64_t)fb_h ? (int32_t)fb_h : y + h };
	if (r.x1 > (int32_t)s->width)
		r.x1 = (int32_t)s->width;
	if (r.y1 > (int32_t)s->height)
		r.y1 = (int32_t)s->height;
	if (r.x0 >= r.x1 || r.y0 >= r.y1)
		return;
	union drv_pipe_color *vals = xt_malloc((size_t)(r.x1 - r.x0) * (size_t)(r.y1 - r.y0) * sizeof *vals);
	if (!vals) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	if (drv_pipe_surface_read(ctx->pipe, s, &r, what, vals)) {
		const union drv_pipe_color *v = vals;
		for (int32_t yy = r.y0; yy < r.y1; yy++) {
			uint8_t *row = dst + (uint64_t)(px->pack_skip_rows + (yy - y)) * stride +
				       (uint64_t)(px->pack_skip_pixels + (r.x0 - x)) * pf.n * tsize;
			for (int32_t xx = r.x0; xx < r.x1; xx++, v++) {
				union drv_pipe_color c = *v;
				if (alpha_one)
					c.f[3] = 1.0f;
				for (unsigned k = 0; k < pf.n; k++, row += tsize)
					store(type, pf.integer, &c, pf.comp[k], row, what == DRV_READ_DEPTH);
			}
		}
	}
	xt_free(vals);
}

void drv_gl_ReadPixels(GLint x, GLint y, GLsizei w, GLsizei h, GLenum format, GLenum type,
		       void *pixels)
{
	DRV_CTX(ctx);
	read_pixels(ctx, x, y, w, h, format, type, -1, pixels);
}

void drv_gl_ReadnPixels(GLint x, GLint y, GLsizei w, GLsizei h, GLenum format, GLenum type,
			GLsizei buf_size, void *pixels)
{
	DRV_CTX(ctx);
	if (buf_size < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	read_pixels(ctx, x, y, w, h, format, type, buf_size, pixels);
}
