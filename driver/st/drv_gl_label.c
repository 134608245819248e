/*
 * drv_gl_label.c - object and pointer labels (GL 4.6 §20.9, KHR_debug:
 * glObjectLabel, glGetObjectLabel, glObjectPtrLabel, glGetObjectPtrLabel)
 * and the two object kinds the sim had only as names so far: sampler
 * objects (§8.2, names and bindings: the model does not sample) and
 * display lists (GL 4.6 compatibility profile, Display Lists: lists
 * compiled while executing; a list compiled without execution, or called,
 * would need the calls recorded and is reported by name).
 *
 * A label lives in the name-table slot of its object (struct drv_names),
 * so deleting the object deletes its label and a name created again
 * starts without one.  Which table and what makes an object exist follow
 * the identifier, as GL's "the name of an existing object of the type
 * identifier names" (INVALID_VALUE otherwise).
 */
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

/* Compatibility-profile enums (glcorearb.h leaves them out). */
#define GL_COMPILE             0x1300
#define GL_COMPILE_AND_EXECUTE 0x1301
#define GL_DISPLAY_LIST        0x82E7

/* Mesa's MAX_LABEL_LENGTH, what the capturing driver reports (GL 4.6
 * table 23.57: at least 256). */
#define DRV_MAX_LABEL_LENGTH 256

/* A sync object or display list has no state the model uses: the slot's
 * object is this marker. */
static char exists_marker;

/* The table that holds objects of kind `identifier`, NULL (INVALID_ENUM)
 * for an identifier this context does not have; *exists tells whether
 * `name` is an existing object of that kind. */
static struct drv_names *table_of(struct drv_context *ctx, GLenum identifier, GLuint name, bool *exists)
{
	struct drv_names *t = NULL;

	switch (identifier) {
	case GL_BUFFER: t = &ctx->shared->buffers; break;
	case GL_SHADER:
		*exists = drv_gl_IsShader(name);
		return &ctx->shared->shaders;
	case GL_PROGRAM:
		*exists = drv_gl_IsProgram(name);
		return &ctx->shared->shaders;
	case GL_VERTEX_ARRAY: t = &ctx->vaos; break;
	case GL_QUERY: {
		struct drv_query *q = drv_names_get(&ctx->queries, name);
		*exists = q && q->created;
		return &ctx->queries;
	}
	case GL_PROGRAM_PIPELINE: t = &ctx->pipelines; break;
	case GL_TRANSFORM_FEEDBACK: t = &ctx->xfbs; break;
	case GL_SAMPLER: t = &ctx->shared->samplers; break;
	case GL_TEXTURE: t = &ctx->fb.textures; break;
	case GL_RENDERBUFFER: t = &ctx->fb.renderbuffers; break;
	case GL_FRAMEBUFFER: t = &ctx->fb.framebuffers; break;
	case GL_DISPLAY_LIST:
		if (ctx->gles || ctx->core)
			return NULL;
		t = &ctx->shared->lists;
		break;
	default:
		return NULL;
	}
	*exists = drv_names_get(t, name) != NULL;
	return t;
}

/* Sets (label non-NULL) or removes the label of slot `name` of t;
 * length < 0: NUL-terminated. */
static void set_label(struct drv_context *ctx, struct drv_names *t, uint32_t name, GLsizei length,
		      const GLchar *label)
{
	size_t n = 0;
	char *copy = NULL;

	if (label) {
		n = length < 0 ? strlen(label) : (size_t)length;
		if (n >= DRV_MAX_LABEL_LENGTH) {
			drv_gl_error(ctx, GL_INVALID_VALUE);
			return;
		}
		copy = xt_malloc(n + 1);
		if (!copy) {
			drv_gl_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		memcpy(copy, label, n);
		copy[n] = 0;
	}
	drv_names_set_label(t, name, copy);
}

/* GL 4.6 §20.9.1: up to bufSize - 1 characters and a NUL; *length the
 * characters written, or the whole length when label is NULL. */
static void get_label(struct drv_context *ctx, const struct drv_names *t, uint32_t name, GLsizei bufSize,
		      GLsizei *length, GLchar *label)
{
	const char *l = drv_names_label(t, name);
	size_t n = l ? strlen(l) : 0;

	if (bufSize < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (label && bufSize > 0) {
		if (n > (size_t)bufSize - 1)
			n = (size_t)bufSize - 1;
		memcpy(label, l ? l : "", n);
		label[n] = 0;
	}
	if (length)
		*length = label ? (bufSize > 0 ? (GLsizei)n : 0) : (GLsizei)n;
}

void drv_gl_ObjectLabel(GLenum identifier, GLuint name, GLsizei length, const GLchar *label)
{
	DRV_CTX(ctx);
	bool exists = false;
	struct drv_names *t = table_of(ctx, identifier, name, &exists);

	if (!t) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!exists) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	set_label(ctx, t, name, length, label);
}

void drv_gl_GetObjectLabel(GLenum identifier, GLuint name, GLsizei bufSize, GLsizei *length, GLchar *label)
{
	DRV_CTX(ctx);
	bool exists = false;
	struct drv_names *t = table_of(ctx, identifier, name, &exists);

	if (!t) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!exists) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	get_label(ctx, t, name, bufSize, length, label);
}

