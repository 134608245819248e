/*
 * drv_gl_vao.c - vertex array objects and vertex attributes (GL 4.6
 * chapter 10, ES 3.2 chapter 10): VAO names, the attribute formats of
 * glVertexAttrib{,I,L}Pointer and ARB_vertex_attrib_binding, buffer
 * bindings and divisors, client-memory arrays (compatibility / ES), the
 * DSA (VertexArray*) forms, the current generic attribute values and the
 * attribute queries.
 *
 * Storage follows ARB_vertex_attrib_binding: glVertexAttribPointer(i)
 * sets attribute i's format, binds binding i to it and sets binding i's
 * buffer / offset / stride, as the spec defines it.  A draw hands each
 * location's attribute and binding to the hardware layer in its terms
 * (drv_gl_vertex_input -> drv_pipe.h struct drv_pipe_vertex_input), which
 * turns it into a typed buffer descriptor.
 */
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

void drv_gl_vao_init(struct drv_vao *v, uint32_t name)
{
	memset(v, 0, sizeof *v);
	v->name = name;
	for (unsigned i = 0; i < DRV_MAX_ATTRIBS; i++) {
		v->attrib[i].size = 4;
		v->attrib[i].type = GL_FLOAT;
		v->attrib[i].binding = i;
		v->binding[i].stride = 16;
	}
	for (unsigned k = 0; k < DRV_FF_ARRAYS; k++) {
		v->ff_attrib[k].size = 4;
		v->ff_attrib[k].type = GL_FLOAT;
		v->ff_attrib[k].binding = k;
		v->ff_binding[k].stride = 16;
	}
}

void drv_gl_vao_release(struct drv_context *ctx, struct drv_vao *v)
{
	for (unsigned i = 0; i < DRV_MAX_ATTRIBS; i++)
		drv_gl_buffer_bind_slot(ctx, &v->binding[i].buffer, NULL);
	for (unsigned k = 0; k < DRV_FF_ARRAYS; k++)
		drv_gl_buffer_bind_slot(ctx, &v->ff_binding[k].buffer, NULL);
	drv_gl_buffer_bind_slot(ctx, &v->element_buffer, NULL);
}

void drv_gl_GenVertexArrays(GLsizei n, GLuint *arrays)
{
	DRV_CTX(ctx);
	if (n < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!drv_names_gen(&ctx->vaos, n, arrays))
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
}

static struct drv_vao *vao_create(struct drv_context *ctx, GLuint name)
{
	struct drv_vao *v = drv_names_get(&ctx->vaos, name);

	if (v)
		return v;
	v = xt_malloc(sizeof *v);
	if (!v || !drv_names_set(&ctx->vaos, name, v)) {
		xt_free(v);
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return NULL;
	}
	drv_gl_vao_init(v, name);
	v->created = true;
	return v;
}

void drv_gl_CreateVertexArrays(GLsizei n, GLuint *arrays)
{
	DRV_CTX(ctx);
	drv_gl_GenVertexArrays(n, arrays);
	for (GLsizei i = 0; i < n && ctx->error == GL_NO_ERROR; i++)
		vao_create(ctx, arrays[i]);
}

void drv_gl_DeleteVertexArrays(GLsizei n, const GLuint *arrays)
{
	DRV_CTX(ctx);
	if (n < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < n; i++) {
		struct drv_vao *v = drv_names_get(&ctx->vaos, arrays[i]);
		if (v == ctx->vao)
			ctx->vao = &ctx->default_vao;
		drv_names_remove(&ctx->vaos, arrays[i]);
		if (v) {
			drv_gl_vao_release(ctx, v);
			xt_free(v);
		}
	}
}

GLboolean drv_gl_IsVertexArray(GLuint array)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	return drv_names_get(&ctx->vaos, array) != NULL;
}

