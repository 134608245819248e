/*
 * test_drv_gl_gs.c - geometry shaders and vertex streams through the sim
 * driver's GL entry points (drv_get_proc_address) on a real screen
 * (gpu_model): the GS registers a draw programs (drv_pm4_gs.c),
 * per-stream capture and glBeginQueryIndexed counts,
 * glDrawTransformFeedbackStream[Instanced], GS instancing with
 * gl_InvocationID, gl_PrimitiveIDIn across primitive restart, and the draw
 * errors a GS adds (input primitive vs draw mode, output primitive vs TF
 * mode).  Expected values are computed from the GL rules in each test.
 */
#include <string.h>

#include "drv_gl_test.h"
#include "pm4_regs.h"
#include "xt_test.h"

/* A TF buffer of `words` dwords filled with 0xEEEEEEEE, bound at `index`. */
static GLuint tf_buffer(GLuint index, unsigned words)
{
	static uint32_t fill[1024];
	GLuint b = 0;
	for (unsigned i = 0; i < words && i < 1024; i++)
		fill[i] = 0xEEEEEEEEu;
	GL(glGenBuffers)(1, &b);
	GL(glBindBuffer)(GL_TRANSFORM_FEEDBACK_BUFFER, b);
	GL(glBufferData)(GL_TRANSFORM_FEEDBACK_BUFFER, words * 4, fill, GL_STREAM_READ);
	GL(glBindBufferBase)(GL_TRANSFORM_FEEDBACK_BUFFER, index, b);
	return b;
}

static void read_buffer(GLuint b, uint32_t *out, unsigned words)
{
	GL(glBindBuffer)(GL_COPY_READ_BUFFER, b);
	GL(glGetBufferSubData)(GL_COPY_READ_BUFFER, 0, words * 4, out);
}

/* A register as the GPU has it after all recorded work ran (glFinish). */
static uint32_t reg(uint32_t r)
{
	uint32_t v = 0;
	GL(glFinish)();
	CHECK(gm_reg_get(dgl_gm, r, &v));
	return v;
}

static GLuint query_result(GLuint q)
{
	GLuint v = ~0u;
	GL(glGetQueryObjectuiv)(q, GL_QUERY_RESULT, &v);
	return v;
}

static const char vs_id[] =
	"#version 400 core\n"
	"out int v_id;\n"
	"void main() { v_id = gl_VertexID; gl_Position = vec4(0.0); }\n";

/*
 * Points in, two streams out: per input point p, stream 0 gets 2 points
 * (id * 10 + k), stream 1 gets one point (id + 100) for even ids only.
 * Then the captured stream 1 is drawn again with
 * glDrawTransformFeedbackStream(Instanced): a PRIMITIVES_GENERATED query
 * of that draw counts its vertices.
 */
