/*
 * gm_wave_mem.c - scalar and vector memory instructions of the wave
 * interpreter: buffer descriptors, addressing, bounds, typed vertex fetch
 * (docs/isa.md "Memory" and "Buffer descriptor").
 *
 * Out-of-bounds accesses (by the descriptor's NUM_RECORDS) are dropped
 * silently (loads give 0), as on GCN: that is defined behaviour, not a
 * fault.  A descriptor with DATA_FORMAT = INVALID makes every access a
 * no-op, which is what radeonsi's "On VI, the format must be non-INVALID,
 * otherwise the buffer will be considered not bound" comment describes.
 * An in-bounds access to unmapped memory is a fault (recorded once per
 * instruction, with the PC and the first bad address).
 *
 * Speed: most vector memory instructions (vertex fetch, streamout stores)
 * have every lane in bounds and inside one BO; vmem_fast checks that for
 * the whole wave with one BO lookup and then only copies, with the 32-bit
 * float / integer formats fetched without conversion.  Anything else takes
 * the lane-by-lane path, which defines the results.
 */
#include <math.h>
#include <string.h>

#include "gm_priv.h"

struct desc {
	uint64_t base;
	uint32_t stride;           /* bytes */
	uint32_t num_records;
	unsigned dst_sel[4];
	unsigned num_format, data_format;
};

/* The descriptor is SQ_BUF_RSRC_WORD0..3 of the register database. */
static void desc_read(const struct gm_wave *w, unsigned s, struct desc *d)
{
	uint32_t d1 = w->s[s + 1], d3 = w->s[s + 3];
	d->base = (uint64_t)SQ_BUF_RSRC_WORD0_BASE_ADDRESS_GET(w->s[s]) |
		  (uint64_t)SQ_BUF_RSRC_WORD1_BASE_ADDRESS_HI_GET(d1) << 32;
	d->stride = SQ_BUF_RSRC_WORD1_STRIDE_GET(d1);
	d->num_records = SQ_BUF_RSRC_WORD2_NUM_RECORDS_GET(w->s[s + 2]);
	d->dst_sel[0] = SQ_BUF_RSRC_WORD3_DST_SEL_X_GET(d3);
	d->dst_sel[1] = SQ_BUF_RSRC_WORD3_DST_SEL_Y_GET(d3);
	d->dst_sel[2] = SQ_BUF_RSRC_WORD3_DST_SEL_Z_GET(d3);
	d->dst_sel[3] = SQ_BUF_RSRC_WORD3_DST_SEL_W_GET(d3);
	d->num_format = SQ_BUF_RSRC_WORD3_NUM_FORMAT_GET(d3);
	d->data_format = SQ_BUF_RSRC_WORD3_DATA_FORMAT_GET(d3);
}

enum { DF_INVALID = V_BUF_DATA_FORMAT_INVALID, DF_8 = V_BUF_DATA_FORMAT_8,
       DF_16 = V_BUF_DATA_FORMAT_16, DF_8_8 = V_BUF_DATA_FORMAT_8_8, DF_32 = V_BUF_DATA_FORMAT_32,
       DF_16_16 = V_BUF_DATA_FORMAT_16_16, DF_2_10_10_10 = V_BUF_DATA_FORMAT_2_10_10_10,
       DF_8_8_8_8 = V_BUF_DATA_FORMAT_8_8_8_8, DF_32_32 = V_BUF_DATA_FORMAT_32_32,
       DF_16_16_16_16 = V_BUF_DATA_FORMAT_16_16_16_16, DF_32_32_32 = V_BUF_DATA_FORMAT_32_32_32,
       DF_32_32_32_32 = V_BUF_DATA_FORMAT_32_32_32_32 };
