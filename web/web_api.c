/*
 * web_api.c - the JSON API of `xfbtrace web` (docs/guide.md, "Web UI"):
 *
 *   GET /api/runs                       every run of the database
 *   GET /api/runs/RUN                   a run: its calls with artefacts and
 *                                       its observations (the timeline)
 *   GET /api/runs/RUN/calls/CALL        one call: PM4 and register state
 *                                       decoded, shader disassembly, TF
 *                                       buffers as tables
 *   GET /api/diff/A/B                   which calls differ, with the
 *                                       summaries of both comparisons
 *   GET /api/diff/A/B/calls/CALL        one call of both: register fields
 *                                       old -> new, packets side by side,
 *                                       TF tables with differing components
 *
 * Every answer is one JSON object.  Strings that come from the database
 * (fields JSON, labels, decoded text) are emitted as JSON strings, never
 * spliced in raw, so a hostile row cannot break the document.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_bisect.h"
#include "diff.h"
#include "pm4_decode.h"
#include "web_int.h"
#include "xt_fault.h"
#include "xt_json.h"

/* Listing limits, so that a huge database costs bounded time per request. */
#define MAX_LIST 200000u

static void json_run(struct xt_jw *w, const struct db_run_info *r)
{
	db_run_json(w, r, true);   /* the runs page shows the driver's version */
}

/* The reply is the document `w` wrote.  Out of memory shows in the body
 * (web_server.c answers 503); a document the code left malformed is a 500. */
static void reply_json(struct web_reply *r, const struct xt_jw *w)
{
	if (xt_jw_done(w) == XT_ERR_INTERNAL) {
		web_error(r, 500, "internal error: malformed JSON reply");
		return;
	}
	r->status = 200;
	r->content_type = "application/json";
}

/* ---- /api/runs ------------------------------------------------------------ */

struct list_ctx {
	struct xt_jw *w;
	uint64_t n;
};

static enum xt_rc list_run(const struct db_run_info *run, void *ctx)
{
	struct list_ctx *l = ctx;
	if (l->n >= MAX_LIST)
		return XT_OK;
	l->n++;
	json_run(l->w, run);
	return XT_OK;
}

static void api_runs(struct web_req *q, struct web_reply *r, struct xt_jw *w)
{
	struct list_ctx l = { w, 0 };
	xt_jw_obj(w);
	xt_jw_karr(w, "runs");
	enum xt_rc rc = db_runs_list(q->db, 0, list_run, &l);
	if (rc) {
		web_db_error(r, q->db, rc);
		return;
	}
	xt_jw_end(w);
	xt_jw_end(w);
	reply_json(r, w);
}

/* ---- /api/runs/RUN --------------------------------------------------------- */

static enum xt_rc list_call(const struct db_call_art_row *row, void *ctx)
{
	struct list_ctx *l = ctx;
	struct xt_jw *w = l->w;
	if (l->n >= MAX_LIST)
		return XT_OK;
	l->n++;
	xt_jw_obj(w);
	xt_jw_ku64(w, "call", row->call_no);
	xt_jw_kstr(w, "function", row->function);
	xt_jw_ku64(w, "pm4_dwords", row->pm4_dwords);
	xt_jw_kbool(w, "regs", row->regs_hash != NULL);
	xt_jw_ku64(w, "program", row->program);
	xt_jw_kbool(w, "frame_end", row->frame_end);
	xt_jw_end(w);
	return XT_OK;
}

/* The observations of `run` (of call `only`, or all when only ==
 * UINT64_MAX) as a JSON array of objects. */
static enum xt_rc list_obs(struct db *db, int64_t run, uint64_t only, struct xt_jw *w)
{
	struct db_obs_iter *it;
	struct db_obs_row o;
	enum xt_rc rc = db_obs_iter_open(db, run, &it);
	uint64_t n = 0;

