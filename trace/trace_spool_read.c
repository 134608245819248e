/*
 * trace_spool_read.c - reading spool-form files for trace_reader.c ("Spool
 * form in detail" in docs/trace-format.md; interface in trace_int.h).
 *
 * The file is mapped read-only and open() walks the chunk headers once.
 * Every use of a region by a thread is a fill (thread, k), k = 0, 1, 2 ...
 * and sits in the file as a SPOOL region still labelled with it, as a
 * PACKED chunk (its records compressed), or as both while the writer was
 * between writing the chunk and recycling the region: then the PACKED
 * chunk is used and the region ignored.  PENDING chunks (a PACKED chunk the
 * writer did not finish) and FREE regions hold nothing and are stepped
 * over.  Fills are sorted by (thread, k); each thread delivers its fills in
 * k order and the threads are merged with a min-heap on (order key, thread
 * number).  Within a thread keys must not decrease; a thread whose keys go
 * backwards is corrupt, as the merge would otherwise deliver a silently
 * wrong order.
 *
 * Why file order is not a thread's order: regions are recycled, so a
 * thread's later fill may sit in a region earlier in the file, and its
 * PACKED chunks are appended whenever the compressor gets to them.
 *
 * What a dead application leaves behind is not corruption: a region whose
 * next size field is 0 in the thread's last fill (the record it was
 * writing), a chunk header cut short or still all zero at the very end, and
 * a PENDING chunk.  A file cut short after it was written (its end inside
 * a SPOOL region, a PACKED chunk or a chunk header that is not all zero) is
 * read up to the cut: a thread ends at its first fill that is missing (its
 * PACKED chunk was cut off and its region recycled) or cut short by the end
 * of the file, since records after that point are gone; then the end of the
 * records is XT_ERR_CORRUPT naming the cut (struct spool_cut, cut_error()),
 * so that every reader (info, dump, replay, ingest) says alike that the
 * file is cut.  In a writer's file no fill is ever missing: a region is
 * recycled only after its PACKED chunk is complete.  Anything else that
 * does not parse is XT_ERR_CORRUPT, with the file offset.
 *
 * A thread's next record is located only when the record before it has
 * been delivered, so an error is reported after every record that precedes
 * it in that thread.  A PACKED fill is decompressed when its thread reaches
 * it, into a buffer of that thread: memory is bounded by one fill per
 * thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "trace_int.h"
#include "xt_fault.h"

struct fill {
	uint64_t off;               /* file offset of its chunk header */
	uint64_t k;                 /* fill index within the thread */
	const uint8_t *payload;     /* in the mapping */
	uint32_t bytes;             /* SPOOL: payload bytes present in the file
	                             * (multiple of 8); PACKED: stored_bytes */
	uint32_t raw;               /* PACKED: decompressed bytes */
	uint32_t thread_no;
	uint8_t kind;               /* TRACE_CHUNK_SPOOL or TRACE_CHUNK_PACKED */
	bool truncated;             /* SPOOL: the file ends inside it */
};

/* One thread of the spool: its fills and its head record. */
struct sthread {
	uint32_t thread_no;
	uint32_t fi, fend;          /* current fill, end of those it delivers */
	uint64_t last_k;            /* highest k among its fills in the file */
	const uint8_t *data;        /* records of fill fi, when loaded */
	uint32_t data_bytes;
	bool loaded;                /* data is fill fi's */
	uint32_t pos;               /* head record's offset in data */
	uint32_t size;              /* head record's size, 0 before the first */
	uint64_t seq;               /* head record's key: seq ... */
	unsigned att;               /* ... and ATTACHED bit */
	bool done;                  /* no more records */
	uint8_t *raw;               /* decompressed PACKED fill */
	size_t raw_cap;
};

/* A file cut short (copied while being written, a full disk, truncated):
 * the one chunk the end of the file falls in.  The records before the cut
 * are delivered; the end of the records is then an error that says where
 * the cut is and what it took (docs/trace-format.md, "A cut spool"). */
struct spool_cut {
	bool cut;
	uint64_t chunk_off;         /* the chunk the file ends in */
	uint8_t kind;               /* its kind; 0: the file ends in a chunk header */
	uint32_t thread_no;         /* SPOOL / PACKED: the fill's thread ... */
	uint64_t k;                 /* ... and index */
	uint32_t stored, present;   /* the chunk's payload bytes, and those in the file */
	uint32_t partial_size;      /* SPOOL: the record the cut fell in (0: none) */
	uint32_t partial_have;      /*        and its bytes in the file */
	uint32_t later_fills;       /* fills of that thread in the file, not read */
	bool ended_before;          /* SPOOL: its records end (a zero size field)
	                             * before the cut */
};

