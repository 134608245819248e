/*
 * drv_spirv_alu.c - SPIR-V arithmetic and GLSL.std.450 extended instructions
 * to driver IR, selected slot by slot to gpu_model opcodes
 * (drv_spirv_to_ir_int.h).
 */
#include "drv_spirv_to_ir_int.h"

/* --- arithmetic ------------------------------------------------------------------ */

static uint32_t smod(struct ctx *c, uint32_t a, uint32_t b)
{
	uint32_t r = V2(c, ISA_OP_V_REM_I32, a, b);
	uint32_t fix = V2(c, ISA_OP_V_AND_B32, icmp(c, ISA_OP_V_CMP_LT_I32, V2(c, ISA_OP_V_XOR_B32, r, b), K(c, 0)),
			  icmp(c, ISA_OP_V_CMP_NE_I32, r, K(c, 0)));
	return sel(c, fix, V2(c, ISA_OP_V_ADD_U32, r, b), r);
}

uint32_t drv_sx_binop(struct ctx *c, uint16_t op, uint32_t a, uint32_t b)
{
	switch (op) {
	case SpvOpFAdd: return fadd_(c, a, b);
	case SpvOpFSub: return fsub_(c, a, b);
	case SpvOpFMul: case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar: return fmul_(c, a, b);
	case SpvOpFDiv: return fdiv_(c, a, b);
	case SpvOpFRem: return fsub_(c, a, fmul_(c, b, ftrunc_(c, fdiv_(c, a, b))));
	case SpvOpFMod: return fsub_(c, a, fmul_(c, b, ffloor_(c, fdiv_(c, a, b))));
	case SpvOpIAdd: return V2(c, ISA_OP_V_ADD_U32, a, b);
	case SpvOpISub: return V2(c, ISA_OP_V_SUB_U32, a, b);
	case SpvOpIMul: return V2(c, ISA_OP_V_MUL_LO_U32, a, b);
	case SpvOpUDiv: return V2(c, ISA_OP_V_DIV_U32, a, b);
	case SpvOpSDiv: return V2(c, ISA_OP_V_DIV_I32, a, b);
	case SpvOpUMod: return V2(c, ISA_OP_V_REM_U32, a, b);
	case SpvOpSRem: return V2(c, ISA_OP_V_REM_I32, a, b);
	case SpvOpSMod: return smod(c, a, b);
	case SpvOpShiftLeftLogical: return V2(c, ISA_OP_V_LSHL_B32, a, b);
	case SpvOpShiftRightLogical: return V2(c, ISA_OP_V_LSHR_B32, a, b);
	case SpvOpShiftRightArithmetic: return V2(c, ISA_OP_V_ASHR_I32, a, b);
	case SpvOpBitwiseAnd: case SpvOpLogicalAnd: return V2(c, ISA_OP_V_AND_B32, a, b);
	case SpvOpBitwiseOr: case SpvOpLogicalOr: return V2(c, ISA_OP_V_OR_B32, a, b);
	case SpvOpBitwiseXor: case SpvOpLogicalNotEqual: return V2(c, ISA_OP_V_XOR_B32, a, b);
	case SpvOpLogicalEqual: case SpvOpIEqual: return icmp(c, ISA_OP_V_CMP_EQ_I32, a, b);
	case SpvOpINotEqual: return icmp(c, ISA_OP_V_CMP_NE_I32, a, b);
	case SpvOpUGreaterThan: return icmp(c, ISA_OP_V_CMP_GT_U32, a, b);
	case SpvOpSGreaterThan: return icmp(c, ISA_OP_V_CMP_GT_I32, a, b);
	case SpvOpUGreaterThanEqual: return icmp(c, ISA_OP_V_CMP_GE_U32, a, b);
	case SpvOpSGreaterThanEqual: return icmp(c, ISA_OP_V_CMP_GE_I32, a, b);
	case SpvOpULessThan: return icmp(c, ISA_OP_V_CMP_LT_U32, a, b);
	case SpvOpSLessThan: return icmp(c, ISA_OP_V_CMP_LT_I32, a, b);
	case SpvOpULessThanEqual: return icmp(c, ISA_OP_V_CMP_LE_U32, a, b);
	case SpvOpSLessThanEqual: return icmp(c, ISA_OP_V_CMP_LE_I32, a, b);
	case SpvOpFOrdEqual: return fcmp(c, C_EQ, a, b);
	case SpvOpFUnordNotEqual: return fcmp(c, C_NE, a, b);
	case SpvOpFOrdLessThan: return fcmp(c, C_LT, a, b);
	case SpvOpFOrdGreaterThan: return fcmp(c, C_GT, a, b);
	case SpvOpFOrdLessThanEqual: return fcmp(c, C_LE, a, b);
	case SpvOpFOrdGreaterThanEqual: return fcmp(c, C_GE, a, b);
	case SpvOpFOrdNotEqual: return V2(c, ISA_OP_V_OR_B32, fcmp(c, C_LT, a, b), fcmp(c, C_GT, a, b));
	case SpvOpFUnordEqual: return bnot(c, V2(c, ISA_OP_V_OR_B32, fcmp(c, C_LT, a, b), fcmp(c, C_GT, a, b)));
	case SpvOpFUnordLessThan: return bnot(c, fcmp(c, C_GE, a, b));
	case SpvOpFUnordGreaterThan: return bnot(c, fcmp(c, C_LE, a, b));
	case SpvOpFUnordLessThanEqual: return bnot(c, fcmp(c, C_GT, a, b));
	case SpvOpFUnordGreaterThanEqual: return bnot(c, fcmp(c, C_LT, a, b));
	default: return 0;
	}
}

