/*
 * cli_state.c - `xfbtrace state`: the GL state a trace has set up at a
 * call, in the spirit of apitrace's `replay -D CALL`, but read from the
 * trace itself: programs with their shaders' sources and TF varyings, the
 * transform-feedback object and its buffer bindings, buffers, vertex
 * arrays, active queries, and the TF buffer contents the capture read back
 * last (its golden observations), decoded by varying (cli_tf_text, the one
 * layout decoder of trace/trace_tf.h).
 *
 * It is what the calls say, not what a driver reports: no replay runs, so
 * it works on any trace, also one whose replay fails.  Objects are tracked
 * by their name in the program (one namespace per kind, contexts and
 * threads together: a share group), up to MAX_OBJECTS of each kind; the
 * calls understood are the ones TF programs use (listed in usage()).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_format.h"
#include "trace_reader.h"
#include "xt_json.h"

#define CMD "state"
#define MAX_OBJECTS 256
#define MAX_TF_BINDINGS 4
#define MAX_ATTRIBS 16

struct shader {
	uint64_t id;
	char type[48];
	struct xt_buf source;
};

struct program {
	uint64_t id;
	uint64_t shaders[8];
	unsigned nshaders;
	struct xt_buf varyings;    /* names, ", "-separated */
	char buffer_mode[48];
	bool linked;
};

struct buffer {
	uint64_t id;
	uint64_t size;
	char target[48];           /* where it was bound last */
};

struct attrib {
	bool set, enabled;
	uint64_t buffer;
	struct xt_buf text;        /* "size 4, GL_FLOAT, stride 16, offset 0" */
};

struct vao {
	uint64_t id;
	struct attrib a[MAX_ATTRIBS];
};

struct tf_binding {
	uint64_t buffer, offset, size;  /* size 0: the whole buffer */
	bool set;
};

/* A transform feedback object: its bindings and status are its own (GL 4.0
 * ARB_transform_feedback2); 0 is the default object. */
struct tf_object {
	uint64_t id;
	struct tf_binding b[MAX_TF_BINDINGS];
	char status[32], mode[48];
};

struct state {
	struct shader shaders[MAX_OBJECTS];
	struct program programs[MAX_OBJECTS];
	struct buffer buffers[MAX_OBJECTS];
	struct vao vaos[MAX_OBJECTS];
	struct tf_object tfs[MAX_OBJECTS];
	unsigned nshaders, nprograms, nbuffers, nvaos, ntfs, dropped;
	uint64_t current_program, current_vao, tf_object, array_buffer;
	char queries[8][96];       /* active: "GL_PRIMITIVES_GENERATED 1" */
	unsigned nqueries;
	struct xt_buf obs[MAX_TF_BINDINGS];  /* last tf_buffer observation payload */
	uint64_t obs_call[MAX_TF_BINDINGS];
	uint64_t call_no;
	char call_name[96];
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace state [--json] TRACE CALL\n"
		"\n"
		"Prints the GL state trace TRACE has set up once call CALL has run, as\n"
		"its calls say (no replay: nothing is read back from a driver), like\n"
		"apitrace's replay -D: the current program, every program with its\n"
		"shaders' sources, TF varyings and buffer mode; the transform feedback\n"
		"object, whether TF is active or paused and its buffer bindings; the\n"
		"buffers and their sizes; the vertex arrays and their attributes; the\n"
		"active queries; and the TF buffers' contents as the capture read them\n"
		"back last (at or before CALL), decoded per vertex and varying.\n"
		"Objects are known by the program's names, every context together.\n"
		"Calls understood: glCreateProgram, glCreateShader, glShaderSource,\n"
		"glAttachShader, glTransformFeedbackVaryings, glLinkProgram,\n"
		"glUseProgram, glBindBuffer, glBufferData, glBindBufferBase / Range,\n"
		"glBindTransformFeedback, glBegin / Pause / Resume / EndTransformFeedback,\n"
		"glBindVertexArray, glVertexAttrib[I]Pointer, glEnable / Disable-\n"
		"VertexAttribArray, glBeginQuery[Indexed] / glEndQuery[Indexed].\n"
		"The state a driver reports at a call: xfbtrace replay --dump-state CALL.\n"
		"\n"
		"  --json   one JSON object, for scripts\n"
		"\n"
		"exit status: 0 printed, 2 error (no such call, a damaged trace)\n");
}

