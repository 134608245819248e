/*
 * cap_observe.h - hook points for observations (cap_observe.c) and the
 * services the capture offers them.
 *
 * Observations are golden data read back from the real driver at the
 * moment of capture (TF buffer contents, query results, data the
 * application read back) and written as TRACE_REC_OBSERVATION records
 * (trace_format.h) attached to the call they follow.
 *
 * Every cap_observe_* hook is called by the wrapper of the named functions
 * on the calling thread, AFTER the real function returned and after the
 * call's RET record, only while recording, only when observations are
 * enabled (XFBTRACE_OBSERVE is not "0") and only for the outermost wrapper.
 * `seq` is the call's number: attach records with
 * cap_rec_commit(TRACE_REC_OBSERVATION, TRACE_RECF_ATTACHED, seq, n).
 *
 * Rules for hook code: call the API only through CAP_REAL() (cap_gl.h);
 * call cap_glerror_stash() before any GL call that might raise an error
 * and cap_glerror_drain(what) after, so the application never sees (or
 * loses) an error because of us; restore any state changed (bindings,
 * pixel store).  A hook must not fail loudly: on trouble, write nothing.
 */
#ifndef CAP_OBSERVE_H
#define CAP_OBSERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cap_gl.h"

/* ---- hooks (implemented in cap_observe.c) ------------------------------ */

/* After glEndTransformFeedback (paused_not_ended false) or
 * glPauseTransformFeedback (true). */
void cap_observe_tf_end(uint64_t seq, bool paused_not_ended);

/*
 * After glGetQueryObject{i,ui,i64,ui64}v[EXT|ARB] (func names it) with the
 * query `id`, `pname` and the application's `params` (elem_bytes 4 or 8),
 * or after glGetQueryBufferObject*v (id is the query, params NULL: the
 * result went to a buffer).  When a query buffer was bound, params is NULL.
 */
/* After a link that may have succeeded (glLinkProgram, glProgramBinary,
 * glCreateShaderProgramv): the LAYOUT record of `program`'s uniform blocks
 * (docs/trace-format.md), attached to call `seq`; nothing when it did not
 * link or the context has no uniform blocks. */
void cap_observe_link(uint64_t seq, GLuint program);
void cap_observe_query(uint64_t seq, const char *func, GLuint id,
		       GLenum pname, const void *params, size_t elem_bytes);

/* After glGetBufferSubData / glGetNamedBufferSubData: `size` bytes the
 * application read from `buffer` at `offset` (buffer is the name bound to
 * the target for the non-named form, 0 if it could not be queried). */
void cap_observe_buffer_read(uint64_t seq, GLuint buffer, int64_t offset,
			     int64_t size, const void *data);

/* After glMapBuffer* / glMapNamedBuffer* returned a mapping with READ
 * access (`ptr` non-NULL); glMapBuffer's access is translated to the
 * GL_MAP_*_BIT form. */
void cap_observe_map(uint64_t seq, GLuint buffer, int64_t offset,
		     int64_t length, GLbitfield access, const void *ptr);

/*
 * Before a call that may write a buffer (`writes`, an enum cap_write of
 * cap_desc.h, with argument `arg` of `a`): TF ranges whose copies the
 * asynchronous read-back deferred are copied now when the call may write
 * their buffers.  Cheap when nothing is deferred.
 */
union cap_arg;
void cap_observe_before_write(uint64_t seq, unsigned writes, int arg, const union cap_arg *a);
/* After glReadPixels / glReadnPixels* (func names it) with its x, y,
 * width, height, format and type: `pixels` is the application's memory
 * the GL wrote (at most `pixels_bytes`: glReadn*'s bufSize, else
 * SIZE_MAX), or NULL when a pixel pack buffer took the pixels at
 * `pack_offset`. */
void cap_observe_read_pixels(uint64_t seq, const char *func, GLint x, GLint y, GLsizei width,
			     GLsizei height, GLenum format, GLenum type, const void *pixels,
			     size_t pixels_bytes, uint64_t pack_offset);

/* The observation core's view of the calling thread's current context
 * (observe/obs.h), for observations made outside this file
 * (cap_frames.c); false when observations are off or no context is
 * current. */
struct obs_ctx;
struct obs_gl;
bool cap_observe_context(struct obs_ctx *c, struct obs_gl *scratch);

