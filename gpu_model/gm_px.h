/*
 * gm_px.h - what the pixel pipeline's files share (docs/pixel-pipeline.md,
 * docs/isa.md "Pixel shaders"):
 *
 *   gm_pa.c   primitive assembler: clipping, perspective divide, viewport,
 *             culling, point and line expansion, triangle setup
 *   gm_sc.c   scan converter: coverage of samples, quads, scissors
 *   gm_ps.c   SPI + pixel-shader waves: input VGPRs, interpolation data,
 *             exports, early / late Z ordering
 *   gm_db.c   depth / stencil tests and occlusion counting
 *   gm_cb.c   colour formats, blending, logic ops, write masks
 *
 * The state of one draw lives in struct gm_px, built from the registers at
 * the start of the draw (gm_px_begin) and freed at its end.
 */
#ifndef GM_PX_H
#define GM_PX_H

#include "gm_priv.h"

#define GM_PX_MAX_PARAMS   32
#define GM_PX_MAX_SAMPLES  8
#define GM_PX_WAVE_QUADS   16
#define GM_PX_SUBPIX       256     /* PA_SU_VTX_CNTL QUANT_MODE 1_256TH */

/* A vertex as the VS / copy shader exported it (clip space). */
struct gm_px_vtx {
	float pos[4];
	float psize;               /* misc vector x */
	float dist[8];             /* clip / cull distances (ccdist vectors) */
	uint32_t param_mask;       /* params exported */
	float param[GM_PX_MAX_PARAMS][4];
};

/* A set-up triangle: what the SC and the SPI need of a primitive. */
struct gm_px_tri {
	int64_t X[3], Y[3];        /* window position, 1/256 pixel, vertex order */
	double x[3], y[3], z[3];   /* the same, double; window z */
	double inv_w[3];           /* 1 / w_clip (1 for points and lines of w 1) */
	double pb[2][3];           /* screen-space weights of vertices 1, 2:
				    * b = pb[k][0] * x + pb[k][1] * y + pb[k][2] */
	bool front;
	bool persp;                /* perspective-correct I, J (else linear) */
	/* per PS input and channel: P0, P10, P20 */
	float coef[GM_PX_MAX_PARAMS][4][3];
};

/* A render target (linear, docs/isa.md "Surfaces"). */
struct gm_px_cb {
	bool on;
	uint8_t *base;             /* host pointer of slice SLICE_START */
	uint64_t va;               /* ... and its GPU address */
	uint32_t pitch, height;    /* pixels, rows */
	unsigned samples;          /* 1, 2, 4 or 8 */
	unsigned fmt, ntype, swap; /* CB_COLORn_INFO */
	unsigned comps, bits;      /* components, bits per component */
	unsigned bpp;              /* bytes per sample */
	uint8_t pos[4];            /* memory position i holds component pos[i] */
	unsigned mask;             /* CB_TARGET_MASK & CB_SHADER_MASK nibble */
	uint32_t blend;            /* CB_BLENDn_CONTROL */
	unsigned col_fmt;          /* SPI_SHADER_COL_FORMAT nibble */
	bool plain_unorm8;         /* 8-bit UNORM, no blending, ROP3 copy: each
				    * written component is its value's encoding
				    * alone (gm_cb_write's short path) */
};

struct gm_px_db {
	unsigned zfmt;             /* V_Z_* (Z_INVALID: none) */
	uint8_t *z, *s;            /* host pointers, NULL if none */
	uint32_t pitch, height;
	unsigned samples;
	uint32_t depth_control, stencil_control, ref[2]; /* front, back */
	float zmin, zmax;
	bool count;                /* ZPASS counting on */
};

struct gm_px_quad {
	uint16_t x, y;             /* even */
	uint8_t prim;              /* slot in gm_px.tris */
	uint8_t cov[4];            /* per pixel: sample mask */
};