struct trace_spool_read {
	const uint8_t *map;         /* the whole file (borrowed) */
	uint64_t file_bytes;
	struct xt_err *err;         /* the reader's error record */
	struct fill *fills;         /* deduplicated, sorted by (thread, k) */
	uint32_t nfills;
	struct sthread *threads;
	uint32_t nthreads;
	uint32_t *heap;             /* indices into threads, min-heap */
	uint32_t nheap;
	bool merging;               /* heads of all threads located */
	int64_t pending;            /* thread whose head was delivered, or -1 */
	ZSTD_DCtx *dctx;
	struct spool_cut cut;       /* where the end of the file cut it, if it did */
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

/* ---- the index ------------------------------------------------------------ */

/* Thread, then k, then PACKED before SPOOL (the copy that is used first). */
static int fill_cmp(const void *a, const void *b)
{
	const struct fill *x = a, *y = b;
	if (x->thread_no != y->thread_no)
		return x->thread_no < y->thread_no ? -1 : 1;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return (x->kind == TRACE_CHUNK_SPOOL) - (y->kind == TRACE_CHUNK_SPOOL);
}

static enum xt_rc add_fill(struct trace_spool_read *sr, const struct fill *f, uint32_t *cap)
{
	if (sr->nfills == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 16;
		struct fill *n = xt_realloc(sr->fills, ncap * sizeof *n);
		if (!n)
			return XT_FAIL(sr->err, XT_ERR_NOMEM, "out of memory listing regions");
		sr->fills = n;
		*cap = ncap;
	}
	sr->fills[sr->nfills++] = *f;
	return XT_OK;
}

/* Walks the chunk headers and lists every fill in the file. */
static enum xt_rc walk_chunks(struct trace_spool_read *sr)
{
	uint64_t off = TRACE_FILE_HEADER_BYTES;
	uint32_t cap = 0;
	enum xt_rc rc;

