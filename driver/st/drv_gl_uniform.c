/*
 * drv_gl_uniform.c - uniforms of the default block and uniform blocks
 * (GL 4.6 7.6, ES 3.2 7.6): locations, glUniform* / glUniformMatrix* and
 * their glProgramUniform* forms with the spec's type and count checks, glGetUniform*, active uniform and
 * block queries, block bindings.
 *
 * A program's default-block uniforms live in a CPU copy of its constant
 * buffer laid out by the compiler (offset, array / matrix strides of
 * struct drv_uniform); the hardware layer uploads it when it changed
 * (consts_version, drv_pipe.h) and points descriptor DRV_DESC_CONST at it.  Booleans
 * are stored as 0 / 1.
 */
#include <string.h>

#include "drv_gl_int.h"
#include "glapi_types.h"

enum base { B_FLOAT, B_INT, B_UINT, B_BOOL, B_DOUBLE, B_SAMPLER };

/* Base type, components per column and columns of a GL type, from the
 * type table (specs/glapi_types.h); a type it lacks is a sampler or image,
 * set as one int. */
static enum base type_info(GLenum t, unsigned *comps, unsigned *cols)
{
	const struct glapi_type *g = glapi_type_by_value(t);

	*comps = g ? g->rows : 1;
	*cols = g ? g->columns : 1;
	switch (g ? g->base : GLAPI_TYPE_BOOL) {
	case GLAPI_TYPE_FLOAT: return B_FLOAT;
	case GLAPI_TYPE_INT: return B_INT;
	case GLAPI_TYPE_UINT: return B_UINT;
	case GLAPI_TYPE_DOUBLE: return B_DOUBLE;
	case GLAPI_TYPE_BOOL: return g ? B_BOOL : B_SAMPLER;
	}
	return B_SAMPLER;
}

/* The uniform at `location` of the current program; NULL when the write
 * is to be ignored (-1) or failed (error set). */
static const struct drv_uniform *at(struct drv_context *ctx, struct drv_program_obj *p,
				    GLint location, unsigned *element)
{
	if (!p) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	if (location == -1)
		return NULL;
	if (!p->linked || !p->prog)
		goto bad;
	for (unsigned i = 0; i < p->prog->n_uniforms; i++) {
		const struct drv_uniform *u = &p->prog->uniforms[i];
		if (u->block < 0 && location >= u->location &&
		    location < u->location + (GLint)u->size) {
			*element = (unsigned)(location - u->location);
			return u;
		}
	}
bad:
	drv_gl_error(ctx, GL_INVALID_OPERATION);
	return NULL;
}

/*
 * glUniform{comps}{base}v / glUniformMatrix: `count` elements of
 * comps x cols values from `v` (floats, ints or uints of 4 bytes, or
 * doubles of 8, as `src`).
 */
