/*
 * app_gl.c - shader programs, GL error checks and TF read-backs for the
 * tests/apps programs.  Contracts: app_gl.h.  Built once per program, with
 * or without APP_GLES, because GLES and desktop GL headers cannot be mixed.
 */
#include "app_gl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int app_main(int argc, char **argv, const struct app_main_desc *d)
{
	struct app_opts opts;
	struct app_check check;
	struct app_egl egl;

	if (!app_opts_parse(&opts, argc, argv, d->takes_frames, d->takes_frames ? d->default_frames : 1))
		return APP_EXIT_SETUP;
	int rc = app_egl_init(&egl, d->api, d->major, d->minor, d->pbuffer_size);
	if (rc != APP_EXIT_PASS)
		return rc;
	app_gl_print_info(d->prog);
	rc = d->require ? d->require(d->prog) : APP_EXIT_PASS;
	if (rc != APP_EXIT_PASS) {
		app_egl_fini(&egl);
		return rc;
	}
	if (!app_check_init(&check, d->prog, opts.dump_path)) {
		app_egl_fini(&egl);
		return APP_EXIT_SETUP;
	}
	rc = d->run(&opts, &check, &egl);
	int check_rc = app_check_fini(&check);
	app_egl_fini(&egl);
	return rc != APP_EXIT_PASS ? rc : check_rc;
}

bool app_gl_rgba8_framebuffer(const char *prog, GLsizei width, GLsizei height)
{
	GLuint rb, fbo;

	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
		fprintf(stderr, "%s: the RGBA8 framebuffer is incomplete\n", prog);
		return false;
	}
	return true;
}

void app_gl_print_info(const char *prog)
{
	printf("%s: GL_VERSION %s, GL_RENDERER %s\n", prog,
	       (const char *)glGetString(GL_VERSION),
	       (const char *)glGetString(GL_RENDERER));
}

bool app_gl_has_extension(const char *name)
{
	GLint n = 0;
	glGetIntegerv(GL_NUM_EXTENSIONS, &n);
	for (GLint i = 0; i < n; i++) {
		const char *ext = (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i);
		if (ext && strcmp(ext, name) == 0)
			return true;
	}
	return false;
}

static const char *stage_name(GLenum stage)
{
	switch (stage) {
	case GL_VERTEX_SHADER: return "vertex";
	case GL_FRAGMENT_SHADER: return "fragment";
#ifndef APP_GLES
	case GL_GEOMETRY_SHADER: return "geometry";
#endif
	default: return "unknown";
	}
}

static void print_log(GLuint obj, bool is_program)
{
	GLint len = 0;
	if (is_program)
		glGetProgramiv(obj, GL_INFO_LOG_LENGTH, &len);
	else
		glGetShaderiv(obj, GL_INFO_LOG_LENGTH, &len);
	if (len <= 1)
		return;
	char *log = malloc((size_t)len);
	if (!log)
		return;
	if (is_program)
		glGetProgramInfoLog(obj, len, NULL, log);
	else
		glGetShaderInfoLog(obj, len, NULL, log);
	fprintf(stderr, "%s\n", log);
	free(log);
}

/* Compiles and attaches one stage; false after printing the log. */
static bool attach(GLuint prog, GLenum stage, const char *src)
{
	GLuint sh = glCreateShader(stage);
	glShaderSource(sh, 1, &src, NULL);
	glCompileShader(sh);
	GLint ok = GL_FALSE;
	glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		fprintf(stderr, "%s shader failed to compile:\n", stage_name(stage));
		print_log(sh, false);
		glDeleteShader(sh);
		return false;
	}
	glAttachShader(prog, sh);
	/* Only flagged for deletion: the program keeps it alive. */
	glDeleteShader(sh);
	return true;
}

GLuint app_gl_program(const char *vs, const char *gs, const char *fs,
		      const char *const *varyings, int n_varyings,
		      GLenum buffer_mode)
{
	GLuint prog = glCreateProgram();
	bool ok = attach(prog, GL_VERTEX_SHADER, vs);
#ifndef APP_GLES
	if (ok && gs)
		ok = attach(prog, GL_GEOMETRY_SHADER, gs);
#else
	if (gs) {
		fprintf(stderr, "geometry shaders are not used with GLES here\n");
		ok = false;
	}
#endif
	if (ok && fs)
		ok = attach(prog, GL_FRAGMENT_SHADER, fs);
	if (!ok) {
		glDeleteProgram(prog);
		return 0;
	}
	if (n_varyings > 0)
		glTransformFeedbackVaryings(prog, n_varyings, varyings, buffer_mode);
	glLinkProgram(prog);
	GLint linked = GL_FALSE;
	glGetProgramiv(prog, GL_LINK_STATUS, &linked);
	if (!linked) {
		fprintf(stderr, "program failed to link:\n");
		print_log(prog, true);
		glDeleteProgram(prog);
		return 0;
	}
	return prog;
}

bool app_gl_failed(const char *where)
{
	bool any = false;
	for (GLenum err; (err = glGetError()) != GL_NO_ERROR; any = true)
		fprintf(stderr, "GL error 0x%04x at %s\n", (unsigned)err, where);
	return any;
}

