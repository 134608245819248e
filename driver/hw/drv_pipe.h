/*
 * drv_pipe.h - the hardware layer as the GL state tracker sees it: one
 * hardware-neutral interface in the manner of Gallium's pipe_screen and
 * pipe_context.  Behind it, radeonsi-style PM4 for a GFX8 GPU (drv_hw.h,
 * drv_pm4_*.c) reached through a winsys (drv_winsys.h); in front of it
 * nothing of GL: primitives, vertex formats and query kinds are this
 * header's own enums, buffers are (buffer, offset, size), and the programs
 * are the compiler's output (drv_shader.h).  The state tracker
 * (driver/st/) includes this header and no other of the hardware layer.
 *
 * Objects:
 *   drv_pipe_screen   one GPU: its command stream, shared by its contexts
 *   drv_pipe          one context's hardware state (pipe_context)
 *   drv_pipe_buffer   a buffer in GPU memory (pipe_resource)
 *   drv_pipe_shader   a program's binaries in GPU memory (the CSO of
 *                     create_vs_state)
 *   drv_pipe_so       a transform feedback object's streamout state
 *                     (its targets and filled-size slots)
 *   drv_pipe_query    a query's counter slots
 *   drv_pipe_surface  a render target or depth / stencil buffer
 * The last five are embedded in the state tracker's objects; their members
 * belong to the hardware layer, and all start zeroed ("nothing yet").
 *
 * Errors: what a context's call cannot do is reported through the
 * callbacks given to drv_pipe_create (out of memory; a feature the model
 * does not have, named), as the call happens, and the call does as much as
 * is right.  Functions returning bool return false when the operation did
 * not happen (it was reported).
 *
 * Determinism: the same calls give the same PM4 and the same GPU memory
 * (given a deterministic winsys); nothing here reads a clock or hands a
 * host pointer to the GPU.
 */
#ifndef DRV_PIPE_H
#define DRV_PIPE_H

#include <stdbool.h>
#include <stdint.h>

#include "drv_shader.h"
#include "xt_rc.h"

struct drv_winsys;
struct drv_bo;               /* the hardware layer's buffer object */

/* ---- screen ------------------------------------------------------------------- */

struct drv_pipe_screen;

/* A screen on the GPU behind `ws` (borrowed: it must outlive the screen).
 * XT_ERR_NOMEM when out of memory. */
enum xt_rc drv_pipe_screen_create(struct drv_winsys *ws, struct drv_pipe_screen **out);
/* Frees the screen; every context must be destroyed first.  NULL is a no-op. */
void drv_pipe_screen_destroy(struct drv_pipe_screen *screen);

/* ---- buffers ------------------------------------------------------------------ */

/* A buffer in GPU memory; no storage until drv_pipe_buffer_alloc or
 * drv_pipe_buffer_storage (which a draw, streamout or query call that
 * uses the buffer also does). */
struct drv_pipe_buffer {
	struct drv_bo *bo;
};

/* Gives `buf` a new zero-filled store of size_bytes (0: a 4-byte store)
 * holding `data` when it is not NULL, and frees the old one; false (the
 * old store kept) when out of memory. */
bool drv_pipe_buffer_alloc(struct drv_pipe_screen *screen, struct drv_pipe_buffer *buf,
			   uint64_t size_bytes, const void *data);
/* Gives `buf` a 4-byte store when it has none; false when out of memory. */
bool drv_pipe_buffer_storage(struct drv_pipe_screen *screen, struct drv_pipe_buffer *buf);
/* Frees the store (none afterwards). */
void drv_pipe_buffer_release(struct drv_pipe_screen *screen, struct drv_pipe_buffer *buf);
/* The store's bytes for the CPU (GPU memory is always mapped), NULL when
 * there is none.  What the GPU wrote is there after drv_pipe_flush. */
uint8_t *drv_pipe_buffer_map(const struct drv_pipe_buffer *buf);

/* ---- shaders ------------------------------------------------------------------ */

/* A linked program's hardware stages in GPU memory. */
struct drv_pipe_shader {
	struct drv_bo *code;
};

/* Uploads the binaries of `prog` (the VS, or ES + GS + copy shader),
 * replacing what `sh` held; a program without vertex processing leaves
 * `sh` empty.  False when out of memory. */
bool drv_pipe_shader_upload(struct drv_pipe_screen *screen, struct drv_pipe_shader *sh,
			    const struct drv_program *prog);
void drv_pipe_shader_release(struct drv_pipe_screen *screen, struct drv_pipe_shader *sh);

/* ---- compute (drv_pm4_cs.c, docs/compute.md) ------------------------------------ */

/* A compute shader in GPU memory with what the SPI needs to launch it.
 * Its ABI: user SGPRs s[0:1] = the descriptor table's VA (drv_shader.h),
 * s[2:3] = the VA of gl_NumWorkGroups (three dwords); then the workgroup
 * id X, Y, Z in s4..s6; the thread's id in the group in v0..v2. */
struct drv_pipe_compute {
	struct drv_bo *code;
	uint32_t num_sgprs, num_vgprs;
	uint32_t block[3];         /* local size (layout(local_size_*)) */
	uint32_t lds_bytes;        /* shared variables */
};