/* ---- arguments by name ---------------------------------------------------- */

struct call_view {
	struct trace_reader *r;
	const struct trace_call *c;
	const struct trace_ret *ret;
};

static const struct trace_value *arg(const struct call_view *v, const char *name, uint32_t *index)
{
	uint32_t n;
	const char *const *params = trace_reader_func_params(v->r, v->c->func_id, &n);
	for (uint32_t i = 0; params && i < n && i < v->c->nargs; i++) {
		if (!strcmp(params[i], name)) {
			if (index)
				*index = i;
			return &v->c->args[i];
		}
	}
	return NULL;
}

static bool as_u64(const struct trace_value *t, uint64_t *out)
{
	if (!t)
		return false;
	switch (t->tag) {
	case TRACE_TAG_UINT: case TRACE_TAG_ENUM: case TRACE_TAG_BITFIELD:
	case TRACE_TAG_HANDLE: case TRACE_TAG_OFFSET: case TRACE_TAG_POINTER:
		*out = t->u;
		return true;
	case TRACE_TAG_SINT:
		*out = (uint64_t)t->i;
		return true;
	default:
		return false;
	}
}

static uint64_t num_arg(const struct call_view *v, const char *name)
{
	uint64_t u = 0;
	as_u64(arg(v, name, NULL), &u);
	return u;
}

/* An argument as dump prints it (enums by name), into out[n]. */
static void text_arg(const struct call_view *v, const char *name, char *out, size_t n)
{
	uint32_t i;
	const struct trace_value *t = arg(v, name, &i);
	struct xt_buf b = XT_BUF_INIT;
	out[0] = '\0';
	if (t && !cli_value_text(&b, t, cli_param_fmt_of(v->c->name, i), false) && b.len)
		snprintf(out, n, "%.*s", (int)b.len, (const char *)b.data);
	xt_buf_fini(&b);
}

/* ---- the objects ------------------------------------------------------------ */

/* The object named `id` in an array of structs that start with their
 * uint64_t id, added when new; NULL (and counted) past MAX_OBJECTS. */
static void *find_or_add(void *arr, size_t elem, unsigned *count, uint64_t id, unsigned *dropped)
{
	char *base = arr;
	for (unsigned i = 0; i < *count; i++) {
		uint64_t have;
		memcpy(&have, base + i * elem, sizeof have);
		if (have == id)
			return base + i * elem;
	}
	if (*count >= MAX_OBJECTS) {
		(*dropped)++;
		return NULL;
	}
	memcpy(base + (*count)++ * elem, &id, sizeof id);
	return base + (*count - 1) * elem;
}

#define FIND_OR_ADD(arr, count, want) \
	find_or_add((arr), sizeof (arr)[0], &(count), (want), &s->dropped)

static struct shader *shader_of(struct state *s, uint64_t id)
{
	return FIND_OR_ADD(s->shaders, s->nshaders, id);
}

static struct program *program_of(struct state *s, uint64_t id)
{
	return FIND_OR_ADD(s->programs, s->nprograms, id);
}

static struct buffer *buffer_of(struct state *s, uint64_t id)
{
	return FIND_OR_ADD(s->buffers, s->nbuffers, id);
}

static struct vao *vao_of(struct state *s, uint64_t id)
{
	return FIND_OR_ADD(s->vaos, s->nvaos, id);
}

static struct tf_object *tf_of(struct state *s)
{
	return FIND_OR_ADD(s->tfs, s->ntfs, s->tf_object);
}

static void join_strings(struct xt_buf *b, const struct trace_value *t, const char *sep)
{
	if (t && t->tag == TRACE_TAG_ARRAY) {
		for (uint32_t i = 0; i < t->agg.count; i++) {
			const struct trace_value *e = &t->agg.items[i];
			if (e->tag != TRACE_TAG_STRING && e->tag != TRACE_TAG_MEMORY)
				continue;
			if (b->len && sep)
				xt_buf_append(b, sep, strlen(sep));
			xt_buf_append(b, e->mem.bytes, e->mem.len);
		}
	} else if (t && (t->tag == TRACE_TAG_STRING || t->tag == TRACE_TAG_MEMORY)) {
		xt_buf_append(b, t->mem.bytes, t->mem.len);
	}
}

