/*
 * trace_spool.c - the crash-safe spool writer (trace_spool.h); the layout it
 * writes is "spool form" in docs/trace-format.md and trace_format.h.
 *
 * Why a spool of mapped regions rather than write(2) from a buffer: the
 * application we trace may die at any moment (abort, SIGSEGV in the driver,
 * SIGKILL from a test harness), and the call that kills it is the one the
 * user wants to see.  A user-space buffer is lost with the process; a store
 * into a MAP_SHARED mapping of the file is in the page cache as soon as it
 * is done and is written back by the kernel whatever happens to us.  So each
 * writing thread gets a region of the file (a SPOOL chunk), mapped, and
 * commits a record by storing its size field last with release order: a
 * reader never sees a record whose bytes are not all there.
 *
 * Why regions are recycled: putting a fresh page into the page cache costs
 * far more than writing the bytes (about 5.6 us per 4 KiB through a shared
 * mapping on ext4: the fault, the page allocation, the filesystem's
 * page_mkwrite), so a writer that always moves on to new file space pays
 * ~1.4 ns for every byte it records.  Here a full region is handed to a
 * compressor thread, which packs its records into a PACKED chunk appended
 * to the file (zstd at a fast level: typically 10x fewer bytes reach the
 * page cache), relabels the region FREE, zeroes it and puts it back in the
 * pool.  The next stream that needs a region takes it: its pages are
 * resident and mapped, so in steady state a writer takes no page fault at
 * all.  When it has nothing to pack, the compressor thread also prepares
 * fresh regions (faults them in): a few at first, more (up to the pool's
 * bound) each time a writer has found none free, so that the next burst
 * finds them ready while a steady capture keeps its pool small.
 * zstd runs at level 1 while the compressor keeps up and at a fast
 * negative level when it falls behind: the spool is transient (compaction
 * recompresses at level 3), so speed matters more than ratio.
 *
 * Crash safety at every instant (SIGKILL can stop us between any two
 * instructions; only a 32-byte pwrite within one page, or a single store,
 * is indivisible):
 *   - a region's label is its chunk header: SPOOL (thread, k) while a fill
 *     uses it, FREE otherwise.  It is always changed with one 32-byte pwrite
 *     (spool chunks start at multiples of 32, so a header never straddles a
 *     page), never with stores through the mapping;
 *   - a PACKED chunk is written as a PENDING header (while holding the
 *     file lock, so nothing is ever appended after an unwritten header),
 *     then its payload, then the final PACKED header.  Readers step over
 *     PENDING chunks by their size.  A new region is claimed the same way:
 *     a FREE header under the file lock, then fallocate and mmap;
 *   - a region is relabelled FREE only after its PACKED chunk is complete,
 *     and zeroed only after that; readers skip a region whose (thread, k)
 *     also has a complete PACKED chunk.  So every committed record is in
 *     the file at least once, and a region labelled (thread, k) always
 *     holds that fill intact;
 *   - a region is relabelled with a new fill only when its payload is all
 *     zero, so its records end at the first zero size field.  To keep that
 *     true, a stream zeroes the bytes past its last commit that its
 *     reservations may have scribbled on when it leaves a region.
 *
 * Costs: reserve and commit touch only the stream (one thread) and the
 * mapping: no lock, no system call.  Moving to another region takes the
 * pool's mutex briefly and one pwrite (the label).  A writer never waits
 * for the compressor: when nothing is free it packs a full region itself at
 * the fast level (the oldest queued one, or its own in place) and takes
 * it; it claims a new region only for its first fill or when packing has
 * failed (see take_pooled_locked() for why in that order).  So the pool
 * holds at most the streams' regions plus the bound the compressor
 * prepares up to.  The compressor thread runs at SCHED_IDLE: it uses spare CPU
 * time only, so it never delays the application's (or its driver's)
 * threads; starving it costs the writers packing, never a wait.  Claiming
 * file space uses fallocate rather than ftruncate so that a full disk is an
 * error we report here, not a SIGBUS in the application when a store hits a
 * hole that cannot be filled.
 *
 * Chunks follow each other with no gaps, so a region rarely starts on a
 * page boundary.  Its mapping starts at the page that holds its chunk
 * header and thus may also cover the tail of the previous chunk; both share
 * the same page-cache page and nobody stores into the other's bytes, so
 * that is harmless.  Pooled regions stay mapped for the spool's lifetime
 * (the pool bounds the address space); a one-off region for an oversized
 * record is unmapped, never recycled, when its stream moves on.
 *
 * fork(): the child has no compressor thread and may have been forked while
 * any thread held a mutex, so trace_spool_abandon() takes no lock, joins
 * nothing and writes nothing: it only unmaps and frees.
 *
 * Packing and the compressor thread are in trace_spool_pack.c; the locks
 * and the structures both files share are in trace_spool_int.h.
 */
