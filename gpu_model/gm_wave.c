/*
 * gm_wave.c - the wave64 interpreter: the run loop, program control,
 * scalar ALU, lane operations, exports and messages (docs/isa.md).
 * Vector ALU lives in gm_wave_valu.c, memory in gm_wave_mem.c.
 *
 * A wave is 64 lanes with one exec mask; scalar instructions run once,
 * vector instructions once per lane whose exec bit is set.  Divergence is
 * the compiler's business (exec save/restore), as on GCN.  Every exit path
 * is bounded: s_endpgm, a fault (invalid instruction, PC outside the
 * program, address fault inside a memory op is only recorded), or the
 * instruction budget.
 */
#include <math.h>
#include <string.h>

#include "gm_priv.h"

void gm_wave_reset(struct gm_wave *w, uint64_t exec, unsigned num_sgprs, unsigned num_vgprs)
{
	memset(w->s, 0, sizeof w->s);
	/* VGPRs are not cleared: like hardware, a shader must not read what
	 * it did not write; clearing 64 KiB per wave would dominate small draws.
	 * The first num_vgprs are cleared so results stay deterministic. */
	for (unsigned r = 0; r < num_vgprs && r < ISA_NUM_VGPRS; r++)
		memset(w->v[r], 0, sizeof w->v[r]);
	w->scc = 0;
	w->num_sgprs = num_sgprs;
	w->num_vgprs = num_vgprs;
	w->instructions = w->lane_instructions = 0;
	w->killed = false;
	w->ip = 0;
	w->at_barrier = false;
	gm_wave_set_exec(w, exec);
}

uint64_t gm_wave_ssrc(const struct gm_wave *w, unsigned o, unsigned regs, uint32_t literal, bool f64)
{
	uint32_t v;

	if (o <= ISA_OPD_EXEC_HI) {
		if (regs == 2)
			return (uint64_t)w->s[o + 1 < 128 ? o + 1 : o] << 32 | w->s[o];
		return w->s[o];
	}
	if (o == ISA_OPD_SCC)
		return w->scc;
	if (o == ISA_OPD_LITERAL) {
		if (regs != 2)
			return literal;
		return f64 ? (uint64_t)literal << 32 : (uint64_t)(int64_t)(int32_t)literal;
	}
	v = isa_inline_value(o);
	if (regs != 2)
		return v;
	if (o >= ISA_OPD_F_HALF && o <= ISA_OPD_F_LAST && f64) {
		float f;
		double d;
		uint64_t b;
		memcpy(&f, &v, 4);
		d = f;
		memcpy(&b, &d, 8);
		return b;
	}
	if (o >= ISA_OPD_F_HALF)
		return v;
	return (uint64_t)(int64_t)(int32_t)v;
}

static void sdst_write(struct gm_wave *w, unsigned o, unsigned regs, uint64_t v)
{
	w->s[o] = (uint32_t)v;
	if (regs == 2)
		w->s[o + 1] = (uint32_t)(v >> 32);
}

