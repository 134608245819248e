/*
 * drv_gl_context.c - screens, contexts and the current context; GL errors
 * and the "not modelled" record; name tables; glEnable / glGetString /
 * syncs; blending (handed to the hardware layer by drv_gl_raster.c); and
 * the GL state the simulated GPU has no use for (hints, pixel rectangles,
 * blits ...), accepted and checked: these calls cannot change a TF buffer,
 * a query result or anything the replay compares.
 *
 * The current context is a thread-local pointer: GL entry points have no
 * context parameter (drv.h explains why the driver keeps the GL signature).
 */
#include <stdio.h>
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

static _Thread_local struct drv_context *current;

struct drv_context *drv_gl_current(void)
{
	return current;
}

void drv_context_make_current(struct drv_context *ctx)
{
	current = ctx;
}

void drv_gl_error(struct drv_context *ctx, GLenum e)
{
	if (ctx->error == GL_NO_ERROR)
		ctx->error = e;
}

void drv_gl_unsupported(struct drv_context *ctx, const char *why)
{
	if (!ctx->unsupported)
		ctx->unsupported = why;
}

const char *drv_context_take_unsupported(struct drv_context *ctx)
{
	const char *why = ctx->unsupported;

	ctx->unsupported = NULL;
	return why;
}

void drv_context_set_block_layouts(struct drv_context *ctx, const struct drv_recorded_block *blocks,
				   unsigned n, bool recorded)
{
	ctx->rec_blocks = blocks;
	ctx->n_rec_blocks = blocks ? n : 0;
	ctx->has_rec_blocks = recorded;
}

bool drv_context_take_layout_notes(struct drv_context *ctx, struct xt_buf *out)
{
	bool any = ctx->layout_notes.len > 0;

	if (any)
		xt_buf_append(out, ctx->layout_notes.data, ctx->layout_notes.len);
	xt_buf_reset(&ctx->layout_notes);
	return any;
}

void drv_context_take_surface_events(struct drv_context *ctx, struct drv_surface_events *out)
{
	struct drv_pipe_surface_events ev;

	_Static_assert(DRV_CLEARED_MAX == DRV_PIPE_CLEARED_MAX, "the two lists are one");
	drv_pipe_take_surface_events(ctx->pipe, &ev);
	memcpy(out->cleared, ev.cleared, sizeof out->cleared);
	out->ncleared = ev.ncleared;
	out->more_cleared = ev.more_cleared;
	out->read = ev.read;
	_Static_assert(DRV_LOOSE_MAX == DRV_PIPE_LOOSE_MAX, "the two lists are one");
	for (unsigned i = 0; i < ev.nloose; i++) {
		const struct drv_pipe_loose *l = &ev.loose[i];
		out->loose[i] = (struct drv_loose){ l->va, l->rect.x0, l->rect.y0, l->rect.x1, l->rect.y1,
						    l->undefined };
	}
	out->nloose = ev.nloose;
	out->more_loose = ev.more_loose;
	for (unsigned i = 0; i < ev.ncopies; i++) {
		const struct drv_pipe_copy *c = &ev.copies[i];
		out->copies[i] = (struct drv_copy){ c->src_va, c->dst_va, c->rect.x0, c->rect.y0, c->rect.x1,
						    c->rect.y1, c->mx, c->my, c->ox, c->oy };
	}
	out->ncopies = ev.ncopies;
	out->more_copies = ev.more_copies;
}

bool drv_gl_version_at_least(const struct drv_context *ctx, int major, int minor, int es_major,
			     int es_minor)
{
	if (ctx->gles)
		return es_major > 0 && (ctx->major > es_major ||
					(ctx->major == es_major && ctx->minor >= es_minor));
	return ctx->major > major || (ctx->major == major && ctx->minor >= minor);
}

void drv_context_version(const struct drv_context *ctx, bool *gles, int *major, int *minor)
{
	*gles = ctx->gles;
	*major = ctx->major;
	*minor = ctx->minor;
}

/* ---- name tables ---------------------------------------------------------- */

static uint32_t slot_of(const struct drv_names *t, uint32_t name)
{
	uint32_t i = (name * 2654435761u) & (t->cap - 1);

	while (t->slots[i].name && t->slots[i].name != name)
		i = (i + 1) & (t->cap - 1);
	return i;
}

