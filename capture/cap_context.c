/*
 * cap_context.c - GL contexts as the capture sees them: creation, make
 * current and destruction through EGL and GLX (CONTEXT records), frames
 * (FRAME records), the driver's identity (PROPERTY records after a
 * context's first make-current), the per-context queue of GL errors that
 * keeps our own GL calls invisible to the application, and the dispatch of
 * the observation hooks (cap_observe.h).
 *
 * Contexts live in a list under cap_g.lock, touched only at create / make
 * current / destroy.  A destroyed context's entry is kept: another thread
 * may still have it current (EGL defers the destruction).
 */
#define CAP_WRAPPER_PROTOTYPES
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_observe.h"
#include "cap_state.h"
#include "glapi.h"
#include "glapi_attribs.h"
#include "obs.h"
#include "trace_enc.h"
#include "xt_buf.h"
#include "xt_fault.h"
#include "xt_log.h"

static atomic_uint_fast64_t cap_frames;
static atomic_int cap_error_warned;

static struct cap_ctx *ctx_find_locked(uint64_t handle)
{
	for (struct cap_ctx *x = cap_g.contexts; x; x = x->next)
		if (x->handle == handle)
			return x;
	return NULL;
}

bool cap_ctx_last_of_group(uint64_t handle, uint64_t *group)
{
	struct cap_ctx *x;
	bool last = false;

	pthread_mutex_lock(&cap_g.lock);
	x = ctx_find_locked(handle);
	if (x) {
		*group = x->group;
		last = true;
		for (struct cap_ctx *o = cap_g.contexts; o; o = o->next)
			if (o != x && o->group == x->group && !o->destroyed)
				last = false;
	}
	pthread_mutex_unlock(&cap_g.lock);
	return last;
}

/* The context of `handle`, created (desktop GL 1.0) if unknown. */
static struct cap_ctx *ctx_get(uint64_t handle, bool create)
{
	struct cap_ctx *x;

	pthread_mutex_lock(&cap_g.lock);
	x = ctx_find_locked(handle);
	if (!x && create) {
		x = xt_calloc(1, sizeof(*x));
		if (x) {
			x->handle = handle;
			x->major = 1;
			x->group = handle;
			x->next = cap_g.contexts;
			cap_g.contexts = x;
		}
	}
	pthread_mutex_unlock(&cap_g.lock);
	return x;
}

void cap_glerror_stash_ctx(struct cap_ctx *x)
{
	cap_pfn_glGetError get = CAP_REAL(glGetError);

	if (!x || !get)
		return;
	for (int i = 0; i < 8; i++) {
		GLenum e = get();
		if (e == GL_NO_ERROR)
			break;
		if (x->nerr < sizeof(x->errq) / sizeof(x->errq[0]))
			x->errq[x->nerr++] = e;
	}
}

void cap_glerror_drain_ctx(struct cap_ctx *x, const char *what)
{
	cap_pfn_glGetError get = CAP_REAL(glGetError);

	if (!x || !get)
		return;
	for (int i = 0; i < 8; i++) {
		GLenum e = get();
		if (e == GL_NO_ERROR)
			break;
		if (!atomic_exchange(&cap_error_warned, 1))
			xt_warn("capture: our %s raised GL error 0x%x (hidden from the application; "
				"further such errors are not reported)", what, e);
	}
}

void cap_glerror_stash(void)
{
	cap_glerror_stash_ctx(cap_tls.ctx);
}

void cap_glerror_drain(const char *what)
{
	cap_glerror_drain_ctx(cap_tls.ctx, what);
}

/* Pops the oldest stashed error, or returns false. */
static bool ctx_pop_error(struct cap_ctx *x, GLenum *out)
{
	if (!x || x->nerr == 0)
		return false;
	*out = x->errq[0];
	memmove(x->errq, x->errq + 1, (x->nerr - 1) * sizeof(x->errq[0]));
	x->nerr--;
	return true;
}

CAP_EXPORT GLenum glGetError(void)
{
	struct cap_call c;
	cap_pfn_glGetError f = CAP_REAL(glGetError);
	GLenum r = GL_NO_ERROR;

	cap_call_enter(&c, CAP_F_glGetError, NULL);
	if (!ctx_pop_error(cap_tls.ctx, &r) && f)
		r = f();
	c.ret.u = r;
	cap_call_leave(&c);
	return r;
}

