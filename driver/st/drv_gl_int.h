/*
 * drv_gl_int.h - what the files of the GL state tracker (drv_gl_*.c)
 * share: the GL objects, the context, the error and "unsupported"
 * helpers.  The hardware below is reached through drv_pipe.h only (the
 * objects embed its buffer, shader, streamout and query state), programs
 * are compiled through drv_shader.h.
 *
 * GL types and enum values come from the Khronos <GL/glcorearb.h> (types
 * and constants only; no GL library is linked).  Entry points are named
 * drv_gl_<Function> (drv_gl_api.h lists them all with their signatures).
 *
 * Object model (as in Mesa): buffers, shaders and programs belong to the
 * share group (struct drv_shared); VAOs, TF objects and queries to one
 * context.  Names come from a per-kind name table (struct drv_names);
 * glGen* reserves a name, the object is created at its first bind (GL's
 * rule for glIs*), glCreate* creates it at once.
 */
#ifndef DRV_GL_INT_H
#define DRV_GL_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <GL/glcorearb.h>

#include "drv.h"
#include "drv_pipe.h"
#include "drv_shader.h"

/* Compatibility-profile / ES enums glcorearb.h leaves out. */
#define DRV_GL_QUAD_STRIP                0x0008
#define DRV_GL_POLYGON                   0x0009
#define DRV_GL_PRIMITIVES_GENERATED_EXT  0x8C87
#define DRV_GL_PROGRAM_BINARY_FORMAT_MESA 0x875F  /* GL_MESA_program_binary_formats */

#define DRV_MAX_UBO_BINDINGS   36u   /* GL_MAX_UNIFORM_BUFFER_BINDINGS (radeonsi) */
#define DRV_MAX_SSBO_BINDINGS  8u
#define DRV_MAX_ATOMIC_BINDINGS 8u
#define DRV_MAX_VIEWPORTS      16u
#define DRV_MAX_SAMPLES        8u    /* GL_MAX_SAMPLES (radeonsi) */
#define DRV_MAX_COMBINED_TEXTURE_UNITS 96u /* GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS */

/* ---- names ------------------------------------------------------------------ */

/* name -> object, with reserved (generated, not yet created) names. */
struct drv_names {
	struct drv_name_slot {
		uint32_t name;
		void *obj;
		bool reserved;
		char *label;       /* glObjectLabel, NULL if none; freed with the slot */
	} *slots;
	uint32_t cap, count;       /* open addressing, cap a power of two */
	uint32_t next;             /* lowest name never handed out */
};
void drv_names_fini(struct drv_names *t);
void *drv_names_get(const struct drv_names *t, uint32_t name);
/* Whether `name` was generated or created (and not deleted). */
bool drv_names_known(const struct drv_names *t, uint32_t name);
/* Hands out `n` fresh names; false when out of memory. */
bool drv_names_gen(struct drv_names *t, int n, uint32_t *out);
bool drv_names_set(struct drv_names *t, uint32_t name, void *obj);
void drv_names_remove(struct drv_names *t, uint32_t name);
/* The label of `name` (NULL: none); set takes ownership of `label`
 * (xt_malloc'd, NULL removes) and frees it if name is unknown. */
const char *drv_names_label(const struct drv_names *t, uint32_t name);
void drv_names_set_label(struct drv_names *t, uint32_t name, char *label);
/* Calls fn for each object (in slot order). */
void drv_names_each(struct drv_names *t, void (*fn)(void *obj, void *user), void *user);

/* ---- objects ------------------------------------------------------------------ */

struct drv_buffer {
	uint32_t name;
	int refs;                   /* bindings in VAOs / TF objects + 1 while named */
	struct drv_pipe_buffer store; /* no storage before the first data store */
	int64_t size;               /* GL_BUFFER_SIZE */
	GLenum usage;
	bool immutable;
	GLbitfield storage_flags;
	/* mapping */
	bool mapped;
	int64_t map_offset, map_length;
	GLbitfield map_access;
	void *map_ptr;
};

/* Shaders and programs share one namespace: both start with name and
 * is_program. */
struct drv_shader {
	uint32_t name;
	bool is_program;            /* false */
	GLenum type;
	char *source;
	bool compiled;
	char *log;
	bool delete_pending;
	int attached;               /* programs it is attached to */
	/* ARB_gl_spirv (drv_gl_program.c) */
	uint32_t *spirv;            /* glShaderBinary's module, host order; NULL: GLSL */
	size_t spirv_words;
	uint32_t *specialized;      /* after glSpecializeShader: one entry point */
	size_t specialized_words;
};

