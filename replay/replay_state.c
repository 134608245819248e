/*
 * replay_state.c - the GL state at a call, as the replay's driver reports
 * it (`xfbtrace replay --dump-state CALL`, in the spirit of apitrace's
 * `replay -D CALL`): after the call has run, the current context is asked
 * with glGet* what it holds, and the answer is encoded as one MAP value of
 * the trace format (docs/trace-format.md, "Values") for the command line to
 * print as text or JSON:
 *
 *   driver              vendor, renderer, version
 *   program             the program in use: its name, link status, TF
 *                       buffer mode and varyings (glGetTransformFeedbackVarying),
 *                       attached shaders with their type and source
 *   transform_feedback  the TF object bound, active / paused, each binding
 *                       point's buffer, start and size (glGetIntegeri_v),
 *                       and `buffers`: what the bound buffers hold, read
 *                       back by the observation core (observe/obs.h, as
 *                       after glEndTransformFeedback) with the program's
 *                       TF layout, so that they decode by varying
 *   vertex_array        the vertex array bound and each attribute that is
 *                       enabled or has a buffer (glGetVertexAttribiv)
 *   bindings            buffers bound to the common targets
 *   queries             the active queries (glGetQueryIndexediv with
 *                       GL_CURRENT_QUERY), by target and stream
 *   not_modelled        what the driver model said it could not answer
 *                       faithfully (sim; each reason once), so that a 0 it
 *                       returned is not read as the state
 *
 * Names are the application's (replay_names.h translates the driver's
 * back); a name the trace never created shows as the driver's.  Both
 * backends run it: the host on the system GL, the sim on the driver
 * model's GL entry points (struct host.gl_proc), so the two can be put side
 * by side, and each beside `xfbtrace state`, which says what the trace's
 * calls set up (cli/cli_state.c).  Errors it raises are drained; nothing
 * the replay goes on with changes (the observation core restores the
 * bindings it touches).
 */
#include <stdlib.h>
#include <string.h>

#include "replay_core.h"
#include "replay_host.h"
#include "trace_enc.h"
#include "xt_fault.h"

#define MAX_SOURCE (1u << 20)

/* ---- encoding into a growing buffer ------------------------------------------ */

struct enc {
	struct xt_buf *b;
	enum xt_rc rc;
};

static uint8_t *room(struct enc *e, size_t n)
{
	if (e->rc || (e->rc = xt_buf_reserve(e->b, n)) != XT_OK)
		return NULL;
	return e->b->data + e->b->len;
}

#define ENC(e, max, expr)                                                  \
	do {                                                               \
		uint8_t *p = room((e), (max));                             \
		if (p)                                                     \
			(e)->b->len = (size_t)((expr) - (e)->b->data);     \
	} while (0)

static void enc_key(struct enc *e, const char *k)
{
	ENC(e, strlen(k) + TRACE_ENC_MAX_BYTES_PREFIX, trace_enc_key(p, k));
}
static void enc_map(struct enc *e, uint64_t n) { ENC(e, TRACE_ENC_MAX_SCALAR, trace_enc_map(p, n)); }
static void enc_array(struct enc *e, uint64_t n) { ENC(e, TRACE_ENC_MAX_SCALAR, trace_enc_array(p, n)); }
static void enc_uint(struct enc *e, uint64_t v) { ENC(e, TRACE_ENC_MAX_SCALAR, trace_enc_uint(p, v)); }
static void enc_sint(struct enc *e, int64_t v) { ENC(e, TRACE_ENC_MAX_SCALAR, trace_enc_sint(p, v)); }
static void enc_enum(struct enc *e, uint32_t v) { ENC(e, TRACE_ENC_MAX_SCALAR, trace_enc_enum(p, v)); }
static void enc_bool(struct enc *e, bool v) { ENC(e, TRACE_ENC_MAX_SCALAR, trace_enc_bool(p, v)); }
static void enc_null(struct enc *e) { ENC(e, TRACE_ENC_MAX_SCALAR, trace_enc_null(p)); }
static void enc_str(struct enc *e, const char *v, size_t n)
{
	ENC(e, n + TRACE_ENC_MAX_BYTES_PREFIX, trace_enc_string(p, v, n));
}
static void enc_cstr(struct enc *e, const char *v)
{
	if (v)
		enc_str(e, v, strlen(v));
	else
		enc_null(e);
}
static void enc_raw(struct enc *e, const void *v, size_t n)
{
	uint8_t *p = room(e, n);
	if (p) {
		memcpy(p, v, n);
		e->b->len += n;
	}
}

