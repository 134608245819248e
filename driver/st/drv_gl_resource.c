/*
 * drv_gl_resource.c - what a linked program reports about itself, from
 * its tables (struct drv_program): glGetProgramiv and the info log,
 * glGetActiveAttrib, glGetTransformFeedbackVarying, and the program
 * interface queries (GL 4.6 7.3.1 "Program Interfaces",
 * ARB_program_interface_query): glGetProgramInterfaceiv,
 * glGetProgramResourceIndex / Name / iv / Location.
 *
 * Interfaces answered: GL_TRANSFORM_FEEDBACK_VARYING (the program's TF
 * varying list, gl_SkipComponentsN / gl_NextBuffer included as GL does),
 * GL_TRANSFORM_FEEDBACK_BUFFER (one resource per binding point that
 * captures a varying, in binding order, with its stride: this is where a
 * layout(xfb_stride) / xfb_offset layout is read back), GL_PROGRAM_INPUT
 * (the active vertex attributes), GL_UNIFORM (default-block uniforms) and
 * GL_UNIFORM_BLOCK.  The others (program outputs, storage blocks, atomic
 * counters, subroutines) are not in the compiler's tables: a query on them
 * is reported as not modelled rather than answered with an empty list.
 *
 * Errors follow 7.3.1.1: a property an interface does not have is
 * GL_INVALID_OPERATION, an unknown one GL_INVALID_ENUM, an index past the
 * active resources GL_INVALID_VALUE.
 */
#include <stdio.h>
#include <string.h>

#include "drv_gl_int.h"

/* What one resource answers (the union of the properties of Table 7.2 the
 * sim's interfaces have; -1 where the spec says so). */
struct res {
	const char *name;            /* NULL: the interface has no names */
	GLenum type;
	GLint array_size, offset, block_index, array_stride, matrix_stride, location;
	GLint buffer_binding, data_size, stride, xfb_buffer_index;
	uint32_t referenced;         /* 1 << drv_stage */
	/* TF buffers and uniform blocks: active variables */
	const struct drv_program *prog;
	GLenum iface;
	unsigned index;
};

enum iface_kind { IF_UNKNOWN, IF_UNMODELLED, IF_MODELLED };

static enum iface_kind iface_kind(GLenum iface)
{
	switch (iface) {
	case GL_TRANSFORM_FEEDBACK_VARYING: case GL_TRANSFORM_FEEDBACK_BUFFER:
	case GL_PROGRAM_INPUT: case GL_UNIFORM: case GL_UNIFORM_BLOCK:
		return IF_MODELLED;
	case GL_PROGRAM_OUTPUT: case GL_BUFFER_VARIABLE: case GL_SHADER_STORAGE_BLOCK:
	case GL_ATOMIC_COUNTER_BUFFER:
	case GL_VERTEX_SUBROUTINE: case GL_TESS_CONTROL_SUBROUTINE:
	case GL_TESS_EVALUATION_SUBROUTINE: case GL_GEOMETRY_SUBROUTINE:
	case GL_FRAGMENT_SUBROUTINE: case GL_COMPUTE_SUBROUTINE:
	case GL_VERTEX_SUBROUTINE_UNIFORM: case GL_TESS_CONTROL_SUBROUTINE_UNIFORM:
	case GL_TESS_EVALUATION_SUBROUTINE_UNIFORM: case GL_GEOMETRY_SUBROUTINE_UNIFORM:
	case GL_FRAGMENT_SUBROUTINE_UNIFORM: case GL_COMPUTE_SUBROUTINE_UNIFORM:
		return IF_UNMODELLED;
	default:
		return IF_UNKNOWN;
	}
}

/* Whether binding point b of the TF layout is a resource: a varying or a
 * gl_SkipComponentsN goes there (gl_NextBuffer alone does not make one;
 * Mesa's rule, which its stride queries show). */
static bool tf_buffer_active(const struct drv_tf_layout *l, unsigned b)
{
	for (unsigned i = 0; i < l->n_varyings; i++)
		if (l->varyings[i].buffer == b && (l->varyings[i].type != DRV_GL_NONE || l->varyings[i].size))
			return true;
	return false;
}

