/*
 * trace_defined.c - the defined-bytes tracker (trace_defined.h): contexts
 * and share groups from CONTEXT records, buffer bindings, buffers and the
 * calls that define or undefine their bytes, mappings and the MEMWRITEs
 * that fill them, programs and their stages (for TF, trace_defined_tf.c).
 *
 * Functions are recognised by name, once per trace function id, through
 * one table: a handler and the index of the argument it reads where that
 * differs between variants.  Suffixed variants (ARB, EXT, OES, NV) are
 * listed only where their arguments are in the same order; an unknown
 * function changes nothing, except that draws and dispatches not listed
 * count as writes the tracker cannot place (below).
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

enum handler {
	H_NONE = 0,
	H_BUFFER_DATA, H_NAMED_BUFFER_DATA, H_BUFFER_STORAGE, H_NAMED_BUFFER_STORAGE,
	H_STORAGE_FOREIGN, H_NAMED_STORAGE_FOREIGN, H_SUB_DATA, H_NAMED_SUB_DATA,
	H_COPY, H_NAMED_COPY, H_CLEAR, H_NAMED_CLEAR, H_INVALIDATE, H_INVALIDATE_SUB,
	H_MAP, H_NAMED_MAP, H_MAP_RANGE, H_NAMED_MAP_RANGE, H_UNMAP, H_NAMED_UNMAP,
	H_BIND, H_BIND_BASE, H_BIND_RANGE, H_BIND_OFFSET, H_BINDS_BASE, H_BINDS_RANGE,
	H_XFB_BASE, H_XFB_RANGE, H_DELETE_BUFFERS, H_BIND_VAO, H_VAO_ELEMENT, H_BIND_XFB,
	H_BEGIN_TF, H_END_TF, H_PAUSE_TF, H_RESUME_TF,
	H_CREATE_SHADER, H_CREATE_PROGRAM, H_ATTACH, H_DETACH, H_LINK, H_PROGRAM_BINARY,
	H_CREATE_SHADER_PROGRAM, H_USE_PROGRAM, H_BIND_PIPELINE, H_USE_STAGES,
	H_ENABLE, H_DISABLE,
	H_DRAW_ARRAYS, H_DRAW_ELEMENTS, H_MULTI_ARRAYS, H_MULTI_ELEMENTS, H_DRAW_UNKNOWN,
	H_DISPATCH, H_BEGIN, H_END, H_VERTEX, H_VERTEX_ATTRIB, H_IMM_UNKNOWN,
	H_TEX_BUFFER, H_QUERY_OBJECT, H_QUERY_BUFFER_OBJECT, H_PACK,
};

/* aux: for draws, the count argument in the low byte and the instance
 * count argument (0: none) in the high byte; for H_TEX_BUFFER and
 * H_QUERY_BUFFER_OBJECT the buffer argument. */
#define DRAW(count, inst) ((count) | (inst) << 8)