/* ---- the GL ----------------------------------------------------------------- */

struct gl {
	void (*GetIntegerv)(GLenum, GLint *);
	void (*GetIntegeri_v)(GLenum, GLuint, GLint *);
	void (*GetInteger64i_v)(GLenum, GLuint, GLint64 *);
	void (*GetBooleanv)(GLenum, GLboolean *);
	const GLubyte *(*GetString)(GLenum);
	GLenum (*GetError)(void);
	void (*GetProgramiv)(GLuint, GLenum, GLint *);
	void (*GetAttachedShaders)(GLuint, GLsizei, GLsizei *, GLuint *);
	void (*GetShaderiv)(GLuint, GLenum, GLint *);
	void (*GetShaderSource)(GLuint, GLsizei, GLsizei *, GLchar *);
	void (*GetTransformFeedbackVarying)(GLuint, GLuint, GLsizei, GLsizei *, GLsizei *, GLenum *,
					    GLchar *);
	void (*GetVertexAttribiv)(GLuint, GLenum, GLint *);
	void (*GetVertexAttribPointerv)(GLuint, GLenum, void **);
	void (*GetQueryIndexediv)(GLenum, GLuint, GLenum, GLint *);
	void (*GetQueryiv)(GLenum, GLenum, GLint *);
	const struct replay_state_ctx *x;
	const char *unsupported[16];  /* distinct, static strings */
	unsigned nunsupported;
};

/* After GL calls: their errors drained, what the model could not answer
 * noted. */
static void drain(struct gl *gl)
{
	const char *why;
	for (int i = 0; i < 16 && gl->GetError() != GL_NO_ERROR; i++)
		;
	if (!gl->x || !gl->x->take_unsupported || !(why = gl->x->take_unsupported(gl->x->user)))
		return;
	for (unsigned i = 0; i < gl->nunsupported; i++)
		if (!strcmp(gl->unsupported[i], why))
			return;
	if (gl->nunsupported < 16)
		gl->unsupported[gl->nunsupported++] = why;
}

static GLint get_int(struct gl *gl, GLenum pname)
{
	GLint v = 0;
	gl->GetIntegerv(pname, &v);
	drain(gl);
	return v;
}

static uint64_t app(struct host *h, uint32_t ns, unsigned kind, uint32_t name)
{
	return name ? replay_names_app(h->names, ns, kind, 0, name) : 0;
}

/* ---- the sections ------------------------------------------------------------ */

static void driver(struct enc *e, struct gl *gl)
{
	static const struct { const char *k; GLenum e; } strs[] = {
		{ "vendor", GL_VENDOR }, { "renderer", GL_RENDERER }, { "version", GL_VERSION } };
	enc_key(e, "driver");
	enc_map(e, 3);
	for (size_t i = 0; i < 3; i++) {
		enc_key(e, strs[i].k);
		enc_cstr(e, (const char *)gl->GetString(strs[i].e));
	}
	drain(gl);
}

