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

/* What a `pixels` record says; `src` holds the rows, `stride` bytes apart. */
struct record {
	const char *from, *func;
	int32_t x, y, width, height;
	uint32_t format, type;
	struct pack_state ps;
	uint32_t buffer;
	uint64_t offset;
	const uint8_t *src;
	uint64_t stride, bpp;
	bool frame;             /* from a swap: `frame` is its number */
	uint64_t frame_no;
	int64_t read_w, read_h; /* the size of the buffer read; negative: unknown */
};

static void write_record(const struct obs_ctx *c, uint64_t seq, const struct record *r)
{
	const size_t row = (size_t)r->width * r->bpp;
	const size_t data_bytes = row * (size_t)r->height;
	uint8_t *begin = c->reserve(c->user, 512 + strlen(r->func) + data_bytes), *p = begin;

	if (!p)
		return;
	const bool sized = r->read_w >= 0 && r->read_h >= 0;
	p = trace_enc_map(p, 11 + r->frame + sized);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, "pixels", 6);
	p = trace_enc_key(p, "from");
	p = trace_enc_string(p, r->from, strlen(r->from));
	p = trace_enc_key(p, "function");
	p = trace_enc_string(p, r->func, strlen(r->func));
	if (r->frame) {
		p = trace_enc_key(p, "frame");
		p = trace_enc_uint(p, r->frame_no);
	}
	p = trace_enc_key(p, "x");
	p = trace_enc_sint(p, r->x);
	p = trace_enc_key(p, "y");
	p = trace_enc_sint(p, r->y);
	p = trace_enc_key(p, "width");
	p = trace_enc_uint(p, (uint64_t)r->width);
	p = trace_enc_key(p, "height");
	p = trace_enc_uint(p, (uint64_t)r->height);
	if (sized) {
		p = trace_enc_key(p, "read_size");
		p = trace_enc_array(p, 2);
		p = trace_enc_uint(p, (uint64_t)r->read_w);
		p = trace_enc_uint(p, (uint64_t)r->read_h);
	}
	p = trace_enc_key(p, "format");
	p = trace_enc_enum(p, r->format);
	p = trace_enc_key(p, "pixel_type");
	p = trace_enc_enum(p, r->type);
	p = trace_enc_key(p, "pack");
	p = trace_enc_map(p, 6);
	p = trace_enc_key(p, "alignment");
	p = trace_enc_uint(p, (uint64_t)r->ps.alignment);
	p = trace_enc_key(p, "row_length");
	p = trace_enc_uint(p, (uint64_t)r->ps.row_length);
	p = trace_enc_key(p, "skip_pixels");
	p = trace_enc_uint(p, (uint64_t)r->ps.skip_pixels);
	p = trace_enc_key(p, "skip_rows");
	p = trace_enc_uint(p, (uint64_t)r->ps.skip_rows);
	p = trace_enc_key(p, "buffer");
	p = trace_enc_uint(p, r->buffer);
	p = trace_enc_key(p, "offset");
	p = trace_enc_uint(p, r->offset);
	p = trace_enc_key(p, "data");
	p = trace_enc_varint(trace_enc_tag(p, TRACE_TAG_BLOB), data_bytes);
	for (int32_t y = 0; y < r->height; y++, p += row)
		memcpy(p, r->src + (uint64_t)y * r->stride, row);
	c->commit(c->user, seq, (size_t)(p - begin));
}

/*
 * The size of the colour buffer glReadPixels reads from a framebuffer
 * object: its read buffer's attachment's, a renderbuffer's (bound for the
 * query, then restored) or a texture level's (GL 4.5's named query only:
 * without it the texture's target is unknown).  -1 when unknown, and for
 * the default framebuffer (obs.h says why).
 */
