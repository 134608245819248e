/*
 * trace_reader.c - reading trace files of either form (trace_reader.h;
 * layout in trace_format.h and docs/trace-format.md).
 *
 * Compacted form is read chunk by chunk: header, compressed payload,
 * decompression into a buffer reused across chunks, XXH3 check, then the
 * records of that buffer.  Memory is bounded by the largest chunk.
 *
 * Spool form is mapped read-only, and open() walks the chunk headers once to
 * find every region.  Regions are grouped by thread in file order (a thread
 * fills its regions one after the other, so file order is its write order)
 * and the threads are merged with a min-heap on (order key, thread number).
 * Within a thread keys must not decrease; a thread whose keys go backwards
 * is corrupt, as the merge would otherwise deliver a silently wrong order.
 *
 * What a dead application leaves behind is not corruption: a region whose
 * next size field is 0, a region cut short by the end of the file, and a
 * chunk header cut short or still all zero at the very end.  Anything else
 * that does not parse is XT_ERR_CORRUPT, with the file offset.
 *
 * A merged thread's next record is located only when the record before it
 * has been delivered, so an error is reported after every record that
 * precedes it in that thread.  Errors are sticky: once next() has failed it
 * keeps failing the same way.
 */
#include "trace_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "trace_int.h"
#include "xt_fault.h"
#include "xt_hash.h"

struct region {
	uint64_t off;              /* file offset of the chunk header */
	const uint8_t *payload;    /* in the mapping */
	uint32_t cap;              /* payload bytes present in the file */
	uint32_t thread_no;        /* the chunk header's owner */
	bool truncated;            /* the file ends inside this region */
};

/* One thread of a spool: its regions and its head record. */
struct sthread {
	uint32_t thread_no;
	uint32_t ri, rend;         /* current region, end of its regions */
	uint32_t pos;              /* head record's offset in region ri */
	uint32_t size;             /* head record's size, 0 before the first */
	uint64_t seq;              /* head record's key: seq ... */
	unsigned att;              /* ... and ATTACHED bit */
	bool done;                 /* no more records */
};

struct funcdef {
	bool used;
	uint32_t id;
	uint32_t nparams;
	const uint8_t *raw;        /* the funcdef bytes as in the record, in arena */
	size_t raw_len;
	const char *name;          /* NUL-terminated, in arena */
	const char **params;       /* nparams names, in arena */
};

struct trace_reader {
	int fd;
	uint64_t file_bytes;
	bool spool;
	bool failed;               /* err holds a sticky error */
	struct xt_err err;

	/* compacted form */
	uint64_t next_chunk;       /* file offset of the next chunk header */
	uint64_t chunk_off;        /* of the chunk being read */
	uint8_t *cbuf;             /* compressed payload */
	size_t cbuf_cap;
	uint8_t *raw;              /* decompressed payload */
	size_t raw_cap, raw_len;
	size_t pos;                /* next record in raw */
	ZSTD_DCtx *dctx;
	bool have_prev;            /* prev_* hold the last key delivered */
	uint64_t prev_seq;
	unsigned prev_att;
	uint64_t nchunks;          /* ZSTD chunks loaded so far */
	uint64_t nrecords;         /* records delivered so far */
	bool saw_end;              /* the END chunk was read */

	/* spool form */
	const uint8_t *map;        /* the whole file, or NULL */
	size_t map_bytes;
	struct region *regions;    /* sorted by (thread, file offset) */
	uint32_t nregions;
	struct sthread *threads;
	uint32_t nthreads;
	uint32_t *heap;            /* indices into threads, min-heap */
	uint32_t nheap;
	bool merging;              /* heads of all threads located */
	int64_t pending;           /* thread whose head was delivered, or -1 */

	/* funcdefs: open addressing on id, load <= 1/2 */
	struct funcdef *fdefs;
	uint32_t fdef_cap, fdef_count;
	struct xt_arena arena;     /* funcdef names */
};

