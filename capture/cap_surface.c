/*
 * cap_surface.c - what the replay needs to create a context's config and a
 * surface exactly as the application had them: the CONTEXT "config" and
 * "surface" events (docs/trace-format.md, "CONTEXT events").
 *
 * A config is an opaque handle of the capture's display, and its
 * EGL_CONFIG_ID / GLX_FBCONFIG_ID means nothing on the replay's display:
 * what carries over is its attributes (the sizes of its buffers and its
 * samples).  They are asked from the driver (eglGetConfigAttrib,
 * glXGetFBConfigAttrib, glXGetConfig for a glXCreateContext visual) when a
 * context or surface is created with that config, and recorded under
 * window-system-neutral keys, so that a GLX config maps onto an EGL one.
 * A surface's size is asked (eglQuerySurface, glXQueryDrawable) right after
 * its creation, when its handle is certainly valid: a window's size is known
 * nowhere else in the trace.  The queries are the driver's own, through
 * CAP_REAL; a failed one leaves its key out, and an EGL query's error is
 * taken back with eglGetError so that the application never sees it.
 *
 * GLX also renders into plain X windows that no GLX call created
 * (glXMakeCurrent(dpy, window, ctx), GLX 1.4 §3.3.7).  Their size comes
 * from Xlib's XGetGeometry, looked up in the process (GLX loaded Xlib), the
 * first time such a window is made current.  An EGL surface's size is
 * asked again at each make-current (eglQuerySurface, cheap and always
 * valid), so that a window resized since its creation is replayed at the
 * size it had when it was drawn into.  XGetGeometry of a GLX pbuffer
 * or GLX pixmap id would be an X protocol error, which by default ends the
 * application, so every GLX drawable id the capture saw created is kept
 * (`glx_drawables`, part of the capture's process state, under
 * cap_g.lock), and a drawable is asked only when it is not among them;
 * when the list is full nothing more is asked.
 */
#define CAP_WRAPPER_PROTOTYPES
#include <dlfcn.h>
#include <string.h>

#include "cap_state.h"
#include "glapi_attribs.h"
#include "trace_enc.h"

/* The recorded config keys and the attribute of each window system. */
static const struct {
	const char *key;
	int32_t egl, glx;
} config_keys[] = {
	{ "red", EGL_RED_SIZE_, GLX_RED_SIZE_ },
	{ "green", EGL_GREEN_SIZE_, GLX_GREEN_SIZE_ },
	{ "blue", EGL_BLUE_SIZE_, GLX_BLUE_SIZE_ },
	{ "alpha", EGL_ALPHA_SIZE_, GLX_ALPHA_SIZE_ },
	{ "depth", EGL_DEPTH_SIZE_, GLX_DEPTH_SIZE_ },
	{ "stencil", EGL_STENCIL_SIZE_, GLX_STENCIL_SIZE_ },
	{ "samples", EGL_SAMPLES_, GLX_SAMPLES_ },
	{ "id", EGL_CONFIG_ID_, GLX_FBCONFIG_ID_ },
};

#define NKEYS (sizeof config_keys / sizeof config_keys[0])

/* Attribute `k` of `config`; false when the driver does not answer. */
static bool config_attrib(enum cap_config_kind kind, uint64_t dpy, uint64_t config, size_t k,
			  int64_t *out)
{
	switch (kind) {
	case CAP_CONFIG_EGL: {
		cap_pfn_eglGetConfigAttrib get = CAP_REAL(eglGetConfigAttrib);
		cap_pfn_eglGetError err = CAP_REAL(eglGetError);
		EGLint v = 0;
		if (!get)
			return false;
		if (!get((EGLDisplay)(uintptr_t)dpy, (EGLConfig)(uintptr_t)config,
			 config_keys[k].egl, &v)) {
			if (err)
				err();
			return false;
		}
		*out = v;
		return true;
	}
	case CAP_CONFIG_GLX_FB: {
		cap_pfn_glXGetFBConfigAttrib get = CAP_REAL(glXGetFBConfigAttrib);
		int v = 0;
		if (!get || get((Display *)(uintptr_t)dpy, (GLXFBConfig)(uintptr_t)config,
				config_keys[k].glx, &v) != 0)
			return false;
		*out = v;
		return true;
	}
	case CAP_CONFIG_GLX_VISUAL: {
		cap_pfn_glXGetConfig get = CAP_REAL(glXGetConfig);
		int v = 0;
		/* A visual has no GLX_FBCONFIG_ID. */
		if (!get || config_keys[k].glx == GLX_FBCONFIG_ID_ ||
		    get((Display *)(uintptr_t)dpy, (XVisualInfo *)(uintptr_t)config,
			config_keys[k].glx, &v) != 0)
			return false;
		*out = v;
		return true;
	}
	}
	return false;
}

