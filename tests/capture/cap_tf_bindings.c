/*
 * cap_tf_bindings.c - TF draws between which what TF writes to, or the
 * program it captures from, changes in the ways the capture's cache of TF
 * state (observe/obs_tf.c, struct obs_tf_cache: the program and the bound
 * ranges, kept until a call that may change them) must notice:
 * glBindBufferBase / glBindBufferRange on TF binding points, the same on
 * another target (no change), a second TF object bound and unbound,
 * glDeleteBuffers of a bound buffer, and (GLES 3.1) program pipelines
 * switched by glBindProgramPipeline and glUseProgramStages.
 *
 * Before each TF draw's end it asks the GL itself what is bound and prints
 * "tf PROGRAM I:BUFFER:START:SIZE ..." (the program whose outputs TF
 * captures and every binding point with a buffer, as glGetIntegeri_v /
 * glGetInteger64i_v report them); the capture's observations of that draw
 * must say the same.  Other lines are information.  Every buffer has
 * BUFFER_BYTES bytes.
 *
 * Usage: cap-tf-bindings   (exit 0, 77 when GLES 3 is unavailable)
 */
#include <stdio.h>
#include <stdlib.h>

#include "cap_test_egl.h"

#include <GLES3/gl31.h>

#define BUFFER_BYTES 256
#define VERTICES 3

static const char *vs =
	"#version 300 es\n"
	"out vec4 a;\n"
	"out float c;\n"
	"void main() {\n"
	"  float v = float(gl_VertexID);\n"
	"  a = vec4(v, v + 0.25, v + 0.5, v + 0.75);\n"
	"  c = 100.0 + v;\n"
	"  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n"
	"}\n";

static const char *fs = "#version 300 es\nprecision mediump float;\n"
			"out vec4 o;\nvoid main() { o = vec4(1.0); }\n";

static const char *const v_a[] = { "a" };
static const char *const v_c[] = { "c" };
static const char *const v_ac[] = { "a", "c" };

static GLuint new_buffer(void)
{
	GLuint b;

	glGenBuffers(1, &b);
	glBindBuffer(GL_COPY_WRITE_BUFFER, b);
	glBufferData(GL_COPY_WRITE_BUFFER, BUFFER_BYTES, NULL, GL_STREAM_READ);
	return b;
}

/* A program capturing `varyings` in `mode`; separable when asked. */
static GLuint program(const char *const *varyings, int count, GLenum mode, int separable)
{
	GLuint p = glCreateProgram(), v = glCreateShader(GL_VERTEX_SHADER);
	GLuint f = glCreateShader(GL_FRAGMENT_SHADER);
	GLint ok = 0;

	glShaderSource(v, 1, &vs, NULL);
	glCompileShader(v);
	glShaderSource(f, 1, &fs, NULL);
	glCompileShader(f);
	glAttachShader(p, v);
	glAttachShader(p, f);
	if (separable)
		glProgramParameteri(p, GL_PROGRAM_SEPARABLE, GL_TRUE);
	glTransformFeedbackVaryings(p, count, varyings, mode);
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		fprintf(stderr, "link failed\n");
		exit(2);
	}
	return p;
}

/* Prints what the GL reports TF captures from and into. */
static void print_state(GLuint program_expected)
{
	GLint max = 0;

	glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, &max);
	printf("tf %u", program_expected);
	for (GLint i = 0; i < max; i++) {
		GLint buffer = 0;
		GLint64 start = 0, size = 0;
		glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, (GLuint)i, &buffer);
		if (!buffer)
			continue;
		glGetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_START, (GLuint)i, &start);
		glGetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, (GLuint)i, &size);
		printf(" %d:%d:%lld:%lld", i, buffer, (long long)start, (long long)size);
	}
	printf("\n");
}

/* One TF draw; `prog` is the program whose outputs it captures (the
 * current one, or the pipeline's vertex stage), for the printed line. */
static void tf_draw(GLuint prog)
{
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, VERTICES);
	print_state(prog);
	glEndTransformFeedback();
	if (glGetError() != GL_NO_ERROR) {
		fprintf(stderr, "GL error at the draw with program %u\n", prog);
		exit(2);
	}
}

/* GLES 3.1 program pipelines; skipped (with a line) below 3.1. */
static void pipelines(void)
{
	GLint major = 0, minor = 0;
	GLuint s1, s2, pipe, b1;

	glGetIntegerv(GL_MAJOR_VERSION, &major);
	glGetIntegerv(GL_MINOR_VERSION, &minor);
	if (major * 10 + minor < 31) {
		printf("info GLES %d.%d: no program pipelines\n", major, minor);
		return;
	}
	s1 = program(v_c, 1, GL_INTERLEAVED_ATTRIBS, 1);
	s2 = program(v_a, 1, GL_INTERLEAVED_ATTRIBS, 1);
	b1 = new_buffer();
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b1);
	glUseProgram(0);
	glGenProgramPipelines(1, &pipe);
	glUseProgramStages(pipe, GL_VERTEX_SHADER_BIT | GL_FRAGMENT_SHADER_BIT, s1);
	glBindProgramPipeline(pipe);
	tf_draw(s1);
	glUseProgramStages(pipe, GL_VERTEX_SHADER_BIT | GL_FRAGMENT_SHADER_BIT, s2);
	tf_draw(s2);
	glBindProgramPipeline(0);
	glUseProgram(s1);
	tf_draw(s1);
	printf("info pipelines tried\n");
}

int main(void)
{
	struct cap_test_egl egl;
	GLuint sep, inter, vao, b1, b2, b3, b4, b5, tfo;

	cap_test_egl_init(&egl);
	cap_test_egl_make_current(&egl, cap_test_egl_context(&egl));
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glEnable(GL_RASTERIZER_DISCARD);
	sep = program(v_ac, 2, GL_SEPARATE_ATTRIBS, 0);
	inter = program(v_a, 1, GL_INTERLEAVED_ATTRIBS, 0);
	b1 = new_buffer();
	b2 = new_buffer();
	b3 = new_buffer();
	b4 = new_buffer();
	b5 = new_buffer();

	glUseProgram(sep);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b1);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, b2);
	tf_draw(sep);
	glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b3, 64, 48);
	tf_draw(sep);
	/* Another target's indexed binding changes nothing of TF. */
	glBindBufferBase(GL_UNIFORM_BUFFER, 0, b4);
	glBindBufferRange(GL_UNIFORM_BUFFER, 1, b5, 0, 64);
	tf_draw(sep);

	/* A second TF object has its own bindings. */
	glGenTransformFeedbacks(1, &tfo);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tfo);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b2);
	glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 1, b1, 32, 32);
	tf_draw(sep);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	tf_draw(sep);

	/* Deleting a bound buffer unbinds it; the interleaved program needs
	 * binding point 0 only, so the draw still works. */
	glUseProgram(inter);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, b4);
	tf_draw(inter);
	glDeleteBuffers(1, &b4);
	tf_draw(inter);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, 0);
	glDeleteTransformFeedbacks(1, &tfo);
	tf_draw(inter);

	pipelines();
	return 0;
}
