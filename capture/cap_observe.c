/*
 * cap_observe.c - observations: the golden data read back from the real
 * driver while the application runs (docs/trace-format.md, "Observation
 * kinds").
 *
 *   tf_buffer   after glEndTransformFeedback / glPauseTransformFeedback:
 *               for every TF binding point with a buffer bound, the bytes of
 *               the bound range, with the program's TF layout (varying names,
 *               types, array sizes, buffer, byte offset; strides) so that a
 *               consumer can decode vertices without the program.
 *   query       after glGetQueryObject*v(GL_QUERY_RESULT): the result, also
 *               when it went to a query buffer object.
 *   buffer_read after glGetBufferSubData: the bytes the application got.
 *   map_read    after a mapping with GL_MAP_READ_BIT: the bytes visible
 *               through the mapping when it was handed to the application.
 *
 * The read-back must change nothing the application can see.  Bindings that
 * it touches (GL_COPY_READ_BUFFER) are restored; pending GL errors of the
 * application are stashed first (cap_glerror_stash) and handed back by the
 * glGetError wrapper, and errors our own calls raise are drained and
 * reported once as an internal warning.  Results whose value depends on
 * timing (GL_QUERY_RESULT_AVAILABLE, GL_QUERY_RESULT_NO_WAIT) are not
 * observations: they stay in the call's RET record only.
 *
 * The TF layout comes from the program interface (GL_OFFSET and
 * GL_TRANSFORM_FEEDBACK_BUFFER_INDEX, GL 4.4 / ARB_enhanced_layouts) where
 * the context has it, so that xfb_offset / xfb_stride layouts are right;
 * otherwise it is computed from glGetTransformFeedbackVarying the way the
 * spec lays varyings out: packed in order, gl_SkipComponentsN leaving N
 * floats, gl_NextBuffer moving to the next buffer, and in separate mode one
 * varying per buffer.
 */
#include "cap_observe.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cap_gl.h"
#include "trace_enc.h"
#include "xt_log.h"

#define MAX_TF_BUFFERS 8      /* more than any driver's MAX_TRANSFORM_FEEDBACK_BUFFERS */
#define MAX_NAME_BYTES 256    /* longer varying names are cut (and say so) */

struct tf_varying {
	char name[MAX_NAME_BYTES];
	GLenum type;          /* GL_NONE for gl_SkipComponents* / gl_NextBuffer */
	GLint size;           /* array size; components for gl_SkipComponentsN */
	uint32_t buffer;      /* binding point the varying is captured into */
	uint32_t offset;      /* bytes from the start of a vertex in that buffer */
};

struct tf_layout {
	GLuint program;
	GLenum mode;                      /* GL_INTERLEAVED_ATTRIBS / GL_SEPARATE_ATTRIBS */
	uint32_t count;
	struct tf_varying *v;             /* count entries, heap */
	uint32_t stride[MAX_TF_BUFFERS];  /* bytes per vertex in each buffer */
	bool from_interface;              /* offsets from GL_OFFSET queries */
};

/* Bytes of one element of a varying type; 0 for a type TF cannot capture. */
static uint32_t type_bytes(GLenum type)
{
	switch (type) {
	case GL_FLOAT: case GL_INT: case GL_UNSIGNED_INT: return 4;
	case GL_FLOAT_VEC2: case GL_INT_VEC2: case GL_UNSIGNED_INT_VEC2: return 8;
	case GL_FLOAT_VEC3: case GL_INT_VEC3: case GL_UNSIGNED_INT_VEC3: return 12;
	case GL_FLOAT_VEC4: case GL_INT_VEC4: case GL_UNSIGNED_INT_VEC4: return 16;
	case GL_FLOAT_MAT2: return 16;
	case GL_FLOAT_MAT3: return 36;
	case GL_FLOAT_MAT4: return 64;
	case GL_FLOAT_MAT2x3: case GL_FLOAT_MAT3x2: return 24;
	case GL_FLOAT_MAT2x4: case GL_FLOAT_MAT4x2: return 32;
	case GL_FLOAT_MAT3x4: case GL_FLOAT_MAT4x3: return 48;
	case GL_DOUBLE: return 8;
	case GL_DOUBLE_VEC2: return 16;
	case GL_DOUBLE_VEC3: return 24;
	case GL_DOUBLE_VEC4: return 32;
	case GL_DOUBLE_MAT2: return 32;
	case GL_DOUBLE_MAT3: return 72;
	case GL_DOUBLE_MAT4: return 128;
	case GL_DOUBLE_MAT2x3: case GL_DOUBLE_MAT3x2: return 48;
	case GL_DOUBLE_MAT2x4: case GL_DOUBLE_MAT4x2: return 64;
	case GL_DOUBLE_MAT3x4: case GL_DOUBLE_MAT4x3: return 96;
	}
	return 0;
}

