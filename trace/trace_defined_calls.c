/*
 * trace_defined_calls.c - the recorded calls the defined-bytes tracker
 * (trace_defined.h) follows: those that bind, create, write, copy, clear,
 * invalidate or map buffers, those that make programs and pipelines and
 * put them in use, draws (whose TF writes trace_defined_tf.c places) and
 * dispatches.
 *
 * Functions are recognised by name, once per trace function id, through
 * the table of trace_defined_funcs.c; an unknown function changes nothing,
 * except that draws and dispatches not listed count as writes the tracker
 * cannot place.
 *
 * Every call is taken as recorded, errors and all: a call the GL rejected
 * may be counted as a write it did not make, which only makes bytes
 * defined (compared); the model never undefines on a guess.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trace_defined_int.h"
#include "xt_fault.h"


/* ---- arguments ----------------------------------------------------------- */

static bool arg_u(const struct trace_call *c, uint32_t i, uint64_t *v)
{
	if (i >= c->nargs)
		return false;
	const struct trace_value *a = &c->args[i];
	switch (a->tag) {
	case TRACE_TAG_SINT:
		if (a->i < 0)
			return false;
		*v = (uint64_t)a->i;
		return true;
	case TRACE_TAG_UINT: case TRACE_TAG_ENUM: case TRACE_TAG_BITFIELD: case TRACE_TAG_OFFSET:
	case TRACE_TAG_POINTER: case TRACE_TAG_HANDLE:
		*v = a->u;
		return true;
	case TRACE_TAG_FALSE:
		*v = 0;
		return true;
	case TRACE_TAG_TRUE:
		*v = 1;
		return true;
	default:
		return false;
	}
}


static bool arg_is_null(const struct trace_call *c, uint32_t i)
{
	if (i >= c->nargs)
		return false;
	const struct trace_value *a = &c->args[i];
	return a->tag == TRACE_TAG_NULL ||
	       ((a->tag == TRACE_TAG_POINTER || a->tag == TRACE_TAG_OFFSET) && a->u == 0);
}


/* The unsigned names of a MEMORY argument (uint32 each); count in *n. */
static const uint8_t *arg_names(const struct trace_call *c, uint32_t i, size_t *n)
{
	if (i >= c->nargs || c->args[i].tag != TRACE_TAG_MEMORY)
		return NULL;
	*n = c->args[i].mem.len / 4;
	return c->args[i].mem.bytes;
}


static uint32_t u32_at(const uint8_t *p, size_t i)
{
	uint32_t v;
	memcpy(&v, p + 4 * i, 4);
	return v;
}


static uint64_t ret_u(const struct trace_ret *ret)
{
	if (!ret)
		return 0;
	switch (ret->ret.tag) {
	case TRACE_TAG_UINT: case TRACE_TAG_POINTER: case TRACE_TAG_HANDLE: case TRACE_TAG_ENUM:
		return ret->ret.u;
	case TRACE_TAG_SINT:
		return ret->ret.i > 0 ? (uint64_t)ret->ret.i : 0;
	default:
		return 0;
	}
}


/* The buffer a call names by target (argument `i`) or by name (`named`):
 * its record, NULL when none (nothing bound, or storage the tracker never
 * saw made, which counts as wholly defined).  *lost: the write cannot be
 * placed. */
/* ---- buffers ------------------------------------------------------------- */

static struct dbuf *target_buf(struct trace_defined *d, struct dctx *x, const struct trace_call *c,
			       bool named, uint32_t *name, bool *lost)
{
	uint64_t v = 0;
	bool known = true;

	*lost = false;
	*name = 0;
	if (!arg_u(c, 0, &v)) {
		*lost = true;
		return NULL;
	}
	*name = named ? (uint32_t)v : d_bound(d, x, v, &known);
	if (!known)
		*lost = true;
	return *name ? d_buf_find(d, x->group, *name) : NULL;
}


