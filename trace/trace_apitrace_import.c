/*
 * trace_apitrace_import.c - apitrace calls mapped onto xfbtrace records
 * (trace_apitrace_import.h; docs/trace-format.md "Importing apitrace
 * traces"; the facts about apitrace in docs/apitrace.md §2 and §4).
 *
 * Each apitrace call becomes a CALL record (and a RET when it returned a
 * value or wrote outputs) numbered as apitrace numbers it.  Arguments are
 * re-encoded (trace_apitrace_args.c) by the kind libglapi gives the
 * parameter, which is how the capture library records them, so the replay
 * handles both alike:
 *
 *   apitrace value          parameter kind     xfbtrace value
 *   integer/enum/bitmask    SINT ... BOOL      SINT UINT ENUM BITFIELD TRUE/FALSE
 *   opaque pointer, NULL    HANDLE             HANDLE (EGL objects, GLsync)
 *   blob, array of numbers  MEM_IN, ATTRIBS    MEMORY, elements by glapi_elem
 *   opaque pointer          MEM_IN, VERTEXPTR  OFFSET: apitrace records a
 *                           (with a binding)   buffer offset as a number
 *   blob (user arrays)      VERTEXPTR          POINTER + "client-array"
 *                                              MEMWRITE before the draw
 *   LEAVE output "&1" ...   MEM_OUT            POINTER in CALL, MEMORY in RET
 *   opaque pointer          MEM_OUT            POINTER (read-backs: apitrace
 *                                              keeps no data) or OFFSET into
 *                                              the bound pack/query buffer
 *
 * apitrace's fake memcpy(dest, blob, n), emitted before glUnmapBuffer and
 * glFlushMappedBufferRange (and, for coherent maps, before draws), becomes
 * a MEMWRITE {addr = dest, data, why} attached to the next real call of the
 * same thread: "map-unmap", "map-flush" or "persistent".  Its user-array
 * fake gl*Pointer calls carry a blob: the call is kept with a synthetic
 * client address and the blob becomes a "client-array" MEMWRITE of the
 * next real call (the draw).  Other fake calls (glViewport at the first
 * MakeCurrent, glBindAttribLocation before a link) are kept: apitrace
 * replays them too.
 *
 * Contexts: eglBindAPI (per thread) and eglCreateContext's attribute list
 * give the CONTEXT "create" record (api, version, profile, flags, as the
 * capture derives them); eglMakeCurrent and eglDestroyContext give
 * "current" and "destroy"; eglSwapBuffers a FRAME.
 *
 * Records leave in order-key order: the reader delivers whole calls in
 * call-number order, and each call's records are written together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace_apitrace_import_int.h"
#include "trace_reader.h"
#include "trace_spool.h"
#include "xt_fault.h"

void trace_at_import_result_fini(struct trace_at_import_result *res)
{
	for (size_t i = 0; i < res->nuntranslated; i++) {
		xt_free(res->untranslated[i].function);
		xt_free(res->untranslated[i].reason);
	}
	xt_free(res->untranslated);
	res->untranslated = NULL;
	res->nuntranslated = 0;
}

/* Counts an untranslatable thing; the first call of each (function,
 * reason) is kept.  Out of memory only loses the report entry. */
void trace_ati_report(struct conv *c, const char *func, const char *reason, uint64_t no)
{
	struct trace_at_import_result *res = c->res;
	for (size_t i = 0; i < res->nuntranslated; i++)
		if (!strcmp(res->untranslated[i].function, func) &&
		    !strcmp(res->untranslated[i].reason, reason)) {
			res->untranslated[i].count++;
			return;
		}
	if (res->nuntranslated >= MAX_UNTRANSLATED)
		return;
	struct trace_at_untranslated *u = xt_realloc(res->untranslated,
						     (res->nuntranslated + 1) * sizeof *u);
	if (!u)
		return;
	res->untranslated = u;
	u += res->nuntranslated;
	u->function = xt_strdup(func);
	u->reason = xt_strdup(reason);
	if (!u->function || !u->reason) {
		xt_free(u->function);
		xt_free(u->reason);
		return;
	}
	u->first_call = no;
	u->count = 1;
	res->nuntranslated++;
}

/* ---- records ------------------------------------------------------------------- */

static enum xt_rc emit(struct conv *c, uint16_t type, uint16_t flags, uint64_t seq,
		       const struct xt_buf *b)
{
	c->res->records++;
	return c->sink(c->ctx, type, flags, seq, b->data, b->len, c->err);
}

