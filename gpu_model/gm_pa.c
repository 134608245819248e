/*
 * gm_pa.c - the primitive assembler after the VS (docs/pixel-pipeline.md
 * "PA"): clipping in clip space (view volume with the guard band, user
 * planes, clip and cull distances), perspective divide, the viewport
 * transform, snapping, face culling, and the expansion of points and lines
 * into the triangles the scan converter draws.  Each triangle is set up
 * (gm_px_tri: positions, 1/w, the attribute planes P0/P10/P20) in a slot of
 * the pixel-shader wave being filled (gm_ps.c) and scan-converted (gm_sc.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gm_px.h"
#include "xt_fault.h"

#define MAX_CLIP_PLANES 21   /* w, x, y, z: 7; user planes 6; clip distances 8 */
#define MAX_POLY (3 + MAX_CLIP_PLANES)

/* A vertex while clipping: clip position, params, point size, distances. */
struct cv {
	float c[4];
	float psize;
	float dist[8];
	float a[GM_PX_MAX_PARAMS][4];
	float sprite[2];           /* point sprite s, t (points only) */
	bool edge;                 /* polygons: the edge to the next vertex is a boundary edge */
};

static void cv_from(struct cv *o, const struct gm_px_vtx *v, unsigned n_par)
{
	memcpy(o->c, v->pos, sizeof o->c);
	o->psize = v->psize;
	memcpy(o->dist, v->dist, sizeof o->dist);
	memcpy(o->a, v->param, sizeof o->a[0] * n_par);
	o->sprite[0] = o->sprite[1] = 0;
	o->edge = true;
}

static void cv_lerp(struct cv *o, const struct cv *a, const struct cv *b, float t, unsigned n_par)
{
	for (unsigned k = 0; k < 4; k++)
		o->c[k] = a->c[k] + t * (b->c[k] - a->c[k]);
	o->psize = a->psize + t * (b->psize - a->psize);
	for (unsigned k = 0; k < 8; k++)
		o->dist[k] = a->dist[k] + t * (b->dist[k] - a->dist[k]);
	for (unsigned i = 0; i < n_par; i++)
		for (unsigned k = 0; k < 4; k++)
			o->a[i][k] = a->a[i][k] + t * (b->a[i][k] - a->a[i][k]);
	o->sprite[0] = a->sprite[0] + t * (b->sprite[0] - a->sprite[0]);
	o->sprite[1] = a->sprite[1] + t * (b->sprite[1] - a->sprite[1]);
	o->edge = a->edge;
}

/* Signed distance of a vertex to clip plane `p` (inside >= 0). */
struct plane { unsigned kind, n; };
enum { PL_XL, PL_XR, PL_YB, PL_YT, PL_ZN, PL_ZF, PL_W, PL_UCP, PL_DIST };

static float plane_dist(const struct gm_px *px, const struct plane *pl, const struct cv *v)
{
	const float *c = v->c;
	switch (pl->kind) {
	case PL_XL: return c[0] + px->gb_x * c[3];
	case PL_XR: return px->gb_x * c[3] - c[0];
	case PL_YB: return c[1] + px->gb_y * c[3];
	case PL_YT: return px->gb_y * c[3] - c[1];
	case PL_ZN: return PA_CL_CLIP_CNTL_DX_CLIP_SPACE_DEF_GET(px->clip_cntl) ? c[2] : c[2] + c[3];
	case PL_ZF: return c[3] - c[2];
	case PL_W: return c[3];
	case PL_DIST: return v->dist[pl->n];
	default:
		return px->ucp[pl->n][0] * c[0] + px->ucp[pl->n][1] * c[1] +
		       px->ucp[pl->n][2] * c[2] + px->ucp[pl->n][3] * c[3];
	}
}

/* The planes a primitive is clipped by: w > 0, x and y (`xy`: not for
 * points), near / far, the user planes UCP_ENA_n (PA_CL_UCP_n against the
 * position) and, `dist`, the VS's clip distances CLIP_DIST_ENA_n (not for
 * points, which the PA does not clip by them: radeonsi makes them cull
 * distances too, docs/pixel-pipeline.md). */
