/*
 * isa_encoding.c - the opcode table, instruction encoding and decoding, and
 * operand checking of the xfbtrace shader ISA (docs/isa.md "Encoding").
 *
 * Decoding checks every operand against its opcode's class so that the
 * interpreter can trust a decoded instruction: it never indexes a register
 * file with an unchecked code.  Shaders come from GPU memory the driver
 * wrote, i.e. they are untrusted input.
 */
#include <stdio.h>
#include <string.h>

#include "isa.h"

const struct isa_op_info isa_ops[ISA_OP_COUNT] = {
#define ISA_OP(e, n, c, d, s0, s1, s2) [ISA_OP_##e] = { n, ISA_CLS_##c, d, { s0, s1, s2 } },
#include "isa_ops.h"
#undef ISA_OP
};

uint32_t isa_inline_value(unsigned opd)
{
	static const uint32_t fl[8] = {
		0x3f000000u, 0xbf000000u, 0x3f800000u, 0xbf800000u,
		0x40000000u, 0xc0000000u, 0x40800000u, 0xc0800000u,
	};
	if (opd >= ISA_OPD_INT_FIRST && opd <= ISA_OPD_INT_FIRST + 64)
		return opd - ISA_OPD_INT_FIRST;
	if (opd > ISA_OPD_INT_FIRST + 64 && opd <= ISA_OPD_INT_LAST)
		return (uint32_t)-(int32_t)(opd - (ISA_OPD_INT_FIRST + 64));
	if (opd >= ISA_OPD_F_HALF && opd <= ISA_OPD_F_LAST)
		return fl[opd - ISA_OPD_F_HALF];
	return 0;
}

static bool opd_is_const(unsigned o)
{
	return (o >= ISA_OPD_INT_FIRST && o <= ISA_OPD_INT_LAST) ||
	       (o >= ISA_OPD_F_HALF && o <= ISA_OPD_F_LAST) || o == ISA_OPD_LITERAL;
}

/* A range of `regs` scalar registers starting at `o`: general SGPRs or one
 * of the named specials (vcc, exec as pairs or halves, m0). */
static bool sreg_range_ok(unsigned o, unsigned regs)
{
	if (o <= ISA_OPD_SGPR_LAST)
		return o + regs - 1 <= ISA_OPD_SGPR_LAST;
	if (o == ISA_OPD_VCC_LO || o == ISA_OPD_EXEC_LO)
		return regs <= 2;
	if (o == ISA_OPD_VCC_HI || o == ISA_OPD_EXEC_HI || o == ISA_OPD_M0)
		return regs == 1;
	return false;
}

static bool vreg_range_ok(unsigned o, unsigned regs)
{
	return isa_opd_is_vgpr(o) && o - ISA_OPD_VGPR0 + regs <= ISA_NUM_VGPRS;
}

/* A source that scalar units can read: SGPRs, constants, literal, SCC. */
static bool ssrc_ok(unsigned o, unsigned regs)
{
	return sreg_range_ok(o, regs) || opd_is_const(o) || (o == ISA_OPD_SCC && regs == 1);
}

static bool vsrc_ok(unsigned o, unsigned regs)
{
	return ssrc_ok(o, regs) || vreg_range_ok(o, regs);
}

static enum xt_rc check_operands(const struct isa_inst *in, struct xt_err *err)
{
	const struct isa_op_info *info = &isa_ops[in->op];
	const char *bad = NULL;
	unsigned i;

