/*
 * test_drv_gl_blit.c - blits and texture copies on the sim driver
 * (drv_gl_blit.c, driver/hw/drv_pm4_blit.c: a draw of the destination
 * rectangle sampling the source), glClearTexImage (drv_gl_tex.c).
 *
 * Every expected value comes from the GL 4.6 rule the test names, never
 * from the driver: §18.3.1's linear mapping of the rectangles (a
 * destination pixel centre (x + 0.5, y + 0.5) maps to the source point
 * s0 + (x + 0.5 - d0) (s1 - s0) / (d1 - d0); NEAREST takes the texel it
 * falls in, LINEAR weighs the four around it as §8.14.2 with
 * CLAMP_TO_EDGE), the per-fragment operations that apply to a blit
 * (pixel ownership and scissor only), and unorm conversion (eq. 2.4).
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "drv_gl_test.h"
#include "xt_test.h"

/* A framebuffer object with a w x h renderbuffer of `format` (samples 0:
 * single-sampled), bound for drawing and reading. */
static GLuint fbo(GLenum format, int w, int h, int samples)
{
	GLuint fb = 0, rb = 0;
	GL(glGenRenderbuffers)(1, &rb);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb);
	GL(glRenderbufferStorageMultisample)(GL_RENDERBUFFER, samples, format, w, h);
	GL(glGenFramebuffers)(1, &fb);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fb);
	GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	return fb;
}

/* Pixel (x, y) of the w x h source below: every pixel its own colour. */
static void source_rgba(int x, int y, uint8_t c[4])
{
	c[0] = (uint8_t)(40 * x + 10);
	c[1] = (uint8_t)(40 * y + 20);
	c[2] = (uint8_t)(7 * x + 11 * y);
	c[3] = 255;
}

/* A w x h RGBA8 source, each pixel set by a scissored clear. */
static GLuint source_fbo(int w, int h)
{
	GLuint fb = fbo(GL_RGBA8, w, h, 0);
	GL(glEnable)(GL_SCISSOR_TEST);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint8_t c[4];
			source_rgba(x, y, c);
			GL(glScissor)(x, y, 1, 1);
			GL(glClearColor)(c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, 1.0f);
			GL(glClear)(GL_COLOR_BUFFER_BIT);
		}
	GL(glDisable)(GL_SCISSOR_TEST);
	return fb;
}

/* §18.3.1: the source coordinate of destination pixel x's centre. */
static double mapped(int x, int s0, int s1, int d0, int d1)
{
	return s0 + (x + 0.5 - d0) * (double)(s1 - s0) / (double)(d1 - d0);
}

static void test_nearest_blit_scales_and_mirrors(void)
{
	struct drv_context *ctx = dgl_context(3, 3, true);
	static uint8_t got[12 * 10 * 4];
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	GLuint src = source_fbo(4, 5);
	GLuint dst = fbo(GL_RGBA8, 12, 10, 0);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, src);
	GL(glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, dst);
	/* 3x in x mirrored, 2x in y; the source rectangle (0, 0) .. (4, 5) */
	GL(glBlitFramebuffer)(0, 0, 4, 5, 12, 0, 0, 10, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, dst);
	GL(glReadPixels)(0, 0, 12, 10, GL_RGBA, GL_UNSIGNED_BYTE, got);
	for (int y = 0; y < 10; y++)
		for (int x = 0; x < 12; x++) {
			uint8_t want[4];
			source_rgba((int)floor(mapped(x, 0, 4, 12, 0)), (int)floor(mapped(y, 0, 5, 0, 10)), want);
			bad += memcmp(got + (y * 12 + x) * 4, want, 4) != 0;
		}
	CHECK_EQ_INT(bad, 0);
	dgl_done_clean(ctx);
}

static void test_blit_obeys_scissor_not_masks_or_blending(void)
{
	struct drv_context *ctx = dgl_context(3, 3, true);
	static uint8_t got[8 * 8 * 4];
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	GLuint src = source_fbo(8, 8);
	GLuint dst = fbo(GL_RGBA8, 8, 8, 0);
	GL(glClearColor)(0, 0, 0, 0);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glEnable)(GL_BLEND);
	GL(glBlendFunc)(GL_ONE, GL_ONE);
	GL(glColorMask)(GL_FALSE, GL_TRUE, GL_FALSE, GL_TRUE);
	GL(glEnable)(GL_SCISSOR_TEST);
	GL(glScissor)(2, 3, 4, 2);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, src);
	GL(glBlitFramebuffer)(0, 0, 8, 8, 0, 0, 8, 8, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	GL(glDisable)(GL_SCISSOR_TEST);
	GL(glColorMask)(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, dst);
	GL(glReadPixels)(0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, got);
	for (int y = 0; y < 8; y++)
		for (int x = 0; x < 8; x++) {
			uint8_t want[4] = { 0, 0, 0, 0 };
			if (x >= 2 && x < 6 && y >= 3 && y < 5)
				source_rgba(x, y, want);
			bad += memcmp(got + (y * 8 + x) * 4, want, 4) != 0;
		}
	CHECK_EQ_INT(bad, 0);
	(void)dst;
	dgl_done_clean(ctx);
}