static const struct { const char *name; enum handler h; int16_t aux; } table[] = {
	{ "glBufferData", H_BUFFER_DATA, 0 }, { "glBufferDataARB", H_BUFFER_DATA, 0 },
	{ "glNamedBufferData", H_NAMED_BUFFER_DATA, 0 },
	{ "glNamedBufferDataEXT", H_NAMED_BUFFER_DATA, 0 },
	{ "glBufferStorage", H_BUFFER_STORAGE, 0 }, { "glBufferStorageEXT", H_BUFFER_STORAGE, 0 },
	{ "glNamedBufferStorage", H_NAMED_BUFFER_STORAGE, 0 },
	{ "glNamedBufferStorageEXT", H_NAMED_BUFFER_STORAGE, 0 },
	{ "glBufferStorageMemEXT", H_STORAGE_FOREIGN, 0 },
	{ "glBufferStorageExternalEXT", H_STORAGE_FOREIGN, 0 },
	{ "glNamedBufferStorageMemEXT", H_NAMED_STORAGE_FOREIGN, 0 },
	{ "glNamedBufferStorageExternalEXT", H_NAMED_STORAGE_FOREIGN, 0 },
	{ "glBufferSubData", H_SUB_DATA, 0 }, { "glBufferSubDataARB", H_SUB_DATA, 0 },
	{ "glNamedBufferSubData", H_NAMED_SUB_DATA, 0 },
	{ "glNamedBufferSubDataEXT", H_NAMED_SUB_DATA, 0 },
	{ "glCopyBufferSubData", H_COPY, 0 }, { "glCopyBufferSubDataNV", H_COPY, 0 },
	{ "glCopyNamedBufferSubData", H_NAMED_COPY, 0 },
	{ "glNamedCopyBufferSubDataEXT", H_NAMED_COPY, 0 },
	{ "glClearBufferData", H_CLEAR, 0 }, { "glClearBufferSubData", H_CLEAR, 0 },
	{ "glClearNamedBufferData", H_NAMED_CLEAR, 0 },
	{ "glClearNamedBufferDataEXT", H_NAMED_CLEAR, 0 },
	{ "glClearNamedBufferSubData", H_NAMED_CLEAR, 0 },
	{ "glClearNamedBufferSubDataEXT", H_NAMED_CLEAR, 0 },
	{ "glInvalidateBufferData", H_INVALIDATE, 0 },
	{ "glInvalidateBufferSubData", H_INVALIDATE_SUB, 0 },
	{ "glMapBuffer", H_MAP, 0 }, { "glMapBufferARB", H_MAP, 0 }, { "glMapBufferOES", H_MAP, 0 },
	{ "glMapNamedBuffer", H_NAMED_MAP, 0 }, { "glMapNamedBufferEXT", H_NAMED_MAP, 0 },
	{ "glMapBufferRange", H_MAP_RANGE, 0 }, { "glMapBufferRangeEXT", H_MAP_RANGE, 0 },
	{ "glMapNamedBufferRange", H_NAMED_MAP_RANGE, 0 },
	{ "glMapNamedBufferRangeEXT", H_NAMED_MAP_RANGE, 0 },
	{ "glUnmapBuffer", H_UNMAP, 0 }, { "glUnmapBufferARB", H_UNMAP, 0 },
	{ "glUnmapBufferOES", H_UNMAP, 0 },
	{ "glUnmapNamedBuffer", H_NAMED_UNMAP, 0 }, { "glUnmapNamedBufferEXT", H_NAMED_UNMAP, 0 },
	{ "glBindBuffer", H_BIND, 0 }, { "glBindBufferARB", H_BIND, 0 },
	{ "glBindBufferBase", H_BIND_BASE, 0 }, { "glBindBufferBaseEXT", H_BIND_BASE, 0 },
	{ "glBindBufferBaseNV", H_BIND_BASE, 0 },
	{ "glBindBufferRange", H_BIND_RANGE, 0 }, { "glBindBufferRangeEXT", H_BIND_RANGE, 0 },
	{ "glBindBufferRangeNV", H_BIND_RANGE, 0 },
	{ "glBindBufferOffsetEXT", H_BIND_OFFSET, 0 }, { "glBindBufferOffsetNV", H_BIND_OFFSET, 0 },
	{ "glBindBuffersBase", H_BINDS_BASE, 0 }, { "glBindBuffersRange", H_BINDS_RANGE, 0 },
	{ "glTransformFeedbackBufferBase", H_XFB_BASE, 0 },
	{ "glTransformFeedbackBufferRange", H_XFB_RANGE, 0 },
	{ "glDeleteBuffers", H_DELETE_BUFFERS, 0 }, { "glDeleteBuffersARB", H_DELETE_BUFFERS, 0 },
	{ "glBindVertexArray", H_BIND_VAO, 0 }, { "glBindVertexArrayOES", H_BIND_VAO, 0 },
	{ "glBindVertexArrayAPPLE", H_BIND_VAO, 0 },
	{ "glVertexArrayElementBuffer", H_VAO_ELEMENT, 0 },
	{ "glBindTransformFeedback", H_BIND_XFB, 0 }, { "glBindTransformFeedbackNV", H_BIND_XFB, 0 },
	{ "glBeginTransformFeedback", H_BEGIN_TF, 0 },
	{ "glBeginTransformFeedbackEXT", H_BEGIN_TF, 0 },
	{ "glBeginTransformFeedbackNV", H_BEGIN_TF, 0 },
	{ "glEndTransformFeedback", H_END_TF, 0 }, { "glEndTransformFeedbackEXT", H_END_TF, 0 },
	{ "glEndTransformFeedbackNV", H_END_TF, 0 },
	{ "glPauseTransformFeedback", H_PAUSE_TF, 0 },
	{ "glPauseTransformFeedbackNV", H_PAUSE_TF, 0 },
	{ "glResumeTransformFeedback", H_RESUME_TF, 0 },
	{ "glResumeTransformFeedbackNV", H_RESUME_TF, 0 },
	{ "glCreateShader", H_CREATE_SHADER, 0 }, { "glCreateShaderObjectARB", H_CREATE_SHADER, 0 },
	{ "glCreateProgram", H_CREATE_PROGRAM, 0 },
	{ "glCreateProgramObjectARB", H_CREATE_PROGRAM, 0 },
	{ "glAttachShader", H_ATTACH, 0 }, { "glAttachObjectARB", H_ATTACH, 0 },
	{ "glDetachShader", H_DETACH, 0 }, { "glDetachObjectARB", H_DETACH, 0 },
	{ "glLinkProgram", H_LINK, 0 }, { "glLinkProgramARB", H_LINK, 0 },
	{ "glProgramBinary", H_PROGRAM_BINARY, 0 }, { "glProgramBinaryOES", H_PROGRAM_BINARY, 0 },
	{ "glCreateShaderProgramv", H_CREATE_SHADER_PROGRAM, 0 },
	{ "glCreateShaderProgramvEXT", H_CREATE_SHADER_PROGRAM, 0 },
	{ "glCreateShaderProgramEXT", H_CREATE_SHADER_PROGRAM, 0 },
	{ "glUseProgram", H_USE_PROGRAM, 0 }, { "glUseProgramObjectARB", H_USE_PROGRAM, 0 },
	{ "glBindProgramPipeline", H_BIND_PIPELINE, 0 },
	{ "glBindProgramPipelineEXT", H_BIND_PIPELINE, 0 },
	{ "glUseProgramStages", H_USE_STAGES, 0 }, { "glUseProgramStagesEXT", H_USE_STAGES, 0 },
	{ "glEnable", H_ENABLE, 0 }, { "glDisable", H_DISABLE, 0 },
	{ "glDrawArrays", H_DRAW_ARRAYS, DRAW(2, 0) }, { "glDrawArraysEXT", H_DRAW_ARRAYS, DRAW(2, 0) },
	{ "glDrawArraysInstanced", H_DRAW_ARRAYS, DRAW(2, 3) },
	{ "glDrawArraysInstancedARB", H_DRAW_ARRAYS, DRAW(2, 3) },
	{ "glDrawArraysInstancedEXT", H_DRAW_ARRAYS, DRAW(2, 3) },
	{ "glDrawArraysInstancedBaseInstance", H_DRAW_ARRAYS, DRAW(2, 3) },
	{ "glDrawArraysInstancedBaseInstanceEXT", H_DRAW_ARRAYS, DRAW(2, 3) },
	{ "glDrawElements", H_DRAW_ELEMENTS, DRAW(1, 0) },
	{ "glDrawElementsBaseVertex", H_DRAW_ELEMENTS, DRAW(1, 0) },
	{ "glDrawElementsBaseVertexEXT", H_DRAW_ELEMENTS, DRAW(1, 0) },
	{ "glDrawElementsBaseVertexOES", H_DRAW_ELEMENTS, DRAW(1, 0) },
	{ "glDrawRangeElements", H_DRAW_ELEMENTS, DRAW(3, 0) },
	{ "glDrawRangeElementsEXT", H_DRAW_ELEMENTS, DRAW(3, 0) },
	{ "glDrawRangeElementsBaseVertex", H_DRAW_ELEMENTS, DRAW(3, 0) },
	{ "glDrawRangeElementsBaseVertexEXT", H_DRAW_ELEMENTS, DRAW(3, 0) },
	{ "glDrawRangeElementsBaseVertexOES", H_DRAW_ELEMENTS, DRAW(3, 0) },
	{ "glDrawElementsInstanced", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedARB", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedEXT", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseVertex", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseVertexEXT", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseVertexOES", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseInstance", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseInstanceEXT", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseVertexBaseInstance", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseVertexBaseInstanceEXT", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glMultiDrawArrays", H_MULTI_ARRAYS, DRAW(2, 3) },
	{ "glMultiDrawArraysEXT", H_MULTI_ARRAYS, DRAW(2, 3) },
	{ "glMultiDrawElements", H_MULTI_ELEMENTS, DRAW(1, 4) },
	{ "glMultiDrawElementsEXT", H_MULTI_ELEMENTS, DRAW(1, 4) },
	{ "glMultiDrawElementsBaseVertex", H_MULTI_ELEMENTS, DRAW(1, 4) },
	{ "glMultiDrawElementsBaseVertexEXT", H_MULTI_ELEMENTS, DRAW(1, 4) },
	{ "glMultiDrawElementsBaseVertexOES", H_MULTI_ELEMENTS, DRAW(1, 4) },
	{ "glCallList", H_DRAW_UNKNOWN, 0 }, { "glCallLists", H_DRAW_UNKNOWN, 0 },
	{ "glEvalMesh1", H_DRAW_UNKNOWN, 0 }, { "glEvalMesh2", H_DRAW_UNKNOWN, 0 },
	{ "glBegin", H_BEGIN, 0 }, { "glEnd", H_END, 0 },
	{ "glArrayElement", H_IMM_UNKNOWN, 0 }, { "glArrayElementEXT", H_IMM_UNKNOWN, 0 },
	{ "glTexBuffer", H_TEX_BUFFER, 2 }, { "glTexBufferARB", H_TEX_BUFFER, 2 },
	{ "glTexBufferEXT", H_TEX_BUFFER, 2 }, { "glTexBufferOES", H_TEX_BUFFER, 2 },
	{ "glTexBufferRange", H_TEX_BUFFER, 2 }, { "glTexBufferRangeEXT", H_TEX_BUFFER, 2 },
	{ "glTexBufferRangeOES", H_TEX_BUFFER, 2 },
	{ "glTextureBuffer", H_TEX_BUFFER, 2 }, { "glTextureBufferRange", H_TEX_BUFFER, 2 },
	{ "glTextureBufferEXT", H_TEX_BUFFER, 3 }, { "glTextureBufferRangeEXT", H_TEX_BUFFER, 3 },
	{ "glMultiTexBufferEXT", H_TEX_BUFFER, 3 },
	{ "glGetQueryObjectiv", H_QUERY_OBJECT, 0 }, { "glGetQueryObjectuiv", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjecti64v", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjectui64v", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjectivARB", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjectuivARB", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjectivEXT", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjectuivEXT", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjecti64vEXT", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjectui64vEXT", H_QUERY_OBJECT, 0 },
	{ "glGetQueryBufferObjectiv", H_QUERY_BUFFER_OBJECT, 1 },
	{ "glGetQueryBufferObjectuiv", H_QUERY_BUFFER_OBJECT, 1 },
	{ "glGetQueryBufferObjecti64v", H_QUERY_BUFFER_OBJECT, 1 },
	{ "glGetQueryBufferObjectui64v", H_QUERY_BUFFER_OBJECT, 1 },
};