static bool names_grow(struct drv_names *t)
{
	struct drv_names n = { .cap = t->cap ? t->cap * 2 : 64, .next = t->next };

	n.slots = xt_calloc(n.cap, sizeof *n.slots);
	if (!n.slots)
		return false;
	for (uint32_t i = 0; i < t->cap; i++)
		if (t->slots[i].name)
			n.slots[slot_of(&n, t->slots[i].name)] = t->slots[i];
	n.count = t->count;
	xt_free(t->slots);
	*t = n;
	return true;
}

void drv_names_fini(struct drv_names *t)
{
	for (uint32_t i = 0; i < t->cap; i++)
		xt_free(t->slots[i].label);
	xt_free(t->slots);
	memset(t, 0, sizeof *t);
}

void *drv_names_get(const struct drv_names *t, uint32_t name)
{
	if (!name || !t->cap)
		return NULL;
	const struct drv_name_slot *s = &t->slots[slot_of(t, name)];
	return s->name ? s->obj : NULL;
}

bool drv_names_known(const struct drv_names *t, uint32_t name)
{
	return name && t->cap && t->slots[slot_of(t, name)].name == name;
}

bool drv_names_set(struct drv_names *t, uint32_t name, void *obj)
{
	if (!name)
		return false;
	if ((t->count + 1) * 2 > t->cap && !names_grow(t))
		return false;
	struct drv_name_slot *s = &t->slots[slot_of(t, name)];
	if (!s->name)
		t->count++;
	s->name = name;
	s->obj = obj;
	s->reserved = !obj;
	if (name >= t->next)
		t->next = name + 1;
	return true;
}

bool drv_names_gen(struct drv_names *t, int n, uint32_t *out)
{
	for (int i = 0; i < n; i++) {
		uint32_t name = t->next ? t->next : 1;
		if (!drv_names_set(t, name, NULL))
			return false;
		out[i] = name;
	}
	return true;
}

void drv_names_remove(struct drv_names *t, uint32_t name)
{
	if (!drv_names_known(t, name))
		return;
	/* Backward-shift deletion keeps the probe chains intact. */
	uint32_t i = slot_of(t, name), j = i;
	xt_free(t->slots[i].label);
	t->slots[i] = (struct drv_name_slot){ 0 };
	t->count--;
	for (;;) {
		j = (j + 1) & (t->cap - 1);
		if (!t->slots[j].name)
			break;
		uint32_t home = (t->slots[j].name * 2654435761u) & (t->cap - 1);
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			t->slots[i] = t->slots[j];
			t->slots[j] = (struct drv_name_slot){ 0 };
			i = j;
		}
	}
}

const char *drv_names_label(const struct drv_names *t, uint32_t name)
{
	if (!drv_names_known(t, name))
		return NULL;
	return t->slots[slot_of(t, name)].label;
}

void drv_names_set_label(struct drv_names *t, uint32_t name, char *label)
{
	if (!drv_names_known(t, name)) {
		xt_free(label);
		return;
	}
	struct drv_name_slot *s = &t->slots[slot_of(t, name)];
	xt_free(s->label);
	s->label = label;
}

void drv_names_each(struct drv_names *t, void (*fn)(void *obj, void *user), void *user)
{
	for (uint32_t i = 0; i < t->cap; i++)
		if (t->slots[i].name && t->slots[i].obj)
			fn(t->slots[i].obj, user);
}

/* ---- screens and contexts --------------------------------------------------- */

enum xt_rc drv_screen_create(struct drv_winsys *ws, struct drv_screen **out, struct xt_err *err)
{
	struct drv_screen *s = xt_calloc(1, sizeof *s);
	enum xt_rc rc;

	*out = NULL;
	if (!s)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	rc = drv_pipe_screen_create(ws, &s->hw);
	if (rc != XT_OK) {
		xt_free(s);
		return XT_FAIL(err, rc, "out of memory for the command stream");
	}
	*out = s;
	return XT_OK;
}

void drv_screen_destroy(struct drv_screen *s)
{
	if (!s)
		return;
	drv_pipe_screen_destroy(s->hw);
	xt_free(s);
}

