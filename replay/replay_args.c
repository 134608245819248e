/*
 * replay_args.c - recorded values to C arguments, by the parameter kinds of
 * libglapi (glapi.h), with object names remapped (replay_names.h):
 *
 *   SINT UINT ENUM BITFIELD BOOL FLOAT DOUBLE   the value (names remapped,
 *                        of the kind another argument names where the
 *                        kind depends on it: glObjectLabel)
 *   STRING, STRARRAY     NUL-terminated copies (an array of them)
 *   MEM_IN, ATTRIBS      MEMORY: an aligned copy of the recorded bytes
 *                        (arrays of names remapped); OFFSET: (void *)offset
 *   PTRARRAY             an array of pointers from an ARRAY of OFFSET /
 *                        MEMORY / NULL (glMultiDrawElements* indices)
 *   VERTEXPTR            OFFSET as above; a client address: the pointer
 *                        into the client shadow (replay_mem.h) that the
 *                        draw's MEMWRITEs will fill
 *   MEM_OUT, OUTSTRING   scratch memory the driver writes, compared or used
 *                        for names afterwards; OFFSET as above
 *   HANDLE               GLsync: remapped; others cannot be replayed
 *   POINTER              only NULL can be replayed (callbacks, opaque
 *                        pointers)
 *   UNSIZED              cannot be replayed faithfully: reported
 *
 * Hostile input: a value of a tag the kind does not allow, or sizes that
 * do not add up, is "cannot be replayed" with the reason, never a crash.
 */
#include <string.h>

#include "replay_host.h"
#include "xt_fault.h"
#include "xt_hash.h"

/* Scratch for an output whose size the trace does not know. */
#define UNKNOWN_OUT_BYTES ((size_t)1 << 20)
/* Slack beyond a recorded output size, in case the driver writes more. */
#define OUT_SLACK_BYTES 4096u
#define MAX_OUT_BYTES ((size_t)1 << 30)

static uint32_t ns_of(const struct host_ctx *x, enum glapi_object kind)
{
	switch (kind) {
	case GLAPI_O_VERTEX_ARRAY:
	case GLAPI_O_FRAMEBUFFER:
	case GLAPI_O_TRANSFORM_FEEDBACK:
	case GLAPI_O_PIPELINE:
	case GLAPI_O_QUERY:
	case GLAPI_O_ATTRIB_LOCATION:
		return x->ns;
	default:
		return x->share_ns;
	}
}

/* The program a location parameter of call `call` refers to (replay name). */
static uint64_t location_program(struct host *h, struct host_ctx *x, int id,
				 const struct trace_call *call)
{
	struct glapi_param_info pi;

	for (unsigned i = 0; i < call->nargs && glapi_param_info(id, i, &pi); i++)
		if (pi.obj == GLAPI_O_SHADER_OBJECT && pi.kind == GLAPI_K_UINT &&
		    call->args[i].tag == TRACE_TAG_UINT)
			return replay_names_get(h->names, x->share_ns, GLAPI_O_SHADER_OBJECT, 0,
						call->args[i].u);
	return x->program;
}

/* Kinds whose names are per program (aux = the program's replay name),
 * where 0 is a name like any other. */
static bool per_program(enum glapi_object kind)
{
	return kind == GLAPI_O_UNIFORM_LOCATION || kind == GLAPI_O_UNIFORM_BLOCK_INDEX;
}

static uint64_t remap(struct host *h, struct host_ctx *x, enum glapi_object kind, uint64_t aux,
		      uint64_t v)
{
	if (kind == GLAPI_O_NONE || (!per_program(kind) && v == 0))
		return v;
	return replay_names_get(h->names, ns_of(x, kind), kind, aux, v);
}

static bool integer(const struct trace_value *v, int64_t *out)
{
	switch (v->tag) {
	case TRACE_TAG_SINT: *out = v->i; return true;
	case TRACE_TAG_UINT: case TRACE_TAG_ENUM: case TRACE_TAG_BITFIELD:
		*out = (int64_t)v->u; return true;
	case TRACE_TAG_FALSE: *out = 0; return true;
	case TRACE_TAG_TRUE: *out = 1; return true;
	default: return false;
	}
}

