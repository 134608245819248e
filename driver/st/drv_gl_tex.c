/*
 * drv_gl_tex.c - what a 2D texture holds for sampling (GL 4.6 §8): its mip
 * levels' texels, kept in the format the hardware samples (RGBA8, RG8, R8
 * UNORM, sRGB8 / sRGB8_A8 as RGBA8 the sampler decodes, RGBA16F, RGBA32F,
 * RG32F, R32F, RGBA32UI / I, R32UI / I; RGB formats stored with four
 * components), its parameters (filters, wraps,
 * LOD range, base and max level), glTexImage2D / glTexStorage2D /
 * glTexSubImage2D uploads with the unpack state (alignment, row length,
 * skips; GL 4.6 §8.4.4.1) from client memory or a pixel unpack buffer,
 * glGenerateMipmap (a 2x2 box filter, sRGB formats averaged in linear
 * space: GL 4.6 §8.14.4 leaves the filter to the implementation), and the sampler view a draw hands the hardware
 * layer: the levels base..q of a complete texture (GL 4.6 §8.17) one after
 * the other in GPU memory, or "incomplete", which samples (0, 0, 0, 1)
 * (§11.1.3.5).
 *
 * A texture whose level 0 was rendered into (drv_gl_fb.c gives it a
 * surface) keeps level 0 in the surface: uploads to level 0 write it
 * there too, and sampling and mipmap generation read it from there.
 */
#include <math.h>
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

/* Sampled formats: the internal format, how the hardware holds it, the
 * GL components it has (R, RG, RGB, RGBA) and whether it is integer. */
struct tex_format {
	GLenum internalformat;
	enum drv_pipe_format hw;
	uint8_t comps;
	bool srgb;             /* sRGB-encoded RGB (GL 4.6 §8.24) */
};

static const struct tex_format tex_formats[] = {
	{ GL_RGBA8, DRV_FORMAT_RGBA8_UNORM, 4, false }, { GL_RGB8, DRV_FORMAT_RGBA8_UNORM, 3, false },
	{ GL_RG8, DRV_FORMAT_RG8_UNORM, 2, false }, { GL_R8, DRV_FORMAT_R8_UNORM, 1, false },
	{ GL_SRGB8_ALPHA8, DRV_FORMAT_RGBA8_UNORM, 4, true }, { GL_SRGB8, DRV_FORMAT_RGBA8_UNORM, 3, true },
	{ GL_RGBA16F, DRV_FORMAT_RGBA16_FLOAT, 4, false }, { GL_RGB16F, DRV_FORMAT_RGBA16_FLOAT, 3, false },
	{ GL_RGBA32F, DRV_FORMAT_RGBA32_FLOAT, 4, false }, { GL_RGB32F, DRV_FORMAT_RGBA32_FLOAT, 3, false },
	{ GL_RG32F, DRV_FORMAT_RG32_FLOAT, 2, false }, { GL_R32F, DRV_FORMAT_R32_FLOAT, 1, false },
	{ GL_RGBA32UI, DRV_FORMAT_RGBA32_UINT, 4, false }, { GL_RGB32UI, DRV_FORMAT_RGBA32_UINT, 3, false },
	{ GL_R32UI, DRV_FORMAT_R32_UINT, 1, false },
	{ GL_RGBA32I, DRV_FORMAT_RGBA32_SINT, 4, false }, { GL_RGB32I, DRV_FORMAT_RGBA32_SINT, 3, false },
	{ GL_R32I, DRV_FORMAT_R32_SINT, 1, false },
};

static const struct tex_format *tex_format(GLenum internalformat)
{
	for (size_t i = 0; i < sizeof tex_formats / sizeof tex_formats[0]; i++)
		if (tex_formats[i].internalformat == internalformat)
			return &tex_formats[i];
	return NULL;
}

/* The sized format of an unsized glTexImage2D internal format, as Mesa
 * chooses it for the data's type; the format itself when it is sized. */
static GLenum sized(GLint internalformat, GLenum type)
{
	bool f = type == GL_FLOAT, ub = type == GL_UNSIGNED_BYTE;
	switch (internalformat) {
	case GL_RGBA: case 4: return ub ? GL_RGBA8 : f ? GL_RGBA32F : GL_NONE;
	case GL_RGB: case 3: return ub ? GL_RGB8 : f ? GL_RGB32F : GL_NONE;
	case GL_RG: return ub ? GL_RG8 : f ? GL_RG32F : GL_NONE;
	case GL_RED: return ub ? GL_R8 : f ? GL_R32F : GL_NONE;
	case GL_BGRA: return ub ? GL_RGBA8 : GL_NONE;   /* GLES EXT_texture_format_BGRA8888 */
	default: return (GLenum)internalformat;
	}
}

struct tex_level {
	GLenum format;                 /* internal format; GL_NONE: no image */
	uint8_t faces;                 /* cube maps: bit f, face f was specified */
	uint32_t width, height, depth; /* depth: 3D depth, array layers, else 1 */
	uint8_t *texels;               /* hw format, rows of width texels, slices of
					* height rows one after the other */
};

#define TEX_LEVELS 15u

struct drv_tex {
	GLenum target;                 /* GL_TEXTURE_2D, _2D_ARRAY or _3D */
	struct tex_level level[TEX_LEVELS];
	struct drv_tex_params params;
	GLint immutable_levels;        /* glTexStorage2D's levels, 0: mutable */
	struct drv_pipe_buffer store;  /* what the last sampler view pointed at */
	bool store_valid;              /* it holds the current levels base..q */
	GLint store_base, store_q;
};