/* The slot of a glBeginQuery[Indexed] / glEndQuery[Indexed]: its target,
 * with " stream N" for an index N > 0. */
static void query_slot(const struct call_view *v, char *out, size_t n)
{
	char target[48];
	text_arg(v, "target", target, sizeof target);
	uint64_t index = arg(v, "index", NULL) ? num_arg(v, "index") : 0;
	if (index)
		snprintf(out, n, "%.47s stream %u", target, (unsigned)(index & 0xffff));
	else
		snprintf(out, n, "%s", target);
}

static void apply_call(struct state *s, const struct call_view *v)
{
	const char *f = v->c->name;
	uint64_t ret = 0;
	bool has_ret = v->ret && as_u64(&v->ret->ret, &ret);

	if (!strcmp(f, "glCreateProgram") && has_ret) {
		program_of(s, ret);
	} else if (!strcmp(f, "glCreateShader") && has_ret) {
		struct shader *sh = shader_of(s, ret);
		if (sh)
			text_arg(v, "type", sh->type, sizeof sh->type);
	} else if (!strcmp(f, "glShaderSource")) {
		struct shader *sh = shader_of(s, num_arg(v, "shader"));
		if (sh) {
			xt_buf_reset(&sh->source);
			join_strings(&sh->source, arg(v, "string", NULL), NULL);
		}
	} else if (!strcmp(f, "glAttachShader")) {
		struct program *p = program_of(s, num_arg(v, "program"));
		if (p && p->nshaders < 8)
			p->shaders[p->nshaders++] = num_arg(v, "shader");
	} else if (!strcmp(f, "glTransformFeedbackVaryings") ||
		   !strcmp(f, "glTransformFeedbackVaryingsEXT")) {
		struct program *p = program_of(s, num_arg(v, "program"));
		if (p) {
			xt_buf_reset(&p->varyings);
			join_strings(&p->varyings, arg(v, "varyings", NULL), ", ");
			text_arg(v, "bufferMode", p->buffer_mode, sizeof p->buffer_mode);
		}
	} else if (!strcmp(f, "glLinkProgram")) {
		struct program *p = program_of(s, num_arg(v, "program"));
		if (p)
			p->linked = true;
	} else if (!strcmp(f, "glUseProgram")) {
		s->current_program = num_arg(v, "program");
	} else if (!strcmp(f, "glBindBuffer")) {
		uint64_t id = num_arg(v, "buffer");
		struct buffer *b = id ? buffer_of(s, id) : NULL;
		if (b)
			text_arg(v, "target", b->target, sizeof b->target);
		char target[48];
		text_arg(v, "target", target, sizeof target);
		if (!strcmp(target, "GL_ARRAY_BUFFER"))
			s->array_buffer = id;
	} else if (!strcmp(f, "glBufferData")) {
		/* The buffer bound to `target`: the one last bound there. */
		char target[48];
		text_arg(v, "target", target, sizeof target);
		for (unsigned i = s->nbuffers; i-- > 0;) {
			if (!strcmp(s->buffers[i].target, target)) {
				s->buffers[i].size = num_arg(v, "size");
				break;
			}
		}
	} else if (!strcmp(f, "glBindBufferBase") || !strcmp(f, "glBindBufferRange")) {
		char target[48];
		uint64_t index = num_arg(v, "index");
		text_arg(v, "target", target, sizeof target);
		struct tf_object *t = tf_of(s);
		if (strcmp(target, "GL_TRANSFORM_FEEDBACK_BUFFER") || index >= MAX_TF_BINDINGS || !t)
			return;
		t->b[index] = (struct tf_binding){ .buffer = num_arg(v, "buffer"), .set = true,
						   .offset = num_arg(v, "offset"),
						   .size = num_arg(v, "size") };
		struct buffer *b = t->b[index].buffer ? buffer_of(s, t->b[index].buffer) : NULL;
		if (b)
			snprintf(b->target, sizeof b->target, "%s", target);
	} else if (!strcmp(f, "glBindTransformFeedback")) {
		s->tf_object = num_arg(v, "id");
		tf_of(s);
	} else if (!strcmp(f, "glBeginTransformFeedback") && tf_of(s)) {
		snprintf(tf_of(s)->status, sizeof tf_of(s)->status, "active");
		text_arg(v, "primitiveMode", tf_of(s)->mode, sizeof tf_of(s)->mode);
	} else if (!strcmp(f, "glPauseTransformFeedback") && tf_of(s)) {
		snprintf(tf_of(s)->status, sizeof tf_of(s)->status, "paused");
	} else if (!strcmp(f, "glResumeTransformFeedback") && tf_of(s)) {
		snprintf(tf_of(s)->status, sizeof tf_of(s)->status, "active");
	} else if (!strcmp(f, "glEndTransformFeedback") && tf_of(s)) {
		snprintf(tf_of(s)->status, sizeof tf_of(s)->status, "inactive");
	} else if (!strcmp(f, "glBindVertexArray")) {
		s->current_vao = num_arg(v, "array");
		if (s->current_vao)
			vao_of(s, s->current_vao);
	} else if (!strcmp(f, "glVertexAttribPointer") || !strcmp(f, "glVertexAttribIPointer")) {
		uint64_t index = num_arg(v, "index");
		struct vao *va = vao_of(s, s->current_vao);
		if (!va || index >= MAX_ATTRIBS)
			return;
		char type[48], ptr[48];
		text_arg(v, "type", type, sizeof type);
		text_arg(v, "pointer", ptr, sizeof ptr);
		struct attrib *a = &va->a[index];
		a->set = true;
		a->buffer = s->array_buffer;
		xt_buf_reset(&a->text);
		xt_buf_printf(&a->text, "size %" PRIu64 ", %s, stride %" PRIu64 ", pointer %s%s", num_arg(v, "size"),
			      type, num_arg(v, "stride"), ptr, f[14] == 'I' ? ", integer" : "");
	} else if (!strcmp(f, "glEnableVertexAttribArray") || !strcmp(f, "glDisableVertexAttribArray")) {
		uint64_t index = num_arg(v, "index");
		struct vao *va = vao_of(s, s->current_vao);
		if (va && index < MAX_ATTRIBS)
			va->a[index].enabled = f[2] == 'E';
	} else if ((!strcmp(f, "glBeginQuery") || !strcmp(f, "glBeginQueryIndexed")) &&
		   s->nqueries < 8) {
		/* "TARGET ID", or for vertex stream N > 0 "TARGET stream N ID"
		 * (stream 0 is the slot glBeginQuery uses). */
		char target[64];
		query_slot(v, target, sizeof target);
		snprintf(s->queries[s->nqueries++], sizeof s->queries[0], "%s %" PRIu64, target,
			 num_arg(v, "id"));
	} else if (!strcmp(f, "glEndQuery") || !strcmp(f, "glEndQueryIndexed")) {
		char target[64];
		query_slot(v, target, sizeof target);
		size_t tl = strlen(target);
		for (unsigned i = 0; i < s->nqueries; i++) {
			const char *rest = s->queries[i] + tl + 1;
			if (!strncmp(s->queries[i], target, tl) && s->queries[i][tl] == ' ' &&
			    *rest && strspn(rest, "0123456789") == strlen(rest)) {
				memmove(s->queries[i], s->queries[--s->nqueries], sizeof s->queries[0]);
				break;
			}
		}
	}
}

