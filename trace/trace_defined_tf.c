/*
 * trace_defined_tf.c - transform feedback in the defined-bytes tracker
 * (trace_defined.h): which bytes of the bound buffers TF wrote.
 *
 * A session runs from glBeginTransformFeedback to glEnd.  Each draw made
 * while it is active and not paused adds its primitives, counted from the
 * draw's mode and vertex count as GL 4.6 §10.1 assembles them (strips and
 * fans share vertices; a loop closes; quads, quad strips and polygons are
 * triangles for TF, compatibility profile §13.3), times its instances.
 * Where the count cannot be known from the call (a geometry or tessellation
 * shader, an indirect draw, a display list, a program never seen linked)
 * the entry is "uncertain": from there on every bound range counts as
 * written to its end.  Primitive restart only ever lowers the count, so
 * counting without it errs towards defined; the groups of a restarted
 * strip are not known, though, so no tessellation run is kept for it.
 *
 * How many bytes a vertex takes in each buffer is the program's layout,
 * which only the golden tf_buffer observation after glEnd / glPause
 * carries: the pending primitives are placed when it arrives (or, when no
 * observation follows, at the next call, as uncertain).  As the GL does,
 * a primitive is written only if it fits in every buffer it writes to, and
 * writing stops at the first one that does not (GL 4.6 §13.3.2).
 *
 * Tessellated primitives leave *runs*: where the triangles of one quad or
 * polygon lie, so that the check can accept another valid order.
 */
#include <string.h>

#include "trace_defined_int.h"
#include "trace_tf.h"
#include "xt_fault.h"

struct dxfb *d_xfb_get(struct trace_defined *d, struct dctx *x, uint32_t name)
{
	for (size_t i = 0; i < d->nxfb; i++)
		if (d->xfb[i].ctx == x->handle && d->xfb[i].name == name)
			return &d->xfb[i];
	if (!d_grow(d, (void **)&d->xfb, &d->capxfb, d->nxfb + 1, sizeof *d->xfb))
		return NULL;
	struct dxfb *t = &d->xfb[d->nxfb++];
	memset(t, 0, sizeof *t);
	t->ctx = x->handle;
	t->name = name;
	return t;
}

static struct dxfb *xfb_current(struct trace_defined *d, struct dctx *x)
{
	for (size_t i = 0; i < d->nxfb; i++)
		if (d->xfb[i].ctx == x->handle && d->xfb[i].name == x->xfb)
			return &d->xfb[i];
	return NULL;
}

void d_tf_begin(struct trace_defined *d, struct dctx *x, uint64_t call_no, uint32_t mode)
{
	struct dxfb *t = d_xfb_get(d, x, x->xfb);
	const struct dprogram *p;
	uint32_t stages;

	if (!t)
		return;
	if (t->due)
		d_tf_resolve(d, t, NULL);
	t->active = true;
	t->paused = false;
	t->mode = mode;
	t->begin_call = call_no;
	t->thread = d->cur_thread;
	t->npending = 0;
	memset(t->pos, 0, sizeof t->pos);
	t->program = d_feeding_program(d, x, &stages);
	t->link_call = 0;
	if (t->program && (p = d_prog_find(d, x->group, (uint32_t)t->program)))
		t->link_call = p->link_call;
}

void d_tf_end(struct trace_defined *d, struct dctx *x, uint64_t call_no, bool pause)
{
	struct dxfb *t = xfb_current(d, x);

	if (!t || !t->active)
		return;
	if (pause)
		t->paused = true;
	else
		t->active = false;
	t->due = call_no;
}

void d_tf_resume(struct trace_defined *d, struct dctx *x)
{
	struct dxfb *t = xfb_current(d, x);

	if (t && t->active) {
		if (t->due)
			d_tf_resolve(d, t, NULL);
		t->paused = false;
	}
}

/* The primitives `mode` makes of `n` vertices for TF, and in *group the
 * triangles each source primitive of unspecified tessellation becomes (1
 * when none); *vpp_class the vertices per primitive of its class.  False
 * for modes TF cannot take without a geometry shader (patches). */
