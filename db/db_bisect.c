/*
 * db_bisect.c - bisect sessions and steps in the results database, their
 * JSON shape, and the run lookup and run import `xfbtrace bisect` uses
 * (db_bisect.h; tables and JSON: docs/db.md, "bisect_sessions",
 * "bisect_steps").
 *
 * The import ATTACHes the source file under a fixed schema name and copies
 * with INSERT ... SELECT, naming main. and bisect_src. everywhere, so that
 * a table of the same name in either file is never picked by accident.
 * Layout ids are file-local: observations are re-pointed by layout hash.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "db_bisect.h"
#include "db_int.h"
#include "xt_json.h"

/* ---- runs ----------------------------------------------------------------- */

enum xt_rc db_run_find_label(struct db *db, int64_t trace_id, const char *backend,
			     const char *label, int64_t *run_id)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st,
		"SELECT id FROM main.runs WHERE trace_id = ?1 AND backend = ?2 AND label = ?3"
		" AND golden = 0 AND status IN ('ok', 'failed') ORDER BY id DESC LIMIT 1");
	*run_id = 0;
	if (rc)
		return rc;
	db_bind_i64(st, 1, trace_id);
	db_bind_text(st, 2, backend);
	db_bind_text(st, 3, label);
	int src = db_step(st);
	if (src == SQLITE_ROW)
		*run_id = db_col_i64(st, 0);
	else if (src == SQLITE_DONE)
		rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "no finished %s run labelled '%s'", backend,
			     label);
	else
		rc = db_sql_fail(db, src, "finding a run by label");
	db_finalize(st);
	return rc;
}

/* Runs one statement binding ?1 = src run id, ?2 = new run id. */
static enum xt_rc import_step(struct db *db, const char *sql, int64_t src_run, int64_t new_run)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st, sql);
	if (rc)
		return rc;
	/* Binding an index the statement does not use is harmless. */
	db_bind_i64(st, 1, src_run);
	db_bind_i64(st, 2, new_run);
	int src = db_step(st);
	if (src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "importing a run");
	db_finalize(st);
	return rc;
}

static enum xt_rc import_run_row(struct db *db, const char *label, int64_t *src_run,
				 int64_t *new_run)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st,
		"SELECT r.id, t.id FROM bisect_src.runs r"
		" JOIN bisect_src.traces s ON s.id = r.trace_id"
		" LEFT JOIN main.traces t ON t.hash = s.hash"
		" WHERE r.golden = 0 AND r.label = ?1 ORDER BY r.id DESC LIMIT 1");
	if (rc)
		return rc;
	db_bind_text(st, 1, label);
	int src = db_step(st);
	int64_t trace_id = 0;
	if (src == SQLITE_ROW) {
		*src_run = db_col_i64(st, 0);
		trace_id = db_col_i64(st, 1);
		if (!trace_id)
			rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND,
				     "the trace of run '%s' is not in this database", label);
	} else if (src == SQLITE_DONE) {
		rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "no run labelled '%s' to import", label);
	} else {
		rc = db_sql_fail(db, src, "finding the run to import");
	}
	db_finalize(st);
	if (rc)
		return rc;

	rc = db_prepare(db, &st,
		"INSERT INTO main.runs (trace_id, golden, backend, revision, gl_vendor, gl_renderer,"
		"  gl_version, label, started_at, finished_at, status, summary)"
		" SELECT ?2, 0, backend, revision, gl_vendor, gl_renderer, gl_version, label,"
		"  started_at, finished_at, status, summary FROM bisect_src.runs WHERE id = ?1");
	if (rc)
		return rc;
	db_bind_i64(st, 1, *src_run);
	db_bind_i64(st, 2, trace_id);
	src = db_step(st);
	if (src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "importing a run");
	*new_run = db_last_id(db);
	db_finalize(st);
	return rc;
}

