/*
 * replay_egl.c - EGL and GLX calls, replayed by what they mean rather than
 * literally (replay/README.md, "Contexts").
 *
 * The replay opens one surfaceless EGL display (EGL_PLATFORM_SURFACELESS_MESA
 * through eglGetPlatformDisplayEXT): no window system is needed.  Contexts
 * are created from the trace's CONTEXT "create" records, which carry what
 * the capture saw requested (API, version, profile, flags, share context)
 * for EGL and GLX alike, so a GLX context becomes an EGL context of the same
 * API, version and profile.  eglChooseConfig is re-run with the recorded
 * attributes (asking for pbuffer surfaces instead of windows) to map the
 * recorded configs; pbuffers are created where the trace made them, and a
 * window surface or GLX drawable becomes a pbuffer of DEFAULT_SIZE pixels.
 * CONTEXT "current" records set what each recorded thread has current; the
 * switch itself happens before that thread's next GL call
 * (host_make_current).  Swaps are frame markers.  EGL / GLX queries have no
 * effect on GL state and are not executed; any other EGL / GLX call is
 * reported as not replayable.
 */
#include <stdio.h>
#include <string.h>

#include "replay_host.h"
#include "xt_fault.h"
#include "xt_log.h"

#define DEFAULT_SIZE 1024

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
	"glXDestroyContext", "glXMakeCurrent", "glXMakeContextCurrent", "glXCreateWindow",
	"glXDestroyWindow", "glXCreatePbuffer", "glXDestroyPbuffer", "glXCreatePixmap",
	"glXDestroyPixmap", "glXCreateGLXPixmap", "glXDestroyGLXPixmap",
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

static EGLConfig config_find(struct host *h, uint64_t handle)
{
	for (size_t i = 0; i < h->ncfg; i++)
		if (h->cfg[i].handle == handle)
			return h->cfg[i].egl;
	return h->config;
}

static struct host_surface *surface_find(struct host *h, uint64_t handle)
{
	for (size_t i = 0; i < h->nsurf; i++)
		if (h->surf[i].handle == handle)
			return &h->surf[i];
	return NULL;
}

static EGLSurface surface_add(struct host *h, uint64_t handle, EGLConfig cfg,
			      const EGLint *attribs)
{
	static const EGLint dflt[] = { EGL_WIDTH, DEFAULT_SIZE, EGL_HEIGHT, DEFAULT_SIZE, EGL_NONE };
	struct host_surface *n = xt_realloc(h->surf, (h->nsurf + 1) * sizeof *n);
	EGLSurface s;

	if (!n)
		return EGL_NO_SURFACE;
	h->surf = n;
	if (cfg == EGL_NO_CONFIG_KHR)
		cfg = h->config;
	s = eglCreatePbufferSurface(h->dpy, cfg, attribs ? attribs : dflt);
	if (s == EGL_NO_SURFACE && attribs)
		s = eglCreatePbufferSurface(h->dpy, h->config, dflt);
	n[h->nsurf++] = (struct host_surface){ handle, s };
	return s;
}

/* The surface of a recorded handle; unknown non-zero ones (windows, GLX
 * drawables made elsewhere) become default pbuffers. */
static EGLSurface surface_of(struct host *h, uint64_t handle)
{
	if (!handle)
		return EGL_NO_SURFACE;
	struct host_surface *s = surface_find(h, handle);
	return s ? s->egl : surface_add(h, handle, h->config, NULL);
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
	eglBindAPI(gles ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
	x->egl = eglCreateContext(h->dpy, config_find(h, h->create_config),
				  sx ? sx->egl : EGL_NO_CONTEXT, attribs);
	/* A driver with a lower version (softpipe: GL 3.3) still replays
	 * what it can, on the highest version below the requested one; the
	 * downgrade is reported and differences follow from it. */
	for (int v = (int)(major * 10 + minor) - 1; x->egl == EGL_NO_CONTEXT && v >= 10; v--) {
		if (v % 10 > 6)
			continue;
		attribs[1] = v / 10;
		attribs[3] = v % 10;
		x->egl = eglCreateContext(h->dpy, config_find(h, h->create_config),
					  sx ? sx->egl : EGL_NO_CONTEXT, attribs);
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
		t->draw = surface_of(h, host_value_uint(ev, "draw"));
		t->read = surface_of(h, host_value_uint(ev, "read"));
		if (handle && !t->ctx)
			xt_warn("replay: call %llu makes current a context the trace never created",
				(unsigned long long)call_no);
		return XT_OK;
	}
	if (host_value_str_is(ev, "event", "destroy")) {
		struct host_ctx *x = ctx_find(h, host_value_uint(ev, "context"));
		if (x)
			x->destroyed = true;   /* its EGL context lives until the end */
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
			struct host_config *nc = xt_realloc(h->cfg, (h->ncfg + 1) * sizeof *nc);
			if (!nc)
				return;
			h->cfg = nc;
			memcpy(&handle, v->mem.bytes + i, 8);
			nc[h->ncfg++] = (struct host_config){
				handle, got > 0 ? cfg[(i / 8) < (size_t)got ? i / 8 : 0] : h->config };
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
	} else if (is(name, "eglCreatePbufferSurface")) {
		const struct trace_value *a = call->nargs > 2 ? &call->args[2] : NULL;
		EGLint attribs[64];
		size_t n = 0;
		if (a && a->tag == TRACE_TAG_MEMORY)
			for (; n + 1 < 64 && (n + 1) * 4 <= a->mem.len; n++)
				memcpy(&attribs[n], a->mem.bytes + 4 * n, 4);
		attribs[n] = EGL_NONE;
		if (result)
			surface_add(h, result, config_find(h, handle_arg(call, 1)), attribs);
	} else if (is(name, "eglCreateWindowSurface") || is(name, "eglCreatePlatformWindowSurface") ||
		   is(name, "eglCreatePlatformWindowSurfaceEXT")) {
		if (result)
			surface_add(h, result, config_find(h, handle_arg(call, 1)), NULL);
	} else if (is(name, "eglDestroySurface")) {
		/* Kept until the end: a recorded thread may still have it current. */
	} else if (replay_stubs[id].hook == REPLAY_HOOK_SWAP) {
		replay_frame(rp);
	} else {
		for (size_t i = 0; i < sizeof no_effect / sizeof no_effect[0]; i++)
			if (is(name, no_effect[i]))
				return XT_OK;
		replay_unsupported(rp, call, "an EGL / GLX call the replay does not model");
	}
	return XT_OK;
}