enum { NF_UNORM = V_BUF_NUM_FORMAT_UNORM, NF_SNORM = V_BUF_NUM_FORMAT_SNORM,
       NF_USCALED = V_BUF_NUM_FORMAT_USCALED, NF_SSCALED = V_BUF_NUM_FORMAT_SSCALED,
       NF_UINT = V_BUF_NUM_FORMAT_UINT, NF_SINT = V_BUF_NUM_FORMAT_SINT, NF_FLOAT = V_BUF_NUM_FORMAT_FLOAT };

static bool format_info(unsigned df, unsigned *chans, unsigned *bits)
{
	switch (df) {
	case DF_8: *chans = 1; *bits = 8; return true;
	case DF_16: *chans = 1; *bits = 16; return true;
	case DF_8_8: *chans = 2; *bits = 8; return true;
	case DF_32: *chans = 1; *bits = 32; return true;
	case DF_16_16: *chans = 2; *bits = 16; return true;
	case DF_2_10_10_10: *chans = 4; *bits = 0; return true;
	case DF_8_8_8_8: *chans = 4; *bits = 8; return true;
	case DF_32_32: *chans = 2; *bits = 32; return true;
	case DF_16_16_16_16: *chans = 4; *bits = 16; return true;
	case DF_32_32_32: *chans = 3; *bits = 32; return true;
	case DF_32_32_32_32: *chans = 4; *bits = 32; return true;
	}
	return false;
}

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static uint32_t convert(uint32_t raw, unsigned bits, unsigned nf)
{
	uint32_t max = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
	int32_t sv = bits == 32 ? (int32_t)raw : (int32_t)(raw << (32 - bits)) >> (32 - bits);

	switch (nf) {
	case NF_UNORM: return fbits((float)((double)raw / max));
	case NF_SNORM: {
		float f = (float)((double)sv / (double)(max >> 1));
		return fbits(f < -1.0f ? -1.0f : f);
	}
	case NF_USCALED: return fbits((float)raw);
	case NF_SSCALED: return fbits((float)sv);
	case NF_UINT: return raw;
	case NF_SINT: return (uint32_t)sv;
	case NF_FLOAT:
		if (bits == 32)
			return raw;
		if (bits == 16) {
			uint32_t e = (raw >> 10) & 0x1F, m = raw & 0x3FF, s = (raw & 0x8000) << 16;
			if (e == 0)
				return s | (fbits(ldexpf((float)m, -24)) & 0x7FFFFFFF);
			if (e == 31)
				return s | 0x7F800000 | m << 13;
			return s | (e + 112) << 23 | m << 13;
		}
		return fbits((float)raw);
	}
	return raw;
}

/* Fetches one element of format `d` at p into out[4] (after DST_SEL). */
static void fetch_format(const struct desc *d, const uint8_t *p, uint32_t out[4])
{
	unsigned chans = 0, bits = 0;
	uint32_t ch[4] = { 0, 0, 0, 0 };
	static const uint32_t one_f = 0x3f800000u;

	format_info(d->data_format, &chans, &bits);
	for (unsigned c = 0; c < chans; c++) {
		uint32_t raw = 0;
		unsigned cb = bits;
		if (!bits) {           /* 2_10_10_10: x in [9:0] ... w in [31:30] */
			uint32_t word;
			memcpy(&word, p, 4);
			cb = c < 3 ? 10 : 2;
			raw = (word >> (10 * c)) & ((1u << cb) - 1);
		} else {
			memcpy(&raw, p + c * (bits / 8), bits / 8);
		}
		ch[c] = convert(raw, cb, d->num_format);
	}
	for (unsigned c = 0; c < 4; c++) {
		unsigned sel = d->dst_sel[c];
		bool is_int = d->num_format == NF_UINT || d->num_format == NF_SINT;
		out[c] = sel >= V_SQ_SEL_X ? ch[sel - V_SQ_SEL_X] : sel == V_SQ_SEL_1 ? (is_int ? 1u : one_f) : 0;
	}
}

/* How a typed fetch turns the dwords of a 32-bit-per-channel format into
 * the destination: raw channels (FLOAT / UINT / SINT need no conversion),
 * then DST_SEL; the same result as fetch_format, per instruction once. */
