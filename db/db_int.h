/*
 * db_int.h - what the files of db/ share: the handle, statement and
 * transaction helpers, and the SQLite-to-xt_rc error mapping.
 */
#ifndef DB_INT_H
#define DB_INT_H

#include <sqlite3.h>
#include <zstd.h>

#include "db.h"
#include "xt_hash.h"

struct db {
	sqlite3 *sql;
	struct xt_err err;          /* last error */
	bool in_tx;                 /* a transaction of ours is open */
	ZSTD_CCtx *zc;              /* lazily created */
	ZSTD_DCtx *zd;              /* lazily created */
	struct xt_buf zbuf;         /* compressed bytes of the blob being put */
};

struct db_run {
	struct db *db;
	int64_t id;
	bool golden;                /* written inside db_trace_record's transaction */
	uint64_t observations;      /* added so far (golden: counted at the end) */
	uint64_t data_bytes;
};

/*
 * Records an SQLite failure of `what` in db->err: SQLITE_NOMEM becomes
 * XT_ERR_NOMEM, BUSY/LOCKED/IOERR/FULL/CANTOPEN/READONLY XT_ERR_IO, CORRUPT
 * and NOTADB XT_ERR_CORRUPT, CONSTRAINT XT_ERR_INVALID, anything else
 * (malformed JSON in a row included) XT_ERR_CORRUPT.
 */
enum xt_rc db_sql_fail_at(struct db *db, int sqlite_rc, const char *file, int line,
			  const char *what);
#define db_sql_fail(db, src, what) db_sql_fail_at((db), (src), __FILE__, __LINE__, (what))

/*
 * Records that a row just read is malformed (XT_ERR_CORRUPT), unless SQLite
 * ran out of memory converting a column: it then hands out NULL or 0 and
 * sets SQLITE_NOMEM, which must not pass for corruption (XT_ERR_NOMEM).
 */
enum xt_rc db_corrupt_at(struct db *db, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#define DB_CORRUPT(db, ...) db_corrupt_at((db), __FILE__, __LINE__, __VA_ARGS__)

/*
 * The check of an observation row (db_check.c): 16 hex digits of XXH3-64
 * over its meaningful columns, the layout by its hash.  NULL strings are
 * allowed where the columns allow them.  XT_ERR_NOMEM only.
 */
enum xt_rc db_obs_row_check(uint64_t call_no, const char *kind, uint32_t index,
			    const char *function, const char *primitive_mode,
			    const char *fields_json, const char *layout_hash,
			    const char *blob_hash, const char *verdict_class,
			    const char *verdict_reason, char out[17]);
/* Computes and stores the missing checks of run `run_id`'s observation
 * rows (0: of every run): after the migration that added the column, and
 * for rows copied from a database that had none. */
enum xt_rc db_obs_checks_fill(struct db *db, int64_t run_id);
/* The same for a call_artifacts row. */
void db_art_row_check(uint64_t call_no, const char *function, int64_t pm4_dwords,
		      const char *pm4_hash, const char *regs_hash, int64_t program, bool frame_end,
		      char out[17]);
enum xt_rc db_art_checks_fill(struct db *db, int64_t run_id);

/* Prepares `sql` (a static string) into *st. */
enum xt_rc db_prepare(struct db *db, sqlite3_stmt **st, const char *sql);
/* Runs statements without results. */
enum xt_rc db_exec(struct db *db, const char *sql);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK.  Rollback never fails visibly: it
 * keeps the error already recorded in db->err. */
enum xt_rc db_tx_begin(struct db *db);
enum xt_rc db_tx_commit(struct db *db);
void db_tx_rollback(struct db *db);

/* Binds a possibly-NULL string / a string of known length. */
int db_bind_text(sqlite3_stmt *st, int i, const char *s);

/* Text of column i, or NULL for SQL NULL or a non-text column. */
const char *db_col_text(sqlite3_stmt *st, int i);

/*
 * Storing a blob is two steps, so that the costly one happens outside the
 * write lock.  db_blob_prepare hashes `data` into hex and, when the store
 * lacks those bytes, compresses them into db->zbuf (*codec "zstd" or "none");
 * *codec is NULL when the store has them.  db_blob_store, inside the
 * caller's transaction, inserts the blob unless present (compressing then
 * if it was not prepared).  Nothing may use db->zbuf in between.
 */
enum xt_rc db_blob_prepare(struct db *db, const void *data, size_t len, char hex[33],
			   const char **codec);
enum xt_rc db_blob_store(struct db *db, const char *hex, const void *data, size_t len,
			 const char *codec);

/* Compresses `data` into db->zbuf; sets *codec to "zstd", or "none" (and
 * leaves zbuf empty) when compression saves too little to be worth it. */
enum xt_rc db_blob_compress(struct db *db, const void *data, size_t len, const char **codec);

/* Inserts an observation row of `run` and bumps its counters; the caller
 * holds the transaction. */
enum xt_rc db_obs_insert(struct db_run *run, const struct db_obs *obs, const char *blob_hex);

/* Inserts run `desc` with status "incomplete"; the caller may hold a
 * transaction (golden) or not. */
enum xt_rc db_run_insert(struct db *db, const struct db_run_desc *desc, bool golden,
			 int64_t *run_id);

/* Marks run `id` finished with `status`, setting its counters when
 * `counts` (golden runs count at the end). */
enum xt_rc db_run_update_end(struct db *db, int64_t id, enum db_run_status status,
			     const char *summary, const struct db_run *counts);

#endif
