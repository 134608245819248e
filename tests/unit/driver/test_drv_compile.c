/*
 * test_drv_compile.c - vertex shaders compiled by the driver and run on
 * gpu_model with streamout, compared with values computed on the CPU:
 * attributes and gl_VertexID / gl_InstanceID, integer and bit operations,
 * loops with divergent breaks, matrices, default uniforms and a std140
 * uniform block, dynamic indexing, doubles, and the GLSL 1.10 / 1.20 /
 * 1.30 / 1.40 / 1.50 / ES 1.00 translator paths with attribute / varying /
 * gl_Vertex / ftransform.
 */
#include <math.h>

#include "drv_test_util.h"

#define N 12

static void run_points(const struct drv_program *p, struct dt_run *r, unsigned n)
{
	r->prim = V_DI_PT_POINTLIST;
	r->count = n;
	dt_run(p, r);
}

static void test_vs_vertex_id_captured_as_int(void)
{
	static const char vs[] =
		"#version 330\n"
		"flat out int id;\n"
		"out vec4 pos;\n"
		"void main() { id = gl_VertexID * 3 + 1; pos = vec4(float(gl_VertexID), 1.0, 2.0, -1.0);\n"
		"  gl_Position = pos; }\n";
	static const char *const v[] = { "id", "pos" };
	struct drv_program *p = dt_compile(vs, NULL, v, 2, DRV_GL_INTERLEAVED_ATTRIBS);
	static struct dt_run r;
	bool ok = true;

	DT_REQUIRE_LINKED(p);
	CHECK_EQ_INT(p->tf.stride_bytes[0], 20);
	memset(&r, 0, sizeof r);
	r.base_vertex = 5;
	run_points(p, &r, N);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < N; i++) {
		unsigned vid = i + 5;
		ok &= r.so[0][i * 5] == vid * 3 + 1;
		ok &= dt_f(r.so[0][i * 5 + 1]) == (float)vid && dt_f(r.so[0][i * 5 + 2]) == 1.0f;
		ok &= dt_f(r.so[0][i * 5 + 3]) == 2.0f && dt_f(r.so[0][i * 5 + 4]) == -1.0f;
	}
	CHECK(ok);
	CHECK_EQ_INT(r.filled_dw[0], N * 5);
	if (!ok)
		dt_dump(p);
	drv_program_destroy(p);
}


/* Compiles `vs`, captures `v` (interleaved), runs n points with attribute
 * 0 = (i, i*0.5, -i, 1) and returns the program (caller destroys). */
static struct drv_program *compile_run(const char *vs, const char *const *v, unsigned nv, struct dt_run *r,
				       unsigned n)
{
	static float attr[DT_MAX_VERTS][4];
	struct drv_program *p = dt_compile(vs, NULL, v, nv, DRV_GL_INTERLEAVED_ATTRIBS);
	CHECK(p && p->linked);
	if (!p || !p->linked)
		return p;
	for (unsigned i = 0; i < DT_MAX_VERTS; i++) {
		attr[i][0] = (float)i;
		attr[i][1] = (float)i * 0.5f;
		attr[i][2] = -(float)i;
		attr[i][3] = 1.0f;
	}
	if (!r->attrib[0])
		r->attrib[0] = attr;
	run_points(p, r, n);
	CHECK_EQ_INT(r->faults, 0);
	return p;
}

static void test_vs_loop_with_divergent_break_and_if(void)
{
	/* each vertex loops a different number of times and leaves early
	 * when its sum passes a threshold: lanes diverge inside the loop */
	static const char vs[] =
		"#version 330\n"
		"in vec4 a;\n"
		"flat out int iters;\n"
		"flat out int sum;\n"
		"out float odd;\n"
		"void main() {\n"
		"  int n = int(a.x);\n"
		"  int s = 0; int k = 0;\n"
		"  for (int i = 0; i < n; i++) {\n"
		"    if ((i & 1) == 1) s += i * 3; else s -= 1;\n"
		"    k++;\n"
		"    if (s > 40) break;\n"
		"  }\n"
		"  iters = k; sum = s;\n"
		"  if (n % 2 == 1) odd = 1.5; else odd = -2.0;\n"
		"  gl_Position = a;\n"
		"}\n";
	static const char *const v[] = { "iters", "sum", "odd" };
	static struct dt_run r;
	struct drv_program *p;
	bool ok = true;

	memset(&r, 0, sizeof r);
	p = compile_run(vs, v, 3, &r, 20);
	if (!p || !p->linked) {
		drv_program_destroy(p);
		return;
	}
	for (int i = 0; i < 20; i++) {
		int s = 0, k = 0;
		for (int j = 0; j < i; j++) {
			if ((j & 1) == 1) s += j * 3; else s -= 1;
			k++;
			if (s > 40) break;
		}
		ok &= (int)r.so[0][i * 3] == k && (int)r.so[0][i * 3 + 1] == s;
		ok &= dt_f(r.so[0][i * 3 + 2]) == ((i % 2) ? 1.5f : -2.0f);
		if (!ok) {
			fprintf(stderr, "vertex %d: got %d %d, want %d %d\n", i, (int)r.so[0][i * 3], (int)r.so[0][i * 3 + 1], k, s);
			break;
		}
	}
	CHECK(ok);
	if (!ok)
		dt_dump(p);
	drv_program_destroy(p);
}

