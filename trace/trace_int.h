/*
 * trace_int.h - helpers shared by the files of the trace reader
 * (trace_reader.c, trace_value.c, trace_decode.c, trace_compact.c); not part
 * of the module's interface.
 *
 * The trace_get_* readers take a cursor and the end of the buffer, advance
 * the cursor on success and return XT_ERR_CORRUPT (without a message, the
 * caller knows the context) when the bytes are not there or malformed.
 */
#ifndef TRACE_INT_H
#define TRACE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "trace_reader.h"

/* Unsigned LEB128, at most 10 bytes, no bits beyond 64. */
enum xt_rc trace_get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *out);
enum xt_rc trace_get_u32(const uint8_t **pp, const uint8_t *end, uint32_t *out);
/* varint length + that many bytes (borrowed). */
enum xt_rc trace_get_lenbytes(const uint8_t **pp, const uint8_t *end,
			      const uint8_t **bytes, size_t *len);

/* Skips a CALL's funcdef (name, nparams, names); *nparams is checked
 * against the bytes left. */
enum xt_rc trace_skip_funcdef(const uint8_t **pp, const uint8_t *end, uint64_t *nparams);

/*
 * Registers the funcdef of CALL record `rec` if it has one (a repeat must be
 * byte-identical).  On error the reader's error record says why.
 */
enum xt_rc trace_reader_note_funcdef(struct trace_reader *r, const struct trace_record *rec);

/*
 * The one validation of a record's contents, run by trace_reader_next() on
 * every record before it is delivered, so that no reader path (dump, info,
 * replay, ingest, the compactor) sees a record another one would reject:
 * a CALL / RET / single-value record must decode in full (a CALL's function
 * id must have been defined); unknown record types pass (a newer writer's).
 * Decodes into `scratch`.  On failure the reader's error names the record.
 */
enum xt_rc trace_reader_check_record(struct trace_reader *r, const struct trace_record *rec,
				     struct xt_arena *scratch);

/* Records a corruption of `rec` in the reader's error: "<what> in record
 * of type T, call N, chunk at file offset O". */
enum xt_rc trace_reader_fail_record(struct trace_reader *r, const struct trace_record *rec,
				    enum xt_rc rc, const char *file, int line,
				    const char *what);

/*
 * Spool form (trace_spool_read.c).  open() indexes the mapped file `map`
 * of `file_bytes` bytes (borrowed until close) and reports damage to the
 * chunk headers; next() delivers records in merged order (borrowed until
 * the next call), XT_ERR_EOF at the end.  Errors go to `err`, the reader's
 * error record.
 */
struct trace_spool_read;
enum xt_rc trace_spool_read_open(struct trace_spool_read **out, const uint8_t *map,
				 uint64_t file_bytes, struct xt_err *err);
enum xt_rc trace_spool_read_next(struct trace_spool_read *sr, struct trace_record *rec);
/* NULL is a no-op. */
void trace_spool_read_close(struct trace_spool_read *sr);

/*
 * Late observations put in place (trace_late.c): delivers the next record
 * of `source` (the reader's raw records) with each TRACE_REC_OBS_PENDING
 * replaced by the OBSERVATION records its TRACE_REC_OBS_LATE records carry
 * (or a `lost` one where the trace ends first).  *lp is created at the
 * first record that needs holding; trace_late_free() frees it (NULL is a
 * no-op).  Errors: the source's, corruption of the two record types, or
 * out of memory, in `err` (the reader's error record).
 */
struct trace_late;
enum xt_rc trace_late_next(struct trace_reader *r, struct trace_late **lp,
			   enum xt_rc (*source)(struct trace_reader *r, struct trace_record *rec),
			   struct trace_record *rec, struct xt_err *err);
void trace_late_free(struct trace_late *l);

#endif
