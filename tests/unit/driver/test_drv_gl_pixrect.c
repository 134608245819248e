/*
 * test_drv_gl_pixrect.c - the compatibility profile's raster position and
 * pixel rectangles on the sim driver (driver/st/drv_gl_pixrect.c,
 * driver/hw/drv_pm4_blit.c drv_pipe_pixrect: a textured rectangle drawn
 * through the application's per-fragment operations).
 *
 * Every expected value comes from the GL 4.6 compatibility rule the test
 * names, never from the driver: §14.7 (the raster position: model-view,
 * projection, clipping as a point, viewport and depth range; glWindowPos),
 * §14.8.1 (glDrawPixels: group (i, j) covers the fragments whose centres
 * lie in [xr + zx i, xr + zx (i + 1)) x [yr + zy j, yr + zy (j + 1))),
 * §14.8.2 (glBitmap: lower left corner (floor(xr - xo), floor(yr - yo)),
 * the raster colour where a bit is 1, then the raster position moves),
 * §8.4.4 (the unpack layout and the conversion of components), §17 (the
 * per-fragment operations that apply to their fragments) and §18.3.1 of
 * the compatibility profile (glCopyPixels: read, then drawn as
 * glDrawPixels draws).
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "drv_gl_test.h"
#include "xt_test.h"

/* Compatibility-profile entry points and enums glcorearb.h leaves out. */
typedef void (*raster_pos3f_fn)(GLfloat, GLfloat, GLfloat);
typedef void (*raster_pos2i_fn)(GLint, GLint);
typedef void (*color4f_fn)(GLfloat, GLfloat, GLfloat, GLfloat);
typedef void (*bitmap_fn)(GLsizei, GLsizei, GLfloat, GLfloat, GLfloat, GLfloat, const GLubyte *);
typedef void (*draw_pixels_fn)(GLsizei, GLsizei, GLenum, GLenum, const void *);
typedef void (*copy_pixels_fn)(GLint, GLint, GLsizei, GLsizei, GLenum);
typedef void (*pixel_zoom_fn)(GLfloat, GLfloat);
typedef void (*load_matrixf_fn)(const GLfloat *);
typedef void (*matrix_mode_fn)(GLenum);
typedef void (*enum_fn)(GLenum);
typedef void (*vertex_pointer_fn)(GLint, GLenum, GLsizei, const void *);
#define glRasterPos3f PROC(raster_pos3f_fn, "glRasterPos3f")
#define glRasterPos2i PROC(raster_pos2i_fn, "glRasterPos2i")
#define glWindowPos2i PROC(raster_pos2i_fn, "glWindowPos2i")
#define glWindowPos3f PROC(raster_pos3f_fn, "glWindowPos3f")
#define glColor4f PROC(color4f_fn, "glColor4f")
#define glBitmap PROC(bitmap_fn, "glBitmap")
#define glDrawPixels PROC(draw_pixels_fn, "glDrawPixels")
#define glCopyPixels PROC(copy_pixels_fn, "glCopyPixels")
#define glPixelZoom PROC(pixel_zoom_fn, "glPixelZoom")
#define glLoadMatrixf PROC(load_matrixf_fn, "glLoadMatrixf")
#define glMatrixMode PROC(matrix_mode_fn, "glMatrixMode")
#define glShadeModel PROC(enum_fn, "glShadeModel")
#define glEnableClientState PROC(enum_fn, "glEnableClientState")
#define glVertexPointer PROC(vertex_pointer_fn, "glVertexPointer")
#define GL_CURRENT_RASTER_COLOR          0x0B04
#define GL_CURRENT_RASTER_POSITION       0x0B07
#define GL_CURRENT_RASTER_POSITION_VALID 0x0B08
#define GL_ZOOM_X                        0x0D16
#define GL_MODELVIEW                     0x1700
#define GL_PROJECTION                    0x1701
#define GL_TEXTURE_2D_CAP                0x0DE1
#define GL_VERTEX_ARRAY                  0x8074
#define GL_LIGHTING                      0x0B50
#define GL_FLAT                          0x1D00

/* A compatibility context with a w x h RGBA8 framebuffer object (and a
 * depth buffer when `depth`), cleared to 0, bound for drawing and
 * reading. */
static struct drv_context *context_with_fbo(int w, int h, bool depth)
{
	struct drv_context *ctx = dgl_context(3, 3, false);
	GLuint fb = 0, rb[2] = { 0, 0 };

