/*
 * replay_host.h - the state the host backend's files share: EGL objects
 * (replay_egl.c), argument conversion (replay_args.c), observations and
 * returned values (replay_obs.c), execution (replay_host.c).
 *
 * One replay thread runs every recorded thread's calls.  Each recorded
 * thread has the context (and surfaces) the trace says it made current;
 * before a GL call, host_make_current() makes that context current on the
 * replay thread, so the global recorded order is kept across threads.
 */
#ifndef REPLAY_HOST_H
#define REPLAY_HOST_H

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include "glapi.h"
#include "obs.h"
#include "replay_int.h"
#include "replay_mem.h"
#include "replay_names.h"
#include "replay_stub.h"
#include "xt_arena.h"

#define HOST_MAX_ERRORS 16

/* A GL error the replay raised, not yet seen by a recorded glGetError. */
struct host_error {
	uint32_t error;
	uint64_t call;        /* the call that raised it */
	const char *func;     /* its name (glapi's static string) */
	/* When the replay driver's fewer extensions or smaller limits explain
	 * it (a pure query, replay_obs.c): how, for the report; else "". */
	char impl[400];
};

/* The indexed strings of glGetStringi that the replay classifies: the
 * count of each is a property of the driver. */
enum host_strings { HOST_STR_EXTENSIONS, HOST_STR_GLSL_VERSIONS, HOST_STR_SPIRV_EXTENSIONS,
		    HOST_STR_COUNT };

struct host_ctx {
	uint64_t handle;              /* the recorded EGLContext / GLXContext */
	EGLContext egl;
	uint32_t ns;                  /* namespace of its container objects */
	uint32_t share_ns;            /* ... of objects its share group shares */
	bool gles;
	int major, minor;             /* requested; actual once current */
	bool version_known;           /* major/minor are the actual version */
	bool destroyed;               /* the trace destroyed it */
	uint32_t program;             /* replay name of the program in use */
	uint64_t config;              /* recorded config, 0: none (EGL_NO_CONFIG_KHR) */
	bool in_begin;                /* between glBegin and glEnd: no query
	                               * (glGetError included) may be made */
	struct host_error err[HOST_MAX_ERRORS];
	unsigned nerr;
	/* GL_NUM_EXTENSIONS etc. (by enum host_strings): the value the
	 * capture's glGetIntegerv returned to the application, and the replay
	 * driver's; -1 while unknown. */
	int64_t rec_count[HOST_STR_COUNT], rep_count[HOST_STR_COUNT];
	bool counts_init;
	/* The GL_MAX_* values the capture's glGetIntegerv returned to the
	 * application, to name a limit that explains a link failure. */
	struct host_limit { uint32_t pname; int64_t value; } rec_limit[32];
	unsigned nrec_limit;
};

/* A recorded surface: a pbuffer of the recorded config and size, created
 * when a recorded thread first makes it current (replay_egl.c). */
struct host_surface {
	uint64_t handle;              /* recorded EGLSurface / GLXDrawable */
	EGLSurface egl;               /* EGL_NO_SURFACE until created */
	uint64_t config;              /* recorded config, 0: unknown */
	EGLint width, height;         /* recorded size, 0: unknown */
	EGLint attribs[33];           /* the other recorded EGL pbuffer attributes */
	bool created;
	bool dead;                    /* destroyed by the trace: the handle may come again */
};

/* A recorded config and the replay display's config it maps to. */
struct host_config {
	uint64_t handle;              /* recorded EGLConfig / GLXFBConfig / visual */
	EGLConfig egl;
	/* From a CONTEXT "config" event: red, green, blue, alpha, depth,
	 * stencil, samples (-1: not recorded); mapped at first use. */
	bool recorded, mapped;
	int64_t size[7];
};

struct host_thread {
	uint32_t no;                  /* recorded thread number */
	struct host_ctx *ctx;         /* current context, NULL if none */
	EGLSurface draw, read;
};

/* What is known of a function of the trace, by its trace func_id. */
struct host_func {
	int id;                       /* glapi id, -1: unknown to glapi */
	void (*fn)(void);             /* the driver's entry point (GL) */
	bool resolved;
};

