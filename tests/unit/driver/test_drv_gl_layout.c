/*
 * test_drv_gl_layout.c - what the application's source and a trace's
 * recorded layouts decide about uniform blocks and samplers at link
 * (driver/compiler/drv_glsl_layout.c, drv_block_layout.c), through the
 * driver's GL entry points: layout(binding = N) initial bindings and units
 * (GLSL 4.20 §4.4.5-4.4.6), which later calls override; `shared` / `packed`
 * blocks laid out as drv_context_set_block_layouts records them, std140
 * blocks as GL defines them whatever is recorded, and the notes for what
 * cannot be honoured.
 */

#include <stdio.h>
#include <string.h>

#include "drv_gl_test.h"
#include "xt_test.h"

static const char *const vs_bindings =
	"#version 420 core\n"
	"layout(binding = 3) uniform sampler2D t;\n"
	"layout(binding = 4) uniform sampler2D ta[2], t6;\n"
	"uniform sampler2D t_free;\n"
	"layout(std140, binding = 5) uniform B { vec4 b; };\n"
	"layout(std140) uniform C { vec4 c; };\n"
	"out vec4 v;\n"
	"void main() {\n"
	"	v = b + c + texelFetch(t, ivec2(0), 0) + texelFetch(ta[1], ivec2(0), 0) +\n"
	"	    texelFetch(t6, ivec2(0), 0) +\n"
	"	    texelFetch(t_free, ivec2(0), 0);\n"
	"	gl_Position = v;\n"
	"}\n";

static GLint unit_of(GLuint p, const char *name)
{
	GLint unit = -1;
	GL(glGetUniformiv)(p, GL(glGetUniformLocation)(p, name), &unit);
	return unit;
}

static GLint block_binding(GLuint p, const char *name)
{
	GLint b = -1;
	GL(glGetActiveUniformBlockiv)(p, GL(glGetUniformBlockIndex)(p, name), GL_UNIFORM_BLOCK_BINDING, &b);
	return b;
}

static void test_layout_bindings_are_the_initial_units_and_binding_points(void)
{
	struct drv_context *ctx = dgl_context(4, 2, true);
	GLuint p;

	CHECK(ctx);
	if (!ctx)
		return;
	p = dgl_program(vs_bindings, NULL, NULL, 0);
	CHECK(p);
	CHECK_EQ_INT(unit_of(p, "t"), 3);
	CHECK_EQ_INT(unit_of(p, "ta[0]"), 4);
	CHECK_EQ_INT(unit_of(p, "ta[1]"), 5);     /* element i: N + i */
	CHECK_EQ_INT(unit_of(p, "t6"), 4);        /* the list's qualifiers: N again */
	CHECK_EQ_INT(unit_of(p, "t_free"), 0);
	CHECK_EQ_INT(block_binding(p, "B"), 5);
	CHECK_EQ_INT(block_binding(p, "C"), 0);
	/* later calls override the initial values ... */
	GL(glUseProgram)(p);
	GL(glUniform1i)(GL(glGetUniformLocation)(p, "t"), 7);
	GL(glUniformBlockBinding)(p, GL(glGetUniformBlockIndex)(p, "B"), 1);
	CHECK_EQ_INT(unit_of(p, "t"), 7);
	CHECK_EQ_INT(block_binding(p, "B"), 1);
	/* ... until the next link, which sets them again (GL 4.6 §7.6) */
	GL(glUseProgram)(0);
	GL(glLinkProgram)(p);
	CHECK_EQ_INT(unit_of(p, "t"), 3);
	CHECK_EQ_INT(block_binding(p, "B"), 5);
	dgl_done_clean(ctx);
}

static const char *const vs_shared =
	"#version 330 core\n"
	"uniform S { int a[8]; vec3 v; } s;\n"
	"layout(packed) uniform P { float p[4]; };\n"
	"layout(std140) uniform T { int t[4]; };\n"
	"out vec4 o;\n"
	"void main() {\n"
	"	o = vec4(float(s.a[gl_VertexID] + t[1]), s.v.x, p[2], 0.0);\n"
	"	gl_Position = o;\n"
	"}\n";

static GLint block_size(GLuint p, const char *name)
{
	GLint n = -1;
	GL(glGetActiveUniformBlockiv)(p, GL(glGetUniformBlockIndex)(p, name), GL_UNIFORM_BLOCK_DATA_SIZE, &n);
	return n;
}

