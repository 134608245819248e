/*
 * test_drv_gl_pixels.c - the framebuffer's pixels on the sim driver
 * (drv_gl_pixels.c, drv_gl_fb.c, driver/hw/drv_pm4_fb.c): the
 * window-system framebuffer the replay describes, framebuffer objects,
 * clears with the scissor and the write masks, and glReadPixels with the
 * pack state, into client memory and a pixel pack buffer.
 *
 * Every expected value is computed here from the GL 4.6 rules the test
 * names, never read from the driver: a normalized component stores
 * round(clamp(c) * (2^b - 1)) (equation 2.4 / §17.3.7's conversion to
 * fixed point), reading it as GL_FLOAT gives u / (2^b - 1) (equation 2.2),
 * a float buffer keeps its values and clamps only on conversion to a
 * normalized type (§18.2.8).  The register state a draw that reaches the
 * rasterizer programs is read back from the GPU and compared with GL's
 * viewport transform (§13.8.1) and GFX8's encodings.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv_gl_test.h"
#include "pm4_regs.h"
#include "xt_test.h"

#define W 40
#define H 24


/* A triangle strip of gl_VertexID 0..3 covering the viewport: the vertex
 * shader of the pixel tests that shade every pixel. */
#define QUAD_CORNERS \
	"const vec2 P[4] = vec2[4](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0));\n"
static const char quad_vs[] =
	"#version 330\n" QUAD_CORNERS
	"void main() { gl_Position = vec4(P[gl_VertexID], 0.0, 1.0); }\n";

static struct drv_context *window_context(void)
{
	struct drv_context *ctx = dgl_context(3, 3, true);
	struct drv_window w = { .width = W, .height = H, .red = 8, .green = 8, .blue = 8,
				.alpha = 8, .depth = 24, .stencil = 8 };
	if (ctx)
		drv_context_set_window(ctx, &w);
	return ctx;
}

/* round(clamp(c) * 255), equation 2.4 */
static uint8_t ubyte_of(double c)
{
	return (uint8_t)(c <= 0 ? 0 : c >= 1 ? 255 : floor(c * 255.0 + 0.5));
}

static void read_rgba8(int x, int y, int w, int h, uint8_t *out)
{
	GL(glReadPixels)(x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE, out);
}

static void test_clear_reads_back_converted_to_unorm8(void)
{
	struct drv_context *ctx = window_context();
	static uint8_t px[W * H * 4];
	float f[4] = { 0 };

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glClearColor)(0.25f, 0.2f, 0.6f, 1.0f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	memset(px, 0xEE, sizeof px);
	read_rgba8(0, 0, W, H, px);
	int bad = 0;
	for (int i = 0; i < W * H; i++)
		bad += px[4 * i] != ubyte_of(0.25f) || px[4 * i + 1] != ubyte_of(0.2f) ||
		       px[4 * i + 2] != ubyte_of(0.6f) || px[4 * i + 3] != 255;
	CHECK_EQ_INT(bad, 0);
	CHECK_EQ_INT(px[0], 64);           /* 63.75 rounds up */
	/* GL_FLOAT: u / 255 (equation 2.2) */
	GL(glReadPixels)(W - 1, H - 1, 1, 1, GL_RGBA, GL_FLOAT, f);
	CHECK(f[0] == 64 / 255.0f && f[1] == ubyte_of(0.2f) / 255.0f && f[3] == 1.0f);
	/* clamped to [0, 1] before conversion */
	GL(glClearColor)(-0.5f, 2.0f, 0.0f, 0.0f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	read_rgba8(3, 3, 1, 1, px);
	CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0 && px[3] == 0);
	dgl_done_clean(ctx);
}

/* §17.4.3: the scissor test and the colour mask apply to clears. */
static void test_clear_obeys_scissor_and_color_mask(void)
{
	struct drv_context *ctx = window_context();
	static uint8_t px[W * H * 4];

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glClearColor)(0, 0, 1, 1);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glEnable)(GL_SCISSOR_TEST);
	GL(glScissor)(8, 4, 16, 8);
	GL(glClearColor)(1, 1, 0, 0);
	GL(glColorMask)(GL_TRUE, GL_TRUE, GL_FALSE, GL_TRUE);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glDisable)(GL_SCISSOR_TEST);
	GL(glColorMask)(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	read_rgba8(0, 0, W, H, px);
	int bad = 0;
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			const uint8_t *p = px + 4 * (y * W + x);
			bool in = x >= 8 && x < 24 && y >= 4 && y < 12;
			/* inside: red and green written, blue masked (kept 255), alpha 0 */
			uint8_t want[4] = { in ? 255 : 0, in ? 255 : 0, 255, in ? 0 : 255 };
			bad += memcmp(p, want, 4) != 0;
		}
	}
	CHECK_EQ_INT(bad, 0);
	/* GL_RASTERIZER_DISCARD ignores clears (§14.1) */
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glClearColor)(0, 0, 0, 0);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glDisable)(GL_RASTERIZER_DISCARD);
	read_rgba8(0, 0, 1, 1, px);
	CHECK(px[2] == 255 && px[3] == 255);
	dgl_done_clean(ctx);
}

/* §8.4.4.1 / §18.2.9: row length, alignment and skips place the pixels;
 * the padding bytes and what lies outside the framebuffer are not written. */
static void test_read_pixels_follows_the_pack_state(void)
{
	struct drv_context *ctx = window_context();
	uint8_t buf[256];

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glClearColor)(0.2f, 0.4f, 0.6f, 0.8f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	/* GL_RGB, 3 pixels of 3 bytes: rows of 9 bytes padded to 12 (alignment 4) */
	memset(buf, 0xEE, sizeof buf);
	GL(glReadPixels)(0, 0, 3, 2, GL_RGB, GL_UNSIGNED_BYTE, buf);
	CHECK(buf[0] == ubyte_of(0.2f) && buf[1] == ubyte_of(0.4f) && buf[2] == ubyte_of(0.6f));
	CHECK(buf[9] == 0xEE && buf[11] == 0xEE);
	CHECK(buf[12] == ubyte_of(0.2f) && buf[20] == ubyte_of(0.6f) && buf[21] == 0xEE);
	/* row length 5, skip 1 row and 2 pixels, alignment 1; BGRA order */
	memset(buf, 0xEE, sizeof buf);
	GL(glPixelStorei)(GL_PACK_ALIGNMENT, 1);
	GL(glPixelStorei)(GL_PACK_ROW_LENGTH, 5);
	GL(glPixelStorei)(GL_PACK_SKIP_ROWS, 1);
	GL(glPixelStorei)(GL_PACK_SKIP_PIXELS, 2);
	GL(glReadPixels)(0, 0, 1, 1, GL_BGRA, GL_UNSIGNED_BYTE, buf);
	CHECK_EQ_INT(buf[(5 + 2) * 4 + 0], ubyte_of(0.6f));
	CHECK_EQ_INT(buf[(5 + 2) * 4 + 2], ubyte_of(0.2f));
	CHECK_EQ_INT(buf[(5 + 2) * 4 + 3], ubyte_of(0.8f));
	CHECK_EQ_INT(buf[(5 + 2) * 4 - 1], 0xEE);
	CHECK_EQ_INT(buf[(5 + 2) * 4 + 4], 0xEE);
	GL(glPixelStorei)(GL_PACK_ROW_LENGTH, 0);
	GL(glPixelStorei)(GL_PACK_SKIP_ROWS, 0);
	GL(glPixelStorei)(GL_PACK_SKIP_PIXELS, 0);
	/* a rectangle hanging over the right edge: the outside pixel is kept */
	memset(buf, 0xEE, sizeof buf);
	read_rgba8(W - 1, 0, 2, 1, buf);
	CHECK(buf[0] == ubyte_of(0.2f) && buf[4] == 0xEE && buf[7] == 0xEE);
	GL(glPixelStorei)(GL_PACK_ALIGNMENT, 3);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);
	dgl_done_clean(ctx);
}

/* Depth and stencil of the window: the clear value converted to 24 bits,
 * the stencil write mask (§17.4.2) applied. */
static void test_depth_and_stencil_clears_read_back(void)
{
	struct drv_context *ctx = window_context();
	float d = -1;
	uint8_t st = 0;
	uint32_t du = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glClearDepth)(0.25);
	GL(glClearStencil)(0x5A);
	GL(glStencilMask)(0x0F);
	GL(glClear)(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	GL(glReadPixels)(5, 6, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, &d);
	/* round(0.25 * (2^24 - 1)) / (2^24 - 1) */
	CHECK(d == (float)(floor(0.25 * 16777215.0 + 0.5) / 16777215.0));
	GL(glReadPixels)(5, 6, 1, 1, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, &st);
	CHECK_EQ_INT(st, 0x0A);           /* the bits outside the mask stay 0 */
	GL(glDepthMask)(GL_FALSE);
	GL(glClearDepth)(1.0);
	GL(glClear)(GL_DEPTH_BUFFER_BIT);
	GL(glReadPixels)(5, 6, 1, 1, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, &du);
	/* unchanged: 4194304 / (2^24 - 1) to 32 bits */
	CHECK_EQ_INT(du, (uint32_t)floor(floor(0.25 * 16777215.0 + 0.5) / 16777215.0 * 4294967295.0 + 0.5));
	dgl_done_clean(ctx);
}

/* Framebuffer objects: a float renderbuffer keeps its values, an integer
 * texture is read by integer formats only (§18.2.8). */
static void test_fbo_float_and_integer_attachments(void)
{
	struct drv_context *ctx = window_context();
	GLuint fb = 0, rb = 0, tex = 0;
	static const GLfloat fv[4] = { 1.5f, -2.0f, 0.125f, 3.0f };
	static const GLuint uv[4] = { 0xDEADBEEFu, 7, 8, 9 };
	float f[4] = { 0 };
	uint8_t b[4] = { 0 };
	GLuint u[2] = { 0 };

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glGenFramebuffers)(1, &fb);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fb);
	GL(glGenRenderbuffers)(1, &rb);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb);
	GL(glRenderbufferStorage)(GL_RENDERBUFFER, GL_RGBA32F, 7, 5);
	GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	GL(glClearBufferfv)(GL_COLOR, 0, fv);
	GL(glReadPixels)(6, 4, 1, 1, GL_RGBA, GL_FLOAT, f);
	CHECK(f[0] == 1.5f && f[1] == -2.0f && f[2] == 0.125f && f[3] == 3.0f);
	GL(glReadPixels)(6, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, b);
	CHECK(b[0] == 255 && b[1] == 0 && b[2] == ubyte_of(0.125) && b[3] == 255);

	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	GL(glTexStorage2D)(GL_TEXTURE_2D, 1, GL_R32UI, 3, 3);
	GL(glFramebufferTexture2D)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D, tex, 0);
	GLenum bufs[2] = { GL_NONE, GL_COLOR_ATTACHMENT1 };
	GL(glDrawBuffers)(2, bufs);
	GL(glClearBufferuiv)(GL_COLOR, 1, uv);
	GL(glReadBuffer)(GL_COLOR_ATTACHMENT1);
	GL(glReadPixels)(1, 2, 2, 1, GL_RED_INTEGER, GL_UNSIGNED_INT, u);
	CHECK(u[0] == 0xDEADBEEFu && u[1] == 0xDEADBEEFu);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	GL(glReadPixels)(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, b);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	/* the renderbuffer (draw buffer 0 is GL_NONE now) kept its values */
	GL(glReadBuffer)(GL_COLOR_ATTACHMENT0);
	GL(glClearBufferfv)(GL_COLOR, 0, (const GLfloat[4]){ 0, 0, 0, 0 });
	GL(glReadPixels)(0, 0, 1, 1, GL_RGBA, GL_FLOAT, f);
	CHECK(f[0] == 1.5f);
	dgl_done_clean(ctx);
}

/* A pixel pack buffer receives the pixels at the offset `pixels` gives. */
static void test_read_pixels_into_a_pack_buffer(void)
{
	struct drv_context *ctx = window_context();
	GLuint buf = 0;
	uint8_t got[12] = { 0 };

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glClearColor)(0.2f, 0.4f, 0.6f, 0.8f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glGenBuffers)(1, &buf);
	GL(glBindBuffer)(GL_PIXEL_PACK_BUFFER, buf);
	GL(glBufferData)(GL_PIXEL_PACK_BUFFER, 12, NULL, GL_STREAM_READ);
	GL(glReadPixels)(0, 0, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, (void *)4);
	GL(glGetBufferSubData)(GL_PIXEL_PACK_BUFFER, 0, 12, got);
	CHECK(got[0] == 0 && got[4] == ubyte_of(0.2f) && got[11] == ubyte_of(0.8f));
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	/* 8 bytes at offset 8 do not fit in 12 */
	GL(glReadPixels)(0, 0, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, (void *)8);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	dgl_done_clean(ctx);
}

/* Pixels a draw rasterized, which the model cannot yet produce, are not
 * handed back as if they were GL's: the read is reported, by reason. */
static void test_pixels_of_a_draw_not_rasterized_are_reported(void)
{
	struct drv_context *ctx = window_context();
	GLuint prog, vao = 0;
	uint8_t px[4] = { 0xEE, 0xEE, 0xEE, 0xEE };
	const char *why;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = dgl_program("#version 330\nvoid main() { gl_Position = vec4(0.0); }\n", NULL, NULL, 0);
	CHECK(prog);
	GL(glUseProgram)(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	/* under rasterizer discard nothing reaches the pixels */
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glDisable)(GL_RASTERIZER_DISCARD);
	read_rgba8(0, 0, 1, 1, px);
	CHECK(!drv_context_take_unsupported(ctx));
	CHECK_EQ_INT(px[3], 0);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	CHECK(!drv_context_take_unsupported(ctx));
	px[3] = 0xEE;
	read_rgba8(0, 0, 1, 1, px);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "rasterize"));
	CHECK_EQ_INT(px[3], 0xEE);
	/* a clear of the whole window makes its pixels GL's again */
	GL(glClear)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	read_rgba8(0, 0, 1, 1, px);
	CHECK(!drv_context_take_unsupported(ctx));
	CHECK_EQ_INT(px[3], 0);
	dgl_done_clean(ctx);
}

static uint32_t reg(uint32_t r)
{
	uint32_t v = 0xDEADBEEFu;
	CHECK(gm_reg_get(dgl_gm, r, &v));
	return v;
}

static float reg_f(uint32_t r)
{
	uint32_t v = reg(r);
	float f;
	memcpy(&f, &v, 4);
	return f;
}

/* GL 4.6 §8.8 / §14.3.1: multisample textures as colour attachments.  The
 * sample count an image gets, GL_SAMPLES of the framebuffer and the errors;
 * glGetMultisamplefv(GL_SAMPLE_POSITION) answers what a draw programs into
 * PA_SC_AA_SAMPLE_LOCS (4-bit signed sixteenths from the centre), so the
 * positions the application reads are where the hardware samples. */
static void test_multisample_textures_answer_their_sample_positions(void)
{
	struct drv_context *ctx = window_context();
	GLuint prog, vao = 0, tex = 0, fbo = 0;
	GLint v = -1;
	float pos[2];

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glGetIntegerv)(GL_MAX_COLOR_TEXTURE_SAMPLES, &v);
	CHECK_EQ_INT(v, 8);
	GL(glGetIntegerv)(GL_MAX_INTEGER_SAMPLES, &v);
	CHECK_EQ_INT(v, 8);
	GL(glGenTextures)(1, &tex);
	GL(glTexImage2DMultisample)(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 4, 4, GL_TRUE);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);      /* texture 0 bound */
	GL(glBindTexture)(GL_TEXTURE_2D_MULTISAMPLE, tex);
	GL(glTexImage2DMultisample)(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_RGBA8, 4, 4, GL_TRUE);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);
	GL(glTexStorage2DMultisample)(GL_TEXTURE_2D_MULTISAMPLE, 9, GL_RGBA8, 4, 4, GL_TRUE);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);      /* above GL_MAX_SAMPLES */
	/* 3 samples: the next count the hardware has (§9.2.4's rule) */
	GL(glTexImage2DMultisample)(GL_TEXTURE_2D_MULTISAMPLE, 3, GL_RGBA8, 4, 4, GL_TRUE);
	GL(glGetTextureLevelParameteriv)(tex, 0, GL_TEXTURE_SAMPLES, &v);
	CHECK_EQ_INT(v, 4);
	GL(glTexImage2DMultisample)(GL_TEXTURE_2D_MULTISAMPLE, 8, GL_RGBA8, 4, 4, GL_TRUE);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	/* the window-system framebuffer is single-sampled: no sample 0 */
	GL(glGetIntegerv)(GL_SAMPLES, &v);
	CHECK_EQ_INT(v, 0);
	GL(glGetMultisamplefv)(GL_SAMPLE_POSITION, 0, pos);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);
	GL(glGenFramebuffers)(1, &fbo);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fbo);
	GL(glFramebufferTexture2D)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, tex, 0);
	GL(glGetIntegerv)(GL_SAMPLES, &v);
	CHECK_EQ_INT(v, 8);
	GL(glGetIntegerv)(GL_SAMPLE_BUFFERS, &v);
	CHECK_EQ_INT(v, 1);
	GL(glGetMultisamplefv)(GL_SAMPLE_POSITION, 8, pos);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);
	GL(glGetMultisamplefv)(GL_SAMPLES, 0, pos);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);
	/* a draw programs the positions it reports */
	prog = dgl_program("#version 330\nvoid main() { gl_Position = vec4(0.0); }\n", NULL, NULL, 0);
	GL(glUseProgram)(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glViewport)(0, 0, 4, 4);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glFinish)();                    /* the GPU has run the draw's packets */
	CHECK_EQ_INT(PA_SC_AA_CONFIG_MSAA_NUM_SAMPLES_GET(reg(REG_PA_SC_AA_CONFIG)), 3);
	for (unsigned i = 0; i < 8; i++) {
		uint32_t locs = reg(i < 4 ? REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0 : REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_1);
		int dx = (int)((locs >> (8 * (i % 4))) & 0xF), dy = (int)((locs >> (8 * (i % 4) + 4)) & 0xF);
		dx = dx >= 8 ? dx - 16 : dx;
		dy = dy >= 8 ? dy - 16 : dy;
		pos[0] = pos[1] = -1;
		GL(glGetMultisamplefv)(GL_SAMPLE_POSITION, i, pos);
		CHECK(pos[0] == (8 + dx) / 16.0f && pos[1] == (8 + dy) / 16.0f);
		CHECK(pos[0] > 0 && pos[0] < 1 && pos[1] > 0 && pos[1] < 1);
	}
	/* radeonsi's 8x pattern, sample 0 at (1, -3) sixteenths */
	GL(glGetMultisamplefv)(GL_SAMPLE_POSITION, 0, pos);
	CHECK(pos[0] == 9 / 16.0f && pos[1] == 5 / 16.0f);
	CHECK(!drv_context_take_unsupported(ctx));
	dgl_done_clean(ctx);
}

