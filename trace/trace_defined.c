/*
 * trace_defined.c - the state of the defined-bytes tracker
 * (trace_defined.h) and what it answers: contexts and share groups from
 * CONTEXT records, buffer bindings, buffers and their defined ranges,
 * mappings and the MEMWRITEs that fill them, programs and pipelines.  The
 * calls that change them are recognised in trace_defined_calls.c,
 * transform feedback is trace_defined_tf.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trace_defined_int.h"
#include "xt_fault.h"


bool d_grow(struct trace_defined *d, void **v, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 8;
	while (c < n)
		c *= 2;
	void *p = xt_realloc(*v, c * size);
	if (!p) {
		d->broken = true;
		return false;
	}
	*v = p;
	*cap = c;
	return true;
}


/* ---- contexts, threads --------------------------------------------------- */

static struct dctx *ctx_find(const struct trace_defined *d, uint64_t handle)
{
	for (size_t i = 0; i < d->nctx; i++)
		if (d->ctx[i].handle == handle)
			return &d->ctx[i];
	return NULL;
}


static struct dctx *ctx_add(struct trace_defined *d, uint64_t handle, uint32_t group, bool gles)
{
	if (!d_grow(d, (void **)&d->ctx, &d->capctx, d->nctx + 1, sizeof *d->ctx))
		return NULL;
	struct dctx *x = &d->ctx[d->nctx++];
	memset(x, 0, sizeof *x);
	x->handle = handle;
	x->group = group;
	x->gles = gles;
	return x;
}


struct dctx *d_ctx_of_thread(const struct trace_defined *d, uint32_t thread_no)
{
	for (size_t i = 0; i < d->nthr; i++)
		if (d->thr[i].no == thread_no)
			return d->thr[i].ctx ? ctx_find(d, d->thr[i].ctx) : NULL;
	return NULL;
}


/* The context of `thread_no`, or one made up for calls made without a
 * CONTEXT record (traces cut short, unit tests): handle 0, group 0. */
struct dctx *d_ctx_of(struct trace_defined *d, uint32_t thread_no)
{
	struct dctx *x = d_ctx_of_thread(d, thread_no);
	if (!x && !(x = ctx_find(d, 0)))
		x = ctx_add(d, 0, 0, false);
	return x;
}


void trace_defined_context(struct trace_defined *d, uint32_t thread_no,
			   const struct trace_value *ev)
{
	const struct trace_value *e = trace_value_get(ev, "event");
	const struct trace_value *h = trace_value_get(ev, "context");

	if (!d || d->broken || !e || e->tag != TRACE_TAG_STRING || !h)
		return;
	const uint64_t handle = h->u;
	if (e->mem.len == 6 && !memcmp(e->mem.bytes, "create", 6)) {
		const struct trace_value *s = trace_value_get(ev, "share");
		const struct trace_value *api = trace_value_get(ev, "api");
		const struct dctx *share = s && s->u ? ctx_find(d, s->u) : NULL;
		const bool gles = api && api->tag == TRACE_TAG_STRING && api->mem.len == 4 &&
				  !memcmp(api->mem.bytes, "gles", 4);
		struct dctx *x = ctx_find(d, handle);
		const uint32_t group = share ? share->group : ++d->next_group;
		if (x) {   /* a handle used again: a new context */
			xt_free(x->elem);
			memset(x, 0, sizeof *x);
			x->handle = handle;
			x->group = group;
			x->gles = gles;
		} else {
			ctx_add(d, handle, group, gles);
		}
		return;
	}
	if (e->mem.len == 7 && !memcmp(e->mem.bytes, "current", 7)) {
		size_t i;
		for (i = 0; i < d->nthr && d->thr[i].no != thread_no; i++)
			;
		if (i == d->nthr) {
			if (!d_grow(d, (void **)&d->thr, &d->capthr, d->nthr + 1, sizeof *d->thr))
				return;
			d->nthr++;
		}
		d->thr[i] = (struct dthread){ thread_no, handle };
		if (handle && !ctx_find(d, handle))
			ctx_add(d, handle, ++d->next_group, false);
	}
}