bool cap_current_ctx(struct cap_ctx_info *out)
{
	struct cap_ctx *x = cap_tls.ctx;

	if (!x)
		return false;
	out->gles = x->gles;
	out->core = x->core;
	out->major = x->major;
	out->minor = x->minor;
	out->cpu_renderer = x->cpu_renderer;
	out->ext_buffer_storage = x->ext_buffer_storage;
	out->ext_dsa = x->ext_dsa;
	out->ext_program_interface = x->ext_program_interface;
	out->ext_shader_writes = x->ext_shader_writes;
	out->ext_gather = x->ext_gather;
	out->shared = x->shared;
	return true;
}

struct obs_tf_cache *cap_ctx_tf_cache(void)
{
	struct cap_ctx *x = cap_tls.ctx;

	if (x && !x->tf_cache)
		x->tf_cache = obs_tf_cache_create();
	return x ? x->tf_cache : NULL;
}

struct obs_async *cap_ctx_async_if_any(void)
{
	struct cap_ctx *x = cap_tls.ctx;

	if (!x || !x->async)
		return NULL;
	if (x->async_gen != atomic_load(&cap_g.gen)) {
		/* Made by the parent of this forked child, for its trace: its
		 * read-backs are not this trace's. */
		obs_async_destroy(x->async);
		x->async = NULL;
	}
	return x->async;
}

struct obs_async *cap_ctx_async(void)
{
	struct cap_ctx *x = cap_tls.ctx;

	if (x && !cap_ctx_async_if_any()) {
		x->async = obs_async_create();
		x->async_gen = atomic_load(&cap_g.gen);
	}
	return x ? x->async : NULL;
}

uint64_t cap_program_generation(void)
{
	return atomic_load_explicit(&cap_g.program_gen, memory_order_acquire);
}

uint64_t cap_tf_state_generation(void)
{
	return atomic_load_explicit(&cap_g.tf_state_gen, memory_order_acquire);
}

/*
 * The generations are global, not per context: a call in one context can
 * change what another sees (programs are shared; deleting a buffer), and
 * bumping too often only costs a few queries at the next observation.
 * They are bumped after the real call, so an observation that read the old
 * state under the old number is invalidated, whatever the threads do.
 */
void cap_ctx_tf_changed(unsigned hook)
{
	if (hook == CAP_HOOK_PROGRAM)
		atomic_fetch_add_explicit(&cap_g.program_gen, 1, memory_order_release);
	else
		atomic_fetch_add_explicit(&cap_g.tf_state_gen, 1, memory_order_release);
}

static bool binding_supported(const struct cap_ctx *x, unsigned b)
{
	const int v = x->major * 10 + x->minor;

	if (x->binding_ext & (1u << b))
		return true;
	switch (b) {
	case CAP_BIND_ARRAY:
	case CAP_BIND_ELEMENT:
		return true;
	case CAP_BIND_UNPACK:
	case CAP_BIND_PACK:
		return x->gles ? v >= 30 : v >= 21;
	case CAP_BIND_INDIRECT:
		return x->gles ? v >= 31 : v >= 40;
	case CAP_BIND_QUERY:
		return !x->gles && v >= 44;
	default:
		return false;
	}
}

uint32_t cap_ctx_binding(struct cap_ctx *x, unsigned binding)
{
	static const GLenum names[CAP_BIND_COUNT] = {
		[CAP_BIND_ARRAY] = GL_ARRAY_BUFFER_BINDING,
		[CAP_BIND_ELEMENT] = GL_ELEMENT_ARRAY_BUFFER_BINDING,
		[CAP_BIND_UNPACK] = GL_PIXEL_UNPACK_BUFFER_BINDING,
		[CAP_BIND_PACK] = GL_PIXEL_PACK_BUFFER_BINDING,
		[CAP_BIND_INDIRECT] = GL_DRAW_INDIRECT_BUFFER_BINDING,
		[CAP_BIND_QUERY] = GL_QUERY_BUFFER_BINDING,
	};
	cap_pfn_glGetIntegerv get = CAP_REAL(glGetIntegerv);
	GLint v = 0;

	if (!get || binding >= CAP_BIND_COUNT || !binding_supported(x, binding))
		return 0;
	get(names[binding], &v);
	return (uint32_t)v;
}