void cap_surface_config(struct cap_thread *t, uint64_t seq, uint64_t dpy, uint64_t config,
			enum cap_config_kind kind)
{
	int64_t v[NKEYS];
	bool have[NKEYS];
	size_t n = 0;
	uint8_t *p, *s;

	if (!config)
		return;
	for (size_t k = 0; k < NKEYS; k++) {
		have[k] = config_attrib(kind, dpy, config, k, &v[k]);
		n += have[k];
	}
	p = s = cap_reserve(t, 256);
	if (!p)
		return;
	p = trace_enc_map(p, 3 + n);
	p = trace_enc_key(p, "event");
	p = trace_enc_string(p, "config", 6);
	p = trace_enc_key(p, "config");
	p = trace_enc_handle(p, config);
	p = trace_enc_key(p, "window_system");
	p = trace_enc_string(p, kind == CAP_CONFIG_EGL ? "egl" : "glx", 3);
	for (size_t k = 0; k < NKEYS; k++) {
		if (!have[k])
			continue;
		p = trace_enc_key(p, config_keys[k].key);
		p = trace_enc_sint(p, v[k]);
	}
	cap_commit(t, TRACE_REC_CONTEXT, TRACE_RECF_ATTACHED, seq, (size_t)(p - s));
}

/* CONTEXT "surface" of `surface`, attached to call `seq`; the size only
 * when `sized`. */
static void write_surface(struct cap_thread *t, uint64_t seq, uint64_t surface, uint64_t config,
			  bool sized, uint64_t w, uint64_t h)
{
	uint8_t *p = cap_reserve(t, 128), *s = p;

	if (!p)
		return;
	p = trace_enc_map(p, sized ? 5 : 3);
	p = trace_enc_key(p, "event");
	p = trace_enc_string(p, "surface", 7);
	p = trace_enc_key(p, "surface");
	p = trace_enc_handle(p, surface);
	p = trace_enc_key(p, "config");
	p = trace_enc_handle(p, config);
	if (sized) {
		p = trace_enc_key(p, "width");
		p = trace_enc_uint(p, w);
		p = trace_enc_key(p, "height");
		p = trace_enc_uint(p, h);
	}
	cap_commit(t, TRACE_REC_CONTEXT, TRACE_RECF_ATTACHED, seq, (size_t)(p - s));
}

/* GLX drawable ids created through GLX or already sized (see above). */
static uint64_t glx_drawables[1024];
static unsigned glx_ndrawables;
static bool glx_drawables_full;

/* Adds `xid`; returns false if it was there already (or the list is full). */
static bool glx_drawable_add(uint64_t xid)
{
	bool added = false;

	pthread_mutex_lock(&cap_g.lock);
	for (unsigned i = 0; i < glx_ndrawables; i++)
		if (glx_drawables[i] == xid)
			goto out;
	if (glx_ndrawables == sizeof glx_drawables / sizeof glx_drawables[0]) {
		glx_drawables_full = true;
		goto out;
	}
	glx_drawables[glx_ndrawables++] = xid;
	added = true;
out:
	pthread_mutex_unlock(&cap_g.lock);
	return added;
}