static void test_linear_blit_weighs_with_clamp_to_edge(void)
{
	struct drv_context *ctx = dgl_context(3, 3, true);
	uint8_t got[4 * 4];

	CHECK(ctx);
	if (!ctx)
		return;
	/* 2 x 1: red 0 and 255 */
	GLuint src = fbo(GL_RGBA8, 2, 1, 0);
	GL(glClearColor)(0, 0, 0, 1);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glEnable)(GL_SCISSOR_TEST);
	GL(glScissor)(1, 0, 1, 1);
	GL(glClearColor)(1, 0, 0, 1);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GL(glDisable)(GL_SCISSOR_TEST);
	GLuint dst = fbo(GL_RGBA8, 4, 1, 0);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, src);
	GL(glBlitFramebuffer)(0, 0, 2, 1, 0, 0, 4, 1, GL_COLOR_BUFFER_BIT, GL_LINEAR);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, dst);
	GL(glReadPixels)(0, 0, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
	for (int x = 0; x < 4; x++) {
		/* §8.14.2: u - 1/2 between texels i and i + 1, clamped */
		double u = mapped(x, 0, 2, 0, 4) - 0.5, a = u - floor(u);
		int i0 = (int)floor(u), i1 = i0 + 1;
		double t0 = i0 < 0 ? 0 : i0 > 1 ? 255 : i0 * 255.0, t1 = i1 < 0 ? 0 : i1 > 1 ? 255 : i1 * 255.0;
		double want = (1 - a) * t0 + a * t1;
		CHECK_EQ_INT(got[4 * x], (int)floor(want + 0.5));
	}
	dgl_done_clean(ctx);
}

/* §18.3.1: every draw buffer gets the read buffer's pixels, converted to
 * its format as fragment colours are (clamped to [0, 1] for a normalized
 * target, eq. 2.4); a source without G, B, A reads 0, 0, 1. */
static void test_blit_converts_into_every_draw_buffer(void)
{
	struct drv_context *ctx = dgl_context(3, 3, true);
	static const GLfloat v[4] = { 1.5f, -2.0f, 0.25f, 3.0f };
	GLuint rb[2] = { 0, 0 }, dst = 0;
	uint8_t b[4];
	float f[4];

	CHECK(ctx);
	if (!ctx)
		return;
	GLuint src = fbo(GL_RGBA32F, 4, 4, 0);
	GL(glClearBufferfv)(GL_COLOR, 0, v);
	GL(glGenFramebuffers)(1, &dst);
	GL(glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, dst);
	GL(glGenRenderbuffers)(2, rb);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb[0]);
	GL(glRenderbufferStorage)(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb[1]);
	GL(glRenderbufferStorage)(GL_RENDERBUFFER, GL_RGBA16F, 4, 4);
	GL(glFramebufferRenderbuffer)(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
	GL(glFramebufferRenderbuffer)(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT2, GL_RENDERBUFFER, rb[1]);
	const GLenum bufs[3] = { GL_COLOR_ATTACHMENT0, GL_NONE, GL_COLOR_ATTACHMENT2 };
	GL(glDrawBuffers)(3, bufs);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, src);
	GL(glBlitFramebuffer)(0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, dst);
	GL(glReadBuffer)(GL_COLOR_ATTACHMENT0);
	GL(glReadPixels)(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, b);
	CHECK(b[0] == 255 && b[1] == 0 && b[2] == 64 && b[3] == 255);
	GL(glReadBuffer)(GL_COLOR_ATTACHMENT2);
	GL(glReadPixels)(0, 0, 1, 1, GL_RGBA, GL_FLOAT, f);
	CHECK(f[0] == 1.5f && f[1] == -2.0f && f[2] == 0.25f && f[3] == 3.0f);
	/* R8 into RGBA8: (r, 0, 0, 1) */
	GLuint r8 = fbo(GL_R8, 2, 2, 0);
	GL(glClearColor)(0.5f, 0.75f, 0.75f, 0.25f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GLuint rgba = fbo(GL_RGBA8, 2, 2, 0);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, r8);
	GL(glBlitFramebuffer)(0, 0, 2, 2, 0, 0, 2, 2, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, rgba);
	GL(glReadPixels)(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, b);
	CHECK(b[0] == 128 && b[1] == 0 && b[2] == 0 && b[3] == 255);
	dgl_done_clean(ctx);
}