/* Keeps the payload of a tf_buffer observation, by binding point. */
static void note_observation(struct state *s, struct trace_reader *r, const struct trace_record *rec,
			     struct xt_arena *arena)
{
	struct trace_value v;
	if (trace_reader_decode_value(r, rec, arena, &v) != XT_OK)
		return;
	const struct trace_value *kind = trace_value_get(&v, "kind");
	const struct trace_value *index = trace_value_get(&v, "index");
	if (!kind || kind->tag != TRACE_TAG_STRING || kind->mem.len != 9 ||
	    memcmp(kind->mem.bytes, "tf_buffer", 9) || !index || index->tag != TRACE_TAG_UINT ||
	    index->u >= MAX_TF_BINDINGS)
		return;
	xt_buf_reset(&s->obs[index->u]);
	xt_buf_append(&s->obs[index->u], rec->payload, rec->payload_bytes);
	s->obs_call[index->u] = rec->seq;
}

/* ---- output ----------------------------------------------------------------- */

static void print_text(struct state *s)
{
	struct xt_arena arena;
	xt_arena_init(&arena, 1 << 16);
	printf("state after call %" PRIu64 " %s, as the trace's calls set it (not read back from "
	       "a driver)\n", s->call_no, s->call_name);
	printf("current program: %" PRIu64 "\n", s->current_program);
	for (unsigned i = 0; i < s->nprograms; i++) {
		struct program *p = &s->programs[i];
		printf("program %" PRIu64 "%s%s\n", p->id, p->linked ? " (linked)" : "",
		       p->id == s->current_program ? " (current)" : "");
		if (p->varyings.len)
			printf("  TF varyings: %.*s (%s)\n", (int)p->varyings.len,
			       (const char *)p->varyings.data, p->buffer_mode);
		for (unsigned k = 0; k < p->nshaders; k++) {
			struct shader *sh = NULL;
			for (unsigned j = 0; j < s->nshaders; j++)
				if (s->shaders[j].id == p->shaders[k])
					sh = &s->shaders[j];
			printf("  shader %" PRIu64 " %s\n", p->shaders[k], sh ? sh->type : "?");
			if (!sh || !sh->source.len)
				continue;
			const char *src = (const char *)sh->source.data, *end = src + sh->source.len;
			while (src < end) {
				const char *nl = memchr(src, '\n', (size_t)(end - src));
				size_t n = nl ? (size_t)(nl - src) : (size_t)(end - src);
				printf("    | %.*s\n", (int)n, src);
				src += n + (nl ? 1 : 0);
			}
		}
	}
	for (unsigned k = 0; k < s->ntfs; k++) {
		struct tf_object *t = &s->tfs[k];
		printf("transform feedback object %" PRIu64 "%s: %s%s%s\n", t->id,
		       t->id == s->tf_object ? " (bound)" : "", t->status[0] ? t->status : "never begun",
		       t->mode[0] ? ", " : "", t->mode);
		for (unsigned i = 0; i < MAX_TF_BINDINGS; i++)
			if (t->b[i].set)
				printf("  binding %u: buffer %" PRIu64 ", offset %" PRIu64 ", size %" PRIu64
				       "%s\n", i, t->b[i].buffer, t->b[i].offset, t->b[i].size,
				       t->b[i].size ? "" : " (whole buffer)");
	}
	for (unsigned i = 0; i < s->nbuffers; i++)
		printf("buffer %" PRIu64 ": %" PRIu64 " bytes, last bound to %s\n", s->buffers[i].id,
		       s->buffers[i].size, s->buffers[i].target[0] ? s->buffers[i].target : "nothing");
	for (unsigned i = 0; i < s->nvaos; i++) {
		printf("vertex array %" PRIu64 "%s\n", s->vaos[i].id,
		       s->vaos[i].id == s->current_vao ? " (bound)" : "");
		for (unsigned k = 0; k < MAX_ATTRIBS; k++) {
			struct attrib *a = &s->vaos[i].a[k];
			if (a->set)
				printf("  attrib %u: %.*s, buffer %" PRIu64 ", %s\n", k, (int)a->text.len,
				       (const char *)a->text.data, a->buffer,
				       a->enabled ? "enabled" : "disabled");
		}
	}
	printf("active queries:%s\n", s->nqueries ? "" : " none");
	for (unsigned i = 0; i < s->nqueries; i++)
		printf("  %s\n", s->queries[i]);
	for (unsigned i = 0; i < MAX_TF_BINDINGS; i++) {
		const uint8_t *p;
		struct trace_value v;
		struct xt_err e;
		struct xt_buf text = XT_BUF_INIT;
		if (!s->obs[i].len)
			continue;
		p = s->obs[i].data;
		xt_arena_reset(&arena);
		if (trace_value_decode(&p, p + s->obs[i].len, &arena, &v, &e) != XT_OK)
			continue;
		if (cli_tf_text(&text, &v, &arena) == XT_OK && text.len)
			printf("TF buffer at binding %u as the capture read it back after call %" PRIu64
			       ":%.*s\n", i, s->obs_call[i], (int)text.len, (const char *)text.data);
		xt_buf_fini(&text);
	}
	if (s->dropped)
		printf("(%u objects past the first %d of a kind are not shown)\n", s->dropped,
		       MAX_OBJECTS);
	xt_arena_fini(&arena);
}

