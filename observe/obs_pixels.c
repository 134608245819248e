/*
 * obs_pixels.c - the `pixels` observation (docs/trace-format.md,
 * "Observation kinds"; trace/trace_pixels.h): what glReadPixels returned
 * to the application, made by the capture against the real driver and by
 * the replay against its own, so that equal pixels give byte-identical
 * records.
 *
 * The pixels are taken from where the GL wrote them, the application's
 * memory or the bound pixel pack buffer (read back as TF buffers are,
 * obs_readback_*), with the pack state the call used (GL 4.6 §8.4.4.1,
 * §18.2.2: row length, alignment, skipped rows and pixels), and stored
 * rows of `width` pixels without padding or skipped pixels: bytes the GL
 * did not write are not data.
 */
#include <stdlib.h>
#include <string.h>

#include "obs_int.h"
#include "trace_enc.h"
#include "trace_pixels.h"

struct pack_state {
	int alignment, row_length, skip_pixels, skip_rows;
};

static void pack_state(const struct obs_ctx *c, struct pack_state *ps)
{
	const struct obs_gl *gl = c->gl;

	*ps = (struct pack_state){ 4, 0, 0, 0 };
	gl->GetIntegerv(OBS_GL_PACK_ALIGNMENT, &ps->alignment);
	/* GLES 2.0 has only the alignment. */
	if (!c->gles || c->major >= 3) {
		gl->GetIntegerv(OBS_GL_PACK_ROW_LENGTH, &ps->row_length);
		gl->GetIntegerv(OBS_GL_PACK_SKIP_PIXELS, &ps->skip_pixels);
		gl->GetIntegerv(OBS_GL_PACK_SKIP_ROWS, &ps->skip_rows);
	}
	if (ps->alignment != 1 && ps->alignment != 2 && ps->alignment != 4 && ps->alignment != 8)
		ps->alignment = 4;
	if (ps->row_length < 0 || ps->skip_pixels < 0 || ps->skip_rows < 0)
		ps->row_length = ps->skip_pixels = ps->skip_rows = 0;
}

void obs_read_pixels(const struct obs_ctx *c, uint64_t seq, const char *func, int32_t x,
		     int32_t y, int32_t width, int32_t height, uint32_t format, uint32_t type,
		     const void *pixels, size_t pixels_bytes, uint64_t pack_offset)
{
	const struct obs_gl *gl = c->gl;
	const uint64_t bpp = trace_pixels_bytes(format, type);
	struct pack_state ps;
	int pack_buffer = 0;
	uint8_t *copy = NULL;

	if (!bpp || width <= 0 || height <= 0 ||
	    (uint64_t)width * (uint64_t)height * bpp > TRACE_PIXELS_MAX_BYTES)
		return;
	c->stash(c->user);
	pack_state(c, &ps);
	gl->GetIntegerv(OBS_GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer);
	const uint64_t row = (uint64_t)(ps.row_length > 0 ? ps.row_length : width) * bpp;
	const uint64_t stride = (row + (uint64_t)ps.alignment - 1) / (uint64_t)ps.alignment *
				(uint64_t)ps.alignment;
	const uint64_t start = (uint64_t)ps.skip_rows * stride + (uint64_t)ps.skip_pixels * bpp;
	const uint64_t span = start + (uint64_t)(height - 1) * stride + (uint64_t)width * bpp;
	const uint8_t *src = pixels;
	if (pixels && span > pixels_bytes) {
		c->drain(c->user, "pixel read-back");
		return;
	}
	if (!pixels) {
		/* The GL wrote into the pack buffer at pack_offset. */
		struct obs_readback rb;
		if (!pack_buffer || span > TRACE_PIXELS_MAX_BYTES || !(copy = malloc(span))) {
			c->drain(c->user, "pixel read-back");
			return;
		}
		obs_readback_begin(c, (uint32_t)pack_buffer, OBS_GL_PIXEL_PACK_BUFFER, &rb);
		const char *why = obs_readback_into(c, &rb, (int64_t)pack_offset, (int64_t)span, copy);
		const bool ok = obs_readback_end(c, &rb, true) && !why;
		if (!ok) {
			free(copy);
			c->drain(c->user, "pixel read-back");
			return;
		}
		src = copy;
	}
	c->drain(c->user, "pixel read-back");
	const size_t data_bytes = (size_t)((uint64_t)width * (uint64_t)height * bpp);
	uint8_t *begin = c->reserve(c->user, 512 + strlen(func) + data_bytes), *p = begin;
	if (!p) {
		free(copy);
		return;
	}
	p = trace_enc_map(p, 11);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, "pixels", 6);
	p = trace_enc_key(p, "from");
	p = trace_enc_string(p, "read", 4);
	p = trace_enc_key(p, "function");
	p = trace_enc_string(p, func, strlen(func));
	p = trace_enc_key(p, "x");
	p = trace_enc_sint(p, x);
	p = trace_enc_key(p, "y");
	p = trace_enc_sint(p, y);
	p = trace_enc_key(p, "width");
	p = trace_enc_uint(p, (uint64_t)width);
	p = trace_enc_key(p, "height");
	p = trace_enc_uint(p, (uint64_t)height);
	p = trace_enc_key(p, "format");
	p = trace_enc_enum(p, format);
	p = trace_enc_key(p, "pixel_type");
	p = trace_enc_enum(p, type);
	p = trace_enc_key(p, "pack");
	p = trace_enc_map(p, 6);
	p = trace_enc_key(p, "alignment");
	p = trace_enc_uint(p, (uint64_t)ps.alignment);
	p = trace_enc_key(p, "row_length");
	p = trace_enc_uint(p, (uint64_t)ps.row_length);
	p = trace_enc_key(p, "skip_pixels");
	p = trace_enc_uint(p, (uint64_t)ps.skip_pixels);
	p = trace_enc_key(p, "skip_rows");
	p = trace_enc_uint(p, (uint64_t)ps.skip_rows);
	p = trace_enc_key(p, "buffer");
	p = trace_enc_uint(p, pixels ? 0 : obs_app_name(c, OBS_OBJ_BUFFER, (uint32_t)pack_buffer));
	p = trace_enc_key(p, "offset");
	p = trace_enc_uint(p, pixels ? 0 : pack_offset);
	p = trace_enc_key(p, "data");
	p = trace_enc_varint(trace_enc_tag(p, TRACE_TAG_BLOB), data_bytes);
	for (int32_t r = 0; r < height; r++, p += (size_t)width * bpp)
		memcpy(p, src + start + (uint64_t)r * stride, (size_t)width * bpp);
	free(copy);
	c->commit(c->user, seq, (size_t)(p - begin));
}
