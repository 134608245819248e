/*
 * test_drv_link.c - program link: TF layouts from glTransformFeedbackVaryings
 * (interleaved with gl_SkipComponentsN and gl_NextBuffer, separate, array
 * elements, struct and block members, gl_Position / gl_PointSize /
 * gl_ClipDistance[n]) and from xfb_buffer / xfb_offset / xfb_stride, run on
 * gpu_model; the GL link errors (with the vertex-stream rules and the xfb
 * rules glslang checks while parsing); the program queries.
 */
#include "drv_test_util.h"

static const char vs_many[] =
	"#version 330\n"
	"in vec4 a;\n"
	"out vec3 v3;\n"
	"out float f[3];\n"
	"struct S { float x; vec2 y; };\n"
	"out S s;\n"
	"out Blk { vec2 m; flat int k; } blk;\n"
	"out float gl_ClipDistance[2];\n"
	"void main() {\n"
	"  float i = float(gl_VertexID);\n"
	"  v3 = vec3(i, i + 0.5, i + 0.25);\n"
	"  for (int j = 0; j < 3; j++) f[j] = i * 10.0 + float(j);\n"
	"  s.x = -i; s.y = vec2(i * 2.0, i * 3.0);\n"
	"  blk.m = vec2(100.0 + i, 200.0 + i); blk.k = gl_VertexID * 7;\n"
	"  gl_Position = vec4(i, 1.0, 2.0, 3.0);\n"
	"  gl_PointSize = 5.0 + i;\n"
	"  gl_ClipDistance[0] = 0.5; gl_ClipDistance[1] = -0.5 * i;\n"
	"}\n";

static struct drv_program *compile(const char *vs, const char *const *v, unsigned n, uint32_t mode)
{
	return dt_compile(vs, NULL, v, n, mode);
}

static void test_link_interleaved_with_skips_and_next_buffer(void)
{
	static const char *const v[] = { "v3", "gl_SkipComponents1", "f[1]", "gl_NextBuffer", "s.y", "gl_SkipComponents2",
					 "Blk.k", "gl_NextBuffer", "gl_Position", "gl_PointSize", "gl_ClipDistance[1]" };
	struct drv_program *p = compile(vs_many, v, 11, DRV_GL_INTERLEAVED_ATTRIBS);
	static struct dt_run r;
	bool ok = true;

	DT_REQUIRE_LINKED(p);
	CHECK_EQ_INT(p->tf.n_varyings, 11);
	CHECK_EQ_INT(p->tf.stride_bytes[0], 20);           /* v3, skip1, f[1] */
	CHECK_EQ_INT(p->tf.stride_bytes[1], 20);           /* s.y, skip2, Blk.k */
	CHECK_EQ_INT(p->tf.stride_bytes[2], 24);           /* gl_Position, gl_PointSize, gl_ClipDistance[1] */
	CHECK_EQ_INT(p->tf.buffer_mask, 7);
	CHECK_EQ_INT(p->tf.varyings[2].offset, 16);
	CHECK_EQ_INT(p->tf.varyings[1].type, DRV_GL_NONE);
	CHECK_EQ_INT(p->tf.varyings[1].size, 1);
	CHECK_EQ_INT(p->tf.varyings[3].size, 0);
	CHECK_EQ_INT(p->tf.varyings[6].buffer, 1);
	CHECK_EQ_INT(p->tf.varyings[6].offset, 16);
	CHECK_EQ_INT(p->tf.varyings[6].type, 0x1404);      /* GL_INT */
	CHECK_EQ_INT(drv_program_tf_varying_max_length(p), 19);   /* "gl_ClipDistance[1]" + NUL */
	memset(&r, 0, sizeof r);
	r.prim = V_DI_PT_TRILIST;
	r.count = 6;
	dt_run(p, &r);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < 6; i++) {
		float f = (float)i;
		const uint32_t *b0 = &r.so[0][i * 5], *b1 = &r.so[1][i * 5], *b2 = &r.so[2][i * 6];
		ok &= dt_f(b0[0]) == f && dt_f(b0[1]) == f + 0.5f && dt_f(b0[2]) == f + 0.25f && b0[3] == 0xEEEEEEEEu;
		ok &= dt_f(b0[4]) == f * 10.0f + 1.0f;
		ok &= dt_f(b1[0]) == f * 2.0f && dt_f(b1[1]) == f * 3.0f && b1[2] == 0xEEEEEEEEu && b1[4] == i * 7;
		ok &= dt_f(b2[0]) == f && dt_f(b2[3]) == 3.0f && dt_f(b2[4]) == 5.0f + f && dt_f(b2[5]) == -0.5f * f;
	}
	CHECK(ok);
	CHECK_EQ_INT(r.filled_dw[0], 30);
	CHECK_EQ_INT(r.filled_dw[2], 36);
	if (!ok)
		dt_dump(p);
	drv_program_destroy(p);
}