uint32_t drv_sx_unop(struct ctx *c, uint16_t op, uint32_t a, uint32_t src_t, uint32_t dst_t)
{
	const struct drv_sid *ds = drv_stype(c->m, drv_stype_slot_scalar(c->m, dst_t, 0));
	const struct drv_sid *ss = drv_stype(c->m, drv_stype_slot_scalar(c->m, src_t, 0));
	bool d64 = ds && ds->width == 64;
	switch (op) {
	case SpvOpFNegate: return fneg_(c, a);
	case SpvOpSNegate: return V2(c, ISA_OP_V_SUB_U32, K(c, 0), a);
	case SpvOpNot: return V1(c, ISA_OP_V_NOT_B32, a);
	case SpvOpLogicalNot: return bnot(c, a);
	case SpvOpBitReverse: return V1(c, ISA_OP_V_BFREV_B32, a);
	case SpvOpBitCount: return V1(c, ISA_OP_V_BCNT_U32, a);
	case SpvOpConvertFToS: return V1(c, is64(c, a) ? ISA_OP_V_CVT_I32_F64 : ISA_OP_V_CVT_I32_F32, a);
	case SpvOpConvertFToU: return V1(c, is64(c, a) ? ISA_OP_V_CVT_U32_F64 : ISA_OP_V_CVT_U32_F32, a);
	case SpvOpConvertSToF: return V1(c, d64 ? ISA_OP_V_CVT_F64_I32 : ISA_OP_V_CVT_F32_I32, a);
	case SpvOpConvertUToF: return V1(c, d64 ? ISA_OP_V_CVT_F64_U32 : ISA_OP_V_CVT_F32_U32, a);
	case SpvOpFConvert:
		if (d64 == is64(c, a))
			return a;
		return V1(c, d64 ? ISA_OP_V_CVT_F64_F32 : ISA_OP_V_CVT_F32_F64, a);
	case SpvOpUConvert: case SpvOpSConvert: case SpvOpCopyObject: return a;
	case SpvOpIsNan: return is64(c, a) ? fcmp(c, C_NE, a, a) : icmp(c, ISA_OP_V_CMP_U_F32, a, a);
	case SpvOpIsInf: return fcmp(c, C_EQ, fabs_(c, a), FK(c, a, INFINITY));
	default:
		(void)ss;
		return 0;
	}
}

/* --- GLSL.std.450 ------------------------------------------------------------------ */