#include "trace_spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_spool_int.h"
#include "xt_fault.h"
#include "xt_hash.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "xfbtrace writes traces with native stores: little-endian hosts only"
#endif

/* Largest record (header + payload) we write; readers refuse bigger chunks. */
#define MAX_RECORD_BYTES ((size_t)TRACE_CHUNK_MAX_BYTES)
#define MIN_REGION_BYTES 256u
#define MAX_POOL_REGIONS 4096u

static inline size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

static void put_u32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put_u64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

int trace_spool_pwrite(struct trace_spool *s, const void *buf, size_t n, uint64_t off)
{
	const uint8_t *p = buf;
	if (xt_fault_io()) {
		errno = EIO;
		return -1;
	}
	while (n) {
		ssize_t w = pwrite(s->fd, p, n, (off_t)off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		off += (uint64_t)w;
		n -= (size_t)w;
	}
	return 0;
}

void trace_spool_chunk_header(uint8_t *h, unsigned kind, uint32_t thread_no,
			      uint32_t stored, uint32_t raw, uint64_t k)
{
	memset(h, 0, TRACE_CHUNK_HEADER_BYTES);
	memcpy(h, TRACE_CHUNK_MAGIC, 4);
	h[4] = (uint8_t)kind;
	put_u32(h + 8, thread_no);
	put_u32(h + 12, stored);
	put_u32(h + 16, raw);
	put_u64(h + 24, k);
	put_u32(h + 20, trace_chunk_header_check(h));
}

enum xt_rc trace_spool_fail(struct trace_spool *s, enum xt_rc rc, const char *file, int line,
			    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pthread_mutex_lock(&s->lock);
	xt_err_setv(&s->err, rc, file, line, fmt, ap);
	pthread_mutex_unlock(&s->lock);
	va_end(ap);
	return rc;
}

static void set_defaults(struct trace_spool_tuning *t)
{
	if (!t->region_bytes)
		t->region_bytes = TRACE_SPOOL_REGION_BYTES;
	if (!t->pool_regions)
		t->pool_regions = TRACE_SPOOL_POOL_REGIONS;
	if (!t->zstd_level)
		t->zstd_level = TRACE_SPOOL_ZSTD_LEVEL;
	if (!t->zstd_fast_level)
		t->zstd_fast_level = TRACE_SPOOL_ZSTD_FAST_LEVEL;
}

/* Frees a spool whose file is not (or no longer) open. */
static void spool_destroy_bare(struct trace_spool *s)
{
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->file_lock);
	pthread_mutex_destroy(&s->lock);
	xt_free(s);
}