static void test_vs_integer_and_bit_ops(void)
{
	static const char vs[] =
		"#version 400\n"
		"in vec4 a;\n"
		"flat out ivec4 r0;\n"
		"flat out uvec4 r1;\n"
		"void main() {\n"
		"  int i = int(a.x) - 6; uint u = uint(gl_VertexID) * 2654435761u;\n"
		"  r0 = ivec4(i / 3, i % 5, i >> 1, abs(i) * sign(i) + min(i, 2) - max(i, -1));\n"
		"  r1 = uvec4(u >> 7, u ^ 0xA5A5A5A5u, bitfieldExtract(u, 4, 8), uint(bitCount(u)) + uint(findMSB(u)) * 100u);\n"
		"  gl_Position = vec4(0.0);\n"
		"}\n";
	static const char *const v[] = { "r0", "r1" };
	static struct dt_run r;
	struct drv_program *p;
	bool ok = true;

	memset(&r, 0, sizeof r);
	p = compile_run(vs, v, 2, &r, N);
	if (!p || !p->linked) {
		drv_program_destroy(p);
		return;
	}
	for (int k = 0; k < N; k++) {
		int i = k - 6;
		uint32_t u = (uint32_t)k * 2654435761u, msb = 31;
		int sg = i > 0 ? 1 : i < 0 ? -1 : 0, mod = ((i % 5) + 5) % 5;   /* OpSMod: sign of the divisor */
		while (u && !(u >> msb & 1))
			msb--;
		ok &= (int)r.so[0][k * 8 + 0] == i / 3;
		ok &= (int)r.so[0][k * 8 + 1] == mod;
		ok &= (int)r.so[0][k * 8 + 2] == (i >> 1);
		ok &= (int)r.so[0][k * 8 + 3] == abs(i) * sg + (i < 2 ? i : 2) - (i > -1 ? i : -1);
		ok &= r.so[0][k * 8 + 4] == u >> 7;
		ok &= r.so[0][k * 8 + 5] == (u ^ 0xA5A5A5A5u);
		ok &= r.so[0][k * 8 + 6] == ((u >> 4) & 0xFF);
		ok &= r.so[0][k * 8 + 7] == (uint32_t)__builtin_popcount(u) + (u ? msb : 0xFFFFFFFFu) * 100u;
		if (!ok) {
			fprintf(stderr, "vertex %d wrong: %d %d %d %d %x %x %x %u\n", k, (int)r.so[0][k * 8], (int)r.so[0][k * 8 + 1],
				(int)r.so[0][k * 8 + 2], (int)r.so[0][k * 8 + 3], r.so[0][k * 8 + 4], r.so[0][k * 8 + 5],
				r.so[0][k * 8 + 6], r.so[0][k * 8 + 7]);
			break;
		}
	}
	CHECK(ok);
	drv_program_destroy(p);
}

/* Mesa 22.3's nir_atan, evaluated as radeonsi on GFX8 runs it: division
 * as a multiplication by the reciprocal, multiply-adds unfused, every
 * operation rounded to f32 (the reference the sim's lowering must match
 * bit for bit). */
static float ref_atan(float y_over_x)
{
	static const float k[] = { 0.9999793128310355f, -0.3326756418091246f, 0.1938924977115610f,
				   -0.1173503194786851f, 0.0536813784310406f, -0.0121323213173444f };
	volatile float a = fabsf(y_over_x), mn = a < 1.0f ? a : 1.0f, mx = a > 1.0f ? a : 1.0f;
	volatile float rcp = 1.0f / mx, x = mn * rcp, x2 = x * x, pw = x, sum = 0.0f, t;
	for (unsigned i = 0; i < 6; i++) {
		if (i)
			pw = i == 1 ? x2 * x : pw * x2;
		t = pw * k[i];
		sum = i ? sum + t : t;
	}
	t = sum * -2.0f;
	t = t + (float)M_PI_2;
	t = (1.0f < a ? 1.0f : 0.0f) * t;
	sum = sum + t;
	return sum * (y_over_x > 0.0f ? 1.0f : y_over_x < 0.0f ? -1.0f : 0.0f);
}

/* atan, atan2, asin, acos, sin, cos, tan as a GFX8 GPU with radeonsi
 * computes them (drv_spirv_alu.c): atan bit-exact to NIR's polynomial,
 * sin / cos through fract(x / 2pi) of revolutions (so close to, but not
 * always equal to, libm), asin / acos within the GLSL builtin's error. */
static void test_vs_transcendentals_as_gfx8_radeonsi(void)
{
	static const char vs[] =
		"#version 330\n"
		"out vec4 a;\n"
		"out vec4 b;\n"
		"void main() {\n"
		"  float x = (float(gl_VertexID) - 5.5) * 0.7;\n"
		"  float u = (float(gl_VertexID) - 5.5) / 6.0;\n"
		"  a = vec4(atan(x), atan(x, -1.5), sin(x * 9.0), cos(x * 9.0));\n"
		"  b = vec4(asin(u), acos(u), tan(x), atan(-x, 0.0));\n"
		"  gl_Position = a;\n"
		"}\n";
	static const char *const v[] = { "a", "b" };
	struct drv_program *p = dt_compile(vs, NULL, v, 2, DRV_GL_INTERLEAVED_ATTRIBS);
	static struct dt_run r;
	bool ok = true;

	DT_REQUIRE_LINKED(p);
	memset(&r, 0, sizeof r);
	run_points(p, &r, N);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < N; i++) {
		const uint32_t *o = &r.so[0][i * 8];
		float x = ((float)i - 5.5f) * 0.7f, u = ((float)i - 5.5f) / 6.0f;
		bool row = dt_f(o[0]) == ref_atan(x);
		row &= fabsf(dt_f(o[1]) - atan2f(x, -1.5f)) < 1e-5f;
		row &= fabsf(dt_f(o[2]) - sinf(x * 9.0f)) < 2e-5f && fabsf(dt_f(o[3]) - cosf(x * 9.0f)) < 2e-5f;
		/* the polynomials' own error: 3.9e-4 (asin), 1.6e-4 (acos) */
		row &= fabsf(dt_f(o[4]) - asinf(u)) < 4e-4f && fabsf(dt_f(o[5]) - acosf(u)) < 2e-4f;
		row &= fabsf(dt_f(o[6]) - tanf(x)) < 1e-4f * fmaxf(1.0f, fabsf(tanf(x)));
		row &= fabsf(dt_f(o[7]) - atan2f(-x, 0.0f)) < 1e-5f;
		if (!row)
			fprintf(stderr, "vertex %u: atan %.9g (ref %.9g) atan2 %.9g sin %.9g cos %.9g asin %.9g acos %.9g "
				"tan %.9g atan2(-x,0) %.9g\n", i, dt_f(o[0]), ref_atan(x), dt_f(o[1]), dt_f(o[2]),
				dt_f(o[3]), dt_f(o[4]), dt_f(o[5]), dt_f(o[6]), dt_f(o[7]));
		ok &= row;
	}
	CHECK(ok);
	drv_program_destroy(p);
}