/* Uploads `bin` (replacing what `cs` held); false when out of memory. */
bool drv_pipe_compute_upload(struct drv_pipe_screen *screen, struct drv_pipe_compute *cs,
			     const struct drv_stage_binary *bin, const uint32_t block[3], uint32_t lds_bytes);
void drv_pipe_compute_release(struct drv_pipe_screen *screen, struct drv_pipe_compute *cs);

struct drv_pipe;

/* One glDispatchCompute / glDispatchComputeIndirect (pipe_grid_info). */
struct drv_pipe_grid {
	uint32_t groups[3];        /* workgroups along X, Y, Z (direct) */
	struct drv_pipe_buffer *indirect;  /* non-NULL: the counts are three dwords there */
	uint64_t indirect_offset;  /* bytes, a multiple of 4 */
	uint64_t desc_table_va;    /* user SGPRs s[0:1] */
};

/* Emits the compute state and the dispatch packet.  False (reported) when
 * the model cannot run it. */
bool drv_pipe_launch_grid(struct drv_pipe *pipe, const struct drv_pipe_compute *cs,
			  const struct drv_pipe_grid *grid);

/* ---- surfaces ------------------------------------------------------------------ */

/* The formats of render targets and depth / stencil buffers. */
enum drv_pipe_format {
	DRV_FORMAT_NONE,
	DRV_FORMAT_RGBA8_UNORM,
	DRV_FORMAT_RG8_UNORM,
	DRV_FORMAT_R8_UNORM,
	DRV_FORMAT_RGBA16_FLOAT,
	DRV_FORMAT_RGBA32_FLOAT,
	DRV_FORMAT_RG32_FLOAT,
	DRV_FORMAT_R32_FLOAT,
	DRV_FORMAT_RGBA32_UINT,
	DRV_FORMAT_RGBA32_SINT,
	DRV_FORMAT_R32_UINT,
	DRV_FORMAT_R32_SINT,
	DRV_FORMAT_Z16_UNORM,
	DRV_FORMAT_Z24_UNORM_S8_UINT, /* depth in the low 24 bits of a dword; stencil plane */
	DRV_FORMAT_Z24_UNORM,         /* the same without stencil */
	DRV_FORMAT_Z32_FLOAT,
	DRV_FORMAT_Z32_FLOAT_S8_UINT, /* float depth; stencil plane */
	DRV_FORMAT_S8_UINT,           /* a stencil plane only */
};

/* What a format holds. */
struct drv_pipe_format_info {
	unsigned bytes;               /* per sample of the colour / depth plane (0: none) */
	unsigned components;          /* colour: 1..4; depth / stencil formats: 0 */
	bool is_float, is_uint, is_sint;
	bool depth, stencil;
};
/* The description of `f` (all zero for DRV_FORMAT_NONE). */
const struct drv_pipe_format_info *drv_pipe_format_info(enum drv_pipe_format f);

/*
 * A 2D image the GPU renders into: a colour render target or a depth /
 * stencil buffer, linear (docs/isa.md, "Pixel shaders": rows of `pitch`
 * pixels, row 0 first in memory = GL window y 0; the samples of a pixel
 * consecutive; the stencil plane, one byte a sample, after the depth
 * plane).  Embedded in the state tracker's textures and renderbuffers,
 * zeroed = no storage.
 */
struct drv_pipe_surface {
	struct drv_bo *bo;
	enum drv_pipe_format format;
	uint32_t width, height, samples;
	uint32_t pitch;               /* pixels between rows, a multiple of 8 */
	uint64_t stencil_offset;      /* bytes: the stencil plane in bo (formats with stencil) */
	/* NULL while the contents are what GL says; else (static storage) what
	 * wrote them that the model does not do, so that a read-back can say
	 * it is not faithful */
	const char *unfaithful;
};

/* Gives `surf` a new zero-filled store (and frees the old one); false when
 * out of memory (nothing kept). */
bool drv_pipe_surface_alloc(struct drv_pipe_screen *screen, struct drv_pipe_surface *surf,
			    enum drv_pipe_format format, uint32_t width, uint32_t height,
			    uint32_t samples);
void drv_pipe_surface_release(struct drv_pipe_screen *screen, struct drv_pipe_surface *surf);

/* The position the framebuffer state programs for sample `index` of a
 * `samples`-sample target (radeonsi's standard 2x / 4x / 8x patterns), in
 * pixels from the pixel's lower-left corner, as glGetMultisamplefv
 * (GL_SAMPLE_POSITION) reports it; false for a count or index it has no
 * sample of. */
bool drv_pipe_sample_position(uint32_t samples, uint32_t index, float xy[2]);

/* A rectangle of pixels, x0 <= x < x1, y0 <= y < y1 (GL window coordinates). */
struct drv_pipe_rect {
	int32_t x0, y0, x1, y1;
};

/* A colour value as a render target's format takes it: floats for
 * normalized and float formats, integers for integer ones. */
union drv_pipe_color {
	float f[4];
	uint32_t u[4];
	int32_t i[4];
};

