/*
 * replay_obs.c - what the host and sim backends do after a GL call besides
 * executing it: the observations (through the observation core the capture
 * uses, observe/obs.h, so the records are made at the same points and in
 * the same form), the mappings whose bytes later MEMWRITEs fill, and the
 * comparison of the values the driver returned to the application (the GL
 * error queue behind recorded glGetError calls is replay_errors.c).
 *
 * Returned values compared (deterministic for a given driver and trace):
 * glGetError results, compile / link / validate status, the program's TF
 * varying count, mode and name length, glGetTransformFeedbackVarying,
 * the TF object's paused / active state, glIs* and
 * glCheckFramebufferStatus.  Every other returned value (limits, strings,
 * extension lists, pointers, implementation-chosen locations) is counted as
 * "not compared".  Names and locations the driver hands out are not compared
 * but remapped (replay_names.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "obs.h"
#include "trace_layout.h"
#include "xt_log.h"
#include "replay_host.h"

void (*host_gl_proc(const char *name))(void)
{
	return (void (*)(void))eglGetProcAddress(name);
}

/* ---- the observation core's view of the replay ----------------------- */

struct obs_user {
	struct host *h;
	struct replay *rp;
	struct host_ctx *x;
};

static uint8_t *sink_reserve(void *user, size_t max_payload)
{
	return replay_obs_reserve(((struct obs_user *)user)->rp, max_payload);
}

static bool name_in(const struct host_name *list, unsigned n, uint32_t ns, uint32_t name)
{
	for (unsigned i = 0; i < n; i++)
		if (list[i].ns == ns && list[i].name == name)
			return true;
	return false;
}

static void sink_commit(void *user, uint64_t seq, size_t n)
{
	struct obs_user *u = user;
	bool timing = false;

	for (unsigned i = 0; i < u->h->ntainted; i++)
		timing |= u->h->tainted[i].ns == u->x->share_ns;
	replay_obs_commit(u->rp, seq, n, timing);
}

static void err_stash(void *user)
{
	/* Errors of the replayed call were collected right after it. */
}

static void err_drain(void *user, const char *what)
{
	const struct obs_gl *gl = &((struct obs_user *)user)->h->obs_gl;
	for (int i = 0; i < 8 && gl->GetError() != GL_NO_ERROR; i++)
		;
}

static uint32_t app_name(void *user, enum obs_object kind, uint32_t name)
{
	struct obs_user *u = user;
	static const enum glapi_object kinds[] = {
		[OBS_OBJ_BUFFER] = GLAPI_O_BUFFER,
		[OBS_OBJ_PROGRAM] = GLAPI_O_SHADER_OBJECT,
		[OBS_OBJ_QUERY] = GLAPI_O_QUERY,
	};
	uint32_t ns = kind == OBS_OBJ_QUERY ? u->x->ns : u->x->share_ns;

	return (uint32_t)replay_names_app(u->h->names, ns, kinds[kind], 0, name);
}

#define PROC(member, name) gl->member = (__typeof__(gl->member))h->gl_proc(name)

bool host_obs_gl(struct host *h)
{
	struct obs_gl *gl = &h->obs_gl;

	if (!h->obs_gl_ready) {
		PROC(GetIntegerv, "glGetIntegerv");
		PROC(GetIntegeri_v, "glGetIntegeri_v");
		PROC(GetInteger64i_v, "glGetInteger64i_v");
		PROC(GetError, "glGetError");
		PROC(GetProgramiv, "glGetProgramiv");
		PROC(GetProgramPipelineiv, "glGetProgramPipelineiv");
		PROC(GetProgramInterfaceiv, "glGetProgramInterfaceiv");
		PROC(GetProgramResourceiv, "glGetProgramResourceiv");
		PROC(GetTransformFeedbackVarying, "glGetTransformFeedbackVarying");
		PROC(BindBuffer, "glBindBuffer");
		PROC(GetBufferParameteriv, "glGetBufferParameteriv");
		PROC(GetBufferParameteri64v, "glGetBufferParameteri64v");
		PROC(GetBufferSubData, "glGetBufferSubData");
		PROC(MapBufferRange, "glMapBufferRange");
		PROC(UnmapBuffer, "glUnmapBuffer");
		PROC(GetQueryObjectui64v, "glGetQueryObjectui64v");
		PROC(GetBufferPointerv, "glGetBufferPointerv");
		PROC(MemoryBarrier, "glMemoryBarrier");
		PROC(Finish, "glFinish");
		PROC(ReadPixels, "glReadPixels");
		PROC(PixelStorei, "glPixelStorei");
		PROC(BindFramebuffer, "glBindFramebuffer");
		PROC(ReadBuffer, "glReadBuffer");
		PROC(GetFramebufferAttachmentParameteriv, "glGetFramebufferAttachmentParameteriv");
		PROC(GetRenderbufferParameteriv, "glGetRenderbufferParameteriv");
		PROC(BindRenderbuffer, "glBindRenderbuffer");
		PROC(GetTextureLevelParameteriv, "glGetTextureLevelParameteriv");
		PROC(GetActiveUniformBlockiv, "glGetActiveUniformBlockiv");
		PROC(GetActiveUniformBlockName, "glGetActiveUniformBlockName");
		PROC(GetActiveUniformsiv, "glGetActiveUniformsiv");
		PROC(GetActiveUniform, "glGetActiveUniform");
		PROC(IsProgram, "glIsProgram");
		h->obs_gl_ready = true;
	}
	return gl->GetIntegerv && gl->GetIntegeri_v && gl->GetInteger64i_v && gl->GetError &&
	       gl->GetProgramiv && gl->GetTransformFeedbackVarying && gl->BindBuffer &&
	       gl->GetBufferParameteriv && gl->GetBufferParameteri64v && gl->GetBufferSubData &&
	       gl->MapBufferRange && gl->UnmapBuffer && gl->GetQueryObjectui64v;
}