static void test_two_streams_capture_count_and_draw_back_per_stream(void)
{
	static const char gs[] =
		"#version 400 core\n"
		"layout(points) in;\n"
		"layout(points, max_vertices = 3) out;\n"
		"in int v_id[];\n"
		"layout(stream = 0) out int s0;\n"
		"layout(stream = 1) out int s1;\n"
		"void main() {\n"
		"  for (int k = 0; k < 2; k++) { s0 = v_id[0] * 10 + k; EmitStreamVertex(0); EndStreamPrimitive(0); }\n"
		"  if ((v_id[0] & 1) == 0) { s1 = v_id[0] + 100; EmitStreamVertex(1); EndStreamPrimitive(1); }\n"
		"}\n";
	static const char *const vary[] = { "s0", "gl_NextBuffer", "s1" };
	struct drv_context *ctx = dgl_context(4, 0, true);
	GLuint prog, plain, vao = 0, xfb = 0, b0, b1, q[7] = { 0 };
	uint32_t got0[16], got1[8];
	bool ok = true;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = dgl_program(vs_id, gs, vary, 3);
	plain = dgl_program(vs_id, NULL, NULL, 0);
	CHECK(prog && plain);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenTransformFeedbacks)(1, &xfb);
	GL(glBindTransformFeedback)(GL_TRANSFORM_FEEDBACK, xfb);
	b0 = tf_buffer(0, 16);
	b1 = tf_buffer(1, 8);
	GL(glGenQueries)(7, q);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glUseProgram)(prog);
	GL(glBeginQueryIndexed)(GL_PRIMITIVES_GENERATED, 0, q[0]);
	GL(glBeginQueryIndexed)(GL_PRIMITIVES_GENERATED, 1, q[1]);
	GL(glBeginQueryIndexed)(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 1, q[2]);
	GL(glBeginTransformFeedback)(GL_POINTS);
	GL(glDrawArrays)(GL_POINTS, 0, 5);
	/* the draw programmed stream 1's buffer and the per-stream GSVS layout */
	CHECK_EQ_INT(reg(REG_VGT_STRMOUT_BUFFER_CONFIG), 0x21);
	CHECK(reg(REG_VGT_GS_VERT_ITEMSIZE_1) > 0);
	CHECK_EQ_INT(reg(REG_VGT_GSVS_RING_OFFSET_1), 3 * reg(REG_VGT_GS_VERT_ITEMSIZE));
	GL(glEndTransformFeedback)();
	GL(glEndQueryIndexed)(GL_PRIMITIVES_GENERATED, 0);
	GL(glEndQueryIndexed)(GL_PRIMITIVES_GENERATED, 1);
	GL(glEndQueryIndexed)(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 1);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	CHECK(!drv_context_take_unsupported(ctx));

	CHECK_EQ_INT(query_result(q[0]), 10);
	CHECK_EQ_INT(query_result(q[1]), 3);
	CHECK_EQ_INT(query_result(q[2]), 3);
	read_buffer(b0, got0, 16);
	read_buffer(b1, got1, 8);
	for (unsigned p = 0; p < 5; p++)
		for (unsigned k = 0; k < 2; k++)
			ok &= got0[p * 2 + k] == p * 10 + k;
	ok &= got0[10] == 0xEEEEEEEEu;
	ok &= got1[0] == 100 && got1[1] == 102 && got1[2] == 104 && got1[3] == 0xEEEEEEEEu;
	CHECK(ok);

	/* draw stream 1's 3 captured vertices back, then twice instanced */
	GL(glUseProgram)(plain);
	GL(glBeginQuery)(GL_PRIMITIVES_GENERATED, q[3]);
	GL(glDrawTransformFeedbackStream)(GL_POINTS, xfb, 1);
	GL(glEndQuery)(GL_PRIMITIVES_GENERATED);
	CHECK_EQ_INT(query_result(q[3]), 3);
	GL(glBeginQuery)(GL_PRIMITIVES_GENERATED, q[4]);
	GL(glDrawTransformFeedbackStreamInstanced)(GL_POINTS, xfb, 0, 2);
	GL(glEndQuery)(GL_PRIMITIVES_GENERATED);
	CHECK_EQ_INT(query_result(q[4]), 20);
	/* stream 0's 10 points through the GS again (vertex ids 0..9, no TF):
	 * 20 points on stream 0, 5 on stream 1 */
	GL(glUseProgram)(prog);
	GL(glBeginQueryIndexed)(GL_PRIMITIVES_GENERATED, 0, q[5]);
	GL(glBeginQueryIndexed)(GL_PRIMITIVES_GENERATED, 1, q[6]);
	GL(glDrawTransformFeedbackStream)(GL_POINTS, xfb, 0);
	GL(glEndQueryIndexed)(GL_PRIMITIVES_GENERATED, 0);
	GL(glEndQueryIndexed)(GL_PRIMITIVES_GENERATED, 1);
	CHECK_EQ_INT(query_result(q[5]), 20);
	CHECK_EQ_INT(query_result(q[6]), 5);
	dgl_done_clean(ctx);
}

/*
 * GS instancing and gl_PrimitiveIDIn: an indexed triangle strip split by
 * primitive restart (strips 0 1 2 3 | 4 5 6), invocations = 3, each
 * invocation emits one point (prim id * 16 + invocation, first vertex).
 * Restart does not reset the primitive id; invocations of one primitive
 * come out in invocation order.
 */
