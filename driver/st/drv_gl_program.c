/*
 * drv_gl_program.c - shader and program objects (GL 4.6 chapter 7, ES 3.2
 * chapter 7): sources, compile, attach, link through the driver's shader
 * compiler (drv_shader.h), use, and the shader queries.  What a linked
 * program reports about itself (glGetProgramiv, the TF varying queries,
 * the program interface) is in drv_gl_resource.c.
 *
 * Compiling a shader object runs the compiler on that one stage (so that
 * GL_COMPILE_STATUS and the log are the compiler's); linking runs it on all
 * attached stages with the TF varyings and attribute bindings.  The linked
 * program keeps the compiler's drv_program (binaries, tables, TF layout);
 * its hardware VS binary is uploaded to a BO at link time.
 */
#include <stdlib.h>
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

enum drv_stage drv_gl_shader_stage(GLenum type)
{
	switch (type) {
	case GL_VERTEX_SHADER: return DRV_STAGE_VERTEX;
	case GL_GEOMETRY_SHADER: return DRV_STAGE_GEOMETRY;
	case GL_FRAGMENT_SHADER: return DRV_STAGE_FRAGMENT;
	default: return DRV_STAGE_COUNT;
	}
}

static void *object(struct drv_context *ctx, GLuint name)
{
	return drv_names_get(&ctx->shared->shaders, name);
}

struct drv_shader *drv_gl_shader_lookup(struct drv_context *ctx, GLuint name)
{
	struct drv_shader *s = object(ctx, name);

	if (!s) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	if (s->is_program) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	return s;
}

struct drv_program_obj *drv_gl_program_lookup(struct drv_context *ctx, GLuint name,
					      const char *func)
{
	struct drv_program_obj *p = object(ctx, name);

	if (!p) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	if (!p->is_program) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	return p;
}

void drv_gl_shader_drop_spirv(struct drv_shader *s)
{
	xt_free(s->spirv);
	xt_free(s->specialized);
	s->spirv = s->specialized = NULL;
	s->spirv_words = s->specialized_words = 0;
}

static void shader_free(struct drv_shader *s)
{
	drv_gl_shader_drop_spirv(s);
	xt_free(s->source);
	xt_free(s->log);
	xt_free(s);
}

/* Frees what program p owns and p, leaving its attached shaders alone. */
static void program_free_own(struct drv_context *ctx, struct drv_program_obj *p)
{
	drv_program_destroy(p->prog);
	drv_pipe_shader_release(ctx->screen->hw, &p->shader);
	for (unsigned i = 0; i < p->n_tf_names; i++)
		xt_free(p->tf_names[i]);
	xt_free(p->tf_names);
	for (unsigned i = 0; i < p->n_bound_attribs; i++)
		xt_free(p->bound_attrib_names[i]);
	xt_free(p->bound_attrib_names);
	xt_free(p->bound_attrib_locs);
	xt_free(p->consts);
	xt_free(p->log);
	xt_free(p->binary);
	xt_free(p);
}

static void program_free(struct drv_context *ctx, struct drv_program_obj *p)
{
	for (unsigned i = 0; i < p->n_attached; i++) {
		struct drv_shader *s = p->attached[i];
		if (--s->attached == 0 && s->delete_pending) {
			drv_names_remove(&ctx->shared->shaders, s->name);
			shader_free(s);
		}
	}
	program_free_own(ctx, p);
}

void drv_gl_shader_object_free(struct drv_context *ctx, void *obj)
{
	struct drv_shader *s = obj;

	if (s->is_program)
		program_free_own(ctx, obj);
	else
		shader_free(s);
}

/* ---- shaders -------------------------------------------------------------------- */