static bool obs_context(struct host *h, struct replay *rp, struct host_ctx *x,
			struct obs_ctx *c, struct obs_user *u)
{
	struct obs_gl *gl = &h->obs_gl;

	/* Nobody compares or keeps observations: reading them back would
	 * only add driver work (maps, queries) to the replay. */
	if (!replay_observing(rp))
		return false;
	if (!host_obs_gl(h))
		return false;
	*u = (struct obs_user){ h, rp, x };
	*c = (struct obs_ctx){
		.gl = gl, .gles = x->gles, .major = x->major, .minor = x->minor,
		.reserve = sink_reserve, .commit = sink_commit, .stash = err_stash,
		.drain = err_drain, .app_name = app_name, .user = u,
	};
	return true;
}

/* ---- uniform block layouts ------------------------------------------------ */

static const struct trace_layout_block *layout_block(const struct trace_layout *l, const char *name)
{
	for (uint32_t i = 0; i < l->n_blocks; i++)
		if (!strcmp(l->blocks[i].name, name))
			return &l->blocks[i];
	return NULL;
}

/* The first difference of block `got` from the recorded `want`, into why;
 * false when none. */
static bool block_differs(const struct trace_layout_block *want, const struct trace_layout_block *got, char *why,
			  size_t n)
{
	if (want->data_size != got->data_size) {
		snprintf(why, n, "%u bytes, recorded %u", got->data_size, want->data_size);
		return true;
	}
	for (uint32_t k = 0; k < want->n_members; k++) {
		const struct trace_layout_member *w = &want->members[k], *g = NULL;
		for (uint32_t j = 0; j < got->n_members && !g; j++)
			if (!strcmp(got->members[j].name, w->name))
				g = &got->members[j];
		if (!g)
			snprintf(why, n, "member \"%s\" is not active here", w->name);
		else if (g->offset != w->offset)
			snprintf(why, n, "member \"%s\" at offset %u, recorded %u", w->name, g->offset, w->offset);
		else if (g->array_stride != w->array_stride)
			snprintf(why, n, "member \"%s\": array stride %u, recorded %u", w->name, g->array_stride,
				 w->array_stride);
		else if (g->matrix_stride != w->matrix_stride)
			snprintf(why, n, "member \"%s\": matrix stride %u, recorded %u", w->name, g->matrix_stride,
				 w->matrix_stride);
		else if (g->row_major != w->row_major)
			snprintf(why, n, "member \"%s\" is %s here", w->name, g->row_major ? "row-major" : "column-major");
		else
			continue;
		return true;
	}
	return false;
}

void host_obs_layout(struct host *h, struct replay *rp, struct host_ctx *x, const struct trace_call *call)
{
	const struct trace_layout *want = replay_call_layout(rp);
	struct trace_layout got;
	struct obs_ctx c;
	struct obs_user u;
	uint32_t program;

	if (!want || !host_obs_gl(h))
		return;
	program = (uint32_t)replay_names_get(h->names, x->share_ns, GLAPI_O_SHADER_OBJECT, 0, want->program);
	u = (struct obs_user){ h, rp, x };
	c = (struct obs_ctx){
		.gl = &h->obs_gl, .gles = x->gles, .major = x->major, .minor = x->minor,
		.stash = err_stash, .drain = err_drain, .app_name = app_name, .user = &u,
	};
	if (!program || !obs_layout_read(&c, program, want->program, &got))
		return;
	for (uint32_t i = 0; i < want->n_blocks; i++) {
		const struct trace_layout_block *g = layout_block(&got, want->blocks[i].name);
		char why[240];
		if (!g)
			snprintf(why, sizeof why, "not active here");
		else if (!block_differs(&want->blocks[i], g, why, sizeof why))
			continue;
		xt_warn("replay: call %llu (%s): uniform block \"%s\" of program %u is laid out otherwise than "
			"on the capturing driver (%s); the buffer contents the trace holds follow the recorded "
			"layout, which this driver does not read (a shared / packed block: GLSL 4.60 §4.4.5)",
			(unsigned long long)call->no, call->name, want->blocks[i].name, want->program, why);
	}
	obs_layout_free(&got);
}

/* ---- frames -------------------------------------------------------------- */

void host_obs_frame(struct host *h, struct replay *rp, const struct trace_call *call)
{
	struct host_thread *t = host_thread(h, call->thread_no);
	struct obs_ctx c;
	struct obs_user u;
	EGLint w = 0, ht = 0;

	/* The swap is not executed (the replay draws into pbuffers): the
	 * back buffer is read as the capture read it, just before. */
	if (!t || !t->ctx || !host_make_current(h, t) || t->draw == EGL_NO_SURFACE ||
	    !eglQuerySurface(h->dpy, t->draw, EGL_WIDTH, &w) ||
	    !eglQuerySurface(h->dpy, t->draw, EGL_HEIGHT, &ht) ||
	    !obs_context(h, rp, t->ctx, &c, &u))
		return;
	uint8_t *data = obs_frame_read(&c, w, ht);
	obs_frame_commit(&c, call->no, call->name, replay_frames(rp), w, ht, data);
}

/* ---- mappings ------------------------------------------------------------ */

static GLuint bound_buffer(struct host *h, GLenum target)
{
	const uint32_t pname = glapi_buffer_binding_pname(target);
	GLint v = 0;

	if (!pname || !host_obs_gl(h))
		return 0;
	h->obs_gl.GetIntegerv(pname, &v);
	while (h->obs_gl.GetError() != GL_NO_ERROR)
		;
	return (GLuint)v;
}

uint64_t host_map_key(const struct host_ctx *x, uint32_t buffer)
{
	return (uint64_t)x->share_ns << 32 | buffer;
}