static unsigned clip_planes(const struct gm_px *px, struct plane *pl, bool xy, bool dist)
{
	unsigned n = 0;
	bool dis = PA_CL_CLIP_CNTL_CLIP_DISABLE_GET(px->clip_cntl);

	pl[n++] = (struct plane){ PL_W, 0 };
	if (!dis) {
		if (xy) {
			pl[n++] = (struct plane){ PL_XL, 0 };
			pl[n++] = (struct plane){ PL_XR, 0 };
			pl[n++] = (struct plane){ PL_YB, 0 };
			pl[n++] = (struct plane){ PL_YT, 0 };
		}
		if (!PA_CL_CLIP_CNTL_ZCLIP_NEAR_DISABLE_GET(px->clip_cntl))
			pl[n++] = (struct plane){ PL_ZN, 0 };
		if (!PA_CL_CLIP_CNTL_ZCLIP_FAR_DISABLE_GET(px->clip_cntl))
			pl[n++] = (struct plane){ PL_ZF, 0 };
		for (unsigned i = 0; i < 6; i++)
			if ((px->clip_cntl >> i) & 1)
				pl[n++] = (struct plane){ PL_UCP, i };
		for (unsigned i = 0; i < 8 && dist; i++)
			if ((px->vs_out_cntl >> i) & 1)
				pl[n++] = (struct plane){ PL_DIST, i };
	}
	return n;
}

/* Cull distances (CULL_DIST_ENA_n): a primitive whose vertices all have a
 * negative distance n is dropped. */
static bool culled(const struct gm_px *px, const struct cv *v, unsigned n)
{
	for (unsigned d = 0; d < 8; d++) {
		bool out = (px->vs_out_cntl >> (8 + d)) & 1;
		for (unsigned i = 0; i < n && out; i++)
			out = v[i].dist[d] < 0;
		if (out)
			return true;
	}
	return false;
}

/* Sutherland-Hodgman against every plane; returns the vertex count (0:
 * culled).  A polygon of 2 vertices is a line segment; `xy` false: a point
 * (no x / y planes, no clip distances).  Edge flags: a vertex where the
 * polygon enters the plane starts the rest of the original edge and keeps
 * its flag; one where it leaves starts the edge along the plane, a
 * boundary edge for a user plane or clip distance, not for the view
 * volume's (Assumption: as Mesa's draw module clips, docs/pixel-pipeline.md). */
static unsigned clip_poly(const struct gm_px *px, struct cv *buf0, struct cv *buf1, unsigned n,
			  bool xy, struct cv **out)
{
	struct plane pl[MAX_CLIP_PLANES];
	unsigned np = clip_planes(px, pl, xy, xy);
	struct cv *in = buf0, *o = buf1;
	unsigned n_par = px->n_inputs ? GM_PX_MAX_PARAMS : 0;

	for (unsigned p = 0; p < np && n; p++) {
		float d[MAX_POLY];
		bool all_in = true, all_out = true, user = pl[p].kind == PL_UCP || pl[p].kind == PL_DIST;
		unsigned m = 0;
		for (unsigned i = 0; i < n; i++) {
			d[i] = plane_dist(px, &pl[p], &in[i]);
			if (pl[p].kind == PL_W)
				d[i] -= 1e-30f;        /* strictly positive w */
			all_in &= d[i] >= 0;
			all_out &= !(d[i] >= 0);
		}
		if (all_in)
			continue;
		if (all_out)
			return 0;
		if (n == 2) {   /* a segment: move the outside end */
			float t = d[0] / (d[0] - d[1]);
			if (d[0] < 0)
				cv_lerp(&o[0], &in[0], &in[1], t, n_par), o[1] = in[1];
			else
				o[0] = in[0], cv_lerp(&o[1], &in[0], &in[1], t, n_par);
			m = 2;
		} else {
			for (unsigned i = 0; i < n && m < MAX_POLY; i++) {
				unsigned j = (i + 1) % n;
				if (d[i] >= 0)
					o[m++] = in[i];
				if ((d[i] >= 0) != (d[j] >= 0) && m < MAX_POLY) {
					cv_lerp(&o[m], &in[i], &in[j], d[i] / (d[i] - d[j]), n_par);
					o[m++].edge = d[i] >= 0 ? user : in[i].edge;
				}
			}
		}
		struct cv *t = in;
		in = o;
		o = t;
		n = m;
	}
	*out = in;
	return n;
}