/* A draw that reaches the rasterizer programs the PA / SC / DB / CB state
 * of the GL state; one under GL_RASTERIZER_DISCARD leaves it alone. */
static void test_draw_programs_the_pixel_pipeline_state(void)
{
	struct drv_context *ctx = window_context();
	GLuint prog, vao = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = dgl_program("#version 330\nvoid main() { gl_Position = vec4(0.0); }\n", NULL, NULL, 0);
	GL(glUseProgram)(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glViewport)(4, 2, 32, 16);
	GL(glDepthRange)(0.25, 0.75);
	GL(glEnable)(GL_CULL_FACE);
	GL(glCullFace)(GL_FRONT);
	GL(glFrontFace)(GL_CW);
	GL(glEnable)(GL_DEPTH_TEST);
	GL(glDepthFunc)(GL_LEQUAL);
	GL(glEnable)(GL_BLEND);
	GL(glBlendFunc)(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	GL(glColorMask)(GL_TRUE, GL_FALSE, GL_TRUE, GL_TRUE);
	GL(glEnable)(GL_STENCIL_TEST);
	GL(glStencilFunc)(GL_EQUAL, 300, 0x0F);   /* the reference clamps to 255 */
	GL(glStencilOp)(GL_KEEP, GL_INCR, GL_REPLACE);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glFinish)();                    /* the GPU has run the draw's packets */
	(void)drv_context_take_unsupported(ctx);

	/* §13.8.1: scale w/2, h/2, (f-n)/2; offset x + w/2, y + h/2, (n+f)/2 */
	CHECK(reg_f(REG_PA_CL_VPORT_XSCALE_0) == 16.0f && reg_f(REG_PA_CL_VPORT_XOFFSET_0) == 20.0f);
	CHECK(reg_f(REG_PA_CL_VPORT_YSCALE_0) == 8.0f && reg_f(REG_PA_CL_VPORT_YOFFSET_0) == 10.0f);
	CHECK(reg_f(REG_PA_CL_VPORT_ZSCALE_0) == 0.25f && reg_f(REG_PA_CL_VPORT_ZOFFSET_0) == 0.5f);
	CHECK(reg_f(REG_PA_SC_VPORT_ZMIN_0) == 0.25f && reg_f(REG_PA_SC_VPORT_ZMAX_0) == 0.75f);
	uint32_t su = reg(REG_PA_SU_SC_MODE_CNTL);
	CHECK(PA_SU_SC_MODE_CNTL_CULL_FRONT_GET(su) == 1 && PA_SU_SC_MODE_CNTL_CULL_BACK_GET(su) == 0);
	CHECK_EQ_INT(PA_SU_SC_MODE_CNTL_FACE_GET(su), 1);          /* clockwise front */
	uint32_t db = reg(REG_DB_DEPTH_CONTROL);
	CHECK(DB_DEPTH_CONTROL_Z_ENABLE_GET(db) && DB_DEPTH_CONTROL_Z_WRITE_ENABLE_GET(db));
	CHECK_EQ_INT(DB_DEPTH_CONTROL_ZFUNC_GET(db), V_FRAG_LEQUAL);
	CHECK_EQ_INT(DB_DEPTH_CONTROL_STENCILFUNC_GET(db), V_FRAG_EQUAL);
	uint32_t st = reg(REG_DB_STENCIL_CONTROL);
	CHECK_EQ_INT(DB_STENCIL_CONTROL_STENCILZFAIL_GET(st), V_STENCIL_ADD_CLAMP);
	CHECK_EQ_INT(DB_STENCIL_CONTROL_STENCILZPASS_GET(st), V_STENCIL_REPLACE_TEST);
	uint32_t ref = reg(REG_DB_STENCILREFMASK);
	CHECK(DB_STENCILREFMASK_STENCILTESTVAL_GET(ref) == 255 && DB_STENCILREFMASK_STENCILMASK_GET(ref) == 0x0F);
	uint32_t bl = reg(REG_CB_BLEND0_CONTROL);
	CHECK(CB_BLEND_CONTROL_ENABLE_GET(bl) == 1);
	CHECK_EQ_INT(CB_BLEND_CONTROL_COLOR_SRCBLEND_GET(bl), V_BLEND_SRC_ALPHA);
	CHECK_EQ_INT(CB_BLEND_CONTROL_COLOR_DESTBLEND_GET(bl), V_BLEND_ONE_MINUS_SRC_ALPHA);
	CHECK_EQ_INT(reg(REG_CB_TARGET_MASK), 0xD);                 /* R, B, A of target 0 */
	CHECK_EQ_INT(CB_COLOR_CONTROL_ROP3_GET(reg(REG_CB_COLOR_CONTROL)), 0xCC);  /* copy */
	/* the window's surfaces: RGBA8, pitch 40 = 5 tiles of 8, depth 24 + stencil 8 */
	uint32_t info = reg(REG_CB_COLOR0_INFO);
	CHECK_EQ_INT(CB_COLOR_INFO_FORMAT_GET(info), V_COLOR_8_8_8_8);
	CHECK_EQ_INT(CB_COLOR_INFO_NUMBER_TYPE_GET(info), V_NUMBER_UNORM);
	CHECK_EQ_INT(CB_COLOR_PITCH_TILE_MAX_GET(reg(REG_CB_COLOR0_PITCH)), W / 8 - 1);
	CHECK(reg(REG_CB_COLOR0_BASE) != 0);
	CHECK_EQ_INT(DB_Z_INFO_FORMAT_GET(reg(REG_DB_Z_INFO)), V_Z_24);
	CHECK_EQ_INT(DB_STENCIL_INFO_FORMAT_GET(reg(REG_DB_STENCIL_INFO)), V_STENCIL_8);
	CHECK_EQ_INT(reg(REG_PA_SC_WINDOW_SCISSOR_BR), PA_SC_WINDOW_SCISSOR_BR_BR_X(W) | PA_SC_WINDOW_SCISSOR_BR_BR_Y(H));

	/* GL_XOR as ROP3: 0x66 (the raster-op code of source XOR destination) */
	GL(glEnable)(GL_COLOR_LOGIC_OP);
	GL(glLogicOp)(GL_XOR);
	GL(glViewport)(0, 0, 8, 8);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glFinish)();
	CHECK(reg_f(REG_PA_CL_VPORT_XSCALE_0) == 16.0f);          /* discarded: untouched */
	GL(glDisable)(GL_RASTERIZER_DISCARD);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glFinish)();                    /* the GPU has run the draw's packets */
	(void)drv_context_take_unsupported(ctx);
	CHECK(reg_f(REG_PA_CL_VPORT_XSCALE_0) == 4.0f);
	CHECK_EQ_INT(CB_COLOR_CONTROL_ROP3_GET(reg(REG_CB_COLOR_CONTROL)), 0x66);
	CHECK_EQ_INT(CB_BLEND_CONTROL_ENABLE_GET(reg(REG_CB_BLEND0_CONTROL)), 0);  /* logic op wins */
	dgl_done_clean(ctx);
}

static GLuint program_vs_fs(const char *vs, const char *fs)
{
	GLuint p = GL(glCreateProgram)();
	GLint ok = 0;
	GL(glAttachShader)(p, dgl_shader(GL_VERTEX_SHADER, vs));
	GL(glAttachShader)(p, dgl_shader(GL_FRAGMENT_SHADER, fs));
	GL(glLinkProgram)(p);
	GL(glGetProgramiv)(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		char log[1024] = "";
		GL(glGetProgramInfoLog)(p, sizeof log, NULL, log);
		fprintf(stderr, "link: %s\n", log);
	}
	return ok ? p : 0;
}

/* A fragment shader becomes the hardware PS of docs/isa.md "Pixel
 * shaders": v_interp_* per input as its qualifier says (smooth: p1 / p2
 * with the perspective I, J in v[0:1]; noperspective: the linear ones in
 * v[2:3]; flat: the provoking vertex's p0), colour exports at the output
 * locations, the last one done vm; the VS exports one param per input
 * location, in ascending order; the draw programs the SPI mapping.  A
 * fragment shader the driver cannot compile yet (discard) leaves the
 * program linked, and its draws' pixels reported. */
static void test_fragment_shader_compiles_to_the_ps_abi(void)
{
	struct drv_context *ctx = window_context();
	struct xt_buf dump = XT_BUF_INIT;
	GLuint prog, undrawn, vao = 0;
	const char *why;
	const char *vs = "#version 410\n"
			 "layout(location = 0) in vec4 pos;\n"
			 "layout(location = 2) out vec4 c;\n"
			 "layout(location = 5) flat out float f;\n"
			 "layout(location = 7) noperspective out vec2 n;\n"
			 "void main() { gl_Position = pos; c = pos * 2.0; f = 3.0; n = pos.xy; }\n";
	const char *fs = "#version 410\n"
			 "layout(location = 2) in vec4 c;\n"
			 "layout(location = 5) flat in float f;\n"
			 "layout(location = 7) noperspective in vec2 n;\n"
			 "layout(location = 0) out vec4 o0;\n"
			 "layout(location = 1) out vec4 o1;\n"
			 "void main() { o0 = c; o1 = vec4(f, n, 1.0); }\n";

	CHECK(ctx);
	if (!ctx)
		return;
	prog = program_vs_fs(vs, fs);
	CHECK(prog);
	CHECK(drv_context_program_dump(ctx, prog, &dump) == XT_OK);
	xt_buf_append(&dump, "", 1);
	const char *t = dump.data ? (const char *)dump.data : "";
	/* c is PS input 0 (location 2), f input 1 (5), n input 2 (7) */
	CHECK(strstr(t, "v_interp_p1_f32") && strstr(t, ", v0, attr0.x") && strstr(t, ", v1, attr0.w"));
	CHECK(strstr(t, "v_interp_mov_f32") && strstr(t, "p0, attr1.x"));
	CHECK(strstr(t, ", v2, attr2.x") && strstr(t, ", v3, attr2.y"));
	CHECK(strstr(t, "exp mrt0, v[8:11]\n") && strstr(t, "exp mrt1, v[8:11] done vm"));
	CHECK(strstr(t, "exp param0, v[8:11]") && strstr(t, "exp param2, v[8:11]") && !strstr(t, "exp param3"));
	xt_buf_fini(&dump);

	GL(glUseProgram)(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glFinish)();
	CHECK(reg(REG_SPI_SHADER_PGM_LO_PS) != 0);
	CHECK_EQ_INT(SPI_PS_IN_CONTROL_NUM_INTERP_GET(reg(REG_SPI_PS_IN_CONTROL)), 3);
	CHECK_EQ_INT(reg(REG_SPI_PS_INPUT_ENA), reg(REG_SPI_PS_INPUT_ADDR));
	CHECK(SPI_PS_INPUT_ENA_PERSP_CENTER_ENA_GET(reg(REG_SPI_PS_INPUT_ENA)) &&
	      SPI_PS_INPUT_ENA_LINEAR_CENTER_ENA_GET(reg(REG_SPI_PS_INPUT_ENA)));
	CHECK_EQ_INT(reg(REG_SPI_PS_INPUT_CNTL_1), SPI_PS_INPUT_CNTL_OFFSET(1) | SPI_PS_INPUT_CNTL_FLAT_SHADE(1));
	CHECK_EQ_INT(reg(REG_SPI_PS_INPUT_CNTL_2), SPI_PS_INPUT_CNTL_OFFSET(2));
	CHECK_EQ_INT(SPI_VS_OUT_CONFIG_VS_EXPORT_COUNT_GET(reg(REG_SPI_VS_OUT_CONFIG)), 2);
	/* target 0 is the window's; mrt1 has no target: not exported */
	CHECK_EQ_INT(reg(REG_SPI_SHADER_COL_FORMAT), V_SPI_SHADER_32_ABGR);
	CHECK_EQ_INT(reg(REG_CB_SHADER_MASK), 0xF);
	why = drv_context_take_unsupported(ctx);
	if (why)
		fprintf(stderr, "unsupported: %s\n", why);
	CHECK(!why);

	undrawn = program_vs_fs("#version 330\nvoid main() { gl_Position = vec4(0.0); }\n",
			     "#version 400\nout vec4 o;\nvoid main() { o = vec4(float(gl_SampleID)); }\n");
	CHECK(undrawn);
	GL(glUseProgram)(undrawn);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glFinish)();
	CHECK_EQ_INT(reg(REG_SPI_SHADER_PGM_LO_PS), 0);
	uint8_t px[4];
	read_rgba8(0, 0, 1, 1, px);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "fragment processing"));
	dgl_done_clean(ctx);
}

/* A triangle drawn on the simulated GPU and read back, pixel for pixel
 * against GL's rules: pixel centres at (x + 0.5, y + 0.5) (§14.3.1), the
 * viewport transform of §13.8.1, coverage by the triangle's edge
 * functions (§14.6.1; the vertices are chosen so that no centre lies on an
 * edge, so the tie rule does not matter), and a smooth colour interpolated
 * with the barycentric weights of §14.6.1 (w = 1: perspective-correct and
 * linear agree), converted to UNORM8 by equation 2.4 (within 1: the
 * interpolation's rounding is the implementation's). */