static void exec_sop(struct gm_wave *w, const struct gm_dinst *d)
{
	const struct isa_inst *in = &d->i;
	const struct isa_op_info *info = &isa_ops[in->op];
	uint64_t a = gm_wave_ssrc(w, in->src[0], info->src_regs[0], in->literal, false);
	uint64_t b = info->src_regs[1] ? gm_wave_ssrc(w, in->src[1], info->src_regs[1], in->literal, false) : 0;
	uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
	uint64_t r = 0, exec = gm_wave_exec(w);
	int scc = -1;              /* -1: unchanged */

	switch (in->op) {
	case ISA_OP_S_MOV_B32: case ISA_OP_S_MOV_B64: r = a; break;
	case ISA_OP_S_NOT_B32: r = ~a32; scc = (uint32_t)r != 0; break;
	case ISA_OP_S_NOT_B64: r = ~a; scc = r != 0; break;
	case ISA_OP_S_AND_SAVEEXEC_B64:
		r = exec; exec = a & exec; gm_wave_set_exec(w, exec); scc = exec != 0; break;
	case ISA_OP_S_OR_SAVEEXEC_B64:
		r = exec; exec = a | exec; gm_wave_set_exec(w, exec); scc = exec != 0; break;
	case ISA_OP_S_ANDN2_SAVEEXEC_B64:
		r = exec; exec = a & ~exec; gm_wave_set_exec(w, exec); scc = exec != 0; break;
	case ISA_OP_S_BCNT1_I32_B64: r = (uint32_t)__builtin_popcountll(a); scc = r != 0; break;
	case ISA_OP_S_FF1_I32_B64: r = a ? (uint32_t)__builtin_ctzll(a) : 0xFFFFFFFFu; break;
	case ISA_OP_S_ADD_U32: r = (uint32_t)(a32 + b32); scc = (uint64_t)a32 + b32 > 0xFFFFFFFFu; break;
	case ISA_OP_S_ADDC_U32:
		r = (uint32_t)(a32 + b32 + w->scc); scc = (uint64_t)a32 + b32 + w->scc > 0xFFFFFFFFu; break;
	case ISA_OP_S_SUB_U32: r = (uint32_t)(a32 - b32); scc = b32 > a32; break;
	case ISA_OP_S_ADD_I32: {
		int64_t s = (int64_t)(int32_t)a32 + (int32_t)b32;
		r = (uint32_t)s; scc = s != (int32_t)s; break;
	}
	case ISA_OP_S_SUB_I32: {
		int64_t s = (int64_t)(int32_t)a32 - (int32_t)b32;
		r = (uint32_t)s; scc = s != (int32_t)s; break;
	}
	case ISA_OP_S_MUL_I32: r = (uint32_t)(a32 * b32); break;
	case ISA_OP_S_AND_B32: r = a32 & b32; scc = r != 0; break;
	case ISA_OP_S_OR_B32: r = a32 | b32; scc = r != 0; break;
	case ISA_OP_S_XOR_B32: r = a32 ^ b32; scc = r != 0; break;
	case ISA_OP_S_ANDN2_B32: r = a32 & ~b32; scc = r != 0; break;
	case ISA_OP_S_AND_B64: r = a & b; scc = r != 0; break;
	case ISA_OP_S_OR_B64: r = a | b; scc = r != 0; break;
	case ISA_OP_S_XOR_B64: r = a ^ b; scc = r != 0; break;
	case ISA_OP_S_ANDN2_B64: r = a & ~b; scc = r != 0; break;
	case ISA_OP_S_ORN2_B64: r = a | ~b; scc = r != 0; break;
	case ISA_OP_S_LSHL_B32: r = (uint32_t)(a32 << (b32 & 31)); scc = r != 0; break;
	case ISA_OP_S_LSHR_B32: r = a32 >> (b32 & 31); scc = r != 0; break;
	case ISA_OP_S_ASHR_I32: r = (uint32_t)((int32_t)a32 >> (b32 & 31)); scc = r != 0; break;
	case ISA_OP_S_LSHL_B64: r = a << (b32 & 63); scc = r != 0; break;
	case ISA_OP_S_LSHR_B64: r = a >> (b32 & 63); scc = r != 0; break;
	case ISA_OP_S_BFE_U32: case ISA_OP_S_BFE_I32: {
		unsigned off = b32 & 31, width = (b32 >> 16) & 0x7F;
		uint32_t v = a32 >> off;
		if (width == 0)
			v = 0;
		else if (width < 32) {
			v &= (1u << width) - 1;
			if (in->op == ISA_OP_S_BFE_I32 && (v >> (width - 1) & 1))
				v |= ~((1u << width) - 1);
		}
		r = v; scc = v != 0; break;
	}
	case ISA_OP_S_MIN_I32: scc = (int32_t)a32 < (int32_t)b32; r = scc ? a32 : b32; break;
	case ISA_OP_S_MIN_U32: scc = a32 < b32; r = scc ? a32 : b32; break;
	case ISA_OP_S_MAX_I32: scc = (int32_t)a32 > (int32_t)b32; r = scc ? a32 : b32; break;
	case ISA_OP_S_MAX_U32: scc = a32 > b32; r = scc ? a32 : b32; break;
	case ISA_OP_S_CSELECT_B32: case ISA_OP_S_CSELECT_B64: r = w->scc ? a : b; break;
	case ISA_OP_S_WQM_B64:
		/* whole quad mode: a quad with any bit set gets all four */
		for (unsigned q = 0; q < 64; q += 4)
			if (a >> q & 0xF)
				r |= 0xFull << q;
		scc = r != 0;
		break;
	default: break;
	}
	sdst_write(w, in->dst, info->dst_regs, r);
	if (scc >= 0)
		w->scc = (uint32_t)scc;
}