static void test_link_separate_attribs_one_buffer_each(void)
{
	static const char *const v[] = { "f", "blk.m", "s.x" };
	static const char *const v2[] = { "f", "Blk.m", "s.x" };
	struct drv_program *p = compile(vs_many, v, 3, DRV_GL_SEPARATE_ATTRIBS);
	static struct dt_run r;
	bool ok = true;

	/* the block is named by its block name, not its instance name */
	CHECK(p && !p->linked);
	CHECK(p && strstr(p->link_log, "\"blk.m\" is not declared as an output of the vertex shader"));
	drv_program_destroy(p);
	p = compile(vs_many, v2, 3, DRV_GL_SEPARATE_ATTRIBS);
	DT_REQUIRE_LINKED(p);
	CHECK_EQ_INT(p->tf.stride_bytes[0], 12);
	CHECK_EQ_INT(p->tf.stride_bytes[1], 8);
	CHECK_EQ_INT(p->tf.stride_bytes[2], 4);
	CHECK_EQ_INT(p->tf.varyings[0].size, 3);
	memset(&r, 0, sizeof r);
	r.prim = V_DI_PT_POINTLIST;
	r.count = 9;
	dt_run(p, &r);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < 9; i++) {
		float f = (float)i;
		for (unsigned j = 0; j < 3; j++)
			ok &= dt_f(r.so[0][i * 3 + j]) == f * 10.0f + (float)j;
		ok &= dt_f(r.so[1][i * 2]) == 100.0f + f && dt_f(r.so[1][i * 2 + 1]) == 200.0f + f;
		ok &= dt_f(r.so[2][i]) == -f;
	}
	CHECK(ok);
	drv_program_destroy(p);
}

static void test_link_xfb_qualifiers_define_the_layout(void)
{
	static const char vs[] =
		"#version 440\n"
		"layout(xfb_buffer = 1, xfb_stride = 32) out;\n"
		"layout(xfb_buffer = 0, xfb_offset = 4) out vec2 a;\n"
		"layout(xfb_buffer = 1, xfb_offset = 16) out float b;\n"
		"layout(xfb_buffer = 1, xfb_offset = 0) out ivec3 c;\n"
		"void main() { a = vec2(1.0, 2.0) * float(gl_VertexID); b = 9.0; c = ivec3(gl_VertexID, 5, 6);\n"
		"  gl_Position = vec4(0.0); }\n";
	static const char *const ignored[] = { "b" };
	struct drv_program *p = compile(vs, ignored, 1, DRV_GL_SEPARATE_ATTRIBS);
	static struct dt_run r;
	bool ok = true;

	DT_REQUIRE_LINKED(p);
	CHECK(p->tf.from_xfb_qualifiers);
	CHECK_EQ_INT(p->tf.n_varyings, 3);
	CHECK_EQ_INT(p->tf.stride_bytes[0], 12);
	CHECK_EQ_INT(p->tf.stride_bytes[1], 32);
	memset(&r, 0, sizeof r);
	r.prim = V_DI_PT_POINTLIST;
	r.count = 4;
	dt_run(p, &r);
	CHECK_EQ_INT(r.faults, 0);
	for (unsigned i = 0; i < 4; i++) {
		ok &= r.so[0][i * 3] == 0xEEEEEEEEu && dt_f(r.so[0][i * 3 + 1]) == (float)i &&
		      dt_f(r.so[0][i * 3 + 2]) == 2.0f * (float)i;
		ok &= r.so[1][i * 8] == i && r.so[1][i * 8 + 1] == 5 && r.so[1][i * 8 + 2] == 6 &&
		      dt_f(r.so[1][i * 8 + 4]) == 9.0f && r.so[1][i * 8 + 5] == 0xEEEEEEEEu;
	}
	CHECK(ok);
	drv_program_destroy(p);
}