static void test_triangle_is_drawn_by_gl_rules(void)
{
	struct drv_context *ctx = window_context();
	static uint8_t px[W * H * 4];
	GLuint flat_prog, smooth_prog, vao = 0;
	const char *vs = "#version 410\n"
			 "layout(location = 0) out vec4 c;\n"
			 "const vec2 P[3] = vec2[3](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 0.9));\n"
			 "const vec4 C[3] = vec4[3](vec4(1, 0, 0, 1), vec4(0, 1, 0, 1), vec4(0, 0, 1, 1));\n"
			 "void main() { gl_Position = vec4(P[gl_VertexID], 0.0, 1.0); c = C[gl_VertexID]; }\n";

	CHECK(ctx);
	if (!ctx)
		return;
	flat_prog = program_vs_fs(vs, "#version 410\nlayout(location = 0) out vec4 o;\n"
				      "void main() { o = vec4(1.0, 0.6, 0.2, 1.0); }\n");
	/* the stages match by name (GL 4.6 §7.4.1): glslang's automatic
	 * locations put c at 1 in this VS and at 0 in the FS */
	smooth_prog = program_vs_fs("#version 410\n"
				    "out vec4 unused;\nout vec4 c;\n"
				    "const vec2 P[3] = vec2[3](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 0.9));\n"
				    "const vec4 C[3] = vec4[3](vec4(1, 0, 0, 1), vec4(0, 1, 0, 1), vec4(0, 0, 1, 1));\n"
				    "void main() { gl_Position = vec4(P[gl_VertexID], 0.0, 1.0);\n"
				    "  unused = vec4(0.5); c = C[gl_VertexID]; }\n",
				    "#version 410\nin vec4 c;\n"
				    "layout(location = 0) out vec4 o;\nvoid main() { o = c; }\n");
	CHECK(flat_prog && smooth_prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glClearColor)(0, 0, 0, 0);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glUseProgram)(flat_prog);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	memset(px, 0xEE, sizeof px);
	read_rgba8(0, 0, W, H, px);
	CHECK(!drv_context_take_unsupported(ctx));
	/* window vertices (0, 0), (40, 0), (0, 22.8): inside when
	 * x / 40 + y / 22.8 < 1 at the centre */
	const float top = (0.9f + 1.0f) * (H / 2.0f);
	int bad = 0, inside = 0;
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			double cx = x + 0.5, cy = y + 0.5;
			bool in = cx / W + cy / top < 1.0;
			const uint8_t want_in[4] = { 255, ubyte_of(0.6f), ubyte_of(0.2f), 255 }, zero[4] = { 0 };
			bad += memcmp(px + 4 * (y * W + x), in ? want_in : zero, 4) != 0;
			inside += in;
		}
	}
	CHECK_EQ_INT(bad, 0);
	CHECK(inside > 100);
	/* GL_SAMPLES_PASSED (§4.2): one sample per covered pixel */
	GLuint q = 0, samples = 0;
	GL(glGenQueries)(1, &q);
	GL(glBeginQuery)(GL_SAMPLES_PASSED, q);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glEndQuery)(GL_SAMPLES_PASSED);
	GL(glGetQueryObjectuiv)(q, GL_QUERY_RESULT, &samples);
	CHECK_EQ_INT(samples, inside);

	GL(glUseProgram)(smooth_prog);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(0, 0, W, H, px);
	bad = 0;
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			double cx = x + 0.5, cy = y + 0.5, lb = cx / W, lc = cy / top, la = 1.0 - lb - lc;
			const uint8_t *p = px + 4 * (y * W + x);
			if (la <= 0)
				continue;
			bad += abs(p[0] - ubyte_of(la)) > 1 || abs(p[1] - ubyte_of(lb)) > 1 ||
			       abs(p[2] - ubyte_of(lc)) > 1 || p[3] != 255;
		}
	}
	CHECK_EQ_INT(bad, 0);

	/* gl_FragCoord (§15.2.2): the pixel centre, window z (0 in NDC with
	 * the depth range [0, 1]: 0.5) and 1 / w_clip */
	GLuint coord_prog = program_vs_fs(vs, "#version 410\nlayout(location = 0) out vec4 o;\n"
					      "void main() { o = vec4(gl_FragCoord.x / 40.0, gl_FragCoord.y / 24.0,\n"
					      "  gl_FragCoord.z * 0.8, gl_FragCoord.w); }\n");
	CHECK(coord_prog);
	GL(glUseProgram)(coord_prog);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(0, 0, W, H, px);
	bad = 0;
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			const uint8_t *p = px + 4 * (y * W + x);
			if ((x + 0.5) / W + (y + 0.5) / top >= 1.0)
				continue;
			bad += abs(p[0] - ubyte_of((x + 0.5) / 40.0)) > 1 || abs(p[1] - ubyte_of((y + 0.5) / 24.0)) > 1 ||
			       abs(p[2] - ubyte_of(0.4)) > 1 || p[3] != 255;
		}
	}
	CHECK_EQ_INT(bad, 0);

	/* gl_FrontFacing (§14.6.1): the triangle is counter-clockwise in
	 * window coordinates, front-facing under GL_CCW, back-facing under
	 * GL_CW */
	GLuint face_prog = program_vs_fs(vs, "#version 410\nlayout(location = 0) out vec4 o;\n"
					     "void main() { o = gl_FrontFacing ? vec4(0, 1, 0, 1) : vec4(1, 0, 0, 1); }\n");
	CHECK(face_prog);
	GL(glUseProgram)(face_prog);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(1, 1, 1, 1, px);
	CHECK(px[0] == 0 && px[1] == 255);
	GL(glFrontFace)(GL_CW);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(1, 1, 1, 1, px);
	CHECK(px[0] == 255 && px[1] == 0);
	/* and culled as back-facing: nothing drawn over the clear */
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glEnable)(GL_CULL_FACE);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(1, 1, 1, 1, px);
	CHECK(px[0] == 0 && px[1] == 0 && px[3] == 0);
	/* per-fragment state the driver does not apply: no pixel shader is
	 * bound, and the read says why */
	GL(glDisable)(GL_CULL_FACE);
	GL(glEnable)(GL_SAMPLE_MASK);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glFinish)();
	CHECK_EQ_INT(reg(REG_SPI_SHADER_PGM_LO_PS), 0);
	read_rgba8(1, 1, 1, 1, px);
	const char *why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "sample mask"));
	GL(glDisable)(GL_SAMPLE_MASK);
	dgl_done_clean(ctx);
}

/* What the sim backend learns of width-1 lines (GL 4.6 §14.5.1, where
 * implementations may rasterize them differently): the GPU logs each
 * segment it rasterizes with one raster sample, at its window position
 * (the viewport transform of §13.8.1, 1/256 pixel) with the colour buffer
 * it went to and whether an occlusion query counted it (gm_lines_get);
 * the driver reports the colour buffers it cleared whole and the one it
 * read (drv_context_take_surface_events).  Wider lines are not logged. */
static void test_width_1_lines_are_logged_with_whole_clears_and_reads(void)
{
	struct drv_context *ctx = window_context();
	struct drv_surface_events ev;
	const struct gm_line *l;
	GLuint prog, vao = 0, q = 0;
	uint64_t dropped;
	size_t n;
	uint8_t px[4];

	CHECK(ctx);
	if (!ctx)
		return;
	prog = program_vs_fs("#version 330\n"
			     "const vec2 P[2] = vec2[2](vec2(-0.5, -0.25), vec2(0.5, 0.25));\n"
			     "void main() { gl_Position = vec4(P[gl_VertexID], 0.0, 1.0); }\n",
			     "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n");
	CHECK(prog);
	GL(glUseProgram)(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glClearColor)(0, 0, 0, 0);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glFinish)();
	drv_context_take_surface_events(ctx, &ev);
	CHECK_EQ_INT(ev.ncleared, 1);
	CHECK(!ev.more_cleared && !ev.read);
	const uint64_t va = ev.cleared[0];
	CHECK(va != 0);
	gm_lines_reset(dgl_gm);

	GL(glDrawArrays)(GL_LINES, 0, 2);
	GL(glFinish)();
	l = gm_lines_get(dgl_gm, &n, &dropped);
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_INT(dropped, 0);
	if (n == 1) {
		/* (-0.5, -0.25) and (0.5, 0.25) in a 40 x 24 viewport */
		CHECK_EQ_INT(l[0].x0, 10 * 256);
		CHECK_EQ_INT(l[0].y0, 9 * 256);
		CHECK_EQ_INT(l[0].x1, 30 * 256);
		CHECK_EQ_INT(l[0].y1, 15 * 256);
		CHECK_EQ_INT(l[0].cb_va[0], va);
		CHECK_EQ_INT(l[0].cb_va[1], 0);
		CHECK_EQ_INT(l[0].samples, 1);
		CHECK(!l[0].counted);
	}
	gm_lines_reset(dgl_gm);
	GL(glGenQueries)(1, &q);
	GL(glBeginQuery)(GL_SAMPLES_PASSED, q);
	GL(glDrawArrays)(GL_LINES, 0, 2);
	GL(glEndQuery)(GL_SAMPLES_PASSED);
	GL(glFinish)();
	l = gm_lines_get(dgl_gm, &n, &dropped);
	CHECK(n == 1 && l[0].counted);
	gm_lines_reset(dgl_gm);
	GL(glLineWidth)(2.0f);
	GL(glDrawArrays)(GL_LINES, 0, 2);
	GL(glFinish)();
	gm_lines_get(dgl_gm, &n, &dropped);
	CHECK_EQ_INT(n, 0);
	GL(glLineWidth)(1.0f);

	read_rgba8(20, 12, 1, 1, px);
	/* a clear of part of the buffer leaves what was drawn elsewhere */
	GL(glEnable)(GL_SCISSOR_TEST);
	GL(glScissor)(0, 0, 4, 4);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glDisable)(GL_SCISSOR_TEST);
	GL(glFinish)();
	drv_context_take_surface_events(ctx, &ev);
	CHECK_EQ_INT(ev.ncleared, 0);
	CHECK_EQ_INT(ev.read, va);
	drv_context_take_surface_events(ctx, &ev);
	CHECK_EQ_INT(ev.read, 0);
	GL(glDeleteQueries)(1, &q);
	dgl_done_clean(ctx);
}

/* Texture sampling in a fragment shader (GL 4.6 §8.14, §11.1.3.5): a
 * window-filling quad samples a 4x4 RGBA8 texture with GL_NEAREST at
 * gl_FragCoord / size, every pixel the texel it falls in; a texture whose
 * min filter wants mipmaps it does not have is incomplete and samples
 * (0, 0, 0, 1); a 64x64 texture with 7 levels of distinct colours read at
 * s = x / 16 (4 texels of level 0 per pixel: lambda = log2(4) = 2 from
 * the derivatives, §8.14.1) with GL_NEAREST_MIPMAP_NEAREST gives level 2
 * everywhere, the quads along the triangles' shared edge too. */
static void test_texture_sampling_in_fragment_shader(void)
{
	struct drv_context *ctx = window_context();
	static uint8_t px[W * H * 4], texels[4 * 4 * 4];
	static uint8_t lv[64 * 64 * 4];
	const char *vs = quad_vs;
	GLuint prog, mip_prog, tex = 0, mtex = 0, vao = 0;
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = program_vs_fs(vs, "#version 330\nuniform sampler2D t;\nout vec4 o;\n"
				 "void main() { o = texture(t, gl_FragCoord.xy / vec2(40.0, 24.0)); }\n");
	mip_prog = program_vs_fs(vs, "#version 330\nuniform sampler2D t;\nout vec4 o;\n"
				     "void main() { o = texture(t, gl_FragCoord.xy / 16.0); }\n");
	CHECK(prog && mip_prog);
	for (unsigned i = 0; i < 16; i++) {
		texels[4 * i] = (uint8_t)(16 * i), texels[4 * i + 1] = (uint8_t)(255 - 16 * i);
		texels[4 * i + 2] = (uint8_t)(i & 1 ? 255 : 0), texels[4 * i + 3] = 255;
	}
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenTextures)(1, &tex);
	GL(glActiveTexture)(GL_TEXTURE3);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
	GL(glUseProgram)(prog);
	GL(glUniform1i)(GL(glGetUniformLocation)(prog, "t"), 3);
	/* the default min filter, NEAREST_MIPMAP_LINEAR, without levels 1, 2: incomplete */
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(0, 0, W, H, px);
	for (int i = 0; i < W * H; i++)
		bad += px[4 * i] || px[4 * i + 1] || px[4 * i + 2] || px[4 * i + 3] != 255;
	CHECK_EQ_INT(bad, 0);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(0, 0, W, H, px);
	bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			bad += memcmp(px + 4 * (y * W + x), texels + 4 * ((y * 4 / H) * 4 + x * 4 / W), 4) != 0;
	CHECK_EQ_INT(bad, 0);

	GL(glGenTextures)(1, &mtex);
	GL(glBindTexture)(GL_TEXTURE_2D, mtex);
	for (int l = 0; l < 7; l++) {
		for (int i = 0; i < (64 >> l) * (64 >> l); i++)
			lv[4 * i] = (uint8_t)(30 * l), lv[4 * i + 1] = 7, lv[4 * i + 2] = (uint8_t)l, lv[4 * i + 3] = 255;
		GL(glTexImage2D)(GL_TEXTURE_2D, l, GL_RGBA8, 64 >> l, 64 >> l, 0, GL_RGBA, GL_UNSIGNED_BYTE, lv);
	}
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
	GL(glUseProgram)(mip_prog);
	GL(glUniform1i)(GL(glGetUniformLocation)(mip_prog, "t"), 3);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(0, 0, W, H, px);
	bad = 0;
	for (int i = 0; i < W * H; i++)
		bad += px[4 * i] != 60 || px[4 * i + 2] != 2;
	CHECK_EQ_INT(bad, 0);

	/* an sRGB texture is decoded when sampled (GL 4.6 §8.24, eq. 8.17):
	 * 188 -> ((188 / 255 + 0.055) / 1.055)^2.4, written as UNORM8;
	 * alpha is linear; glGenerateMipmap averages in linear space */
	static const uint8_t s[4] = { 188, 20, 255, 128 };
	GLuint stex = 0;
	GL(glGenTextures)(1, &stex);
	GL(glBindTexture)(GL_TEXTURE_2D, stex);
	GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, s);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glUseProgram)(prog);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(0, 0, W, H, px);
	bad = 0;
	for (int i = 0; i < W * H; i++) {
		for (int c = 0; c < 3; c++) {
			double v = s[c] / 255.0, lin = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
			bad += px[4 * i + c] != ubyte_of(lin);
		}
		bad += px[4 * i + 3] != 128;
	}
	CHECK_EQ_INT(bad, 0);
	dgl_done_clean(ctx);
}

/* textureProj and texelFetchOffset (GLSL 4.60 §8.9.2, §8.9.3).  An 8x8
 * RGBA8 texture, texel (i, j) red 16 i, green 16 j, GL_NEAREST:
 * textureProj(t, vec4(s q, t q, 99, q)) samples (s, t) (the third
 * component is ignored for a 2D sampler, q divides), here s = x / 40,
 * t = y / 24, so pixel (x, y) shows texel (floor(8 x / 40), floor(8 y / 24));
 * the vec3 form likewise.  texelFetchOffset(t, P, 0, (1, -2)) reads texel
 * P + (1, -2) (GL 4.6 §8.14.2: the offset is added to the integer
 * coordinates), P = (x / 5, y / 3); pixels whose texel falls outside the
 * level (undefined in GL) are not checked.  A 4x4x4 3D texture by
 * textureProj(t3, vec4(P3 q, q)) with nearest filtering likewise, and
 * textureOffset(t3, (P, 0.375), (1, 0, 1)) texel (floor(4 P) + (1, 0),
 * 1 + 1) (image_sample_o, z in the offset's bits 16..21). */
static void test_texture_proj_and_fetch_offset(void)
{
	struct drv_context *ctx = window_context();
	static uint8_t px[W * H * 4], texels[8 * 8 * 4], vol[4 * 4 * 4 * 4];
	const char *vs = quad_vs;
	const char *fs[] = {
		"#version 330\nuniform sampler2D t;\nout vec4 o;\n"
		"void main() { vec2 p = gl_FragCoord.xy / vec2(40.0, 24.0);\n"
		"  o = textureProj(t, vec4(p * 3.0, 99.0, 3.0)); }\n",
		"#version 330\nuniform sampler2D t;\nout vec4 o;\n"
		"void main() { vec2 p = gl_FragCoord.xy / vec2(40.0, 24.0);\n"
		"  o = textureProj(t, vec3(p * 0.5, 0.5)); }\n",
		"#version 330\nuniform sampler2D t;\nout vec4 o;\n"
		"void main() { o = texelFetchOffset(t, ivec2(gl_FragCoord.xy) / ivec2(5, 3), 0, ivec2(1, -2)); }\n",
		"#version 330\nuniform sampler3D t;\nout vec4 o;\n"
		"void main() { vec3 p = vec3(gl_FragCoord.xy / vec2(40.0, 24.0), 0.625);\n"
		"  o = textureProj(t, vec4(p * 2.0, 2.0)); }\n",
		"#version 330\nuniform sampler3D t;\nout vec4 o;\n"
		"void main() { vec3 p = vec3(gl_FragCoord.xy / vec2(40.0, 24.0), 0.375);\n"
		"  o = textureOffset(t, p, ivec3(1, 0, 1)); }\n",
	};
	GLuint prog, tex[2] = { 0, 0 }, vao = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	for (unsigned i = 0; i < 64; i++) {
		texels[4 * i] = (uint8_t)(16 * (i % 8)), texels[4 * i + 1] = (uint8_t)(16 * (i / 8));
		texels[4 * i + 2] = 0, texels[4 * i + 3] = 255;
	}
	for (unsigned i = 0; i < 64; i++) {
		vol[4 * i] = (uint8_t)(16 * (i % 4)), vol[4 * i + 1] = (uint8_t)(16 * (i / 4 % 4));
		vol[4 * i + 2] = (uint8_t)(16 * (i / 16)), vol[4 * i + 3] = 255;
	}
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenTextures)(2, tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex[0]);
	GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	GL(glBindTexture)(GL_TEXTURE_3D, tex[1]);
	GL(glTexImage3D)(GL_TEXTURE_3D, 0, GL_RGBA8, 4, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, vol);
	GL(glTexParameteri)(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	for (unsigned k = 0; k < sizeof fs / sizeof fs[0]; k++) {
		int bad = 0, checked = 0;
		prog = program_vs_fs(vs, fs[k]);
		CHECK(prog);
		GL(glUseProgram)(prog);
		GL(glClearColor)(0.0f, 0.0f, 1.0f, 1.0f);
		GL(glClear)(GL_COLOR_BUFFER_BIT);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		read_rgba8(0, 0, W, H, px);
		CHECK(!drv_context_take_unsupported(ctx));
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				const uint8_t *p = &px[4 * (y * W + x)];
				int i = k == 2 ? x / 5 + 1 : k == 3 ? x * 4 / W : k == 4 ? (x * 4 / W + 1) % 4 : x * 8 / W;
				int j = k == 2 ? y / 3 - 2 : k >= 3 ? y * 4 / H : y * 8 / H;
				if (i < 0 || j < 0 || i > 7 || j > 7)
					continue;
				checked++;
				bad += p[0] != 16 * i || p[1] != 16 * j || p[2] != (k >= 3 ? 16 * 2 : 0) || p[3] != 255;
			}
		if (bad)
			fprintf(stderr, "case %u: %d of %d pixels wrong; pixel (0, 0) %u %u %u\n", k, bad, checked,
				px[0], px[1], px[2]);
		CHECK(checked > W * H / 2);
		CHECK_EQ_INT(bad, 0);
	}
	dgl_done_clean(ctx);
}

