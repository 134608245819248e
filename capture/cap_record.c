/*
 * cap_record.c - the generic, table-driven recorder: CALL and RET records
 * from the descriptors of specs/gen_glapi.py (cap_desc.h), THREAD,
 * PROPERTY and MEMWRITE records, and the record services of cap_observe.h.
 *
 * Format: trace_format.h.  The hot path (cap_call_enter for a call with
 * scalar arguments only) is: thread-local depth check, one relaxed load of
 * the run state, one atomic fetch_add for the call number, a reserve of a
 * precomputed bound in the thread's spool region, a switch per argument
 * and a commit.  Calls with memory arguments first size every argument
 * (pass 1) and then encode (pass 2) into one reservation.
 *
 * Memory the application passes is read as it is at the call: a pointer
 * whose extent cannot be known is recorded UNSIZED with the reason, never
 * guessed.  Sizes above CAP_MAX_MEMORY are refused the same way: reading
 * them would more likely fault than record something useful.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cap_observe.h"
#include "cap_state.h"
#include "glapi.h"
#include "trace_enc.h"

#define CAP_MAX_MEMORY ((size_t)1 << 30)
#define CAP_MAX_PARAMS 32
#define CAP_MAX_ATTRIBS 4096

/* How one pointer argument is encoded. */
enum how {
	HOW_SCALAR = 0,
	HOW_NULL,
	HOW_POINTER,
	HOW_OFFSET,
	HOW_MEMORY,
	HOW_UNSIZED,
	HOW_STRING,
	HOW_STRARRAY,
	HOW_PTRARRAY,
};

struct plan {
	uint8_t how;
	bool offsets;      /* PTRARRAY: the pointers are element buffer offsets */
	size_t n;          /* bytes of MEMORY / STRING, bound for STRARRAY / PTRARRAY */
	const char *why;   /* UNSIZED */
};

uint8_t *cap_reserve(struct cap_thread *t, size_t max_payload)
{
	uint8_t *p;

	if (!t->stream || atomic_load_explicit(&cap_g.state, memory_order_relaxed) != CAP_ON)
		return NULL;
	p = trace_spool_reserve(t->stream, max_payload);
	if (!p) {
		struct xt_err e;
		trace_spool_last_error(cap_g.spool, &e);
		cap_stop("the trace cannot grow: %s", xt_err_msg(&e));
	}
	return p;
}

void cap_commit(struct cap_thread *t, uint16_t type, uint16_t flags,
		uint64_t seq, size_t payload_bytes)
{
	trace_spool_commit(t->stream, type, flags, seq, payload_bytes);
}

void cap_property(struct cap_thread *t, uint64_t seq, const char *key,
		  const char *value, size_t value_len)
{
	size_t klen = strlen(key);
	uint8_t *p = cap_reserve(t, 2 * TRACE_ENC_MAX_BYTES_PREFIX + klen + value_len);
	uint8_t *s = p;

	if (!p)
		return;
	p = trace_enc_string(p, key, klen);
	p = trace_enc_string(p, value, value_len);
	cap_commit(t, TRACE_REC_PROPERTY, 0, seq, (size_t)(p - s));
}

void cap_memwrite(struct cap_thread *t, uint64_t seq, const void *addr,
		  const void *data, size_t n, const char *why)
{
	size_t wlen = strlen(why);
	uint8_t *p = cap_reserve(t, 64 + n + wlen);
	uint8_t *s = p;

	if (!p)
		return;
	p = trace_enc_map(p, 3);
	p = trace_enc_key(p, "addr");
	p = trace_enc_uint(p, (uintptr_t)addr);
	p = trace_enc_key(p, "data");
	p = trace_enc_blob(p, data, n);
	p = trace_enc_key(p, "why");
	p = trace_enc_string(p, why, wlen);
	cap_commit(t, TRACE_REC_MEMWRITE, TRACE_RECF_ATTACHED, seq, (size_t)(p - s));
}

