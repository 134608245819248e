/*
 * trace_tol.c - the comparison of one scalar under a tolerance (rules in
 * trace_tol.h), for `xfbtrace diff` and `xfbtrace replay --check`.
 *
 * Units in the last place are counted on the integers that order IEEE
 * floats: a float's magnitude bits, negated when the sign is set, so that
 * +0.0 and -0.0 both map to 0 and adjacent floats differ by 1 across zero
 * too.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace_tol.h"

/* One "ulps=N" or "abs=X" of a tolerance, into *t's field (and *mode). */
static bool parse_one(const char *s, size_t len, struct trace_tol *t, enum trace_tol_mode *mode)
{
	char buf[64], *end;

	if (len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!strncmp(buf, "ulps=", 5) && buf[5] >= '0' && buf[5] <= '9') {
		unsigned long long n = strtoull(buf + 5, &end, 10);
		if (*end)
			return false;
		*mode = TRACE_TOL_ULPS;
		t->ulps = n;
		return true;
	}
	if (!strncmp(buf, "abs=", 4) && buf[4]) {
		double x = strtod(buf + 4, &end);
		if (*end || !isfinite(x) || x < 0)
			return false;
		*mode = TRACE_TOL_ABS;
		t->abs = x;
		return true;
	}
	return false;
}

bool trace_tol_parse(const char *s, struct trace_tol *o)
{
	const char *comma = strchr(s, ',');
	struct trace_tol t = { .mode = TRACE_TOL_EXACT };
	enum trace_tol_mode first, second;

	if (!comma) {
		if (!parse_one(s, strlen(s), &t, &t.mode))
			return false;
		*o = t;
		return true;
	}
	if (!parse_one(s, (size_t)(comma - s), &t, &first) ||
	    !parse_one(comma + 1, strlen(comma + 1), &t, &second) || first == second)
		return false;
	t.mode = TRACE_TOL_ABS_OR_ULPS;
	*o = t;
	return true;
}

/* Orders float bits: magnitude, negated when the sign bit is set. */
static int64_t order32(uint32_t bits)
{
	int64_t mag = bits & 0x7fffffffu;
	return (bits >> 31) ? -mag : mag;
}

static uint64_t ulps64(uint64_t a, uint64_t b)
{
	uint64_t ma = a & ~(1ull << 63), mb = b & ~(1ull << 63);
	if ((a >> 63) == (b >> 63))
		return ma > mb ? ma - mb : mb - ma;
	return ma + mb;   /* both below 2^63: no overflow */
}

static bool compare_float(bool is64, uint64_t a, uint64_t b, const struct trace_tol *o,
			  enum trace_tol_why *why, double *delta, uint64_t *ulps)
{
	double fa, fb;
	if (is64) {
		memcpy(&fa, &a, 8);
		memcpy(&fb, &b, 8);
		*ulps = ulps64(a, b);
	} else {
		float x, y;
		uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
		memcpy(&x, &a32, 4);
		memcpy(&y, &b32, 4);
		fa = x;
		fb = y;
		int64_t d = order32(a32) - order32(b32);
		*ulps = (uint64_t)(d < 0 ? -d : d);
	}
	*delta = fb - fa;
	*why = TRACE_TOL_WHY_VALUE;
	bool nan_a = isnan(fa), nan_b = isnan(fb);
	if (nan_a || nan_b) {
		*ulps = UINT64_MAX;
		if (nan_a != nan_b) {
			*why = TRACE_TOL_WHY_NAN;
			return true;
		}
		*why = TRACE_TOL_WHY_NAN_PAYLOAD;
		return o->mode == TRACE_TOL_EXACT && a != b;
	}
	if (a == b)
		return false;
	if (fa == 0 && fb == 0) {
		*why = TRACE_TOL_WHY_ZERO_SIGN;
		return o->mode == TRACE_TOL_EXACT;
	}
	switch (o->mode) {
	case TRACE_TOL_EXACT: return true;
	case TRACE_TOL_ULPS: return isinf(fa) || isinf(fb) || *ulps > o->ulps;
	case TRACE_TOL_ABS: return isinf(fa) || isinf(fb) || fabs(fb - fa) > o->abs;
	case TRACE_TOL_ABS_OR_ULPS:
		return isinf(fa) || isinf(fb) || (fabs(fb - fa) > o->abs && *ulps > o->ulps);
	}
	return true;
}

bool trace_tol_differ(enum trace_tol_scalar s, uint64_t a, uint64_t b,
			 const struct trace_tol *o, enum trace_tol_why *why, double *delta,
			 uint64_t *ulps)
{
	switch (s) {
	case TRACE_TOL_F32:
		return compare_float(false, a & 0xffffffffu, b & 0xffffffffu, o, why, delta, ulps);
	case TRACE_TOL_F64:
		return compare_float(true, a, b, o, why, delta, ulps);
	case TRACE_TOL_I32:
		*delta = (double)(int32_t)(uint32_t)b - (double)(int32_t)(uint32_t)a;
		break;
	case TRACE_TOL_U32:
		*delta = (double)(uint32_t)b - (double)(uint32_t)a;
		break;
	}
	*why = TRACE_TOL_WHY_VALUE;
	*ulps = UINT64_MAX;
	return (uint32_t)a != (uint32_t)b;
}
