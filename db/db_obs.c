/*
 * db_obs.c - observations between the trace format and the database: an
 * observation MAP of a trace (docs/trace-format.md, "Observation kinds")
 * becomes a row, and a stored TF layout becomes a struct again.
 *
 * Rows keep everything readable in SQL: the keys other than kind, index,
 * layout and data become a JSON object (enums by their GL name, so
 * `json_extract(fields, '$.pname')` says GL_QUERY_RESULT), the layout
 * becomes JSON of the same shape as in the trace, and only the bytes go to
 * the blob store.  Loading a layout parses that JSON with SQLite's own JSON
 * functions and checks every value against the limits in db.h, because a
 * row may have been edited by hand.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_int.h"
#include "glapi.h"
#include "xt_json.h"

static void value_json(struct xt_jw *w, const struct trace_value *v)
{
	const char *name;

	switch (v->tag) {
	case TRACE_TAG_NULL:
	case TRACE_TAG_UNSIZED: xt_jw_null(w); return;
	case TRACE_TAG_FALSE: xt_jw_bool(w, false); return;
	case TRACE_TAG_TRUE: xt_jw_bool(w, true); return;
	case TRACE_TAG_SINT: xt_jw_i64(w, v->i); return;
	case TRACE_TAG_UINT:
	case TRACE_TAG_BITFIELD:
	case TRACE_TAG_POINTER:
	case TRACE_TAG_OFFSET:
	case TRACE_TAG_HANDLE: xt_jw_u64(w, v->u); return;
	case TRACE_TAG_FLOAT: xt_jw_num(w, v->f, 1); return;
	case TRACE_TAG_DOUBLE: xt_jw_num(w, v->d, 0); return;
	case TRACE_TAG_STRING: xt_jw_strn(w, (const char *)v->mem.bytes, v->mem.len); return;
	case TRACE_TAG_BLOB:
	case TRACE_TAG_MEMORY: xt_jw_hex(w, v->mem.bytes, v->mem.len); return;
	case TRACE_TAG_ENUM:
		name = v->u <= UINT32_MAX ? glapi_enum_name((uint32_t)v->u) : NULL;
		if (name)
			xt_jw_str(w, name);
		else
			xt_jw_u64(w, v->u);
		return;
	case TRACE_TAG_ARRAY:
		xt_jw_arr(w);
		for (uint32_t i = 0; i < v->agg.count; i++)
			value_json(w, &v->agg.items[i]);
		xt_jw_end(w);
		return;
	case TRACE_TAG_MAP:
		xt_jw_obj(w);
		for (uint32_t i = 0; i < v->agg.count; i++) {
			xt_jw_key(w, v->agg.keys[i]);
			value_json(w, &v->agg.items[i]);
		}
		xt_jw_end(w);
		return;
	}
	xt_jw_null(w);
}

/* The enum group of glBeginTransformFeedback's primitiveMode, so that 1 is
 * named GL_LINES rather than GL_LINE_BIT; -1 (any group) if unknown. */
static int primitive_group(void)
{
	struct glapi_param_info p;
	int id = glapi_func_lookup("glBeginTransformFeedback");
	return id >= 0 && glapi_param_info(id, 0, &p) ? p.group : -1;
}

/* "target" and "stream" of a query observation (db.h), unless the map
 * has keys of those names itself. */
static void query_fields(struct xt_jw *w, const struct trace_value *map,
			 const struct trace_queries *queries, uint32_t thread_no)
{
	const struct trace_value *name_v = trace_value_get(map, "query");
	struct trace_query_target t, *q = &t;
	if (!name_v || name_v->tag != TRACE_TAG_UINT ||
	    !trace_queries_lookup(queries, thread_no, name_v->u, &t) ||
	    trace_value_get(map, "target") || trace_value_get(map, "stream"))
		return;
	const char *name = glapi_enum_name(q->target);
	char hex[16];
	if (!name) {
		snprintf(hex, sizeof hex, "0x%x", q->target);
		name = hex;
	}
	xt_jw_key(w, "target");
	xt_jw_str(w, name);
	if (q->indexed) {
		xt_jw_key(w, "stream");
		xt_jw_u64(w, q->stream);
	}
}

