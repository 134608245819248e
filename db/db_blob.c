/*
 * db_blob.c - the content-addressed blob store (table `blobs`, docs/db.md).
 *
 * A blob is named by the XXH3-128 of its raw bytes, so the same TF buffer
 * read back by a hundred runs of a trace, across revisions, is stored once:
 * a put of bytes already present costs a hash and one indexed lookup, and
 * compresses nothing.  Bytes are zstd-compressed (level 3: observation data
 * is written once per run and read by diff, so decompression speed matters
 * more than ratio) unless that saves less than 1/32 of them, as random
 * floats often do; then they are stored as they are.
 *
 * Reading checks everything a hostile row could get wrong before trusting
 * it: codec name, declared size against the limit and against the zstd
 * frame header (no allocation from an unchecked size), the decompressed
 * size, and finally the hash of the bytes against the row's name.
 */
#include <stdlib.h>
#include <string.h>

#include <zstd_errors.h>

#include "db_int.h"
#include "xt_fault.h"

#define ZSTD_LEVEL 3

enum xt_rc db_blob_compress(struct db *db, const void *data, size_t len, const char **codec)
{
	xt_buf_reset(&db->zbuf);
	*codec = "none";
	if (len < 64)
		return XT_OK;
	if (!db->zc && !(db->zc = ZSTD_createCCtx()))
		return XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory creating a zstd context");
	size_t bound = ZSTD_compressBound(len);
	if (xt_buf_reserve(&db->zbuf, bound))
		return XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory compressing %zu bytes", len);
	size_t n = ZSTD_compressCCtx(db->zc, db->zbuf.data, bound, data, len, ZSTD_LEVEL);
	if (ZSTD_isError(n)) {
		/* zstd fails only for lack of memory here. */
		return XT_FAIL(&db->err, XT_ERR_NOMEM, "zstd: %s", ZSTD_getErrorName(n));
	}
	if (n < len - len / 32) {
		db->zbuf.len = n;
		*codec = "zstd";
	}
	return XT_OK;
}

static enum xt_rc blob_exists(struct db *db, const char *hex, bool *exists)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st, "SELECT 1 FROM blobs WHERE hash = ?1");
	if (rc)
		return rc;
	db_bind_text(st, 1, hex);
	int src = db_step(st);
	*exists = src == SQLITE_ROW;
	if (src != SQLITE_ROW && src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "looking a blob up");
	db_finalize(st);
	return rc;
}

static enum xt_rc blob_insert(struct db *db, const char *hex, const void *data, size_t len,
			      const char *codec)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st,
				   "INSERT OR IGNORE INTO blobs (hash, raw_bytes, codec, data)"
				   " VALUES (?1, ?2, ?3, ?4)");
	if (rc)
		return rc;
	bool raw = !strcmp(codec, "none");
	db_bind_text(st, 1, hex);
	db_bind_i64(st, 2, (int64_t)len);
	db_bind_text(st, 3, codec);
	/* A zero-length blob must not bind as NULL (data is NOT NULL). */
	if (raw)
		db_bind_blob(st, 4, len ? data : "", len);
	else
		db_bind_blob(st, 4, db->zbuf.data, db->zbuf.len);
	int src = db_step(st);
	if (src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "storing a blob");
	db_finalize(st);
	return rc;
}

enum xt_rc db_blob_prepare(struct db *db, const void *data, size_t len, char hex[33],
			   const char **codec)
{
	bool exists;
	enum xt_rc rc;

	*codec = NULL;
	xt_hash128_hex(xt_hash128(data, len), hex);
	rc = blob_exists(db, hex, &exists);
	if (!rc && !exists)
		rc = db_blob_compress(db, data, len, codec);
	return rc;
}

enum xt_rc db_blob_store(struct db *db, const char *hex, const void *data, size_t len,
			 const char *codec)
{
	bool exists;
	enum xt_rc rc = blob_exists(db, hex, &exists);
	if (rc || exists)
		return rc;
	/* Prepared when the bytes were there already (and since removed), or
	 * not prepared at all. */
	if (!codec)
		rc = db_blob_compress(db, data, len, &codec);
	return rc ? rc : blob_insert(db, hex, data, len, codec);
}