struct drv_program_obj {
	uint32_t name;
	bool is_program;            /* true */
	struct drv_shader *attached[8];
	unsigned n_attached;
	/* set before link */
	char **tf_names;
	unsigned n_tf_names;
	GLenum tf_mode;
	char **bound_attrib_names;
	uint32_t *bound_attrib_locs;
	unsigned n_bound_attribs;
	/* link result */
	struct drv_program *prog;   /* NULL before a successful link attempt */
	bool linked;
	bool validated;
	char *log;
	uint8_t *consts;            /* default-block constant buffer (CPU copy) */
	uint32_t consts_size;
	uint64_t consts_version;    /* bumped at every uniform write */
	uint32_t ubo_binding[DRV_MAX_UBOS];
	struct drv_pipe_shader shader; /* the hardware stages of the last successful link */
	uint8_t *binary;            /* glGetProgramBinary's bytes (drv_gl_progbin.c) of */
	uint32_t binary_bytes;      /* the last successful link; NULL before */
	bool delete_pending;
	int in_use;                 /* contexts and pipelines using it */
	bool separable;             /* GL_PROGRAM_SEPARABLE */
};

/* A program pipeline object (drv_gl_pipeline.c): the separable program of
 * each stage (referenced, counted in its in_use). */
struct drv_pipeline {
	uint32_t name;
	struct drv_program_obj *stage[DRV_STAGE_COUNT];
	struct drv_program_obj *active;  /* glActiveShaderProgram: target of glUniform* */
	bool validated;
};

/* One vertex attribute (ARB_vertex_attrib_binding model). */
struct drv_vattrib {
	bool enabled;
	GLint size;                 /* 1..4, GL_BGRA */
	GLenum type;
	bool normalized;
	bool integer;               /* VertexAttribIPointer */
	bool doubles;               /* VertexAttribLPointer */
	GLuint relative_offset;
	GLuint binding;
};
struct drv_vbinding {
	struct drv_buffer *buffer;  /* NULL: client memory (compat / ES) */
	const uint8_t *client_ptr;  /* client memory when buffer is NULL */
	int64_t offset;
	GLsizei stride;             /* as the GL stores it (effective stride) */
	GLuint divisor;
};
/* The fixed-function arrays of compatibility contexts (glVertexPointer,
 * glColorPointer ...); each feeds the translator's reserved input of the
 * same built-in (drv_shader.h drv_builtin_map: gl_Vertex -> xt_Vertex). */
enum drv_ff_array {
	DRV_FF_VERTEX,
	DRV_FF_NORMAL,
	DRV_FF_COLOR,
	DRV_FF_SECONDARY_COLOR,
	DRV_FF_FOG_COORD,
	DRV_FF_TEXCOORD0,            /* + unit, glClientActiveTexture */
	DRV_FF_ARRAYS = DRV_FF_TEXCOORD0 + 8
};
#define DRV_FF_TEXTURE_UNITS 8u
#define DRV_MAX_TEXTURE_UNITS 32u
#define DRV_MAX_DRAW_BUFFERS 8u

/* Textures, renderbuffers and framebuffer objects: formats and bindings
 * only (drv_gl_fb.c). */
struct drv_fbo;
/* The window-system framebuffer of a context: the drawable made current
 * with it, as the replay describes it (drv_context_set_window). */
struct drv_window_fb {
	bool known;                         /* drv_context_set_window was called */
	uint32_t width, height, samples;
	enum drv_pipe_format color_format, zs_format;  /* NONE: no such buffer */
	bool alpha_one;                     /* the config has no alpha bits: alpha reads 1 */
	struct drv_pipe_surface color, zs;  /* storage made at the first use */
};
struct drv_fb_state {
	struct drv_window_fb window;
	struct drv_names textures, renderbuffers, framebuffers;
	struct drv_fbo *draw, *read;        /* NULL: the window-system framebuffer */
	GLenum default_read_buffer, default_draw_buffer;
	GLuint renderbuffer;                /* GL_RENDERBUFFER binding */
	unsigned active_unit;
	GLuint texture_2d[DRV_MAX_TEXTURE_UNITS];
	GLuint texture_2d_array[DRV_MAX_TEXTURE_UNITS], texture_3d[DRV_MAX_TEXTURE_UNITS];
	GLuint texture_cube[DRV_MAX_TEXTURE_UNITS];
	GLuint texture_2d_ms[DRV_MAX_TEXTURE_UNITS];   /* GL_TEXTURE_2D_MULTISAMPLE */
};

