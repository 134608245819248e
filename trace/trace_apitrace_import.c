/*
 * trace_apitrace_import.c - apitrace calls mapped onto xfbtrace records
 * (trace_apitrace_import.h; docs/trace-format.md "Importing apitrace
 * traces"; the facts about apitrace in ../shared/reference/apitrace.md
 * §1 and §2.4).
 *
 * Each apitrace call becomes a CALL record (and a RET when it returned a
 * value or wrote outputs) numbered as apitrace numbers it.  Arguments are
 * re-encoded by the kind libglapi gives the parameter, which is how the
 * capture library records them, so the replay handles both alike:
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

#include "glapi.h"
#include "trace_apitrace.h"
#include "trace_apitrace_import.h"
#include "trace_enc.h"
#include "trace_format.h"
#include "trace_reader.h"
#include "trace_spool.h"
#include "xt_buf.h"
#include "xt_fault.h"

/* Synthetic client addresses (apitrace keeps none for blobs): outputs and
 * inputs count up from OUT_BASE; a draw's user arrays are laid out from
 * CLIENT_BASE again for every draw, so the replay needs one shadow. */
#define OUT_BASE UINT64_C(0x7e0000000000)
#define CLIENT_BASE UINT64_C(0x7c0000000000)
#define MAX_UNTRANSLATED 4096

#define EGL_NONE_ 0x3038
#define EGL_OPENGL_ES_API_ 0x30A0
#define EGL_CONTEXT_MAJOR_VERSION_ 0x3098
#define EGL_CONTEXT_MINOR_VERSION_ 0x30FB
#define EGL_CONTEXT_FLAGS_KHR_ 0x30FC
#define EGL_CONTEXT_OPENGL_PROFILE_MASK_ 0x30FD
#define EGL_CONTEXT_OPENGL_DEBUG_ 0x31B0
#define EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_ 0x31B1
#define EGL_CONTEXT_OPENGL_ROBUST_ACCESS_ 0x31B2
#define GL_PIXEL_PACK_BUFFER_ 0x88EB
#define GL_QUERY_BUFFER_ 0x9192

struct pending_write {
	uint64_t addr;
	uint8_t *data;
	size_t len;
	bool client_array;
};

struct thread_state {
	bool seen;
	bool gles_api;              /* eglBindAPI(EGL_OPENGL_ES_API) */
	struct pending_write *pw;
	size_t npw;
	uint8_t *defined;           /* funcdef written, by function sig id */
	uint32_t defined_len;
};

struct conv {
	struct trace_apitrace *r;
	trace_at_sink sink;
	void *ctx;
	struct trace_at_import_result *res;
	struct xt_err *err;
	struct xt_buf call, outs, tmp;
	uint32_t nouts;
	struct thread_state *threads;
	uint32_t nthreads;
	int *glapi_ids;             /* by function sig id: -2 not looked up yet */
	uint32_t nglapi_ids;
	uint64_t next_addr, client_addr, frames;
	uint32_t pack_buffer, query_buffer;
	int64_t num_extensions;     /* GL_NUM_EXTENSIONS as recorded, -1 unknown */
};

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
static void report(struct conv *c, const char *func, const char *reason, uint64_t no)
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

/* ---- encoding into growable buffers ----------------------------------------- */

#define ROOM(b, n) do { if (xt_buf_reserve((b), (n))) return XT_ERR_NOMEM; } while (0)
#define AT(b) ((b)->data + (b)->len)
#define SETEND(b, p) ((b)->len = (size_t)((p) - (b)->data))

static enum xt_rc put_u32(struct xt_buf *b, uint32_t v)
{
	ROOM(b, 4);
	SETEND(b, trace_enc_u32(AT(b), v));
	return XT_OK;
}

static enum xt_rc put_varint(struct xt_buf *b, uint64_t v)
{
	ROOM(b, TRACE_ENC_MAX_VARINT);
	SETEND(b, trace_enc_varint(AT(b), v));
	return XT_OK;
}