static bool prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static enum handler classify(const char *n, int16_t *aux)
{
	*aux = 0;
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (!strcmp(n, table[i].name)) {
			*aux = table[i].aux;
			return table[i].h;
		}
	}
	if (prefix(n, "glVertexAttrib")) {
		const char *p = n + 14;
		if (*p == 'I' || *p == 'L')
			p++;
		return *p >= '1' && *p <= '4' ? H_VERTEX_ATTRIB : H_NONE;
	}
	if (prefix(n, "glVertex"))
		return n[8] >= '2' && n[8] <= '4' ? H_VERTEX : H_NONE;
	if (prefix(n, "glEvalCoord") || prefix(n, "glEvalPoint"))
		return H_IMM_UNKNOWN;
	if (prefix(n, "glDraw") || prefix(n, "glMultiDraw"))
		return H_DRAW_UNKNOWN;     /* indirect, from TF objects, meshes ... */
	if (prefix(n, "glDispatchCompute"))
		return H_DISPATCH;
	if (prefix(n, "glReadPixels") || prefix(n, "glReadnPixels"))
		return H_PACK;
	if (prefix(n, "glGet") && (strstr(n, "Image") || strstr(n, "Stipple") ||
				   strstr(n, "ColorTable") || strstr(n, "Filter") ||
				   strstr(n, "Histogram") || strstr(n, "Minmax") || strstr(n, "PixelMap")))
		return H_PACK;
	return H_NONE;
}