static bool count_prims(uint32_t mode, uint64_t n, uint64_t *prims, uint32_t *group,
			uint32_t *vpp_class)
{
	*group = 1;
	switch (mode) {
	case DGL_POINTS: *vpp_class = 1; *prims = n; return true;
	case DGL_LINES: *vpp_class = 2; *prims = n / 2; return true;
	case DGL_LINE_STRIP: *vpp_class = 2; *prims = n >= 2 ? n - 1 : 0; return true;
	case DGL_LINE_LOOP: *vpp_class = 2; *prims = n >= 2 ? n : 0; return true;
	case DGL_LINES_ADJACENCY: *vpp_class = 2; *prims = n / 4; return true;
	case DGL_LINE_STRIP_ADJACENCY: *vpp_class = 2; *prims = n >= 4 ? n - 3 : 0; return true;
	case DGL_TRIANGLES: *vpp_class = 3; *prims = n / 3; return true;
	case DGL_TRIANGLE_STRIP: case DGL_TRIANGLE_FAN:
		*vpp_class = 3;
		*prims = n >= 3 ? n - 2 : 0;
		return true;
	case DGL_TRIANGLES_ADJACENCY: *vpp_class = 3; *prims = n / 6; return true;
	case DGL_TRIANGLE_STRIP_ADJACENCY:
		*vpp_class = 3;
		*prims = n >= 6 ? (n - 4) / 2 : 0;
		return true;
	case DGL_QUADS:
		*vpp_class = 3;
		*prims = n / 4 * 2;
		*group = 2;
		return true;
	case DGL_QUAD_STRIP:
		*vpp_class = 3;
		*prims = n >= 4 ? (n - 2) / 2 * 2 : 0;
		*group = 2;
		return true;
	case DGL_POLYGON:
		*vpp_class = 3;
		*prims = n >= 3 ? n - 2 : 0;
		*group = *prims > 1 ? (uint32_t)(*prims > UINT32_MAX ? 1 : *prims) : 1;
		return true;
	default:
		return false;
	}
}

static uint32_t vpp_of(uint32_t tf_mode)
{
	switch (tf_mode) {
	case DGL_POINTS: return 1;
	case DGL_LINES: return 2;
	case DGL_TRIANGLES: return 3;
	default: return 0;
	}
}

void d_tf_draw(struct trace_defined *d, struct dctx *x, uint64_t call_no, uint32_t mode,
	       uint64_t count, uint64_t instances, bool known, bool restart)
{
	struct dxfb *t = xfb_current(d, x);
	uint64_t prims = 0;
	uint32_t group = 1, vclass = 0, stages;
	const uint32_t vpp = t ? vpp_of(t->mode) : 0;

	if (!t || !t->active || t->paused)
		return;
	d_feeding_program(d, x, &stages);
	if (t->due)   /* a pause's layout never came: place what is pending */
		d_tf_resolve(d, t, NULL);
	if (!known || !vpp || !count_prims(mode, count, &prims, &group, &vclass) || vclass != vpp ||
	    (instances && prims > UINT64_MAX / instances)) {
		known = false;
		prims = 0;
		/* An indirect draw of quads or a quad strip (no geometry or
		 * tessellation stage): its count is unknown, its triangles still
		 * come in pairs from where TF stands (d_tf_resolve). */
		group = (mode == DGL_QUADS || mode == DGL_QUAD_STRIP) && vpp == 3 &&
			!(stages & (ST_UNKNOWN | ST_GS | ST_TESS)) ? 2 : 1;
	} else {
		prims *= instances;
	}
	if (restart)
		group = 1;
	if (!d_grow(d, (void **)&t->pending, &t->cappending, t->npending + 1, sizeof *t->pending))
		return;
	t->pending[t->npending++] = (struct dpending){
		prims, vpp, group, mode, call_no, !known, vpp && !(stages & (ST_UNKNOWN | ST_STREAMS)) };
}