static void program(struct enc *e, struct host *h, struct gl *gl, uint32_t share_ns)
{
	GLint prog = get_int(gl, GL_CURRENT_PROGRAM);
	enc_key(e, "program");
	if (!prog) {
		enc_null(e);
		return;
	}
	GLint linked = 0, nvar = 0, mode = 0, nsh = 0;
	GLuint shaders[16];
	GLsizei count = 0;
	gl->GetProgramiv((GLuint)prog, GL_LINK_STATUS, &linked);
	gl->GetProgramiv((GLuint)prog, GL_TRANSFORM_FEEDBACK_VARYINGS, &nvar);
	gl->GetProgramiv((GLuint)prog, GL_TRANSFORM_FEEDBACK_BUFFER_MODE, &mode);
	gl->GetProgramiv((GLuint)prog, GL_ATTACHED_SHADERS, &nsh);
	gl->GetAttachedShaders((GLuint)prog, 16, &count, shaders);
	drain(gl);
	if (count < 0 || count > 16)
		count = 0;
	if (nvar < 0 || nvar > 256)
		nvar = 0;
	enc_map(e, 6);
	enc_key(e, "name");
	enc_uint(e, app(h, share_ns, GLAPI_O_SHADER_OBJECT, (uint32_t)prog));
	enc_key(e, "link_status");
	enc_bool(e, linked != 0);
	enc_key(e, "tf_buffer_mode");
	enc_enum(e, (uint32_t)mode);
	enc_key(e, "tf_varyings");
	enc_array(e, (uint64_t)nvar);
	for (GLint i = 0; i < nvar; i++) {
		char name[256] = "";
		GLsizei len = 0, size = 0;
		GLenum type = 0;
		gl->GetTransformFeedbackVarying((GLuint)prog, (GLuint)i, sizeof name, &len, &size, &type,
						name);
		drain(gl);
		enc_map(e, 3);
		enc_key(e, "name");
		enc_cstr(e, name);
		enc_key(e, "type");
		enc_enum(e, type);
		enc_key(e, "size");
		enc_sint(e, size);
	}
	enc_key(e, "attached_shaders");
	enc_sint(e, nsh);
	enc_key(e, "shaders");
	enc_array(e, (uint64_t)count);
	for (GLsizei i = 0; i < count; i++) {
		GLint type = 0, len = 0;
		gl->GetShaderiv(shaders[i], GL_SHADER_TYPE, &type);
		gl->GetShaderiv(shaders[i], GL_SHADER_SOURCE_LENGTH, &len);
		drain(gl);
		if (len < 0 || (unsigned)len > MAX_SOURCE)
			len = 0;
		char *src = xt_malloc((size_t)len + 1);
		GLsizei got = 0;
		if (src && len)
			gl->GetShaderSource(shaders[i], len + 1, &got, src);
		drain(gl);
		if (got < 0 || got > len)
			got = 0;
		enc_map(e, 3);
		enc_key(e, "name");
		enc_uint(e, app(h, share_ns, GLAPI_O_SHADER_OBJECT, shaders[i]));
		enc_key(e, "type");
		enc_enum(e, (uint32_t)type);
		enc_key(e, "source");
		enc_str(e, src ? src : "", src ? (size_t)got : 0);
		xt_free(src);
	}
}

/* The observation core's sink: payloads one after another, each preceded
 * by its length (u32). */
struct obs_sink {
	struct xt_buf bytes;
	size_t at;             /* start of the reservation */
	uint32_t count;
	bool failed;
	struct host *h;
	uint32_t ns, share_ns;
	struct gl *gl;
};

static uint8_t *sink_reserve(void *user, size_t max)
{
	struct obs_sink *k = user;
	if (xt_buf_reserve(&k->bytes, max + 4)) {
		k->failed = true;
		return NULL;
	}
	k->at = k->bytes.len;
	return k->bytes.data + k->at + 4;
}

static void sink_commit(void *user, uint64_t seq, size_t n)
{
	struct obs_sink *k = user;
	uint32_t len = (uint32_t)n;
	memcpy(k->bytes.data + k->at, &len, 4);
	k->bytes.len = k->at + 4 + n;
	k->count++;
}

static void sink_stash(void *user)
{
}

static void sink_drain(void *user, const char *what)
{
	drain(((struct obs_sink *)user)->gl);
}

static uint32_t sink_app_name(void *user, enum obs_object kind, uint32_t name)
{
	struct obs_sink *k = user;
	static const enum glapi_object kinds[] = {
		[OBS_OBJ_BUFFER] = GLAPI_O_BUFFER,
		[OBS_OBJ_PROGRAM] = GLAPI_O_SHADER_OBJECT,
		[OBS_OBJ_QUERY] = GLAPI_O_QUERY,
	};
	return (uint32_t)app(k->h, kind == OBS_OBJ_QUERY ? k->ns : k->share_ns, kinds[kind], name);
}

