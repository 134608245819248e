/*
 * trace_value.c - decoding of trace values (the VALUES grammar of
 * trace_format.h, docs/trace-format.md "Values").
 *
 * Every byte comes from a file that may be damaged or hostile, so each read
 * is checked against `end` first, and every count is checked against the
 * bytes left before anything is allocated for it: each value takes at least
 * one byte (its tag), so a count larger than the bytes left is a lie, and
 * the largest allocation a payload of n bytes can cause is about n times
 * sizeof(struct trace_value).  Nesting is limited to 32 levels so that a
 * payload of nested ARRAY tags cannot exhaust the stack.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trace_int.h"
#include "trace_reader.h"

#define MAX_DEPTH 32

/* The decoding context: where the value started, for messages. */
struct dec {
	const uint8_t *start;
	const uint8_t *end;
	struct xt_arena *arena;
	struct xt_err *err;
};

#define DEC_FAIL(d, p, ...) dec_fail((d), (p), __FILE__, __LINE__, __VA_ARGS__)

__attribute__((format(printf, 5, 6)))
static enum xt_rc dec_fail(const struct dec *d, const uint8_t *p, const char *file,
			   int line, const char *fmt, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return xt_err_set(d->err, XT_ERR_CORRUPT, file, line, "%s at value byte %td",
			  what, p - d->start);
}

enum xt_rc trace_get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	for (unsigned i = 0; i < 10u; i++) {
		if (p == end)
			return XT_ERR_CORRUPT;
		uint8_t b = *p++;
		/* The tenth byte holds bit 63 only. */
		if (i == 9 && b > 1)
			return XT_ERR_CORRUPT;
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*pp = p;
			*out = v;
			return XT_OK;
		}
	}
	return XT_ERR_CORRUPT;
}

enum xt_rc trace_get_u32(const uint8_t **pp, const uint8_t *end, uint32_t *out)
{
	if (end - *pp < 4)
		return XT_ERR_CORRUPT;
	memcpy(out, *pp, 4);
	*pp += 4;
	return XT_OK;
}

enum xt_rc trace_get_lenbytes(const uint8_t **pp, const uint8_t *end,
			      const uint8_t **bytes, size_t *len)
{
	const uint8_t *p = *pp;
	uint64_t n;
	if (trace_get_varint(&p, end, &n) != XT_OK || n > (uint64_t)(end - p))
		return XT_ERR_CORRUPT;
	*bytes = p;
	*len = (size_t)n;
	*pp = p + n;
	return XT_OK;
}

static enum xt_rc dec_varint(const struct dec *d, const uint8_t **pp, uint64_t *out,
			     const char *what)
{
	if (trace_get_varint(pp, d->end, out) != XT_OK)
		return DEC_FAIL(d, *pp, "bad or truncated varint (%s)", what);
	return XT_OK;
}

static enum xt_rc dec_bytes(const struct dec *d, const uint8_t **pp,
			    const uint8_t **bytes, size_t *len, const char *what)
{
	if (trace_get_lenbytes(pp, d->end, bytes, len) != XT_OK)
		return DEC_FAIL(d, *pp, "%s length runs past the end", what);
	return XT_OK;
}

static enum xt_rc dec_value(const struct dec *d, const uint8_t **pp,
			    struct trace_value *out, int depth);

static enum xt_rc dec_aggregate(const struct dec *d, const uint8_t **pp,
				struct trace_value *out, int depth, int is_map)
{
	const uint8_t *p = *pp;
	uint64_t count;
	enum xt_rc rc = dec_varint(d, &p, &count, is_map ? "map count" : "array count");
	if (rc != XT_OK)
		return rc;
	/* An item takes >= 1 byte, a map entry >= 2 (key length, value tag). */
	if (count > (uint64_t)(d->end - p) / (is_map ? 2u : 1u))
		return DEC_FAIL(d, *pp, "%s count %llu exceeds the %td bytes left",
				is_map ? "map" : "array", (unsigned long long)count,
				d->end - p);
	out->agg.count = (uint32_t)count;
	out->agg.items = NULL;
	out->agg.keys = NULL;
	if (count) {
		out->agg.items = xt_arena_alloc(d->arena, count * sizeof *out->agg.items);
		if (!out->agg.items)
			return XT_FAIL(d->err, XT_ERR_NOMEM, "out of memory decoding %llu items",
				       (unsigned long long)count);
		if (is_map) {
			out->agg.keys = xt_arena_alloc(d->arena, count * sizeof *out->agg.keys);
			if (!out->agg.keys)
				return XT_FAIL(d->err, XT_ERR_NOMEM,
					       "out of memory decoding %llu keys",
					       (unsigned long long)count);
		}
	}
	for (uint64_t i = 0; i < count; i++) {
		if (is_map) {
			const uint8_t *key;
			size_t klen;
			char *k;
			rc = dec_bytes(d, &p, &key, &klen, "map key");
			if (rc != XT_OK)
				return rc;
			if (memchr(key, 0, klen))
				return DEC_FAIL(d, key, "map key contains a NUL byte");
			k = xt_arena_alloc(d->arena, klen + 1);
			if (!k)
				return XT_FAIL(d->err, XT_ERR_NOMEM, "out of memory decoding a key");
			memcpy(k, key, klen);
			k[klen] = '\0';
			out->agg.keys[i] = k;
		}
		rc = dec_value(d, &p, &out->agg.items[i], depth + 1);
		if (rc != XT_OK)
			return rc;
	}
	*pp = p;
	return XT_OK;
}