static void test_vs_uniforms_matrix_and_block(void)
{
	static const char vs[] =
		"#version 330\n"
		"in vec4 a;\n"
		"uniform mat4 m;\n"
		"uniform float scale[3];\n"
		"uniform struct S { vec3 off; int sel; } s;\n"
		"layout(std140) uniform Blk { vec4 bias; ivec2 pick; float arr[4]; } blk;\n"
		"out vec4 p;\n"
		"out float x;\n"
		"void main() {\n"
		"  p = m * a + blk.bias;\n"
		"  x = scale[gl_VertexID % 3] * s.off[s.sel] + blk.arr[gl_VertexID & 3] + float(blk.pick.y);\n"
		"  gl_Position = p;\n"
		"}\n";
	static const char *const v[] = { "p", "x" };
	static struct dt_run r;
	static float consts[64], ubo[32];
	struct drv_program *p = dt_compile(vs, NULL, v, 2, DRV_GL_INTERLEAVED_ATTRIBS);
	static float attr[DT_MAX_VERTS][4];
	float m[16], scale[3] = { 2.0f, -1.0f, 0.25f }, off[3] = { 10.0f, 20.0f, 30.0f }, bias[4] = { 1, 2, 3, 4 };
	float arr[4] = { 0.5f, 1.5f, 2.5f, 3.5f };
	unsigned ui, el;
	bool ok = true;

	DT_REQUIRE_LINKED(p);
	memset(&r, 0, sizeof r);
	for (unsigned i = 0; i < 16; i++)
		m[i] = (float)(i + 1) * 0.5f;
	/* fill the constant buffer through the uniform table, as the state
	 * tracker will for glUniform* */
	CHECK(drv_program_uniform_location(p, "m", &ui, &el) >= 0);
	memcpy((char *)consts + p->uniforms[ui].offset, m, sizeof m);
	CHECK_EQ_INT(p->uniforms[ui].matrix_stride, 16);
	CHECK(drv_program_uniform_location(p, "scale[2]", &ui, &el) >= 0);
	CHECK_EQ_INT(el, 2);
	for (unsigned i = 0; i < 3; i++)
		memcpy((char *)consts + p->uniforms[ui].offset + i * p->uniforms[ui].array_stride, &scale[i], 4);
	CHECK(drv_program_uniform_location(p, "s.off", &ui, NULL) >= 0);
	memcpy((char *)consts + p->uniforms[ui].offset, off, sizeof off);
	CHECK(drv_program_uniform_location(p, "s.sel", &ui, NULL) >= 0);
	{
		int sel = 1;
		memcpy((char *)consts + p->uniforms[ui].offset, &sel, 4);
	}
	CHECK_EQ_INT(drv_program_ubo_index(p, "Blk"), 0);
	CHECK_EQ_INT(p->n_ubos, 1);
	CHECK_EQ_INT(p->ubos[0].size_bytes, 96);   /* vec4 @0, ivec2 @16, float[4] @32 stride 16 */
	memcpy(ubo, bias, sizeof bias);
	{
		int pick[2] = { 7, 9 };
		memcpy(ubo + 4, pick, sizeof pick);
	}
	for (unsigned i = 0; i < 4; i++)
		ubo[8 + 4 * i] = arr[i];
	r.consts = consts;
	r.consts_size = sizeof consts;
	r.ubo[0] = ubo;
	r.ubo_size[0] = p->ubos[0].size_bytes;
	for (unsigned i = 0; i < DT_MAX_VERTS; i++) {
		attr[i][0] = (float)i;
		attr[i][1] = 1.0f;
		attr[i][2] = -(float)i * 0.25f;
		attr[i][3] = 1.0f;
	}
	r.attrib[drv_program_attrib_location(p, "a")] = attr;
	run_points(p, &r, N);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < N; i++) {
		for (unsigned row = 0; row < 4; row++) {
			float acc = m[row] * attr[i][0];
			for (unsigned c = 1; c < 4; c++)
				acc = m[c * 4 + row] * attr[i][c] + acc;
			acc += bias[row];
			ok &= dt_f(r.so[0][i * 5 + row]) == acc;
		}
		ok &= dt_f(r.so[0][i * 5 + 4]) == scale[i % 3] * off[1] + arr[i & 3] + 9.0f;
		if (!ok) {
			fprintf(stderr, "vertex %u: %g %g %g %g %g\n", i, dt_f(r.so[0][i * 5]), dt_f(r.so[0][i * 5 + 1]),
				dt_f(r.so[0][i * 5 + 2]), dt_f(r.so[0][i * 5 + 3]), dt_f(r.so[0][i * 5 + 4]));
			dt_dump(p);
			break;
		}
	}
	CHECK(ok);
	drv_program_destroy(p);
}

/* The descriptor-table slot of sampler uniform `name`. */
static int sampler_slot(const struct drv_program *p, const char *name)
{
	unsigned ui;
	if (drv_program_uniform_location(p, name, &ui, NULL) < 0)
		return -1;
	for (unsigned k = 0; k < p->n_samplers; k++)
		if (p->samplers[k].const_offset == p->uniforms[ui].offset)
			return (int)k;
	return -1;
}

/* A linear RGBA T# of a w x h image with levels 0..last, and an S#. */
static void tex_desc(uint32_t d[16], unsigned df, unsigned nf, unsigned w, unsigned h, unsigned last,
		     unsigned filter, unsigned mip_filter)
{
	memset(d, 0, 16 * sizeof *d);
	d[1] = SQ_IMG_RSRC_WORD1_DATA_FORMAT(df) | SQ_IMG_RSRC_WORD1_NUM_FORMAT(nf);
	d[2] = SQ_IMG_RSRC_WORD2_WIDTH(w - 1) | SQ_IMG_RSRC_WORD2_HEIGHT(h - 1);
	d[3] = SQ_IMG_RSRC_WORD3_DST_SEL_X(V_SQ_SEL_X) | SQ_IMG_RSRC_WORD3_DST_SEL_Y(V_SQ_SEL_Y) |
	       SQ_IMG_RSRC_WORD3_DST_SEL_Z(V_SQ_SEL_Z) | SQ_IMG_RSRC_WORD3_DST_SEL_W(V_SQ_SEL_W) |
	       SQ_IMG_RSRC_WORD3_LAST_LEVEL(last) | SQ_IMG_RSRC_WORD3_TILING_INDEX(8) |
	       SQ_IMG_RSRC_WORD3_TYPE(V_SQ_RSRC_IMG_2D);
	d[4] = SQ_IMG_RSRC_WORD4_PITCH(w - 1);
	d[13] = SQ_IMG_SAMP_WORD1_MAX_LOD(15 << 8);
	d[14] = SQ_IMG_SAMP_WORD2_XY_MAG_FILTER(filter) | SQ_IMG_SAMP_WORD2_XY_MIN_FILTER(filter) |
		SQ_IMG_SAMP_WORD2_MIP_FILTER(mip_filter);
}

