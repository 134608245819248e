/*
 * trace_reader.h - the one reader of xfbtrace traces, used by every consumer
 * (dump, info, replay, ingest).
 *
 * It streams records in global order (order key, trace_format.h) from either
 * form of file: compacted files chunk by chunk with bounded memory, spool
 * files by merging the threads' regions (the file is mapped, not read into
 * memory).  Corruption (bad magic, checksum, sizes, truncation, bad values)
 * is an XT_ERR_CORRUPT with the file offset of the chunk and record in the
 * message; the records before it have been delivered.  A spool region that
 * simply ends (the application died) is not corruption.
 *
 * Every record is validated before trace_reader_next() delivers it: it
 * must decode in full (values, funcdef, a defined function id), so a
 * consumer that reads only part of a record (info counts function ids,
 * replay decodes observations only when checking) rejects exactly what
 * `dump` rejects.  The trace_reader_decode_* functions below cannot fail
 * on a delivered record except for lack of memory.
 */
#ifndef TRACE_READER_H
#define TRACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_format.h"
#include "xt_arena.h"
#include "xt_rc.h"

struct trace_reader;

struct trace_record {
	uint16_t type;              /* enum trace_rec_type (maybe unknown) */
	uint16_t flags;             /* TRACE_RECF_* */
	uint64_t seq;               /* see trace_format.h */
	const uint8_t *payload;     /* borrowed until the next _next() call */
	size_t payload_bytes;
	uint64_t file_offset;       /* of the chunk holding it, for messages */
};

/*
 * Opens `path` for reading.  Rejects files that are not traces or are of
 * another format version with a message that says which.
 */
enum xt_rc trace_reader_open(struct trace_reader **out, const char *path,
			     struct xt_err *err);
/* NULL is a no-op. */
void trace_reader_close(struct trace_reader *r);

/* True for a spool-form file (written by the capture, not compacted). */
bool trace_reader_is_spool(const struct trace_reader *r);

/*
 * Delivers the next record.  XT_ERR_EOF at the end; another code on error,
 * with trace_reader_err() describing it (file offset included).
 */
enum xt_rc trace_reader_next(struct trace_reader *r, struct trace_record *rec);
const struct xt_err *trace_reader_err(const struct trace_reader *r);

/* Name of function `func_id` as defined by a funcdef seen so far, or NULL. */
const char *trace_reader_func_name(const struct trace_reader *r, uint32_t func_id);
/* Its parameter names (count in *nparams), or NULL. */
const char *const *trace_reader_func_params(const struct trace_reader *r,
					    uint32_t func_id, uint32_t *nparams);

/* ---- decoded values -------------------------------------------------- */

struct trace_value {
	enum trace_tag tag;
	union {
		int64_t i;          /* SINT */
		uint64_t u;         /* UINT, ENUM, BITFIELD, POINTER, OFFSET, HANDLE */
		float f;            /* FLOAT */
		double d;           /* DOUBLE */
		struct {            /* STRING, BLOB, MEMORY, UNSIZED (bytes = reason) */
			const uint8_t *bytes;  /* borrowed from the record payload */
			size_t len;
			uint64_t addr;        /* MEMORY, UNSIZED */
		} mem;
		struct {            /* ARRAY, MAP */
			struct trace_value *items;
			const char **keys;    /* MAP only: NUL-terminated, in arena */
			uint32_t count;
		} agg;
	};
};

/*
 * Decodes one value at *p (advanced past it), allocating aggregates in
 * `arena`.  Strings stay pointers into the payload (not NUL-terminated).
 * Bounds-checked: XT_ERR_CORRUPT with a message in `err` on bad input;
 * nesting deeper than 32 is corrupt.
 */
enum xt_rc trace_value_decode(const uint8_t **p, const uint8_t *end,
			      struct xt_arena *arena, struct trace_value *out,
			      struct xt_err *err);

/* Looks a key up in a MAP value; NULL when absent or not a MAP. */
const struct trace_value *trace_value_get(const struct trace_value *map, const char *key);

struct trace_call {
	uint64_t no;                /* the call number (record seq) */
	uint32_t func_id;
	uint32_t thread_no;
	const char *name;           /* from the funcdef; never NULL on success */
	uint32_t nargs;
	struct trace_value *args;   /* in arena */
};

struct trace_ret {
	uint64_t no;
	uint32_t thread_no;
	struct trace_value ret;     /* NULL tag for void */
	uint32_t nouts;
	uint32_t *out_index;        /* argument index of each output */
	struct trace_value *outs;
};

/* Decodes a CALL record (registering its funcdef in the reader). */
enum xt_rc trace_reader_decode_call(struct trace_reader *r, const struct trace_record *rec,
				    struct xt_arena *arena, struct trace_call *out);
enum xt_rc trace_reader_decode_ret(struct trace_reader *r, const struct trace_record *rec,
				   struct xt_arena *arena, struct trace_ret *out);
/* Decodes the single value of an OBSERVATION/THREAD/CONTEXT/FRAME/MEMWRITE record,
 * or the key and value strings of a PROPERTY (as a MAP of one entry). */
enum xt_rc trace_reader_decode_value(struct trace_reader *r, const struct trace_record *rec,
				     struct xt_arena *arena, struct trace_value *out);

/*
 * Rewrites spool-form `spool_path` as compacted `out_path` (written to a
 * temporary name and renamed; out_path may equal spool_path).  Records keep
 * their bytes; only order and chunking change.
 */
enum xt_rc trace_compact(const char *spool_path, const char *out_path, struct xt_err *err);

#endif