struct raw_plan {
	unsigned chans;            /* dwords per element */
	int src[4];                /* per destination channel: source channel, or -1 */
	uint32_t konst[4];         /* value when src < 0 */
};

static bool raw_plan_make(const struct desc *d, struct raw_plan *rp)
{
	unsigned chans = 0, bits = 0;
	bool is_int = d->num_format == NF_UINT || d->num_format == NF_SINT;

	if (!format_info(d->data_format, &chans, &bits) || bits != 32 ||
	    (d->num_format != NF_FLOAT && !is_int))
		return false;
	rp->chans = chans;
	for (unsigned c = 0; c < 4; c++) {
		unsigned sel = d->dst_sel[c];
		rp->src[c] = -1;
		rp->konst[c] = 0;
		if (sel >= V_SQ_SEL_X && sel - V_SQ_SEL_X < chans)
			rp->src[c] = (int)(sel - V_SQ_SEL_X);
		else if (sel == V_SQ_SEL_1)
			rp->konst[c] = is_int ? 1u : 0x3f800000u;
	}
	return true;
}

/* Byte offsets (from the instruction's base address) of every lane's
 * element into rel[] for the lanes of exec, and whether all of those are in
 * bounds, the elements ending `imm_end` bytes after the lane's offset (raw
 * buffers: IMM12 + element size); [*lo, *hi] is the range of the offsets.
 * Full waves take loops without a mask test, which the compiler
 * vectorises. */
static bool lane_offsets(const struct gm_wave *w, const struct isa_inst *in, const struct desc *d,
			 uint64_t imm_end, uint64_t exec, uint64_t rel[64], uint64_t *lo, uint64_t *hi)
{
	const bool idxen = in->flags & ISA_FLAG_IDXEN, offen = in->flags & ISA_FLAG_OFFEN;
	const unsigned va_reg = in->src[0] - ISA_OPD_VGPR0;
	const uint32_t *vindex = idxen ? w->v[va_reg] : NULL;
	const uint32_t *voff = offen ? w->v[va_reg + (idxen ? 1 : 0)] : NULL;
	const uint64_t stride = d->stride;
	uint64_t mn = UINT64_MAX, mx = 0;
	unsigned bad = 0;

	if (exec == ~0ull && !vindex && voff && !stride) {   /* raw: byte offset per lane */
		/* in 32 bits, which vectorise: off + imm_end <= NUM_RECORDS */
		uint32_t limit = d->num_records >= imm_end ? (uint32_t)(d->num_records - imm_end) : 0;
		uint32_t mn32 = UINT32_MAX, mx32 = 0;
		bad = d->num_records < imm_end;
		for (unsigned l = 0; l < 64; l++) {
			uint32_t r = voff[l];
			rel[l] = r;
			bad |= r > limit;
			mn32 = r < mn32 ? r : mn32;
			mx32 = r > mx32 ? r : mx32;
		}
		mn = mn32;
		mx = mx32;
	} else if (exec == ~0ull && vindex && !voff && stride) {  /* typed: record index per lane */
		for (unsigned l = 0; l < 64; l++) {
			uint64_t r = (uint64_t)vindex[l] * stride;
			rel[l] = r;
			bad |= vindex[l] >= d->num_records;
			mn = r < mn ? r : mn;
			mx = r > mx ? r : mx;
		}
	} else {
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctzll(m);
			uint32_t index = vindex ? vindex[l] : 0;
			uint64_t off = voff ? voff[l] : 0, r = off + (uint64_t)index * stride;
			rel[l] = r;
			bad |= stride ? index >= d->num_records : off + imm_end > d->num_records;
			mn = r < mn ? r : mn;
			mx = r > mx ? r : mx;
		}
	}
	*lo = mn;
	*hi = mx;
	return !bad;
}

/*
 * The common case, fast: every lane of exec in bounds and inside one BO,
 * found by a single lookup of the lowest address.  Returns false (nothing
 * done) otherwise, and the caller takes the lane-by-lane path, which gives
 * the same results plus the out-of-bounds and fault handling.
 */