static enum xt_rc put_tagged(struct xt_buf *b, enum trace_tag tag, uint64_t v)
{
	ROOM(b, TRACE_ENC_MAX_SCALAR);
	SETEND(b, trace_enc_varint(trace_enc_tag(AT(b), tag), v));
	return XT_OK;
}

static enum xt_rc put_tag(struct xt_buf *b, enum trace_tag tag)
{
	ROOM(b, 1);
	SETEND(b, trace_enc_tag(AT(b), tag));
	return XT_OK;
}

static enum xt_rc put_lenbytes(struct xt_buf *b, const void *p, size_t n)
{
	ROOM(b, TRACE_ENC_MAX_VARINT + n);
	SETEND(b, trace_enc_lenbytes(AT(b), p, n));
	return XT_OK;
}

static enum xt_rc put_string(struct xt_buf *b, const void *p, size_t n)
{
	enum xt_rc rc = put_tag(b, TRACE_TAG_STRING);
	return rc ? rc : put_lenbytes(b, p, n);
}

static enum xt_rc put_memory(struct xt_buf *b, uint64_t addr, const void *p, size_t n)
{
	enum xt_rc rc = put_tagged(b, TRACE_TAG_MEMORY, addr);
	return rc ? rc : put_lenbytes(b, p, n);
}

static enum xt_rc put_unsized(struct xt_buf *b, const char *reason)
{
	enum xt_rc rc = put_tagged(b, TRACE_TAG_UNSIZED, 0);
	return rc ? rc : put_lenbytes(b, reason, strlen(reason));
}

static enum xt_rc put_sint(struct xt_buf *b, int64_t v)
{
	ROOM(b, TRACE_ENC_MAX_SCALAR);
	SETEND(b, trace_enc_sint(AT(b), v));
	return XT_OK;
}

static enum xt_rc put_float(struct xt_buf *b, float v)
{
	ROOM(b, 5);
	SETEND(b, trace_enc_float(AT(b), v));
	return XT_OK;
}

static enum xt_rc put_double(struct xt_buf *b, double v)
{
	ROOM(b, 9);
	SETEND(b, trace_enc_double(AT(b), v));
	return XT_OK;
}

static enum xt_rc put_key(struct xt_buf *b, const char *k)
{
	return put_lenbytes(b, k, strlen(k));
}

/* ---- apitrace values ---------------------------------------------------------- */

static const struct trace_at_value *machine(const struct trace_at_value *v)
{
	while (v->kind == TRACE_AT_REPR && v->agg.count == 2)
		v = &v->agg.items[1];
	return v;
}

static bool at_int(const struct trace_at_value *v, int64_t *out)
{
	v = machine(v);
	switch (v->kind) {
	case TRACE_AT_SINT: *out = v->i; return true;
	case TRACE_AT_UINT: case TRACE_AT_POINTER: *out = (int64_t)v->u; return true;
	case TRACE_AT_ENUM: *out = v->en.value; return true;
	case TRACE_AT_BITMASK: *out = (int64_t)v->bm.value; return true;
	case TRACE_AT_TRUE: *out = 1; return true;
	case TRACE_AT_FALSE: case TRACE_AT_NULL: *out = 0; return true;
	default: return false;
	}
}

static bool at_real(const struct trace_at_value *v, double *out)
{
	int64_t i;
	v = machine(v);
	if (v->kind == TRACE_AT_FLOAT) {
		*out = v->f;
		return true;
	}
	if (v->kind == TRACE_AT_DOUBLE) {
		*out = v->d;
		return true;
	}
	if (v->kind == TRACE_AT_UINT) {
		*out = (double)v->u;
		return true;
	}
	if (!at_int(v, &i))
		return false;
	*out = (double)i;
	return true;
}

static size_t elem_bytes(enum glapi_elem e)
{
	switch (e) {
	case GLAPI_E_U8: case GLAPI_E_I8: case GLAPI_E_CHAR: return 1;
	case GLAPI_E_U16: case GLAPI_E_I16: return 2;
	case GLAPI_E_U32: case GLAPI_E_I32: case GLAPI_E_F32: return 4;
	default: return 8;
	}
}