/* What clears and read-backs use (drv_gl_pixels.c). */
struct drv_pixel_state {
	float clear_color[4];
	double clear_depth;
	GLint clear_stencil;
	GLint scissor[4];            /* x, y, width, height */
	uint8_t color_mask[DRV_MAX_DRAW_BUFFERS];  /* bit c: component c written */
	bool depth_mask;
	GLuint stencil_writemask[2]; /* front, back */
	GLint pack_alignment, pack_row_length, pack_skip_rows, pack_skip_pixels;
	/* texel uploads (drv_gl_tex.c) */
	GLint unpack_alignment, unpack_row_length, unpack_skip_rows, unpack_skip_pixels;
	GLint unpack_image_height, unpack_skip_images;
	bool unpack_lsb_first, unpack_swap_bytes;  /* glBitmap / glDrawPixels (drv_gl_pixrect.c) */
	float zoom[2];               /* glPixelZoom */
};

/* The rasterization state GL keeps (drv_gl_raster.c; blending is set in
 * drv_gl_context.c). */
struct drv_raster_gl {
	GLint viewport[4];           /* x, y, width, height */
	double depth_range[2];
	GLenum cull_face, front_face;
	GLenum polygon_mode[2];      /* front, back */
	float offset_factor, offset_units;
	float point_size, line_width;
	GLenum depth_func;
	struct {
		GLenum func;
		GLint ref;
		GLuint mask;
		GLenum fail, zfail, zpass;
	} stencil[2];                /* front, back */
	GLenum blend_src[2], blend_dst[2], blend_eq[2];  /* RGB, alpha */
	float blend_color[4];
	GLenum logic_op;
};

struct drv_vao {
	uint32_t name;
	bool created;
	struct drv_vattrib attrib[DRV_MAX_ATTRIBS];
	struct drv_vbinding binding[DRV_MAX_ATTRIBS];
	struct drv_buffer *element_buffer;
	/* fixed-function arrays: format and binding of each (binding unused) */
	struct drv_vattrib ff_attrib[DRV_FF_ARRAYS];
	struct drv_vbinding ff_binding[DRV_FF_ARRAYS];
};

struct drv_xfb_binding {
	struct drv_buffer *buffer;
	int64_t offset, size;       /* size 0: whole buffer (glBindBufferBase) */
	bool range;
};
struct drv_xfb {
	uint32_t name;
	bool created;
	struct drv_xfb_binding b[DRV_MAX_TF_BUFFERS];
	struct drv_buffer *generic;  /* GL_TRANSFORM_FEEDBACK_BUFFER generic binding */
	bool active, paused;
	GLenum mode;                 /* primitiveMode of Begin */
	struct drv_program_obj *program; /* the program Begin saw */
	bool ended_once;             /* a DrawTransformFeedback source */
	struct drv_pipe_so so;       /* the targets as begin latched them, filled sizes */
	bool delete_pending;
};

struct drv_query {
	uint32_t name;
	bool created;
	GLenum target;               /* 0 until first begin (glGen*) */
	GLuint index;                /* stream */
	bool active;
	bool ever_ended;
	struct drv_pipe_query hw;    /* its counters */
	uint64_t result;
};

/* ---- context ----------------------------------------------------------------- */

struct drv_screen {
	struct drv_pipe_screen *hw;
	int contexts;
	uint64_t links;              /* successful links so far (drv_gl_program.c) */
};

struct drv_shared {
	int refs;
	struct drv_names buffers, shaders;   /* shaders and programs share one namespace */
	struct drv_names samplers, syncs, lists; /* drv_gl_label.c */
	uint64_t sync_next;
};

struct drv_generic_attrib {
	uint32_t v[4];               /* bit patterns */
	GLenum kind;                 /* GL_FLOAT, GL_INT, GL_UNSIGNED_INT, GL_DOUBLE */
};

/* Fixed-function transform state of compatibility contexts (GL 4.6
 * compatibility profile 12.1; Mesa's limits). */
#define DRV_FF_MODELVIEW_DEPTH  32u  /* GL_MAX_MODELVIEW_STACK_DEPTH */
#define DRV_FF_PROJECTION_DEPTH 32u  /* GL_MAX_PROJECTION_STACK_DEPTH */
#define DRV_FF_TEXTURE_DEPTH    10u  /* GL_MAX_TEXTURE_STACK_DEPTH */
struct drv_ff_stack {
	float m[DRV_FF_MODELVIEW_DEPTH][16]; /* column-major, m[col * 4 + row] */
	unsigned top;                /* index of the current matrix */
	unsigned max_depth;          /* entries usable */
};
/* The fixed-function programs: vertex processing without lighting, and
 * fragment processing of the primary colour, alone or with a 2D texture on
 * unit 0 in the GL_REPLACE or GL_MODULATE environment (drv_gl_compat.c). */
enum drv_ff_program { DRV_FF_PROG_COLOR, DRV_FF_PROG_TEX0_REPLACE, DRV_FF_PROG_TEX0_MODULATE, DRV_FF_PROGRAMS };
enum { DRV_FF_TEX_1D = 1, DRV_FF_TEX_2D = 2, DRV_FF_TEX_3D = 4, DRV_FF_TEX_CUBE = 8 };

