/*
 * web_png.c - pictures of TF buffers, drawn here and encoded as PNG:
 *
 *   GET /plot/positions/A/B/CALL/INDEX.png   the positions captured in TF
 *       buffer INDEX at call CALL, x against y: run A as blue squares,
 *       run B as red crosses, on one set of axes (the range covers both),
 *       with grid lines and tick labels at round values (1, 2 or 5 times a
 *       power of ten), the components' names, and a legend naming the runs
 *       ("run 1 (golden)", "run 2 (host)")
 *   GET /plot/error/A/B/CALL/INDEX.png       one cell per vertex, row-major:
 *       grey when every component matches bit for bit, otherwise from
 *       yellow to red by log10 of the largest |a - b| (a component present
 *       in one run only, or NaN against a number, is the reddest), with
 *       that scale as a legend below
 *
 * "Positions" are the first float vector varying whose name has "os" in it
 * (gl_Position, v_pos, pos), else the first float vector (web_tf.c).
 * The axes cover the points within +-1e6, so that one garbage vertex
 * (0xdeadbeef) does not squash the rest into a corner; the others (and
 * NaNs, infinities) are drawn as hollow markers in a band just outside the
 * frame, on the side where they lie (a NaN coordinate: the top-left
 * corner), never dropped.  Text is drawn with the 3 x 5 bitmap font of
 * web_font.c, at twice its size.
 * Images are at most PLOT_SIZE pixels a side; the PNG is written into the
 * reply's buffer by trace_image_png (trace/trace_image.h), the project's
 * one PNG encoder.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_image.h"
#include "web_int.h"
#include "xt_fault.h"

#define PLOT_SIZE 480

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

/* Encodes `c` as PNG into r->body (trace_image_png, the project's one PNG
 * encoder); false on failure (reply set). */
static bool encode(struct canvas *c, struct web_reply *r)
{
	xt_buf_reset(&r->body);
	enum xt_rc rc = trace_image_png(c->rgb, c->w, c->h, 3, &r->body);
	if (rc) {
		web_error(r, rc == XT_ERR_NOMEM ? 503 : 500,
			  rc == XT_ERR_NOMEM ? "out of memory" : "PNG encoding failed");
		return false;
	}
	r->status = 200;
	r->content_type = "image/png";
	return true;
}

/* ---- text, ticks, legend -------------------------------------------------- */

#define TEXT_SCALE 2
#define CHAR_W ((WEB_FONT_W + 1) * TEXT_SCALE)
#define CHAR_H (WEB_FONT_H * TEXT_SCALE)

static int text_width(const char *s)
{
	return (int)strlen(s) * CHAR_W - TEXT_SCALE;
}

/* `s` with its top-left corner at (x, y). */
static void text(struct canvas *c, int x, int y, const char *s, uint32_t rgb)
{
	for (; *s; s++, x += CHAR_W) {
		const char *g = web_font_glyph(*s);
		for (int row = 0; row < WEB_FONT_H; row++)
			for (int col = 0; col < WEB_FONT_W; col++)
				if (g[row * WEB_FONT_W + col] == '#')
					fill(c, x + col * TEXT_SCALE, y + row * TEXT_SCALE,
					     x + (col + 1) * TEXT_SCALE, y + (row + 1) * TEXT_SCALE, rgb);
	}
}

