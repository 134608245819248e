/*
 * diff.h - comparing two runs of one trace, observation by observation
 * (the engine of `xfbtrace diff`; docs/guide.md, "Results database and
 * diff").
 *
 * Observations are aligned by (call number, kind, index).  For each pair:
 * the fields (query results, buffer names, ranges, ...) are compared
 * exactly, key by key; the data is compared through the blob hashes first
 * (equal hashes: equal bytes, nothing decoded), and otherwise decoded: a
 * tf_buffer by its TF layout into vertices, varyings and components (see
 * diff_tf.c), anything else byte by byte.
 *
 * Floats are compared bit for bit unless a tolerance is given.  Exactly:
 * +0.0 and -0.0 differ ("sign of zero"), and two NaNs differ when their
 * bits do ("NaN payload").  With a tolerance (ulps or absolute): +0.0 and
 * -0.0 are equal, any NaN equals any NaN and differs from every number, an
 * infinity equals only itself, and finite values may be `ulps` units in the
 * last place (or `abs`) apart.  Integers are always compared exactly.
 */
#ifndef DIFF_H
#define DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "db.h"
#include "xt_rc.h"

enum diff_tol_mode {
	DIFF_TOL_EXACT = 0,   /* bits must match */
	DIFF_TOL_ULPS,        /* |a - b| <= ulps units in the last place */
	DIFF_TOL_ABS,         /* |a - b| <= abs */
};

struct diff_options {
	enum diff_tol_mode tol;
	uint64_t ulps;
	double abs;
	uint32_t max_items;      /* differences kept per observation (all are
	                          * counted); 0 keeps all */
	bool no_hash_shortcut;   /* decode and compare even when the blob hashes
	                          * match (benchmarks; the result is the same) */
};

/* Parses "ulps=N" or "abs=X" (X finite, >= 0) into o->tol / ulps / abs.
 * False, and *o untouched, on anything else. */
bool diff_tolerance_parse(const char *s, struct diff_options *o);

/* ---- component types ------------------------------------------------------ */

enum diff_scalar {
	DIFF_F32 = 0,
	DIFF_F64,
	DIFF_I32,
	DIFF_U32,
};

/* A GL type a TF varying may have. */
struct diff_type {
	uint32_t value;          /* the GLenum */
	const char *name;        /* "GL_FLOAT_VEC4" */
	enum diff_scalar scalar;
	uint8_t components;      /* scalars per element (16 for a mat4) */
	uint8_t columns;         /* matrix columns; 1 for scalars and vectors */
};

/* The type called `name` (a GL name, or a GLenum value in decimal as db
 * stores unknown names); NULL when it is not a type TF can capture. */
const struct diff_type *diff_type_lookup(const char *name);
/* Bytes of one scalar. */
static inline uint32_t diff_scalar_bytes(enum diff_scalar s)
{
	return s == DIFF_F64 ? 8 : 4;
}

enum diff_why {
	DIFF_WHY_VALUE = 0,      /* the values differ (beyond the tolerance) */
	DIFF_WHY_ZERO_SIGN,      /* +0.0 vs -0.0, exact mode */
	DIFF_WHY_NAN_PAYLOAD,    /* two NaNs with different bits, exact mode */
	DIFF_WHY_NAN,            /* a NaN vs a number */
};

/*
 * Compares two scalars given as their bits (F32/I32/U32 in the low 32).
 * True when they count as different under `o`; then *why says how, *delta
 * is b - a (NaN when either is NaN) and *ulps the distance in units in the
 * last place (UINT64_MAX when not meaningful: NaN, integers).
 */
bool diff_scalar_compare(enum diff_scalar s, uint64_t a, uint64_t b,
			 const struct diff_options *o, enum diff_why *why, double *delta,
			 uint64_t *ulps);

/* ---- results -------------------------------------------------------------- */

