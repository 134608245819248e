/*
 * gm_wave_img.c - image instructions (docs/isa.md "Images"): image_load and
 * image_load_mip (GL's texelFetch; image_load reads sample s of a 2D MSAA
 * image too, `da` carrying s), image_get_resinfo (GL's textureSize),
 * image_sample, image_sample_l and image_sample_b, their texel-offset forms
 * image_sample_o, _l_o and _b_o, image_sample_d(_o), image_gather4_lz(_o)
 * (1D, 2D,
 * 2D array and 3D images with `da`; nearest or (tri)linear, GCN's wrap
 * modes and border colours, mip levels
 * chosen by LOD: the one given, the shader's derivatives (_d), or the
 * quad's derivatives in pixel shaders plus the shader's bias) through a T# (SQ_IMG_RSRC_WORD0..7) and an S#
 * (SQ_IMG_SAMP_WORD0..3) in SGPRs, on linear images whose mip levels
 * follow each other from BASE_ADDRESS.
 */
#include <math.h>
#include <string.h>

#include "gm_priv.h"

struct timg {
	uint64_t base;
	unsigned type;
	uint32_t width, height, pitch, depth;  /* depth: 3D depth or 2D array layers, else 1 */
	unsigned df, nf, bytes;
	unsigned sel[4];
	unsigned base_level, last_level;
	unsigned samples;      /* 2D MSAA: per pixel, consecutive in memory; else 1 */
	bool is_int, srgb;
};

/* One mip level of an image: where it starts and its size. */
struct tlevel {
	uint64_t base;
	uint32_t width, height, pitch, depth;
	uint64_t slice;        /* bytes from one layer / depth slice to the next */
};

static uint32_t minify(uint32_t n, unsigned l) { return n >> l ? n >> l : 1; }

static uint32_t level_depth(const struct timg *t, unsigned l)
{
	return t->type == V_SQ_RSRC_IMG_3D ? minify(t->depth, l) : t->depth;
}

/* Level l of a linear image (docs/isa.md "Images"): the levels follow each
 * other from BASE_ADDRESS, level l has max(1, size >> l) texels a side
 * (3D: its depth too; the layers of an array are not minified), rows of
 * max(1, pitch >> l) texels, its slices (layers) one after the other. */