static void announce_thread(struct cap_thread *t, uint64_t seq)
{
	char name[64] = "";
	size_t nlen;
	uint8_t *p, *s;

	t->announce = false;
	pthread_getname_np(pthread_self(), name, sizeof(name));
	nlen = strnlen(name, sizeof(name));
	p = s = cap_reserve(t, 64 + nlen);
	if (!p)
		return;
	p = trace_enc_map(p, 3);
	p = trace_enc_key(p, "thread");
	p = trace_enc_uint(p, t->thread_no);
	p = trace_enc_key(p, "tid");
	p = trace_enc_uint(p, (uint64_t)syscall(SYS_gettid));
	p = trace_enc_key(p, "name");
	p = trace_enc_string(p, name, nlen);
	cap_commit(t, TRACE_REC_THREAD, 0, seq, (size_t)(p - s));
}

static inline const void *ptr_of(const union cap_arg *a)
{
	return (const void *)(uintptr_t)a->u;
}

static size_t funcdef_bytes(unsigned fid)
{
	struct glapi_func_info fi;
	struct glapi_param_info pi;
	size_t n;

	glapi_func_info((int)fid, &fi);
	n = TRACE_ENC_MAX_BYTES_PREFIX + strlen(fi.name) + TRACE_ENC_MAX_VARINT;
	for (unsigned i = 0; i < fi.nparams; i++) {
		glapi_param_info((int)fid, i, &pi);
		n += TRACE_ENC_MAX_VARINT + strlen(pi.name);
	}
	return n;
}

static uint8_t *enc_funcdef(uint8_t *p, unsigned fid)
{
	struct glapi_func_info fi;
	struct glapi_param_info pi;

	glapi_func_info((int)fid, &fi);
	p = trace_enc_lenbytes(p, fi.name, strlen(fi.name));
	p = trace_enc_varint(p, fi.nparams);
	for (unsigned i = 0; i < fi.nparams; i++) {
		glapi_param_info((int)fid, i, &pi);
		p = trace_enc_lenbytes(p, pi.name, strlen(pi.name));
	}
	return p;
}

/* Extent of a terminated attribute list, or SIZE_MAX. */
static size_t attribs_bytes(const struct cap_pdesc *d, const void *list)
{
	for (size_t i = 0; i < CAP_MAX_ATTRIBS; i += 2) {
		int64_t key = d->elem_bytes == 8 ? ((const int64_t *)list)[i]
						 : ((const int32_t *)list)[i];
		if (key == (int64_t)(int32_t)d->k || key == (int64_t)d->k)
			return (i + 1) * d->elem_bytes;
	}
	return SIZE_MAX;
}

static size_t glxvisual_bytes(const int32_t *list)
{
	size_t i = 0;

	while (i < CAP_MAX_ATTRIBS) {
		int32_t key = list[i++];
		if (key == 0)
			return i * 4;
		/* GLX_USE_GL, GLX_RGBA, GLX_DOUBLEBUFFER, GLX_STEREO take no value. */
		if (key != 1 && key != 4 && key != 5 && key != 6)
			i++;
	}
	return SIZE_MAX;
}

/* Bound of an ARRAY of `count` strings without their bytes, or SIZE_MAX. */
static size_t strarray_bound(int64_t count)
{
	if (count < 0 || count > 65536)
		return SIZE_MAX;
	return TRACE_ENC_MAX_SCALAR + (size_t)count * TRACE_ENC_MAX_BYTES_PREFIX;
}

/*
 * glMultiDrawElements* indices (CAP_LEN_PTRARRAY): an ARRAY of one item per
 * draw, each an OFFSET into the bound element buffer, or the MEMORY of its
 * count[i] indices, or NULL.  `pl->offsets` says which; `pl->n` is the
 * encoding's bound.
 */
static void plan_ptrarray(struct cap_ctx *x, const struct cap_pdesc *d, const union cap_arg *a,
			  const void *ptr, struct plan *pl)
{
	const void *const *ptrs = ptr;
	const GLsizei *counts = ptr_of(&a[d->p[0]]);
	unsigned ib = cap_index_bytes((uint32_t)a[d->p[1]].u);
	int64_t n = a[d->p[2]].i;

	pl->how = HOW_PTRARRAY;
	pl->n = 0;
	pl->offsets = x && d->binding && cap_ctx_binding(x, d->binding);
	if (!ptr) {
		pl->how = HOW_NULL;
		return;
	}
	pl->n = strarray_bound(n);
	if (pl->n == SIZE_MAX || !counts || (!ib && !pl->offsets)) {
		pl->how = HOW_UNSIZED;
		pl->why = pl->n == SIZE_MAX ? "draw count out of range" :
			  !counts ? "no count array" : "unknown index type";
		return;
	}
	pl->n += (size_t)n * TRACE_ENC_MAX_MEMORY_PREFIX;
	for (int64_t k = 0; k < n && !pl->offsets; k++) {
		if (ptrs[k] && counts[k] > 0)
			pl->n += (size_t)counts[k] * ib;
		if (pl->n > CAP_MAX_MEMORY) {
			pl->how = HOW_UNSIZED;
			pl->why = "size above the 1 GiB recording limit";
			return;
		}
	}
}

