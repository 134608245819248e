/*
 * drv_gl_raster.c - state that only rasterization reads, which a GL
 * compositor (ANGLE's GL back end under Chromium, tests/integration/
 * test_chromium.py) sets around every draw: stencil functions and
 * operations, the depth range, sampler parameters, multisample renderbuffer
 * storage, the reset status and the compiler-thread hint.
 *
 * The model does not rasterize or sample textures, so nothing here can
 * change what transform feedback captures or what the TF queries count;
 * what these calls can change in a trace is GL errors, so each one checks
 * its arguments as the specification says (GL 4.6 / ES 3.2 sections
 * named below) and keeps nothing (sampler names live in drv_gl_label.c).
 * Values are not stored: no query of them is modelled
 * (drv_gl_get.c reports such a query by name).
 */
#include "drv_gl_int.h"

/* ---- stencil (GL 4.6 / ES 3.2 §17.3.5) ---------------------------------------- */

static bool face_ok(GLenum face)
{
	return face == GL_FRONT || face == GL_BACK || face == GL_FRONT_AND_BACK;
}

static bool func_ok(GLenum func)
{
	return func >= GL_NEVER && func <= GL_ALWAYS;
}

static bool op_ok(GLenum op)
{
	switch (op) {
	case GL_KEEP: case GL_ZERO: case GL_REPLACE: case GL_INCR: case GL_DECR:
	case GL_INVERT: case GL_INCR_WRAP: case GL_DECR_WRAP:
		return true;
	default:
		return false;
	}
}

void drv_gl_StencilFuncSeparate(GLenum face, GLenum func, GLint ref, GLuint mask)
{
	DRV_CTX(ctx);
	if (!face_ok(face) || !func_ok(func))
		drv_gl_error(ctx, GL_INVALID_ENUM);
}

void drv_gl_StencilFunc(GLenum func, GLint ref, GLuint mask)
{
	drv_gl_StencilFuncSeparate(GL_FRONT_AND_BACK, func, ref, mask);
}

void drv_gl_StencilOpSeparate(GLenum face, GLenum sfail, GLenum dpfail, GLenum dppass)
{
	DRV_CTX(ctx);
	if (!face_ok(face) || !op_ok(sfail) || !op_ok(dpfail) || !op_ok(dppass))
		drv_gl_error(ctx, GL_INVALID_ENUM);
}

void drv_gl_StencilOp(GLenum sfail, GLenum dpfail, GLenum dppass)
{
	drv_gl_StencilOpSeparate(GL_FRONT_AND_BACK, sfail, dpfail, dppass);
}

/* The stencil write masks: drv_gl_pixels.c (clears write through them). */

/* ---- depth range (§13.8.1): any value, clamped; no error ---------------------------- */

void drv_gl_DepthRangef(GLfloat n, GLfloat f) {}
void drv_gl_DepthRange(GLdouble n, GLdouble f) {}

/* ---- sampler objects (GL 4.6 §8.2, ES 3.2 §8.2) ------------------------------------- */

/* Names, binding and labels of sampler objects: drv_gl_label.c. */

/* The checks of glSamplerParameter*: the sampler, then the pname (§8.2:
 * INVALID_OPERATION for a name that is no sampler, INVALID_ENUM for a
 * pname that is no sampler state).  Parameter values are not checked:
 * what they select is never sampled here. */
static void sampler_parameter(GLuint sampler, GLenum pname)
{
	DRV_CTX(ctx);
	if (!sampler || !drv_names_known(&ctx->shared->samplers, sampler)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	switch (pname) {
	case GL_TEXTURE_WRAP_S: case GL_TEXTURE_WRAP_T: case GL_TEXTURE_WRAP_R:
	case GL_TEXTURE_MIN_FILTER: case GL_TEXTURE_MAG_FILTER: case GL_TEXTURE_BORDER_COLOR:
	case GL_TEXTURE_MIN_LOD: case GL_TEXTURE_MAX_LOD: case GL_TEXTURE_LOD_BIAS:
	case GL_TEXTURE_COMPARE_MODE: case GL_TEXTURE_COMPARE_FUNC:
	case GL_TEXTURE_MAX_ANISOTROPY: case GL_TEXTURE_SRGB_DECODE_EXT:
		return;
	default:
		drv_gl_error(ctx, GL_INVALID_ENUM);
	}
}

void drv_gl_SamplerParameteri(GLuint s, GLenum pname, GLint param) { sampler_parameter(s, pname); }
void drv_gl_SamplerParameterf(GLuint s, GLenum pname, GLfloat param) { sampler_parameter(s, pname); }
void drv_gl_SamplerParameteriv(GLuint s, GLenum pname, const GLint *param) { sampler_parameter(s, pname); }
void drv_gl_SamplerParameterfv(GLuint s, GLenum pname, const GLfloat *param) { sampler_parameter(s, pname); }

/* ---- multisample renderbuffers (§9.2.4) --------------------------------------------- */

void drv_gl_RenderbufferStorageMultisample(GLenum target, GLsizei samples, GLenum internalformat,
					   GLsizei w, GLsizei h)
{
	DRV_CTX(ctx);
	if (samples < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if ((GLuint)samples > DRV_MAX_SAMPLES) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	drv_gl_fb_renderbuffer_storage(target, samples, internalformat, w, h);
}

/* ---- robustness (GL 4.6 §2.3.2): the model never loses a context ----------------- */

GLenum drv_gl_GetGraphicsResetStatus(void)
{
	return GL_NO_ERROR;
}

/* KHR_parallel_shader_compile: a hint; the model compiles at once. */
void drv_gl_MaxShaderCompilerThreadsKHR(GLuint count) {}
