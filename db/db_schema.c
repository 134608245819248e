/*
 * db_schema.c - opening a results database: the connection settings, the
 * schema and its migrations (docs/db.md is the column-by-column contract),
 * and the statement / transaction / error helpers the other files use.
 *
 * The schema is written once, in SQLite's dialect; a PostgreSQL store gets
 * each statement translated by db_pg.c.  The schema version lives in PRAGMA
 * user_version (in a PostgreSQL store: the table xfbtrace_schema, and
 * BEGIN IMMEDIATE is the store's writer lock).  migrations[i] turns
 * version i into version i + 1; db_open applies the missing ones and sets
 * the version in the same BEGIN IMMEDIATE transaction, after re-reading the
 * version inside it, so processes that open a new file at the same moment
 * create the schema exactly once.  A migration is never edited once
 * released: a change is a new entry.
 *
 * JSON columns are checked with json_type(), not json_valid(): json_valid()
 * answers "invalid" when SQLite runs out of memory, which would turn an
 * allocation failure into a constraint violation; json_type() raises an
 * error for malformed JSON (SQLITE_ERROR) and for a lack of memory
 * (SQLITE_NOMEM) alike, so the two stay apart.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "db_int.h"
#include "xt_fault.h"

static const char *const migrations[DB_SCHEMA_VERSION] = {
	/* 0 -> 1: the first schema. */
	"CREATE TABLE traces ("
	"  id INTEGER PRIMARY KEY,"
	"  hash TEXT NOT NULL UNIQUE,"
	"  path TEXT NOT NULL,"
	"  file_bytes INTEGER NOT NULL,"
	"  records INTEGER NOT NULL,"
	"  calls INTEGER NOT NULL,"
	"  program TEXT,"
	"  properties TEXT NOT NULL CHECK (json_type(properties) = 'object'),"
	"  recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));"
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  trace_id INTEGER NOT NULL REFERENCES traces(id),"
	"  golden INTEGER NOT NULL DEFAULT 0 CHECK (golden IN (0, 1)),"
	"  backend TEXT NOT NULL,"
	"  revision TEXT NOT NULL,"
	"  gl_vendor TEXT,"
	"  gl_renderer TEXT,"
	"  gl_version TEXT,"
	"  label TEXT,"
	"  started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
	"  finished_at TEXT,"
	"  status TEXT NOT NULL DEFAULT 'incomplete'"
	"    CHECK (status IN ('incomplete', 'ok', 'failed')),"
	"  summary TEXT,"
	"  observations INTEGER NOT NULL DEFAULT 0,"
	"  data_bytes INTEGER NOT NULL DEFAULT 0);"
	"CREATE UNIQUE INDEX runs_one_golden ON runs(trace_id) WHERE golden = 1;"
	"CREATE INDEX runs_by_trace ON runs(trace_id, id);"
	"CREATE TABLE blobs ("
	"  hash TEXT PRIMARY KEY,"
	"  raw_bytes INTEGER NOT NULL,"
	"  codec TEXT NOT NULL CHECK (codec IN ('none', 'zstd')),"
	"  data BLOB NOT NULL);"
	"CREATE TABLE layouts ("
	"  id INTEGER PRIMARY KEY,"
	"  hash TEXT NOT NULL UNIQUE,"
	"  json TEXT NOT NULL CHECK (json_type(json) = 'object'));"
	"CREATE TABLE observations ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  call_no INTEGER NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  idx INTEGER NOT NULL,"
	"  function TEXT,"
	"  primitive_mode TEXT,"
	"  fields TEXT NOT NULL CHECK (json_type(fields) = 'object'),"
	"  layout_id INTEGER REFERENCES layouts(id),"
	"  blob_hash TEXT REFERENCES blobs(hash),"
	"  PRIMARY KEY (run_id, call_no, kind, idx)) WITHOUT ROWID;",
	/* 1 -> 2: per-call artefacts of sim runs (PM4, register state) and
	 * the shader binaries of their programs. */
	"CREATE TABLE call_artifacts ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  call_no INTEGER NOT NULL,"
	"  function TEXT NOT NULL,"
	"  pm4_dwords INTEGER NOT NULL,"
	"  pm4_hash TEXT REFERENCES blobs(hash),"
	"  regs_hash TEXT REFERENCES blobs(hash),"
	"  program INTEGER NOT NULL DEFAULT 0,"
	"  frame_end INTEGER NOT NULL DEFAULT 0 CHECK (frame_end IN (0, 1)),"
	"  PRIMARY KEY (run_id, call_no)) WITHOUT ROWID;"
	"CREATE TABLE shaders ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  program INTEGER NOT NULL,"
	"  blob_hash TEXT NOT NULL REFERENCES blobs(hash),"
	"  PRIMARY KEY (run_id, program)) WITHOUT ROWID;",
	/* 2 -> 3: bisect sessions and their steps (xfbtrace bisect). */
	"CREATE TABLE bisect_sessions ("
	"  id INTEGER PRIMARY KEY,"
	"  trace_id INTEGER NOT NULL REFERENCES traces(id),"
	"  repo TEXT NOT NULL,"
	"  good TEXT NOT NULL,"
	"  bad TEXT NOT NULL,"
	"  backend TEXT NOT NULL,"
	"  compare TEXT NOT NULL,"
	"  build TEXT,"
	"  started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
	"  finished_at TEXT,"
	"  status TEXT NOT NULL DEFAULT 'running'"
	"    CHECK (status IN ('running', 'found', 'ambiguous', 'failed')),"
	"  message TEXT,"
	"  culprit TEXT,"
	"  culprit_subject TEXT,"
	"  culprit_author TEXT,"
	"  candidates TEXT CHECK (candidates IS NULL OR json_type(candidates) = 'array'),"
	"  good_run_id INTEGER REFERENCES runs(id),"
	"  culprit_run_id INTEGER REFERENCES runs(id),"
	"  first_call INTEGER,"
	"  first_difference TEXT);"
	"CREATE TABLE bisect_steps ("
	"  session_id INTEGER NOT NULL REFERENCES bisect_sessions(id),"
	"  seq INTEGER NOT NULL,"
	"  commit_hash TEXT NOT NULL,"
	"  subject TEXT,"
	"  verdict TEXT NOT NULL CHECK (verdict IN ('good', 'bad', 'skip')),"
	"  reason TEXT,"
	"  run_id INTEGER REFERENCES runs(id),"
	"  build_cached INTEGER NOT NULL CHECK (build_cached IN (0, 1)),"
	"  run_cached INTEGER NOT NULL CHECK (run_cached IN (0, 1)),"
	"  build_seconds REAL NOT NULL,"
	"  replay_seconds REAL NOT NULL,"
	"  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
	"  PRIMARY KEY (session_id, seq)) WITHOUT ROWID;",
	/* 3 -> 4: a check of each observation and call_artifacts row
	 * (db_check.c); the rows of an older file get theirs in the same
	 * transaction (migrate()). */
	"ALTER TABLE observations ADD COLUMN row_check TEXT;"
	"ALTER TABLE call_artifacts ADD COLUMN row_check TEXT;",
	/* 4 -> 5: what `replay --check` said of each observation against the
	 * golden data (docs/db.md, "Verdicts").  Rows without one keep their
	 * check: db_check.c hashes the verdict only when there is one. */
	"ALTER TABLE observations ADD COLUMN verdict_class TEXT;"
	"ALTER TABLE observations ADD COLUMN verdict_reason TEXT;",
};

