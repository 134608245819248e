/*
 * cli_format.c - text and JSON forms of trace values; see cli_format.h.
 *
 * Enum values are named through the GL registry tables generated in specs/
 * (glapi_enum_name); an unknown value prints as hex, never as a guess.
 */
#include "cli_format.h"

#include <inttypes.h>
#include <stdio.h>

#include "glapi.h"
#include "xt_json.h"

#define TEXT_MAX_ITEMS 16   /* elements shown per array before "..." */
#define TEXT_MAX_STRING 120 /* string bytes shown before "..." */

static enum xt_rc text_quoted(struct xt_buf *b, const uint8_t *s, size_t n, bool full)
{
	size_t show = full || n <= TEXT_MAX_STRING ? n : TEXT_MAX_STRING;
	enum xt_rc rc = xt_buf_append(b, "\"", 1);
	for (size_t i = 0; i < show && !rc; i++) {
		uint8_t c = s[i];
		if (c == '"' || c == '\\')
			rc = xt_buf_printf(b, "\\%c", c);
		else if (c == '\n')
			rc = xt_buf_append(b, "\\n", 2);
		else if (c < 0x20 || c >= 0x7f)
			rc = xt_buf_printf(b, "\\x%02x", c);
		else
			rc = xt_buf_append(b, &c, 1);
	}
	if (!rc && show < n)
		rc = xt_buf_printf(b, "\"...(%zu bytes)", n);
	else if (!rc)
		rc = xt_buf_append(b, "\"", 1);
	return rc;
}

enum xt_rc cli_value_text(struct xt_buf *b, const struct trace_value *v, bool full)
{
	const char *name;
	enum xt_rc rc = XT_OK;

	switch (v->tag) {
	case TRACE_TAG_NULL: return xt_buf_printf(b, "NULL");
	case TRACE_TAG_FALSE: return xt_buf_printf(b, "false");
	case TRACE_TAG_TRUE: return xt_buf_printf(b, "true");
	case TRACE_TAG_SINT: return xt_buf_printf(b, "%" PRId64, v->i);
	case TRACE_TAG_UINT: return xt_buf_printf(b, "%" PRIu64, v->u);
	case TRACE_TAG_FLOAT: return xt_buf_printf(b, "%.9g", (double)v->f);
	case TRACE_TAG_DOUBLE: return xt_buf_printf(b, "%.17g", v->d);
	case TRACE_TAG_STRING: return text_quoted(b, v->mem.bytes, v->mem.len, full);
	case TRACE_TAG_BLOB: return xt_buf_printf(b, "blob(%zu)", v->mem.len);
	case TRACE_TAG_ENUM:
		name = v->u <= UINT32_MAX ? glapi_enum_name((uint32_t)v->u) : NULL;
		return name ? xt_buf_printf(b, "%s", name) : xt_buf_printf(b, "0x%" PRIx64, v->u);
	case TRACE_TAG_BITFIELD: return xt_buf_printf(b, "0x%" PRIx64, v->u);
	case TRACE_TAG_POINTER: return xt_buf_printf(b, "0x%" PRIx64, v->u);
	case TRACE_TAG_HANDLE: return xt_buf_printf(b, "0x%" PRIx64, v->u);
	case TRACE_TAG_OFFSET: return xt_buf_printf(b, "(offset)%" PRIu64, v->u);
	case TRACE_TAG_MEMORY: return xt_buf_printf(b, "blob(%zu)", v->mem.len);
	case TRACE_TAG_UNSIZED:
		rc = xt_buf_printf(b, "0x%" PRIx64 " (size unknown: ", v->mem.addr);
		if (!rc)
			rc = xt_buf_append(b, v->mem.bytes, v->mem.len);
		return rc ? rc : xt_buf_append(b, ")", 1);
	case TRACE_TAG_ARRAY:
	case TRACE_TAG_MAP: {
		uint32_t n = v->agg.count;
		uint32_t show = full || n <= TEXT_MAX_ITEMS ? n : TEXT_MAX_ITEMS;
		rc = xt_buf_append(b, "{", 1);
		for (uint32_t i = 0; i < show && !rc; i++) {
			if (i)
				rc = xt_buf_append(b, ", ", 2);
			if (!rc && v->tag == TRACE_TAG_MAP)
				rc = xt_buf_printf(b, "%s = ", v->agg.keys[i]);
			if (!rc)
				rc = cli_value_text(b, &v->agg.items[i], full);
		}
		if (!rc && show < n)
			rc = xt_buf_printf(b, ", ...(%u items)", n);
		return rc ? rc : xt_buf_append(b, "}", 1);
	}
	}
	return xt_buf_printf(b, "<tag 0x%02x>", (unsigned)v->tag);
}