enum xt_rc trace_spool_open(struct trace_spool **out, const char *path,
			    int overwrite, struct xt_err *err)
{
	uint8_t hdr[TRACE_FILE_HEADER_BYTES];
	struct trace_spool *s;
	int flags = O_RDWR | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);

	*out = NULL;
	s = xt_calloc(1, sizeof *s);
	if (!s)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory opening spool %s", path);
	if (pthread_mutex_init(&s->lock, NULL) != 0) {
		xt_free(s);
		return XT_FAIL(err, XT_ERR_NOMEM, "cannot create the spool mutex");
	}
	if (pthread_mutex_init(&s->file_lock, NULL) != 0) {
		pthread_mutex_destroy(&s->lock);
		xt_free(s);
		return XT_FAIL(err, XT_ERR_NOMEM, "cannot create the spool mutex");
	}
	if (pthread_cond_init(&s->wake, NULL) != 0) {
		pthread_mutex_destroy(&s->file_lock);
		pthread_mutex_destroy(&s->lock);
		xt_free(s);
		return XT_FAIL(err, XT_ERR_NOMEM, "cannot create the spool condition");
	}
	s->page_bytes = (size_t)sysconf(_SC_PAGESIZE);
	s->reserve = TRACE_SPOOL_RESERVE_MIN;
	set_defaults(&s->tune);
	s->fd = xt_fault_io() ? (errno = EIO, -1) : open(path, flags, 0644);
	if (s->fd < 0) {
		int e = errno;
		spool_destroy_bare(s);
		return XT_FAIL(err, XT_ERR_IO, "cannot create %s: %s", path, strerror(e));
	}

	memset(hdr, 0, sizeof hdr);
	memcpy(hdr, TRACE_MAGIC, 8);
	put_u32(hdr + 8, TRACE_FORMAT_VERSION);
	put_u32(hdr + 12, TRACE_FILE_HEADER_BYTES);
	put_u32(hdr + 16, TRACE_FILE_SPOOL);
	put_u64(hdr + 24, xt_hash64(hdr, 24));
	if (trace_spool_pwrite(s, hdr, sizeof hdr, 0) < 0) {
		int e = errno;
		close(s->fd);
		unlink(path);
		spool_destroy_bare(s);
		return XT_FAIL(err, XT_ERR_IO, "cannot write the header of %s: %s",
			       path, strerror(e));
	}
	s->file_bytes = TRACE_FILE_HEADER_BYTES;
	xt_err_clear(&s->err);
	*out = s;
	return XT_OK;
}

enum xt_rc trace_spool_tune(struct trace_spool *s, const struct trace_spool_tuning *t)
{
	struct trace_spool_tuning n = *t;
	enum xt_rc rc = XT_OK;

	set_defaults(&n);
	pthread_mutex_lock(&s->lock);
	if (s->started)
		rc = XT_FAIL(&s->err, XT_ERR_INVALID, "the spool is tuned after its first reserve");
	else if (n.region_bytes % TRACE_SPOOL_ALIGN || n.region_bytes < MIN_REGION_BYTES ||
		 n.region_bytes > MAX_RECORD_BYTES / 2 || n.pool_regions > MAX_POOL_REGIONS ||
		 n.zstd_level < ZSTD_minCLevel() || n.zstd_level > ZSTD_maxCLevel() ||
		 n.zstd_fast_level < ZSTD_minCLevel() || n.zstd_fast_level > ZSTD_maxCLevel())
		rc = XT_FAIL(&s->err, XT_ERR_INVALID,
			     "bad spool tuning (region %u bytes, pool %u, zstd levels %d, %d)",
			     n.region_bytes, n.pool_regions, n.zstd_level, n.zstd_fast_level);
	else
		s->tune = n;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

void trace_spool_stats(struct trace_spool *s, struct trace_spool_stats *out)
{
	pthread_mutex_lock(&s->lock);
	*out = s->stats;
	pthread_mutex_unlock(&s->lock);
}

void trace_spool_last_error(struct trace_spool *s, struct xt_err *out)
{
	pthread_mutex_lock(&s->lock);
	xt_err_copy(out, &s->err);
	pthread_mutex_unlock(&s->lock);
}

/* ---- regions -------------------------------------------------------------- */

static void region_free(struct region *r)
{
	if (r->map)
		munmap(r->map, r->map_bytes);
	xt_free(r);
}

/*
 * Makes sure [off, off + len) of the file has blocks, so that a store into
 * the mapping can never SIGBUS on a full disk.  Where fallocate is not
 * supported, the file is extended instead (under file_lock: another
 * appender may have grown it past off + len meanwhile, and it must not be
 * cut back).
 */
static int allocate_range(struct trace_spool *s, uint64_t off, uint64_t len)
{
	int rc;
	if (xt_fault_io()) {
		errno = ENOSPC;
		return -1;
	}
	rc = fallocate(s->fd, 0, (off_t)off, (off_t)len);
	if (rc < 0 && (errno == EOPNOTSUPP || errno == ENOSYS)) {
		struct stat st;
		pthread_mutex_lock(&s->file_lock);
		rc = fstat(s->fd, &st);
		if (rc == 0 && (uint64_t)st.st_size < off + len)
			rc = ftruncate(s->fd, (off_t)(off + len));
		pthread_mutex_unlock(&s->file_lock);
	}
	return rc;
}

enum xt_rc trace_spool_claim(struct trace_spool *s, uint32_t cap, bool pooled,
			     struct region **out)
{
	uint8_t hdr[TRACE_CHUNK_HEADER_BYTES];
	uint64_t off, total = TRACE_CHUNK_HEADER_BYTES + (uint64_t)cap, map_off;
	struct region *r;
	int failed;

