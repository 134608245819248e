/*
 * web_image.c - framebuffer images (`pixels` observations, issue 22) in
 * the web UI:
 *
 *   GET /image/RUN/CALL.png        the image run RUN read back after call
 *       CALL, as the application's top row first, 8 bits per channel
 *       (trace_pixels_rgba8: floats clamped, alpha not shown)
 *   GET /image/A/B/CALL.png        the difference of run B's image against
 *       run A's: equal pixels dimmed, differing ones red
 *
 * and, for the diff page, the images of one call of two runs with the
 * pixels that differ (web_image_pair, in /api/diff/A/B/calls/CALL).  The
 * data come from the database and may be hostile: each image is rebuilt
 * and validated by db_obs_pixels, the validation the trace reader runs,
 * and a bad one is an error reply, never a picture of garbage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trace_image.h"
#include "trace_pixels.h"
#include "web_int.h"
#include "xt_fault.h"

/* The image run `run` read after call `call` (*found false: none); its
 * bytes are kept in `data`, which *px points into. */
static enum xt_rc load(struct db *db, int64_t run, uint64_t call, struct xt_buf *data,
		       struct trace_pixels *px, bool *found)
{
	struct db_obs_iter *it;
	struct db_obs_row o;
	enum xt_rc rc = db_obs_iter_open(db, run, &it);

	*found = false;
	if (rc)
		return rc;
	while ((rc = db_obs_iter_next(it, &o)) == XT_OK) {
		if (o.call_no != call || strcmp(o.kind, "pixels"))
			continue;
		/* Without data, the validation says so. */
		rc = o.blob_hash ? db_blob_get(db, o.blob_hash, data) : XT_OK;
		rc = rc ? rc : db_obs_pixels(db, o.fields_json, data->data, data->len, px);
		*found = rc == XT_OK;
		break;
	}
	db_obs_iter_close(it);
	return rc == XT_ERR_EOF ? XT_OK : rc;
}

static void reply_png(struct web_reply *r, const uint8_t *rgba, uint32_t w, uint32_t h)
{
	xt_buf_reset(&r->body);
	if (trace_image_png(rgba, w, h, 4, &r->body) != XT_OK) {
		web_error(r, 503, "out of memory encoding the PNG");
		return;
	}
	r->status = 200;
	r->content_type = "image/png";
}

static bool parse_call_png(const char *s, uint64_t *call)
{
	char digits[24];
	const char *dot = strrchr(s, '.');
	int64_t v;

	if (!dot || strcmp(dot, ".png") || (size_t)(dot - s) >= sizeof digits || dot == s)
		return false;
	memcpy(digits, s, (size_t)(dot - s));
	digits[dot - s] = '\0';
	if (!strcmp(digits, "0")) {
		*call = 0;
		return true;
	}
	if (!web_parse_id(digits, &v))
		return false;
	*call = (uint64_t)v;
	return true;
}

void web_image(struct web_req *q, struct web_reply *r)
{
	int64_t a = 0, b = 0;
	uint64_t call = 0;
	const bool pair = q->nseg == 4;

	if ((q->nseg != 3 && q->nseg != 4) || !web_parse_id(q->seg[1], &a) ||
	    (pair && !web_parse_id(q->seg[2], &b)) || !parse_call_png(q->seg[q->nseg - 1], &call)) {
		web_error(r, 400, "bad image path: /image/RUN/CALL.png or /image/A/B/CALL.png");
		return;
	}
	struct xt_buf da = XT_BUF_INIT, db = XT_BUF_INIT;
	struct trace_pixels pa, pb;
	bool fa = false, fb = false;
	enum xt_rc rc = load(q->db, a, call, &da, &pa, &fa);
	if (!rc && pair)
		rc = load(q->db, b, call, &db, &pb, &fb);
	uint8_t *rgba = NULL;
	if (rc) {
		web_db_error(r, q->db, rc);
	} else if (!fa || (pair && !fb)) {
		web_error(r, 404, "no image after call %" PRIu64 " in run %" PRId64, call,
			  !fa ? a : b);
	} else if (pair && (pa.width != pb.width || pa.height != pb.height ||
			    pa.format != pb.format || pa.type != pb.type)) {
		web_error(r, 409, "the two images differ in size or format: no pixel difference");
	} else if (!(rgba = xt_malloc((size_t)pa.width * pa.height * 4))) {
		web_error(r, 503, "out of memory");
	} else {
		if (pair)
			trace_pixels_diff_rgba8(&pa, &pb, NULL, rgba);
		else
			trace_pixels_rgba8(&pa, rgba);
		reply_png(r, rgba, pa.width, pa.height);
	}
	xt_free(rgba);
	xt_buf_fini(&da);
	xt_buf_fini(&db);
}

