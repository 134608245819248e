/*
 * drv_gl_buffer_data.c - the data stores of buffer objects (GL 4.6 and
 * ES 3.2 chapter 6): BufferData / SubData / Storage, reading back,
 * mapping, parameter queries, copies, invalidation, clears, and the DSA
 * (Named*) forms, with the errors the specs require.  Names and bindings
 * are in drv_gl_buffer.c.
 *
 * Every data store is one hardware buffer (drv_pipe.h drv_pipe_buffer)
 * allocated at BufferData / BufferStorage time; the CPU writes it through
 * its mapping after submitting pending work (execution is synchronous, so
 * no GPU work is in flight afterwards).  A new BufferData replaces the
 * store (orphaning), which is what radeonsi does when the old one may be
 * busy.
 */
#include <string.h>

#include "drv_gl_int.h"

/* ---- data stores ---------------------------------------------------------------- */

static struct drv_buffer *bound(struct drv_context *ctx, GLenum target)
{
	struct drv_buffer **slot = drv_gl_buffer_target(ctx, target);

	if (!slot) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	if (!*slot)
		drv_gl_error(ctx, GL_INVALID_OPERATION);
	return *slot;
}

static struct drv_buffer *named(struct drv_context *ctx, GLuint name)
{
	struct drv_buffer *b = drv_gl_buffer_lookup(ctx, name);

	if (!b)
		drv_gl_error(ctx, GL_INVALID_OPERATION);
	return b;
}

static bool usage_ok(GLenum u)
{
	switch (u) {
	case GL_STREAM_DRAW: case GL_STREAM_READ: case GL_STREAM_COPY:
	case GL_STATIC_DRAW: case GL_STATIC_READ: case GL_STATIC_COPY:
	case GL_DYNAMIC_DRAW: case GL_DYNAMIC_READ: case GL_DYNAMIC_COPY:
		return true;
	default:
		return false;
	}
}

static void data_store(struct drv_context *ctx, struct drv_buffer *b, GLsizeiptr size,
		       const void *data, GLenum usage, bool immutable, GLbitfield flags)
{
	if (size < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (b->immutable) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	drv_gl_flush(ctx);
	if (!drv_pipe_buffer_alloc(ctx->screen->hw, &b->store, (uint64_t)size, data)) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	b->size = size;
	b->usage = usage;
	b->immutable = immutable;
	b->storage_flags = flags;
	b->mapped = false;
	b->map_ptr = NULL;
}

void drv_gl_BufferData(GLenum target, GLsizeiptr size, const void *data, GLenum usage)
{
	DRV_CTX(ctx);
	if (!drv_gl_buffer_target(ctx, target)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!usage_ok(usage)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (size < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	struct drv_buffer *b = bound(ctx, target);
	if (b)
		data_store(ctx, b, size, data, usage, false, 0);
}

void drv_gl_NamedBufferData(GLuint buffer, GLsizeiptr size, const void *data, GLenum usage)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = named(ctx, buffer);
	if (!b)
		return;
	if (!usage_ok(usage)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	data_store(ctx, b, size, data, usage, false, 0);
}

static void storage(struct drv_context *ctx, struct drv_buffer *b, GLsizeiptr size,
		    const void *data, GLbitfield flags)
{
	const GLbitfield all = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT |
			       GL_MAP_COHERENT_BIT | GL_DYNAMIC_STORAGE_BIT | GL_CLIENT_STORAGE_BIT;
	if (size <= 0 || (flags & ~all) ||
	    ((flags & GL_MAP_PERSISTENT_BIT) && !(flags & (GL_MAP_READ_BIT | GL_MAP_WRITE_BIT))) ||
	    ((flags & GL_MAP_COHERENT_BIT) && !(flags & GL_MAP_PERSISTENT_BIT))) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	data_store(ctx, b, size, data, GL_DYNAMIC_DRAW, true, flags);
}

void drv_gl_BufferStorage(GLenum target, GLsizeiptr size, const void *data, GLbitfield flags)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = bound(ctx, target);
	if (b)
		storage(ctx, b, size, data, flags);
}

void drv_gl_NamedBufferStorage(GLuint buffer, GLsizeiptr size, const void *data, GLbitfield flags)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = named(ctx, buffer);
	if (b)
		storage(ctx, b, size, data, flags);
}

/* Range checks shared by SubData / GetSubData / copies. */
static bool range_ok(struct drv_context *ctx, const struct drv_buffer *b, GLintptr offset,
		     GLsizeiptr size)
{
	if (offset < 0 || size < 0 || offset + size > b->size) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return false;
	}
	return true;
}

static bool mapped_blocks(struct drv_context *ctx, const struct drv_buffer *b)
{
	if (b->mapped && !(b->map_access & GL_MAP_PERSISTENT_BIT)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return true;
	}
	return false;
}

