/*
 * drv_ra.c - register allocation for the driver IR: every live value and
 * every reg gets VGPRs (v16 upwards; v0-v7 hold the stage's hardware
 * inputs and v8-v15 are drv_emit's scratch), by linear scan over the flat
 * instruction list.
 *
 * Why linear positions are enough on an exec-mask machine: a VGPR write only
 * touches active lanes, so two values may share a register whenever their
 * position intervals do not overlap, even across IF arms (a lane runs one
 * arm; the other arm's lanes keep their bits).  Loops are the exception:
 * a value live into a loop and used inside it must survive to the back edge
 * (its interval is extended to ENDLOOP), and a value defined inside a loop
 * and used after it is extended back to the LOOP (lanes that left early
 * keep it while the others iterate).  Regs (phi copies, locals, outputs) get
 * the same treatment from their first to their last access.
 *
 * Before allocating, dead pure instructions are dropped (their dst becomes
 * unused), and CONST values get no register at all: drv_emit puts them in
 * the instruction as inline constants or literals (rematerialization).
 * There is no spilling: a program that needs more than 240 VGPRs at once
 * is a compile error.
 */
#include <stdlib.h>
#include <string.h>

#include "drv_spirv.h"

#define FIRST_VGPR 16u

struct interval {
	uint32_t start, end;
	uint32_t id;          /* value, or reg | 0x80000000 */
	uint8_t size;
};

static bool pure(uint16_t op)
{
	switch (op) {
	case DRV_OP_CONST: case DRV_OP_MOV: case DRV_OP_VALU: case DRV_OP_CMP: case DRV_OP_SELECT:
	case DRV_OP_SPLIT_LO: case DRV_OP_SPLIT_HI: case DRV_OP_PACK64: case DRV_OP_REG_READ:
	case DRV_OP_LOAD_INPUT: case DRV_OP_LOAD_SYSVAL: case DRV_OP_LOAD_BUF: case DRV_OP_ESGS_LOAD:
	case DRV_OP_GSVS_LOAD:
		return true;
	default:
		return false;
	}
}