/*
 * Transcendentals as radeonsi computes them on GFX8 (Mesa 22.3, the Mesa of
 * the Debian this project captures on): the GLSL front end and NIR lower
 * atan, atan2, asin, acos and tan to arithmetic, radeonsi's NIR options
 * lower every division to a multiplication by v_rcp_f32 (lower_fdiv) and
 * keep f32 multiply-adds unfused (lower_ffma32 below GFX10.3), and sin /
 * cos become v_sin_f32 / v_cos_f32 of fract(x / 2pi) (GFX8's v_sin takes
 * revolutions in [-256, 256]; ACO and the LLVM path emit the same three
 * instructions).  The polynomials and the order of their operations are
 * NIR's (nir_builtin_builder.c: nir_atan, nir_atan2) and the GLSL
 * builtins' (asin_expr); the results are then the ones a GFX8 GPU gives, up
 * to the last-bit behaviour of its transcendental units (gpu_model
 * rounds the exact function once, docs/isa.md "Transcendentals").
 * General GLSL division (fdiv_) is still IEEE division: docs/status.md.
 */
static uint32_t frcp_(struct ctx *c, uint32_t a) { return V1(c, ISA_OP_V_RCP_F32, a); }
static uint32_t fdiv_rcp_(struct ctx *c, uint32_t a, uint32_t b) { return fmul_(c, a, frcp_(c, b)); }
static uint32_t kf(struct ctx *c, float f) { return K(c, fbits(f)); }
static uint32_t b2f_(struct ctx *c, uint32_t cond) { return sel(c, cond, kf(c, 1.0f), kf(c, 0.0f)); }

static uint32_t fsign_(struct ctx *c, uint32_t a);

/* nir_atan(y_over_x) */
static uint32_t f32_atan(struct ctx *c, uint32_t y_over_x)
{
	static const float k[] = { 0.9999793128310355f, -0.3326756418091246f, 0.1938924977115610f,
				   -0.1173503194786851f, 0.0536813784310406f, -0.0121323213173444f };
	uint32_t abs = fabs_(c, y_over_x), one = kf(c, 1.0f);
	uint32_t x = fdiv_rcp_(c, fmin_(c, abs, one), fmax_(c, abs, one));
	uint32_t x2 = fmul_(c, x, x), pw = x, sum = 0;

	/* x * k0 + x^3 * k1 + ... + x^11 * k5, summed left to right */
	for (unsigned i = 0; i < 6; i++) {
		uint32_t term;
		if (i)
			pw = i == 1 ? fmul_(c, x2, x) : fmul_(c, pw, x2);
		term = fmul_(c, pw, kf(c, k[i]));
		sum = i ? fadd_(c, sum, term) : term;
	}
	/* range-reduction fixup: + (1 < |y_over_x|) * (pi/2 - 2 * sum) */
	sum = fadd_(c, sum, fmul_(c, b2f_(c, fcmp(c, C_LT, one, abs)),
				  fadd_(c, fmul_(c, sum, kf(c, -2.0f)), kf(c, (float)M_PI_2))));
	return fmul_(c, sum, fsign_(c, y_over_x));
}

/* nir_atan2(y, x) */
static uint32_t f32_atan2(struct ctx *c, uint32_t y, uint32_t x)
{
	uint32_t zero = kf(c, 0.0f), one = kf(c, 1.0f);
	uint32_t flip = fcmp(c, C_GE, zero, x);
	uint32_t s = sel(c, flip, fabs_(c, x), y), t = sel(c, flip, y, fabs_(c, x));
	uint32_t scale = sel(c, fcmp(c, C_GE, fabs_(c, t), kf(c, 1e18f)), kf(c, 0.25f), one);
	uint32_t rcp_scaled_t = frcp_(c, fmul_(c, t, scale));
	uint32_t s_over_t = fmul_(c, fmul_(c, s, scale), rcp_scaled_t);
	uint32_t tan = sel(c, fcmp(c, C_EQ, fabs_(c, x), fabs_(c, y)), one, fabs_(c, s_over_t));
	uint32_t arc = fadd_(c, fmul_(c, b2f_(c, flip), kf(c, (float)M_PI_2)), f32_atan(c, tan));
	return sel(c, fcmp(c, C_LT, fmin_(c, y, rcp_scaled_t), zero), fneg_(c, arc), arc);
}

