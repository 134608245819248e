/*
 * cap_test_egl.c - surfaceless EGL + GLES 3 setup for the capture's test
 * programs (see cap_test_egl.h); where the surfaceless platform is missing
 * (NVIDIA's EGL), the first EGL device (EGL_EXT_platform_device), so that
 * bench/ can run cap-bench on such a GPU.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cap_test_egl.h"
#include "cap_test_fbo.h"

void cap_test_egl_init(struct cap_test_egl *e)
{
	static const EGLint attribs[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
					   EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE };
	EGLint n = 0;

	e->dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (e->dpy == EGL_NO_DISPLAY || !eglInitialize(e->dpy, NULL, NULL)) {
		/* NVIDIA's EGL through glvnd, headless: the first device. */
		PFNEGLQUERYDEVICESEXTPROC query_devices =
			(PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
		EGLDeviceEXT dev;
		EGLint ndev = 0;
		e->dpy = EGL_NO_DISPLAY;
		if (query_devices && query_devices(1, &dev, &ndev) && ndev > 0)
			e->dpy = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, dev, NULL);
	}
	if (e->dpy == EGL_NO_DISPLAY || !eglInitialize(e->dpy, NULL, NULL)) {
		fprintf(stderr, "no surfaceless EGL display\n");
		exit(77);
	}
	if (!eglChooseConfig(e->dpy, attribs, &e->config, 1, &n) || n < 1) {
		fprintf(stderr, "no GLES 3 EGL config\n");
		exit(77);
	}
	eglBindAPI(EGL_OPENGL_ES_API);
}

EGLContext cap_test_egl_context(struct cap_test_egl *e)
{
	static const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	EGLContext ctx;

	eglBindAPI(EGL_OPENGL_ES_API);
	ctx = eglCreateContext(e->dpy, e->config, EGL_NO_CONTEXT, attribs);
	if (ctx == EGL_NO_CONTEXT) {
		fprintf(stderr, "cannot create a GLES 3 context\n");
		exit(77);
	}
	return ctx;
}

void cap_test_egl_make_current(struct cap_test_egl *e, EGLContext ctx)
{
	if (!eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
		fprintf(stderr, "eglMakeCurrent failed: 0x%x\n", eglGetError());
		exit(2);
	}
	if (ctx != EGL_NO_CONTEXT)
		cap_test_bind_fbo();
}

GLuint cap_test_tf_program(const char *vs, const char *const *varyings, int count)
{
	static const char *fs = "#version 300 es\nprecision mediump float;\n"
				"out vec4 c;\nvoid main() { c = vec4(1.0); }\n";
	GLuint p = glCreateProgram(), v = glCreateShader(GL_VERTEX_SHADER);
	GLuint f = glCreateShader(GL_FRAGMENT_SHADER);
	GLint ok = 0;
	char log[1024];

	glShaderSource(v, 1, &vs, NULL);
	glCompileShader(v);
	glShaderSource(f, 1, &fs, NULL);
	glCompileShader(f);
	glAttachShader(p, v);
	glAttachShader(p, f);
	glTransformFeedbackVaryings(p, count, varyings, GL_INTERLEAVED_ATTRIBS);
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		glGetProgramInfoLog(p, sizeof(log), NULL, log);
		fprintf(stderr, "link failed: %s\n", log);
		exit(2);
	}
	glDeleteShader(v);
	glDeleteShader(f);
	return p;
}

GLuint cap_test_tf_setup(struct cap_test_egl *e, const char *vs, const char *const *varyings,
			 int count, GLsizeiptr tf_bytes)
{
	GLuint vao, tfb;

	cap_test_egl_init(e);
	cap_test_egl_make_current(e, cap_test_egl_context(e));
	glUseProgram(cap_test_tf_program(vs, varyings, count));
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(1, &tfb);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, tf_bytes, NULL, GL_STREAM_READ);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
	glEnable(GL_RASTERIZER_DISCARD);
	return tfb;
}
