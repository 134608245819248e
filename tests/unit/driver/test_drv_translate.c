/*
 * test_drv_translate.c - the GLSL translator on its own: #version mapping,
 * attribute / varying by stage, texture2D, gl_FragColor, compatibility
 * built-ins with the reported mapping, ftransform(), renamed keywords,
 * extension handling, line numbers kept, and the constructs it refuses by
 * name.  Each case also goes through glslang (via drv_program_create) so the
 * output is known to be accepted.  Then glCompileShader's verdict (compile
 * only) on the rules GL drivers apply: xfb limit constants before GLSL 4.30,
 * extensions glslang lacks or takes in part, GL_ARB_compatibility,
 * separate shader objects before 4.10, atomic counter bindings, and the
 * layout-qualifier rules of drv_glsl_layout.c, each with a twin that must
 * compile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv_compiler.h"
#include "xt_test.h"

static char *translate(const char *src, enum drv_stage st, bool es, struct drv_translation *t, struct xt_buf *log)
{
	enum xt_rc rc = drv_glsl_translate(src, st, es, t, log);
	if (rc != XT_OK)
		return NULL;
	return t->text;
}

static bool has(const char *text, const char *what)
{
	if (text && strstr(text, what))
		return true;
	fprintf(stderr, "missing \"%s\" in:\n%s\n", what, text ? text : "(null)");
	return false;
}

static void test_translate_glsl_110_vertex_compat(void)
{
	struct drv_translation t;
	struct xt_buf log = XT_BUF_INIT;
	const char *src = "// comment mentioning gl_Vertex and varying\n"
			  "#define P gl_Vertex\n"
			  "attribute vec4 extra; varying vec4 tc;\n"
			  "void main() { tc = gl_MultiTexCoord3 + extra; gl_TexCoord[1] = gl_Color;\n"
			  "  gl_FrontColor = P; gl_Position = ftransform(); }\n";
	char *out = translate(src, DRV_STAGE_VERTEX, false, &t, &log);
	CHECK(out != NULL);
	CHECK(has(out, "#version 330 core\n"));
	CHECK(has(out, "in vec4 xt_Vertex;"));
	CHECK(has(out, "in vec4 xt_MultiTexCoord3;"));
	CHECK(has(out, "uniform mat4 xt_ModelViewProjectionMatrix;"));
	CHECK(has(out, "out vec4 xt_TexCoord[8];"));
	CHECK(has(out, "#define P xt_Vertex"));
	CHECK(has(out, "// comment mentioning gl_Vertex and varying"));  /* comments untouched */
	CHECK(has(out, "in vec4 extra; out vec4 tc;"));
	CHECK(has(out, "gl_Position = (xt_ModelViewProjectionMatrix * xt_Vertex);"));
	CHECK(has(out, "#line 1\n"));
	CHECK_EQ_INT(t.src_version, 110);
	CHECK(t.n_maps >= 6);
	/* the reported mapping names each compatibility built-in the shader
	 * uses, with its kind */
	{
		static const struct { const char *name; enum drv_builtin_kind kind; } want[] = {
			{ "gl_TexCoord", DRV_BUILTIN_OUTPUT }, { "gl_FrontColor", DRV_BUILTIN_OUTPUT },
			{ "gl_Vertex", DRV_BUILTIN_ATTRIB }, { "gl_MultiTexCoord3", DRV_BUILTIN_ATTRIB },
			{ "gl_Color", DRV_BUILTIN_ATTRIB },
			{ "gl_ModelViewProjectionMatrix", DRV_BUILTIN_UNIFORM },   /* ftransform() */
		};
		for (unsigned k = 0; k < sizeof want / sizeof want[0]; k++) {
			bool found = false;
			for (unsigned i = 0; i < t.n_maps; i++)
				if (!strcmp(t.maps[i].glsl_name, want[k].name)) {
					found = true;
					CHECK_EQ_INT(t.maps[i].kind, want[k].kind);
				}
			if (!found)
				fprintf(stderr, "no map of %s\n", want[k].name);
			CHECK(found);
		}
	}
	drv_translation_fini(&t);
	xt_buf_fini(&log);
}

