/*
 * drv_gl_xfb.c - transform feedback objects and operations (GL 4.6
 * chapter 13.3, ES 3.2 chapter 12.1): names, binding, begin / pause /
 * resume / end with the spec's errors, the DSA buffer bindings and
 * queries.  The hardware side (streamout begin / end sequences, the
 * filled-size slots) is behind drv_pipe.h (drv_pipe_so_*); this file
 * decides when they run, as st/mesa's st_cb_xformfb.c does for radeonsi:
 *
 *   Begin   -> targets bound, offsets from the bind offsets (begin)
 *   Pause   -> targets unbound: the end sequence saves the filled sizes
 *   Resume  -> targets bound again with "append": offsets from the slots
 *   End     -> the end sequence; the object keeps the sizes for DrawTF
 */
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

static void xfb_init(struct drv_xfb *x, uint32_t name)
{
	memset(x, 0, sizeof *x);
	x->name = name;
}

void drv_gl_xfb_init_default(struct drv_context *ctx)
{
	xfb_init(&ctx->default_xfb, 0);
	ctx->default_xfb.created = true;
	ctx->xfb = &ctx->default_xfb;
}

static void xfb_release(struct drv_context *ctx, struct drv_xfb *x)
{
	for (unsigned i = 0; i < DRV_MAX_TF_BUFFERS; i++)
		drv_gl_buffer_bind_slot(ctx, &x->b[i].buffer, NULL);
	drv_gl_buffer_bind_slot(ctx, &x->generic, NULL);
	if (x->active)
		drv_gl_program_unuse(ctx, x->program);
	drv_pipe_so_release(ctx->pipe, &x->so);
}

static void free_xfb(void *obj, void *user)
{
	xfb_release(user, obj);
	xt_free(obj);
}

void drv_gl_xfb_fini_all(struct drv_context *ctx)
{
	drv_names_each(&ctx->xfbs, free_xfb, ctx);
	drv_names_fini(&ctx->xfbs);
	xfb_release(ctx, &ctx->default_xfb);
}

static struct drv_xfb *xfb_create(struct drv_context *ctx, GLuint name)
{
	struct drv_xfb *x = drv_names_get(&ctx->xfbs, name);

	if (x)
		return x;
	x = xt_malloc(sizeof *x);
	if (!x || !drv_names_set(&ctx->xfbs, name, x)) {
		xt_free(x);
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return NULL;
	}
	xfb_init(x, name);
	x->created = true;
	return x;
}

/* The object of a DSA call (0 = the default object). */
static struct drv_xfb *dsa_xfb(struct drv_context *ctx, GLuint name)
{
	struct drv_xfb *x;

	if (!name)
		return &ctx->default_xfb;
	x = drv_names_get(&ctx->xfbs, name);
	if (!x || !x->created) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	return x;
}

void drv_gl_GenTransformFeedbacks(GLsizei n, GLuint *ids)
{
	DRV_CTX(ctx);
	if (n < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!drv_names_gen(&ctx->xfbs, n, ids))
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
}

void drv_gl_CreateTransformFeedbacks(GLsizei n, GLuint *ids)
{
	DRV_CTX(ctx);
	drv_gl_GenTransformFeedbacks(n, ids);
	for (GLsizei i = 0; i < n && ctx->error == GL_NO_ERROR; i++)
		xfb_create(ctx, ids[i]);
}

void drv_gl_DeleteTransformFeedbacks(GLsizei n, const GLuint *ids)
{
	DRV_CTX(ctx);
	if (n < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < n; i++) {
		struct drv_xfb *x = drv_names_get(&ctx->xfbs, ids[i]);
		if (x && x->active) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
	}
	for (GLsizei i = 0; i < n; i++) {
		struct drv_xfb *x = drv_names_get(&ctx->xfbs, ids[i]);
		if (!ids[i])
			continue;
		if (x == ctx->xfb)
			ctx->xfb = &ctx->default_xfb;
		drv_names_remove(&ctx->xfbs, ids[i]);
		if (x)
			free_xfb(x, ctx);
	}
}

GLboolean drv_gl_IsTransformFeedback(GLuint id)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	struct drv_xfb *x = drv_names_get(&ctx->xfbs, id);
	return x && x->created;
}

void drv_gl_BindTransformFeedback(GLenum target, GLuint id)
{
	DRV_CTX(ctx);
	struct drv_xfb *x;

	if (target != GL_TRANSFORM_FEEDBACK) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (drv_gl_xfb_running(ctx) || (id && !drv_names_known(&ctx->xfbs, id))) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	x = id ? xfb_create(ctx, id) : &ctx->default_xfb;
	if (x)
		ctx->xfb = x;
}

/* The TF bindings of x as the hardware layer takes them: GL clamps a range
 * beyond the store to the store. */
static void so_targets(const struct drv_xfb *x, struct drv_pipe_so_target *t)
{
	for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++) {
		const struct drv_xfb_binding *bind = &x->b[b];
		struct drv_buffer *buf = bind->buffer;
		int64_t size = 0;

		if (buf) {
			size = bind->range ? bind->size : buf->size - bind->offset;
			if (bind->offset + size > buf->size)
				size = buf->size > bind->offset ? buf->size - bind->offset : 0;
		}
		t[b] = (struct drv_pipe_so_target){ .buffer = buf ? &buf->store : NULL,
						    .offset = bind->offset, .size = size };
	}
}