/* What the fragment compiler reports names it, not the vertex one: a
 * multi-case switch (reported by the structured walk) and textureQueryLod
 * (by the instruction dispatch) in a fragment shader. */
static void test_fragment_compile_errors_name_the_stage(void)
{
	struct drv_context *ctx = window_context();
	const char *vs = quad_vs;
	const char *fs[] = {
		"#version 330\nout vec4 o;\nvoid main() {\n  switch (int(gl_FragCoord.x) % 3) {\n"
		"  case 0: o = vec4(1.0); break;\n  case 1: o = vec4(0.5); break;\n  default: o = vec4(0.0); }\n}\n",
		"#version 400\nuniform sampler2D t;\nout vec4 o;\nvoid main() { o = textureQueryLod(t, vec2(0.5)).xyxy; }\n",
	};
	GLuint vao = 0;
	uint8_t px[4];

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	for (unsigned k = 0; k < sizeof fs / sizeof fs[0]; k++) {
		GLuint prog = program_vs_fs(vs, fs[k]);
		const char *why;
		CHECK(prog);
		GL(glUseProgram)(prog);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		read_rgba8(0, 0, 1, 1, px);
		why = drv_context_take_unsupported(ctx);
		CHECK(why && strstr(why, "the driver's fragment compiler") && !strstr(why, "vertex"));
		if (why && !strstr(why, "the driver's fragment compiler"))
			fprintf(stderr, "reason: %s\n", why);
	}
	dgl_done_clean(ctx);
}

/* texture*Offset (image_sample_o, _l_o, _b_o) and textureGrad
 * (image_sample_d, _d_o).  A 64x64 texture with 7 levels, texel (i, j) of
 * level l red 4 i, green 4 j, blue 40 l, GL_NEAREST_MIPMAP_NEAREST,
 * GL_REPEAT.  GL 4.6 §8.14.2: the offset is added to the texel
 * coordinates of the level sampled (u = s w_l + delta_u) before the wrap,
 * so an offset of 1 moves one texel of that level, not of level 0;
 * §8.14.1: textureGrad's rho is the larger length of (ds/dx w, dt/dx h)
 * and (ds/dy w, dt/dy h), lambda = log2(rho), whatever the coordinates'
 * own derivatives; nearest-mipmap level ceil(lambda + 1/2) - 1 (§8.14.3).
 * Each case: P = gl_FragCoord / div, level l of size n = 64 >> l, texel
 * ((floor(P n) + offset) mod n). */
static void test_texture_offset_and_grad(void)
{
	struct drv_context *ctx = window_context();
	static uint8_t px[W * H * 4], lv[64 * 64 * 4];
	const char *vs = quad_vs;
	static const struct { const char *lookup; int div, level, oi, oj; } cases[] = {
		{ "textureOffset(t, gl_FragCoord.xy / 16.0, ivec2(1, -2))", 16, 2, 1, -2 },
		{ "textureLodOffset(t, gl_FragCoord.xy / 32.0, 1.0, ivec2(-1, 2))", 32, 1, -1, 2 },
		{ "textureOffset(t, gl_FragCoord.xy / 16.0, ivec2(2, 1), 1.0)", 16, 3, 2, 1 },
		{ "textureGrad(t, gl_FragCoord.xy / 64.0, vec2(4.0 / 64.0, 0.0), vec2(0.0, 4.0 / 64.0))", 64, 2, 0, 0 },
		{ "textureGradOffset(t, gl_FragCoord.xy / 64.0, vec2(0.0, 16.0 / 64.0), vec2(1.0 / 64.0, 0.0), "
		  "ivec2(3, 0))", 64, 4, 3, 0 },
		{ "textureProjOffset(t, vec3(gl_FragCoord.xy / 8.0, 2.0), ivec2(0, 5))", 16, 2, 0, 5 },
	};
	GLuint tex = 0, vao = 0;
	char fs[512];

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	for (int l = 0; l < 7; l++) {
		int n = 64 >> l;
		for (int i = 0; i < n * n; i++)
			lv[4 * i] = (uint8_t)(4 * (i % n)), lv[4 * i + 1] = (uint8_t)(4 * (i / n)),
			lv[4 * i + 2] = (uint8_t)(40 * l), lv[4 * i + 3] = 255;
		GL(glTexImage2D)(GL_TEXTURE_2D, l, GL_RGBA8, n, n, 0, GL_RGBA, GL_UNSIGNED_BYTE, lv);
	}
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		int bad = 0, n = 64 >> cases[k].level;
		GLuint prog;
		snprintf(fs, sizeof fs, "#version 330\nuniform sampler2D t;\nout vec4 o;\nvoid main() { o = %s; }\n",
			 cases[k].lookup);
		prog = program_vs_fs(vs, fs);
		CHECK(prog);
		GL(glUseProgram)(prog);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		read_rgba8(0, 0, W, H, px);
		CHECK(!drv_context_take_unsupported(ctx));
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				const uint8_t *p = &px[4 * (y * W + x)];
				int i = (int)floor((x + 0.5) * n / cases[k].div) + cases[k].oi;
				int j = (int)floor((y + 0.5) * n / cases[k].div) + cases[k].oj;
				i = ((i % n) + n) % n, j = ((j % n) + n) % n;
				bad += p[0] != 4 * i || p[1] != 4 * j || p[2] != 40 * cases[k].level;
			}
		if (bad)
			fprintf(stderr, "%s: %d pixels wrong; pixel (0, 0) %u %u %u\n", cases[k].lookup, bad, px[0], px[1],
				px[2]);
		CHECK_EQ_INT(bad, 0);
	}
	dgl_done_clean(ctx);
}

/* gl_FragData[n] (GLSL 1.30, compatibility context) and an array colour
 * output `out vec4 o[3]` (GLSL 3.30): element n goes to location n, the
 * draw buffer n (GL 4.6 §15.2.3, §17.4.1 glDrawBuffers); three RGBA8
 * attachments each read back with glReadBuffer hold (n + 1) / 4 in red,
 * 0.5 in green. */
static void test_frag_data_and_array_outputs(void)
{
	static const char *const fs[] = {
		"#version 130\nvoid main() {\n"
		"  gl_FragData[0] = vec4(0.25, 0.5, 0.0, 1.0);\n"
		"  gl_FragData[1] = vec4(0.5, 0.5, 0.0, 1.0);\n"
		"  gl_FragData[2] = vec4(0.75, 0.5, 0.0, 1.0);\n}\n",
		"#version 330\nout vec4 o[3];\nvoid main() {\n"
		"  for (int i = 0; i < 3; i++) o[i] = vec4(float(i + 1) / 4.0, 0.5, 0.0, 1.0);\n}\n",
	};
	static const GLenum bufs[3] = { GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1, GL_COLOR_ATTACHMENT2 };

	for (unsigned k = 0; k < 2; k++) {
		struct drv_context *ctx = dgl_context(3, 3, k == 1);
		struct drv_window win = { .width = W, .height = H, .red = 8, .green = 8, .blue = 8, .alpha = 8 };
		const char *vs = "#version 130\n"
				 "const vec2 P[4] = vec2[4](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), "
				 "vec2(1.0, 1.0));\n"
				 "void main() { gl_Position = vec4(P[gl_VertexID], 0.0, 1.0); }\n";
		GLuint prog, tex[3] = { 0, 0, 0 }, fbo = 0, vao = 0;
		uint8_t px[4 * 4];

		CHECK(ctx);
		if (!ctx)
			return;
		drv_context_set_window(ctx, &win);
		prog = program_vs_fs(vs, fs[k]);
		CHECK(prog);
		GL(glGenVertexArrays)(1, &vao);
		GL(glBindVertexArray)(vao);
		GL(glGenTextures)(3, tex);
		GL(glGenFramebuffers)(1, &fbo);
		GL(glBindFramebuffer)(GL_FRAMEBUFFER, fbo);
		for (unsigned n = 0; n < 3; n++) {
			GL(glBindTexture)(GL_TEXTURE_2D, tex[n]);
			GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
			GL(glFramebufferTexture2D)(GL_FRAMEBUFFER, bufs[n], GL_TEXTURE_2D, tex[n], 0);
		}
		GL(glDrawBuffers)(3, bufs);
		GL(glClear)(GL_COLOR_BUFFER_BIT);
		GL(glUseProgram)(prog);
		GL(glViewport)(0, 0, 4, 4);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		for (unsigned n = 0; n < 3; n++) {
			int bad = 0;
			GL(glReadBuffer)(bufs[n]);
			GL(glReadPixels)(0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, px);
			for (int i = 0; i < 4; i++)
				bad += px[4 * i] != ubyte_of((n + 1) / 4.0) || px[4 * i + 1] != ubyte_of(0.5) ||
				       px[4 * i + 3] != 255;
			if (bad)
				fprintf(stderr, "%s: buffer %u pixel 0 %u %u %u %u\n", k ? "o[3]" : "gl_FragData", n, px[0],
					px[1], px[2], px[3]);
			CHECK_EQ_INT(bad, 0);
		}
		CHECK(!drv_context_take_unsupported(ctx));
		dgl_done_clean(ctx);
	}
}

/* gl_PointCoord (GLSL 4.60 §7.1.5; GL 4.6 §14.4.1 with the default
 * GL_POINT_SPRITE_COORD_ORIGIN GL_UPPER_LEFT): s = 1/2 + (x_f + 1/2 - x_w)
 * / size, t = 1/2 - (y_f + 1/2 - y_w) / size for the fragment (x_f, y_f)
 * of a point at (x_w, y_w).  A point of size 8 at window (12, 8) covers
 * pixels 8..15 x 4..11; the shader writes (s, t) to red and green, within
 * one unit of round(255 c), and a varying (0.5, from the vertex shader:
 * the sprite's input takes no param) to blue.  Other primitives' gl_PointCoord is undefined
 * (GLSL 4.60 §7.1.5): a triangle's pixels are reported when read. */
static void test_point_coord_of_points(void)
{
	struct drv_context *ctx = window_context();
	static uint8_t px[W * H * 4];
	GLuint prog, vao = 0;
	int bad = 0, covered = 0;
	const char *why;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = program_vs_fs("#version 330\nout float b;\n"
			     "void main() { b = 0.5; gl_Position = vec4(-0.4, -1.0 / 3.0, 0.0, 1.0); }\n",
			     "#version 330\nin float b;\nout vec4 o;\nvoid main() { o = vec4(gl_PointCoord, b, 1.0); }\n");
	CHECK(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glClearColor)(0.0f, 0.0f, 1.0f, 1.0f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glUseProgram)(prog);
	GL(glPointSize)(8.0f);
	GL(glDrawArrays)(GL_POINTS, 0, 1);
	read_rgba8(0, 0, W, H, px);
	CHECK(!drv_context_take_unsupported(ctx));
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = &px[4 * (y * W + x)];
			bool in = x >= 8 && x < 16 && y >= 4 && y < 12;
			if (!in) {
				bad += p[2] != 255;
				continue;
			}
			covered++;
			int s = ubyte_of(0.5 + (x + 0.5 - 12) / 8), t = ubyte_of(0.5 - (y + 0.5 - 8) / 8);
			if (abs(p[0] - s) > 1 || abs(p[1] - t) > 1 || p[2] != 128) {
				if (!bad)
					fprintf(stderr, "pixel (%d, %d): %u %u %u, want %d %d 128\n", x, y, p[0], p[1], p[2], s,
						t);
				bad++;
			}
		}
	CHECK_EQ_INT(covered, 64);
	CHECK_EQ_INT(bad, 0);
	/* a triangle: gl_PointCoord undefined, its pixels reported */
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(0, 0, 1, 1, px);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "gl_PointCoord"));
	dgl_done_clean(ctx);
}

/* textureGather (GLSL 4.60 §8.9.4; GL 4.6 §8.14.2): component comp of the
 * four texels the linear filter would use at the base level, i0 =
 * floor(u - 1/2), j0 likewise, i1 = i0 + 1, j1 = j0 + 1, wrapped (GL_REPEAT
 * here), whatever the filters (GL_NEAREST here); x, y, z, w = (i0, j1),
 * (i1, j1), (i1, j0), (i0, j0).  A 4x4 RGBA8 texture, texel (i, j) red
 * 16 i + 64 j, green 255 minus that; gathered at gl_FragCoord / (40, 24),
 * red, and green with textureGatherOffset (1, -1): each channel of the
 * pixel is one texel's value. */
static void test_texture_gather(void)
{
	struct drv_context *ctx = window_context();
	static uint8_t px[W * H * 4], texels[4 * 4 * 4];
	const char *vs = quad_vs;
	static const struct { const char *lookup; int comp, oi, oj; } cases[] = {
		{ "textureGather(t, gl_FragCoord.xy / vec2(40.0, 24.0))", 0, 0, 0 },
		{ "textureGatherOffset(t, gl_FragCoord.xy / vec2(40.0, 24.0), ivec2(1, -1), 1)", 1, 1, -1 },
	};
	static const int di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
	GLuint tex = 0, vao = 0;
	char fs[512];

	CHECK(ctx);
	if (!ctx)
		return;
	for (unsigned i = 0; i < 16; i++) {
		texels[4 * i] = (uint8_t)(16 * (i % 4) + 64 * (i / 4));
		texels[4 * i + 1] = (uint8_t)(255 - texels[4 * i]);
		texels[4 * i + 2] = 0, texels[4 * i + 3] = 255;
	}
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		int bad = 0;
		GLuint prog;
		snprintf(fs, sizeof fs, "#version 400\nuniform sampler2D t;\nout vec4 o;\nvoid main() { o = %s; }\n",
			 cases[k].lookup);
		prog = program_vs_fs(vs, fs);
		CHECK(prog);
		GL(glUseProgram)(prog);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		read_rgba8(0, 0, W, H, px);
		CHECK(!drv_context_take_unsupported(ctx));
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				int i0 = (int)floor((x + 0.5) * 4 / W - 0.5) + cases[k].oi;
				int j0 = (int)floor((y + 0.5) * 4 / H - 0.5) + cases[k].oj;
				for (int c = 0; c < 4; c++) {
					int i = ((i0 + di[c]) % 4 + 4) % 4, j = ((j0 + dj[c]) % 4 + 4) % 4;
					bad += px[4 * (y * W + x) + c] != texels[4 * (j * 4 + i) + cases[k].comp];
				}
			}
		if (bad)
			fprintf(stderr, "%s: %d channels wrong; pixel (0, 0) %u %u %u %u\n", cases[k].lookup, bad, px[0],
				px[1], px[2], px[3]);
		CHECK_EQ_INT(bad, 0);
	}
	dgl_done_clean(ctx);
}

/* The offset and gradient forms on a 2D array (`da`: the layer after x,
 * y; textureGradOffset takes all 8 address VGPRs: offset, 4 derivatives,
 * x, y, layer).  An 8x8x3 RGBA8 array, texel (i, j) of layer L red 16 i,
 * green 16 j, blue 40 L, GL_NEAREST, GL_REPEAT: pixel (x, y) at P =
 * gl_FragCoord / (40, 24) shows texel ((floor(8 P) + offset) mod 8) of
 * the layer asked (GL 4.6 §8.14.2). */
