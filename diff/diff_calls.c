/*
 * diff_calls.c - comparing the per-call artefacts of two sim runs of one
 * trace (docs/db.md "call_artifacts"): PM4 packets as an edit script
 * (diff_align.c), register state field by field (diff_regs.c), the shader
 * disassembly of the program drawn with, line by line.
 *
 * Calls align by call number: two runs of one trace replay the same calls.
 * Each run's artefact rows are read once into an array (a few dozen bytes
 * per call with PM4), then merged.  Blob hashes decide equality, so a call
 * whose three hashes match costs nothing; only differing blobs are read
 * and decoded.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "xt_fault.h"

struct row {
	uint64_t call_no;
	char *function;
	char pm4[33], regs[33];   /* "" when none */
	uint32_t program;
};

struct rows {
	struct row *v;
	size_t n, cap;
	bool nomem;
};

static enum xt_rc collect(const struct db_call_art_row *r, void *ctx)
{
	struct rows *rs = ctx;
	if (r->frame_end && !r->pm4_hash && !r->regs_hash)
		return XT_OK;   /* a frame marker: nothing to compare */
	if (rs->n == rs->cap) {
		size_t c = rs->cap ? rs->cap * 2 : 256;
		struct row *p = xt_realloc(rs->v, c * sizeof *p);
		if (!p)
			return XT_ERR_NOMEM;
		rs->v = p;
		rs->cap = c;
	}
	struct row *w = &rs->v[rs->n];
	*w = (struct row){ .call_no = r->call_no, .program = r->program };
	w->function = xt_strdup(r->function);
	if (!w->function)
		return XT_ERR_NOMEM;
	snprintf(w->pm4, sizeof w->pm4, "%s", r->pm4_hash ? r->pm4_hash : "");
	snprintf(w->regs, sizeof w->regs, "%s", r->regs_hash ? r->regs_hash : "");
	rs->n++;
	return XT_OK;
}

static void rows_fini(struct rows *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		free(rs->v[i].function);
	free(rs->v);
}

/* The state of one comparison: the database and scratch buffers. */
struct cmp {
	struct db *db;
	int64_t run_a, run_b;
	unsigned what;
	struct xt_err *err;
	struct xt_buf ba, bb;           /* blobs of A and B */
	struct xt_buf sa, sb;           /* shader texts, NUL-terminated */
};

static enum xt_rc db_fail(struct cmp *c)
{
	xt_err_copy(c->err, db_err(c->db));
	return c->err->rc ? c->err->rc : XT_ERR_INTERNAL;
}

static enum xt_rc get_blob(struct cmp *c, const char *hash, struct xt_buf *out)
{
	xt_buf_reset(out);
	if (!*hash)
		return XT_OK;
	return db_blob_get(c->db, hash, out) ? db_fail(c) : XT_OK;
}

struct pm4_same_ctx {
	const uint32_t *a, *b;
	const struct diff_packet *pa, *pb;
};

static bool packet_same(size_t i, size_t j, void *ctx)
{
	struct pm4_same_ctx *s = ctx;
	return s->pa[i].size_dw == s->pb[j].size_dw &&
	       !memcmp(s->a + s->pa[i].offset_dw, s->b + s->pb[j].offset_dw, s->pa[i].size_dw * 4u);
}

/* Lines of a text: start offsets and FNV-1a keys. */
struct lines {
	const char *text;
	size_t n;
	uint32_t *key;
	size_t *start, *len;
};

static enum xt_rc lines_split(const char *text, size_t bytes, struct lines *l)
{
	size_t n = 0;
	*l = (struct lines){ .text = text };
	for (size_t i = 0; i < bytes; i++)
		n += text[i] == '\n';
	n += bytes && text[bytes - 1] != '\n';
	l->key = xt_calloc(n + 1, sizeof *l->key);
	l->start = xt_calloc(n + 1, sizeof *l->start);
	l->len = xt_calloc(n + 1, sizeof *l->len);
	if (!l->key || !l->start || !l->len)
		return XT_ERR_NOMEM;
	for (size_t i = 0, s = 0; i < bytes; i++) {
		if (text[i] != '\n' && i + 1 != bytes)
			continue;
		size_t e = text[i] == '\n' ? i : i + 1;
		uint32_t h = 2166136261u;
		for (size_t k = s; k < e; k++)
			h = (h ^ (uint8_t)text[k]) * 16777619u;
		l->start[l->n] = s;
		l->len[l->n] = e - s;
		l->key[l->n++] = h;
		s = i + 1;
	}
	return XT_OK;
}

