/*
 * trace_apitrace.h - a reader of apitrace's trace files (.trace), as written
 * by apitrace 11.1 (Debian's package) and later.
 *
 * The format is described, with the corrections to apitrace's own
 * docs/FORMAT.markdown that real traces required, in docs/apitrace.md §2
 * (the corrections: §2.7); docs/trace-format.md "Reading apitrace traces"
 * summarises what this reader accepts.  Layers:
 *
 *   container   trace_apitrace_stream.c: apitrace's snappy framing ('a' 't',
 *               then u32 length + raw snappy block chunks), gzip, zstd
 *               (13.x) and brotli (no magic: the fallback)
 *   grammar     trace_apitrace.c: header and properties, ENTER / LEAVE
 *               events, signatures defined on first use, values
 *
 * ENTER and LEAVE events of different threads interleave; the reader pairs
 * them and delivers whole calls in call-number order (the order of their
 * ENTERs, apitrace's own numbering).  Calls still without a LEAVE at the end
 * of the file (the application died inside them) are delivered flagged
 * TRACE_AT_INCOMPLETE.  Hostile input (truncation, flipped bits, absurd
 * counts) is an XT_ERR_CORRUPT whose message gives the offset in the
 * decompressed stream; calls completed before the damage have been
 * delivered.  Memory use is bounded by the calls in flight, not the file.
 */
#ifndef TRACE_APITRACE_H
#define TRACE_APITRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xt_rc.h"

struct trace_apitrace;

/* apitrace's TRACE_VERSION that this reader knows; newer ones are refused. */
#define TRACE_APITRACE_MAX_VERSION 6u
/* The oldest version read (4: thread number in the ENTER event). */
#define TRACE_APITRACE_MIN_VERSION 4u

/* Value kinds (apitrace's type tags, plus ABSENT for an argument a call
 * never recorded). */
enum trace_at_kind {
	TRACE_AT_ABSENT = 0,
	TRACE_AT_NULL,
	TRACE_AT_FALSE,
	TRACE_AT_TRUE,
	TRACE_AT_SINT,      /* tag 03: negative integer */
	TRACE_AT_UINT,      /* tag 04 */
	TRACE_AT_FLOAT,
	TRACE_AT_DOUBLE,
	TRACE_AT_STRING,    /* tags 07 and 0f (wide strings, as UTF-8) */
	TRACE_AT_BLOB,
	TRACE_AT_ENUM,
	TRACE_AT_BITMASK,
	TRACE_AT_ARRAY,     /* also output pointers ("&1": an array of one) */
	TRACE_AT_STRUCT,
	TRACE_AT_POINTER,   /* tag 0d: an opaque pointer (or buffer offset) */
	TRACE_AT_REPR,      /* tag 0e: items[0] human form, items[1] machine */
};

struct trace_at_enum_sig {
	uint32_t count;
	const char **names;
	int64_t *values;
};

struct trace_at_bitmask_sig {
	uint32_t count;
	const char **names;
	uint64_t *values;
};

struct trace_at_struct_sig {
	const char *name;
	uint32_t nmembers;
	const char **members;
};

struct trace_at_func_sig {
	uint32_t id;              /* apitrace's id: 0 memcpy, 1 malloc, 2 free,
	                           * 3 realloc, 4+ the traced API */
	const char *name;         /* NUL-terminated */
	uint32_t nargs;
	const char **args;        /* argument names */
};

struct trace_at_value {
	enum trace_at_kind kind;
	union {
		int64_t i;                        /* SINT */
		uint64_t u;                       /* UINT, POINTER */
		float f;
		double d;
		struct {                          /* STRING, BLOB */
			const uint8_t *bytes;
			size_t len;
		} s;
		struct {                          /* ENUM */
			const struct trace_at_enum_sig *sig;
			int64_t value;
		} en;
		struct {                          /* BITMASK */
			const struct trace_at_bitmask_sig *sig;
			uint64_t value;
		} bm;
		struct {                          /* ARRAY, STRUCT, REPR */
			struct trace_at_value *items;
			uint32_t count;
			const struct trace_at_struct_sig *sig;   /* STRUCT */
		} agg;
	};
};

