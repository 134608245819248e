/*
 * xt_buf.c - growable byte buffer; see xt_buf.h.
 */
#include "xt_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "xt_fault.h"

void xt_buf_fini(struct xt_buf *b)
{
	free(b->data);
	xt_buf_init(b);
}

enum xt_rc xt_buf_reserve(struct xt_buf *b, size_t extra)
{
	size_t need, cap;
	uint8_t *p;

	if (extra > SIZE_MAX - b->len) {
		b->failed = true;
		return XT_ERR_NOMEM;
	}
	need = b->len + extra;
	if (need <= b->cap)
		return XT_OK;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = xt_realloc(b->data, cap);
	if (!p) {
		b->failed = true;
		return XT_ERR_NOMEM;
	}
	b->data = p;
	b->cap = cap;
	return XT_OK;
}

enum xt_rc xt_buf_append(struct xt_buf *b, const void *p, size_t n)
{
	if (n == 0)
		return XT_OK;
	if (xt_buf_reserve(b, n))
		return XT_ERR_NOMEM;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return XT_OK;
}

enum xt_rc xt_buf_printf(struct xt_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return XT_ERR_INTERNAL;
	if (xt_buf_reserve(b, (size_t)n + 1))
		return XT_ERR_NOMEM;
	va_start(ap, fmt);
	vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return XT_OK;
}

uint8_t *xt_buf_detach(struct xt_buf *b, size_t *len)
{
	uint8_t *p = b->data;
	if (len)
		*len = b->len;
	xt_buf_init(b);
	return p;
}
