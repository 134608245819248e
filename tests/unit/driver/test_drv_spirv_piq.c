/*
 * test_drv_spirv_piq.c - the sim driver's ARB_gl_spirv path and program
 * interface queries through its GL entry points, on a real screen
 * (gpu_model): a SPIR-V module from the application (glShaderBinary +
 * glSpecializeShader) runs with its specialization constant and captures
 * by its Xfb decorations; the extension's errors; the TF buffer and
 * varying resources of an xfb_offset program (drv_gl_resource.c); and
 * drv_spirv_specialize on its own.
 */
#include <stdlib.h>
#include <string.h>

#include "drv_gl_test.h"
#include "drv_spirv_input.h"
#include "xt_test.h"


/*
 * A vertex shader, hand-assembled (spirv-dis reads it as):
 *
 *   OpCapability Shader
 *   OpCapability TransformFeedback
 *   OpMemoryModel Logical GLSL450
 *   OpEntryPoint Fragment %7 "frag"
 *   OpEntryPoint Vertex %7 "main" %5
 *   OpExecutionMode %7 Xfb
 *   OpDecorate %5 Location 0
 *   OpDecorate %5 XfbBuffer 1
 *   OpDecorate %5 XfbStride 8
 *   OpDecorate %5 Offset 4
 *   OpDecorate %6 SpecId 3
 *   %1 = OpTypeVoid
 *   %2 = OpTypeFunction %1
 *   %3 = OpTypeFloat 32
 *   %4 = OpTypePointer Output %3
 *   %5 = OpVariable %4 Output
 *   %6 = OpSpecConstant %3 1.0
 *   %7 = OpFunction %1 None %2
 *   %8 = OpLabel
 *        OpStore %5 %6
 *        OpReturn
 *        OpFunctionEnd
 */
#define OP(n, op) ((uint32_t)(n) << 16 | (op))
static const uint32_t module[] = {
	0x07230203, 0x00010000, 0, 9, 0,
	OP(2, 17), 1,
	OP(2, 17), 53,
	OP(3, 14), 0, 1,
	OP(5, 15), 4, 7, 0x67617266, 0,
	OP(6, 15), 0, 7, 0x6e69616d, 0, 5,
	OP(3, 16), 7, 11,
	OP(4, 71), 5, 30, 0,
	OP(4, 71), 5, 36, 1,
	OP(4, 71), 5, 37, 8,
	OP(4, 71), 5, 35, 4,
	OP(4, 71), 6, 1, 3,
	OP(2, 19), 1,
	OP(3, 33), 2, 1,
	OP(3, 22), 3, 32,
	OP(4, 32), 4, 3, 3,
	OP(4, 59), 4, 5, 3,
	OP(4, 50), 3, 6, 0x3f800000,
	OP(5, 54), 1, 7, 0, 2,
	OP(2, 248), 8,
	OP(3, 62), 5, 6,
	OP(1, 253),
	OP(1, 56),
};

static GLenum error(void)
{
	return GL(glGetError)();
}

static GLuint spirv_shader(const uint32_t *words, size_t n_words)
{
	GLuint sh = GL(glCreateShader)(GL_VERTEX_SHADER);
	GL(glShaderBinary)(1, &sh, GL_SHADER_BINARY_FORMAT_SPIR_V, words,
					 (GLsizei)(n_words * 4));
	return sh;
}

static GLuint link(GLuint sh)
{
	GLuint prog = GL(glCreateProgram)();
	GL(glAttachShader)(prog, sh);
	GL(glLinkProgram)(prog);
	return prog;
}

static GLint program_iv(GLuint prog, GLenum pname)
{
	GLint v = -1;
	GL(glGetProgramiv)(prog, pname, &v);
	return v;
}

static GLint shader_iv(GLuint sh, GLenum pname)
{
	GLint v = -1;
	GL(glGetShaderiv)(sh, pname, &v);
	return v;
}

/* Draws one point with TF into a zero-filled 16-byte buffer at binding 1
 * and reads it back into out[4]. */