static void test_gs_invocations_and_primitive_id_across_restart(void)
{
	static const char gs[] =
		"#version 400 core\n"
		"layout(triangles, invocations = 3) in;\n"
		"layout(points, max_vertices = 1) out;\n"
		"in int v_id[];\n"
		"out int r;\n"
		"out int first;\n"
		"void main() { r = gl_PrimitiveIDIn * 16 + gl_InvocationID; first = v_id[0];\n"
		"  EmitVertex(); }\n";
	static const char *const vary[] = { "r", "first" };
	static const GLushort idx[] = { 0, 1, 2, 3, 0xFFFF, 4, 5, 6 };
	/* triangles (0 1 2) (2 1 3) | (4 5 6): first vertices 0, 2, 4 */
	static const uint32_t first[3] = { 0, 2, 4 };
	struct drv_context *ctx = dgl_context(4, 0, true);
	GLuint prog, vao = 0, ib = 0, b0, q = 0;
	uint32_t got[24];
	bool ok = true;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = dgl_program(vs_id, gs, vary, 2);
	CHECK(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenBuffers)(1, &ib);
	GL(glBindBuffer)(GL_ELEMENT_ARRAY_BUFFER, ib);
	GL(glBufferData)(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
	b0 = tf_buffer(0, 24);
	GL(glGenQueries)(1, &q);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glEnable)(GL_PRIMITIVE_RESTART);
	GL(glPrimitiveRestartIndex)(0xFFFF);
	GL(glUseProgram)(prog);
	GL(glBeginQuery)(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q);
	GL(glBeginTransformFeedback)(GL_POINTS);
	GL(glDrawElements)(GL_TRIANGLE_STRIP, 8, GL_UNSIGNED_SHORT, NULL);
	GL(glEndTransformFeedback)();
	GL(glEndQuery)(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	CHECK(!drv_context_take_unsupported(ctx));
	CHECK_EQ_INT(query_result(q), 9);
	CHECK_EQ_INT(reg(REG_VGT_GS_INSTANCE_CNT),
		     VGT_GS_INSTANCE_CNT_ENABLE(1) | VGT_GS_INSTANCE_CNT_CNT(3));
	read_buffer(b0, got, 24);
	for (unsigned p = 0; p < 3; p++)
		for (unsigned i = 0; i < 3; i++) {
			ok &= got[(p * 3 + i) * 2] == p * 16 + i;
			ok &= got[(p * 3 + i) * 2 + 1] == first[p];
		}
	CHECK(ok);
	if (!ok)
		for (unsigned i = 0; i < 18; i++)
			fprintf(stderr, "word %u: %u\n", i, got[i]);
	dgl_done(ctx);
}

/* An indirect draw with a GS: the CP writes first vertex and base
 * instance into the ES's user SGPRs, which fetch the vertices. */
static void test_indirect_draw_feeds_base_vertex_to_the_es(void)
{
	static const char gs[] =
		"#version 400 core\n"
		"layout(points) in;\n"
		"layout(points, max_vertices = 1) out;\n"
		"in int v_id[];\n"
		"out int r;\n"
		"void main() { r = v_id[0]; EmitVertex(); }\n";
	static const char *const vary[] = { "r" };
	static const GLuint cmd[4] = { 3, 1, 5, 0 };   /* count, instances, first, base instance */
	struct drv_context *ctx = dgl_context(4, 0, true);
	GLuint prog, vao = 0, ind = 0, b0;
	uint32_t got[4];

	CHECK(ctx);
	if (!ctx)
		return;
	prog = dgl_program(vs_id, gs, vary, 1);
	CHECK(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenBuffers)(1, &ind);
	GL(glBindBuffer)(GL_DRAW_INDIRECT_BUFFER, ind);
	GL(glBufferData)(GL_DRAW_INDIRECT_BUFFER, sizeof cmd, cmd, GL_STATIC_DRAW);
	b0 = tf_buffer(0, 4);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glUseProgram)(prog);
	GL(glBeginTransformFeedback)(GL_POINTS);
	GL(glDrawArraysIndirect)(GL_POINTS, NULL);
	GL(glEndTransformFeedback)();
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	CHECK(!drv_context_take_unsupported(ctx));
	read_buffer(b0, got, 4);
	CHECK_EQ_INT(got[0], 5);
	CHECK_EQ_INT(got[1], 6);
	CHECK_EQ_INT(got[2], 7);
	CHECK_EQ_INT(got[3], 0xEEEEEEEEu);
	dgl_done(ctx);
}

/* gl_Layer, gl_ViewportIndex and gl_PrimitiveID written by the GS are
 * captured like any varying (nothing is rasterized, but TF sees them). */
