/*
 * tf_ubo_blocks_gl33.c - tf-ubo-blocks-gl33: desktop OpenGL 3.3 core, one
 * vertex shader reading four std140 uniform blocks, each bound with
 * glUniformBlockBinding to a binding point of its own that holds a buffer
 * of its own, and captured into one interleaved TF buffer.
 *
 * Block indices are the implementation's (GL 4.6 §7.6.2: "the index of a
 * uniform block ... is assigned by the GL"), so a driver other than the
 * capturing one may number the blocks differently; the program asks for
 * each index by name, the way Godot 3 does.  A replay that passed the
 * recorded indices on unchanged would bind the wrong buffers, and the TF
 * data would show it.  Two blocks are declared but read in another order
 * than declared, and one declared block is read by no shader (it is still
 * active, GL 4.6 §7.6, and the program binds it).
 *
 * Values are small integers, so the TF data is exact and compared bit for
 * bit.
 *
 * Usage: tf-ubo-blocks-gl33 [--perturb] [--dump-readback FILE]
 */
#include <stdio.h>
#include <string.h>

#include "app_check.h"
#include "app_egl.h"
#include "app_gl.h"

#define PROG "tf-ubo-blocks-gl33"
#define N_VERTS 4
#define PBUFFER_SIZE 16

static const char vs[] =
	"#version 330 core\n"
	"layout(std140) uniform Zeta { vec4 z; };\n"
	"layout(std140) uniform Unread { vec4 never; };\n"
	"layout(std140) uniform Alpha { vec4 a; float a_scale; };\n"
	"layout(std140) uniform Mid { ivec4 m; };\n"
	"out vec4 v_sum;\n"
	"flat out ivec4 v_mid;\n"
	"void main()\n"
	"{\n"
	"	float i = float(gl_VertexID);\n"
	"	v_mid = m + ivec4(gl_VertexID);\n"
	"	v_sum = a * a_scale + z * i;\n"
	"	gl_Position = v_sum;\n"
	"}\n";

static const char *const varyings[] = { "v_sum", "v_mid" };

/* block name, binding point, contents (std140) */
static const struct block {
	const char *name;
	GLuint binding;
	float data[8];
} blocks[] = {
	{ "Alpha", 3, { 1, 2, 3, 4, 10 } },
	{ "Mid", 1, { 0 } },          /* ivec4, filled in setup */
	{ "Unread", 0, { -1, -1, -1, -1 } },
	{ "Zeta", 2, { 100, 200, 300, 400 } },
};
static const int32_t mid[4] = { 7, -8, 9, -10 };

static int run(const struct app_opts *opts, struct app_check *c, struct app_egl *egl)
{
	GLuint prog, bufs[4], tf_buf, vao;
	uint32_t want[N_VERTS * 8], got[N_VERTS * 8];

	prog = app_gl_program(vs, NULL, NULL, varyings, 2, GL_INTERLEAVED_ATTRIBS);
	if (!prog)
		return APP_EXIT_SETUP;
	glGenBuffers(4, bufs);
	for (int k = 0; k < 4; k++) {
		const struct block *b = &blocks[k];
		GLuint index = glGetUniformBlockIndex(prog, b->name);
		float data[8];
		memcpy(data, b->data, sizeof data);
		if (!strcmp(b->name, "Mid"))
			memcpy(data, mid, sizeof mid);
		if (index == GL_INVALID_INDEX) {
			fprintf(stderr, "%s: uniform block %s is not active\n", PROG, b->name);
			return APP_EXIT_MISMATCH;
		}
		glUniformBlockBinding(prog, index, b->binding);
		glBindBuffer(GL_UNIFORM_BUFFER, bufs[k]);
		glBufferData(GL_UNIFORM_BUFFER, sizeof data, data, GL_STATIC_DRAW);
		glBindBufferBase(GL_UNIFORM_BUFFER, b->binding, bufs[k]);
	}
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
		for (int j = 0; j < 4; j++) {
			float sum = blocks[0].data[j] * blocks[0].data[4] + blocks[3].data[j] * (float)v;
			want[v * 8 + j] = app_f2u(sum);
			want[v * 8 + 4 + j] = (uint32_t)(mid[j] + v);
		}
	}
	if (opts->perturb)
		want[0] ^= 1;
	if (!app_gl_read_mapped(c, tf_buf, 0, sizeof got, got))
		return APP_EXIT_SETUP;
	app_check_words(c, "TF buffer (v_sum, v_mid)", got, want, N_VERTS * 8, 8);
	/* v_sum's xy (10 to 620), read back as an image (golden data). */
	if (app_gl_draw_points_image(PROG, tf_buf, 0, 8 * 4, N_VERTS, 1.0f / 1024.0f,
				     PBUFFER_SIZE, PBUFFER_SIZE) < 0)
		return APP_EXIT_SETUP;
	return APP_EXIT_PASS;
}

int main(int argc, char **argv)
{
	/* a pbuffer: draws need a complete framebuffer even with
	 * rasterizer discard */
	static const struct app_main_desc d = {
		.prog = PROG, .api = APP_API_GL_CORE, .major = 3, .minor = 3, .pbuffer_size = PBUFFER_SIZE,
		.run = run
	};
	return app_main(argc, argv, &d);
}