/* Pass 1: how each IN/OUT argument is encoded and its size bound. */
static size_t plan_args(struct cap_call *c, const struct cap_fdesc *fd,
			const struct cap_pdesc *pd, struct plan *pl)
{
	struct cap_ctx *x = cap_tls.ctx;
	size_t total = 0;

	for (unsigned i = 0; i < fd->nparams; i++) {
		const struct cap_pdesc *d = &pd[i];
		const void *ptr = ptr_of(&c->a[i]);

		pl[i].how = HOW_SCALAR;
		if (d->kind != CAP_K_IN && d->kind != CAP_K_OUT)
			continue;
		if (d->len == CAP_LEN_PTRARRAY) {
			plan_ptrarray(x, d, c->a, ptr, &pl[i]);
			total += pl[i].how == HOW_UNSIZED ? strlen(pl[i].why) : pl[i].n;
			continue;
		}
		if (d->binding && x && cap_ctx_binding(x, d->binding)) {
			pl[i].how = HOW_OFFSET;
			c->offsets |= 1u << i;
			continue;
		}
		if (d->kind == CAP_K_OUT || d->len == CAP_LEN_VERTEXPTR) {
			pl[i].how = HOW_POINTER;
			if (d->len == CAP_LEN_VERTEXPTR && ptr && x)
				cap_mem_client_pointer(x, c->fid, c->a);
			continue;
		}
		if (!ptr) {
			pl[i].how = HOW_NULL;
			continue;
		}
		pl[i].how = HOW_MEMORY;
		switch (d->len) {
		case CAP_LEN_STRING:
			pl[i].how = HOW_STRING;
			pl[i].n = strlen(ptr);
			break;
		case CAP_LEN_LENSTRING:
			pl[i].how = HOW_STRING;
			pl[i].n = cap_lenstring_chars(d, c->a, ptr);
			if (pl[i].n > CAP_MAX_MEMORY) {
				pl[i].how = HOW_UNSIZED;
				pl[i].why = "size above the 1 GiB recording limit";
			}
			break;
		case CAP_LEN_STRARRAY: {
			const char *const *strs = ptr;
			const int32_t *lens = d->p[1] != 0xff ? ptr_of(&c->a[d->p[1]]) : NULL;
			int64_t count = c->a[d->p[0]].i;
			pl[i].how = HOW_STRARRAY;
			pl[i].n = strarray_bound(count);
			if (pl[i].n == SIZE_MAX) {
				pl[i].how = HOW_UNSIZED;
				pl[i].why = "string count out of range";
				break;
			}
			for (int64_t k = 0; k < count; k++) {
				if (!strs[k])
					continue;
				pl[i].n += lens && lens[k] >= 0 ? (size_t)lens[k] : strlen(strs[k]);
			}
			break;
		}
		case CAP_LEN_ATTRIBS:
			pl[i].n = attribs_bytes(d, ptr);
			pl[i].why = "no terminator within 4096 attributes";
			break;
		case CAP_LEN_GLXVISUAL:
			pl[i].n = glxvisual_bytes(ptr);
			pl[i].why = "no terminator within 4096 attributes";
			break;
		case CAP_LEN_UNSIZED:
			pl[i].n = SIZE_MAX;
			pl[i].why = d->why;
			break;
		default:
			pl[i].n = cap_size(x, d, c->a, false, &pl[i].why);
			break;
		}
		if (pl[i].how == HOW_MEMORY && pl[i].n > CAP_MAX_MEMORY) {
			if (pl[i].n != SIZE_MAX)
				pl[i].why = "size above the 1 GiB recording limit";
			pl[i].how = HOW_UNSIZED;
		}
		if (pl[i].how == HOW_UNSIZED)
			total += strlen(pl[i].why);
		else
			total += pl[i].n;
	}
	return total;
}

