/*
 * cli_diff_calls.c - the `--pm4 / --regs / --shaders` part of `xfbtrace
 * diff`: the per-call artefacts of two sim runs compared by diff_calls()
 * (diff/diff_calls.c), rendered as text or as the "calls" member of the
 * --json object.  cli_diff.c calls cli_diff_calls_render() and prints
 * what it rendered after the observations.
 *
 * Text, one block per differing call:
 *
 *   call 104 glBeginTransformFeedback: 1 of 12 packets differ, 3 register fields differ
 *       VGT_STRMOUT_VTX_STRIDE_0.STRIDE 4 -> 5
 *       ~ packet 4 SET_CONTEXT_REG VGT_STRMOUT_BUFFER_SIZE_0 (dwords 9..12 / 9..12)
 *
 * A field that keeps the same old -> new values from call to call (a
 * wrong stride stays wrong until the next begin) is printed at the call
 * where it first differs only; later calls say "(N fields as before)".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_diff_calls.h"
#include "pm4_regs.h"
#include "xt_json.h"

struct calls_render {
	bool json;
	uint32_t limit;           /* fields / packets / lines shown per call, 0: all */
	struct xt_buf *out;
	struct xt_jw jw;          /* JSON: the writer of `out`, an array of calls */
	/* fields of the previous reported call, to elide repeats */
	struct diff_field *prev;
	size_t nprev;
	enum xt_rc rc;
};

static const char *op_mark(enum diff_edit_op op)
{
	switch (op) {
	case DIFF_EDIT_SAME: return " ";
	case DIFF_EDIT_CHANGED: return "~";
	case DIFF_EDIT_DELETED: return "-";
	case DIFF_EDIT_INSERTED: return "+";
	}
	return "?";
}

static const char *op_name(enum diff_edit_op op)
{
	switch (op) {
	case DIFF_EDIT_SAME: return "same";
	case DIFF_EDIT_CHANGED: return "changed";
	case DIFF_EDIT_DELETED: return "only_a";
	case DIFF_EDIT_INSERTED: return "only_b";
	}
	return "?";
}

static bool field_eq(const struct diff_field *x, const struct diff_field *y)
{
	return x->reg == y->reg && x->a == y->a && x->b == y->b &&
	       ((!x->field && !y->field) || (x->field && y->field && !strcmp(x->field, y->field)));
}

static bool seen_before(const struct calls_render *r, const struct diff_field *f)
{
	for (size_t i = 0; i < r->nprev; i++)
		if (field_eq(&r->prev[i], f))
			return true;
	return false;
}

static void value_text(char *out, size_t n, uint32_t v, const char *name, bool f32)
{
	if (name)
		snprintf(out, n, "%s", name);
	else if (f32)
		pm4_f32_text(v, out, n);
	else if (v <= 9)
		snprintf(out, n, "%" PRIu32, v);
	else
		snprintf(out, n, "%" PRIu32 " (0x%" PRIx32 ")", v, v);
}

