/*
 * test_drv_gl_state.c - the sim driver's GL state tracker through its GL
 * entry points (drv_get_proc_address), on a real screen (gpu_model):
 * framebuffer objects and their queries (drv_gl_fb.c), and drawing without
 * a program in a compatibility context (the fixed-function vertex program,
 * drv_gl_compat.c), whose primitives a PRIMITIVES_GENERATED query counts,
 * the fixed-function matrices' inverses (drv_gl_matrix.c),
 * program pipelines (drv_gl_pipeline.c) feeding transform feedback,
 * several contexts sharing the one simulated GPU, and the rendering state
 * that has no pixels to act on (blending, glClearBuffer*, blits, 3D
 * textures) validated as GL specifies.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "drv_gl_test.h"
#include "xt_test.h"

#define GL_VERTEX_ARRAY 0x8074
#define GL_CLAMP_VERTEX_COLOR 0x891A  /* compatibility profile (gl.xml) */

typedef void (*vertex_pointer_fn)(GLint size, GLenum type, GLsizei stride, const void *ptr);
typedef void (*enable_client_state_fn)(GLenum array);
#define GL_MODELVIEW 0x1700
typedef void (*matrix_mode_fn)(GLenum mode);
typedef void (*transform_fn)(GLfloat a, GLfloat b, GLfloat c);
typedef void (*rotate_fn)(GLfloat angle, GLfloat x, GLfloat y, GLfloat z);

/* A GL 3.3 core or a 2.1 compatibility context. */
static struct drv_context *context(bool core)
{
	return core ? dgl_context(3, 3, true) : dgl_context(2, 1, false);
}

static void test_read_buffer_follows_the_bound_framebuffer(void)
{
	struct drv_context *ctx = context(true);
	GLuint fb = 0;
	GLint v = -1;

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glGetIntegerv)(GL_READ_BUFFER, &v);
	CHECK_EQ_INT(v, GL_BACK);
	GL(glGenFramebuffers)(1, &fb);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fb);
	GL(glGetIntegerv)(GL_READ_BUFFER, &v);
	CHECK_EQ_INT(v, GL_COLOR_ATTACHMENT0);
	GL(glReadBuffer)(GL_COLOR_ATTACHMENT2);
	GL(glGetIntegerv)(GL_READ_BUFFER, &v);
	CHECK_EQ_INT(v, GL_COLOR_ATTACHMENT2);
	GL(glGetIntegerv)(GL_READ_FRAMEBUFFER_BINDING, &v);
	CHECK_EQ_INT(v, fb);
	/* back to the window-system framebuffer: its own read buffer */
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, 0);
	GL(glGetIntegerv)(GL_READ_BUFFER, &v);
	CHECK_EQ_INT(v, GL_BACK);
	GL(glGetIntegerv)(GL_DRAW_FRAMEBUFFER_BINDING, &v);
	CHECK_EQ_INT(v, fb);
	dgl_done_clean(ctx);
}

static void test_attachment_queries_report_the_attached_format(void)
{
	struct drv_context *ctx = context(true);
	GLuint fb = 0, tex = 0, rb = 0;
	GLint v = -1;
	PFNGLGETFRAMEBUFFERATTACHMENTPARAMETERIVPROC get =
		GL(glGetFramebufferAttachmentParameteriv);

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	/* unsized GL_RGBA with bytes: RGBA8, as Mesa chooses */
	GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_RGBA, 16, 16, 0, GL_RGBA,
						  GL_UNSIGNED_BYTE, NULL);
	GL(glGenRenderbuffers)(1, &rb);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb);
	GL(glRenderbufferStorage)(GL_RENDERBUFFER,
								    GL_DEPTH24_STENCIL8, 16, 16);
	GL(glGenFramebuffers)(1, &fb);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fb);
	GL(glFramebufferTexture2D)(GL_FRAMEBUFFER,
		GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
	GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER,
		GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb);

	get(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE, &v);
	CHECK_EQ_INT(v, 8);
	get(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE, &v);
	CHECK_EQ_INT(v, 8);
	get(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &v);
	CHECK_EQ_INT(v, GL_TEXTURE);
	get(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &v);
	CHECK_EQ_INT(v, tex);
	get(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, &v);
	CHECK_EQ_INT(v, 24);
	get(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE, &v);
	CHECK_EQ_INT(v, 8);
	CHECK(!drv_context_take_unsupported(ctx));
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);

	/* nothing attached: only the object type may be asked (GL 4.6 9.2.3) */
	get(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &v);
	CHECK_EQ_INT(v, GL_NONE);
	get(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE, &v);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);

	/* a format outside the table is reported by name, never guessed */
	GL(glTexImage2D)(GL_TEXTURE_2D, 0, GL_R11F_G11F_B10F, 16, 16, 0,
						  GL_RGB, GL_FLOAT, NULL);
	get(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE, &v);
	const char *why = drv_context_take_unsupported(ctx);
	CHECK(why && strstr(why, "0x8C3A"));
	dgl_done(ctx);
}