/* ---- CONTEXT / FRAME records -------------------------------------------- */

struct ctx_req {
	bool gles;
	int major, minor;
	unsigned profile_mask;   /* EGL/GLX profile bits: 1 core, 2 compat */
	unsigned flags;
};

static void write_create(struct cap_thread *t, uint64_t seq, uint64_t ctx, uint64_t dpy,
			 uint64_t share, uint64_t config, bool glx, const struct ctx_req *r)
{
	const char *profile = "compat";
	uint8_t *p = cap_reserve(t, 256), *s = p;

	if (r->gles)
		profile = "es";
	else if ((r->major > 3 || (r->major == 3 && r->minor >= 2)) && !(r->profile_mask & 2))
		profile = "core";
	if (!p)
		return;
	p = trace_enc_map(p, 11);
	p = trace_enc_key(p, "event");
	p = trace_enc_string(p, "create", 6);
	p = trace_enc_key(p, "context");
	p = trace_enc_handle(p, ctx);
	p = trace_enc_key(p, "display");
	p = trace_enc_handle(p, dpy);
	p = trace_enc_key(p, "window_system");
	p = trace_enc_string(p, glx ? "glx" : "egl", 3);
	/* 0: EGL_NO_CONFIG_KHR (EGL_KHR_no_config_context). */
	p = trace_enc_key(p, "config");
	p = trace_enc_handle(p, config);
	p = trace_enc_key(p, "share");
	p = trace_enc_handle(p, share);
	p = trace_enc_key(p, "api");
	p = trace_enc_string(p, r->gles ? "gles" : "gl", r->gles ? 4 : 2);
	p = trace_enc_key(p, "major");
	p = trace_enc_uint(p, (uint64_t)r->major);
	p = trace_enc_key(p, "minor");
	p = trace_enc_uint(p, (uint64_t)r->minor);
	p = trace_enc_key(p, "profile");
	p = trace_enc_string(p, profile, strlen(profile));
	p = trace_enc_key(p, "flags");
	p = trace_enc_uint(p, r->flags);
	cap_commit(t, TRACE_REC_CONTEXT, TRACE_RECF_ATTACHED, seq, (size_t)(p - s));
}

static void write_current(struct cap_thread *t, uint64_t seq, uint64_t ctx,
			  uint64_t draw, uint64_t read)
{
	uint8_t *p = cap_reserve(t, 128), *s = p;

	if (!p)
		return;
	p = trace_enc_map(p, 4);
	p = trace_enc_key(p, "event");
	p = trace_enc_string(p, "current", 7);
	p = trace_enc_key(p, "context");
	p = trace_enc_handle(p, ctx);
	p = trace_enc_key(p, "draw");
	p = trace_enc_handle(p, draw);
	p = trace_enc_key(p, "read");
	p = trace_enc_handle(p, read);
	cap_commit(t, TRACE_REC_CONTEXT, TRACE_RECF_ATTACHED, seq, (size_t)(p - s));
}

static void write_destroy(struct cap_thread *t, uint64_t seq, uint64_t ctx)
{
	uint8_t *p = cap_reserve(t, 64), *s = p;

	if (!p)
		return;
	p = trace_enc_map(p, 2);
	p = trace_enc_key(p, "event");
	p = trace_enc_string(p, "destroy", 7);
	p = trace_enc_key(p, "context");
	p = trace_enc_handle(p, ctx);
	cap_commit(t, TRACE_REC_CONTEXT, TRACE_RECF_ATTACHED, seq, (size_t)(p - s));
}

static void write_frame(struct cap_thread *t, uint64_t seq)
{
	uint8_t *p = cap_reserve(t, 32), *s = p;

	if (!p)
		return;
	p = trace_enc_map(p, 1);
	p = trace_enc_key(p, "frame");
	p = trace_enc_uint(p, atomic_fetch_add(&cap_frames, 1));
	cap_commit(t, TRACE_REC_FRAME, TRACE_RECF_ATTACHED, seq, (size_t)(p - s));
}

