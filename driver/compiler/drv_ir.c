/*
 * drv_ir.c - the driver IR's storage, builders and printer (drv_ir.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "drv_ir.h"
#include "isa.h"

static const char *const op_names[DRV_OP_COUNT] = {
	[DRV_OP_NOP] = "nop", [DRV_OP_CONST] = "const", [DRV_OP_MOV] = "mov",
	[DRV_OP_VALU] = "valu", [DRV_OP_CMP] = "cmp", [DRV_OP_SELECT] = "select",
	[DRV_OP_SPLIT_LO] = "split_lo", [DRV_OP_SPLIT_HI] = "split_hi", [DRV_OP_PACK64] = "pack64",
	[DRV_OP_REG_READ] = "reg_read", [DRV_OP_REG_WRITE] = "reg_write",
	[DRV_OP_LOAD_INPUT] = "load_input", [DRV_OP_LOAD_SYSVAL] = "load_sysval",
	[DRV_OP_LOAD_BUF] = "load_buf", [DRV_OP_IF] = "if", [DRV_OP_ELSE] = "else",
	[DRV_OP_ENDIF] = "endif", [DRV_OP_LOOP] = "loop", [DRV_OP_CONTINUE_POINT] = "continue_point",
	[DRV_OP_ENDLOOP] = "endloop", [DRV_OP_BREAK] = "break", [DRV_OP_CONTINUE] = "continue",
	[DRV_OP_RETURN] = "return", [DRV_OP_EMIT_VERTEX] = "emit_vertex",
	[DRV_OP_END_PRIMITIVE] = "end_primitive", [DRV_OP_EXPORT_POS] = "export_pos",
	[DRV_OP_SO_BEGIN] = "so_begin", [DRV_OP_SO_STORE] = "so_store", [DRV_OP_SO_END] = "so_end",
	[DRV_OP_ESGS_STORE] = "esgs_store", [DRV_OP_ESGS_LOAD] = "esgs_load",
	[DRV_OP_GSVS_STORE] = "gsvs_store", [DRV_OP_GSVS_LOAD] = "gsvs_load",
	[DRV_OP_GS_MSG] = "gs_msg", [DRV_OP_EPILOGUE] = "epilogue",
	[DRV_OP_IMAGE] = "image", [DRV_OP_COMPONENT] = "component", [DRV_OP_QPERM] = "qperm",
	[DRV_OP_INTERP] = "interp", [DRV_OP_EXPORT_PARAM] = "export_param",
	[DRV_OP_EXPORT_MRT] = "export_mrt",
};

const char *drv_op_name(enum drv_op op)
{
	return op < DRV_OP_COUNT && op_names[op] ? op_names[op] : "?";
}

void drv_ir_init(struct drv_ir *ir, enum drv_hw_stage stage)
{
	memset(ir, 0, sizeof *ir);
	ir->stage = stage;
	ir->n_vals = 1;
	ir->n_regs = 1;
}

void drv_ir_fini(struct drv_ir *ir)
{
	free(ir->ins);
	free(ir->vals);
	free(ir->regs);
	memset(ir, 0, sizeof *ir);
}

static bool grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t n;
	void *q;
	if (need <= *cap)
		return true;
	n = *cap ? *cap * 2 : 64;
	while (n < need)
		n *= 2;
	q = realloc(*p, (size_t)n * elem);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

uint32_t drv_ir_new_val(struct drv_ir *ir, unsigned size)
{
	if (ir->oom || !grow((void **)&ir->vals, &ir->cap_vals, ir->n_vals + 1, sizeof *ir->vals)) {
		ir->oom = true;
		return 0;
	}
	ir->vals[ir->n_vals].size = (uint8_t)size;
	ir->vals[ir->n_vals].phys = -1;
	ir->vals[ir->n_vals].sgpr = -1;
	ir->vals[ir->n_vals].def = 0;
	return ir->n_vals++;
}

uint32_t drv_ir_new_reg(struct drv_ir *ir, unsigned size)
{
	if (ir->oom || !grow((void **)&ir->regs, &ir->cap_regs, ir->n_regs + 1, sizeof *ir->regs)) {
		ir->oom = true;
		return 0;
	}
	ir->regs[ir->n_regs].size = (uint8_t)size;
	ir->regs[ir->n_regs].phys = -1;
	return ir->n_regs++;
}

uint32_t drv_ir_emit(struct drv_ir *ir, const struct drv_ins *tmpl)
{
	struct drv_ins *in;
	if (ir->oom || !grow((void **)&ir->ins, &ir->cap_ins, ir->n_ins + 1, sizeof *ir->ins)) {
		ir->oom = true;
		return 0;
	}
	in = &ir->ins[ir->n_ins];
	*in = *tmpl;
	in->dst = 0;
	if (in->size) {
		in->dst = drv_ir_new_val(ir, in->size);
		if (!in->dst)
			return 0;
		ir->vals[in->dst].def = ir->n_ins;
	}
	ir->n_ins++;
	return in->dst;
}

uint32_t drv_ir_const(struct drv_ir *ir, unsigned size, uint64_t v)
{
	struct drv_ins in = { .op = DRV_OP_CONST, .size = (uint8_t)size, .imm = v };
	return drv_ir_emit(ir, &in);
}

uint32_t drv_ir_valu(struct drv_ir *ir, unsigned gm_op, unsigned size, uint32_t s0, uint32_t s1, uint32_t s2)
{
	struct drv_ins in = { .op = DRV_OP_VALU, .gm_op = (uint16_t)gm_op, .size = (uint8_t)size,
			      .src = { s0, s1, s2 } };
	in.n_src = s2 ? 3 : s1 ? 2 : s0 ? 1 : 0;
	return drv_ir_emit(ir, &in);
}

uint32_t drv_ir_cmp(struct drv_ir *ir, unsigned gm_op, uint32_t s0, uint32_t s1)
{
	struct drv_ins in = { .op = DRV_OP_CMP, .gm_op = (uint16_t)gm_op, .size = 1, .n_src = 2,
			      .src = { s0, s1 } };
	return drv_ir_emit(ir, &in);
}

uint32_t drv_ir_select(struct drv_ir *ir, uint32_t cond, uint32_t t, uint32_t f)
{
	struct drv_ins in = { .op = DRV_OP_SELECT, .n_src = 3, .src = { cond, t, f } };
	in.size = t ? ir->vals[t].size : 1;
	return drv_ir_emit(ir, &in);
}

uint32_t drv_ir_op1(struct drv_ir *ir, enum drv_op op, unsigned size, uint32_t s0, uint32_t a, uint32_t b)
{
	struct drv_ins in = { .op = (uint16_t)op, .size = (uint8_t)size, .n_src = s0 ? 1 : 0,
			      .src = { s0 }, .a = a, .b = b };
	return drv_ir_emit(ir, &in);
}

void drv_ir_op0(struct drv_ir *ir, enum drv_op op, uint32_t s0, uint32_t a, uint32_t b)
{
	struct drv_ins in = { .op = (uint16_t)op, .n_src = s0 ? 1 : 0, .src = { s0 }, .a = a, .b = b };
	drv_ir_emit(ir, &in);
}

uint32_t drv_ir_reg_read(struct drv_ir *ir, uint32_t reg)
{
	struct drv_ins in = { .op = DRV_OP_REG_READ, .a = reg };
	in.size = reg < ir->n_regs ? ir->regs[reg].size : 1;
	return drv_ir_emit(ir, &in);
}

void drv_ir_reg_write(struct drv_ir *ir, uint32_t reg, uint32_t v)
{
	drv_ir_op0(ir, DRV_OP_REG_WRITE, v, reg, 0);
}

void drv_ir_print(const struct drv_ir *ir, struct xt_buf *out)
{
	unsigned depth = 1;
	for (uint32_t i = 0; i < ir->n_ins; i++) {
		const struct drv_ins *in = &ir->ins[i];
		if (in->op == DRV_OP_ELSE || in->op == DRV_OP_ENDIF || in->op == DRV_OP_ENDLOOP ||
		    in->op == DRV_OP_CONTINUE_POINT)
			depth = depth > 1 ? depth - 1 : 1;
		xt_buf_printf(out, "%4u %*s", i, (int)depth * 2, "");
		if (in->dst)
			xt_buf_printf(out, "%%%u%s = ", in->dst, ir->vals[in->dst].size == 2 ? ":64" : "");
		xt_buf_printf(out, "%s", drv_op_name((enum drv_op)in->op));
		if (in->op == DRV_OP_VALU || in->op == DRV_OP_CMP)
			xt_buf_printf(out, ".%s", in->gm_op < ISA_OP_COUNT ? isa_ops[in->gm_op].name : "?");
		for (unsigned s = 0; s < in->n_src; s++)
			xt_buf_printf(out, "%s%s%%%u", s ? ", " : " ",
				      (in->op == DRV_OP_VALU && (in->flags >> s & 1)) ? "-" : "", in->src[s]);
		if (in->op == DRV_OP_CONST)
			xt_buf_printf(out, " 0x%" PRIx64, in->imm);
		if (in->a || in->b)
			xt_buf_printf(out, " [%u, %u]", in->a, in->b);
		xt_buf_printf(out, "\n");
		if (in->op == DRV_OP_IF || in->op == DRV_OP_ELSE || in->op == DRV_OP_LOOP ||
		    in->op == DRV_OP_CONTINUE_POINT)
			depth++;
	}
}
