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

static void jstr(struct xt_buf *b, const char *s)
{
	if (s)
		xt_json_cstr(b, s);
	else
		xt_buf_append(b, "null", 4);
}

static void json_run(struct xt_buf *b, const struct db_run_info *r)
{
	xt_buf_printf(b, "{\"id\":%" PRId64 ",\"trace_id\":%" PRId64 ",\"trace_hash\":", r->id,
		      r->trace_id);
	jstr(b, r->trace_hash);
	xt_buf_append(b, ",\"program\":", 11);
	jstr(b, r->program);
	xt_buf_printf(b, ",\"golden\":%s,\"backend\":", r->golden ? "true" : "false");
	jstr(b, r->backend);
	xt_buf_append(b, ",\"revision\":", 12);
	jstr(b, r->revision);
	xt_buf_append(b, ",\"gl_renderer\":", 15);
	jstr(b, r->gl_renderer);
	xt_buf_append(b, ",\"label\":", 9);
	jstr(b, r->label);
	xt_buf_append(b, ",\"started_at\":", 14);
	jstr(b, r->started_at);
	xt_buf_append(b, ",\"status\":", 10);
	jstr(b, r->status);
	xt_buf_append(b, ",\"summary\":", 11);
	jstr(b, r->summary);
	xt_buf_printf(b, ",\"observations\":%" PRId64 ",\"data_bytes\":%" PRId64 "}",
		      r->observations, r->data_bytes);
}

static void reply_json(struct web_reply *r)
{
	r->status = 200;
	r->content_type = "application/json";
}

/* ---- /api/runs ------------------------------------------------------------ */

struct list_ctx {
	struct xt_buf *b;
	uint64_t n;
};

static enum xt_rc list_run(const struct db_run_info *run, void *ctx)
{
	struct list_ctx *l = ctx;
	if (l->n >= MAX_LIST)
		return XT_OK;
	if (l->n++)
		xt_buf_append(l->b, ",", 1);
	json_run(l->b, run);
	return XT_OK;
}

static void api_runs(struct web_req *q, struct web_reply *r)
{
	struct list_ctx l = { &r->body, 0 };
	xt_buf_append(&r->body, "{\"runs\":[", 9);
	enum xt_rc rc = db_runs_list(q->db, 0, list_run, &l);
	if (rc) {
		web_db_error(r, q->db, rc);
		return;
	}
	xt_buf_append(&r->body, "]}", 2);
	reply_json(r);
}

/* ---- /api/runs/RUN --------------------------------------------------------- */

static enum xt_rc list_call(const struct db_call_art_row *row, void *ctx)
{
	struct list_ctx *l = ctx;
	if (l->n >= MAX_LIST)
		return XT_OK;
	xt_buf_printf(l->b, "%s{\"call\":%" PRIu64 ",\"function\":", l->n++ ? "," : "", row->call_no);
	jstr(l->b, row->function);
	xt_buf_printf(l->b, ",\"pm4_dwords\":%" PRIu32 ",\"regs\":%s,\"program\":%" PRIu32
		      ",\"frame_end\":%s}", row->pm4_dwords, row->regs_hash ? "true" : "false",
		      row->program, row->frame_end ? "true" : "false");
	return XT_OK;
}

/* Appends the observations of `run` (of call `only`, or all when
 * only == UINT64_MAX) as a JSON array of objects. */
static enum xt_rc list_obs(struct db *db, int64_t run, uint64_t only, struct xt_buf *b)
{
	struct db_obs_iter *it;
	struct db_obs_row o;
	enum xt_rc rc = db_obs_iter_open(db, run, &it);
	uint64_t n = 0;