/* What a draw renders into (pipe_framebuffer_state). */
struct drv_pipe_framebuffer {
	struct drv_pipe_surface *cbufs[8];   /* NULL: no render target there */
	struct drv_pipe_surface *zsbuf;      /* depth and / or stencil, NULL: none */
};

/* ---- contexts ----------------------------------------------------------------- */

struct drv_pipe_report {
	void *user;
	void (*out_of_memory)(void *user);
	/* `why` names what the model does not do; static storage. */
	void (*unsupported)(void *user, const char *why);
};

struct drv_pipe;

/*
 * A context on `screen`, reporting through `report` (copied).  Its first
 * commands (the IB preamble) are submitted at once.  XT_ERR_NOMEM when out
 * of memory.
 */
enum xt_rc drv_pipe_create(struct drv_pipe_screen *screen, const struct drv_pipe_report *report,
			   struct drv_pipe **out);
/* Frees the context's GPU memory and the context.  NULL is a no-op. */
void drv_pipe_destroy(struct drv_pipe *pipe);
/* Submits the pending commands (before the CPU reads GPU results). */
void drv_pipe_flush(struct drv_pipe *pipe);

/*
 * What the context did to colour surfaces since the last take, for a
 * replay that checks where the GPU rasterized (drv.h): the GPU addresses
 * of the surfaces it cleared whole (every pixel and component: what was
 * drawn there is gone) and of the last colour surface it read back.
 */
#define DRV_PIPE_CLEARED_MAX 16
#define DRV_PIPE_LOOSE_MAX 64
struct drv_pipe_surface_events {
	uint64_t cleared[DRV_PIPE_CLEARED_MAX];
	unsigned ncleared;
	bool more_cleared;            /* more surfaces were cleared than listed */
	uint64_t read;                /* 0: none */
	/* rectangles of colour surfaces written with values GL does not pin
	 * down (drv_pipe_note_loose) */
	struct drv_pipe_loose {
		uint64_t va;
		struct drv_pipe_rect rect;
		bool undefined;       /* undefined, else implementation-dependent */
	} loose[DRV_PIPE_LOOSE_MAX];
	unsigned nloose;
	bool more_loose;              /* more were noted than listed */
	/* unscaled blits and copies (drv_pipe_note_copy): `rect` of surface
	 * dst_va now holds src_va's pixels moved by window x -> mx * x + ox,
	 * y -> my * y + oy (mx, my: 1, or -1 mirrored) */
	struct drv_pipe_copy {
		uint64_t src_va, dst_va;
		struct drv_pipe_rect rect;
		int32_t mx, my, ox, oy;
	} copies[DRV_PIPE_LOOSE_MAX];
	unsigned ncopies;
	bool more_copies;
};
void drv_pipe_take_surface_events(struct drv_pipe *pipe, struct drv_pipe_surface_events *out);
/* Notes that `rect` of colour surface `dst` (clipped to it) was written
 * with the pixels of `src` moved as drv_pipe_copy says (a 1:1 blit). */
void drv_pipe_note_copy(struct drv_pipe *pipe, const struct drv_pipe_surface *src,
			const struct drv_pipe_surface *dst, const struct drv_pipe_rect *rect, int32_t mx,
			int32_t my, int32_t ox, int32_t oy);
/* Notes that `rect` of colour surface `surf` (clipped to it) now holds
 * values GL leaves undefined, or (undefined false) computes in an
 * implementation-dependent manner: a blit from outside its source, a
 * multisample resolve (GL 4.6 §18.3.1). */
void drv_pipe_note_loose(struct drv_pipe *pipe, const struct drv_pipe_surface *surf,
			 const struct drv_pipe_rect *rect, bool undefined);

/*
 * One API call's worth of commands: call_begin starts collecting the
 * dwords submitted (and, when another context used the GPU since this one
 * did, makes the next draw emit its whole state again); call_end submits
 * what is pending and returns the dwords (borrowed until the next
 * call_begin; *n_dw may be 0).
 */
void drv_pipe_call_begin(struct drv_pipe *pipe);
void drv_pipe_call_end(struct drv_pipe *pipe, const uint32_t **pm4, uint32_t *n_dw);

/* ---- state -------------------------------------------------------------------- */

/* Primitives are discarded after streamout (GL_RASTERIZER_DISCARD). */
void drv_pipe_set_rasterizer_discard(struct drv_pipe *pipe, bool on);
/* The provoking-vertex convention (glProvokingVertex): first_vertex true for
 * GL_FIRST_VERTEX_CONVENTION.  It orders the vertices TF records and a GS
 * receives for strips, fans, quads and polygons. */
void drv_pipe_set_provoking_vertex(struct drv_pipe *pipe, bool first_vertex);
/* Primitive restart: on / off, at `index`, or (fixed_index) at the index
 * type's maximum; takes effect at the next indexed draw. */
void drv_pipe_set_primitive_restart(struct drv_pipe *pipe, bool enable, bool fixed_index,
				    uint32_t index);
/* The bound programs changed: the next draw emits its shader state even
 * when it runs the same binaries. */
void drv_pipe_shaders_changed(struct drv_pipe *pipe);

