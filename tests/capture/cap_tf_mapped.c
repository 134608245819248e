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
 * mapping still reads what TF wrote.  Then, with GL_EXT_buffer_storage, a
 * TF buffer the application keeps mapped persistently for reading: the
 * capture reads it through that mapping, so its observation has the bytes
 * the program prints ("persistent HEX", read after glFinish).
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

/* GL_EXT_buffer_storage, resolved at run time (not in the GLES 3.0 header). */
typedef void (*buffer_storage_fn)(GLenum target, GLsizeiptr size, const void *data,
				  GLbitfield flags);
#define MAP_PERSISTENT_BIT 0x0040
#define MAP_COHERENT_BIT 0x0080

static void tf_draw(void)
{
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 3);
}

int main(void)
{
	static const char *const varyings[] = { "a" };
	struct cap_test_egl egl;
	GLuint tfb;
	GLenum first, second;
	const float *p;
	int bad = 0;

	tfb = cap_test_tf_setup(&egl, vs, varyings, 1, 256);

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

	const char *ext = (const char *)glGetString(GL_EXTENSIONS);
	buffer_storage_fn storage = (buffer_storage_fn)eglGetProcAddress("glBufferStorageEXT");
	if (ext && strstr(ext, "GL_EXT_buffer_storage") && storage) {
		const GLbitfield flags = GL_MAP_READ_BIT | MAP_PERSISTENT_BIT | MAP_COHERENT_BIT;
		GLuint pb;
		glGenBuffers(1, &pb);
		glBindBuffer(GL_COPY_READ_BUFFER, pb);
		storage(GL_COPY_READ_BUFFER, 64, NULL, flags);
		const unsigned char *q = glMapBufferRange(GL_COPY_READ_BUFFER, 0, 64, flags);
		glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, pb);
		tf_draw();
		glEndTransformFeedback();
		glFinish();
		printf("persistent ");
		for (int i = 0; q && i < 64; i++)
			printf("%02x", q[i]);
		printf("\n");
		if (!q || glGetError() != GL_NO_ERROR)
			bad = 1;
	} else {
		printf("info no GL_EXT_buffer_storage\n");
	}
	printf("%s\n", bad ? "wrong" : "ok");
	return bad;
}
