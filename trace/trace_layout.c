/*
 * trace_layout.c - validation and decoding of LAYOUT records
 * (trace_layout.h).
 */
#include <stdio.h>
#include <string.h>

#include "trace_layout.h"
#include "trace_reader.h"
#include "xt_arena.h"

static const struct trace_value *want(const struct trace_value *map, const char *key, enum trace_tag tag,
				      const char *where, char *why, size_t n)
{
	const struct trace_value *v = trace_value_get(map, key);

	if (!v || v->tag != tag) {
		snprintf(why, n, "LAYOUT record: %s `%s` is %s", where, key, v ? "of the wrong type" : "missing");
		return NULL;
	}
	return v;
}

static bool want_u32(const struct trace_value *map, const char *key, const char *where, uint32_t max,
		     uint32_t *out, char *why, size_t n)
{
	const struct trace_value *v = want(map, key, TRACE_TAG_UINT, where, why, n);

	if (!v)
		return false;
	if (v->u > max) {
		snprintf(why, n, "LAYOUT record: %s `%s` is %llu, above %u", where, key,
			 (unsigned long long)v->u, max);
		return false;
	}
	*out = (uint32_t)v->u;
	return true;
}

static char *want_name(const struct trace_value *map, const char *where, struct xt_arena *arena, char *why,
		       size_t n, enum xt_rc *rc)
{
	const struct trace_value *v = want(map, "name", TRACE_TAG_STRING, where, why, n);
	char *s;

	*rc = XT_ERR_CORRUPT;
	if (!v)
		return NULL;
	if (!v->mem.len || memchr(v->mem.bytes, 0, v->mem.len)) {
		snprintf(why, n, "LAYOUT record: %s `name` is empty or holds a NUL", where);
		return NULL;
	}
	if (!(s = xt_arena_alloc(arena, v->mem.len + 1))) {
		*rc = XT_ERR_NOMEM;
		snprintf(why, n, "LAYOUT record: out of memory");
		return NULL;
	}
	memcpy(s, v->mem.bytes, v->mem.len);
	s[v->mem.len] = '\0';
	*rc = XT_OK;
	return s;
}

static enum xt_rc member_of(const struct trace_value *m, const struct trace_layout_block *b,
			    struct xt_arena *arena, struct trace_layout_member *out, char *why, size_t n)
{
	const struct trace_value *rm;
	enum xt_rc rc;

	if (m->tag != TRACE_TAG_MAP) {
		snprintf(why, n, "LAYOUT record: a member of block \"%s\" is not a map", b->name);
		return XT_ERR_CORRUPT;
	}
	if (!(out->name = want_name(m, "member", arena, why, n, &rc)))
		return rc;
	if (!want_u32(m, "type", "member", UINT32_MAX, &out->type, why, n) ||
	    !want_u32(m, "size", "member", TRACE_LAYOUT_MAX_BYTES, &out->size, why, n) ||
	    !want_u32(m, "offset", "member", TRACE_LAYOUT_MAX_BYTES, &out->offset, why, n) ||
	    !want_u32(m, "array_stride", "member", TRACE_LAYOUT_MAX_BYTES, &out->array_stride, why, n) ||
	    !want_u32(m, "matrix_stride", "member", TRACE_LAYOUT_MAX_BYTES, &out->matrix_stride, why, n))
		return XT_ERR_CORRUPT;
	rm = trace_value_get(m, "row_major");
	if (!rm || (rm->tag != TRACE_TAG_TRUE && rm->tag != TRACE_TAG_FALSE)) {
		snprintf(why, n, "LAYOUT record: member `row_major` is %s", rm ? "of the wrong type" : "missing");
		return XT_ERR_CORRUPT;
	}
	out->row_major = rm->tag == TRACE_TAG_TRUE;
	if (out->offset >= b->data_size) {
		snprintf(why, n, "LAYOUT record: member \"%s\" starts at %u, past the %u bytes of block \"%s\"",
			 out->name, out->offset, b->data_size, b->name);
		return XT_ERR_CORRUPT;
	}
	return XT_OK;
}

enum xt_rc trace_layout_of(const struct trace_value *v, struct xt_arena *arena, struct trace_layout *out,
			   char *why, size_t n)
{
	const struct trace_value *blocks;
	enum xt_rc rc;

	memset(out, 0, sizeof *out);
	if (!v || v->tag != TRACE_TAG_MAP) {
		snprintf(why, n, "LAYOUT record: the value is not a map");
		return XT_ERR_CORRUPT;
	}
	if (!want_u32(v, "program", "the record's", UINT32_MAX, &out->program, why, n) ||
	    !(blocks = want(v, "blocks", TRACE_TAG_ARRAY, "the record's", why, n)))
		return XT_ERR_CORRUPT;
	out->n_blocks = blocks->agg.count;
	if (out->n_blocks && !(out->blocks = xt_arena_alloc(arena, out->n_blocks * sizeof *out->blocks))) {
		snprintf(why, n, "LAYOUT record: out of memory");
		return XT_ERR_NOMEM;
	}
	for (uint32_t i = 0; i < out->n_blocks; i++) {
		const struct trace_value *b = &blocks->agg.items[i], *members;
		struct trace_layout_block *ob = &out->blocks[i];
		memset(ob, 0, sizeof *ob);
		if (b->tag != TRACE_TAG_MAP) {
			snprintf(why, n, "LAYOUT record: block %u is not a map", i);
			return XT_ERR_CORRUPT;
		}
		if (!(ob->name = want_name(b, "block", arena, why, n, &rc)))
			return rc;
		if (!want_u32(b, "data_size", "block", TRACE_LAYOUT_MAX_BYTES, &ob->data_size, why, n) ||
		    !(members = want(b, "members", TRACE_TAG_ARRAY, "block", why, n)))
			return XT_ERR_CORRUPT;
		ob->n_members = members->agg.count;
		if (ob->n_members &&
		    !(ob->members = xt_arena_alloc(arena, ob->n_members * sizeof *ob->members))) {
			snprintf(why, n, "LAYOUT record: out of memory");
			return XT_ERR_NOMEM;
		}
		for (uint32_t k = 0; k < ob->n_members; k++)
			if ((rc = member_of(&members->agg.items[k], ob, arena, &ob->members[k], why, n)) != XT_OK)
				return rc;
	}
	return XT_OK;
}
