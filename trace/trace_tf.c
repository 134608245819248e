/*
 * trace_tf.c - decoding a TF layout into spans; see trace_tf.h.
 *
 * Overlaps are found span against span (the spans of one binding point
 * are few), so a hostile stride or array size costs no memory.
 */
#include "trace_tf.h"

#include <string.h>

bool trace_tf_is_marker(const char *name)
{
	return !strncmp(name, "gl_SkipComponents", 17) || !strcmp(name, "gl_NextBuffer");
}

const struct glapi_type *trace_tf_type(uint32_t value)
{
	const struct glapi_type *t = glapi_type_by_value(value);
	return t && t->tf ? t : NULL;
}

void trace_tf_plan(const struct trace_tf_varying *v, uint32_t n, uint32_t index, uint64_t stride,
		   struct trace_tf_span *spans, struct trace_tf_plan *out)
{
	*out = (struct trace_tf_plan){ .stride = stride, .spans = spans, .past_stride = -1,
				       .overlap = -1 };
	if (!stride)
		return;
	for (uint32_t i = 0; i < n; i++) {
		const struct trace_tf_varying *x = &v[i];
		if (x->buffer != index || trace_tf_is_marker(x->name))
			continue;
		const struct glapi_type *t = trace_tf_type(x->type);
		if (!t) {
			out->undecodable = true;
			continue;
		}
		if (!x->size)
			continue;
		/* size < 2^32, components * bytes <= 128: no overflow. */
		uint64_t bytes = (uint64_t)x->size * t->components * t->component_bytes;
		if (x->offset > stride || bytes > stride - x->offset) {
			if (out->past_stride < 0)
				out->past_stride = i;
			continue;
		}
		for (uint32_t k = 0; k < out->nspans && out->overlap < 0; k++)
			if (x->offset < spans[k].offset + spans[k].bytes &&
			    spans[k].offset < x->offset + bytes)
				out->overlap = i;
		spans[out->nspans++] = (struct trace_tf_span){ i, t, x->size, x->offset, bytes };
		out->components += (uint64_t)x->size * t->components;
	}
}

const struct trace_tf_span *trace_tf_span_at(const struct trace_tf_plan *p, uint64_t at)
{
	for (uint32_t i = 0; i < p->nspans; i++)
		if (p->spans[i].offset <= at && at - p->spans[i].offset < p->spans[i].bytes)
			return &p->spans[i];
	return NULL;
}

static uint64_t uint_key(const struct trace_value *map, const char *key, uint64_t dflt)
{
	const struct trace_value *v = trace_value_get(map, key);
	return v && v->tag == TRACE_TAG_UINT ? v->u : dflt;
}

enum xt_rc trace_tf_layout_of(const struct trace_value *obs, struct xt_arena *arena,
			      struct trace_tf_varying **v, uint32_t *n, uint64_t *stride)
{
	const struct trace_value *layout = trace_value_get(obs, "layout");
	const struct trace_value *strides = trace_value_get(layout, "strides");
	const struct trace_value *vars = trace_value_get(layout, "varyings");
	const uint64_t index = uint_key(obs, "index", UINT64_MAX);

	*v = NULL;
	*n = 0;
	*stride = 0;
	if (!vars || vars->tag != TRACE_TAG_ARRAY || !strides || strides->tag != TRACE_TAG_ARRAY)
		return XT_ERR_CORRUPT;
	if (index < strides->agg.count && strides->agg.items[index].tag == TRACE_TAG_UINT)
		*stride = strides->agg.items[index].u;
	*v = xt_arena_alloc(arena, ((size_t)vars->agg.count + 1) * sizeof **v);
	if (!*v)
		return XT_ERR_NOMEM;
	for (uint32_t i = 0; i < vars->agg.count; i++) {
		const struct trace_value *x = &vars->agg.items[i];
		const struct trace_value *name = trace_value_get(x, "name");
		const struct trace_value *type = trace_value_get(x, "type");
		const uint64_t size = uint_key(x, "size", 0), buffer = uint_key(x, "buffer", UINT32_MAX);
		char *s = xt_arena_alloc(arena, (name && name->tag == TRACE_TAG_STRING ? name->mem.len : 0) + 1);
		if (!s)
			return XT_ERR_NOMEM;
		s[0] = '\0';
		if (name && name->tag == TRACE_TAG_STRING) {
			memcpy(s, name->mem.bytes, name->mem.len);
			s[name->mem.len] = '\0';
		}
		(*v)[i] = (struct trace_tf_varying){
			.name = s,
			.type = type && type->tag == TRACE_TAG_ENUM && type->u <= UINT32_MAX ? (uint32_t)type->u : 0,
			.size = size <= UINT32_MAX ? (uint32_t)size : 0,
			.buffer = buffer <= UINT32_MAX ? (uint32_t)buffer : UINT32_MAX,
			.offset = uint_key(x, "offset", UINT64_MAX),
		};
		if (size > UINT32_MAX)   /* no real layout looks like this */
			return XT_ERR_CORRUPT;
	}
	*n = vars->agg.count;
	return XT_OK;
}
