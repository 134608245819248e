/*
 * xt_json.c - JSON text output and the writer; see xt_json.h.
 */
#include "xt_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* The length of the well-formed UTF-8 sequence of 2 to 4 bytes at u[0]
 * (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF), or 0. */
static size_t utf8_sequence(const unsigned char *u, size_t n)
{
	size_t len;
	uint32_t cp, min;

	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2, cp = u[0] & 0x1fu, min = 0x80;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3, cp = u[0] & 0x0fu, min = 0x800;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4, cp = u[0] & 0x07u, min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3fu);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

enum xt_rc xt_json_str(struct xt_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;

	/* Worst case: every byte becomes \u00XX. */
	if (n > (SIZE_MAX - 2) / 6 || xt_buf_reserve(b, n * 6 + 2))
		return XT_ERR_NOMEM;
	uint8_t *o = b->data + b->len;
	*o++ = '"';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = u[i];
		if (c == '"' || c == '\\') {
			*o++ = '\\';
			*o++ = c;
		} else if (c == '\n') {
			*o++ = '\\';
			*o++ = 'n';
		} else if (c == '\t') {
			*o++ = '\\';
			*o++ = 't';
		} else if (c >= 0x80 && utf8_sequence(u + i, n - i)) {
			/* well-formed UTF-8 ("§" in verdict reasons): as is */
			size_t len = utf8_sequence(u + i, n - i);
			for (size_t k = 0; k < len; k++)
				*o++ = u[i + k];
			i += len - 1;
		} else if (c < 0x20 || c == 0x7f || c >= 0x80) {
			/* Other bytes >= 0x80 are escaped one by one as the code
			 * points U+0080..U+00FF: the text may not be UTF-8 (shader
			 * sources, names from hostile traces), and JSON must be. */
			*o++ = '\\';
			*o++ = 'u';
			*o++ = '0';
			*o++ = '0';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		} else {
			*o++ = c;
		}
	}
	*o++ = '"';
	b->len = (size_t)(o - b->data);
	return XT_OK;
}

enum xt_rc xt_json_num(struct xt_buf *b, double v, int single)
{
	if (isnan(v))
		return xt_buf_append(b, "\"nan\"", 5);
	if (isinf(v))
		return v > 0 ? xt_buf_append(b, "\"inf\"", 5)
			     : xt_buf_append(b, "\"-inf\"", 6);
	if (v == floor(v) && fabs(v) < 1e15)
		return xt_buf_printf(b, "%.0f%s", v, signbit(v) && v == 0 ? ".0" : "");
	return xt_buf_printf(b, single ? "%.9g" : "%.17g", v);
}

enum xt_rc xt_json_hex(struct xt_buf *b, const void *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = p;

	if (n > (SIZE_MAX - 2) / 2 || xt_buf_reserve(b, n * 2 + 2))
		return XT_ERR_NOMEM;
	uint8_t *o = b->data + b->len;
	*o++ = '"';
	for (size_t i = 0; i < n; i++) {
		*o++ = hex[u[i] >> 4];
		*o++ = hex[u[i] & 15];
	}
	*o++ = '"';
	b->len = (size_t)(o - b->data);
	return XT_OK;
}

/* ---- the writer ------------------------------------------------------------ */

void xt_jw_init(struct xt_jw *w, struct xt_buf *b)
{
	memset(w, 0, sizeof *w);
	w->b = b;
}

enum xt_rc xt_jw_done(const struct xt_jw *w)
{
	if (w->rc)
		return w->rc;
	return w->depth || w->after_key || !w->top_written ? XT_ERR_INTERNAL : XT_OK;
}

static void keep(struct xt_jw *w, enum xt_rc rc)
{
	if (rc && !w->rc)
		w->rc = rc;
}

/* Before a value: the comma of an array, and the checks.  False when the
 * value must not be written. */
