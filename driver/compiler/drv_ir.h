/*
 * drv_ir.h - the driver's shader IR: scalar SSA with structured control
 * flow, in one flat instruction list.
 *
 * Why this shape.  The target is a SIMT machine with an exec mask, where
 * control flow is not jumps but mask arithmetic around regions
 * (docs/isa.md "Execution model").  A flat list with structured markers
 * (IF / ELSE / ENDIF, LOOP / CONTINUE_POINT / ENDLOOP, BREAK / CONTINUE)
 * maps one to one onto those regions, gives every instruction a linear
 * position for the register allocator, and is trivially printed.
 *
 *   values   SSA: defined once, 1 or 2 dwords (doubles), live in VGPRs.
 *            Booleans are 32-bit 0 / 1 values, so that a write under a
 *            partial exec mask only touches the active lanes (a lane mask in
 *            SGPRs would be clobbered for inactive lanes).
 *   regs     variables written under exec masks: SPIR-V phis (written at
 *            the end of each predecessor, read at the block start), locals,
 *            inputs and outputs, one reg per flattened scalar.  Because
 *            VGPR writes respect exec, a reg written on divergent paths holds
 *            each lane's own value, which is exactly phi semantics.
 *
 * Vectors, matrices, arrays and structs are flattened to scalars when SPIR-V
 * is read (drv_spirv_to_ir.c), and arithmetic is selected to gpu_model
 * opcodes there (DRV_OP_VALU carries a ISA_OP_*), as ACO selects straight
 * from NIR; the remaining high-level ops (I/O, constants, selects, compares
 * to booleans, control flow) are lowered by drv_lower_io.c and drv_emit.c.
 * drv_ir_validate() checks the invariants after every pass.
 */
#ifndef DRV_IR_H
#define DRV_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "drv_shader.h"
#include "xt_buf.h"
#include "xt_rc.h"

/* DRV_OP_INTERP modes (b >> 2) */
enum { DRV_INTERP_SMOOTH, DRV_INTERP_LINEAR, DRV_INTERP_FLAT };

enum drv_op {
	DRV_OP_NOP,
	DRV_OP_CONST,         /* dst = imm (size 1 or 2) */
	DRV_OP_MOV,           /* dst = src0 */
	DRV_OP_VALU,          /* dst = gm_op(src0..src2), flags = ISA_FLAG_NEG* */
	DRV_OP_CMP,           /* dst(bool) = gm_op (a V_CMP_*)(src0, src1) */
	DRV_OP_SELECT,        /* dst = src0 ? src1 : src2 */
	DRV_OP_SPLIT_LO,      /* dst(1) = low dword of src0(2) */
	DRV_OP_SPLIT_HI,      /* dst(1) = high dword of src0(2) */
	DRV_OP_PACK64,        /* dst(2) = src0 (low) | src1 (high) << 32 */
	DRV_OP_REG_READ,      /* dst = reg a */
	DRV_OP_REG_WRITE,     /* reg a = src0 (only lanes in exec) */
	/* inputs */
	DRV_OP_LOAD_INPUT,    /* VS attribute: location a, dword b of the fetched vec4 */
	DRV_OP_LOAD_SYSVAL,   /* a = enum drv_sysval */
	DRV_OP_LOAD_BUF,      /* descriptor slot a, byte offset b (+ src0 bytes if set) */
	/* control flow */
	DRV_OP_IF,            /* src0 = bool */
	DRV_OP_ELSE,
	DRV_OP_ENDIF,
	DRV_OP_LOOP,
	DRV_OP_CONTINUE_POINT,/* start of the loop's continue construct */
	DRV_OP_ENDLOOP,       /* back edge */
	DRV_OP_BREAK,
	DRV_OP_CONTINUE,
	DRV_OP_RETURN,        /* the lane leaves main; a = 1: discard (PS), it leaves the
			       * live mask the exports use too (drv_ir.kills) */
	/* geometry */
	DRV_OP_EMIT_VERTEX,   /* stream a (removed by drv_lower_io) */
	DRV_OP_END_PRIMITIVE, /* stream a (removed by drv_lower_io) */
	/* lowered I/O (drv_lower_io) */
	DRV_OP_EXPORT_POS,    /* src0..src3 -> exp pos a (b: the last one, done) */
	DRV_OP_SO_BEGIN,      /* streamout section for stream a */
	DRV_OP_SO_STORE,      /* buffer a, byte offset b in the vertex, src0 */
	DRV_OP_SO_END,
	DRV_OP_ESGS_STORE,    /* src0 at byte b of this lane's ESGS item */
	DRV_OP_ESGS_LOAD,     /* dst = byte b of input vertex a's ESGS item (GS) */
	DRV_OP_GSVS_STORE,    /* src0 at dword b of vertex src1 (counter) of stream a */
	DRV_OP_GSVS_LOAD,     /* copy shader: dst = dword b of this vertex, stream a */
	DRV_OP_GS_MSG,        /* s_sendmsg: a = ISA_MSG_*, b = stream */
	DRV_OP_INTERP,        /* PS: dst = PS input a, component b & 3, interpolated as
			       * b >> 2 says (DRV_INTERP_*) */
	DRV_OP_EXPORT_PARAM,  /* src0..src3 -> exp param a */
	DRV_OP_EXPORT_MRT,    /* src0..src3 -> exp mrt a (b: 1 = the last export, done vm);
			       * a = 8: exp null (no colour output), a = DRV_EXPORT_MRTZ:
			       * exp mrtz (src0 = gl_FragDepth) */
	DRV_OP_EPILOGUE,      /* every lane of the wave active again (after RETURNs) */
	/* textures (drv_spirv_tex.c) */
	DRV_OP_IMAGE,         /* dst(4) = image instruction b (DRV_IMG_*) through sampler
			       * slot a of the descriptor table; src0, src1 = x, y (texels
			       * or normalized), with flags ISA_FLAG_DA src2 = the layer /
			       * z, then the mip level / LOD where b has one */
	DRV_OP_COMPONENT,     /* dst(1) = dword a of src0 */
	/* pixel shaders (drv_spirv_ps.c) */
	DRV_OP_QPERM,         /* dst(1) = src0 of lane 4k + (a >> 2i & 3) for lane 4k + i
			       * (v_mov_b32_qperm; needs drv_ir.wqm for the helper lanes) */
	DRV_OP_COUNT
};

