/*
 * gm_wave_img.c - image instructions (docs/isa.md "Images"): image_load
 * (GL's texelFetch) and image_sample (2D, nearest or bilinear, GCN's wrap
 * modes and border colours) through a T# (SQ_IMG_RSRC_WORD0..7) and an S#
 * (SQ_IMG_SAMP_WORD0..3) in SGPRs, on linear images.  Only the descriptor's
 * BASE_LEVEL is read: sampling that would choose between mip levels is a
 * fault, never a wrong value.
 */
#include <math.h>
#include <string.h>

#include "gm_priv.h"

struct timg {
	uint64_t base;
	uint32_t width, height, pitch;
	unsigned df, nf, bytes;
	unsigned sel[4];
	bool is_int, srgb;
};

static float f32(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
static uint32_t u32(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

static bool timg_read(const struct gm_wave *w, unsigned s, struct timg *t, const char **why)
{
	const uint32_t *d = &w->s[s];
	unsigned type = SQ_IMG_RSRC_WORD3_TYPE_GET(d[3]);

	t->base = (uint64_t)SQ_IMG_RSRC_WORD0_BASE_ADDRESS_GET(d[0]) << 8 |
		  (uint64_t)SQ_IMG_RSRC_WORD1_BASE_ADDRESS_HI_GET(d[1]) << 40;
	t->df = SQ_IMG_RSRC_WORD1_DATA_FORMAT_GET(d[1]);
	t->nf = SQ_IMG_RSRC_WORD1_NUM_FORMAT_GET(d[1]);
	t->width = SQ_IMG_RSRC_WORD2_WIDTH_GET(d[2]) + 1;
	t->height = SQ_IMG_RSRC_WORD2_HEIGHT_GET(d[2]) + 1;
	t->pitch = SQ_IMG_RSRC_WORD4_PITCH_GET(d[4]) + 1;
	t->sel[0] = SQ_IMG_RSRC_WORD3_DST_SEL_X_GET(d[3]);
	t->sel[1] = SQ_IMG_RSRC_WORD3_DST_SEL_Y_GET(d[3]);
	t->sel[2] = SQ_IMG_RSRC_WORD3_DST_SEL_Z_GET(d[3]);
	t->sel[3] = SQ_IMG_RSRC_WORD3_DST_SEL_W_GET(d[3]);
	t->is_int = t->nf == V_IMG_NUM_FORMAT_UINT || t->nf == V_IMG_NUM_FORMAT_SINT;
	t->srgb = t->nf == V_IMG_NUM_FORMAT_SRGB;
	t->bytes = gm_format_bytes(t->df);
	if (type != V_SQ_RSRC_IMG_2D && type != V_SQ_RSRC_IMG_1D)
		*why = "only 1D and 2D images are modelled (SQ_IMG_RSRC_WORD3.TYPE)";
	else if (SQ_IMG_RSRC_WORD3_TILING_INDEX_GET(d[3]) != 8)
		*why = "the image is not linear (SQ_IMG_RSRC_WORD3.TILING_INDEX must be 8)";
	else if (!t->bytes || t->df == V_BUF_DATA_FORMAT_2_10_10_10 || t->df == V_BUF_DATA_FORMAT_32_32_32 ||
		 t->nf == V_IMG_NUM_FORMAT_USCALED || t->nf == V_IMG_NUM_FORMAT_SSCALED || t->nf > V_IMG_NUM_FORMAT_SRGB ||
		 (t->srgb && t->bytes != 4))
		*why = "image format not modelled (SQ_IMG_RSRC_WORD1 DATA_FORMAT / NUM_FORMAT)";
	else if (t->pitch < t->width)
		*why = "image PITCH is below its WIDTH";
	else
		return true;
	return false;
}

static float srgb_decode(float v)
{
	return v <= 0.04045f ? v / 12.92f : (float)pow((v + 0.055) / 1.055, 2.4);
}

/* Texel (x, y) as 4 channels (raw bits; floats for non-integer formats). */
static bool texel(const struct timg *t, struct gm_mem *mem, uint32_t x, uint32_t y, uint32_t out[4])
{
	uint64_t va = t->base + ((uint64_t)y * t->pitch + x) * t->bytes;
	const uint8_t *p = gm_mem_ptr(mem, va, t->bytes);
	if (!p)
		return false;
	gm_fetch_formatted(t->df, t->srgb ? V_IMG_NUM_FORMAT_UNORM : t->nf, p, out);
	if (t->srgb)
		for (unsigned c = 0; c < 3; c++)
			out[c] = u32(srgb_decode(f32(out[c])));
	return true;
}

/* GL's wrap of integer texel coordinate i for size n; -1 = border. */
static int64_t wrap(unsigned mode, int64_t i, int64_t n)
{
	switch (mode) {
	case V_SQ_TEX_WRAP:
		return ((i % n) + n) % n;
	case V_SQ_TEX_MIRROR: {
		int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
		return m < n ? m : 2 * n - 1 - m;
	}
	case V_SQ_TEX_MIRROR_ONCE_LAST_TEXEL: {
		int64_t m = i < 0 ? -1 - i : i;
		return m >= n ? n - 1 : m;
	}
	case V_SQ_TEX_CLAMP_BORDER: case V_SQ_TEX_CLAMP_HALF_BORDER:
	case V_SQ_TEX_MIRROR_ONCE_HALF_BORDER: case V_SQ_TEX_MIRROR_ONCE_BORDER:
		return i < 0 || i >= n ? -1 : i;
	default:   /* CLAMP_LAST_TEXEL: GL's CLAMP_TO_EDGE */
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	}
}

static void fault(const struct gm_wave_env *env, struct gm_wave *w, uint64_t pc_va, const char *name,
		  const char *why)
{
	gm_fault_record(env->faults, GM_FAULT_BAD_SHADER, pc_va, "%s: %s", name, why);
	w->killed = true;
}

void gm_wave_exec_img(struct gm_wave *w, const struct gm_dinst *dd, const struct gm_wave_env *env, uint64_t pc_va)
{
	const struct isa_inst *in = &dd->i;
	const char *name = isa_ops[in->op].name, *why = NULL;
	const unsigned vd = in->dst - ISA_OPD_VGPR0, va = in->src[0] - ISA_OPD_VGPR0;
	uint64_t exec = gm_wave_exec(w);
	bool sample = in->op == ISA_OP_IMAGE_SAMPLE, unmapped = false;
	unsigned clamp[2] = { 0, 0 }, mag = 0, min = 0, border = 0;
	bool unnorm = false;
	struct timg t;
	uint32_t res[64][4];

	if (!timg_read(w, in->src[1], &t, &why)) {
		fault(env, w, pc_va, name, why);
		return;
	}
	if (sample) {
		const uint32_t *s = &w->s[in->src[2]];
		unsigned mip = SQ_IMG_SAMP_WORD2_MIP_FILTER_GET(s[2]);
		clamp[0] = SQ_IMG_SAMP_WORD0_CLAMP_X_GET(s[0]);
		clamp[1] = SQ_IMG_SAMP_WORD0_CLAMP_Y_GET(s[0]);
		unnorm = SQ_IMG_SAMP_WORD0_FORCE_UNNORMALIZED_GET(s[0]);
		mag = SQ_IMG_SAMP_WORD2_XY_MAG_FILTER_GET(s[2]);
		min = SQ_IMG_SAMP_WORD2_XY_MIN_FILTER_GET(s[2]);
		border = SQ_IMG_SAMP_WORD3_BORDER_COLOR_TYPE_GET(s[3]);
		if (mip != V_SQ_TEX_Z_FILTER_NONE &&
		    SQ_IMG_RSRC_WORD3_LAST_LEVEL_GET(w->s[in->src[1] + 3]) != SQ_IMG_RSRC_WORD3_BASE_LEVEL_GET(w->s[in->src[1] + 3]))
			why = "mipmapped sampling is not modelled (MIP_FILTER with LAST_LEVEL > BASE_LEVEL)";
		else if (border == V_SQ_TEX_BORDER_COLOR_REGISTER)
			why = "border colours from the border-colour table are not modelled";
		else if (t.is_int && (mag || min))
			why = "bilinear filtering of an integer format";
		if (why) {
			fault(env, w, pc_va, name, why);
			return;
		}
	}
	for (unsigned l = 0; l < 64; l++) {
		uint32_t c[4] = { 0, 0, 0, 0 };
		if (!(exec >> l & 1))
			continue;
		if (!sample) {
			/* texelFetch: integer coordinates; outside the image reads 0 */
			uint32_t x = w->v[va][l], y = t.height > 1 ? w->v[va + 1][l] : 0;
			if (x < t.width && y < t.height && !texel(&t, env->mem, x, y, c))
				unmapped = true;
		} else {
			float u = f32(w->v[va][l]), v = t.height > 1 ? f32(w->v[va + 1][l]) : 0.5f;
			double fu = unnorm ? u : (double)u * t.width, fv = unnorm ? v : (double)v * t.height;
			unsigned filt = mag;
			/* minification from the quad's derivatives (pixel shaders;
			 * elsewhere magnification, LOD 0) */
			if (env->interp && mag != min) {
				unsigned q = l & ~3u;
				double dux = (f32(w->v[va][q + 1]) - f32(w->v[va][q])) * (unnorm ? 1 : t.width);
				double dvx = (f32(w->v[va + 1][q + 1]) - f32(w->v[va + 1][q])) * (unnorm ? 1 : t.height);
				double duy = (f32(w->v[va][q + 2]) - f32(w->v[va][q])) * (unnorm ? 1 : t.width);
				double dvy = (f32(w->v[va + 1][q + 2]) - f32(w->v[va + 1][q])) * (unnorm ? 1 : t.height);
				double rho = fmax(hypot(dux, dvx), hypot(duy, dvy));
				if (rho > 1.0)
					filt = min;
			}
			if (!isfinite(fu) || !isfinite(fv)) {
				fu = fv = 0;
			}
			if (filt == V_SQ_TEX_XY_FILTER_POINT) {
				int64_t x = wrap(clamp[0], (int64_t)floor(fu), t.width);
				int64_t y = wrap(clamp[1], (int64_t)floor(fv), t.height);
				if (x < 0 || y < 0) {
					c[3] = border ? 0x3f800000u : 0;
					if (border == V_SQ_TEX_BORDER_COLOR_OPAQUE_WHITE)
						c[0] = c[1] = c[2] = 0x3f800000u;
				} else if (!texel(&t, env->mem, (uint32_t)x, (uint32_t)y, c)) {
					unmapped = true;
				}
			} else {
				double x0 = floor(fu - 0.5), y0 = floor(fv - 0.5);
				double a = fu - 0.5 - x0, b = fv - 0.5 - y0, acc[4] = { 0, 0, 0, 0 };
				for (unsigned k = 0; k < 4; k++) {
					int64_t x = wrap(clamp[0], (int64_t)x0 + (k & 1), t.width);
					int64_t y = wrap(clamp[1], (int64_t)y0 + (k >> 1), t.height);
					double wgt = ((k & 1) ? a : 1 - a) * ((k >> 1) ? b : 1 - b);
					uint32_t tx[4] = { 0, 0, 0, 0 };
					if (x < 0 || y < 0) {
						tx[3] = border ? 0x3f800000u : 0;
						if (border == V_SQ_TEX_BORDER_COLOR_OPAQUE_WHITE)
							tx[0] = tx[1] = tx[2] = 0x3f800000u;
					} else if (!texel(&t, env->mem, (uint32_t)x, (uint32_t)y, tx)) {
						unmapped = true;
					}
					for (unsigned ch = 0; ch < 4; ch++)
						acc[ch] += wgt * f32(tx[ch]);
				}
				for (unsigned ch = 0; ch < 4; ch++)
					c[ch] = u32((float)acc[ch]);
			}
		}
		for (unsigned ch = 0; ch < 4; ch++) {
			unsigned s = t.sel[ch];
			res[l][ch] = s >= V_SQ_SEL_X ? c[s - V_SQ_SEL_X] :
				     s == V_SQ_SEL_1 ? (t.is_int ? 1u : 0x3f800000u) : 0;
		}
	}
	if (unmapped)
		gm_fault_record(env->faults, GM_FAULT_BAD_ADDRESS, t.base,
				"%s: image texels at 0x%llx are not mapped", name, (unsigned long long)t.base);
	/* dmask: the enabled channels, packed into consecutive registers */
	for (unsigned l = 0; l < 64; l++) {
		unsigned r = 0;
		if (!(exec >> l & 1))
			continue;
		for (unsigned ch = 0; ch < 4; ch++)
			if (in->imm >> ch & 1)
				w->v[vd + r++][l] = res[l][ch];
	}
}
