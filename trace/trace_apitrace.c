/*
 * trace_apitrace.c - the grammar of apitrace's event stream
 * (../shared/reference/apitrace.md §1.2-1.5; the container is
 * trace_apitrace_stream.c).
 *
 *   stream = version [semantic_version properties] event*
 *   event  = 00 thread sig detail* 00     ENTER; call number = ENTERs so far
 *          | 01 call_no detail* 00        LEAVE of an earlier ENTER
 *   detail = 01 arg_no value | 02 value (return) | 03 thread (old)
 *          | 04 backtrace | 05 flags
 *
 * Signatures (functions, enums, bitmasks, structs, backtrace frames) each
 * have an id space and are spelled out only at their first use, so the
 * reader keeps one table per kind and treats a use of an undefined id as
 * corruption.  Where apitrace's FORMAT.markdown and its code disagree we
 * follow the code: an enum signature's values and an enum value are tagged
 * sints (03/04 + uint); a bitmask signature's values and a bitmask value
 * are raw uints with no tag.
 *
 * Pairing.  ENTER and LEAVE of different threads interleave, and a LEAVE
 * carries the outputs and return value, so a call is only whole at its
 * LEAVE.  Calls in flight live in a ring indexed by call number; the ring
 * head is delivered once it is whole, so calls come out in call-number
 * order whatever the interleaving.  Each ring slot owns an arena for its
 * values, reset when the slot is reused, so memory is bounded by the calls
 * in flight (at most TRACE_AT_MAX_IN_FLIGHT, beyond which the oldest is
 * delivered incomplete).
 *
 * Every read is bounds-checked against the stream; counts are never
 * trusted for allocation (arrays and blobs grow as their bytes arrive), and
 * nesting is limited, so a hostile file costs at most its own size.
 */
#include <stdio.h>
#include <string.h>

#include "trace_apitrace.h"
#include "xt_arena.h"
#include "xt_buf.h"
#include "xt_fault.h"

#define MAX_DEPTH 32
#define MAX_SIG_ID (1u << 20)      /* signature ids beyond this are damage */
#define MAX_SIG_ITEMS (1u << 16)   /* enum values / struct members / args */
#define MAX_ARG_NO 255u
#define MAX_THREADS (1u << 16)
#define MAX_STRING_BYTES ((uint64_t)1 << 30)

enum { EV_ENTER = 0, EV_LEAVE = 1 };
enum { D_END = 0, D_ARG = 1, D_RET = 2, D_THREAD = 3, D_BACKTRACE = 4, D_FLAGS = 5 };
enum {
	T_NULL = 0, T_FALSE, T_TRUE, T_SINT, T_UINT, T_FLOAT, T_DOUBLE, T_STRING, T_BLOB,
	T_ENUM, T_BITMASK, T_ARRAY, T_STRUCT, T_OPAQUE, T_REPR, T_WSTRING,
};

struct slot {
	struct trace_at_call call;
	struct xt_arena arena;
	bool used, left;
};

/* A table of signatures of one kind, indexed by id (NULL: undefined). */
struct sig_table {
	void **items;
	uint32_t len;
};

struct trace_apitrace {
	struct trace_at_stream *st;
	struct xt_err err;
	const uint8_t *piece, *p, *end; /* the current decompressed piece */
	uint64_t piece_off;           /* stream offset of the piece's start */
	bool stream_eof;
	uint32_t version;
	struct xt_arena sig_arena;    /* signatures and properties */
	struct sig_table funcs, enums, bitmasks, structs, frames;
	struct trace_at_property *props;
	size_t nprops;
	struct slot *ring;            /* calls in flight: call no % cap */
	uint32_t cap;                 /* a power of two */
	uint64_t head;                /* oldest call not yet delivered */
	uint64_t next_no;             /* number of the next ENTER */
	struct slot *delivered;       /* the slot lent out by _next() */
	uint64_t late_leaves;
	struct xt_buf scratch;        /* strings / blobs that straddle pieces */
	bool failed;
};

