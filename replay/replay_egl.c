/*
 * replay_egl.c - EGL and GLX calls, replayed by what they mean rather than
 * literally (replay/README.md, "Contexts").
 *
 * The replay opens one surfaceless EGL display (EGL_PLATFORM_SURFACELESS_MESA
 * through eglGetPlatformDisplayEXT): no window system is needed.  Contexts
 * are created from the trace's CONTEXT "create" records, which carry what
 * the capture saw requested (API, version, profile, flags, share context)
 * for EGL and GLX alike, so a GLX context becomes an EGL context of the same
 * API, version and profile, on the config the trace names: none for a
 * config-less context (EGL_KHR_no_config_context, EGL_NO_CONFIG_KHR), else
 * the replay display's config with exactly the buffer sizes of the
 * recorded one (CONTEXT "config" events: the recorded config's attributes;
 * a recorded EGL_CONFIG_ID means nothing on another display).  Traces
 * without them fall back on re-running eglChooseConfig with the recorded
 * attributes.  Every surface (EGL pbuffer, window or pixmap surface, GLX
 * pbuffer, window, pixmap or plain X window) becomes a pbuffer of its
 * recorded config and size (the creation call's attributes, or CONTEXT
 * "surface" events, which carry a window's size), created when a recorded
 * thread first makes it current; only a drawable whose size the trace does
 * not hold gets REPLAY_DEFAULT_SURFACE_SIZE pixels (replay_host.h).  A destroyed surface's handle may be
 * handed out again by the driver: the next creation makes a new surface.
 * CONTEXT "current" records set what each recorded thread has current; the
 * switch itself happens before that thread's next GL call
 * (host_make_current).  Swaps are frame markers.  EGL / GLX queries have no
 * effect on GL state and are not executed; any other EGL / GLX call is
 * reported as not replayable.
 */
#include <stdio.h>
#include <string.h>

#include "glapi_attribs.h"
#include "replay_host.h"
#include "xt_fault.h"
#include "xt_log.h"


/* EGL / GLX calls that change nothing a replay needs. */
static const char *const no_effect[] = {
	"eglBindAPI", "eglGetConfigAttrib", "eglGetConfigs", "eglGetCurrentContext",
	"eglGetCurrentDisplay", "eglGetCurrentSurface", "eglGetDisplay", "eglGetError",
	"eglGetPlatformDisplay", "eglGetPlatformDisplayEXT", "eglGetProcAddress",
	"eglInitialize", "eglQueryAPI", "eglQueryContext", "eglQueryDevicesEXT",
	"eglQueryDeviceAttribEXT", "eglQueryDeviceStringEXT", "eglQueryDisplayAttribEXT",
	"eglQueryDmaBufFormatsEXT", "eglQueryDmaBufModifiersEXT", "eglQueryString",
	"eglQuerySurface", "eglReleaseThread", "eglSurfaceAttrib", "eglSwapInterval",
	"eglTerminate", "eglWaitClient", "eglWaitGL", "eglWaitNative",
	"eglCreateContext", "eglDestroyContext", "eglMakeCurrent",
	"glXChooseFBConfig", "glXChooseVisual", "glXGetClientString", "glXGetConfig",
	"glXGetCurrentContext", "glXGetCurrentDisplay", "glXGetCurrentDrawable",
	"glXGetCurrentReadDrawable", "glXGetFBConfigAttrib", "glXGetFBConfigs",
	"glXGetProcAddress", "glXGetProcAddressARB", "glXGetVisualFromFBConfig",
	"glXIsDirect", "glXQueryContext", "glXQueryDrawable", "glXQueryExtension",
	"glXQueryExtensionsString", "glXQueryServerString", "glXQueryVersion",
	"glXSwapIntervalEXT", "glXSwapIntervalMESA", "glXSwapIntervalSGI", "glXWaitGL",
	"glXWaitX", "glXCreateContext", "glXCreateNewContext", "glXCreateContextAttribsARB",
	"glXDestroyContext", "glXMakeCurrent", "glXMakeContextCurrent",
	"glXCreateGLXPixmap", "glXDestroyGLXPixmap", "eglGetDisplayDriverName",
	"eglGetDisplayDriverConfig",
};