/* Before and after a swap (eglSwapBuffers*, glXSwapBuffers; `ok`: it
 * succeeded): the colour buffer as a `pixels` observation of the swap,
 * for the frames XFBTRACE_FRAMES asks for (cap_frames.c). */
struct cap_call;
void cap_frames_pre(struct cap_call *c);
void cap_frames_post(struct cap_call *c, bool ok);

enum cap_sync {
	CAP_SYNC_POLL,   /* the application synchronises with part of the GPU's
			  * work (a map, glGetBufferSubData, glClientWaitSync):
			  * read back what has arrived */
	CAP_SYNC_FRAME,  /* a frame ended (swap): also what is two frames old */
	CAP_SYNC_ALL,    /* everything, now (glFinish; the context is about to
			  * leave the thread or be destroyed; exit) */
};
/* Reads back, during call `seq`, asynchronous observations of the calling
 * thread's current context that are in flight, as `when` says.  Called
 * after the call's own records; CAP_SYNC_ALL also before a call that
 * changes or destroys the current context (the context is still current). */
void cap_observe_sync(uint64_t seq, enum cap_sync when);

/* ---- services (implemented by the capture) ----------------------------- */

/*
 * Room for a record payload of at most `max_payload` bytes in the calling
 * thread's stream, or NULL when not recording (then skip the record).
 * Encode with trace_enc.h, then cap_rec_commit() with the bytes used.
 * One reservation at a time per thread.
 */
uint8_t *cap_rec_reserve(size_t max_payload);
void cap_rec_commit(uint16_t type, uint16_t flags, uint64_t seq, size_t n);

/* Whether observations are enabled (XFBTRACE_OBSERVE). */
bool cap_observe_enabled(void);
/* How TF buffers are read back (XFBTRACE_OBSERVE "sync", "async", else
 * auto: async unless the renderer runs on the CPU); cap_observe.c. */
enum cap_observe_mode {
	CAP_OBSERVE_AUTO,
	CAP_OBSERVE_ASYNC,
	CAP_OBSERVE_SYNC,
};
enum cap_observe_mode cap_observe_mode(void);

struct cap_ctx_info {
	bool gles;       /* OpenGL ES, else desktop GL */
	bool core;       /* desktop core profile */
	int major;       /* context version (actual once made current) */
	int minor;
	bool cpu_renderer; /* GL_RENDERER names a renderer that runs on the
			    * CPU (llvmpipe, softpipe, swrast) */
	bool ext_buffer_storage; /* ARB_buffer_storage (GL) / EXT_buffer_storage
				  * (GLES) in the extension list */
	bool ext_dsa;            /* ARB_direct_state_access in the list */
	bool ext_program_interface; /* ARB_program_interface_query in the list */
	bool ext_shader_writes;  /* ARB_shader_storage_buffer_object, _image_load_store
				  * or _atomic_counters in the list */
	bool ext_gather;         /* what the gather dispatch needs below GL 4.3
				  * (obs_ctx.ext_gather) in the list */
	bool shared;             /* another context shares its objects */
};

/* The calling thread's current context; false if none is known. */
bool cap_current_ctx(struct cap_ctx_info *out);

struct obs_tf_cache;
/* The current context's TF observation cache (observe/obs.h), created at
 * the first call; NULL when no context is current or out of memory. */
struct obs_tf_cache *cap_ctx_tf_cache(void);
struct obs_async;
/* The current context's asynchronous read-back queue (observe/obs.h),
 * created at the first call; NULL when no context is current or out of
 * memory. */
struct obs_async *cap_ctx_async(void);
/* The same, or NULL when the context has none yet (nothing in flight). */
struct obs_async *cap_ctx_async_if_any(void);
/* Changes after every call that may give a program a new TF layout
 * (CAP_HOOK_PROGRAM), in any thread. */
uint64_t cap_program_generation(void);
/* Changes after every call that may change the program TF captures from
 * or the indexed TF buffer bindings (CAP_HOOK_TF_STATE,
 * CAP_HOOK_TF_TARGET_BINDING), in any thread. */
uint64_t cap_tf_state_generation(void);

/* Moves pending real GL errors into the context's queue for the app. */
void cap_glerror_stash(void);
/* Drains errors our own GL calls raised; warns once, naming `what`. */
void cap_glerror_drain(const char *what);

#endif