/* Six client-memory vertices drawn as GL_TRIANGLES with no program bound. */
static GLuint primitives_generated_without_program(struct drv_context *ctx)
{
	static const float pos[12] = { 0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1, 0 };
	GLuint q = 0, n = 0;

	GL(glGenQueries)(1, &q);
	GL(glBeginQuery)(GL_PRIMITIVES_GENERATED, q);
	PROC(enable_client_state_fn, "glEnableClientState")(GL_VERTEX_ARRAY);
	PROC(vertex_pointer_fn, "glVertexPointer")(2, GL_FLOAT, 0, pos);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 6);
	GL(glEndQuery)(GL_PRIMITIVES_GENERATED);
	GL(glGetQueryObjectuiv)(q, GL_QUERY_RESULT, &n);
	return n;
}

static void test_compat_draw_without_program_runs_the_fixed_function_vertex_program(void)
{
	struct drv_context *ctx = context(false);

	CHECK(ctx);
	if (!ctx)
		return;
	CHECK_EQ_INT(primitives_generated_without_program(ctx), 2);
	dgl_done_clean(ctx);
}

/* Draws `points` points of `prog` with rasterizer discard and reads the
 * `bytes` TF captured into a fresh buffer back into `out`. */
static void capture_points(GLuint prog, GLsizei points, float *out, GLsizeiptr bytes)
{
	GLuint buf = 0, vao = 0;
	GL(glUseProgram)(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenBuffers)(1, &buf);
	GL(glBindBuffer)(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
	GL(glBufferData)(GL_TRANSFORM_FEEDBACK_BUFFER, bytes, NULL, GL_STREAM_READ);
	GL(glBindBufferBase)(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glBeginTransformFeedback)(GL_POINTS);
	GL(glDrawArrays)(GL_POINTS, 0, points);
	GL(glEndTransformFeedback)();
	GL(glGetBufferSubData)(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bytes, out);
}

/*
 * gl_ModelViewMatrixInverse of a translate * rotate * scale modelview (every
 * cofactor of the inverse in use), applied to the image of (1, 1, 1): TF
 * captures (1, 1, 1, 1) back.
 */
static void test_modelview_inverse_undoes_the_modelview(void)
{
	static const char vs[] = "#version 130\nout vec4 r;\n"
		"void main() { r = gl_ModelViewMatrixInverse * vec4(-3.0, 4.0, 11.0, 1.0);"
		" gl_Position = vec4(0.0); }\n";
	static const char *const varyings[] = { "r" };
	struct drv_context *ctx = dgl_context(3, 0, false);
	float out[4] = { 0 };
	GLuint prog;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = dgl_program(vs, NULL, varyings, 1);
	CHECK(prog != 0);
	/* (1, 1, 1) -> scale (2, 4, 8) -> rotate 90 degrees about z (-4, 2, 8)
	 * -> translate (1, 2, 3): (-3, 4, 11). */
	PROC(matrix_mode_fn, "glMatrixMode")(GL_MODELVIEW);
	PROC(transform_fn, "glTranslatef")(1, 2, 3);
	PROC(rotate_fn, "glRotatef")(90, 0, 0, 1);
	PROC(transform_fn, "glScalef")(2, 4, 8);
	capture_points(prog, 1, out, sizeof out);
	for (int i = 0; i < 4; i++)
		CHECK(fabsf(out[i] - 1.0f) < 1e-5f);
	printf("  inverse * (-3, 4, 11, 1) = (%g, %g, %g, %g)\n", (double)out[0], (double)out[1],
	       (double)out[2], (double)out[3]);
	dgl_done_clean(ctx);
}

static void test_generate_mipmap_checks_its_target(void)
{
	struct drv_context *ctx = context(true);

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glGenerateMipmap)(GL_TEXTURE_2D);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	GL(glGenerateMipmap)(GL_ARRAY_BUFFER);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);
	CHECK(!drv_context_take_unsupported(ctx));
	dgl_done(ctx);
}