uint32_t host_map_access_bits(uint32_t access)
{
	switch (access) {
	case GL_READ_ONLY: return GL_MAP_READ_BIT;
	case GL_WRITE_ONLY: return GL_MAP_WRITE_BIT;
	case GL_READ_WRITE: return GL_MAP_READ_BIT | GL_MAP_WRITE_BIT;
	default: return 0;
	}
}

static void after_map(struct host *h, struct replay *rp, struct host_ctx *x, unsigned hook,
		      const struct trace_call *call, const struct trace_ret *ret,
		      const struct host_args *args, const union replay_arg *rv)
{
	const bool named = hook == REPLAY_HOOK_NAMED_MAP || hook == REPLAY_HOOK_NAMED_MAP_RANGE;
	const GLuint buffer = named ? (GLuint)args->a[0].u : bound_buffer(h, (GLenum)args->a[0].u);
	int64_t offset = 0, length = 0;
	GLbitfield access;
	struct obs_ctx c;
	struct obs_user u;

	if (!rv->p || !ret || ret->ret.tag != TRACE_TAG_POINTER || !ret->ret.u)
		return;
	if (hook == REPLAY_HOOK_MAP || hook == REPLAY_HOOK_NAMED_MAP) {
		GLint64 len = 0;
		access = host_map_access_bits((GLenum)args->a[1].u);
		/* Through the driver's entry points, not libepoxy's dispatch,
		 * which aborts when a context lacks a function. */
		PFNGLGETNAMEDBUFFERPARAMETERI64VPROC gn = (PFNGLGETNAMEDBUFFERPARAMETERI64VPROC)
			h->gl_proc("glGetNamedBufferParameteri64v");
		if (!host_obs_gl(h))
			return;
		if (named && gn)
			gn(buffer, GL_BUFFER_MAP_LENGTH, &len);
		else if (!named)
			h->obs_gl.GetBufferParameteri64v((GLenum)args->a[0].u, GL_BUFFER_MAP_LENGTH, &len);
		while (h->obs_gl.GetError() != GL_NO_ERROR)
			;
		length = len;
	} else {
		offset = args->a[1].i;
		length = args->a[2].i;
		access = (GLbitfield)args->a[3].u;
	}
	if (length > 0)
		replay_mem_map(h->mem, host_map_key(x, buffer), ret->ret.u, rv->p, (uint64_t)length);
	if ((access & GL_MAP_READ_BIT) && obs_context(h, rp, x, &c, &u))
		obs_map(&c, call->no, buffer, offset, length, access, rv->p);
}

/* ---- returned values ----------------------------------------------------- */

static const struct trace_value *ret_out(const struct trace_ret *ret, uint32_t i)
{
	for (uint32_t k = 0; ret && k < ret->nouts; k++)
		if (ret->out_index[k] == i)
			return &ret->outs[k];
	return NULL;
}

/* Compares recorded output i (MEMORY of ints, or STRING) with the replay's. */
static void compare_out(struct replay *rp, const struct trace_call *call,
			const struct trace_ret *ret, const struct host_args *args, uint32_t i,
			const char *what)
{
	const struct trace_value *o = ret_out(ret, i);
	char rec[96], rep[96];

	if (!o || !args->out[i])
		return;
	if (o->tag == TRACE_TAG_STRING) {
		size_t n = strnlen(args->out[i], args->out_bytes[i]);
		bool eq = n == o->mem.len && !memcmp(args->out[i], o->mem.bytes, n);
		snprintf(rec, sizeof rec, "\"%.*s\"", (int)(o->mem.len < 80 ? o->mem.len : 80),
			 (const char *)o->mem.bytes);
		snprintf(rep, sizeof rep, "\"%.*s\"", (int)(n < 80 ? n : 80),
			 (const char *)args->out[i]);
		replay_return_checked(rp, call, eq, what, rec, rep);
		return;
	}
	if (o->tag != TRACE_TAG_MEMORY || o->mem.len > args->out_bytes[i])
		return;
	bool eq = !memcmp(args->out[i], o->mem.bytes, o->mem.len);
	int32_t a = 0, b = 0;
	memcpy(&a, o->mem.bytes, o->mem.len < 4 ? o->mem.len : 4);
	memcpy(&b, args->out[i], o->mem.len < 4 ? o->mem.len : 4);
	snprintf(rec, sizeof rec, "%" PRId32, a);
	snprintf(rep, sizeof rep, "%" PRId32, b);
	replay_return_checked(rp, call, eq, what, rec, rep);
}

/* Whether the replay of call `no` raised a GL error (still queued). */
static bool raised_error(const struct host_ctx *x, uint64_t no)
{
	for (unsigned i = 0; i < x->nerr; i++)
		if (x->err[i].call == no)
			return true;
	return false;
}

/* glGetObjectLabel[KHR|EXT] (identifier, name, bufSize, length, label) and
 * glGetObjectPtrLabel[KHR] (ptr, bufSize, length, label). */
static bool is_get_label(const char *n, uint32_t nargs)
{
	if (!strcmp(n, "glGetObjectLabel") || !strcmp(n, "glGetObjectLabelKHR") ||
	    !strcmp(n, "glGetObjectLabelEXT"))
		return nargs == 5;
	if (!strcmp(n, "glGetObjectPtrLabel") || !strcmp(n, "glGetObjectPtrLabelKHR"))
		return nargs == 4;
	return false;
}

static bool pname_in(uint64_t pname, const GLenum *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == pname)
			return true;
	return false;
}

/* ---- compile / link failures a limit explains ------------------------------- */

/* Limits that bound what a program may declare or capture; a driver's
 * info log names the one exceeded (Mesa: "... MAX_VARYING_COMPONENTS ..."). */
