/*
 * tf_draw_fbo_gl33.c - tf-draw-fbo-gl33: desktop OpenGL 3.3 core,
 * surfaceless, the way particle systems use transform feedback: a first
 * pass captures four triangles (position, colour) into a TF buffer with
 * the rasterizer discarded; a second pass draws that buffer as vertex
 * data into a 64 x 64 RGBA8 framebuffer object, and the program reads the
 * pixels back with glReadPixels, once into its own memory and once, with
 * another pack state (row length, skipped rows and pixels, alignment 8),
 * into a pixel pack buffer; and a third time a rectangle that reaches past
 * the framebuffer's corner, whose outside pixels GL leaves undefined.
 *
 * Three triangles are flat (one colour at every corner), so their pixels
 * are exact on every conforming implementation and are checked here; the
 * fourth has a colour per corner, interpolated: its pixels may differ by
 * rounding between implementations (GL 4.6 §14.6.1 allows it), which is
 * what the image tolerance of `xfbtrace replay --check` is for.
 *
 * Usage: tf-draw-fbo-gl33 [--perturb] [--dump-readback FILE]
 */
#include <stdio.h>
#include <string.h>

#include "app_check.h"
#include "app_egl.h"
#include "app_gl.h"

#define PROG "tf-draw-fbo-gl33"
#define SIZE 64
#define N_TRIS 4
#define N_VERTS (N_TRIS * 3)

static const char tf_vs[] =
	"#version 330 core\n"
	"out vec4 v_pos;\n"
	"out vec4 v_color;\n"
	"const vec2 centers[4] = vec2[4](vec2(-0.5, -0.5), vec2(0.5, -0.5),\n"
	"                                vec2(-0.5, 0.5), vec2(0.5, 0.5));\n"
	"const vec2 corners[3] = vec2[3](vec2(-0.25, -0.25), vec2(0.25, -0.25),\n"
	"                                vec2(0.0, 0.375));\n"
	"const vec4 flat_colors[3] = vec4[3](vec4(1, 0, 0, 1), vec4(0, 1, 0, 1),\n"
	"                                    vec4(1, 1, 0, 1));\n"
	"void main()\n"
	"{\n"
	"	int tri = gl_VertexID / 3, corner = gl_VertexID % 3;\n"
	"	v_pos = vec4(centers[tri] + corners[corner], 0.0, 1.0);\n"
	"	if (tri < 3)\n"
	"		v_color = flat_colors[tri];\n"
	"	else\n"
	"		v_color = vec4(corner == 0 ? 1.0 : 0.0, corner == 1 ? 1.0 : 0.0,\n"
	"			       corner == 2 ? 1.0 : 0.0, 1.0);\n"
	"	gl_Position = v_pos;\n"
	"}\n";

static const char draw_vs[] =
	"#version 330 core\n"
	"layout(location = 0) in vec4 a_pos;\n"
	"layout(location = 1) in vec4 a_color;\n"
	"out vec4 f_color;\n"
	"void main()\n"
	"{\n"
	"	f_color = a_color;\n"
	"	gl_Position = a_pos;\n"
	"}\n";

static const char draw_fs[] =
	"#version 330 core\n"
	"in vec4 f_color;\n"
	"out vec4 o_color;\n"
	"void main()\n"
	"{\n"
	"	o_color = f_color;\n"
	"}\n";

static const char *const varyings[] = { "v_pos", "v_color" };

/* The clear colour, exact in 8 bits: 0, 64, 128, 255. */
static const float clear_color[4] = { 0.0f, 64.0f / 255.0f, 128.0f / 255.0f, 1.0f };

/* The pixel pack buffer read: a sub-rectangle under another pack state. */
#define PBO_X 4
#define PBO_Y 6
#define PBO_W 30
#define PBO_H 20
#define PBO_ROW_LENGTH 40
#define PBO_SKIP_PIXELS 3
#define PBO_SKIP_ROWS 2
/* The read past the corner: EDGE x EDGE from (SIZE - EDGE / 2, SIZE - EDGE / 2). */
#define EDGE 16

