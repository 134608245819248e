/*
 * diff_tf.c - comparing the contents of two TF buffer ranges as vertices,
 * varyings and components.
 *
 * The TF layout stored with each tf_buffer observation (docs/trace-format.md:
 * varyings with type, array size, binding point and byte offset, and the
 * stride of each binding point) is decoded once per (layout, binding point)
 * by trace/trace_tf.h, the decoder the replay check and the web UI use too,
 * into a *plan*: the components of one vertex of that buffer, sorted by
 * offset, and the gaps between them (gl_SkipComponents, padding from
 * xfb_offset / xfb_stride, varyings of a type we cannot decode).  This
 * covers interleaved and separate modes and gl_NextBuffer alike, because
 * the layout names each varying's buffer and offset.  A layout the decoder
 * finds hostile (a varying past the stride, overlapping varyings) is
 * XT_ERR_CORRUPT naming it.
 *
 * Comparing is then memcmp-first: a block of vertices whose bytes match is
 * skipped without decoding (so identical data costs about a memcmp), and
 * only a vertex with differing bytes is walked component by component under
 * the tolerance.  Gap bytes are compared exactly and reported as byte runs.
 * Bytes past the last whole vertex are compared as bytes too.
 *
 * Primitives are numbered from the observation's primitive_mode (the
 * glBeginTransformFeedback mode, which fixes how many vertices each captured
 * primitive wrote: 1, 2 or 3) counting from the start of the range.
 * Assumption: the range begins at a primitive boundary, as it does when the
 * application binds the buffer before glBeginTransformFeedback; a range
 * resumed into at an offset would number primitives from that offset.
 */
#include <stdlib.h>
#include <string.h>

#include "diff_int.h"
#include "xt_fault.h"

struct plan_comp {
	uint32_t offset;            /* bytes within a vertex */
	uint32_t element;           /* array element */
	const char *varying;
	const char *cname;          /* component name */
	uint8_t component;
	uint8_t bytes;              /* 4 or 8 */
	uint8_t scalar;             /* enum trace_tol_scalar */
	bool is_array;
};

struct plan_gap {
	uint32_t offset, len;
};

struct diff_plan {
	int64_t layout_id;
	uint32_t index;
	uint32_t stride;            /* 0: compare as bytes */
	const char *note;           /* why (some) bytes are not decoded */
	uint32_t ncomps;
	struct plan_comp *comps;
	uint32_t ngaps;
	struct plan_gap *gaps;
};

static const char *const vec_names[4] = { "x", "y", "z", "w" };
static const char *const mat_names[4][4] = {
	{ "[0][0]", "[0][1]", "[0][2]", "[0][3]" },
	{ "[1][0]", "[1][1]", "[1][2]", "[1][3]" },
	{ "[2][0]", "[2][1]", "[2][2]", "[2][3]" },
	{ "[3][0]", "[3][1]", "[3][2]", "[3][3]" },
};