static enum xt_rc pragma_int(struct db *db, const char *sql, int64_t *out)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st, sql);
	if (rc)
		return rc;
	int src = db_step(st);
	if (src == SQLITE_ROW)
		*out = db_col_i64(st, 0);
	else
		rc = db_sql_fail(db, src, sql);
	db_finalize(st);
	return rc;
}

/* WAL needs a moment of exclusive access the first time; other processes
 * opening the same new file at once make it report BUSY briefly, past the
 * busy handler, so it is retried for as long as the busy timeout. */
static enum xt_rc set_wal(struct db *db, int timeout_ms)
{
	struct timespec pause = { 0, 5 * 1000 * 1000 };
	for (int waited = 0;; waited += 5) {
		struct db_stmt *st;
		enum xt_rc rc = db_prepare(db, &st, "PRAGMA journal_mode=WAL");
		if (rc)
			return rc;
		int src = db_step(st);
		const char *mode = src == SQLITE_ROW ? db_col_text(st, 0) : NULL;
		bool wal = mode && !strcmp(mode, "wal");
		db_finalize(st);
		if (wal)
			return XT_OK;
		if (src != SQLITE_BUSY && src != SQLITE_ROW)
			return db_sql_fail(db, src, "switching to WAL mode");
		if (waited >= timeout_ms)
			return XT_FAIL(&db->err, XT_ERR_IO,
				       "could not switch to WAL mode within %d ms (database is busy)",
				       timeout_ms);
		nanosleep(&pause, NULL);
	}
}