/* Storage made by glBufferData / glBufferStorage (data at argument 2). */
static void storage(struct trace_defined *d, struct dctx *x, const struct trace_call *c,
		    bool named, bool buffer_data)
{
	uint32_t name;
	bool lost;
	uint64_t size = 0;

	target_buf(d, x, c, named, &name, &lost);
	if (lost) {
		d_lost(d, x->group);
		return;
	}
	if (!name)
		return;
	if (!arg_u(c, 1, &size)) {
		d_buf_forget(d, x->group, name);
		return;
	}
	const bool null = arg_is_null(c, 2);
	struct dbuf *b = d_buf_create(d, x->group, name, size,
				    buffer_data ? "glBufferData(NULL)" : "glBufferStorage(NULL)", c->no);
	if (b && !null)
		d_buf_define_all(d, b);
}


static void map_open(struct trace_defined *d, struct dctx *x, const struct trace_call *c,
		     const struct trace_ret *ret, bool named, bool range)
{
	uint32_t name;
	bool lost;
	uint64_t offset = 0, length = 0, access = 0;
	struct dbuf *b = target_buf(d, x, c, named, &name, &lost);
	const uint64_t ptr = ret_u(ret);

	if (!ptr)
		return;
	if (!b) {       /* unknown buffers are defined whatever is written */
		if (name && d_grow(d, (void **)&d->omap, &d->capomap, d->nomap + 1, sizeof *d->omap))
			d->omap[d->nomap++] = (struct domap){
				ptr, range && arg_u(c, 2, &length) ? length : UINT64_MAX - ptr,
				x->group, name };
		return;
	}
	if (range) {
		if (!arg_u(c, 1, &offset) || !arg_u(c, 2, &length) || !arg_u(c, 3, &access)) {
			d_buf_define_all(d, b);
			return;
		}
	} else {
		if (!arg_u(c, 1, &access)) {
			d_buf_define_all(d, b);
			return;
		}
		access = access == DGL_READ_ONLY ? DGL_MAP_READ_BIT
			 : access == DGL_WRITE_ONLY ? DGL_MAP_WRITE_BIT
			 : DGL_MAP_READ_BIT | DGL_MAP_WRITE_BIT;
		length = b->size;
	}
	if (offset > b->size || length > b->size - offset)
		return;     /* the GL raises an error and maps nothing */
	b->mapped = true;
	b->map_ptr = ptr;
	b->map_offset = offset;
	b->map_length = length;
	if (!(access & DGL_MAP_WRITE_BIT))
		return;
	if (access & DGL_MAP_INVALIDATE_BUFFER_BIT)
		d_buf_undefine(d, b, 0, b->size, "GL_MAP_INVALIDATE_BUFFER_BIT", c->no);
	else if (access & DGL_MAP_INVALIDATE_RANGE_BIT)
		d_buf_undefine(d, b, offset, offset + length, "GL_MAP_INVALIDATE_RANGE_BIT", c->no);
}


/* ---- programs ------------------------------------------------------------ */

static uint32_t stage_of(uint64_t type)
{
	switch (type) {
	case DGL_VERTEX_SHADER: return ST_VS;
	case DGL_GEOMETRY_SHADER: return ST_GS;
	case DGL_TESS_CONTROL_SHADER: case DGL_TESS_EVALUATION_SHADER: return ST_TESS;
	case DGL_FRAGMENT_SHADER: case DGL_COMPUTE_SHADER: return ST_OTHER;
	default: return ST_UNKNOWN;
	}
}


static struct dshader *shader_find(struct trace_defined *d, uint32_t group, uint32_t name)
{
	for (size_t i = 0; i < d->nsh; i++)
		if (d->sh[i].group == group && d->sh[i].name == name)
			return &d->sh[i];
	return NULL;
}

/* Whether GLSL strings (an ARRAY of STRING) name vertex streams:
 * EmitStreamVertex, EndStreamPrimitive, layout(stream = N). */
static bool names_streams(const struct trace_value *strings)
{
	if (!strings || strings->tag != TRACE_TAG_ARRAY)
		return true;
	for (uint32_t i = 0; i < strings->agg.count; i++) {
		const struct trace_value *s = &strings->agg.items[i];
		if (s->tag != TRACE_TAG_STRING)
			return true;
		for (size_t k = 0; k + 6 <= s->mem.len; k++)
			if (!memcmp(s->mem.bytes + k, "Stream", 6) || !memcmp(s->mem.bytes + k, "stream", 6))
				return true;
	}
	return false;
}

/* Whether GLSL strings declare multisample samplers: sampler2DMS,
 * isampler2DMS, usampler2DMS and their arrays. */