static void test_translate_es_100_fragment(void)
{
	struct drv_translation t;
	struct xt_buf log = XT_BUF_INIT;
	const char *src = "#version 100\n#extension GL_OES_standard_derivatives : enable\nprecision mediump float;\n"
			  "varying vec2 uv; uniform sampler2D s;\n"
			  "void main() { gl_FragColor = texture2D(s, uv); }\n";
	char *out = translate(src, DRV_STAGE_FRAGMENT, true, &t, &log);
	CHECK(out != NULL);
	CHECK(has(out, "#version 310 es\n"));
	CHECK(has(out, "precision highp float;"));
	CHECK(has(out, "in vec2 uv;"));
	CHECK(has(out, "out vec4 xt_FragColor;"));
	CHECK(has(out, "xt_FragColor = texture(s, uv);"));
	CHECK(!strstr(out ? out : "", "GL_OES_standard_derivatives"));
	drv_translation_fini(&t);
	xt_buf_fini(&log);
}

static void test_translate_renames_new_keywords_and_reports_them(void)
{
	struct drv_translation t;
	struct xt_buf log = XT_BUF_INIT;
	const char *src = "#version 120\nvarying float sample; void main() { sample = 1.0; gl_Position = vec4(sample); }\n";
	char *out = translate(src, DRV_STAGE_VERTEX, false, &t, &log);
	CHECK(has(out, "out float xt_r_sample;"));
	CHECK_EQ_STR(drv_translation_src_name(t.maps, t.n_maps, "sample"), "xt_r_sample");
	CHECK_EQ_STR(drv_translation_user_name(t.maps, t.n_maps, "xt_r_sample"), "sample");
	drv_translation_fini(&t);
	xt_buf_fini(&log);
}

static void test_translate_doubles_pick_glsl_410(void)
{
	struct drv_translation t;
	struct xt_buf log = XT_BUF_INIT;
	char *out = translate("#version 150\n#extension GL_ARB_gpu_shader_fp64 : require\nout double d;\n"
			      "void main() { d = 1.0lf; gl_Position = vec4(0.0); }\n", DRV_STAGE_VERTEX, false, &t, &log);
	CHECK(has(out, "#version 410 core\n#extension GL_ARB_gpu_shader_fp64 : require\n"));
	drv_translation_fini(&t);
	xt_buf_fini(&log);
}

static void expect_refused(const char *src, enum drv_stage st, const char *msg)
{
	struct drv_translation t;
	struct xt_buf log = XT_BUF_INIT;
	CHECK(drv_glsl_translate(src, st, false, &t, &log) == XT_ERR_UNSUPPORTED);
	xt_buf_append(&log, "", 1);
	if (!strstr((const char *)log.data, msg)) {
		fprintf(stderr, "log \"%s\" lacks \"%s\"\n", (const char *)log.data, msg);
		CHECK(!"the refusal names the construct");
	}
	xt_buf_fini(&log);
}

static void test_translate_refuses_fixed_function_lighting_by_name(void)
{
	expect_refused("#version 110\nvoid main() {\n gl_FrontColor = gl_LightSource[0].diffuse; gl_Position = ftransform(); }\n",
		       DRV_STAGE_VERTEX, "0:3: error: compatibility built-in 'gl_LightSource'");
	expect_refused("#version 120\nuniform sampler2DShadow s; void main() { gl_FragColor = shadow2D(s, vec3(0.0)); }\n",
		       DRV_STAGE_FRAGMENT, "'shadow2D'");
	expect_refused("#version 120\n#extension GL_EXT_geometry_shader4 : enable\nvoid main() { gl_Position = gl_PositionIn[0]; EmitVertex(); }\n",
		       DRV_STAGE_GEOMETRY, "geometry shaders need GLSL 1.50");
	expect_refused("#version 130 es\nvoid main() {}\n", DRV_STAGE_VERTEX, "unsupported GLSL ES version 130");
}