bool app_gl_read_mapped(struct app_check *c, GLuint buffer, GLintptr offset,
			GLsizeiptr len, void *dst)
{
	glBindBuffer(GL_COPY_READ_BUFFER, buffer);
	const void *p = glMapBufferRange(GL_COPY_READ_BUFFER, offset, len,
					 GL_MAP_READ_BIT);
	if (!p) {
		fprintf(stderr, "glMapBufferRange(buffer %u, %ld, %ld) failed\n",
			buffer, (long)offset, (long)len);
		app_gl_failed("glMapBufferRange");
		return false;
	}
	memcpy(dst, p, (size_t)len);
	/* GL_FALSE means the store was lost while mapped: dst is garbage. */
	GLboolean intact = glUnmapBuffer(GL_COPY_READ_BUFFER);
	glBindBuffer(GL_COPY_READ_BUFFER, 0);
	if (!intact) {
		fprintf(stderr, "glUnmapBuffer(buffer %u): data store corrupted\n", buffer);
		return false;
	}
	return app_check_readback(c, dst, (size_t)len);
}

#ifndef APP_GLES
bool app_gl_read_subdata(struct app_check *c, GLuint buffer, GLintptr offset,
			 GLsizeiptr len, void *dst)
{
	glBindBuffer(GL_COPY_READ_BUFFER, buffer);
	glGetBufferSubData(GL_COPY_READ_BUFFER, offset, len, dst);
	glBindBuffer(GL_COPY_READ_BUFFER, 0);
	if (app_gl_failed("glGetBufferSubData"))
		return false;
	return app_check_readback(c, dst, (size_t)len);
}
#endif

bool app_gl_buffer_sentinel(GLuint buffer, GLsizeiptr size_bytes)
{
	size_t n = (size_t)size_bytes / 4;
	uint32_t *words = malloc(n * 4);
	if (!words) {
		fprintf(stderr, "out of memory for a %zu-byte sentinel buffer\n", n * 4);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		words[i] = APP_SENTINEL;
	glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
	glBufferData(GL_COPY_WRITE_BUFFER, size_bytes, words, GL_STREAM_READ);
	glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
	free(words);
	return !app_gl_failed("glBufferData (sentinel)");
}

#ifdef APP_GLES
#define POINTS_GLSL "#version 300 es\nprecision highp float;\n"
#else
#define POINTS_GLSL "#version 330 core\n"
#endif

static const char points_vs[] =
	POINTS_GLSL
	"layout(location = 0) in vec4 a_pos;\n"
	"uniform float u_scale;\n"
	"uniform vec2 u_size;\n"
	"flat out vec4 v_color;\n"
	"void main()\n"
	"{\n"
	"	int i = gl_VertexID;\n"
	"	v_color = vec4(float(i % 4) / 3.0, float(i / 4 % 4) / 3.0, 1.0, 1.0);\n"
	"	vec2 pixel = floor((a_pos.xy * u_scale * 0.5 + 0.5) * u_size);\n"
	"	gl_Position = vec4((pixel + 0.5) / u_size * 2.0 - 1.0, 0.0, 1.0);\n"
	"	gl_PointSize = 1.0;\n"
	"}\n";

static const char points_fs[] =
	POINTS_GLSL
	"flat in vec4 v_color;\n"
	"out vec4 o_color;\n"
	"void main() { o_color = v_color; }\n";

int app_gl_draw_points_image(const char *prog, GLuint buffer, GLintptr offset,
			     GLsizei stride, GLsizei count, float scale, int w, int h)
{
	GLuint program = app_gl_program(points_vs, NULL, points_fs, NULL, 0,
					GL_INTERLEAVED_ATTRIBS);
	unsigned char *pixels = malloc((size_t)w * (size_t)h * 4);
	GLuint vao = 0;
	int lit = -1;

	if (!program || !pixels) {
		fprintf(stderr, "%s: points image: %s\n", prog,
			program ? "out of memory" : "no program");
		goto out;
	}
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glBindBuffer(GL_ARRAY_BUFFER, buffer);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, stride, (const void *)offset);
	glEnableVertexAttribArray(0);
	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glUseProgram(program);
	glUniform1f(glGetUniformLocation(program, "u_scale"), scale);
	glUniform2f(glGetUniformLocation(program, "u_size"), (float)w, (float)h);
	glDisable(GL_RASTERIZER_DISCARD);
	glDisable(GL_DEPTH_TEST);
	glDisable(GL_BLEND);
	glDisable(GL_SCISSOR_TEST);
#ifndef APP_GLES
	glEnable(GL_PROGRAM_POINT_SIZE);
#endif
	glViewport(0, 0, w, h);
	glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glDrawArrays(GL_POINTS, 0, count);
	glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
	glPixelStorei(GL_PACK_ALIGNMENT, 4);
	glPixelStorei(GL_PACK_ROW_LENGTH, 0);
	glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
	glPixelStorei(GL_PACK_SKIP_ROWS, 0);
	glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	glUseProgram(0);
	glBindVertexArray(0);
	if (app_gl_failed("points image"))
		goto out;
	lit = 0;
	for (size_t p = 0; p < (size_t)w * (size_t)h; p++)
		lit += pixels[p * 4 + 2] != 0;
	if (lit == 0) {
		fprintf(stderr, "%s: points image: none of %d points lit a pixel\n", prog,
			(int)count);
		lit = -1;
	}
out:
	glDeleteVertexArrays(1, &vao);
	glDeleteProgram(program);
	free(pixels);
	return lit;
}
