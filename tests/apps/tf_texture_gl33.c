/*
 * tf_texture_gl33.c - tf-texture-gl33: desktop OpenGL 3.3 core,
 * surfaceless, the ways shaders read textures (GL 4.6 §8.14, §11.1.3.5):
 *
 * Pass 1 captures, for 12 points, what a vertex shader samples into a
 * TF buffer: texelFetch of an RGBA32F 4x4 texture with two more levels
 * uploaded by glTexImage2D (levels 0 and 1), textureLod at texel centres
 * of levels 0..2 (GL_NEAREST_MIPMAP_NEAREST), texelFetch of an RGBA32UI
 * texture made by glTexStorage2D + glTexSubImage2D, and textureLod with
 * GL_LINEAR of an RGBA32F texture half-way between texels (weights 1/2:
 * exact in binary floating point); a 2D array texture (glTexImage3D) by
 * texelFetch and by texture at layer 1.6 (rounded to 2, GL 4.6 §8.14.2);
 * a 3D texture by textureLod with GL_LINEAR half-way between two slices,
 * and by texelFetch of level 1 made by glGenerateMipmap from a linear
 * ramp (the mean of 2x2x2 texels: exact); a cube map of six 2x2 faces
 * (one glTexImage2D per face) by textureLod along a direction whose major
 * axis picks each face in turn (GL 4.6 §8.13, table 8.19; no ties, texel
 * centres away from edges).  Every value is exact on every
 * conforming implementation and checked against a CPU reference.
 *
 * Pass 2 draws a quad into a 32x32 RGBA8 framebuffer object whose fragment
 * shader samples, in three regions: an RGBA8 32x32 texture with six
 * uploaded levels of distinct colours, GL_NEAREST_MIPMAP_NEAREST, at
 * s = x / 8 (4 texels a pixel: lambda = 2, level 2); level 1 of an RGBA8
 * 8x8 texture whose levels glGenerateMipmap made from 2x2 blocks of one
 * colour (the mean of equal texels: exact); and a 3x3 GL_RGB8 texture
 * uploaded with the default unpack alignment (rows padded to 12 bytes),
 * magnified with GL_LINEAR.  The first two regions are exact and checked;
 * the third's filtered values may differ by a unit of the 8-bit target
 * between implementations (GL leaves filtering precision to them), which
 * is what `xfbtrace replay --check --image-tolerance max=1` allows.
 *
 * Usage: tf-texture-gl33 [--perturb] [--dump-readback FILE]
 */
#include <stdio.h>
#include <string.h>

#include "app_check.h"
#include "app_egl.h"
#include "app_gl.h"

#define PROG "tf-texture-gl33"
#define N_POINTS 12
#define OUT_DW 36           /* 4 vec4, a uvec4, 4 vec4 per point */
#define SIZE 32

static const char tf_vs[] =
	"#version 330 core\n"
	"uniform sampler2D t_float;\n"
	"uniform usampler2D t_uint;\n"
	"uniform sampler2D t_lin;\n"
	"uniform sampler2DArray t_arr;\n"
	"uniform sampler3D t_vol;\n"
	"uniform samplerCube t_cube;\n"
	"out vec4 v_fetch;\n"
	"out vec4 v_fetch1;\n"
	"out vec4 v_lod;\n"
	"out vec4 v_lin;\n"
	"flat out uvec4 v_uint;\n"
	"out vec4 v_arr;\n"
	"out vec4 v_vol;\n"
	"out vec4 v_vol1;\n"
	"out vec4 v_cube;\n"
	"void main()\n"
	"{\n"
	"	int v = gl_VertexID, level = v % 3, size = 4 >> level;\n"
	"	v_fetch = texelFetch(t_float, ivec2(v % 4, v / 4), 0);\n"
	"	v_fetch1 = texelFetch(t_float, ivec2(v % 2, (v / 2) % 2), 1);\n"
	"	vec2 st = (vec2(v % size, (v / 3) % size) + 0.5) / float(size);\n"
	"	v_lod = textureLod(t_float, st, float(level));\n"
	"	v_lin = textureLod(t_lin, vec2((1.0 + 0.5 * float(v % 2)) / 4.0, 0.375), 0.0);\n"
	"	v_uint = texelFetch(t_uint, ivec2(v % 2, (v / 2) % 2), 0);\n"
	"	v_arr = v % 2 == 0 ? texelFetch(t_arr, ivec3(v / 2 % 2, v / 4 % 2, v % 3), 0)\n"
	"	                   : texture(t_arr, vec3(0.75, 0.25, 1.6));\n"
	"	v_vol = textureLod(t_vol, vec3(0.375, 0.125, 0.5), 0.0);\n"
	"	v_vol1 = texelFetch(t_vol, ivec3(v % 2, 1, (v / 2) % 2), 1);\n"
	"	int face = v % 6, axis = face / 2;\n"
	"	vec3 dir;\n"
	"	dir[axis] = face % 2 == 0 ? 1.0 : -1.0;\n"
	"	dir[(axis + 1) % 3] = 0.5;\n"
	"	dir[(axis + 2) % 3] = -0.25;\n"
	"	v_cube = textureLod(t_cube, dir, 0.0);\n"
	"	gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n"
	"}\n";

