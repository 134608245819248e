/*
 * cap_tf_deferred.c - TF buffers written again right after their TF end,
 * before anything synchronises: what the deferred copies of the
 * asynchronous read-back (observe/obs_async.c) must copy before each write,
 * so that every observation holds what its own TF pass wrote.
 *
 * Three TF passes into one buffer, vertex i of pass p writing
 * (i + 100 p + 0.25, 100 p, 2, 3).  Between them, with nothing read back:
 * a draw of a program that writes no buffer (no copy due), then
 * glBufferSubData over the first vertex; the second TF pass (its
 * glBeginTransformFeedback writes the buffer); glCopyBufferSubData into the
 * buffer; after the third pass a compute shader writing it as a shader
 * storage buffer (GLES 3.1), then glDeleteBuffers of it.  Only then
 * glFinish.
 *
 * With "ranges": four TF passes into four ranges of the one buffer
 * (glBindBufferRange at 0, 64, 128, 192; no TF pass writes the range of
 * another, so no copy is due), then a fifth into the first range again
 * (due: it overwrites the first pass's bytes), then glFinish; pass p
 * writes k = 100 p as above.  It prints the bytes of each pass as it
 * wrote them ("pass P HEX", read after glFinish, where the range was not
 * written again; the first from a copy made between passes 1 and 2).
 *
 * Usage: cap-tf-deferred [ranges]   (exit 0; 77 when GLES 3.1 is unavailable)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <GLES3/gl31.h>

#include "cap_test_egl.h"

static const char *vs =
	"#version 300 es\n"
	"uniform float k;\n"
	"out vec4 a;\n"
	"void main() {\n"
	"  a = vec4(float(gl_VertexID) + k + 0.25, k, 2.0, 3.0);\n"
	"  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n"
	"}\n";

static const char *cs =
	"#version 310 es\n"
	"layout(local_size_x = 16) in;\n"
	"layout(std430, binding = 0) buffer B { float v[]; };\n"
	"void main() { v[gl_GlobalInvocationID.x] = 42.0; }\n";

/* A compute program writing shader storage buffer 0; exits 77 when the
 * context has no compute shaders. */
static GLuint compute_program(void)
{
	GLint ok = 0;
	GLuint sh, prog;
	const char *version = (const char *)glGetString(GL_VERSION);
	int major = 0, minor = 0;

	if (!version || sscanf(version, "OpenGL ES %d.%d", &major, &minor) != 2 ||
	    major * 10 + minor < 31) {
		fprintf(stderr, "cap-tf-deferred: needs GLES 3.1, have %s\n", version);
		exit(77);
	}
	sh = glCreateShader(GL_COMPUTE_SHADER);
	glShaderSource(sh, 1, &cs, NULL);
	glCompileShader(sh);
	prog = glCreateProgram();
	glAttachShader(prog, sh);
	glLinkProgram(prog);
	glGetProgramiv(prog, GL_LINK_STATUS, &ok);
	if (!ok) {
		fprintf(stderr, "cap-tf-deferred: the compute shader did not link\n");
		exit(2);
	}
	return prog;
}

static void tf_pass(GLint k_loc, float k)
{
	glUniform1f(k_loc, k);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 3);
	glEndTransformFeedback();
}

static void print_range(int pass, GLuint buffer, GLintptr offset)
{
	glBindBuffer(GL_COPY_READ_BUFFER, buffer);
	const unsigned char *p = glMapBufferRange(GL_COPY_READ_BUFFER, offset, 48, GL_MAP_READ_BIT);
	printf("pass %d ", pass);
	for (int i = 0; p && i < 48; i++)
		printf("%02x", p[i]);
	printf("\n");
	glUnmapBuffer(GL_COPY_READ_BUFFER);
	glBindBuffer(GL_COPY_READ_BUFFER, 0);
}

/* "ranges": TF at moving offsets of one buffer, then into the first range
 * again (see the top of the file). */
static int ranges(GLuint tfb, GLint k_loc)
{
	GLuint first;

	glGenBuffers(1, &first);
	glBindBuffer(GL_COPY_WRITE_BUFFER, first);
	glBufferData(GL_COPY_WRITE_BUFFER, 48, NULL, GL_STREAM_READ);
	for (int p = 0; p < 5; p++) {
		glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb, (p % 4) * 64, 64);
		tf_pass(k_loc, 100.0f * (float)p);
		if (p == 0) {
			/* What pass 0 wrote, for the output; a copy, not a read,
			 * so that nothing synchronises. */
			glBindBuffer(GL_COPY_READ_BUFFER, tfb);
			glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, 48);
			glBindBuffer(GL_COPY_READ_BUFFER, 0);
		}
	}
	glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
	glFinish();
	print_range(0, first, 0);
	for (int p = 1; p < 4; p++)
		print_range(p, tfb, p * 64);
	print_range(4, tfb, 0);
	glDeleteBuffers(1, &first);
	printf("ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const varyings[] = { "a" };
	static const float junk[16] = { 99, 99, 99, 99, 99, 99, 99, 99,
					 99, 99, 99, 99, 99, 99, 99, 99 };
	struct cap_test_egl egl;
	GLuint tfb, src;
	GLint program = 0;

	tfb = cap_test_tf_setup(&egl, vs, varyings, 1, 256);
	glGetIntegerv(GL_CURRENT_PROGRAM, &program);
	const GLint k_loc = glGetUniformLocation((GLuint)program, "k");
	glGenBuffers(1, &src);
	glBindBuffer(GL_COPY_READ_BUFFER, src);
	glBufferData(GL_COPY_READ_BUFFER, sizeof junk, junk, GL_STATIC_DRAW);
	if (argc > 1 && strcmp(argv[1], "ranges") == 0) {
		const int rc = ranges(tfb, k_loc);
		eglMakeCurrent(egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
		return rc;
	}

	tf_pass(k_loc, 0);
	glDrawArrays(GL_POINTS, 0, 3);   /* writes no buffer: nothing due */
	glBindBuffer(GL_ARRAY_BUFFER, tfb);
	glBufferSubData(GL_ARRAY_BUFFER, 0, 16, junk);
	tf_pass(k_loc, 100);
	glBindBuffer(GL_COPY_WRITE_BUFFER, tfb);
	glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, 32);
	tf_pass(k_loc, 200);
	const GLuint compute = compute_program();
	glUseProgram(compute);
	glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, tfb);
	glDispatchCompute(1, 1, 1);   /* writes the first 16 floats */
	glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
	glDeleteBuffers(1, &tfb);
	glFinish();
	printf("ok\n");
	eglMakeCurrent(egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	return 0;
}
