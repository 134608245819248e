/*
 * cap_tf_gather_state.c - what the application sees around the gather
 * dispatches of the asynchronous read-back (observe/obs_async.c: the
 * deferred copies into the ring made by a compute program of the
 * capture's, its ranges bound as shader storage buffers): its current
 * program, every shader storage binding it set (indexed, by
 * glBindBufferBase and glBindBufferRange, and generic), exactly its own GL
 * errors; and the observations hold each pass's bytes.
 *
 * Passes (vertex i of a pass with first vertex f writes (f + i + 0.25, f,
 * 2, 3) into its own TF buffer, nothing read back in between):
 *   1. into A, then into B; glFinish: one batch for both (gathered);
 *   2. into C; then a pass into B that calls glFlush while TF is active and
 *      not paused: the batch due there (C's) is copied by copy calls, as
 *      glUseProgram would be an error then (OpenGL ES 3.2 §7.3); B's
 *      is gathered at the glFinish after it;
 *   3. with a copy of the TF program current and flagged for deletion
 *      (glDeleteProgram): a pass into A; glFinish: copied by copy calls,
 *      since leaving that program would delete it.  It stays current.
 * After each glFinish / glFlush: the checks.  At the end each buffer is
 * read through the application's own mapping; it prints "tf F HEX" per
 * pass (F its first vertex, HEX the 48 bytes it wrote, computed here).
 *
 * Usage: cap-tf-gather-state   (exit 0; 1 when the application saw state or
 * an error that is not its own; 77 when GLES 3.1 is unavailable)
 */
#include <stdio.h>
#include <string.h>

#include <GLES3/gl31.h>

#include "cap_test_egl.h"

static const char *vs =
	"#version 300 es\n"
	"out vec4 a;\n"
	"void main() {\n"
	"  a = vec4(float(gl_VertexID) + 0.25, 0.0, 2.0, 3.0);\n"
	"  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n"
	"}\n";

#define BINDINGS_CHECKED 24

struct expect {
	GLint program;
	GLint generic;
	GLint buffer[BINDINGS_CHECKED];
	GLint64 start[BINDINGS_CHECKED], size[BINDINGS_CHECKED];
	int bindings;
};

static int check(const char *where, const struct expect *e, int app_error)
{
	GLint v;
	GLint64 start, size;
	int bad = 0;
	GLenum err;

	glGetIntegerv(GL_CURRENT_PROGRAM, &v);
	if (v != e->program)
		bad = fprintf(stderr, "%s: the current program is %d, not %d\n", where, v,
			      e->program);
	glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &v);
	if (v != e->generic)
		bad = fprintf(stderr, "%s: SHADER_STORAGE_BUFFER is %d, not %d\n", where, v,
			      e->generic);
	for (int i = 0; i < e->bindings; i++) {
		glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, (GLuint)i, &v);
		glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, (GLuint)i, &start);
		glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, (GLuint)i, &size);
		if (v != e->buffer[i] || start != e->start[i] || size != e->size[i])
			bad = fprintf(stderr, "%s: storage binding %d is %d (%lld, %lld), not %d "
				      "(%lld, %lld)\n", where, i, v, (long long)start,
				      (long long)size, e->buffer[i], (long long)e->start[i],
				      (long long)e->size[i]);
	}
	err = glGetError();
	if (app_error && err != GL_INVALID_ENUM)
		bad = fprintf(stderr, "%s: glGetError gave 0x%x, not GL_INVALID_ENUM\n", where, err);
	if (app_error)
		err = glGetError();
	if (err != GL_NO_ERROR)
		bad = fprintf(stderr, "%s: glGetError gave 0x%x, not GL_NO_ERROR\n", where, err);
	return bad ? 1 : 0;
}

/* A TF pass of 3 points from vertex `first` into `buffer` (binding 0). */
static void pass(GLuint buffer, int first, int flush_while_active)
{
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, first, 3);
	if (flush_while_active)
		glFlush();
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