void drv_tex_params_init(struct drv_tex_params *p)
{
	memset(p, 0, sizeof *p);
	p->min_filter = GL_NEAREST_MIPMAP_LINEAR;
	p->mag_filter = GL_LINEAR;
	p->wrap_s = p->wrap_t = p->wrap_r = GL_REPEAT;
	p->min_lod = -1000;
	p->max_lod = 1000;
	p->max_level = 1000;
}

/* GL 4.6 §8.10 / §8.2: the values each parameter accepts. */
static bool is_filter(GLenum f, bool min)
{
	return f == GL_NEAREST || f == GL_LINEAR ||
	       (min && (f == GL_NEAREST_MIPMAP_NEAREST || f == GL_LINEAR_MIPMAP_NEAREST ||
			f == GL_NEAREST_MIPMAP_LINEAR || f == GL_LINEAR_MIPMAP_LINEAR));
}

static bool is_wrap(GLenum w)
{
	return w == GL_REPEAT || w == GL_MIRRORED_REPEAT || w == GL_CLAMP_TO_EDGE ||
	       w == GL_MIRROR_CLAMP_TO_EDGE || w == GL_CLAMP_TO_BORDER;
}

bool drv_tex_params_set(struct drv_context *ctx, struct drv_tex_params *p, GLenum pname, const GLint *iv,
			const GLfloat *fv)
{
	GLint i = iv ? iv[0] : (GLint)lrintf(fv[0]);
	float f = fv ? fv[0] : (float)iv[0];
	switch (pname) {
	case GL_TEXTURE_MIN_FILTER: case GL_TEXTURE_MAG_FILTER:
		if (!is_filter((GLenum)i, pname == GL_TEXTURE_MIN_FILTER))
			drv_gl_error(ctx, GL_INVALID_ENUM);
		else if (pname == GL_TEXTURE_MIN_FILTER)
			p->min_filter = (GLenum)i;
		else
			p->mag_filter = (GLenum)i;
		return true;
	case GL_TEXTURE_WRAP_S: case GL_TEXTURE_WRAP_T: case GL_TEXTURE_WRAP_R:
		if (!is_wrap((GLenum)i))
			drv_gl_error(ctx, GL_INVALID_ENUM);
		else if (pname == GL_TEXTURE_WRAP_S)
			p->wrap_s = (GLenum)i;
		else if (pname == GL_TEXTURE_WRAP_T)
			p->wrap_t = (GLenum)i;
		else
			p->wrap_r = (GLenum)i;
		return true;
	case GL_TEXTURE_BORDER_COLOR:
		for (unsigned k = 0; k < 4; k++)
			p->border[k] = fv ? fv[k] : (float)iv[k] / 2147483647.0f;   /* GL 4.6 eq. 2.2 */
		return true;
	case GL_TEXTURE_MIN_LOD: p->min_lod = f; return true;
	case GL_TEXTURE_MAX_LOD: p->max_lod = f; return true;
	case GL_TEXTURE_LOD_BIAS: p->lod_bias = f; return true;
	case GL_TEXTURE_BASE_LEVEL: case GL_TEXTURE_MAX_LEVEL:
		if (i < 0)
			drv_gl_error(ctx, GL_INVALID_VALUE);
		else if (pname == GL_TEXTURE_BASE_LEVEL)
			p->base_level = i;
		else
			p->max_level = i;
		return true;
	default:
		return false;
	}
}

static struct drv_tex *tex_get(struct drv_tex **t)
{
	if (!*t && (*t = xt_calloc(1, sizeof **t)))
		drv_tex_params_init(&(*t)->params);
	return *t;
}

void drv_tex_free(struct drv_context *ctx, struct drv_tex *t)
{
	if (!t)
		return;
	for (unsigned l = 0; l < TEX_LEVELS; l++)
		xt_free(t->level[l].texels);
	drv_pipe_buffer_release(ctx->screen->hw, &t->store);
	xt_free(t);
}

/* ---- texel conversion ---------------------------------------------------------------- */

static uint16_t f32_to_f16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xFF, m = x & 0x7FFFFFu;
	if (e == 0xFF)
		return (uint16_t)(sign | 0x7C00u | (m ? 0x200u : 0));
	int32_t ne = (int32_t)e - 127 + 15;
	if (ne >= 31)
		return (uint16_t)(sign | 0x7C00u);
	if (ne <= 0) {             /* subnormal or zero: round to nearest even */
		if (ne < -10)
			return (uint16_t)sign;
		m |= 0x800000u;
		uint32_t shift = (uint32_t)(14 - ne), r = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (r & 1)))
			r++;
		return (uint16_t)(sign | r);
	}
	uint32_t r = ((uint32_t)ne << 10) | (m >> 13), rem = m & 0x1FFFu;
	if (rem > 0x1000u || (rem == 0x1000u && (r & 1)))
		r++;                   /* may carry into the exponent: correct */
	return (uint16_t)(sign | r);
}

static float f16_to_f32(uint16_t h)
{
	uint32_t e = (h >> 10) & 0x1F, m = h & 0x3FF;
	float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 0x400), (int)e - 25);
	return (h & 0x8000) ? -v : v;
}

