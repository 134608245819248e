/*
 * tf_ubo_layout_gl42.c - tf-ubo-layout-gl42: desktop OpenGL 4.2 core, a
 * vertex shader whose TF output depends on two things a replay must take
 * from the capture rather than from its own defaults:
 *
 *   - uniform blocks of the `shared` (GLSL's default) and `packed` layouts,
 *     whose offsets and strides are implementation-dependent (GLSL 4.60
 *     §4.4.5): the program asks GL for them (glGetActiveUniformsiv:
 *     GL_UNIFORM_OFFSET, GL_UNIFORM_ARRAY_STRIDE, GL_UNIFORM_MATRIX_STRIDE)
 *     and writes its data where GL says, as applications must.  The blocks
 *     hold scalar arrays, a vec3 after a float and a mat2, whose std140
 *     places differ from a tighter packing (Mesa on llvmpipe packs shared
 *     blocks as std430: an int array's stride is 4, not 16);
 *   - `layout(binding = N)` initial bindings (GLSL 4.20 §4.4.5, §4.4.6) of
 *     a std140 uniform block and of a sampler: the program binds the
 *     buffer to point N and the texture to unit N and never calls
 *     glUniformBlockBinding or glUniform1i for them.
 *
 * A separable program made by glCreateShaderProgramv declares a shared
 * block too (its layout is recorded, the program is not drawn).
 * Before, a glLinkProgram of a name that is no program must raise
 * GL_INVALID_VALUE once and nothing more.  Values are small integers, so
 * the TF data is exact and compared bit for bit.
 *
 * Usage: tf-ubo-layout-gl42 [--perturb] [--dump-readback FILE]
 */
#include <stdio.h>
#include <string.h>

#include "app_check.h"
#include "app_egl.h"
#include "app_gl.h"

#define PROG "tf-ubo-layout-gl42"
#define N_VERTS 4
#define PBUFFER_SIZE 16
#define BLOCK_BYTES 1024

static const char vs[] =
	"#version 420 core\n"
	"uniform Shared { int pass[8]; float f; vec3 v; mat2 m; } sh;\n"
	"layout(packed) uniform Packed { float p[4]; ivec2 q; };\n"
	"layout(std140, binding = 3) uniform Bound { vec4 b; };\n"
	"layout(binding = 2) uniform sampler2D tex;\n"
	"out vec4 v_shared;\n"
	"out vec4 v_packed;\n"
	"out vec4 v_bound;\n"
	"void main()\n"
	"{\n"
	"	int i = gl_VertexID;\n"
	"	v_shared = vec4(float(sh.pass[i] + sh.pass[i + 4]), sh.f, sh.v.y + sh.v.z,\n"
	"			sh.m[1][0] + 2.0 * sh.m[0][1]);\n"
	"	v_packed = vec4(p[i], float(q.x), float(q.y), p[3 - i]);\n"
	"	v_bound = b + texelFetch(tex, ivec2(i, 0), 0);\n"
	"	gl_Position = v_shared;\n"
	"}\n";

static const char *const varyings[] = { "v_shared", "v_packed", "v_bound" };

/* A separable program made by glCreateShaderProgramv (GL 4.1), whose
 * shared block's layout a capture records as for glLinkProgram; not drawn.
 * A separable program's shader redeclares the gl_PerVertex block it
 * writes (GLSL 4.20 §7.1: NVIDIA's driver refuses to link it otherwise,
 * Mesa does not ask). */
static const char vs_separable[] =
	"#version 420 core\n"
	"uniform Separate { float s[2]; };\n"
	"out gl_PerVertex { vec4 gl_Position; };\n"
	"out vec4 v_s;\n"
	"void main()\n"
	"{\n"
	"	v_s = vec4(s[gl_VertexID & 1]);\n"
	"	gl_Position = v_s;\n"
	"}\n";

