/*
 * obs_tf.c - the `tf_buffer` observation (docs/trace-format.md,
 * "Observation kinds"): after glEndTransformFeedback /
 * glPauseTransformFeedback, for every TF binding point with a buffer bound,
 * the bytes of the bound range with the program's TF layout (varying names,
 * types, array sizes, buffer, byte offset; strides), so that a consumer can
 * decode vertices without the program.
 *
 * The TF layout comes from the program interface (GL_OFFSET and
 * GL_TRANSFORM_FEEDBACK_BUFFER_INDEX, GL 4.4 / ARB_enhanced_layouts) where
 * the context has it, so that xfb_offset / xfb_stride layouts are right;
 * otherwise it is computed from glGetTransformFeedbackVarying the way the
 * spec lays varyings out: packed in order, gl_SkipComponentsN leaving N
 * floats, gl_NextBuffer moving to the next buffer, and in separate mode one
 * varying per buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "obs_int.h"
#include "trace_enc.h"
#include "trace_format.h"

#define MAX_TF_BUFFERS 8      /* more than any driver's MAX_TRANSFORM_FEEDBACK_BUFFERS */
#define MAX_NAME_BYTES 256    /* longer varying names are cut */

struct tf_varying {
	char name[MAX_NAME_BYTES];
	unsigned type;        /* GL_NONE for gl_SkipComponents* / gl_NextBuffer */
	int size;             /* array size; components for gl_SkipComponentsN */
	uint32_t buffer;      /* binding point the varying is captured into */
	uint32_t offset;      /* bytes from the start of a vertex in that buffer */
};

struct tf_layout {
	uint32_t program;                 /* the driver's name */
	unsigned mode;                    /* GL_INTERLEAVED_ATTRIBS / GL_SEPARATE_ATTRIBS */
	uint32_t count;
	struct tf_varying *v;             /* count entries, heap */
	uint32_t stride[MAX_TF_BUFFERS];  /* bytes per vertex in each buffer */
	bool from_interface;              /* offsets from GL_OFFSET queries */
};

/* Bytes of one element of a varying type; 0 for a type TF cannot capture. */
static uint32_t type_bytes(unsigned type)
{
	switch (type) {
	case OBS_GL_FLOAT: case OBS_GL_INT: case OBS_GL_UNSIGNED_INT: return 4;
	case OBS_GL_FLOAT_VEC2: case OBS_GL_INT_VEC2: case OBS_GL_UNSIGNED_INT_VEC2: return 8;
	case OBS_GL_FLOAT_VEC3: case OBS_GL_INT_VEC3: case OBS_GL_UNSIGNED_INT_VEC3: return 12;
	case OBS_GL_FLOAT_VEC4: case OBS_GL_INT_VEC4: case OBS_GL_UNSIGNED_INT_VEC4: return 16;
	case OBS_GL_FLOAT_MAT2: return 16;
	case OBS_GL_FLOAT_MAT3: return 36;
	case OBS_GL_FLOAT_MAT4: return 64;
	case OBS_GL_FLOAT_MAT2x3: case OBS_GL_FLOAT_MAT3x2: return 24;
	case OBS_GL_FLOAT_MAT2x4: case OBS_GL_FLOAT_MAT4x2: return 32;
	case OBS_GL_FLOAT_MAT3x4: case OBS_GL_FLOAT_MAT4x3: return 48;
	case OBS_GL_DOUBLE: return 8;
	case OBS_GL_DOUBLE_VEC2: return 16;
	case OBS_GL_DOUBLE_VEC3: return 24;
	case OBS_GL_DOUBLE_VEC4: return 32;
	case OBS_GL_DOUBLE_MAT2: return 32;
	case OBS_GL_DOUBLE_MAT3: return 72;
	case OBS_GL_DOUBLE_MAT4: return 128;
	case OBS_GL_DOUBLE_MAT2x3: case OBS_GL_DOUBLE_MAT3x2: return 48;
	case OBS_GL_DOUBLE_MAT2x4: case OBS_GL_DOUBLE_MAT4x2: return 64;
	case OBS_GL_DOUBLE_MAT3x4: case OBS_GL_DOUBLE_MAT4x3: return 96;
	}
	return 0;
}

/* The program whose outputs TF captures: the current program, or the last
 * vertex-processing stage of the bound pipeline. */