	for (i = 0; i < 3; i++)
		if (!info->src_regs[i] && in->src[i] != ISA_OPD_NONE)
			return XT_FAIL(err, XT_ERR_CORRUPT, "%s takes no src%u", info->name, i);
	if (!info->dst_regs && in->dst != ISA_OPD_NONE)
		return XT_FAIL(err, XT_ERR_CORRUPT, "%s takes no destination", info->name);
	/* Unused fields must be zero, so that every valid encoding has exactly
	 * one text form and disassembly round-trips. */
	if (in->flags && !(info->cls == ISA_CLS_VOP || info->cls == ISA_CLS_VMEM ||
			   (info->cls == ISA_CLS_VOPC && !(in->flags & ~3u)) ||
			   (info->cls == ISA_CLS_VIMG && in->flags == ISA_FLAG_DA) ||
			   (info->cls == ISA_CLS_EXP && !(in->flags & ~(ISA_FLAG_DONE | ISA_FLAG_VM)))))
		return XT_FAIL(err, XT_ERR_CORRUPT, "%s: flags 0x%x not allowed", info->name, in->flags);
	if (in->imm && !(info->cls == ISA_CLS_SOPP || info->cls == ISA_CLS_MSG ||
			 info->cls == ISA_CLS_VMEM || info->cls == ISA_CLS_EXP ||
			 info->cls == ISA_CLS_VINTERP || info->cls == ISA_CLS_VQPERM ||
			 info->cls == ISA_CLS_VIMG || info->cls == ISA_CLS_DS))
		return XT_FAIL(err, XT_ERR_CORRUPT, "%s takes no immediate", info->name);
	if (info->cls == ISA_CLS_SOPP && in->imm && in->op != ISA_OP_S_NOP && in->op != ISA_OP_S_WAITCNT)
		return XT_FAIL(err, XT_ERR_CORRUPT, "%s takes no immediate", info->name);

