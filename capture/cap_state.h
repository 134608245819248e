/*
 * cap_state.h - the capture library's process-wide state, its per-thread
 * state and its per-GL-context state, shared by the capture's .c files.
 *
 * The process-wide `cap_g` is the one hidden global the style allows for the
 * capture.  The hot path touches only the thread's own `cap_tls` (static
 * TLS, initial-exec) and two atomics of cap_g (state, next call number):
 * no lock and no system call per call.  Everything that needs the lock
 * (start, new threads, contexts, persistent maps) is rare.
 */
#ifndef CAP_STATE_H
#define CAP_STATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cap_call.h"
#include "cap_desc.h"
#include "trace_spool.h"

enum cap_run_state {
	CAP_OFF = 0,      /* not started yet: the next call starts it */
	CAP_ON = 1,       /* recording */
	CAP_STOPPED = 2,  /* internal failure or disabled: forward only */
};

struct cap_ctx;

struct cap_global {
	atomic_int state;              /* enum cap_run_state */
	atomic_uint_fast64_t next_seq; /* the next call number */
	atomic_uint next_thread;       /* the next thread number */
	atomic_uint gen;               /* bumped at every start: stale streams */
	pthread_mutex_t lock;          /* start, threads, contexts, shadows */
	struct trace_spool *spool;     /* NULL unless started */
	pthread_key_t thread_key;      /* closes a thread's stream at its exit */
	bool observe;                  /* XFBTRACE_OBSERVE != 0 */
	bool explicit_output;          /* XFBTRACE_OUTPUT was given */
	char stem[4096];               /* output path without ".xfbt" */
	char path[4096 + 64];          /* this process's trace (or the one it
				        * could not create), for reports */
	long root_pid;                 /* XFBTRACE_ROOT_PID: the process that
				        * writes XFBTRACE_OUTPUT itself; 0: any */
	struct cap_ctx *contexts;      /* list, under `lock` */
	atomic_int shadows;            /* number of persistent-map shadows */
	atomic_uint_fast64_t program_gen; /* bumped after every CAP_HOOK_PROGRAM
				       * call: cached TF layouts are stale */
	atomic_uint_fast64_t tf_state_gen; /* bumped after CAP_HOOK_TF_STATE and
					* TF-target CAP_HOOK_TF_TARGET_BINDING
					* calls: cached TF bindings are stale */
};

extern struct cap_global cap_g;

struct cap_thread {
	struct trace_spool_stream *stream; /* valid when gen == cap_g.gen */
	unsigned gen;                  /* generation of `stream` (0: none) */
	uint32_t thread_no;
	uint32_t depth;                /* wrapper nesting on this thread */
	bool announce;                 /* THREAD record still to be written */
	uint8_t *funcdef_seen;         /* CAP_F_COUNT bits */
	struct cap_ctx *ctx;           /* current context, NULL if none */
};

extern __thread struct cap_thread cap_tls __attribute__((tls_model("initial-exec")));

struct cap_ctx {
	uint64_t handle;               /* EGLContext / GLXContext */
	uint64_t display;
	uint64_t group;                /* share group: the handle of its first
				        * context (objects such as buffers are
				        * the group's) */
	bool destroyed;                /* eglDestroyContext / glXDestroyContext */
	bool gles;                     /* GLES (else desktop GL) */
	bool core;                     /* desktop core profile */
	int major, minor;              /* requested, then actual at first current */
	bool props_done;               /* gl.* properties written */
	bool cpu_renderer;             /* GL_RENDERER is a CPU rasterizer */
	uint32_t errq[8];              /* GL errors stashed for the app, FIFO */
	unsigned nerr;
	uint8_t binding_ext;           /* bit b: an extension gives binding b
					* below the version that made it core */
	bool ext_buffer_storage;       /* ARB_ / EXT_buffer_storage listed */
	bool ext_dsa;                  /* ARB_direct_state_access listed */
	bool ext_program_interface;    /* ARB_program_interface_query listed */
	bool ext_shader_writes;        /* an extension lets shaders write buffers */
	bool ext_gather;               /* obs_ctx.ext_gather's extensions listed */
	bool shared;                   /* its share group has another context */
	uint32_t client_attribs;       /* generic attribs given client pointers */
	uint32_t client_legacy;        /* legacy arrays given client pointers */
	struct obs_tf_cache *tf_cache; /* observations' memory (observe/obs.h),
				        * NULL until the first TF observation */
	struct obs_async *async;       /* asynchronous read-backs (observe/obs.h),
					* NULL until the first; used only by the
					* thread the context is current on */
	unsigned async_gen;            /* cap_g.gen `async` was made under: a
					* forked child drops the parent's */
	bool cond_render;              /* between glBeginConditionalRender* and
					* glEndConditionalRender* */
	/* How each buffer's data store was last made (obs_ctx.buffer_usage),
	 * by name: open addressing, 0 names a free slot; NULL until the first.
	 * Only kept where the asynchronous read-back may run. */
	struct cap_usage {
		uint32_t name, usage;
	} *usage;
	unsigned usage_cap, usage_n;
	struct cap_ctx *next;
};

/* cap_process.c: one line to `xfbtrace capture` (XFBTRACE_MANIFEST):
 * what = "trace" (created `path`) or "lost" (stopped: `reason`). */
void cap_process_report(const char *what, const char *path, const char *reason);

