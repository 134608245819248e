/*
 * app_gl.h - GL helpers for the tests/apps programs: shader programs with
 * transform feedback varyings, error checks and read-backs that feed the
 * --dump-readback file.
 *
 * The GLES program is compiled with -DAPP_GLES (GLES3 headers, libGLESv2),
 * the desktop ones without (GL/glcorearb.h, libOpenGL).  Both call the GL
 * entry points exported by those libraries directly, the way an application
 * linked against them does, so a capture library can interpose them.
 */
#ifndef APP_GL_H
#define APP_GL_H

#include <stdbool.h>

#ifdef APP_GLES
#include <GLES3/gl3.h>
#else
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#endif

#include "app_check.h"
#include "app_egl.h"

/*
 * What a tests/apps program is, for app_main: its name, the context it
 * needs, its options and its body.
 */
struct app_main_desc {
	const char *prog;       /* program name for messages */
	enum app_api api;       /* a context of api at least major.minor */
	int major, minor;
	int pbuffer_size;       /* 0: surfaceless (app_egl_init) */
	bool takes_frames;      /* --frames N accepted, default default_frames */
	int default_frames;
	/* NULL, or a check of the current context: APP_EXIT_PASS to go on, or
	 * the exit status (after printing why, e.g. APP_EXIT_SKIP) */
	int (*require)(const char *prog);
	/* the program: an enum app_exit; checks go to the tally c */
	int (*run)(const struct app_opts *o, struct app_check *c, struct app_egl *egl);
};

/*
 * A whole tests/apps main: parses the options, creates the context,
 * prints the GL version, checks d->require, opens the tally (and the
 * --dump-readback file), runs d->run and releases everything.  Returns
 * run's status when it is not APP_EXIT_PASS, else the tally's.
 */
int app_main(int argc, char **argv, const struct app_main_desc *d);

/* Prints GL_VERSION and GL_RENDERER prefixed with the program name. */
void app_gl_print_info(const char *prog);

/* True when the context lists the extension (glGetStringi, whole name). */
bool app_gl_has_extension(const char *name);

/*
 * Builds a program from a vertex shader and optional geometry / fragment
 * shaders (NULL to omit; geometry shaders only outside GLES), declaring
 * n_varyings transform feedback varyings in buffer_mode before linking.
 * Returns the program, or 0 after printing the compile / link log.
 */
GLuint app_gl_program(const char *vs, const char *gs, const char *fs,
		      const char *const *varyings, int n_varyings,
		      GLenum buffer_mode);

/*
 * Creates a width x height GL_RGBA8 renderbuffer and a framebuffer with it
 * as colour attachment 0 and binds both (a surfaceless context has no
 * framebuffer, and draws need a complete one even with rasterizer discard).
 * Returns false (message printed, naming prog) when it is incomplete.
 */
bool app_gl_rgba8_framebuffer(const char *prog, GLsizei width, GLsizei height);

/*
 * Drains glGetError.  Returns true (after printing every error with `where`)
 * when there was any, so callers can exit with APP_EXIT_SETUP.
 */
bool app_gl_failed(const char *where);

/*
 * Reads len bytes at offset of buffer through
 * glMapBufferRange(GL_COPY_READ_BUFFER, ..., GL_MAP_READ_BIT) into dst and
 * appends them to the read-back dump.  Returns false (message printed) when
 * mapping, unmapping or the dump failed; dst is then undefined.
 */
bool app_gl_read_mapped(struct app_check *c, GLuint buffer, GLintptr offset,
			GLsizeiptr len, void *dst);

#ifndef APP_GLES
/* Same as app_gl_read_mapped, through glGetBufferSubData (no GLES equivalent). */
bool app_gl_read_subdata(struct app_check *c, GLuint buffer, GLintptr offset,
			 GLsizeiptr len, void *dst);
#endif

/*
 * Replaces the whole data store of buffer with size_bytes of APP_SENTINEL
 * words (size_bytes a multiple of 4), usage GL_STREAM_READ.  Returns false
 * (message printed) when out of memory or on a GL error.
 */
bool app_gl_buffer_sentinel(GLuint buffer, GLsizeiptr size_bytes);

/*
 * Draws count vertices of buffer as points into the bound draw framebuffer
 * and reads its w x h pixels back with glReadPixels (GL_RGBA,
 * GL_UNSIGNED_BYTE), so that a capture keeps them as golden data and
 * `xfbtrace replay --check` compares the replay's image with it (issue 22:
 * the programs draw their TF output).
 *
 * Vertex i's position is the vec4 at offset + i * stride; its point is
 * drawn one pixel wide at the centre of the pixel that the position's xy
 * times scale falls in, so that every conforming rasterizer lights that
 * pixel whatever its sub-pixel precision (window coordinates snap to a grid
 * of GL_SUBPIXEL_BITS, the implementation's, so a point nearer a pixel edge
 * than that step may light either pixel; the image then shows the TF data,
 * not the rasterizer's rounding), in a flat
 * colour made from i.  The framebuffer is cleared first; rasterizer
 * discard, depth test, blending and scissor are turned off and the
 * viewport set to w x h; no program or vertex array is bound afterwards.
 * Returns the number of pixels lit, or -1 (message printed, prefixed with
 * prog) on a GL error or when no pixel was lit.
 */
int app_gl_draw_points_image(const char *prog, GLuint buffer, GLintptr offset,
			     GLsizei stride, GLsizei count, float scale, int w, int h);

#endif