/* Clip space -> window (x, y in pixels, z), 1/w. */
struct wv {
	double x, y, z, inv_w;
	int64_t X, Y;
	const struct cv *v;
};

static int64_t snap(double v)
{
	return (int64_t)nearbyint(v * GM_PX_SUBPIX);   /* round to nearest even */
}

static bool to_window(const struct gm_px *px, const struct cv *v, struct wv *o)
{
	double iw = 1.0 / v->c[3], p[3];
	/* the divide and the viewport transform in f32, as the PA (and Mesa's
	 * draw module) compute them */
	for (unsigned k = 0; k < 3; k++) {
		float ndc = v->c[k] / v->c[3];
		float scaled = ndc * px->vp_scale[k];
		p[k] = scaled + px->vp_offset[k];
	}
	if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]) || fabs(p[0]) > 1e6 || fabs(p[1]) > 1e6)
		return false;
	o->X = snap(p[0]);
	o->Y = snap(p[1]);
	o->x = (double)o->X / GM_PX_SUBPIX;
	o->y = (double)o->Y / GM_PX_SUBPIX;
	o->z = (float)p[2];
	o->inv_w = iw;
	o->v = v;
	return true;
}

/* The PS input planes of a triangle (vertex order a, b, c); `flat` is the
 * provoking vertex's params. */
static void setup_attrs(const struct gm_px *px, struct gm_px_tri *t, const struct cv *a,
			const struct cv *b, const struct cv *c, const struct cv *flat, bool point)
{
	static const float defaults[4][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 0 }, { 1, 1, 1, 1 } };

	for (unsigned i = 0; i < px->n_inputs; i++) {
		uint32_t cntl = px->input_cntl[i];
		unsigned off = SPI_PS_INPUT_CNTL_OFFSET_GET(cntl);
		bool flat_shade = SPI_PS_INPUT_CNTL_FLAT_SHADE_GET(cntl);
		for (unsigned k = 0; k < 4; k++) {
			float *co = t->coef[i][k];
			/* point sprites: SPI_INTERP_CONTROL_0.PNT_SPRITE_OVRD_k picks
			 * 0, 1, S, T or the parameter (4) per channel; without
			 * PNT_SPRITE_ENA x, y are S, T */
			unsigned sel = !SPI_INTERP_CONTROL_0_PNT_SPRITE_ENA_GET(px->interp_cntl) ? (k < 2 ? 2 + k : 4)
				       : (px->interp_cntl >> (SPI_INTERP_CONTROL_0_PNT_SPRITE_OVRD_X__SHIFT + 3 * k)) & 7;
			if (point && SPI_PS_INPUT_CNTL_PT_SPRITE_TEX_GET(cntl) && sel < 4) {
				unsigned st = sel - 2;
				if (sel < 2) {
					co[0] = (float)sel;
					co[1] = co[2] = 0;
				} else {
					co[0] = a->sprite[st];
					co[1] = b->sprite[st] - a->sprite[st];
					co[2] = c->sprite[st] - a->sprite[st];
				}
			} else if (off >= 0x20 || !(px->vs_param_mask >> off & 1)) {
				co[0] = defaults[SPI_PS_INPUT_CNTL_DEFAULT_VAL_GET(cntl)][k];
				co[1] = co[2] = 0;
			} else if (flat_shade) {
				co[0] = flat->a[off][k];
				co[1] = co[2] = 0;
			} else {
				co[0] = a->a[off][k];
				co[1] = b->a[off][k] - a->a[off][k];
				co[2] = c->a[off][k] - a->a[off][k];
			}
		}
	}
}

/* Sets up and draws triangle (a, b, c) in window space; `cull`: apply face
 * culling (triangles only). */