/* Per-fragment and rasterization state, Gallium's pipe_*_state in
 * shape.  The enums keep GL's orders (func: NEVER .. ALWAYS as GL_NEVER +
 * i; logic ops: CLEAR .. SET as GL_CLEAR + i), which the hardware layer
 * maps to GFX8's encodings. */
enum drv_pipe_func {
	DRV_FUNC_NEVER, DRV_FUNC_LESS, DRV_FUNC_EQUAL, DRV_FUNC_LEQUAL,
	DRV_FUNC_GREATER, DRV_FUNC_NOTEQUAL, DRV_FUNC_GEQUAL, DRV_FUNC_ALWAYS,
};
enum drv_pipe_stencil_op {
	DRV_STENCIL_KEEP, DRV_STENCIL_ZERO, DRV_STENCIL_REPLACE, DRV_STENCIL_INCR,
	DRV_STENCIL_DECR, DRV_STENCIL_INVERT, DRV_STENCIL_INCR_WRAP, DRV_STENCIL_DECR_WRAP,
};
enum drv_pipe_blend_factor {
	DRV_BLEND_ZERO, DRV_BLEND_ONE, DRV_BLEND_SRC_COLOR, DRV_BLEND_INV_SRC_COLOR,
	DRV_BLEND_SRC_ALPHA, DRV_BLEND_INV_SRC_ALPHA, DRV_BLEND_DST_ALPHA, DRV_BLEND_INV_DST_ALPHA,
	DRV_BLEND_DST_COLOR, DRV_BLEND_INV_DST_COLOR, DRV_BLEND_SRC_ALPHA_SATURATE,
	DRV_BLEND_CONST_COLOR, DRV_BLEND_INV_CONST_COLOR, DRV_BLEND_CONST_ALPHA,
	DRV_BLEND_INV_CONST_ALPHA, DRV_BLEND_SRC1_COLOR, DRV_BLEND_INV_SRC1_COLOR,
	DRV_BLEND_SRC1_ALPHA, DRV_BLEND_INV_SRC1_ALPHA,
};
enum drv_pipe_blend_func {
	DRV_BLEND_ADD, DRV_BLEND_SUBTRACT, DRV_BLEND_REVERSE_SUBTRACT, DRV_BLEND_MIN, DRV_BLEND_MAX,
};
enum drv_pipe_fill { DRV_FILL_FILL, DRV_FILL_LINE, DRV_FILL_POINT };

struct drv_pipe_rasterizer_state {
	bool cull_front, cull_back;
	bool front_ccw;                  /* counter-clockwise triangles are front-facing */
	enum drv_pipe_fill fill_front, fill_back;
	bool offset_point, offset_line, offset_tri;  /* polygon offset per fill mode */
	float offset_units, offset_scale, offset_clamp;
	float point_size, line_width;    /* pixels */
	bool point_size_per_vertex;      /* the shader's gl_PointSize */
	/* a point whose vertex is outside the view volume's x / y planes is
	 * discarded (GL), else drawn as far as it covers the window (GLES) */
	bool point_clip_xy;
	bool scissor;                    /* the scissor test */
	unsigned clip_plane_enable;      /* bit i: user clip plane / distance i (0..7) */
	bool depth_clamp;
	/* per-fragment state in effect that the hardware layer cannot apply
	 * (static storage, a reason), NULL: none; draws then bind no pixel
	 * shader and their pixels are reported as not faithful */
	const char *unmodelled;
};

struct drv_pipe_depth_stencil_state {
	bool depth_enable, depth_write;
	enum drv_pipe_func depth_func;
	struct drv_pipe_stencil_face {
		bool enabled;
		enum drv_pipe_func func;
		enum drv_pipe_stencil_op fail_op, zfail_op, zpass_op;
		uint8_t valuemask, writemask, ref;
	} stencil[2];                    /* front, back */
};

struct drv_pipe_blend_state {
	struct drv_pipe_rt_blend {
		bool enable;
		enum drv_pipe_blend_func rgb_func, alpha_func;
		enum drv_pipe_blend_factor rgb_src, rgb_dst, alpha_src, alpha_dst;
		uint8_t colormask;           /* bit c: component c written */
	} rt[8];
	bool logicop_enable;
	unsigned logicop;                /* 0 .. 15: GL_CLEAR .. GL_SET */
	float color[4];                  /* the constant colour */
};

/* Window = ndc * scale + translate (viewport 0); depth clamped to
 * [zmin, zmax]. */
struct drv_pipe_viewport_state {
	float scale[3], translate[3];
	float zmin, zmax;
};

/* The state the next draws that reach the rasterizer use (copied). */
void drv_pipe_set_rasterizer(struct drv_pipe *pipe, const struct drv_pipe_rasterizer_state *rs);
void drv_pipe_set_depth_stencil(struct drv_pipe *pipe, const struct drv_pipe_depth_stencil_state *dsa);
void drv_pipe_set_blend(struct drv_pipe *pipe, const struct drv_pipe_blend_state *blend);
void drv_pipe_set_viewport(struct drv_pipe *pipe, const struct drv_pipe_viewport_state *vp);
/* The scissor rectangle (used while the rasterizer state's scissor is on). */
void drv_pipe_set_scissor(struct drv_pipe *pipe, const struct drv_pipe_rect *scissor);
/* User clip planes in clip space (a, b, c, d), plane i used when bit i of
 * the rasterizer state's clip_plane_enable is set. */