/* What the hardware layer reports lands where GL's own errors do. */
static void report_out_of_memory(void *user)
{
	drv_gl_error(user, GL_OUT_OF_MEMORY);
}

static void report_unsupported(void *user, const char *why)
{
	drv_gl_unsupported(user, why);
}

enum xt_rc drv_context_create(struct drv_screen *screen, const struct drv_context_desc *d,
			      struct drv_context **out, struct xt_err *err)
{
	struct drv_context *ctx;
	int v = d->major * 10 + d->minor;
	struct drv_pipe_report report = { .out_of_memory = report_out_of_memory,
					  .unsupported = report_unsupported };

	*out = NULL;
	if (d->gles ? v > 32 : v > 46)
		return XT_FAIL(err, XT_ERR_UNSUPPORTED, "the sim has no %s %d.%d context (at most %s)",
			       d->gles ? "GLES" : "GL", d->major, d->minor,
			       d->gles ? "GLES 3.2" : "GL 4.6");
	ctx = xt_calloc(1, sizeof *ctx);
	if (!ctx)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	ctx->screen = screen;
	ctx->gles = d->gles;
	ctx->core = d->core && !d->gles;
	/* Like Mesa: a context gets the highest version of its API (and
	 * profile) the driver has, whatever lower version was asked for, so
	 * that a trace sees what the capturing Mesa driver gave it. */
	ctx->major = d->gles ? 3 : 4;
	ctx->minor = d->gles ? 2 : 6;
	if (d->gles && d->major == 1)
		ctx->major = 1, ctx->minor = 1;
	if (d->share) {
		ctx->shared = d->share->shared;
	} else {
		ctx->shared = xt_calloc(1, sizeof *ctx->shared);
		if (!ctx->shared) {
			xt_free(ctx);
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
		}
	}
	ctx->shared->refs++;
	drv_gl_vao_init(&ctx->default_vao, 0);
	ctx->vao = &ctx->default_vao;
	drv_gl_ff_init(ctx);
	drv_gl_xfb_init_default(ctx);
	ctx->fb.default_read_buffer = ctx->fb.default_draw_buffer = GL_BACK;
	drv_gl_pixels_init(ctx);
	drv_gl_raster_init(ctx);
	for (unsigned i = 0; i < DRV_MAX_ATTRIBS; i++) {
		float one = 1.0f;
		memcpy(&ctx->generic[i].v[3], &one, 4);
		ctx->generic[i].kind = GL_FLOAT;
	}
	report.user = ctx;
	if (drv_pipe_create(screen->hw, &report, &ctx->pipe) != XT_OK) {
		/* Nothing above allocated beyond the share group. */
		if (--ctx->shared->refs == 0)
			xt_free(ctx->shared);
		xt_free(ctx);
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	}
	screen->contexts++;
	*out = ctx;
	return XT_OK;
}

static void free_sampler(void *obj, void *user)
{
	(void)user;
	xt_free(obj);
}

static void free_buffer(void *obj, void *user)
{
	struct drv_buffer *b = obj;
	struct drv_context *ctx = user;

	drv_pipe_buffer_release(ctx->screen->hw, &b->store);
	xt_free(b);
}

static void free_shader_or_program(void *obj, void *user)
{
	drv_gl_shader_object_free(user, obj);
}

static void free_vao(void *obj, void *user)
{
	drv_gl_vao_release(user, obj);
	xt_free(obj);
}

/* Drops the context's references to buffers and programs. */
static void release_bindings(struct drv_context *ctx)
{
	struct drv_buffer **slots[] = {
		&ctx->array_buffer, &ctx->copy_read, &ctx->copy_write, &ctx->pixel_pack,
		&ctx->pixel_unpack, &ctx->draw_indirect, &ctx->dispatch_indirect, &ctx->query_buffer,
		&ctx->uniform_buffer, &ctx->texture_buffer, &ctx->ssbo_buffer, &ctx->atomic_buffer,
		&ctx->parameter_buffer,
	};
	for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
		drv_gl_buffer_bind_slot(ctx, slots[i], NULL);
	for (unsigned i = 0; i < DRV_MAX_UBO_BINDINGS; i++)
		drv_gl_buffer_bind_slot(ctx, &ctx->ubo[i].buffer, NULL);
	for (unsigned i = 0; i < DRV_MAX_SSBO_BINDINGS; i++)
		drv_gl_buffer_bind_slot(ctx, &ctx->ssbo[i].buffer, NULL);
	for (unsigned i = 0; i < DRV_MAX_ATOMIC_BINDINGS; i++)
		drv_gl_buffer_bind_slot(ctx, &ctx->atomic[i].buffer, NULL);
	drv_gl_program_unuse(ctx, ctx->program);
	ctx->program = NULL;
}