static int comp_cmp(const void *x, const void *y)
{
	const struct plan_comp *a = x, *b = y;
	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

#define PLAN_CORRUPT(...) XT_FAIL(c->err, XT_ERR_CORRUPT, __VA_ARGS__)

/* Builds the components of one vertex of buffer `index`. */
static enum xt_rc plan_build(struct diff_ctx *c, const struct db_tf_layout *l, int64_t layout_id,
			     uint32_t index, struct diff_plan *p)
{
	struct xt_arena *a = &c->plan_arena;
	struct trace_tf_varying *vars;
	struct trace_tf_span *spans;
	struct trace_tf_plan tp;

	p->stride = index < l->nstrides ? l->strides[index] : 0;
	if (!p->stride) {
		p->note = "no stride for this binding point: compared as bytes";
		return XT_OK;
	}
	if (diff_tf_varyings(l, a, &vars) ||
	    !(spans = xt_arena_alloc(a, ((size_t)l->nvaryings + 1) * sizeof *spans)))
		return XT_FAIL(c->err, XT_ERR_NOMEM, "out of memory planning layout %lld",
			       (long long)layout_id);
	trace_tf_plan(vars, l->nvaryings, index, p->stride, spans, &tp);
	if (tp.undecodable)
		p->note = "a varying of a type diff cannot decode is compared as bytes";
	if (tp.past_stride >= 0) {
		const struct db_tf_varying *v = &l->varyings[tp.past_stride];
		return PLAN_CORRUPT("layout %lld: varying '%s' (%s[%u] at byte %u) ends past"
				    " the stride %u of buffer %u", (long long)layout_id,
				    v->name, v->type, v->size, v->offset, p->stride, index);
	}
	/* Each component takes at least 4 bytes of the stride unless varyings
	 * overlap, which GL forbids. */
	if (tp.components > p->stride / 4)
		return PLAN_CORRUPT("layout %lld: varyings of buffer %u overlap", (long long)layout_id,
				    index);
	if (tp.overlap >= 0)
		return PLAN_CORRUPT("layout %lld: varying '%s' overlaps another in buffer %u",
				    (long long)layout_id, l->varyings[tp.overlap].name, index);
	p->comps = xt_arena_alloc(a, (tp.components + 1) * sizeof *p->comps);
	uint8_t *covered = xt_calloc(p->stride, 1);
	if (!p->comps || !covered) {
		free(covered);
		return XT_FAIL(c->err, XT_ERR_NOMEM, "out of memory planning layout %lld",
			       (long long)layout_id);
	}
	for (uint32_t i = 0; i < tp.nspans; i++) {
		const struct trace_tf_span *s = &tp.spans[i];
		const struct glapi_type *t = s->type;
		const uint32_t sb = t->component_bytes;
		for (uint32_t e = 0; e < s->size; e++)
			for (uint32_t k = 0; k < t->components; k++) {
				struct plan_comp *pc = &p->comps[p->ncomps++];
				pc->offset = (uint32_t)s->offset + (e * t->components + k) * sb;
				pc->element = e;
				pc->varying = l->varyings[s->varying].name;
				pc->component = (uint8_t)k;
				pc->cname = t->columns > 1 ? mat_names[k / t->rows][k % t->rows]
					  : t->components > 1 ? vec_names[k] : "";
				pc->bytes = (uint8_t)sb;
				pc->scalar = (uint8_t)trace_tol_scalar_of(t);
				pc->is_array = s->size > 1;
				memset(covered + pc->offset, 1, sb);
			}
	}
	qsort(p->comps, p->ncomps, sizeof *p->comps, comp_cmp);

	uint32_t ngaps = 0;
	for (uint32_t i = 0; i < p->stride; i++)
		ngaps += !covered[i] && (i == 0 || covered[i - 1]);
	p->gaps = xt_arena_alloc(a, (ngaps + 1) * sizeof *p->gaps);
	if (!p->gaps) {
		free(covered);
		return XT_FAIL(c->err, XT_ERR_NOMEM, "out of memory planning layout %lld",
			       (long long)layout_id);
	}
	for (uint32_t i = 0; i < p->stride; i++) {
		if (covered[i])
			continue;
		if (i == 0 || covered[i - 1])
			p->gaps[p->ngaps++] = (struct plan_gap){ i, 0 };
		p->gaps[p->ngaps - 1].len++;
	}
	free(covered);
	return XT_OK;
}

static enum xt_rc plan_get(struct diff_ctx *c, int64_t layout_id, uint32_t index,
			   struct diff_plan **out)
{
	for (size_t i = 0; i < c->nplans; i++)
		if (c->plans[i]->layout_id == layout_id && c->plans[i]->index == index) {
			*out = c->plans[i];
			return XT_OK;
		}
	struct diff_plan **g = xt_realloc(c->plans, (c->nplans + 1) * sizeof *g);
	struct diff_plan *p = xt_arena_alloc(&c->plan_arena, sizeof *p);
	if (g)
		c->plans = g;
	if (!g || !p)
		return XT_FAIL(c->err, XT_ERR_NOMEM, "out of memory planning layout %lld",
			       (long long)layout_id);
	memset(p, 0, sizeof *p);
	p->layout_id = layout_id;
	p->index = index;
	enum xt_rc rc = XT_OK;
	if (layout_id) {
		struct db_tf_layout l;
		rc = db_layout_load(c->db, layout_id, &c->plan_arena, &l);
		if (rc)
			return xt_err_copy(c->err, db_err(c->db));
		rc = plan_build(c, &l, layout_id, index, p);
	} else {
		p->note = "no TF layout recorded: compared as bytes";
	}
	if (rc)
		return rc;
	c->plans[c->nplans++] = p;
	*out = p;
	return XT_OK;
}

enum xt_rc diff_bytes_compare(struct diff_ctx *c, uint64_t base, const uint8_t *a,
			      const uint8_t *b, size_t len)
{
	enum xt_rc rc = XT_OK;
	size_t i = 0;
	while (i < len && !rc) {
		size_t block = len - i < 4096 ? len - i : 4096;
		if (!memcmp(a + i, b + i, block)) {
			i += block;
			continue;
		}
		size_t end = i + block;
		while (i < end && !rc) {
			if (a[i] == b[i]) {
				i++;
				continue;
			}
			size_t j = i;
			while (j < len && a[j] != b[j])
				j++;
			struct diff_item it = { .kind = DIFF_ITEM_BYTES, .byte_offset = base + i,
						.byte_count = j - i, .a = a[i], .b = b[i] };
			c->cur.bytes_differ += j - i;
			rc = diff_item_add(c, &it);
			i = j;
		}
	}
	return rc;
}

static int verts_per_prim(const char *mode)
{
	if (!mode)
		return 0;
	if (!strcmp(mode, "GL_POINTS"))
		return 1;
	if (!strcmp(mode, "GL_LINES"))
		return 2;
	if (!strcmp(mode, "GL_TRIANGLES"))
		return 3;
	return 0;
}

static enum xt_rc vertex_compare(struct diff_ctx *c, const struct diff_plan *p, uint64_t v,
				 int vpp, const uint8_t *pa, const uint8_t *pb)
{
	enum xt_rc rc = XT_OK;
	uint64_t base = v * p->stride;

	for (uint32_t k = 0; k < p->ncomps && !rc; k++) {
		const struct plan_comp *pc = &p->comps[k];
		uint64_t x = 0, y = 0;
		memcpy(&x, pa + pc->offset, pc->bytes);
		memcpy(&y, pb + pc->offset, pc->bytes);
		enum trace_tol_why why;
		double delta;
		uint64_t ulps;
		if (x == y || !trace_tol_differ(pc->scalar, x, y, &c->o->tol, &why, &delta, &ulps))
			continue;
		c->cur.components_differ++;
		struct diff_item it = {
			.kind = DIFF_ITEM_COMPONENT,
			.vertex = v,
			.primitive = vpp ? (int64_t)(v / (uint64_t)vpp) : -1,
			.varying = pc->varying,
			.element = pc->is_array ? (int64_t)pc->element : -1,
			.component = pc->component,
			.component_name = pc->cname,
			.scalar = pc->scalar,
			.a = x,
			.b = y,
			.delta = delta,
			.ulps = ulps,
			.why = why,
			.byte_offset = base + pc->offset,
			.byte_count = pc->bytes,
		};
		rc = diff_item_add(c, &it);
	}
	for (uint32_t g = 0; g < p->ngaps && !rc; g++)
		rc = diff_bytes_compare(c, base + p->gaps[g].offset, pa + p->gaps[g].offset,
					pb + p->gaps[g].offset, p->gaps[g].len);
	return rc;
}

enum xt_rc diff_tf_compare(struct diff_ctx *c, int64_t layout_id, uint32_t index,
			   const char *primitive_mode, const uint8_t *a, size_t alen,
			   const uint8_t *b, size_t blen)
{
	struct diff_plan *p = NULL;
	size_t len = alen < blen ? alen : blen;
	enum xt_rc rc = plan_get(c, layout_id, index, &p);
	if (rc)
		return rc;
	c->cur.note = p->note;
	if (!p->stride)
		return diff_bytes_compare(c, 0, a, b, len);

	uint64_t nvert = len / p->stride;
	int vpp = verts_per_prim(primitive_mode);
	/* Vertices per memcmp block: about 16 KiB. */
	uint64_t per_block = p->stride >= 16384 ? 1 : 16384 / p->stride;
	c->cur.stride = p->stride;
	c->cur.vertices = nvert;
	c->cur.components_compared = nvert * p->ncomps;
	for (uint64_t v = 0; v < nvert && !rc; v += per_block) {
		uint64_t n = nvert - v < per_block ? nvert - v : per_block;
		size_t off = v * p->stride;
		if (!memcmp(a + off, b + off, n * p->stride))
			continue;
		for (uint64_t w = v; w < v + n && !rc; w++) {
			size_t o = w * p->stride;
			if (memcmp(a + o, b + o, p->stride))
				rc = vertex_compare(c, p, w, vpp, a + o, b + o);
		}
	}
	size_t tail = nvert * p->stride;
	return rc ? rc : diff_bytes_compare(c, tail, a + tail, b + tail, len - tail);
}
