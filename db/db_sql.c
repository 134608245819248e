/*
 * db_sql.c - the connection seam of db_int.h: statements, parameters, rows
 * and transactions, on SQLite directly and on PostgreSQL through db_pg.c.
 *
 * Every statement above this file is written once, in SQLite's dialect;
 * a PostgreSQL store gets it translated by db_pg_translate.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_int.h"
#include "xt_fault.h"

struct db_stmt {
	struct db *db;
	sqlite3_stmt *lite;         /* one of these two */
	struct db_pg_stmt *pg;
};

static const char *errmsg(struct db *db, int src)
{
	if (db->engine == DB_POSTGRESQL)
		return db_pg_errmsg(db);
	return db->sql ? sqlite3_errmsg(db->sql) : sqlite3_errstr(src);
}

enum xt_rc db_sql_fail_at(struct db *db, int src, const char *file, int line, const char *what)
{
	enum xt_rc rc;
	const char *msg = errmsg(db, src);

	switch (src == SQLITE_IOERR_NOMEM ? SQLITE_NOMEM : src & 0xff) {
	case SQLITE_NOMEM: rc = XT_ERR_NOMEM; break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
	case SQLITE_IOERR:
	case SQLITE_FULL:
	case SQLITE_CANTOPEN:
	case SQLITE_READONLY:
	case SQLITE_PERM: rc = XT_ERR_IO; break;
	case SQLITE_CONSTRAINT: rc = XT_ERR_INVALID; break;
	default: rc = XT_ERR_CORRUPT; break;
	}
	return xt_err_set(&db->err, rc, file, line, "%s: %s", what, msg);
}

enum xt_rc db_corrupt_at(struct db *db, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	enum xt_rc rc;
	int code = db->engine == DB_POSTGRESQL ? db_pg_errcode(db) : sqlite3_errcode(db->sql);
	if (code == SQLITE_NOMEM)
		return xt_err_set(&db->err, XT_ERR_NOMEM, file, line, "out of memory reading a row");
	va_start(ap, fmt);
	rc = xt_err_setv(&db->err, XT_ERR_CORRUPT, file, line, fmt, ap);
	va_end(ap);
	return rc;
}

static enum xt_rc prepare_lite(struct db *db, sqlite3 *conn, struct db_stmt **out,
			       const char *sql)
{
	struct db_stmt *st = xt_calloc(1, sizeof *st);
	*out = NULL;
	if (!st)
		return XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory preparing a statement");
	st->db = db;
	int src = sqlite3_prepare_v2(conn, sql, -1, &st->lite, NULL);
	if (src != SQLITE_OK) {
		free(st);
		if (conn != db->sql)
			return XT_FAIL(&db->err, src == SQLITE_NOMEM ? XT_ERR_NOMEM : XT_ERR_INTERNAL,
				       "preparing a JSON query: %s", sqlite3_errmsg(conn));
		return db_sql_fail(db, src, "preparing a statement");
	}
	*out = st;
	return XT_OK;
}

enum xt_rc db_prepare(struct db *db, struct db_stmt **out, const char *sql)
{
	if (db->engine == DB_SQLITE)
		return prepare_lite(db, db->sql, out, sql);
	struct db_stmt *st = xt_calloc(1, sizeof *st);
	*out = NULL;
	if (!st)
		return XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory preparing a statement");
	st->db = db;
	enum xt_rc rc = db_pg_prepare(db, &st->pg, sql);
	if (rc) {
		free(st);
		return rc;
	}
	*out = st;
	return XT_OK;
}

