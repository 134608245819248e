/*
 * gm_sc.c - the scan converter (docs/pixel-pipeline.md "SC"): which
 * samples of which pixels a set-up triangle covers, walked in aligned 2x2
 * quads inside the scissor, handed to the SPI (gm_ps_quad) in order.
 *
 * Coverage is exact integer arithmetic on the snapped vertices (1/256
 * pixel) and the sample positions (1/16 pixel): a sample is covered when
 * every edge function is positive, or zero on a top or left edge (y the
 * memory row; GL's bottom-left rule in its window coordinates).
 */
#include "gm_px.h"

struct edge {
	int64_t ax, ay, dx, dy;
	int64_t bias;              /* 0 inclusive (top / left), 1 exclusive */
};

static void edge_init(struct edge *e, int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
	e->ax = ax;
	e->ay = ay;
	e->dx = bx - ax;
	e->dy = by - ay;
	/* interior to the left of a->b (positive area): top edge = horizontal
	 * going +x, left edge = going -y */
	e->bias = (e->dy < 0 || (e->dy == 0 && e->dx > 0)) ? 0 : 1;
}

static inline bool edge_in(const struct edge *e, int64_t px, int64_t py)
{
	return e->dx * (py - e->ay) - e->dy * (px - e->ax) - e->bias >= 0;
}

/*
 * The quads of [xmin, xmax) x [ymin, ymax) with one raster sample, at the
 * pixel centre: the edge functions are stepped from pixel to pixel (-dy *
 * 256 per pixel in x) instead of evaluated at each, the same exact
 * integers edge_in computes.
 */
static void walk_centres(struct gm_px *px, const struct edge e[3], int64_t xmin, int64_t xmax,
			 int64_t ymin, int64_t ymax, unsigned full)
{
	const int64_t x0 = xmin & ~1ll;
	int64_t step[3];

	for (unsigned k = 0; k < 3; k++)
		step[k] = -e[k].dy * 256;
	for (int64_t qy = ymin & ~1ll; qy < ymax; qy += 2) {
		int64_t at[2][3];          /* rows qy, qy + 1 at the quad's left pixel */
		for (unsigned r = 0; r < 2; r++)
			for (unsigned k = 0; k < 3; k++)
				at[r][k] = e[k].dx * ((qy + r) * 256 + 128 - e[k].ay) -
					   e[k].dy * (x0 * 256 + 128 - e[k].ax) - e[k].bias;
		for (int64_t qx = x0; qx < xmax; qx += 2) {
			struct gm_px_quad q = { (uint16_t)qx, (uint16_t)qy, 0, { 0 } };
			bool any = false;
			for (unsigned i = 0; i < 4; i++) {
				int64_t x = qx + (i & 1), y = qy + (i >> 1);
				const int64_t *v = at[i >> 1], d = i & 1;
				unsigned cov = 0;
				if (x < xmin || x >= xmax || y < ymin || y >= ymax)
					continue;
				if (v[0] + d * step[0] >= 0 && v[1] + d * step[1] >= 0 &&
				    v[2] + d * step[2] >= 0)
					cov = full;   /* one raster sample: all of the pixel's */
				cov &= px->aa_mask[(x & 1) | (y & 1) << 1];
				q.cov[i] = (uint8_t)cov;
				any |= cov != 0;
			}
			for (unsigned r = 0; r < 2; r++)
				for (unsigned k = 0; k < 3; k++)
					at[r][k] += 2 * step[k];
			if (any)
				gm_ps_quad(px, &q);
			if (px->failed)
				return;
		}
	}
}

/* The same with several raster samples, at their locations (px->loc). */
static void walk_samples(struct gm_px *px, const struct edge e[3], int64_t xmin, int64_t xmax,
			 int64_t ymin, int64_t ymax)
{
	for (int64_t qy = ymin & ~1ll; qy < ymax; qy += 2) {
		for (int64_t qx = xmin & ~1ll; qx < xmax; qx += 2) {
			struct gm_px_quad q = { (uint16_t)qx, (uint16_t)qy, 0, { 0 } };
			bool any = false;
			for (unsigned i = 0; i < 4; i++) {
				int64_t x = qx + (i & 1), y = qy + (i >> 1);
				unsigned cov = 0;
				if (x < xmin || x >= xmax || y < ymin || y >= ymax)
					continue;
				for (unsigned s = 0; s < px->samples; s++) {
					int64_t sx = x * 256 + 128 + px->loc[i][s][0] * 16;
					int64_t sy = y * 256 + 128 + px->loc[i][s][1] * 16;
					if (edge_in(&e[0], sx, sy) && edge_in(&e[1], sx, sy) &&
					    edge_in(&e[2], sx, sy))
						cov |= 1u << s;
				}
				cov &= px->aa_mask[(x & 1) | (y & 1) << 1];
				q.cov[i] = (uint8_t)cov;
				any |= cov != 0;
			}
			if (any)
				gm_ps_quad(px, &q);
			if (px->failed)
				return;
		}
	}
}

void gm_sc_tri(struct gm_px *px, const struct gm_px_tri *t)
{
	int64_t X[3] = { t->X[0], t->X[1], t->X[2] }, Y[3] = { t->Y[0], t->Y[1], t->Y[2] };
	int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
	int64_t xmin, xmax, ymin, ymax;
	struct edge e[3];
	unsigned ns = px->samples, full = (1u << px->target_samples) - 1;

	if (area < 0) {   /* make the interior lie left of every edge */
		int64_t tx = X[1], ty = Y[1];
		X[1] = X[2], Y[1] = Y[2];
		X[2] = tx, Y[2] = ty;
	}
	for (unsigned i = 0; i < 3; i++)
		edge_init(&e[i], X[i], Y[i], X[(i + 1) % 3], Y[(i + 1) % 3]);
	xmin = xmax = X[0];
	ymin = ymax = Y[0];
	for (unsigned i = 1; i < 3; i++) {
		xmin = X[i] < xmin ? X[i] : xmin;
		xmax = X[i] > xmax ? X[i] : xmax;
		ymin = Y[i] < ymin ? Y[i] : ymin;
		ymax = Y[i] > ymax ? Y[i] : ymax;
	}
	/* pixels whose area meets the box, clipped to the scissor */
	xmin = xmin >> 8;
	ymin = ymin >> 8;
	xmax = (xmax >> 8) + 1;
	ymax = (ymax >> 8) + 1;
	if (xmin < px->sc_x0) xmin = px->sc_x0;
	if (ymin < px->sc_y0) ymin = px->sc_y0;
	if (xmax > px->sc_x1) xmax = px->sc_x1;
	if (ymax > px->sc_y1) ymax = px->sc_y1;

	if (ns == 1)
		walk_centres(px, e, xmin, xmax, ymin, ymax, full);
	else
		walk_samples(px, e, xmin, xmax, ymin, ymax);
	if (px->failed)
		return;
	/* the triangle is done; a slot that got no quad is reused */
	px->tri_open = false;
	if (!px->tri_quads && px->n_tris)
		px->n_tris--;
}