/* sRGB transfer functions (GL 4.6 eq. 8.17 and its inverse). */
static float srgb_to_linear(float c)
{
	return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float linear_to_srgb(float l)
{
	return l <= 0.0031308f ? l * 12.92f : 1.055f * powf(l, 1.0f / 2.4f) - 0.055f;
}

/* One texel as GL's RGBA: floats (normalized and float formats) or the
 * integers' bits. */
union rgba {
	float f[4];
	uint32_t u[4];
};

static void hw_store(enum drv_pipe_format hw, const union rgba *c, uint8_t *p)
{
	const struct drv_pipe_format_info *fi = drv_pipe_format_info(hw);
	for (unsigned i = 0; i < fi->components; i++) {
		if (hw == DRV_FORMAT_RGBA8_UNORM || hw == DRV_FORMAT_RG8_UNORM || hw == DRV_FORMAT_R8_UNORM) {
			float v = c->f[i] != c->f[i] ? 0 : c->f[i] < 0 ? 0 : c->f[i] > 1 ? 1 : c->f[i];
			p[i] = (uint8_t)lrintf(v * 255.0f);
		} else if (hw == DRV_FORMAT_RGBA16_FLOAT) {
			uint16_t h = f32_to_f16(c->f[i]);
			memcpy(p + 2 * i, &h, 2);
		} else {
			memcpy(p + 4 * i, &c->u[i], 4);
		}
	}
}

static void hw_load(enum drv_pipe_format hw, const uint8_t *p, union rgba *c)
{
	const struct drv_pipe_format_info *fi = drv_pipe_format_info(hw);
	c->f[0] = c->f[1] = c->f[2] = 0;
	c->f[3] = 1;
	for (unsigned i = 0; i < fi->components; i++) {
		if (hw == DRV_FORMAT_RGBA8_UNORM || hw == DRV_FORMAT_RG8_UNORM || hw == DRV_FORMAT_R8_UNORM) {
			c->f[i] = p[i] / 255.0f;
		} else if (hw == DRV_FORMAT_RGBA16_FLOAT) {
			uint16_t h;
			memcpy(&h, p + 2 * i, 2);
			c->f[i] = f16_to_f32(h);
		} else {
			memcpy(&c->u[i], p + 4 * i, 4);
		}
	}
}

/* The client's pixel layout (GL 4.6 tables 8.3 / 8.5): the GL component
 * (0..3 = R..A) of each of its n components. */
static bool client_format(GLenum format, unsigned *n, int comp[4], bool *integer)
{
	static const struct { GLenum f; unsigned n; int c[4]; bool integer; } t[] = {
		{ GL_RED, 1, { 0 }, false }, { GL_RG, 2, { 0, 1 }, false }, { GL_RGB, 3, { 0, 1, 2 }, false },
		{ GL_BGR, 3, { 2, 1, 0 }, false }, { GL_RGBA, 4, { 0, 1, 2, 3 }, false },
		{ GL_BGRA, 4, { 2, 1, 0, 3 }, false },
		{ GL_RED_INTEGER, 1, { 0 }, true }, { GL_RG_INTEGER, 2, { 0, 1 }, true },
		{ GL_RGB_INTEGER, 3, { 0, 1, 2 }, true }, { GL_RGBA_INTEGER, 4, { 0, 1, 2, 3 }, true },
		{ GL_BGRA_INTEGER, 4, { 2, 1, 0, 3 }, true },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].f == format) {
			*n = t[i].n;
			memcpy(comp, t[i].c, sizeof t[i].c);
			*integer = t[i].integer;
			return true;
		}
	return false;
}

static unsigned type_bytes(GLenum type)
{
	switch (type) {
	case GL_UNSIGNED_BYTE: case GL_BYTE: return 1;
	case GL_UNSIGNED_SHORT: case GL_SHORT: case GL_HALF_FLOAT: return 2;
	case GL_UNSIGNED_INT: case GL_INT: case GL_FLOAT: return 4;
	default: return 0;
	}
}

/* Component k of a client pixel: as a float (GL 4.6 §8.4.4.2 and eq. 2.1
 * / 2.2 for normalized fixed point) or, for integer formats, its bits. */
static void client_component(GLenum type, const uint8_t *p, bool integer, union rgba *c, int to)
{
	int64_t i = 0;
	float f = 0;
	switch (type) {
	case GL_UNSIGNED_BYTE: i = p[0]; f = (float)i / 255.0f; break;
	case GL_BYTE: i = (int8_t)p[0]; f = fmaxf((float)i / 127.0f, -1.0f); break;
	case GL_UNSIGNED_SHORT: { uint16_t v; memcpy(&v, p, 2); i = v; f = (float)v / 65535.0f; break; }
	case GL_SHORT: { int16_t v; memcpy(&v, p, 2); i = v; f = fmaxf((float)v / 32767.0f, -1.0f); break; }
	case GL_UNSIGNED_INT: { uint32_t v; memcpy(&v, p, 4); i = v; f = (float)((double)v / 4294967295.0); break; }
	case GL_INT: { int32_t v; memcpy(&v, p, 4); i = v; f = fmaxf((float)((double)v / 2147483647.0), -1.0f); break; }
	case GL_FLOAT: memcpy(&f, p, 4); i = (int64_t)f; break;
	case GL_HALF_FLOAT: { uint16_t v; memcpy(&v, p, 2); f = f16_to_f32(v); i = (int64_t)f; break; }
	}
	if (integer)
		c->u[to] = (uint32_t)i;
	else
		c->f[to] = f;
}

