/*
 * cap_tf_programs.c - TF draws whose program, or whose program's TF layout,
 * changes between draws in every way the capture's cache of TF layouts
 * (observe/obs_tf.c, struct obs_tf_cache) must notice: varyings given
 * without a relink (no change yet), a relink with other varyings, two
 * programs in turn, a deleted program whose name a new program may take,
 * a program binary loaded into a linked program, and a second context
 * (its own share group) whose program has the same name as the first
 * context's.
 *
 * Each TF draw writes 3 vertices into one buffer bound at index 0 and the
 * program reads it back through a READ mapping.  For each draw it prints
 * "tf VARYINGS" with the varyings (comma-separated) that the layout of that
 * draw must have, in draw order; other lines are information.  The vertex
 * shader's outputs for vertex i are a = (i, i+0.25, i+0.5, i+0.75),
 * b = (10+i, 20+i) and c = 100+i, so that a reader can check the data
 * against the layout.
 *
 * Usage: cap-tf-programs   (exit 0, 77 when GLES 3 is unavailable)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_test_egl.h"

#define VERTICES 3
#define MAX_VERTEX_BYTES 32   /* a + b + c, the largest layout here is 28 */

static const char *vs =
	"#version 300 es\n"
	"out vec4 a;\n"
	"out vec2 b;\n"
	"out float c;\n"
	"void main() {\n"
	"  float v = float(gl_VertexID);\n"
	"  a = vec4(v, v + 0.25, v + 0.5, v + 0.75);\n"
	"  b = vec2(10.0 + v, 20.0 + v);\n"
	"  c = 100.0 + v;\n"
	"  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n"
	"}\n";

static const char *const v_a[] = { "a" };
static const char *const v_bc[] = { "b", "c" };
static const char *const v_c[] = { "c" };
static const char *const v_ac[] = { "a", "c" };
static const char *const v_ca[] = { "c", "a" };

/* The TF buffer and the state every draw needs, in the current context. */
static void setup_context(void)
{
	GLuint vao, tfb;

	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(1, &tfb);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, VERTICES * MAX_VERTEX_BYTES, NULL,
		     GL_STREAM_READ);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
	glEnable(GL_RASTERIZER_DISCARD);
}

/* One TF draw with `prog`, whose layout must have `expect`; then the
 * buffer is read back through a mapping. */
static void tf_draw(GLuint prog, const char *expect)
{
	const void *p;

	glUseProgram(prog);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, VERTICES);
	glEndTransformFeedback();
	p = glMapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, VERTICES * MAX_VERTEX_BYTES,
			     GL_MAP_READ_BIT);
	if (!p) {
		fprintf(stderr, "cannot map the TF buffer: 0x%x\n", glGetError());
		exit(2);
	}
	glUnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
	if (glGetError() != GL_NO_ERROR) {
		fprintf(stderr, "GL error after the draw expecting %s\n", expect);
		exit(2);
	}
	printf("tf %s\n", expect);
}

static void relink(GLuint prog, const char *const *varyings, int count)
{
	GLint ok = 0;

	glTransformFeedbackVaryings(prog, count, varyings, GL_INTERLEAVED_ATTRIBS);
	glLinkProgram(prog);
	glGetProgramiv(prog, GL_LINK_STATUS, &ok);
	if (!ok) {
		fprintf(stderr, "relink failed\n");
		exit(2);
	}
}

struct binary {
	GLenum format;
	GLint len;
	void *data;   /* NULL: the driver offers no binary format */
};

/* The binary of a new program with varyings `a` (the program is deleted
 * again). */
static struct binary get_binary(void)
{
	struct binary b = { 0, 0, NULL };
	GLint formats = 0;
	GLuint src;

	glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
	if (formats <= 0)
		return b;
	src = cap_test_tf_program(vs, v_a, 1);
	glGetProgramiv(src, GL_PROGRAM_BINARY_LENGTH, &b.len);
	b.data = malloc(b.len > 0 ? (size_t)b.len : 1);
	if (!b.data)
		exit(2);
	glGetProgramBinary(src, b.len, &b.len, &b.format, b.data);
	glDeleteProgram(src);
	return b;
}

int main(void)
{
	struct cap_test_egl egl;
	EGLContext ctx1, ctx2;
	GLuint p, q, r, t;
	struct binary bin;
	int binary;

	cap_test_egl_init(&egl);
	ctx1 = cap_test_egl_context(&egl);
	ctx2 = cap_test_egl_context(&egl);
	cap_test_egl_make_current(&egl, ctx1);
	p = cap_test_tf_program(vs, v_a, 1);
	setup_context();
	tf_draw(p, "a");

	/* New varyings take effect at the next link only. */
	glTransformFeedbackVaryings(p, 2, v_bc, GL_INTERLEAVED_ATTRIBS);
	tf_draw(p, "a");
	glLinkProgram(p);
	tf_draw(p, "b,c");

	/* Two programs in turn. */
	q = cap_test_tf_program(vs, v_c, 1);
	tf_draw(q, "c");
	tf_draw(p, "b,c");
	tf_draw(q, "c");

	/* A deleted program's name may be given to the next one. */
	glUseProgram(p);
	glDeleteProgram(q);
	r = cap_test_tf_program(vs, v_ac, 2);
	printf("info deleted %u, created %u%s\n", q, r, q == r ? " (name reused)" : "");
	tf_draw(r, "a,c");

	/* Relinking the current program with the same varyings, then other ones. */
	relink(r, v_ac, 2);
	tf_draw(r, "a,c");
	relink(r, v_ca, 2);
	tf_draw(r, "c,a");

	/* A program binary loaded into a linked program replaces its layout
	 * (the binary is made first, so that nothing but glProgramBinary
	 * happens between the two draws). */
	bin = get_binary();
	tf_draw(p, "b,c");
	binary = 0;
	if (bin.data) {
		GLint ok = 0;
		glProgramBinary(p, bin.format, bin.data, bin.len);
		glGetProgramiv(p, GL_LINK_STATUS, &ok);
		binary = ok;
		free(bin.data);
	}
	if (binary)
		tf_draw(p, "a");
	else
		printf("info no program binary format or binary refused: not tried\n");

	/* A second context has its own program names: its first program has
	 * the first context's first program's name, with another layout. */
	cap_test_egl_make_current(&egl, ctx2);
	t = cap_test_tf_program(vs, v_ca, 2);
	setup_context();
	printf("info context 1 program %u, context 2 program %u%s\n", p, t,
	       p == t ? " (same name)" : "");
	tf_draw(t, "c,a");
	cap_test_egl_make_current(&egl, ctx1);
	tf_draw(p, binary ? "a" : "b,c");
	cap_test_egl_make_current(&egl, ctx2);
	tf_draw(t, "c,a");
	return 0;
}