	if (rc)
		return rc;
	xt_jw_arr(w);
	while ((rc = db_obs_iter_next(it, &o)) == XT_OK) {
		if ((only != UINT64_MAX && o.call_no != only) || n >= MAX_LIST)
			continue;
		n++;
		xt_jw_obj(w);
		xt_jw_ku64(w, "call", o.call_no);
		xt_jw_kstr(w, "kind", o.kind);
		xt_jw_ku64(w, "index", o.index);
		xt_jw_kstr(w, "function", o.function);
		xt_jw_kstr(w, "fields", o.fields_json);
		xt_jw_ki64(w, "data_bytes", o.data_bytes);
		xt_jw_kstr(w, "hash", o.blob_hash);
		xt_jw_kstr(w, "verdict_class", o.verdict_class);
		xt_jw_kstr(w, "verdict_reason", o.verdict_reason);
		xt_jw_end(w);
	}
	db_obs_iter_close(it);
	xt_jw_end(w);
	return rc == XT_ERR_EOF ? XT_OK : rc;
}

static bool get_run(struct web_req *q, struct web_reply *r, const char *s, struct db_run_info *ri,
		    struct xt_arena *arena, int64_t *id)
{
	if (!web_parse_id(s, id)) {
		web_error(r, 400, "bad run id");
		return false;
	}
	enum xt_rc rc = db_run_get(q->db, *id, ri, arena);
	if (rc) {
		web_db_error(r, q->db, rc);
		return false;
	}
	return true;
}

/* The rest of the run's object (web_api wrote "run"). */
static void api_run(struct web_req *q, struct web_reply *r, struct xt_jw *w, int64_t id)
{
	struct list_ctx l = { w, 0 };
	enum xt_rc rc;

	xt_jw_karr(w, "calls");
	rc = db_call_art_list(q->db, id, 0, 0, list_call, &l);
	xt_jw_end(w);
	xt_jw_key(w, "observations");
	rc = rc ? rc : list_obs(q->db, id, UINT64_MAX, w);
	if (rc) {
		web_db_error(r, q->db, rc);
		return;
	}
	xt_jw_end(w);
	reply_json(r, w);
}

/* ---- one call of one run ----------------------------------------------------- */

static void json_text_or_null(struct xt_jw *w, const struct xt_buf *t, bool have)
{
	w->b->failed |= t->failed;
	if (have)
		xt_jw_strn(w, (const char *)t->data, t->len);
	else
		xt_jw_null(w);
}

/* The TF table of observation (call, tf_buffer, index) of `run` (null
 * when it cannot be decoded). */
static void json_tf(struct db *db, int64_t run, uint64_t call, uint32_t index, struct xt_jw *w)
{
	struct xt_arena arena;
	struct web_tf t;

	xt_arena_init(&arena, 1 << 16);
	enum xt_rc rc = web_tf_load(db, run, call, index, &arena, &t);
	if (rc || !t.have) {
		if (rc && rc != XT_ERR_NOT_FOUND) {
			xt_jw_obj(w);
			xt_jw_kstr(w, "error", xt_err_msg(db_err(db)));
			xt_jw_end(w);
		} else {
			xt_jw_null(w);
		}
		xt_arena_fini(&arena);
		return;
	}
	xt_jw_obj(w);
	xt_jw_karr(w, "columns");
	for (uint32_t c = 0; c < t.ncomp; c++)
		xt_jw_str(w, t.comp_name[c]);
	xt_jw_end(w);
	xt_jw_karr(w, "rows");
	for (uint32_t v = 0; v < t.nvertices; v++) {
		xt_jw_arr(w);
		for (uint32_t c = 0; c < t.ncomp; c++)
			xt_jw_num(w, web_tf_value(&t, v, c), t.comp_scalar[c] == TRACE_TOL_F32);
		xt_jw_end(w);
	}
	xt_jw_end(w);
	xt_jw_end(w);
	xt_arena_fini(&arena);
}

