/*
 * replay_int.h - what the files of replay/ share: the backend interface
 * (the host backend of replay_host.c; a simulator backend plugs in the
 * same way) and the services the replay core offers backends.
 *
 * The core (replay_main.c) reads records and hands the backend, in
 * recorded order: MEMWRITE records (before the call they belong to), each
 * call with its recorded RET, and CONTEXT records (after their call).  The
 * backend executes them and reports back through the replay_* services:
 * observations it made (to be compared with the golden ones), returned
 * values, GL errors and calls it could not replay.
 */
#ifndef REPLAY_INT_H
#define REPLAY_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "replay.h"
#include "replay_lines.h"
#include "trace_layout.h"
#include "trace_reader.h"
#include "xt_rc.h"

struct replay;           /* the run (replay_main.c) */
struct replay_backend;

struct replay_backend_ops {
	const char *name;
	/* Executes one call; `ret` is NULL when the trace has no RET for it
	 * (a void call without outputs, or the call the application died
	 * in).  An error ends the replay (use it for "cannot go on" only:
	 * a call that cannot be replayed is replay_unsupported()). */
	enum xt_rc (*call)(struct replay_backend *be, struct replay *rp,
			   const struct trace_call *call, const struct trace_ret *ret,
			   struct xt_err *err);
	/* A CONTEXT record attached to `call` (NULL when that call was not
	 * seen), whose MAP value is `event`. */
	enum xt_rc (*context)(struct replay_backend *be, struct replay *rp,
			      const struct trace_call *call, uint64_t call_no,
			      const struct trace_value *event, struct xt_err *err);
	/* A MEMWRITE record of call `call_no`: client memory at recorded
	 * address `addr` held `n` bytes `data` ("why" as recorded). */
	enum xt_rc (*memwrite)(struct replay_backend *be, struct replay *rp, uint64_t call_no,
			       uint64_t addr, const uint8_t *data, size_t n, const char *why,
			       struct xt_err *err);
	/* The GL state of the current context after call `call_no`, encoded
	 * into `out` (replay_state.c); NULL: the backend cannot. */
	enum xt_rc (*state)(struct replay_backend *be, struct replay *rp, uint64_t call_no,
			    struct xt_buf *out, struct xt_err *err);
	/*
	 * Optional (NULL: the backend cannot tell).  The width-1 line
	 * segments rasterized with one raster sample into the colour buffer
	 * that the last call read pixels from, since that buffer was last
	 * cleared whole (GL 4.6 §14.5.1 lets their fragments differ between
	 * implementations, replay_lines.h): *n of them in *out, borrowed
	 * until the next call.  False when the last call read no colour
	 * buffer the backend followed.
	 */
	bool (*lines_read)(struct replay_backend *be, const struct replay_line **out, size_t *n);
	/*
	 * Optional.  The rectangles of the colour buffer the last call read
	 * pixels from that blits wrote with undefined or
	 * implementation-dependent values (replay_loose) since it was last
	 * cleared whole: *n of them in *out, borrowed until the next call.
	 * False when the last call read no colour buffer the backend
	 * followed.
	 */
	bool (*loose_read)(struct replay_backend *be, const struct replay_loose **out, size_t *n);
	/*
	 * Optional.  For the occlusion query `query` (the application's name)
	 * of the context current on recorded thread `thread_no`, over its
	 * last begin / end: the width-1 segments rasterized in it, the
	 * samples by which their counts may differ
	 * (replay_lines_sample_bound) and the samples the backend counted.
	 * False when the backend does not know the query.
	 */
	bool (*query_lines)(struct replay_backend *be, uint32_t thread_no, uint64_t query,
			    uint64_t *segments, uint64_t *bound, uint64_t *samples);
	/* The end of the trace (or of --calls): report what is left. */
	void (*finish)(struct replay_backend *be, struct replay *rp);
	/* A line naming what the backend runs on ("llvmpipe (LLVM 15...)"). */
	const char *(*describe)(struct replay_backend *be);
	/* NULL is a no-op. */
	void (*destroy)(struct replay_backend *be);
};

struct replay_backend {
	const struct replay_backend_ops *ops;
};

/* The host backend: the system GL through EGL (replay_host.c). */
enum xt_rc replay_host_create(struct replay_backend **out, struct xt_err *err);
/* The sim backend: driver/ on gpu_model/ (replay_sim.c). */
enum xt_rc replay_sim_create(const struct replay_reg_override *ovr, size_t novr,
			     struct replay_backend **out, struct xt_err *err);

/* ---- services of the core (replay_main.c, replay_check.c) -------------- */

/* The recorded thread of the last call executed (for the state at it). */
uint32_t replay_state_thread(const struct replay *rp);

/*
 * Call `call` could not be replayed faithfully (and was skipped): `why`
 * says what is missing.  Reported once per function with its first call
 * number and counted.
 */
void replay_unsupported(struct replay *rp, const struct trace_call *call, const char *why);
/* The LAYOUT record of the call being executed (the uniform block
 * layouts its link gave on the capturing driver), NULL when it has none. */
const struct trace_layout *replay_call_layout(const struct replay *rp);
/* Whether replay_unsupported was called for call number `no` (the last one). */
bool replay_call_unsupported(const struct replay *rp, uint64_t no);

/*
 * Record sink for the observations the backend makes after a call (the
 * obs_ctx reserve / commit of observe/obs.h).  `timing` marks an
 * observation whose data may derive from timer query results (a timer
 * result was written into a buffer that still exists): not compared.
 */