/* The kind of a GLAPI_O_BY_ENUM name: the one its call's enum argument
 * names (glObjectLabel(GL_BUFFER, name, ...)); GLAPI_O_NONE (the name
 * passes unchanged) when that argument is no object identifier. */
static enum glapi_object kind_by_enum(const struct trace_call *call,
				      const struct glapi_param_info *pi)
{
	int64_t e;

	if (pi->obj_enum < 0 || (uint32_t)pi->obj_enum >= call->nargs ||
	    !integer(&call->args[pi->obj_enum], &e))
		return GLAPI_O_NONE;
	return glapi_object_of_enum((uint32_t)e);
}

static void *copy(struct host *h, const void *p, size_t n)
{
	void *d = xt_arena_alloc(&h->arena, n ? n : 1);
	if (d && n)
		memcpy(d, p, n);
	return d;
}

static char *cstr(struct host *h, const struct trace_value *v)
{
	char *s = xt_arena_alloc(&h->arena, v->mem.len + 1);
	if (s) {
		memcpy(s, v->mem.bytes, v->mem.len);
		s[v->mem.len] = '\0';
	}
	return s;
}

/* The recorded RET output of argument i, or NULL. */
static const struct trace_value *ret_out(const struct trace_ret *ret, uint32_t i)
{
	for (uint32_t k = 0; ret && k < ret->nouts; k++)
		if (ret->out_index[k] == i)
			return &ret->outs[k];
	return NULL;
}

/* glMultiDrawElements* indices: an array of pointers, each an element
 * buffer offset, a copy of the recorded index memory, or NULL. */
static const char *convert_ptrarray(struct host *h, const struct trace_call *call,
				    const struct glapi_param_info *pi, const struct trace_value *v,
				    union replay_arg *a)
{
	const void **list;
	int64_t n = 0;

	if (v->tag != TRACE_TAG_ARRAY)
		return "an index pointer array that is not an ARRAY (recorded by an older capture)";
	/* The GL reads as many pointers as the count argument says. */
	if (pi->len_param < 0 || (uint32_t)pi->len_param >= call->nargs ||
	    !integer(&call->args[pi->len_param], &n) || n > (int64_t)v->agg.count)
		return "an index pointer array shorter than its draw count";
	list = xt_arena_alloc(&h->arena, (v->agg.count + 1) * sizeof *list);
	if (!list)
		return "out of memory";
	for (uint32_t k = 0; k < v->agg.count; k++) {
		const struct trace_value *e = &v->agg.items[k];
		switch (e->tag) {
		case TRACE_TAG_NULL:
			list[k] = NULL;
			break;
		case TRACE_TAG_OFFSET:
			list[k] = (const void *)(uintptr_t)e->u;
			break;
		case TRACE_TAG_MEMORY:
			if (!(list[k] = copy(h, e->mem.bytes, e->mem.len)))
				return "out of memory";
			break;
		default:
			return "an index pointer that is neither MEMORY, OFFSET nor NULL";
		}
	}
	a->p = list;
	return NULL;
}

/*
 * Whether the replay's context has a buffer bound where parameter binding
 * `b` turns a pointer into an offset (GL_QUERY_BUFFER, GL_PIXEL_PACK_BUFFER
 * ...).  The replay drains its errors after every call, so the queue is
 * empty here and an error of the query (a driver without the binding) is
 * the only one drained.
 */
static bool binding_in_use(struct host *h, enum glapi_binding b)
{
	static const GLenum pnames[] = {
		[GLAPI_B_ARRAY] = GL_ARRAY_BUFFER_BINDING,
		[GLAPI_B_ELEMENT] = GL_ELEMENT_ARRAY_BUFFER_BINDING,
		[GLAPI_B_UNPACK] = GL_PIXEL_UNPACK_BUFFER_BINDING,
		[GLAPI_B_PACK] = GL_PIXEL_PACK_BUFFER_BINDING,
		[GLAPI_B_INDIRECT] = GL_DRAW_INDIRECT_BUFFER_BINDING,
		[GLAPI_B_QUERY] = GL_QUERY_BUFFER_BINDING,
	};
	void (*get)(GLenum, GLint *) = (void (*)(GLenum, GLint *))h->gl_proc("glGetIntegerv");
	GLenum (*get_error)(void) = (GLenum (*)(void))h->gl_proc("glGetError");
	GLint v = 0;

	if (b <= GLAPI_B_NONE || (size_t)b >= sizeof pnames / sizeof pnames[0] || !get || !get_error)
		return false;
	get(pnames[b], &v);
	while (get_error() != GL_NO_ERROR)
		;
	return v != 0;
}