static const GLenum link_limits[] = {
	GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS,
	GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, GL_MAX_TRANSFORM_FEEDBACK_BUFFERS,
	GL_MAX_VERTEX_OUTPUT_COMPONENTS, GL_MAX_GEOMETRY_OUTPUT_COMPONENTS,
	GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS, GL_MAX_GEOMETRY_OUTPUT_VERTICES,
	GL_MAX_FRAGMENT_INPUT_COMPONENTS, GL_MAX_VARYING_COMPONENTS, GL_MAX_VARYING_VECTORS,
	GL_MAX_VERTEX_STREAMS, GL_MAX_VERTEX_ATTRIBS,
};

static void record_limit(struct host_ctx *x, const struct trace_call *call,
			 const struct trace_ret *ret, uint32_t pname)
{
	const struct trace_value *o = ret_out(ret, 1);
	unsigned i;
	int32_t v;

	if (!pname_in(pname, link_limits, sizeof link_limits / sizeof link_limits[0]) || !o ||
	    o->tag != TRACE_TAG_MEMORY || o->mem.len < 4)
		return;
	memcpy(&v, o->mem.bytes, 4);
	for (i = 0; i < x->nrec_limit && x->rec_limit[i].pname != pname; i++)
		;
	if (i == sizeof x->rec_limit / sizeof x->rec_limit[0])
		return;
	x->rec_limit[i] = (struct host_limit){ pname, v };
	if (i == x->nrec_limit)
		x->nrec_limit++;
}

/* Whether `log` names `name` ("GL_MAX_X") with or without its "GL_". */
static bool log_names(const char *log, const char *name)
{
	const size_t k = strlen(name + 3);

	for (const char *p = strstr(log, name + 3); p; p = strstr(p + 1, name + 3)) {
		const char after = p[k];
		if (!((after >= 'A' && after <= 'Z') || after == '_'))
			return true;
	}
	return false;
}

/*
 * Program (or shader) `object` (the replay's name) linked (compiled) on the
 * capture's driver and not on the replay's: whether a limit explains it.
 * It does when the replay driver's info log names a limit, and the value
 * the application read of that limit at capture is larger than the replay
 * driver's: `why` then says which and both values.  Anything less stays a
 * difference.
 */
static bool limit_explains(const struct host *h, const struct host_ctx *x, uint32_t object,
			   bool shader, char *why, size_t n)
{
	void (*get_log)(GLuint, GLsizei, GLsizei *, GLchar *) =
		(void (*)(GLuint, GLsizei, GLsizei *, GLchar *))h->gl_proc(
			shader ? "glGetShaderInfoLog" : "glGetProgramInfoLog");
	void (*get_int)(GLenum, GLint *) = (void (*)(GLenum, GLint *))h->gl_proc("glGetIntegerv");
	GLenum (*get_error)(void) = (GLenum (*)(void))h->gl_proc("glGetError");
	char log[4096];

	if (!get_log || !get_int || !get_error)
		return false;
	log[0] = '\0';
	get_log(object, sizeof log, NULL, log);
	log[sizeof log - 1] = '\0';
	for (size_t i = 0; i < sizeof link_limits / sizeof link_limits[0]; i++) {
		const char *name = glapi_enum_name(link_limits[i]);
		if (!name || strncmp(name, "GL_", 3) || !log_names(log, name))
			continue;
		for (unsigned k = 0; k < x->nrec_limit; k++) {
			GLint mine = -1;
			if (x->rec_limit[k].pname != link_limits[i])
				continue;
			get_int(link_limits[i], &mine);
			if (mine >= 0 && mine < x->rec_limit[k].value) {
				snprintf(why, n, "the replay driver's %s is %d (capture: %" PRId64 ")",
					 name, mine, x->rec_limit[k].value);
				while (get_error() != GL_NO_ERROR)
					;
				return true;
			}
		}
	}
	while (get_error() != GL_NO_ERROR)
		;
	return false;
}

/* ---- glGet* state ---------------------------------------------------------- */

/* Whether the value of glGet pname depends on the implementation (limits,
 * versions, formats, framebuffer bits, timing) rather than on the calls
 * the application made: such values are listed apart, never compared. */
static bool implementation_dependent(const char *name)
{
	static const char *const prefixes[] = { "GL_MAX_", "GL_MIN_", "GL_NUM_", "GL_CONTEXT_",
						"GL_IMPLEMENTATION_", "GL_SMOOTH_", "GL_ALIASED_" };
	static const char *const suffixes[] = { "_ALIGNMENT", "_RANGE", "_BITS", "_FORMATS",
						"_GRANULARITY", "_VERSION", "_PROVOKING_VERTEX" };
	static const char *const names[] = {
		"GL_SAMPLES", "GL_SAMPLE_BUFFERS", "GL_DOUBLEBUFFER", "GL_STEREO", "GL_TIMESTAMP",
		"GL_SHADER_COMPILER", "GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION",
		"GL_RESET_NOTIFICATION_STRATEGY", "GL_MAX_ELEMENT_INDEX", "GL_RENDERER", "GL_VENDOR",
	};
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		size_t k = strlen(suffixes[i]);
		if (n > k && !strcmp(name + n - k, suffixes[i]))
			return true;
	}
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* The object kind a binding pname names (GLAPI_O_NONE: not a binding). */
static enum glapi_object binding_kind(const char *name)
{
	static const struct { const char *name; enum glapi_object kind; } exact[] = {
		{ "GL_VERTEX_ARRAY_BINDING", GLAPI_O_VERTEX_ARRAY },
		{ "GL_CURRENT_PROGRAM", GLAPI_O_SHADER_OBJECT },
		{ "GL_PROGRAM_PIPELINE_BINDING", GLAPI_O_PIPELINE },
		{ "GL_TRANSFORM_FEEDBACK_BINDING", GLAPI_O_TRANSFORM_FEEDBACK },
		{ "GL_DRAW_FRAMEBUFFER_BINDING", GLAPI_O_FRAMEBUFFER },
		{ "GL_READ_FRAMEBUFFER_BINDING", GLAPI_O_FRAMEBUFFER },
		{ "GL_RENDERBUFFER_BINDING", GLAPI_O_RENDERBUFFER },
		{ "GL_SAMPLER_BINDING", GLAPI_O_SAMPLER },
		{ "GL_VERTEX_BINDING_BUFFER", GLAPI_O_BUFFER },
	};
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
		if (!strcmp(name, exact[i].name))
			return exact[i].kind;
	if (n > 15 && !strcmp(name + n - 15, "_BUFFER_BINDING"))
		return GLAPI_O_BUFFER;
	if (!strncmp(name, "GL_TEXTURE_BINDING_", 19))
		return GLAPI_O_TEXTURE;
	return GLAPI_O_NONE;
}