struct host {
	struct replay_backend base;
	EGLDisplay dpy;
	EGLConfig config;             /* default pbuffer config */
	struct host_ctx **ctx;
	size_t nctx;
	struct host_surface *surf;
	size_t nsurf;
	struct host_config *cfg;
	size_t ncfg;
	struct host_thread *threads;
	size_t nthreads;
	struct host_ctx *bound;       /* current on the replay thread */
	EGLSurface bound_draw, bound_read;
	uint64_t create_config;       /* config argument of the last context creation */
	bool no_config;               /* the display has EGL_KHR_no_config_context */
	struct replay_names *names;
	struct replay_mem *mem;
	struct host_func *funcs;      /* by trace func_id */
	size_t nfuncs;
	struct xt_arena arena;        /* per call */
	/* Replay names of timer queries, and of buffers a timer result was
	 * written into (by share namespace): observations made while such a
	 * buffer exists are marked timing-dependent. */
	struct host_name { uint32_t ns, name; } timers[64], tainted[64];
	unsigned ntimers, ntainted;
	/* The driver's entry points: eglGetProcAddress for the host backend,
	 * drv_get_proc_address for the sim; replay_obs.c calls the driver only
	 * through them (and obs_gl, resolved from them). */
	void (*(*gl_proc)(const char *name))(void);
	struct obs_gl obs_gl;         /* the observation core's GL table */
	bool obs_gl_ready;
	bool memwrite_warned;         /* an uncovered MEMWRITE was reported */
	/* Client-memory vertex arrays: a gl*Pointer named a client address,
	 * and the last call that "client-array" MEMWRITEs came with (+1, 0:
	 * none), so that a draw that reads client arrays the trace holds no
	 * bytes of is reported rather than replayed on stale memory. */
	bool client_pointers;
	uint64_t client_array_call;
	/* Program binaries the replay's driver returned, by the hash of the
	 * binary the capture's driver returned at the same call: a later
	 * glProgramBinary of the recorded binary loads the replay's instead
	 * (replay_args.c host_args_program_binary). */
	struct host_binary { uint64_t rec_hash; uint32_t format; size_t len; uint8_t *bytes; }
		*binaries;
	size_t nbinaries;
	char describe[256];
};

/* ---- replay_host.c: shared with the sim backend (replay_sim.c) ---- */
/* What is known of trace function `call->func_id`: its glapi id, looked up
 * at its first call (the entry point is the backend's to resolve); NULL
 * when out of memory. */
struct host_func *host_func_of(struct host *h, const struct trace_call *call);
/*
 * The driver's entry point for function `name` (glapi id `id`), through
 * h->gl_proc: by its own name, or, for a function that only extensions
 * provide and that gl.xml makes an alias of another, by that alias when
 * the current context advertises none of those extensions
 * (glProgramParameteriARB of GL_ARB_geometry_shader4 is glProgramParameteri:
 * a driver without the extension would otherwise take the call into a
 * no-op stub).
 */
void (*host_func_resolve(struct host *h, int id, const char *name))(void);
/* Applies a MEMWRITE to the client memory; memory no pointer or mapping
 * covers is dropped, with one warning per replay. */
void host_memwrite(struct host *h, uint64_t call_no, uint64_t addr, const uint8_t *data,
		   size_t n, const char *why);
/* Reports the GL errors left in x's queue at the end as unchecked. */
void host_ctx_flush_errors(struct host_ctx *x, struct replay *rp);

/* ---- replay_egl.c ---- */
/* The size of a surface whose size the trace does not hold (both backends). */
#define REPLAY_DEFAULT_SURFACE_SIZE 1024
/* Beyond any surface a driver makes: a recorded size above it is corrupt. */
#define REPLAY_MAX_SURFACE_SIZE 65536

enum xt_rc host_egl_open(struct host *h, struct xt_err *err);
void host_egl_close(struct host *h);
/* An EGL or GLX call, replayed by what it means (replay_egl.c). */
enum xt_rc host_egl_call(struct host *h, struct replay *rp, const struct trace_call *call,
			 const struct trace_ret *ret, int id, struct xt_err *err);
enum xt_rc host_egl_context(struct host *h, struct replay *rp, const struct trace_call *call,
			    uint64_t call_no, const struct trace_value *event, struct xt_err *err);
/* Whether MAP `map` has STRING `key` equal to `want` (CONTEXT records). */
bool host_value_str_is(const struct trace_value *map, const char *key, const char *want);
/* The UINT or HANDLE `key` of MAP `map`, 0 when absent. */
uint64_t host_value_uint(const struct trace_value *map, const char *key);
/* The recorded thread's state (created on first use); NULL when out of memory. */
struct host_thread *host_thread(struct host *h, uint32_t thread_no);
/* Makes thread `t`'s context current on the replay thread; false if it
 * has none (or EGL refused). */
bool host_make_current(struct host *h, struct host_thread *t);

/* ---- replay_args.c ---- */
/* Per-call state of the argument conversion. */
struct host_args {
	union replay_arg a[32];
	void *out[32];                /* MEM_OUT / OUTSTRING scratch, else NULL */
	size_t out_bytes[32];
	bool offset[32];              /* the argument was an OFFSET */
};
/*
 * Converts call's recorded arguments into `args` for function `id` in
 * context `x`.  On a value that cannot be replayed, *why says what (and
 * XT_ERR_UNSUPPORTED is returned); XT_ERR_NOMEM when out of memory.
 */
enum xt_rc host_args_convert(struct host *h, struct host_ctx *x, int id,
			     const struct trace_call *call, const struct trace_ret *ret,
			     struct host_args *args, const char **why);
