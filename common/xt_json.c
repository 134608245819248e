/*
 * xt_json.c - JSON text output; see xt_json.h.
 */
#include "xt_json.h"

#include <math.h>
#include <stdio.h>

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
		} else if (c < 0x20 || c == 0x7f || c >= 0x80) {
			/* Bytes >= 0x80 are escaped one by one: the text may not
			 * be UTF-8 (shader sources, names from hostile traces). */
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