/* Size in bytes of one value of glGet<T>v, by function name; 0 if not one. */
size_t host_get_value_size(const char *fn, bool *is_float)
{
	static const struct { const char *prefix; size_t size; bool fp; } forms[] = {
		{ "glGetInteger64", 8, false }, { "glGetInteger", 4, false },
		{ "glGetBoolean", 1, false }, { "glGetFloat", 4, true }, { "glGetDouble", 8, true },
	};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		size_t k = strlen(forms[i].prefix);
		if (!strncmp(fn, forms[i].prefix, k) &&
		    (!strcmp(fn + k, "v") || !strcmp(fn + k, "i_v"))) {
			*is_float = forms[i].fp;
			return forms[i].size;
		}
	}
	return 0;
}

static void value_str(char *out, size_t cap, const uint8_t *p, size_t size, bool fp)
{
	int64_t i = 0;
	double d = 0;

	if (fp && size == 4) {
		float f;
		memcpy(&f, p, 4);
		d = f;
	} else if (fp) {
		memcpy(&d, p, 8);
	} else {
		memcpy(&i, p, size);   /* little endian: the low bytes */
		if (size == 4)
			i = (int32_t)i;
	}
	if (fp)
		snprintf(out, cap, "%.9g", d);
	else
		snprintf(out, cap, "%" PRId64, i);
}

/* Whether float (size 4) or double `a` and `b` are equal within --tolerance. */
static bool within_tolerance(const struct replay *rp, const uint8_t *a, const uint8_t *b,
			     size_t size)
{
	const struct trace_tol *tol = replay_tolerance(rp);
	uint64_t x = 0, y = 0, ulps;
	enum trace_tol_why why;
	double delta;

	if (tol->mode == TRACE_TOL_EXACT)
		return false;
	memcpy(&x, a, size);
	memcpy(&y, b, size);
	return !trace_tol_differ(size == 4 ? TRACE_TOL_F32 : TRACE_TOL_F64, x, y, tol, &why, &delta,
				 &ulps);
}

/*
 * glGet{Integer,Integer64,Boolean,Float,Double}v and their i_v forms: state
 * values are compared element by element (binding names mapped back to the
 * application's names first), implementation-dependent ones are counted
 * apart.
 */
static void compare_get(struct replay *rp, const struct host *h, const struct host_ctx *x,
			const struct trace_call *call, const struct trace_ret *ret,
			const struct host_args *args, size_t size, bool fp)
{
	uint32_t out = call->nargs - 1;
	const char *pname = glapi_enum_name((uint32_t)args->a[0].u);
	const struct trace_value *o = ret_out(ret, out);
	enum glapi_object kind;
	char what[96], rec[48], rep[48];

	if (!o || o->tag != TRACE_TAG_MEMORY || !args->out[out] || o->mem.len > args->out_bytes[out] ||
	    !pname || implementation_dependent(pname)) {
		replay_return_skipped(rp, call);
		return;
	}
	snprintf(what, sizeof what, "%s", pname);
	if (call->nargs == 3)
		snprintf(what, sizeof what, "%s[%" PRIu64 "]", pname, args->a[1].u);
	kind = binding_kind(pname);
	if (kind != GLAPI_O_NONE && (fp || size == 1)) {
		replay_return_skipped(rp, call);
		return;
	}
	for (size_t at = 0; at + size <= o->mem.len; at += size) {
		const uint8_t *a = o->mem.bytes + at, *b = (const uint8_t *)args->out[out] + at;
		uint64_t want_app = 0;
		bool eq;
		if (kind != GLAPI_O_NONE) {
			uint64_t got = 0, want = 0;
			bool container = kind == GLAPI_O_VERTEX_ARRAY || kind == GLAPI_O_PIPELINE ||
					 kind == GLAPI_O_TRANSFORM_FEEDBACK || kind == GLAPI_O_FRAMEBUFFER;
			memcpy(&got, b, size);
			memcpy(&want, a, size);
			got = replay_names_app(h->names, container ? x->ns : x->share_ns, kind, 0, got);
			eq = got == want;
			snprintf(rec, sizeof rec, "%" PRIu64, want);
			snprintf(rep, sizeof rep, "%" PRIu64 " (as the application's name)", got);
		} else {
			eq = !memcmp(a, b, size);
			value_str(rec, sizeof rec, a, size, fp);
			value_str(rep, sizeof rep, b, size, fp);
		}
		const char *because = NULL;
		memcpy(&want_app, a, size);
		if (!eq && kind == GLAPI_O_SHADER_OBJECT)
			because = replay_link_consequence(rp, call, want_app, false);
		if (because) {
			/* The program the application made current never linked on
			 * the replay, so glUseProgram failed there. */
			char why[400];
			snprintf(why, sizeof why, "a consequence of the link failure of %s", because);
			replay_return_impl(rp, call, what, rec, rep, why);
			return;
		}
		if (!eq && fp && within_tolerance(rp, a, b, size)) {
			snprintf(what + strlen(what), sizeof what - strlen(what), " value %zu", at / size);
			replay_return_precision(rp, call, what, rec, rep);
			return;
		}
		if (!eq || at + 2 * size > o->mem.len) {
			if (o->mem.len > size)
				snprintf(what + strlen(what), sizeof what - strlen(what), " value %zu", at / size);
			replay_return_checked(rp, call, eq, what, rec, rep);
			return;
		}
	}
	replay_return_skipped(rp, call);   /* no whole value recorded */
}

