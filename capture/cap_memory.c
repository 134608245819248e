/*
 * cap_memory.c - client memory the GL reads later than the call that
 * named it: mapped buffer ranges and client-side vertex arrays.  Each is
 * written as a MEMWRITE record (trace_format.h) before the CALL of the call
 * at which the GL consumes it, so replay can put the bytes in place first.
 *
 *   unmap      WRITE mapping without FLUSH_EXPLICIT: the whole mapped range
 *              ("map-unmap").  Offset, length, access and pointer are asked
 *              of the driver right before the unmap, not tracked.
 *   flush      glFlushMappedBufferRange: the flushed range ("map-flush").
 *   persistent WRITE|PERSISTENT mappings get a shadow copy; at draws, sync
 *              points (fences, waits, glFinish, glFlush, barriers) and
 *              unmap the changed byte runs are written ("persistent") and
 *              the shadow refreshed.  See README.md for the limits.  A
 *              shadow lives as long as the mapping: deleting the buffer
 *              unmaps it (GL 4.6 6.3.1: "If a buffer object is deleted while
 *              it is mapped, it is unmapped"), so glDeleteBuffers writes the
 *              last changes and drops the shadow of each deleted buffer of
 *              the context's share group, and destroying the last context
 *              of a share group drops the shadows of its buffers: the
 *              driver frees that memory, and a later sync point must not
 *              read it.
 *   client     gl*Pointer with no ARRAY_BUFFER bound: at each draw, the
 *   arrays     vertex range the draw uses of every enabled client array
 *              ("client-array"): from first/count, or from scanning the
 *              index data (client or buffer) for min/max, honouring
 *              primitive restart and base vertex; instanced arrays by
 *              divisor.  Array state is queried at the draw, not tracked.
 *
 * All queries go through CAP_REAL with the GL error queue around them
 * (cap_glerror_stash / drain), so the application sees no difference.
 */
#include <stdlib.h>
#include <string.h>

#include "cap_observe.h"
#include "cap_state.h"
#include "glapi.h"
#include "xt_fault.h"
#include "xt_log.h"


/* ---- persistent-mapping shadows ----------------------------------------- */

struct shadow {
	uint8_t *ptr;      /* the application's mapping */
	size_t len;        /* bytes mapped */
	uint8_t *copy;     /* what the mapping held at the last sync point */
	uint64_t group;    /* share group of the mapping context (cap_ctx) */
	GLuint buffer;     /* the buffer mapped, 0 if unknown */
};

static struct shadow *shadows;   /* under cap_g.lock */
static size_t nshadows, capshadows;

static void shadow_diff_locked(struct cap_thread *t, uint64_t seq, struct shadow *s)
{
	const size_t block = 64;
	size_t i = 0;

	while (i < s->len) {
		size_t n = s->len - i < block ? s->len - i : block;
		size_t start, end;

		if (memcmp(s->ptr + i, s->copy + i, n) == 0) {
			i += n;
			continue;
		}
		start = i;
		end = i + n;
		/* Extend the run over following dirty blocks. */
		while (end < s->len) {
			size_t m = s->len - end < block ? s->len - end : block;
			if (memcmp(s->ptr + end, s->copy + end, m) == 0)
				break;
			end += m;
		}
		memcpy(s->copy + start, s->ptr + start, end - start);
		cap_memwrite(t, seq, s->ptr + start, s->copy + start, end - start, "persistent");
		i = end;
	}
}

void cap_mem_sync_persistent(struct cap_thread *t, uint64_t seq)
{
	if (atomic_load_explicit(&cap_g.shadows, memory_order_relaxed) == 0)
		return;
	pthread_mutex_lock(&cap_g.lock);
	for (size_t i = 0; i < nshadows; i++)
		shadow_diff_locked(t, seq, &shadows[i]);
	pthread_mutex_unlock(&cap_g.lock);
}

static void shadow_add(uint8_t *ptr, size_t len, uint64_t group, GLuint buffer)
{
	struct shadow s = { ptr, len, xt_malloc(len ? len : 1), group, buffer };

	if (!s.copy) {
		cap_stop("out of memory for a %zu-byte persistent mapping shadow", len);
		return;
	}
	memcpy(s.copy, ptr, len);
	pthread_mutex_lock(&cap_g.lock);
	if (nshadows == capshadows) {
		size_t ncap = capshadows ? 2 * capshadows : 8;
		struct shadow *n = xt_realloc(shadows, ncap * sizeof(*n));
		if (!n) {
			pthread_mutex_unlock(&cap_g.lock);
			xt_free(s.copy);
			cap_stop("out of memory for persistent mapping shadows");
			return;
		}
		shadows = n;
		capshadows = ncap;
	}
	shadows[nshadows++] = s;
	atomic_store(&cap_g.shadows, (int)nshadows);
	pthread_mutex_unlock(&cap_g.lock);
}