static void capture_one_point(GLuint prog, float out[4])
{
	static const float zeros[4];
	GLuint vao = 0, buf = 0;

	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenBuffers)(1, &buf);
	GL(glBindBuffer)(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
	GL(glBufferData)(GL_TRANSFORM_FEEDBACK_BUFFER, sizeof zeros, zeros, GL_STREAM_READ);
	GL(glBindBufferBase)(GL_TRANSFORM_FEEDBACK_BUFFER, 1, buf);
	GL(glUseProgram)(prog);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glBeginTransformFeedback)(GL_POINTS);
	GL(glDrawArrays)(GL_POINTS, 0, 1);
	GL(glEndTransformFeedback)();
	GL(glGetBufferSubData)(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 16, out);
}

static void test_spirv_shader_captures_its_specialization_constant_by_its_xfb_decorations(void)
{
	struct drv_context *ctx = dgl_context(4, 5, true);
	const GLuint id = 3, value = 0x40200000; /* 2.5f */
	GLuint sh, prog;
	GLint stride = -1, n = -1;
	const GLenum prop = GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE;
	char name[8] = "x";
	float out[4] = { -1, -1, -1, -1 };

	CHECK(ctx);
	if (!ctx)
		return;
	sh = spirv_shader(module, sizeof module / 4);
	CHECK_EQ_INT(shader_iv(sh, GL_SPIR_V_BINARY), 1);
	CHECK_EQ_INT(shader_iv(sh, GL_COMPILE_STATUS), 0);
	PROC(PFNGLSPECIALIZESHADERPROC, "glSpecializeShaderARB")(sh, "main", 1, &id, &value);
	CHECK_EQ_INT(error(), GL_NO_ERROR);
	CHECK_EQ_INT(shader_iv(sh, GL_COMPILE_STATUS), 1);
	prog = link(sh);
	CHECK_EQ_INT(program_iv(prog, GL_LINK_STATUS), 1);
	CHECK_EQ_INT(program_iv(prog, GL_TRANSFORM_FEEDBACK_VARYINGS), 1);
	/* names are not part of a SPIR-V program's interface */
	GL(glGetTransformFeedbackVarying)(prog, 0, sizeof name, NULL,
								       NULL, NULL, name);
	CHECK_EQ_STR(name, "");
	GL(glGetProgramInterfaceiv)(prog, GL_TRANSFORM_FEEDBACK_BUFFER,
							    GL_ACTIVE_RESOURCES, &n);
	CHECK_EQ_INT(n, 1);
	GL(glGetProgramResourceiv)(prog, GL_TRANSFORM_FEEDBACK_BUFFER, 0, 1,
							  &prop, 1, NULL, &stride);
	CHECK_EQ_INT(stride, 8);
	capture_one_point(prog, out);
	CHECK(out[0] == 0.0f && out[1] == 2.5f && out[2] == 0.0f && out[3] == 0.0f);
	CHECK_EQ_INT(error(), GL_NO_ERROR);
	CHECK(!drv_context_take_unsupported(ctx));
	dgl_done(ctx);
}