static void test_gs_layer_viewport_and_primitive_id_outputs_are_captured(void)
{
	static const char gs[] =
		"#version 410 core\n"
		"layout(points) in;\n"
		"layout(points, max_vertices = 1) out;\n"
		"in int v_id[];\n"
		"void main() { gl_Layer = v_id[0] + 1; gl_ViewportIndex = v_id[0] & 1;\n"
		"  gl_PrimitiveID = 40 + gl_PrimitiveIDIn; EmitVertex(); }\n";
	static const char *const vary[] = { "gl_Layer", "gl_ViewportIndex", "gl_PrimitiveID" };
	struct drv_context *ctx = dgl_context(4, 0, true);
	GLuint prog, vao = 0, b0;
	uint32_t got[10];
	bool ok = true;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = dgl_program(vs_id, gs, vary, 3);
	CHECK(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	b0 = tf_buffer(0, 10);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glUseProgram)(prog);
	GL(glBeginTransformFeedback)(GL_POINTS);
	GL(glDrawArrays)(GL_POINTS, 0, 3);
	GL(glEndTransformFeedback)();
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	CHECK(!drv_context_take_unsupported(ctx));
	read_buffer(b0, got, 10);
	for (unsigned i = 0; i < 3; i++)
		ok &= got[i * 3] == i + 1 && got[i * 3 + 1] == (i & 1) && got[i * 3 + 2] == 40 + i;
	ok &= got[9] == 0xEEEEEEEEu;
	CHECK(ok);
	if (!ok)
		for (unsigned i = 0; i < 10; i++)
			fprintf(stderr, "word %u: 0x%x\n", i, got[i]);
	dgl_done(ctx);
}

/* The GS state goes away again for a program without a GS. */
static void test_gs_stages_are_turned_off_for_a_vs_only_draw(void)
{
	static const char gs[] =
		"#version 400 core\n"
		"layout(lines) in;\n"
		"layout(line_strip, max_vertices = 200) out;\n"
		"void main() { gl_Position = gl_in[0].gl_Position; EmitVertex(); EmitVertex(); }\n";
	struct drv_context *ctx = dgl_context(4, 0, true);
	GLuint with_gs, plain, vao = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	with_gs = dgl_program(vs_id, gs, NULL, 0);
	plain = dgl_program(vs_id, NULL, NULL, 0);
	CHECK(with_gs && plain);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glUseProgram)(with_gs);
	GL(glDrawArrays)(GL_LINE_STRIP, 0, 4);
	CHECK_EQ_INT(VGT_GS_MODE_MODE_GET(reg(REG_VGT_GS_MODE)), V_GS_SCENARIO_G);
	CHECK_EQ_INT(VGT_GS_MODE_CUT_MODE_GET(reg(REG_VGT_GS_MODE)), V_GS_CUT_256);
	CHECK_EQ_INT(reg(REG_VGT_GS_MAX_VERT_OUT), 200);
	CHECK_EQ_INT(reg(REG_VGT_GS_OUT_PRIM_TYPE), V_LINESTRIP);
	CHECK_EQ_INT(VGT_SHADER_STAGES_EN_GS_EN_GET(reg(REG_VGT_SHADER_STAGES_EN)), 1);
	GL(glUseProgram)(plain);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	CHECK_EQ_INT(VGT_GS_MODE_MODE_GET(reg(REG_VGT_GS_MODE)), V_GS_OFF);
	CHECK_EQ_INT(reg(REG_VGT_SHADER_STAGES_EN), 0);
	CHECK_EQ_INT(reg(REG_VGT_GS_OUT_PRIM_TYPE), V_TRISTRIP);
	dgl_done_clean(ctx);
}

/* GL 4.6 11.3.1 and 13.3.2: the draw mode must give the GS input
 * primitive, and with TF running the GS output must be its mode. */