static void sub_data(struct drv_context *ctx, struct drv_buffer *b, GLintptr offset,
		     GLsizeiptr size, const void *data)
{
	if (!range_ok(ctx, b, offset, size) || mapped_blocks(ctx, b))
		return;
	if (b->immutable && !(b->storage_flags & GL_DYNAMIC_STORAGE_BIT)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!size || !data || !drv_gl_buffer_storage(ctx, b))
		return;
	drv_gl_flush(ctx);
	memcpy(drv_pipe_buffer_map(&b->store) + offset, data, (size_t)size);
}

void drv_gl_BufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void *data)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = bound(ctx, target);
	if (b)
		sub_data(ctx, b, offset, size, data);
}

void drv_gl_NamedBufferSubData(GLuint buffer, GLintptr offset, GLsizeiptr size, const void *data)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = named(ctx, buffer);
	if (b)
		sub_data(ctx, b, offset, size, data);
}

static void get_sub_data(struct drv_context *ctx, struct drv_buffer *b, GLintptr offset,
			 GLsizeiptr size, void *data)
{
	if (!range_ok(ctx, b, offset, size) || mapped_blocks(ctx, b))
		return;
	if (!size || !data || !drv_pipe_buffer_map(&b->store))
		return;
	drv_gl_flush(ctx);
	memcpy(data, drv_pipe_buffer_map(&b->store) + offset, (size_t)size);
}

void drv_gl_GetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, void *data)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = bound(ctx, target);
	if (b)
		get_sub_data(ctx, b, offset, size, data);
}

void drv_gl_GetNamedBufferSubData(GLuint buffer, GLintptr offset, GLsizeiptr size, void *data)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = named(ctx, buffer);
	if (b)
		get_sub_data(ctx, b, offset, size, data);
}

/* ---- mapping -------------------------------------------------------------------- */

static void *map_range(struct drv_context *ctx, struct drv_buffer *b, GLintptr offset,
		       GLsizeiptr length, GLbitfield access)
{
	const GLbitfield all = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT |
			       GL_MAP_INVALIDATE_BUFFER_BIT | GL_MAP_FLUSH_EXPLICIT_BIT |
			       GL_MAP_UNSYNCHRONIZED_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;

	if (offset < 0 || length < 0 || offset + length > b->size || (access & ~all)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	if (!length && !ctx->gles) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	if (b->mapped || !(access & (GL_MAP_READ_BIT | GL_MAP_WRITE_BIT)) ||
	    ((access & GL_MAP_READ_BIT) &&
	     (access & (GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT |
			GL_MAP_UNSYNCHRONIZED_BIT))) ||
	    ((access & GL_MAP_FLUSH_EXPLICIT_BIT) && !(access & GL_MAP_WRITE_BIT))) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	if (b->immutable &&
	    (((access & GL_MAP_READ_BIT) && !(b->storage_flags & GL_MAP_READ_BIT)) ||
	     ((access & GL_MAP_WRITE_BIT) && !(b->storage_flags & GL_MAP_WRITE_BIT)) ||
	     ((access & GL_MAP_PERSISTENT_BIT) && !(b->storage_flags & GL_MAP_PERSISTENT_BIT)))) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	if (!drv_gl_buffer_storage(ctx, b)) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return NULL;
	}
	drv_gl_flush(ctx);
	b->mapped = true;
	b->map_offset = offset;
	b->map_length = length;
	b->map_access = access;
	/* GPU memory is host memory in the model: the mapping is the BO. */
	b->map_ptr = drv_pipe_buffer_map(&b->store) + offset;
	return b->map_ptr;
}

static GLbitfield access_of(GLenum access)
{
	switch (access) {
	case GL_READ_ONLY: return GL_MAP_READ_BIT;
	case GL_WRITE_ONLY: return GL_MAP_WRITE_BIT;
	case GL_READ_WRITE: return GL_MAP_READ_BIT | GL_MAP_WRITE_BIT;
	default: return 0;
	}
}