static void test_array_offsets_and_grads(void)
{
	struct drv_context *ctx = window_context();
	static uint8_t px[W * H * 4], texels[8 * 8 * 3 * 4];
	const char *vs = quad_vs;
	static const struct { const char *lookup; int layer, oi, oj; } cases[] = {
		{ "textureOffset(t, vec3(p, 2.0), ivec2(1, -2))", 2, 1, -2 },
		{ "textureLodOffset(t, vec3(p, 1.0), 0.0, ivec2(-1, 3))", 1, -1, 3 },
		{ "textureGrad(t, vec3(p, 0.0), vec2(0.125, 0.0), vec2(0.0, 0.125))", 0, 0, 0 },
		{ "textureGradOffset(t, vec3(p, 1.0), vec2(0.125, 0.0), vec2(0.0, 0.125), ivec2(2, 2))", 1, 2, 2 },
	};
	GLuint tex = 0, vao = 0;
	char fs[512];

	CHECK(ctx);
	if (!ctx)
		return;
	for (unsigned i = 0; i < 8 * 8 * 3; i++) {
		texels[4 * i] = (uint8_t)(16 * (i % 8)), texels[4 * i + 1] = (uint8_t)(16 * (i / 8 % 8));
		texels[4 * i + 2] = (uint8_t)(40 * (i / 64)), texels[4 * i + 3] = 255;
	}
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_2D_ARRAY, tex);
	GL(glTexImage3D)(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 8, 8, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
	GL(glTexParameteri)(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		int bad = 0;
		GLuint prog;
		snprintf(fs, sizeof fs, "#version 330\nuniform sampler2DArray t;\nout vec4 o;\n"
			 "void main() { vec2 p = gl_FragCoord.xy / vec2(40.0, 24.0); o = %s; }\n", cases[k].lookup);
		prog = program_vs_fs(vs, fs);
		CHECK(prog);
		GL(glUseProgram)(prog);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		read_rgba8(0, 0, W, H, px);
		CHECK(!drv_context_take_unsupported(ctx));
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				const uint8_t *p = &px[4 * (y * W + x)];
				int i = ((x * 8 / W + cases[k].oi) % 8 + 8) % 8, j = ((y * 8 / H + cases[k].oj) % 8 + 8) % 8;
				bad += p[0] != 16 * i || p[1] != 16 * j || p[2] != 40 * cases[k].layer;
			}
		if (bad)
			fprintf(stderr, "%s: %d pixels wrong; pixel (0, 0) %u %u %u\n", cases[k].lookup, bad, px[0], px[1],
				px[2]);
		CHECK_EQ_INT(bad, 0);
	}
	dgl_done_clean(ctx);
}

/* textureQueryLevels (GLSL 4.60 §8.9.1): the levels accessible, q - base
 * + 1 with q = min(base + floor(log2(base size)), GL_TEXTURE_MAX_LEVEL)
 * (GL 4.6 §8.14.3): a 64x64 texture with 7 levels gives 7, with
 * GL_TEXTURE_BASE_LEVEL 2 gives 5, with GL_TEXTURE_MAX_LEVEL 3 too 2; an
 * incomplete texture's 0 is reported (the sim's image has a level). */
static void test_texture_query_levels(void)
{
	struct drv_context *ctx = window_context();
	static uint8_t lv[64 * 64 * 4];
	const char *vs = quad_vs;
	static const struct { GLint base, max, want; } cases[] = { { 0, 1000, 7 }, { 2, 1000, 5 }, { 2, 3, 2 } };
	GLuint prog, tex[2] = { 0, 0 }, vao = 0;
	uint8_t px[4];
	const char *why;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = program_vs_fs(vs, "#version 430\nuniform sampler2D t;\nout vec4 o;\n"
				 "void main() { o = vec4(float(textureQueryLevels(t)) / 8.0); }\n");
	CHECK(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenTextures)(2, tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex[0]);
	for (int l = 0; l < 7; l++)
		GL(glTexImage2D)(GL_TEXTURE_2D, l, GL_RGBA8, 64 >> l, 64 >> l, 0, GL_RGBA, GL_UNSIGNED_BYTE, lv);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
	GL(glUseProgram)(prog);
	for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, cases[k].base);
		GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, cases[k].max);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		read_rgba8(7, 5, 1, 1, px);
		CHECK(!drv_context_take_unsupported(ctx));
		if (px[0] != ubyte_of(cases[k].want / 8.0))
			fprintf(stderr, "base %d max %d: red %u, want %d levels\n", cases[k].base, cases[k].max, px[0],
				cases[k].want);
		CHECK_EQ_INT(px[0], ubyte_of(cases[k].want / 8.0));
	}
	/* mipmapped filter, one level: incomplete */
	GL(glBindTexture)(GL_TEXTURE_2D, tex[1]);
	GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, lv);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(0, 0, 1, 1, px);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "textureQueryLevels of an incomplete texture"));
	dgl_done_clean(ctx);
}

/* gl_SampleMask (GL 4.6 §17.3.3): on a multisampled framebuffer the
 * fragment's coverage is ANDed with the shader's mask, so white written
 * to samples 0 and 2 of 4 over black resolves (§18.3.1, the average) to
 * half white, and mask 0xF to white; on a single-sampled one (SAMPLE_BUFFERS
 * 0) the mask is ignored: mask 0 still writes the pixel. */
static void test_sample_mask_output(void)
{
	struct drv_context *ctx = window_context();
	const char *vs = quad_vs;
	GLuint prog, vao = 0, fbo[2] = { 0, 0 }, rb[2] = { 0, 0 };
	GLint loc;
	uint8_t px[4];
	static const struct { GLint mask; int lo, hi; } cases[] = { { 0x5, 127, 128 }, { 0xF, 255, 255 } };

	CHECK(ctx);
	if (!ctx)
		return;
	prog = program_vs_fs(vs, "#version 400\nuniform int m;\nout vec4 o;\n"
				 "void main() { o = vec4(1.0); gl_SampleMask[0] = m; }\n");
	CHECK(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenRenderbuffers)(2, rb);
	GL(glGenFramebuffers)(2, fbo);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb[0]);
	GL(glRenderbufferStorageMultisample)(GL_RENDERBUFFER, 4, GL_RGBA8, 4, 4);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fbo[0]);
	GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb[1]);
	GL(glRenderbufferStorage)(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fbo[1]);
	GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[1]);
	GL(glUseProgram)(prog);
	loc = GL(glGetUniformLocation)(prog, "m");
	GL(glViewport)(0, 0, 4, 4);
	GL(glClearColor)(0.0f, 0.0f, 0.0f, 1.0f);
	for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		GL(glBindFramebuffer)(GL_FRAMEBUFFER, fbo[0]);
		GL(glClear)(GL_COLOR_BUFFER_BIT);
		GL(glUniform1i)(loc, cases[k].mask);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, fbo[0]);
		GL(glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, fbo[1]);
		GL(glBlitFramebuffer)(0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST);
		GL(glBindFramebuffer)(GL_FRAMEBUFFER, fbo[1]);
		read_rgba8(1, 2, 1, 1, px);
		CHECK(!drv_context_take_unsupported(ctx));
		if (px[0] < cases[k].lo || px[0] > cases[k].hi)
			fprintf(stderr, "mask 0x%x: resolved red %u\n", (unsigned)cases[k].mask, px[0]);
		CHECK(px[0] >= cases[k].lo && px[0] <= cases[k].hi && px[3] == 255);
	}
	/* single-sampled: mask 0 ignored */
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fbo[1]);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glUniform1i)(loc, 0);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(1, 2, 1, 1, px);
	CHECK(!drv_context_take_unsupported(ctx));
	CHECK_EQ_INT(px[0], 255);
	dgl_done_clean(ctx);
}

/* A LOD bias (GLSL's texture(s, P, bias), image_sample_b): GL 4.6 §8.14.1
 * lambda = lambda_base + bias_texobj + bias_shader, clamped to the levels.
 * A 64x64 texture with 7 levels, level l's red 30 l, sampled at
 * gl_FragCoord / 16: du/dx = dv/dy = 4 texels, lambda_base = 2; with
 * GL_NEAREST_MIPMAP_NEAREST the level is ceil(lambda + 1/2) - 1 (§8.14.3),
 * lambda <= 0 magnifies (level 0). */
static void test_texture_lod_bias_in_fragment_shader(void)
{
	struct drv_context *ctx = window_context();
	static uint8_t px[W * H * 4], lv[64 * 64 * 4];
	const char *vs = quad_vs;
	static const struct { float shader, texobj; unsigned level; } cases[] = {
		{ 0.0f, 0.0f, 2 }, { 1.0f, 0.0f, 3 }, { 1.0f, -2.0f, 1 }, { -3.0f, 0.0f, 0 },
		{ -1.0f, 2.5f, 3 }, { 20.0f, 0.0f, 6 },
	};
	GLuint prog, tex = 0, vao = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = program_vs_fs(vs, "#version 330\nuniform sampler2D t;\nuniform float b;\nout vec4 o;\n"
				 "void main() { o = texture(t, gl_FragCoord.xy / 16.0, b); }\n");
	CHECK(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	for (int l = 0; l < 7; l++) {
		for (int i = 0; i < (64 >> l) * (64 >> l); i++)
			lv[4 * i] = (uint8_t)(30 * l), lv[4 * i + 1] = 7, lv[4 * i + 2] = (uint8_t)l, lv[4 * i + 3] = 255;
		GL(glTexImage2D)(GL_TEXTURE_2D, l, GL_RGBA8, 64 >> l, 64 >> l, 0, GL_RGBA, GL_UNSIGNED_BYTE, lv);
	}
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	GL(glUseProgram)(prog);
	for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		int bad = 0;
		GL(glUniform1f)(GL(glGetUniformLocation)(prog, "b"), cases[k].shader);
		GL(glTexParameterf)(GL_TEXTURE_2D, GL_TEXTURE_LOD_BIAS, cases[k].texobj);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		read_rgba8(0, 0, W, H, px);
		CHECK(!drv_context_take_unsupported(ctx));
		for (int i = 0; i < W * H; i++)
			bad += px[4 * i] != 30 * cases[k].level || px[4 * i + 2] != cases[k].level;
		if (bad)
			fprintf(stderr, "bias %g + %g: pixel 0 red %u, want level %u\n", (double)cases[k].shader,
				(double)cases[k].texobj, px[0], cases[k].level);
		CHECK_EQ_INT(bad, 0);
	}
	dgl_done_clean(ctx);
}

/* A texture whose pixels a draw the sim could not do drew (here a
 * fragment shader reading gl_SampleID) is not sampled as if they were GL's:
 * the pixels of a fragment shader sampling it are reported when read, with
 * the first reason; a vertex shader sampling it (its TF) reports the draw. */
static void test_sampling_pixels_not_drawn_is_reported(void)
{
	struct drv_context *ctx = window_context();
	const char *vs = quad_vs;
	GLuint undrawn, sampling, vs_sampling, tex = 0, fbo = 0, vao = 0;
	uint8_t px[4];
	const char *why;

	CHECK(ctx);
	if (!ctx)
		return;
	undrawn = program_vs_fs(vs, "#version 400\nout vec4 o;\nvoid main() { o = vec4(float(gl_SampleID)); }\n");
	sampling = program_vs_fs(vs, "#version 330\nuniform sampler2D t;\nout vec4 o;\n"
				     "void main() { o = texture(t, vec2(0.5)); }\n");
	vs_sampling = program_vs_fs("#version 330\nuniform sampler2D t;\nout vec4 c;\n"
				    "const vec2 P[4] = vec2[4](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), "
				    "vec2(1.0, 1.0));\n"
				    "void main() { c = textureLod(t, vec2(0.5), 0.0); gl_Position = vec4(P[gl_VertexID], 0.0, 1.0); }\n",
				    "#version 330\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n");
	CHECK(undrawn && sampling && vs_sampling);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glGenFramebuffers)(1, &fbo);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fbo);
	GL(glFramebufferTexture2D)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, 0);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	/* sampled while its pixels are GL's (cleared): nothing reported */
	GL(glUseProgram)(sampling);
	GL(glUniform1i)(GL(glGetUniformLocation)(sampling, "t"), 0);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(0, 0, 1, 1, px);
	CHECK(!drv_context_take_unsupported(ctx));
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fbo);
	GL(glUseProgram)(undrawn);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	drv_context_take_unsupported(ctx);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, 0);
	GL(glUseProgram)(sampling);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	CHECK(!drv_context_take_unsupported(ctx));
	read_rgba8(0, 0, 1, 1, px);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "sampling a texture whose pixels") && strstr(why, "gl_SampleID"));
	if (why && !strstr(why, "gl_SampleID"))
		fprintf(stderr, "reason: %s\n", why);
	GL(glUseProgram)(vs_sampling);
	GL(glUniform1i)(GL(glGetUniformLocation)(vs_sampling, "t"), 0);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "sampling a texture whose pixels"));
	dgl_done_clean(ctx);
}

/* Derivatives (GLSL 4.60 §8.14.1; GL_ARB_derivative_control) of
 * f = x * y at the pixel centres (x, y) = (i + 1/2, j + 1/2), into an
 * RGBA32F renderbuffer, exact: the fine dFdx of pixel (i, j) is its own
 * row's difference, y; the coarse one the quad's top row's, qy + 1/2
 * (qx, qy = i, j rounded down to even); dFdy likewise with x, qx + 1/2;
 * fwidth = |dFdx| + |dFdy|; the plain ones are the fine ones (the
 * driver's choice, docs/status.md).  The strip's two triangles split the
 * quads on its diagonal: their helper lanes supply the missing pixels. */
static void test_derivatives_fine_and_coarse(void)
{
	struct drv_context *ctx = window_context();
	const char *vs = quad_vs;
	static float px[W * H * 4];
	GLuint plain, coarse, fb = 0, rb = 0, vao = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	plain = program_vs_fs(vs, "#version 330\nout vec4 o;\n"
				  "void main() { float f = gl_FragCoord.x * gl_FragCoord.y;\n"
				  "  o = vec4(dFdx(f), dFdy(f), fwidth(f), -dFdx(f)); }\n");
	coarse = program_vs_fs(vs, "#version 400\n#extension GL_ARB_derivative_control : require\nout vec4 o;\n"
				   "void main() { float f = gl_FragCoord.x * gl_FragCoord.y;\n"
				   "  o = vec4(dFdxCoarse(f), dFdyCoarse(f), fwidthCoarse(f), dFdyFine(f)); }\n");
	CHECK(plain && coarse);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenFramebuffers)(1, &fb);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fb);
	GL(glGenRenderbuffers)(1, &rb);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb);
	GL(glRenderbufferStorage)(GL_RENDERBUFFER, GL_RGBA32F, W, H);
	GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	for (int pass = 0; pass < 2; pass++) {
		int bad = 0;
		GL(glUseProgram)(pass ? coarse : plain);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		CHECK(!drv_context_take_unsupported(ctx));
		GL(glReadPixels)(0, 0, W, H, GL_RGBA, GL_FLOAT, px);
		for (int j = 0; j < H; j++)
			for (int i = 0; i < W; i++) {
				const float *p = &px[4 * (j * W + i)];
				float x = i + 0.5f, y = j + 0.5f, qx = (i & ~1) + 0.5f, qy = (j & ~1) + 0.5f;
				float want[4] = { y, x, x + y, -y };
				if (pass)
					want[0] = qy, want[1] = qx, want[2] = qx + qy, want[3] = x;
				if (memcmp(p, want, sizeof want)) {
					if (!bad)
						fprintf(stderr, "pass %d pixel (%d, %d): %g %g %g %g, want %g %g %g %g\n", pass,
							i, j, (double)p[0], (double)p[1], (double)p[2], (double)p[3],
							(double)want[0], (double)want[1], (double)want[2], (double)want[3]);
					bad++;
				}
			}
		CHECK_EQ_INT(bad, 0);
	}
	dgl_done_clean(ctx);
}

/* discard (GLSL 4.60 §6.4, OpKill): a discarded fragment writes no colour
 * and no depth (GL 4.6 §15.2.2: the fragment is discarded before the
 * per-fragment operations).  The left half (x < 20) discards: a red pass at
 * depth 0.25 leaves it black and its depth 1, so a green pass at 0.5 with
 * GL_LESS draws there only.  A texture read before the discard (alpha
 * test) keeps its implicit LOD; derivatives after one are reported. */