/* ---- small helpers ----------------------------------------------------------- */

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

/* Argument i as an unsigned number (UINT, ENUM, BITFIELD, SINT >= 0,
 * OFFSET, POINTER, HANDLE); false otherwise. */
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

/* ---- contexts, threads ------------------------------------------------------- */

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
static struct dctx *ctx_of(struct trace_defined *d, uint32_t thread_no)
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

/* ---- buffers ------------------------------------------------------------------- */

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

static void buf_forget(struct trace_defined *d, uint32_t group, uint32_t name)
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
static struct dbuf *buf_create(struct trace_defined *d, uint32_t group, uint32_t name,
			       uint64_t size, const char *how, uint64_t call)
{
	buf_forget(d, group, name);
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

static void buf_define_all(struct trace_defined *d, struct dbuf *b)
{
	if (b)
		d_buf_define(d, b, 0, b->size ? b->size : 1);
}

static void buf_undefine(struct trace_defined *d, struct dbuf *b, uint64_t lo, uint64_t hi,
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
			buf_define_all(d, d->buf[i]);
}

static void shader_writable(struct trace_defined *d, uint32_t group, uint32_t name)
{
	if (!name)
		return;
	for (size_t i = 0; i < d->nsw; i++)
		if (d->sw[i].group == group && d->sw[i].name == name)
			return;
	if (d_grow(d, (void **)&d->sw, &d->capsw, d->nsw + 1, sizeof *d->sw))
		d->sw[d->nsw++] = (struct dname){ group, name };
}

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

static uint32_t *elem_slot(struct trace_defined *d, struct dctx *x, uint32_t vao)
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
static uint32_t bound(struct trace_defined *d, struct dctx *x, uint64_t target, bool *known)
{
	const enum dslot s = slot_of(target);
	uint32_t *e;

	*known = s != DS_NONE;
	if (s == DS_NONE)
		return 0;
	if (s == DS_ELEMENT)
		return (e = elem_slot(d, x, x->vao)) ? *e : 0;
	return x->bind[s];
}

static void set_bound(struct trace_defined *d, struct dctx *x, uint64_t target, uint32_t buffer)
{
	const enum dslot s = slot_of(target);
	uint32_t *e;

	if (s == DS_ELEMENT) {
		if ((e = elem_slot(d, x, x->vao)))
			*e = buffer;
	} else if (s != DS_NONE) {
		x->bind[s] = buffer;
	}
	if (s == DS_STORAGE || s == DS_ATOMIC)
		shader_writable(d, x->group, buffer);
}

/* The buffer a call names by target (argument `i`) or by name (`named`):
 * its record, NULL when none (nothing bound, or storage the tracker never
 * saw made, which counts as wholly defined).  *lost: the write cannot be
 * placed. */
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
	*name = named ? (uint32_t)v : bound(d, x, v, &known);
	if (!known)
		*lost = true;
	return *name ? d_buf_find(d, x->group, *name) : NULL;
}

