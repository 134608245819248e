/*
 * test_drv_gl_state.c - the sim driver's GL state tracker through its GL
 * entry points (drv_get_proc_address), on a real screen (gpu_model):
 * framebuffer objects and their queries (drv_gl_fb.c), and drawing without
 * a program in a compatibility context (the fixed-function vertex program,
 * drv_gl_compat.c), whose primitives a PRIMITIVES_GENERATED query counts,
 * and program pipelines (drv_gl_pipeline.c) feeding transform feedback.
 */
#define GL_GLEXT_PROTOTYPES  /* declarations only: calls go through drv_get_proc_address */
#include <GL/glcorearb.h>

#include "drv.h"
#include "xt_test.h"

#define GL_VERTEX_ARRAY 0x8074
typedef void (*vertex_pointer_fn)(GLint size, GLenum type, GLsizei stride, const void *ptr);
typedef void (*enable_client_state_fn)(GLenum array);

static struct drv_screen *screen;

/* The sim driver's entry point `name`, typed as the GL prototype. */
#define GL(name) ((__typeof__(&name))drv_get_proc_address(#name))
#define PROC(type, name) ((type)drv_get_proc_address(name))

static struct drv_context *context(bool core)
{
	struct drv_context_desc d = { .major = core ? 3 : 2, .minor = core ? 3 : 1, .core = core };
	struct drv_context *ctx = NULL;
	struct xt_err err = { 0 };
	if (drv_context_create(screen, &d, &ctx, &err) != XT_OK)
		return NULL;
	drv_context_make_current(ctx);
	return ctx;
}

static void done(struct drv_context *ctx)
{
	drv_context_make_current(NULL);
	drv_context_destroy(ctx);
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
	CHECK(!drv_context_take_unsupported(ctx));
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	done(ctx);
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
	done(ctx);
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
	CHECK(!drv_context_take_unsupported(ctx));
	CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);
	done(ctx);
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
	done(ctx);
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
	done(ctx);
}

int main(void)
{
	struct xt_err err = { 0 };
	if (drv_screen_create(&screen, &err) != XT_OK) {
		fprintf(stderr, "drv_screen_create: %s\n", xt_err_msg(&err));
		return 1;
	}
	XT_RUN(test_read_buffer_follows_the_bound_framebuffer);
	XT_RUN(test_attachment_queries_report_the_attached_format);
	XT_RUN(test_compat_draw_without_program_runs_the_fixed_function_vertex_program);
	XT_RUN(test_generate_mipmap_checks_its_target);
	XT_RUN(test_pipeline_program_feeds_transform_feedback);
	drv_screen_destroy(screen);
	XT_TEST_MAIN_END();
}
