/*
 * trace_image.c - PNG encoding through libpng's write callback into a
 * byte buffer (trace_image.h).
 */
#include <png.h>
#include <setjmp.h>

#include "trace_image.h"

static void write_buf(png_structp png, png_bytep data, png_size_t n)
{
	if (xt_buf_append(png_get_io_ptr(png), data, n))
		png_error(png, "out of memory");
}

static void flush_buf(png_structp png)
{
	(void)png;
}

enum xt_rc trace_image_png(const uint8_t *pixels, uint32_t width, uint32_t height,
			   unsigned channels, struct xt_buf *out)
{
	if (!width || !height || (channels != 3 && channels != 4) || width > PNG_USER_WIDTH_MAX ||
	    height > PNG_USER_HEIGHT_MAX)
		return XT_ERR_INVALID;
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	/* volatile: read after a longjmp from libpng */
	volatile size_t at = out->len;

	if (!info) {
		png_destroy_write_struct(&png, NULL);
		return XT_ERR_NOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		out->len = at;
		return XT_ERR_NOMEM;
	}
	png_set_write_fn(png, out, write_buf, flush_buf);
	png_set_IHDR(png, info, width, height, 8,
		     channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (uint32_t y = 0; y < height; y++)
		png_write_row(png, (png_const_bytep)(pixels + (size_t)y * width * channels));
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	return XT_OK;
}