enum xt_rc db_obs_from_value(struct db_obs *out, const struct trace_value *map,
			     uint64_t call_no, const char *function, int64_t tf_primitive_mode,
			     const struct trace_queries *queries, uint32_t thread_no,
			     struct xt_buf *scratch, struct xt_err *err)
{
	const struct trace_value *kind = trace_value_get(map, "kind");
	const struct trace_value *index = trace_value_get(map, "index");
	const struct trace_value *data = trace_value_get(map, "data");
	const struct trace_value *layout = trace_value_get(map, "layout");
	struct xt_jw w;
	enum xt_rc rc;

	memset(out, 0, sizeof *out);
	if (!kind || kind->tag != TRACE_TAG_STRING || !kind->mem.len ||
	    memchr(kind->mem.bytes, 0, kind->mem.len))
		return XT_FAIL(err, XT_ERR_CORRUPT, "observation after call %" PRIu64
			       " has no kind (a non-empty STRING)", call_no);
	bool tf = kind && kind->tag == TRACE_TAG_STRING && kind->mem.len == 9 &&
		  !memcmp(kind->mem.bytes, "tf_buffer", 9);
	if (index && (!tf || index->tag != TRACE_TAG_UINT || index->u > UINT32_MAX))
		index = NULL;   /* kept among the fields */
	if (data && data->tag != TRACE_TAG_BLOB)
		data = NULL;
	if (layout && layout->tag != TRACE_TAG_MAP)
		layout = NULL;

	/* Into scratch, each NUL-terminated: fields, primitive mode, layout, kind. */
	xt_buf_reset(scratch);
	xt_jw_init(&w, scratch);
	xt_jw_obj(&w);
	for (uint32_t i = 0; i < map->agg.count; i++) {
		const struct trace_value *v = &map->agg.items[i];
		if (v == kind || v == index || v == data || v == layout)
			continue;
		xt_jw_key(&w, map->agg.keys[i]);
		value_json(&w, v);
	}
	if (kind->mem.len == 5 && !memcmp(kind->mem.bytes, "query", 5))
		query_fields(&w, map, queries, thread_no);
	xt_jw_end(&w);
	rc = xt_jw_done(&w);
	rc = rc ? rc : xt_buf_append(scratch, "", 1);
	const char *prim = NULL;
	size_t prim_at = 0;
	if (tf && tf_primitive_mode >= 0 && tf_primitive_mode <= UINT32_MAX && !rc) {
		prim = glapi_enum_name_in_group((uint32_t)tf_primitive_mode, primitive_group());
		prim_at = scratch->len;
		if (!prim)
			rc = xt_buf_printf(scratch, "%" PRId64 "%c", tf_primitive_mode, 0);
	}
	size_t layout_at = scratch->len;
	if (layout && !rc) {
		xt_jw_init(&w, scratch);
		value_json(&w, layout);
		rc = xt_jw_done(&w);
		rc = rc ? rc : xt_buf_append(scratch, "", 1);
	}
	size_t kind_at = scratch->len;
	rc = rc ? rc : xt_buf_append(scratch, kind->mem.bytes, kind->mem.len);
	rc = rc ? rc : xt_buf_append(scratch, "", 1);
	if (rc)
		return XT_FAIL(err, rc, "out of memory converting an observation");

	out->call_no = call_no;
	out->kind = (const char *)scratch->data + kind_at;
	out->index = index ? (uint32_t)index->u : 0;
	out->function = function;
	out->primitive_mode = prim ? prim : prim_at ? (const char *)scratch->data + prim_at : NULL;
	out->fields_json = (const char *)scratch->data;
	out->layout_json = layout ? (const char *)scratch->data + layout_at : NULL;
	out->data = data ? data->mem.bytes : NULL;
	out->data_bytes = data ? data->mem.len : 0;
	/* A zero-length BLOB is data all the same (an empty range). */
	if (data && !out->data)
		out->data = "";
	return XT_OK;
}

/* ---- layouts -------------------------------------------------------------- */

/* Text of a JSON scalar column: strings as they are, integers in decimal. */
static const char *scalar_text(struct db_stmt *st, int i, struct xt_arena *a, bool *nomem)
{
	const char *s;
	char num[24];
	if (db_col_type(st, i) == SQLITE_INTEGER) {
		snprintf(num, sizeof num, "%lld", (long long)db_col_i64(st, i));
		s = num;
	} else if (!(s = db_col_text(st, i))) {
		return NULL;
	}
	const char *d = xt_arena_strdup(a, s);
	*nomem |= !d;
	return d;
}

static bool int_in(struct db_stmt *st, int i, int64_t lo, int64_t hi, uint32_t *out)
{
	if (db_col_type(st, i) != SQLITE_INTEGER)
		return false;
	int64_t v = db_col_i64(st, i);
	if (v < lo || v > hi)
		return false;
	*out = (uint32_t)v;
	return true;
}

