/*
 * cap_test_gl.c - surfaceless EGL with a desktop GL context for the
 * capture's test programs (cap_test_gl.h).
 */
#define GL_GLEXT_PROTOTYPES
#include "cap_test_gl.h"

#include <GL/glext.h>

#include <stdio.h>
#include <stdlib.h>

void cap_test_gl_init(struct cap_test_gl *g)
{
	static const EGLint cfg_attribs[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
					      EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE };
	EGLint n = 0;

	g->dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (g->dpy == EGL_NO_DISPLAY || !eglInitialize(g->dpy, NULL, NULL) ||
	    !eglChooseConfig(g->dpy, cfg_attribs, &g->config, 1, &n) || n < 1 ||
	    !eglBindAPI(EGL_OPENGL_API)) {
		fprintf(stderr, "no surfaceless EGL display with desktop GL\n");
		exit(77);
	}
}

EGLContext cap_test_gl_context(const struct cap_test_gl *g, int major, int minor, EGLint profile,
			       EGLContext share)
{
	EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor,
			     EGL_NONE, 0, EGL_NONE };
	EGLContext ctx;

	if (profile) {
		attribs[4] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
		attribs[5] = profile;
	}
	ctx = eglCreateContext(g->dpy, g->config, share, attribs);
	if (ctx == EGL_NO_CONTEXT) {
		fprintf(stderr, "no desktop GL %d.%d%s context\n", major, minor,
			profile == EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT ? " core" :
			profile == EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT ? " compatibility" : "");
		exit(77);
	}
	return ctx;
}

void cap_test_gl_current(int major, int minor, EGLint profile)
{
	struct cap_test_gl g;
	EGLContext ctx;

	cap_test_gl_init(&g);
	ctx = cap_test_gl_context(&g, major, minor, profile, EGL_NO_CONTEXT);
	if (!eglMakeCurrent(g.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
		fprintf(stderr, "cannot make the desktop GL context current\n");
		exit(77);
	}
}

GLuint cap_test_gl_tf_program(const char *vs, const char *const *varyings, int count)
{
	GLuint sh = glCreateShader(GL_VERTEX_SHADER), prog = glCreateProgram();
	GLint ok = 0;
	char log[1024];

	glShaderSource(sh, 1, &vs, NULL);
	glCompileShader(sh);
	glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		glGetShaderInfoLog(sh, sizeof log, NULL, log);
		fprintf(stderr, "compile: %s\n", log);
		exit(2);
	}
	glAttachShader(prog, sh);
	glTransformFeedbackVaryings(prog, count, varyings, GL_INTERLEAVED_ATTRIBS);
	glLinkProgram(prog);
	glGetProgramiv(prog, GL_LINK_STATUS, &ok);
	if (!ok) {
		glGetProgramInfoLog(prog, sizeof log, NULL, log);
		fprintf(stderr, "link: %s\n", log);
		exit(2);
	}
	glDeleteShader(sh);
	return prog;
}