static void test_translated_legacy_shaders_compile_in_glslang(void)
{
	static const char *const vs[] = {
		"attribute vec4 p; varying vec4 c; void main() { c = gl_Color * gl_NormalMatrix[0].xyzx; gl_Position = gl_ModelViewMatrix * p; }\n",
		"#version 120\nvarying vec2 t; void main() { t = (gl_TextureMatrix[0] * gl_MultiTexCoord0).xy; gl_Position = ftransform(); gl_ClipVertex = gl_Vertex; }\n",
		"#version 130\nin vec4 p; flat out int i; void main() { i = gl_VertexID + gl_InstanceID; gl_Position = p; }\n",
		"#version 140\n#extension GL_ARB_draw_instanced : enable\nin vec4 p; out vec4 c; void main() { c = p * float(gl_InstanceIDARB); gl_Position = p; }\n",
		"#version 150\nin vec4 p; out Data { vec4 c; } d; void main() { d.c = p; gl_Position = p; }\n",
		"#version 300 es\nin vec4 p; out vec4 c; void main() { c = p; gl_Position = p; }\n",
		"#version 320 es\nin vec4 p; out vec4 c; void main() { c = p; gl_Position = p; }\n",
	};
	static const char fs110[] = "varying vec4 c; void main() { gl_FragData[0] = c * gl_TexCoord[0]; }\n";
	for (unsigned i = 0; i < sizeof vs / sizeof vs[0]; i++) {
		struct drv_program_desc d;
		struct drv_program *p = NULL;
		struct xt_err err = { 0 };
		memset(&d, 0, sizeof d);
		d.source[DRV_STAGE_VERTEX] = vs[i];
		d.es = i >= 5;
		if (i == 0)
			d.source[DRV_STAGE_FRAGMENT] = fs110;
		CHECK(drv_program_create(&d, &p, &err) == XT_OK);
		if (p && !p->linked)
			fprintf(stderr, "shader %u:\n%s\n%s\n%s%s\n", i, p->translated[0] ? p->translated[0] : "", p->compile_log[0],
				p->compile_log[2], p->link_log);
		CHECK(p && p->linked);
		drv_program_destroy(p);
	}
}

/* --- glCompileShader verdicts (compile_only: translator + glslang) ---------- */

/* Compiles `src` alone as `st` the way glCompileShader does; returns
 * compiled[st] and, when `log_has` is set, checks the compile log holds it. */
static bool compiles(const char *src, enum drv_stage st, const char *log_has)
{
	struct drv_program_desc d;
	struct drv_program *p = NULL;
	struct xt_err err = { 0 };
	bool ok;

	memset(&d, 0, sizeof d);
	d.compile_only = true;
	d.source[st] = src;
	if (drv_program_create(&d, &p, &err) != XT_OK) {
		/* not a verdict: a negative case must not pass on this */
		fprintf(stderr, "drv_program_create: %s\n", xt_err_msg(&err));
		CHECK(!"drv_program_create gives a verdict");
		return false;
	}
	ok = p->compiled[st];
	if (log_has && ok) {
		fprintf(stderr, "compiled, but a failure naming \"%s\" was expected\n", log_has);
		CHECK(!"the compile fails");
	} else if (log_has && !strstr(p->compile_log[st], log_has)) {
		fprintf(stderr, "compile log \"%s\" lacks \"%s\"\n", p->compile_log[st], log_has);
		CHECK(!"the compile log names the rule");
	}
	if (!ok && !log_has)
		fprintf(stderr, "unexpected compile failure:\n%s\n%s\n", src, p->compile_log[st]);
	drv_program_destroy(p);
	return ok;
}

static const char gs_head[] = "#version 150\n#extension GL_ARB_gpu_shader5 : enable\nlayout(points) in;\n";

static char *gs_with(const char *head_ext, const char *body)
{
	static char buf[1024];
	snprintf(buf, sizeof buf, "%s%slayout(points, max_vertices = 1) out;\n%s\nvoid main() { EmitVertex(); }\n",
		 gs_head, head_ext, body);
	return buf;
}

/* GLSL 4.60 §3.2 / ES 3.00 §3.1: a backslash before a newline joins the
 * lines; Mesa takes it in every version (Godot 3's GLSL 3.30 canvas shader
 * has multi-line #defines), glslang only from 4.20 / ES 3.00.  The joined
 * lines keep the numbers of the lines after them. */
