/*
 * cli_diff.c - `xfbtrace diff`: compare two runs of a trace stored in a
 * results database, for people (aligned text, colour on a terminal) or for
 * scripts (--json).  The comparison itself is diff/'s; this file only
 * parses options and renders.
 *
 * The summary comes first, but is known only at the end, so the details
 * are rendered into a buffer while diff_runs() reports them and printed
 * after the summary.  The buffer holds at most --limit differences per
 * observation.
 *
 * Exit status: 0 same, 1 different, 2 error (cli.h).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_diff_calls.h"
#include "diff.h"
#include "xt_json.h"

#define CMD "diff"
#define DEFAULT_LIMIT 20

struct render {
	bool json;
	bool colour;
	int64_t run_a, run_b;
	struct xt_buf body;       /* text; JSON: the array of observations */
	struct xt_jw jw;          /* JSON: the writer of body */
	bool first_obs;
	bool last_one_sided;      /* text: the previous observation was */
	enum xt_rc rc;            /* the first rendering failure */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace diff [--db FILE] [--json] [--tolerance ulps=N|abs=X[,ulps=N]]\n"
		"                     [--image-tolerance max=X,pixels=N] [--limit N]\n"
		"                     [--strict] [--pm4] [--regs] [--shaders]\n"
		"                     [--color=WHEN] RUN_A RUN_B\n"
		"\n"
		"Compares the observations of two runs of the same trace (ids from\n"
		"'xfbtrace runs'), aligned by call number, kind and index.  TF buffers\n"
		"are decoded with the program's TF layout into vertices, varyings and\n"
		"components; images (glReadPixels) pixel by pixel; query results and\n"
		"other fields are compared exactly.  A query is named by its target (and\n"
		"vertex stream), as the trace's calls set it: shown, not compared.\n"
		"Integers of 28 bits or more are also shown in hex.\n"
		"\n"
		"  --db FILE          the results database (default: $XFBTRACE_DB)\n"
		"  --json             one JSON object, for scripts\n"
		"  --tolerance T      ulps=N: floats may differ by N units in the last\n"
		"                     place; abs=X: by X; abs=X,ulps=N: by either (X near\n"
		"                     zero, N for large values).  Then +0.0 equals -0.0 and any\n"
		"                     NaN equals any NaN.  Default: bit for bit\n"
		"  --image-tolerance T\n"
		"                     max=X: pixels whose values differ by at most X (in\n"
		"                     the type's units, 0..255 for GL_UNSIGNED_BYTE) are\n"
		"                     within it; pixels=N: an image with at most N pixels\n"
		"                     beyond that counts as the same.  Default: exact\n"
		"  --limit N          differences shown per observation (default %d,\n"
		"                     0: all); all are counted\n"
		"  --strict           count as differences also those that 'replay --check\n"
		"                     --db' classified undefined, implementation-dependent\n"
		"                     or precision against the golden run (as its --strict)\n"
		"  --pm4              also compare the PM4 each call submitted (sim runs),\n"
		"                     packet by packet (an edit script over decoded packets)\n"
		"  --regs             also compare the register state after each call, field\n"
		"                     by field, and name the first divergent call (registers\n"
		"                     the database types f32 as floats: 0.5f (0x3f000000))\n"
		"  --shaders          also compare the shader disassembly of each draw's program\n"
		"  --color=WHEN       auto (default: on a terminal without NO_COLOR), always,\n"
		"                     never\n"
		"\n"
		"exit status: 0 same, 1 different, 2 error\n", DEFAULT_LIMIT);
}

static const char *scalar_name(enum trace_tol_scalar s)
{
	switch (s) {
	case TRACE_TOL_F32: return "float";
	case TRACE_TOL_F64: return "double";
	case TRACE_TOL_I32: return "int";
	case TRACE_TOL_U32: return "uint";
	}
	return "?";
}

static const char *why_name(enum trace_tol_why w)
{
	switch (w) {
	case TRACE_TOL_WHY_VALUE: return "value";
	case TRACE_TOL_WHY_ZERO_SIGN: return "zero-sign";
	case TRACE_TOL_WHY_NAN_PAYLOAD: return "nan-payload";
	case TRACE_TOL_WHY_NAN: return "nan";
	}
	return "?";
}

