/*
 * drv_opt.c - copy propagation and reg forwarding on the driver IR, run by
 * drv_ra before it allocates (drv_ir.h drv_opt).
 *
 * Why.  drv_spirv_to_ir keeps every SPIR-V variable (inputs, outputs,
 * locals, phis) in a reg and every OpCopyObject-like step as a MOV, so a
 * straight-line shader reads its attribute into a value, writes it to a
 * reg, reads the reg back, ... and each of those is a v_mov_b32 that the
 * simulated GPU executes for all 64 lanes.  The sim's speed is the
 * benchmark's (docs/performance.md), so the compiler removes what it can
 * prove redundant, without changing any value a lane computes:
 *
 *   1. MOV d = s: uses of d become uses of s (SSA: s is defined before the
 *      MOV, which dominates every use of d, so s holds the same bits there;
 *      drv_ra extends s's interval to the new uses).
 *   2. A reg read whose value is known: after REG_WRITE r = v or REG_READ
 *      r -> v in the same straight-line stretch (no control-flow marker in
 *      between, so the same exec mask), a REG_READ r yields v.
 *   3. A reg written exactly once, at the top level (outside every IF, LOOP
 *      and the streamout section, which narrow exec), with no RETURN before
 *      that write and no read before it: every lane that reads it later
 *      (also after EPILOGUE) ran that write, so each read yields the
 *      written value.
 *   4. Dead writes: a reg nobody reads any more loses its writes; a write
 *      that is overwritten at the same nesting level before any read of
 *      the reg and before any lane can leave the region (BREAK, CONTINUE,
 *      RETURN) is dropped.
 *
 * The obvious "forward every write to every later read" is wrong on this
 * machine: a write under a narrower exec mask (an IF arm) leaves the other
 * lanes' old bits in the reg, which is how regs implement phis (drv_ir.h),
 * so only the cases above, where every reading lane provably ran the write,
 * are forwarded.  MOVs and REG_READs left without uses and removed writes
 * become NOPs; what else dies is drv_ra's dead-code sweep's.
 */
#include <stdlib.h>
#include <string.h>

#include "drv_ir.h"

static bool is_cf(uint16_t op)
{
	switch (op) {
	case DRV_OP_IF: case DRV_OP_ELSE: case DRV_OP_ENDIF: case DRV_OP_LOOP: case DRV_OP_CONTINUE_POINT:
	case DRV_OP_ENDLOOP: case DRV_OP_BREAK: case DRV_OP_CONTINUE: case DRV_OP_RETURN: case DRV_OP_EPILOGUE:
	case DRV_OP_SO_BEGIN: case DRV_OP_SO_END:
		return true;
	default:
		return false;
	}
}

static void make_nop(struct drv_ins *in)
{
	memset(in, 0, sizeof *in);
	in->op = DRV_OP_NOP;
}

/* Passes 1-3 in one walk: alias[v] is the value v's uses are replaced by. */
static void forward(struct drv_ir *ir, uint32_t *alias, uint32_t *known, uint32_t *known_gen,
		    const uint32_t *single_write)
{
	uint32_t gen = 1;

	for (uint32_t i = 0; i < ir->n_ins; i++) {
		struct drv_ins *in = &ir->ins[i];
		for (unsigned s = 0; s < in->n_src; s++)
			if (in->src[s] && alias[in->src[s]])
				in->src[s] = alias[in->src[s]];
		if (is_cf(in->op)) {
			gen++;
			continue;
		}
		if (in->op == DRV_OP_MOV && in->dst && ir->vals[in->src[0]].size == in->size) {
			alias[in->dst] = in->src[0];
		} else if (in->op == DRV_OP_REG_WRITE) {
			known[in->a] = in->src[0];
			known_gen[in->a] = gen;
		} else if (in->op == DRV_OP_REG_READ) {
			uint32_t r = in->a;
			if (single_write[r] && single_write[r] - 1 < i)
				alias[in->dst] = ir->ins[single_write[r] - 1].src[0];
			else if (known_gen[r] == gen && known[r])
				alias[in->dst] = known[r];
			else {
				known[r] = in->dst;
				known_gen[r] = gen;
			}
		}
	}
}

/* Regs written once at the top level before any RETURN and never read
 * before that write: single[r] = write index + 1 (0 = not such a reg). */
static void find_single_writes(const struct drv_ir *ir, uint32_t *single, uint32_t *n_writes, bool *read_early)
{
	unsigned depth = 0;
	bool returned = false;

	for (uint32_t i = 0; i < ir->n_ins; i++) {
		const struct drv_ins *in = &ir->ins[i];
		switch (in->op) {
		/* (the streamout section narrows exec like an IF) */
		case DRV_OP_IF: case DRV_OP_LOOP: case DRV_OP_SO_BEGIN: depth++; break;
		case DRV_OP_ENDIF: case DRV_OP_ENDLOOP: case DRV_OP_SO_END: depth--; break;
		case DRV_OP_RETURN: returned = true; break;
		case DRV_OP_REG_READ:
			if (!n_writes[in->a])
				read_early[in->a] = true;
			break;
		case DRV_OP_REG_WRITE:
			if (!n_writes[in->a]++ && depth == 0 && !returned)
				single[in->a] = i + 1;
			break;
		default:
			break;
		}
	}
	for (uint32_t r = 1; r < ir->n_regs; r++)
		if (n_writes[r] != 1 || read_early[r])
			single[r] = 0;
}