/* The schema version: PRAGMA user_version and application_id in an SQLite
 * file, the table xfbtrace_schema in a PostgreSQL store (db_pg.c). */
static enum xt_rc read_version(struct db *db, struct db_version *v)
{
	if (db->engine == DB_POSTGRESQL)
		return db_pg_version(db, v);
	enum xt_rc rc = pragma_int(db, "PRAGMA user_version", &v->version);
	rc = rc ? rc : pragma_int(db, "PRAGMA application_id", &v->app_id);
	return rc ? rc : pragma_int(db, "SELECT count(*) FROM sqlite_schema", &v->objects);
}

static enum xt_rc write_version(struct db *db)
{
	if (db->engine == DB_POSTGRESQL)
		return db_pg_set_version(db, DB_SCHEMA_VERSION);
	char set[96];
	snprintf(set, sizeof set, "PRAGMA user_version=%d; PRAGMA application_id=%d",
		 DB_SCHEMA_VERSION, DB_APPLICATION_ID);
	return db_exec(db, set);
}

static enum xt_rc migrate(struct db *db)
{
	struct db_version v;
	enum xt_rc rc = read_version(db, &v);
	if (rc)
		return rc;
	if (v.version == DB_SCHEMA_VERSION && v.app_id == DB_APPLICATION_ID)
		return XT_OK;

	rc = db_tx_begin(db);
	rc = rc ? rc : read_version(db, &v);
	if (rc)
		goto fail;
	int64_t version = v.version, app_id = v.app_id, objects = v.objects;
	if (app_id != DB_APPLICATION_ID && (app_id != 0 || objects != 0)) {
		rc = XT_FAIL(&db->err, XT_ERR_INVALID,
			     "not an xfbtrace results database (application_id 0x%llx, %lld schema objects)",
			     (unsigned long long)app_id, (long long)objects);
		goto fail;
	}
	if (version > DB_SCHEMA_VERSION || version < 0) {
		rc = XT_FAIL(&db->err, XT_ERR_VERSION,
			     "database schema version %lld is newer than this xfbtrace's (%d)",
			     (long long)version, DB_SCHEMA_VERSION);
		goto fail;
	}
	for (int64_t step = version; step < DB_SCHEMA_VERSION && !rc; step++)
		rc = db_exec(db, migrations[step]);
	if (!rc && version >= 1 && version < 4)
		rc = db_obs_checks_fill(db, 0);
	if (!rc && version >= 2 && version < 4)
		rc = db_art_checks_fill(db, 0);
	rc = rc ? rc : write_version(db);
	rc = rc ? rc : db_tx_commit(db);
	if (!rc)
		return XT_OK;
fail:
	db_tx_rollback(db);
	return rc;
}

/* A read-only handle cannot migrate: the file must be an xfbtrace
 * database; *version is its schema version (checked by the caller). */
static enum xt_rc check_readonly(struct db *db, const char *path, int64_t *version)
{
	int64_t app_id;
	enum xt_rc rc = pragma_int(db, "PRAGMA user_version", version);
	rc = rc ? rc : pragma_int(db, "PRAGMA application_id", &app_id);
	if (rc == XT_ERR_CORRUPT)
		return XT_FAIL(&db->err, rc, "%s is not an xfbtrace results database (%s)", path,
			       sqlite3_errmsg(db->sql));
	if (rc)
		return rc;
	if (app_id != DB_APPLICATION_ID)
		return XT_FAIL(&db->err, XT_ERR_INVALID,
			       "%s is not an xfbtrace results database (application_id 0x%llx)",
			       path, (unsigned long long)app_id);
	if (*version > DB_SCHEMA_VERSION || *version < 0)
		return XT_FAIL(&db->err, XT_ERR_VERSION,
			       "database schema version %lld is newer than this xfbtrace's (%d)",
			       (long long)*version, DB_SCHEMA_VERSION);
	return XT_OK;
}