/* Diffs and forgets the shadow of the mapping at `ptr`; false if none. */
static bool shadow_remove(struct cap_thread *t, uint64_t seq, const void *ptr)
{
	bool found = false;

	if (atomic_load_explicit(&cap_g.shadows, memory_order_relaxed) == 0)
		return false;
	pthread_mutex_lock(&cap_g.lock);
	for (size_t i = 0; i < nshadows; i++) {
		if (shadows[i].ptr != ptr)
			continue;
		shadow_diff_locked(t, seq, &shadows[i]);
		xt_free(shadows[i].copy);
		shadows[i] = shadows[--nshadows];
		atomic_store(&cap_g.shadows, (int)nshadows);
		found = true;
		break;
	}
	pthread_mutex_unlock(&cap_g.lock);
	return found;
}

/*
 * Forgets the shadows of share group `group` whose buffer is one of the `n`
 * `names` (all of the group's when `names` is NULL), first writing what
 * changed when `diff` (the mappings are still valid).
 */
static void shadow_forget(struct cap_thread *t, uint64_t seq, uint64_t group,
			  const GLuint *names, int64_t n, bool diff)
{
	if (atomic_load_explicit(&cap_g.shadows, memory_order_relaxed) == 0)
		return;
	pthread_mutex_lock(&cap_g.lock);
	for (size_t i = 0; i < nshadows;) {
		bool hit = shadows[i].group == group && (!names || !shadows[i].buffer);
		for (int64_t k = 0; names && !hit && k < n; k++)
			hit = shadows[i].group == group && names[k] == shadows[i].buffer;
		if (!hit) {
			i++;
			continue;
		}
		if (diff)
			shadow_diff_locked(t, seq, &shadows[i]);
		xt_free(shadows[i].copy);
		shadows[i] = shadows[--nshadows];
	}
	atomic_store(&cap_g.shadows, (int)nshadows);
	pthread_mutex_unlock(&cap_g.lock);
}

/* glDeleteBuffers(n, buffers): deleting a mapped buffer unmaps it. */
static void delete_buffers_pre(struct cap_thread *t, struct cap_call *c)
{
	const GLuint *names = (const GLuint *)(uintptr_t)c->a[1].u;
	int64_t n = c->a[0].i;

	if (t->ctx && names && n > 0)
		shadow_forget(t, c->seq, t->ctx->group, names, n, true);
}

/* eglDestroyContext / glXDestroyContext: the last context of a share group
 * takes its buffers, and their mappings, with it. */
static void destroy_context_pre(struct cap_thread *t, struct cap_call *c)
{
	uint64_t group;

	if (cap_ctx_last_of_group(c->a[1].u, &group))
		shadow_forget(t, c->seq, group, NULL, 0, false);
}

/* Refreshes the shadow bytes [p, p+n) after they were written out. */
static void shadow_refresh(const uint8_t *p, size_t n)
{
	if (atomic_load_explicit(&cap_g.shadows, memory_order_relaxed) == 0)
		return;
	pthread_mutex_lock(&cap_g.lock);
	for (size_t i = 0; i < nshadows; i++) {
		struct shadow *s = &shadows[i];
		if (p >= s->ptr && p + n <= s->ptr + s->len)
			memcpy(s->copy + (p - s->ptr), p, n);
	}
	pthread_mutex_unlock(&cap_g.lock);
}

/* ---- map / unmap / flush -------------------------------------------------- */

struct mapping {
	uint8_t *ptr;
	int64_t offset, length;
	GLbitfield access;   /* GL_MAP_*_BIT */
};

static GLbitfield access_bits(GLenum access)
{
	switch (access) {
	case GL_READ_ONLY: return GL_MAP_READ_BIT;
	case GL_WRITE_ONLY: return GL_MAP_WRITE_BIT;
	case GL_READ_WRITE: return GL_MAP_READ_BIT | GL_MAP_WRITE_BIT;
	default: return 0;
	}
}

