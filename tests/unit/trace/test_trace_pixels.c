/*
 * test_trace_pixels.c - `pixels` observations (trace/trace_pixels.h):
 * bytes per pixel against the GL specification's tables (GL 4.6 tables
 * 8.3, 8.5 and 8.8), the image tolerance's syntax, the comparison of two
 * images and the validation every reader runs.
 */
#include <stdlib.h>

#include "trace_enc.h"
#include "trace_pixels.h"
#include "trace_reader.h"
#include "xt_arena.h"
#include "xt_test.h"

static void test_bytes_per_pixel_are_the_specification_s(void)
{
	CHECK_EQ_INT(trace_pixels_bytes(TRACE_PX_RGBA, TRACE_PX_UNSIGNED_BYTE), 4);
	CHECK_EQ_INT(trace_pixels_bytes(TRACE_PX_RGB, TRACE_PX_FLOAT), 12);
	CHECK_EQ_INT(trace_pixels_bytes(TRACE_PX_RG_INTEGER, TRACE_PX_SHORT), 4);
	CHECK_EQ_INT(trace_pixels_bytes(TRACE_PX_RGBA, TRACE_PX_HALF_FLOAT), 8);
	CHECK_EQ_INT(trace_pixels_bytes(TRACE_PX_RGB, TRACE_PX_UNSIGNED_SHORT_5_6_5), 2);
	CHECK_EQ_INT(trace_pixels_bytes(TRACE_PX_DEPTH_STENCIL, TRACE_PX_UNSIGNED_INT_24_8), 4);
	CHECK_EQ_INT(trace_pixels_bytes(TRACE_PX_DEPTH_STENCIL,
					TRACE_PX_FLOAT_32_UNSIGNED_INT_24_8_REV), 8);
	CHECK_EQ_INT(trace_pixels_bytes(0x1234, TRACE_PX_UNSIGNED_BYTE), 0);
	CHECK_EQ_INT(trace_pixels_bytes(TRACE_PX_RGBA, 0x1234), 0);
}

static void test_image_tolerance_syntax(void)
{
	struct trace_img_tol t = { 9, 9 };
	CHECK(trace_img_tol_parse("max=2,pixels=10", &t) && t.max == 2 && t.pixels == 10);
	CHECK(trace_img_tol_parse("pixels=3", &t) && t.max == 0 && t.pixels == 3);
	CHECK(trace_img_tol_parse("max=0.5", &t) && t.max == 0.5 && t.pixels == 0);
	static const char *const bad[] = { "", "max=-1", "max=", "pixels=x", "max=1,", "ulps=2",
					   "max=1;pixels=2", "max=inf", "pixels=-1" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		t = (struct trace_img_tol){ 7, 7 };
		CHECK(!trace_img_tol_parse(bad[i], &t) && t.max == 7 && t.pixels == 7);
	}
}

static struct trace_pixels image(uint32_t w, uint32_t h, uint32_t format, uint32_t type,
				 const void *data)
{
	struct trace_pixels p = {
		.x = 10, .y = 20, .width = w, .height = h, .format = format, .type = type,
		.bpp = trace_pixels_bytes(format, type), .from = "read", .data = data,
		.read_w = -1, .read_h = -1,
	};
	p.packed = trace_pixels_packed_bytes(type) != 0;
	p.channels = p.packed ? 1 : trace_pixels_components(format);
	p.channel_bytes = p.packed ? p.bpp : trace_pixels_type_bytes(type);
	p.len = (size_t)w * h * p.bpp;
	return p;
}

