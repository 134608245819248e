/*
 * tf_blit_gl33.c - tf-blit-gl33: desktop OpenGL 3.3 core, surfaceless:
 * transform feedback output drawn into a framebuffer object, then moved
 * by the pixel-transfer paths that compositors use, each result read back
 * with glReadPixels:
 *
 *   A   32 x 32 RGBA8: a TF pass captures three triangles (position,
 *       colour; two flat, one interpolated), a second pass draws them
 *   B   glBlitFramebuffer A -> 64 x 64, scaled 2x, NEAREST; then, with
 *       blending, a colour mask and a program bound (which a blit
 *       ignores, GL 4.6 §18.3.1) and the scissor test on (which it
 *       obeys), A mirrored in x, 1:1, into a corner of B
 *   C   glBlitFramebuffer A -> 64 x 64 mirrored in x and y, 2x, LINEAR
 *   F   glBlitFramebuffer A -> 32 x 32 RGBA32F (format conversion)
 *   E   glBlitFramebuffer of A's (-16, 0) .. (16, 32) -> 32 x 32: the left
 *       half's source lies outside A, which GL leaves undefined (Mesa
 *       does not write it); the right half is A's left half
 *   T   glCopyTexSubImage2D of A into a 32 x 32 texture (whole, and a
 *       16 x 16 part moved to another place), sampled 1:1 (NEAREST) by a
 *       draw into D
 *
 * NEAREST blits at 2x and 1:1 and the NEAREST copy are exact on every
 * conforming implementation (no pixel centre maps onto a texel edge):
 * they are checked here pixel by pixel against A.  LINEAR filtering may
 * round differently (GL leaves its precision to the implementation), so
 * C is checked in its flat regions only; `xfbtrace replay --check`
 * compares every image under its image tolerance.
 *
 * Usage: tf-blit-gl33 [--perturb] [--dump-readback FILE]
 */
#include <stdio.h>
#include <string.h>

#include "app_check.h"
#include "app_egl.h"
#include "app_gl.h"

#define PROG "tf-blit-gl33"
#define S 32            /* A, F, T, D */
#define L 64            /* B, C */

static const char tf_vs[] =
	"#version 330 core\n"
	"out vec4 v_pos;\n"
	"out vec4 v_color;\n"
	"const vec2 p[9] = vec2[9](vec2(-0.9, -0.9), vec2(0.1, -0.9), vec2(-0.9, 0.2),\n"
	"                          vec2(0.0, 0.0), vec2(0.9, -0.2), vec2(0.7, 0.9),\n"
	"                          vec2(-0.8, 0.3), vec2(0.4, 0.8), vec2(-0.7, 0.95));\n"
	"void main()\n"
	"{\n"
	"	int tri = gl_VertexID / 3, corner = gl_VertexID % 3;\n"
	"	v_pos = vec4(p[gl_VertexID], 0.0, 1.0);\n"
	"	v_color = tri == 0 ? vec4(1.0, 0.0, 0.0, 1.0) : tri == 1 ? vec4(0.0, 1.0, 0.0, 0.5) :\n"
	"		  vec4(corner == 0 ? 1.0 : 0.0, corner == 1 ? 1.0 : 0.0, corner == 2 ? 1.0 : 0.0, 1.0);\n"
	"	gl_Position = v_pos;\n"
	"}\n";

static const char draw_vs[] =
	"#version 330 core\n"
	"layout(location = 0) in vec4 a_pos;\n"
	"layout(location = 1) in vec4 a_color;\n"
	"out vec4 f_color;\n"
	"void main() { f_color = a_color; gl_Position = a_pos; }\n";

static const char draw_fs[] =
	"#version 330 core\n"
	"in vec4 f_color;\n"
	"out vec4 o_color;\n"
	"void main() { o_color = f_color; }\n";

/* A quad over the viewport, sampling the texture 1:1 at pixel centres. */
static const char tex_vs[] =
	"#version 330 core\n"
	"out vec2 uv;\n"
	"void main()\n"
	"{\n"
	"	vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n"
	"	uv = c;\n"
	"	gl_Position = vec4(c * 2.0 - 1.0, 0.0, 1.0);\n"
	"}\n";

static const char tex_fs[] =
	"#version 330 core\n"
	"uniform sampler2D tex;\n"
	"in vec2 uv;\n"
	"out vec4 o_color;\n"
	"void main() { o_color = texture(tex, uv); }\n";

static const char *const varyings[] = { "v_pos", "v_color" };

/* The clear colours, exact in 8 bits. */
static const float clear_a[4] = { 0.0f, 64.0f / 255.0f, 128.0f / 255.0f, 1.0f };
static const float clear_b[4] = { 32.0f / 255.0f, 32.0f / 255.0f, 32.0f / 255.0f, 1.0f };

