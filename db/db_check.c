/*
 * db_check.c - the check of an observation row: XXH3-64 over what the row
 * says (docs/db.md, "Row checks"), stored in observations.row_check when
 * the row is written and compared whenever it is read.
 *
 * Blobs are content-addressed and checked on every read (db_blob.c), and a
 * layout row is named by the hash of its JSON (checked in db_obs.c), but
 * the rest of an observation row — its fields JSON above all — was trusted
 * as it came: one flipped bit in a query result made `diff` report a driver
 * difference while `PRAGMA integrity_check` (which checks only SQLite's own
 * structure) said ok.  The check covers every column that carries meaning,
 * with the layout by its content hash and not its row id (ids differ
 * between databases; bisect copies rows from one into another).  A sim
 * run's call_artifacts rows (which PM4 and register blobs a call has, its
 * program, its frame end) are checked the same way.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "db_int.h"

/* Appends one field to the hashed text: a NULL and an empty string differ
 * (0x01 and 0x02 lead), and a NUL ends each field. */
static enum xt_rc put_field(struct xt_buf *b, const char *s)
{
	char lead = s ? '\2' : '\1';
	enum xt_rc rc = xt_buf_append(b, &lead, 1);
	rc = rc ? rc : xt_buf_append(b, s ? s : "", s ? strlen(s) + 1 : 1);
	return rc;
}

enum xt_rc db_obs_row_check(uint64_t call_no, const char *kind, uint32_t index,
			    const char *function, const char *primitive_mode,
			    const char *fields_json, const char *layout_hash,
			    const char *blob_hash, const char *verdict_class,
			    const char *verdict_reason, char out[17])
{
	struct xt_buf b = XT_BUF_INIT;
	char num[48];
	enum xt_rc rc;

	snprintf(num, sizeof num, "xfbtrace-obs-1 %" PRIu64 " %" PRIu32, call_no, index);
	rc = put_field(&b, num);
	rc = rc ? rc : put_field(&b, kind);
	rc = rc ? rc : put_field(&b, function);
	rc = rc ? rc : put_field(&b, primitive_mode);
	rc = rc ? rc : put_field(&b, fields_json);
	rc = rc ? rc : put_field(&b, layout_hash);
	rc = rc ? rc : put_field(&b, blob_hash);
	/* Schema 5's verdict, only where there is one, so that the checks of
	 * rows written before (and of rows without a verdict) stay as they
	 * were; the fields are prefix-free, so the two forms cannot meet. */
	if (verdict_class || verdict_reason) {
		rc = rc ? rc : put_field(&b, "verdict");
		rc = rc ? rc : put_field(&b, verdict_class);
		rc = rc ? rc : put_field(&b, verdict_reason);
	}
	if (!rc)
		snprintf(out, 17, "%016" PRIx64, xt_hash64(b.data, b.len));
	xt_buf_fini(&b);
	return rc;
}

enum xt_rc db_obs_checks_fill(struct db *db, int64_t run_id)
{
	struct db_stmt *sel = NULL, *upd = NULL;
	enum xt_rc rc = db_prepare(db, &sel,
		"SELECT o.run_id, o.call_no, o.kind, o.idx, o.function, o.primitive_mode, o.fields,"
		" l.hash, o.blob_hash, o.verdict_class, o.verdict_reason FROM observations o LEFT JOIN layouts l ON l.id = o.layout_id"
		" WHERE o.row_check IS NULL AND (?1 = 0 OR o.run_id = ?1)");
	rc = rc ? rc : db_prepare(db, &upd,
		"UPDATE observations SET row_check = ?1"
		" WHERE run_id = ?2 AND call_no = ?3 AND kind = ?4 AND idx = ?5");
	if (rc)
		goto out;
	db_bind_i64(sel, 1, run_id);
	int src;
	while (!rc && (src = db_step(sel)) == SQLITE_ROW) {
		char check[17];
		const char *kind = db_col_text(sel, 2);
		rc = db_obs_row_check((uint64_t)db_col_i64(sel, 1), kind,
				      (uint32_t)db_col_i64(sel, 3), db_col_text(sel, 4),
				      db_col_text(sel, 5), db_col_text(sel, 6), db_col_text(sel, 7),
				      db_col_text(sel, 8), db_col_text(sel, 9), db_col_text(sel, 10),
				      check);
		if (rc) {
			rc = XT_FAIL(&db->err, rc, "out of memory checking observation rows");
			break;
		}
		db_bind_text(upd, 1, check);
		db_bind_i64(upd, 2, db_col_i64(sel, 0));
		db_bind_i64(upd, 3, db_col_i64(sel, 1));
		db_bind_text(upd, 4, kind);
		db_bind_i64(upd, 5, db_col_i64(sel, 3));
		int usrc = db_step(upd);
		db_reset(upd);
		if (usrc != SQLITE_DONE)
			rc = db_sql_fail(db, usrc, "storing an observation row's check");
	}
	if (!rc && src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "reading observation rows to check");
out:
	db_finalize(sel);
	db_finalize(upd);
	return rc;
}

void db_art_row_check(uint64_t call_no, const char *function, int64_t pm4_dwords,
		      const char *pm4_hash, const char *regs_hash, int64_t program, bool frame_end,
		      char out[17])
{
	char text[512];
	int n = snprintf(text, sizeof text, "xfbtrace-art-1 %" PRIu64 " %s %" PRId64 " %s %s %" PRId64
			 " %d", call_no, function ? function : "\1", pm4_dwords,
			 pm4_hash ? pm4_hash : "\1", regs_hash ? regs_hash : "\1", program,
			 frame_end ? 1 : 0);
	size_t len = n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;
	/* A function name too long for `text` is hashed in full on its own. */
	uint64_t h = xt_hash64(text, len);
	if (function && (size_t)n >= sizeof text)
		h = xt_hash64_seed(function, strlen(function), h);
	snprintf(out, 17, "%016" PRIx64, h);
}

enum xt_rc db_art_checks_fill(struct db *db, int64_t run_id)
{
	struct db_stmt *sel = NULL, *upd = NULL;
	enum xt_rc rc = db_prepare(db, &sel,
		"SELECT run_id, call_no, function, pm4_dwords, pm4_hash, regs_hash, program, frame_end"
		" FROM call_artifacts WHERE row_check IS NULL AND (?1 = 0 OR run_id = ?1)");
	rc = rc ? rc : db_prepare(db, &upd,
		"UPDATE call_artifacts SET row_check = ?1 WHERE run_id = ?2 AND call_no = ?3");
	if (rc)
		goto out;
	db_bind_i64(sel, 1, run_id);
	int src;
	while (!rc && (src = db_step(sel)) == SQLITE_ROW) {
		char check[17];
		db_art_row_check((uint64_t)db_col_i64(sel, 1), db_col_text(sel, 2),
				 db_col_i64(sel, 3), db_col_text(sel, 4), db_col_text(sel, 5),
				 db_col_i64(sel, 6), db_col_i64(sel, 7) != 0, check);
		db_bind_text(upd, 1, check);
		db_bind_i64(upd, 2, db_col_i64(sel, 0));
		db_bind_i64(upd, 3, db_col_i64(sel, 1));
		int usrc = db_step(upd);
		db_reset(upd);
		if (usrc != SQLITE_DONE)
			rc = db_sql_fail(db, usrc, "storing a call_artifacts row's check");
	}
	if (!rc && src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "reading call_artifacts rows to check");
out:
	db_finalize(sel);
	db_finalize(upd);
	return rc;
}