static void write(struct drv_program_obj *p, GLint location, GLsizei count, enum base src,
		  unsigned comps, unsigned cols, bool transpose, const void *v)
{
	DRV_CTX(ctx);
	unsigned element, ucomps, ucols;
	const struct drv_uniform *u;
	enum base ub;

	if (count < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!(u = at(ctx, p, location, &element)))
		return;
	ub = type_info(u->type, &ucomps, &ucols);
	if (ucomps != comps || ucols != cols || (ub == B_DOUBLE) != (src == B_DOUBLE) ||
	    (ub == B_FLOAT && src != B_FLOAT) || (ub == B_INT && src != B_INT) ||
	    (ub == B_UINT && src != B_UINT) || (ub == B_SAMPLER && src != B_INT) ||
	    (count > 1 && u->size == 1)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (ub == B_SAMPLER)
		comps = 1;
	if ((unsigned)count > u->size - element)
		count = (GLsizei)(u->size - element);
	for (GLsizei e = 0; e < count; e++) {
		uint32_t base = u->offset + (element + (uint32_t)e) * u->array_stride;
		for (unsigned c = 0; c < cols; c++) {
			for (unsigned r = 0; r < comps; r++) {
				unsigned k = transpose ? r * cols + c : c * comps + r;
				const unsigned w = src == B_DOUBLE ? 8 : 4;
				uint32_t at_byte = base + c * (cols > 1 ? u->matrix_stride : 0) + w * r;
				uint32_t x;
				if (w == 8) {
					if (at_byte + 8 <= p->consts_size)
						memcpy(p->consts + at_byte, (const uint8_t *)v +
						       8 * ((size_t)e * comps * cols + k), 8);
					continue;
				}
				memcpy(&x, (const uint8_t *)v + 4 * ((size_t)e * comps * cols + k), 4);
				if (ub == B_BOOL) {
					float f;
					memcpy(&f, &x, 4);
					x = src == B_FLOAT ? f != 0.0f : x != 0;
				}
				if (at_byte + 4 <= p->consts_size)
					memcpy(p->consts + at_byte, &x, 4);
			}
		}
	}
	p->consts_version++;
}

#define UNIFORM_V(suffix, ctype, base, n)                                                   \
	void drv_gl_Uniform##n##suffix##v(GLint location, GLsizei count, const ctype *value)  \
	{                                                                                     \
		DRV_CTX(ctx);                                                                 \
		write(drv_gl_uniform_program(ctx), location, count, base, n, 1, false, value); \
	}
UNIFORM_V(f, GLfloat, B_FLOAT, 1)
UNIFORM_V(f, GLfloat, B_FLOAT, 2)
UNIFORM_V(f, GLfloat, B_FLOAT, 3)
UNIFORM_V(f, GLfloat, B_FLOAT, 4)
UNIFORM_V(i, GLint, B_INT, 1)
UNIFORM_V(i, GLint, B_INT, 2)
UNIFORM_V(i, GLint, B_INT, 3)
UNIFORM_V(i, GLint, B_INT, 4)
UNIFORM_V(ui, GLuint, B_UINT, 1)
UNIFORM_V(ui, GLuint, B_UINT, 2)
UNIFORM_V(ui, GLuint, B_UINT, 3)
UNIFORM_V(ui, GLuint, B_UINT, 4)

void drv_gl_Uniform1f(GLint l, GLfloat a) { drv_gl_Uniform1fv(l, 1, &a); }
void drv_gl_Uniform2f(GLint l, GLfloat a, GLfloat b) { GLfloat v[] = { a, b }; drv_gl_Uniform2fv(l, 1, v); }
void drv_gl_Uniform3f(GLint l, GLfloat a, GLfloat b, GLfloat c) { GLfloat v[] = { a, b, c }; drv_gl_Uniform3fv(l, 1, v); }
void drv_gl_Uniform4f(GLint l, GLfloat a, GLfloat b, GLfloat c, GLfloat d) { GLfloat v[] = { a, b, c, d }; drv_gl_Uniform4fv(l, 1, v); }
void drv_gl_Uniform1i(GLint l, GLint a) { drv_gl_Uniform1iv(l, 1, &a); }
void drv_gl_Uniform2i(GLint l, GLint a, GLint b) { GLint v[] = { a, b }; drv_gl_Uniform2iv(l, 1, v); }
void drv_gl_Uniform3i(GLint l, GLint a, GLint b, GLint c) { GLint v[] = { a, b, c }; drv_gl_Uniform3iv(l, 1, v); }
void drv_gl_Uniform4i(GLint l, GLint a, GLint b, GLint c, GLint d) { GLint v[] = { a, b, c, d }; drv_gl_Uniform4iv(l, 1, v); }
void drv_gl_Uniform1ui(GLint l, GLuint a) { drv_gl_Uniform1uiv(l, 1, &a); }
void drv_gl_Uniform2ui(GLint l, GLuint a, GLuint b) { GLuint v[] = { a, b }; drv_gl_Uniform2uiv(l, 1, v); }
void drv_gl_Uniform3ui(GLint l, GLuint a, GLuint b, GLuint c) { GLuint v[] = { a, b, c }; drv_gl_Uniform3uiv(l, 1, v); }
void drv_gl_Uniform4ui(GLint l, GLuint a, GLuint b, GLuint c, GLuint d) { GLuint v[] = { a, b, c, d }; drv_gl_Uniform4uiv(l, 1, v); }

UNIFORM_V(d, GLdouble, B_DOUBLE, 1)
UNIFORM_V(d, GLdouble, B_DOUBLE, 2)
UNIFORM_V(d, GLdouble, B_DOUBLE, 3)
UNIFORM_V(d, GLdouble, B_DOUBLE, 4)
void drv_gl_Uniform1d(GLint l, GLdouble a) { drv_gl_Uniform1dv(l, 1, &a); }
void drv_gl_Uniform2d(GLint l, GLdouble a, GLdouble b) { GLdouble v[] = { a, b }; drv_gl_Uniform2dv(l, 1, v); }
void drv_gl_Uniform3d(GLint l, GLdouble a, GLdouble b, GLdouble c) { GLdouble v[] = { a, b, c }; drv_gl_Uniform3dv(l, 1, v); }
void drv_gl_Uniform4d(GLint l, GLdouble a, GLdouble b, GLdouble c, GLdouble d) { GLdouble v[] = { a, b, c, d }; drv_gl_Uniform4dv(l, 1, v); }

#define UNIFORM_M(name, cols, rows)                                                          \
	void drv_gl_UniformMatrix##name##fv(GLint location, GLsizei count, GLboolean transpose, \
					    const GLfloat *value)                               \
	{                                                                                       \
		DRV_CTX(ctx);                                                                   \
		if (transpose && ctx->gles && ctx->major < 3) {                                 \
			drv_gl_error(ctx, GL_INVALID_VALUE);                                    \
			return;                                                                 \
		}                                                                               \
		write(drv_gl_uniform_program(ctx), location, count, B_FLOAT, rows, cols,        \
		      transpose, value);                                                        \
	}