/* Whether the current context is desktop GL >= gl_major.gl_minor or, with
 * es_major > 0, GLES >= es_major.es_minor. */
static bool ctx_at_least(int gl_major, int gl_minor, int es_major, int es_minor)
{
	struct cap_ctx_info c;
	if (!cap_current_ctx(&c))
		return false;
	if (c.gles)
		return es_major > 0 && (c.major > es_major || (c.major == es_major && c.minor >= es_minor));
	return c.major > gl_major || (c.major == gl_major && c.minor >= gl_minor);
}

static bool ctx_is_gles(void)
{
	struct cap_ctx_info c;
	return cap_current_ctx(&c) && c.gles;
}

/* The program whose outputs TF captures: the current program, or the last
 * vertex-processing stage of the bound pipeline. */
static GLuint tf_program(void)
{
	GLint prog = 0, pipe = 0;
	CAP_REAL(glGetIntegerv)(GL_CURRENT_PROGRAM, &prog);
	if (prog || !ctx_at_least(4, 1, 3, 1))
		return (GLuint)prog;
	CAP_REAL(glGetIntegerv)(GL_PROGRAM_PIPELINE_BINDING, &pipe);
	if (!pipe)
		return 0;
	static const GLenum stages[] = { GL_GEOMETRY_SHADER, GL_TESS_EVALUATION_SHADER, GL_VERTEX_SHADER };
	for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++) {
		GLint p = 0;
		if (stages[i] != GL_VERTEX_SHADER && !ctx_at_least(4, 1, 3, 2))
			continue;
		CAP_REAL(glGetProgramPipelineiv)((GLuint)pipe, stages[i], &p);
		if (p)
			return (GLuint)p;
	}
	return 0;
}

/* Offsets as the spec packs them (no xfb_offset qualifiers). */
static void layout_compute(struct tf_layout *l)
{
	uint32_t buf = 0, off = 0;
	for (uint32_t i = 0; i < l->count; i++) {
		struct tf_varying *v = &l->v[i];
		if (l->mode == GL_SEPARATE_ATTRIBS) {
			v->buffer = i < MAX_TF_BUFFERS ? i : MAX_TF_BUFFERS - 1;
			v->offset = 0;
			l->stride[v->buffer] = type_bytes(v->type) * (uint32_t)v->size;
			continue;
		}
		if (!strcmp(v->name, "gl_NextBuffer")) {
			l->stride[buf] = off;
			if (buf + 1 < MAX_TF_BUFFERS)
				buf++;
			off = 0;
			v->buffer = buf;
			v->offset = 0;
			continue;
		}
		v->buffer = buf;
		v->offset = off;
		if (!strncmp(v->name, "gl_SkipComponents", 17))
			off += 4u * (uint32_t)atoi(v->name + 17);
		else
			off += type_bytes(v->type) * (uint32_t)v->size;
	}
	if (l->mode != GL_SEPARATE_ATTRIBS)
		l->stride[buf] = off;
}

