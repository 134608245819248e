/*
 * isa_disasm.c - shader dwords to assembly text (docs/isa.md "Assembly
 * syntax"), the inverse of isa_asm.c.
 *
 * Two passes: the first decodes everything to learn which dwords start an
 * instruction and which are branch targets (they get labels "L<dword>"),
 * the second prints.  Garbage prints as `.dword` and decoding resyncs at
 * the next dword, so the text of any input re-assembles to the same dwords:
 * literals that an inline constant could express print as lit(...), and a
 * branch whose target is not an instruction start prints its raw offset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

static bool literal_is_inlinable(uint32_t v)
{
	for (unsigned o = ISA_OPD_INT_FIRST; o <= ISA_OPD_F_LAST; o++)
		if ((o <= ISA_OPD_INT_LAST || o >= ISA_OPD_F_HALF) && isa_inline_value(o) == v)
			return true;
	return false;
}

static void fmt_src(const struct isa_inst *in, unsigned i, unsigned regs, char *buf, size_t n)
{
	const struct isa_op_info *info = &isa_ops[in->op];
	char tmp[40];
	bool neg = (info->cls == ISA_CLS_VOP || info->cls == ISA_CLS_VOPC) && (in->flags >> i & 1);

	if (in->src[i] == ISA_OPD_LITERAL && literal_is_inlinable(in->literal))
		snprintf(tmp, sizeof tmp, "lit(0x%08x)", in->literal);
	else
		isa_format_operand(in->src[i], regs, in->literal, tmp, sizeof tmp);
	snprintf(buf, n, "%s%s", neg ? "-" : "", tmp);
}

static const char *exp_target(unsigned imm, char *buf, size_t n)
{
	if (imm < ISA_EXP_MRTZ)
		snprintf(buf, n, "mrt%u", imm - ISA_EXP_MRT0);
	else if (imm == ISA_EXP_MRTZ)
		snprintf(buf, n, "mrtz");
	else if (imm == ISA_EXP_NULL)
		snprintf(buf, n, "null");
	else if (imm >= ISA_EXP_POS0 && imm < ISA_EXP_POS0 + 4)
		snprintf(buf, n, "pos%u", imm - ISA_EXP_POS0);
	else
		snprintf(buf, n, "param%u", imm - ISA_EXP_PARAM0);
	return buf;
}

static enum xt_rc print_inst(const struct isa_inst *in, size_t pos, const uint8_t *is_target,
			     const uint8_t *is_start, size_t n_dw, struct xt_buf *out)
{
	const struct isa_op_info *info = &isa_ops[in->op];
	char d[40], s[3][48], t[16];
	unsigned nsrc = 0;
	enum xt_rc rc;

	for (unsigned i = 0; i < 3; i++)
		if (info->src_regs[i]) {
			fmt_src(in, i, info->src_regs[i] + (info->cls == ISA_CLS_VIMG && !i && (in->flags & ISA_FLAG_DA)),
				s[i], sizeof s[i]);
			nsrc = i + 1;
		}
	if (info->dst_regs)
		isa_format_operand(in->dst, info->cls == ISA_CLS_VOPC ? 2 : info->dst_regs, 0, d, sizeof d);

	switch (info->cls) {
	case ISA_CLS_SOPP:
		if (in->imm)
			return xt_buf_printf(out, "%s %u", info->name, in->imm);
		return xt_buf_printf(out, "%s", info->name);
	case ISA_CLS_BRANCH: {
		int64_t target = (int64_t)pos + in->size_dw + in->simm;
		if (target >= 0 && (size_t)target < n_dw && is_start[target] && is_target[target])
			return xt_buf_printf(out, "%s L%lld", info->name, (long long)target);
		return xt_buf_printf(out, "%s %d", info->name, in->simm);
	}
	case ISA_CLS_MSG: {
		static const char *msg[4] = { "?", "gs_emit", "gs_cut", "gs_done" };
		unsigned m = in->imm & 0xF;
		if (m == ISA_MSG_GS_DONE)
			return xt_buf_printf(out, "%s %s", info->name, msg[m]);
		return xt_buf_printf(out, "%s %s stream %u", info->name, msg[m], in->imm >> 4);
	}
	case ISA_CLS_SOPC:
		return xt_buf_printf(out, "%s %s, %s", info->name, s[0], s[1]);
	case ISA_CLS_EXP:
		return xt_buf_printf(out, "exp %s, %s%s%s", exp_target(in->imm, t, sizeof t), d,
				     (in->flags & ISA_FLAG_DONE) ? " done" : "",
				     (in->flags & ISA_FLAG_VM) ? " vm" : "");
	case ISA_CLS_VINTERP: {
		static const char *sels[3] = { "p10", "p20", "p0" };
		return xt_buf_printf(out, "%s %s, %s, attr%u.%c", info->name, d,
				     info->src_regs[0] ? s[0] : sels[ISA_INTERP_SEL(in->imm)],
				     ISA_INTERP_ATTR(in->imm), "xyzw"[ISA_INTERP_CHAN(in->imm)]);
	}
	case ISA_CLS_VIMG:
		if (info->src_regs[2])
			return xt_buf_printf(out, "%s %s, %s, %s, %s dmask:0x%x%s", info->name, d, s[0], s[1], s[2], in->imm,
					     in->flags & ISA_FLAG_DA ? " da" : "");
		return xt_buf_printf(out, "%s %s, %s, %s dmask:0x%x%s", info->name, d, s[0], s[1], in->imm,
				     in->flags & ISA_FLAG_DA ? " da" : "");
	case ISA_CLS_VQPERM:
		return xt_buf_printf(out, "%s %s, %s, %u, %u, %u, %u", info->name, d, s[0],
				     ISA_QPERM_LANE(in->imm, 0), ISA_QPERM_LANE(in->imm, 1),
				     ISA_QPERM_LANE(in->imm, 2), ISA_QPERM_LANE(in->imm, 3));
	case ISA_CLS_VMEM:
		isa_format_operand(in->src[0], (in->flags & 3) == 3 ? 2 : 1, 0, s[0], sizeof s[0]);
		rc = xt_buf_printf(out, "%s %s, %s, %s, %s", info->name, d, s[0], s[1], s[2]);
		if (!rc && in->imm)
			rc = xt_buf_printf(out, " offset:%u", in->imm);
		if (!rc && (in->flags & ISA_FLAG_OFFEN))
			rc = xt_buf_printf(out, " offen");
		if (!rc && (in->flags & ISA_FLAG_IDXEN))
			rc = xt_buf_printf(out, " idxen");
		if (!rc && (in->flags & ISA_FLAG_GLC))
			rc = xt_buf_printf(out, " glc");
		if (!rc && (in->flags & ISA_FLAG_SLC))
			rc = xt_buf_printf(out, " slc");
		return rc;
	default:
		break;
	}
	rc = xt_buf_printf(out, "%s", info->name);
	if (!rc && info->dst_regs)
		rc = xt_buf_printf(out, " %s", d);
	for (unsigned i = 0; i < nsrc && !rc; i++)
		rc = xt_buf_printf(out, "%s%s", (i || info->dst_regs) ? ", " : " ", s[i]);
	if (!rc && info->cls == ISA_CLS_DS && in->imm)
		rc = xt_buf_printf(out, " offset:%u", in->imm);
	if (!rc && info->cls == ISA_CLS_VOP && (in->flags & ISA_FLAG_CLAMP))
		rc = xt_buf_printf(out, " clamp");
	return rc;
}

enum xt_rc isa_disassemble(const uint32_t *dw, size_t n_dw, unsigned flags, struct xt_buf *out)
{
	uint8_t *is_start = calloc(n_dw + 1, 1), *is_target = calloc(n_dw + 1, 1);
	struct isa_inst in;
	enum xt_rc rc = XT_OK;
	size_t pos;

	if (!is_start || !is_target) {
		free(is_start);
		free(is_target);
		return XT_ERR_NOMEM;
	}
	for (pos = 0; pos < n_dw;) {
		if (isa_decode(dw + pos, n_dw - pos, &in, NULL) != XT_OK) {
			pos++;
			continue;
		}
		is_start[pos] = 1;
		if (isa_ops[in.op].cls == ISA_CLS_BRANCH) {
			int64_t target = (int64_t)pos + in.size_dw + in.simm;
			if (target >= 0 && (size_t)target < n_dw)
				is_target[target] = 1;
		}
		pos += in.size_dw;
	}
	for (pos = 0; pos < n_dw && !rc;) {
		bool ok = isa_decode(dw + pos, n_dw - pos, &in, NULL) == XT_OK;
		size_t len = ok ? in.size_dw : 1;

		if (ok && is_target[pos])
			rc = xt_buf_printf(out, "L%zu:\n", pos);
		if (!rc && (flags & ISA_DISASM_OFFSETS)) {
			rc = xt_buf_printf(out, "/*%04zx:", pos);
			for (size_t i = 0; i < 3 && !rc; i++)
				rc = i < len ? xt_buf_printf(out, " %08x", dw[pos + i])
					     : xt_buf_printf(out, "         ");
			if (!rc)
				rc = xt_buf_printf(out, " */ ");
		} else if (!rc) {
			rc = xt_buf_printf(out, "\t");
		}
		if (!rc)
			rc = ok ? print_inst(&in, pos, is_target, is_start, n_dw, out)
				: xt_buf_printf(out, ".dword 0x%08x", dw[pos]);
		if (!rc)
			rc = xt_buf_printf(out, "\n");
		pos += len;
	}
	free(is_start);
	free(is_target);
	return rc;
}