static void transform_feedback(struct enc *e, struct host *h, struct gl *gl,
			       const struct replay_state_ctx *x, uint64_t call_no)
{
	GLboolean active = 0, paused = 0;
	GLint nbind = get_int(gl, GL_MAX_TRANSFORM_FEEDBACK_BUFFERS);
	GLint object = x->gles && x->major < 3 ? 0 : get_int(gl, GL_TRANSFORM_FEEDBACK_BINDING);
	gl->GetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE, &active);
	gl->GetBooleanv(GL_TRANSFORM_FEEDBACK_PAUSED, &paused);
	drain(gl);
	if (nbind <= 0)
		nbind = get_int(gl, GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS);
	if (nbind < 0 || nbind > 64)
		nbind = 4;
	enc_key(e, "transform_feedback");
	enc_map(e, 5);
	enc_key(e, "object");
	enc_uint(e, app(h, x->ns, GLAPI_O_TRANSFORM_FEEDBACK, (uint32_t)object));
	enc_key(e, "active");
	enc_bool(e, active);
	enc_key(e, "paused");
	enc_bool(e, paused);
	enc_key(e, "bindings");
	/* Every binding point with a buffer. */
	GLint bufs[64] = { 0 };
	uint32_t n = 0;
	for (GLint i = 0; i < nbind; i++) {
		gl->GetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, (GLuint)i, &bufs[i]);
		drain(gl);
		n += bufs[i] != 0;
	}
	enc_array(e, n);
	for (GLint i = 0; i < nbind; i++) {
		GLint64 start = 0, size = 0;
		if (!bufs[i])
			continue;
		gl->GetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_START, (GLuint)i, &start);
		gl->GetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, (GLuint)i, &size);
		drain(gl);
		enc_map(e, 4);
		enc_key(e, "index");
		enc_uint(e, (uint64_t)i);
		enc_key(e, "buffer");
		enc_uint(e, app(h, x->share_ns, GLAPI_O_BUFFER, (uint32_t)bufs[i]));
		enc_key(e, "start");
		enc_sint(e, start);
		enc_key(e, "size");
		enc_sint(e, size);
	}
	/* Their contents with the program's TF layout: tf_buffer observations
	 * of the observation core, as after glPauseTransformFeedback. */
	struct obs_sink k = { .h = h, .ns = x->ns, .share_ns = x->share_ns, .gl = gl };
	xt_buf_init(&k.bytes);
	struct obs_ctx c = {
		.gl = &h->obs_gl, .gles = x->gles, .major = x->major, .minor = x->minor,
		.reserve = sink_reserve, .commit = sink_commit, .stash = sink_stash,
		.drain = sink_drain, .app_name = sink_app_name, .user = &k,
	};
	if (host_obs_gl(h))
		obs_tf_end(&c, call_no, true);
	enc_key(e, "buffers");
	enc_array(e, k.failed ? 0 : k.count);
	for (size_t at = 0; !k.failed && at + 4 <= k.bytes.len;) {
		uint32_t len;
		memcpy(&len, k.bytes.data + at, 4);
		enc_raw(e, k.bytes.data + at + 4, len);
		at += 4 + (size_t)len;
	}
	xt_buf_fini(&k.bytes);
}

