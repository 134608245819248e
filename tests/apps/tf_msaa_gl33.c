/*
 * tf_msaa_gl33.c - tf-msaa-gl33: desktop OpenGL 3.3 core, surfaceless,
 * a vertex shader that reads every sample of multisample textures
 * (GL 4.6 §8.8, §11.1.3.5: texelFetch of a sampler2DMS / usampler2DMS)
 * into a TF buffer.
 *
 * Two 3x2 multisample textures of SAMPLES samples (glTexImage2DMultisample:
 * RGBA8; glTexStorage2DMultisample: R32UI) are rendered into as the colour
 * attachments of a framebuffer object with GL_MULTISAMPLE on, a 1x1
 * viewport on texel (0, 0): four
 * rectangles, each drawn over the last, cover the pixel from its left
 * edge to x = 31/32, 23/32, 15/32 and 7/32, in four colours.  A sample ends up with
 * the colour of the narrowest rectangle that covers its position, so
 * samples at different x (the 4x patterns of llvmpipe and radeonsi have
 * x = 3/8, 7/8, 1/8, 5/8) hold different colours.  The expectation comes
 * from the positions glGetMultisamplefv(GL_SAMPLE_POSITION) reports, as
 * piglit's arb_texture_multisample-sample-position does (positions are
 * implementation-dependent, GL 4.6 §14.3.1); a position on a rectangle's
 * edge, where the coverage rule decides, is refused (setup error).
 *
 * Then SAMPLES points are drawn with transform feedback; point i fetches
 * sample i (gl_VertexID: a sample index the shader computes) of texel
 * (0, 0) of both textures, and textureSize of one of them.  A driver that
 * ignores the sample index reads one colour for every point, and the
 * check fails.
 *
 * With --no-position-query the program does not ask for the positions
 * (a trace without glGetMultisamplefv) and checks only that every sample
 * holds one rectangle's colour and code.
 *
 * Usage: tf-msaa-gl33 [--perturb] [--dump-readback FILE] [--no-position-query]
 *                     [SAMPLES]
 * (SAMPLES 4 by default; 2 and 8 too, as far as the GL has them)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_check.h"
#include "app_egl.h"
#include "app_gl.h"

#define PROG "tf-msaa-gl33"
#define MAX_SAMPLES 8
#define OUT_DW 7            /* a vec4, a uint and an ivec2 per point */
#define WIDTH 3             /* the textures' size; the draws cover texel (0, 0) */
#define HEIGHT 2

static const char tf_vs[] =
	"#version 330 core\n"
	"uniform sampler2DMS t_color;\n"
	"uniform usampler2DMS t_uint;\n"
	"out vec4 v_color;\n"
	"flat out uint v_uint;\n"
	"flat out ivec2 v_size;\n"
	"void main() {\n"
	"   v_color = texelFetch(t_color, ivec2(0, 0), gl_VertexID);\n"
	"   v_uint = texelFetch(t_uint, ivec2(0, 0), gl_VertexID).r;\n"
	"   v_size = gl_VertexID % 2 == 0 ? textureSize(t_color) : textureSize(t_uint);\n"
	"   gl_Position = vec4(0.0);\n"
	"}\n";
static const char *const varyings[] = { "v_color", "v_uint", "v_size" };

static const char rect_vs[] =
	"#version 330 core\n"
	"uniform float right;\n"
	"void main() {\n"
	"   vec2 p = vec2(gl_VertexID % 2 == 0 ? -1.0 : right, gl_VertexID / 2 == 0 ? -1.0 : 1.0);\n"
	"   gl_Position = vec4(p, 0.0, 1.0);\n"
	"}\n";
static const char rect_fs[] =
	"#version 330 core\n"
	"uniform vec4 color;\n"
	"uniform uint code;\n"
	"layout(location = 0) out vec4 o_color;\n"
	"layout(location = 1) out uint o_uint;\n"
	"void main() {\n"
	"   o_color = color;\n"
	"   o_uint = code;\n"
	"}\n";