static bool vmem_fast(struct gm_wave *w, const struct gm_dinst *dd, const struct gm_wave_env *env,
		      const struct desc *d, uint32_t soffset, unsigned elem_bytes, uint64_t exec)
{
	const struct isa_inst *in = &dd->i;
	const unsigned vd = in->dst - ISA_OPD_VGPR0, n = isa_ops[in->op].dst_regs;
	uint64_t rel[64], lo, hi, left;
	struct raw_plan rp = { 0 };
	uint8_t *p0;

	if (d->data_format == DF_INVALID || !elem_bytes || !exec)
		return false;
	if (in->op >= ISA_OP_BUFFER_LOAD_FORMAT_X && in->op <= ISA_OP_BUFFER_LOAD_FORMAT_XYZW &&
	    !raw_plan_make(d, &rp))
		return false;
	if (!lane_offsets(w, in, d, (uint64_t)in->imm + elem_bytes, exec, rel, &lo, &hi))
		return false;
	p0 = gm_mem_span(env->mem, d->base + soffset + in->imm + lo, &left);
	if (!p0 || hi - lo > left || elem_bytes > left - (hi - lo))
		return false;
	for (unsigned l = 0; l < 64; l++)   /* p0 + rel[l]: lane l's element */
		rel[l] -= lo;

	switch (in->op) {
	case ISA_OP_BUFFER_STORE_DWORD: {
		const uint32_t *src = w->v[vd];
		if (exec == ~0ull) {
			for (unsigned l = 0; l < 64; l++)
				memcpy(p0 + rel[l], &src[l], 4);
			return true;
		}
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctzll(m);
			memcpy(p0 + rel[l], &src[l], 4);
		}
		return true;
	}
	case ISA_OP_BUFFER_STORE_DWORDX2: case ISA_OP_BUFFER_STORE_DWORDX3: case ISA_OP_BUFFER_STORE_DWORDX4:
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctzll(m);
			for (unsigned c = 0; c < n; c++)
				memcpy(p0 + rel[l] + 4 * c, &w->v[vd + c][l], 4);
		}
		return true;
	case ISA_OP_BUFFER_LOAD_FORMAT_X: case ISA_OP_BUFFER_LOAD_FORMAT_XY:
	case ISA_OP_BUFFER_LOAD_FORMAT_XYZ: case ISA_OP_BUFFER_LOAD_FORMAT_XYZW:
		/* channel by channel: rel[] already holds every lane's address,
		 * so a destination that is also the index register is fine */
		for (unsigned c = 0; c < n; c++) {
			uint32_t *dst = w->v[vd + c];
			const uint8_t *q = p0 + 4 * (rp.src[c] >= 0 ? rp.src[c] : 0);
			if (rp.src[c] < 0) {
				for (uint64_t m = exec; m; m &= m - 1)
					dst[__builtin_ctzll(m)] = rp.konst[c];
			} else if (exec == ~0ull) {
				for (unsigned l = 0; l < 64; l++)
					memcpy(&dst[l], q + rel[l], 4);
			} else {
				for (uint64_t m = exec; m; m &= m - 1) {
					unsigned l = (unsigned)__builtin_ctzll(m);
					memcpy(&dst[l], q + rel[l], 4);
				}
			}
		}
		return true;
	case ISA_OP_BUFFER_LOAD_DWORD: {
		uint32_t *dst = w->v[vd];
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctzll(m);
			memcpy(&dst[l], p0 + rel[l], 4);
		}
		return true;
	}
	case ISA_OP_BUFFER_LOAD_DWORDX2: case ISA_OP_BUFFER_LOAD_DWORDX3: case ISA_OP_BUFFER_LOAD_DWORDX4:
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctzll(m);
			for (unsigned c = 0; c < n; c++)
				memcpy(&w->v[vd + c][l], p0 + rel[l] + 4 * c, 4);
		}
		return true;
	default:                   /* atomics: lane by lane */
		return false;
	}
}