struct drv_ff {
	GLenum matrix_mode;          /* GL_MODELVIEW, GL_PROJECTION, GL_TEXTURE */
	unsigned active_texture;     /* glActiveTexture unit: selects the texture matrix */
	unsigned client_active_texture; /* glClientActiveTexture unit: glTexCoordPointer */
	struct drv_ff_stack modelview, projection, texture[DRV_FF_TEXTURE_UNITS];
	struct drv_generic_attrib current[DRV_FF_ARRAYS]; /* glColor4f ... values */
	uint64_t version;            /* bumped at every matrix change */
	/* the fixed-function programs (vertex and fragment processing), one per
	 * enum drv_ff_program, each built at its first use (drv_gl_compat.c) */
	struct drv_program_obj *programs[DRV_FF_PROGRAMS][2];   /* [k][flat] */
	GLenum shade_model;          /* glShadeModel: GL_SMOOTH initially */
	/* glEnable(GL_TEXTURE_1D / 2D / 3D / CUBE_MAP) of each texture unit:
	 * DRV_FF_TEX_* bits */
	uint8_t tex_enabled[DRV_FF_TEXTURE_UNITS];
	GLenum tex_env_mode[DRV_FF_TEXTURE_UNITS];  /* GL_TEXTURE_ENV_MODE, GL_MODULATE initially */
	bool tex_env_other[DRV_FF_TEXTURE_UNITS];   /* another glTexEnv value was set */
	GLenum clamp_vertex_color;   /* glClampColor(GL_CLAMP_VERTEX_COLOR): GL_TRUE by default */
	/* the current raster position (GL 4.6 compatibility §14.7,
	 * drv_gl_pixrect.c) */
	struct drv_raster_pos {
		float win[4];        /* window x, y, z and clip w */
		bool valid;
		float color[4], texcoord[4], distance;
		/* set by a glRasterPos the sim does not compute (static
		 * storage, why), NULL otherwise */
		const char *unknown;
	} raster;
};

struct drv_context {
	struct drv_screen *screen;
	struct drv_pipe *pipe;       /* its hardware context */
	struct drv_shared *shared;
	bool gles, core;
	int major, minor;
	GLenum error;
	const char *unsupported;     /* reason the current call is not modelled */
	/* drv_context_set_block_layouts: for the links of the current call */
	const struct drv_recorded_block *rec_blocks;
	unsigned n_rec_blocks;
	bool has_rec_blocks;
	struct xt_buf layout_notes;  /* drv_context_take_layout_notes */
	bool state_call;             /* the current call drew / changed TF or queries */

	/* buffer bindings */
	struct drv_buffer *array_buffer, *copy_read, *copy_write, *pixel_pack, *pixel_unpack,
		*draw_indirect, *dispatch_indirect, *query_buffer, *uniform_buffer, *texture_buffer,
		*ssbo_buffer, *atomic_buffer, *parameter_buffer;
	struct drv_xfb_binding ubo[DRV_MAX_UBO_BINDINGS];
	struct drv_xfb_binding ssbo[DRV_MAX_SSBO_BINDINGS];
	struct drv_xfb_binding atomic[DRV_MAX_ATOMIC_BINDINGS];

	struct drv_names vaos, xfbs, queries, pipelines;
	struct drv_pipeline *pipeline;  /* glBindProgramPipeline; used when no program is */
	struct drv_fb_state fb;
	struct drv_pixel_state px;
	struct drv_raster_gl rast;
	struct drv_vao *vao, default_vao;
	struct drv_xfb *xfb, default_xfb;
	struct drv_program_obj *program;
	/* PG, PW, OVERFLOW, STREAM_OVERFLOW, SAMPLES_PASSED, ANY_SAMPLES_PASSED(_CONSERVATIVE) */
	struct drv_query *active_query[7][DRV_MAX_VERTEX_STREAMS];
	struct drv_query *cond_query;   /* of the active conditional render, or NULL */
	GLuint sampler_binding[DRV_MAX_TEXTURE_UNITS];
	GLuint list_open;               /* glNewList without glEndList yet */

	struct drv_generic_attrib generic[DRV_MAX_ATTRIBS];
	struct drv_ff ff;            /* compatibility contexts only */
	bool rasterizer_discard;
	bool provoking_first;        /* glProvokingVertex(GL_FIRST_VERTEX_CONVENTION) */
	bool primitive_restart, primitive_restart_fixed;
	GLuint restart_index;
	uint32_t enables[8];         /* other glEnable caps, for glIsEnabled */
	GLenum enable_caps[64];
	unsigned n_enable_caps;
	uint32_t last_draw_program;
};