	if (rc)
		return rc;
	xt_buf_append(b, "[", 1);
	while ((rc = db_obs_iter_next(it, &o)) == XT_OK) {
		if ((only != UINT64_MAX && o.call_no != only) || n >= MAX_LIST)
			continue;
		xt_buf_printf(b, "%s{\"call\":%" PRIu64 ",\"kind\":", n++ ? "," : "", o.call_no);
		jstr(b, o.kind);
		xt_buf_printf(b, ",\"index\":%" PRIu32 ",\"function\":", o.index);
		jstr(b, o.function);
		xt_buf_append(b, ",\"fields\":", 10);
		jstr(b, o.fields_json);
		xt_buf_printf(b, ",\"data_bytes\":%" PRId64 ",\"hash\":", o.data_bytes);
		jstr(b, o.blob_hash);
		xt_buf_append(b, "}", 1);
	}
	db_obs_iter_close(it);
	xt_buf_append(b, "]", 1);
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

static void api_run(struct web_req *q, struct web_reply *r, int64_t id)
{
	struct list_ctx l = { &r->body, 0 };
	enum xt_rc rc;

	xt_buf_append(&r->body, ",\"calls\":[", 10);
	rc = db_call_art_list(q->db, id, 0, 0, list_call, &l);
	xt_buf_append(&r->body, "],\"observations\":", 17);
	rc = rc ? rc : list_obs(q->db, id, UINT64_MAX, &r->body);
	if (rc) {
		web_db_error(r, q->db, rc);
		return;
	}
	xt_buf_append(&r->body, "}", 1);
	reply_json(r);
}

/* ---- one call of one run ----------------------------------------------------- */

static void json_text_or_null(struct xt_buf *b, const struct xt_buf *t, bool have)
{
	b->failed |= t->failed;
	if (have)
		xt_json_str(b, (const char *)t->data, t->len);
	else
		xt_buf_append(b, "null", 4);
}

/* Appends the TF table of observation (call, tf_buffer, index) of `run`
 * ("null" when it cannot be decoded). */
static void json_tf(struct db *db, int64_t run, uint64_t call, uint32_t index, struct xt_buf *b)
{
	struct xt_arena arena;
	struct web_tf t;

	xt_arena_init(&arena, 1 << 16);
	if (web_tf_load(db, run, call, index, &arena, &t) || !t.have) {
		xt_buf_append(b, "null", 4);
		xt_arena_fini(&arena);
		return;
	}
	xt_buf_append(b, "{\"columns\":[", 12);
	for (uint32_t c = 0; c < t.ncomp; c++) {
		if (c)
			xt_buf_append(b, ",", 1);
		jstr(b, t.comp_name[c]);
	}
	xt_buf_append(b, "],\"rows\":[", 10);
	for (uint32_t v = 0; v < t.nvertices; v++) {
		xt_buf_append(b, v ? ",[" : "[", v ? 2 : 1);
		for (uint32_t c = 0; c < t.ncomp; c++) {
			if (c)
				xt_buf_append(b, ",", 1);
			xt_json_num(b, web_tf_value(&t, v, c), t.comp_scalar[c] == DIFF_F32);
		}
		xt_buf_append(b, "]", 1);
	}
	xt_buf_append(b, "]}", 2);
	xt_arena_fini(&arena);
}

static void api_run_call(struct web_req *q, struct web_reply *r, int64_t id, uint64_t call)
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
	xt_buf_printf(&r->body, ",\"call\":%" PRIu64 ",\"function\":", call);
	jstr(&r->body, have_art ? row.function : NULL);
	xt_buf_append(&r->body, ",\"pm4\":", 7);
	if (have_art && row.pm4_hash) {
		if ((rc = db_blob_get(q->db, row.pm4_hash, &blob)))
			goto fail;
		pm4_decode((const uint32_t *)blob.data, (uint32_t)(blob.len / 4),
			   &(struct pm4_decode_opts){ .name = "PM4" }, &text, NULL);
	}
	json_text_or_null(&r->body, &text, have_art && row.pm4_hash);
	xt_buf_append(&r->body, ",\"regs\":", 8);
	xt_buf_reset(&text);
	if (have_art && row.regs_hash) {
		if ((rc = db_blob_get(q->db, row.regs_hash, &blob)))
			goto fail;
		diff_regs_decode((const uint32_t *)blob.data, blob.len / 8, NULL, 0, "registers", &text);
	}
	json_text_or_null(&r->body, &text, have_art && row.regs_hash);
	xt_buf_append(&r->body, ",\"regs_changed\":", 16);
	xt_buf_reset(&text);
	if (have_art && row.regs_hash && prev) {
		if ((rc = db_blob_get(q->db, prev, &prevb)))
			goto fail;
		diff_regs_decode((const uint32_t *)blob.data, blob.len / 8,
				 (const uint32_t *)prevb.data, prevb.len / 8, "changed registers", &text);
	}
	json_text_or_null(&r->body, &text, have_art && row.regs_hash && prev);
	xt_buf_printf(&r->body, ",\"program\":%" PRIu32 ",\"shader\":", have_art ? row.program : 0);
	char hash[33];
	bool have_sh = have_art && row.program && db_shader_hash(q->db, id, row.program, hash) == XT_OK &&
		       db_blob_get(q->db, hash, &blob) == XT_OK;
	if (have_sh)
		xt_json_str(&r->body, (const char *)blob.data, blob.len);
	else
		xt_buf_append(&r->body, "null", 4);
	/* Observations of the call, TF buffers decoded. */
	xt_buf_append(&r->body, ",\"observations\":", 16);
	struct xt_buf obs = XT_BUF_INIT;
	if ((rc = list_obs(q->db, id, call, &obs))) {
		xt_buf_fini(&obs);
		goto fail;
	}
	xt_buf_append(&r->body, obs.data, obs.len);
	r->body.failed |= obs.failed;
	xt_buf_fini(&obs);
	xt_buf_append(&r->body, ",\"tf\":[", 7);
	for (uint32_t i = 0; i < 4; i++) {
		if (i)
			xt_buf_append(&r->body, ",", 1);
		json_tf(q->db, id, call, i, &r->body);
	}
	xt_buf_append(&r->body, "]}", 2);
	reply_json(r);
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
};
enum { TL_PM4 = 1, TL_REGS = 2, TL_SHADER = 4, TL_OBS = 8, TL_ONE_SIDED = 16, TL_ART = 32 };

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
	return tl_add(ctx, d->call_no, d->function, TL_OBS);
}

