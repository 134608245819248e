/*
 * drv_ir_validate.c - mechanical checks of the driver IR's invariants
 * (drv_ir.h), run after every pass so the pass that breaks the IR is the one
 * that fails, as nir_validate_shader does for NIR.
 *
 * Checked: every value is defined exactly once and before each use in list
 * order (SPIR-V dominance then guarantees that every lane that reaches the
 * use executed the definition, e.g. a loop header value used after the loop
 * or a value from the one IF arm that does not break); sizes agree with the op; regs exist and reads / writes use their size;
 * IF / ELSE / ENDIF and LOOP / CONTINUE_POINT / ENDLOOP nest; BREAK and
 * CONTINUE sit inside a loop body; the ops drv_lower_io removes
 * (EMIT_VERTEX, END_PRIMITIVE) do not survive it.
 */
#include <stdlib.h>

#include "drv_ir.h"
#include "isa.h"

#define MAX_DEPTH 64

enum xt_rc drv_ir_validate(const struct drv_ir *ir, const char *pass, struct xt_err *err)
{
	/* region ids: a stack of open regions; a value records the region it was
	 * defined in; a use must see that region on the current stack. */
	uint32_t stack[MAX_DEPTH], nregion = 1;
	uint8_t kind[MAX_DEPTH];
	unsigned depth = 0, loops = 0;
	uint32_t *def_region = NULL;
	bool *on_stack = NULL;
	bool lowered = false;
	enum xt_rc rc = XT_OK;

