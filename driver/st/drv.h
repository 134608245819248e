/*
 * drv.h - the sim driver's public interface: a GL implementation (state
 * tracker, shader compiler, PM4 emitter modelled on radeonsi) on top of a
 * GPU it is handed as a winsys (drv_winsys.h; the sim backend hands it the
 * simulated GPU through winsys/ws_gm.h), as `xfbtrace replay --backend sim`
 * and the tests use it.
 *
 * How GL calls reach the driver.  Like a real GL library, the driver
 * exports GL entry points with the exact C signatures of the Khronos
 * registry (glBufferData(GLenum, GLsizeiptr, const void *, GLenum) ...),
 * found by name with drv_get_proc_address(), and acting on the context made
 * current on the calling thread with drv_context_make_current().  That is
 * the one piece of hidden state in the driver, and it is the GL binding
 * model itself (Mesa's GET_CURRENT_CONTEXT).  A caller that can call a GL
 * (the replay's generated thunks, a test) can call the driver.
 *
 * The driver talks to the GPU only through that winsys (buffer objects in
 * GPU memory, command buffers submitted as indirect buffers); every GL
 * buffer object lives in a winsys BO.
 *
 * What the driver cannot do is never done silently wrong: the call that
 * needs it records why (drv_context_take_unsupported) and does nothing,
 * or as much as is right.
 *
 * Per-call artefacts (for `xfbtrace replay --backend sim` and `xfbtrace
 * pm4 / regs`): between drv_context_call_begin() and drv_context_call_end()
 * the driver collects every PM4 dword it submitted; after call_end the
 * register file of the GPU can be read from the GPU behind the winsys.
 *
 * Deterministic: the same calls with the same arguments give the same PM4,
 * GPU memory and registers, given a deterministic winsys (gpu_model's VAs
 * come from a bump allocator); object names are handed out in order; no
 * pointers or times reach the GPU.
 */
#ifndef DRV_H
#define DRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xt_buf.h"
#include "xt_rc.h"

struct drv_screen;
struct drv_context;
struct drv_winsys;

/* Creates a screen: the driver's state for one GPU, reached through `ws`
 * (borrowed: it must outlive the screen). */
enum xt_rc drv_screen_create(struct drv_winsys *ws, struct drv_screen **out, struct xt_err *err);
/* Frees the screen (not the winsys); every context must be destroyed
 * first.  NULL is a no-op. */
void drv_screen_destroy(struct drv_screen *screen);

struct drv_context_desc {
	bool gles;                    /* OpenGL ES, else desktop GL */
	int major, minor;             /* requested version */
	bool core;                    /* desktop: core profile (3.2+) */
	struct drv_context *share;    /* share buffers / programs with it, or NULL */
};

/*
 * Creates a context.  Versions up to GL 4.6 and GLES 3.2 are accepted;
 * a higher request is XT_ERR_UNSUPPORTED.  The context's version is the
 * one requested (drv_context_version).
 */
enum xt_rc drv_context_create(struct drv_screen *screen, const struct drv_context_desc *desc,
			      struct drv_context **out, struct xt_err *err);
/* Destroys a context (not current anywhere).  NULL is a no-op. */
void drv_context_destroy(struct drv_context *ctx);
/* Makes `ctx` (or none, NULL) current on the calling thread. */
void drv_context_make_current(struct drv_context *ctx);
/* The version the context reports (GL_MAJOR_VERSION / GL_MINOR_VERSION). */
void drv_context_version(const struct drv_context *ctx, bool *gles, int *major, int *minor);

/* A GL entry point by registry name ("glDrawArrays", also the ARB / EXT /
 * OES aliases of core functions), or NULL when the driver has none. */
void (*drv_get_proc_address(const char *name))(void);

/*
 * Why the last GL call on `ctx` could not be executed faithfully (a
 * feature the sim does not model, named), or NULL.  Taking it clears it.
 * The string is static.
 */
const char *drv_context_take_unsupported(struct drv_context *ctx);

/*
 * The layouts the capturing GL chose for the uniform blocks of a program
 * (a trace's LAYOUT record, docs/trace-format.md), for the links that the
 * next call on `ctx` makes (glLinkProgram, glProgramBinary,
 * glCreateShaderProgramv): blocks the source declares `shared` or
 * `packed`, whose layout is implementation-dependent (GLSL 4.60 §4.4.5),
 * are laid out as recorded; std140 / std430 blocks as GL defines them.
 * Borrowed until the next call of this function; (NULL, 0, false) before
 * a call whose program has no record (an older trace): the driver lays
 * shared / packed blocks out as std140 then.  What a link could not honour
 * or had no record for goes to drv_context_take_layout_notes.
 */