static void expected_tf(float *want)
{
	static const float centers[4][2] = { { -0.5f, -0.5f }, { 0.5f, -0.5f }, { -0.5f, 0.5f },
					     { 0.5f, 0.5f } };
	static const float corners[3][2] = { { -0.25f, -0.25f }, { 0.25f, -0.25f }, { 0.0f, 0.375f } };
	static const float flat[3][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 1, 1, 0, 1 } };

	for (int v = 0; v < N_VERTS; v++) {
		const int tri = v / 3, corner = v % 3;
		float *o = want + v * 8;
		o[0] = centers[tri][0] + corners[corner][0];
		o[1] = centers[tri][1] + corners[corner][1];
		o[2] = 0.0f;
		o[3] = 1.0f;
		for (int j = 0; j < 4; j++)
			o[4 + j] = tri < 3 ? flat[tri][j] : (j == 3 || j == corner) ? 1.0f : 0.0f;
	}
}

/* Checks the flat triangles' pixels (a pixel near each centre) and the
 * background in an image read with the default pack state. */
static void check_pixels(struct app_check *c, const uint8_t *img, bool perturb)
{
	static const struct { int x, y; uint8_t rgba[4]; const char *what; } probes[] = {
		{ 16, 16, { 255, 0, 0, 255 }, "pixel (16, 16): red triangle" },
		{ 48, 16, { 0, 255, 0, 255 }, "pixel (48, 16): green triangle" },
		{ 16, 48, { 255, 255, 0, 255 }, "pixel (16, 48): yellow triangle" },
		{ 32, 32, { 0, 64, 128, 255 }, "pixel (32, 32): clear colour" },
		{ 2, 62, { 0, 64, 128, 255 }, "pixel (2, 62): clear colour" },
	};
	for (size_t k = 0; k < sizeof probes / sizeof probes[0]; k++) {
		const uint8_t *p = img + ((size_t)probes[k].y * SIZE + (size_t)probes[k].x) * 4;
		uint32_t got[4], want[4];
		for (int j = 0; j < 4; j++) {
			got[j] = p[j];
			want[j] = probes[k].rgba[j];
		}
		if (perturb && k == 0)
			want[1] ^= 1;
		app_check_words(c, probes[k].what, got, want, 4, 4);
	}
}