/*
 * Program binaries, between host_args_convert and the call: glGetProgramBinary
 * gets a buffer as large as the replay's driver needs (asked with its
 * glGetProgramiv, through h->gl_proc, GL_PROGRAM_BINARY_LENGTH);
 * glProgramBinary of a binary
 * the trace's glGetProgramBinary returned loads the one the replay's driver
 * returned there instead, since a driver reads only its own binaries.
 * XT_ERR_NOMEM when out of memory.
 */
enum xt_rc host_args_program_binary(struct host *h, struct host_ctx *x,
				    const struct trace_call *call, struct host_args *args);
/* Frees what host_args_learn kept (program binaries). */
void host_args_fini(struct host *h);
/* After the call: learns the names it created (outputs and return value). */
void host_args_learn(struct host *h, struct host_ctx *x, int id, const struct trace_call *call,
		     const struct trace_ret *ret, const struct host_args *args,
		     const union replay_arg *rv);

/* ---- replay_obs.c ---- */
/* After a call with a LAYOUT record (a link): compares the uniform block
 * layouts the replay's driver chose with the recorded ones and warns,
 * naming the block and member, where they differ (buffer contents the
 * trace holds were written for the recorded layout; nothing is remapped). */
void host_obs_layout(struct host *h, struct replay *rp, struct host_ctx *x, const struct trace_call *call);
/* The hooks after a GL call (observations, mappings, returned values). */
void host_obs_after(struct host *h, struct replay *rp, struct host_ctx *x, int id,
		    const struct trace_call *call, const struct trace_ret *ret,
		    const struct host_args *args, const union replay_arg *rv);
/* A recorded glGetError: answers from the queue and compares. */
void host_obs_get_error(struct host *h, struct replay *rp, struct host_ctx *x,
			const struct trace_call *call, const struct trace_ret *ret);
/* Compares the values call `call` returned to the application with the
 * recorded ones (also used by the sim backend, replay_sim.c). */
void host_obs_check_returns(struct replay *rp, const struct host *h, const struct host_ctx *x,
			    int id, const struct trace_call *call, const struct trace_ret *ret,
			    const struct host_args *args, const union replay_arg *rv);
/* Resolves h->obs_gl once; false when the driver lacks a function the
 * observations need (replay_obs.c). */
bool host_obs_gl(struct host *h);

/* The context the state at a call is read from (replay_state.c). */
struct replay_state_ctx {
	uint32_t ns, share_ns;    /* its namespaces (replay_names.h) */
	bool gles;
	int major, minor;
	/* Optional: why the last GL call could not be answered faithfully (a
	 * state the driver model does not model), or NULL; taking it clears
	 * it (drv_context_take_unsupported).  What it says goes into the
	 * state's `not_modelled`. */
	const char *(*take_unsupported)(void *user);
	void *user;
};
/* The GL state of the current context after call `call_no`, as one MAP
 * value of the trace format, into `out` (reset first). */
enum xt_rc replay_state_encode(struct host *h, const struct replay_state_ctx *x, uint64_t call_no,
			       const char *backend, struct xt_buf *out, struct xt_err *err);

/* At a swap whose frame the capture kept (`capture --frames`): the colour
 * buffer of the swapping thread's draw surface as a `pixels`
 * observation (replay_obs.c). */
void host_obs_frame(struct host *h, struct replay *rp, const struct trace_call *call);
/* Size in bytes of one value of glGet<T>v (and i_v) by function name, 0
 * if `fn` is not one; *is_float for Float / Double (replay_obs.c). */
size_t host_get_value_size(const char *fn, bool *is_float);
/* The indexed string count pname (GL_NUM_EXTENSIONS ...) that `pname` is,
 * as an enum host_strings, or -1; and x's counts made "unknown" once
 * (replay_errors.c). */
int host_count_pname(uint64_t pname);
void host_counts_init(struct host_ctx *x);
/* Appends GL error `error` of `call` to x's queue, x->err[*from ..] being
 * the call's own; when the queue is full, a classified error of an earlier
 * call makes room (*from moves with it), else the new error is dropped. */
void host_error_push(struct host_ctx *x, uint32_t error, const struct trace_call *call,
		     unsigned *from);
/* Moves the errors the call raised into x's queue. */
void host_obs_collect_errors(struct host *h, struct replay *rp, struct host_ctx *x,
			     const struct trace_call *call);
/* Says which of the errors x->err[from..] (those of `call`, just drained
 * from the driver) the replay driver's fewer extensions or smaller limits
 * explain (host_error.impl), directly or as a consequence of a link they
 * made fail (replay_link_consequence); may query the driver. */
void host_obs_classify_errors(struct host *h, struct replay *rp, struct host_ctx *x,
			      const struct trace_call *call, unsigned from);
/* The key of buffer `buffer`'s mapping in the client memory (replay_mem.h):
 * buffer names are per share group. */
uint64_t host_map_key(const struct host_ctx *x, uint32_t buffer);
/* glMapBuffer's access enum as GL_MAP_*_BIT bits. */
uint32_t host_map_access_bits(uint32_t access);
/* Resolves a GL entry point by name through libepoxy's EGL dispatch. */
void (*host_gl_proc(const char *name))(void);

#endif