#define LAYOUT_BAD(why) DB_CORRUPT(db, "layout %" PRId64 ": %s", id, why)

/* A failure of a JSON query (db_prepare_json): SQLite's JSON functions
 * raise an error for malformed JSON and for a lack of memory alike. */
static enum xt_rc json_fail(struct db *db, int src, const char *what)
{
	if (src == SQLITE_NOMEM || src == SQLITE_IOERR_NOMEM)
		return XT_FAIL(&db->err, XT_ERR_NOMEM, "%s: out of memory", what);
	return XT_FAIL(&db->err, XT_ERR_CORRUPT, "%s: %s", what, sqlite3_errmsg(db->json));
}

/* Reads layout `id`'s row and checks its JSON against its hash; *json is
 * then a copy in `a`.  The JSON itself is read by SQLite's JSON functions
 * (db_prepare_json), whatever the store. */
static enum xt_rc layout_row(struct db *db, int64_t id, struct xt_arena *a, const char **json)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st, "SELECT hash, json FROM layouts WHERE id = ?1");
	if (rc)
		return rc;
	db_bind_i64(st, 1, id);
	int src = db_step(st);
	if (src == SQLITE_DONE) {
		rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "there is no layout %" PRId64, id);
	} else if (src != SQLITE_ROW) {
		rc = db_sql_fail(db, src, "reading a layout");
	} else {
		const char *hash = db_col_text(st, 0), *text = db_col_text(st, 1);
		char hex[33] = "";
		/* The row is named by the hash of its JSON: a changed byte shows. */
		if (text)
			xt_hash128_hex(xt_hash128(text, strlen(text)), hex);
		if (!hash || !text || strcmp(hash, hex))
			rc = LAYOUT_BAD("its JSON does not match its hash: the row was changed after "
					"it was written");
		else if (!(*json = xt_arena_strdup(a, text)))
			rc = XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory loading layout %" PRId64, id);
	}
	db_finalize(st);
	return rc;
}

static enum xt_rc layout_head(struct db *db, int64_t id, const char *json, struct xt_arena *a,
			      struct db_tf_layout *out)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare_json(db, &st,
		"SELECT json_extract(?1, '$.program'), json_extract(?1, '$.mode'),"
		" json_type(?1, '$.strides'), json_type(?1, '$.varyings'),"
		" json_array_length(?1, '$.strides'), json_array_length(?1, '$.varyings')");
	if (rc)
		return rc;
	db_bind_text(st, 1, json);
	int src = db_step(st);
	bool nomem = false;
	if (src != SQLITE_ROW) {
		rc = json_fail(db, src, "reading a layout");
	} else {
		const char *st_type = db_col_text(st, 2), *v_type = db_col_text(st, 3);
		out->program = db_col_i64(st, 0);
		out->mode = scalar_text(st, 1, a, &nomem);
		if (!out->mode)
			rc = nomem ? XT_ERR_NOMEM : LAYOUT_BAD("mode is missing");
		else if (!st_type || strcmp(st_type, "array") || !v_type || strcmp(v_type, "array"))
			rc = LAYOUT_BAD("strides and varyings must be arrays");
		else if (!int_in(st, 4, 0, DB_LAYOUT_MAX_BUFFERS, &out->nstrides) ||
			 !int_in(st, 5, 0, DB_LAYOUT_MAX_VARYINGS, &out->nvaryings))
			rc = LAYOUT_BAD("too many strides or varyings");
	}
	db_finalize(st);
	if (rc == XT_ERR_NOMEM)
		return XT_FAIL(&db->err, rc, "out of memory loading layout %" PRId64, id);
	return rc;
}

static enum xt_rc layout_strides(struct db *db, int64_t id, const char *json, struct xt_arena *a,
				 struct db_tf_layout *out)
{
	struct db_stmt *st;
	uint32_t n = 0;
	out->strides = xt_arena_alloc(a, (out->nstrides + 1) * sizeof *out->strides);
	if (!out->strides)
		return XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory loading layout %" PRId64, id);
	enum xt_rc rc = db_prepare_json(db, &st,
		"SELECT j.value FROM json_each(?1, '$.strides') AS j ORDER BY j.key");
	if (rc)
		return rc;
	db_bind_text(st, 1, json);
	int src;
	while ((src = db_step(st)) == SQLITE_ROW) {
		if (n >= out->nstrides || !int_in(st, 0, 0, DB_LAYOUT_MAX_STRIDE, &out->strides[n])) {
			rc = LAYOUT_BAD("a stride is not an integer in range");
			break;
		}
		n++;
	}
	if (!rc && src != SQLITE_DONE)
		rc = json_fail(db, src, "reading layout strides");
	if (!rc && n != out->nstrides)
		rc = LAYOUT_BAD("stride count changed while reading");
	db_finalize(st);
	return rc;
}