static const char quad_vs[] =
	"#version 330 core\n"
	"const vec2 P[4] = vec2[4](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0));\n"
	"void main()\n"
	"{\n"
	"	gl_Position = vec4(P[gl_VertexID], 0.0, 1.0);\n"
	"}\n";

static const char quad_fs[] =
	"#version 330 core\n"
	"uniform sampler2D t_mip;\n"
	"uniform sampler2D t_gen;\n"
	"uniform sampler2D t_rgb;\n"
	"out vec4 o_color;\n"
	"void main()\n"
	"{\n"
	"	vec2 p = gl_FragCoord.xy;\n"
	"	if (p.x < 16.0)\n"
	"		o_color = texture(t_mip, p / 8.0);\n"
	"	else if (p.y < 16.0)\n"
	"		o_color = textureLod(t_gen, p / 32.0, 1.0);\n"
	"	else\n"
	"		o_color = texture(t_rgb, (p - vec2(16.0)) / 16.0);\n"
	"}\n";

static const char *const varyings[] = { "v_fetch", "v_fetch1", "v_lod", "v_lin", "v_uint", "v_arr", "v_vol",
					"v_vol1", "v_cube" };

/* texel (x, y) of level l of t_float and t_lin (level 0) */
static void float_texel(int l, int x, int y, float out[4])
{
	out[0] = (float)(x + 10 * l);
	out[1] = (float)y;
	out[2] = (float)l;
	out[3] = (float)(1 + x * y);
}

/* level l's colour in t_mip */
static void mip_color(int l, uint8_t out[4])
{
	out[0] = (uint8_t)(40 * l);
	out[1] = (uint8_t)(255 - 40 * l);
	out[2] = (uint8_t)(l & 1 ? 200 : 20);
	out[3] = 255;
}

/* t_gen's level 0: 2x2 blocks (bx, by) of one colour */
static void gen_color(int bx, int by, uint8_t out[4])
{
	out[0] = (uint8_t)(60 * bx);
	out[1] = (uint8_t)(60 * by);
	out[2] = 100;
	out[3] = 255;
}