static void api_diff(struct web_req *q, struct web_reply *r, int64_t a, int64_t b)
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
	qsort(t.v, t.n, sizeof *t.v, tl_cmp);
	struct xt_buf *B = &r->body;
	xt_buf_printf(B, ",\"observations\":{\"pairs\":%" PRIu64 ",\"different\":%" PRIu64
		      ",\"only_a\":%" PRIu64 ",\"only_b\":%" PRIu64 ",\"components_differ\":%" PRIu64
		      "},\"calls_summary\":{\"with_artifacts_a\":%" PRIu64 ",\"with_artifacts_b\":%"
		      PRIu64 ",\"differ\":%" PRIu64 ",\"first_divergent\":", os.pairs, os.different,
		      os.only_a, os.only_b, os.components_differ, cs.calls_a, cs.calls_b, cs.differ);
	if (cs.diverged) {
		xt_buf_printf(B, "{\"call\":%" PRIu64 ",\"function\":", cs.first_call);
		jstr(B, cs.first_function);
		xt_buf_append(B, "}", 1);
	} else {
		xt_buf_append(B, "null", 4);
	}
	xt_buf_append(B, "},\"timeline\":[", 14);
	size_t out = 0;
	for (size_t i = 0; i < t.n; i++) {
		uint8_t f = t.v[i].flags;
		while (i + 1 < t.n && t.v[i + 1].call == t.v[i].call)
			f |= t.v[++i].flags;
		xt_buf_printf(B, "%s{\"call\":%" PRIu64 ",\"function\":", out++ ? "," : "", t.v[i].call);
		jstr(B, t.v[i].function);
		xt_buf_printf(B, ",\"pm4\":%s,\"regs\":%s,\"shader\":%s,\"obs\":%s,\"one_sided\":%s}",
			      f & TL_PM4 ? "true" : "false", f & TL_REGS ? "true" : "false",
			      f & TL_SHADER ? "true" : "false", f & TL_OBS ? "true" : "false",
			      f & TL_ONE_SIDED ? "true" : "false");
	}
	xt_buf_append(B, "]}", 2);
	free(t.v);
	reply_json(r);
}

/* ---- /api/diff/A/B/calls/CALL ---------------------------------------------------- */

static const char *op_name(enum diff_edit_op op)
{
	static const char *const n[] = { "same", "changed", "only_a", "only_b" };
	return n[op];
}

/* Appends one packet decoded, without the decoder's begin / end lines. */
static void json_packet(struct xt_buf *b, const uint32_t *dw, const struct diff_packet *p)
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
	xt_json_str(b, s ? s : "", s ? (size_t)(e - s) : 0);
	b->failed |= t.failed;
	xt_buf_fini(&t);
}

