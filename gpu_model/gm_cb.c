/*
 * gm_cb.c - the colour backend (docs/pixel-pipeline.md "CB"): linear
 * render targets in the formats of CB_COLORn_INFO, the pixel shader's
 * export formats (SPI_SHADER_COL_FORMAT), blending (CB_BLENDn_CONTROL),
 * the logic op (CB_COLOR_CONTROL.ROP3) and the write masks
 * (CB_TARGET_MASK & CB_SHADER_MASK).  Conversions follow GL's rules:
 * normalized values round to nearest after clamping, sRGB encodes R, G, B.
 */
#include <math.h>
#include <string.h>

#include "gm_px.h"

static float f32(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
static uint32_t u32(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

static bool cb_fault(struct gm_px *px, uint32_t reg, unsigned rt, const char *msg)
{
	gm_fault_record(&px->gm->faults, GM_FAULT_BAD_STATE, reg, "pixel pipeline: render target %u: %s", rt, msg);
	px->failed = true;
	return false;
}

static bool uses_src1(unsigned f)
{
	return f >= V_BLEND_SRC1_COLOR && f <= V_BLEND_INV_SRC1_ALPHA;
}

bool gm_cb_load(struct gm *gm, struct gm_px *px)
{
	struct gm_regs *r = &gm->regs;
	uint32_t ctl = gm_regs_get(r, REG_CB_COLOR_CONTROL);
	uint32_t tmask = gm_regs_get(r, REG_CB_TARGET_MASK), smask = gm_regs_get(r, REG_CB_SHADER_MASK);
	uint32_t colfmt = gm_regs_get(r, REG_SPI_SHADER_COL_FORMAT);
	unsigned mode = CB_COLOR_CONTROL_MODE_GET(ctl);

	px->rop3 = CB_COLOR_CONTROL_ROP3_GET(ctl);
	px->blend_const[0] = f32(gm_regs_get(r, REG_CB_BLEND_RED));
	px->blend_const[1] = f32(gm_regs_get(r, REG_CB_BLEND_GREEN));
	px->blend_const[2] = f32(gm_regs_get(r, REG_CB_BLEND_BLUE));
	px->blend_const[3] = f32(gm_regs_get(r, REG_CB_BLEND_ALPHA));
	if (mode == V_CB_DISABLE)
		return true;
	if (mode != V_CB_NORMAL)
		return cb_fault(px, REG_CB_COLOR_CONTROL, 0, "CB_COLOR_CONTROL.MODE is not CB_NORMAL or CB_DISABLE (no compressed surfaces in the model)");
	for (unsigned rt = 0; rt < 8; rt++) {
		struct gm_px_cb *cb = &px->cb[rt];
		uint32_t info = gm_regs_get(r, REG_CB_COLOR_INFO(rt)), attrib = gm_regs_get(r, REG_CB_COLOR_ATTRIB(rt));
		uint32_t pitch = gm_regs_get(r, REG_CB_COLOR_PITCH(rt)), slice = gm_regs_get(r, REG_CB_COLOR_SLICE(rt));
		uint64_t va, slice_px, bytes;
		unsigned swap;

		cb->fmt = CB_COLOR_INFO_FORMAT_GET(info);
		cb->mask = (tmask >> (4 * rt)) & (smask >> (4 * rt)) & 0xF;
		cb->col_fmt = (colfmt >> (4 * rt)) & 0xF;
		if (cb->fmt == V_COLOR_INVALID || !cb->mask || cb->col_fmt == V_SPI_SHADER_ZERO)
			continue;
		cb->ntype = CB_COLOR_INFO_NUMBER_TYPE_GET(info);
		swap = CB_COLOR_INFO_COMP_SWAP_GET(info);
		switch (cb->fmt) {
		case V_COLOR_8: cb->comps = 1, cb->bits = 8; break;
		case V_COLOR_16: cb->comps = 1, cb->bits = 16; break;
		case V_COLOR_32: cb->comps = 1, cb->bits = 32; break;
		case V_COLOR_8_8: cb->comps = 2, cb->bits = 8; break;
		case V_COLOR_16_16: cb->comps = 2, cb->bits = 16; break;
		case V_COLOR_32_32: cb->comps = 2, cb->bits = 32; break;
		case V_COLOR_8_8_8_8: cb->comps = 4, cb->bits = 8; break;
		case V_COLOR_16_16_16_16: cb->comps = 4, cb->bits = 16; break;
		case V_COLOR_32_32_32_32: cb->comps = 4, cb->bits = 32; break;
		default:
			return cb_fault(px, REG_CB_COLOR_INFO(rt), rt, "CB_COLORn_INFO.FORMAT is not modelled");
		}
		if (cb->ntype == V_NUMBER_USCALED || cb->ntype == V_NUMBER_SSCALED ||
		    (cb->ntype == V_NUMBER_FLOAT && cb->bits == 8) || (cb->ntype == V_NUMBER_SRGB && cb->bits != 8))
			return cb_fault(px, REG_CB_COLOR_INFO(rt), rt, "CB_COLORn_INFO.NUMBER_TYPE does not fit the format");
		for (unsigned i = 0; i < 4; i++)
			cb->pos[i] = (uint8_t)i;
		if (swap == V_SWAP_ALT && cb->comps == 4)
			cb->pos[0] = 2, cb->pos[2] = 0;          /* B G R A */
		else if (swap == V_SWAP_ALT && cb->comps == 2)
			cb->pos[1] = 3;                          /* R A */
		else if (swap == V_SWAP_ALT_REV && cb->comps == 1)
			cb->pos[0] = 3;                          /* A */
		else if (swap != V_SWAP_STD)
			return cb_fault(px, REG_CB_COLOR_INFO(rt), rt, "this CB_COLORn_INFO.COMP_SWAP is not modelled");
		if (CB_COLOR_ATTRIB_TILE_MODE_INDEX_GET(attrib) != 8)
			return cb_fault(px, REG_CB_COLOR_ATTRIB(rt), rt,
					"CB_COLORn_ATTRIB.TILE_MODE_INDEX is not 8 (ARRAY_LINEAR_ALIGNED; the model's surfaces are linear)");
		cb->blend = gm_regs_get(r, REG_CB_BLEND_CONTROL(rt));
		if (CB_COLOR_INFO_BLEND_BYPASS_GET(info) || cb->ntype == V_NUMBER_UINT || cb->ntype == V_NUMBER_SINT)
			cb->blend &= ~CB_BLEND_CONTROL_ENABLE__MASK;
		if (CB_BLEND_CONTROL_ENABLE_GET(cb->blend) &&
		    (uses_src1(CB_BLEND_CONTROL_COLOR_SRCBLEND_GET(cb->blend)) ||
		     uses_src1(CB_BLEND_CONTROL_COLOR_DESTBLEND_GET(cb->blend)) ||
		     uses_src1(CB_BLEND_CONTROL_ALPHA_SRCBLEND_GET(cb->blend)) ||
		     uses_src1(CB_BLEND_CONTROL_ALPHA_DESTBLEND_GET(cb->blend))))
			return cb_fault(px, REG_CB_BLEND_CONTROL(rt), rt, "dual-source blending is not modelled");
		cb->samples = 1u << CB_COLOR_ATTRIB_NUM_SAMPLES_GET(attrib);
		if (cb->samples > GM_PX_MAX_SAMPLES)
			return cb_fault(px, REG_CB_COLOR_ATTRIB(rt), rt, "only 1, 2, 4 and 8 samples are modelled");
		if (px->target_samples && px->target_samples != cb->samples)
			return cb_fault(px, REG_CB_COLOR_ATTRIB(rt), rt, "render targets with different sample counts");
		px->target_samples = cb->samples;
		cb->bpp = cb->comps * cb->bits / 8;
		cb->pitch = (CB_COLOR_PITCH_TILE_MAX_GET(pitch) + 1) * 8;
		slice_px = (uint64_t)(CB_COLOR_SLICE_TILE_MAX_GET(slice) + 1) * 64;
		cb->height = (uint32_t)(slice_px / cb->pitch);
		va = (uint64_t)gm_regs_get(r, REG_CB_COLOR_BASE(rt)) << 8;
		va += (uint64_t)CB_COLOR_VIEW_SLICE_START_GET(gm_regs_get(r, REG_CB_COLOR_VIEW(rt))) *
		      slice_px * cb->samples * cb->bpp;
		bytes = (uint64_t)cb->pitch * cb->height * cb->samples * cb->bpp;
		cb->base = gm_mem_ptr(&gm->mem, va, bytes);
		cb->va = va;
		if (!cb->base || !cb->height) {
			gm_fault_record(&gm->faults, GM_FAULT_BAD_ADDRESS, va,
					"pixel pipeline: render target %u at 0x%llx (%llu bytes) is not inside one BO",
					rt, (unsigned long long)va, (unsigned long long)bytes);
			px->failed = true;
			return false;
		}
		cb->plain_unorm8 = cb->bits == 8 && cb->ntype == V_NUMBER_UNORM && px->rop3 == 0xCC &&
				   !CB_BLEND_CONTROL_ENABLE_GET(cb->blend);
		if (px->sc_x1 > (int32_t)cb->pitch) px->sc_x1 = (int32_t)cb->pitch;
		if (px->sc_y1 > (int32_t)cb->height) px->sc_y1 = (int32_t)cb->height;
		cb->on = true;
	}
	return true;
}

void gm_cb_unpack_export(unsigned col_fmt, const uint32_t reg[4], uint32_t out[4])
{
	const uint32_t one = 0x3F800000u;

	switch (col_fmt) {
	case V_SPI_SHADER_32_R: out[0] = reg[0], out[1] = out[2] = 0, out[3] = one; break;
	case V_SPI_SHADER_32_GR: out[0] = reg[0], out[1] = reg[1], out[2] = 0, out[3] = one; break;
	case V_SPI_SHADER_32_AR: out[0] = reg[0], out[1] = out[2] = 0, out[3] = reg[3]; break;
	case V_SPI_SHADER_FP16_ABGR:
		for (unsigned k = 0; k < 4; k++)
			out[k] = u32(gm_f16_to_f32(reg[k >> 1] >> (16 * (k & 1)) & 0xFFFF));
		break;
	case V_SPI_SHADER_UNORM16_ABGR:
		for (unsigned k = 0; k < 4; k++)
			out[k] = u32((float)(reg[k >> 1] >> (16 * (k & 1)) & 0xFFFF) / 65535.0f);
		break;
	case V_SPI_SHADER_SNORM16_ABGR:
		for (unsigned k = 0; k < 4; k++) {
			float f = (float)(int16_t)(reg[k >> 1] >> (16 * (k & 1))) / 32767.0f;
			out[k] = u32(f < -1.0f ? -1.0f : f);
		}
		break;
	case V_SPI_SHADER_UINT16_ABGR:
		for (unsigned k = 0; k < 4; k++)
			out[k] = reg[k >> 1] >> (16 * (k & 1)) & 0xFFFF;
		break;
	case V_SPI_SHADER_SINT16_ABGR:
		for (unsigned k = 0; k < 4; k++)
			out[k] = (uint32_t)(int32_t)(int16_t)(reg[k >> 1] >> (16 * (k & 1)));
		break;
	default: memcpy(out, reg, 16); break;
	}
}

static float srgb_encode(float v)
{
	return v <= 0.0031308f ? v * 12.92f : (float)(1.055 * pow(v, 1.0 / 2.4) - 0.055);
}

static float srgb_decode(float v)
{
	return v <= 0.04045f ? v / 12.92f : (float)pow((v + 0.055) / 1.055, 2.4);
}

static float clampf(float v, float lo, float hi)
{
	return !(v >= lo) ? lo : v > hi ? hi : v;   /* NaN -> lo */
}

/* Component c of the float value `v` to the target's bits. */
static uint32_t encode(const struct gm_px_cb *cb, unsigned c, uint32_t raw)
{
	uint32_t mask = cb->bits == 32 ? 0xFFFFFFFFu : (1u << cb->bits) - 1;
	float v = f32(raw);

	switch (cb->ntype) {
	case V_NUMBER_UINT: case V_NUMBER_SINT: return raw & mask;
	case V_NUMBER_FLOAT: return cb->bits == 32 ? raw : gm_f32_to_f16(v);
	case V_NUMBER_SNORM: {
		double m = (double)(mask >> 1);
		return (uint32_t)(int64_t)nearbyint(clampf(v, -1, 1) * m) & mask;
	}
	case V_NUMBER_SRGB:
		if (c < 3)
			v = srgb_encode(clampf(v, 0, 1));
		/* fall through */
	default:
		if (cb->bits == 32)
			return (uint32_t)nearbyint((double)clampf(v, 0, 1) * mask);
		return (uint32_t)nearbyintf(clampf(v, 0, 1) * (float)mask);
	}
}

/* encode() of an 8-bit UNORM component: clamped, times 255, rounded to
 * nearest even as nearbyintf does: for 0 <= v < 2^23, v + 2^23 rounds to
 * an integer in the default rounding mode, and taking 2^23 away again is
 * exact (IEEE arithmetic; the build uses no -ffast-math, which could fold
 * it away). */
static inline uint8_t unorm8(uint32_t raw)
{
	float v = clampf(f32(raw), 0, 1) * 255.0f;
	return (uint8_t)((v + 8388608.0f) - 8388608.0f);
}

static float decode(const struct gm_px_cb *cb, unsigned c, uint32_t bits)
{
	uint32_t mask = cb->bits == 32 ? 0xFFFFFFFFu : (1u << cb->bits) - 1;
	switch (cb->ntype) {
	case V_NUMBER_FLOAT: return cb->bits == 32 ? f32(bits) : gm_f16_to_f32(bits);
	case V_NUMBER_SNORM: {
		int32_t s = cb->bits == 32 ? (int32_t)bits : (int32_t)(bits << (32 - cb->bits)) >> (32 - cb->bits);
		float f = (float)((double)s / (double)(mask >> 1));
		return f < -1 ? -1 : f;
	}
	case V_NUMBER_SRGB: {
		float f = (float)bits / (float)mask;
		return c < 3 ? srgb_decode(f) : f;
	}
	default: return (float)((double)bits / mask);
	}
}

static float factor(unsigned f, unsigned c, const float *s, const float *d, const float *k)
{
	switch (f) {
	case V_BLEND_ZERO: return 0;
	case V_BLEND_ONE: return 1;
	case V_BLEND_SRC_COLOR: return s[c];
	case V_BLEND_ONE_MINUS_SRC_COLOR: return 1 - s[c];
	case V_BLEND_SRC_ALPHA: return s[3];
	case V_BLEND_ONE_MINUS_SRC_ALPHA: return 1 - s[3];
	case V_BLEND_DST_ALPHA: return d[3];
	case V_BLEND_ONE_MINUS_DST_ALPHA: return 1 - d[3];
	case V_BLEND_DST_COLOR: return d[c];
	case V_BLEND_ONE_MINUS_DST_COLOR: return 1 - d[c];
	case V_BLEND_SRC_ALPHA_SATURATE: return c == 3 ? 1 : fminf(s[3], 1 - d[3]);
	case V_BLEND_CONSTANT_COLOR: return k[c];
	case V_BLEND_ONE_MINUS_CONSTANT_COLOR: return 1 - k[c];
	case V_BLEND_CONSTANT_ALPHA: return k[3];
	case V_BLEND_ONE_MINUS_CONSTANT_ALPHA: return 1 - k[3];
	default: return 0;
	}
}

static float combine(unsigned fn, float s, float sf, float d, float df)
{
	switch (fn) {
	case V_COMB_SRC_MINUS_DST: return s * sf - d * df;
	case V_COMB_MIN_DST_SRC: return fminf(s, d);
	case V_COMB_MAX_DST_SRC: return fmaxf(s, d);
	case V_COMB_DST_MINUS_SRC: return d * df - s * sf;
	default: return s * sf + d * df;
	}
}

static uint32_t rop(unsigned rop3, uint32_t s, uint32_t d)
{
	uint32_t r = 0;
	if (rop3 & 1) r |= ~s & ~d;
	if (rop3 & 2) r |= ~s & d;
	if (rop3 & 4) r |= s & ~d;
	if (rop3 & 8) r |= s & d;
	return r;
}

static uint32_t get_bits(const uint8_t *p, unsigned bits, unsigned i)
{
	if (bits == 8) return p[i];
	if (bits == 16) { uint16_t v; memcpy(&v, p + 2 * i, 2); return v; }
	{ uint32_t v; memcpy(&v, p + 4 * i, 4); return v; }
}

static void put_bits(uint8_t *p, unsigned bits, unsigned i, uint32_t v)
{
	if (bits == 8) p[i] = (uint8_t)v;
	else if (bits == 16) { uint16_t h = (uint16_t)v; memcpy(p + 2 * i, &h, 2); }
	else memcpy(p + 4 * i, &v, 4);
}

void gm_cb_write(struct gm_px *px, unsigned rt, unsigned x, unsigned y, uint8_t samples, const uint32_t val[4])
{
	const struct gm_px_cb *cb = &px->cb[rt];
	bool blend = CB_BLEND_CONTROL_ENABLE_GET(cb->blend);
	bool norm = cb->ntype == V_NUMBER_UNORM || cb->ntype == V_NUMBER_SNORM || cb->ntype == V_NUMBER_SRGB;
	float lo = cb->ntype == V_NUMBER_SNORM ? -1.0f : 0.0f;
	float src[4], k[4];
	unsigned comp_at[4] = { 4, 4, 4, 4 };   /* component -> memory position */

	if (x >= cb->pitch || y >= cb->height)
		return;
	if (cb->plain_unorm8) {
		/* What the loops below do for such a target, without reading
		 * the destination: memory position i takes component pos[i]. */
		uint8_t *p = cb->base + ((size_t)y * cb->pitch + x) * cb->samples * cb->bpp, b[4];
		for (unsigned i = 0; i < cb->comps; i++)
			b[i] = unorm8(val[cb->pos[i]]);
		if (cb->samples == 1 && cb->comps == 4 && cb->mask == 0xF) {
			if (samples & 1)
				memcpy(p, b, 4);
			return;
		}
		for (unsigned s = 0; s < cb->samples; s++, p += cb->bpp)
			for (unsigned i = 0; i < cb->comps; i++)
				if ((samples >> s & 1) && (cb->mask >> cb->pos[i] & 1))
					p[i] = b[i];
		return;
	}
	for (unsigned i = 0; i < cb->comps; i++)
		comp_at[cb->pos[i]] = i;
	for (unsigned c = 0; c < 4; c++) {
		src[c] = f32(val[c]);
		k[c] = px->blend_const[c];
		if (norm && blend) {
			src[c] = clampf(src[c], lo, 1);
			k[c] = clampf(k[c], lo, 1);
		}
	}
	for (unsigned s = 0; s < cb->samples; s++) {
		uint8_t *p = cb->base + (((size_t)y * cb->pitch + x) * cb->samples + s) * cb->bpp;
		float dst[4] = { 0, 0, 0, 1 };
		uint32_t dbits[4] = { 0 };

		if (!(samples >> s & 1))
			continue;
		for (unsigned c = 0; c < 4; c++)
			if (comp_at[c] < 4) {
				dbits[c] = get_bits(p, cb->bits, comp_at[c]);
				if (blend)
					dst[c] = decode(cb, c, dbits[c]);
			}
		for (unsigned c = 0; c < 4; c++) {
			uint32_t bits;
			if (comp_at[c] >= 4 || !(cb->mask >> c & 1))
				continue;
			if (blend) {
				bool a = c == 3 && CB_BLEND_CONTROL_SEPARATE_ALPHA_BLEND_GET(cb->blend);
				unsigned sf = a ? CB_BLEND_CONTROL_ALPHA_SRCBLEND_GET(cb->blend) : CB_BLEND_CONTROL_COLOR_SRCBLEND_GET(cb->blend);
				unsigned df = a ? CB_BLEND_CONTROL_ALPHA_DESTBLEND_GET(cb->blend) : CB_BLEND_CONTROL_COLOR_DESTBLEND_GET(cb->blend);
				unsigned fn = a ? CB_BLEND_CONTROL_ALPHA_COMB_FCN_GET(cb->blend) : CB_BLEND_CONTROL_COLOR_COMB_FCN_GET(cb->blend);
				float r = combine(fn, src[c], factor(sf, c, src, dst, k), dst[c], factor(df, c, src, dst, k));
				bits = encode(cb, c, u32(norm ? clampf(r, lo, 1) : r));
			} else {
				bits = encode(cb, c, val[c]);
			}
			if (px->rop3 != 0xCC && cb->ntype != V_NUMBER_FLOAT)
				bits = rop(px->rop3, bits, dbits[c]) & (cb->bits == 32 ? 0xFFFFFFFFu : (1u << cb->bits) - 1);
			put_bits(p, cb->bits, comp_at[c], bits);
		}
	}
}