	if (!ctx)
		return NULL;
	GL(glGenRenderbuffers)(2, rb);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb[0]);
	GL(glRenderbufferStorage)(GL_RENDERBUFFER, GL_RGBA8, w, h);
	GL(glGenFramebuffers)(1, &fb);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fb);
	GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
	if (depth) {
		GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb[1]);
		GL(glRenderbufferStorage)(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
		GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
	}
	GL(glViewport)(0, 0, w, h);
	GL(glClearColor)(0, 0, 0, 0);
	GL(glClearDepth)(1.0);
	GL(glClear)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	return ctx;
}

static bool near(float a, float b)
{
	return fabsf(a - b) <= 1e-6f;
}

static void test_raster_position_transform_and_queries(void)
{
	struct drv_context *ctx = context_with_fbo(20, 10, false);
	/* model-view: translate x by 0.25 (column-major) */
	static const float mv[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.25f, 0, 0, 1 };
	float p[4] = { 0 }, c[4] = { 0 };
	GLboolean valid = GL_FALSE;

	CHECK(ctx);
	if (!ctx)
		return;
	/* the initial raster position: (0, 0, 0, 1), valid, colour white */
	GL(glGetFloatv)(GL_CURRENT_RASTER_POSITION, p);
	GL(glGetBooleanv)(GL_CURRENT_RASTER_POSITION_VALID, &valid);
	CHECK(p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3] == 1 && valid);
	glMatrixMode(GL_MODELVIEW);
	glLoadMatrixf(mv);
	GL(glDepthRange)(0.2, 0.6);
	glColor4f(2.0f, 0.5f, -1.0f, 1.0f);
	glRasterPos3f(0.25f, -0.5f, 0.5f);
	/* clip (0.5, -0.5, 0.5, 1): window x = (0.5 + 1) * 20 / 2, y = (-0.5 +
	 * 1) * 10 / 2, z = 0.2 + 0.4 (0.5 + 1) / 2; the colour clamped */
	GL(glGetFloatv)(GL_CURRENT_RASTER_POSITION, p);
	GL(glGetFloatv)(GL_CURRENT_RASTER_COLOR, c);
	GL(glGetBooleanv)(GL_CURRENT_RASTER_POSITION_VALID, &valid);
	CHECK(near(p[0], 15.0f) && near(p[1], 2.5f) && near(p[2], 0.5f) && near(p[3], 1.0f));
	CHECK(near(c[0], 1.0f) && near(c[1], 0.5f) && near(c[2], 0.0f) && near(c[3], 1.0f));
	CHECK(valid);
	/* outside the clip volume (x = 1.25 > w): invalid */
	glRasterPos3f(1.0f, 0.0f, 0.0f);
	GL(glGetBooleanv)(GL_CURRENT_RASTER_POSITION_VALID, &valid);
	CHECK(!valid);
	/* glWindowPos: x, y as given, z clamped to [0, 1] then through the
	 * depth range; valid again */
	glWindowPos3f(3.0f, 4.5f, 2.0f);
	GL(glGetFloatv)(GL_CURRENT_RASTER_POSITION, p);
	GL(glGetBooleanv)(GL_CURRENT_RASTER_POSITION_VALID, &valid);
	CHECK(near(p[0], 3.0f) && near(p[1], 4.5f) && near(p[2], 0.6f) && near(p[3], 1.0f) && valid);
	/* glPixelZoom's state */
	glPixelZoom(2.0f, -1.0f);
	GL(glGetFloatv)(GL_ZOOM_X, p);
	CHECK(p[0] == 2.0f);
	dgl_done_clean(ctx);
}

/* Bit (i, j) of a bitmap under the unpack state (§8.4.4.1 for type
 * BITMAP: rows of a * ceil(l / 8a) bytes, skips in rows and bits). */
static int bit_of(const uint8_t *data, int i, int j, int l, int a, int skip_rows, int skip_pixels, bool lsb)
{
	const int k = a * ((l + 8 * a - 1) / (8 * a));
	const int bit = skip_pixels + i;
	const uint8_t byte = data[(skip_rows + j) * k + bit / 8];
	return (byte >> (lsb ? bit % 8 : 7 - bit % 8)) & 1;
}