/* The rest of the run's object (web_api wrote "run"). */
static void api_run_call(struct web_req *q, struct web_reply *r, struct xt_jw *w, int64_t id,
			 uint64_t call)
{
	struct xt_arena arena;
	struct db_call_art_row row;
	const char *prev = NULL;
	struct xt_buf blob, prevb, text;
	bool have_art;
	enum xt_rc rc;

	xt_arena_init(&arena, 4096);
	xt_buf_init(&blob);
	xt_buf_init(&prevb);
	xt_buf_init(&text);
	rc = db_call_art_get(q->db, id, call, &row, &prev, &arena);
	have_art = rc == XT_OK;
	if (rc && rc != XT_ERR_NOT_FOUND)
		goto fail;
	rc = XT_OK;
	xt_jw_ku64(w, "call", call);
	xt_jw_kstr(w, "function", have_art ? row.function : NULL);
	xt_jw_key(w, "pm4");
	if (have_art && row.pm4_hash) {
		if ((rc = db_blob_get(q->db, row.pm4_hash, &blob)))
			goto fail;
		pm4_decode((const uint32_t *)blob.data, (uint32_t)(blob.len / 4),
			   &(struct pm4_decode_opts){ .name = "PM4" }, &text, NULL);
	}
	json_text_or_null(w, &text, have_art && row.pm4_hash);
	xt_jw_key(w, "regs");
	xt_buf_reset(&text);
	if (have_art && row.regs_hash) {
		if ((rc = db_blob_get(q->db, row.regs_hash, &blob)))
			goto fail;
		diff_regs_decode((const uint32_t *)blob.data, blob.len / 8, NULL, 0, "registers", &text);
	}
	json_text_or_null(w, &text, have_art && row.regs_hash);
	xt_jw_key(w, "regs_changed");
	xt_buf_reset(&text);
	if (have_art && row.regs_hash && prev) {
		if ((rc = db_blob_get(q->db, prev, &prevb)))
			goto fail;
		diff_regs_decode((const uint32_t *)blob.data, blob.len / 8,
				 (const uint32_t *)prevb.data, prevb.len / 8, "changed registers", &text);
	}
	json_text_or_null(w, &text, have_art && row.regs_hash && prev);
	xt_jw_ku64(w, "program", have_art ? row.program : 0);
	char hash[33];
	bool have_sh = have_art && row.program && db_shader_hash(q->db, id, row.program, hash) == XT_OK &&
		       db_blob_get(q->db, hash, &blob) == XT_OK;
	xt_jw_key(w, "shader");
	if (have_sh)
		xt_jw_strn(w, (const char *)blob.data, blob.len);
	else
		xt_jw_null(w);
	/* Observations of the call, TF buffers decoded. */
	xt_jw_key(w, "observations");
	if ((rc = list_obs(q->db, id, call, w)))
		goto fail;
	xt_jw_karr(w, "tf");
	for (uint32_t i = 0; i < 4; i++)
		json_tf(q->db, id, call, i, w);
	xt_jw_end(w);
	xt_jw_end(w);
	reply_json(r, w);
	goto done;
fail:
	web_db_error(r, q->db, rc);
done:
	xt_buf_fini(&blob);
	xt_buf_fini(&prevb);
	xt_buf_fini(&text);
	xt_arena_fini(&arena);
}

/* ---- /api/diff/A/B ------------------------------------------------------------ */

/* One call of the diff timeline. */
struct tl_entry {
	uint64_t call;
	char function[64];
	uint8_t flags;
	/* TL_CLASSIFIED: the class `replay --check` gave an observation of
	 * the call (diff.h, diff_obs.classified) and its reason, cut to fit;
	 * /api/run and the call's detail carry it whole. */
	char verdict_class[32];
	char verdict_reason[256];
};
enum { TL_PM4 = 1, TL_REGS = 2, TL_SHADER = 4, TL_OBS = 8, TL_ONE_SIDED = 16, TL_ART = 32,
       TL_CLASSIFIED = 64 };

struct tl {
	struct tl_entry *v;
	size_t n, cap;
};