static void test_compare_names_pixels_in_window_coordinates(void)
{
	/* 2 x 2, bottom row first: the top-right pixel is (11, 21). */
	uint8_t a[16] = { 0 }, b[16] = { 0 };
	b[3 * 4 + 1] = 3;   /* green of the 4th pixel */
	b[0 * 4 + 0] = 1;   /* red of the 1st */
	struct trace_pixels pa = image(2, 2, TRACE_PX_RGBA, TRACE_PX_UNSIGNED_BYTE, a);
	struct trace_pixels pb = image(2, 2, TRACE_PX_RGBA, TRACE_PX_UNSIGNED_BYTE, b);
	struct trace_pixels_cmp c;
	trace_pixels_compare(&pa, &pb, NULL, &c);
	CHECK(c.comparable && c.differ == 2 && c.over == 2 && !c.within && c.max_delta == 3);
	CHECK(c.nfirst == 2 && c.first[0].x == 10 && c.first[0].y == 20 && c.first[1].x == 11 &&
	      c.first[1].y == 21 && c.first[1].golden[1] == 0 && c.first[1].replay[1] == 3);
	struct trace_img_tol t = { 1, 0 };
	trace_pixels_compare(&pa, &pb, &t, &c);
	/* beyond max first: (11, 21), then the one within */
	CHECK(c.differ == 2 && c.over == 1 && !c.within && c.first[0].x == 11 && c.first[0].over &&
	      !c.first[1].over);
	t.pixels = 1;
	trace_pixels_compare(&pa, &pb, &t, &c);
	CHECK(c.within);
	t = (struct trace_img_tol){ 3, 0 };
	trace_pixels_compare(&pa, &pb, &t, &c);
	CHECK(c.within && c.over == 0 && c.differ == 2);
	char text[128];
	trace_pixel_diff_text(&pa, &c.first[0], text, sizeof text);
	CHECK(!strcmp(text, "(10, 20): golden 0 0 0 0, replay 1 0 0 0"));
	/* The buffer read was 11 x 21 (from window 0, 0): the pixel at (11,
	 * 21) lies outside it, undefined, counted apart. */
	pa.read_w = 11;
	pa.read_h = 21;
	CHECK(trace_pixels_defined(&pa, 0) && !trace_pixels_defined(&pa, 1) &&
	      !trace_pixels_defined(&pa, 3));
	trace_pixels_compare(&pa, &pb, NULL, &c);
	CHECK(c.differ == 1 && c.undefined == 1 && c.first_undefined.x == 11 &&
	      c.first_undefined.y == 21 && c.first[0].x == 10);
	pa.read_w = pa.read_h = -1;
	struct trace_pixels other = image(1, 4, TRACE_PX_RGBA, TRACE_PX_UNSIGNED_BYTE, b);
	trace_pixels_compare(&pa, &other, NULL, &c);
	CHECK(!c.comparable && c.why);
}

static void test_half_floats_and_packed_types(void)
{
	/* 1.0 and the next half (1 + 2^-10) */
	uint16_t a[4] = { 0x3c00, 0, 0, 0x3c00 }, b[4] = { 0x3c01, 0, 0, 0x3c00 };
	struct trace_pixels pa = image(1, 1, TRACE_PX_RGBA, TRACE_PX_HALF_FLOAT, a);
	struct trace_pixels pb = image(1, 1, TRACE_PX_RGBA, TRACE_PX_HALF_FLOAT, b);
	struct trace_pixels_cmp c;
	struct trace_img_tol t = { 0.001, 0 };
	trace_pixels_compare(&pa, &pb, &t, &c);
	CHECK(c.within && c.max_delta > 0.00097 && c.max_delta < 0.00098);
	/* Packed: exact whatever max says. */
	uint16_t p = 0xf800, q = 0xf801;
	pa = image(1, 1, TRACE_PX_RGB, TRACE_PX_UNSIGNED_SHORT_5_6_5, &p);
	pb = image(1, 1, TRACE_PX_RGB, TRACE_PX_UNSIGNED_SHORT_5_6_5, &q);
	t.max = 100;
	trace_pixels_compare(&pa, &pb, &t, &c);
	CHECK(!c.within && c.over == 1);
}