/*
 * Appends the bytes a value stands for in client memory of elements `e`:
 * blobs and strings as they are, arrays element by element (nested arrays
 * flattened), scalars as one element.  NULL: `why` says what failed.
 */
static enum xt_rc flatten(struct xt_buf *b, enum glapi_elem e, const struct trace_at_value *v,
			  int depth, const char **why)
{
	uint8_t raw[8];
	size_t n = elem_bytes(e);
	enum xt_rc rc;

	v = machine(v);
	if (depth > 8) {
		*why = "arrays nested too deeply";
		return XT_ERR_UNSUPPORTED;
	}
	switch (v->kind) {
	case TRACE_AT_BLOB:
	case TRACE_AT_STRING:
		return xt_buf_append(b, v->s.bytes, v->s.len) ? XT_ERR_NOMEM : XT_OK;
	case TRACE_AT_ARRAY:
		for (uint32_t i = 0; i < v->agg.count; i++)
			if ((rc = flatten(b, e, &v->agg.items[i], depth + 1, why)))
				return rc;
		return XT_OK;
	case TRACE_AT_STRUCT:
		*why = "a struct in client memory";
		return XT_ERR_UNSUPPORTED;
	default:
		break;
	}
	if (e == GLAPI_E_F32 || e == GLAPI_E_F64) {
		double d;
		if (!at_real(v, &d)) {
			*why = "a non-number where numbers belong";
			return XT_ERR_UNSUPPORTED;
		}
		if (e == GLAPI_E_F32) {
			float f = (float)d;
			memcpy(raw, &f, 4);
		} else {
			memcpy(raw, &d, 8);
		}
	} else {
		int64_t i;
		if (!at_int(v, &i)) {
			double d;
			if (!at_real(v, &d)) {
				*why = "a non-integer where integers belong";
				return XT_ERR_UNSUPPORTED;
			}
			i = (int64_t)d;
		}
		uint64_t u = (uint64_t)i;
		for (size_t k = 0; k < 8; k++)
			raw[k] = (uint8_t)(u >> (8 * k));   /* little-endian */
	}
	return xt_buf_append(b, raw, n) ? XT_ERR_NOMEM : XT_OK;
}

static uint64_t synthetic(struct conv *c, size_t len)
{
	uint64_t a = c->next_addr;
	c->next_addr += (len + 63) & ~(uint64_t)63;
	if (c->next_addr < a || c->next_addr > OUT_BASE + (UINT64_C(1) << 40))
		c->next_addr = OUT_BASE;   /* wrapped: addresses only need to be plausible */
	return a;
}

/* A value of a function the API tables do not know, by its own type. */
static enum xt_rc put_generic(struct conv *c, struct xt_buf *b, const struct trace_at_value *v,
			      int depth)
{
	enum xt_rc rc;
	v = machine(v);
	switch (v->kind) {
	case TRACE_AT_ABSENT:
	case TRACE_AT_NULL: return put_tag(b, TRACE_TAG_NULL);
	case TRACE_AT_FALSE: return put_tag(b, TRACE_TAG_FALSE);
	case TRACE_AT_TRUE: return put_tag(b, TRACE_TAG_TRUE);
	case TRACE_AT_SINT: return put_sint(b, v->i);
	case TRACE_AT_UINT: return put_tagged(b, TRACE_TAG_UINT, v->u);
	case TRACE_AT_FLOAT: return put_float(b, v->f);
	case TRACE_AT_DOUBLE: return put_double(b, v->d);
	case TRACE_AT_STRING: return put_string(b, v->s.bytes, v->s.len);
	case TRACE_AT_BLOB: return put_memory(b, synthetic(c, v->s.len), v->s.bytes, v->s.len);
	case TRACE_AT_ENUM: return put_tagged(b, TRACE_TAG_ENUM, (uint64_t)v->en.value);
	case TRACE_AT_BITMASK: return put_tagged(b, TRACE_TAG_BITFIELD, v->bm.value);
	case TRACE_AT_POINTER: return put_tagged(b, TRACE_TAG_POINTER, v->u);
	case TRACE_AT_ARRAY:
		if (depth > 16)
			return put_unsized(b, "apitrace: arrays nested too deeply");
		if ((rc = put_tagged(b, TRACE_TAG_ARRAY, v->agg.count)))
			return rc;
		for (uint32_t i = 0; i < v->agg.count; i++)
			if ((rc = put_generic(c, b, &v->agg.items[i], depth + 1)))
				return rc;
		return XT_OK;
	default:
		return put_unsized(b, "apitrace: a struct");
	}
}