/* Where GL put uniform `name`: its offset, array and matrix strides. */
static bool place(GLuint prog, const char *name, GLint *offset, GLint *astride, GLint *mstride)
{
	GLuint index = GL_INVALID_INDEX;

	glGetUniformIndices(prog, 1, &name, &index);
	if (index == GL_INVALID_INDEX) {
		fprintf(stderr, "%s: uniform %s is not active\n", PROG, name);
		return false;
	}
	glGetActiveUniformsiv(prog, 1, &index, GL_UNIFORM_OFFSET, offset);
	glGetActiveUniformsiv(prog, 1, &index, GL_UNIFORM_ARRAY_STRIDE, astride);
	glGetActiveUniformsiv(prog, 1, &index, GL_UNIFORM_MATRIX_STRIDE, mstride);
	return *offset >= 0 && *offset < BLOCK_BYTES - 64;
}

static void put_f(uint8_t *block, GLint at, float v)
{
	memcpy(block + at, &v, 4);
}

static void put_i(uint8_t *block, GLint at, int32_t v)
{
	memcpy(block + at, &v, 4);
}

/* A uniform buffer holding `block` (BLOCK_BYTES), bound to `binding`. */
static GLuint block_buffer(GLuint prog, const char *name, GLuint binding, bool set_binding, const uint8_t *block)
{
	GLuint buf, index = glGetUniformBlockIndex(prog, name);
	GLint size = 0;

	if (index == GL_INVALID_INDEX) {
		fprintf(stderr, "%s: uniform block %s is not active\n", PROG, name);
		return 0;
	}
	glGetActiveUniformBlockiv(prog, index, GL_UNIFORM_BLOCK_DATA_SIZE, &size);
	printf("%s: block %s: %d bytes\n", PROG, name, size);
	if (set_binding)
		glUniformBlockBinding(prog, index, binding);
	glGenBuffers(1, &buf);
	glBindBuffer(GL_UNIFORM_BUFFER, buf);
	glBufferData(GL_UNIFORM_BUFFER, BLOCK_BYTES, block, GL_STATIC_DRAW);
	glBindBufferBase(GL_UNIFORM_BUFFER, binding, buf);
	return buf;
}

