/*
 * db_copy.c - copying runs from one store into another, of either engine
 * (`xfbtrace db push SRC DST`; bisect's import into a PostgreSQL store).
 *
 * A run is copied whole in one transaction of the destination: its row
 * (status, times and counters as they are), its observations (layouts
 * re-pointed by hash), its per-call artefacts and shaders, and the blobs
 * they name that the destination lacks.  A trace the destination lacks
 * comes first, with its golden run, in one transaction, as ingest writes
 * them.  So a killed push leaves whole runs or none, never part of one.
 *
 * Nothing is trusted on the way: the source's rows are read through the
 * checked readers first (row checks, layout hashes, blob hashes), and a
 * corrupt row stops the push naming it.  Then the rows are copied column
 * by column as stored, so the copy's checks are the source's.
 *
 * Pushing twice adds nothing: a run is not copied when the destination
 * holds one of the same trace, backend, revision, label, start time,
 * status and counters whose observation and artefact checks, in order,
 * are the same (the checks hash every meaningful column).  Unfinished runs
 * (status "incomplete": being written, or their writer died) are not
 * pushed.  Bisect sessions stay where they were made.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "db_int.h"
#include "db_bisect.h"
#include "xt_fault.h"

/* Makes dst's error the one that happened on src. */
static enum xt_rc src_fail(struct db *dst, struct db *src, enum xt_rc rc)
{
	if (src->err.rc != XT_OK)
		xt_err_copy(&dst->err, &src->err);
	else
		XT_FAIL(&dst->err, rc, "reading %s failed", src->where ? src->where : "the source");
	return rc;
}

/* Binds column j of a row of `from` as parameter i of `to`. */
static void bind_column(struct db_stmt *to, int i, struct db_stmt *from, int j)
{
	switch (db_col_type(from, j)) {
	case SQLITE_INTEGER: db_bind_i64(to, i, db_col_i64(from, j)); break;
	case SQLITE_FLOAT: db_bind_double(to, i, db_col_double(from, j)); break;
	case SQLITE_TEXT: db_bind_text(to, i, db_col_text(from, j)); break;
	case SQLITE_BLOB: db_bind_blob(to, i, db_col_blob(from, j), db_col_bytes(from, j)); break;
	default: db_bind_null(to, i); break;
	}
}

/*
 * For each row of `read` (on src, ?1 = key) runs `write` on dst with the
 * row's columns as parameters: ?1 = dst_id and the columns from ?2 when
 * dst_id > 0, else the columns from ?1.  *rows counts them (may be NULL).
 */
static enum xt_rc copy_rows(struct db *src, const char *read, int64_t key, struct db *dst,
			    const char *write, int64_t dst_id, int64_t *rows)
{
	struct db_stmt *r = NULL, *w = NULL;
	enum xt_rc rc = db_prepare(src, &r, read);
	if (rc)
		return src_fail(dst, src, rc);
	rc = db_prepare(dst, &w, write);
	if (rc) {
		db_finalize(r);
		return rc;
	}
	db_bind_i64(r, 1, key);
	int s, first = dst_id > 0 ? 2 : 1;
	while ((s = db_step(r)) == SQLITE_ROW) {
		if (dst_id > 0)
			db_bind_i64(w, 1, dst_id);
		for (int j = 0; j < 16; j++)
			bind_column(w, first + j, r, j);
		int ws = db_step(w);
		db_reset(w);
		if (ws != SQLITE_DONE) {
			rc = db_sql_fail(dst, ws, "copying a row");
			break;
		}
		if (rows)
			++*rows;
	}
	if (!rc && s != SQLITE_DONE)
		rc = src_fail(dst, src, db_sql_fail(src, s, "reading rows to copy"));
	db_finalize(r);
	db_finalize(w);
	return rc;
}

/* ---- checking the source -------------------------------------------------- */

static enum xt_rc art_seen(const struct db_call_art_row *row, void *ctx)
{
	(void)row;
	(void)ctx;
	return XT_OK;
}

/* Reads run `id` of src through the checked readers; *digest hashes the
 * checks of its rows in order (the run's identity beside its row). */