/* A framebuffer object with one renderbuffer of `format`, cleared. */
static GLuint fbo_make(GLenum format, int w, int h, const float *clear)
{
	GLuint fbo, rb;
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, format, w, h);
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	glClearColor(clear[0], clear[1], clear[2], clear[3]);
	glClear(GL_COLOR_BUFFER_BIT);
	return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE ? fbo : 0;
}

static void read_rgba8(GLuint fbo, int w, int h, uint8_t *out)
{
	glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
	glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, out);
}

static uint32_t px(const uint8_t *img, int w, int x, int y)
{
	uint32_t v;
	memcpy(&v, img + ((size_t)y * (size_t)w + (size_t)x) * 4, 4);
	return v;
}

/* Compares image `got` (gw wide) with A through the mapping `at` from a
 * pixel of got to the pixel of A it must hold (false: not compared). */
static void check_image(struct app_check *c, const char *what, const uint8_t *got, int gw, int gh,
			const uint8_t *a, bool (*at)(int x, int y, int *ax, int *ay), bool perturb)
{
	static uint32_t g[L * L], w[L * L];
	size_t n = 0;
	for (int y = 0; y < gh; y++)
		for (int x = 0; x < gw; x++) {
			int ax, ay;
			if (!at(x, y, &ax, &ay))
				continue;
			g[n] = px(got, gw, x, y);
			w[n++] = ax < 0 ? px(got, gw, x, y) : px(a, S, ax, ay);
		}
	if (perturb)
		w[0] ^= 1;
	app_check_words(c, what, g, w, n, 1);
}

static bool at_b(int x, int y, int *ax, int *ay)
{
	/* the scissored 1:1 mirrored blit covers x 16..47 of rows 0..31,
	 * cut by the scissor (8, 4) .. (40, 24); the 2x blit elsewhere */
	if (x >= 16 && x < 48 && y < 32) {
		if (x < 8 || x >= 40 || y < 4 || y >= 24)
			*ax = x / 2, *ay = y / 2;
		else
			*ax = 47 - x, *ay = y;
		return true;
	}
	*ax = x / 2;
	*ay = y / 2;
	return true;
}

/* T: A, with A's (0, 0) .. (16, 16) copied again to (16, 16). */
static bool at_tex(int x, int y, int *ax, int *ay)
{
	bool moved = x >= 16 && y >= 16;
	*ax = moved ? x - 16 : x;
	*ay = moved ? y - 16 : y;
	return true;
}

/* E: its right half is A's left half */
static bool at_right(int x, int y, int *ax, int *ay)
{
	*ax = x - S / 2;
	*ay = y;
	return x >= S / 2;
}

/* C: mirrored in x and y at 2x; only where the four texels LINEAR reads
 * are equal (then every implementation gives that value). */
static const uint8_t *a_img;
static bool at_c(int x, int y, int *ax, int *ay)
{
	float sx = (float)(L - 1 - x) * 0.5f + 0.25f, sy = (float)(L - 1 - y) * 0.5f + 0.25f;
	int x0 = (int)(sx - 0.5f), y0 = (int)(sy - 0.5f);
	if (sx < 0.5f || sy < 0.5f || x0 + 1 >= S || y0 + 1 >= S)
		return false;
	uint32_t v = px(a_img, S, x0, y0);
	if (px(a_img, S, x0 + 1, y0) != v || px(a_img, S, x0, y0 + 1) != v || px(a_img, S, x0 + 1, y0 + 1) != v)
		return false;
	*ax = x0;
	*ay = y0;
	return true;
}