/* The binding point of TF buffer resource `index`, or -1. */
static int tf_buffer_binding(const struct drv_tf_layout *l, unsigned index)
{
	for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++)
		if (tf_buffer_active(l, b) && index-- == 0)
			return (int)b;
	return -1;
}

static unsigned tf_buffer_count(const struct drv_tf_layout *l)
{
	unsigned n = 0;
	for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++)
		n += tf_buffer_active(l, b);
	return n;
}

static unsigned resource_count(const struct drv_program *prog, GLenum iface)
{
	switch (iface) {
	case GL_TRANSFORM_FEEDBACK_VARYING: return prog->tf.n_varyings;
	case GL_TRANSFORM_FEEDBACK_BUFFER: return tf_buffer_count(&prog->tf);
	case GL_PROGRAM_INPUT: return prog->n_attribs;
	case GL_UNIFORM: return prog->n_uniforms;
	case GL_UNIFORM_BLOCK: return prog->n_ubos;
	}
	return 0;
}

/* Fills r for resource `index` (< resource_count). */
static void resource_get(const struct drv_program *prog, GLenum iface, unsigned index, struct res *r)
{
	memset(r, 0, sizeof *r);
	r->prog = prog;
	r->iface = iface;
	r->index = index;
	r->block_index = r->array_stride = r->matrix_stride = r->location = -1;
	r->offset = -1;
	switch (iface) {
	case GL_TRANSFORM_FEEDBACK_VARYING: {
		const struct drv_tf_varying *v = &prog->tf.varyings[index];
		r->name = v->name;
		r->type = v->type;
		r->array_size = (GLint)v->size;
		r->offset = (GLint)v->offset;
		r->xfb_buffer_index = -1;
		for (unsigned k = 0; k < tf_buffer_count(&prog->tf); k++)
			if (tf_buffer_binding(&prog->tf, k) == (int)v->buffer)
				r->xfb_buffer_index = (GLint)k;
		break;
	}
	case GL_TRANSFORM_FEEDBACK_BUFFER: {
		int b = tf_buffer_binding(&prog->tf, index);
		r->buffer_binding = b;
		r->stride = b >= 0 ? (GLint)prog->tf.stride_bytes[b] : 0;
		break;
	}
	case GL_PROGRAM_INPUT: {
		const struct drv_attrib *a = &prog->attribs[index];
		r->name = a->name;
		r->type = a->type;
		r->array_size = (GLint)a->size;
		r->location = (GLint)a->location;
		r->referenced = 1u << DRV_STAGE_VERTEX;
		break;
	}
	case GL_UNIFORM: {
		const struct drv_uniform *u = &prog->uniforms[index];
		r->name = u->name;
		r->type = u->type;
		r->array_size = (GLint)u->size;
		r->block_index = u->block;
		if (u->block >= 0) {
			r->offset = (GLint)u->offset;
			r->array_stride = (GLint)u->array_stride;
			r->matrix_stride = (GLint)u->matrix_stride;
			r->referenced = prog->ubos[u->block].stages;
		} else {
			r->location = u->location;
			/* Assumption: a default-block uniform counts as
			 * referenced by every stage the program has. */
			r->referenced = (1u << DRV_STAGE_VERTEX) | (1u << DRV_STAGE_FRAGMENT) |
					(prog->has_gs ? 1u << DRV_STAGE_GEOMETRY : 0);
		}
		break;
	}
	case GL_UNIFORM_BLOCK: {
		const struct drv_ubo *u = &prog->ubos[index];
		r->name = u->name;
		r->buffer_binding = (GLint)u->binding;
		r->data_size = (GLint)u->size_bytes;
		r->referenced = u->stages;
		break;
	}
	}
}

/* The active variables of a TF buffer or uniform block resource: writes
 * at most max indices to out (may be NULL), returns how many there are. */
