/*
 * trace_query.c - the target of each query object (trace_query.h): an
 * open-addressing table keyed by (thread, name).
 */
#include <stdlib.h>
#include <string.h>

#include "trace_query.h"
#include "xt_fault.h"

struct slot {
	uint64_t name;
	uint32_t thread_no;
	bool used;
	struct trace_query_target t;
};

struct trace_queries {
	struct slot *slots;
	size_t cap, n;               /* cap: a power of two, or 0 */
};

enum xt_rc trace_queries_create(struct trace_queries **out)
{
	*out = xt_calloc(1, sizeof **out);
	return *out ? XT_OK : XT_ERR_NOMEM;
}

void trace_queries_destroy(struct trace_queries *q)
{
	if (!q)
		return;
	xt_free(q->slots);
	xt_free(q);
}

static size_t hash(uint32_t thread_no, uint64_t name)
{
	uint64_t h = (name ^ (uint64_t)thread_no << 40) * 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 17);
}

static struct slot *find(const struct trace_queries *q, uint32_t thread_no, uint64_t name)
{
	if (!q->cap)
		return NULL;
	for (size_t i = hash(thread_no, name) & (q->cap - 1);; i = (i + 1) & (q->cap - 1)) {
		struct slot *s = &q->slots[i];
		if (!s->used || (s->name == name && s->thread_no == thread_no))
			return s;
	}
}

static bool grow(struct trace_queries *q)
{
	size_t cap = q->cap ? q->cap * 2 : 64;
	struct slot *old = q->slots, *n = xt_calloc(cap, sizeof *n);
	if (!n)
		return false;
	size_t oldcap = q->cap;
	q->slots = n;
	q->cap = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].used)
			*find(q, old[i].thread_no, old[i].name) = old[i];
	xt_free(old);
	return true;
}

static void note(struct trace_queries *q, uint32_t thread_no, uint64_t name,
		 struct trace_query_target t)
{
	if ((q->n + 1) * 2 > q->cap && !grow(q))
		return;
	struct slot *s = find(q, thread_no, name);
	if (!s->used)
		q->n++;
	*s = (struct slot){ .name = name, .thread_no = thread_no, .used = true, .t = t };
}

static bool arg_u(const struct trace_call *c, uint32_t i, uint64_t *out)
{
	if (i >= c->nargs)
		return false;
	const struct trace_value *v = &c->args[i];
	if (v->tag != TRACE_TAG_ENUM && v->tag != TRACE_TAG_UINT &&
	    !(v->tag == TRACE_TAG_SINT && v->i >= 0))
		return false;
	*out = v->tag == TRACE_TAG_SINT ? (uint64_t)v->i : v->u;
	return true;
}

/* `name` is `base` or `base` with a vendor suffix (ARB, EXT). */
static bool is(const char *name, const char *base)
{
	size_t n = strlen(base);
	return !strncmp(name, base, n) &&
	       (!name[n] || !strcmp(name + n, "ARB") || !strcmp(name + n, "EXT"));
}

void trace_queries_call(struct trace_queries *q, const struct trace_call *c)
{
	uint64_t target, index = 0, name;

	if (!q)
		return;
	if (is(c->name, "glBeginQuery")) {
		if (arg_u(c, 0, &target) && arg_u(c, 1, &name))
			note(q, c->thread_no, name, (struct trace_query_target){ .target = (uint32_t)target });
	} else if (is(c->name, "glBeginQueryIndexed")) {
		if (arg_u(c, 0, &target) && arg_u(c, 1, &index) && arg_u(c, 2, &name))
			note(q, c->thread_no, name, (struct trace_query_target){
				(uint32_t)target, (uint32_t)index, true });
	} else if (is(c->name, "glQueryCounter")) {
		if (arg_u(c, 0, &name) && arg_u(c, 1, &target))
			note(q, c->thread_no, name, (struct trace_query_target){ .target = (uint32_t)target });
	}
}

bool trace_queries_lookup(const struct trace_queries *q, uint32_t thread_no, uint64_t name,
			  struct trace_query_target *out)
{
	const struct slot *s = q ? find(q, thread_no, name) : NULL;
	if (s && s->used) {
		*out = s->t;
		return true;
	}
	for (size_t i = 0; q && i < q->cap; i++)
		if (q->slots[i].used && q->slots[i].name == name) {
			*out = q->slots[i].t;
			return true;
		}
	return false;
}
