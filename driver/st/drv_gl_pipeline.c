/*
 * drv_gl_pipeline.c - separable programs and program pipeline objects
 * (GL 4.6 7.3 "Program Objects" PROGRAM_SEPARABLE, 7.4 "Program Pipeline
 * Objects"; ARB_separate_shader_objects).
 *
 * A pipeline holds, per stage, the separable program whose executable
 * runs there.  With no program current (glUseProgram(0)) the bound
 * pipeline decides what a draw runs (drv_gl_draw_program) and which
 * program's varyings transform feedback captures: the one of the last
 * vertex-processing stage (drv_gl_vertex_program).  The compiler builds
 * the hardware ES / GS / copy shaders from one linked program, so a
 * pipeline whose vertex and geometry stages come from different programs
 * is reported as not modelled at the draw.
 */
#include <stdio.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

/* GL_*_SHADER_BIT of the stages the model knows, and all of them. */
static const GLbitfield stage_bits[DRV_STAGE_COUNT] = {
	[DRV_STAGE_VERTEX] = GL_VERTEX_SHADER_BIT,
	[DRV_STAGE_GEOMETRY] = GL_GEOMETRY_SHADER_BIT,
	[DRV_STAGE_FRAGMENT] = GL_FRAGMENT_SHADER_BIT,
};
#define KNOWN_BITS (GL_VERTEX_SHADER_BIT | GL_GEOMETRY_SHADER_BIT | GL_FRAGMENT_SHADER_BIT | \
		    GL_TESS_CONTROL_SHADER_BIT | GL_TESS_EVALUATION_SHADER_BIT | GL_COMPUTE_SHADER_BIT)

static bool has_stage(const struct drv_program_obj *p, enum drv_stage st)
{
	return p && p->linked && p->prog && p->prog->compiled[st];
}

static void set_ref(struct drv_context *ctx, struct drv_program_obj **slot, struct drv_program_obj *p)
{
	if (p)
		p->in_use++;
	drv_gl_program_unuse(ctx, *slot);
	*slot = p;
}

static void pipeline_release(struct drv_context *ctx, struct drv_pipeline *pl)
{
	for (unsigned st = 0; st < DRV_STAGE_COUNT; st++)
		set_ref(ctx, &pl->stage[st], NULL);
	set_ref(ctx, &pl->active, NULL);
	xt_free(pl);
}

static void free_each(void *obj, void *user)
{
	pipeline_release(user, obj);
}

void drv_gl_pipeline_fini(struct drv_context *ctx)
{
	ctx->pipeline = NULL;
	drv_names_each(&ctx->pipelines, free_each, ctx);
	drv_names_fini(&ctx->pipelines);
}

/* The pipeline `name`, created at its first use (GL's rule for Gen'd
 * names); NULL with GL_INVALID_OPERATION when the name was never made. */
static struct drv_pipeline *pipeline_get(struct drv_context *ctx, GLuint name)
{
	struct drv_pipeline *pl = drv_names_get(&ctx->pipelines, name);
	if (pl)
		return pl;
	if (!name || !drv_names_known(&ctx->pipelines, name)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	pl = xt_calloc(1, sizeof *pl);
	if (!pl || !drv_names_set(&ctx->pipelines, name, pl)) {
		xt_free(pl);
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return NULL;
	}
	pl->name = name;
	return pl;
}

/* ---- the programs a draw and transform feedback use ---------------------------------- */

struct drv_program_obj *drv_gl_vertex_program(struct drv_context *ctx)
{
	const struct drv_pipeline *pl = ctx->pipeline;
	if (ctx->program || !pl)
		return ctx->program;
	return pl->stage[DRV_STAGE_GEOMETRY] ? pl->stage[DRV_STAGE_GEOMETRY] : pl->stage[DRV_STAGE_VERTEX];
}

struct drv_program_obj *drv_gl_pipeline_draw_program(struct drv_context *ctx)
{
	const struct drv_pipeline *pl = ctx->pipeline;
	struct drv_program_obj *vs = pl->stage[DRV_STAGE_VERTEX], *gs = pl->stage[DRV_STAGE_GEOMETRY];

	if (gs && gs != vs) {
		drv_gl_unsupported(ctx, "a program pipeline whose vertex and geometry stages are "
				   "different programs (the compiler links ES and GS from one program)");
		return NULL;
	}
	if (!vs)
		drv_gl_unsupported(ctx, "a program pipeline without a vertex stage (fixed function)");
	return vs;
}

struct drv_program_obj *drv_gl_uniform_program(struct drv_context *ctx)
{
	return ctx->program || !ctx->pipeline ? ctx->program : ctx->pipeline->active;
}

/* ---- separable programs -------------------------------------------------------------- */

void drv_gl_ProgramParameteri(GLuint program, GLenum pname, GLint value)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glProgramParameteri");

	if (!p)
		return;
	if (pname != GL_PROGRAM_SEPARABLE && pname != GL_PROGRAM_BINARY_RETRIEVABLE_HINT) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (value != GL_TRUE && value != GL_FALSE) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (pname == GL_PROGRAM_SEPARABLE)
		p->separable = value;
}

/* GL 4.6 7.3: defined as the sequence of calls below. */
GLuint drv_gl_CreateShaderProgramv(GLenum type, GLsizei count, const GLchar *const *strings)
{
	DRV_CTX_RET(ctx, 0);
	GLuint shader, program;
	GLint compiled = 0;

	if (count < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return 0;
	}
	shader = drv_gl_CreateShader(type);
	if (!shader)
		return 0;
	drv_gl_ShaderSource(shader, count, strings, NULL);
	drv_gl_CompileShader(shader);
	program = drv_gl_CreateProgram();
	if (program) {
		drv_gl_GetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
		drv_gl_ProgramParameteri(program, GL_PROGRAM_SEPARABLE, GL_TRUE);
		if (compiled) {
			drv_gl_AttachShader(program, shader);
			drv_gl_LinkProgram(program);
			drv_gl_DetachShader(program, shader);
		}
	}
	drv_gl_DeleteShader(shader);
	return program;
}