/* ---- placing the vertices ------------------------------------------------------ */

static bool add_tess(struct trace_defined *d, struct dbuf *b, const struct trace_defined_tess *r)
{
	if (!d_grow(d, (void **)&b->tess.v, &b->tess.cap, b->tess.n + 1, sizeof *b->tess.v))
		return false;
	b->tess.v[b->tess.n++] = *r;
	return true;
}

void d_tess_remove(struct dtess_list *l, uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct trace_defined_tess *r = &l->v[i];
		const uint64_t end = r->offset + r->nprims * 3 * r->vertex_bytes;
		if (r->offset < hi && end > lo)
			l->v[i--] = l->v[--l->n];
	}
}

void d_prod_remove(struct trace_defined *d, struct dprod_list *l, uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < l->n; i++) {
		struct trace_defined_prod *p = &l->v[i];
		if (p->lo >= hi || p->hi <= lo)
			continue;
		if (p->lo < lo && p->hi > hi) {   /* splits in two */
			if (!d_grow(d, (void **)&l->v, &l->cap, l->n + 1, sizeof *l->v))
				return;
			p = &l->v[i];
			l->v[l->n] = *p;
			l->v[l->n++].lo = hi;
			p->hi = lo;
			continue;
		}
		if (p->lo < lo) {
			p->hi = lo;
		} else if (p->hi > hi) {
			p->lo = hi;
		} else {
			l->v[i--] = l->v[--l->n];
		}
	}
}

/*
 * The bytes per vertex TF writes into each binding point, from a golden
 * layout (docs/trace-format.md, tf_buffer) of the session's `program`:
 * `strides`, checked against the varyings it should hold.  known[i] false
 * when binding i cannot be told: no layout, a layout without varyings (the
 * capture could not ask the program: a pipeline, xfb qualifiers on an older
 * query path) or of another program, a varying of an unknown type or past
 * the stride.
 */
static void strides_of(const struct trace_value *layout, uint64_t program, uint64_t *stride,
		       bool *known, uint64_t *written_dw)
{
	const struct trace_value *s = trace_value_get(layout, "strides");
	const struct trace_value *v = trace_value_get(layout, "varyings");
	const struct trace_value *p = trace_value_get(layout, "program");
	const bool usable = layout && s && s->tag == TRACE_TAG_ARRAY && v &&
			    v->tag == TRACE_TAG_ARRAY && v->agg.count && p &&
			    p->tag == TRACE_TAG_UINT && p->u && p->u == program;

	for (int i = 0; i < D_MAX_XFB; i++) {
		stride[i] = 0;
		known[i] = usable;
		written_dw[i] = 0;
	}
	if (!known[0])
		return;
	for (uint32_t i = 0; i < s->agg.count; i++) {
		if (i >= D_MAX_XFB || s->agg.items[i].tag != TRACE_TAG_UINT) {
			if (i < D_MAX_XFB)
				known[i] = false;
			continue;
		}
		stride[i] = s->agg.items[i].u;
	}
	for (uint32_t i = 0; i < v->agg.count; i++) {
		const struct trace_value *e = &v->agg.items[i];
		const struct trace_value *name = trace_value_get(e, "name");
		const struct trace_value *type = trace_value_get(e, "type");
		const struct trace_value *size = trace_value_get(e, "size");
		const struct trace_value *buf = trace_value_get(e, "buffer");
		const struct trace_value *off = trace_value_get(e, "offset");
		char nm[32] = "";
		if (name && name->tag == TRACE_TAG_STRING && name->mem.len < sizeof nm)
			memcpy(nm, name->mem.bytes, name->mem.len);
		if (trace_tf_is_marker(nm))
			continue;
		if (!buf || buf->tag != TRACE_TAG_UINT || buf->u >= D_MAX_XFB) {
			for (int k = 0; k < D_MAX_XFB; k++)
				known[k] = false;
			return;
		}
		const struct glapi_type *t = type ? trace_tf_type((uint32_t)type->u) : NULL;
		if (!t || !size || size->tag != TRACE_TAG_UINT || !off || off->tag != TRACE_TAG_UINT ||
		    size->u > UINT32_MAX || off->u > UINT32_MAX ||
		    off->u + size->u * t->components * t->component_bytes > stride[buf->u]) {
			known[buf->u] = false;
			continue;
		}
		/* The dwords of a vertex TF writes (gl_SkipComponents* and
		 * xfb_stride padding leave the others as they were). */
		const uint64_t end = off->u + size->u * t->components * t->component_bytes;
		for (uint64_t dw = off->u / 4; dw < (end + 3) / 4 && dw < 64; dw++)
			written_dw[buf->u] |= 1ull << dw;
	}
	/* Vertices of more than 64 dwords: every byte compared. */
	for (int i = 0; i < D_MAX_XFB; i++)
		if (!known[i] || stride[i] > 256 || stride[i] % 4)
			written_dw[i] = 0;
}