UNIFORM_M(2, 2, 2)
UNIFORM_M(3, 3, 3)
UNIFORM_M(4, 4, 4)
UNIFORM_M(2x3, 2, 3)
UNIFORM_M(3x2, 3, 2)
UNIFORM_M(2x4, 2, 4)
UNIFORM_M(4x2, 4, 2)
UNIFORM_M(3x4, 3, 4)
UNIFORM_M(4x3, 4, 3)

#define UNIFORM_MD(name, cols, rows)                                                         \
	void drv_gl_UniformMatrix##name##dv(GLint location, GLsizei count, GLboolean transpose, \
					    const GLdouble *value)                              \
	{                                                                                       \
		DRV_CTX(ctx);                                                                   \
		write(drv_gl_uniform_program(ctx), location, count, B_DOUBLE, rows, cols,       \
		      transpose, value);                                                        \
	}
UNIFORM_MD(2, 2, 2)
UNIFORM_MD(3, 3, 3)
UNIFORM_MD(4, 4, 4)
UNIFORM_MD(2x3, 2, 3)
UNIFORM_MD(3x2, 3, 2)
UNIFORM_MD(2x4, 2, 4)
UNIFORM_MD(4x2, 4, 2)
UNIFORM_MD(3x4, 3, 4)
UNIFORM_MD(4x3, 4, 3)

/*
 * glProgramUniform* (GL 4.6 / ES 3.2 §7.6.1): the same writes into the
 * named program instead of the current one; a name that is no program
 * object fails as the spec says (INVALID_VALUE, or INVALID_OPERATION for
 * a shader), an unlinked program as glUniform* does (INVALID_OPERATION).
 */
static struct drv_program_obj *named(struct drv_context *ctx, GLuint program)
{
	return drv_gl_program_lookup(ctx, program, "glProgramUniform");
}

#define PROGRAM_UNIFORM_V(suffix, ctype, base, n)                                            \
	void drv_gl_ProgramUniform##n##suffix##v(GLuint program, GLint location, GLsizei count, \
						 const ctype *value)                             \
	{                                                                                     \
		DRV_CTX(ctx);                                                                 \
		struct drv_program_obj *p = named(ctx, program);                              \
		if (p)                                                                        \
			write(p, location, count, base, n, 1, false, value);                  \
	}
