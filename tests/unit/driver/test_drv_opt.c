/*
 * test_drv_opt.c - the driver IR optimisations (drv_opt.c: copy
 * propagation, reg forwarding, dead reg writes; drv_ra.c: reads coalesced
 * with their reg) on IR built by hand: each program is compiled twice, with
 * and without drv_opt, both binaries run on a gpu_model wave of 64 lanes,
 * and the tests check that the optimised one is shorter, executes fewer
 * instructions, and exports exactly the values the plain one exports and
 * the CPU computes.  The programs mix the cases forwarding must refuse:
 * writes under a narrower exec mask (IF arms), loop-carried regs read
 * before they are written, and lanes that leave a loop early.
 */
#include <stdlib.h>
#include <string.h>

#include "drv_spirv.h"
#include "isa.h"
#include "gm_priv.h"
#include "xt_test.h"

struct exported {
	uint32_t pos[4][64];       /* exp pos0 per channel and lane */
	unsigned count;
};

static void on_export(void *ctx, struct gm_wave *w, unsigned target, unsigned vgpr, uint64_t exec)
{
	struct exported *x = ctx;
	(void)target;
	(void)exec;
	for (unsigned c = 0; c < 4; c++)
		memcpy(x->pos[c], w->v[vgpr + c], sizeof x->pos[c]);
	x->count++;
}

struct run {
	uint32_t size_dw;
	uint64_t instructions;
	struct exported out;
	bool ok;
};

typedef void (*build_fn)(struct drv_ir *ir);

/* Builds with `build`, optimises or not, allocates, emits and runs one full
 * wave (v0 = lane as the vertex id, base vertex 0). */
static void compile_run(build_fn build, bool opt, struct run *r)
{
	struct drv_ir ir;
	struct drv_lower_info info = { 0 };
	struct drv_stage_binary bin = { 0 };
	struct xt_err err = { 0 };
	struct gm_prog prog = { 0 };
	struct gm_fault_log faults;
	struct gm_wave *w = calloc(1, sizeof *w);
	struct gm_wave_env env = { 0 };

	memset(r, 0, sizeof *r);
	drv_ir_init(&ir, DRV_HW_VS);
	ir.skip_opt = !opt;
	build(&ir);
	CHECK(w && gm_fault_log_init(&faults, 8) == XT_OK);
	CHECK(drv_ir_validate(&ir, "test build", &err) == XT_OK);
	if (drv_ra(&ir, &err) != XT_OK || drv_ir_validate(&ir, "ra", &err) != XT_OK ||
	    drv_emit(&ir, &info, &bin, &err) != XT_OK) {
		fprintf(stderr, "compile (%s): %s\n", opt ? "opt" : "no opt", xt_err_msg(&err));
		CHECK(!"compiles");
		goto out;
	}
	CHECK(gm_prog_decode_dw(bin.code, bin.size_dw, 0x1000, &prog) == XT_OK);
	gm_wave_reset(w, ~0ull, bin.num_sgprs, bin.num_vgprs);
	for (unsigned l = 0; l < 64; l++)
		w->v[0][l] = l;
	env.faults = &faults;
	env.ctx = &r->out;
	env.export_ = on_export;
	gm_wave_run(w, &prog, &env);
	CHECK(!w->killed);
	CHECK_EQ_INT(faults.total, 0);
	r->size_dw = bin.size_dw;
	r->instructions = w->instructions;
	r->ok = !w->killed && r->out.count == 1;
	if (!r->ok || getenv("XFBTRACE_TEST_DUMP"))
		fprintf(stderr, "--- %s\n%s", opt ? "optimised" : "plain", bin.asm_text ? bin.asm_text : "");
out:
	gm_prog_fini(&prog);
	gm_fault_log_fini(&faults);
	free(bin.code);
	free(bin.asm_text);
	free(w);
	drv_ir_fini(&ir);
}