static bool names_multisample(const struct trace_value *strings)
{
	if (!strings || strings->tag != TRACE_TAG_ARRAY)
		return false;
	for (uint32_t i = 0; i < strings->agg.count; i++) {
		const struct trace_value *s = &strings->agg.items[i];
		for (size_t k = 0; s->tag == TRACE_TAG_STRING && k + 11 <= s->mem.len; k++)
			if (!memcmp(s->mem.bytes + k, "sampler2DMS", 11))
				return true;
	}
	return false;
}

static uint32_t shader_stage(struct trace_defined *d, uint32_t group, uint32_t name)
{
	const struct dshader *sh = shader_find(d, group, name);
	if (!sh)
		return ST_UNKNOWN;
	const uint32_t st = stage_of(sh->type);
	return st == ST_GS && (!sh->source || sh->streams) ? st | ST_STREAMS : st;
}


static void program_call(struct trace_defined *d, struct dctx *x, enum handler h,
			 const struct trace_call *c, const struct trace_ret *ret)
{
	uint64_t a = 0, b = 0, t = 0;
	struct dprogram *p;

	struct dshader *sh;

	switch (h) {
	case H_CREATE_SHADER:
		if (!arg_u(c, 0, &t) || !(a = ret_u(ret)))
			return;
		if ((sh = shader_find(d, x->group, (uint32_t)a))) {
			*sh = (struct dshader){ x->group, (uint32_t)a, (uint32_t)t, false, false, false };
			return;
		}
		if (d_grow(d, (void **)&d->sh, &d->capsh, d->nsh + 1, sizeof *d->sh))
			d->sh[d->nsh++] = (struct dshader){ x->group, (uint32_t)a, (uint32_t)t, false,
							    false, false };
		return;
	case H_SHADER_SOURCE:
		if (arg_u(c, 0, &a) && (sh = shader_find(d, x->group, (uint32_t)a))) {
			sh->source = true;
			sh->streams = c->nargs < 3 || names_streams(&c->args[2]);
			sh->multisample = c->nargs >= 3 && names_multisample(&c->args[2]);
		}
		return;
	case H_SHADER_BINARY: {
		size_t n = 0;
		const uint8_t *names = arg_names(c, 1, &n);
		for (size_t i = 0; names && i < n; i++)
			if ((sh = shader_find(d, x->group, u32_at(names, i))))
				sh->source = false;   /* SPIR-V: streams unknown */
		return;
	}
	case H_CREATE_PROGRAM:
		if ((a = ret_u(ret)) && (p = d_prog_get(d, x->group, (uint32_t)a))) {
			p->nattached = 0;
			p->stages = ST_UNKNOWN;
			p->link_call = 0;
		}
		return;
	case H_ATTACH: case H_DETACH:
		if (!arg_u(c, 0, &a) || !arg_u(c, 1, &b) || !(p = d_prog_get(d, x->group, (uint32_t)a)))
			return;
		if (h == H_ATTACH && p->nattached < 8)
			p->attached[p->nattached++] = (uint32_t)b;
		else if (h == H_ATTACH)
			p->nattached = UINT32_MAX;
		for (uint32_t i = 0; h == H_DETACH && p->nattached != UINT32_MAX && i < p->nattached; i++)
			if (p->attached[i] == b)
				p->attached[i--] = p->attached[--p->nattached];
		return;
	case H_LINK:
		if (!arg_u(c, 0, &a) || !(p = d_prog_get(d, x->group, (uint32_t)a)))
			return;
		p->link_call = c->no;
		p->stages = p->nattached == UINT32_MAX ? ST_UNKNOWN : 0;
		p->multisample = false;
		for (uint32_t i = 0; p->nattached != UINT32_MAX && i < p->nattached; i++) {
			const struct dshader *s = shader_find(d, x->group, p->attached[i]);
			p->stages |= shader_stage(d, x->group, p->attached[i]);
			p->multisample |= s && s->source && s->multisample;
		}
		return;
	case H_PROGRAM_BINARY:
		if (arg_u(c, 0, &a) && (p = d_prog_get(d, x->group, (uint32_t)a))) {
			p->link_call = c->no;
			p->stages = ST_UNKNOWN;
		}
		return;
	case H_CREATE_SHADER_PROGRAM:
		if (arg_u(c, 0, &t) && (a = ret_u(ret)) && (p = d_prog_get(d, x->group, (uint32_t)a))) {
			p->nattached = 0;
			p->stages = stage_of(t);
			if (p->stages == ST_GS && (c->nargs < 3 || names_streams(&c->args[c->nargs - 1])))
				p->stages |= ST_STREAMS;
			p->link_call = c->no;
		}
		return;
	case H_USE_PROGRAM:
		if (arg_u(c, 0, &a))
			x->program = (uint32_t)a;
		return;
	case H_BIND_PIPELINE:
		if (arg_u(c, 0, &a))
			x->pipeline = (uint32_t)a;
		return;
	case H_USE_STAGES: {
		if (!arg_u(c, 0, &a) || !arg_u(c, 1, &b) || !arg_u(c, 2, &t))
			return;
		struct dpipeline *pp = NULL;
		for (size_t i = 0; i < d->npipe; i++)
			if (d->pipe[i].ctx == x->handle && d->pipe[i].name == a)
				pp = &d->pipe[i];
		if (!pp) {
			if (!d_grow(d, (void **)&d->pipe, &d->cappipe, d->npipe + 1, sizeof *d->pipe))
				return;
			pp = &d->pipe[d->npipe++];
			*pp = (struct dpipeline){ x->handle, (uint32_t)a, 0, 0, 0 };
		}
		if (b & DGL_VERTEX_SHADER_BIT)
			pp->vs = (uint32_t)t;
		if (b & DGL_GEOMETRY_SHADER_BIT)
			pp->gs = (uint32_t)t;
		if (b & (DGL_TESS_CONTROL_SHADER_BIT | DGL_TESS_EVALUATION_SHADER_BIT))
			pp->tess = (uint32_t)t;
		return;
	}
	default:
		return;
	}
}


