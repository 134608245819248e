/*
 * trace_pixels.c - `pixels` observations: validation, comparison under an
 * image tolerance, 8-bit renditions for display (trace_pixels.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_pixels.h"
#include "trace_reader.h"

static bool is_string(const struct trace_value *v, const char *s)
{
	const size_t n = strlen(s);
	return v && v->tag == TRACE_TAG_STRING && v->mem.len == n && !memcmp(v->mem.bytes, s, n);
}

bool trace_pixels_is(const struct trace_value *obs)
{
	return obs && obs->tag == TRACE_TAG_MAP && is_string(trace_value_get(obs, "kind"), "pixels");
}

static const struct trace_value *want(const struct trace_value *obs, const char *key,
				      enum trace_tag tag, char *why, size_t n)
{
	const struct trace_value *v = trace_value_get(obs, key);
	if (!v || v->tag != tag)
		snprintf(why, n, "pixels observation: `%s` is %s", key,
			 v ? "of the wrong type" : "missing");
	return v && v->tag == tag ? v : NULL;
}

enum xt_rc trace_pixels_of(const struct trace_value *obs, struct trace_pixels *px, char *why,
			   size_t n)
{
	const struct trace_value *x, *y, *w, *h, *fmt, *type, *from, *data, *pack, *rs;

	memset(px, 0, sizeof *px);
	if (!trace_pixels_is(obs)) {
		snprintf(why, n, "not a pixels observation");
		return XT_ERR_CORRUPT;
	}
	if (!(x = want(obs, "x", TRACE_TAG_SINT, why, n)) ||
	    !(y = want(obs, "y", TRACE_TAG_SINT, why, n)) ||
	    !(w = want(obs, "width", TRACE_TAG_UINT, why, n)) ||
	    !(h = want(obs, "height", TRACE_TAG_UINT, why, n)) ||
	    !(fmt = want(obs, "format", TRACE_TAG_ENUM, why, n)) ||
	    !(type = want(obs, "pixel_type", TRACE_TAG_ENUM, why, n)) ||
	    !(from = want(obs, "from", TRACE_TAG_STRING, why, n)) ||
	    !(pack = want(obs, "pack", TRACE_TAG_MAP, why, n)) ||
	    !(data = want(obs, "data", TRACE_TAG_BLOB, why, n)))
		return XT_ERR_CORRUPT;
	if (!is_string(from, "read") && !is_string(from, "swap")) {
		snprintf(why, n, "pixels observation: `from` is neither \"read\" nor \"swap\"");
		return XT_ERR_CORRUPT;
	}
	if (w->u > INT32_MAX || h->u > INT32_MAX || x->i < INT32_MIN || x->i > INT32_MAX ||
	    y->i < INT32_MIN || y->i > INT32_MAX) {
		snprintf(why, n, "pixels observation: position or size out of range");
		return XT_ERR_CORRUPT;
	}
	const unsigned bpp = trace_pixels_bytes((uint32_t)fmt->u, (uint32_t)type->u);
	if (!bpp) {
		snprintf(why, n, "pixels observation: unknown format 0x%x / type 0x%x",
			 (unsigned)fmt->u, (unsigned)type->u);
		return XT_ERR_CORRUPT;
	}
	const uint64_t bytes = w->u * h->u * bpp;  /* < 2^31 * 2^31 * 8: no overflow */
	if (bytes > TRACE_PIXELS_MAX_BYTES || bytes != data->mem.len) {
		snprintf(why, n, "pixels observation: %zu bytes of data for %" PRIu64 " x %" PRIu64
			 " pixels of %u bytes", data->mem.len, w->u, h->u, bpp);
		return XT_ERR_CORRUPT;
	}
	int64_t read_w = -1, read_h = -1;
	if ((rs = trace_value_get(obs, "read_size"))) {
		if (rs->tag != TRACE_TAG_ARRAY || rs->agg.count != 2 ||
		    rs->agg.items[0].tag != TRACE_TAG_UINT || rs->agg.items[1].tag != TRACE_TAG_UINT ||
		    rs->agg.items[0].u > INT32_MAX || rs->agg.items[1].u > INT32_MAX) {
			snprintf(why, n, "pixels observation: `read_size` is not two sizes");
			return XT_ERR_CORRUPT;
		}
		read_w = (int64_t)rs->agg.items[0].u;
		read_h = (int64_t)rs->agg.items[1].u;
	}
	*px = (struct trace_pixels){
		.read_w = read_w, .read_h = read_h,
		.x = x->i, .y = y->i, .width = (uint32_t)w->u, .height = (uint32_t)h->u,
		.format = (uint32_t)fmt->u, .type = (uint32_t)type->u, .bpp = bpp,
		.from = is_string(from, "read") ? "read" : "swap",
		.data = data->mem.bytes, .len = data->mem.len,
	};
	px->packed = trace_pixels_packed_bytes(px->type) != 0;
	px->channels = px->packed ? 1 : trace_pixels_components(px->format);
	px->channel_bytes = px->packed ? bpp : trace_pixels_type_bytes(px->type);
	return XT_OK;
}