/* Runs `build` both ways; expect(lane, channel) is the CPU's answer. */
static void check_both(build_fn build, uint32_t (*expect)(unsigned lane, unsigned c))
{
	struct run plain, opt;
	bool same = true, right = true;

	compile_run(build, false, &plain);
	compile_run(build, true, &opt);
	CHECK(plain.ok && opt.ok);
	if (!plain.ok || !opt.ok)
		return;
	for (unsigned c = 0; c < 4; c++)
		for (unsigned l = 0; l < 64; l++) {
			same &= plain.out.pos[c][l] == opt.out.pos[c][l];
			if (opt.out.pos[c][l] != expect(l, c)) {
				if (right)
					fprintf(stderr, "lane %u channel %u: %u, expected %u\n", l, c,
						opt.out.pos[c][l], expect(l, c));
				right = false;
			}
		}
	CHECK(same);
	CHECK(right);
	CHECK(opt.size_dw < plain.size_dw);
	CHECK(opt.instructions < plain.instructions);
}

static uint32_t mov(struct drv_ir *ir, uint32_t v)
{
	return drv_ir_op1(ir, DRV_OP_MOV, ir->vals[v].size, v, 0, 0);
}

static void export4(struct drv_ir *ir, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	struct drv_ins in = { .op = DRV_OP_EXPORT_POS, .n_src = 4, .src = { a, b, c, d } };
	drv_ir_op0(ir, DRV_OP_EPILOGUE, 0, 0, 0);
	drv_ir_emit(ir, &in);
}

/*
 * id = vertex id; x = 3 * id through MOV chains; reg B = x, then under
 * "id < 10" B = x + 10 (a write under a narrower exec mask: the read after
 * ENDIF must see both); reg A written once at the top level and read twice
 * (forwarded); reg Z zero-initialised then overwritten (dead first write);
 * reg E read into a value that outlives the next write of E (the read
 * must not share E's register); B read between the definition of its next
 * value and the write of it (the definition must not write B's register).
 */
static void build_straight(struct drv_ir *ir)
{
	uint32_t ra = drv_ir_new_reg(ir, 1), rb = drv_ir_new_reg(ir, 1), rz = drv_ir_new_reg(ir, 1);
	uint32_t re = drv_ir_new_reg(ir, 1);
	uint32_t id = drv_ir_op1(ir, DRV_OP_LOAD_SYSVAL, 1, 0, DRV_SV_VERTEX_ID, 0);
	uint32_t three = drv_ir_const(ir, 1, 3), ten = drv_ir_const(ir, 1, 10), zero = drv_ir_const(ir, 1, 0);
	uint32_t x, b, b2, g, a1, a2, z, e, f, cond, u;

	drv_ir_reg_write(ir, rz, zero);
	x = mov(ir, mov(ir, drv_ir_valu(ir, ISA_OP_V_MUL_LO_U32, 1, mov(ir, id), three, 0)));
	drv_ir_reg_write(ir, rb, x);
	drv_ir_reg_write(ir, re, id);
	cond = drv_ir_cmp(ir, ISA_OP_V_CMP_LT_U32, id, ten);
	drv_ir_op0(ir, DRV_OP_IF, cond, 0, 0);
	drv_ir_reg_write(ir, rb, drv_ir_valu(ir, ISA_OP_V_ADD_U32, 1, x, ten, 0));
	drv_ir_reg_write(ir, re, x);
	drv_ir_op0(ir, DRV_OP_ENDIF, 0, 0, 0);
	e = drv_ir_reg_read(ir, re);
	drv_ir_reg_write(ir, re, drv_ir_valu(ir, ISA_OP_V_ADD_U32, 1, e, ten, 0));
	drv_ir_op0(ir, DRV_OP_IF, cond, 0, 0);    /* an empty IF: no forwarding across it */
	drv_ir_op0(ir, DRV_OP_ENDIF, 0, 0, 0);
	f = drv_ir_reg_read(ir, re);
	b = mov(ir, drv_ir_reg_read(ir, rb));
	u = drv_ir_valu(ir, ISA_OP_V_MUL_LO_U32, 1, id, drv_ir_const(ir, 1, 5), 0);
	b2 = drv_ir_reg_read(ir, rb);
	drv_ir_reg_write(ir, rb, u);
	drv_ir_op0(ir, DRV_OP_IF, cond, 0, 0);
	drv_ir_op0(ir, DRV_OP_ENDIF, 0, 0, 0);
	g = drv_ir_reg_read(ir, rb);
	drv_ir_reg_write(ir, ra, drv_ir_valu(ir, ISA_OP_V_ADD_U32, 1, b, id, 0));
	drv_ir_reg_write(ir, rz, drv_ir_valu(ir, ISA_OP_V_XOR_B32, 1, id, three, 0));
	a1 = drv_ir_reg_read(ir, ra);
	a2 = mov(ir, drv_ir_reg_read(ir, ra));
	z = drv_ir_reg_read(ir, rz);
	z = drv_ir_valu(ir, ISA_OP_V_ADD_U32, 1, drv_ir_valu(ir, ISA_OP_V_ADD_U32, 1, z, b2, 0), g, 0);
	export4(ir, a1, drv_ir_valu(ir, ISA_OP_V_ADD_U32, 1, a2, a1, 0), z,
		drv_ir_valu(ir, ISA_OP_V_ADD_U32, 1, e, mov(ir, f), 0));
}