static void test_shared_and_packed_blocks_take_the_recorded_layout(void)
{
	static const struct drv_recorded_member s_members[] = {
		{ "S.a[0]", 0, 4, 0, false }, { "S.v", 32, 0, 0, false },
	};
	static const struct drv_recorded_member p_members[] = { { "p[0]", 0, 4, 0, false } };
	static const struct drv_recorded_member t_members[] = { { "t[0]", 0, 4, 0, false } };
	static const struct drv_recorded_block rec[] = {
		{ "S", 44, s_members, 2 }, { "P", 16, p_members, 1 }, { "T", 16, t_members, 1 },
	};
	struct drv_context *ctx = dgl_context(3, 3, true);
	struct xt_buf notes = { 0 };
	GLuint p;

	CHECK(ctx);
	if (!ctx)
		return;
	drv_context_set_block_layouts(ctx, rec, 3, true);
	p = dgl_program(vs_shared, NULL, NULL, 0);
	drv_context_set_block_layouts(ctx, NULL, 0, false);
	CHECK(p);
	CHECK_EQ_INT(block_size(p, "S"), 44);
	CHECK_EQ_INT(block_size(p, "P"), 16);
	CHECK_EQ_INT(block_size(p, "T"), 64);   /* std140: the record does not apply */
	CHECK(!drv_context_take_layout_notes(ctx, &notes));
	/* block members are active uniforms, at the offsets and strides laid
	 * out (GL 4.6 §7.3.1): "S.a" (instance-named), "p", "t" */
	{
		const GLchar *names[] = { "S.a", "S.v[0]", "S.v", "p[0]", "t", "a" };
		GLuint idx[6];
		GLint off[6], stride[6], block[6], n = 0;
		GL(glGetUniformIndices)(p, 6, names, idx);
		CHECK(idx[0] != GL_INVALID_INDEX && idx[2] != GL_INVALID_INDEX && idx[3] != GL_INVALID_INDEX &&
		      idx[4] != GL_INVALID_INDEX);
		CHECK(idx[1] == GL_INVALID_INDEX && idx[5] == GL_INVALID_INDEX);
		const GLuint q[4] = { idx[0], idx[2], idx[3], idx[4] };
		GL(glGetActiveUniformsiv)(p, 4, q, GL_UNIFORM_OFFSET, off);
		GL(glGetActiveUniformsiv)(p, 4, q, GL_UNIFORM_ARRAY_STRIDE, stride);
		GL(glGetActiveUniformsiv)(p, 4, q, GL_UNIFORM_BLOCK_INDEX, block);
		CHECK(off[0] == 0 && stride[0] == 4 && off[1] == 32 && stride[1] == 0);
		CHECK(off[2] == 0 && stride[2] == 4);          /* packed, recorded */
		CHECK(stride[3] == 16);                          /* std140 */
		CHECK_EQ_INT(block[0], (GLint)GL(glGetUniformBlockIndex)(p, "S"));
		CHECK_EQ_INT(block[3], (GLint)GL(glGetUniformBlockIndex)(p, "T"));
		CHECK_EQ_INT(GL(glGetUniformLocation)(p, "S.a[0]"), -1);
		GL(glGetActiveUniformBlockiv)(p, GL(glGetUniformBlockIndex)(p, "S"), GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, &n);
		CHECK_EQ_INT(n, 2);
		GL(glGetActiveUniformsiv)(p, 1, q, GL_UNIFORM_BLOCK_DATA_SIZE, off);
		CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);
	}
	/* the same program without a record: std140, and said */
	GL(glLinkProgram)(p);
	CHECK_EQ_INT(block_size(p, "S"), 144);
	CHECK(drv_context_take_layout_notes(ctx, &notes));
	xt_buf_append(&notes, "", 1);
	CHECK(strstr((const char *)notes.data, "uniform block \"S\" has the shared layout and no recorded "
			"layout: laid out as std140") != NULL);
	CHECK(strstr((const char *)notes.data, "uniform block \"P\" has the packed layout") != NULL);
	CHECK(strstr((const char *)notes.data, "\"T\"") == NULL);
	xt_buf_fini(&notes);
	dgl_done_clean(ctx);
}

static void test_a_layout_the_driver_cannot_honour_is_named(void)
{
	static const char *const vs =
		"#version 330 core\n"
		"struct Inner { float x; vec2 y; };\n"
		"uniform S { Inner in1; float f; } s;\n"
		"out vec4 o;\n"
		"void main() { o = vec4(s.in1.x, s.in1.y, s.f); gl_Position = o; }\n";
	static const struct drv_recorded_member m[] = {
		{ "S.in1.x", 0, 0, 0, false }, { "S.in1.y", 8, 0, 0, false }, { "S.f", 16, 0, 0, false },
	};
	static const struct drv_recorded_block rec[] = { { "S", 20, m, 3 } };
	struct drv_context *ctx = dgl_context(3, 3, true);
	struct xt_buf notes = { 0 };
	GLuint p;

	CHECK(ctx);
	if (!ctx)
		return;
	drv_context_set_block_layouts(ctx, rec, 1, true);
	p = dgl_program(vs, NULL, NULL, 0);
	drv_context_set_block_layouts(ctx, NULL, 0, false);
	CHECK(p);
	CHECK(drv_context_take_layout_notes(ctx, &notes));
	xt_buf_append(&notes, "", 1);
	CHECK(strstr((const char *)notes.data, "uniform block \"S\": member \"in1\" is a struct") != NULL);
	CHECK_EQ_INT(block_size(p, "S"), 32);   /* std140 kept whole */
	xt_buf_fini(&notes);
	dgl_done_clean(ctx);
}

int main(void)
{
	struct xt_err err = { 0 };
	if (dgl_screen_create(&err) != XT_OK) {
		fprintf(stderr, "dgl_screen_create: %s\n", xt_err_msg(&err));
		return 1;
	}
	XT_RUN(test_layout_bindings_are_the_initial_units_and_binding_points);
	XT_RUN(test_shared_and_packed_blocks_take_the_recorded_layout);
	XT_RUN(test_a_layout_the_driver_cannot_honour_is_named);
	dgl_screen_destroy();
	XT_TEST_MAIN_END();
}