enum xt_rc cli_value_json(struct xt_buf *b, const struct trace_value *v)
{
	const char *name;
	enum xt_rc rc = XT_OK;

	switch (v->tag) {
	case TRACE_TAG_NULL: return xt_buf_append(b, "null", 4);
	case TRACE_TAG_FALSE: return xt_buf_append(b, "false", 5);
	case TRACE_TAG_TRUE: return xt_buf_append(b, "true", 4);
	case TRACE_TAG_SINT: return xt_buf_printf(b, "%" PRId64, v->i);
	case TRACE_TAG_UINT: return xt_buf_printf(b, "%" PRIu64, v->u);
	case TRACE_TAG_FLOAT: return xt_json_num(b, v->f, 1);
	case TRACE_TAG_DOUBLE: return xt_json_num(b, v->d, 0);
	case TRACE_TAG_STRING: return xt_json_str(b, (const char *)v->mem.bytes, v->mem.len);
	case TRACE_TAG_BLOB:
		rc = xt_buf_printf(b, "{\"size\":%zu,\"hex\":", v->mem.len);
		rc = rc ? rc : xt_json_hex(b, v->mem.bytes, v->mem.len);
		return rc ? rc : xt_buf_append(b, "}", 1);
	case TRACE_TAG_ENUM:
		name = v->u <= UINT32_MAX ? glapi_enum_name((uint32_t)v->u) : NULL;
		return name ? xt_json_cstr(b, name) : xt_buf_printf(b, "%" PRIu64, v->u);
	case TRACE_TAG_BITFIELD: return xt_buf_printf(b, "%" PRIu64, v->u);
	case TRACE_TAG_POINTER: return xt_buf_printf(b, "{\"pointer\":%" PRIu64 "}", v->u);
	case TRACE_TAG_HANDLE: return xt_buf_printf(b, "{\"handle\":%" PRIu64 "}", v->u);
	case TRACE_TAG_OFFSET: return xt_buf_printf(b, "{\"offset\":%" PRIu64 "}", v->u);
	case TRACE_TAG_MEMORY:
		rc = xt_buf_printf(b, "{\"addr\":%" PRIu64 ",\"size\":%zu,\"hex\":", v->mem.addr, v->mem.len);
		rc = rc ? rc : xt_json_hex(b, v->mem.bytes, v->mem.len);
		return rc ? rc : xt_buf_append(b, "}", 1);
	case TRACE_TAG_UNSIZED:
		rc = xt_buf_printf(b, "{\"addr\":%" PRIu64 ",\"unsized\":", v->mem.addr);
		rc = rc ? rc : xt_json_str(b, (const char *)v->mem.bytes, v->mem.len);
		return rc ? rc : xt_buf_append(b, "}", 1);
	case TRACE_TAG_ARRAY:
		rc = xt_buf_append(b, "[", 1);
		for (uint32_t i = 0; i < v->agg.count && !rc; i++) {
			if (i)
				rc = xt_buf_append(b, ",", 1);
			rc = rc ? rc : cli_value_json(b, &v->agg.items[i]);
		}
		return rc ? rc : xt_buf_append(b, "]", 1);
	case TRACE_TAG_MAP:
		rc = xt_buf_append(b, "{", 1);
		for (uint32_t i = 0; i < v->agg.count && !rc; i++) {
			if (i)
				rc = xt_buf_append(b, ",", 1);
			rc = rc ? rc : xt_json_cstr(b, v->agg.keys[i]);
			rc = rc ? rc : xt_buf_append(b, ":", 1);
			rc = rc ? rc : cli_value_json(b, &v->agg.items[i]);
		}
		return rc ? rc : xt_buf_append(b, "}", 1);
	}
	return xt_buf_printf(b, "{\"tag\":%u}", (unsigned)v->tag);
}
