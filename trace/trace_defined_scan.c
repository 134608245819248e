/*
 * trace_defined_scan.c - the defined-bytes tracker's one look ahead
 * (trace_defined.h, trace_defined_prescan): the results of the queries
 * that counted primitives.  Where a geometry shader makes the primitive
 * count of a draw unknowable from the call, a GL_PRIMITIVES_GENERATED or
 * GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN query active over the draws
 * bounds what TF wrote: both count primitives of vertex stream 0, and TF
 * records no more than the last vertex stage emitted.  The result is read with
 * glGetQueryObject* after the TF observation it bounds, so the trace is
 * read once, apart, before it is fed.
 */
#include <string.h>

#include "trace_defined_int.h"
#include "xt_fault.h"

static bool name_is(const struct trace_call *c, const char *a, const char *b)
{
	return !strcmp(c->name, a) || !strcmp(c->name, b);
}

static bool arg(const struct trace_call *c, uint32_t i, uint64_t *v)
{
	if (i >= c->nargs || (c->args[i].tag != TRACE_TAG_UINT && c->args[i].tag != TRACE_TAG_ENUM))
		return false;
	*v = c->args[i].u;
	return true;
}

static void begin(struct trace_defined *d, const struct trace_call *c, uint64_t target,
		  uint64_t id)
{
	if ((target != DGL_PRIMITIVES_GENERATED && target != DGL_TF_PRIMITIVES_WRITTEN) ||
	    !d_grow(d, (void **)&d->q, &d->capq, d->nq + 1, sizeof *d->q))
		return;
	d->q[d->nq++] = (struct dquery){ c->thread_no, (uint32_t)id, (uint32_t)target, c->no, 0, 0,
					 false };
}

static void end(struct trace_defined *d, const struct trace_call *c, uint64_t target)
{
	for (size_t i = d->nq; i-- > 0;) {
		struct dquery *q = &d->q[i];
		if (q->thread == c->thread_no && q->target == target && !q->end) {
			q->end = c->no;
			return;
		}
	}
}

static void result(struct trace_defined *d, uint64_t call_no, const struct trace_value *obs)
{
	const struct trace_value *kind = trace_value_get(obs, "kind");
	const struct trace_value *id = trace_value_get(obs, "query");
	const struct trace_value *r = trace_value_get(obs, "result");

	if (!kind || kind->tag != TRACE_TAG_STRING || kind->mem.len != 5 ||
	    memcmp(kind->mem.bytes, "query", 5) || !id || id->tag != TRACE_TAG_UINT || !r ||
	    (r->tag != TRACE_TAG_UINT && (r->tag != TRACE_TAG_SINT || r->i < 0)))
		return;
	for (size_t i = d->nq; i-- > 0;) {
		struct dquery *q = &d->q[i];
		if (q->id == id->u && q->end && q->end < call_no) {
			if (!q->has_result) {
				q->result = r->u;
				q->has_result = true;
			}
			return;
		}
	}
}

void trace_defined_prescan(struct trace_defined *d, const char *path)
{
	struct trace_reader *r = NULL;
	struct trace_record rec;
	struct trace_call c;
	struct trace_value v;
	struct xt_arena arena;
	struct xt_err err;
	uint64_t a, b, e;

	if (!d || d->broken || trace_reader_open(&r, path, &err) != XT_OK)
		return;
	xt_arena_init(&arena, 1 << 16);
	while (!d->broken && trace_reader_next(r, &rec) == XT_OK) {
		xt_arena_reset(&arena);
		if (rec.type == TRACE_REC_OBSERVATION) {
			if (trace_reader_decode_value(r, &rec, &arena, &v) != XT_OK)
				break;
			result(d, rec.seq, &v);
			continue;
		}
		if (rec.type != TRACE_REC_CALL)
			continue;
		if (trace_reader_decode_call(r, &rec, &arena, &c) != XT_OK)
			break;
		if (name_is(&c, "glBeginQuery", "glBeginQueryARB") && arg(&c, 0, &a) && arg(&c, 1, &b))
			begin(d, &c, a, b);
		else if (!strcmp(c.name, "glBeginQueryIndexed") && arg(&c, 0, &a) && arg(&c, 1, &e) &&
			 arg(&c, 2, &b) && e == 0)
			begin(d, &c, a, b);
		else if (name_is(&c, "glEndQuery", "glEndQueryARB") && arg(&c, 0, &a))
			end(d, &c, a);
		else if (!strcmp(c.name, "glEndQueryIndexed") && arg(&c, 0, &a) && arg(&c, 1, &e) &&
			 e == 0)
			end(d, &c, a);
	}
	xt_arena_fini(&arena);
	trace_reader_close(r);
}