/* Prototypes of every entry point (drv_gl_api.h). */
#define DRV_GL(ret, name, params) ret drv_gl_##name params;
#include "drv_gl_api.h"
#undef DRV_GL

/* The current context of the calling thread (drv_gl_context.c). */
struct drv_context *drv_gl_current(void);

#define DRV_CTX(ctx) struct drv_context *ctx = drv_gl_current(); if (!ctx) return
#define DRV_CTX_RET(ctx, v) struct drv_context *ctx = drv_gl_current(); if (!ctx) return (v)

/* Whether glEnable(cap) is in effect (the caps without state of their own). */
static inline bool drv_gl_cap_enabled(const struct drv_context *ctx, GLenum cap)
{
	for (unsigned i = 0; i < ctx->n_enable_caps; i++)
		if (ctx->enable_caps[i] == cap)
			return true;
	return false;
}

/* Records GL error `e` (the first one sticks until glGetError). */
void drv_gl_error(struct drv_context *ctx, GLenum e);
/* Records that the current call needs `why`, which the sim does not model. */
void drv_gl_unsupported(struct drv_context *ctx, const char *why);
/* drv_gl_label.c: sync objects by handle (drv_gl_FenceSync's counters) */
bool drv_gl_sync_create(struct drv_context *ctx, uint32_t name);
bool drv_gl_sync_exists(struct drv_context *ctx, const void *ptr);
void drv_gl_sync_delete(struct drv_context *ctx, const void *ptr);
GLint drv_gl_max_label_length(void);
/* Whether the context is desktop GL >= major.minor, or GLES >= es_major.es_minor
 * (es_major 0: never on ES). */
bool drv_gl_version_at_least(const struct drv_context *ctx, int major, int minor, int es_major,
			     int es_minor);

/* ---- drv_gl_pipeline.c ---- */
void drv_gl_pipeline_fini(struct drv_context *ctx);
/* The program whose last vertex-processing stage runs: the current program,
 * or the bound pipeline's geometry (else vertex) stage program.  Transform
 * feedback captures its varyings. */
struct drv_program_obj *drv_gl_vertex_program(struct drv_context *ctx);
/* The bound pipeline's program for a draw (the current program is none);
 * NULL after drv_gl_unsupported when the model cannot run the pipeline. */
struct drv_program_obj *drv_gl_pipeline_draw_program(struct drv_context *ctx);
/* The target of glUniform*: the current program, else the pipeline's
 * active program (glActiveShaderProgram). */
struct drv_program_obj *drv_gl_uniform_program(struct drv_context *ctx);

/* ---- drv_gl_tex.c ---- */
/* Texture and sampler parameters (GL 4.6 tables 23.15 / 23.18). */
struct drv_tex_params {
	GLenum min_filter, mag_filter, wrap_s, wrap_t, wrap_r;
	float border[4];
	float min_lod, max_lod, lod_bias;
	GLint base_level, max_level;       /* textures only */
};
void drv_tex_params_init(struct drv_tex_params *p);
/* Sets one parameter (glTexParameter* / glSamplerParameter*); false for a
 * pname that is not one of them.  `iv` or `fv` holds the value(s). */
bool drv_tex_params_set(struct drv_context *ctx, struct drv_tex_params *p, GLenum pname, const GLint *iv,
			const GLfloat *fv);
struct drv_tex;
void drv_tex_free(struct drv_context *ctx, struct drv_tex *t);
/* The texture's parameters, made at the first use (NULL: out of memory);
 * the caller may change them. */
struct drv_tex_params *drv_tex_params(struct drv_tex **t);
/* A region of a level: 2D images have z 0 and d 1. */
struct drv_tex_box {
	GLint x, y, z;
	GLsizei w, h, d;
};
/* glTexImage2D / 3D, glTexStorage2D / 3D (pixels NULL) of a level of a
 * GL_TEXTURE_2D, _2D_ARRAY (d layers) or _3D texture: its texels,
 * converted to the sampled format.  False with *why set for an upload the
 * sim cannot convert, or after a GL error. */
bool drv_tex_image(struct drv_context *ctx, struct drv_tex **t, GLenum target, GLint level, GLint internalformat,
		   GLsizei w, GLsizei h, GLsizei d, GLenum format, GLenum type, const void *pixels,
		   const char **why);
/* glTexSubImage2D / 3D; surf0: level 0's surface when it was rendered
 * into (2D textures; may be NULL), written too. */
/* glTexImage2D of cube-map face `face` (0..5, GL's order): the level is a
 * 6-layer image, the face its layer; a new size or format starts the
 * level over with this face alone (incomplete until all six match). */
bool drv_tex_cube_face(struct drv_context *ctx, struct drv_tex **t, unsigned face, GLint level,
		       GLint internalformat, GLsizei w, GLsizei h, GLenum format, GLenum type, const void *pixels,
		       const char **why);