/*
 * `run` buffer_store_dword instructions through the same address operands
 * (gm_dinst.store_run: a vertex's streamout components) in one pass: lane
 * offsets, bounds and the BO are established once for all of them.  The
 * stores still happen instruction by instruction in program order, so
 * memory ends up as if they ran one after the other.  False (nothing done)
 * unless every store of every lane is in bounds and mapped.
 */
static bool store_run_fast(struct gm_wave *w, const struct gm_dinst *dd, const struct gm_wave_env *env,
			   const struct desc *d, uint32_t soffset, uint64_t exec, unsigned run)
{
	const struct isa_inst *in = &dd->i;
	uint64_t rel[64], lo, hi, left, imm_lo = UINT64_MAX, imm_hi = 0;
	uint8_t *p0;

	if (d->data_format == DF_INVALID || !exec || d->stride || (in->flags & ISA_FLAG_IDXEN) ||
	    !(in->flags & ISA_FLAG_OFFEN))
		return false;
	for (unsigned k = 0; k < run; k++) {
		uint64_t imm = dd[k].i.imm;
		imm_lo = imm < imm_lo ? imm : imm_lo;
		imm_hi = imm > imm_hi ? imm : imm_hi;
	}
	if (!lane_offsets(w, in, d, imm_hi + 4, exec, rel, &lo, &hi))
		return false;
	p0 = gm_mem_span(env->mem, d->base + soffset + imm_lo + lo, &left);
	if (!p0 || hi - lo > left || imm_hi - imm_lo + 4 > left - (hi - lo))
		return false;
	for (unsigned l = 0; l < 64; l++)
		rel[l] -= lo;
	for (unsigned k = 0; k < run; k++) {
		uint8_t *q = p0 + (dd[k].i.imm - imm_lo);   /* q + rel[l]: lane l's dword */
		const uint32_t *src = w->v[dd[k].i.dst - ISA_OPD_VGPR0];
		if (exec == ~0ull) {
			for (unsigned l = 0; l < 64; l++)
				memcpy(q + rel[l], &src[l], 4);
			continue;
		}
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctzll(m);
			memcpy(q + rel[l], &src[l], 4);
		}
	}
	return true;
}

/* What a buffer atomic leaves in memory over `old` with data `v` (and,
 * for cmpswap, the compare value `cmp`). */
static uint32_t atomic_result(unsigned op, uint32_t old, uint32_t v, uint32_t cmp)
{
	switch (op) {
	case ISA_OP_BUFFER_ATOMIC_ADD: return old + v;
	case ISA_OP_BUFFER_ATOMIC_SUB: return old - v;
	case ISA_OP_BUFFER_ATOMIC_SMIN: return (int32_t)v < (int32_t)old ? v : old;
	case ISA_OP_BUFFER_ATOMIC_UMIN: return v < old ? v : old;
	case ISA_OP_BUFFER_ATOMIC_SMAX: return (int32_t)v > (int32_t)old ? v : old;
	case ISA_OP_BUFFER_ATOMIC_UMAX: return v > old ? v : old;
	case ISA_OP_BUFFER_ATOMIC_AND: return old & v;
	case ISA_OP_BUFFER_ATOMIC_OR: return old | v;
	case ISA_OP_BUFFER_ATOMIC_XOR: return old ^ v;
	case ISA_OP_BUFFER_ATOMIC_SWAP: return v;
	case ISA_OP_BUFFER_ATOMIC_CMPSWAP: return old == cmp ? v : old;
	default: return old;
	}
}

