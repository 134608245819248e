/*
 * tf-draw-paths-gl43: desktop OpenGL 4.3 core profile transform feedback
 * of the draws whose vertex range only the GPU-side parameters know, with
 * a vertex format a driver converts on upload (GL_DOUBLE through
 * glVertexAttribPointer: GCN fetches no 64-bit formats; the sim converts it
 * to floats as Mesa's u_vbuf does; GL_FIXED would do too, but llvmpipe
 * converts 16.16 values inexactly, 1.0 to 1.00002):
 *
 *   1  glDrawArraysIndirect        {count 4, instances 2, first 1, base instance 0}
 *   2  glDrawElementsIndirect      {count 3, instances 1, firstIndex 2, baseVertex 1}
 *   3  glDrawTransformFeedback     the vertex count draw 1's TF object captured
 *   4  glDrawArrays                a dvec3 input through glVertexAttribLPointer
 *                                  (it consumes two locations, GL 4.6 §11.1.1)
 *   5  glDrawArrays                under glBeginConditionalRender(GL_QUERY_WAIT_INVERTED)
 *                                  on a GL_SAMPLES_PASSED query around draw 4:
 *                                  rasterizer discard let no sample pass
 *                                  (result 0), so it draws
 *   6  glDrawArrays                the same with GL_QUERY_WAIT: discarded (§10.9),
 *                                  its buffer keeps the sentinel
 *
 * GL 4.6 §10.4 defines each indirect draw as the direct draw with the
 * command's values, and §13.2.3 glDrawTransformFeedback as glDrawArrays with
 * the captured count; the CPU reference is computed that way.  The vertex
 * shader writes v = a + vec4(gl_VertexID, gl_InstanceID * 100, draw, 0);
 * inputs are multiples of 1/4 (exact as doubles and as floats),
 * so the buffers are compared bit for bit, sentinel tails included.
 *
 * Usage: tf-draw-paths-gl43 [--perturb] [--dump-readback FILE]
 */
#include <stdio.h>
#include <string.h>

#include "app_check.h"
#include "app_egl.h"
#include "app_gl.h"

#define PROG "tf-draw-paths-gl43"
#define N_VERTS 8
#define CAPACITY 16      /* vertices each TF buffer holds */
#define PBUFFER_SIZE 16

static const char vs[] =
	"#version 430 core\n"
	"layout(location = 0) in vec4 a;\n"
	"uniform float u_draw;\n"
	"out vec4 v;\n"
	"void main()\n"
	"{\n"
	"	v = a + vec4(float(gl_VertexID), float(gl_InstanceID) * 100.0, u_draw, 0.0);\n"
	"	gl_Position = v;\n"
	"}\n";

/* gl_SkipComponents4 makes the TF stride 32 bytes, the stride of the
 * double attribute: llvmpipe (Mesa 22.3) was seen to divide the captured
 * bytes by the vertex buffer's stride instead of the TF stride for
 * glDrawTransformFeedback, so only equal strides give GL's count there. */
static const char *const varyings[] = { "v", "gl_SkipComponents4" };

static const char vs_double[] =
	"#version 430 core\n"
	"layout(location = 1) in dvec3 d;\n"
	"out vec4 v;\n"
	"void main()\n"
	"{\n"
	"	v = vec4(vec3(d * 2.0lf), 7.0);\n"
	"	gl_Position = v;\n"
	"}\n";

/* Attribute k of vertex i: (i, -i / 4, i / 4, 1), stored as doubles. */
static float attr(unsigned i, unsigned k)
{
	return k == 0 ? (float)i : k == 1 ? -(float)i / 4.0f : k == 2 ? 0.25f * (float)i : 1.0f;
}

/* The reference record of vertex id `vid` (index value, with base vertex),
 * instance `inst`, draw `draw`. */
static void want_vertex(float *out, unsigned vid, unsigned inst, unsigned draw)
{
	out[0] = attr(vid, 0) + (float)vid;
	out[1] = attr(vid, 1) + (float)inst * 100.0f;
	out[2] = attr(vid, 2) + (float)draw;
	out[3] = attr(vid, 3);
}

struct state {
	GLuint prog, prog_d, vao, vbuf, ebuf, ibuf, tfo[6], tfbuf[6], occlusion;
	GLint u_draw;
};

static bool setup(struct state *s)
{
	GLdouble attrs[N_VERTS * 4];
	/* element buffer: draw 2 reads indices 2..4 */
	static const GLushort idx[5] = { 0, 0, 3, 0, 2 };
	/* indirect commands: DrawArraysIndirectCommand at 0, DrawElementsIndirectCommand at 16 */
	static const GLuint cmds[9] = { 4, 2, 1, 0, 3, 1, 2, 1, 0 };

	for (unsigned i = 0; i < N_VERTS; i++)
		for (unsigned k = 0; k < 4; k++)
			attrs[4 * i + k] = attr(i, k);
	s->prog = app_gl_program(vs, NULL, NULL, varyings, 2, GL_INTERLEAVED_ATTRIBS);
	if (!s->prog)
		return false;
	s->u_draw = glGetUniformLocation(s->prog, "u_draw");
	s->prog_d = app_gl_program(vs_double, NULL, NULL, varyings, 2, GL_INTERLEAVED_ATTRIBS);
	if (!s->prog_d)
		return false;
	glGenVertexArrays(1, &s->vao);
	glBindVertexArray(s->vao);
	glGenBuffers(1, &s->vbuf);
	glBindBuffer(GL_ARRAY_BUFFER, s->vbuf);
	glBufferData(GL_ARRAY_BUFFER, sizeof attrs, attrs, GL_STATIC_DRAW);
	glVertexAttribPointer(0, 4, GL_DOUBLE, GL_FALSE, 32, (const void *)0);
	glEnableVertexAttribArray(0);
	glVertexAttribLPointer(1, 3, GL_DOUBLE, 32, (const void *)0);
	glEnableVertexAttribArray(1);
	glGenBuffers(1, &s->ebuf);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, s->ebuf);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
	glGenBuffers(1, &s->ibuf);
	glBindBuffer(GL_DRAW_INDIRECT_BUFFER, s->ibuf);
	glBufferData(GL_DRAW_INDIRECT_BUFFER, sizeof cmds, cmds, GL_STATIC_DRAW);
	glGenTransformFeedbacks(6, s->tfo);
	glGenBuffers(6, s->tfbuf);
	glGenQueries(1, &s->occlusion);
	for (unsigned d = 0; d < 6; d++) {
		glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, s->tfo[d]);
		if (!app_gl_buffer_sentinel(s->tfbuf[d], CAPACITY * 32))
			return false;
		glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, s->tfbuf[d]);
	}
	glEnable(GL_RASTERIZER_DISCARD);
	return !app_gl_failed("setup");
}

