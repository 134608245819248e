/*
 * trace_tol.h - comparing one scalar of observed data under a tolerance:
 * the rules `xfbtrace diff` (diff/) and `xfbtrace replay --check
 * --tolerance` (replay/replay_check.c) both apply, written once here.
 *
 * Floats are compared bit for bit unless a tolerance is given.  Exactly:
 * +0.0 and -0.0 differ ("sign of zero"), and two NaNs differ when their
 * bits do ("NaN payload").  With a tolerance (ulps or absolute): +0.0 and
 * -0.0 are equal, any NaN equals any NaN and differs from every number, an
 * infinity equals only itself, and finite values may be `ulps` units in the
 * last place (or `abs`, or either: "abs=X,ulps=N") apart.  Integers are
 * always compared exactly.
 */
#ifndef TRACE_TOL_H
#define TRACE_TOL_H

#include <stdbool.h>
#include <stdint.h>

#include "glapi_types.h"

enum trace_tol_mode {
	TRACE_TOL_EXACT = 0,  /* bits must match */
	TRACE_TOL_ULPS,       /* |a - b| <= ulps units in the last place */
	TRACE_TOL_ABS,        /* |a - b| <= abs */
	TRACE_TOL_ABS_OR_ULPS, /* either: abs near zero, ulps for large values */
};

struct trace_tol {
	enum trace_tol_mode mode;
	uint64_t ulps;
	double abs;
};

/* Parses "ulps=N", "abs=X" (X finite, >= 0) or both, comma-separated in
 * either order ("abs=X,ulps=N": a value is within when either holds) into
 * *t.  False, and *t untouched, on anything else. */
bool trace_tol_parse(const char *s, struct trace_tol *t);

enum trace_tol_scalar {
	TRACE_TOL_F32 = 0,
	TRACE_TOL_F64,
	TRACE_TOL_I32,
	TRACE_TOL_U32,
};

/* How a component of GL type `t` (glapi_types.h) is compared. */
static inline enum trace_tol_scalar trace_tol_scalar_of(const struct glapi_type *t)
{
	switch (t->base) {
	case GLAPI_TYPE_DOUBLE: return TRACE_TOL_F64;
	case GLAPI_TYPE_INT: return TRACE_TOL_I32;
	case GLAPI_TYPE_UINT: return TRACE_TOL_U32;
	default: return TRACE_TOL_F32;
	}
}

enum trace_tol_why {
	TRACE_TOL_WHY_VALUE = 0,      /* the values differ (beyond the tolerance) */
	TRACE_TOL_WHY_ZERO_SIGN,      /* +0.0 vs -0.0, exact mode */
	TRACE_TOL_WHY_NAN_PAYLOAD,    /* two NaNs with different bits, exact mode */
	TRACE_TOL_WHY_NAN,            /* a NaN vs a number */
};

/*
 * Compares two scalars given as their bits (F32/I32/U32 in the low 32).
 * True when they count as different under `t`; then *why says how, *delta
 * is b - a (NaN when either is NaN) and *ulps the distance in units in the
 * last place (UINT64_MAX when not meaningful: NaN, integers).
 */
bool trace_tol_differ(enum trace_tol_scalar s, uint64_t a, uint64_t b, const struct trace_tol *t,
		      enum trace_tol_why *why, double *delta, uint64_t *ulps);

#endif