#define OFF(r) (unsigned long long)trace_apitrace_stream_offset(r)
#define CORRUPT(r, ...) XT_FAIL(&(r)->err, XT_ERR_CORRUPT, __VA_ARGS__)

uint32_t trace_apitrace_version(const struct trace_apitrace *r) { return r->version; }
const char *trace_apitrace_container(const struct trace_apitrace *r)
{
	return trace_at_stream_kind(r->st);
}
const struct xt_err *trace_apitrace_err(const struct trace_apitrace *r) { return &r->err; }
uint64_t trace_apitrace_late_leaves(const struct trace_apitrace *r) { return r->late_leaves; }

uint64_t trace_apitrace_stream_offset(const struct trace_apitrace *r)
{
	return r->piece_off + (uint64_t)(r->p - r->piece);
}

const struct trace_at_property *trace_apitrace_properties(const struct trace_apitrace *r,
							  size_t *count)
{
	*count = r->nprops;
	return r->props;
}

/* ---- bytes ---------------------------------------------------------------- */

/* Makes at least one byte available; XT_ERR_EOF at the end of the stream. */
static enum xt_rc more(struct trace_apitrace *r)
{
	while (r->p == r->end) {
		const uint8_t *d;
		size_t n;
		enum xt_rc rc;
		if (r->stream_eof)
			return XT_ERR_EOF;
		r->piece_off += (uint64_t)(r->end - r->piece);
		rc = trace_at_stream_fill(r->st, &d, &n, &r->err);
		if (rc == XT_ERR_EOF) {
			r->stream_eof = true;
			return XT_ERR_EOF;
		}
		if (rc != XT_OK)
			return rc;
		r->piece = r->p = d;
		r->end = d + n;
	}
	return XT_OK;
}

/* The stream may only end between events: anywhere else it is cut short. */
static enum xt_rc truncated(struct trace_apitrace *r, enum xt_rc rc, const char *what)
{
	if (rc == XT_ERR_EOF)
		return CORRUPT(r, "the stream ends inside %s at stream offset %llu (truncated "
			       "trace)", what, OFF(r));
	return rc;
}

static enum xt_rc get_byte(struct trace_apitrace *r, uint8_t *out, const char *what)
{
	if (r->p == r->end) {
		enum xt_rc rc = more(r);
		if (rc)
			return truncated(r, rc, what);
	}
	*out = *r->p++;
	return XT_OK;
}

static enum xt_rc get_uint(struct trace_apitrace *r, uint64_t *out, const char *what)
{
	uint64_t v = 0;
	for (unsigned shift = 0;; shift += 7) {
		uint8_t b = 0;
		enum xt_rc rc = get_byte(r, &b, what);
		if (rc)
			return rc;
		if (shift == 63 && b > 1)
			return CORRUPT(r, "%s: a varint longer than 64 bits", what);
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
		if (shift == 63)
			return CORRUPT(r, "%s: a varint longer than 64 bits", what);
	}
	*out = v;
	return XT_OK;
}

static enum xt_rc get_bytes(struct trace_apitrace *r, void *dst, size_t n, const char *what)
{
	uint8_t *d = dst;
	while (n) {
		if (r->p == r->end) {
			enum xt_rc rc = more(r);
			if (rc)
				return truncated(r, rc, what);
		}
		size_t k = (size_t)(r->end - r->p) < n ? (size_t)(r->end - r->p) : n;
		memcpy(d, r->p, k);
		r->p += k;
		d += k;
		n -= k;
	}
	return XT_OK;
}

/*
 * A length-prefixed byte string copied into `a` (NUL-terminated).  The
 * copy grows as bytes arrive, so a damaged length cannot allocate more than
 * the stream holds.
 */
