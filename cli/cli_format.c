/*
 * cli_format.c - text and JSON forms of trace values; see cli_format.h.
 *
 * Enum values are named through the GL registry tables generated in specs/
 * (glapi_enum_name); an unknown value prints as hex, never as a guess.
 */
#include "cli_format.h"
#include "glapi_types.h"
#include "trace_tf.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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

struct cli_param_fmt cli_param_fmt_of(const char *func, uint32_t index)
{
	struct glapi_param_info info;
	int id = glapi_func_lookup(func);
	if (id < 0 || !glapi_param_info(id, index, &info))
		return CLI_PARAM_FMT_NONE;
	return (struct cli_param_fmt){ info.group, (int)info.elem };
}

struct cli_param_fmt cli_ret_fmt_of(const char *func)
{
	struct glapi_func_info info;
	int id = glapi_func_lookup(func);
	if (id < 0 || !glapi_func_info(id, &info))
		return CLI_PARAM_FMT_NONE;
	return (struct cli_param_fmt){ info.ret_group, -1 };
}

static const char *enum_name(uint64_t value, int group)
{
	if (value > UINT32_MAX)
		return NULL;
	return group >= 0 ? glapi_enum_name_in_group((uint32_t)value, group)
			  : glapi_enum_name((uint32_t)value);
}

/* Elements of small MEMORY values: "{1, 2}"; false if not printable so. */
static bool text_elements(struct xt_buf *b, const struct trace_value *v, int elem,
			  enum xt_rc *rc)
{
	static const uint8_t sizes[] = {
		[GLAPI_E_U8] = 1, [GLAPI_E_I8] = 1, [GLAPI_E_U16] = 2, [GLAPI_E_I16] = 2,
		[GLAPI_E_U32] = 4, [GLAPI_E_I32] = 4, [GLAPI_E_F32] = 4, [GLAPI_E_U64] = 8,
		[GLAPI_E_I64] = 8, [GLAPI_E_F64] = 8,
	};
	size_t n, size;
	if (elem < 0 || elem >= (int)sizeof sizes || elem == GLAPI_E_CHAR || !sizes[elem])
		return false;
	size = sizes[elem];
	n = v->mem.len / size;
	if (v->mem.len % size || n == 0 || n > TEXT_MAX_ITEMS)
		return false;
	*rc = xt_buf_append(b, "{", 1);
	for (size_t i = 0; i < n && !*rc; i++) {
		const uint8_t *p = v->mem.bytes + i * size;
		union { uint8_t u8; int8_t i8; uint16_t u16; int16_t i16; uint32_t u32; int32_t i32;
			float f32; uint64_t u64; int64_t i64; double f64; } x;
		memcpy(&x, p, size);
		const char *sep = i ? ", " : "";
		switch (elem) {
		case GLAPI_E_U8: *rc = xt_buf_printf(b, "%s%u", sep, x.u8); break;
		case GLAPI_E_I8: *rc = xt_buf_printf(b, "%s%d", sep, x.i8); break;
		case GLAPI_E_U16: *rc = xt_buf_printf(b, "%s%u", sep, x.u16); break;
		case GLAPI_E_I16: *rc = xt_buf_printf(b, "%s%d", sep, x.i16); break;
		case GLAPI_E_U32: *rc = xt_buf_printf(b, "%s%u", sep, x.u32); break;
		case GLAPI_E_I32: *rc = xt_buf_printf(b, "%s%d", sep, x.i32); break;
		case GLAPI_E_F32: *rc = xt_buf_printf(b, "%s%.9g", sep, (double)x.f32); break;
		case GLAPI_E_U64: *rc = xt_buf_printf(b, "%s%" PRIu64, sep, x.u64); break;
		case GLAPI_E_I64: *rc = xt_buf_printf(b, "%s%" PRId64, sep, x.i64); break;
		default: *rc = xt_buf_printf(b, "%s%.17g", sep, x.f64); break;
		}
	}
	if (!*rc)
		*rc = xt_buf_append(b, "}", 1);
	return true;
}

enum xt_rc cli_value_text(struct xt_buf *b, const struct trace_value *v,
			  struct cli_param_fmt fmt, bool full)
{
	const char *name;
	enum xt_rc rc = XT_OK;