	while (off < sr->file_bytes) {
		uint64_t left = sr->file_bytes - off;
		unsigned long long o = (unsigned long long)off;
		const uint8_t *h = sr->map + off;
		uint32_t stored, raw, thread_no;
		uint64_t k;
		struct fill f;

		if (left < TRACE_CHUNK_HEADER_BYTES) {
			/* The file ends inside a chunk header: a cut, unless it
			 * is a header being claimed (still zero). */
			if (!all_zero(h, (size_t)left))
				sr->cut = (struct spool_cut){ .cut = true, .chunk_off = off,
							      .present = (uint32_t)left };
			break;
		}
		if (all_zero(h, TRACE_CHUNK_HEADER_BYTES)) {
			/* Claimed, but the header was never written: only at the
			 * end of the file. */
			if (!all_zero(h, (size_t)left))
				return XT_FAIL(sr->err, XT_ERR_CORRUPT,
					       "zero chunk header followed by data at file offset %llu", o);
			break;
		}
		if (memcmp(h, TRACE_CHUNK_MAGIC, 4) != 0)
			return XT_FAIL(sr->err, XT_ERR_CORRUPT, "no chunk magic at file offset %llu", o);
		thread_no = get32(h + 8);
		stored = get32(h + 12);
		raw = get32(h + 16);
		k = get64(h + 24);
		if (!all_zero(h + 5, 3) || stored % TRACE_SPOOL_ALIGN ||
		    stored > TRACE_CHUNK_MAX_BYTES || get32(h + 20) != trace_chunk_header_check(h))
			return XT_FAIL(sr->err, XT_ERR_CORRUPT,
				       "bad spool chunk header at file offset %llu (kind %u, %u bytes)",
				       o, h[4], stored);
		memset(&f, 0, sizeof f);
		f.off = off;
		f.k = k;
		f.thread_no = thread_no;
		f.kind = h[4];
		f.payload = h + TRACE_CHUNK_HEADER_BYTES;
		switch (h[4]) {
		case TRACE_CHUNK_SPOOL:
			if (raw != 0)
				return XT_FAIL(sr->err, XT_ERR_CORRUPT,
					       "bad region header at file offset %llu", o);
			f.truncated = stored > left - TRACE_CHUNK_HEADER_BYTES;
			f.bytes = f.truncated ? (uint32_t)((left - TRACE_CHUNK_HEADER_BYTES) & ~7u)
					      : stored;
			if (f.truncated)
				sr->cut = (struct spool_cut){
					.cut = true, .chunk_off = off, .kind = h[4],
					.thread_no = thread_no, .k = k, .stored = stored,
					.present = (uint32_t)(left - TRACE_CHUNK_HEADER_BYTES) };
			rc = add_fill(sr, &f, &cap);
			if (rc != XT_OK)
				return rc;
			break;
		case TRACE_CHUNK_PACKED:
			if (raw % 8 || raw < TRACE_RECORD_HEADER_BYTES ||
			    raw > TRACE_CHUNK_MAX_BYTES || stored == 0)
				return XT_FAIL(sr->err, XT_ERR_CORRUPT,
					       "bad packed chunk header at file offset %llu (stored %u, raw %u)",
					       o, stored, raw);
			/* Written whole before its header, so a PACKED chunk cut
			 * short was cut with the file: the fill is missing. */
			if (stored > left - TRACE_CHUNK_HEADER_BYTES) {
				sr->cut = (struct spool_cut){
					.cut = true, .chunk_off = off, .kind = h[4],
					.thread_no = thread_no, .k = k, .stored = stored,
					.present = (uint32_t)(left - TRACE_CHUNK_HEADER_BYTES) };
				return XT_OK;
			}
			f.bytes = stored;
			f.raw = raw;
			rc = add_fill(sr, &f, &cap);
			if (rc != XT_OK)
				return rc;
			break;
		case TRACE_CHUNK_PENDING:
			break;
		case TRACE_CHUNK_FREE:
			if (thread_no || raw || k)
				return XT_FAIL(sr->err, XT_ERR_CORRUPT,
					       "bad free region header at file offset %llu", o);
			break;
		default:
			return XT_FAIL(sr->err, XT_ERR_CORRUPT,
				       "chunk of kind %u in a spool file at file offset %llu", h[4], o);
		}
		off += TRACE_CHUNK_HEADER_BYTES + (uint64_t)stored;
	}
	return XT_OK;
}

/* Drops regions whose fill also has a PACKED chunk; two copies of a fill
 * of the same kind are corruption. */
static enum xt_rc dedupe_fills(struct trace_spool_read *sr)
{
	uint32_t n = 0;
	if (!sr->nfills)
		return XT_OK;
	qsort(sr->fills, sr->nfills, sizeof *sr->fills, fill_cmp);
	for (uint32_t i = 0; i < sr->nfills; i++) {
		const struct fill *f = &sr->fills[i];
		if (n && sr->fills[n - 1].thread_no == f->thread_no && sr->fills[n - 1].k == f->k) {
			const struct fill *kept = &sr->fills[n - 1];
			if (kept->kind == f->kind)
				return XT_FAIL(sr->err, XT_ERR_CORRUPT,
					       "fill %llu of thread %u is in two chunks, at file offsets %llu and %llu",
					       (unsigned long long)f->k, f->thread_no,
					       (unsigned long long)kept->off, (unsigned long long)f->off);
			continue; /* a region whose PACKED chunk is complete */
		}
		sr->fills[n++] = *f;
	}
	sr->nfills = n;
	return XT_OK;
}

/* One cursor per thread over the fills it delivers: k = 0, 1, 2 ... up to
 * the first missing fill or after the first one cut short. */
static enum xt_rc make_threads(struct trace_spool_read *sr)
{
	sr->nthreads = 0;
	for (uint32_t i = 0; i < sr->nfills; i++)
		if (i == 0 || sr->fills[i].thread_no != sr->fills[i - 1].thread_no)
			sr->nthreads++;
	if (!sr->nthreads)
		return XT_OK;
	sr->threads = xt_calloc(sr->nthreads, sizeof *sr->threads);
	sr->heap = xt_calloc(sr->nthreads, sizeof *sr->heap);
	if (!sr->threads || !sr->heap)
		return XT_FAIL(sr->err, XT_ERR_NOMEM, "out of memory for %u threads", sr->nthreads);
	for (uint32_t i = 0, t = 0; i < sr->nfills; t++) {
		struct sthread *th = &sr->threads[t];
		uint32_t end = i, j = i;
		while (end < sr->nfills && sr->fills[end].thread_no == sr->fills[i].thread_no)
			end++;
		while (j < end && sr->fills[j].k == (uint64_t)(j - i)) {
			if (sr->fills[j++].truncated)
				break;
		}
		th->thread_no = sr->fills[i].thread_no;
		th->fi = i;
		th->fend = j;
		if (sr->cut.cut && sr->cut.kind && sr->cut.thread_no == th->thread_no)
			sr->cut.later_fills = end - j;
		th->last_k = sr->fills[end - 1].k;
		i = end;
	}
	return XT_OK;
}

enum xt_rc trace_spool_read_open(struct trace_spool_read **out, const uint8_t *map,
				 uint64_t file_bytes, struct xt_err *err)
{
	struct trace_spool_read *sr = xt_calloc(1, sizeof *sr);
	enum xt_rc rc;

	*out = NULL;
	if (!sr)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory opening a spool");
	sr->map = map;
	sr->file_bytes = file_bytes;
	sr->err = err;
	sr->pending = -1;
	rc = walk_chunks(sr);
	if (rc == XT_OK)
		rc = dedupe_fills(sr);
	if (rc == XT_OK)
		rc = make_threads(sr);
	if (rc != XT_OK) {
		trace_spool_read_close(sr);
		return rc;
	}
	*out = sr;
	return XT_OK;
}

void trace_spool_read_close(struct trace_spool_read *sr)
{
	if (!sr)
		return;
	for (uint32_t t = 0; sr->threads && t < sr->nthreads; t++)
		xt_free(sr->threads[t].raw);
	xt_free(sr->threads);
	xt_free(sr->heap);
	xt_free(sr->fills);
	ZSTD_freeDCtx(sr->dctx);
	xt_free(sr);
}

/* ---- a thread's records ------------------------------------------------------ */

/* Points t->data at the records of its fill t->fi, decompressing it when
 * it is PACKED. */
static enum xt_rc load_fill(struct trace_spool_read *sr, struct sthread *t)
{
	const struct fill *f = &sr->fills[t->fi];
	unsigned long long o = (unsigned long long)f->off;
	size_t fsize, got;

