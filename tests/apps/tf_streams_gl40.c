/*
 * tf_streams_gl40.c - tf-streams-gl40: desktop OpenGL 4.0 core profile
 * transform feedback from a geometry shader that writes two vertex streams,
 * fed by indexed triangle strips split with primitive restart.
 *
 * Input: one glDrawElements(GL_TRIANGLE_STRIP) over 16-bit indices with
 * glPrimitiveRestartIndex(0xFFFF) splitting three strips (5, 4 and 3
 * indices: 3 + 2 + 1 triangles).  The geometry shader (points out, as GL 4.0
 * requires for more than one stream) emits per input triangle:
 *   stream 0: one point per triangle vertex: position, 4 * primitive id + i;
 *   stream 1: for even primitive ids only, one point: the sum of the three
 *             positions and the primitive id.
 * Capture (GL_INTERLEAVED_ATTRIBS, ARB_transform_feedback3 varyings):
 *   buffer 0 = s0_pos, gl_SkipComponents2, s0_prim, gl_SkipComponents1
 *              (stride 32 bytes), gl_NextBuffer,
 *   buffer 1 = gl_SkipComponents1, s1_sum, s1_prim (stride 20 bytes),
 *              bound with glBindBufferRange at offset 20 with room for only
 *              2 of stream 1's 3 points, so stream 1 overflows on its own.
 * Checked against the CPU: every word of both buffers (skipped components,
 * the bytes outside the bound range and those after the last record keep
 * the APP_SENTINEL they were filled with), and per-stream
 * GL_PRIMITIVES_GENERATED / GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN from
 * glBeginQueryIndexed.
 *
 * Facts the reference relies on (GL 4.0 core spec, sections on primitive
 * restart, geometry shader inputs and transform feedback): a restart acts as
 * if a new draw began, so triangle parity counts from the start of each
 * strip, and odd triangles reach the geometry shader as (i+1, i, i+2);
 * restarting does not reset gl_PrimitiveIDIn; a stream whose buffers are full
 * stops writing while the other stream goes on.  Positions are multiples of
 * 1/8, so sums are exact and buffers are compared bit for bit.
 *
 * The context is surfaceless (EGL_NO_SURFACE); draws go to a small FBO since
 * a draw needs a complete framebuffer even with rasterizer discard on.
 *
 * Usage: tf-streams-gl40 [--perturb] [--dump-readback FILE]
 */
#include <stdio.h>
#include <string.h>

#include "app_check.h"
#include "app_egl.h"
#include "app_gl.h"

#define PROG "tf-streams-gl40"
#define RESTART 0xFFFFu
#define N_VERTICES 12
#define MAX_TRIANGLES 8
#define S0_W 8          /* words per stream 0 record */
#define S1_W 5          /* words per stream 1 record */
#define S0_CAP 20       /* stream 0 records buffer 0 holds (18 are written) */
#define S1_SLOTS 6      /* stream 1 records buffer 1 holds in all ... */
#define S1_FIRST 1      /* ... the bound range starts at this record ... */
#define S1_RANGE 2      /* ... and holds this many */
#define FBO_SIZE 16

static const GLushort indices[] = {
	0, 1, 2, 3, 4, RESTART,
	5, 6, 7, 8, RESTART,
	11, 10, 9,
};

static const char vs_src[] =
	"#version 400 core\n"
	"layout(location = 0) in vec3 a_pos;\n"
	"out vec4 vs_pos;\n"
	"void main()\n"
	"{\n"
	"	vs_pos = vec4(a_pos, float(gl_VertexID));\n"
	"	gl_Position = vs_pos;\n"
	"}\n";

static const char gs_src[] =
	"#version 400 core\n"
	"layout(triangles) in;\n"
	"layout(points, max_vertices = 4) out;\n"
	"in vec4 vs_pos[];\n"
	"layout(stream = 0) out vec4 s0_pos;\n"
	"layout(stream = 0) flat out int s0_prim;\n"
	"layout(stream = 1) out vec3 s1_sum;\n"
	"layout(stream = 1) flat out int s1_prim;\n"
	"void main()\n"
	"{\n"
	"	for (int i = 0; i < 3; i++) {\n"
	"		s0_pos = vs_pos[i];\n"
	"		s0_prim = gl_PrimitiveIDIn * 4 + i;\n"
	"		EmitStreamVertex(0);\n"
	"		EndStreamPrimitive(0);\n"
	"	}\n"
	"	if ((gl_PrimitiveIDIn & 1) == 0) {\n"
	"		s1_sum = vs_pos[0].xyz + vs_pos[1].xyz + vs_pos[2].xyz;\n"
	"		s1_prim = gl_PrimitiveIDIn;\n"
	"		EmitStreamVertex(1);\n"
	"		EndStreamPrimitive(1);\n"
	"	}\n"
	"}\n";