void drv_gl_BindVertexArray(GLuint array)
{
	DRV_CTX(ctx);
	struct drv_vao *v;

	if (!array) {
		ctx->vao = &ctx->default_vao;
		return;
	}
	if (!drv_names_known(&ctx->vaos, array)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if ((v = vao_create(ctx, array)))
		ctx->vao = v;
}

/* The VAO of a DSA call, or NULL with GL_INVALID_OPERATION. */
static struct drv_vao *dsa_vao(struct drv_context *ctx, GLuint vaobj)
{
	struct drv_vao *v = drv_names_get(&ctx->vaos, vaobj);

	if (!v || !v->created)
		drv_gl_error(ctx, GL_INVALID_OPERATION);
	return v && v->created ? v : NULL;
}

/* ---- formats -------------------------------------------------------------------- */

enum fmt_kind { FMT_FLOAT, FMT_INT, FMT_DOUBLE };

static bool type_ok(struct drv_context *ctx, GLint size, GLenum type, enum fmt_kind kind)
{
	bool packed = type == GL_INT_2_10_10_10_REV || type == GL_UNSIGNED_INT_2_10_10_10_REV ||
		      type == GL_UNSIGNED_INT_10F_11F_11F_REV;
	bool ok;

	switch (kind) {
	case FMT_INT:
		ok = type == GL_BYTE || type == GL_UNSIGNED_BYTE || type == GL_SHORT ||
		     type == GL_UNSIGNED_SHORT || type == GL_INT || type == GL_UNSIGNED_INT;
		break;
	case FMT_DOUBLE:
		ok = type == GL_DOUBLE;
		break;
	default:
		ok = type == GL_BYTE || type == GL_UNSIGNED_BYTE || type == GL_SHORT ||
		     type == GL_UNSIGNED_SHORT || type == GL_INT || type == GL_UNSIGNED_INT ||
		     type == GL_FLOAT || type == GL_HALF_FLOAT || type == GL_FIXED ||
		     (type == GL_DOUBLE && !ctx->gles) || packed;
		break;
	}
	if (!ok) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return false;
	}
	if (size == GL_BGRA) {
		if (kind != FMT_FLOAT || ctx->gles ||
		    (type != GL_UNSIGNED_BYTE && type != GL_INT_2_10_10_10_REV &&
		     type != GL_UNSIGNED_INT_2_10_10_10_REV)) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return false;
		}
		return true;
	}
	if (size < 1 || size > 4) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return false;
	}
	if ((packed && size != (type == GL_UNSIGNED_INT_10F_11F_11F_REV ? 3 : 4))) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	return true;
}

static GLsizei elem_bytes(GLint size, GLenum type)
{
	unsigned n = size == GL_BGRA ? 4 : (unsigned)size;

	switch (type) {
	case GL_BYTE: case GL_UNSIGNED_BYTE: return (GLsizei)n;
	case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: return (GLsizei)(2 * n);
	case GL_DOUBLE: return (GLsizei)(8 * n);
	case GL_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_2_10_10_10_REV:
	case GL_UNSIGNED_INT_10F_11F_11F_REV: return 4;
	default: return (GLsizei)(4 * n);
	}
}

static void set_format(struct drv_vao *v, GLuint index, GLint size, GLenum type, bool normalized,
		       enum fmt_kind kind, GLuint relative_offset)
{
	struct drv_vattrib *a = &v->attrib[index];

	a->size = size;
	a->type = type;
	a->normalized = normalized;
	a->integer = kind == FMT_INT;
	a->doubles = kind == FMT_DOUBLE;
	a->relative_offset = relative_offset;
}

static void attrib_pointer(GLuint index, GLint size, GLenum type, GLboolean normalized,
			   GLsizei stride, const void *pointer, enum fmt_kind kind)
{
	DRV_CTX(ctx);
	struct drv_vao *v = ctx->vao;
	struct drv_vbinding *b;

	if (index >= DRV_MAX_ATTRIBS || stride < 0 || stride > 2048) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!type_ok(ctx, size, type, kind))
		return;
	if (v != &ctx->default_vao || ctx->core) {
		/* A VAO (or core's missing default VAO) needs a buffer for a
		 * non-NULL pointer (GL 4.6 10.3.9, ES 3.2 10.3.2). */
		if (!ctx->array_buffer && pointer) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
	}
	if (ctx->core && v == &ctx->default_vao) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	set_format(v, index, size, type, normalized && kind == FMT_FLOAT, kind, 0);
	v->attrib[index].binding = index;
	b = &v->binding[index];
	drv_gl_buffer_bind_slot(ctx, &b->buffer, ctx->array_buffer);
	b->client_ptr = ctx->array_buffer ? NULL : pointer;
	b->offset = ctx->array_buffer ? (int64_t)(uintptr_t)pointer : 0;
	b->stride = stride ? stride : elem_bytes(size, type);
}