/*
 * Asks the driver about the current mapping of a target or named buffer;
 * false when it is not mapped.  With `write_only`, a mapping without
 * WRITE access is reported by its access bits alone (ptr NULL, offset and
 * length 0): the unmap of a read mapping needs nothing else, and the three
 * queries it saves are most of that unmap's cost.  Where
 * GL_BUFFER_ACCESS_FLAGS exists (GL 3.0, ES 3.0) it alone says whether the
 * buffer is mapped: it is 0 unless it is (every map sets READ or WRITE;
 * unmapping resets it), so GL_BUFFER_MAPPED is not asked.  A driver that
 * kept stale flags would make an unmapped buffer look mapped; its NULL map
 * pointer then still says it is not.
 */
static bool query_mapping(struct cap_ctx *x, bool named, GLuint id, struct mapping *m,
			  bool write_only)
{
	const bool ranges = x->major >= 3;
	GLint mapped = 0, access = 0;
	GLint64 off = 0, len = 0;
	void *ptr = NULL;

	memset(m, 0, sizeof(*m));
	cap_glerror_stash_ctx(x);
	if (named) {
		cap_pfn_glGetNamedBufferParameteriv gi = CAP_REAL(glGetNamedBufferParameteriv);
		cap_pfn_glGetNamedBufferParameteri64v g64 = CAP_REAL(glGetNamedBufferParameteri64v);
		cap_pfn_glGetNamedBufferPointerv gp = CAP_REAL(glGetNamedBufferPointerv);
		if (gi && g64 && gp) {
			gi(id, GL_BUFFER_ACCESS_FLAGS, &access);
			mapped = access != 0;
			if (mapped && (!write_only || (access & GL_MAP_WRITE_BIT))) {
				g64(id, GL_BUFFER_MAP_OFFSET, &off);
				g64(id, GL_BUFFER_MAP_LENGTH, &len);
				gp(id, GL_BUFFER_MAP_POINTER, &ptr);
			}
		}
	} else {
		cap_pfn_glGetBufferParameteriv gi = CAP_REAL(glGetBufferParameteriv);
		cap_pfn_glGetBufferParameteri64v g64 = CAP_REAL(glGetBufferParameteri64v);
		cap_pfn_glGetBufferPointerv gp = CAP_REAL(glGetBufferPointerv);
		if (!gp)
			gp = (cap_pfn_glGetBufferPointerv)CAP_REAL(glGetBufferPointervOES);
		if (gi && gp) {
			GLint a = 0, size = 0;
			if (ranges) {
				gi(id, GL_BUFFER_ACCESS_FLAGS, &access);
				mapped = access != 0;
			} else {
				gi(id, GL_BUFFER_MAPPED, &mapped);
				gi(id, GL_BUFFER_ACCESS, &a);
				access = (GLint)access_bits((GLenum)a);
			}
			if (!mapped || (write_only && !(access & GL_MAP_WRITE_BIT))) {
				/* nothing more to ask */
			} else if (ranges && g64) {
				g64(id, GL_BUFFER_MAP_OFFSET, &off);
				g64(id, GL_BUFFER_MAP_LENGTH, &len);
			} else if (ranges) {
				GLint o = 0, l = 0;
				gi(id, GL_BUFFER_MAP_OFFSET, &o);
				gi(id, GL_BUFFER_MAP_LENGTH, &l);
				off = o;
				len = l;
			} else {
				gi(id, GL_BUFFER_SIZE, &size);
				len = size;
			}
			if (mapped && (!write_only || (access & GL_MAP_WRITE_BIT)))
				gp(id, GL_BUFFER_MAP_POINTER, &ptr);
		}
	}
	cap_glerror_drain_ctx(x, "buffer mapping query");
	if (mapped && write_only && !(access & GL_MAP_WRITE_BIT)) {
		m->access = (GLbitfield)access;
		return true;
	}
	if (!mapped || !ptr || len < 0)
		return false;
	m->ptr = ptr;
	m->offset = off;
	m->length = len;
	m->access = (GLbitfield)access;
	return true;
}

