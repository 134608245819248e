/*
 * tf_separate_gl33.c - tf-separate-gl33: desktop OpenGL 3.3 core profile
 * transform feedback with separate attribute buffers, pause/resume, queries,
 * buffer overflow and a second pass fed by glDrawTransformFeedback.
 *
 * Pass 1 (TF object `tfo`): one vertex shader writes vec4 v_pos, vec3
 * v_color and int v_tag into three buffers (GL_SEPARATE_ATTRIBS).  Three
 * triangle draws run inside one glBeginTransformFeedback; the middle one
 * happens while paused and must not be captured, yet it still counts in
 * GL_PRIMITIVES_GENERATED (GL 3.3 core spec, "Primitive Queries": the
 * counter runs whether or not TF records).  Expected: 4 triangles written,
 * 6 generated.
 *
 * Pass 2 (overflow, default TF object): the v_color buffer holds only 4
 * vertices, so after the first triangle the next one no longer fits and TF
 * stops writing (whole primitives only, GL 3.3 core spec, "Transform
 * Feedback").  Expected: 1 written, 3 generated, and nothing after the first
 * triangle in any buffer.
 *
 * Pass 3 (TF object `tfo2`): glDrawTransformFeedback(GL_TRIANGLES, tfo)
 * replays pass 1's vertex count, reading pass 1's position and tag buffers
 * as vertex attributes; a second program captures interleaved output.
 *
 * Pause/resume, TF objects and glDrawTransformFeedback come from
 * GL_ARB_transform_feedback2 (core in 4.0); without it the program exits 77.
 *
 * All inputs are multiples of 1/8 and all shader math scales by powers of
 * two or adds small dyadic numbers, so every result is exact whatever
 * contraction the compiler applies: buffers are compared bit for bit.
 * Buffers are pre-filled with APP_SENTINEL; the check covers the whole
 * buffer, so stray writes past the captured vertices fail too.
 *
 * Usage: tf-separate-gl33 [--perturb] [--dump-readback FILE]
 */
#include <stdio.h>
#include <string.h>

#include "app_check.h"
#include "app_egl.h"
#include "app_gl.h"

#define PROG "tf-separate-gl33"
#define N_INPUT 12     /* input vertices */
#define CAPACITY 16    /* vertices every output buffer can hold ... */
#define SMALL_CAP 4    /* ... except pass 2's too-small v_color buffer */
#define PBUFFER_SIZE 16

static const char pass1_vs[] =
	"#version 330 core\n"
	"layout(location = 0) in vec4 a_pos;\n"
	"layout(location = 1) in int a_id;\n"
	"uniform vec4 u_offset;\n"
	"uniform float u_scale;\n"
	"uniform int u_draw;\n"
	"out vec4 v_pos;\n"
	"out vec3 v_color;\n"
	"flat out int v_tag;\n"
	"void main()\n"
	"{\n"
	"	v_pos = a_pos * u_scale + u_offset;\n"
	"	v_color = vec3(a_pos.x + 1.0, a_pos.y * 0.5, float(a_id) * 0.25);\n"
	"	v_tag = u_draw * 1000 + gl_VertexID;\n"
	"	gl_Position = v_pos;\n"
	"}\n";

static const char *const pass1_varyings[] = { "v_pos", "v_color", "v_tag" };

static const char pass3_vs[] =
	"#version 330 core\n"
	"layout(location = 0) in vec4 a_pos;\n"
	"layout(location = 1) in int a_tag;\n"
	"out vec4 v_swizzled;\n"
	"flat out int v_tag_plus;\n"
	"void main()\n"
	"{\n"
	"	v_swizzled = a_pos.yxwz * 0.5 - vec4(1.0);\n"
	"	v_tag_plus = a_tag + 1;\n"
	"	gl_Position = a_pos;\n"
	"}\n";

static const char *const pass3_varyings[] = { "v_swizzled", "v_tag_plus" };

struct in_vertex {
	float pos[4];  /* multiples of 1/8 */
	int32_t id;    /* 100 + index */
};

/* Uniforms of one pass 1 / pass 2 draw, and the vertices it draws. */
struct draw {
	int tag_base;      /* u_draw */
	float scale;       /* u_scale, a power of two */
	float offset[4];   /* u_offset, multiples of 1/4 */
	GLint first;       /* glDrawArrays(GL_TRIANGLES, first, count) */
	GLsizei count;
};

static const struct draw draws[] = {
	{ 1, 2.0f, { 0.25f, -0.5f, 1.0f, 0.0f }, 0, 6 },  /* captured */
	{ 2, 4.0f, { 8.0f, 8.0f, 8.0f, 8.0f }, 6, 6 },    /* while paused */
	{ 3, 0.5f, { -1.0f, 0.75f, 0.0f, 2.0f }, 6, 6 },  /* captured after resume */
	{ 4, 1.0f, { 0.0f, 0.0f, 0.0f, 0.0f }, 0, 9 },    /* pass 2, overflows */
};