/* The recorded config keys (CONTEXT "config") and their EGL attributes. */
static const struct { const char *key; EGLint egl; } config_keys[7] = {
	{ "red", EGL_RED_SIZE }, { "green", EGL_GREEN_SIZE }, { "blue", EGL_BLUE_SIZE },
	{ "alpha", EGL_ALPHA_SIZE }, { "depth", EGL_DEPTH_SIZE }, { "stencil", EGL_STENCIL_SIZE },
	{ "samples", EGL_SAMPLES },
};


enum xt_rc host_egl_open(struct host *h, struct xt_err *err)
{
	static const EGLint cfg_attribs[] = {
		EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
		EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8,
		EGL_NONE,
	};
	EGLint major = 0, minor = 0, n = 0;

	if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless"))
		return XT_FAIL(err, XT_ERR_UNSUPPORTED,
			       "EGL has no EGL_MESA_platform_surfaceless: the host backend "
			       "needs Mesa's surfaceless platform");
	h->dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (h->dpy == EGL_NO_DISPLAY || !eglInitialize(h->dpy, &major, &minor))
		return XT_FAIL(err, XT_ERR_UNSUPPORTED,
			       "cannot open a surfaceless EGL display (EGL error 0x%x)", eglGetError());
	if (!eglChooseConfig(h->dpy, cfg_attribs, &h->config, 1, &n) || n < 1)
		h->config = EGL_NO_CONFIG_KHR;
	h->no_config = epoxy_has_egl_extension(h->dpy, "EGL_KHR_no_config_context");
	return XT_OK;
}

