/*
 * cap_tf_copy_choice.c - how the asynchronous read-back makes a batch of
 * deferred TF copies (observe/obs_async.c): copy calls or a gather
 * dispatch, by the TF buffers' usage and the number of ranges, and copy
 * calls while the application's conditional rendering is active with a
 * false condition.  Desktop GL 4.4 core (conditional rendering, compute
 * shaders, buffer storage).
 *
 * Passes (vertex i of a pass with first vertex f writes (f + i + 0.25, 0,
 * 2, 3) into its TF buffer):
 *   1. into R (GL_STREAM_READ: the gather's); then, inside
 *      glBeginConditionalRender of an occlusion query that passed no
 *      sample (GL_QUERY_WAIT), glBufferSubData into R, which makes R's
 *      copy due there: copy calls (no dispatch during conditional
 *      rendering); R's observation holds the pass, not the upload;
 *   2. into D (GL_DYNAMIC_COPY); glFinish: one cheap range, copy calls;
 *   3. into D, E, F (GL_DYNAMIC_COPY); glFinish: three ranges, a gather;
 *   4. into S (immutable storage, no flags); glFinish: copy calls.
 * It prints "tf F HEX" per pass (HEX the 48 bytes it wrote, computed
 * here), in pass order.
 *
 * Usage: cap-tf-copy-choice   (exit 0; 1 when the query passed samples or
 * a GL error was raised; 2 on a set-up failure; 77 when desktop GL 4.4 is
 * unavailable on surfaceless EGL)
 */
#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <string.h>

#include "cap_test_gl.h"

#include "cap_test_fbo.h"

static const char *vs =
	"#version 440 core\n"
	"out vec4 a;\n"
	"void main() {\n"
	"  a = vec4(float(gl_VertexID) + 0.25, 0.0, 2.0, 3.0);\n"
	"  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n"
	"}\n";

#define TF_BYTES 256

static GLuint tf_buffer(GLenum usage)
{
	GLuint b;

	glGenBuffers(1, &b);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, b);
	if (usage)
		glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, TF_BYTES, NULL, usage);
	else
		glBufferStorage(GL_TRANSFORM_FEEDBACK_BUFFER, TF_BYTES, NULL, 0);
	return b;
}

/* A TF pass of 3 points from vertex `first` into `buffer` (binding 0). */
static void pass(GLuint buffer, int first)
{
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, first, 3);
	glEndTransformFeedback();
}

static void print_expected(int first)
{
	printf("tf %d ", first);
	for (int i = 0; i < 3; i++) {
		const float v[4] = { (float)(first + i) + 0.25f, 0.0f, 2.0f, 3.0f };
		unsigned char b[16];
		memcpy(b, v, sizeof b);
		for (int j = 0; j < 16; j++)
			printf("%02x", b[j]);
	}
	printf("\n");
}

int main(void)
{
	static const char *const varyings[] = { "a" };
	static const unsigned char upload[TF_BYTES];   /* zeros */
	GLuint prog, vao, query, r, d, e, f, s;
	GLuint passed = 1;

	cap_test_gl_current(4, 4, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT);
	cap_test_bind_fbo();
	prog = cap_test_gl_tf_program(vs, varyings, 1);
	glUseProgram(prog);
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glEnable(GL_RASTERIZER_DISCARD);
	r = tf_buffer(GL_STREAM_READ);
	d = tf_buffer(GL_DYNAMIC_COPY);
	e = tf_buffer(GL_DYNAMIC_COPY);
	f = tf_buffer(GL_DYNAMIC_COPY);
	s = tf_buffer(0);

	/* An occlusion query that passes no sample: nothing is drawn. */
	glGenQueries(1, &query);
	glBeginQuery(GL_SAMPLES_PASSED, query);
	glEndQuery(GL_SAMPLES_PASSED);
	glGetQueryObjectuiv(query, GL_QUERY_RESULT, &passed);
	if (passed) {
		fprintf(stderr, "cap-tf-copy-choice: the query passed %u samples\n", passed);
		return 1;
	}

	/* 1. The copy of R due inside a conditional rendering that discards. */
	pass(r, 0);
	glBeginConditionalRender(query, GL_QUERY_WAIT);
	glBindBuffer(GL_COPY_WRITE_BUFFER, r);
	glBufferSubData(GL_COPY_WRITE_BUFFER, 0, TF_BYTES, upload);
	glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
	glEndConditionalRender();

	/* 2. One range of a GL_DYNAMIC_COPY buffer. */
	pass(d, 10);
	glFinish();
	/* 3. Three of them. */
	pass(d, 20);
	pass(e, 30);
	pass(f, 40);
	glFinish();
	/* 4. Immutable storage without flags. */
	pass(s, 50);
	glFinish();

	if (glGetError() != GL_NO_ERROR) {
		fprintf(stderr, "cap-tf-copy-choice: GL error\n");
		return 1;
	}
	for (int first = 0; first <= 50; first += 10)
		print_expected(first);
	return 0;
}