/* The rendering state Godot 3 sets, which the model keeps no pixels for:
 * accepted (not reported as unsupported), with the errors of GL 4.6
 * §17.3.6 (blending), §17.4.3.1 (glClearBuffer*), §18.3.1
 * (glBlitFramebuffer) and §8.5 (glTexImage3D). */
static void test_blend_clear_buffer_blit_and_3d_textures_are_validated_state(void)
{
	struct drv_context *ctx = context(true);
	static const GLfloat color[4] = { 0, 0, 0, 1 };
	GLuint tex = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	GL(glBlendEquation)(GL_FUNC_REVERSE_SUBTRACT);
	GL(glBlendEquationSeparate)(GL_MIN, GL_MAX);
	GL(glBlendFuncSeparate)(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ZERO);
	GL(glBlendColor)(1, 1, 1, 1);
	GL(glClearBufferfv)(GL_COLOR, 7, color);
	GL(glClearBufferfv)(GL_DEPTH, 0, color);
	GL(glClearBufferfi)(GL_DEPTH_STENCIL, 0, 1.0f, 0);
	GL(glBlitFramebuffer)(0, 0, 4, 4, 0, 0, 8, 8, GL_COLOR_BUFFER_BIT, GL_LINEAR);
	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_3D, tex);
	GL(glTexImage3D)(GL_TEXTURE_3D, 0, GL_RGBA8, 4, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	GL(glTexSubImage3D)(GL_TEXTURE_3D, 0, 0, 0, 0, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, color);
	GL(glTexStorage3D)(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA8, 4, 4, 2);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);

	GL(glBlendEquation)(GL_ONE);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);
	GL(glBlendFuncSeparate)(GL_ONE, GL_FUNC_ADD, GL_ONE, GL_ONE);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);
	GL(glClearBufferfv)(GL_COLOR, 8, color);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);
	GL(glClearBufferfv)(GL_STENCIL, 0, color);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);
	GL(glClearBufferfv)(GL_DEPTH, 1, color);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);
	GL(glBlitFramebuffer)(0, 0, 4, 4, 0, 0, 8, 8, GL_DEPTH_BUFFER_BIT, GL_LINEAR);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glBlitFramebuffer)(0, 0, 4, 4, 0, 0, 8, 8, 0x10, GL_NEAREST);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);
	GL(glTexImage3D)(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);
	GL(glTexImage3D)(GL_TEXTURE_3D, 0, GL_RGBA8, 4, 4, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_VALUE);
	dgl_done_clean(ctx);
}

/* A linked separable vertex program writing `v = float(gl_VertexID) * 2.0`. */
static GLuint separable_vs(void)
{
	static const char *src = "#version 330\nout float v;\n"
				 "void main() { v = float(gl_VertexID) * 2.0; gl_Position = vec4(0.0); }\n";
	static const char *varyings[] = { "v" };
	GLuint sh = GL(glCreateShader)(GL_VERTEX_SHADER), prog = GL(glCreateProgram)();
	GL(glShaderSource)(sh, 1, &src, NULL);
	GL(glCompileShader)(sh);
	GL(glAttachShader)(prog, sh);
	GL(glProgramParameteri)(prog, GL_PROGRAM_SEPARABLE, GL_TRUE);
	GL(glTransformFeedbackVaryings)(prog, 1, varyings, GL_INTERLEAVED_ATTRIBS);
	GL(glLinkProgram)(prog);
	return prog;
}

