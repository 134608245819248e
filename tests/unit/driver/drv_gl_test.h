/*
 * drv_gl_test.h - what the C tests that drive the sim driver through its
 * GL entry points (drv_get_proc_address) share: the screen, contexts, the
 * GL(name) shorthand typed from the GL prototypes, shaders and programs.
 * Each test file includes it once and creates dgl_screen in main() with
 * dgl_screen_create, which hands the driver the simulated GPU the way the
 * sim backend does (gm_create, then winsys/ws_gm.h).
 */
#ifndef DRV_GL_TEST_H
#define DRV_GL_TEST_H

#include <stdbool.h>

#define GL_GLEXT_PROTOTYPES  /* declarations only: calls go through drv_get_proc_address */
#include <GL/glcorearb.h>

#include "drv.h"
#include "gm.h"
#include "ws_gm.h"

/* The sim driver's entry point `name`, typed as the GL prototype. */
#define GL(name) ((__typeof__(&name))drv_get_proc_address(#name))
/* An entry point without a core prototype (suffixed, compatibility), as `type`. */
#define PROC(type, name) ((type)drv_get_proc_address(name))

static struct drv_screen *dgl_screen;
static struct gm *dgl_gm;             /* the GPU behind dgl_screen */
static struct drv_winsys *dgl_ws;

/* A simulated GPU, a winsys over it and a driver screen on that (as
 * replay/replay_sim.c creates them). */
static inline enum xt_rc dgl_screen_create(struct xt_err *err)
{
	enum xt_rc rc = gm_create(NULL, &dgl_gm);
	if (rc == XT_OK)
		rc = ws_gm_create(dgl_gm, &dgl_ws);
	if (rc == XT_OK)
		rc = drv_screen_create(dgl_ws, &dgl_screen, err);
	return rc;
}

static inline void dgl_screen_destroy(void)
{
	drv_screen_destroy(dgl_screen);
	ws_gm_destroy(dgl_ws);
	gm_destroy(dgl_gm);
}

/* A desktop context of the version (core or compatibility), made current;
 * NULL when the driver refuses it. */
static inline struct drv_context *dgl_context(int major, int minor, bool core)
{
	struct drv_context_desc d = { .major = major, .minor = minor, .core = core };
	struct drv_context *ctx = NULL;
	struct xt_err err = { 0 };
	if (drv_context_create(dgl_screen, &d, &ctx, &err) != XT_OK)
		return NULL;
	drv_context_make_current(ctx);
	return ctx;
}

static inline void dgl_done(struct drv_context *ctx)
{
	drv_context_make_current(NULL);
	drv_context_destroy(ctx);
}

/* Ends a test's context after checking that the test left no GL error and
 * that the sim replayed every call faithfully (xt_test.h's CHECKs). */
#define dgl_done_clean(ctx)                                                    \
	do {                                                                   \
		CHECK_EQ_INT(GL(glGetError)(), GL_NO_ERROR);                   \
		CHECK(!drv_context_take_unsupported(ctx));                     \
		dgl_done(ctx);                                                 \
	} while (0)

static inline GLuint dgl_shader(GLenum type, const char *src)
{
	GLuint s = GL(glCreateShader)(type);
	GL(glShaderSource)(s, 1, &src, NULL);
	GL(glCompileShader)(s);
	return s;
}

/* A linked program of a vertex and an optional geometry shader capturing
 * `varyings` interleaved (n may be 0); 0 when it does not link. */
static inline GLuint dgl_program(const char *vs, const char *gs, const char *const *varyings, int n)
{
	GLuint p = GL(glCreateProgram)();
	GLint ok = 0;
	GL(glAttachShader)(p, dgl_shader(GL_VERTEX_SHADER, vs));
	if (gs)
		GL(glAttachShader)(p, dgl_shader(GL_GEOMETRY_SHADER, gs));
	if (n)
		GL(glTransformFeedbackVaryings)(p, n, varyings, GL_INTERLEAVED_ATTRIBS);
	GL(glLinkProgram)(p);
	GL(glGetProgramiv)(p, GL_LINK_STATUS, &ok);
	return ok ? p : 0;
}

#endif