static void lines_fini(struct lines *l)
{
	free(l->key);
	free(l->start);
	free(l->len);
}

struct line_same_ctx {
	const struct lines *a, *b;
};

static bool line_same(size_t i, size_t j, void *ctx)
{
	struct line_same_ctx *s = ctx;
	return s->a->len[i] == s->b->len[j] &&
	       !memcmp(s->a->text + s->a->start[i], s->b->text + s->b->start[j], s->a->len[i]);
}

static enum xt_rc get_shader(struct cmp *c, int64_t run, uint32_t program, struct xt_buf *out,
			     char hash[33])
{
	xt_buf_reset(out);
	*hash = 0;
	if (!program)
		return XT_OK;
	enum xt_rc rc = db_shader_hash(c->db, run, program, hash);
	if (rc == XT_ERR_NOT_FOUND) {
		*hash = 0;
		return XT_OK;
	}
	if (rc || db_blob_get(c->db, hash, out))
		return db_fail(c);
	return xt_buf_append(out, "", 1);
}

/*
 * Compares call row a (may be NULL) with b (may be NULL) and reports it to
 * cb when anything differs, or always when `always`.
 */
static enum xt_rc compare_call(struct cmp *c, const struct row *a, const struct row *b,
			       bool always, diff_call_cb cb, void *ctx, struct diff_calls_summary *sum)
{
	struct diff_call d = {
		.call_no = a ? a->call_no : b->call_no,
		.function = a ? a->function : b->function,
		.in_a = a != NULL, .in_b = b != NULL,
		.program_a = a ? a->program : 0, .program_b = b ? b->program : 0,
	};
	struct diff_packet *pa = NULL, *pb = NULL;
	struct diff_edit *edits = NULL, *sedits = NULL;
	struct diff_field *fields = NULL;
	struct lines la = { 0 }, lb = { 0 };
	enum xt_rc rc = XT_OK;

	if ((c->what & DIFF_CALLS_PM4) && (!a || !b || strcmp(a->pm4, b->pm4) || always)) {
		rc = get_blob(c, a ? a->pm4 : "", &c->ba);
		rc = rc ? rc : get_blob(c, b ? b->pm4 : "", &c->bb);
		d.pm4_a = (const uint32_t *)c->ba.data;
		d.pm4_b = (const uint32_t *)c->bb.data;
		d.pm4_dw_a = (uint32_t)(c->ba.len / 4);
		d.pm4_dw_b = (uint32_t)(c->bb.len / 4);
		rc = rc ? rc : diff_pm4_split(d.pm4_a, d.pm4_dw_a, &pa, &d.npackets_a);
		rc = rc ? rc : diff_pm4_split(d.pm4_b, d.pm4_dw_b, &pb, &d.npackets_b);
		uint32_t *ka = rc ? NULL : xt_calloc(d.npackets_a + 1, sizeof *ka);
		uint32_t *kb = rc ? NULL : xt_calloc(d.npackets_b + 1, sizeof *kb);
		if (!rc && (!ka || !kb))
			rc = XT_ERR_NOMEM;
		for (size_t i = 0; !rc && i < d.npackets_a; i++)
			ka[i] = pa[i].key;
		for (size_t i = 0; !rc && i < d.npackets_b; i++)
			kb[i] = pb[i].key;
		struct pm4_same_ctx sc = { d.pm4_a, d.pm4_b, pa, pb };
		rc = rc ? rc : diff_align(ka, d.npackets_a, kb, d.npackets_b, packet_same, &sc,
					  &edits, &d.nedits);
		free(ka);
		free(kb);
		d.packets_a = pa;
		d.packets_b = pb;
		d.edits = edits;
		for (size_t i = 0; !rc && i < d.nedits; i++)
			d.packets_differ += edits[i].op != DIFF_EDIT_SAME;
		d.pm4_differs = d.packets_differ > 0;
	}
	if (!rc && (c->what & DIFF_CALLS_REGS) && a && b && strcmp(a->regs, b->regs)) {
		struct xt_buf ra, rb;
		xt_buf_init(&ra);
		xt_buf_init(&rb);
		rc = get_blob(c, a->regs, &ra);
		rc = rc ? rc : get_blob(c, b->regs, &rb);
		rc = rc ? rc : diff_regs_compare((const uint32_t *)ra.data, ra.len / 8,
						 (const uint32_t *)rb.data, rb.len / 8, &fields,
						 &d.nfields);
		xt_buf_fini(&ra);
		xt_buf_fini(&rb);
		d.fields = fields;
		d.regs_differ = d.nfields > 0;
	}
	if (!rc && (c->what & DIFF_CALLS_SHADERS) && a && b && (a->program || b->program)) {
		char ha[33], hb[33];
		rc = get_shader(c, c->run_a, a->program, &c->sa, ha);
		rc = rc ? rc : get_shader(c, c->run_b, b->program, &c->sb, hb);
		if (!rc && (strcmp(ha, hb) || always)) {
			d.shader_a = c->sa.len ? (const char *)c->sa.data : NULL;
			d.shader_b = c->sb.len ? (const char *)c->sb.data : NULL;
			rc = lines_split(d.shader_a ? d.shader_a : "", c->sa.len ? c->sa.len - 1 : 0, &la);
			rc = rc ? rc : lines_split(d.shader_b ? d.shader_b : "",
						   c->sb.len ? c->sb.len - 1 : 0, &lb);
			struct line_same_ctx lc = { &la, &lb };
			rc = rc ? rc : diff_align(la.key, la.n, lb.key, lb.n, line_same, &lc, &sedits,
						  &d.nshader_edits);
			for (size_t i = 0; !rc && i < d.nshader_edits; i++)
				d.shader_differs |= sedits[i].op != DIFF_EDIT_SAME;
			d.shader_edits = sedits;
		}
	}
	if (rc == XT_ERR_NOMEM && c->err->rc == XT_OK)
		rc = XT_FAIL(c->err, XT_ERR_NOMEM, "out of memory comparing call %" PRIu64, d.call_no);
	bool differs = !a || !b || d.pm4_differs || d.regs_differ || d.shader_differs;
	if (!rc && differs && sum) {
		sum->differ++;
		sum->pm4_differ += d.pm4_differs;
		sum->regs_differ += d.regs_differ;
		sum->shader_differ += d.shader_differs;
		if (!sum->diverged) {
			sum->diverged = true;
			sum->first_call = d.call_no;
			snprintf(sum->first_function, sizeof sum->first_function, "%s", d.function);
		}
	}
	if (!rc && cb && (differs || always))
		rc = cb(&d, ctx);
	lines_fini(&la);
	lines_fini(&lb);
	free(pa);
	free(pb);
	free(edits);
	free(sedits);
	free(fields);
	return rc;
}

