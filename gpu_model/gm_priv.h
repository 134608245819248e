/*
 * gm_priv.h - what the files of gpu_model/ share and nobody else sees:
 * GPU memory, the fault log, the register file, the shader-core interfaces
 * and the struct gm that ties them together.
 *
 * Layering inside the module (each line only uses the ones above it):
 *   gm_mem.c, gm_fault.c          memory, fault log
 *   gm_regs.c                     register file
 *   gm_prog.c, gm_wave*.c         shader core: decode, wave64 interpreter
 *   gm_pa.c .. gm_cb.c (gm_px.h)  pixel pipeline: PA, SC, SPI/PS, DB, CB
 *   gm_vgt*.c, gm_gs.c            VGT: index fetch, assembly, streamout, GS path
 *   gm_cp*.c                      command processor (packets)
 *   gm.c                          public API glue
 */
#ifndef GM_PRIV_H
#define GM_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "gm.h"
#include "gm_hw.h"
#include "isa.h"

/* ---- memory (gm_mem.c) ---------------------------------------------------- */

struct gm_bo {
	uint64_t va;               /* GPU virtual address of byte 0 */
	uint64_t size;             /* bytes */
	uint8_t *data;             /* host storage, size bytes */
};

struct gm_mem {
	struct gm_bo **bos;        /* live BOs sorted by va */
	size_t n, cap;
	uint64_t next_va;          /* bump pointer; VAs are never reused */
	struct gm_bo *last[2];     /* lookup cache, most recent first (each one of
				    * bos[] or NULL): a vertex shader alternates
				    * between a vertex buffer and a streamout
				    * buffer lane by lane */
};

void gm_mem_init(struct gm_mem *m);
void gm_mem_fini(struct gm_mem *m);
enum xt_rc gm_mem_alloc(struct gm_mem *m, uint64_t size, uint64_t align, struct gm_bo **out);
void gm_mem_free(struct gm_mem *m, struct gm_bo *bo);
/* Host pointer to [va, va+size) if it lies in one BO, else NULL. */
uint8_t *gm_mem_ptr(struct gm_mem *m, uint64_t va, uint64_t size);
/* Host pointer to va and the bytes left in its BO (0 and NULL if unmapped). */
uint8_t *gm_mem_span(struct gm_mem *m, uint64_t va, uint64_t *left);

/* ---- fault log (gm_fault.c) ------------------------------------------------- */

struct gm_fault_log {
	struct gm_fault *recs;     /* kept records, at most max_kept */
	uint64_t total;            /* all recorded, kept or not */
	unsigned max_kept;
	/* context of the packet being executed, stamped into each record */
	uint64_t seq, packet_va;
	uint32_t packet_header;
};

