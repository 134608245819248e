/*
 * trace_spool_int.h - what the two files of the spool writer share:
 * trace_spool.c (streams, regions, reserve/commit) and trace_spool_pack.c
 * (packing full regions, the compressor thread).  Not part of the module's
 * interface; the design is described at the top of trace_spool.c.
 *
 * Locks.  `lock` guards the pool (lists, counts, stats, err) and is only
 * ever held for O(1) work, never across a system call, because the
 * compressor thread runs at SCHED_IDLE: if it were preempted while holding
 * a lock that writers need for a long stretch, writers would wait on the
 * least important thread of the process.  `file_lock` guards the end of
 * the file (claims and PACKED chunk headers, which involve fallocate, mmap
 * and pwrite); writers take it only to claim a region, which is rare.  The
 * two are never held together.
 */
#ifndef TRACE_SPOOL_INT_H
#define TRACE_SPOOL_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <zstd.h>

#include "trace_format.h"
#include "trace_spool.h"

/* A region of the file: pooled (recycled) or a one-off big one. */
struct region {
	uint64_t off;               /* file offset of its chunk header */
	uint8_t *map;               /* page-aligned mapping of the chunk */
	size_t map_bytes;
	uint8_t *payload;           /* in the mapping, after the header */
	uint32_t cap;               /* payload capacity, bytes, multiple of 32 */
	uint32_t used;              /* committed bytes, set when handed off */
	uint32_t thread_no;         /* current fill: thread ... */
	uint64_t k;                 /* ... and fill index */
	bool pooled;                /* recycled; else unmapped when left */
	struct region *next;        /* in the free list or the full queue */
	struct region *all_next;    /* s->all (pooled regions only) */
};

/* A compression context with room for one region's output. */
struct packer {
	ZSTD_CCtx *cctx;
	uint8_t *out;
	size_t out_cap;             /* >= ZSTD_compressBound(region) + 32 */
	struct packer *next;        /* s->spare */
};

struct trace_spool {
	pthread_mutex_t lock;       /* the pool: every field below file_bytes */
	pthread_mutex_t file_lock;  /* file_bytes and appending to the file */
	pthread_cond_t wake;        /* the compressor waits here (with lock) */
	int fd;                     /* the trace file, O_RDWR */
	size_t page_bytes;          /* mmap offset granularity */
	uint64_t file_bytes;        /* end of the last chunk claimed */
	bool started;               /* a stream took a region: tune is fixed */
	struct trace_spool_tuning tune; /* every field set (defaults filled in);
	                             * read without lock once started */
	struct trace_spool_stream *streams; /* open streams, doubly linked */
	struct region *all;         /* every pooled region, for unmapping */
	struct region *free_list;   /* FREE and zero, most recently freed first */
	struct region *full_head;   /* handed off, waiting to be packed (FIFO) */
	struct region *full_tail;
	uint32_t npooled;           /* pooled regions in circulation */
	uint32_t nheld;             /* ... of which streams hold */
	uint32_t nfree;             /* ... of which are in free_list */
	uint32_t reserve;           /* free regions the compressor keeps ready:
	                             * TRACE_SPOOL_RESERVE_MIN, doubled (up to
	                             * tune.pool_regions) whenever a writer
	                             * finds none */
	struct packer *spare;       /* packers for writers that must pack */
	struct packer *thread_packer; /* the compressor thread's (for abandon) */
	pthread_t thread;
	bool thread_created;        /* `thread` must be joined */
	bool thread_wanted;         /* a writer is to start it (after unlock) */
	bool stopping;              /* trace_spool_close() runs */
	bool prepare_failed;        /* the compressor stops preparing regions */
	bool writer_pack_failed;    /* writers stop packing (no memory, disk) */
	struct trace_spool_stats stats;
	struct xt_err err;          /* last error */
};

struct trace_spool_stream {
	/* Hot: read and written by reserve/commit. */
	uint8_t *cur;               /* next record header, in the mapping */
	uint8_t *end;               /* end of the region's payload */
	uint8_t *hw;                /* furthest byte a reservation reached */
	/* Cold. */
	struct trace_spool *spool;
	struct region *reg;         /* the region it fills, or NULL */
	uint32_t thread_no;         /* written into each region header */
	uint64_t next_k;            /* fill index of its next region */
	struct trace_spool_stream *prev, *next; /* spool->streams, under lock */
};

/* pwrite of all of buf at off, with an injectable failure; -1 and errno. */
int trace_spool_pwrite(struct trace_spool *s, const void *buf, size_t n, uint64_t off);

/* Fills a 32-byte chunk header, check included. */
void trace_spool_chunk_header(uint8_t *h, unsigned kind, uint32_t thread_no,
			      uint32_t stored, uint32_t raw, uint64_t k);

/* Records an error in s->err under s->lock (which must not be held). */
enum xt_rc trace_spool_fail(struct trace_spool *s, enum xt_rc rc, const char *file, int line,
			    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define SPOOL_FAIL(s, rc, ...) trace_spool_fail((s), (rc), __FILE__, __LINE__, __VA_ARGS__)

/*
 * Claims a new region of `cap` payload bytes at the end of the file: its
 * FREE header is written under file_lock (the only work done there), then
 * its blocks are allocated and it is mapped.  A pooled region is added to
 * the pool (s->all, npooled) but to no list: the caller holds it, and
 * relabels it to use it.  Called without any lock.  On failure s->err says
 * why, and the file holds at most a FREE chunk more.
 */
enum xt_rc trace_spool_claim(struct trace_spool *s, uint32_t cap, bool pooled,
			     struct region **out);

/* ---- trace_spool_pack.c -------------------------------------------------- */

/* A packer for regions of `region_bytes`; NULL when out of memory. */
struct packer *trace_spool_packer_create(uint32_t region_bytes);
/* NULL is a no-op. */
void trace_spool_packer_free(struct packer *pk);

/*
 * Packs handed-off region `r` at zstd `level` into a PACKED chunk (none
 * when it holds no record), relabels it FREE and zeroes it; *packed_bytes
 * is the chunk's payload size.  Called without any lock.  On failure the
 * region is left as it is (still labelled, or FREE and not yet zeroed: the
 * file holds its records once either way) and must leave the pool; s->err
 * says why.
 */
enum xt_rc trace_spool_pack(struct trace_spool *s, struct packer *pk, struct region *r,
			    int level, uint64_t *packed_bytes);
/* Books the outcome of trace_spool_pack(): a packed region goes on the
 * free list unless `keep` (its packer takes it); a failed one leaves the
 * pool.  s->lock held. */
void trace_spool_packed_locked(struct trace_spool *s, struct region *r, enum xt_rc rc,
			       uint64_t packed_bytes, bool by_writer, bool keep);

/* Starts the compressor thread with every signal blocked, at SCHED_IDLE. */
void trace_spool_compressor_start(struct trace_spool *s);
/* Packs the regions still queued, in the calling thread (close). */
void trace_spool_drain(struct trace_spool *s);

#endif