enum xt_rc db_run_import(struct db *db, const char *src_path, const char *label,
			 int64_t *run_id)
{
	static const char *const copy[] = {
		"INSERT OR IGNORE INTO main.blobs (hash, raw_bytes, codec, data)"
		" SELECT b.hash, b.raw_bytes, b.codec, b.data FROM bisect_src.blobs b"
		" WHERE b.hash IN (SELECT blob_hash FROM bisect_src.observations WHERE run_id = ?1)",
		"INSERT OR IGNORE INTO main.layouts (hash, json)"
		" SELECT l.hash, l.json FROM bisect_src.layouts l"
		" WHERE l.id IN (SELECT layout_id FROM bisect_src.observations WHERE run_id = ?1)",
		"INSERT INTO main.observations (run_id, call_no, kind, idx, function, primitive_mode,"
		"  fields, layout_id, blob_hash)"
		" SELECT ?2, o.call_no, o.kind, o.idx, o.function, o.primitive_mode, o.fields, ml.id,"
		"  o.blob_hash FROM bisect_src.observations o"
		" LEFT JOIN bisect_src.layouts sl ON sl.id = o.layout_id"
		" LEFT JOIN main.layouts ml ON ml.hash = sl.hash WHERE o.run_id = ?1",
		/* The counters follow the rows actually copied. */
		"UPDATE main.runs SET"
		" observations = (SELECT count(*) FROM main.observations WHERE run_id = ?2),"
		" data_bytes = (SELECT coalesce(sum(b.raw_bytes), 0) FROM main.observations o"
		"  JOIN main.blobs b ON b.hash = o.blob_hash WHERE o.run_id = ?2)"
		" WHERE id = ?2",
	};
	/* Schema 2's per-call artefacts, when the source has them. */
	static const char *const copy_art[] = {
		"INSERT OR IGNORE INTO main.blobs (hash, raw_bytes, codec, data)"
		" SELECT b.hash, b.raw_bytes, b.codec, b.data FROM bisect_src.blobs b"
		" WHERE b.hash IN (SELECT pm4_hash FROM bisect_src.call_artifacts WHERE run_id = ?1"
		"  UNION SELECT regs_hash FROM bisect_src.call_artifacts WHERE run_id = ?1"
		"  UNION SELECT blob_hash FROM bisect_src.shaders WHERE run_id = ?1)",
		"INSERT INTO main.call_artifacts (run_id, call_no, function, pm4_dwords, pm4_hash,"
		"  regs_hash, program, frame_end)"
		" SELECT ?2, call_no, function, pm4_dwords, pm4_hash, regs_hash, program, frame_end"
		" FROM bisect_src.call_artifacts WHERE run_id = ?1",
		"INSERT INTO main.shaders (run_id, program, blob_hash)"
		" SELECT ?2, program, blob_hash FROM bisect_src.shaders WHERE run_id = ?1",
	};
	struct db_stmt *st;
	int64_t src_run = 0, new_run = 0, art_tables = 0;
	enum xt_rc rc;

	*run_id = 0;
	if (db->engine != DB_SQLITE)
		return db_run_import_copy(db, src_path, label, run_id);
	rc = db_prepare(db, &st, "ATTACH DATABASE ?1 AS bisect_src");
	if (rc)
		return rc;
	db_bind_text(st, 1, src_path);
	int src = db_step(st);
	db_finalize(st);
	if (src != SQLITE_DONE)
		return db_sql_fail(db, src, src_path);

	rc = db_tx_begin(db);
	rc = rc ? rc : import_run_row(db, label, &src_run, &new_run);
	for (size_t i = 0; i < sizeof copy / sizeof copy[0] && !rc; i++)
		rc = import_step(db, copy[i], src_run, new_run);
	/* The copies get their checks here: the source may predate them. */
	rc = rc ? rc : db_obs_checks_fill(db, new_run);
	if (!rc && !(rc = db_prepare(db, &st, "SELECT count(*) FROM bisect_src.sqlite_schema"
				     " WHERE type = 'table' AND name IN ('call_artifacts', 'shaders')"))) {
		src = db_step(st);
		if (src == SQLITE_ROW)
			art_tables = db_col_i64(st, 0);
		else
			rc = db_sql_fail(db, src, "reading the schema of the run to import");
		db_finalize(st);
	}
	for (size_t i = 0; i < sizeof copy_art / sizeof copy_art[0] && !rc && art_tables == 2; i++)
		rc = import_step(db, copy_art[i], src_run, new_run);
	if (!rc && art_tables == 2)
		rc = db_art_checks_fill(db, new_run);
	rc = rc ? rc : db_tx_commit(db);
	if (rc)
		db_tx_rollback(db);
	else
		*run_id = new_run;
	/* DETACH fails only while a statement on it is open: none is. */
	db_exec_quiet(db, "DETACH DATABASE bisect_src");
	return rc;
}

/* ---- writing sessions ----------------------------------------------------- */

