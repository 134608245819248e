/*
 * db_run.c - writing runs and their observations, and reading them back
 * (tables `runs`, `observations`, `layouts`; docs/db.md).
 *
 * Why a run is not one transaction: a replay takes as long as the program
 * it replays, and holding SQLite's single write lock that long would make
 * parallel replays into one file wait for each other (or fail with
 * "database is locked" once the busy timeout passes).  So a run row is
 * committed first with status "incomplete", every observation is one short
 * transaction (its bytes hashed and compressed before the lock is taken),
 * and the status is set last.  Golden runs are the exception: they are
 * written by db_trace_record inside the transaction that creates their
 * trace, from a file that is already complete, so they appear whole or not
 * at all.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "db_int.h"
#include "xt_fault.h"

enum xt_rc db_run_insert(struct db *db, const struct db_run_desc *d, bool golden, int64_t *run_id)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st,
		"INSERT INTO runs (trace_id, golden, backend, revision, gl_vendor, gl_renderer,"
		" gl_version, label) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
	if (rc)
		return rc;
	db_bind_i64(st, 1, d->trace_id);
	db_bind_i64(st, 2, golden);
	db_bind_text(st, 3, d->backend);
	db_bind_text(st, 4, d->revision);
	db_bind_text(st, 5, d->gl_vendor);
	db_bind_text(st, 6, d->gl_renderer);
	db_bind_text(st, 7, d->gl_version);
	db_bind_text(st, 8, d->label);
	int src = db_step(st);
	if (src == SQLITE_DONE)
		*run_id = db_last_id(db);
	else if (src == SQLITE_CONSTRAINT_FOREIGNKEY)
		rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "there is no trace %" PRId64, d->trace_id);
	else
		rc = db_sql_fail(db, src, "adding a run");
	db_finalize(st);
	return rc;
}

enum xt_rc db_run_begin(struct db *db, const struct db_run_desc *desc, struct db_run **out)
{
	*out = NULL;
	if (!desc->backend || !desc->revision)
		return XT_FAIL(&db->err, XT_ERR_INVALID, "a run needs a backend and a revision");
	if (db->in_tx)
		return XT_FAIL(&db->err, XT_ERR_INVALID, "a run cannot begin inside a transaction");
	struct db_run *run = xt_calloc(1, sizeof *run);
	if (!run)
		return XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory beginning a run");
	run->db = db;
	enum xt_rc rc = db_tx_begin(db);
	rc = rc ? rc : db_run_insert(db, desc, false, &run->id);
	rc = rc ? rc : db_tx_commit(db);
	if (rc) {
		db_tx_rollback(db);
		free(run);
		return rc;
	}
	*out = run;
	return XT_OK;
}

int64_t db_run_id(const struct db_run *run)
{
	return run->id;
}

enum xt_rc db_run_set_driver(struct db_run *run, const char *gl_vendor, const char *gl_renderer,
			     const char *gl_version)
{
	struct db *db = run->db;
	struct db_stmt *st;
	enum xt_rc rc = db_tx_begin(db);
	rc = rc ? rc : db_prepare(db, &st,
		"UPDATE runs SET gl_vendor = coalesce(?1, gl_vendor),"
		" gl_renderer = coalesce(?2, gl_renderer), gl_version = coalesce(?3, gl_version)"
		" WHERE id = ?4");
	if (rc) {
		db_tx_rollback(db);
		return rc;
	}
	db_bind_text(st, 1, gl_vendor);
	db_bind_text(st, 2, gl_renderer);
	db_bind_text(st, 3, gl_version);
	db_bind_i64(st, 4, run->id);
	int src = db_step(st);
	db_finalize(st);
	rc = src == SQLITE_DONE ? db_tx_commit(db) : db_sql_fail(db, src, "recording the driver");
	if (rc)
		db_tx_rollback(db);
	return rc;
}

/* Stores layout `json` once; *id is its row, hex[] its hash. */
static enum xt_rc layout_put(struct db *db, const char *json, int64_t *id, char hex[33])
{
	struct db_stmt *ins = NULL, *sel = NULL;
	enum xt_rc rc;