static unsigned active_variables(const struct res *r, GLint *out, unsigned max)
{
	const struct drv_program *prog = r->prog;
	unsigned n = 0;

	if (r->iface == GL_TRANSFORM_FEEDBACK_BUFFER) {
		for (unsigned i = 0; i < prog->tf.n_varyings; i++) {
			const struct drv_tf_varying *v = &prog->tf.varyings[i];
			if ((GLint)v->buffer != r->buffer_binding || v->type == DRV_GL_NONE)
				continue;
			if (out && n < max)
				out[n] = (GLint)i;
			n++;
		}
	} else if (r->iface == GL_UNIFORM_BLOCK) {
		for (unsigned i = 0; i < prog->n_uniforms; i++) {
			if (prog->uniforms[i].block != (int32_t)r->index)
				continue;
			if (out && n < max)
				out[n] = (GLint)i;
			n++;
		}
	}
	return n;
}

/* Whether interface `iface` has property `prop` (Table 7.2); *known is
 * false for a value that is no property at all. */
static bool has_prop(GLenum iface, GLenum prop, bool *known)
{
	const bool tf_v = iface == GL_TRANSFORM_FEEDBACK_VARYING, tf_b = iface == GL_TRANSFORM_FEEDBACK_BUFFER;
	const bool in = iface == GL_PROGRAM_INPUT, uni = iface == GL_UNIFORM, blk = iface == GL_UNIFORM_BLOCK;

	*known = true;
	switch (prop) {
	case GL_NAME_LENGTH: return !tf_b;
	case GL_TYPE: case GL_ARRAY_SIZE: return tf_v || in || uni;
	case GL_OFFSET: return tf_v || uni;
	case GL_BLOCK_INDEX: case GL_ARRAY_STRIDE: case GL_MATRIX_STRIDE: case GL_IS_ROW_MAJOR:
	case GL_ATOMIC_COUNTER_BUFFER_INDEX:
		return uni;
	case GL_BUFFER_BINDING: case GL_NUM_ACTIVE_VARIABLES: case GL_ACTIVE_VARIABLES:
		return tf_b || blk;
	case GL_BUFFER_DATA_SIZE: return blk;
	case GL_REFERENCED_BY_VERTEX_SHADER: case GL_REFERENCED_BY_TESS_CONTROL_SHADER:
	case GL_REFERENCED_BY_TESS_EVALUATION_SHADER: case GL_REFERENCED_BY_GEOMETRY_SHADER:
	case GL_REFERENCED_BY_FRAGMENT_SHADER: case GL_REFERENCED_BY_COMPUTE_SHADER:
		return in || uni || blk;
	case GL_LOCATION: return in || uni;
	case GL_LOCATION_COMPONENT: case GL_IS_PER_PATCH: return in;
	case GL_TRANSFORM_FEEDBACK_BUFFER_INDEX: return tf_v;
	case GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE: return tf_b;
	case GL_LOCATION_INDEX: case GL_TOP_LEVEL_ARRAY_SIZE: case GL_TOP_LEVEL_ARRAY_STRIDE:
	case GL_NUM_COMPATIBLE_SUBROUTINES: case GL_COMPATIBLE_SUBROUTINES:
		return false;
	}
	*known = false;
	return false;
}

static GLint referenced(const struct res *r, enum drv_stage s)
{
	return s < DRV_STAGE_COUNT && (r->referenced >> s & 1u);
}

/* The values of property prop (after has_prop): writes at most max
 * values, returns how many the property has. */
static unsigned prop_values(const struct res *r, GLenum prop, GLint *out, unsigned max)
{
	GLint v;

	switch (prop) {
	case GL_ACTIVE_VARIABLES: return active_variables(r, out, max);
	case GL_NAME_LENGTH: v = r->name ? (GLint)strlen(r->name) + 1 : 0; break;
	case GL_TYPE: v = (GLint)r->type; break;
	case GL_ARRAY_SIZE: v = r->array_size; break;
	case GL_OFFSET: v = r->offset; break;
	case GL_BLOCK_INDEX: v = r->block_index; break;
	case GL_ARRAY_STRIDE: v = r->array_stride; break;
	case GL_MATRIX_STRIDE: v = r->matrix_stride; break;
	case GL_IS_ROW_MAJOR: v = 0; break;
	case GL_ATOMIC_COUNTER_BUFFER_INDEX: v = -1; break;
	case GL_BUFFER_BINDING: v = r->buffer_binding; break;
	case GL_BUFFER_DATA_SIZE: v = r->data_size; break;
	case GL_NUM_ACTIVE_VARIABLES: v = (GLint)active_variables(r, NULL, 0); break;
	case GL_REFERENCED_BY_VERTEX_SHADER: v = referenced(r, DRV_STAGE_VERTEX); break;
	case GL_REFERENCED_BY_GEOMETRY_SHADER: v = referenced(r, DRV_STAGE_GEOMETRY); break;
	case GL_REFERENCED_BY_FRAGMENT_SHADER: v = referenced(r, DRV_STAGE_FRAGMENT); break;
	case GL_LOCATION: v = r->location; break;
	case GL_TRANSFORM_FEEDBACK_BUFFER_INDEX: v = r->xfb_buffer_index; break;
	case GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE: v = r->stride; break;
	default: v = 0; break;   /* tess / compute references, component, per-patch */
	}
	if (max)
		out[0] = v;
	return 1;
}

