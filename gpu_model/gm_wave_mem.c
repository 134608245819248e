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

/* DATA_FORMAT values the database does not list yet (AMD's GFX8 numbering);
 * PRIVATE, to move into specs/gfx8_regs.xml's BUF_DATA_FORMAT enum. */
#define GM_BUF_DATA_FORMAT_2_10_10_10   9u
#define GM_BUF_DATA_FORMAT_8_8_8_8      10u
#define GM_BUF_DATA_FORMAT_16_16_16_16  12u

enum { DF_INVALID = V_BUF_DATA_FORMAT_INVALID, DF_8 = V_BUF_DATA_FORMAT_8,
       DF_16 = V_BUF_DATA_FORMAT_16, DF_8_8 = V_BUF_DATA_FORMAT_8_8, DF_32 = V_BUF_DATA_FORMAT_32,
       DF_16_16 = V_BUF_DATA_FORMAT_16_16, DF_2_10_10_10 = GM_BUF_DATA_FORMAT_2_10_10_10,
       DF_8_8_8_8 = GM_BUF_DATA_FORMAT_8_8_8_8, DF_32_32 = V_BUF_DATA_FORMAT_32_32,
       DF_16_16_16_16 = GM_BUF_DATA_FORMAT_16_16_16_16, DF_32_32_32 = V_BUF_DATA_FORMAT_32_32_32,
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

void gm_wave_exec_vmem(struct gm_wave *w, const struct gm_dinst *dd, const struct gm_wave_env *env,
		       uint64_t pc_va)
{
	const struct gm_isa_inst *in = &dd->i;
	const struct gm_isa_op_info *info = &gm_isa_ops[in->op];
	const uint64_t exec = gm_wave_exec(w);
	const unsigned vd = in->dst - GM_OPD_VGPR0, n = info->dst_regs;
	const bool idxen = in->flags & GM_FLAG_IDXEN, offen = in->flags & GM_FLAG_OFFEN;
	const unsigned va_reg = in->src[0] - GM_OPD_VGPR0;
	const bool is_store = in->op >= GM_OP_BUFFER_STORE_DWORD && in->op <= GM_OP_BUFFER_STORE_DWORDX4;
	const bool is_format = in->op >= GM_OP_BUFFER_LOAD_FORMAT_X && in->op <= GM_OP_BUFFER_LOAD_FORMAT_XYZW;
	const bool is_atomic = in->op == GM_OP_BUFFER_ATOMIC_ADD;
	uint32_t soffset = (uint32_t)gm_wave_ssrc(w, in->src[2], 1, in->literal, false);
	unsigned elem_bytes = n * 4;
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
			if (!is_store)
				for (unsigned c = 0; c < n; c++)
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
			if (!is_store)
				for (unsigned c = 0; c < n; c++)
					w->v[vd + c][l] = 0;
			continue;
		}
		if (is_store) {
			for (unsigned c = 0; c < n; c++)
				memcpy(p + 4 * c, &w->v[vd + c][l], 4);
		} else if (is_atomic) {
			uint32_t old, add = w->v[vd][l];
			memcpy(&old, p, 4);
			old += add;
			memcpy(p, &old, 4);
			if (in->flags & GM_FLAG_GLC)
				w->v[vd][l] = old - add;
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
}

void gm_wave_exec_smem(struct gm_wave *w, const struct gm_dinst *dd, const struct gm_wave_env *env,
		       uint64_t pc_va)
{
	const struct gm_isa_inst *in = &dd->i;
	const struct gm_isa_op_info *info = &gm_isa_ops[in->op];
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