static enum xt_rc run_digest(struct db *db, int64_t id, uint64_t *digest)
{
	struct db_stmt *st;
	struct xt_buf b = { 0 };
	enum xt_rc rc = db_prepare(db, &st,
		"SELECT row_check FROM observations WHERE run_id = ?1 ORDER BY call_no, kind, idx");
	if (rc)
		return rc;
	db_bind_i64(st, 1, id);
	int s;
	while ((s = db_step(st)) == SQLITE_ROW && !rc) {
		const char *c = db_col_text(st, 0);
		rc = xt_buf_append(&b, c ? c : "-", c ? strlen(c) : 1);
	}
	db_finalize(st);
	rc = rc ? XT_FAIL(&db->err, rc, "out of memory reading run %" PRId64, id)
		: s == SQLITE_DONE ? XT_OK : db_sql_fail(db, s, "reading observation checks");
	if (!rc && !(rc = db_prepare(db, &st, "SELECT row_check FROM call_artifacts WHERE run_id = ?1"
					      " ORDER BY call_no"))) {
		db_bind_i64(st, 1, id);
		while ((s = db_step(st)) == SQLITE_ROW && !rc) {
			const char *c = db_col_text(st, 0);
			rc = xt_buf_append(&b, c ? c : "-", c ? strlen(c) : 1);
		}
		db_finalize(st);
		rc = rc ? XT_FAIL(&db->err, rc, "out of memory reading run %" PRId64, id)
			: s == SQLITE_DONE ? XT_OK : db_sql_fail(db, s, "reading artefact checks");
	}
	*digest = xt_hash64(b.data ? b.data : (uint8_t *)"", b.len);
	xt_buf_fini(&b);
	return rc;
}

/* Every observation and artefact row of run `id` matches its check. */
static enum xt_rc run_verify(struct db *db, int64_t id)
{
	struct db_obs_iter *it;
	struct db_obs_row row;
	enum xt_rc rc = db_obs_iter_open(db, id, &it);
	while (!rc)
		rc = db_obs_iter_next(it, &row);
	db_obs_iter_close(it);
	if (rc != XT_ERR_EOF)
		return rc;
	return db_call_art_list(db, id, 0, 0, art_seen, NULL);
}

/* ---- one run -------------------------------------------------------------- */

#define BLOBS_OF_RUN                                                             \
	"SELECT blob_hash FROM observations WHERE run_id = ?1 AND blob_hash IS NOT NULL" \
	" UNION SELECT pm4_hash FROM call_artifacts WHERE run_id = ?1 AND pm4_hash IS NOT NULL" \
	" UNION SELECT regs_hash FROM call_artifacts WHERE run_id = ?1 AND regs_hash IS NOT NULL" \
	" UNION SELECT blob_hash FROM shaders WHERE run_id = ?1"

/* Copies the blobs run `id` names that dst lacks, each checked first. */
static enum xt_rc copy_blobs(struct db *src, int64_t id, struct db *dst,
			     struct db_push_stats *stats)
{
	struct db_stmt *list = NULL, *has = NULL, *r = NULL, *w = NULL;
	struct xt_buf bytes = { 0 };
	enum xt_rc rc = db_prepare(src, &list, BLOBS_OF_RUN);
	rc = rc ? rc : db_prepare(src, &r, "SELECT hash, raw_bytes, codec, data FROM blobs"
					   " WHERE hash = ?1");
	if (rc)
		return src_fail(dst, src, rc);
	rc = db_prepare(dst, &has, "SELECT 1 FROM blobs WHERE hash = ?1");
	rc = rc ? rc : db_prepare(dst, &w, "INSERT OR IGNORE INTO blobs (hash, raw_bytes, codec,"
					   " data) VALUES (?1, ?2, ?3, ?4)");
	db_bind_i64(list, 1, id);
	int s = SQLITE_DONE;
	while (!rc && (s = db_step(list)) == SQLITE_ROW) {
		const char *hash = db_col_text(list, 0);
		if (!hash) {
			rc = src_fail(dst, src, DB_CORRUPT(src, "run %" PRId64 ": a blob hash is not"
							   " text", id));
			break;
		}
		db_bind_text(has, 1, hash);
		int hs = db_step(has);
		db_reset(has);
		if (hs == SQLITE_ROW)
			continue;
		if (hs != SQLITE_DONE) {
			rc = db_sql_fail(dst, hs, "looking a blob up");
			break;
		}
		/* The bytes are checked against their name before they travel;
		 * then the row goes as stored, not compressed again. */
		if ((rc = db_blob_get(src, hash, &bytes))) {
			rc = src_fail(dst, src, rc);
			break;
		}
		db_bind_text(r, 1, hash);
		int rs = db_step(r);
		if (rs != SQLITE_ROW) {
			rc = src_fail(dst, src, db_sql_fail(src, rs, "reading a blob"));
			break;
		}
		for (int j = 0; j < 4; j++)
			bind_column(w, j + 1, r, j);
		int ws = db_step(w);
		if (ws != SQLITE_DONE) {
			rc = db_sql_fail(dst, ws, "storing a blob");
			break;
		}
		if (stats) {
			stats->blobs++;
			stats->blob_bytes += (int64_t)db_col_bytes(r, 3);
		}
		db_reset(r);
		db_reset(w);
	}
	if (!rc && s != SQLITE_DONE)
		rc = src_fail(dst, src, db_sql_fail(src, s, "listing the blobs of a run"));
	db_finalize(list);
	db_finalize(r);
	db_finalize(has);
	db_finalize(w);
	xt_buf_fini(&bytes);
	return rc;
}

