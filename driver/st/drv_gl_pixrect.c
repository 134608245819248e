/*
 * drv_gl_pixrect.c - the compatibility profile's raster position and pixel
 * rectangles: glRasterPos* / glWindowPos* (GL 4.6 compatibility §14.7),
 * glPixelZoom, glDrawPixels (§14.8.1), glBitmap (§14.8.2) and
 * glCopyPixels (§18.3.1 of the compatibility profile: a read of the read
 * buffer drawn as glDrawPixels would).
 *
 * As Mesa's state tracker does (st_cb_drawpixels, st_cb_bitmap), a pixel
 * rectangle is a textured rectangle drawn through the pipeline: the state
 * tracker unpacks the groups (§8.4.4: the unpack state, conversion to
 * floating point), and the hardware layer's blitter uploads them as a 2D
 * image and draws the rectangle at the raster position with its own
 * pixel shader (drv_pipe_pixrect).  The fragments then go through the
 * application's per-fragment operations (scissor, stencil, depth at the
 * raster position's z, blending, logic op, masks, occlusion queries,
 * conditional rendering), which is what tells a pixel rectangle from a
 * blit.  They make no primitives: nothing reaches transform feedback or
 * its queries.
 *
 * Modelled: the raster position of the fixed-function transform (no
 * lighting, no user clip planes), the unpack state (alignment, row
 * length, skips, LSB-first bitmaps, byte swapping), glDrawPixels of the
 * colour formats (RGBA, RGB, BGRA, BGR, RED, GREEN, BLUE, ALPHA,
 * LUMINANCE, LUMINANCE_ALPHA) in the unsigned / signed byte, short and
 * int and float types, the zoom, glCopyPixels of colours.  Fixed-function
 * fragment processing beyond the colour (texturing, fog, colour sum), a
 * program in use, pixel transfer (maps, scale and bias: not entry points
 * of the sim), colour-index, depth and stencil pixel rectangles are
 * reported by name, and the draw framebuffer's surfaces marked (never
 * drawn wrongly).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

/* Compatibility-profile enums glcorearb.h leaves out (values from gl.xml). */
#define GL_CURRENT_RASTER_COLOR           0x0B04
#define GL_CURRENT_RASTER_TEXTURE_COORDS  0x0B06
#define GL_CURRENT_RASTER_POSITION        0x0B07
#define GL_CURRENT_RASTER_POSITION_VALID  0x0B08
#define GL_CURRENT_RASTER_DISTANCE        0x0B09
#define GL_ZOOM_X                         0x0D16
#define GL_ZOOM_Y                         0x0D17
#define GL_LIGHTING                       0x0B50
#define GL_FOG                            0x0B60
#define GL_COLOR_SUM                      0x8458
#define GL_COLOR_INDEX                    0x1900
#define GL_LUMINANCE                      0x1909
#define GL_LUMINANCE_ALPHA                0x190A
#define GL_BITMAP                         0x1A00

static _Thread_local char why_buf[256];

/* ---- the raster position (§14.7) ----------------------------------------------------- */

static void set4(float *d, float a, float b, float c, float e)
{
	d[0] = a;
	d[1] = b;
	d[2] = c;
	d[3] = e;
}

/* out = m in, m column-major */
static void transform(const float *m, const float in[4], float out[4])
{
	for (unsigned r = 0; r < 4; r++)
		out[r] = m[r] * in[0] + m[4 + r] * in[1] + m[8 + r] * in[2] + m[12 + r] * in[3];
}

static float clamp01(float v)
{
	return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
}

/* The raster colour: the current colour, clamped unless glClampColor
 * turned vertex colour clamping off (§12.2.1 without lighting). */
static void raster_color(struct drv_context *ctx, float *out)
{
	memcpy(out, ctx->ff.current[DRV_FF_COLOR].v, 4 * sizeof(float));
	if (ctx->ff.clamp_vertex_color != GL_FALSE)
		for (unsigned c = 0; c < 4; c++)
			out[c] = clamp01(out[c]);
}

/* glRasterPos: (x, y, z, w) in object coordinates through the model-view
 * and projection matrices, clipped as a point would be (§14.7), then the
 * viewport and depth range (§13.8.1). */