static void test_spirv_shader_calls_raise_the_extension_errors(void)
{
	struct drv_context *ctx = dgl_context(4, 5, true);
	PFNGLSPECIALIZESHADERPROC specialize = PROC(PFNGLSPECIALIZESHADERPROC, "glSpecializeShaderARB");
	const GLuint bad_id = 9, value = 0;
	uint32_t broken[sizeof module / 4];
	GLuint sh, glsl, prog;

	CHECK(ctx);
	if (!ctx)
		return;
	sh = spirv_shader(module, sizeof module / 4);
	GL(glCompileShader)(sh);
	CHECK_EQ_INT(error(), GL_INVALID_OPERATION);
	specialize(sh, "nope", 0, NULL, NULL);
	CHECK_EQ_INT(error(), GL_INVALID_VALUE);
	specialize(sh, "frag", 0, NULL, NULL);           /* a fragment entry point */
	CHECK_EQ_INT(error(), GL_INVALID_OPERATION);
	specialize(sh, "main", 1, &bad_id, &value);      /* no SpecId 9 */
	CHECK_EQ_INT(error(), GL_INVALID_VALUE);
	CHECK_EQ_INT(shader_iv(sh, GL_COMPILE_STATUS), 0);
	/* not specialized: the link fails */
	prog = link(sh);
	CHECK_EQ_INT(error(), GL_NO_ERROR);
	CHECK_EQ_INT(program_iv(prog, GL_LINK_STATUS), 0);
	specialize(sh, "main", 0, NULL, NULL);
	CHECK_EQ_INT(error(), GL_NO_ERROR);
	specialize(sh, "main", 0, NULL, NULL);           /* already specialized */
	CHECK_EQ_INT(error(), GL_INVALID_OPERATION);
	/* a GLSL shader is not specialized */
	glsl = GL(glCreateShader)(GL_VERTEX_SHADER);
	specialize(glsl, "main", 0, NULL, NULL);
	CHECK_EQ_INT(error(), GL_INVALID_OPERATION);
	CHECK_EQ_INT(shader_iv(glsl, GL_SPIR_V_BINARY), 0);
	/* not SPIR-V, and not whole words */
	memcpy(broken, module, sizeof broken);
	broken[0] = 0x12345678;
	GL(glShaderBinary)(1, &glsl, GL_SHADER_BINARY_FORMAT_SPIR_V, broken, sizeof broken);
	CHECK_EQ_INT(error(), GL_INVALID_VALUE);
	GL(glShaderBinary)(1, &glsl, GL_SHADER_BINARY_FORMAT_SPIR_V, module, 22);
	CHECK_EQ_INT(error(), GL_INVALID_VALUE);
	CHECK_EQ_INT(shader_iv(glsl, GL_SPIR_V_BINARY), 0);
	/* glShaderSource makes it a GLSL shader again */
	GL(glShaderSource)(sh, 1, (const char *const[]){ "void main() {}" }, NULL);
	CHECK_EQ_INT(shader_iv(sh, GL_SPIR_V_BINARY), 0);
	CHECK(!drv_context_take_unsupported(ctx));
	dgl_done(ctx);
}

static const char xfb_vs[] =
	"#version 150\n"
	"#extension GL_ARB_enhanced_layouts: require\n"
	"layout(xfb_buffer = 1, xfb_stride = 32) out;\n"
	"layout(xfb_offset = 0) out float a;\n"
	"layout(xfb_offset = 8) out vec2 b[2];\n"
	"layout(xfb_offset = 4, xfb_buffer = 3) out float c;\n"
	"void main() { gl_Position = vec4(0.0); a = 1.0; b[0] = vec2(2.0); b[1] = vec2(3.0); c = 4.0; }\n";

