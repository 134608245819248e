/*
 * xt_rc.c - names of return codes and the per-handle error record.
 */
#include "xt_rc.h"

#include <stdio.h>
#include <string.h>

const char *xt_rc_name(enum xt_rc rc)
{
	switch (rc) {
	case XT_OK: return "ok";
	case XT_ERR_NOMEM: return "out of memory";
	case XT_ERR_IO: return "i/o error";
	case XT_ERR_CORRUPT: return "corrupt input";
	case XT_ERR_VERSION: return "unsupported version";
	case XT_ERR_INVALID: return "invalid argument";
	case XT_ERR_UNSUPPORTED: return "unsupported";
	case XT_ERR_NOT_FOUND: return "not found";
	case XT_ERR_EOF: return "end of input";
	case XT_ERR_INTERNAL: return "internal error";
	}
	return "unknown error";
}

enum xt_rc xt_err_setv(struct xt_err *err, enum xt_rc rc, const char *file,
		       int line, const char *fmt, va_list ap)
{
	if (!err)
		return rc;
	err->rc = rc;
	err->file = file;
	err->line = line;
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	return rc;
}

enum xt_rc xt_err_set(struct xt_err *err, enum xt_rc rc, const char *file,
		      int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	xt_err_setv(err, rc, file, line, fmt, ap);
	va_end(ap);
	return rc;
}

enum xt_rc xt_err_copy(struct xt_err *dst, const struct xt_err *src)
{
	if (dst != src)
		*dst = *src;
	return src->rc;
}

void xt_err_clear(struct xt_err *err)
{
	err->rc = XT_OK;
	err->file = NULL;
	err->line = 0;
	err->msg[0] = '\0';
}

const char *xt_err_msg(const struct xt_err *err)
{
	/* Thread-local so that two handles on two threads do not race. */
	static _Thread_local char out[640];
	if (err->rc == XT_OK)
		return "no error";
	if (err->file) {
		const char *base = strrchr(err->file, '/');
		snprintf(out, sizeof out, "%s (%s:%d)", err->msg,
			 base ? base + 1 : err->file, err->line);
	} else {
		snprintf(out, sizeof out, "%s", err->msg);
	}
	return out;
}