/* Rectangle k covers x < (4 - k) / 4 - 1/32 of the pixel (edges between
 * the 1/16 grid hardware positions lie on), in colour k (exact in UNORM8)
 * and code k. */
static const float colors[4][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 1, 0 } };
static const uint32_t codes[4] = { 10, 20, 30, 40 };

static float rect_right(int k)
{
	return (float)(4 - k) / 4.0f - 1.0f / 32.0f;
}

/* The rectangle whose colour a sample at x ends with: the narrowest that
 * covers it; -1 for none, or on an edge. */
static int last_cover(float x)
{
	int last = -1;
	for (int k = 0; k < 4; k++) {
		if (x == rect_right(k))
			return -1;
		if (x < rect_right(k))
			last = k;
	}
	return last;
}

static GLuint ms_texture(GLenum unit, int samples, GLenum format, bool storage)
{
	GLuint t;
	glGenTextures(1, &t);
	glActiveTexture(unit);
	glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, t);
	if (storage)
		glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, format, WIDTH, HEIGHT, GL_TRUE);
	else
		glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, format, WIDTH, HEIGHT, GL_TRUE);
	return t;
}

/* What sample s holds when the positions are not known: the rectangle
 * whose colour and code it has, -1 when none. */
static int rect_of(const uint32_t *got)
{
	for (int k = 0; k < 4; k++) {
		bool same = got[4] == codes[k];
		for (int j = 0; j < 4; j++)
			same &= got[j] == app_f2u(colors[k][j]);
		if (same)
			return k;
	}
	return -1;
}

