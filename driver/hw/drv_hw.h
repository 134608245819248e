/*
 * drv_hw.h - what the files of the hardware layer share behind drv_pipe.h:
 * buffer objects on the winsys (drv_winsys.h), the screen's command stream,
 * each context's shadow of what it emitted, and the PM4 emitter's steps.
 *
 * The command stream is recorded in host memory (as radeonsi records into
 * a CS buffer), copied into an indirect buffer and submitted at flush
 * (drv_hw_screen.c).  Submission is synchronous (the winsys executes an IB
 * to the end before submit_ib returns), so after a flush the CPU may read
 * and write every BO, and the IB memory is reused by the next flush.
 */
#ifndef DRV_HW_H
#define DRV_HW_H

#include <stdbool.h>
#include <stdint.h>

#include "drv_pipe.h"
#include "drv_winsys.h"
#include "pm4_pkt.h"
#include "xt_buf.h"
#include "xt_rc.h"

struct drv_bo {
	struct drv_winsys_bo *ws_bo;
	uint64_t va;               /* GPU virtual address */
	uint64_t size_bytes;
	uint8_t *map;              /* CPU view (always mapped: unified memory) */
};

struct drv_pipe_screen {
	struct drv_winsys *winsys;
	struct pm4_cs cs;          /* the command stream being recorded */
	uint32_t *cs_storage;
	uint32_t cs_max_dw;
	struct drv_bo *ib;         /* IB memory, reused by every flush */
	struct xt_buf call_pm4;    /* dwords submitted since drv_pipe_call_begin */
	uint64_t submits;          /* IBs submitted */
	struct drv_pipe *pipes;    /* every context, through drv_pipe.next */
	struct drv_pipe *last;     /* the context whose state the GPU holds */
	bool predication_on;       /* the CP holds a SET_PREDICATION other than CLEAR */
};

enum drv_atom {
	DRV_ATOM_INIT = 0,           /* the IB preamble (CONTEXT_CONTROL, GS off ...) */
	DRV_ATOM_STREAMOUT_ENABLE,
	DRV_ATOM_SHADER,             /* VS program + SPI registers */
	DRV_ATOM_RASTER,             /* PA_CL_CLIP_CNTL (rasterizer discard) */
	DRV_ATOM_RESTART,            /* primitive restart */
	DRV_ATOM_RENDER_COND,        /* SET_PREDICATION (conditional rendering) */
	DRV_ATOM_FRAMEBUFFER,        /* CB_COLORn_*, DB_*, window scissor, MSAA (drv_pm4_raster.c) */
	DRV_ATOM_PIXEL,              /* viewport, scissors, rasterizer, depth-stencil, blend */
	DRV_ATOM_COUNT
};