	xt_hash128_hex(xt_hash128(json, strlen(json)), hex);
	rc = db_prepare(db, &ins, "INSERT INTO layouts (hash, json) VALUES (?1, ?2)"
				     " ON CONFLICT (hash) DO NOTHING");
	rc = rc ? rc : db_prepare(db, &sel, "SELECT id FROM layouts WHERE hash = ?1");
	if (rc)
		goto out;
	db_bind_text(ins, 1, hex);
	db_bind_text(ins, 2, json);
	int src = db_step(ins);
	if (src == SQLITE_CONSTRAINT_CHECK || src == SQLITE_ERROR) {
		rc = XT_FAIL(&db->err, XT_ERR_INVALID, "layout is not a JSON object: %.80s", json);
		goto out;
	}
	if (src != SQLITE_DONE) {
		rc = db_sql_fail(db, src, "storing a layout");
		goto out;
	}
	db_bind_text(sel, 1, hex);
	src = db_step(sel);
	if (src == SQLITE_ROW)
		*id = db_col_i64(sel, 0);
	else
		rc = db_sql_fail(db, src, "finding a layout");
out:
	db_finalize(ins);
	db_finalize(sel);
	return rc;
}

enum xt_rc db_obs_insert(struct db_run *run, const struct db_obs *obs, const char *blob_hex)
{
	struct db *db = run->db;
	struct db_stmt *st = NULL;
	int64_t layout_id = 0;
	char layout_hash[33], check[17];
	enum xt_rc rc = XT_OK;

	if (obs->layout_json)
		rc = layout_put(db, obs->layout_json, &layout_id, layout_hash);
	if (!rc && db_obs_row_check(obs->call_no, obs->kind, obs->index, obs->function,
				    obs->primitive_mode, obs->fields_json,
				    obs->layout_json ? layout_hash : NULL, blob_hex, obs->verdict_class,
				    obs->verdict_reason, check))
		rc = XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory storing an observation");
	rc = rc ? rc : db_prepare(db, &st,
		"INSERT INTO observations (run_id, call_no, kind, idx, function, fields, layout_id,"
		" blob_hash, primitive_mode, row_check, verdict_class, verdict_reason)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
	if (rc)
		return rc;
	db_bind_i64(st, 1, run->id);
	db_bind_i64(st, 2, (int64_t)obs->call_no);
	db_bind_text(st, 3, obs->kind);
	db_bind_i64(st, 4, obs->index);
	db_bind_text(st, 5, obs->function);
	db_bind_text(st, 6, obs->fields_json);
	if (layout_id)
		db_bind_i64(st, 7, layout_id);
	db_bind_text(st, 8, blob_hex);
	db_bind_text(st, 9, obs->primitive_mode);
	db_bind_text(st, 10, check);
	db_bind_text(st, 11, obs->verdict_class);
	db_bind_text(st, 12, obs->verdict_reason);
	int src = db_step(st);
	if (src == SQLITE_CONSTRAINT_PRIMARYKEY)
		rc = XT_FAIL(&db->err, XT_ERR_INVALID,
			     "observation (call %" PRIu64 ", %s, index %u) is in run %" PRId64 " already",
			     obs->call_no, obs->kind, obs->index, run->id);
	else if (src == SQLITE_CONSTRAINT_CHECK || src == SQLITE_ERROR)
		rc = XT_FAIL(&db->err, XT_ERR_INVALID,
			     "observation (call %" PRIu64 ", %s): fields are not a JSON object: %.80s",
			     obs->call_no, obs->kind, obs->fields_json);
	else if (src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "storing an observation");
	db_finalize(st);
	if (rc || run->golden)
		return rc;

	rc = db_prepare(db, &st, "UPDATE runs SET observations = observations + 1,"
			" data_bytes = data_bytes + ?1 WHERE id = ?2");
	if (rc)
		return rc;
	db_bind_i64(st, 1, obs->data ? (int64_t)obs->data_bytes : 0);
	db_bind_i64(st, 2, run->id);
	src = db_step(st);
	if (src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "counting an observation");
	db_finalize(st);
	return rc;
}

static enum xt_rc obs_check(struct db *db, const struct db_obs *obs)
{
	if (!obs->kind || !*obs->kind || !obs->fields_json)
		return XT_FAIL(&db->err, XT_ERR_INVALID, "an observation needs a kind and fields");
	if ((obs->verdict_class && !*obs->verdict_class) || (obs->verdict_reason && !obs->verdict_class))
		return XT_FAIL(&db->err, XT_ERR_INVALID, "observation (call %" PRIu64 ", %s): a verdict"
			       " needs a non-empty class", obs->call_no, obs->kind);
	if (obs->call_no > INT64_MAX)
		return XT_FAIL(&db->err, XT_ERR_INVALID, "call number %" PRIu64 " is out of range",
			       obs->call_no);
	if (obs->data && obs->data_bytes > DB_MAX_DATA_BYTES)
		return XT_FAIL(&db->err, XT_ERR_UNSUPPORTED,
			       "observation (call %" PRIu64 ", %s) holds %zu bytes; the store takes"
			       " at most %u per observation", obs->call_no, obs->kind,
			       obs->data_bytes, DB_MAX_DATA_BYTES);
	return XT_OK;
}

enum xt_rc db_run_add_observation(struct db_run *run, const struct db_obs *obs)
{
	struct db *db = run->db;
	char hex[33];
	const char *codec = NULL;
	enum xt_rc rc = obs_check(db, obs);