static void parse_attribs(struct ctx_req *r, const int32_t *l32, const intptr_t *l64, bool glx)
{
	for (int i = 0; i < 256; i += 2) {
		int64_t key = l32 ? l32[i] : l64[i];
		int64_t v = l32 ? l32[i + 1] : l64[i + 1];
		if (key == (glx ? 0 : EGL_NONE_))
			break;
		if (key == (glx ? GLX_CONTEXT_MAJOR_VERSION_ARB_ : EGL_CONTEXT_MAJOR_VERSION_))
			r->major = (int)v;
		else if (key == (glx ? GLX_CONTEXT_MINOR_VERSION_ARB_ : EGL_CONTEXT_MINOR_VERSION_))
			r->minor = (int)v;
		else if (key == (glx ? GLX_CONTEXT_FLAGS_ARB_ : EGL_CONTEXT_FLAGS_KHR_))
			r->flags |= (unsigned)v;
		else if (key == (glx ? GLX_CONTEXT_PROFILE_MASK_ARB_ : EGL_CONTEXT_OPENGL_PROFILE_MASK_))
			r->profile_mask = (unsigned)v;
		else if (!glx && key == EGL_CONTEXT_OPENGL_DEBUG_ && v)
			r->flags |= 1;
		else if (!glx && key == EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_ && v)
			r->flags |= 2;
		else if (!glx && key == EGL_CONTEXT_OPENGL_ROBUST_ACCESS_ && v)
			r->flags |= 4;
	}
	if (glx && (r->profile_mask & GLX_CONTEXT_ES2_PROFILE_BIT_EXT_))
		r->gles = true;
}

static void on_create(struct cap_thread *t, struct cap_call *c, bool glx)
{
	const union cap_arg *a = c->a;
	struct ctx_req r = { .major = 1, .minor = 0 };
	uint64_t share = 0;
	struct cap_ctx *x;

	if (!c->ret.u)
		return;
	if (!glx) {
		cap_pfn_eglQueryAPI q = CAP_REAL(eglQueryAPI);
		r.gles = q && q() == EGL_OPENGL_ES_API_;
		share = a[2].u;
		if (a[3].u)
			parse_attribs(&r, c->fid == CAP_F_eglCreateContext ?
				      (const int32_t *)(uintptr_t)a[3].u : NULL,
				      c->fid == CAP_F_eglCreateContext ? NULL :
				      (const intptr_t *)(uintptr_t)a[3].u, false);
	} else if (c->fid == CAP_F_glXCreateContextAttribsARB) {
		share = a[2].u;
		if (a[4].u)
			parse_attribs(&r, (const int32_t *)(uintptr_t)a[4].u, NULL, true);
	} else if (c->fid == CAP_F_glXCreateContext) {
		share = a[2].u;
	} else {
		share = a[3].u;
	}
	x = ctx_get(c->ret.u, true);
	if (x) {
		/* A handle the driver reuses names a new context: nothing the
		 * capture learnt of the old one (its actual version and profile,
		 * its driver strings, its client arrays, what the observations
		 * cached of its programs) is this one's, so it starts afresh
		 * as an unknown handle does. */
		obs_tf_cache_destroy(x->tf_cache);
		obs_async_destroy(x->async);
		pthread_mutex_lock(&cap_g.lock);  /* `next` is the list's */
		*x = (struct cap_ctx){ .handle = c->ret.u, .next = x->next };
		pthread_mutex_unlock(&cap_g.lock);
		x->display = a[0].u;
		x->group = c->ret.u;
		x->shared = share != 0;
		pthread_mutex_lock(&cap_g.lock);
		struct cap_ctx *shared = share ? ctx_find_locked(share) : NULL;
		if (shared) {
			/* Either may now write buffers the other's deferred
			 * observation copies read (cap_observe.c). */
			x->group = shared->group;
			x->shared = shared->shared = true;
		}
		pthread_mutex_unlock(&cap_g.lock);
		x->gles = r.gles;
		x->major = r.major;
		x->minor = r.minor;
	}
	cap_surface_config(t, c->seq, a[0].u, a[1].u,
			   !glx ? CAP_CONFIG_EGL : c->fid == CAP_F_glXCreateContext ?
			   CAP_CONFIG_GLX_VISUAL : CAP_CONFIG_GLX_FB);
	write_create(t, c->seq, c->ret.u, a[0].u, share, a[1].u, glx, &r);
}

