/*
 * trace_apitrace_import_int.h - what the two halves of the apitrace import
 * share (trace_apitrace_import.c: calls, contexts, records;
 * trace_apitrace_args.c: apitrace values to xfbtrace values): the
 * conversion state and the encoders into growable buffers.  Private to
 * trace/; its functions are named trace_ati_ (apitrace import).
 */
#ifndef TRACE_APITRACE_IMPORT_INT_H
#define TRACE_APITRACE_IMPORT_INT_H

#include <string.h>

#include "glapi.h"
#include "glapi_attribs.h"
#include "trace_apitrace.h"
#include "trace_apitrace_import.h"
#include "trace_enc.h"
#include "trace_format.h"
#include "xt_buf.h"

/* Synthetic client addresses (apitrace keeps none for blobs): outputs and
 * inputs count up from OUT_BASE; a draw's user arrays are laid out from
 * CLIENT_BASE again for every draw, so the replay needs one shadow. */
#define OUT_BASE UINT64_C(0x7e0000000000)
#define CLIENT_BASE UINT64_C(0x7c0000000000)
#define MAX_UNTRANSLATED 4096

#define GL_PIXEL_PACK_BUFFER_ 0x88EB
#define GL_QUERY_BUFFER_ 0x9192

/* A MEMWRITE waiting for its thread's next real call (apitrace's fake
 * memcpy, or a user array for the next draw). */
struct pending_write {
	uint64_t addr;
	uint8_t *data;
	size_t len;
	bool client_array;
};

/* What the conversion keeps per apitrace thread. */
struct thread_state {
	bool seen;
	bool gles_api;              /* eglBindAPI(EGL_OPENGL_ES_API) */
	struct pending_write *pw;
	size_t npw;
	uint8_t *defined;           /* funcdef written, by function sig id */
	uint32_t defined_len;
};

/* One conversion: the reader, the sink, the result and the buffers the
 * records are built in. */
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

/* Counts an untranslated value of `func` under `reason` (first at call no). */
void trace_ati_report(struct conv *c, const char *func, const char *reason, uint64_t no);

static inline enum xt_rc trace_ati_nomem(struct conv *c)
{
	return XT_FAIL(c->err, XT_ERR_NOMEM, "out of memory");
}

/* ---- encoding into growable buffers ----------------------------------------- */

#define ROOM(b, n) do { if (xt_buf_reserve((b), (n))) return XT_ERR_NOMEM; } while (0)
#define AT(b) ((b)->data + (b)->len)
#define SETEND(b, p) ((b)->len = (size_t)((p) - (b)->data))

static inline enum xt_rc put_u32(struct xt_buf *b, uint32_t v)
{
	ROOM(b, 4);
	SETEND(b, trace_enc_u32(AT(b), v));
	return XT_OK;
}

static inline enum xt_rc put_varint(struct xt_buf *b, uint64_t v)
{
	ROOM(b, TRACE_ENC_MAX_VARINT);
	SETEND(b, trace_enc_varint(AT(b), v));
	return XT_OK;
}

static inline enum xt_rc put_tagged(struct xt_buf *b, enum trace_tag tag, uint64_t v)
{
	ROOM(b, TRACE_ENC_MAX_SCALAR);
	SETEND(b, trace_enc_varint(trace_enc_tag(AT(b), tag), v));
	return XT_OK;
}

static inline enum xt_rc put_tag(struct xt_buf *b, enum trace_tag tag)
{
	ROOM(b, 1);
	SETEND(b, trace_enc_tag(AT(b), tag));
	return XT_OK;
}

static inline enum xt_rc put_lenbytes(struct xt_buf *b, const void *p, size_t n)
{
	ROOM(b, TRACE_ENC_MAX_VARINT + n);
	SETEND(b, trace_enc_lenbytes(AT(b), p, n));
	return XT_OK;
}

static inline enum xt_rc put_string(struct xt_buf *b, const void *p, size_t n)
{
	enum xt_rc rc = put_tag(b, TRACE_TAG_STRING);
	return rc ? rc : put_lenbytes(b, p, n);
}

static inline enum xt_rc put_memory(struct xt_buf *b, uint64_t addr, const void *p, size_t n)
{
	enum xt_rc rc = put_tagged(b, TRACE_TAG_MEMORY, addr);
	return rc ? rc : put_lenbytes(b, p, n);
}

static inline enum xt_rc put_unsized(struct xt_buf *b, const char *reason)
{
	enum xt_rc rc = put_tagged(b, TRACE_TAG_UNSIZED, 0);
	return rc ? rc : put_lenbytes(b, reason, strlen(reason));
}

static inline enum xt_rc put_sint(struct xt_buf *b, int64_t v)
{
	ROOM(b, TRACE_ENC_MAX_SCALAR);
	SETEND(b, trace_enc_sint(AT(b), v));
	return XT_OK;
}

static inline enum xt_rc put_float(struct xt_buf *b, float v)
{
	ROOM(b, 5);
	SETEND(b, trace_enc_float(AT(b), v));
	return XT_OK;
}

static inline enum xt_rc put_double(struct xt_buf *b, double v)
{
	ROOM(b, 9);
	SETEND(b, trace_enc_double(AT(b), v));
	return XT_OK;
}

static inline enum xt_rc put_key(struct xt_buf *b, const char *k)
{
	return put_lenbytes(b, k, strlen(k));
}

/* ---- trace_apitrace_args.c ---- */
/* The value itself, under apitrace's wrappers (a machine value of a
 * generic one). */
const struct trace_at_value *trace_ati_machine(const struct trace_at_value *v);
/* The value as an integer / a real number; false when it is none. */
bool trace_ati_int(const struct trace_at_value *v, int64_t *out);
bool trace_ati_real(const struct trace_at_value *v, double *out);
/* Appends argument i of known function `id` to c->call (and its output to
 * c->outs, a client array to the thread's pending MEMWRITEs). */
enum xt_rc trace_ati_put_arg(struct conv *c, struct thread_state *ts, int id, uint32_t i,
		       const struct trace_at_call *call);
/* A value of a function the API tables do not know, by its own type. */
enum xt_rc trace_ati_put_generic(struct conv *c, struct xt_buf *b, const struct trace_at_value *v,
			   int depth);
/* Queues a MEMWRITE of len bytes at addr for the thread's next real call. */
enum xt_rc trace_ati_add_pending(struct conv *c, struct thread_state *ts, uint64_t addr,
			   const uint8_t *data, size_t len, bool client_array);
/* Appends a return value of kind k to b. */
enum xt_rc trace_ati_put_ret(struct conv *c, struct xt_buf *b, enum glapi_kind k,
		       const struct trace_at_value *v);

#endif