/*
 * glGetMultisamplefv(GL_SAMPLE_POSITION): the positions of the samples are
 * implementation-dependent (GL 4.6 §14.3.1), so answers that differ are
 * classified, and remembered: what a program computes from multisample
 * texels depends on them (replay_explain.c).  When the replay raised an
 * error the GL wrote nothing: not compared (a differing error is
 * reported by glGetError).
 */
static void compare_sample_position(struct replay *rp, const struct host_ctx *x,
				    const struct trace_call *call, const struct trace_ret *ret,
				    const struct host_args *args)
{
	const struct trace_value *o = ret_out(ret, 2);
	float a[2] = { 0, 0 }, b[2] = { 0, 0 };
	char what[64], rec[48], rep[48];
	size_t n;

	/* x and y; captures before GL_SAMPLE_POSITION's count was known
	 * recorded x only */
	if (!o || o->tag != TRACE_TAG_MEMORY || (o->mem.len != sizeof a && o->mem.len != sizeof a[0]) ||
	    !args->out[2] || args->out_bytes[2] < sizeof b || raised_error(x, call->no)) {
		replay_return_skipped(rp, call);
		return;
	}
	n = o->mem.len;
	memcpy(a, o->mem.bytes, n);
	memcpy(b, args->out[2], n);
	snprintf(what, sizeof what, "GL_SAMPLE_POSITION[%" PRIu64 "]%s", args->a[1].u,
		 n < sizeof a ? " x" : "");
	if (n < sizeof a) {
		snprintf(rec, sizeof rec, "%g", a[0]);
		snprintf(rep, sizeof rep, "%g", b[0]);
	} else {
		snprintf(rec, sizeof rec, "(%g, %g)", a[0], a[1]);
		snprintf(rep, sizeof rep, "(%g, %g)", b[0], b[1]);
	}
	replay_positions_compared(rp, call, !memcmp(a, b, n));
	if (!memcmp(a, b, n)) {
		replay_return_checked(rp, call, true, what, rec, rep);
		return;
	}
	replay_return_impl(rp, call, what, rec, rep, "sample positions are implementation-dependent "
			   "(GL 4.6 §14.3.1)");
}

/* A compile / link status: true (reported) when the capture's is 1, the
 * replay's 0 and a smaller limit of the replay driver explains it. */
static bool status_explained(struct replay *rp, const struct host *h, const struct host_ctx *x,
			     const struct trace_call *call, const struct trace_ret *ret,
			     const struct host_args *args, bool shader, const char *what)
{
	const struct trace_value *o = ret_out(ret, 2);
	int32_t rec = 0, rep = 0;
	char why[192];

	if (!o || o->tag != TRACE_TAG_MEMORY || o->mem.len < 4 || !args->out[2] ||
	    args->out_bytes[2] < 4)
		return false;
	memcpy(&rec, o->mem.bytes, 4);
	memcpy(&rep, args->out[2], 4);
	if (rec != 1 || rep != 0 || !limit_explains(h, x, (uint32_t)args->a[0].u, shader, why,
						    sizeof why))
		return false;
	replay_return_impl(rp, call, what, "1", "0", why);
	if (!shader && call->nargs >= 1 && call->args[0].tag == TRACE_TAG_UINT)
		replay_link_failed(rp, call, call->args[0].u, why);
	return true;
}

