/*
 * trace_spool_pack.c - packing full spool regions into PACKED chunks, and
 * the compressor thread that does it in the background (the writer's side
 * is trace_spool.c; the layout is "Spool form in detail" in
 * docs/trace-format.md).
 *
 * Packing one region, in the order that keeps every committed record in
 * the file at every instant (SIGKILL may strike between any two steps):
 *   1. compress the fill's records (zstd; no content checksum, as every
 *      record has its own check) and pad to a multiple of 32;
 *   2. under file_lock, write a PENDING header at the end of the file and
 *      move the end past its payload: a chunk claimed after it never
 *      follows a header that is not yet there;
 *   3. write the payload, then overwrite the header with the PACKED one
 *      (a 32-byte pwrite within one page: atomic with respect to SIGKILL);
 *      from here on readers use the chunk and ignore the region;
 *   4. relabel the region FREE (one pwrite), then zero what the fill used.
 *
 * The compressor thread runs at SCHED_IDLE with every signal blocked: it
 * uses only CPU time nobody else wants and never runs the application's
 * signal handlers.  It packs the oldest full region first, at the spool's
 * level while it keeps up and at the fast level once more wait or no free
 * region is left; when there is nothing to pack it faults in fresh regions
 * ahead of demand (want_prepared_locked()).  It holds `lock` only for O(1)
 * list work (see trace_spool_int.h).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>

#include "trace_spool_int.h"
#include "xt_fault.h"

static inline size_t round32(size_t n) { return (n + 31) & ~(size_t)31; }

static void hook(struct trace_spool *s, enum trace_spool_event ev, const struct region *r)
{
	if (s->tune.hook)
		s->tune.hook(s->tune.hook_arg, ev, r->thread_no, r->k);
}

void trace_spool_packer_free(struct packer *pk)
{
	if (!pk)
		return;
	ZSTD_freeCCtx(pk->cctx);
	xt_free(pk->out);
	xt_free(pk);
}

struct packer *trace_spool_packer_create(uint32_t region_bytes)
{
	struct packer *pk = xt_calloc(1, sizeof *pk);
	if (!pk)
		return NULL;
	pk->out_cap = ZSTD_compressBound(region_bytes) + TRACE_SPOOL_ALIGN;
	pk->out = xt_malloc(pk->out_cap);
	/* Counted as an allocation so that fault walks reach it. */
	pk->cctx = xt_fault_hit(XT_FAULT_ALLOC) ? NULL : ZSTD_createCCtx();
	if (!pk->out || !pk->cctx) {
		trace_spool_packer_free(pk);
		return NULL;
	}
	return pk;
}

/* Records why region `r` could not be packed; returns rc. */
static enum xt_rc pack_fail(struct trace_spool *s, enum xt_rc rc, const char *what,
			    const struct region *r)
{
	int e = errno;
	return SPOOL_FAIL(s, rc, "cannot pack fill %llu of thread %u (region at %llu): %s%s%s",
			  (unsigned long long)r->k, r->thread_no, (unsigned long long)r->off,
			  what, rc == XT_ERR_IO ? ": " : "", rc == XT_ERR_IO ? strerror(e) : "");
}