PROGRAM_UNIFORM_V(f, GLfloat, B_FLOAT, 1)
PROGRAM_UNIFORM_V(f, GLfloat, B_FLOAT, 2)
PROGRAM_UNIFORM_V(f, GLfloat, B_FLOAT, 3)
PROGRAM_UNIFORM_V(f, GLfloat, B_FLOAT, 4)
PROGRAM_UNIFORM_V(i, GLint, B_INT, 1)
PROGRAM_UNIFORM_V(i, GLint, B_INT, 2)
PROGRAM_UNIFORM_V(i, GLint, B_INT, 3)
PROGRAM_UNIFORM_V(i, GLint, B_INT, 4)
PROGRAM_UNIFORM_V(ui, GLuint, B_UINT, 1)
PROGRAM_UNIFORM_V(ui, GLuint, B_UINT, 2)
PROGRAM_UNIFORM_V(ui, GLuint, B_UINT, 3)
PROGRAM_UNIFORM_V(ui, GLuint, B_UINT, 4)
PROGRAM_UNIFORM_V(d, GLdouble, B_DOUBLE, 1)
PROGRAM_UNIFORM_V(d, GLdouble, B_DOUBLE, 2)
PROGRAM_UNIFORM_V(d, GLdouble, B_DOUBLE, 3)
PROGRAM_UNIFORM_V(d, GLdouble, B_DOUBLE, 4)

void drv_gl_ProgramUniform1f(GLuint p, GLint l, GLfloat a) { drv_gl_ProgramUniform1fv(p, l, 1, &a); }
void drv_gl_ProgramUniform2f(GLuint p, GLint l, GLfloat a, GLfloat b) { GLfloat v[] = { a, b }; drv_gl_ProgramUniform2fv(p, l, 1, v); }
void drv_gl_ProgramUniform3f(GLuint p, GLint l, GLfloat a, GLfloat b, GLfloat c) { GLfloat v[] = { a, b, c }; drv_gl_ProgramUniform3fv(p, l, 1, v); }
void drv_gl_ProgramUniform4f(GLuint p, GLint l, GLfloat a, GLfloat b, GLfloat c, GLfloat d) { GLfloat v[] = { a, b, c, d }; drv_gl_ProgramUniform4fv(p, l, 1, v); }
void drv_gl_ProgramUniform1i(GLuint p, GLint l, GLint a) { drv_gl_ProgramUniform1iv(p, l, 1, &a); }
void drv_gl_ProgramUniform2i(GLuint p, GLint l, GLint a, GLint b) { GLint v[] = { a, b }; drv_gl_ProgramUniform2iv(p, l, 1, v); }
void drv_gl_ProgramUniform3i(GLuint p, GLint l, GLint a, GLint b, GLint c) { GLint v[] = { a, b, c }; drv_gl_ProgramUniform3iv(p, l, 1, v); }
void drv_gl_ProgramUniform4i(GLuint p, GLint l, GLint a, GLint b, GLint c, GLint d) { GLint v[] = { a, b, c, d }; drv_gl_ProgramUniform4iv(p, l, 1, v); }
void drv_gl_ProgramUniform1ui(GLuint p, GLint l, GLuint a) { drv_gl_ProgramUniform1uiv(p, l, 1, &a); }
void drv_gl_ProgramUniform2ui(GLuint p, GLint l, GLuint a, GLuint b) { GLuint v[] = { a, b }; drv_gl_ProgramUniform2uiv(p, l, 1, v); }
void drv_gl_ProgramUniform3ui(GLuint p, GLint l, GLuint a, GLuint b, GLuint c) { GLuint v[] = { a, b, c }; drv_gl_ProgramUniform3uiv(p, l, 1, v); }
void drv_gl_ProgramUniform4ui(GLuint p, GLint l, GLuint a, GLuint b, GLuint c, GLuint d) { GLuint v[] = { a, b, c, d }; drv_gl_ProgramUniform4uiv(p, l, 1, v); }
void drv_gl_ProgramUniform1d(GLuint p, GLint l, GLdouble a) { drv_gl_ProgramUniform1dv(p, l, 1, &a); }
void drv_gl_ProgramUniform2d(GLuint p, GLint l, GLdouble a, GLdouble b) { GLdouble v[] = { a, b }; drv_gl_ProgramUniform2dv(p, l, 1, v); }
void drv_gl_ProgramUniform3d(GLuint p, GLint l, GLdouble a, GLdouble b, GLdouble c) { GLdouble v[] = { a, b, c }; drv_gl_ProgramUniform3dv(p, l, 1, v); }
void drv_gl_ProgramUniform4d(GLuint p, GLint l, GLdouble a, GLdouble b, GLdouble c, GLdouble d) { GLdouble v[] = { a, b, c, d }; drv_gl_ProgramUniform4dv(p, l, 1, v); }

