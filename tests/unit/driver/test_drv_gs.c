/*
 * test_drv_gs.c - geometry shaders through the ES -> GS -> copy shader path
 * of docs/isa.md: inputs from the ESGS ring (a user varying array and
 * gl_in[].gl_Position), EmitStreamVertex on two streams with one of them
 * under divergent control flow, gl_PrimitiveIDIn, a triangle-strip output,
 * and streamout of each stream into its own buffer by the copy shader.
 */
#include "drv_test_util.h"

static const char vs[] =
	"#version 400\n"
	"out vec4 vcol;\n"
	"void main() { vcol = vec4(float(gl_VertexID), 1.0, 2.0, 3.0); gl_Position = vec4(float(gl_VertexID) * 2.0); }\n";

static void test_gs_two_streams_with_divergent_emit(void)
{
	static const char gs[] =
		"#version 400\n"
		"layout(points) in;\n"
		"layout(points, max_vertices = 4) out;\n"
		"in vec4 vcol[];\n"
		"layout(stream = 0) out vec4 s0;\n"
		"layout(stream = 1) out float s1;\n"
		"void main() {\n"
		"  for (int k = 0; k < 2; k++) {\n"
		"    s0 = vcol[0] + vec4(float(k)) + vec4(gl_in[0].gl_Position.x, 0.0, 0.0, 0.0);\n"
		"    gl_Position = gl_in[0].gl_Position;\n"
		"    EmitStreamVertex(0);\n"
		"  }\n"
		"  EndStreamPrimitive(0);\n"
		"  if (gl_PrimitiveIDIn % 2 == 0) {\n"
		"    s1 = float(gl_PrimitiveIDIn) * 10.0;\n"
		"    EmitStreamVertex(1);\n"
		"  }\n"
		"}\n";
	static const char *const v[] = { "s0", "gl_NextBuffer", "s1" };
	struct drv_program *p = dt_compile(vs, gs, v, 3, DRV_GL_INTERLEAVED_ATTRIBS);
	static struct dt_run r;
	bool ok = true;

	DT_REQUIRE_LINKED(p);
	CHECK(p->has_gs);
	CHECK_EQ_INT(p->gs.max_vertices, 4);
	CHECK_EQ_INT(p->gs.streams_used, 3);
	CHECK_EQ_INT(p->tf.buffer_stream[1], 1);
	memset(&r, 0, sizeof r);
	r.prim = V_DI_PT_POINTLIST;
	r.count = 7;
	dt_run(p, &r);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < 7; i++)
		for (unsigned k = 0; k < 2; k++) {
			const uint32_t *o = &r.so[0][(i * 2 + k) * 4];
			ok &= dt_f(o[0]) == (float)i + (float)k + 2.0f * (float)i && dt_f(o[1]) == 1.0f + (float)k &&
			      dt_f(o[3]) == 3.0f + (float)k;
		}
	for (unsigned j = 0; j < 4; j++)
		ok &= dt_f(r.so[1][j]) == (float)(j * 2) * 10.0f;
	CHECK(ok);
	CHECK_EQ_INT(r.filled_dw[0], 7 * 2 * 4);
	CHECK_EQ_INT(r.filled_dw[1], 4);
	CHECK_EQ_INT(r.stats.prims_written[1], 4);
	if (!ok)
		dt_dump(p);
	drv_program_destroy(p);
}

static void test_gs_triangle_strip_from_triangles(void)
{
	static const char gs[] =
		"#version 330\n"
		"layout(triangles) in;\n"
		"layout(triangle_strip, max_vertices = 3) out;\n"
		"in vec4 vcol[3];\n"
		"out vec2 r;\n"
		"void main() {\n"
		"  for (int i = 2; i >= 0; i--) {\n"
		"    r = vec2(vcol[i].x, float(gl_PrimitiveIDIn));\n"
		"    gl_Position = gl_in[i].gl_Position;\n"
		"    EmitVertex();\n"
		"  }\n"
		"}\n";
	static const char *const v[] = { "r" };
	struct drv_program *p = dt_compile(vs, gs, v, 1, DRV_GL_INTERLEAVED_ATTRIBS);
	static struct dt_run r;
	bool ok = true;

	DT_REQUIRE_LINKED(p);
	memset(&r, 0, sizeof r);
	r.prim = V_DI_PT_TRILIST;
	r.count = 9;
	dt_run(p, &r);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned t = 0; t < 3; t++)
		for (unsigned k = 0; k < 3; k++) {
			ok &= dt_f(r.so[0][(t * 3 + k) * 2]) == (float)(t * 3 + 2 - k);
			ok &= dt_f(r.so[0][(t * 3 + k) * 2 + 1]) == (float)t;
		}
	CHECK(ok);
	CHECK_EQ_INT(r.filled_dw[0], 18);
	if (!ok)
		dt_dump(p);
	drv_program_destroy(p);
}

/* Stage interfaces match by name (GL's rule), whatever order or
 * automatic locations each stage's declarations get. */
static void test_gs_inputs_match_vertex_outputs_by_name(void)
{
	static const char vs2[] =
		"#version 150\n"
		"out vec2 extra;\n"
		"out Data { vec4 c; float w; } o;\n"
		"void main() { extra = vec2(float(gl_VertexID), -1.0); o.c = vec4(3.0); o.w = float(gl_VertexID) * 0.5;\n"
		"  gl_Position = vec4(0.0); }\n";
	static const char gs[] =
		"#version 150\n"
		"layout(lines) in;\n"
		"layout(points, max_vertices = 2) out;\n"
		"in Data { vec4 c; float w; } d[];\n"
		"in vec2 extra[];\n"
		"out float r;\n"
		"void main() {\n"
		"  for (int i = 0; i < 2; i++) { r = d[i].w + extra[i].x * 100.0 + d[i].c.y * extra[i].y; EmitVertex(); }\n"
		"}\n";
	static const char *const v[] = { "r" };
	struct drv_program *p = dt_compile(vs2, gs, v, 1, DRV_GL_INTERLEAVED_ATTRIBS);
	static struct dt_run r;
	bool ok = true;

	DT_REQUIRE_LINKED(p);
	memset(&r, 0, sizeof r);
	r.prim = V_DI_PT_LINELIST;
	r.count = 6;
	dt_run(p, &r);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < 6; i++)
		ok &= dt_f(r.so[0][i]) == (float)i * 0.5f + (float)i * 100.0f - 3.0f;
	CHECK(ok);
	if (!ok)
		dt_dump(p);
	drv_program_destroy(p);
}

int main(void)
{
	XT_RUN(test_gs_two_streams_with_divergent_emit);
	XT_RUN(test_gs_triangle_strip_from_triangles);
	XT_RUN(test_gs_inputs_match_vertex_outputs_by_name);
	XT_TEST_MAIN_END();
}