/* The name-table slot of a sync handle (drv_gl_FenceSync), 0 if none. */
static uint32_t sync_name(struct drv_context *ctx, const void *ptr)
{
	uintptr_t v = (uintptr_t)ptr;

	if (v <= 0x5000 || v - 0x5000 > UINT32_MAX)
		return 0;
	return drv_names_get(&ctx->shared->syncs, (uint32_t)(v - 0x5000)) ? (uint32_t)(v - 0x5000) : 0;
}

void drv_gl_ObjectPtrLabel(const void *ptr, GLsizei length, const GLchar *label)
{
	DRV_CTX(ctx);
	uint32_t name = sync_name(ctx, ptr);

	if (!name) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	set_label(ctx, &ctx->shared->syncs, name, length, label);
}

void drv_gl_GetObjectPtrLabel(const void *ptr, GLsizei bufSize, GLsizei *length, GLchar *label)
{
	DRV_CTX(ctx);
	uint32_t name = sync_name(ctx, ptr);

	if (!name) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	get_label(ctx, &ctx->shared->syncs, name, bufSize, length, label);
}

/* ---- sync objects (GL 4.6 §4.1): handles the replay remaps ---------------- */

bool drv_gl_sync_create(struct drv_context *ctx, uint32_t name)
{
	if (!drv_names_set(&ctx->shared->syncs, name, &exists_marker)) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return false;
	}
	return true;
}

bool drv_gl_sync_exists(struct drv_context *ctx, const void *ptr)
{
	return sync_name(ctx, ptr) != 0;
}

void drv_gl_sync_delete(struct drv_context *ctx, const void *ptr)
{
	uint32_t name = sync_name(ctx, ptr);

	if (name)
		drv_names_remove(&ctx->shared->syncs, name);
}

/* ---- sampler objects (GL 4.6 §8.2) ---------------------------------------- */

void drv_gl_GenSamplers(GLsizei count, GLuint *samplers)
{
	DRV_CTX(ctx);
	if (count < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/* GenSamplers creates the objects (each name "represents a new
	 * sampler object"), unlike the bind-to-create kinds */
	if (!drv_names_gen(&ctx->shared->samplers, count, samplers)) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	/* each holds its parameters (drv_gl_raster.c sets them) */
	for (GLsizei i = 0; i < count; i++) {
		struct drv_tex_params *p = xt_calloc(1, sizeof *p);
		if (p)
			drv_tex_params_init(p);
		if (!p || !drv_names_set(&ctx->shared->samplers, samplers[i], p)) {
			xt_free(p);
			drv_gl_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
	}
}

void drv_gl_CreateSamplers(GLsizei n, GLuint *samplers)
{
	drv_gl_GenSamplers(n, samplers);
}

void drv_gl_DeleteSamplers(GLsizei count, const GLuint *samplers)
{
	DRV_CTX(ctx);
	if (count < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < count; i++) {
		for (unsigned u = 0; u < DRV_MAX_TEXTURE_UNITS; u++)
			if (ctx->sampler_binding[u] == samplers[i])
				ctx->sampler_binding[u] = 0;
		xt_free(drv_names_get(&ctx->shared->samplers, samplers[i]));
		drv_names_remove(&ctx->shared->samplers, samplers[i]);
	}
}

GLboolean drv_gl_IsSampler(GLuint sampler)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	return drv_names_get(&ctx->shared->samplers, sampler) != NULL;
}

void drv_gl_BindSampler(GLuint unit, GLuint sampler)
{
	DRV_CTX(ctx);
	if (unit >= DRV_MAX_TEXTURE_UNITS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (sampler && !drv_names_get(&ctx->shared->samplers, sampler)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	ctx->sampler_binding[unit] = sampler;
}

/* ---- display lists (GL 4.6 compatibility §7: NewList, EndList) ------------- */

GLuint drv_gl_GenLists(GLsizei range)
{
	DRV_CTX_RET(ctx, 0);
	struct drv_names *t = &ctx->shared->lists;
	GLuint first;

	if (range < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return 0;
	}
	if (!range)
		return 0;
	/* names are handed out in increasing order, never reused: the next
	 * `range` are consecutive */
	first = t->next ? t->next : 1;
	for (GLsizei i = 0; i < range; i++)
		if (!drv_names_set(t, first + (GLuint)i, NULL)) {
			drv_gl_error(ctx, GL_OUT_OF_MEMORY);
			return 0;
		}
	return first;
}

void drv_gl_NewList(GLuint list, GLenum mode)
{
	DRV_CTX(ctx);
	if (!list) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (mode != GL_COMPILE && mode != GL_COMPILE_AND_EXECUTE) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (ctx->list_open) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (mode == GL_COMPILE) {
		drv_gl_unsupported(ctx, "display lists compiled without execution (the sim records no "
				   "list contents)");
		return;
	}
	ctx->list_open = list;
}

void drv_gl_EndList(void)
{
	DRV_CTX(ctx);
	if (!ctx->list_open) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	/* The list exists from here on; its contents were executed, not
	 * kept (glCallList is not provided: reported when a trace calls it). */
	if (!drv_names_set(&ctx->shared->lists, ctx->list_open, &exists_marker))
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
	ctx->list_open = 0;
}

void drv_gl_DeleteLists(GLuint list, GLsizei range)
{
	DRV_CTX(ctx);
	if (range < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < range; i++)
		drv_names_remove(&ctx->shared->lists, list + (GLuint)i);
}

GLboolean drv_gl_IsList(GLuint list)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	return drv_names_get(&ctx->shared->lists, list) != NULL;
}

GLint drv_gl_max_label_length(void)
{
	return DRV_MAX_LABEL_LENGTH;
}