struct drv_pipe {
	struct drv_pipe_screen *screen;
	struct drv_pipe *next;       /* the screen's list */
	struct drv_pipe_report report;
	/* state the state tracker set (drv_pipe_set_*) */
	bool rasterizer_discard;
	bool flatshade_first;
	struct drv_pipe_framebuffer fb;  /* what draws render into (drv_pm4_fb.c) */
	struct drv_pipe_rasterizer_state rs;
	struct drv_pipe_depth_stencil_state dsa;
	struct drv_pipe_blend_state blend;
	struct drv_pipe_viewport_state viewport;
	struct drv_pipe_rect scissor;
	float clip_planes[6][4];
	uint32_t fb_width, fb_height, fb_samples;  /* as the framebuffer atom emitted them */
	uint64_t fb_va[9];           /* the surfaces' VAs it emitted (cbufs, zsbuf; 0: none):
				      * a surface given new storage is emitted again */
	uint64_t ps_va;              /* pixel shader emitted: its VA + 2; 1 none bound; 0 unknown */
	uint32_t vs_out_cntl;        /* PA_CL_VS_OUT_CNTL emitted (+1; 0 = unknown), and the
				      * SPI_SHADER_POS_FORMAT that goes with it */
	struct drv_pipe_surface_events surface_events;  /* drv_pm4_fb.c */
	/* conditional rendering: the query's slots (NULL: off) and its mode */
	const struct drv_pipe_query *render_cond;
	bool render_cond_invert, render_cond_wait;
	bool restart, restart_fixed;
	uint32_t restart_index;
	int active_queries;          /* begun and not ended, any type */
	uint64_t user_index_va;      /* where drv_pipe_draw_reserve put user indices */
	uint32_t dirty;              /* 1 << drv_atom */
	/* shadows of what was emitted, so unchanged values are not re-sent */
	uint32_t prim_type;          /* VGT_PRIMITIVE_TYPE (+1; 0 = unknown) */
	uint32_t index_type;         /* +1; 0 = unknown */
	uint32_t gs_out_prim;        /* +1 */
	bool draws_points;           /* the draw being emitted rasterizes points (its
				      * primitive, or the GS's output) */
	uint32_t num_instances;      /* +1 */
	uint64_t vs_va;              /* program emitted by the shader atom */
	uint32_t strmout_config, strmout_buffer_config;
	/* per stream, how many times a VGT_STRMOUT_BUFFER_CONFIG giving the
	 * stream a buffer was emitted: the overflow queries' "had a buffer" */
	uint32_t stream_buffered_epoch[4];
	bool strmout_known;
	uint32_t opaque_offset;      /* VGT_STRMOUT_DRAW_OPAQUE_OFFSET as emitted */
	/* streamout */
	bool so_begin_emitted;
	struct drv_pipe_so *so_current; /* the object whose begin is emitted */
	int prims_gen_queries;       /* active PRIMITIVES_GENERATED queries */
	int occlusion_queries;       /* active occlusion queries (DB_COUNT_CONTROL) */
	/* upload ring for descriptors, constants, client arrays */
	struct drv_bo *ring;
	uint64_t ring_used;
	uint64_t ring_generation;    /* bumped at every ring reset */
	uint64_t consts_uploaded_gen, consts_version;
	uint64_t consts_va;
	const struct drv_pipe_shader *consts_shader;
	/* geometry shaders (drv_pm4_gs.c) */
	bool gs_on;                  /* the emitted shader state has ES / GS / copy shader */
	struct drv_bo *esgs_ring, *gsvs_ring; /* grown on demand, never shrunk */
	bool gs_rings_emitted;       /* VGT_ESGS/GSVS_RING_SIZE match the rings */
	/* blits (drv_pm4_blit.c): the blitter's programs, made at the first
	 * blit, and whether its draw is being emitted (no streamout, no
	 * occlusion counting) */
	struct drv_blitter *blitter;
	bool blitting;
	bool pixrect;                /* a pixel rectangle's draw: no streamout */
};

/* ---- drv_hw_screen.c: BOs, the command stream, contexts sharing the GPU ---- */

/* A zero-filled BO; NULL when out of memory. align 0 = 256 bytes. */
struct drv_bo *drv_bo_create(struct drv_pipe_screen *s, uint64_t size_bytes, uint64_t align_bytes);
/* NULL is a no-op. */
void drv_bo_destroy(struct drv_pipe_screen *s, struct drv_bo *bo);
/*
 * Room for `dw` more dwords in the command stream: flushes first when the
 * stream is full.  Returns the stream (never NULL); a packet that still
 * does not fit sets cs->overflow, which drv_hw_flush reports.
 */
struct pm4_cs *drv_hw_cs(struct drv_pipe_screen *s, uint32_t dw);
/* Submits the recorded stream (if any) and starts a new one.  XT_ERR_NOMEM
 * when the IB could not be allocated; a stream that overflowed is
 * XT_ERR_INTERNAL (the driver reserves too little). */
enum xt_rc drv_hw_flush(struct drv_pipe_screen *s);
/* Reports through the context's callbacks. */
void drv_hw_out_of_memory(struct drv_pipe *pipe);
void drv_hw_unsupported(struct drv_pipe *pipe, const char *why);
/* False (reported) when `pipe` must not touch the GPU's streamout or
 * counters because another context has them in use. */
bool drv_hw_gpu_free(struct drv_pipe *pipe);

/* ---- drv_pm4_state.c: preamble, upload ring ---- */
/* Emits the preamble of a context's first IB. */
void drv_pm4_init(struct drv_pipe *pipe);
/* Forgets what pipe emitted (another context used the GPU since): the next
 * draw emits its whole state again. */
void drv_pm4_invalidate(struct drv_pipe *pipe);
void drv_pm4_fini(struct drv_pipe *pipe);
/* Uploads `n` bytes to the upload ring; returns the VA (0 when out of memory). */
uint64_t drv_pm4_upload(struct drv_pipe *pipe, const void *data, uint64_t n, uint64_t align);