GLuint drv_gl_CreateShader(GLenum type)
{
	DRV_CTX_RET(ctx, 0);
	struct drv_shader *s;
	uint32_t name;

	if (drv_gl_shader_stage(type) == DRV_STAGE_COUNT) {
		if (type == GL_TESS_CONTROL_SHADER || type == GL_TESS_EVALUATION_SHADER ||
		    type == GL_COMPUTE_SHADER) {
			drv_gl_unsupported(ctx, "tessellation and compute shaders are not modelled");
			return 0;
		}
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return 0;
	}
	s = xt_calloc(1, sizeof *s);
	if (!s || !drv_names_gen(&ctx->shared->shaders, 1, &name) ||
	    !drv_names_set(&ctx->shared->shaders, name, s)) {
		xt_free(s);
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return 0;
	}
	s->name = name;
	s->type = type;
	return name;
}

void drv_gl_DeleteShader(GLuint shader)
{
	DRV_CTX(ctx);
	struct drv_shader *s;

	if (!shader)
		return;
	if (!(s = drv_gl_shader_lookup(ctx, shader)))
		return;
	if (s->attached) {
		s->delete_pending = true;
		return;
	}
	drv_names_remove(&ctx->shared->shaders, shader);
	shader_free(s);
}

GLboolean drv_gl_IsShader(GLuint shader)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	struct drv_shader *s = object(ctx, shader);
	return s && !s->is_program;
}

void drv_gl_ShaderSource(GLuint shader, GLsizei count, const GLchar *const *string,
			 const GLint *length)
{
	DRV_CTX(ctx);
	struct drv_shader *s = drv_gl_shader_lookup(ctx, shader);
	struct xt_buf src;

	if (!s)
		return;
	if (count < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	xt_buf_init(&src);
	for (GLsizei i = 0; i < count; i++) {
		if (!string[i])
			continue;
		size_t n = length && length[i] >= 0 ? (size_t)length[i] : strlen(string[i]);
		xt_buf_append(&src, string[i], n);
	}
	xt_buf_append(&src, "", 1);
	xt_free(s->source);
	s->source = (char *)xt_buf_detach(&src, NULL);
	drv_gl_shader_drop_spirv(s);
}

static char *dup_or_empty(const char *s)
{
	return xt_strdup(s ? s : "");
}

void drv_gl_CompileShader(GLuint shader)
{
	DRV_CTX(ctx);
	struct drv_shader *s = drv_gl_shader_lookup(ctx, shader);
	struct drv_program_desc d = { 0 };
	struct drv_program *prog = NULL;
	struct xt_err err = { 0 };
	enum drv_stage st;

	if (!s)
		return;
	if (s->spirv) {
		/* ARB_gl_spirv: SPIR-V shaders are specialized, not compiled */
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	st = drv_gl_shader_stage(s->type);
	d.es = ctx->gles;
	d.compile_only = true;
	d.source[st] = s->source ? s->source : "";
	xt_free(s->log);
	if (drv_program_create(&d, &prog, &err) != XT_OK) {
		s->compiled = false;
		s->log = xt_strdup(xt_err_msg(&err));
		return;
	}
	s->compiled = prog->compiled[st];
	s->log = dup_or_empty(prog->compile_log[st]);
	drv_program_destroy(prog);
}

GLint drv_gl_log_length(const char *log)
{
	return log && *log ? (GLint)strlen(log) + 1 : 0;
}

void drv_gl_GetShaderiv(GLuint shader, GLenum pname, GLint *params)
{
	DRV_CTX(ctx);
	struct drv_shader *s = drv_gl_shader_lookup(ctx, shader);

	if (!s)
		return;
	switch (pname) {
	case GL_SHADER_TYPE: *params = (GLint)s->type; break;
	case GL_DELETE_STATUS: *params = s->delete_pending; break;
	case GL_COMPILE_STATUS: *params = s->compiled; break;
	case GL_INFO_LOG_LENGTH: *params = drv_gl_log_length(s->log); break;
	case GL_SHADER_SOURCE_LENGTH: *params = s->source ? (GLint)strlen(s->source) + 1 : 0; break;
	case GL_SPIR_V_BINARY: *params = s->spirv != NULL; break;
	default: drv_gl_error(ctx, GL_INVALID_ENUM); break;
	}
}

void drv_gl_copy_string(const char *src, GLsizei bufSize, GLsizei *length, GLchar *out)
{
	size_t n = src ? strlen(src) : 0;

	if (bufSize <= 0 || !out) {
		if (length)
			*length = 0;
		return;
	}
	if (n > (size_t)bufSize - 1)
		n = (size_t)bufSize - 1;
	if (n)
		memcpy(out, src, n);
	out[n] = 0;
	if (length)
		*length = (GLsizei)n;
}

void drv_gl_GetShaderInfoLog(GLuint shader, GLsizei bufSize, GLsizei *length, GLchar *infoLog)
{
	DRV_CTX(ctx);
	struct drv_shader *s = drv_gl_shader_lookup(ctx, shader);
	if (bufSize < 0)
		drv_gl_error(ctx, GL_INVALID_VALUE);
	else if (s)
		drv_gl_copy_string(s->log, bufSize, length, infoLog);
}

void drv_gl_GetShaderSource(GLuint shader, GLsizei bufSize, GLsizei *length, GLchar *source)
{
	DRV_CTX(ctx);
	struct drv_shader *s = drv_gl_shader_lookup(ctx, shader);
	if (bufSize < 0)
		drv_gl_error(ctx, GL_INVALID_VALUE);
	else if (s)
		drv_gl_copy_string(s->source, bufSize, length, source);
}

/* ---- programs -------------------------------------------------------------------- */

GLuint drv_gl_CreateProgram(void)
{
	DRV_CTX_RET(ctx, 0);
	struct drv_program_obj *p = xt_calloc(1, sizeof *p);
	uint32_t name;

	if (!p || !drv_names_gen(&ctx->shared->shaders, 1, &name) ||
	    !drv_names_set(&ctx->shared->shaders, name, p)) {
		xt_free(p);
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return 0;
	}
	p->name = name;
	p->is_program = true;
	p->tf_mode = GL_INTERLEAVED_ATTRIBS;
	return name;
}

void drv_gl_program_unuse(struct drv_context *ctx, struct drv_program_obj *p)
{
	if (p && --p->in_use == 0 && p->delete_pending) {
		drv_names_remove(&ctx->shared->shaders, p->name);
		program_free(ctx, p);
	}
}

void drv_gl_DeleteProgram(GLuint program)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p;

	if (!program || !(p = drv_gl_program_lookup(ctx, program, "glDeleteProgram")))
		return;
	if (p->in_use) {
		p->delete_pending = true;
		return;
	}
	drv_names_remove(&ctx->shared->shaders, program);
	program_free(ctx, p);
}

GLboolean drv_gl_IsProgram(GLuint program)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	struct drv_program_obj *p = object(ctx, program);
	return p && p->is_program;
}