/* The bytes of the client's image (a pointer into client memory or into the
 * bound pixel unpack buffer), NULL when there are none. */
static const uint8_t *client_bytes(struct drv_context *ctx, const void *pixels)
{
	if (ctx->pixel_unpack) {
		uint8_t *map = drv_pipe_buffer_map(&ctx->pixel_unpack->store);
		return map ? map + (uintptr_t)pixels : NULL;
	}
	return pixels;
}

/* One client pixel of n components (GL components comp[]) at p, stored
 * as a texel of format f at out. */
static void client_texel(const struct tex_format *f, GLenum type, unsigned n, const int comp[4], bool integer,
			 const uint8_t *p, uint8_t *out)
{
	union rgba c = { .f = { 0, 0, 0, 1 } };
	if (integer)
		c.u[3] = 1;
	for (unsigned k = 0; k < n; k++)
		client_component(type, p + type_bytes(type) * k, integer, &c, comp[k]);
	if (f->comps < 4)         /* RGB formats: alpha reads 1 */
		c.u[3] = integer ? 1 : 0x3f800000u;
	hw_store(f->hw, &c, out);
}

/* Writes the client's w x h x d image into rows of `pitch` texels, slices
 * of `rows` rows, of format f at (x, y, z) of dst.  False with *why for a
 * format / type it cannot read. */
static bool unpack(struct drv_context *ctx, const struct tex_format *f, uint8_t *dst, uint32_t pitch,
		   uint32_t rows, const struct drv_tex_box *b, GLenum format, GLenum type, const uint8_t *src,
		   const char **why)
{
	const GLint x = b->x, y = b->y, z = b->z;
	const GLsizei w = b->w, h = b->h, d = b->d;
	const struct drv_pixel_state *px = &ctx->px;
	unsigned n, s = type_bytes(type), bpp = drv_pipe_format_info(f->hw)->bytes;
	int comp[4];
	bool integer, hw_int = drv_pipe_format_info(f->hw)->is_uint || drv_pipe_format_info(f->hw)->is_sint;
	uint64_t row_len, stride, image;

	if (!client_format(format, &n, comp, &integer) || !s) {
		*why = "a texel upload of this format / type (packed types, luminance, alpha or depth data)";
		return false;
	}
	if (integer != hw_int) {
		*why = "a texel upload mixing integer and non-integer formats (GL_INVALID_OPERATION)";
		return false;
	}
	row_len = px->unpack_row_length ? (uint64_t)px->unpack_row_length : (uint64_t)w;
	stride = (uint64_t)s * n * row_len;
	if (s < (unsigned)px->unpack_alignment)
		stride = (stride + (uint64_t)px->unpack_alignment - 1) / (uint64_t)px->unpack_alignment *
			 (uint64_t)px->unpack_alignment;
	/* GL 4.6 §8.5.1: images of UNPACK_IMAGE_HEIGHT rows (else h) */
	image = stride * (uint64_t)(px->unpack_image_height ? px->unpack_image_height : h);
	src += image * (uint64_t)px->unpack_skip_images + stride * (uint64_t)px->unpack_skip_rows +
	       (uint64_t)s * n * (uint64_t)px->unpack_skip_pixels;
	for (GLsizei i = 0; i < d; i++)
	for (GLsizei r = 0; r < h; r++)
		for (GLsizei col = 0; col < w; col++) {
			const uint8_t *p = src + image * (uint64_t)i + stride * (uint64_t)r + (uint64_t)s * n * (uint64_t)col;
			client_texel(f, type, n, comp, integer, p, dst + (((uint64_t)(z + i) * rows + (uint64_t)(y + r)) *
									  pitch + (uint64_t)(x + col)) * bpp);
		}
	return true;
}

/* ---- levels ---------------------------------------------------------------------------- */

/* Texels of level l and their row pitch: level 0 from the surface it was
 * rendered into, if any. */
static uint8_t *level_texels(struct drv_tex *t, unsigned l, const struct drv_pipe_surface *surf0, uint32_t *pitch)
{
	if (l == 0 && surf0 && surf0->bo && surf0->samples == 1) {
		struct drv_pipe_buffer b = { surf0->bo };
		*pitch = surf0->pitch;
		return drv_pipe_buffer_map(&b);
	}
	*pitch = t->level[l].width;
	return t->level[l].texels;
}

bool drv_tex_image(struct drv_context *ctx, struct drv_tex **tp, GLenum target, GLint level, GLint internalformat,
		   GLsizei w, GLsizei h, GLsizei d, GLenum format, GLenum type, const void *pixels,
		   const char **why)
{
	const struct drv_tex_box box = { 0, 0, 0, w, h, d };
	GLenum sf = sized(internalformat, type);
	const struct tex_format *f = tex_format(sf);
	struct drv_tex *t = tex_get(tp);
	struct tex_level *lv;
	const uint8_t *src;
	uint8_t *texels;

	*why = NULL;
	if (!t) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return false;
	}
	if (level < 0 || (unsigned)level >= TEX_LEVELS)
		return true;
	t->target = target;
	lv = &t->level[level];
	t->store_valid = false;
	xt_free(lv->texels);
	lv->texels = NULL;
	lv->format = sf;
	lv->width = (uint32_t)w;
	lv->height = (uint32_t)h;
	lv->depth = (uint32_t)d;
	lv->faces = target == GL_TEXTURE_CUBE_MAP ? 0x3F : 0;
	if (!f || !w || !h || !d)
		return true;       /* not sampled: reported if a draw samples it */
	texels = xt_calloc((size_t)w * (size_t)h * (size_t)d, drv_pipe_format_info(f->hw)->bytes);
	if (!texels) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return false;
	}
	lv->texels = texels;
	src = pixels || ctx->pixel_unpack ? client_bytes(ctx, pixels) : NULL;
	if (src && !unpack(ctx, f, texels, (uint32_t)w, (uint32_t)h, &box, format, type, src, why))
		return false;
	return true;
}

