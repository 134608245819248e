/*
 * drv_gl_buffer.c - buffer objects (GL 4.6 chapter 6, ES 3.2 chapter 6):
 * names and binding points (all targets, indexed UBO / SSBO / atomic / TF
 * bindings, the multi-bind forms), with the errors the specs require.
 * Their data stores are in drv_gl_buffer_data.c.
 */
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

struct drv_buffer **drv_gl_buffer_target(struct drv_context *ctx, GLenum target)
{
	switch (target) {
	case GL_ARRAY_BUFFER: return &ctx->array_buffer;
	case GL_ELEMENT_ARRAY_BUFFER: return &ctx->vao->element_buffer;
	case GL_COPY_READ_BUFFER: return &ctx->copy_read;
	case GL_COPY_WRITE_BUFFER: return &ctx->copy_write;
	case GL_PIXEL_PACK_BUFFER: return &ctx->pixel_pack;
	case GL_PIXEL_UNPACK_BUFFER: return &ctx->pixel_unpack;
	case GL_TRANSFORM_FEEDBACK_BUFFER: return &ctx->xfb->generic;
	case GL_UNIFORM_BUFFER: return &ctx->uniform_buffer;
	case GL_DRAW_INDIRECT_BUFFER: return &ctx->draw_indirect;
	default: break;
	}
	if (ctx->gles && !drv_gl_version_at_least(ctx, 0, 0, 3, 1))
		return NULL;
	switch (target) {
	case GL_TEXTURE_BUFFER: return &ctx->texture_buffer;
	case GL_SHADER_STORAGE_BUFFER: return &ctx->ssbo_buffer;
	case GL_ATOMIC_COUNTER_BUFFER: return &ctx->atomic_buffer;
	case GL_DISPATCH_INDIRECT_BUFFER: return &ctx->dispatch_indirect;
	case GL_QUERY_BUFFER: return ctx->gles ? NULL : &ctx->query_buffer;
	case GL_PARAMETER_BUFFER: return ctx->gles ? NULL : &ctx->parameter_buffer;
	default: return NULL;
	}
}

struct drv_buffer *drv_gl_buffer_lookup(struct drv_context *ctx, GLuint name)
{
	return drv_names_get(&ctx->shared->buffers, name);
}

void drv_gl_buffer_ref(struct drv_buffer *b)
{
	if (b)
		b->refs++;
}

void drv_gl_buffer_unref(struct drv_context *ctx, struct drv_buffer *b)
{
	if (b && --b->refs == 0) {
		drv_pipe_buffer_release(ctx->screen->hw, &b->store);
		xt_free(b);
	}
}

void drv_gl_buffer_bind_slot(struct drv_context *ctx, struct drv_buffer **slot, struct drv_buffer *b)
{
	if (*slot == b)
		return;
	drv_gl_buffer_ref(b);
	drv_gl_buffer_unref(ctx, *slot);
	*slot = b;
}

bool drv_gl_buffer_storage(struct drv_context *ctx, struct drv_buffer *b)
{
	return drv_pipe_buffer_storage(ctx->screen->hw, &b->store);
}

/* The object behind `name`, created at first bind; NULL with an error. */
static struct drv_buffer *buffer_for_bind(struct drv_context *ctx, GLuint name, bool *ok)
{
	struct drv_buffer *b;

	*ok = true;
	if (!name)
		return NULL;
	b = drv_gl_buffer_lookup(ctx, name);
	if (b)
		return b;
	if (!drv_names_known(&ctx->shared->buffers, name) && (ctx->core || ctx->gles)) {
		/* Core and ES: only names from glGenBuffers. */
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		*ok = false;
		return NULL;
	}
	b = xt_calloc(1, sizeof *b);
	if (!b || !drv_names_set(&ctx->shared->buffers, name, b)) {
		xt_free(b);
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		*ok = false;
		return NULL;
	}
	b->name = name;
	b->refs = 1;
	b->usage = GL_STATIC_DRAW;
	return b;
}