/* Offsets, buffers and strides from the program interface (GL 4.4). */
static bool layout_from_interface(struct tf_layout *l)
{
	GLint nbuf = 0;
	CAP_REAL(glGetProgramInterfaceiv)(l->program, GL_TRANSFORM_FEEDBACK_BUFFER,
					  GL_ACTIVE_RESOURCES, &nbuf);
	if (CAP_REAL(glGetError)() != GL_NO_ERROR || nbuf <= 0)
		return false;
	for (uint32_t i = 0; i < l->count; i++) {
		struct tf_varying *v = &l->v[i];
		static const GLenum props[2] = { GL_OFFSET, GL_TRANSFORM_FEEDBACK_BUFFER_INDEX };
		GLint vals[2] = { -1, -1 }, binding = -1;
		static const GLenum bprop = GL_BUFFER_BINDING;
		if (v->type == GL_NONE)
			continue; /* gl_SkipComponents / gl_NextBuffer: no resource data */
		CAP_REAL(glGetProgramResourceiv)(l->program, GL_TRANSFORM_FEEDBACK_VARYING, i,
						 2, props, 2, NULL, vals);
		if (vals[0] < 0 || vals[1] < 0 || vals[1] >= nbuf)
			return false;
		CAP_REAL(glGetProgramResourceiv)(l->program, GL_TRANSFORM_FEEDBACK_BUFFER,
						 (GLuint)vals[1], 1, &bprop, 1, NULL, &binding);
		if (binding < 0 || binding >= MAX_TF_BUFFERS)
			return false;
		v->buffer = (uint32_t)binding;
		v->offset = (uint32_t)vals[0];
	}
	for (GLint b = 0; b < nbuf; b++) {
		static const GLenum sprops[2] = { GL_BUFFER_BINDING, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE };
		GLint sv[2] = { -1, 0 };
		CAP_REAL(glGetProgramResourceiv)(l->program, GL_TRANSFORM_FEEDBACK_BUFFER, (GLuint)b,
						 2, sprops, 2, NULL, sv);
		if (sv[0] >= 0 && sv[0] < MAX_TF_BUFFERS)
			l->stride[sv[0]] = (uint32_t)sv[1];
	}
	return CAP_REAL(glGetError)() == GL_NO_ERROR;
}

static bool layout_query(struct tf_layout *l, GLuint program)
{
	GLint count = 0, mode = 0;

	memset(l, 0, sizeof *l);
	l->program = program;
	if (!program)
		return false;
	CAP_REAL(glGetProgramiv)(program, GL_TRANSFORM_FEEDBACK_VARYINGS, &count);
	CAP_REAL(glGetProgramiv)(program, GL_TRANSFORM_FEEDBACK_BUFFER_MODE, &mode);
	if (count <= 0)
		return true; /* e.g. xfb qualifiers only on an older query path */
	l->mode = (GLenum)mode;
	l->v = calloc((size_t)count, sizeof *l->v);
	if (!l->v)
		return false;
	l->count = (uint32_t)count;
	for (uint32_t i = 0; i < l->count; i++) {
		GLsizei len = 0;
		struct tf_varying *v = &l->v[i];
		CAP_REAL(glGetTransformFeedbackVarying)(program, i, MAX_NAME_BYTES, &len,
							&v->size, &v->type, v->name);
		v->name[MAX_NAME_BYTES - 1] = '\0';
	}
	layout_compute(l);
	if (ctx_at_least(4, 4, 0, 0)) {
		/* xfb_offset / xfb_stride layouts: ask the program interface,
		 * keeping the packed layout to fall back on. */
		struct tf_varying *packed = malloc(l->count * sizeof *packed);
		uint32_t packed_stride[MAX_TF_BUFFERS];
		if (!packed)
			return true;
		memcpy(packed, l->v, l->count * sizeof *packed);
		memcpy(packed_stride, l->stride, sizeof packed_stride);
		memset(l->stride, 0, sizeof l->stride);
		l->from_interface = layout_from_interface(l);
		if (!l->from_interface) {
			memcpy(l->v, packed, l->count * sizeof *packed);
			memcpy(l->stride, packed_stride, sizeof packed_stride);
			cap_glerror_drain("TF layout query");
		}
		free(packed);
	}
	return true;
}

