/*
 * trace_apitrace_values.c - signatures and values of apitrace's event
 * stream (docs/apitrace.md §2.5-2.7; the grammar is at the top of
 * trace_apitrace.c).  Signatures each have an id space and are spelled out
 * only at their first use; a use of an undefined id is corruption.  Values are tagged; arrays and blobs grow as their bytes
 * arrive, never by a count read from the file.
 */
#include <stdio.h>
#include <string.h>

#include "trace_apitrace_int.h"
#include "xt_fault.h"

/* ---- signatures ------------------------------------------------------------ */

/* Looks id up in `t`; *fresh when it must be defined now. */
static enum xt_rc sig_slot(struct trace_apitrace *r, struct sig_table *t, uint64_t id,
			   const char *kind, void ***slot)
{
	if (id >= MAX_SIG_ID)
		return CORRUPT(r, "%s signature id %llu at stream offset %llu", kind,
			       (unsigned long long)id, OFF(r));
	if (id >= t->len) {
		uint32_t len = t->len ? t->len : 64;
		while (len <= id)
			len *= 2;
		void **items = xt_realloc(t->items, len * sizeof *items);
		if (!items)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		memset(items + t->len, 0, (len - t->len) * sizeof *items);
		t->items = items;
		t->len = len;
	}
	*slot = &t->items[id];
	return XT_OK;
}

static enum xt_rc get_count(struct trace_apitrace *r, uint32_t *out, uint32_t max,
			    const char *what)
{
	uint64_t n;
	enum xt_rc rc = trace_atr_get_uint(r, &n, what);
	if (rc)
		return rc;
	if (n > max)
		return CORRUPT(r, "%s: count %llu at stream offset %llu", what,
			       (unsigned long long)n, OFF(r));
	*out = (uint32_t)n;
	return XT_OK;
}

enum xt_rc trace_atr_func_sig(struct trace_apitrace *r, const struct trace_at_func_sig **out)
{
	uint64_t id;
	void **slot;
	enum xt_rc rc = trace_atr_get_uint(r, &id, "function signature");
	if (rc || (rc = sig_slot(r, &r->funcs, id, "function", &slot)))
		return rc;
	if (!*slot) {
		struct trace_at_func_sig *s = xt_arena_alloc(&r->sig_arena, sizeof *s);
		if (!s)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		s->id = (uint32_t)id;
		if ((rc = trace_atr_get_string(r, &r->sig_arena, &s->name, "function name")) ||
		    (rc = get_count(r, &s->nargs, MAX_ARG_NO + 1, "function arguments")))
			return rc;
		s->args = xt_arena_alloc(&r->sig_arena, (s->nargs + 1) * sizeof *s->args);
		if (!s->args)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		for (uint32_t i = 0; i < s->nargs; i++)
			if ((rc = trace_atr_get_string(r, &r->sig_arena, &s->args[i], "argument name")))
				return rc;
		*slot = s;
	}
	*out = *slot;
	return XT_OK;
}