static struct thread_state *thread_of(struct conv *c, uint32_t t)
{
	if (t >= c->nthreads) {
		uint32_t n = t + 8;
		struct thread_state *g = xt_realloc(c->threads, n * sizeof *g);
		if (!g)
			return NULL;
		memset(g + c->nthreads, 0, (n - c->nthreads) * sizeof *g);
		c->threads = g;
		c->nthreads = n;
	}
	return &c->threads[t];
}

static enum xt_rc emit_properties(struct conv *c)
{
	size_t n;
	const struct trace_at_property *p = trace_apitrace_properties(c->r, &n);
	char version[16];
	enum xt_rc rc = XT_OK;
	struct { const char *k, *v; } fixed[] = {
		{ "source", "apitrace" },
		{ "apitrace.container", trace_apitrace_container(c->r) },
		{ "apitrace.version", version },
		{ "capture.observe", "0" },
	};

	snprintf(version, sizeof version, "%u", trace_apitrace_version(c->r));
	for (size_t i = 0; !rc && i < n + sizeof fixed / sizeof fixed[0]; i++) {
		const char *k, *v;
		if (i < n) {
			k = p[i].name;
			v = p[i].value;
			if (!strcmp(k, "process.name"))
				k = "program";
			else if (!strcmp(k, "process.commandLine"))
				k = "cmdline";
		} else {
			k = fixed[i - n].k;
			v = fixed[i - n].v;
		}
		xt_buf_reset(&c->call);
		if (put_string(&c->call, k, strlen(k)) || put_string(&c->call, v, strlen(v)))
			return trace_ati_nomem(c);
		rc = emit(c, TRACE_REC_PROPERTY, 0, 0, &c->call);
	}
	return rc;
}

static enum xt_rc emit_thread(struct conv *c, uint32_t t, uint64_t no)
{
	xt_buf_reset(&c->tmp);
	if (put_tagged(&c->tmp, TRACE_TAG_MAP, 1) || put_key(&c->tmp, "thread") ||
	    put_tagged(&c->tmp, TRACE_TAG_UINT, t))
		return trace_ati_nomem(c);
	c->res->threads++;
	return emit(c, TRACE_REC_THREAD, 0, no, &c->tmp);
}

static enum xt_rc emit_memwrites(struct conv *c, struct thread_state *ts, const char *func,
				 uint64_t no)
{
	const char *why = "persistent";
	enum xt_rc rc = XT_OK;

	if (!strncmp(func, "glUnmap", 7))
		why = "map-unmap";
	else if (!strncmp(func, "glFlushMapped", 13))
		why = "map-flush";
	for (size_t i = 0; i < ts->npw; i++) {
		struct pending_write *w = &ts->pw[i];
		xt_buf_reset(&c->tmp);
		if (!rc) {
			const char *wy = w->client_array ? "client-array" : why;
			if (put_tagged(&c->tmp, TRACE_TAG_MAP, 3) || put_key(&c->tmp, "addr") ||
			    put_tagged(&c->tmp, TRACE_TAG_UINT, w->addr) || put_key(&c->tmp, "data") ||
			    put_tag(&c->tmp, TRACE_TAG_BLOB) || put_lenbytes(&c->tmp, w->data, w->len) ||
			    put_key(&c->tmp, "why") || put_string(&c->tmp, wy, strlen(wy)))
				rc = trace_ati_nomem(c);
			else
				rc = emit(c, TRACE_REC_MEMWRITE, TRACE_RECF_ATTACHED, no, &c->tmp);
			c->res->memwrites++;
		}
		xt_free(w->data);
	}
	ts->npw = 0;
	return rc;
}

/* ---- contexts and frames --------------------------------------------------------- */

static uint64_t arg_u(const struct trace_at_call *call, uint32_t i)
{
	int64_t n = 0;
	if (i < call->nargs)
		trace_ati_int(&call->args[i], &n);
	return (uint64_t)n;
}