const char *db_bisect_verdict_name(enum db_bisect_verdict v)
{
	switch (v) {
	case DB_BISECT_GOOD: return "good";
	case DB_BISECT_BAD: return "bad";
	case DB_BISECT_SKIP: return "skip";
	}
	return "skip";
}

const char *db_bisect_status_name(enum db_bisect_status s)
{
	switch (s) {
	case DB_BISECT_RUNNING: return "running";
	case DB_BISECT_FOUND: return "found";
	case DB_BISECT_AMBIGUOUS: return "ambiguous";
	case DB_BISECT_FAILED: return "failed";
	}
	return "failed";
}

static void bind_id(struct db_stmt *st, int i, int64_t id)
{
	if (id > 0)
		db_bind_i64(st, i, id);
	else
		db_bind_null(st, i);
}

/* Steps a prepared write and finalizes it, in a transaction of its own. */
static enum xt_rc write_one(struct db *db, struct db_stmt *st, const char *what)
{
	enum xt_rc rc = db_tx_begin(db);
	if (!rc) {
		int src = db_step(st);
		rc = src == SQLITE_DONE ? XT_OK : db_sql_fail(db, src, what);
	}
	db_finalize(st);
	rc = rc ? rc : db_tx_commit(db);
	if (rc)
		db_tx_rollback(db);
	return rc;
}

enum xt_rc db_bisect_begin(struct db *db, const struct db_bisect_desc *d, int64_t *session_id)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st,
		"INSERT INTO bisect_sessions (trace_id, repo, good, bad, backend, compare, build)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
	*session_id = 0;
	if (rc)
		return rc;
	db_bind_i64(st, 1, d->trace_id);
	db_bind_text(st, 2, d->repo);
	db_bind_text(st, 3, d->good);
	db_bind_text(st, 4, d->bad);
	db_bind_text(st, 5, d->backend);
	db_bind_text(st, 6, d->compare);
	db_bind_text(st, 7, d->build);
	rc = write_one(db, st, "starting a bisect session");
	if (!rc)
		*session_id = db_last_id(db);
	return rc;
}

enum xt_rc db_bisect_add_step(struct db *db, int64_t session_id, const struct db_bisect_step *s)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st,
		"INSERT INTO bisect_steps (session_id, seq, commit_hash, subject, verdict, reason,"
		"  run_id, build_cached, run_cached, build_seconds, replay_seconds)"
		" VALUES (?1, (SELECT count(*) FROM bisect_steps WHERE session_id = ?1),"
		"  ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
	if (rc)
		return rc;
	db_bind_i64(st, 1, session_id);
	db_bind_text(st, 2, s->commit);
	db_bind_text(st, 3, s->subject);
	db_bind_text(st, 4, db_bisect_verdict_name(s->verdict));
	db_bind_text(st, 5, s->reason);
	bind_id(st, 6, s->run_id);
	db_bind_i64(st, 7, s->build_cached);
	db_bind_i64(st, 8, s->run_cached);
	db_bind_double(st, 9, s->build_seconds);
	db_bind_double(st, 10, s->replay_seconds);
	return write_one(db, st, "recording a bisect step");
}

enum xt_rc db_bisect_finish(struct db *db, int64_t session_id, const struct db_bisect_result *r)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st,
		"UPDATE bisect_sessions SET status = ?2, message = ?3, culprit = ?4,"
		" culprit_subject = ?5, culprit_author = ?6, candidates = ?7, good_run_id = ?8,"
		" culprit_run_id = ?9, first_call = ?10, first_difference = ?11,"
		" finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1");
	if (rc)
		return rc;
	db_bind_i64(st, 1, session_id);
	db_bind_text(st, 2, db_bisect_status_name(r->status));
	db_bind_text(st, 3, r->message);
	db_bind_text(st, 4, r->culprit);
	db_bind_text(st, 5, r->culprit_subject);
	db_bind_text(st, 6, r->culprit_author);
	db_bind_text(st, 7, r->candidates_json);
	bind_id(st, 8, r->good_run_id);
	bind_id(st, 9, r->culprit_run_id);
	if (r->first_call >= 0)
		db_bind_i64(st, 10, r->first_call);
	else
		db_bind_null(st, 10);
	db_bind_text(st, 11, r->first_difference);
	return write_one(db, st, "finishing a bisect session");
}

/* ---- reading -------------------------------------------------------------- */

