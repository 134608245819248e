/*
 * cap_test_gl.h - surfaceless EGL with a desktop GL context, for the
 * capture's test programs that need desktop GL (compatibility profile,
 * buffer storage, ...); cap_test_egl.h is the GLES 3 one.
 *
 * Every function exits 77 (the tests' "not available here") when EGL or
 * the requested context is missing.
 */
#ifndef CAP_TEST_GL_H
#define CAP_TEST_GL_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>

struct cap_test_gl {
	EGLDisplay dpy;
	EGLConfig config;
};

/* The surfaceless display, a config that renders desktop GL, the GL API
 * bound. */
void cap_test_gl_init(struct cap_test_gl *g);

/* A context of GL major.minor; `profile` is EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
 * EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT or 0 (none asked for);
 * sharing objects with `share` (or EGL_NO_CONTEXT).  Not made current. */
EGLContext cap_test_gl_context(const struct cap_test_gl *g, int major, int minor, EGLint profile,
			       EGLContext share);

/* cap_test_gl_init, then a context as above made current without a
 * surface. */
void cap_test_gl_current(int major, int minor, EGLint profile);

/* A program of vertex shader `vs` whose `count` varyings transform
 * feedback captures interleaved; exits 2 with the compile or link log
 * when it does not build. */
GLuint cap_test_gl_tf_program(const char *vs, const char *const *varyings, int count);

#endif
