/*
 * diff_pixels.c - two stored images (`pixels` observations) compared pixel
 * by pixel under the image tolerance (trace/trace_pixels.h, the rules of
 * `replay --check --image-tolerance`).
 */
#include <inttypes.h>
#include <string.h>

#include "diff_int.h"

enum xt_rc diff_pixels_compare(struct diff_ctx *c, const struct db_obs_row *x,
			       const struct db_obs_row *y, const struct xt_buf *a,
			       const struct xt_buf *b)
{
	struct trace_pixels pa, pb;
	struct trace_pixels_cmp cmp;
	enum xt_rc rc;

	if ((rc = db_obs_pixels(c->db, x->fields_json, a->data, a->len, &pa)) ||
	    (rc = db_obs_pixels(c->db, y->fields_json, b->data, b->len, &pb)))
		return XT_FAIL(c->err, rc, "call %" PRIu64 " pixels #%u of run %s: %s", x->call_no,
			       x->index, pa.width ? "B" : "A", xt_err_msg(db_err(c->db)));
	trace_pixels_compare(&pa, &pb, &c->o->img_tol, &cmp);
	if (!cmp.comparable) {
		/* The fields say how (they differ); the bytes say where. */
		c->cur.note = cmp.why;
		return diff_bytes_compare(c, 0, a->data, b->data, a->len);
	}
	c->cur.width = pa.width;
	c->cur.height = pa.height;
	c->cur.pixels_differ = cmp.differ;
	c->cur.pixels_over = cmp.over;
	c->cur.pixel_max_delta = cmp.max_delta;
	if (cmp.within)
		return XT_OK;
	for (unsigned k = 0; k < cmp.nfirst && !rc; k++) {
		const struct trace_pixel_diff *d = &cmp.first[k];
		struct diff_item it = { .kind = DIFF_ITEM_PIXEL, .x = d->x, .y = d->y,
					.channels = pa.channels, .over = d->over };
		memcpy(it.pixel_a, d->golden, sizeof it.pixel_a);
		memcpy(it.pixel_b, d->replay, sizeof it.pixel_b);
		rc = diff_item_add(c, &it);
	}
	/* The pixels beyond the first ones are counted, not kept. */
	if (!rc)
		c->counted += cmp.differ - cmp.nfirst;
	return rc;
}