/* The linked program's tables for a query on `iface`: NULL after the
 * error (bad name, unknown interface) or the unsupported report.
 * *empty is set when the program has no resources (not linked). */
static const struct drv_program *query_program(struct drv_context *ctx, GLuint program, GLenum iface,
					       const char *func, bool *empty)
{
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, func);
	enum iface_kind k = iface_kind(iface);

	*empty = false;
	if (!p)
		return NULL;
	if (k == IF_UNKNOWN) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	if (k == IF_UNMODELLED) {
		drv_gl_unsupported(ctx, "program interface queries of outputs, storage blocks, atomic "
					"counters and subroutines are not modelled");
		return NULL;
	}
	if (!p->linked || !p->prog)
		*empty = true;
	return p->prog;
}

void drv_gl_GetProgramInterfaceiv(GLuint program, GLenum programInterface, GLenum pname,
				  GLint *params)
{
	DRV_CTX(ctx);
	bool empty;
	const struct drv_program *prog = query_program(ctx, program, programInterface,
						       "glGetProgramInterfaceiv", &empty);
	unsigned n, m = 0;
	struct res r;

	if (!prog && !empty)
		return;
	n = empty ? 0 : resource_count(prog, programInterface);
	switch (pname) {
	case GL_ACTIVE_RESOURCES:
		*params = (GLint)n;
		return;
	case GL_MAX_NAME_LENGTH:
		if (programInterface == GL_TRANSFORM_FEEDBACK_BUFFER) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		for (unsigned i = 0; i < n; i++) {
			resource_get(prog, programInterface, i, &r);
			if (strlen(r.name) + 1 > m)
				m = (unsigned)strlen(r.name) + 1;
		}
		*params = (GLint)m;
		return;
	case GL_MAX_NUM_ACTIVE_VARIABLES:
		if (programInterface != GL_TRANSFORM_FEEDBACK_BUFFER &&
		    programInterface != GL_UNIFORM_BLOCK) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		for (unsigned i = 0; i < n; i++) {
			resource_get(prog, programInterface, i, &r);
			if (active_variables(&r, NULL, 0) > m)
				m = active_variables(&r, NULL, 0);
		}
		*params = (GLint)m;
		return;
	case GL_MAX_NUM_COMPATIBLE_SUBROUTINES:
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	default:
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
}

/* Whether `query` names resource `name`: exactly, or for an array entry
 * "a[0]" also "a" (7.3.1.1). */
static bool name_matches(const char *name, const char *query)
{
	size_t n = strlen(name);

	if (!strcmp(name, query))
		return true;
	return n > 3 && !strcmp(name + n - 3, "[0]") && strlen(query) == n - 3 &&
	       !strncmp(name, query, n - 3);
}

GLuint drv_gl_GetProgramResourceIndex(GLuint program, GLenum programInterface, const GLchar *name)
{
	DRV_CTX_RET(ctx, GL_INVALID_INDEX);
	bool empty;
	const struct drv_program *prog = query_program(ctx, program, programInterface,
						       "glGetProgramResourceIndex", &empty);
	struct res r;

	if (!prog || empty || !name)
		return GL_INVALID_INDEX;
	if (programInterface == GL_TRANSFORM_FEEDBACK_BUFFER) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return GL_INVALID_INDEX;
	}
	for (unsigned i = 0; i < resource_count(prog, programInterface); i++) {
		resource_get(prog, programInterface, i, &r);
		if (name_matches(r.name, name))
			return i;
	}
	return GL_INVALID_INDEX;
}

