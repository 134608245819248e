/*
 * replay_check.c - the comparison of a replay with the trace's golden data,
 * and the report: observations (byte-identical records are equal; others
 * are decoded and the first difference is named: the call, the function,
 * the observation's kind, binding point and buffer, the key, and for data
 * the byte offset, the bytes on both sides and, for TF buffers, the vertex
 * and varying), returned values, GL errors, calls not replayed.
 *
 * NaNs: GLSL leaves their bit patterns undefined (llvmpipe on x86 computes
 * 0.0 / 0.0 as -NaN where a compiler that folds the constant gets +NaN), so
 * TF data that differs only in the bits of NaNs, component by component
 * as the layout types them, counts as a match; the summary says how many
 * matched that way and the first ones are shown like differences.
 *
 * Differences that are not about data the application defined are
 * classified instead of counted (issue 19): "implementation-dependent"
 * (errors a pure query raised only because the replay driver has fewer
 * extensions or smaller limits: replay_errors.c says which; TF layouts
 * reported differently over equal data; TF triangles of quads in another
 * valid order and what a program that could not link for a limit left
 * behind, replay_explain.c; images and occlusion counts that width-1
 * lines the backend drew explain, replay_lines.h), "precision" (float TF
 * data and query-returned floats that differ within --tolerance, by the
 * rules of trace/trace_tol.h that `xfbtrace diff` applies) and "undefined" (bytes
 * the application never defined, replay_explain.c).  The bytes
 * replay_explain.c accounts for are set aside before the rest of an
 * observation is compared.  Each class is printed and counted apart; the
 * exit status ignores them unless --strict (replay_summary_ok).
 *
 * Timer query results (GL_TIME_ELAPSED, GL_TIMESTAMP) depend on timing:
 * they are counted as "not compared", never as differences; so are the
 * observations the backend marks as possibly derived from them (a timer
 * result the GPU wrote into a buffer, e.g. the draw parameters of an
 * indirect draw).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "glapi.h"
#include "replay_core.h"
#include "replay_lines.h"
#include "trace_image.h"
#include "trace_pixels.h"
#include "trace_tf.h"
#include "trace_tol.h"
#include "xt_arena.h"
#include "xt_fault.h"

static void detail(struct replay *rp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Records the verdict of the replay observation being checked
 * (rp->checking_obs), for opt.on_observation and so for the results
 * database (docs/db.md, "Verdicts"): class `cls` and the reason, the
 * printed `line` without its "call N function: " and class prefixes.  A
 * second class of the same observation is added to the first's reason.
 * Out of memory, the verdict is left out (the report stays complete).
 */
static void verdict_note(struct replay *rp, const char *cls, const char *line)
{
	if (!rp->checking_obs || rp->checking_obs > rp->nobs)
		return;
	struct replay_obs *o = &rp->obs[rp->checking_obs - 1];
	const char *reason = strstr(line, ": ");
	reason = reason ? reason + 2 : line;
	size_t n = strlen(cls);
	if (!strncmp(reason, cls, n) && !strncmp(reason + n, ": ", 2))
		reason += n + 2;
	struct xt_buf *b = &rp->verdict_text;
	size_t at = b->len;
	enum xt_rc rc;
	if (o->verdict_class) {
		/* Its reason is the last one in the buffer: extend it. */
		b->len--;
		rc = xt_buf_printf(b, "; %s: %s", cls, reason);
	} else {
		rc = xt_buf_printf(b, "%s", reason);
	}
	rc = rc ? rc : xt_buf_append(b, "", 1);
	if (rc) {
		b->len = at;
		if (o->verdict_class)
			b->len++;   /* the NUL of the reason as it was */
		return;
	}
	if (!o->verdict_class) {
		o->verdict_class = cls;
		o->verdict_at = at;
	} else if (!strcmp(cls, "differs")) {
		o->verdict_class = cls;   /* counted: no class may excuse it */
	}
}

/* Formats a report line for verdict_note. */
static void verdict_notev(struct replay *rp, const char *cls, const char *fmt, va_list ap)
{
	char line[1024];
	if (!rp->checking_obs)
		return;
	vsnprintf(line, sizeof line, fmt, ap);
	verdict_note(rp, cls, line);
}

/* Prints one difference while fewer than max_reported have been. */
static void detail(struct replay *rp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verdict_notev(rp, "differs", fmt, ap);
	va_end(ap);
	if (rp->reported++ >= rp->opt.max_reported || !rp->opt.out)
		return;
	va_start(ap, fmt);
	vfprintf(rp->opt.out, fmt, ap);
	va_end(ap);
	fputc('\n', rp->opt.out);
}

/* The classes of differences that are not counted as such (issue 19). */
enum cls { CLS_IMPL, CLS_PRECISION, CLS_UNDEFINED };