/* asin_expr(x, p0, p1): sign(x) * (pi/2 - sqrt(1 - |x|) *
 * (pi/2 + |x| * ((pi/4 - 1) + |x| * (p0 + |x| * p1)))) */
static uint32_t f32_asin_expr(struct ctx *c, uint32_t x, float p0, float p1)
{
	uint32_t ax = fabs_(c, x), pi_2 = kf(c, (float)M_PI_2);
	uint32_t poly = fadd_(c, kf(c, p0), fmul_(c, ax, kf(c, p1)));
	poly = fadd_(c, kf(c, (float)M_PI_4 - 1.0f), fmul_(c, ax, poly));
	poly = fadd_(c, pi_2, fmul_(c, ax, poly));
	return fmul_(c, fsign_(c, x), fsub_(c, pi_2, fmul_(c, fsqrt_(c, fsub_(c, kf(c, 1.0f), ax)), poly)));
}

/* sin / cos: v_sin_f32 / v_cos_f32 of fract(x * 1/(2pi)) */
static uint32_t f32_trig(struct ctx *c, uint16_t op, uint32_t x)
{
	return V1(c, op, ffract_(c, fmul_(c, x, K(c, 0x3e22f983u))));
}

static uint32_t fsign_(struct ctx *c, uint32_t a)
{
	uint32_t one = FK(c, a, 1.0), mone = FK(c, a, -1.0), zero = FK(c, a, 0.0);
	return sel(c, fcmp(c, C_GT, a, zero), one, sel(c, fcmp(c, C_LT, a, FK(c, a, 0.0)), mone, zero));
}

static uint32_t fexp2_(struct ctx *c, uint32_t a) { return V1(c, ISA_OP_V_EXP_F32, a); }
static uint32_t flog2_(struct ctx *c, uint32_t a) { return V1(c, ISA_OP_V_LOG_F32, a); }
static uint32_t fexp_(struct ctx *c, uint32_t a) { return fexp2_(c, fmul_(c, a, K(c, fbits(1.44269504f)))); }

uint32_t drv_sx_dot(struct ctx *c, const uint32_t *a, const uint32_t *b, uint32_t n)
{
	uint32_t r = fmul_(c, a[0], b[0]);
	for (uint32_t i = 1; i < n; i++)
		r = fmad_(c, a[i], b[i], r);
	return r;
}

static uint32_t round_even_f64(struct ctx *c, uint32_t x)
{
	/* r = floor(x + 0.5); a tie that landed on an odd value goes down */
	uint32_t r = ffloor_(c, fadd_(c, x, FK(c, x, 0.5)));
	uint32_t tie = fcmp(c, C_EQ, fsub_(c, r, x), FK(c, x, 0.5));
	uint32_t half = fmul_(c, r, FK(c, x, 0.5));
	uint32_t odd = fcmp(c, C_NE, ffloor_(c, half), half);
	return sel(c, V2(c, ISA_OP_V_AND_B32, tie, odd), fsub_(c, r, FK(c, x, 1.0)), r);
}

