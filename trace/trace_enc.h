/*
 * trace_enc.h - inline encoders for trace values (see trace_format.h).
 *
 * The capture hot path encodes straight into reserved spool memory, so these
 * write through a cursor with no bounds checks: the caller reserves an upper
 * bound first, using the TRACE_ENC_MAX_* sizes.
 */
#ifndef TRACE_ENC_H
#define TRACE_ENC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trace_format.h"

#define TRACE_ENC_MAX_VARINT 10u
/* Upper bound of one scalar value: tag + varint/double. */
#define TRACE_ENC_MAX_SCALAR (1u + TRACE_ENC_MAX_VARINT)
/* Upper bound of a STRING/BLOB tag + length prefix (add the bytes). */
#define TRACE_ENC_MAX_BYTES_PREFIX (1u + TRACE_ENC_MAX_VARINT)
/* Upper bound of MEMORY/UNSIZED tag + address + length (add the bytes). */
#define TRACE_ENC_MAX_MEMORY_PREFIX (1u + 2u * TRACE_ENC_MAX_VARINT)

static inline uint8_t *trace_enc_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static inline uint8_t *trace_enc_u32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4); /* little-endian hosts only; checked in trace_spool.c */
	return p + 4;
}

static inline uint8_t *trace_enc_tag(uint8_t *p, enum trace_tag tag)
{
	*p++ = (uint8_t)tag;
	return p;
}

static inline uint8_t *trace_enc_null(uint8_t *p) { return trace_enc_tag(p, TRACE_TAG_NULL); }

static inline uint8_t *trace_enc_bool(uint8_t *p, int v)
{
	return trace_enc_tag(p, v ? TRACE_TAG_TRUE : TRACE_TAG_FALSE);
}

static inline uint8_t *trace_enc_uint(uint8_t *p, uint64_t v)
{
	return trace_enc_varint(trace_enc_tag(p, TRACE_TAG_UINT), v);
}

static inline uint8_t *trace_enc_sint(uint8_t *p, int64_t v)
{
	uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	return trace_enc_varint(trace_enc_tag(p, TRACE_TAG_SINT), z);
}

static inline uint8_t *trace_enc_enum(uint8_t *p, uint32_t v)
{
	return trace_enc_varint(trace_enc_tag(p, TRACE_TAG_ENUM), v);
}

static inline uint8_t *trace_enc_bitfield(uint8_t *p, uint32_t v)
{
	return trace_enc_varint(trace_enc_tag(p, TRACE_TAG_BITFIELD), v);
}

static inline uint8_t *trace_enc_handle(uint8_t *p, uint64_t v)
{
	return trace_enc_varint(trace_enc_tag(p, TRACE_TAG_HANDLE), v);
}

static inline uint8_t *trace_enc_pointer(uint8_t *p, const void *ptr)
{
	return trace_enc_varint(trace_enc_tag(p, TRACE_TAG_POINTER), (uintptr_t)ptr);
}

static inline uint8_t *trace_enc_offset(uint8_t *p, uint64_t off)
{
	return trace_enc_varint(trace_enc_tag(p, TRACE_TAG_OFFSET), off);
}

static inline uint8_t *trace_enc_float(uint8_t *p, float v)
{
	p = trace_enc_tag(p, TRACE_TAG_FLOAT);
	memcpy(p, &v, 4);
	return p + 4;
}

static inline uint8_t *trace_enc_double(uint8_t *p, double v)
{
	p = trace_enc_tag(p, TRACE_TAG_DOUBLE);
	memcpy(p, &v, 8);
	return p + 8;
}

/* Raw length-prefixed bytes without a tag (map keys, funcdef names). */
static inline uint8_t *trace_enc_lenbytes(uint8_t *p, const void *s, size_t n)
{
	p = trace_enc_varint(p, n);
	if (n)
		memcpy(p, s, n);
	return p + n;
}

static inline uint8_t *trace_enc_string(uint8_t *p, const char *s, size_t n)
{
	return trace_enc_lenbytes(trace_enc_tag(p, TRACE_TAG_STRING), s, n);
}

static inline uint8_t *trace_enc_blob(uint8_t *p, const void *s, size_t n)
{
	return trace_enc_lenbytes(trace_enc_tag(p, TRACE_TAG_BLOB), s, n);
}

static inline uint8_t *trace_enc_memory(uint8_t *p, const void *addr, const void *s, size_t n)
{
	p = trace_enc_varint(trace_enc_tag(p, TRACE_TAG_MEMORY), (uintptr_t)addr);
	return trace_enc_lenbytes(p, s, n);
}

/* `reason` is a short static text such as "COMPSIZE(pname)". */
static inline uint8_t *trace_enc_unsized(uint8_t *p, const void *addr, const char *reason)
{
	p = trace_enc_varint(trace_enc_tag(p, TRACE_TAG_UNSIZED), (uintptr_t)addr);
	return trace_enc_lenbytes(p, reason, strlen(reason));
}

static inline uint8_t *trace_enc_array(uint8_t *p, uint64_t count)
{
	return trace_enc_varint(trace_enc_tag(p, TRACE_TAG_ARRAY), count);
}

static inline uint8_t *trace_enc_map(uint8_t *p, uint64_t count)
{
	return trace_enc_varint(trace_enc_tag(p, TRACE_TAG_MAP), count);
}

/* A map key; the value follows through another trace_enc_* call. */
static inline uint8_t *trace_enc_key(uint8_t *p, const char *key)
{
	return trace_enc_lenbytes(p, key, strlen(key));
}

#endif