/*
 * What the golden queries say of the pending draws of `t` whose primitives
 * the tracker could not count: the smallest result of a primitives query
 * of stream 0 that was active over all of them (on the session's thread),
 * UINT64_MAX when none bounds them (or one of them may emit to another
 * vertex stream, which those queries do not count).
 */
static uint64_t query_bound(const struct trace_defined *d, const struct dxfb *t)
{
	uint64_t first = UINT64_MAX, last = 0, bound = UINT64_MAX;

	for (size_t e = 0; e < t->npending; e++) {
		const struct dpending *p = &t->pending[e];
		if (p->uncertain && !p->boundable)
			return UINT64_MAX;
		first = p->call < first ? p->call : first;
		last = p->call > last ? p->call : last;
	}
	for (size_t i = 0; i < d->nq; i++) {
		const struct dquery *q = &d->q[i];
		if (q->has_result && q->thread == t->thread && q->begin < first && q->end > last &&
		    q->result < bound)
			bound = q->result;
	}
	return bound;
}

void d_tf_resolve(struct trace_defined *d, struct dxfb *t, const struct trace_value *layout)
{
	struct dctx *x = NULL;
	uint64_t stride[D_MAX_XFB], start[D_MAX_XFB], cap[D_MAX_XFB];
	bool known[D_MAX_XFB];
	uint64_t written_dw[D_MAX_XFB];
	struct dbuf *buf[D_MAX_XFB];

	for (size_t i = 0; i < d->nctx; i++)
		if (d->ctx[i].handle == t->ctx)
			x = &d->ctx[i];
	strides_of(layout, t->program, stride, known, written_dw);
	for (int i = 0; i < D_MAX_XFB; i++) {
		const struct dxfb_binding *b = &t->b[i];
		buf[i] = x && b->buffer ? d_buf_find(d, x->group, b->buffer) : NULL;
		start[i] = b->offset;
		cap[i] = 0;
		if (!b->buffer)
			continue;
		cap[i] = UINT64_MAX;   /* unknown storage: every byte defined anyway */
		if (buf[i]) {
			cap[i] = buf[i]->size > b->offset ? buf[i]->size - b->offset : 0;
			if (b->size && b->size < cap[i])
				cap[i] = b->size;
		}
		if (t->pos[i] > cap[i])
			t->pos[i] = cap[i];
	}
	bool uncertain = false, layout_known = true;
	for (size_t e = 0; e < t->npending; e++)
		uncertain |= t->pending[e].uncertain;
	for (int i = 0; i < D_MAX_XFB; i++)
		layout_known &= !t->b[i].buffer || known[i];
	const uint64_t bound = uncertain && layout_known ? query_bound(d, t) : UINT64_MAX;
	const uint32_t vpp = vpp_of(t->mode);
	if (bound != UINT64_MAX && vpp) {
		/* At most `bound` primitives from the session's start in every
		 * buffer: those bytes count as written, the rest stays as it was. */
		for (int i = 0; i < D_MAX_XFB; i++) {
			if (!t->b[i].buffer || !stride[i] || stride[i] > UINT32_MAX)
				continue;
			const uint64_t per = vpp * stride[i];
			const uint64_t limit = bound > cap[i] / per ? cap[i] : bound * per;
			const struct dpending *p0 = t->npending == 1 ? &t->pending[0] : NULL;
			if (limit > t->pos[i] && buf[i]) {
				d_buf_define(d, buf[i], start[i] + t->pos[i], start[i] + limit);
				if (!buf[i]->tf_bytes)
					buf[i]->tf_first = t->due ? t->due : t->begin_call;
				buf[i]->tf_last = t->due ? t->due : t->begin_call;
				buf[i]->tf_bytes += limit - t->pos[i];
				/* One draw of quads or a quad strip whose count is
				 * unknown (indirect): its pairs of triangles, as many as
				 * the query bounds. */
				if (p0 && p0->group > 1 && (limit - t->pos[i]) / per >= p0->group)
					add_tess(d, buf[i], &(struct trace_defined_tess){
						start[i] + t->pos[i],
						(limit - t->pos[i]) / per / p0->group * p0->group,
						(uint32_t)stride[i], p0->group, p0->call, p0->mode,
						written_dw[i] });
			}
			if (limit > t->pos[i])
				t->pos[i] = limit;
		}
		t->npending = 0;
	}
	for (size_t e = 0; e < t->npending; e++) {
		const struct dpending *p = &t->pending[e];
		bool all = p->uncertain || !layout_known;
		uint64_t fit = p->prims;
		for (int i = 0; !all && i < D_MAX_XFB; i++) {
			if (!t->b[i].buffer || !stride[i] || stride[i] > UINT64_MAX / 3)
				continue;
			const uint64_t per = p->vpp * stride[i], room = cap[i] - t->pos[i];
			if (room / per < fit)
				fit = room / per;
		}
		for (int i = 0; i < D_MAX_XFB; i++) {
			if (!t->b[i].buffer || (!all && !stride[i]) || stride[i] > UINT64_MAX / 3)
				continue;
			const uint64_t bytes = all ? cap[i] - t->pos[i] : fit * p->vpp * stride[i];
			struct dbuf *b = buf[i];
			if (b && bytes) {
				const uint64_t lo = start[i] + t->pos[i];
				d_buf_define(d, b, lo, lo + bytes);
				if (!b->tf_bytes)
					b->tf_first = t->due ? t->due : p->call;
				b->tf_last = t->due ? t->due : p->call;
				b->tf_bytes += bytes;
				if (!all && p->group > 1 && fit >= p->group)
					add_tess(d, b, &(struct trace_defined_tess){
						lo, fit, (uint32_t)stride[i], p->group, p->call, p->mode,
						written_dw[i] });
				/* A count unknown (an indirect draw): the pairs of
				 * triangles from where TF stood to the end of the
				 * range; the check explains only those that are a
				 * valid tessellation of the golden's. */
				else if (all && layout_known && p->uncertain && p->group > 1 && stride[i] &&
					 bytes / (3 * stride[i]) >= p->group)
					add_tess(d, b, &(struct trace_defined_tess){
						lo, bytes / (3 * stride[i]) / p->group * p->group,
						(uint32_t)stride[i], p->group, p->call, p->mode, written_dw[i] });
			}
			t->pos[i] += bytes;
		}
	}
	/* What TF may have written in this session: the bound ranges. */
	for (int i = 0; x && i < D_MAX_XFB; i++) {
		struct dbuf *b = buf[i];
		if (!b || !cap[i])
			continue;
		d_prod_remove(d, &b->prod, start[i], start[i] + cap[i]);
		if (d_grow(d, (void **)&b->prod.v, &b->prod.cap, b->prod.n + 1, sizeof *b->prod.v))
			b->prod.v[b->prod.n++] = (struct trace_defined_prod){
				start[i], start[i] + cap[i], t->program, t->link_call, t->begin_call };
	}
	t->npending = 0;
	t->due = 0;
}

