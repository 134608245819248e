/*
 * gm_vgt_prim.c - primitive assembly: a draw's vertex ids (with restart
 * marks) to a list of primitives, for every GL primitive type the GFX8 VGT
 * lists (docs/gcn-streamout.md §4.1).
 *
 * Vertex order inside each primitive is what transform feedback records
 * and what a geometry shader receives.  GL (4.6 compat §13.3, and
 * ARB_provoking_vertex's clarification of transform feedback) extracts
 * every triangle of a strip or fan and every triangle a quad or polygon
 * is tessellated into as a separate primitive that keeps its winding and
 * its provoking vertex (the provoking-vertex table of the Flatshading
 * section): under the first-vertex convention the provoking vertex is
 * written first, under the last-vertex convention last.  So each triangle
 * is built in GL's winding order (odd strip triangles (i+1, i, i+2), fans
 * (0, i+1, i+2), strip adjacency per GL's table 10.1) and then rotated, which
 * keeps the winding, until its provoking vertex is in place:
 *
 *   strip, odd i:  first (i, i+2, i+1)      last (i+1, i, i+2)
 *   fan:           first (i+1, i+2, 0)      last (0, i+1, i+2)
 *
 * the order Mesa's NGG code gives the same hardware's strips
 * (ac_nir_lower_ngg.c, ngg_gs_export_primitives: "the provoking vertex is
 * kept", odd triangles swap the two others) and Mesa's GL input assembly
 * for Asahi (libagx_map_vertex_in_tri_strip, _for_tri_fan,
 * _for_tri_strip_adj).  The convention is PA_SU_SC_MODE_CNTL.PROVOKING_VTX_LAST,
 * which radeonsi sets to !flatshade_first.  With a GS the adjacency vertices
 * are kept, in GS input order (v0 a0 v1 a1 v2 a2 for triangles), and rotate
 * with their edge's vertex; without one they are dropped.  Lines have no
 * winding: (i, i+1) under both conventions.  A restart index ends the current
 * strip / fan / loop, and an incomplete list primitive before it is discarded.
 *
 * Quads, quad strips and polygons ("the order of tessellation within a
 * primitive is undefined", §13.3) are tessellated as a fan around their
 * provoking vertex, so that every triangle has the polygon's provoking
 * vertex as its own: a polygon's is its first vertex under both conventions;
 * a quad's (a quad strip's quad in boundary order 2k, 2k+1, 2k+3, 2k+2) is
 * its last, or its first under the first-vertex convention, as quads follow
 * the convention on radeonsi (PIPE_CAP_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION).
 * Assumption: the GFX8 VGT, which radeonsi hands quads, quad strips and
 * polygons natively (DI_PT_QUADLIST / QUADSTRIP / POLYGON), orders them so;
 * no document says how it tessellates them.  RECTLIST is taken as a
 * triangle list.
 */
#include <string.h>

#include "gm_priv.h"
#include "xt_fault.h"

struct out {
	struct gm_prim_list *l;
	uint32_t cap;
	bool nomem;
	bool last;      /* PA_SU_SC_MODE_CNTL.PROVOKING_VTX_LAST */
};

/* Emits one primitive of nv vertex ids; `edges` bit k: the edge from its
 * corner k to corner k + 1 (mod 3) is a boundary edge (gm_prim_list). */
static void emit_e(struct out *o, const uint32_t *v, unsigned nv, unsigned edges)
{
	struct gm_prim_list *l = o->l;
	if (o->nomem)
		return;
	if ((l->n + 1) * nv > o->cap) {
		uint32_t cap = o->cap ? o->cap * 2 : 192;
		uint32_t *n;
		uint8_t *e;
		while (cap < (l->n + 1) * nv)
			cap *= 2;
		n = xt_realloc(l->verts, cap * sizeof *n);
		if (!n) {
			o->nomem = true;
			return;
		}
		l->verts = n;
		e = xt_realloc(l->edges, cap);
		if (!e) {
			o->nomem = true;
			return;
		}
		l->edges = e;
		o->cap = cap;
	}
	memcpy(l->verts + l->n * nv, v, nv * sizeof *v);
	l->edges[l->n] = (uint8_t)edges;
	l->n++;
}

static void emit(struct out *o, const uint32_t *v, unsigned nv)
{
	emit_e(o, v, nv, 7);
}

/* Emits a triangle given in GL winding order as three corners of `per`
 * vertices each (1, or 2 with the adjacent vertex), the provoking vertex
 * at corner pv, rotated so that it is the first or the last corner;
 * `edges` bit k: corner k to k + 1 is a boundary edge (rotated along). */