void *drv_gl_MapBuffer(GLenum target, GLenum access)
{
	DRV_CTX_RET(ctx, NULL);
	struct drv_buffer *b;

	if (!access_of(access)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	if (!(b = bound(ctx, target)))
		return NULL;
	if (b->mapped) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	if (!b->size)
		return NULL;
	return map_range(ctx, b, 0, b->size, access_of(access));
}

void *drv_gl_MapNamedBuffer(GLuint buffer, GLenum access)
{
	DRV_CTX_RET(ctx, NULL);
	struct drv_buffer *b = named(ctx, buffer);

	if (!b)
		return NULL;
	if (!access_of(access)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	if (b->mapped) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	return b->size ? map_range(ctx, b, 0, b->size, access_of(access)) : NULL;
}

void *drv_gl_MapBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access)
{
	DRV_CTX_RET(ctx, NULL);
	struct drv_buffer *b = bound(ctx, target);
	return b ? map_range(ctx, b, offset, length, access) : NULL;
}

void *drv_gl_MapNamedBufferRange(GLuint buffer, GLintptr offset, GLsizeiptr length,
				 GLbitfield access)
{
	DRV_CTX_RET(ctx, NULL);
	struct drv_buffer *b = named(ctx, buffer);
	return b ? map_range(ctx, b, offset, length, access) : NULL;
}

static void flush_range(struct drv_context *ctx, struct drv_buffer *b, GLintptr offset,
			GLsizeiptr length)
{
	if (offset < 0 || length < 0 || offset + length > b->map_length) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!b->mapped || !(b->map_access & GL_MAP_FLUSH_EXPLICIT_BIT))
		drv_gl_error(ctx, GL_INVALID_OPERATION);
	/* The mapping is the memory: nothing to copy. */
}

void drv_gl_FlushMappedBufferRange(GLenum target, GLintptr offset, GLsizeiptr length)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = bound(ctx, target);
	if (b)
		flush_range(ctx, b, offset, length);
}

void drv_gl_FlushMappedNamedBufferRange(GLuint buffer, GLintptr offset, GLsizeiptr length)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = named(ctx, buffer);
	if (b)
		flush_range(ctx, b, offset, length);
}

static GLboolean unmap(struct drv_context *ctx, struct drv_buffer *b)
{
	if (!b->mapped) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return GL_FALSE;
	}
	b->mapped = false;
	b->map_ptr = NULL;
	b->map_offset = b->map_length = 0;
	b->map_access = 0;
	return GL_TRUE;
}

GLboolean drv_gl_UnmapBuffer(GLenum target)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	struct drv_buffer *b = bound(ctx, target);
	return b ? unmap(ctx, b) : GL_FALSE;
}

GLboolean drv_gl_UnmapNamedBuffer(GLuint buffer)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	struct drv_buffer *b = named(ctx, buffer);
	return b ? unmap(ctx, b) : GL_FALSE;
}

/* ---- parameters ------------------------------------------------------------------- */

static bool buffer_param(struct drv_context *ctx, const struct drv_buffer *b, GLenum pname,
			 GLint64 *v)
{
	switch (pname) {
	case GL_BUFFER_SIZE: *v = b->size; return true;
	case GL_BUFFER_USAGE: *v = b->usage; return true;
	case GL_BUFFER_ACCESS:
		*v = b->map_access == GL_MAP_READ_BIT ? GL_READ_ONLY :
		     b->map_access == GL_MAP_WRITE_BIT ? GL_WRITE_ONLY : GL_READ_WRITE;
		return true;
	case GL_BUFFER_ACCESS_FLAGS: *v = b->map_access; return true;
	case GL_BUFFER_MAPPED: *v = b->mapped; return true;
	case GL_BUFFER_MAP_OFFSET: *v = b->map_offset; return true;
	case GL_BUFFER_MAP_LENGTH: *v = b->map_length; return true;
	case GL_BUFFER_IMMUTABLE_STORAGE: *v = b->immutable; return true;
	case GL_BUFFER_STORAGE_FLAGS: *v = b->storage_flags; return true;
	default:
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return false;
	}
}

void drv_gl_GetBufferParameteriv(GLenum target, GLenum pname, GLint *params)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = bound(ctx, target);
	GLint64 v;
	if (b && buffer_param(ctx, b, pname, &v))
		*params = (GLint)v;
}

void drv_gl_GetBufferParameteri64v(GLenum target, GLenum pname, GLint64 *params)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = bound(ctx, target);
	GLint64 v;
	if (b && buffer_param(ctx, b, pname, &v))
		*params = v;
}

void drv_gl_GetNamedBufferParameteriv(GLuint buffer, GLenum pname, GLint *params)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = named(ctx, buffer);
	GLint64 v;
	if (b && buffer_param(ctx, b, pname, &v))
		*params = (GLint)v;
}

void drv_gl_GetNamedBufferParameteri64v(GLuint buffer, GLenum pname, GLint64 *params)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = named(ctx, buffer);
	GLint64 v;
	if (b && buffer_param(ctx, b, pname, &v))
		*params = v;
}

void drv_gl_GetBufferPointerv(GLenum target, GLenum pname, void **params)
{
	DRV_CTX(ctx);
	struct drv_buffer *b;
	if (pname != GL_BUFFER_MAP_POINTER) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if ((b = bound(ctx, target)))
		*params = b->map_ptr;
}

/* ---- copies, invalidation, clears --------------------------------------------------- */