void d_tf_overdue(struct trace_defined *d, uint64_t call_no)
{
	for (size_t i = 0; i < d->nxfb; i++)
		if (d->xfb[i].due && d->xfb[i].due != call_no)
			d_tf_resolve(d, &d->xfb[i], NULL);
}

void trace_defined_observation(struct trace_defined *d, uint64_t call_no,
			       const struct trace_value *obs)
{
	const struct trace_value *kind = trace_value_get(obs, "kind");

	if (!d || d->broken || !kind || kind->tag != TRACE_TAG_STRING || kind->mem.len != 9 ||
	    memcmp(kind->mem.bytes, "tf_buffer", 9))
		return;
	const struct trace_value *layout = trace_value_get(obs, "layout");
	for (size_t i = 0; i < d->nxfb; i++)
		if (d->xfb[i].due == call_no)
			d_tf_resolve(d, &d->xfb[i], layout);
}

/* ---- the tessellation check ---------------------------------------------------- */

/* Vertices a and b are the same in the dwords TF writes (all: mask 0). */
static bool same_vertex(const uint8_t *a, const uint8_t *b, uint32_t n, uint64_t written_mask)
{
	if (!written_mask)
		return !memcmp(a, b, n);
	for (uint32_t dw = 0; dw < n / 4; dw++)
		if ((written_mask >> dw & 1) && memcmp(a + 4 * dw, b + 4 * dw, 4))
			return false;
	return true;
}