static void test_program_interface_reports_tf_buffers_varyings_and_strides(void)
{
	struct drv_context *ctx = dgl_context(4, 5, true);
	static const GLenum bprops[4] = { GL_BUFFER_BINDING, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE,
					  GL_NUM_ACTIVE_VARIABLES, GL_ACTIVE_VARIABLES };
	static const GLenum vprops[5] = { GL_NAME_LENGTH, GL_TYPE, GL_ARRAY_SIZE, GL_OFFSET,
					  GL_TRANSFORM_FEEDBACK_BUFFER_INDEX };
	PFNGLGETPROGRAMRESOURCEIVPROC res = GL(glGetProgramResourceiv);
	PFNGLGETPROGRAMINTERFACEIVPROC iface = GL(glGetProgramInterfaceiv);
	GLint v[8], n = -1;
	GLsizei len = -1;
	GLuint sh, prog;
	char name[16];

	CHECK(ctx);
	if (!ctx)
		return;
	sh = GL(glCreateShader)(GL_VERTEX_SHADER);
	GL(glShaderSource)(sh, 1, (const char *const[]){ xfb_vs }, NULL);
	GL(glCompileShader)(sh);
	prog = link(sh);
	CHECK_EQ_INT(program_iv(prog, GL_LINK_STATUS), 1);
	iface(prog, GL_TRANSFORM_FEEDBACK_BUFFER, GL_ACTIVE_RESOURCES, &n);
	CHECK_EQ_INT(n, 2);
	iface(prog, GL_TRANSFORM_FEEDBACK_BUFFER, GL_MAX_NUM_ACTIVE_VARIABLES, &n);
	CHECK_EQ_INT(n, 2);
	iface(prog, GL_TRANSFORM_FEEDBACK_VARYING, GL_MAX_NAME_LENGTH, &n);
	CHECK_EQ_INT(n, 2);   /* "a", "b" (the whole array, as GL names it), "c" with a NUL */
	/* buffer resources in binding order: 1 (a, b), 3 (c) */
	memset(v, -1, sizeof v);
	res(prog, GL_TRANSFORM_FEEDBACK_BUFFER, 0, 4, bprops, 8, &len, v);
	CHECK_EQ_INT(len, 5);
	CHECK(v[0] == 1 && v[1] == 32 && v[2] == 2 && v[3] == 0 && v[4] == 1);
	res(prog, GL_TRANSFORM_FEEDBACK_BUFFER, 1, 2, bprops, 8, &len, v);
	CHECK(len == 2 && v[0] == 3 && v[1] == 8);
	/* count limits what is written */
	res(prog, GL_TRANSFORM_FEEDBACK_BUFFER, 0, 4, bprops, 3, &len, v);
	CHECK_EQ_INT(len, 3);
	/* varyings */
	res(prog, GL_TRANSFORM_FEEDBACK_VARYING, 1, 5, vprops, 8, &len, v);
	CHECK(len == 5 && v[1] == GL_FLOAT_VEC2 && v[2] == 2 && v[3] == 8 && v[4] == 0);
	GL(glGetProgramResourceName)(prog, GL_TRANSFORM_FEEDBACK_VARYING, 1,
								sizeof name, &len, name);
	CHECK_EQ_INT(len, v[0] - 1);
	res(prog, GL_TRANSFORM_FEEDBACK_VARYING, 2, 5, vprops, 8, &len, v);
	CHECK(v[1] == GL_FLOAT && v[3] == 4 && v[4] == 1);
	CHECK_EQ_INT(GL(glGetProgramResourceIndex)(
			     prog, GL_TRANSFORM_FEEDBACK_VARYING, "c"), 2);
	CHECK_EQ_INT(error(), GL_NO_ERROR);
	/* the errors of 7.3.1.1 */
	GL(glGetProgramResourceName)(prog, GL_TRANSFORM_FEEDBACK_BUFFER, 0,
								sizeof name, &len, name);
	CHECK_EQ_INT(error(), GL_INVALID_ENUM);
	res(prog, GL_TRANSFORM_FEEDBACK_BUFFER, 0, 1, &vprops[1], 8, &len, v);  /* GL_TYPE */
	CHECK_EQ_INT(error(), GL_INVALID_OPERATION);
	res(prog, GL_TRANSFORM_FEEDBACK_BUFFER, 2, 1, bprops, 8, &len, v);
	CHECK_EQ_INT(error(), GL_INVALID_VALUE);
	iface(prog, GL_TRANSFORM_FEEDBACK_VARYING, GL_MAX_NUM_ACTIVE_VARIABLES, &n);
	CHECK_EQ_INT(error(), GL_INVALID_OPERATION);
	iface(prog, GL_BUFFER_BINDING, GL_ACTIVE_RESOURCES, &n);
	CHECK_EQ_INT(error(), GL_INVALID_ENUM);
	CHECK(!drv_context_take_unsupported(ctx));
	/* an interface the compiler keeps no table of is reported, not answered */
	iface(prog, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &n);
	CHECK(drv_context_take_unsupported(ctx) != NULL);
	dgl_done(ctx);
}

/* A buffer that only gl_SkipComponentsN writes is a TF buffer resource
 * with its stride (Mesa's rule); one that gl_NextBuffer only passes is not. */
static void test_skip_only_buffer_is_a_resource_next_buffer_only_is_not(void)
{
	struct drv_context *ctx = dgl_context(4, 5, true);
	static const char vs[] = "#version 150\nout float a;\nvoid main() { gl_Position = vec4(0.0); a = 1.0; }\n";
	const char *names[5] = { "a", "gl_NextBuffer", "gl_SkipComponents1", "gl_NextBuffer", "gl_NextBuffer" };
	static const GLenum props[2] = { GL_BUFFER_BINDING, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE };
	GLint n = -1, v[2] = { -1, -1 };
	GLuint sh, prog;

	CHECK(ctx);
	if (!ctx)
		return;
	sh = GL(glCreateShader)(GL_VERTEX_SHADER);
	GL(glShaderSource)(sh, 1, (const char *const[]){ vs }, NULL);
	GL(glCompileShader)(sh);
	prog = GL(glCreateProgram)();
	GL(glAttachShader)(prog, sh);
	GL(glTransformFeedbackVaryings)(prog, 5, names, GL_INTERLEAVED_ATTRIBS);
	GL(glLinkProgram)(prog);
	CHECK_EQ_INT(program_iv(prog, GL_LINK_STATUS), 1);
	GL(glGetProgramInterfaceiv)(prog, GL_TRANSFORM_FEEDBACK_BUFFER,
							    GL_ACTIVE_RESOURCES, &n);
	CHECK_EQ_INT(n, 2);   /* buffers 0 and 1; 2 and 3 only see gl_NextBuffer */
	GL(glGetProgramResourceiv)(prog, GL_TRANSFORM_FEEDBACK_BUFFER, 1, 2,
							  props, 2, NULL, v);
	CHECK(v[0] == 1 && v[1] == 4);
	CHECK_EQ_INT(error(), GL_NO_ERROR);
	CHECK(!drv_context_take_unsupported(ctx));
	dgl_done(ctx);
}