static void read_size(const struct obs_ctx *c, int64_t *w, int64_t *h)
{
	const struct obs_gl *gl = c->gl;
	int fb = 0, buffer = 0, type = 0, name = 0, level = 0, old = 0, iw = -1, ih = -1;

	*w = *h = -1;
	if (!obs_ctx_at_least(c, 3, 0, 3, 0))
		return;
	gl->GetIntegerv(OBS_GL_READ_FRAMEBUFFER_BINDING, &fb);
	if (!fb || !gl->GetFramebufferAttachmentParameteriv)
		return;
	gl->GetIntegerv(OBS_GL_READ_BUFFER, &buffer);
	if (buffer == (int)OBS_GL_NONE)
		return;
	gl->GetFramebufferAttachmentParameteriv(OBS_GL_READ_FRAMEBUFFER, (unsigned)buffer,
						OBS_GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
	gl->GetFramebufferAttachmentParameteriv(OBS_GL_READ_FRAMEBUFFER, (unsigned)buffer,
						OBS_GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
	if (type == (int)OBS_GL_RENDERBUFFER && gl->GetRenderbufferParameteriv &&
	    gl->BindRenderbuffer) {
		gl->GetIntegerv(OBS_GL_RENDERBUFFER_BINDING, &old);
		gl->BindRenderbuffer(OBS_GL_RENDERBUFFER, (unsigned)name);
		gl->GetRenderbufferParameteriv(OBS_GL_RENDERBUFFER, OBS_GL_RENDERBUFFER_WIDTH, &iw);
		gl->GetRenderbufferParameteriv(OBS_GL_RENDERBUFFER, OBS_GL_RENDERBUFFER_HEIGHT, &ih);
		gl->BindRenderbuffer(OBS_GL_RENDERBUFFER, (unsigned)old);
	} else if (type == (int)OBS_GL_TEXTURE && gl->GetTextureLevelParameteriv &&
		   obs_ctx_at_least(c, 4, 5, 0, 0)) {
		gl->GetFramebufferAttachmentParameteriv(OBS_GL_READ_FRAMEBUFFER, (unsigned)buffer,
							OBS_GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL,
							&level);
		gl->GetTextureLevelParameteriv((unsigned)name, level, OBS_GL_TEXTURE_WIDTH, &iw);
		gl->GetTextureLevelParameteriv((unsigned)name, level, OBS_GL_TEXTURE_HEIGHT, &ih);
	}
	if (gl->GetError() == OBS_GL_NO_ERROR && iw > 0 && ih > 0) {
		*w = iw;
		*h = ih;
	}
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
	int64_t rw, rh;
	read_size(c, &rw, &rh);
	c->drain(c->user, "pixel read-back");
	const struct record rec = {
		.read_w = rw, .read_h = rh,
		.from = "read", .func = func, .x = x, .y = y, .width = width, .height = height,
		.format = format, .type = type, .ps = ps,
		.buffer = pixels ? 0 : obs_app_name(c, OBS_OBJ_BUFFER, (uint32_t)pack_buffer),
		.offset = pixels ? 0 : pack_offset, .src = src + start, .stride = stride, .bpp = bpp,
	};
	write_record(c, seq, &rec);
	free(copy);
}

uint8_t *obs_frame_read(const struct obs_ctx *c, int32_t width, int32_t height)
{
	const struct obs_gl *gl = c->gl;
	struct pack_state ps;
	int read_fb = 0, read_buffer = 0, pack_buffer = 0;

	if (!gl->ReadPixels || !gl->PixelStorei || !gl->BindFramebuffer || !gl->ReadBuffer ||
	    !obs_ctx_at_least(c, 3, 0, 3, 0) || width <= 0 || height <= 0 ||
	    (uint64_t)width * (uint64_t)height * 4 > TRACE_PIXELS_MAX_BYTES)
		return NULL;
	uint8_t *data = malloc((size_t)width * (size_t)height * 4);
	if (!data)
		return NULL;
	c->stash(c->user);
	pack_state(c, &ps);
	gl->GetIntegerv(OBS_GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer);
	gl->GetIntegerv(OBS_GL_READ_FRAMEBUFFER_BINDING, &read_fb);
	if (read_fb)
		gl->BindFramebuffer(OBS_GL_READ_FRAMEBUFFER, 0);
	gl->GetIntegerv(OBS_GL_READ_BUFFER, &read_buffer);
	gl->ReadBuffer(OBS_GL_BACK);
	if (pack_buffer)
		gl->BindBuffer(OBS_GL_PIXEL_PACK_BUFFER, 0);
	gl->PixelStorei(OBS_GL_PACK_ALIGNMENT, 1);
	gl->PixelStorei(OBS_GL_PACK_ROW_LENGTH, 0);
	gl->PixelStorei(OBS_GL_PACK_SKIP_PIXELS, 0);
	gl->PixelStorei(OBS_GL_PACK_SKIP_ROWS, 0);
	gl->ReadPixels(0, 0, width, height, OBS_GL_RGBA, OBS_GL_UNSIGNED_BYTE, data);
	const bool failed = gl->GetError() != OBS_GL_NO_ERROR;
	gl->PixelStorei(OBS_GL_PACK_ALIGNMENT, ps.alignment);
	gl->PixelStorei(OBS_GL_PACK_ROW_LENGTH, ps.row_length);
	gl->PixelStorei(OBS_GL_PACK_SKIP_PIXELS, ps.skip_pixels);
	gl->PixelStorei(OBS_GL_PACK_SKIP_ROWS, ps.skip_rows);
	if (pack_buffer)
		gl->BindBuffer(OBS_GL_PIXEL_PACK_BUFFER, (unsigned)pack_buffer);
	gl->ReadBuffer((unsigned)read_buffer);
	if (read_fb)
		gl->BindFramebuffer(OBS_GL_READ_FRAMEBUFFER, (unsigned)read_fb);
	c->drain(c->user, "frame read-back");
	if (failed) {
		free(data);
		return NULL;
	}
	return data;
}

void obs_frame_commit(const struct obs_ctx *c, uint64_t seq, const char *func, uint64_t frame,
		      int32_t width, int32_t height, uint8_t *data)
{
	if (data) {
		const struct record rec = {
			.from = "swap", .func = func, .width = width, .height = height,
			.format = OBS_GL_RGBA, .type = OBS_GL_UNSIGNED_BYTE, .ps = { 1, 0, 0, 0 },
			.src = data, .stride = (uint64_t)width * 4, .bpp = 4, .frame = true,
			.frame_no = frame, .read_w = width, .read_h = height,
		};
		write_record(c, seq, &rec);
	}
	free(data);
}