static double as_double(enum trace_tol_scalar s, uint64_t bits)
{
	float f;
	double d;
	uint32_t b32 = (uint32_t)bits;
	switch (s) {
	case TRACE_TOL_F32: memcpy(&f, &b32, 4); return f;
	case TRACE_TOL_F64: memcpy(&d, &bits, 8); return d;
	case TRACE_TOL_I32: return (int32_t)b32;
	case TRACE_TOL_U32: return b32;
	}
	return 0;
}

/* "0.5 (0x3f000000)", "-3" ... */
static void value_text(char *out, size_t n, enum trace_tol_scalar s, uint64_t bits)
{
	switch (s) {
	case TRACE_TOL_F32:
		snprintf(out, n, "%.9g (0x%08" PRIx32 ")", as_double(s, bits), (uint32_t)bits);
		break;
	case TRACE_TOL_F64:
		snprintf(out, n, "%.17g (0x%016" PRIx64 ")", as_double(s, bits), bits);
		break;
	case TRACE_TOL_I32: snprintf(out, n, "%" PRId32, (int32_t)(uint32_t)bits); break;
	case TRACE_TOL_U32: snprintf(out, n, "%" PRIu32, (uint32_t)bits); break;
	}
}

static void delta_text(char *out, size_t n, const struct diff_item *it)
{
	switch (it->why) {
	case TRACE_TOL_WHY_ZERO_SIGN: snprintf(out, n, "sign of zero"); return;
	case TRACE_TOL_WHY_NAN_PAYLOAD: snprintf(out, n, "NaN payload"); return;
	case TRACE_TOL_WHY_NAN: snprintf(out, n, "NaN vs number"); return;
	case TRACE_TOL_WHY_VALUE: break;
	}
	if (it->ulps != UINT64_MAX)
		snprintf(out, n, "%+.3g (%" PRIu64 " ulp%s)", it->delta, it->ulps,
			 it->ulps == 1 ? "" : "s");
	else
		snprintf(out, n, "%+.17g", it->delta);
}

static const char *obs_title(char *out, size_t n, const struct diff_obs *d)
{
	char buffer[160] = "";
	if (d->buffer >= 0)
		snprintf(buffer, sizeof buffer, " (buffer %" PRId64 ")", d->buffer);
	else if (d->query_target && d->query_stream >= 0)
		snprintf(buffer, sizeof buffer, " (query %" PRId64 ": %.80s, stream %" PRId64 ")",
			 d->query, d->query_target, d->query_stream);
	else if (d->query_target)
		snprintf(buffer, sizeof buffer, " (query %" PRId64 ": %.80s)", d->query,
			 d->query_target);
	snprintf(out, n, "call %" PRIu64 " %s  %s #%u%s", d->call_no,
		 d->function ? d->function : "(unknown function)", d->kind, d->index, buffer);
	return out;
}

/* " (0xffffffff)" for a field value that is an integer of 28 bits or more
 * (a sentinel-like value: 0xdeadbeef, ~0u), else "". */
static const char *sentinel_hex(const char *json, char out[24])
{
	char *end;
	out[0] = '\0';
	if (!json || !*json || (*json != '-' && (*json < '0' || *json > '9')))
		return out;
	errno = 0;
	long long v = strtoll(json, &end, 10);
	if (errno || *end || (v < 0x10000000 && v > -0x10000000))
		return out;
	if (v < 0 && v >= INT32_MIN)
		snprintf(out, 24, " (0x%x)", (unsigned)(int32_t)v);
	else
		snprintf(out, 24, " (0x%llx)", (unsigned long long)v);
	return out;
}

static enum xt_rc text_item(struct render *r, const struct diff_item *it)
{
	struct xt_buf *b = &r->body;
	char va[64], vb[64], dt[64], name[160];
	const char *red = r->colour ? "\033[31m" : "", *green = r->colour ? "\033[32m" : "";
	const char *off = r->colour ? "\033[0m" : "";