static void vertex_array(struct enc *e, struct host *h, struct gl *gl,
			 const struct replay_state_ctx *x)
{
	GLint vao = get_int(gl, GL_VERTEX_ARRAY_BINDING), nattr = get_int(gl, GL_MAX_VERTEX_ATTRIBS);
	if (nattr < 0 || nattr > 64)
		nattr = 16;
	GLint en_[64] = { 0 }, buf[64] = { 0 };
	uint32_t n = 0;
	for (GLint i = 0; i < nattr; i++) {
		gl->GetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &en_[i]);
		gl->GetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buf[i]);
		drain(gl);
		n += en_[i] || buf[i];
	}
	enc_key(e, "vertex_array");
	enc_map(e, 2);
	enc_key(e, "name");
	enc_uint(e, app(h, x->ns, GLAPI_O_VERTEX_ARRAY, (uint32_t)vao));
	enc_key(e, "attribs");
	enc_array(e, n);
	for (GLint i = 0; i < nattr; i++) {
		GLint size = 0, type = 0, stride = 0, norm = 0, integer = 0, divisor = 0;
		void *offset = NULL;
		if (!en_[i] && !buf[i])
			continue;
		gl->GetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_SIZE, &size);
		gl->GetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
		gl->GetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &stride);
		gl->GetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &norm);
		gl->GetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_INTEGER, &integer);
		gl->GetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &divisor);
		gl->GetVertexAttribPointerv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_POINTER, &offset);
		drain(gl);
		enc_map(e, 10);
		enc_key(e, "index");
		enc_uint(e, (uint64_t)i);
		enc_key(e, "enabled");
		enc_bool(e, en_[i] != 0);
		enc_key(e, "buffer");
		enc_uint(e, app(h, x->share_ns, GLAPI_O_BUFFER, (uint32_t)buf[i]));
		enc_key(e, "size");
		enc_sint(e, size);
		enc_key(e, "type");
		enc_enum(e, (uint32_t)type);
		enc_key(e, "normalized");
		enc_bool(e, norm != 0);
		enc_key(e, "integer");
		enc_bool(e, integer != 0);
		enc_key(e, "stride");
		enc_sint(e, stride);
		enc_key(e, "offset");
		enc_uint(e, (uint64_t)(uintptr_t)offset);
		enc_key(e, "divisor");
		enc_sint(e, divisor);
	}
}

static void bindings(struct enc *e, struct host *h, struct gl *gl, uint32_t share_ns)
{
	static const struct { const char *k; GLenum pname; } t[] = {
		{ "GL_ARRAY_BUFFER", GL_ARRAY_BUFFER_BINDING },
		{ "GL_ELEMENT_ARRAY_BUFFER", GL_ELEMENT_ARRAY_BUFFER_BINDING },
		{ "GL_TRANSFORM_FEEDBACK_BUFFER", GL_TRANSFORM_FEEDBACK_BUFFER_BINDING },
		{ "GL_COPY_READ_BUFFER", GL_COPY_READ_BUFFER_BINDING },
		{ "GL_COPY_WRITE_BUFFER", GL_COPY_WRITE_BUFFER_BINDING },
		{ "GL_UNIFORM_BUFFER", GL_UNIFORM_BUFFER_BINDING },
	};
	enc_key(e, "bindings");
	enc_map(e, sizeof t / sizeof t[0]);
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		enc_key(e, t[i].k);
		enc_uint(e, app(h, share_ns, GLAPI_O_BUFFER, (uint32_t)get_int(gl, t[i].pname)));
	}
}

/* The active queries: every target (with its vertex streams, where it has
 * them) whose GL_CURRENT_QUERY is a query. */