/* ---- buffers ------------------------------------------------------------- */

struct dbuf *d_buf_find(const struct trace_defined *d, uint32_t group, uint32_t name)
{
	for (size_t i = d->nbuf; i-- > 0;)
		if (d->buf[i]->group == group && d->buf[i]->name == name)
			return d->buf[i];
	return NULL;
}


static void buf_free(struct dbuf *b)
{
	trace_ranges_fini(&b->defined);
	xt_free(b->tess.v);
	xt_free(b->prod.v);
	xt_free(b);
}


void d_buf_forget(struct trace_defined *d, uint32_t group, uint32_t name)
{
	for (size_t i = 0; i < d->nbuf; i++) {
		if (d->buf[i]->group == group && d->buf[i]->name == name) {
			buf_free(d->buf[i]);
			d->buf[i] = d->buf[--d->nbuf];
			return;
		}
	}
}


/* New storage of `size` bytes for buffer `name`: nothing defined yet. */
struct dbuf *d_buf_create(struct trace_defined *d, uint32_t group, uint32_t name,
			       uint64_t size, const char *how, uint64_t call)
{
	d_buf_forget(d, group, name);
	if (!d_grow(d, (void **)&d->buf, &d->capbuf, d->nbuf + 1, sizeof *d->buf))
		return NULL;
	struct dbuf *b = xt_calloc(1, sizeof *b);
	if (!b) {
		d->broken = true;
		return NULL;
	}
	b->group = group;
	b->name = name;
	b->size = size;
	b->created_how = how;
	b->created_call = call;
	trace_ranges_init(&b->defined);
	d->buf[d->nbuf++] = b;
	return b;
}


void d_buf_define(struct trace_defined *d, struct dbuf *b, uint64_t lo, uint64_t hi)
{
	if (!b || lo >= hi)
		return;
	if (trace_ranges_add(&b->defined, lo, hi) != XT_OK)
		d->broken = true;
	d_tess_remove(&b->tess, lo, hi);
	d_prod_remove(d, &b->prod, lo, hi);
}


void d_buf_define_all(struct trace_defined *d, struct dbuf *b)
{
	if (b)
		d_buf_define(d, b, 0, b->size ? b->size : 1);
}


void d_buf_undefine(struct trace_defined *d, struct dbuf *b, uint64_t lo, uint64_t hi,
			 const char *how, uint64_t call)
{
	if (!b || lo >= hi)
		return;
	if (trace_ranges_remove(&b->defined, lo, hi) != XT_OK)
		d->broken = true;
	d_tess_remove(&b->tess, lo, hi);
	d_prod_remove(d, &b->prod, lo, hi);
	b->undef_how = how;
	b->undef_call = call;
}


void d_lost(struct trace_defined *d, uint32_t group)
{
	for (size_t i = 0; i < d->nbuf; i++)
		if (d->buf[i]->group == group)
			d_buf_define_all(d, d->buf[i]);
}


void d_shader_writable(struct trace_defined *d, uint32_t group, uint32_t name)
{
	if (!name)
		return;
	for (size_t i = 0; i < d->nsw; i++)
		if (d->sw[i].group == group && d->sw[i].name == name)
			return;
	if (d_grow(d, (void **)&d->sw, &d->capsw, d->nsw + 1, sizeof *d->sw))
		d->sw[d->nsw++] = (struct dname){ group, name };
}


/* ---- bindings ------------------------------------------------------------ */

