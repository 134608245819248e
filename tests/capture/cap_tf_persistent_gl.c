/*
 * cap_tf_persistent_gl.c - desktop GL 4.4+ (core) TF into a buffer the
 * application keeps mapped persistently (glBufferStorage +
 * GL_MAP_PERSISTENT_BIT).  On desktop GL glGetBufferSubData may read such
 * a buffer, so the capture's TF observation must have its bytes, not
 * "mapped by the application".  The program prints what it reads through
 * its own mapping after glFinish ("persistent HEX").
 *
 * Usage: cap-tf-persistent-gl   (exit 0; 2 on a GL error; 77 when desktop
 * GL 4.4 is unavailable on surfaceless EGL)
 */
#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>

#include "cap_test_gl.h"

#include "cap_test_fbo.h"

static const char *vs =
	"#version 440 core\n"
	"out vec4 a;\n"
	"void main() {\n"
	"  a = vec4(float(gl_VertexID) + 0.25);\n"
	"  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n"
	"}\n";

int main(void)
{
	static const char *const varyings[] = { "a" };
	const GLbitfield flags = GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
	GLuint prog, vao, tfb;

	cap_test_gl_current(4, 4, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT);
	cap_test_bind_fbo();

	prog = cap_test_gl_tf_program(vs, varyings, 1);
	glUseProgram(prog);
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glEnable(GL_RASTERIZER_DISCARD);

	glGenBuffers(1, &tfb);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
	glBufferStorage(GL_TRANSFORM_FEEDBACK_BUFFER, 64, NULL, flags);
	const unsigned char *p = glMapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 64, flags);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 3);
	glEndTransformFeedback();
	glFinish();
	if (!p || glGetError() != GL_NO_ERROR) {
		fprintf(stderr, "GL error\n");
		return 2;
	}
	printf("persistent ");
	for (int i = 0; i < 64; i++)
		printf("%02x", p[i]);
	printf("\n");
	glUnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
	return 0;
}