void drv_gl_AttachShader(GLuint program, GLuint shader)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glAttachShader");
	struct drv_shader *s = p ? drv_gl_shader_lookup(ctx, shader) : NULL;

	if (!s)
		return;
	for (unsigned i = 0; i < p->n_attached; i++) {
		if (p->attached[i] == s || (ctx->gles && p->attached[i]->type == s->type)) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
	}
	if (p->n_attached == sizeof p->attached / sizeof p->attached[0]) {
		drv_gl_unsupported(ctx, "more than 8 shaders attached to one program");
		return;
	}
	p->attached[p->n_attached++] = s;
	s->attached++;
}

void drv_gl_DetachShader(GLuint program, GLuint shader)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glDetachShader");
	struct drv_shader *s = p ? drv_gl_shader_lookup(ctx, shader) : NULL;

	if (!s)
		return;
	for (unsigned i = 0; i < p->n_attached; i++) {
		if (p->attached[i] == s) {
			p->attached[i] = p->attached[--p->n_attached];
			if (--s->attached == 0 && s->delete_pending) {
				drv_names_remove(&ctx->shared->shaders, s->name);
				shader_free(s);
			}
			return;
		}
	}
	drv_gl_error(ctx, GL_INVALID_OPERATION);
}

void drv_gl_GetAttachedShaders(GLuint program, GLsizei maxCount, GLsizei *count, GLuint *shaders)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetAttachedShaders");
	GLsizei n = 0;

	if (maxCount < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (unsigned i = 0; p && i < p->n_attached && n < maxCount; i++)
		shaders[n++] = p->attached[i]->name;
	if (count)
		*count = n;
}

