/*
 * trace_format.h - the on-disk layout of an xfbtrace trace (.xfbt).
 *
 * The full specification, with its version history, is docs/trace-format.md;
 * this header is its C mirror.  All integers are little-endian.
 *
 * A file is a FILE HEADER followed by CHUNKs up to EOF.  It comes in two
 * forms, told apart by a header flag:
 *
 *   spool form      written by the capture library while the application
 *                   runs.  Each thread fills SPOOL chunks ("regions") of the
 *                   file, mapped MAP_SHARED, one after the other, and commits
 *                   one record at a time by storing the record's size last.
 *                   Whatever was committed is in the page cache, so it
 *                   survives abort(), SIGSEGV, _exit() and SIGKILL of the
 *                   application.  A full region is compressed by a
 *                   background thread into a PACKED chunk appended to the
 *                   file, and then recycled (relabelled FREE, zeroed, and
 *                   given to the next thread that needs one).  Each use of a
 *                   region is a "fill" (thread, k), k = 0, 1, 2 ... per
 *                   thread; a reader orders a thread's fills by k and merges
 *                   threads by their order key (below).
 *   compacted form  written by `xfbtrace capture` (trace_compact()) from a
 *                   spool: records in global order, in ZSTD chunks of about
 *                   1 MiB each with an XXH3-64 checksum.
 *
 * FILE HEADER (32 bytes)
 *   OFFSET SIZE MEANING
 *   0      8    magic "XFBTRACE"
 *   8      4    format version (TRACE_FORMAT_VERSION); readers reject others
 *   12     4    header size in bytes (32); chunks start here
 *   16     4    flags: TRACE_FILE_SPOOL for spool form, else compacted
 *   20     4    reserved, 0
 *   24     8    XXH3-64 of bytes 0..23
 *
 * CHUNK HEADER (32 bytes), followed by `stored_bytes` bytes of payload
 *   0      4    magic "XCHK"
 *   4      1    kind: TRACE_CHUNK_* below
 *   5      3    reserved, 0
 *   8      4    thread number (SPOOL, PACKED: the fill's thread; others: 0)
 *   12     4    stored_bytes: payload bytes in the file after this header
 *                 (SPOOL, FREE: the region's capacity; ZSTD, PACKED,
 *                 PENDING: the compressed size; END: 0)
 *   16     4    ZSTD, PACKED, PENDING: size of the decompressed payload;
 *                 END: number of ZSTD chunks in the file; others: 0
 *   20     4    header check: trace_chunk_header_check() of the 32 bytes
 *   24     8    ZSTD: XXH3-64 of the decompressed payload; END: number of
 *                 records in the file; SPOOL, PACKED, PENDING: the fill
 *                 index k; FREE: 0
 *
 *   Compacted form: ZSTD chunks, then exactly one END chunk (so that a file
 *   cut at a chunk boundary is still seen to be truncated).  A ZSTD payload
 *   is one zstd frame holding whole records.
 *
 *   Spool form: SPOOL, PACKED, PENDING and FREE chunks; every stored_bytes
 *   is a multiple of 32, so every chunk header starts at a multiple of 32
 *   and lies within one page (a 32-byte pwrite of it is atomic with respect
 *   to SIGKILL).  A SPOOL payload is a sequence of records that ends at the
 *   first record whose size field is 0 (not yet committed) or at the end of
 *   the region.  A PACKED payload is one zstd frame (content size declared)
 *   of whole records, exactly raw_bytes of them, followed by fewer than 32
 *   zero bytes of padding.  PENDING is a PACKED chunk whose payload is still
 *   being written and FREE a region not in use: readers step over both.
 *   When a PACKED chunk and a SPOOL region carry the same (thread, k), they
 *   hold the same records and the region is ignored.
 *
 * RECORD (8-byte aligned; `size` counts header + payload, rounded up to 8)
 *   0      4    size in bytes, >= 24, multiple of 8; 0 = none (spool end)
 *   4      2    type (enum trace_rec_type); readers skip unknown types
 *   6      2    flags (TRACE_RECF_*)
 *   8      8    seq: the call number the record belongs to, see below
 *   16     4    check: trace_record_check() of the record
 *   20     4    reserved, 0
 *   24     ...  payload, as given for each type below, then zero padding
 *
 * ORDER KEY.  Calls are numbered from 0 in the order they start, across all
 * threads (one atomic counter).  CALL, RET, OBSERVATION, FRAME and CONTEXT
 * records carry TRACE_RECF_ATTACHED and the number of the call they belong
 * to.  Other records (PROPERTY, THREAD) carry the number of the next call to
 * start and are ordered before it.  Order key = 2*seq + ATTACHED; within one
 * thread keys never decrease; across threads a tie goes to the lower thread
 * number.  A compacted file holds records in order-key order.  In a spool,
 * a thread's records are in the order of its fills (k), then of their
 * positions within the fill.
 */