static void raster_pos(float x, float y, float z, float w)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	struct drv_raster_pos *rp;
	const char *unknown = NULL;

	if (!ctx)
		return;
	rp = &ctx->ff.raster;
	if (ctx->program || ctx->pipeline)
		unknown = "glRasterPos with a program in use (the raster position its vertex shader computes)";
	else if (drv_gl_cap_enabled(ctx, GL_LIGHTING))
		unknown = "glRasterPos with lighting on (the lit raster colour)";
	for (unsigned i = 0; i < 8 && !unknown; i++)
		if (drv_gl_cap_enabled(ctx, GL_CLIP_DISTANCE0 + i))
			unknown = "glRasterPos with user clip planes on";
	/* reported where it is used: a pixel rectangle or a query */
	rp->unknown = unknown;
	if (unknown)
		return;

	const struct drv_ff *ff = &ctx->ff;
	const float obj[4] = { x, y, z, w };
	float eye[4], clip[4], tc[4];
	transform(ff->modelview.m[ff->modelview.top], obj, eye);
	transform(ff->projection.m[ff->projection.top], eye, clip);
	const bool depth_clamp = drv_gl_cap_enabled(ctx, GL_DEPTH_CLAMP);
	if (!(clip[3] > 0.0f) || clip[0] < -clip[3] || clip[0] > clip[3] || clip[1] < -clip[3] ||
	    clip[1] > clip[3] || (!depth_clamp && (clip[2] < -clip[3] || clip[2] > clip[3]))) {
		rp->valid = false;
		return;
	}
	const GLint *v = ctx->rast.viewport;
	const double n = ctx->rast.depth_range[0], f = ctx->rast.depth_range[1];
	double zw = n + (f - n) * ((double)clip[2] / clip[3] + 1.0) / 2.0;
	if (depth_clamp)
		zw = zw < (n < f ? n : f) ? (n < f ? n : f) : zw > (n < f ? f : n) ? (n < f ? f : n) : zw;
	set4(rp->win, (float)(v[0] + ((double)clip[0] / clip[3] + 1.0) * v[2] / 2.0),
	     (float)(v[1] + ((double)clip[1] / clip[3] + 1.0) * v[3] / 2.0), (float)zw, clip[3]);
	rp->valid = true;
	raster_color(ctx, rp->color);
	float cur_tc[4];
	memcpy(cur_tc, ff->current[DRV_FF_TEXCOORD0].v, sizeof cur_tc);
	transform(ff->texture[0].m[ff->texture[0].top], cur_tc, tc);
	memcpy(rp->texcoord, tc, sizeof tc);
	rp->distance = sqrtf(eye[0] * eye[0] + eye[1] * eye[1] + eye[2] * eye[2]);
}

void drv_gl_RasterPos2i(GLint x, GLint y) { raster_pos((float)x, (float)y, 0.0f, 1.0f); }
void drv_gl_RasterPos2f(GLfloat x, GLfloat y) { raster_pos(x, y, 0.0f, 1.0f); }
void drv_gl_RasterPos2d(GLdouble x, GLdouble y) { raster_pos((float)x, (float)y, 0.0f, 1.0f); }
void drv_gl_RasterPos3f(GLfloat x, GLfloat y, GLfloat z) { raster_pos(x, y, z, 1.0f); }
void drv_gl_RasterPos4f(GLfloat x, GLfloat y, GLfloat z, GLfloat w) { raster_pos(x, y, z, w); }

/* glWindowPos (§14.7.1): window x, y as given, z through the depth range
 * (clamped to [0, 1] first); always valid; the raster colour and texture
 * coordinates are the current ones, the distance 0 (the fog coordinate
 * source is the fragment depth). */
static void window_pos(float x, float y, float z)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	struct drv_raster_pos *rp;

	if (!ctx)
		return;
	rp = &ctx->ff.raster;
	const double n = ctx->rast.depth_range[0], f = ctx->rast.depth_range[1];
	set4(rp->win, x, y, (float)(n + (f - n) * clamp01(z)), 1.0f);
	rp->valid = true;
	rp->unknown = NULL;
	raster_color(ctx, rp->color);
	memcpy(rp->texcoord, ctx->ff.current[DRV_FF_TEXCOORD0].v, sizeof rp->texcoord);
	rp->distance = 0.0f;
}