static int run(const struct app_opts *opts, struct app_check *c, struct app_egl *egl)
{
	static uint8_t shared_block[BLOCK_BYTES], packed_block[BLOCK_BYTES], bound_block[BLOCK_BYTES];
	static const float texels[N_VERTS * 4] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	static const float bound[4] = { 100, 200, 300, 400 };
	GLint off, as, ms;
	GLuint prog, tf_buf, vao, tex;
	float want[N_VERTS * 12], got[N_VERTS * 12];

	/* A link of a name that is no program: GL_INVALID_VALUE, exactly once
	 * (a capture that queries the program's layout after each link must
	 * neither hide the error nor add one of its own). */
	glLinkProgram(0x7fff);
	if (glGetError() != GL_INVALID_VALUE || glGetError() != GL_NO_ERROR) {
		fprintf(stderr, "%s: glLinkProgram of no program: not exactly GL_INVALID_VALUE\n", PROG);
		return APP_EXIT_MISMATCH;
	}
	prog = app_gl_program(vs, NULL, NULL, varyings, 3, GL_INTERLEAVED_ATTRIBS);
	if (!prog)
		return APP_EXIT_SETUP;
	{
		const char *src = vs_separable;
		GLint linked = 0;
		GLuint sep = glCreateShaderProgramv(GL_VERTEX_SHADER, 1, &src);
		glGetProgramiv(sep, GL_LINK_STATUS, &linked);
		if (!sep || !linked || glGetUniformBlockIndex(sep, "Separate") == GL_INVALID_INDEX) {
			fprintf(stderr, "%s: glCreateShaderProgramv: no linked program with block Separate\n", PROG);
			return APP_EXIT_SETUP;
		}
		glDeleteProgram(sep);
	}
	/* Shared: pass[k] = 10 k + 1, f = 0.5, v = (1, 2, 4), m = ((1, 3), (5, 7)) */
	if (!place(prog, "Shared.pass[0]", &off, &as, &ms))
		return APP_EXIT_SETUP;
	printf("%s: Shared.pass: offset %d, array stride %d\n", PROG, off, as);
	for (int k = 0; k < 8; k++)
		put_i(shared_block, off + k * as, 10 * k + 1);
	if (!place(prog, "Shared.f", &off, &as, &ms))
		return APP_EXIT_SETUP;
	put_f(shared_block, off, 0.5f);
	if (!place(prog, "Shared.v", &off, &as, &ms))
		return APP_EXIT_SETUP;
	put_f(shared_block, off, 1), put_f(shared_block, off + 4, 2), put_f(shared_block, off + 8, 4);
	if (!place(prog, "Shared.m", &off, &as, &ms))
		return APP_EXIT_SETUP;
	printf("%s: Shared.m: offset %d, matrix stride %d\n", PROG, off, ms);
	put_f(shared_block, off, 1), put_f(shared_block, off + 4, 3);
	put_f(shared_block, off + ms, 5), put_f(shared_block, off + ms + 4, 7);
	/* Packed: p[k] = k + 0.25, q = (-3, 9) */
	if (!place(prog, "p[0]", &off, &as, &ms))
		return APP_EXIT_SETUP;
	for (int k = 0; k < 4; k++)
		put_f(packed_block, off + k * as, (float)k + 0.25f);
	if (!place(prog, "q", &off, &as, &ms))
		return APP_EXIT_SETUP;
	put_i(packed_block, off, -3), put_i(packed_block, off + 4, 9);
	memcpy(bound_block, bound, sizeof bound);
	if (!block_buffer(prog, "Shared", 0, true, shared_block) ||
	    !block_buffer(prog, "Packed", 1, true, packed_block) ||
	    !block_buffer(prog, "Bound", 3, false, bound_block))
		return APP_EXIT_SETUP;

	/* the sampler's unit is its layout(binding = 2): no glUniform1i */
	glActiveTexture(GL_TEXTURE2);
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, N_VERTS, 1, 0, GL_RGBA, GL_FLOAT, texels);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glActiveTexture(GL_TEXTURE0);

	glGenBuffers(1, &tf_buf);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tf_buf);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, sizeof got, NULL, GL_STATIC_READ);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf_buf);
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glUseProgram(prog);
	glEnable(GL_RASTERIZER_DISCARD);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, N_VERTS);
	glEndTransformFeedback();
	glDisable(GL_RASTERIZER_DISCARD);
	if (app_gl_failed("draw"))
		return APP_EXIT_SETUP;

	for (int v = 0; v < N_VERTS; v++) {
		float *w = want + v * 12;
		w[0] = (float)(10 * v + 1 + 10 * (v + 4) + 1);
		w[1] = 0.5f;
		w[2] = 2 + 4;
		w[3] = 5 + 2.0f * 3;
		w[4] = (float)v + 0.25f;
		w[5] = -3;
		w[6] = 9;
		w[7] = (float)(3 - v) + 0.25f;
		for (int j = 0; j < 4; j++)
			w[8 + j] = bound[j] + texels[v * 4 + j];
	}
	if (opts->perturb)
		want[0] += 1;
	if (!app_gl_read_mapped(c, tf_buf, 0, sizeof got, got))
		return APP_EXIT_SETUP;
	app_check_floats(c, "TF buffer (v_shared, v_packed, v_bound)", got, want, N_VERTS * 12, 12, 0.0f);
	/* v_shared's xy (42 to 102, 0.5), read back as an image (golden data) */
	if (app_gl_draw_points_image(PROG, tf_buf, 0, 12 * 4, N_VERTS, 1.0f / 128.0f, PBUFFER_SIZE,
				     PBUFFER_SIZE) < 0)
		return APP_EXIT_SETUP;
	return APP_EXIT_PASS;
}

int main(int argc, char **argv)
{
	/* a pbuffer: draws need a complete framebuffer even with
	 * rasterizer discard */
	static const struct app_main_desc d = {
		.prog = PROG, .api = APP_API_GL_CORE, .major = 4, .minor = 2, .pbuffer_size = PBUFFER_SIZE,
		.run = run
	};
	return app_main(argc, argv, &d);
}
