/*
 * drv_pm4_fb.c - surfaces: render targets and depth / stencil buffers in
 * GPU memory, the framebuffer a draw renders into, clears and read-backs.
 *
 * Layout (docs/isa.md, "Pixel shaders"): linear, rows of `pitch` pixels
 * (pitch aligned to 8 pixels, as CB_COLORn_PITCH.TILE_MAX counts it), row
 * 0 first in memory and row y = GL window y, the samples of a pixel
 * consecutive; a format with stencil keeps it in a plane of one byte per
 * sample after the depth plane (DB_STENCIL_*_BASE, as GCN separates depth
 * and stencil).
 *
 * Clears: the model has no DMA_DATA fill, and a clear draw needs the
 * pixel pipeline; the hardware layer submits what is pending (submission
 * is synchronous, docs/architecture.md) and fills the rectangle from the
 * CPU, which keeps the order of the GPU's work as a CP fill would.  The
 * values are converted to the surface format as CB converts what a pixel
 * shader exports (GL 4.6 §17.3.x / §2.3.5: UNORM = round(clamp(c) * max),
 * float16 round-to-nearest-even).
 *
 * Surfaces drawn into by a draw the model cannot rasterize are marked
 * (drv_pipe_surface.unfaithful) so that the state tracker can say a read
 * of them is not what GL would return.
 */
#include <math.h>
#include <string.h>

#include "drv_hw.h"
#include "xt_fault.h"

static const struct drv_pipe_format_info infos[] = {
	[DRV_FORMAT_NONE] = { 0 },
	[DRV_FORMAT_RGBA8_UNORM] = { .bytes = 4, .components = 4 },
	[DRV_FORMAT_RG8_UNORM] = { .bytes = 2, .components = 2 },
	[DRV_FORMAT_R8_UNORM] = { .bytes = 1, .components = 1 },
	[DRV_FORMAT_RGBA16_FLOAT] = { .bytes = 8, .components = 4, .is_float = true },
	[DRV_FORMAT_RGBA32_FLOAT] = { .bytes = 16, .components = 4, .is_float = true },
	[DRV_FORMAT_RG32_FLOAT] = { .bytes = 8, .components = 2, .is_float = true },
	[DRV_FORMAT_R32_FLOAT] = { .bytes = 4, .components = 1, .is_float = true },
	[DRV_FORMAT_RGBA32_UINT] = { .bytes = 16, .components = 4, .is_uint = true },
	[DRV_FORMAT_RGBA32_SINT] = { .bytes = 16, .components = 4, .is_sint = true },
	[DRV_FORMAT_R32_UINT] = { .bytes = 4, .components = 1, .is_uint = true },
	[DRV_FORMAT_R32_SINT] = { .bytes = 4, .components = 1, .is_sint = true },
	[DRV_FORMAT_Z16_UNORM] = { .bytes = 2, .depth = true },
	[DRV_FORMAT_Z24_UNORM_S8_UINT] = { .bytes = 4, .depth = true, .stencil = true },
	[DRV_FORMAT_Z24_UNORM] = { .bytes = 4, .depth = true },
	[DRV_FORMAT_Z32_FLOAT] = { .bytes = 4, .depth = true, .is_float = true },
	[DRV_FORMAT_Z32_FLOAT_S8_UINT] = { .bytes = 4, .depth = true, .stencil = true, .is_float = true },
	[DRV_FORMAT_S8_UINT] = { .bytes = 0, .stencil = true },
};

const struct drv_pipe_format_info *drv_pipe_format_info(enum drv_pipe_format f)
{
	if ((unsigned)f >= sizeof infos / sizeof infos[0])
		f = DRV_FORMAT_NONE;
	return &infos[f];
}

bool drv_pipe_surface_alloc(struct drv_pipe_screen *screen, struct drv_pipe_surface *surf,
			    enum drv_pipe_format format, uint32_t width, uint32_t height,
			    uint32_t samples)
{
	const struct drv_pipe_format_info *fi = drv_pipe_format_info(format);
	uint32_t pitch = (width + 7u) & ~7u;
	uint64_t pixels, plane, stencil_at, size;
	struct drv_bo *bo;

	if (!samples)
		samples = 1;
	if (!pitch)
		pitch = 8;
	/* rows rounded up to 8: CB_COLORn_SLICE / DB_DEPTH_SIZE count 8x8 tiles */
	pixels = (uint64_t)pitch * (((height ? height : 1) + 7u) & ~7u) * samples;
	plane = pixels * fi->bytes;
	stencil_at = fi->stencil ? (plane + 255u) & ~(uint64_t)255 : 0;
	size = fi->stencil ? stencil_at + pixels : plane;
	bo = drv_bo_create(screen, size, 256);
	if (!bo)
		return false;
	drv_pipe_surface_release(screen, surf);
	*surf = (struct drv_pipe_surface){
		.bo = bo, .format = format, .width = width, .height = height,
		.samples = samples, .pitch = pitch, .stencil_offset = stencil_at,
	};
	return true;
}