	switch (it->kind) {
	case DIFF_ITEM_COMPONENT: {
		const char *dot = *it->component_name == '[' || !*it->component_name ? "" : ".";
		char prim[24] = "-";
		value_text(va, sizeof va, it->scalar, it->a);
		value_text(vb, sizeof vb, it->scalar, it->b);
		delta_text(dt, sizeof dt, it);
		if (it->element >= 0)
			snprintf(name, sizeof name, "%s[%" PRId64 "]%s%s", it->varying, it->element,
				 dot, it->component_name);
		else
			snprintf(name, sizeof name, "%s%s%s", it->varying, dot, it->component_name);
		if (it->primitive >= 0)
			snprintf(prim, sizeof prim, "%" PRId64, it->primitive);
		return xt_buf_printf(b, "  %8" PRIu64 "  %6s  %-24s %s%-30s%s %s%-30s%s %s\n",
				     it->vertex, prim, name, red, va, off, green, vb, off, dt);
	}
	case DIFF_ITEM_BYTES:
		return xt_buf_printf(b, "  bytes %" PRIu64 "-%" PRIu64 " (no varying): %" PRIu64
				     " differ, first %s0x%02" PRIx64 "%s vs %s0x%02" PRIx64 "%s\n",
				     it->byte_offset, it->byte_offset + it->byte_count - 1,
				     it->byte_count, red, it->a, off, green, it->b, off);
	case DIFF_ITEM_FIELD: {
		char ha[24], hb[24];
		return xt_buf_printf(b, "  %s: %s%s%s%s -> %s%s%s%s\n", it->field, red,
				     it->a_text ? it->a_text : "(absent)", sentinel_hex(it->a_text, ha),
				     off, green, it->b_text ? it->b_text : "(absent)",
				     sentinel_hex(it->b_text, hb), off);
	}
	case DIFF_ITEM_SIZE:
		return xt_buf_printf(b, "  data size: %" PRIu64 " vs %" PRIu64 " bytes (the common"
				     " part is compared)\n", it->a, it->b);
	case DIFF_ITEM_DATA:
		return xt_buf_printf(b, "  data: only in run %" PRId64 "\n", it->a ? r->run_a : r->run_b);
	case DIFF_ITEM_LAYOUT:
		return xt_buf_printf(b, "  TF layout differs (layout %" PRIu64 " vs %" PRIu64
				     "); run %" PRId64 "'s decodes both\n", it->a, it->b, r->run_a);
	case DIFF_ITEM_PIXEL: {
		char pa[96] = "", pb[96] = "";
		for (uint32_t k = 0, na = 0, nb = 0; k < it->channels && k < 4; k++) {
			na += (uint32_t)snprintf(pa + na, sizeof pa - na, "%s%g", k ? " " : "", it->pixel_a[k]);
			nb += (uint32_t)snprintf(pb + nb, sizeof pb - nb, "%s%g", k ? " " : "", it->pixel_b[k]);
		}
		return xt_buf_printf(b, "  pixel (%" PRId64 ", %" PRId64 "): %s%s%s vs %s%s%s%s\n",
				     it->x, it->y, red, pa, off, green, pb, off,
				     it->over ? "" : " (within the image tolerance's max)");
	}
	}
	return XT_OK;
}

/* The verdicts `replay --check` stored, one line per side that has one;
 * between the golden run and another, only the classifying side. */
static enum xt_rc text_verdicts(struct render *r, const struct diff_obs *d)
{
	const char *cls[2] = { d->verdict_a_class, d->verdict_b_class };
	const char *why[2] = { d->verdict_a_reason, d->verdict_b_reason };
	enum xt_rc rc = XT_OK;
	for (int i = 0; i < 2 && !rc; i++) {
		if (!cls[i])
			continue;
		if (d->classified && !strcmp(cls[i], "not-drawn"))
			rc = xt_buf_printf(&r->body, "  not-drawn (run %" PRId64 " has no image; not "
					   "counted): %s\n", i ? r->run_b : r->run_a, why[i] ? why[i] : "");
		else if (d->classified && strcmp(cls[i], "differs"))
			rc = xt_buf_printf(&r->body, "  %s (replay --check of run %" PRId64 "; %s): %s\n",
					   cls[i], i ? r->run_b : r->run_a, d->excused ?
					   "not counted" : "counted: --strict", why[i] ? why[i] : "");
		else if (!d->classified)
			rc = xt_buf_printf(&r->body, "  run %s: replay --check said %s: %s\n",
					   i ? "B" : "A", cls[i], why[i] ? why[i] : "");
	}
	return rc;
}

static enum xt_rc text_obs(struct render *r, const struct diff_obs *d)
{
	struct xt_buf *b = &r->body;
	char title[256];
	bool header = false;
	enum xt_rc rc;