static enum dslot slot_of(uint64_t target)
{
	switch (target) {
	case 0x8892: return DS_ARRAY;
	case 0x8893: return DS_ELEMENT;
	case 0x88EB: return DS_PACK;
	case 0x88EC: return DS_UNPACK;
	case 0x8A11: return DS_UNIFORM;
	case 0x8C2A: return DS_TEXTURE;
	case 0x8C8E: return DS_XFB;
	case 0x8F36: return DS_COPY_READ;
	case 0x8F37: return DS_COPY_WRITE;
	case 0x8F3F: return DS_DRAW_INDIRECT;
	case 0x90D2: return DS_STORAGE;
	case 0x90EE: return DS_DISPATCH_INDIRECT;
	case 0x9192: return DS_QUERY;
	case 0x92C0: return DS_ATOMIC;
	case 0x80EE: return DS_PARAMETER;
	default: return DS_NONE;
	}
}


uint32_t *d_elem_slot(struct trace_defined *d, struct dctx *x, uint32_t vao)
{
	for (size_t i = 0; i < x->nelem; i++)
		if (x->elem[i].vao == vao)
			return &x->elem[i].buffer;
	if (!d_grow(d, (void **)&x->elem, &x->capelem, x->nelem + 1, sizeof *x->elem))
		return NULL;
	x->elem[x->nelem].vao = vao;
	x->elem[x->nelem].buffer = 0;
	return &x->elem[x->nelem++].buffer;
}


/* What `target` has bound in `x`: *known false when the tracker does not
 * follow that target (the caller then cannot tell which buffer a write
 * went to). */
uint32_t d_bound(struct trace_defined *d, struct dctx *x, uint64_t target, bool *known)
{
	const enum dslot s = slot_of(target);
	uint32_t *e;

	*known = s != DS_NONE;
	if (s == DS_NONE)
		return 0;
	if (s == DS_ELEMENT)
		return (e = d_elem_slot(d, x, x->vao)) ? *e : 0;
	return x->bind[s];
}


void d_set_bound(struct trace_defined *d, struct dctx *x, uint64_t target, uint32_t buffer)
{
	const enum dslot s = slot_of(target);
	uint32_t *e;

	if (s == DS_ELEMENT) {
		if ((e = d_elem_slot(d, x, x->vao)))
			*e = buffer;
	} else if (s != DS_NONE) {
		x->bind[s] = buffer;
	}
	if (s == DS_STORAGE || s == DS_ATOMIC)
		d_shader_writable(d, x->group, buffer);
}


/* ---- writes -------------------------------------------------------------- */

void trace_defined_memwrite(struct trace_defined *d, uint64_t call_no, uint64_t addr,
			    uint64_t n, const char *why)
{
	if (!d || d->broken || !why || !strcmp(why, "client-array") || !n)
		return;
	for (size_t i = 0; i < d->nbuf; i++) {
		struct dbuf *b = d->buf[i];
		if (!b->mapped || addr < b->map_ptr || addr - b->map_ptr >= b->map_length)
			continue;
		uint64_t at = b->map_offset + (addr - b->map_ptr);
		uint64_t end = n > b->map_length - (addr - b->map_ptr) ? b->map_offset + b->map_length
									: at + n;
		d_buf_define(d, b, at, end);
		return;
	}
	for (size_t i = 0; i < d->nomap; i++)
		if (addr >= d->omap[i].ptr && addr - d->omap[i].ptr < d->omap[i].len)
			return;
	/* Bytes of a mapping the tracker does not know: any buffer may hold them. */
	for (uint32_t g = 0; g <= d->next_group; g++)
		d_lost(d, g);
}


/* Copies the defined bytes of [ro, ro + n) of `src` to `wo` of `dst`. */
void d_copy(struct trace_defined *d, struct dbuf *src, struct dbuf *dst, uint64_t ro,
		 uint64_t wo, uint64_t n)
{
	if (!dst || n > UINT64_MAX - ro || n > UINT64_MAX - wo)
		return;
	if (!src) {
		d_buf_define(d, dst, wo, wo + n);
		return;
	}
	if (trace_ranges_gaps(&src->defined, ro, ro + n, &d->scratch) != XT_OK) {
		d->broken = true;
		return;
	}
	d_buf_define(d, dst, wo, wo + n);
	for (size_t i = 0; i < d->scratch.n; i++)
		d_buf_undefine(d, dst, d->scratch.r[i].lo - ro + wo, d->scratch.r[i].hi - ro + wo,
			     src->undef_how ? src->undef_how : src->created_how,
			     src->undef_how ? src->undef_call : src->created_call);
}