	switch (info->cls) {
	case ISA_CLS_SOP:
		if (!sreg_range_ok(in->dst, info->dst_regs))
			bad = "dst";
		for (i = 0; i < 3 && !bad; i++)
			if (info->src_regs[i] && !ssrc_ok(in->src[i], info->src_regs[i]))
				bad = "a source";
		break;
	case ISA_CLS_SOPC:
		for (i = 0; i < 2 && !bad; i++)
			if (!ssrc_ok(in->src[i], 1))
				bad = "a source";
		break;
	case ISA_CLS_SMEM:
		if (!sreg_range_ok(in->dst, info->dst_regs) || in->dst > ISA_OPD_SGPR_LAST)
			bad = "dst";
		else if (in->src[0] > ISA_OPD_SGPR_LAST || !sreg_range_ok(in->src[0], info->src_regs[0]))
			bad = "the base";
		else if (!ssrc_ok(in->src[1], 1))
			bad = "the offset";
		break;
	case ISA_CLS_VOP:
		if (in->op == ISA_OP_V_CNDMASK_B32 && !sreg_range_ok(in->src[2], 2))
			bad = "the lane mask";
		if (!vreg_range_ok(in->dst, info->dst_regs))
			bad = "dst";
		for (i = 0; i < 3 && !bad; i++)
			if ((in->flags >> i & 1) && !info->src_regs[i])
				bad = "neg modifier";
		for (i = 0; i < 3 && !bad; i++)
			if (info->src_regs[i] && !vsrc_ok(in->src[i], info->src_regs[i]))
				bad = "a source";
		break;
	case ISA_CLS_VOPC:
		if (!sreg_range_ok(in->dst, 2))
			bad = "dst";
		for (i = 0; i < 2 && !bad; i++)
			if (!vsrc_ok(in->src[i], info->src_regs[i]))
				bad = "a source";
		break;
	case ISA_CLS_VLANE:
		if (in->op == ISA_OP_V_WRITELANE_B32) {
			if (!vreg_range_ok(in->dst, 1)) bad = "dst";
			else if (!ssrc_ok(in->src[0], 1)) bad = "src0";
		} else {
			if (!sreg_range_ok(in->dst, 1)) bad = "dst";
			else if (!vreg_range_ok(in->src[0], 1)) bad = "src0";
		}
		if (!bad && info->src_regs[1] && !ssrc_ok(in->src[1], 1))
			bad = "the lane";
		break;
	case ISA_CLS_VMEM:
		if (!vreg_range_ok(in->dst, info->dst_regs))
			bad = "the data registers";
		else if ((in->flags & (ISA_FLAG_OFFEN | ISA_FLAG_IDXEN)) ?
			 !vreg_range_ok(in->src[0], ((in->flags & 3) == 3) ? 2 : 1) :
			 in->src[0] != ISA_OPD_NONE)
			bad = "vaddr";
		else if (in->src[1] > ISA_OPD_SGPR_LAST || !sreg_range_ok(in->src[1], 4))
			bad = "the descriptor";
		else if (!ssrc_ok(in->src[2], 1))
			bad = "soffset";
		break;
	case ISA_CLS_EXP:
		if (!vreg_range_ok(in->dst, 4))
			bad = "the data registers";
		else if (!(in->imm >= ISA_EXP_POS0 && in->imm < ISA_EXP_POS0 + 4) &&
			 !(in->imm >= ISA_EXP_PARAM0 && in->imm < ISA_EXP_PARAM0 + 32) &&
			 !(in->imm <= ISA_EXP_NULL))
			bad = "the target";
		else if ((in->flags & ISA_FLAG_VM) && in->imm > ISA_EXP_NULL)
			bad = "vm (pixel-shader exports only)";
		break;
	case ISA_CLS_VINTERP:
		if (!vreg_range_ok(in->dst, 1))
			bad = "dst";
		else if (info->src_regs[0] && !vreg_range_ok(in->src[0], 1))
			bad = "the barycentric (a VGPR)";
		else if (in->imm >> 9 ||
			 (in->op == ISA_OP_V_INTERP_MOV_F32 ? ISA_INTERP_SEL(in->imm) > ISA_INTERP_P0
							     : ISA_INTERP_SEL(in->imm) != 0))
			bad = "the attribute";
		break;
	case ISA_CLS_VIMG:
		if (!vreg_range_ok(in->dst, 4))
			bad = "the data registers";
		else if (!vreg_range_ok(in->src[0], info->src_regs[0] + (in->flags & ISA_FLAG_DA ? 1u : 0u)))
			bad = "the coordinates (a VGPR range)";
		else if (in->src[1] > ISA_OPD_SGPR_LAST || !sreg_range_ok(in->src[1], 8))
			bad = "the image descriptor (s[n:n+7])";
		else if (info->src_regs[2] && (in->src[2] > ISA_OPD_SGPR_LAST || !sreg_range_ok(in->src[2], 4)))
			bad = "the sampler descriptor (s[n:n+3])";
		else if (!in->imm || in->imm > 0xF)
			bad = "dmask (1..15)";
		break;
	case ISA_CLS_VQPERM:
		if (!vreg_range_ok(in->dst, 1))
			bad = "dst";
		else if (!vreg_range_ok(in->src[0], 1))
			bad = "src0 (a VGPR)";
		else if (in->imm > 0xFF)
			bad = "the quad permutation";
		break;
	case ISA_CLS_DS:
		if (info->dst_regs && !vreg_range_ok(in->dst, info->dst_regs))
			bad = "dst (a VGPR)";
		else if (!vreg_range_ok(in->src[0], 1))
			bad = "the address (a VGPR)";
		else if (info->src_regs[1] && !vreg_range_ok(in->src[1], info->src_regs[1]))
			bad = "the data (a VGPR)";
		break;
	case ISA_CLS_MSG:
		if ((in->imm & 0xF) < ISA_MSG_GS_EMIT || (in->imm & 0xF) > ISA_MSG_GS_DONE ||
		    (in->imm >> 4) > 3)
			bad = "the message";
		break;
	default:
		break;
	}
	if (bad)
		return XT_FAIL(err, XT_ERR_CORRUPT, "%s: invalid %s", info->name, bad);
	return XT_OK;
}

enum xt_rc isa_validate(const struct isa_inst *in, struct xt_err *err)
{
	if (in->op >= ISA_OP_COUNT)
		return XT_FAIL(err, XT_ERR_CORRUPT, "unknown opcode %u", in->op);
	return check_operands(in, err);
}

static bool uses_literal(const struct isa_inst *in)
{
	const struct isa_op_info *info = &isa_ops[in->op];
	if (info->cls == ISA_CLS_BRANCH)
		return false;
	for (unsigned i = 0; i < 3; i++)
		if (info->src_regs[i] && in->src[i] == ISA_OPD_LITERAL)
			return true;
	return false;
}

