/*
 * db_trace.c - recording a trace and its golden run (tables `traces`,
 * `runs`; docs/db.md, "Traces and the golden run").
 *
 * A trace is identified by the XXH3-128 of its records, not of its file:
 * for every record in merged order, the little-endian type (2 bytes),
 * flags (2), seq (8) and payload size (8), then the payload.  Compaction
 * keeps records and their order, so a capture's spool file and its
 * compacted file are one trace, and a replay that names either finds the
 * same golden run.
 *
 * Recording reads the file twice.  The first pass hashes it and gathers its
 * properties without touching the database; most calls (a replay of a trace
 * recorded before) end there, after one indexed lookup.  Only for a new
 * trace does the second pass run, inside one BEGIN IMMEDIATE transaction
 * that inserts the trace, its golden run and every observation, re-hashing
 * as it goes so that a file changed in between is refused rather than
 * recorded under the wrong name.  Two processes recording the same new
 * trace at once therefore write it once: the second finds it inside its
 * transaction and writes nothing.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "db_int.h"
#include "glapi.h"
#include "xt_fault.h"
#include "xt_json.h"

#define MAX_PROPERTIES 4096    /* distinct keys kept; later ones are dropped */
#define RECENT_CALLS 256       /* calls remembered to name an observation's */
#define MAX_THREADS 1024       /* threads whose TF primitive mode is tracked */

struct property {
	char *key;
	char *json;                /* the value as JSON */
	char *text;                /* the value when a STRING without NULs, else NULL */
};

struct scan {
	XXH3_state_t *hash;
	uint64_t records, calls;
	struct property *props;
	size_t nprops;
	struct xt_arena arena;     /* per record */
	struct xt_buf tmp;
};

static void scan_fini(struct scan *s)
{
	for (size_t i = 0; i < s->nprops; i++) {
		free(s->props[i].key);
		free(s->props[i].json);
		free(s->props[i].text);
	}
	free(s->props);
	if (s->hash)
		XXH3_freeState(s->hash);
	xt_arena_fini(&s->arena);
	xt_buf_fini(&s->tmp);
}

static enum xt_rc scan_init(struct scan *s)
{
	memset(s, 0, sizeof *s);
	xt_arena_init(&s->arena, 64 * 1024);
	s->hash = XXH3_createState();
	if (!s->hash || XXH3_128bits_reset(s->hash) != XXH_OK)
		return XT_ERR_NOMEM;
	return XT_OK;
}

static void hash_record(struct scan *s, const struct trace_record *rec)
{
	uint8_t head[20];
	uint64_t n = rec->payload_bytes;
	for (int i = 0; i < 2; i++) {
		head[i] = (uint8_t)(rec->type >> (8 * i));
		head[2 + i] = (uint8_t)(rec->flags >> (8 * i));
	}
	for (int i = 0; i < 8; i++) {
		head[4 + i] = (uint8_t)(rec->seq >> (8 * i));
		head[12 + i] = (uint8_t)(n >> (8 * i));
	}
	XXH3_128bits_update(s->hash, head, sizeof head);
	XXH3_128bits_update(s->hash, rec->payload, rec->payload_bytes);
}

static void hash_hex(struct scan *s, char hex[33])
{
	XXH128_hash_t h = XXH3_128bits_digest(s->hash);
	xt_hash128_hex((struct xt_hash128){ h.low64, h.high64 }, hex);
}

/* Notes PROPERTY `v` (a MAP of one key); the last value of a key wins. */
static enum xt_rc note_property(struct scan *s, const struct trace_value *v)
{
	if (v->tag != TRACE_TAG_MAP || v->agg.count != 1)
		return XT_OK;
	const char *key = v->agg.keys[0];
	const struct trace_value *val = &v->agg.items[0];
	struct property *p = NULL;
	for (size_t i = 0; i < s->nprops && !p; i++)
		if (!strcmp(s->props[i].key, key))
			p = &s->props[i];
	if (!p) {
		if (s->nprops >= MAX_PROPERTIES)
			return XT_OK;
		struct property *g = xt_realloc(s->props, (s->nprops + 1) * sizeof *g);
		if (!g)
			return XT_ERR_NOMEM;
		s->props = g;
		p = &g[s->nprops];
		memset(p, 0, sizeof *p);
		if (!(p->key = xt_strdup(key)))
			return XT_ERR_NOMEM;
		s->nprops++;
	}
	free(p->json);
	free(p->text);
	p->json = p->text = NULL;

