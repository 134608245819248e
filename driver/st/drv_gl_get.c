/*
 * drv_gl_get.c - glGet{Integer,Integer64,Boolean,Float,Double}v and the
 * indexed forms: the bindings, enables and limits the state tracker
 * knows.  One table-free switch yields every value as doubles; the typed
 * entry points convert (GL 4.6 2.2.2 "Data Conversions for State Query
 * Commands").
 *
 * Limits are those of the modelled hardware and of radeonsi where the
 * hardware allows at least the capturing driver's (llvmpipe's) value, so
 * that a trace replays as it was recorded.  A pname the sim does not know
 * is reported as not modelled (never answered with a made-up value, and
 * not turned into a GL error the capturing driver did not raise).
 */
#include <stdio.h>
#include <string.h>

#include "drv_gl_int.h"

unsigned drv_gl_num_extensions(const struct drv_context *ctx);

static double name_of(const struct drv_buffer *b)
{
	return b ? b->name : 0;
}

/* Values of pname into v (at most 16); returns the count, 0 when unknown. */
static unsigned get(struct drv_context *ctx, GLenum pname, double *v)
{
	switch (pname) {
	/* bindings */
	case GL_ARRAY_BUFFER_BINDING: v[0] = name_of(ctx->array_buffer); return 1;
	case GL_ELEMENT_ARRAY_BUFFER_BINDING: v[0] = name_of(ctx->vao->element_buffer); return 1;
	case GL_COPY_READ_BUFFER_BINDING: v[0] = name_of(ctx->copy_read); return 1;
	case GL_COPY_WRITE_BUFFER_BINDING: v[0] = name_of(ctx->copy_write); return 1;
	case GL_PIXEL_PACK_BUFFER_BINDING: v[0] = name_of(ctx->pixel_pack); return 1;
	case GL_PIXEL_UNPACK_BUFFER_BINDING: v[0] = name_of(ctx->pixel_unpack); return 1;
	case GL_UNIFORM_BUFFER_BINDING: v[0] = name_of(ctx->uniform_buffer); return 1;
	case GL_TEXTURE_BUFFER_BINDING: v[0] = name_of(ctx->texture_buffer); return 1;
	case GL_SHADER_STORAGE_BUFFER_BINDING: v[0] = name_of(ctx->ssbo_buffer); return 1;
	case GL_ATOMIC_COUNTER_BUFFER_BINDING: v[0] = name_of(ctx->atomic_buffer); return 1;
	case GL_DRAW_INDIRECT_BUFFER_BINDING: v[0] = name_of(ctx->draw_indirect); return 1;
	case GL_DISPATCH_INDIRECT_BUFFER_BINDING: v[0] = name_of(ctx->dispatch_indirect); return 1;
	case GL_QUERY_BUFFER_BINDING: v[0] = name_of(ctx->query_buffer); return 1;
	case GL_PARAMETER_BUFFER_BINDING_ARB: v[0] = name_of(ctx->parameter_buffer); return 1;
	case GL_TRANSFORM_FEEDBACK_BUFFER_BINDING: v[0] = name_of(ctx->xfb->generic); return 1;
	case GL_TRANSFORM_FEEDBACK_BINDING: v[0] = ctx->xfb->name; return 1;
	case GL_VERTEX_ARRAY_BINDING: v[0] = ctx->vao->name; return 1;
	case GL_CURRENT_PROGRAM: v[0] = ctx->program ? ctx->program->name : 0; return 1;
	case GL_PROGRAM_PIPELINE_BINDING: v[0] = ctx->pipeline ? ctx->pipeline->name : 0; return 1;
	case GL_TRANSFORM_FEEDBACK_BUFFER_ACTIVE: v[0] = ctx->xfb->active; return 1;
	case GL_TRANSFORM_FEEDBACK_BUFFER_PAUSED: v[0] = ctx->xfb->paused; return 1;
	case GL_RASTERIZER_DISCARD: v[0] = ctx->rasterizer_discard; return 1;
	case GL_MAX_LABEL_LENGTH: v[0] = drv_gl_max_label_length(); return 1;
	case GL_SAMPLER_BINDING: v[0] = (GLint)ctx->sampler_binding[ctx->fb.active_unit % DRV_MAX_TEXTURE_UNITS]; return 1;
	case GL_PROVOKING_VERTEX:
		v[0] = ctx->provoking_first ? GL_FIRST_VERTEX_CONVENTION : GL_LAST_VERTEX_CONVENTION;
		return 1;
	/* Quads and quad strips follow the convention, as radeonsi reports
	 * (PIPE_CAP_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION = 1). */
	case GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION: v[0] = GL_TRUE; return 1;
	case GL_PRIMITIVE_RESTART: v[0] = ctx->primitive_restart; return 1;
	case GL_PRIMITIVE_RESTART_FIXED_INDEX: v[0] = ctx->primitive_restart_fixed; return 1;
	case GL_PRIMITIVE_RESTART_INDEX: v[0] = ctx->restart_index; return 1;
	/* version and context */
	case GL_MAJOR_VERSION: v[0] = ctx->major; return 1;
	case GL_MINOR_VERSION: v[0] = ctx->minor; return 1;
	case GL_NUM_EXTENSIONS: v[0] = drv_gl_num_extensions(ctx); return 1;
	case GL_CONTEXT_PROFILE_MASK:
		v[0] = ctx->core ? GL_CONTEXT_CORE_PROFILE_BIT : GL_CONTEXT_COMPATIBILITY_PROFILE_BIT;
		return 1;
	case GL_CONTEXT_FLAGS: v[0] = 0; return 1;
	/* the sim's own program binaries (drv_gl_progbin.c), under Mesa's format */
	case GL_NUM_PROGRAM_BINARY_FORMATS: v[0] = 1; return 1;
	case GL_PROGRAM_BINARY_FORMATS: v[0] = DRV_GL_PROGRAM_BINARY_FORMAT_MESA; return 1;
	/* ARB_gl_spirv: SPIR-V is the one shader binary format, no SPIR-V extensions */
	case GL_NUM_SHADER_BINARY_FORMATS: v[0] = 1; return 1;
	case GL_SHADER_BINARY_FORMATS: v[0] = GL_SHADER_BINARY_FORMAT_SPIR_V; return 1;
	case GL_NUM_SPIR_V_EXTENSIONS: v[0] = 0; return 1;
	case GL_MAX_VERTEX_IMAGE_UNIFORMS: case GL_MAX_GEOMETRY_IMAGE_UNIFORMS: case GL_MAX_VERTEX_ATOMIC_COUNTERS:
	case GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS:
		v[0] = 0; return 1;
	/* transform feedback and vertex limits (drv_shader.h; radeonsi) */
	case GL_MAX_TRANSFORM_FEEDBACK_BUFFERS: v[0] = DRV_MAX_TF_BUFFERS; return 1;
	case GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS:
		v[0] = DRV_MAX_TF_INTERLEAVED_COMPONENTS; return 1;
	case GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS: v[0] = DRV_MAX_TF_SEPARATE_ATTRIBS; return 1;
	case GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS:
		v[0] = DRV_MAX_TF_SEPARATE_COMPONENTS; return 1;
	case GL_MAX_VERTEX_STREAMS: v[0] = DRV_MAX_VERTEX_STREAMS; return 1;
	case GL_MAX_VERTEX_ATTRIBS: v[0] = DRV_MAX_ATTRIBS; return 1;
	case GL_MAX_VERTEX_ATTRIB_BINDINGS: v[0] = DRV_MAX_ATTRIBS; return 1;
	case GL_MAX_VERTEX_ATTRIB_STRIDE: v[0] = 2048; return 1;
	case GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET: v[0] = 2047; return 1;
	case GL_MAX_UNIFORM_BUFFER_BINDINGS: v[0] = DRV_MAX_UBO_BINDINGS; return 1;
	case GL_MAX_VERTEX_UNIFORM_BLOCKS: case GL_MAX_GEOMETRY_UNIFORM_BLOCKS:
	case GL_MAX_FRAGMENT_UNIFORM_BLOCKS:
		v[0] = DRV_MAX_UBOS; return 1;
	case GL_MAX_COMBINED_UNIFORM_BLOCKS: v[0] = 3 * DRV_MAX_UBOS; return 1;
	case GL_MAX_UNIFORM_BLOCK_SIZE: v[0] = 65536; return 1;
	case GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT: v[0] = 4; return 1;
	case GL_MAX_VERTEX_UNIFORM_COMPONENTS: case GL_MAX_GEOMETRY_UNIFORM_COMPONENTS:
	case GL_MAX_FRAGMENT_UNIFORM_COMPONENTS:
		v[0] = 16384; return 1;
	case GL_MAX_VERTEX_UNIFORM_VECTORS: case GL_MAX_FRAGMENT_UNIFORM_VECTORS: v[0] = 4096; return 1;
	case GL_MAX_VERTEX_OUTPUT_COMPONENTS: case GL_MAX_GEOMETRY_INPUT_COMPONENTS:
	case GL_MAX_GEOMETRY_OUTPUT_COMPONENTS: case GL_MAX_FRAGMENT_INPUT_COMPONENTS:
		v[0] = 128; return 1;
	case GL_MAX_VARYING_COMPONENTS: v[0] = 128; return 1;
	case GL_MAX_VARYING_VECTORS: v[0] = 32; return 1;
	case GL_MAX_GEOMETRY_OUTPUT_VERTICES: v[0] = 256; return 1;
	case GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS: v[0] = 4095; return 1;
	case GL_MAX_GEOMETRY_SHADER_INVOCATIONS: v[0] = 32; return 1;
	case GL_MAX_ELEMENTS_VERTICES: case GL_MAX_ELEMENTS_INDICES: v[0] = 1 << 22; return 1;
	case GL_MAX_ELEMENT_INDEX: v[0] = 4294967295.0; return 1;
	case GL_MAX_SERVER_WAIT_TIMEOUT: v[0] = 0; return 1;
	case GL_MAX_TEXTURE_SIZE: case GL_MAX_RENDERBUFFER_SIZE: v[0] = 16384; return 1;
	case GL_MAX_TEXTURE_IMAGE_UNITS: case GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS:
	case GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS:
		v[0] = 32; return 1;
	case GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS: v[0] = DRV_MAX_COMBINED_TEXTURE_UNITS; return 1;
	case GL_MAX_DRAW_BUFFERS: case GL_MAX_COLOR_ATTACHMENTS: v[0] = 8; return 1;
	case GL_MAX_VIEWPORT_DIMS: v[0] = v[1] = 16384; return 2;
	case GL_MAX_VIEWPORTS: v[0] = DRV_MAX_VIEWPORTS; return 1;
	case GL_MAX_CLIP_DISTANCES: v[0] = 8; return 1;
	/* GL 4.5 (ARB_cull_distance); GLES only with EXT_clip_cull_distance,
	 * which the sim's GLES does not expose (gles_only_with_extension) */
	case GL_MAX_CULL_DISTANCES: case GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES: v[0] = 8; return 1;
	/* radeonsi's SI_MAX_POINT_SIZE; point size reaches nothing TF captures */
	case 0x846D /* GL_ALIASED_POINT_SIZE_RANGE (compatibility) */: case GL_POINT_SIZE_RANGE:
		v[0] = 1; v[1] = 2048; return 2;
	/* radeonsi's: 8 for every kind of image (the model's largest count) */
	case GL_MAX_SAMPLES: case GL_MAX_COLOR_TEXTURE_SAMPLES: case GL_MAX_DEPTH_TEXTURE_SAMPLES:
	case GL_MAX_INTEGER_SAMPLES: case GL_MAX_FRAMEBUFFER_SAMPLES:
		v[0] = DRV_MAX_SAMPLES; return 1;
	case GL_MAX_SAMPLE_MASK_WORDS: v[0] = 1; return 1;
	case GL_MAX_3D_TEXTURE_SIZE: v[0] = 2048; return 1;
	/* radeonsi's and llvmpipe's; anisotropy reaches nothing TF captures */
	case GL_MAX_TEXTURE_MAX_ANISOTROPY: v[0] = 16; return 1;
	case GL_MAX_ARRAY_TEXTURE_LAYERS: v[0] = 2048; return 1;
	case GL_MAX_CUBE_MAP_TEXTURE_SIZE: v[0] = 16384; return 1;
	case GL_MAX_TEXTURE_BUFFER_SIZE: v[0] = 1 << 27; return 1;
	case GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS: v[0] = DRV_MAX_SSBO_BINDINGS; return 1;
	case GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS: v[0] = DRV_MAX_ATOMIC_BINDINGS; return 1;
	case GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT: v[0] = 4; return 1;
	case GL_MIN_MAP_BUFFER_ALIGNMENT: v[0] = 64; return 1;
	case GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT: v[0] = 16; return 1;
	default:
		return 0;
	}
}