static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint16_t get16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Reads exactly n bytes at off; XT_ERR_IO, or XT_ERR_EOF when short. */
static enum xt_rc read_at(struct trace_reader *r, void *buf, size_t n, uint64_t off)
{
	uint8_t *p = buf;
	while (n) {
		ssize_t got = xt_fault_io() ? (errno = EIO, -1)
			: pread(r->fd, p, n, (off_t)off);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return XT_FAIL(&r->err, XT_ERR_IO, "read at file offset %llu: %s",
				       (unsigned long long)off, strerror(errno));
		}
		if (got == 0)
			return XT_ERR_EOF;
		p += got;
		off += (uint64_t)got;
		n -= (size_t)got;
	}
	return XT_OK;
}

static enum xt_rc check_file_header(struct trace_reader *r, const uint8_t *h,
				    const char *path)
{
	uint32_t version = get32(h + 8), flags = get32(h + 16);
	if (memcmp(h, TRACE_MAGIC, 8) != 0)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "%s is not an xfbtrace trace (no XFBTRACE magic at offset 0)", path);
	/* The checksum first: a damaged version field is corruption, not a
	 * file from the future.  Every version keeps bytes 0..31 as they are. */
	if (get64(h + 24) != xt_hash64(h, 24))
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "%s: file header checksum mismatch at offset 24", path);
	if (version != TRACE_FORMAT_VERSION)
		return XT_FAIL(&r->err, XT_ERR_VERSION,
			       "%s has trace format version %u; this build reads version %u",
			       path, version, TRACE_FORMAT_VERSION);
	if (get32(h + 12) != TRACE_FILE_HEADER_BYTES || (flags & ~TRACE_FILE_SPOOL) ||
	    get32(h + 20) != 0)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "%s: bad header size, flags or reserved field at offset 12..23",
			       path);
	r->spool = (flags & TRACE_FILE_SPOOL) != 0;
	return XT_OK;
}

/* ---- spool form -------------------------------------------------------- */

static int region_cmp(const void *a, const void *b)
{
	const struct region *x = a, *y = b;
	if (x->thread_no != y->thread_no)
		return x->thread_no < y->thread_no ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static enum xt_rc add_region(struct trace_reader *r, const struct region *reg,
			     uint32_t *cap)
{
	if (r->nregions == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 16;
		struct region *n = xt_realloc(r->regions, ncap * sizeof *n);
		if (!n)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory listing regions");
		r->regions = n;
		*cap = ncap;
	}
	r->regions[r->nregions++] = *reg;
	return XT_OK;
}

/* Finds every region of the mapped spool and sets up one cursor per thread. */
static enum xt_rc spool_index(struct trace_reader *r)
{
	uint64_t off = TRACE_FILE_HEADER_BYTES;
	uint32_t cap = 0;
	enum xt_rc rc;

	while (off < r->file_bytes) {
		uint64_t left = r->file_bytes - off;
		const uint8_t *h = r->map + off;
		struct region reg;
		uint32_t stored;

		if (left < TRACE_CHUNK_HEADER_BYTES)
			break; /* the file ends inside a chunk header */
		if (all_zero(h, TRACE_CHUNK_HEADER_BYTES)) {
			/* Claimed, but the header was never written: only at the
			 * end of the file. */
			if (!all_zero(h, (size_t)left))
				return XT_FAIL(&r->err, XT_ERR_CORRUPT,
					       "zero chunk header followed by data at file offset %llu",
					       (unsigned long long)off);
			break;
		}
		stored = get32(h + 12);
		if (memcmp(h, TRACE_CHUNK_MAGIC, 4) != 0)
			return XT_FAIL(&r->err, XT_ERR_CORRUPT,
				       "no chunk magic at file offset %llu", (unsigned long long)off);
		if (h[4] != TRACE_CHUNK_SPOOL)
			return XT_FAIL(&r->err, XT_ERR_CORRUPT,
				       "chunk of kind %u in a spool file at file offset %llu",
				       h[4], (unsigned long long)off);
		if (!all_zero(h + 5, 3) || !all_zero(h + 16, 4) || !all_zero(h + 24, 8) ||
		    stored % 8 || stored > TRACE_CHUNK_MAX_BYTES ||
		    get32(h + 20) != trace_chunk_header_check(h))
			return XT_FAIL(&r->err, XT_ERR_CORRUPT,
				       "bad spool chunk header at file offset %llu (capacity %u)",
				       (unsigned long long)off, stored);
		reg.off = off;
		reg.payload = h + TRACE_CHUNK_HEADER_BYTES;
		reg.thread_no = get32(h + 8);
		reg.truncated = stored > left - TRACE_CHUNK_HEADER_BYTES;
		reg.cap = reg.truncated ? (uint32_t)((left - TRACE_CHUNK_HEADER_BYTES) & ~7u)
					: stored;
		rc = add_region(r, &reg, &cap);
		if (rc != XT_OK)
			return rc;
		off += TRACE_CHUNK_HEADER_BYTES + (uint64_t)stored;
	}
	if (r->nregions == 0)
		return XT_OK;
	qsort(r->regions, r->nregions, sizeof *r->regions, region_cmp);

	r->nthreads = 0;
	for (uint32_t i = 0; i < r->nregions; i++)
		if (i == 0 || r->regions[i].thread_no != r->regions[i - 1].thread_no)
			r->nthreads++;
	r->threads = xt_calloc(r->nthreads, sizeof *r->threads);
	r->heap = xt_calloc(r->nthreads, sizeof *r->heap);
	if (!r->threads || !r->heap)
		return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory for %u threads",
			       r->nthreads);
	for (uint32_t i = 0, t = 0; i < r->nregions; i++) {
		if (i && r->regions[i].thread_no == r->regions[i - 1].thread_no)
			continue;
		r->threads[t].thread_no = r->regions[i].thread_no;
		r->threads[t].ri = i;
		if (t)
			r->threads[t - 1].rend = i;
		t++;
	}
	r->threads[r->nthreads - 1].rend = r->nregions;
	return XT_OK;
}

