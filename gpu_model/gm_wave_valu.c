/*
 * gm_wave_valu.c - vector ALU and vector compares of the wave interpreter
 * (docs/isa.md "Vector ALU").
 *
 * Uniform sources are 64-lane rows too, so every operation is a plain loop
 * over lanes with unit stride: constants were broadcast once when the
 * program was decoded (gm_dinst.crow), SGPRs are broadcast into scratch
 * rows per instruction.  Full-exec waves (the common case) take a loop
 * without a mask test that compilers vectorise; partial waves walk the set
 * bits.  Each lane reads all its inputs before writing, so a destination
 * may overlap its sources: such instructions compute into scratch rows
 * first (gm_dinst.dst_is_src); the others write the registers directly,
 * through restrict pointers the compiler can trust.
 *
 * Float arithmetic is the host's IEEE binary32/binary64 with
 * round-to-nearest-even and denormals kept.  The f32 transcendentals have
 * GFX8's semantics (docs/isa.md "Transcendentals"): v_sin / v_cos take
 * revolutions, not radians, with GFX8's input domain; their values, and
 * those of v_exp / v_log / v_rsq, are the exact function rounded once to
 * f32 (computed in binary64; see docs/isa.md "Precision").
 */
#include <math.h>
#include <string.h>

#include "gm_priv.h"

