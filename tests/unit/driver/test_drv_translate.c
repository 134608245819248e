/*
 * test_drv_translate.c - the GLSL translator on its own: #version mapping,
 * attribute / varying by stage, texture2D, gl_FragColor, compatibility
 * built-ins with the reported mapping, ftransform(), renamed keywords,
 * extension handling, line numbers kept, and the constructs it refuses by
 * name.  Each case also goes through glslang (via drv_program_create) so the
 * output is known to be accepted.
 */
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
	for (unsigned i = 0; i < t.n_maps; i++)
		if (!strcmp(t.maps[i].glsl_name, "gl_TexCoord"))
			CHECK_EQ_INT(t.maps[i].kind, DRV_BUILTIN_OUTPUT);
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

int main(void)
{
	XT_RUN(test_translate_glsl_110_vertex_compat);
	XT_RUN(test_translate_es_100_fragment);
	XT_RUN(test_translate_renames_new_keywords_and_reports_them);
	XT_RUN(test_translate_doubles_pick_glsl_410);
	XT_RUN(test_translate_refuses_fixed_function_lighting_by_name);
	XT_RUN(test_translated_legacy_shaders_compile_in_glslang);
	XT_TEST_MAIN_END();
}