void drv_gl_WindowPos2i(GLint x, GLint y) { window_pos((float)x, (float)y, 0.0f); }
void drv_gl_WindowPos2f(GLfloat x, GLfloat y) { window_pos(x, y, 0.0f); }
void drv_gl_WindowPos3f(GLfloat x, GLfloat y, GLfloat z) { window_pos(x, y, z); }

void drv_gl_PixelZoom(GLfloat xfactor, GLfloat yfactor)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (!ctx)
		return;
	ctx->px.zoom[0] = xfactor;
	ctx->px.zoom[1] = yfactor;
}

void drv_gl_raster_pos_init(struct drv_context *ctx)
{
	struct drv_raster_pos *rp = &ctx->ff.raster;

	/* table 23.8: (0, 0, 0, 1), valid, colour (1, 1, 1, 1), texture
	 * coordinates (0, 0, 0, 1), distance 0 */
	memset(rp, 0, sizeof *rp);
	set4(rp->win, 0.0f, 0.0f, 0.0f, 1.0f);
	rp->valid = true;
	set4(rp->color, 1.0f, 1.0f, 1.0f, 1.0f);
	set4(rp->texcoord, 0.0f, 0.0f, 0.0f, 1.0f);
}

unsigned drv_gl_raster_pos_get(struct drv_context *ctx, GLenum pname, double *v)
{
	const struct drv_raster_pos *rp = &ctx->ff.raster;
	const float *f;

	switch (pname) {
	case GL_ZOOM_X: v[0] = ctx->px.zoom[0]; return 1;
	case GL_ZOOM_Y: v[0] = ctx->px.zoom[1]; return 1;
	case GL_UNPACK_LSB_FIRST: v[0] = ctx->px.unpack_lsb_first; return 1;
	case GL_UNPACK_SWAP_BYTES: v[0] = ctx->px.unpack_swap_bytes; return 1;
	case GL_CURRENT_RASTER_POSITION: case GL_CURRENT_RASTER_COLOR: case GL_CURRENT_RASTER_TEXTURE_COORDS:
	case GL_CURRENT_RASTER_POSITION_VALID: case GL_CURRENT_RASTER_DISTANCE:
		break;
	default:
		return 0;
	}
	if (rp->unknown)
		drv_gl_unsupported(ctx, rp->unknown);
	switch (pname) {
	case GL_CURRENT_RASTER_POSITION: f = rp->win; break;
	case GL_CURRENT_RASTER_COLOR: f = rp->color; break;
	case GL_CURRENT_RASTER_TEXTURE_COORDS: f = rp->texcoord; break;
	case GL_CURRENT_RASTER_POSITION_VALID: v[0] = rp->valid; return 1;
	default: v[0] = rp->distance; return 1;
	}
	for (unsigned i = 0; i < 4; i++)
		v[i] = f[i];
	return 4;
}

/* ---- drawing them -------------------------------------------------------------------- */

/* Whether the sim can draw call's pixel rectangle now: else reported by
 * name, the draw framebuffer's surfaces marked with `mark`. */
static bool drawable(struct drv_context *ctx, const char *call, const char *mark)
{
	static const GLenum ff_caps[] = { GL_FOG, GL_COLOR_SUM };
	const char *why = NULL;

	if (ctx->ff.raster.unknown)
		why = ctx->ff.raster.unknown;
	else if (ctx->program || ctx->pipeline)
		why = "a program in use (its fragment shader colours the fragments)";
	/* the fragments' colour is the groups' (or the raster colour): the
	 * fixed-function programs' texturing (drv_gl_compat.c) is not applied
	 * to them (§14.8.1: texture coordinates of the raster position) */
	if (!why && drv_gl_ff_texturing(ctx))
		why = "fixed-function texturing, fog or colour sum on";
	for (size_t i = 0; !why && i < sizeof ff_caps / sizeof ff_caps[0]; i++)
		if (drv_gl_cap_enabled(ctx, ff_caps[i]))
			why = "fixed-function texturing, fog or colour sum on";
	if (!why)
		return true;
	snprintf(why_buf, sizeof why_buf, "%s with %s", call, why);
	drv_gl_unsupported(ctx, why_buf);
	drv_gl_fb_mark_drawn(ctx, mark);
	return false;
}