bool drv_tex_sub_image(struct drv_context *ctx, struct drv_tex *t, GLint level, const struct drv_tex_box *b,
		       GLenum format, GLenum type, const void *pixels, struct drv_pipe_surface *surf0,
		       const char **why)
{
	const struct tex_format *f;
	const uint8_t *src;
	struct tex_level *lv;

	*why = NULL;
	if (!t || level < 0 || (unsigned)level >= TEX_LEVELS || !b->w || !b->h || !b->d)
		return true;
	lv = &t->level[level];
	f = tex_format(lv->format);
	if (!f || !lv->texels || b->x < 0 || b->y < 0 || b->z < 0 || (uint32_t)(b->x + b->w) > lv->width ||
	    (uint32_t)(b->y + b->h) > lv->height || (uint32_t)(b->z + b->d) > lv->depth)
		return true;
	src = client_bytes(ctx, pixels);
	if (!src)
		return true;
	t->store_valid = false;
	if (!unpack(ctx, f, lv->texels, lv->width, lv->height, b, format, type, src, why))
		return false;
	if (level == 0 && surf0 && surf0->bo) {
		uint32_t pitch;
		uint8_t *p = level_texels(t, 0, surf0, &pitch);
		if (surf0->format != f->hw || !p) {
			*why = "a texel upload into a texture rendered into in another format";
			return false;
		}
		drv_pipe_flush(ctx->pipe);
		return unpack(ctx, f, p, pitch, lv->height, b, format, type, src, why);
	}
	return true;
}

bool drv_tex_level_size(const struct drv_tex *t, GLint level, uint32_t s[3])
{
	const struct tex_level *lv;
	if (!t || level < 0 || (unsigned)level >= TEX_LEVELS || !(lv = &t->level[level])->format)
		return false;
	s[0] = lv->width;
	s[1] = lv->height;
	s[2] = lv->depth;
	return true;
}

/* GL 4.6 §8.21 (glClearTexSubImage): every texel of the box of a level
 * becomes the one texel `data` holds in format / type (not subject to
 * the unpack state), zero when data is NULL. */
bool drv_tex_clear(struct drv_context *ctx, struct drv_tex *t, GLint level, const struct drv_tex_box *b,
		   GLenum format, GLenum type, const void *data, struct drv_pipe_surface *surf0, const char **why)
{
	static const uint8_t zeros[16];
	const struct tex_format *f;
	struct tex_level *lv;
	uint8_t texel[16];
	unsigned n, bpp;
	int comp[4];
	bool integer;

	*why = NULL;
	if (!t || level < 0 || (unsigned)level >= TEX_LEVELS || !t->level[level].format) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);  /* no image at that level */
		return false;
	}
	lv = &t->level[level];
	if (b->x < 0 || b->y < 0 || b->z < 0 || b->w < 0 || b->h < 0 || b->d < 0 ||
	    (int64_t)b->x + b->w > lv->width || (int64_t)b->y + b->h > lv->height ||
	    (int64_t)b->z + b->d > lv->depth) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	if (!(f = tex_format(lv->format)) || !lv->texels) {
		*why = "glClearTexImage of a texture of this internal format";
		return false;
	}
	if (!client_format(format, &n, comp, &integer) || !type_bytes(type)) {
		*why = "glClearTexImage with this format / type (packed types, luminance, alpha or depth data)";
		return false;
	}
	if (integer != (drv_pipe_format_info(f->hw)->is_uint || drv_pipe_format_info(f->hw)->is_sint)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	client_texel(f, type, n, comp, integer, data ? (const uint8_t *)data : zeros, texel);
	bpp = drv_pipe_format_info(f->hw)->bytes;
	t->store_valid = false;
	for (GLsizei i = 0; i < b->d; i++)
		for (GLsizei r = 0; r < b->h; r++)
			for (GLsizei col = 0; col < b->w; col++)
				memcpy(lv->texels + (((uint64_t)(b->z + i) * lv->height + (uint64_t)(b->y + r)) * lv->width +
						     (uint64_t)(b->x + col)) * bpp, texel, bpp);
	if (level == 0 && surf0 && surf0->bo) {
		uint32_t pitch;
		uint8_t *p = level_texels(t, 0, surf0, &pitch);
		if (surf0->format != f->hw || !p) {
			*why = "glClearTexImage of a texture rendered into in another format";
			return false;
		}
		drv_pipe_flush(ctx->pipe);
		for (GLsizei r = 0; r < b->h; r++)
			for (GLsizei col = 0; col < b->w; col++)
				memcpy(p + ((uint64_t)(b->y + r) * pitch + (uint64_t)(b->x + col)) * bpp, texel, bpp);
	}
	return true;
}