static void test_discard_writes_nothing(void)
{
	struct drv_context *ctx = window_context();
	const char *vs = "#version 330\nuniform float z;\n"
			 QUAD_CORNERS
			 "void main() { gl_Position = vec4(P[gl_VertexID], z, 1.0); }\n";
	static uint8_t px[W * H * 4];
	static const uint8_t texels[4 * 4] = { 255, 0, 0, 255, 255, 0, 0, 0, 255, 0, 0, 255, 255, 0, 0, 0 };
	GLuint red, green, alpha, late, vao = 0, tex = 0;
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	red = program_vs_fs(vs, "#version 330\nout vec4 o;\n"
				"void main() { if (gl_FragCoord.x < 20.0) discard; o = vec4(1.0, 0.0, 0.0, 1.0); }\n");
	green = program_vs_fs(vs, "#version 330\nout vec4 o;\nvoid main() { o = vec4(0.0, 1.0, 0.0, 1.0); }\n");
	/* a 2x2 texture whose alpha is 1 in its left column, 0 in its right */
	alpha = program_vs_fs(vs, "#version 330\nuniform sampler2D t;\nout vec4 o;\n"
				  "void main() { vec4 c = texture(t, gl_FragCoord.xy / vec2(40.0, 24.0));\n"
				  "  if (c.a < 0.5) discard; o = c; }\n");
	late = program_vs_fs(vs, "#version 330\nout vec4 o;\n"
				 "void main() { if (gl_FragCoord.x < 20.0) discard; o = vec4(dFdx(gl_FragCoord.x)); }\n");
	CHECK(red && green && alpha && late);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glClearColor)(0.0f, 0.0f, 0.0f, 0.0f);
	GL(glClearDepth)(1.0);
	GL(glClear)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	GL(glEnable)(GL_DEPTH_TEST);
	GL(glDepthFunc)(GL_LESS);
	GL(glUseProgram)(red);
	GL(glUniform1f)(GL(glGetUniformLocation)(red, "z"), -0.5f);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	GL(glUseProgram)(green);
	GL(glUniform1f)(GL(glGetUniformLocation)(green, "z"), 0.0f);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	CHECK(!drv_context_take_unsupported(ctx));
	read_rgba8(0, 0, W, H, px);
	CHECK(!drv_context_take_unsupported(ctx));
	for (int i = 0; i < W * H; i++) {
		bool left = i % W < 20;
		bad += px[4 * i] != (left ? 0 : 255) || px[4 * i + 1] != (left ? 255 : 0) || px[4 * i + 3] != 255;
	}
	CHECK_EQ_INT(bad, 0);
	GL(glDisable)(GL_DEPTH_TEST);

	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	GL(glUseProgram)(alpha);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(0, 0, W, H, px);
	CHECK(!drv_context_take_unsupported(ctx));
	bad = 0;
	for (int i = 0; i < W * H; i++) {
		bool left = i % W < 20;
		bad += px[4 * i] != (left ? 255 : 0) || px[4 * i + 3] != (left ? 255 : 0);
	}
	CHECK_EQ_INT(bad, 0);

	GL(glUseProgram)(late);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(0, 0, 1, 1, px);
	const char *why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "derivatives after a discard"));
	dgl_done_clean(ctx);
}

/* gl_FragDepth (GL 4.6 §15.2.3: the fragment's depth is the shader's):
 * depth x / 40 at window x, written through exp mrtz; a second pass at
 * window depth 0.5 with GL_LESS passes where x / 40 > 0.5 only, and the
 * depth read back is the shader's, as 24-bit fixed point. */
static void test_frag_depth_is_written(void)
{
	struct drv_context *ctx = window_context();
	const char *vs = quad_vs;
	static uint8_t px[W * H * 4];
	GLuint red, green, vao = 0;
	float z = -1.0f;
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	red = program_vs_fs(vs, "#version 330\nout vec4 o;\n"
				"void main() { gl_FragDepth = gl_FragCoord.x / 40.0; o = vec4(1.0, 0.0, 0.0, 1.0); }\n");
	green = program_vs_fs(vs, "#version 330\nout vec4 o;\nvoid main() { o = vec4(0.0, 1.0, 0.0, 1.0); }\n");
	CHECK(red && green);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glClearDepth)(1.0);
	GL(glClear)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	GL(glEnable)(GL_DEPTH_TEST);
	GL(glDepthFunc)(GL_LESS);
	GL(glUseProgram)(red);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	GL(glUseProgram)(green);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(0, 0, W, H, px);
	CHECK(!drv_context_take_unsupported(ctx));
	for (int i = 0; i < W * H; i++) {
		bool right = i % W >= 20;
		bad += px[4 * i] != (right ? 0 : 255) || px[4 * i + 1] != (right ? 255 : 0);
	}
	CHECK_EQ_INT(bad, 0);
	GL(glReadPixels)(3, 5, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, &z);
	CHECK(!drv_context_take_unsupported(ctx));
	CHECK(fabs(z - 3.5 / 40.0) < 1.0 / (1 << 23));
	GL(glDisable)(GL_DEPTH_TEST);
	dgl_done_clean(ctx);
}

/* A texture the sim does not sample (GL_RGBA16) read by a fragment
 * shader only: the draw runs (its vertex processing is right) and its
 * pixels are reported when read; read by a vertex shader, whose output TF
 * may capture, the draw itself is reported. */
static void test_unsampled_texture_reported_where_it_matters(void)
{
	struct drv_context *ctx = window_context();
	static uint8_t px[W * H * 4];
	static uint16_t texels[4 * 4 * 4];
	const char *vs = quad_vs;
	const char *vs_tex = "#version 330\nuniform sampler2D t;\nout vec4 c;\n"
			     QUAD_CORNERS
			     "void main() { c = textureLod(t, vec2(0.5), 0.0); gl_Position = vec4(P[gl_VertexID], 0.0, 1.0); }\n";
	GLuint fs_prog, vs_prog, tex = 0, vao = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	fs_prog = program_vs_fs(vs, "#version 330\nuniform sampler2D t;\nout vec4 o;\n"
				    "void main() { o = texture(t, vec2(0.5)); }\n");
	vs_prog = program_vs_fs(vs_tex, "#version 330\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n");
	CHECK(fs_prog && vs_prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_RGBA16, 4, 4, 0, GL_RGBA, GL_UNSIGNED_SHORT, texels);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glUseProgram)(fs_prog);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	CHECK(!drv_context_take_unsupported(ctx));
	read_rgba8(0, 0, W, H, px);
	CHECK(drv_context_take_unsupported(ctx));
	GL(glUseProgram)(vs_prog);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	CHECK(drv_context_take_unsupported(ctx));
	dgl_done_clean(ctx);
}

/* The pixels a draw of points covers, counted in a read-back of the
 * window cleared to zero. */
static int drawn_pixels(GLenum mode, GLint count)
{
	static uint8_t px[W * H * 4];
	int n = 0;

	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glDrawArrays)(mode, 0, count);
	read_rgba8(0, 0, W, H, px);
	for (int i = 0; i < W * H; i++)
		n += px[4 * i + 3] != 0;
	return n;
}

static bool dump_has(struct drv_context *ctx, GLuint prog, const char *what)
{
	struct xt_buf dump = XT_BUF_INIT;
	bool has;

	CHECK(drv_context_program_dump(ctx, prog, &dump) == XT_OK);
	xt_buf_append(&dump, "", 1);
	has = dump.data && strstr((const char *)dump.data, what);
	xt_buf_fini(&dump);
	return has;
}

/* gl_PointSize (GL 4.6 §14.4: the point size with PROGRAM_POINT_SIZE, else
 * glPointSize's) and gl_ClipDistance (§13.7: plane i clips where
 * CLIP_DISTANCEi is enabled; a point outside it is discarded) reach the
 * rasterizer: the hardware VS exports the misc vector (x = the size) and
 * the clip-distance vectors after pos0 where a store reaches them
 * (radeonsi's packing, docs/isa.md "Pixel shaders"), and the draw programs
 * PA_CL_VS_OUT_CNTL.  A point of size 3 centred on pixel (9, 6) covers the
 * 3 x 3 pixels around it (§14.4.1: pixel centres inside the square); the
 * triangle covering the window with distance 0 = NDC x, 7 = NDC y keeps
 * the pixels right of x = 20 and above y = 12 of the 40 x 24 window. */
static void test_point_size_and_clip_distances_reach_the_rasterizer(void)
{
	struct drv_context *ctx = window_context();
	const char *fs = "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n";
	GLuint plain, point, tri, gs_point, vao = 0, q = 0, samples = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	/* glslang declares all of gl_PerVertex; only gl_Position is written */
	plain = program_vs_fs("#version 330\nvoid main() { gl_Position = vec4(-0.525, 0.0833333, 0.0, 1.0); }\n", fs);
	point = program_vs_fs("#version 330\nout float gl_ClipDistance[1];\nvoid main() {\n"
			      "  gl_Position = vec4(-0.525, 0.0833333, 0.0, 1.0);\n"
			      "  gl_PointSize = 3.0; gl_ClipDistance[0] = gl_Position.x; }\n", fs);
	tri = program_vs_fs("#version 330\nout float gl_ClipDistance[8];\n"
			    "const vec2 P[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));\n"
			    "void main() { gl_Position = vec4(P[gl_VertexID], 0.0, 1.0);\n"
			    "  gl_ClipDistance[0] = gl_Position.x; gl_ClipDistance[7] = gl_Position.y; }\n", fs);
	CHECK(plain && point && tri);
	if (!plain || !point || !tri)
		return;
	CHECK(dump_has(ctx, plain, "exp pos0, v[8:11] done") && !dump_has(ctx, plain, "exp pos1"));
	CHECK(dump_has(ctx, point, "position exports: 3 (point size yes, clip distances 0x01)"));
	CHECK(dump_has(ctx, point, "exp pos1, v[8:11]\n") && dump_has(ctx, point, "exp pos2, v[8:11] done"));
	CHECK(dump_has(ctx, tri, "position exports: 3 (point size no, clip distances 0x81)"));
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glClearColor)(0, 0, 0, 0);

	GL(glUseProgram)(plain);
	CHECK_EQ_INT(drawn_pixels(GL_POINTS, 1), 1);
	CHECK_EQ_INT(reg(REG_PA_CL_VS_OUT_CNTL), 0);
	CHECK_EQ_INT(reg(REG_SPI_SHADER_POS_FORMAT), V_SPI_SHADER_4COMP);
	/* the size written, not used without PROGRAM_POINT_SIZE */
	GL(glUseProgram)(point);
	CHECK_EQ_INT(drawn_pixels(GL_POINTS, 1), 1);
	CHECK_EQ_INT(reg(REG_PA_CL_VS_OUT_CNTL), PA_CL_VS_OUT_CNTL_VS_OUT_MISC_VEC_ENA(1) |
			     PA_CL_VS_OUT_CNTL_VS_OUT_MISC_SIDE_BUS_ENA(1) | PA_CL_VS_OUT_CNTL_VS_OUT_CCDIST0_VEC_ENA(1));
	CHECK_EQ_INT(reg(REG_SPI_SHADER_POS_FORMAT), V_SPI_SHADER_4COMP * 0x111u);
	GL(glEnable)(GL_PROGRAM_POINT_SIZE);
	CHECK_EQ_INT(drawn_pixels(GL_POINTS, 1), 9);
	CHECK(PA_CL_VS_OUT_CNTL_USE_VTX_POINT_SIZE_GET(reg(REG_PA_CL_VS_OUT_CNTL)));
	/* GL_SAMPLES_PASSED counts them (§4.2) */
	GL(glGenQueries)(1, &q);
	GL(glBeginQuery)(GL_SAMPLES_PASSED, q);
	GL(glDrawArrays)(GL_POINTS, 0, 1);
	GL(glEndQuery)(GL_SAMPLES_PASSED);
	GL(glGetQueryObjectuiv)(q, GL_QUERY_RESULT, &samples);
	CHECK_EQ_INT(samples, 9);
	/* a point centred at window x 40.5, right of the window: outside the
	 * clip volume, discarded whole (§13.7), though its square reaches
	 * column 39 */
	{
		GLuint edge = program_vs_fs("#version 330\nvoid main() {\n"
					    "  gl_Position = vec4(1.025, 0.0833333, 0.0, 1.0); gl_PointSize = 3.0; }\n", fs);
		CHECK(edge);
		GL(glUseProgram)(edge);
		CHECK_EQ_INT(drawn_pixels(GL_POINTS, 1), 0);
		CHECK(reg_f(REG_PA_CL_GB_HORZ_DISC_ADJ) == 1.0f);
		GL(glUseProgram)(point);
	}
	/* the point is left of x = 0: outside plane 0 when enabled */
	GL(glEnable)(GL_CLIP_DISTANCE0);
	CHECK_EQ_INT(drawn_pixels(GL_POINTS, 1), 0);
	CHECK_EQ_INT(reg(REG_PA_CL_VS_OUT_CNTL) & 0xFFFFu, 0x0101u);   /* CLIP_DIST_ENA_0, CULL_DIST_ENA_0 */
	GL(glDisable)(GL_PROGRAM_POINT_SIZE);

	GL(glUseProgram)(tri);
	CHECK_EQ_INT(drawn_pixels(GL_TRIANGLES, 3), 20 * 24);
	GL(glEnable)(GL_CLIP_DISTANCE7);
	CHECK_EQ_INT(drawn_pixels(GL_TRIANGLES, 3), 20 * 12);
	CHECK_EQ_INT(reg(REG_PA_CL_VS_OUT_CNTL), PA_CL_VS_OUT_CNTL_VS_OUT_CCDIST0_VEC_ENA(1) |
			     PA_CL_VS_OUT_CNTL_VS_OUT_CCDIST1_VEC_ENA(1) | 0x8181u);
	GL(glDisable)(GL_CLIP_DISTANCE0);
	CHECK_EQ_INT(drawn_pixels(GL_TRIANGLES, 3), 40 * 12);
	GL(glDisable)(GL_CLIP_DISTANCE7);
	CHECK_EQ_INT(drawn_pixels(GL_TRIANGLES, 3), 40 * 24);
	/* planes the shader writes no distance for: undefined (§13.7), and
	 * not used */
	GL(glEnable)(GL_CLIP_DISTANCE3);
	CHECK_EQ_INT(drawn_pixels(GL_TRIANGLES, 3), 40 * 24);
	CHECK_EQ_INT(reg(REG_PA_CL_VS_OUT_CNTL) & 0xFFFFu, 0);
	GL(glDisable)(GL_CLIP_DISTANCE3);

	/* a geometry shader's gl_PointSize, exported by the copy shader */
	gs_point = GL(glCreateProgram)();
	GL(glAttachShader)(gs_point, dgl_shader(GL_VERTEX_SHADER, "#version 330\nvoid main() { gl_Position = vec4(0.0); }\n"));
	GL(glAttachShader)(gs_point, dgl_shader(GL_GEOMETRY_SHADER,
						"#version 330\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n"
						"void main() { gl_Position = vec4(-0.525, 0.0833333, 0.0, 1.0);\n"
						"  gl_PointSize = 3.0; EmitVertex(); }\n"));
	GL(glAttachShader)(gs_point, dgl_shader(GL_FRAGMENT_SHADER, fs));
	GL(glLinkProgram)(gs_point);
	CHECK(dump_has(ctx, gs_point, "position exports: 2 (point size yes, clip distances 0x00)"));
	GL(glUseProgram)(gs_point);
	GL(glEnable)(GL_PROGRAM_POINT_SIZE);
	CHECK_EQ_INT(drawn_pixels(GL_POINTS, 1), 9);
	GL(glDisable)(GL_PROGRAM_POINT_SIZE);
	CHECK_EQ_INT(drawn_pixels(GL_POINTS, 1), 1);
	dgl_done_clean(ctx);
}

/* Cull distances (GL 4.6 §13.7, ARB_cull_distance): with no enable, a
 * primitive whose vertices all have a negative gl_CullDistance[i] is
 * dropped; one they do not all leave is drawn whole (culling does not
 * clip).  The VS exports them after the clip distances up to the last
 * written, in the same vectors (radeonsi's packing), and the draw sets
 * their CULL_DIST_ENA bits. */
static void test_cull_distances_drop_primitives(void)
{
	struct drv_context *ctx = window_context();
	const char *fs = "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n";
	char vs[512];
	GLuint kept, culled, vao = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	/* the triangle covering the window; cull distance 1 = y (mixed) or
	 * y - 4 (negative at every vertex: y <= 3) */
	for (int k = 0; k < 2; k++) {
		snprintf(vs, sizeof vs,
			 "#version 450\nout float gl_ClipDistance[1];\nout float gl_CullDistance[2];\n"
			 "const vec2 P[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));\n"
			 "void main() { gl_Position = vec4(P[gl_VertexID], 0.0, 1.0);\n"
			 "  gl_ClipDistance[0] = -1.0; gl_CullDistance[0] = 1.0;\n"
			 "  gl_CullDistance[1] = gl_Position.y - %s; }\n", k ? "4.0" : "0.0");
		*(k ? &culled : &kept) = program_vs_fs(vs, fs);
	}
	CHECK(kept && culled);
	if (!kept || !culled)
		return;
	CHECK(dump_has(ctx, kept, "position exports: 2 (point size no, clip distances 0x01, cull distances 0x06)"));
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glClearColor)(0, 0, 0, 0);
	GL(glUseProgram)(kept);
	CHECK_EQ_INT(drawn_pixels(GL_TRIANGLES, 3), 40 * 24);
	CHECK_EQ_INT(reg(REG_PA_CL_VS_OUT_CNTL), PA_CL_VS_OUT_CNTL_VS_OUT_CCDIST0_VEC_ENA(1) | 0x0600u);
	GL(glUseProgram)(culled);
	CHECK_EQ_INT(drawn_pixels(GL_TRIANGLES, 3), 0);
	/* clip distance 0 (-1) clips only where its plane is enabled */
	GL(glUseProgram)(kept);
	GL(glEnable)(GL_CLIP_DISTANCE0);
	CHECK_EQ_INT(drawn_pixels(GL_TRIANGLES, 3), 0);
	CHECK_EQ_INT(reg(REG_PA_CL_VS_OUT_CNTL) & 0xFFFFu, 0x0701u);
	GL(glDisable)(GL_CLIP_DISTANCE0);
	dgl_done_clean(ctx);
}

