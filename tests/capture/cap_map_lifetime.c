/*
 * cap_map_lifetime.c - a buffer that is persistently mapped for writing
 * outlives neither its deletion nor its context (GL 4.6 6.3.1: "If a buffer
 * object is deleted while it is mapped, it is unmapped"; the last context
 * of a share group takes its buffers with it).  Each round makes a vertex
 * buffer with glBufferStorage, maps it WRITE | PERSISTENT |
 * COHERENT, writes four vertices through the mapping, captures them
 * doubled with transform feedback, and then ends the buffer while it is
 * still mapped:
 *
 *   delete    glDeleteBuffers in the context that made it
 *   shared    glDeleteBuffers in a second context of the same share group
 *   destroy   the buffer lives in a context of its own share group, which
 *             is destroyed (eglDestroyContext) while the buffer is mapped
 *
 * and calls glFinish (a sync point, where the capture compares its copies
 * of persistent mappings with their memory, which the driver has freed).
 * The vertex array, the buffer's last reference, is deleted too, so that
 * the next round's buffer may get the same address: a replay that still
 * knew the old mapping would write into freed memory.
 *
 * Usage: cap-map-lifetime delete|shared|destroy   (exit 0; 2 on a GL
 * error; 77 without desktop GL 4.4 on surfaceless EGL)
 */
#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_test_gl.h"

#include "cap_test_fbo.h"

#define ROUNDS 4
/* Round 0's buffer is big enough for the driver to munmap it when it is
 * freed (a capture that read it then would crash); the later ones are
 * small enough for malloc to hand the same address to the next round. */
#define BUFFER_BYTES(r) ((r) == 0 ? 4u << 20 : 16u << 10)

static const char *vs =
	"#version 440 core\n"
	"layout(location = 0) in vec4 p;\n"
	"out vec4 a;\n"
	"void main() { a = p * 2.0; gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n";

static struct cap_test_gl gl;

static EGLContext context(EGLContext share)
{
	return cap_test_gl_context(&gl, 4, 4, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, share);
}

static void make_current(EGLContext ctx)
{
	if (!eglMakeCurrent(gl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
		fprintf(stderr, "eglMakeCurrent failed\n");
		exit(2);
	}
}

/* The TF program and a TF buffer of 4 vec4 in the current
 * context, with rasterizer discard on. */
static void setup_tf(void)
{
	static const char *const varyings[] = { "a" };
	GLuint sh = glCreateShader(GL_VERTEX_SHADER), prog = glCreateProgram(), tf;
	GLint ok = 0;

	glShaderSource(sh, 1, &vs, NULL);
	glCompileShader(sh);
	glAttachShader(prog, sh);
	glTransformFeedbackVaryings(prog, 1, varyings, GL_INTERLEAVED_ATTRIBS);
	glLinkProgram(prog);
	glGetProgramiv(prog, GL_LINK_STATUS, &ok);
	if (!ok) {
		fprintf(stderr, "link failed\n");
		exit(2);
	}
	glUseProgram(prog);
	glGenBuffers(1, &tf);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tf);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 4 * 16, NULL, GL_STATIC_READ);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf);
	glEnable(GL_RASTERIZER_DISCARD);
	cap_test_bind_fbo();
}

/* A persistently mapped vertex buffer holding round r's vertices, drawn
 * once with TF through a vertex array of its own (*vao); returns the
 * buffer (still mapped). */
static GLuint draw_round(int r, GLuint *vao)
{
	const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
	GLuint vbo;
	float *p;

	glGenVertexArrays(1, vao);
	glBindVertexArray(*vao);
	glGenBuffers(1, &vbo);
	glBindBuffer(GL_ARRAY_BUFFER, vbo);
	glBufferStorage(GL_ARRAY_BUFFER, BUFFER_BYTES(r), NULL, flags);
	p = glMapBufferRange(GL_ARRAY_BUFFER, 0, BUFFER_BYTES(r), flags);
	if (!p) {
		fprintf(stderr, "glMapBufferRange failed\n");
		exit(2);
	}
	for (int i = 0; i < 16; i++)
		p[i] = (float)(100 * r + i);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, (const void *)0);
	glEnableVertexAttribArray(0);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 4);
	glEndTransformFeedback();
	return vbo;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	GLenum err;

	if (strcmp(mode, "delete") && strcmp(mode, "shared") && strcmp(mode, "destroy")) {
		fprintf(stderr, "usage: cap-map-lifetime delete|shared|destroy\n");
		return 2;
	}
	cap_test_gl_init(&gl);
	EGLContext main_ctx = context(EGL_NO_CONTEXT);
	EGLContext other = !strcmp(mode, "shared") ? context(main_ctx) : EGL_NO_CONTEXT;
	make_current(main_ctx);
	setup_tf();
	for (int r = 0; r < ROUNDS; r++) {
		if (!strcmp(mode, "destroy")) {
			EGLContext own = context(EGL_NO_CONTEXT);
			make_current(own);
			setup_tf();
			GLuint vao;
			draw_round(r, &vao);
			glFinish();
			make_current(main_ctx);
			eglDestroyContext(gl.dpy, own);
		} else {
			GLuint vao, vbo = draw_round(r, &vao);
			if (other != EGL_NO_CONTEXT) {
				glFinish();
				make_current(other);
			}
			glDeleteBuffers(1, &vbo);
			make_current(main_ctx);
			/* the last reference: the driver frees the buffer */
			glDeleteVertexArrays(1, &vao);
		}
		glFinish();
		if ((err = glGetError()) != GL_NO_ERROR) {
			fprintf(stderr, "GL error 0x%x in round %d\n", err, r);
			return 2;
		}
	}
	printf("ok\n");
	return 0;
}
