/*
 * obs.h - the observation core shared by the capture library and replay:
 * golden data read back from a GL driver after a call (TF buffer contents
 * with the program's TF layout, query results, data the application read
 * back), encoded as the MAP value of a TRACE_REC_OBSERVATION record.
 *
 * The record layouts are specified in docs/trace-format.md, "Observation
 * kinds".  Capture (capture/cap_observe.c) and replay (replay/replay_obs.c)
 * both call these functions, so that a replay's observations are
 * byte-identical to the capture's whenever the driver produced the same
 * data: that is what makes capture vs replay a like-for-like comparison.
 *
 * The core knows neither how GL entry points are found nor where records
 * go.  The caller passes a table of the GL functions it uses (struct
 * obs_gl), the current context's API and version, a record sink
 * (reserve/commit) and hooks for GL error hygiene and for names: the names
 * written are those the application saw, which in a replay differ from the
 * replay driver's (app_name translates them back).
 *
 * Contract of every obs_* entry point: it changes nothing the application
 * can see (bindings it touches are restored; pending errors are stashed
 * before its first GL call and errors it raises are drained after), and it
 * never fails loudly: when something cannot be read, it writes a record
 * saying why or writes nothing.
 */
#ifndef OBS_H
#define OBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The GL entry points the read-back calls.  The parameter types are the C
 * types of the GL typedefs on the LP64 targets we build for (GLenum and
 * GLuint = unsigned int, GLint and GLsizei = int, GLint64 = int64_t,
 * GLintptr and GLsizeiptr = long, GLboolean = unsigned char), so a GL
 * function pointer assigns to these members without a cast.
 */