/*
 * Read-only media (or a directory this user may not write): SQLite cannot
 * create the -shm file a WAL database needs even to be read, so the file
 * is opened "immutable" (no locks, no -shm; nobody can be writing it).
 * The path becomes a URI with the characters URIs reserve escaped.
 */
static bool on_readonly_media(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) + 1 : 0;
	struct statvfs vfs;

	if (n >= sizeof dir)
		return false;
	memcpy(dir, path, n);
	strcpy(dir + n, ".");
	if (statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
		return true;
	return access(dir, W_OK) != 0 && errno != ENOENT;
}

static char *immutable_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t len = strlen(path);
	char *uri = xt_malloc(3 * len + 32), *o = uri;
	if (!uri)
		return NULL;
	o += sprintf(o, "file:");
	for (const char *p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '%' || c == '?' || c == '#' || c < 0x20 || c >= 0x7f) {
			*o++ = '%';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		} else {
			*o++ = (char)c;
		}
	}
	strcpy(o, "?immutable=1");
	return uri;
}

/* The file exists and is not empty: readers never turn a file into a
 * database (SQLite would happily treat an empty file as one). */
static enum xt_rc check_not_empty(struct db *db, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return errno == ENOENT ? XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "%s: no such database", path)
				       : XT_FAIL(&db->err, XT_ERR_IO, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return XT_FAIL(&db->err, XT_ERR_INVALID, "%s is a directory, not a results database",
			       path);
	if (st.st_size == 0)
		return XT_FAIL(&db->err, XT_ERR_INVALID,
			       "%s is empty, not an xfbtrace results database (only ingest and "
			       "replay --db create one)", path);
	return XT_OK;
}

static int busy_timeout_ms(void)
{
	const char *s = getenv("XFBTRACE_DB_BUSY_MS");
	char *end;
	long v = s ? strtol(s, &end, 10) : -1;
	if (!s || *end || v < 0 || v > 24L * 3600 * 1000)
		return DB_BUSY_TIMEOUT_MS;
	return (int)v;
}

/*
 * A PostgreSQL store: connected by db_pg.c, then checked and migrated as a
 * file is.  Readers (both read modes) get read-only transactions, so they
 * cannot write by mistake; a reader of an older schema migrates it first
 * through the same connection, as a writable SQLite handle would.
 */
static int busy_timeout_ms(void);

static enum xt_rc open_pg(struct db *db, const char *url, enum db_open_mode mode)
{
	struct db_version v;
	char timeout[64];
	/* The busy timeout bounds the wait for the writer lock, as in a file. */
	snprintf(timeout, sizeof timeout, "SET lock_timeout = %d", busy_timeout_ms());
	enum xt_rc rc = db_pg_open(db, url, mode);
	rc = rc ? rc : db_pg_session(db, timeout);
	if (rc || mode == DB_OPEN_CREATE)
		return rc ? rc : migrate(db);
	rc = read_version(db, &v);
	if (rc)
		return rc;
	if (v.app_id != DB_APPLICATION_ID && v.objects == 0)
		return XT_FAIL(&db->err, XT_ERR_NOT_FOUND,
			       "%s holds no xfbtrace results (only ingest, replay --db and db push "
			       "create the schema)", db_where(db));
	if (v.app_id != DB_APPLICATION_ID)
		return XT_FAIL(&db->err, XT_ERR_INVALID,
			       "%s is not an xfbtrace results store (%lld tables of something else)",
			       db_where(db), (long long)v.objects);
	if (v.version > DB_SCHEMA_VERSION || v.version < 0)
		return XT_FAIL(&db->err, XT_ERR_VERSION,
			       "%s: schema version %lld is newer than this xfbtrace's (%d)",
			       db_where(db), (long long)v.version, DB_SCHEMA_VERSION);
	if (v.version < DB_SCHEMA_VERSION && mode == DB_OPEN_READONLY)
		return XT_FAIL(&db->err, XT_ERR_VERSION,
			       "%s: schema version %lld, this xfbtrace reads %d read-only (open it "
			       "once with 'xfbtrace runs --db', to migrate it)", db_where(db),
			       (long long)v.version, DB_SCHEMA_VERSION);
	rc = v.version < DB_SCHEMA_VERSION ? migrate(db) : XT_OK;
	return rc ? rc : db_pg_session(db, "SET default_transaction_read_only = on");
}

