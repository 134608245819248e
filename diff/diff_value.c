/*
 * diff_value.c - the GL types a transform feedback varying can have, and
 * the comparison of one scalar under a tolerance (rules in diff.h).
 *
 * The type table lists what glTransformFeedbackVaryings accepts (GL 4.6
 * §11.1.2.1: float, int and uint scalars, vectors and float matrices, and
 * their double forms); booleans and samplers cannot be captured.  Values are
 * from the Khronos registry; tests/unit/db/test_diff.c checks every name
 * against the generated GL enum table.
 *
 * Units in the last place are counted on the integers that order IEEE
 * floats: a float's magnitude bits, negated when the sign is set, so that
 * +0.0 and -0.0 both map to 0 and adjacent floats differ by 1 across zero
 * too.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

static const struct diff_type types[] = {
	{ 0x1406, "GL_FLOAT", DIFF_F32, 1, 1 },
	{ 0x8b50, "GL_FLOAT_VEC2", DIFF_F32, 2, 1 },
	{ 0x8b51, "GL_FLOAT_VEC3", DIFF_F32, 3, 1 },
	{ 0x8b52, "GL_FLOAT_VEC4", DIFF_F32, 4, 1 },
	{ 0x1404, "GL_INT", DIFF_I32, 1, 1 },
	{ 0x8b53, "GL_INT_VEC2", DIFF_I32, 2, 1 },
	{ 0x8b54, "GL_INT_VEC3", DIFF_I32, 3, 1 },
	{ 0x8b55, "GL_INT_VEC4", DIFF_I32, 4, 1 },
	{ 0x1405, "GL_UNSIGNED_INT", DIFF_U32, 1, 1 },
	{ 0x8dc6, "GL_UNSIGNED_INT_VEC2", DIFF_U32, 2, 1 },
	{ 0x8dc7, "GL_UNSIGNED_INT_VEC3", DIFF_U32, 3, 1 },
	{ 0x8dc8, "GL_UNSIGNED_INT_VEC4", DIFF_U32, 4, 1 },
	{ 0x8b5a, "GL_FLOAT_MAT2", DIFF_F32, 4, 2 },
	{ 0x8b5b, "GL_FLOAT_MAT3", DIFF_F32, 9, 3 },
	{ 0x8b5c, "GL_FLOAT_MAT4", DIFF_F32, 16, 4 },
	{ 0x8b65, "GL_FLOAT_MAT2x3", DIFF_F32, 6, 2 },
	{ 0x8b66, "GL_FLOAT_MAT2x4", DIFF_F32, 8, 2 },
	{ 0x8b67, "GL_FLOAT_MAT3x2", DIFF_F32, 6, 3 },
	{ 0x8b68, "GL_FLOAT_MAT3x4", DIFF_F32, 12, 3 },
	{ 0x8b69, "GL_FLOAT_MAT4x2", DIFF_F32, 8, 4 },
	{ 0x8b6a, "GL_FLOAT_MAT4x3", DIFF_F32, 12, 4 },
	{ 0x140a, "GL_DOUBLE", DIFF_F64, 1, 1 },
	{ 0x8ffc, "GL_DOUBLE_VEC2", DIFF_F64, 2, 1 },
	{ 0x8ffd, "GL_DOUBLE_VEC3", DIFF_F64, 3, 1 },
	{ 0x8ffe, "GL_DOUBLE_VEC4", DIFF_F64, 4, 1 },
	{ 0x8f46, "GL_DOUBLE_MAT2", DIFF_F64, 4, 2 },
	{ 0x8f47, "GL_DOUBLE_MAT3", DIFF_F64, 9, 3 },
	{ 0x8f48, "GL_DOUBLE_MAT4", DIFF_F64, 16, 4 },
	{ 0x8f49, "GL_DOUBLE_MAT2x3", DIFF_F64, 6, 2 },
	{ 0x8f4a, "GL_DOUBLE_MAT2x4", DIFF_F64, 8, 2 },
	{ 0x8f4b, "GL_DOUBLE_MAT3x2", DIFF_F64, 6, 3 },
	{ 0x8f4c, "GL_DOUBLE_MAT3x4", DIFF_F64, 12, 3 },
	{ 0x8f4d, "GL_DOUBLE_MAT4x2", DIFF_F64, 8, 4 },
	{ 0x8f4e, "GL_DOUBLE_MAT4x3", DIFF_F64, 12, 4 },
};

const struct diff_type *diff_type_lookup(const char *name)
{
	char *end;
	unsigned long value = 0;
	bool numeric = name[0] >= '0' && name[0] <= '9';

	if (numeric) {
		value = strtoul(name, &end, 10);
		if (*end)
			return NULL;
	}
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (numeric ? types[i].value == value : !strcmp(types[i].name, name))
			return &types[i];
	return NULL;
}

bool diff_tolerance_parse(const char *s, struct diff_options *o)
{
	char *end;
	if (!strncmp(s, "ulps=", 5) && s[5] >= '0' && s[5] <= '9') {
		unsigned long long n = strtoull(s + 5, &end, 10);
		if (*end)
			return false;
		o->tol = DIFF_TOL_ULPS;
		o->ulps = n;
		return true;
	}
	if (!strncmp(s, "abs=", 4) && s[4]) {
		double x = strtod(s + 4, &end);
		if (*end || !isfinite(x) || x < 0)
			return false;
		o->tol = DIFF_TOL_ABS;
		o->abs = x;
		return true;
	}
	return false;
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

static bool compare_float(bool is64, uint64_t a, uint64_t b, const struct diff_options *o,
			  enum diff_why *why, double *delta, uint64_t *ulps)
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
	*why = DIFF_WHY_VALUE;
	bool nan_a = isnan(fa), nan_b = isnan(fb);
	if (nan_a || nan_b) {
		*ulps = UINT64_MAX;
		if (nan_a != nan_b) {
			*why = DIFF_WHY_NAN;
			return true;
		}
		*why = DIFF_WHY_NAN_PAYLOAD;
		return o->tol == DIFF_TOL_EXACT && a != b;
	}
	if (a == b)
		return false;
	if (fa == 0 && fb == 0) {
		*why = DIFF_WHY_ZERO_SIGN;
		return o->tol == DIFF_TOL_EXACT;
	}
	switch (o->tol) {
	case DIFF_TOL_EXACT: return true;
	case DIFF_TOL_ULPS: return isinf(fa) || isinf(fb) || *ulps > o->ulps;
	case DIFF_TOL_ABS: return isinf(fa) || isinf(fb) || fabs(fb - fa) > o->abs;
	}
	return true;
}

bool diff_scalar_compare(enum diff_scalar s, uint64_t a, uint64_t b,
			 const struct diff_options *o, enum diff_why *why, double *delta,
			 uint64_t *ulps)
{
	switch (s) {
	case DIFF_F32:
		return compare_float(false, a & 0xffffffffu, b & 0xffffffffu, o, why, delta, ulps);
	case DIFF_F64:
		return compare_float(true, a, b, o, why, delta, ulps);
	case DIFF_I32:
		*delta = (double)(int32_t)(uint32_t)b - (double)(int32_t)(uint32_t)a;
		break;
	case DIFF_U32:
		*delta = (double)(uint32_t)b - (double)(uint32_t)a;
		break;
	}
	*why = DIFF_WHY_VALUE;
	*ulps = UINT64_MAX;
	return (uint32_t)a != (uint32_t)b;
}