void drv_gl_BindAttribLocation(GLuint program, GLuint index, const GLchar *name)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glBindAttribLocation");
	char **names;
	uint32_t *locs;

	if (!p)
		return;
	if (index >= DRV_MAX_ATTRIBS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!strncmp(name, "gl_", 3)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	for (unsigned i = 0; i < p->n_bound_attribs; i++) {
		if (!strcmp(p->bound_attrib_names[i], name)) {
			p->bound_attrib_locs[i] = index;
			return;
		}
	}
	names = xt_realloc(p->bound_attrib_names, (p->n_bound_attribs + 2) * sizeof *names);
	if (names)
		p->bound_attrib_names = names;
	locs = xt_realloc(p->bound_attrib_locs, (p->n_bound_attribs + 1) * sizeof *locs);
	if (locs)
		p->bound_attrib_locs = locs;
	if (!names || !locs || !(names[p->n_bound_attribs] = xt_strdup(name))) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	locs[p->n_bound_attribs++] = index;
	names[p->n_bound_attribs] = NULL;
}

void drv_gl_BindFragDataLocation(GLuint program, GLuint color, const GLchar *name)
{
	DRV_CTX(ctx);
	drv_gl_program_lookup(ctx, program, "glBindFragDataLocation");
}

/* ARB_transform_feedback3: gl_NextBuffer / gl_SkipComponentsN only in
 * interleaved mode, and at most GL_MAX_TRANSFORM_FEEDBACK_BUFFERS buffers
 * (INVALID_OPERATION otherwise, as Mesa checks at this call). */
static bool tf_special_names_ok(GLsizei count, const GLchar *const *varyings, GLenum mode)
{
	unsigned buffers = 1;

	for (GLsizei i = 0; i < count; i++) {
		const char *v = varyings[i] ? varyings[i] : "";
		bool next = !strcmp(v, "gl_NextBuffer");
		bool skip = !strncmp(v, "gl_SkipComponents", 17) && v[17] >= '1' && v[17] <= '4' && !v[18];
		if (mode == GL_SEPARATE_ATTRIBS && (next || skip))
			return false;
		buffers += next;
	}
	return buffers <= DRV_MAX_TF_BUFFERS;
}

void drv_gl_TransformFeedbackVaryings(GLuint program, GLsizei count,
				      const GLchar *const *varyings, GLenum bufferMode)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glTransformFeedbackVaryings");
	char **names;

	if (!p)
		return;
	if (bufferMode != GL_INTERLEAVED_ATTRIBS && bufferMode != GL_SEPARATE_ATTRIBS) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (count < 0 ||
	    (bufferMode == GL_SEPARATE_ATTRIBS && (GLuint)count > DRV_MAX_TF_SEPARATE_ATTRIBS)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!tf_special_names_ok(count, varyings, bufferMode)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	names = xt_calloc((size_t)count + 1, sizeof *names);
	if (!names) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	for (GLsizei i = 0; i < count; i++)
		names[i] = xt_strdup(varyings[i] ? varyings[i] : "");
	for (unsigned i = 0; i < p->n_tf_names; i++)
		xt_free(p->tf_names[i]);
	xt_free(p->tf_names);
	p->tf_names = names;
	p->n_tf_names = (unsigned)count;
	p->tf_mode = bufferMode;
}

/* Whether SPIR-V shader sh can go into a link of p: specialized.
 * Otherwise the link fails with a log. */
static bool spirv_link_ok(struct drv_context *ctx, struct drv_program_obj *p,
			  const struct drv_shader *sh)
{
	if (sh->specialized)
		return true;
	xt_free(p->log);
	p->log = xt_strdup("error: a SPIR-V shader attached to the program was not specialized\n");
	p->linked = false;
	return false;
}