void host_obs_check_returns(struct replay *rp, const struct host *h, const struct host_ctx *x,
			    int id, const struct trace_call *call, const struct trace_ret *ret,
			    const struct host_args *args, const union replay_arg *rv)
{
	static const GLenum shader_pnames[] = { GL_COMPILE_STATUS };
	static const GLenum program_pnames[] = {
		GL_LINK_STATUS, GL_VALIDATE_STATUS, GL_TRANSFORM_FEEDBACK_VARYINGS,
		GL_TRANSFORM_FEEDBACK_BUFFER_MODE, GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH,
	};
	static const GLenum xfb_pnames[] = { GL_TRANSFORM_FEEDBACK_PAUSED,
					     GL_TRANSFORM_FEEDBACK_ACTIVE };
	const char *n = call->name;
	struct glapi_func_info fi;
	char what[96];

	size_t get_size;
	bool fp = false;

	if (!ret || !replay_checking(rp, call->no) || !glapi_func_info(id, &fi) ||
	    replay_call_unsupported(rp, call->no))
		return;
	if (!strcmp(n, "glGetMultisamplefv") && call->nargs == 3 && args->a[0].u == GL_SAMPLE_POSITION) {
		compare_sample_position(rp, x, call, ret, args);
	} else if ((call->nargs == 2 || call->nargs == 3) && (get_size = host_get_value_size(n, &fp))) {
		compare_get(rp, h, x, call, ret, args, get_size, fp);
	} else if (!strcmp(n, "glGetShaderiv") && call->nargs == 3 &&
	    pname_in(args->a[1].u, shader_pnames, 1)) {
		snprintf(what, sizeof what, "%s", glapi_enum_name((uint32_t)args->a[1].u));
		if (!status_explained(rp, h, x, call, ret, args, true, what))
			compare_out(rp, call, ret, args, 2, what);
	} else if (!strcmp(n, "glGetProgramiv") && call->nargs == 3 &&
		   pname_in(args->a[1].u, program_pnames, 5)) {
		snprintf(what, sizeof what, "%s", glapi_enum_name((uint32_t)args->a[1].u));
		if (args->a[1].u != GL_LINK_STATUS ||
		    !status_explained(rp, h, x, call, ret, args, false, what))
			compare_out(rp, call, ret, args, 2, what);
	} else if ((!strcmp(n, "glGetTransformFeedbackVarying") ||
		    !strcmp(n, "glGetTransformFeedbackVaryingEXT")) && call->nargs == 7) {
		compare_out(rp, call, ret, args, 3, "length");
		compare_out(rp, call, ret, args, 4, "size");
		compare_out(rp, call, ret, args, 5, "type");
		compare_out(rp, call, ret, args, 6, "name");
	} else if (!strcmp(n, "glGetTransformFeedbackiv") && call->nargs == 3 &&
		   pname_in(args->a[1].u, xfb_pnames, 2)) {
		compare_out(rp, call, ret, args, 2, glapi_enum_name((uint32_t)args->a[1].u));
	} else if (is_get_label(n, call->nargs)) {
		/* A label is the application's own string, so an equal one
		 * shows that the label went to, and is read from, the object
		 * the application named (names remapped by kind, glapi.h
		 * GLAPI_O_BY_ENUM).  When the replay raised an error, the GL
		 * wrote nothing and the recorded bytes are what the
		 * application's memory held: not compared (a differing error
		 * is reported by glGetError). */
		if (raised_error(x, call->no)) {
			replay_return_skipped(rp, call);
		} else {
			compare_out(rp, call, ret, args, call->nargs - 2, "length");
			compare_out(rp, call, ret, args, call->nargs - 1, "label");
		}
	} else if ((!strncmp(n, "glIs", 4) || !strcmp(n, "glCheckFramebufferStatus") ||
		    !strcmp(n, "glCheckNamedFramebufferStatus")) && fi.ret_kind != GLAPI_K_VOID) {
		int64_t rec = ret->ret.tag == TRACE_TAG_TRUE ? 1 : ret->ret.tag == TRACE_TAG_FALSE ? 0
			      : (int64_t)ret->ret.u;
		int64_t rep = fi.ret_kind == GLAPI_K_BOOL ? (rv->u & 0xff) != 0 : (int64_t)(uint32_t)rv->u;
		char a[32], b[32];
		snprintf(a, sizeof a, "%" PRId64, rec);
		snprintf(b, sizeof b, "%" PRId64, rep);
		replay_return_checked(rp, call, rec == rep, "return value", a, b);
	} else if ((fi.ret_kind != GLAPI_K_VOID && fi.ret_obj == GLAPI_O_NONE) || ret->nouts) {
		replay_return_skipped(rp, call);
	}
}

/* ---- timing-dependent buffers ---------------------------------------------- */

static void taint_buffer(struct host *h, struct host_ctx *x, uint32_t buffer)
{
	if (buffer && !name_in(h->tainted, h->ntainted, x->share_ns, buffer) && h->ntainted < 64)
		h->tainted[h->ntainted++] = (struct host_name){ x->share_ns, buffer };
}

/* A timer query's result written into a buffer by the GPU. */
static void taint(struct host *h, struct host_ctx *x, unsigned hook,
		  const struct trace_call *call, const struct host_args *args)
{
	if (hook == REPLAY_HOOK_QUERY_OBJECT && call->nargs == 3 && args->offset[2] &&
	    name_in(h->timers, h->ntimers, x->ns, (uint32_t)args->a[0].u))
		taint_buffer(h, x, bound_buffer(h, GL_QUERY_BUFFER));
	else if (hook == REPLAY_HOOK_QUERY_BUFFER_OBJECT && call->nargs == 4 &&
		 name_in(h->timers, h->ntimers, x->ns, (uint32_t)args->a[0].u))
		taint_buffer(h, x, (uint32_t)args->a[1].u);
}

/* New contents from the application, or deleted: no longer timing data. */
static void untaint(struct host *h, struct host_ctx *x, const struct trace_call *call,
		    const struct host_args *args)
{
	uint32_t gone[64];
	size_t count = 0;

	if (!strcmp(call->name, "glBufferData")) {
		gone[count++] = bound_buffer(h, (GLenum)args->a[0].u);
	} else if (call->nargs == 2 && call->args[1].tag == TRACE_TAG_MEMORY && args->a[1].p) {
		count = call->args[1].mem.len / sizeof gone[0];
		count = count > 64 ? 64 : count;
		memcpy(gone, args->a[1].p, count * sizeof gone[0]);
	}
	for (size_t k = 0; k < count; k++)
		for (unsigned i = 0; i < h->ntainted; i++)
			if (h->tainted[i].ns == x->share_ns && h->tainted[i].name == gone[k])
				h->tainted[i--] = h->tainted[--h->ntainted];
}

/* ---- after a call -------------------------------------------------------- */

