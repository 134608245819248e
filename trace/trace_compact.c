/*
 * trace_compact.c - rewriting a spool as a compacted trace (trace_compact()
 * in trace_reader.h; "Compacted form" in docs/trace-format.md).
 *
 * The reader already merges the spool's threads into global order and puts
 * late observations in place (trace_late.c), so this is a loop: append each record (header rebuilt from the fields the reader
 * returns, payload bytes unchanged) to a ~1 MiB buffer, and when the next
 * record would not fit, compress the buffer into one ZSTD chunk with the
 * XXH3-64 of the raw bytes.  A record larger than the buffer target gets a
 * chunk of its own.
 *
 * The output goes to a temporary file next to `out_path` that is fsync'ed
 * and renamed over it, so a crash during compaction never leaves a half
 * written trace under the final name, and out_path may be the spool itself
 * (the reader keeps its own mapping / descriptor until it is closed).
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "trace_reader.h"
#include "xt_buf.h"
#include "xt_fault.h"
#include "xt_hash.h"

#define CHUNK_TARGET_BYTES (1u << 20)
#define ZSTD_LEVEL 3

struct compactor {
	int fd;                   /* the temporary output */
	const char *tmp_path;
	uint64_t off;             /* bytes written so far */
	struct xt_buf raw;        /* records of the chunk being built */
	uint64_t nchunks;         /* ZSTD chunks written */
	uint64_t nrecords;        /* records written */
	struct xt_buf packed;     /* its compressed form */
	ZSTD_CCtx *cctx;
	struct xt_err *err;
};

static void put_u32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put_u64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static enum xt_rc write_all(struct compactor *c, const void *buf, size_t n)
{
	const uint8_t *p = buf;
	while (n) {
		ssize_t w = xt_fault_io() ? (errno = ENOSPC, -1) : write(c->fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return XT_FAIL(c->err, XT_ERR_IO, "cannot write %s: %s", c->tmp_path,
				       strerror(errno));
		}
		p += w;
		n -= (size_t)w;
		c->off += (uint64_t)w;
	}
	return XT_OK;
}

static enum xt_rc flush_chunk(struct compactor *c)
{
	uint8_t h[TRACE_CHUNK_HEADER_BYTES];
	size_t bound, packed;
	enum xt_rc rc;

	if (c->raw.len == 0)
		return XT_OK;
	bound = ZSTD_compressBound(c->raw.len);
	c->packed.len = 0;
	rc = xt_buf_reserve(&c->packed, bound);
	if (rc != XT_OK)
		return XT_FAIL(c->err, rc, "out of memory compressing a chunk");
	packed = ZSTD_compressCCtx(c->cctx, c->packed.data, bound, c->raw.data, c->raw.len,
				   ZSTD_LEVEL);
	if (ZSTD_isError(packed))
		return XT_FAIL(c->err, XT_ERR_INTERNAL, "zstd: %s", ZSTD_getErrorName(packed));
	if (packed > TRACE_CHUNK_MAX_BYTES)
		return XT_FAIL(c->err, XT_ERR_UNSUPPORTED, "a chunk compresses to %zu bytes",
			       packed);

	memset(h, 0, sizeof h);
	memcpy(h, TRACE_CHUNK_MAGIC, 4);
	h[4] = TRACE_CHUNK_ZSTD;
	put_u32(h + 12, (uint32_t)packed);
	put_u32(h + 16, (uint32_t)c->raw.len);
	put_u64(h + 24, xt_hash64(c->raw.data, c->raw.len));
	put_u32(h + 20, trace_chunk_header_check(h));
	rc = write_all(c, h, sizeof h);
	c->nchunks++;
	if (rc == XT_OK)
		rc = write_all(c, c->packed.data, packed);
	c->raw.len = 0;
	return rc;
}

/* The END chunk: a compacted file that lacks it was cut short. */
static enum xt_rc write_end(struct compactor *c)
{
	uint8_t h[TRACE_CHUNK_HEADER_BYTES];

	memset(h, 0, sizeof h);
	memcpy(h, TRACE_CHUNK_MAGIC, 4);
	h[4] = TRACE_CHUNK_END;
	put_u32(h + 16, (uint32_t)c->nchunks);
	put_u64(h + 24, c->nrecords);
	put_u32(h + 20, trace_chunk_header_check(h));
	return write_all(c, h, sizeof h);
}