/* ---- pipeline objects ---------------------------------------------------------------- */

void drv_gl_GenProgramPipelines(GLsizei n, GLuint *pipelines)
{
	DRV_CTX(ctx);
	if (n < 0)
		drv_gl_error(ctx, GL_INVALID_VALUE);
	else if (!drv_names_gen(&ctx->pipelines, n, pipelines))
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
}

void drv_gl_CreateProgramPipelines(GLsizei n, GLuint *pipelines)
{
	DRV_CTX(ctx);
	drv_gl_GenProgramPipelines(n, pipelines);
	for (GLsizei i = 0; i < n && !ctx->error; i++)
		pipeline_get(ctx, pipelines[i]);
}

void drv_gl_DeleteProgramPipelines(GLsizei n, const GLuint *pipelines)
{
	DRV_CTX(ctx);
	if (n < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < n; i++) {
		struct drv_pipeline *pl = drv_names_get(&ctx->pipelines, pipelines[i]);
		if (pl && pl == ctx->pipeline)
			ctx->pipeline = NULL;
		drv_names_remove(&ctx->pipelines, pipelines[i]);
		if (pl)
			pipeline_release(ctx, pl);
	}
}

GLboolean drv_gl_IsProgramPipeline(GLuint pipeline)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	return drv_names_get(&ctx->pipelines, pipeline) != NULL;
}

void drv_gl_BindProgramPipeline(GLuint pipeline)
{
	DRV_CTX(ctx);
	struct drv_pipeline *pl = NULL;

	if (drv_gl_xfb_running(ctx)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (pipeline && !(pl = pipeline_get(ctx, pipeline)))
		return;
	ctx->pipeline = pl;
	drv_pipe_shaders_changed(ctx->pipe);
}

void drv_gl_UseProgramStages(GLuint pipeline, GLbitfield stages, GLuint program)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = NULL;
	struct drv_pipeline *pl;

	if (stages != GL_ALL_SHADER_BITS && (stages & ~(GLbitfield)KNOWN_BITS)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!(pl = pipeline_get(ctx, pipeline)))
		return;
	if (program && !(p = drv_gl_program_lookup(ctx, program, "glUseProgramStages")))
		return;
	if (p && (!p->separable || !p->linked)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	/* GL 4.6 13.2.2: not while the pipeline feeds active, unpaused TF. */
	if (pl == ctx->pipeline && !ctx->program && drv_gl_xfb_running(ctx)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (stages & (GL_TESS_CONTROL_SHADER_BIT | GL_TESS_EVALUATION_SHADER_BIT | GL_COMPUTE_SHADER_BIT) &&
	    stages != GL_ALL_SHADER_BITS && p) {
		drv_gl_unsupported(ctx, "tessellation and compute stages of a program pipeline");
		return;
	}
	for (unsigned st = 0; st < DRV_STAGE_COUNT; st++)
		if (stages & stage_bits[st])
			set_ref(ctx, &pl->stage[st], has_stage(p, st) ? p : NULL);
	pl->validated = false;
	drv_pipe_shaders_changed(ctx->pipe);
}

void drv_gl_ActiveShaderProgram(GLuint pipeline, GLuint program)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = NULL;
	struct drv_pipeline *pl;

	if (!(pl = pipeline_get(ctx, pipeline)))
		return;
	if (program && !(p = drv_gl_program_lookup(ctx, program, "glActiveShaderProgram")))
		return;
	if (p && !p->linked) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	set_ref(ctx, &pl->active, p);
}

void drv_gl_ValidateProgramPipeline(GLuint pipeline)
{
	DRV_CTX(ctx);
	struct drv_pipeline *pl = pipeline_get(ctx, pipeline);
	bool any = false;

	if (!pl)
		return;
	for (unsigned st = 0; st < DRV_STAGE_COUNT; st++)
		any |= pl->stage[st] != NULL;
	pl->validated = any;
}

void drv_gl_GetProgramPipelineiv(GLuint pipeline, GLenum pname, GLint *params)
{
	DRV_CTX(ctx);
	struct drv_pipeline *pl = pipeline_get(ctx, pipeline);
	const struct drv_program_obj *p;

	if (!pl)
		return;
	switch (pname) {
	case GL_ACTIVE_PROGRAM: p = pl->active; break;
	case GL_VERTEX_SHADER: p = pl->stage[DRV_STAGE_VERTEX]; break;
	case GL_GEOMETRY_SHADER: p = pl->stage[DRV_STAGE_GEOMETRY]; break;
	case GL_FRAGMENT_SHADER: p = pl->stage[DRV_STAGE_FRAGMENT]; break;
	case GL_TESS_CONTROL_SHADER: case GL_TESS_EVALUATION_SHADER: case GL_COMPUTE_SHADER:
		p = NULL;
		break;
	case GL_VALIDATE_STATUS: *params = pl->validated; return;
	case GL_INFO_LOG_LENGTH: *params = 0; return;
	default: drv_gl_error(ctx, GL_INVALID_ENUM); return;
	}
	*params = p ? (GLint)p->name : 0;
}

void drv_gl_GetProgramPipelineInfoLog(GLuint pipeline, GLsizei bufSize, GLsizei *length,
				      GLchar *infoLog)
{
	DRV_CTX(ctx);
	if (bufSize < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!pipeline_get(ctx, pipeline))
		return;
	if (length)
		*length = 0;
	if (bufSize > 0 && infoLog)
		infoLog[0] = 0;
}
