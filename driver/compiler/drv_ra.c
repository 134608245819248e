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
 * Before allocating, drv_opt forwards copies and regs (drv_opt.c), dead pure
 * instructions are dropped (their dst becomes unused), and CONST values get
 * no register at all: drv_emit puts them in the instruction as inline
 * constants or literals (rematerialization).  Uniform loads may live in
 * SGPRs instead (scalar_values), and a value read from a reg or written to
 * one may share the reg's VGPR (coalesce_reads, coalesce_writes), which
 * spares the v_mov_b32 copies the simulated GPU would otherwise execute per
 * wave.  Sharing a VGPR with a value whose last use is the defining
 * instruction is safe because every instruction drv_emit generates reads
 * its sources before writing its destination (lane by lane at least).
 * There is no spilling: a program that needs more than 240 VGPRs at once
 * is a compile error.
 */
#include <stdlib.h>
#include <string.h>

#include "drv_spirv.h"
#include "isa.h"

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
	case DRV_OP_GSVS_LOAD: case DRV_OP_INTERP: case DRV_OP_IMAGE: case DRV_OP_COMPONENT:
	case DRV_OP_QPERM:
		return true;
	default:
		return false;
	}
}

/* [*s, *e] after the loop rules for values (see the file comment). */
static void value_loop_extend(uint32_t (*loops)[2], uint32_t n_loops, uint32_t *s, uint32_t *e)
{
	bool changed;
	do {
		changed = false;
		for (uint32_t l = 0; l < n_loops; l++) {
			uint32_t ls = loops[l][0], le = loops[l][1];
			if (*s < ls && *e > ls && *e < le) {
				*e = le;
				changed = true;
			}
			if (*s > ls && *s < le && *e > le) {
				*s = ls;
				changed = true;
			}
		}
	} while (changed);
}

/*
 * Coalescing a REG_READ's value with its reg: the value may simply live in
 * the reg's VGPR (and the read emits nothing) when no write to the reg
 * comes after the read and before the value's last use, in list order with
 * the value's interval extended by the loop rules.  A write in that range
 * would change the VGPR under the value; a write before the read in a later
 * loop iteration is harmless, because every lane that runs it runs the read
 * again before using the value (SSA: uses follow the read in list order).
 * This removes the v_mov of most variable reads and of loop-header phis
 * not used after their loop.
 * coal[v] = the reg for coalesced values; their vstart becomes "none" and
 * the reg's interval grows to cover them.
 */
static void coalesce_reads(const struct drv_ir *ir, uint32_t (*loops)[2], uint32_t n_loops, uint32_t *vstart,
			   const uint32_t *vend, uint32_t *rstart, uint32_t *rend, uint32_t *coal, uint32_t *coal_end)
{
	for (uint32_t i = 0; i < ir->n_ins; i++) {
		const struct drv_ins *in = &ir->ins[i];
		uint32_t v = in->dst, r = in->a, s, e;
		bool ok = true;

		if (in->op != DRV_OP_REG_READ || !v || vstart[v] != i)
			continue;
		s = i;
		e = vend[v] > i ? vend[v] : i;
		value_loop_extend(loops, n_loops, &s, &e);
		for (uint32_t k = i + 1; k <= e && k < ir->n_ins && ok; k++)
			if (ir->ins[k].op == DRV_OP_REG_WRITE && ir->ins[k].a == r)
				ok = false;
		if (!ok)
			continue;
		coal[v] = r;
		coal_end[v] = e;
		vstart[v] = UINT32_MAX;
		if (s < rstart[r])
			rstart[r] = s;
		if (e > rend[r])
			rend[r] = e;
	}
}

static bool is_marker(uint16_t op)
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

#define COALESCE_SCAN 4096u   /* instructions a coalescing test may look at */

/*
 * Coalescing a value with the reg a REG_WRITE stores it to: the value's
 * defining instruction may write the reg's VGPR itself (and the REG_WRITE
 * emits nothing), which removes the v_mov_b32 of each loop-carried phi at
 * the bottom of a loop body.  That is the REG_WRITE's effect moved earlier,
 * so it must be unobservable: definition and write in one straight-line
 * stretch (the same exec mask), nothing reading or writing the reg between
 * them, no value coalesced with the reg by coalesce_reads still in use at
 * the definition, and (as for reads) no write of the reg while the value
 * is still used afterwards.  Runs after coalesce_reads.
 */
static void coalesce_writes(const struct drv_ir *ir, uint32_t (*loops)[2], uint32_t n_loops, uint32_t *vstart,
			    const uint32_t *vend, uint32_t *rstart, uint32_t *rend, uint32_t *coal,
			    uint32_t *coal_end)
{
	for (uint32_t j = 0; j < ir->n_ins; j++) {
		const struct drv_ins *w = &ir->ins[j];
		uint32_t u = w->n_src ? w->src[0] : 0, r = w->a, k, s, e;
		bool ok = true;

		if (w->op != DRV_OP_REG_WRITE || !u || coal[u] || vstart[u] == UINT32_MAX)
			continue;
		k = vstart[u];
		if (k >= j || j - k > COALESCE_SCAN)
			continue;
		s = k;
		e = vend[u] > k ? vend[u] : k;
		value_loop_extend(loops, n_loops, &s, &e);
		if (e - j > COALESCE_SCAN)
			continue;
		for (uint32_t i = k + 1; i < j && ok; i++) {
			const struct drv_ins *in = &ir->ins[i];
			if (is_marker(in->op) || ((in->op == DRV_OP_REG_READ || in->op == DRV_OP_REG_WRITE) && in->a == r))
				ok = false;
		}
		for (uint32_t i = j + 1; i <= e && i < ir->n_ins && ok; i++)
			if (ir->ins[i].op == DRV_OP_REG_WRITE && ir->ins[i].a == r)
				ok = false;
		for (uint32_t v = 1; v < ir->n_vals && ok; v++)
			if (coal[v] == r && coal_end[v] > k && ir->vals[v].def < k)
				ok = false;
		if (!ok)
			continue;
		coal[u] = r;
		coal_end[u] = e;
		vstart[u] = UINT32_MAX;
		if (s < rstart[r])
			rstart[r] = s;
		if (e > rend[r])
			rend[r] = e;
	}
}

