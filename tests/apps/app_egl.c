/*
 * app_egl.c - surfaceless EGL display + context for the tests/apps programs.
 * Contract: app_egl.h.  Extensions used: EGL_EXT_platform_base,
 * EGL_MESA_platform_surfaceless (else EGL_EXT_platform_device, the first
 * device: NVIDIA's headless EGL), EGL_KHR_create_context (or EGL 1.5),
 * EGL_KHR_surfaceless_context when no pbuffer is wanted.
 */
#include "app_egl.h"

#include <stdio.h>
#include <string.h>

#include <EGL/eglext.h>

#include "app_check.h"

/* Whole-word search in a space-separated extension string. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; p && (p = strstr(p, word)); p += n) {
		bool starts = p == list || p[-1] == ' ';
		bool ends = p[n] == '\0' || p[n] == ' ';
		if (starts && ends)
			return true;
	}
	return false;
}

static int fail(struct app_egl *e, int rc, const char *what)
{
	EGLint err = eglGetError();
	if (err != EGL_SUCCESS)
		fprintf(stderr, "EGL: %s (eglGetError 0x%04x)\n", what, (unsigned)err);
	else
		fprintf(stderr, "EGL: %s\n", what);
	app_egl_fini(e);
	return rc;
}

int app_egl_init(struct app_egl *e, enum app_api api, int major, int minor,
		 int pbuffer_size)
{
	e->dpy = EGL_NO_DISPLAY;
	e->ctx = EGL_NO_CONTEXT;
	e->surf = EGL_NO_SURFACE;

	const char *client_exts = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	if (!has_word(client_exts, "EGL_EXT_platform_base"))
		return fail(e, APP_EXIT_SKIP, "no EGL_EXT_platform_base");
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get_platform_display)
		return fail(e, APP_EXIT_SKIP, "eglGetPlatformDisplayEXT missing");

	if (has_word(client_exts, "EGL_MESA_platform_surfaceless"))
		e->dpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA,
					      EGL_DEFAULT_DISPLAY, NULL);
	if (e->dpy == EGL_NO_DISPLAY && has_word(client_exts, "EGL_EXT_platform_device")) {
		/* NVIDIA's EGL through glvnd, headless: the first device. */
		PFNEGLQUERYDEVICESEXTPROC query_devices =
			(PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
		EGLDeviceEXT dev;
		EGLint n = 0;
		if (query_devices && query_devices(1, &dev, &n) && n > 0)
			e->dpy = get_platform_display(EGL_PLATFORM_DEVICE_EXT, dev, NULL);
	}
	if (e->dpy == EGL_NO_DISPLAY)
		return fail(e, APP_EXIT_SKIP, "no surfaceless or device EGL display");
	EGLint egl_major, egl_minor;
	if (!eglInitialize(e->dpy, &egl_major, &egl_minor)) {
		e->dpy = EGL_NO_DISPLAY;
		return fail(e, APP_EXIT_SETUP, "eglInitialize failed");
	}

	const char *exts = eglQueryString(e->dpy, EGL_EXTENSIONS);
	bool egl15 = egl_major > 1 || (egl_major == 1 && egl_minor >= 5);
	if (!egl15 && !has_word(exts, "EGL_KHR_create_context"))
		return fail(e, APP_EXIT_SKIP, "no EGL_KHR_create_context");
	if (pbuffer_size <= 0 && !has_word(exts, "EGL_KHR_surfaceless_context"))
		return fail(e, APP_EXIT_SKIP, "no EGL_KHR_surfaceless_context");

	bool gles = api == APP_API_GLES;
	if (!eglBindAPI(gles ? EGL_OPENGL_ES_API : EGL_OPENGL_API))
		return fail(e, APP_EXIT_SKIP, gles ? "OpenGL ES API unavailable"
						   : "OpenGL API unavailable");

	const EGLint config_attribs[] = {
		EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
		EGL_RENDERABLE_TYPE, gles ? EGL_OPENGL_ES3_BIT_KHR : EGL_OPENGL_BIT,
		EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
		EGL_NONE,
	};
	EGLConfig config;
	EGLint n_configs = 0;
	if (!eglChooseConfig(e->dpy, config_attribs, &config, 1, &n_configs) ||
	    n_configs < 1)
		return fail(e, APP_EXIT_SKIP, "no RGBA8 pbuffer config for the API");

	EGLint ctx_attribs[7];
	int n_attribs = 0;
	ctx_attribs[n_attribs++] = EGL_CONTEXT_MAJOR_VERSION_KHR;
	ctx_attribs[n_attribs++] = major;
	ctx_attribs[n_attribs++] = EGL_CONTEXT_MINOR_VERSION_KHR;
	ctx_attribs[n_attribs++] = minor;
	if (!gles) {
		ctx_attribs[n_attribs++] = EGL_CONTEXT_OPENGL_PROFILE_MASK_KHR;
		ctx_attribs[n_attribs++] = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT_KHR;
	}
	ctx_attribs[n_attribs] = EGL_NONE;
	e->ctx = eglCreateContext(e->dpy, config, EGL_NO_CONTEXT, ctx_attribs);
	if (e->ctx == EGL_NO_CONTEXT) {
		char what[96];
		snprintf(what, sizeof what, "cannot create a %s %d.%d context",
			 gles ? "OpenGL ES" : "core profile OpenGL", major, minor);
		return fail(e, APP_EXIT_SKIP, what);
	}

	if (pbuffer_size > 0) {
		const EGLint surf_attribs[] = {
			EGL_WIDTH, pbuffer_size, EGL_HEIGHT, pbuffer_size, EGL_NONE,
		};
		e->surf = eglCreatePbufferSurface(e->dpy, config, surf_attribs);
		if (e->surf == EGL_NO_SURFACE)
			return fail(e, APP_EXIT_SETUP, "eglCreatePbufferSurface failed");
	}
	if (!eglMakeCurrent(e->dpy, e->surf, e->surf, e->ctx))
		return fail(e, APP_EXIT_SETUP, "eglMakeCurrent failed");
	return APP_EXIT_PASS;
}

void app_egl_fini(struct app_egl *e)
{
	if (e->dpy == EGL_NO_DISPLAY)
		return;
	eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	if (e->surf != EGL_NO_SURFACE)
		eglDestroySurface(e->dpy, e->surf);
	if (e->ctx != EGL_NO_CONTEXT)
		eglDestroyContext(e->dpy, e->ctx);
	eglTerminate(e->dpy);
	e->dpy = EGL_NO_DISPLAY;
	e->ctx = EGL_NO_CONTEXT;
	e->surf = EGL_NO_SURFACE;
}
