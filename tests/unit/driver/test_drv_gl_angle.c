/*
 * test_drv_gl_angle.c - what the sim driver does for the calls ANGLE's GL
 * back end makes under Chromium (tests/integration/test_chromium.py), through
 * its GL entry points: glProgramUniform* into a program that is not
 * current, and the double forms of glUniform* (drv_gl_uniform.c), sampler uniforms and gl_VertexID as active
 * resources (driver/compiler/drv_program_tables.c), and the
 * rasterization-only state of drv_gl_raster.c with the errors the spec
 * gives.
 */

#include <stdio.h>
#include <string.h>

#include "drv_gl_test.h"
#include "xt_test.h"

static const char *const vs_src =
	"#version 330 core\n"
	"uniform vec4 u_scale;\n"
	"uniform mat3 u_m;\n"
	"uniform ivec2 u_i;\n"
	"out vec4 v;\n"
	"void main() {\n"
	"	v = u_scale * float(gl_VertexID) + vec4(u_m[2], float(u_i.y));\n"
	"	gl_Position = v;\n"
	"}\n";

/* Samplers as a compositor uses them: in the fragment shader. */
static const char *const fs_src =
	"#version 330 core\n"
	"uniform sampler2D u_tex;\n"
	"uniform isampler2DArray u_tex_arr[2];\n"
	"in vec4 v;\n"
	"out vec4 o;\n"
	"void main() {\n"
	"	o = texture(u_tex, v.xy) + vec4(texture(u_tex_arr[1], v.xyz));\n"
	"}\n";

/* vs_src and fs_src, linked; 0 when they do not link. */
static GLuint program(void)
{
	GLuint p = GL(glCreateProgram)();
	GLint ok = 0;
	GL(glAttachShader)(p, dgl_shader(GL_VERTEX_SHADER, vs_src));
	GL(glAttachShader)(p, dgl_shader(GL_FRAGMENT_SHADER, fs_src));
	GL(glLinkProgram)(p);
	GL(glGetProgramiv)(p, GL_LINK_STATUS, &ok);
	return ok ? p : 0;
}

static GLint location(GLuint p, const char *name)
{
	return GL(glGetUniformLocation)(p, name);
}

static void test_program_uniforms_reach_a_program_that_is_not_current(void)
{
	struct drv_context *ctx = dgl_context(4, 1, true);
	GLuint p, other;
	GLfloat f[9] = { 0 }, m[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	GLint iv[2] = { 0 };

	CHECK(ctx);
	if (!ctx)
		return;
	p = program();
	other = program();
	CHECK(p && other);
	GL(glUseProgram)(other);
	GL(glProgramUniform4f)(p, location(p, "u_scale"), 1.5f, 2.5f, 3.5f, 4.5f);
	GL(glProgramUniformMatrix3fv)(p, location(p, "u_m"), 1, GL_TRUE, m);
	GL(glProgramUniform2i)(p, location(p, "u_i"), 7, -8);
	GL(glGetUniformfv)(p, location(p, "u_scale"), f);
	CHECK(f[0] == 1.5f && f[3] == 4.5f);
	GL(glGetUniformfv)(p, location(p, "u_m"), f);
	/* transposed: column 0 of the matrix is row 0 of m */
	CHECK(f[0] == 1 && f[1] == 4 && f[2] == 7 && f[8] == 9);
	GL(glGetUniformiv)(p, location(p, "u_i"), iv);
	CHECK_EQ_INT(iv[1], -8);
	/* the current program kept its own values */
	GL(glGetUniformfv)(other, location(other, "u_scale"), f);
	CHECK(f[0] == 0.0f);
	/* the spec's errors: no such program, a shader, a wrong type */
	GL(glProgramUniform1f)(12345, 0, 1.0f);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);
	GLuint sh = dgl_shader(GL_VERTEX_SHADER, vs_src);
	GL(glProgramUniform1f)(sh, 0, 1.0f);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glProgramUniform1i)(p, location(p, "u_scale"), 1);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	dgl_done_clean(ctx);
}

static void test_double_uniforms_take_the_double_forms(void)
{
	static const char *vs =
		"#version 400\n"
		"uniform dvec3 dv;\n"
		"uniform dmat2 dm;\n"
		"out float o;\n"
		"void main() { o = float(dv.x + dv.z + dm[1][0]); gl_Position = vec4(0.0); }\n";
	static const char *varyings[] = { "o" };
	static const GLdouble m[4] = { 4.0, 5.0, 6.0, 7.0 };
	struct drv_context *ctx = dgl_context(4, 1, true);
	float f[4] = { -1, -1, -1, -1 };

	CHECK(ctx);
	if (!ctx)
		return;
	GLuint p = dgl_program(vs, NULL, varyings, 1);
	CHECK(p != 0);
	GL(glProgramUniform3d)(p, location(p, "dv"), 1.5, -2.0, 3.25);
	GL(glUseProgram)(p);
	GL(glUniformMatrix2dv)(location(p, "dm"), 1, GL_TRUE, m);
	GL(glGetUniformfv)(p, location(p, "dv"), f);
	CHECK(f[0] == 1.5f && f[1] == -2.0f && f[2] == 3.25f);
	GL(glGetUniformfv)(p, location(p, "dm"), f);
	CHECK(f[0] == 4.0f && f[1] == 6.0f && f[2] == 5.0f && f[3] == 7.0f);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	GL(glUniform1d)(location(p, "dm"), 1.0);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	dgl_done_clean(ctx);
}

