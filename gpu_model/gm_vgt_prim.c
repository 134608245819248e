/*
 * gm_vgt_prim.c - primitive assembly: a draw's vertex ids (with restart
 * marks) to a list of primitives, for every GL primitive type the GFX8 VGT
 * lists (docs/gcn-streamout.md §4.1).
 *
 * Vertex order inside each primitive follows the GL specification (it is
 * what transform feedback captures): odd strip triangles are (i+1, i, i+2),
 * fans (0, i+1, i+2), adjacency per GL's tables 10.1/10.2.  With a GS the
 * adjacency vertices are kept, in GS input order (v0 a0 v1 a1 v2 a2 for
 * triangles); without one they are dropped.  A restart index ends the
 * current strip / fan / loop, and an incomplete list primitive before it
 * is discarded.
 *
 * Assumption: quads, quad strips and polygons (compatibility-only in GL,
 * "implementation dependent" tessellation for TF) become triangles
 * (v0 v1 v2)(v0 v2 v3), fan-like for polygons; RECTLIST is taken as a
 * triangle list.
 */
#include <string.h>

#include "gm_priv.h"
#include "xt_fault.h"

struct out {
	struct gm_prim_list *l;
	uint32_t cap;
	bool nomem;
};

static void emit(struct out *o, const uint32_t *v, unsigned nv)
{
	struct gm_prim_list *l = o->l;
	if (o->nomem)
		return;
	if ((l->n + 1) * nv > o->cap) {
		uint32_t cap = o->cap ? o->cap * 2 : 192;
		uint32_t *n;
		while (cap < (l->n + 1) * nv)
			cap *= 2;
		n = xt_realloc(l->verts, cap * sizeof *n);
		if (!n) {
			o->nomem = true;
			return;
		}
		l->verts = n;
		o->cap = cap;
	}
	memcpy(l->verts + l->n * nv, v, nv * sizeof *v);
	l->n++;
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
		for (uint32_t i = 0; i + 2 < n; i++) {
			v[0] = s[i + (i & 1)];
			v[1] = s[i + 1 - (i & 1)];
			v[2] = s[i + 2];
			emit(o, v, 3);
		}
		break;
	case V_DI_PT_TRIFAN:
	case V_DI_PT_POLYGON:
		for (uint32_t i = 0; i + 2 < n; i++) {
			v[0] = s[0];
			v[1] = s[i + 1];
			v[2] = s[i + 2];
			emit(o, v, 3);
		}
		break;
	case V_DI_PT_QUADLIST:
		for (uint32_t i = 0; i + 3 < n; i += 4) {
			v[0] = s[i]; v[1] = s[i + 1]; v[2] = s[i + 2];
			emit(o, v, 3);
			v[0] = s[i]; v[1] = s[i + 2]; v[2] = s[i + 3];
			emit(o, v, 3);
		}
		break;
	case V_DI_PT_QUADSTRIP:
		for (uint32_t i = 0; i + 3 < n; i += 2) {
			/* quad (2i, 2i+1, 2i+3, 2i+2) in polygon order */
			v[0] = s[i]; v[1] = s[i + 1]; v[2] = s[i + 3];
			emit(o, v, 3);
			v[0] = s[i]; v[1] = s[i + 3]; v[2] = s[i + 2];
			emit(o, v, 3);
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
		 * vertices of edges 1-2, 2-3, 3-1. */
		uint32_t T = n >= 6 ? (n - 4) / 2 : 0;
		for (uint32_t i = 0; i < T; i++) {
			uint32_t P[3], A[3];
			bool odd = i & 1, last = i == T - 1;
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
				emit(o, v, 6);
			} else {
				for (unsigned k = 0; k < 3; k++)
					v[k] = s[P[k] - 1];
				emit(o, v, 3);
			}
		}
		break;
	}
	default:
		break;
	}
}

enum xt_rc gm_prim_assemble(unsigned t, const uint32_t *ids, const uint8_t *restart, uint32_t count,
			    bool keep_adjacency, struct gm_prim_list *l)
{
	struct out o = { l, 0, false };
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
	memset(l, 0, sizeof *l);
}