/* Is the write at w overwritten before anything can observe it (pass 4)? */
static bool overwritten(const struct drv_ir *ir, uint32_t w)
{
	uint32_t reg = ir->ins[w].a;
	unsigned rel = 0, loops = 0;
	/* loops opened since w, as a stack of flags: BREAK / CONTINUE are only
	 * harmless when they target a loop that opened after w */
	uint8_t kind[64];

	for (uint32_t i = w + 1; i < ir->n_ins; i++) {
		const struct drv_ins *in = &ir->ins[i];
		switch (in->op) {
		case DRV_OP_IF:
		case DRV_OP_LOOP:
			if (rel >= sizeof kind)
				return false;
			kind[rel++] = in->op == DRV_OP_LOOP;
			loops += in->op == DRV_OP_LOOP;
			break;
		case DRV_OP_ENDIF:
		case DRV_OP_ENDLOOP:
			if (!rel)
				return false;
			loops -= kind[--rel];
			break;
		case DRV_OP_ELSE:
		case DRV_OP_CONTINUE_POINT:
			if (!rel)
				return false;
			break;
		case DRV_OP_BREAK:
		case DRV_OP_CONTINUE:
			if (!loops)
				return false;
			break;
		case DRV_OP_RETURN:
		case DRV_OP_EPILOGUE:
		case DRV_OP_SO_BEGIN:
		case DRV_OP_SO_END:
			return false;
		case DRV_OP_REG_READ:
			if (in->a == reg)
				return false;
			break;
		case DRV_OP_REG_WRITE:
			if (in->a == reg && rel == 0)
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

static void drop_dead_writes(struct drv_ir *ir, uint32_t *reads)
{
	memset(reads, 0, ir->n_regs * sizeof *reads);
	for (uint32_t i = 0; i < ir->n_ins; i++)
		if (ir->ins[i].op == DRV_OP_REG_READ) {
			/* a read nobody uses is dead code for drv_ra; it does not count */
			reads[ir->ins[i].a]++;
		}
	for (uint32_t i = 0; i < ir->n_ins; i++) {
		struct drv_ins *in = &ir->ins[i];
		if (in->op == DRV_OP_REG_WRITE && (!reads[in->a] || overwritten(ir, i)))
			make_nop(in);
	}
}

/* Drops REG_READs whose result has no use, so that pass 4 sees real reads. */
static void drop_unused_reads(struct drv_ir *ir, uint32_t *uses)
{
	memset(uses, 0, ir->n_vals * sizeof *uses);
	for (uint32_t i = 0; i < ir->n_ins; i++)
		for (unsigned s = 0; s < ir->ins[i].n_src; s++)
			if (ir->ins[i].src[s])
				uses[ir->ins[i].src[s]]++;
	for (uint32_t i = ir->n_ins; i-- > 0;) {
		struct drv_ins *in = &ir->ins[i];
		if ((in->op == DRV_OP_REG_READ || in->op == DRV_OP_MOV) && in->dst && !uses[in->dst]) {
			for (unsigned s = 0; s < in->n_src; s++)
				if (in->src[s])
					uses[in->src[s]]--;
			ir->vals[in->dst].def = i;
			make_nop(in);
		}
	}
}

enum xt_rc drv_opt(struct drv_ir *ir, struct xt_err *err)
{
	size_t nv = ir->n_vals, nr = ir->n_regs;
	uint32_t *alias = calloc(nv, sizeof *alias), *uses = calloc(nv, sizeof *uses);
	uint32_t *known = calloc(nr, sizeof *known), *known_gen = calloc(nr, sizeof *known_gen);
	uint32_t *single = calloc(nr, sizeof *single), *n_writes = calloc(nr, sizeof *n_writes);
	bool *read_early = calloc(nr, sizeof *read_early);
	enum xt_rc rc = XT_OK;

	if (!alias || !uses || !known || !known_gen || !single || !n_writes || !read_early) {
		rc = XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
		goto out;
	}
	/* dead writes first: an output's zero initialisation that the shader
	 * overwrites would otherwise hide that the reg has one real write */
	drop_dead_writes(ir, n_writes);
	memset(n_writes, 0, nr * sizeof *n_writes);
	find_single_writes(ir, single, n_writes, read_early);
	forward(ir, alias, known, known_gen, single);
	drop_unused_reads(ir, uses);
	drop_dead_writes(ir, n_writes);
out:
	free(alias);
	free(uses);
	free(known);
	free(known_gen);
	free(single);
	free(n_writes);
	free(read_early);
	return rc;
}