enum xt_rc db_open(struct db **out, const char *path, enum db_open_mode mode,
		   struct xt_err *err)
{
	struct db *db = xt_calloc(1, sizeof *db);
	int flags = mode == DB_OPEN_CREATE ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
		    : SQLITE_OPEN_READONLY;
	int timeout = busy_timeout_ms();
	enum xt_rc rc;
	char *uri = NULL;

	*out = NULL;
	if (!db)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory opening %s", path);
	if (db_is_pg_url(path)) {
		db->engine = DB_POSTGRESQL;
		rc = open_pg(db, path, mode);
		if (rc)
			goto fail;
		*out = db;
		return XT_OK;
	}
	if (!(db->where = xt_malloc(strlen(path) + 1))) {
		rc = XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory opening %s", path);
		goto fail;
	}
	strcpy(db->where, path);
	if (mode != DB_OPEN_CREATE) {
		rc = check_not_empty(db, path);
		if (rc)
			goto fail;
		if (on_readonly_media(path)) {
			if (!(uri = immutable_uri(path))) {
				rc = XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory opening %s", path);
				goto fail;
			}
			flags |= SQLITE_OPEN_URI;
		}
	}
reopen:;
	int src = sqlite3_open_v2(uri ? uri : path, &db->sql, flags | SQLITE_OPEN_NOMUTEX, NULL);
	xt_free(uri);
	uri = NULL;
	if (src != SQLITE_OK) {
		if (!db->sql)
			rc = XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory opening %s", path);
		else if ((src & 0xff) == SQLITE_CANTOPEN && mode != DB_OPEN_CREATE)
			rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "%s: no such database", path);
		else
			rc = db_sql_fail(db, src, path);
		goto fail;
	}
	sqlite3_extended_result_codes(db->sql, 1);
	sqlite3_busy_timeout(db->sql, timeout);
	db->json = db->sql;
	if (mode != DB_OPEN_CREATE && (flags & SQLITE_OPEN_READONLY)) {
		int64_t version;
		rc = check_readonly(db, path, &version);
		if (rc)
			goto fail;
		if (version == DB_SCHEMA_VERSION) {
			*out = db;
			return XT_OK;
		}
		if (mode == DB_OPEN_READONLY) {
			rc = XT_FAIL(&db->err, XT_ERR_VERSION,
				     "database schema version %lld, this xfbtrace reads %d read-only "
				     "(open it once with 'xfbtrace runs --db' where it can be written, "
				     "to migrate it)", (long long)version, DB_SCHEMA_VERSION);
			goto fail;
		}
		/* An older schema: migrated by a writable handle, once. */
		sqlite3_close_v2(db->sql);
		db->sql = db->json = NULL;
		flags = SQLITE_OPEN_READWRITE;
		goto reopen;
	}
	/* An empty file becomes a database; anything else must be one. */
	rc = db_exec(db, "PRAGMA foreign_keys=ON");
	rc = rc ? rc : set_wal(db, timeout);
	rc = rc ? rc : db_exec(db, "PRAGMA synchronous=NORMAL");
	rc = rc ? rc : migrate(db);
	if (rc)
		goto fail;
	*out = db;
	return XT_OK;
fail:
	xt_free(uri);
	if (err && db->err.rc != XT_OK) {
		xt_err_copy(err, &db->err);
	} else {
		char where[512];
		db_redact(path, where, sizeof where);
		XT_FAIL(err, rc, "opening %s failed", where);
	}
	db_close(db);
	return rc;
}

void db_close(struct db *db)
{
	if (!db)
		return;
	if (db->json != db->sql)
		sqlite3_close_v2(db->json);
	sqlite3_close_v2(db->sql);
	if (db->engine == DB_POSTGRESQL)
		db_pg_close(db);
	free(db->where);
	ZSTD_freeCCtx(db->zc);
	ZSTD_freeDCtx(db->zd);
	xt_buf_fini(&db->zbuf);
	free(db);
}

const char *db_where(const struct db *db)
{
	return db->where ? db->where : "the database";
}

const struct xt_err *db_err(const struct db *db)
{
	return &db->err;
}

const char *db_run_status_name(enum db_run_status s)
{
	switch (s) {
	case DB_RUN_INCOMPLETE: return "incomplete";
	case DB_RUN_OK: return "ok";
	case DB_RUN_FAILED: return "failed";
	}
	return "incomplete";
}
