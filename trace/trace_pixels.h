/*
 * trace_pixels.h - framebuffer images as observations (issue 22): the one
 * description of a `pixels` observation (docs/trace-format.md,
 * "Observation kinds"), its validation, and the comparison of two images
 * under an image tolerance, for the replay check (replay/replay_check.c),
 * the diff of two runs (diff/) and the web UI.
 *
 * A `pixels` observation holds what glReadPixels (or glReadnPixels*)
 * returned: `width` x `height` pixels of `format` / `type`, row by row from
 * the bottom row (window y = `y`) up, each row `width * bytes per pixel`
 * bytes: the pixels the GL wrote, without the padding and skipped pixels
 * of the pack state (which is recorded beside them, `pack`, and is not
 * data the GL defined).
 *
 * Bytes per pixel is a fact the capture needs too (the size of the memory
 * glReadPixels writes, capture/cap_size.c) and the observation core
 * (observe/obs_pixels.c), which link none of trace/'s code: it is an
 * inline function here.  GL enum values are the Khronos registry's
 * (gl.xml), under a TRACE_PX_ prefix; capture/cap_size.c checks them
 * against the generated GL_* definitions at compile time.
 */
#ifndef TRACE_PIXELS_H
#define TRACE_PIXELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_format.h"
#include "xt_rc.h"

/* formats */
#define TRACE_PX_COLOR_INDEX 0x1900u
#define TRACE_PX_STENCIL_INDEX 0x1901u
#define TRACE_PX_DEPTH_COMPONENT 0x1902u
#define TRACE_PX_RED 0x1903u
#define TRACE_PX_GREEN 0x1904u
#define TRACE_PX_BLUE 0x1905u
#define TRACE_PX_ALPHA 0x1906u
#define TRACE_PX_RGB 0x1907u
#define TRACE_PX_RGBA 0x1908u
#define TRACE_PX_LUMINANCE 0x1909u
#define TRACE_PX_LUMINANCE_ALPHA 0x190au
#define TRACE_PX_ABGR_EXT 0x8000u
#define TRACE_PX_BGR 0x80e0u
#define TRACE_PX_BGRA 0x80e1u
#define TRACE_PX_RG 0x8227u
#define TRACE_PX_RG_INTEGER 0x8228u
#define TRACE_PX_DEPTH_STENCIL 0x84f9u
#define TRACE_PX_RED_INTEGER 0x8d94u
#define TRACE_PX_GREEN_INTEGER 0x8d95u
#define TRACE_PX_BLUE_INTEGER 0x8d96u
#define TRACE_PX_ALPHA_INTEGER 0x8d97u
#define TRACE_PX_RGB_INTEGER 0x8d98u
#define TRACE_PX_RGBA_INTEGER 0x8d99u
#define TRACE_PX_BGR_INTEGER 0x8d9au
#define TRACE_PX_BGRA_INTEGER 0x8d9bu
/* component types */
#define TRACE_PX_BYTE 0x1400u
#define TRACE_PX_UNSIGNED_BYTE 0x1401u
#define TRACE_PX_SHORT 0x1402u
#define TRACE_PX_UNSIGNED_SHORT 0x1403u
#define TRACE_PX_INT 0x1404u
#define TRACE_PX_UNSIGNED_INT 0x1405u
#define TRACE_PX_FLOAT 0x1406u
#define TRACE_PX_HALF_FLOAT 0x140bu
#define TRACE_PX_HALF_FLOAT_OES 0x8d61u
/* packed types: one value per pixel */
#define TRACE_PX_UNSIGNED_BYTE_3_3_2 0x8032u
#define TRACE_PX_UNSIGNED_SHORT_4_4_4_4 0x8033u
#define TRACE_PX_UNSIGNED_SHORT_5_5_5_1 0x8034u
#define TRACE_PX_UNSIGNED_INT_8_8_8_8 0x8035u
#define TRACE_PX_UNSIGNED_INT_10_10_10_2 0x8036u
#define TRACE_PX_UNSIGNED_BYTE_2_3_3_REV 0x8362u
#define TRACE_PX_UNSIGNED_SHORT_5_6_5 0x8363u
#define TRACE_PX_UNSIGNED_SHORT_5_6_5_REV 0x8364u
#define TRACE_PX_UNSIGNED_SHORT_4_4_4_4_REV 0x8365u
#define TRACE_PX_UNSIGNED_SHORT_1_5_5_5_REV 0x8366u
#define TRACE_PX_UNSIGNED_INT_8_8_8_8_REV 0x8367u
#define TRACE_PX_UNSIGNED_INT_2_10_10_10_REV 0x8368u
#define TRACE_PX_UNSIGNED_INT_24_8 0x84fau
#define TRACE_PX_UNSIGNED_INT_10F_11F_11F_REV 0x8c3bu
#define TRACE_PX_UNSIGNED_INT_5_9_9_9_REV 0x8c3eu
#define TRACE_PX_FLOAT_32_UNSIGNED_INT_24_8_REV 0x8dadu