static void test_bitmap_unpack_colour_and_move(void)
{
	struct drv_context *ctx = context_with_fbo(24, 8, false);
	static const uint8_t data[4 * 4] = { 0xA5, 0x3C, 0xF0, 0x00, 0xFF, 0x81, 0x0F, 0x00,
					     0x5A, 0xC3, 0x99, 0x00, 0x12, 0x34, 0x56, 0x00 };
	static uint8_t got[24 * 8 * 4];
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	/* rows of 3 bytes (l = 20 bits, alignment 1), skip a row and 3 bits,
	 * LSB first */
	GL(glPixelStorei)(GL_UNPACK_ALIGNMENT, 1);
	GL(glPixelStorei)(GL_UNPACK_ROW_LENGTH, 20);
	GL(glPixelStorei)(GL_UNPACK_SKIP_ROWS, 1);
	GL(glPixelStorei)(GL_UNPACK_SKIP_PIXELS, 3);
	GL(glPixelStorei)(GL_UNPACK_LSB_FIRST, GL_TRUE);
	glColor4f(1.0f, 0.0f, 0.0f, 1.0f);
	glWindowPos2i(3, 2);
	/* the raster colour is latched by glWindowPos: this colour is not used */
	glColor4f(0.0f, 0.0f, 1.0f, 1.0f);
	/* 9 x 3 at (floor(3 - 1.5), floor(2 - 0)) = (1, 2), then moved by 10 */
	glBitmap(9, 3, 1.5f, 0.0f, 10.0f, 0.5f, data);
	/* a second at (floor(13 - 1.5), floor(2.5)) = (11, 2), MSB first */
	GL(glPixelStorei)(GL_UNPACK_LSB_FIRST, GL_FALSE);
	glBitmap(9, 3, 1.5f, 0.0f, 0.0f, 0.0f, data);
	GL(glReadPixels)(0, 0, 24, 8, GL_RGBA, GL_UNSIGNED_BYTE, got);
	for (int y = 0; y < 8; y++)
		for (int x = 0; x < 24; x++) {
			int on = 0;
			if (x >= 1 && x < 10 && y >= 2 && y < 5)
				on = bit_of(data, x - 1, y - 2, 20, 1, 1, 3, true);
			else if (x >= 11 && x < 20 && y >= 2 && y < 5)
				on = bit_of(data, x - 11, y - 2, 20, 1, 1, 3, false);
			const uint8_t want[4] = { on ? 255 : 0, 0, 0, on ? 255 : 0 };
			bad += memcmp(got + (y * 24 + x) * 4, want, 4) != 0;
		}
	CHECK_EQ_INT(bad, 0);
	/* the raster position moved by the first bitmap's (xmove, ymove) only */
	float p[4];
	GL(glGetFloatv)(GL_CURRENT_RASTER_POSITION, p);
	CHECK(p[0] == 13.0f && p[1] == 2.5f);
	GL(glPixelStorei)(GL_UNPACK_ROW_LENGTH, 0);
	GL(glPixelStorei)(GL_UNPACK_SKIP_ROWS, 0);
	GL(glPixelStorei)(GL_UNPACK_SKIP_PIXELS, 0);
	dgl_done_clean(ctx);
}