static uint32_t tf_program(const struct obs_ctx *c)
{
	static const unsigned stages[] = { OBS_GL_GEOMETRY_SHADER, OBS_GL_TESS_EVALUATION_SHADER,
					   OBS_GL_VERTEX_SHADER };
	const struct obs_gl *gl = c->gl;
	int prog = 0, pipe = 0;

	gl->GetIntegerv(OBS_GL_CURRENT_PROGRAM, &prog);
	if (prog || !obs_ctx_at_least(c, 4, 1, 3, 1) || !gl->GetProgramPipelineiv)
		return (uint32_t)prog;
	gl->GetIntegerv(OBS_GL_PROGRAM_PIPELINE_BINDING, &pipe);
	if (!pipe)
		return 0;
	for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++) {
		int p = 0;
		if (stages[i] != OBS_GL_VERTEX_SHADER && !obs_ctx_at_least(c, 4, 1, 3, 2))
			continue;
		gl->GetProgramPipelineiv((unsigned)pipe, stages[i], &p);
		if (p)
			return (uint32_t)p;
	}
	return 0;
}

/* Offsets as the spec packs them (no xfb_offset qualifiers). */
static void layout_compute(struct tf_layout *l)
{
	uint32_t buf = 0, off = 0;

	for (uint32_t i = 0; i < l->count; i++) {
		struct tf_varying *v = &l->v[i];
		if (l->mode == OBS_GL_SEPARATE_ATTRIBS) {
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
	if (l->mode != OBS_GL_SEPARATE_ATTRIBS)
		l->stride[buf] = off;
}

/* Offsets, buffers and strides from the program interface (GL 4.4). */
static bool layout_from_interface(const struct obs_ctx *c, struct tf_layout *l)
{
	const struct obs_gl *gl = c->gl;
	int nbuf = 0;

	gl->GetProgramInterfaceiv(l->program, OBS_GL_TRANSFORM_FEEDBACK_BUFFER,
				  OBS_GL_ACTIVE_RESOURCES, &nbuf);
	if (gl->GetError() != OBS_GL_NO_ERROR || nbuf <= 0)
		return false;
	for (uint32_t i = 0; i < l->count; i++) {
		static const unsigned props[2] = { OBS_GL_OFFSET,
						   OBS_GL_TRANSFORM_FEEDBACK_BUFFER_INDEX };
		static const unsigned bprop = OBS_GL_BUFFER_BINDING;
		struct tf_varying *v = &l->v[i];
		int vals[2] = { -1, -1 }, binding = -1;
		if (v->type == OBS_GL_NONE)
			continue; /* gl_SkipComponents / gl_NextBuffer: no resource data */
		gl->GetProgramResourceiv(l->program, OBS_GL_TRANSFORM_FEEDBACK_VARYING, i, 2, props,
					 2, NULL, vals);
		if (vals[0] < 0 || vals[1] < 0 || vals[1] >= nbuf)
			return false;
		gl->GetProgramResourceiv(l->program, OBS_GL_TRANSFORM_FEEDBACK_BUFFER,
					 (unsigned)vals[1], 1, &bprop, 1, NULL, &binding);
		if (binding < 0 || binding >= MAX_TF_BUFFERS)
			return false;
		v->buffer = (uint32_t)binding;
		v->offset = (uint32_t)vals[0];
	}
	for (int b = 0; b < nbuf; b++) {
		static const unsigned sprops[2] = { OBS_GL_BUFFER_BINDING,
						    OBS_GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE };
		int sv[2] = { -1, 0 };
		gl->GetProgramResourceiv(l->program, OBS_GL_TRANSFORM_FEEDBACK_BUFFER, (unsigned)b,
					 2, sprops, 2, NULL, sv);
		if (sv[0] >= 0 && sv[0] < MAX_TF_BUFFERS)
			l->stride[sv[0]] = (uint32_t)sv[1];
	}
	return gl->GetError() == OBS_GL_NO_ERROR;
}

static bool layout_query(const struct obs_ctx *c, struct tf_layout *l, uint32_t program)
{
	const struct obs_gl *gl = c->gl;
	int count = 0, mode = 0;

	memset(l, 0, sizeof *l);
	l->program = program;
	if (!program)
		return false;
	gl->GetProgramiv(program, OBS_GL_TRANSFORM_FEEDBACK_VARYINGS, &count);
	gl->GetProgramiv(program, OBS_GL_TRANSFORM_FEEDBACK_BUFFER_MODE, &mode);
	if (count <= 0)
		return true; /* e.g. xfb qualifiers only on an older query path */
	l->mode = (unsigned)mode;
	l->v = calloc((size_t)count, sizeof *l->v);
	if (!l->v)
		return false;
	l->count = (uint32_t)count;
	for (uint32_t i = 0; i < l->count; i++) {
		int len = 0;
		struct tf_varying *v = &l->v[i];
		gl->GetTransformFeedbackVarying(program, i, MAX_NAME_BYTES, &len, &v->size,
						&v->type, v->name);
		v->name[MAX_NAME_BYTES - 1] = '\0';
	}
	layout_compute(l);
	if (obs_ctx_at_least(c, 4, 4, 0, 0) && gl->GetProgramInterfaceiv && gl->GetProgramResourceiv) {
		/* xfb_offset / xfb_stride layouts: ask the program interface,
		 * keeping the packed layout to fall back on. */
		struct tf_varying *packed = malloc(l->count * sizeof *packed);
		uint32_t packed_stride[MAX_TF_BUFFERS];
		if (!packed)
			return true;
		memcpy(packed, l->v, l->count * sizeof *packed);
		memcpy(packed_stride, l->stride, sizeof packed_stride);
		memset(l->stride, 0, sizeof l->stride);
		l->from_interface = layout_from_interface(c, l);
		if (!l->from_interface) {
			memcpy(l->v, packed, l->count * sizeof *packed);
			memcpy(l->stride, packed_stride, sizeof packed_stride);
			c->drain(c->user, "TF layout query");
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

static uint8_t *layout_encode(const struct obs_ctx *c, uint8_t *p, const struct tf_layout *l)
{
	uint32_t nbuf = 0;

	for (uint32_t b = 0; b < MAX_TF_BUFFERS; b++)
		if (l->stride[b])
			nbuf = b + 1;
	/* How the offsets were found (program interface or the spec's packing)
	 * is not part of the layout: drivers without GL 4.4 reach the same
	 * layout the other way, and a replay on them must not differ. */
	p = trace_enc_map(p, 4);
	p = trace_enc_key(p, "program");
	p = trace_enc_uint(p, obs_app_name(c, OBS_OBJ_PROGRAM, l->program));
	p = trace_enc_key(p, "mode");
	p = trace_enc_enum(p, l->mode);
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

static void write_tf_buffer(const struct obs_ctx *c, uint64_t seq, bool paused,
			    const struct tf_layout *l, uint32_t index, uint32_t buffer,
			    int64_t offset, int64_t size, const void *data, const char *why)
{
	size_t max = layout_bound(l) + 256 + (data ? (size_t)size : 0) + (why ? strlen(why) : 0);
	uint8_t *start = c->reserve(c->user, max), *p = start;

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
	p = trace_enc_uint(p, obs_app_name(c, OBS_OBJ_BUFFER, buffer));
	p = trace_enc_key(p, "offset");
	p = trace_enc_uint(p, (uint64_t)offset);
	p = trace_enc_key(p, "size");
	p = trace_enc_uint(p, (uint64_t)size);
	p = trace_enc_key(p, "layout");
	p = layout_encode(c, p, l);
	if (data) {
		p = trace_enc_key(p, "data");
		p = trace_enc_blob(p, data, (size_t)size);
	} else {
		p = trace_enc_key(p, "unavailable");
		p = trace_enc_string(p, why, strlen(why));
	}
	c->commit(c->user, seq, (size_t)(p - start));
}

void obs_tf_end(const struct obs_ctx *c, uint64_t seq, bool paused)
{
	const struct obs_gl *gl = c->gl;
	struct tf_layout l;
	int max_buffers = 4;

	c->stash(c->user);
	layout_query(c, &l, tf_program(c));
	/* Binding points: GL_MAX_TRANSFORM_FEEDBACK_BUFFERS since GL 4.0
	 * (ARB_transform_feedback3); before that and on GLES, one per separate
	 * attribute. */
	gl->GetIntegerv(obs_ctx_at_least(c, 4, 0, 0, 0) ? OBS_GL_MAX_TRANSFORM_FEEDBACK_BUFFERS
						       : OBS_GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS,
			&max_buffers);
	if (max_buffers <= 0 || max_buffers > MAX_TF_BUFFERS)
		max_buffers = c->gles ? 4 : MAX_TF_BUFFERS;
	c->drain(c->user, "TF buffer count");
	for (unsigned i = 0; i < (unsigned)max_buffers; i++) {
		int buffer = 0;
		int64_t start = 0, size = 0;
		gl->GetIntegeri_v(OBS_GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, i, &buffer);
		if (!buffer)
			continue;
		gl->GetInteger64i_v(OBS_GL_TRANSFORM_FEEDBACK_BUFFER_START, i, &start);
		gl->GetInteger64i_v(OBS_GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, i, &size);
		const int64_t total = obs_buffer_size(c, (uint32_t)buffer);
		/* BindBufferBase binds "the whole buffer": size 0 means to the end. */
		if (size == 0 || start + size > total)
			size = total - start;
		const char *why = NULL;
		void *data = size > 0 ? obs_buffer_copy(c, (uint32_t)buffer, start, size, &why) : NULL;
		if (size <= 0)
			why = "empty range";
		write_tf_buffer(c, seq, paused, &l, i, (uint32_t)buffer, start, size > 0 ? size : 0,
				data, why);
		free(data);
	}
	c->drain(c->user, "TF buffer read-back");
	free(l.v);
}