void drv_context_destroy(struct drv_context *ctx)
{
	if (!ctx)
		return;
	if (current == ctx)
		current = NULL;
	drv_gl_flush(ctx);
	release_bindings(ctx);
	drv_gl_pipeline_fini(ctx);
	drv_gl_query_fini_all(ctx);
	drv_gl_xfb_fini_all(ctx);
	drv_names_each(&ctx->vaos, free_vao, ctx);
	drv_names_fini(&ctx->vaos);
	drv_gl_vao_release(ctx, &ctx->default_vao);
	drv_gl_fb_fini(ctx);
	drv_gl_ff_fini(ctx);
	drv_pipe_destroy(ctx->pipe);
	xt_buf_fini(&ctx->layout_notes);
	if (--ctx->shared->refs == 0) {
		drv_names_each(&ctx->shared->buffers, free_buffer, ctx);
		drv_names_each(&ctx->shared->shaders, free_shader_or_program, ctx);
		drv_names_fini(&ctx->shared->buffers);
		drv_names_fini(&ctx->shared->shaders);
		drv_names_each(&ctx->shared->samplers, free_sampler, ctx);
		drv_names_fini(&ctx->shared->samplers);
		drv_names_fini(&ctx->shared->syncs);
		drv_names_fini(&ctx->shared->lists);
		xt_free(ctx->shared);
	}
	ctx->screen->contexts--;
	xt_free(ctx);
}

void drv_gl_flush(struct drv_context *ctx)
{
	drv_pipe_flush(ctx->pipe);
}

void drv_context_call_begin(struct drv_context *ctx)
{
	ctx->state_call = false;
	drv_pipe_call_begin(ctx->pipe);
}

void drv_context_call_end(struct drv_context *ctx, const uint32_t **pm4, uint32_t *n_dw,
			  bool *state_call)
{
	drv_pipe_call_end(ctx->pipe, pm4, n_dw);
	*state_call = ctx->state_call;
}

enum xt_rc drv_context_program_dump(struct drv_context *ctx, uint32_t program, struct xt_buf *out)
{
	struct drv_program_obj *p = drv_names_get(&ctx->shared->shaders, program);

	if (!p || !p->is_program || !p->linked || !p->prog)
		return XT_ERR_NOT_FOUND;
	return drv_program_disasm(p->prog, out);
}

uint32_t drv_context_last_draw_program(const struct drv_context *ctx)
{
	return ctx->last_draw_program;
}

/* ---- GL: errors, enables ---------------------------------------------------------- */

GLenum drv_gl_GetError(void)
{
	DRV_CTX_RET(ctx, GL_NO_ERROR);
	GLenum e = ctx->error;

	ctx->error = GL_NO_ERROR;
	return e;
}

static void restart_changed(struct drv_context *ctx)
{
	drv_pipe_set_primitive_restart(ctx->pipe, ctx->primitive_restart, ctx->primitive_restart_fixed,
				       ctx->restart_index);
}