struct obs_gl {
	void (*GetIntegerv)(unsigned pname, int *data);
	void (*GetIntegeri_v)(unsigned target, unsigned index, int *data);
	void (*GetInteger64i_v)(unsigned target, unsigned index, int64_t *data);
	unsigned (*GetError)(void);
	void (*GetProgramiv)(unsigned program, unsigned pname, int *params);
	void (*GetProgramPipelineiv)(unsigned pipeline, unsigned pname, int *params);
	void (*GetProgramInterfaceiv)(unsigned program, unsigned iface, unsigned pname,
				      int *params);
	void (*GetProgramResourceiv)(unsigned program, unsigned iface, unsigned index,
				     int prop_count, const unsigned *props, int count,
				     int *length, int *params);
	void (*GetTransformFeedbackVarying)(unsigned program, unsigned index, int buf_size,
					    int *length, int *size, unsigned *type, char *name);
	void (*BindBuffer)(unsigned target, unsigned buffer);
	void (*GetBufferParameteriv)(unsigned target, unsigned pname, int *params);
	void (*GetBufferParameteri64v)(unsigned target, unsigned pname, int64_t *params);
	void (*GetBufferSubData)(unsigned target, long offset, long size, void *data);
	void *(*MapBufferRange)(unsigned target, long offset, long length, unsigned access);
	unsigned char (*UnmapBuffer)(unsigned target);
	void (*GetQueryObjectui64v)(unsigned id, unsigned pname, uint64_t *params);
	/* Optional (NULL: a TF buffer the application keeps persistently
	 * mapped cannot be read on GLES, see obs_readback_into). */
	void (*GetBufferPointerv)(unsigned target, unsigned pname, void **params);
	void (*MemoryBarrier)(unsigned barriers);
	void (*Finish)(void);
	/* Optional: the asynchronous read-back (obs_async_usable says when it
	 * has what it needs).  GL 3.1 / GLES 3.0 copies, GL 3.2 / GLES 3.0
	 * fences; the named (DSA) forms, GL 4.5, are used when all four are
	 * there, so that no binding is touched at all. */
	void (*GenBuffers)(int n, unsigned *buffers);
	void (*DeleteBuffers)(int n, const unsigned *buffers);
	void (*BufferData)(unsigned target, long size, const void *data, unsigned usage);
	void (*CopyBufferSubData)(unsigned read_target, unsigned write_target, long read_offset,
				  long write_offset, long size);
	void *(*FenceSync)(unsigned condition, unsigned flags);
	unsigned (*ClientWaitSync)(void *sync, unsigned flags, uint64_t timeout);
	void (*DeleteSync)(void *sync);
	void (*CreateBuffers)(int n, unsigned *buffers);
	void (*NamedBufferData)(unsigned buffer, long size, const void *data, unsigned usage);
	void (*CopyNamedBufferSubData)(unsigned read_buffer, unsigned write_buffer, long read_offset,
				       long write_offset, long size);
	void (*GetNamedBufferSubData)(unsigned buffer, long offset, long size, void *data);
	/* Optional: whether a TF buffer is mapped, without a binding. */
	void (*GetNamedBufferParameteriv)(unsigned buffer, unsigned pname, int *params);
	/* Optional: the persistently mapped staging ring of the asynchronous
	 * read-back (GL 4.4 / ARB_buffer_storage: BufferStorage; GLES:
	 * EXT_buffer_storage's BufferStorageEXT). */
	void (*BufferStorage)(unsigned target, long size, const void *data, unsigned flags);
	void (*BufferStorageEXT)(unsigned target, long size, const void *data, unsigned flags);
	/* Optional: the colour buffer at a swap (obs_frame_read); GL 3.0 /
	 * GLES 3.0. */
	void (*ReadPixels)(int x, int y, int width, int height, unsigned format, unsigned type,
			   void *pixels);
	void (*PixelStorei)(unsigned pname, int param);
	void (*BindFramebuffer)(unsigned target, unsigned framebuffer);
	void (*ReadBuffer)(unsigned src);
	/* Optional: the size of the buffer glReadPixels read (GL 3.0 /
	 * GLES 3.0; a texture attachment only with GL 4.5's named query). */
	void (*GetFramebufferAttachmentParameteriv)(unsigned target, unsigned attachment,
						    unsigned pname, int *params);
	void (*GetRenderbufferParameteriv)(unsigned target, unsigned pname, int *params);
	void (*BindRenderbuffer)(unsigned target, unsigned renderbuffer);
	void (*GetTextureLevelParameteriv)(unsigned texture, int level, unsigned pname, int *params);
	/* Optional: the gather dispatch that makes the asynchronous
	 * read-back's deferred copies into the ring (obs_async.c; GL 4.3,
	 * GLES 3.1, or the extensions of obs_ctx.ext_gather). */
	unsigned (*CreateShader)(unsigned type);
	void (*ShaderSource)(unsigned shader, int count, const char *const *string,
			     const int *length);
	void (*CompileShader)(unsigned shader);
	void (*GetShaderiv)(unsigned shader, unsigned pname, int *params);
	void (*DeleteShader)(unsigned shader);
	unsigned (*CreateProgram)(void);
	void (*AttachShader)(unsigned program, unsigned shader);
	void (*LinkProgram)(unsigned program);
	void (*DeleteProgram)(unsigned program);
	unsigned (*GetProgramResourceIndex)(unsigned program, unsigned iface, const char *name);
	void (*ShaderStorageBlockBinding)(unsigned program, unsigned block, unsigned binding);
	int (*GetUniformLocation)(unsigned program, const char *name);
	void (*UseProgram)(unsigned program);
	void (*Uniform4uiv)(int location, int count, const unsigned *value);
	void (*BindBufferBase)(unsigned target, unsigned index, unsigned buffer);
	void (*BindBufferRange)(unsigned target, unsigned index, unsigned buffer, long offset,
				long size);
	void (*DispatchCompute)(unsigned x, unsigned y, unsigned z);
	/* Optional: uniform block layouts (obs_layout_read; GL 3.1 / GLES
	 * 3.0). */
	void (*GetActiveUniformBlockiv)(unsigned program, unsigned index, unsigned pname, int *params);
	void (*GetActiveUniformBlockName)(unsigned program, unsigned index, int buf_size, int *length,
					  char *name);
	void (*GetActiveUniformsiv)(unsigned program, int count, const unsigned *indices, unsigned pname,
				    int *params);
	void (*GetActiveUniform)(unsigned program, unsigned index, int buf_size, int *length, int *size,
				 unsigned *type, char *name);
	unsigned char (*IsProgram)(unsigned program);
};

/* Kinds of object name an observation writes (obs_ctx.app_name). */
enum obs_object {
	OBS_OBJ_BUFFER = 0,
	OBS_OBJ_PROGRAM,
	OBS_OBJ_QUERY,
};