void d_shader_stores(struct trace_defined *d, struct dctx *x)
{
	for (size_t i = 0; i < d->nsw; i++)
		if (d->sw[i].group == x->group)
			d_buf_define_all(d, d_buf_find(d, x->group, d->sw[i].name));
}


void d_whole_of_slot(struct trace_defined *d, struct dctx *x, enum dslot s)
{
	if (x->bind[s])
		d_buf_define_all(d, d_buf_find(d, x->group, x->bind[s]));
}


/* ---- programs ------------------------------------------------------------ */

struct dprogram *d_prog_find(const struct trace_defined *d, uint32_t group, uint32_t name)
{
	for (size_t i = 0; i < d->nprog; i++)
		if (d->prog[i].group == group && d->prog[i].name == name)
			return &d->prog[i];
	return NULL;
}


struct dprogram *d_prog_get(struct trace_defined *d, uint32_t group, uint32_t name)
{
	struct dprogram *p = d_prog_find(d, group, name);
	if (p || !d_grow(d, (void **)&d->prog, &d->capprog, d->nprog + 1, sizeof *d->prog))
		return p;
	p = &d->prog[d->nprog++];
	memset(p, 0, sizeof *p);
	p->group = group;
	p->name = name;
	p->stages = ST_UNKNOWN;
	return p;
}


/* The program whose vertex stages feed TF in `x` (0 none), with its
 * stages, and whether that is known. */
uint32_t d_feeding_program(const struct trace_defined *d, const struct dctx *x, uint32_t *stages)
{
	const struct dprogram *p;

	*stages = ST_UNKNOWN;
	if (x->program) {
		if ((p = d_prog_find(d, x->group, x->program)))
			*stages = p->stages;
		return x->program;
	}
	for (size_t i = 0; x->pipeline && i < d->npipe; i++) {
		const struct dpipeline *pp = &d->pipe[i];
		if (pp->ctx != x->handle || pp->name != x->pipeline)
			continue;
		if (pp->gs || pp->tess || !pp->vs)
			return pp->gs ? pp->gs : pp->vs;
		if ((p = d_prog_find(d, x->group, pp->vs)))
			*stages = p->stages & ST_UNKNOWN ? ST_UNKNOWN : ST_VS;
		return pp->vs;
	}
	return 0;
}


/* ---- the tracker and its answers ----------------------------------------- */

enum xt_rc trace_defined_create(struct trace_defined **out)
{
	*out = xt_calloc(1, sizeof **out);
	if (!*out)
		return XT_ERR_NOMEM;
	trace_ranges_init(&(*out)->scratch);
	return XT_OK;
}


void trace_defined_destroy(struct trace_defined *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nctx; i++)
		xt_free(d->ctx[i].elem);
	for (size_t i = 0; i < d->nbuf; i++)
		buf_free(d->buf[i]);
	for (size_t i = 0; i < d->nxfb; i++)
		xt_free(d->xfb[i].pending);
	xt_free(d->ctx);
	xt_free(d->thr);
	xt_free(d->buf);
	xt_free(d->sh);
	xt_free(d->prog);
	xt_free(d->pipe);
	xt_free(d->xfb);
	xt_free(d->omap);
	xt_free(d->q);
	xt_free(d->quad);
	xt_free(d->sw);
	xt_free(d->handler);
	xt_free(d->aux);
	trace_ranges_fini(&d->scratch);
	xt_free(d);
}


static const struct dbuf *buf_of_thread(const struct trace_defined *d, uint32_t thread_no,
					uint64_t buffer)
{
	const struct dctx *x = d_ctx_of_thread(d, thread_no);
	if (!x)
		x = ctx_find(d, 0);
	return x && buffer <= UINT32_MAX ? d_buf_find(d, x->group, (uint32_t)buffer) : NULL;
}