struct drv_recorded_member {
	const char *name;             /* "Block.member", "member[0]" ... as GL names it */
	uint32_t offset, array_stride, matrix_stride;
	bool row_major;
};
struct drv_recorded_block {
	const char *name;
	uint32_t data_size;           /* GL_UNIFORM_BLOCK_DATA_SIZE */
	const struct drv_recorded_member *members;
	unsigned n_members;
};
void drv_context_set_block_layouts(struct drv_context *ctx, const struct drv_recorded_block *blocks,
				   unsigned n, bool recorded);
/* Appends the notes of the links since the last take (one line per block
 * not laid out as its capturing driver did, naming it and why) to `out`;
 * false when there were none. */
bool drv_context_take_layout_notes(struct drv_context *ctx, struct xt_buf *out);

/* --- per-call artefacts ------------------------------------------------------ */

/* Starts collecting the PM4 of one GL call. */
void drv_context_call_begin(struct drv_context *ctx);
/*
 * Ends the call: submits what is pending, and returns the PM4 dwords the
 * call submitted (borrowed, valid until the next call_begin; *n_dw may be
 * 0) and whether the call drew or changed TF / query state (the calls whose
 * register state is worth a snapshot).
 */
void drv_context_call_end(struct drv_context *ctx, const uint32_t **pm4, uint32_t *n_dw,
			  bool *state_call);

/*
 * The program object `program` of ctx's share group as shader binaries:
 * a dump of every hardware stage (drv_program_disasm) appended to `out`.
 * XT_ERR_NOT_FOUND when it is not a linked program.
 */
enum xt_rc drv_context_program_dump(struct drv_context *ctx, uint32_t program,
				    struct xt_buf *out);
/*
 * The window-system framebuffer `ctx` draws into and reads from (the
 * drawable made current with it): its size in pixels and its config's
 * buffer sizes in bits.  A colour buffer of at most 8 bits a channel is
 * RGBA8 (alpha reading 1 without alpha bits); depth 16 / 24 / 32 bits,
 * with or without 8 stencil bits.  A new size or config gives the
 * context new buffers (undefined contents, zero here); the same keeps
 * them.  Before the first call the context has no window-system buffers:
 * clearing or reading them does nothing and is reported.
 */
struct drv_window {
	uint32_t width, height;
	int red, green, blue, alpha, depth, stencil, samples;
};
void drv_context_set_window(struct drv_context *ctx, const struct drv_window *w);

/*
 * What `ctx` did to colour buffers since the last take, for a replay that
 * checks where the GPU rasterized lines (GL 4.6 §14.5.1): the GPU
 * addresses of the colour buffers it cleared whole (every pixel and
 * component), `more_cleared` when there were more than listed, and of the
 * colour buffer it last read pixels from (0: none).
 */
#define DRV_CLEARED_MAX 16
#define DRV_LOOSE_MAX 64
struct drv_surface_events {
	uint64_t cleared[DRV_CLEARED_MAX];
	unsigned ncleared;
	bool more_cleared;
	uint64_t read;
	/* rectangles x0 <= x < x1, y0 <= y < y1 of colour buffers (GPU
	 * address) that a blit wrote with values GL leaves undefined (read
	 * from outside the read framebuffer) or implementation-dependent (a
	 * multisample resolve), GL 4.6 §18.3.1; more_loose: more than listed */
	struct drv_loose {
		uint64_t va;
		int32_t x0, y0, x1, y1;
		bool undefined;
	} loose[DRV_LOOSE_MAX];
	unsigned nloose;
	bool more_loose;
	/* unscaled blits and copies: the rectangle x0 .. x1, y0 .. y1 of colour
	 * buffer dst_va got src_va's pixels, window x -> mx * x + ox, y -> my *
	 * y + oy (mx, my: 1, or -1 mirrored); what the replay knows of the
	 * source's pixels goes with them.  more_copies: more than listed. */
	struct drv_copy {
		uint64_t src_va, dst_va;
		int32_t x0, y0, x1, y1;
		int32_t mx, my, ox, oy;
	} copies[DRV_LOOSE_MAX];
	unsigned ncopies;
	bool more_copies;
};
void drv_context_take_surface_events(struct drv_context *ctx, struct drv_surface_events *out);

/* The program the last draw used (0 if none), for artefact collection. */
uint32_t drv_context_last_draw_program(const struct drv_context *ctx);

#endif