/* Moves thread t to its next record (or marks it done). */
static enum xt_rc thread_advance(struct trace_reader *r, struct sthread *t)
{
	uint64_t pos = (uint64_t)t->pos + t->size;
	bool had = t->size != 0;

	for (;;) {
		const struct region *reg;
		uint32_t size;
		const uint8_t *rec;

		if (t->ri == t->rend) {
			t->done = true;
			return XT_OK;
		}
		reg = &r->regions[t->ri];
		if (reg->cap - pos < 4 ||
		    (size = __atomic_load_n((const uint32_t *)(const void *)(reg->payload + pos),
					    __ATOMIC_ACQUIRE)) == 0) {
			/* A thread moves to a new region only when a record does
			 * not fit, so the rest of a region that is not its last
			 * holds no record: a zero size field followed by data
			 * there is damage, not a dead application. */
			if (t->ri + 1 < t->rend && reg->cap - pos >= 4 &&
			    !all_zero(reg->payload + pos, reg->cap - pos))
				return XT_FAIL(&r->err, XT_ERR_CORRUPT,
					       "record size 0 followed by data at file offset %llu (region of thread %u at %llu)",
					       (unsigned long long)(reg->off + TRACE_CHUNK_HEADER_BYTES + pos),
					       reg->thread_no, (unsigned long long)reg->off);
			t->ri++;
			pos = 0;
			continue;
		}
		rec = reg->payload + pos;
		if (size < TRACE_RECORD_HEADER_BYTES || size % 8 || size > reg->cap - pos) {
			if (reg->truncated && size > reg->cap - pos && size % 8 == 0) {
				t->ri++; /* cut off by the end of the file */
				pos = 0;
				continue;
			}
			return XT_FAIL(&r->err, XT_ERR_CORRUPT,
				       "bad record size %u at file offset %llu (region of thread %u at %llu)",
				       size, (unsigned long long)(reg->off + TRACE_CHUNK_HEADER_BYTES + pos),
				       reg->thread_no, (unsigned long long)reg->off);
		}
		if (get32(rec + 16) != trace_record_check(rec, size) || get32(rec + 20) != 0)
			return XT_FAIL(&r->err, XT_ERR_CORRUPT,
				       "record check mismatch at file offset %llu (region of thread %u at %llu)",
				       (unsigned long long)(reg->off + TRACE_CHUNK_HEADER_BYTES + pos),
				       reg->thread_no, (unsigned long long)reg->off);
		uint64_t seq = get64(rec + 8);
		unsigned att = (get16(rec + 6) & TRACE_RECF_ATTACHED) ? 1 : 0;
		if (had && (seq < t->seq || (seq == t->seq && att < t->att)))
			return XT_FAIL(&r->err, XT_ERR_CORRUPT,
				       "order key goes backwards (call %llu after %llu) at file offset %llu in thread %u",
				       (unsigned long long)seq, (unsigned long long)t->seq,
				       (unsigned long long)(reg->off + TRACE_CHUNK_HEADER_BYTES + pos),
				       t->thread_no);
		t->pos = (uint32_t)pos;
		t->size = size;
		t->seq = seq;
		t->att = att;
		return XT_OK;
	}
}