/* ---- records ------------------------------------------------------------------- */

static enum xt_rc emit(struct conv *c, uint16_t type, uint16_t flags, uint64_t seq,
		       const struct xt_buf *b)
{
	c->res->records++;
	return c->sink(c->ctx, type, flags, seq, b->data, b->len, c->err);
}

static enum xt_rc nomem(struct conv *c)
{
	return XT_FAIL(c->err, XT_ERR_NOMEM, "out of memory");
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
			return nomem(c);
		rc = emit(c, TRACE_REC_PROPERTY, 0, 0, &c->call);
	}
	return rc;
}

static enum xt_rc emit_thread(struct conv *c, uint32_t t, uint64_t no)
{
	xt_buf_reset(&c->tmp);
	if (put_tagged(&c->tmp, TRACE_TAG_MAP, 1) || put_key(&c->tmp, "thread") ||
	    put_tagged(&c->tmp, TRACE_TAG_UINT, t))
		return nomem(c);
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
				rc = nomem(c);
			else
				rc = emit(c, TRACE_REC_MEMWRITE, TRACE_RECF_ATTACHED, no, &c->tmp);
			c->res->memwrites++;
		}
		xt_free(w->data);
	}
	ts->npw = 0;
	return rc;
}

static enum xt_rc add_pending(struct conv *c, struct thread_state *ts, uint64_t addr,
			      const uint8_t *data, size_t len, bool client_array)
{
	struct pending_write *g = xt_realloc(ts->pw, (ts->npw + 1) * sizeof *g);
	if (!g)
		return nomem(c);
	ts->pw = g;
	g[ts->npw].data = xt_malloc(len ? len : 1);
	if (!g[ts->npw].data)
		return nomem(c);
	if (len)
		memcpy(g[ts->npw].data, data, len);
	g[ts->npw].addr = addr;
	g[ts->npw].len = len;
	g[ts->npw].client_array = client_array;
	ts->npw++;
	return XT_OK;
}

/* An output for the RET record: (argument index, value) into c->outs. */
static enum xt_rc out_memory(struct conv *c, uint32_t i, uint64_t addr,
			     const struct trace_at_value *o, enum glapi_elem e, const char *func,
			     uint64_t no)
{
	const char *why = NULL;
	enum xt_rc rc;

	xt_buf_reset(&c->tmp);
	rc = flatten(&c->tmp, e, o, 0, &why);
	if (rc == XT_ERR_NOMEM || put_u32(&c->outs, i))
		return nomem(c);
	c->nouts++;
	if (rc) {
		report(c, func, why, no);
		return put_unsized(&c->outs, why) ? nomem(c) : XT_OK;
	}
	return put_memory(&c->outs, addr, c->tmp.data, c->tmp.len) ? nomem(c) : XT_OK;
}