/* T# d's image type (an SQ_RSRC_IMG_*) and its last layer / slice. */
static void tex_type(uint32_t d[16], unsigned type, unsigned depth)
{
	d[3] = (d[3] & ~SQ_IMG_RSRC_WORD3_TYPE(0xF)) | SQ_IMG_RSRC_WORD3_TYPE(type);
	d[4] |= SQ_IMG_RSRC_WORD4_DEPTH(depth);
}

/* On a failed check: the n output dwords `o` of `what` i (floats, then
 * integers from dword n_float) and the program's disassembly. */
static void dump_outputs(const struct drv_program *p, const char *what, unsigned i, const uint32_t *o,
			 unsigned n, unsigned n_float)
{
	fprintf(stderr, "%s %u:", what, i);
	for (unsigned k = 0; k < n; k++)
		fprintf(stderr, " %g", k >= n_float ? (double)o[k] : dt_f(o[k]));
	fprintf(stderr, "\n");
	dt_dump(p);
}

/* textureSize (image_get_resinfo) of a sampler2D at a non-constant level:
 * a 4x4 texture with levels 0..1, so (4, 4) at level 0 and (2, 2) at 1. */
static void test_vs_texture_size(void)
{
	static const char vs[] =
		"#version 330\n"
		"uniform sampler2D tex;\n"
		"flat out ivec2 s;\n"
		"void main() {\n"
		"  s = textureSize(tex, gl_VertexID % 2);\n"
		"  gl_Position = vec4(0.0);\n"
		"}\n";
	static const char *const v[] = { "s" };
	static struct dt_run r;
	static float texels[(16 + 4) * 4];
	struct drv_program *p = dt_compile(vs, NULL, v, 1, DRV_GL_INTERLEAVED_ATTRIBS);
	int ts;

	DT_REQUIRE_LINKED(p);
	memset(&r, 0, sizeof r);
	ts = sampler_slot(p, "tex");
	CHECK(ts >= 0);
	if (ts < 0) {
		drv_program_destroy(p);
		return;
	}
	r.tex[ts] = texels;
	r.tex_bytes[ts] = sizeof texels;
	tex_desc(r.tex_desc[ts], V_BUF_DATA_FORMAT_32_32_32_32, V_IMG_NUM_FORMAT_FLOAT, 4, 4, 1,
		 V_SQ_TEX_XY_FILTER_POINT, V_SQ_TEX_Z_FILTER_POINT);
	run_points(p, &r, 4);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < 4; i++) {
		CHECK_EQ_INT(r.so[0][2 * i], i % 2 ? 2 : 4);
		CHECK_EQ_INT(r.so[0][2 * i + 1], i % 2 ? 2 : 4);
	}
	CHECK(strstr(p->hw[DRV_HW_VS].asm_text, "image_get_resinfo") != NULL);
	drv_program_destroy(p);
}

/* texelFetch (image_load, image_load_mip at a non-constant level),
 * textureLod (image_sample_l) and texture (LOD 0 outside fragment shaders,
 * GLSL 4.60 §8.9) in a vertex shader, through the sampler slots of the
 * descriptor table: an RGBA32F 4x4 texture with a 2x2 level 1 and an
 * RGBA32UI 2x2 one. */
static void test_vs_texture_lookups(void)
{
	static const char vs[] =
		"#version 330\n"
		"uniform sampler2D tex;\n"
		"uniform usampler2D utex;\n"
		"uniform int level;\n"
		"out vec4 f;\n"
		"out vec4 m;\n"
		"out vec4 l;\n"
		"out vec4 b;\n"
		"flat out uvec4 u;\n"
		"void main() {\n"
		"  f = texelFetch(tex, ivec2(gl_VertexID % 4, (gl_VertexID / 4) % 4), 0);\n"
		"  m = texelFetch(tex, ivec2(1, 0), level);\n"
		"  l = textureLod(tex, vec2(0.75, 0.25), float(gl_VertexID % 2));\n"
		"  b = texture(tex, vec2(0.25, 0.125));\n"
		"  u = texelFetch(utex, ivec2(gl_VertexID % 2, 1), 0);\n"
		"  gl_Position = vec4(0.0);\n"
		"}\n";
	static const char *const v[] = { "f", "m", "l", "b", "u" };
	static struct dt_run r;
	static float texels[(16 + 4) * 4];
	static uint32_t utexels[4 * 4], consts[64];
	struct drv_program *p = dt_compile(vs, NULL, v, 5, DRV_GL_INTERLEAVED_ATTRIBS);
	int ts, us;
	unsigned ui;
	bool ok = true;

	DT_REQUIRE_LINKED(p);
	memset(&r, 0, sizeof r);
	CHECK_EQ_INT(p->n_samplers, 2);
	ts = sampler_slot(p, "tex");
	us = sampler_slot(p, "utex");
	CHECK(ts >= 0 && us >= 0 && ts != us);
	if (ts < 0 || us < 0) {
		drv_program_destroy(p);
		return;
	}
	/* level 0 texel (x, y) = (x, y, 10 + x + 4y, 1); level 1 (100 + x, 100 + y, 0, 1) */
	for (unsigned i = 0; i < 16; i++) {
		texels[4 * i] = (float)(i % 4), texels[4 * i + 1] = (float)(i / 4);
		texels[4 * i + 2] = (float)(10 + i), texels[4 * i + 3] = 1;
	}
	for (unsigned i = 0; i < 4; i++) {
		texels[64 + 4 * i] = (float)(100 + i % 2), texels[64 + 4 * i + 1] = (float)(100 + i / 2);
		texels[64 + 4 * i + 2] = 0, texels[64 + 4 * i + 3] = 1;
	}
	for (unsigned i = 0; i < 16; i++)
		utexels[i] = 1000 + i;
	r.tex[ts] = texels;
	r.tex_bytes[ts] = sizeof texels;
	tex_desc(r.tex_desc[ts], V_BUF_DATA_FORMAT_32_32_32_32, V_IMG_NUM_FORMAT_FLOAT, 4, 4, 1,
		 V_SQ_TEX_XY_FILTER_BILINEAR, V_SQ_TEX_Z_FILTER_POINT);
	r.tex[us] = utexels;
	r.tex_bytes[us] = sizeof utexels;
	tex_desc(r.tex_desc[us], V_BUF_DATA_FORMAT_32_32_32_32, V_IMG_NUM_FORMAT_UINT, 2, 2, 0,
		 V_SQ_TEX_XY_FILTER_POINT, V_SQ_TEX_Z_FILTER_NONE);
	CHECK(drv_program_uniform_location(p, "level", &ui, NULL) >= 0);
	consts[p->uniforms[ui].offset / 4] = 1;
	r.consts = consts;
	r.consts_size = p->const_buffer_size;
	run_points(p, &r, N);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < N && ok; i++) {
		const uint32_t *o = &r.so[0][i * 20];
		unsigned x = i % 4, y = (i / 4) % 4;
		/* texelFetch level 0 */
		ok &= dt_f(o[0]) == x && dt_f(o[1]) == y && dt_f(o[2]) == 10 + x + 4 * y;
		/* texelFetch level 1, texel (1, 0) */
		ok &= dt_f(o[4]) == 101 && dt_f(o[5]) == 100;
		/* textureLod: LOD 0 magnifies (bilinear at (3, 1) texels: columns
		 * 2, 3 and rows 0, 1 averaged); LOD 1 minifies at level 1 (mip
		 * nearest), bilinear at (1.5, 0.5) texels: the centre of texel (1, 0) */
		if (i % 2 == 0)
			ok &= dt_f(o[8]) == 2.5f && dt_f(o[9]) == 0.5f;
		else
			ok &= dt_f(o[8]) == 101 && dt_f(o[9]) == 100;
		/* texture: LOD 0 outside the fragment shader, bilinear at (1, 0.5)
		 * texels: x between texels 0 and 1, y on texel row 0 */
		ok &= dt_f(o[12]) == 0.5f && dt_f(o[13]) == 0;
		/* integer texelFetch */
		ok &= o[16] == 1000 + 4 * (2 + i % 2) && o[19] == 1000 + 4 * (2 + i % 2) + 3;
		if (!ok)
			dump_outputs(p, "vertex", i, o, 20, 16);
	}
	CHECK(ok);
	CHECK(strstr(p->hw[DRV_HW_VS].asm_text, "image_load_mip") != NULL);
	CHECK(strstr(p->hw[DRV_HW_VS].asm_text, "image_sample_l") != NULL);
	drv_program_destroy(p);
}