static bool head_less(const struct sthread *a, const struct sthread *b)
{
	if (a->seq != b->seq)
		return a->seq < b->seq;
	if (a->att != b->att)
		return a->att < b->att;
	return a->thread_no < b->thread_no;
}

static void heap_push(struct trace_reader *r, uint32_t t)
{
	uint32_t i = r->nheap++;
	while (i) {
		uint32_t parent = (i - 1) / 2;
		if (!head_less(&r->threads[t], &r->threads[r->heap[parent]]))
			break;
		r->heap[i] = r->heap[parent];
		i = parent;
	}
	r->heap[i] = t;
}

static uint32_t heap_pop(struct trace_reader *r)
{
	uint32_t top = r->heap[0], last = r->heap[--r->nheap], i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= r->nheap)
			break;
		if (c + 1 < r->nheap && head_less(&r->threads[r->heap[c + 1]],
						  &r->threads[r->heap[c]]))
			c++;
		if (!head_less(&r->threads[r->heap[c]], &r->threads[last]))
			break;
		r->heap[i] = r->heap[c];
		i = c;
	}
	if (r->nheap)
		r->heap[i] = last;
	return top;
}

static enum xt_rc spool_next(struct trace_reader *r, struct trace_record *rec)
{
	enum xt_rc rc;
	if (!r->merging) {
		for (uint32_t t = 0; t < r->nthreads; t++) {
			rc = thread_advance(r, &r->threads[t]);
			if (rc != XT_OK)
				return rc;
			if (!r->threads[t].done)
				heap_push(r, t);
		}
		r->merging = true;
	} else if (r->pending >= 0) {
		struct sthread *t = &r->threads[r->pending];
		rc = thread_advance(r, t);
		if (rc != XT_OK)
			return rc;
		if (!t->done)
			heap_push(r, (uint32_t)r->pending);
		r->pending = -1;
	}
	if (r->nheap == 0)
		return XT_ERR_EOF;

	uint32_t ti = heap_pop(r);
	const struct sthread *t = &r->threads[ti];
	const struct region *reg = &r->regions[t->ri];
	const uint8_t *p = reg->payload + t->pos;
	rec->type = get16(p + 4);
	rec->flags = get16(p + 6);
	rec->seq = t->seq;
	rec->payload = p + TRACE_RECORD_HEADER_BYTES;
	rec->payload_bytes = t->size - TRACE_RECORD_HEADER_BYTES;
	rec->file_offset = reg->off;
	r->pending = ti;
	return XT_OK;
}

/* ---- compacted form ---------------------------------------------------- */

static enum xt_rc grow(struct trace_reader *r, uint8_t **buf, size_t *cap, size_t need)
{
	if (need <= *cap)
		return XT_OK;
	uint8_t *n = xt_realloc(*buf, need);
	if (!n)
		return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory for a %zu-byte chunk", need);
	*buf = n;
	*cap = need;
	return XT_OK;
}