	*out = NULL;
	r = xt_calloc(1, sizeof *r);
	if (!r)
		return SPOOL_FAIL(s, XT_ERR_NOMEM, "out of memory for a region");
	trace_spool_chunk_header(hdr, TRACE_CHUNK_FREE, 0, cap, 0, 0);
	/* Only the header under the lock: nothing is ever appended after a
	 * chunk whose header is not in the file yet. */
	pthread_mutex_lock(&s->file_lock);
	off = s->file_bytes;
	failed = trace_spool_pwrite(s, hdr, sizeof hdr, off) < 0;
	if (!failed)
		s->file_bytes = off + total;
	pthread_mutex_unlock(&s->file_lock);
	if (failed) {
		int e = errno;
		xt_free(r);
		return SPOOL_FAIL(s, XT_ERR_IO, "cannot write a region header: %s", strerror(e));
	}
	/* From here on a failure leaves a FREE chunk (perhaps a hole) that
	 * readers step over. */
	if (allocate_range(s, off + TRACE_CHUNK_HEADER_BYTES, cap) < 0) {
		int e = errno;
		xt_free(r);
		return SPOOL_FAIL(s, XT_ERR_IO, "cannot grow the spool to %llu bytes: %s",
				  (unsigned long long)(off + total), strerror(e));
	}
	map_off = off & ~(uint64_t)(s->page_bytes - 1);
	r->map_bytes = (size_t)(off + total - map_off);
	r->map = mmap(NULL, r->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
		      (off_t)map_off);
	if (r->map == MAP_FAILED) {
		int e = errno;
		xt_free(r);
		return SPOOL_FAIL(s, XT_ERR_IO, "cannot map %llu bytes of the spool: %s",
				  (unsigned long long)total, strerror(e));
	}
	r->off = off;
	r->payload = r->map + (off - map_off) + TRACE_CHUNK_HEADER_BYTES;
	r->cap = cap;
	r->pooled = pooled;
	pthread_mutex_lock(&s->lock);
	if (pooled) {
		r->all_next = s->all;
		s->all = r;
		s->npooled++;
		s->stats.regions_claimed++;
	} else {
		s->stats.big_regions++;
	}
	pthread_mutex_unlock(&s->lock);
	*out = r;
	return XT_OK;
}

/* Queues a pooled region a stream left for packing.  s->lock held. */
static void hand_off_locked(struct trace_spool *s, struct region *r)
{
	s->nheld--;
	r->next = NULL;
	if (s->full_tail)
		s->full_tail->next = r;
	else
		s->full_head = r;
	s->full_tail = r;
	pthread_cond_signal(&s->wake);
}

/*
 * Finds a pooled region for a new fill of a stream that leaves `old` (NULL
 * or a pooled region it just filled): a free one (and `old` is queued for
 * packing); else the oldest queued one, packed by this writer at the fast
 * level; else `old` itself, packed in place (the compressor is busy with
 * the others).  Only when it cannot pack (none to pack, or packing failed
 * before) does it ask for a new region: *claim, and `old` is queued.
 * Packing before growing because a fresh region costs the writer more than
 * packing one (measured: ~1.1 us vs ~0.4-0.6 us per KiB recorded in a
 * burst, on ext4 in a VM where even an anonymous page costs 3-6 us to
 * fault in); growing the pool ahead of demand is the idle compressor's
 * job.  Called and returns with s->lock held; drops it while packing.
 */
static enum xt_rc take_pooled_locked(struct trace_spool *s, struct region *old,
				     struct region **out, bool *claim)
{
	bool short_of_free = false;