static enum xt_rc context_create(struct conv *c, struct thread_state *ts,
				 const struct trace_at_call *call, uint64_t handle)
{
	int64_t major = 1, minor = 0, flags = 0, mask = 0;
	const struct trace_at_value *l = call->nargs > 3 ? trace_ati_machine(&call->args[3]) : NULL;
	const char *profile = "compat";

	for (uint32_t k = 0; l && l->kind == TRACE_AT_ARRAY && k + 1 < l->agg.count; k += 2) {
		int64_t key = 0, v = 0;
		trace_ati_int(&l->agg.items[k], &key);
		trace_ati_int(&l->agg.items[k + 1], &v);
		if (key == EGL_NONE_)
			break;
		if (key == EGL_CONTEXT_MAJOR_VERSION_)
			major = v;
		else if (key == EGL_CONTEXT_MINOR_VERSION_)
			minor = v;
		else if (key == EGL_CONTEXT_FLAGS_KHR_)
			flags |= v;
		else if (key == EGL_CONTEXT_OPENGL_PROFILE_MASK_)
			mask = v;
		else if (key == EGL_CONTEXT_OPENGL_DEBUG_ && v)
			flags |= 1;
		else if (key == EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_ && v)
			flags |= 2;
		else if (key == EGL_CONTEXT_OPENGL_ROBUST_ACCESS_ && v)
			flags |= 4;
	}
	if (ts->gles_api)
		profile = "es";
	else if ((major > 3 || (major == 3 && minor >= 2)) && !(mask & 2))
		profile = "core";
	xt_buf_reset(&c->tmp);
	if (put_tagged(&c->tmp, TRACE_TAG_MAP, 9) ||
	    put_key(&c->tmp, "event") || put_string(&c->tmp, "create", 6) ||
	    put_key(&c->tmp, "context") || put_tagged(&c->tmp, TRACE_TAG_HANDLE, handle) ||
	    put_key(&c->tmp, "display") || put_tagged(&c->tmp, TRACE_TAG_HANDLE, arg_u(call, 0)) ||
	    put_key(&c->tmp, "share") || put_tagged(&c->tmp, TRACE_TAG_HANDLE, arg_u(call, 2)) ||
	    put_key(&c->tmp, "api") ||
	    put_string(&c->tmp, ts->gles_api ? "gles" : "gl", ts->gles_api ? 4 : 2) ||
	    put_key(&c->tmp, "major") || put_tagged(&c->tmp, TRACE_TAG_UINT, (uint64_t)major) ||
	    put_key(&c->tmp, "minor") || put_tagged(&c->tmp, TRACE_TAG_UINT, (uint64_t)minor) ||
	    put_key(&c->tmp, "profile") || put_string(&c->tmp, profile, strlen(profile)) ||
	    put_key(&c->tmp, "flags") || put_tagged(&c->tmp, TRACE_TAG_UINT, (uint64_t)flags))
		return trace_ati_nomem(c);
	c->res->contexts++;
	return emit(c, TRACE_REC_CONTEXT, TRACE_RECF_ATTACHED, call->no, &c->tmp);
}

/* CONTEXT / FRAME records and state that follow from a call that returned. */
static enum xt_rc after_call(struct conv *c, struct thread_state *ts,
			     const struct trace_at_call *call)
{
	const char *f = call->sig->name;
	int64_t ret = 0;
	bool ok = trace_ati_int(&call->ret, &ret) && ret != 0;

	if (!strcmp(f, "eglBindAPI") && ok) {
		ts->gles_api = arg_u(call, 0) == EGL_OPENGL_ES_API_;
	} else if (!strcmp(f, "eglCreateContext") && ok) {
		return context_create(c, ts, call, (uint64_t)ret);
	} else if (!strcmp(f, "eglMakeCurrent") && ok) {
		xt_buf_reset(&c->tmp);
		if (put_tagged(&c->tmp, TRACE_TAG_MAP, 4) ||
		    put_key(&c->tmp, "event") || put_string(&c->tmp, "current", 7) ||
		    put_key(&c->tmp, "context") || put_tagged(&c->tmp, TRACE_TAG_HANDLE, arg_u(call, 3)) ||
		    put_key(&c->tmp, "draw") || put_tagged(&c->tmp, TRACE_TAG_HANDLE, arg_u(call, 1)) ||
		    put_key(&c->tmp, "read") || put_tagged(&c->tmp, TRACE_TAG_HANDLE, arg_u(call, 2)))
			return trace_ati_nomem(c);
		c->res->contexts++;
		return emit(c, TRACE_REC_CONTEXT, TRACE_RECF_ATTACHED, call->no, &c->tmp);
	} else if (!strcmp(f, "eglDestroyContext") && ok) {
		xt_buf_reset(&c->tmp);
		if (put_tagged(&c->tmp, TRACE_TAG_MAP, 2) ||
		    put_key(&c->tmp, "event") || put_string(&c->tmp, "destroy", 7) ||
		    put_key(&c->tmp, "context") || put_tagged(&c->tmp, TRACE_TAG_HANDLE, arg_u(call, 1)))
			return trace_ati_nomem(c);
		c->res->contexts++;
		return emit(c, TRACE_REC_CONTEXT, TRACE_RECF_ATTACHED, call->no, &c->tmp);
	} else if (!strcmp(f, "eglSwapBuffers")) {
		xt_buf_reset(&c->tmp);
		if (put_tagged(&c->tmp, TRACE_TAG_MAP, 1) || put_key(&c->tmp, "frame") ||
		    put_tagged(&c->tmp, TRACE_TAG_UINT, c->frames++))
			return trace_ati_nomem(c);
		return emit(c, TRACE_REC_FRAME, TRACE_RECF_ATTACHED, call->no, &c->tmp);
	} else if (!strcmp(f, "glBindBuffer") || !strcmp(f, "glBindBufferARB")) {
		uint64_t target = arg_u(call, 0), buffer = arg_u(call, 1);
		if (target == GL_PIXEL_PACK_BUFFER_)
			c->pack_buffer = (uint32_t)buffer;
		else if (target == GL_QUERY_BUFFER_)
			c->query_buffer = (uint32_t)buffer;
	}
	return XT_OK;
}