void host_obs_after(struct host *h, struct replay *rp, struct host_ctx *x, int id,
		    const struct trace_call *call, const struct trace_ret *ret,
		    const struct host_args *args, const union replay_arg *rv)
{
	const unsigned hook = replay_stubs[id].hook;
	const char *n = call->name;
	struct obs_ctx c;
	struct obs_user u;

	if (!strcmp(n, "glUseProgram") || !strcmp(n, "glUseProgramObjectARB"))
		x->program = (uint32_t)args->a[0].u;
	else if ((!strcmp(n, "glBeginQuery") || !strcmp(n, "glBeginQueryIndexed") ||
		  !strcmp(n, "glQueryCounter")) && call->nargs >= 2) {
		/* glQueryCounter(id, target); the others (target, [index,] id). */
		const bool counter = n[2] == 'Q';
		const struct trace_value *idv = &call->args[counter ? 0 : call->nargs - 1];
		const GLenum target = (GLenum)args->a[counter ? 1 : 0].u;
		const bool timer = target == GL_TIME_ELAPSED || target == GL_TIMESTAMP;
		const uint32_t q = (uint32_t)args->a[counter ? 0 : call->nargs - 1].u;
		if (idv->tag == TRACE_TAG_UINT)
			replay_query_is_timer(rp, idv->u, timer);
		if (timer && !name_in(h->timers, h->ntimers, x->ns, q) && h->ntimers < 64)
			h->timers[h->ntimers++] = (struct host_name){ x->ns, q };
	} else if (!strcmp(n, "glDeleteBuffers") || !strcmp(n, "glBufferData")) {
		untaint(h, x, call, args);
	}
	if ((!strcmp(n, "glDeleteBuffers") || !strcmp(n, "glDeleteBuffersARB")) &&
	    call->nargs == 2 && args->a[1].p && call->args[1].tag == TRACE_TAG_MEMORY) {
		/* Deleting a mapped buffer unmaps it (GL 4.6 6.3.1): its memory
		 * is the driver's again, and no later MEMWRITE may land there. */
		const uint32_t *names = args->a[1].p;
		for (int64_t k = 0; k < args->a[0].i && (uint64_t)k < call->args[1].mem.len / 4; k++)
			replay_mem_unmap(h->mem, host_map_key(x, names[k]));
	}
	taint(h, x, hook, call, args);
	int k;
	if (!strcmp(n, "glGetIntegerv") && call->nargs == 2)
		record_limit(x, call, ret, (uint32_t)args->a[0].u);
	if (!strcmp(n, "glGetIntegerv") && call->nargs == 2 && (k = host_count_pname(args->a[0].u)) >= 0) {
		const struct trace_value *o = ret_out(ret, 1);
		int32_t v;
		if (o && o->tag == TRACE_TAG_MEMORY && o->mem.len >= 4) {
			memcpy(&v, o->mem.bytes, 4);
			host_counts_init(x);
			x->rec_count[k] = v;
		}
	}
	switch (hook) {
	case REPLAY_HOOK_TF_END:
	case REPLAY_HOOK_TF_PAUSE:
		if (obs_context(h, rp, x, &c, &u))
			obs_tf_end(&c, call->no, hook == REPLAY_HOOK_TF_PAUSE);
		break;
	case REPLAY_HOOK_QUERY_OBJECT:
		if (call->nargs == 3 && obs_context(h, rp, x, &c, &u))
			obs_query(&c, call->no, n, (uint32_t)args->a[0].u, (uint32_t)args->a[1].u,
				  args->offset[2] ? NULL : args->out[2], strstr(n, "64") ? 8 : 4);
		break;
	case REPLAY_HOOK_QUERY_BUFFER_OBJECT:
		if (call->nargs == 4 && obs_context(h, rp, x, &c, &u))
			obs_query(&c, call->no, n, (uint32_t)args->a[0].u, (uint32_t)args->a[2].u,
				  NULL, strstr(n, "64") ? 8 : 4);
		break;
	case REPLAY_HOOK_BUFFER_READ:
	case REPLAY_HOOK_NAMED_BUFFER_READ:
		if (call->nargs == 4 && args->out[3] && !args->offset[3] &&
		    args->a[2].i >= 0 && (size_t)args->a[2].i <= args->out_bytes[3] &&
		    obs_context(h, rp, x, &c, &u)) {
			GLuint buffer = hook == REPLAY_HOOK_NAMED_BUFFER_READ
					? (GLuint)args->a[0].u : bound_buffer(h, (GLenum)args->a[0].u);
			obs_buffer_read(&c, call->no, buffer, args->a[1].i, args->a[2].i,
					args->out[3]);
		}
		break;
	case REPLAY_HOOK_READ_PIXELS: {
		/* glReadPixels(x, y, w, h, format, type, pixels); glReadn*
		 * have bufSize before pixels. */
		const unsigned pi = call->nargs == 7 ? 6 : 7;
		/* Not replayed (pixels the sim could not draw): no pixels, and the
		 * read-back's queries would be blamed on the next call. */
		if ((call->nargs == 7 || call->nargs == 8) && (args->offset[pi] || args->out[pi]) &&
		    !replay_call_unsupported(rp, call->no) && replay_pixels_wanted(rp) &&
		    obs_context(h, rp, x, &c, &u)) {
			obs_read_pixels(&c, call->no, n, (int32_t)args->a[0].i, (int32_t)args->a[1].i,
					(int32_t)args->a[2].i, (int32_t)args->a[3].i,
					(uint32_t)args->a[4].u, (uint32_t)args->a[5].u,
					args->offset[pi] ? NULL : args->out[pi], args->out_bytes[pi],
					args->offset[pi] ? (uint64_t)(uintptr_t)args->a[pi].p : 0);
		}
		break;
	}
	case REPLAY_HOOK_MAP:
	case REPLAY_HOOK_MAP_RANGE:
	case REPLAY_HOOK_NAMED_MAP:
	case REPLAY_HOOK_NAMED_MAP_RANGE:
		if (call->nargs >= 2)
			after_map(h, rp, x, hook, call, ret, args, rv);
		break;
	case REPLAY_HOOK_UNMAP:
		replay_mem_unmap(h->mem, host_map_key(x, bound_buffer(h, (GLenum)args->a[0].u)));
		break;
	case REPLAY_HOOK_NAMED_UNMAP:
		replay_mem_unmap(h->mem, host_map_key(x, (GLuint)args->a[0].u));
		break;
	default:
		break;
	}
	host_obs_check_returns(rp, h, x, id, call, ret, args, rv);
}