	if (f->kind == TRACE_CHUNK_SPOOL) {
		t->data = f->payload;
		t->data_bytes = f->bytes;
		t->loaded = true;
		return XT_OK;
	}
	/* The frame's own size fields must agree with the header before the
	 * raw bytes are allocated. */
	fsize = ZSTD_findFrameCompressedSize(f->payload, f->bytes);
	if (ZSTD_isError(fsize) || ZSTD_getFrameContentSize(f->payload, f->bytes) != f->raw ||
	    f->bytes - fsize >= TRACE_SPOOL_ALIGN ||
	    !all_zero(f->payload + fsize, f->bytes - fsize))
		return XT_FAIL(sr->err, XT_ERR_CORRUPT,
			       "zstd frame of packed chunk at file offset %llu does not match its header", o);
	if (t->raw_cap < f->raw) {
		uint8_t *n = xt_realloc(t->raw, f->raw);
		if (!n)
			return XT_FAIL(sr->err, XT_ERR_NOMEM,
				       "out of memory for a %u-byte packed fill", f->raw);
		t->raw = n;
		t->raw_cap = f->raw;
	}
	if (!sr->dctx && (xt_fault_hit(XT_FAULT_ALLOC) || !(sr->dctx = ZSTD_createDCtx())))
		return XT_FAIL(sr->err, XT_ERR_NOMEM, "out of memory for a zstd context");
	got = ZSTD_decompressDCtx(sr->dctx, t->raw, f->raw, f->payload, fsize);
	if (ZSTD_isError(got) || got != f->raw)
		return XT_FAIL(sr->err, XT_ERR_CORRUPT,
			       "packed chunk at file offset %llu does not decompress: %s", o,
			       ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short output");
	t->data = t->raw;
	t->data_bytes = f->raw;
	t->loaded = true;
	return XT_OK;
}

/* Moves thread t to its next record (or marks it done). */
static enum xt_rc thread_advance(struct trace_spool_read *sr, struct sthread *t)
{
	uint64_t pos = (uint64_t)t->pos + t->size;
	bool had = t->size != 0;
	enum xt_rc rc;