static void unmap_pre(struct cap_thread *t, struct cap_call *c, bool named)
{
	struct mapping m;

	if (!t->ctx || !query_mapping(t->ctx, named, (GLuint)c->a[0].u, &m, true))
		return;
	/* Only WRITE mappings have bytes to publish, or a persistent shadow. */
	if (!(m.access & GL_MAP_WRITE_BIT))
		return;
	if (shadow_remove(t, c->seq, m.ptr))
		return;
	if (!(m.access & GL_MAP_FLUSH_EXPLICIT_BIT))
		cap_memwrite(t, c->seq, m.ptr, m.ptr, (size_t)m.length, "map-unmap");
}

static void flush_pre(struct cap_thread *t, struct cap_call *c, bool named)
{
	struct mapping m;
	int64_t off = c->a[1].i, len = c->a[2].i;

	if (!t->ctx || !query_mapping(t->ctx, named, (GLuint)c->a[0].u, &m, false))
		return;
	if (off < 0 || len <= 0 || off + len > m.length)
		return;  /* the GL raises INVALID_VALUE and flushes nothing */
	cap_memwrite(t, c->seq, m.ptr + off, m.ptr + off, (size_t)len, "map-flush");
	shadow_refresh(m.ptr + off, (size_t)len);
}

static void map_post(struct cap_thread *t, struct cap_call *c, unsigned hook)
{
	const union cap_arg *a = c->a;
	uint8_t *ptr = (uint8_t *)(uintptr_t)c->ret.u;
	const bool named = hook == CAP_HOOK_NAMED_MAP || hook == CAP_HOOK_NAMED_MAP_RANGE;
	int64_t offset = 0, length = 0;
	GLbitfield access;

	if (!ptr || !t->ctx)
		return;
	switch (hook) {
	case CAP_HOOK_MAP:
	case CAP_HOOK_NAMED_MAP: {
		struct mapping m;
		access = access_bits((GLenum)a[1].u);
		if (query_mapping(t->ctx, named, (GLuint)a[0].u, &m, false))
			length = m.length;
		break;
	}
	default:
		offset = a[1].i;
		length = a[2].i;
		access = (GLbitfield)a[3].u;
		break;
	}
	if ((access & GL_MAP_PERSISTENT_BIT) && (access & GL_MAP_WRITE_BIT) && length > 0)
		shadow_add(ptr, (size_t)length, t->ctx->group,
			   named ? (GLuint)a[0].u : cap_ctx_bound_buffer((GLenum)a[0].u, true));
	/* The buffer's name only matters to the observation; the mapping
	 * succeeded, so the target is valid and asking for its binding raises
	 * no error. */
	if ((access & GL_MAP_READ_BIT) && cap_g.observe)
		cap_observe_map(c->seq, named ? (GLuint)a[0].u :
				cap_ctx_bound_buffer((GLenum)a[0].u, true),
				offset, length, access, ptr);
}

/* ---- client-side vertex arrays ------------------------------------------ */

enum { LEGACY_ARRAYS = 8 };

static const struct legacy {
	GLenum array, pointer, size, type, stride, binding;
	GLint fixed_size;
} legacy[LEGACY_ARRAYS] = {
	{ GL_VERTEX_ARRAY, GL_VERTEX_ARRAY_POINTER, GL_VERTEX_ARRAY_SIZE, GL_VERTEX_ARRAY_TYPE,
	  GL_VERTEX_ARRAY_STRIDE, GL_VERTEX_ARRAY_BUFFER_BINDING, 0 },
	{ GL_NORMAL_ARRAY, GL_NORMAL_ARRAY_POINTER, 0, GL_NORMAL_ARRAY_TYPE,
	  GL_NORMAL_ARRAY_STRIDE, GL_NORMAL_ARRAY_BUFFER_BINDING, 3 },
	{ GL_COLOR_ARRAY, GL_COLOR_ARRAY_POINTER, GL_COLOR_ARRAY_SIZE, GL_COLOR_ARRAY_TYPE,
	  GL_COLOR_ARRAY_STRIDE, GL_COLOR_ARRAY_BUFFER_BINDING, 0 },
	{ GL_TEXTURE_COORD_ARRAY, GL_TEXTURE_COORD_ARRAY_POINTER, GL_TEXTURE_COORD_ARRAY_SIZE,
	  GL_TEXTURE_COORD_ARRAY_TYPE, GL_TEXTURE_COORD_ARRAY_STRIDE,
	  GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING, 0 },
	{ GL_SECONDARY_COLOR_ARRAY, GL_SECONDARY_COLOR_ARRAY_POINTER, GL_SECONDARY_COLOR_ARRAY_SIZE,
	  GL_SECONDARY_COLOR_ARRAY_TYPE, GL_SECONDARY_COLOR_ARRAY_STRIDE,
	  GL_SECONDARY_COLOR_ARRAY_BUFFER_BINDING, 0 },
	{ GL_FOG_COORD_ARRAY, GL_FOG_COORD_ARRAY_POINTER, 0, GL_FOG_COORD_ARRAY_TYPE,
	  GL_FOG_COORD_ARRAY_STRIDE, GL_FOG_COORD_ARRAY_BUFFER_BINDING, 1 },
	{ GL_EDGE_FLAG_ARRAY, GL_EDGE_FLAG_ARRAY_POINTER, 0, 0,
	  GL_EDGE_FLAG_ARRAY_STRIDE, GL_EDGE_FLAG_ARRAY_BUFFER_BINDING, 1 },
	{ GL_INDEX_ARRAY, GL_INDEX_ARRAY_POINTER, 0, GL_INDEX_ARRAY_TYPE,
	  GL_INDEX_ARRAY_STRIDE, GL_INDEX_ARRAY_BUFFER_BINDING, 1 },
};

