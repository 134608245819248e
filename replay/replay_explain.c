/*
 * replay_explain.c - the differences of data that the application did not
 * define, or that another valid behaviour of the GL explains (issue 19),
 * found before replay_check.c compares what is left:
 *
 *   undefined        bytes of a buffer the application never defined
 *                    (trace/trace_defined.h derives which from the
 *                    recorded calls): any value is right there;
 *   tessellation     TF triangles made of a quad, a quad strip or a
 *                    polygon in another order ("the order of tessellation
 *                    within a primitive is undefined", GL 4.6 compatibility
 *                    profile §13.3): the replay's triangles of each source
 *                    primitive are a valid tessellation of the golden's
 *                    vertices (trace_defined_tess_equivalent);
 *   link consequence data TF wrote while a program was in use whose link
 *                    failed on the replay only because of a smaller limit
 *                    of its driver (replay_link_failed): the replay drew
 *                    with another program, or none;
 *   multisample      data TF wrote with a program whose GLSL reads
 *                    multisample textures (sampler2DMS) after the replay's
 *                    driver answered a GL_SAMPLE_POSITION query otherwise
 *                    (replay_obs.c): which samples a primitive covers
 *                    depends on the positions (GL 4.6 §14.3.1).
 *
 * Each explains bytes, never a whole observation by its kind: the
 * explained bytes of the replay's data are set to the golden's, and the
 * comparison goes on with what is left, so a difference anywhere else is
 * still found (and a one-bit change of defined TF data still exits 1).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "glapi.h"
#include "replay_core.h"
#include "xt_fault.h"

/* ---- tessellations seen ------------------------------------------------------- */

/* Remembers group [lo, lo + len) of buffer `buffer`, golden and replayed
 * bytes, as another valid tessellation (a failed allocation forgets it:
 * a later partial read of it then stays a difference). */
static void tess_remember(struct replay *rp, uint32_t thread, uint64_t buffer, uint64_t lo,
			  size_t len, const uint8_t *golden, const uint8_t *replay)
{
	for (size_t i = 0; i < rp->ntess_seen; i++) {
		struct replay_tess_seen *t = &rp->tess_seen[i];
		if (t->thread == thread && t->buffer == buffer && t->lo == lo && t->len == len) {
			memcpy(t->golden, golden, len);
			memcpy(t->replay, replay, len);
			return;
		}
	}
	uint8_t *g = xt_malloc(len), *r = xt_malloc(len);
	struct replay_tess_seen *n = g && r ? xt_realloc(rp->tess_seen,
							  (rp->ntess_seen + 1) * sizeof *n) : NULL;
	if (!n) {
		xt_free(g);
		xt_free(r);
		return;
	}
	memcpy(g, golden, len);
	memcpy(r, replay, len);
	rp->tess_seen = n;
	rp->tess_seen[rp->ntess_seen++] = (struct replay_tess_seen){ thread, buffer, lo, len, g, r };
}

/* The group of buffer `buffer` at `lo` of `len` bytes seen as another
 * valid tessellation, whose golden and replayed bytes [a, b) are `gd`'s
 * and `rd`'s: the same TF output, read again in part. */
static bool tess_seen_part(const struct replay *rp, uint32_t thread, uint64_t buffer, uint64_t lo,
			   uint64_t len, uint64_t a, uint64_t b, const uint8_t *gd, const uint8_t *rd)
{
	for (size_t i = 0; i < rp->ntess_seen; i++) {
		const struct replay_tess_seen *t = &rp->tess_seen[i];
		if (t->thread == thread && t->buffer == buffer && t->lo == lo && t->len == len &&
		    !memcmp(t->golden + (a - lo), gd, (size_t)(b - a)) &&
		    !memcmp(t->replay + (a - lo), rd, (size_t)(b - a)))
			return true;
	}
	return false;
}

/* ---- failed links --------------------------------------------------------------- */

static const struct replay_link_failure *failure_of(const struct replay *rp, uint64_t program,
						    uint64_t link_call)
{
	for (size_t i = 0; program && i < rp->nfailures; i++)
		if (rp->failures[i].program == program && rp->failures[i].link_call == link_call)
			return &rp->failures[i];
	return NULL;
}