void drv_gl_VertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized,
				GLsizei stride, const void *pointer)
{
	attrib_pointer(index, size, type, normalized, stride, pointer, FMT_FLOAT);
}

void drv_gl_VertexAttribIPointer(GLuint index, GLint size, GLenum type, GLsizei stride,
				 const void *pointer)
{
	attrib_pointer(index, size, type, GL_FALSE, stride, pointer, FMT_INT);
}

void drv_gl_VertexAttribLPointer(GLuint index, GLint size, GLenum type, GLsizei stride,
				 const void *pointer)
{
	attrib_pointer(index, size, type, GL_FALSE, stride, pointer, FMT_DOUBLE);
}

static void enable(struct drv_context *ctx, struct drv_vao *v, GLuint index, bool on)
{
	if (!v)
		return;
	if (index >= DRV_MAX_ATTRIBS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	v->attrib[index].enabled = on;
}

void drv_gl_EnableVertexAttribArray(GLuint index)
{
	DRV_CTX(ctx);
	enable(ctx, ctx->vao, index, true);
}

void drv_gl_DisableVertexAttribArray(GLuint index)
{
	DRV_CTX(ctx);
	enable(ctx, ctx->vao, index, false);
}

void drv_gl_EnableVertexArrayAttrib(GLuint vaobj, GLuint index)
{
	DRV_CTX(ctx);
	enable(ctx, dsa_vao(ctx, vaobj), index, true);
}

void drv_gl_DisableVertexArrayAttrib(GLuint vaobj, GLuint index)
{
	DRV_CTX(ctx);
	enable(ctx, dsa_vao(ctx, vaobj), index, false);
}

void drv_gl_VertexAttribDivisor(GLuint index, GLuint divisor)
{
	DRV_CTX(ctx);
	if (index >= DRV_MAX_ATTRIBS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/* Defined as VertexAttribBinding(index, index) + VertexBindingDivisor. */
	ctx->vao->attrib[index].binding = index;
	ctx->vao->binding[index].divisor = divisor;
}

static void attrib_format(struct drv_context *ctx, struct drv_vao *v, GLuint index, GLint size,
			  GLenum type, GLboolean normalized, GLuint relative_offset,
			  enum fmt_kind kind)
{
	if (!v)
		return;
	if (index >= DRV_MAX_ATTRIBS || relative_offset > 2047) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (ctx->core && v == &ctx->default_vao) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (type_ok(ctx, size, type, kind))
		set_format(v, index, size, type, normalized && kind == FMT_FLOAT, kind,
			   relative_offset);
}

void drv_gl_VertexAttribFormat(GLuint index, GLint size, GLenum type, GLboolean normalized,
			       GLuint relativeoffset)
{
	DRV_CTX(ctx);
	attrib_format(ctx, ctx->vao, index, size, type, normalized, relativeoffset, FMT_FLOAT);
}

void drv_gl_VertexAttribIFormat(GLuint index, GLint size, GLenum type, GLuint relativeoffset)
{
	DRV_CTX(ctx);
	attrib_format(ctx, ctx->vao, index, size, type, GL_FALSE, relativeoffset, FMT_INT);
}

void drv_gl_VertexArrayAttribFormat(GLuint vaobj, GLuint index, GLint size, GLenum type,
				    GLboolean normalized, GLuint relativeoffset)
{
	DRV_CTX(ctx);
	attrib_format(ctx, dsa_vao(ctx, vaobj), index, size, type, normalized, relativeoffset,
		      FMT_FLOAT);
}

void drv_gl_VertexArrayAttribIFormat(GLuint vaobj, GLuint index, GLint size, GLenum type,
				     GLuint relativeoffset)
{
	DRV_CTX(ctx);
	attrib_format(ctx, dsa_vao(ctx, vaobj), index, size, type, GL_FALSE, relativeoffset,
		      FMT_INT);
}

static void attrib_binding(struct drv_context *ctx, struct drv_vao *v, GLuint index,
			   GLuint binding)
{
	if (!v)
		return;
	if (index >= DRV_MAX_ATTRIBS || binding >= DRV_MAX_ATTRIBS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	v->attrib[index].binding = binding;
}

void drv_gl_VertexAttribBinding(GLuint index, GLuint bindingindex)
{
	DRV_CTX(ctx);
	attrib_binding(ctx, ctx->vao, index, bindingindex);
}

void drv_gl_VertexArrayAttribBinding(GLuint vaobj, GLuint index, GLuint bindingindex)
{
	DRV_CTX(ctx);
	attrib_binding(ctx, dsa_vao(ctx, vaobj), index, bindingindex);
}

static void vertex_buffer(struct drv_context *ctx, struct drv_vao *v, GLuint binding,
			  GLuint buffer, GLintptr offset, GLsizei stride)
{
	struct drv_buffer *b = NULL;

	if (!v)
		return;
	if (binding >= DRV_MAX_ATTRIBS || offset < 0 || stride < 0 || stride > 2048) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (buffer && !(b = drv_gl_buffer_lookup(ctx, buffer))) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	drv_gl_buffer_bind_slot(ctx, &v->binding[binding].buffer, b);
	v->binding[binding].client_ptr = NULL;
	v->binding[binding].offset = offset;
	v->binding[binding].stride = stride;
}

void drv_gl_BindVertexBuffer(GLuint bindingindex, GLuint buffer, GLintptr offset, GLsizei stride)
{
	DRV_CTX(ctx);
	if (ctx->core && ctx->vao == &ctx->default_vao) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	vertex_buffer(ctx, ctx->vao, bindingindex, buffer, offset, stride);
}

void drv_gl_VertexArrayVertexBuffer(GLuint vaobj, GLuint bindingindex, GLuint buffer,
				    GLintptr offset, GLsizei stride)
{
	DRV_CTX(ctx);
	vertex_buffer(ctx, dsa_vao(ctx, vaobj), bindingindex, buffer, offset, stride);
}

static void binding_divisor(struct drv_context *ctx, struct drv_vao *v, GLuint binding,
			    GLuint divisor)
{
	if (!v)
		return;
	if (binding >= DRV_MAX_ATTRIBS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	v->binding[binding].divisor = divisor;
}

void drv_gl_VertexBindingDivisor(GLuint bindingindex, GLuint divisor)
{
	DRV_CTX(ctx);
	binding_divisor(ctx, ctx->vao, bindingindex, divisor);
}

void drv_gl_VertexArrayBindingDivisor(GLuint vaobj, GLuint bindingindex, GLuint divisor)
{
	DRV_CTX(ctx);
	binding_divisor(ctx, dsa_vao(ctx, vaobj), bindingindex, divisor);
}

void drv_gl_VertexArrayElementBuffer(GLuint vaobj, GLuint buffer)
{
	DRV_CTX(ctx);
	struct drv_vao *v = dsa_vao(ctx, vaobj);
	struct drv_buffer *b = NULL;

	if (!v)
		return;
	if (buffer && !(b = drv_gl_buffer_lookup(ctx, buffer))) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	drv_gl_buffer_bind_slot(ctx, &v->element_buffer, b);
}

/* ---- current generic attribute values ----------------------------------------------- */

static void generic(GLuint index, GLenum kind, const void *v4)
{
	DRV_CTX(ctx);
	if (index >= DRV_MAX_ATTRIBS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	memcpy(ctx->generic[index].v, v4, 16);
	ctx->generic[index].kind = kind;
}

static void generic_f(GLuint index, float x, float y, float z, float w)
{
	float v[4] = { x, y, z, w };
	generic(index, GL_FLOAT, v);
}

void drv_gl_VertexAttrib1f(GLuint i, GLfloat x) { generic_f(i, x, 0, 0, 1); }
void drv_gl_VertexAttrib2f(GLuint i, GLfloat x, GLfloat y) { generic_f(i, x, y, 0, 1); }
void drv_gl_VertexAttrib3f(GLuint i, GLfloat x, GLfloat y, GLfloat z) { generic_f(i, x, y, z, 1); }
void drv_gl_VertexAttrib4f(GLuint i, GLfloat x, GLfloat y, GLfloat z, GLfloat w)
{
	generic_f(i, x, y, z, w);
}
void drv_gl_VertexAttrib1fv(GLuint i, const GLfloat *v) { generic_f(i, v[0], 0, 0, 1); }
void drv_gl_VertexAttrib2fv(GLuint i, const GLfloat *v) { generic_f(i, v[0], v[1], 0, 1); }
void drv_gl_VertexAttrib3fv(GLuint i, const GLfloat *v) { generic_f(i, v[0], v[1], v[2], 1); }
void drv_gl_VertexAttrib4fv(GLuint i, const GLfloat *v) { generic_f(i, v[0], v[1], v[2], v[3]); }

void drv_gl_VertexAttribI4i(GLuint i, GLint x, GLint y, GLint z, GLint w)
{
	GLint v[4] = { x, y, z, w };
	generic(i, GL_INT, v);
}
void drv_gl_VertexAttribI4ui(GLuint i, GLuint x, GLuint y, GLuint z, GLuint w)
{
	GLuint v[4] = { x, y, z, w };
	generic(i, GL_UNSIGNED_INT, v);
}
void drv_gl_VertexAttribI4iv(GLuint i, const GLint *v) { generic(i, GL_INT, v); }
void drv_gl_VertexAttribI4uiv(GLuint i, const GLuint *v) { generic(i, GL_UNSIGNED_INT, v); }
void drv_gl_VertexAttribI1i(GLuint i, GLint x) { drv_gl_VertexAttribI4i(i, x, 0, 0, 1); }
void drv_gl_VertexAttribI1ui(GLuint i, GLuint x) { drv_gl_VertexAttribI4ui(i, x, 0, 0, 1); }

/* ---- queries ---------------------------------------------------------------------- */

static bool attrib_param(struct drv_context *ctx, GLuint index, GLenum pname, GLint *out)
{
	const struct drv_vao *v = ctx->vao;
	const struct drv_vattrib *a;
	const struct drv_vbinding *b;

	if (index >= DRV_MAX_ATTRIBS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return false;
	}
	a = &v->attrib[index];
	b = &v->binding[a->binding];
	switch (pname) {
	case GL_VERTEX_ATTRIB_ARRAY_ENABLED: *out = a->enabled; return true;
	case GL_VERTEX_ATTRIB_ARRAY_SIZE: *out = a->size; return true;
	case GL_VERTEX_ATTRIB_ARRAY_STRIDE:
		*out = b->stride == elem_bytes(a->size, a->type) ? 0 : b->stride;
		return true;
	case GL_VERTEX_ATTRIB_ARRAY_TYPE: *out = (GLint)a->type; return true;
	case GL_VERTEX_ATTRIB_ARRAY_NORMALIZED: *out = a->normalized; return true;
	case GL_VERTEX_ATTRIB_ARRAY_INTEGER: *out = a->integer; return true;
	case GL_VERTEX_ATTRIB_ARRAY_LONG: *out = a->doubles; return true;
	case GL_VERTEX_ATTRIB_ARRAY_DIVISOR: *out = (GLint)b->divisor; return true;
	case GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING: *out = b->buffer ? (GLint)b->buffer->name : 0; return true;
	case GL_VERTEX_ATTRIB_BINDING: *out = (GLint)a->binding; return true;
	case GL_VERTEX_ATTRIB_RELATIVE_OFFSET: *out = (GLint)a->relative_offset; return true;
	default:
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return false;
	}
}

void drv_gl_GetVertexAttribiv(GLuint index, GLenum pname, GLint *params)
{
	DRV_CTX(ctx);
	if (pname == GL_CURRENT_VERTEX_ATTRIB) {
		float f[4];
		if (index >= DRV_MAX_ATTRIBS) {
			drv_gl_error(ctx, GL_INVALID_VALUE);
			return;
		}
		memcpy(f, ctx->generic[index].v, 16);
		for (int i = 0; i < 4; i++)
			params[i] = (GLint)f[i];
		return;
	}
	attrib_param(ctx, index, pname, params);
}

void drv_gl_GetVertexAttribfv(GLuint index, GLenum pname, GLfloat *params)
{
	DRV_CTX(ctx);
	GLint v;
	if (pname == GL_CURRENT_VERTEX_ATTRIB) {
		if (index >= DRV_MAX_ATTRIBS)
			drv_gl_error(ctx, GL_INVALID_VALUE);
		else
			memcpy(params, ctx->generic[index].v, 16);
		return;
	}
	if (attrib_param(ctx, index, pname, &v))
		*params = (GLfloat)v;
}

void drv_gl_GetVertexAttribIiv(GLuint index, GLenum pname, GLint *params)
{
	DRV_CTX(ctx);
	if (pname == GL_CURRENT_VERTEX_ATTRIB) {
		if (index >= DRV_MAX_ATTRIBS)
			drv_gl_error(ctx, GL_INVALID_VALUE);
		else
			memcpy(params, ctx->generic[index].v, 16);
		return;
	}
	attrib_param(ctx, index, pname, params);
}

void drv_gl_GetVertexAttribIuiv(GLuint index, GLenum pname, GLuint *params)
{
	drv_gl_GetVertexAttribIiv(index, pname, (GLint *)params);
}

void drv_gl_GetVertexAttribPointerv(GLuint index, GLenum pname, void **pointer)
{
	DRV_CTX(ctx);
	const struct drv_vbinding *b;
	if (index >= DRV_MAX_ATTRIBS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (pname != GL_VERTEX_ATTRIB_ARRAY_POINTER) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	b = &ctx->vao->binding[ctx->vao->attrib[index].binding];
	*pointer = b->buffer ? (void *)(uintptr_t)b->offset : (void *)b->client_ptr;
}

static enum drv_pipe_vertex_type vertex_type(GLenum type)
{
	switch (type) {
	case GL_BYTE: return DRV_VTYPE_BYTE;
	case GL_UNSIGNED_BYTE: return DRV_VTYPE_UBYTE;
	case GL_SHORT: return DRV_VTYPE_SHORT;
	case GL_UNSIGNED_SHORT: return DRV_VTYPE_USHORT;
	case GL_INT: return DRV_VTYPE_INT;
	case GL_UNSIGNED_INT: return DRV_VTYPE_UINT;
	case GL_HALF_FLOAT: return DRV_VTYPE_HALF_FLOAT;
	case GL_FLOAT: return DRV_VTYPE_FLOAT;
	case GL_FIXED: return DRV_VTYPE_FIXED;
	case GL_DOUBLE: return DRV_VTYPE_DOUBLE;
	case GL_INT_2_10_10_10_REV: return DRV_VTYPE_INT_2_10_10_10;
	case GL_UNSIGNED_INT_2_10_10_10_REV: return DRV_VTYPE_UINT_2_10_10_10;
	case GL_UNSIGNED_INT_10F_11F_11F_REV: return DRV_VTYPE_UFLOAT_10F_11F_11F;
	default: return DRV_VTYPE_UNKNOWN;
	}
}

void drv_gl_vertex_input(const struct drv_context *ctx, const struct drv_program *prog,
			 unsigned loc, struct drv_pipe_vertex_input *out)
{
	struct drv_vsource src;
	const struct drv_vattrib *a;
	const struct drv_vbinding *b;

	drv_gl_vertex_source(ctx, prog, loc, &src);
	a = src.a;
	b = src.b;
	*out = (struct drv_pipe_vertex_input){
		.enabled = a->enabled,
		.type = vertex_type(a->type),
		.components = a->size == GL_BGRA ? 4 : (unsigned)a->size,
		.bgra = a->size == GL_BGRA,
		.normalized = a->normalized,
		.integer = a->integer,
		.doubles = a->doubles,
		.relative_offset = a->relative_offset,
		.buffer = b->buffer ? &b->buffer->store : NULL,
		.buffer_size = b->buffer ? b->buffer->size : 0,
		.client_ptr = b->client_ptr,
		.offset = b->offset,
		.stride = (uint32_t)b->stride,
		.divisor = b->divisor,
		.current = src.current->v,
		.current_kind = src.current->kind == GL_FLOAT ? DRV_VALUE_FLOAT :
				src.current->kind == GL_INT ? DRV_VALUE_INT : DRV_VALUE_UINT,
	};
}