bool drv_tex_sub_image(struct drv_context *ctx, struct drv_tex *t, GLint level, const struct drv_tex_box *b,
		       GLenum format, GLenum type, const void *pixels, struct drv_pipe_surface *surf0,
		       const char **why);
/* Width, height and depth (layers) of a level; false when it has no image. */
bool drv_tex_level_size(const struct drv_tex *t, GLint level, uint32_t s[3]);
/* glClearTexSubImage of box b of a level (GL 4.6 §8.21: the texel `data`
 * holds, zeros for NULL); surf0 as for drv_tex_sub_image.  False after a
 * GL error, or with *why set for what the sim cannot clear. */
bool drv_tex_clear(struct drv_context *ctx, struct drv_tex *t, GLint level, const struct drv_tex_box *b,
		   GLenum format, GLenum type, const void *data, struct drv_pipe_surface *surf0, const char **why);
void drv_tex_storage(struct drv_tex *t, GLsizei levels);
bool drv_tex_fill_surface(struct drv_tex *t, struct drv_pipe_surface *surf);
bool drv_tex_generate_mipmap(struct drv_context *ctx, struct drv_tex *t, const struct drv_pipe_surface *surf0,
			     const char **why);
/* The sampler view of texture t with sampler parameters sp; *why set
 * (false) when the sim cannot sample it. */
bool drv_tex_view(struct drv_context *ctx, struct drv_tex *t, const struct drv_pipe_surface *surf0,
		  const struct drv_tex_params *sp, bool integer_sampler, struct drv_pipe_sampler_view *v,
		  const char **why);

/* ---- drv_gl_fb.c ---- */
/* The internal format of level 0 of the texture bound to target on unit
 * (GL_NONE: none, or no image yet). */
GLenum drv_gl_fb_texture_format(struct drv_context *ctx, GLenum target, unsigned unit);
/* The sampler views of prog's sampler slots: the 2D texture bound to the
 * unit each sampler uniform names (in consts).  False after
 * drv_gl_unsupported / a GL error.  A texture the sim cannot sample that
 * only the fragment shader reads samples as incomplete, and *ps_why says
 * so for the pixels the draw writes (drv_gl_fb_mark_drawn); NULL when none. */
bool drv_gl_fb_sampler_views(struct drv_context *ctx, const struct drv_program *prog, const void *consts,
			     struct drv_pipe_sampler_view *views, const char **ps_why);
void drv_gl_fb_fini(struct drv_context *ctx);
/* glGet* values of framebuffer / texture bindings; 0 when pname is not one. */
unsigned drv_gl_fb_get(struct drv_context *ctx, GLenum pname, double *v);
/* glRenderbufferStorage(Multisample): samples 0 for single-sampled. */
void drv_gl_fb_renderbuffer_storage(GLenum target, GLsizei samples, GLenum internalformat,
				    GLsizei w, GLsizei h);
/* The surfaces of the bound framebuffers, their storage made at the first
 * use (GL_OUT_OF_MEMORY when it cannot be).  Colour: draw buffer i of the
 * draw framebuffer, or (read) the read buffer of the read framebuffer;
 * depth / stencil: the draw (read) framebuffer's.  NULL when there is no
 * such image; then *why, when set, names an image the sim cannot render
 * (static storage).  *alpha_one (may be NULL): alpha reads as 1 (a format
 * without alpha stored with it). */
struct drv_pipe_surface *drv_gl_fb_color(struct drv_context *ctx, bool read, unsigned i,
					 bool *alpha_one, const char **why);
struct drv_pipe_surface *drv_gl_fb_zs(struct drv_context *ctx, bool read, const char **why);
/* Hands the draw framebuffer's surfaces to the hardware layer (before a
 * draw that reaches the rasterizer). */
void drv_gl_fb_validate(struct drv_context *ctx);
/* Marks the draw framebuffer's surfaces as written by what the sim does
 * not model (`why`, static storage: "were drawn by ..."). */
void drv_gl_fb_mark_drawn(struct drv_context *ctx, const char *why);
/* Level 0 of the 2D texture bound to the active unit as a render surface
 * (made at the first use); NULL when it has no image (*why NULL) or
 * cannot be rendered into (*why says why). */
struct drv_pipe_surface *drv_gl_fb_tex2d_surface(struct drv_context *ctx, const char **why);
/* The size of the draw (read) framebuffer: the window's, or the smallest
 * of an FBO's attachments; 0 x 0 when unknown. */
void drv_gl_fb_size(struct drv_context *ctx, bool read, uint32_t *w, uint32_t *h);

