/*
 * db_art.c - per-call artefacts of sim runs: the PM4 a call submitted, the
 * register state after it and the shader binaries of the programs drawn
 * with (tables `call_artifacts` and `shaders`, docs/db.md).
 *
 * The bytes go into the blob store like observation data.  Register state
 * is a full snapshot after every draw / TF / query call; consecutive calls
 * mostly leave it unchanged, and the content addressing turns those into
 * one blob, so storing whole snapshots costs little and lets a reader show
 * any call's state without replaying deltas.
 *
 * Each call is one transaction, as observations are (db_run.c says why a
 * run is not one transaction).  The blobs are compressed inside it: a call
 * has up to three, and db->zbuf holds one prepared blob at a time.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "db_int.h"
#include "xt_fault.h"

enum xt_rc db_run_add_call_art(struct db_run *run, const struct db_call_art *a)
{
	struct db *db = run->db;
	char pm4_hex[33], regs_hex[33], sh_hex[33];
	struct db_stmt *st = NULL;
	enum xt_rc rc;

	if (!a->function || a->call_no > (uint64_t)INT64_MAX || a->regs_bytes % 8 ||
	    (size_t)a->pm4_dwords * 4 > DB_MAX_DATA_BYTES || a->regs_bytes > DB_MAX_DATA_BYTES ||
	    a->shader_bytes > DB_MAX_DATA_BYTES)
		return XT_FAIL(&db->err, XT_ERR_INVALID, "call %" PRIu64 ": malformed artefacts",
			       a->call_no);
	/* The blobs go in in the order of their hashes: on PostgreSQL, where
	 * this transaction takes no store-wide lock, two writers inserting the
	 * same new blobs then wait for each other in one order, never in a
	 * cycle (a deadlock). */
	struct art_blob {
		const void *p;
		size_t n;
		char *hex;
	} blob[3], t;
	int nblobs = 0;
	bool shader = a->shader_text && a->program;
	if (a->pm4 && a->pm4_dwords)
		blob[nblobs++] = (struct art_blob){ a->pm4, (size_t)a->pm4_dwords * 4, pm4_hex };
	if (a->regs)
		blob[nblobs++] = (struct art_blob){ a->regs, a->regs_bytes, regs_hex };
	if (shader)
		blob[nblobs++] = (struct art_blob){ a->shader_text, a->shader_bytes, sh_hex };
	for (int i = 0; i < nblobs; i++)
		xt_hash128_hex(xt_hash128(blob[i].p, blob[i].n), blob[i].hex);
	for (int i = 1; i < nblobs; i++)
		for (int j = i; j > 0 && strcmp(blob[j - 1].hex, blob[j].hex) > 0; j--)
			t = blob[j], blob[j] = blob[j - 1], blob[j - 1] = t;
	rc = db_tx_begin_rows(db);
	if (rc)
		return rc;
	for (int i = 0; i < nblobs && !rc; i++)
		rc = db_blob_store(db, blob[i].hex, blob[i].p, blob[i].n, NULL);
	rc = rc ? rc : db_prepare(db, &st,
		"INSERT INTO call_artifacts (run_id, call_no, function, pm4_dwords, pm4_hash,"
		" regs_hash, program, frame_end, row_check) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
	if (!rc) {
		char check[17];
		db_art_row_check(a->call_no, a->function, a->pm4 ? a->pm4_dwords : 0,
				 a->pm4 && a->pm4_dwords ? pm4_hex : NULL, a->regs ? regs_hex : NULL,
				 a->program, a->frame_end, check);
		db_bind_text(st, 9, check);
		db_bind_i64(st, 1, run->id);
		db_bind_i64(st, 2, (int64_t)a->call_no);
		db_bind_text(st, 3, a->function);
		db_bind_i64(st, 4, a->pm4 ? a->pm4_dwords : 0);
		db_bind_text(st, 5, a->pm4 && a->pm4_dwords ? pm4_hex : NULL);
		db_bind_text(st, 6, a->regs ? regs_hex : NULL);
		db_bind_i64(st, 7, a->program);
		db_bind_i64(st, 8, a->frame_end);
		int src = db_step(st);
		if (src != SQLITE_DONE)
			rc = db_sql_fail(db, src, "storing call artefacts");
		db_finalize(st);
		st = NULL;
	}
	if (!rc && shader) {
		rc = db_prepare(db, &st,
			"INSERT OR IGNORE INTO shaders (run_id, program, blob_hash) VALUES (?1, ?2, ?3)");
		if (!rc) {
			db_bind_i64(st, 1, run->id);
			db_bind_i64(st, 2, a->program);
			db_bind_text(st, 3, sh_hex);
			int src = db_step(st);
			if (src != SQLITE_DONE)
				rc = db_sql_fail(db, src, "storing a shader");
			db_finalize(st);
		}
	}
	rc = rc ? rc : db_tx_commit(db);
	if (rc)
		db_tx_rollback(db);
	return rc;
}

#define ART_COLUMNS \
	"SELECT call_no, function, pm4_dwords, pm4_hash, regs_hash, program, frame_end," \
	" row_check FROM call_artifacts"

/* Reads the row `st` is on; XT_ERR_CORRUPT on values out of range. */
static enum xt_rc art_from_row(struct db *db, int64_t run_id, struct db_stmt *st,
			       struct db_call_art_row *out)
{
	int64_t call = db_col_i64(st, 0);
	int64_t dw = db_col_i64(st, 2);
	int64_t prog = db_col_i64(st, 5);