static enum xt_rc add_record(struct compactor *c, const struct trace_record *rec)
{
	uint8_t h[TRACE_RECORD_HEADER_BYTES];
	size_t size = TRACE_RECORD_HEADER_BYTES + rec->payload_bytes;
	enum xt_rc rc;

	if (c->raw.len && c->raw.len + size > CHUNK_TARGET_BYTES) {
		rc = flush_chunk(c);
		if (rc != XT_OK)
			return rc;
	}
	put_u32(h, (uint32_t)size);
	memcpy(h + 4, &rec->type, 2);
	memcpy(h + 6, &rec->flags, 2);
	put_u64(h + 8, rec->seq);
	memset(h + 16, 0, 8);
	if (xt_buf_reserve(&c->raw, size) != XT_OK)
		return XT_FAIL(c->err, XT_ERR_NOMEM, "out of memory for a %zu-byte record", size);
	uint8_t *start = c->raw.data + c->raw.len;
	xt_buf_append(&c->raw, h, sizeof h);
	xt_buf_append(&c->raw, rec->payload, rec->payload_bytes);
	put_u32(start + 16, trace_record_check(start, (uint32_t)size));
	c->nrecords++;
	return XT_OK;
}

static enum xt_rc copy_records(struct compactor *c, struct trace_reader *r)
{
	uint8_t h[TRACE_FILE_HEADER_BYTES];
	struct trace_record rec;
	enum xt_rc rc;

	memset(h, 0, sizeof h);
	memcpy(h, TRACE_MAGIC, 8);
	put_u32(h + 8, TRACE_FORMAT_VERSION);
	put_u32(h + 12, TRACE_FILE_HEADER_BYTES);
	put_u64(h + 24, xt_hash64(h, 24));
	rc = write_all(c, h, sizeof h);
	while (rc == XT_OK) {
		rc = trace_reader_next(r, &rec);
		if (rc == XT_ERR_EOF) {
			rc = flush_chunk(c);
			if (rc == XT_OK)
				rc = write_end(c);
			break;
		}
		if (rc != XT_OK)
			return xt_err_copy(c->err, trace_reader_err(r));
		rc = add_record(c, &rec);
	}
	if (rc == XT_OK && (xt_fault_io() ? (errno = EIO, 1) : fsync(c->fd) != 0))
		rc = XT_FAIL(c->err, XT_ERR_IO, "cannot sync %s: %s", c->tmp_path,
			     strerror(errno));
	return rc;
}

enum xt_rc trace_compact(const char *spool_path, const char *out_path, struct xt_err *err)
{
	struct compactor c = { .fd = -1, .err = err };
	struct trace_reader *r = NULL;
	size_t n = strlen(out_path);
	bool created = false;
	char *tmp;
	enum xt_rc rc;

	xt_buf_init(&c.raw);
	xt_buf_init(&c.packed);
	tmp = xt_malloc(n + sizeof ".XXXXXX");
	if (!tmp)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory compacting %s", spool_path);
	memcpy(tmp, out_path, n);
	memcpy(tmp + n, ".XXXXXX", sizeof ".XXXXXX");
	c.tmp_path = tmp;

	rc = trace_reader_open(&r, spool_path, err);
	if (rc != XT_OK)
		goto out;
	c.cctx = ZSTD_createCCtx();
	if (!c.cctx) {
		rc = XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a zstd context");
		goto out;
	}
	c.fd = xt_fault_io() ? (errno = EACCES, -1) : mkostemp(tmp, O_CLOEXEC);
	if (c.fd < 0) {
		rc = XT_FAIL(err, XT_ERR_IO, "cannot create a temporary file next to %s: %s",
			     out_path, strerror(errno));
		goto out;
	}
	created = true;
	fchmod(c.fd, 0644);
	rc = copy_records(&c, r);
	if (rc == XT_OK) {
		if (close(c.fd) != 0)
			rc = XT_FAIL(err, XT_ERR_IO, "cannot close %s: %s", tmp, strerror(errno));
		c.fd = -1;
	}
	if (rc == XT_OK && (xt_fault_io() ? (errno = EIO, 1) : rename(tmp, out_path) != 0))
		rc = XT_FAIL(err, XT_ERR_IO, "cannot rename %s to %s: %s", tmp, out_path,
			     strerror(errno));
out:
	if (c.fd >= 0)
		close(c.fd);
	if (rc != XT_OK && created)
		unlink(tmp);
	trace_reader_close(r);
	ZSTD_freeCCtx(c.cctx);
	xt_buf_fini(&c.raw);
	xt_buf_fini(&c.packed);
	xt_free(tmp);
	return rc;
}