/* ---- drv_pm4_fb.c: surfaces ---- */
/* After a draw of prog that reached the rasterizer: marks the
 * framebuffer's surfaces as holding what the model cannot draw, unless
 * it drew them (a pixel shader, no state the driver does not emit). */
void drv_pm4_fb_drawn(struct drv_pipe *pipe, const struct drv_program *prog);

/* ---- drv_pm4_blit.c: blits ---- */
/* Frees the blitter's programs. */
void drv_pm4_blit_fini(struct drv_pipe *pipe);

/* ---- drv_pm4_raster.c: the pixel pipeline's state ---- */
/* PA_CL_CLIP_CNTL and PA_SU_SC_MODE_CNTL of the state (DRV_ATOM_RASTER). */
uint32_t drv_pm4_clip_cntl(const struct drv_pipe *pipe);
uint32_t drv_pm4_su_sc_mode_cntl(const struct drv_pipe *pipe);
/* Emits the dirty framebuffer and pixel atoms and the pixel shader of
 * prog (draws that reach the rasterizer only). */
void drv_pm4_emit_pixel_state(struct drv_pipe *pipe, struct pm4_cs *cs, const struct drv_program *prog,
			      const struct drv_pipe_shader *shader);
/* Why a draw of prog would not rasterize (no pixel shader bound: no
 * compiled PS, or state the model does not rasterize), as the reason its
 * surfaces hold what the model did not draw; NULL when it rasterizes. */
const char *drv_pm4_ps_unusable(const struct drv_pipe *pipe, const struct drv_program *prog);
/* PA_CL_VS_OUT_CNTL of a draw of `prog` with the pipe's rasterizer state:
 * the VS's position exports the PA reads (drv_vs_out_info). */
uint32_t drv_pm4_vs_out_cntl(const struct drv_pipe *pipe, const struct drv_program *prog);
/* The most dwords it emits. */
#define DRV_PM4_PIXEL_STATE_DW 400u

/* ---- drv_pm4_gs.c: the ES -> GS -> copy shader pipeline ---- */
/* Byte offset of hardware stage hw's binary in the program's code BO
 * (DRV_HW_COUNT: the bytes all stages need). */
uint64_t drv_pm4_code_offset(const struct drv_program *prog, enum drv_hw_stage hw);
/* VGT_GS_OUT_PRIM_TYPE.OUTPRIM_TYPE of a GS output primitive (drv_gs_info). */
uint32_t drv_pm4_gs_out_prim(uint32_t output_prim);
/* Emits the GS, ES and copy-shader state of prog (which has a GS). */
void drv_pm4_gs_emit_shaders(struct drv_pipe *pipe, struct pm4_cs *cs,
			     const struct drv_program *prog, const struct drv_pipe_shader *shader);
/* Turns the GS stages off again when the emitted state had them. */
void drv_pm4_gs_emit_off(struct drv_pipe *pipe, struct pm4_cs *cs);
/* Grows the ESGS / GSVS rings for prog (may flush); false when out of memory. */
bool drv_pm4_gs_rings(struct drv_pipe *pipe, const struct drv_program *prog);
/* Emits VGT_ESGS_RING_SIZE / VGT_GSVS_RING_SIZE when the rings changed. */
void drv_pm4_gs_emit_rings(struct drv_pipe *pipe, struct pm4_cs *cs);
/* Fills the DRV_DESC_ESGS / DRV_DESC_GSVS descriptors of a table. */
void drv_pm4_gs_descriptors(struct drv_pipe *pipe, uint32_t *desc);

/* ---- drv_pm4_so.c: streamout ---- */
/* Emits VGT_STRMOUT_CONFIG / BUFFER_CONFIG when they changed. */
void drv_pm4_so_enable(struct drv_pipe *pipe);
/* The SET_PREDICATION packets of the render-condition atom (CLEAR when off). */
void drv_pm4_emit_render_cond(struct drv_pipe *pipe, struct pm4_cs *cs);
/* DrawTF: loads the opaque registers from so's filled-size slot. */
void drv_pm4_so_draw_opaque(struct drv_pipe *pipe, struct drv_pipe_so *so, unsigned stream);

#endif