/* glGetProgramBinary / glProgramBinary: the sim's own binary links the
 * same program again (its TF varyings and captured data); a damaged one
 * fails the link, a foreign one is also reported as not modelled. */
static void test_program_binary_round_trips_and_rejects_damage(void)
{
	struct drv_context *ctx = dgl_context(4, 5, true);
	static const char vs[] = "#version 150\nout vec4 xfb1;\nout vec4 xfb2;\n"
				 "void main() { gl_Position = vec4(0.0); xfb1 = vec4(1.0); xfb2 = vec4(0.0, 0.5, 0.0, 2.0); }\n";
	const char *names[2] = { "xfb1", "xfb2" };
	GLint len = -1, formats = -1, format = -1;
	GLsizei got = -1;
	GLenum fmt = 0;
	GLuint sh, prog, again;
	uint8_t bin[8192];
	char name[8] = "";
	float out[4] = { -1, -1, -1, -1 };

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glGetIntegerv)(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
	GL(glGetIntegerv)(GL_PROGRAM_BINARY_FORMATS, &format);
	CHECK(formats == 1 && format == 0x875F);
	sh = GL(glCreateShader)(GL_VERTEX_SHADER);
	GL(glShaderSource)(sh, 1, (const char *const[]){ vs }, NULL);
	GL(glCompileShader)(sh);
	prog = GL(glCreateProgram)();
	GL(glAttachShader)(prog, sh);
	GL(glTransformFeedbackVaryings)(prog, 2, names, GL_SEPARATE_ATTRIBS);
	GL(glLinkProgram)(prog);
	len = program_iv(prog, GL_PROGRAM_BINARY_LENGTH);
	CHECK(len > 0 && len <= (GLint)sizeof bin);
	if (len <= 0 || len > (GLint)sizeof bin)
		return;
	GL(glGetProgramBinary)(prog, len - 1, &got, &fmt, bin);
	CHECK_EQ_INT(error(), GL_INVALID_OPERATION);
	GL(glGetProgramBinary)(prog, sizeof bin, &got, &fmt, bin);
	CHECK(got == len && fmt == 0x875F);
	GL(glDeleteProgram)(prog);

	again = GL(glCreateProgram)();
	GL(glProgramBinary)(again, fmt, bin, got);
	CHECK_EQ_INT(error(), GL_NO_ERROR);
	CHECK_EQ_INT(program_iv(again, GL_LINK_STATUS), 1);
	CHECK_EQ_INT(program_iv(again, GL_TRANSFORM_FEEDBACK_BUFFER_MODE), GL_SEPARATE_ATTRIBS);
	CHECK_EQ_INT(program_iv(again, GL_TRANSFORM_FEEDBACK_VARYINGS), 2);
	GL(glGetTransformFeedbackVarying)(again, 1, sizeof name, NULL,
								       NULL, NULL, name);
	CHECK_EQ_STR(name, "xfb2");
	CHECK(!drv_context_take_unsupported(ctx));
	/* separate mode: buffer 1 holds xfb2 */
	{
		GLuint vao = 0, b[2] = { 0, 0 };
		GL(glGenVertexArrays)(1, &vao);
		GL(glBindVertexArray)(vao);
		GL(glGenBuffers)(2, b);
		for (int i = 0; i < 2; i++) {
			GL(glBindBuffer)(GL_TRANSFORM_FEEDBACK_BUFFER, b[i]);
			GL(glBufferData)(GL_TRANSFORM_FEEDBACK_BUFFER, 16, NULL, GL_STREAM_READ);
			GL(glBindBufferBase)(GL_TRANSFORM_FEEDBACK_BUFFER, (GLuint)i, b[i]);
		}
		GL(glUseProgram)(again);
		GL(glEnable)(GL_RASTERIZER_DISCARD);
		GL(glBeginTransformFeedback)(GL_POINTS);
		GL(glDrawArrays)(GL_POINTS, 0, 1);
		GL(glEndTransformFeedback)();
		GL(glUseProgram)(0);
		GL(glGetBufferSubData)(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 16, out);
		CHECK(out[0] == 0.0f && out[1] == 0.5f && out[2] == 0.0f && out[3] == 2.0f);
	}
	/* damaged: a record length past the end */
	bin[32] ^= 0x40;
	GL(glProgramBinary)(again, fmt, bin, got);
	CHECK_EQ_INT(error(), GL_NO_ERROR);
	CHECK_EQ_INT(program_iv(again, GL_LINK_STATUS), 0);
	CHECK(!drv_context_take_unsupported(ctx));
	/* truncated */
	bin[32] ^= 0x40;
	GL(glProgramBinary)(again, fmt, bin, got - 4);
	CHECK_EQ_INT(program_iv(again, GL_LINK_STATUS), 0);
	/* another driver's binary */
	memset(bin, 0xA5, 64);
	GL(glProgramBinary)(again, fmt, bin, 64);
	CHECK_EQ_INT(program_iv(again, GL_LINK_STATUS), 0);
	CHECK(drv_context_take_unsupported(ctx) != NULL);
	GL(glProgramBinary)(again, GL_NONE, bin, 64);
	CHECK_EQ_INT(error(), GL_INVALID_ENUM);
	dgl_done(ctx);
}