static void test_pipeline_program_feeds_transform_feedback(void)
{
	struct drv_context *ctx = context(true);
	GLuint prog, pipe = 0, buf = 0, vao = 0;
	GLint v = -1;
	float out[4] = { -1, -1, -1, -1 };

	CHECK(ctx);
	if (!ctx)
		return;
	prog = separable_vs();
	GL(glGenProgramPipelines)(1, &pipe);
	GL(glBindProgramPipeline)(pipe);
	GL(glUseProgramStages)(pipe, GL_VERTEX_SHADER_BIT, prog);
	GL(glGetProgramPipelineiv)(pipe, GL_VERTEX_SHADER, &v);
	CHECK_EQ_INT(v, prog);
	GL(glGetIntegerv)(GL_PROGRAM_PIPELINE_BINDING, &v);
	CHECK_EQ_INT(v, pipe);

	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenBuffers)(1, &buf);
	GL(glBindBuffer)(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
	GL(glBufferData)(GL_TRANSFORM_FEEDBACK_BUFFER, sizeof out, NULL, GL_STREAM_READ);
	GL(glBindBufferBase)(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glBeginTransformFeedback)(GL_POINTS);
	/* GL 4.6 13.2.2: the current pipeline cannot change under active TF */
	GL(glUseProgramStages)(pipe, GL_VERTEX_SHADER_BIT, 0);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glDrawArrays)(GL_POINTS, 0, 4);
	GL(glEndTransformFeedback)();
	GL(glGetBufferSubData)(GL_TRANSFORM_FEEDBACK_BUFFER, 0, sizeof out, out);
	for (int i = 0; i < 4; i++)
		CHECK(out[i] == 2.0f * (float)i);
	CHECK(!drv_context_take_unsupported(ctx));
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);

	/* a program that is not separable cannot be used in a pipeline */
	GL(glProgramParameteri)(prog, GL_PROGRAM_SEPARABLE, GL_FALSE);
	GL(glLinkProgram)(prog);
	GL(glUseProgramStages)(pipe, GL_VERTEX_SHADER_BIT, prog);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	dgl_done(ctx);
}

static const char vs_times_two[] = "#version 330\nout float v;\n"
	"void main() { v = float(gl_VertexID) * 2.0; gl_Position = vec4(0.0); }\n";

/* Captures 4 points of `prog` (vs_times_two) into a fresh buffer. */
static void capture_4_points(GLuint prog, float out[4])
{
	capture_points(prog, 4, out, 4 * sizeof(float));
}

/* Runs one GL call's worth of work on ctx as the sim backend does. */
#define ON(ctx, stmt)                                                  \
	do {                                                           \
		const uint32_t *pm4_;                                  \
		uint32_t n_;                                           \
		bool st_;                                              \
		drv_context_make_current(ctx);                         \
		drv_context_call_begin(ctx);                           \
		stmt;                                                  \
		drv_context_call_end(ctx, &pm4_, &n_, &st_);           \
	} while (0)

static void test_contexts_sharing_the_gpu_do_not_inherit_each_others_state(void)
{
	static const char gs[] = "#version 330\nlayout(points) in;\n"
		"layout(points, max_vertices = 2) out;\n"
		"void main() { gl_Position = gl_in[0].gl_Position; EmitVertex();\n"
		"              gl_Position = gl_in[0].gl_Position; EmitVertex(); }\n";
	struct drv_context *a = context(true), *b = context(true);
	GLuint pa = 0, pb = 0, vao = 0;
	float out[4] = { -1, -1, -1, -1 };

	CHECK(a && b);
	if (!a || !b)
		return;
	ON(a, pa = dgl_program(vs_times_two, NULL, (const char *const[]){ "v" }, 1));
	/* b leaves the GPU with a geometry shader on */
	ON(b, pb = dgl_program(vs_times_two, gs, NULL, 0));
	ON(b, GL(glUseProgram)(pb));
	ON(b, GL(glGenVertexArrays)(1, &vao));
	ON(b, GL(glBindVertexArray)(vao));
	ON(b, GL(glEnable)(GL_RASTERIZER_DISCARD));
	ON(b, GL(glDrawArrays)(GL_POINTS, 0, 4));
	CHECK(!drv_context_take_unsupported(b));
	/* a's capture must not run b's GS */
	ON(a, capture_4_points(pa, out));
	for (int i = 0; i < 4; i++)
		CHECK(out[i] == 2.0f * (float)i);
	CHECK(!drv_context_take_unsupported(a));

	/* while a's TF is active, b's draws would land in a's buffers: reported */
	ON(a, GL(glBeginTransformFeedback)(GL_POINTS));
	ON(b, GL(glDrawArrays)(GL_POINTS, 0, 4));
	const char *why = drv_context_take_unsupported(b);
	CHECK(why && strstr(why, "another context"));
	ON(a, GL(glEndTransformFeedback)());
	ON(b, GL(glDrawArrays)(GL_POINTS, 0, 4));
	CHECK(!drv_context_take_unsupported(b));
	dgl_done(b);
	dgl_done(a);
}

/* Formats GCN cannot fetch are converted to floats on upload: their TF
 * capture shows the GL conversions (GL 4.6 10.3.5, 2.3.5). */