/* The new lookups outside a fragment shader (no derivatives: textureOffset
 * at LOD 0, image_sample_l_o; GLSL 4.60 §8.9): the RGBA32F texture of
 * test_vs_texture_lookups, level 0 texel (x, y) = (x, y, 10 + x + 4y, 1),
 * level 1 (100 + x, 100 + y, 0, 1), nearest filters (GL 4.6 §8.14):
 * textureOffset at (0.125, 0.125) + (1, 2) texels reads (1, 2);
 * textureGrad with ds/dx = 0.5 (rho 2, lambda 1) reads level 1 texel (0, 0)
 * at s = 0.375; textureGather of z at (0.5, 0.5) the footprint i0 = j0 = 1:
 * (1, 2), (2, 2), (2, 1), (1, 1); textureProj (0.5, 0.25) / 2 reads (1, 0);
 * texelFetchOffset (2, 1) + (1, 1) reads (3, 2). */
static void test_vs_offsets_grads_gather_proj(void)
{
	static const char vs[] =
		"#version 400\n"
		"uniform sampler2D tex;\n"
		"out vec4 a;\nout vec4 g;\nout vec4 t;\nout vec4 q;\nout vec4 f;\n"
		"void main() {\n"
		"  a = textureOffset(tex, vec2(0.125, 0.125), ivec2(1, 2));\n"
		"  g = textureGrad(tex, vec2(0.375, 0.125), vec2(0.5, 0.0), vec2(0.0));\n"
		"  t = textureGather(tex, vec2(0.5, 0.5), 2);\n"
		"  q = textureProj(tex, vec3(0.5, 0.25, 2.0));\n"
		"  f = texelFetchOffset(tex, ivec2(2, 1), 0, ivec2(1, 1));\n"
		"  gl_Position = vec4(0.0);\n"
		"}\n";
	static const char *const v[] = { "a", "g", "t", "q", "f" };
	static const float want[20] = { 1, 2, 19, 1, 100, 100, 0, 1, 19, 20, 16, 15, 1, 0, 11, 1, 3, 2, 21, 1 };
	static struct dt_run r;
	static float texels[(16 + 4) * 4];
	struct drv_program *p = dt_compile(vs, NULL, v, 5, DRV_GL_INTERLEAVED_ATTRIBS);
	int ts;
	bool ok = true;

	DT_REQUIRE_LINKED(p);
	memset(&r, 0, sizeof r);
	ts = sampler_slot(p, "tex");
	CHECK(ts >= 0);
	if (ts < 0) {
		drv_program_destroy(p);
		return;
	}
	for (unsigned i = 0; i < 16; i++) {
		texels[4 * i] = (float)(i % 4), texels[4 * i + 1] = (float)(i / 4);
		texels[4 * i + 2] = (float)(10 + i), texels[4 * i + 3] = 1;
	}
	for (unsigned i = 0; i < 4; i++) {
		texels[64 + 4 * i] = (float)(100 + i % 2), texels[64 + 4 * i + 1] = (float)(100 + i / 2);
		texels[64 + 4 * i + 2] = 0, texels[64 + 4 * i + 3] = 1;
	}
	r.tex[ts] = texels;
	r.tex_bytes[ts] = sizeof texels;
	tex_desc(r.tex_desc[ts], V_BUF_DATA_FORMAT_32_32_32_32, V_IMG_NUM_FORMAT_FLOAT, 4, 4, 1,
		 V_SQ_TEX_XY_FILTER_POINT, V_SQ_TEX_Z_FILTER_POINT);
	run_points(p, &r, N);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < N && ok; i++) {
		const uint32_t *o = &r.so[0][i * 20];
		for (unsigned k = 0; k < 20; k++)
			ok &= dt_f(o[k]) == want[k];
		if (!ok)
			dump_outputs(p, "vertex", i, o, 20, 20);
	}
	CHECK(ok);
	CHECK(strstr(p->hw[DRV_HW_VS].asm_text, "image_sample_l_o") != NULL);
	CHECK(strstr(p->hw[DRV_HW_VS].asm_text, "image_sample_d") != NULL);
	CHECK(strstr(p->hw[DRV_HW_VS].asm_text, "image_gather4_lz v") != NULL);
	drv_program_destroy(p);
}