static enum xt_rc call_detail(const struct diff_call *c, void *ctx)
{
	struct xt_buf *b = ctx;
	xt_buf_append(b, ",\"fields\":[", 11);
	for (size_t i = 0; i < c->nfields; i++) {
		const struct diff_field *f = &c->fields[i];
		char name[160];
		if (f->reg_name)
			snprintf(name, sizeof name, "%s%s%s", f->reg_name, f->field ? "." : "",
				 f->field ? f->field : "");
		else
			snprintf(name, sizeof name, "0x%05" PRIx32, f->reg);
		xt_buf_printf(b, "%s{\"name\":", i ? "," : "");
		jstr(b, name);
		xt_buf_printf(b, ",\"a\":%" PRIu32 ",\"b\":%" PRIu32 ",\"a_name\":", f->a, f->b);
		jstr(b, f->a_name);
		xt_buf_append(b, ",\"b_name\":", 10);
		jstr(b, f->b_name);
		xt_buf_printf(b, ",\"in_a\":%s,\"in_b\":%s}", f->in_a ? "true" : "false",
			      f->in_b ? "true" : "false");
	}
	xt_buf_append(b, "],\"packets\":[", 13);
	for (size_t i = 0; i < c->nedits && i < MAX_LIST; i++) {
		const struct diff_edit *e = &c->edits[i];
		xt_buf_printf(b, "%s{\"op\":\"%s\",\"a\":", i ? "," : "", op_name(e->op));
		if (e->a >= 0)
			json_packet(b, c->pm4_a, &c->packets_a[e->a]);
		else
			xt_buf_append(b, "null", 4);
		xt_buf_append(b, ",\"b\":", 5);
		if (e->b >= 0)
			json_packet(b, c->pm4_b, &c->packets_b[e->b]);
		else
			xt_buf_append(b, "null", 4);
		xt_buf_append(b, "}", 1);
	}
	xt_buf_printf(b, "],\"shader_differs\":%s,\"shader_a\":", c->shader_differs ? "true" : "false");
	jstr(b, c->shader_a);
	xt_buf_append(b, ",\"shader_b\":", 12);
	jstr(b, c->shader_b);
	return XT_OK;
}

/* The TF buffers of both runs at `call`, component by component. */
static void json_tf_pair(struct db *db, int64_t a, int64_t b, uint64_t call, struct xt_buf *B)
{
	bool first = true;
	xt_buf_append(B, ",\"tf\":[", 7);
	for (uint32_t i = 0; i < 4; i++) {
		struct xt_arena arena;
		struct web_tf ta, tb;
		xt_arena_init(&arena, 1 << 16);
		if (web_tf_load(db, a, call, i, &arena, &ta) || web_tf_load(db, b, call, i, &arena, &tb) ||
		    (!ta.have && !tb.have)) {
			xt_arena_fini(&arena);
			continue;
		}
		const struct web_tf *t = ta.have ? &ta : &tb;
		uint32_t nv = ta.nvertices > tb.nvertices ? ta.nvertices : tb.nvertices;
		xt_buf_printf(B, "%s{\"index\":%" PRIu32 ",\"columns\":[", first ? "" : ",", i);
		first = false;
		for (uint32_t c = 0; c < t->ncomp; c++) {
			if (c)
				xt_buf_append(B, ",", 1);
			jstr(B, t->comp_name[c]);
		}
		xt_buf_append(B, "],\"rows\":[", 10);
		for (uint32_t v = 0; v < nv; v++) {
			xt_buf_printf(B, "%s{\"v\":%" PRIu32 ",\"a\":[", v ? "," : "", v);
			for (uint32_t c = 0; ta.have && v < ta.nvertices && c < ta.ncomp; c++) {
				if (c)
					xt_buf_append(B, ",", 1);
				xt_json_num(B, web_tf_value(&ta, v, c), ta.comp_scalar[c] == DIFF_F32);
			}
			xt_buf_append(B, "],\"b\":[", 7);
			for (uint32_t c = 0; tb.have && v < tb.nvertices && c < tb.ncomp; c++) {
				if (c)
					xt_buf_append(B, ",", 1);
				xt_json_num(B, web_tf_value(&tb, v, c), tb.comp_scalar[c] == DIFF_F32);
			}
			xt_buf_append(B, "],\"d\":[", 7);
			bool firstd = true;
			for (uint32_t c = 0; c < t->ncomp; c++) {
				bool ina = ta.have && v < ta.nvertices && c < ta.ncomp;
				bool inb = tb.have && v < tb.nvertices && c < tb.ncomp;
				bool differ = ina != inb ||
					      (ina && ta.bits[(size_t)v * ta.ncomp + c] !=
						      tb.bits[(size_t)v * tb.ncomp + c]);
				if (differ) {
					xt_buf_printf(B, "%s%" PRIu32, firstd ? "" : ",", c);
					firstd = false;
				}
			}
			xt_buf_append(B, "]}", 2);
		}
		xt_buf_append(B, "]}", 2);
		xt_arena_fini(&arena);
	}
	xt_buf_append(B, "]", 1);
}