/* ---- drv_gl_raster.c ---- */
void drv_gl_raster_init(struct drv_context *ctx);
/* Hands the rasterization, depth-stencil, blend, viewport and scissor
 * state to the hardware layer (before a draw of p that reaches the
 * rasterizer). */
void drv_gl_raster_validate(struct drv_context *ctx, const struct drv_program_obj *p);

/* ---- drv_gl_pixels.c ---- */
void drv_gl_pixels_init(struct drv_context *ctx);

/* ---- drv_gl_buffer.c ---- */
/* The binding point of `target` (NULL for an unknown target). */
struct drv_buffer **drv_gl_buffer_target(struct drv_context *ctx, GLenum target);
struct drv_buffer *drv_gl_buffer_lookup(struct drv_context *ctx, GLuint name);
void drv_gl_buffer_ref(struct drv_buffer *b);
void drv_gl_buffer_unref(struct drv_context *ctx, struct drv_buffer *b);
/* Makes sure the buffer has storage (a store of at least 4 bytes). */
bool drv_gl_buffer_storage(struct drv_context *ctx, struct drv_buffer *b);
/* Replaces *slot with b, keeping references. */
void drv_gl_buffer_bind_slot(struct drv_context *ctx, struct drv_buffer **slot, struct drv_buffer *b);

/* ---- drv_gl_program.c ---- */
/* The stage of a shader type; DRV_STAGE_COUNT for one the sim does not have. */
enum drv_stage drv_gl_shader_stage(GLenum type);
/* The shader `name`, or NULL with INVALID_VALUE (no object) /
 * INVALID_OPERATION (a program). */
struct drv_shader *drv_gl_shader_lookup(struct drv_context *ctx, GLuint name);
/* Back to a GLSL shader (glShaderSource) or a new binary: the SPIR-V
 * module and its specialization go. */
void drv_gl_shader_drop_spirv(struct drv_shader *s);
struct drv_program_obj *drv_gl_program_lookup(struct drv_context *ctx, GLuint name,
					      const char *func);
void drv_gl_program_unuse(struct drv_context *ctx, struct drv_program_obj *p);
/* Links p from `d` (glLinkProgram's shaders, or a program binary's):
 * link status and log, tables, constants, code upload, program binary. */
void drv_gl_program_link_desc(struct drv_context *ctx, struct drv_program_obj *p,
			      const struct drv_program_desc *d);

/* ---- drv_gl_progbin.c ---- */
/* The sim's program binary of a link from `d` (malloc'd, *bytes set);
 * NULL when out of memory. */
uint8_t *drv_gl_progbin_pack(const struct drv_program_desc *d, uint32_t *bytes);

/* Frees shader or program `obj` as its share group goes (every object of
 * the group goes, so attachments are not followed). */
void drv_gl_shader_object_free(struct drv_context *ctx, void *obj);

/* ---- drv_gl_xfb.c ---- */
void drv_gl_xfb_init_default(struct drv_context *ctx);
void drv_gl_xfb_fini_all(struct drv_context *ctx);
/* Whether TF is active and not paused. */
static inline bool drv_gl_xfb_running(const struct drv_context *ctx)
{
	return ctx->xfb->active && !ctx->xfb->paused;
}

/* ---- drv_gl_vao.c ---- */
void drv_gl_vao_init(struct drv_vao *v, uint32_t name);
void drv_gl_vao_release(struct drv_context *ctx, struct drv_vao *v);

/* ---- drv_gl_program.c: strings handed back to the application ---- */
/* GL_INFO_LOG_LENGTH of a log: its length with the NUL, 0 when empty. */
GLint drv_gl_log_length(const char *log);
/* Copies src into out (at most bufSize - 1 bytes and a NUL), as the
 * glGet*Name / *InfoLog / *Source queries do; *length gets the bytes
 * copied (may be NULL). */
void drv_gl_copy_string(const char *src, GLsizei bufSize, GLsizei *length, GLchar *out);

/* ---- drv_gl_compat.c: fixed-function state of compatibility contexts ---- */
/* Compatibility-profile matrix modes (glcorearb.h leaves them out). */
#define GL_MODELVIEW  0x1700
#define GL_PROJECTION 0x1701
void drv_gl_ff_init(struct drv_context *ctx);
/* The current context when it has fixed-function state, else NULL (after
 * GL_INVALID_OPERATION in core and ES 2+ contexts). */
struct drv_context *drv_gl_compat_ctx(void);
/* glEnable / glDisable of a client-state array (GL_VERTEX_ARRAY ...), which
 * Mesa accepts like glEnableClientState; false when cap is not one. */
bool drv_gl_ff_set_client_cap(struct drv_context *ctx, GLenum cap, bool on);
/* Whether glEnable(cap) is GL_INVALID_ENUM because cap names state only a
 * compatibility (or ES 1) context has: client-state arrays, lighting, fog,
 * alpha test, fixed-function texturing (core / ES 2+ contexts). */