static void expect_link_error(const char *vs, const char *const *v, unsigned n, uint32_t mode, const char *msg)
{
	struct drv_program *p = compile(vs, v, n, mode);
	CHECK(p && !p->linked);
	if (p && !strstr(p->link_log, msg)) {
		fprintf(stderr, "link log \"%s\" lacks \"%s\"\n", p->link_log, msg);
		CHECK(!"the expected link error");
	}
	drv_program_destroy(p);
}

static void test_link_errors_use_gl_wording(void)
{
	static const char *const unknown[] = { "nope" };
	static const char *const twice[] = { "v3", "v3" };
	static const char *const strct[] = { "s" };
	static const char *const oob[] = { "f[3]" };
	static const char *const skip_sep[] = { "v3", "gl_SkipComponents1" };
	static const char *const next5[] = { "v3", "gl_NextBuffer", "f", "gl_NextBuffer", "s.x", "gl_NextBuffer",
					     "s.y", "gl_NextBuffer", "Blk.m" };
	static const char *const big_sep[] = { "gl_Position", "v3", "f", "s.x", "Blk.m" };
	static const char *const wide[] = { "f", "v3" };
	const char *many[40];

	expect_link_error(vs_many, unknown, 1, DRV_GL_INTERLEAVED_ATTRIBS,
			  "transform feedback varying \"nope\" is not declared as an output of the vertex shader");
	expect_link_error(vs_many, twice, 2, DRV_GL_INTERLEAVED_ATTRIBS, "is specified more than once");
	expect_link_error(vs_many, strct, 1, DRV_GL_INTERLEAVED_ATTRIBS, "is a structure");
	expect_link_error(vs_many, oob, 1, DRV_GL_INTERLEAVED_ATTRIBS, "array index 3 out of bounds");
	expect_link_error(vs_many, skip_sep, 2, DRV_GL_SEPARATE_ATTRIBS,
			  "gl_SkipComponents1 is not allowed with GL_SEPARATE_ATTRIBS");
	expect_link_error(vs_many, next5, 9, DRV_GL_INTERLEAVED_ATTRIBS, "MAX_TRANSFORM_FEEDBACK_BUFFERS");
	expect_link_error(vs_many, big_sep, 5, DRV_GL_SEPARATE_ATTRIBS, "MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS");
	expect_link_error("#version 330\nout mat4 w[5]; out float f;\nvoid main() { for (int i = 0; i < 5; i++) w[i] = mat4(1.0); f = 0.0; gl_Position = vec4(0.0); }\n",
			  (const char *const[]){ "w" }, 1, DRV_GL_SEPARATE_ATTRIBS, "MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS");
	(void)wide;
	for (unsigned i = 0; i < 17; i++)
		many[i] = "gl_Position";
	many[0] = "gl_SkipComponents4";
	for (unsigned i = 1; i < 17; i++)
		many[i] = "gl_SkipComponents4";
	expect_link_error(vs_many, many, 17, DRV_GL_INTERLEAVED_ATTRIBS, "MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS");
}

/* Links vs + gs + fs (gs, fs may be NULL); returns linked, and checks that
 * every stage compiled and, when `msg` is set, that the link log holds it. */
static bool links(const char *vs, const char *gs, const char *fs, const char *msg)
{
	struct drv_program_desc d;
	struct drv_program *p = NULL;
	struct xt_err err = { 0 };
	bool linked;

	memset(&d, 0, sizeof d);
	d.source[DRV_STAGE_VERTEX] = vs;
	d.source[DRV_STAGE_GEOMETRY] = gs;
	d.source[DRV_STAGE_FRAGMENT] = fs;
	if (drv_program_create(&d, &p, &err) != XT_OK) {
		/* not a verdict: a negative case must not pass on this */
		fprintf(stderr, "drv_program_create: %s\n", xt_err_msg(&err));
		CHECK(!"drv_program_create gives a verdict");
		return false;
	}
	for (int s = 0; s < DRV_STAGE_COUNT; s++)
		if (d.source[s] && !p->compiled[s]) {
			fprintf(stderr, "stage %d does not compile:\n%s\n", s, p->compile_log[s]);
			CHECK(!"every stage compiles");
		}
	linked = p->linked;
	if (msg && linked) {
		fprintf(stderr, "linked, but a failure naming \"%s\" was expected\n", msg);
		CHECK(!"the link fails");
	} else if (msg && !strstr(p->link_log, msg)) {
		fprintf(stderr, "link log \"%s\" lacks \"%s\"\n", p->link_log, msg);
		CHECK(!"the expected link error");
	}
	if (!msg && !linked)
		fprintf(stderr, "unexpected link failure:\n%s\n", p->link_log);
	drv_program_destroy(p);
	return linked;
}