static void test_drawpixels_formats_zoom_and_fragment_ops(void)
{
	struct drv_context *ctx = context_with_fbo(12, 8, true);
	static const float rgba[2][3][4] = {
		{ { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 } },
		{ { 0.5f, 0.25f, 0, 1 }, { 1, 1, 1, 1 }, { 0, 0.5f, 1, 0.5f } },
	};
	/* GL_RGB bytes, rows of 4 groups (12 bytes, alignment 4 keeps 12),
	 * skipping the first group of each row */
	static const uint8_t rgb[2][12] = { { 9, 9, 9, 10, 20, 30, 40, 50, 60, 70, 80, 90 },
					    { 9, 9, 9, 11, 21, 31, 41, 51, 61, 71, 81, 91 } };
	static uint8_t got[12 * 8 * 4];
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	/* zoom (2, -1): group (i, j) covers x in [1 + 2i, 3 + 2i), y in [6 - (j + 1), 6 - j) */
	glPixelZoom(2.0f, -1.0f);
	glWindowPos2i(1, 6);
	glDrawPixels(3, 2, GL_RGBA, GL_FLOAT, rgba);
	glPixelZoom(1.0f, 1.0f);
	/* depth test LESS against the cleared 1.0: z = 0.25 passes and
	 * writes 0.25; z = 0.5 then fails there */
	GL(glEnable)(GL_DEPTH_TEST);
	GL(glDepthFunc)(GL_LESS);
	GL(glPixelStorei)(GL_UNPACK_ROW_LENGTH, 4);
	GL(glPixelStorei)(GL_UNPACK_SKIP_PIXELS, 1);
	glWindowPos3f(7.0f, 0.0f, 0.25f);
	glDrawPixels(3, 2, GL_RGB, GL_UNSIGNED_BYTE, rgb);
	glWindowPos3f(8.0f, 1.0f, 0.5f);
	const float white[4] = { 1, 1, 1, 1 };
	GL(glPixelStorei)(GL_UNPACK_ROW_LENGTH, 0);
	GL(glPixelStorei)(GL_UNPACK_SKIP_PIXELS, 0);
	glDrawPixels(1, 1, GL_RGBA, GL_FLOAT, white);   /* (8, 1): depth 0.25 there, fails */
	glDrawPixels(1, 1, GL_RGBA, GL_FLOAT, white);   /* same */
	GL(glDisable)(GL_DEPTH_TEST);
	/* blending ONE + ONE and a colour mask without green, scissored to
	 * column 0 .. 1: (0, 0) .. (2, 1) gets (0.6, -, 0.6, 0.6) added */
	const float part[2][2][4] = { { { 0.6f, 0.6f, 0.6f, 0.6f }, { 0.6f, 0.6f, 0.6f, 0.6f } },
				      { { 0.6f, 0.6f, 0.6f, 0.6f }, { 0.6f, 0.6f, 0.6f, 0.6f } } };
	GL(glEnable)(GL_BLEND);
	GL(glBlendFunc)(GL_ONE, GL_ONE);
	GL(glColorMask)(GL_TRUE, GL_FALSE, GL_TRUE, GL_TRUE);
	GL(glEnable)(GL_SCISSOR_TEST);
	GL(glScissor)(0, 0, 1, 8);
	glWindowPos2i(0, 0);
	glDrawPixels(2, 2, GL_RGBA, GL_FLOAT, part);
	GL(glDisable)(GL_SCISSOR_TEST);
	GL(glDisable)(GL_BLEND);
	GL(glColorMask)(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);

	/* from a pixel unpack buffer: offset 4 holds the group; past its end
	 * is GL_INVALID_OPERATION */
	static const uint8_t pbo_data[8] = { 1, 2, 3, 4, 200, 100, 50, 25 };
	GLuint pbo = 0;
	GL(glGenBuffers)(1, &pbo);
	GL(glBindBuffer)(GL_PIXEL_UNPACK_BUFFER, pbo);
	GL(glBufferData)(GL_PIXEL_UNPACK_BUFFER, sizeof pbo_data, pbo_data, GL_STATIC_DRAW);
	glWindowPos2i(11, 7);
	glDrawPixels(1, 1, GL_RGBA, GL_UNSIGNED_BYTE, (const void *)(uintptr_t)4);
	glDrawPixels(1, 1, GL_RGBA, GL_UNSIGNED_BYTE, (const void *)(uintptr_t)8);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glBindBuffer)(GL_PIXEL_UNPACK_BUFFER, 0);

	GL(glReadPixels)(0, 0, 12, 8, GL_RGBA, GL_UNSIGNED_BYTE, got);
	for (int y = 0; y < 8; y++)
		for (int x = 0; x < 12; x++) {
			uint8_t want[4] = { 0, 0, 0, 0 };
			if (x == 11 && y == 7)
				memcpy(want, pbo_data + 4, 4);
			else if (x >= 1 && x < 7 && y >= 4 && y < 6) {
				const float *g = rgba[5 - y][(x - 1) / 2];
				for (int c = 0; c < 4; c++)
					want[c] = (uint8_t)lrintf(g[c] * 255.0f);
			} else if (x >= 7 && x < 10 && y < 2) {
				const uint8_t *g = &rgb[y][3 * (x - 7 + 1)];
				memcpy(want, g, 3);
				want[3] = 255;
			} else if (x == 0 && y < 2) {
				want[0] = want[2] = want[3] = 153;   /* 0 + 0.6, eq. 2.4 */
			}
			bad += memcmp(got + (y * 12 + x) * 4, want, 4) != 0;
		}
	CHECK_EQ_INT(bad, 0);
	dgl_done_clean(ctx);
}

