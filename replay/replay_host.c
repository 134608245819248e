/*
 * replay_host.c - the host backend: replays a trace on the system's GL
 * driver (Mesa llvmpipe here, any EGL driver with the surfaceless platform)
 * and makes the same observations the capture made.
 *
 * A GL call is executed as: make the recorded thread's context current
 * (replay_egl.c), convert the recorded arguments (replay_args.c), call the
 * driver's entry point through the function's generated thunk
 * (replay_stubs.c, from specs/emit_replay.py), collect the GL errors it
 * raised into the context's queue, learn the names it created, then run the
 * hooks (observations, mappings, returned values: replay_obs.c).  A
 * recorded glGetError is answered from the queue instead of the driver.
 *
 * Entry points are resolved by name with eglGetProcAddress through
 * libepoxy (EGL_KHR_get_all_proc_addresses: one pointer for all contexts).
 * libepoxy's own glFoo dispatch is used only for core GL 1.x functions of
 * our own: it aborts the process when the current context lacks the
 * version or extension that provides a function, and a trace captured on
 * another driver must not crash the replay.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "replay_host.h"
#include "xt_fault.h"
#include "xt_log.h"

/*
 * The driver call in progress, for the note a fatal signal prints.
 * Process-wide on purpose: a signal handler has no handle to read.  A
 * replay that dies inside the driver's entry point says so with the call,
 * so that a crash of the driver itself (issue 21: llvmpipe faults that the
 * plain program hits with the same calls) is never read as a result of
 * xfbtrace; scripts/fuzz_tf.py then runs the program without xfbtrace to
 * tell the two apart.  Set only around the thunk; the handler re-raises.
 */
static volatile sig_atomic_t host_in_driver;
static unsigned long long host_crash_call_no;
static const char *host_crash_call_name;