static const char *convert_pointer(struct host *h, struct host_ctx *x, int id,
				   const struct trace_call *call,
				   const struct trace_ret *ret, const struct glapi_param_info *pi,
				   uint32_t i, struct host_args *args, int64_t *ints)
{
	const struct trace_value *v = &call->args[i];
	union replay_arg *a = &args->a[i];

	a->p = NULL;
	if (v->tag == TRACE_TAG_NULL)
		return NULL;
	if (pi->kind == GLAPI_K_PTRARRAY)
		return convert_ptrarray(h, call, pi, v, a);
	if (v->tag == TRACE_TAG_OFFSET && pi->elem == GLAPI_E_PTR) {
		/* An array of pointers (glMultiDrawElements' indices) in a trace
		 * from before the capture's `ptrarray` rule is client
		 * memory whatever is bound: only its elements are offsets into
		 * the element array buffer (GL 4.6 §10.4, MultiDrawElements).
		 * Recorded as an offset, the value is the application's address:
		 * handed to the driver it would be dereferenced (issue 21: the
		 * host replay's SIGSEGVs of glMultiDrawElements*). */
		return "an array of pointers recorded as a buffer offset: the "
		       "array's own bytes are not in the trace";
	}
	if (v->tag == TRACE_TAG_OFFSET) {
		a->p = (void *)(uintptr_t)v->u;
		args->offset[i] = true;
		return NULL;
	}
	if (v->tag == TRACE_TAG_UNSIZED)
		return "memory of unknown size (UNSIZED in the trace)";
	switch (pi->kind) {
	case GLAPI_K_STRING:
		if (v->tag != TRACE_TAG_STRING)
			return "a string argument that is not a STRING";
		return (a->p = cstr(h, v)) ? NULL : "out of memory";
	case GLAPI_K_STRARRAY: {
		if (v->tag != TRACE_TAG_ARRAY)
			return "a string array that is not an ARRAY";
		char **list = xt_arena_alloc(&h->arena, (v->agg.count + 1) * sizeof *list);
		if (!list)
			return "out of memory";
		for (uint32_t k = 0; k < v->agg.count; k++) {
			const struct trace_value *s = &v->agg.items[k];
			list[k] = s->tag == TRACE_TAG_STRING ? cstr(h, s) : NULL;
		}
		a->p = list;
		return NULL;
	}
	case GLAPI_K_VERTEXPTR:
		if (v->tag != TRACE_TAG_POINTER)
			return "a vertex pointer that is neither offset nor address";
		a->p = replay_mem_client(h->mem, v->u);
		h->client_pointers = true;
		return a->p ? NULL : "no address space left for client memory shadows";
	case GLAPI_K_MEM_OUT:
	case GLAPI_K_OUTSTRING: {
		const struct trace_value *o = ret_out(ret, i);
		size_t n = UNKNOWN_OUT_BYTES;
		if (v->tag != TRACE_TAG_POINTER)
			return "an output pointer that is not a POINTER";
		if (pi->binding != GLAPI_B_NONE && binding_in_use(h, pi->binding)) {
			/* A buffer is bound there, so the GL took the value as
			 * an offset into it, whatever the capture recorded
			 * (captures before the fix of glGetQueryObject* below
			 * GL 4.4 recorded it as a pointer): pass it on. */
			a->p = (void *)(uintptr_t)v->u;
			args->offset[i] = true;
			return NULL;
		}
		if (pi->kind == GLAPI_K_OUTSTRING) {
			/* At most what the capture's size rule says: the buffer
			 * size argument, converted before this one. */
			n = 4096;
			if (pi->len_param >= 0 && (uint32_t)pi->len_param < i)
				n = ints[pi->len_param] > 0 ? (size_t)ints[pi->len_param] : 1;
		} else if (o && (o->tag == TRACE_TAG_MEMORY || o->tag == TRACE_TAG_STRING)) {
			n = o->mem.len + OUT_SLACK_BYTES;
		}
		if (n > MAX_OUT_BYTES)
			return "an output larger than 1 GiB";
		a->p = xt_arena_alloc(&h->arena, n);
		if (!a->p)
			return "out of memory";
		memset(a->p, 0, n < 65536 ? n : 65536);
		args->out[i] = a->p;
		args->out_bytes[i] = n;
		return NULL;
	}
	case GLAPI_K_POINTER:
		return "a callback or opaque pointer";
	default:
		break;
	}
	/* MEM_IN, ATTRIBS */
	if (v->tag != TRACE_TAG_MEMORY)
		return "input memory that is not MEMORY";
	if (pi->binding == GLAPI_B_ELEMENT && pi->elem != GLAPI_E_PTR) {
		/* Index data in client memory: the driver reads count indices of
		 * type (GL 4.6 §10.4).  A trace that holds fewer bytes (a size
		 * annotation of the registry that counts elements, not bytes)
		 * would make the driver read past the copy into whatever follows. */
		int64_t count = -1;
		uint64_t type = 0;
		/* ints[] holds the arguments before i only: count and type come
		 * first in every glDraw*Elements* signature. */
		for (uint32_t k = 0; k < i; k++) {
			struct glapi_param_info q;
			if (!glapi_param_info(id, k, &q))
				continue;
			if (!strcmp(q.name, "count") && q.kind == GLAPI_K_SINT)
				count = ints[k];
			else if (!strcmp(q.name, "type") && q.kind == GLAPI_K_ENUM)
				type = (uint64_t)ints[k];
		}
		uint64_t size = type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 :
				type == GL_UNSIGNED_INT ? 4 : 0;
		if (count > 0 && size && v->mem.len < (uint64_t)count * size)
			return "index data shorter than count indices of its type (the "
			       "trace holds fewer bytes than the driver reads)";
	}
	if (pi->elem == GLAPI_E_PTR && pi->binding == GLAPI_B_ELEMENT) {
		/* Its elements are offsets only while an element array buffer
		 * is bound (GL 4.6 §10.4); otherwise they are the application's
		 * addresses of index arrays the trace holds no bytes of. */
		void (*get_int)(GLenum, GLint *) =
			(void (*)(GLenum, GLint *))h->gl_proc("glGetIntegerv");
		GLint bound = 0;
		if (get_int)
			get_int(GL_ELEMENT_ARRAY_BUFFER_BINDING, &bound);
		if (!bound)
			return "pointers into client memory that the trace does not hold";
	}
	a->p = copy(h, v->mem.bytes, v->mem.len);
	if (!a->p)
		return "out of memory";
	if (pi->obj != GLAPI_O_NONE && pi->elem == GLAPI_E_U32) {
		uint32_t *names = a->p;
		for (size_t k = 0; k < v->mem.len / 4; k++)
			names[k] = (uint32_t)remap(h, x, pi->obj, 0, names[k]);
	}
	return NULL;
}