static void set_cap(struct drv_context *ctx, GLenum cap, bool on)
{
	if (drv_gl_ff_cap_invalid(ctx, cap)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (drv_gl_ff_set_client_cap(ctx, cap, on) || drv_gl_ff_set_tex_cap(ctx, cap, on))
		return;
	switch (cap) {
	case GL_RASTERIZER_DISCARD:
		ctx->rasterizer_discard = on;
		drv_pipe_set_rasterizer_discard(ctx->pipe, on);
		return;
	case GL_PRIMITIVE_RESTART:
		if (ctx->gles)
			break;
		ctx->primitive_restart = on;
		restart_changed(ctx);
		return;
	case GL_PRIMITIVE_RESTART_FIXED_INDEX:
		ctx->primitive_restart_fixed = on;
		restart_changed(ctx);
		return;
	default:
		break;
	}
	for (unsigned i = 0; i < ctx->n_enable_caps; i++) {
		if (ctx->enable_caps[i] == cap) {
			if (!on)
				ctx->enable_caps[i] = ctx->enable_caps[--ctx->n_enable_caps];
			return;
		}
	}
	if (on && ctx->n_enable_caps < 64)
		ctx->enable_caps[ctx->n_enable_caps++] = cap;
}

void drv_gl_Enable(GLenum cap)
{
	DRV_CTX(ctx);
	set_cap(ctx, cap, true);
}

void drv_gl_Disable(GLenum cap)
{
	DRV_CTX(ctx);
	set_cap(ctx, cap, false);
}

void drv_gl_Enablei(GLenum cap, GLuint index)
{
	DRV_CTX(ctx);
	set_cap(ctx, cap, true);
}

void drv_gl_Disablei(GLenum cap, GLuint index)
{
	DRV_CTX(ctx);
	set_cap(ctx, cap, false);
}

GLboolean drv_gl_IsEnabled(GLenum cap)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	bool on;
	if (drv_gl_ff_cap_invalid(ctx, cap)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return GL_FALSE;
	}
	if (drv_gl_ff_client_cap(ctx, cap, &on) || drv_gl_ff_tex_cap(ctx, cap, &on))
		return on;
	switch (cap) {
	case GL_RASTERIZER_DISCARD: return ctx->rasterizer_discard;
	case GL_PRIMITIVE_RESTART: return ctx->primitive_restart;
	case GL_PRIMITIVE_RESTART_FIXED_INDEX: return ctx->primitive_restart_fixed;
	default: break;
	}
	for (unsigned i = 0; i < ctx->n_enable_caps; i++)
		if (ctx->enable_caps[i] == cap)
			return GL_TRUE;
	return cap == GL_DITHER || cap == GL_MULTISAMPLE;
}

void drv_gl_PrimitiveRestartIndex(GLuint index)
{
	DRV_CTX(ctx);
	ctx->restart_index = index;
	restart_changed(ctx);
}

/* ---- strings ------------------------------------------------------------------------ */

static const char *const extensions[] = {
	"GL_ARB_base_instance", "GL_ARB_buffer_storage", "GL_ARB_copy_buffer",
	"GL_ARB_direct_state_access", "GL_ARB_draw_elements_base_vertex",
	"GL_ARB_draw_indirect", "GL_ARB_draw_instanced", "GL_ARB_enhanced_layouts",
	"GL_ARB_explicit_attrib_location", "GL_ARB_gpu_shader5", "GL_ARB_instanced_arrays",
	"GL_ARB_invalidate_subdata", "GL_ARB_map_buffer_range", "GL_ARB_multi_bind",
	"GL_ARB_multi_draw_indirect", "GL_ARB_query_buffer_object",
	"GL_ARB_separate_shader_objects", "GL_ARB_sync", "GL_ARB_transform_feedback2",
	"GL_ARB_transform_feedback3", "GL_ARB_transform_feedback_instanced",
	"GL_ARB_transform_feedback_overflow_query", "GL_ARB_uniform_buffer_object",
	"GL_ARB_vertex_array_object", "GL_ARB_vertex_attrib_binding",
	"GL_ARB_vertex_type_2_10_10_10_rev", "GL_EXT_transform_feedback",
	"GL_NV_primitive_restart",
};

static const char *const es_extensions[] = {
	"GL_EXT_base_instance", "GL_EXT_buffer_storage", "GL_EXT_draw_elements_base_vertex",
	"GL_OES_draw_elements_base_vertex", "GL_OES_vertex_array_object",
};