bool drv_sx_ext_inst(struct ctx *c, const uint32_t *w, uint32_t n)
{
	uint32_t rt = w[1], slots = type_slots(c, rt), inst = w[4], *out;
	struct opnd a[3] = { { 0 } };
	unsigned na = n - 5u;
	bool ok = true;

	if (w[3] != c->m->glsl_ext)
		return FAIL(c, XT_ERR_UNSUPPORTED, "extended instruction set %%%u is not supported by the driver", w[3]);
	if (na > 3)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: GLSL.std.450 instruction with %u operands", na);
	for (unsigned i = 0; i < na; i++)
		if (!get(c, w[5 + i], &a[i])) {
			for (unsigned j = 0; j < i; j++)
				put(&a[j]);
			return false;
		}
	out = calloc(slots ? slots : 1, sizeof *out);
	if (!out) {
		for (unsigned i = 0; i < na; i++)
			put(&a[i]);
		return FAIL(c, XT_ERR_NOMEM, "out of memory");
	}
#define A(i, j) (a[i].v[a[i].n == 1 ? 0 : (j)])
	switch (inst) {
	case GLSLstd450Length:
		out[0] = fsqrt_(c, drv_sx_dot(c, a[0].v, a[0].v, a[0].n));
		break;
	case GLSLstd450Distance: {
		uint32_t d[4];
		for (uint32_t j = 0; j < a[0].n && j < 4; j++)
			d[j] = fsub_(c, a[0].v[j], a[1].v[j]);
		out[0] = fsqrt_(c, drv_sx_dot(c, d, d, a[0].n));
		break;
	}
	case GLSLstd450Normalize: {
		uint32_t inv = frsq_(c, drv_sx_dot(c, a[0].v, a[0].v, a[0].n));
		for (uint32_t j = 0; j < slots; j++)
			out[j] = fmul_(c, a[0].v[j], inv);
		break;
	}
	case GLSLstd450Cross:
		for (uint32_t j = 0; j < 3; j++) {
			uint32_t p = (j + 1) % 3, q = (j + 2) % 3;
			out[j] = fsub_(c, fmul_(c, a[0].v[p], a[1].v[q]), fmul_(c, a[0].v[q], a[1].v[p]));
		}
		break;
	case GLSLstd450Reflect: {    /* I - 2 drv_sx_dot(N, I) N */
		uint32_t d2 = fmul_(c, FK(c, a[0].v[0], 2.0), drv_sx_dot(c, a[1].v, a[0].v, a[0].n));
		for (uint32_t j = 0; j < slots; j++)
			out[j] = fsub_(c, a[0].v[j], fmul_(c, d2, a[1].v[j]));
		break;
	}
	case GLSLstd450FaceForward: {  /* drv_sx_dot(Nref, I) < 0 ? N : -N */
		uint32_t neg = fcmp(c, C_LT, drv_sx_dot(c, a[2].v, a[1].v, a[1].n), FK(c, a[1].v[0], 0.0));
		for (uint32_t j = 0; j < slots; j++)
			out[j] = sel(c, neg, a[0].v[j], fneg_(c, a[0].v[j]));
		break;
	}
	case GLSLstd450Determinant: {
		uint32_t dim = 0;
		while (dim * dim < a[0].n)
			dim++;
#define M(col, row) a[0].v[(col) * dim + (row)]
		if (dim == 2) {
			out[0] = fsub_(c, fmul_(c, M(0, 0), M(1, 1)), fmul_(c, M(1, 0), M(0, 1)));
		} else if (dim == 3) {
			uint32_t c0 = fsub_(c, fmul_(c, M(1, 1), M(2, 2)), fmul_(c, M(2, 1), M(1, 2)));
			uint32_t c1 = fsub_(c, fmul_(c, M(1, 0), M(2, 2)), fmul_(c, M(2, 0), M(1, 2)));
			uint32_t c2 = fsub_(c, fmul_(c, M(1, 0), M(2, 1)), fmul_(c, M(2, 0), M(1, 1)));
			out[0] = fadd_(c, fsub_(c, fmul_(c, M(0, 0), c0), fmul_(c, M(0, 1), c1)), fmul_(c, M(0, 2), c2));
		} else {
			ok = FAIL(c, XT_ERR_UNSUPPORTED, "determinant() of a %ux%u matrix is not supported by the driver", dim, dim);
		}
#undef M
		break;
	}
	default:
		for (uint32_t j = 0; j < slots && ok; j++) {
			uint32_t x = na > 0 ? A(0, j) : 0, y = na > 1 ? A(1, j) : 0, z = na > 2 ? A(2, j) : 0, r = 0;
			bool f64 = x && is64(c, x);
			switch (inst) {
			case GLSLstd450Round: case GLSLstd450RoundEven:
				r = f64 ? round_even_f64(c, x) : V1(c, ISA_OP_V_RNDNE_F32, x); break;
			case GLSLstd450Trunc: r = ftrunc_(c, x); break;
			case GLSLstd450FAbs: r = fabs_(c, x); break;
			case GLSLstd450SAbs: r = V2(c, ISA_OP_V_MAX_I32, x, V2(c, ISA_OP_V_SUB_U32, K(c, 0), x)); break;
			case GLSLstd450FSign: r = fsign_(c, x); break;
			case GLSLstd450SSign: r = V2(c, ISA_OP_V_MIN_I32, V2(c, ISA_OP_V_MAX_I32, x, K(c, (uint32_t)-1)), K(c, 1)); break;
			case GLSLstd450Floor: r = ffloor_(c, x); break;
			case GLSLstd450Ceil: r = fceil_(c, x); break;
			case GLSLstd450Fract: r = ffract_(c, x); break;
			case GLSLstd450Radians: r = fmul_(c, x, FK(c, x, M_PI / 180.0)); break;
			case GLSLstd450Degrees: r = fmul_(c, x, FK(c, x, 180.0 / M_PI)); break;
			case GLSLstd450Sin: r = f32_trig(c, ISA_OP_V_SIN_F32, x); break;
			case GLSLstd450Cos: r = f32_trig(c, ISA_OP_V_COS_F32, x); break;
			case GLSLstd450Tan:
				r = fdiv_rcp_(c, f32_trig(c, ISA_OP_V_SIN_F32, x), f32_trig(c, ISA_OP_V_COS_F32, x));
				break;
			case GLSLstd450Atan: r = f32_atan(c, x); break;
			case GLSLstd450Atan2: r = f32_atan2(c, x, y); break;
			case GLSLstd450Asin: r = f32_asin_expr(c, x, 0.086566724f, -0.03102955f); break;
			case GLSLstd450Acos:
				r = fsub_(c, kf(c, (float)M_PI_2), f32_asin_expr(c, x, 0.08132463f, -0.02363318f));
				break;
			case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh: {
				uint32_t ep = fexp_(c, x), en = fexp_(c, fneg_(c, x));
				uint32_t s = fmul_(c, fsub_(c, ep, en), K(c, fbits(0.5f)));
				uint32_t co = fmul_(c, fadd_(c, ep, en), K(c, fbits(0.5f)));
				r = inst == GLSLstd450Sinh ? s : inst == GLSLstd450Cosh ? co : fdiv_(c, s, co);
				break;
			}
			case GLSLstd450Asinh:
				r = V1(c, ISA_OP_V_LOG_F32, fadd_(c, x, fsqrt_(c, fmad_(c, x, x, K(c, fbits(1.0f))))));
				r = fmul_(c, r, K(c, fbits(0.69314718f)));
				break;
			case GLSLstd450Acosh:
				r = V1(c, ISA_OP_V_LOG_F32, fadd_(c, x, fsqrt_(c, fmad_(c, x, x, K(c, fbits(-1.0f))))));
				r = fmul_(c, r, K(c, fbits(0.69314718f)));
				break;
			case GLSLstd450Atanh:
				r = fmul_(c, flog2_(c, fdiv_(c, fadd_(c, K(c, fbits(1.0f)), x), fsub_(c, K(c, fbits(1.0f)), x))),
					 K(c, fbits(0.34657359f)));
				break;
			case GLSLstd450Pow: r = fexp2_(c, fmul_(c, y, flog2_(c, x))); break;
			case GLSLstd450Exp: r = fexp_(c, x); break;
			case GLSLstd450Log: r = fmul_(c, flog2_(c, x), K(c, fbits(0.69314718f))); break;
			case GLSLstd450Exp2: r = fexp2_(c, x); break;
			case GLSLstd450Log2: r = flog2_(c, x); break;
			case GLSLstd450Sqrt: r = fsqrt_(c, x); break;
			case GLSLstd450InverseSqrt: r = frsq_(c, x); break;
			case GLSLstd450FMin: case GLSLstd450NMin: r = fmin_(c, x, y); break;
			case GLSLstd450FMax: case GLSLstd450NMax: r = fmax_(c, x, y); break;
			case GLSLstd450UMin: r = V2(c, ISA_OP_V_MIN_U32, x, y); break;
			case GLSLstd450UMax: r = V2(c, ISA_OP_V_MAX_U32, x, y); break;
			case GLSLstd450SMin: r = V2(c, ISA_OP_V_MIN_I32, x, y); break;
			case GLSLstd450SMax: r = V2(c, ISA_OP_V_MAX_I32, x, y); break;
			case GLSLstd450FClamp: case GLSLstd450NClamp: r = fmin_(c, fmax_(c, x, y), z); break;
			case GLSLstd450UClamp: r = V2(c, ISA_OP_V_MIN_U32, V2(c, ISA_OP_V_MAX_U32, x, y), z); break;
			case GLSLstd450SClamp: r = V2(c, ISA_OP_V_MIN_I32, V2(c, ISA_OP_V_MAX_I32, x, y), z); break;
			case GLSLstd450FMix: r = fmad_(c, fsub_(c, y, x), z, x); break;
			case GLSLstd450Step: r = sel(c, fcmp(c, C_LT, y, x), FK(c, y, 0.0), FK(c, y, 1.0)); break;
			case GLSLstd450SmoothStep: {
				uint32_t t = fdiv_(c, fsub_(c, z, x), fsub_(c, y, x));
				t = fmin_(c, fmax_(c, t, FK(c, t, 0.0)), FK(c, t, 1.0));
				r = fmul_(c, fmul_(c, t, t), fsub_(c, FK(c, t, 3.0), fmul_(c, FK(c, t, 2.0), t)));
				break;
			}
			case GLSLstd450Fma:
				r = f64 ? drv_ir_valu(c->ir, ISA_OP_V_FMA_F64, 2, x, y, z) : V3(c, ISA_OP_V_FMA_F32, x, y, z);
				break;
			case GLSLstd450Ldexp: r = V2(c, ISA_OP_V_LDEXP_F32, x, y); break;
			case GLSLstd450FindILsb: r = V1(c, ISA_OP_V_FINDLSB_B32, x); break;
			case GLSLstd450FindSMsb: r = V1(c, ISA_OP_V_FINDMSB_I32, x); break;
			case GLSLstd450FindUMsb: r = V1(c, ISA_OP_V_FINDMSB_U32, x); break;
			case GLSLstd450PackDouble2x32: r = pack(c, a[0].v[0], a[0].v[1]); break;
			case GLSLstd450UnpackDouble2x32: r = j ? hi(c, a[0].v[0]) : lo(c, a[0].v[0]); break;
			case GLSLstd450PackHalf2x16:
				r = V2(c, ISA_OP_V_OR_B32, V1(c, ISA_OP_V_CVT_F16_F32, a[0].v[0]),
				       V2(c, ISA_OP_V_LSHL_B32, V1(c, ISA_OP_V_CVT_F16_F32, a[0].v[1]), K(c, 16)));
				break;
			case GLSLstd450UnpackHalf2x16:
				r = V1(c, ISA_OP_V_CVT_F32_F16, j ? V2(c, ISA_OP_V_LSHR_B32, a[0].v[0], K(c, 16))
								: V2(c, ISA_OP_V_AND_B32, a[0].v[0], K(c, 0xFFFF)));
				break;
			default:
				ok = FAIL(c, XT_ERR_UNSUPPORTED, "GLSL.std.450 instruction %u is not supported by the driver", inst);
				break;
			}
			if (f64 && inst != GLSLstd450PackDouble2x32 && inst != GLSLstd450UnpackDouble2x32 &&
			    (inst == GLSLstd450Sin || inst == GLSLstd450Cos || inst == GLSLstd450Pow ||
			     inst == GLSLstd450Exp || inst == GLSLstd450Log || inst == GLSLstd450Exp2 ||
			     inst == GLSLstd450Log2 || inst == GLSLstd450Ldexp))
				ok = FAIL(c, XT_ERR_UNSUPPORTED, "GLSL.std.450 instruction %u on doubles is not supported by the driver", inst);
			out[j] = r;
		}
	}
#undef A
	if (ok)
		ok = def(c, w[2], rt, out, slots);
	free(out);
	for (unsigned i = 0; i < na; i++)
		put(&a[i]);
	return ok;
}
