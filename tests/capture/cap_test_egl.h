/*
 * cap_test_egl.h - a surfaceless EGL + GLES 3 context for the capture's
 * test programs (no window system: EGL_MESA_platform_surfaceless).
 */
#ifndef CAP_TEST_EGL_H
#define CAP_TEST_EGL_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

struct cap_test_egl {
	EGLDisplay dpy;
	EGLConfig config;
};

/* Initializes the display; exits with status 77 (skip) when unavailable. */
void cap_test_egl_init(struct cap_test_egl *e);
/* A GLES 3.0 context sharing nothing; exits 77 on failure. */
EGLContext cap_test_egl_context(struct cap_test_egl *e);
/* Makes `ctx` current without a surface and binds a 1x1 framebuffer object
 * (draws need one); exits 2 on failure. */
void cap_test_egl_make_current(struct cap_test_egl *e, EGLContext ctx);
/* Compiles and links a vertex-only program capturing `varyings` with
 * GL_INTERLEAVED_ATTRIBS; exits 2 on failure. */
GLuint cap_test_tf_program(const char *vs, const char *const *varyings, int count);
/* The usual TF test set-up: a current GLES 3 context, the program of `vs`
 * capturing `varyings` in use, a vertex array object bound, a new buffer of
 * `tf_bytes` bytes bound to TF binding point 0 (and the generic binding),
 * rasterizer discard on.  Returns the buffer's name; exits as above. */
GLuint cap_test_tf_setup(struct cap_test_egl *e, const char *vs, const char *const *varyings,
			 int count, GLsizeiptr tf_bytes);

#endif