const GLubyte *drv_gl_GetString(GLenum name)
{
	DRV_CTX_RET(ctx, NULL);
	static _Thread_local char version[96];

	switch (name) {
	case GL_VENDOR:
		return (const GLubyte *)"xfbtrace";
	case GL_RENDERER:
		return (const GLubyte *)"xfbtrace sim (gpu_model GFX8, radeonsi-style PM4)";
	case GL_VERSION:
		if (ctx->gles)
			snprintf(version, sizeof version, "OpenGL ES %d.%d xfbtrace sim", ctx->major,
				 ctx->minor);
		else
			snprintf(version, sizeof version, "%d.%d%s xfbtrace sim", ctx->major, ctx->minor,
				 ctx->core ? " (Core Profile)" :
				 drv_gl_version_at_least(ctx, 3, 2, 0, 0) ? " (Compatibility Profile)" : "");
		return (const GLubyte *)version;
	case GL_SHADING_LANGUAGE_VERSION:
		return (const GLubyte *)(ctx->gles ? "OpenGL ES GLSL ES 3.20" : "4.60");
	case GL_EXTENSIONS: {
		static _Thread_local char all[2048];
		size_t n = 0;
		const char *const *list = ctx->gles ? es_extensions : extensions;
		size_t count = ctx->gles ? sizeof es_extensions / sizeof *es_extensions
					 : sizeof extensions / sizeof *extensions;
		if (ctx->core) {
			drv_gl_error(ctx, GL_INVALID_ENUM);
			return NULL;
		}
		all[0] = 0;
		for (size_t i = 0; i < count && n + strlen(list[i]) + 2 < sizeof all; i++)
			n += (size_t)snprintf(all + n, sizeof all - n, "%s%s", i ? " " : "", list[i]);
		return (const GLubyte *)all;
	}
	default:
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
}

/*
 * GL_NUM_EXTENSIONS.  Applications loop glGetStringi up to the count the
 * capturing driver gave (llvmpipe: ~300), so the sim reports at least that
 * many: its real extensions, then "GL_XFBTRACE_reserved_<n>" names, which
 * name nothing and enable nothing (extension strings are not compared).
 */
#define DRV_NUM_EXTENSIONS 512u

static unsigned real_extensions(const struct drv_context *ctx)
{
	return ctx->gles ? sizeof es_extensions / sizeof *es_extensions
			 : sizeof extensions / sizeof *extensions;
}

unsigned drv_gl_num_extensions(const struct drv_context *ctx);
unsigned drv_gl_num_extensions(const struct drv_context *ctx)
{
	return DRV_NUM_EXTENSIONS;
}

const GLubyte *drv_gl_GetStringi(GLenum name, GLuint index)
{
	DRV_CTX_RET(ctx, NULL);
	if (name != GL_EXTENSIONS) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	if (index >= drv_gl_num_extensions(ctx)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	if (index >= real_extensions(ctx)) {
		static _Thread_local char pad[48];
		snprintf(pad, sizeof pad, "GL_XFBTRACE_reserved_%u", index);
		return (const GLubyte *)pad;
	}
	return (const GLubyte *)(ctx->gles ? es_extensions : extensions)[index];
}

/* ---- flush, finish, syncs: execution is synchronous ---------------------------------- */

void drv_gl_Flush(void)
{
	DRV_CTX(ctx);
	drv_gl_flush(ctx);
}

void drv_gl_Finish(void)
{
	DRV_CTX(ctx);
	drv_gl_flush(ctx);
}

GLsync drv_gl_FenceSync(GLenum condition, GLbitfield flags)
{
	DRV_CTX_RET(ctx, NULL);
	if (condition != GL_SYNC_GPU_COMMANDS_COMPLETE) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	if (flags) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	drv_gl_flush(ctx);
	/* Handles are counters, not pointers (determinism); never dereferenced. */
	if (!drv_gl_sync_create(ctx, (uint32_t)++ctx->shared->sync_next))
		return NULL;
	return (GLsync)(uintptr_t)(0x5000 + ctx->shared->sync_next);
}

GLenum drv_gl_ClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout)
{
	DRV_CTX_RET(ctx, GL_WAIT_FAILED);
	if (!sync) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return GL_WAIT_FAILED;
	}
	return GL_ALREADY_SIGNALED;
}

void drv_gl_WaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout)
{
	DRV_CTX(ctx);
	if (!sync)
		drv_gl_error(ctx, GL_INVALID_VALUE);
}