/* Inserts run `id` of src (trace dst_trace in dst) with everything it
 * holds, inside the caller's transaction on dst. */
static enum xt_rc copy_run(struct db *src, int64_t id, struct db *dst, int64_t dst_trace,
			   int64_t *new_id, struct db_push_stats *stats)
{
	static const char *const layouts[2] = {
		"SELECT DISTINCT l.hash, l.json FROM layouts l JOIN observations o"
		" ON o.layout_id = l.id WHERE o.run_id = ?1",
		"INSERT INTO layouts (hash, json) VALUES (?1, ?2) ON CONFLICT (hash) DO NOTHING",
	};
	static const char *const rows[3][2] = {
		{ "SELECT o.call_no, o.kind, o.idx, o.function, o.primitive_mode, o.fields, l.hash,"
		  " o.blob_hash, o.row_check, o.verdict_class, o.verdict_reason"
		  " FROM observations o LEFT JOIN layouts l ON l.id = o.layout_id WHERE o.run_id = ?1",
		  "INSERT INTO observations (run_id, call_no, kind, idx, function, primitive_mode,"
		  " fields, layout_id, blob_hash, row_check, verdict_class, verdict_reason)"
		  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, (SELECT id FROM layouts WHERE hash = ?8),"
		  " ?9, ?10, ?11, ?12)" },
		{ "SELECT call_no, function, pm4_dwords, pm4_hash, regs_hash, program, frame_end,"
		  " row_check FROM call_artifacts WHERE run_id = ?1",
		  "INSERT INTO call_artifacts (run_id, call_no, function, pm4_dwords, pm4_hash,"
		  " regs_hash, program, frame_end, row_check)"
		  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)" },
		{ "SELECT program, blob_hash FROM shaders WHERE run_id = ?1",
		  "INSERT INTO shaders (run_id, program, blob_hash) VALUES (?1, ?2, ?3)" },
	};
	enum xt_rc rc = copy_rows(src,
		"SELECT golden, backend, revision, gl_vendor, gl_renderer, gl_version, label,"
		" started_at, finished_at, status, summary, observations, data_bytes"
		" FROM runs WHERE id = ?1", id, dst,
		"INSERT INTO runs (trace_id, golden, backend, revision, gl_vendor, gl_renderer,"
		" gl_version, label, started_at, finished_at, status, summary, observations,"
		" data_bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
		dst_trace, NULL);
	if (rc)
		return rc;
	*new_id = db_last_id(dst);
	rc = copy_blobs(src, id, dst, stats);
	rc = rc ? rc : copy_rows(src, layouts[0], id, dst, layouts[1], 0, NULL);
	for (size_t i = 0; i < 3 && !rc; i++)
		rc = copy_rows(src, rows[i][0], id, dst, rows[i][1], *new_id, NULL);
	return rc;
}

/* ---- traces --------------------------------------------------------------- */

/* dst's id of src's trace `id`: found by hash, or copied with its golden
 * run in one transaction (*created). */