/* cap_state.c */
/* Starts capture or a thread's stream; false when not recording. */
bool cap_thread_begin(struct cap_thread *t);
/* Stops recording for good, printing one line; calls keep being forwarded. */
void cap_stop(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cap_record.c: records in the current thread's stream (NULL: stopped). */
uint8_t *cap_reserve(struct cap_thread *t, size_t max_payload);
void cap_commit(struct cap_thread *t, uint16_t type, uint16_t flags,
		uint64_t seq, size_t payload_bytes);
/* A MEMWRITE record for call `seq` (before its CALL). */
void cap_memwrite(struct cap_thread *t, uint64_t seq, const void *addr,
		  const void *data, size_t n, const char *why);
/* PROPERTY key = value, ordered before call `seq`. */
void cap_property(struct cap_thread *t, uint64_t seq, const char *key,
		  const char *value, size_t value_len);

/* cap_surface.c */
enum cap_config_kind { CAP_CONFIG_EGL, CAP_CONFIG_GLX_FB, CAP_CONFIG_GLX_VISUAL };
/* CONTEXT "config": the attributes of `config` (an EGLConfig, GLXFBConfig
 * or glXCreateContext's XVisualInfo *) of display `dpy`, asked from the
 * driver, attached to call `seq`.  Nothing for a zero config. */
void cap_surface_config(struct cap_thread *t, uint64_t seq, uint64_t dpy, uint64_t config,
			enum cap_config_kind kind);
/* After a call with a CAP_HOOK_SURFACE hook: CONTEXT "config" and
 * "surface" (the new surface's config and size). */
void cap_surface_post(struct cap_thread *t, struct cap_call *c);
/* The size of EGL surface / GLX drawable `surface` of display `dpy` as the
 * driver reports it now; false when it does not say (cap_surface.c). */
bool cap_surface_size(bool glx, uint64_t dpy, uint64_t surface, int64_t *w, int64_t *h);
/* At a GLX make-current of drawable `xid`: the first time a drawable that
 * no GLX call created (a plain X window) is made current, a CONTEXT
 * "surface" event with its size (XGetGeometry), attached to call `seq`. */
void cap_surface_glx_current(struct cap_thread *t, uint64_t seq, uint64_t dpy, uint64_t xid);
/* At an EGL make-current of `surface`: CONTEXT "surface" with its size
 * now (a window may have been resized), attached to call `seq`. */
void cap_surface_egl_current(struct cap_thread *t, uint64_t seq, uint64_t dpy, uint64_t surface);

/* cap_context.c */
/* After a call with a CAP_HOOK_PROGRAM / TF_STATE hook, or a
 * TF_TARGET_BINDING one that concerns TF (or was not recorded): what
 * observations cached of programs / TF state may be stale. */
void cap_ctx_tf_changed(unsigned hook);
/* After a call with a capture-only hook (CAP_HOOK_PROGRAM and after) that
 * was not recorded: what the hook keeps track of is updated all the same. */
void cap_ctx_post_unrecorded(struct cap_call *c, unsigned hook);
void cap_ctx_post(struct cap_thread *t, struct cap_call *c, unsigned hook);
/* Before a call with a hook, ahead of its CALL record: asynchronous
 * observations of a context about to leave the thread are read back. */
void cap_ctx_pre(struct cap_thread *t, struct cap_call *c, unsigned hook);
/* The binding's buffer name; 0 when nothing is bound or it cannot be queried. */
uint32_t cap_ctx_binding(struct cap_ctx *x, unsigned binding);
/* The buffer bound to `target` (a GL_*_BUFFER), 0 if none or unknown.
 * `accepted`: a call with `target` just succeeded (then no GL error
 * bracket is needed around the query). */
GLuint cap_ctx_bound_buffer(GLenum target, bool accepted);
/* Whether context `handle` is the last one not destroyed of its share
 * group; *group says which group. */
bool cap_ctx_last_of_group(uint64_t handle, uint64_t *group);
void cap_glerror_stash_ctx(struct cap_ctx *x);
void cap_glerror_drain_ctx(struct cap_ctx *x, const char *what);

/* cap_memory.c */
void cap_mem_pre(struct cap_thread *t, struct cap_call *c, unsigned hook);
void cap_mem_post(struct cap_thread *t, struct cap_call *c, unsigned hook);
/* A gl*Pointer call gave client memory for its array. */
void cap_mem_client_pointer(struct cap_ctx *x, unsigned fid, const union cap_arg *a);
/* Diff every persistent mapping and write MEMWRITE for what changed. */
void cap_mem_sync_persistent(struct cap_thread *t, uint64_t seq);

/* cap_size.c: bytes of IN/OUT memory, or SIZE_MAX with *why set. */
size_t cap_size(struct cap_ctx *x, const struct cap_pdesc *d,
		const union cap_arg *a, bool output, const char **why);
/* cap_size.c: chars of the CAP_LEN_LENSTRING string `s` (not NULL) that the
 * GL reads: the length argument, or strlen(s) when the rule says the
 * string is NUL-terminated. */
size_t cap_lenstring_chars(const struct cap_pdesc *d, const union cap_arg *a, const char *s);
/* Bytes of one index of GL type `type` (0 if not an index type). */
unsigned cap_index_bytes(uint32_t type);
/* Bytes of one vertex attribute element of GL type `type`, or 0. */
unsigned cap_type_bytes(uint32_t type);

#endif