	switch (v->tag) {
	case TRACE_TAG_NULL: return xt_buf_printf(b, "NULL");
	case TRACE_TAG_FALSE: return xt_buf_printf(b, "false");
	case TRACE_TAG_TRUE: return xt_buf_printf(b, "true");
	case TRACE_TAG_SINT:
		/* EGLint attribute names (the JSON form keeps the number) */
		if (fmt.group == GLAPI_GROUP_EGL &&
		    (name = glapi_enum_name_in_group((uint32_t)v->i, GLAPI_GROUP_EGL)))
			return xt_buf_printf(b, "%s", name);
		return xt_buf_printf(b, "%" PRId64, v->i);
	case TRACE_TAG_UINT: return xt_buf_printf(b, "%" PRIu64, v->u);
	case TRACE_TAG_FLOAT: return xt_buf_printf(b, "%.9g", (double)v->f);
	case TRACE_TAG_DOUBLE: return xt_buf_printf(b, "%.17g", v->d);
	case TRACE_TAG_STRING: return text_quoted(b, v->mem.bytes, v->mem.len, full);
	case TRACE_TAG_BLOB: return xt_buf_printf(b, "blob(%zu)", v->mem.len);
	case TRACE_TAG_ENUM:
		name = enum_name(v->u, fmt.group);
		return name ? xt_buf_printf(b, "%s", name) : xt_buf_printf(b, "0x%" PRIx64, v->u);
	case TRACE_TAG_BITFIELD: return xt_buf_printf(b, "0x%" PRIx64, v->u);
	case TRACE_TAG_POINTER: return xt_buf_printf(b, "0x%" PRIx64, v->u);
	case TRACE_TAG_HANDLE: return xt_buf_printf(b, "0x%" PRIx64, v->u);
	case TRACE_TAG_OFFSET: return xt_buf_printf(b, "(offset)%" PRIu64, v->u);
	case TRACE_TAG_MEMORY:
		if (text_elements(b, v, fmt.elem, &rc))
			return rc;
		return xt_buf_printf(b, "blob(%zu)", v->mem.len);
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
				rc = cli_value_text(b, &v->agg.items[i],
						    v->tag == TRACE_TAG_ARRAY ? fmt : CLI_PARAM_FMT_NONE, full);
		}
		if (!rc && show < n)
			rc = xt_buf_printf(b, ", ...(%u items)", n);
		return rc ? rc : xt_buf_append(b, "}", 1);
	}
	}
	return xt_buf_printf(b, "<tag 0x%02x>", (unsigned)v->tag);
}

void cli_value_json(struct xt_jw *w, const struct trace_value *v, struct cli_param_fmt fmt)
{
	cli_value_json_ex(w, v, fmt, true);
}

void cli_value_json_ex(struct xt_jw *w, const struct trace_value *v, struct cli_param_fmt fmt,
		       bool bytes)
{
	const char *name;

	switch (v->tag) {
	case TRACE_TAG_NULL: xt_jw_null(w); return;
	case TRACE_TAG_FALSE: xt_jw_bool(w, false); return;
	case TRACE_TAG_TRUE: xt_jw_bool(w, true); return;
	case TRACE_TAG_SINT: xt_jw_i64(w, v->i); return;
	case TRACE_TAG_UINT: xt_jw_u64(w, v->u); return;
	case TRACE_TAG_FLOAT: xt_jw_num(w, v->f, 1); return;
	case TRACE_TAG_DOUBLE: xt_jw_num(w, v->d, 0); return;
	case TRACE_TAG_STRING: xt_jw_strn(w, (const char *)v->mem.bytes, v->mem.len); return;
	case TRACE_TAG_BLOB:
		xt_jw_obj(w);
		xt_jw_ku64(w, "size", v->mem.len);
		if (bytes) {
			xt_jw_key(w, "hex");
			xt_jw_hex(w, v->mem.bytes, v->mem.len);
		}
		xt_jw_end(w);
		return;
	case TRACE_TAG_ENUM:
		name = enum_name(v->u, fmt.group);
		if (name)
			xt_jw_str(w, name);
		else
			xt_jw_u64(w, v->u);
		return;
	case TRACE_TAG_BITFIELD: xt_jw_u64(w, v->u); return;
	case TRACE_TAG_POINTER:
	case TRACE_TAG_HANDLE:
	case TRACE_TAG_OFFSET:
		xt_jw_obj(w);
		xt_jw_ku64(w, v->tag == TRACE_TAG_POINTER ? "pointer" : v->tag == TRACE_TAG_HANDLE ? "handle"
											: "offset", v->u);
		xt_jw_end(w);
		return;
	case TRACE_TAG_MEMORY:
		xt_jw_obj(w);
		xt_jw_ku64(w, "addr", v->mem.addr);
		xt_jw_ku64(w, "size", v->mem.len);
		if (bytes) {
			xt_jw_key(w, "hex");
			xt_jw_hex(w, v->mem.bytes, v->mem.len);
		}
		xt_jw_end(w);
		return;
	case TRACE_TAG_UNSIZED:
		xt_jw_obj(w);
		xt_jw_ku64(w, "addr", v->mem.addr);
		xt_jw_key(w, "unsized");
		xt_jw_strn(w, (const char *)v->mem.bytes, v->mem.len);
		xt_jw_end(w);
		return;
	case TRACE_TAG_ARRAY:
		xt_jw_arr(w);
		for (uint32_t i = 0; i < v->agg.count; i++)
			cli_value_json_ex(w, &v->agg.items[i], fmt, bytes);
		xt_jw_end(w);
		return;
	case TRACE_TAG_MAP:
		xt_jw_obj(w);
		for (uint32_t i = 0; i < v->agg.count; i++) {
			xt_jw_key(w, v->agg.keys[i]);
			cli_value_json_ex(w, &v->agg.items[i], CLI_PARAM_FMT_NONE, bytes);
		}
		xt_jw_end(w);
		return;
	}
	xt_jw_obj(w);
	xt_jw_ku64(w, "tag", (unsigned)v->tag);
	xt_jw_end(w);
}