static enum xt_rc cmp_open(struct cmp *c, struct db *db, int64_t run_a, int64_t run_b,
			   unsigned what, struct xt_err *err)
{
	struct db_run_info ra, rb;
	struct xt_arena arena;
	enum xt_rc rc;

	*c = (struct cmp){ .db = db, .run_a = run_a, .run_b = run_b, .what = what, .err = err };
	xt_buf_init(&c->ba);
	xt_buf_init(&c->bb);
	xt_buf_init(&c->sa);
	xt_buf_init(&c->sb);
	xt_arena_init(&arena, 4096);
	rc = db_run_get(db, run_a, &ra, &arena);
	rc = rc ? rc : db_run_get(db, run_b, &rb, &arena);
	if (rc)
		rc = db_fail(c);
	else if (ra.trace_id != rb.trace_id)
		rc = XT_FAIL(err, XT_ERR_INVALID,
			     "run %" PRId64 " is of trace %s, run %" PRId64 " of trace %s:"
			     " only runs of the same trace can be compared", run_a, ra.trace_hash,
			     run_b, rb.trace_hash);
	xt_arena_fini(&arena);
	return rc;
}

static void cmp_close(struct cmp *c)
{
	xt_buf_fini(&c->ba);
	xt_buf_fini(&c->bb);
	xt_buf_fini(&c->sa);
	xt_buf_fini(&c->sb);
}

