/*
 * db_int.h - what the files of db/ share: the handle, the connection seam
 * (statements with typed parameters and rows, transactions) over the two
 * engines, and the error mapping.
 *
 * The seam speaks SQLite's vocabulary: statements are written in SQLite's
 * dialect with ?N parameters, steps answer SQLITE_ROW / SQLITE_DONE or an
 * (extended) SQLite result code, and columns have SQLite's storage classes.
 * db_sql.c implements it on SQLite directly; db_pg.c on libpq, translating
 * each statement once, in one place (db_pg_translate), and mapping SQLSTATEs
 * onto the result codes the callers test (a duplicate key is
 * SQLITE_CONSTRAINT_PRIMARYKEY, a foreign key SQLITE_CONSTRAINT_FOREIGNKEY,
 * ...).  So the files above the seam hold one copy of every statement and of
 * the schema.
 */
#ifndef DB_INT_H
#define DB_INT_H

#include <sqlite3.h>
#include <zstd.h>

#include "db.h"
#include "xt_hash.h"

enum db_engine {
	DB_SQLITE,                  /* a file */
	DB_POSTGRESQL,              /* a postgresql:// or postgres:// URL */
};

struct db_pg;

struct db {
	enum db_engine engine;
	sqlite3 *sql;               /* DB_SQLITE: the file */
	struct db_pg *pg;           /* DB_POSTGRESQL: the connection */
	sqlite3 *json;              /* SQLite's JSON functions for either engine:
	                             * `sql`, or an in-memory database (db_prepare_json) */
	char *where;                /* the path, or the URL without its password */
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

/* ---- the connection seam (db_sql.c; libpq: db_pg.c) ---------------------- */

/* A prepared statement of either engine. */
struct db_stmt;

/* Prepares `sql` (SQLite's dialect, ?N parameters) into *st. */
enum xt_rc db_prepare(struct db *db, struct db_stmt **st, const char *sql);
/* Prepares `sql` on the connection that evaluates SQLite's JSON functions
 * over bound JSON text (the store itself for SQLite, an in-memory database
 * beside a PostgreSQL store): one spelling of every JSON query. */
enum xt_rc db_prepare_json(struct db *db, struct db_stmt **st, const char *sql);
/* Runs statements without results and without parameters. */
enum xt_rc db_exec(struct db *db, const char *sql);
/* The same, recording nothing on failure. */
void db_exec_quiet(struct db *db, const char *sql);

/* Parameters are numbered from 1.  Text and blobs must stay valid until
 * the statement is stepped. */
void db_bind_i64(struct db_stmt *st, int i, int64_t v);
void db_bind_double(struct db_stmt *st, int i, double v);
void db_bind_null(struct db_stmt *st, int i);
/* A possibly-NULL string. */
void db_bind_text(struct db_stmt *st, int i, const char *s);
void db_bind_blob(struct db_stmt *st, int i, const void *p, size_t n);

/* SQLITE_ROW, SQLITE_DONE, or an error code (its message: db_sql_fail). */
int db_step(struct db_stmt *st);
/* Makes the statement runnable again, keeping its bindings. */
void db_reset(struct db_stmt *st);
/* NULL is a no-op. */
void db_finalize(struct db_stmt *st);

/* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL. */
int db_col_type(struct db_stmt *st, int i);
int64_t db_col_i64(struct db_stmt *st, int i);
double db_col_double(struct db_stmt *st, int i);
/* Text of column i, or NULL for SQL NULL or a non-text column. */
const char *db_col_text(struct db_stmt *st, int i);
const void *db_col_blob(struct db_stmt *st, int i);
size_t db_col_bytes(struct db_stmt *st, int i);

/* The id of the row the last INSERT of a table with an id column made. */
int64_t db_last_id(struct db *db);
/* Rows changed by the last INSERT / UPDATE / DELETE. */
int64_t db_changes(struct db *db);

/* Begins a write transaction: BEGIN IMMEDIATE on SQLite, BEGIN and the
 * store's advisory writer lock on PostgreSQL (DB_APPLICATION_ID), so that
 * writers are serialised alike on both.  COMMIT / ROLLBACK.  Rollback never
 * fails visibly: it keeps the error already recorded in db->err. */
enum xt_rc db_tx_begin(struct db *db);
/* The same for a transaction that only adds rows whose races the schema
 * settles (blobs and layouts: INSERT ... ON CONFLICT DO NOTHING on their
 * hash; observations and artefacts of a run that has one writer): on
 * PostgreSQL without the writer lock, so that a farm's writers add their
 * observations side by side; on SQLite BEGIN IMMEDIATE all the same. */
enum xt_rc db_tx_begin_rows(struct db *db);
enum xt_rc db_tx_commit(struct db *db);
void db_tx_rollback(struct db *db);

/* ---- the schema version (db_schema.c; PostgreSQL: db_pg.c) -------------- */

/* The store's schema version, application id and count of tables. */
struct db_version {
	int64_t version;
	int64_t app_id;
	int64_t objects;
};

/* db_run_import for a store that cannot ATTACH the file (db_copy.c). */
enum xt_rc db_run_import_copy(struct db *db, const char *src_path, const char *label,
			      int64_t *run_id);

/* ---- libpq (db_pg.c) ------------------------------------------------------ */

/* Whether `where` names a PostgreSQL store (postgresql:// or postgres://). */
bool db_is_pg_url(const char *where);
/* Connects db to the store at `url` (db->engine set by the caller). */
enum xt_rc db_pg_open(struct db *db, const char *url, enum db_open_mode mode);
void db_pg_close(struct db *db);
/* Runs `set` now and again after every reconnect (a dropped connection is
 * reopened outside transactions). */
enum xt_rc db_pg_session(struct db *db, const char *set);
enum xt_rc db_pg_version(struct db *db, struct db_version *v);
enum xt_rc db_pg_set_version(struct db *db, int version);
const char *db_pg_errmsg(struct db *db);
int db_pg_errcode(struct db *db);
bool db_pg_in_tx(struct db *db);
struct db_pg_stmt;
enum xt_rc db_pg_prepare(struct db *db, struct db_pg_stmt **st, const char *sql);
int db_pg_exec(struct db *db, const char *sql);
void db_pg_bind(struct db_pg_stmt *st, int i, const char *text, const void *blob, size_t n);
int db_pg_step(struct db_pg_stmt *st);
void db_pg_reset(struct db_pg_stmt *st);
void db_pg_finalize(struct db_pg_stmt *st);
int db_pg_col_type(struct db_pg_stmt *st, int i);
const char *db_pg_col_value(struct db_pg_stmt *st, int i);
const void *db_pg_col_blob(struct db_pg_stmt *st, int i, size_t *n);
int64_t db_pg_last_id(struct db *db);
int64_t db_pg_changes(struct db *db);
/* The statement `sql` as PostgreSQL spells it (allocated; NULL for no
 * memory): exported for the unit test of the translation. */
char *db_pg_translate(const char *sql);

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