static void put_str(const char *s)
{
	size_t n = strlen(s);
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void host_fatal_signal(int sig)
{
	if (host_in_driver) {
		char num[24], *p = num + sizeof num - 1;
		unsigned long long v = host_crash_call_no;
		*p = '\0';
		do
			*--p = (char)('0' + v % 10);
		while ((v /= 10) && p > num);
		put_str("call ");
		put_str(p);
		put_str(" ");
		put_str(host_crash_call_name ? host_crash_call_name : "?");
		put_str(": the replay died of ");
		put_str(sig == SIGSEGV ? "SIGSEGV" : sig == SIGABRT ? "SIGABRT" :
			sig == SIGBUS ? "SIGBUS" : "SIGFPE");
		put_str(" inside the GL driver's entry point; if the program run "
			"without xfbtrace crashes with the same calls, the driver "
			"is at fault (docs/status.md, \"Randomized differential "
			"testing\")\n");
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void host_catch_driver_crashes(void)
{
	static const int sigs[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction sa, old;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = host_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESETHAND | SA_NODEFER;
		/* Leave a handler someone else installed (a sanitizer) alone. */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
	}
}

/* A call that draws vertices from the current arrays (not glDrawBuffer,
 * glDrawPixels, glDrawTex*). */
static bool is_vertex_draw(const char *name)
{
	return (!strncmp(name, "glDraw", 6) || !strncmp(name, "glMultiDraw", 11)) &&
	       (strstr(name, "Arrays") || strstr(name, "Elements") ||
		strstr(name, "TransformFeedback"));
}

/*
 * True when a draw would read an enabled generic vertex array from client
 * memory although the trace brought no "client-array" bytes for it: the
 * capture records the range a draw reads from its arguments or indirect
 * commands, which a transform feedback draw does not give (capture/
 * cap_memory.c says so on stderr), so the replay's shadow holds stale or
 * no bytes.
 * GL errors the queries raise are drained: they are not the draw's.
 */
static bool draws_unrecorded_client_arrays(struct host *h, const struct trace_call *call)
{
	if (!h->client_pointers || !is_vertex_draw(call->name) ||
	    h->client_array_call == call->no + 1)
		return false;
	void (*get_attrib)(GLuint, GLenum, GLint *) =
		(void (*)(GLuint, GLenum, GLint *))h->gl_proc("glGetVertexAttribiv");
	void (*get_int)(GLenum, GLint *) = (void (*)(GLenum, GLint *))h->gl_proc("glGetIntegerv");
	GLenum (*get_error)(void) = (GLenum (*)(void))h->gl_proc("glGetError");
	if (!get_attrib || !get_int || !get_error)
		return false;
	GLint n = 0;
	get_int(GL_MAX_VERTEX_ATTRIBS, &n);
	bool client = false;
	for (GLint i = 0; i < n && i < 32 && !client; i++) {
		GLint enabled = 0, buffer = 1;
		get_attrib((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
		if (enabled)
			get_attrib((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buffer);
		client = enabled && !buffer;
	}
	while (get_error() != GL_NO_ERROR)
		;
	return client;
}

static struct host *host_of(struct replay_backend *be)
{
	return (struct host *)be;
}

/* Whether the current context advertises one of `exts` (names separated
 * by spaces). */
static bool has_any_extension(struct host *h, const char *exts)
{
	const GLubyte *(*get_stringi)(GLenum, GLuint) =
		(const GLubyte *(*)(GLenum, GLuint))h->gl_proc("glGetStringi");
	const GLubyte *(*get_string)(GLenum) = (const GLubyte *(*)(GLenum))h->gl_proc("glGetString");
	void (*get_int)(GLenum, GLint *) = (void (*)(GLenum, GLint *))h->gl_proc("glGetIntegerv");
	GLenum (*get_error)(void) = (GLenum (*)(void))h->gl_proc("glGetError");
	GLint n = 0;
	bool found = false;

	if (!get_int || !get_error)
		return true;   /* cannot tell: keep the recorded name */
	get_int(GL_NUM_EXTENSIONS, &n);
	while (get_error() != GL_NO_ERROR)
		;
	for (const char *e = exts; *e && !found;) {
		const size_t len = strcspn(e, " ");
		if (get_stringi && n > 0) {
			for (GLint i = 0; i < n && !found; i++) {
				const char *s = (const char *)get_stringi(GL_EXTENSIONS, (GLuint)i);
				found = s && strlen(s) == len && !strncmp(s, e, len);
			}
		} else if (get_string) {
			const char *all = (const char *)get_string(GL_EXTENSIONS);
			for (const char *p = all ? strstr(all, e) : NULL; p && !found;
			     p = strstr(p + 1, e))
				found = (p == all || p[-1] == ' ') && (p[len] == ' ' || !p[len]);
		}
		e += len;
		e += *e == ' ';
	}
	while (get_error() != GL_NO_ERROR)
		;
	return found;
}

void (*host_func_resolve(struct host *h, int id, const char *name))(void)
{
	const struct replay_stub *st = id >= 0 ? &replay_stubs[id] : NULL;
	void (*fn)(void);

	if (st && st->alias && !has_any_extension(h, st->alias_exts) && (fn = h->gl_proc(st->alias)))
		return fn;
	return h->gl_proc(name);
}

struct host_func *host_func_of(struct host *h, const struct trace_call *call)
{
	if (call->func_id >= h->nfuncs) {
		size_t n = (size_t)call->func_id + 64;
		struct host_func *f = xt_realloc(h->funcs, n * sizeof *f);
		if (!f)
			return NULL;
		for (size_t i = h->nfuncs; i < n; i++)
			f[i] = (struct host_func){ .id = -2 };
		h->funcs = f;
		h->nfuncs = n;
	}
	struct host_func *f = &h->funcs[call->func_id];
	if (f->id == -2)
		f->id = glapi_func_lookup(call->name);
	return f;
}

static enum xt_rc host_call(struct replay_backend *be, struct replay *rp,
			    const struct trace_call *call, const struct trace_ret *ret,
			    struct xt_err *err)
{
	struct host *h = host_of(be);
	struct host_func *f = host_func_of(h, call);
	struct glapi_func_info fi;
	struct host_args args;
	union replay_arg rv = { 0 };
	const char *why;

	if (!f)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	if (f->id < 0 || !glapi_func_info(f->id, &fi)) {
		replay_unsupported(rp, call, "not a GL, GLES, EGL or GLX function of the registry");
		return XT_OK;
	}
	if (fi.api != GLAPI_API_GL)
		return host_egl_call(h, rp, call, ret, f->id, err);
	if (call->nargs != fi.nparams) {
		replay_unsupported(rp, call, "its argument count differs from the registry's");
		return XT_OK;
	}
	struct host_thread *t = host_thread(h, call->thread_no);
	if (!t)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	if (!host_make_current(h, t)) {
		replay_unsupported(rp, call, "no context was current on its thread");
		return XT_OK;
	}
	struct host_ctx *x = t->ctx;
	if (!h->describe[0]) {
		const char *vendor = (const char *)glGetString(GL_VENDOR);
		const char *r = (const char *)glGetString(GL_RENDERER);
		const char *v = (const char *)glGetString(GL_VERSION);
		snprintf(h->describe, sizeof h->describe, "%s, %s", r ? r : "?", v ? v : "?");
		replay_set_driver(rp, vendor, r, v);
	}
	if (!strcmp(call->name, "glGetError")) {
		host_obs_get_error(h, rp, x, call, ret);
		return XT_OK;
	}
	if (!f->resolved) {
		f->fn = host_func_resolve(h, f->id, call->name);
		f->resolved = true;
	}
	if (!f->fn || !replay_stubs[f->id].thunk) {
		replay_unsupported(rp, call, "the driver has no such function");
		return XT_OK;
	}
	xt_arena_reset(&h->arena);
	enum xt_rc rc = host_args_convert(h, x, f->id, call, ret, &args, &why);
	if (rc == XT_ERR_UNSUPPORTED) {
		replay_unsupported(rp, call, why);
		return XT_OK;
	}
	if (rc == XT_OK)
		rc = host_args_program_binary(h, x, call, &args);
	if (rc != XT_OK)
		return XT_FAIL(err, rc, "call %llu: out of memory", (unsigned long long)call->no);
	if (draws_unrecorded_client_arrays(h, call)) {
		replay_unsupported(rp, call, "draws from client-memory vertex arrays whose bytes "
				   "the trace does not hold (a transform feedback draw, or an "
				   "indirect one whose commands the capture could not read: "
				   "capture/README.md, Limits)");
		return XT_OK;
	}
	host_crash_call_no = (unsigned long long)call->no;
	host_crash_call_name = call->name;
	host_in_driver = 1;
	replay_stubs[f->id].thunk(f->fn, args.a, &rv);
	host_in_driver = 0;
	host_obs_collect_errors(h, rp, x, call);
	host_args_learn(h, x, f->id, call, ret, &args, &rv);
	host_obs_after(h, rp, x, f->id, call, ret, &args, &rv);
	host_obs_layout(h, rp, x, call);
	return XT_OK;
}

static enum xt_rc host_context(struct replay_backend *be, struct replay *rp,
			       const struct trace_call *call, uint64_t call_no,
			       const struct trace_value *event, struct xt_err *err)
{
	return host_egl_context(host_of(be), rp, call, call_no, event, err);
}

static enum xt_rc host_op_memwrite(struct replay_backend *be, struct replay *rp, uint64_t call_no,
				uint64_t addr, const uint8_t *data, size_t n, const char *why,
				struct xt_err *err)
{
	host_memwrite(host_of(be), call_no, addr, data, n, why);
	return XT_OK;
}

void host_memwrite(struct host *h, uint64_t call_no, uint64_t addr, const uint8_t *data,
		   size_t n, const char *why)
{
	if (!strcmp(why, "client-array"))
		h->client_array_call = call_no + 1;
	if (!replay_mem_write(h->mem, addr, data, n) && !h->memwrite_warned) {
		h->memwrite_warned = true;
		xt_warn("replay: call %llu: %zu bytes of memory (%s) that no pointer or mapping of "
			"the replay covers are dropped (reported once)",
			(unsigned long long)call_no, n, why);
	}
}

void host_ctx_flush_errors(struct host_ctx *x, struct replay *rp)
{
	for (unsigned k = 0; k < x->nerr; k++)
		replay_gl_error_unchecked(rp, x->err[k].call, x->err[k].func, x->err[k].error,
					  x->err[k].impl);
	x->nerr = 0;
}

static void host_finish(struct replay_backend *be, struct replay *rp)
{
	struct host *h = host_of(be);

	for (size_t i = 0; i < h->nctx; i++)
		host_ctx_flush_errors(h->ctx[i], rp);
}

static const char *host_describe(struct replay_backend *be)
{
	struct host *h = host_of(be);

	return h->describe[0] ? h->describe : "(no GL context was made current)";
}

static void host_destroy(struct replay_backend *be)
{
	struct host *h = host_of(be);

	if (!h)
		return;
	host_egl_close(h);
	replay_names_destroy(h->names);
	replay_mem_destroy(h->mem);
	host_args_fini(h);
	xt_arena_fini(&h->arena);
	xt_free(h->funcs);
	xt_free(h);
}

static enum xt_rc host_state(struct replay_backend *be, struct replay *rp, uint64_t call_no,
			     struct xt_buf *out, struct xt_err *err)
{
	struct host *h = (struct host *)be;
	const struct host_ctx *x = h->bound;
	if (!x)
		return XT_FAIL(err, XT_ERR_INVALID, "no GL context is current after call %" PRIu64,
			       call_no);
	return replay_state_encode(h, &(struct replay_state_ctx){
		.ns = x->ns, .share_ns = x->share_ns, .gles = x->gles, .major = x->major,
		.minor = x->minor }, call_no, "host", out, err);
}

static const struct replay_backend_ops host_ops = {
	.name = "host",
	.call = host_call,
	.context = host_context,
	.memwrite = host_op_memwrite,
	.state = host_state,
	.finish = host_finish,
	.describe = host_describe,
	.destroy = host_destroy,
};

enum xt_rc replay_host_create(struct replay_backend **out, struct xt_err *err)
{
	struct host *h = xt_calloc(1, sizeof *h);
	enum xt_rc rc;

	*out = NULL;
	if (!h)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	h->base.ops = &host_ops;
	h->dpy = EGL_NO_DISPLAY;
	xt_arena_init(&h->arena, 1 << 16);
	h->gl_proc = host_gl_proc;
	h->names = replay_names_create();
	h->mem = replay_mem_create();
	if (!h->names || !h->mem) {
		host_destroy(&h->base);
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	}
	rc = host_egl_open(h, err);
	if (rc != XT_OK) {
		host_destroy(&h->base);
		return rc;
	}
	host_catch_driver_crashes();
	*out = &h->base;
	return XT_OK;
}