	for (;;) {
		const struct fill *f;
		uint32_t size;
		const uint8_t *rec;
		unsigned long long at;

		if (t->fi == t->fend) {
			t->done = true;
			return XT_OK;
		}
		if (!t->loaded && (rc = load_fill(sr, t)) != XT_OK)
			return rc;
		f = &sr->fills[t->fi];
		at = (unsigned long long)(f->kind == TRACE_CHUNK_SPOOL
					  ? f->off + TRACE_CHUNK_HEADER_BYTES + pos : pos);
		if (t->data_bytes - pos < 4 ||
		    (size = __atomic_load_n((const uint32_t *)(const void *)(t->data + pos),
					    __ATOMIC_ACQUIRE)) == 0) {
			if (f->kind == TRACE_CHUNK_PACKED && pos != t->data_bytes)
				return XT_FAIL(sr->err, XT_ERR_CORRUPT,
					       "record size 0 at byte %llu of packed chunk at file offset %llu",
					       at, (unsigned long long)f->off);
			/* A thread moves to a new fill only when a record does
			 * not fit, so the rest of a region that is not its last
			 * fill holds no record: a zero size field followed by
			 * data there is damage, not a dead application. */
			if (f->k < t->last_k && t->data_bytes - pos >= 4 &&
			    !all_zero(t->data + pos, t->data_bytes - pos))
				return XT_FAIL(sr->err, XT_ERR_CORRUPT,
					       "record size 0 followed by data at file offset %llu (region of thread %u at %llu)",
					       at, f->thread_no, (unsigned long long)f->off);
			if (f->truncated && t->data_bytes - pos >= 4)
				sr->cut.ended_before = true;
			t->fi++;
			t->loaded = false;
			pos = 0;
			continue;
		}
		rec = t->data + pos;
		if (size < TRACE_RECORD_HEADER_BYTES || size % 8 || size > t->data_bytes - pos) {
			if (f->truncated && size > t->data_bytes - pos && size % 8 == 0) {
				sr->cut.partial_size = size;
				sr->cut.partial_have = (uint32_t)(t->data_bytes - pos);
				t->fi++; /* cut off by the end of the file */
				t->loaded = false;
				pos = 0;
				continue;
			}
			if (f->kind == TRACE_CHUNK_PACKED)
				return XT_FAIL(sr->err, XT_ERR_CORRUPT,
					       "bad record size %u at byte %llu of packed chunk at file offset %llu",
					       size, at, (unsigned long long)f->off);
			return XT_FAIL(sr->err, XT_ERR_CORRUPT,
				       "bad record size %u at file offset %llu (region of thread %u at %llu)",
				       size, at, f->thread_no, (unsigned long long)f->off);
		}
		if (get32(rec + 16) != trace_record_check(rec, size) || get32(rec + 20) != 0) {
			if (f->kind == TRACE_CHUNK_PACKED)
				return XT_FAIL(sr->err, XT_ERR_CORRUPT,
					       "record check mismatch at byte %llu of packed chunk at file offset %llu",
					       at, (unsigned long long)f->off);
			return XT_FAIL(sr->err, XT_ERR_CORRUPT,
				       "record check mismatch at file offset %llu (region of thread %u at %llu)",
				       at, f->thread_no, (unsigned long long)f->off);
		}
		uint64_t seq = get64(rec + 8);
		unsigned att = (get16(rec + 6) & TRACE_RECF_ATTACHED) ? 1 : 0;
		if (had && (seq < t->seq || (seq == t->seq && att < t->att))) {
			if (f->kind == TRACE_CHUNK_PACKED)
				return XT_FAIL(sr->err, XT_ERR_CORRUPT,
					       "order key goes backwards (call %llu after %llu) at file "
					       "offset %llu (byte %llu of the packed chunk there) in thread %u",
					       (unsigned long long)seq, (unsigned long long)t->seq,
					       (unsigned long long)f->off, at, t->thread_no);
			return XT_FAIL(sr->err, XT_ERR_CORRUPT,
				       "order key goes backwards (call %llu after %llu) at file offset %llu in thread %u",
				       (unsigned long long)seq, (unsigned long long)t->seq, at,
				       t->thread_no);
		}
		t->pos = (uint32_t)pos;
		t->size = size;
		t->seq = seq;
		t->att = att;
		return XT_OK;
	}
}

/* ---- the end of a cut file ------------------------------------------------------ */

/* The error the records of a cut file end with. */
static enum xt_rc cut_error(struct trace_spool_read *sr)
{
	const struct spool_cut *c = &sr->cut;
	unsigned long long end = (unsigned long long)sr->file_bytes;
	unsigned long long off = (unsigned long long)c->chunk_off;
	char partial[96] = "", later[96] = "";