static enum xt_rc trace_in_dst(struct db *src, int64_t id, struct db *dst, int64_t *dst_id,
			       bool *created, struct db_push_stats *stats)
{
	struct db_stmt *st;
	char hash[33] = "";
	int64_t golden = 0;
	enum xt_rc rc = db_prepare(src, &st,
		"SELECT t.hash, r.id FROM traces t LEFT JOIN runs r ON r.trace_id = t.id"
		" AND r.golden = 1 WHERE t.id = ?1");
	if (rc)
		return src_fail(dst, src, rc);
	db_bind_i64(st, 1, id);
	int s = db_step(st);
	const char *h = s == SQLITE_ROW ? db_col_text(st, 0) : NULL;
	if (h && strlen(h) == 32)
		strcpy(hash, h);
	golden = s == SQLITE_ROW ? db_col_i64(st, 1) : 0;
	db_finalize(st);
	if (s != SQLITE_ROW)
		return src_fail(dst, src, s == SQLITE_DONE
			? XT_FAIL(&src->err, XT_ERR_NOT_FOUND, "there is no trace %" PRId64, id)
			: db_sql_fail(src, s, "reading a trace"));
	if (!*hash || !golden)
		return src_fail(dst, src, DB_CORRUPT(src, "trace %" PRId64 ": malformed hash or no"
						     " golden run", id));

	*created = false;
	for (int attempt = 0; attempt < 2; attempt++) {
		/* Looked up outside the transaction first (the usual case:
		 * the trace is there), then again inside it. */
		rc = db_prepare(dst, &st, "SELECT id FROM traces WHERE hash = ?1");
		if (rc)
			return rc;
		db_bind_text(st, 1, hash);
		s = db_step(st);
		*dst_id = s == SQLITE_ROW ? db_col_i64(st, 0) : 0;
		db_finalize(st);
		if (s == SQLITE_ROW || s != SQLITE_DONE || attempt == 1)
			break;
		rc = run_verify(src, golden);
		rc = rc ? src_fail(dst, src, rc) : db_tx_begin(dst);
		if (rc)
			return rc;
	}
	if (s != SQLITE_ROW && s != SQLITE_DONE) {
		rc = db_sql_fail(dst, s, "looking a trace up");
		db_tx_rollback(dst);
		return rc;
	}
	if (*dst_id) {
		if (dst->in_tx)
			db_tx_rollback(dst);
		return XT_OK;
	}
	int64_t run;
	rc = copy_rows(src, "SELECT hash, path, file_bytes, records, calls, program, properties,"
			    " recorded_at FROM traces WHERE id = ?1", id, dst,
		       "INSERT INTO traces (hash, path, file_bytes, records, calls, program,"
		       " properties, recorded_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", 0, NULL);
	if (!rc)
		*dst_id = db_last_id(dst);
	rc = rc ? rc : copy_run(src, golden, dst, *dst_id, &run, stats);
	rc = rc ? rc : db_tx_commit(dst);
	if (rc) {
		db_tx_rollback(dst);
		*dst_id = 0;
		return rc;
	}
	*created = true;
	return XT_OK;
}

/* ---- pushing -------------------------------------------------------------- */

/* Whether dst's trace dst_trace holds a run equal to src's run `id`. */
static enum xt_rc run_present(struct db *src, int64_t id, uint64_t digest, struct db *dst,
			      int64_t dst_trace, bool *present)
{
	struct db_stmt *r, *c;
	enum xt_rc rc = db_prepare(src, &r,
		"SELECT backend, revision, started_at, status, observations, data_bytes, label"
		" FROM runs WHERE id = ?1");
	if (rc)
		return src_fail(dst, src, rc);
	rc = db_prepare(dst, &c,
		"SELECT id FROM runs WHERE trace_id = ?1 AND golden = 0 AND backend = ?2"
		" AND revision = ?3 AND started_at = ?4 AND status = ?5 AND observations = ?6"
		" AND data_bytes = ?7 AND label IS NOT DISTINCT FROM ?8 ORDER BY id");
	if (rc) {
		db_finalize(r);
		return rc;
	}
	*present = false;
	db_bind_i64(r, 1, id);
	int s = db_step(r);
	if (s != SQLITE_ROW) {
		rc = src_fail(dst, src, db_sql_fail(src, s, "reading a run"));
	} else {
		db_bind_i64(c, 1, dst_trace);
		for (int j = 0; j < 7; j++)
			bind_column(c, j + 2, r, j);
		while (!rc && !*present && (s = db_step(c)) == SQLITE_ROW) {
			uint64_t other;
			rc = run_digest(dst, db_col_i64(c, 0), &other);
			*present = !rc && other == digest;
		}
		if (!rc && !*present && s != SQLITE_DONE)
			rc = db_sql_fail(dst, s, "looking a run up");
	}
	db_finalize(r);
	db_finalize(c);
	return rc;
}

