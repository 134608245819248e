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
 *
 * This runs after every TF draw of a captured application, so it asks the
 * driver as little as it can: with the caller's struct obs_tf_cache, the
 * layout (and its encoding) is read once per program and link, the program,
 * the bound ranges, the generic binding and the bound buffers' sizes once
 * per change of them (the caller counts the calls that may change them),
 * and the number of binding points once per context.  A buffer bound to
 * the generic TRANSFORM_FEEDBACK_BUFFER binding is read through it, with
 * no binding changed; each record's bytes are read straight into the
 * record.  In the common case (one buffer, glBindBufferBase) an
 * observation on GLES costs four GL calls: glGetError before (the
 * application's errors are put aside), map, unmap, glGetError after; on
 * desktop GL also four (whether the buffer is mapped is asked before
 * glGetBufferSubData instead of the map and unmap).
 */
#include <stdlib.h>
#include <string.h>

#include "glapi_types.h"
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

/* Bytes of one element of a TF varying's type (GL_FLOAT_VEC3: 12), from
 * the type table; 0 for a type TF cannot capture. */
static uint32_t type_bytes(unsigned type)
{
	const struct glapi_type *t = glapi_type_by_value(type);
	return t && t->tf ? (uint32_t)t->components * t->component_bytes : 0;
}

/* The program whose outputs TF captures: the current program, or the last
 * vertex-processing stage of the bound pipeline. */
static uint32_t tf_program(const struct obs_ctx *c, uint32_t *current)
{
	static const unsigned stages[] = { OBS_GL_GEOMETRY_SHADER, OBS_GL_TESS_EVALUATION_SHADER,
					   OBS_GL_VERTEX_SHADER };
	const struct obs_gl *gl = c->gl;
	int prog = 0, pipe = 0;

	gl->GetIntegerv(OBS_GL_CURRENT_PROGRAM, &prog);
	*current = (uint32_t)prog;
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

/* Longest reason a read-back can give (obs_readback_into, obs_tf_end). */
#define MAX_WHY_BYTES 64

#define CACHED_PROGRAMS 8      /* an application alternating between more TF
				* programs than this reads layouts again */

/* One program's layout, ready to copy into records. */
struct cached_layout {
	bool valid;               /* holds layout.program's layout */
	struct tf_layout layout;  /* layout.v owned */
	uint8_t *encoded;         /* layout_encode() of it, names already the
				   * application's */
	size_t encoded_bytes;
};

/* A binding point with a buffer bound, as the driver reported it. */
struct tf_binding {
	uint32_t index;
	uint32_t buffer;          /* the driver's name */
	int64_t start, size;      /* TRANSFORM_FEEDBACK_BUFFER_START / _SIZE */
	int64_t buffer_size;      /* its GL_BUFFER_SIZE; -1 while not asked */
};

struct obs_tf_cache {
	uint64_t generation;      /* obs_ctx.program_generation of the entries */
	struct cached_layout e[CACHED_PROGRAMS];
	unsigned next;            /* entry replaced at the next miss */
	int max_buffers;          /* TF binding points; 0 while not asked */
	bool state_valid;         /* program and bound[] are the context's */
	uint64_t state_generation; /* obs_ctx.tf_state_generation they were read under */
	uint32_t program;         /* tf_program() */
	uint32_t current_program; /* CURRENT_PROGRAM (0: a pipeline or none) */
	uint32_t generic;         /* the generic TRANSFORM_FEEDBACK_BUFFER binding */
	unsigned nbound;
	struct tf_binding bound[MAX_TF_BUFFERS];
};

struct obs_tf_cache *obs_tf_cache_create(void)
{
	return calloc(1, sizeof(struct obs_tf_cache));
}

static void entry_clear(struct cached_layout *e)
{
	free(e->layout.v);
	free(e->encoded);
	memset(e, 0, sizeof *e);
}

static void cache_clear(struct obs_tf_cache *k)
{
	for (unsigned i = 0; i < CACHED_PROGRAMS; i++)
		entry_clear(&k->e[i]);
}

void obs_tf_cache_destroy(struct obs_tf_cache *k)
{
	if (!k)
		return;
	cache_clear(k);
	free(k);
}

/*
 * The layout of `program`, from the cache or read now (then *asked is
 * set); NULL when out of memory.  The layout of a program changes only when
 * it is linked again (glLinkProgram, glProgramBinary), and a name gets a
 * new program only through deletion and creation: the caller's
 * program_generation changes at each of them, so a cached layout is what
 * layout_query() would return again.  A layout read while out of memory is
 * used once and not kept (entry left invalid).
 */
static struct cached_layout *layout_get(const struct obs_ctx *c, struct obs_tf_cache *k,
					uint32_t program, bool *asked)
{
	struct cached_layout *e;
	struct tf_layout l;

	if (k->generation != c->program_generation) {
		cache_clear(k);
		k->generation = c->program_generation;
	}
	for (unsigned i = 0; i < CACHED_PROGRAMS; i++)
		if (k->e[i].valid && k->e[i].layout.program == program)
			return &k->e[i];
	*asked = true;
	e = &k->e[k->next];
	k->next = (k->next + 1) % CACHED_PROGRAMS;
	entry_clear(e);
	const bool ok = layout_query(c, &l, program);
	e->layout = l;
	e->encoded = malloc(layout_bound(&l));
	if (!e->encoded)
		return NULL;
	e->encoded_bytes = (size_t)(layout_encode(c, e->encoded, &l) - e->encoded);
	e->valid = ok || !program;
	return e;
}

/* Binding points: GL_MAX_TRANSFORM_FEEDBACK_BUFFERS since GL 4.0
 * (ARB_transform_feedback3); before that and on GLES, one per separate
 * attribute. */
static int max_binding_points(const struct obs_ctx *c)
{
	int max_buffers = 4;

	c->gl->GetIntegerv(obs_ctx_at_least(c, 4, 0, 0, 0) ? OBS_GL_MAX_TRANSFORM_FEEDBACK_BUFFERS
							 : OBS_GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS,
			   &max_buffers);
	if (max_buffers <= 0 || max_buffers > MAX_TF_BUFFERS)
		max_buffers = c->gles ? 4 : MAX_TF_BUFFERS;
	return max_buffers;
}

/*
 * The range of binding `b` that is observed: [start, start+size) with
 * BindBufferBase's size 0 ("the whole buffer") and a range past the end
 * cut at b->buffer_size; returns its bytes.
 */
static size_t tf_range(const struct tf_binding *b, int64_t *start, int64_t *size)
{
	const int64_t total = b->buffer_size;
	if (*size == 0 || *start + *size > total)
		*size = total - *start;
	return *size > 0 ? (size_t)*size : 0;
}

/* A tf_buffer record up to its `data` / `unavailable` key: every key but
 * the last of the MAP of 8. */
static uint8_t *tf_head(const struct obs_ctx *c, uint8_t *p, bool paused,
			const struct cached_layout *k, const struct tf_binding *b, int64_t start,
			size_t n)
{
	p = trace_enc_map(p, 8);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, "tf_buffer", 9);
	p = trace_enc_key(p, "after");
	p = paused ? trace_enc_string(p, "pause", 5) : trace_enc_string(p, "end", 3);
	p = trace_enc_key(p, "index");
	p = trace_enc_uint(p, b->index);
	p = trace_enc_key(p, "buffer");
	p = trace_enc_uint(p, obs_app_name(c, OBS_OBJ_BUFFER, b->buffer));
	p = trace_enc_key(p, "offset");
	p = trace_enc_uint(p, (uint64_t)start);
	p = trace_enc_key(p, "size");
	p = trace_enc_uint(p, n);
	p = trace_enc_key(p, "layout");
	memcpy(p, k->encoded, k->encoded_bytes);
	return p + k->encoded_bytes;
}

/*
 * One tf_buffer record: binding point b->index has b->buffer bound at
 * [start, start+size) (size 0: to the end).  The bytes are read from the
 * driver straight into the record; when they cannot be, the record says
 * why instead.  The buffer is read through the generic
 * TRANSFORM_FEEDBACK_BUFFER binding when it is bound there (the usual
 * glBindBufferBase case: no binding to change and restore); its size is
 * asked once per state generation (sizes change only through calls that
 * bump it).  True when its last GL call was a glGetError that returned
 * GL_NO_ERROR (then no error of ours is pending).
 */
static bool write_tf_buffer(const struct obs_ctx *c, uint64_t seq, bool paused,
			    const struct cached_layout *k, struct tf_binding *b, uint32_t generic)
{
	struct obs_readback rb;
	int64_t start = b->start, size = b->size;

	obs_readback_begin(c, b->buffer,
			   b->buffer == generic ? OBS_GL_TRANSFORM_FEEDBACK_BUFFER : 0, &rb);
	if (b->buffer_size < 0)
		b->buffer_size = obs_readback_size(c, &rb);
	const size_t n = tf_range(b, &start, &size);
	uint8_t *first = c->reserve(c->user, k->encoded_bytes + 256 + n + MAX_WHY_BYTES), *p = first;
	if (!p) {
		obs_readback_end(c, &rb, false);
		b->buffer_size = -1;
		return false;
	}
	p = tf_head(c, p, paused, k, b, start, n);
	uint8_t *data_key = p;
	/* What trace_enc_blob() writes, with the bytes read in place. */
	p = trace_enc_key(p, "data");
	p = trace_enc_varint(trace_enc_tag(p, TRACE_TAG_BLOB), n);
	const char *why = n ? obs_readback_into(c, &rb, start, size, p) : "empty range";
	const bool checked = why == NULL;
	if (!obs_readback_end(c, &rb, checked) && !why)
		why = "the driver refused the read-back";
	if (why) {
		p = trace_enc_key(data_key, "unavailable");
		p = trace_enc_string(p, why, strlen(why));
		b->buffer_size = -1;  /* not to be trusted either: ask again */
	} else {
		p += n;
	}
	c->commit(c->user, seq, (size_t)(p - first));
	return checked && !why;
}

/* The bound binding points, asked of the driver. */
static void read_bindings(const struct obs_ctx *c, struct obs_tf_cache *k)
{
	const struct obs_gl *gl = c->gl;

	int generic = 0;

	gl->GetIntegerv(OBS_GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, &generic);
	k->generic = (uint32_t)generic;
	k->nbound = 0;
	for (unsigned i = 0; i < (unsigned)k->max_buffers; i++) {
		struct tf_binding *b = &k->bound[k->nbound];
		int buffer = 0;
		gl->GetIntegeri_v(OBS_GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, i, &buffer);
		if (!buffer)
			continue;
		b->index = i;
		b->buffer = (uint32_t)buffer;
		b->start = b->size = 0;
		b->buffer_size = -1;
		gl->GetInteger64i_v(OBS_GL_TRANSFORM_FEEDBACK_BUFFER_START, i, &b->start);
		gl->GetInteger64i_v(OBS_GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, i, &b->size);
		k->nbound++;
	}
}

/*
 * What an observation asks before any bytes, sync and async alike: the
 * program, its layout, the binding points and the bound ranges, from the
 * cache `k` where it is current.  Stashes the application's errors first.
 * The layout, or NULL when out of memory.
 */
static bool state_current(const struct obs_ctx *c, const struct obs_tf_cache *k)
{
	return k->state_valid && k->state_generation == c->tf_state_generation;
}

/* Reads the program, the binding points and the bound ranges into `k`
 * unless they are current.  Errors already stashed. */
static void state_read(const struct obs_ctx *c, struct obs_tf_cache *k)
{
	bool asked;

	if (state_current(c, k))
		return;
	k->program = tf_program(c, &k->current_program);
	/* Only CURRENT_PROGRAM was asked so far, which cannot fail; a program
	 * pipeline's queries can. */
	asked = k->program == 0;
	if (!k->max_buffers) {
		k->max_buffers = max_binding_points(c);
		asked = true;
	}
	if (asked)
		c->drain(c->user, "TF buffer count");
	read_bindings(c, k);
	k->state_generation = c->tf_state_generation;
	k->state_valid = true;
}

static struct cached_layout *tf_state(const struct obs_ctx *c, struct obs_tf_cache *k)
{
	struct cached_layout *l;
	bool asked = false;

	c->stash(c->user);
	state_read(c, k);
	l = layout_get(c, k, k->program, &asked);
	if (asked)
		c->drain(c->user, "TF layout");
	return l;
}

/* The records read at the call. */
static void tf_read_now(const struct obs_ctx *c, uint64_t seq, bool paused,
			struct obs_tf_cache *k, struct cached_layout *l)
{
	bool clean = false;
	for (unsigned i = 0; l && i < k->nbound; i++)
		clean = write_tf_buffer(c, seq, paused, l, &k->bound[i], k->generic);
	/* After a read-back's glGetError found nothing, no error of ours can
	 * be pending. */
	if (!clean)
		c->drain(c->user, "TF buffer read-back");
}

static struct obs_tf_cache *cache_or_local(const struct obs_ctx *c, struct obs_tf_cache *local)
{
	if (c->tf_cache)
		return c->tf_cache;
	memset(local, 0, sizeof *local);
	local->generation = c->program_generation;
	return local;
}

static void tf_done(struct obs_tf_cache *k, const struct obs_tf_cache *local,
		    struct cached_layout *l)
{
	if (k == local)
		cache_clear(k);
	else if (l && !l->valid)
		entry_clear(l);
}

void obs_tf_end(const struct obs_ctx *c, uint64_t seq, bool paused)
{
	struct obs_tf_cache local;  /* zeroed only when used: it is ~1 KiB */
	struct obs_tf_cache *k = cache_or_local(c, &local);
	struct cached_layout *l = tf_state(c, k);

	tf_read_now(c, seq, paused, k, l);
	tf_done(k, &local, l);
}

/*
 * Copies the bound ranges into a staging entry of `q` and queues it; false
 * when it could not (then nothing is queued or announced, and the caller
 * reads at the call).  Buffer sizes not known yet are asked as the
 * synchronous read-back asks them.
 */
static bool tf_stage(const struct obs_ctx *c, struct obs_async *q, uint64_t seq, bool paused,
		     struct obs_tf_cache *k, const struct cached_layout *l)
{
	size_t total = 0, off[MAX_TF_BUFFERS], n[MAX_TF_BUFFERS];
	int64_t start[MAX_TF_BUFFERS];
	uint64_t t = obs_async_clock(c);
	for (unsigned i = 0; i < k->nbound; i++) {
		struct tf_binding *b = &k->bound[i];
		int64_t size = b->size;
		if (b->buffer_size < 0) {
			struct obs_readback rb;
			obs_readback_begin(c, b->buffer, b->buffer == k->generic ?
					   OBS_GL_TRANSFORM_FEEDBACK_BUFFER : 0, &rb);
			b->buffer_size = obs_readback_size(c, &rb);
			obs_readback_end(c, &rb, false);
		}
		start[i] = b->start;
		n[i] = tf_range(b, &start[i], &size);
		off[i] = total;
		total += (n[i] + 15) & ~(size_t)15;
	}
	if (!total)
		return false;   /* nothing to copy: read now, it costs nothing */
	obs_async_part_timed(c, q, OBS_TF_SIZES, t);
	t = obs_async_clock(c);
	struct obs_staged *e = obs_async_stage(c, q, seq, total);
	if (!e)
		return false;
	for (unsigned i = 0; i < k->nbound; i++) {
		uint8_t *h = obs_async_head(e, l->encoded_bytes + 256);
		if (!h) {
			obs_async_unstage(c, q, e);
			return false;
		}
		const uint8_t *end = tf_head(c, h, paused, l, &k->bound[i], start[i], n[i]);
		obs_async_head_done(e, (size_t)(end - h), off[i], n[i], k->bound[i].buffer, start[i]);
	}
	obs_async_part_timed(c, q, OBS_TF_STAGE, t);
	t = obs_async_clock(c);
	bool defer = c->defer_copies;
	for (unsigned i = 0; defer && i < k->nbound; i++)
		defer = !n[i] || !obs_async_buffer_mapped(c, k->bound[i].buffer);
	obs_async_part_timed(c, q, OBS_TF_SIZES, t);
	t = obs_async_clock(c);
	if (!obs_async_push_tf(c, q, defer)) {
		for (unsigned i = 0; i < k->nbound; i++)
			k->bound[i].buffer_size = -1;  /* ask again, as after a failed read */
		return false;
	}
	c->pending(c->user, seq, "tf_buffer", k->nbound);
	obs_async_part_timed(c, q, OBS_TF_STAGE, t);
	return true;
}

/* The range of one binding that TF writes (OpenGL 4.6 core §13.3.2,
 * GLES 3.2 §12.1.2: from the bound offset, at most the bound size; all of
 * the buffer from 0 for glBindBufferBase, whose START and SIZE read 0). */
static struct obs_tf_range bound_range(uint32_t buffer, int64_t start, int64_t size)
{
	return (struct obs_tf_range){ buffer, start,
				      size > 0 && start <= INT64_MAX - size ? start + size
									: INT64_MAX };
}

unsigned obs_tf_bound_ranges(const struct obs_ctx *c, struct obs_tf_range *out, unsigned max)
{
	struct obs_tf_cache *k = c->tf_cache;
	unsigned n = 0;

	if (k) {
		/* What the TF end will ask anyway: read now, asked once. */
		state_read(c, k);
		for (unsigned i = 0; i < k->nbound && n < max; i++)
			out[n++] = bound_range(k->bound[i].buffer, k->bound[i].start,
					       k->bound[i].size);
		return n;
	}
	const int points = max_binding_points(c);
	for (unsigned i = 0; i < (unsigned)points && n < max; i++) {
		int buffer = 0;
		int64_t start = 0, size = 0;
		c->gl->GetIntegeri_v(OBS_GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, i, &buffer);
		if (!buffer)
			continue;
		c->gl->GetInteger64i_v(OBS_GL_TRANSFORM_FEEDBACK_BUFFER_START, i, &start);
		c->gl->GetInteger64i_v(OBS_GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, i, &size);
		out[n++] = bound_range((uint32_t)buffer, start, size);
	}
	return n;
}

bool obs_tf_state_current(const struct obs_ctx *c)
{
	return c->tf_cache && state_current(c, c->tf_cache);
}

bool obs_tf_current_program(const struct obs_ctx *c, uint32_t *program)
{
	if (!c->tf_cache || !state_current(c, c->tf_cache))
		return false;
	*program = c->tf_cache->current_program;
	return true;
}

void obs_tf_end_async(const struct obs_ctx *c, struct obs_async *q, uint64_t seq, bool paused)
{
	const uint64_t t = obs_async_clock(c);
	struct obs_tf_cache local;
	struct obs_tf_cache *k = cache_or_local(c, &local);
	struct cached_layout *l = tf_state(c, k);

	obs_async_part_timed(c, q, OBS_TF_STATE, t);
	if (!l || !k->nbound || !tf_stage(c, q, seq, paused, k, l))
		tf_read_now(c, seq, paused, k, l);
	tf_done(k, &local, l);
	obs_async_poll_stashed(c, q, seq, OBS_ASYNC_POLL);
	obs_async_tf_timed(c, q, t);
}
