/*
 * gm.h - the simulated GFX8-class GPU: the only interface the driver (and
 * tests) use, shaped like a kernel winsys (allocate a buffer object, map it,
 * submit an indirect buffer) plus read-only views for debugging: fault
 * records, register snapshots and the streamout counters.
 *
 * Everything the hardware "knows" arrives through PM4 packets in GPU memory
 * (docs/gcn-streamout.md, docs/isa.md).  The model is deterministic: the
 * same sequence of calls with the same bytes gives the same memory,
 * registers, counters and faults.  GPU virtual addresses are handed out by
 * a bump allocator from a fixed base and never reused.
 *
 * Faults (bad packet, bad address, ring overflow, a wait that can never end,
 * a shader that runs too long) are recorded, never crash the host, and
 * execution resyncs at the next packet.  gm_submit_ib() returns XT_OK even
 * when it recorded faults; look at gm_fault_count().
 */
#ifndef GM_H
#define GM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xt_rc.h"

struct gm;
struct gm_bo;

/* First GPU VA handed out; BOs are 64 KiB aligned with a 64 KiB unmapped gap
 * after each one, so small overruns fault instead of hitting a neighbour. */
#define GM_VA_BASE 0x0000000100000000ull

struct gm_options {
	unsigned max_ib_depth;          /* nested INDIRECT_BUFFER levels; 0 = 4 */
	uint64_t max_packets;           /* per gm_submit_ib, chains included; 0 = 1<<24 */
	uint64_t max_wave_instructions; /* per wave before "shader timeout"; 0 = 1<<22 */
	unsigned max_faults_kept;       /* records kept (all are counted); 0 = 256 */
};

/* Creates a GPU with all registers 0 and no memory; opts may be NULL. */
enum xt_rc gm_create(const struct gm_options *opts, struct gm **out);
/* Frees the GPU and all its BOs; NULL is a no-op. */
void gm_destroy(struct gm *gm);
/* Message of the last error a gm_* call returned (borrowed). */
const char *gm_errmsg(const struct gm *gm);

/* --- memory ------------------------------------------------------------- */

/*
 * Allocates a zero-filled BO of `size_bytes` (> 0, <= 4 GiB) aligned to
 * `align_bytes` (power of two, at most 64 KiB; 0 = 256).  The BO stays owned
 * by the GPU; gm_bo_free() releases it early, gm_destroy() at the latest.
 */
enum xt_rc gm_bo_alloc(struct gm *gm, uint64_t size_bytes, uint64_t align_bytes,
		       struct gm_bo **out);
void gm_bo_free(struct gm *gm, struct gm_bo *bo);
/* CPU pointer to the BO's bytes; valid until the BO is freed. */
void *gm_bo_map(struct gm_bo *bo);
uint64_t gm_bo_va(const struct gm_bo *bo);

/* --- execution ---------------------------------------------------------- */

/*
 * Executes the indirect buffer at `va` (`size_dw` dwords) to the end,
 * including chained and nested INDIRECT_BUFFER packets, draws and shaders.
 * Returns XT_ERR_INVALID only for a call the model cannot start (size 0,
 * unaligned or unmapped va is a recorded fault instead).
 */
enum xt_rc gm_submit_ib(struct gm *gm, uint64_t va, uint32_t size_dw);

/* --- faults --------------------------------------------------------------- */

enum gm_fault_kind {
	GM_FAULT_BAD_PACKET = 1,   /* malformed header / payload, unknown opcode */
	GM_FAULT_BAD_ADDRESS,      /* CP or shader touched unmapped memory */
	GM_FAULT_BAD_REGISTER,     /* a register write outside the packet's space */
	GM_FAULT_RING_OVERFLOW,    /* ESGS / GSVS ring too small, GS emitted too many */
	GM_FAULT_INFINITE_WAIT,    /* WAIT_REG_MEM whose condition can never become true */
	GM_FAULT_IB_DEPTH,         /* nested / chained IBs beyond the limits */
	GM_FAULT_BAD_SHADER,       /* invalid instruction, PC out of range, register out of allocation */
	GM_FAULT_SHADER_TIMEOUT,   /* a wave ran more than max_wave_instructions */
	GM_FAULT_BAD_STATE,        /* draw state the model cannot execute (named in reason) */
};