/* GLES: the point size is gl_PointSize, with no enable (ES 3.2 §13.3);
 * without a write it is undefined, and the driver draws the state's
 * size 1. */
static void test_gles_points_take_the_shaders_size(void)
{
	struct drv_context_desc d = { .major = 3, .minor = 2, .gles = true };
	struct drv_window w = { .width = W, .height = H, .red = 8, .green = 8, .blue = 8, .alpha = 8 };
	struct drv_context *ctx = NULL;
	struct xt_err err = { 0 };
	const char *fs = "#version 310 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n";
	GLuint sized, unsized, edge, vao = 0;

	CHECK(drv_context_create(dgl_screen, &d, &ctx, &err) == XT_OK);
	if (!ctx)
		return;
	drv_context_make_current(ctx);
	drv_context_set_window(ctx, &w);
	sized = program_vs_fs("#version 310 es\nvoid main() { gl_Position = vec4(-0.525, 0.0833333, 0.0, 1.0);\n"
			      "  gl_PointSize = 3.0; }\n", fs);
	unsized = program_vs_fs("#version 310 es\nvoid main() { gl_Position = vec4(-0.525, 0.0833333, 0.0, 1.0); }\n", fs);
	CHECK(sized && unsized);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glClearColor)(0, 0, 0, 0);
	GL(glUseProgram)(sized);
	CHECK_EQ_INT(drawn_pixels(GL_POINTS, 1), 9);
	GL(glUseProgram)(unsized);
	CHECK_EQ_INT(drawn_pixels(GL_POINTS, 1), 1);
	CHECK_EQ_INT(PA_CL_VS_OUT_CNTL_USE_VTX_POINT_SIZE_GET(reg(REG_PA_CL_VS_OUT_CNTL)), 0);
	/* GLES clips points by the near and far planes only: one centred at
	 * window x 40.5 covers column 39 of rows 5..7 */
	edge = program_vs_fs("#version 310 es\nvoid main() { gl_Position = vec4(1.025, 0.0833333, 0.0, 1.0);\n"
			     "  gl_PointSize = 3.0; }\n", fs);
	CHECK(edge);
	GL(glUseProgram)(edge);
	CHECK_EQ_INT(drawn_pixels(GL_POINTS, 1), 3);
	CHECK(reg_f(REG_PA_CL_GB_HORZ_DISC_ADJ) > 1.0f);
	dgl_done_clean(ctx);
}

/* Draws the window-filling strip with `prog` once per value of uniform
 * `sel` in 0 .. n-1 and reads the pixels of the lower-left triangle
 * (2, 2) and of the upper-right one (37, 21) into px[sel][0 / 1]. */
static void draw_per_sel(GLuint prog, int n, uint8_t px[][2][4])
{
	GL(glUseProgram)(prog);
	for (int sel = 0; sel < n; sel++) {
		GL(glUniform1i)(GL(glGetUniformLocation)(prog, "sel"), sel);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		read_rgba8(2, 2, 1, 1, px[sel][0]);
		read_rgba8(W - 3, H - 3, 1, 1, px[sel][1]);
	}
}

/* `sel` < 0: a pixel of no selector */
static void check_pixel(const uint8_t got[4], const uint8_t want[4], const char *what, int sel)
{
	if (memcmp(got, want, 4)) {
		fprintf(stderr, "%s", what);
		if (sel >= 0)
			fprintf(stderr, ", sel %d", sel);
		fprintf(stderr, ": got %u %u %u %u, want %u %u %u %u\n", got[0], got[1], got[2], got[3], want[0],
			want[1], want[2], want[3]);
		CHECK(!"pixel");
	}
}

/*
 * Fragment-shader inputs that are structures, arrays, matrices and
 * interface blocks (GL 4.6 §4.4.1: each array element, matrix column and
 * member takes locations of its own; GLSL 4.60 §4.3.4, §4.5: a block
 * member's interpolation qualifier applies to that member only): one
 * param per location, each channel the matching output's (values the
 * same at every vertex interpolate to themselves), and the flat member
 * takes the provoking vertex's value, the last vertex of each triangle of
 * the strip (§13.6: triangle i of a strip has vertices i, i + 1, i + 2).
 * An input needing more than the hardware's 32 params is reported by
 * name, not drawn wrongly.
 */
static void test_fragment_inputs_of_structs_arrays_matrices_and_blocks(void)
{
	struct drv_context *ctx = window_context();
	static const char vs[] =
		"#version 330\n"
		QUAD_CORNERS
		"struct S { vec2 a; float b[2]; };\n"
		"out S s;\n"
		"out mat2x3 m;\n"
		"flat out ivec2 iv[2];\n"
		"out Blk { flat float f; vec3 c; } blk;\n"
		"void main() {\n"
		"  s.a = vec2(10.0, 20.0) / 255.0; s.b[0] = 30.0 / 255.0; s.b[1] = 40.0 / 255.0;\n"
		"  m = mat2x3(50.0, 60.0, 70.0, 80.0, 90.0, 100.0) / 255.0;\n"
		"  iv[0] = ivec2(110, 120); iv[1] = ivec2(130, 140);\n"
		"  blk.f = float(gl_VertexID) * 0.25; blk.c = vec3(150.0, 160.0, 170.0) / 255.0;\n"
		"  gl_Position = vec4(P[gl_VertexID], 0.0, 1.0);\n"
		"}\n";
	static const char fs[] =
		"#version 330\n"
		"struct S { vec2 a; float b[2]; };\n"
		"in S s;\n"
		"in mat2x3 m;\n"
		"flat in ivec2 iv[2];\n"
		"in Blk { flat float f; vec3 c; } blk;\n"
		"uniform int sel;\n"
		"out vec4 o;\n"
		"void main() {\n"
		"  if (sel == 0) o = vec4(s.a, s.b[0], s.b[1]);\n"
		"  else if (sel == 1) o = vec4(m[0], m[1].x);\n"
		"  else if (sel == 2) o = vec4(m[1].yz, vec2(iv[0]) / 255.0);\n"
		"  else if (sel == 3) o = vec4(vec2(iv[1]) / 255.0, blk.c.xy);\n"
		"  else o = vec4(blk.c.z, blk.f, 0.0, 1.0);\n"
		"}\n";
	static const uint8_t want[5][4] = { { 10, 20, 30, 40 }, { 50, 60, 70, 80 }, { 90, 100, 110, 120 },
					    { 130, 140, 150, 160 }, { 170, 0, 0, 255 } };
	uint8_t px[5][2][4], w[4];
	GLuint prog, many, vao = 0;
	const char *why;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = program_vs_fs(vs, fs);
	CHECK(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	draw_per_sel(prog, 5, px);
	why = drv_context_take_unsupported(ctx);
	if (why)
		fprintf(stderr, "unsupported: %s\n", why);
	CHECK(!why);
	/* s: 3 locations, m: 2, iv: 2, blk: 2 */
	CHECK_EQ_INT(SPI_PS_IN_CONTROL_NUM_INTERP_GET(reg(REG_SPI_PS_IN_CONTROL)), 9);
	for (int sel = 0; sel < 5; sel++)
		for (int t = 0; t < 2; t++) {
			memcpy(w, want[sel], 4);
			if (sel == 4)   /* blk.f of vertex 2, then of vertex 3 */
				w[1] = ubyte_of(t ? 0.75 : 0.5);
			check_pixel(px[sel][t], w, t ? "upper-right triangle" : "lower-left triangle", sel);
		}

	many = program_vs_fs("#version 330\nout float a[33];\n"
			     "void main() { for (int i = 0; i < 33; i++) a[i] = 0.5; gl_Position = vec4(0.0); }\n",
			     "#version 330\nin float a[33];\nout vec4 o;\n"
			     "void main() { o = vec4(a[0] + a[32]); }\n");
	CHECK(many);
	GL(glUseProgram)(many);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(0, 0, 1, 1, w);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "32 params ('a'"));
	dgl_done_clean(ctx);
}

/*
 * Fragment-shader inputs after a geometry shader: the copy shader reads
 * the GS's stream-0 outputs from the GSVS ring and exports them as the
 * params the fragment shader reads, arrays and blocks included.  The flat
 * input takes the provoking vertex of each triangle the GS emits (GL 4.6
 * §13.6, table 13.2: the last vertex of a strip's triangle, or the first
 * with glProvokingVertex(GL_FIRST_VERTEX_CONVENTION)); the GS numbers its
 * emitted vertices 0, 1, 2, 3 in a strip of two triangles.
 */
static void test_fragment_inputs_after_a_geometry_shader(void)
{
	struct drv_context *ctx = window_context();
	static const char vs[] =
		"#version 330\n"
		"out float v_k;\n"
		"void main() { v_k = 40.0 / 255.0; gl_Position = vec4(0.0); }\n";
	static const char gs[] =
		"#version 330\n"
		"layout(points) in;\n"
		"layout(triangle_strip, max_vertices = 4) out;\n"
		"in float v_k[];\n"
		"out vec4 g_color;\n"
		"flat out int g_id;\n"
		"out float g_arr[2];\n"
		"out GBlk { vec2 u; } gb;\n"
		QUAD_CORNERS
		"void main() {\n"
		"  for (int i = 0; i < 4; i++) {\n"
		"    g_color = vec4(10.0, 20.0, 30.0, 255.0) / 255.0; g_id = i;\n"
		"    g_arr[0] = v_k[0]; g_arr[1] = 50.0 / 255.0; gb.u = vec2(60.0, 70.0) / 255.0;\n"
		"    gl_Position = vec4(P[i], 0.0, 1.0); EmitVertex();\n"
		"  }\n"
		"}\n";
	static const char fs[] =
		"#version 330\n"
		"in vec4 g_color;\n"
		"flat in int g_id;\n"
		"in float g_arr[2];\n"
		"in GBlk { vec2 u; } gb;\n"
		"uniform int sel;\n"
		"out vec4 o;\n"
		"void main() {\n"
		"  if (sel == 0) o = g_color;\n"
		"  else o = vec4(g_arr[0], g_arr[1], gb.u.x + gb.u.y, float(g_id) / 255.0);\n"
		"}\n";
	uint8_t px[2][2][4];
	GLuint prog = 0, vao = 0;
	const char *why;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = GL(glCreateProgram)();
	GL(glAttachShader)(prog, dgl_shader(GL_VERTEX_SHADER, vs));
	GL(glAttachShader)(prog, dgl_shader(GL_GEOMETRY_SHADER, gs));
	GL(glAttachShader)(prog, dgl_shader(GL_FRAGMENT_SHADER, fs));
	GL(glLinkProgram)(prog);
	GLint ok = 0;
	GL(glGetProgramiv)(prog, GL_LINK_STATUS, &ok);
	CHECK(ok);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	/* one point in: the GS draws the window-filling strip */
	GL(glUseProgram)(prog);
	for (int first = 0; first < 2; first++) {
		GL(glProvokingVertex)(first ? GL_FIRST_VERTEX_CONVENTION : GL_LAST_VERTEX_CONVENTION);
		for (int sel = 0; sel < 2; sel++) {
			GL(glUniform1i)(GL(glGetUniformLocation)(prog, "sel"), sel);
			GL(glDrawArrays)(GL_POINTS, 0, 1);
			read_rgba8(2, 2, 1, 1, px[sel][0]);
			read_rgba8(W - 3, H - 3, 1, 1, px[sel][1]);
		}
		why = drv_context_take_unsupported(ctx);
		if (why)
			fprintf(stderr, "unsupported: %s\n", why);
		CHECK(!why);
		for (int t = 0; t < 2; t++) {
			/* triangle t has vertices t, t + 1, t + 2 */
			const uint8_t color[4] = { 10, 20, 30, 255 };
			const uint8_t rest[4] = { 40, 50, 130, (uint8_t)(first ? t : t + 2) };
			check_pixel(px[0][t], color, first ? "first convention" : "last convention", 0);
			check_pixel(px[1][t], rest, first ? "first convention" : "last convention", 1);
		}
	}
	GL(glProvokingVertex)(GL_LAST_VERTEX_CONVENTION);
	/* g_color, g_id, g_arr[0], g_arr[1], gb.u */
	CHECK_EQ_INT(SPI_PS_IN_CONTROL_NUM_INTERP_GET(reg(REG_SPI_PS_IN_CONTROL)), 5);
	dgl_done_clean(ctx);
}

/*
 * glPolygonMode(GL_LINE) (GL 4.6 §14.6.4): a triangle is clipped and
 * culled as a triangle, then its edges are drawn as lines, those of the
 * triangle only, not the one clipping by the near plane makes; flat
 * inputs take the triangle's provoking vertex (the last), on every edge.
 * Window coordinates: A (5.25, 4.75), B (30.75, 4.75), C (5.25, 20.25),
 * counter-clockwise; AB covers the centres of row 4, CA those of column 5
 * (§14.5.1: a width-1 line covers the centres within half a pixel across
 * its major axis).  Pixels near the ends are not checked (the diamond-exit
 * rule and this parallelogram may differ there).
 */