/* ---- draws --------------------------------------------------------------- */

static void draw(struct trace_defined *d, struct dctx *x, enum handler h, int16_t aux,
		 const struct trace_call *c)
{
	uint64_t mode = 0, count = 0, inst = 1;
	const uint32_t ci = (uint32_t)aux & 0xff, ii = (uint32_t)aux >> 8;
	uint32_t stages;
	bool known = arg_u(c, 0, &mode);

	if (known)
		d_quad_draw(d, c->thread_no, c->no, mode);
	d_shader_stores(d, x);
	d_feeding_program(d, x, &stages);
	known &= !(stages & (ST_UNKNOWN | ST_GS | ST_TESS));
	const bool elements = h == H_DRAW_ELEMENTS || h == H_MULTI_ELEMENTS;
	/* GLES 3 restarts at the fixed index, always. */
	const bool restart = elements && (x->restart || x->gles);
	if (h == H_DRAW_ARRAYS || h == H_DRAW_ELEMENTS) {
		known &= arg_u(c, ci, &count);
		if (ii)
			known &= arg_u(c, ii, &inst);
		d_tf_draw(d, x, c->no, (uint32_t)mode, count, inst, known, restart);
		return;
	}
	if (h == H_MULTI_ARRAYS || h == H_MULTI_ELEMENTS) {
		size_t n = 0;
		uint64_t drawcount = 0;
		const uint8_t *counts = arg_names(c, ci, &n);
		if (!counts || !arg_u(c, ii, &drawcount) || drawcount > n) {
			d_tf_draw(d, x, c->no, (uint32_t)mode, 0, 1, false, restart);
			return;
		}
		for (size_t i = 0; i < drawcount; i++) {
			int32_t k = (int32_t)u32_at(counts, i);
			d_tf_draw(d, x, c->no, (uint32_t)mode, k < 0 ? 0 : (uint64_t)k, 1,
				  known && k >= 0, restart);
		}
		return;
	}
	d_tf_draw(d, x, c->no, (uint32_t)mode, 0, 1, false, restart);
}


/* ---- the calls ----------------------------------------------------------- */