bool drv_tex_cube_face(struct drv_context *ctx, struct drv_tex **tp, unsigned face, GLint level,
		       GLint internalformat, GLsizei w, GLsizei h, GLenum format, GLenum type, const void *pixels,
		       const char **why)
{
	GLenum sf = sized(internalformat, type);
	const struct drv_tex_box box = { 0, 0, (GLint)face, w, h, 1 };
	struct drv_tex *t = tex_get(tp);
	struct tex_level *lv;
	const uint8_t *src;

	*why = NULL;
	if (!t) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return false;
	}
	if (level < 0 || (unsigned)level >= TEX_LEVELS)
		return true;
	lv = &t->level[level];
	if (lv->format != sf || lv->width != (uint32_t)w || lv->height != (uint32_t)h || lv->depth != 6 ||
	    (!lv->texels && tex_format(sf) && w && h)) {
		if (!drv_tex_image(ctx, tp, GL_TEXTURE_CUBE_MAP, level, (GLint)sf, w, h, 6, format, type, NULL, why))
			return false;
		lv->faces = 0;
	}
	lv->faces |= (uint8_t)(1u << face);
	t->store_valid = false;
	src = pixels || ctx->pixel_unpack ? client_bytes(ctx, pixels) : NULL;
	if (!src || !lv->texels)
		return true;
	return unpack(ctx, tex_format(sf), lv->texels, lv->width, lv->height, &box, format, type, src, why);
}

void drv_tex_storage(struct drv_tex *t, GLsizei levels)
{
	if (t)
		t->immutable_levels = levels;
}

/* Level l's texels copied into a surface just made for it (rendering into
 * the texture's level 0); false when they cannot be (another format). */
bool drv_tex_fill_surface(struct drv_tex *t, struct drv_pipe_surface *surf)
{
	struct drv_pipe_buffer b = { surf->bo };
	const struct tex_level *lv = t ? &t->level[0] : NULL;
	const struct tex_format *f = lv ? tex_format(lv->format) : NULL;
	uint8_t *dst = drv_pipe_buffer_map(&b);
	unsigned bpp;
	if (!f || !lv->texels || !dst || f->hw != surf->format || surf->samples != 1 ||
	    lv->width != surf->width || lv->height != surf->height)
		return false;
	bpp = drv_pipe_format_info(f->hw)->bytes;
	for (uint32_t r = 0; r < lv->height; r++)
		memcpy(dst + (uint64_t)r * surf->pitch * bpp, lv->texels + (uint64_t)r * lv->width * bpp,
		       (size_t)lv->width * bpp);
	return true;
}

static bool mipmapped(GLenum min_filter)
{
	return min_filter != GL_NEAREST && min_filter != GL_LINEAR;
}

/* GL 4.6 §8.14.3: p = floor(log2(max size of the base level)) + base. */
static bool is_3d(const struct drv_tex *t)
{
	return t->target == GL_TEXTURE_3D;
}

/* The size of level l below level b (GL 4.6 §8.14.3: the layers of an
 * array are not minified). */
static void level_size(const struct drv_tex *t, const struct tex_level *b, GLint n, uint32_t s[3])
{
	s[0] = b->width >> n ? b->width >> n : 1;
	s[1] = b->height >> n ? b->height >> n : 1;
	s[2] = !is_3d(t) ? b->depth : b->depth >> n ? b->depth >> n : 1;
}

/* GL 4.6 §8.14.3: p = floor(log2(maxsize)) + base, 3D's depth included. */
static GLint level_p(const struct drv_tex *t, const struct tex_level *b, GLint base)
{
	uint32_t m = b->width > b->height ? b->width : b->height;
	if (is_3d(t) && b->depth > m)
		m = b->depth;
	GLint p = base;
	while (m > 1) {
		m >>= 1;
		p++;
	}
	return p;
}