/* One component of TF data as text. */
static enum xt_rc tf_component(struct xt_buf *b, const struct glapi_type *t, const uint8_t *p)
{
	switch (t->base) {
	case GLAPI_TYPE_FLOAT: {
		float f;
		uint32_t u;
		memcpy(&f, p, 4);
		memcpy(&u, p, 4);
		/* Sentinel-like bit patterns read better in hex. */
		if (isnan(f) || (fabsf(f) > 1e15f && (u & 0xffff) != 0))
			return xt_buf_printf(b, "%.9g (0x%08" PRIx32 ")", (double)f, u);
		return xt_buf_printf(b, "%.9g", (double)f);
	}
	case GLAPI_TYPE_DOUBLE: {
		double d;
		memcpy(&d, p, 8);
		return xt_buf_printf(b, "%.17g", d);
	}
	case GLAPI_TYPE_INT: {
		int32_t i;
		memcpy(&i, p, 4);
		return xt_buf_printf(b, "%" PRId32, i);
	}
	default: {
		uint32_t u;
		memcpy(&u, p, 4);
		return u > 0xffff ? xt_buf_printf(b, "%" PRIu32 " (0x%08" PRIx32 ")", u, u)
				  : xt_buf_printf(b, "%" PRIu32, u);
	}
	}
}

enum xt_rc cli_tf_text(struct xt_buf *b, const struct trace_value *obs, struct xt_arena *arena)
{
	const struct trace_value *kind = trace_value_get(obs, "kind");
	const struct trace_value *data = trace_value_get(obs, "data");
	const struct trace_value *index = trace_value_get(obs, "index");
	struct trace_tf_varying *vars;
	struct trace_tf_plan plan;
	uint32_t n;
	uint64_t stride;
	enum xt_rc rc = XT_OK;