static uint8_t *enc_scalar(uint8_t *p, const struct cap_pdesc *d, const union cap_arg *a)
{
	switch (d->kind) {
	case CAP_K_SINT:
		return trace_enc_sint(p, a->i);
	case CAP_K_UINT:
		return trace_enc_uint(p, a->u);
	case CAP_K_ENUM:
		return trace_enc_enum(p, (uint32_t)a->u);
	case CAP_K_BITFIELD:
		return trace_enc_bitfield(p, (uint32_t)a->u);
	case CAP_K_BOOL:
		return trace_enc_bool(p, d->elem_bytes == 1 ? (uint8_t)a->u != 0 : (uint32_t)a->u != 0);
	case CAP_K_FLOAT:
		return trace_enc_float(p, a->f);
	case CAP_K_DOUBLE:
		return trace_enc_double(p, a->d);
	case CAP_K_HANDLE:
		return trace_enc_handle(p, a->u);
	default:
		return trace_enc_pointer(p, ptr_of(a));
	}
}

static uint8_t *enc_planned(uint8_t *p, const struct cap_pdesc *d,
			    const union cap_arg *args, unsigned i, const struct plan *pl)
{
	const void *ptr = ptr_of(&args[i]);

	switch (pl->how) {
	case HOW_NULL:
		return trace_enc_null(p);
	case HOW_POINTER:
		return trace_enc_pointer(p, ptr);
	case HOW_OFFSET:
		return trace_enc_offset(p, args[i].u);
	case HOW_MEMORY:
		return trace_enc_memory(p, ptr, ptr, pl->n);
	case HOW_UNSIZED:
		return trace_enc_unsized(p, ptr, pl->why);
	case HOW_STRING:
		return trace_enc_string(p, ptr, pl->n);
	case HOW_STRARRAY: {
		const char *const *strs = ptr;
		const int32_t *lens = d->p[1] != 0xff ? ptr_of(&args[d->p[1]]) : NULL;
		int64_t count = args[d->p[0]].i;
		p = trace_enc_array(p, (uint64_t)count);
		for (int64_t k = 0; k < count; k++) {
			if (!strs[k])
				p = trace_enc_null(p);
			else
				p = trace_enc_string(p, strs[k], lens && lens[k] >= 0 ?
						     (size_t)lens[k] : strlen(strs[k]));
		}
		return p;
	}
	case HOW_PTRARRAY: {
		const void *const *ptrs = ptr;
		const GLsizei *counts = ptr_of(&args[d->p[0]]);
		unsigned ib = cap_index_bytes((uint32_t)args[d->p[1]].u);
		int64_t count = args[d->p[2]].i;
		p = trace_enc_array(p, (uint64_t)count);
		for (int64_t k = 0; k < count; k++) {
			if (pl->offsets)
				p = trace_enc_offset(p, (uintptr_t)ptrs[k]);
			else if (!ptrs[k])
				p = trace_enc_null(p);
			else
				p = trace_enc_memory(p, ptrs[k], ptrs[k],
						     counts[k] > 0 ? (size_t)counts[k] * ib : 0);
		}
		return p;
	}
	default:
		return enc_scalar(p, d, &args[i]);
	}
}

/* The CALL payload's head: function, thread, the function's def at its
 * first call in this thread, argument count. */
static inline uint8_t *call_head(const struct cap_thread *t, uint8_t *p, unsigned fid, bool def,
				 unsigned nparams)
{
	p = trace_enc_u32(p, fid);
	p = trace_enc_u32(p, t->thread_no);
	if (def)
		p = enc_funcdef(p, fid);
	return trace_enc_u32(p, nparams);
}

/* Commits the CALL record [s, p) and notes the def as written. */
static inline void call_commit(struct cap_thread *t, const struct cap_call *c, const uint8_t *s,
			       const uint8_t *p, bool def)
{
	cap_commit(t, TRACE_REC_CALL, TRACE_RECF_ATTACHED | (def ? TRACE_RECF_FUNCDEF : 0),
		   c->seq, (size_t)(p - s));
	if (def)
		t->funcdef_seen[c->fid >> 3] |= (uint8_t)(1u << (c->fid & 7));
}