bool drv_tex_generate_mipmap(struct drv_context *ctx, struct drv_tex *t, const struct drv_pipe_surface *surf0,
			     const char **why)
{
	const struct drv_tex_params *pr = t ? &t->params : NULL;
	const struct tex_format *f;
	GLint base, q;

	*why = NULL;
	if (!t)
		return true;
	base = pr->base_level;
	if (base < 0 || (unsigned)base >= TEX_LEVELS || !t->level[base].format || !t->level[base].width)
		return true;
	f = tex_format(t->level[base].format);
	if (!f) {
		*why = "glGenerateMipmap of a texture whose format the sim does not sample";
		return false;
	}
	if (drv_pipe_format_info(f->hw)->is_uint || drv_pipe_format_info(f->hw)->is_sint) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);    /* GL 4.6 §8.14.4: integer formats */
		return true;
	}
	q = level_p(t, &t->level[base], base);
	if (q > pr->max_level)
		q = pr->max_level;
	if (t->immutable_levels && q > t->immutable_levels - 1)
		q = t->immutable_levels - 1;
	if (q >= (GLint)TEX_LEVELS)
		q = TEX_LEVELS - 1;
	if (surf0 && surf0->bo && base == 0)
		drv_pipe_flush(ctx->pipe);
	for (GLint l = base + 1; l <= q; l++) {
		const struct tex_level *up = &t->level[l - 1];
		struct tex_level *lv = &t->level[l];
		uint32_t w = up->width > 1 ? up->width / 2 : 1, h = up->height > 1 ? up->height / 2 : 1, upitch;
		uint32_t d = !is_3d(t) ? up->depth : up->depth > 1 ? up->depth / 2 : 1;
		unsigned bpp = drv_pipe_format_info(f->hw)->bytes, nz = is_3d(t) && up->depth > 1 ? 2u : 1u;
		const uint8_t *src = level_texels(t, (unsigned)l - 1, surf0, &upitch);
		uint8_t *dst = xt_calloc((size_t)w * h * d, bpp);
		if (!dst || !src) {
			xt_free(dst);
			if (!src)
				return true;
			drv_gl_error(ctx, GL_OUT_OF_MEMORY);
			return true;
		}
		/* each texel the mean of the 2x2 (2x1, 1x2; 3D: 2x2x2) texels
		 * above it, each layer of an array on its own */
		for (uint32_t z = 0; z < d; z++)
		for (uint32_t y = 0; y < h; y++)
			for (uint32_t x = 0; x < w; x++) {
				union rgba acc = { .f = { 0, 0, 0, 0 } }, c;
				unsigned n = 0;
				for (uint32_t dz = 0; dz < nz; dz++)
				for (uint32_t dy = 0; dy < (up->height > 1 ? 2u : 1u); dy++)
					for (uint32_t dx = 0; dx < (up->width > 1 ? 2u : 1u); dx++) {
						uint32_t sx = 2 * x + dx < up->width ? 2 * x + dx : up->width - 1;
						uint32_t sy = 2 * y + dy < up->height ? 2 * y + dy : up->height - 1;
						uint32_t sz = !is_3d(t) ? z : 2 * z + dz < up->depth ? 2 * z + dz : up->depth - 1;
						hw_load(f->hw, src + (((uint64_t)sz * up->height + sy) * upitch + sx) * bpp, &c);
						for (unsigned k = 0; k < 4; k++)   /* sRGB: in linear space */
							acc.f[k] += f->srgb && k < 3 ? srgb_to_linear(c.f[k]) : c.f[k];
						n++;
					}
				for (unsigned k = 0; k < 4; k++) {
					acc.f[k] /= (float)n;
					if (f->srgb && k < 3)
						acc.f[k] = linear_to_srgb(acc.f[k]);
				}
				hw_store(f->hw, &acc, dst + (((uint64_t)z * h + y) * w + x) * bpp);
			}
		xt_free(lv->texels);
		lv->texels = dst;
		lv->format = t->level[base].format;
		lv->width = w;
		lv->height = h;
		lv->depth = d;
		lv->faces = up->faces;
	}
	t->store_valid = false;
	return true;
}

struct drv_tex_params *drv_tex_params(struct drv_tex **tp)
{
	struct drv_tex *t = tex_get(tp);
	return t ? &t->params : NULL;     /* the store is keyed by base and q */
}

/* ---- sampling ------------------------------------------------------------------------- */

static enum drv_pipe_wrap wrap(GLenum w)
{
	switch (w) {
	case GL_MIRRORED_REPEAT: return DRV_WRAP_MIRRORED_REPEAT;
	case GL_CLAMP_TO_EDGE: return DRV_WRAP_CLAMP_TO_EDGE;
	case GL_MIRROR_CLAMP_TO_EDGE: return DRV_WRAP_MIRROR_CLAMP_TO_EDGE;
	case GL_CLAMP_TO_BORDER: return DRV_WRAP_CLAMP_TO_BORDER;
	default: return DRV_WRAP_REPEAT;
	}
}

/* The border colours GCN has without a border-colour table. */
static bool border(const float c[4], enum drv_pipe_border *b)
{
	if (!c[0] && !c[1] && !c[2] && (!c[3] || c[3] == 1)) {
		*b = c[3] ? DRV_BORDER_OPAQUE_BLACK : DRV_BORDER_TRANSPARENT_BLACK;
		return true;
	}
	if (c[0] == 1 && c[1] == 1 && c[2] == 1 && c[3] == 1) {
		*b = DRV_BORDER_OPAQUE_WHITE;
		return true;
	}
	return false;
}