/* After isinf-and-isnan's vs_xfb program: main, do_test and compute_value
 * in three vertex shader objects, compatibility built-ins in the first. */
static const char *const units[3] = {
	"#version 130\nflat out vec4 data;\nvec4 do_test();\nvoid main()\n{\n  gl_Position = gl_Vertex;\n  data = do_test();\n}\n",
	/* an early return: glslang's merge-return leaves a default-only OpSwitch */
	"#version 130\nuniform float ref;\nfloat compute_value();\nvec4 do_test()\n{\n  if (ref < 0.0)\n    return vec4(-1.0);\n  return vec4(compute_value() - ref, 0.0, 0.0, 1.0);\n}\n",
	/* a uniform initializer: its value until glUniform changes it */
	"#version 130\nuniform float scale = 2.0;\nfloat compute_value() {\n  return 1000.0 * scale;\n}\n",
};

static void test_several_shader_objects_of_one_stage_link_into_one_program(void)
{
	struct drv_context_desc cd = { .major = 2, .minor = 1 };
	struct drv_context *ctx = NULL;
	struct xt_err err = { 0 };
	static const float pos[4] = { 0, 0, 0, 1 };
	const char *name = "data";
	GLuint prog, buf = 0;
	float out[4] = { -1, -1, -1, -1 };
	char log[512] = "";

	if (drv_context_create(dgl_screen, &cd, &ctx, &err) != XT_OK) {
		CHECK(!"context");
		return;
	}
	drv_context_make_current(ctx);
	prog = GL(glCreateProgram)();
	for (int i = 0; i < 3; i++) {
		GLuint sh = GL(glCreateShader)(GL_VERTEX_SHADER);
		GL(glShaderSource)(sh, 1, &units[i], NULL);
		GL(glCompileShader)(sh);
		CHECK_EQ_INT(shader_iv(sh, GL_COMPILE_STATUS), 1);
		GL(glAttachShader)(prog, sh);
	}
	GL(glTransformFeedbackVaryings)(prog, 1, &name, GL_SEPARATE_ATTRIBS);
	GL(glLinkProgram)(prog);
	GL(glGetProgramInfoLog)(prog, sizeof log, NULL, log);
	if (program_iv(prog, GL_LINK_STATUS) != 1)
		fprintf(stderr, "link log: %s\n", log);
	CHECK_EQ_INT(program_iv(prog, GL_LINK_STATUS), 1);
	CHECK(!drv_context_take_unsupported(ctx));
	GL(glUseProgram)(prog);
	GL(glUniform1f)(GL(glGetUniformLocation)(prog, "ref"), 500.0f);
	GL(glGenBuffers)(1, &buf);
	GL(glBindBuffer)(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
	GL(glBufferData)(GL_TRANSFORM_FEEDBACK_BUFFER, sizeof out, NULL, GL_STREAM_READ);
	GL(glBindBufferBase)(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf);
	PROC(void (*)(GLenum), "glEnableClientState")(0x8074 /* GL_VERTEX_ARRAY */);
	PROC(void (*)(GLint, GLenum, GLsizei, const void *), "glVertexPointer")(4, GL_FLOAT, 0, pos);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glBeginTransformFeedback)(GL_POINTS);
	GL(glDrawArrays)(GL_POINTS, 0, 1);
	GL(glEndTransformFeedback)();
	GL(glGetBufferSubData)(GL_TRANSFORM_FEEDBACK_BUFFER, 0, sizeof out, out);
	if (out[0] != 1500.0f || out[3] != 1.0f)
		fprintf(stderr, "captured %g %g %g %g\n", out[0], out[1], out[2], out[3]);
	CHECK(out[0] == 1500.0f && out[3] == 1.0f);
	CHECK_EQ_INT(error(), GL_NO_ERROR);
	CHECK(!drv_context_take_unsupported(ctx));
	dgl_done(ctx);
}