bool trace_defined_tess_equivalent(const uint8_t *golden, const uint8_t *replay,
				   uint32_t group, uint32_t vertex_bytes, uint64_t written_dw)
{
	const size_t nv = (size_t)group * 3;
	bool distinct = true;

	if (!group || !vertex_bytes || (written_dw && (vertex_bytes > 256 || vertex_bytes % 4)))
		return false;
	/* What TF did not write is what was there before, the same on both
	 * sides, in place. */
	for (size_t i = 0; written_dw && i < nv; i++)
		for (uint32_t dw = 0; dw < vertex_bytes / 4; dw++)
			if (!(written_dw >> dw & 1) &&
			    memcmp(golden + i * vertex_bytes + 4 * dw, replay + i * vertex_bytes + 4 * dw, 4))
				return false;
	/* Whether the golden's triangles are each made of distinct vertices. */
	for (size_t t = 0; t < group; t++) {
		const uint8_t *v = golden + t * 3 * vertex_bytes;
		if (same_vertex(v, v + vertex_bytes, vertex_bytes, written_dw) ||
		    same_vertex(v, v + 2 * vertex_bytes, vertex_bytes, written_dw) ||
		    same_vertex(v + vertex_bytes, v + 2 * vertex_bytes, vertex_bytes, written_dw))
			distinct = false;
	}
	/* Every vertex of the replay's is one of the golden's ... */
	for (size_t i = 0; i < nv; i++) {
		bool found = false;
		for (size_t k = 0; k < nv && !found; k++)
			found = same_vertex(replay + i * vertex_bytes, golden + k * vertex_bytes,
					    vertex_bytes, written_dw);
		if (!found)
			return false;
	}
	/* ... every vertex of the golden's is used by the replay's ... */
	for (size_t k = 0; k < nv; k++) {
		bool found = false;
		for (size_t i = 0; i < nv && !found; i++)
			found = same_vertex(replay + i * vertex_bytes, golden + k * vertex_bytes,
					    vertex_bytes, written_dw);
		if (!found)
			return false;
	}
	/* ... and its triangles are made of distinct ones, as the golden's are. */
	for (size_t t = 0; distinct && t < group; t++) {
		const uint8_t *v = replay + t * 3 * vertex_bytes;
		if (same_vertex(v, v + vertex_bytes, vertex_bytes, written_dw) ||
		    same_vertex(v, v + 2 * vertex_bytes, vertex_bytes, written_dw) ||
		    same_vertex(v + vertex_bytes, v + 2 * vertex_bytes, vertex_bytes, written_dw))
			return false;
	}
	return true;
}
