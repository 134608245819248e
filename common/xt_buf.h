/*
 * xt_buf.h - a growable byte buffer (git's strbuf, for bytes).
 *
 * Invariant: `data` is NULL iff `cap` is 0; `len <= cap`.  Appends that cannot
 * grow the buffer return XT_ERR_NOMEM and leave it unaltered, and set
 * `failed`, so that code building a long text with unchecked appends can
 * tell at the end that a piece is missing.  Ownership of the bytes moves out
 * only through xt_buf_detach().
 */
#ifndef XT_BUF_H
#define XT_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xt_rc.h"

struct xt_buf {
	uint8_t *data;  /* heap storage, or NULL */
	size_t len;     /* bytes in use */
	size_t cap;     /* bytes allocated */
	bool failed;    /* an append failed since init / reset */
};

#define XT_BUF_INIT { NULL, 0, 0, false }

static inline void xt_buf_init(struct xt_buf *b)
{
	b->data = NULL;
	b->len = b->cap = 0;
	b->failed = false;
}
/* Frees the storage; the buffer is empty and reusable afterwards. */
void xt_buf_fini(struct xt_buf *b);
/* Makes room for `extra` more bytes. */
enum xt_rc xt_buf_reserve(struct xt_buf *b, size_t extra);
enum xt_rc xt_buf_append(struct xt_buf *b, const void *p, size_t n);
enum xt_rc xt_buf_printf(struct xt_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Hands the storage to the caller (free() it); the buffer becomes empty. */
uint8_t *xt_buf_detach(struct xt_buf *b, size_t *len);
static inline void xt_buf_reset(struct xt_buf *b)
{
	b->len = 0;
	b->failed = false;
}

#endif