static size_t layout_bound(const struct tf_layout *l)
{
	/* Keys and tags are short; bound each entry generously. */
	return 128 + (size_t)l->count * (MAX_NAME_BYTES + 96) + MAX_TF_BUFFERS * 12;
}

static uint8_t *layout_encode(uint8_t *p, const struct tf_layout *l)
{
	uint32_t nbuf = 0;
	for (uint32_t b = 0; b < MAX_TF_BUFFERS; b++)
		if (l->stride[b])
			nbuf = b + 1;
	p = trace_enc_map(p, 5);
	p = trace_enc_key(p, "program");
	p = trace_enc_uint(p, l->program);
	p = trace_enc_key(p, "mode");
	p = trace_enc_enum(p, l->mode);
	p = trace_enc_key(p, "source");
	p = l->from_interface ? trace_enc_string(p, "program-interface", 17)
			      : trace_enc_string(p, "packed", 6);
	p = trace_enc_key(p, "strides");
	p = trace_enc_array(p, nbuf);
	for (uint32_t b = 0; b < nbuf; b++)
		p = trace_enc_uint(p, l->stride[b]);
	p = trace_enc_key(p, "varyings");
	p = trace_enc_array(p, l->count);
	for (uint32_t i = 0; i < l->count; i++) {
		const struct tf_varying *v = &l->v[i];
		p = trace_enc_map(p, 5);
		p = trace_enc_key(p, "name");
		p = trace_enc_string(p, v->name, strlen(v->name));
		p = trace_enc_key(p, "type");
		p = trace_enc_enum(p, v->type);
		p = trace_enc_key(p, "size");
		p = trace_enc_uint(p, (uint64_t)(v->size < 0 ? 0 : v->size));
		p = trace_enc_key(p, "buffer");
		p = trace_enc_uint(p, v->buffer);
		p = trace_enc_key(p, "offset");
		p = trace_enc_uint(p, v->offset);
	}
	return p;
}

/*
 * Reads [offset, offset+size) of `buffer` into a new heap block through the
 * COPY_READ_BUFFER binding (restored after).  *why says why not on failure.
 */
static void *buffer_read(GLuint buffer, int64_t offset, int64_t size, const char **why)
{
	GLint old = 0, mapped = GL_FALSE;
	void *data = NULL;

	*why = NULL;
	if (offset < 0 || size <= 0) {
		*why = "empty range";
		return NULL;
	}
	CAP_REAL(glGetIntegerv)(GL_COPY_READ_BUFFER_BINDING, &old);
	CAP_REAL(glBindBuffer)(GL_COPY_READ_BUFFER, buffer);
	CAP_REAL(glGetBufferParameteriv)(GL_COPY_READ_BUFFER, GL_BUFFER_MAPPED, &mapped);
	if (mapped) {
		*why = "the buffer is mapped by the application";
		goto out;
	}
	data = malloc((size_t)size);
	if (!data) {
		*why = "out of memory";
		goto out;
	}
	if (!ctx_is_gles()) {
		CAP_REAL(glGetBufferSubData)(GL_COPY_READ_BUFFER, offset, size, data);
	} else {
		void *p = CAP_REAL(glMapBufferRange)(GL_COPY_READ_BUFFER, offset, size, GL_MAP_READ_BIT);
		if (p) {
			memcpy(data, p, (size_t)size);
			CAP_REAL(glUnmapBuffer)(GL_COPY_READ_BUFFER);
		} else {
			free(data);
			data = NULL;
			*why = "glMapBufferRange failed";
		}
	}
out:
	CAP_REAL(glBindBuffer)(GL_COPY_READ_BUFFER, (GLuint)old);
	if (data && CAP_REAL(glGetError)() != GL_NO_ERROR) {
		free(data);
		data = NULL;
		*why = "the driver refused the read-back";
	}
	return data;
}