	*claim = false;
	for (;;) {
		struct region *r = s->free_list;
		struct packer *pk = NULL;
		uint64_t packed_bytes;
		enum xt_rc rc;

		if (r) {
			s->free_list = r->next;
			s->nfree--;
			s->nheld++;
			s->stats.regions_reused++;
			if (old)
				hand_off_locked(s, old);
			*out = r;
			return XT_OK;
		}
		/* None free while the compressor runs: it is to keep more
		 * ready from now on (once per shortage). */
		if (!short_of_free && s->thread_created) {
			short_of_free = true;
			s->reserve = s->reserve < s->tune.pool_regions / 2 ? s->reserve * 2
									   : s->tune.pool_regions;
		}
		if (!s->writer_pack_failed && (s->full_head || old)) {
			pk = s->spare;
			if (pk) {
				s->spare = pk->next;
			} else {
				pthread_mutex_unlock(&s->lock);
				pk = trace_spool_packer_create(s->tune.region_bytes);
				pthread_mutex_lock(&s->lock);
				if (!pk) {
					XT_FAIL(&s->err, XT_ERR_NOMEM, "out of memory for a packer");
					s->writer_pack_failed = true;
				} else {
					pk->next = s->spare;
					s->spare = pk;
				}
				continue; /* the lists may have changed meanwhile */
			}
		}
		if (!pk) {
			if (old)
				hand_off_locked(s, old);
			*claim = true;
			return XT_OK;
		}
		if (s->full_head) {
			/* The compressor is behind: pack the oldest queued. */
			if (old)
				hand_off_locked(s, old);
			old = NULL;
			r = s->full_head;
			s->full_head = r->next;
			if (!s->full_head)
				s->full_tail = NULL;
			s->nheld++;
		} else {
			/* It is busy with the others: pack our own in place. */
			r = old;
			old = NULL;
		}
		pthread_mutex_unlock(&s->lock);
		rc = trace_spool_pack(s, pk, r, s->tune.zstd_fast_level, &packed_bytes);
		pthread_mutex_lock(&s->lock);
		pk->next = s->spare;
		s->spare = pk;
		trace_spool_packed_locked(s, r, rc, packed_bytes, true, true);
		if (rc != XT_OK) {
			/* It keeps its records and leaves the pool; from now on
			 * writers take free regions or claim new ones. */
			s->nheld--;
			s->writer_pack_failed = true;
			continue;
		}
		s->stats.regions_reused++;
		*out = r;
		return XT_OK;
	}
}

/*
 * The stream leaves its region: bytes its reservations scribbled past the
 * last commit are zeroed (the region's records must end at a zero size
 * field), and the region is detached from the stream.
 */
static struct region *stream_leave(struct trace_spool_stream *st)
{
	struct region *r = st->reg;
	if (!r)
		return NULL;
	if (st->hw > st->cur)
		memset(st->cur, 0, (size_t)(st->hw - st->cur));
	r->used = (uint32_t)(st->cur - r->payload);
	st->reg = NULL;
	st->cur = st->end = st->hw = NULL;
	return r;
}

/*
 * A stream leaves region `old` without having committed anything in it (a
 * reservation it gave up, then one that does not fit): the fill is
 * relabelled FREE at once and its number goes to the next region, since a
 * fill that is missing from the file would end the thread for readers.
 * Returns NULL when that is done, else `old` (to be handed off as usual).
 */
static struct region *drop_empty_fill(struct trace_spool_stream *st, struct region *old)
{
	struct trace_spool *s = st->spool;
	uint8_t h[TRACE_CHUNK_HEADER_BYTES];

	if (!old || old->used)
		return old;
	trace_spool_chunk_header(h, TRACE_CHUNK_FREE, 0, old->cap, 0, 0);
	if (trace_spool_pwrite(s, h, sizeof h, old->off) < 0)
		return old; /* it stays, empty, as fill k: no gap either */
	st->next_k = old->k;
	old->thread_no = 0;
	old->k = 0;
	if (!old->pooled) {
		region_free(old);
		return NULL;
	}
	pthread_mutex_lock(&s->lock);
	s->nheld--;
	old->next = s->free_list;
	s->free_list = old;
	s->nfree++;
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* Moves the stream to a region with room for a record of `need` bytes. */
static enum xt_rc stream_move(struct trace_spool_stream *st, size_t need)
{
	struct trace_spool *s = st->spool;
	struct region *old = drop_empty_fill(st, stream_leave(st)), *r = NULL;
	bool claim = true, big, start;
	uint32_t cap;
	enum xt_rc rc = XT_OK;