static int run(const struct app_opts *opts, struct app_check *c, int samples, bool query)
{
	static const GLenum bufs[2] = { GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1 };
	GLuint tf_prog, rect_prog, tf_buf, vao, fbo, fbo1, rb, t_color, t_uint;
	uint32_t want[MAX_SAMPLES * OUT_DW], got[MAX_SAMPLES * OUT_DW];
	GLint max_samples = 0, fb_samples = 0;

	glGetIntegerv(GL_MAX_COLOR_TEXTURE_SAMPLES, &max_samples);
	if (max_samples < samples) {
		fprintf(stderr, "%s: the GL has no %d-sample textures (GL_MAX_COLOR_TEXTURE_SAMPLES %d)\n", PROG,
			samples, max_samples);
		return APP_EXIT_SKIP;
	}
	tf_prog = app_gl_program(tf_vs, NULL, NULL, varyings, 3, GL_INTERLEAVED_ATTRIBS);
	rect_prog = app_gl_program(rect_vs, NULL, rect_fs, NULL, 0, GL_INTERLEAVED_ATTRIBS);
	if (!tf_prog || !rect_prog)
		return APP_EXIT_SETUP;
	t_color = ms_texture(GL_TEXTURE0, samples, GL_RGBA8, false);
	t_uint = ms_texture(GL_TEXTURE1, samples, GL_R32UI, true);
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, t_color, 0);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D_MULTISAMPLE, t_uint, 0);
	glDrawBuffers(2, bufs);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE || app_gl_failed("texture setup")) {
		fprintf(stderr, "%s: the multisample framebuffer is incomplete\n", PROG);
		return APP_EXIT_SETUP;
	}
	glGetIntegerv(GL_SAMPLES, &fb_samples);
	if (fb_samples < samples || fb_samples > MAX_SAMPLES) {
		fprintf(stderr, "%s: GL_SAMPLES %d for %d samples requested\n", PROG, fb_samples, samples);
		return APP_EXIT_SETUP;
	}
	/* the expectation, from the positions the GL reports */
	for (int s = 0; s < samples && query; s++) {
		float pos[2] = { -1, -1 };
		glGetMultisamplefv(GL_SAMPLE_POSITION, (GLuint)s, pos);
		int k = last_cover(pos[0]);
		if (k < 0) {
			fprintf(stderr, "%s: sample %d at x = %g: on a rectangle's edge or outside\n", PROG, s,
				pos[0]);
			return APP_EXIT_SETUP;
		}
		for (int j = 0; j < 4; j++)
			want[OUT_DW * s + j] = app_f2u(colors[k][j]);
		want[OUT_DW * s + 4] = codes[k];
		want[OUT_DW * s + 5] = WIDTH;
		want[OUT_DW * s + 6] = HEIGHT;
	}
	if (app_gl_failed("glGetMultisamplefv"))
		return APP_EXIT_SETUP;

	/* the four rectangles, the widest first */
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glViewport(0, 0, 1, 1);
	glEnable(GL_MULTISAMPLE);
	glUseProgram(rect_prog);
	for (int k = 0; k < 4; k++) {
		glUniform1f(glGetUniformLocation(rect_prog, "right"), -1.0f + 2.0f * rect_right(k));
		glUniform4fv(glGetUniformLocation(rect_prog, "color"), 1, colors[k]);
		glUniform1ui(glGetUniformLocation(rect_prog, "code"), codes[k]);
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	}
	/* a single-sampled framebuffer for the TF pass (the context has no
	 * window-system one; the textures are not attached to it) */
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
	glGenFramebuffers(1, &fbo1);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo1);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	if (app_gl_failed("drawing into the multisample textures"))
		return APP_EXIT_SETUP;

	/* every sample, read by the vertex shader */
	glGenBuffers(1, &tf_buf);
	if (!app_gl_buffer_sentinel(tf_buf, (GLsizeiptr)(samples * OUT_DW * 4)))
		return APP_EXIT_SETUP;
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf_buf);
	glUseProgram(tf_prog);
	glUniform1i(glGetUniformLocation(tf_prog, "t_color"), 0);
	glUniform1i(glGetUniformLocation(tf_prog, "t_uint"), 1);
	glEnable(GL_RASTERIZER_DISCARD);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, samples);
	glEndTransformFeedback();
	glDisable(GL_RASTERIZER_DISCARD);
	if (app_gl_failed("transform feedback pass"))
		return APP_EXIT_SETUP;
	if (opts->perturb)
		want[0] ^= 1;
	if (!app_gl_read_mapped(c, tf_buf, 0, (GLsizeiptr)(samples * OUT_DW * 4), got))
		return APP_EXIT_SETUP;
	for (int s = 0; s < samples && !query; s++) {
		int k = rect_of(&got[OUT_DW * s]);
		for (int j = 0; j < 4; j++)
			want[OUT_DW * s + j] = app_f2u(colors[k < 0 ? 0 : k][j]);
		want[OUT_DW * s + 4] = k < 0 ? 0 : codes[k];   /* none: a mismatch */
		want[OUT_DW * s + 5] = WIDTH;
		want[OUT_DW * s + 6] = HEIGHT;
		if (opts->perturb && !s)
			want[0] ^= 1;
	}
	app_check_words(c, "TF buffer (texelFetch of each sample)", got, want, (size_t)(samples * OUT_DW), OUT_DW);
	return APP_EXIT_PASS;
}

int main(int argc, char **argv)
{
	struct app_opts opts;
	struct app_check check;
	struct app_egl egl;
	int samples = 4;
	bool query = true;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--no-position-query")) {
			query = false;
			memmove(&argv[i], &argv[i + 1], (size_t)(argc - i) * sizeof *argv);
			argc--;
			break;
		}
	/* the sample count, a trailing operand (not --dump-readback's FILE) */
	if (argc > 1 && argv[argc - 1][0] >= '0' && argv[argc - 1][0] <= '9' &&
	    (argc < 3 || strcmp(argv[argc - 2], "--dump-readback"))) {
		samples = atoi(argv[argc - 1]);
		argc--;
		if (samples != 2 && samples != 4 && samples != 8) {
			fprintf(stderr, "%s: SAMPLES must be 2, 4 or 8\n", PROG);
			return APP_EXIT_SETUP;
		}
	}
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
	rc = run(&opts, &check, samples, query);
	int check_rc = app_check_fini(&check);
	app_egl_fini(&egl);
	return rc != APP_EXIT_PASS ? rc : check_rc;
}