/* A blit is no draw for transform feedback or queries: nothing captured
 * or counted while it runs. */
static void test_blit_is_not_counted_by_tf_or_queries(void)
{
	static const char vs[] = "#version 330 core\nout vec4 v;\nvoid main() { v = vec4(gl_VertexID); "
				 "gl_Position = vec4(0.0); }\n";
	static const char *const varyings[] = { "v" };
	struct drv_context *ctx = dgl_context(3, 3, true);
	GLuint q[2], buf = 0, vao = 0, n[2] = { 99, 99 };

	CHECK(ctx);
	if (!ctx)
		return;
	GLuint src = source_fbo(4, 4);
	GLuint dst = fbo(GL_RGBA8, 4, 4, 0);
	GLuint prog = dgl_program(vs, NULL, varyings, 1);
	CHECK(prog != 0);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenBuffers)(1, &buf);
	GL(glBindBuffer)(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
	GL(glBufferData)(GL_TRANSFORM_FEEDBACK_BUFFER, 256, NULL, GL_STATIC_READ);
	GL(glBindBufferBase)(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf);
	GL(glUseProgram)(prog);
	GL(glGenQueries)(2, q);
	GL(glBeginQuery)(GL_PRIMITIVES_GENERATED, q[0]);
	GL(glBeginQuery)(GL_SAMPLES_PASSED, q[1]);
	GL(glBeginTransformFeedback)(GL_POINTS);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, src);
	GL(glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, dst);
	GL(glBlitFramebuffer)(0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	GL(glEndTransformFeedback)();
	GL(glEndQuery)(GL_SAMPLES_PASSED);
	GL(glEndQuery)(GL_PRIMITIVES_GENERATED);
	GL(glGetQueryObjectuiv)(q[0], GL_QUERY_RESULT, &n[0]);
	GL(glGetQueryObjectuiv)(q[1], GL_QUERY_RESULT, &n[1]);
	CHECK_EQ_INT(n[0], 0);
	CHECK_EQ_INT(n[1], 0);
	/* and the blit happened */
	uint8_t got[4], want[4];
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, dst);
	GL(glReadPixels)(3, 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
	source_rgba(3, 2, want);
	CHECK(!memcmp(got, want, 4));
	dgl_done_clean(ctx);
}

static void test_blit_errors_and_depth_reported(void)
{
	struct drv_context *ctx = dgl_context(3, 3, true);

	CHECK(ctx);
	if (!ctx)
		return;
	GLuint src = fbo(GL_RGBA8, 4, 4, 0);
	GLuint dst = fbo(GL_RGBA32UI, 4, 4, 0);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, src);
	/* normalized into integer: GL_INVALID_OPERATION */
	GL(glBlitFramebuffer)(0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glBlitFramebuffer)(0, 0, 4, 4, 0, 0, 4, 4, 0x10, GL_NEAREST);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);
	GL(glBlitFramebuffer)(0, 0, 4, 4, 0, 0, 4, 4, GL_DEPTH_BUFFER_BIT, GL_LINEAR);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	/* integer into integer, LINEAR: GL_INVALID_OPERATION */
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, dst);
	GL(glBlitFramebuffer)(0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_LINEAR);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	CHECK(!drv_context_take_unsupported(ctx));
	/* depth: not modelled, reported by name */
	GLuint d[2], rb[2];
	for (int i = 0; i < 2; i++) {
		d[i] = fbo(GL_RGBA8, 4, 4, 0);
		GL(glGenRenderbuffers)(1, &rb[i]);
		GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb[i]);
		GL(glRenderbufferStorage)(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, 4, 4);
		GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[i]);
	}
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, d[0]);
	GL(glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, d[1]);
	GL(glBlitFramebuffer)(0, 0, 4, 4, 0, 0, 4, 4, GL_DEPTH_BUFFER_BIT, GL_NEAREST);
	const char *why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "depth"));
	dgl_done_clean(ctx);
}

/* GL 4.6 §18.3.1: a multisampled source is resolved; the sim averages the
 * samples.  A rectangle over x < 0.5 of a 1 x 1 4x target covers the two
 * samples left of the centre (radeonsi's positions (-2, -6) (6, -2)
 * (-6, 2) (2, 6) sixteenths): half red. */