/* ---- one call -------------------------------------------------------------------- */

static int glapi_id_of(struct conv *c, const struct trace_at_func_sig *sig)
{
	if (sig->id >= c->nglapi_ids) {
		uint32_t n = sig->id + 64;
		int *g = xt_realloc(c->glapi_ids, n * sizeof *g);
		if (!g)
			return glapi_func_lookup(sig->name);
		for (uint32_t i = c->nglapi_ids; i < n; i++)
			g[i] = -2;
		c->glapi_ids = g;
		c->nglapi_ids = n;
	}
	if (c->glapi_ids[sig->id] == -2)
		c->glapi_ids[sig->id] = glapi_func_lookup(sig->name);
	return c->glapi_ids[sig->id];
}

/*
 * apitrace's tracer advertises up to 8 extensions of its own (debug
 * markers and labels, gltrace.py) after the driver's and raises
 * GL_NUM_EXTENSIONS accordingly; glGetStringi(GL_EXTENSIONS, i) for them is
 * answered by the tracer, never reaches the driver and cannot be replayed.
 * Assumption: the driver's own last 8 extensions are not among these
 * names (Mesa lists its extensions sorted, ending with GL_OES_* / GL_SUN_*).
 */
static bool tracer_extension(struct conv *c, const struct trace_at_call *call)
{
	static const char *const own[] = {
		"GL_GREMEDY_string_marker", "GL_GREMEDY_frame_terminator", "GL_ARB_debug_output",
		"GL_AMD_debug_output", "GL_KHR_debug", "GL_EXT_debug_marker", "GL_EXT_debug_label",
		"GL_VMWX_map_buffer_debug",
	};
	const struct trace_at_value *r = trace_ati_machine(&call->ret);
	int64_t index = 0;

	if (!strcmp(call->sig->name, "glGetIntegerv") && arg_u(call, 0) == 0x821D &&
	    call->nargs > 1) {   /* GL_NUM_EXTENSIONS */
		const struct trace_at_value *o = trace_ati_machine(&call->outs[1]);
		if (o->kind == TRACE_AT_ARRAY && o->agg.count == 1)
			trace_ati_int(&o->agg.items[0], &c->num_extensions);
		return false;
	}
	if (c->num_extensions < 0 || strcmp(call->sig->name, "glGetStringi") ||
	    arg_u(call, 0) != 0x1F03 /* GL_EXTENSIONS */ || call->nargs < 2 ||
	    !trace_ati_int(&call->args[1], &index) || r->kind != TRACE_AT_STRING ||
	    index < c->num_extensions - (int64_t)(sizeof own / sizeof own[0]))
		return false;
	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
		if (strlen(own[i]) == r->s.len && !memcmp(own[i], r->s.bytes, r->s.len))
			return true;
	return false;
}

static bool needs_funcdef(struct thread_state *ts, uint32_t sig_id)
{
	if (sig_id >= ts->defined_len) {
		uint32_t n = (sig_id + 64) & ~63u;
		uint8_t *g = xt_realloc(ts->defined, n);
		if (!g)
			return true;   /* a repeated funcdef is harmless */
		memset(g + ts->defined_len, 0, n - ts->defined_len);
		ts->defined = g;
		ts->defined_len = n;
	}
	if (ts->defined[sig_id])
		return false;
	ts->defined[sig_id] = 1;
	return true;
}