static void test_vertex_formats_without_a_gcn_fetch_format_are_converted(void)
{
	static const char vs[] = "#version 330\n"
		"layout(location = 0) in vec2 fx; layout(location = 1) in vec2 inorm;\n"
		"layout(location = 2) in float unorm; layout(location = 3) in vec3 dbl;\n"
		"layout(location = 4) in vec3 packed;\n"
		"out float v[10];\n"
		"void main() { v[0] = fx.x; v[1] = fx.y; v[2] = inorm.x; v[3] = inorm.y; v[4] = unorm;\n"
		"  v[5] = dbl.x; v[6] = dbl.z; v[7] = packed.x; v[8] = packed.y; v[9] = packed.z;\n"
		"  gl_Position = vec4(0.0); }\n";
	static const char *varyings[] = { "v" };
	struct {
		int32_t fx[2];
		int32_t inorm[2];
		uint32_t unorm;
		double dbl[3];
		uint32_t packed;     /* r 1.0, g 2.0, b 0.5 as 10F_11F_11F */
	} __attribute__((packed)) vert = {
		{ 0x00018000, -0x00008000 }, { INT32_MAX, INT32_MIN }, 0xFFFFFFFFu,
		{ 0.25, 7.0, -3.5 }, 960u | 1024u << 11 | 448u << 22,
	};
	static const float want[10] = { 1.5f, -0.5f, 1.0f, -1.0f, 1.0f, 0.25f, -3.5f, 1.0f, 2.0f, 0.5f };
	struct drv_context *ctx = context(true);
	GLuint prog, sh, vao = 0, vbo = 0, tfb = 0;
	const char *src = vs;
	float out[10] = { 0 };
	GLsizei stride = (GLsizei)sizeof vert;

	CHECK(ctx);
	if (!ctx)
		return;
	prog = GL(glCreateProgram)();
	sh = GL(glCreateShader)(GL_VERTEX_SHADER);
	GL(glShaderSource)(sh, 1, &src, NULL);
	GL(glCompileShader)(sh);
	GL(glAttachShader)(prog, sh);
	GL(glTransformFeedbackVaryings)(prog, 1, varyings, GL_INTERLEAVED_ATTRIBS);
	GL(glLinkProgram)(prog);
	GL(glUseProgram)(prog);
	GL(glGenVertexArrays)(1, &vao);
	GL(glBindVertexArray)(vao);
	GL(glGenBuffers)(1, &vbo);
	GL(glBindBuffer)(GL_ARRAY_BUFFER, vbo);
	GL(glBufferData)(GL_ARRAY_BUFFER, sizeof vert, &vert, GL_STATIC_DRAW);
	GL(glVertexAttribPointer)(0, 2, GL_FIXED, GL_FALSE, stride, (void *)0);
	GL(glVertexAttribPointer)(1, 2, GL_INT, GL_TRUE, stride, (void *)8);
	GL(glVertexAttribPointer)(2, 1, GL_UNSIGNED_INT, GL_TRUE, stride, (void *)16);
	GL(glVertexAttribPointer)(3, 3, GL_DOUBLE, GL_FALSE, stride, (void *)20);
	GL(glVertexAttribPointer)(4, 3, GL_UNSIGNED_INT_10F_11F_11F_REV, GL_FALSE, stride, (void *)44);
	for (GLuint i = 0; i < 5; i++)
		GL(glEnableVertexAttribArray)(i);
	GL(glGenBuffers)(1, &tfb);
	GL(glBindBuffer)(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
	GL(glBufferData)(GL_TRANSFORM_FEEDBACK_BUFFER, sizeof out, NULL, GL_STREAM_READ);
	GL(glBindBufferBase)(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
	GL(glEnable)(GL_RASTERIZER_DISCARD);
	GL(glBeginTransformFeedback)(GL_POINTS);
	GL(glDrawArrays)(GL_POINTS, 0, 1);
	GL(glEndTransformFeedback)();
	GL(glGetBufferSubData)(GL_TRANSFORM_FEEDBACK_BUFFER, 0, sizeof out, out);
	CHECK(!drv_context_take_unsupported(ctx));
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	for (int i = 0; i < 10; i++) {
		if (out[i] != want[i])
			fprintf(stderr, "component %d: %g, want %g\n", i, (double)out[i], (double)want[i]);
		CHECK(out[i] == want[i]);
	}
	dgl_done(ctx);
}

/*
 * Double uniforms take their shape from the GL type table: a dmat2 is a
 * double matrix, so glUniform1i on it is GL_INVALID_OPERATION (the
 * driver's own copy of the table had no double matrices and took a dmat2
 * for a sampler, which glUniform1i may set); glGetUniformfv returns every
 * component of a dvec3, converted (the copy read one dword of it).
 */
static void test_double_uniforms_have_the_shape_of_their_type(void)
{
	static const char *vs =
		"#version 400\n"
		"uniform dvec3 dv = dvec3(1.5, -2.0, 3.25);\n"
		"uniform dmat2 dm = dmat2(4.0, 5.0, 6.0, 7.0);\n"
		"out float o;\n"
		"void main() { o = float(dv.x + dv.y + dv.z + dm[1][1]); gl_Position = vec4(0.0); }\n";
	static const char *varyings[] = { "o" };
	struct drv_context *ctx = dgl_context(4, 0, true);
	float f[4] = { -1, -1, -1, -1 };

	CHECK(ctx);
	if (!ctx)
		return;
	GLuint prog = dgl_program(vs, NULL, varyings, 1);
	CHECK(prog != 0);
	GL(glUseProgram)(prog);
	GLint dv = GL(glGetUniformLocation)(prog, "dv"), dm = GL(glGetUniformLocation)(prog, "dm");
	CHECK(dv >= 0 && dm >= 0);
	GL(glGetUniformfv)(prog, dv, f);
	CHECK(f[0] == 1.5f && f[1] == -2.0f && f[2] == 3.25f && f[3] == -1.0f);
	GL(glGetUniformfv)(prog, dm, f);
	CHECK(f[0] == 4.0f && f[1] == 5.0f && f[2] == 6.0f && f[3] == 7.0f);
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	GL(glUniform1i)(dm, 1);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	GL(glUniform3f)(dv, 1, 2, 3);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_OPERATION);
	dgl_done_clean(ctx);
}

/*
 * Vertex colour clamping (GL_CLAMP_VERTEX_COLOR, TRUE by default in a
 * compatibility context): transform feedback records the colours a vertex
 * or geometry shader writes clamped to [0, 1] ("the vertices are fed back
 * after vertex color clamping", GL 3.3 §2.15), other outputs as written.
 * llvmpipe (Mesa 22.3) gives the same bytes for the vertex shader below in
 * a plain program: (0, 0.25, 1, 1) and (0, 0.5, 1, 1).  Clamping turned
 * off is reported as not modelled, never drawn clamped.
 */
static void test_compat_vertex_colors_are_captured_clamped(void)
{
	static const char vs[] = "#version 450 compatibility\nout float v;\n"
		"void main() { v = 2.0 + float(gl_VertexID);"
		" gl_FrontColor = vec4(-0.5, 0.25, 2.0, 1.5) * float(gl_VertexID + 1);"
		" gl_Position = vec4(0.0); }\n";
	static const char gs_vs[] = "#version 450 compatibility\nvoid main() { gl_Position = vec4(0.0); }\n";
	static const char gs[] = "#version 450 compatibility\n"
		"layout(points) in;\nlayout(points, max_vertices = 2) out;\nout float v;\n"
		"void main() {\n  for (int j = 0; j < 2; j++)\n"
		"    if (j >= 0) v = float(j) - 3.0, gl_FrontSecondaryColor = vec4(float(j) * 2.0 - 1.5), EmitVertex();\n}\n";
	static const char *const varyings[] = { "v", "gl_FrontColor" };
	static const char *const gs_varyings[] = { "v", "gl_FrontSecondaryColor" };
	static const float want[10] = { 2, 0, 0.25f, 1, 1, 3, 0, 0.5f, 1, 1 };
	static const float gs_want[10] = { -3, 0, 0, 0, 0, -2, 0.5f, 0.5f, 0.5f, 0.5f };
	struct drv_context *ctx = dgl_context(4, 5, false);
	float out[10] = { 0 };
	GLint clamp = -1;

	CHECK(ctx);
	if (!ctx)
		return;
	GLuint prog = dgl_program(vs, NULL, varyings, 2), gprog = dgl_program(gs_vs, gs, gs_varyings, 2);
	CHECK(prog != 0 && gprog != 0);
	GL(glGetIntegerv)(GL_CLAMP_VERTEX_COLOR, &clamp);
	CHECK_EQ_INT(clamp, GL_TRUE);
	capture_points(prog, 2, out, sizeof out);
	for (int i = 0; i < 10; i++)
		CHECK(out[i] == want[i]);
	capture_points(gprog, 1, out, sizeof out);
	for (int i = 0; i < 10; i++)
		CHECK(out[i] == gs_want[i]);
	CHECK(!drv_context_take_unsupported(ctx));

	GL(glClampColor)(GL_CLAMP_VERTEX_COLOR, GL_FALSE);
	GL(glGetIntegerv)(GL_CLAMP_VERTEX_COLOR, &clamp);
	CHECK_EQ_INT(clamp, GL_FALSE);
	capture_points(prog, 2, out, sizeof out);
	CHECK(drv_context_take_unsupported(ctx) != NULL);
	GL(glClampColor)(GL_CLAMP_VERTEX_COLOR, GL_TRUE);
	dgl_done_clean(ctx);

	/* core: the vertex colour target does not exist */
	ctx = dgl_context(4, 5, true);
	CHECK(ctx);
	if (!ctx)
		return;
	GL(glClampColor)(GL_CLAMP_VERTEX_COLOR, GL_FALSE);
	CHECK_EQ_INT(GL(glGetError)(), GL_INVALID_ENUM);
	GL(glClampColor)(GL_CLAMP_READ_COLOR, GL_FALSE);
	dgl_done_clean(ctx);
}

/*
 * GL 4.6 §13.3.2: a primitive is dropped when recording its vertices would
 * exceed the buffer's size; the bytes of the stride past the last captured
 * component (xfb_stride padding) are not recorded, so they need not fit.
 * A 52-byte buffer, 16-byte stride, one float per vertex: points 0..3 are
 * recorded (the last at bytes 48..51), point 4 is not.  llvmpipe (Mesa
 * 22.3) records the same (xfb-fuzz-case --seed 1284 --only
 * prim,draw,count,v2,mode,xfb_stride_extra); the VGT's whole-stride rule
 * alone would stop after 3.
 */
static void test_the_padding_of_the_last_vertex_need_not_fit(void)
{
	static const char vs[] = "#version 450 core\n"
		"layout(xfb_buffer = 0, xfb_stride = 16) out;\n"
		"layout(xfb_offset = 0) out float v;\n"
		"void main() { v = float(gl_VertexID) + 0.5; gl_Position = vec4(0.0); }\n";
	struct drv_context *ctx = dgl_context(4, 5, true);
	float out[13];
	GLuint q = 0, written = 0;

	CHECK(ctx);
	if (!ctx)
		return;
	GLuint prog = dgl_program(vs, NULL, NULL, 0);
	CHECK(prog != 0);
	GL(glGenQueries)(1, &q);
	GL(glBeginQuery)(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q);
	memset(out, 0, sizeof out);
	capture_points(prog, 6, out, sizeof out);
	GL(glEndQuery)(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
	GL(glGetQueryObjectuiv)(q, GL_QUERY_RESULT, &written);
	CHECK_EQ_INT(written, 4);
	for (int i = 0; i < 4; i++)
		CHECK(out[4 * i] == (float)i + 0.5f);
	dgl_done_clean(ctx);
}

int main(void)
{
	struct xt_err err = { 0 };
	if (dgl_screen_create(&err) != XT_OK) {
		fprintf(stderr, "dgl_screen_create: %s\n", xt_err_msg(&err));
		return 1;
	}
	XT_RUN(test_read_buffer_follows_the_bound_framebuffer);
	XT_RUN(test_attachment_queries_report_the_attached_format);
	XT_RUN(test_compat_draw_without_program_runs_the_fixed_function_vertex_program);
	XT_RUN(test_modelview_inverse_undoes_the_modelview);
	XT_RUN(test_compat_vertex_colors_are_captured_clamped);
	XT_RUN(test_the_padding_of_the_last_vertex_need_not_fit);
	XT_RUN(test_generate_mipmap_checks_its_target);
	XT_RUN(test_blend_clear_buffer_blit_and_3d_textures_are_validated_state);
	XT_RUN(test_pipeline_program_feeds_transform_feedback);
	XT_RUN(test_contexts_sharing_the_gpu_do_not_inherit_each_others_state);
	XT_RUN(test_vertex_formats_without_a_gcn_fetch_format_are_converted);
	XT_RUN(test_double_uniforms_have_the_shape_of_their_type);
	dgl_screen_destroy();
	XT_TEST_MAIN_END();
}