static uint32_t expect_straight(unsigned id, unsigned c)
{
	uint32_t b = 3 * id + (id < 10 ? 10 : 0), a = b + id;
	switch (c) {
	case 0: return a;
	case 1: return 2 * a;
	case 2: return (id ^ 3) + b + 5 * id;
	default: {
		uint32_t e = id < 10 ? 3 * id : id;
		return e + e + 10;
	}
	}
}

static void test_opt_straight_line_and_if_keep_every_value(void)
{
	check_both(build_straight, expect_straight);
}

/*
 * A loop with a divergent trip count: I and S are loop-carried regs (read
 * at the top, written at the bottom), lanes break when I reaches id % 7;
 * S = 0 + 1 + ... + (id % 7 - 1).  The value of I read in the last
 * iteration is exported after the loop, so its read must not be coalesced
 * with I (the bottom write follows it).
 */
static void build_loop(struct drv_ir *ir)
{
	uint32_t ri = drv_ir_new_reg(ir, 1), rs = drv_ir_new_reg(ir, 1);
	uint32_t id = drv_ir_op1(ir, DRV_OP_LOAD_SYSVAL, 1, 0, DRV_SV_VERTEX_ID, 0);
	uint32_t zero = drv_ir_const(ir, 1, 0), one = drv_ir_const(ir, 1, 1), seven = drv_ir_const(ir, 1, 7);
	uint32_t n = drv_ir_valu(ir, ISA_OP_V_REM_U32, 1, id, seven, 0), i, s, last_i;

	drv_ir_reg_write(ir, ri, zero);
	drv_ir_reg_write(ir, rs, zero);
	drv_ir_op0(ir, DRV_OP_LOOP, 0, 0, 0);
	i = drv_ir_reg_read(ir, ri);
	drv_ir_op0(ir, DRV_OP_IF, drv_ir_cmp(ir, ISA_OP_V_CMP_GE_U32, i, n), 0, 0);
	drv_ir_op0(ir, DRV_OP_BREAK, 0, 0, 0);
	drv_ir_op0(ir, DRV_OP_ENDIF, 0, 0, 0);
	s = drv_ir_reg_read(ir, rs);
	drv_ir_reg_write(ir, rs, drv_ir_valu(ir, ISA_OP_V_ADD_U32, 1, mov(ir, s), i, 0));
	drv_ir_op0(ir, DRV_OP_CONTINUE_POINT, 0, 0, 0);
	drv_ir_reg_write(ir, ri, drv_ir_valu(ir, ISA_OP_V_ADD_U32, 1, i, one, 0));
	drv_ir_op0(ir, DRV_OP_ENDLOOP, 0, 0, 0);
	last_i = mov(ir, i);
	export4(ir, drv_ir_reg_read(ir, rs), last_i, n, drv_ir_reg_read(ir, ri));
}

static uint32_t expect_loop(unsigned id, unsigned c)
{
	uint32_t n = id % 7;
	switch (c) {
	case 0: return n * (n - 1) / 2 * (n > 0);
	case 1: return n;
	case 2: return n;
	default: return n;
	}
}

static void test_opt_loop_carried_regs_and_early_exit(void)
{
	check_both(build_loop, expect_loop);
}

int main(void)
{
	XT_RUN(test_opt_straight_line_and_if_keep_every_value);
	XT_RUN(test_opt_loop_carried_regs_and_early_exit);
	XT_TEST_MAIN_END();
}