static void test_resolve_averages_samples(void)
{
	static const char vs[] = "#version 330 core\nvoid main() {\n"
				 "	vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n"
				 "	gl_Position = vec4(c.x * 1.0 - 1.0, c.y * 4.0 - 2.0, 0.0, 1.0);\n}\n";
	static const char fs[] = "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(1.0, 0.0, 0.0, 1.0); }\n";
	struct drv_context *ctx = dgl_context(3, 3, true);
	uint8_t got[4];
	GLint ok = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	GLuint ms = fbo(GL_RGBA8, 1, 1, 4);
	GL(glClearColor)(0, 0, 0, 1);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	GLuint p = GL(glCreateProgram)(), vao = 0;
	GL(glAttachShader)(p, dgl_shader(GL_VERTEX_SHADER, vs));
	GL(glAttachShader)(p, dgl_shader(GL_FRAGMENT_SHADER, fs));
	GL(glLinkProgram)(p);
	GL(glGetProgramiv)(p, GL_LINK_STATUS, &ok);
	CHECK(ok);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glUseProgram)(p);
	GL(glViewport)(0, 0, 1, 1);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	GLuint one = fbo(GL_RGBA8, 1, 1, 0);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, ms);
	GL(glBlitFramebuffer)(0, 0, 1, 1, 0, 0, 1, 1, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, one);
	GL(glReadPixels)(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
	/* (1 + 1 + 0 + 0) / 4 * 255 = 127.5: eq. 2.4 rounds to nearest (even) */
	CHECK_EQ_INT(got[0], 128);
	CHECK_EQ_INT(got[1], 0);
	CHECK_EQ_INT(got[3], 255);
	/* a scaled resolve: GL_INVALID_OPERATION */
	GL(glBlitFramebuffer)(0, 0, 1, 1, 0, 0, 2, 2, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);   /* the read framebuffer is single-sampled now */
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, ms);
	GL(glBlitFramebuffer)(0, 0, 1, 1, 0, 0, 2, 2, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	dgl_done_clean(ctx);
}

/* §18.3.1: destination pixels whose source lies outside the read
 * framebuffer are undefined; the driver notes exactly those (surface
 * events), and a resolve's whole rectangle as implementation-dependent. */
