/*
 * web_png.c - pictures of TF buffers, drawn here and encoded with libpng:
 *
 *   GET /plot/positions/A/B/CALL/INDEX.png   the positions captured in TF
 *       buffer INDEX at call CALL, x against y: run A as blue squares,
 *       run B as red crosses, on one set of axes (the range covers both)
 *   GET /plot/error/A/B/CALL/INDEX.png       one cell per vertex, row-major:
 *       grey when every component matches bit for bit, otherwise from
 *       yellow to red by log10 of the largest |a - b| (a component present
 *       in one run only, or NaN against a number, is the reddest)
 *
 * "Positions" are the first float vector varying whose name has "os" in it
 * (gl_Position, v_pos, pos), else the first float vector (web_tf.c).
 * The axes cover the points within +-1e6, so that one garbage vertex
 * (0xdeadbeef) does not squash the rest into a corner; the others (and
 * NaNs, infinities) are drawn as hollow markers in the margin, on the side
 * where they lie (a NaN coordinate: the top-left corner), never dropped.
 * Images are at most PLOT_SIZE pixels a side; the PNG is written into the
 * reply's buffer through libpng's write callback.
 */
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "web_int.h"
#include "xt_fault.h"

#define PLOT_SIZE 480
#define MARGIN 24

struct canvas {
	uint32_t w, h;
	uint8_t *rgb;              /* w * h * 3 */
};

static void put(struct canvas *c, int x, int y, uint32_t rgb)
{
	if (x < 0 || y < 0 || (uint32_t)x >= c->w || (uint32_t)y >= c->h)
		return;
	uint8_t *p = c->rgb + ((size_t)y * c->w + (size_t)x) * 3;
	p[0] = (uint8_t)(rgb >> 16);
	p[1] = (uint8_t)(rgb >> 8);
	p[2] = (uint8_t)rgb;
}

static void fill(struct canvas *c, int x0, int y0, int x1, int y1, uint32_t rgb)
{
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++)
			put(c, x, y, rgb);
}

static void png_write_buf(png_structp png, png_bytep data, png_size_t n)
{
	struct xt_buf *b = png_get_io_ptr(png);
	if (xt_buf_append(b, data, n))
		png_error(png, "out of memory");
}

static void png_flush_buf(png_structp png)
{
}

/* Encodes `c` as PNG into r->body; false on failure (reply set). */
static bool encode(struct canvas *c, struct web_reply *r)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;

	if (!info) {
		png_destroy_write_struct(&png, NULL);
		web_error(r, 503, "out of memory");
		return false;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		web_error(r, 500, "PNG encoding failed");
		return false;
	}
	xt_buf_reset(&r->body);
	png_set_write_fn(png, &r->body, png_write_buf, png_flush_buf);
	png_set_IHDR(png, info, c->w, c->h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (uint32_t y = 0; y < c->h; y++)
		png_write_row(png, c->rgb + (size_t)y * c->w * 3);
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	r->status = 200;
	r->content_type = "image/png";
	return true;
}