enum xt_rc isa_decode(const uint32_t *dw, size_t avail_dw, struct isa_inst *in,
			 struct xt_err *err)
{
	if (avail_dw < 2)
		return XT_FAIL(err, XT_ERR_CORRUPT, "truncated instruction");
	memset(in, 0, sizeof *in);
	in->op = dw[0] & 0xFF;
	if (in->op >= ISA_OP_COUNT)
		return XT_FAIL(err, XT_ERR_CORRUPT, "unknown opcode %u", in->op);
	in->dst = (dw[0] >> 8) & 0x3FF;
	in->src[0] = (dw[0] >> 18) & 0x3FF;
	in->flags = dw[0] >> 28;
	in->size_dw = 2;
	if (isa_ops[in->op].cls == ISA_CLS_BRANCH) {
		in->src[1] = in->src[2] = ISA_OPD_NONE;
		in->simm = (int32_t)dw[1];
	} else {
		in->src[1] = dw[1] & 0x3FF;
		in->src[2] = (dw[1] >> 10) & 0x3FF;
		in->imm = dw[1] >> 20;
	}
	if (uses_literal(in)) {
		if (avail_dw < 3)
			return XT_FAIL(err, XT_ERR_CORRUPT, "truncated literal");
		in->literal = dw[2];
		in->size_dw = 3;
	}
	return check_operands(in, err);
}

enum xt_rc isa_encode(const struct isa_inst *in, struct xt_buf *out)
{
	uint32_t d[3];
	unsigned n = 2;
	struct xt_err err;

	if (in->op >= ISA_OP_COUNT)
		return XT_ERR_INVALID;
	if (check_operands(in, &err) != XT_OK)
		return XT_ERR_INVALID;
	d[0] = in->op | (uint32_t)(in->dst & 0x3FF) << 8 | (uint32_t)(in->src[0] & 0x3FF) << 18 |
	       (uint32_t)(in->flags & 0xF) << 28;
	if (isa_ops[in->op].cls == ISA_CLS_BRANCH)
		d[1] = (uint32_t)in->simm;
	else
		d[1] = (in->src[1] & 0x3FFu) | (in->src[2] & 0x3FFu) << 10 | (uint32_t)(in->imm & 0xFFF) << 20;
	if (uses_literal(in))
		d[n++] = in->literal;
	return xt_buf_append(out, d, n * 4);
}

void isa_format_operand(unsigned o, unsigned regs, uint32_t literal, char *buf, size_t n)
{
	static const char *fl[8] = { "0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0" };

	if (o <= ISA_OPD_SGPR_LAST || isa_opd_is_vgpr(o)) {
		char c = o <= ISA_OPD_SGPR_LAST ? 's' : 'v';
		unsigned r = o <= ISA_OPD_SGPR_LAST ? o : o - ISA_OPD_VGPR0;
		if (regs <= 1)
			snprintf(buf, n, "%c%u", c, r);
		else
			snprintf(buf, n, "%c[%u:%u]", c, r, r + regs - 1);
	} else if (o == ISA_OPD_VCC_LO) {
		snprintf(buf, n, regs == 2 ? "vcc" : "vcc_lo");
	} else if (o == ISA_OPD_VCC_HI) {
		snprintf(buf, n, "vcc_hi");
	} else if (o == ISA_OPD_EXEC_LO) {
		snprintf(buf, n, regs == 2 ? "exec" : "exec_lo");
	} else if (o == ISA_OPD_EXEC_HI) {
		snprintf(buf, n, "exec_hi");
	} else if (o == ISA_OPD_M0) {
		snprintf(buf, n, "m0");
	} else if (o == ISA_OPD_SCC) {
		snprintf(buf, n, "scc");
	} else if (o >= ISA_OPD_INT_FIRST && o <= ISA_OPD_INT_LAST) {
		snprintf(buf, n, "%d", (int32_t)isa_inline_value(o));
	} else if (o >= ISA_OPD_F_HALF && o <= ISA_OPD_F_LAST) {
		snprintf(buf, n, "%s", fl[o - ISA_OPD_F_HALF]);
	} else if (o == ISA_OPD_LITERAL) {
		snprintf(buf, n, "0x%08x", literal);
	} else if (o == ISA_OPD_NONE) {
		snprintf(buf, n, "off");
	} else {
		snprintf(buf, n, "opd%u", o);
	}
}