static void parse_version(struct cap_ctx *x, const char *v)
{
	int major = 0, minor = 0;

	if (!v)
		return;
	if (strncmp(v, "OpenGL ES", 9) == 0) {
		x->gles = true;
		v += 9;
		while (*v && (*v < '0' || *v > '9'))
			v++;
	}
	if (sscanf(v, "%d.%d", &major, &minor) == 2) {
		x->major = major;
		x->minor = minor;
	}
}

/* Whether the space-separated extension list holds `name`. */
static bool has_extension(const char *list, size_t len, const char *name)
{
	const size_t n = strlen(name);

	for (const char *p = list, *end = list + len; p + n <= end; p++) {
		p = memmem(p, (size_t)(end - p), name, n);
		if (!p)
			return false;
		if ((p == list || p[-1] == ' ') && (p + n == end || p[n] == ' '))
			return true;
	}
	return false;
}

/*
 * The buffer bindings that make a pointer argument an offset exist below the
 * version that made them core when an extension gives them: a GL 3.3
 * context with ARB_query_buffer_object (NVIDIA gives the version a test
 * asks for) reads glGetQueryObject*v's params as an offset into the bound
 * query buffer, and reading it as memory would fault.
 */
static void binding_extensions(struct cap_ctx *x, const char *list, size_t len)
{
	static const struct { unsigned binding; bool gles; const char *name; } ext[] = {
		{ CAP_BIND_QUERY, false, "GL_ARB_query_buffer_object" },
		{ CAP_BIND_QUERY, false, "GL_AMD_query_buffer_object" },
		{ CAP_BIND_INDIRECT, false, "GL_ARB_draw_indirect" },
		{ CAP_BIND_UNPACK, false, "GL_ARB_pixel_buffer_object" },
		{ CAP_BIND_PACK, false, "GL_ARB_pixel_buffer_object" },
		{ CAP_BIND_UNPACK, false, "GL_EXT_pixel_buffer_object" },
		{ CAP_BIND_PACK, false, "GL_EXT_pixel_buffer_object" },
		{ CAP_BIND_UNPACK, true, "GL_NV_pixel_buffer_object" },
		{ CAP_BIND_PACK, true, "GL_NV_pixel_buffer_object" },
	};

	x->binding_ext = 0;
	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
		if (ext[i].gles == x->gles && has_extension(list, len, ext[i].name))
			x->binding_ext |= (uint8_t)(1u << ext[i].binding);
	/* What the asynchronous read-back uses where the version lacks it
	 * (observe/obs_async.c: the staging ring, named copies). */
	x->ext_buffer_storage = has_extension(list, len, x->gles ? "GL_EXT_buffer_storage" :
								    "GL_ARB_buffer_storage");
	x->ext_dsa = !x->gles && has_extension(list, len, "GL_ARB_direct_state_access");
	/* What tells the deferred copies whether a draw may write buffers. */
	x->ext_program_interface = !x->gles &&
				   has_extension(list, len, "GL_ARB_program_interface_query");
	x->ext_shader_writes = !x->gles &&
			       (has_extension(list, len, "GL_ARB_shader_storage_buffer_object") ||
				has_extension(list, len, "GL_ARB_shader_image_load_store") ||
				has_extension(list, len, "GL_EXT_shader_image_load_store") ||
				has_extension(list, len, "GL_ARB_shader_atomic_counters"));
	/* The gather dispatch of the deferred copies below GL 4.3. */
	x->ext_gather = !x->gles && x->ext_program_interface &&
			has_extension(list, len, "GL_ARB_compute_shader") &&
			has_extension(list, len, "GL_ARB_shader_storage_buffer_object") &&
			has_extension(list, len, "GL_ARB_shader_image_load_store") &&
			has_extension(list, len, "GL_ARB_transform_feedback2");
}