static void test_copypixels_overlapping_counted_as_fragments_only(void)
{
	struct drv_context *ctx = context_with_fbo(8, 4, false);
	static uint8_t before[8 * 4 * 4], got[8 * 4 * 4];
	GLuint q[2], n[2] = { 99, 99 };
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	/* every pixel its own colour */
	GL(glEnable)(GL_SCISSOR_TEST);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 8; x++) {
			GL(glScissor)(x, y, 1, 1);
			GL(glClearColor)((float)(30 * x) / 255.0f, (float)(60 * y) / 255.0f, 0.2f, 1.0f);
			GL(glClear)(GL_COLOR_BUFFER_BIT);
		}
	GL(glDisable)(GL_SCISSOR_TEST);
	GL(glReadPixels)(0, 0, 8, 4, GL_RGBA, GL_UNSIGNED_BYTE, before);
	GL(glGenQueries)(2, q);
	GL(glBeginQuery)(GL_PRIMITIVES_GENERATED, q[0]);
	GL(glBeginQuery)(GL_SAMPLES_PASSED, q[1]);
	/* (0, 0) .. (5, 3) onto (2, 1): they overlap; the read comes first */
	glWindowPos2i(2, 1);
	glCopyPixels(0, 0, 5, 3, GL_COLOR);
	GL(glEndQuery)(GL_SAMPLES_PASSED);
	GL(glEndQuery)(GL_PRIMITIVES_GENERATED);
	GL(glGetQueryObjectuiv)(q[0], GL_QUERY_RESULT, &n[0]);
	GL(glGetQueryObjectuiv)(q[1], GL_QUERY_RESULT, &n[1]);
	CHECK_EQ_INT(n[0], 0);    /* no primitives (§13.3) */
	CHECK_EQ_INT(n[1], 15);   /* 5 x 3 fragments */
	GL(glReadPixels)(0, 0, 8, 4, GL_RGBA, GL_UNSIGNED_BYTE, got);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 8; x++) {
			const bool in = x >= 2 && x < 7 && y >= 1 && y < 4;
			const uint8_t *want = before + ((in ? y - 1 : y) * 8 + (in ? x - 2 : x)) * 4;
			bad += memcmp(got + (y * 8 + x) * 4, want, 4) != 0;
		}
	CHECK_EQ_INT(bad, 0);
	dgl_done_clean(ctx);
}

static void test_discard_invalid_and_unsupported(void)
{
	struct drv_context *ctx = context_with_fbo(4, 4, false);
	static const uint8_t ones[4] = { 0xFF, 0xFF, 0xFF, 0xFF };
	uint8_t got[4 * 4 * 4];
	float p[4];

	CHECK(ctx);
	if (!ctx)
		return;
	/* GL_RASTERIZER_DISCARD: nothing drawn, the raster position moves */
	GL(glPixelStorei)(GL_UNPACK_ALIGNMENT, 1);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	glWindowPos2i(0, 0);
	glBitmap(4, 4, 0, 0, 1.0f, 2.0f, ones);
	glDrawPixels(1, 1, GL_RGBA, GL_UNSIGNED_BYTE, ones);
	glCopyPixels(0, 0, 1, 1, GL_COLOR);
	GL(glDisable)(GL_RASTERIZER_DISCARD);
	GL(glGetFloatv)(GL_CURRENT_RASTER_POSITION, p);
	CHECK(p[0] == 1.0f && p[1] == 2.0f);
	/* an invalid raster position: nothing drawn, no move */
	glRasterPos3f(3.0f, 0.0f, 0.0f);
	glBitmap(4, 4, 0, 0, 1.0f, 1.0f, ones);
	glDrawPixels(1, 1, GL_RGBA, GL_UNSIGNED_BYTE, ones);
	GL(glReadPixels)(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, got);
	int set = 0;
	for (int i = 0; i < 4 * 4 * 4; i++)
		set += got[i] != 0;
	CHECK_EQ_INT(set, 0);
	/* errors */
	glWindowPos2i(0, 0);
	glDrawPixels(-1, 1, GL_RGBA, GL_UNSIGNED_BYTE, ones);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);
	glCopyPixels(0, 0, 1, 1, GL_RGBA);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);
	CHECK(!drv_context_take_unsupported(ctx));
	/* what the sim does not draw is reported by name, and a read of the
	 * pixels too */
	glDrawPixels(1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, ones);
	const char *why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "glDrawPixels"));
	glCopyPixels(0, 0, 1, 1, GL_DEPTH);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "glCopyPixels of depth"));
	GL(glEnable)(GL_TEXTURE_2D_CAP);
	glDrawPixels(1, 1, GL_RGBA, GL_UNSIGNED_BYTE, ones);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "texturing"));
	GL(glDisable)(GL_TEXTURE_2D_CAP);
	GL(glReadPixels)(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "glDrawPixels"));
	/* a raster position a vertex shader computes: reported where it is
	 * used, not at glRasterPos */
	GLuint prog = dgl_program("#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n", NULL, NULL, 0);
	CHECK(prog != 0);
	GL(glUseProgram)(prog);
	glRasterPos2i(0, 0);
	CHECK(!drv_context_take_unsupported(ctx));
	GL(glUseProgram)(0);
	GL(glGetFloatv)(GL_CURRENT_RASTER_POSITION, p);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "glRasterPos with a program"));
	glDrawPixels(1, 1, GL_RGBA, GL_UNSIGNED_BYTE, ones);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "glRasterPos with a program"));
	/* an integer colour buffer takes no pixel rectangle's colours
	 * (§14.8.1) */
	GLuint rb = 0, fb = 0;
	GL(glGenRenderbuffers)(1, &rb);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb);
	GL(glRenderbufferStorage)(GL_RENDERBUFFER, GL_RGBA32UI, 4, 4);
	GL(glGenFramebuffers)(1, &fb);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fb);
	GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	glDrawPixels(1, 1, GL_RGBA, GL_UNSIGNED_BYTE, ones);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	CHECK(!drv_context_take_unsupported(ctx));
	dgl_done(ctx);

	/* core profile: no pixel rectangles */
	ctx = dgl_context(3, 3, true);
	CHECK(ctx);
	if (!ctx)
		return;
	glWindowPos2i(0, 0);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	glDrawPixels(1, 1, GL_RGBA, GL_UNSIGNED_BYTE, ones);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	dgl_done(ctx);
}