/* "VGT_STRMOUT_VTX_STRIDE_0.STRIDE", "0x28b00" for unknown registers. */
static enum xt_rc text_call(struct calls_render *r, const struct diff_call *c)
{
	struct xt_buf *b = r->out;
	size_t shown = 0, repeated = 0;
	enum xt_rc rc = xt_buf_printf(b, "\ncall %" PRIu64 " %s:", c->call_no, c->function);
	if (!c->in_a || !c->in_b)
		return rc ? rc : xt_buf_printf(b, " artefacts in run %s only\n", c->in_a ? "A" : "B");
	const char *sep = "";
	if (!rc && c->pm4_differs) {
		rc = xt_buf_printf(b, " %" PRIu32 " of %zu packets differ", c->packets_differ,
				   c->nedits);
		sep = ",";
	}
	if (!rc && c->regs_differ) {
		rc = xt_buf_printf(b, "%s %zu register field%s differ%s", sep, c->nfields,
				   c->nfields == 1 ? "" : "s", c->nfields == 1 ? "s" : "");
		sep = ",";
	}
	if (!rc && c->shader_differs)
		rc = xt_buf_printf(b, "%s shader of program %" PRIu32 " / %" PRIu32 " differs", sep,
				   c->program_a, c->program_b);
	rc = rc ? rc : xt_buf_append(b, "\n", 1);
	for (size_t i = 0; !rc && i < c->nfields; i++) {
		char t[160], va[96], vb[96];
		if (seen_before(r, &c->fields[i])) {
			repeated++;
			continue;
		}
		if (r->limit && shown++ >= r->limit)
			continue;
		diff_field_name(&c->fields[i], t, sizeof t);
		value_text(va, sizeof va, c->fields[i].a, c->fields[i].a_name, c->fields[i].f32);
		value_text(vb, sizeof vb, c->fields[i].b, c->fields[i].b_name, c->fields[i].f32);
		rc = xt_buf_printf(b, "    %s %s -> %s\n", t, c->fields[i].in_a ? va : "(unset)",
				   c->fields[i].in_b ? vb : "(unset)");
	}
	if (!rc && repeated)
		rc = xt_buf_printf(b, "    (%zu register field%s differ as at the call before)\n",
				   repeated, repeated == 1 ? "" : "s");
	if (!rc && r->limit && shown > r->limit)
		rc = xt_buf_printf(b, "    (%zu more fields)\n", shown - r->limit);
	shown = 0;
	for (size_t i = 0; !rc && i < c->nedits; i++) {
		const struct diff_edit *e = &c->edits[i];
		if (e->op == DIFF_EDIT_SAME || (r->limit && shown++ >= r->limit))
			continue;
		const struct diff_packet *p = e->a >= 0 ? &c->packets_a[e->a] : &c->packets_b[e->b];
		char reg[80] = "";
		if (p->reg) {
			const struct pm4_reg_info *ri = pm4_reg_by_offset(p->reg);
			snprintf(reg, sizeof reg, " %s", ri ? ri->name : "");
		}
		rc = xt_buf_printf(b, "    %s packet %d %s%s (dwords", op_mark(e->op),
				   e->a >= 0 ? e->a : e->b, p->name, reg);
		if (!rc && e->a >= 0)
			rc = xt_buf_printf(b, " A %" PRIu32 "..%" PRIu32, c->packets_a[e->a].offset_dw,
					   c->packets_a[e->a].offset_dw + c->packets_a[e->a].size_dw - 1);
		if (!rc && e->b >= 0)
			rc = xt_buf_printf(b, " B %" PRIu32 "..%" PRIu32, c->packets_b[e->b].offset_dw,
					   c->packets_b[e->b].offset_dw + c->packets_b[e->b].size_dw - 1);
		rc = rc ? rc : xt_buf_append(b, ")\n", 2);
	}
	shown = 0;
	for (size_t i = 0; !rc && i < c->nshader_edits; i++) {
		const struct diff_edit *e = &c->shader_edits[i];
		if (e->op == DIFF_EDIT_SAME || (r->limit && shown++ >= r->limit))
			continue;
		rc = xt_buf_printf(b, "    shader %s line %d\n", op_mark(e->op),
				   (e->a >= 0 ? e->a : e->b) + 1);
	}
	return rc;
}

static enum xt_rc json_call(struct calls_render *r, const struct diff_call *c)
{
	struct xt_jw *w = &r->jw;

	xt_jw_obj(w);
	xt_jw_ku64(w, "call", c->call_no);
	xt_jw_kstr(w, "function", c->function);
	xt_jw_kbool(w, "in_a", c->in_a);
	xt_jw_kbool(w, "in_b", c->in_b);
	xt_jw_kbool(w, "pm4_differs", c->pm4_differs);
	xt_jw_ku64(w, "packets_differ", c->packets_differ);
	xt_jw_kbool(w, "regs_differ", c->regs_differ);
	xt_jw_kbool(w, "shader_differs", c->shader_differs);
	xt_jw_karr(w, "fields");
	for (size_t i = 0; i < c->nfields && (!r->limit || i < r->limit); i++)
		diff_field_json(w, &c->fields[i], true);
	xt_jw_end(w);
	xt_jw_karr(w, "packets");
	for (size_t i = 0, shown = 0; i < c->nedits; i++) {
		const struct diff_edit *e = &c->edits[i];
		if (e->op == DIFF_EDIT_SAME || (r->limit && shown++ >= r->limit))
			continue;
		const struct diff_packet *p = e->a >= 0 ? &c->packets_a[e->a] : &c->packets_b[e->b];
		xt_jw_obj(w);
		xt_jw_kstr(w, "op", op_name(e->op));
		xt_jw_kstr(w, "name", p->name);
		xt_jw_ki64(w, "a", e->a);
		xt_jw_ki64(w, "b", e->b);
		xt_jw_end(w);
	}
	xt_jw_end(w);
	xt_jw_end(w);
	return w->rc;
}