static void api_diff_call(struct web_req *q, struct web_reply *r, int64_t a, int64_t b,
			  uint64_t call)
{
	struct xt_err err;
	enum xt_rc rc;

	xt_err_clear(&err);
	xt_buf_printf(&r->body, ",\"call\":%" PRIu64, call);
	rc = diff_call_one(q->db, a, b, call, DIFF_CALLS_PM4 | DIFF_CALLS_REGS | DIFF_CALLS_SHADERS,
			   call_detail, &r->body, &err);
	if (rc == XT_ERR_NOT_FOUND)
		xt_buf_append(&r->body, ",\"fields\":[],\"packets\":[]", 25);
	else if (rc) {
		web_error(r, rc == XT_ERR_INVALID ? 400 : 500, "%s",
			  err.rc ? xt_err_msg(&err) : xt_err_msg(db_err(q->db)));
		return;
	}
	xt_buf_append(&r->body, ",\"observations_a\":", 18);
	rc = list_obs(q->db, a, call, &r->body);
	xt_buf_append(&r->body, ",\"observations_b\":", 18);
	rc = rc ? rc : list_obs(q->db, b, call, &r->body);
	if (rc) {
		web_db_error(r, q->db, rc);
		return;
	}
	json_tf_pair(q->db, a, b, call, &r->body);
	xt_buf_append(&r->body, "}", 1);
	reply_json(r);
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
	if (rc)
		web_db_error(r, q->db, rc);
	else
		reply_json(r);
}

void web_api(struct web_req *q, struct web_reply *r)
{
	struct xt_arena arena;
	struct db_run_info ra, rb;
	int64_t a, b;
	uint64_t call = 0;

	xt_arena_init(&arena, 4096);
	if (q->nseg == 2 && !strcmp(q->seg[1], "runs")) {
		api_runs(q, r);
	} else if (q->nseg <= 3 && !strcmp(q->seg[1], "bisect")) {
		api_bisect(q, r);
	} else if (q->nseg >= 3 && !strcmp(q->seg[1], "runs") &&
		   (q->nseg == 3 || (q->nseg == 5 && !strcmp(q->seg[3], "calls")))) {
		if (q->nseg == 5 && !parse_call(q->seg[4], &call))
			web_error(r, 400, "bad call number");
		else if (get_run(q, r, q->seg[2], &ra, &arena, &a)) {
			xt_buf_append(&r->body, "{\"run\":", 7);
			json_run(&r->body, &ra);
			if (q->nseg == 3)
				api_run(q, r, a);
			else
				api_run_call(q, r, a, call);
		}
	} else if (q->nseg >= 4 && !strcmp(q->seg[1], "diff") &&
		   (q->nseg == 4 || (q->nseg == 6 && !strcmp(q->seg[4], "calls")))) {
		if (q->nseg == 6 && !parse_call(q->seg[5], &call))
			web_error(r, 400, "bad call number");
		else if (get_run(q, r, q->seg[2], &ra, &arena, &a) &&
			 get_run(q, r, q->seg[3], &rb, &arena, &b)) {
			xt_buf_append(&r->body, "{\"run_a\":", 9);
			json_run(&r->body, &ra);
			xt_buf_append(&r->body, ",\"run_b\":", 9);
			json_run(&r->body, &rb);
			if (ra.trace_id != rb.trace_id)
				web_error(r, 400, "runs %" PRId64 " and %" PRId64 " are of different traces",
					  a, b);
			else if (q->nseg == 4)
				api_diff(q, r, a, b);
			else
				api_diff_call(q, r, a, b, call);
		}
	} else {
		web_error(r, 404, "no such API endpoint");
	}
	xt_arena_fini(&arena);
}