static enum xt_rc get_lenbytes(struct trace_apitrace *r, struct xt_arena *a,
			       const uint8_t **out, size_t *len, const char *what)
{
	uint64_t n;
	enum xt_rc rc = get_uint(r, &n, what);
	if (rc)
		return rc;
	if (n > MAX_STRING_BYTES)
		return CORRUPT(r, "%s of %llu bytes at stream offset %llu", what,
			       (unsigned long long)n, OFF(r));
	if ((uint64_t)(r->end - r->p) >= n) {
		uint8_t *d = xt_arena_alloc(a, (size_t)n + 1);
		if (!d)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		memcpy(d, r->p, (size_t)n);
		d[n] = '\0';
		r->p += n;
		*out = d;
		*len = (size_t)n;
		return XT_OK;
	}
	xt_buf_reset(&r->scratch);
	while (r->scratch.len < n) {
		if (r->p == r->end && (rc = more(r)) != XT_OK)
			return truncated(r, rc, what);
		size_t k = (size_t)(r->end - r->p);
		if (k > n - r->scratch.len)
			k = (size_t)(n - r->scratch.len);
		if (xt_buf_append(&r->scratch, r->p, k))
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		r->p += k;
	}
	uint8_t *d = xt_arena_alloc(a, (size_t)n + 1);
	if (!d)
		return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
	memcpy(d, r->scratch.data, (size_t)n);
	d[n] = '\0';
	*out = d;
	*len = (size_t)n;
	return XT_OK;
}

static enum xt_rc get_string(struct trace_apitrace *r, struct xt_arena *a, const char **out,
			     const char *what)
{
	const uint8_t *s;
	size_t n;
	enum xt_rc rc = get_lenbytes(r, a, &s, &n, what);
	*out = rc ? NULL : (const char *)s;
	return rc;
}

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
	enum xt_rc rc = get_uint(r, &n, what);
	if (rc)
		return rc;
	if (n > max)
		return CORRUPT(r, "%s: count %llu at stream offset %llu", what,
			       (unsigned long long)n, OFF(r));
	*out = (uint32_t)n;
	return XT_OK;
}