static int run(const struct app_opts *opts, struct app_check *c, struct app_egl *egl)
{
	GLuint tf_prog, draw_prog, tf_buf, vao[2], pbo;
	float want[N_VERTS * 8], got[N_VERTS * 8];
	static uint8_t img[SIZE * SIZE * 4];
	static uint8_t pbo_bytes[(PBO_SKIP_ROWS + PBO_H) * PBO_ROW_LENGTH * 4];

	tf_prog = app_gl_program(tf_vs, NULL, NULL, varyings, 2, GL_INTERLEAVED_ATTRIBS);
	draw_prog = app_gl_program(draw_vs, NULL, draw_fs, NULL, 0, GL_INTERLEAVED_ATTRIBS);
	if (!tf_prog || !draw_prog)
		return APP_EXIT_SETUP;

	/* Surfaceless: draws need a complete framebuffer, even the first
	 * pass, whose rasterizer is discarded. */
	if (!app_gl_rgba8_framebuffer(PROG, SIZE, SIZE))
		return APP_EXIT_SETUP;

	/* Pass 1: the triangles into the TF buffer, nothing rasterized. */
	glGenBuffers(1, &tf_buf);
	if (!app_gl_buffer_sentinel(tf_buf, sizeof got))
		return APP_EXIT_SETUP;
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf_buf);
	glGenVertexArrays(2, vao);
	glBindVertexArray(vao[0]);
	glUseProgram(tf_prog);
	glEnable(GL_RASTERIZER_DISCARD);
	glBeginTransformFeedback(GL_TRIANGLES);
	glDrawArrays(GL_TRIANGLES, 0, N_VERTS);
	glEndTransformFeedback();
	glDisable(GL_RASTERIZER_DISCARD);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
	if (app_gl_failed("transform feedback pass"))
		return APP_EXIT_SETUP;
	expected_tf(want);
	if (!app_gl_read_mapped(c, tf_buf, 0, sizeof got, got))
		return APP_EXIT_SETUP;
	app_check_words(c, "TF buffer (v_pos, v_color)", (const uint32_t *)got,
			(const uint32_t *)want, N_VERTS * 8, 8);

	/* Pass 2: draw the TF buffer into the framebuffer object. */
	glViewport(0, 0, SIZE, SIZE);
	glClearColor(clear_color[0], clear_color[1], clear_color[2], clear_color[3]);
	glClear(GL_COLOR_BUFFER_BIT);
	glBindVertexArray(vao[1]);
	glBindBuffer(GL_ARRAY_BUFFER, tf_buf);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 32, (const void *)0);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 32, (const void *)16);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glUseProgram(draw_prog);
	glDrawArrays(GL_TRIANGLES, 0, N_VERTS);
	if (app_gl_failed("draw pass"))
		return APP_EXIT_SETUP;

	/* Read-back 1: the whole image into client memory. */
	glPixelStorei(GL_PACK_ALIGNMENT, 4);
	glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, img);
	if (app_gl_failed("glReadPixels"))
		return APP_EXIT_SETUP;
	check_pixels(c, img, opts->perturb);

	/* Read-back 2: a sub-rectangle into a pixel pack buffer, with room
	 * around each row (row length, skipped pixels and rows). */
	glGenBuffers(1, &pbo);
	glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
	/* zeros: the bytes the read skips are defined too */
	glBufferData(GL_PIXEL_PACK_BUFFER, sizeof pbo_bytes, pbo_bytes, GL_STREAM_READ);
	glPixelStorei(GL_PACK_ALIGNMENT, 8);
	glPixelStorei(GL_PACK_ROW_LENGTH, PBO_ROW_LENGTH);
	glPixelStorei(GL_PACK_SKIP_PIXELS, PBO_SKIP_PIXELS);
	glPixelStorei(GL_PACK_SKIP_ROWS, PBO_SKIP_ROWS);
	glReadPixels(PBO_X, PBO_Y, PBO_W, PBO_H, GL_RGBA, GL_UNSIGNED_BYTE, (void *)0);
	glPixelStorei(GL_PACK_ALIGNMENT, 4);
	glPixelStorei(GL_PACK_ROW_LENGTH, 0);
	glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
	glPixelStorei(GL_PACK_SKIP_ROWS, 0);
	glGetBufferSubData(GL_PIXEL_PACK_BUFFER, 0, sizeof pbo_bytes, pbo_bytes);
	glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
	if (app_gl_failed("glReadPixels into a pixel pack buffer"))
		return APP_EXIT_SETUP;
	uint32_t sub_got[PBO_W * PBO_H], sub_want[PBO_W * PBO_H];
	for (int y = 0; y < PBO_H; y++)
		for (int x = 0; x < PBO_W; x++) {
			const size_t at = ((size_t)(PBO_SKIP_ROWS + y) * PBO_ROW_LENGTH +
					   PBO_SKIP_PIXELS + (size_t)x) * 4;
			memcpy(&sub_got[y * PBO_W + x], pbo_bytes + at, 4);
			memcpy(&sub_want[y * PBO_W + x],
			       img + ((size_t)(PBO_Y + y) * SIZE + PBO_X + (size_t)x) * 4, 4);
		}
	app_check_words(c, "pixel pack buffer read == client memory read", sub_got, sub_want,
			PBO_W * PBO_H, PBO_W);

	/* Read-back 3: a rectangle reaching past the top-right corner.  GL
	 * leaves the pixels outside the framebuffer undefined (GL 4.6
	 * §18.2.8); Mesa does not write them, so they keep this pattern. */
	static uint8_t edge[EDGE * EDGE * 4];
	memset(edge, 0xa5, sizeof edge);
	glReadPixels(SIZE - EDGE / 2, SIZE - EDGE / 2, EDGE, EDGE, GL_RGBA, GL_UNSIGNED_BYTE, edge);
	if (app_gl_failed("glReadPixels past the corner"))
		return APP_EXIT_SETUP;
	uint32_t in_got[EDGE / 2 * EDGE / 2], in_want[EDGE / 2 * EDGE / 2];
	for (int y = 0; y < EDGE / 2; y++)
		for (int x = 0; x < EDGE / 2; x++) {
			memcpy(&in_got[y * EDGE / 2 + x], edge + ((size_t)y * EDGE + (size_t)x) * 4, 4);
			memcpy(&in_want[y * EDGE / 2 + x],
			       img + ((size_t)(SIZE - EDGE / 2 + y) * SIZE + SIZE - EDGE / 2 + (size_t)x) * 4,
			       4);
		}
	app_check_words(c, "read past the corner: the pixels inside", in_got, in_want,
			EDGE / 2 * EDGE / 2, EDGE / 2);
	return APP_EXIT_PASS;
}

int main(int argc, char **argv)
{
	static const struct app_main_desc d = {
		.prog = PROG, .api = APP_API_GL_CORE, .major = 3, .minor = 3, .run = run
	};
	return app_main(argc, argv, &d);
}