static void expected_tf(uint32_t *want)
{
	for (int v = 0; v < N_POINTS; v++) {
		uint32_t *o = want + v * OUT_DW;
		float f[4], a[4], b[4];
		int level = v % 3, size = 4 >> level;
		float_texel(0, v % 4, v / 4, f);
		for (int j = 0; j < 4; j++)
			o[j] = app_f2u(f[j]);
		float_texel(1, v % 2, (v / 2) % 2, f);
		for (int j = 0; j < 4; j++)
			o[4 + j] = app_f2u(f[j]);
		float_texel(level, v % size, (v / 3) % size, f);
		for (int j = 0; j < 4; j++)
			o[8 + j] = app_f2u(f[j]);
		/* s * 4 = 1 (between texels 0 and 1) or 1.5 (texel 1's
		 * centre); t * 4 = 1.5: row 1 */
		float_texel(0, v % 2 ? 1 : 0, 1, a);
		float_texel(0, 1, 1, b);
		for (int j = 0; j < 4; j++)
			o[12 + j] = app_f2u(v % 2 ? b[j] : (a[j] + b[j]) / 2);
		for (int j = 0; j < 4; j++)
			o[16 + j] = 1000u + 100u * (uint32_t)((v / 2) % 2 * 2 + v % 2) + (uint32_t)j;
		/* t_arr texel (x, y, layer) = (x, y, layer, 1); the lookup at
		 * (1.5, 0.5) texels of layer 2: texel (1, 0) */
		const float arr[4] = { (float)(v % 2 ? 1 : v / 2 % 2), (float)(v % 2 ? 0 : v / 4 % 2),
				       (float)(v % 2 ? 2 : v % 3), 1 };
		/* t_vol texel (x, y, z) = (x, y, z, 1): at (1.5, 0.5, 2) texels,
		 * texel (1, 0) between slices 1 and 2; level 1 texel (i, 1, k)
		 * the mean of the 2x2x2 below it */
		const float vol[4] = { 1, 0, 1.5f, 1 };
		const float vol1[4] = { 2.0f * (float)(v % 2) + 0.5f, 2.5f, 2.0f * (float)(v / 2 % 2) + 0.5f, 1 };
		for (int j = 0; j < 4; j++) {
			o[20 + j] = app_f2u(arr[j]);
			o[24 + j] = app_f2u(vol[j]);
			o[28 + j] = app_f2u(vol1[j]);
		}
		/* GL 4.6 table 8.19: face +x: sc = -rz, tc = -ry; -x: rz, -ry;
		 * +y: rx, rz; -y: rx, -rz; +z: rx, -ry; -z: -rx, -ry; texel
		 * (x, y) of face f = (f, x, y, 1) */
		{
			int face = v % 6, axis = face / 2;
			float r[3], sc, tc;
			r[axis] = face % 2 == 0 ? 1.0f : -1.0f;
			r[(axis + 1) % 3] = 0.5f;
			r[(axis + 2) % 3] = -0.25f;
			switch (face) {
			case 0: sc = -r[2]; tc = -r[1]; break;
			case 1: sc = r[2]; tc = -r[1]; break;
			case 2: sc = r[0]; tc = r[2]; break;
			case 3: sc = r[0]; tc = -r[2]; break;
			case 4: sc = r[0]; tc = -r[1]; break;
			default: sc = -r[0]; tc = -r[1]; break;
			}
			/* |ma| = 1: s = (sc + 1) / 2 on 2 texels */
			o[32] = app_f2u((float)face);
			o[33] = app_f2u((float)(int)((sc + 1.0f) / 2.0f * 2.0f));
			o[34] = app_f2u((float)(int)((tc + 1.0f) / 2.0f * 2.0f));
			o[35] = app_f2u(1.0f);
		}
	}
}

static GLuint texture(GLenum unit)
{
	GLuint t;
	glGenTextures(1, &t);
	glActiveTexture(unit);
	glBindTexture(GL_TEXTURE_2D, t);
	return t;
}

static void filters(GLenum min, GLenum mag)
{
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, (GLint)min);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, (GLint)mag);
}

