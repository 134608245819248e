/*
 * drv_gl_spirv.c - shaders from SPIR-V (ARB_gl_spirv, GL 4.6 7.2 "Shader
 * Binaries" and 7.2.1 "Shader Specialization"): glShaderBinary with
 * GL_SHADER_BINARY_FORMAT_SPIR_V and glSpecializeShader, with the errors
 * the extension gives them.  The module and its specialization
 * (drv_spirv_input.h) stay with the shader object; glLinkProgram
 * (drv_gl_program.c) hands the specialized module to the compiler, which
 * takes it where glslang's output would go.
 */
#include <stdlib.h>
#include <string.h>

#include "drv_gl_int.h"
#include "drv_spirv_input.h"
#include "xt_fault.h"

/* The one shader binary format is SPIR-V (ARB_gl_spirv, GL 4.6 7.2): the
 * module replaces each shader's contents, which then wait for
 * glSpecializeShader (GL_COMPILE_STATUS false until then). */
void drv_gl_ShaderBinary(GLsizei count, const GLuint *shaders, GLenum binaryFormat,
			 const void *binary, GLsizei length)
{
	DRV_CTX(ctx);
	struct drv_shader *list[DRV_STAGE_COUNT];
	struct xt_err err = { 0 };
	uint32_t *words;
	size_t n_words;

	if (count < 0 || length < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (binaryFormat != GL_SHADER_BINARY_FORMAT_SPIR_V) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	for (GLsizei i = 0; i < count; i++) {
		struct drv_shader *sh = drv_gl_shader_lookup(ctx, shaders[i]);
		if (!sh)
			return;
		/* "more than one of the handles refers to the same type of shader" */
		for (GLsizei k = 0; k < i; k++)
			if (list[k]->type == sh->type) {
				drv_gl_error(ctx, GL_INVALID_VALUE);
				return;
			}
		if (i >= (GLsizei)DRV_STAGE_COUNT) {
			drv_gl_error(ctx, GL_INVALID_VALUE);
			return;
		}
		list[i] = sh;
	}
	if (drv_spirv_input_load(binary, (size_t)length, &words, &n_words, &err) != XT_OK) {
		drv_gl_error(ctx, err.rc == XT_ERR_NOMEM ? GL_OUT_OF_MEMORY : GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < count; i++) {
		struct drv_shader *sh = list[i];
		drv_gl_shader_drop_spirv(sh);
		sh->spirv = xt_malloc(n_words * sizeof *words);
		if (!sh->spirv) {
			drv_gl_error(ctx, GL_OUT_OF_MEMORY);
			break;
		}
		memcpy(sh->spirv, words, n_words * sizeof *words);
		sh->spirv_words = n_words;
		sh->compiled = false;
		xt_free(sh->log);
		sh->log = NULL;
	}
	free(words);
}

/* ARB_gl_spirv: picks the entry point and sets the specialization
 * constants; the module is then checked by the compiler's reader, whose
 * verdict is GL_COMPILE_STATUS (the errors of the call come first). */
void drv_gl_SpecializeShader(GLuint shader, const GLchar *pEntryPoint,
			     GLuint numSpecializationConstants, const GLuint *pConstantIndex,
			     const GLuint *pConstantValue)
{
	DRV_CTX(ctx);
	struct drv_shader *s = drv_gl_shader_lookup(ctx, shader);
	enum drv_spec_status status;
	struct xt_err err = { 0 };
	uint32_t *out;
	size_t n_out;

	if (!s)
		return;
	if (!s->spirv || s->specialized) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (numSpecializationConstants && (!pConstantIndex || !pConstantValue)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (drv_spirv_specialize(s->spirv, s->spirv_words, drv_gl_shader_stage(s->type), pEntryPoint,
				 numSpecializationConstants, pConstantIndex, pConstantValue, &out,
				 &n_out, &status, &err) != XT_OK) {
		if (err.rc == XT_ERR_NOMEM) {
			drv_gl_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		/* a module too malformed to walk: a failed compile */
		s->compiled = false;
		xt_free(s->log);
		s->log = xt_strdup(xt_err_msg(&err));
		return;
	}
	if (status != DRV_SPEC_OK) {
		drv_gl_error(ctx, status == DRV_SPEC_WRONG_STAGE ? GL_INVALID_OPERATION : GL_INVALID_VALUE);
		return;
	}
	s->specialized = out;
	s->specialized_words = n_out;
	xt_free(s->log);
	s->log = NULL;
	s->compiled = drv_spirv_input_check(out, n_out, &err) == XT_OK;
	if (!s->compiled)
		s->log = xt_strdup(xt_err_msg(&err));
}