static struct tlevel tlevel(const struct timg *t, unsigned l)
{
	struct tlevel r = { t->base, 0, 0, 0, 0, 0 };
	for (unsigned k = 0; k < l; k++)
		r.base += (uint64_t)minify(t->pitch, k) * minify(t->height, k) * level_depth(t, k) * t->bytes;
	r.width = minify(t->width, l);
	r.height = minify(t->height, l);
	r.pitch = minify(t->pitch, l);
	r.depth = level_depth(t, l);
	r.slice = (uint64_t)r.pitch * r.height * t->bytes;
	return r;
}

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
	t->type = type;
	t->depth = type == V_SQ_RSRC_IMG_3D || type == V_SQ_RSRC_IMG_2D_ARRAY || type == V_SQ_RSRC_IMG_CUBE ?
		   SQ_IMG_RSRC_WORD4_DEPTH_GET(d[4]) + 1 : 1;
	t->samples = 1;
	t->sel[0] = SQ_IMG_RSRC_WORD3_DST_SEL_X_GET(d[3]);
	t->sel[1] = SQ_IMG_RSRC_WORD3_DST_SEL_Y_GET(d[3]);
	t->sel[2] = SQ_IMG_RSRC_WORD3_DST_SEL_Z_GET(d[3]);
	t->sel[3] = SQ_IMG_RSRC_WORD3_DST_SEL_W_GET(d[3]);
	t->base_level = SQ_IMG_RSRC_WORD3_BASE_LEVEL_GET(d[3]);
	t->last_level = SQ_IMG_RSRC_WORD3_LAST_LEVEL_GET(d[3]);
	t->is_int = t->nf == V_IMG_NUM_FORMAT_UINT || t->nf == V_IMG_NUM_FORMAT_SINT;
	t->srgb = t->nf == V_IMG_NUM_FORMAT_SRGB;
	t->bytes = gm_format_bytes(t->df);
	if (type == V_SQ_RSRC_IMG_2D_MSAA) {
		/* radeonsi's si_make_texture_descriptor: LAST_LEVEL holds
		 * log2(samples) of a multisampled image, which has one level */
		t->samples = 1u << (t->last_level < 4 ? t->last_level : 4);
		t->last_level = t->base_level = 0;
	}
	if (type != V_SQ_RSRC_IMG_2D && type != V_SQ_RSRC_IMG_1D && type != V_SQ_RSRC_IMG_2D_ARRAY &&
	    type != V_SQ_RSRC_IMG_3D && type != V_SQ_RSRC_IMG_CUBE && type != V_SQ_RSRC_IMG_2D_MSAA)
		*why = "only 1D, 2D, 2D array, 3D, cube and 2D MSAA images are modelled (SQ_IMG_RSRC_WORD3.TYPE)";
	else if (type == V_SQ_RSRC_IMG_2D_MSAA && SQ_IMG_RSRC_WORD3_LAST_LEVEL_GET(d[3]) > 3)
		*why = "a 2D MSAA image of more than 8 samples (SQ_IMG_RSRC_WORD3.LAST_LEVEL = log2(samples))";
	else if (SQ_IMG_RSRC_WORD3_TILING_INDEX_GET(d[3]) != 8)
		*why = "the image is not linear (SQ_IMG_RSRC_WORD3.TILING_INDEX must be 8)";
	else if (!t->bytes || t->df == V_BUF_DATA_FORMAT_2_10_10_10 || t->df == V_BUF_DATA_FORMAT_32_32_32 ||
		 t->nf == V_IMG_NUM_FORMAT_USCALED || t->nf == V_IMG_NUM_FORMAT_SSCALED || t->nf > V_IMG_NUM_FORMAT_SRGB ||
		 (t->srgb && t->bytes != 4))
		*why = "image format not modelled (SQ_IMG_RSRC_WORD1 DATA_FORMAT / NUM_FORMAT)";
	else if (t->pitch < t->width)
		*why = "image PITCH is below its WIDTH";
	else if (t->last_level < t->base_level)
		*why = "image LAST_LEVEL is below its BASE_LEVEL";
	else
		return true;
	return false;
}

static float srgb_decode(float v)
{
	return v <= 0.04045f ? v / 12.92f : (float)pow((v + 0.055) / 1.055, 2.4);
}

/* Texel (x, y) of a level as 4 channels (raw bits; floats for non-integer
 * formats). */