static void make_textures(void)
{
	static float f[16 * 4], vol[64 * 4];
	static uint8_t b[SIZE * SIZE * 4];
	uint32_t u[4 * 4];
	GLuint t;

	/* unit 0, t_float: 4x4 RGBA32F, levels 0..2 */
	texture(GL_TEXTURE0);
	for (int l = 0; l < 3; l++) {
		int size = 4 >> l;
		for (int i = 0; i < size * size; i++)
			float_texel(l, i % size, i / size, f + 4 * i);
		glTexImage2D(GL_TEXTURE_2D, l, GL_RGBA32F, size, size, 0, GL_RGBA, GL_FLOAT, f);
	}
	filters(GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST);
	/* unit 1, t_uint: 2x2 RGBA32UI, storage then contents */
	texture(GL_TEXTURE1);
	glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32UI, 2, 2);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			u[4 * i + j] = 1000u + 100u * (uint32_t)i + (uint32_t)j;
	glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 2, GL_RGBA_INTEGER, GL_UNSIGNED_INT, u);
	filters(GL_NEAREST, GL_NEAREST);
	/* unit 2, t_lin: level 0 of t_float's values, linear, one level */
	texture(GL_TEXTURE2);
	for (int i = 0; i < 16; i++)
		float_texel(0, i % 4, i / 4, f + 4 * i);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, 4, 4, 0, GL_RGBA, GL_FLOAT, f);
	filters(GL_LINEAR, GL_LINEAR);
	/* unit 3, t_mip: 32x32 RGBA8, levels 0..5 of one colour each */
	texture(GL_TEXTURE3);
	for (int l = 0; l < 6; l++) {
		uint8_t c[4];
		mip_color(l, c);
		for (int i = 0; i < (SIZE >> l) * (SIZE >> l); i++)
			memcpy(b + 4 * i, c, 4);
		glTexImage2D(GL_TEXTURE_2D, l, GL_RGBA8, SIZE >> l, SIZE >> l, 0, GL_RGBA, GL_UNSIGNED_BYTE, b);
	}
	filters(GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST);
	/* unit 4, t_gen: 8x8 RGBA8 of 2x2 blocks, glGenerateMipmap */
	texture(GL_TEXTURE4);
	for (int y = 0; y < 8; y++)
		for (int x = 0; x < 8; x++)
			gen_color(x / 2, y / 2, b + 4 * (y * 8 + x));
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, b);
	glGenerateMipmap(GL_TEXTURE_2D);
	filters(GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST);
	/* unit 5, t_rgb: 3x3 GL_RGB8, rows of 9 bytes padded to 12 */
	texture(GL_TEXTURE5);
	for (int i = 0; i < 3 * 12; i++)
		b[i] = (uint8_t)(i % 12 < 9 ? 25 * (i % 12) + 5 * (i / 12) : 0xEE);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, 3, 3, 0, GL_RGB, GL_UNSIGNED_BYTE, b);
	filters(GL_LINEAR, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	/* unit 6, t_arr: RGBA32F 2x2, 3 layers */
	glGenTextures(1, &t);
	glActiveTexture(GL_TEXTURE6);
	glBindTexture(GL_TEXTURE_2D_ARRAY, t);
	for (int i = 0; i < 12; i++) {
		f[4 * i] = (float)(i % 2), f[4 * i + 1] = (float)(i / 2 % 2);
		f[4 * i + 2] = (float)(i / 4), f[4 * i + 3] = 1;
	}
	glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA32F, 2, 2, 3, 0, GL_RGBA, GL_FLOAT, f);
	glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	/* unit 7, t_vol: RGBA32F 4x4x4 ramp, levels by glGenerateMipmap */
	glGenTextures(1, &t);
	glActiveTexture(GL_TEXTURE7);
	glBindTexture(GL_TEXTURE_3D, t);
	for (int i = 0; i < 64; i++) {
		vol[4 * i] = (float)(i % 4), vol[4 * i + 1] = (float)(i / 4 % 4);
		vol[4 * i + 2] = (float)(i / 16), vol[4 * i + 3] = 1;
	}
	glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA32F, 4, 4, 4, 0, GL_RGBA, GL_FLOAT, vol);
	glGenerateMipmap(GL_TEXTURE_3D);
	glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
	/* unit 8, t_cube: six 2x2 RGBA32F faces, texel (x, y) of face f = (f, x, y, 1) */
	glGenTextures(1, &t);
	glActiveTexture(GL_TEXTURE8);
	glBindTexture(GL_TEXTURE_CUBE_MAP, t);
	for (int face = 0; face < 6; face++) {
		for (int i = 0; i < 4; i++)
			f[4 * i] = (float)face, f[4 * i + 1] = (float)(i % 2), f[4 * i + 2] = (float)(i / 2), f[4 * i + 3] = 1;
		glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)face, 0, GL_RGBA32F, 2, 2, 0, GL_RGBA, GL_FLOAT, f);
	}
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

static void uniform_unit(GLuint prog, const char *name, GLint unit)
{
	glUniform1i(glGetUniformLocation(prog, name), unit);
}