uint8_t *replay_obs_reserve(struct replay *rp, size_t max_payload);
void replay_obs_commit(struct replay *rp, uint64_t seq, size_t n, bool timing);

/*
 * Whether the observation of query `query` (application name) is
 * compared: timer queries depend on timing.  The backend says which
 * queries those are (replay_query_is_timer) as it sees them begin.
 */
void replay_query_is_timer(struct replay *rp, uint64_t query, bool timer);

/* The driver the backend runs on (GL_VENDOR, GL_RENDERER, GL_VERSION; any
 * may be NULL), for the summary and for a run recorded in a database. */
void replay_set_driver(struct replay *rp, const char *vendor, const char *renderer,
		       const char *version);

/* Whether returned values are being checked for call `no`. */
bool replay_checking(const struct replay *rp, uint64_t no);
/* Whether anybody uses observations (--check, or opt.on_observation): when
 * not, backends need not read them back. */
bool replay_observing(const struct replay *rp);

/* A returned value compared: equal or not; on a difference `what`
 * ("pname GL_LINK_STATUS", "return value") and the two values as text. */
void replay_return_checked(struct replay *rp, const struct trace_call *call, bool equal,
			   const char *what, const char *recorded, const char *replayed);
/* A returned value not compared (implementation-dependent). */
void replay_return_skipped(struct replay *rp, const struct trace_call *call);

/* GL error `error` that the replay raised at call `raised_at` (function
 * `func`) and the capture did not: seen at the glGetError call `check`. */
void replay_gl_error_extra(struct replay *rp, uint64_t raised_at, const char *func,
			   uint32_t error, uint64_t check);
/* GL error `error` that the replay raised at call `raised_at` (function
 * `func`) and the capture did not, explained by the replay driver's fewer
 * extensions or smaller limits: `why` says how ("the replay driver has 203
 * extensions (capture: 402)").  Classified implementation-dependent, not
 * a difference. */
void replay_gl_error_impl(struct replay *rp, uint64_t raised_at, const char *func,
			  uint32_t error, const char *why);
/* Returned value `what` of call `call` differs from the recorded one
 * because of a smaller limit of the replay driver, as `why` says:
 * classified implementation-dependent, not a difference. */
void replay_return_impl(struct replay *rp, const struct trace_call *call, const char *what,
			const char *recorded, const char *replayed, const char *why);
/* Call `call` (glGetMultisamplefv(GL_SAMPLE_POSITION)) was answered
 * `equal`ly on the replay, or otherwise: TF computed from multisample
 * texels is compared only while every answer so far was equal
 * (replay_explain.c). */
void replay_positions_compared(struct replay *rp, const struct trace_call *call, bool equal);
/*
 * Program `program` (the application's name, as call `call` named it)
 * linked at capture and not on the replay, a smaller limit of the replay
 * driver explaining it as `why` says.  What the application did with the
 * program afterwards differs as a consequence: TF data written while it
 * was in use, GL_CURRENT_PROGRAM, errors of calls that use it
 * (replay_link_consequence); until the program is linked again.
 */
void replay_link_failed(struct replay *rp, const struct trace_call *call, uint64_t program,
			const char *why);
/*
 * Whether an error (or value) of call `call` is a consequence of such a
 * failed link: when `program` (an application's program name, 0 for none)
 * is a program whose last link failed that way, or, with `program` 0 and
 * `uses_current` true, the program in use on the call's thread is.  NULL
 * when not; else a text naming the program, the call of its link and why
 * ("program 3, whose link at call 9903 failed on the replay: ..."),
 * borrowed until the next call of replay_link_*.
 */
const char *replay_link_consequence(struct replay *rp, const struct trace_call *call,
				    uint64_t program, bool uses_current);
/* Returned float `what` of call `call` differs from the recorded one within
 * the tolerance: classified "precision", not a difference. */
void replay_return_precision(struct replay *rp, const struct trace_call *call, const char *what,
			     const char *recorded, const char *replayed);
/* The tolerance floats are compared under (opt.tol). */
const struct trace_tol *replay_tolerance(const struct replay *rp);
/* The capture's glGetError `call` returned `recorded`; the replay had
 * `replayed` (GL_NO_ERROR or another error). */
void replay_gl_error_differs(struct replay *rp, const struct trace_call *call,
			     uint32_t recorded, uint32_t replayed);
/* Errors the replay raised that no recorded glGetError ever looked at:
 * reported apart, not counted as differences (the capture cannot say);
 * `why`: the host_error's implementation-dependent explanation, or "". */
void replay_gl_error_unchecked(struct replay *rp, uint64_t raised_at, const char *func,
			       uint32_t error, const char *why);

/* A frame ended (swap). */
void replay_frame(struct replay *rp);
/* Frames ended so far: the number of the frame a swap ends. */
uint64_t replay_frames(const struct replay *rp);
/* Whether glReadPixels gets a `pixels` observation: the capture made them
 * (property capture.pixels; a trace from before them has none), or the
 * trace has no golden data of its own (the replay's are handed on). */
bool replay_pixels_wanted(const struct replay *rp);
/* Whether the capture kept the colour buffer of the frame the next swap
 * ends (`capture --frames`, property capture.frames), and the replay
 * observes at all: then the backend observes it too. */
bool replay_frame_wanted(const struct replay *rp);

/* Whether anyone takes per-call artefacts (opt.on_artifact). */
bool replay_wants_artifacts(const struct replay *rp);
/* Hands `a` to opt.on_artifact (XT_OK when there is none). */
enum xt_rc replay_artifact(struct replay *rp, const struct replay_artifact *a, struct xt_err *err);

#endif