static int64_t buffer_size(GLuint buffer)
{
	GLint old = 0;
	GLint64 size = 0;
	CAP_REAL(glGetIntegerv)(GL_COPY_READ_BUFFER_BINDING, &old);
	CAP_REAL(glBindBuffer)(GL_COPY_READ_BUFFER, buffer);
	CAP_REAL(glGetBufferParameteri64v)(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
	CAP_REAL(glBindBuffer)(GL_COPY_READ_BUFFER, (GLuint)old);
	return size;
}

static void write_tf_buffer(uint64_t seq, bool paused, const struct tf_layout *l, GLuint index,
			    GLuint buffer, int64_t offset, int64_t size, const void *data,
			    const char *why)
{
	size_t max = layout_bound(l) + 256 + (data ? (size_t)size : 0) + (why ? strlen(why) : 0);
	uint8_t *start = cap_rec_reserve(max), *p = start;
	if (!p)
		return;
	p = trace_enc_map(p, 8);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, "tf_buffer", 9);
	p = trace_enc_key(p, "after");
	p = paused ? trace_enc_string(p, "pause", 5) : trace_enc_string(p, "end", 3);
	p = trace_enc_key(p, "index");
	p = trace_enc_uint(p, index);
	p = trace_enc_key(p, "buffer");
	p = trace_enc_uint(p, buffer);
	p = trace_enc_key(p, "offset");
	p = trace_enc_uint(p, (uint64_t)offset);
	p = trace_enc_key(p, "size");
	p = trace_enc_uint(p, (uint64_t)size);
	p = trace_enc_key(p, "layout");
	p = layout_encode(p, l);
	if (data) {
		p = trace_enc_key(p, "data");
		p = trace_enc_blob(p, data, (size_t)size);
	} else {
		p = trace_enc_key(p, "unavailable");
		p = trace_enc_string(p, why, strlen(why));
	}
	cap_rec_commit(TRACE_REC_OBSERVATION, TRACE_RECF_ATTACHED, seq, (size_t)(p - start));
}

void cap_observe_tf_end(uint64_t seq, bool paused)
{
	struct tf_layout l;
	GLint max_buffers = 4;

	if (!cap_observe_enabled())
		return;
	cap_glerror_stash();
	layout_query(&l, tf_program());
	/* Binding points: GL_MAX_TRANSFORM_FEEDBACK_BUFFERS since GL 4.0
	 * (ARB_transform_feedback3); before that and on GLES, one per separate
	 * attribute. */
	CAP_REAL(glGetIntegerv)(ctx_at_least(4, 0, 0, 0) ? GL_MAX_TRANSFORM_FEEDBACK_BUFFERS
						       : GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS,
				&max_buffers);
	if (max_buffers <= 0 || max_buffers > MAX_TF_BUFFERS)
		max_buffers = ctx_is_gles() ? 4 : MAX_TF_BUFFERS;
	cap_glerror_drain("TF buffer count");
	for (GLuint i = 0; i < (GLuint)max_buffers; i++) {
		GLint buffer = 0;
		GLint64 start = 0, size = 0;
		CAP_REAL(glGetIntegeri_v)(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, i, &buffer);
		if (!buffer)
			continue;
		CAP_REAL(glGetInteger64i_v)(GL_TRANSFORM_FEEDBACK_BUFFER_START, i, &start);
		CAP_REAL(glGetInteger64i_v)(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, i, &size);
		int64_t total = buffer_size((GLuint)buffer);
		/* BindBufferBase binds "the whole buffer": size 0 means to the end. */
		if (size == 0 || start + size > total)
			size = total - start;
		const char *why = NULL;
		void *data = size > 0 ? buffer_read((GLuint)buffer, start, size, &why) : NULL;
		if (size <= 0)
			why = "empty range";
		write_tf_buffer(seq, paused, &l, i, (GLuint)buffer, start, size > 0 ? size : 0,
				data, why);
		free(data);
	}
	cap_glerror_drain("TF buffer read-back");
	free(l.v);
}

/*
 * The result of a glGetQueryObject*v call, or of glGetQueryBufferObject*v /
 * glGetQueryObject*v with a query buffer bound (params NULL): the result
 * went to a buffer, so it is asked for again into our memory, with the
 * query buffer binding set aside for that one call.
 */