	if (rc)
		return rc;
	if (run->golden) {
		/* Inside db_trace_record's transaction. */
		if (obs->data) {
			xt_hash128_hex(xt_hash128(obs->data, obs->data_bytes), hex);
			rc = db_blob_store(db, hex, obs->data, obs->data_bytes, NULL);
		}
		rc = rc ? rc : db_obs_insert(run, obs, obs->data ? hex : NULL);
		if (!rc) {
			run->observations++;
			run->data_bytes += obs->data ? obs->data_bytes : 0;
		}
		return rc;
	}
	if (obs->data)
		rc = db_blob_prepare(db, obs->data, obs->data_bytes, hex, &codec);
	rc = rc ? rc : db_tx_begin_rows(db);
	if (rc)
		return rc;
	if (obs->data)
		rc = db_blob_store(db, hex, obs->data, obs->data_bytes, codec);
	rc = rc ? rc : db_obs_insert(run, obs, obs->data ? hex : NULL);
	rc = rc ? rc : db_tx_commit(db);
	if (rc) {
		db_tx_rollback(db);
		return rc;
	}
	run->observations++;
	run->data_bytes += obs->data ? obs->data_bytes : 0;
	return XT_OK;
}

enum xt_rc db_run_update_end(struct db *db, int64_t id, enum db_run_status status,
			     const char *summary, const struct db_run *counts)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st,
		"UPDATE runs SET status = ?1, summary = ?2,"
		" finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),"
		" observations = coalesce(?3, observations), data_bytes = coalesce(?4, data_bytes)"
		" WHERE id = ?5");
	if (rc)
		return rc;
	db_bind_text(st, 1, db_run_status_name(status));
	db_bind_text(st, 2, summary);
	if (counts) {
		db_bind_i64(st, 3, (int64_t)counts->observations);
		db_bind_i64(st, 4, (int64_t)counts->data_bytes);
	}
	db_bind_i64(st, 5, id);
	int src = db_step(st);
	if (src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "finishing a run");
	else if (db_changes(db) != 1)
		rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "run %" PRId64 " is not in the database", id);
	db_finalize(st);
	return rc;
}