void cap_mem_client_pointer(struct cap_ctx *x, unsigned fid, const union cap_arg *a)
{
	static const char *const names[LEGACY_ARRAYS] = {
		"glVertexPointer", "glNormalPointer", "glColorPointer", "glTexCoordPointer",
		"glSecondaryColorPointer", "glFogCoordPointer", "glEdgeFlagPointer", "glIndexPointer",
	};
	struct glapi_func_info fi;

	if (!glapi_func_info((int)fid, &fi))
		return;
	if (strncmp(fi.name, "glVertexAttrib", 14) == 0) {
		if (a[0].u < 32)
			x->client_attribs |= 1u << a[0].u;
		return;
	}
	for (unsigned i = 0; i < LEGACY_ARRAYS; i++)
		if (strncmp(fi.name, names[i], strlen(names[i])) == 0)
			x->client_legacy |= 1u << i;
}

#define VRANGE_DRAWS 64

struct vrange {
	bool known;
	int64_t lo, hi;        /* vertex indices, inclusive */
	/* Instances of each draw (command of an indirect multi-draw) that
	 * draws any: their count and base instance. */
	unsigned n_inst;
	struct { int64_t count, base; } inst[VRANGE_DRAWS];
};

static void range_add(struct vrange *r, int64_t lo, int64_t hi)
{
	if (hi < lo)
		return;
	if (!r->known) {
		r->known = true;
		r->lo = lo;
		r->hi = hi;
		return;
	}
	r->lo = lo < r->lo ? lo : r->lo;
	r->hi = hi > r->hi ? hi : r->hi;
}

/* Instances of one draw; false when more draws than vrange holds. */
static bool inst_add(struct vrange *r, int64_t count, int64_t base)
{
	if (count <= 0)
		return true;
	if (r->n_inst == VRANGE_DRAWS)
		return false;
	r->inst[r->n_inst].count = count;
	r->inst[r->n_inst].base = base;
	r->n_inst++;
	return true;
}

/* Restart index in force for `type`, or -1 when restart is off. */
static int64_t restart_index(struct cap_ctx *x, GLenum type)
{
	cap_pfn_glIsEnabled is = CAP_REAL(glIsEnabled);
	cap_pfn_glGetIntegerv gi = CAP_REAL(glGetIntegerv);
	int64_t fixed = type == GL_UNSIGNED_BYTE ? 0xff : type == GL_UNSIGNED_SHORT ? 0xffff : 0xffffffffll;
	const int v = x->major * 10 + x->minor;

	if (!is || !gi)
		return -1;
	if ((x->gles && v >= 30) || (!x->gles && v >= 43))
		if (is(GL_PRIMITIVE_RESTART_FIXED_INDEX))
			return fixed;
	if (!x->gles && v >= 31 && is(GL_PRIMITIVE_RESTART)) {
		GLint idx = 0;
		gi(GL_PRIMITIVE_RESTART_INDEX, &idx);
		return (int64_t)(uint32_t)idx;
	}
	return -1;
}