bool trace_img_tol_parse(const char *s, struct trace_img_tol *t)
{
	struct trace_img_tol r = { 0, 0 };
	bool any = false;

	while (s && *s) {
		char *end;
		if (!strncmp(s, "max=", 4)) {
			r.max = strtod(s + 4, &end);
			if (end == s + 4 || !isfinite(r.max) || r.max < 0)
				return false;
		} else if (!strncmp(s, "pixels=", 7)) {
			if (s[7] < '0' || s[7] > '9')
				return false;
			r.pixels = strtoull(s + 7, &end, 10);
		} else {
			return false;
		}
		any = true;
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return false;
		s = end;
	}
	if (!any)
		return false;
	*t = r;
	return true;
}

static double half_to_double(uint16_t h)
{
	const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	const double s = (h & 0x8000) ? -1.0 : 1.0;

	if (e == 0)
		return s * ldexp(m, -24);
	if (e == 31)
		return m ? NAN : s * INFINITY;
	return s * ldexp(m + 1024, e - 25);
}

/* Value `c` of pixel `i` in the type's units. */
static double value(const struct trace_pixels *px, size_t i, unsigned c)
{
	const uint8_t *p = px->data + i * px->bpp + (size_t)c * px->channel_bytes;

	if (px->packed) {
		uint64_t v = 0;
		memcpy(&v, p, px->bpp);
		return (double)v;
	}
	switch (px->type) {
	case TRACE_PX_BYTE: return (int8_t)p[0];
	case TRACE_PX_UNSIGNED_BYTE: return p[0];
	case TRACE_PX_SHORT: { int16_t v; memcpy(&v, p, 2); return v; }
	case TRACE_PX_UNSIGNED_SHORT: { uint16_t v; memcpy(&v, p, 2); return v; }
	case TRACE_PX_INT: { int32_t v; memcpy(&v, p, 4); return v; }
	case TRACE_PX_UNSIGNED_INT: { uint32_t v; memcpy(&v, p, 4); return v; }
	case TRACE_PX_FLOAT: { float v; memcpy(&v, p, 4); return v; }
	default: { uint16_t v; memcpy(&v, p, 2); return half_to_double(v); }  /* half */
	}
}

bool trace_pixels_defined(const struct trace_pixels *px, size_t i)
{
	const int64_t x = px->x + (int64_t)(i % px->width), y = px->y + (int64_t)(i / px->width);

	return px->read_w < 0 || px->read_h < 0 ||
	       (x >= 0 && y >= 0 && x < px->read_w && y < px->read_h);
}

static void pixel_diff(const struct trace_pixels *a, const struct trace_pixels *b, size_t i,
		       struct trace_pixel_diff *d)
{
	d->x = a->x + (int64_t)(i % a->width);
	d->y = a->y + (int64_t)(i / a->width);
	for (unsigned c = 0; c < 4; c++) {
		d->golden[c] = c < a->channels ? value(a, i, c) : 0;
		d->replay[c] = c < a->channels ? value(b, i, c) : 0;
	}
}