static void gl_properties(struct cap_thread *t, struct cap_ctx *x)
{
	cap_pfn_glGetString gs = CAP_REAL(glGetString);
	cap_pfn_glGetStringi gsi = CAP_REAL(glGetStringi);
	cap_pfn_glGetIntegerv gi = CAP_REAL(glGetIntegerv);
	static const struct { GLenum name; const char *key; } props[] = {
		{ GL_VENDOR, "gl.vendor" },
		{ GL_RENDERER, "gl.renderer" },
		{ GL_VERSION, "gl.version" },
		{ GL_SHADING_LANGUAGE_VERSION, "gl.shading_language_version" },
	};
	uint64_t seq;
	struct xt_buf ext = XT_BUF_INIT;

	x->props_done = true;
	if (!gs || !gi)
		return;
	cap_glerror_stash_ctx(x);
	parse_version(x, (const char *)gs(GL_VERSION));
	if (!x->gles && (x->major > 3 || (x->major == 3 && x->minor >= 2))) {
		GLint mask = 0;
		gi(GL_CONTEXT_PROFILE_MASK, &mask);
		x->core = (mask & GL_CONTEXT_CORE_PROFILE_BIT) != 0;
	}
	seq = atomic_load(&cap_g.next_seq);
	const char *renderer = (const char *)gs(GL_RENDERER);
	/* Mesa's software rasterizers: what XFBTRACE_OBSERVE's default
	 * (cap_observe.c, use_async) reads back at the call. */
	x->cpu_renderer = renderer && (strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe") ||
				       strstr(renderer, "Software Rasterizer"));
	for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++) {
		const char *s = (const char *)gs(props[i].name);
		if (s)
			cap_property(t, seq, props[i].key, s, strlen(s));
	}
	if (x->major >= 3 && gsi) {
		GLint n = 0;
		gi(GL_NUM_EXTENSIONS, &n);
		for (GLint i = 0; i < n; i++) {
			const char *e = (const char *)gsi(GL_EXTENSIONS, (GLuint)i);
			if (!e)
				continue;
			if ((ext.len && xt_buf_append(&ext, " ", 1) != XT_OK) ||
			    xt_buf_append(&ext, e, strlen(e)) != XT_OK)
				break;
		}
	} else {
		const char *e = (const char *)gs(GL_EXTENSIONS);
		if (e)
			xt_buf_append(&ext, e, strlen(e));
	}
	while (ext.len && ext.data[ext.len - 1] == ' ')
		ext.len--;
	binding_extensions(x, (const char *)ext.data, ext.len);
	cap_property(t, seq, "gl.extensions", (const char *)ext.data, ext.len);
	xt_buf_fini(&ext);
	cap_glerror_drain_ctx(x, "driver identity query");
}

static void on_make_current(struct cap_thread *t, struct cap_call *c, uint64_t draw,
			    uint64_t read, uint64_t ctx, bool glx)
{
	struct cap_ctx *x;

	if (!c->ret.u)
		return;
	if (glx) {
		cap_surface_glx_current(t, c->seq, c->a[0].u, draw);
		if (read != draw)
			cap_surface_glx_current(t, c->seq, c->a[0].u, read);
	} else {
		cap_surface_egl_current(t, c->seq, c->a[0].u, draw);
		if (read != draw)
			cap_surface_egl_current(t, c->seq, c->a[0].u, read);
	}
	x = ctx ? ctx_get(ctx, true) : NULL;
	t->ctx = x;
	write_current(t, c->seq, ctx, draw, read);
	if (x && !x->props_done)
		gl_properties(t, x);
}

/* The buffer bound to `target`, 0 if none or unknown.  `accepted`: the
 * driver has just accepted `target` in a call that succeeded, so asking for
 * its binding cannot raise an error and needs no error bracket. */
static GLuint bound_buffer(GLenum target, bool accepted)
{
	const uint32_t pname = glapi_buffer_binding_pname(target);
	cap_pfn_glGetIntegerv gi = CAP_REAL(glGetIntegerv);
	GLint v = 0;

	if (!gi || !pname)
		return 0;
	if (accepted) {
		gi(pname, &v);
		return (GLuint)v;
	}
	cap_glerror_stash();
	gi(pname, &v);
	cap_glerror_drain("buffer binding query");
	return (GLuint)v;
}

