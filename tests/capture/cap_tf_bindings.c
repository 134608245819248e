/*
 * cap_tf_bindings.c - TF draws between which what TF writes to, or the
 * program it captures from, changes in the ways the capture's cache of TF
 * state (observe/obs_tf.c, struct obs_tf_cache: the program and the bound
 * ranges, kept until a call that may change them) must notice:
 * glBindBufferBase / glBindBufferRange on TF binding points, the same on
 * another target (no change), a second TF object bound and unbound,
 * glDeleteBuffers of a bound buffer, a bound buffer given new storage of
 * another size by glBufferData, the generic TRANSFORM_FEEDBACK_BUFFER
 * binding moved to another buffer by glBindBuffer (the capture reads
 * through that binding when it holds the buffer it reads), and (GLES 3.1)
 * program pipelines switched by glBindProgramPipeline and
 * glUseProgramStages.
 *
 * Before each TF draw's end it asks the GL itself what is bound and prints
 * "tf PROGRAM I:BUFFER:START:SIZE:BUFFER_SIZE ..." (the program whose
 * outputs TF captures and every binding point with a buffer, as
 * glGetIntegeri_v / glGetInteger64i_v report them, with the buffer's
 * GL_BUFFER_SIZE); after the end it maps each bound range and prints its
 * bytes, "data I HEX".  The capture's observations of that draw must say
 * the same.  Other lines are information.  Buffers are filled with 0xab
 * when created, so that a read of the wrong buffer shows.
 *
 * Usage: cap-tf-bindings   (exit 0, 77 when GLES 3 is unavailable)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	unsigned char fill[BUFFER_BYTES];
	GLuint b;

	memset(fill, 0xab, sizeof fill);
	glGenBuffers(1, &b);
	glBindBuffer(GL_COPY_WRITE_BUFFER, b);
	glBufferData(GL_COPY_WRITE_BUFFER, BUFFER_BYTES, fill, GL_STREAM_READ);
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

/* The buffer at TF binding point i, its range and its size; false when
 * none is bound. */
static int binding(GLint i, GLint *buffer, GLint64 *start, GLint64 *size, GLint64 *total)
{
	*buffer = 0;
	*start = *size = *total = 0;
	glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, (GLuint)i, buffer);
	if (!*buffer)
		return 0;
	glGetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_START, (GLuint)i, start);
	glGetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, (GLuint)i, size);
	glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)*buffer);
	glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, total);
	glBindBuffer(GL_COPY_READ_BUFFER, 0);
	return 1;
}

static GLint binding_points(void)
{
	GLint max = 0;

	glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, &max);
	return max;
}

/* Prints what the GL reports TF captures from and into. */
static void print_state(GLuint program_expected)
{
	printf("tf %u", program_expected);
	for (GLint i = 0; i < binding_points(); i++) {
		GLint buffer;
		GLint64 start, size, total;
		if (binding(i, &buffer, &start, &size, &total))
			printf(" %d:%d:%lld:%lld:%lld", i, buffer, (long long)start, (long long)size,
			       (long long)total);
	}
	printf("\n");
}

/* Prints the bytes of every bound range (a whole-buffer binding: to the
 * buffer's end), as the application reads them back. */
static void print_data(void)
{
	for (GLint i = 0; i < binding_points(); i++) {
		GLint buffer;
		GLint64 start, size, total;
		if (!binding(i, &buffer, &start, &size, &total))
			continue;
		if (size == 0 || start + size > total)
			size = total - start;
		glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)buffer);
		const unsigned char *p = glMapBufferRange(GL_COPY_READ_BUFFER, start, size,
							  GL_MAP_READ_BIT);
		printf("data %d ", i);
		for (GLint64 j = 0; p && j < size; j++)
			printf("%02x", p[j]);
		printf("\n");
		glUnmapBuffer(GL_COPY_READ_BUFFER);
		glBindBuffer(GL_COPY_READ_BUFFER, 0);
	}
}

/* One TF draw; `prog` is the program whose outputs it captures (the
 * current one, or the pipeline's vertex stage), for the printed line. */
static void tf_draw(GLuint prog)
{
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, VERTICES);
	print_state(prog);
	glEndTransformFeedback();
	print_data();
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

	/* New storage of another size for the buffer bound to the whole of
	 * binding point 0 (the generic binding holds it too). */
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b5);
	tf_draw(inter);
	glBindBuffer(GL_COPY_WRITE_BUFFER, b5);
	glBufferData(GL_COPY_WRITE_BUFFER, BUFFER_BYTES / 2, NULL, GL_STREAM_READ);
	tf_draw(inter);
	glBufferData(GL_COPY_WRITE_BUFFER, BUFFER_BYTES, NULL, GL_STREAM_READ);
	tf_draw(inter);
	/* The generic binding moves to a buffer TF does not write (it keeps
	 * 0xab); binding point 0 keeps b5. */
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, b3);
	tf_draw(inter);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, b5);
	tf_draw(inter);

	pipelines();
	return 0;
}