static enum xt_rc layout_varyings(struct db *db, int64_t id, const char *json,
				  struct xt_arena *a, struct db_tf_layout *out)
{
	struct db_stmt *st;
	uint32_t n = 0;
	bool nomem = false;
	out->varyings = xt_arena_alloc(a, (out->nvaryings + 1) * sizeof *out->varyings);
	if (!out->varyings)
		return XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory loading layout %" PRId64, id);
	enum xt_rc rc = db_prepare_json(db, &st,
		"SELECT json_extract(j.value, '$.name'), json_extract(j.value, '$.type'),"
		" json_extract(j.value, '$.size'), json_extract(j.value, '$.buffer'),"
		" json_extract(j.value, '$.offset'), j.type"
		" FROM json_each(?1, '$.varyings') AS j ORDER BY j.key");
	if (rc)
		return rc;
	db_bind_text(st, 1, json);
	int src;
	while ((src = db_step(st)) == SQLITE_ROW) {
		struct db_tf_varying *v = &out->varyings[n];
		const char *jtype = db_col_text(st, 5);
		if (n >= out->nvaryings || !jtype || strcmp(jtype, "object")) {
			rc = LAYOUT_BAD("a varying is not an object");
			break;
		}
		v->name = scalar_text(st, 0, a, &nomem);
		v->type = scalar_text(st, 1, a, &nomem);
		if (nomem) {
			rc = XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory loading layout %" PRId64, id);
			break;
		}
		if (!v->name || !v->type || db_col_type(st, 0) != SQLITE_TEXT ||
		    !int_in(st, 2, 0, 1 << 20, &v->size) ||
		    !int_in(st, 3, 0, DB_LAYOUT_MAX_BUFFERS - 1, &v->buffer) ||
		    !int_in(st, 4, 0, DB_LAYOUT_MAX_STRIDE, &v->offset)) {
			rc = LAYOUT_BAD("a varying lacks a name, type, size, buffer or offset in range");
			break;
		}
		n++;
	}
	if (!rc && src != SQLITE_DONE)
		rc = json_fail(db, src, "reading layout varyings");
	if (!rc && n != out->nvaryings)
		rc = LAYOUT_BAD("varying count changed while reading");
	db_finalize(st);
	return rc;
}

enum xt_rc db_layout_load(struct db *db, int64_t id, struct xt_arena *arena,
			  struct db_tf_layout *out)
{
	const char *json = NULL;
	memset(out, 0, sizeof *out);
	enum xt_rc rc = layout_row(db, id, arena, &json);
	rc = rc ? rc : layout_head(db, id, json, arena, out);
	rc = rc ? rc : layout_strides(db, id, json, arena, out);
	return rc ? rc : layout_varyings(db, id, json, arena, out);
}

enum xt_rc db_json_object_diff(struct db *db, const char *a, const char *b, db_json_diff_cb cb,
			       void *ctx)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare_json(db, &st,
		"WITH a AS (SELECT key, id, json_quote(value) AS v FROM json_each(?1)),"
		" b AS (SELECT key, id, json_quote(value) AS v FROM json_each(?2))"
		" SELECT key, v, (SELECT b.v FROM b WHERE b.key = a.key) AS w, 0 AS side, id FROM a"
		"  WHERE w IS NULL OR w IS NOT v"
		" UNION ALL"
		" SELECT key, NULL, v, 1, id FROM b WHERE key NOT IN (SELECT key FROM a)"
		" ORDER BY side, id");
	if (rc)
		return rc;
	db_bind_text(st, 1, a);
	db_bind_text(st, 2, b);
	int src;
	while ((src = db_step(st)) == SQLITE_ROW) {
		const char *key = db_col_text(st, 0);
		rc = cb(key ? key : "?", db_col_text(st, 1), db_col_text(st, 2), ctx);
		if (rc)
			break;
	}
	if (!rc && src != SQLITE_DONE)
		rc = json_fail(db, src, "comparing observation fields");
	db_finalize(st);
	return rc;
}