static enum xt_rc tl_add(struct tl *t, uint64_t call, const char *function, uint8_t flags)
{
	if (t->n && t->v[t->n - 1].call == call) {
		t->v[t->n - 1].flags |= flags;
		return XT_OK;
	}
	if (t->n >= MAX_LIST)
		return XT_OK;
	if (t->n == t->cap) {
		size_t c = t->cap ? 2 * t->cap : 256;
		struct tl_entry *p = xt_realloc(t->v, c * sizeof *p);
		if (!p)
			return XT_ERR_NOMEM;
		t->v = p;
		t->cap = c;
	}
	struct tl_entry *e = &t->v[t->n++];
	memset(e, 0, sizeof *e);
	e->call = call;
	snprintf(e->function, sizeof e->function, "%s", function ? function : "?");
	e->flags = flags;
	return XT_OK;
}

static int tl_cmp(const void *x, const void *y)
{
	const struct tl_entry *a = x, *b = y;
	return a->call < b->call ? -1 : a->call > b->call;
}

static enum xt_rc tl_art(const struct db_call_art_row *row, void *ctx)
{
	return tl_add(ctx, row->call_no, row->function, TL_ART);
}

static enum xt_rc tl_call(const struct diff_call *c, void *ctx)
{
	return tl_add(ctx, c->call_no, c->function,
		      (c->pm4_differs ? TL_PM4 : 0) | (c->regs_differ ? TL_REGS : 0) |
		      (c->shader_differs ? TL_SHADER : 0) | (!c->in_a || !c->in_b ? TL_ONE_SIDED : 0));
}

static enum xt_rc tl_obs(const struct diff_obs *d, void *ctx)
{
	struct tl *t = ctx;
	enum xt_rc rc = tl_add(t, d->call_no, d->function, d->classified ? TL_CLASSIFIED : TL_OBS);
	struct tl_entry *e = t->n ? &t->v[t->n - 1] : NULL;
	if (rc || !d->classified || !e || e->call != d->call_no || e->verdict_class[0])
		return rc;
	const char *cls = d->verdict_b_class && strcmp(d->verdict_b_class, "differs") ?
			  d->verdict_b_class : d->verdict_a_class;
	const char *why = cls == d->verdict_b_class ? d->verdict_b_reason : d->verdict_a_reason;
	snprintf(e->verdict_class, sizeof e->verdict_class, "%s", cls ? cls : "");
	snprintf(e->verdict_reason, sizeof e->verdict_reason, "%s", why ? why : "");
	return XT_OK;
}

/* The rest of the diff's object (web_api wrote "run_a" and "run_b"). */
static void api_diff(struct web_req *q, struct web_reply *r, struct xt_jw *w, int64_t a, int64_t b)
{
	struct tl t = { 0 };
	struct diff_options o = { .max_items = 1 };
	struct diff_summary os;
	struct diff_calls_summary cs;
	struct xt_err err;
	enum xt_rc rc;

	xt_err_clear(&err);
	rc = db_call_art_list(q->db, a, 0, 0, tl_art, &t);
	if (!rc)
		rc = diff_calls(q->db, a, b, DIFF_CALLS_PM4 | DIFF_CALLS_REGS | DIFF_CALLS_SHADERS,
				tl_call, &t, &cs, &err);
	if (!rc)
		rc = diff_runs(q->db, a, b, &o, tl_obs, &t, &os, &err);
	if (rc) {
		free(t.v);
		if (err.rc)
			web_error(r, rc == XT_ERR_INVALID ? 400 : rc == XT_ERR_NOT_FOUND ? 404 : 500, "%s",
				  xt_err_msg(&err));
		else
			web_db_error(r, q->db, rc);
		return;
	}
	/* Entries were appended in three sorted passes: sort, then merge. */
	if (t.n)   /* t.v is NULL when no call has an entry (a run with itself) */
		qsort(t.v, t.n, sizeof *t.v, tl_cmp);
	xt_jw_kobj(w, "observations");
	xt_jw_ku64(w, "pairs", os.pairs);
	xt_jw_ku64(w, "different", os.different);
	xt_jw_ku64(w, "only_a", os.only_a);
	xt_jw_ku64(w, "only_b", os.only_b);
	xt_jw_ku64(w, "classified", os.classified);
	xt_jw_ku64(w, "components_differ", os.components_differ);
	xt_jw_end(w);
	xt_jw_kobj(w, "calls_summary");
	xt_jw_ku64(w, "with_artifacts_a", cs.calls_a);
	xt_jw_ku64(w, "with_artifacts_b", cs.calls_b);
	xt_jw_ku64(w, "differ", cs.differ);
	if (cs.diverged) {
		xt_jw_kobj(w, "first_divergent");
		xt_jw_ku64(w, "call", cs.first_call);
		xt_jw_kstr(w, "function", cs.first_function);
		xt_jw_end(w);
	} else {
		xt_jw_knull(w, "first_divergent");
	}
	xt_jw_end(w);
	xt_jw_karr(w, "timeline");
	for (size_t i = 0; i < t.n; i++) {
		uint8_t f = t.v[i].flags;
		const struct tl_entry *vd = &t.v[i];   /* the one with the verdict, if any */
		while (i + 1 < t.n && t.v[i + 1].call == t.v[i].call) {
			f |= t.v[++i].flags;
			if (t.v[i].verdict_class[0])
				vd = &t.v[i];
		}
		xt_jw_obj(w);
		xt_jw_ku64(w, "call", t.v[i].call);
		xt_jw_kstr(w, "function", t.v[i].function);
		xt_jw_kbool(w, "pm4", f & TL_PM4);
		xt_jw_kbool(w, "regs", f & TL_REGS);
		xt_jw_kbool(w, "shader", f & TL_SHADER);
		xt_jw_kbool(w, "obs", f & TL_OBS);
		xt_jw_kbool(w, "one_sided", f & TL_ONE_SIDED);
		xt_jw_kbool(w, "classified", f & TL_CLASSIFIED);
		xt_jw_kstr(w, "verdict_class", vd->verdict_class[0] ? vd->verdict_class : NULL);
		xt_jw_kstr(w, "verdict_reason", vd->verdict_class[0] ? vd->verdict_reason : NULL);
		xt_jw_end(w);
	}
	xt_jw_end(w);
	xt_jw_end(w);
	free(t.v);
	reply_json(r, w);
}