static enum xt_rc on_call(const struct diff_call *c, void *ctx)
{
	struct calls_render *r = ctx;
	enum xt_rc rc = r->json ? json_call(r, c) : text_call(r, c);
	if (rc)
		return r->rc = rc;
	if (c->nfields || (c->in_a && c->in_b)) {
		struct diff_field *p = c->nfields ? malloc(c->nfields * sizeof *p) : NULL;
		if (c->nfields && !p)
			return r->rc = XT_ERR_NOMEM;
		if (p)
			memcpy(p, c->fields, c->nfields * sizeof *p);
		free(r->prev);
		r->prev = p;
		r->nprev = c->nfields;
	}
	return XT_OK;
}

enum xt_rc cli_diff_calls_render(struct db *db, int64_t run_a, int64_t run_b, unsigned what,
				 bool json, uint32_t limit, struct xt_buf *out, bool *differ,
				 struct xt_err *err)
{
	struct calls_render r = { .json = json, .limit = limit, .out = out };
	struct diff_calls_summary s;
	struct xt_buf body = XT_BUF_INIT;
	enum xt_rc rc;

	r.out = &body;
	if (json) {
		xt_jw_init(&r.jw, &body);
		xt_jw_arr(&r.jw);
	}
	rc = diff_calls(db, run_a, run_b, what, on_call, &r, &s, err);
	if (!rc && json) {
		xt_jw_end(&r.jw);
		rc = r.rc = xt_jw_done(&r.jw);
	}
	free(r.prev);
	if (rc && r.rc)
		rc = XT_FAIL(err, r.rc, "out of memory rendering call differences");
	if (rc) {
		xt_buf_fini(&body);
		return rc;
	}
	*differ = s.differ > 0;
	if (json) {
		struct xt_jw w;
		xt_jw_init(&w, out);
		xt_jw_obj(&w);
		xt_jw_ku64(&w, "with_artifacts_a", s.calls_a);
		xt_jw_ku64(&w, "with_artifacts_b", s.calls_b);
		xt_jw_ku64(&w, "compared", s.compared);
		xt_jw_ku64(&w, "differ", s.differ);
		xt_jw_ku64(&w, "pm4_differ", s.pm4_differ);
		xt_jw_ku64(&w, "regs_differ", s.regs_differ);
		xt_jw_ku64(&w, "shader_differ", s.shader_differ);
		if (s.diverged) {
			xt_jw_kobj(&w, "first_divergent");
			xt_jw_ku64(&w, "call", s.first_call);
			xt_jw_kstr(&w, "function", s.first_function);
			xt_jw_end(&w);
		} else {
			xt_jw_knull(&w, "first_divergent");
		}
		xt_jw_key(&w, "differing");
		xt_jw_rawn(&w, (const char *)body.data, body.len);
		xt_jw_end(&w);
		rc = xt_jw_done(&w);
	} else {
		rc = xt_buf_printf(out, "\ncalls: %" PRIu64 " with artefacts in A, %" PRIu64
				   " in B; %" PRIu64 " differ (PM4 %" PRIu64 ", registers %" PRIu64
				   ", shaders %" PRIu64 ")\n", s.calls_a, s.calls_b, s.differ,
				   s.pm4_differ, s.regs_differ, s.shader_differ);
		if (!rc && s.diverged)
			rc = xt_buf_printf(out, "first divergent call: %" PRIu64 " %s\n", s.first_call,
					   s.first_function);
		else if (!rc && !s.calls_a && !s.calls_b)
			rc = xt_buf_printf(out, "note: neither run has per-call artefacts (only sim "
					   "runs recorded with --db have them)\n");
		rc = rc ? rc : xt_buf_append(out, body.data, body.len);
	}
	xt_buf_fini(&body);
	if (rc)
		rc = XT_FAIL(err, rc, "out of memory rendering call differences");
	return rc;
}