/* record_call() for a function whose arguments are all scalars (most calls):
 * no plan, one pass. */
static void record_scalar_call(struct cap_thread *t, struct cap_call *c,
			       const struct cap_fdesc *fd, bool def)
{
	const struct cap_pdesc *pd = &cap_params[fd->first];
	const unsigned fid = c->fid;
	uint8_t *p, *s;

	p = s = cap_reserve(t, fd->fixed_bytes + (def ? funcdef_bytes(fid) : 0));
	if (!p)
		return;
	p = call_head(t, p, fid, def, fd->nparams);
	for (unsigned i = 0; i < fd->nparams; i++)
		p = enc_scalar(p, &pd[i], &c->a[i]);
	call_commit(t, c, s, p, def);
}

static void record_call(struct cap_thread *t, struct cap_call *c, const struct cap_fdesc *fd)
{
	const struct cap_pdesc *pd = &cap_params[fd->first];
	const unsigned fid = c->fid;
	const bool def = !(t->funcdef_seen[fid >> 3] & (1u << (fid & 7)));
	struct plan pl[CAP_MAX_PARAMS];
	size_t max = fd->fixed_bytes;
	uint8_t *p, *s;

	if (!(fd->flags & (CAP_FD_VARIABLE | CAP_FD_OUTS))) {
		record_scalar_call(t, c, fd, def);
		return;
	}
	if (fd->flags & CAP_FD_VARIABLE) {
		if (fd->nparams > CAP_MAX_PARAMS)
			return;
		max += plan_args(c, fd, pd, pl);
	} else if (fd->nparams <= CAP_MAX_PARAMS) {
		for (unsigned i = 0; i < fd->nparams; i++) {
			pl[i].how = HOW_SCALAR;
			if (pd[i].kind == CAP_K_OUT)
				pl[i].how = ptr_of(&c->a[i]) ? HOW_POINTER : HOW_NULL;
		}
		if (fd->flags & CAP_FD_OUTS)
			plan_args(c, fd, pd, pl);
	}
	if (def)
		max += funcdef_bytes(fid);
	p = s = cap_reserve(t, max);
	if (!p)
		return;
	p = call_head(t, p, fid, def, fd->nparams);
	for (unsigned i = 0; i < fd->nparams; i++) {
		if (pl[i].how == HOW_SCALAR)
			p = enc_scalar(p, &pd[i], &c->a[i]);
		else
			p = enc_planned(p, &pd[i], c->a, i, &pl[i]);
	}
	call_commit(t, c, s, p, def);
}

static void record_ret(struct cap_thread *t, struct cap_call *c, const struct cap_fdesc *fd)
{
	const struct cap_pdesc *pd = &cap_params[fd->first];
	struct cap_ctx *x = t->ctx;
	struct plan pl[CAP_MAX_PARAMS];
	size_t max = 2 * 4 + TRACE_ENC_MAX_SCALAR;
	const char *rs = NULL;
	size_t rlen = 0;
	unsigned nouts = 0;
	uint8_t *p, *s;

	if (fd->ret_kind == CAP_K_STRING && (rs = ptr_of(&c->ret)) != NULL) {
		rlen = strlen(rs);
		max += TRACE_ENC_MAX_BYTES_PREFIX + rlen;
	}
	for (unsigned i = 0; i < fd->nparams && i < CAP_MAX_PARAMS; i++) {
		const struct cap_pdesc *d = &pd[i];
		const void *ptr = ptr_of(&c->a[i]);

		pl[i].how = HOW_SCALAR;
		if (d->kind != CAP_K_OUT || !ptr || (c->offsets & (1u << i)))
			continue;
		nouts++;
		if (d->len == CAP_LEN_OUTSTRING) {
			int64_t cap = c->a[d->p[0]].i;
			pl[i].how = HOW_STRING;
			pl[i].n = cap > 0 ? strnlen(ptr, (size_t)cap) : 0;
		} else if (d->len == CAP_LEN_UNSIZED || d->len == CAP_LEN_NONE) {
			pl[i].how = HOW_UNSIZED;
			pl[i].why = d->why ? d->why : "no length in registry";
		} else {
			pl[i].how = HOW_MEMORY;
			pl[i].n = cap_size(x, d, c->a, true, &pl[i].why);
			if (pl[i].n > CAP_MAX_MEMORY) {
				if (pl[i].n != SIZE_MAX)
					pl[i].why = "size above the 1 GiB recording limit";
				pl[i].how = HOW_UNSIZED;
			}
		}
		max += 4 + TRACE_ENC_MAX_MEMORY_PREFIX +
		       (pl[i].how == HOW_UNSIZED ? strlen(pl[i].why) : pl[i].n);
	}
	p = s = cap_reserve(t, max);
	if (!p)
		return;
	p = trace_enc_u32(p, t->thread_no);
	switch (fd->ret_kind) {
	case CAP_K_VOID:
		p = trace_enc_null(p);
		break;
	case CAP_K_STRING:
		p = rs ? trace_enc_string(p, rs, rlen) : trace_enc_null(p);
		break;
	default: {
		struct cap_pdesc rd = { .kind = fd->ret_kind, .elem_bytes = 4 };
		p = enc_scalar(p, &rd, &c->ret);
		break;
	}
	}
	p = trace_enc_u32(p, nouts);
	for (unsigned i = 0; i < fd->nparams && i < CAP_MAX_PARAMS; i++) {
		if (pl[i].how == HOW_SCALAR)
			continue;
		p = trace_enc_u32(p, i);
		p = enc_planned(p, &pd[i], c->a, i, &pl[i]);
	}
	cap_commit(t, TRACE_REC_RET, TRACE_RECF_ATTACHED, c->seq, (size_t)(p - s));
}