GLuint cap_ctx_bound_buffer(GLenum target, bool accepted)
{
	return bound_buffer(target, accepted);
}

/* After a program hook: the uniform block layouts of a program a link or
 * creation may have given code (docs/trace-format.md, LAYOUT), written
 * right after the call's RET so that a replay has them with the call. */
static void observe_link(const struct cap_call *c)
{
	const union cap_arg *a = c->a;

	switch (c->fid) {
	case CAP_F_glLinkProgram:
	case CAP_F_glLinkProgramARB:
	case CAP_F_glProgramBinary:
	case CAP_F_glProgramBinaryOES:
		cap_observe_link(c->seq, (GLuint)a[0].u);
		break;
	case CAP_F_glCreateShaderProgramv:
	case CAP_F_glCreateShaderProgramvEXT:
		cap_observe_link(c->seq, (GLuint)c->ret.u);
		break;
	default:
		break;
	}
}

static void observe_post(struct cap_call *c, unsigned hook)
{
	const union cap_arg *a = c->a;
	struct glapi_func_info fi;

	switch (hook) {
	case CAP_HOOK_TF_END:
		cap_observe_tf_end(c->seq, false);
		break;
	case CAP_HOOK_TF_PAUSE:
		cap_observe_tf_end(c->seq, true);
		break;
	case CAP_HOOK_QUERY_OBJECT:
		glapi_func_info((int)c->fid, &fi);
		cap_observe_query(c->seq, fi.name, (GLuint)a[0].u, (GLenum)a[1].u,
				  (c->offsets & 4u) ? NULL : (const void *)(uintptr_t)a[2].u,
				  strstr(fi.name, "64") ? 8 : 4);
		if ((GLenum)a[1].u == GL_QUERY_RESULT)
			cap_observe_sync(c->seq, CAP_SYNC_POLL);  /* it waited for the GPU */
		break;
	case CAP_HOOK_QUERY_BUFFER_OBJECT:
		glapi_func_info((int)c->fid, &fi);
		cap_observe_query(c->seq, fi.name, (GLuint)a[0].u, (GLenum)a[2].u, NULL,
				  strstr(fi.name, "64") ? 8 : 4);
		break;
	case CAP_HOOK_BUFFER_READ:
		cap_observe_buffer_read(c->seq, bound_buffer((GLenum)a[0].u, false), a[1].i, a[2].i,
					(const void *)(uintptr_t)a[3].u);
		cap_observe_sync(c->seq, CAP_SYNC_POLL);
		break;
	case CAP_HOOK_NAMED_BUFFER_READ:
		cap_observe_buffer_read(c->seq, (GLuint)a[0].u, a[1].i, a[2].i,
					(const void *)(uintptr_t)a[3].u);
		cap_observe_sync(c->seq, CAP_SYNC_POLL);
		break;
	case CAP_HOOK_READ_PIXELS: {
		/* glReadPixels(x, y, w, h, format, type, pixels); glReadn*
		 * have bufSize before pixels. */
		const unsigned k = c->fid == CAP_F_glReadPixels ? 6 : 7;
		glapi_func_info((int)c->fid, &fi);
		cap_observe_read_pixels(c->seq, fi.name, (GLint)a[0].i, (GLint)a[1].i,
					(GLsizei)a[2].i, (GLsizei)a[3].i, (GLenum)a[4].u,
					(GLenum)a[5].u, (c->offsets & (1u << k)) ? NULL
					: (const void *)(uintptr_t)a[k].u,
					k == 7 && a[6].i >= 0 ? (size_t)a[6].i : SIZE_MAX, a[k].u);
		cap_observe_sync(c->seq, CAP_SYNC_POLL);  /* it waited for the GPU */
		break;
	}
	case CAP_HOOK_MAP:
	case CAP_HOOK_MAP_RANGE:
	case CAP_HOOK_NAMED_MAP:
	case CAP_HOOK_NAMED_MAP_RANGE:
		cap_observe_sync(c->seq, CAP_SYNC_POLL);
		break;
	case CAP_HOOK_SYNC:
		if (c->fid == CAP_F_glFinish)
			cap_observe_sync(c->seq, CAP_SYNC_ALL);
		else if (c->fid == CAP_F_glClientWaitSync)
			cap_observe_sync(c->seq, CAP_SYNC_POLL);
		break;
	default:
		break;
	}
}