static int cmp_start(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

enum xt_rc drv_ra(struct drv_ir *ir, struct xt_err *err)
{
	uint32_t *uses = calloc(ir->n_vals, sizeof *uses);
	struct interval *iv = calloc((size_t)ir->n_vals + ir->n_regs, sizeof *iv);
	uint32_t (*loops)[2] = calloc(ir->n_ins / 2 + 1, sizeof *loops);
	uint32_t *stack = calloc(ir->n_ins + 1, sizeof *stack);
	uint32_t free_until[256], n_loops = 0, depth = 0, n_iv = 0, max_reg = FIRST_VGPR;
	enum xt_rc rc = XT_OK;
	bool changed;

	if (!uses || !iv || !loops || !stack) {
		rc = XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
		goto out;
	}
	/* dead code: count uses, drop pure instructions whose dst is unused */
	for (uint32_t i = 0; i < ir->n_ins; i++)
		for (unsigned s = 0; s < ir->ins[i].n_src; s++)
			if (ir->ins[i].src[s])
				uses[ir->ins[i].src[s]]++;
	for (uint32_t i = ir->n_ins; i-- > 0;) {
		struct drv_ins *in = &ir->ins[i];
		if (in->dst && !uses[in->dst] && pure(in->op)) {
			for (unsigned s = 0; s < in->n_src; s++)
				if (in->src[s])
					uses[in->src[s]]--;
			in->op = DRV_OP_NOP;
			in->n_src = 0;
			in->size = 0;
			ir->vals[in->dst].def = i;
			in->dst = 0;
		}
	}
	/* loop regions */
	for (uint32_t i = 0; i < ir->n_ins; i++) {
		if (ir->ins[i].op == DRV_OP_LOOP)
			stack[depth++] = i;
		else if (ir->ins[i].op == DRV_OP_ENDLOOP && depth) {
			loops[n_loops][0] = stack[--depth];
			loops[n_loops][1] = i;
			n_loops++;
		}
	}
	/* intervals */
	{
		uint32_t *vstart = malloc(ir->n_vals * sizeof *vstart), *vend = calloc(ir->n_vals, sizeof *vend);
		uint32_t *rstart = malloc(ir->n_regs * sizeof *rstart), *rend = calloc(ir->n_regs, sizeof *rend);
		if (!vstart || !vend || !rstart || !rend) {
			free(vstart); free(vend); free(rstart); free(rend);
			rc = XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
			goto out;
		}
		memset(vstart, 0xFF, ir->n_vals * sizeof *vstart);
		memset(rstart, 0xFF, ir->n_regs * sizeof *rstart);
		for (uint32_t i = 0; i < ir->n_ins; i++) {
			const struct drv_ins *in = &ir->ins[i];
			if (in->dst && ir->ins[i].op != DRV_OP_CONST)
				vstart[in->dst] = i;
			for (unsigned s = 0; s < in->n_src; s++)
				if (in->src[s] && vend[in->src[s]] < i)
					vend[in->src[s]] = i;
			if (in->op == DRV_OP_REG_READ || in->op == DRV_OP_REG_WRITE) {
				if (rstart[in->a] == UINT32_MAX)
					rstart[in->a] = i;
				rend[in->a] = i;
			}
		}
		for (uint32_t v = 1; v < ir->n_vals; v++)
			if (vstart[v] != UINT32_MAX) {
				iv[n_iv] = (struct interval){ vstart[v], vend[v] > vstart[v] ? vend[v] : vstart[v], v,
							      ir->vals[v].size };
				n_iv++;
			}
		for (uint32_t r = 1; r < ir->n_regs; r++)
			if (rstart[r] != UINT32_MAX) {
				iv[n_iv] = (struct interval){ rstart[r], rend[r], r | 0x80000000u, ir->regs[r].size };
				n_iv++;
			}
		free(vstart); free(vend); free(rstart); free(rend);
	}
	/* loop extension, to a fixed point (nested loops) */
	do {
		changed = false;
		for (uint32_t k = 0; k < n_iv; k++)
			for (uint32_t l = 0; l < n_loops; l++) {
				uint32_t ls = loops[l][0], le = loops[l][1];
				if (iv[k].start < ls && iv[k].end > ls && iv[k].end < le) {
					iv[k].end = le;
					changed = true;
				}
				if (iv[k].start > ls && iv[k].start < le && iv[k].end > le) {
					iv[k].start = ls;
					changed = true;
				}
				/* a reg accessed only inside the loop may carry a value
				 * from one iteration to the next */
				if ((iv[k].id & 0x80000000u) && iv[k].start > ls && iv[k].end < le) {
					iv[k].start = ls;
					iv[k].end = le;
					changed = true;
				}
			}
	} while (changed);
	qsort(iv, n_iv, sizeof *iv, cmp_start);
	for (unsigned p = 0; p < 256; p++)
		free_until[p] = 0;
	for (uint32_t k = 0; k < n_iv; k++) {
		unsigned p;
		for (p = FIRST_VGPR; p + iv[k].size <= 256; p++) {
			bool ok = true;
			for (unsigned q = 0; q < iv[k].size; q++)
				if (free_until[p + q] && free_until[p + q] >= iv[k].start + 1)
					ok = false;
			if (ok)
				break;
		}
		if (p + iv[k].size > 256) {
			rc = XT_FAIL(err, XT_ERR_UNSUPPORTED,
				     "the shader needs more than %u vector registers at once (the driver does not spill)",
				     256 - FIRST_VGPR);
			goto out;
		}
		for (unsigned q = 0; q < iv[k].size; q++)
			free_until[p + q] = iv[k].end + 1;
		if (iv[k].id & 0x80000000u)
			ir->regs[iv[k].id & 0x7FFFFFFFu].phys = (int16_t)p;
		else
			ir->vals[iv[k].id].phys = (int16_t)p;
		if (p + iv[k].size > max_reg)
			max_reg = p + iv[k].size;
	}
	ir->num_vgprs = max_reg;
out:
	free(uses);
	free(iv);
	free(loops);
	free(stack);
	return rc;
}