typedef int (*xgetgeometry_fn)(void *dpy, unsigned long d, unsigned long *root, int *x, int *y,
			       unsigned int *w, unsigned int *h, unsigned int *border,
			       unsigned int *depth);

void cap_surface_glx_current(struct cap_thread *t, uint64_t seq, uint64_t dpy, uint64_t xid)
{
	xgetgeometry_fn geometry;
	unsigned long root = 0;
	int x = 0, y = 0;
	unsigned int w = 0, h = 0, border = 0, depth = 0;
	bool full;

	pthread_mutex_lock(&cap_g.lock);
	full = glx_drawables_full;
	pthread_mutex_unlock(&cap_g.lock);
	if (!xid || full || !glx_drawable_add(xid))
		return;
	geometry = (xgetgeometry_fn)dlsym(RTLD_DEFAULT, "XGetGeometry");
	if (!geometry || !geometry((void *)(uintptr_t)dpy, (unsigned long)xid, &root, &x, &y, &w, &h,
				   &border, &depth) || !w || !h)
		return;
	write_surface(t, seq, xid, 0, true, w, h);
}

/* The size of a surface just created; false when the driver does not say. */
bool cap_surface_size(bool glx, uint64_t dpy, uint64_t surface, int64_t *w, int64_t *h)
{
	if (glx) {
		cap_pfn_glXQueryDrawable q = CAP_REAL(glXQueryDrawable);
		unsigned int gw = 0, gh = 0;
		if (!q)
			return false;
		q((Display *)(uintptr_t)dpy, (GLXDrawable)surface, GLX_WIDTH_, &gw);
		q((Display *)(uintptr_t)dpy, (GLXDrawable)surface, GLX_HEIGHT_, &gh);
		*w = gw;
		*h = gh;
		return gw && gh;
	}
	cap_pfn_eglQuerySurface q = CAP_REAL(eglQuerySurface);
	cap_pfn_eglGetError err = CAP_REAL(eglGetError);
	EGLint ew = 0, eh = 0;
	if (!q)
		return false;
	if (!q((EGLDisplay)(uintptr_t)dpy, (EGLSurface)(uintptr_t)surface, EGL_WIDTH_, &ew) ||
	    !q((EGLDisplay)(uintptr_t)dpy, (EGLSurface)(uintptr_t)surface, EGL_HEIGHT_, &eh)) {
		if (err)
			err();
		return false;
	}
	*w = ew;
	*h = eh;
	return true;
}

void cap_surface_post(struct cap_thread *t, struct cap_call *c)
{
	const union cap_arg *a = c->a;
	const bool glx = c->fid == CAP_F_glXCreatePbuffer || c->fid == CAP_F_glXCreateWindow ||
			 c->fid == CAP_F_glXCreatePixmap;
	int64_t w = 0, h = 0;
	bool sized;

	if (!c->ret.u)
		return;
	if (c->fid == CAP_F_glXCreateGLXPixmap || c->fid == CAP_F_glXCreateGLXPbufferSGIX ||
	    c->fid == CAP_F_glXCreateGLXPixmapWithConfigSGIX) {
		glx_drawable_add(c->ret.u);  /* never a window: not to be asked */
		return;
	}
	if (glx)
		glx_drawable_add(c->ret.u);
	cap_surface_config(t, c->seq, a[0].u, a[1].u, glx ? CAP_CONFIG_GLX_FB : CAP_CONFIG_EGL);
	sized = cap_surface_size(glx, a[0].u, c->ret.u, &w, &h);
	write_surface(t, c->seq, c->ret.u, a[1].u, sized, (uint64_t)w, (uint64_t)h);
}

void cap_surface_egl_current(struct cap_thread *t, uint64_t seq, uint64_t dpy, uint64_t surface)
{
	int64_t w = 0, h = 0;

	if (surface && cap_surface_size(false, dpy, surface, &w, &h))
		write_surface(t, seq, surface, 0, true, (uint64_t)w, (uint64_t)h);
}