static void emit_tri(struct gm_px *px, const struct wv *a, const struct wv *b, const struct wv *c,
		     const struct cv *flat, bool cull, bool persp, bool point, int force_front)
{
	int64_t area = (b->X - a->X) * (c->Y - a->Y) - (c->X - a->X) * (b->Y - a->Y);
	bool front;
	struct gm_px_tri *t;
	const struct wv *v[3] = { a, b, c };

	if (area == 0)
		return;
	/* GL window coordinates: counter-clockwise has positive area */
	front = PA_SU_SC_MODE_CNTL_FACE_GET(px->su_mode) ? area < 0 : area > 0;
	if (force_front >= 0)
		front = force_front;
	else if (cull && ((front && PA_SU_SC_MODE_CNTL_CULL_FRONT_GET(px->su_mode)) ||
			  (!front && PA_SU_SC_MODE_CNTL_CULL_BACK_GET(px->su_mode))))
		return;
	t = gm_ps_new_tri(px);
	if (!t)
		return;
	for (unsigned i = 0; i < 3; i++) {
		t->X[i] = v[i]->X;
		t->Y[i] = v[i]->Y;
		t->x[i] = v[i]->x;
		t->y[i] = v[i]->y;
		t->z[i] = v[i]->z;
		t->inv_w[i] = persp ? v[i]->inv_w : 1.0;
	}
	t->front = front;
	t->persp = persp;
	{
		/* the weight planes: b1 = cross(p - v0, v2 - v0) / area,
		 * b2 = cross(v1 - v0, p - v0) / area */
		double ax = t->x[1] - t->x[0], ay = t->y[1] - t->y[0];
		double bx = t->x[2] - t->x[0], by = t->y[2] - t->y[0];
		double ar = ax * by - bx * ay;
		t->pb[0][0] = by / ar;
		t->pb[0][1] = -bx / ar;
		t->pb[0][2] = -(t->x[0] * by - bx * t->y[0]) / ar;
		t->pb[1][0] = -ay / ar;
		t->pb[1][1] = ax / ar;
		t->pb[1][2] = -(ax * t->y[0] - t->x[0] * ay) / ar;
	}
	setup_attrs(px, t, a->v, b->v, c->v, flat, point);
	gm_sc_tri(px, t);
}

/* The point at window position c of clip vertex v: a square of half size
 * PA_SU_POINT_SIZE (or the vertex's), clamped, as two triangles with
 * `front` their facing. */
static void raster_point(struct gm_px *px, const struct cv *v, const struct wv *c, const struct cv *flat,
			 bool front)
{
	struct cv q[4];
	struct wv w[4];
	float half = px->point_half;
	bool top1 = SPI_INTERP_CONTROL_0_PNT_SPRITE_TOP_1_GET(px->interp_cntl);

	if (PA_CL_VS_OUT_CNTL_USE_VTX_POINT_SIZE_GET(px->vs_out_cntl))
		half = v->psize * 0.5f;
	half = half < px->point_min ? px->point_min : half > px->point_max ? px->point_max : half;
	if (!(half > 0))
		return;
	for (unsigned i = 0; i < 4; i++) {
		double dx = (i == 1 || i == 2) ? half : -half, dy = i >= 2 ? half : -half;
		q[i] = *v;
		w[i] = *c;
		w[i].X = snap(c->x + dx);
		w[i].Y = snap(c->y + dy);
		w[i].x = (double)w[i].X / GM_PX_SUBPIX;
		w[i].y = (double)w[i].Y / GM_PX_SUBPIX;
		w[i].inv_w = 1.0;
		q[i].sprite[0] = dx > 0 ? 1.0f : 0.0f;
		/* t = 0 at the top row (smallest y) unless PNT_SPRITE_TOP_1 */
		q[i].sprite[1] = (dy > 0) != top1 ? 1.0f : 0.0f;
		w[i].v = &q[i];
	}
	emit_tri(px, &w[0], &w[1], &w[2], flat, false, false, true, front);
	emit_tri(px, &w[0], &w[2], &w[3], flat, false, false, true, front);
}