/* A tick step of 1, 2 or 5 times a power of ten giving 3 to 7 ticks. */
static double tick_step(double lo, double hi)
{
	double raw = (hi - lo) / 5, p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void tick_label(char *out, size_t n, double v, double step)
{
	if (fabs(v) < step * 1e-6)
		v = 0;
	snprintf(out, n, "%.3g", v);
}

/* Run A as a blue square, run B as a red cross (the plot's marks). */
static void mark_a(struct canvas *c, int px, int py)
{
	fill(c, px - 3, py - 3, px + 4, py + 4, 0x1f5fbf);
}

static void mark_b(struct canvas *c, int px, int py)
{
	for (int d = -5; d <= 5; d++) {
		put(c, px + d, py + d, 0xd62020);
		put(c, px + d, py - d, 0xd62020);
		put(c, px + d + 1, py + d, 0xd62020);
		put(c, px + d + 1, py - d, 0xd62020);
	}
}

/*
 * The positions plot's frame, inside the canvas:
 *
 *   top     the legend (row 1), the y component's name (row 2), the band
 *           of off-scale markers above the frame
 *   left    y tick labels, the marker band
 *   bottom  the marker band, x tick labels, the x component's name
 *   right   the marker band
 *
 * Markers of off-scale points sit BAND pixels outside the frame; tick
 * labels and text stay clear of them.
 */
#define FRAME_L 76
#define FRAME_R (PLOT_SIZE - 24)
#define FRAME_T 52
#define FRAME_B (PLOT_SIZE - 52)
#define BAND 12

static void plot_positions(const struct web_tf *a, const struct web_tf *b,
			   const char *legend_a, const char *legend_b, struct canvas *c)
{
	double lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
	const struct web_tf *t[2] = { a, b };
	const int w = FRAME_R - FRAME_L, h = FRAME_B - FRAME_T;
	char label[32];

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
	/* 4 % of room on each side, so that no point sits on the frame. */
	double px_ = (hi_x - lo_x) * 0.04, py_ = (hi_y - lo_y) * 0.04;
	lo_x -= px_;
	hi_x += px_;
	lo_y -= py_;
	hi_y += py_;
	fill(c, 0, 0, PLOT_SIZE, PLOT_SIZE, 0xffffff);
	/* Grid lines and tick labels at round values. */
	double sx = tick_step(lo_x, hi_x), sy = tick_step(lo_y, hi_y);
	for (double v = ceil(lo_x / sx) * sx; v <= hi_x + sx * 1e-9; v += sx) {
		int px = FRAME_L + (int)((v - lo_x) / (hi_x - lo_x) * w);
		for (int i = FRAME_T; i <= FRAME_B; i++)
			put(c, px, i, fabs(v) < sx * 1e-6 ? 0xcccccc : 0xeeeeee);
		fill(c, px, FRAME_B - 5, px + 1, FRAME_B, 0x888888);
		tick_label(label, sizeof label, v, sx);
		text(c, px - text_width(label) / 2, FRAME_B + BAND + 8, label, 0x333333);
	}
	for (double v = ceil(lo_y / sy) * sy; v <= hi_y + sy * 1e-9; v += sy) {
		int py = FRAME_B - (int)((v - lo_y) / (hi_y - lo_y) * h);
		for (int i = FRAME_L; i <= FRAME_R; i++)
			put(c, i, py, fabs(v) < sy * 1e-6 ? 0xcccccc : 0xeeeeee);
		fill(c, FRAME_L, py, FRAME_L + 5, py + 1, 0x888888);
		tick_label(label, sizeof label, v, sy);
		text(c, FRAME_L - BAND - 8 - text_width(label), py - CHAR_H / 2, label, 0x333333);
	}
	for (int i = FRAME_L; i <= FRAME_R; i++) {
		put(c, i, FRAME_T, 0xbbbbbb);
		put(c, i, FRAME_B, 0xbbbbbb);
	}
	for (int i = FRAME_T; i <= FRAME_B; i++) {
		put(c, FRAME_L, i, 0xbbbbbb);
		put(c, FRAME_R, i, 0xbbbbbb);
	}
	/* The components plotted, and which run is which. */
	const struct web_tf *named = a->have && a->pos_x >= 0 ? a : b;
	if (named->pos_x >= 0) {
		const char *nx = named->comp_name[named->pos_x], *ny = named->comp_name[named->pos_y];
		text(c, FRAME_L + (w - text_width(nx)) / 2, PLOT_SIZE - CHAR_H - 4, nx, 0x000000);
		text(c, 4, 4 + CHAR_H + 6, ny, 0x000000);
	}
	mark_a(c, 10, 4 + CHAR_H / 2);
	text(c, 20, 4, legend_a, 0x1f5fbf);
	int xb = 20 + text_width(legend_a) + 28;
	mark_b(c, xb, 4 + CHAR_H / 2);
	text(c, xb + 10, 4, legend_b, 0xd62020);

	for (int k = 0; k < 2; k++)
		for (uint32_t v = 0; t[k]->have && t[k]->pos_x >= 0 && v < t[k]->nvertices; v++) {
			double x = web_tf_value(t[k], v, (uint32_t)t[k]->pos_x);
			double y = web_tf_value(t[k], v, (uint32_t)t[k]->pos_y);
			uint32_t colour = k == 0 ? 0x1f5fbf : 0xd62020;
			if (!(x >= lo_x && x <= hi_x && y >= lo_y && y <= hi_y)) {
				/* Off scale: a hollow marker in the band outside the
				 * frame, on the side where it lies. */
				int px = isnan(x) || x < lo_x ? FRAME_L - BAND
					 : x > hi_x ? FRAME_R + BAND
					 : FRAME_L + (int)((x - lo_x) / (hi_x - lo_x) * w);
				int py = isnan(y) || y > hi_y ? FRAME_T - BAND
					 : y < lo_y ? FRAME_B + BAND
					 : FRAME_B - (int)((y - lo_y) / (hi_y - lo_y) * h);
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
			int px = FRAME_L + (int)((x - lo_x) / (hi_x - lo_x) * w);
			int py = FRAME_B - (int)((y - lo_y) / (hi_y - lo_y) * h);
			if (k == 0)
				mark_a(c, px, py);
			else
				mark_b(c, px, py);
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

#define LEGEND_H 40   /* the error plot's legend, below the cells */

static void plot_errors(const struct web_tf *a, const struct web_tf *b, struct canvas *c)
{
	uint32_t nv = a->nvertices > b->nvertices ? a->nvertices : b->nvertices;
	uint32_t nc = a->have ? a->ncomp : b->ncomp;
	uint32_t cols = 1, rows, cell;

	while ((uint64_t)cols * cols < nv)
		cols++;
	rows = cols ? (nv + cols - 1) / cols : 1;
	cell = (PLOT_SIZE - 2) / (cols ? cols : 1);
	if (rows && (PLOT_SIZE - 2 - LEGEND_H) / rows < cell)
		cell = (PLOT_SIZE - 2 - LEGEND_H) / rows;
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
	/* The legend: grey "equal", then the scale of |a - b| from 1e-7 to 1e3. */
	int y0 = PLOT_SIZE - LEGEND_H + 6, x = 4;
	fill(c, x, y0, x + 14, y0 + 14, error_colour(0));
	text(c, x + 20, y0 + 2, "equal", 0x333333);
	x += 20 + text_width("equal") + 20;
	text(c, x, y0 + 2, "|a-b|", 0x333333);
	x += text_width("|a-b|") + 10;
	const int ramp = PLOT_SIZE - x - 60;
	for (int i = 0; i < ramp; i++)
		fill(c, x + i, y0, x + i + 1, y0 + 14, error_colour(pow(10, -7 + 10.0 * i / ramp)));
	static const int decades[] = { -7, -4, -1, 2 };
	for (size_t i = 0; i < sizeof decades / sizeof decades[0]; i++) {
		char label[8];
		int px = x + (decades[i] + 7) * ramp / 10;
		snprintf(label, sizeof label, "1e%d", decades[i]);
		fill(c, px, y0 + 14, px + 1, y0 + 18, 0x333333);
		text(c, px - text_width(label) / 2, y0 + 20, label, 0x333333);
	}
	text(c, x + ramp + 6, y0 + 2, "more", 0x333333);
}

static enum xt_rc run_legend(struct db *db, int64_t id, struct xt_arena *arena, char *out,
			     size_t n)
{
	struct db_run_info ri;
	enum xt_rc rc = db_run_get(db, id, &ri, arena);
	if (!rc)
		snprintf(out, n, "run %lld (%.24s)", (long long)id, ri.golden ? "golden" : ri.backend);
	return rc;
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
	/* The legend: "run 1 (golden)", "run 2 (host)". */
	char la[48], lb[48];
	rc = rc ? rc : run_legend(q->db, a, &arena, la, sizeof la);
	rc = rc ? rc : run_legend(q->db, b, &arena, lb, sizeof lb);
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
				plot_positions(&ta, &tb, la, lb, &c);
			else
				plot_errors(&ta, &tb, &c);
			encode(&c, r);
			free(c.rgb);
		}
	}
	xt_arena_fini(&arena);
}