	if (!kind || kind->tag != TRACE_TAG_STRING || kind->mem.len != 9 ||
	    memcmp(kind->mem.bytes, "tf_buffer", 9) || !data || data->tag != TRACE_TAG_BLOB ||
	    !index || index->tag != TRACE_TAG_UINT || index->u > UINT32_MAX)
		return XT_OK;
	if (trace_tf_layout_of(obs, arena, &vars, &n, &stride) != XT_OK)
		return XT_OK;   /* no usable layout: the bytes stay a blob */
	struct trace_tf_span *spans = xt_arena_alloc(arena, ((size_t)n + 1) * sizeof *spans);
	if (!spans)
		return XT_ERR_NOMEM;
	trace_tf_plan(vars, n, (uint32_t)index->u, stride, spans, &plan);
	if (!plan.stride || !plan.nspans)
		return XT_OK;
	uint64_t vertices = data->mem.len / plan.stride;
	for (uint64_t vtx = 0; vtx < vertices && !rc; vtx++) {
		const uint8_t *base = data->mem.bytes + vtx * plan.stride;
		rc = xt_buf_printf(b, "\n    vertex %" PRIu64 ":", vtx);
		for (uint32_t s = 0; s < plan.nspans && !rc; s++) {
			const struct trace_tf_span *sp = &plan.spans[s];
			uint32_t ncomp = sp->size * sp->type->components;
			rc = xt_buf_printf(b, "%s %s = %s", s ? "," : "", vars[sp->varying].name,
					   ncomp > 1 ? "(" : "");
			for (uint32_t c = 0; c < ncomp && !rc; c++) {
				rc = c ? xt_buf_append(b, ", ", 2) : XT_OK;
				rc = rc ? rc : tf_component(b, sp->type, base + sp->offset +
							    (uint64_t)c * sp->type->component_bytes);
			}
			if (!rc && ncomp > 1)
				rc = xt_buf_append(b, ")", 1);
		}
	}
	if (!rc && data->mem.len % plan.stride)
		rc = xt_buf_printf(b, "\n    (%" PRIu64 " bytes after the last whole vertex)",
				   (uint64_t)(data->mem.len % plan.stride));
	return rc;
}

/* A float as JSON: a number, or for a non-finite value its text. */
static void float_json(struct xt_jw *w, double v, int single)
{
	if (isfinite(v))
		xt_jw_num(w, v, single);
	else
		xt_jw_str(w, isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
}

/* One TF component as JSON. */
static void tf_component_json(struct xt_jw *w, const struct glapi_type *t, const uint8_t *p)
{
	switch (t->base) {
	case GLAPI_TYPE_FLOAT: {
		float f;
		memcpy(&f, p, 4);
		float_json(w, f, 1);
		return;
	}
	case GLAPI_TYPE_DOUBLE: {
		double d;
		memcpy(&d, p, 8);
		float_json(w, d, 0);
		return;
	}
	case GLAPI_TYPE_INT: {
		int32_t i;
		memcpy(&i, p, 4);
		xt_jw_i64(w, i);
		return;
	}
	default: {
		uint32_t u;
		memcpy(&u, p, 4);
		xt_jw_u64(w, u);
		return;
	}
	}
}

void cli_tf_json(struct xt_jw *w, const struct trace_value *obs, struct xt_arena *arena)
{
	const struct trace_value *kind = trace_value_get(obs, "kind");
	const struct trace_value *data = trace_value_get(obs, "data");
	const struct trace_value *index = trace_value_get(obs, "index");
	struct trace_tf_varying *vars;
	struct trace_tf_plan plan;
	uint32_t n;
	uint64_t stride;

	if (!kind || kind->tag != TRACE_TAG_STRING || kind->mem.len != 9 ||
	    memcmp(kind->mem.bytes, "tf_buffer", 9) || !data || data->tag != TRACE_TAG_BLOB ||
	    !index || index->tag != TRACE_TAG_UINT || index->u > UINT32_MAX ||
	    trace_tf_layout_of(obs, arena, &vars, &n, &stride) != XT_OK)
		return;
	struct trace_tf_span *spans = xt_arena_alloc(arena, ((size_t)n + 1) * sizeof *spans);
	if (!spans)
		return;
	trace_tf_plan(vars, n, (uint32_t)index->u, stride, spans, &plan);
	if (!plan.stride || !plan.nspans)
		return;
	xt_jw_key(w, "vertices");
	xt_jw_arr(w);
	for (uint64_t vtx = 0; vtx < data->mem.len / plan.stride; vtx++) {
		const uint8_t *base = data->mem.bytes + vtx * plan.stride;
		xt_jw_obj(w);
		for (uint32_t s = 0; s < plan.nspans; s++) {
			const struct trace_tf_span *sp = &plan.spans[s];
			uint32_t ncomp = sp->size * sp->type->components;
			xt_jw_key(w, vars[sp->varying].name);
			xt_jw_arr(w);
			for (uint32_t c = 0; c < ncomp; c++)
				tf_component_json(w, sp->type, base + sp->offset +
						  (uint64_t)c * sp->type->component_bytes);
			xt_jw_end(w);
		}
		xt_jw_end(w);
	}
	xt_jw_end(w);
}