void drv_pipe_set_clip_planes(struct drv_pipe *pipe, const float planes[6][4]);

/* The surfaces the next draws render into (borrowed until the next call). */
void drv_pipe_set_framebuffer(struct drv_pipe *pipe, const struct drv_pipe_framebuffer *fb);

/* Clears `rect` (clipped to the surface) of a render target to `value`,
 * in the channels of `mask` (bit c: component c); pipe_context::
 * clear_render_target with GL's colour mask. */
void drv_pipe_clear_color(struct drv_pipe *pipe, struct drv_pipe_surface *surf,
			  const struct drv_pipe_rect *rect, unsigned mask,
			  const union drv_pipe_color *value);
/* Clears `rect` of a depth / stencil buffer: depth to `depth` (clamped to
 * [0, 1]) when clear_depth, the stencil bits of stencil_mask to
 * `stencil`. */
void drv_pipe_clear_depth_stencil(struct drv_pipe *pipe, struct drv_pipe_surface *surf,
				  const struct drv_pipe_rect *rect, bool clear_depth, double depth,
				  uint8_t stencil_mask, uint8_t stencil);

/* What drv_pipe_surface_read returns per pixel. */
enum drv_pipe_read {
	DRV_READ_COLOR,              /* union drv_pipe_color: RGBA, missing components
				      * 0 (alpha 1) */
	DRV_READ_DEPTH,              /* f[0]: depth in [0, 1]; fixed-point formats also
				      * the stored value u[1] of u[2] bits (u[2] 0: float) */
	DRV_READ_STENCIL,            /* u[0] */
};
/* Reads the pixels of `rect` (inside the surface) after the GPU's work
 * before it, row by row from y0, into out (rect's width x height values);
 * sample 0 of multisampled surfaces.  False (reported) when the surface
 * has no such data. */
bool drv_pipe_surface_read(struct drv_pipe *pipe, struct drv_pipe_surface *surf,
			   const struct drv_pipe_rect *rect, enum drv_pipe_read what,
			   union drv_pipe_color *out);

/* ---- draws -------------------------------------------------------------------- */

enum drv_pipe_prim {
	DRV_PRIM_POINTS,
	DRV_PRIM_LINES,
	DRV_PRIM_LINE_LOOP,
	DRV_PRIM_LINE_STRIP,
	DRV_PRIM_TRIANGLES,
	DRV_PRIM_TRIANGLE_STRIP,
	DRV_PRIM_TRIANGLE_FAN,
	DRV_PRIM_QUADS,
	DRV_PRIM_QUAD_STRIP,
	DRV_PRIM_POLYGON,
	DRV_PRIM_LINES_ADJACENCY,
	DRV_PRIM_LINE_STRIP_ADJACENCY,
	DRV_PRIM_TRIANGLES_ADJACENCY,
	DRV_PRIM_TRIANGLE_STRIP_ADJACENCY,
};

/* The component type of a vertex array. */
enum drv_pipe_vertex_type {
	DRV_VTYPE_UNKNOWN,
	DRV_VTYPE_BYTE, DRV_VTYPE_UBYTE, DRV_VTYPE_SHORT, DRV_VTYPE_USHORT,
	DRV_VTYPE_INT, DRV_VTYPE_UINT, DRV_VTYPE_HALF_FLOAT, DRV_VTYPE_FLOAT,
	DRV_VTYPE_FIXED,                 /* 16.16 */
	DRV_VTYPE_DOUBLE,
	DRV_VTYPE_INT_2_10_10_10,        /* packed, w in the top 2 bits */
	DRV_VTYPE_UINT_2_10_10_10,
	DRV_VTYPE_UFLOAT_10F_11F_11F,    /* packed unsigned floats */
};

/* How the 4 dwords of a current attribute value read. */
enum drv_pipe_value_kind {
	DRV_VALUE_FLOAT,
	DRV_VALUE_INT,
	DRV_VALUE_UINT,
};

/* What feeds one vertex shader input location. */
struct drv_pipe_vertex_input {
	bool enabled;                    /* an array feeds it (else the current value) */
	/* the array's format */
	enum drv_pipe_vertex_type type;
	unsigned components;             /* 1..4 */
	bool bgra;                       /* components in BGRA order (4 components) */
	bool normalized;                 /* fixed point to [0, 1] / [-1, 1] */
	bool integer;                    /* integers stay integers */
	bool doubles;                    /* 64-bit shader inputs (glVertexAttribLPointer):
					  * fetched raw, at most 2 components per location */
	uint32_t relative_offset;        /* bytes from the binding's start to the first element */
	/* the array's memory: a buffer, or else client memory */
	struct drv_pipe_buffer *buffer;
	int64_t buffer_size;             /* bytes the buffer holds */
	const uint8_t *client_ptr;
	int64_t offset;                  /* of the binding in the buffer */
	uint32_t stride;                 /* bytes between elements */
	uint32_t divisor;                /* 0: per vertex, else per `divisor` instances */
	/* the current value, when not enabled or without memory (borrowed for the draw) */
	const uint32_t *current;         /* 4 dwords */
	enum drv_pipe_value_kind current_kind;
};