static void json_values(struct xt_jw *w, const char *key, const double *v, uint32_t n)
{
	xt_jw_karr(w, key);
	for (uint32_t k = 0; k < n && k < 4; k++)
		xt_jw_num(w, v[k], 0);
	xt_jw_end(w);
}

void web_image_pair(struct db *db, int64_t a, int64_t b, uint64_t call, struct xt_jw *w)
{
	struct xt_buf da = XT_BUF_INIT, dbuf = XT_BUF_INIT;
	struct trace_pixels pa, pb;
	bool fa = false, fb = false;
	enum xt_rc rc = load(db, a, call, &da, &pa, &fa);

	rc = rc ? rc : load(db, b, call, &dbuf, &pb, &fb);
	xt_jw_karr(w, "images");
	if (rc) {
		/* Said, not skipped: a damaged image hides a difference. */
		xt_jw_obj(w);
		xt_jw_kstr(w, "error", xt_err_msg(db_err(db)));
		xt_jw_end(w);
	} else if (fa || fb) {
		const struct trace_pixels *p = fa ? &pa : &pb;
		xt_jw_obj(w);
		xt_jw_kbool(w, "in_a", fa);
		xt_jw_kbool(w, "in_b", fb);
		xt_jw_ki64(w, "x", p->x);
		xt_jw_ki64(w, "y", p->y);
		xt_jw_ku64(w, "width", p->width);
		xt_jw_ku64(w, "height", p->height);
		xt_jw_ku64(w, "channels", p->channels);
		xt_jw_kstr(w, "from", p->from);
		if (fa) {
			xt_jw_key(w, "png_a");
			xt_jw_strf(w, "/image/%" PRId64 "/%" PRIu64 ".png", a, call);
		}
		if (fb) {
			xt_jw_key(w, "png_b");
			xt_jw_strf(w, "/image/%" PRId64 "/%" PRIu64 ".png", b, call);
		}
		struct trace_pixels_cmp cmp;
		if (fa && fb)
			trace_pixels_compare(&pa, &pb, NULL, &cmp);
		if (fa && fb && cmp.comparable) {
			xt_jw_key(w, "png_diff");
			xt_jw_strf(w, "/image/%" PRId64 "/%" PRId64 "/%" PRIu64 ".png", a, b, call);
			xt_jw_ku64(w, "pixels_differ", cmp.differ);
			xt_jw_ku64(w, "pixels_undefined", cmp.undefined);
			xt_jw_knum(w, "largest_difference", cmp.max_delta, 0);
			xt_jw_karr(w, "first");
			for (unsigned k = 0; k < cmp.nfirst; k++) {
				xt_jw_obj(w);
				xt_jw_ki64(w, "x", cmp.first[k].x);
				xt_jw_ki64(w, "y", cmp.first[k].y);
				json_values(w, "a", cmp.first[k].golden, p->channels);
				json_values(w, "b", cmp.first[k].replay, p->channels);
				xt_jw_end(w);
			}
			xt_jw_end(w);
		} else if (fa && fb) {
			xt_jw_kstr(w, "note", cmp.why);
		}
		xt_jw_end(w);
	}
	xt_jw_end(w);
	xt_buf_fini(&da);
	xt_buf_fini(&dbuf);
}
