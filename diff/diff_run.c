/*
 * diff_run.c - aligning the observations of two runs and comparing each
 * pair (rules in diff.h).
 *
 * Both runs are read in (call number, kind, index) order, the order of the
 * observations table's primary key, and merged like two sorted lists: a key
 * in one run only is reported as such, a key in both is compared.  Memory
 * is bounded by the two largest blobs of a pair plus the differences kept
 * per observation, whatever the size of the runs.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diff_int.h"
#include "xt_fault.h"

enum xt_rc diff_item_add(struct diff_ctx *c, const struct diff_item *it)
{
	uint32_t max = c->o->max_items;
	c->counted++;
	if (max && c->cur.nitems >= max)
		return XT_OK;
	if (xt_buf_append(&c->items, it, sizeof *it))
		return XT_FAIL(c->err, XT_ERR_NOMEM, "out of memory keeping differences");
	c->cur.nitems++;
	return XT_OK;
}

static void obs_begin(struct diff_ctx *c, const struct db_obs_row *r, enum diff_obs_state state)
{
	memset(&c->cur, 0, sizeof c->cur);
	c->counted = 0;
	c->cur.state = state;
	c->cur.call_no = r->call_no;
	c->cur.kind = r->kind;
	c->cur.index = r->index;
	c->cur.function = r->function;
	c->cur.buffer = r->buffer;
	c->cur.query = r->query;
	c->cur.query_target = r->query_target;
	c->cur.query_stream = r->query_stream;
	xt_buf_reset(&c->items);
	xt_arena_reset(&c->obs_arena);
}

/* The stored verdicts of the observation being compared; whether it is
 * classified (diff.h, diff_obs.classified). */
static bool verdicts(struct diff_ctx *c, const struct db_obs_row *x, const struct db_obs_row *y)
{
	if (x) {
		c->cur.verdict_a_class = x->verdict_class;
		c->cur.verdict_a_reason = x->verdict_reason;
	}
	if (y) {
		c->cur.verdict_b_class = y->verdict_class;
		c->cur.verdict_b_reason = y->verdict_reason;
	}
	const char *other = c->golden_a && !c->golden_b ? c->cur.verdict_b_class :
			    c->golden_b && !c->golden_a ? c->cur.verdict_a_class : NULL;
	c->cur.classified = other && strcmp(other, "differs");
	/* --strict counts what `replay --check --strict` counts; equal up to
	 * NaN bit patterns, timing and lost are never differences there. */
	bool strict = c->o->strict && other && (!strcmp(other, "undefined") ||
						 !strcmp(other, "implementation-dependent") ||
						 !strcmp(other, "precision"));
	c->cur.excused = c->cur.classified && !strict;
	return c->cur.excused;
}

/* Fields derived from the trace's calls rather than observed (db.h,
 * db_obs_from_value): the same in every run of a trace made by one
 * revision, absent from runs stored before them; shown, not compared. */
static bool derived_field(const struct diff_ctx *c, const char *key)
{
	return c->cur.kind && !strcmp(c->cur.kind, "query") &&
	       (!strcmp(key, "target") || !strcmp(key, "stream"));
}

static enum xt_rc field_differs(const char *key, const char *a, const char *b, void *ctx)
{
	struct diff_ctx *c = ctx;
	if (derived_field(c, key))
		return XT_OK;
	struct diff_item it = { .kind = DIFF_ITEM_FIELD };
	it.field = xt_arena_strdup(&c->obs_arena, key);
	it.a_text = a ? xt_arena_strdup(&c->obs_arena, a) : NULL;
	it.b_text = b ? xt_arena_strdup(&c->obs_arena, b) : NULL;
	if (!it.field || (a && !it.a_text) || (b && !it.b_text))
		return XT_FAIL(c->err, XT_ERR_NOMEM, "out of memory keeping differences");
	c->cur.fields_differ++;
	return diff_item_add(c, &it);
}

/* A db_* call failed: its error becomes ours, unless one of our callbacks
 * (which stopped it) recorded the real cause first. */
static enum xt_rc db_fail(struct diff_ctx *c, enum xt_rc rc)
{
	if (c->err->rc == XT_OK)
		xt_err_copy(c->err, db_err(c->db));
	return rc;
}