enum xt_rc host_args_convert(struct host *h, struct host_ctx *x, int id,
			     const struct trace_call *call, const struct trace_ret *ret,
			     struct host_args *args, const char **why)
{
	int64_t ints[32];

	*why = NULL;
	if (call->nargs > 32) {
		*why = "more than 32 arguments";
		return XT_ERR_UNSUPPORTED;
	}
	memset(args->out, 0, sizeof args->out);
	memset(args->offset, 0, sizeof args->offset);
	for (uint32_t i = 0; i < call->nargs; i++) {
		const struct trace_value *v = &call->args[i];
		union replay_arg *a = &args->a[i];
		struct glapi_param_info pi;

		ints[i] = 0;
		if (!glapi_param_info(id, i, &pi)) {
			*why = "more arguments than the function has";
			return XT_ERR_UNSUPPORTED;
		}
		switch (pi.kind) {
		case GLAPI_K_SINT:
		case GLAPI_K_UINT:
		case GLAPI_K_ENUM:
		case GLAPI_K_BITFIELD:
		case GLAPI_K_BOOL:
			if (!integer(v, &ints[i])) {
				*why = "an integer argument that is not an integer";
				return XT_ERR_UNSUPPORTED;
			}
			a->i = ints[i];
			if (pi.obj == GLAPI_O_UNIFORM_LOCATION)
				a->i = (int64_t)remap(h, x, pi.obj, location_program(h, x, id, call),
						      (uint64_t)a->i);
			else if (pi.obj == GLAPI_O_UNIFORM_BLOCK_INDEX)
				a->u = remap(h, x, pi.obj, location_program(h, x, id, call),
					     (uint32_t)a->i);
			else if (pi.obj == GLAPI_O_BY_ENUM)
				a->u = remap(h, x, kind_by_enum(call, &pi), 0, (uint64_t)a->i);
			else if (pi.obj != GLAPI_O_NONE)
				a->u = remap(h, x, pi.obj, 0, (uint64_t)a->i);
			break;
		case GLAPI_K_FLOAT:
			if (v->tag != TRACE_TAG_FLOAT) {
				*why = "a float argument that is not a FLOAT";
				return XT_ERR_UNSUPPORTED;
			}
			a->f = v->f;
			break;
		case GLAPI_K_DOUBLE:
			if (v->tag != TRACE_TAG_DOUBLE) {
				*why = "a double argument that is not a DOUBLE";
				return XT_ERR_UNSUPPORTED;
			}
			a->d = v->d;
			break;
		case GLAPI_K_HANDLE:
			if (v->tag != TRACE_TAG_HANDLE && v->tag != TRACE_TAG_NULL) {
				*why = "a handle argument that is not a HANDLE";
				return XT_ERR_UNSUPPORTED;
			}
			if (v->tag == TRACE_TAG_HANDLE && v->u && pi.obj != GLAPI_O_SYNC) {
				*why = "a handle of an object the replay does not model (EGL image?)";
				return XT_ERR_UNSUPPORTED;
			}
			a->u = v->tag == TRACE_TAG_HANDLE ? remap(h, x, pi.obj, 0, v->u) : 0;
			break;
		default:
			*why = convert_pointer(h, x, id, call, ret, &pi, i, args, ints);
			if (*why)
				return XT_ERR_UNSUPPORTED;
			break;
		}
	}
	return XT_OK;
}

