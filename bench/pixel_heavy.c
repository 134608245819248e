/*
 * pixel_heavy.c - a pixel-heavy GL 3.3 core program for the sim-vs-llvmpipe
 * pixel throughput benchmark (bench/sim_pixels.py, docs/performance.md
 * "Sim pixels vs llvmpipe"): DRAWS (--draws, default 16) full-framebuffer
 * quads (a triangle strip of two triangles, from gl_VertexID) into a SIZE
 * x SIZE (--size, default 1024) RGBA8 framebuffer object, each fragment a
 * smoothly interpolated colour (four varyings) scaled by a per-draw
 * uniform, no depth test, no blending (the sim draws such pixels bit for
 * bit as llvmpipe does, so `replay --check` compares them exactly; with
 * blending they differ by rounding, which GL allows).  Every draw's
 * fragments are shaded: llvmpipe's time grows with the draws as the sim's
 * does (docs/performance.md), no opaque-overdraw shortcut.  The draws run
 * under a GL_SAMPLES_PASSED query, whose result (every pixel once per
 * draw: GL's rule for the shared edge, GL 4.6 §14.6.1) the program checks
 * and prints as "fragments N"; then one glReadPixels of the whole
 * framebuffer (a `pixels` observation).
 *
 * Exit codes as tests/apps (0 pass, 1 check failed, 2 setup, 77 skip).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_check.h"
#include "app_egl.h"
#include "app_gl.h"

#define PROG "pixel-heavy"

static const char vs[] =
	"#version 330 core\n"
	"out vec4 v_color;\n"
	"void main() {\n"
	"  vec2 p = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n"
	"  v_color = vec4(p.x, p.y, 1.0 - p.x, 0.5 + 0.25 * p.y);\n"
	"  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
	"}\n";

static const char fs[] =
	"#version 330 core\n"
	"uniform float u_scale;\n"
	"in vec4 v_color;\n"
	"out vec4 o_color;\n"
	"void main() {\n"
	"  o_color = v_color * u_scale;\n"
	"}\n";

static int run(int size, int draws)
{
	GLuint prog = app_gl_program(vs, NULL, fs, NULL, 0, GL_INTERLEAVED_ATTRIBS);
	GLuint vao, query;
	GLuint64 fragments = 0;
	unsigned char *pixels = malloc((size_t)size * size * 4);
	struct app_check c;

	if (!prog || !pixels || !app_check_init(&c, PROG, NULL)) {
		free(pixels);
		return APP_EXIT_SETUP;
	}
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	if (!app_gl_rgba8_framebuffer(PROG, size, size)) {
		free(pixels);
		return APP_EXIT_SETUP;
	}
	glViewport(0, 0, size, size);
	glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glUseProgram(prog);
	GLint scale = glGetUniformLocation(prog, "u_scale");
	glGenQueries(1, &query);
	glBeginQuery(GL_SAMPLES_PASSED, query);
	for (int i = 0; i < draws; i++) {
		glUniform1f(scale, 1.0f - (float)(i % 8) / 16.0f);
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	}
	glEndQuery(GL_SAMPLES_PASSED);
	glGetQueryObjectui64v(query, GL_QUERY_RESULT, &fragments);
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	glReadPixels(0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	if (app_gl_failed("drawing")) {
		free(pixels);
		return APP_EXIT_SETUP;
	}
	printf("fragments %llu\n", (unsigned long long)fragments);
	app_check_count(&c, "fragments (samples passed)", fragments,
			(uint64_t)draws * (uint64_t)size * (uint64_t)size);
	free(pixels);
	return app_check_fini(&c);
}

int main(int argc, char **argv)
{
	struct app_egl egl;
	int size = 1024, draws = 16, rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--size") && i + 1 < argc)
			size = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--draws") && i + 1 < argc)
			draws = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: %s [--size N] [--draws K]\n", PROG);
			return APP_EXIT_SETUP;
		}
	}
	if (size < 1 || size > 4096 || draws < 1) {
		fprintf(stderr, "%s: --size 1..4096 and --draws >= 1\n", PROG);
		return APP_EXIT_SETUP;
	}
	rc = app_egl_init(&egl, APP_API_GL_CORE, 3, 3, 0);
	if (rc != APP_EXIT_PASS)
		return rc;
	app_gl_print_info(PROG);
	rc = run(size, draws);
	app_egl_fini(&egl);
	return rc;
}