static enum xt_rc data_compare(struct diff_ctx *c, const struct db_obs_row *x,
			       const struct db_obs_row *y, struct xt_buf *ba, struct xt_buf *bb,
			       struct diff_summary *sum)
{
	enum xt_rc rc;
	if (!x->blob_hash || !y->blob_hash) {
		struct diff_item it = { .kind = DIFF_ITEM_DATA, .a = x->blob_hash != NULL,
					.b = y->blob_hash != NULL };
		return x->blob_hash || y->blob_hash ? diff_item_add(c, &it) : XT_OK;
	}
	sum->data_bytes += (uint64_t)x->data_bytes;
	if (!strcmp(x->blob_hash, y->blob_hash) && !c->o->no_hash_shortcut) {
		sum->hash_matches++;
		return XT_OK;
	}
	rc = db_blob_get(c->db, x->blob_hash, ba);
	rc = rc ? rc : db_blob_get(c->db, y->blob_hash, bb);
	if (rc)
		return db_fail(c, rc);
	if (ba->len != bb->len) {
		struct diff_item it = { .kind = DIFF_ITEM_SIZE, .a = ba->len, .b = bb->len };
		rc = diff_item_add(c, &it);
	}
	if (rc)
		return rc;
	if (!strcmp(x->kind, "pixels") && ba->len == bb->len)
		return diff_pixels_compare(c, x, y, ba, bb);
	if (!strcmp(x->kind, "tf_buffer"))
		return diff_tf_compare(c, x->layout_id, x->index, x->primitive_mode, ba->data, ba->len,
				       bb->data, bb->len);
	size_t n = ba->len < bb->len ? ba->len : bb->len;
	return diff_bytes_compare(c, 0, ba->data, bb->data, n);
}

static enum xt_rc pair_compare(struct diff_ctx *c, const struct db_obs_row *x,
			       const struct db_obs_row *y, struct xt_buf *ba, struct xt_buf *bb,
			       struct diff_summary *sum, diff_obs_cb cb, void *ctx)
{
	enum xt_rc rc = XT_OK;

	obs_begin(c, x, DIFF_OBS_DIFFERENT);
	if (strcmp(x->fields_json, y->fields_json)) {
		rc = db_json_object_diff(c->db, x->fields_json, y->fields_json, field_differs, c);
		if (rc)
			return db_fail(c, rc);
	}
	if (x->layout_id != y->layout_id) {
		struct diff_item it = { .kind = DIFF_ITEM_LAYOUT, .a = (uint64_t)x->layout_id,
					.b = (uint64_t)y->layout_id };
		rc = diff_item_add(c, &it);
	}
	rc = rc ? rc : data_compare(c, x, y, ba, bb, sum);
	if (rc)
		return rc;
	sum->pairs++;
	sum->components_compared += c->cur.components_compared;
	sum->components_differ += c->cur.components_differ;
	sum->bytes_differ += c->cur.bytes_differ;
	sum->fields_differ += c->cur.fields_differ;
	if (!c->counted) {
		sum->same++;
		return XT_OK;
	}
	bool excused = verdicts(c, x, y);
	sum->classified += c->cur.classified;
	if (!excused) {
		sum->different++;
		sum->different_tf += !strcmp(x->kind, "tf_buffer");
		sum->different_query += !strcmp(x->kind, "query");
	}
	c->cur.items = (const struct diff_item *)c->items.data;
	c->cur.differences = c->counted;
	return cb(&c->cur, ctx);
}

static int key_cmp(const struct db_obs_row *x, const struct db_obs_row *y)
{
	if (x->call_no != y->call_no)
		return x->call_no < y->call_no ? -1 : 1;
	int k = strcmp(x->kind, y->kind);
	if (k)
		return k;
	return x->index < y->index ? -1 : x->index > y->index;
}

static enum xt_rc check_runs(struct diff_ctx *c, int64_t run_a, int64_t run_b)
{
	struct xt_arena a;
	struct db_run_info ra, rb;
	xt_arena_init(&a, 4096);
	enum xt_rc rc = db_run_get(c->db, run_a, &ra, &a);
	rc = rc ? rc : db_run_get(c->db, run_b, &rb, &a);
	if (!rc) {
		c->golden_a = ra.golden;
		c->golden_b = rb.golden;
		c->undrawn_a = !strcmp(ra.backend, "sim");
		c->undrawn_b = !strcmp(rb.backend, "sim");
	}
	if (rc)
		rc = db_fail(c, rc);
	else if (ra.trace_id != rb.trace_id)
		rc = XT_FAIL(c->err, XT_ERR_INVALID,
			     "run %" PRId64 " is of trace %.12s (%s), run %" PRId64 " of trace %.12s (%s):"
			     " only runs of the same trace can be compared", run_a, ra.trace_hash,
			     ra.program ? ra.program : "?", run_b, rb.trace_hash,
			     rb.program ? rb.program : "?");
	xt_arena_fini(&a);
	return rc;
}