enum xt_rc db_prepare_json(struct db *db, struct db_stmt **out, const char *sql)
{
	if (!db->json) {
		int src = sqlite3_open_v2(":memory:", &db->json,
					  SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
		if (src != SQLITE_OK) {
			sqlite3_close_v2(db->json);
			db->json = NULL;
			return XT_FAIL(&db->err, XT_ERR_NOMEM,
				       "out of memory opening SQLite for JSON queries");
		}
	}
	return prepare_lite(db, db->json, out, sql);
}

enum xt_rc db_exec(struct db *db, const char *sql)
{
	int src = db->engine == DB_POSTGRESQL ? db_pg_exec(db, sql)
					      : sqlite3_exec(db->sql, sql, NULL, NULL, NULL);
	return src == SQLITE_OK ? XT_OK : db_sql_fail(db, src, sql);
}

void db_exec_quiet(struct db *db, const char *sql)
{
	if (db->engine == DB_POSTGRESQL)
		db_pg_exec(db, sql);
	else
		sqlite3_exec(db->sql, sql, NULL, NULL, NULL);
}

void db_bind_i64(struct db_stmt *st, int i, int64_t v)
{
	if (st->lite) {
		sqlite3_bind_int64(st->lite, i, v);
		return;
	}
	char num[24];
	snprintf(num, sizeof num, "%lld", (long long)v);
	db_pg_bind(st->pg, i, num, NULL, 0);
}

void db_bind_double(struct db_stmt *st, int i, double v)
{
	if (st->lite) {
		sqlite3_bind_double(st->lite, i, v);
		return;
	}
	char num[40];
	snprintf(num, sizeof num, "%.17g", v);
	db_pg_bind(st->pg, i, num, NULL, 0);
}

void db_bind_null(struct db_stmt *st, int i)
{
	if (st->lite)
		sqlite3_bind_null(st->lite, i);
	else
		db_pg_bind(st->pg, i, NULL, NULL, 0);
}

void db_bind_text(struct db_stmt *st, int i, const char *s)
{
	if (!s)
		db_bind_null(st, i);
	else if (st->lite)
		sqlite3_bind_text(st->lite, i, s, -1, SQLITE_STATIC);
	else
		db_pg_bind(st->pg, i, s, NULL, 0);
}

void db_bind_blob(struct db_stmt *st, int i, const void *p, size_t n)
{
	/* A zero-length blob must not bind as NULL. */
	if (st->lite)
		sqlite3_bind_blob64(st->lite, i, n ? p : "", n, SQLITE_STATIC);
	else
		db_pg_bind(st->pg, i, NULL, n ? p : "", n);
}

int db_step(struct db_stmt *st)
{
	return st->lite ? sqlite3_step(st->lite) : db_pg_step(st->pg);
}

void db_reset(struct db_stmt *st)
{
	if (st->lite)
		sqlite3_reset(st->lite);
	else
		db_pg_reset(st->pg);
}

void db_finalize(struct db_stmt *st)
{
	if (!st)
		return;
	if (st->lite)
		sqlite3_finalize(st->lite);
	else
		db_pg_finalize(st->pg);
	free(st);
}

int db_col_type(struct db_stmt *st, int i)
{
	return st->lite ? sqlite3_column_type(st->lite, i) : db_pg_col_type(st->pg, i);
}

int64_t db_col_i64(struct db_stmt *st, int i)
{
	if (st->lite)
		return sqlite3_column_int64(st->lite, i);
	const char *v = db_pg_col_value(st->pg, i);
	if (!v)
		return 0;
	if (*v == 't' || *v == 'f') /* boolean */
		return *v == 't';
	return strtoll(v, NULL, 10);
}

double db_col_double(struct db_stmt *st, int i)
{
	if (st->lite)
		return sqlite3_column_double(st->lite, i);
	const char *v = db_pg_col_value(st->pg, i);
	return v ? strtod(v, NULL) : 0.0;
}

const char *db_col_text(struct db_stmt *st, int i)
{
	if (db_col_type(st, i) != SQLITE_TEXT)
		return NULL;
	return st->lite ? (const char *)sqlite3_column_text(st->lite, i)
			: db_pg_col_value(st->pg, i);
}

const void *db_col_blob(struct db_stmt *st, int i)
{
	size_t n;
	return st->lite ? sqlite3_column_blob(st->lite, i) : db_pg_col_blob(st->pg, i, &n);
}

size_t db_col_bytes(struct db_stmt *st, int i)
{
	size_t n = 0;
	if (st->lite)
		return (size_t)sqlite3_column_bytes(st->lite, i);
	db_pg_col_blob(st->pg, i, &n);
	return n;
}

int64_t db_last_id(struct db *db)
{
	return db->engine == DB_POSTGRESQL ? db_pg_last_id(db) : sqlite3_last_insert_rowid(db->sql);
}

int64_t db_changes(struct db *db)
{
	return db->engine == DB_POSTGRESQL ? db_pg_changes(db) : sqlite3_changes(db->sql);
}

enum xt_rc db_tx_begin(struct db *db)
{
	if (db->in_tx)
		return XT_FAIL(&db->err, XT_ERR_INTERNAL, "nested transaction");
	char begin[80];
	snprintf(begin, sizeof begin, "BEGIN; SELECT pg_advisory_xact_lock(%d)", DB_APPLICATION_ID);
	enum xt_rc rc = db_exec(db, db->engine == DB_POSTGRESQL ? begin : "BEGIN IMMEDIATE");
	db->in_tx = rc == XT_OK;
	return rc;
}

enum xt_rc db_tx_begin_rows(struct db *db)
{
	if (db->engine != DB_POSTGRESQL)
		return db_tx_begin(db);
	if (db->in_tx)
		return XT_FAIL(&db->err, XT_ERR_INTERNAL, "nested transaction");
	enum xt_rc rc = db_exec(db, "BEGIN");
	db->in_tx = rc == XT_OK;
	return rc;
}

enum xt_rc db_tx_commit(struct db *db)
{
	enum xt_rc rc = db_exec(db, "COMMIT");
	if (rc)
		db_tx_rollback(db);
	db->in_tx = false;
	return rc;
}

void db_tx_rollback(struct db *db)
{
	/* A failed statement may have rolled the transaction back already
	 * (SQLITE_FULL, NOMEM): then there is nothing to undo. */
	bool open = db->engine == DB_POSTGRESQL ? db_pg_in_tx(db) : !sqlite3_get_autocommit(db->sql);
	if (open)
		db_exec_quiet(db, "ROLLBACK");
	db->in_tx = false;
}