unsigned gm_wave_exec_vmem(struct gm_wave *w, const struct gm_dinst *dd, const struct gm_wave_env *env,
			   uint64_t pc_va, unsigned max_run)
{
	const struct isa_inst *in = &dd->i;
	const struct isa_op_info *info = &isa_ops[in->op];
	const uint64_t exec = gm_wave_exec(w);
	const unsigned vd = in->dst - ISA_OPD_VGPR0, n = info->dst_regs;
	const bool idxen = in->flags & ISA_FLAG_IDXEN, offen = in->flags & ISA_FLAG_OFFEN;
	const unsigned va_reg = in->src[0] - ISA_OPD_VGPR0;
	const bool is_store = in->op >= ISA_OP_BUFFER_STORE_DWORD && in->op <= ISA_OP_BUFFER_STORE_DWORDX4;
	const bool is_format = in->op >= ISA_OP_BUFFER_LOAD_FORMAT_X && in->op <= ISA_OP_BUFFER_LOAD_FORMAT_XYZW;
	const bool is_atomic = in->op == ISA_OP_BUFFER_ATOMIC_ADD ||
			       (in->op >= ISA_OP_BUFFER_ATOMIC_SUB && in->op <= ISA_OP_BUFFER_ATOMIC_CMPSWAP);
	uint32_t soffset = (uint32_t)gm_wave_ssrc(w, in->src[2], 1, in->literal, false);
	unsigned elem_bytes = is_atomic ? 4 : n * 4;
	/* registers a lane with no memory access (out of bounds, a fault)
	 * gets 0 in: an atomic returns only with glc, one register */
	const unsigned ret_regs = is_store ? 0 : is_atomic ? ((in->flags & ISA_FLAG_GLC) ? 1 : 0) : n;
	bool faulted = false;
	struct desc d;

	desc_read(w, in->src[1], &d);
	if (is_format) {
		unsigned chans, bits;
		if (!format_info(d.data_format, &chans, &bits)) {
			if (d.data_format != DF_INVALID)
				gm_fault_record(env->faults, GM_FAULT_BAD_SHADER, pc_va,
						"%s: unsupported DATA_FORMAT %u", info->name, d.data_format);
			elem_bytes = 0;
		} else {
			elem_bytes = bits ? chans * bits / 8 : 4;
		}
	}
	if (dd->store_run > 1 && max_run > 1) {
		unsigned run = dd->store_run < max_run ? dd->store_run : max_run;
		if (store_run_fast(w, dd, env, &d, soffset, exec, run))
			return run;
	}
	if (vmem_fast(w, dd, env, &d, soffset, elem_bytes, exec))
		return 1;
	/* The BO span the previous lane hit: lanes of one instruction nearly
	 * always address one buffer, so most skip the BO lookup. */
	uint8_t *span_p = NULL;
	uint64_t span_va = 0, span_left = 0;
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint32_t index = idxen ? w->v[va_reg][l] : 0;
		uint32_t off = offen ? w->v[va_reg + (idxen ? 1 : 0)][l] : 0;
		uint64_t rel = (uint64_t)off + in->imm;
		bool in_bounds = d.data_format != DF_INVALID && elem_bytes;
		uint64_t va;
		uint8_t *p;

		if (in_bounds)
			in_bounds = d.stride ? index < d.num_records : rel + elem_bytes <= d.num_records;
		va = d.base + soffset + rel + (uint64_t)index * d.stride;
		if (!in_bounds) {
			for (unsigned c = 0; c < ret_regs; c++)
				w->v[vd + c][l] = 0;
			continue;
		}
		if (va - span_va < span_left && elem_bytes <= span_left - (va - span_va)) {
			p = span_p + (va - span_va);
		} else {
			uint64_t left;
			p = gm_mem_span(env->mem, va, &left);
			if (p) {
				span_p = p;
				span_va = va;
				span_left = left;
				if (elem_bytes > left)
					p = NULL;
			}
		}
		if (!p) {
			if (!faulted)
				gm_fault_record(env->faults, GM_FAULT_BAD_ADDRESS, va,
						"%s lane %u at PC 0x%llx: unmapped 0x%llx", info->name, l,
						(unsigned long long)pc_va, (unsigned long long)va);
			faulted = true;
			for (unsigned c = 0; c < ret_regs; c++)
				w->v[vd + c][l] = 0;
			continue;
		}
		if (is_store) {
			for (unsigned c = 0; c < n; c++)
				memcpy(p + 4 * c, &w->v[vd + c][l], 4);
		} else if (is_atomic) {
			uint32_t old, v = w->v[vd][l];
			memcpy(&old, p, 4);
			v = atomic_result(in->op, old, v, n > 1 ? w->v[vd + 1][l] : 0);
			memcpy(p, &v, 4);
			if (in->flags & ISA_FLAG_GLC)
				w->v[vd][l] = old;
		} else if (is_format) {
			uint32_t out[4];
			fetch_format(&d, p, out);
			for (unsigned c = 0; c < n; c++)
				w->v[vd + c][l] = out[c];
		} else {
			for (unsigned c = 0; c < n; c++)
				memcpy(&w->v[vd + c][l], p + 4 * c, 4);
		}
	}
	return 1;
}