static const char vs_pass[] = "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n";

static char *gs_streams(const char *out_prim, const char *decls, int stream)
{
	static char buf[768];
	snprintf(buf, sizeof buf,
		 "#version 150\n#extension GL_ARB_gpu_shader5 : enable\nlayout(points) in;\n"
		 "layout(%s, max_vertices = 3) out;\n%s\n"
		 "void main() { gl_Position = vec4(1.0); EmitStreamVertex(%d); EndStreamPrimitive(%d); }\n",
		 out_prim, decls, stream, stream);
	return buf;
}

/* GL 4.6 §7.6: a std140 or shared block is active even when no member is
 * referenced (Godot's scene shader declares light blocks it does not use
 * and binds them); glslang's optimizer drops such blocks, the program
 * table keeps them, with their std140 sizes. */
static void test_link_unreferenced_std140_and_shared_blocks_stay_active(void)
{
	static const char vs[] =
		"#version 330\n"
		"layout(std140) uniform Used { vec4 a; };\n"
		"layout(std140) uniform Unused { vec4 b; float c; };\n"
		"uniform Shared { mat4 m; };\n"
		"void main() { gl_Position = a; }\n";
	struct drv_program *p = compile(vs, NULL, 0, DRV_GL_INTERLEAVED_ATTRIBS);
	bool seen[3] = { false, false, false };

	DT_REQUIRE_LINKED(p);
	CHECK_EQ_INT(p->n_ubos, 3);
	for (unsigned k = 0; k < p->n_ubos; k++) {
		if (!strcmp(p->ubos[k].name, "Used"))
			seen[0] = p->ubos[k].size_bytes == 16;
		if (!strcmp(p->ubos[k].name, "Unused"))
			seen[1] = p->ubos[k].size_bytes == 32 && p->ubos[k].stages == 1u << DRV_STAGE_VERTEX;
		if (!strcmp(p->ubos[k].name, "Shared"))
			seen[2] = p->ubos[k].size_bytes == 64;
	}
	CHECK(seen[0] && seen[1] && seen[2]);
	/* the block a shader uses comes first, its index is the one draws bind */
	CHECK(!strcmp(p->ubos[0].name, "Used"));
	drv_program_destroy(p);
}

static void test_link_vertex_stream_rules(void)
{
	static const char fs[] = "#version 150\nin vec4 v;\nout vec4 c;\nvoid main() { c = v; }\n";
	static const char fs_none[] = "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

	/* streams other than 0 need points out */
	CHECK(!links(vs_pass, gs_streams("triangle_strip", "layout(stream = 1) out vec4 v;", 1), fs_none,
		     "EmitStreamVertex(1) with a stream other than 0 needs the points output primitive"));
	CHECK(links(vs_pass, gs_streams("points", "layout(stream = 1) out vec4 v;", 1), fs_none, NULL));
	CHECK(links(vs_pass, gs_streams("triangle_strip", "out vec4 v;", 0), fs, NULL));
	/* EmitStreamVertex(-1) compiles (a constant), and fails to link */
	CHECK(!links(vs_pass, gs_streams("points", "", -1), fs_none, "EmitStreamVertex(-1): the stream must be in [0, 3]"));
	/* only stream 0 reaches the fragment shader */
	CHECK(!links(vs_pass, gs_streams("points", "layout(stream = 1) out vec4 v;", 1), fs,
		     "fragment shader input 'v' comes from a geometry shader output of stream 1"));
	CHECK(links(vs_pass, gs_streams("points", "layout(stream = 0) out vec4 v;", 1), fs, NULL));
}