/* Logs a width-1 segment drawn with one raster sample (gm_lines_get):
 * where GL 4.6 §14.5.1 lets implementations differ. */
static void log_line(struct gm_px *px, const struct wv e[2])
{
	struct gm *gm = px->gm;

	if (px->line_half != 0.5f || px->samples != 1)
		return;
	if (gm->nlines == gm->cap_lines) {
		size_t cap = gm->cap_lines ? 2 * gm->cap_lines : 64;
		struct gm_line *n = gm->nlines < GM_LINES_MAX ? xt_realloc(gm->lines, cap * sizeof *n)
							      : NULL;
		if (!n) {
			gm->lines_dropped++;
			return;
		}
		gm->lines = n;
		gm->cap_lines = cap;
	}
	struct gm_line *l = &gm->lines[gm->nlines++];
	*l = (struct gm_line){ e[0].X, e[0].Y, e[1].X, e[1].Y, { 0 }, px->target_samples,
			       px->db.count };
	for (unsigned i = 0; i < 8; i++)
		l->cb_va[i] = px->cb[i].on ? px->cb[i].va : 0;
}

/* The segment between window positions e[0], e[1]: a parallelogram
 * displaced by +-half along the minor axis, with `front` its facing. */
static void raster_segment(struct gm_px *px, const struct wv e[2], const struct cv *flat, bool front)
{
	struct wv w[4];
	double half = px->line_half;
	bool xmajor;

	if (!(half > 0))
		return;
	log_line(px, e);
	xmajor = llabs(e[1].X - e[0].X) >= llabs(e[1].Y - e[0].Y);
	for (unsigned i = 0; i < 4; i++) {
		const struct wv *s = &e[(i == 1 || i == 2) ? 1 : 0];
		double d = i >= 2 ? half : -half;
		w[i] = *s;
		if (xmajor)
			w[i].Y = snap(s->y + d);
		else
			w[i].X = snap(s->x + d);
		w[i].x = (double)w[i].X / GM_PX_SUBPIX;
		w[i].y = (double)w[i].Y / GM_PX_SUBPIX;
	}
	emit_tri(px, &w[0], &w[1], &w[2], flat, false, true, false, front);
	emit_tri(px, &w[0], &w[2], &w[3], flat, false, true, false, front);
}

/* A clipped polygon w[0..n) in a polygon mode (PA_SU_SC_MODE_CNTL.POLY_MODE,
 * GL 4.6 §14.6.4): facing from its signed area, culling, then by the
 * facing's POLYMODE_*_PTYPE its boundary edges as lines (0: points at the
 * vertices that start one, 1: lines, 2: filled). */
static void draw_unfilled(struct gm_px *px, const struct wv *w, unsigned n, const struct cv *flat)
{
	int64_t area = 0;
	bool front;
	unsigned ptype;

	for (unsigned i = 1; i + 1 < n; i++)
		area += (w[i].X - w[0].X) * (w[i + 1].Y - w[0].Y) - (w[i + 1].X - w[0].X) * (w[i].Y - w[0].Y);
	if (area == 0)
		return;
	front = PA_SU_SC_MODE_CNTL_FACE_GET(px->su_mode) ? area < 0 : area > 0;
	if ((front && PA_SU_SC_MODE_CNTL_CULL_FRONT_GET(px->su_mode)) ||
	    (!front && PA_SU_SC_MODE_CNTL_CULL_BACK_GET(px->su_mode)))
		return;
	ptype = front ? PA_SU_SC_MODE_CNTL_POLYMODE_FRONT_PTYPE_GET(px->su_mode)
		      : PA_SU_SC_MODE_CNTL_POLYMODE_BACK_PTYPE_GET(px->su_mode);
	for (unsigned i = 0; i < n; i++) {
		if (ptype >= 2) {
			if (i + 2 < n)
				emit_tri(px, &w[0], &w[i + 1], &w[i + 2], flat, false, true, false, front);
		} else if (w[i].v->edge) {
			if (ptype == 1) {
				struct wv e[2] = { w[i], w[(i + 1) % n] };
				raster_segment(px, e, flat, front);
			} else {
				raster_point(px, w[i].v, &w[i], flat, front);
			}
		}
	}
}

