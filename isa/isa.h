/*
 * isa.h - the xfbtrace shader ISA: encoding, decoding, assembler and
 * disassembler.  The ISA itself (registers, operands, instruction semantics,
 * the shader ABIs) is specified in docs/isa.md; this header is its C face.
 *
 * Encoding (little-endian dwords; docs/isa.md "Encoding"):
 *
 *   DW0  [7:0] OP   [17:8] DST   [27:18] SRC0   [31:28] FLAGS
 *   DW1  [9:0] SRC1 [19:10] SRC2 [31:20] IMM12        (branches: DW1 = SIMM32)
 *   DW2  32-bit literal, present iff an operand is ISA_OPD_LITERAL
 *
 * Operands are 10-bit codes (ISA_OPD_*): SGPRs and special scalar registers,
 * inline constants, a literal, VGPRs.
 */
#ifndef ISA_H
#define ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xt_buf.h"
#include "xt_rc.h"

enum isa_op {
#define ISA_OP(e, name, cls, d, s0, s1, s2) ISA_OP_##e,
#include "isa_ops.h"
#undef ISA_OP
	ISA_OP_COUNT
};

enum isa_class {
	ISA_CLS_SOP, ISA_CLS_SOPC, ISA_CLS_SOPP, ISA_CLS_BRANCH, ISA_CLS_MSG,
	ISA_CLS_SMEM, ISA_CLS_VOP, ISA_CLS_VOPC, ISA_CLS_VLANE, ISA_CLS_VMEM,
	ISA_CLS_EXP, ISA_CLS_VINTERP, ISA_CLS_VQPERM, ISA_CLS_VIMG,
	ISA_CLS_DS,
};

struct isa_op_info {
	const char *name;
	uint8_t cls;        /* enum isa_class */
	uint8_t dst_regs;   /* registers written (0 = none) */
	uint8_t src_regs[3];/* registers read per source (0 = unused) */
};
extern const struct isa_op_info isa_ops[ISA_OP_COUNT];

/* Operand codes. */
#define ISA_OPD_SGPR_LAST   103u   /* s0..s103 */
#define ISA_OPD_VCC_LO      106u
#define ISA_OPD_VCC_HI      107u
#define ISA_OPD_M0          124u
#define ISA_OPD_EXEC_LO     126u
#define ISA_OPD_EXEC_HI     127u
#define ISA_OPD_INT_FIRST   128u   /* 128..192 = 0..64, 193..208 = -1..-16 */
#define ISA_OPD_INT_LAST    208u
#define ISA_OPD_F_HALF      240u   /* 240..247 = 0.5 -0.5 1.0 -1.0 2.0 -2.0 4.0 -4.0 */
#define ISA_OPD_F_LAST      247u
#define ISA_OPD_SCC         253u
#define ISA_OPD_LITERAL     255u
#define ISA_OPD_VGPR0       256u   /* 256..511 = v0..v255 */
#define ISA_OPD_NONE        1023u

#define ISA_NUM_SGPRS       104u   /* general SGPRs a shader may allocate */
#define ISA_NUM_VGPRS       256u

static inline bool isa_opd_is_sgpr(unsigned o) { return o <= ISA_OPD_EXEC_HI; }
static inline bool isa_opd_is_vgpr(unsigned o) { return o >= ISA_OPD_VGPR0 && o < ISA_OPD_VGPR0 + ISA_NUM_VGPRS; }

