/*
 * replay_lines.c - the bounds of GL 4.6 §14.5.1 on how two line
 * rasterization algorithms may differ (replay_lines.h).
 */
#include <math.h>
#include <stdlib.h>

#include "replay_lines.h"

/*
 * Whether the segment meets the octagon centred at (cx, cy): |dx| <= 1.5,
 * |dy| <= 1.5, |dx| + |dy| <= 2.5.  The segment's parameter range [0, 1]
 * is cut by each of the eight half planes n . (p - c) <= h (Liang-Barsky);
 * it meets the octagon when something is left.
 */
static bool meets_octagon(const struct replay_line *l, double cx, double cy)
{
	static const struct { double nx, ny, h; } planes[8] = {
		{ 1, 0, 1.5 }, { -1, 0, 1.5 }, { 0, 1, 1.5 }, { 0, -1, 1.5 },
		{ 1, 1, 2.5 }, { 1, -1, 2.5 }, { -1, 1, 2.5 }, { -1, -1, 2.5 },
	};
	const double dx = l->x1 - l->x0, dy = l->y1 - l->y0;
	double t0 = 0, t1 = 1;

	for (unsigned i = 0; i < 8; i++) {
		/* n . (p0 + t d - c) <= h  <=>  t * den <= num */
		const double den = planes[i].nx * dx + planes[i].ny * dy;
		const double num = planes[i].h - (planes[i].nx * (l->x0 - cx) + planes[i].ny * (l->y0 - cy));
		if (den == 0) {
			if (num < 0)
				return false;
		} else if (den > 0) {
			if (num / den < t1)
				t1 = num / den;
		} else if (num / den > t0) {
			t0 = num / den;
		}
		if (t0 > t1)
			return false;
	}
	return true;
}

/* Whether the centre of pixel (x, y) is within the deviation of (1) from
 * the rule's first or last fragment: the octagon around the part of the
 * segment within one unit (along its major axis) of either end. */
static bool near_end(const struct replay_line *l, int64_t x, int64_t y)
{
	const double dx = l->x1 - l->x0, dy = l->y1 - l->y0;
	const double major = fabs(dx) > fabs(dy) ? fabs(dx) : fabs(dy);
	const double t = major > 1 ? 1 / major : 1;
	const struct replay_line first = { l->x0, l->y0, l->x0 + t * dx, l->y0 + t * dy };
	const struct replay_line last = { l->x1 - t * dx, l->y1 - t * dy, l->x1, l->y1 };
	const double cx = (double)x + 0.5, cy = (double)y + 0.5;

	return meets_octagon(&first, cx, cy) || meets_octagon(&last, cx, cy);
}

/* Exact: the window coordinates are multiples of 1/256 pixel. */
static int64_t sub(double v)
{
	return (int64_t)llround(v * 256);
}

/*
 * Whether pixel (x, y) is one of the two candidates of a tie: an x-major
 * segment crossing its column's centre exactly on the boundary between
 * two rows (y-major: a row's centre between two columns), where the rule
 * decides by its perturbation and other algorithms by their own.
 */
static bool at_tie(const struct replay_line *l, int64_t x, int64_t y)
{
	int64_t a0 = sub(l->x0), b0 = sub(l->y0), a1 = sub(l->x1), b1 = sub(l->y1);
	int64_t along = x, across = y;

	if (llabs(b1 - b0) > llabs(a1 - a0)) {   /* y-major: swap the roles */
		int64_t t;
		t = a0, a0 = b0, b0 = t;
		t = a1, a1 = b1, b1 = t;
		along = y, across = x;
	}
	const int64_t da = a1 - a0, db = b1 - b0, c = along * 256 + 128;
	if (da == 0 || c < (a0 < a1 ? a0 : a1) || c > (a0 < a1 ? a1 : a0) ||
	    llabs(along) > (INT64_C(1) << 30) || llabs(across) > (INT64_C(1) << 30))
		return false;
	/* the segment's minor coordinate at the centre, times da, in 1/256 */
	const int64_t num = b0 * da + (c - a0) * db, den = 256 * llabs(da);
	const int64_t n = da < 0 ? -num : num;     /* minor * |da| */
	if (n % den)
		return false;
	const int64_t k = n / den;                  /* the boundary between k - 1 and k */
	return across == k - 1 || across == k;
}

bool replay_line_may_differ_at(const struct replay_line *l, int64_t x, int64_t y)
{
	return near_end(l, x, y) || (meets_octagon(l, (double)x + 0.5, (double)y + 0.5) &&
				      at_tie(l, x, y));
}

uint64_t replay_lines_sample_bound(uint64_t segments, unsigned samples)
{
	return 2 * segments * (samples ? samples : 1);
}

bool replay_lines_count_allowed(uint64_t golden, uint64_t replay, uint64_t bound, bool boolean,
				uint64_t replay_count)
{
	if (!boolean)
		return (golden > replay ? golden - replay : replay - golden) <= bound;
	if ((golden != 0) == (replay != 0) || bound == 0)
		return false;
	return golden != 0 || replay_count <= bound;
}