/* Whether the hardware cannot fetch the format of `v` and the draw
 * converts it to 32-bit floats on upload (which needs the range of
 * vertices the draw reads, drv_pipe_draw.min_index / max_index). */
bool drv_pipe_vertex_translated(const struct drv_pipe_vertex_input *v);

/* A uniform block binding: the range of `buffer` a program's block reads. */
struct drv_pipe_ubo {
	struct drv_pipe_buffer *buffer;  /* NULL: nothing bound */
	int64_t offset;
	int64_t size;                    /* bytes, clamped to the buffer (may be <= 0) */
};

/* Everything a draw reads besides the draw itself. */
/* ---- textures ----------------------------------------------------------------- */

enum drv_pipe_wrap {
	DRV_WRAP_REPEAT, DRV_WRAP_MIRRORED_REPEAT, DRV_WRAP_CLAMP_TO_EDGE, DRV_WRAP_MIRROR_CLAMP_TO_EDGE,
	DRV_WRAP_CLAMP_TO_BORDER,
};
enum drv_pipe_mip_filter { DRV_MIP_NONE, DRV_MIP_NEAREST, DRV_MIP_LINEAR };
/* the border colours the hardware has without a border-colour table */
enum drv_pipe_border { DRV_BORDER_TRANSPARENT_BLACK, DRV_BORDER_OPAQUE_BLACK, DRV_BORDER_OPAQUE_WHITE };
/* swizzle sources */
enum { DRV_SWIZZLE_R, DRV_SWIZZLE_G, DRV_SWIZZLE_B, DRV_SWIZZLE_A, DRV_SWIZZLE_0, DRV_SWIZZLE_1 };

/*
 * What a sampler slot of a program samples (Gallium's sampler view and
 * sampler state in one): a 2D, 2D array or 3D image with `levels` mip
 * levels laid out as docs/isa.md "Images" says (linear, each level right
 * after the previous one, rows of max(1, pitch >> l) texels, its slices
 * or layers one after the other), from offset 0 of `buffer`, and
 * how to filter it.  buffer NULL: an incomplete texture, which samples
 * (0, 0, 0, 1) (GL 4.6 §11.1.3.5); `integer` says whether the sampler
 * returns integers.
 */
enum drv_pipe_tex_target {
	DRV_TEX_2D, DRV_TEX_2D_ARRAY, DRV_TEX_3D, DRV_TEX_CUBE, /* 6 layers, faces in GL's order */
	DRV_TEX_2D_MSAA                                          /* `samples` per texel, consecutive */
};

struct drv_pipe_sampler_view {
	struct drv_pipe_buffer *buffer;
	bool integer;
	enum drv_pipe_tex_target target;
	uint32_t depth;                  /* 3D depth or array layers of level 0, else 1 */
	enum drv_pipe_format format;
	bool srgb;                       /* RGBA8_UNORM texels sRGB-encoded (decoded when sampled) */
	uint32_t width, height, pitch;   /* of level 0, texels */
	unsigned levels;                 /* 1 .. 15 */
	unsigned samples;                /* DRV_TEX_2D_MSAA: 2, 4 or 8 */
	uint8_t swizzle[4];              /* DRV_SWIZZLE_* per result channel */
	enum drv_pipe_wrap wrap_s, wrap_t, wrap_r;
	bool mag_linear, min_linear;
	enum drv_pipe_mip_filter mip;
	float min_lod, max_lod, lod_bias;
	enum drv_pipe_border border;
};

struct drv_pipe_draw_state {
	const struct drv_program *prog;  /* linked, with vertex processing */
	struct drv_pipe_shader *shader;  /* its binaries */
	/* the default-block uniforms; version changes whenever the bytes do */
	const void *consts;
	uint32_t consts_size;
	uint64_t consts_version;
	struct drv_pipe_ubo ubo[DRV_MAX_UBOS];                /* per block of prog */
	struct drv_pipe_vertex_input vertex[DRV_MAX_ATTRIBS]; /* per input location */
	struct drv_pipe_sampler_view tex[DRV_MAX_SAMPLERS];   /* per sampler slot of prog */
};

struct drv_pipe_draw {
	enum drv_pipe_prim prim;
	uint32_t count;                  /* vertices / indices */
	uint32_t instances;
	int32_t base_vertex;             /* = first for non-indexed draws */
	uint32_t base_instance;
	/* indexed: indices in a buffer, or in client memory (user_indices) */
	bool indexed;
	unsigned index_size;             /* bytes: 1, 2, 4 */
	struct drv_pipe_buffer *index_buffer;
	uint64_t index_offset;           /* of the first index in index_buffer */
	const void *user_indices;
	uint32_t index_bytes;            /* of user_indices */
	uint32_t index_max;              /* indices readable from the first */
	uint32_t min_index, max_index;   /* the range read (client arrays, translated formats) */
	bool have_range;
	/* indirect: the DRAW_(INDEXED_)INDIRECT command at indirect_offset */
	struct drv_pipe_buffer *indirect_buffer;
	uint32_t indirect_offset;
	/* DrawTransformFeedback: the vertices `so_source` captured for so_stream */
	struct drv_pipe_so *so_source;
	unsigned so_stream;
};