/* Whether pixel `i` is beyond `t`'s max; *delta: its largest difference. */
static bool over_max(const struct trace_pixels *a, const struct trace_pixels *b, size_t i,
		     const struct trace_img_tol *t, double *delta)
{
	bool over = false;

	*delta = 0;
	for (unsigned c = 0; c < a->channels; c++) {
		const double x = value(a, i, c), y = value(b, i, c);
		double d = fabs(x - y);
		if (isnan(x) || isnan(y))
			d = isnan(x) && isnan(y) ? 0 : INFINITY;
		if (d > *delta)
			*delta = d;
		if (d > (t ? t->max : 0) || (a->packed && d > 0))
			over = true;
	}
	/* Bytes differ but no value does (NaN payloads, -0.0): beyond an
	 * exact comparison only. */
	return over || !t;
}

void trace_pixels_compare(const struct trace_pixels *a, const struct trace_pixels *b,
			  const struct trace_img_tol *t, struct trace_pixels_cmp *out)
{
	memset(out, 0, sizeof *out);
	if (a->width != b->width || a->height != b->height || a->format != b->format ||
	    a->type != b->type || a->len != b->len) {
		out->why = a->format != b->format || a->type != b->type ? "format or type differ"
								       : "size differs";
		return;
	}
	out->comparable = true;
	const size_t npix = (size_t)a->width * a->height;
	struct trace_pixel_diff within_first[TRACE_PIXELS_FIRST];
	unsigned nwithin = 0;
	for (size_t i = 0; i < npix; i++) {
		if (!memcmp(a->data + i * a->bpp, b->data + i * a->bpp, a->bpp))
			continue;
		if (!trace_pixels_defined(a, i)) {
			if (!out->undefined++)
				pixel_diff(a, b, i, &out->first_undefined);
			continue;
		}
		double delta;
		const bool over = over_max(a, b, i, t, &delta);
		out->differ++;
		if (delta > out->max_delta)
			out->max_delta = delta;
		if (over)
			out->over++;
		struct trace_pixel_diff *d = NULL;
		if (over && out->nfirst < TRACE_PIXELS_FIRST)
			d = &out->first[out->nfirst++];
		else if (!over && nwithin < TRACE_PIXELS_FIRST)
			d = &within_first[nwithin++];
		if (d) {
			pixel_diff(a, b, i, d);
			d->over = over;
		}
	}
	for (unsigned k = 0; k < nwithin && out->nfirst < TRACE_PIXELS_FIRST; k++)
		out->first[out->nfirst++] = within_first[k];
	out->within = out->over <= (t ? t->pixels : 0);
}

bool trace_pixels_over(const struct trace_pixels *a, const struct trace_pixels *b,
		       const struct trace_img_tol *t, size_t i)
{
	double delta;

	return memcmp(a->data + i * a->bpp, b->data + i * a->bpp, a->bpp) &&
	       trace_pixels_defined(a, i) && over_max(a, b, i, t, &delta);
}

static int values_text(char *buf, size_t n, const struct trace_pixels *px, const double *v)
{
	int k = 0;
	const bool ints = px->type != TRACE_PX_FLOAT && px->type != TRACE_PX_HALF_FLOAT &&
			  px->type != TRACE_PX_HALF_FLOAT_OES;

	for (unsigned c = 0; c < px->channels && k >= 0 && (size_t)k < n; c++)
		k += snprintf(buf + k, n - (size_t)k, ints ? "%s%.0f" : "%s%g", c ? " " : "", v[c]);
	return k;
}

void trace_pixel_diff_text(const struct trace_pixels *px, const struct trace_pixel_diff *d,
			   char *buf, size_t n)
{
	char g[96], r[96];

	values_text(g, sizeof g, px, d->golden);
	values_text(r, sizeof r, px, d->replay);
	snprintf(buf, n, "(%" PRId64 ", %" PRId64 "): golden %s, replay %s", d->x, d->y, g, r);
}