/* A pname GLES has only with an extension the sim's GLES does not expose:
 * INVALID_ENUM there, as for any pname the context does not know (ES 3.2
 * §2.3.1), which is what a GLES driver without the extension raises. */
static bool gles_only_with_extension(GLenum pname)
{
	switch (pname) {
	case GL_MAX_CULL_DISTANCES:                    /* EXT_clip_cull_distance */
	case GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES:
		return true;
	default:
		return false;
	}
}

static bool value(struct drv_context *ctx, const char *func, GLenum pname, double *v, unsigned *n)
{
	static _Thread_local char why[96];

	if (ctx->gles && gles_only_with_extension(pname)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		*n = 0;
		return false;
	}
	*n = get(ctx, pname, v);
	if (!*n)
		*n = drv_gl_ff_get(ctx, pname, v);
	if (!*n)
		*n = drv_gl_fb_get(ctx, pname, v);
	if (*n)
		return true;
	snprintf(why, sizeof why, "%s(0x%04X): a state the sim does not model", func, pname);
	drv_gl_unsupported(ctx, why);
	return false;
}

void drv_gl_GetIntegerv(GLenum pname, GLint *data)
{
	DRV_CTX(ctx);
	double v[16];
	unsigned n;
	if (value(ctx, "glGetIntegerv", pname, v, &n))
		for (unsigned i = 0; i < n; i++)
			data[i] = v[i] > 2147483647.0 ? 2147483647 : (GLint)v[i];
}