/*
 * What obs_tf_end may keep between calls for one GL context, so that it
 * does not ask the driver again for what cannot have changed: the TF
 * layouts of the last programs it observed (valid while
 * obs_ctx.program_generation stays the same), the program TF captures
 * from and the bound TF buffer ranges (valid while
 * obs_ctx.tf_state_generation stays the same), and the context's number of
 * TF binding points.  Belongs
 * to one context; a context is current on one thread at a time, so no lock.
 */
struct obs_tf_cache;

/* A new, empty cache; NULL when out of memory (then pass none). */
struct obs_tf_cache *obs_tf_cache_create(void);
/* Frees the cache; NULL is a no-op. */
void obs_tf_cache_destroy(struct obs_tf_cache *cache);

/*
 * Where and how one observation is made.  Filled by the caller for each
 * call into the core; every callback gets `user`.
 */
struct obs_ctx {
	const struct obs_gl *gl;  /* every member non-NULL, except that the GL
				   * 4.x / GLES 3.1 ones may be NULL when the
				   * context's version lacks them */
	bool gles;                /* OpenGL ES context, else desktop GL */
	int major, minor;         /* the current context's actual version */
	/* The context's extension list names ARB_buffer_storage (desktop) or
	 * EXT_buffer_storage (GLES); ARB_direct_state_access.  What the
	 * asynchronous read-back uses below the versions that made them core
	 * (NVIDIA exposes both in a GL 3.3 context). */
	bool ext_buffer_storage, ext_dsa;
	/* The list names ARB_program_interface_query (desktop); one of
	 * ARB_shader_storage_buffer_object, ARB_shader_image_load_store,
	 * ARB_shader_atomic_counters (desktop): what tells, below GL 4.3,
	 * whether a draw may write buffers (obs_async_before_write). */
	bool ext_program_interface, ext_shader_writes;
	/* The list names ARB_compute_shader, ARB_shader_storage_buffer_object,
	 * ARB_program_interface_query, ARB_shader_image_load_store and
	 * ARB_transform_feedback2 (desktop): the gather dispatch below GL 4.3
	 * (NVIDIA exposes them in a GL 3.3 context). */
	bool ext_gather;
	/* The asynchronous read-back may defer its copies: the caller calls
	 * obs_async_before_write before every call that may write a buffer of
	 * this context.  False where writes happen that the caller cannot see
	 * (a context sharing the buffers, a buffer mapped persistently for
	 * writing): then TF ranges are copied at the TF end. */
	bool defer_copies;
	/* The asynchronous read-back times its steps (struct obs_async_stats). */
	bool timed;
	/* Room for a record payload of at most `max_payload` bytes, or NULL
	 * (then nothing is written).  One reservation at a time. */
	uint8_t *(*reserve)(void *user, size_t max_payload);
	/* Commits `n` bytes of the reservation as an OBSERVATION attached
	 * to call `seq`. */
	void (*commit)(void *user, uint64_t seq, size_t n);
	/* Puts pending GL errors of the application aside (they must reach
	 * it later); called before the core's first GL call. */
	void (*stash)(void *user);
	/* Consumes the errors the core's own GL calls raised; `what` names
	 * the read-back for a warning. */
	void (*drain)(void *user, const char *what);
	/* The name the application used for the object the driver calls
	 * `name`; NULL means the two are the same. */
	uint32_t (*app_name)(void *user, enum obs_object kind, uint32_t name);
	void *user;
	/* Optional (NULL: everything is asked of the driver at each call):
	 * the current context's cache, see struct obs_tf_cache. */
	struct obs_tf_cache *tf_cache;
	/* With tf_cache: a number the caller changes whenever any program
	 * in any context may have been linked (glLinkProgram,
	 * glProgramBinary, glCreateShaderProgramv), created or deleted, so
	 * that a program name may have a new TF layout.  A cached layout is
	 * used only while this number is the one it was read under. */
	uint64_t program_generation;
	/* With tf_cache: a number the caller changes whenever the program
	 * TF captures from (glUseProgram, program pipelines) or the indexed
	 * TF buffer bindings (glBindBufferBase / Range / Offset,
	 * glBindBuffers*, glBindTransformFeedback, glDeleteBuffers,
	 * glDeleteTransformFeedbacks, glTransformFeedbackBuffer*), the
	 * generic TRANSFORM_FEEDBACK_BUFFER binding (glBindBuffer with that
	 * target) or the size of any buffer (glBufferData, glBufferStorage
	 * and their named forms) may have changed.  While it stays the same, obs_tf_end uses the program and
	 * the bound ranges it last read in this context. */
	uint64_t tf_state_generation;
	/* The asynchronous read-back (obs_tf_end_async, obs_async_*); NULL
	 * for obs_tf_end and the other synchronous entry points.  `pending`
	 * writes, where the observations of call `seq` would be, that `count`
	 * records of `kind` will come later; `commit_late` commits `n` bytes
	 * of a reservation (the call the observation belongs to as a u64, then
	 * its MAP: a TRACE_REC_OBS_LATE payload) read back during call `at`.
	 * Both must order after every record of call `seq` and of the calls
	 * before `at` in the calling thread (docs/trace-format.md, "Late
	 * observations"). */
	void (*pending)(void *user, uint64_t seq, const char *kind, uint32_t count);
	void (*commit_late)(void *user, uint64_t at, size_t n);
};

