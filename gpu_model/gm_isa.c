/*
 * gm_isa.c - the opcode table, instruction encoding and decoding, and
 * operand checking of the xfbtrace shader ISA (docs/isa.md "Encoding").
 *
 * Decoding checks every operand against its opcode's class so that the
 * interpreter can trust a decoded instruction: it never indexes a register
 * file with an unchecked code.  Shaders come from GPU memory the driver
 * wrote, i.e. they are untrusted input.
 */
#include <stdio.h>
#include <string.h>

#include "gm_isa.h"

const struct gm_isa_op_info gm_isa_ops[GM_OP_COUNT] = {
#define GM_OP(e, n, c, d, s0, s1, s2) [GM_OP_##e] = { n, GM_CLS_##c, d, { s0, s1, s2 } },
#include "gm_isa_ops.h"
#undef GM_OP
};

uint32_t gm_isa_inline_value(unsigned opd)
{
	static const uint32_t fl[8] = {
		0x3f000000u, 0xbf000000u, 0x3f800000u, 0xbf800000u,
		0x40000000u, 0xc0000000u, 0x40800000u, 0xc0800000u,
	};
	if (opd >= GM_OPD_INT_FIRST && opd <= GM_OPD_INT_FIRST + 64)
		return opd - GM_OPD_INT_FIRST;
	if (opd > GM_OPD_INT_FIRST + 64 && opd <= GM_OPD_INT_LAST)
		return (uint32_t)-(int32_t)(opd - (GM_OPD_INT_FIRST + 64));
	if (opd >= GM_OPD_F_HALF && opd <= GM_OPD_F_LAST)
		return fl[opd - GM_OPD_F_HALF];
	return 0;
}

static bool opd_is_const(unsigned o)
{
	return (o >= GM_OPD_INT_FIRST && o <= GM_OPD_INT_LAST) ||
	       (o >= GM_OPD_F_HALF && o <= GM_OPD_F_LAST) || o == GM_OPD_LITERAL;
}

/* A range of `regs` scalar registers starting at `o`: general SGPRs or one
 * of the named specials (vcc, exec as pairs or halves, m0). */
static bool sreg_range_ok(unsigned o, unsigned regs)
{
	if (o <= GM_OPD_SGPR_LAST)
		return o + regs - 1 <= GM_OPD_SGPR_LAST;
	if (o == GM_OPD_VCC_LO || o == GM_OPD_EXEC_LO)
		return regs <= 2;
	if (o == GM_OPD_VCC_HI || o == GM_OPD_EXEC_HI || o == GM_OPD_M0)
		return regs == 1;
	return false;
}

static bool vreg_range_ok(unsigned o, unsigned regs)
{
	return gm_opd_is_vgpr(o) && o - GM_OPD_VGPR0 + regs <= GM_NUM_VGPRS;
}

/* A source that scalar units can read: SGPRs, constants, literal, SCC. */
static bool ssrc_ok(unsigned o, unsigned regs)
{
	return sreg_range_ok(o, regs) || opd_is_const(o) || (o == GM_OPD_SCC && regs == 1);
}

static bool vsrc_ok(unsigned o, unsigned regs)
{
	return ssrc_ok(o, regs) || vreg_range_ok(o, regs);
}

static enum xt_rc check_operands(const struct gm_isa_inst *in, struct xt_err *err)
{
	const struct gm_isa_op_info *info = &gm_isa_ops[in->op];
	const char *bad = NULL;
	unsigned i;

	for (i = 0; i < 3; i++)
		if (!info->src_regs[i] && in->src[i] != GM_OPD_NONE)
			return XT_FAIL(err, XT_ERR_CORRUPT, "%s takes no src%u", info->name, i);
	if (!info->dst_regs && in->dst != GM_OPD_NONE)
		return XT_FAIL(err, XT_ERR_CORRUPT, "%s takes no destination", info->name);
	/* Unused fields must be zero, so that every valid encoding has exactly
	 * one text form and disassembly round-trips. */
	if (in->flags && !(info->cls == GM_CLS_VOP || info->cls == GM_CLS_VMEM ||
			   (info->cls == GM_CLS_VOPC && !(in->flags & ~3u)) ||
			   (info->cls == GM_CLS_EXP && in->flags == GM_FLAG_DONE)))
		return XT_FAIL(err, XT_ERR_CORRUPT, "%s: flags 0x%x not allowed", info->name, in->flags);
	if (in->imm && !(info->cls == GM_CLS_SOPP || info->cls == GM_CLS_MSG ||
			 info->cls == GM_CLS_VMEM || info->cls == GM_CLS_EXP))
		return XT_FAIL(err, XT_ERR_CORRUPT, "%s takes no immediate", info->name);
	if (info->cls == GM_CLS_SOPP && in->imm && in->op != GM_OP_S_NOP && in->op != GM_OP_S_WAITCNT)
		return XT_FAIL(err, XT_ERR_CORRUPT, "%s takes no immediate", info->name);