static void emit_tri_e(struct out *o, const uint32_t *c, unsigned per, unsigned pv, unsigned edges)
{
	unsigned shift = (pv + 3 - (o->last ? 2 : 0)) % 3, e = 0;
	uint32_t v[6];

	for (unsigned k = 0; k < 3; k++) {
		for (unsigned j = 0; j < per; j++)
			v[k * per + j] = c[(k + shift) % 3 * per + j];
		e |= (edges >> ((k + shift) % 3) & 1u) << k;
	}
	emit_e(o, v, 3 * per, e);
}

static void emit_tri(struct out *o, const uint32_t *c, unsigned per, unsigned pv)
{
	emit_tri_e(o, c, per, pv, 7);
}

/* A polygon b[0..n) in boundary order with its provoking vertex at p, as
 * the fan of triangles around p (each with p as its provoking vertex).
 * The fan's interior edges (p to b[p + j], 1 < j < n - 1) are not boundary
 * edges: polygon modes draw only the polygon's own (GL 4.6 compat
 * §14.6.4, §10.1.17). */
static void emit_polygon(struct out *o, const uint32_t *b, unsigned n, unsigned p)
{
	for (unsigned j = 1; j + 1 < n; j++) {
		uint32_t c[3] = { b[p], b[(p + j) % n], b[(p + j + 1) % n] };
		unsigned edges = 2u | (j == 1 ? 1u : 0u) | (j + 2 == n ? 4u : 0u);
		emit_tri_e(o, c, 1, 0, edges);
	}
}

unsigned gm_prim_base_vpp(unsigned t)
{
	switch (t) {
	case V_DI_PT_POINTLIST: return 1;
	case V_DI_PT_LINELIST: case V_DI_PT_LINESTRIP: case V_DI_PT_LINELOOP:
	case V_DI_PT_LINELIST_ADJ: case V_DI_PT_LINESTRIP_ADJ: return 2;
	case V_DI_PT_TRILIST: case V_DI_PT_TRIFAN: case V_DI_PT_TRISTRIP:
	case V_DI_PT_TRILIST_ADJ: case V_DI_PT_TRISTRIP_ADJ: case V_DI_PT_RECTLIST:
	case V_DI_PT_QUADLIST: case V_DI_PT_QUADSTRIP: case V_DI_PT_POLYGON: return 3;
	}
	return 0;
}