/* Drawing without a program (what ext_transform_feedback-discard-copypixels
 * copies): the fixed-function colour is the current colour, unlit
 * (§12.2.1 with lighting off, §15 without texturing), smooth or flat;
 * lighting is reported, its pixels not compared. */
static void test_fixed_function_colour(void)
{
	struct drv_context *ctx = context_with_fbo(4, 4, false);
	static const float quad[4][4] = { { -1, -1, 0, 1 }, { 1, -1, 0, 1 }, { -1, 1, 0, 1 }, { 1, 1, 0, 1 } };
	uint8_t got[4 * 4 * 4];
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	glColor4f(0.0f, 1.0f, 0.2f, 0.6f);
	glVertexPointer(4, GL_FLOAT, 0, quad);
	glEnableClientState(GL_VERTEX_ARRAY);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	GL(glReadPixels)(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, got);
	for (int i = 0; i < 16; i++) {
		const uint8_t want[4] = { 0, 255, 51, 153 };   /* eq. 2.4 */
		bad += memcmp(got + i * 4, want, 4) != 0;
	}
	CHECK_EQ_INT(bad, 0);
	CHECK(!drv_context_take_unsupported(ctx));
	GL(glEnable)(GL_LIGHTING);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	GL(glReadPixels)(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, got);
	const char *why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "lighting"));
	GL(glDisable)(GL_LIGHTING);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	/* the fixed-function programs' flat variant (§13.6): one colour here,
	 * drawn, not reported (test_drv_gl_pixels checks the provoking vertex) */
	glShadeModel(GL_FLAT);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	GL(glReadPixels)(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, got);
	CHECK(!drv_context_take_unsupported(ctx));
	bad = 0;
	for (int i = 0; i < 16; i++) {
		const uint8_t want[4] = { 0, 255, 51, 153 };
		bad += memcmp(got + i * 4, want, 4) != 0;
	}
	CHECK_EQ_INT(bad, 0);
	dgl_done(ctx);
}

int main(void)
{
	struct xt_err err = { 0 };
	if (dgl_screen_create(&err) != XT_OK) {
		fprintf(stderr, "dgl_screen_create: %s\n", xt_err_msg(&err));
		return 1;
	}
	XT_RUN(test_raster_position_transform_and_queries);
	XT_RUN(test_bitmap_unpack_colour_and_move);
	XT_RUN(test_drawpixels_formats_zoom_and_fragment_ops);
	XT_RUN(test_copypixels_overlapping_counted_as_fragments_only);
	XT_RUN(test_discard_invalid_and_unsupported);
	XT_RUN(test_fixed_function_colour);
	dgl_screen_destroy();
	XT_TEST_MAIN_END();
}