static void scan_indices(struct vrange *r, const void *data, int64_t count, GLenum type,
			 int64_t restart, int64_t basevertex)
{
	int64_t lo = INT64_MAX, hi = -1;

	for (int64_t i = 0; i < count; i++) {
		int64_t v = type == GL_UNSIGNED_BYTE ? ((const uint8_t *)data)[i] :
			    type == GL_UNSIGNED_SHORT ? ((const uint16_t *)data)[i] :
			    ((const uint32_t *)data)[i];
		if (v == restart)
			continue;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (hi >= 0)
		range_add(r, lo + basevertex, hi + basevertex);
}

/* `size` bytes at `offset` of the buffer bound to `target`, read back
 * (glGetBufferSubData; GLES has only glMapBufferRange): a sync, taken only
 * where client vertex arrays need what a buffer holds.  Zeros where the GL
 * refused (a mapped buffer, a range past its end: the error is drained by
 * the caller's stash), which draw nothing. */
static bool read_buffer(struct cap_ctx *x, GLenum target, uintptr_t offset, size_t size,
			void *dst)
{
	memset(dst, 0, size);
	if (!x->gles && CAP_REAL(glGetBufferSubData)) {
		CAP_REAL(glGetBufferSubData)(target, (GLintptr)offset, (GLsizeiptr)size, dst);
		return true;
	}
	if (!CAP_REAL(glMapBufferRange) || !CAP_REAL(glUnmapBuffer))
		return false;
	const void *p = CAP_REAL(glMapBufferRange)(target, (GLintptr)offset, (GLsizeiptr)size,
						   GL_MAP_READ_BIT);
	if (!p)
		return false;
	memcpy(dst, p, size);
	CAP_REAL(glUnmapBuffer)(target);
	return true;
}

/* Index data of a draw from the client or the bound element buffer. */
static void range_elements(struct cap_ctx *x, struct vrange *r, const void *indices,
			   int64_t count, GLenum type, int64_t basevertex, bool element_buffer)
{
	unsigned ib = cap_index_bytes(type);
	int64_t restart;
	void *tmp;

	if (!ib || count <= 0)
		return;
	restart = restart_index(x, type);
	if (!element_buffer) {
		if (indices)
			scan_indices(r, indices, count, type, restart, basevertex);
		return;
	}
	tmp = xt_malloc((size_t)count * ib);
	if (tmp && read_buffer(x, GL_ELEMENT_ARRAY_BUFFER, (uintptr_t)indices, (size_t)count * ib, tmp))
		scan_indices(r, tmp, count, type, restart, basevertex);
	xt_free(tmp);
}

static int64_t arg_i(const struct cap_call *c, int idx, int64_t dflt)
{
	return idx >= 0 ? c->a[idx].i : dflt;
}

static const void *arg_p(const struct cap_call *c, int idx)
{
	return idx >= 0 ? (const void *)(uintptr_t)c->a[idx].u : NULL;
}

/*
 * The commands of an indirect draw (GL 4.6 §10.4: DrawArraysIndirectCommand
 * { count, instanceCount, first, baseInstance }, DrawElementsIndirectCommand
 * { count, instanceCount, firstIndex, baseVertex, baseInstance }): in the
 * bound DRAW_INDIRECT_BUFFER at offset `indirect`, read back (client
 * vertex arrays with an indirect buffer: legal in a compatibility context
 * only, and rare), or, with none bound, in client memory at `indirect`.
 * An element draw's indices are in the element buffer (§10.4).
 */
static void range_indirect(struct cap_ctx *x, const struct cap_call *c, const struct cap_draw *d,
			   struct vrange *r, GLenum type, bool element_buffer)
{
	const bool elements = d->type >= 0;
	const size_t size = elements ? 20 : 16;
	const int64_t n = arg_i(c, d->drawcount, 1);
	int64_t stride = arg_i(c, d->indirect_stride, 0);
	const uint8_t *cmds = arg_p(c, d->indirect);
	uint8_t *tmp = NULL;

	if (!stride)
		stride = (int64_t)size;
	if (n <= 0 || n > VRANGE_DRAWS || stride < (int64_t)size || (elements && !element_buffer))
		return;
	if (cap_ctx_binding(x, CAP_BIND_INDIRECT)) {
		size_t bytes = (size_t)((n - 1) * stride) + size;
		tmp = xt_malloc(bytes);
		if (!tmp || !read_buffer(x, GL_DRAW_INDIRECT_BUFFER, (uintptr_t)cmds, bytes, tmp)) {
			xt_free(tmp);
			return;
		}
		cmds = tmp;
	}
	for (int64_t i = 0; cmds && i < n; i++) {
		GLuint w[5];
		memcpy(w, cmds + i * stride, size);
		if (!w[0] || !w[1])
			continue;  /* draws nothing */
		if (elements) {
			range_elements(x, r, (const void *)((uintptr_t)w[2] * cap_index_bytes(type)),
				       w[0], type, (GLint)w[3], true);
			inst_add(r, w[1], w[4]);
		} else {
			range_add(r, w[2], (int64_t)w[2] + w[0] - 1);
			inst_add(r, w[1], w[3]);
		}
	}
	xt_free(tmp);
}

/* The vertex and instance ranges a draw reads; r->known false if unknown. */
static void draw_range(struct cap_ctx *x, const struct cap_call *c, const struct cap_draw *d,
		       struct vrange *r)
{
	bool eb = cap_ctx_binding(x, CAP_BIND_ELEMENT) != 0;
	GLenum type = (GLenum)(d->type >= 0 ? c->a[d->type].u : 0);
	int64_t instances = arg_i(c, d->instances, 1);
	int64_t base = arg_i(c, d->baseinstance, 0);

	memset(r, 0, sizeof(*r));
	if (d->indirect >= 0) {
		range_indirect(x, c, d, r, type, eb);
		return;
	}
	inst_add(r, instances, base);
	if (d->first >= 0) {
		int64_t first = arg_i(c, d->first, 0), count = arg_i(c, d->count, 0);
		range_add(r, first, first + count - 1);
	} else if (d->indices >= 0) {
		range_elements(x, r, arg_p(c, d->indices), arg_i(c, d->count, 0), type,
			       arg_i(c, d->basevertex, 0), eb);
	} else if (d->multi_first >= 0) {
		const GLint *first = arg_p(c, d->multi_first);
		const GLsizei *count = arg_p(c, d->multi_count);
		for (int64_t i = 0; first && count && i < arg_i(c, d->drawcount, 0); i++)
			range_add(r, first[i], (int64_t)first[i] + count[i] - 1);
	} else if (d->multi_indices >= 0) {
		const GLsizei *count = arg_p(c, d->multi_count);
		const void *const *idx = arg_p(c, d->multi_indices);
		const GLint *bv = arg_p(c, d->multi_basevertex);
		for (int64_t i = 0; count && idx && i < arg_i(c, d->drawcount, 0); i++)
			range_elements(x, r, idx[i], count[i], type, bv ? bv[i] : 0, eb);
	}
}

static unsigned attrib_bytes(GLint size, GLenum type)
{
	switch (type) {
	case GL_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_2_10_10_10_REV:
	case GL_UNSIGNED_INT_10F_11F_11F_REV:
		return 4;
	default:
		return (unsigned)(size == GL_BGRA ? 4 : size) * cap_type_bytes(type);
	}
}

static void write_array(struct cap_thread *t, uint64_t seq, const uint8_t *ptr, GLint size,
			GLenum type, GLint stride, GLint divisor, const struct vrange *r)
{
	unsigned eb = attrib_bytes(size, type);
	int64_t lo = r->lo, hi = r->hi;

	if (!ptr || !eb)
		return;
	if (stride <= 0)
		stride = (GLint)eb;
	if (divisor > 0) {
		if (!r->n_inst)
			return;
		/* GL 4.6 §10.5: an instanced array's element for instance i
		 * is floor(i / divisor) + baseinstance, the base added after
		 * the division; the hull of the draws' elements */
		lo = INT64_MAX;
		hi = INT64_MIN;
		for (unsigned i = 0; i < r->n_inst; i++) {
			int64_t b = r->inst[i].base, e = (r->inst[i].count - 1) / divisor + b;
			lo = b < lo ? b : lo;
			hi = e > hi ? e : hi;
		}
	}
	if (lo < 0 || hi < lo)
		return;
	cap_memwrite(t, seq, ptr + lo * stride, ptr + lo * stride,
		     (size_t)((hi - lo) * stride + eb), "client-array");
}

static void draw_client_arrays(struct cap_thread *t, struct cap_call *c)
{
	static atomic_int warned;
	struct cap_ctx *x = t->ctx;
	const struct cap_fdesc *fd = &cap_funcs[c->fid];
	cap_pfn_glGetVertexAttribiv gva = CAP_REAL(glGetVertexAttribiv);
	cap_pfn_glGetVertexAttribPointerv gvp = CAP_REAL(glGetVertexAttribPointerv);
	cap_pfn_glIsEnabled is = CAP_REAL(glIsEnabled);
	cap_pfn_glGetIntegerv gi = CAP_REAL(glGetIntegerv);
	cap_pfn_glGetPointerv gp = CAP_REAL(glGetPointerv);
	struct vrange r;
	bool divisors;

	if (!x || !(x->client_attribs | x->client_legacy) || fd->draw < 0)
		return;
	divisors = x->gles ? x->major >= 3 : x->major * 10 + x->minor >= 33;
	cap_glerror_stash_ctx(x);
	draw_range(x, c, &cap_draws[fd->draw], &r);
	if (!r.known) {
		if (!atomic_exchange(&warned, 1))
			xt_warn("capture: client-side vertex arrays with a draw whose vertex range "
				"cannot be known (a transform feedback draw, or an indirect one whose "
				"commands cannot be read): not recorded");
		cap_glerror_drain_ctx(x, "client array query");
		return;
	}
	for (unsigned i = 0; gva && gvp && i < 32; i++) {
		GLint en = 0, buf = 0, size = 4, type = GL_FLOAT, stride = 0, div = 0;
		void *ptr = NULL;
		if (!(x->client_attribs & (1u << i)))
			continue;
		gva(i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &en);
		if (!en)
			continue;
		gva(i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buf);
		if (buf)
			continue;
		gva(i, GL_VERTEX_ATTRIB_ARRAY_SIZE, &size);
		gva(i, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
		gva(i, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &stride);
		if (divisors)
			gva(i, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &div);
		gvp(i, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
		write_array(t, c->seq, ptr, size, (GLenum)type, stride, div, &r);
	}
	for (unsigned i = 0; !x->gles && is && gi && gp && i < LEGACY_ARRAYS; i++) {
		const struct legacy *l = &legacy[i];
		GLint buf = 0, size = l->fixed_size, type = GL_UNSIGNED_BYTE, stride = 0;
		void *ptr = NULL;
		if (!(x->client_legacy & (1u << i)) || !is(l->array))
			continue;
		gi(l->binding, &buf);
		if (buf)
			continue;
		if (l->size)
			gi(l->size, &size);
		if (l->type)
			gi(l->type, &type);
		gi(l->stride, &stride);
		gp(l->pointer, &ptr);
		write_array(t, c->seq, ptr, size, (GLenum)type, stride, 0, &r);
	}
	cap_glerror_drain_ctx(x, "client array query");
}

/* ---- hooks ------------------------------------------------------------------- */

void cap_mem_pre(struct cap_thread *t, struct cap_call *c, unsigned hook)
{
	switch (hook) {
	case CAP_HOOK_UNMAP:
	case CAP_HOOK_NAMED_UNMAP:
		unmap_pre(t, c, hook == CAP_HOOK_NAMED_UNMAP);
		break;
	case CAP_HOOK_FLUSH_RANGE:
	case CAP_HOOK_NAMED_FLUSH_RANGE:
		flush_pre(t, c, hook == CAP_HOOK_NAMED_FLUSH_RANGE);
		break;
	case CAP_HOOK_DRAW:
		if (t->ctx)
			draw_client_arrays(t, c);
		cap_mem_sync_persistent(t, c->seq);
		break;
	case CAP_HOOK_SYNC:
		cap_mem_sync_persistent(t, c->seq);
		break;
	case CAP_HOOK_TF_STATE:
		if (c->fid == CAP_F_glDeleteBuffers || c->fid == CAP_F_glDeleteBuffersARB)
			delete_buffers_pre(t, c);
		break;
	case CAP_HOOK_EGL_DESTROY_CONTEXT:
	case CAP_HOOK_GLX_DESTROY_CONTEXT:
		destroy_context_pre(t, c);
		break;
	default:
		break;
	}
}

void cap_mem_post(struct cap_thread *t, struct cap_call *c, unsigned hook)
{
	switch (hook) {
	case CAP_HOOK_MAP:
	case CAP_HOOK_MAP_RANGE:
	case CAP_HOOK_NAMED_MAP:
	case CAP_HOOK_NAMED_MAP_RANGE:
		map_post(t, c, hook);
		break;
	default:
		break;
	}
}