/* A triangle; `edges` bit k: its edge from vertex k to k + 1 is a boundary
 * edge (gm_prim_list.edges). */
static void draw_tri(struct gm_px *px, const struct gm_px_vtx *const vin[3], unsigned provoking,
		     unsigned edges)
{
	struct cv b0[MAX_POLY], b1[MAX_POLY], *poly, flat;
	struct wv w[MAX_POLY];
	unsigned n_par = px->n_inputs ? GM_PX_MAX_PARAMS : 0, n;

	for (unsigned i = 0; i < 3; i++) {
		cv_from(&b0[i], vin[i], n_par);
		b0[i].edge = edges >> i & 1;
	}
	flat = b0[provoking];
	if (culled(px, b0, 3))
		return;
	n = clip_poly(px, b0, b1, 3, true, &poly);
	if (n < 3)
		return;
	for (unsigned i = 0; i < n; i++)
		if (!to_window(px, &poly[i], &w[i]))
			return;
	if (PA_SU_SC_MODE_CNTL_POLY_MODE_GET(px->su_mode)) {
		draw_unfilled(px, w, n, &flat);
		return;
	}
	for (unsigned i = 1; i + 1 < n; i++)
		emit_tri(px, &w[0], &w[i], &w[i + 1], &flat, true, true, false, -1);
}

/* A point: a square of side 2 * half centred on the vertex. */
static void draw_point(struct gm_px *px, const struct gm_px_vtx *vin)
{
	struct cv b0[MAX_POLY], b1[MAX_POLY], *poly;
	struct wv c;
	unsigned n_par = px->n_inputs ? GM_PX_MAX_PARAMS : 0;

	cv_from(&b0[0], vin, n_par);
	if (culled(px, b0, 1))
		return;
	/* the vertex must be inside (no x / y clipping of points: a segment
	 * of two equal ends is kept or dropped whole), and inside the discard
	 * band PA_CL_GB_*_DISC_ADJ in x and y */
	b0[1] = b0[0];
	if (clip_poly(px, b0, b1, 2, false, &poly) != 2 || !to_window(px, &poly[0], &c))
		return;
	if (!(fabsf(poly[0].c[0]) <= px->disc_x * poly[0].c[3]) || !(fabsf(poly[0].c[1]) <= px->disc_y * poly[0].c[3]))
		return;
	raster_point(px, &poly[0], &c, &poly[0], true);
}

/* A line: clipped, then rasterized as a parallelogram. */
static void draw_line(struct gm_px *px, const struct gm_px_vtx *const vin[2], unsigned provoking)
{
	struct cv b0[MAX_POLY], b1[MAX_POLY], *poly, flat;
	struct wv e[2];
	unsigned n_par = px->n_inputs ? GM_PX_MAX_PARAMS : 0;

	for (unsigned i = 0; i < 2; i++)
		cv_from(&b0[i], vin[i], n_par);
	flat = b0[provoking];
	if (culled(px, b0, 2) || clip_poly(px, b0, b1, 2, true, &poly) != 2)
		return;
	if (!to_window(px, &poly[0], &e[0]) || !to_window(px, &poly[1], &e[1]))
		return;
	raster_segment(px, e, &flat, true);
}

void gm_pa_prims(struct gm_px *px, uint32_t prims, unsigned vpp, const uint8_t *edges)
{
	bool last = PA_SU_SC_MODE_CNTL_PROVOKING_VTX_LAST_GET(px->su_mode);

	for (uint32_t p = 0; p < prims && !px->failed; p++) {
		const struct gm_px_vtx *v[3];
		for (unsigned i = 0; i < vpp; i++)
			v[i] = &px->vtx[p * vpp + i];
		if (vpp == 3)
			draw_tri(px, v, last ? 2 : 0, edges ? edges[p] : 7u);
		else if (vpp == 2)
			draw_line(px, v, last ? 1 : 0);
		else
			draw_point(px, v[0]);
	}
}