/* A tagged sint: 03 magnitude (negative) or 04 value. */
static enum xt_rc get_sint(struct trace_apitrace *r, int64_t *out, const char *what)
{
	uint8_t tag = 0;
	uint64_t v;
	enum xt_rc rc = trace_atr_get_byte(r, &tag, what);
	if (rc || (rc = trace_atr_get_uint(r, &v, what)))
		return rc;
	if (tag == T_SINT) {
		if (v > (uint64_t)INT64_MAX + 1)
			return CORRUPT(r, "%s: negative value beyond 64 bits", what);
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else if (tag == T_UINT) {
		*out = (int64_t)v;
	} else {
		return CORRUPT(r, "%s: tag 0x%02x where an integer belongs, stream offset %llu",
			       what, tag, OFF(r));
	}
	return XT_OK;
}

/*
 * The (name, value) list of an enum or a bitmask signature: a count, then
 * that many names and values, signed for enums (what "enum"), unsigned for
 * bitmasks (what "bitmask flag").  The values are stored as 64-bit
 * patterns: an enum signature reads them as int64_t.
 */
static enum xt_rc named_values(struct trace_apitrace *r, const char *what, bool is_signed,
			       uint32_t *count, const char ***names, uint64_t **values)
{
	char count_what[32], name_what[32], value_what[32];
	enum xt_rc rc;

	snprintf(count_what, sizeof count_what, "%s list", what);
	snprintf(name_what, sizeof name_what, "%s name", what);
	snprintf(value_what, sizeof value_what, "%s value", what);
	if ((rc = get_count(r, count, MAX_SIG_ITEMS, count_what)))
		return rc;
	*names = xt_arena_alloc(&r->sig_arena, (*count + 1) * sizeof **names);
	*values = xt_arena_alloc(&r->sig_arena, (*count + 1) * sizeof **values);
	if (!*names || !*values)
		return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < *count; i++) {
		int64_t v = 0;
		if ((rc = trace_atr_get_string(r, &r->sig_arena, &(*names)[i], name_what)) ||
		    (rc = is_signed ? get_sint(r, &v, value_what)
				    : trace_atr_get_uint(r, &(*values)[i], value_what)))
			return rc;
		if (is_signed)
			(*values)[i] = (uint64_t)v;
	}
	return XT_OK;
}

static enum xt_rc enum_sig(struct trace_apitrace *r, const struct trace_at_enum_sig **out)
{
	uint64_t id, *values;
	void **slot;
	enum xt_rc rc = trace_atr_get_uint(r, &id, "enum signature");
	if (rc || (rc = sig_slot(r, &r->enums, id, "enum", &slot)))
		return rc;
	if (!*slot) {
		struct trace_at_enum_sig *s = xt_arena_alloc(&r->sig_arena, sizeof *s);
		if (!s)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		if ((rc = named_values(r, "enum", true, &s->count, &s->names, &values)))
			return rc;
		s->values = (int64_t *)values;  /* the signed type of the same width */
		*slot = s;
	}
	*out = *slot;
	return XT_OK;
}

static enum xt_rc bitmask_sig(struct trace_apitrace *r, const struct trace_at_bitmask_sig **out)
{
	uint64_t id;
	void **slot;
	enum xt_rc rc = trace_atr_get_uint(r, &id, "bitmask signature");
	if (rc || (rc = sig_slot(r, &r->bitmasks, id, "bitmask", &slot)))
		return rc;
	if (!*slot) {
		struct trace_at_bitmask_sig *s = xt_arena_alloc(&r->sig_arena, sizeof *s);
		if (!s)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		if ((rc = named_values(r, "bitmask flag", false, &s->count, &s->names, &s->values)))
			return rc;
		*slot = s;
	}
	*out = *slot;
	return XT_OK;
}

static enum xt_rc struct_sig(struct trace_apitrace *r, const struct trace_at_struct_sig **out)
{
	uint64_t id;
	void **slot;
	enum xt_rc rc = trace_atr_get_uint(r, &id, "struct signature");
	if (rc || (rc = sig_slot(r, &r->structs, id, "struct", &slot)))
		return rc;
	if (!*slot) {
		struct trace_at_struct_sig *s = xt_arena_alloc(&r->sig_arena, sizeof *s);
		if (!s)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		if ((rc = trace_atr_get_string(r, &r->sig_arena, &s->name, "struct name")) ||
		    (rc = get_count(r, &s->nmembers, MAX_SIG_ITEMS, "struct members")))
			return rc;
		s->members = xt_arena_alloc(&r->sig_arena, (s->nmembers + 1) * sizeof *s->members);
		if (!s->members)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		for (uint32_t i = 0; i < s->nmembers; i++)
			if ((rc = trace_atr_get_string(r, &r->sig_arena, &s->members[i], "member name")))
				return rc;
		*slot = s;
	}
	*out = *slot;
	return XT_OK;
}