/* Whether a colour buffer of the draw framebuffer holds integers: a
 * pixel rectangle's colours are not (GL 4.6 compatibility §14.8.1:
 * GL_INVALID_OPERATION for glDrawPixels and glCopyPixels). */
static bool integer_draw_buffer(struct drv_context *ctx)
{
	for (unsigned i = 0; i < DRV_MAX_DRAW_BUFFERS; i++) {
		const char *why = NULL;
		const struct drv_pipe_surface *d = drv_gl_fb_color(ctx, false, i, NULL, &why);
		const struct drv_pipe_format_info *fi = d ? drv_pipe_format_info(d->format) : NULL;
		if (fi && (fi->is_uint || fi->is_sint))
			return true;
	}
	return false;
}

/* Draws w x h groups (rgba, or bits for a bitmap) from window (x0, y0)
 * to (x1, y1) at the raster position's depth. */
static void draw(struct drv_context *ctx, uint32_t w, uint32_t h, const float *rgba, const uint8_t *bits,
		 float x0, float y0, float x1, float y1)
{
	struct drv_pipe_pixrect_info info = {
		.width = w, .height = h, .rgba = rgba, .bits = bits,
		.x0 = x0, .y0 = y0, .x1 = x1, .y1 = y1, .z = ctx->ff.raster.win[2],
	};

	memcpy(info.color, ctx->ff.raster.color, sizeof info.color);
	drv_gl_fb_validate(ctx);
	drv_gl_raster_validate(ctx, NULL);
	/* a draw: the call's register state is worth a snapshot */
	ctx->state_call = true;
	drv_pipe_pixrect(ctx->pipe, &info);
}

/* The client memory, or offset `pixels` of the pixel unpack buffer, that
 * holds `need` bytes of a pixel rectangle; NULL after the error (or with
 * nothing to read). */
static const uint8_t *unpack_source(struct drv_context *ctx, const void *pixels, uint64_t need, unsigned tsize)
{
	if (ctx->pixel_unpack) {
		struct drv_buffer *b = ctx->pixel_unpack;
		uint64_t off = (uint64_t)(uintptr_t)pixels;
		/* GL_INVALID_OPERATION (§8.4.4, as glReadPixels' pack
		 * buffer, §18.2.2): a mapped buffer, data past its end or an
		 * offset not a multiple of the type's size */
		if (b->mapped || off + need > (uint64_t)b->size || off % tsize) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return NULL;
		}
		if (!drv_gl_buffer_storage(ctx, b)) {
			drv_gl_error(ctx, GL_OUT_OF_MEMORY);
			return NULL;
		}
		return drv_pipe_buffer_map(&b->store) + off;
	}
	if (!pixels)
		drv_gl_unsupported(ctx, "a pixel rectangle from client address NULL");
	return pixels;
}

/* glBitmap (§14.8.2): the w x h bitmap (§8.4.4 with format COLOR_INDEX,
 * type BITMAP: rows of a * ceil(l / 8a) bytes, bit 7 of a byte first
 * unless UNPACK_LSB_FIRST) drawn with its lower left corner at
 * (floor(xr - xorig), floor(yr - yorig)) in the raster colour where it
 * holds a 1; the raster position then moves by (xmove, ymove). */
