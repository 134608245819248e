/*
 * cap_tf_mapped.c - a TF draw ended while the application has the TF
 * buffer mapped, with an error of its own pending.  The capture's read-back
 * of the buffer fails (a mapped buffer cannot be mapped again): its
 * observation must say why, and the application must see exactly its own
 * error, not the capture's.
 *
 * Steps: a TF draw ended normally; one paused, the buffer mapped for
 * reading, glEnable(0) (GL_INVALID_ENUM, the application's), then ended;
 * glGetError must return GL_INVALID_ENUM and then GL_NO_ERROR.  The
 * mapping still reads what TF wrote.
 *
 * Usage: cap-tf-mapped   (exit 0; 1 when the application saw a wrong
 * error or wrong bytes; 77 when GLES 3 is unavailable)
 */
#include <stdio.h>
#include <string.h>

#include "cap_test_egl.h"

static const char *vs =
	"#version 300 es\n"
	"out vec4 a;\n"
	"void main() {\n"
	"  a = vec4(float(gl_VertexID) + 0.5);\n"
	"  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n"
	"}\n";

static void tf_draw(void)
{
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 3);
}

int main(void)
{
	static const char *const varyings[] = { "a" };
	struct cap_test_egl egl;
	GLuint prog, vao, tfb;
	GLenum first, second;
	const float *p;
	int bad = 0;

	cap_test_egl_init(&egl);
	cap_test_egl_make_current(&egl, cap_test_egl_context(&egl));
	prog = cap_test_tf_program(vs, varyings, 1);
	glUseProgram(prog);
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(1, &tfb);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 256, NULL, GL_STREAM_READ);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
	glEnable(GL_RASTERIZER_DISCARD);

	tf_draw();
	glEndTransformFeedback();

	tf_draw();
	glPauseTransformFeedback();
	glBindBuffer(GL_COPY_READ_BUFFER, tfb);
	p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, 48, GL_MAP_READ_BIT);
	glEnable(0);  /* the application's own error: GL_INVALID_ENUM */
	glEndTransformFeedback();
	first = glGetError();
	second = glGetError();
	printf("errors 0x%x 0x%x\n", first, second);
	if (first != GL_INVALID_ENUM || second != GL_NO_ERROR)
		bad = 1;
	for (int v = 0; p && v < 3; v++)
		if (p[4 * v] != (float)v + 0.5f)
			bad = 1;
	if (!p)
		bad = 1;
	glUnmapBuffer(GL_COPY_READ_BUFFER);
	if (glGetError() != GL_NO_ERROR)
		bad = 1;
	printf("%s\n", bad ? "wrong" : "ok");
	return bad;
}
