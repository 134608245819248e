/*
 * trace_spool.h - the crash-safe writer of spool-form traces.
 *
 * One `trace_spool` per process and trace file; one `trace_spool_stream` per
 * writing thread.  A stream owns a region (a SPOOL chunk) of the file mapped
 * MAP_SHARED; trace_spool_reserve() hands out room in it and
 * trace_spool_commit() publishes the record by storing its size last with
 * release order.  No system call happens per record: only when a region is
 * full, and then the stream takes a recycled region from the spool's pool,
 * whose pages are already in the page cache and mapped.  A background
 * thread (started when the first region fills up) compresses full regions
 * into PACKED chunks and recycles them; a writer that finds no free region
 * packs one itself rather than wait.  A record larger than a region gets a
 * region of its own, which is not recycled.
 *
 * Everything committed is in the page cache the moment commit returns, and
 * stays in the file (as the region, or its PACKED chunk, or both) at every
 * instant, so a spool file stays readable after abort(), SIGSEGV, _exit() or
 * SIGKILL.
 *
 * Thread safety: trace_spool_* functions on one spool may be called from any
 * thread; a stream is used by one thread at a time.  The compressor thread
 * blocks every signal, so the application's handlers never run on it.
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
/* Default bound of the regions the compressor prepares ahead of demand,
 * beyond those the streams hold. */
#define TRACE_SPOOL_POOL_REGIONS 64u
/* Fresh regions the compressor keeps free at first; it keeps more (up to
 * the bound above) only after a writer has found none free. */
#define TRACE_SPOOL_RESERVE_MIN 4u
/* Default zstd levels of PACKED chunks: while the compressor keeps up, and
 * when it falls behind or a writer packs (see trace_spool.c for why). */
#define TRACE_SPOOL_ZSTD_LEVEL 1
#define TRACE_SPOOL_ZSTD_FAST_LEVEL (-20)

/*
 * Creates `path` (O_EXCL unless `overwrite`) and writes the file header.
 * On error, *out is NULL and `err` says why.
 */
enum xt_rc trace_spool_open(struct trace_spool **out, const char *path,
			    int overwrite, struct xt_err *err);

/*
 * Stops the compressor thread after it has packed the full regions queued
 * for it, unmaps every region and closes the file, which stays a valid
 * spool-form trace.  Streams must be closed first.  trace_spool_close(NULL)
 * is a no-op.
 */
void trace_spool_close(struct trace_spool *s);

/*
 * Forgets the spool in a forked child without touching the parent's file:
 * unmaps the regions and closes the descriptor.  Streams of the spool are
 * freed too; they must not be used afterwards.  Safe in a child forked while
 * any thread of the parent (the compressor included) held the spool's
 * mutex: it takes no lock and waits for no thread.
 */
void trace_spool_abandon(struct trace_spool *s);

/*
 * Opens a stream for thread `thread_no`, which must be unique for the life
 * of the spool, a closed stream's number included (readers order a
 * thread's fills by number, starting from 0 for each thread number).  NULL when out
 * of memory (the spool's error record says so).  No file space is claimed
 * until the first reserve.
 */
struct trace_spool_stream *trace_spool_stream_open(struct trace_spool *s,
						   uint32_t thread_no);
/*
 * Closes a stream; its committed records stay (its region is queued for
 * compression and then recycled).  NULL is a no-op.
 */
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

/*
 * The spool's last error (thread-safe snapshot into *out).  A failure of
 * the compressor (out of memory, disk full) is recorded here too, but is
 * not a failure of any writer: the region it could not pack simply stays in
 * the file as it is and is not recycled.
 */
void trace_spool_last_error(struct trace_spool *s, struct xt_err *out);

/* ---- tuning and test hooks ---------------------------------------------- */

/* Points in the life of a full region, reported to a test hook. */
enum trace_spool_event {
	TRACE_SPOOL_EV_COMPRESS,  /* about to compress a full region */
	TRACE_SPOOL_EV_PENDING,   /* its PENDING header is in the file (the
	                           * spool's file lock is held during this call) */
	TRACE_SPOOL_EV_WRITTEN,   /* its compressed payload is in the file; the
	                           * header still says PENDING */
	TRACE_SPOOL_EV_PACKED,    /* the PACKED header is in the file; the
	                           * region still carries its fill */
	TRACE_SPOOL_EV_FREED,     /* the region is relabelled FREE, not zeroed */
};

struct trace_spool_tuning {
	uint32_t region_bytes;    /* capacity of a pooled region: a multiple of
	                           * 32, at least 256 (0: TRACE_SPOOL_REGION_BYTES) */
	uint32_t pool_regions;    /* at most this many regions beyond those the
	                           * streams hold are prepared ahead (0: default) */
	int zstd_level;           /* 0: TRACE_SPOOL_ZSTD_LEVEL */
	int zstd_fast_level;      /* 0: TRACE_SPOOL_ZSTD_FAST_LEVEL */
	int no_thread;            /* never start the compressor thread: full
	                           * regions are packed by writers that find no
	                           * free region, and by trace_spool_close()
	                           * (deterministic tests) */
	/* Called by whichever thread packs a region, at each event; NULL for
	 * none.  Tests use it to kill or stall the process mid-chunk. */
	void (*hook)(void *arg, enum trace_spool_event ev, uint32_t thread_no,
		     uint64_t k);
	void *hook_arg;
};

/*
 * Replaces the spool's tuning (fields left 0 take their default).  Only
 * before the first reserve on any stream; XT_ERR_INVALID (and nothing
 * changed) after it or for a region size that is not allowed.
 */
enum xt_rc trace_spool_tune(struct trace_spool *s, const struct trace_spool_tuning *t);

/* What the spool did so far; a thread-safe snapshot. */
struct trace_spool_stats {
	uint64_t regions_claimed;   /* pooled regions added to the file */
	uint64_t big_regions;       /* one-off regions for oversized records */
	uint64_t regions_reused;    /* fills that took a recycled region */
	uint64_t chunks_packed;     /* PACKED chunks written */
	uint64_t packed_by_writer;  /* ... of which by a writer (none was free) */
	uint64_t pack_failures;     /* regions left unpacked after an error */
	uint64_t raw_bytes;         /* record bytes packed */
	uint64_t packed_bytes;      /* PACKED payload bytes written */
};
void trace_spool_stats(struct trace_spool *s, struct trace_spool_stats *out);

#endif