/*
 * The layout the driver chose for each active uniform block of `program`
 * (docs/trace-format.md, LAYOUT), asked with glGetActiveUniformBlockiv /
 * glGetActiveUniformsiv; heap-allocated into *out (obs_layout_free).
 * False, *out empty, when the context has no uniform blocks (below GL 3.1 /
 * GLES 3.0, or the functions are missing), the program did not link, or
 * memory ran out.  Changes no state; the application's pending GL errors
 * are stashed and the queries' own drained (obs_ctx.stash / drain).
 * `app_program` is the name the record carries.
 */
struct trace_layout;
bool obs_layout_read(const struct obs_ctx *c, uint32_t program, uint32_t app_program, struct trace_layout *out);
void obs_layout_free(struct trace_layout *l);
/* Bytes obs_layout_encode writes at most, and the record's MAP value. */
size_t obs_layout_bound(const struct trace_layout *l);
uint8_t *obs_layout_encode(const struct trace_layout *l, uint8_t *p);

/* After glEndTransformFeedback (paused false) or glPauseTransformFeedback
 * (paused true): one tf_buffer record per TF binding point with a buffer. */
void obs_tf_end(const struct obs_ctx *c, uint64_t seq, bool paused);

/*
 * After glGetQueryObject{i,ui,i64,ui64}v[EXT|ARB] (`func` names it) of query
 * `id` with `pname`: a query record when pname is GL_QUERY_RESULT.
 * `params` holds the application's result (elem_bytes 4 or 8), or is NULL
 * when the result went to a query buffer (then it is read again).  `id` is
 * the driver's name of the query.
 */
void obs_query(const struct obs_ctx *c, uint64_t seq, const char *func, uint32_t id,
	       uint32_t pname, const void *params, size_t elem_bytes);

/* After glGetBufferSubData / glGetNamedBufferSubData: the `size` bytes at
 * `data` the application got from `buffer` (driver's name) at `offset`. */
void obs_buffer_read(const struct obs_ctx *c, uint64_t seq, uint32_t buffer, int64_t offset,
		     int64_t size, const void *data);

/* After a mapping of `buffer` with GL_MAP_READ_BIT in `access` (GL_MAP_*
 * form): the `length` bytes at `ptr` visible through it.  Nothing is
 * written for a mapping without READ access. */
void obs_map(const struct obs_ctx *c, uint64_t seq, uint32_t buffer, int64_t offset,
	     int64_t length, uint32_t access, const void *ptr);

/*
 * After glReadPixels / glReadnPixels* (`func` names it) with the call's
 * x, y, width, height, format and type: a `pixels` record of what the GL
 * wrote, read at `pixels` (the application's memory) or, when `pixels` is
 * NULL, from the bound pixel pack buffer at `pack_offset` (obs_pixels.c).
 * `pixels_bytes` bounds the memory at `pixels` (SIZE_MAX: what the GL
 * wrote, as the capture sees it); a span beyond it writes nothing.
 * With a framebuffer object bound for reading, the size of its read
 * attachment is asked and recorded (`read_size`): pixels outside it are
 * undefined (GL 4.6 §18.2.8).  The default framebuffer's size is not
 * recorded: the window system's answer at the call is not reliable
 * (ANGLE's EGL over GLX says 0 x 0), and capture and replay must agree.
 * Nothing is written for an empty or unknown format / type.
 */