static const char *const varyings[] = {
	"s0_pos", "gl_SkipComponents2", "s0_prim", "gl_SkipComponents1",
	"gl_NextBuffer",
	"gl_SkipComponents1", "s1_sum", "s1_prim",
};

static void vertex_pos(int v, float pos[3])
{
	pos[0] = (float)(v & 3) * 0.25f;
	pos[1] = (float)(v >> 2) * 0.5f;
	pos[2] = (float)v * 0.125f - 1.0f;
}

/*
 * Primitive assembly on the CPU: the triangles the geometry shader sees, in
 * order, as vertex indices.  Returns the number of triangles.
 */
static int assemble(int tris[MAX_TRIANGLES][3])
{
	int n = 0, strip_start = 0;
	int n_idx = (int)(sizeof indices / sizeof indices[0]);
	for (int j = 0; j <= n_idx; j++) {
		if (j < n_idx && indices[j] != RESTART)
			continue;
		/* indices[strip_start, j) is one strip. */
		for (int k = 0; strip_start + k + 2 < j && n < MAX_TRIANGLES; k++, n++) {
			const GLushort *a = &indices[strip_start + k];
			bool odd = k & 1;
			tris[n][0] = odd ? a[1] : a[0];
			tris[n][1] = odd ? a[0] : a[1];
			tris[n][2] = a[2];
		}
		strip_start = j + 1;
	}
	return n;
}

struct expected {
	uint32_t buf0[S0_CAP * S0_W];
	uint32_t buf1[S1_SLOTS * S1_W];
	GLuint generated[2], written[2];  /* per stream */
};

/* The geometry shader and the TF buffer writes on the CPU. */
static void reference(struct expected *e)
{
	int tris[MAX_TRIANGLES][3];
	int n_tris = assemble(tris);
	for (size_t i = 0; i < sizeof e->buf0 / 4; i++)
		e->buf0[i] = APP_SENTINEL;
	for (size_t i = 0; i < sizeof e->buf1 / 4; i++)
		e->buf1[i] = APP_SENTINEL;
	memset(e->generated, 0, sizeof e->generated);
	memset(e->written, 0, sizeof e->written);

	for (int prim = 0; prim < n_tris; prim++) {
		float sum[3] = { 0.0f, 0.0f, 0.0f };
		for (int i = 0; i < 3; i++) {
			int v = tris[prim][i];
			float pos[3];
			vertex_pos(v, pos);
			uint32_t *rec = &e->buf0[e->written[0] * S0_W];
			for (int k = 0; k < 3; k++) {
				rec[k] = app_f2u(pos[k]);
				sum[k] += pos[k];
			}
			rec[3] = app_f2u((float)v);
			rec[6] = (uint32_t)(prim * 4 + i);
			e->generated[0]++;
			e->written[0]++;
		}
		if (prim & 1)
			continue;
		e->generated[1]++;
		if (e->written[1] == S1_RANGE)
			continue;
		uint32_t *rec = &e->buf1[(S1_FIRST + e->written[1]) * S1_W];
		for (int k = 0; k < 3; k++)
			rec[1 + k] = app_f2u(sum[k]);
		rec[4] = (uint32_t)prim;
		e->written[1]++;
	}
}

struct gl_state {
	GLuint prog, vao, vbo, ibo, buf[2];
	GLuint q_generated[2], q_written[2];  /* per stream */
};

static bool setup(struct gl_state *s)
{
	s->prog = app_gl_program(vs_src, gs_src, NULL, varyings,
				 (int)(sizeof varyings / sizeof varyings[0]),
				 GL_INTERLEAVED_ATTRIBS);
	if (!s->prog)
		return false;

	float pos[N_VERTICES][3];
	for (int v = 0; v < N_VERTICES; v++)
		vertex_pos(v, pos[v]);
	glGenVertexArrays(1, &s->vao);
	glBindVertexArray(s->vao);
	glGenBuffers(1, &s->vbo);
	glBindBuffer(GL_ARRAY_BUFFER, s->vbo);
	glBufferData(GL_ARRAY_BUFFER, sizeof pos, pos, GL_STATIC_DRAW);
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), (const void *)0);
	glEnableVertexAttribArray(0);
	glGenBuffers(1, &s->ibo);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, s->ibo);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof indices, indices, GL_STATIC_DRAW);
	glBindBuffer(GL_ARRAY_BUFFER, 0);

	glGenBuffers(2, s->buf);
	if (!app_gl_buffer_sentinel(s->buf[0], S0_CAP * S0_W * 4) ||
	    !app_gl_buffer_sentinel(s->buf[1], S1_SLOTS * S1_W * 4))
		return false;
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, s->buf[0]);
	glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 1, s->buf[1],
			  S1_FIRST * S1_W * 4, S1_RANGE * S1_W * 4);

	if (!app_gl_rgba8_framebuffer(PROG, FBO_SIZE, FBO_SIZE))
		return false;
	glViewport(0, 0, FBO_SIZE, FBO_SIZE);

	glGenQueries(2, s->q_generated);
	glGenQueries(2, s->q_written);
	glEnable(GL_PRIMITIVE_RESTART);
	glPrimitiveRestartIndex(RESTART);
	glEnable(GL_RASTERIZER_DISCARD);
	return !app_gl_failed("setup");
}