#define TRACE_AT_FAKE 0x1u        /* apitrace's FLAG_FAKE: made by the tracer */
#define TRACE_AT_INCOMPLETE 0x2u  /* no LEAVE before the end of the file */

struct trace_at_call {
	uint64_t no;                       /* apitrace's call number */
	uint32_t thread;                   /* 0-based, order of first call */
	uint32_t flags;                    /* TRACE_AT_* */
	const struct trace_at_func_sig *sig;
	uint32_t nargs;                    /* max(sig->nargs, highest arg + 1) */
	struct trace_at_value *args;       /* from ENTER; ABSENT if not there */
	struct trace_at_value *outs;       /* from LEAVE; ABSENT if not there */
	struct trace_at_value ret;         /* ABSENT: none recorded */
};

/* A header property ("process.name", "process.commandLine" ...). */
struct trace_at_property {
	const char *name, *value;
};

/*
 * Opens `path`.  XT_ERR_VERSION for a trace of a newer apitrace format,
 * XT_ERR_CORRUPT for a file that is not an apitrace trace or whose
 * container is damaged, XT_ERR_UNSUPPORTED for a container this build
 * cannot decompress.  On error *out is NULL and `err` says why.
 */
enum xt_rc trace_apitrace_open(struct trace_apitrace **out, const char *path,
			       struct xt_err *err);
/* NULL is a no-op. */
void trace_apitrace_close(struct trace_apitrace *r);

/*
 * Delivers the next call in call-number order.  The call and everything it
 * points to are borrowed until the next trace_apitrace_next() or _close().
 * XT_ERR_EOF at the end; another code with trace_apitrace_err() set.
 */
enum xt_rc trace_apitrace_next(struct trace_apitrace *r, struct trace_at_call *out);
const struct xt_err *trace_apitrace_err(const struct trace_apitrace *r);

/* The file's format version and properties (valid while open). */
uint32_t trace_apitrace_version(const struct trace_apitrace *r);
const struct trace_at_property *trace_apitrace_properties(const struct trace_apitrace *r,
							  size_t *count);
/* "snappy", "gzip", "zstd" or "brotli". */
const char *trace_apitrace_container(const struct trace_apitrace *r);
/* Bytes of the decompressed stream consumed so far. */
uint64_t trace_apitrace_stream_offset(const struct trace_apitrace *r);

/* Calls waiting for their LEAVE beyond which the oldest is delivered
 * incomplete (a thread blocked in a call forever must not exhaust memory). */
#define TRACE_AT_MAX_IN_FLIGHT 65536u

/*
 * Whether the first bytes of a file look like an apitrace trace with a
 * magic number (snappy, gzip, zstd).  Brotli has none: callers that want
 * it treat a ".trace" name as apitrace.
 */
bool trace_apitrace_sniff(const uint8_t *head, size_t n);

/* ---- the container layer (trace_apitrace_stream.c), for the reader ---- */

struct trace_at_stream;

enum xt_rc trace_at_stream_open(struct trace_at_stream **out, const char *path,
				struct xt_err *err);
void trace_at_stream_close(struct trace_at_stream *s);
/*
 * Makes the next piece of the decompressed stream available in
 * [*data, *data + *len), replacing the previous piece (borrowed until the
 * next call).  XT_ERR_EOF at a clean end; XT_ERR_CORRUPT (with `err`) when
 * the container is damaged or cut short.
 */
enum xt_rc trace_at_stream_fill(struct trace_at_stream *s, const uint8_t **data, size_t *len,
				struct xt_err *err);
const char *trace_at_stream_kind(const struct trace_at_stream *s);

#endif