/* A geometry shader samples too: texelFetch and textureLod (LOD 0 and 1)
 * of the RGBA32F texture of test_vs_texture_lookups, per emitted vertex,
 * with the texture's slot shared by the vertex shader that also reads it. */
static void test_gs_texture_lookups(void)
{
	static const char vs[] =
		"#version 330\n"
		"uniform sampler2D tex;\n"
		"out float vz;\n"
		"void main() { vz = texelFetch(tex, ivec2(3, 3), 0).z; gl_Position = vec4(0.0); }\n";
	static const char gs[] =
		"#version 330\n"
		"layout(points) in;\n"
		"layout(points, max_vertices = 2) out;\n"
		"uniform sampler2D tex;\n"
		"in float vz[];\n"
		"out vec4 g;\n"
		"void main() {\n"
		"  for (int k = 0; k < 2; k++) {\n"
		"    g = k == 0 ? texelFetch(tex, ivec2(gl_PrimitiveIDIn % 4, 2), 0)\n"
		"               : textureLod(tex, vec2(0.75, 0.25), 1.0) + vec4(0.0, 0.0, vz[0], 0.0);\n"
		"    gl_Position = vec4(0.0);\n"
		"    EmitVertex();\n"
		"  }\n"
		"}\n";
	static const char *const v[] = { "g" };
	static struct dt_run r;
	static float texels[(16 + 4) * 4];
	struct drv_program *p = dt_compile(vs, gs, v, 1, DRV_GL_INTERLEAVED_ATTRIBS);
	int ts;
	bool ok = true;

	DT_REQUIRE_LINKED(p);
	memset(&r, 0, sizeof r);
	CHECK_EQ_INT(p->n_samplers, 1);
	ts = sampler_slot(p, "tex");
	CHECK(ts == 0);
	for (unsigned i = 0; i < 16; i++) {
		texels[4 * i] = (float)(i % 4), texels[4 * i + 1] = (float)(i / 4);
		texels[4 * i + 2] = (float)(10 + i), texels[4 * i + 3] = 1;
	}
	for (unsigned i = 0; i < 4; i++) {
		texels[64 + 4 * i] = (float)(100 + i % 2), texels[64 + 4 * i + 1] = (float)(100 + i / 2);
		texels[64 + 4 * i + 2] = 0, texels[64 + 4 * i + 3] = 1;
	}
	r.tex[0] = texels;
	r.tex_bytes[0] = sizeof texels;
	tex_desc(r.tex_desc[0], V_BUF_DATA_FORMAT_32_32_32_32, V_IMG_NUM_FORMAT_FLOAT, 4, 4, 1,
		 V_SQ_TEX_XY_FILTER_POINT, V_SQ_TEX_Z_FILTER_POINT);
	run_points(p, &r, 4);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < 4 && ok; i++) {
		const uint32_t *o = &r.so[0][i * 8];
		/* texel (i, 2); then level 1 texel (1, 0) plus texel (3, 3).z = 25 */
		ok &= dt_f(o[0]) == i && dt_f(o[1]) == 2 && dt_f(o[2]) == 10 + i + 8;
		ok &= dt_f(o[4]) == 101 && dt_f(o[5]) == 100 && dt_f(o[6]) == 25;
		if (!ok)
			dump_outputs(p, "primitive", i, o, 8, 8);
	}
	CHECK(ok);
	CHECK(strstr(p->hw[DRV_HW_GS].asm_text, "image_sample_l") != NULL);
	CHECK(strstr(p->hw[DRV_HW_ES].asm_text, "image_load") != NULL);
	drv_program_destroy(p);
}

/* 2D array and 3D samplers (a third coordinate, `da`): texelFetch of a
 * layer, texture at layer RNE(1.6) = 2 (GL 4.6 §8.14.2), texelFetch of a
 * 3D level 1 texel, textureLod with GL_LINEAR half-way between two depth
 * slices (weights 1/2: exact). */