	obs_title(title, sizeof title, d);
	/* One-sided observations are one line each, in a block. */
	bool gap = r->first_obs || !r->last_one_sided || d->state == DIFF_OBS_DIFFERENT;
	r->first_obs = false;
	r->last_one_sided = d->state != DIFF_OBS_DIFFERENT;
	if (d->state != DIFF_OBS_DIFFERENT) {
		rc = xt_buf_printf(b, "%s%s%s%s: only in run %" PRId64 "\n", gap ? "\n" : "",
				   r->colour ? "\033[1m" : "", title, r->colour ? "\033[0m" : "",
				   d->state == DIFF_OBS_ONLY_A ? r->run_a : r->run_b);
		return rc ? rc : text_verdicts(r, d);
	}
	rc = xt_buf_printf(b, "\n%s%s%s", r->colour ? "\033[1m" : "", title, r->colour ? "\033[0m" : "");
	if (!rc && d->stride)
		rc = xt_buf_printf(b, ": %" PRIu64 " of %" PRIu64 " components differ (%" PRIu64
				   " vertices, stride %u)", d->components_differ,
				   d->components_compared, d->vertices, d->stride);
	if (!rc && d->width)
		rc = xt_buf_printf(b, ": %" PRIu64 " of %" PRIu64 " pixels differ (image %ux%u, %"
				   PRIu64 " beyond the image tolerance, largest difference %g)",
				   d->pixels_differ, (uint64_t)d->width * d->height, d->width,
				   d->height, d->pixels_over, d->pixel_max_delta);
	if (!rc && d->bytes_differ)
		rc = xt_buf_printf(b, "%s%" PRIu64 " bytes differ", d->stride ? "; " : ": ",
				   d->bytes_differ);
	rc = rc ? rc : xt_buf_append(b, "\n", 1);
	rc = rc ? rc : text_verdicts(r, d);
	if (!rc && d->note)
		rc = xt_buf_printf(b, "  note: %s\n", d->note);
	for (uint32_t i = 0; i < d->nitems && !rc; i++) {
		if (d->items[i].kind == DIFF_ITEM_COMPONENT && !header) {
			rc = xt_buf_printf(b, "%s  %8s  %6s  %-24s %-30s %-30s %s%s\n",
					   r->colour ? "\033[2m" : "", "vertex", "prim", "varying",
					   "run A", "run B", "difference", r->colour ? "\033[0m" : "");
			header = true;
		}
		rc = rc ? rc : text_item(r, &d->items[i]);
	}
	if (!rc && d->nitems < d->differences)
		rc = xt_buf_printf(b, "  ... %" PRIu64 " more (--limit 0 shows all)\n",
				   d->differences - d->nitems);
	return rc;
}