enum xt_rc db_run_copy(struct db *src, int64_t src_run, struct db *dst, int64_t *dst_run,
		       struct db_push_stats *stats)
{
	struct db_stmt *st;
	int64_t trace = 0, dst_trace;
	bool created, present = false;
	uint64_t digest;
	enum xt_rc rc = db_prepare(src, &st, "SELECT trace_id FROM runs WHERE id = ?1");
	*dst_run = 0;
	if (rc)
		return src_fail(dst, src, rc);
	db_bind_i64(st, 1, src_run);
	int s = db_step(st);
	trace = s == SQLITE_ROW ? db_col_i64(st, 0) : 0;
	db_finalize(st);
	if (s != SQLITE_ROW)
		return src_fail(dst, src, s == SQLITE_DONE
			? XT_FAIL(&src->err, XT_ERR_NOT_FOUND, "there is no run %" PRId64, src_run)
			: db_sql_fail(src, s, "reading a run"));
	rc = trace_in_dst(src, trace, dst, &dst_trace, &created, stats);
	if (!rc && created && stats)
		stats->traces++;
	rc = rc ? rc : run_verify(src, src_run) ? src_fail(dst, src, src->err.rc) : XT_OK;
	rc = rc ? rc : run_digest(src, src_run, &digest) ? src_fail(dst, src, src->err.rc) : XT_OK;
	rc = rc ? rc : db_tx_begin(dst);
	if (rc)
		return rc;
	/* Inside the transaction: two pushes of one file at once copy once. */
	rc = stats ? run_present(src, src_run, digest, dst, dst_trace, &present) : XT_OK;
	if (!rc && present) {
		db_tx_rollback(dst);
		stats->runs_present++;
		return XT_OK;
	}
	rc = rc ? rc : copy_run(src, src_run, dst, dst_trace, dst_run, stats);
	rc = rc ? rc : db_tx_commit(dst);
	if (rc) {
		db_tx_rollback(dst);
		*dst_run = 0;
		return rc;
	}
	if (stats)
		stats->runs++;
	return XT_OK;
}

enum xt_rc db_push(struct db *src, struct db *dst, db_push_progress_cb progress, void *ctx,
		   struct db_push_stats *stats)
{
	struct db_stmt *st;
	int64_t *ids = NULL, n = 0, cap = 0, total = 0;
	enum xt_rc rc;

	memset(stats, 0, sizeof *stats);
	/* Traces (each with its golden run) first, then the finished runs. */
	rc = db_prepare(src, &st,
		"SELECT id, 0 FROM traces UNION ALL"
		" SELECT id, CASE WHEN status = 'incomplete' THEN 2 ELSE 1 END FROM runs"
		" WHERE golden = 0 ORDER BY 2, 1");
	if (rc)
		return src_fail(dst, src, rc);
	int s;
	while ((s = db_step(st)) == SQLITE_ROW) {
		int64_t what = db_col_i64(st, 1);
		if (what == 2) {
			stats->runs_unfinished++;
			continue;
		}
		if (n + 2 > cap) {
			int64_t *grown = xt_realloc(ids, (size_t)(cap = cap ? 2 * cap : 256) * 2 *
							       sizeof *ids);
			if (!grown) {
				rc = XT_FAIL(&dst->err, XT_ERR_NOMEM, "out of memory listing runs");
				break;
			}
			ids = grown;
		}
		ids[2 * n] = db_col_i64(st, 0);
		ids[2 * n + 1] = what;
		n++;
	}
	db_finalize(st);
	if (!rc && s != SQLITE_DONE)
		rc = src_fail(dst, src, db_sql_fail(src, s, "listing runs"));
	total = n;
	for (int64_t i = 0; i < n && !rc; i++) {
		int64_t dst_id;
		bool created;
		if (ids[2 * i + 1] == 0) {
			rc = trace_in_dst(src, ids[2 * i], dst, &dst_id, &created, stats);
			stats->traces += created;
		} else {
			rc = db_run_copy(src, ids[2 * i], dst, &dst_id, stats);
		}
		if (progress)
			progress(stats, i + 1, total, ctx);
	}
	free(ids);
	return rc;
}

/* bisect's import into a store that cannot ATTACH a file (db_bisect.c). */
enum xt_rc db_run_import_copy(struct db *db, const char *src_path, const char *label,
			      int64_t *run_id)
{
	struct db *src;
	struct db_stmt *st;
	struct xt_err err = { 0 };
	*run_id = 0;
	if (db_open(&src, src_path, DB_OPEN_EXISTING, &err)) {
		xt_err_copy(&db->err, &err);
		return err.rc;
	}
	enum xt_rc rc = db_prepare(src, &st, "SELECT id FROM runs WHERE golden = 0 AND label = ?1"
					     " ORDER BY id DESC LIMIT 1");
	if (!rc) {
		db_bind_text(st, 1, label);
		int s = db_step(st);
		int64_t id = s == SQLITE_ROW ? db_col_i64(st, 0) : 0;
		db_finalize(st);
		if (s == SQLITE_DONE)
			rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "no run labelled '%s' to import", label);
		else if (s != SQLITE_ROW)
			rc = src_fail(db, src, db_sql_fail(src, s, "finding the run to import"));
		else
			rc = db_run_copy(src, id, db, run_id, NULL);
	} else {
		rc = src_fail(db, src, rc);
	}
	db_close(src);
	return rc;
}