enum xt_rc diff_calls(struct db *db, int64_t run_a, int64_t run_b, unsigned what,
		      diff_call_cb cb, void *ctx, struct diff_calls_summary *sum,
		      struct xt_err *err)
{
	struct rows ra = { 0 }, rb = { 0 };
	struct cmp c;
	enum xt_rc rc;

	memset(sum, 0, sizeof *sum);
	rc = cmp_open(&c, db, run_a, run_b, what, err);
	if (!rc && (rc = db_call_art_list(db, run_a, 0, 0, collect, &ra)) != XT_OK)
		rc = rc == XT_ERR_NOMEM && !db_err(db)->rc
		     ? XT_FAIL(err, rc, "out of memory reading run %" PRId64, run_a) : db_fail(&c);
	if (!rc && (rc = db_call_art_list(db, run_b, 0, 0, collect, &rb)) != XT_OK)
		rc = rc == XT_ERR_NOMEM && !db_err(db)->rc
		     ? XT_FAIL(err, rc, "out of memory reading run %" PRId64, run_b) : db_fail(&c);
	sum->calls_a = ra.n;
	sum->calls_b = rb.n;
	for (size_t i = 0, j = 0; !rc && (i < ra.n || j < rb.n);) {
		const struct row *a = i < ra.n ? &ra.v[i] : NULL, *b = j < rb.n ? &rb.v[j] : NULL;
		if (a && b && a->call_no == b->call_no) {
			sum->compared++;
			if (strcmp(a->pm4, b->pm4) || strcmp(a->regs, b->regs) || a->program != b->program ||
			    (what & DIFF_CALLS_SHADERS))
				rc = compare_call(&c, a, b, false, cb, ctx, sum);
			i++;
			j++;
		} else if (a && (!b || a->call_no < b->call_no)) {
			rc = compare_call(&c, a, NULL, false, cb, ctx, sum);
			i++;
		} else {
			rc = compare_call(&c, NULL, b, false, cb, ctx, sum);
			j++;
		}
	}
	rows_fini(&ra);
	rows_fini(&rb);
	cmp_close(&c);
	return rc;
}

static enum xt_rc one_row(const struct db_call_art_row *r, void *ctx)
{
	return collect(r, ctx);
}

enum xt_rc diff_call_one(struct db *db, int64_t run_a, int64_t run_b, uint64_t call_no,
			 unsigned what, diff_call_cb cb, void *ctx, struct xt_err *err)
{
	struct rows ra = { 0 }, rb = { 0 };
	struct cmp c;
	enum xt_rc rc = cmp_open(&c, db, run_a, run_b, what, err);

	if (!rc && db_call_art_list(db, run_a, call_no, 1, one_row, &ra))
		rc = db_fail(&c);
	if (!rc && db_call_art_list(db, run_b, call_no, 1, one_row, &rb))
		rc = db_fail(&c);
	const struct row *a = ra.n && ra.v[0].call_no == call_no ? &ra.v[0] : NULL;
	const struct row *b = rb.n && rb.v[0].call_no == call_no ? &rb.v[0] : NULL;
	if (!rc && !a && !b)
		rc = XT_FAIL(err, XT_ERR_NOT_FOUND, "neither run has artefacts for call %" PRIu64,
			     call_no);
	if (!rc)
		rc = compare_call(&c, a, b, true, cb, ctx, NULL);
	rows_fini(&ra);
	rows_fini(&rb);
	cmp_close(&c);
	return rc;
}