static void test_loose_rectangles_are_noted(void)
{
	struct drv_context *ctx = dgl_context(3, 3, true);
	struct drv_surface_events ev;

	CHECK(ctx);
	if (!ctx)
		return;
	GLuint src = source_fbo(4, 4);
	GLuint dst = fbo(GL_RGBA8, 8, 8, 0);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, src);
	drv_context_take_surface_events(ctx, &ev);
	/* source x -2 .. 6 onto 0 .. 8 (1:1), y 0 .. 4 onto 0 .. 4: columns
	 * 0, 1 and 6, 7 read outside */
	GL(glBlitFramebuffer)(-2, 0, 6, 4, 0, 0, 8, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	drv_context_take_surface_events(ctx, &ev);
	CHECK_EQ_INT(ev.nloose, 2);
	CHECK(ev.ncopies == 1 && ev.copies[0].mx == 1 && ev.copies[0].ox == 2 && ev.copies[0].oy == 0);
	int cols = 0;
	for (unsigned i = 0; i < ev.nloose && i < 2; i++) {
		const struct drv_loose *l = &ev.loose[i];
		CHECK(l->undefined && l->y0 == 0 && l->y1 == 4);
		cols += l->x1 - l->x0;
		CHECK((l->x0 == 0 && l->x1 == 2) || (l->x0 == 6 && l->x1 == 8));
	}
	CHECK_EQ_INT(cols, 4);
	/* inside: nothing noted */
	GL(glBlitFramebuffer)(0, 0, 4, 4, 0, 0, 8, 8, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	drv_context_take_surface_events(ctx, &ev);
	CHECK_EQ_INT(ev.nloose, 0);
	CHECK_EQ_INT(ev.ncopies, 0);   /* scaled */
	/* unscaled blits are noted as moves (x -> mx x + ox; the 1:1 one
	 * above too): a mirrored one, which §18.3.1 maps x -> 6 - x */
	GL(glBlitFramebuffer)(0, 0, 4, 4, 6, 1, 2, 5, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	drv_context_take_surface_events(ctx, &ev);
	CHECK_EQ_INT(ev.ncopies, 1);
	CHECK(ev.copies[0].mx == -1 && ev.copies[0].ox == 6 && ev.copies[0].my == 1 && ev.copies[0].oy == 1 &&
	      ev.copies[0].x0 == 2 && ev.copies[0].x1 == 6 && ev.copies[0].y0 == 1 && ev.copies[0].y1 == 5 &&
	      ev.copies[0].src_va != ev.copies[0].dst_va && ev.copies[0].src_va && ev.copies[0].dst_va);
	/* a resolve: implementation-dependent */
	GLuint ms = fbo(GL_RGBA8, 4, 4, 4);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, ms);
	GL(glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, dst);
	GL(glBlitFramebuffer)(0, 0, 3, 2, 1, 1, 4, 3, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	drv_context_take_surface_events(ctx, &ev);
	CHECK_EQ_INT(ev.nloose, 1);
	CHECK_EQ_INT(ev.ncopies, 0);   /* a resolve is no move of pixels */
	CHECK(!ev.loose[0].undefined && ev.loose[0].x0 == 1 && ev.loose[0].y0 == 1 && ev.loose[0].x1 == 4 &&
	      ev.loose[0].y1 == 3);
	dgl_done_clean(ctx);
}

/* glCopyTexSubImage2D / glCopyTexImage2D (§8.6) and glClearTexImage /
 * glClearTexSubImage (§8.21), read back through a framebuffer. */
static void test_copy_and_clear_texture(void)
{
	struct drv_context *ctx = dgl_context(4, 4, true);
	static const uint8_t fill[4] = { 10, 20, 30, 40 }, part[4] = { 200, 100, 50, 25 };
	uint8_t got[4 * 4 * 4];
	GLuint tex = 0, tfb = 0;
	int bad = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	GL(glClearTexImage)(tex, 0, GL_RGBA, GL_UNSIGNED_BYTE, fill);
	GL(glClearTexSubImage)(tex, 0, 2, 2, 0, 2, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, part);
	GLuint src = source_fbo(4, 4);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, src);
	/* source (1, 0) .. (3, 2) to (0, 0) of the texture */
	GL(glCopyTexSubImage2D)(GL_TEXTURE_2D, 0, 0, 0, 1, 0, 2, 2);
	GL(glGenFramebuffers)(1, &tfb);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, tfb);
	GL(glFramebufferTexture2D)(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
	GL(glReadPixels)(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, got);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 4; x++) {
			uint8_t want[4];
			if (x < 2 && y < 2)
				source_rgba(x + 1, y, want);
			else
				memcpy(want, x >= 2 && y >= 2 ? part : fill, 4);
			bad += memcmp(got + (y * 4 + x) * 4, want, 4) != 0;
		}
	CHECK_EQ_INT(bad, 0);
	/* out of the level: GL_INVALID_OPERATION / GL_INVALID_VALUE */
	GL(glClearTexSubImage)(tex, 0, 3, 3, 0, 2, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, part);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, src);
	GL(glCopyTexSubImage2D)(GL_TEXTURE_2D, 0, 3, 0, 0, 0, 2, 2);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);
	/* glCopyTexImage2D: a new 2 x 3 level from (2, 1) */
	GL(glCopyTexImage2D)(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 1, 2, 3, 0);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, tfb);
	GL(glReadPixels)(0, 0, 2, 3, GL_RGBA, GL_UNSIGNED_BYTE, got);
	bad = 0;
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 2; x++) {
			uint8_t want[4];
			source_rgba(x + 2, y + 1, want);
			bad += memcmp(got + (y * 2 + x) * 4, want, 4) != 0;
		}
	CHECK_EQ_INT(bad, 0);
	dgl_done_clean(ctx);
}

int main(void)
{
	struct xt_err err = { 0 };
	if (dgl_screen_create(&err) != XT_OK) {
		fprintf(stderr, "dgl_screen_create: %s\n", xt_err_msg(&err));
		return 1;
	}
	XT_RUN(test_nearest_blit_scales_and_mirrors);
	XT_RUN(test_blit_obeys_scissor_not_masks_or_blending);
	XT_RUN(test_linear_blit_weighs_with_clamp_to_edge);
	XT_RUN(test_blit_converts_into_every_draw_buffer);
	XT_RUN(test_blit_is_not_counted_by_tf_or_queries);
	XT_RUN(test_blit_errors_and_depth_reported);
	XT_RUN(test_resolve_averages_samples);
	XT_RUN(test_copy_and_clear_texture);
	XT_RUN(test_loose_rectangles_are_noted);
	dgl_screen_destroy();
	XT_TEST_MAIN_END();
}