/* Can a use by `op` read its operand from an SGPR (drv_emit's opd())? */
static bool takes_sgpr(uint16_t op)
{
	switch (op) {
	case DRV_OP_VALU: case DRV_OP_CMP: case DRV_OP_MOV: case DRV_OP_REG_WRITE: case DRV_OP_EXPORT_POS:
	case DRV_OP_EXPORT_PARAM: case DRV_OP_EXPORT_MRT: case DRV_OP_IF:
		return true;
	default:
		return false;
	}
}

static int cmp_start(const void *a, const void *b);

/*
 * Uniform loads kept in SGPRs: a LOAD_BUF without a per-lane offset reads
 * the same dword for every lane, so drv_emit can leave it in the SGPR its
 * s_buffer_load_dword wrote and VALU instructions read it from there; a
 * VGPR copy would cost a v_mov_b32 per uniform per wave.  Such values get
 * SGPRs above the deepest control-flow nesting (drv_emit's exec-mask
 * bookkeeping), by the same linear scan and loop rules as VGPRs; scalar
 * writes ignore exec, which is harmless for a value equal in every lane.
 * Values that do not fit stay in VGPRs.
 */
static enum xt_rc scalar_values(struct drv_ir *ir, uint32_t (*loops)[2], uint32_t n_loops, bool *scalar,
				struct xt_err *err)
{
	uint32_t *end = calloc(ir->n_vals, sizeof *end), free_until[ISA_NUM_SGPRS], n_iv = 0;
	struct interval *iv = calloc(ir->n_vals, sizeof *iv);
	unsigned cur = DRV_SGPR_CF_BASE, top = DRV_SGPR_CF_BASE;

	if (!end || !iv) {
		free(end);
		free(iv);
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	}
	for (uint32_t i = 0; i < ir->n_ins; i++) {
		const struct drv_ins *in = &ir->ins[i];
		switch (in->op) {
		case DRV_OP_IF: cur += DRV_SGPR_PER_IF; break;
		case DRV_OP_LOOP: cur += DRV_SGPR_PER_LOOP; break;
		case DRV_OP_ENDIF: cur -= DRV_SGPR_PER_IF; break;
		case DRV_OP_ENDLOOP: cur -= DRV_SGPR_PER_LOOP; break;
		case DRV_OP_LOAD_BUF:
			if (in->dst && in->size == 1 && (!in->n_src || !in->src[0]) && !(in->b & 3))
				scalar[in->dst] = true;
			break;
		default:
			break;
		}
		if (cur > top)
			top = cur;
		for (unsigned s = 0; s < in->n_src; s++) {
			uint32_t v = in->src[s];
			if (!v || !scalar[v])
				continue;
			if (!takes_sgpr(in->op))
				scalar[v] = false;
			end[v] = i;
		}
	}
	for (uint32_t v = 1; v < ir->n_vals; v++)
		if (scalar[v]) {
			uint32_t s = ir->vals[v].def, e = end[v] > s ? end[v] : s;
			value_loop_extend(loops, n_loops, &s, &e);
			iv[n_iv++] = (struct interval){ s, e, v, 1 };
		}
	qsort(iv, n_iv, sizeof *iv, cmp_start);
	memset(free_until, 0, sizeof free_until);
	for (uint32_t k = 0; k < n_iv; k++) {
		unsigned p;
		for (p = top; p < DRV_SGPR_IMG; p++)
			if (!free_until[p] || free_until[p] < iv[k].start + 1)
				break;
		if (p >= DRV_SGPR_IMG) {
			scalar[iv[k].id] = false;   /* stays a VGPR value */
			continue;
		}
		free_until[p] = iv[k].end + 1;
		ir->vals[iv[k].id].sgpr = (int16_t)p;
	}
	free(end);
	free(iv);
	return XT_OK;
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
	uint32_t *coal = calloc(ir->n_vals, sizeof *coal), *coal_end = calloc(ir->n_vals, sizeof *coal_end);
	bool *scalar = calloc(ir->n_vals, sizeof *scalar);
	uint32_t free_until[256], n_loops = 0, depth = 0, n_iv = 0, max_reg = FIRST_VGPR;
	enum xt_rc rc = XT_OK;
	bool changed;

	if (!uses || !iv || !loops || !stack || !coal || !coal_end || !scalar) {
		rc = XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (!ir->skip_opt && (rc = drv_opt(ir, err)) != XT_OK)
		goto out;
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
	if ((rc = scalar_values(ir, loops, n_loops, scalar, err)) != XT_OK)
		goto out;
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
			if (in->dst && ir->ins[i].op != DRV_OP_CONST && !scalar[in->dst])
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
		coalesce_reads(ir, loops, n_loops, vstart, vend, rstart, rend, coal, coal_end);
		coalesce_writes(ir, loops, n_loops, vstart, vend, rstart, rend, coal, coal_end);
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
	for (uint32_t v = 1; v < ir->n_vals; v++)
		if (coal[v])
			ir->vals[v].phys = ir->regs[coal[v]].phys;
	ir->num_vgprs = max_reg;
out:
	free(coal);
	free(coal_end);
	free(scalar);
	free(uses);
	free(iv);
	free(loops);
	free(stack);
	return rc;
}