/* The bytes the last pass wrote into `buffer` are those of `first`. */
static int tf_holds(GLuint buffer, int first)
{
	glBindBuffer(GL_COPY_READ_BUFFER, buffer);
	const float *p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, 48, GL_MAP_READ_BIT);
	int bad = !p;
	for (int i = 0; p && i < 3; i++)
		bad |= p[i * 4] != (float)(first + i) + 0.25f;
	glUnmapBuffer(GL_COPY_READ_BUFFER);
	glBindBuffer(GL_COPY_READ_BUFFER, 0);
	if (bad)
		fprintf(stderr, "TF buffer %u does not hold the pass from vertex %d\n", buffer, first);
	return bad;
}

int main(void)
{
	static const char *const varyings[] = { "a" };
	struct cap_test_egl egl;
	struct expect e = { 0 };
	GLuint tf[3], ssbo[3];
	GLint major = 0, minor = 0, align = 0, bindings = 0;
	int bad = 0;

	const GLuint a = cap_test_tf_setup(&egl, vs, varyings, 1, 256);
	glGetIntegerv(GL_MAJOR_VERSION, &major);
	glGetIntegerv(GL_MINOR_VERSION, &minor);
	if (major < 3 || (major == 3 && minor < 1)) {
		fprintf(stderr, "cap-tf-gather-state: GLES %d.%d, needs 3.1\n", major, minor);
		return 77;
	}
	glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &align);
	glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &bindings);
	e.bindings = bindings < BINDINGS_CHECKED ? bindings : BINDINGS_CHECKED;
	tf[0] = a;
	glGenBuffers(2, tf + 1);
	glGenBuffers(3, ssbo);
	for (int i = 0; i < 3; i++) {
		glBindBuffer(GL_SHADER_STORAGE_BUFFER, ssbo[i]);
		glBufferData(GL_SHADER_STORAGE_BUFFER, 4 * align + 256, NULL, GL_STATIC_DRAW);
		if (i < 2) {
			glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tf[i + 1]);
			glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 256, NULL, GL_STREAM_READ);
		}
	}
	/* Storage bindings of every kind, on the binding points the gather
	 * uses first (0, 1, ...) and on the last ones checked. */
	glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, ssbo[0], align, 64);
	glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, ssbo[1]);
	glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 3, ssbo[2], 2 * align, 32);
	glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)e.bindings - 1, ssbo[0]);
	glBindBufferRange(GL_SHADER_STORAGE_BUFFER, (GLuint)e.bindings - 2, ssbo[1], 0, 16);
	glBindBuffer(GL_SHADER_STORAGE_BUFFER, ssbo[2]);
	for (int i = 0; i < e.bindings; i++) {
		glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, (GLuint)i, &e.buffer[i]);
		glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, (GLuint)i, &e.start[i]);
		glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, (GLuint)i, &e.size[i]);
	}
	glGetIntegerv(GL_CURRENT_PROGRAM, &e.program);
	e.generic = (GLint)ssbo[2];
	bad |= check("set-up", &e, 0);

	/* 1. Two passes, one batch at glFinish. */
	pass(tf[0], 0, 0);
	pass(tf[1], 10, 0);
	glEnable(0);
	glFinish();
	bad |= check("after the first glFinish", &e, 1);

	/* 2. A batch due while TF is active and not paused. */
	pass(tf[2], 20, 0);
	pass(tf[1], 30, 1);
	bad |= check("after the glFlush while TF was active", &e, 0);
	glEnable(0);
	glFinish();
	bad |= check("after the second glFinish", &e, 1);

	/* 3. The current program flagged for deletion. */
	const GLuint copy = cap_test_tf_program(vs, varyings, 1);
	glUseProgram(copy);
	glDeleteProgram(copy);
	e.program = (GLint)copy;
	pass(tf[0], 40, 0);
	glEnable(0);
	glFinish();
	bad |= check("after the third glFinish", &e, 1);
	GLint deleted = GL_FALSE;
	glGetProgramiv(copy, GL_DELETE_STATUS, &deleted);
	if (!deleted)
		bad = fprintf(stderr, "the current program is no longer flagged for deletion\n") ? 1 : 1;

	bad |= tf_holds(tf[0], 40) | tf_holds(tf[1], 30) | tf_holds(tf[2], 20);
	bad |= check("at the end", &e, 0);
	for (int first = 0; first <= 40; first += 10)
		print_expected(first);
	eglMakeCurrent(egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	return bad ? 1 : 0;
}