#ifndef TRACE_FORMAT_H
#define TRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xt_hash.h"

#define TRACE_MAGIC "XFBTRACE"
#define TRACE_FORMAT_VERSION 4u
/* The oldest version readers accept: 1 is 2 without the late observation
 * records (TRACE_REC_OBS_PENDING, TRACE_REC_OBS_LATE); 2 is 3 without
 * `pixels` observations; 3 is 4 without LAYOUT records. */
#define TRACE_FORMAT_VERSION_MIN 1u
#define TRACE_FILE_HEADER_BYTES 32u
#define TRACE_FILE_SPOOL 0x1u

#define TRACE_CHUNK_MAGIC "XCHK"
#define TRACE_CHUNK_HEADER_BYTES 32u
#define TRACE_CHUNK_ZSTD 1u     /* compacted: compressed records */
#define TRACE_CHUNK_SPOOL 2u    /* spool: a region in use (fill thread, k) */
#define TRACE_CHUNK_END 3u      /* compacted: the last chunk, with counts */
#define TRACE_CHUNK_PACKED 4u   /* spool: a fill's records, compressed */
#define TRACE_CHUNK_PENDING 5u  /* spool: a PACKED chunk being written */
#define TRACE_CHUNK_FREE 6u     /* spool: a region not in use */
/* Spool chunks start at multiples of this (stored_bytes are multiples). */
#define TRACE_SPOOL_ALIGN 32u
/* Readers refuse chunks larger than this (corruption guard). */
#define TRACE_CHUNK_MAX_BYTES (1u << 30)

#define TRACE_RECORD_HEADER_BYTES 24u

enum trace_rec_type {
	/* u32 func_id, u32 thread_no, [funcdef], then u32 nargs and nargs
	 * values.  funcdef, present when TRACE_RECF_FUNCDEF is set, is the
	 * function's name as a STRING payload (varint length + bytes) followed
	 * by a varint nparams and each parameter name likewise.  Every thread's
	 * first call of a function carries its funcdef, so the first occurrence
	 * in merged order always does.  func_id is only meaningful within one
	 * trace.  Written before the real function runs: the call that crashes
	 * the application is in the trace. */
	TRACE_REC_CALL = 1,
	/* Written after the real function returned, when it has a return value
	 * or output memory: u32 thread_no, a value (the return value, NULL tag
	 * for void), then u32 nouts and nouts pairs (u32 arg index, value). */
	TRACE_REC_RET = 2,
	/* A MAP value: {"kind": STRING, ...}.  Golden data read back from the
	 * real driver after the call `seq`; kinds in docs/trace-format.md. */
	TRACE_REC_OBSERVATION = 3,
	/* STRING key, STRING value: properties of the capture (program, command
	 * line, pid, capture time, GL vendor/renderer/version/extensions,
	 * xfbtrace revision).  May appear anywhere; the last value wins. */
	TRACE_REC_PROPERTY = 4,
	/* A MAP value {"thread": UINT, "tid": UINT, ...}: a thread made its
	 * first call. */
	TRACE_REC_THREAD = 5,
	/* A MAP value {"event": "create"|"current"|"destroy", "context": HANDLE,
	 * "api": ..., ...}: the context life cycle, after call `seq`. */
	TRACE_REC_CONTEXT = 6,
	/* A MAP value {"frame": UINT}: frame `frame` ended with call `seq`
	 * (eglSwapBuffers / glXSwapBuffers). */
	TRACE_REC_FRAME = 7,
	/* A MAP value {"addr": UINT, "data": BLOB, "why": STRING}: client
	 * memory at `addr` held `data` when call `seq` was made.  ATTACHED to
	 * that call and written before its CALL record in the same thread's
	 * stream; replay applies it before executing the call.  "why" is
	 * "client-array" (vertex data of a draw), "map-unmap" (a WRITE mapping
	 * at unmap), "map-flush" (glFlushMappedBufferRange) or "persistent"
	 * (bytes of a persistent mapping that changed since the last sync
	 * point).  Written by the capture library (capture/). */
	TRACE_REC_MEMWRITE = 8,
	/* Spool form only: observations of call `seq` (ATTACHED) that the
	 * capture will write later (docs/trace-format.md, "Late
	 * observations"): a MAP value {"kind": STRING, "records": UINT}, the
	 * kind and the number of OBSERVATION records to come as
	 * TRACE_REC_OBS_LATE.  Written where those records would be. */
	TRACE_REC_OBS_PENDING = 9,
	/* Spool form only: one of the records a TRACE_REC_OBS_PENDING
	 * announced, ATTACHED to the call during which it was read back:
	 * u64 the call it belongs to, then the OBSERVATION's MAP value.  The
	 * reader delivers it as an OBSERVATION of that call, in place of the
	 * pending record; a compacted file never holds either type. */
	TRACE_REC_OBS_LATE = 10,
	/* A MAP value {"program": UINT, "blocks": ARRAY of MAP}: the layout
	 * the driver chose for each active uniform block of `program`, read
	 * after call `seq` (ATTACHED), a link that succeeded (glLinkProgram,
	 * glProgramBinary, glCreateShaderProgramv); written right after the
	 * call's RET.  Validated by trace_layout.h; docs/trace-format.md. */
	TRACE_REC_LAYOUT = 11,
};