void drv_gl_GetInteger64v(GLenum pname, GLint64 *data)
{
	DRV_CTX(ctx);
	double v[16];
	unsigned n;
	if (value(ctx, "glGetInteger64v", pname, v, &n))
		for (unsigned i = 0; i < n; i++)
			data[i] = (GLint64)v[i];
}

void drv_gl_GetBooleanv(GLenum pname, GLboolean *data)
{
	DRV_CTX(ctx);
	double v[16];
	unsigned n;
	if (value(ctx, "glGetBooleanv", pname, v, &n))
		for (unsigned i = 0; i < n; i++)
			data[i] = v[i] != 0.0;
}

void drv_gl_GetFloatv(GLenum pname, GLfloat *data)
{
	DRV_CTX(ctx);
	double v[16];
	unsigned n;
	if (value(ctx, "glGetFloatv", pname, v, &n))
		for (unsigned i = 0; i < n; i++)
			data[i] = (GLfloat)v[i];
}

void drv_gl_GetDoublev(GLenum pname, GLdouble *data)
{
	DRV_CTX(ctx);
	double v[16];
	unsigned n;
	if (value(ctx, "glGetDoublev", pname, v, &n))
		for (unsigned i = 0; i < n; i++)
			data[i] = v[i];
}

/* Indexed state; false with the error set. */
static bool get_indexed(struct drv_context *ctx, GLenum target, GLuint index, int64_t *out)
{
	const struct drv_xfb_binding *b = NULL;

	switch (target) {
	case GL_TRANSFORM_FEEDBACK_BUFFER_BINDING:
	case GL_TRANSFORM_FEEDBACK_BUFFER_START:
	case GL_TRANSFORM_FEEDBACK_BUFFER_SIZE:
		if (index >= DRV_MAX_TF_BUFFERS)
			break;
		b = &ctx->xfb->b[index];
		*out = target == GL_TRANSFORM_FEEDBACK_BUFFER_BINDING ? (b->buffer ? b->buffer->name : 0)
		     : target == GL_TRANSFORM_FEEDBACK_BUFFER_START ? b->offset : b->size;
		return true;
	case GL_UNIFORM_BUFFER_BINDING:
	case GL_UNIFORM_BUFFER_START:
	case GL_UNIFORM_BUFFER_SIZE:
		if (index >= DRV_MAX_UBO_BINDINGS)
			break;
		b = &ctx->ubo[index];
		*out = target == GL_UNIFORM_BUFFER_BINDING ? (b->buffer ? b->buffer->name : 0)
		     : target == GL_UNIFORM_BUFFER_START ? b->offset : b->size;
		return true;
	case GL_VERTEX_BINDING_BUFFER:
	case GL_VERTEX_BINDING_OFFSET:
	case GL_VERTEX_BINDING_STRIDE:
	case GL_VERTEX_BINDING_DIVISOR: {
		const struct drv_vbinding *vb;
		if (index >= DRV_MAX_ATTRIBS)
			break;
		vb = &ctx->vao->binding[index];
		*out = target == GL_VERTEX_BINDING_BUFFER ? (vb->buffer ? vb->buffer->name : 0)
		     : target == GL_VERTEX_BINDING_OFFSET ? vb->offset
		     : target == GL_VERTEX_BINDING_STRIDE ? (int64_t)vb->stride : (int64_t)vb->divisor;
		return true;
	}
	default: {
		static _Thread_local char why[96];
		snprintf(why, sizeof why, "glGet*i_v(0x%04X): a state the sim does not model", target);
		drv_gl_unsupported(ctx, why);
		return false;
	}
	}
	drv_gl_error(ctx, GL_INVALID_VALUE);
	return false;
}

void drv_gl_GetIntegeri_v(GLenum target, GLuint index, GLint *data)
{
	DRV_CTX(ctx);
	int64_t v;
	if (get_indexed(ctx, target, index, &v))
		*data = (GLint)v;
}

void drv_gl_GetInteger64i_v(GLenum target, GLuint index, GLint64 *data)
{
	DRV_CTX(ctx);
	int64_t v;
	if (get_indexed(ctx, target, index, &v))
		*data = v;
}

void drv_gl_GetBooleani_v(GLenum target, GLuint index, GLboolean *data)
{
	DRV_CTX(ctx);
	int64_t v;
	if (get_indexed(ctx, target, index, &v))
		*data = v != 0;
}