static enum handler handler_of(struct trace_defined *d, const struct trace_call *c, int16_t *aux)
{
	if (c->func_id >= d->nhandler) {
		size_t n = d->nhandler ? d->nhandler : 64;
		while (n <= c->func_id)
			n *= 2;
		uint8_t *h = xt_realloc(d->handler, n);
		if (!h) {
			d->broken = true;
			return H_NONE;
		}
		d->handler = h;
		int16_t *a = xt_realloc(d->aux, n * sizeof *a);
		if (!a) {
			d->broken = true;
			return H_NONE;
		}
		d->aux = a;
		memset(d->handler + d->nhandler, 0, n - d->nhandler);
		d->nhandler = n;
	}
	if (!d->handler[c->func_id]) {
		d->handler[c->func_id] = (uint8_t)(d_handler_classify(c->name, &d->aux[c->func_id]) + 1);
	}
	*aux = d->aux[c->func_id];
	return (enum handler)(d->handler[c->func_id] - 1);
}


static void bind_indexed(struct trace_defined *d, struct dctx *x, uint64_t target, uint64_t index,
			 uint32_t buffer, uint64_t offset, uint64_t size, bool generic)
{
	if (generic)
		d_set_bound(d, x, target, buffer);
	if (target == DGL_SHADER_STORAGE_BUFFER || target == DGL_ATOMIC_COUNTER_BUFFER)
		d_shader_writable(d, x->group, buffer);
	if (target != DGL_TRANSFORM_FEEDBACK_BUFFER)
		return;
	struct dxfb *t = d_xfb_get(d, x, x->xfb);
	if (!t)
		return;
	if (index >= D_MAX_XFB) {
		d_lost(d, x->group);   /* TF may write it: the tracker does not follow */
		return;
	}
	t->b[index] = (struct dxfb_binding){ buffer, offset, size };
}