void drv_gl_GetProgramResourceName(GLuint program, GLenum programInterface, GLuint index,
				   GLsizei bufSize, GLsizei *length, GLchar *name)
{
	DRV_CTX(ctx);
	bool empty;
	const struct drv_program *prog = query_program(ctx, program, programInterface,
						       "glGetProgramResourceName", &empty);
	struct res r;

	if (!prog && !empty)
		return;
	if (programInterface == GL_TRANSFORM_FEEDBACK_BUFFER) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (empty || index >= resource_count(prog, programInterface) || bufSize < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	resource_get(prog, programInterface, index, &r);
	drv_gl_copy_string(r.name, bufSize, length, name);
}

void drv_gl_GetProgramResourceiv(GLuint program, GLenum programInterface, GLuint index,
				 GLsizei propCount, const GLenum *props, GLsizei count,
				 GLsizei *length, GLint *params)
{
	DRV_CTX(ctx);
	bool empty, known;
	const struct drv_program *prog = query_program(ctx, program, programInterface,
						       "glGetProgramResourceiv", &empty);
	unsigned written = 0;
	struct res r;

	if (!prog && !empty)
		return;
	if (propCount <= 0 || count < 0 || empty ||
	    index >= resource_count(prog, programInterface)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < propCount; i++) {
		if (!has_prop(programInterface, props[i], &known)) {
			drv_gl_error(ctx, known ? GL_INVALID_OPERATION : GL_INVALID_ENUM);
			return;
		}
	}
	resource_get(prog, programInterface, index, &r);
	for (GLsizei i = 0; i < propCount && written < (unsigned)count; i++) {
		unsigned room = (unsigned)count - written;
		unsigned n = prop_values(&r, props[i], params + written, room);
		written += n < room ? n : room;
	}
	if (length)
		*length = (GLsizei)written;
}

GLint drv_gl_GetProgramResourceLocation(GLuint program, GLenum programInterface, const GLchar *name)
{
	DRV_CTX_RET(ctx, -1);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetProgramResourceLocation");

	if (!p)
		return -1;
	if (programInterface != GL_UNIFORM && programInterface != GL_PROGRAM_INPUT) {
		if (programInterface == GL_PROGRAM_OUTPUT)
			drv_gl_unsupported(ctx, "program output locations are not modelled");
		else
			drv_gl_error(ctx, GL_INVALID_ENUM);
		return -1;
	}
	if (!p->linked || !p->prog) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return -1;
	}
	if (!name)
		return -1;
	if (programInterface == GL_PROGRAM_INPUT)
		return drv_program_attrib_location(p->prog, name);
	return drv_program_uniform_location(p->prog, name, NULL, NULL);
}

/* ---- the classic program queries ----------------------------------------------- */

static GLint max_name_length(const struct drv_program *prog, GLenum what)
{
	size_t m = 0;

	if (!prog)
		return 0;
	if (what == GL_ACTIVE_ATTRIBUTE_MAX_LENGTH)
		for (unsigned i = 0; i < prog->n_attribs; i++)
			m = strlen(prog->attribs[i].name) > m ? strlen(prog->attribs[i].name) : m;
	else if (what == GL_ACTIVE_UNIFORM_MAX_LENGTH)
		for (unsigned i = 0; i < prog->n_uniforms; i++)
			m = strlen(prog->uniforms[i].name) > m ? strlen(prog->uniforms[i].name) : m;
	else
		for (unsigned i = 0; i < prog->n_ubos; i++)
			m = strlen(prog->ubos[i].name) > m ? strlen(prog->ubos[i].name) : m;
	return m ? (GLint)m + 1 : 0;
}

