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
 * Costs: reserve and commit touch only the stream (one thread) and the
 * mapping: no lock, no system call.  Only moving to a new region takes the
 * spool's mutex to claim the next stretch of the file (fallocate + mmap).
 * A region is claimed with fallocate rather than ftruncate so that a full
 * disk is an error we report here, not a SIGBUS in the application when a
 * store hits a hole that cannot be filled.
 *
 * Region layout in the file: chunks follow each other with no gaps, so a
 * region rarely starts on a page boundary.  Its mapping starts at the page
 * that holds its chunk header and thus may also cover the tail of the
 * previous region; both mappings share the same page-cache page, and each
 * stream writes only inside its own region, so that is harmless.
 *
 * A stream keeps only its current region mapped; a full region is unmapped
 * when the stream moves on (its pages stay in the page cache), so address
 * space stays bounded however long the capture runs.
 */
#include "trace_spool.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_format.h"
#include "xt_fault.h"
#include "xt_hash.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "xfbtrace writes traces with native stores: little-endian hosts only"
#endif

/* Largest record (header + payload) we write; readers refuse bigger chunks. */
#define MAX_RECORD_BYTES ((size_t)TRACE_CHUNK_MAX_BYTES)

struct trace_spool {
	pthread_mutex_t lock;               /* guards everything below */
	int fd;                             /* the trace file, O_RDWR */
	uint64_t file_bytes;                /* end of the last region claimed */
	size_t page_bytes;                  /* mmap offset granularity */
	struct trace_spool_stream *streams; /* open streams, doubly linked */
	struct xt_err err;                  /* last error */
};

struct trace_spool_stream {
	/* Hot: read and written by reserve/commit. */
	uint8_t *cur;                      /* next record header, in the mapping */
	uint8_t *end;                      /* end of the region's payload */
	/* Cold. */
	struct trace_spool *spool;
	uint8_t *map;                      /* page-aligned mapping, or NULL */
	size_t map_bytes;                  /* its length */
	uint32_t thread_no;                /* written into each region header */
	struct trace_spool_stream *prev, *next; /* spool->streams, under lock */
};

static inline size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

static void put_u32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put_u64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Writes all of buf at off; -1 with errno on failure. */
static int pwrite_all(int fd, const void *buf, size_t n, off_t off)
{
	const uint8_t *p = buf;
	while (n) {
		ssize_t w = pwrite(fd, p, n, off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		off += w;
		n -= (size_t)w;
	}
	return 0;
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
	s->page_bytes = (size_t)sysconf(_SC_PAGESIZE);
	s->fd = xt_fault_io() ? (errno = EIO, -1) : open(path, flags, 0644);
	if (s->fd < 0) {
		int e = errno;
		pthread_mutex_destroy(&s->lock);
		xt_free(s);
		return XT_FAIL(err, XT_ERR_IO, "cannot create %s: %s", path, strerror(e));
	}

	memset(hdr, 0, sizeof hdr);
	memcpy(hdr, TRACE_MAGIC, 8);
	put_u32(hdr + 8, TRACE_FORMAT_VERSION);
	put_u32(hdr + 12, TRACE_FILE_HEADER_BYTES);
	put_u32(hdr + 16, TRACE_FILE_SPOOL);
	put_u64(hdr + 24, xt_hash64(hdr, 24));
	if (xt_fault_io() || pwrite_all(s->fd, hdr, sizeof hdr, 0) < 0) {
		int e = errno;
		close(s->fd);
		unlink(path);
		pthread_mutex_destroy(&s->lock);
		xt_free(s);
		return XT_FAIL(err, XT_ERR_IO, "cannot write the header of %s: %s",
			       path, strerror(e));
	}
	s->file_bytes = TRACE_FILE_HEADER_BYTES;
	xt_err_clear(&s->err);
	*out = s;
	return XT_OK;
}

static void stream_unmap(struct trace_spool_stream *st)
{
	if (st->map)
		munmap(st->map, st->map_bytes);
	st->map = NULL;
	st->map_bytes = 0;
	st->cur = st->end = NULL;
}

/* Frees every stream and the spool itself; `s->lock` must not be held. */
static void spool_free(struct trace_spool *s)
{
	struct trace_spool_stream *st = s->streams;
	while (st) {
		struct trace_spool_stream *next = st->next;
		stream_unmap(st);
		xt_free(st);
		st = next;
	}
	if (s->fd >= 0)
		close(s->fd);
	xt_free(s);
}

void trace_spool_close(struct trace_spool *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->lock);
	spool_free(s);
}

void trace_spool_abandon(struct trace_spool *s)
{
	if (!s)
		return;
	/* The mutex may have been held by a parent thread at fork time: it is
	 * neither taken nor destroyed, just forgotten with the memory. */
	spool_free(s);
}