void gm_wave_exec_smem(struct gm_wave *w, const struct gm_dinst *dd, const struct gm_wave_env *env,
		       uint64_t pc_va)
{
	const struct isa_inst *in = &dd->i;
	const struct isa_op_info *info = &isa_ops[in->op];
	uint32_t off = (uint32_t)gm_wave_ssrc(w, in->src[1], 1, in->literal, false) & ~3u;
	unsigned n = info->dst_regs;
	uint32_t tmp[16] = { 0 };
	uint64_t va;

	if (info->src_regs[0] == 4) {  /* s_buffer_load: descriptor + offset, bounds by NUM_RECORDS */
		struct desc d;
		desc_read(w, in->src[0], &d);
		va = d.base + off;
		for (unsigned c = 0; c < n; c++) {
			uint8_t *p;
			if ((uint64_t)off + 4 * c + 4 > d.num_records || d.data_format == DF_INVALID)
				continue;
			p = gm_mem_ptr(env->mem, va + 4 * c, 4);
			if (!p) {
				gm_fault_record(env->faults, GM_FAULT_BAD_ADDRESS, va + 4 * c,
						"%s at PC 0x%llx: unmapped 0x%llx", info->name,
						(unsigned long long)pc_va, (unsigned long long)(va + 4 * c));
				break;
			}
			memcpy(&tmp[c], p, 4);
		}
	} else {
		uint8_t *p;
		va = ((uint64_t)w->s[in->src[0]] | (uint64_t)(w->s[in->src[0] + 1] & 0xFFFF) << 32) + off;
		p = gm_mem_ptr(env->mem, va, 4u * n);
		if (p)
			memcpy(tmp, p, 4u * n);
		else
			gm_fault_record(env->faults, GM_FAULT_BAD_ADDRESS, va,
					"%s at PC 0x%llx: unmapped 0x%llx (%u bytes)", info->name,
					(unsigned long long)pc_va, (unsigned long long)va, 4u * n);
	}
	memcpy(&w->s[in->dst], tmp, 4u * n);
}

unsigned gm_format_bytes(unsigned data_format)
{
	unsigned chans, bits;
	if (!format_info(data_format, &chans, &bits))
		return 0;
	return bits ? chans * bits / 8 : 4;
}

void gm_fetch_formatted(unsigned data_format, unsigned num_format, const uint8_t *p, uint32_t out[4])
{
	struct desc d = { .dst_sel = { V_SQ_SEL_X, V_SQ_SEL_Y, V_SQ_SEL_Z, V_SQ_SEL_W },
			  .num_format = num_format, .data_format = data_format };
	unsigned chans = 0, bits = 0;
	bool is_int = num_format == NF_UINT || num_format == NF_SINT;

	fetch_format(&d, p, out);
	/* missing channels read (0, 0, 0, 1), as GCN's typed fetches */
	format_info(data_format, &chans, &bits);
	for (unsigned c = chans; c < 4; c++)
		out[c] = c == 3 ? (is_int ? 1u : 0x3f800000u) : 0;
}
