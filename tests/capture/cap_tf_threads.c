/*
 * cap_tf_threads.c - TF observations of GLES 3 contexts that share objects
 * and move between threads, for the capture's asynchronous read-back
 * (issue 23), whose copies of a context are read back by the thread the
 * context is current on, before it leaves that thread.
 *
 * Steps: the main thread creates context A and context B sharing A's
 * objects, and in A the program, the vertex array and a TF buffer.  Thread
 * 1 makes A current, draws with TF (vertex ids 0..3) and ends, pauses a
 * second TF pass, and releases A with the pass still paused.  Thread 2 then
 * makes A current, resumes, ends (4 more vertices), and releases A; at the
 * same time thread 3 draws with TF in B, into a buffer of its own, ends
 * and releases B, which the main thread destroys.  The main thread makes A
 * current again, maps the TF buffer and prints its bytes ("tf HEX"), then
 * the buffer B wrote ("tf-b HEX", shared).  Every TF end and
 * pause must have its observation, none lost.
 *
 * Usage: cap-tf-threads   (exit 0; 2 on set-up failure; 77 without GLES 3)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "cap_test_egl.h"

static const char *vs =
	"#version 300 es\n"
	"uniform float k;\n"
	"out vec4 a;\n"
	"void main() {\n"
	"  a = vec4(float(gl_VertexID), k, 1.0, 2.0);\n"
	"  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n"
	"}\n";

static struct cap_test_egl egl;
static EGLContext ctx_a, ctx_b;
static GLuint prog, tfb, tfb_b;
static GLuint tfo;  /* A's TF object: paused in thread 1, resumed in thread 2 */

static void *thread1(void *unused)
{
	cap_test_egl_make_current(&egl, ctx_a);
	glUseProgram(prog);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tfo);
	glUniform1f(glGetUniformLocation(prog, "k"), 1.0f);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 4);
	glEndTransformFeedback();
	glUniform1f(glGetUniformLocation(prog, "k"), 2.0f);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 4);
	glPauseTransformFeedback();
	cap_test_egl_make_current(&egl, EGL_NO_CONTEXT);
	return NULL;
}

static void *thread2(void *unused)
{
	cap_test_egl_make_current(&egl, ctx_a);
	glResumeTransformFeedback();
	glDrawArrays(GL_POINTS, 0, 4);
	glEndTransformFeedback();
	cap_test_egl_make_current(&egl, EGL_NO_CONTEXT);
	return NULL;
}

static void *thread3(void *unused)
{
	GLuint vao;

	cap_test_egl_make_current(&egl, ctx_b);
	glUseProgram(prog);  /* shared with A */
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glEnable(GL_RASTERIZER_DISCARD);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb_b);
	glUniform1f(glGetUniformLocation(prog, "k"), 3.0f);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 2);
	glEndTransformFeedback();
	cap_test_egl_make_current(&egl, EGL_NO_CONTEXT);
	return NULL;
}

static void print_buffer(const char *label, GLuint buffer, int bytes)
{
	glBindBuffer(GL_COPY_READ_BUFFER, buffer);
	const unsigned char *p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, bytes, GL_MAP_READ_BIT);
	if (!p) {
		fprintf(stderr, "cannot map %s\n", label);
		exit(2);
	}
	printf("%s ", label);
	for (int i = 0; i < bytes; i++)
		printf("%02x", p[i]);
	printf("\n");
	glUnmapBuffer(GL_COPY_READ_BUFFER);
}

int main(void)
{
	static const char *const varyings[] = { "a" };
	static const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	pthread_t t1, t2, t3;
	GLuint vao;

	cap_test_egl_init(&egl);
	ctx_a = cap_test_egl_context(&egl);
	ctx_b = eglCreateContext(egl.dpy, egl.config, ctx_a, attribs);
	if (ctx_b == EGL_NO_CONTEXT) {
		fprintf(stderr, "no shared context\n");
		return 77;
	}
	cap_test_egl_make_current(&egl, ctx_a);
	prog = cap_test_tf_program(vs, varyings, 1);
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glEnable(GL_RASTERIZER_DISCARD);
	glGenBuffers(1, &tfb);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 256, NULL, GL_STREAM_READ);
	glGenBuffers(1, &tfb_b);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb_b);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 64, NULL, GL_STREAM_READ);
	glGenTransformFeedbacks(1, &tfo);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tfo);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
	glFinish();
	cap_test_egl_make_current(&egl, EGL_NO_CONTEXT);

	if (pthread_create(&t1, NULL, thread1, NULL) || pthread_join(t1, NULL) ||
	    pthread_create(&t2, NULL, thread2, NULL) || pthread_create(&t3, NULL, thread3, NULL) ||
	    pthread_join(t2, NULL) || pthread_join(t3, NULL)) {
		fprintf(stderr, "threads failed\n");
		return 2;
	}
	/* B is never current again: what thread 3 observed in it must have
	 * been read back before B left that thread. */
	eglDestroyContext(egl.dpy, ctx_b);
	cap_test_egl_make_current(&egl, ctx_a);
	print_buffer("tf", tfb, 128);
	print_buffer("tf-b", tfb_b, 32);
	cap_test_egl_make_current(&egl, EGL_NO_CONTEXT);
	return 0;
}
