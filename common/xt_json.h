/*
 * xt_json.h - writing JSON text into an xt_buf.
 *
 * Just enough to emit strict JSON (RFC 8259) from C: escaped strings,
 * numbers that are never NaN/Infinity (those become the strings "nan",
 * "inf", "-inf"), and hex-encoded bytes.  The caller writes the punctuation.
 */
#ifndef XT_JSON_H
#define XT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xt_buf.h"

/* Appends `s` (n bytes, may hold NULs or invalid UTF-8: escaped as \u00XX
 * per byte) as a quoted JSON string. */
enum xt_rc xt_json_str(struct xt_buf *b, const char *s, size_t n);
static inline enum xt_rc xt_json_cstr(struct xt_buf *b, const char *s)
{
	return xt_json_str(b, s, strlen(s));
}
/* Appends a double with enough digits to round-trip (%.17g, or %.9g when
 * `single` precision), or a string for non-finite values. */
enum xt_rc xt_json_num(struct xt_buf *b, double v, int single);
/* Appends bytes as a quoted lowercase hex string. */
enum xt_rc xt_json_hex(struct xt_buf *b, const void *p, size_t n);

#endif