	*out = (struct db_call_art_row){
		.call_no = (uint64_t)call,
		.function = db_col_text(st, 1),
		.pm4_dwords = (uint32_t)dw,
		.pm4_hash = db_col_text(st, 3),
		.regs_hash = db_col_text(st, 4),
		.program = (uint32_t)prog,
		.frame_end = db_col_i64(st, 6) != 0,
	};
	if (call < 0 || !out->function || dw < 0 || dw > DB_MAX_DATA_BYTES / 4 || prog < 0 ||
	    prog > UINT32_MAX)
		return DB_CORRUPT(db, "run %" PRId64 ": malformed call_artifacts row (call %" PRId64 ")",
				  run_id, call);
	char check[17];
	const char *stored = db_col_text(st, 7);
	db_art_row_check(out->call_no, out->function, dw, out->pm4_hash, out->regs_hash, prog,
			 out->frame_end, check);
	if (!stored || strcmp(stored, check))
		return DB_CORRUPT(db, "run %" PRId64 ": call_artifacts row (call %" PRId64 ") does not"
				  " match its check (stored %s, the row hashes to %s): it was changed"
				  " after it was written", run_id, call, stored ? stored : "none", check);
	return XT_OK;
}

enum xt_rc db_call_art_list(struct db *db, int64_t run_id, uint64_t first, uint64_t limit,
			    db_call_art_cb cb, void *ctx)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st, ART_COLUMNS
		" WHERE run_id = ?1 AND call_no >= ?2 ORDER BY call_no LIMIT ?3");
	int src;

	if (rc)
		return rc;
	db_bind_i64(st, 1, run_id);
	db_bind_i64(st, 2, first > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)first);
	db_bind_i64(st, 3, limit && limit < (uint64_t)INT64_MAX ? (int64_t)limit : INT64_MAX);
	while ((src = db_step(st)) == SQLITE_ROW) {
		struct db_call_art_row row;
		rc = art_from_row(db, run_id, st, &row);
		rc = rc ? rc : cb(&row, ctx);
		if (rc)
			break;
	}
	if (!rc && src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "listing call artefacts");
	db_finalize(st);
	return rc;
}

static const char *dup_or_null(struct xt_arena *arena, const char *s, bool *nomem)
{
	char *d;
	if (!s)
		return NULL;
	d = xt_arena_strdup(arena, s);
	*nomem |= !d;
	return d;
}

enum xt_rc db_call_art_get(struct db *db, int64_t run_id, uint64_t call_no,
			   struct db_call_art_row *out, const char **prev_regs_hash,
			   struct xt_arena *arena)
{
	struct db_stmt *st;
	bool nomem = false;
	enum xt_rc rc = db_prepare(db, &st, ART_COLUMNS " WHERE run_id = ?1 AND call_no = ?2");
	int src;

	if (rc)
		return rc;
	if (call_no > (uint64_t)INT64_MAX)
		call_no = INT64_MAX;
	db_bind_i64(st, 1, run_id);
	db_bind_i64(st, 2, (int64_t)call_no);
	src = db_step(st);
	if (src == SQLITE_DONE)
		rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "run %" PRId64 " has no artefacts for call %" PRIu64,
			     run_id, call_no);
	else if (src != SQLITE_ROW)
		rc = db_sql_fail(db, src, "reading call artefacts");
	else if (!(rc = art_from_row(db, run_id, st, out))) {
		out->function = dup_or_null(arena, out->function, &nomem);
		out->pm4_hash = dup_or_null(arena, out->pm4_hash, &nomem);
		out->regs_hash = dup_or_null(arena, out->regs_hash, &nomem);
	}
	db_finalize(st);
	if (rc || !prev_regs_hash)
		goto done;
	*prev_regs_hash = NULL;
	rc = db_prepare(db, &st, "SELECT regs_hash FROM call_artifacts WHERE run_id = ?1"
			" AND call_no < ?2 AND regs_hash IS NOT NULL ORDER BY call_no DESC LIMIT 1");
	if (rc)
		return rc;
	db_bind_i64(st, 1, run_id);
	db_bind_i64(st, 2, (int64_t)call_no);
	src = db_step(st);
	if (src == SQLITE_ROW)
		*prev_regs_hash = dup_or_null(arena, db_col_text(st, 0), &nomem);
	else if (src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "reading call artefacts");
	db_finalize(st);
done:
	if (!rc && nomem)
		rc = XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory reading call artefacts");
	return rc;
}

enum xt_rc db_shader_hash(struct db *db, int64_t run_id, uint32_t program, char hash[33])
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st,
		"SELECT blob_hash FROM shaders WHERE run_id = ?1 AND program = ?2");
	if (rc)
		return rc;
	db_bind_i64(st, 1, run_id);
	db_bind_i64(st, 2, program);
	int src = db_step(st);
	const char *h = src == SQLITE_ROW ? db_col_text(st, 0) : NULL;
	if (src == SQLITE_DONE)
		rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "run %" PRId64 " has no shader of program %u",
			     run_id, program);
	else if (src != SQLITE_ROW)
		rc = db_sql_fail(db, src, "reading a shader");
	else if (!h || strlen(h) != 32)
		rc = DB_CORRUPT(db, "run %" PRId64 ": malformed shaders row (program %u)", run_id, program);
	else
		memcpy(hash, h, 33);
	db_finalize(st);
	return rc;
}