/* ---- /api/diff/A/B/calls/CALL ---------------------------------------------------- */

static const char *op_name(enum diff_edit_op op)
{
	static const char *const n[] = { "same", "changed", "only_a", "only_b" };
	return n[op];
}

/* One packet decoded, without the decoder's begin / end lines, as a string. */
static void json_packet(struct xt_jw *w, const uint32_t *dw, const struct diff_packet *p)
{
	struct xt_buf t = XT_BUF_INIT;
	pm4_decode(dw + p->offset_dw, p->size_dw, NULL, &t, NULL);
	const char *s = (const char *)t.data, *e = s ? s + t.len : NULL;
	if (s) {
		const char *nl = memchr(s, '\n', t.len);
		s = nl ? nl + 1 : e;
		while (e > s && e[-1] == '\n')
			e--;
		const char *last = e;
		while (last > s && last[-1] != '\n')
			last--;
		if (last > s)
			e = last - 1;
		else
			e = s;
	}
	xt_jw_strn(w, s ? s : "", s ? (size_t)(e - s) : 0);
	w->b->failed |= t.failed;
	xt_buf_fini(&t);
}

static enum xt_rc call_detail(const struct diff_call *c, void *ctx)
{
	struct xt_jw *w = ctx;
	xt_jw_karr(w, "fields");
	for (size_t i = 0; i < c->nfields; i++)
		diff_field_json(w, &c->fields[i], false);
	xt_jw_end(w);
	xt_jw_karr(w, "packets");
	for (size_t i = 0; i < c->nedits && i < MAX_LIST; i++) {
		const struct diff_edit *e = &c->edits[i];
		xt_jw_obj(w);
		xt_jw_kstr(w, "op", op_name(e->op));
		xt_jw_key(w, "a");
		if (e->a >= 0)
			json_packet(w, c->pm4_a, &c->packets_a[e->a]);
		else
			xt_jw_null(w);
		xt_jw_key(w, "b");
		if (e->b >= 0)
			json_packet(w, c->pm4_b, &c->packets_b[e->b]);
		else
			xt_jw_null(w);
		xt_jw_end(w);
	}
	xt_jw_end(w);
	xt_jw_kbool(w, "shader_differs", c->shader_differs);
	xt_jw_kstr(w, "shader_a", c->shader_a);
	xt_jw_kstr(w, "shader_b", c->shader_b);
	return XT_OK;
}