enum xt_rc gm_fault_log_init(struct gm_fault_log *log, unsigned max_kept);
void gm_fault_log_fini(struct gm_fault_log *log);
void gm_fault_record(struct gm_fault_log *log, enum gm_fault_kind kind, uint64_t address,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ---- register file (gm_regs.c) ------------------------------------------------ */

#define GM_REG_SPACES 4
struct gm_regs {
	uint32_t *val[GM_REG_SPACES];     /* per space, indexed by dword from its base */
	uint8_t *written[GM_REG_SPACES];  /* bit 0 written ever, bit 1 dirty */
	struct gm_reg_override *ovr;      /* forced at each draw (gm.h) */
	size_t novr;
};

/* Same numbering as enum pm4_reg_space. */
enum gm_reg_space { GM_SPACE_CONFIG = PM4_SPACE_CONFIG, GM_SPACE_SH = PM4_SPACE_SH,
		    GM_SPACE_CONTEXT = PM4_SPACE_CONTEXT, GM_SPACE_UCONFIG = PM4_SPACE_UCONFIG };

enum xt_rc gm_regs_init(struct gm_regs *r);
void gm_regs_fini(struct gm_regs *r);
/* Space of a byte offset; -1 if outside the modelled spaces. */
int gm_regs_space_of(uint32_t reg);
uint32_t gm_regs_base(enum gm_reg_space s);
uint32_t gm_regs_size_dw(enum gm_reg_space s);
/* Read / write by byte offset; false (nothing done) outside the spaces. */
bool gm_regs_write(struct gm_regs *r, uint32_t reg, uint32_t value);
/* Clears all context registers (CLEAR_STATE); they stay "written". */
void gm_regs_clear_context(struct gm_regs *r);
/* Writes the overrides' bits (gm_reg_override_set) over the current values. */
void gm_regs_apply_overrides(struct gm_regs *r);

static inline uint32_t gm_regs_get(const struct gm_regs *r, uint32_t reg)
{
	int s = gm_regs_space_of(reg);
	if (s < 0)
		return 0;
	return r->val[s][(reg - gm_regs_base((enum gm_reg_space)s)) >> 2];
}

/* ---- shader core (gm_prog.c, gm_wave*.c) -------------------------------------- */

/* A decoded instruction with what the interpreter precomputes. */
struct gm_dinst {
	struct isa_inst i;
	uint32_t pc_dw;            /* dword offset from the program start */
	int32_t target;            /* branches: instruction index, -1 if invalid */
	uint8_t fres;              /* VOP result: 1 = f32, 2 = f64 (clamp applies), 0 other */
	uint8_t f64src;            /* bit i: source i is a double (constants expand as f64) */
	bool dst_is_src;           /* VOP: a destination VGPR is also a source VGPR */
	uint8_t store_run;         /* buffer_store_dword: it and the next store_run - 1
				    * instructions are dword stores through the same
				    * address operands (1 = alone; 0 other ops) */
	/* VOP / VOPC: source k's value in all 64 lanes when it is a constant
	 * (inline or literal), low dwords then (2-dword sources) the high
	 * dwords in the next 64; NULL otherwise.  Built once at decode, so
	 * that constants are not broadcast again by every wave. */
	const uint32_t *crow[3];
};

struct gm_prog {
	uint64_t va;               /* where it was decoded from */
	struct gm_dinst *insts;
	uint32_t n_insts;
	uint32_t n_dw;             /* dwords covered by insts */
	char stop_reason[160];     /* why decoding stopped early ("" at s_endpgm) */
	unsigned max_sgpr, max_vgpr; /* highest general SGPR / VGPR index referenced + 1 */
	uint32_t (*crows)[64];     /* storage of the instructions' crow rows */
};

/* Decodes the shader at `va` (reading at most max_dw dwords).  Decoding runs
 * to the first s_endpgm after every branch target seen; a bad instruction
 * before that ends the program there (executing past it faults). */
enum xt_rc gm_prog_decode(struct gm_mem *mem, uint64_t va, uint32_t max_dw, struct gm_prog *p);
void gm_prog_fini(struct gm_prog *p);
/* Decodes dwords already in host memory (tests, bench); va is for messages. */
enum xt_rc gm_prog_decode_dw(const uint32_t *dw, uint32_t n_dw, uint64_t va, struct gm_prog *p);

struct gm_wave;

/*
 * What v_interp_* read in a pixel-shader wave (filled by gm_ps.c; the
 * model's LDS parameter cache): for each lane its primitive, and for each
 * primitive, PS input and channel the attribute at vertex 0 and its
 * differences to vertices 1 and 2 (P0, P10, P20, each an f32).
 */
struct gm_interp {
	const uint8_t *lane_prim;  /* [64]: index of the lane's primitive */
	const float *coef;         /* primitive p, input i, channel c: P0 P10 P20 at */
	size_t prim_stride;        /* coef + p * prim_stride + (i * 4 + c) * 3 */
	unsigned n_inputs;         /* SPI_PS_IN_CONTROL.NUM_INTERP */
};

/* What a wave calls out to; all callbacks are optional. */
struct gm_wave_env {
	struct gm_mem *mem;
	struct gm_fault_log *faults;
	uint64_t max_instructions;
	void *ctx;
	void (*sendmsg)(void *ctx, struct gm_wave *w, unsigned msg, unsigned stream, uint64_t exec);
	void (*export_)(void *ctx, struct gm_wave *w, unsigned target, unsigned vgpr, uint64_t exec);
	/* exp with its flags (pixel shaders: done, vm); preferred over export_ */
	void (*export_ps)(void *ctx, struct gm_wave *w, const struct isa_inst *exp, uint64_t exec);
	const struct gm_interp *interp; /* pixel-shader waves only */
	/* compute waves (gm_cs.c): the workgroup's LDS, and s_barrier stops
	 * the wave (gm_wave.at_barrier) so that the dispatcher can run the
	 * group's other waves to it */
	uint8_t *lds;
	uint32_t lds_size;         /* bytes */
	bool yield_at_barrier;
};

struct gm_wave {
	uint32_t s[128];           /* SGPRs; vcc = s[106..107], m0 = s[124], exec = s[126..127] */
	uint32_t scc;
	uint32_t v[ISA_NUM_VGPRS][64];/* VGPRs, lane-minor */
	unsigned num_sgprs;        /* allocation (checked against the program at launch) */
	unsigned num_vgprs;
	uint64_t instructions;     /* executed by this wave */
	uint64_t lane_instructions;/* sum of active lanes over executed instructions */
	uint32_t bc[6][64];        /* broadcast scratch for uniform sources */
	bool killed;               /* stopped by a fault */
	uint32_t ip;               /* where gm_wave_run resumes (0 after a reset) */
	bool at_barrier;           /* stopped at an s_barrier (gm_wave_env.yield_at_barrier) */
};

static inline uint64_t gm_wave_exec(const struct gm_wave *w)
{
	return (uint64_t)w->s[ISA_OPD_EXEC_HI] << 32 | w->s[ISA_OPD_EXEC_LO];
}
static inline void gm_wave_set_exec(struct gm_wave *w, uint64_t e)
{
	w->s[ISA_OPD_EXEC_LO] = (uint32_t)e;
	w->s[ISA_OPD_EXEC_HI] = (uint32_t)(e >> 32);
}

/* Resets a wave: all registers 0, exec = `exec`, allocation as given. */
void gm_wave_reset(struct gm_wave *w, uint64_t exec, unsigned num_sgprs, unsigned num_vgprs);
/* Runs to s_endpgm or a fault (recorded; w->killed set), or with
 * env->yield_at_barrier to the next s_barrier (w->at_barrier set; a later
 * call resumes after it). */
void gm_wave_run(struct gm_wave *w, const struct gm_prog *p, const struct gm_wave_env *env);

/* Per-class executors (gm_wave_valu.c, gm_wave_mem.c). */
void gm_wave_exec_valu(struct gm_wave *w, const struct gm_dinst *d);
void gm_wave_exec_vopc(struct gm_wave *w, const struct gm_dinst *d);
/* Returns how many instructions it executed: 1, or up to `max_run` of a
 * store run (gm_dinst.store_run) done together. */
unsigned gm_wave_exec_vmem(struct gm_wave *w, const struct gm_dinst *d, const struct gm_wave_env *env,
			   uint64_t pc_va, unsigned max_run);
void gm_wave_exec_smem(struct gm_wave *w, const struct gm_dinst *d, const struct gm_wave_env *env,
		       uint64_t pc_va);
/* Typed element access shared by buffer and image fetches (gm_wave_mem.c):
 * bytes of an element of BUF_DATA_FORMAT `df` (0: not modelled), and its
 * channels converted per NUM_FORMAT, missing ones (0, 0, 0, 1). */
unsigned gm_format_bytes(unsigned df);
void gm_fetch_formatted(unsigned df, unsigned nf, const uint8_t *p, uint32_t out[4]);
/* ds_* on env->lds (gm_cs.c). */
void gm_wave_exec_ds(struct gm_wave *w, const struct gm_dinst *d, const struct gm_wave_env *env);
/* image_load / image_sample (gm_wave_img.c). */
void gm_wave_exec_img(struct gm_wave *w, const struct gm_dinst *d, const struct gm_wave_env *env,
		      uint64_t pc_va);
/* f32 <-> f16 (binary16), round to nearest even (gm_wave_valu.c). */
uint32_t gm_f32_to_f16(float f);
float gm_f16_to_f32(uint32_t h);
/* Scalar source value (64-bit if regs == 2; f64 says float-typed). */
uint64_t gm_wave_ssrc(const struct gm_wave *w, unsigned opd, unsigned regs, uint32_t literal, bool f64);

/* ---- the GPU (gm.c, gm_cp*.c, gm_vgt*.c, gm_gs.c) ------------------------------- */

/* One draw as the CP hands it to the VGT. */
struct gm_draw {
	uint32_t count;            /* vertices / indices */
	uint32_t instances;        /* >= 1 */
	bool indexed;              /* SOURCE_SELECT = DMA */
	uint64_t index_va;         /* first index to fetch */
	uint32_t index_max;        /* indices fetchable from index_va (beyond: 0) */
	uint32_t initiator;        /* VGT_DRAW_INITIATOR */
};

struct gm {
	struct gm_options opts;
	struct gm_mem mem;
	struct gm_fault_log faults;
	struct gm_regs regs;
	struct xt_err err;

	/* CP state that is not a register */
	uint64_t seq;              /* type-3 packets executed since creation */
	uint64_t packets_left;     /* budget of the current submission */
	bool abort_submit;         /* budget exhausted: unwind all IB levels */
	uint64_t set_base_va;      /* SET_BASE index 1 (DRAW_INDIRECT data) */
	uint64_t index_base_va;    /* INDEX_BASE */
	uint32_t index_buffer_size;/* INDEX_BUFFER_SIZE, in indices */
	uint32_t num_instances;    /* NUM_INSTANCES */
	bool pred_enabled;         /* SET_PREDICATION armed (op != CLEAR) */
	bool pred_draw;            /* draws with the PREDICATE bit execute */
	bool pred_visible_acc;     /* "visible" result so far (CONTINUE chains) */

	/* VGT state that is not a register */
	uint64_t prims_needed[4], prims_written[4];
	bool so_overflow[4];       /* buffer b could not take a primitive since its offset was set */
	bool pipelinestat_stopped; /* PIPELINESTAT_STOP seen, no START since */

	/* DB state that is not a register: the ZPASS counter (samples that
	 * passed, gm_db.c); draws that reached the rasterizer with no pixel
	 * shader bound are not drawn, so a count after them is unknown */
	uint64_t zpass_count;
	uint64_t unshaded_draws;    /* such draws */
	uint64_t zpass_seen_draws;  /* unshaded_draws at the last ZPASS_DONE */

	struct gm_so_stats stats;  /* draws, waves, lane instructions */
	/* width-1 lines rasterized since gm_lines_reset (gm.h) */
	struct gm_line *lines;
	size_t nlines, cap_lines;
	uint64_t lines_dropped;
	struct gm_wave *wave;      /* scratch wave, reused (64 KiB of VGPRs) */
};

/* Assumption: the model has one render backend (GFX8 parts have 1 to 16;
 * the count is only the number of ZPASS_DONE pairs written and read). */
#define GM_RENDER_BACKENDS 1

/* Register access by byte offset with a fault outside the spaces. */
bool gm_reg_write_checked(struct gm *gm, uint32_t reg, uint32_t value);
bool gm_reg_read_checked(struct gm *gm, uint32_t reg, uint32_t *value);

/* A CP memory write; records a bad-address fault naming `what` if unmapped. */
bool gm_cp_mem_write(struct gm *gm, uint64_t va, const void *src, uint32_t size, const char *what);
/* CP (gm_cp.c): executes one IB level (and what it chains to). */
void gm_cp_run_ib(struct gm *gm, uint64_t va, uint32_t size_dw, unsigned depth);
/* Streamout / query / predication packets (gm_cp_so.c). */
void gm_cp_event_write(struct gm *gm, const struct pm4_packet *pkt);
void gm_cp_strmout_buffer_update(struct gm *gm, const struct pm4_packet *pkt);
void gm_cp_set_predication(struct gm *gm, const struct pm4_packet *pkt);

/* VGT (gm_vgt.c): executes a draw to completion, through the pixel
 * pipeline (gm_px.h) when it is rasterized. */
void gm_vgt_draw(struct gm *gm, const struct gm_draw *d);

/* Input primitive list of a draw (gm_vgt_prim.c). */
struct gm_prim_list {
	uint32_t *verts;           /* n * verts_per_prim vertex ids */
	uint32_t n;                /* primitives */
	unsigned verts_per_prim;   /* incl. adjacency vertices */
	/* per primitive, bit k: the edge from its vertex k to vertex k + 1
	 * (mod 3) is a boundary edge, which polygon modes draw; the fan
	 * edges inside a quad or polygon are not */
	uint8_t *edges;
};
/* Assembles `prim_type` primitives from `count` vertex ids (restart flags in
 * `restart`, may be NULL).  `keep_adjacency` keeps adjacency vertices (GS
 * input); otherwise adjacency primitives become their base lines / triangles.
 * `provoking_last` is the provoking-vertex convention, which orders the
 * vertices of strip, fan, quad and polygon triangles (gm_vgt_prim.c). */
enum xt_rc gm_prim_assemble(unsigned prim_type, const uint32_t *ids, const uint8_t *restart,
			    uint32_t count, bool keep_adjacency, bool provoking_last,
			    struct gm_prim_list *out);
/* Vertices per output primitive for a prim type (1/2/3), 0 if unsupported. */
unsigned gm_prim_base_vpp(unsigned prim_type);
void gm_prim_list_fini(struct gm_prim_list *l);

/* Streamout bookkeeping for one wave of `prims` primitives of `vpp`
 * vertices on `stream` (gm_vgt_so.c).  Fills the SGPR values and returns
 * how many primitives the wave may write. */
struct gm_so_wave {
	uint32_t config;           /* streamout_config SGPR */
	uint32_t write_index;      /* vertices */
	uint32_t offset_dw[4];     /* streamout_offset[b] */
	uint32_t prims_written;
};
struct gm_so_draw {
	uint32_t offset_at_draw[4];/* VGT_STRMOUT_BUFFER_OFFSET_b when the draw started */
	uint32_t written_vtx[4];   /* vertices written per stream so far in this draw */
};
void gm_so_draw_begin(struct gm *gm, struct gm_so_draw *sd);
void gm_so_wave(struct gm *gm, struct gm_so_draw *sd, unsigned stream, uint32_t prims,
		unsigned vpp, struct gm_so_wave *out);

/* Runs a hardware shader stage's wave (gm_vgt.c). */
struct gm_stage {
	const char *name;          /* "VS", "ES", "GS" for messages */
	uint32_t pgm_lo, rsrc1, rsrc2, user_data0; /* register offsets */
	struct gm_prog prog;
	unsigned num_sgprs, num_vgprs, user_sgprs;
	bool ok;
};
bool gm_stage_load(struct gm *gm, struct gm_stage *st, uint32_t pgm_lo, uint32_t pgm_hi,
		   uint32_t rsrc1, uint32_t rsrc2, uint32_t user_data0, const char *name);
void gm_stage_fini(struct gm_stage *st);
/* Resets gm->wave for `st` with `exec` and loads the user SGPRs; returns the
 * index of the first SGPR after them. */
unsigned gm_stage_wave_begin(struct gm *gm, const struct gm_stage *st, uint64_t exec);
void gm_stage_wave_run(struct gm *gm, const struct gm_stage *st, struct gm_wave_env *env);

/* Compute dispatch (gm_cs.c): runs groups[0] x groups[1] x groups[2]
 * workgroups of the COMPUTE_* program to completion. */
void gm_cs_dispatch(struct gm *gm, const uint32_t groups[3], uint32_t initiator);

/* Geometry-shader path (gm_gs.c): ES -> GS -> copy shader for one instance. */
struct gm_px;
void gm_gs_draw(struct gm *gm, const struct gm_prim_list *in, uint32_t instance,
		uint32_t first_prim_id, struct gm_so_draw *sd, struct gm_px *px);

#endif