	if (!c->kind)
		return XT_FAIL(sr->err, XT_ERR_CORRUPT,
			       "trace cut at byte %llu: the file ends inside the chunk header at file "
			       "offset %llu (%u of its %u bytes); every record before it was read",
			       end, off, c->present, TRACE_CHUNK_HEADER_BYTES);
	if (c->later_fills)
		snprintf(later, sizeof later, "; %u later fill%s of thread %u in the file not read",
			 c->later_fills, c->later_fills == 1 ? "" : "s", c->thread_no);
	if (c->kind == TRACE_CHUNK_PACKED)
		return XT_FAIL(sr->err, XT_ERR_CORRUPT,
			       "trace cut at byte %llu: the file ends inside the packed chunk of thread "
			       "%u, fill %llu, at file offset %llu (%u of its %u bytes): thread %u's "
			       "records end before that fill%s",
			       end, c->thread_no, (unsigned long long)c->k, off, c->present,
			       c->stored, c->thread_no, later);
	if (c->partial_size)
		snprintf(partial, sizeof partial, "; 1 record partial (%u of its %u bytes), dropped",
			 c->partial_have, c->partial_size);
	else if (c->ended_before)
		snprintf(partial, sizeof partial, ", and they end before it; chunks after it, if "
			 "any, are lost");
	return XT_FAIL(sr->err, XT_ERR_CORRUPT,
		       "trace cut at byte %llu: the file ends inside the region of thread %u, "
		       "fill %llu, at file offset %llu (%u of its %u bytes); thread %u's records "
		       "up to the cut were read%s%s",
		       end, c->thread_no, (unsigned long long)c->k, off, c->present, c->stored,
		       c->thread_no, partial, later);
}

/* ---- the merge ------------------------------------------------------------------ */

static bool head_less(const struct sthread *a, const struct sthread *b)
{
	if (a->seq != b->seq)
		return a->seq < b->seq;
	if (a->att != b->att)
		return a->att < b->att;
	return a->thread_no < b->thread_no;
}

static void heap_push(struct trace_spool_read *sr, uint32_t t)
{
	uint32_t i = sr->nheap++;
	while (i) {
		uint32_t parent = (i - 1) / 2;
		if (!head_less(&sr->threads[t], &sr->threads[sr->heap[parent]]))
			break;
		sr->heap[i] = sr->heap[parent];
		i = parent;
	}
	sr->heap[i] = t;
}

static uint32_t heap_pop(struct trace_spool_read *sr)
{
	uint32_t top = sr->heap[0], last = sr->heap[--sr->nheap], i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= sr->nheap)
			break;
		if (c + 1 < sr->nheap && head_less(&sr->threads[sr->heap[c + 1]],
						   &sr->threads[sr->heap[c]]))
			c++;
		if (!head_less(&sr->threads[sr->heap[c]], &sr->threads[last]))
			break;
		sr->heap[i] = sr->heap[c];
		i = c;
	}
	if (sr->nheap)
		sr->heap[i] = last;
	return top;
}

enum xt_rc trace_spool_read_next(struct trace_spool_read *sr, struct trace_record *rec)
{
	enum xt_rc rc;
	if (!sr->merging) {
		for (uint32_t t = 0; t < sr->nthreads; t++) {
			rc = thread_advance(sr, &sr->threads[t]);
			if (rc != XT_OK)
				return rc;
			if (!sr->threads[t].done)
				heap_push(sr, t);
		}
		sr->merging = true;
	} else if (sr->pending >= 0) {
		struct sthread *t = &sr->threads[sr->pending];
		rc = thread_advance(sr, t);
		if (rc != XT_OK)
			return rc;
		if (!t->done)
			heap_push(sr, (uint32_t)sr->pending);
		sr->pending = -1;
	}
	if (sr->nheap == 0)
		return sr->cut.cut ? cut_error(sr) : XT_ERR_EOF;

	uint32_t ti = heap_pop(sr);
	const struct sthread *t = &sr->threads[ti];
	const uint8_t *p = t->data + t->pos;
	rec->type = get16(p + 4);
	rec->flags = get16(p + 6);
	rec->seq = t->seq;
	rec->payload = p + TRACE_RECORD_HEADER_BYTES;
	rec->payload_bytes = t->size - TRACE_RECORD_HEADER_BYTES;
	rec->file_offset = sr->fills[t->fi].off;
	sr->pending = ti;
	return XT_OK;
}