/* Components of one pixel of `format` (GL 4.6 table 8.3), 0 if unknown. */
static inline unsigned trace_pixels_components(uint32_t format)
{
	switch (format) {
	case TRACE_PX_RED: case TRACE_PX_GREEN: case TRACE_PX_BLUE: case TRACE_PX_ALPHA:
	case TRACE_PX_LUMINANCE: case TRACE_PX_DEPTH_COMPONENT: case TRACE_PX_STENCIL_INDEX:
	case TRACE_PX_COLOR_INDEX: case TRACE_PX_RED_INTEGER: case TRACE_PX_GREEN_INTEGER:
	case TRACE_PX_BLUE_INTEGER: case TRACE_PX_ALPHA_INTEGER:
		return 1;
	case TRACE_PX_RG: case TRACE_PX_RG_INTEGER: case TRACE_PX_LUMINANCE_ALPHA:
	case TRACE_PX_DEPTH_STENCIL:
		return 2;
	case TRACE_PX_RGB: case TRACE_PX_BGR: case TRACE_PX_RGB_INTEGER: case TRACE_PX_BGR_INTEGER:
		return 3;
	case TRACE_PX_RGBA: case TRACE_PX_BGRA: case TRACE_PX_RGBA_INTEGER:
	case TRACE_PX_BGRA_INTEGER: case TRACE_PX_ABGR_EXT:
		return 4;
	default:
		return 0;
	}
}

/* Bytes of one component of unpacked `type`, 0 for packed or unknown. */
static inline unsigned trace_pixels_type_bytes(uint32_t type)
{
	switch (type) {
	case TRACE_PX_BYTE: case TRACE_PX_UNSIGNED_BYTE:
		return 1;
	case TRACE_PX_SHORT: case TRACE_PX_UNSIGNED_SHORT: case TRACE_PX_HALF_FLOAT:
	case TRACE_PX_HALF_FLOAT_OES:
		return 2;
	case TRACE_PX_INT: case TRACE_PX_UNSIGNED_INT: case TRACE_PX_FLOAT:
		return 4;
	default:
		return 0;
	}
}

/* Bytes of one packed pixel of `type` (GL 4.6 table 8.8), 0 if not packed. */
static inline unsigned trace_pixels_packed_bytes(uint32_t type)
{
	switch (type) {
	case TRACE_PX_UNSIGNED_BYTE_3_3_2: case TRACE_PX_UNSIGNED_BYTE_2_3_3_REV:
		return 1;
	case TRACE_PX_UNSIGNED_SHORT_5_6_5: case TRACE_PX_UNSIGNED_SHORT_5_6_5_REV:
	case TRACE_PX_UNSIGNED_SHORT_4_4_4_4: case TRACE_PX_UNSIGNED_SHORT_4_4_4_4_REV:
	case TRACE_PX_UNSIGNED_SHORT_5_5_5_1: case TRACE_PX_UNSIGNED_SHORT_1_5_5_5_REV:
		return 2;
	case TRACE_PX_UNSIGNED_INT_8_8_8_8: case TRACE_PX_UNSIGNED_INT_8_8_8_8_REV:
	case TRACE_PX_UNSIGNED_INT_10_10_10_2: case TRACE_PX_UNSIGNED_INT_2_10_10_10_REV:
	case TRACE_PX_UNSIGNED_INT_24_8: case TRACE_PX_UNSIGNED_INT_10F_11F_11F_REV:
	case TRACE_PX_UNSIGNED_INT_5_9_9_9_REV:
		return 4;
	case TRACE_PX_FLOAT_32_UNSIGNED_INT_24_8_REV:
		return 8;
	default:
		return 0;
	}
}

/* Bytes of one pixel of `format` / `type` in client memory, 0 if unknown
 * (GL_BITMAP, bits per pixel, is the caller's). */
static inline unsigned trace_pixels_bytes(uint32_t format, uint32_t type)
{
	const unsigned packed = trace_pixels_packed_bytes(type);

	return packed ? packed : trace_pixels_components(format) * trace_pixels_type_bytes(type);
}

/* A `pixels` observation, decoded and validated (trace_pixels_of). */
struct trace_pixels {
	int64_t x, y;              /* window coordinates of the first pixel */
	uint32_t width, height;
	uint32_t format, type;
	uint32_t bpp;              /* bytes per pixel */
	uint32_t channels;         /* values per pixel: components, or 1 when packed */
	uint32_t channel_bytes;    /* bytes per value */
	bool packed;               /* one packed value per pixel: compared exactly */
	const char *from;          /* "read" (glReadPixels*) or "swap"; borrowed */
	const uint8_t *data;       /* width * height * bpp bytes, bottom row first */
	size_t len;
	int64_t read_w, read_h;    /* `read_size`: the buffer read; -1: unknown */
};