static void exec_sopc(struct gm_wave *w, const struct gm_dinst *d)
{
	uint32_t a = (uint32_t)gm_wave_ssrc(w, d->i.src[0], 1, d->i.literal, false);
	uint32_t b = (uint32_t)gm_wave_ssrc(w, d->i.src[1], 1, d->i.literal, false);
	int32_t sa = (int32_t)a, sb = (int32_t)b;
	bool c = false;

	switch (d->i.op) {
	case ISA_OP_S_CMP_EQ_U32: c = a == b; break;
	case ISA_OP_S_CMP_LG_U32: c = a != b; break;
	case ISA_OP_S_CMP_LT_U32: c = a < b; break;
	case ISA_OP_S_CMP_LE_U32: c = a <= b; break;
	case ISA_OP_S_CMP_GT_U32: c = a > b; break;
	case ISA_OP_S_CMP_GE_U32: c = a >= b; break;
	case ISA_OP_S_CMP_LT_I32: c = sa < sb; break;
	case ISA_OP_S_CMP_LE_I32: c = sa <= sb; break;
	case ISA_OP_S_CMP_GT_I32: c = sa > sb; break;
	case ISA_OP_S_CMP_GE_I32: c = sa >= sb; break;
	default: break;
	}
	w->scc = c;
}

static void exec_vlane(struct gm_wave *w, const struct gm_dinst *d)
{
	const struct isa_inst *in = &d->i;
	uint64_t exec = gm_wave_exec(w);

	switch (in->op) {
	case ISA_OP_V_READFIRSTLANE_B32: {
		unsigned lane = exec ? (unsigned)__builtin_ctzll(exec) : 0;
		w->s[in->dst] = w->v[in->src[0] - ISA_OPD_VGPR0][lane];
		break;
	}
	case ISA_OP_V_READLANE_B32: {
		unsigned lane = (uint32_t)gm_wave_ssrc(w, in->src[1], 1, in->literal, false) & 63;
		w->s[in->dst] = w->v[in->src[0] - ISA_OPD_VGPR0][lane];
		break;
	}
	case ISA_OP_V_WRITELANE_B32: {
		unsigned lane = (uint32_t)gm_wave_ssrc(w, in->src[1], 1, in->literal, false) & 63;
		w->v[in->dst - ISA_OPD_VGPR0][lane] = (uint32_t)gm_wave_ssrc(w, in->src[0], 1, in->literal, false);
		break;
	}
	default:
		break;
	}
}