#define DRV_EXPORT_MRTZ 9u

/* DRV_OP_IMAGE kinds */
enum drv_img_kind {
	DRV_IMG_LOAD,         /* image_load: texelFetch at the base level */
	DRV_IMG_LOAD_MIP,     /* image_load_mip: texelFetch at level src2 */
	DRV_IMG_SAMPLE,       /* image_sample: the LOD from the quad's derivatives (PS) */
	DRV_IMG_SAMPLE_L,     /* image_sample_l: LOD src2 */
	DRV_IMG_RESINFO,      /* image_get_resinfo: the size at level src0 (no coordinates) */
	DRV_IMG_SAMPLE_B,     /* image_sample_b: src0 the LOD bias, the coordinates after it (PS) */
	/* with a texel offset (x, y, z signed 6-bit at bits 0, 8, 16) as src0,
	 * then as above */
	DRV_IMG_SAMPLE_O,     /* image_sample_o (PS) */
	DRV_IMG_SAMPLE_L_O,   /* image_sample_l_o */
	DRV_IMG_SAMPLE_B_O,   /* image_sample_b_o (PS) */
	/* src0..3 ds/dx, dt/dx, ds/dy, dt/dy (2D and 2D arrays), then the
	 * coordinates; _o: the offset before them */
	DRV_IMG_SAMPLE_D,     /* image_sample_d */
	DRV_IMG_SAMPLE_D_O,   /* image_sample_d_o */
	/* textureGather of channel imm (0..3): image_gather4_lz(_o, the offset
	 * first) */
	DRV_IMG_GATHER4_LZ,
	DRV_IMG_GATHER4_LZ_O,
};

/* The address VGPRs of a DRV_OP_IMAGE of kind k besides its coordinates
 * (2, ISA_FLAG_DA 3): the offset, the bias, the derivatives, the LOD. */
static inline unsigned drv_img_extra(unsigned k)
{
	switch (k) {
	case DRV_IMG_LOAD_MIP: case DRV_IMG_SAMPLE_L: case DRV_IMG_SAMPLE_B: case DRV_IMG_SAMPLE_O:
	case DRV_IMG_GATHER4_LZ_O:
		return 1;
	case DRV_IMG_SAMPLE_L_O: case DRV_IMG_SAMPLE_B_O: return 2;
	case DRV_IMG_SAMPLE_D: return 4;
	case DRV_IMG_SAMPLE_D_O: return 5;
	default: return 0;
	}
}

enum drv_sysval {
	DRV_SV_VERTEX_ID,     /* v0 + base vertex */
	DRV_SV_INSTANCE_ID,   /* v3 */
	DRV_SV_PRIMITIVE_ID,  /* GS v6 */
	DRV_SV_INVOCATION_ID, /* GS v7 */
	DRV_SV_BASE_VERTEX,   /* s2 */
	DRV_SV_BASE_INSTANCE, /* s3 */
	DRV_SV_STREAM_ID,     /* copy shader: streamout_config[25:24] */
	DRV_SV_FRONT_FACING,  /* PS: the FRONT_FACE VGPR != 0, a bool */
	DRV_SV_FRAG_COORD_X,  /* PS: POS_X_FLOAT .. POS_W_FLOAT (gl_FragCoord) */
	DRV_SV_FRAG_COORD_Y,
	DRV_SV_FRAG_COORD_Z,
	DRV_SV_FRAG_COORD_W,
};