/* The buffers the program captures into (bit b = binding b needed). */
static uint32_t needed_buffers(const struct drv_program *prog)
{
	uint32_t m = prog->tf.buffer_mask;

	for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++)
		if (prog->tf.stride_bytes[b])
			m |= 1u << b;
	return m;
}

void drv_gl_BeginTransformFeedback(GLenum primitiveMode)
{
	DRV_CTX(ctx);
	struct drv_xfb *x = ctx->xfb;
	struct drv_program_obj *p = drv_gl_vertex_program(ctx);
	struct drv_pipe_so_target targets[DRV_MAX_TF_BUFFERS];
	uint32_t need;

	if (primitiveMode != GL_POINTS && primitiveMode != GL_LINES &&
	    primitiveMode != GL_TRIANGLES) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (x->active || !p || !p->linked || !p->prog->tf.n_varyings) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	need = needed_buffers(p->prog);
	for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++) {
		if (!(need >> b & 1))
			continue;
		if (!x->b[b].buffer) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
	}
	x->active = true;
	x->paused = false;
	x->mode = primitiveMode;
	x->program = p;
	p->in_use++;
	ctx->state_call = true;
	so_targets(x, targets);
	drv_pipe_so_begin(ctx->pipe, &x->so, &p->prog->tf, targets);
}

void drv_gl_PauseTransformFeedback(void)
{
	DRV_CTX(ctx);
	struct drv_xfb *x = ctx->xfb;

	if (!x->active || x->paused) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	x->paused = true;
	ctx->state_call = true;
	drv_pipe_so_end(ctx->pipe, &x->so);
}

void drv_gl_ResumeTransformFeedback(void)
{
	DRV_CTX(ctx);
	struct drv_xfb *x = ctx->xfb;

	if (!x->active || !x->paused || ctx->program != x->program) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	x->paused = false;
	ctx->state_call = true;
	drv_pipe_so_resume(ctx->pipe, &x->so);
}

void drv_gl_EndTransformFeedback(void)
{
	DRV_CTX(ctx);
	struct drv_xfb *x = ctx->xfb;

	if (!x->active) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!x->paused)
		drv_pipe_so_end(ctx->pipe, &x->so);
	x->active = false;
	x->paused = false;
	x->ended_once = true;
	ctx->state_call = true;
	drv_gl_program_unuse(ctx, x->program);
	x->program = NULL;
}

static void dsa_bind(GLuint xfb, GLuint index, GLuint buffer, GLintptr offset, GLsizeiptr size,
		     bool range)
{
	DRV_CTX(ctx);
	struct drv_xfb *x = dsa_xfb(ctx, xfb);
	struct drv_buffer *b = NULL;

	if (!x)
		return;
	if (index >= DRV_MAX_TF_BUFFERS || (range && (offset < 0 || size <= 0 || ((offset | size) & 3)))) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (buffer && !(b = drv_gl_buffer_lookup(ctx, buffer))) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (x->active && !x->paused) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	drv_gl_buffer_bind_slot(ctx, &x->b[index].buffer, b);
	x->b[index].offset = range ? offset : 0;
	x->b[index].size = range ? size : 0;
	x->b[index].range = range && b;
}

void drv_gl_TransformFeedbackBufferBase(GLuint xfb, GLuint index, GLuint buffer)
{
	dsa_bind(xfb, index, buffer, 0, 0, false);
}

void drv_gl_TransformFeedbackBufferRange(GLuint xfb, GLuint index, GLuint buffer,
					 GLintptr offset, GLsizeiptr size)
{
	dsa_bind(xfb, index, buffer, offset, size, true);
}

void drv_gl_GetTransformFeedbackiv(GLuint xfb, GLenum pname, GLint *param)
{
	DRV_CTX(ctx);
	struct drv_xfb *x = dsa_xfb(ctx, xfb);

	if (!x)
		return;
	if (pname == GL_TRANSFORM_FEEDBACK_PAUSED)
		*param = x->paused;
	else if (pname == GL_TRANSFORM_FEEDBACK_ACTIVE)
		*param = x->active;
	else
		drv_gl_error(ctx, GL_INVALID_ENUM);
}

void drv_gl_GetTransformFeedbacki_v(GLuint xfb, GLenum pname, GLuint index, GLint *param)
{
	DRV_CTX(ctx);
	struct drv_xfb *x = dsa_xfb(ctx, xfb);

	if (!x)
		return;
	if (pname != GL_TRANSFORM_FEEDBACK_BUFFER_BINDING) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (index >= DRV_MAX_TF_BUFFERS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	*param = x->b[index].buffer ? (GLint)x->b[index].buffer->name : 0;
}

void drv_gl_GetTransformFeedbacki64_v(GLuint xfb, GLenum pname, GLuint index, GLint64 *param)
{
	DRV_CTX(ctx);
	struct drv_xfb *x = dsa_xfb(ctx, xfb);

	if (!x)
		return;
	if (pname != GL_TRANSFORM_FEEDBACK_BUFFER_START && pname != GL_TRANSFORM_FEEDBACK_BUFFER_SIZE) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (index >= DRV_MAX_TF_BUFFERS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	*param = pname == GL_TRANSFORM_FEEDBACK_BUFFER_START ? x->b[index].offset : x->b[index].size;
}