static void json_item(struct xt_jw *w, const struct diff_item *it)
{
	static const char *const what[] = { "component", "bytes", "field", "size", "data", "layout",
					    "pixel" };

	xt_jw_obj(w);
	xt_jw_kstr(w, "what", what[it->kind]);
	switch (it->kind) {
	case DIFF_ITEM_COMPONENT: {
		int single = it->scalar == TRACE_TOL_F32;
		xt_jw_ku64(w, "vertex", it->vertex);
		if (it->primitive >= 0)
			xt_jw_ki64(w, "primitive", it->primitive);
		else
			xt_jw_knull(w, "primitive");
		xt_jw_kstr(w, "varying", it->varying);
		if (it->element >= 0)
			xt_jw_ki64(w, "element", it->element);
		else
			xt_jw_knull(w, "element");
		xt_jw_ku64(w, "component", it->component);
		xt_jw_kstr(w, "component_name", it->component_name);
		xt_jw_kstr(w, "type", scalar_name(it->scalar));
		xt_jw_ku64(w, "byte_offset", it->byte_offset);
		xt_jw_knum(w, "a", as_double(it->scalar, it->a), single);
		xt_jw_knum(w, "b", as_double(it->scalar, it->b), single);
		if (it->scalar == TRACE_TOL_F32 || it->scalar == TRACE_TOL_F64) {
			int digits = it->scalar == TRACE_TOL_F32 ? 8 : 16;
			xt_jw_key(w, "a_bits");
			xt_jw_strf(w, "0x%0*" PRIx64, digits, it->a);
			xt_jw_key(w, "b_bits");
			xt_jw_strf(w, "0x%0*" PRIx64, digits, it->b);
		}
		xt_jw_knum(w, "difference", it->delta, 0);
		if (it->ulps != UINT64_MAX)
			xt_jw_ku64(w, "ulps", it->ulps);
		else
			xt_jw_knull(w, "ulps");
		xt_jw_kstr(w, "why", why_name(it->why));
		break;
	}
	case DIFF_ITEM_BYTES:
		xt_jw_ku64(w, "byte_offset", it->byte_offset);
		xt_jw_ku64(w, "byte_count", it->byte_count);
		xt_jw_ku64(w, "a", it->a);
		xt_jw_ku64(w, "b", it->b);
		break;
	case DIFF_ITEM_FIELD:
		xt_jw_kstr(w, "field", it->field);
		/* The values are JSON already. */
		xt_jw_kraw(w, "a", it->a_text);
		xt_jw_kraw(w, "b", it->b_text);
		xt_jw_kbool(w, "a_present", it->a_text != NULL);
		xt_jw_kbool(w, "b_present", it->b_text != NULL);
		break;
	case DIFF_ITEM_SIZE:
	case DIFF_ITEM_DATA:
	case DIFF_ITEM_LAYOUT:
		xt_jw_ku64(w, "a", it->a);
		xt_jw_ku64(w, "b", it->b);
		break;
	case DIFF_ITEM_PIXEL:
		xt_jw_ki64(w, "x", it->x);
		xt_jw_ki64(w, "y", it->y);
		xt_jw_karr(w, "a");
		for (uint32_t k = 0; k < it->channels && k < 4; k++)
			xt_jw_num(w, it->pixel_a[k], 0);
		xt_jw_end(w);
		xt_jw_karr(w, "b");
		for (uint32_t k = 0; k < it->channels && k < 4; k++)
			xt_jw_num(w, it->pixel_b[k], 0);
		xt_jw_end(w);
		xt_jw_kbool(w, "beyond_max", it->over);
		break;
	}
	xt_jw_end(w);
}

static enum xt_rc json_obs(struct render *r, const struct diff_obs *d)
{
	static const char *const state[] = { "different", "only_a", "only_b" };
	struct xt_jw *w = &r->jw;

	xt_jw_obj(w);
	xt_jw_ku64(w, "call", d->call_no);
	xt_jw_kstr(w, "function", d->function);
	xt_jw_kstr(w, "kind", d->kind);
	xt_jw_ku64(w, "index", d->index);
	if (d->buffer >= 0)
		xt_jw_ki64(w, "buffer", d->buffer);
	else
		xt_jw_knull(w, "buffer");
	if (d->query_target) {
		xt_jw_ki64(w, "query", d->query);
		xt_jw_kstr(w, "target", d->query_target);
		if (d->query_stream >= 0)
			xt_jw_ki64(w, "stream", d->query_stream);
	}
	xt_jw_kstr(w, "state", state[d->state]);
	xt_jw_ku64(w, "stride", d->stride);
	xt_jw_ku64(w, "vertices", d->vertices);
	xt_jw_ku64(w, "components_compared", d->components_compared);
	xt_jw_ku64(w, "components_differ", d->components_differ);
	xt_jw_ku64(w, "bytes_differ", d->bytes_differ);
	xt_jw_ku64(w, "fields_differ", d->fields_differ);
	if (d->width) {
		xt_jw_kobj(w, "image");
		xt_jw_ku64(w, "width", d->width);
		xt_jw_ku64(w, "height", d->height);
		xt_jw_ku64(w, "pixels_differ", d->pixels_differ);
		xt_jw_ku64(w, "pixels_beyond_max", d->pixels_over);
		xt_jw_knum(w, "largest_difference", d->pixel_max_delta, 0);
		xt_jw_end(w);
	}
	xt_jw_ku64(w, "differences_total", d->differences);
	xt_jw_kstr(w, "note", d->note);
	xt_jw_kbool(w, "classified", d->classified);
	xt_jw_kbool(w, "counted", !d->excused);
	xt_jw_kstr(w, "verdict_a_class", d->verdict_a_class);
	xt_jw_kstr(w, "verdict_a_reason", d->verdict_a_reason);
	xt_jw_kstr(w, "verdict_b_class", d->verdict_b_class);
	xt_jw_kstr(w, "verdict_b_reason", d->verdict_b_reason);
	xt_jw_karr(w, "differences");
	for (uint32_t i = 0; i < d->nitems; i++)
		json_item(w, &d->items[i]);
	xt_jw_end(w);
	xt_jw_end(w);
	return w->rc;
}

