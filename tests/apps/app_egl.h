/*
 * app_egl.h - headless EGL setup for the tests/apps programs.
 *
 * The programs run where there is no window system: EGL's surfaceless
 * platform (EGL_MESA_platform_surfaceless through eglGetPlatformDisplayEXT),
 * a context of the requested API / version / profile, and either a small
 * pbuffer (so eglSwapBuffers marks frames) or no surface at all
 * (EGL_KHR_surfaceless_context).  libEGL is linked directly, never through
 * libepoxy, so an LD_PRELOAD capture library sees every call.
 */
#ifndef APP_EGL_H
#define APP_EGL_H

#include <stdbool.h>

#include <EGL/egl.h>

enum app_api {
	APP_API_GLES,     /* OpenGL ES, eglBindAPI(EGL_OPENGL_ES_API) */
	APP_API_GL_CORE,  /* desktop OpenGL, core profile */
	APP_API_GL_COMPAT, /* desktop OpenGL, compatibility profile (tests/fuzz) */
};

struct app_egl {
	EGLDisplay dpy;    /* initialised display, or EGL_NO_DISPLAY */
	EGLContext ctx;    /* current context, or EGL_NO_CONTEXT */
	EGLSurface surf;   /* pbuffer, or EGL_NO_SURFACE when surfaceless */
};

/*
 * Creates a display, a context of api at least major.minor and makes it
 * current; with pbuffer_size > 0 also a pbuffer_size^2 RGBA8 pbuffer.
 * Prints what went wrong and returns an enum app_exit: APP_EXIT_PASS on
 * success, APP_EXIT_SKIP when the platform, API or version is unavailable,
 * APP_EXIT_SETUP on other failures.  On failure everything created so far is
 * released again (app_egl_fini is still safe to call).
 */
int app_egl_init(struct app_egl *e, enum app_api api, int major, int minor,
		 int pbuffer_size);

/* Releases the context, surface and display.  Safe on a failed init. */
void app_egl_fini(struct app_egl *e);

#endif