/* v_interp_*: D = P0 + I * P10, D = D + J * P20 (fused), or a plain P. */
static bool exec_vinterp(struct gm_wave *w, const struct gm_dinst *d, const struct gm_wave_env *env,
			 uint64_t pc_va)
{
	const struct gm_interp *ip = env->interp;
	unsigned attr = ISA_INTERP_ATTR(d->i.imm), chan = ISA_INTERP_CHAN(d->i.imm);
	uint32_t *D = w->v[d->i.dst - ISA_OPD_VGPR0];
	const uint32_t *B = isa_opd_is_vgpr(d->i.src[0]) ? w->v[d->i.src[0] - ISA_OPD_VGPR0] : NULL;
	uint64_t exec = gm_wave_exec(w);

	if (!ip || attr >= ip->n_inputs) {
		gm_fault_record(env->faults, GM_FAULT_BAD_SHADER, pc_va,
				ip ? "%s reads PS input %u but SPI_PS_IN_CONTROL.NUM_INTERP is %u"
				   : "%s outside a pixel shader (input %u, %u inputs)",
				isa_ops[d->i.op].name, attr, ip ? ip->n_inputs : 0);
		w->killed = true;
		return false;
	}
	/* One loop per opcode: the lane loop is the model's pixel-shader hot
	 * path (each lane's coefficients sit at its primitive's slot). */
	const float *coef = ip->coef + (attr * 4 + chan) * 3;
	const size_t stride = ip->prim_stride;
	switch (d->i.op) {
	case ISA_OP_V_INTERP_P1_F32:
		for (unsigned l = 0; l < 64; l++) {
			const float *c;
			float i, r;
			if (!(exec >> l & 1))
				continue;
			c = coef + ip->lane_prim[l] * stride;
			memcpy(&i, &B[l], 4);
			r = fmaf(i, c[1], c[0]);
			memcpy(&D[l], &r, 4);
		}
		break;
	case ISA_OP_V_INTERP_P2_F32:
		for (unsigned l = 0; l < 64; l++) {
			const float *c;
			float j, acc, r;
			if (!(exec >> l & 1))
				continue;
			c = coef + ip->lane_prim[l] * stride;
			memcpy(&j, &B[l], 4);
			memcpy(&acc, &D[l], 4);
			r = fmaf(j, c[2], acc);
			memcpy(&D[l], &r, 4);
		}
		break;
	default: {
		static const unsigned pick[3] = { 1, 2, 0 };  /* p10, p20, p0 */
		const unsigned k = pick[ISA_INTERP_SEL(d->i.imm)];
		for (unsigned l = 0; l < 64; l++)
			if (exec >> l & 1)
				memcpy(&D[l], &coef[ip->lane_prim[l] * stride + k], 4);
		break;
	}
	}
	return true;
}

/* v_mov_b32_qperm: lane 4k+i reads lane 4k+perm[i] of the source, whatever
 * that lane's exec bit (helpers and inactive lanes read as they are). */
static void exec_vqperm(struct gm_wave *w, const struct gm_dinst *d)
{
	uint32_t src[64];
	uint32_t *D = w->v[d->i.dst - ISA_OPD_VGPR0];
	uint64_t exec = gm_wave_exec(w);

	memcpy(src, w->v[d->i.src[0] - ISA_OPD_VGPR0], sizeof src);
	for (unsigned l = 0; l < 64; l++)
		if (exec >> l & 1)
			D[l] = src[(l & ~3u) | ISA_QPERM_LANE(d->i.imm, l & 3)];
}

static bool branch_taken(const struct gm_wave *w, unsigned op)
{
	switch (op) {
	case ISA_OP_S_BRANCH: return true;
	case ISA_OP_S_CBRANCH_SCC0: return !w->scc;
	case ISA_OP_S_CBRANCH_SCC1: return w->scc != 0;
	case ISA_OP_S_CBRANCH_VCCZ: return !(w->s[ISA_OPD_VCC_LO] | w->s[ISA_OPD_VCC_HI]);
	case ISA_OP_S_CBRANCH_VCCNZ: return (w->s[ISA_OPD_VCC_LO] | w->s[ISA_OPD_VCC_HI]) != 0;
	case ISA_OP_S_CBRANCH_EXECZ: return gm_wave_exec(w) == 0;
	case ISA_OP_S_CBRANCH_EXECNZ: return gm_wave_exec(w) != 0;
	}
	return false;
}