static bool texel(const struct timg *t, const struct tlevel *lv, struct gm_mem *mem, uint32_t x, uint32_t y,
		  uint32_t z, uint32_t out[4])
{
	uint64_t va = lv->base + z * lv->slice + ((uint64_t)y * lv->pitch + x) * t->bytes * t->samples;
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

/* The sampler state an image_sample* reads from its S#. */
struct tsamp {
	unsigned clamp[3], mag, min, mip, border;
	bool unnorm;
	double min_lod, max_lod, bias;
};

static void tsamp_read(const uint32_t *s, struct tsamp *sp)
{
	int32_t bias = (int32_t)(SQ_IMG_SAMP_WORD2_LOD_BIAS_GET(s[2]) << 18) >> 18;   /* signed 6.8 */
	sp->clamp[0] = SQ_IMG_SAMP_WORD0_CLAMP_X_GET(s[0]);
	sp->clamp[1] = SQ_IMG_SAMP_WORD0_CLAMP_Y_GET(s[0]);
	sp->clamp[2] = SQ_IMG_SAMP_WORD0_CLAMP_Z_GET(s[0]);
	sp->unnorm = SQ_IMG_SAMP_WORD0_FORCE_UNNORMALIZED_GET(s[0]);
	sp->min_lod = SQ_IMG_SAMP_WORD1_MIN_LOD_GET(s[1]) / 256.0;    /* unsigned 4.8 */
	sp->max_lod = SQ_IMG_SAMP_WORD1_MAX_LOD_GET(s[1]) / 256.0;
	sp->bias = bias / 256.0;
	sp->mag = SQ_IMG_SAMP_WORD2_XY_MAG_FILTER_GET(s[2]);
	sp->min = SQ_IMG_SAMP_WORD2_XY_MIN_FILTER_GET(s[2]);
	sp->mip = SQ_IMG_SAMP_WORD2_MIP_FILTER_GET(s[2]);
	sp->border = SQ_IMG_SAMP_WORD3_BORDER_COLOR_TYPE_GET(s[3]);
}

static void border_texel(unsigned border, uint32_t c[4])
{
	c[0] = c[1] = c[2] = border == V_SQ_TEX_BORDER_COLOR_OPAQUE_WHITE ? 0x3f800000u : 0;
	c[3] = border ? 0x3f800000u : 0;
}

/* One level filtered at (fu, fv, fw) in texels (fw: 3D images; layer: the
 * layer of a 2D array): POINT, the texel containing it; BILINEAR, the
 * four (3D: eight) around it weighted (GL 4.6 §8.14.2).  *unmapped is set
 * when a texel is not in memory. */
static void sample_level(const struct timg *t, const struct tlevel *lv, const struct tsamp *sp, unsigned filt,
			 struct gm_mem *mem, double fu, double fv, double fw, uint32_t layer, uint32_t c[4],
			 bool *unmapped)
{
	bool is3d = t->type == V_SQ_RSRC_IMG_3D;
	if (filt == V_SQ_TEX_XY_FILTER_POINT) {
		int64_t x = wrap(sp->clamp[0], (int64_t)floor(fu), lv->width);
		int64_t y = wrap(sp->clamp[1], (int64_t)floor(fv), lv->height);
		int64_t z = is3d ? wrap(sp->clamp[2], (int64_t)floor(fw), lv->depth) : layer;
		if (x < 0 || y < 0 || z < 0)
			border_texel(sp->border, c);
		else if (!texel(t, lv, mem, (uint32_t)x, (uint32_t)y, (uint32_t)z, c))
			*unmapped = true;
		return;
	}
	double x0 = floor(fu - 0.5), y0 = floor(fv - 0.5), z0 = is3d ? floor(fw - 0.5) : 0;
	double a = fu - 0.5 - x0, b = fv - 0.5 - y0, g = is3d ? fw - 0.5 - z0 : 0, acc[4] = { 0, 0, 0, 0 };
	for (unsigned k = 0; k < (is3d ? 8u : 4u); k++) {
		int64_t x = wrap(sp->clamp[0], (int64_t)x0 + (k & 1), lv->width);
		int64_t y = wrap(sp->clamp[1], (int64_t)y0 + (k >> 1 & 1), lv->height);
		int64_t z = is3d ? wrap(sp->clamp[2], (int64_t)z0 + (k >> 2), lv->depth) : layer;
		double wgt = ((k & 1) ? a : 1 - a) * ((k >> 1 & 1) ? b : 1 - b) * ((k >> 2) ? g : 1 - g);
		uint32_t tx[4] = { 0, 0, 0, 0 };
		if (x < 0 || y < 0 || z < 0)
			border_texel(sp->border, tx);
		else if (!texel(t, lv, mem, (uint32_t)x, (uint32_t)y, (uint32_t)z, tx))
			*unmapped = true;
		for (unsigned ch = 0; ch < 4; ch++)
			acc[ch] += wgt * f32(tx[ch]);
	}
	for (unsigned ch = 0; ch < 4; ch++)
		c[ch] = u32((float)acc[ch]);
}

/* The level of detail of lane l (GL 4.6 §8.14.1): the given one
 * (image_sample_l, in register lod_reg), else log2 of rho from the
 * shader's derivatives (image_sample_d, from register grad_reg), else in
 * a pixel shader log2 of
 * the larger length of the quad's coordinate derivatives in texels of the
 * base level (eq. 8.7, with w for 3D images; computed exactly, where GCN
 * approximates; vc: the first coordinate register), elsewhere 0; plus the
 * sampler's LOD_BIAS and the shader's (image_sample_b, in register
 * bias_reg), their sum clamped to [-16, 16] (GL's bias_max, radeonsi's
 * MAX_TEXTURE_LOD_BIAS), the result clamped to [MIN_LOD, MAX_LOD]. */
static double lane_lod(const struct gm_wave *w, const struct gm_wave_env *env, bool explicit_lod, unsigned vc,
		       unsigned lod_reg, int bias_reg, int grad_reg, unsigned l, const double size[3],
		       const struct tsamp *sp)
{
	double lod = 0, bias = sp->bias;
	if (explicit_lod) {
		lod = f32(w->v[lod_reg][l]);
	} else if (grad_reg >= 0) {
		/* image_sample_d: the shader's ds/dx, dt/dx, ds/dy, dt/dy (a 2D
		 * image or array), the same rho */
		double dx = 0, dy = 0;
		for (unsigned k = 0; k < 2; k++) {
			double ddx = f32(w->v[grad_reg + k][l]) * size[k], ddy = f32(w->v[grad_reg + 2 + k][l]) * size[k];
			dx += ddx * ddx;
			dy += ddy * ddy;
		}
		double rho = sqrt(fmax(dx, dy));
		lod = rho > 0 ? log2(rho) : -INFINITY;
	} else if (env->interp) {
		unsigned q = l & ~3u;
		double dx = 0, dy = 0;
		for (unsigned k = 0; k < 3; k++) {
			double ddx = (f32(w->v[vc + k][q + 1]) - f32(w->v[vc + k][q])) * size[k];
			double ddy = (f32(w->v[vc + k][q + 2]) - f32(w->v[vc + k][q])) * size[k];
			if (!size[k])
				continue;
			dx += ddx * ddx;
			dy += ddy * ddy;
		}
		double rho = sqrt(fmax(dx, dy));
		lod = rho > 0 ? log2(rho) : -INFINITY;
	}
	if (isnan(lod))
		lod = 0;
	if (bias_reg >= 0 && !isnan(f32(w->v[bias_reg][l])))
		bias += f32(w->v[bias_reg][l]);
	lod += bias < -16 ? -16 : bias > 16 ? 16 : bias;
	return lod < sp->min_lod ? sp->min_lod : lod > sp->max_lod ? sp->max_lod : lod;
}

/* Sampled value of lane l at (st) plus the texel offset off: magnification at LOD <= 0 (GL's c = 0, GCN's
 * rule), else minification from the level(s) the LOD selects (GL 4.6
 * §8.14.3: nearest d = base + ceil(lod + 1/2) - 1, linear between
 * base + floor(lod) and the next, both clamped to LAST_LEVEL). */
static void sample_lane(const struct timg *t, const struct tsamp *sp, struct gm_mem *mem, const double st[3],
			const int off[3], uint32_t layer, double lod, uint32_t c[4], bool *unmapped)
{
	unsigned filt = lod > 0 ? sp->min : sp->mag, d = t->base_level, d2 = d;
	double frac = 0;
	if (lod > 0 && sp->mip == V_SQ_TEX_Z_FILTER_POINT) {
		double k = lod <= 0.5 ? 0 : ceil(lod + 0.5) - 1;
		d = k >= t->last_level - t->base_level ? t->last_level : t->base_level + (unsigned)k;
	} else if (lod > 0 && sp->mip == V_SQ_TEX_Z_FILTER_LINEAR) {
		double k = floor(lod);
		if (k >= t->last_level - t->base_level) {
			d = d2 = t->last_level;
		} else {
			d = t->base_level + (unsigned)k;
			d2 = d + 1;
			frac = lod - k;
		}
	}
	for (unsigned n = 0; n < (d2 != d ? 2u : 1u); n++) {
		struct tlevel lv = tlevel(t, n ? d2 : d);
		uint32_t cc[4];
		/* the texel offset is added in the level's texel space, before
		 * the wrap (GL 4.6 §8.14.2, u = s w + delta_u) */
		double s = (sp->unnorm ? st[0] : st[0] * lv.width) + off[0];
		double tt = (sp->unnorm ? st[1] : st[1] * lv.height) + off[1];
		double r = (sp->unnorm ? st[2] : st[2] * lv.depth) + off[2];
		sample_level(t, &lv, sp, filt, mem, s, tt, r, layer, n ? cc : c, unmapped);
		if (n)
			for (unsigned ch = 0; ch < 4; ch++)
				c[ch] = u32((float)((1 - frac) * f32(c[ch]) + frac * f32(cc[ch])));
	}
}

/* image_gather4_lz(_o) of lane l (GL's textureGather, GL 4.6 §8.14.2):
 * the four texels of the bilinear footprint at the base level, i0 =
 * wrap(floor(u - 1/2)), j0 likewise, i1 = wrap(i0 + 1), j1 = wrap(j0 + 1),
 * whatever the filters; x, y, z, w = (i0, j1), (i1, j1), (i1, j0),
 * (i0, j0), each its channel `ch` after the T#'s DST_SEL. */
static void gather_lane(const struct timg *t, const struct tsamp *sp, struct gm_mem *mem, const double st[3],
			const int off[3], uint32_t layer, unsigned ch, uint32_t res[4], bool *unmapped)
{
	static const unsigned di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
	struct tlevel lv = tlevel(t, t->base_level);
	double u = (sp->unnorm ? st[0] : st[0] * lv.width) + off[0] - 0.5;
	double v = (sp->unnorm ? st[1] : st[1] * lv.height) + off[1] - 0.5;
	int64_t i0 = (int64_t)floor(u), j0 = (int64_t)floor(v);
	unsigned s = t->sel[ch];

	for (unsigned k = 0; k < 4; k++) {
		int64_t x = wrap(sp->clamp[0], i0 + di[k], lv.width), y = wrap(sp->clamp[1], j0 + dj[k], lv.height);
		uint32_t c[4] = { 0, 0, 0, 0 };
		if (x < 0 || y < 0)
			border_texel(sp->border, c);
		else if (!texel(t, &lv, mem, (uint32_t)x, (uint32_t)y, layer, c))
			*unmapped = true;
		res[k] = s >= V_SQ_SEL_X ? c[s - V_SQ_SEL_X] : s == V_SQ_SEL_1 ? (t->is_int ? 1u : 0x3f800000u) : 0;
	}
}

/* image_get_resinfo (GL's textureSize): the size of level BASE_LEVEL +
 * v[c] as integers, width, height (1D: 0), depth (3D), layers (2D array)
 * or faces (cube), else 0, then the number of levels (1 for a 2D MSAA
 * image), as GCN returns them; the channels dmask enables, packed. */
static void resinfo(struct gm_wave *w, const struct isa_inst *in, const struct timg *t)
{
	const unsigned vd = in->dst - ISA_OPD_VGPR0, va = in->src[0] - ISA_OPD_VGPR0;
	const uint64_t exec = gm_wave_exec(w);

	for (unsigned l = 0; l < 64; l++) {
		uint32_t mip = w->v[va][l], c[4], r = 0;
		if (!(exec >> l & 1))
			continue;
		struct tlevel lv = tlevel(t, t->base_level + (mip < 16 ? mip : 15));
		c[0] = lv.width;
		c[1] = t->type == V_SQ_RSRC_IMG_1D ? 0 : lv.height;
		c[2] = t->type == V_SQ_RSRC_IMG_3D || t->type == V_SQ_RSRC_IMG_2D_ARRAY ||
		       t->type == V_SQ_RSRC_IMG_CUBE ? lv.depth : 0;
		c[3] = t->last_level - t->base_level + 1;
		for (unsigned ch = 0; ch < 4; ch++)
			if (in->imm >> ch & 1)
				w->v[vd + r++][l] = c[ch];
	}
}

void gm_wave_exec_img(struct gm_wave *w, const struct gm_dinst *dd, const struct gm_wave_env *env, uint64_t pc_va)
{
	const struct isa_inst *in = &dd->i;
	const char *name = isa_ops[in->op].name, *why = NULL;
	const unsigned vd = in->dst - ISA_OPD_VGPR0, va = in->src[0] - ISA_OPD_VGPR0;
	const bool offset = in->op == ISA_OP_IMAGE_SAMPLE_O || in->op == ISA_OP_IMAGE_SAMPLE_L_O ||
			    in->op == ISA_OP_IMAGE_SAMPLE_B_O || in->op == ISA_OP_IMAGE_SAMPLE_D_O ||
			    in->op == ISA_OP_IMAGE_GATHER4_LZ_O;
	const bool gather = in->op == ISA_OP_IMAGE_GATHER4_LZ || in->op == ISA_OP_IMAGE_GATHER4_LZ_O;
	const bool biased = in->op == ISA_OP_IMAGE_SAMPLE_B || in->op == ISA_OP_IMAGE_SAMPLE_B_O;
	const bool grads = in->op == ISA_OP_IMAGE_SAMPLE_D || in->op == ISA_OP_IMAGE_SAMPLE_D_O;
	/* GCN's address order: the offset, the bias, the derivatives (4: 2D
	 * images and arrays), the coordinates, the LOD */
	const unsigned da = in->flags & ISA_FLAG_DA ? 1 : 0, vb = va + offset, vg = vb + biased;
	const unsigned vc = vg + (grads ? 4 : 0), lod_reg = vc + 2 + da;
	uint64_t exec = gm_wave_exec(w);
	bool sample = in->op != ISA_OP_IMAGE_LOAD && in->op != ISA_OP_IMAGE_LOAD_MIP;
	bool with_lod = in->op == ISA_OP_IMAGE_SAMPLE_L || in->op == ISA_OP_IMAGE_SAMPLE_L_O ||
			in->op == ISA_OP_IMAGE_LOAD_MIP, unmapped = false;
	struct tsamp sp;
	struct timg t;
	bool is_1d, is_3d, is_array, is_msaa;
	uint32_t res[64][4];

	memset(&sp, 0, sizeof sp);
	if (!timg_read(w, in->src[1], &t, &why)) {
		fault(env, w, pc_va, name, why);
		return;
	}
	is_1d = t.type == V_SQ_RSRC_IMG_1D;
	is_3d = t.type == V_SQ_RSRC_IMG_3D;
	/* a cube is sampled as the array of its faces: the shader computed
	 * the face and the coordinates on it (GCN's v_cube* do that) */
	is_array = t.type == V_SQ_RSRC_IMG_2D_ARRAY || t.type == V_SQ_RSRC_IMG_CUBE;
	is_msaa = t.type == V_SQ_RSRC_IMG_2D_MSAA;
	if (in->op == ISA_OP_IMAGE_GET_RESINFO) {
		if (da) {
			fault(env, w, pc_va, name, "da on image_get_resinfo (it has one operand, the level)");
			return;
		}
		resinfo(w, in, &t);
		return;
	}
	if (is_msaa && in->op != ISA_OP_IMAGE_LOAD) {
		fault(env, w, pc_va, name, "a 2D MSAA image is only read by image_load (x, y, sample)");
		return;
	}
	if (gather && (is_1d || is_3d || t.type == V_SQ_RSRC_IMG_CUBE || (in->imm & (in->imm - 1)))) {
		fault(env, w, pc_va, name, "a gather of other than one channel (dmask) of a 2D image or 2D array");
		return;
	}
	if (grads && (is_1d || is_3d || t.type == V_SQ_RSRC_IMG_CUBE)) {
		fault(env, w, pc_va, name, "derivatives of other than a 2D image or 2D array are not modelled");
		return;
	}
	if (da != (is_3d || is_array || is_msaa)) {
		fault(env, w, pc_va, name, da ? "da (a third coordinate) on a 1D or 2D image"
					      : "a 3D, 2D array, cube or 2D MSAA image without da (its third coordinate)");
		return;
	}
	if (sample) {
		tsamp_read(&w->s[in->src[2]], &sp);
		if (sp.border == V_SQ_TEX_BORDER_COLOR_REGISTER)
			why = "border colours from the border-colour table are not modelled";
		else if (t.is_int && !gather && (sp.mag || sp.min || sp.mip == V_SQ_TEX_Z_FILTER_LINEAR))
			why = "linear filtering of an integer format";
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
			/* texelFetch: integer coordinates (layer) and level
			 * (relative to BASE_LEVEL); outside the image, its layers,
			 * its levels or its samples reads 0 */
			uint32_t x = w->v[va][l], y = is_1d ? 0 : w->v[va + 1][l], z = da ? w->v[va + 2][l] : 0;
			uint32_t mip = with_lod ? w->v[lod_reg][l] : 0;
			if (is_msaa) {
				struct tlevel lv = tlevel(&t, 0);
				/* sample z of pixel (x, y): the samples of a pixel
				 * follow each other (docs/isa.md "Surfaces") */
				if (x < lv.width && y < lv.height && z < t.samples) {
					lv.base += (uint64_t)z * t.bytes;
					if (!texel(&t, &lv, env->mem, x, y, 0, c))
						unmapped = true;
				}
			} else if (mip <= t.last_level - t.base_level) {
				struct tlevel lv = tlevel(&t, t.base_level + mip);
				if (x < lv.width && y < lv.height && z < lv.depth && !texel(&t, &lv, env->mem, x, y, z, c))
					unmapped = true;
			}
		} else {
			struct tlevel b = tlevel(&t, t.base_level);
			double st[3] = { f32(w->v[vc][l]), is_1d ? 0.5 : f32(w->v[vc + 1][l]), is_3d ? f32(w->v[vc + 2][l]) : 0 };
			double size[3] = { sp.unnorm ? 1 : b.width, is_1d ? 0 : sp.unnorm ? 1 : b.height,
					   !is_3d ? 0 : sp.unnorm ? 1 : b.depth };
			uint32_t layer = 0, o = offset ? w->v[va][l] : 0;
			/* signed 6-bit x, y, z at bits 0, 8, 16 */
			int off[3] = { (int)((o & 0x3f) ^ 0x20) - 0x20, (int)((o >> 8 & 0x3f) ^ 0x20) - 0x20,
				       is_3d ? (int)((o >> 16 & 0x3f) ^ 0x20) - 0x20 : 0 };
			double lod = lane_lod(w, env, with_lod, vc, lod_reg, biased ? (int)vb : -1, grads ? (int)vg : -1,
					      l, size, &sp);
			if (is_array) {
				/* GL 4.6 §8.14.2: layer = clamp(floor(r + 1/2), 0, d - 1) */
				double r = floor(f32(w->v[vc + 2][l]) + 0.5);
				layer = !(r > 0) ? 0 : r >= t.depth ? t.depth - 1 : (uint32_t)r;
			}
			if (!isfinite(st[0]) || !isfinite(st[1]) || !isfinite(st[2]))
				st[0] = st[1] = st[2] = 0;
			if (is_1d)
				off[1] = 0;
			if (gather) {
				unsigned ch = in->imm & 1 ? 0 : in->imm & 2 ? 1 : in->imm & 4 ? 2 : 3;
				gather_lane(&t, &sp, env->mem, st, off, layer, ch, res[l], &unmapped);
				continue;
			}
			sample_lane(&t, &sp, env->mem, st, off, layer, lod, c, &unmapped);
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
	/* dmask: the enabled channels, packed into consecutive registers
	 * (gather4: its four texels) */
	for (unsigned l = 0; l < 64; l++) {
		unsigned r = 0;
		if (!(exec >> l & 1))
			continue;
		for (unsigned ch = 0; ch < 4; ch++)
			if (gather || (in->imm >> ch & 1))
				w->v[vd + r++][l] = res[l][ch];
	}
}
