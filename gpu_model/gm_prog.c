/*
 * gm_prog.c - decoding a shader from GPU memory into the form the wave
 * interpreter runs: an instruction array with branch targets resolved to
 * indices and register usage summarised.
 *
 * Where does a shader end?  The ISA has no length field, so decoding goes
 * on past each s_endpgm as long as some branch seen so far targets a later
 * dword (the usual "decode to the furthest branch target" rule).  A bad
 * instruction stops decoding; its index becomes the program's end and the
 * interpreter faults if execution reaches it, with the decoder's reason.
 */
#include <stdio.h>
#include <string.h>

#include "gm_priv.h"
#include "xt_fault.h"

#define GM_PROG_MAX_DW (1u << 20)

static uint8_t result_kind(const char *name)
{
	/* The result type is the first type suffix: v_cvt_f32_i32 -> f32,
	 * v_frexp_exp_i32_f32 -> i32. */
	const char *p = strchr(name + 2, '_');
	for (; p; p = strchr(p + 1, '_')) {
		if (!strncmp(p, "_f32", 4)) return 1;
		if (!strncmp(p, "_f64", 4)) return 2;
		if (!strncmp(p, "_i32", 4) || !strncmp(p, "_u32", 4) || !strncmp(p, "_b32", 4) ||
		    !strncmp(p, "_f16", 4) || !strncmp(p, "_b64", 4))
			return 0;
	}
	return 0;
}

static void note_regs(struct gm_prog *p, unsigned opd, unsigned regs)
{
	if (!regs || opd == ISA_OPD_NONE)
		return;
	if (opd <= ISA_OPD_SGPR_LAST && opd + regs > p->max_sgpr)
		p->max_sgpr = opd + regs;
	if (isa_opd_is_vgpr(opd) && opd - ISA_OPD_VGPR0 + regs > p->max_vgpr)
		p->max_vgpr = opd - ISA_OPD_VGPR0 + regs;
}

/* A vector instruction's source k whose value is fixed by the program. */
static bool const_source(const struct gm_dinst *d, unsigned k)
{
	const struct isa_op_info *info = &isa_ops[d->i.op];
	unsigned o = d->i.src[k];

	if ((info->cls != ISA_CLS_VOP && info->cls != ISA_CLS_VOPC) || !info->src_regs[k])
		return false;
	if (d->i.op == ISA_OP_V_CNDMASK_B32 && k == 2)   /* the lane mask, read as scalars */
		return false;
	return o > ISA_OPD_EXEC_HI && o != ISA_OPD_SCC && o < ISA_OPD_VGPR0;
}

/* gm_dinst.store_run, from the end: a buffer_store_dword continues the run
 * of the next instruction when that is one too, with the same vaddr,
 * descriptor, soffset (literal included) and flags. */
static void mark_store_runs(struct gm_prog *p)
{
	for (uint32_t i = p->n_insts; i-- > 0;) {
		struct gm_dinst *d = &p->insts[i];
		const struct gm_dinst *n = i + 1 < p->n_insts ? &p->insts[i + 1] : NULL;
		if (d->i.op != ISA_OP_BUFFER_STORE_DWORD)
			continue;
		d->store_run = 1;
		if (n && n->i.op == ISA_OP_BUFFER_STORE_DWORD && n->i.src[0] == d->i.src[0] &&
		    n->i.src[1] == d->i.src[1] && n->i.src[2] == d->i.src[2] && n->i.flags == d->i.flags &&
		    (d->i.src[2] != ISA_OPD_LITERAL || n->i.literal == d->i.literal) && n->store_run < 64)
			d->store_run = (uint8_t)(n->store_run + 1);
	}
}

/* Fills every crow (see struct gm_dinst) from one allocation. */
static enum xt_rc constant_rows(struct gm_prog *p)
{
	uint32_t n = 0, r = 0;

	for (uint32_t i = 0; i < p->n_insts; i++)
		for (unsigned k = 0; k < 3; k++)
			if (const_source(&p->insts[i], k))
				n += isa_ops[p->insts[i].i.op].src_regs[k];
	if (!n)
		return XT_OK;
	p->crows = xt_malloc((size_t)n * sizeof *p->crows);
	if (!p->crows) {
		gm_prog_fini(p);
		return XT_ERR_NOMEM;
	}
	for (uint32_t i = 0; i < p->n_insts; i++) {
		struct gm_dinst *d = &p->insts[i];
		for (unsigned k = 0; k < 3; k++) {
			unsigned regs = isa_ops[d->i.op].src_regs[k];
			uint64_t v;
			if (!const_source(d, k))
				continue;
			/* constants never read the wave (which is why NULL does) */
			v = gm_wave_ssrc(NULL, d->i.src[k], regs, d->i.literal, d->f64src >> k & 1);
			d->crow[k] = p->crows[r];
			for (unsigned h = 0; h < regs; h++, r++)
				for (unsigned l = 0; l < 64; l++)
					p->crows[r][l] = (uint32_t)(v >> (32 * h));
		}
	}
	return XT_OK;
}