/* Appends argument i of known function `id` to c->call (and its output to c->outs). */
static enum xt_rc put_arg(struct conv *c, struct thread_state *ts, int id, uint32_t i,
			  const struct trace_at_call *call)
{
	const char *func = call->sig->name;
	static const struct trace_at_value absent;
	const struct trace_at_value *a = i < call->nargs ? machine(&call->args[i]) : &absent;
	const struct trace_at_value *o = i < call->nargs ? machine(&call->outs[i]) : &absent;
	const struct trace_at_value *v = a->kind != TRACE_AT_ABSENT ? a : o;
	struct xt_buf *b = &c->call;
	struct glapi_param_info pi;
	const char *why = NULL;
	int64_t n;
	double d;
	enum xt_rc rc;

	if (!glapi_param_info(id, i, &pi))
		return put_tag(b, TRACE_TAG_NULL);
	switch (pi.kind) {
	case GLAPI_K_SINT:
	case GLAPI_K_UINT:
	case GLAPI_K_ENUM:
	case GLAPI_K_BITFIELD:
	case GLAPI_K_BOOL:
	case GLAPI_K_HANDLE:
		if (v->kind == TRACE_AT_ABSENT) {
			why = "an argument apitrace did not record";
			break;
		}
		if (!at_int(v, &n)) {
			why = "a non-integer where an integer belongs";
			break;
		}
		switch (pi.kind) {
		case GLAPI_K_SINT: return put_sint(b, n);
		case GLAPI_K_UINT: return put_tagged(b, TRACE_TAG_UINT, (uint64_t)n);
		case GLAPI_K_ENUM: return put_tagged(b, TRACE_TAG_ENUM, (uint32_t)n);
		case GLAPI_K_BITFIELD: return put_tagged(b, TRACE_TAG_BITFIELD, (uint32_t)n);
		case GLAPI_K_BOOL: return put_tag(b, n ? TRACE_TAG_TRUE : TRACE_TAG_FALSE);
		default: return put_tagged(b, TRACE_TAG_HANDLE, (uint64_t)n);
		}
	case GLAPI_K_FLOAT:
	case GLAPI_K_DOUBLE:
		if (!at_real(v, &d)) {
			why = "a non-number where a number belongs";
			break;
		}
		return pi.kind == GLAPI_K_FLOAT ? put_float(b, (float)d) : put_double(b, d);
	case GLAPI_K_POINTER:
		if (v->kind == TRACE_AT_BLOB)
			return put_tagged(b, TRACE_TAG_POINTER, synthetic(c, v->s.len));
		if (!at_int(v, &n))
			return put_tagged(b, TRACE_TAG_POINTER, 0);
		return put_tagged(b, TRACE_TAG_POINTER, (uint64_t)n);
	case GLAPI_K_STRING:
		if (v->kind == TRACE_AT_NULL || v->kind == TRACE_AT_ABSENT)
			return put_tag(b, TRACE_TAG_NULL);
		if (v->kind == TRACE_AT_ARRAY && v->agg.count == 1)
			v = machine(&v->agg.items[0]);
		if (v->kind == TRACE_AT_STRING || v->kind == TRACE_AT_BLOB)
			return put_string(b, v->s.bytes, v->s.len);
		why = "a string apitrace did not record as one";
		break;
	case GLAPI_K_STRARRAY:
		if (v->kind == TRACE_AT_NULL || v->kind == TRACE_AT_ABSENT)
			return put_tag(b, TRACE_TAG_NULL);
		if (v->kind != TRACE_AT_ARRAY) {
			why = "a string array apitrace did not record as an array";
			break;
		}
		if ((rc = put_tagged(b, TRACE_TAG_ARRAY, v->agg.count)))
			return rc;
		for (uint32_t k = 0; k < v->agg.count; k++) {
			const struct trace_at_value *s = machine(&v->agg.items[k]);
			if (s->kind == TRACE_AT_STRING || s->kind == TRACE_AT_BLOB)
				rc = put_string(b, s->s.bytes, s->s.len);
			else
				rc = put_tag(b, TRACE_TAG_NULL);
			if (rc)
				return rc;
		}
		return XT_OK;
	case GLAPI_K_OUTSTRING:
		if (a->kind == TRACE_AT_NULL || (a->kind == TRACE_AT_ABSENT &&
						 (o->kind == TRACE_AT_NULL || o->kind == TRACE_AT_ABSENT)))
			return put_tag(b, TRACE_TAG_NULL);
		if (o->kind == TRACE_AT_STRING || o->kind == TRACE_AT_BLOB) {
			uint64_t addr = synthetic(c, o->s.len + 1);
			if (put_u32(&c->outs, i) || put_string(&c->outs, o->s.bytes, o->s.len))
				return nomem(c);
			c->nouts++;
			return put_tagged(b, TRACE_TAG_POINTER, addr);
		}
		return put_tagged(b, TRACE_TAG_POINTER, a->kind == TRACE_AT_POINTER ? a->u
						       : synthetic(c, 1));
	case GLAPI_K_VERTEXPTR:
		if (v->kind == TRACE_AT_NULL || v->kind == TRACE_AT_ABSENT)
			return put_tag(b, TRACE_TAG_NULL);
		if (v->kind == TRACE_AT_POINTER || v->kind == TRACE_AT_UINT)
			return put_tagged(b, TRACE_TAG_OFFSET, v->u);
		if (v->kind == TRACE_AT_BLOB) {
			/* A user array apitrace copied at the draw. */
			uint64_t addr = c->client_addr;
			c->client_addr += (v->s.len + 63) & ~(uint64_t)63;
			if ((rc = add_pending(c, ts, addr, v->s.bytes, v->s.len, true)))
				return rc;
			return put_tagged(b, TRACE_TAG_POINTER, addr);
		}
		why = "a vertex pointer that is neither a buffer offset nor a blob";
		break;
	case GLAPI_K_MEM_OUT:
		if (a->kind == TRACE_AT_NULL)
			return put_tag(b, TRACE_TAG_NULL);
		if (o->kind == TRACE_AT_ARRAY || o->kind == TRACE_AT_BLOB || o->kind == TRACE_AT_STRING) {
			uint64_t addr = synthetic(c, 64);
			if ((rc = out_memory(c, i, addr, o, pi.elem, func, call->no)))
				return rc;
			return put_tagged(b, TRACE_TAG_POINTER, addr);
		}
		if (v->kind == TRACE_AT_POINTER) {
			/* A read-back: apitrace keeps the address only. */
			if ((pi.binding == GLAPI_B_PACK && c->pack_buffer) ||
			    (pi.binding == GLAPI_B_QUERY && c->query_buffer))
				return put_tagged(b, TRACE_TAG_OFFSET, v->u);
			return put_tagged(b, TRACE_TAG_POINTER, v->u);
		}
		if (v->kind == TRACE_AT_NULL)
			return put_tag(b, TRACE_TAG_NULL);
		return put_tagged(b, TRACE_TAG_POINTER, synthetic(c, 64));
	case GLAPI_K_ATTRIBS:
	case GLAPI_K_MEM_IN:
	default:
		if (v->kind == TRACE_AT_NULL || v->kind == TRACE_AT_ABSENT ||
		    (pi.kind == GLAPI_K_ATTRIBS && v->kind == TRACE_AT_ARRAY && !v->agg.count))
			return put_tag(b, TRACE_TAG_NULL);
		if (v->kind == TRACE_AT_POINTER || v->kind == TRACE_AT_UINT) {
			if (pi.binding != GLAPI_B_NONE)
				return put_tagged(b, TRACE_TAG_OFFSET, v->u);
			why = "client memory apitrace recorded as an address only";
			break;
		}
		xt_buf_reset(&c->tmp);
		rc = flatten(&c->tmp, pi.elem, v, 0, &why);
		if (rc == XT_ERR_NOMEM)
			return rc;
		if (rc)
			break;
		return put_memory(b, synthetic(c, c->tmp.len), c->tmp.data, c->tmp.len);
	}
	report(c, func, why, call->no);
	return put_unsized(b, why);
}