/* The TF buffers of both runs at `call`, component by component. */
static void json_tf_pair(struct db *db, int64_t a, int64_t b, uint64_t call, struct xt_jw *w)
{
	xt_jw_karr(w, "tf");
	for (uint32_t i = 0; i < 4; i++) {
		struct xt_arena arena;
		struct web_tf ta, tb;
		xt_arena_init(&arena, 1 << 16);
		enum xt_rc rc = web_tf_load(db, a, call, i, &arena, &ta);
		rc = rc ? rc : web_tf_load(db, b, call, i, &arena, &tb);
		if (rc && rc != XT_ERR_NOT_FOUND) {
			/* Said, not skipped: a damaged blob hides a difference. */
			xt_jw_obj(w);
			xt_jw_ku64(w, "index", i);
			xt_jw_kstr(w, "error", xt_err_msg(db_err(db)));
			xt_jw_end(w);
			xt_arena_fini(&arena);
			continue;
		}
		if (rc || (!ta.have && !tb.have)) {
			xt_arena_fini(&arena);
			continue;
		}
		const struct web_tf *t = ta.have ? &ta : &tb;
		uint32_t nv = ta.nvertices > tb.nvertices ? ta.nvertices : tb.nvertices;
		xt_jw_obj(w);
		xt_jw_ku64(w, "index", i);
		/* The rows stop at WEB_MAX_TF_VERTICES: say how many there are. */
		xt_jw_ku64(w, "vertices", ta.total_vertices > tb.total_vertices ? ta.total_vertices
										: tb.total_vertices);
		xt_jw_karr(w, "columns");
		for (uint32_t c = 0; c < t->ncomp; c++)
			xt_jw_str(w, t->comp_name[c]);
		xt_jw_end(w);
		xt_jw_karr(w, "rows");
		for (uint32_t v = 0; v < nv; v++) {
			xt_jw_obj(w);
			xt_jw_ku64(w, "v", v);
			xt_jw_karr(w, "a");
			for (uint32_t c = 0; ta.have && v < ta.nvertices && c < ta.ncomp; c++)
				xt_jw_num(w, web_tf_value(&ta, v, c), ta.comp_scalar[c] == TRACE_TOL_F32);
			xt_jw_end(w);
			xt_jw_karr(w, "b");
			for (uint32_t c = 0; tb.have && v < tb.nvertices && c < tb.ncomp; c++)
				xt_jw_num(w, web_tf_value(&tb, v, c), tb.comp_scalar[c] == TRACE_TOL_F32);
			xt_jw_end(w);
			xt_jw_karr(w, "d");
			for (uint32_t c = 0; c < t->ncomp; c++) {
				bool ina = ta.have && v < ta.nvertices && c < ta.ncomp;
				bool inb = tb.have && v < tb.nvertices && c < tb.ncomp;
				bool differ = ina != inb ||
					      (ina && ta.bits[(size_t)v * ta.ncomp + c] !=
						      tb.bits[(size_t)v * tb.ncomp + c]);
				if (differ)
					xt_jw_u64(w, c);
			}
			xt_jw_end(w);
			xt_jw_end(w);
		}
		xt_jw_end(w);
		xt_jw_end(w);
		xt_arena_fini(&arena);
	}
	xt_jw_end(w);
}