#define PROGRAM_UNIFORM_M(name, cols, rows)                                                   \
	void drv_gl_ProgramUniformMatrix##name##fv(GLuint program, GLint location, GLsizei count, \
						   GLboolean transpose, const GLfloat *value)     \
	{                                                                                       \
		DRV_CTX(ctx);                                                                   \
		struct drv_program_obj *p = named(ctx, program);                                \
		if (p)                                                                          \
			write(p, location, count, B_FLOAT, rows, cols, transpose, value);       \
	}
PROGRAM_UNIFORM_M(2, 2, 2)
PROGRAM_UNIFORM_M(3, 3, 3)
PROGRAM_UNIFORM_M(4, 4, 4)
PROGRAM_UNIFORM_M(2x3, 2, 3)
PROGRAM_UNIFORM_M(3x2, 3, 2)
PROGRAM_UNIFORM_M(2x4, 2, 4)
PROGRAM_UNIFORM_M(4x2, 4, 2)
PROGRAM_UNIFORM_M(3x4, 3, 4)
PROGRAM_UNIFORM_M(4x3, 4, 3)

#define PROGRAM_UNIFORM_MD(name, cols, rows)                                                  \
	void drv_gl_ProgramUniformMatrix##name##dv(GLuint program, GLint location, GLsizei count, \
						   GLboolean transpose, const GLdouble *value)    \
	{                                                                                       \
		DRV_CTX(ctx);                                                                   \
		struct drv_program_obj *p = named(ctx, program);                                \
		if (p)                                                                          \
			write(p, location, count, B_DOUBLE, rows, cols, transpose, value);      \
	}
PROGRAM_UNIFORM_MD(2, 2, 2)
PROGRAM_UNIFORM_MD(3, 3, 3)
PROGRAM_UNIFORM_MD(4, 4, 4)
PROGRAM_UNIFORM_MD(2x3, 2, 3)
PROGRAM_UNIFORM_MD(3x2, 3, 2)
PROGRAM_UNIFORM_MD(2x4, 2, 4)
PROGRAM_UNIFORM_MD(4x2, 4, 2)
PROGRAM_UNIFORM_MD(3x4, 3, 4)
PROGRAM_UNIFORM_MD(4x3, 4, 3)