/*
 * A backtrace: nframes frames, each a frame id, then (first use only) its
 * details until 00: 01 module, 02 function, 03 file name (strings),
 * 04 line, 05 offset (uints).  Backtraces are parsed and dropped.
 */
enum xt_rc trace_atr_skip_backtrace(struct trace_apitrace *r)
{
	uint32_t n;
	enum xt_rc rc = get_count(r, &n, MAX_SIG_ITEMS, "backtrace frames");
	for (uint32_t i = 0; !rc && i < n; i++) {
		uint64_t id;
		void **slot;
		if ((rc = trace_atr_get_uint(r, &id, "backtrace frame")) ||
		    (rc = sig_slot(r, &r->frames, id, "backtrace frame", &slot)))
			return rc;
		if (*slot)
			continue;
		for (;;) {
			uint8_t d = 0;
			uint64_t u;
			const char *s;
			if ((rc = trace_atr_get_byte(r, &d, "backtrace frame")))
				return rc;
			if (d == 0)
				break;
			if (d >= 1 && d <= 3)
				rc = trace_atr_get_string(r, &r->sig_arena, &s, "backtrace string");
			else if (d == 4 || d == 5)
				rc = trace_atr_get_uint(r, &u, "backtrace number");
			else
				return CORRUPT(r, "backtrace detail 0x%02x at stream offset %llu", d,
					       OFF(r));
			if (rc)
				return rc;
		}
		*slot = (void *)1;   /* defined; contents not kept */
	}
	return rc;
}

/* ---- values ----------------------------------------------------------------- */

static enum xt_rc get_items(struct trace_apitrace *r, struct xt_arena *a, uint64_t n,
			    struct trace_at_value *v, int depth)
{
	/* Grown as items arrive: a damaged count cannot allocate ahead. */
	struct trace_at_value *items = NULL;
	uint64_t cap = 0;
	enum xt_rc rc = XT_OK;

	for (uint64_t i = 0; i < n; i++) {
		if (i == cap) {
			uint64_t ncap = cap ? cap * 2 : (n < 16 ? n : 16);
			if (ncap > n)
				ncap = n;
			struct trace_at_value *g = xt_arena_alloc(a, (size_t)ncap * sizeof *g);
			if (!g)
				return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
			if (i)
				memcpy(g, items, (size_t)i * sizeof *g);
			items = g;
			cap = ncap;
		}
		if ((rc = trace_atr_get_value(r, a, &items[i], depth + 1)))
			return rc;
	}
	v->agg.items = items;
	v->agg.count = (uint32_t)n;
	return XT_OK;
}

static enum xt_rc get_wstring(struct trace_apitrace *r, struct xt_arena *a,
			      struct trace_at_value *v)
{
	uint64_t n;
	enum xt_rc rc = trace_atr_get_uint(r, &n, "wide string");
	struct xt_buf b = XT_BUF_INIT;

	if (rc)
		return rc;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t c;
		uint8_t u[4];
		size_t k;
		if ((rc = trace_atr_get_uint(r, &c, "wide string")))
			break;
		if (c > 0x10ffff)
			c = 0xfffd;
		if (c < 0x80) {
			u[0] = (uint8_t)c; k = 1;
		} else if (c < 0x800) {
			u[0] = (uint8_t)(0xc0 | c >> 6); u[1] = (uint8_t)(0x80 | (c & 0x3f)); k = 2;
		} else if (c < 0x10000) {
			u[0] = (uint8_t)(0xe0 | c >> 12); u[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3f));
			u[2] = (uint8_t)(0x80 | (c & 0x3f)); k = 3;
		} else {
			u[0] = (uint8_t)(0xf0 | c >> 18); u[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3f));
			u[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3f)); u[3] = (uint8_t)(0x80 | (c & 0x3f));
			k = 4;
		}
		if (xt_buf_append(&b, u, k)) {
			rc = XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
			break;
		}
	}
	if (!rc) {
		uint8_t *d = xt_arena_alloc(a, b.len + 1);
		if (!d) {
			rc = XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		} else {
			if (b.len)
				memcpy(d, b.data, b.len);
			d[b.len] = '\0';
			v->kind = TRACE_AT_STRING;
			v->s.bytes = d;
			v->s.len = b.len;
		}
	}
	xt_buf_fini(&b);
	return rc;
}