/* Value `c` of pixel `i` scaled to 0..255 for display. */
static uint8_t shade(const struct trace_pixels *px, size_t i, unsigned c)
{
	double v = value(px, i, c);
	const bool integer = px->format >= TRACE_PX_RED_INTEGER && px->format <= TRACE_PX_BGRA_INTEGER;

	if (!integer) {
		switch (px->type) {
		case TRACE_PX_BYTE: v = v * 255.0 / 127.0; break;
		case TRACE_PX_UNSIGNED_SHORT: v /= 257.0; break;
		case TRACE_PX_SHORT: v = v * 255.0 / 32767.0; break;
		case TRACE_PX_UNSIGNED_INT: v /= 16843009.0; break;
		case TRACE_PX_INT: v = v * 255.0 / 2147483647.0; break;
		case TRACE_PX_UNSIGNED_BYTE: break;
		default: v *= 255.0; break;   /* float, half */
		}
	}
	if (!(v > 0))
		return 0;
	return v >= 255 ? 255 : (uint8_t)lrint(v);
}

void trace_pixels_rgba8(const struct trace_pixels *px, uint8_t *rgba)
{
	/* Which component of the pixel gives red, green, blue (-1: none;
	 * -2: red's again, a grey format). */
	int map[3] = { -1, -1, -1 };

	switch (px->format) {
	case TRACE_PX_RED: case TRACE_PX_RED_INTEGER: map[0] = 0; break;
	case TRACE_PX_GREEN: case TRACE_PX_GREEN_INTEGER: map[1] = 0; break;
	case TRACE_PX_BLUE: case TRACE_PX_BLUE_INTEGER: map[2] = 0; break;
	case TRACE_PX_RG: case TRACE_PX_RG_INTEGER: map[0] = 0; map[1] = 1; break;
	case TRACE_PX_RGB: case TRACE_PX_RGBA: case TRACE_PX_RGB_INTEGER:
	case TRACE_PX_RGBA_INTEGER:
		map[0] = 0; map[1] = 1; map[2] = 2; break;
	case TRACE_PX_BGR: case TRACE_PX_BGRA: case TRACE_PX_BGR_INTEGER:
	case TRACE_PX_BGRA_INTEGER:
		map[0] = 2; map[1] = 1; map[2] = 0; break;
	case TRACE_PX_ABGR_EXT: map[0] = 3; map[1] = 2; map[2] = 1; break;
	default: map[0] = 0; map[1] = -2; map[2] = -2; break;  /* grey */
	}
	const bool bytes_rgba = px->type == TRACE_PX_UNSIGNED_INT_8_8_8_8_REV &&
				(px->format == TRACE_PX_RGBA || px->format == TRACE_PX_BGRA);
	for (uint32_t row = 0; row < px->height; row++) {
		uint8_t *out = rgba + (size_t)(px->height - 1 - row) * px->width * 4;
		for (uint32_t col = 0; col < px->width; col++, out += 4) {
			const size_t i = (size_t)row * px->width + col;
			for (unsigned c = 0; c < 3; c++) {
				const int m = map[c] == -2 ? map[0] : map[c];
				if (bytes_rgba)
					out[c] = px->data[i * 4 + (unsigned)m];
				else
					out[c] = m >= 0 && !px->packed ? shade(px, i, (unsigned)m) : 0;
			}
			out[3] = 255;
		}
	}
}

void trace_pixels_diff_rgba8(const struct trace_pixels *a, const struct trace_pixels *b,
			     const struct trace_img_tol *t, uint8_t *rgba)
{
	trace_pixels_rgba8(a, rgba);
	for (uint32_t row = 0; row < a->height; row++) {
		uint8_t *out = rgba + (size_t)(a->height - 1 - row) * a->width * 4;
		for (uint32_t col = 0; col < a->width; col++, out += 4) {
			const size_t i = (size_t)row * a->width + col;
			double delta;
			if (!memcmp(a->data + i * a->bpp, b->data + i * a->bpp, a->bpp)) {
				const uint8_t grey = (uint8_t)((out[0] + out[1] + out[2]) / 6);
				out[0] = out[1] = out[2] = grey;
			} else if (!trace_pixels_defined(a, i)) {
				out[0] = 40, out[1] = 90, out[2] = 255;
			} else if (over_max(a, b, i, t, &delta)) {
				out[0] = 255, out[1] = 0, out[2] = 0;
			} else {
				out[0] = 255, out[1] = 220, out[2] = 0;
			}
		}
	}
}