/* Word strides of the captured records, per buffer. */
enum { POS_W = 4, COLOR_W = 3, TAG_W = 1, PASS3_W = 5 };

static void input_vertex(int i, struct in_vertex *v)
{
	v->pos[0] = (float)(i % 3) * 0.5f - 0.5f;
	v->pos[1] = (float)(i / 3) * 0.25f;
	v->pos[2] = (float)i * 0.125f;
	v->pos[3] = 1.0f;
	v->id = 100 + i;
}

/*
 * Pass 1 vertex shader on the CPU: the words vertex `vertex` of draw d
 * writes into the three buffers.
 */
static void pass1_ref(const struct draw *d, int vertex, uint32_t pos[POS_W],
		      uint32_t color[COLOR_W], uint32_t tag[TAG_W])
{
	struct in_vertex in;
	input_vertex(vertex, &in);
	for (int k = 0; k < 4; k++)
		pos[k] = app_f2u(in.pos[k] * d->scale + d->offset[k]);
	color[0] = app_f2u(in.pos[0] + 1.0f);
	color[1] = app_f2u(in.pos[1] * 0.5f);
	color[2] = app_f2u((float)in.id * 0.25f);
	tag[0] = (uint32_t)(d->tag_base * 1000 + vertex);
}

/* Expected buffer images, APP_SENTINEL where nothing is written. */
struct images {
	uint32_t pos[CAPACITY * POS_W];
	uint32_t color[CAPACITY * COLOR_W];
	uint32_t tag[CAPACITY * TAG_W];
	uint32_t pass3[CAPACITY * PASS3_W];
};

static void fill_sentinel(uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		w[i] = APP_SENTINEL;
}

static void images_init(struct images *im)
{
	fill_sentinel(im->pos, sizeof im->pos / 4);
	fill_sentinel(im->color, sizeof im->color / 4);
	fill_sentinel(im->tag, sizeof im->tag / 4);
	fill_sentinel(im->pass3, sizeof im->pass3 / 4);
}

/* Appends draw d's first n_vertices to the images, starting at record *rec. */
static void images_add(struct images *im, const struct draw *d, int n_vertices,
		       int *rec)
{
	for (int i = 0; i < n_vertices; i++, (*rec)++) {
		pass1_ref(d, d->first + i, &im->pos[*rec * POS_W],
			  &im->color[*rec * COLOR_W], &im->tag[*rec * TAG_W]);
	}
}

/* Pass 3 vertex shader on the CPU, reading records of pass 1's images. */
static void pass3_ref(struct images *im, int n_vertices)
{
	static const int swizzle[4] = { 1, 0, 3, 2 };
	for (int r = 0; r < n_vertices; r++) {
		uint32_t *out = &im->pass3[r * PASS3_W];
		for (int k = 0; k < 4; k++)
			out[k] = app_f2u(app_u2f(im->pos[r * POS_W + swizzle[k]]) * 0.5f - 1.0f);
		out[4] = im->tag[r] + 1;
	}
}

struct gl_state {
	GLuint prog1, prog3;
	GLuint vao_in, vao_pass3;
	GLuint in_buf;
	GLuint pass1_buf[3], pass2_buf[3], pass3_buf;
	GLuint tfo, tfo2;
	GLuint q_generated, q_written;
};

static bool make_buffers(GLuint *bufs, int n, const GLsizeiptr *sizes)
{
	glGenBuffers(n, bufs);
	for (int i = 0; i < n; i++) {
		if (!app_gl_buffer_sentinel(bufs[i], sizes[i]))
			return false;
	}
	return true;
}