void replay_positions_compared(struct replay *rp, const struct trace_call *call, bool equal)
{
	rp->positions_compared++;
	if (!equal && !rp->positions_differ)
		rp->positions_differ = call->no;
}

void replay_link_failed(struct replay *rp, const struct trace_call *call, uint64_t program,
			const char *why)
{
	const uint64_t link_call = trace_defined_link_call(rp->defined, call->thread_no, program);
	struct replay_link_failure *f = (struct replay_link_failure *)failure_of(rp, program,
										 link_call);

	if (!rp->defined || !program)
		return;
	if (!f) {
		f = xt_realloc(rp->failures, (rp->nfailures + 1) * sizeof *f);
		if (!f)
			return;   /* its consequences stay differences */
		rp->failures = f;
		f = &rp->failures[rp->nfailures++];
	}
	f->program = program;
	f->link_call = link_call;
	snprintf(f->why, sizeof f->why, "%s", why);
}

static void failure_text(char *buf, size_t n, const struct replay_link_failure *f)
{
	if (f->link_call)
		snprintf(buf, n, "program %" PRIu64 ", whose link at call %" PRIu64 " failed on the "
			 "replay (%s)", f->program, f->link_call, f->why);
	else
		snprintf(buf, n, "program %" PRIu64 ", whose link failed on the replay (%s)",
			 f->program, f->why);
}

const char *replay_link_consequence(struct replay *rp, const struct trace_call *call,
				    uint64_t program, bool uses_current)
{
	static __thread char text[320];
	uint64_t link_call = 0;
	const struct replay_link_failure *f;

	if (!rp->nfailures)
		return NULL;
	if (program)
		link_call = trace_defined_link_call(rp->defined, call->thread_no, program);
	else if (uses_current)
		program = trace_defined_program(rp->defined, call->thread_no, &link_call);
	if (!(f = failure_of(rp, program, link_call)))
		return NULL;
	failure_text(text, sizeof text, f);
	return text;
}

/* ---- explaining bytes --------------------------------------------------------- */

static uint64_t key_u(const struct trace_value *map, const char *key, uint64_t dflt)
{
	const struct trace_value *v = trace_value_get(map, key);
	return v && v->tag == TRACE_TAG_UINT ? v->u : dflt;
}

static bool kind_is(const struct trace_value *g, const char *kind)
{
	const struct trace_value *k = trace_value_get(g, "kind");
	return k && k->tag == TRACE_TAG_STRING && k->mem.len == strlen(kind) &&
	       !memcmp(k->mem.bytes, kind, k->mem.len);
}

/* "bytes 16..89, 120..127 of buffer 2": the undefined ranges where the data differ. */
static void ranges_text(char *buf, size_t n, const struct trace_ranges *u, uint64_t buffer)
{
	size_t k = (size_t)snprintf(buf, n, "bytes ");

	for (size_t i = 0; i < u->n && k < n; i++) {
		if (i == 3) {
			k += (size_t)snprintf(buf + k, n - k, ", ... (%zu ranges)", u->n);
			break;
		}
		k += (size_t)snprintf(buf + k, n - k, "%s%" PRIu64 "..%" PRIu64, i ? ", " : "",
				      u->r[i].lo, u->r[i].hi - 1);
	}
	if (k < n)
		snprintf(buf + k, n - k, " of buffer %" PRIu64, buffer);
}

/* Sets masked[a .. b) (data offsets) to the golden's; whether any differed. */
static bool take_golden(uint8_t *masked, const uint8_t *gd, size_t a, size_t b)
{
	bool any = false;

	for (size_t i = a; i < b; i++) {
		any |= masked[i] != gd[i];
		masked[i] = gd[i];
	}
	return any;
}

static const char *mode_name(uint32_t mode)
{
	switch (mode) {
	case 0x7: return "GL_QUADS";
	case 0x8: return "GL_QUAD_STRIP";
	case 0x9: return "GL_POLYGON";
	default: return "?";
	}
}