static enum xt_rc load_chunk(struct trace_reader *r)
{
	uint8_t h[TRACE_CHUNK_HEADER_BYTES];
	uint64_t off = r->next_chunk, left = r->file_bytes - off;
	unsigned long long o = (unsigned long long)off;
	uint32_t stored, raw;
	enum xt_rc rc;

	if (left < TRACE_CHUNK_HEADER_BYTES)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "truncated chunk header at file offset %llu", o);
	rc = read_at(r, h, sizeof h, off);
	if (rc == XT_ERR_EOF)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT, "file shrank while reading at %llu", o);
	if (rc != XT_OK)
		return rc;
	stored = get32(h + 12);
	raw = get32(h + 16);
	if (memcmp(h, TRACE_CHUNK_MAGIC, 4) != 0)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT, "no chunk magic at file offset %llu", o);
	if (get32(h + 20) != trace_chunk_header_check(h))
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "chunk header check mismatch at file offset %llu", o);
	if (h[4] == TRACE_CHUNK_END) {
		uint64_t nrec = get64(h + 24);
		if (!all_zero(h + 5, 11) || raw != r->nchunks || nrec != r->nrecords)
			return XT_FAIL(&r->err, XT_ERR_CORRUPT,
				       "end chunk at file offset %llu says %u chunks and %llu records, "
				       "the file has %llu and %llu",
				       o, raw, (unsigned long long)nrec,
				       (unsigned long long)r->nchunks, (unsigned long long)r->nrecords);
		if (left != TRACE_CHUNK_HEADER_BYTES)
			return XT_FAIL(&r->err, XT_ERR_CORRUPT,
				       "%llu bytes after the end chunk at file offset %llu",
				       (unsigned long long)(left - TRACE_CHUNK_HEADER_BYTES), o);
		r->saw_end = true;
		r->next_chunk = r->file_bytes;
		r->raw_len = r->pos = 0;
		return XT_OK;
	}
	if (h[4] != TRACE_CHUNK_ZSTD)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "chunk of kind %u in a compacted file at file offset %llu", h[4], o);
	if (!all_zero(h + 5, 7) || stored > TRACE_CHUNK_MAX_BYTES ||
	    raw > TRACE_CHUNK_MAX_BYTES || raw % 8)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "bad chunk header at file offset %llu (stored %u, raw %u)",
			       o, stored, raw);
	if (stored > left - TRACE_CHUNK_HEADER_BYTES)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "truncated chunk at file offset %llu: %u bytes stored, %llu in the file",
			       o, stored, (unsigned long long)(left - TRACE_CHUNK_HEADER_BYTES));
	rc = grow(r, &r->cbuf, &r->cbuf_cap, stored);
	if (rc != XT_OK)
		return rc;
	rc = read_at(r, r->cbuf, stored, off + TRACE_CHUNK_HEADER_BYTES);
	if (rc == XT_ERR_EOF)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT, "file shrank while reading at %llu", o);
	if (rc != XT_OK)
		return rc;
	/* Two independent fields must agree before raw bytes are allocated. */
	if (ZSTD_getFrameContentSize(r->cbuf, stored) != raw ||
	    ZSTD_findFrameCompressedSize(r->cbuf, stored) != stored)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "zstd frame of chunk at file offset %llu does not match its header", o);
	rc = grow(r, &r->raw, &r->raw_cap, raw);
	if (rc != XT_OK)
		return rc;
	if (!r->dctx && !(r->dctx = ZSTD_createDCtx()))
		return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory for a zstd context");
	size_t got = ZSTD_decompressDCtx(r->dctx, r->raw, raw, r->cbuf, stored);
	if (ZSTD_isError(got) || got != raw)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "chunk at file offset %llu does not decompress: %s", o,
			       ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short output");
	if (xt_hash64(r->raw, raw) != get64(h + 24))
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "checksum mismatch in chunk at file offset %llu", o);
	r->nchunks++;
	r->chunk_off = off;
	r->raw_len = raw;
	r->pos = 0;
	r->next_chunk = off + TRACE_CHUNK_HEADER_BYTES + stored;
	return XT_OK;
}