bool drv_gl_ff_cap_invalid(const struct drv_context *ctx, GLenum cap);
/* glIsEnabled of a client-state array; false when cap is not one. */
bool drv_gl_ff_client_cap(const struct drv_context *ctx, GLenum cap, bool *on);
/* glGet* of fixed-function state into v (at most 16); 0 when pname is not one. */
unsigned drv_gl_ff_get(struct drv_context *ctx, GLenum pname, double *v);
/* The initial raster position, and the glGet* answers of the raster
 * position and pixel rectangle state (drv_gl_pixrect.c): how many values,
 * 0 for another pname. */
void drv_gl_raster_pos_init(struct drv_context *ctx);
unsigned drv_gl_raster_pos_get(struct drv_context *ctx, GLenum pname, double *v);
/* Where the vertex input at location loc of program prog (may be NULL) takes
 * its data from: the VAO's generic attribute loc, or for a reserved
 * built-in input (xt_Vertex, xt_Color ...) the fixed-function array and
 * current value.  Pointers borrow from the context. */
struct drv_vsource {
	const struct drv_vattrib *a;
	const struct drv_vbinding *b;
	const struct drv_generic_attrib *current; /* when a is disabled or has no data */
};
void drv_gl_vertex_source(const struct drv_context *ctx, const struct drv_program *prog,
			  unsigned loc, struct drv_vsource *out);
/* The same as the hardware layer takes it (drv_pipe.h). */
void drv_gl_vertex_input(const struct drv_context *ctx, const struct drv_program *prog,
			 unsigned loc, struct drv_pipe_vertex_input *out);
/* ---- drv_gl_matrix.c: the fixed-function matrix stacks ---- */
/* An empty stack of depth max_depth holding the identity. */
void drv_gl_ff_stack_init(struct drv_ff_stack *s, unsigned max_depth);
/* Writes the fixed-function uniforms program p reads (the reserved
 * xt_ModelViewProjectionMatrix ...) into its constants, bumping
 * consts_version when they change.  False (after drv_gl_unsupported) for a
 * built-in uniform whose state the sim does not model. */
bool drv_gl_ff_constants(struct drv_context *ctx, struct drv_program_obj *p);
/* The program a draw runs: the current one, else the bound pipeline's, or
 * in a compatibility context without either the fixed-function vertex
 * program.  NULL (after
 * drv_gl_unsupported or GL_OUT_OF_MEMORY) when there is none. */
struct drv_program_obj *drv_gl_draw_program(struct drv_context *ctx);
void drv_gl_ff_fini(struct drv_context *ctx);
/* glShadeModel(GL_FLAT) for a program (not a fixed-function one) whose
 * fragments read the compatibility colour varyings, which the driver does
 * not make flat: the sentence of the pixels' report; NULL otherwise. */
const char *drv_gl_ff_shade_model_unmodelled(const struct drv_context *ctx, const struct drv_program_obj *p);
/* Whether a texture target is enabled for fixed-function texturing on
 * some unit (glEnable(GL_TEXTURE_2D) ...): what the fixed-function
 * programs alone apply, a program without a fragment shader and a pixel
 * rectangle (drv_gl_pixrect.c) do not. */
bool drv_gl_ff_texturing(const struct drv_context *ctx);
/* Whether p is one of the fixed-function programs. */
bool drv_gl_is_ff_program(const struct drv_context *ctx, const struct drv_program_obj *p);
/* The fixed-function fragment state (texturing) the fixed-function program
 * p does not apply, as the sentence of the pixels' report; NULL if none. */
const char *drv_gl_ff_fragment_unmodelled(struct drv_context *ctx, const struct drv_program_obj *p);
/* glEnable / glDisable / glIsEnabled of the texturing caps of the active
 * unit (compatibility): false when cap is not one. */
bool drv_gl_ff_set_tex_cap(struct drv_context *ctx, GLenum cap, bool on);
bool drv_gl_ff_tex_cap(const struct drv_context *ctx, GLenum cap, bool *on);
/* Whether a draw with prog clamps vertex colours as the state asks (the
 * compiler clamps every colour a compatibility-profile vertex or geometry
 * shader writes, drv_glsl_translate.c); false after drv_gl_unsupported when
 * glClampColor turned clamping off. */
bool drv_gl_vertex_color_clamp_ok(struct drv_context *ctx, const struct drv_program *prog);

/* ---- drv_gl_query.c ---- */
void drv_gl_query_fini_all(struct drv_context *ctx);

/* Submits pending GPU work (before the CPU reads GPU results). */
void drv_gl_flush(struct drv_context *ctx);

#endif