bool drv_tex_view(struct drv_context *ctx, struct drv_tex *t, const struct drv_pipe_surface *surf0,
		  const struct drv_tex_params *sp, bool integer_sampler, struct drv_pipe_sampler_view *v,
		  const char **why)
{
	const struct drv_tex_params *tp = t ? &t->params : NULL;
	const struct tex_format *f;
	const struct tex_level *b;
	GLint base, q;
	bool is_int, mip;
	uint64_t bytes = 0;
	unsigned bpp;

	*why = NULL;
	memset(v, 0, sizeof *v);
	v->integer = integer_sampler;
	if (!t)
		return true;                  /* incomplete: no image */
	base = tp->base_level;
	if (base < 0 || (unsigned)base >= TEX_LEVELS || base > tp->max_level)
		return true;
	b = &t->level[base];
	if (!b->format || !b->width || !b->height || !b->depth)
		return true;
	/* GL 4.6 §8.17: cube complete: six square faces of one size and format */
	if (t->target == GL_TEXTURE_CUBE_MAP && (b->faces != 0x3F || b->width != b->height))
		return true;
	if (!(f = tex_format(b->format))) {
		*why = "sampling a texture of this internal format";
		return false;
	}
	is_int = drv_pipe_format_info(f->hw)->is_uint || drv_pipe_format_info(f->hw)->is_sint;
	mip = mipmapped(sp->min_filter);
	/* GL 4.6 §8.17: an integer format is complete with nearest filters only */
	if (is_int && (sp->mag_filter != GL_NEAREST ||
		       (sp->min_filter != GL_NEAREST && sp->min_filter != GL_NEAREST_MIPMAP_NEAREST)))
		return true;
	/* levels base..q (§8.14.3), which texelFetch reads whatever the
	 * filter (§11.1.3.5); a min filter with mipmaps needs them all */
	q = level_p(t, b, base);
	if (q > tp->max_level)
		q = tp->max_level;
	if (t->immutable_levels && q > t->immutable_levels - 1)
		q = t->immutable_levels - 1;
	if (q >= (GLint)TEX_LEVELS) {
		if (mip) {
			*why = "sampling more than 15 mip levels";
			return false;
		}
		q = TEX_LEVELS - 1;
	}
	for (GLint l = base + 1; l <= q; l++) {
		const struct tex_level *lv = &t->level[l];
		uint32_t s[3];
		level_size(t, b, l - base, s);
		if (lv->format != b->format || lv->width != s[0] || lv->height != s[1] || lv->depth != s[2] ||
		    !lv->texels || (t->target == GL_TEXTURE_CUBE_MAP && lv->faces != 0x3F)) {
			if (mip)
				return true;  /* not mipmap complete */
			q = l - 1;
			break;
		}
	}
	if (surf0 && surf0->bo && (surf0->format != f->hw || surf0->samples != 1)) {
		*why = "sampling a texture rendered into in another format or multisampled";
		return false;
	}
	if (!border(sp->border, &v->border) && (sp->wrap_s == GL_CLAMP_TO_BORDER || sp->wrap_t == GL_CLAMP_TO_BORDER ||
						 (is_3d(t) && sp->wrap_r == GL_CLAMP_TO_BORDER))) {
		*why = "a border colour other than (0,0,0,0), (0,0,0,1) and (1,1,1,1) (GCN's border-colour table is "
		       "not modelled)";
		return false;
	}
	bpp = drv_pipe_format_info(f->hw)->bytes;
	for (GLint l = base; l <= q; l++)
		bytes += (uint64_t)t->level[l].width * t->level[l].height * t->level[l].depth * bpp;
	/* level 0 in a surface may have changed since: copied at every draw */
	if (!t->store_valid || t->store_base != base || t->store_q != q || (base == 0 && surf0 && surf0->bo)) {
		uint64_t off = 0;
		uint8_t *dst;
		/* draws of this call still to run may read the old store
		 * (glMultiDraw*): they run first */
		drv_pipe_flush(ctx->pipe);
		if (!drv_pipe_buffer_alloc(ctx->screen->hw, &t->store, bytes, NULL)) {
			drv_gl_error(ctx, GL_OUT_OF_MEMORY);
			return false;
		}
		dst = drv_pipe_buffer_map(&t->store);
		for (GLint l = base; l <= q; l++) {
			const struct tex_level *lv = &t->level[l];
			uint32_t pitch;
			const uint8_t *src = level_texels(t, (unsigned)l, surf0, &pitch);
			for (uint32_t r = 0; src && r < lv->height * lv->depth; r++)
				memcpy(dst + off + (uint64_t)r * lv->width * bpp, src + (uint64_t)r * pitch * bpp,
				       (size_t)lv->width * bpp);
			off += (uint64_t)lv->width * lv->height * lv->depth * bpp;
		}
		t->store_valid = true;
		t->store_base = base;
		t->store_q = q;
	}
	v->buffer = &t->store;
	v->format = f->hw;
	v->srgb = f->srgb;
	v->target = t->target == GL_TEXTURE_3D ? DRV_TEX_3D : t->target == GL_TEXTURE_2D_ARRAY ? DRV_TEX_2D_ARRAY :
		    t->target == GL_TEXTURE_CUBE_MAP ? DRV_TEX_CUBE : DRV_TEX_2D;
	v->width = v->pitch = b->width;
	v->height = b->height;
	v->depth = b->depth;
	v->levels = (unsigned)(q - base + 1);
	for (unsigned c = 0; c < 4; c++)
		v->swizzle[c] = c < f->comps ? (uint8_t)c : c == 3 ? DRV_SWIZZLE_1 : DRV_SWIZZLE_0;
	v->wrap_s = wrap(sp->wrap_s);
	v->wrap_t = wrap(sp->wrap_t);
	v->wrap_r = wrap(sp->wrap_r);
	v->mag_linear = sp->mag_filter == GL_LINEAR;
	v->min_linear = sp->min_filter == GL_LINEAR || sp->min_filter == GL_LINEAR_MIPMAP_NEAREST ||
			sp->min_filter == GL_LINEAR_MIPMAP_LINEAR;
	v->mip = !mip ? DRV_MIP_NONE :
		 sp->min_filter == GL_NEAREST_MIPMAP_NEAREST || sp->min_filter == GL_LINEAR_MIPMAP_NEAREST ?
		 DRV_MIP_NEAREST : DRV_MIP_LINEAR;
	v->min_lod = sp->min_lod;
	v->max_lod = sp->max_lod;
	v->lod_bias = sp->lod_bias;
	return true;
}