static enum xt_rc compact_next(struct trace_reader *r, struct trace_record *rec)
{
	enum xt_rc rc;
	while (r->pos >= r->raw_len) {
		if (r->next_chunk >= r->file_bytes) {
			if (r->saw_end)
				return XT_ERR_EOF;
			return XT_FAIL(&r->err, XT_ERR_CORRUPT,
				       "the trace is truncated: it ends at file offset %llu without "
				       "its end chunk (after %llu records)",
				       (unsigned long long)r->file_bytes,
				       (unsigned long long)r->nrecords);
		}
		rc = load_chunk(r);
		if (rc != XT_OK)
			return rc;
	}
	const uint8_t *p = r->raw + r->pos;
	size_t left = r->raw_len - r->pos;
	uint32_t size = left >= 4 ? get32(p) : 0;
	if (left < TRACE_RECORD_HEADER_BYTES || size < TRACE_RECORD_HEADER_BYTES ||
	    size % 8 || size > left)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "bad record size %u at byte %zu of chunk at file offset %llu",
			       size, r->pos, (unsigned long long)r->chunk_off);
	if (get32(p + 16) != trace_record_check(p, size) || get32(p + 20) != 0)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "record check mismatch at byte %zu of chunk at file offset %llu",
			       r->pos, (unsigned long long)r->chunk_off);
	uint64_t seq = get64(p + 8);
	uint16_t flags = get16(p + 6);
	unsigned att = (flags & TRACE_RECF_ATTACHED) ? 1 : 0;
	if (r->have_prev && (seq < r->prev_seq || (seq == r->prev_seq && att < r->prev_att)))
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "records out of order (call %llu after %llu) at byte %zu of chunk at file offset %llu",
			       (unsigned long long)seq, (unsigned long long)r->prev_seq, r->pos,
			       (unsigned long long)r->chunk_off);
	r->have_prev = true;
	r->prev_seq = seq;
	r->prev_att = att;
	rec->type = get16(p + 4);
	rec->flags = flags;
	rec->seq = seq;
	rec->payload = p + TRACE_RECORD_HEADER_BYTES;
	rec->payload_bytes = size - TRACE_RECORD_HEADER_BYTES;
	rec->file_offset = r->chunk_off;
	r->pos += size;
	r->nrecords++;
	return XT_OK;
}

/* ---- the interface ------------------------------------------------------ */

enum xt_rc trace_reader_open(struct trace_reader **out, const char *path,
			     struct xt_err *err)
{
	uint8_t h[TRACE_FILE_HEADER_BYTES];
	struct trace_reader *r;
	struct stat st;
	enum xt_rc rc;

	*out = NULL;
	r = xt_calloc(1, sizeof *r);
	if (!r)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory opening %s", path);
	xt_err_clear(&r->err);
	xt_arena_init(&r->arena, 16 * 1024);
	r->pending = -1;
	r->fd = xt_fault_io() ? (errno = EIO, -1) : open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		rc = XT_FAIL(&r->err, XT_ERR_IO, "cannot open %s: %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(r->fd, &st) != 0) {
		rc = XT_FAIL(&r->err, XT_ERR_IO, "cannot stat %s: %s", path, strerror(errno));
		goto fail;
	}
	r->file_bytes = (uint64_t)st.st_size;
	rc = read_at(r, h, sizeof h, 0);
	if (rc == XT_ERR_EOF) {
		rc = XT_FAIL(&r->err, XT_ERR_CORRUPT,
			     "%s is not an xfbtrace trace (shorter than its %u-byte header)",
			     path, TRACE_FILE_HEADER_BYTES);
		goto fail;
	}
	if (rc == XT_OK)
		rc = check_file_header(r, h, path);
	if (rc != XT_OK)
		goto fail;
	r->next_chunk = TRACE_FILE_HEADER_BYTES;
	if (r->spool && r->file_bytes > TRACE_FILE_HEADER_BYTES) {
		if ((uint64_t)(size_t)r->file_bytes != r->file_bytes) {
			rc = XT_FAIL(&r->err, XT_ERR_UNSUPPORTED, "%s is too big to map", path);
			goto fail;
		}
		void *m = mmap(NULL, (size_t)r->file_bytes, PROT_READ, MAP_SHARED, r->fd, 0);
		if (m == MAP_FAILED) {
			rc = XT_FAIL(&r->err, XT_ERR_IO, "cannot map %s: %s", path,
				     strerror(errno));
			goto fail;
		}
		r->map = m;
		r->map_bytes = (size_t)r->file_bytes;
		rc = spool_index(r);
		if (rc != XT_OK)
			goto fail;
	}
	*out = r;
	return XT_OK;
fail:
	xt_err_copy(err, &r->err);
	trace_reader_close(r);
	return rc;
}

