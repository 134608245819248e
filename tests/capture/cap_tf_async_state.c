/*
 * cap_tf_async_state.c - what the application sees around TF ends while the
 * capture reads TF buffers back asynchronously (issue 23; observe/
 * obs_async.c copies them on the GPU with COPY_READ_BUFFER /
 * COPY_WRITE_BUFFER on GLES): every buffer binding it set, and exactly its
 * own GL errors.
 *
 * Steps: the application binds its own buffers to COPY_READ_BUFFER,
 * COPY_WRITE_BUFFER, ARRAY_BUFFER and (for the second half) a generic
 * TRANSFORM_FEEDBACK_BUFFER binding other than the indexed one, so that
 * the capture must copy through a binding of its own; raises an error of
 * its own (glEnable(0): GL_INVALID_ENUM) before each glEndTransformFeedback
 * and glPauseTransformFeedback; and checks after each, and after the calls
 * where the capture reads its copies back (glMapBufferRange, glFinish),
 * that every binding is what it set and that glGetError returns its error
 * once and then GL_NO_ERROR.  It prints the bytes TF wrote ("tf N HEX"),
 * which the trace's observations must hold.
 *
 * Usage: cap-tf-async-state   (exit 0; 1 when the application saw a
 * binding or an error that is not its own; 77 when GLES 3 is unavailable)
 */
#include <stdio.h>
#include <string.h>

#include "cap_test_egl.h"

static const char *vs =
	"#version 300 es\n"
	"out vec4 a;\n"
	"void main() {\n"
	"  a = vec4(float(gl_VertexID) + 0.25, 1.0, 2.0, 3.0);\n"
	"  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n"
	"}\n";

struct expect {
	GLint copy_read, copy_write, array, tf_generic, tf0;
};

static int check(const char *where, const struct expect *e, int app_error)
{
	GLint v;
	int bad = 0;
	GLenum err;

	glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &v);
	if (v != e->copy_read)
		bad = fprintf(stderr, "%s: COPY_READ_BUFFER is %d, not %d\n", where, v, e->copy_read);
	glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &v);
	if (v != e->copy_write)
		bad = fprintf(stderr, "%s: COPY_WRITE_BUFFER is %d, not %d\n", where, v, e->copy_write);
	glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &v);
	if (v != e->array)
		bad = fprintf(stderr, "%s: ARRAY_BUFFER is %d, not %d\n", where, v, e->array);
	glGetIntegerv(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, &v);
	if (v != e->tf_generic)
		bad = fprintf(stderr, "%s: TRANSFORM_FEEDBACK_BUFFER is %d, not %d\n", where, v,
			      e->tf_generic);
	glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 0, &v);
	if (v != e->tf0)
		bad = fprintf(stderr, "%s: TF binding 0 is %d, not %d\n", where, v, e->tf0);
	/* The binding queries above raise nothing: the application's error
	 * is still the first in line. */
	err = glGetError();
	if (app_error && err != GL_INVALID_ENUM)
		bad = fprintf(stderr, "%s: glGetError gave 0x%x, not GL_INVALID_ENUM\n", where, err);
	if (app_error)
		err = glGetError();
	if (err != GL_NO_ERROR)
		bad = fprintf(stderr, "%s: glGetError gave 0x%x, not GL_NO_ERROR\n", where, err);
	return bad ? 1 : 0;
}

/* Prints the 3 vertices TF wrote into `buffer`, through the application's
 * own mapping (a synchronisation point where the capture reads back). */
static int print_tf(int n, GLuint buffer, const struct expect *e)
{
	glBindBuffer(GL_COPY_READ_BUFFER, buffer);
	const unsigned char *p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, 48, GL_MAP_READ_BIT);
	if (!p) {
		fprintf(stderr, "cannot map the TF buffer\n");
		return 1;
	}
	printf("tf %d ", n);
	for (int i = 0; i < 48; i++)
		printf("%02x", p[i]);
	printf("\n");
	glUnmapBuffer(GL_COPY_READ_BUFFER);
	glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)e->copy_read);
	return check("after the map", e, 0);
}

int main(void)
{
	static const char *const varyings[] = { "a" };
	struct cap_test_egl egl;
	struct expect e;
	GLuint tfb, other[4];
	int bad = 0;

	tfb = cap_test_tf_setup(&egl, vs, varyings, 1, 256);
	glGenBuffers(4, other);
	for (int i = 0; i < 4; i++) {
		glBindBuffer(GL_ARRAY_BUFFER, other[i]);
		glBufferData(GL_ARRAY_BUFFER, 64, NULL, GL_STATIC_DRAW);
	}
	glBindBuffer(GL_COPY_READ_BUFFER, other[0]);
	glBindBuffer(GL_COPY_WRITE_BUFFER, other[1]);
	glBindBuffer(GL_ARRAY_BUFFER, other[2]);
	e = (struct expect){ (GLint)other[0], (GLint)other[1], (GLint)other[2], (GLint)tfb,
			     (GLint)tfb };
	bad |= check("set-up", &e, 0);

	/* The generic binding holds the TF buffer: copied through it. */
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 3);
	glEnable(0);
	glEndTransformFeedback();
	bad |= check("after glEndTransformFeedback", &e, 1);
	bad |= print_tf(0, tfb, &e);

	/* The generic binding holds another buffer: copied through a binding
	 * the capture sets and restores.  Paused, then ended. */
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, other[3]);
	e.tf_generic = (GLint)other[3];
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 3);
	glEnable(0);
	glPauseTransformFeedback();
	bad |= check("after glPauseTransformFeedback", &e, 1);
	glResumeTransformFeedback();
	glEnable(0);
	glEndTransformFeedback();
	bad |= check("after the second glEndTransformFeedback", &e, 1);
	glEnable(0);
	glFinish();
	bad |= check("after glFinish", &e, 1);
	bad |= print_tf(1, tfb, &e);
	eglMakeCurrent(egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	return bad ? 1 : 0;
}