static enum xt_rc on_obs(const struct diff_obs *d, void *ctx)
{
	struct render *r = ctx;
	r->rc = r->json ? json_obs(r, d) : text_obs(r, d);
	return r->rc;
}

static void run_text(const struct db_run_info *ri, char *out, size_t n)
{
	snprintf(out, n, "run %" PRId64 "%s: %s %s%s%s%s%s%s%s", ri->id, ri->golden ? " (golden)" : "",
		 ri->backend, ri->revision, ri->gl_renderer ? ", " : "",
		 ri->gl_renderer ? ri->gl_renderer : "", ri->label ? ", label \"" : "",
		 ri->label ? ri->label : "", ri->label ? "\"" : "",
		 strcmp(ri->status, "ok") ? (!strcmp(ri->status, "failed") ? " [FAILED]"
									    : " [INCOMPLETE]") : "");
}

static void tolerance_text(const struct diff_options *o, char *out, size_t n)
{
	switch (o->tol.mode) {
	case TRACE_TOL_EXACT: snprintf(out, n, "exact (bit for bit)"); break;
	case TRACE_TOL_ULPS: snprintf(out, n, "%" PRIu64 " ulps", o->tol.ulps); break;
	case TRACE_TOL_ABS: snprintf(out, n, "absolute %g", o->tol.abs); break;
	case TRACE_TOL_ABS_OR_ULPS:
		snprintf(out, n, "absolute %g or %" PRIu64 " ulps", o->tol.abs, o->tol.ulps);
		break;
	}
	if (o->img_tol.max > 0 || o->img_tol.pixels > 0) {
		size_t k = strlen(out);
		snprintf(out + k, n - k, "; images: max %g, %" PRIu64 " pixels", o->img_tol.max,
			 o->img_tol.pixels);
	}
}

static void print_text(struct render *r, const struct db_run_info *a, const struct db_run_info *b,
		       const struct diff_options *o, const struct diff_summary *s, bool same)
{
	char ta[512], tb[512], tol[128];
	const char *bold = r->colour ? "\033[1m" : "", *off = r->colour ? "\033[0m" : "";
	run_text(a, ta, sizeof ta);
	run_text(b, tb, sizeof tb);
	tolerance_text(o, tol, sizeof tol);
	printf("A: %s\nB: %s\n", ta, tb);
	printf("trace %.12s %s\ntolerance: %s\n", a->trace_hash, a->program ? a->program : "", tol);
	printf("%sresult: %s%s%s: ", bold, r->colour ? (same ? "\033[32m" : "\033[31m") : "",
	       same ? "SAME" : "DIFFERENT", off);
	printf("%" PRIu64 " of %" PRIu64 " observations differ (%" PRIu64 " tf_buffer, %" PRIu64
	       " query), %" PRIu64 " only in A, %" PRIu64 " only in B\n", s->different, s->pairs,
	       s->different_tf, s->different_query, s->only_a, s->only_b);
	if (s->classified)
		printf("        %" PRIu64 " classified by replay --check against the golden run (%s)\n",
		       s->classified, o->strict ? "--strict counts undefined, implementation-dependent"
		       " and precision" : "not counted");
	bool mib = s->data_bytes >= 1048576;
	printf("        %" PRIu64 " of %" PRIu64 " decoded TF components differ; %" PRIu64
	       " other bytes, %" PRIu64 " fields differ; %.1f %s of data, %" PRIu64
	       " pairs equal by hash\n", s->components_differ, s->components_compared,
	       s->bytes_differ, s->fields_differ, s->data_bytes / (mib ? 1048576.0 : 1024.0),
	       mib ? "MiB" : "KiB", s->hash_matches);
	if (strcmp(a->status, "ok") || strcmp(b->status, "ok"))
		printf("note: a run that is not \"ok\" may lack observations; they show as only in"
		       " the other run\n");
	cli_write_buf(&r->body);
}