void drv_pipe_surface_release(struct drv_pipe_screen *screen, struct drv_pipe_surface *surf)
{
	drv_bo_destroy(screen, surf->bo);
	memset(surf, 0, sizeof *surf);
}

void drv_pipe_set_framebuffer(struct drv_pipe *pipe, const struct drv_pipe_framebuffer *fb)
{
	if (memcmp(&pipe->fb, fb, sizeof *fb))
		pipe->dirty |= 1u << DRV_ATOM_FRAMEBUFFER;
	pipe->fb = *fb;
}

/* ---- format conversion (what CB and DB store, what a read returns) -------------------- */

static uint32_t unorm(float c, uint32_t max)
{
	if (!(c > 0.0f))          /* NaN too: GL leaves it undefined, 0 is the hardware's */
		return 0;
	if (c >= 1.0f)
		return max;
	return (uint32_t)floor((double)c * max + 0.5);
}

/* float -> binary16, round to nearest even; overflow to infinity. */
static uint16_t half_of(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = x >> 16 & 0x8000u, e = x >> 23 & 0xFFu, m = x & 0x7FFFFFu;
	if (e == 0xFF)
		return (uint16_t)(sign | 0x7C00u | (m ? 0x200u | m >> 13 : 0));
	int exp = (int)e - 127 + 15;
	if (exp >= 31)
		return (uint16_t)(sign | 0x7C00u);
	if (exp <= 0) {
		if (exp < -10)
			return (uint16_t)sign;
		m |= 0x800000u;
		unsigned shift = (unsigned)(14 - exp);
		uint32_t h = m >> shift, rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rest > half || (rest == half && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
	uint32_t h = (uint32_t)exp << 10 | m >> 13, rest = m & 0x1FFFu;
	if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
		h++;                      /* may carry into the exponent: still right */
	return (uint16_t)(sign | h);
}

static float float_of_half(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = h >> 10 & 0x1Fu, m = h & 0x3FFu, x;
	if (e == 0x1F) {
		x = sign | 0x7F800000u | m << 13;
	} else if (e) {
		x = sign | (e + 112u) << 23 | m << 13;
	} else {
		float f = ldexpf((float)m, -24);
		return sign ? -f : f;
	}
	float f;
	memcpy(&f, &x, 4);
	return f;
}

/* The bytes of one colour sample of format f holding v. */
static void pack_color(enum drv_pipe_format f, const union drv_pipe_color *v, uint8_t *out)
{
	const struct drv_pipe_format_info *fi = drv_pipe_format_info(f);
	for (unsigned c = 0; c < fi->components; c++) {
		switch (f) {
		case DRV_FORMAT_RGBA8_UNORM: case DRV_FORMAT_RG8_UNORM: case DRV_FORMAT_R8_UNORM:
			out[c] = (uint8_t)unorm(v->f[c], 255);
			break;
		case DRV_FORMAT_RGBA16_FLOAT: {
			uint16_t h = half_of(v->f[c]);
			memcpy(out + 2 * c, &h, 2);
			break;
		}
		default:                  /* 32-bit components: float or integer bits */
			memcpy(out + 4 * c, &v->u[c], 4);
			break;
		}
	}
}

static void unpack_color(enum drv_pipe_format f, const uint8_t *in, union drv_pipe_color *v)
{
	const struct drv_pipe_format_info *fi = drv_pipe_format_info(f);
	if (fi->is_uint || fi->is_sint)
		*v = (union drv_pipe_color){ .u = { 0, 0, 0, 1 } };
	else
		*v = (union drv_pipe_color){ .f = { 0, 0, 0, 1 } };
	for (unsigned c = 0; c < fi->components; c++) {
		switch (f) {
		case DRV_FORMAT_RGBA8_UNORM: case DRV_FORMAT_RG8_UNORM: case DRV_FORMAT_R8_UNORM:
			v->f[c] = in[c] / 255.0f;
			break;
		case DRV_FORMAT_RGBA16_FLOAT: {
			uint16_t h;
			memcpy(&h, in + 2 * c, 2);
			v->f[c] = float_of_half(h);
			break;
		}
		default:
			memcpy(&v->u[c], in + 4 * c, 4);
			break;
		}
	}
}

/* The rectangle clipped to the surface; false when empty. */
static bool clip(const struct drv_pipe_surface *s, const struct drv_pipe_rect *r,
		 struct drv_pipe_rect *out)
{
	out->x0 = r->x0 < 0 ? 0 : r->x0;
	out->y0 = r->y0 < 0 ? 0 : r->y0;
	out->x1 = r->x1 > (int32_t)s->width ? (int32_t)s->width : r->x1;
	out->y1 = r->y1 > (int32_t)s->height ? (int32_t)s->height : r->y1;
	return out->x0 < out->x1 && out->y0 < out->y1;
}

static bool whole(const struct drv_pipe_surface *s, const struct drv_pipe_rect *r)
{
	return r->x0 == 0 && r->y0 == 0 && r->x1 == (int32_t)s->width && r->y1 == (int32_t)s->height;
}

/* ---- clears ------------------------------------------------------------------------------ */

void drv_pipe_clear_color(struct drv_pipe *pipe, struct drv_pipe_surface *surf,
			  const struct drv_pipe_rect *rect, unsigned mask,
			  const union drv_pipe_color *value)
{
	const struct drv_pipe_format_info *fi = drv_pipe_format_info(surf->format);
	struct drv_pipe_rect r;
	uint8_t px[16];
	unsigned comp_bytes = fi->components ? fi->bytes / fi->components : 0;

	if (!surf->bo || !fi->components || !clip(surf, rect, &r))
		return;
	mask &= (1u << fi->components) - 1;
	if (!mask)
		return;
	drv_pipe_flush(pipe);
	pack_color(surf->format, value, px);
	for (int32_t y = r.y0; y < r.y1; y++) {
		uint8_t *row = surf->bo->map + ((uint64_t)y * surf->pitch + (uint64_t)r.x0) *
						       surf->samples * fi->bytes;
		for (uint32_t i = 0; i < (uint32_t)(r.x1 - r.x0) * surf->samples; i++, row += fi->bytes) {
			for (unsigned c = 0; c < fi->components; c++)
				if (mask >> c & 1)
					memcpy(row + c * comp_bytes, px + c * comp_bytes, comp_bytes);
		}
	}
	if (whole(surf, &r) && mask == (1u << fi->components) - 1) {
		struct drv_pipe_surface_events *ev = &pipe->surface_events;
		surf->unfaithful = NULL;
		if (ev->ncleared < DRV_PIPE_CLEARED_MAX)
			ev->cleared[ev->ncleared++] = surf->bo->va;
		else
			ev->more_cleared = true;
	}
}

void drv_pipe_note_loose(struct drv_pipe *pipe, const struct drv_pipe_surface *surf,
			 const struct drv_pipe_rect *rect, bool undefined)
{
	struct drv_pipe_surface_events *ev = &pipe->surface_events;
	struct drv_pipe_rect r;

	if (!surf->bo || !clip(surf, rect, &r))
		return;
	if (ev->nloose == DRV_PIPE_LOOSE_MAX) {
		ev->more_loose = true;
		return;
	}
	ev->loose[ev->nloose++] = (struct drv_pipe_loose){ surf->bo->va, r, undefined };
}

void drv_pipe_note_copy(struct drv_pipe *pipe, const struct drv_pipe_surface *src,
			const struct drv_pipe_surface *dst, const struct drv_pipe_rect *rect, int32_t mx,
			int32_t my, int32_t ox, int32_t oy)
{
	struct drv_pipe_surface_events *ev = &pipe->surface_events;
	struct drv_pipe_rect r;

	if (!src->bo || !dst->bo || !clip(dst, rect, &r))
		return;
	if (ev->ncopies == DRV_PIPE_LOOSE_MAX) {
		ev->more_copies = true;
		return;
	}
	ev->copies[ev->ncopies++] = (struct drv_pipe_copy){ src->bo->va, dst->bo->va, r, mx, my, ox, oy };
}

void drv_pipe_take_surface_events(struct drv_pipe *pipe, struct drv_pipe_surface_events *out)
{
	*out = pipe->surface_events;
	pipe->surface_events = (struct drv_pipe_surface_events){ 0 };
}

void drv_pipe_clear_depth_stencil(struct drv_pipe *pipe, struct drv_pipe_surface *surf,
				  const struct drv_pipe_rect *rect, bool clear_depth, double depth,
				  uint8_t stencil_mask, uint8_t stencil)
{
	const struct drv_pipe_format_info *fi = drv_pipe_format_info(surf->format);
	struct drv_pipe_rect r;
	float d = (float)(depth < 0 ? 0 : depth > 1 ? 1 : depth);
	uint32_t dv = 0;

	if (!surf->bo || !clip(surf, rect, &r))
		return;
	clear_depth = clear_depth && fi->depth;
	if (!fi->stencil)
		stencil_mask = 0;
	if (!clear_depth && !stencil_mask)
		return;
	drv_pipe_flush(pipe);
	switch (surf->format) {
	case DRV_FORMAT_Z16_UNORM: dv = unorm(d, 0xFFFFu); break;
	case DRV_FORMAT_Z24_UNORM: case DRV_FORMAT_Z24_UNORM_S8_UINT: dv = unorm(d, 0xFFFFFFu); break;
	default: memcpy(&dv, &d, 4); break;
	}
	for (int32_t y = r.y0; y < r.y1; y++) {
		uint64_t first = ((uint64_t)y * surf->pitch + (uint64_t)r.x0) * surf->samples;
		uint32_t n = (uint32_t)(r.x1 - r.x0) * surf->samples;
		if (clear_depth) {
			uint8_t *p = surf->bo->map + first * fi->bytes;
			for (uint32_t i = 0; i < n; i++, p += fi->bytes)
				memcpy(p, &dv, fi->bytes);
		}
		if (stencil_mask) {
			uint8_t *p = surf->bo->map + surf->stencil_offset + first;
			for (uint32_t i = 0; i < n; i++)
				p[i] = (uint8_t)((p[i] & ~stencil_mask) | (stencil & stencil_mask));
		}
	}
	if (whole(surf, &r) && clear_depth == fi->depth && (!fi->stencil || stencil_mask == 0xFF))
		surf->unfaithful = NULL;
}

/* ---- read-back ----------------------------------------------------------------------------- */

bool drv_pipe_surface_read(struct drv_pipe *pipe, struct drv_pipe_surface *surf,
			   const struct drv_pipe_rect *rect, enum drv_pipe_read what,
			   union drv_pipe_color *out)
{
	const struct drv_pipe_format_info *fi = drv_pipe_format_info(surf->format);
	bool ok = what == DRV_READ_COLOR ? fi->components > 0
		: what == DRV_READ_DEPTH ? fi->depth : fi->stencil;

	if (!surf->bo || !ok || rect->x0 < 0 || rect->y0 < 0 || rect->x1 > (int32_t)surf->width ||
	    rect->y1 > (int32_t)surf->height) {
		drv_hw_unsupported(pipe, "reading a surface outside its pixels or without that data");
		return false;
	}
	drv_pipe_flush(pipe);
	if (what == DRV_READ_COLOR)
		pipe->surface_events.read = surf->bo->va;
	for (int32_t y = rect->y0; y < rect->y1; y++) {
		for (int32_t x = rect->x0; x < rect->x1; x++, out++) {
			uint64_t sample = ((uint64_t)y * surf->pitch + (uint64_t)x) * surf->samples;
			const uint8_t *p = surf->bo->map + sample * fi->bytes;
			uint32_t v = 0;
			switch (what) {
			case DRV_READ_COLOR:
				unpack_color(surf->format, p, out);
				break;
			case DRV_READ_DEPTH:
				memcpy(&v, p, fi->bytes);
				*out = (union drv_pipe_color){ 0 };
				if (surf->format == DRV_FORMAT_Z16_UNORM) {
					out->u[1] = v & 0xFFFFu;
					out->u[2] = 16;
				} else if (!fi->is_float) {
					out->u[1] = v & 0xFFFFFFu;
					out->u[2] = 24;
				}
				if (fi->is_float)
					memcpy(&out->f[0], &v, 4);
				else
					out->f[0] = (float)(out->u[1] / (double)((1u << out->u[2]) - 1));
				break;
			case DRV_READ_STENCIL:
				*out = (union drv_pipe_color){ .u = { surf->bo->map[surf->stencil_offset + sample] } };
				break;
			}
		}
	}
	return true;
}

/* ---- draws ----------------------------------------------------------------------------------- */

void drv_pm4_fb_drawn(struct drv_pipe *pipe, const struct drv_program *prog)
{
	const char *why = drv_pm4_ps_unusable(pipe, prog);

	if (!why)
		return;
	for (unsigned i = 0; i < 8; i++)
		if (pipe->fb.cbufs[i])
			pipe->fb.cbufs[i]->unfaithful = why;
	if (pipe->fb.zsbuf)
		pipe->fb.zsbuf->unfaithful = why;
}