static void test_compile_line_continuations_in_every_version_keep_line_numbers(void)
{
	static const char vs[] =
		"#version 330\n"
		"#define SCALE(v)     \\\n"
		"\t((v) *          \\\r\n"
		"\t 2.0)\n"
		"void main() { gl_Position = vec4(SCALE(1.0)); }\n";
	static const char bad[] =
		"#version 330\n"
		"#define A 1.0 + \\\n"
		"  2.0\n"
		"void main() {\n"
		"  gl_Position = vec4(A) + undeclared_on_line_5;\n"
		"}\n";
	static const char es[] =
		"#version 100\n"
		"#define ONE \\\n"
		"  1.0\n"
		"void main() { gl_Position = vec4(ONE); }\n";

	CHECK(compiles(vs, DRV_STAGE_VERTEX, NULL));
	CHECK(compiles(es, DRV_STAGE_VERTEX, NULL));
	CHECK(!compiles(bad, DRV_STAGE_VERTEX, "0:5:"));
}

static void test_compile_xfb_limits_are_constants_from_glsl_140(void)
{
	struct drv_translation t;
	struct xt_buf log = XT_BUF_INIT;
	static const char vs[] =
		"#version 140\n#extension GL_ARB_enhanced_layouts : require\n"
		"layout(xfb_buffer = gl_MaxTransformFeedbackBuffers - 1,\n"
		"       xfb_stride = gl_MaxTransformFeedbackInterleavedComponents) out vec4 v;\n"
		"void main() { v = vec4(1.0); gl_Position = v; }\n";
	char *out = translate(vs, DRV_STAGE_VERTEX, false, &t, &log);

	CHECK(has(out, "const int xt_MaxTransformFeedbackBuffers = 4;\n"));
	CHECK(has(out, "xfb_buffer = xt_MaxTransformFeedbackBuffers - 1"));
	drv_translation_fini(&t);
	xt_buf_fini(&log);
	CHECK(compiles(vs, DRV_STAGE_VERTEX, NULL));
}

static void test_compile_extensions_glslang_lacks_raise_the_version(void)
{
	struct drv_translation t;
	struct xt_buf log = XT_BUF_INIT;
	static const char aoa[] = "#version 120\n#extension GL_ARB_arrays_of_arrays : enable\n"
				  "varying vec4[2][3] v;\nvoid main() { v[1][2] = vec4(1.0); gl_Position = ftransform(); }\n";
	char *out = translate(aoa, DRV_STAGE_VERTEX, false, &t, &log);

	CHECK(has(out, "#version 430 core\n"));
	CHECK(out && !strstr(out, "GL_ARB_arrays_of_arrays"));
	drv_translation_fini(&t);
	xt_buf_fini(&log);
	CHECK(compiles(aoa, DRV_STAGE_VERTEX, NULL));
	/* glslang takes GL_ARB_gpu_shader5 only in part: `precise` needs 4.00 */
	CHECK(compiles("#version 150\n#extension GL_ARB_gpu_shader5 : require\nprecise out vec4 x;\n"
		       "void main() { x = vec4(1.0); gl_Position = x; }\n", DRV_STAGE_VERTEX, NULL));
	CHECK(!compiles("#version 150\nprecise out vec4 x;\nvoid main() { x = vec4(1.0); gl_Position = x; }\n",
			DRV_STAGE_VERTEX, "syntax error"));
}

static void test_compile_arb_compatibility_brings_compatibility_built_ins(void)
{
	struct drv_translation t;
	struct xt_buf log = XT_BUF_INIT;
	static const char vs[] = "#version 150\n#extension GL_ARB_compatibility : enable\n"
				 "void main() { gl_FrontColor = gl_Color; gl_Position = ftransform(); }\n";
	char *out = translate(vs, DRV_STAGE_VERTEX, false, &t, &log);

	CHECK(has(out, "in vec4 xt_Color;"));
	CHECK(out && !strstr(out, "GL_ARB_compatibility"));
	drv_translation_fini(&t);
	xt_buf_fini(&log);
	CHECK(compiles(vs, DRV_STAGE_VERTEX, NULL));
	CHECK(!compiles("#version 150\nvoid main() { gl_Position = gl_Vertex; }\n", DRV_STAGE_VERTEX, "gl_Vertex"));
}