static int run(const struct app_opts *opts, struct app_check *c)
{
	static uint8_t a[S * S * 4], b[L * L * 4], cc[L * L * 4], d[S * S * 4], e[S * S * 4];
	static float f[S * S * 4];
	GLuint tf_prog, draw_prog, tex_prog, tf_buf, vao[2], tex;
	GLuint fa, fb, fc, fd, ff, fx, fe;

	tf_prog = app_gl_program(tf_vs, NULL, NULL, varyings, 2, GL_INTERLEAVED_ATTRIBS);
	draw_prog = app_gl_program(draw_vs, NULL, draw_fs, NULL, 0, GL_INTERLEAVED_ATTRIBS);
	tex_prog = app_gl_program(tex_vs, NULL, tex_fs, NULL, 0, GL_INTERLEAVED_ATTRIBS);
	fb = fbo_make(GL_RGBA8, L, L, clear_b);
	fc = fbo_make(GL_RGBA8, L, L, clear_b);
	fd = fbo_make(GL_RGBA8, S, S, clear_b);
	ff = fbo_make(GL_RGBA32F, S, S, clear_b);
	fx = fbo_make(GL_RGBA8, S, S, clear_b);
	fe = fbo_make(GL_RGBA8, S, S, clear_b);
	fa = fbo_make(GL_RGBA8, S, S, clear_a);
	if (!tf_prog || !draw_prog || !tex_prog || !fa || !fb || !fc || !fd || !ff || !fx || !fe)
		return APP_EXIT_SETUP;

	/* A: the triangles through TF, then drawn from the TF buffer */
	glGenBuffers(1, &tf_buf);
	glBindBuffer(GL_ARRAY_BUFFER, tf_buf);
	glBufferData(GL_ARRAY_BUFFER, 9 * 32, NULL, GL_STATIC_DRAW);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf_buf);
	glGenVertexArrays(2, vao);
	glBindVertexArray(vao[0]);
	glUseProgram(tf_prog);
	glEnable(GL_RASTERIZER_DISCARD);
	glBeginTransformFeedback(GL_TRIANGLES);
	glDrawArrays(GL_TRIANGLES, 0, 9);
	glEndTransformFeedback();
	glDisable(GL_RASTERIZER_DISCARD);
	glBindVertexArray(vao[1]);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 32, (const void *)0);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 32, (const void *)16);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glUseProgram(draw_prog);
	glViewport(0, 0, S, S);
	glDrawArrays(GL_TRIANGLES, 0, 9);
	read_rgba8(fa, S, S, a);
	a_img = a;

	/* B: 2x NEAREST, then a scissored 1:1 mirrored blit with state a
	 * blit ignores */
	glBindFramebuffer(GL_READ_FRAMEBUFFER, fa);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fb);
	glBlitFramebuffer(0, 0, S, S, 0, 0, L, L, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	glEnable(GL_BLEND);
	glBlendFunc(GL_ONE, GL_ONE);
	glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_TRUE);
	glEnable(GL_SCISSOR_TEST);
	glScissor(8, 4, 32, 20);
	/* a draw with that state first (into a scratch buffer), so that the
	 * driver holds it when the blit comes */
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fx);
	glDrawArrays(GL_TRIANGLES, 0, 9);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fb);
	glBlitFramebuffer(0, 0, S, S, 48, 0, 16, S, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	glDisable(GL_SCISSOR_TEST);
	glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	glDisable(GL_BLEND);
	/* C: mirrored both ways, 2x, LINEAR; F: into RGBA32F */
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fc);
	glBlitFramebuffer(0, 0, S, S, L, L, 0, 0, GL_COLOR_BUFFER_BIT, GL_LINEAR);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, ff);
	glBlitFramebuffer(0, 0, S, S, 0, 0, S, S, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fe);
	glBlitFramebuffer(-S / 2, 0, S / 2, S, 0, 0, S, S, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	/* T: copies of A, sampled into D */
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, S, S, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, S, S);
	glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 16, 16, 0, 0, 16, 16);
	glBindFramebuffer(GL_FRAMEBUFFER, fd);
	glUseProgram(tex_prog);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	if (app_gl_failed("blits and copies"))
		return APP_EXIT_SETUP;

	read_rgba8(fb, L, L, b);
	read_rgba8(fc, L, L, cc);
	read_rgba8(fd, S, S, d);
	read_rgba8(fe, S, S, e);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, ff);
	glReadPixels(0, 0, S, S, GL_RGBA, GL_FLOAT, f);
	if (app_gl_failed("glReadPixels"))
		return APP_EXIT_SETUP;
	check_image(c, "B: 2x NEAREST blit, scissored mirrored blit", b, L, L, a, at_b, opts->perturb);
	check_image(c, "C: mirrored 2x LINEAR blit (flat regions)", cc, L, L, a, at_c, false);
	check_image(c, "D: glCopyTexSubImage2D, sampled", d, S, S, a, at_tex, false);
	check_image(c, "E: blit partly from outside A (the defined half)", e, S, S, a, at_right, false);
	static float fw[S * S * 4];
	for (size_t i = 0; i < sizeof fw / sizeof fw[0]; i++)
		fw[i] = (float)a[i] / 255.0f;
	app_check_floats(c, "F: blit into RGBA32F", f, fw, S * S * 4, 4, 1e-6f);
	return APP_EXIT_PASS;
}

int main(int argc, char **argv)
{
	struct app_opts opts;
	struct app_check check;
	struct app_egl egl;

	if (!app_opts_parse(&opts, argc, argv, false, 1))
		return APP_EXIT_SETUP;
	int rc = app_egl_init(&egl, APP_API_GL_CORE, 3, 3, 0);
	if (rc != APP_EXIT_PASS)
		return rc;
	app_gl_print_info(PROG);
	if (!app_check_init(&check, PROG, opts.dump_path)) {
		app_egl_fini(&egl);
		return APP_EXIT_SETUP;
	}
	rc = run(&opts, &check);
	int check_rc = app_check_fini(&check);
	app_egl_fini(&egl);
	return rc != APP_EXIT_PASS ? rc : check_rc;
}