static void classified(struct replay *rp, enum cls c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Counts one classified difference and prints it while fewer than
 * max_reported have been. */
static void classified(struct replay *rp, enum cls c, const char *fmt, ...)
{
	va_list ap;

	static const char *const names[] = { "implementation-dependent", "precision", "undefined" };
	if (c == CLS_PRECISION)
		rp->sum.precision++;
	else if (c == CLS_UNDEFINED)
		rp->sum.undefined++;
	else
		rp->sum.impl_dependent++;
	va_start(ap, fmt);
	verdict_notev(rp, names[c], fmt, ap);
	va_end(ap);
	if (rp->classified_notes++ >= rp->opt.max_reported || !rp->opt.out)
		return;
	va_start(ap, fmt);
	vfprintf(rp->opt.out, fmt, ap);
	va_end(ap);
	fputc('\n', rp->opt.out);
}

const struct trace_tol *replay_tolerance(const struct replay *rp)
{
	return &rp->opt.tol;
}

bool replay_checking(const struct replay *rp, uint64_t no)
{
	return rp->opt.check && no >= rp->opt.first_call;
}

bool replay_observing(const struct replay *rp)
{
	return rp->opt.check || rp->opt.on_observation;
}

bool replay_call_unsupported(const struct replay *rp, uint64_t no)
{
	return rp->unsupported_call == no + 1;
}

void replay_unsupported(struct replay *rp, const struct trace_call *call, const char *why)
{
	rp->sum.unsupported_calls++;
	rp->unsupported_call = call->no + 1;
	for (size_t i = 0; i < rp->nunsup; i++) {
		if (!strcmp(rp->unsup[i].name, call->name) && !strcmp(rp->unsup[i].why, why)) {
			rp->unsup[i].count++;
			return;
		}
	}
	struct replay_unsup *n = xt_realloc(rp->unsup, (rp->nunsup + 1) * sizeof *n);
	if (!n)
		return;
	rp->unsup = n;
	n[rp->nunsup] = (struct replay_unsup){ xt_strdup(call->name), xt_strdup(why), call->no, 1 };
	if (!n[rp->nunsup].name || !n[rp->nunsup].why) {
		xt_free(n[rp->nunsup].name);
		xt_free(n[rp->nunsup].why);
		return;
	}
	rp->nunsup++;
	rp->sum.unsupported_funcs++;
	if (rp->opt.out)
		fprintf(rp->opt.out, "call %" PRIu64 " %s: not replayed: %s "
			"(later calls of it are counted, not listed)\n", call->no, call->name, why);
}

void replay_query_is_timer(struct replay *rp, uint64_t query, bool timer)
{
	size_t i;

	for (i = 0; i < rp->ntimers && rp->timers[i] != query; i++)
		;
	if (i < rp->ntimers) {
		if (!timer)
			rp->timers[i] = rp->timers[--rp->ntimers];
		return;
	}
	if (!timer)
		return;
	uint64_t *n = xt_realloc(rp->timers, (rp->ntimers + 1) * sizeof *n);
	if (!n)
		return;
	rp->timers = n;
	n[rp->ntimers++] = query;
}

void replay_return_checked(struct replay *rp, const struct trace_call *call, bool equal,
			   const char *what, const char *recorded, const char *replayed)
{
	rp->sum.returns_compared++;
	if (equal)
		return;
	rp->sum.returns_differ++;
	detail(rp, "call %" PRIu64 " %s: returned %s differs: capture %s, replay %s", call->no,
	       call->name, what ? what : "value", recorded ? recorded : "?",
	       replayed ? replayed : "?");
}

void replay_return_skipped(struct replay *rp, const struct trace_call *call)
{
	rp->sum.returns_skipped++;
}

static const char *error_name(uint32_t e)
{
	const char *n = e ? glapi_enum_name(e) : "GL_NO_ERROR";
	return n ? n : "unknown error";
}

void replay_gl_error_extra(struct replay *rp, uint64_t raised_at, const char *func,
			   uint32_t error, uint64_t check)
{
	rp->sum.replay_errors++;
	detail(rp, "call %" PRIu64 " %s: the replay raised %s (0x%x); the capture raised none "
	       "(glGetError at call %" PRIu64 ")", raised_at, func, error_name(error), error, check);
}

void replay_gl_error_impl(struct replay *rp, uint64_t raised_at, const char *func,
			  uint32_t error, const char *why)
{
	classified(rp, CLS_IMPL, "call %" PRIu64 " %s: implementation-dependent: %s: %s", raised_at,
		   func, why, error_name(error));
}

void replay_return_impl(struct replay *rp, const struct trace_call *call, const char *what,
			const char *recorded, const char *replayed, const char *why)
{
	rp->sum.returns_compared++;
	classified(rp, CLS_IMPL, "call %" PRIu64 " %s: implementation-dependent: returned %s: capture "
		   "%s, replay %s: %s", call->no, call->name, what, recorded, replayed, why);
}

void replay_return_precision(struct replay *rp, const struct trace_call *call, const char *what,
			     const char *recorded, const char *replayed)
{
	rp->sum.returns_compared++;
	classified(rp, CLS_PRECISION, "call %" PRIu64 " %s: precision: returned %s within the tolerance: "
		   "capture %s, replay %s", call->no, call->name, what, recorded, replayed);
}

void replay_gl_error_differs(struct replay *rp, const struct trace_call *call,
			     uint32_t recorded, uint32_t replayed)
{
	rp->sum.returns_compared++;
	rp->sum.returns_differ++;
	detail(rp, "call %" PRIu64 " %s: returned capture %s, replay %s", call->no, call->name,
	       error_name(recorded), error_name(replayed));
}

void replay_gl_error_unchecked(struct replay *rp, uint64_t raised_at, const char *func,
			       uint32_t error, const char *why)
{
	if (rp->opt.check && rp->opt.out && raised_at >= rp->opt.first_call)
		fprintf(rp->opt.out, "call %" PRIu64 " %s: the replay raised %s, which no later "
			"glGetError looked at (not compared%s%s)\n", raised_at, func, error_name(error),
			why && why[0] ? "; implementation-dependent: " : "", why ? why : "");
}

/* ---- observations ---------------------------------------------------------- */

static bool value_equal(const struct trace_value *a, const struct trace_value *b)
{
	if (a->tag != b->tag)
		return false;
	switch (a->tag) {
	case TRACE_TAG_NULL: case TRACE_TAG_FALSE: case TRACE_TAG_TRUE:
		return true;
	case TRACE_TAG_SINT:
		return a->i == b->i;
	case TRACE_TAG_FLOAT:
		return !memcmp(&a->f, &b->f, sizeof a->f);
	case TRACE_TAG_DOUBLE:
		return !memcmp(&a->d, &b->d, sizeof a->d);
	case TRACE_TAG_STRING: case TRACE_TAG_BLOB: case TRACE_TAG_MEMORY: case TRACE_TAG_UNSIZED:
		return a->mem.len == b->mem.len && (!a->mem.len ||
		       !memcmp(a->mem.bytes, b->mem.bytes, a->mem.len));
	case TRACE_TAG_ARRAY: case TRACE_TAG_MAP:
		if (a->agg.count != b->agg.count)
			return false;
		for (uint32_t i = 0; i < a->agg.count; i++) {
			if (a->tag == TRACE_TAG_MAP && strcmp(a->agg.keys[i], b->agg.keys[i]))
				return false;
			if (!value_equal(&a->agg.items[i], &b->agg.items[i]))
				return false;
		}
		return true;
	default:
		return a->u == b->u;
	}
}

/* A short text of a value for a report. */
static void value_text(char *buf, size_t n, const struct trace_value *v)
{
	const char *name;

	if (!v) {
		snprintf(buf, n, "(absent)");
		return;
	}
	switch (v->tag) {
	case TRACE_TAG_SINT: snprintf(buf, n, "%" PRId64, v->i); break;
	case TRACE_TAG_UINT: snprintf(buf, n, "%" PRIu64, v->u); break;
	case TRACE_TAG_ENUM:
		name = glapi_enum_name((uint32_t)v->u);
		snprintf(buf, n, "%s", name ? name : "?");
		if (!name)
			snprintf(buf, n, "0x%" PRIx64, v->u);
		break;
	case TRACE_TAG_TRUE: snprintf(buf, n, "true"); break;
	case TRACE_TAG_FALSE: snprintf(buf, n, "false"); break;
	case TRACE_TAG_STRING:
		snprintf(buf, n, "\"%.*s\"", (int)(v->mem.len < 60 ? v->mem.len : 60),
			 (const char *)v->mem.bytes);
		break;
	case TRACE_TAG_BLOB: snprintf(buf, n, "%zu bytes", v->mem.len); break;
	case TRACE_TAG_ARRAY: snprintf(buf, n, "array of %u", v->agg.count); break;
	case TRACE_TAG_MAP: snprintf(buf, n, "map of %u", v->agg.count); break;
	default: snprintf(buf, n, "tag 0x%x", v->tag); break;
	}
}

static uint64_t uint_key(const struct trace_value *map, const char *key, uint64_t dflt)
{
	const struct trace_value *v = trace_value_get(map, key);
	return v && v->tag == TRACE_TAG_UINT ? v->u : dflt;
}

/* Which vertex and varying byte `off` of a tf_buffer's data belongs to:
 * the varying of its binding point that starts last at or before it. */
static void tf_position(char *buf, size_t n, const struct trace_value *obs, uint64_t off)
{
	const uint64_t index = uint_key(obs, "index", UINT64_MAX);
	const struct trace_tf_varying *best = NULL;
	struct trace_tf_varying *v;
	struct xt_arena arena;
	uint32_t nv;
	uint64_t stride;

	buf[0] = '\0';
	xt_arena_init(&arena, 4096);
	if (trace_tf_layout_of(obs, &arena, &v, &nv, &stride) || !stride) {
		xt_arena_fini(&arena);
		return;
	}
	uint64_t within = off % stride;
	for (uint32_t i = 0; i < nv; i++)
		if (v[i].buffer == index && v[i].offset <= within && (!best || v[i].offset >= best->offset))
			best = &v[i];
	if (best && best->name[0])
		snprintf(buf, n, " (vertex %" PRIu64 ", %.64s + %" PRIu64 ")", off / stride, best->name,
			 within - best->offset);
	else
		snprintf(buf, n, " (vertex %" PRIu64 ")", off / stride);
	xt_arena_fini(&arena);
}

static void bytes_text(char *buf, size_t n, const uint8_t *p, size_t len, size_t at)
{
	size_t w = at & ~(size_t)3, k = 0;
	float f;

	buf[0] = '\0';
	for (size_t i = w; i < w + 4 && i < len; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%02x", i > w ? " " : "", p[i]);
	if (w + 4 <= len) {
		memcpy(&f, p + w, 4);
		snprintf(buf + k, n - k, " (as float %g)", (double)f);
	}
}

/* Descends from *a / *b to their first differing element, extending the
 * key path ("layout.varyings[1].offset"). */
static void leaf_difference(char *path, size_t n, const struct trace_value **a,
			    const struct trace_value **b)
{
	while (*a && *b && (*a)->tag == (*b)->tag &&
	       ((*a)->tag == TRACE_TAG_MAP || (*a)->tag == TRACE_TAG_ARRAY) &&
	       (*a)->agg.count == (*b)->agg.count) {
		uint32_t i = 0;
		while (i < (*a)->agg.count && value_equal(&(*a)->agg.items[i], &(*b)->agg.items[i]))
			i++;
		if (i == (*a)->agg.count)
			return;
		size_t len = strlen(path);
		if ((*a)->tag == TRACE_TAG_MAP)
			snprintf(path + len, n - len, ".%s", (*a)->agg.keys[i]);
		else
			snprintf(path + len, n - len, "[%u]", i);
		*a = &(*a)->agg.items[i];
		*b = &(*b)->agg.items[i];
	}
}

/* "tf_buffer index 0 buffer 3", "query 5 (GL_PRIMITIVES_GENERATED)":
 * which observation `g` of call `no` is (the query's target as the calls
 * set it, trace_query.h, when `rp` is given and knows it). */
static void observation_place(const struct replay *rp, uint64_t no, char *where, size_t n,
			      const struct trace_value *g)
{
	struct trace_query_target t;
	const struct trace_value *kind = trace_value_get(g, "kind");
	int k = 0;

	where[0] = '\0';
	if (kind && kind->tag == TRACE_TAG_STRING && !trace_value_get(g, "query"))
		k = snprintf(where, n, "%.*s", (int)(kind->mem.len < 32 ? kind->mem.len : 32),
			     (const char *)kind->mem.bytes);
	if (trace_value_get(g, "index"))
		k += snprintf(where + k, n - (size_t)k, " index %" PRIu64, uint_key(g, "index", 0));
	if (trace_value_get(g, "buffer"))
		snprintf(where + k, n - (size_t)k, " buffer %" PRIu64, uint_key(g, "buffer", 0));
	else if (trace_value_get(g, "query")) {
		uint64_t q = uint_key(g, "query", 0);
		uint32_t thread = rp && rp->last_valid && rp->last_no == no ? rp->last.thread_no
									    : UINT32_MAX;
		const char *name = rp && trace_queries_lookup(rp->queries, thread, q, &t)
				   ? glapi_enum_name(t.target) : NULL;
		k += snprintf(where + k, n - (size_t)k, "query %" PRIu64, q);
		if (name && t.indexed)
			snprintf(where + k, n - (size_t)k, " (%s, stream %u)", name, t.stream);
		else if (name)
			snprintf(where + k, n - (size_t)k, " (%s)", name);
	}
}

static bool is_nan(const uint8_t *p, uint32_t bytes)
{
	if (bytes == 4) {
		uint32_t u;
		memcpy(&u, p, 4);
		return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu);
	}
	uint64_t u;
	memcpy(&u, p, 8);
	return (u & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000) &&
	       (u & UINT64_C(0x000fffffffffffff));
}

/* Where the float and double components of one TF buffer's vertices are:
 * the plan of a tf_buffer observation's layout (trace_tf.h), its spans on
 * the heap. */
struct tf_typing {
	struct trace_tf_plan plan;
};

static void typing_fini(struct tf_typing *t)
{
	xt_free(t->plan.spans);
	t->plan.spans = NULL;
}

static bool typing_of(const struct trace_value *obs, struct tf_typing *t)
{
	struct xt_arena arena;
	struct trace_tf_varying *v;
	struct trace_tf_span *spans = NULL;
	uint32_t n;
	uint64_t stride;

	memset(t, 0, sizeof *t);
	xt_arena_init(&arena, 4096);
	if (trace_tf_layout_of(obs, &arena, &v, &n, &stride) == XT_OK && stride &&
	    (spans = xt_malloc(((size_t)n + 1) * sizeof *spans)))
		trace_tf_plan(v, n, (uint32_t)uint_key(obs, "index", 0), stride, spans, &t->plan);
	xt_arena_fini(&arena);
	return spans != NULL;
}

/* The float component that byte `d` of the TF data falls in: its size (4
 * or 8; 0 when the byte is not in a float or double component) and, in
 * *start, the offset of its first byte. */
static uint32_t float_component(const struct tf_typing *t, uint64_t d, uint64_t *start)
{
	const uint64_t within = d % t->plan.stride;
	const struct trace_tf_span *s = trace_tf_span_at(&t->plan, within);

	if (!s || (s->type->base != GLAPI_TYPE_FLOAT && s->type->base != GLAPI_TYPE_DOUBLE))
		return 0;
	*start = d - (within - trace_tf_component_start(s, within));
	return s->type->component_bytes;
}

/*
 * TF data that matched only up to NaN bit patterns, kept so that the
 * application's read-back of the same bytes (map_read, buffer_read) is
 * compared the same way: a byte counts as TF data there only while both
 * sides still hold exactly what their TF wrote.
 */
struct replay_tf_seen {
	uint64_t buffer, offset;      /* the buffer and the offset of data[0] */
	size_t len;
	uint8_t *golden, *replay;
	struct tf_typing typing;
};

static void tf_seen_drop(struct replay *rp, uint64_t buffer)
{
	for (size_t i = 0; i < rp->ntf_seen; i++) {
		if (rp->tf_seen[i].buffer != buffer)
			continue;
		xt_free(rp->tf_seen[i].golden);
		typing_fini(&rp->tf_seen[i].typing);
		rp->tf_seen[i] = rp->tf_seen[--rp->ntf_seen];
		return;
	}
}

/* Keeps TF data `gd` / `rd` of `g`, taking `t`'s spans. */
static void tf_seen_add(struct replay *rp, const struct trace_value *g, const struct trace_value *gd,
			const struct trace_value *rd, struct tf_typing *t)
{
	struct replay_tf_seen *n = xt_realloc(rp->tf_seen, (rp->ntf_seen + 1) * sizeof *n);
	uint8_t *bytes = xt_malloc(2 * gd->mem.len + 1);

	if (n)
		rp->tf_seen = n;
	if (!n || !bytes) {
		xt_free(bytes);  /* without it, later read-backs compare byte for byte */
		typing_fini(t);
		return;
	}
	memcpy(bytes, gd->mem.bytes, gd->mem.len);
	memcpy(bytes + gd->mem.len, rd->mem.bytes, gd->mem.len);
	rp->tf_seen[rp->ntf_seen++] = (struct replay_tf_seen){
		uint_key(g, "buffer", 0), uint_key(g, "offset", 0), gd->mem.len, bytes,
		bytes + gd->mem.len, *t };
}

/*
 * Whether data blobs `ga` and `ra` (of `len` bytes, at `buffer_offset` in
 * their buffer) differ only in float or double components that count as
 * equal: with `tol` NULL, NaNs on both sides (only their bits differ); with
 * a tolerance, components within it (trace_tol_differ).  For TF data
 * (`seen` NULL) components come from `t`; for a read-back, from the TF data
 * `seen` of the same buffer, where both sides still hold its bytes.
 * *first: the data offset of the first such component; when false, of the
 * first byte or component that is not such (what makes the data differ).
 */
static bool floats_only(const uint8_t *ga, const uint8_t *ra, size_t len, uint64_t buffer_offset,
			const struct tf_typing *t, const struct replay_tf_seen *seen,
			const struct trace_tol *tol, size_t *first)
{
	bool any = false;
	size_t first_within = 0;

	if (seen && (seen->offset > UINT64_MAX - seen->len || buffer_offset > UINT64_MAX - len))
		return false;  /* offsets no buffer has */
	for (size_t off = 0; off < len; off++) {
		if (ga[off] == ra[off])
			continue;
		uint64_t start = 0;
		uint32_t fb;
		*first = off;
		if (!seen) {
			fb = float_component(t, off, &start);
		} else {
			const uint64_t x = buffer_offset + off;
			if (x < seen->offset || x - seen->offset >= seen->len)
				return false;
			fb = float_component(&seen->typing, x - seen->offset, &start);
			const uint64_t s0 = seen->offset + start;  /* in the buffer */
			if (!fb || s0 < buffer_offset || s0 - buffer_offset + fb > len ||
			    memcmp(ga + (s0 - buffer_offset), seen->golden + start, fb) ||
			    memcmp(ra + (s0 - buffer_offset), seen->replay + start, fb))
				return false;
			start = s0 - buffer_offset;
		}
		if (!fb || start + fb > len)
			return false;
		if (!tol && (!is_nan(ga + start, fb) || !is_nan(ra + start, fb)))
			return false;
		if (tol) {
			uint64_t a = 0, b = 0, ulps;
			enum trace_tol_why why;
			double delta;
			memcpy(&a, ga + start, fb);
			memcpy(&b, ra + start, fb);
			if (trace_tol_differ(fb == 4 ? TRACE_TOL_F32 : TRACE_TOL_F64, a, b, tol, &why,
					     &delta, &ulps)) {
				*first = (size_t)start;
				return false;
			}
		}
		if (!any)
			first_within = (size_t)start;
		any = true;
		off = (size_t)(start + fb - 1);
	}
	*first = any ? first_within : SIZE_MAX;
	return any;
}

/*
 * Whether golden `g` and replayed `r` differ only in NaN bit patterns
 * (`tol` NULL) or in floats within `tol`: every key but "data" equal, data
 * of one length, and only such components differing (floats_only).  A tf_buffer is typed by its own layout, and kept
 * for later read-backs of its buffer when it matched this way; a
 * map_read / buffer_read by the TF data kept for its buffer.  *first: the
 * offset of the first component that differs; when false, that of the
 * first difference beyond them, or SIZE_MAX where the data were not
 * compared component by component.
 */
static bool differs_only_in_floats(struct replay *rp, const struct trace_value *g,
				   const struct trace_value *r, const struct trace_tol *tol,
				   size_t *first)
{
	const struct trace_value *kind = trace_value_get(g, "kind");
	const struct trace_value *gd = NULL, *rd = NULL;
	const uint64_t buffer = uint_key(g, "buffer", 0);
	struct tf_typing t;

	if (!kind || kind->tag != TRACE_TAG_STRING || g->tag != TRACE_TAG_MAP ||
	    r->tag != TRACE_TAG_MAP || g->agg.count != r->agg.count)
		return false;
	*first = SIZE_MAX;
	const bool tf = kind->mem.len == 9 && !memcmp(kind->mem.bytes, "tf_buffer", 9);
	for (uint32_t i = 0; i < g->agg.count; i++) {
		if (strcmp(g->agg.keys[i], r->agg.keys[i]))
			return false;
		if (!strcmp(g->agg.keys[i], "data")) {
			gd = &g->agg.items[i];
			rd = &r->agg.items[i];
		} else if (!value_equal(&g->agg.items[i], &r->agg.items[i])) {
			return false;
		}
	}
	if (!gd || gd->tag != TRACE_TAG_BLOB || rd->tag != TRACE_TAG_BLOB ||
	    gd->mem.len != rd->mem.len)
		return false;
	if (tf) {
		if (!typing_of(g, &t))
			return false;
		if (!floats_only(gd->mem.bytes, rd->mem.bytes, gd->mem.len, 0, &t, NULL, tol, first)) {
			typing_fini(&t);
			return false;
		}
		tf_seen_add(rp, g, gd, rd, &t);
		return true;
	}
	for (size_t i = 0; i < rp->ntf_seen; i++)
		if (rp->tf_seen[i].buffer == buffer)
			return floats_only(gd->mem.bytes, rd->mem.bytes, gd->mem.len,
					   uint_key(g, "offset", 0), NULL, &rp->tf_seen[i], tol, first);
	return false;
}

/* The function of call `no`, "?" when the replay did not reach it. */
static const char *call_func(const struct replay *rp, uint64_t no)
{
	return rp->last_valid && rp->last.no == no ? rp->last.name : "?";
}

/* Where an observation's blob `key` differs at byte `at`, as text: the
 * observation, the vertex and varying for TF data, both sides' bytes. */
struct byte_note {
	char where[160], pos[128], a[160], b[160];
};

static void byte_note(struct byte_note *n, const struct trace_value *g,
		      const struct trace_value *r, const char *key, size_t at)
{
	const struct trace_value *gd = trace_value_get(g, key), *rd = trace_value_get(r, key);

	observation_place(NULL, 0, n->where, sizeof n->where, g);
	n->pos[0] = '\0';
	if (!strcmp(key, "data") && trace_value_get(g, "layout"))
		tf_position(n->pos, sizeof n->pos, g, at);
	bytes_text(n->a, sizeof n->a, gd->mem.bytes, gd->mem.len, at);
	bytes_text(n->b, sizeof n->b, rd->mem.bytes, rd->mem.len, at);
}

static void report_difference(struct replay *rp, uint64_t no, const struct trace_value *g,
			      const struct trace_value *r)
{
	const char *func = call_func(rp, no);
	char where[160], a[160], b[160];

	observation_place(rp, no, where, sizeof where, g);
	for (uint32_t i = 0; g->tag == TRACE_TAG_MAP && i < g->agg.count; i++) {
		const char *key = g->agg.keys[i];
		const struct trace_value *gv = &g->agg.items[i], *rv = trace_value_get(r, key);
		if (rv && value_equal(gv, rv))
			continue;
		if (rv && gv->tag == TRACE_TAG_BLOB && rv->tag == TRACE_TAG_BLOB) {
			size_t n = gv->mem.len < rv->mem.len ? gv->mem.len : rv->mem.len, off = 0;
			struct byte_note note;
			while (off < n && gv->mem.bytes[off] == rv->mem.bytes[off])
				off++;
			byte_note(&note, g, r, key, off);
			detail(rp, "call %" PRIu64 " %s: %s: %s differs at byte %zu of %zu%s: "
			       "golden %s, replay %s", no, func, note.where, key, off, gv->mem.len,
			       note.pos, note.a, note.b);
			return;
		}
		char path[128];
		snprintf(path, sizeof path, "%s", key);
		leaf_difference(path, sizeof path, &gv, &rv);
		value_text(a, sizeof a, gv);
		value_text(b, sizeof b, rv);
		detail(rp, "call %" PRIu64 " %s: %s: %s differs: golden %s, replay %s", no, func,
		       where, path, a, b);
		return;
	}
	detail(rp, "call %" PRIu64 " %s: %s: the replay's observation has other keys", no, func,
	       where);
}

/* The data of `g` and `r` differ at byte `at` by more than --tolerance
 * (a component beyond it, or bytes no float component holds): named there,
 * not at the first difference, which may be within the tolerance. */
static void report_beyond_tolerance(struct replay *rp, uint64_t no, const struct trace_value *g,
				    const struct trace_value *r, size_t at)
{
	const struct trace_value *gd = trace_value_get(g, "data");
	struct byte_note note;

	byte_note(&note, g, r, "data", at);
	detail(rp, "call %" PRIu64 " %s: %s: data differs beyond the tolerance at byte %zu of %zu%s: "
	       "golden %s, replay %s", no, call_func(rp, no), note.where, at, gd->mem.len, note.pos,
	       note.a, note.b);
}

/*
 * Whether tf_buffer observations `g` and `r` differ only in their layout,
 * the driver's report of the program's TF layout (the shape of the strides
 * array: NVIDIA lists a stride for one binding point where llvmpipe lists
 * three; which binding point a varying of a multi-stream program is
 * reported in), while every other key and the data, byte for byte, are
 * equal.  `path`: the first layout key that differs ("strides").
 */
static bool differs_only_in_layout(const struct trace_value *g, const struct trace_value *r,
				   char *path, size_t n)
{
	const struct trace_value *kind = trace_value_get(g, "kind");
	const struct trace_value *gl = trace_value_get(g, "layout");
	const struct trace_value *rl = trace_value_get(r, "layout");

	if (!kind || kind->tag != TRACE_TAG_STRING || kind->mem.len != 9 ||
	    memcmp(kind->mem.bytes, "tf_buffer", 9) || g->tag != TRACE_TAG_MAP ||
	    r->tag != TRACE_TAG_MAP || g->agg.count != r->agg.count || !gl || !rl ||
	    !trace_value_get(g, "data"))
		return false;
	for (uint32_t i = 0; i < g->agg.count; i++)
		if (strcmp(g->agg.keys[i], r->agg.keys[i]) ||
		    (strcmp(g->agg.keys[i], "layout") && !value_equal(&g->agg.items[i], &r->agg.items[i])))
			return false;
	snprintf(path, n, "layout");
	leaf_difference(path, n, &gl, &rl);
	return true;
}

/* Counts and prints the classes replay_explain found in observation `g`. */
static void report_explained(struct replay *rp, uint64_t no, const struct trace_value *g,
			     const struct replay_explained *ex)
{
	char where[160];

	observation_place(rp, no, where, sizeof where, g);
	if (ex->undefined)
		classified(rp, CLS_UNDEFINED, "call %" PRIu64 " %s: undefined: %s: data differs only "
			   "in bytes the application never defined: %s", no, call_func(rp, no),
			   where, ex->undefined_why);
	if (ex->tess)
		classified(rp, CLS_IMPL, "call %" PRIu64 " %s: implementation-dependent: %s: %s", no,
			   call_func(rp, no), where, ex->tess_why);
	if (ex->consequence)
		classified(rp, CLS_IMPL, "call %" PRIu64 " %s: implementation-dependent: %s: %s: a "
			   "consequence of that failed link", no, call_func(rp, no), where,
			   ex->consequence_why);
	if (ex->multisample)
		classified(rp, CLS_IMPL, "call %" PRIu64 " %s: implementation-dependent: %s: %s", no,
			   call_func(rp, no), where, ex->multisample_why);
}

static bool is_timer_query(struct replay *rp, const struct trace_value *g)
{
	const struct trace_value *kind = trace_value_get(g, "kind");
	uint64_t q = uint_key(g, "query", 0);

	if (!kind || kind->tag != TRACE_TAG_STRING || kind->mem.len != 5 ||
	    memcmp(kind->mem.bytes, "query", 5))
		return false;
	for (size_t i = 0; i < rp->ntimers; i++)
		if (rp->timers[i] == q)
			return true;
	return false;
}

/* A query result as a count: unsigned, or signed and not negative. */
static bool count_value(const struct trace_value *v, uint64_t *out)
{
	if (v && v->tag == TRACE_TAG_UINT)
		*out = v->u;
	else if (v && v->tag == TRACE_TAG_SINT && v->i >= 0)
		*out = (uint64_t)v->i;
	else
		return false;
	return true;
}

/*
 * An occlusion query result (GL_SAMPLES_PASSED, GL_ANY_SAMPLES_PASSED,
 * GL_ANY_SAMPLES_PASSED_CONSERVATIVE) that differs by no more than the
 * width-1 lines the backend rasterized within the query explain
 * (replay_lines_count_allowed): implementation-dependent.
 */
static bool query_by_lines(struct replay *rp, uint64_t no, const struct trace_value *g,
			   const struct trace_value *r)
{
	const struct trace_value *kind = trace_value_get(g, "kind");
	/* GL's values (gl.xml); replay_check.c includes no GL header */
	enum { SAMPLES_PASSED = 0x8914, ANY_SAMPLES_PASSED = 0x8C2F,
	       ANY_SAMPLES_PASSED_CONSERVATIVE = 0x8D6A, QUERY_RESULT = 0x8866,
	       QUERY_RESULT_NO_WAIT = 0x9194 };
	const struct trace_value *gv = trace_value_get(g, "result"), *rv = trace_value_get(r, "result");
	const struct trace_value *pv = trace_value_get(g, "pname");
	const uint64_t pname = pv && pv->tag == TRACE_TAG_ENUM ? pv->u : 0;
	struct trace_query_target t;
	uint64_t segments, bound, samples, gr, rr;

	if (!kind || kind->tag != TRACE_TAG_STRING || kind->mem.len != 5 ||
	    memcmp(kind->mem.bytes, "query", 5) || !rp->last_valid || rp->last_no != no ||
	    !count_value(gv, &gr) || !count_value(rv, &rr) ||
	    (pname != QUERY_RESULT && pname != QUERY_RESULT_NO_WAIT) ||
	    !rp->be || !rp->be->ops->query_lines)
		return false;
	/* only the result may differ */
	for (uint32_t i = 0; i < g->agg.count; i++) {
		const struct trace_value *o = trace_value_get(r, g->agg.keys[i]);
		if (strcmp(g->agg.keys[i], "result") && (!o || !value_equal(&g->agg.items[i], o)))
			return false;
	}
	const uint64_t q = uint_key(g, "query", 0);
	if (g->agg.count != r->agg.count ||
	    !trace_queries_lookup(rp->queries, rp->last.thread_no, q, &t) ||
	    (t.target != SAMPLES_PASSED && t.target != ANY_SAMPLES_PASSED &&
	     t.target != ANY_SAMPLES_PASSED_CONSERVATIVE) ||
	    !rp->be->ops->query_lines(rp->be, rp->last.thread_no, q, &segments, &bound, &samples) ||
	    !replay_lines_count_allowed(gr, rr, bound, t.target != SAMPLES_PASSED, samples))
		return false;
	char where[160];
	observation_place(rp, no, where, sizeof where, g);
	classified(rp, CLS_IMPL, "call %" PRIu64 " %s: implementation-dependent: %s: result golden %"
		   PRIu64 ", replay %" PRIu64 ": the query spans %" PRIu64 " width-1 line segment%s, "
		   "whose sample counts may differ by %" PRIu64 " (GL 4.6 §14.5.1 lets line "
		   "rasterization differ from the diamond-exit rule by one fragment a segment)", no,
		   call_func(rp, no), where, gr, rr, segments, segments == 1 ? "" : "s", bound);
	return true;
}

/* ---- images ------------------------------------------------------------ */

/* Writes `name` (a PNG of `rgba`, w x h) into the --diff-dir; false on
 * failure, with a note in the report. */
static bool write_png(struct replay *rp, const char *name, const uint8_t *rgba, uint32_t w,
		      uint32_t h)
{
	struct xt_buf png = XT_BUF_INIT;
	char path[4096];
	bool ok = false;

	snprintf(path, sizeof path, "%s/%s", rp->opt.diff_dir, name);
	if (trace_image_png(rgba, w, h, 4, &png) == XT_OK) {
		FILE *f = fopen(path, "wb");
		ok = f && fwrite(png.data, 1, png.len, f) == png.len;
		ok = f && !fclose(f) && ok;
	}
	xt_buf_fini(&png);
	if (!ok && rp->opt.out)
		fprintf(rp->opt.out, "cannot write %s\n", path);
	return ok;
}

/* The golden, replay and difference images of call `no` into the
 * --diff-dir: "; images callN-*.png in DIR" for the report, or "". */
static void write_images(struct replay *rp, uint64_t no, const struct trace_pixels *a,
			 const struct trace_pixels *b, char *note, size_t n)
{
	const size_t bytes = (size_t)a->width * a->height * 4;
	uint8_t *rgba = rp->opt.diff_dir ? xt_malloc(bytes) : NULL;
	char name[64];
	bool ok = rgba != NULL;

	note[0] = '\0';
	if (!rgba)
		return;
	snprintf(name, sizeof name, "call%" PRIu64 "-golden.png", no);
	trace_pixels_rgba8(a, rgba);
	ok = ok && write_png(rp, name, rgba, a->width, a->height);
	snprintf(name, sizeof name, "call%" PRIu64 "-replay.png", no);
	trace_pixels_rgba8(b, rgba);
	ok = ok && write_png(rp, name, rgba, a->width, a->height);
	snprintf(name, sizeof name, "call%" PRIu64 "-diff.png", no);
	trace_pixels_diff_rgba8(a, b, &rp->opt.img_tol, rgba);
	ok = ok && write_png(rp, name, rgba, a->width, a->height);
	xt_free(rgba);
	if (ok)
		snprintf(note, n, "; images call%" PRIu64 "-{golden,replay,diff}.png in %s", no,
			 rp->opt.diff_dir);
}

/* Differing pixels examined against line segments before giving up: the
 * check stays linear enough for any image. */
#define LINE_TESTS_MAX 100000000ull

/*
 * Whether every pixel of golden `a` and replay `b` that differs beyond the
 * image tolerance may be one that two allowed line rasterizations cover
 * differently (replay_line_may_differ_at): near a width-1 segment the
 * backend drew into the colour buffer read since it was last cleared
 * whole.  `why` then says which segments.
 */
static bool pixels_by_lines(struct replay *rp, const struct trace_pixels *a,
			    const struct trace_pixels *b, char *why, size_t n)
{
	const struct replay_line *l;
	size_t nl;
	uint64_t tests = 0;

	if (!rp->be || !rp->be->ops->lines_read || !rp->be->ops->lines_read(rp->be, &l, &nl) || !nl)
		return false;
	const size_t npix = (size_t)a->width * a->height;
	for (size_t i = 0; i < npix; i++) {
		if (!trace_pixels_over(a, b, &rp->opt.img_tol, i))
			continue;
		const int64_t x = a->x + (int64_t)(i % a->width), y = a->y + (int64_t)(i / a->width);
		size_t k = 0;
		while (k < nl && !replay_line_may_differ_at(&l[k], x, y))
			k++;
		tests += k + 1;
		if (k == nl || tests > LINE_TESTS_MAX)
			return false;
	}
	snprintf(why, n, "one of the %zu width-1 line segment%s drawn into the buffer since it was "
		 "last cleared whole", nl, nl == 1 ? "" : "s");
	return true;
}

/*
 * Whether every pixel of golden `a` and replay `b` that differs beyond the
 * image tolerance lies in a rectangle that a blit wrote loosely into the
 * colour buffer read (replay_loose: GL 4.6 §18.3.1 leaves its values
 * undefined or implementation-dependent).  *undefined: all of them in
 * undefined ones.
 */
static bool pixels_by_loose_blits(struct replay *rp, const struct trace_pixels *a,
				  const struct trace_pixels *b, bool *undefined)
{
	const struct replay_loose *l;
	size_t nl;

	*undefined = true;
	if (!rp->be || !rp->be->ops->loose_read || !rp->be->ops->loose_read(rp->be, &l, &nl) || !nl)
		return false;
	const size_t npix = (size_t)a->width * a->height;
	for (size_t i = 0; i < npix; i++) {
		if (!trace_pixels_over(a, b, &rp->opt.img_tol, i))
			continue;
		const int64_t x = a->x + (int64_t)(i % a->width), y = a->y + (int64_t)(i / a->width);
		size_t k = 0;
		while (k < nl && !(x >= l[k].x0 && x < l[k].x1 && y >= l[k].y0 && y < l[k].y1))
			k++;
		if (k == nl)
			return false;
		*undefined = *undefined && l[k].undefined;
	}
	return true;
}

/*
 * A `pixels` observation whose bytes differ: compared pixel by pixel under
 * the image tolerance.  Within it: precision; else a difference naming the
 * count, the largest value difference and the first pixels that differ.
 * False when the two are not images of the same region and format (then
 * the generic report says which key differs).
 */
static bool check_pixels(struct replay *rp, uint64_t no, const struct trace_value *g,
			 const struct trace_value *r)
{
	struct trace_pixels a, b;
	struct trace_pixels_cmp cmp;
	char why[160], first[256], more[512], images[4200];

	if (trace_pixels_of(g, &a, why, sizeof why) != XT_OK ||
	    trace_pixels_of(r, &b, why, sizeof why) != XT_OK || a.x != b.x || a.y != b.y)
		return false;
	trace_pixels_compare(&a, &b, &rp->opt.img_tol, &cmp);
	if (!cmp.comparable || (!cmp.differ && !cmp.undefined))
		return false;   /* the generic report names the key that differs */
	write_images(rp, no, &a, &b, images, sizeof images);
	char undef[600] = "", ufirst[256];
	if (cmp.undefined) {
		trace_pixel_diff_text(&a, &cmp.first_undefined, ufirst, sizeof ufirst);
		snprintf(undef, sizeof undef, "%" PRIu64 " pixels outside the %" PRId64 "x%" PRId64
			 " buffer read differ, which GL leaves undefined (GL 4.6 section 18.2.8), "
			 "the first at %s", cmp.undefined, a.read_w, a.read_h, ufirst);
	}
	if (!cmp.differ) {
		classified(rp, CLS_UNDEFINED, "call %" PRIu64 " %s: undefined: pixels %ux%u at (%"
			   PRId64 ", %" PRId64 "): %s%s", no, call_func(rp, no), a.width, a.height,
			   a.x, a.y, undef, images);
		return true;
	}
	trace_pixel_diff_text(&a, &cmp.first[0], first, sizeof first);
	more[0] = '\0';
	for (unsigned k = 1, len = 0; k < cmp.nfirst && k < 4 && len < sizeof more; k++) {
		char t[200];
		trace_pixel_diff_text(&a, &cmp.first[k], t, sizeof t);
		len += (unsigned)snprintf(more + len, sizeof more - len, "; %s", t);
	}
	const uint64_t total = (uint64_t)a.width * a.height;
	char lines[160];
	if (!cmp.within && pixels_by_lines(rp, &a, &b, lines, sizeof lines)) {
		classified(rp, CLS_IMPL, "call %" PRIu64 " %s: implementation-dependent: pixels %ux%u "
			   "at (%" PRId64 ", %" PRId64 "): %" PRIu64 " of %" PRIu64 " pixels differ "
			   "(%" PRIu64 " beyond the image tolerance), each near an end or at a tie of %s, "
			   "where GL 4.6 §14.5.1 lets line rasterization differ from the diamond-exit "
			   "rule; first %s%s%s%s%s", no, call_func(rp, no), a.width, a.height, a.x, a.y,
			   cmp.differ, total, cmp.over, lines, first, more, undef[0] ? "; " : "", undef,
			   images);
		return true;
	}
	bool undefined_only;
	if (!cmp.within && pixels_by_loose_blits(rp, &a, &b, &undefined_only)) {
		classified(rp, undefined_only ? CLS_UNDEFINED : CLS_IMPL, "call %" PRIu64 " %s: %s: pixels "
			   "%ux%u at (%" PRId64 ", %" PRId64 "): %" PRIu64 " of %" PRIu64 " pixels differ (%"
			   PRIu64 " beyond the image tolerance), each where a glBlitFramebuffer wrote %s (GL "
			   "4.6 §18.3.1); first %s%s%s%s%s", no, call_func(rp, no),
			   undefined_only ? "undefined" : "implementation-dependent", a.width, a.height, a.x,
			   a.y, cmp.differ, total, cmp.over,
			   undefined_only ? "pixels whose source lies outside the read framebuffer, which GL "
					    "leaves undefined" :
					    "the resolve of multisampled pixels (or pixels of a source outside "
					    "the read framebuffer), which GL leaves to the implementation",
			   first, more, undef[0] ? "; " : "", undef, images);
		return true;
	}
	if (cmp.within) {
		classified(rp, CLS_PRECISION, "call %" PRIu64 " %s: precision: pixels %ux%u at (%" PRId64
			   ", %" PRId64 "): %" PRIu64 " of %" PRIu64 " pixels differ within the image "
			   "tolerance (largest difference %g), the first at %s%s", no,
			   call_func(rp, no), a.width, a.height, a.x, a.y, cmp.differ, total,
			   cmp.max_delta, first, images);
		return true;
	}
	rp->sum.differ++;
	detail(rp, "call %" PRIu64 " %s: pixels %ux%u at (%" PRId64 ", %" PRId64 "): %" PRIu64
	       " of %" PRIu64 " pixels differ (%" PRIu64 " beyond the image tolerance), largest "
	       "difference %g; first %s%s%s%s%s", no, call_func(rp, no), a.width, a.height, a.x,
	       a.y, cmp.differ, total, cmp.over, cmp.max_delta, first, more, undef[0] ? "; " : "",
	       undef, images);
	return true;
}

void replay_check_observation(struct replay *rp, uint64_t no, const struct trace_record *golden)
{
	struct trace_value g, r;
	struct xt_err e;
	const uint8_t *p;

	if (!rp->opt.check)
		return;
	rp->checking_obs = 0;
	xt_arena_reset(&rp->cmp_arena);
	if (trace_reader_decode_value(rp->reader, golden, &rp->cmp_arena, &g) != XT_OK)
		return; /* the reader reports corruption on the next record */
	const struct trace_value *lost_of = trace_value_get(&g, "of");
	const struct trace_value *lost_kind = trace_value_get(&g, "kind");
	if (lost_of && lost_of->tag == TRACE_TAG_STRING && lost_kind &&
	    lost_kind->tag == TRACE_TAG_STRING && lost_kind->mem.len == 4 &&
	    !memcmp(lost_kind->mem.bytes, "lost", 4)) {
		/* The trace says the capture never read these back (docs/
		 * trace-format.md, "Late observations"): nothing to compare
		 * the replay's with, and not a difference. */
		const uint64_t n = uint_key(&g, "records", 1);
		rp->sum.lost += n;
		for (uint64_t i = 0; i < n && rp->last_no == no && rp->obs_next < rp->nobs; i++) {
			rp->checking_obs = ++rp->obs_next;
			verdict_note(rp, "lost", "call: lost: the capture lost its golden counterpart "
				     "(the application ended before its read-back)");
		}
		rp->checking_obs = 0;
		if (rp->opt.out && rp->lost_notes++ < rp->opt.max_reported)
			fprintf(rp->opt.out, "call %" PRIu64 " %s: not compared: the capture lost %" PRIu64
				" %.*s observation%s (the application ended before their read-back)\n",
				no, call_func(rp, no), n, (int)lost_of->mem.len,
				(const char *)lost_of->mem.bytes, n == 1 ? "" : "s");
		return;
	}
	trace_defined_observation(rp->defined, no, &g);
	if (!replay_checking(rp, no))
		return;
	rp->sum.observations++;
	if (is_timer_query(rp, &g)) {
		rp->sum.not_compared++;
		if (rp->last_no == no && rp->obs_next < rp->nobs) {
			rp->checking_obs = ++rp->obs_next;
			verdict_note(rp, "timing", "call: timing: a timer query's result: not compared");
		}
		return;
	}
	if ((rp->last_no != no || rp->obs_next >= rp->nobs) && trace_pixels_is(&g) &&
	    replay_call_unsupported(rp, no)) {
		/* An image the backend did not draw: nothing to compare it
		 * with, and no statement about the application's data. */
		if (rp->sum.not_drawn++ < rp->opt.max_reported && rp->opt.out)
			fprintf(rp->opt.out, "call %" PRIu64 " %s: not compared: pixels: the replay "
				"drew no image (the call was not replayed)\n", no, call_func(rp, no));
		return;
	}
	if (rp->last_no != no || rp->obs_next >= rp->nobs) {
		rp->sum.differ++;
		detail(rp, "call %" PRIu64 " %s: the replay made no observation where the capture "
		       "made one%s", no, call_func(rp, no), replay_call_unsupported(rp, no) ?
		       " (the call was not replayed)" : "");
		return;
	}
	const struct replay_obs *o = &rp->obs[rp->obs_next++];
	rp->checking_obs = rp->obs_next;
	if (o->timing) {
		rp->sum.not_compared++;
		verdict_note(rp, "timing", "call: timing: may derive from a timer query's result: "
			     "not compared");
		return;
	}
	p = rp->obs_bytes.data + o->offset;
	if (trace_value_decode(&p, p + o->len, &rp->cmp_arena, &r, &e) != XT_OK) {
		rp->sum.differ++;
		detail(rp, "call %" PRIu64 ": the replay's observation does not decode: %s", no,
		       xt_err_msg(&e));
		return;
	}
	const struct trace_value *kind = trace_value_get(&g, "kind");
	if (kind && kind->tag == TRACE_TAG_STRING && kind->mem.len == 9 &&
	    !memcmp(kind->mem.bytes, "tf_buffer", 9))
		tf_seen_drop(rp, uint_key(&g, "buffer", 0));
	if (value_equal(&g, &r)) {
		rp->sum.match++;
		return;
	}
	if (trace_pixels_is(&g) && check_pixels(rp, no, &g, &r))
		return;
	/* A GL_PRIMITIVES_GENERATED result over quads, quad strips or
	 * polygons: how many primitives they count is not determined. */
	uint64_t quad_call = 0;
	uint32_t quad_mode = 0;
	if (kind && kind->tag == TRACE_TAG_STRING && kind->mem.len == 5 &&
	    !memcmp(kind->mem.bytes, "query", 5) && rp->last_valid && rp->last_no == no &&
	    trace_defined_query_quads(rp->defined, rp->last.thread_no, uint_key(&g, "query", 0), no,
				      &quad_call, &quad_mode)) {
		char where[160];
		observation_place(rp, no, where, sizeof where, &g);
		classified(rp, CLS_IMPL, "call %" PRIu64 " %s: implementation-dependent: %s: "
			   "GL_PRIMITIVES_GENERATED over the %s of call %" PRIu64 ": GL counts a "
			   "primitive where it reaches the Discarding Rasterization stage (GL 4.6 "
			   "compatibility profile §13.5) and makes triangles of quads and polygons "
			   "only to record them (§13.3): whether one counts once or as its triangles "
			   "is not determined", no, call_func(rp, no), where,
			   quad_mode == 0x7 ? "GL_QUADS" : quad_mode == 0x8 ? "GL_QUAD_STRIP" : "GL_POLYGON",
			   quad_call);
		return;
	}
	if (query_by_lines(rp, no, &g, &r))
		return;
	/* Bytes the application did not define, or that another valid
	 * behaviour of the GL explains, are set aside first; what is left is
	 * compared as any other data. */
	struct replay_explained ex;
	const struct trace_value *rr = &r;
	const bool explained = replay_explain(rp, no, &g, &r, &ex);
	if (explained)
		rr = &ex.masked;
	size_t at = 0;
	if (explained && value_equal(&g, rr)) {
		report_explained(rp, no, &g, &ex);
		return;
	}
	if (differs_only_in_floats(rp, &g, rr, NULL, &at)) {
		if (explained) {
			report_explained(rp, no, &g, &ex);
			return;
		}
		rp->sum.match++;
		rp->sum.match_nan++;
		struct byte_note note;
		char line[1024];
		byte_note(&note, &g, &r, "data", at);
		snprintf(line, sizeof line, "call %" PRIu64 " %s: %s: data matches up to NaN bit "
			 "patterns (GLSL leaves them undefined), the first other NaN at byte "
			 "%zu%s: golden %s, replay %s", no, call_func(rp, no), note.where, at,
			 note.pos, note.a, note.b);
		verdict_note(rp, "nan-pattern", line);
		if (rp->nan_notes++ < rp->opt.max_reported && rp->opt.out)
			fprintf(rp->opt.out, "%s\n", line);
		return;
	}
	char path[128];
	if (differs_only_in_layout(&g, rr, path, sizeof path)) {
		char where[160];
		observation_place(rp, no, where, sizeof where, &g);
		classified(rp, CLS_IMPL, "call %" PRIu64 " %s: implementation-dependent: %s: the drivers "
			   "report the TF layout differently (%s), the data are equal", no,
			   call_func(rp, no), where, path);
		if (explained)
			report_explained(rp, no, &g, &ex);
		return;
	}
	size_t beyond = SIZE_MAX;
	if (rp->opt.tol.mode != TRACE_TOL_EXACT &&
	    differs_only_in_floats(rp, &g, rr, &rp->opt.tol, &beyond)) {
		at = beyond;
		struct byte_note note;
		byte_note(&note, &g, rr, "data", at);
		classified(rp, CLS_PRECISION, "call %" PRIu64 " %s: precision: %s: data within the "
			   "tolerance, the first difference at byte %zu%s: golden %s, replay %s", no,
			   call_func(rp, no), note.where, at, note.pos, note.a, note.b);
		if (explained)
			report_explained(rp, no, &g, &ex);
		return;
	}
	rp->sum.differ++;
	if (beyond != SIZE_MAX)
		report_beyond_tolerance(rp, no, &g, rr, beyond);
	else
		report_difference(rp, no, &g, rr);
}

void replay_check_leftovers(struct replay *rp)
{
	for (; rp->obs_next < rp->nobs; rp->obs_next++) {
		if (!replay_checking(rp, rp->last_no))
			continue;
		rp->checking_obs = rp->obs_next + 1;
		rp->sum.differ++;
		detail(rp, "call %" PRIu64 " %s: the replay made an observation the capture did not",
		       rp->last_no, rp->last_valid ? rp->last.name : "?");
	}
	rp->checking_obs = 0;
}

void replay_check_summary(struct replay *rp, double seconds)
{
	const struct replay_summary *s = &rp->sum;
	FILE *f = rp->opt.out;

	if (!f)
		return;
	if (rp->reported > rp->opt.max_reported)
		fprintf(f, "... and %" PRIu64 " more differences\n", rp->reported - rp->opt.max_reported);
	if (rp->classified_notes > rp->opt.max_reported)
		fprintf(f, "... and %" PRIu64 " more classified differences\n",
			rp->classified_notes - rp->opt.max_reported);
	fprintf(f, "replayed %" PRIu64 " calls, %" PRIu64 " frames in %.2f s on %s\n", s->calls,
		s->frames, seconds, rp->be ? rp->be->ops->describe(rp->be) : "?");
	if (s->unsupported_calls) {
		fprintf(f, "not replayed: %" PRIu64 " calls of %" PRIu64 " functions:", s->unsupported_calls,
			s->unsupported_funcs);
		for (size_t i = 0; i < rp->nunsup; i++)
			fprintf(f, "%s %s (first call %" PRIu64 ", %" PRIu64 " calls)", i ? "," : "",
				rp->unsup[i].name, rp->unsup[i].first, rp->unsup[i].count);
		fputc('\n', f);
	}
	if (!rp->opt.check)
		return;
	fprintf(f, "returned values: %" PRIu64 " compared, %" PRIu64 " differ, %" PRIu64
		" not compared (implementation-dependent)\n", s->returns_compared, s->returns_differ,
		s->returns_skipped);
	if (s->replay_errors)
		fprintf(f, "GL errors raised by the replay only: %" PRIu64 "\n", s->replay_errors);
	fprintf(f, "%" PRIu64 " observations, %" PRIu64 " match, %" PRIu64 " differ", s->observations,
		s->match, s->differ);
	if (s->match_nan)
		fprintf(f, " (%" PRIu64 " of the matches only up to NaN bit patterns)",
			s->match_nan);
	if (s->not_compared)
		fprintf(f, ", %" PRIu64 " not compared (timing-dependent)", s->not_compared);
	if (s->lost)
		fprintf(f, ", %" PRIu64 " lost by the capture (not compared)", s->lost);
	if (s->not_drawn)
		fprintf(f, ", %" PRIu64 " images not drawn by the replay (not compared)", s->not_drawn);
	fputc('\n', f);
	if (s->impl_dependent || s->precision || s->undefined)
		fprintf(f, "classified, not counted as differences: %" PRIu64 " implementation-dependent, %"
			PRIu64 " precision, %" PRIu64 " undefined\n", s->impl_dependent, s->precision,
			s->undefined);
}

void replay_check_fini(struct replay *rp)
{
	for (size_t i = 0; i < rp->nunsup; i++) {
		xt_free(rp->unsup[i].name);
		xt_free(rp->unsup[i].why);
	}
	xt_free(rp->unsup);
	xt_free(rp->timers);
	for (size_t i = 0; i < rp->ntf_seen; i++) {
		xt_free(rp->tf_seen[i].golden);
		typing_fini(&rp->tf_seen[i].typing);
	}
	xt_free(rp->tf_seen);
	xt_free(rp->failures);
	for (size_t i = 0; i < rp->ntess_seen; i++) {
		xt_free(rp->tess_seen[i].golden);
		xt_free(rp->tess_seen[i].replay);
	}
	xt_free(rp->tess_seen);
}

bool replay_summary_ok(const struct replay_summary *s, bool strict)
{
	return s->differ == 0 && s->returns_differ == 0 && s->replay_errors == 0 &&
	       (!strict || (s->impl_dependent == 0 && s->precision == 0 && s->undefined == 0));
}