/* The exact regions: t_mip's level 2 left, t_gen's level 1 bottom right. */
static void check_pixels(struct app_check *c, const uint8_t *img, bool perturb)
{
	uint32_t got[SIZE * SIZE], want[SIZE * SIZE];
	unsigned n = 0;
	for (int y = 0; y < SIZE; y++)
		for (int x = 0; x < SIZE; x++) {
			uint8_t w[4];
			if (x < 16)
				mip_color(2, w);
			else if (y < 16)   /* level 1 texel (x / 8, y / 8) = level 0 block */
				gen_color(x / 8, y / 8, w);
			else
				continue;
			if (perturb && !n)
				w[0] ^= 1;
			memcpy(&got[n], img + 4 * (y * SIZE + x), 4);
			memcpy(&want[n], w, 4);
			n++;
		}
	app_check_words(c, "pixels of the mipmapped and the generated textures", got, want, n, SIZE);
}

static int run(const struct app_opts *opts, struct app_check *c, struct app_egl *egl)
{
	GLuint tf_prog, quad_prog, tf_buf, vao;
	uint32_t want[N_POINTS * OUT_DW], got[N_POINTS * OUT_DW];
	static uint8_t img[SIZE * SIZE * 4];

	tf_prog = app_gl_program(tf_vs, NULL, NULL, varyings, 9, GL_INTERLEAVED_ATTRIBS);
	quad_prog = app_gl_program(quad_vs, NULL, quad_fs, NULL, 0, GL_INTERLEAVED_ATTRIBS);
	if (!tf_prog || !quad_prog)
		return APP_EXIT_SETUP;
	make_textures();
	if (app_gl_failed("texture setup"))
		return APP_EXIT_SETUP;

	if (!app_gl_rgba8_framebuffer(PROG, SIZE, SIZE))
		return APP_EXIT_SETUP;
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);

	/* Pass 1: what the vertex shader samples, captured. */
	glGenBuffers(1, &tf_buf);
	if (!app_gl_buffer_sentinel(tf_buf, sizeof got))
		return APP_EXIT_SETUP;
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf_buf);
	glUseProgram(tf_prog);
	uniform_unit(tf_prog, "t_float", 0);
	uniform_unit(tf_prog, "t_uint", 1);
	uniform_unit(tf_prog, "t_lin", 2);
	uniform_unit(tf_prog, "t_arr", 6);
	uniform_unit(tf_prog, "t_vol", 7);
	uniform_unit(tf_prog, "t_cube", 8);
	glEnable(GL_RASTERIZER_DISCARD);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, N_POINTS);
	glEndTransformFeedback();
	glDisable(GL_RASTERIZER_DISCARD);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
	if (app_gl_failed("transform feedback pass"))
		return APP_EXIT_SETUP;
	expected_tf(want);
	if (opts->perturb)
		want[0] = app_f2u(app_u2f(want[0]) + 1.0f);
	if (!app_gl_read_mapped(c, tf_buf, 0, sizeof got, got))
		return APP_EXIT_SETUP;
	app_check_words(c, "TF buffer (texelFetch, textureLod)", got, want, N_POINTS * OUT_DW, OUT_DW);

	/* Pass 2: the fragment shader samples. */
	glViewport(0, 0, SIZE, SIZE);
	glClearColor(0, 0, 0, 0);
	glClear(GL_COLOR_BUFFER_BIT);
	glUseProgram(quad_prog);
	uniform_unit(quad_prog, "t_mip", 3);
	uniform_unit(quad_prog, "t_gen", 4);
	uniform_unit(quad_prog, "t_rgb", 5);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	if (app_gl_failed("draw pass"))
		return APP_EXIT_SETUP;
	glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, img);
	if (app_gl_failed("glReadPixels"))
		return APP_EXIT_SETUP;
	check_pixels(c, img, opts->perturb);
	return APP_EXIT_PASS;
}

int main(int argc, char **argv)
{
	static const struct app_main_desc d = {
		.prog = PROG, .api = APP_API_GL_CORE, .major = 3, .minor = 3, .run = run
	};
	return app_main(argc, argv, &d);
}
