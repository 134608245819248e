/*
 * cap_client_arrays.c - draws from client-side vertex arrays (no buffer
 * bound, GLES 3 on the default vertex array), so that the capture must
 * record the vertex memory at draw time, in the range the draw really uses:
 *   1. glDrawArrays(GL_POINTS, 3, 4) from a 10-vertex array of vec4
 *      (vertex i = (i, i + 0.25, i + 0.5, i + 0.75)): vertices 3..6;
 *   2. glDrawElements(GL_POINTS, 4, GL_UNSIGNED_SHORT, client indices
 *      {5, 2, 4, 2}): vertices 2..5 (the range spanned by the indices), and
 *      the indices themselves as the call's memory.
 *
 * Usage: cap-client-arrays   (exit 0 when both draws raised no error)
 */
#include <stddef.h>

#include "cap_test_egl.h"

static const char *vs =
	"#version 300 es\n"
	"layout(location = 0) in vec4 pos;\n"
	"out vec4 tf_out;\n"
	"void main() { tf_out = pos; gl_Position = pos; }\n";

int main(void)
{
	static const char *const varyings[] = { "tf_out" };
	static const GLushort indices[] = { 5, 2, 4, 2 };
	struct cap_test_egl egl;
	float verts[10][4];
	GLuint prog, tfb;

	for (int i = 0; i < 10; i++)
		for (int c = 0; c < 4; c++)
			verts[i][c] = (float)i + 0.25f * (float)c;
	cap_test_egl_init(&egl);
	cap_test_egl_make_current(&egl, cap_test_egl_context(&egl));
	prog = cap_test_tf_program(vs, varyings, 1);
	glUseProgram(prog);
	glGenBuffers(1, &tfb);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 4 * 16, NULL, GL_STREAM_READ);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, verts);
	glEnableVertexAttribArray(0);
	glEnable(GL_RASTERIZER_DISCARD);

	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 3, 4);
	glEndTransformFeedback();
	glBeginTransformFeedback(GL_POINTS);
	glDrawElements(GL_POINTS, 4, GL_UNSIGNED_SHORT, indices);
	glEndTransformFeedback();
	return glGetError() == GL_NO_ERROR ? 0 : 1;
}