enum xt_rc db_run_finish(struct db_run *run, enum db_run_status status, const char *summary)
{
	struct db *db = run->db;
	enum xt_rc rc = XT_OK;

	if (status == DB_RUN_INCOMPLETE)
		rc = XT_FAIL(&db->err, XT_ERR_INVALID, "a run cannot finish as incomplete");
	rc = rc ? rc : db_tx_begin(db);
	rc = rc ? rc : db_run_update_end(db, run->id, status, summary, NULL);
	rc = rc ? rc : db_tx_commit(db);
	if (rc)
		db_tx_rollback(db);
	free(run);
	return rc;
}

void db_run_abandon(struct db_run *run)
{
	free(run);
}

/* ---- reading ------------------------------------------------------------ */

#define RUN_COLUMNS                                                              \
	"SELECT r.id, r.trace_id, t.hash, t.program, r.golden, r.backend, r.revision," \
	" r.gl_vendor, r.gl_renderer, r.gl_version, r.label, r.started_at, r.finished_at," \
	" r.status, r.summary, r.observations, r.data_bytes"                     \
	" FROM runs r JOIN traces t ON t.id = r.trace_id"

static enum xt_rc run_from_row(struct db *db, struct db_stmt *st, struct db_run_info *r)
{
	r->id = db_col_i64(st, 0);
	r->trace_id = db_col_i64(st, 1);
	r->trace_hash = db_col_text(st, 2);
	r->program = db_col_text(st, 3);
	r->golden = db_col_i64(st, 4) != 0;
	r->backend = db_col_text(st, 5);
	r->revision = db_col_text(st, 6);
	r->gl_vendor = db_col_text(st, 7);
	r->gl_renderer = db_col_text(st, 8);
	r->gl_version = db_col_text(st, 9);
	r->label = db_col_text(st, 10);
	r->started_at = db_col_text(st, 11);
	r->finished_at = db_col_text(st, 12);
	r->status = db_col_text(st, 13);
	r->summary = db_col_text(st, 14);
	r->observations = db_col_i64(st, 15);
	r->data_bytes = db_col_i64(st, 16);
	if (!r->trace_hash || !r->backend || !r->revision || !r->started_at || !r->status)
		return DB_CORRUPT(db, "run %" PRId64 ": malformed row (a required"
			       " text column is NULL or not text)", r->id);
	return XT_OK;
}

enum xt_rc db_runs_list(struct db *db, int64_t trace_id, db_run_cb cb, void *ctx)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st, RUN_COLUMNS
				   " WHERE ?1 = 0 OR r.trace_id = ?1 ORDER BY r.id");
	if (rc)
		return rc;
	db_bind_i64(st, 1, trace_id);
	int src;
	while ((src = db_step(st)) == SQLITE_ROW) {
		struct db_run_info r;
		rc = run_from_row(db, st, &r);
		rc = rc ? rc : cb(&r, ctx);
		if (rc)
			break;
	}
	if (!rc && src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "listing runs");
	db_finalize(st);
	return rc;
}

static const char *arena_dup(struct xt_arena *a, const char *s, bool *nomem)
{
	if (!s)
		return NULL;
	const char *d = xt_arena_strdup(a, s);
	*nomem |= !d;
	return d;
}

enum xt_rc db_run_get(struct db *db, int64_t run_id, struct db_run_info *out,
		      struct xt_arena *arena)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st, RUN_COLUMNS " WHERE r.id = ?1");
	if (rc)
		return rc;
	db_bind_i64(st, 1, run_id);
	int src = db_step(st);
	if (src == SQLITE_DONE) {
		rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "there is no run %" PRId64, run_id);
	} else if (src != SQLITE_ROW) {
		rc = db_sql_fail(db, src, "reading a run");
	} else if (!(rc = run_from_row(db, st, out))) {
		bool nomem = false;
		const char **strs[] = { &out->trace_hash, &out->program, &out->backend,
					&out->revision, &out->gl_vendor, &out->gl_renderer,
					&out->gl_version, &out->label, &out->started_at,
					&out->finished_at, &out->status, &out->summary };
		for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
			*strs[i] = arena_dup(arena, *strs[i], &nomem);
		if (nomem)
			rc = XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory reading run %" PRId64, run_id);
	}
	db_finalize(st);
	return rc;
}