/* ---- program binaries ---------------------------------------------------------- */

static bool is_get_program_binary(const char *name)
{
	return !strcmp(name, "glGetProgramBinary") || !strcmp(name, "glGetProgramBinaryOES");
}

static bool is_program_binary(const char *name)
{
	return !strcmp(name, "glProgramBinary") || !strcmp(name, "glProgramBinaryOES");
}

enum xt_rc host_args_program_binary(struct host *h, struct host_ctx *x,
				    const struct trace_call *call, struct host_args *args)
{
	(void)x;
	if (is_get_program_binary(call->name) && call->nargs == 5) {
		/* (program, bufSize, length, binaryFormat, binary); the entry
		 * point is asked here, not for every call: eglGetProcAddress
		 * costs a getpid() and a lock in libglvnd. */
		PFNGLGETPROGRAMIVPROC get_programiv =
			(PFNGLGETPROGRAMIVPROC)h->gl_proc("glGetProgramiv");
		GLint need = 0;
		if (get_programiv)
			get_programiv((GLuint)args->a[0].u, GL_PROGRAM_BINARY_LENGTH, &need);
		if (need > args->a[1].i) {
			void *buf = xt_arena_alloc(&h->arena, (size_t)need);
			if (!buf)
				return XT_ERR_NOMEM;
			args->a[1].i = need;
			args->a[4].p = buf;
			args->out[4] = buf;
			args->out_bytes[4] = (size_t)need;
		}
	} else if (is_program_binary(call->name) && call->nargs == 4 && args->a[2].p &&
		   args->a[3].i > 0) {
		/* (program, binaryFormat, binary, length) */
		uint64_t hash = xt_hash64(args->a[2].p, (size_t)args->a[3].i);
		for (size_t i = 0; i < h->nbinaries; i++) {
			const struct host_binary *b = &h->binaries[i];
			if (b->rec_hash == hash) {
				args->a[1].u = b->format;
				args->a[2].p = b->bytes;
				args->a[3].i = (int64_t)b->len;
				break;
			}
		}
	}
	return XT_OK;
}