enum diff_item_kind {
	DIFF_ITEM_COMPONENT = 0, /* one component of one vertex of a TF buffer */
	DIFF_ITEM_BYTES,         /* bytes no varying covers (or no layout) */
	DIFF_ITEM_FIELD,         /* a key of the observation's fields */
	DIFF_ITEM_SIZE,          /* data sizes differ (a, b: bytes) */
	DIFF_ITEM_DATA,          /* data present in one run only (a, b: 0/1) */
	DIFF_ITEM_LAYOUT,        /* TF layouts differ (A's decodes both) */
};

struct diff_item {
	enum diff_item_kind kind;
	/* COMPONENT */
	uint64_t vertex;             /* within the observation's range */
	int64_t primitive;           /* vertex / vertices per primitive; -1 unknown */
	const char *varying;         /* its name in the layout */
	int64_t element;             /* array element; -1 when not an array */
	uint32_t component;          /* scalar within the element */
	const char *component_name;  /* "x".."w", "[col][row]", or "" */
	enum diff_scalar scalar;
	uint64_t a, b;               /* bits (COMPONENT), sizes (SIZE), flags (DATA) */
	double delta;                /* b - a */
	uint64_t ulps;               /* distance, UINT64_MAX when not meaningful */
	enum diff_why why;
	/* COMPONENT and BYTES */
	uint64_t byte_offset;        /* in the data */
	uint64_t byte_count;         /* BYTES: length of the differing run */
	/* FIELD */
	const char *field;           /* key */
	const char *a_text, *b_text; /* JSON values; NULL when the key is absent */
};

enum diff_obs_state {
	DIFF_OBS_DIFFERENT = 0,  /* in both runs, with differences */
	DIFF_OBS_ONLY_A,         /* in run A only */
	DIFF_OBS_ONLY_B,         /* in run B only */
};

/* One differing observation, handed to the callback; everything it points
 * to is valid during the callback only. */
struct diff_obs {
	enum diff_obs_state state;
	uint64_t call_no;
	const char *kind;
	uint32_t index;
	const char *function;         /* NULL when not recorded */
	int64_t buffer;               /* the fields' buffer name, -1 when none */
	uint32_t stride;              /* TF buffer: bytes per vertex, 0 if undecoded */
	uint64_t vertices;            /* TF buffer: vertices compared */
	uint64_t components_compared;
	uint64_t components_differ;
	uint64_t bytes_differ;        /* bytes outside components that differ */
	uint64_t fields_differ;
	uint64_t differences;         /* all differences found, kept or not */
	const char *note;             /* why data was compared as bytes, or NULL */
	uint32_t nitems;              /* kept (see diff_options.max_items) */
	const struct diff_item *items;
};

struct diff_summary {
	uint64_t pairs;                /* observations in both runs */
	uint64_t same;
	uint64_t different;
	uint64_t different_tf;         /* ... of which tf_buffer */
	uint64_t different_query;      /* ... of which query */
	uint64_t only_a, only_b;
	uint64_t data_bytes;           /* data of the pairs, bytes (run A's) */
	uint64_t hash_matches;         /* pairs whose data matched by hash */
	uint64_t components_compared;  /* decoded TF components */
	uint64_t components_differ;
	uint64_t bytes_differ;
	uint64_t fields_differ;
};

/* Called per differing observation, in alignment order; a non-OK return
 * stops the diff and is returned. */
typedef enum xt_rc (*diff_obs_cb)(const struct diff_obs *d, void *ctx);

/*
 * Compares run `run_a` with run `run_b` of `db`.  Both must be runs of the
 * same trace (XT_ERR_INVALID otherwise, naming both hashes).  *sum is filled
 * even when the callback was never called (the runs are the same).  A
 * corrupt row, blob or layout is XT_ERR_CORRUPT naming it; `err` says why.
 */
enum xt_rc diff_runs(struct db *db, int64_t run_a, int64_t run_b, const struct diff_options *o,
		     diff_obs_cb cb, void *ctx, struct diff_summary *sum, struct xt_err *err);

#endif