	pthread_mutex_lock(&s->lock);
	s->started = true;
	cap = s->tune.region_bytes;
	big = need > cap;
	if (big) {
		if (old && old->pooled)
			hand_off_locked(s, old);
		cap = (uint32_t)((need + s->page_bytes - 1) & ~(s->page_bytes - 1));
	} else {
		rc = take_pooled_locked(s, old && old->pooled ? old : NULL, &r, &claim);
	}
	/* The thread starts when a region first fills up: a capture that
	 * never fills one costs no thread and no prepared regions. */
	start = old && !s->thread_created && !s->thread_wanted && !s->tune.no_thread &&
		!s->stopping;
	if (start)
		s->thread_wanted = true;
	pthread_mutex_unlock(&s->lock);
	if (old && !old->pooled)
		region_free(old);
	if (start)
		trace_spool_compressor_start(s);
	if (rc != XT_OK)
		return rc;

	if (claim) {
		rc = trace_spool_claim(s, cap, !big, &r);
		if (rc != XT_OK)
			return rc;
		if (!big) {
			pthread_mutex_lock(&s->lock);
			s->nheld++;
			pthread_mutex_unlock(&s->lock);
		}
	}
	/* The region is FREE and all zero, so one pwrite gives it the new
	 * fill's label. */
	uint8_t h[TRACE_CHUNK_HEADER_BYTES];
	trace_spool_chunk_header(h, TRACE_CHUNK_SPOOL, st->thread_no, r->cap, 0, st->next_k);
	if (trace_spool_pwrite(s, h, sizeof h, r->off) < 0) {
		int e = errno;
		if (!r->pooled) {
			region_free(r);
			return SPOOL_FAIL(s, XT_ERR_IO, "cannot label a region: %s", strerror(e));
		}
		pthread_mutex_lock(&s->lock);
		s->nheld--;
		r->next = s->free_list;
		s->free_list = r;
		s->nfree++;
		rc = XT_FAIL(&s->err, XT_ERR_IO, "cannot label a region: %s", strerror(e));
		pthread_mutex_unlock(&s->lock);
		return rc;
	}
	r->thread_no = st->thread_no;
	r->k = st->next_k++;
	r->used = 0;
	st->reg = r;
	st->cur = r->payload;
	st->end = r->payload + r->cap;
	st->hw = st->cur;
	return XT_OK;
}

/* ---- streams ------------------------------------------------------------------ */

struct trace_spool_stream *trace_spool_stream_open(struct trace_spool *s,
						   uint32_t thread_no)
{
	struct trace_spool_stream *st = xt_calloc(1, sizeof *st);
	if (!st) {
		SPOOL_FAIL(s, XT_ERR_NOMEM, "out of memory opening a stream for thread %u",
			   thread_no);
		return NULL;
	}
	st->spool = s;
	st->thread_no = thread_no;
	pthread_mutex_lock(&s->lock);
	st->next = s->streams;
	if (s->streams)
		s->streams->prev = st;
	s->streams = st;
	pthread_mutex_unlock(&s->lock);
	return st;
}

void trace_spool_stream_close(struct trace_spool_stream *st)
{
	struct trace_spool *s;
	struct region *r;
	if (!st)
		return;
	s = st->spool;
	r = stream_leave(st);
	pthread_mutex_lock(&s->lock);
	if (st->prev)
		st->prev->next = st->next;
	else
		s->streams = st->next;
	if (st->next)
		st->next->prev = st->prev;
	if (r && r->pooled)
		hand_off_locked(s, r);
	pthread_mutex_unlock(&s->lock);
	if (r && !r->pooled)
		region_free(r);
	xt_free(st);
}

/* The slow path of reserve: the record does not fit the current region. */
static uint8_t *reserve_slow(struct trace_spool_stream *st, size_t max_payload_bytes)
{
	size_t need;

	if (max_payload_bytes > MAX_RECORD_BYTES - TRACE_RECORD_HEADER_BYTES) {
		SPOOL_FAIL(st->spool, XT_ERR_INVALID, "record of %zu bytes is larger than %zu",
			   max_payload_bytes, MAX_RECORD_BYTES);
		return NULL;
	}
	need = round8(TRACE_RECORD_HEADER_BYTES + max_payload_bytes);
	if (!st->reg || need > (size_t)(st->end - st->cur)) {
		if (stream_move(st, need) != XT_OK)
			return NULL;
	}
	if (st->cur + need > st->hw)
		st->hw = st->cur + need;
	return st->cur + TRACE_RECORD_HEADER_BYTES;
}

uint8_t *trace_spool_reserve(struct trace_spool_stream *st, size_t max_payload_bytes)
{
	size_t room = (size_t)((uintptr_t)st->end - (uintptr_t)st->cur);
	/* The first test keeps the rounding below from overflowing. */
	if (__builtin_expect(max_payload_bytes <= TRACE_SPOOL_REGION_BYTES &&
			     round8(TRACE_RECORD_HEADER_BYTES + max_payload_bytes) <= room, 1)) {
		uint8_t *lim = st->cur + round8(TRACE_RECORD_HEADER_BYTES + max_payload_bytes);
		if (lim > st->hw)
			st->hw = lim;
		return st->cur + TRACE_RECORD_HEADER_BYTES;
	}
	return reserve_slow(st, max_payload_bytes);
}

void trace_spool_commit(struct trace_spool_stream *st, uint16_t type,
			uint16_t flags, uint64_t seq, size_t payload_bytes)
{
	uint8_t *rec = st->cur;
	size_t raw = TRACE_RECORD_HEADER_BYTES + payload_bytes;
	size_t size = round8(raw);

	/* Zero padding keeps records byte-for-byte reproducible. */
	memset(rec + raw, 0, size - raw);
	memcpy(rec + 4, &type, 2);
	memcpy(rec + 6, &flags, 2);
	memcpy(rec + 8, &seq, 8);
	uint32_t check = trace_record_check(rec, (uint32_t)size);
	memcpy(rec + 16, &check, 4);
	memset(rec + 20, 0, 4);
	/* The caller may have scribbled past payload_bytes inside its
	 * reservation; the next record's size field must read 0 until that
	 * record is committed. */
	if ((size_t)(st->end - rec) >= size + 4)
		__atomic_store_n((uint32_t *)(void *)(rec + size), 0u, __ATOMIC_RELAXED);
	/* Last, with release order: the record becomes visible whole. */
	__atomic_store_n((uint32_t *)(void *)rec, (uint32_t)size, __ATOMIC_RELEASE);
	st->cur = rec + size;
}

/* ---- closing -------------------------------------------------------------------- */

/* Frees what the spool owns: streams, regions, packers, itself.  No lock. */
static void spool_free(struct trace_spool *s)
{
	struct trace_spool_stream *st = s->streams;
	struct region *r = s->all;
	struct packer *pk = s->spare;

	while (st) {
		struct trace_spool_stream *next = st->next;
		if (st->reg && !st->reg->pooled)
			region_free(st->reg);
		xt_free(st);
		st = next;
	}
	while (r) {
		struct region *next = r->all_next;
		region_free(r);
		r = next;
	}
	while (pk) {
		struct packer *next = pk->next;
		trace_spool_packer_free(pk);
		pk = next;
	}
	trace_spool_packer_free(s->thread_packer);
	if (s->fd >= 0)
		close(s->fd);
	xt_free(s);
}

void trace_spool_close(struct trace_spool *s)
{
	bool join;
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stopping = true;
	pthread_cond_broadcast(&s->wake);
	join = s->thread_created;
	pthread_mutex_unlock(&s->lock);
	if (join)
		pthread_join(s->thread, NULL);
	trace_spool_drain(s);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->file_lock);
	pthread_mutex_destroy(&s->lock);
	spool_free(s);
}

void trace_spool_abandon(struct trace_spool *s)
{
	if (!s)
		return;
	/* A mutex may have been held by a parent thread at fork time, and the
	 * compressor thread does not exist here: neither is touched. */
	spool_free(s);
}