/*
 * Asynchronous observations are read back before the context they belong
 * to leaves the thread (made current elsewhere, released, or destroyed
 * while current here): a context's queue is only used where it is current.
 */
void cap_ctx_pre(struct cap_thread *t, struct cap_call *c, unsigned hook)
{
	const union cap_arg *a = c->a;
	uint64_t next;

	if (hook == CAP_HOOK_SWAP && cap_g.observe)
		cap_frames_pre(c);
	if (!cap_g.observe || !t->ctx || !t->ctx->async)
		return;
	switch (hook) {
	case CAP_HOOK_EGL_MAKE_CURRENT:
	case CAP_HOOK_GLX_MAKE_CONTEXT_CURRENT:
		next = a[3].u;
		break;
	case CAP_HOOK_GLX_MAKE_CURRENT:
		next = a[2].u;
		break;
	case CAP_HOOK_EGL_DESTROY_CONTEXT:
	case CAP_HOOK_GLX_DESTROY_CONTEXT:
		next = a[1].u == t->ctx->handle ? 0 : t->ctx->handle;
		break;
	case CAP_HOOK_EGL_RELEASE:
		next = 0;
		break;
	default:
		return;
	}
	if (next != t->ctx->handle)
		cap_observe_sync(c->seq, CAP_SYNC_ALL);
}

void cap_ctx_post(struct cap_thread *t, struct cap_call *c, unsigned hook)
{
	const union cap_arg *a = c->a;

	switch (hook) {
	case CAP_HOOK_EGL_CREATE_CONTEXT:
		on_create(t, c, false);
		break;
	case CAP_HOOK_GLX_CREATE_CONTEXT:
		on_create(t, c, true);
		break;
	case CAP_HOOK_EGL_DESTROY_CONTEXT:
	case CAP_HOOK_GLX_DESTROY_CONTEXT:
		if (hook == CAP_HOOK_GLX_DESTROY_CONTEXT || c->ret.u) {
			struct cap_ctx *x = ctx_get(a[1].u, false);
			if (x)
				x->destroyed = true;
			write_destroy(t, c->seq, a[1].u);
		}
		break;
	case CAP_HOOK_EGL_MAKE_CURRENT:
	case CAP_HOOK_GLX_MAKE_CONTEXT_CURRENT:
		on_make_current(t, c, a[1].u, a[2].u, a[3].u, hook == CAP_HOOK_GLX_MAKE_CONTEXT_CURRENT);
		break;
	case CAP_HOOK_GLX_MAKE_CURRENT:
		on_make_current(t, c, a[1].u, a[1].u, a[2].u, true);
		break;
	case CAP_HOOK_SWAP:
		if (c->fid == CAP_F_glXSwapBuffers || c->ret.u)
			write_frame(t, c->seq);
		if (cap_g.observe)
			cap_frames_post(c, c->fid == CAP_F_glXSwapBuffers || c->ret.u);
		if (cap_g.observe)
			cap_observe_sync(c->seq, CAP_SYNC_FRAME);
		break;
	case CAP_HOOK_SURFACE:
		cap_surface_post(t, c);
		break;
	case CAP_HOOK_PROGRAM:
		cap_ctx_tf_changed(hook);
		if (cap_g.observe)
			observe_link(c);
		break;
	case CAP_HOOK_TF_STATE:
		cap_ctx_tf_changed(hook);
		break;
	case CAP_HOOK_TF_TARGET_BINDING:
		if ((GLenum)a[0].u == GL_TRANSFORM_FEEDBACK_BUFFER)
			cap_ctx_tf_changed(hook);
		break;
	default:
		if (cap_g.observe)
			observe_post(c, hook);
		break;
	}
}