static struct dprogram *prog_get(struct trace_defined *d, uint32_t group, uint32_t name);

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
		buf_forget(d, x->group, name);
		return;
	}
	const bool null = arg_is_null(c, 2);
	struct dbuf *b = buf_create(d, x->group, name, size,
				    buffer_data ? "glBufferData(NULL)" : "glBufferStorage(NULL)", c->no);
	if (b && !null)
		buf_define_all(d, b);
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
			buf_define_all(d, b);
			return;
		}
	} else {
		if (!arg_u(c, 1, &access)) {
			buf_define_all(d, b);
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
		buf_undefine(d, b, 0, b->size, "GL_MAP_INVALIDATE_BUFFER_BIT", c->no);
	else if (access & DGL_MAP_INVALIDATE_RANGE_BIT)
		buf_undefine(d, b, offset, offset + length, "GL_MAP_INVALIDATE_RANGE_BIT", c->no);
}

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
static void copy(struct trace_defined *d, struct dbuf *src, struct dbuf *dst, uint64_t ro,
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
		buf_undefine(d, dst, d->scratch.r[i].lo - ro + wo, d->scratch.r[i].hi - ro + wo,
			     src->undef_how ? src->undef_how : src->created_how,
			     src->undef_how ? src->undef_call : src->created_call);
}

static void shader_stores(struct trace_defined *d, struct dctx *x)
{
	for (size_t i = 0; i < d->nsw; i++)
		if (d->sw[i].group == x->group)
			buf_define_all(d, d_buf_find(d, x->group, d->sw[i].name));
}

static void whole_of_slot(struct trace_defined *d, struct dctx *x, enum dslot s)
{
	if (x->bind[s])
		buf_define_all(d, d_buf_find(d, x->group, x->bind[s]));
}

/* ---- programs ---------------------------------------------------------------- */

struct dprogram *d_prog_find(const struct trace_defined *d, uint32_t group, uint32_t name)
{
	for (size_t i = 0; i < d->nprog; i++)
		if (d->prog[i].group == group && d->prog[i].name == name)
			return &d->prog[i];
	return NULL;
}

static struct dprogram *prog_get(struct trace_defined *d, uint32_t group, uint32_t name)
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

static uint32_t shader_stage(const struct trace_defined *d, uint32_t group, uint32_t name)
{
	for (size_t i = 0; i < d->nsh; i++)
		if (d->sh[i].group == group && d->sh[i].name == name)
			return stage_of(d->sh[i].type);
	return ST_UNKNOWN;
}

static void program_call(struct trace_defined *d, struct dctx *x, enum handler h,
			 const struct trace_call *c, const struct trace_ret *ret)
{
	uint64_t a = 0, b = 0, t = 0;
	struct dprogram *p;

	switch (h) {
	case H_CREATE_SHADER:
		if (!arg_u(c, 0, &t) || !(a = ret_u(ret)))
			return;
		for (size_t i = 0; i < d->nsh; i++) {
			if (d->sh[i].group == x->group && d->sh[i].name == a) {
				d->sh[i].type = (uint32_t)t;
				return;
			}
		}
		if (d_grow(d, (void **)&d->sh, &d->capsh, d->nsh + 1, sizeof *d->sh))
			d->sh[d->nsh++] = (struct dshader){ x->group, (uint32_t)a, (uint32_t)t };
		return;
	case H_CREATE_PROGRAM:
		if ((a = ret_u(ret)) && (p = prog_get(d, x->group, (uint32_t)a))) {
			p->nattached = 0;
			p->stages = ST_UNKNOWN;
			p->link_call = 0;
		}
		return;
	case H_ATTACH: case H_DETACH:
		if (!arg_u(c, 0, &a) || !arg_u(c, 1, &b) || !(p = prog_get(d, x->group, (uint32_t)a)))
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
		if (!arg_u(c, 0, &a) || !(p = prog_get(d, x->group, (uint32_t)a)))
			return;
		p->link_call = c->no;
		p->stages = p->nattached == UINT32_MAX ? ST_UNKNOWN : 0;
		for (uint32_t i = 0; p->nattached != UINT32_MAX && i < p->nattached; i++)
			p->stages |= shader_stage(d, x->group, p->attached[i]);
		return;
	case H_PROGRAM_BINARY:
		if (arg_u(c, 0, &a) && (p = prog_get(d, x->group, (uint32_t)a))) {
			p->link_call = c->no;
			p->stages = ST_UNKNOWN;
		}
		return;
	case H_CREATE_SHADER_PROGRAM:
		if (arg_u(c, 0, &t) && (a = ret_u(ret)) && (p = prog_get(d, x->group, (uint32_t)a))) {
			p->nattached = 0;
			p->stages = stage_of(t);
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

/* ---- draws ------------------------------------------------------------------- */

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

static void draw(struct trace_defined *d, struct dctx *x, enum handler h, int16_t aux,
		 const struct trace_call *c)
{
	uint64_t mode = 0, count = 0, inst = 1;
	const uint32_t ci = (uint32_t)aux & 0xff, ii = (uint32_t)aux >> 8;
	uint32_t stages;
	bool known = arg_u(c, 0, &mode);

	shader_stores(d, x);
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

/* ---- the calls -------------------------------------------------------------- */

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
		d->handler[c->func_id] = (uint8_t)(classify(c->name, &d->aux[c->func_id]) + 1);
	}
	*aux = d->aux[c->func_id];
	return (enum handler)(d->handler[c->func_id] - 1);
}

static void bind_indexed(struct trace_defined *d, struct dctx *x, uint64_t target, uint64_t index,
			 uint32_t buffer, uint64_t offset, uint64_t size, bool generic)
{
	if (generic)
		set_bound(d, x, target, buffer);
	if (target == DGL_SHADER_STORAGE_BUFFER || target == DGL_ATOMIC_COUNTER_BUFFER)
		shader_writable(d, x->group, buffer);
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
			buf_forget(d, x->group, name);   /* foreign memory: all defined */
		return;
	case H_SUB_DATA: case H_NAMED_SUB_DATA:
		buf = target_buf(d, x, c, named, &name, &lost);
		if (lost)
			d_lost(d, x->group);
		else if (!arg_u(c, 1, &o) || !arg_u(c, 2, &n) || n > UINT64_MAX - o)
			buf_define_all(d, buf);
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
		uint32_t rn = h == H_NAMED_COPY ? (uint32_t)a : bound(d, x, a, &k1);
		uint32_t wn = h == H_NAMED_COPY ? (uint32_t)b : bound(d, x, b, &k2);
		if (!k1 || !k2) {
			d_lost(d, x->group);
			return;
		}
		copy(d, rn ? d_buf_find(d, x->group, rn) : NULL,
		     wn ? d_buf_find(d, x->group, wn) : NULL, o, t, n);
		return;
	}
	case H_CLEAR: case H_NAMED_CLEAR:
		buf = target_buf(d, x, c, named, &name, &lost);
		if (lost)
			d_lost(d, x->group);
		else
			buf_define_all(d, buf);
		return;
	case H_INVALIDATE:
		if ((buf = target_buf(d, x, c, true, &name, &lost)))
			buf_undefine(d, buf, 0, buf->size, "glInvalidateBufferData", c->no);
		return;
	case H_INVALIDATE_SUB:
		if ((buf = target_buf(d, x, c, true, &name, &lost)) && arg_u(c, 1, &o) &&
		    arg_u(c, 2, &n) && o <= buf->size && n <= buf->size - o)
			buf_undefine(d, buf, o, o + n, "glInvalidateBufferSubData", c->no);
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
			set_bound(d, x, a, (uint32_t)b);
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
			buf_forget(d, x->group, nm);
			for (int s = 0; s < DS_COUNT; s++)
				if (x->bind[s] == nm)
					x->bind[s] = 0;
		}
		return;
	}
	case H_TEX_BUFFER:
		if (arg_u(c, (uint32_t)aux, &b))
			shader_writable(d, x->group, (uint32_t)b);
		return;
	case H_QUERY_OBJECT:
		/* With a query buffer bound, params is an offset into it,
		 * however the capture recorded it. */
		whole_of_slot(d, x, DS_QUERY);
		return;
	case H_QUERY_BUFFER_OBJECT:
		if (arg_u(c, (uint32_t)aux, &b))
			buf_define_all(d, d_buf_find(d, x->group, (uint32_t)b));
		return;
	case H_PACK:
		whole_of_slot(d, x, DS_PACK);
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
	struct dctx *x = ctx_of(d, c->thread_no);
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
		if (arg_u(c, 0, &a) && arg_u(c, 1, &b) && (e = elem_slot(d, x, (uint32_t)a)))
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
		shader_stores(d, x);
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
			shader_stores(d, x);
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

/* ---- queries ----------------------------------------------------------------- */

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