	switch (info->cls) {
	case GM_CLS_SOP:
		if (!sreg_range_ok(in->dst, info->dst_regs))
			bad = "dst";
		for (i = 0; i < 3 && !bad; i++)
			if (info->src_regs[i] && !ssrc_ok(in->src[i], info->src_regs[i]))
				bad = "a source";
		break;
	case GM_CLS_SOPC:
		for (i = 0; i < 2 && !bad; i++)
			if (!ssrc_ok(in->src[i], 1))
				bad = "a source";
		break;
	case GM_CLS_SMEM:
		if (!sreg_range_ok(in->dst, info->dst_regs) || in->dst > GM_OPD_SGPR_LAST)
			bad = "dst";
		else if (in->src[0] > GM_OPD_SGPR_LAST || !sreg_range_ok(in->src[0], info->src_regs[0]))
			bad = "the base";
		else if (!ssrc_ok(in->src[1], 1))
			bad = "the offset";
		break;
	case GM_CLS_VOP:
		if (in->op == GM_OP_V_CNDMASK_B32 && !sreg_range_ok(in->src[2], 2))
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
	case GM_CLS_VOPC:
		if (!sreg_range_ok(in->dst, 2))
			bad = "dst";
		for (i = 0; i < 2 && !bad; i++)
			if (!vsrc_ok(in->src[i], info->src_regs[i]))
				bad = "a source";
		break;
	case GM_CLS_VLANE:
		if (in->op == GM_OP_V_WRITELANE_B32) {
			if (!vreg_range_ok(in->dst, 1)) bad = "dst";
			else if (!ssrc_ok(in->src[0], 1)) bad = "src0";
		} else {
			if (!sreg_range_ok(in->dst, 1)) bad = "dst";
			else if (!vreg_range_ok(in->src[0], 1)) bad = "src0";
		}
		if (!bad && info->src_regs[1] && !ssrc_ok(in->src[1], 1))
			bad = "the lane";
		break;
	case GM_CLS_VMEM:
		if (!vreg_range_ok(in->dst, info->dst_regs))
			bad = "the data registers";
		else if ((in->flags & (GM_FLAG_OFFEN | GM_FLAG_IDXEN)) ?
			 !vreg_range_ok(in->src[0], ((in->flags & 3) == 3) ? 2 : 1) :
			 in->src[0] != GM_OPD_NONE)
			bad = "vaddr";
		else if (in->src[1] > GM_OPD_SGPR_LAST || !sreg_range_ok(in->src[1], 4))
			bad = "the descriptor";
		else if (!ssrc_ok(in->src[2], 1))
			bad = "soffset";
		break;
	case GM_CLS_EXP:
		if (!vreg_range_ok(in->dst, 4))
			bad = "the data registers";
		else if (!(in->imm >= GM_EXP_POS0 && in->imm < GM_EXP_POS0 + 4) &&
			 !(in->imm >= GM_EXP_PARAM0 && in->imm < GM_EXP_PARAM0 + 32))
			bad = "the target";
		break;
	case GM_CLS_MSG:
		if ((in->imm & 0xF) < GM_MSG_GS_EMIT || (in->imm & 0xF) > GM_MSG_GS_DONE ||
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

enum xt_rc gm_isa_validate(const struct gm_isa_inst *in, struct xt_err *err)
{
	if (in->op >= GM_OP_COUNT)
		return XT_FAIL(err, XT_ERR_CORRUPT, "unknown opcode %u", in->op);
	return check_operands(in, err);
}

static bool uses_literal(const struct gm_isa_inst *in)
{
	const struct gm_isa_op_info *info = &gm_isa_ops[in->op];
	if (info->cls == GM_CLS_BRANCH)
		return false;
	for (unsigned i = 0; i < 3; i++)
		if (info->src_regs[i] && in->src[i] == GM_OPD_LITERAL)
			return true;
	return false;
}

enum xt_rc gm_isa_decode(const uint32_t *dw, size_t avail_dw, struct gm_isa_inst *in,
			 struct xt_err *err)
{
	if (avail_dw < 2)
		return XT_FAIL(err, XT_ERR_CORRUPT, "truncated instruction");
	memset(in, 0, sizeof *in);
	in->op = dw[0] & 0xFF;
	if (in->op >= GM_OP_COUNT)
		return XT_FAIL(err, XT_ERR_CORRUPT, "unknown opcode %u", in->op);
	in->dst = (dw[0] >> 8) & 0x3FF;
	in->src[0] = (dw[0] >> 18) & 0x3FF;
	in->flags = dw[0] >> 28;
	in->size_dw = 2;
	if (gm_isa_ops[in->op].cls == GM_CLS_BRANCH) {
		in->src[1] = in->src[2] = GM_OPD_NONE;
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

enum xt_rc gm_isa_encode(const struct gm_isa_inst *in, struct xt_buf *out)
{
	uint32_t d[3];
	unsigned n = 2;
	struct xt_err err;

	if (in->op >= GM_OP_COUNT)
		return XT_ERR_INVALID;
	if (check_operands(in, &err) != XT_OK)
		return XT_ERR_INVALID;
	d[0] = in->op | (uint32_t)(in->dst & 0x3FF) << 8 | (uint32_t)(in->src[0] & 0x3FF) << 18 |
	       (uint32_t)(in->flags & 0xF) << 28;
	if (gm_isa_ops[in->op].cls == GM_CLS_BRANCH)
		d[1] = (uint32_t)in->simm;
	else
		d[1] = (in->src[1] & 0x3FFu) | (in->src[2] & 0x3FFu) << 10 | (uint32_t)(in->imm & 0xFFF) << 20;
	if (uses_literal(in))
		d[n++] = in->literal;
	return xt_buf_append(out, d, n * 4);
}

void gm_isa_format_operand(unsigned o, unsigned regs, uint32_t literal, char *buf, size_t n)
{
	static const char *fl[8] = { "0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0" };

	if (o <= GM_OPD_SGPR_LAST || gm_opd_is_vgpr(o)) {
		char c = o <= GM_OPD_SGPR_LAST ? 's' : 'v';
		unsigned r = o <= GM_OPD_SGPR_LAST ? o : o - GM_OPD_VGPR0;
		if (regs <= 1)
			snprintf(buf, n, "%c%u", c, r);
		else
			snprintf(buf, n, "%c[%u:%u]", c, r, r + regs - 1);
	} else if (o == GM_OPD_VCC_LO) {
		snprintf(buf, n, regs == 2 ? "vcc" : "vcc_lo");
	} else if (o == GM_OPD_VCC_HI) {
		snprintf(buf, n, "vcc_hi");
	} else if (o == GM_OPD_EXEC_LO) {
		snprintf(buf, n, regs == 2 ? "exec" : "exec_lo");
	} else if (o == GM_OPD_EXEC_HI) {
		snprintf(buf, n, "exec_hi");
	} else if (o == GM_OPD_M0) {
		snprintf(buf, n, "m0");
	} else if (o == GM_OPD_SCC) {
		snprintf(buf, n, "scc");
	} else if (o >= GM_OPD_INT_FIRST && o <= GM_OPD_INT_LAST) {
		snprintf(buf, n, "%d", (int32_t)gm_isa_inline_value(o));
	} else if (o >= GM_OPD_F_HALF && o <= GM_OPD_F_LAST) {
		snprintf(buf, n, "%s", fl[o - GM_OPD_F_HALF]);
	} else if (o == GM_OPD_LITERAL) {
		snprintf(buf, n, "0x%08x", literal);
	} else if (o == GM_OPD_NONE) {
		snprintf(buf, n, "off");
	} else {
		snprintf(buf, n, "opd%u", o);
	}
}