/* The rest of the diff's object (web_api wrote "run_a" and "run_b"). */
static void api_diff_call(struct web_req *q, struct web_reply *r, struct xt_jw *w, int64_t a,
			  int64_t b, uint64_t call)
{
	struct xt_err err;
	enum xt_rc rc;

	xt_err_clear(&err);
	xt_jw_ku64(w, "call", call);
	rc = diff_call_one(q->db, a, b, call, DIFF_CALLS_PM4 | DIFF_CALLS_REGS | DIFF_CALLS_SHADERS,
			   call_detail, w, &err);
	if (rc == XT_ERR_NOT_FOUND) {
		xt_jw_karr(w, "fields");
		xt_jw_end(w);
		xt_jw_karr(w, "packets");
		xt_jw_end(w);
	} else if (rc) {
		web_error(r, rc == XT_ERR_INVALID ? 400 : 500, "%s",
			  err.rc ? xt_err_msg(&err) : xt_err_msg(db_err(q->db)));
		return;
	}
	xt_jw_key(w, "observations_a");
	rc = list_obs(q->db, a, call, w);
	if (!rc) {
		xt_jw_key(w, "observations_b");
		rc = list_obs(q->db, b, call, w);
	}
	if (rc) {
		web_db_error(r, q->db, rc);
		return;
	}
	json_tf_pair(q->db, a, b, call, w);
	web_image_pair(q->db, a, b, call, w);
	xt_jw_end(w);
	reply_json(r, w);
}

static bool parse_call(const char *s, uint64_t *out)
{
	int64_t v;
	if (!strcmp(s, "0")) {
		*out = 0;
		return true;
	}
	if (!web_parse_id(s, &v))
		return false;
	*out = (uint64_t)v;
	return true;
}

/* ---- /api/bisect[/ID]: bisect sessions (db_bisect.h, docs/db.md) ------ */

static void api_bisect(struct web_req *q, struct web_reply *r)
{
	int64_t id = 0;
	if (q->nseg == 3 && !web_parse_id(q->seg[2], &id)) {
		web_error(r, 400, "bad bisect session id");
		return;
	}
	enum xt_rc rc = db_bisect_json(q->db, id, &r->body);
	if (rc) {
		web_db_error(r, q->db, rc);
	} else {
		r->status = 200;
		r->content_type = "application/json";
	}
}

void web_api(struct web_req *q, struct web_reply *r)
{
	struct xt_arena arena;
	struct db_run_info ra, rb;
	struct xt_jw w;
	int64_t a, b;
	uint64_t call = 0;

	xt_arena_init(&arena, 4096);
	xt_jw_init(&w, &r->body);
	if (q->nseg == 2 && !strcmp(q->seg[1], "runs")) {
		api_runs(q, r, &w);
	} else if (q->nseg <= 3 && !strcmp(q->seg[1], "bisect")) {
		api_bisect(q, r);
	} else if (q->nseg >= 3 && !strcmp(q->seg[1], "runs") &&
		   (q->nseg == 3 || (q->nseg == 5 && !strcmp(q->seg[3], "calls")))) {
		if (q->nseg == 5 && !parse_call(q->seg[4], &call))
			web_error(r, 400, "bad call number");
		else if (get_run(q, r, q->seg[2], &ra, &arena, &a)) {
			xt_jw_obj(&w);
			xt_jw_key(&w, "run");
			json_run(&w, &ra);
			if (q->nseg == 3)
				api_run(q, r, &w, a);
			else
				api_run_call(q, r, &w, a, call);
		}
	} else if (q->nseg >= 4 && !strcmp(q->seg[1], "diff") &&
		   (q->nseg == 4 || (q->nseg == 6 && !strcmp(q->seg[4], "calls")))) {
		if (q->nseg == 6 && !parse_call(q->seg[5], &call))
			web_error(r, 400, "bad call number");
		else if (get_run(q, r, q->seg[2], &ra, &arena, &a) &&
			 get_run(q, r, q->seg[3], &rb, &arena, &b)) {
			xt_jw_obj(&w);
			xt_jw_key(&w, "run_a");
			json_run(&w, &ra);
			xt_jw_key(&w, "run_b");
			json_run(&w, &rb);
			if (ra.trace_id != rb.trace_id)
				web_error(r, 400, "runs %" PRId64 " and %" PRId64 " are of different traces",
					  a, b);
			else if (q->nseg == 4)
				api_diff(q, r, &w, a, b);
			else
				api_diff_call(q, r, &w, a, b, call);
		}
	} else {
		web_error(r, 404, "no such API endpoint");
	}
	xt_arena_fini(&arena);
}