enum xt_rc trace_spool_pack(struct trace_spool *s, struct packer *pk, struct region *r,
			    int level, uint64_t *packed_bytes)
{
	uint8_t h[TRACE_CHUNK_HEADER_BYTES];

	*packed_bytes = 0;
	hook(s, TRACE_SPOOL_EV_COMPRESS, r);
	if (r->used) {
		size_t n = ZSTD_CCtx_setParameter(pk->cctx, ZSTD_c_compressionLevel, level);
		size_t stored;
		uint64_t off;
		int failed;

		if (!ZSTD_isError(n))
			n = ZSTD_compress2(pk->cctx, pk->out, pk->out_cap, r->payload, r->used);
		if (ZSTD_isError(n)) {
			errno = 0;
			return pack_fail(s, XT_ERR_INTERNAL, ZSTD_getErrorName(n), r);
		}
		stored = round32(n);
		memset(pk->out + n, 0, stored - n);
		trace_spool_chunk_header(h, TRACE_CHUNK_PENDING, r->thread_no, (uint32_t)stored,
					 r->used, r->k);

		pthread_mutex_lock(&s->file_lock);
		off = s->file_bytes;
		failed = trace_spool_pwrite(s, h, sizeof h, off) < 0;
		if (!failed) {
			s->file_bytes = off + TRACE_CHUNK_HEADER_BYTES + stored;
			hook(s, TRACE_SPOOL_EV_PENDING, r);
		}
		pthread_mutex_unlock(&s->file_lock);
		if (failed)
			return pack_fail(s, XT_ERR_IO, "writing its header", r);

		if (trace_spool_pwrite(s, pk->out, stored, off + TRACE_CHUNK_HEADER_BYTES) < 0)
			return pack_fail(s, XT_ERR_IO, "writing its payload", r);
		hook(s, TRACE_SPOOL_EV_WRITTEN, r);
		trace_spool_chunk_header(h, TRACE_CHUNK_PACKED, r->thread_no, (uint32_t)stored,
					 r->used, r->k);
		if (trace_spool_pwrite(s, h, sizeof h, off) < 0)
			return pack_fail(s, XT_ERR_IO, "completing its header", r);
		hook(s, TRACE_SPOOL_EV_PACKED, r);
		*packed_bytes = stored;
	}
	trace_spool_chunk_header(h, TRACE_CHUNK_FREE, 0, r->cap, 0, 0);
	if (trace_spool_pwrite(s, h, sizeof h, r->off) < 0)
		return pack_fail(s, XT_ERR_IO, "relabelling the region", r);
	hook(s, TRACE_SPOOL_EV_FREED, r);
	memset(r->payload, 0, r->used);
	return XT_OK;
}

void trace_spool_packed_locked(struct trace_spool *s, struct region *r, enum xt_rc rc,
			       uint64_t packed_bytes, bool by_writer, bool keep)
{
	if (rc != XT_OK) {
		/* It keeps its records in the file; it just leaves the pool. */
		s->npooled--;
		s->stats.pack_failures++;
		return;
	}
	if (packed_bytes) {
		s->stats.chunks_packed++;
		s->stats.packed_by_writer += by_writer;
		s->stats.raw_bytes += r->used;
		s->stats.packed_bytes += packed_bytes;
	}
	r->used = 0;
	r->thread_no = 0;
	r->k = 0;
	if (!keep) {
		r->next = s->free_list;
		s->free_list = r;
		s->nfree++;
	}
}

/* Faults in the pages of a fresh region (one store per page). */
static void touch_pages(struct trace_spool *s, struct region *r)
{
	volatile uint8_t *p = r->payload;
	for (size_t i = 0; i < r->cap; i += s->page_bytes)
		p[i] = 0;
	if (r->cap)
		p[r->cap - 1] = 0;
}

/*
 * Whether the idle compressor should add a fresh region to the pool: while
 * fewer than s->reserve are free (within the bound).  The reserve starts
 * small and grows only when a writer finds no free region
 * (take_pooled_locked()), so a capture whose compressor keeps up recycles
 * a handful of regions, and one that writes in bursts gets a pool faulted
 * in before the next burst.  (The rule before, "up to twice the fills so
 * far", counted the compressor's own preparations as fills and so grew any
 * steady capture's pool to the bound: 49 fresh regions, ~60 ms of CPU time
 * and a 52 MB file for 6 fills.)  s->lock held.
 */
static bool want_prepared_locked(const struct trace_spool *s)
{
	if (s->prepare_failed || s->stopping || s->npooled >= s->tune.pool_regions + s->nheld)
		return false;
	return s->nfree < s->reserve;
}

/* Adds one fresh, faulted-in region to the free list.  s->lock held on
 * entry and exit, dropped meanwhile. */
