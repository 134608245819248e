/*
 * replay_lines.c - the bounds of GL 4.6 §14.5.1 on how two line
 * rasterization algorithms may differ (replay_lines.h).
 */
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

bool replay_line_may_differ_at(const struct replay_line *l, int64_t x, int64_t y)
{
	return meets_octagon(l, (double)x + 0.5, (double)y + 0.5);
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