#define TRACE_RECF_ATTACHED 0x8000u  /* seq is the call this belongs to */
#define TRACE_RECF_FUNCDEF 0x0001u   /* CALL: carries the function's def */

/*
 * VALUES: a tag byte followed by its payload.  varint = unsigned LEB128,
 * at most 10 bytes.  zigzag maps signed n to (n << 1) ^ (n >> 63).
 */
enum trace_tag {
	TRACE_TAG_NULL = 0x00,     /* no payload */
	TRACE_TAG_FALSE = 0x01,
	TRACE_TAG_TRUE = 0x02,
	TRACE_TAG_SINT = 0x03,     /* zigzag varint */
	TRACE_TAG_UINT = 0x04,     /* varint */
	TRACE_TAG_FLOAT = 0x05,    /* 4 bytes IEEE-754 */
	TRACE_TAG_DOUBLE = 0x06,   /* 8 bytes IEEE-754 */
	TRACE_TAG_STRING = 0x07,   /* varint length, bytes (no NUL) */
	TRACE_TAG_BLOB = 0x08,     /* varint length, bytes */
	TRACE_TAG_ENUM = 0x09,     /* varint: a GLenum / EGLenum value */
	TRACE_TAG_BITFIELD = 0x0a, /* varint: a GLbitfield value */
	TRACE_TAG_ARRAY = 0x0b,    /* varint count, count values */
	TRACE_TAG_MAP = 0x0c,      /* varint count, count (varint len, key bytes, value) */
	TRACE_TAG_POINTER = 0x0d,  /* varint address: a pointer not followed */
	TRACE_TAG_OFFSET = 0x0e,   /* varint: a pointer argument that is an
	                            * offset into a bound buffer object */
	TRACE_TAG_MEMORY = 0x0f,   /* varint address, varint length, bytes:
	                            * client memory the pointer referenced */
	TRACE_TAG_UNSIZED = 0x10,  /* varint address, varint len, reason bytes:
	                            * a pointer whose extent cannot be known;
	                            * the reason names what was missing */
	TRACE_TAG_HANDLE = 0x11,   /* varint: an opaque handle (EGLDisplay,
	                            * EGLContext, GLsync, ...), remapped on replay */
};

/*
 * The integrity checks.  A record's check covers its size, type, flags, seq
 * (as the seed) and every byte after the 24-byte header up to `size`, so a
 * flipped bit anywhere in a record is seen in either form of file, and a
 * spool (which has no chunk checksum) is as well protected as a compacted
 * file.  A chunk header's check covers its 32 bytes with the check field
 * read as 0.
 */
static inline uint32_t trace_record_check(const uint8_t *rec, uint32_t size)
{
	uint16_t type, flags;
	uint64_t seq, seed;
	memcpy(&type, rec + 4, 2);
	memcpy(&flags, rec + 6, 2);
	memcpy(&seq, rec + 8, 8);
	seed = (seq * UINT64_C(0x9E3779B97F4A7C15)) ^ size ^ ((uint64_t)type << 32) ^
	       ((uint64_t)flags << 48);
	return (uint32_t)xt_hash64_seed(rec + TRACE_RECORD_HEADER_BYTES,
					size - TRACE_RECORD_HEADER_BYTES, seed);
}

static inline uint32_t trace_chunk_header_check(const uint8_t *hdr)
{
	uint8_t h[TRACE_CHUNK_HEADER_BYTES];
	memcpy(h, hdr, sizeof h);
	memset(h + 20, 0, 4);
	return (uint32_t)xt_hash64(h, sizeof h);
}

#endif