	enum xt_rc rc;
	struct xt_jw w;
	xt_buf_reset(&s->tmp);
	xt_jw_init(&w, &s->tmp);
	if (val->tag == TRACE_TAG_STRING) {
		if (!memchr(val->mem.bytes, 0, val->mem.len)) {
			if (!(p->text = xt_malloc(val->mem.len + 1)))
				return XT_ERR_NOMEM;
			memcpy(p->text, val->mem.bytes, val->mem.len);
			p->text[val->mem.len] = '\0';
		}
		xt_jw_strn(&w, (const char *)val->mem.bytes, val->mem.len);
	} else if (val->tag == TRACE_TAG_UINT) {
		xt_jw_u64(&w, val->u);
	} else if (val->tag == TRACE_TAG_SINT) {
		xt_jw_i64(&w, val->i);
	} else {
		xt_jw_null(&w);
	}
	rc = xt_jw_done(&w);
	rc = rc ? rc : xt_buf_append(&s->tmp, "", 1);
	if (rc || !(p->json = xt_strdup((const char *)s->tmp.data)))
		return XT_ERR_NOMEM;
	return XT_OK;
}

static const char *prop_text(const struct scan *s, const char *key)
{
	for (size_t i = 0; i < s->nprops; i++)
		if (!strcmp(s->props[i].key, key))
			return s->props[i].text;
	return NULL;
}

/* The properties as one JSON object, in first-seen order, into s->tmp
 * (NUL-terminated). */
static enum xt_rc props_json(struct scan *s)
{
	struct xt_jw w;
	xt_buf_reset(&s->tmp);
	xt_jw_init(&w, &s->tmp);
	xt_jw_obj(&w);
	for (size_t i = 0; i < s->nprops; i++)
		xt_jw_kraw(&w, s->props[i].key, s->props[i].json);
	xt_jw_end(&w);
	enum xt_rc rc = xt_jw_done(&w);
	return rc ? rc : xt_buf_append(&s->tmp, "", 1);
}

/* Turns a reader failure (or XT_ERR_EOF) into db's error. */
static enum xt_rc reader_fail(struct db *db, struct trace_reader *r, enum xt_rc rc,
			      const char *path)
{
	const struct xt_err *re = trace_reader_err(r);
	if (re->rc != XT_OK)
		return XT_FAIL(&db->err, re->rc, "%s: %s", path, xt_err_msg(re));
	return XT_FAIL(&db->err, rc, "%s: reading failed (%s)", path, xt_rc_name(rc));
}

/* Pass 1: hash, count and gather properties. */
static enum xt_rc scan_file(struct db *db, const char *path, struct scan *s, char hex[33])
{
	struct trace_reader *r;
	struct trace_record rec;
	struct xt_err err;
	enum xt_rc rc = trace_reader_open(&r, path, &err);
	if (rc)
		return xt_err_copy(&db->err, &err);
	while ((rc = trace_reader_next(r, &rec)) == XT_OK) {
		hash_record(s, &rec);
		s->records++;
		s->calls += rec.type == TRACE_REC_CALL;
		if (rec.type != TRACE_REC_PROPERTY)
			continue;
		struct trace_value v;
		xt_arena_reset(&s->arena);
		rc = trace_reader_decode_value(r, &rec, &s->arena, &v);
		rc = rc ? rc : note_property(s, &v);
		if (rc)
			break;
	}
	if (rc == XT_ERR_EOF) {
		hash_hex(s, hex);
		rc = XT_OK;
	} else if (rc == XT_ERR_NOMEM && trace_reader_err(r)->rc == XT_OK) {
		rc = XT_FAIL(&db->err, rc, "%s: out of memory reading properties", path);
	} else {
		rc = reader_fail(db, r, rc, path);
	}
	trace_reader_close(r);
	return rc;
}

static enum xt_rc find_trace(struct db *db, const char *hex, struct db_trace_ref *out, bool *found)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare(db, &st,
		"SELECT t.id, r.id FROM traces t LEFT JOIN runs r ON r.trace_id = t.id AND r.golden = 1"
		" WHERE t.hash = ?1");
	if (rc)
		return rc;
	db_bind_text(st, 1, hex);
	int src = db_step(st);
	*found = src == SQLITE_ROW;
	if (*found) {
		out->trace_id = db_col_i64(st, 0);
		out->golden_run_id = db_col_i64(st, 1);
		if (db_col_type(st, 1) != SQLITE_INTEGER)
			rc = XT_FAIL(&db->err, XT_ERR_CORRUPT, "trace %s has no golden run", hex);
	} else if (src != SQLITE_DONE) {
		rc = db_sql_fail(db, src, "looking a trace up");
	}
	db_finalize(st);
	return rc;
}