static enum xt_rc convert_call(struct conv *c, const struct trace_at_call *call)
{
	const struct trace_at_func_sig *sig = call->sig;
	struct thread_state *ts = thread_of(c, call->thread);
	struct glapi_func_info fi;
	int id;
	enum xt_rc rc;

	if (!ts)
		return trace_ati_nomem(c);
	/* apitrace's bookkeeping calls (ids 0-3, not part of the API). */
	if (sig->id == 0 && !strcmp(sig->name, "memcpy")) {
		const struct trace_at_value *dst, *src;
		dst = call->nargs > 0 ? trace_ati_machine(&call->args[0]) : NULL;
		src = call->nargs > 1 ? trace_ati_machine(&call->args[1]) : NULL;
		if (!dst || !src || dst->kind != TRACE_AT_POINTER || src->kind != TRACE_AT_BLOB) {
			trace_ati_report(c, sig->name, "a memcpy without a destination pointer and a blob",
				   call->no);
			return XT_OK;
		}
		return trace_ati_add_pending(c, ts, dst->u, src->s.bytes, src->s.len, false);
	}
	if (sig->id <= 3 && (!strcmp(sig->name, "malloc") || !strcmp(sig->name, "free") ||
			     !strcmp(sig->name, "realloc"))) {
		trace_ati_report(c, sig->name, "apitrace's memory bookkeeping call (dropped)", call->no);
		return XT_OK;
	}

	if (tracer_extension(c, call)) {
		trace_ati_report(c, sig->name,
			   "an extension string apitrace's tracer advertises (dropped)", call->no);
		return XT_OK;
	}
	if (!ts->seen) {
		ts->seen = true;
		if ((rc = emit_thread(c, call->thread, call->no)))
			return rc;
	}
	if (!(call->flags & TRACE_AT_FAKE)) {
		if (ts->npw && (rc = emit_memwrites(c, ts, sig->name, call->no)))
			return rc;
		c->client_addr = CLIENT_BASE;
	} else {
		c->res->fake_calls++;
	}

	id = glapi_id_of(c, sig);
	if (id < 0 || !glapi_func_info(id, &fi)) {
		id = -1;
		memset(&fi, 0, sizeof fi);
		fi.nparams = sig->nargs;
		trace_ati_report(c, sig->name, "a function the GL/GLES/EGL/GLX registry does not have",
			   call->no);
	}

	/* CALL: func_id, thread, [funcdef], nargs, values. */
	xt_buf_reset(&c->call);
	xt_buf_reset(&c->outs);
	c->nouts = 0;
	bool def = needs_funcdef(ts, sig->id);
	if (put_u32(&c->call, sig->id) || put_u32(&c->call, call->thread))
		return trace_ati_nomem(c);
	if (def) {
		if (put_lenbytes(&c->call, sig->name, strlen(sig->name)) ||
		    put_varint(&c->call, fi.nparams))
			return trace_ati_nomem(c);
		for (uint32_t i = 0; i < fi.nparams; i++) {
			struct glapi_param_info pi;
			const char *name = id >= 0 && glapi_param_info(id, i, &pi) ? pi.name
					   : i < sig->nargs ? sig->args[i] : "arg";
			if (put_lenbytes(&c->call, name, strlen(name)))
				return trace_ati_nomem(c);
		}
	}
	if (put_u32(&c->call, fi.nparams))
		return trace_ati_nomem(c);
	for (uint32_t i = 0; i < fi.nparams; i++) {
		if (id < 0) {
			static const struct trace_at_value absent;
			const struct trace_at_value *v = i < call->nargs ? &call->args[i] : &absent;
			if (v->kind == TRACE_AT_ABSENT && i < call->nargs)
				v = &call->outs[i];
			rc = trace_ati_put_generic(c, &c->call, v, 0);
		} else {
			rc = trace_ati_put_arg(c, ts, id, i, call);
		}
		if (rc)
			return rc == XT_ERR_NOMEM ? trace_ati_nomem(c) : rc;
	}
	if ((rc = emit(c, TRACE_REC_CALL, TRACE_RECF_ATTACHED | (def ? TRACE_RECF_FUNCDEF : 0),
		       call->no, &c->call)))
		return rc;
	c->res->calls++;
	if (call->flags & TRACE_AT_INCOMPLETE) {
		c->res->incomplete++;
		return XT_OK;
	}