struct trace_value;

/*
 * Whether `obs` (an OBSERVATION's MAP) is of kind `pixels`.
 */
bool trace_pixels_is(const struct trace_value *obs);

/*
 * Decodes and validates a `pixels` observation: every key of
 * docs/trace-format.md present with its tag, a known format / type, a
 * size that is width * height * bytes per pixel and no larger than
 * TRACE_PIXELS_MAX_BYTES.  XT_ERR_CORRUPT with the reason in `why` (n
 * bytes) otherwise.  The reader runs it on every `pixels` observation
 * (trace_reader_check_record), so every consumer rejects alike.
 */
#define TRACE_PIXELS_MAX_BYTES (UINT64_C(1) << 30)
enum xt_rc trace_pixels_of(const struct trace_value *obs, struct trace_pixels *px, char *why,
			   size_t n);

/*
 * The image tolerance: a pixel is within it when no value differs by more
 * than `max` (in the type's units: 0..255 for GL_UNSIGNED_BYTE, the float
 * itself for GL_FLOAT); an image is within it when at most `pixels` pixels
 * are not.  Packed types are compared exactly whatever `max` says.
 */
struct trace_img_tol {
	double max;
	uint64_t pixels;
};

/* Parses "max=X", "pixels=N" or both, comma-separated ("max=2,pixels=10");
 * false, and *t untouched, on anything else. */
bool trace_img_tol_parse(const char *s, struct trace_img_tol *t);

/* A differing pixel: window coordinates and both sides' values. */
struct trace_pixel_diff {
	int64_t x, y;
	double golden[4], replay[4];
	bool over;                 /* beyond the tolerance's max */
};

#define TRACE_PIXELS_FIRST 8

struct trace_pixels_cmp {
	bool comparable;           /* same size, format and type; else only `why` */
	const char *why;           /* what makes them incomparable, or NULL */
	/* Pixels outside the golden image's `read_size` whose bytes differ:
	 * GL leaves them undefined (GL 4.6 §18.2.8), so they are counted
	 * here only, not below; the first of them. */
	uint64_t undefined;
	struct trace_pixel_diff first_undefined;
	uint64_t differ;           /* pixels whose bytes differ (defined ones) */
	uint64_t over;             /* of them, beyond tol->max */
	double max_delta;          /* the largest value difference seen */
	bool within;               /* over <= tol->pixels */
	unsigned nfirst;           /* the first differing pixels, bottom row first, */
	struct trace_pixel_diff first[TRACE_PIXELS_FIRST];  /* beyond max first */
};

/* Whether pixel `i` (bottom row first) lies inside the buffer read, or
 * the observation does not say (no `read_size`). */
bool trace_pixels_defined(const struct trace_pixels *px, size_t i);

/* Compares golden `a` with `b` under `t` (NULL: exact). */
void trace_pixels_compare(const struct trace_pixels *a, const struct trace_pixels *b,
			  const struct trace_img_tol *t, struct trace_pixels_cmp *out);

/* Whether pixel `i` (bottom row first) of comparable images `a` and `b`
 * is one trace_pixels_compare counts in `over`: inside the buffer read,
 * its bytes differ, and a value by more than t->max (NULL: exact). */
bool trace_pixels_over(const struct trace_pixels *a, const struct trace_pixels *b,
		       const struct trace_img_tol *t, size_t i);

/* "(12, 7): golden 255 0 0 255, replay 254 0 0 255" for a report. */
void trace_pixel_diff_text(const struct trace_pixels *px, const struct trace_pixel_diff *d,
			   char *buf, size_t n);

/*
 * The image as 8-bit RGBA rows for display, TOP row first (as PNG and
 * the browser draw them): colour values scaled to 0..255 (normalized
 * types as the GL converts them, floats clamped to [0, 1], integer
 * formats clamped), a missing colour component 0; grey formats
 * (luminance, depth, stencil, alpha alone) grey; packed types other than
 * UNSIGNED_INT_8_8_8_8_REV black.  Alpha is always 255: a difference
 * tool shows colours, not what they would blend to.  `rgba` has
 * width * height * 4 bytes.
 */
void trace_pixels_rgba8(const struct trace_pixels *px, uint8_t *rgba);

/*
 * A difference image of two comparable images, top row first: equal
 * pixels are the golden one's grey level halved, differing pixels
 * outside the buffer read (undefined) blue,
 * differing pixels within the tolerance's max yellow, beyond it red.
 */
void trace_pixels_diff_rgba8(const struct trace_pixels *a, const struct trace_pixels *b,
			     const struct trace_img_tol *t, uint8_t *rgba);

#endif