#define SESSION_COLUMNS \
	"SELECT s.id, s.trace_id, t.hash, t.program, s.repo, s.good, s.bad, s.backend," \
	" s.compare, s.build, s.started_at, s.finished_at, s.status, s.message, s.culprit," \
	" s.culprit_subject, s.culprit_author, s.candidates, s.good_run_id, s.culprit_run_id," \
	" s.first_call, s.first_difference," \
	" (SELECT count(*) FROM bisect_steps p WHERE p.session_id = s.id)" \
	" FROM bisect_sessions s JOIN traces t ON t.id = s.trace_id"

static enum xt_rc session_from_row(struct db *db, struct db_stmt *st, struct db_bisect_info *s)
{
	const char **text[] = { &s->trace_hash, &s->program, &s->repo, &s->good, &s->bad,
				&s->backend, &s->compare, &s->build, &s->started_at,
				&s->finished_at, &s->status, &s->message, &s->culprit,
				&s->culprit_subject, &s->culprit_author, &s->candidates_json };
	memset(s, 0, sizeof *s);
	s->id = db_col_i64(st, 0);
	s->trace_id = db_col_i64(st, 1);
	for (int i = 0; i < (int)(sizeof text / sizeof text[0]); i++)
		*text[i] = db_col_text(st, 2 + i);
	s->good_run_id = db_col_i64(st, 18);
	s->culprit_run_id = db_col_i64(st, 19);
	s->first_call = db_col_type(st, 20) == SQLITE_NULL ? -1 : db_col_i64(st, 20);
	s->first_difference = db_col_text(st, 21);
	s->steps = db_col_i64(st, 22);
	if (!s->trace_hash || !s->repo || !s->good || !s->bad || !s->backend || !s->compare ||
	    !s->started_at || !s->status)
		return DB_CORRUPT(db, "bisect session %" PRId64 ": a required column is not text",
				  s->id);
	return XT_OK;
}

enum xt_rc db_bisect_list(struct db *db, int64_t session_id, db_bisect_cb cb, void *ctx)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st, SESSION_COLUMNS
				   " WHERE ?1 = 0 OR s.id = ?1 ORDER BY s.id DESC");
	if (rc)
		return rc;
	db_bind_i64(st, 1, session_id);
	int src;
	bool any = false;
	while ((src = db_step(st)) == SQLITE_ROW) {
		struct db_bisect_info s;
		any = true;
		rc = session_from_row(db, st, &s);
		rc = rc ? rc : cb(&s, ctx);
		if (rc)
			break;
	}
	if (!rc && src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "listing bisect sessions");
	if (!rc && session_id && !any)
		rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "there is no bisect session %" PRId64,
			     session_id);
	db_finalize(st);
	return rc;
}

enum xt_rc db_bisect_steps(struct db *db, int64_t session_id, db_bisect_step_cb cb, void *ctx)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st,
		"SELECT seq, commit_hash, subject, verdict, reason, run_id, build_cached, run_cached,"
		" build_seconds, replay_seconds, at FROM bisect_steps WHERE session_id = ?1"
		" ORDER BY seq");
	if (rc)
		return rc;
	db_bind_i64(st, 1, session_id);
	int src;
	while ((src = db_step(st)) == SQLITE_ROW) {
		struct db_bisect_step_row s = {
			.seq = db_col_i64(st, 0),
			.commit = db_col_text(st, 1),
			.subject = db_col_text(st, 2),
			.verdict = db_col_text(st, 3),
			.reason = db_col_text(st, 4),
			.run_id = db_col_i64(st, 5),
			.build_cached = db_col_i64(st, 6) != 0,
			.run_cached = db_col_i64(st, 7) != 0,
			.build_seconds = db_col_double(st, 8),
			.replay_seconds = db_col_double(st, 9),
			.at = db_col_text(st, 10),
		};
		if (!s.commit || !s.verdict || !s.at)
			rc = DB_CORRUPT(db, "bisect step %" PRId64 " of session %" PRId64
					": a required column is not text", s.seq, session_id);
		rc = rc ? rc : cb(&s, ctx);
		if (rc)
			break;
	}
	if (!rc && src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "listing bisect steps");
	db_finalize(st);
	return rc;
}

/* ---- JSON ----------------------------------------------------------------- */

struct json_ctx {
	struct db *db;
	struct xt_jw w;
	bool with_steps;
};

/* An id, null when there is none (0). */
static void json_key_id(struct xt_jw *w, const char *key, int64_t id)
{
	if (id > 0)
		xt_jw_ki64(w, key, id);
	else
		xt_jw_knull(w, key);
}