static void test_polygon_mode_line_draws_the_triangles_edges(void)
{
	struct drv_context *ctx = window_context();
	static const char vs[] =
		"#version 330\n"
		"uniform float za;\n"
		"const vec2 P[3] = vec2[3](vec2(5.25, 4.75), vec2(30.75, 4.75), vec2(5.25, 20.25));\n"
		"const vec4 C[3] = vec4[3](vec4(1.0, 0.0, 0.0, 1.0), vec4(0.0, 1.0, 0.0, 1.0), vec4(0.0, 0.0, 1.0, 1.0));\n"
		"flat out vec4 c;\n"
		"void main() {\n"
		"  c = C[gl_VertexID];\n"
		"  gl_Position = vec4(P[gl_VertexID] / vec2(20.0, 12.0) - 1.0, gl_VertexID == 0 ? za : 1.0, 1.0);\n"
		"}\n";
	static const char fs[] = "#version 330\nflat in vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n";
	static const uint8_t blue[4] = { 0, 0, 255, 255 }, clear[4] = { 0, 0, 0, 0 };
	uint8_t px[4];
	GLuint prog, vao = 0;
	const char *why;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = program_vs_fs(vs, fs);
	CHECK(prog);
	GL(glUseProgram)(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glPolygonMode)(GL_FRONT_AND_BACK, GL_LINE);
	GL(glUniform1f)(GL(glGetUniformLocation)(prog, "za"), 0.0f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(15, 4, 1, 1, px);
	why = drv_context_take_unsupported(ctx);
	if (why)
		fprintf(stderr, "unsupported: %s\n", why);
	CHECK(!why);
	check_pixel(px, blue, "edge AB, row 4", -1);
	read_rgba8(5, 12, 1, 1, px);
	check_pixel(px, blue, "edge CA, column 5", -1);
	read_rgba8(15, 5, 1, 1, px);
	check_pixel(px, clear, "below edge AB", -1);
	read_rgba8(10, 10, 1, 1, px);
	check_pixel(px, clear, "inside", -1);

	/* culled as the front-facing triangle it is */
	GL(glEnable)(GL_CULL_FACE);
	GL(glCullFace)(GL_FRONT);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(15, 4, 1, 1, px);
	check_pixel(px, clear, "culled front", -1);
	GL(glCullFace)(GL_BACK);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(15, 4, 1, 1, px);
	check_pixel(px, blue, "back culled, front drawn", -1);
	GL(glDisable)(GL_CULL_FACE);

	/* A at z = -3: the near plane cuts AB and CA halfway, at (18, 4.75)
	 * and (5.25, 12.5); the edge between them is clipping's, not drawn
	 * ((11, 8) lies on it) */
	GL(glUniform1f)(GL(glGetUniformLocation)(prog, "za"), -3.0f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(25, 4, 1, 1, px);
	check_pixel(px, blue, "clipped AB, kept part", -1);
	read_rgba8(10, 4, 1, 1, px);
	check_pixel(px, clear, "clipped AB, clipped part", -1);
	read_rgba8(11, 8, 1, 1, px);
	check_pixel(px, clear, "the near plane's edge", -1);
	CHECK(!drv_context_take_unsupported(ctx));

	/* GL_POINT: the vertices as points of size 1, each with the
	 * triangle's provoking vertex (C, blue) for the flat input, the edges
	 * between them not drawn */
	GL(glPolygonMode)(GL_FRONT_AND_BACK, GL_POINT);
	GL(glUniform1f)(GL(glGetUniformLocation)(prog, "za"), 0.0f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(5, 4, 1, 1, px);
	why = drv_context_take_unsupported(ctx);
	if (why)
		fprintf(stderr, "unsupported: %s\n", why);
	CHECK(!why);
	check_pixel(px, blue, "GL_POINT, point A", -1);
	read_rgba8(30, 4, 1, 1, px);
	check_pixel(px, blue, "GL_POINT, point B", -1);
	read_rgba8(5, 20, 1, 1, px);
	check_pixel(px, blue, "GL_POINT, point C", -1);
	read_rgba8(15, 4, 1, 1, px);
	check_pixel(px, clear, "GL_POINT, edge AB between the points", -1);
	GL(glPolygonMode)(GL_FRONT_AND_BACK, GL_FILL);
	dgl_done_clean(ctx);
}

/* A window context of the compatibility profile. */
static struct drv_context *compat_window_context(void)
{
	struct drv_context *ctx = dgl_context(3, 0, false);
	struct drv_window w = { .width = W, .height = H, .red = 8, .green = 8, .blue = 8,
				.alpha = 8, .depth = 24, .stencil = 8 };
	if (ctx)
		drv_context_set_window(ctx, &w);
	return ctx;
}

typedef void (*color4f_fn)(GLfloat, GLfloat, GLfloat, GLfloat);
typedef void (*client_state_fn)(GLenum);
typedef void (*vertex_ptr_fn)(GLint, GLenum, GLsizei, const void *);

/* NDC of window position (x, y) of the W x H window (viewport transform,
 * GL 4.6 §13.8.1, inverted). */
static void ndc(float *o, float x, float y)
{
	o[0] = x / (W / 2.0f) - 1.0f;
	o[1] = y / (H / 2.0f) - 1.0f;
}

/* No program in a compatibility context (GL 4.6 compat §12.2, §14.9, §16):
 * fixed-function vertex processing without lighting passes the current
 * colour on, clamped to [0, 1] (GL_CLAMP_VERTEX_COLOR is TRUE), and
 * fixed-function fragment processing without texturing, colour sum or fog
 * writes it: every pixel of a window-covering strip is round(c * 255)
 * (equation 2.4).  With lighting on the colour is lighting's, which the
 * driver does not compute: the read says so. */
static void test_fixed_function_draw_is_the_current_colour(void)
{
	struct drv_context *ctx = compat_window_context();
	static uint8_t px[W * H * 4];
	static const float strip[8] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	const uint8_t want[2][4] = { { ubyte_of(0.25), ubyte_of(0.5), ubyte_of(0.75), 255 },
				     { 255, 0, ubyte_of(0.5), 255 } };
	const char *why;
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	PROC(vertex_ptr_fn, "glVertexPointer")(2, GL_FLOAT, 0, strip);
	PROC(client_state_fn, "glEnableClientState")(0x8074 /* GL_VERTEX_ARRAY */);
	for (unsigned k = 0; k < 2; k++) {
		if (k == 0)
			PROC(color4f_fn, "glColor4f")(0.25f, 0.5f, 0.75f, 1.0f);
		else
			PROC(color4f_fn, "glColor4f")(2.0f, -1.0f, 0.5f, 3.0f);
		GL(glClear)(GL_COLOR_BUFFER_BIT);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		memset(px, 0xEE, sizeof px);
		read_rgba8(0, 0, W, H, px);
		CHECK(!drv_context_take_unsupported(ctx));
		for (int i = 0; i < W * H; i++)
			bad += memcmp(px + 4 * i, want[k], 4) != 0;
		CHECK_EQ_INT(bad, 0);
	}
	GL(glEnable)(0x0B50 /* GL_LIGHTING */);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(0, 0, 1, 1, px);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "lighting"));
	GL(glDisable)(0x0B50 /* GL_LIGHTING */);
	dgl_done_clean(ctx);
}

/* glPolygonMode (GL 4.6 compat §14.6.4) on the sim: a GL_QUADS quad with
 * corners at the pixel centres (5.5, 5.5) and (20.5, 15.5).  GL_LINE draws
 * its four edges as width-1 lines (§14.5.1: one fragment per column on the
 * horizontal ones, per row on the vertical ones, pixels within one of the
 * rule's at the ends) and not the diagonal the driver splits it along
 * (only a quad's own edges are boundary edges, §10.1.17): so the pixels
 * strictly inside stay clear, and the edges' middles are drawn.  GL_POINT
 * draws the four corners as points of size 3, the 3 x 3 pixels around
 * each, and nothing between them.  Back faces culled (GL_CULL_FACE) draw
 * nothing in either mode. */
static void test_polygon_modes_are_rasterized(void)
{
	struct drv_context *ctx = compat_window_context();
	static uint8_t px[W * H * 4];
	float quad[8], cw[8];
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	ndc(quad + 0, 5.5f, 5.5f);
	ndc(quad + 2, 20.5f, 5.5f);
	ndc(quad + 4, 20.5f, 15.5f);
	ndc(quad + 6, 5.5f, 15.5f);
	for (unsigned i = 0; i < 4; i++)
		memcpy(cw + 2 * i, quad + 2 * ((4 - i) % 4), 2 * sizeof(float));
	PROC(vertex_ptr_fn, "glVertexPointer")(2, GL_FLOAT, 0, quad);
	PROC(client_state_fn, "glEnableClientState")(0x8074 /* GL_VERTEX_ARRAY */);
	PROC(color4f_fn, "glColor4f")(1.0f, 1.0f, 1.0f, 1.0f);

	GL(glPolygonMode)(GL_FRONT_AND_BACK, GL_LINE);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glDrawArrays)(0x0007 /* GL_QUADS */, 0, 4);
	read_rgba8(0, 0, W, H, px);
	CHECK(!drv_context_take_unsupported(ctx));
	for (int y = 7; y <= 14; y++)
		for (int x = 7; x <= 19; x++)
			bad += px[4 * (y * W + x)] != 0;
	CHECK_EQ_INT(bad, 0);
	CHECK_EQ_INT(px[4 * (5 * W + 12)], 255);
	CHECK_EQ_INT(px[4 * (15 * W + 12)], 255);
	CHECK_EQ_INT(px[4 * (10 * W + 5)], 255);
	CHECK_EQ_INT(px[4 * (10 * W + 20)], 255);
	CHECK_EQ_INT(px[4 * (10 * W + 25)], 0);

	GL(glPolygonMode)(GL_FRONT_AND_BACK, GL_POINT);
	GL(glPointSize)(3.0f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glDrawArrays)(0x0007 /* GL_QUADS */, 0, 4);
	read_rgba8(0, 0, W, H, px);
	CHECK(!drv_context_take_unsupported(ctx));
	bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			bool on = (abs(x - 5) <= 1 || abs(x - 20) <= 1) && (abs(y - 5) <= 1 || abs(y - 15) <= 1);
			bad += px[4 * (y * W + x)] != (on ? 255 : 0);
		}
	CHECK_EQ_INT(bad, 0);

	GL(glEnable)(GL_CULL_FACE);
	for (unsigned m = 0; m < 2; m++) {
		GL(glPolygonMode)(GL_FRONT_AND_BACK, m ? GL_LINE : GL_POINT);
		PROC(vertex_ptr_fn, "glVertexPointer")(2, GL_FLOAT, 0, cw);
		GL(glClear)(GL_COLOR_BUFFER_BIT);
		GL(glDrawArrays)(0x0007 /* GL_QUADS */, 0, 4);
		read_rgba8(0, 0, W, H, px);
		CHECK(!drv_context_take_unsupported(ctx));
		bad = 0;
		for (int i = 0; i < W * H; i++)
			bad += px[4 * i] != 0;
		CHECK_EQ_INT(bad, 0);
	}
	dgl_done_clean(ctx);
}

typedef void (*tex_envi_fn)(GLenum, GLenum, GLint);
typedef void (*color_ptr_fn)(GLint, GLenum, GLsizei, const void *);
typedef void (*shade_model_fn)(GLenum);

/* Fixed-function texturing (GL 4.6 compat §16.1, table 16.1's RGBA row):
 * a 2 x 2 RGBA texture, nearest, on unit 0, over the whole window with
 * texture coordinates (0, 0) to (1, 1), so each quarter of the window
 * shows one texel (centres x + 0.5 < 20 have s < 0.5).  GL_REPLACE gives
 * the texel; GL_MODULATE the texel times the current colour, component by
 * component; either under glShadeModel(GL_FLAT) too.  Texturing is
 * enabled per unit: glIsEnabled answers for the active unit; unit 1
 * enabled, or another environment, is reported. */
static void test_fixed_function_texturing_on_unit_0(void)
{
	struct drv_context *ctx = compat_window_context();
	static uint8_t px[W * H * 4];
	static const float strip[8] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	static const float st[8] = { 0, 0, 1, 0, 0, 1, 1, 1 };
	static const uint8_t texels[16] = { 255, 0, 0, 255, 0, 255, 0, 255,      /* row 0: red, green */
					    0, 0, 255, 255, 255, 255, 255, 0 };  /* row 1: blue, white / 0 */
	const float color[4] = { 0.5f, 1.0f, 0.25f, 0.5f };
	GLuint tex = 0;
	GLboolean on;
	const char *why;
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	PROC(vertex_ptr_fn, "glVertexPointer")(2, GL_FLOAT, 0, strip);
	PROC(client_state_fn, "glEnableClientState")(0x8074 /* GL_VERTEX_ARRAY */);
	PROC(vertex_ptr_fn, "glTexCoordPointer")(2, GL_FLOAT, 0, st);
	PROC(client_state_fn, "glEnableClientState")(0x8078 /* GL_TEXTURE_COORD_ARRAY */);
	PROC(color4f_fn, "glColor4f")(color[0], color[1], color[2], color[3]);
	GL(glEnable)(GL_TEXTURE_2D);
	/* the same under GL_FLAT: the colour is the current colour at every
	 * vertex */
	for (unsigned k = 0; k < 4; k++) {
		unsigned modulate = k & 1;
		PROC(shade_model_fn, "glShadeModel")(k >= 2 ? 0x1D00 /* GL_FLAT */ : 0x1D01 /* GL_SMOOTH */);
		PROC(tex_envi_fn, "glTexEnvi")(0x2300 /* GL_TEXTURE_ENV */, 0x2200 /* GL_TEXTURE_ENV_MODE */,
					       modulate ? 0x2100 /* GL_MODULATE */ : GL_REPLACE);
		GL(glClear)(GL_COLOR_BUFFER_BIT);
		GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
		memset(px, 0xEE, sizeof px);
		read_rgba8(0, 0, W, H, px);
		CHECK(!drv_context_take_unsupported(ctx));
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				const uint8_t *t = texels + 4 * ((y >= H / 2) * 2 + (x >= W / 2)), *p = px + 4 * (y * W + x);
				for (int c = 0; c < 4; c++) {
					int want = modulate ? ubyte_of(t[c] / 255.0 * color[c]) : t[c];
					bad += abs(p[c] - want) > (modulate ? 1 : 0);
				}
			}
		CHECK_EQ_INT(bad, 0);
	}
	GL(glActiveTexture)(GL_TEXTURE1);
	CHECK(!(on = GL(glIsEnabled)(GL_TEXTURE_2D)));
	GL(glEnable)(GL_TEXTURE_2D);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(0, 0, 1, 1, px);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "unit other than 0"));
	GL(glDisable)(GL_TEXTURE_2D);
	GL(glActiveTexture)(GL_TEXTURE0);
	CHECK((on = GL(glIsEnabled)(GL_TEXTURE_2D)));
	PROC(tex_envi_fn, "glTexEnvi")(0x2300 /* GL_TEXTURE_ENV */, 0x2200 /* GL_TEXTURE_ENV_MODE */,
				       0x2101 /* GL_DECAL */);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	read_rgba8(0, 0, 1, 1, px);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "texture environment"));
	GL(glDisable)(GL_TEXTURE_2D);
	GL(glDeleteTextures)(1, &tex);
	dgl_done_clean(ctx);
}


/* glShadeModel (GL 4.6 compat §14.6.4 / table 13.x's provoking vertex):
 * under GL_FLAT every fragment of a triangle takes the colour of its
 * provoking vertex, the last by default, here blue, exactly; GL_SMOOTH
 * interpolates (the centre pixel has red and green in it).  The state
 * reads back as GL_SHADE_MODEL; another mode is GL_INVALID_ENUM.  A
 * program of the application whose fragments read the colour varying is
 * not made flat by the driver: its pixels are reported. */
static void test_shade_model_flat_fixed_function(void)
{
	struct drv_context *ctx = compat_window_context();
	static uint8_t px[W * H * 4];
	static const float tri[6] = { -1, -1, 3, -1, -1, 3 };
	static const float colors[12] = { 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1 };
	GLint mode = 0;
	GLuint prog;
	const char *why;
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	PROC(vertex_ptr_fn, "glVertexPointer")(2, GL_FLOAT, 0, tri);
	PROC(client_state_fn, "glEnableClientState")(0x8074 /* GL_VERTEX_ARRAY */);
	PROC(color_ptr_fn, "glColorPointer")(4, GL_FLOAT, 0, colors);
	PROC(client_state_fn, "glEnableClientState")(0x8076 /* GL_COLOR_ARRAY */);
	GL(glGetIntegerv)(0x0B54 /* GL_SHADE_MODEL */, &mode);
	CHECK_EQ_INT(mode, 0x1D01 /* GL_SMOOTH */);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(W / 2, H / 2, 1, 1, px);
	CHECK(!drv_context_take_unsupported(ctx));
	CHECK(px[0] > 0 && px[1] > 0);
	PROC(shade_model_fn, "glShadeModel")(0x1D00 /* GL_FLAT */);
	GL(glGetIntegerv)(0x0B54 /* GL_SHADE_MODEL */, &mode);
	CHECK_EQ_INT(mode, 0x1D00 /* GL_FLAT */);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	memset(px, 0xEE, sizeof px);
	read_rgba8(0, 0, W, H, px);
	CHECK(!drv_context_take_unsupported(ctx));
	for (int i = 0; i < W * H; i++)
		bad += px[4 * i] != 0 || px[4 * i + 1] != 0 || px[4 * i + 2] != 255 || px[4 * i + 3] != 255;
	CHECK_EQ_INT(bad, 0);
	PROC(shade_model_fn, "glShadeModel")(GL_LINE);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);

	prog = dgl_program("#version 110\nvoid main() { gl_Position = gl_Vertex; gl_FrontColor = gl_Color; }\n",
			   NULL, NULL, 0);
	CHECK(prog);
	GL(glUseProgram)(prog);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	read_rgba8(0, 0, 1, 1, px);
	why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "glShadeModel(GL_FLAT)"));
	GL(glUseProgram)(0);
	dgl_done_clean(ctx);
}

int main(void)
{
	struct xt_err err = { 0 };
	if (dgl_screen_create(&err) != XT_OK) {
		fprintf(stderr, "dgl_screen_create: %s\n", xt_err_msg(&err));
		return 1;
	}
	XT_RUN(test_clear_reads_back_converted_to_unorm8);
	XT_RUN(test_clear_obeys_scissor_and_color_mask);
	XT_RUN(test_read_pixels_follows_the_pack_state);
	XT_RUN(test_depth_and_stencil_clears_read_back);
	XT_RUN(test_fbo_float_and_integer_attachments);
	XT_RUN(test_read_pixels_into_a_pack_buffer);
	XT_RUN(test_pixels_of_a_draw_not_rasterized_are_reported);
	XT_RUN(test_draw_programs_the_pixel_pipeline_state);
	XT_RUN(test_multisample_textures_answer_their_sample_positions);
	XT_RUN(test_fragment_shader_compiles_to_the_ps_abi);
	XT_RUN(test_triangle_is_drawn_by_gl_rules);
	XT_RUN(test_width_1_lines_are_logged_with_whole_clears_and_reads);
	XT_RUN(test_texture_sampling_in_fragment_shader);
	XT_RUN(test_texture_lod_bias_in_fragment_shader);
	XT_RUN(test_texture_proj_and_fetch_offset);
	XT_RUN(test_texture_offset_and_grad);
	XT_RUN(test_frag_data_and_array_outputs);
	XT_RUN(test_point_coord_of_points);
	XT_RUN(test_texture_gather);
	XT_RUN(test_array_offsets_and_grads);
	XT_RUN(test_texture_query_levels);
	XT_RUN(test_sample_mask_output);
	XT_RUN(test_fragment_compile_errors_name_the_stage);
	XT_RUN(test_sampling_pixels_not_drawn_is_reported);
	XT_RUN(test_derivatives_fine_and_coarse);
	XT_RUN(test_discard_writes_nothing);
	XT_RUN(test_frag_depth_is_written);
	XT_RUN(test_unsampled_texture_reported_where_it_matters);
	XT_RUN(test_point_size_and_clip_distances_reach_the_rasterizer);
	XT_RUN(test_cull_distances_drop_primitives);
	XT_RUN(test_gles_points_take_the_shaders_size);
	XT_RUN(test_fragment_inputs_of_structs_arrays_matrices_and_blocks);
	XT_RUN(test_fragment_inputs_after_a_geometry_shader);
	XT_RUN(test_polygon_mode_line_draws_the_triangles_edges);
	XT_RUN(test_fixed_function_draw_is_the_current_colour);
	XT_RUN(test_fixed_function_texturing_on_unit_0);
	XT_RUN(test_shade_model_flat_fixed_function);
	XT_RUN(test_polygon_modes_are_rasterized);
	dgl_screen_destroy();
	XT_TEST_MAIN_END();
}
