/*
 * trace_image.h - PNG encoding of 8-bit images (libpng), for the difference
 * images of `replay --check --diff-dir` and the images of the web UI.
 * A library of its own (xt_trace_image), apart from xt_trace, so that the
 * capture library links no libpng.
 */
#ifndef TRACE_IMAGE_H
#define TRACE_IMAGE_H

#include <stdint.h>

#include "xt_buf.h"
#include "xt_rc.h"

/*
 * Appends to `out` the PNG of `width` x `height` pixels, rows top first,
 * `channels` 8-bit values per pixel (3: RGB, 4: RGBA).  XT_ERR_NOMEM, or
 * XT_ERR_INVALID for an empty image or other channel counts, with *out
 * unchanged.
 */
enum xt_rc trace_image_png(const uint8_t *pixels, uint32_t width, uint32_t height,
			   unsigned channels, struct xt_buf *out);

#endif