void obs_read_pixels(const struct obs_ctx *c, uint64_t seq, const char *func, int32_t x,
		     int32_t y, int32_t width, int32_t height, uint32_t format, uint32_t type,
		     const void *pixels, size_t pixels_bytes, uint64_t pack_offset);

/*
 * Before a swap (`xfbtrace capture --frames`): the back buffer of the
 * default framebuffer, `width` x `height` pixels as GL_RGBA /
 * GL_UNSIGNED_BYTE, read into a new heap buffer, with every binding and
 * pack state it changes restored; NULL when it cannot be read (no
 * ReadPixels / ReadBuffer, a GLES 2 context, an error).  After the swap,
 * obs_frame_commit writes it as the `pixels` record of frame `frame`
 * (from "swap") attached to call `seq` and frees it (obs_pixels.c).
 */
uint8_t *obs_frame_read(const struct obs_ctx *c, int32_t width, int32_t height);
void obs_frame_commit(const struct obs_ctx *c, uint64_t seq, const char *func, uint64_t frame,
		      int32_t width, int32_t height, uint8_t *data);

/* ---- asynchronous read-back (obs_async.c; issue 23) ----------------------
 *
 * Reading a TF buffer back at glEndTransformFeedback makes the CPU wait for
 * everything the GPU has queued.  Instead, the bound ranges are copied on
 * the GPU into staging buffers owned by the observer, a fence is put after
 * every few copies and at each frame's end, and the copies are read when
 * their fence has signalled (obs_async_poll), at a synchronisation point
 * of the application, or when too many are in flight.  The records are the bytes obs_tf_end would have
 * written; they are committed through obs_ctx.commit_late after an
 * obs_ctx.pending announcement at the call.  Nothing the application can see
 * changes: with the named (GL 4.5 / ARB_direct_state_access) functions no
 * binding is touched, else
 * COPY_READ_BUFFER and COPY_WRITE_BUFFER are saved and restored; GL errors
 * are stashed and drained as everywhere else.
 *
 * The copies are deferred (obs_async.c says why): made in a batch before a
 * call that may write one of the buffers (obs_async_before_write), when a
 * fence is due, or before a read-back; at the TF end where obs_ctx says
 * writes may come unannounced.
 *
 * Where the context has buffer storage (obs_ctx.ext_buffer_storage, GL
 * 4.4) the staging memory is one ring mapped once, persistently and
 * coherently, and a copy that has arrived is read with memcpy.
 *
 * One struct obs_async per GL context, used only by the thread the context
 * is current on, with that context current.  Its staging buffers and fences
 * are objects of that context (names the application never sees; an
 * application that binds names it did not generate, which compatibility
 * profiles allow, could collide with them).
 */
struct obs_async;

/* A new queue; NULL when out of memory (then observe synchronously). */
struct obs_async *obs_async_create(void);
/* Frees the queue's memory without a GL call (its context may be gone):
 * what is in flight is dropped.  NULL is a no-op. */
void obs_async_destroy(struct obs_async *q);
/* Whether the context has what the asynchronous read-back needs. */
bool obs_async_usable(const struct obs_ctx *c);
/* Read-backs in flight. */
unsigned obs_async_pending(const struct obs_async *q);

/* What a queue did so far (for XFBTRACE_LOG=info at exit). */
struct obs_async_stats {
	uint64_t staged;      /* calls whose TF ranges were copied */
	uint64_t in_ring;     /* of them, into the persistently mapped ring */
	uint64_t at_call;     /* calls read at the call: the copy failed */
	uint64_t signalled;   /* copies read after their fence had signalled */
	uint64_t waited;      /* copies read without (glFinish, a context
			       * leaving its thread, a bound reached, frames) */
	uint64_t deferred;    /* calls whose copies were deferred */
	uint64_t batches;     /* batches the deferred copies were made in */
	uint64_t before_write; /* of them, before a call that may write */
	uint64_t gathered;    /* of them, made by gather dispatches */
	uint64_t dispatches;  /* the gather dispatches */
	uint64_t not_gathered; /* batches in the ring copied instead: the
				* gather could not run then (TF active and
				* not paused, a program flagged for deletion
				* current, a range it cannot take) */
	/* With obs_ctx.timed: ns of CPU time (wall clock) spent in the TF end
	 * observations, in the copies, fences, fence polls, waits, read-backs
	 * and the checks before calls that may write. */
	uint64_t tf_ns, copy_ns, fence_ns, poll_ns, wait_ns, read_ns, check_ns;
	/* Of tf_ns: the TF state (program, bindings), the buffers' sizes and
	 * mapped states, and the staging entry with its records' heads. */
	uint64_t tf_state_ns, tf_size_ns, tf_stage_ns;
};
/* Adds q's counts to *sum; NULL q adds nothing. */
void obs_async_stats_add(const struct obs_async *q, struct obs_async_stats *sum);
/* With c->timed, the monotonic clock in ns (else 0), and the ns since
 * `start` added to the TF end time of q's stats. */