struct gm_px {
	struct gm *gm;
	bool on;                   /* rasterizing this draw */
	bool failed;               /* state fault recorded: draw nothing more */
	struct gm_stage ps;
	/* state of the draw */
	uint32_t clip_cntl, su_mode, vte, vs_out_cntl;
	float vp_scale[3], vp_offset[3];
	float gb_x, gb_y;          /* guard band (clip adjust) */
	float disc_x, disc_y;      /* discard band of points (discard adjust) */
	float ucp[6][4];
	int32_t sc_x0, sc_y0, sc_x1, sc_y1; /* scissor ∩ targets, pixels, [x0, x1) */
	unsigned samples;          /* raster samples: 1, 2, 4 or 8 */
	unsigned target_samples;   /* samples of the bound surfaces */
	int8_t loc[4][GM_PX_MAX_SAMPLES][2]; /* per quad pixel, sample: offset, 1/16 pixel */
	uint8_t centroid_order[GM_PX_MAX_SAMPLES];
	uint16_t aa_mask[4];       /* per pixel of the quad */
	float point_half, point_min, point_max, line_half;
	unsigned n_inputs;         /* SPI_PS_IN_CONTROL.NUM_INTERP */
	uint32_t input_cntl[GM_PX_MAX_PARAMS];
	uint32_t interp_cntl;      /* SPI_INTERP_CONTROL_0 */
	uint32_t ena;              /* SPI_PS_INPUT_ENA */
	uint32_t db_shader;        /* DB_SHADER_CONTROL */
	bool early_z;
	unsigned z_export_fmt;
	struct gm_px_cb cb[8];
	uint32_t rop3;
	float blend_const[4];
	struct gm_px_db db;
	/* the wave being filled */
	struct gm_px_tri tris[GM_PX_WAVE_QUADS];
	unsigned n_tris;
	bool tri_open;             /* tris[n_tris - 1] takes more quads */
	unsigned tri_quads;        /* quads of tris[n_tris - 1] so far */
	uint32_t vs_param_mask;    /* params the VS exported */
	uint64_t quads_drawn;      /* statistics */
	struct gm_px_quad quads[GM_PX_WAVE_QUADS];
	unsigned n_quads;
	/* exports of the running wave */
	uint32_t exp_col[8][64][4];
	uint32_t exp_z[64][4];
	uint16_t exp_col_mask;     /* targets exported */
	bool exp_z_done;
	bool done;
	uint64_t done_exec;
	/* per-wave interpolation buffers */
	uint8_t lane_prim[64];
	float *coef;               /* [16][n_inputs][4][3] */
	/* vertices of the VS wave being assembled */
	struct gm_px_vtx *vtx;     /* [64] */
};

/* gm_ps.c: the draw's state from the registers (false: nothing to draw,
 * px->on says whether a pixel shader is bound, px->failed whether a fault
 * was recorded); gm_px_end flushes the last wave and frees the PS. */
bool gm_px_begin(struct gm *gm, struct gm_px *px);
void gm_px_end(struct gm_px *px);
/* The export callback of the hardware VS / copy shader (env->export_). */
void gm_px_vs_export(void *ctx, struct gm_wave *w, unsigned target, unsigned vgpr, uint64_t exec);
/* Clears the exported-vertex store before a VS wave. */
void gm_px_vs_wave_begin(struct gm_px *px);
/* Rasterizes the wave's primitives: lanes [p*vpp, p*vpp + vpp); `edges`
 * (triangles, may be NULL: all) the boundary edges of each, gm_prim_list. */
void gm_pa_prims(struct gm_px *px, uint32_t prims, unsigned vpp, const uint8_t *edges);

/* gm_sc.c: scan-converts a set-up triangle into quads (gm_ps_quad). */
void gm_sc_tri(struct gm_px *px, const struct gm_px_tri *t);

/* gm_ps.c */
/* Makes a slot for a new primitive's set-up data; NULL if the draw failed. */
struct gm_px_tri *gm_ps_new_tri(struct gm_px *px);
void gm_ps_quad(struct gm_px *px, const struct gm_px_quad *q);
void gm_ps_flush(struct gm_px *px);

/* gm_db.c: the depth / stencil tests of sample s of pixel (x, y) with
 * depth z, updating the buffers as DB_DEPTH_CONTROL / DB_STENCIL_CONTROL
 * say; true if it passes (and is counted).  stencil_ref >= 0: the
 * shader's exported reference replaces STENCILTESTVAL. */
bool gm_db_sample(struct gm_px *px, unsigned x, unsigned y, unsigned s, float z, bool front,
		  int stencil_ref);
bool gm_db_load(struct gm *gm, struct gm_px *px);

/* gm_cb.c */
bool gm_cb_load(struct gm *gm, struct gm_px *px);
void gm_cb_write(struct gm_px *px, unsigned rt, unsigned x, unsigned y, uint8_t samples,
		 const uint32_t val[4]);
/* Raw export registers -> 32-bit components per SPI col format. */
void gm_cb_unpack_export(unsigned col_fmt, const uint32_t reg[4], uint32_t out[4]);

#endif