void drv_gl_Bitmap(GLsizei w, GLsizei h, GLfloat xorig, GLfloat yorig, GLfloat xmove, GLfloat ymove,
		   const GLubyte *bitmap)
{
	static const char mark[] = "were drawn by a glBitmap the sim does not draw";
	struct drv_context *ctx = drv_gl_compat_ctx();
	struct drv_raster_pos *rp;

	if (!ctx)
		return;
	rp = &ctx->ff.raster;
	if (w < 0 || h < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!rp->valid && !rp->unknown)
		return;
	if (w && h && !ctx->rasterizer_discard && integer_draw_buffer(ctx)) {
		/* undefined colours (no GL error for glBitmap) */
		drv_gl_unsupported(ctx, "glBitmap into an integer colour buffer");
		drv_gl_fb_mark_drawn(ctx, mark);
	} else if (w && h && !ctx->rasterizer_discard && drawable(ctx, "glBitmap", mark)) {
		const struct drv_pixel_state *px = &ctx->px;
		const uint64_t l = (uint64_t)(px->unpack_row_length ? px->unpack_row_length : w);
		const uint64_t a = (uint64_t)px->unpack_alignment;
		const uint64_t k = a * ((l + 8 * a - 1) / (8 * a));
		const uint64_t need = (uint64_t)(px->unpack_skip_rows + h - 1) * k +
				      ((uint64_t)px->unpack_skip_pixels + (uint64_t)w + 7) / 8;
		const uint8_t *src = unpack_source(ctx, bitmap, need, 1);
		uint8_t *bits = src ? xt_malloc((size_t)w * (size_t)h) : NULL;
		if (src && !bits)
			drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		if (!bits)
			return;
		for (GLsizei j = 0; j < h; j++) {
			const uint8_t *row = src + (uint64_t)(px->unpack_skip_rows + j) * k;
			for (GLsizei i = 0; i < w; i++) {
				const uint64_t bit = (uint64_t)px->unpack_skip_pixels + (uint64_t)i;
				const unsigned shift = px->unpack_lsb_first ? bit % 8 : 7 - bit % 8;
				bits[(size_t)j * (size_t)w + (size_t)i] = (row[bit / 8] >> shift) & 1;
			}
		}
		const float x0 = floorf(rp->win[0] - xorig), y0 = floorf(rp->win[1] - yorig);
		draw(ctx, (uint32_t)w, (uint32_t)h, NULL, bits, x0, y0, x0 + (float)w, y0 + (float)h);
		xt_free(bits);
	}
	if (rp->unknown)
		return;
	rp->win[0] += xmove;
	rp->win[1] += ymove;
}

/* The components of a colour format (§8.4.4, table 8.3): which RGBA
 * component each element is (4: luminance, R = G = B). */
static unsigned color_format(GLenum format, uint8_t comp[4])
{
	switch (format) {
	case GL_RGBA: memcpy(comp, (uint8_t[]){ 0, 1, 2, 3 }, 4); return 4;
	case GL_BGRA: memcpy(comp, (uint8_t[]){ 2, 1, 0, 3 }, 4); return 4;
	case GL_RGB: memcpy(comp, (uint8_t[]){ 0, 1, 2 }, 3); return 3;
	case GL_BGR: memcpy(comp, (uint8_t[]){ 2, 1, 0 }, 3); return 3;
	case GL_RED: comp[0] = 0; return 1;
	case GL_GREEN: comp[0] = 1; return 1;
	case GL_BLUE: comp[0] = 2; return 1;
	case GL_ALPHA: comp[0] = 3; return 1;
	case GL_LUMINANCE: comp[0] = 4; return 1;
	case GL_LUMINANCE_ALPHA: comp[0] = 4, comp[1] = 3; return 2;
	default: return 0;
	}
}

static unsigned type_size(GLenum type)
{
	switch (type) {
	case GL_UNSIGNED_BYTE: case GL_BYTE: return 1;
	case GL_UNSIGNED_SHORT: case GL_SHORT: return 2;
	case GL_UNSIGNED_INT: case GL_INT: case GL_FLOAT: return 4;
	default: return 0;
	}
}

/* One element as a float (§8.4.4.1: unsigned c / (2^b - 1), signed
 * max(c / (2^(b-1) - 1), -1), float as it is), bytes swapped first when
 * `swap`. */
static float element(const uint8_t *p, GLenum type, bool swap)
{
	uint8_t b[4];
	const unsigned n = type_size(type);
	for (unsigned i = 0; i < n; i++)
		b[i] = p[swap ? n - 1 - i : i];
	switch (type) {
	case GL_UNSIGNED_BYTE: return b[0] / 255.0f;
	case GL_BYTE: return fmaxf((int8_t)b[0] / 127.0f, -1.0f);
	case GL_UNSIGNED_SHORT: { uint16_t v; memcpy(&v, b, 2); return v / 65535.0f; }
	case GL_SHORT: { int16_t v; memcpy(&v, b, 2); return fmaxf(v / 32767.0f, -1.0f); }
	case GL_UNSIGNED_INT: { uint32_t v; memcpy(&v, b, 4); return (float)(v / 4294967295.0); }
	case GL_INT: { int32_t v; memcpy(&v, b, 4); return (float)fmax(v / 2147483647.0, -1.0); }
	default: { float v; memcpy(&v, b, 4); return v; }
	}
}

