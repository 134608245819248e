/*
 * trace_apitrace.c - the grammar of apitrace's event stream
 * (docs/apitrace.md §2.2-2.7; the container is
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

#include "trace_apitrace_int.h"
#include "xt_fault.h"

uint32_t trace_apitrace_version(const struct trace_apitrace *r) { return r->version; }
const char *trace_apitrace_container(const struct trace_apitrace *r)
{
	return trace_at_stream_kind(r->st);
}
const struct xt_err *trace_apitrace_err(const struct trace_apitrace *r) { return &r->err; }

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

enum xt_rc trace_atr_get_byte(struct trace_apitrace *r, uint8_t *out, const char *what)
{
	if (r->p == r->end) {
		enum xt_rc rc = more(r);
		if (rc)
			return truncated(r, rc, what);
	}
	*out = *r->p++;
	return XT_OK;
}

enum xt_rc trace_atr_get_uint(struct trace_apitrace *r, uint64_t *out, const char *what)
{
	uint64_t v = 0;
	for (unsigned shift = 0;; shift += 7) {
		uint8_t b = 0;
		enum xt_rc rc = trace_atr_get_byte(r, &b, what);
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

enum xt_rc trace_atr_get_bytes(struct trace_apitrace *r, void *dst, size_t n, const char *what)
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
enum xt_rc trace_atr_get_lenbytes(struct trace_apitrace *r, struct xt_arena *a,
			    const uint8_t **out, size_t *len, const char *what)
{
	uint64_t n;
	enum xt_rc rc = trace_atr_get_uint(r, &n, what);
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

enum xt_rc trace_atr_get_string(struct trace_apitrace *r, struct xt_arena *a, const char **out,
			  const char *what)
{
	const uint8_t *s;
	size_t n;
	enum xt_rc rc = trace_atr_get_lenbytes(r, a, &s, &n, what);
	*out = rc ? NULL : (const char *)s;
	return rc;
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
		if ((rc = trace_atr_get_byte(r, &d, "a call")))
			return rc;
		switch (d) {
		case D_END:
			return XT_OK;
		case D_ARG:
			if ((rc = trace_atr_get_uint(r, &u, "an argument number")))
				return rc;
			if (s->used) {
				if ((rc = call_args(r, s, u)))
					return rc;
				struct trace_at_value *v = leave ? &c->outs[u] : &c->args[u];
				rc = trace_atr_get_value(r, &s->arena, v, 0);
			} else {
				rc = trace_atr_get_value(r, &s->arena, &scratch, 0);
			}
			break;
		case D_RET:
			rc = trace_atr_get_value(r, &s->arena, s->used ? &c->ret : &scratch, 0);
			break;
		case D_THREAD:
			if ((rc = trace_atr_get_uint(r, &u, "a thread number")))
				return rc;
			if (u >= MAX_THREADS)
				return CORRUPT(r, "thread number %llu", (unsigned long long)u);
			c->thread = (uint32_t)u;
			break;
		case D_BACKTRACE:
			rc = trace_atr_skip_backtrace(r);
			break;
		case D_FLAGS:
			if ((rc = trace_atr_get_uint(r, &u, "call flags")))
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

	if (r->version >= 4 && (rc = trace_atr_get_uint(r, &thread, "a thread number")))
		return rc;
	if (thread >= MAX_THREADS)
		return CORRUPT(r, "thread number %llu", (unsigned long long)thread);
	if ((rc = trace_atr_func_sig(r, &sig)))
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
	enum xt_rc rc = trace_atr_get_uint(r, &no, "a call number");
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
	if (rc || (rc = trace_atr_get_uint(r, &v, "the header")))
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
	if ((rc = trace_atr_get_uint(r, &sem, "the header")))
		return rc;
	for (;;) {
		const char *name, *value;
		if ((rc = trace_atr_get_string(r, &r->sig_arena, &name, "a property name")))
			return rc;
		if (!*name)
			return XT_OK;
		if ((rc = trace_atr_get_string(r, &r->sig_arena, &value, "a property value")))
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
			rc = trace_atr_get_byte(r, &ev, "an event");
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