static void capture(struct state *s, unsigned d)
{
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, s->tfo[d]);
	glUseProgram(d == 3 ? s->prog_d : s->prog);
	if (d != 3)
		glUniform1f(s->u_draw, (float)(d + 1));
	if (d == 3)
		glBeginQuery(GL_SAMPLES_PASSED, s->occlusion);
	if (d >= 4)
		glBeginConditionalRender(s->occlusion, d == 4 ? GL_QUERY_WAIT_INVERTED : GL_QUERY_WAIT);
	glBeginTransformFeedback(GL_POINTS);
	switch (d) {
	case 0: glDrawArraysIndirect(GL_POINTS, (const void *)0); break;
	case 1: glDrawElementsIndirect(GL_POINTS, GL_UNSIGNED_SHORT, (const void *)16); break;
	case 2: glDrawTransformFeedback(GL_POINTS, s->tfo[0]); break;
	case 3: glDrawArrays(GL_POINTS, 0, 3); break;
	default: glDrawArrays(GL_POINTS, 2, 2); break;
	}
	glEndTransformFeedback();
	if (d == 3)
		glEndQuery(GL_SAMPLES_PASSED);
	if (d >= 4)
		glEndConditionalRender();
}

/* The records draw d writes, in order; returns how many. */
static unsigned reference(unsigned d, float *w)
{
	unsigned n = 0;

	switch (d) {
	case 0:   /* instances outer, vertices 1..4 inner */
		for (unsigned inst = 0; inst < 2; inst++)
			for (unsigned v = 1; v <= 4; v++)
				want_vertex(w + 4 * n++, v, inst, 1);
		break;
	case 1:   /* indices 3, 0, 2 plus base vertex 1 */
		for (unsigned k = 0; k < 3; k++)
			want_vertex(w + 4 * n++, (unsigned[]){ 3, 0, 2 }[k] + 1, 0, 2);
		break;
	case 2:   /* draw 1 captured 8 vertices: glDrawArrays(first 0, count 8) */
		for (unsigned v = 0; v < 8; v++)
			want_vertex(w + 4 * n++, v, 0, 3);
		break;
	case 3:
		for (unsigned v = 0; v < 3; v++, n++)
			for (unsigned k = 0; k < 4; k++)
				w[4 * n + k] = k < 3 ? 2.0f * attr(v, k) : 7.0f;
		break;
	case 4:
		for (unsigned v = 2; v < 4; v++)
			want_vertex(w + 4 * n++, v, 0, 5);
		break;
	}
	return n;
}

static int run(const struct app_opts *opts, struct app_check *c, struct app_egl *egl)
{
	struct state s;

	if (!setup(&s))
		return APP_EXIT_SETUP;
	GLuint samples = 1;

	for (unsigned d = 0; d < 6; d++)
		capture(&s, d);
	glGetQueryObjectuiv(s.occlusion, GL_QUERY_RESULT, &samples);
	if (app_gl_failed("draws"))
		return APP_EXIT_SETUP;
	app_check_count(c, "samples passed with rasterizer discard", samples, 0);
	for (unsigned d = 0; d < 6; d++) {
		uint32_t got[CAPACITY * 8], want[CAPACITY * 8];
		float w[CAPACITY * 4];
		unsigned n = reference(d, w);
		char what[64];

		for (unsigned i = 0; i < CAPACITY * 8; i++)
			want[i] = i / 8 < n && i % 8 < 4 ? app_f2u(w[i / 8 * 4 + i % 8]) : APP_SENTINEL;
		if (opts->perturb && d == 2)
			want[1] ^= 1;
		if (!app_gl_read_subdata(c, s.tfbuf[d], 0, sizeof got, got))
			return APP_EXIT_SETUP;
		snprintf(what, sizeof what, "draw %u", d + 1);
		app_check_words(c, what, got, want, CAPACITY * 8, 8);
	}
	/* Draw 1's records (x up to 14, y up to 100), read back as an image
	 * (golden data). */
	float w1[CAPACITY * 4];
	if (app_gl_draw_points_image(PROG, s.tfbuf[0], 0, 8 * 4, (GLsizei)reference(0, w1),
				     1.0f / 128.0f, PBUFFER_SIZE, PBUFFER_SIZE) < 0)
		return APP_EXIT_SETUP;
	return APP_EXIT_PASS;
}

int main(int argc, char **argv)
{
	/* a pbuffer: draws need a complete framebuffer even with
	 * rasterizer discard */
	static const struct app_main_desc d = {
		.prog = PROG, .api = APP_API_GL_CORE, .major = 4, .minor = 3, .pbuffer_size = PBUFFER_SIZE,
		.run = run
	};
	return app_main(argc, argv, &d);
}