static int by_buffer_offset(const void *a, const void *b)
{
	const struct drv_tf_varying *x = a, *y = b;

	if (x->buffer != y->buffer)
		return x->buffer < y->buffer ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return 0;
}

/* The TF varying list as GL reports it.  A layout from xfb_offset
 * qualifiers (or SPIR-V Offset decorations) has no
 * glTransformFeedbackVaryings order to follow: Mesa lists it by buffer,
 * then offset, and so does the sim.  A SPIR-V program's names are not part
 * of its interface (empty, as in Mesa).  The compiled stores do not depend
 * on the list's order or names. */
static void tf_list_as_gl_reports(struct drv_tf_layout *tf, bool spirv)
{
	for (unsigned i = 0; spirv && i < tf->n_varyings; i++)
		tf->varyings[i].name[0] = '\0';
	/* offsets within a buffer are distinct, so qsort's instability is moot */
	if (tf->from_xfb_qualifiers && tf->n_varyings > 1)
		qsort(tf->varyings, tf->n_varyings, sizeof *tf->varyings, by_buffer_offset);
}

void drv_gl_LinkProgram(GLuint program)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glLinkProgram");
	struct drv_program_desc d = { 0 };
	/* at most 8 attachments, so at most 7 further units of a stage */
	const char *more[DRV_STAGE_COUNT][sizeof p->attached / sizeof p->attached[0]];

	if (!p)
		return;
	if (ctx->xfb->active && ctx->xfb->program == p) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	d.es = ctx->gles;
	for (unsigned i = 0; i < p->n_attached; i++) {
		const struct drv_shader *sh = p->attached[i];
		enum drv_stage st = drv_gl_shader_stage(sh->type);
		if (d.spirv[st] || (d.source[st] && sh->spirv)) {
			/* ARB_gl_spirv: one module per stage */
			xt_free(p->log);
			p->log = xt_strdup("error: several SPIR-V shaders of one stage, or SPIR-V and GLSL "
					   "shaders of one stage\n");
			p->linked = false;
			return;
		}
		if (d.source[st]) {
			/* a further compilation unit of the stage (GL 4.6 7.3) */
			more[st][d.n_more_sources[st]++] = sh->source ? sh->source : "";
			d.more_sources[st] = more[st];
			continue;
		}
		if (sh->spirv) {
			if (!spirv_link_ok(ctx, p, sh))
				return;
			d.spirv[st] = sh->specialized;
			d.spirv_words[st] = sh->specialized_words;
			continue;
		}
		d.source[st] = sh->source ? sh->source : "";
	}
	if (!d.spirv[DRV_STAGE_VERTEX]) {
		/* SPIR-V programs take their TF layout from Xfb decorations only */
		d.tf_varyings = (const char *const *)p->tf_names;
		d.n_tf_varyings = p->n_tf_names;
	}
	d.tf_mode = p->tf_mode;
	d.separable = p->separable;
	d.attrib_names = (const char *const *)p->bound_attrib_names;
	d.attrib_locations = p->bound_attrib_locs;
	drv_gl_program_link_desc(ctx, p, &d);
}

/* The recorded block layouts (drv_context_set_block_layouts) in the
 * compiler's terms; false when out of memory. */
static bool block_layouts(const struct drv_context *ctx, struct drv_program_desc *d)
{
	struct drv_block_layout *l;
	unsigned total = 0;

	d->has_block_layouts = ctx->has_rec_blocks;
	if (!ctx->n_rec_blocks)
		return true;
	for (unsigned i = 0; i < ctx->n_rec_blocks; i++)
		total += ctx->rec_blocks[i].n_members;
	l = xt_calloc(1, ctx->n_rec_blocks * sizeof *l + total * sizeof(struct drv_block_member_layout));
	if (!l)
		return false;
	struct drv_block_member_layout *m = (struct drv_block_member_layout *)(l + ctx->n_rec_blocks);
	for (unsigned i = 0; i < ctx->n_rec_blocks; i++) {
		const struct drv_recorded_block *r = &ctx->rec_blocks[i];
		l[i] = (struct drv_block_layout){ r->name, r->data_size, m, r->n_members };
		for (unsigned k = 0; k < r->n_members; k++)
			*m++ = (struct drv_block_member_layout){ r->members[k].name, r->members[k].offset,
								 r->members[k].array_stride,
								 r->members[k].matrix_stride, r->members[k].row_major };
	}
	d->block_layouts = l;
	d->n_block_layouts = ctx->n_rec_blocks;
	return true;
}