static void test_link_xfb_rules_glslang_checks_early_fail_the_link(void)
{
	static const char head[] = "#version 140\n#extension GL_ARB_enhanced_layouts : require\n";
	char vs[512];

	/* Mesa: glCompileShader succeeds, glLinkProgram fails */
	snprintf(vs, sizeof vs, "%slayout(xfb_offset = 0) out vec4 a;\nlayout(xfb_offset = 0) out vec4 b;\n"
		 "void main() { a = b = vec4(1.0); gl_Position = a; }\n", head);
	CHECK(!links(vs, NULL, NULL, "overlapping offsets"));
	snprintf(vs, sizeof vs, "%slayout(xfb_stride = (gl_MaxTransformFeedbackInterleavedComponents + 1) * 4) out vec4 a;\n"
		 "void main() { a = vec4(1.0); gl_Position = a; }\n", head);
	CHECK(!links(vs, NULL, NULL, "stride is too large"));
	snprintf(vs, sizeof vs, "%slayout(xfb_stride = gl_MaxTransformFeedbackInterleavedComponents * 4) out vec4 a;\n"
		 "void main() { a = vec4(1.0); gl_Position = a; }\n", head);
	CHECK(links(vs, NULL, NULL, NULL));
}

static void test_link_separate_double_varying_within_the_component_limit(void)
{
	static const char *const v[] = { "d", "c" };
	struct drv_program *p = compile("#version 150\n#extension GL_ARB_gpu_shader_fp64 : require\n"
					"out dvec3 d; out vec4 c;\n"
					"void main() { d = dvec3(0.5lf); c = vec4(1.0); gl_Position = c; }\n",
					v, 2, DRV_GL_SEPARATE_ATTRIBS);
	CHECK(p && p->linked);
	if (p && p->linked)
		CHECK_EQ_INT(p->tf.stride_bytes[0], 24);
	drv_program_destroy(p);
}

/* Valid GLSL the back end cannot compile (a multisample texel fetch in
 * the vertex shader, which the back end lacks as of this writing; use
 * another gap once it has it): glCompileShader succeeds, the link fails
 * flagged unsupported with the construct named; a GLSL error stays a
 * compile error. */
static void test_link_back_end_limits_are_unsupported_not_compile_errors(void)
{
	static const char vs[] = "#version 150\n#extension GL_ARB_texture_multisample : require\n"
				 "uniform sampler2DMS tex;\nout float s;\n"
				 "void main() { s = texelFetch(tex, ivec2(0), 0).g; gl_Position = vec4(0.0); }\n";
	struct drv_program_desc d;
	struct drv_program *p = NULL;
	struct xt_err err = { 0 };

	memset(&d, 0, sizeof d);
	d.source[DRV_STAGE_VERTEX] = vs;
	d.compile_only = true;
	CHECK(drv_program_create(&d, &p, &err) == XT_OK);
	CHECK(p && p->compiled[DRV_STAGE_VERTEX] && !p->unsupported);
	drv_program_destroy(p);
	d.compile_only = false;
	CHECK(drv_program_create(&d, &p, &err) == XT_OK);
	CHECK(p && p->compiled[DRV_STAGE_VERTEX] && !p->linked && p->unsupported);
	if (p && !strstr(p->link_log, "the vertex shader uses what the driver cannot compile")) {
		fprintf(stderr, "link log: %s\n", p->link_log);
		CHECK(!"the link log names the back end's limit");
	}
	drv_program_destroy(p);
	d.source[DRV_STAGE_VERTEX] = "#version 150\nvoid main() { gl_Position = undeclared; }\n";
	CHECK(drv_program_create(&d, &p, &err) == XT_OK);
	CHECK(p && !p->compiled[DRV_STAGE_VERTEX] && !p->linked && !p->unsupported);
	drv_program_destroy(p);
}