static void queries(struct enc *e, struct host *h, struct gl *gl,
		    const struct replay_state_ctx *x)
{
	static const struct { GLenum target; bool streams; } t[] = {
		{ GL_SAMPLES_PASSED, false }, { GL_ANY_SAMPLES_PASSED, false },
		{ GL_ANY_SAMPLES_PASSED_CONSERVATIVE, false }, { GL_TIME_ELAPSED, false },
		{ GL_PRIMITIVES_GENERATED, true }, { GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, true },
		{ GL_TRANSFORM_FEEDBACK_OVERFLOW, false },
		{ GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, true },
	};
	/* glGetQueryIndexediv is GL 4.0: a GLES context resolves the entry
	 * point but answers nothing through it. */
	const bool indexed = gl->GetQueryIndexediv && !x->gles && x->major >= 4;
	GLint streams = indexed ? get_int(gl, GL_MAX_VERTEX_STREAMS) : 1;
	struct { GLenum target; GLuint index; GLint name; } act[64];
	uint32_t n = 0;
	if (streams < 1 || streams > 8)
		streams = 1;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		for (GLint k = 0; k < (t[i].streams ? streams : 1) && n < 64; k++) {
			GLint q = 0;
			if (indexed)
				gl->GetQueryIndexediv(t[i].target, (GLuint)k, GL_CURRENT_QUERY, &q);
			else
				gl->GetQueryiv(t[i].target, GL_CURRENT_QUERY, &q);
			drain(gl);
			if (q)
				act[n++] = (__typeof__(act[0])){ t[i].target, (GLuint)k, q };
		}
	enc_key(e, "queries");
	enc_array(e, n);
	for (uint32_t i = 0; i < n; i++) {
		enc_map(e, 3);
		enc_key(e, "target");
		enc_enum(e, act[i].target);
		enc_key(e, "stream");
		enc_uint(e, act[i].index);
		enc_key(e, "query");
		enc_uint(e, app(h, x->ns, GLAPI_O_QUERY, (uint32_t)act[i].name));
	}
}

#define PROC(member, name) gl.member = (__typeof__(gl.member))h->gl_proc(name)

enum xt_rc replay_state_encode(struct host *h, const struct replay_state_ctx *x, uint64_t call_no,
			       const char *backend, struct xt_buf *out, struct xt_err *err)
{
	struct gl gl = { .x = x };
	struct enc e = { out, XT_OK };

	PROC(GetIntegerv, "glGetIntegerv");
	PROC(GetIntegeri_v, "glGetIntegeri_v");
	PROC(GetInteger64i_v, "glGetInteger64i_v");
	PROC(GetBooleanv, "glGetBooleanv");
	PROC(GetString, "glGetString");
	PROC(GetError, "glGetError");
	PROC(GetProgramiv, "glGetProgramiv");
	PROC(GetAttachedShaders, "glGetAttachedShaders");
	PROC(GetShaderiv, "glGetShaderiv");
	PROC(GetShaderSource, "glGetShaderSource");
	PROC(GetTransformFeedbackVarying, "glGetTransformFeedbackVarying");
	PROC(GetVertexAttribiv, "glGetVertexAttribiv");
	PROC(GetVertexAttribPointerv, "glGetVertexAttribPointerv");
	PROC(GetQueryIndexediv, "glGetQueryIndexediv");
	PROC(GetQueryiv, "glGetQueryiv");
	if (!gl.GetIntegerv || !gl.GetIntegeri_v || !gl.GetInteger64i_v || !gl.GetBooleanv ||
	    !gl.GetString || !gl.GetError || !gl.GetProgramiv || !gl.GetAttachedShaders ||
	    !gl.GetShaderiv || !gl.GetShaderSource || !gl.GetTransformFeedbackVarying ||
	    !gl.GetVertexAttribiv || !gl.GetVertexAttribPointerv || !gl.GetQueryiv)
		return XT_FAIL(err, XT_ERR_UNSUPPORTED, "the %s backend's GL lacks a glGet* function "
			       "the state at a call needs", backend);
	drain(&gl);
	xt_buf_reset(out);
	enc_map(&e, 9);
	enc_key(&e, "call");
	enc_uint(&e, call_no);
	enc_key(&e, "backend");
	enc_cstr(&e, backend);
	driver(&e, &gl);
	program(&e, h, &gl, x->share_ns);
	transform_feedback(&e, h, &gl, x, call_no);
	vertex_array(&e, h, &gl, x);
	bindings(&e, h, &gl, x->share_ns);
	queries(&e, h, &gl, x);
	drain(&gl);
	enc_key(&e, "not_modelled");
	enc_array(&e, gl.nunsupported);
	for (unsigned i = 0; i < gl.nunsupported; i++)
		enc_cstr(&e, gl.unsupported[i]);
	if (e.rc)
		return XT_FAIL(err, e.rc, "out of memory encoding the state at call %llu",
			       (unsigned long long)call_no);
	return XT_OK;
}