static enum xt_rc one_sided(struct diff_ctx *c, const struct db_obs_row *r, enum diff_obs_state s,
			    struct diff_summary *sum, diff_obs_cb cb, void *ctx)
{
	obs_begin(c, r, s);
	bool excused = verdicts(c, s == DIFF_OBS_ONLY_A ? r : NULL, s == DIFF_OBS_ONLY_B ? r : NULL);
	if (!strcmp(r->kind, "pixels") && (s == DIFF_OBS_ONLY_A ? c->undrawn_b : c->undrawn_a)) {
		/* An image the other run's backend cannot draw: no statement
		 * about the application's data (replay --check counts it as
		 * "not drawn"), so not a difference, even with --strict. */
		static const char why[] = "the sim backend did not draw this image (it reported the read-back as not replayed)";
		if (s == DIFF_OBS_ONLY_A) {
			c->cur.verdict_b_class = "not-drawn";
			c->cur.verdict_b_reason = why;
		} else {
			c->cur.verdict_a_class = "not-drawn";
			c->cur.verdict_a_reason = why;
		}
		c->cur.classified = excused = c->cur.excused = true;
	}
	sum->classified += c->cur.classified;
	sum->only_a += !excused && s == DIFF_OBS_ONLY_A;
	sum->only_b += !excused && s == DIFF_OBS_ONLY_B;
	return cb(&c->cur, ctx);
}

enum xt_rc diff_runs(struct db *db, int64_t run_a, int64_t run_b, const struct diff_options *o,
		     diff_obs_cb cb, void *ctx, struct diff_summary *sum, struct xt_err *err)
{
	struct diff_ctx c = { .db = db, .o = o, .err = err };
	struct db_obs_iter *ia = NULL, *ib = NULL;
	struct db_obs_row x, y;
	struct xt_buf ba = XT_BUF_INIT, bb = XT_BUF_INIT;
	enum xt_rc rc, ra, rb;

	memset(sum, 0, sizeof *sum);
	xt_err_clear(err);
	xt_arena_init(&c.plan_arena, 16 * 1024);
	xt_arena_init(&c.obs_arena, 4096);
	rc = check_runs(&c, run_a, run_b);
	rc = rc ? rc : db_obs_iter_open(db, run_a, &ia);
	rc = rc ? rc : db_obs_iter_open(db, run_b, &ib);
	if (rc) {
		rc = db_fail(&c, rc);
		goto out;
	}
	ra = db_obs_iter_next(ia, &x);
	rb = db_obs_iter_next(ib, &y);
	while (!rc) {
		if ((ra && ra != XT_ERR_EOF) || (rb && rb != XT_ERR_EOF)) {
			rc = db_fail(&c, ra && ra != XT_ERR_EOF ? ra : rb);
			break;
		}
		if (ra == XT_ERR_EOF && rb == XT_ERR_EOF)
			break;
		int k = ra == XT_ERR_EOF ? 1 : rb == XT_ERR_EOF ? -1 : key_cmp(&x, &y);
		if (k < 0) {
			rc = one_sided(&c, &x, DIFF_OBS_ONLY_A, sum, cb, ctx);
			ra = rc ? ra : db_obs_iter_next(ia, &x);
		} else if (k > 0) {
			rc = one_sided(&c, &y, DIFF_OBS_ONLY_B, sum, cb, ctx);
			rb = rc ? rb : db_obs_iter_next(ib, &y);
		} else {
			rc = pair_compare(&c, &x, &y, &ba, &bb, sum, cb, ctx);
			if (!rc) {
				ra = db_obs_iter_next(ia, &x);
				rb = db_obs_iter_next(ib, &y);
			}
		}
	}
out:
	db_obs_iter_close(ia);
	db_obs_iter_close(ib);
	xt_buf_fini(&ba);
	xt_buf_fini(&bb);
	xt_buf_fini(&c.items);
	free(c.plans);
	xt_arena_fini(&c.plan_arena);
	xt_arena_fini(&c.obs_arena);
	return rc;
}