void host_egl_close(struct host *h)
{
	if (h->dpy == EGL_NO_DISPLAY || !h->dpy)
		return;
	eglMakeCurrent(h->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	for (size_t i = 0; i < h->nctx; i++) {
		if (h->ctx[i]->egl != EGL_NO_CONTEXT)
			eglDestroyContext(h->dpy, h->ctx[i]->egl);
		xt_free(h->ctx[i]);
	}
	for (size_t i = 0; i < h->nsurf; i++)
		if (h->surf[i].egl != EGL_NO_SURFACE)
			eglDestroySurface(h->dpy, h->surf[i].egl);
	eglTerminate(h->dpy);
	xt_free(h->ctx);
	xt_free(h->surf);
	xt_free(h->cfg);
	xt_free(h->threads);
}

struct host_thread *host_thread(struct host *h, uint32_t thread_no)
{
	for (size_t i = 0; i < h->nthreads; i++)
		if (h->threads[i].no == thread_no)
			return &h->threads[i];
	struct host_thread *n = xt_realloc(h->threads, (h->nthreads + 1) * sizeof *n);
	if (!n)
		return NULL;
	h->threads = n;
	n[h->nthreads] = (struct host_thread){ .no = thread_no, .draw = EGL_NO_SURFACE,
					       .read = EGL_NO_SURFACE };
	return &h->threads[h->nthreads++];
}

static struct host_ctx *ctx_find(struct host *h, uint64_t handle)
{
	for (size_t i = h->nctx; i-- > 0;)
		if (h->ctx[i]->handle == handle)
			return h->ctx[i];
	return NULL;
}

static void report(struct replay *rp, const struct trace_call *call, uint64_t call_no,
		   const char *why)
{
	if (call)
		replay_unsupported(rp, call, why);
	else
		xt_warn("replay: call %llu: %s", (unsigned long long)call_no, why);
}

/* The newest entry of a recorded config, NULL if none. */
static struct host_config *config_entry(struct host *h, uint64_t handle)
{
	for (size_t i = h->ncfg; i-- > 0;)
		if (h->cfg[i].handle == handle)
			return &h->cfg[i];
	return NULL;
}

static struct host_config *config_add(struct host *h, uint64_t handle)
{
	struct host_config *n = xt_realloc(h->cfg, (h->ncfg + 1) * sizeof *n);

	if (!n)
		return NULL;
	h->cfg = n;
	n[h->ncfg] = (struct host_config){ .handle = handle, .egl = h->config };
	return &n[h->ncfg++];
}

/*
 * Maps a config of recorded attributes onto the replay display's: the
 * first pbuffer config eglChooseConfig gives for at least those sizes
 * (EGL 1.5 §3.4.1.2) that has exactly them.  When there is none, the
 * first one given (or the default) is used and that is reported, since
 * what a draw writes into a buffer of other sizes may differ.
 */
static void config_map(struct host *h, struct replay *rp, const struct trace_call *call,
		       uint64_t call_no, struct host_config *c)
{
	EGLint list[2 * 8 + 1], got = 0;
	EGLConfig cand[128];
	int n = 0;
	char why[200];

	c->mapped = true;
	list[n++] = EGL_SURFACE_TYPE;
	list[n++] = EGL_PBUFFER_BIT;
	for (int k = 0; k < 7; k++) {
		if (c->size[k] < 0)
			continue;
		list[n++] = config_keys[k].egl;
		list[n++] = (EGLint)c->size[k];
	}
	list[n] = EGL_NONE;
	if (!eglChooseConfig(h->dpy, list, cand, 128, &got))
		got = 0;
	for (EGLint i = 0; i < got; i++) {
		bool exact = true;
		for (int k = 0; k < 7 && exact; k++) {
			EGLint v = 0;
			if (c->size[k] >= 0 && (!eglGetConfigAttrib(h->dpy, cand[i], config_keys[k].egl, &v) ||
						v != c->size[k]))
				exact = false;
		}
		if (exact) {
			c->egl = cand[i];
			return;
		}
	}
	c->egl = got > 0 ? cand[0] : h->config;
	snprintf(why, sizeof why, "the replay's display has no pbuffer config of the recorded "
		 "sizes (RGBA %lld %lld %lld %lld, depth %lld, stencil %lld, samples %lld): "
		 "replayed on %s", (long long)c->size[0], (long long)c->size[1],
		 (long long)c->size[2], (long long)c->size[3], (long long)c->size[4],
		 (long long)c->size[5], (long long)c->size[6],
		 got > 0 ? "the nearest larger one" : "the default one");
	report(rp, call, call_no, why);
}

/* The replay display's config for recorded config `handle` (0 or unknown:
 * the default one). */
static EGLConfig config_of(struct host *h, struct replay *rp, const struct trace_call *call,
			   uint64_t call_no, uint64_t handle)
{
	struct host_config *c = handle ? config_entry(h, handle) : NULL;

	if (!c)
		return h->config;
	if (c->recorded && !c->mapped)
		config_map(h, rp, call, call_no, c);
	return c->egl;
}

/* CONTEXT "config": the attributes of a recorded config. */
static enum xt_rc config_event(struct host *h, uint64_t call_no, const struct trace_value *ev,
			       struct xt_err *err)
{
	const uint64_t handle = host_value_uint(ev, "config");
	struct host_config *c = handle ? config_entry(h, handle) : NULL;
	int64_t size[7];

	for (int k = 0; k < 7; k++) {
		const struct trace_value *v = trace_value_get(ev, config_keys[k].key);
		size[k] = !v ? -1 : v->tag == TRACE_TAG_SINT ? v->i : v->tag == TRACE_TAG_UINT ?
			  (int64_t)v->u : -2;
		if (size[k] < -1 || size[k] > 1024)
			return XT_FAIL(err, XT_ERR_CORRUPT, "call %llu: config attribute %s",
				       (unsigned long long)call_no, config_keys[k].key);
	}
	if (!handle || (c && c->recorded && !memcmp(c->size, size, sizeof size)))
		return XT_OK;
	c = config_add(h, handle);
	if (!c)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a config");
	c->recorded = true;
	memcpy(c->size, size, sizeof size);
	return XT_OK;
}

/* The live surface of a recorded handle, NULL if none. */
static struct host_surface *surface_live(struct host *h, uint64_t handle)
{
	for (size_t i = h->nsurf; i-- > 0;)
		if (h->surf[i].handle == handle && !h->surf[i].dead)
			return &h->surf[i];
	return NULL;
}

/* A new surface of a recorded handle; one the handle had is taken as
 * destroyed (the driver handed the handle out again). */
static struct host_surface *surface_new(struct host *h, uint64_t handle, uint64_t config)
{
	struct host_surface *old = surface_live(h, handle);
	struct host_surface *n;

	if (old)
		old->dead = true;
	n = xt_realloc(h->surf, (h->nsurf + 1) * sizeof *n);
	if (!n)
		return NULL;
	h->surf = n;
	n[h->nsurf] = (struct host_surface){ .handle = handle, .egl = EGL_NO_SURFACE,
					     .config = config, .attribs = { EGL_NONE } };
	return &n[h->nsurf++];
}

/* The pbuffer of surface `s`, created at its first use: its recorded
 * config (or the context's, for a drawable created elsewhere), its
 * recorded size and attributes. */
static EGLSurface surface_realize(struct host *h, struct replay *rp, const struct trace_call *call,
				  uint64_t call_no, struct host_surface *s, const struct host_ctx *x)
{
	EGLint a[4 + 32 + 1];
	int n = 0;
	EGLConfig cfg;
	char why[160];

	if (s->created)
		return s->egl;
	s->created = true;
	cfg = config_of(h, rp, call, call_no, s->config ? s->config : x ? x->config : 0);
	if (cfg == EGL_NO_CONFIG_KHR)
		cfg = h->config;
	if (!s->width || !s->height)
		xt_info("replay: call %llu: the size of drawable 0x%llx is not in the trace: "
			"a %dx%d pbuffer", (unsigned long long)call_no, (unsigned long long)s->handle,
			REPLAY_DEFAULT_SURFACE_SIZE, REPLAY_DEFAULT_SURFACE_SIZE);
	a[n++] = EGL_WIDTH;
	a[n++] = s->width && s->height ? s->width : REPLAY_DEFAULT_SURFACE_SIZE;
	a[n++] = EGL_HEIGHT;
	a[n++] = s->width && s->height ? s->height : REPLAY_DEFAULT_SURFACE_SIZE;
	for (int i = 0; s->attribs[i] != EGL_NONE && i + 1 < 32; i += 2) {
		a[n++] = s->attribs[i];
		a[n++] = s->attribs[i + 1];
	}
	a[n] = EGL_NONE;
	s->egl = eglCreatePbufferSurface(h->dpy, cfg, a);
	if (s->egl == EGL_NO_SURFACE) {
		snprintf(why, sizeof why, "cannot create the %dx%d pbuffer of surface 0x%llx "
			 "(EGL error 0x%x): replayed without it", a[1], a[3],
			 (unsigned long long)s->handle, eglGetError());
		report(rp, call, call_no, why);
	}
	return s->egl;
}

/* The surface of a recorded handle made current with context x; one the
 * trace did not create (a plain X window) gets x's config. */
static EGLSurface surface_of(struct host *h, struct replay *rp, const struct trace_call *call,
			     uint64_t call_no, uint64_t handle, const struct host_ctx *x)
{
	struct host_surface *s;

	if (!handle)
		return EGL_NO_SURFACE;
	s = surface_live(h, handle);
	if (!s)
		s = surface_new(h, handle, 0);
	return s ? surface_realize(h, rp, call, call_no, s, x) : EGL_NO_SURFACE;
}

/* CONTEXT "surface": a new surface's config and size as the driver gave them. */
static enum xt_rc surface_event(struct host *h, uint64_t call_no, const struct trace_value *ev,
				struct xt_err *err)
{
	const uint64_t handle = host_value_uint(ev, "surface");
	const uint64_t config = host_value_uint(ev, "config");
	const uint64_t w = host_value_uint(ev, "width"), hh = host_value_uint(ev, "height");
	struct host_surface *s = surface_live(h, handle);

	if (w > REPLAY_MAX_SURFACE_SIZE || hh > REPLAY_MAX_SURFACE_SIZE)
		return XT_FAIL(err, XT_ERR_CORRUPT, "call %llu: surface size %llux%llu",
			       (unsigned long long)call_no, (unsigned long long)w,
			       (unsigned long long)hh);
	if (s && s->created) {
		/* The size at a make-current (EGL): the same surface as it was,
		 * or a window resized since: a pbuffer of its new size. */
		const uint64_t was = s->config;
		if (!w || !hh || (s->width == (EGLint)w && s->height == (EGLint)hh))
			return XT_OK;
		s = surface_new(h, handle, config ? config : was);
	} else if (!s) {
		s = surface_new(h, handle, config);
	}
	if (!s)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a surface");
	if (config)
		s->config = config;
	if (w && hh) {
		s->width = (EGLint)w;
		s->height = (EGLint)hh;
	}
	return XT_OK;
}

bool host_make_current(struct host *h, struct host_thread *t)
{
	struct host_ctx *x = t->ctx;

	if (!x || x->egl == EGL_NO_CONTEXT)
		return false;
	if (h->bound == x && h->bound_draw == t->draw && h->bound_read == t->read)
		return true;
	if (!eglMakeCurrent(h->dpy, t->draw, t->read, x->egl)) {
		/* A surface the context cannot use: go surfaceless. */
		if (!eglMakeCurrent(h->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, x->egl))
			return false;
		t->draw = t->read = EGL_NO_SURFACE;
	}
	h->bound = x;
	h->bound_draw = t->draw;
	h->bound_read = t->read;
	if (!x->version_known) {
		/* The version the driver gave: what observations depend on. */
		x->version_known = true;
		x->gles = !epoxy_is_desktop_gl();
		x->major = epoxy_gl_version() / 10;
		x->minor = epoxy_gl_version() % 10;
	}
	return true;
}

bool host_value_str_is(const struct trace_value *map, const char *key, const char *want)
{
	const struct trace_value *v = trace_value_get(map, key);

	return v && v->tag == TRACE_TAG_STRING && v->mem.len == strlen(want) &&
	       !memcmp(v->mem.bytes, want, v->mem.len);
}

uint64_t host_value_uint(const struct trace_value *map, const char *key)
{
	const struct trace_value *v = trace_value_get(map, key);

	return v && (v->tag == TRACE_TAG_UINT || v->tag == TRACE_TAG_HANDLE) ? v->u : 0;
}

static enum xt_rc context_create(struct host *h, struct replay *rp, const struct trace_call *call,
				 uint64_t call_no, const struct trace_value *ev, struct xt_err *err)
{
	const uint64_t handle = host_value_uint(ev, "context"), share = host_value_uint(ev, "share");
	const bool gles = host_value_str_is(ev, "api", "gles");
	const bool core = host_value_str_is(ev, "profile", "core");
	const uint64_t major = host_value_uint(ev, "major"), minor = host_value_uint(ev, "minor");
	const uint64_t flags = host_value_uint(ev, "flags");
	struct host_ctx *sx = share ? ctx_find(h, share) : NULL;
	/* Traces before the "config" key: the creation call's argument. */
	const uint64_t config = trace_value_get(ev, "config") ? host_value_uint(ev, "config")
							      : h->create_config;
	EGLConfig cfg;
	EGLint attribs[16];
	int n = 0;

	if (major > 99 || minor > 99)
		return XT_FAIL(err, XT_ERR_CORRUPT, "call %llu: context version %llu.%llu",
			       (unsigned long long)call_no, (unsigned long long)major,
			       (unsigned long long)minor);
	attribs[n++] = EGL_CONTEXT_MAJOR_VERSION;
	attribs[n++] = (EGLint)(major ? major : 1);
	attribs[n++] = EGL_CONTEXT_MINOR_VERSION;
	attribs[n++] = (EGLint)minor;
	if (!gles && (major > 3 || (major == 3 && minor >= 2))) {
		attribs[n++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
		attribs[n++] = core ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
				    : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
	}
	/* The recorded flags are EGL_KHR_create_context's bits (debug 1,
	 * forward-compatible 2, robust 4), passed as EGL_CONTEXT_FLAGS_KHR as
	 * applications do: the EGL 1.5 boolean attributes are refused by an
	 * EGL 1.4 display (Mesa's with LIBGL_ALWAYS_SOFTWARE=1). */
	const EGLint khr_flags = (EGLint)((flags & 5) | (gles ? 0 : flags & 2));
	if (khr_flags) {
		attribs[n++] = EGL_CONTEXT_FLAGS_KHR;
		attribs[n++] = khr_flags;
	}
	attribs[n] = EGL_NONE;

	struct host_ctx *x = xt_calloc(1, sizeof *x);
	struct host_ctx **list = x ? xt_realloc(h->ctx, (h->nctx + 1) * sizeof *list) : NULL;
	if (!list) {
		xt_free(x);
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a context");
	}
	h->ctx = list;
	list[h->nctx++] = x;
	x->handle = handle;
	x->gles = gles;
	x->major = (int)major;
	x->minor = (int)minor;
	x->ns = (uint32_t)h->nctx;
	x->share_ns = sx ? sx->share_ns : x->ns;
	x->config = config;
	/* A config-less context is created config-less where the display
	 * can (EGL_KHR_no_config_context): it is compatible with every
	 * surface, as the application's was. */
	cfg = config || !h->no_config ? config_of(h, rp, call, call_no, config) : EGL_NO_CONFIG_KHR;
	eglBindAPI(gles ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
	x->egl = eglCreateContext(h->dpy, cfg, sx ? sx->egl : EGL_NO_CONTEXT, attribs);
	/* A driver with a lower version (softpipe: GL 3.3) still replays
	 * what it can, on the highest version below the requested one; the
	 * downgrade is reported and differences follow from it. */
	for (int v = (int)(major * 10 + minor) - 1; x->egl == EGL_NO_CONTEXT && v >= 10; v--) {
		if (v % 10 > 6)
			continue;
		attribs[1] = v / 10;
		attribs[3] = v % 10;
		x->egl = eglCreateContext(h->dpy, cfg, sx ? sx->egl : EGL_NO_CONTEXT, attribs);
		if (x->egl != EGL_NO_CONTEXT) {
			char why[128];
			snprintf(why, sizeof why, "the driver has no %s %d.%d context: replayed on "
				 "%d.%d", gles ? "GLES" : core ? "GL core" : "GL", (int)major,
				 (int)minor, v / 10, v % 10);
			if (call)
				replay_unsupported(rp, call, why);
			else
				xt_warn("replay: call %llu: %s", (unsigned long long)call_no, why);
		}
	}
	if (x->egl == EGL_NO_CONTEXT)
		return XT_FAIL(err, XT_ERR_UNSUPPORTED,
			       "call %llu: the driver cannot create a %s %llu.%llu %s context "
			       "(EGL error 0x%x)", (unsigned long long)call_no, gles ? "GLES" : "GL",
			       (unsigned long long)major, (unsigned long long)minor,
			       gles ? "" : core ? "core" : "compatibility", eglGetError());
	return XT_OK;
}

enum xt_rc host_egl_context(struct host *h, struct replay *rp, const struct trace_call *call,
			    uint64_t call_no, const struct trace_value *ev, struct xt_err *err)
{
	if (host_value_str_is(ev, "event", "create"))
		return context_create(h, rp, call, call_no, ev, err);
	if (host_value_str_is(ev, "event", "current")) {
		struct host_thread *t = host_thread(h, call ? call->thread_no : 0);
		uint64_t handle = host_value_uint(ev, "context");
		if (!t)
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a thread");
		t->ctx = handle ? ctx_find(h, handle) : NULL;
		t->draw = surface_of(h, rp, call, call_no, host_value_uint(ev, "draw"), t->ctx);
		t->read = surface_of(h, rp, call, call_no, host_value_uint(ev, "read"), t->ctx);
		if (handle && !t->ctx)
			xt_warn("replay: call %llu makes current a context the trace never created",
				(unsigned long long)call_no);
		return XT_OK;
	}
	if (host_value_str_is(ev, "event", "config"))
		return config_event(h, call_no, ev, err);
	if (host_value_str_is(ev, "event", "surface"))
		return surface_event(h, call_no, ev, err);
	if (host_value_str_is(ev, "event", "destroy")) {
		struct host_ctx *x = ctx_find(h, host_value_uint(ev, "context"));
		bool last = x != NULL;
		if (x)
			x->destroyed = true;   /* its EGL context lives until the end */
		for (size_t i = 0; x && i < h->nctx; i++)
			if (h->ctx[i]->share_ns == x->share_ns && !h->ctx[i]->destroyed)
				last = false;
		/* The application's buffers, and its mappings of them, went with
		 * the last context of the share group: later MEMWRITEs at the
		 * same addresses are another buffer's. */
		if (last)
			replay_mem_unmap_high(h->mem, x->share_ns);
	}
	return XT_OK;
}

/* The recorded handles of eglChooseConfig's output configs. */
static void choose_config(struct host *h, const struct trace_call *call,
			  const struct trace_ret *ret)
{
	const struct trace_value *attr = call->nargs > 1 ? &call->args[1] : NULL;
	EGLint list[256], got = 0;
	EGLConfig cfg[64];
	size_t n = 0;

	if (attr && attr->tag == TRACE_TAG_MEMORY) {
		for (size_t i = 0; i + 8 <= attr->mem.len && n + 3 < 256; i += 8) {
			int32_t kv[2];
			memcpy(kv, attr->mem.bytes + i, 8);
			if (kv[0] == EGL_NONE)
				break;
			if (kv[0] == EGL_SURFACE_TYPE)
				kv[1] = EGL_PBUFFER_BIT;
			if (kv[0] == EGL_NATIVE_RENDERABLE || kv[0] == EGL_NATIVE_VISUAL_TYPE)
				continue;
			list[n++] = kv[0];
			list[n++] = kv[1];
		}
	}
	list[n] = EGL_NONE;
	if (!eglChooseConfig(h->dpy, list, cfg, 64, &got))
		got = 0;
	for (uint32_t k = 0; ret && k < ret->nouts; k++) {
		const struct trace_value *v = &ret->outs[k];
		if (ret->out_index[k] != 2 || v->tag != TRACE_TAG_MEMORY)
			continue;
		for (size_t i = 0; i + 8 <= v->mem.len; i += 8) {
			uint64_t handle;
			memcpy(&handle, v->mem.bytes + i, 8);
			struct host_config *nc = config_entry(h, handle);
			if (nc && nc->recorded)
				continue;   /* known by its attributes */
			if (!nc && !(nc = config_add(h, handle)))
				return;
			nc->egl = got > 0 ? cfg[(i / 8) < (size_t)got ? i / 8 : 0] : h->config;
		}
	}
}

static bool is(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

static uint64_t handle_arg(const struct trace_call *call, uint32_t i)
{
	return i < call->nargs && call->args[i].tag == TRACE_TAG_HANDLE ? call->args[i].u : 0;
}

enum xt_rc host_egl_call(struct host *h, struct replay *rp, const struct trace_call *call,
			 const struct trace_ret *ret, int id, struct xt_err *err)
{
	const char *name = call->name;
	const uint64_t result = ret && ret->ret.tag == TRACE_TAG_HANDLE ? ret->ret.u : 0;

	if (is(name, "eglCreateContext") || is(name, "eglCreateContextAttribsKHR"))
		h->create_config = handle_arg(call, 1);
	if (is(name, "eglChooseConfig")) {
		choose_config(h, call, ret);
	} else if (is(name, "eglCreatePbufferSurface") || is(name, "glXCreatePbuffer")) {
		const bool glx = name[0] == 'g';
		const struct trace_value *a = call->nargs > 2 ? &call->args[2] : NULL;
		struct host_surface *s = result ? surface_new(h, result, handle_arg(call, 1)) : NULL;
		int k = 0;
		if (result && !s)
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a surface");
		/* EGL_NONE- (GLX: None-) terminated pairs (EGL 1.5 §3.5.2,
		 * GLX 1.4 §3.3.5); the size is kept apart, GLX's other
		 * attributes (largest, preserved contents) change no pixel. */
		for (size_t i = 0; s && a && a->tag == TRACE_TAG_MEMORY && i + 8 <= a->mem.len; i += 8) {
			int32_t kv[2];
			memcpy(kv, a->mem.bytes + i, 8);
			if (kv[0] == (glx ? 0 : EGL_NONE))
				break;
			if (kv[1] < 0 || kv[1] > REPLAY_MAX_SURFACE_SIZE)
				kv[1] = 0;
			if (kv[0] == (glx ? GLX_PBUFFER_WIDTH_ : EGL_WIDTH))
				s->width = kv[1];
			else if (kv[0] == (glx ? GLX_PBUFFER_HEIGHT_ : EGL_HEIGHT))
				s->height = kv[1];
			else if (!glx && k + 2 < 32) {
				s->attribs[k++] = kv[0];
				s->attribs[k++] = kv[1];
			}
		}
		if (s)
			s->attribs[k] = EGL_NONE;
	} else if (is(name, "eglCreateWindowSurface") || is(name, "eglCreatePlatformWindowSurface") ||
		   is(name, "eglCreatePlatformWindowSurfaceEXT") || is(name, "eglCreatePixmapSurface") ||
		   is(name, "eglCreatePlatformPixmapSurface") ||
		   is(name, "eglCreatePlatformPixmapSurfaceEXT") || is(name, "glXCreateWindow") ||
		   is(name, "glXCreatePixmap")) {
		if (result && !surface_new(h, result, handle_arg(call, 1)))
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a surface");
	} else if (is(name, "eglDestroySurface") || is(name, "glXDestroyPbuffer") ||
		   is(name, "glXDestroyWindow") || is(name, "glXDestroyPixmap")) {
		/* Its EGL surface is kept until the end: a recorded thread
		 * may still have it current.  Its handle may come again. */
		struct host_surface *s = surface_live(h, handle_arg(call, 1));
		if (s)
			s->dead = true;
	} else if (replay_stubs[id].hook == REPLAY_HOOK_SWAP) {
		if (replay_frame_wanted(rp))
			host_obs_frame(h, rp, call);
		replay_frame(rp);
	} else {
		for (size_t i = 0; i < sizeof no_effect / sizeof no_effect[0]; i++)
			if (is(name, no_effect[i]))
				return XT_OK;
		replay_unsupported(rp, call, "an EGL / GLX call the replay does not model");
	}
	return XT_OK;
}
