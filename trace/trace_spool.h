/*
 * trace_spool.h - the crash-safe writer of spool-form traces.
 *
 * One `trace_spool` per process and trace file; one `trace_spool_stream` per
 * writing thread.  A stream owns a region (a SPOOL chunk) of the file mapped
 * MAP_SHARED; trace_spool_reserve() hands out room in it and
 * trace_spool_commit() publishes the record by storing its size last with
 * release order.  No system call happens per record: only when a region is
 * full (a new region: fallocate + mmap under the spool's mutex).  A record
 * larger than a region gets a region of its own.
 *
 * Everything committed is in the page cache the moment commit returns, so a
 * spool file stays readable after abort(), SIGSEGV, _exit() or SIGKILL.
 *
 * Thread safety: trace_spool_* functions on one spool may be called from any
 * thread; a stream is used by one thread at a time.
 */
#ifndef TRACE_SPOOL_H
#define TRACE_SPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "xt_rc.h"

struct trace_spool;
struct trace_spool_stream;

/* Default capacity of a region, bytes. */
#define TRACE_SPOOL_REGION_BYTES (1u << 20)

/*
 * Creates `path` (O_EXCL unless `overwrite`) and writes the file header.
 * On error, *out is NULL and `err` says why.
 */
enum xt_rc trace_spool_open(struct trace_spool **out, const char *path,
			    int overwrite, struct xt_err *err);

/*
 * Unmaps every region and closes the file, which stays a valid spool-form
 * trace.  Streams must be closed first.  trace_spool_close(NULL) is a no-op.
 */
void trace_spool_close(struct trace_spool *s);

/*
 * Forgets the spool in a forked child without touching the parent's file:
 * unmaps the regions and closes the descriptor.  Streams of the spool are
 * freed too; they must not be used afterwards.
 */
void trace_spool_abandon(struct trace_spool *s);

/*
 * Opens a stream for thread `thread_no`, which must be unique among the
 * spool's streams (readers merge records per thread number).  NULL when out
 * of memory (the spool's error record says so).  No file space is claimed
 * until the first reserve.
 */
struct trace_spool_stream *trace_spool_stream_open(struct trace_spool *s,
						   uint32_t thread_no);
/* Closes a stream; its committed records stay.  NULL is a no-op. */
void trace_spool_stream_close(struct trace_spool_stream *st);

/*
 * Returns room for a payload of at most `max_payload_bytes` (8-byte aligned),
 * or NULL when the file cannot grow or the record would exceed
 * TRACE_CHUNK_MAX_BYTES (the spool's error record says why; the stream stays
 * usable and the file readable).  Nothing is visible to readers until
 * trace_spool_commit().
 */
uint8_t *trace_spool_reserve(struct trace_spool_stream *st, size_t max_payload_bytes);

/*
 * Publishes the record reserved last on this stream (a successful reserve
 * must precede every commit) with its real payload size (at most what was
 * reserved), type, flags and seq (see trace_format.h for the order key).
 * Bytes of the reservation past `payload_bytes` are ignored.
 */
void trace_spool_commit(struct trace_spool_stream *st, uint16_t type,
			uint16_t flags, uint64_t seq, size_t payload_bytes);

/* The spool's last error (thread-safe snapshot into *out). */
void trace_spool_last_error(struct trace_spool *s, struct xt_err *out);

#endif