static enum xt_rc put_ret(struct conv *c, struct xt_buf *b, enum glapi_kind k,
			  const struct trace_at_value *v)
{
	int64_t n;
	double d;

	v = machine(v);
	if (k == GLAPI_K_VOID || v->kind == TRACE_AT_ABSENT || v->kind == TRACE_AT_NULL)
		return put_tag(b, TRACE_TAG_NULL);
	switch (k) {
	case GLAPI_K_STRING:
	case GLAPI_K_OUTSTRING:
		if (v->kind == TRACE_AT_STRING || v->kind == TRACE_AT_BLOB)
			return put_string(b, v->s.bytes, v->s.len);
		return put_tag(b, TRACE_TAG_NULL);
	case GLAPI_K_FLOAT:
		return at_real(v, &d) ? put_float(b, (float)d) : put_tag(b, TRACE_TAG_NULL);
	case GLAPI_K_DOUBLE:
		return at_real(v, &d) ? put_double(b, d) : put_tag(b, TRACE_TAG_NULL);
	default:
		break;
	}
	if (!at_int(v, &n))
		return put_generic(c, b, v, 0);
	switch (k) {
	case GLAPI_K_SINT: return put_sint(b, n);
	case GLAPI_K_UINT: return put_tagged(b, TRACE_TAG_UINT, (uint64_t)n);
	case GLAPI_K_ENUM: return put_tagged(b, TRACE_TAG_ENUM, (uint32_t)n);
	case GLAPI_K_BITFIELD: return put_tagged(b, TRACE_TAG_BITFIELD, (uint32_t)n);
	case GLAPI_K_BOOL: return put_tag(b, n ? TRACE_TAG_TRUE : TRACE_TAG_FALSE);
	case GLAPI_K_HANDLE: return put_tagged(b, TRACE_TAG_HANDLE, (uint64_t)n);
	default: return put_tagged(b, TRACE_TAG_POINTER, (uint64_t)n);
	}
}