/* Draws the w x h colours rgba at the raster position, zoomed
 * (§14.8.1: group (i, j) covers the fragments whose centres lie in
 * xr + zx i <= x < xr + zx (i + 1), likewise y). */
static void draw_image(struct drv_context *ctx, GLsizei w, GLsizei h, const float *rgba)
{
	const struct drv_raster_pos *rp = &ctx->ff.raster;
	const float zx = ctx->px.zoom[0], zy = ctx->px.zoom[1];

	if (zx == 0.0f || zy == 0.0f)
		return;
	draw(ctx, (uint32_t)w, (uint32_t)h, rgba, NULL, rp->win[0], rp->win[1], rp->win[0] + zx * (float)w,
	     rp->win[1] + zy * (float)h);
}

void drv_gl_DrawPixels(GLsizei w, GLsizei h, GLenum format, GLenum type, const void *pixels)
{
	static const char mark[] = "were drawn by a glDrawPixels the sim does not draw";
	struct drv_context *ctx = drv_gl_compat_ctx();
	const struct drv_pixel_state *px;
	uint8_t comp[4];
	unsigned n, tsize;

	if (!ctx)
		return;
	px = &ctx->px;
	if (w < 0 || h < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	n = color_format(format, comp);
	tsize = type_size(type);
	if (!n || !tsize) {
		/* colour index, depth and stencil groups, packed types */
		snprintf(why_buf, sizeof why_buf, "glDrawPixels of format 0x%04X type 0x%04X", format, type);
		drv_gl_unsupported(ctx, why_buf);
		if (w && h && !ctx->rasterizer_discard && (ctx->ff.raster.valid || ctx->ff.raster.unknown))
			drv_gl_fb_mark_drawn(ctx, mark);
		return;
	}
	if (integer_draw_buffer(ctx)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if ((!ctx->ff.raster.valid && !ctx->ff.raster.unknown) || !w || !h || ctx->rasterizer_discard ||
	    !drawable(ctx, "glDrawPixels", mark))
		return;
	/* the unpack layout (§8.4.4.1, table 8.1) */
	const uint64_t group = (uint64_t)n * tsize;
	const uint64_t row_bytes = (uint64_t)(px->unpack_row_length ? px->unpack_row_length : w) * group;
	const uint64_t a = (uint64_t)px->unpack_alignment;
	const uint64_t stride = tsize >= a ? row_bytes : (row_bytes + a - 1) / a * a;
	const uint64_t need = (uint64_t)(px->unpack_skip_rows + h - 1) * stride +
			      (uint64_t)(px->unpack_skip_pixels + w) * group;
	const uint8_t *src = unpack_source(ctx, pixels, need, tsize);
	float *rgba = src ? xt_malloc((size_t)w * (size_t)h * 4 * sizeof(float)) : NULL;
	if (src && !rgba)
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
	if (!rgba)
		return;
	for (GLsizei j = 0; j < h; j++) {
		const uint8_t *p = src + (uint64_t)(px->unpack_skip_rows + j) * stride +
				   (uint64_t)px->unpack_skip_pixels * group;
		for (GLsizei i = 0; i < w; i++) {
			/* missing R, G, B are 0, a missing A is 1 (§8.4.4.2) */
			float *o = rgba + ((size_t)j * (size_t)w + (size_t)i) * 4;
			set4(o, 0.0f, 0.0f, 0.0f, 1.0f);
			for (unsigned c = 0; c < n; c++, p += tsize) {
				const float v = element(p, type, px->unpack_swap_bytes);
				if (comp[c] == 4)
					o[0] = o[1] = o[2] = v;
				else
					o[comp[c]] = v;
			}
		}
	}
	draw_image(ctx, w, h, rgba);
	xt_free(rgba);
}

/* glCopyPixels of GL_COLOR: the w x h pixels at (x, y) of the read
 * buffer, read as glReadPixels would (RGBA floats), drawn as glDrawPixels
 * draws them (compatibility §18.3.1); the read happens first, so source
 * and destination may overlap. */
void drv_gl_CopyPixels(GLint x, GLint y, GLsizei w, GLsizei h, GLenum type)
{
	static const char mark[] = "were drawn by a glCopyPixels the sim does not draw";
	static const char outside[] = "were drawn by a glCopyPixels reading outside the read framebuffer, "
				      "which GL leaves undefined (GL 4.6 compatibility §18.3.1)";
	struct drv_context *ctx = drv_gl_compat_ctx();
	struct drv_pipe_surface *s;
	const char *why = NULL;
	bool alpha_one = false;

	if (!ctx)
		return;
	if (w < 0 || h < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (type != GL_COLOR && type != GL_DEPTH && type != GL_STENCIL) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (type == GL_COLOR && integer_draw_buffer(ctx)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if ((!ctx->ff.raster.valid && !ctx->ff.raster.unknown) || !w || !h || ctx->rasterizer_discard)
		return;
	if (type != GL_COLOR) {
		drv_gl_unsupported(ctx, "glCopyPixels of depth or stencil values");
		drv_gl_fb_mark_drawn(ctx, mark);
		return;
	}
	s = drv_gl_fb_color(ctx, true, 0, &alpha_one, &why);
	if (ctx->error)
		return;
	if (!s) {
		if (why) {
			snprintf(why_buf, sizeof why_buf, "glCopyPixels from %s", why);
			drv_gl_unsupported(ctx, why_buf);
			drv_gl_fb_mark_drawn(ctx, mark);
		} else {
			drv_gl_error(ctx, GL_INVALID_OPERATION);   /* no read buffer */
		}
		return;
	}
	const struct drv_pipe_format_info *fi = drv_pipe_format_info(s->format);
	if (fi->is_uint || fi->is_sint) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);   /* integer colours: no pixel rectangle */
		return;
	}
	if (s->samples > 1) {
		drv_gl_unsupported(ctx, "glCopyPixels from a multisampled read buffer");
		drv_gl_fb_mark_drawn(ctx, mark);
		return;
	}
	if (!drawable(ctx, "glCopyPixels", mark))
		return;
	const char *unfaithful = s->unfaithful;
	float *rgba = xt_calloc((size_t)w * (size_t)h * 4, sizeof(float));
	uint32_t fb_w, fb_h;
	drv_gl_fb_size(ctx, true, &fb_w, &fb_h);
	fb_w = fb_w < s->width ? fb_w : s->width;
	fb_h = fb_h < s->height ? fb_h : s->height;
	const struct drv_pipe_rect r = { x < 0 ? 0 : x, y < 0 ? 0 : y,
					 (int64_t)x + w > (int64_t)fb_w ? (int32_t)fb_w : x + w,
					 (int64_t)y + h > (int64_t)fb_h ? (int32_t)fb_h : y + h };
	const bool inside = r.x0 == x && r.y0 == y && r.x1 == (int64_t)x + w && r.y1 == (int64_t)y + h;
	union drv_pipe_color *vals = r.x0 < r.x1 && r.y0 < r.y1 ?
		xt_malloc((size_t)(r.x1 - r.x0) * (size_t)(r.y1 - r.y0) * sizeof *vals) : NULL;
	if (!rgba || (r.x0 < r.x1 && r.y0 < r.y1 && !vals)) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
	} else if (!vals || drv_pipe_surface_read(ctx->pipe, s, &r, DRV_READ_COLOR, vals)) {
		const union drv_pipe_color *v = vals;
		for (int32_t yy = r.y0; vals && yy < r.y1; yy++)
			for (int32_t xx = r.x0; xx < r.x1; xx++, v++) {
				float *o = rgba + ((size_t)(yy - y) * (size_t)w + (size_t)(xx - x)) * 4;
				memcpy(o, v->f, 4 * sizeof(float));
				if (alpha_one)
					o[3] = 1.0f;
			}
		draw_image(ctx, w, h, rgba);
		if (unfaithful)
			drv_gl_fb_mark_drawn(ctx, unfaithful);
		else if (!inside)
			drv_gl_fb_mark_drawn(ctx, outside);
	}
	xt_free(vals);
	xt_free(rgba);
}