void gm_wave_run(struct gm_wave *w, const struct gm_prog *p, const struct gm_wave_env *env)
{
	uint32_t ip = w->ip;
	uint64_t budget = env->max_instructions ? env->max_instructions : (1ull << 22);

	if (p->max_vgpr > w->num_vgprs || p->max_sgpr > w->num_sgprs) {
		gm_fault_record(env->faults, GM_FAULT_BAD_SHADER, p->va,
				"shader uses %u SGPRs / %u VGPRs but the wave was allocated %u / %u (RSRC1 SGPRS/VGPRS)",
				p->max_sgpr, p->max_vgpr, w->num_sgprs, w->num_vgprs);
		w->killed = true;
		return;
	}
	w->at_barrier = false;
	for (;;) {
		const struct gm_dinst *d;
		uint64_t pc_va, exec;

		if (ip >= p->n_insts) {
			uint64_t at = p->va + (uint64_t)(ip < p->n_insts ? p->insts[ip].pc_dw : p->n_dw) * 4;
			gm_fault_record(env->faults, GM_FAULT_BAD_SHADER, at, "PC ran off the program: %s",
					p->stop_reason[0] ? p->stop_reason : "past the last s_endpgm");
			w->killed = true;
			return;
		}
		if (w->instructions >= budget) {
			gm_fault_record(env->faults, GM_FAULT_SHADER_TIMEOUT, p->va + (uint64_t)p->insts[ip].pc_dw * 4,
					"wave executed %llu instructions without s_endpgm",
					(unsigned long long)w->instructions);
			w->killed = true;
			return;
		}
		d = &p->insts[ip];
		pc_va = p->va + (uint64_t)d->pc_dw * 4;
		w->instructions++;
		exec = gm_wave_exec(w);
		/* (no POPCNT in the baseline x86-64 ISA: full waves skip the call) */
		w->lane_instructions += exec == ~0ull ? 64 : (unsigned)__builtin_popcountll(exec);
		ip++;
		switch (isa_ops[d->i.op].cls) {
		case ISA_CLS_VOP: gm_wave_exec_valu(w, d); break;
		case ISA_CLS_VOPC: gm_wave_exec_vopc(w, d); break;
		case ISA_CLS_SOP: exec_sop(w, d); break;
		case ISA_CLS_SOPC: exec_sopc(w, d); break;
		case ISA_CLS_VLANE: exec_vlane(w, d); break;
		case ISA_CLS_VMEM: {
			/* a store run executes as one: count the others too */
			uint64_t room = budget - w->instructions + 1;
			unsigned n = gm_wave_exec_vmem(w, d, env, pc_va, room < 64 ? (unsigned)room : 64);
			if (n > 1) {
				ip += n - 1;
				w->instructions += n - 1;
				w->lane_instructions += (uint64_t)(n - 1) *
					(exec == ~0ull ? 64 : (unsigned)__builtin_popcountll(exec));
			}
			break;
		}
		case ISA_CLS_SMEM: gm_wave_exec_smem(w, d, env, pc_va); break;
		case ISA_CLS_SOPP:
			if (d->i.op == ISA_OP_S_ENDPGM)
				return;
			if (d->i.op == ISA_OP_S_BARRIER && env->yield_at_barrier) {
				w->ip = ip;
				w->at_barrier = true;
				return;
			}
			break;
		case ISA_CLS_BRANCH:
			if (!branch_taken(w, d->i.op))
				break;
			if (d->target < 0) {
				gm_fault_record(env->faults, GM_FAULT_BAD_SHADER, pc_va,
						"branch target %+d dwords is not an instruction of the program",
						d->i.simm);
				w->killed = true;
				return;
			}
			ip = (uint32_t)d->target;
			break;
		case ISA_CLS_MSG:
			if (env->sendmsg)
				env->sendmsg(env->ctx, w, d->i.imm & 0xF, d->i.imm >> 4, gm_wave_exec(w));
			break;
		case ISA_CLS_VINTERP:
			if (!exec_vinterp(w, d, env, pc_va))
				return;
			break;
		case ISA_CLS_VQPERM: exec_vqperm(w, d); break;
		case ISA_CLS_DS: gm_wave_exec_ds(w, d, env); break;
		case ISA_CLS_VIMG: gm_wave_exec_img(w, d, env, pc_va); break;
		case ISA_CLS_EXP:
			if (env->export_ps)
				env->export_ps(env->ctx, w, &d->i, gm_wave_exec(w));
			else if (env->export_)
				env->export_(env->ctx, w, d->i.imm, d->i.dst - ISA_OPD_VGPR0, gm_wave_exec(w));
			break;
		}
	}
}