/* Assembles one restart-free run s[0..n). */
static void run(struct out *o, unsigned t, const uint32_t *s, uint32_t n, bool adj)
{
	uint32_t v[6];

	switch (t) {
	case V_DI_PT_POINTLIST:
		for (uint32_t i = 0; i < n; i++)
			emit(o, &s[i], 1);
		break;
	case V_DI_PT_LINELIST:
		for (uint32_t i = 0; i + 1 < n; i += 2)
			emit(o, &s[i], 2);
		break;
	case V_DI_PT_LINESTRIP:
		for (uint32_t i = 0; i + 1 < n; i++)
			emit(o, &s[i], 2);
		break;
	case V_DI_PT_LINELOOP:
		for (uint32_t i = 0; i + 1 < n; i++)
			emit(o, &s[i], 2);
		if (n >= 2) {
			v[0] = s[n - 1];
			v[1] = s[0];
			emit(o, v, 2);
		}
		break;
	case V_DI_PT_TRILIST:
	case V_DI_PT_RECTLIST:
		for (uint32_t i = 0; i + 2 < n; i += 3)
			emit(o, &s[i], 3);
		break;
	case V_DI_PT_TRISTRIP:
		/* provoking vertex: first i, last i+2 */
		for (uint32_t i = 0; i + 2 < n; i++) {
			v[0] = s[i + (i & 1)];
			v[1] = s[i + 1 - (i & 1)];
			v[2] = s[i + 2];
			emit_tri(o, v, 1, o->last ? 2 : i & 1);
		}
		break;
	case V_DI_PT_TRIFAN:
		/* provoking vertex: first i+1, last i+2 */
		for (uint32_t i = 0; i + 2 < n; i++) {
			v[0] = s[0];
			v[1] = s[i + 1];
			v[2] = s[i + 2];
			emit_tri(o, v, 1, o->last ? 2 : 1);
		}
		break;
	case V_DI_PT_POLYGON:
		if (n >= 3)
			emit_polygon(o, s, n, 0);
		break;
	case V_DI_PT_QUADLIST:
		for (uint32_t i = 0; i + 3 < n; i += 4)
			emit_polygon(o, &s[i], 4, o->last ? 3 : 0);
		break;
	case V_DI_PT_QUADSTRIP:
		for (uint32_t i = 0; i + 3 < n; i += 2) {
			uint32_t b[4] = { s[i], s[i + 1], s[i + 3], s[i + 2] };
			emit_polygon(o, b, 4, o->last ? 2 : 0);
		}
		break;
	case V_DI_PT_LINELIST_ADJ:
		for (uint32_t i = 0; i + 3 < n; i += 4)
			emit(o, adj ? &s[i] : &s[i + 1], adj ? 4 : 2);
		break;
	case V_DI_PT_LINESTRIP_ADJ:
		for (uint32_t i = 1; i + 2 < n; i++)
			emit(o, adj ? &s[i - 1] : &s[i], adj ? 4 : 2);
		break;
	case V_DI_PT_TRILIST_ADJ:
		/* provoking vertex: first 6i-5, last 6i-1 (1-based), in place */
		for (uint32_t i = 0; i + 5 < n; i += 6) {
			if (adj) {
				emit(o, &s[i], 6);
			} else {
				v[0] = s[i]; v[1] = s[i + 2]; v[2] = s[i + 4];
				emit(o, v, 3);
			}
		}
		break;
	case V_DI_PT_TRISTRIP_ADJ: {
		/* GL table 10.1, 1-based: P = primitive vertices, A = adjacent
		 * vertices of edges 1-2, 2-3, 3-1.  Provoking vertex: first
		 * 2i-1 (P[0] of even triangles, P[1] of odd ones), last 2i+3
		 * (P[2]). */
		uint32_t T = n >= 6 ? (n - 4) / 2 : 0;
		for (uint32_t i = 0; i < T; i++) {
			uint32_t P[3], A[3];
			bool odd = i & 1, last = i == T - 1;
			unsigned pv = o->last ? 2 : odd;
			if (T == 1) {
				P[0] = 1; P[1] = 3; P[2] = 5; A[0] = 2; A[1] = 6; A[2] = 4;
			} else if (i == 0) {
				P[0] = 1; P[1] = 3; P[2] = 5; A[0] = 2; A[1] = 7; A[2] = 4;
			} else if (odd) {
				P[0] = 2 * i + 3; P[1] = 2 * i + 1; P[2] = 2 * i + 5;
				A[0] = 2 * i - 1; A[1] = 2 * i + 4; A[2] = last ? 2 * i + 6 : 2 * i + 7;
			} else {
				P[0] = 2 * i + 1; P[1] = 2 * i + 3; P[2] = 2 * i + 5;
				A[0] = 2 * i - 1; A[1] = last ? 2 * i + 6 : 2 * i + 7; A[2] = 2 * i + 4;
			}
			if (adj) {
				for (unsigned k = 0; k < 3; k++) {
					v[2 * k] = s[P[k] - 1];
					v[2 * k + 1] = s[A[k] - 1];
				}
				emit_tri(o, v, 2, pv);
			} else {
				for (unsigned k = 0; k < 3; k++)
					v[k] = s[P[k] - 1];
				emit_tri(o, v, 1, pv);
			}
		}
		break;
	}
	default:
		break;
	}
}

enum xt_rc gm_prim_assemble(unsigned t, const uint32_t *ids, const uint8_t *restart, uint32_t count,
			    bool keep_adjacency, bool provoking_last, struct gm_prim_list *l)
{
	struct out o = { l, 0, false, provoking_last };
	bool is_adj = t == V_DI_PT_LINELIST_ADJ || t == V_DI_PT_LINESTRIP_ADJ ||
		      t == V_DI_PT_TRILIST_ADJ || t == V_DI_PT_TRISTRIP_ADJ;
	bool adj = keep_adjacency && is_adj;
	uint32_t start = 0;

	memset(l, 0, sizeof *l);
	if (!gm_prim_base_vpp(t))
		return XT_ERR_UNSUPPORTED;
	l->verts_per_prim = adj ? (t == V_DI_PT_LINELIST_ADJ || t == V_DI_PT_LINESTRIP_ADJ ? 4 : 6)
				: gm_prim_base_vpp(t);
	for (uint32_t i = 0; i <= count; i++) {
		if (i < count && !(restart && restart[i]))
			continue;
		run(&o, t, ids + start, i - start, adj);
		start = i + 1;
	}
	if (o.nomem) {
		gm_prim_list_fini(l);
		return XT_ERR_NOMEM;
	}
	return XT_OK;
}

void gm_prim_list_fini(struct gm_prim_list *l)
{
	xt_free(l->verts);
	xt_free(l->edges);
	memset(l, 0, sizeof *l);
}