void trace_reader_close(struct trace_reader *r)
{
	if (!r)
		return;
	if (r->map)
		munmap((void *)r->map, r->map_bytes);
	if (r->fd >= 0)
		close(r->fd);
	ZSTD_freeDCtx(r->dctx);
	xt_free(r->cbuf);
	xt_free(r->raw);
	xt_free(r->regions);
	xt_free(r->threads);
	xt_free(r->heap);
	xt_free(r->fdefs);
	xt_arena_fini(&r->arena);
	xt_free(r);
}

bool trace_reader_is_spool(const struct trace_reader *r)
{
	return r->spool;
}

const struct xt_err *trace_reader_err(const struct trace_reader *r)
{
	return &r->err;
}

enum xt_rc trace_reader_next(struct trace_reader *r, struct trace_record *rec)
{
	enum xt_rc rc;
	if (r->failed)
		return r->err.rc;
	rc = r->spool ? spool_next(r, rec) : compact_next(r, rec);
	if (rc == XT_OK)
		rc = trace_reader_note_funcdef(r, rec);
	if (rc != XT_OK && rc != XT_ERR_EOF)
		r->failed = true;
	return rc;
}

/* ---- funcdefs ------------------------------------------------------------ */

static struct funcdef *fdef_find(const struct trace_reader *r, uint32_t id)
{
	if (!r->fdef_cap)
		return NULL;
	for (uint32_t i = (id * 2654435761u) & (r->fdef_cap - 1);;
	     i = (i + 1) & (r->fdef_cap - 1)) {
		if (!r->fdefs[i].used)
			return NULL;
		if (r->fdefs[i].id == id)
			return &r->fdefs[i];
	}
}

/* A free slot for `id` (not present), growing the table as needed. */
static struct funcdef *fdef_slot(struct trace_reader *r, uint32_t id)
{
	if ((r->fdef_count + 1) * 2 > r->fdef_cap) {
		uint32_t ncap = r->fdef_cap ? r->fdef_cap * 2 : 64;
		struct funcdef *n = xt_calloc(ncap, sizeof *n), *old = r->fdefs;
		uint32_t ocap = r->fdef_cap;
		if (!n)
			return NULL;
		r->fdefs = n;
		r->fdef_cap = ncap;
		for (uint32_t i = 0; i < ocap; i++)
			if (old[i].used)
				*fdef_slot(r, old[i].id) = old[i];
		xt_free(old);
	}
	uint32_t i = (id * 2654435761u) & (r->fdef_cap - 1);
	while (r->fdefs[i].used)
		i = (i + 1) & (r->fdef_cap - 1);
	return &r->fdefs[i];
}

enum xt_rc trace_reader_fail_record(struct trace_reader *r, const struct trace_record *rec,
				    enum xt_rc rc, const char *file, int line,
				    const char *what)
{
	return xt_err_set(&r->err, rc, file, line,
			  "%s in record of type %u, call %llu, chunk at file offset %llu",
			  what, rec->type, (unsigned long long)rec->seq,
			  (unsigned long long)rec->file_offset);
}

#define FAIL_REC(r, rec, rc, what) trace_reader_fail_record((r), (rec), (rc), __FILE__, __LINE__, (what))