struct drv_ins {
	uint16_t op;          /* enum drv_op */
	uint16_t gm_op;       /* VALU / CMP: enum isa_op */
	uint8_t size;         /* dst dwords (0 = no dst) */
	uint8_t flags;        /* VALU: ISA_FLAG_NEG0..2 */
	uint8_t n_src;
	uint32_t dst;         /* value index, 0 = none */
	uint32_t src[8];      /* value indices (DRV_OP_IMAGE: up to 8 address VGPRs) */
	uint32_t a, b;        /* op-specific (see enum) */
	uint64_t imm;         /* CONST */
};

struct drv_ir_val {
	uint8_t size;         /* dwords */
	int16_t phys;         /* VGPR after drv_ra, -1 before / for rematerialized consts */
	int16_t sgpr;         /* SGPR after drv_ra for a uniform value kept scalar
			       * (phys then -1), else -1 */
	uint32_t def;         /* defining instruction index */
};

/* Scalar registers drv_emit gives control flow: from DRV_SGPR_CF_BASE up,
 * DRV_SGPR_PER_IF per open IF and DRV_SGPR_PER_LOOP per open LOOP; drv_ra
 * places scalar values above the deepest nesting. */
#define DRV_SGPR_CF_BASE   44u
#define DRV_SGPR_PER_IF    4u
#define DRV_SGPR_PER_LOOP  6u
/* s[92:99] the T# and s[100:103] the S# of a DRV_OP_IMAGE, loaded for it:
 * control flow and scalar values stay below. */
#define DRV_SGPR_IMG       92u

struct drv_ir_reg {
	uint8_t size;
	int16_t phys;
};

struct drv_ir {
	enum drv_hw_stage stage;
	struct drv_ins *ins;
	uint32_t n_ins, cap_ins;
	struct drv_ir_val *vals;     /* [0] unused */
	uint32_t n_vals, cap_vals;
	struct drv_ir_reg *regs;     /* [0] unused */
	uint32_t n_regs, cap_regs;
	bool has_return;
	bool wqm;                    /* PS: runs the helper lanes (s_wqm_b64): implicit LOD,
				      * derivatives */
	bool kills;                  /* PS: discards (DRV_OP_RETURN a = 1) */
	uint32_t query_levels;       /* bit k: textureQueryLevels of sampler slot k */
	bool oom;                    /* an append failed; the IR is unusable */
	bool skip_opt;               /* drv_ra runs no drv_opt (tests compare both) */
	uint32_t num_vgprs;          /* set by drv_ra */
};

void drv_ir_init(struct drv_ir *ir, enum drv_hw_stage stage);
void drv_ir_fini(struct drv_ir *ir);

/* Builders; on allocation failure they set ir->oom and return 0. */
uint32_t drv_ir_new_val(struct drv_ir *ir, unsigned size);
uint32_t drv_ir_new_reg(struct drv_ir *ir, unsigned size);
/* Appends an instruction; returns its dst value (0 if none / oom). */
uint32_t drv_ir_emit(struct drv_ir *ir, const struct drv_ins *tmpl);
uint32_t drv_ir_const(struct drv_ir *ir, unsigned size, uint64_t v);
uint32_t drv_ir_valu(struct drv_ir *ir, unsigned gm_op, unsigned size, uint32_t s0, uint32_t s1, uint32_t s2);
uint32_t drv_ir_cmp(struct drv_ir *ir, unsigned gm_op, uint32_t s0, uint32_t s1);
uint32_t drv_ir_select(struct drv_ir *ir, uint32_t cond, uint32_t t, uint32_t f);
uint32_t drv_ir_op1(struct drv_ir *ir, enum drv_op op, unsigned size, uint32_t s0, uint32_t a, uint32_t b);
void drv_ir_op0(struct drv_ir *ir, enum drv_op op, uint32_t s0, uint32_t a, uint32_t b);
uint32_t drv_ir_reg_read(struct drv_ir *ir, uint32_t reg);
void drv_ir_reg_write(struct drv_ir *ir, uint32_t reg, uint32_t v);

/* Checks: SSA (one def, defined before use in list order, sizes match the
 * op), structured markers nest, BREAK / CONTINUE inside a loop, regs and
 * values in range, lowered-only ops present only after `pass`.  On failure
 * returns XT_ERR_INTERNAL naming the pass and the instruction. */
enum xt_rc drv_ir_validate(const struct drv_ir *ir, const char *pass, struct xt_err *err);

/* drv_opt.c: copy propagation, reg forwarding and dead reg writes (run by
 * drv_ra before allocation); never changes what a lane computes. */
enum xt_rc drv_opt(struct drv_ir *ir, struct xt_err *err);

/* Prints the IR, one instruction per line with its index. */
void drv_ir_print(const struct drv_ir *ir, struct xt_buf *out);

const char *drv_op_name(enum drv_op op);

#endif