static void test_rgba8_is_top_row_first(void)
{
	/* BGRA, bottom row blue, top row red */
	uint8_t bgra[8] = { 255, 0, 0, 255, 0, 0, 255, 255 }, out[8];
	struct trace_pixels p = image(1, 2, TRACE_PX_BGRA, TRACE_PX_UNSIGNED_BYTE, bgra);
	trace_pixels_rgba8(&p, out);
	static const uint8_t want[8] = { 255, 0, 0, 255, 0, 0, 255, 255 };
	CHECK(!memcmp(out, want, 8));
	float f[2] = { 2.0f, -1.0f };   /* GL_RED floats: clamped */
	p = image(1, 2, TRACE_PX_RED, TRACE_PX_FLOAT, f);
	trace_pixels_rgba8(&p, out);
	static const uint8_t want_f[8] = { 0, 0, 0, 255, 255, 0, 0, 255 };
	CHECK(!memcmp(out, want_f, 8));
}

/* Encodes a pixels observation, `width` one of its keys, decodes it. */
static enum xt_rc validate(struct xt_arena *arena, uint64_t width, uint32_t type,
			   bool with_type, size_t data_bytes, char *why, size_t n)
{
	static uint8_t buf[4096], data[1024];
	uint8_t *p = trace_enc_map(buf, with_type ? 10 : 9);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, "pixels", 6);
	p = trace_enc_key(p, "from");
	p = trace_enc_string(p, "read", 4);
	p = trace_enc_key(p, "x");
	p = trace_enc_sint(p, 0);
	p = trace_enc_key(p, "y");
	p = trace_enc_sint(p, -3);
	p = trace_enc_key(p, "width");
	p = trace_enc_uint(p, width);
	p = trace_enc_key(p, "height");
	p = trace_enc_uint(p, 2);
	p = trace_enc_key(p, "format");
	p = trace_enc_enum(p, TRACE_PX_RGBA);
	if (with_type) {
		p = trace_enc_key(p, "pixel_type");
		p = trace_enc_enum(p, type);
	}
	p = trace_enc_key(p, "pack");
	p = trace_enc_map(p, 0);
	p = trace_enc_key(p, "data");
	p = trace_enc_blob(p, data, data_bytes);
	const uint8_t *q = buf;
	struct trace_value v;
	struct xt_err e;
	struct trace_pixels px;
	if (trace_value_decode(&q, p, arena, &v, &e) != XT_OK)
		return XT_ERR_INTERNAL;
	return trace_pixels_of(&v, &px, why, n);
}

static void test_validation(void)
{
	struct xt_arena arena;
	char why[160] = "";
	xt_arena_init(&arena, 4096);
	CHECK_EQ_INT(validate(&arena, 3, TRACE_PX_UNSIGNED_BYTE, true, 24, why, sizeof why), XT_OK);
	CHECK_EQ_INT(validate(&arena, 4, TRACE_PX_UNSIGNED_BYTE, true, 24, why, sizeof why),
		     XT_ERR_CORRUPT);
	CHECK(strstr(why, "24 bytes of data for 4 x 2 pixels of 4 bytes") != NULL);
	CHECK_EQ_INT(validate(&arena, 3, 0x1234, true, 24, why, sizeof why), XT_ERR_CORRUPT);
	CHECK(strstr(why, "unknown format") != NULL);
	CHECK_EQ_INT(validate(&arena, 3, TRACE_PX_UNSIGNED_BYTE, false, 24, why, sizeof why),
		     XT_ERR_CORRUPT);
	CHECK(strstr(why, "`pixel_type` is missing") != NULL);
	/* Sizes that would overflow a 32-bit product are refused, not wrapped. */
	CHECK_EQ_INT(validate(&arena, UINT64_C(1) << 40, TRACE_PX_UNSIGNED_BYTE, true, 24, why,
			      sizeof why), XT_ERR_CORRUPT);
	xt_arena_fini(&arena);
}

int main(void)
{
	XT_RUN(test_bytes_per_pixel_are_the_specification_s);
	XT_RUN(test_image_tolerance_syntax);
	XT_RUN(test_compare_names_pixels_in_window_coordinates);
	XT_RUN(test_half_floats_and_packed_types);
	XT_RUN(test_rgba8_is_top_row_first);
	XT_RUN(test_validation);
	XT_TEST_MAIN_END();
}