static void prepare_region_locked(struct trace_spool *s)
{
	struct region *r;
	enum xt_rc rc;

	pthread_mutex_unlock(&s->lock);
	rc = trace_spool_claim(s, s->tune.region_bytes, true, &r);
	if (rc == XT_OK)
		touch_pages(s, r);
	pthread_mutex_lock(&s->lock);
	if (rc != XT_OK) {
		s->prepare_failed = true;
		return;
	}
	r->next = s->free_list;
	s->free_list = r;
	s->nfree++;
}

static void *compressor_main(void *arg)
{
	struct trace_spool *s = arg;
	struct packer *pk;

	pthread_setname_np(pthread_self(), "xfbtrace-pack");
	/* Only spare CPU time: the application's (and its driver's) threads
	 * always run first.  A writer never waits for us (it packs itself
	 * when nothing is free), so starving us costs it packing, not time
	 * spent waiting. */
	pthread_setschedparam(pthread_self(), SCHED_IDLE, &(struct sched_param){ 0 });
	pk = trace_spool_packer_create(s->tune.region_bytes);
	pthread_mutex_lock(&s->lock);
	if (!pk)
		XT_FAIL(&s->err, XT_ERR_NOMEM,
			"out of memory for the compressor: writers pack instead");
	s->thread_packer = pk;
	while (pk) {
		struct region *r;
		uint64_t packed_bytes;
		enum xt_rc rc;
		int level;

		while (!s->full_head && !s->stopping) {
			if (want_prepared_locked(s))
				prepare_region_locked(s);
			else
				pthread_cond_wait(&s->wake, &s->lock);
		}
		/* Closing: trace_spool_close() packs what is left, at its own
		 * priority rather than ours. */
		if (s->stopping)
			break;
		r = s->full_head;
		s->full_head = r->next;
		if (!s->full_head)
			s->full_tail = NULL;
		/* Behind (more queued, or nothing free): the fast level. */
		level = s->full_head || !s->nfree ? s->tune.zstd_fast_level : s->tune.zstd_level;
		pthread_mutex_unlock(&s->lock);
		rc = trace_spool_pack(s, pk, r, level, &packed_bytes);
		pthread_mutex_lock(&s->lock);
		trace_spool_packed_locked(s, r, rc, packed_bytes, false, false);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

void trace_spool_compressor_start(struct trace_spool *s)
{
	pthread_attr_t attr;
	sigset_t all;
	int e;

	sigfillset(&all);
	e = pthread_attr_init(&attr);
	if (e == 0) {
		e = pthread_attr_setsigmask_np(&attr, &all);
		if (e == 0)
			e = pthread_create(&s->thread, &attr, compressor_main, s);
		pthread_attr_destroy(&attr);
	}
	pthread_mutex_lock(&s->lock);
	if (e == 0)
		s->thread_created = true;
	else
		XT_FAIL(&s->err, XT_ERR_IO,
			"cannot start the compressor thread (%s): writers pack instead",
			strerror(e));
	pthread_mutex_unlock(&s->lock);
}

void trace_spool_drain(struct trace_spool *s)
{
	struct packer *pk = NULL;

	pthread_mutex_lock(&s->lock);
	if (s->full_head && (pk = s->spare) != NULL)
		s->spare = pk->next;
	else if (s->full_head)
		pk = trace_spool_packer_create(s->tune.region_bytes);
	/* Without a packer they stay as they are: nothing is lost. */
	while (pk && s->full_head) {
		struct region *r = s->full_head;
		uint64_t packed_bytes;
		enum xt_rc rc;

		s->full_head = r->next;
		if (!s->full_head)
			s->full_tail = NULL;
		pthread_mutex_unlock(&s->lock);
		rc = trace_spool_pack(s, pk, r, s->tune.zstd_level, &packed_bytes);
		pthread_mutex_lock(&s->lock);
		trace_spool_packed_locked(s, r, rc, packed_bytes, false, false);
	}
	if (pk) {
		pk->next = s->spare;
		s->spare = pk;
	}
	pthread_mutex_unlock(&s->lock);
}