static void test_vs_array_and_3d_lookups(void)
{
	static const char vs[] =
		"#version 330\n"
		"uniform sampler2DArray arr;\n"
		"uniform sampler3D vol;\n"
		"out vec4 a0;\n"
		"out vec4 a1;\n"
		"out vec4 v0;\n"
		"out vec4 v1;\n"
		"void main() {\n"
		"  int i = gl_VertexID;\n"
		"  a0 = texelFetch(arr, ivec3(i % 2, (i / 2) % 2, i % 3), 0);\n"
		"  a1 = texture(arr, vec3(0.75, 0.25, 1.6));\n"
		"  v0 = texelFetch(vol, ivec3(i % 2, 1, (i / 2) % 2), 1);\n"
		"  v1 = textureLod(vol, vec3(0.375, 0.125, 0.5), 0.0);\n"
		"  gl_Position = vec4(0.0);\n"
		"}\n";
	static const char *const v[] = { "a0", "a1", "v0", "v1" };
	static struct dt_run r;
	static float arr[(12 + 3) * 4], vol[(64 + 8) * 4];
	struct drv_program *p = dt_compile(vs, NULL, v, 4, DRV_GL_INTERLEAVED_ATTRIBS);
	int as, vs3;
	bool ok = true;

	DT_REQUIRE_LINKED(p);
	memset(&r, 0, sizeof r);
	as = sampler_slot(p, "arr");
	vs3 = sampler_slot(p, "vol");
	CHECK(as >= 0 && vs3 >= 0);
	if (as < 0 || vs3 < 0) {
		drv_program_destroy(p);
		return;
	}
	/* array: level 0 2x2 x 3 layers, texel (x, y, layer, 1); level 1 1x1 x 3 */
	for (unsigned i = 0; i < 12; i++)
		arr[4 * i] = (float)(i % 2), arr[4 * i + 1] = (float)(i / 2 % 2), arr[4 * i + 2] = (float)(i / 4),
		arr[4 * i + 3] = 1;
	/* 3D: level 0 4x4x4 (x, y, z, 1), level 1 2x2x2 (100 + x, 100 + y, 100 + z, 1) */
	for (unsigned i = 0; i < 64; i++)
		vol[4 * i] = (float)(i % 4), vol[4 * i + 1] = (float)(i / 4 % 4), vol[4 * i + 2] = (float)(i / 16),
		vol[4 * i + 3] = 1;
	for (unsigned i = 0; i < 8; i++)
		vol[256 + 4 * i] = (float)(100 + i % 2), vol[256 + 4 * i + 1] = (float)(100 + i / 2 % 2),
		vol[256 + 4 * i + 2] = (float)(100 + i / 4), vol[256 + 4 * i + 3] = 1;
	r.tex[as] = arr;
	r.tex_bytes[as] = sizeof arr;
	tex_desc(r.tex_desc[as], V_BUF_DATA_FORMAT_32_32_32_32, V_IMG_NUM_FORMAT_FLOAT, 2, 2, 1,
		 V_SQ_TEX_XY_FILTER_POINT, V_SQ_TEX_Z_FILTER_NONE);
	tex_type(r.tex_desc[as], V_SQ_RSRC_IMG_2D_ARRAY, 2);
	r.tex[vs3] = vol;
	r.tex_bytes[vs3] = sizeof vol;
	tex_desc(r.tex_desc[vs3], V_BUF_DATA_FORMAT_32_32_32_32, V_IMG_NUM_FORMAT_FLOAT, 4, 4, 1,
		 V_SQ_TEX_XY_FILTER_BILINEAR, V_SQ_TEX_Z_FILTER_NONE);
	tex_type(r.tex_desc[vs3], V_SQ_RSRC_IMG_3D, 3);
	run_points(p, &r, N);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < N && ok; i++) {
		const uint32_t *o = &r.so[0][i * 16];
		ok &= dt_f(o[0]) == i % 2 && dt_f(o[1]) == i / 2 % 2 && dt_f(o[2]) == i % 3;
		/* layer 2, nearest at (1.5, 0.5) texels: texel (1, 0) */
		ok &= dt_f(o[4]) == 1 && dt_f(o[5]) == 0 && dt_f(o[6]) == 2;
		ok &= dt_f(o[8]) == 100 + i % 2 && dt_f(o[9]) == 101 && dt_f(o[10]) == 100 + i / 2 % 2;
		/* trilinear at (1.5, 0.5, 2.0) texels: x = 1, y = 0, z between slices 1 and 2 */
		ok &= dt_f(o[12]) == 1 && dt_f(o[13]) == 0 && dt_f(o[14]) == 1.5f;
		if (!ok)
			dump_outputs(p, "vertex", i, o, 16, 16);
	}
	CHECK(ok);
	CHECK(strstr(p->hw[DRV_HW_VS].asm_text, " da") != NULL);
	drv_program_destroy(p);
}

static void test_vs_doubles_captured_exactly(void)
{
	static const char vs[] =
		"#version 410\n"
		"in vec4 a;\n"
		"uniform double k;\n"
		"flat out dvec2 d;\n"
		"flat out double q;\n"
		"void main() {\n"
		"  double x = double(a.x) / 3.0LF;\n"
		"  d = dvec2(x * k + 0.125LF, floor(x));\n"
		"  q = sqrt(double(gl_VertexID)) - fract(x);\n"
		"  gl_Position = vec4(float(x));\n"
		"}\n";
	static const char *const v[] = { "d", "q" };
	static struct dt_run r;
	static double consts[8];
	struct drv_program *p;
	unsigned ui;
	bool ok = true;

	memset(&r, 0, sizeof r);
	p = dt_compile(vs, NULL, v, 2, DRV_GL_INTERLEAVED_ATTRIBS);
	DT_REQUIRE_LINKED(p);
	CHECK_EQ_INT(p->tf.stride_bytes[0], 24);
	CHECK_EQ_INT(p->tf.varyings[0].type, 0x8FFC);      /* GL_DOUBLE_VEC2 */
	CHECK(drv_program_uniform_location(p, "k", &ui, NULL) >= 0);
	consts[p->uniforms[ui].offset / 8] = 1.0 / 7.0;
	r.consts = consts;
	r.consts_size = sizeof consts;
	drv_program_destroy(compile_run(vs, v, 2, &r, N));
	for (unsigned i = 0; i < N; i++) {
		/* glslang turns "/ 3.0" into "* (1.0 / 3.0)" and "x * k + c"
		 * into fma(): the reference does what the SPIR-V says */
		double x = (double)(float)i * (1.0 / 3.0), got[3];
		memcpy(got, &r.so[0][i * 6], sizeof got);
		ok &= got[0] == fma(x, 1.0 / 7.0, 0.125) && got[1] == floor(x) && got[2] == sqrt((double)i) - (x - floor(x));
		if (!ok) {
			fprintf(stderr, "vertex %u: %.17g %.17g %.17g want %.17g %.17g %.17g\n", i, got[0], got[1], got[2],
				fma(x, 1.0 / 7.0, 0.125), floor(x), sqrt((double)i) - (x - floor(x)));
			dt_dump(p);
			break;
		}
	}
	CHECK(ok);
	drv_program_destroy(p);
}

static void test_vs_dynamic_array_indexing_of_locals_and_outputs(void)
{
	static const char vs[] =
		"#version 330\n"
		"in vec4 a;\n"
		"out float o[4];\n"
		"void main() {\n"
		"  float t[5] = float[5](1.0, 2.0, 4.0, 8.0, 16.0);\n"
		"  int j = gl_VertexID % 5;\n"
		"  t[j] = a.x;\n"
		"  for (int i = 0; i < 4; i++) o[i] = 0.0;\n"
		"  o[gl_VertexID & 3] = t[j] + t[(j + 1) % 5];\n"
		"  gl_Position = a;\n"
		"}\n";
	static const char *const v[] = { "o" };
	static struct dt_run r;
	struct drv_program *p;
	bool ok = true;

	memset(&r, 0, sizeof r);
	p = compile_run(vs, v, 1, &r, N);
	if (!p || !p->linked) {
		drv_program_destroy(p);
		return;
	}
	CHECK_EQ_INT(p->tf.varyings[0].size, 4);
	for (unsigned i = 0; i < N; i++) {
		float t[5] = { 1, 2, 4, 8, 16 };
		unsigned j = i % 5;
		t[j] = (float)i;
		for (unsigned k = 0; k < 4; k++)
			ok &= dt_f(r.so[0][i * 4 + k]) == (k == (i & 3) ? t[j] + t[(j + 1) % 5] : 0.0f);
	}
	CHECK(ok);
	drv_program_destroy(p);
}