static void plot_positions(const struct web_tf *a, const struct web_tf *b, struct canvas *c)
{
	double lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
	const struct web_tf *t[2] = { a, b };

	for (int k = 0; k < 2; k++)
		for (uint32_t v = 0; t[k]->have && t[k]->pos_x >= 0 && v < t[k]->nvertices; v++) {
			double x = web_tf_value(t[k], v, (uint32_t)t[k]->pos_x);
			double y = web_tf_value(t[k], v, (uint32_t)t[k]->pos_y);
			if (!isfinite(x) || !isfinite(y) || fabs(x) > 1e6 || fabs(y) > 1e6)
				continue;
			lo_x = fmin(lo_x, x);
			hi_x = fmax(hi_x, x);
			lo_y = fmin(lo_y, y);
			hi_y = fmax(hi_y, y);
		}
	if (!(lo_x <= hi_x)) {
		lo_x = lo_y = -1;
		hi_x = hi_y = 1;
	}
	if (hi_x - lo_x < 1e-9) {
		lo_x -= 1;
		hi_x += 1;
	}
	if (hi_y - lo_y < 1e-9) {
		lo_y -= 1;
		hi_y += 1;
	}
	const int span = PLOT_SIZE - 2 * MARGIN;
	fill(c, 0, 0, PLOT_SIZE, PLOT_SIZE, 0xffffff);
	/* Frame, and the axes through 0 when 0 is in range. */
	for (int i = MARGIN; i <= PLOT_SIZE - MARGIN; i++) {
		put(c, i, MARGIN, 0xbbbbbb);
		put(c, i, PLOT_SIZE - MARGIN, 0xbbbbbb);
		put(c, MARGIN, i, 0xbbbbbb);
		put(c, PLOT_SIZE - MARGIN, i, 0xbbbbbb);
	}
	if (lo_x < 0 && hi_x > 0) {
		int x0 = MARGIN + (int)((0 - lo_x) / (hi_x - lo_x) * span);
		for (int i = MARGIN; i <= PLOT_SIZE - MARGIN; i++)
			put(c, x0, i, 0xdddddd);
	}
	if (lo_y < 0 && hi_y > 0) {
		int y0 = PLOT_SIZE - MARGIN - (int)((0 - lo_y) / (hi_y - lo_y) * span);
		for (int i = MARGIN; i <= PLOT_SIZE - MARGIN; i++)
			put(c, i, y0, 0xdddddd);
	}
	for (int k = 0; k < 2; k++)
		for (uint32_t v = 0; t[k]->have && t[k]->pos_x >= 0 && v < t[k]->nvertices; v++) {
			double x = web_tf_value(t[k], v, (uint32_t)t[k]->pos_x);
			double y = web_tf_value(t[k], v, (uint32_t)t[k]->pos_y);
			uint32_t colour = k == 0 ? 0x1f5fbf : 0xd62020;
			if (!(x >= lo_x && x <= hi_x && y >= lo_y && y <= hi_y)) {
				/* Off scale: a hollow marker in the margin band. */
				int px = isnan(x) ? MARGIN / 2 : x < lo_x ? MARGIN / 2
					 : x > hi_x ? PLOT_SIZE - MARGIN / 2
					 : MARGIN + (int)((x - lo_x) / (hi_x - lo_x) * span);
				int py = isnan(y) ? MARGIN / 2 : y > hi_y ? MARGIN / 2
					 : y < lo_y ? PLOT_SIZE - MARGIN / 2
					 : PLOT_SIZE - MARGIN - (int)((y - lo_y) / (hi_y - lo_y) * span);
				/* A's square outside B's, so both show when they coincide. */
				int r = k == 0 ? 6 : 3;
				for (int d = -r; d <= r; d++) {
					put(c, px + d, py - r, colour);
					put(c, px + d, py + r, colour);
					put(c, px - r, py + d, colour);
					put(c, px + r, py + d, colour);
				}
				continue;
			}
			int px = MARGIN + (int)((x - lo_x) / (hi_x - lo_x) * span);
			int py = PLOT_SIZE - MARGIN - (int)((y - lo_y) / (hi_y - lo_y) * span);
			if (k == 0) {
				fill(c, px - 3, py - 3, px + 4, py + 4, 0x1f5fbf);
			} else {
				for (int d = -5; d <= 5; d++) {
					put(c, px + d, py + d, 0xd62020);
					put(c, px + d, py - d, 0xd62020);
					put(c, px + d + 1, py + d, 0xd62020);
					put(c, px + d + 1, py - d, 0xd62020);
				}
			}
		}
}

static uint32_t error_colour(double e)
{
	if (e <= 0)
		return 0xc8c8c8;
	/* 1e-7 (yellow) .. 1e3 and beyond (red). */
	double t = (log10(e) + 7) / 10;
	if (!(t >= 0))
		t = 0;
	if (t > 1)
		t = 1;
	uint32_t g = (uint32_t)(210 * (1 - t));
	return 0xf0u << 16 | g << 8 | 0x20;
}

