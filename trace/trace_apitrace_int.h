/*
 * trace_apitrace_int.h - what the two halves of the apitrace stream parser
 * share (trace_apitrace.c: bytes, events, pairing ENTER / LEAVE;
 * trace_apitrace_values.c: signatures and values): the reader's state,
 * the limits on hostile input and the byte readers.  Private to trace/;
 * its functions are named trace_atr_ (apitrace reader).
 */
#ifndef TRACE_APITRACE_INT_H
#define TRACE_APITRACE_INT_H

#include "trace_apitrace.h"
#include "xt_arena.h"
#include "xt_buf.h"

#define MAX_DEPTH 32
#define MAX_SIG_ID (1u << 20)      /* signature ids beyond this are damage */
#define MAX_SIG_ITEMS (1u << 16)   /* enum values / struct members / args */
#define MAX_ARG_NO 255u
#define MAX_THREADS (1u << 16)
#define MAX_STRING_BYTES ((uint64_t)1 << 30)

enum { EV_ENTER = 0, EV_LEAVE = 1 };
enum { D_END = 0, D_ARG = 1, D_RET = 2, D_THREAD = 3, D_BACKTRACE = 4, D_FLAGS = 5 };
enum {
	T_NULL = 0, T_FALSE, T_TRUE, T_SINT, T_UINT, T_FLOAT, T_DOUBLE, T_STRING, T_BLOB,
	T_ENUM, T_BITMASK, T_ARRAY, T_STRUCT, T_OPAQUE, T_REPR, T_WSTRING,
};

struct slot {
	struct trace_at_call call;
	struct xt_arena arena;
	bool used, left;
};

/* A table of signatures of one kind, indexed by id (NULL: undefined). */
struct sig_table {
	void **items;
	uint32_t len;
};

struct trace_apitrace {
	struct trace_at_stream *st;
	struct xt_err err;
	const uint8_t *piece, *p, *end; /* the current decompressed piece */
	uint64_t piece_off;           /* stream offset of the piece's start */
	bool stream_eof;
	uint32_t version;
	struct xt_arena sig_arena;    /* signatures and properties */
	struct sig_table funcs, enums, bitmasks, structs, frames;
	struct trace_at_property *props;
	size_t nprops;
	struct slot *ring;            /* calls in flight: call no % cap */
	uint32_t cap;                 /* a power of two */
	uint64_t head;                /* oldest call not yet delivered */
	uint64_t next_no;             /* number of the next ENTER */
	struct slot *delivered;       /* the slot lent out by _next() */
	struct xt_buf scratch;        /* strings / blobs that straddle pieces */
	bool failed;
};

#define OFF(r) (unsigned long long)trace_apitrace_stream_offset(r)
#define CORRUPT(r, ...) XT_FAIL(&(r)->err, XT_ERR_CORRUPT, __VA_ARGS__)

/* ---- trace_apitrace.c: bytes of the stream, bounds-checked ---- */
enum xt_rc trace_atr_get_byte(struct trace_apitrace *r, uint8_t *out, const char *what);
enum xt_rc trace_atr_get_uint(struct trace_apitrace *r, uint64_t *out, const char *what);
enum xt_rc trace_atr_get_bytes(struct trace_apitrace *r, void *dst, size_t n, const char *what);
/* A length-prefixed byte string into arena a (NUL-terminated). */
enum xt_rc trace_atr_get_lenbytes(struct trace_apitrace *r, struct xt_arena *a, const uint8_t **out,
			    size_t *len, const char *what);
enum xt_rc trace_atr_get_string(struct trace_apitrace *r, struct xt_arena *a, const char **out,
			  const char *what);

/* ---- trace_apitrace_values.c: signatures and values ---- */
/* A function signature: its id, spelled out at its first use. */
enum xt_rc trace_atr_func_sig(struct trace_apitrace *r, const struct trace_at_func_sig **out);
/* Parses and drops a backtrace. */
enum xt_rc trace_atr_skip_backtrace(struct trace_apitrace *r);
/* One tagged value into arena a, nested at most MAX_DEPTH deep. */
enum xt_rc trace_atr_get_value(struct trace_apitrace *r, struct xt_arena *a, struct trace_at_value *v,
			 int depth);

#endif