static bool setup(struct gl_state *s)
{
	s->prog1 = app_gl_program(pass1_vs, NULL, NULL, pass1_varyings, 3,
				  GL_SEPARATE_ATTRIBS);
	s->prog3 = app_gl_program(pass3_vs, NULL, NULL, pass3_varyings, 2,
				  GL_INTERLEAVED_ATTRIBS);
	if (!s->prog1 || !s->prog3)
		return false;

	struct in_vertex in[N_INPUT];
	for (int i = 0; i < N_INPUT; i++)
		input_vertex(i, &in[i]);
	glGenBuffers(1, &s->in_buf);
	glGenVertexArrays(1, &s->vao_in);
	glBindVertexArray(s->vao_in);
	glBindBuffer(GL_ARRAY_BUFFER, s->in_buf);
	glBufferData(GL_ARRAY_BUFFER, sizeof in, in, GL_STATIC_DRAW);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof in[0], (const void *)0);
	glVertexAttribIPointer(1, 1, GL_INT, sizeof in[0],
			       (const void *)offsetof(struct in_vertex, id));
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);

	const GLsizeiptr full[3] = { CAPACITY * POS_W * 4, CAPACITY * COLOR_W * 4,
				     CAPACITY * TAG_W * 4 };
	const GLsizeiptr small[3] = { full[0], SMALL_CAP * COLOR_W * 4, full[2] };
	const GLsizeiptr pass3_size = CAPACITY * PASS3_W * 4;
	if (!make_buffers(s->pass1_buf, 3, full) || !make_buffers(s->pass2_buf, 3, small) ||
	    !make_buffers(&s->pass3_buf, 1, &pass3_size))
		return false;

	/* Pass 3 reads pass 1's captured positions and tags as vertices. */
	glGenVertexArrays(1, &s->vao_pass3);
	glBindVertexArray(s->vao_pass3);
	glBindBuffer(GL_ARRAY_BUFFER, s->pass1_buf[0]);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, POS_W * 4, (const void *)0);
	glBindBuffer(GL_ARRAY_BUFFER, s->pass1_buf[2]);
	glVertexAttribIPointer(1, 1, GL_INT, TAG_W * 4, (const void *)0);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glBindVertexArray(0);
	glBindBuffer(GL_ARRAY_BUFFER, 0);

	glGenTransformFeedbacks(1, &s->tfo);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, s->tfo);
	for (GLuint i = 0; i < 3; i++)
		glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, i, s->pass1_buf[i]);
	glGenTransformFeedbacks(1, &s->tfo2);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, s->tfo2);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, s->pass3_buf);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	for (GLuint i = 0; i < 3; i++)
		glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, i, s->pass2_buf[i]);

	glGenQueries(1, &s->q_generated);
	glGenQueries(1, &s->q_written);
	glEnable(GL_RASTERIZER_DISCARD);
	return !app_gl_failed("setup");
}

static void set_draw_uniforms(GLuint prog, const struct draw *d)
{
	glUniform1i(glGetUniformLocation(prog, "u_draw"), d->tag_base);
	glUniform1f(glGetUniformLocation(prog, "u_scale"), d->scale);
	glUniform4fv(glGetUniformLocation(prog, "u_offset"), 1, d->offset);
}

static void begin_queries(const struct gl_state *s)
{
	glBeginQuery(GL_PRIMITIVES_GENERATED, s->q_generated);
	glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, s->q_written);
}

/* Ends both queries and checks their results against the expected counts. */
static void end_queries(struct app_check *c, const struct gl_state *s,
			const char *pass, GLuint want_generated, GLuint want_written)
{
	char what[96];
	GLuint generated = 0, written = 0;
	glEndQuery(GL_PRIMITIVES_GENERATED);
	glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
	glGetQueryObjectuiv(s->q_generated, GL_QUERY_RESULT, &generated);
	glGetQueryObjectuiv(s->q_written, GL_QUERY_RESULT, &written);
	snprintf(what, sizeof what, "%s: PRIMITIVES_GENERATED", pass);
	app_check_count(c, what, generated, want_generated);
	snprintf(what, sizeof what, "%s: TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN", pass);
	app_check_count(c, what, written, want_written);
}

/* Reads one whole buffer (mapped or with glGetBufferSubData) and compares it. */
static bool check_buffer(struct app_check *c, const char *what, GLuint buf,
			 const uint32_t *want, size_t size_bytes, size_t stride_w,
			 bool mapped)
{
	uint32_t got[CAPACITY * PASS3_W];
	if (size_bytes > sizeof got) {
		fprintf(stderr, "%s: %zu bytes do not fit the read-back array\n",
			what, size_bytes);
		return false;
	}
	bool ok = mapped
		? app_gl_read_mapped(c, buf, 0, (GLsizeiptr)size_bytes, got)
		: app_gl_read_subdata(c, buf, 0, (GLsizeiptr)size_bytes, got);
	if (!ok)
		return false;
	app_check_words(c, what, got, want, size_bytes / 4, stride_w);
	return true;
}