static void plot_errors(const struct web_tf *a, const struct web_tf *b, struct canvas *c)
{
	uint32_t nv = a->nvertices > b->nvertices ? a->nvertices : b->nvertices;
	uint32_t nc = a->have ? a->ncomp : b->ncomp;
	uint32_t cols = 1, cell;

	while ((uint64_t)cols * cols < nv)
		cols++;
	cell = (PLOT_SIZE - 2) / (cols ? cols : 1);
	if (cell < 1)
		cell = 1;
	fill(c, 0, 0, PLOT_SIZE, PLOT_SIZE, 0xffffff);
	for (uint32_t v = 0; v < nv; v++) {
		double worst = 0;
		for (uint32_t k = 0; k < nc; k++) {
			bool ina = a->have && v < a->nvertices && k < a->ncomp;
			bool inb = b->have && v < b->nvertices && k < b->ncomp;
			if (ina != inb) {
				worst = INFINITY;
				continue;
			}
			if (!ina)
				continue;
			if (a->bits[(size_t)v * a->ncomp + k] == b->bits[(size_t)v * b->ncomp + k])
				continue;
			double d = fabs(web_tf_value(a, v, k) - web_tf_value(b, v, k));
			worst = fmax(worst, isnan(d) || d == 0 ? INFINITY : d);
		}
		int x = 1 + (int)((v % cols) * cell), y = 1 + (int)((v / cols) * cell);
		fill(c, x, y, x + (int)cell - (cell > 3), y + (int)cell - (cell > 3), error_colour(worst));
	}
}

void web_plot(struct web_req *q, struct web_reply *r)
{
	struct xt_arena arena;
	struct web_tf ta, tb;
	int64_t a, b, call;
	char idx[16];
	enum xt_rc rc;

	/* plot / KIND / A / B / CALL / INDEX.png */
	if (q->nseg != 6 || (strcmp(q->seg[1], "positions") && strcmp(q->seg[1], "error"))) {
		web_error(r, 404, "no such plot");
		return;
	}
	size_t n = strlen(q->seg[5]);
	if (n < 5 || n > 8 || strcmp(q->seg[5] + n - 4, ".png")) {
		web_error(r, 404, "no such plot");
		return;
	}
	memcpy(idx, q->seg[5], n - 4);
	idx[n - 4] = 0;
	int64_t index = -1;
	if (!web_parse_id(q->seg[2], &a) || !web_parse_id(q->seg[3], &b)) {
		web_error(r, 400, "bad run id");
		return;
	}
	if (!(strcmp(q->seg[4], "0") ? web_parse_id(q->seg[4], &call) : (call = 0, true))) {
		web_error(r, 400, "bad call number");
		return;
	}
	if (!strcmp(idx, "0"))
		index = 0;
	else if (!web_parse_id(idx, &index) || index > 63) {
		web_error(r, 400, "bad buffer index");
		return;
	}
	xt_arena_init(&arena, 1 << 16);
	rc = web_tf_load(q->db, a, (uint64_t)call, (uint32_t)index, &arena, &ta);
	rc = rc ? rc : web_tf_load(q->db, b, (uint64_t)call, (uint32_t)index, &arena, &tb);
	if (rc) {
		web_db_error(r, q->db, rc);
	} else if (!ta.have && !tb.have) {
		web_error(r, 404, "neither run has a decodable TF buffer %lld at call %lld",
			  (long long)index, (long long)call);
	} else {
		struct canvas c = { PLOT_SIZE, PLOT_SIZE, xt_malloc((size_t)PLOT_SIZE * PLOT_SIZE * 3) };
		if (!c.rgb) {
			web_error(r, 503, "out of memory");
		} else {
			if (!strcmp(q->seg[1], "positions"))
				plot_positions(&ta, &tb, &c);
			else
				plot_errors(&ta, &tb, &c);
			encode(&c, r);
			free(c.rgb);
		}
	}
	xt_arena_fini(&arena);
}