enum xt_rc gm_prog_decode_dw(const uint32_t *dw, uint32_t n_dw, uint64_t va, struct gm_prog *p)
{
	uint32_t pos = 0, cap = 0, furthest = 0;
	struct xt_err err;

	memset(p, 0, sizeof *p);
	p->va = va;
	snprintf(p->stop_reason, sizeof p->stop_reason, "no s_endpgm before the end of mapped memory");
	while (pos < n_dw && pos < GM_PROG_MAX_DW) {
		struct gm_dinst *d;
		const struct isa_op_info *info;

		if (p->n_insts == cap) {
			uint32_t ncap = cap ? cap * 2 : 64;
			struct gm_dinst *n = xt_realloc(p->insts, ncap * sizeof *n);
			if (!n) {
				gm_prog_fini(p);
				return XT_ERR_NOMEM;
			}
			p->insts = n;
			cap = ncap;
		}
		d = &p->insts[p->n_insts];
		memset(d, 0, sizeof *d);
		if (isa_decode(dw + pos, n_dw - pos, &d->i, &err) != XT_OK) {
			snprintf(p->stop_reason, sizeof p->stop_reason, "invalid instruction at +0x%x: %.120s",
				 pos * 4, err.msg);
			break;
		}
		info = &isa_ops[d->i.op];
		d->pc_dw = pos;
		d->target = -1;
		d->fres = info->cls == ISA_CLS_VOP ? result_kind(info->name) : 0;
		for (unsigned k = 0; k < 3; k++) {
			unsigned s = d->i.src[k];
			if (info->src_regs[k] == 2 && strstr(info->name, "f64"))
				d->f64src |= (uint8_t)(1u << k);
			/* (ranges [src, src + regs) and [dst, dst + regs) meet) */
			if (info->cls == ISA_CLS_VOP && info->src_regs[k] && isa_opd_is_vgpr(s) &&
			    s < d->i.dst + info->dst_regs && d->i.dst < s + info->src_regs[k])
				d->dst_is_src = true;
		}
		note_regs(p, d->i.dst, info->cls == ISA_CLS_VOPC ? 2 : info->dst_regs);
		for (unsigned k = 0; k < 3; k++)
			note_regs(p, d->i.src[k], info->cls == ISA_CLS_VMEM && k == 0 ?
				  ((d->i.flags & 3) == 3 ? 2 : 1) : info->src_regs[k]);
		p->n_insts++;
		pos += d->i.size_dw;
		if (info->cls == ISA_CLS_BRANCH) {
			int64_t t = (int64_t)pos + d->i.simm;
			if (t > (int64_t)furthest && t < (int64_t)GM_PROG_MAX_DW)
				furthest = (uint32_t)t;
		}
		if (d->i.op == ISA_OP_S_ENDPGM && pos > furthest) {
			p->stop_reason[0] = '\0';
			break;
		}
	}
	p->n_dw = pos;
	/* Resolve branch targets to instruction indices. */
	for (uint32_t k = 0; k < p->n_insts; k++) {
		struct gm_dinst *d = &p->insts[k];
		int64_t t;
		uint32_t lo = 0, hi = p->n_insts;
		if (isa_ops[d->i.op].cls != ISA_CLS_BRANCH)
			continue;
		t = (int64_t)d->pc_dw + d->i.size_dw + d->i.simm;
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			if ((int64_t)p->insts[mid].pc_dw < t)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < p->n_insts && (int64_t)p->insts[lo].pc_dw == t)
			d->target = (int32_t)lo;
	}
	mark_store_runs(p);
	return constant_rows(p);
}

enum xt_rc gm_prog_decode(struct gm_mem *mem, uint64_t va, uint32_t max_dw, struct gm_prog *p)
{
	uint64_t left;
	uint8_t *ptr = gm_mem_span(mem, va, &left);
	uint32_t n = (uint32_t)((left / 4) < max_dw ? left / 4 : max_dw);

	if (!ptr || (va & 3)) {
		memset(p, 0, sizeof *p);
		p->va = va;
		snprintf(p->stop_reason, sizeof p->stop_reason, "shader address 0x%llx is %s",
			 (unsigned long long)va, ptr ? "not dword aligned" : "unmapped");
		return XT_OK;
	}
	/* BO storage is only byte aligned in principle; copy to be safe. */
	{
		uint32_t *tmp = xt_malloc((size_t)n * 4 + 4);
		enum xt_rc rc;
		if (!tmp)
			return XT_ERR_NOMEM;
		memcpy(tmp, ptr, (size_t)n * 4);
		rc = gm_prog_decode_dw(tmp, n, va, p);
		xt_free(tmp);
		return rc;
	}
}

void gm_prog_fini(struct gm_prog *p)
{
	xt_free(p->insts);
	xt_free(p->crows);
	memset(p, 0, sizeof *p);
}