static void print_json(struct state *s)
{
	struct xt_buf b = XT_BUF_INIT;
	struct xt_jw w;
	xt_jw_init(&w, &b);
	xt_jw_obj(&w);
	xt_jw_ku64(&w, "call", s->call_no);
	xt_jw_kstr(&w, "function", s->call_name);
	xt_jw_ku64(&w, "current_program", s->current_program);
	xt_jw_karr(&w, "programs");
	for (unsigned i = 0; i < s->nprograms; i++) {
		struct program *p = &s->programs[i];
		xt_jw_obj(&w);
		xt_jw_ku64(&w, "id", p->id);
		xt_jw_kbool(&w, "linked", p->linked);
		xt_jw_key(&w, "tf_varyings");
		xt_jw_strn(&w, p->varyings.len ? (const char *)p->varyings.data : "", p->varyings.len);
		xt_jw_kstr(&w, "buffer_mode", p->buffer_mode);
		xt_jw_karr(&w, "shaders");
		for (unsigned k = 0; k < p->nshaders; k++) {
			struct shader *sh = NULL;
			for (unsigned j = 0; j < s->nshaders; j++)
				if (s->shaders[j].id == p->shaders[k])
					sh = &s->shaders[j];
			xt_jw_obj(&w);
			xt_jw_ku64(&w, "id", p->shaders[k]);
			xt_jw_kstr(&w, "type", sh ? sh->type : "");
			xt_jw_key(&w, "source");
			xt_jw_strn(&w, sh && sh->source.len ? (const char *)sh->source.data : "",
				   sh ? sh->source.len : 0);
			xt_jw_end(&w);
		}
		xt_jw_end(&w);
		xt_jw_end(&w);
	}
	xt_jw_end(&w);
	xt_jw_ku64(&w, "transform_feedback_bound", s->tf_object);
	xt_jw_karr(&w, "transform_feedback");
	for (unsigned k = 0; k < s->ntfs; k++) {
		struct tf_object *t = &s->tfs[k];
		xt_jw_obj(&w);
		xt_jw_ku64(&w, "id", t->id);
		xt_jw_kstr(&w, "status", t->status[0] ? t->status : "never begun");
		xt_jw_kstr(&w, "primitive_mode", t->mode);
		xt_jw_karr(&w, "bindings");
		for (unsigned i = 0; i < MAX_TF_BINDINGS; i++) {
			if (!t->b[i].set)
				continue;
			xt_jw_obj(&w);
			xt_jw_ku64(&w, "index", i);
			xt_jw_ku64(&w, "buffer", t->b[i].buffer);
			xt_jw_ku64(&w, "offset", t->b[i].offset);
			xt_jw_ku64(&w, "size", t->b[i].size);
			xt_jw_end(&w);
		}
		xt_jw_end(&w);
		xt_jw_end(&w);
	}
	xt_jw_end(&w);
	xt_jw_karr(&w, "buffers");
	for (unsigned i = 0; i < s->nbuffers; i++) {
		xt_jw_obj(&w);
		xt_jw_ku64(&w, "id", s->buffers[i].id);
		xt_jw_ku64(&w, "size", s->buffers[i].size);
		xt_jw_kstr(&w, "target", s->buffers[i].target);
		xt_jw_end(&w);
	}
	xt_jw_end(&w);
	xt_jw_karr(&w, "vertex_arrays");
	for (unsigned i = 0; i < s->nvaos; i++) {
		xt_jw_obj(&w);
		xt_jw_ku64(&w, "id", s->vaos[i].id);
		xt_jw_kbool(&w, "bound", s->vaos[i].id == s->current_vao);
		xt_jw_karr(&w, "attribs");
		for (unsigned k = 0; k < MAX_ATTRIBS; k++) {
			struct attrib *a = &s->vaos[i].a[k];
			if (!a->set)
				continue;
			xt_jw_obj(&w);
			xt_jw_ku64(&w, "index", k);
			xt_jw_key(&w, "format");
			xt_jw_strn(&w, (const char *)a->text.data, a->text.len);
			xt_jw_ku64(&w, "buffer", a->buffer);
			xt_jw_kbool(&w, "enabled", a->enabled);
			xt_jw_end(&w);
		}
		xt_jw_end(&w);
		xt_jw_end(&w);
	}
	xt_jw_end(&w);
	xt_jw_karr(&w, "active_queries");
	for (unsigned i = 0; i < s->nqueries; i++)
		xt_jw_str(&w, s->queries[i]);
	xt_jw_end(&w);
	xt_jw_end(&w);
	if (xt_jw_done(&w) == XT_OK) {
		cli_write_buf(&b);
		putchar('\n');
	}
	xt_buf_fini(&b);
}

