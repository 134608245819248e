/*
 * trace_reader.c - reading trace files of either form (trace_reader.h;
 * layout in trace_format.h and docs/trace-format.md).
 *
 * Compacted form is read chunk by chunk: header, compressed payload,
 * decompression into a buffer reused across chunks, XXH3 check, then the
 * records of that buffer.  Memory is bounded by the largest chunk.
 *
 * Spool form is mapped read-only and read by trace_spool_read.c, which
 * orders each thread's fills and merges the threads by order key.
 *
 * In either form, a record is located only when the record before it has
 * been delivered, so an error is reported after every record that precedes
 * it (in a spool: in its thread).  Errors are sticky: once next() has
 * failed it keeps failing the same way.
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
	struct trace_spool_read *sread;

	/* late observations being put in place (trace_late.c), or NULL */
	struct trace_late *late;

	/* funcdefs: open addressing on id, load <= 1/2 */
	struct funcdef *fdefs;
	uint32_t fdef_cap, fdef_count;
	struct xt_arena arena;     /* funcdef names */
	struct xt_arena check;     /* scratch of trace_reader_check_record */
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
	if (version < TRACE_FORMAT_VERSION_MIN || version > TRACE_FORMAT_VERSION)
		return XT_FAIL(&r->err, XT_ERR_VERSION,
			       "%s has trace format version %u; this build reads versions %u to %u",
			       path, version, TRACE_FORMAT_VERSION_MIN, TRACE_FORMAT_VERSION);
	if (get32(h + 12) != TRACE_FILE_HEADER_BYTES || (flags & ~TRACE_FILE_SPOOL) ||
	    get32(h + 20) != 0)
		return XT_FAIL(&r->err, XT_ERR_CORRUPT,
			       "%s: bad header size, flags or reserved field at offset 12..23",
			       path);
	r->spool = (flags & TRACE_FILE_SPOOL) != 0;
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
	xt_arena_init(&r->check, 16 * 1024);
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
		rc = trace_spool_read_open(&r->sread, r->map, r->file_bytes, &r->err);
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
	trace_spool_read_close(r->sread);
	trace_late_free(r->late);
	xt_free(r->fdefs);
	xt_arena_fini(&r->arena);
	xt_arena_fini(&r->check);
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

/* The records as the file holds them, in global order. */
static enum xt_rc raw_next(struct trace_reader *r, struct trace_record *rec)
{
	if (r->spool)
		return r->sread ? trace_spool_read_next(r->sread, rec) : XT_ERR_EOF;
	return compact_next(r, rec);
}

enum xt_rc trace_reader_next(struct trace_reader *r, struct trace_record *rec)
{
	enum xt_rc rc;
	if (r->failed)
		return r->err.rc;
	rc = trace_late_next(r, &r->late, raw_next, rec, &r->err);
	if (rc == XT_OK)
		rc = trace_reader_note_funcdef(r, rec);
	if (rc == XT_OK) {
		xt_arena_reset(&r->check);
		rc = trace_reader_check_record(r, rec, &r->check);
	}
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