/* ---- contexts and frames --------------------------------------------------------- */

static uint64_t arg_u(const struct trace_at_call *call, uint32_t i)
{
	int64_t n = 0;
	if (i < call->nargs)
		at_int(&call->args[i], &n);
	return (uint64_t)n;
}

static enum xt_rc context_create(struct conv *c, struct thread_state *ts,
				 const struct trace_at_call *call, uint64_t handle)
{
	int64_t major = 1, minor = 0, flags = 0, mask = 0;
	const struct trace_at_value *l = call->nargs > 3 ? machine(&call->args[3]) : NULL;
	const char *profile = "compat";

	for (uint32_t k = 0; l && l->kind == TRACE_AT_ARRAY && k + 1 < l->agg.count; k += 2) {
		int64_t key = 0, v = 0;
		at_int(&l->agg.items[k], &key);
		at_int(&l->agg.items[k + 1], &v);
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
		return nomem(c);
	c->res->contexts++;
	return emit(c, TRACE_REC_CONTEXT, TRACE_RECF_ATTACHED, call->no, &c->tmp);
}

/* CONTEXT / FRAME records and state that follow from a call that returned. */
static enum xt_rc after_call(struct conv *c, struct thread_state *ts,
			     const struct trace_at_call *call)
{
	const char *f = call->sig->name;
	int64_t ret = 0;
	bool ok = at_int(&call->ret, &ret) && ret != 0;

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
			return nomem(c);
		c->res->contexts++;
		return emit(c, TRACE_REC_CONTEXT, TRACE_RECF_ATTACHED, call->no, &c->tmp);
	} else if (!strcmp(f, "eglDestroyContext") && ok) {
		xt_buf_reset(&c->tmp);
		if (put_tagged(&c->tmp, TRACE_TAG_MAP, 2) ||
		    put_key(&c->tmp, "event") || put_string(&c->tmp, "destroy", 7) ||
		    put_key(&c->tmp, "context") || put_tagged(&c->tmp, TRACE_TAG_HANDLE, arg_u(call, 1)))
			return nomem(c);
		c->res->contexts++;
		return emit(c, TRACE_REC_CONTEXT, TRACE_RECF_ATTACHED, call->no, &c->tmp);
	} else if (!strcmp(f, "eglSwapBuffers")) {
		xt_buf_reset(&c->tmp);
		if (put_tagged(&c->tmp, TRACE_TAG_MAP, 1) || put_key(&c->tmp, "frame") ||
		    put_tagged(&c->tmp, TRACE_TAG_UINT, c->frames++))
			return nomem(c);
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
	const struct trace_at_value *r = machine(&call->ret);
	int64_t index = 0;

	if (!strcmp(call->sig->name, "glGetIntegerv") && arg_u(call, 0) == 0x821D &&
	    call->nargs > 1) {   /* GL_NUM_EXTENSIONS */
		const struct trace_at_value *o = machine(&call->outs[1]);
		if (o->kind == TRACE_AT_ARRAY && o->agg.count == 1)
			at_int(&o->agg.items[0], &c->num_extensions);
		return false;
	}
	if (c->num_extensions < 0 || strcmp(call->sig->name, "glGetStringi") ||
	    arg_u(call, 0) != 0x1F03 /* GL_EXTENSIONS */ || call->nargs < 2 ||
	    !at_int(&call->args[1], &index) || r->kind != TRACE_AT_STRING ||
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
		return nomem(c);
	/* apitrace's bookkeeping calls (ids 0-3, not part of the API). */
	if (sig->id == 0 && !strcmp(sig->name, "memcpy")) {
		const struct trace_at_value *dst = call->nargs > 0 ? machine(&call->args[0]) : NULL;
		const struct trace_at_value *src = call->nargs > 1 ? machine(&call->args[1]) : NULL;
		if (!dst || !src || dst->kind != TRACE_AT_POINTER || src->kind != TRACE_AT_BLOB) {
			report(c, sig->name, "a memcpy without a destination pointer and a blob",
			       call->no);
			return XT_OK;
		}
		return add_pending(c, ts, dst->u, src->s.bytes, src->s.len, false);
	}
	if (sig->id <= 3 && (!strcmp(sig->name, "malloc") || !strcmp(sig->name, "free") ||
			     !strcmp(sig->name, "realloc"))) {
		report(c, sig->name, "apitrace's memory bookkeeping call (dropped)", call->no);
		return XT_OK;
	}

	if (tracer_extension(c, call)) {
		report(c, sig->name, "an extension string apitrace's tracer advertises (dropped)",
		       call->no);
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
		report(c, sig->name, "a function the GL/GLES/EGL/GLX registry does not have",
		       call->no);
	}

	/* CALL: func_id, thread, [funcdef], nargs, values. */
	xt_buf_reset(&c->call);
	xt_buf_reset(&c->outs);
	c->nouts = 0;
	bool def = needs_funcdef(ts, sig->id);
	if (put_u32(&c->call, sig->id) || put_u32(&c->call, call->thread))
		return nomem(c);
	if (def) {
		if (put_lenbytes(&c->call, sig->name, strlen(sig->name)) ||
		    put_varint(&c->call, fi.nparams))
			return nomem(c);
		for (uint32_t i = 0; i < fi.nparams; i++) {
			struct glapi_param_info pi;
			const char *name = id >= 0 && glapi_param_info(id, i, &pi) ? pi.name
					   : i < sig->nargs ? sig->args[i] : "arg";
			if (put_lenbytes(&c->call, name, strlen(name)))
				return nomem(c);
		}
	}
	if (put_u32(&c->call, fi.nparams))
		return nomem(c);
	for (uint32_t i = 0; i < fi.nparams; i++) {
		if (id < 0) {
			static const struct trace_at_value absent;
			const struct trace_at_value *v = i < call->nargs ? &call->args[i] : &absent;
			if (v->kind == TRACE_AT_ABSENT && i < call->nargs)
				v = &call->outs[i];
			rc = put_generic(c, &c->call, v, 0);
		} else {
			rc = put_arg(c, ts, id, i, call);
		}
		if (rc)
			return rc == XT_ERR_NOMEM ? nomem(c) : rc;
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
			return nomem(c);
		rc = id < 0 ? put_generic(c, &c->call, &call->ret, 0)
			    : put_ret(c, &c->call, fi.ret_kind, &call->ret);
		if (rc || put_u32(&c->call, c->nouts) ||
		    xt_buf_append(&c->call, c->outs.data, c->outs.len))
			return nomem(c);
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
			report(&c, "memcpy", "a mapped-memory write after the last call of its thread",
			       0);
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