/* The same program in every legacy dialect: attribute / varying,
 * gl_Vertex + ftransform() fed from the reserved inputs and uniforms. */
static void check_legacy(const char *vs, bool es, bool uses_ftransform)
{
	struct drv_program_desc d;
	struct drv_program *p = NULL;
	struct xt_err err = { 0 };
	static const char *const v[] = { "col", "gl_Position" };
	static struct dt_run r;
	static float attr[DT_MAX_VERTS][4], consts[64];
	int loc;
	unsigned ui;
	bool ok = true;

	memset(&d, 0, sizeof d);
	d.es = es;
	d.source[DRV_STAGE_VERTEX] = vs;
	d.tf_varyings = v;
	d.n_tf_varyings = 2;
	CHECK(drv_program_create(&d, &p, &err) == XT_OK);
	if (!p)
		return;
	if (!p->linked) {
		fprintf(stderr, "%s\n%s\n%s\n", p->compile_log[0], p->link_log, p->translated[0] ? p->translated[0] : "");
		CHECK(p->linked);
		drv_program_destroy(p);
		return;
	}
	memset(&r, 0, sizeof r);
	loc = drv_program_attrib_location(p, uses_ftransform ? "xt_Vertex" : "pos");
	CHECK(loc >= 0);
	if (loc < 0) {
		drv_program_destroy(p);
		return;
	}
	for (unsigned i = 0; i < DT_MAX_VERTS; i++) {
		attr[i][0] = (float)i;
		attr[i][1] = 2.0f;
		attr[i][2] = 0.5f;
		attr[i][3] = 1.0f;
	}
	r.attrib[loc] = attr;
	memset(consts, 0, sizeof consts);
	if (uses_ftransform) {
		/* a scale-by-2 MVP */
		CHECK(drv_program_uniform_location(p, "xt_ModelViewProjectionMatrix", &ui, NULL) >= 0);
		for (unsigned c = 0; c < 4; c++)
			consts[p->uniforms[ui].offset / 4 + c * 5] = c < 3 ? 2.0f : 1.0f;
		CHECK(p->n_builtins >= 2);
	} else {
		CHECK(drv_program_uniform_location(p, "k", &ui, NULL) >= 0);
		consts[p->uniforms[ui].offset / 4] = 2.0f;
	}
	r.consts = consts;
	r.consts_size = sizeof consts;
	run_points(p, &r, N);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < N; i++) {
		ok &= dt_f(r.so[0][i * 8 + 0]) == (float)i + 1.0f && dt_f(r.so[0][i * 8 + 1]) == 2.0f;
		ok &= dt_f(r.so[0][i * 8 + 4]) == 2.0f * (float)i && dt_f(r.so[0][i * 8 + 5]) == 4.0f;
		ok &= dt_f(r.so[0][i * 8 + 6]) == 1.0f && dt_f(r.so[0][i * 8 + 7]) == 1.0f;
	}
	CHECK(ok);
	if (!ok)
		dt_dump(p);
	drv_program_destroy(p);
}

static void test_translator_glsl_110_ftransform_and_varying(void)
{
	check_legacy("varying vec4 col;\n"
		     "void main() { col = vec4(gl_Vertex.x + 1.0, gl_Vertex.y, 0.0, 1.0); gl_Position = ftransform(); }\n",
		     false, true);
}

static void test_translator_glsl_120_gl_vertex_with_mvp(void)
{
	check_legacy("#version 120\nvarying vec4 col;\n"
		     "void main() { col = vec4(gl_Vertex.x + 1.0, gl_Vertex.yzw * vec3(1.0, 0.0, 1.0));\n"
		     "  gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; }\n",
		     false, true);
}

static void test_translator_glsl_130_attribute_in_compat(void)
{
	check_legacy("#version 130\nattribute vec4 pos; uniform float k; varying vec4 col;\n"
		     "void main() { col = vec4(pos.x + 1.0, pos.y, 0.0, 1.0);\n"
		     "  gl_Position = vec4(pos.xy * k, pos.zw * vec2(2.0, 1.0)); }\n",
		     false, false);
}

static void test_translator_glsl_140_in_out(void)
{
	check_legacy("#version 140\nin vec4 pos; uniform float k; out vec4 col;\n"
		     "void main() { col = vec4(pos.x + 1.0, pos.y, 0.0, 1.0);\n"
		     "  gl_Position = vec4(pos.xy * k, pos.zw * vec2(2.0, 1.0)); }\n",
		     false, false);
}

static void test_translator_glsl_150_compatibility_profile(void)
{
	check_legacy("#version 150 compatibility\nvarying vec4 col;\n"
		     "void main() { col = vec4(gl_Vertex.x + 1.0, gl_Vertex.y, 0.0, 1.0); gl_Position = ftransform(); }\n",
		     false, true);
}

static void test_translator_glsl_es_100(void)
{
	check_legacy("#version 100\nprecision mediump float;\nattribute vec4 pos; uniform float k; varying vec4 col;\n"
		     "void main() { col = vec4(pos.x + 1.0, pos.y, 0.0, 1.0);\n"
		     "  gl_Position = vec4(pos.xy * k, pos.zw * vec2(2.0, 1.0)); }\n",
		     true, false);
}

int main(void)
{
	XT_RUN(test_vs_vertex_id_captured_as_int);
	XT_RUN(test_vs_loop_with_divergent_break_and_if);
	XT_RUN(test_vs_integer_and_bit_ops);
	XT_RUN(test_vs_transcendentals_as_gfx8_radeonsi);
	XT_RUN(test_vs_uniforms_matrix_and_block);
	XT_RUN(test_vs_doubles_captured_exactly);
	XT_RUN(test_vs_texture_lookups);
	XT_RUN(test_vs_offsets_grads_gather_proj);
	XT_RUN(test_vs_texture_size);
	XT_RUN(test_gs_texture_lookups);
	XT_RUN(test_vs_array_and_3d_lookups);
	XT_RUN(test_vs_dynamic_array_indexing_of_locals_and_outputs);
	XT_RUN(test_translator_glsl_110_ftransform_and_varying);
	XT_RUN(test_translator_glsl_120_gl_vertex_with_mvp);
	XT_RUN(test_translator_glsl_130_attribute_in_compat);
	XT_RUN(test_translator_glsl_140_in_out);
	XT_RUN(test_translator_glsl_150_compatibility_profile);
	XT_RUN(test_translator_glsl_es_100);
	XT_TEST_MAIN_END();
}