struct gm_fault {
	enum gm_fault_kind kind;
	uint64_t seq;              /* packet sequence number since gm_create (0-based) */
	uint64_t packet_va;        /* GPU VA of the packet header */
	uint32_t packet_header;    /* the header dword (0 if unreadable) */
	uint64_t address;          /* faulting VA / register byte offset / shader PC VA; 0 if none */
	char reason[200];
};

/* Total faults recorded since creation. */
uint64_t gm_fault_count(const struct gm *gm);
/* The i-th kept record (i < min(count, max_faults_kept)); NULL if none. */
const struct gm_fault *gm_fault_get(const struct gm *gm, uint64_t i);
/* Short stable name of a kind ("bad-packet", ...). */
const char *gm_fault_kind_name(enum gm_fault_kind kind);

/* --- registers ------------------------------------------------------------ */

/* Value of the register at byte offset `reg` (any space); false if the
 * offset is outside the modelled spaces. */
bool gm_reg_get(const struct gm *gm, uint32_t reg, uint32_t *value);

struct gm_reg_value {
	uint32_t reg;              /* byte offset */
	uint32_t value;
};

/*
 * Snapshot of every register written since creation, ascending by offset,
 * into a malloc'd array the caller frees.  With `dirty_only`, only those
 * written since the last gm_reg_clear_dirty().  (Registers the hardware
 * updates itself, e.g. VGT_STRMOUT_BUFFER_OFFSET_n and CP_STRMOUT_CNTL,
 * count as written.)
 */
enum xt_rc gm_reg_snapshot(struct gm *gm, bool dirty_only,
			   struct gm_reg_value **out, size_t *count);
void gm_reg_clear_dirty(struct gm *gm);

/*
 * Register overrides, for what-if experiments ("this draw with
 * CB_BLEND0_CONTROL = X"): bits the GPU forces at every draw packet, after
 * the packets before it set the state and before the draw runs, so the
 * draw executes with them.  They are written into the register file as a
 * packet would (written and dirty: snapshots show them).  `mask` selects
 * the bits (0xffffffff: the whole register), `value` holds them in place.
 * gm_reg_override_set() copies `n` overrides, replacing the previous ones
 * (n = 0: none); XT_ERR_INVALID for an offset outside the modelled spaces
 * or misaligned, nothing changed then.
 */
struct gm_reg_override {
	uint32_t reg;              /* byte offset */
	uint32_t mask;
	uint32_t value;
};
enum xt_rc gm_reg_override_set(struct gm *gm, const struct gm_reg_override *o, size_t n);

/* --- counters --------------------------------------------------------------- */

struct gm_so_stats {
	uint64_t prims_needed[4];  /* PrimStorageNeeded per stream */
	uint64_t prims_written[4]; /* NumPrimitivesWritten per stream */
	uint64_t draws;            /* draws executed (not predicated away) */
	uint64_t draws_skipped;    /* draws skipped by predication */
	uint64_t waves;            /* shader waves launched */
	uint64_t lane_instructions;/* sum over waves of instructions x active lanes */
	uint64_t zpass_samples;    /* samples the DB counted for ZPASS_DONE (occlusion) */
};
void gm_so_stats_get(const struct gm *gm, struct gm_so_stats *out);

/* --- rasterized lines --------------------------------------------------------- */

/*
 * A width-1 line segment the pixel pipeline rasterized with one raster
 * sample (docs/pixel-pipeline.md, Lines): GL 4.6 §14.5.1 lets such a
 * segment's fragments differ from the diamond-exit rule's, so a replay
 * check needs to know where they were drawn.  A read-only view, like the
 * faults: nothing the GPU does depends on it.
 */
struct gm_line {
	int64_t x0, y0, x1, y1;    /* window position of the ends after clipping,
				    * 1/256 pixel; y is the memory row */
	uint64_t cb_va[8];         /* base of each colour target written, 0: none */
	unsigned samples;          /* samples of the target a fragment covers */
	bool counted;              /* ZPASS counting was on (an occlusion query) */
};

/* The segments rasterized since the last gm_lines_reset (at most
 * GM_LINES_MAX; *dropped counts those beyond), borrowed until the next
 * submission or reset. */
#define GM_LINES_MAX 65536
const struct gm_line *gm_lines_get(const struct gm *gm, size_t *n, uint64_t *dropped);
void gm_lines_reset(struct gm *gm);

#endif
