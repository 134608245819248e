/*
 * diff_int.h - what the files of diff/ share: the comparison context and
 * its per-observation accumulator.
 */
#ifndef DIFF_INT_H
#define DIFF_INT_H

#include "diff.h"
#include "xt_arena.h"
#include "xt_buf.h"

struct diff_plan;

struct diff_ctx {
	struct db *db;
	const struct diff_options *o;
	struct xt_err *err;
	struct xt_arena plan_arena;    /* layouts and plans, for the whole diff */
	struct diff_plan **plans;      /* cache by (layout, buffer index) */
	size_t nplans;
	struct diff_obs cur;           /* the observation being compared */
	struct xt_buf items;           /* its kept items (struct diff_item[]) */
	uint64_t counted;              /* its differences, kept or not */
	struct xt_arena obs_arena;     /* its strings; reset per observation */
	bool golden_a, golden_b;       /* which run is the trace's golden run */
	bool undrawn_a, undrawn_b;     /* the run is of the sim backend, which
	                                * reports the read-backs of pixels it
	                                * cannot draw faithfully as not replayed
	                                * (driver/st/drv_gl_pixels.c) */
};

/* Counts the difference `it` into ctx->cur and keeps it when there is room
 * (diff_options.max_items).  XT_ERR_NOMEM only when keeping it fails. */
enum xt_rc diff_item_add(struct diff_ctx *c, const struct diff_item *it);

/* Compares len bytes at a and b (at data offset `base`), adding a BYTES item
 * per run of differing bytes. */
enum xt_rc diff_bytes_compare(struct diff_ctx *c, uint64_t base, const uint8_t *a,
			      const uint8_t *b, size_t len);

/*
 * Compares the data of a tf_buffer pair: decoded by layout `layout_id`
 * (0: none) for binding point `index`, primitives numbered by
 * `primitive_mode` (a GL name, or NULL).  Without a usable layout the data
 * is compared as bytes and ctx->cur.note says why.
 */
enum xt_rc diff_tf_compare(struct diff_ctx *c, int64_t layout_id, uint32_t index,
			   const char *primitive_mode, const uint8_t *a, size_t alen,
			   const uint8_t *b, size_t blen);

/* Compares the data of a `pixels` pair (rows `x` and `y` give the
 * fields) as images under diff_options.img_tol, adding a PIXEL item per
 * differing pixel kept; within the tolerance nothing is counted
 * (diff_pixels.c). */
enum xt_rc diff_pixels_compare(struct diff_ctx *c, const struct db_obs_row *x,
			       const struct db_obs_row *y, const struct xt_buf *a,
			       const struct xt_buf *b);

#endif