static void test_link_programs_without_a_vertex_shader(void)
{
	static const char fs[] = "#version 150\nuniform vec4 u;\nout vec4 c;\nvoid main() { c = u; }\n";
	static const char gs[] = "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n"
				 "void main() { gl_Position = vec4(0.0); EmitVertex(); }\n";
	struct drv_program_desc d;
	struct drv_program *p = NULL;
	struct xt_err err = { 0 };

	memset(&d, 0, sizeof d);
	/* a fragment shader alone links (no executable vertex stage) */
	d.source[DRV_STAGE_FRAGMENT] = fs;
	CHECK(drv_program_create(&d, &p, &err) == XT_OK);
	CHECK(p && p->linked && !p->hw[DRV_HW_VS].present);
	CHECK(p && drv_program_uniform_location(p, "u", NULL, NULL) >= 0);
	drv_program_destroy(p);
	/* a geometry shader needs a vertex shader unless separable */
	d.source[DRV_STAGE_FRAGMENT] = NULL;
	d.source[DRV_STAGE_GEOMETRY] = gs;
	CHECK(drv_program_create(&d, &p, &err) == XT_OK);
	CHECK(p && !p->linked && strstr(p->link_log, "must be linked with a vertex shader"));
	drv_program_destroy(p);
	d.separable = true;
	CHECK(drv_program_create(&d, &p, &err) == XT_OK);
	CHECK(p && p->linked);
	drv_program_destroy(p);
	/* nothing attached */
	d.source[DRV_STAGE_GEOMETRY] = NULL;
	CHECK(drv_program_create(&d, &p, &err) == XT_OK);
	CHECK(p && !p->linked && strstr(p->link_log, "no shaders attached"));
	drv_program_destroy(p);
}

static void test_link_queries_attribs_bound_locations(void)
{
	static const char vs[] =
		"#version 330\n"
		"in vec4 p;\nin mat2 m;\nin float w;\n"
		"out vec4 o;\n"
		"void main() { o = p + vec4(m[0], m[1]) * w; gl_Position = o; }\n";
	static const char *const names[] = { "w", NULL };
	static const uint32_t locs[] = { 7 };
	struct drv_program_desc d;
	struct drv_program *p = NULL;
	struct xt_err err = { 0 };

	memset(&d, 0, sizeof d);
	d.source[DRV_STAGE_VERTEX] = vs;
	d.attrib_names = names;
	d.attrib_locations = locs;
	CHECK(drv_program_create(&d, &p, &err) == XT_OK && p && p->linked);
	if (!p)
		return;
	CHECK_EQ_INT(p->n_attribs, 3);
	CHECK_EQ_INT(drv_program_attrib_location(p, "w"), 7);
	CHECK(drv_program_attrib_location(p, "m") >= 0);
	CHECK(drv_program_attrib_location(p, "nope") == -1);
	{
		bool found_m = false;
		for (unsigned i = 0; i < p->n_attribs; i++)
			if (!strcmp(p->attribs[i].name, "m")) {
				found_m = true;
				CHECK_EQ_INT(p->attribs[i].type, 0x8B5A);  /* GL_FLOAT_MAT2 */
				CHECK_EQ_INT(p->attribs[i].locations, 2);
			}
		CHECK(found_m);
	}
	/* m's two locations are taken: p and m do not overlap w's 7 or each other */
	{
		int lp = drv_program_attrib_location(p, "p"), lm = drv_program_attrib_location(p, "m");
		CHECK(lp >= 0 && lm >= 0 && lp != 7 && lm != 7 && lm + 1 != 7);
		CHECK(lp != lm && lp != lm + 1);
	}
	CHECK_EQ_INT(drv_program_ubo_index(p, "none"), 0xFFFFFFFFu);
	drv_program_destroy(p);
}

int main(void)
{
	XT_RUN(test_link_interleaved_with_skips_and_next_buffer);
	XT_RUN(test_link_separate_attribs_one_buffer_each);
	XT_RUN(test_link_xfb_qualifiers_define_the_layout);
	XT_RUN(test_link_errors_use_gl_wording);
	XT_RUN(test_link_queries_attribs_bound_locations);
	XT_RUN(test_link_unreferenced_std140_and_shared_blocks_stay_active);
	XT_RUN(test_link_vertex_stream_rules);
	XT_RUN(test_link_programs_without_a_vertex_shader);
	XT_RUN(test_link_back_end_limits_are_unsupported_not_compile_errors);
	XT_RUN(test_link_xfb_rules_glslang_checks_early_fail_the_link);
	XT_RUN(test_link_separate_double_varying_within_the_component_limit);
	XT_TEST_MAIN_END();
}