static enum xt_rc json_step(const struct db_bisect_step_row *s, void *ctx)
{
	struct xt_jw *w = &((struct json_ctx *)ctx)->w;

	xt_jw_obj(w);
	xt_jw_ki64(w, "seq", s->seq);
	xt_jw_kstr(w, "commit", s->commit);
	xt_jw_kstr(w, "subject", s->subject);
	xt_jw_kstr(w, "verdict", s->verdict);
	xt_jw_kstr(w, "reason", s->reason);
	json_key_id(w, "run", s->run_id);
	xt_jw_kbool(w, "build_cached", s->build_cached);
	xt_jw_kbool(w, "run_cached", s->run_cached);
	xt_jw_knum(w, "build_seconds", s->build_seconds, 0);
	xt_jw_knum(w, "replay_seconds", s->replay_seconds, 0);
	xt_jw_kstr(w, "at", s->at);
	xt_jw_end(w);
	return w->rc;
}

static enum xt_rc json_session(const struct db_bisect_info *s, void *ctx)
{
	struct json_ctx *j = ctx;
	struct xt_jw *w = &j->w;

	xt_jw_obj(w);
	xt_jw_ki64(w, "id", s->id);
	xt_jw_kobj(w, "trace");
	xt_jw_ki64(w, "id", s->trace_id);
	xt_jw_kstr(w, "hash", s->trace_hash);
	xt_jw_kstr(w, "program", s->program);
	xt_jw_end(w);
	xt_jw_kstr(w, "repo", s->repo);
	xt_jw_kstr(w, "good", s->good);
	xt_jw_kstr(w, "bad", s->bad);
	xt_jw_kstr(w, "backend", s->backend);
	xt_jw_kstr(w, "compare", s->compare);
	xt_jw_kstr(w, "build", s->build);
	xt_jw_kstr(w, "started_at", s->started_at);
	xt_jw_kstr(w, "finished_at", s->finished_at);
	xt_jw_kstr(w, "status", s->status);
	xt_jw_kstr(w, "message", s->message);
	if (s->culprit) {
		xt_jw_kobj(w, "culprit");
		xt_jw_kstr(w, "commit", s->culprit);
		xt_jw_kstr(w, "subject", s->culprit_subject);
		xt_jw_kstr(w, "author", s->culprit_author);
		xt_jw_end(w);
	} else {
		xt_jw_knull(w, "culprit");
	}
	/* Checked JSON (a CHECK constraint of the column). */
	xt_jw_kraw(w, "candidates", s->candidates_json);
	json_key_id(w, "good_run", s->good_run_id);
	json_key_id(w, "culprit_run", s->culprit_run_id);
	if (s->first_call >= 0) {
		xt_jw_kobj(w, "first_difference");
		xt_jw_ki64(w, "call", s->first_call);
		xt_jw_kstr(w, "text", s->first_difference);
		xt_jw_end(w);
	} else {
		xt_jw_knull(w, "first_difference");
	}
	if (s->good_run_id > 0 && s->culprit_run_id > 0) {
		xt_jw_kobj(w, "diff");
		xt_jw_ki64(w, "run_a", s->good_run_id);
		xt_jw_ki64(w, "run_b", s->culprit_run_id);
		xt_jw_end(w);
	} else {
		xt_jw_knull(w, "diff");
	}
	xt_jw_ki64(w, "steps_count", s->steps);
	enum xt_rc rc = XT_OK;
	if (j->with_steps) {
		xt_jw_karr(w, "steps");
		rc = db_bisect_steps(j->db, s->id, json_step, j);
		xt_jw_end(w);
	}
	xt_jw_end(w);
	return rc ? rc : w->rc;
}

enum xt_rc db_bisect_json(struct db *db, int64_t session_id, struct xt_buf *out)
{
	struct json_ctx j = { .db = db, .with_steps = session_id != 0 };
	enum xt_rc rc;

	xt_jw_init(&j.w, out);
	if (!session_id)
		xt_jw_arr(&j.w);
	rc = db_bisect_list(db, session_id, json_session, &j);
	if (!session_id)
		xt_jw_end(&j.w);
	rc = rc ? rc : xt_jw_done(&j.w);
	if (rc == XT_ERR_NOMEM && db->err.rc != XT_ERR_NOMEM)
		XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory writing bisect JSON");
	return rc;
}