	if (ir->oom)
		return XT_FAIL(err, XT_ERR_NOMEM, "%s: out of memory while building IR", pass);
	def_region = calloc(ir->n_vals + 1, sizeof *def_region);
	on_stack = calloc((size_t)ir->n_ins * 2 + 2, sizeof *on_stack);
	if (!def_region || !on_stack) {
		free(def_region);
		free(on_stack);
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	}
	stack[0] = 0;
	on_stack[0] = true;
	for (uint32_t i = 0; i < ir->n_ins; i++)
		if (ir->ins[i].op == DRV_OP_EPILOGUE)   /* only drv_lower_io adds it */
			lowered = true;

#define BAD(...) do { rc = XT_FAIL(err, XT_ERR_INTERNAL, __VA_ARGS__); goto out; } while (0)
	for (uint32_t i = 0; i < ir->n_ins; i++) {
		const struct drv_ins *in = &ir->ins[i];
		if (in->op >= DRV_OP_COUNT)
			BAD("IR invalid after %s: instruction %u has unknown op %u", pass, i, in->op);
		if (in->n_src > (in->op == DRV_OP_IMAGE ? 8 : 4))
			BAD("IR invalid after %s: instruction %u has %u sources", pass, i, in->n_src);
		for (unsigned s = 0; s < in->n_src; s++) {
			uint32_t v = in->src[s];
			if (!v && (in->op == DRV_OP_LOAD_BUF || in->op == DRV_OP_GSVS_STORE))
				continue;      /* optional operand */
			if (!v || v >= ir->n_vals)
				BAD("IR invalid after %s: instruction %u (%s) source %u is %%%u, not a value",
				    pass, i, drv_op_name((enum drv_op)in->op), s, v);
			if (ir->vals[v].def >= i || ir->ins[ir->vals[v].def].dst != v)
				BAD("IR invalid after %s: instruction %u (%s) uses %%%u before its definition",
				    pass, i, drv_op_name((enum drv_op)in->op), v);
		}
		if (in->size && (!in->dst || ir->vals[in->dst].def != i || ir->vals[in->dst].size != in->size))
			BAD("IR invalid after %s: instruction %u has a bad destination", pass, i);
		if (!in->size && in->dst)
			BAD("IR invalid after %s: instruction %u has a destination but size 0", pass, i);
		if (in->dst)
			def_region[in->dst] = stack[depth];
		switch (in->op) {
		case DRV_OP_VALU:
		case DRV_OP_CMP:
			if (in->gm_op >= ISA_OP_COUNT)
				BAD("IR invalid after %s: instruction %u has gm op %u", pass, i, in->gm_op);
			for (unsigned s = 0; s < in->n_src; s++) {
				unsigned want = isa_ops[in->gm_op].src_regs[s];
				if (ir->vals[in->src[s]].size != want)
					BAD("IR invalid after %s: instruction %u (%s) source %u has %u dwords, %s wants %u",
					    pass, i, isa_ops[in->gm_op].name, s, ir->vals[in->src[s]].size,
					    isa_ops[in->gm_op].name, want);
			}
			if (in->op == DRV_OP_VALU && in->size != isa_ops[in->gm_op].dst_regs)
				BAD("IR invalid after %s: instruction %u (%s) result size", pass, i,
				    isa_ops[in->gm_op].name);
			break;
		case DRV_OP_IMAGE:
			if (in->size != 4 || in->a >= DRV_MAX_SAMPLERS || (in->flags & ~ISA_FLAG_DA) ||
			    (in->b == DRV_IMG_RESINFO ? in->n_src != 1 || in->flags :
			     in->b > DRV_IMG_GATHER4_LZ_O || in->imm > 3 ||
			     in->n_src != 2u + (in->flags & ISA_FLAG_DA ? 1u : 0u) + drv_img_extra(in->b)))
				BAD("IR invalid after %s: image %u operands", pass, i);
			for (unsigned s = 0; s < in->n_src; s++)
				if (ir->vals[in->src[s]].size != 1)
					BAD("IR invalid after %s: image %u coordinate %u is not one dword", pass, i, s);
			break;
		case DRV_OP_QPERM:
			if (in->size != 1 || in->n_src != 1 || ir->vals[in->src[0]].size != 1 || in->a > 0xFF ||
			    ir->stage != DRV_HW_PS || !ir->wqm)
				BAD("IR invalid after %s: qperm %u outside a whole-quad pixel shader", pass, i);
			break;
		case DRV_OP_COMPONENT:
			if (in->size != 1 || in->n_src != 1 || in->a >= ir->vals[in->src[0]].size)
				BAD("IR invalid after %s: component %u out of its source", pass, i);
			break;
		case DRV_OP_SELECT:
			if (ir->vals[in->src[0]].size != 1 || ir->vals[in->src[1]].size != in->size ||
			    ir->vals[in->src[2]].size != in->size)
				BAD("IR invalid after %s: select %u operand sizes", pass, i);
			break;
		case DRV_OP_REG_READ:
		case DRV_OP_REG_WRITE:
			if (!in->a || in->a >= ir->n_regs)
				BAD("IR invalid after %s: instruction %u names reg %u", pass, i, in->a);
			if ((in->op == DRV_OP_REG_READ ? in->size : ir->vals[in->src[0]].size) != ir->regs[in->a].size)
				BAD("IR invalid after %s: instruction %u accesses reg %u with the wrong size", pass, i, in->a);
			break;
		case DRV_OP_IF:
		case DRV_OP_LOOP:
			if (depth + 1 >= MAX_DEPTH)
				BAD("IR invalid after %s: control flow nested deeper than %u", pass, MAX_DEPTH);
			kind[++depth] = (uint8_t)in->op;
			stack[depth] = nregion++;
			on_stack[stack[depth]] = true;
			if (in->op == DRV_OP_LOOP)
				loops++;
			break;
		case DRV_OP_ELSE:
		case DRV_OP_CONTINUE_POINT:
			if (!depth || kind[depth] != (in->op == DRV_OP_ELSE ? DRV_OP_IF : DRV_OP_LOOP))
				BAD("IR invalid after %s: %s at %u without its opener", pass,
				    drv_op_name((enum drv_op)in->op), i);
			on_stack[stack[depth]] = false;
			kind[depth] = (uint8_t)in->op;
			stack[depth] = nregion++;
			on_stack[stack[depth]] = true;
			break;
		case DRV_OP_ENDIF:
		case DRV_OP_ENDLOOP:
			if (!depth || (in->op == DRV_OP_ENDIF ? (kind[depth] != DRV_OP_IF && kind[depth] != DRV_OP_ELSE)
							     : (kind[depth] != DRV_OP_LOOP &&
								kind[depth] != DRV_OP_CONTINUE_POINT)))
				BAD("IR invalid after %s: %s at %u does not close its region", pass,
				    drv_op_name((enum drv_op)in->op), i);
			if (in->op == DRV_OP_ENDLOOP)
				loops--;
			on_stack[stack[depth]] = false;
			depth--;
			break;
		case DRV_OP_BREAK:
		case DRV_OP_CONTINUE: {
			bool in_body = false;
			for (unsigned d = depth; d > 0; d--)
				if (kind[d] == DRV_OP_LOOP || kind[d] == DRV_OP_CONTINUE_POINT) {
					in_body = kind[d] == DRV_OP_LOOP;
					break;
				}
			if (!loops || !in_body)
				BAD("IR invalid after %s: %s at %u is not inside a loop body", pass,
				    drv_op_name((enum drv_op)in->op), i);
			break;
		}
		case DRV_OP_EMIT_VERTEX:
		case DRV_OP_END_PRIMITIVE:
			if (lowered)
				BAD("IR invalid after %s: %s at %u survived I/O lowering", pass,
				    drv_op_name((enum drv_op)in->op), i);
			break;
		default:
			break;
		}
	}
	if (depth)
		BAD("IR invalid after %s: %u control-flow regions left open", pass, depth);
#undef BAD
out:
	free(def_region);
	free(on_stack);
	return rc;
}