static void draw(const struct gl_state *s)
{
	glUseProgram(s->prog);
	glBindVertexArray(s->vao);
	for (GLuint st = 0; st < 2; st++) {
		glBeginQueryIndexed(GL_PRIMITIVES_GENERATED, st, s->q_generated[st]);
		glBeginQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, st,
				    s->q_written[st]);
	}
	glBeginTransformFeedback(GL_POINTS);
	glDrawElements(GL_TRIANGLE_STRIP, (GLsizei)(sizeof indices / sizeof indices[0]),
		       GL_UNSIGNED_SHORT, (const void *)0);
	glEndTransformFeedback();
	for (GLuint st = 0; st < 2; st++) {
		glEndQueryIndexed(GL_PRIMITIVES_GENERATED, st);
		glEndQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, st);
	}
	glBindVertexArray(0);
}

static int run(const struct app_opts *opts, struct app_check *c, struct app_egl *egl)
{
	struct gl_state s;
	static struct expected want;
	static uint32_t got0[S0_CAP * S0_W], got1[S1_SLOTS * S1_W];

	GLint max_streams = 0;
	glGetIntegerv(GL_MAX_VERTEX_STREAMS, &max_streams);
	if (max_streams < 2) {
		printf("%s: SKIP: GL_MAX_VERTEX_STREAMS is %d\n", PROG, max_streams);
		return APP_EXIT_SKIP;
	}
	if (!setup(&s))
		return APP_EXIT_SETUP;
	draw(&s);
	if (app_gl_failed("draw"))
		return APP_EXIT_SETUP;

	reference(&want);
	if (opts->perturb)
		want.buf0[1 * S0_W] = app_f2u(app_u2f(want.buf0[1 * S0_W]) + 1.0f);

	for (GLuint st = 0; st < 2; st++) {
		char what[96];
		GLuint n = 0;
		glGetQueryObjectuiv(s.q_generated[st], GL_QUERY_RESULT, &n);
		snprintf(what, sizeof what, "stream %u: PRIMITIVES_GENERATED", st);
		app_check_count(c, what, n, want.generated[st]);
		glGetQueryObjectuiv(s.q_written[st], GL_QUERY_RESULT, &n);
		snprintf(what, sizeof what, "stream %u: TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN", st);
		app_check_count(c, what, n, want.written[st]);
	}

	if (!app_gl_read_mapped(c, s.buf[0], 0, sizeof got0, got0) ||
	    !app_gl_read_mapped(c, s.buf[1], 0, sizeof got1, got1))
		return APP_EXIT_SETUP;
	app_check_words(c, "buffer 0 (stream 0: s0_pos, skip 2, s0_prim, skip 1)",
			got0, want.buf0, sizeof got0 / 4, S0_W);
	app_check_words(c, "buffer 1 (stream 1: skip 1, s1_sum, s1_prim; range of 2)",
			got1, want.buf1, sizeof got1 / 4, S1_W);
	if (app_gl_failed("read-back"))
		return APP_EXIT_SETUP;
	/* Stream 0's positions, drawn into the FBO and read back as an image
	 * (golden data). */
	if (app_gl_draw_points_image(PROG, s.buf[0], 0, S0_W * 4, (GLsizei)want.written[0],
				     0.9f, FBO_SIZE, FBO_SIZE) < 0)
		return APP_EXIT_SETUP;
	return APP_EXIT_PASS;
}

int main(int argc, char **argv)
{
	static const struct app_main_desc d = {
		.prog = PROG, .api = APP_API_GL_CORE, .major = 4, .minor = 0, .run = run
	};
	return app_main(argc, argv, &d);
}