uint64_t obs_async_clock(const struct obs_ctx *c);
void obs_async_tf_timed(const struct obs_ctx *c, struct obs_async *q, uint64_t start);
/* With c->timed, the ns since `start` added to a part of the TF end time. */
enum obs_tf_part { OBS_TF_STATE, OBS_TF_SIZES, OBS_TF_STAGE };
void obs_async_part_timed(const struct obs_ctx *c, struct obs_async *q, enum obs_tf_part part,
			  uint64_t start);

/*
 * As obs_tf_end, with the bytes copied on the GPU and read back later.
 * Falls back to obs_tf_end's read-back at the call (same records) when the
 * copies raised an error (a buffer the application has mapped, say), and
 * writes nothing where obs_tf_end writes nothing.  Then polls the queue
 * (obs_async_poll).  `c` must have pending and commit_late.
 */
void obs_tf_end_async(const struct obs_ctx *c, struct obs_async *q, uint64_t seq, bool paused);

/*
 * As obs_query; a result that went to a query buffer (params NULL), which
 * obs_query asks for again and waits for, is instead written by the GL
 * into a staging buffer (bound as the query buffer for that one call) and
 * read back later, as obs_tf_end_async does.
 */
void obs_query_async(const struct obs_ctx *c, struct obs_async *q, uint64_t seq, const char *func,
		     uint32_t id, uint32_t pname, const void *params, size_t elem_bytes);

/* Read-backs whose copies are deferred (not made yet). */
unsigned obs_async_deferred(const struct obs_async *q);

/* What a call about to run may write (obs_async_before_write). */
enum obs_write {
	OBS_WRITE_BUFFERS,  /* the `n` buffers at `buffers` (0s ignored) */
	OBS_WRITE_TF,       /* the buffers bound to the TF binding points */
	OBS_WRITE_PROGRAM,  /* whatever the current program's shaders may
			     * write: shader storage blocks, atomic counter
			     * buffers, images (a buffer texture's buffer) */
	OBS_WRITE_ANY,      /* any buffer (a fence or flush of the
			     * application, after which another context may
			     * write) */
};
/*
 * Called before call `seq`, which may write what `kind` says: when a
 * deferred copy reads one of those buffers, every deferred copy is made
 * now, in one batch, so that the copies read the bytes the TF
 * pass wrote.  A program whose writes cannot be known (a program pipeline,
 * an interface the context cannot be asked about) counts as writing every
 * buffer.  With nothing deferred it makes no GL call and `c` may be NULL.
 */
void obs_async_before_write(const struct obs_ctx *c, struct obs_async *q, uint64_t seq,
			    enum obs_write kind, const uint32_t *buffers, size_t n);

enum obs_async_when {
	OBS_ASYNC_POLL,    /* read back what has arrived (fences polled, no wait) */
	OBS_ASYNC_WAITED,  /* the application waited for the GPU (a map, a
			    * query result): as POLL, after a fence for the
			    * copies that have none yet */
	OBS_ASYNC_FRAME,   /* a frame ended: poll, and read back what is two
			    * frames old, waiting if need be */
	OBS_ASYNC_ALL,     /* read back everything now, waiting if need be
			    * (glFinish, the context about to be released) */
};
/* Reads back, during call `at`, what `when` says; records go through
 * obs_ctx.commit_late.  With nothing in flight it makes no GL call and
 * `c` may be NULL. */
void obs_async_poll(const struct obs_ctx *c, struct obs_async *q, uint64_t at,
		    enum obs_async_when when);

#endif