static void free_block_layouts(struct drv_program_desc *d)
{
	xt_free((void *)d->block_layouts);
	d->block_layouts = NULL;
}

void drv_gl_program_link_desc(struct drv_context *ctx, struct drv_program_obj *p,
			      const struct drv_program_desc *dp)
{
	struct drv_program_desc d = *dp;
	struct drv_program *prog = NULL;
	struct xt_err err = { 0 };
	enum xt_rc rc;

	/* compatibility profile: no fragment shader is fixed-function
	 * fragment processing (drv_program_desc.ff_fragment) */
	d.ff_fragment = !ctx->core && !ctx->gles;
	if (!block_layouts(ctx, &d)) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}

	xt_free(p->log);
	p->log = NULL;
	xt_free(p->binary);
	p->binary = NULL;
	p->binary_bytes = 0;
	rc = drv_program_create(&d, &prog, &err);
	free_block_layouts(&d);
	if (rc != XT_OK) {
		p->linked = false;
		p->log = xt_strdup(xt_err_msg(&err));
		return;
	}
	if (prog->layout_notes)
		xt_buf_printf(&ctx->layout_notes, "%s", prog->layout_notes);
	tf_list_as_gl_reports(&prog->tf, d.spirv[DRV_STAGE_VERTEX] != NULL);
	drv_program_destroy(p->prog);
	p->prog = prog;
	p->linked = prog->linked;
	p->log = dup_or_empty(prog->link_log);
	if (prog->unsupported)
		drv_gl_unsupported(ctx, "a shader construct the driver's compiler back end does not handle "
				   "(the program info log names it)");
	p->validated = false;
	xt_free(p->consts);
	p->consts = NULL;
	p->consts_size = 0;
	if (!p->linked)
		return;
	p->consts_size = (prog->const_buffer_size + 15u) & ~15u;
	p->consts = xt_calloc(1, p->consts_size ? p->consts_size : 16);
	if (p->consts && prog->const_init)   /* uniform initializers */
		memcpy(p->consts, prog->const_init, prog->const_buffer_size);
	/* The hardware layer re-uploads constants when (program, version)
	 * changed; a deleted program's memory can come back as a new program,
	 * so every link starts a version range no other link used (uniform
	 * writes count up in the low half). */
	p->consts_version = ++ctx->screen->links << 32;
	for (unsigned i = 0; i < prog->n_ubos && i < DRV_MAX_UBOS; i++)
		p->ubo_binding[i] = prog->ubos[i].binding;
	/* what glGetProgramBinary returns (drv_gl_progbin.c) */
	p->binary = drv_gl_progbin_pack(&d, &p->binary_bytes);
	if (!p->consts || !p->binary || !drv_pipe_shader_upload(ctx->screen->hw, &p->shader, prog))
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
}

void drv_gl_ValidateProgram(GLuint program)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glValidateProgram");
	if (p)
		p->validated = p->linked;
}

void drv_gl_UseProgram(GLuint program)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = NULL;

	if (drv_gl_xfb_running(ctx)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (program && !(p = drv_gl_program_lookup(ctx, program, "glUseProgram")))
		return;
	if (p && !p->linked) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (p)
		p->in_use++;
	drv_gl_program_unuse(ctx, ctx->program);
	ctx->program = p;
	drv_pipe_shaders_changed(ctx->pipe);
}

void drv_gl_ReleaseShaderCompiler(void)
{
}