void cap_call_enter(struct cap_call *c, unsigned fid, const union cap_arg *a)
{
	struct cap_thread *t = &cap_tls;
	const struct cap_fdesc *fd = &cap_funcs[fid];

	c->fid = fid;
	c->a = a;
	c->rec = false;
	c->offsets = 0;
	if (t->depth++ != 0)
		return;
	if (__builtin_expect(atomic_load_explicit(&cap_g.state, memory_order_relaxed) != CAP_ON ||
			     t->gen != atomic_load_explicit(&cap_g.gen, memory_order_relaxed), 0)) {
		if (!cap_thread_begin(t))
			return;
	}
	c->seq = atomic_fetch_add_explicit(&cap_g.next_seq, 1, memory_order_relaxed);
	c->rec = true;
	if (__builtin_expect(t->announce, 0))
		announce_thread(t, c->seq);
	if (fd->hook) {
		cap_ctx_pre(t, c, fd->hook);
		cap_mem_pre(t, c, fd->hook);
	}
	if (fd->writes && cap_g.observe)
		cap_observe_before_write(c->seq, fd->writes, fd->write_arg, c->a);
	record_call(t, c, fd);
}

void cap_call_leave(struct cap_call *c)
{
	struct cap_thread *t = &cap_tls;

	if (c->rec) {
		const struct cap_fdesc *fd = &cap_funcs[c->fid];
		if (fd->flags & (CAP_FD_RET | CAP_FD_OUTS))
			record_ret(t, c, fd);
		if (fd->hook) {
			cap_ctx_post(t, c, fd->hook);
			cap_mem_post(t, c, fd->hook);
		}
	} else if (cap_funcs[c->fid].hook >= CAP_HOOK_PROGRAM) {
		/* Not recorded (a GL call made inside another one, e.g. from a
		 * debug callback, or capture not running): what observations
		 * cached must still be forgotten. */
		cap_ctx_post_unrecorded(c, cap_funcs[c->fid].hook);
	}
	t->depth--;
}

/* ---- services for observations (cap_observe.h) ------------------------- */

uint8_t *cap_rec_reserve(size_t max_payload)
{
	struct cap_thread *t = &cap_tls;

	if (t->gen != atomic_load_explicit(&cap_g.gen, memory_order_relaxed))
		return NULL;
	return cap_reserve(t, max_payload);
}

void cap_rec_commit(uint16_t type, uint16_t flags, uint64_t seq, size_t n)
{
	cap_commit(&cap_tls, type, flags, seq, n);
}

bool cap_observe_enabled(void)
{
	return cap_g.observe && atomic_load(&cap_g.state) == CAP_ON;
}