static void test_draw_errors_of_a_geometry_shader(void)
{
	static const char gs[] =
		"#version 400 core\n"
		"layout(triangles) in;\n"
		"layout(points, max_vertices = 1) out;\n"
		"out float x;\n"
		"void main() { x = 1.0; EmitVertex(); }\n";
	static const char *const vary[] = { "x" };
	struct drv_context *ctx = dgl_context(4, 0, true);
	GLuint prog, vao = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = dgl_program(vs_id, gs, vary, 1);
	CHECK(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	tf_buffer(0, 16);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glUseProgram)(prog);
	GL(glDrawArrays)(GL_POINTS, 0, 3);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glDrawArrays)(GL_TRIANGLES_ADJACENCY, 0, 6);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glDrawArrays)(GL_TRIANGLE_FAN, 0, 4);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	/* TF in triangles mode, but the GS writes points */
	GL(glBeginTransformFeedback)(GL_TRIANGLES);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glEndTransformFeedback)();
	GL(glBeginTransformFeedback)(GL_POINTS);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	GL(glEndTransformFeedback)();
	CHECK(!drv_context_take_unsupported(ctx));
	dgl_done(ctx);
}

/*
 * gl_PrimitiveIDIn restarts at 0 for each draw of glMultiDrawArrays and
 * glMultiDrawElements: GL 4.6 §10.4 defines them as the loop of single
 * draws over their drawcount separate sets of primitives, and the GS
 * input counts the primitives "since the current set of rendering
 * primitives was started" (GL 4.6 §11.3.4.5).  llvmpipe (Mesa 22.3) goes
 * on counting across the draws of these two commands, but restarts for the
 * same draws made by glMultiDrawArraysIndirect (docs/status.md, "Known
 * difference from llvmpipe").
 */
static void test_primitive_id_restarts_for_each_draw_of_a_multi_draw(void)
{
	static const char gs[] =
		"#version 400 core\n"
		"layout(points) in;\n"
		"layout(points, max_vertices = 1) out;\n"
		"in int v_id[];\n"
		"out int r;\n"
		"void main() { r = gl_PrimitiveIDIn * 100 + v_id[0]; EmitVertex(); }\n";
	static const char *const vary[] = { "r" };
	static const GLint firsts[2] = { 0, 6 };
	static const GLsizei counts[2] = { 2, 3 };
	static const GLuint idx[] = { 0, 1, 6, 7, 8 };
	static const void *const offsets[2] = { (const void *)0, (const void *)8 };
	/* draw 0: vertices 0 1, draw 1: vertices 6 7 8, each from ID 0 */
	static const uint32_t want[5] = { 0, 101, 6, 107, 208 };
	struct drv_context *ctx = dgl_context(4, 0, true);
	GLuint prog, vao = 0, ib = 0, b0;
	uint32_t got[5];

	CHECK(ctx);
	if (!ctx)
		return;
	prog = dgl_program(vs_id, gs, vary, 1);
	CHECK(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenBuffers)(1, &ib);
	GL(glBindBuffer)(GL_ELEMENT_ARRAY_BUFFER, ib);
	GL(glBufferData)(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glUseProgram)(prog);
	for (int elements = 0; elements < 2; elements++) {
		b0 = tf_buffer(0, 5);
		GL(glBeginTransformFeedback)(GL_POINTS);
		if (elements)
			GL(glMultiDrawElements)(GL_POINTS, counts, GL_UNSIGNED_INT, offsets, 2);
		else
			GL(glMultiDrawArrays)(GL_POINTS, firsts, counts, 2);
		GL(glEndTransformFeedback)();
		CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
		CHECK(!drv_context_take_unsupported(ctx));
		read_buffer(b0, got, 5);
		for (unsigned i = 0; i < 5; i++)
			CHECK_EQ_INT(got[i], want[i]);
	}
	dgl_done(ctx);
}

int main(void)
{
	struct xt_err err = { 0 };

	if (dgl_screen_create(&err) != XT_OK) {
		fprintf(stderr, "dgl_screen_create: %s\n", xt_err_msg(&err));
		return 1;
	}
	XT_RUN(test_two_streams_capture_count_and_draw_back_per_stream);
	XT_RUN(test_gs_invocations_and_primitive_id_across_restart);
	XT_RUN(test_primitive_id_restarts_for_each_draw_of_a_multi_draw);
	XT_RUN(test_indirect_draw_feeds_base_vertex_to_the_es);
	XT_RUN(test_gs_layer_viewport_and_primitive_id_outputs_are_captured);
	XT_RUN(test_gs_stages_are_turned_off_for_a_vs_only_draw);
	XT_RUN(test_draw_errors_of_a_geometry_shader);
	dgl_screen_destroy();
	XT_TEST_MAIN_END();
}
