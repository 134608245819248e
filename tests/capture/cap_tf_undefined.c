/*
 * cap_tf_undefined.c - a TF buffer whose bytes the application defines
 * only in part (issue 19, "undefined bytes"): made with glBufferData(NULL)
 * of 256 bytes, TF writes 3 vertices of one vec4 (48 bytes), and the whole
 * buffer is then mapped for reading.  Bytes 48..255 were never defined:
 * any driver may hand out anything there, so `replay --check` classifies a
 * difference in them as "undefined", while one in bytes 0..47 is a
 * difference.  Then glBufferSubData defines bytes 64..127 and the buffer
 * is mapped again: 48..63 and 128..255 are still undefined.  Last,
 * glEnable(0) and a glGetError that must say GL_INVALID_ENUM: an error the
 * application checks.
 *
 * Usage: cap-tf-undefined   (exit 0; 1 when TF wrote other values; 77
 * when GLES 3 is unavailable)
 */
#include <stdio.h>
#include <string.h>

#include "cap_test_egl.h"

static const char *vs =
	"#version 300 es\n"
	"out vec4 a;\n"
	"void main() {\n"
	"  a = vec4(float(gl_VertexID) + 0.5, 1.0, 2.0, 3.0);\n"
	"  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n"
	"}\n";

int main(void)
{
	static const char *const varyings[] = { "a" };
	struct cap_test_egl egl;
	unsigned char fill[64];
	int bad = 0;

	GLuint tfb = cap_test_tf_setup(&egl, vs, varyings, 1, 256);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 3);
	glEndTransformFeedback();

	glBindBuffer(GL_COPY_READ_BUFFER, tfb);
	const float *p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, 256, GL_MAP_READ_BIT);
	for (int v = 0; p && v < 3; v++)
		if (p[4 * v] != (float)v + 0.5f || p[4 * v + 3] != 3.0f)
			bad = 1;
	if (!p)
		bad = 1;
	glUnmapBuffer(GL_COPY_READ_BUFFER);

	memset(fill, 0x5a, sizeof fill);
	glBufferSubData(GL_COPY_READ_BUFFER, 64, sizeof fill, fill);
	const unsigned char *q = glMapBufferRange(GL_COPY_READ_BUFFER, 0, 256, GL_MAP_READ_BIT);
	if (!q || q[64] != 0x5a || q[127] != 0x5a)
		bad = 1;
	glUnmapBuffer(GL_COPY_READ_BUFFER);
	if (glGetError() != GL_NO_ERROR)
		bad = 1;
	glEnable(0);   /* an error the application checks */
	if (glGetError() != GL_INVALID_ENUM)
		bad = 1;
	printf("%s\n", bad ? "wrong" : "ok");
	return bad;
}