static void state_fini(struct state *s)
{
	for (unsigned i = 0; i < s->nshaders; i++)
		xt_buf_fini(&s->shaders[i].source);
	for (unsigned i = 0; i < s->nprograms; i++)
		xt_buf_fini(&s->programs[i].varyings);
	for (unsigned i = 0; i < s->nvaos; i++)
		for (unsigned k = 0; k < MAX_ATTRIBS; k++)
			xt_buf_fini(&s->vaos[i].a[k].text);
	for (unsigned i = 0; i < MAX_TF_BINDINGS; i++)
		xt_buf_fini(&s->obs[i]);
}

int cli_state_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	bool json = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default: usage(stderr); return CLI_EXIT_ERROR;
		}
	}
	if (optind + 2 != argc) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}
	char *end;
	unsigned long long want = strtoull(argv[optind + 1], &end, 10);
	if (*end || !argv[optind + 1][0])
		return cli_fail(CMD, "CALL must be a call number, not '%s'", argv[optind + 1]);

	char *imported_path;
	bool imported;
	struct trace_reader *r;
	struct xt_err err;
	if (cli_apitrace_open_path(CMD, argv[optind], &imported_path, &imported))
		return CLI_EXIT_ERROR;
	enum xt_rc rc = trace_reader_open(&r, imported ? imported_path : argv[optind], &err);
	if (imported) {
		unlink(imported_path);
		free(imported_path);
	}
	if (rc)
		return cli_fail(CMD, "%s", xt_err_msg(&err));

	struct state *s = calloc(1, sizeof *s);
	struct xt_arena arena;
	struct trace_record rec;
	struct trace_call call;
	bool have_call = false, found = false;
	if (!s) {
		trace_reader_close(r);
		return cli_fail(CMD, "out of memory");
	}
	xt_arena_init(&arena, 1 << 16);
	/* A call is applied as it is read: its strings point into the record,
	 * which the next record replaces.  glCreateProgram / glCreateShader wait
	 * for their RET (the name they returned); their arguments are numbers,
	 * held in the arena.  The state is complete when the first record past
	 * CALL comes. */
	while ((rc = trace_reader_next(r, &rec)) == XT_OK) {
		if (rec.type == TRACE_REC_RET && have_call && rec.seq == call.no) {
			struct trace_ret ret;
			if (trace_reader_decode_ret(r, &rec, &arena, &ret) == XT_OK)
				apply_call(s, &(struct call_view){ r, &call, &ret });
			have_call = false;
			continue;
		}
		if (have_call) {
			apply_call(s, &(struct call_view){ r, &call, NULL });
			have_call = false;
		}
		if (rec.seq > want && (rec.type == TRACE_REC_CALL || !(rec.flags & TRACE_RECF_ATTACHED)))
			break;
		if (rec.type == TRACE_REC_CALL) {
			xt_arena_reset(&arena);
			if (trace_reader_decode_call(r, &rec, &arena, &call) != XT_OK)
				break;
			have_call = !strcmp(call.name, "glCreateProgram") ||
				    !strcmp(call.name, "glCreateShader");
			if (!have_call)
				apply_call(s, &(struct call_view){ r, &call, NULL });
			if (call.no == want) {
				found = true;
				s->call_no = call.no;
				snprintf(s->call_name, sizeof s->call_name, "%s", call.name);
			}
		} else if (rec.type == TRACE_REC_OBSERVATION) {
			note_observation(s, r, &rec, &arena);
		}
	}
	if (have_call)
		apply_call(s, &(struct call_view){ r, &call, NULL });
	int status = CLI_EXIT_OK;
	if (rc != XT_OK && rc != XT_ERR_EOF)
		status = cli_fail(CMD, "%s: %s", argv[optind], xt_err_msg(trace_reader_err(r)));
	else if (!found)
		status = cli_fail(CMD, "%s has no call %llu", argv[optind], want);
	else if (json)
		print_json(s);
	else
		print_text(s);
	state_fini(s);
	free(s);
	xt_arena_fini(&arena);
	trace_reader_close(r);
	return status;
}