/* Flag bits (DW0 [31:28]). */
#define ISA_FLAG_NEG0   0x1u   /* VOP: negate float src0 */
#define ISA_FLAG_NEG1   0x2u
#define ISA_FLAG_NEG2   0x4u
#define ISA_FLAG_CLAMP  0x8u   /* VOP: clamp float result to [0,1] */
#define ISA_FLAG_OFFEN  0x1u   /* VMEM: vaddr (or vaddr+1 with idxen) is a byte offset */
#define ISA_FLAG_IDXEN  0x2u   /* VMEM: vaddr is a record index */
#define ISA_FLAG_GLC    0x4u
#define ISA_FLAG_SLC    0x8u
#define ISA_FLAG_DONE   0x1u   /* EXP: last export of the shader */
#define ISA_FLAG_VM     0x2u   /* EXP: exec is the valid mask (pixel shaders) */
#define ISA_FLAG_DA     0x1u   /* VIMG: a third coordinate (2D array layer, 3D depth) before
				* the level / LOD: one more coordinate register (GCN's DA) */

/* v_interp_* immediates: IMM12 = chan | attr << 2 | sel << 7
 * (sel: v_interp_mov_f32 only, GCN's order). */
#define ISA_INTERP_CHAN(imm)  ((imm) & 3u)
#define ISA_INTERP_ATTR(imm)  (((imm) >> 2) & 31u)
#define ISA_INTERP_SEL(imm)   (((imm) >> 7) & 3u)
#define ISA_INTERP_IMM(attr, chan, sel) ((uint16_t)((chan) | (attr) << 2 | (sel) << 7))
#define ISA_INTERP_P10  0u
#define ISA_INTERP_P20  1u
#define ISA_INTERP_P0   2u

/* v_mov_b32_qperm: IMM12 = a | b << 2 | c << 4 | d << 6: lane 4k+i reads
 * lane 4k+[a,b,c,d][i]. */
#define ISA_QPERM_LANE(imm, i) (((imm) >> (2 * (i))) & 3u)

/* s_sendmsg immediates: IMM12 = msg | stream << 4 */
#define ISA_MSG_GS_EMIT 1u
#define ISA_MSG_GS_CUT  2u
#define ISA_MSG_GS_DONE 3u

/* Export targets (IMM12 of exp). */
#define ISA_EXP_MRT0    0u     /* mrt0..mrt7 = 0..7: colour outputs of a PS */
#define ISA_EXP_MRTZ    8u     /* depth / stencil / sample mask of a PS */
#define ISA_EXP_NULL    9u     /* nothing: a PS that exports no colour */
#define ISA_EXP_POS0    12u    /* pos0..pos3 = 12..15 */
#define ISA_EXP_PARAM0  32u    /* param0..param31 = 32..63 */

struct isa_inst {
	uint16_t op;          /* enum isa_op */
	uint16_t dst;         /* operand code */
	uint16_t src[3];      /* operand codes, ISA_OPD_NONE if unused */
	uint8_t flags;
	uint16_t imm;         /* IMM12 */
	int32_t simm;         /* branches: dword offset from the next instruction */
	uint32_t literal;
	uint8_t size_dw;      /* 2 or 3 */
};

/*
 * Decodes the instruction at dw[0..avail_dw).  On success fills `inst` and
 * returns XT_OK; on an unknown opcode, a truncated instruction or an operand
 * that is not valid for the opcode returns XT_ERR_CORRUPT with the reason
 * in `err` (which may be NULL).  Never reads beyond avail_dw.
 */
enum xt_rc isa_decode(const uint32_t *dw, size_t avail_dw, struct isa_inst *inst,
			 struct xt_err *err);
/* Checks an instruction built by hand (as isa_decode checks dwords). */
enum xt_rc isa_validate(const struct isa_inst *inst, struct xt_err *err);
/* Appends the encoding of `inst` (2 or 3 dwords) to `out`. */
enum xt_rc isa_encode(const struct isa_inst *inst, struct xt_buf *out);

/*
 * Assembles `src` (docs/isa.md "Assembly syntax") into dwords appended to
 * `out`.  Errors name the line: "line 7: unknown instruction 'v_ad_f32'".
 * On error `out` may hold a partial program.
 */
enum xt_rc isa_assemble(const char *src, struct xt_buf *out, struct xt_err *err);

/* Disassembly options. */
#define ISA_DISASM_OFFSETS 0x1u  /* prefix each line with the dword offset and encoding */

/*
 * Disassembles n_dw dwords into text appended to `out`, one instruction
 * per line, with labels for branch targets.  Undecodable dwords print as
 * `.dword 0x...` and disassembly resyncs at the next dword, so the output
 * of any input assembles back to the same dwords.
 */
enum xt_rc isa_disassemble(const uint32_t *dw, size_t n_dw, unsigned flags,
			      struct xt_buf *out);

/* Prints one operand ("s5", "v[4:7]", "vcc", "1.0", "0x3f800000") of
 * `regs` registers into buf (>= 24 bytes). */
void isa_format_operand(unsigned opd, unsigned regs, uint32_t literal, char *buf, size_t n);

/* The 32-bit value of an inline-constant operand code (ints, f32 bits). */
uint32_t isa_inline_value(unsigned opd);

#endif