static void test_specialize_keeps_one_entry_point_and_defaults(void)
{
	enum drv_spec_status st;
	struct xt_err err = { 0 };
	uint32_t *out = NULL, *words = NULL;
	size_t n = 0, nw = 0;
	uint32_t swapped[sizeof module / 4];
	unsigned entry_points = 0, spec_constants = 0;

	CHECK_EQ_INT(drv_spirv_specialize(module, sizeof module / 4, DRV_STAGE_VERTEX, "main", 0, NULL,
					  NULL, &out, &n, &st, &err), XT_OK);
	CHECK_EQ_INT(st, DRV_SPEC_OK);
	CHECK(out && n == sizeof module / 4 - 5);   /* the fragment OpEntryPoint is gone */
	for (size_t p = 5; out && p < n; p += out[p] >> 16) {
		if ((out[p] & 0xFFFF) == 15)
			entry_points++;
		if ((out[p] & 0xFFFF) == 50) {
			CHECK_EQ_INT(out[p + 3], 0x3f800000);   /* not given: the default */
			spec_constants++;
		}
	}
	CHECK_EQ_INT(entry_points, 1);
	CHECK_EQ_INT(spec_constants, 1);
	CHECK_EQ_INT(drv_spirv_input_check(out, n, &err), XT_OK);
	free(out);
	/* a big-endian module loads in host order */
	for (size_t i = 0; i < sizeof module / 4; i++)
		swapped[i] = __builtin_bswap32(module[i]);
	CHECK_EQ_INT(drv_spirv_input_load(swapped, sizeof swapped, &words, &nw, &err), XT_OK);
	CHECK(words && nw == sizeof module / 4 && !memcmp(words, module, sizeof module));
	free(words);
	/* a truncated module is an error, not a crash */
	CHECK_EQ_INT(drv_spirv_specialize(module, 20, DRV_STAGE_VERTEX, "main", 0, NULL, NULL, &out,
					  &n, &st, &err), XT_ERR_CORRUPT);
	CHECK(!out);
}

int main(void)
{
	struct xt_err err = { 0 };
	if (dgl_screen_create(&err) != XT_OK) {
		fprintf(stderr, "dgl_screen_create: %s\n", xt_err_msg(&err));
		return 1;
	}
	XT_RUN(test_spirv_shader_captures_its_specialization_constant_by_its_xfb_decorations);
	XT_RUN(test_spirv_shader_calls_raise_the_extension_errors);
	XT_RUN(test_program_interface_reports_tf_buffers_varyings_and_strides);
	XT_RUN(test_skip_only_buffer_is_a_resource_next_buffer_only_is_not);
	XT_RUN(test_several_shader_objects_of_one_stage_link_into_one_program);
	XT_RUN(test_program_binary_round_trips_and_rejects_damage);
	XT_RUN(test_specialize_keeps_one_entry_point_and_defaults);
	dgl_screen_destroy();
	XT_TEST_MAIN_END();
}