static void test_samplers_and_gl_vertex_id_are_active_resources(void)
{
	struct drv_context *ctx = dgl_context(4, 1, true);
	GLuint p;
	GLint n = 0, unit = -1, size = 0;
	GLenum type = 0;
	char name[64];
	bool seen_tex = false, seen_arr = false, seen_vid = false;

	CHECK(ctx);
	if (!ctx)
		return;
	p = program();
	CHECK(p);
	GL(glGetProgramiv)(p, GL_ACTIVE_UNIFORMS, &n);
	CHECK_EQ_INT(n, 5);
	for (GLint i = 0; i < n; i++) {
		GL(glGetActiveUniform)(p, (GLuint)i, sizeof name, NULL, &size, &type, name);
		if (!strcmp(name, "u_tex"))
			seen_tex = type == GL_SAMPLER_2D && size == 1;
		if (!strcmp(name, "u_tex_arr[0]"))
			seen_arr = type == GL_INT_SAMPLER_2D_ARRAY && size == 2;
	}
	CHECK(seen_tex);
	CHECK(seen_arr);
	/* a texture unit glUniform1i sets and glGetUniformiv reads back */
	GL(glUseProgram)(p);
	GL(glUniform1i)(location(p, "u_tex_arr[1]"), 5);
	GL(glGetUniformiv)(p, location(p, "u_tex_arr[1]"), &unit);
	CHECK_EQ_INT(unit, 5);
	GL(glUniform1f)(location(p, "u_tex"), 1.0f);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glGetProgramiv)(p, GL_ACTIVE_ATTRIBUTES, &n);
	CHECK_EQ_INT(n, 1);
	GL(glGetActiveAttrib)(p, 0, sizeof name, NULL, &size, &type, name);
	seen_vid = !strcmp(name, "gl_VertexID") && type == GL_INT;
	CHECK(seen_vid);
	CHECK_EQ_INT(GL(glGetAttribLocation)(p, "gl_VertexID"), -1);
	dgl_done_clean(ctx);
}

static void test_raster_state_checks_its_arguments(void)
{
	struct drv_context *ctx = dgl_context(4, 1, true);
	GLuint s[2] = { 0 };

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glStencilFuncSeparate)(GL_FRONT, GL_LEQUAL, 1, 0xff);
	GL(glStencilOpSeparate)(GL_BACK, GL_KEEP, GL_INCR_WRAP, GL_REPLACE);
	GL(glStencilMaskSeparate)(GL_FRONT_AND_BACK, 0x0f);
	GL(glDepthRangef)(0.25f, 0.75f);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	GL(glStencilFuncSeparate)(GL_FRONT, GL_KEEP, 1, 0xff);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);
	GL(glStencilOpSeparate)(GL_LEFT, GL_KEEP, GL_KEEP, GL_KEEP);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);

	GL(glGenSamplers)(2, s);
	CHECK(s[0] && s[1] && s[0] != s[1]);
	CHECK(GL(glIsSampler)(s[0]));
	GL(glSamplerParameteri)(s[0], GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glBindSampler)(3, s[0]);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	GL(glSamplerParameteri)(s[0], GL_TEXTURE_BASE_LEVEL, 0);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);
	GL(glDeleteSamplers)(1, &s[1]);
	CHECK(!GL(glIsSampler)(s[1]));
	GL(glBindSampler)(0, s[1]);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glSamplerParameterf)(s[1], GL_TEXTURE_MAX_LOD, 4.0f);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glBindSampler)(100000, s[0]);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);

	GLuint rb = 0;
	GL(glGenRenderbuffers)(1, &rb);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb);
	GL(glRenderbufferStorageMultisample)(GL_RENDERBUFFER, 4, GL_RGBA8, 16, 16);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	GL(glRenderbufferStorageMultisample)(GL_RENDERBUFFER, 64, GL_RGBA8, 16, 16);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	CHECK_EQ_INT(GL(glGetGraphicsResetStatus)(), GL_NO_ERROR);
	dgl_done_clean(ctx);
}

static void test_cull_distance_limits_exist_on_gl_only(void)
{
	struct drv_context *ctx = dgl_context(4, 5, true);
	struct drv_context_desc es = { .major = 3, .minor = 2, .gles = true };
	struct drv_context *ectx = NULL;
	struct xt_err err = { 0 };
	GLint v = -1;

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glGetIntegerv)(GL_MAX_CULL_DISTANCES, &v);
	CHECK_EQ_INT(v, 8);
	dgl_done_clean(ctx);
	CHECK(drv_context_create(dgl_screen, &es, &ectx, &err) == XT_OK);
	if (!ectx)
		return;
	drv_context_make_current(ectx);
	v = -1;
	GL(glGetIntegerv)(GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES, &v);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);
	CHECK_EQ_INT(v, -1);
	dgl_done_clean(ectx);
}

int main(void)
{
	struct xt_err err = { 0 };
	if (dgl_screen_create(&err) != XT_OK) {
		fprintf(stderr, "dgl_screen_create: %s\n", xt_err_msg(&err));
		return 1;
	}
	XT_RUN(test_program_uniforms_reach_a_program_that_is_not_current);
	XT_RUN(test_double_uniforms_take_the_double_forms);
	XT_RUN(test_samplers_and_gl_vertex_id_are_active_resources);
	XT_RUN(test_raster_state_checks_its_arguments);
	XT_RUN(test_cull_distance_limits_exist_on_gl_only);
	dgl_screen_destroy();
	XT_TEST_MAIN_END();
}