static void read(GLuint program, GLint location, void *out, enum base as)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetUniform");
	const struct drv_uniform *u;
	unsigned element, comps, cols;
	enum base ub;

	if (!p)
		return;
	if (!p->linked) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!(u = at(ctx, p, location, &element))) {
		if (location == -1)
			drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	ub = type_info(u->type, &comps, &cols);
	uint32_t base = u->offset + element * u->array_stride;
	for (unsigned c = 0; c < cols; c++) {
		for (unsigned r = 0; r < comps; r++) {
			uint32_t x = 0;
			uint32_t at_byte = base + c * (cols > 1 ? u->matrix_stride : 0) +
					   (ub == B_DOUBLE ? 8 : 4) * r;
			if (at_byte + 4 <= p->consts_size)
				memcpy(&x, p->consts + at_byte, 4);
			float f;
			memcpy(&f, &x, 4);
			int32_t i = (int32_t)x;
			void *dst = (uint8_t *)out + 4 * (c * comps + r);
			enum base vb = ub;
			if (ub == B_DOUBLE) {
				/* A double component is 8 bytes; it is returned
				 * converted, as a float uniform is. */
				double d = 0;
				if (at_byte + 8 <= p->consts_size)
					memcpy(&d, p->consts + at_byte, 8);
				f = (float)d;
				vb = B_FLOAT;
			}
			if (as == B_FLOAT) {
				float o = vb == B_FLOAT ? f : vb == B_UINT || vb == B_BOOL ? (float)x : (float)i;
				memcpy(dst, &o, 4);
			} else {
				int32_t o = vb == B_FLOAT ? (int32_t)f : i;
				memcpy(dst, &o, 4);
			}
		}
	}
}

void drv_gl_GetUniformfv(GLuint program, GLint location, GLfloat *params)
{
	read(program, location, params, B_FLOAT);
}

void drv_gl_GetUniformiv(GLuint program, GLint location, GLint *params)
{
	read(program, location, params, B_INT);
}

void drv_gl_GetUniformuiv(GLuint program, GLint location, GLuint *params)
{
	read(program, location, params, B_UINT);
}

/* ---- names and blocks --------------------------------------------------------- */

GLint drv_gl_GetUniformLocation(GLuint program, const GLchar *name)
{
	DRV_CTX_RET(ctx, -1);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetUniformLocation");

	if (!p)
		return -1;
	if (!p->linked) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return -1;
	}
	return drv_program_uniform_location(p->prog, name, NULL, NULL);
}

void drv_gl_GetActiveUniform(GLuint program, GLuint index, GLsizei bufSize, GLsizei *length,
			     GLint *size, GLenum *type, GLchar *name)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetActiveUniform");
	const struct drv_uniform *u;
	size_t n;

	if (!p)
		return;
	if (!p->linked || index >= p->prog->n_uniforms || bufSize < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	u = &p->prog->uniforms[index];
	n = strlen(u->name);
	if (bufSize > 0 && name) {
		if (n > (size_t)bufSize - 1)
			n = (size_t)bufSize - 1;
		memcpy(name, u->name, n);
		name[n] = 0;
	} else {
		n = 0;
	}
	if (length)
		*length = (GLsizei)n;
	if (size)
		*size = (GLint)u->size;
	if (type)
		*type = u->type;
}

void drv_gl_GetActiveUniformName(GLuint program, GLuint uniformIndex, GLsizei bufSize, GLsizei *length,
				 GLchar *uniformName)
{
	drv_gl_GetActiveUniform(program, uniformIndex, bufSize, length, NULL, NULL, uniformName);
}

/* The index of the active uniform `name` (GL 4.6 §7.3.1.1: an array's
 * name, with or without "[0]"), or GL_INVALID_INDEX. */
static GLuint uniform_index(const struct drv_program *prog, const char *name)
{
	size_t n = strlen(name);

	for (unsigned i = 0; i < prog->n_uniforms; i++) {
		const char *u = prog->uniforms[i].name;
		size_t un = strlen(u);
		if (!strcmp(u, name) || (un == n + 3 && !strncmp(u, name, n) && !strcmp(u + n, "[0]")))
			return i;
	}
	return GL_INVALID_INDEX;
}

void drv_gl_GetUniformIndices(GLuint program, GLsizei uniformCount, const GLchar *const *uniformNames,
			      GLuint *uniformIndices)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetUniformIndices");

	if (!p)
		return;
	if (uniformCount < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < uniformCount; i++)
		uniformIndices[i] = p->linked && uniformNames[i] ? uniform_index(p->prog, uniformNames[i])
								 : GL_INVALID_INDEX;
}

/* GL 4.6 §7.3.1.1, table 7.6: a property of one active uniform; -1 for
 * the block properties of a default-block uniform. */