void drv_gl_GetProgramiv(GLuint program, GLenum pname, GLint *params)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetProgramiv");
	const struct drv_program *prog;

	if (!p)
		return;
	prog = p->prog;
	switch (pname) {
	case GL_DELETE_STATUS: *params = p->delete_pending; return;
	case GL_LINK_STATUS: *params = p->linked; return;
	case GL_VALIDATE_STATUS: *params = p->validated; return;
	case GL_INFO_LOG_LENGTH: *params = drv_gl_log_length(p->log); return;
	case GL_ATTACHED_SHADERS: *params = (GLint)p->n_attached; return;
	case GL_ACTIVE_ATTRIBUTES: *params = prog && p->linked ? (GLint)prog->n_attribs : 0; return;
	case GL_ACTIVE_UNIFORMS: *params = prog && p->linked ? (GLint)prog->n_uniforms : 0; return;
	case GL_ACTIVE_UNIFORM_BLOCKS: *params = prog && p->linked ? (GLint)prog->n_ubos : 0; return;
	case GL_ACTIVE_ATTRIBUTE_MAX_LENGTH:
	case GL_ACTIVE_UNIFORM_MAX_LENGTH:
	case GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH:
		*params = p->linked ? max_name_length(prog, pname) : 0;
		return;
	case GL_TRANSFORM_FEEDBACK_BUFFER_MODE:
		*params = prog && p->linked ? (GLint)(prog->tf.mode ? prog->tf.mode : p->tf_mode)
					    : (GLint)p->tf_mode;
		return;
	case GL_TRANSFORM_FEEDBACK_VARYINGS:
		*params = prog && p->linked ? (GLint)prog->tf.n_varyings : 0;
		return;
	case GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH:
		*params = prog && p->linked ? (GLint)drv_program_tf_varying_max_length(prog) : 0;
		return;
	case GL_PROGRAM_BINARY_LENGTH: *params = p->linked ? (GLint)p->binary_bytes : 0; return;
	case GL_GEOMETRY_VERTICES_OUT:
	case GL_GEOMETRY_INPUT_TYPE:
	case GL_GEOMETRY_OUTPUT_TYPE:
	case GL_GEOMETRY_SHADER_INVOCATIONS:
		if (!prog || !p->linked || !prog->has_gs) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		*params = (GLint)(pname == GL_GEOMETRY_VERTICES_OUT ? prog->gs.max_vertices :
				  pname == GL_GEOMETRY_INPUT_TYPE ? prog->gs.input_prim :
				  pname == GL_GEOMETRY_OUTPUT_TYPE ? prog->gs.output_prim :
				  prog->gs.invocations);
		return;
	default:
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
}

void drv_gl_GetProgramInfoLog(GLuint program, GLsizei bufSize, GLsizei *length, GLchar *infoLog)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetProgramInfoLog");
	if (bufSize < 0)
		drv_gl_error(ctx, GL_INVALID_VALUE);
	else if (p)
		drv_gl_copy_string(p->log, bufSize, length, infoLog);
}

GLint drv_gl_GetAttribLocation(GLuint program, const GLchar *name)
{
	DRV_CTX_RET(ctx, -1);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetAttribLocation");

	if (!p)
		return -1;
	if (!p->linked) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return -1;
	}
	return drv_program_attrib_location(p->prog, name);
}

void drv_gl_GetActiveAttrib(GLuint program, GLuint index, GLsizei bufSize, GLsizei *length,
			    GLint *size, GLenum *type, GLchar *name)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetActiveAttrib");

	if (!p)
		return;
	if (!p->linked || index >= p->prog->n_attribs || bufSize < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	drv_gl_copy_string(p->prog->attribs[index].name, bufSize, length, name);
	*size = (GLint)p->prog->attribs[index].size;
	*type = p->prog->attribs[index].type;
}

void drv_gl_GetTransformFeedbackVarying(GLuint program, GLuint index, GLsizei bufSize,
					GLsizei *length, GLsizei *size, GLenum *type, GLchar *name)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program,
							  "glGetTransformFeedbackVarying");
	const struct drv_tf_varying *v;

	if (!p)
		return;
	if (!p->linked) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (index >= p->prog->tf.n_varyings || bufSize < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	v = &p->prog->tf.varyings[index];
	drv_gl_copy_string(v->name, bufSize, length, name);
	if (size)
		*size = (GLsizei)v->size;
	if (type)
		*type = v->type;
}