static int run(const struct app_opts *opts, struct app_check *c, struct app_egl *egl)
{
	struct gl_state s;
	static struct images want1, want2;
	int rec;

	if (!setup(&s))
		return APP_EXIT_SETUP;

	/* Pass 1: capture, pause, uncaptured draw, resume, capture. */
	glUseProgram(s.prog1);
	glBindVertexArray(s.vao_in);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, s.tfo);
	begin_queries(&s);
	glBeginTransformFeedback(GL_TRIANGLES);
	for (int i = 0; i < 3; i++) {
		set_draw_uniforms(s.prog1, &draws[i]);
		if (i == 1)
			glPauseTransformFeedback();
		glDrawArrays(GL_TRIANGLES, draws[i].first, draws[i].count);
		if (i == 1)
			glResumeTransformFeedback();
	}
	glEndTransformFeedback();
	end_queries(c, &s, "pass 1 (pause/resume)", 6, 4);
	if (app_gl_failed("pass 1"))
		return APP_EXIT_SETUP;

	images_init(&want1);
	rec = 0;
	images_add(&want1, &draws[0], draws[0].count, &rec);
	images_add(&want1, &draws[2], draws[2].count, &rec);
	pass3_ref(&want1, rec);
	if (opts->perturb)
		want1.pos[1 * POS_W + 0] = app_f2u(app_u2f(want1.pos[1 * POS_W]) + 1.0f);
	if (!check_buffer(c, "pass 1 buffer 0 (v_pos)", s.pass1_buf[0], want1.pos,
			  sizeof want1.pos, POS_W, true) ||
	    !check_buffer(c, "pass 1 buffer 1 (v_color)", s.pass1_buf[1], want1.color,
			  sizeof want1.color, COLOR_W, false) ||
	    !check_buffer(c, "pass 1 buffer 2 (v_tag)", s.pass1_buf[2], want1.tag,
			  sizeof want1.tag, TAG_W, true))
		return APP_EXIT_SETUP;

	/* Pass 2: the v_color buffer fills up after one triangle. */
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	set_draw_uniforms(s.prog1, &draws[3]);
	begin_queries(&s);
	glBeginTransformFeedback(GL_TRIANGLES);
	glDrawArrays(GL_TRIANGLES, draws[3].first, draws[3].count);
	glEndTransformFeedback();
	end_queries(c, &s, "pass 2 (overflow)", 3, 1);
	if (app_gl_failed("pass 2"))
		return APP_EXIT_SETUP;

	images_init(&want2);
	rec = 0;
	images_add(&want2, &draws[3], 3, &rec);
	if (!check_buffer(c, "pass 2 buffer 0 (v_pos)", s.pass2_buf[0], want2.pos,
			  sizeof want2.pos, POS_W, false) ||
	    !check_buffer(c, "pass 2 buffer 1 (v_color, too small)", s.pass2_buf[1],
			  want2.color, SMALL_CAP * COLOR_W * 4, COLOR_W, false) ||
	    !check_buffer(c, "pass 2 buffer 2 (v_tag)", s.pass2_buf[2], want2.tag,
			  sizeof want2.tag, TAG_W, false))
		return APP_EXIT_SETUP;

	/* Pass 3: draw pass 1's captured vertex count from its TF object. */
	glUseProgram(s.prog3);
	glBindVertexArray(s.vao_pass3);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, s.tfo2);
	begin_queries(&s);
	glBeginTransformFeedback(GL_TRIANGLES);
	glDrawTransformFeedback(GL_TRIANGLES, s.tfo);
	glEndTransformFeedback();
	end_queries(c, &s, "pass 3 (glDrawTransformFeedback)", 4, 4);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	glBindVertexArray(0);
	if (app_gl_failed("pass 3"))
		return APP_EXIT_SETUP;
	if (!check_buffer(c, "pass 3 buffer 0 (v_swizzled, v_tag_plus)", s.pass3_buf,
			  want1.pass3, sizeof want1.pass3, PASS3_W, true))
		return APP_EXIT_SETUP;
	/* Pass 1's captured positions, read back as an image (golden data). */
	if (app_gl_draw_points_image(PROG, s.pass1_buf[0], 0, POS_W * 4, 12, 0.25f,
				     PBUFFER_SIZE, PBUFFER_SIZE) < 0)
		return APP_EXIT_SETUP;
	return APP_EXIT_PASS;
}

/* Pause / resume and TF objects: GL 4.0 or ARB_transform_feedback2. */
static int require_tf2(const char *prog)
{
	GLint major = 0;
	glGetIntegerv(GL_MAJOR_VERSION, &major);
	if (major < 4 && !app_gl_has_extension("GL_ARB_transform_feedback2")) {
		printf("%s: SKIP: needs GL 4.0 or GL_ARB_transform_feedback2\n", prog);
		return APP_EXIT_SKIP;
	}
	return APP_EXIT_PASS;
}

int main(int argc, char **argv)
{
	/* a pbuffer, because draws need a complete framebuffer even
	 * with rasterizer discard on (surfaceless contexts have none) */
	static const struct app_main_desc d = {
		.prog = PROG, .api = APP_API_GL_CORE, .major = 3, .minor = 3, .pbuffer_size = PBUFFER_SIZE,
		.require = require_tf2, .run = run
	};
	return app_main(argc, argv, &d);
}
