/*
 * xt_json.h - writing JSON text into an xt_buf.
 *
 * Just enough to emit strict JSON (RFC 8259) from C, compact (no white
 * space): escaped strings, numbers that are never NaN/Infinity (those
 * become the strings "nan", "inf", "-inf"), and hex-encoded bytes.
 *
 * Documents are written with the writer, struct xt_jw: it places the
 * braces' partners, the colons and the commas, and checks the nesting (a
 * value in an object must follow its key, a key belongs in an object, an
 * end must close what is open), so no caller counts lengths or commas.
 * Its calls do not return errors: the first one (XT_ERR_NOMEM from the
 * buffer, XT_ERR_INTERNAL for a misuse) is kept, later calls do nothing,
 * and xt_jw_done() reports it, or XT_ERR_INTERNAL for a document left
 * open.  The value functions below it (xt_json_str, ...) write one bare
 * value and are what the writer uses.
 */
#ifndef XT_JSON_H
#define XT_JSON_H

#include <stdbool.h>
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

/* ---- the writer ------------------------------------------------------------ */

#define XT_JW_MAX_DEPTH 64   /* trace values nest 32 deep at most */

struct xt_jw {
	struct xt_buf *b;
	enum xt_rc rc;                     /* the first error, or XT_OK */
	uint32_t depth;                    /* objects and arrays open */
	bool after_key;                    /* a key is written, its value is next */
	bool top_written;                  /* the one top-level value is (being) written */
	bool object[XT_JW_MAX_DEPTH];      /* per open level: an object (else an array) */
	bool items[XT_JW_MAX_DEPTH];       /* ... that holds an item already */
};

/* A writer of one JSON value (a document) appended to `b`. */
void xt_jw_init(struct xt_jw *w, struct xt_buf *b);
/* The first error, or XT_ERR_INTERNAL when the value is incomplete. */
enum xt_rc xt_jw_done(const struct xt_jw *w);

void xt_jw_obj(struct xt_jw *w);
void xt_jw_arr(struct xt_jw *w);
/* Closes the object or array opened last. */
void xt_jw_end(struct xt_jw *w);
/* The key of the next value of the object open last. */
void xt_jw_key(struct xt_jw *w, const char *key);

/* Values: each goes where a value may go (after a key, into an array, or
 * as the document). */
void xt_jw_null(struct xt_jw *w);
void xt_jw_bool(struct xt_jw *w, bool v);
void xt_jw_u64(struct xt_jw *w, uint64_t v);
void xt_jw_i64(struct xt_jw *w, int64_t v);
/* A double as xt_json_num writes it. */
void xt_jw_num(struct xt_jw *w, double v, int single);
/* A string (n bytes; NULL: null). */
void xt_jw_strn(struct xt_jw *w, const char *s, size_t n);
/* A NUL-terminated string; NULL: null. */
void xt_jw_str(struct xt_jw *w, const char *s);
/* A string formatted by printf (at most 255 bytes). */
void xt_jw_strf(struct xt_jw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Bytes as a hex string. */
void xt_jw_hex(struct xt_jw *w, const void *p, size_t n);
/* A value that is JSON text already (n bytes, taken as they are: the
 * caller vouches for them); NULL: null. */
void xt_jw_rawn(struct xt_jw *w, const char *json, size_t n);
static inline void xt_jw_raw(struct xt_jw *w, const char *json)
{
	xt_jw_rawn(w, json, json ? strlen(json) : 0);
}

/* Member shorthands: the key, then the value. */
static inline void xt_jw_kobj(struct xt_jw *w, const char *k) { xt_jw_key(w, k); xt_jw_obj(w); }
static inline void xt_jw_karr(struct xt_jw *w, const char *k) { xt_jw_key(w, k); xt_jw_arr(w); }
static inline void xt_jw_knull(struct xt_jw *w, const char *k) { xt_jw_key(w, k); xt_jw_null(w); }
static inline void xt_jw_kbool(struct xt_jw *w, const char *k, bool v)
{
	xt_jw_key(w, k);
	xt_jw_bool(w, v);
}
static inline void xt_jw_ku64(struct xt_jw *w, const char *k, uint64_t v)
{
	xt_jw_key(w, k);
	xt_jw_u64(w, v);
}
static inline void xt_jw_ki64(struct xt_jw *w, const char *k, int64_t v)
{
	xt_jw_key(w, k);
	xt_jw_i64(w, v);
}
static inline void xt_jw_knum(struct xt_jw *w, const char *k, double v, int single)
{
	xt_jw_key(w, k);
	xt_jw_num(w, v, single);
}
static inline void xt_jw_kstr(struct xt_jw *w, const char *k, const char *s)
{
	xt_jw_key(w, k);
	xt_jw_str(w, s);
}
static inline void xt_jw_kraw(struct xt_jw *w, const char *k, const char *json)
{
	xt_jw_key(w, k);
	xt_jw_raw(w, json);
}

#endif