static void json_run(struct xt_jw *w, const char *key, const struct db_run_info *ri)
{
	xt_jw_kobj(w, key);
	xt_jw_ki64(w, "id", ri->id);
	xt_jw_kbool(w, "golden", ri->golden);
	xt_jw_kstr(w, "backend", ri->backend);
	xt_jw_kstr(w, "revision", ri->revision);
	xt_jw_kstr(w, "label", ri->label);
	xt_jw_kstr(w, "status", ri->status);
	xt_jw_end(w);
}

/* The whole document: the runs, the summary, the observations (r->body)
 * and, when compared, the calls (`calls`, an object). */
static enum xt_rc print_json(struct render *r, const struct db_run_info *a,
			     const struct db_run_info *b, const struct diff_options *o,
			     const struct diff_summary *s, bool same, const struct xt_buf *calls)
{
	static const char *const mode[] = { "exact", "ulps", "abs", "abs_or_ulps" };
	struct xt_buf h = XT_BUF_INIT;
	struct xt_jw w;

	xt_jw_init(&w, &h);
	xt_jw_obj(&w);
	json_run(&w, "run_a", a);
	json_run(&w, "run_b", b);
	xt_jw_kobj(&w, "trace");
	xt_jw_ki64(&w, "id", a->trace_id);
	xt_jw_kstr(&w, "hash", a->trace_hash);
	xt_jw_kstr(&w, "program", a->program);
	xt_jw_end(&w);
	xt_jw_kobj(&w, "tolerance");
	xt_jw_kstr(&w, "mode", mode[o->tol.mode]);
	if (o->tol.mode == TRACE_TOL_ULPS)
		xt_jw_ku64(&w, "value", o->tol.ulps);
	else
		xt_jw_knum(&w, "value", o->tol.mode != TRACE_TOL_EXACT ? o->tol.abs : 0, 0);
	if (o->tol.mode == TRACE_TOL_ABS_OR_ULPS)
		xt_jw_ku64(&w, "ulps", o->tol.ulps);
	xt_jw_end(&w);
	xt_jw_kobj(&w, "image_tolerance");
	xt_jw_knum(&w, "max", o->img_tol.max, 0);
	xt_jw_ku64(&w, "pixels", o->img_tol.pixels);
	xt_jw_end(&w);
	xt_jw_kbool(&w, "same", same);
	xt_jw_kobj(&w, "summary");
	xt_jw_ku64(&w, "pairs", s->pairs);
	xt_jw_ku64(&w, "same", s->same);
	xt_jw_ku64(&w, "different", s->different);
	xt_jw_ku64(&w, "different_tf_buffer", s->different_tf);
	xt_jw_ku64(&w, "different_query", s->different_query);
	xt_jw_ku64(&w, "only_a", s->only_a);
	xt_jw_ku64(&w, "only_b", s->only_b);
	xt_jw_ku64(&w, "classified", s->classified);
	xt_jw_ku64(&w, "data_bytes", s->data_bytes);
	xt_jw_ku64(&w, "hash_matches", s->hash_matches);
	xt_jw_ku64(&w, "components_compared", s->components_compared);
	xt_jw_ku64(&w, "components_differ", s->components_differ);
	xt_jw_ku64(&w, "bytes_differ", s->bytes_differ);
	xt_jw_ku64(&w, "fields_differ", s->fields_differ);
	xt_jw_end(&w);
	xt_jw_key(&w, "observations");
	xt_jw_rawn(&w, (const char *)r->body.data, r->body.len);
	if (calls->len) {
		xt_jw_key(&w, "calls");
		xt_jw_rawn(&w, (const char *)calls->data, calls->len);
	}
	xt_jw_end(&w);
	enum xt_rc rc = xt_jw_done(&w);
	if (!rc) {
		cli_write_buf(&h);
		fputc('\n', stdout);
	}
	xt_buf_fini(&h);
	return rc;
}

static bool parse_run(const char *s, int64_t *id)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	if (!*s || *end || v <= 0)
		return false;
	*id = v;
	return true;
}