static void test_compile_separate_shader_objects_before_glsl_410(void)
{
	/* gl_PerVertex redeclaration: Mesa from 1.50, glslang needs the extension */
	CHECK(compiles("#version 150\nout gl_PerVertex { vec4 gl_Position; };\nvoid main() { gl_Position = vec4(1.0); }\n",
		       DRV_STAGE_VERTEX, NULL));
	/* output locations: with the extension the shader enabled, not without */
	CHECK(compiles("#version 140\n#extension GL_ARB_separate_shader_objects : require\n"
		       "#extension GL_ARB_explicit_attrib_location : require\n"
		       "layout(location = 1) out vec3 a;\nvoid main() { a = vec3(1.0); gl_Position = vec4(1.0); }\n",
		       DRV_STAGE_VERTEX, NULL));
	CHECK(!compiles("#version 150\nlayout(location = 1) out vec3 a;\nvoid main() { a = vec3(1.0); gl_Position = vec4(1.0); }\n",
			DRV_STAGE_VERTEX, "location"));
}

static void test_compile_atomic_counter_bindings_before_glsl_420(void)
{
	/* GL_ARB_shader_atomic_counters brings layout(binding) on counters */
	CHECK(compiles("#version 150\n#extension GL_ARB_shader_atomic_counters : require\n"
		       "layout(binding = 2) uniform atomic_uint c;\nout vec4 o;\n"
		       "void main() { o = vec4(float(atomicCounterIncrement(c))); }\n", DRV_STAGE_FRAGMENT, NULL));
	CHECK(!compiles("#version 150\nlayout(binding = 2) uniform sampler2D s;\nout vec4 o;\n"
			"void main() { o = texture(s, vec2(0.0)); }\n", DRV_STAGE_FRAGMENT, "binding"));
}

static void test_compile_duplicate_layout_qualifiers_need_enhanced_layouts(void)
{
	CHECK(!compiles(gs_with("", "layout(stream = 2, stream = 1) out vec3 v;"), DRV_STAGE_GEOMETRY,
			"'stream' appears twice in one layout()"));
	CHECK(!compiles(gs_with("", "layout(stream = 2, stream = 1) out;"), DRV_STAGE_GEOMETRY, "appears twice"));
	CHECK(compiles(gs_with("#extension GL_ARB_enhanced_layouts : require\n", "layout(stream = 2, stream = 1) out vec3 v;"),
		       DRV_STAGE_GEOMETRY, NULL));
}

static void test_compile_several_layouts_in_one_declaration_need_420pack(void)
{
	CHECK(!compiles(gs_with("", "layout(stream = 2) layout(stream = 1) out vec3 v;"), DRV_STAGE_GEOMETRY,
			"several layout(...) qualifiers in one declaration"));
	CHECK(compiles(gs_with("#extension GL_ARB_shading_language_420pack : enable\n",
			       "layout(stream = 2) layout(stream = 1) out vec3 v;"), DRV_STAGE_GEOMETRY, NULL));
}

static void test_compile_stream_values_and_uses(void)
{
	CHECK(!compiles(gs_with("", "layout(stream = -2) out vec4 v;"), DRV_STAGE_GEOMETRY,
			"stream layout qualifier is invalid (-2 < 0)"));
	/* constant expressions (GL_ARB_enhanced_layouts) */
	CHECK(!compiles(gs_with("#extension GL_ARB_enhanced_layouts : require\n",
				"const int S = 2;\nlayout(stream = S * 2) out vec4 v;"), DRV_STAGE_GEOMETRY,
			"stream 4 is not below GL_MAX_VERTEX_STREAMS"));
	CHECK(compiles(gs_with("#extension GL_ARB_enhanced_layouts : require\n",
			       "const int S = 1;\nlayout(stream = S + 2) out vec4 v;"), DRV_STAGE_GEOMETRY, NULL));
	CHECK(!compiles("#version 150\n#extension GL_ARB_gpu_shader5 : enable\nlayout(points, stream = 1) in;\n"
			"layout(points, max_vertices = 1) out;\nvoid main() { EmitVertex(); }\n", DRV_STAGE_GEOMETRY,
			"not to inputs"));
	/* a value the checker cannot evaluate is glslang's business */
	CHECK(compiles(gs_with("", "#define S 1\nlayout(stream = S) out vec4 v;"), DRV_STAGE_GEOMETRY, NULL));
}

