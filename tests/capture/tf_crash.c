/*
 * tf_crash.c - sets up transform feedback, draws with it, ends it, and
 * dies right after glEndTransformFeedback in the way MODE says:
 *   abort  abort()               segv  a write through a NULL pointer
 *   exit   _exit(0) (no atexit handlers, no stdio flush)
 *   kill   raise(SIGKILL)
 * A capture must still hold every call up to glEndTransformFeedback (and
 * its observation, if any): the spool is crash-safe by construction.
 *
 * Usage: tf-crash abort|segv|exit|kill
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cap_test_egl.h"

static const char *vs =
	"#version 300 es\n"
	"in vec4 pos;\n"
	"out vec4 tf_out;\n"
	"void main() { tf_out = pos * 2.0 + vec4(float(gl_VertexID)); gl_Position = pos; }\n";

int main(int argc, char **argv)
{
	static const float verts[] = { 0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1 };
	static const char *const varyings[] = { "tf_out" };
	struct cap_test_egl egl;
	GLuint prog, vbo, tfb, vao;
	const char *mode = argc > 1 ? argv[1] : "";

	if (strcmp(mode, "abort") && strcmp(mode, "segv") && strcmp(mode, "exit") &&
	    strcmp(mode, "kill")) {
		fprintf(stderr, "usage: tf-crash abort|segv|exit|kill\n");
		return 2;
	}
	cap_test_egl_init(&egl);
	cap_test_egl_make_current(&egl, cap_test_egl_context(&egl));
	prog = cap_test_tf_program(vs, varyings, 1);
	glUseProgram(prog);
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(1, &vbo);
	glBindBuffer(GL_ARRAY_BUFFER, vbo);
	glBufferData(GL_ARRAY_BUFFER, sizeof(verts), verts, GL_STATIC_DRAW);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, NULL);
	glEnableVertexAttribArray(0);
	glGenBuffers(1, &tfb);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 4 * 16, NULL, GL_STREAM_READ);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
	glEnable(GL_RASTERIZER_DISCARD);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 4);
	glEndTransformFeedback();
	if (strcmp(mode, "abort") == 0)
		abort();
	if (strcmp(mode, "segv") == 0)
		*(volatile int *)(uintptr_t)0 = 1;
	if (strcmp(mode, "exit") == 0)
		_exit(0);
	raise(SIGKILL);
	return 1;
}