struct db_obs_iter {
	struct db *db;
	struct db_stmt *st;
	int64_t run_id;
};

enum xt_rc db_obs_iter_open(struct db *db, int64_t run_id, struct db_obs_iter **out)
{
	struct db_obs_iter *it = xt_calloc(1, sizeof *it);
	*out = NULL;
	if (!it)
		return XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory reading observations");
	enum xt_rc rc = db_prepare(db, &it->st,
		"SELECT o.call_no, o.kind, o.idx, o.function, o.fields, o.layout_id, o.blob_hash,"
		" b.raw_bytes, json_extract(o.fields, '$.buffer'), o.primitive_mode,"
		" o.row_check, l.hash, l.json, o.verdict_class, o.verdict_reason,"
		" json_extract(o.fields, '$.query'), o.fields ->> '$.target',"
		" json_extract(o.fields, '$.stream')"
		" FROM observations o LEFT JOIN blobs b ON b.hash = o.blob_hash"
		" LEFT JOIN layouts l ON l.id = o.layout_id"
		" WHERE o.run_id = ?1 ORDER BY o.call_no, o.kind, o.idx");
	if (rc) {
		free(it);
		return rc;
	}
	db_bind_i64(it->st, 1, run_id);
	it->db = db;
	it->run_id = run_id;
	*out = it;
	return XT_OK;
}

enum xt_rc db_obs_iter_next(struct db_obs_iter *it, struct db_obs_row *o)
{
	struct db_stmt *st = it->st;
	int src = db_step(st);
	if (src == SQLITE_DONE)
		return XT_ERR_EOF;
	if (src != SQLITE_ROW)
		return db_sql_fail(it->db, src, "reading observations");