static enum xt_rc insert_trace(struct db *db, const char *path, struct scan *s, const char *hex,
			       int64_t *id)
{
	struct stat sb;
	struct db_stmt *st;
	enum xt_rc rc = props_json(s);
	if (rc)
		return XT_FAIL(&db->err, rc, "out of memory listing properties");
	rc = db_prepare(db, &st,
		"INSERT INTO traces (hash, path, file_bytes, records, calls, program, properties)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
	if (rc)
		return rc;
	db_bind_text(st, 1, hex);
	db_bind_text(st, 2, path);
	db_bind_i64(st, 3, stat(path, &sb) == 0 ? (int64_t)sb.st_size : -1);
	db_bind_i64(st, 4, (int64_t)s->records);
	db_bind_i64(st, 5, (int64_t)s->calls);
	db_bind_text(st, 6, prop_text(s, "program"));
	db_bind_text(st, 7, (const char *)s->tmp.data);
	int src = db_step(st);
	if (src == SQLITE_DONE)
		*id = db_last_id(db);
	else
		rc = db_sql_fail(db, src, "adding a trace");
	db_finalize(st);
	return rc;
}

struct recent_call {
	uint64_t no;
	uint32_t thread_no;
	uint32_t func_id;
};

struct golden {
	struct db_run run;
	struct recent_call recent[RECENT_CALLS];
	unsigned nrecent;                  /* calls seen, mod nothing */
	uint64_t prim_mode[MAX_THREADS];   /* per thread: mode + 1, 0 unknown */
	struct trace_queries *queries;     /* query targets, from the calls */
	struct xt_buf scratch;
};

static const struct recent_call *recent_find(const struct golden *g, uint64_t no)
{
	unsigned n = g->nrecent < RECENT_CALLS ? g->nrecent : RECENT_CALLS;
	for (unsigned i = 1; i <= n; i++) {
		const struct recent_call *c = &g->recent[(g->nrecent - i) % RECENT_CALLS];
		if (c->no == no)
			return c;
	}
	return NULL;
}

static enum xt_rc golden_call(struct golden *g, struct trace_reader *r,
			      const struct trace_record *rec, struct xt_arena *arena)
{
	struct trace_call call;
	enum xt_rc rc = trace_reader_decode_call(r, rec, arena, &call);
	if (rc)
		return rc;
	g->recent[g->nrecent % RECENT_CALLS] = (struct recent_call){ call.no, call.thread_no,
								      call.func_id };
	g->nrecent++;
	if (!strcmp(call.name, "glBeginTransformFeedback") && call.nargs >= 1 &&
	    call.args[0].tag == TRACE_TAG_ENUM && call.thread_no < MAX_THREADS)
		g->prim_mode[call.thread_no] = call.args[0].u + 1;
	trace_queries_call(g->queries, &call);
	return XT_OK;
}

static enum xt_rc golden_observation(struct db *db, struct golden *g, struct trace_reader *r,
				     const struct trace_record *rec, struct xt_arena *arena)
{
	struct trace_value v;
	struct db_obs obs;
	enum xt_rc rc = trace_reader_decode_value(r, rec, arena, &v);
	if (rc)
		return rc;
	const struct recent_call *c = recent_find(g, rec->seq);
	const char *function = c ? trace_reader_func_name(r, c->func_id) : NULL;
	int64_t prim = c && c->thread_no < MAX_THREADS ? (int64_t)g->prim_mode[c->thread_no] - 1 : -1;
	if (v.tag != TRACE_TAG_MAP)
		return XT_FAIL(&db->err, XT_ERR_CORRUPT, "observation after call %" PRIu64
			       " is not a MAP", rec->seq);
	rc = db_obs_from_value(&obs, &v, rec->seq, function, prim, g->queries,
			       c ? c->thread_no : 0, &g->scratch, &db->err);
	return rc ? rc : db_run_add_observation(&g->run, &obs);
}

/* Pass 2, inside the transaction: the golden run's observations. */
static enum xt_rc ingest(struct db *db, const char *path, struct golden *g, const char *want_hex)
{
	struct trace_reader *r;
	struct trace_record rec;
	struct xt_err err;
	struct scan s;
	char hex[33];
	enum xt_rc rc = scan_init(&s);
	if (rc) {
		scan_fini(&s);
		return XT_FAIL(&db->err, rc, "out of memory hashing %s", path);
	}
	rc = trace_reader_open(&r, path, &err);
	if (rc) {
		scan_fini(&s);
		return xt_err_copy(&db->err, &err);
	}
	while ((rc = trace_reader_next(r, &rec)) == XT_OK) {
		hash_record(&s, &rec);
		xt_arena_reset(&s.arena);
		if (rec.type == TRACE_REC_CALL)
			rc = golden_call(g, r, &rec, &s.arena);
		else if (rec.type == TRACE_REC_OBSERVATION)
			rc = golden_observation(db, g, r, &rec, &s.arena);
		if (rc)
			break;
	}
	if (rc == XT_ERR_EOF) {
		rc = XT_OK;
		hash_hex(&s, hex);
		if (strcmp(hex, want_hex))
			rc = XT_FAIL(&db->err, XT_ERR_INVALID,
				     "%s changed while it was being recorded", path);
	} else if (db->err.rc == XT_OK || trace_reader_err(r)->rc != XT_OK) {
		rc = reader_fail(db, r, rc, path);
	}
	trace_reader_close(r);
	scan_fini(&s);
	return rc;
}

enum xt_rc db_trace_record(struct db *db, const char *path, const char *golden_label,
			   struct db_trace_ref *out)
{
	struct scan s;
	struct golden *g = NULL;
	bool found = false;
	enum xt_rc rc;

	memset(out, 0, sizeof *out);
	xt_err_clear(&db->err);
	if (db->in_tx)
		return XT_FAIL(&db->err, XT_ERR_INVALID, "a trace cannot be recorded inside a transaction");
	rc = scan_init(&s);
	if (rc) {
		rc = XT_FAIL(&db->err, rc, "out of memory hashing %s", path);
		goto out;
	}
	rc = scan_file(db, path, &s, out->hash);
	rc = rc ? rc : find_trace(db, out->hash, out, &found);
	if (rc || found)
		goto out;

	rc = db_tx_begin(db);
	rc = rc ? rc : find_trace(db, out->hash, out, &found);
	if (rc || found)
		goto done;
	if (!(g = xt_calloc(1, sizeof *g)) || trace_queries_create(&g->queries)) {
		rc = XT_FAIL(&db->err, XT_ERR_NOMEM, "out of memory recording %s", path);
		goto done;
	}
	const char *rev = prop_text(&s, "xfbtrace.revision");
	struct db_run_desc desc = {
		.backend = "capture",
		.revision = rev ? rev : "unknown",
		.gl_vendor = prop_text(&s, "gl.vendor"),
		.gl_renderer = prop_text(&s, "gl.renderer"),
		.gl_version = prop_text(&s, "gl.version"),
		.label = golden_label,
	};
	g->run.db = db;
	g->run.golden = true;
	rc = insert_trace(db, path, &s, out->hash, &desc.trace_id);
	rc = rc ? rc : db_run_insert(db, &desc, true, &g->run.id);
	rc = rc ? rc : ingest(db, path, g, out->hash);
	rc = rc ? rc : db_run_update_end(db, g->run.id, DB_RUN_OK, NULL, &g->run);
	if (!rc) {
		out->trace_id = desc.trace_id;
		out->golden_run_id = g->run.id;
		out->created = true;
	}
done:
	if (!rc)
		rc = db_tx_commit(db);
	else
		db_tx_rollback(db);
	if (rc)
		out->created = false;
out:
	if (g) {
		xt_buf_fini(&g->scratch);
		trace_queries_destroy(g->queries);
	}
	free(g);
	scan_fini(&s);
	return rc;
}

enum xt_rc db_trace_lookup(struct db *db, const char *ref, int64_t *trace_id)
{
	struct db_stmt *st;
	size_t len = strlen(ref);
	bool number = len > 0 && len < 19 && strspn(ref, "0123456789") == len;
	bool hex = len >= 4 && len <= 32 && strspn(ref, "0123456789abcdef") == len;
	enum xt_rc rc;

	if (!number && !hex)
		return XT_FAIL(&db->err, XT_ERR_INVALID,
			       "'%s' is neither a trace id nor a hash prefix (4-32 hex digits)", ref);
	rc = db_prepare(db, &st,
		"SELECT id FROM traces WHERE (?1 <> 0 AND id = ?4)"
		" OR (?3 <> 0 AND substr(hash, 1, length(?2)) = ?2) ORDER BY id LIMIT 2");
	if (rc)
		return rc;
	db_bind_i64(st, 1, number);
	db_bind_text(st, 2, ref);
	db_bind_i64(st, 3, hex);
	db_bind_i64(st, 4, number ? strtoll(ref, NULL, 10) : 0);
	int n = 0, src;
	while ((src = db_step(st)) == SQLITE_ROW)
		if (n++ == 0)
			*trace_id = db_col_i64(st, 0);
	if (src != SQLITE_DONE)
		rc = db_sql_fail(db, src, "looking a trace up");
	else if (n == 0)
		rc = XT_FAIL(&db->err, XT_ERR_NOT_FOUND, "no trace matches '%s'", ref);
	else if (n > 1)
		rc = XT_FAIL(&db->err, XT_ERR_INVALID, "'%s' matches more than one trace", ref);
	db_finalize(st);
	return rc;
}
