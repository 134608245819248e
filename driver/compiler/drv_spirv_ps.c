/*
 * drv_spirv_ps.c - fragment-shader-only instructions to driver IR
 * (drv_spirv_to_ir_int.h): the derivatives dFdx / dFdy / fwidth, fine and
 * coarse (OpDPdx*, OpDPdy*, OpFwidth*), and discard (OpKill,
 * OpTerminateInvocation).
 *
 * A pixel shader's wave holds 2x2 quads, lanes 4k .. 4k+3 the pixels
 * (x, y), (x+1, y), (x, y+1), (x+1, y+1) (docs/isa.md "Pixel shaders").
 * A derivative is a difference of two lanes of the quad, each read with
 * v_mov_b32_qperm (DRV_OP_QPERM, GCN's DPP quad_perm as ACO / LLVM emit
 * it); the shader then runs its helper lanes (drv_ir.wqm, s_wqm_b64), so
 * that every lane of a partly covered quad holds the value:
 *   fine   dFdx = lane (1, 1, 3, 3) - lane (0, 0, 2, 2): each row its own,
 *          dFdy = lane (2, 3, 2, 3) - lane (0, 1, 0, 1): each column its own;
 *   coarse dFdx = lane 1 - lane 0, dFdy = lane 2 - lane 0, the whole quad;
 *   fwidth = |dFdx| + |dFdy| (GLSL 4.60 §8.14.1).
 * GLSL leaves the plain dFdx / dFdy / fwidth to the implementation ("either
 * fine or coarse"): the driver takes the fine ones, llvmpipe's choice, so a
 * replay of a capture made on llvmpipe compares (radeonsi takes coarse).
 * They are defined in fragment shaders only; elsewhere they are reported.
 *
 * Discard: the lanes leave the live mask (the exec the PS started with,
 * which the EPILOGUE restores for the exports, `done vm`: GCN's exact
 * mask) and the rest of main, as a return does (DRV_OP_RETURN a = 1); the
 * draw gets DB_SHADER_CONTROL.KILL_ENABLE (late Z: a discarded fragment
 * updates no depth, stencil or occlusion count).  GCN (ACO's WQM) keeps a
 * discarded lane running as a helper while its quad needs it for
 * derivatives; the driver ends it, so derivatives and implicit-LOD
 * lookups after a discard (or in a loop holding one) would read stale
 * lanes: those are reported rather than drawn differently.
 */
#include "drv_spirv_to_ir_int.h"

#define QUAD(a, b, c, d) ((a) | (b) << 2 | (c) << 4 | (d) << 6)

static uint32_t qperm(struct ctx *c, uint32_t v, unsigned lanes)
{
	return drv_ir_op1(c->ir, DRV_OP_QPERM, 1, v, lanes, 0);
}

/* d/dx (y = false) or d/dy of one float slot. */
static uint32_t deriv(struct ctx *c, uint32_t v, bool y, bool fine)
{
	unsigned to = fine ? (y ? QUAD(2, 3, 2, 3) : QUAD(1, 1, 3, 3)) : (y ? QUAD(2, 2, 2, 2) : QUAD(1, 1, 1, 1));
	unsigned from = fine ? (y ? QUAD(0, 1, 0, 1) : QUAD(0, 0, 2, 2)) : QUAD(0, 0, 0, 0);
	return V2(c, ISA_OP_V_SUB_F32, qperm(c, v, to), qperm(c, v, from));
}

bool drv_sx_derivative(struct ctx *c, uint16_t op, const uint32_t *w, uint32_t n)
{
	bool coarse = op == SpvOpDPdxCoarse || op == SpvOpDPdyCoarse || op == SpvOpFwidthCoarse;
	bool dx = op == SpvOpDPdx || op == SpvOpDPdxFine || op == SpvOpDPdxCoarse;
	bool dy = op == SpvOpDPdy || op == SpvOpDPdyFine || op == SpvOpDPdyCoarse;
	uint32_t out[4];
	struct opnd a;
	bool ok;

	if (n < 4)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: short derivative instruction");
	if (c->ir->stage != DRV_HW_PS)
		return FAIL(c, XT_ERR_UNSUPPORTED, "derivatives outside a fragment shader are not supported by the "
			    "driver");
	if (!get(c, w[3], &a))
		return false;
	if (a.n > 4 || a.n != type_slots(c, w[1]) || (a.n && is64(c, a.v[0]))) {
		put(&a);
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: a derivative of other than a 32-bit float scalar or vector");
	}
	if (!drv_sx_whole_quad(c, "derivatives")) {
		put(&a);
		return false;
	}
	for (uint32_t k = 0; k < a.n; k++) {
		if (dx || dy) {
			out[k] = deriv(c, a.v[k], dy, !coarse);
		} else {
			uint32_t ddx = deriv(c, a.v[k], false, !coarse), ddy = deriv(c, a.v[k], true, !coarse);
			out[k] = fadd_(c, fabs_(c, ddx), fabs_(c, ddy));
		}
	}
	ok = def(c, w[2], w[1], out, a.n);
	put(&a);
	return ok;
}

bool drv_sx_whole_quad(struct ctx *c, const char *what)
{
	if (c->ir->kills)
		return FAIL(c, XT_ERR_UNSUPPORTED, "%s after a discard are not supported by the driver", what);
	c->ir->wqm = true;
	return true;
}

bool drv_sx_kill(struct ctx *c)
{
	if (c->ir->stage != DRV_HW_PS)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: OpKill outside a fragment shader");
	for (unsigned d = 0; d < c->depth; d++)
		if (c->cs[d].loop && c->ir->wqm)
			return FAIL(c, XT_ERR_UNSUPPORTED, "a discard in a loop of a fragment shader using derivatives or "
				    "implicit-LOD texture lookups is not supported by the driver");
	drv_ir_op0(c->ir, DRV_OP_RETURN, 0, 1, 0);
	c->ir->has_return = true;
	c->ir->kills = true;
	return true;
}