/*
 * A draw is three calls, in this order, each false when the draw stops
 * there (reported).  They are the steps radeonsi's si_draw_vbo takes, cut
 * where the state tracker has a word to say in between: after
 * drv_pipe_draw_begin the draw counts as one (the call's register state is
 * worth a snapshot), after drv_pipe_draw_reserve the fixed-function
 * matrices are written into the constants.
 *
 *   drv_pipe_draw_begin    the GPU is free of other contexts' streamout and
 *                          queries; prog (NULL: none) has vertex
 *                          processing within the hardware's limits; the GS
 *                          rings are grown for it
 *   drv_pipe_draw_reserve  room for everything the draw uploads (descriptors,
 *                          constants, client arrays), user indices uploaded
 *   drv_pipe_draw          descriptors, constants, state and the draw packets
 */
bool drv_pipe_draw_begin(struct drv_pipe *pipe, const struct drv_program *prog,
			 const struct drv_pipe_shader *shader);
bool drv_pipe_draw_reserve(struct drv_pipe *pipe, const struct drv_pipe_draw_state *state,
			   const struct drv_pipe_draw *draw);
bool drv_pipe_draw(struct drv_pipe *pipe, const struct drv_pipe_draw_state *state,
		   const struct drv_pipe_draw *draw);

/* ---- blits --------------------------------------------------------------------- */

/*
 * A blit (Gallium's pipe_blit_info, done as radeonsi does through
 * u_blitter): a draw of the destination rectangle whose pixel shader
 * samples the source, with the blitter's own state (no blending, write
 * masks, depth, stencil, clip planes, streamout or occlusion counting),
 * the application's state restored after it.  Source pixel (sx, sy) maps
 * onto destination (dx, dy) linearly: the rectangle's corners onto the
 * corners, x0 > x1 (y0 > y1) mirrors.  Sampling clamps to the source's
 * edge; NEAREST takes the texel the pixel centre falls in, LINEAR
 * interpolates the four around it.  A multisampled source (1:1) is
 * resolved: the average of each pixel's samples, sample 0 for integer
 * formats.  The source is converted to each destination's format as a
 * pixel shader's export is (GL 4.6 §18.3.1).
 */
struct drv_pipe_blit_info {
	struct drv_pipe_surface *src;
	bool src_alpha_one;              /* the source has no alpha: it reads 1 */
	int32_t sx0, sy0, sx1, sy1;      /* the source rectangle */
	struct drv_pipe_surface *dst[8]; /* every destination (NULL: none there) */
	int32_t dx0, dy0, dx1, dy1;      /* the destination rectangle */
	bool linear;                     /* LINEAR, else NEAREST */
	bool scissor;                    /* only the pixels inside `scissor_rect` */
	struct drv_pipe_rect scissor_rect;
	bool render_condition;           /* predicated by the render condition */
};

/* Whether drv_pipe_blit can blit `src` into `dst` (colour formats, both
 * integer or neither, single-sampled source); NULL when it can, else why
 * not (static storage). */
const char *drv_pipe_blit_unsupported(const struct drv_pipe_surface *src, const struct drv_pipe_surface *dst);
/* Blits; false (reported) when it did not happen. */
bool drv_pipe_blit(struct drv_pipe *pipe, const struct drv_pipe_blit_info *info);

/*
 * A pixel rectangle (glDrawPixels, glCopyPixels, glBitmap; GL 4.6
 * compatibility §14.8): width x height groups, row 0 first, drawn over
 * the window rectangle whose corner (x0, y0) is group (0, 0)'s outer
 * corner and (x1, y1) the last group's (x1 < x0 mirrors: a negative
 * zoom), at window depth z, through the current state's per-fragment
 * operations into its framebuffer.  Each fragment whose centre lies in
 * the rectangle takes the group it lies in: its RGBA (rgba), or for a
 * bitmap (bits: one byte a group, non-zero = 1) `color` where the group
 * is 1 and no fragment where it is 0.  No streamout.
 */
struct drv_pipe_pixrect_info {
	uint32_t width, height;
	const float *rgba;               /* width x height x 4 floats, or NULL */
	const uint8_t *bits;             /* width x height bytes, or NULL */
	float x0, y0, x1, y1;
	float z;
	float color[4];
};
/* Draws it; false (reported) when it did not happen. */
bool drv_pipe_pixrect(struct drv_pipe *pipe, const struct drv_pipe_pixrect_info *info);

/* ---- streamout ------------------------------------------------------------------ */

/* The streamout state of one transform feedback object: the targets as
 * begin latched them, and the filled-size slots pause / end store for
 * resume and DrawTransformFeedback. */