enum xt_rc trace_atr_get_value(struct trace_apitrace *r, struct xt_arena *a,
			 struct trace_at_value *v, int depth)
{
	uint8_t tag = 0;
	uint64_t u;
	enum xt_rc rc;

	memset(v, 0, sizeof *v);
	if (depth > MAX_DEPTH)
		return CORRUPT(r, "values nested deeper than %d at stream offset %llu", MAX_DEPTH,
			       OFF(r));
	if ((rc = trace_atr_get_byte(r, &tag, "a value")))
		return rc;
	switch (tag) {
	case T_NULL: v->kind = TRACE_AT_NULL; return XT_OK;
	case T_FALSE: v->kind = TRACE_AT_FALSE; return XT_OK;
	case T_TRUE: v->kind = TRACE_AT_TRUE; return XT_OK;
	case T_SINT:
		if ((rc = trace_atr_get_uint(r, &u, "an integer")))
			return rc;
		if (u > (uint64_t)INT64_MAX + 1)
			return CORRUPT(r, "a negative integer beyond 64 bits at stream offset %llu",
				       OFF(r));
		v->kind = TRACE_AT_SINT;
		v->i = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
		return XT_OK;
	case T_UINT:
		v->kind = TRACE_AT_UINT;
		return trace_atr_get_uint(r, &v->u, "an integer");
	case T_FLOAT:
		v->kind = TRACE_AT_FLOAT;
		return trace_atr_get_bytes(r, &v->f, 4, "a float");
	case T_DOUBLE:
		v->kind = TRACE_AT_DOUBLE;
		return trace_atr_get_bytes(r, &v->d, 8, "a double");
	case T_STRING:
	case T_BLOB:
		v->kind = tag == T_STRING ? TRACE_AT_STRING : TRACE_AT_BLOB;
		return trace_atr_get_lenbytes(r, a, &v->s.bytes, &v->s.len, tag == T_STRING ? "a string"
								      : "a blob");
	case T_ENUM:
		v->kind = TRACE_AT_ENUM;
		if ((rc = enum_sig(r, &v->en.sig)))
			return rc;
		return get_sint(r, &v->en.value, "an enum value");
	case T_BITMASK:
		v->kind = TRACE_AT_BITMASK;
		if ((rc = bitmask_sig(r, &v->bm.sig)))
			return rc;
		return trace_atr_get_uint(r, &v->bm.value, "a bitmask value");
	case T_ARRAY:
		v->kind = TRACE_AT_ARRAY;
		if ((rc = trace_atr_get_uint(r, &u, "an array")))
			return rc;
		if (u > UINT32_MAX)
			return CORRUPT(r, "an array of %llu items at stream offset %llu",
				       (unsigned long long)u, OFF(r));
		return get_items(r, a, u, v, depth);
	case T_STRUCT:
		v->kind = TRACE_AT_STRUCT;
		if ((rc = struct_sig(r, &v->agg.sig)))
			return rc;
		return get_items(r, a, v->agg.sig->nmembers, v, depth);
	case T_OPAQUE:
		v->kind = TRACE_AT_POINTER;
		return trace_atr_get_uint(r, &v->u, "a pointer");
	case T_REPR:
		v->kind = TRACE_AT_REPR;
		return get_items(r, a, 2, v, depth);
	case T_WSTRING:
		return get_wstring(r, a, v);
	default:
		return CORRUPT(r, "unknown value tag 0x%02x at stream offset %llu", tag,
			       OFF(r));
	}
}