bool replay_explain(struct replay *rp, uint64_t no, const struct trace_value *g,
		    const struct trace_value *r, struct replay_explained *ex)
{
	const struct trace_value *gd = trace_value_get(g, "data"), *rd = trace_value_get(r, "data");
	const uint64_t buffer = key_u(g, "buffer", 0), offset = key_u(g, "offset", 0);
	const bool tf = kind_is(g, "tf_buffer");
	uint32_t thread;
	char why[256];

	memset(ex, 0, sizeof *ex);
	if (!rp->defined || !rp->last_valid || rp->last_no != no || !buffer ||
	    (!tf && !kind_is(g, "map_read") && !kind_is(g, "buffer_read")) ||
	    !gd || !rd || gd->tag != TRACE_TAG_BLOB || rd->tag != TRACE_TAG_BLOB ||
	    gd->mem.len != rd->mem.len || !gd->mem.len || r->tag != TRACE_TAG_MAP ||
	    offset > UINT64_MAX - gd->mem.len)
		return false;
	thread = rp->last.thread_no;
	const size_t len = gd->mem.len;
	const uint64_t end = offset + len;
	uint8_t *masked = xt_arena_memdup(&rp->cmp_arena, rd->mem.bytes, len);
	if (!masked)
		return false;

	/* Produced while a program was in use that the replay could not link. */
	const struct trace_defined_prod *prod;
	size_t np = trace_defined_producers(rp->defined, thread, buffer, &prod);
	for (size_t i = 0; i < np; i++) {
		const struct replay_link_failure *f = failure_of(rp, prod[i].program,
								 prod[i].link_call);
		if (!f || prod[i].hi <= offset || prod[i].lo >= end)
			continue;
		const uint64_t a = prod[i].lo > offset ? prod[i].lo : offset;
		const uint64_t b = prod[i].hi < end ? prod[i].hi : end;
		if (tf && a == offset && b == end)
			ex->whole = true;   /* the layout is that of another program too */
		if (!take_golden(masked, gd->mem.bytes, (size_t)(a - offset), (size_t)(b - offset)) &&
		    !ex->whole)
			continue;
		if (!ex->consequence) {
			char ft[400];
			failure_text(ft, sizeof ft, f);
			snprintf(ex->consequence_why, sizeof ex->consequence_why, "bytes %" PRIu64 "..%"
				 PRIu64 " of buffer %" PRIu64 " were written by TF (begun at call %" PRIu64
				 ") while %s was in use", a, b - 1, buffer, prod[i].begin_call, ft);
		}
		ex->consequence = true;
	}

	/* Computed from multisample texels where the sample positions may
	 * differ: which samples a primitive covers depends on them (GL 4.6
	 * §14.3.1), and so do the texels a sampler2DMS reads, and the sample
	 * count a multisample image gets may differ too.  Compared only where
	 * the trace shows the replay driver's positions are the capture's:
	 * every GL_SAMPLE_POSITION answer so far equal (none: unknown). */
	const bool positions_known_equal = rp->positions_compared && !rp->positions_differ;
	for (size_t i = 0; !positions_known_equal && i < np; i++) {
		if (prod[i].hi <= offset || prod[i].lo >= end ||
		    !trace_defined_multisample(rp->defined, thread, prod[i].program, prod[i].link_call))
			continue;
		const uint64_t a = prod[i].lo > offset ? prod[i].lo : offset;
		const uint64_t b = prod[i].hi < end ? prod[i].hi : end;
		if (!take_golden(masked, gd->mem.bytes, (size_t)(a - offset), (size_t)(b - offset)))
			continue;
		if (!ex->multisample) {
			char which[96];
			if (rp->positions_differ)
				snprintf(which, sizeof which, "which the replay's driver reports otherwise "
					 "(call %" PRIu64 " glGetMultisamplefv)", rp->positions_differ);
			else
				snprintf(which, sizeof which, "which the trace does not show to be the "
					 "replay's (no glGetMultisamplefv)");
			snprintf(ex->multisample_why, sizeof ex->multisample_why, "bytes %" PRIu64 "..%"
				 PRIu64 " of buffer %" PRIu64 " were written by TF (begun at call %" PRIu64
				 ") with program %" PRIu64 ", which reads multisample textures (sampler2DMS): "
				 "their samples depend on the sample positions, implementation-dependent "
				 "(GL 4.6 §14.3.1), %s", a, b - 1, buffer, prod[i].begin_call,
				 prod[i].program, which);
		}
		ex->multisample = true;
	}

	/* Triangles of quads and polygons in another valid order. */
	const struct trace_defined_tess *runs;
	size_t nr = trace_defined_tess_runs(rp->defined, thread, buffer, &runs);
	for (size_t i = 0; i < nr; i++) {
		const struct trace_defined_tess *t = &runs[i];
		const uint64_t gbytes = (uint64_t)t->group * 3 * t->vertex_bytes;
		for (uint64_t k = 0; gbytes && k + t->group <= t->nprims; k += t->group) {
			const uint64_t lo = t->offset + k * 3 * t->vertex_bytes;
			if (lo + gbytes <= offset || lo >= end)
				continue;
			if (lo < offset || lo + gbytes > end) {
				/* Part of the group in this observation (a read of a
				 * window of the buffer): the same rule holds for the
				 * same bytes, where a whole observation of the group
				 * showed it, and both sides read back what it showed. */
				const uint64_t a = lo > offset ? lo : offset;
				const uint64_t b = lo + gbytes < end ? lo + gbytes : end;
				const size_t pa = (size_t)(a - offset), pb = (size_t)(b - offset);
				if (!memcmp(gd->mem.bytes + pa, masked + pa, pb - pa) ||
				    !tess_seen_part(rp, thread, buffer, lo, gbytes, a, b,
						    gd->mem.bytes + pa, rd->mem.bytes + pa))
					continue;
				take_golden(masked, gd->mem.bytes, pa, pb);
			} else {
				const size_t at = (size_t)(lo - offset);
				if (!memcmp(gd->mem.bytes + at, masked + at, (size_t)gbytes) ||
				    !trace_defined_tess_equivalent(gd->mem.bytes + at, rd->mem.bytes + at,
								   t->group, t->vertex_bytes, t->written_dw))
					continue;
				take_golden(masked, gd->mem.bytes, at, at + (size_t)gbytes);
				tess_remember(rp, thread, buffer, lo, (size_t)gbytes, gd->mem.bytes + at,
					      rd->mem.bytes + at);
			}
			if (!ex->tess)
				snprintf(ex->tess_why, sizeof ex->tess_why, "the triangles TF made of the "
					 "%s of call %" PRIu64 " (bytes %" PRIu64 "..%" PRIu64 " of buffer %"
					 PRIu64 ") are another valid tessellation of the same vertices: the "
					 "order of tessellation within a primitive is undefined (GL 4.6 "
					 "compatibility profile §13.3)", mode_name(t->mode), t->draw_call, lo,
					 lo + gbytes - 1, buffer);
			ex->tess = true;
		}
	}

	/* Bytes the application never defined. */
	if (trace_defined_undefined(rp->defined, thread, buffer, offset, len, &rp->undef_scratch, why,
				    sizeof why)) {
		bool any = false;
		for (size_t i = 0; i < rp->undef_scratch.n; i++)
			any |= take_golden(masked, gd->mem.bytes,
					   (size_t)(rp->undef_scratch.r[i].lo - offset),
					   (size_t)(rp->undef_scratch.r[i].hi - offset));
		if (any) {
			char rt[160];
			ranges_text(rt, sizeof rt, &rp->undef_scratch, buffer);
			snprintf(ex->undefined_why, sizeof ex->undefined_why, "%s were never defined: %s",
				 rt, why);
			ex->undefined = true;
		}
	}
	if (!ex->undefined && !ex->tess && !ex->consequence && !ex->multisample)
		return false;

	/* The replay's observation with the explained bytes made the golden's. */
	struct trace_value *items = xt_arena_alloc(&rp->cmp_arena, r->agg.count * sizeof *items);
	if (!items)
		return false;
	memcpy(items, r->agg.items, r->agg.count * sizeof *items);
	for (uint32_t i = 0; i < r->agg.count; i++) {
		if (!strcmp(r->agg.keys[i], "data")) {
			items[i].mem.bytes = masked;
		} else if (ex->whole && !strcmp(r->agg.keys[i], "layout")) {
			const struct trace_value *gl = trace_value_get(g, "layout");
			if (gl)
				items[i] = *gl;
		}
	}
	ex->masked = *r;
	ex->masked.agg.items = items;
	return true;
}