static bool value_ok(struct xt_jw *w)
{
	if (w->rc)
		return false;
	if (!w->depth) {
		if (w->top_written) {
			keep(w, XT_ERR_INTERNAL);   /* a second document */
			return false;
		}
		w->top_written = true;
		return true;
	}
	if (w->object[w->depth - 1]) {
		if (!w->after_key) {
			keep(w, XT_ERR_INTERNAL);   /* a value without its key */
			return false;
		}
		w->after_key = false;
		return true;
	}
	if (w->items[w->depth - 1])
		keep(w, xt_buf_append(w->b, ",", 1));
	w->items[w->depth - 1] = true;
	return !w->rc;
}

static void open_level(struct xt_jw *w, bool object)
{
	if (!value_ok(w))
		return;
	if (w->depth == XT_JW_MAX_DEPTH) {
		keep(w, XT_ERR_INTERNAL);
		return;
	}
	w->object[w->depth] = object;
	w->items[w->depth] = false;
	w->depth++;
	keep(w, xt_buf_append(w->b, object ? "{" : "[", 1));
}

void xt_jw_obj(struct xt_jw *w)
{
	open_level(w, true);
}

void xt_jw_arr(struct xt_jw *w)
{
	open_level(w, false);
}

void xt_jw_end(struct xt_jw *w)
{
	if (w->rc)
		return;
	if (!w->depth || w->after_key) {
		keep(w, XT_ERR_INTERNAL);
		return;
	}
	w->depth--;
	keep(w, xt_buf_append(w->b, w->object[w->depth] ? "}" : "]", 1));
}

void xt_jw_key(struct xt_jw *w, const char *key)
{
	if (w->rc)
		return;
	if (!w->depth || !w->object[w->depth - 1] || w->after_key || !key) {
		keep(w, XT_ERR_INTERNAL);
		return;
	}
	if (w->items[w->depth - 1])
		keep(w, xt_buf_append(w->b, ",", 1));
	w->items[w->depth - 1] = true;
	keep(w, xt_json_cstr(w->b, key));
	keep(w, xt_buf_append(w->b, ":", 1));
	w->after_key = true;
}

void xt_jw_null(struct xt_jw *w)
{
	if (value_ok(w))
		keep(w, xt_buf_append(w->b, "null", 4));
}

void xt_jw_bool(struct xt_jw *w, bool v)
{
	if (value_ok(w))
		keep(w, v ? xt_buf_append(w->b, "true", 4) : xt_buf_append(w->b, "false", 5));
}

void xt_jw_u64(struct xt_jw *w, uint64_t v)
{
	if (value_ok(w))
		keep(w, xt_buf_printf(w->b, "%" PRIu64, v));
}

void xt_jw_i64(struct xt_jw *w, int64_t v)
{
	if (value_ok(w))
		keep(w, xt_buf_printf(w->b, "%" PRId64, v));
}

void xt_jw_num(struct xt_jw *w, double v, int single)
{
	if (value_ok(w))
		keep(w, xt_json_num(w->b, v, single));
}

void xt_jw_strn(struct xt_jw *w, const char *s, size_t n)
{
	if (!s) {
		xt_jw_null(w);
		return;
	}
	if (value_ok(w))
		keep(w, xt_json_str(w->b, s, n));
}

void xt_jw_str(struct xt_jw *w, const char *s)
{
	xt_jw_strn(w, s, s ? strlen(s) : 0);
}

void xt_jw_strf(struct xt_jw *w, const char *fmt, ...)
{
	char s[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s, sizeof s, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof s) {
		keep(w, XT_ERR_INTERNAL);
		return;
	}
	xt_jw_strn(w, s, (size_t)n);
}

void xt_jw_hex(struct xt_jw *w, const void *p, size_t n)
{
	if (value_ok(w))
		keep(w, xt_json_hex(w->b, p, n));
}

void xt_jw_rawn(struct xt_jw *w, const char *json, size_t n)
{
	if (!json) {
		xt_jw_null(w);
		return;
	}
	if (value_ok(w))
		keep(w, xt_buf_append(w->b, json, n));
}