bool trace_defined_undefined(const struct trace_defined *d, uint32_t thread_no, uint64_t buffer,
			     uint64_t offset, uint64_t len, struct trace_ranges *out, char *why,
			     size_t n)
{
	const struct dbuf *b;

	trace_ranges_clear(out);
	if (n)
		why[0] = '\0';
	if (!d || d->broken || !len || offset > UINT64_MAX - len ||
	    !(b = buf_of_thread(d, thread_no, buffer)))
		return false;
	/* Only bytes of its storage: past it, the read-back itself is wrong. */
	const uint64_t end = offset + len < b->size ? offset + len : b->size;
	if (offset >= end || trace_ranges_gaps(&b->defined, offset, end, out) != XT_OK) {
		trace_ranges_clear(out);
		return false;
	}
	if (!out->n)
		return false;
	int k = snprintf(why, n, "%s at call %" PRIu64, b->created_how, b->created_call);
	if (b->undef_how && k >= 0 && (size_t)k < n)
		k += snprintf(why + k, n - (size_t)k, ", %s at call %" PRIu64, b->undef_how,
			      b->undef_call);
	if (b->tf_bytes && k >= 0 && (size_t)k < n) {
		if (b->tf_first == b->tf_last)
			snprintf(why + k, n - (size_t)k, ", TF wrote %" PRIu64 " bytes (call %" PRIu64
				 ")", b->tf_bytes, b->tf_last);
		else
			snprintf(why + k, n - (size_t)k, ", TF wrote %" PRIu64 " bytes (calls %" PRIu64
				 "-%" PRIu64 ")", b->tf_bytes, b->tf_first, b->tf_last);
	}
	return true;
}


size_t trace_defined_tess_runs(const struct trace_defined *d, uint32_t thread_no,
			       uint64_t buffer, const struct trace_defined_tess **out)
{
	const struct dbuf *b;

	*out = NULL;
	if (!d || d->broken || !(b = buf_of_thread(d, thread_no, buffer)) || !b->tess.n)
		return 0;
	*out = b->tess.v;
	return b->tess.n;
}


size_t trace_defined_producers(const struct trace_defined *d, uint32_t thread_no,
			       uint64_t buffer, const struct trace_defined_prod **out)
{
	const struct dbuf *b;

	*out = NULL;
	if (!d || d->broken || !(b = buf_of_thread(d, thread_no, buffer)) || !b->prod.n)
		return 0;
	*out = b->prod.v;
	return b->prod.n;
}


uint64_t trace_defined_program(const struct trace_defined *d, uint32_t thread_no,
			       uint64_t *link_call)
{
	const struct dctx *x = d ? d_ctx_of_thread(d, thread_no) : NULL;
	const struct dprogram *p;
	uint32_t stages;

	*link_call = 0;
	if (!x || d->broken)
		return 0;
	uint32_t prog = d_feeding_program(d, x, &stages);
	if (prog && (p = d_prog_find(d, x->group, prog)))
		*link_call = p->link_call;
	return prog;
}


bool trace_defined_multisample(const struct trace_defined *d, uint32_t thread_no, uint64_t program,
			       uint64_t link_call)
{
	const struct dctx *x = d ? d_ctx_of_thread(d, thread_no) : NULL;
	const struct dprogram *p;

	if (!x || d->broken || program > UINT32_MAX ||
	    !(p = d_prog_find(d, x->group, (uint32_t)program)))
		return false;
	return link_call && p->link_call == link_call && p->multisample;
}

uint64_t trace_defined_link_call(const struct trace_defined *d, uint32_t thread_no,
				 uint64_t program)
{
	const struct dctx *x = d ? d_ctx_of_thread(d, thread_no) : NULL;
	const struct dprogram *p;

	if (!x || d->broken || program > UINT32_MAX ||
	    !(p = d_prog_find(d, x->group, (uint32_t)program)))
		return 0;
	return p->link_call;
}