static inline float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t u32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double f64(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static inline uint64_t u64(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

#define LOOP(...)                                                              \
	do {                                                                   \
		if (exec == ~0ull) {                                           \
			for (unsigned l = 0; l < 64; l++) { __VA_ARGS__; }            \
		} else {                                                       \
			for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {           \
				unsigned l = (unsigned)__builtin_ctzll(m_);    \
				__VA_ARGS__;                                   \
			}                                                      \
		}                                                              \
	} while (0)

/* 64 bytes of 0 / 1 to a 64-bit lane mask (bit l = t[l]): eight bytes at a
 * time, gathered into the top byte by one multiplication. */
static uint64_t pack_bits(const uint8_t t[64])
{
	uint64_t r = 0;
	for (unsigned g = 0; g < 8; g++) {
		uint64_t x;
		memcpy(&x, t + 8 * g, 8);   /* little-endian: byte i = lane 8g + i */
		r |= ((x * 0x0102040810204080ull) >> 56) << (8 * g);
	}
	return r;
}

/* Lanes of exec from the result rows into the destination registers. */
static void commit(uint32_t *D, const uint32_t *R, uint64_t exec)
{
	if (exec == ~0ull) {
		memcpy(D, R, 64 * sizeof *D);
		return;
	}
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		D[l] = R[l];
	}
}

/* Source i (half 0 / 1) when it is not a VGPR: broadcast into a scratch row. */
static __attribute__((noinline)) const uint32_t *broadcast(struct gm_wave *w, const struct gm_dinst *d,
							   unsigned i, unsigned regs, unsigned half)
{
	uint32_t v = (uint32_t)(gm_wave_ssrc(w, d->i.src[i], regs, d->i.literal, d->f64src >> i & 1) >> (32 * half));
	uint32_t *row = w->bc[i * 2 + half];
	for (unsigned l = 0; l < 64; l++)
		row[l] = v;
	return row;
}

/* 64 lanes of the low (half 0) or high (half 1) dword of source i. */
static inline const uint32_t *lanes(struct gm_wave *w, const struct gm_dinst *d, unsigned i, unsigned regs,
				    unsigned half)
{
	unsigned o = d->i.src[i];

	if (isa_opd_is_vgpr(o))
		return w->v[o - ISA_OPD_VGPR0 + half];
	if (d->crow[i])
		return d->crow[i] + 64 * half;
	return broadcast(w, d, i, regs, half);
}

uint32_t gm_f32_to_f16(float f)
{
	uint32_t x = u32(f), sign = (x >> 16) & 0x8000, mant = x & 0x7FFFFF;
	int exp = (int)((x >> 23) & 0xFF);

	if (exp == 0xFF)
		return sign | 0x7C00 | (mant ? 0x200 | (mant >> 13) : 0);
	exp = exp - 127 + 15;
	if (exp >= 31)
		return sign | 0x7C00;
	if (exp <= 0) {
		uint32_t m, r, half;
		unsigned shift;
		if (exp < -10)
			return sign;
		m = mant | 0x800000;
		shift = (unsigned)(14 - exp);
		r = m >> shift;
		half = 1u << (shift - 1);
		if ((m & ((1u << shift) - 1)) > half || ((m & ((1u << shift) - 1)) == half && (r & 1)))
			r++;
		return sign | r;
	}
	{
		uint32_t r = sign | (uint32_t)exp << 10 | mant >> 13, rem = mant & 0x1FFF;
		if (rem > 0x1000 || (rem == 0x1000 && (r & 1)))
			r++;   /* may carry into the exponent, which is the right answer */
		return r;
	}
}

/* f32 to f16 rounding toward zero (v_cvt_pkrtz_f16_f32): finite values too
 * large become the largest f16, as RTZ does. */
static uint32_t f32_to_f16_rtz(float f)
{
	uint32_t x = u32(f), sign = (x >> 16) & 0x8000, mant = x & 0x7FFFFF;
	int exp = (int)((x >> 23) & 0xFF);

	if (exp == 0xFF)
		return sign | 0x7C00 | (mant ? 0x200 | (mant >> 13) : 0);
	exp = exp - 127 + 15;
	if (exp >= 31)
		return sign | 0x7BFF;
	if (exp <= 0)
		return exp < -10 ? sign : sign | (mant | 0x800000) >> (14 - exp);
	return sign | (uint32_t)exp << 10 | mant >> 13;
}

float gm_f16_to_f32(uint32_t h)
{
	uint32_t sign = (h & 0x8000) << 16, exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
	if (exp == 0)
		return (sign ? -1.0f : 1.0f) * ldexpf((float)mant, -24);
	if (exp == 31)
		return f32(sign | 0x7F800000 | mant << 13);
	return f32(sign | (exp + 112) << 23 | mant << 13);
}

static uint32_t cvt_i32(double x)
{
	if (isnan(x)) return 0;
	if (x >= 2147483647.0) return 0x7FFFFFFF;
	if (x <= -2147483648.0) return 0x80000000u;
	return (uint32_t)(int32_t)x;
}

static uint32_t cvt_u32(double x)
{
	if (isnan(x) || x <= 0) return 0;
	if (x >= 4294967295.0) return 0xFFFFFFFFu;
	return (uint32_t)x;
}

static uint32_t bfe(uint32_t v, uint32_t off, uint32_t width, bool sign)
{
	off &= 31;
	width &= 31;
	if (!width)
		return 0;
	v >>= off;
	if (off + width < 32)
		v &= (1u << width) - 1;
	if (sign && (v >> (width - 1) & 1) && width < 32)
		v |= ~((1u << width) - 1);
	return v;
}

static float fract32(float x)
{
	float r = x - floorf(x);
	return isinf(x) ? 0.0f * x : (r < 0x1.fffffep-1f ? r : 0x1.fffffep-1f);
}

/* v_sin_f32 / v_cos_f32: sin / cos of 2*pi*x for x in revolutions.
 * Assumption: as AMD's GCN3 ISA manual states for V_SIN_F32 / V_COS_F32,
 * the valid input is [-256, +256] and an input out of range gives 0.0;
 * infinities and NaNs give a NaN.  The quadrant is split off exactly
 * (x - q/4 is exact in binary64), so whole and quarter revolutions give
 * exact 0 and +-1. */
static float trig32(float x, bool cosine)
{
	double q, a, s, c, r;
	int quadrant;

	if (isnan(x) || isinf(x))
		return NAN;
	if (fabsf(x) > 256.0f)
		return 0.0f;
	q = rint((double)x * 4.0);
	a = ((double)x - q * 0.25) * (2.0 * M_PI);
	quadrant = (int)fmod(q, 4.0);
	if (quadrant < 0)
		quadrant += 4;
	if (cosine)
		quadrant = (quadrant + 1) & 3;
	s = sin(a);
	c = cos(a);
	r = quadrant == 0 ? s : quadrant == 1 ? c : quadrant == 2 ? -s : -c;
	return (float)r;
}

/* The sources of one VOP instruction: 64-lane rows (NULL if unused), the
 * negate masks and v_cndmask's lane mask. */
struct vsrc {
	const uint32_t *A, *AH, *B, *BH, *C, *CH;
	uint32_t n0, n1, n2;
	uint64_t mask;
};

/* Computes the lanes of exec into D / DH; false (nothing written) for an
 * opcode that is not a VOP.  `restrict`: D and DH are never
 * a source row (the caller passes scratch rows then), which is what lets
 * the compiler vectorise the lane loops. */
static bool valu_compute(const struct gm_dinst *d, uint64_t exec, const struct vsrc *s,
			 uint32_t *restrict D, uint32_t *restrict DH)
{
	const struct isa_inst *in = &d->i;
	const uint32_t *const A = s->A, *const AH = s->AH, *const B = s->B, *const BH = s->BH;
	const uint32_t *const C = s->C, *const CH = s->CH;
	const uint32_t n0 = s->n0, n1 = s->n1, n2 = s->n2;
#define FA f32(A[l] ^ n0)
#define FB f32(B[l] ^ n1)
#define FC f32(C[l] ^ n2)
#define DA f64(((uint64_t)(AH[l] ^ n0) << 32) | A[l])
#define DB f64(((uint64_t)(BH[l] ^ n1) << 32) | B[l])
#define DC f64(((uint64_t)(CH[l] ^ n2) << 32) | C[l])
#define UA (A[l] ^ n0)
#define UB (B[l] ^ n1)
#define UC (C[l] ^ n2)
#define PUT64(x) do { uint64_t r_ = (x); D[l] = (uint32_t)r_; DH[l] = (uint32_t)(r_ >> 32); } while (0)

	switch (in->op) {
	case ISA_OP_V_MOV_B32: LOOP(D[l] = UA); break;
	case ISA_OP_V_MOV_B64: LOOP(uint64_t t = (uint64_t)(AH[l] ^ n0) << 32 | A[l]; PUT64(t)); break;
	case ISA_OP_V_CNDMASK_B32: {
		const uint64_t mask = s->mask;
		LOOP(D[l] = (mask >> l & 1) ? UB : UA);
		break;
	}
	case ISA_OP_V_LANEID_U32: LOOP(D[l] = l); break;
	/* f32 */
	case ISA_OP_V_ADD_F32: LOOP(D[l] = u32(FA + FB)); break;
	case ISA_OP_V_SUB_F32: LOOP(D[l] = u32(FA - FB)); break;
	case ISA_OP_V_MUL_F32: LOOP(D[l] = u32(FA * FB)); break;
	case ISA_OP_V_DIV_F32: LOOP(D[l] = u32(FA / FB)); break;
	case ISA_OP_V_FMA_F32: LOOP(D[l] = u32(fmaf(FA, FB, FC))); break;
	case ISA_OP_V_MAD_F32: LOOP(float p = FA * FB; D[l] = u32(p + FC)); break;
	/* min / max: a vectorisable select, then libm's fminf / fmaxf for
	 * lanes with a NaN operand, whose result (which NaN, quieted or
	 * not) is libm's business.  Ordered operands: glibc's fminf / fmaxf
	 * are minss / maxss with src1 as the destination, so equal operands
	 * (+0 and -0) give src0, as the select below does. */
	case ISA_OP_V_MIN_F32: {
		unsigned nan = 0;
		LOOP(float a = FA; float b = FB; D[l] = u32(b < a ? b : a); nan |= (a != a) | (b != b));
		if (nan)
			LOOP(float a = FA; float b = FB; if (a != a || b != b) D[l] = u32(fminf(a, b)));
		break;
	}
	case ISA_OP_V_MAX_F32: {
		unsigned nan = 0;
		LOOP(float a = FA; float b = FB; D[l] = u32(b > a ? b : a); nan |= (a != a) | (b != b));
		if (nan)
			LOOP(float a = FA; float b = FB; if (a != a || b != b) D[l] = u32(fmaxf(a, b)));
		break;
	}
	case ISA_OP_V_RCP_F32: LOOP(D[l] = u32(1.0f / FA)); break;
	case ISA_OP_V_RSQ_F32: LOOP(D[l] = u32((float)(1.0 / sqrt((double)FA)))); break;
	case ISA_OP_V_SQRT_F32: LOOP(D[l] = u32(sqrtf(FA))); break;
	case ISA_OP_V_EXP_F32: LOOP(D[l] = u32((float)exp2((double)FA))); break;
	case ISA_OP_V_LOG_F32: LOOP(D[l] = u32((float)log2((double)FA))); break;
	case ISA_OP_V_SIN_F32: LOOP(D[l] = u32(trig32(FA, false))); break;
	case ISA_OP_V_COS_F32: LOOP(D[l] = u32(trig32(FA, true))); break;
	case ISA_OP_V_FLOOR_F32: LOOP(D[l] = u32(floorf(FA))); break;
	case ISA_OP_V_CEIL_F32: LOOP(D[l] = u32(ceilf(FA))); break;
	case ISA_OP_V_TRUNC_F32: LOOP(D[l] = u32(truncf(FA))); break;
	case ISA_OP_V_RNDNE_F32: LOOP(D[l] = u32(nearbyintf(FA))); break;
	case ISA_OP_V_FRACT_F32: LOOP(D[l] = u32(fract32(FA))); break;
	case ISA_OP_V_LDEXP_F32: LOOP(int e = (int32_t)B[l]; e = e > 300 ? 300 : e < -300 ? -300 : e;
				      D[l] = u32(ldexpf(FA, e))); break;
	case ISA_OP_V_FREXP_MANT_F32: LOOP(int e; float x = FA;
					  D[l] = u32(isfinite(x) ? frexpf(x, &e) : x)); break;
	case ISA_OP_V_FREXP_EXP_I32_F32: LOOP(int e = 0; float x = FA;
					     if (isfinite(x)) frexpf(x, &e); D[l] = (uint32_t)e); break;
	/* integer */
	case ISA_OP_V_ADD_U32: LOOP(D[l] = UA + UB); break;
	case ISA_OP_V_SUB_U32: LOOP(D[l] = UA - UB); break;
	case ISA_OP_V_MUL_LO_U32: LOOP(D[l] = UA * UB); break;
	case ISA_OP_V_MUL_HI_U32: LOOP(D[l] = (uint32_t)(((uint64_t)UA * UB) >> 32)); break;
	case ISA_OP_V_MUL_HI_I32: LOOP(D[l] = (uint32_t)(((int64_t)(int32_t)UA * (int32_t)UB) >> 32)); break;
	case ISA_OP_V_MAD_U32: LOOP(D[l] = UA * UB + UC); break;
	case ISA_OP_V_DIV_U32: LOOP(uint32_t b = UB; D[l] = b ? UA / b : 0xFFFFFFFFu); break;
	case ISA_OP_V_REM_U32: LOOP(uint32_t b = UB; D[l] = b ? UA % b : 0xFFFFFFFFu); break;
	case ISA_OP_V_DIV_I32: LOOP(int32_t a = (int32_t)UA, b = (int32_t)UB;
				   D[l] = !b ? 0xFFFFFFFFu : (a == INT32_MIN && b == -1) ? (uint32_t)a : (uint32_t)(a / b)); break;
	case ISA_OP_V_REM_I32: LOOP(int32_t a = (int32_t)UA, b = (int32_t)UB;
				   D[l] = !b ? 0xFFFFFFFFu : (b == -1) ? 0 : (uint32_t)(a % b)); break;
	case ISA_OP_V_MIN_I32: LOOP(int32_t a = (int32_t)UA, b = (int32_t)UB; D[l] = (uint32_t)(a < b ? a : b)); break;
	case ISA_OP_V_MAX_I32: LOOP(int32_t a = (int32_t)UA, b = (int32_t)UB; D[l] = (uint32_t)(a > b ? a : b)); break;
	case ISA_OP_V_MIN_U32: LOOP(uint32_t a = UA, b = UB; D[l] = a < b ? a : b); break;
	case ISA_OP_V_MAX_U32: LOOP(uint32_t a = UA, b = UB; D[l] = a > b ? a : b); break;
	case ISA_OP_V_AND_B32: LOOP(D[l] = UA & UB); break;
	case ISA_OP_V_OR_B32: LOOP(D[l] = UA | UB); break;
	case ISA_OP_V_XOR_B32: LOOP(D[l] = UA ^ UB); break;
	case ISA_OP_V_NOT_B32: LOOP(D[l] = ~UA); break;
	case ISA_OP_V_LSHL_B32: LOOP(D[l] = UA << (UB & 31)); break;
	case ISA_OP_V_LSHR_B32: LOOP(D[l] = UA >> (UB & 31)); break;
	case ISA_OP_V_ASHR_I32: LOOP(D[l] = (uint32_t)((int32_t)UA >> (UB & 31))); break;
	case ISA_OP_V_BFE_U32: LOOP(D[l] = bfe(UA, UB, UC, false)); break;
	case ISA_OP_V_BFE_I32: LOOP(D[l] = bfe(UA, UB, UC, true)); break;
	case ISA_OP_V_BFI_B32: LOOP(uint32_t m = UA; D[l] = (m & UB) | (~m & UC)); break;
	case ISA_OP_V_BFREV_B32: LOOP(uint32_t x = UA, r = 0; for (int k = 0; k < 32; k++) r |= ((x >> k) & 1u) << (31 - k); D[l] = r); break;
	case ISA_OP_V_BCNT_U32: LOOP(D[l] = (uint32_t)__builtin_popcount(UA)); break;
	case ISA_OP_V_FINDLSB_B32: LOOP(uint32_t x = UA; D[l] = x ? (uint32_t)__builtin_ctz(x) : 0xFFFFFFFFu); break;
	case ISA_OP_V_FINDMSB_U32: LOOP(uint32_t x = UA; D[l] = x ? 31u - (uint32_t)__builtin_clz(x) : 0xFFFFFFFFu); break;
	case ISA_OP_V_FINDMSB_I32: LOOP(uint32_t x = UA; if ((int32_t)x < 0) x = ~x;
				       D[l] = x ? 31u - (uint32_t)__builtin_clz(x) : 0xFFFFFFFFu); break;
	/* conversions */
	case ISA_OP_V_CVT_F32_I32: LOOP(D[l] = u32((float)(int32_t)UA)); break;
	case ISA_OP_V_CVT_F32_U32: LOOP(D[l] = u32((float)UA)); break;
	case ISA_OP_V_CVT_I32_F32: LOOP(D[l] = cvt_i32(FA)); break;
	case ISA_OP_V_CVT_U32_F32: LOOP(D[l] = cvt_u32(FA)); break;
	case ISA_OP_V_CVT_F16_F32: LOOP(D[l] = gm_f32_to_f16(FA)); break;
	case ISA_OP_V_CVT_F32_F16: LOOP(D[l] = u32(gm_f16_to_f32(UA & 0xFFFF))); break;
	case ISA_OP_V_CVT_PKRTZ_F16_F32: LOOP(D[l] = f32_to_f16_rtz(FA) | f32_to_f16_rtz(FB) << 16); break;
	case ISA_OP_V_CVT_F64_F32: LOOP(PUT64(u64((double)FA))); break;
	case ISA_OP_V_CVT_F32_F64: LOOP(D[l] = u32((float)DA)); break;
	case ISA_OP_V_CVT_F64_I32: LOOP(PUT64(u64((double)(int32_t)UA))); break;
	case ISA_OP_V_CVT_F64_U32: LOOP(PUT64(u64((double)UA))); break;
	case ISA_OP_V_CVT_I32_F64: LOOP(D[l] = cvt_i32(DA)); break;
	case ISA_OP_V_CVT_U32_F64: LOOP(D[l] = cvt_u32(DA)); break;
	/* f64 */
	case ISA_OP_V_ADD_F64: LOOP(PUT64(u64(DA + DB))); break;
	case ISA_OP_V_MUL_F64: LOOP(PUT64(u64(DA * DB))); break;
	case ISA_OP_V_DIV_F64: LOOP(PUT64(u64(DA / DB))); break;
	case ISA_OP_V_FMA_F64: LOOP(PUT64(u64(fma(DA, DB, DC)))); break;
	case ISA_OP_V_MIN_F64: LOOP(PUT64(u64(fmin(DA, DB)))); break;
	case ISA_OP_V_MAX_F64: LOOP(PUT64(u64(fmax(DA, DB)))); break;
	case ISA_OP_V_RCP_F64: LOOP(PUT64(u64(1.0 / DA))); break;
	case ISA_OP_V_RSQ_F64: LOOP(PUT64(u64(1.0 / sqrt(DA)))); break;
	case ISA_OP_V_SQRT_F64: LOOP(PUT64(u64(sqrt(DA)))); break;
	case ISA_OP_V_FLOOR_F64: LOOP(PUT64(u64(floor(DA)))); break;
	case ISA_OP_V_TRUNC_F64: LOOP(PUT64(u64(trunc(DA)))); break;
	case ISA_OP_V_FRACT_F64: LOOP(double x = DA; double r = x - floor(x);
				     r = isinf(x) ? 0.0 * x : (r < 0x1.fffffffffffffp-1 ? r : 0x1.fffffffffffffp-1);
				     PUT64(u64(r))); break;
	default:
		return false;  /* not a VOP the decoder lets through */
	}
	if (in->flags & ISA_FLAG_CLAMP) {
		if (d->fres == 1)
			LOOP(float x = f32(D[l]); D[l] = u32(x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f));
		else if (d->fres == 2)
			LOOP(double x = f64((uint64_t)DH[l] << 32 | D[l]);
			     PUT64(u64(x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0)));
	}
	return true;
}

void gm_wave_exec_valu(struct gm_wave *w, const struct gm_dinst *d)
{
	const struct isa_inst *in = &d->i;
	const struct isa_op_info *info = &isa_ops[in->op];
	const uint64_t exec = gm_wave_exec(w);
	const unsigned dr = in->dst - ISA_OPD_VGPR0;
	uint32_t *D = w->v[dr], *DH = info->dst_regs == 2 ? w->v[dr + 1] : NULL;
	struct vsrc s = { 0 };
	/* scratch result rows when the destination is also a source */
	uint32_t R[64], RH[64];

	s.n0 = (in->flags & ISA_FLAG_NEG0) ? 0x80000000u : 0;
	s.n1 = (in->flags & ISA_FLAG_NEG1) ? 0x80000000u : 0;
	s.n2 = (in->flags & ISA_FLAG_NEG2) ? 0x80000000u : 0;
	if (info->src_regs[0]) {
		s.A = lanes(w, d, 0, info->src_regs[0], 0);
		if (info->src_regs[0] == 2) s.AH = lanes(w, d, 0, 2, 1);
	}
	if (info->src_regs[1]) {
		s.B = lanes(w, d, 1, info->src_regs[1], 0);
		if (info->src_regs[1] == 2) s.BH = lanes(w, d, 1, 2, 1);
	}
	if (in->op == ISA_OP_V_CNDMASK_B32) {
		s.mask = gm_wave_ssrc(w, in->src[2], 2, in->literal, false);
	} else if (info->src_regs[2]) {
		s.C = lanes(w, d, 2, info->src_regs[2], 0);
		if (info->src_regs[2] == 2) s.CH = lanes(w, d, 2, 2, 1);
	}
	if (!d->dst_is_src) {
		valu_compute(d, exec, &s, D, DH ? DH : RH);
		return;
	}
	if (!valu_compute(d, exec, &s, R, RH))
		return;
	commit(D, R, exec);
	if (DH)
		commit(DH, RH, exec);
}

void gm_wave_exec_vopc(struct gm_wave *w, const struct gm_dinst *d)
{
	const struct isa_inst *in = &d->i;
	const struct isa_op_info *info = &isa_ops[in->op];
	const uint64_t exec = gm_wave_exec(w);
	const uint32_t n0 = (in->flags & ISA_FLAG_NEG0) ? 0x80000000u : 0;
	const uint32_t n1 = (in->flags & ISA_FLAG_NEG1) ? 0x80000000u : 0;
	const uint32_t *A = lanes(w, d, 0, info->src_regs[0], 0), *B = lanes(w, d, 1, info->src_regs[1], 0);
	const uint32_t *AH = info->src_regs[0] == 2 ? lanes(w, d, 0, 2, 1) : NULL;
	const uint32_t *BH = info->src_regs[1] == 2 ? lanes(w, d, 1, 2, 1) : NULL;
	uint64_t r = 0;

#define CMP(cond)                                                              \
	do {                                                                   \
		if (exec == ~0ull) {                                           \
			uint8_t t_[64];                                        \
			for (unsigned l = 0; l < 64; l++)                      \
				t_[l] = (cond);                                \
			r = pack_bits(t_);                                     \
		} else {                                                       \
			LOOP(if (cond) r |= 1ull << l);                        \
		}                                                              \
	} while (0)
	switch (in->op) {
	case ISA_OP_V_CMP_EQ_F32: CMP(FA == FB); break;
	case ISA_OP_V_CMP_NE_F32: CMP(FA != FB); break;
	case ISA_OP_V_CMP_LT_F32: CMP(FA < FB); break;
	case ISA_OP_V_CMP_LE_F32: CMP(FA <= FB); break;
	case ISA_OP_V_CMP_GT_F32: CMP(FA > FB); break;
	case ISA_OP_V_CMP_GE_F32: CMP(FA >= FB); break;
	case ISA_OP_V_CMP_U_F32: CMP(isnan(FA) || isnan(FB)); break;
	case ISA_OP_V_CMP_EQ_I32: CMP(UA == UB); break;
	case ISA_OP_V_CMP_NE_I32: CMP(UA != UB); break;
	case ISA_OP_V_CMP_LT_I32: CMP((int32_t)UA < (int32_t)UB); break;
	case ISA_OP_V_CMP_LE_I32: CMP((int32_t)UA <= (int32_t)UB); break;
	case ISA_OP_V_CMP_GT_I32: CMP((int32_t)UA > (int32_t)UB); break;
	case ISA_OP_V_CMP_GE_I32: CMP((int32_t)UA >= (int32_t)UB); break;
	case ISA_OP_V_CMP_LT_U32: CMP(UA < UB); break;
	case ISA_OP_V_CMP_LE_U32: CMP(UA <= UB); break;
	case ISA_OP_V_CMP_GT_U32: CMP(UA > UB); break;
	case ISA_OP_V_CMP_GE_U32: CMP(UA >= UB); break;
	case ISA_OP_V_CMP_EQ_F64: CMP(DA == DB); break;
	case ISA_OP_V_CMP_NE_F64: CMP(DA != DB); break;
	case ISA_OP_V_CMP_LT_F64: CMP(DA < DB); break;
	case ISA_OP_V_CMP_LE_F64: CMP(DA <= DB); break;
	case ISA_OP_V_CMP_GT_F64: CMP(DA > DB); break;
	case ISA_OP_V_CMP_GE_F64: CMP(DA >= DB); break;
	default: break;
	}
	w->s[in->dst] = (uint32_t)r;
	w->s[in->dst + 1] = (uint32_t)(r >> 32);
}