void cap_observe_query(uint64_t seq, const char *func, GLuint id, GLenum pname,
		       const void *params, size_t elem_bytes)
{
	/* glGetQueryObjectiv / i64v (and the buffer forms) are signed. */
	bool is_signed = strstr(func, "Objecti") != NULL;
	uint64_t raw = 0;

	if (!cap_observe_enabled() || pname != GL_QUERY_RESULT || (elem_bytes != 4 && elem_bytes != 8))
		return;
	if (params) {
		memcpy(&raw, params, elem_bytes);
	} else {
		GLint qbuf = 0;
		GLuint64 v = 0;
		cap_glerror_stash();
		if (ctx_at_least(4, 4, 0, 0))
			CAP_REAL(glGetIntegerv)(GL_QUERY_BUFFER_BINDING, &qbuf);
		if (qbuf)
			CAP_REAL(glBindBuffer)(GL_QUERY_BUFFER, 0);
		CAP_REAL(glGetQueryObjectui64v)(id, GL_QUERY_RESULT, &v);
		if (qbuf)
			CAP_REAL(glBindBuffer)(GL_QUERY_BUFFER, (GLuint)qbuf);
		bool failed = CAP_REAL(glGetError)() != GL_NO_ERROR;
		cap_glerror_drain("query result read-back");
		if (failed)
			return;
		/* The application asked for elem_bytes; keep its truncation. */
		raw = elem_bytes == 4 ? (uint32_t)v : v;
	}
	uint8_t *start = cap_rec_reserve(256 + strlen(func)), *p = start;
	if (!p)
		return;
	p = trace_enc_map(p, 6);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, "query", 5);
	p = trace_enc_key(p, "function");
	p = trace_enc_string(p, func, strlen(func));
	p = trace_enc_key(p, "query");
	p = trace_enc_uint(p, id);
	p = trace_enc_key(p, "pname");
	p = trace_enc_enum(p, pname);
	p = trace_enc_key(p, "result");
	if (is_signed)
		p = trace_enc_sint(p, elem_bytes == 4 ? (int64_t)(int32_t)raw : (int64_t)raw);
	else
		p = trace_enc_uint(p, raw);
	p = trace_enc_key(p, "to_buffer");
	p = trace_enc_bool(p, params == NULL);
	cap_rec_commit(TRACE_REC_OBSERVATION, TRACE_RECF_ATTACHED, seq, (size_t)(p - start));
}

static void write_read_data(uint64_t seq, const char *kind, GLuint buffer, int64_t offset,
			    int64_t size, GLbitfield access, bool with_access, const void *data)
{
	if (size < 0 || !data)
		return;
	uint8_t *start = cap_rec_reserve(128 + (size_t)size), *p = start;
	if (!p)
		return;
	p = trace_enc_map(p, with_access ? 6 : 5);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, kind, strlen(kind));
	p = trace_enc_key(p, "buffer");
	p = trace_enc_uint(p, buffer);
	p = trace_enc_key(p, "offset");
	p = trace_enc_uint(p, (uint64_t)offset);
	p = trace_enc_key(p, "size");
	p = trace_enc_uint(p, (uint64_t)size);
	if (with_access) {
		p = trace_enc_key(p, "access");
		p = trace_enc_bitfield(p, access);
	}
	p = trace_enc_key(p, "data");
	p = trace_enc_blob(p, data, (size_t)size);
	cap_rec_commit(TRACE_REC_OBSERVATION, TRACE_RECF_ATTACHED, seq, (size_t)(p - start));
}

void cap_observe_buffer_read(uint64_t seq, GLuint buffer, int64_t offset, int64_t size,
			     const void *data)
{
	if (cap_observe_enabled())
		write_read_data(seq, "buffer_read", buffer, offset, size, 0, false, data);
}

void cap_observe_map(uint64_t seq, GLuint buffer, int64_t offset, int64_t length,
		     GLbitfield access, const void *ptr)
{
	if (cap_observe_enabled() && (access & GL_MAP_READ_BIT))
		write_read_data(seq, "map_read", buffer, offset, length, access, true, ptr);
}