/* After glGetProgramBinary: keeps the replay's binary under the hash of the
 * recorded one. */
static void learn_program_binary(struct host *h, const struct trace_ret *ret,
				 const struct host_args *args)
{
	const struct trace_value *rec = ret_out(ret, 4);
	const GLsizei *len = args->out[2];
	const GLenum *format = args->out[3];
	struct host_binary *n;

	if (!rec || (rec->tag != TRACE_TAG_MEMORY && rec->tag != TRACE_TAG_BLOB) || !len || !format ||
	    !args->a[4].p || *len <= 0 || (size_t)*len > args->out_bytes[4])
		return;
	n = xt_realloc(h->binaries, (h->nbinaries + 1) * sizeof *n);
	if (!n)
		return;
	h->binaries = n;
	n += h->nbinaries;
	n->bytes = xt_malloc((size_t)*len);
	if (!n->bytes)
		return;
	memcpy(n->bytes, args->a[4].p, (size_t)*len);
	n->len = (size_t)*len;
	n->format = *format;
	n->rec_hash = xt_hash64(rec->mem.bytes, rec->mem.len);
	h->nbinaries++;
}

void host_args_fini(struct host *h)
{
	for (size_t i = 0; i < h->nbinaries; i++)
		xt_free(h->binaries[i].bytes);
	xt_free(h->binaries);
	h->binaries = NULL;
	h->nbinaries = 0;
}

void host_args_learn(struct host *h, struct host_ctx *x, int id, const struct trace_call *call,
		     const struct trace_ret *ret, const struct host_args *args,
		     const union replay_arg *rv)
{
	struct glapi_func_info fi;

	if (!glapi_func_info(id, &fi))
		return;
	if (is_get_program_binary(call->name) && call->nargs == 5)
		learn_program_binary(h, ret, args);
	if (fi.ret_obj != GLAPI_O_NONE && ret) {
		const struct trace_value *r = &ret->ret;
		int64_t rec;
		uint64_t aux = per_program(fi.ret_obj) ? location_program(h, x, id, call) : 0;
		if (r->tag == TRACE_TAG_HANDLE)
			replay_names_set(h->names, ns_of(x, fi.ret_obj), fi.ret_obj, aux, r->u,
					 rv->u);
		else if (integer(r, &rec) && (rec != 0 || per_program(fi.ret_obj)))
			replay_names_set(h->names, ns_of(x, fi.ret_obj), fi.ret_obj, aux,
					 (uint64_t)rec, fi.ret_obj == GLAPI_O_UNIFORM_LOCATION ||
					 fi.ret_obj == GLAPI_O_ATTRIB_LOCATION ?
					 (uint64_t)(int64_t)(int32_t)rv->u : (uint32_t)rv->u);
	}
	for (uint32_t i = 0; i < call->nargs && i < 32; i++) {
		struct glapi_param_info pi;
		const struct trace_value *o;
		if (!args->out[i] || !glapi_param_info(id, i, &pi) || pi.obj == GLAPI_O_NONE ||
		    pi.elem != GLAPI_E_U32 || !(o = ret_out(ret, i)) || o->tag != TRACE_TAG_MEMORY)
			continue;
		for (size_t k = 0; k + 4 <= o->mem.len && k + 4 <= args->out_bytes[i]; k += 4) {
			uint32_t rec, rep;
			memcpy(&rec, o->mem.bytes + k, 4);
			memcpy(&rep, (const uint8_t *)args->out[i] + k, 4);
			if (rec)
				replay_names_set(h->names, ns_of(x, pi.obj), pi.obj, 0, rec, rep);
		}
	}
}