void drv_gl_DeleteSync(GLsync sync)
{
	DRV_CTX(ctx);
	drv_gl_sync_delete(ctx, sync);
}

GLboolean drv_gl_IsSync(GLsync sync)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	return drv_gl_sync_exists(ctx, sync);
}

/* ---- blending (the rest of the rasterization state: drv_gl_raster.c) --------------------- */


/* Blending (GL 4.6 §17.3.6): the factors of table 17.2, the equations
 * of table 17.1 (KHR_blend_equation_advanced's modes are not exposed);
 * drv_gl_raster.c hands them to the hardware layer. */
static bool blend_factor(GLenum f)
{
	switch (f) {
	case GL_ZERO: case GL_ONE: case GL_SRC_COLOR: case GL_ONE_MINUS_SRC_COLOR:
	case GL_DST_COLOR: case GL_ONE_MINUS_DST_COLOR: case GL_SRC_ALPHA:
	case GL_ONE_MINUS_SRC_ALPHA: case GL_DST_ALPHA: case GL_ONE_MINUS_DST_ALPHA:
	case GL_CONSTANT_COLOR: case GL_ONE_MINUS_CONSTANT_COLOR: case GL_CONSTANT_ALPHA:
	case GL_ONE_MINUS_CONSTANT_ALPHA: case GL_SRC_ALPHA_SATURATE: case GL_SRC1_COLOR:
	case GL_ONE_MINUS_SRC1_COLOR: case GL_SRC1_ALPHA: case GL_ONE_MINUS_SRC1_ALPHA:
		return true;
	default:
		return false;
	}
}

static bool blend_equation(GLenum mode)
{
	return mode == GL_FUNC_ADD || mode == GL_FUNC_SUBTRACT || mode == GL_FUNC_REVERSE_SUBTRACT ||
	       mode == GL_MIN || mode == GL_MAX;
}

void drv_gl_BlendFunc(GLenum s, GLenum d)
{
	drv_gl_BlendFuncSeparate(s, d, s, d);
}

void drv_gl_BlendFuncSeparate(GLenum srgb, GLenum drgb, GLenum salpha, GLenum dalpha)
{
	DRV_CTX(ctx);
	if (!blend_factor(srgb) || !blend_factor(drgb) || !blend_factor(salpha) || !blend_factor(dalpha)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->rast.blend_src[0] = srgb;
	ctx->rast.blend_dst[0] = drgb;
	ctx->rast.blend_src[1] = salpha;
	ctx->rast.blend_dst[1] = dalpha;
}

void drv_gl_BlendEquation(GLenum mode)
{
	drv_gl_BlendEquationSeparate(mode, mode);
}

void drv_gl_BlendEquationSeparate(GLenum rgb, GLenum alpha)
{
	DRV_CTX(ctx);
	if (!blend_equation(rgb) || !blend_equation(alpha)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->rast.blend_eq[0] = rgb;
	ctx->rast.blend_eq[1] = alpha;
}

void drv_gl_BlendColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a)
{
	DRV_CTX(ctx);
	ctx->rast.blend_color[0] = r;
	ctx->rast.blend_color[1] = g;
	ctx->rast.blend_color[2] = b;
	ctx->rast.blend_color[3] = a;
}

void drv_gl_Hint(GLenum target, GLenum mode) {}

/* GL 4.6 compat §13.6 (Flatshading, table 13.3) and ARB_provoking_vertex:
 * the convention picks each primitive's provoking vertex, and with it the
 * order in which transform feedback records (§13.3) and a geometry shader
 * receives the vertices of strips, fans, quads and polygons
 * (gpu_model/gm_vgt_prim.c says how). */
void drv_gl_ProvokingVertex(GLenum mode)
{
	struct drv_context *ctx = drv_gl_current();

	if (!ctx)
		return;
	if (mode != GL_FIRST_VERTEX_CONVENTION && mode != GL_LAST_VERTEX_CONVENTION) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->provoking_first = mode == GL_FIRST_VERTEX_CONVENTION;
	drv_pipe_set_provoking_vertex(ctx->pipe, ctx->provoking_first);
}
void drv_gl_MemoryBarrier(GLbitfield barriers) {}
void drv_gl_TextureBarrier(void) {}