static void buffer_call(struct trace_defined *d, struct dctx *x, enum handler h, int16_t aux,
			const struct trace_call *c, const struct trace_ret *ret)
{
	const bool named = h == H_NAMED_BUFFER_DATA || h == H_NAMED_BUFFER_STORAGE ||
			   h == H_NAMED_STORAGE_FOREIGN || h == H_NAMED_SUB_DATA ||
			   h == H_NAMED_CLEAR || h == H_NAMED_MAP || h == H_NAMED_MAP_RANGE ||
			   h == H_NAMED_UNMAP || h == H_INVALIDATE || h == H_INVALIDATE_SUB;
	uint64_t a = 0, b = 0, o = 0, n = 0, t = 0;
	uint32_t name;
	bool lost;
	struct dbuf *buf;

	switch (h) {
	case H_BUFFER_DATA: case H_NAMED_BUFFER_DATA:
		storage(d, x, c, named, true);
		return;
	case H_BUFFER_STORAGE: case H_NAMED_BUFFER_STORAGE:
		storage(d, x, c, named, false);
		return;
	case H_STORAGE_FOREIGN: case H_NAMED_STORAGE_FOREIGN:
		target_buf(d, x, c, named, &name, &lost);
		if (lost)
			d_lost(d, x->group);
		else if (name)
			d_buf_forget(d, x->group, name);   /* foreign memory: all defined */
		return;
	case H_SUB_DATA: case H_NAMED_SUB_DATA:
		buf = target_buf(d, x, c, named, &name, &lost);
		if (lost)
			d_lost(d, x->group);
		else if (!arg_u(c, 1, &o) || !arg_u(c, 2, &n) || n > UINT64_MAX - o)
			d_buf_define_all(d, buf);
		else
			d_buf_define(d, buf, o, o + n);
		return;
	case H_COPY: case H_NAMED_COPY: {
		bool k1 = true, k2 = true;
		if (!arg_u(c, 0, &a) || !arg_u(c, 1, &b) || !arg_u(c, 2, &o) || !arg_u(c, 3, &t) ||
		    !arg_u(c, 4, &n)) {
			d_lost(d, x->group);
			return;
		}
		uint32_t rn = h == H_NAMED_COPY ? (uint32_t)a : d_bound(d, x, a, &k1);
		uint32_t wn = h == H_NAMED_COPY ? (uint32_t)b : d_bound(d, x, b, &k2);
		if (!k1 || !k2) {
			d_lost(d, x->group);
			return;
		}
		d_copy(d, rn ? d_buf_find(d, x->group, rn) : NULL,
		     wn ? d_buf_find(d, x->group, wn) : NULL, o, t, n);
		return;
	}
	case H_CLEAR: case H_NAMED_CLEAR:
		buf = target_buf(d, x, c, named, &name, &lost);
		if (lost)
			d_lost(d, x->group);
		else
			d_buf_define_all(d, buf);
		return;
	case H_INVALIDATE:
		if ((buf = target_buf(d, x, c, true, &name, &lost)))
			d_buf_undefine(d, buf, 0, buf->size, "glInvalidateBufferData", c->no);
		return;
	case H_INVALIDATE_SUB:
		if ((buf = target_buf(d, x, c, true, &name, &lost)) && arg_u(c, 1, &o) &&
		    arg_u(c, 2, &n) && o <= buf->size && n <= buf->size - o)
			d_buf_undefine(d, buf, o, o + n, "glInvalidateBufferSubData", c->no);
		return;
	case H_MAP: case H_NAMED_MAP:
		map_open(d, x, c, ret, named, false);
		return;
	case H_MAP_RANGE: case H_NAMED_MAP_RANGE:
		map_open(d, x, c, ret, named, true);
		return;
	case H_UNMAP: case H_NAMED_UNMAP:
		if ((buf = target_buf(d, x, c, named, &name, &lost)))
			buf->mapped = false;
		for (size_t i = 0; i < d->nomap; i++)
			if (d->omap[i].group == x->group && d->omap[i].name == name)
				d->omap[i--] = d->omap[--d->nomap];
		return;
	case H_BIND:
		if (arg_u(c, 0, &a) && arg_u(c, 1, &b))
			d_set_bound(d, x, a, (uint32_t)b);
		return;
	case H_BIND_BASE: case H_BIND_RANGE: case H_BIND_OFFSET:
		if (!arg_u(c, 0, &a) || !arg_u(c, 1, &t) || !arg_u(c, 2, &b))
			return;
		if (h != H_BIND_BASE && !arg_u(c, 3, &o))
			o = 0;
		if (h == H_BIND_RANGE && !arg_u(c, 4, &n))
			n = 0;
		bind_indexed(d, x, a, t, (uint32_t)b, o, n, true);
		return;
	case H_BINDS_BASE: case H_BINDS_RANGE: {
		size_t nn = 0, no = 0, ns = 0;
		const uint8_t *names, *offs = NULL, *sizes = NULL;
		if (!arg_u(c, 0, &a) || !arg_u(c, 1, &t) || !arg_u(c, 2, &n))
			return;
		names = arg_names(c, 3, &nn);
		if (h == H_BINDS_RANGE) {
			offs = arg_names(c, 4, &no);   /* GLintptr: 8 bytes each */
			sizes = arg_names(c, 5, &ns);
		}
		for (uint64_t i = 0; i < n; i++) {
			uint64_t off = 0, size = 0;
			if (h == H_BINDS_RANGE && offs && sizes && 2 * i + 1 < no && 2 * i + 1 < ns) {
				memcpy(&off, offs + 8 * i, 8);
				memcpy(&size, sizes + 8 * i, 8);
			}
			bind_indexed(d, x, a, t + i, names && i < nn ? u32_at(names, i) : 0, off, size,
				     false);
		}
		return;
	}
	case H_XFB_BASE: case H_XFB_RANGE: {
		struct dxfb *xf;
		if (!arg_u(c, 0, &a) || !arg_u(c, 1, &t) || !arg_u(c, 2, &b))
			return;
		if (h == H_XFB_RANGE && (!arg_u(c, 3, &o) || !arg_u(c, 4, &n)))
			o = n = 0;
		if (t >= D_MAX_XFB)
			d_lost(d, x->group);
		else if ((xf = d_xfb_get(d, x, (uint32_t)a)))
			xf->b[t] = (struct dxfb_binding){ (uint32_t)b, o, n };
		return;
	}
	case H_DELETE_BUFFERS: {
		size_t nn = 0;
		const uint8_t *names = arg_names(c, 1, &nn);
		for (size_t i = 0; names && i < nn; i++) {
			uint32_t nm = u32_at(names, i);
			d_buf_forget(d, x->group, nm);
			for (int s = 0; s < DS_COUNT; s++)
				if (x->bind[s] == nm)
					x->bind[s] = 0;
		}
		return;
	}
	case H_TEX_BUFFER:
		if (arg_u(c, (uint32_t)aux, &b))
			d_shader_writable(d, x->group, (uint32_t)b);
		return;
	case H_QUERY_OBJECT:
		/* With a query buffer bound, params is an offset into it,
		 * however the capture recorded it. */
		d_whole_of_slot(d, x, DS_QUERY);
		return;
	case H_QUERY_BUFFER_OBJECT:
		if (arg_u(c, (uint32_t)aux, &b))
			d_buf_define_all(d, d_buf_find(d, x->group, (uint32_t)b));
		return;
	case H_PACK:
		d_whole_of_slot(d, x, DS_PACK);
		return;
	default:
		return;
	}
}