static void test_compile_block_members_keep_the_block_stream(void)
{
	CHECK(!compiles(gs_with("", "out B { layout(stream = 1) vec4 a; vec4 b; } blk;"), DRV_STAGE_GEOMETRY,
			"block member stream 1 differs from its block's stream 0"));
	CHECK(compiles(gs_with("", "layout(stream = 1) out B { layout(stream = 1) vec4 a; vec4 b; } blk;"),
		       DRV_STAGE_GEOMETRY, NULL));
	/* the default stream set by `layout(stream = N) out;` */
	CHECK(compiles(gs_with("", "layout(stream = 2) out;\nout B { layout(stream = 2) vec4 a; };"), DRV_STAGE_GEOMETRY,
		       NULL));
	CHECK(!compiles(gs_with("", "layout(stream = 2) out;\nout B { layout(stream = 0) vec4 a; };"),
			DRV_STAGE_GEOMETRY, "differs from its block's stream 2"));
}

static void test_compile_block_xfb_offset_alignment(void)
{
	static const char head[] = "#version 150\n#extension GL_ARB_enhanced_layouts : require\n"
				   "#extension GL_ARB_gpu_shader_fp64 : require\n";
	char src[512];

	snprintf(src, sizeof src, "%slayout(xfb_offset = 2) out B { vec4 v; };\nvoid main() {}\n", head);
	CHECK(!compiles(src, DRV_STAGE_VERTEX, "xfb_offset 2 of the block is not a multiple of 4"));
	snprintf(src, sizeof src, "%slayout(xfb_offset = 4) out B { vec4 v; };\nvoid main() {}\n", head);
	CHECK(compiles(src, DRV_STAGE_VERTEX, NULL));
	snprintf(src, sizeof src, "%slayout(xfb_offset = 4) out B { vec4 v; dvec3 d; };\nvoid main() {}\n", head);
	CHECK(!compiles(src, DRV_STAGE_VERTEX, "not a multiple of 8 (the block holds doubles)"));
	snprintf(src, sizeof src, "%slayout(xfb_offset = 8) out B { vec4 v; dvec3 d; };\nvoid main() {}\n", head);
	CHECK(compiles(src, DRV_STAGE_VERTEX, NULL));
}

static void test_compile_lone_geometry_shader_goes_through_glslang(void)
{
	CHECK(!compiles(gs_with("", "out vec4 v;\nvoid f() { undeclared_thing = 1; }"), DRV_STAGE_GEOMETRY,
			"undeclared_thing"));
	CHECK(compiles(gs_with("", "out vec4 v;"), DRV_STAGE_GEOMETRY, NULL));
}

int main(void)
{
	XT_RUN(test_translate_glsl_110_vertex_compat);
	XT_RUN(test_translate_es_100_fragment);
	XT_RUN(test_translate_renames_new_keywords_and_reports_them);
	XT_RUN(test_translate_doubles_pick_glsl_410);
	XT_RUN(test_translate_refuses_fixed_function_lighting_by_name);
	XT_RUN(test_translated_legacy_shaders_compile_in_glslang);
	XT_RUN(test_compile_line_continuations_in_every_version_keep_line_numbers);
	XT_RUN(test_compile_xfb_limits_are_constants_from_glsl_140);
	XT_RUN(test_compile_extensions_glslang_lacks_raise_the_version);
	XT_RUN(test_compile_arb_compatibility_brings_compatibility_built_ins);
	XT_RUN(test_compile_separate_shader_objects_before_glsl_410);
	XT_RUN(test_compile_atomic_counter_bindings_before_glsl_420);
	XT_RUN(test_compile_duplicate_layout_qualifiers_need_enhanced_layouts);
	XT_RUN(test_compile_several_layouts_in_one_declaration_need_420pack);
	XT_RUN(test_compile_stream_values_and_uses);
	XT_RUN(test_compile_block_members_keep_the_block_stream);
	XT_RUN(test_compile_block_xfb_offset_alignment);
	XT_RUN(test_compile_lone_geometry_shader_goes_through_glslang);
	XT_TEST_MAIN_END();
}