static void copy(struct drv_context *ctx, struct drv_buffer *src, struct drv_buffer *dst,
		 GLintptr ro, GLintptr wo, GLsizeiptr size)
{
	if (ro < 0 || wo < 0 || size < 0 || ro + size > src->size || wo + size > dst->size) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (src == dst && ro < wo + size && wo < ro + size) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (mapped_blocks(ctx, src) || mapped_blocks(ctx, dst) || !size)
		return;
	drv_gl_flush(ctx);
	/* Assumption: a CPU copy after the flush stands in for radeonsi's
	 * CP DMA (CP_DMA is not modelled by gpu_model); the bytes are the same. */
	memmove(drv_pipe_buffer_map(&dst->store) + wo, drv_pipe_buffer_map(&src->store) + ro,
		(size_t)size);
}

void drv_gl_CopyBufferSubData(GLenum readTarget, GLenum writeTarget, GLintptr readOffset,
			      GLintptr writeOffset, GLsizeiptr size)
{
	DRV_CTX(ctx);
	struct drv_buffer *src = bound(ctx, readTarget), *dst;
	if (!src || !(dst = bound(ctx, writeTarget)))
		return;
	copy(ctx, src, dst, readOffset, writeOffset, size);
}

void drv_gl_CopyNamedBufferSubData(GLuint readBuffer, GLuint writeBuffer, GLintptr readOffset,
				   GLintptr writeOffset, GLsizeiptr size)
{
	DRV_CTX(ctx);
	struct drv_buffer *src = named(ctx, readBuffer), *dst;
	if (!src || !(dst = named(ctx, writeBuffer)))
		return;
	copy(ctx, src, dst, readOffset, writeOffset, size);
}

void drv_gl_InvalidateBufferData(GLuint buffer)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = drv_gl_buffer_lookup(ctx, buffer);
	if (!b) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	mapped_blocks(ctx, b);
	/* Contents become undefined; keeping them is a valid choice. */
}

void drv_gl_InvalidateBufferSubData(GLuint buffer, GLintptr offset, GLsizeiptr length)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = drv_gl_buffer_lookup(ctx, buffer);
	if (!b) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (range_ok(ctx, b, offset, length))
		mapped_blocks(ctx, b);
}

/* Bytes of one element of a clear format, and whether it is supported. */
static unsigned clear_elem(GLenum internalformat)
{
	switch (internalformat) {
	case GL_R8: case GL_R8I: case GL_R8UI: return 1;
	case GL_R16: case GL_R16F: case GL_R16I: case GL_R16UI: case GL_RG8: case GL_RG8I:
	case GL_RG8UI: return 2;
	case GL_R32F: case GL_R32I: case GL_R32UI: case GL_RG16: case GL_RG16F: case GL_RG16I:
	case GL_RG16UI: case GL_RGBA8: case GL_RGBA8I: case GL_RGBA8UI: return 4;
	case GL_RG32F: case GL_RG32I: case GL_RG32UI: case GL_RGBA16: case GL_RGBA16F:
	case GL_RGBA16I: case GL_RGBA16UI: return 8;
	case GL_RGB32F: case GL_RGB32I: case GL_RGB32UI: return 12;
	case GL_RGBA32F: case GL_RGBA32I: case GL_RGBA32UI: return 16;
	default: return 0;
	}
}

static void clear(struct drv_context *ctx, struct drv_buffer *b, GLenum internalformat,
		  GLintptr offset, GLsizeiptr size, GLenum format, GLenum type, const void *data)
{
	unsigned elem = clear_elem(internalformat);

	if (!elem) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (offset < 0 || size < 0 || offset + size > b->size) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if ((offset | size) % elem) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (mapped_blocks(ctx, b) || !size || !drv_gl_buffer_storage(ctx, b))
		return;
	drv_gl_flush(ctx);
	/* Assumption: the client data is already in the internal format (the
	 * common case: matching format / type); conversions are not modelled. */
	for (GLsizeiptr o = 0; o < size; o += elem) {
		if (data)
			memcpy(drv_pipe_buffer_map(&b->store) + offset + o, data, elem);
		else
			memset(drv_pipe_buffer_map(&b->store) + offset + o, 0, elem);
	}
}

void drv_gl_ClearBufferData(GLenum target, GLenum internalformat, GLenum format, GLenum type,
			    const void *data)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = bound(ctx, target);
	if (b)
		clear(ctx, b, internalformat, 0, b->size, format, type, data);
}

void drv_gl_ClearBufferSubData(GLenum target, GLenum internalformat, GLintptr offset,
			       GLsizeiptr size, GLenum format, GLenum type, const void *data)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = bound(ctx, target);
	if (b)
		clear(ctx, b, internalformat, offset, size, format, type, data);
}