void trace_defined_call(struct trace_defined *d, const struct trace_call *c,
			const struct trace_ret *ret)
{
	int16_t aux;
	uint64_t a = 0;

	if (!d || d->broken)
		return;
	d->cur_thread = c->thread_no;
	d_tf_overdue(d, c->no);
	const enum handler h = handler_of(d, c, &aux);
	if (h == H_NONE || d->broken)
		return;
	struct dctx *x = d_ctx_of(d, c->thread_no);
	if (!x)
		return;
	switch (h) {
	case H_BIND_VAO:
		if (arg_u(c, 0, &a))
			x->vao = (uint32_t)a;
		return;
	case H_VAO_ELEMENT: {
		uint64_t b = 0;
		uint32_t *e;
		if (arg_u(c, 0, &a) && arg_u(c, 1, &b) && (e = d_elem_slot(d, x, (uint32_t)a)))
			*e = (uint32_t)b;
		return;
	}
	case H_BIND_XFB:
		if (arg_u(c, 1, &a))
			x->xfb = (uint32_t)a;
		return;
	case H_BEGIN_TF:
		if (arg_u(c, 0, &a))
			d_tf_begin(d, x, c->no, (uint32_t)a);
		return;
	case H_END_TF: case H_PAUSE_TF:
		d_tf_end(d, x, c->no, h == H_PAUSE_TF);
		return;
	case H_RESUME_TF:
		d_tf_resume(d, x);
		return;
	case H_SHADER_SOURCE: case H_SHADER_BINARY:
	case H_CREATE_SHADER: case H_CREATE_PROGRAM: case H_ATTACH: case H_DETACH: case H_LINK:
	case H_PROGRAM_BINARY: case H_CREATE_SHADER_PROGRAM: case H_USE_PROGRAM:
	case H_BIND_PIPELINE: case H_USE_STAGES:
		program_call(d, x, h, c, ret);
		return;
	case H_ENABLE: case H_DISABLE:
		if (arg_u(c, 0, &a) && (a == DGL_PRIMITIVE_RESTART || a == DGL_PRIMITIVE_RESTART_FIXED_INDEX))
			x->restart = h == H_ENABLE;
		return;
	case H_DRAW_ARRAYS: case H_DRAW_ELEMENTS: case H_MULTI_ARRAYS: case H_MULTI_ELEMENTS:
	case H_DRAW_UNKNOWN:
		draw(d, x, h, aux, c);
		return;
	case H_DISPATCH:
		d_shader_stores(d, x);
		return;
	case H_BEGIN:
		x->in_begin = arg_u(c, 0, &a);
		x->imm_mode = (uint32_t)a;
		x->imm_count = 0;
		x->imm_uncertain = false;
		return;
	case H_VERTEX:
		x->imm_count += x->in_begin;
		return;
	case H_VERTEX_ATTRIB:
		if (x->in_begin && arg_u(c, 0, &a) && a == 0)
			x->imm_count++;
		return;
	case H_IMM_UNKNOWN:
		x->imm_uncertain = true;
		return;
	case H_END:
		if (x->in_begin) {
			uint32_t stages;
			d_quad_draw(d, c->thread_no, c->no, x->imm_mode);
			d_shader_stores(d, x);
			d_feeding_program(d, x, &stages);
			d_tf_draw(d, x, c->no, x->imm_mode, x->imm_count, 1,
				  !x->imm_uncertain && !(stages & (ST_UNKNOWN | ST_GS | ST_TESS)), false);
		}
		x->in_begin = false;
		return;
	default:
		buffer_call(d, x, h, aux, c, ret);
		return;
	}
}