enum xt_rc trace_skip_funcdef(const uint8_t **pp, const uint8_t *end, uint64_t *nparams)
{
	const uint8_t *b;
	size_t n;
	if (trace_get_lenbytes(pp, end, &b, &n) != XT_OK ||
	    trace_get_varint(pp, end, nparams) != XT_OK || *nparams > (uint64_t)(end - *pp))
		return XT_ERR_CORRUPT;
	for (uint64_t i = 0; i < *nparams; i++)
		if (trace_get_lenbytes(pp, end, &b, &n) != XT_OK)
			return XT_ERR_CORRUPT;
	return XT_OK;
}

static char *arena_cstr(struct xt_arena *a, const uint8_t *b, size_t n)
{
	char *s = xt_arena_alloc(a, n + 1);
	if (s) {
		memcpy(s, b, n);
		s[n] = '\0';
	}
	return s;
}

enum xt_rc trace_reader_note_funcdef(struct trace_reader *r, const struct trace_record *rec)
{
	const uint8_t *p = rec->payload, *end = p + rec->payload_bytes, *start, *b;
	uint32_t id, thread_no;
	uint64_t nparams;
	struct funcdef def, *slot;
	size_t n;

	if (rec->type != TRACE_REC_CALL || !(rec->flags & TRACE_RECF_FUNCDEF))
		return XT_OK;
	if (trace_get_u32(&p, end, &id) != XT_OK || trace_get_u32(&p, end, &thread_no) != XT_OK)
		return FAIL_REC(r, rec, XT_ERR_CORRUPT, "CALL payload too short");
	start = p;
	if (trace_skip_funcdef(&p, end, &nparams) != XT_OK)
		return FAIL_REC(r, rec, XT_ERR_CORRUPT, "malformed funcdef");
	slot = fdef_find(r, id);
	if (slot) {
		if (slot->raw_len != (size_t)(p - start) || memcmp(slot->raw, start, slot->raw_len))
			return FAIL_REC(r, rec, XT_ERR_CORRUPT,
					"function id redefined differently");
		return XT_OK;
	}

	/* Build the entry aside; the table sees it only when complete. */
	memset(&def, 0, sizeof def);
	def.used = true;
	def.id = id;
	def.nparams = (uint32_t)nparams;
	def.raw_len = (size_t)(p - start);
	def.raw = xt_arena_memdup(&r->arena, start, def.raw_len);
	def.params = xt_arena_alloc(&r->arena, (nparams ? nparams : 1) * sizeof *def.params);
	if (!def.raw || !def.params)
		goto nomem;
	p = start;
	trace_get_lenbytes(&p, end, &b, &n);
	if (n == 0 || memchr(b, 0, n))
		return FAIL_REC(r, rec, XT_ERR_CORRUPT, "empty function name or NUL in it");
	if (!(def.name = arena_cstr(&r->arena, b, n)))
		goto nomem;
	trace_get_varint(&p, end, &nparams);
	for (uint32_t i = 0; i < def.nparams; i++) {
		trace_get_lenbytes(&p, end, &b, &n);
		if (memchr(b, 0, n))
			return FAIL_REC(r, rec, XT_ERR_CORRUPT, "NUL in a parameter name");
		if (!(def.params[i] = arena_cstr(&r->arena, b, n)))
			goto nomem;
	}
	slot = fdef_slot(r, id);
	if (!slot)
		goto nomem;
	*slot = def;
	r->fdef_count++;
	return XT_OK;
nomem:
	return FAIL_REC(r, rec, XT_ERR_NOMEM, "out of memory registering a funcdef");
}

const char *trace_reader_func_name(const struct trace_reader *r, uint32_t func_id)
{
	const struct funcdef *f = fdef_find(r, func_id);
	return f ? f->name : NULL;
}

const char *const *trace_reader_func_params(const struct trace_reader *r,
					    uint32_t func_id, uint32_t *nparams)
{
	const struct funcdef *f = fdef_find(r, func_id);
	*nparams = f ? f->nparams : 0;
	return f ? f->params : NULL;
}