static enum xt_rc decompress(struct db *db, const char *hash, const void *src, size_t src_len,
			     size_t raw_bytes, struct xt_buf *out)
{
	unsigned long long declared = ZSTD_getFrameContentSize(src, src_len);
	if (declared != raw_bytes)
		return XT_FAIL(&db->err, XT_ERR_CORRUPT,
			       "blob %s: zstd frame declares %lld bytes, the row %zu", hash,
			       declared >= ZSTD_CONTENTSIZE_ERROR ? -1LL : (long long)declared,
			       raw_bytes);
	if (!db->zd && !(db->zd = ZSTD_createDCtx()))
		return XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory creating a zstd context");
	size_t n = ZSTD_decompressDCtx(db->zd, out->data, raw_bytes, src, src_len);
	if (ZSTD_isError(n)) {
		if (ZSTD_getErrorCode(n) == ZSTD_error_memory_allocation)
			return XT_FAIL(&db->err, XT_ERR_NOMEM, "blob %s: zstd: %s", hash,
				       ZSTD_getErrorName(n));
		return XT_FAIL(&db->err, XT_ERR_CORRUPT, "blob %s: zstd: %s", hash,
			       ZSTD_getErrorName(n));
	}
	if (n != raw_bytes)
		return XT_FAIL(&db->err, XT_ERR_CORRUPT, "blob %s: %zu bytes decompressed, %zu declared",
			       hash, n, raw_bytes);
	return XT_OK;
}

enum xt_rc db_blob_get(struct db *db, const char *hash, struct xt_buf *out)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st, "SELECT raw_bytes, codec, data FROM blobs WHERE hash = ?1");
	if (rc)
		return rc;
	xt_buf_reset(out);
	db_bind_text(st, 1, hash);
	int src = db_step(st);
	if (src == SQLITE_DONE) {
		rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "blob %s is not in the store", hash);
		goto out;
	}
	if (src != SQLITE_ROW) {
		rc = db_sql_fail(db, src, "reading a blob");
		goto out;
	}
	int64_t raw = db_col_i64(st, 0);
	const char *codec = db_col_text(st, 1);
	const void *bytes = db_col_blob(st, 2);
	size_t n = (size_t)db_col_bytes(st, 2);
	if (db_col_type(st, 0) != SQLITE_INTEGER || raw < 0 || raw > DB_MAX_DATA_BYTES ||
	    !codec || db_col_type(st, 2) != SQLITE_BLOB) {
		rc = DB_CORRUPT(db, "blob %s: malformed row (raw_bytes %lld, codec %s)",
			     hash, (long long)raw, codec ? codec : "NULL");
		goto out;
	}
	if (strcmp(codec, "zstd") && strcmp(codec, "none")) {
		rc = XT_FAIL(&db->err, XT_ERR_CORRUPT, "blob %s: unknown codec '%s'", hash, codec);
		goto out;
	}
	if (xt_buf_reserve(out, (size_t)raw ? (size_t)raw : 1)) {
		rc = XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory reading blob %s", hash);
		goto out;
	}
	if (!strcmp(codec, "none")) {
		if (n != (size_t)raw)
			rc = XT_FAIL(&db->err, XT_ERR_CORRUPT, "blob %s: %zu bytes stored, %lld declared",
				     hash, n, (long long)raw);
		else if (n)
			memcpy(out->data, bytes, n);
	} else {
		rc = decompress(db, hash, bytes, n, (size_t)raw, out);
	}
	if (rc)
		goto out;
	out->len = (size_t)raw;
	char hex[33];
	xt_hash128_hex(xt_hash128(out->data, out->len), hex);
	if (strcmp(hex, hash)) {
		xt_buf_reset(out);
		rc = XT_FAIL(&db->err, XT_ERR_CORRUPT, "blob %s: its bytes hash to %s", hash, hex);
	}
out:
	db_finalize(st);
	return rc;
}