struct drv_pipe_so {
	struct drv_bo *filled;        /* 4 filled-size slots (dwords), radeonsi's per target */
	bool filled_valid;            /* the slots hold saved sizes (pause / end) */
	uint32_t hw_mask;             /* targets bound at begin */
	uint64_t hw_va[DRV_MAX_TF_BUFFERS];          /* target buffer base VA */
	uint32_t hw_offset_dw[DRV_MAX_TF_BUFFERS];   /* bind offset */
	uint32_t hw_size_dw[DRV_MAX_TF_BUFFERS];     /* (offset + size) >> 2, plus the unwritten tail
						      * of a vertex (drv_pm4_so.c, so_targets) */
	uint32_t stride_dw[DRV_MAX_TF_BUFFERS];
	uint32_t stream_of_buffer[DRV_MAX_TF_BUFFERS];
	uint32_t enabled_stream_buffers;  /* VGT_STRMOUT_BUFFER_CONFIG of the program */
};

/* A streamout target: the range of `buffer` bound to a TF binding point. */
struct drv_pipe_so_target {
	struct drv_pipe_buffer *buffer;  /* NULL: nothing bound */
	int64_t offset;
	int64_t size;                    /* bytes, clamped to the buffer */
};

/* Starts streamout into `targets` (per binding point) with the layout `tf`
 * of the program whose varyings are captured; offsets start at each
 * target's offset. */
void drv_pipe_so_begin(struct drv_pipe *pipe, struct drv_pipe_so *so,
		       const struct drv_tf_layout *tf,
		       const struct drv_pipe_so_target targets[DRV_MAX_TF_BUFFERS]);
/* Starts streamout again into the targets of the last begin, appending
 * where pause stopped. */
void drv_pipe_so_resume(struct drv_pipe *pipe, struct drv_pipe_so *so);
/* Stops streamout (pause or end), saving how far each target was filled. */
void drv_pipe_so_end(struct drv_pipe *pipe, struct drv_pipe_so *so);
/* The vertices captured on `stream` by so's last begin / end, read back
 * on the CPU (after submitting what is pending) from the filled-size slot,
 * as the opaque draw counts them. */
uint32_t drv_pipe_so_vertex_count(struct drv_pipe *pipe, struct drv_pipe_so *so, unsigned stream);
/* Frees the slots of an object that goes. */
void drv_pipe_so_release(struct drv_pipe *pipe, struct drv_pipe_so *so);

/* ---- queries ------------------------------------------------------------------- */

enum drv_pipe_query_type {
	DRV_QUERY_PRIMITIVES_GENERATED,  /* primitives that reached streamout, per stream */
	DRV_QUERY_PRIMITIVES_EMITTED,    /* primitives written to the targets, per stream */
	DRV_QUERY_SO_OVERFLOW_ANY,       /* 1 when any stream overflowed its targets */
	DRV_QUERY_SO_OVERFLOW,           /* 1 when the stream overflowed its targets */
	DRV_QUERY_OCCLUSION_COUNTER,     /* samples that passed the depth test */
	DRV_QUERY_OCCLUSION_PREDICATE,   /* 1 when any sample passed */
};

struct drv_pipe_query {
	struct drv_bo *slots;            /* SAMPLE_STREAMOUTSTATS slots: 4 streams x 32 bytes;
					  * occlusion: ZPASS_DONE pairs, 8 backends x 16 bytes */
	enum drv_pipe_query_type type;
	unsigned stream;
	/* The streams that had a buffer at begin, and stream_buffered_epoch
	 * at begin and at end: an overflow query counts only those streams
	 * (drv_pipe_query_result). */
	unsigned buffered_at_begin;
	uint32_t epoch[2][4];
};

/* Starts counting (`stream` for the per-stream types); false when out of
 * memory (nothing started). */
bool drv_pipe_query_begin(struct drv_pipe *pipe, struct drv_pipe_query *q,
			  enum drv_pipe_query_type type, unsigned stream);
void drv_pipe_query_end(struct drv_pipe *pipe, struct drv_pipe_query *q);
/* The result of the last begin / end (after submitting what is pending). */
uint64_t drv_pipe_query_result(struct drv_pipe *pipe, const struct drv_pipe_query *q);
/* Frees q's slots.  end_first: q is counting (begun, not ended) and is
 * ended, the streamout state updated and the end submitted first, as
 * deleting an active GL query does. */
void drv_pipe_query_release(struct drv_pipe *pipe, struct drv_pipe_query *q, bool end_first);

/* Conditional rendering: the draws after this call are predicated on q's
 * last result (SET_PREDICATION, as radeonsi's si_emit_query_predication):
 * skipped unless it overflowed (the overflow types) or some sample passed
 * (occlusion), or, with invert, unless not; wait is the GL_QUERY_WAIT /
 * BY_REGION_WAIT hint.  q (NULL:
 * no predication) must stay alive and not be begun again until the next
 * call. */
void drv_pipe_render_condition(struct drv_pipe *pipe, const struct drv_pipe_query *q, bool invert,
			       bool wait);

/* Writes the low `bytes` (4 or 8) of `value` at `offset` in `buf` (which
 * has storage) from the command stream, in order with the GPU's work (a
 * query result written to a query buffer). */
void drv_pipe_buffer_write(struct drv_pipe *pipe, struct drv_pipe_buffer *buf, uint64_t offset,
			   uint64_t value, unsigned bytes);

#endif