struct trace_spool_stream *trace_spool_stream_open(struct trace_spool *s,
						   uint32_t thread_no)
{
	struct trace_spool_stream *st = xt_calloc(1, sizeof *st);
	if (!st) {
		pthread_mutex_lock(&s->lock);
		XT_FAIL(&s->err, XT_ERR_NOMEM, "out of memory opening a stream for thread %u",
			thread_no);
		pthread_mutex_unlock(&s->lock);
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
	if (!st)
		return;
	s = st->spool;
	pthread_mutex_lock(&s->lock);
	if (st->prev)
		st->prev->next = st->next;
	else
		s->streams = st->next;
	if (st->next)
		st->next->prev = st->prev;
	pthread_mutex_unlock(&s->lock);
	stream_unmap(st);
	xt_free(st);
}

/*
 * Claims a new region of `cap` payload bytes at the end of the file, maps it
 * and writes its chunk header.  Called with s->lock held.  On failure the
 * file is left as it was (or, failing that, ends with a valid empty region),
 * so the spool stays readable.
 */
static enum xt_rc claim_region(struct trace_spool *s, struct trace_spool_stream *st,
			       size_t cap)
{
	uint64_t off = s->file_bytes;
	uint64_t total = TRACE_CHUNK_HEADER_BYTES + (uint64_t)cap;
	uint64_t map_off = off & ~(uint64_t)(s->page_bytes - 1);
	size_t map_bytes = (size_t)(off + total - map_off);
	uint8_t hdr[TRACE_CHUNK_HEADER_BYTES];
	uint8_t *map;
	int rc;

	if (xt_fault_io()) {
		errno = ENOSPC;
		rc = -1;
	} else {
		rc = fallocate(s->fd, 0, (off_t)off, (off_t)total);
		if (rc < 0 && (errno == EOPNOTSUPP || errno == ENOSYS))
			rc = ftruncate(s->fd, (off_t)(off + total));
	}
	if (rc < 0)
		return XT_FAIL(&s->err, XT_ERR_IO,
			       "cannot grow the spool to %llu bytes: %s",
			       (unsigned long long)(off + total), strerror(errno));

	memset(hdr, 0, sizeof hdr);
	memcpy(hdr, TRACE_CHUNK_MAGIC, 4);
	hdr[4] = TRACE_CHUNK_SPOOL;
	put_u32(hdr + 8, st->thread_no);
	put_u32(hdr + 12, (uint32_t)cap);
	put_u32(hdr + 20, trace_chunk_header_check(hdr));

	map = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
		   (off_t)map_off);
	if (map == MAP_FAILED) {
		int e = errno;
		/* Give the stretch back; if even that fails, make it a valid
		 * empty region so the chunks after it stay reachable. */
		if (ftruncate(s->fd, (off_t)off) != 0 &&
		    pwrite_all(s->fd, hdr, sizeof hdr, (off_t)off) == 0)
			s->file_bytes = off + total;
		return XT_FAIL(&s->err, XT_ERR_IO, "cannot map %zu bytes of the spool: %s",
			       map_bytes, strerror(e));
	}
	memcpy(map + (off - map_off), hdr, sizeof hdr);
	s->file_bytes = off + total;

	stream_unmap(st);
	st->map = map;
	st->map_bytes = map_bytes;
	st->cur = map + (off - map_off) + TRACE_CHUNK_HEADER_BYTES;
	st->end = st->cur + cap;
	return XT_OK;
}

/* The slow path of reserve: the record does not fit the current region. */
static uint8_t *reserve_slow(struct trace_spool_stream *st, size_t max_payload_bytes)
{
	struct trace_spool *s = st->spool;
	size_t need, cap;
	enum xt_rc rc;

	if (max_payload_bytes > MAX_RECORD_BYTES - TRACE_RECORD_HEADER_BYTES) {
		pthread_mutex_lock(&s->lock);
		XT_FAIL(&s->err, XT_ERR_INVALID, "record of %zu bytes is larger than %zu",
			max_payload_bytes, MAX_RECORD_BYTES);
		pthread_mutex_unlock(&s->lock);
		return NULL;
	}
	need = round8(TRACE_RECORD_HEADER_BYTES + max_payload_bytes);
	if (need <= (size_t)((uintptr_t)st->end - (uintptr_t)st->cur))
		return st->cur + TRACE_RECORD_HEADER_BYTES; /* big, but fits */
	cap = TRACE_SPOOL_REGION_BYTES;
	if (need > cap)
		cap = (need + s->page_bytes - 1) & ~(s->page_bytes - 1);

	pthread_mutex_lock(&s->lock);
	rc = claim_region(s, st, cap);
	pthread_mutex_unlock(&s->lock);
	if (rc != XT_OK)
		return NULL;
	return st->cur + TRACE_RECORD_HEADER_BYTES;
}

uint8_t *trace_spool_reserve(struct trace_spool_stream *st, size_t max_payload_bytes)
{
	size_t room = (size_t)((uintptr_t)st->end - (uintptr_t)st->cur);
	/* The first test keeps the rounding below from overflowing. */
	if (__builtin_expect(max_payload_bytes <= TRACE_SPOOL_REGION_BYTES &&
			     round8(TRACE_RECORD_HEADER_BYTES + max_payload_bytes) <= room, 1))
		return st->cur + TRACE_RECORD_HEADER_BYTES;
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

void trace_spool_last_error(struct trace_spool *s, struct xt_err *out)
{
	pthread_mutex_lock(&s->lock);
	xt_err_copy(out, &s->err);
	pthread_mutex_unlock(&s->lock);
}