	/* RET: thread, return value, nouts, (index, value)*. */
	if (fi.ret_kind != GLAPI_K_VOID || c->nouts || (id < 0 && call->ret.kind != TRACE_AT_ABSENT)) {
		xt_buf_reset(&c->call);
		if (put_u32(&c->call, call->thread))
			return trace_ati_nomem(c);
		rc = id < 0 ? trace_ati_put_generic(c, &c->call, &call->ret, 0)
			    : trace_ati_put_ret(c, &c->call, fi.ret_kind, &call->ret);
		if (rc || put_u32(&c->call, c->nouts) ||
		    xt_buf_append(&c->call, c->outs.data, c->outs.len))
			return trace_ati_nomem(c);
		if ((rc = emit(c, TRACE_REC_RET, TRACE_RECF_ATTACHED, call->no, &c->call)))
			return rc;
	}
	return after_call(c, ts, call);
}

enum xt_rc trace_apitrace_convert(const char *path, trace_at_sink sink, void *ctx,
				  struct trace_at_import_result *res, struct xt_err *err)
{
	struct conv c = { .sink = sink, .ctx = ctx, .res = res, .err = err,
			  .next_addr = OUT_BASE, .client_addr = CLIENT_BASE, .num_extensions = -1 };
	struct trace_at_call call;
	enum xt_rc rc;

	rc = trace_apitrace_open(&c.r, path, err);
	if (rc)
		return rc;
	snprintf(res->container, sizeof res->container, "%s", trace_apitrace_container(c.r));
	res->version = trace_apitrace_version(c.r);
	rc = emit_properties(&c);
	while (rc == XT_OK) {
		rc = trace_apitrace_next(c.r, &call);
		if (rc == XT_ERR_EOF) {
			rc = XT_OK;
			break;
		}
		if (rc) {
			xt_err_copy(err, trace_apitrace_err(c.r));
			break;
		}
		rc = convert_call(&c, &call);
	}
	/* Writes whose call never came (the trace ended after a memcpy). */
	for (uint32_t t = 0; t < c.nthreads; t++) {
		for (size_t i = 0; i < c.threads[t].npw; i++)
			xt_free(c.threads[t].pw[i].data);
		if (c.threads[t].npw)
			trace_ati_report(&c, "memcpy",
				   "a mapped-memory write after the last call of its thread", 0);
		xt_free(c.threads[t].pw);
		xt_free(c.threads[t].defined);
	}
	xt_free(c.threads);
	xt_free(c.glapi_ids);
	xt_buf_fini(&c.call);
	xt_buf_fini(&c.outs);
	xt_buf_fini(&c.tmp);
	trace_apitrace_close(c.r);
	return rc;
}

/* ---- writing a .xfbt ---------------------------------------------------------------- */

struct file_sink {
	struct trace_spool *spool;
	struct trace_spool_stream *st;
};

static enum xt_rc to_spool(void *ctx, uint16_t type, uint16_t flags, uint64_t seq,
			   const uint8_t *payload, size_t n, struct xt_err *err)
{
	struct file_sink *fs = ctx;
	uint8_t *p = trace_spool_reserve(fs->st, n);
	if (!p) {
		trace_spool_last_error(fs->spool, err);
		return err->rc ? err->rc : XT_FAIL(err, XT_ERR_IO, "cannot write the trace");
	}
	if (n)
		memcpy(p, payload, n);
	trace_spool_commit(fs->st, type, flags, seq, n);
	return XT_OK;
}

enum xt_rc trace_apitrace_import(const char *in, const char *out,
				 struct trace_at_import_result *res, struct xt_err *err)
{
	struct file_sink fs = { 0 };
	struct trace_spool_tuning tune = { .no_thread = 1 };
	char *spool_path;
	size_t n = strlen(out) + 16;
	enum xt_rc rc;

	spool_path = xt_malloc(n);
	if (!spool_path)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	snprintf(spool_path, n, "%s.spool~", out);
	rc = trace_spool_open(&fs.spool, spool_path, 1, err);
	if (rc == XT_OK)
		rc = trace_spool_tune(fs.spool, &tune);
	if (rc == XT_OK && !(fs.st = trace_spool_stream_open(fs.spool, 0)))
		rc = XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	if (rc == XT_OK)
		rc = trace_apitrace_convert(in, to_spool, &fs, res, err);
	trace_spool_stream_close(fs.st);
	trace_spool_close(fs.spool);
	if (rc == XT_OK)
		rc = trace_compact(spool_path, out, err);
	unlink(spool_path);
	xt_free(spool_path);
	return rc;
}