void drv_gl_GenBuffers(GLsizei n, GLuint *buffers)
{
	DRV_CTX(ctx);
	if (n < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!drv_names_gen(&ctx->shared->buffers, n, buffers))
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
}

void drv_gl_CreateBuffers(GLsizei n, GLuint *buffers)
{
	DRV_CTX(ctx);
	bool ok;

	drv_gl_GenBuffers(n, buffers);
	for (GLsizei i = 0; i < n && ctx->error == GL_NO_ERROR; i++)
		buffer_for_bind(ctx, buffers[i], &ok);
}

static void unbind_everywhere(struct drv_context *ctx, struct drv_buffer *b)
{
	struct drv_buffer **slots[] = {
		&ctx->array_buffer, &ctx->copy_read, &ctx->copy_write, &ctx->pixel_pack,
		&ctx->pixel_unpack, &ctx->draw_indirect, &ctx->dispatch_indirect, &ctx->query_buffer,
		&ctx->uniform_buffer, &ctx->texture_buffer, &ctx->ssbo_buffer, &ctx->atomic_buffer,
		&ctx->parameter_buffer, &ctx->vao->element_buffer, &ctx->xfb->generic,
	};
	for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
		if (*slots[i] == b)
			drv_gl_buffer_bind_slot(ctx, slots[i], NULL);
	for (unsigned i = 0; i < DRV_MAX_ATTRIBS; i++)
		if (ctx->vao->binding[i].buffer == b)
			drv_gl_buffer_bind_slot(ctx, &ctx->vao->binding[i].buffer, NULL);
	for (unsigned i = 0; i < DRV_MAX_UBO_BINDINGS; i++)
		if (ctx->ubo[i].buffer == b)
			drv_gl_buffer_bind_slot(ctx, &ctx->ubo[i].buffer, NULL);
	for (unsigned i = 0; i < DRV_MAX_TF_BUFFERS; i++)
		if (ctx->xfb->b[i].buffer == b)
			drv_gl_buffer_bind_slot(ctx, &ctx->xfb->b[i].buffer, NULL);
}

void drv_gl_DeleteBuffers(GLsizei n, const GLuint *buffers)
{
	DRV_CTX(ctx);
	if (n < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < n; i++) {
		struct drv_buffer *b = drv_gl_buffer_lookup(ctx, buffers[i]);
		if (b) {
			if (drv_gl_xfb_running(ctx)) {
				for (unsigned k = 0; k < DRV_MAX_TF_BUFFERS; k++)
					if (ctx->xfb->b[k].buffer == b) {
						/* Mesa: deleting a buffer TF writes to is an error. */
						drv_gl_error(ctx, GL_INVALID_OPERATION);
						return;
					}
			}
			if (b->mapped) {
				b->mapped = false;
				b->map_ptr = NULL;
			}
			unbind_everywhere(ctx, b);
			drv_names_remove(&ctx->shared->buffers, buffers[i]);
			drv_gl_buffer_unref(ctx, b);
		} else {
			drv_names_remove(&ctx->shared->buffers, buffers[i]);
		}
	}
}

GLboolean drv_gl_IsBuffer(GLuint buffer)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	return drv_gl_buffer_lookup(ctx, buffer) != NULL;
}

void drv_gl_BindBuffer(GLenum target, GLuint buffer)
{
	DRV_CTX(ctx);
	struct drv_buffer **slot = drv_gl_buffer_target(ctx, target);
	bool ok;

	if (!slot) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	struct drv_buffer *b = buffer_for_bind(ctx, buffer, &ok);
	if (ok)
		drv_gl_buffer_bind_slot(ctx, slot, b);
}