static enum xt_rc func_sig(struct trace_apitrace *r, const struct trace_at_func_sig **out)
{
	uint64_t id;
	void **slot;
	enum xt_rc rc = get_uint(r, &id, "function signature");
	if (rc || (rc = sig_slot(r, &r->funcs, id, "function", &slot)))
		return rc;
	if (!*slot) {
		struct trace_at_func_sig *s = xt_arena_alloc(&r->sig_arena, sizeof *s);
		if (!s)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		s->id = (uint32_t)id;
		if ((rc = get_string(r, &r->sig_arena, &s->name, "function name")) ||
		    (rc = get_count(r, &s->nargs, MAX_ARG_NO + 1, "function arguments")))
			return rc;
		s->args = xt_arena_alloc(&r->sig_arena, (s->nargs + 1) * sizeof *s->args);
		if (!s->args)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		for (uint32_t i = 0; i < s->nargs; i++)
			if ((rc = get_string(r, &r->sig_arena, &s->args[i], "argument name")))
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
	enum xt_rc rc = get_byte(r, &tag, what);
	if (rc || (rc = get_uint(r, &v, what)))
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

static enum xt_rc enum_sig(struct trace_apitrace *r, const struct trace_at_enum_sig **out)
{
	uint64_t id;
	void **slot;
	enum xt_rc rc = get_uint(r, &id, "enum signature");
	if (rc || (rc = sig_slot(r, &r->enums, id, "enum", &slot)))
		return rc;
	if (!*slot) {
		struct trace_at_enum_sig *s = xt_arena_alloc(&r->sig_arena, sizeof *s);
		if (!s || (rc = get_count(r, &s->count, MAX_SIG_ITEMS, "enum values")))
			return s ? rc : XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		s->names = xt_arena_alloc(&r->sig_arena, (s->count + 1) * sizeof *s->names);
		s->values = xt_arena_alloc(&r->sig_arena, (s->count + 1) * sizeof *s->values);
		if (!s->names || !s->values)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		for (uint32_t i = 0; i < s->count; i++)
			if ((rc = get_string(r, &r->sig_arena, &s->names[i], "enum name")) ||
			    (rc = get_sint(r, &s->values[i], "enum value")))
				return rc;
		*slot = s;
	}
	*out = *slot;
	return XT_OK;
}

static enum xt_rc bitmask_sig(struct trace_apitrace *r, const struct trace_at_bitmask_sig **out)
{
	uint64_t id;
	void **slot;
	enum xt_rc rc = get_uint(r, &id, "bitmask signature");
	if (rc || (rc = sig_slot(r, &r->bitmasks, id, "bitmask", &slot)))
		return rc;
	if (!*slot) {
		struct trace_at_bitmask_sig *s = xt_arena_alloc(&r->sig_arena, sizeof *s);
		if (!s || (rc = get_count(r, &s->count, MAX_SIG_ITEMS, "bitmask flags")))
			return s ? rc : XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		s->names = xt_arena_alloc(&r->sig_arena, (s->count + 1) * sizeof *s->names);
		s->values = xt_arena_alloc(&r->sig_arena, (s->count + 1) * sizeof *s->values);
		if (!s->names || !s->values)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		for (uint32_t i = 0; i < s->count; i++)
			if ((rc = get_string(r, &r->sig_arena, &s->names[i], "bitmask flag name")) ||
			    (rc = get_uint(r, &s->values[i], "bitmask flag value")))
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
	enum xt_rc rc = get_uint(r, &id, "struct signature");
	if (rc || (rc = sig_slot(r, &r->structs, id, "struct", &slot)))
		return rc;
	if (!*slot) {
		struct trace_at_struct_sig *s = xt_arena_alloc(&r->sig_arena, sizeof *s);
		if (!s)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		if ((rc = get_string(r, &r->sig_arena, &s->name, "struct name")) ||
		    (rc = get_count(r, &s->nmembers, MAX_SIG_ITEMS, "struct members")))
			return rc;
		s->members = xt_arena_alloc(&r->sig_arena, (s->nmembers + 1) * sizeof *s->members);
		if (!s->members)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		for (uint32_t i = 0; i < s->nmembers; i++)
			if ((rc = get_string(r, &r->sig_arena, &s->members[i], "member name")))
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
static enum xt_rc skip_backtrace(struct trace_apitrace *r)
{
	uint32_t n;
	enum xt_rc rc = get_count(r, &n, MAX_SIG_ITEMS, "backtrace frames");
	for (uint32_t i = 0; !rc && i < n; i++) {
		uint64_t id;
		void **slot;
		if ((rc = get_uint(r, &id, "backtrace frame")) ||
		    (rc = sig_slot(r, &r->frames, id, "backtrace frame", &slot)))
			return rc;
		if (*slot)
			continue;
		for (;;) {
			uint8_t d = 0;
			uint64_t u;
			const char *s;
			if ((rc = get_byte(r, &d, "backtrace frame")))
				return rc;
			if (d == 0)
				break;
			if (d >= 1 && d <= 3)
				rc = get_string(r, &r->sig_arena, &s, "backtrace string");
			else if (d == 4 || d == 5)
				rc = get_uint(r, &u, "backtrace number");
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

static enum xt_rc get_value(struct trace_apitrace *r, struct xt_arena *a,
			    struct trace_at_value *v, int depth);

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
		if ((rc = get_value(r, a, &items[i], depth + 1)))
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
	enum xt_rc rc = get_uint(r, &n, "wide string");
	struct xt_buf b = XT_BUF_INIT;

	if (rc)
		return rc;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t c;
		uint8_t u[4];
		size_t k;
		if ((rc = get_uint(r, &c, "wide string")))
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

static enum xt_rc get_value(struct trace_apitrace *r, struct xt_arena *a,
			    struct trace_at_value *v, int depth)
{
	uint8_t tag = 0;
	uint64_t u;
	enum xt_rc rc;

	memset(v, 0, sizeof *v);
	if (depth > MAX_DEPTH)
		return CORRUPT(r, "values nested deeper than %d at stream offset %llu", MAX_DEPTH,
			       OFF(r));
	if ((rc = get_byte(r, &tag, "a value")))
		return rc;
	switch (tag) {
	case T_NULL: v->kind = TRACE_AT_NULL; return XT_OK;
	case T_FALSE: v->kind = TRACE_AT_FALSE; return XT_OK;
	case T_TRUE: v->kind = TRACE_AT_TRUE; return XT_OK;
	case T_SINT:
		if ((rc = get_uint(r, &u, "an integer")))
			return rc;
		if (u > (uint64_t)INT64_MAX + 1)
			return CORRUPT(r, "a negative integer beyond 64 bits at stream offset %llu",
				       OFF(r));
		v->kind = TRACE_AT_SINT;
		v->i = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
		return XT_OK;
	case T_UINT:
		v->kind = TRACE_AT_UINT;
		return get_uint(r, &v->u, "an integer");
	case T_FLOAT:
		v->kind = TRACE_AT_FLOAT;
		return get_bytes(r, &v->f, 4, "a float");
	case T_DOUBLE:
		v->kind = TRACE_AT_DOUBLE;
		return get_bytes(r, &v->d, 8, "a double");
	case T_STRING:
	case T_BLOB:
		v->kind = tag == T_STRING ? TRACE_AT_STRING : TRACE_AT_BLOB;
		return get_lenbytes(r, a, &v->s.bytes, &v->s.len, tag == T_STRING ? "a string"
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
		return get_uint(r, &v->bm.value, "a bitmask value");
	case T_ARRAY:
		v->kind = TRACE_AT_ARRAY;
		if ((rc = get_uint(r, &u, "an array")))
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
		return get_uint(r, &v->u, "a pointer");
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

/* ---- calls ------------------------------------------------------------------ */

static struct slot *slot_of(struct trace_apitrace *r, uint64_t no)
{
	return &r->ring[no & (r->cap - 1)];
}

/* Doubles the ring, keeping each call in flight at its new position. */
static enum xt_rc ring_grow(struct trace_apitrace *r)
{
	uint32_t ncap = r->cap ? r->cap * 2 : 64;
	struct slot *ring = xt_calloc(ncap, sizeof *ring);
	if (!ring)
		return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < ncap; i++)
		xt_arena_init(&ring[i].arena, 4096);
	for (uint64_t no = r->head; no < r->next_no; no++) {
		struct slot *from = slot_of(r, no), *to = &ring[no & (ncap - 1)];
		xt_arena_fini(&to->arena);
		*to = *from;
		from->used = false;
		xt_arena_init(&from->arena, 4096);
	}
	for (uint32_t i = 0; i < r->cap; i++)
		xt_arena_fini(&r->ring[i].arena);
	xt_free(r->ring);
	r->ring = ring;
	r->cap = ncap;
	r->delivered = NULL;
	return XT_OK;
}

/* Grows a call's argument arrays to hold argument `no`. */
static enum xt_rc call_args(struct trace_apitrace *r, struct slot *s, uint64_t no)
{
	struct trace_at_call *c = &s->call;
	if (no > MAX_ARG_NO)
		return CORRUPT(r, "call %llu: argument number %llu", (unsigned long long)c->no,
			       (unsigned long long)no);
	if (no < c->nargs)
		return XT_OK;
	uint32_t n = (uint32_t)no + 1;
	struct trace_at_value *args = xt_arena_alloc(&s->arena, n * sizeof *args);
	struct trace_at_value *outs = xt_arena_alloc(&s->arena, n * sizeof *outs);
	if (!args || !outs)
		return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
	memset(args, 0, n * sizeof *args);
	memset(outs, 0, n * sizeof *outs);
	if (c->nargs) {
		memcpy(args, c->args, c->nargs * sizeof *args);
		memcpy(outs, c->outs, c->nargs * sizeof *outs);
	}
	c->args = args;
	c->outs = outs;
	c->nargs = n;
	return XT_OK;
}

/* The details of an ENTER (leave = false) or LEAVE, up to the 00 end. */
static enum xt_rc call_details(struct trace_apitrace *r, struct slot *s, bool leave)
{
	struct trace_at_call *c = &s->call;
	struct trace_at_value scratch;
	enum xt_rc rc;

	for (;;) {
		uint8_t d = 0;
		uint64_t u;
		if ((rc = get_byte(r, &d, "a call")))
			return rc;
		switch (d) {
		case D_END:
			return XT_OK;
		case D_ARG:
			if ((rc = get_uint(r, &u, "an argument number")))
				return rc;
			if (s->used) {
				if ((rc = call_args(r, s, u)))
					return rc;
				rc = get_value(r, &s->arena, leave ? &c->outs[u] : &c->args[u], 0);
			} else {
				rc = get_value(r, &s->arena, &scratch, 0);
			}
			break;
		case D_RET:
			rc = get_value(r, &s->arena, s->used ? &c->ret : &scratch, 0);
			break;
		case D_THREAD:
			if ((rc = get_uint(r, &u, "a thread number")))
				return rc;
			if (u >= MAX_THREADS)
				return CORRUPT(r, "thread number %llu", (unsigned long long)u);
			c->thread = (uint32_t)u;
			break;
		case D_BACKTRACE:
			rc = skip_backtrace(r);
			break;
		case D_FLAGS:
			if ((rc = get_uint(r, &u, "call flags")))
				return rc;
			if (u & 1)
				c->flags |= TRACE_AT_FAKE;
			break;
		default:
			return CORRUPT(r, "unknown call detail 0x%02x at stream offset %llu", d,
				       OFF(r));
		}
		if (rc)
			return rc;
	}
}

static enum xt_rc parse_enter(struct trace_apitrace *r)
{
	uint64_t thread = 0;
	const struct trace_at_func_sig *sig = NULL;
	enum xt_rc rc;

	if (r->version >= 4 && (rc = get_uint(r, &thread, "a thread number")))
		return rc;
	if (thread >= MAX_THREADS)
		return CORRUPT(r, "thread number %llu", (unsigned long long)thread);
	if ((rc = func_sig(r, &sig)))
		return rc;
	while (r->next_no - r->head >= r->cap)
		if ((rc = ring_grow(r)))
			return rc;
	struct slot *s = slot_of(r, r->next_no);
	xt_arena_reset(&s->arena);
	memset(&s->call, 0, sizeof s->call);
	s->used = true;
	s->left = false;
	s->call.no = r->next_no++;
	s->call.thread = (uint32_t)thread;
	s->call.sig = sig;
	if (sig->nargs && (rc = call_args(r, s, sig->nargs - 1)))
		return rc;
	return call_details(r, s, false);
}

static enum xt_rc parse_leave(struct trace_apitrace *r)
{
	uint64_t no;
	enum xt_rc rc = get_uint(r, &no, "a call number");
	struct slot dropped;

	if (rc)
		return rc;
	if (no >= r->next_no)
		return CORRUPT(r, "LEAVE of call %llu, which never started (stream offset %llu)",
			       (unsigned long long)no, OFF(r));
	if (no < r->head || slot_of(r, no)->left) {
		/* Already delivered (incomplete), or a second LEAVE: parse, drop. */
		memset(&dropped, 0, sizeof dropped);
		xt_arena_init(&dropped.arena, 4096);
		rc = call_details(r, &dropped, true);
		xt_arena_fini(&dropped.arena);
		r->late_leaves++;
		return rc;
	}
	struct slot *s = slot_of(r, no);
	s->left = true;
	return call_details(r, s, true);
}

static enum xt_rc parse_header(struct trace_apitrace *r)
{
	uint64_t v, sem;
	enum xt_rc rc = more(r);

	if (rc == XT_ERR_EOF)
		return CORRUPT(r, "the trace is empty (no header)");
	if (rc || (rc = get_uint(r, &v, "the header")))
		return rc;
	if (v > TRACE_APITRACE_MAX_VERSION)
		return XT_FAIL(&r->err, XT_ERR_VERSION, "apitrace format version %llu is newer "
			       "than this reader (up to %u)", (unsigned long long)v,
			       TRACE_APITRACE_MAX_VERSION);
	if (v < TRACE_APITRACE_MIN_VERSION)
		return XT_FAIL(&r->err, XT_ERR_VERSION, "apitrace format version %llu is older "
			       "than this reader (from %u)", (unsigned long long)v,
			       TRACE_APITRACE_MIN_VERSION);
	r->version = (uint32_t)v;
	if (v < 6)
		return XT_OK;
	if ((rc = get_uint(r, &sem, "the header")))
		return rc;
	for (;;) {
		const char *name, *value;
		if ((rc = get_string(r, &r->sig_arena, &name, "a property name")))
			return rc;
		if (!*name)
			return XT_OK;
		if ((rc = get_string(r, &r->sig_arena, &value, "a property value")))
			return rc;
		if (r->nprops >= 1024)
			return CORRUPT(r, "more than 1024 properties");
		struct trace_at_property *p = xt_realloc(r->props, (r->nprops + 1) * sizeof *p);
		if (!p)
			return XT_FAIL(&r->err, XT_ERR_NOMEM, "out of memory");
		r->props = p;
		p[r->nprops].name = name;
		p[r->nprops++].value = value;
	}
}

void trace_apitrace_close(struct trace_apitrace *r)
{
	if (!r)
		return;
	trace_at_stream_close(r->st);
	for (uint32_t i = 0; i < r->cap; i++)
		xt_arena_fini(&r->ring[i].arena);
	xt_free(r->ring);
	xt_free(r->funcs.items);
	xt_free(r->enums.items);
	xt_free(r->bitmasks.items);
	xt_free(r->structs.items);
	xt_free(r->frames.items);
	xt_free(r->props);
	xt_arena_fini(&r->sig_arena);
	xt_buf_fini(&r->scratch);
	xt_free(r);
}

enum xt_rc trace_apitrace_open(struct trace_apitrace **out, const char *path,
			       struct xt_err *err)
{
	struct trace_apitrace *r;
	enum xt_rc rc;

	*out = NULL;
	r = xt_calloc(1, sizeof *r);
	if (!r)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	xt_arena_init(&r->sig_arena, 64 * 1024);
	xt_buf_init(&r->scratch);
	rc = trace_at_stream_open(&r->st, path, err);
	if (rc == XT_OK && (rc = ring_grow(r)) != XT_OK)
		xt_err_copy(err, &r->err);
	if (rc == XT_OK && (rc = parse_header(r)) != XT_OK)
		xt_err_copy(err, &r->err);
	if (rc) {
		trace_apitrace_close(r);
		return rc;
	}
	*out = r;
	return XT_OK;
}

/* Hands out the ring head and advances past it. */
static enum xt_rc deliver(struct trace_apitrace *r, struct trace_at_call *out, bool incomplete)
{
	struct slot *s = slot_of(r, r->head);
	if (incomplete && !s->left)
		s->call.flags |= TRACE_AT_INCOMPLETE;
	s->used = false;
	*out = s->call;
	r->delivered = s;
	r->head++;
	return XT_OK;
}

enum xt_rc trace_apitrace_next(struct trace_apitrace *r, struct trace_at_call *out)
{
	enum xt_rc rc;

	if (r->failed)
		return r->err.rc ? r->err.rc : XT_ERR_CORRUPT;
	/* The slot lent last time may now be reused: nothing to do, its arena
	 * is reset when an ENTER claims it. */
	r->delivered = NULL;
	for (;;) {
		if (r->head < r->next_no) {
			struct slot *s = slot_of(r, r->head);
			if (s->left)
				return deliver(r, out, false);
			if (r->next_no - r->head >= TRACE_AT_MAX_IN_FLIGHT)
				return deliver(r, out, true);
		}
		rc = more(r);
		if (rc == XT_ERR_EOF) {
			if (r->head < r->next_no)
				return deliver(r, out, true);
			return XT_ERR_EOF;
		}
		uint8_t ev = 0;
		if (rc == XT_OK)
			rc = get_byte(r, &ev, "an event");
		if (rc == XT_OK) {
			if (ev == EV_ENTER)
				rc = parse_enter(r);
			else if (ev == EV_LEAVE)
				rc = parse_leave(r);
			else
				rc = CORRUPT(r, "unknown event 0x%02x at stream offset %llu", ev,
					     OFF(r));
		}
		if (rc) {
			r->failed = true;
			if (!r->err.rc)
				XT_FAIL(&r->err, rc, "apitrace reader: error %s", xt_rc_name(rc));
			return r->err.rc;
		}
	}
}