static bool uniform_property(const struct drv_uniform *u, GLenum pname, GLint *out)
{
	bool in_block = u->block >= 0;

	switch (pname) {
	case GL_UNIFORM_TYPE: *out = (GLint)u->type; return true;
	case GL_UNIFORM_SIZE: *out = (GLint)u->size; return true;
	case GL_UNIFORM_NAME_LENGTH: *out = (GLint)strlen(u->name) + 1; return true;
	case GL_UNIFORM_BLOCK_INDEX: *out = u->block; return true;
	case GL_UNIFORM_OFFSET: *out = in_block ? (GLint)u->offset : -1; return true;
	case GL_UNIFORM_ARRAY_STRIDE: *out = in_block ? (GLint)u->array_stride : -1; return true;
	case GL_UNIFORM_MATRIX_STRIDE: *out = in_block ? (GLint)u->matrix_stride : -1; return true;
	case GL_UNIFORM_IS_ROW_MAJOR: *out = in_block && u->row_major; return true;
	case GL_UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX: *out = -1; return true;
	default: return false;
	}
}

void drv_gl_GetActiveUniformsiv(GLuint program, GLsizei uniformCount, const GLuint *uniformIndices, GLenum pname,
				GLint *params)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetActiveUniformsiv");
	GLint v;

	if (!p)
		return;
	if (uniformCount < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < uniformCount; i++)
		if (!p->linked || uniformIndices[i] >= p->prog->n_uniforms) {
			drv_gl_error(ctx, GL_INVALID_VALUE);
			return;
		}
	if (uniformCount > 0 && !uniform_property(&p->prog->uniforms[uniformIndices[0]], pname, &v)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	for (GLsizei i = 0; i < uniformCount; i++)
		uniform_property(&p->prog->uniforms[uniformIndices[i]], pname, &params[i]);
}

GLuint drv_gl_GetUniformBlockIndex(GLuint program, const GLchar *name)
{
	DRV_CTX_RET(ctx, GL_INVALID_INDEX);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetUniformBlockIndex");

	if (!p)
		return GL_INVALID_INDEX;
	if (!p->linked) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return GL_INVALID_INDEX;
	}
	return drv_program_ubo_index(p->prog, name);
}

void drv_gl_UniformBlockBinding(GLuint program, GLuint index, GLuint binding)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glUniformBlockBinding");

	if (!p)
		return;
	if (!p->linked || index >= p->prog->n_ubos || binding >= DRV_MAX_UBO_BINDINGS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (index < DRV_MAX_UBOS)
		p->ubo_binding[index] = binding;
}

void drv_gl_GetActiveUniformBlockiv(GLuint program, GLuint index, GLenum pname, GLint *params)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetActiveUniformBlockiv");
	const struct drv_ubo *b;
	GLint n = 0;

	if (!p)
		return;
	if (!p->linked || index >= p->prog->n_ubos) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	b = &p->prog->ubos[index];
	switch (pname) {
	case GL_UNIFORM_BLOCK_BINDING: *params = (GLint)p->ubo_binding[index]; return;
	case GL_UNIFORM_BLOCK_DATA_SIZE: *params = (GLint)b->size_bytes; return;
	case GL_UNIFORM_BLOCK_NAME_LENGTH: *params = (GLint)strlen(b->name) + 1; return;
	case GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS:
	case GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES:
		for (unsigned i = 0; i < p->prog->n_uniforms; i++) {
			if (p->prog->uniforms[i].block != (int32_t)index)
				continue;
			if (pname == GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES)
				params[n] = (GLint)i;
			n++;
		}
		if (pname == GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS)
			*params = n;
		return;
	case GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER:
		*params = !!(b->stages & (1u << DRV_STAGE_VERTEX));
		return;
	case GL_UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER:
		*params = !!(b->stages & (1u << DRV_STAGE_GEOMETRY));
		return;
	case GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER:
		*params = !!(b->stages & (1u << DRV_STAGE_FRAGMENT));
		return;
	default:
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
}