/* The indexed binding `index` of `target`, or NULL with the error set. */
static struct drv_xfb_binding *indexed_slot(struct drv_context *ctx, GLenum target, GLuint index)
{
	switch (target) {
	case GL_TRANSFORM_FEEDBACK_BUFFER:
		if (index >= DRV_MAX_TF_BUFFERS)
			break;
		if (drv_gl_xfb_running(ctx) || (ctx->xfb->active && ctx->gles)) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return NULL;
		}
		return &ctx->xfb->b[index];
	case GL_UNIFORM_BUFFER:
		if (index >= DRV_MAX_UBO_BINDINGS)
			break;
		return &ctx->ubo[index];
	case GL_SHADER_STORAGE_BUFFER:
		if (index >= DRV_MAX_SSBO_BINDINGS)
			break;
		return &ctx->ssbo[index];
	case GL_ATOMIC_COUNTER_BUFFER:
		if (index >= DRV_MAX_ATOMIC_BINDINGS)
			break;
		return &ctx->atomic[index];
	default:
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	drv_gl_error(ctx, GL_INVALID_VALUE);
	return NULL;
}

static void bind_range(struct drv_context *ctx, GLenum target, GLuint index, GLuint buffer,
		       GLintptr offset, GLsizeiptr size, bool range)
{
	bool ok;
	struct drv_xfb_binding *s;

	if (range && buffer) {
		if (size <= 0 || offset < 0) {
			drv_gl_error(ctx, GL_INVALID_VALUE);
			return;
		}
		if (target == GL_TRANSFORM_FEEDBACK_BUFFER && ((offset | size) & 3)) {
			drv_gl_error(ctx, GL_INVALID_VALUE);
			return;
		}
	}
	s = indexed_slot(ctx, target, index);
	if (!s)
		return;
	struct drv_buffer *b = buffer_for_bind(ctx, buffer, &ok);
	if (!ok)
		return;
	drv_gl_buffer_bind_slot(ctx, &s->buffer, b);
	s->offset = b && range ? offset : 0;
	s->size = b && range ? size : 0;
	s->range = b && range;
	/* ...and the generic binding point */
	drv_gl_buffer_bind_slot(ctx, drv_gl_buffer_target(ctx, target), b);
}

void drv_gl_BindBufferBase(GLenum target, GLuint index, GLuint buffer)
{
	DRV_CTX(ctx);
	bind_range(ctx, target, index, buffer, 0, 0, false);
}

void drv_gl_BindBufferRange(GLenum target, GLuint index, GLuint buffer, GLintptr offset,
			    GLsizeiptr size)
{
	DRV_CTX(ctx);
	bind_range(ctx, target, index, buffer, offset, size, true);
}

/* EXT_transform_feedback: the buffer from `offset` to its end. */
void drv_gl_BindBufferOffset(GLenum target, GLuint index, GLuint buffer, GLintptr offset)
{
	DRV_CTX(ctx);
	if (target != GL_TRANSFORM_FEEDBACK_BUFFER) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (offset < 0 || (offset & 3)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	bind_range(ctx, target, index, buffer, 0, 0, false);
	if (ctx->error == GL_NO_ERROR && index < DRV_MAX_TF_BUFFERS && ctx->xfb->b[index].buffer)
		ctx->xfb->b[index].offset = offset;
}

void drv_gl_BindBuffersBase(GLenum target, GLuint first, GLsizei count, const GLuint *buffers)
{
	DRV_CTX(ctx);
	if (count < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < count; i++)
		bind_range(ctx, target, first + (GLuint)i, buffers ? buffers[i] : 0, 0, 0, false);
}

void drv_gl_BindBuffersRange(GLenum target, GLuint first, GLsizei count, const GLuint *buffers,
			     const GLintptr *offsets, const GLsizeiptr *sizes)
{
	DRV_CTX(ctx);
	if (count < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < count; i++)
		bind_range(ctx, target, first + (GLuint)i, buffers ? buffers[i] : 0,
			   buffers ? offsets[i] : 0, buffers ? sizes[i] : 0, buffers != NULL);
}
