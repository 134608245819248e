/*
 * xt_rc.h - return codes and per-handle error records for all of xfbtrace.
 *
 * Every fallible function returns an `enum xt_rc`.  A handle (reader, spool,
 * database, ...) embeds a `struct xt_err` that keeps the message of its last
 * error together with the file:line that raised it, in the manner of
 * sqlite3_errmsg().  XT_FAIL() fills it in and evaluates to the code, so the
 * usual shape is `return XT_FAIL(&r->err, XT_ERR_CORRUPT, "bad chunk at %llu", off);`.
 */
#ifndef XT_RC_H
#define XT_RC_H

#include <stdarg.h>

enum xt_rc {
	XT_OK = 0,
	XT_ERR_NOMEM,        /* an allocation failed */
	XT_ERR_IO,           /* a read/write/open failed; errno text in message */
	XT_ERR_CORRUPT,      /* input is malformed (trace, PM4, DB row, request) */
	XT_ERR_VERSION,      /* input is of a version this build does not read */
	XT_ERR_INVALID,      /* the caller passed something invalid */
	XT_ERR_UNSUPPORTED,  /* valid, but not implemented: named in the message */
	XT_ERR_NOT_FOUND,    /* a looked-up thing does not exist */
	XT_ERR_EOF,          /* clean end of input (not an error for streams) */
	XT_ERR_INTERNAL,     /* a bug in xfbtrace */
};

/* Short stable name of a code ("corrupt", "io", ...). Never NULL. */
const char *xt_rc_name(enum xt_rc rc);

struct xt_err {
	enum xt_rc rc;       /* code of the last error, XT_OK if none */
	const char *file;    /* source file that raised it (static string) */
	int line;            /* source line that raised it */
	char msg[512];       /* human-readable, without file:line */
};

/* Records an error in `err` (which may be NULL) and returns `rc`. */
enum xt_rc xt_err_set(struct xt_err *err, enum xt_rc rc, const char *file,
		      int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
enum xt_rc xt_err_setv(struct xt_err *err, enum xt_rc rc, const char *file,
		       int line, const char *fmt, va_list ap);

/* Copies `src` into `dst` (both may be equal); returns src->rc. */
enum xt_rc xt_err_copy(struct xt_err *dst, const struct xt_err *src);

/* Clears the record. */
void xt_err_clear(struct xt_err *err);

/* "message (file.c:123)"; borrowed, valid until the next error on `err`. */
const char *xt_err_msg(const struct xt_err *err);

#define XT_FAIL(err, rc, ...) xt_err_set((err), (rc), __FILE__, __LINE__, __VA_ARGS__)

#endif