	int64_t call = db_col_i64(st, 0), idx = db_col_i64(st, 2);
	o->call_no = (uint64_t)call;
	o->kind = db_col_text(st, 1);
	o->index = (uint32_t)idx;
	o->function = db_col_text(st, 3);
	o->fields_json = db_col_text(st, 4);
	o->layout_id = db_col_type(st, 5) == SQLITE_INTEGER ? db_col_i64(st, 5) : 0;
	o->blob_hash = db_col_text(st, 6);
	o->data_bytes = o->blob_hash ? db_col_i64(st, 7) : -1;
	o->buffer = db_col_type(st, 8) == SQLITE_INTEGER ? db_col_i64(st, 8) : -1;
	o->primitive_mode = db_col_text(st, 9);
	o->verdict_class = db_col_text(st, 13);
	o->verdict_reason = db_col_text(st, 14);
	o->query = db_col_type(st, 15) == SQLITE_INTEGER ? db_col_i64(st, 15) : -1;
	o->query_target = db_col_type(st, 16) == SQLITE_TEXT ? db_col_text(st, 16) : NULL;
	o->query_stream = db_col_type(st, 17) == SQLITE_INTEGER ? db_col_i64(st, 17) : -1;
	if ((db_col_type(st, 13) != SQLITE_NULL && (!o->verdict_class || !*o->verdict_class)) ||
	    (db_col_type(st, 14) != SQLITE_NULL && (!o->verdict_reason || !o->verdict_class)))
		return DB_CORRUPT(it->db, "run %" PRId64 ": observation (call %lld, kind %s): malformed"
				  " verdict (a class must be non-empty text, a reason needs one)",
				  it->run_id, (long long)call, o->kind ? o->kind : "NULL");
	if (db_col_type(st, 0) != SQLITE_INTEGER || call < 0 || !o->kind ||
	    db_col_type(st, 2) != SQLITE_INTEGER || idx < 0 || idx > UINT32_MAX ||
	    !o->fields_json || (db_col_type(st, 5) != SQLITE_NULL && o->layout_id <= 0) ||
	    (db_col_type(st, 6) != SQLITE_NULL && !o->blob_hash))
		return DB_CORRUPT(it->db,
			       "run %" PRId64 ": malformed observation row (call %lld, kind %s)",
			       it->run_id, (long long)call, o->kind ? o->kind : "NULL");
	const char *stored = db_col_text(st, 10), *layout_hash = db_col_text(st, 11);
	char check[17];
	if (o->layout_id && !layout_hash)
		return DB_CORRUPT(it->db, "run %" PRId64 ": observation (call %lld, %s, index %u)"
				  " refers to layout %" PRId64 ", which is not in the database",
				  it->run_id, (long long)call, o->kind, o->index, o->layout_id);
	const char *layout_json = db_col_text(st, 12);
	char layout_hex[33] = "";
	if (layout_json)
		xt_hash128_hex(xt_hash128(layout_json, strlen(layout_json)), layout_hex);
	if (layout_hash && strcmp(layout_hash, layout_hex))
		return DB_CORRUPT(it->db, "layout %" PRId64 " (of run %" PRId64 ", call %lld): its JSON"
				  " does not match its hash: the row was changed after it was written",
				  o->layout_id, it->run_id, (long long)call);
	if (db_obs_row_check(o->call_no, o->kind, o->index, o->function, o->primitive_mode,
			     o->fields_json, layout_hash, o->blob_hash, o->verdict_class,
			     o->verdict_reason, check))
		return XT_FAIL(&it->db->err, XT_ERR_NOMEM, "out of memory checking observations");
	if (!stored || strcmp(stored, check))
		return DB_CORRUPT(it->db, "run %" PRId64 ": observation row (call %lld, %s, index %u)"
				  " does not match its check (stored %s, the row hashes to %s): it"
				  " was changed after it was written", it->run_id, (long long)call,
				  o->kind, o->index, stored ? stored : "none", check);
	if (o->blob_hash && db_col_type(st, 7) != SQLITE_INTEGER)
		return DB_CORRUPT(it->db,
			       "run %" PRId64 ": observation (call %lld, %s) refers to blob %s,"
			       " which is not in the store", it->run_id, (long long)call, o->kind,
			       o->blob_hash);
	return XT_OK;
}

void db_obs_iter_close(struct db_obs_iter *it)
{
	if (!it)
		return;
	db_finalize(it->st);
	free(it);
}

void db_run_json(struct xt_jw *w, const struct db_run_info *r, bool every_column)
{
	xt_jw_obj(w);
	xt_jw_ki64(w, "id", r->id);
	xt_jw_ki64(w, "trace_id", r->trace_id);
	xt_jw_kstr(w, "trace_hash", r->trace_hash);
	xt_jw_kstr(w, "program", r->program);
	xt_jw_kbool(w, "golden", r->golden);
	xt_jw_kstr(w, "backend", r->backend);
	xt_jw_kstr(w, "revision", r->revision);
	if (every_column)
		xt_jw_kstr(w, "gl_vendor", r->gl_vendor);
	xt_jw_kstr(w, "gl_renderer", r->gl_renderer);
	if (every_column)
		xt_jw_kstr(w, "gl_version", r->gl_version);
	xt_jw_kstr(w, "label", r->label);
	xt_jw_kstr(w, "started_at", r->started_at);
	if (every_column)
		xt_jw_kstr(w, "finished_at", r->finished_at);
	xt_jw_kstr(w, "status", r->status);
	xt_jw_kstr(w, "summary", r->summary);
	xt_jw_ki64(w, "observations", r->observations);
	xt_jw_ki64(w, "data_bytes", r->data_bytes);
	xt_jw_end(w);
}