static enum xt_rc dec_value(const struct dec *d, const uint8_t **pp,
			    struct trace_value *out, int depth)
{
	const uint8_t *p = *pp;
	enum xt_rc rc = XT_OK;
	uint64_t v;
	uint8_t tag;

	if (depth >= MAX_DEPTH)
		return DEC_FAIL(d, p, "values nested deeper than %d", MAX_DEPTH);
	if (p == d->end)
		return DEC_FAIL(d, p, "value missing");
	tag = *p++;
	memset(out, 0, sizeof *out);
	out->tag = (enum trace_tag)tag;
	switch (tag) {
	case TRACE_TAG_NULL:
	case TRACE_TAG_FALSE:
	case TRACE_TAG_TRUE:
		break;
	case TRACE_TAG_SINT:
		rc = dec_varint(d, &p, &v, "sint");
		out->i = (int64_t)((v >> 1) ^ (~(v & 1) + 1));
		break;
	case TRACE_TAG_UINT:
	case TRACE_TAG_POINTER:
	case TRACE_TAG_OFFSET:
	case TRACE_TAG_HANDLE:
		rc = dec_varint(d, &p, &out->u, "integer");
		break;
	case TRACE_TAG_ENUM:
	case TRACE_TAG_BITFIELD:
		rc = dec_varint(d, &p, &out->u, "enum");
		if (rc == XT_OK && out->u > UINT32_MAX)
			rc = DEC_FAIL(d, *pp, "enum/bitfield value does not fit 32 bits");
		break;
	case TRACE_TAG_FLOAT:
		if (d->end - p < 4)
			return DEC_FAIL(d, *pp, "truncated float");
		memcpy(&out->f, p, 4);
		p += 4;
		break;
	case TRACE_TAG_DOUBLE:
		if (d->end - p < 8)
			return DEC_FAIL(d, *pp, "truncated double");
		memcpy(&out->d, p, 8);
		p += 8;
		break;
	case TRACE_TAG_STRING:
	case TRACE_TAG_BLOB:
		rc = dec_bytes(d, &p, &out->mem.bytes, &out->mem.len, "string/blob");
		break;
	case TRACE_TAG_MEMORY:
	case TRACE_TAG_UNSIZED:
		rc = dec_varint(d, &p, &out->mem.addr, "address");
		if (rc == XT_OK)
			rc = dec_bytes(d, &p, &out->mem.bytes, &out->mem.len, "memory");
		break;
	case TRACE_TAG_ARRAY:
		rc = dec_aggregate(d, &p, out, depth, 0);
		break;
	case TRACE_TAG_MAP:
		rc = dec_aggregate(d, &p, out, depth, 1);
		break;
	default:
		return DEC_FAIL(d, *pp, "unknown value tag 0x%02x", tag);
	}
	if (rc == XT_OK)
		*pp = p;
	return rc;
}

enum xt_rc trace_value_decode(const uint8_t **p, const uint8_t *end,
			      struct xt_arena *arena, struct trace_value *out,
			      struct xt_err *err)
{
	struct dec d = { *p, end, arena, err };
	return dec_value(&d, p, out, 0);
}

const struct trace_value *trace_value_get(const struct trace_value *map, const char *key)
{
	if (!map || map->tag != TRACE_TAG_MAP)
		return NULL;
	for (uint32_t i = 0; i < map->agg.count; i++)
		if (strcmp(map->agg.keys[i], key) == 0)
			return &map->agg.items[i];
	return NULL;
}