int cli_diff_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "tolerance", required_argument, NULL, 't' },
		{ "image-tolerance", required_argument, NULL, 'i' },
		{ "limit", required_argument, NULL, 'l' },
		{ "strict", no_argument, NULL, 's' },
		{ "pm4", no_argument, NULL, 'P' },
		{ "regs", no_argument, NULL, 'R' },
		{ "shaders", no_argument, NULL, 'S' },
		{ "color", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct diff_options o = { .max_items = DEFAULT_LIMIT };
	struct render r = { .first_obs = true };
	const char *db_path = NULL;
	unsigned what = 0;
	bool calls_differ = false;
	struct xt_buf calls = XT_BUF_INIT;
	char *end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': db_path = optarg; break;
		case 'j': r.json = true; break;
		case 's': o.strict = true; break;
		case 't':
			if (!trace_tol_parse(optarg, &o.tol))
				return cli_fail(CMD, "--tolerance takes ulps=N, abs=X or abs=X,ulps=N, not '%s'", optarg);
			break;
		case 'i':
			if (!trace_img_tol_parse(optarg, &o.img_tol))
				return cli_fail(CMD, "--image-tolerance takes max=X,pixels=N, not '%s'",
						optarg);
			break;
		case 'l':
			o.max_items = (uint32_t)strtoul(optarg, &end, 10);
			if (!*optarg || *end)
				return cli_fail(CMD, "--limit takes a number, not '%s'", optarg);
			break;
		case 'P': what |= DIFF_CALLS_PM4; break;
		case 'R': what |= DIFF_CALLS_REGS; break;
		case 'S': what |= DIFF_CALLS_SHADERS; break;
		case 'C':
			if (!cli_colour_parse(optarg))
				return cli_fail(CMD, "--color takes auto, always or never, not '%s'", optarg);
			break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default: usage(stderr); return CLI_EXIT_ERROR;
		}
	}
	if (optind + 2 != argc)
		return cli_fail(CMD, "two runs to compare are needed (RUN_A RUN_B, ids from "
				"'xfbtrace runs'), %d given; see 'xfbtrace diff --help'", argc - optind);
	if (!(db_path = cli_db_path(db_path)))
		return cli_fail(CMD, "no database: give --db FILE or set XFBTRACE_DB");
	if (!parse_run(argv[optind], &r.run_a) || !parse_run(argv[optind + 1], &r.run_b))
		return cli_fail(CMD, "runs are given by their ids (see 'xfbtrace runs'), not '%s' '%s'",
				argv[optind], argv[optind + 1]);
	r.colour = !r.json && cli_colour();

	struct db *db;
	struct xt_err err;
	struct xt_arena arena;
	struct db_run_info ra, rb;
	struct diff_summary sum;
	int status;
	if (db_open(&db, db_path, DB_OPEN_EXISTING, &err))
		return cli_fail(CMD, "%s", xt_err_msg(&err));
	xt_arena_init(&arena, 4096);
	if (r.json) {
		xt_jw_init(&r.jw, &r.body);
		xt_jw_arr(&r.jw);
	}
	enum xt_rc rc = diff_runs(db, r.run_a, r.run_b, &o, on_obs, &r, &sum, &err);
	if (!rc && r.json) {
		xt_jw_end(&r.jw);
		rc = r.rc = xt_jw_done(&r.jw);
	}
	if (!rc)
		rc = db_run_get(db, r.run_a, &ra, &arena);
	if (!rc)
		rc = db_run_get(db, r.run_b, &rb, &arena);
	if (!rc && what)
		rc = cli_diff_calls_render(db, r.run_a, r.run_b, what, r.json, o.max_items, &calls,
					   &calls_differ, &err);
	if (rc) {
		if (r.rc)
			status = cli_fail(CMD, "out of memory rendering differences");
		else
			status = cli_fail(CMD, "%s", err.rc ? xt_err_msg(&err) : xt_err_msg(db_err(db)));
	} else {
		bool same = !sum.different && !sum.only_a && !sum.only_b;
		status = same && !calls_differ ? CLI_EXIT_OK : CLI_EXIT_DIFFERENT;
		if (r.json) {
			if (print_json(&r, &ra, &rb, &o, &sum, same, &calls))
				status = cli_fail(CMD, "out of memory rendering the summary");
		} else {
			print_text(&r, &ra, &rb, &o, &sum, same);
			cli_write_buf(&calls);
		}
	}
	xt_buf_fini(&calls);
	xt_buf_fini(&r.body);
	xt_arena_fini(&arena);
	db_close(db);
	return status;
}
