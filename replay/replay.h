/*
 * replay.h - replaying a trace (docs/trace-format.md) on a backend and
 * checking it against the trace's golden observations; what `xfbtrace
 * replay` runs.  Design and limits: replay/README.md.
 *
 * A replay reads the trace in recorded global order, executes every call
 * on the backend (all recorded threads on the calling thread, switching
 * contexts as the recorded threads did), makes the same observations at
 * the same points as the capture did (observe/obs.h) and, with `check`,
 * compares each with the golden one, and the values the driver returned to
 * the application (glGetError, compile / link status, TF varying queries)
 * with the recorded ones.
 */
#ifndef REPLAY_H
#define REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "trace_query.h"
#include "trace_pixels.h"
#include "trace_tol.h"
#include "xt_rc.h"

/* What the hardware saw of one call (sim backend; see on_artifact). */
struct replay_artifact {
	uint64_t call_no;
	const char *function;
	const uint32_t *pm4;        /* PM4 dwords submitted, or NULL */
	uint32_t pm4_dwords;
	const void *regs;           /* register state after a draw / TF / query
	                             * call: (byte offset, value) u32 pairs,
	                             * ascending; NULL for other calls */
	size_t regs_bytes;
	uint32_t program;           /* the program drawn with, 0 for none */
	const char *shader_text;    /* its disassembly the first time it is
	                             * seen in the replay, else NULL */
	size_t shader_bytes;
	bool frame_end;             /* a swap */
};

/* A register the sim backend's GPU forces at every draw of calls
 * first_call..last_call (gm.h, gm_reg_override_set): `mask` selects the
 * bits (0xffffffff: the whole register), `value` holds them in place. */
struct replay_reg_override {
	uint32_t reg;              /* byte offset (pm4_regs.h) */
	uint32_t mask, value;
	uint64_t first_call, last_call;
};

struct replay_options {
	const char *backend;       /* "host" (the default when NULL) */
	bool check;                /* compare with the golden data */
	/* Float TF data and query-returned floats that differ within `tol`
	 * (trace_tol.h; TRACE_TOL_EXACT: none) are "precision" differences. */
	struct trace_tol tol;
	/* Images (`pixels` observations) that differ within `img_tol`
	 * (trace_pixels.h) are "precision" differences; all zero: exact. */
	struct trace_img_tol img_tol;
	/* A directory to write each differing image into (golden, replay and
	 * difference PNGs, replay_check.c), or NULL. */
	const char *diff_dir;
	uint64_t first_call;       /* check observations of calls >= this */
	uint64_t last_call;        /* replay no call after this (UINT64_MAX) */
	/* Non-NULL: once the replay has run call last_call, the GL state the
	 * backend's driver reports (replay_state.c) is encoded into it as one
	 * MAP value of the trace format; a trace without call last_call is
	 * an error. */
	struct xt_buf *state_out;
	unsigned max_reported;     /* differences printed in detail */
	bool progress;             /* a progress line on stderr for long runs */
	FILE *out;                 /* the report (differences, summary) */
	/*
	 * Called for every observation the replay made, in order, once the
	 * call it belongs to is complete; NULL for none.  `payload` is the
	 * observation record's payload (a MAP value, docs/trace-format.md),
	 * borrowed for the call; `function` the name of call `call_no`;
	 * `tf_primitive_mode` the primitiveMode of the last
	 * glBeginTransformFeedback of the call's thread, or -1; `queries`
	 * the query targets the calls so far set (trace_query.h) and
	 * `thread_no` the call's thread;
	 * `verdict_class` / `verdict_reason` what --check said of it against
	 * the golden data (struct db_obs says which classes; NULL when equal
	 * or not checked).  A returned error stops the replay with that error.
	 */
	enum xt_rc (*on_observation)(void *ctx, uint64_t call_no, const char *function,
				     int64_t tf_primitive_mode, const struct trace_queries *queries,
				     uint32_t thread_no, const uint8_t *payload,
				     size_t payload_bytes, const char *verdict_class,
				     const char *verdict_reason, struct xt_err *err);
	void *on_observation_ctx;
	/*
	 * Called by backends that model the hardware (sim) with what one call
	 * did to it, right after the call; NULL for none (the sim then does
	 * not even collect them).  Everything `a` points to is borrowed for
	 * the call.  A returned error stops the replay with that error.
	 */
	enum xt_rc (*on_artifact)(void *ctx, const struct replay_artifact *a, struct xt_err *err);
	void *on_artifact_ctx;
	/* What-if experiments on the sim backend (`replay --set-reg`): the
	 * overrides in force at each draw; the register state the run records
	 * shows them.  Another backend with any is an XT_ERR_INVALID error. */
	const struct replay_reg_override *reg_overrides;
	size_t n_reg_overrides;
};

struct replay_summary {
	uint64_t calls;             /* calls executed */
	uint64_t frames;
	uint64_t observations;      /* golden observations checked */
	uint64_t match;
	uint64_t match_nan;         /* ... of which differ only in NaN bit patterns */
	uint64_t differ;            /* incl. observations missing or extra */
	uint64_t not_compared;      /* timing-dependent (timer query results) */
	uint64_t not_drawn;         /* golden images (`pixels`) the backend made
	                             * none of: their call was not replayed;
	                             * not compared */
	uint64_t lost;              /* golden observations the capture lost (the
				     * application died before their
				     * asynchronous read-back): not compared */
	uint64_t returns_compared;  /* returned values compared */
	uint64_t returns_differ;
	uint64_t returns_skipped;   /* implementation-dependent, not compared */
	uint64_t replay_errors;     /* GL errors only the replay raised */
	/* Differences classified, not counted above (replay_check.c): */
	uint64_t impl_dependent;    /* the replay driver's fewer extensions or
	                             * smaller limits explain them */
	uint64_t precision;         /* float data within opt.tol */
	uint64_t undefined;         /* bytes the application never defined */
	uint64_t unsupported_calls; /* calls not replayed */
	uint64_t unsupported_funcs; /* ... of this many functions */
	char gl_vendor[128];        /* the driver replayed on, once a context */
	char gl_renderer[128];      /* was current ("" before) */
	char gl_version[128];
	/* The trace holds no golden data (captured with --no-observe, or an
	 * apitrace trace without a reference run): the replay's observations
	 * were not compared (replay_main.c). */
	bool no_golden;
};

/* True when everything checked matched, differences classified as
 * implementation-dependent, precision or undefined aside unless `strict`
 * (the exit status 0 case). */
bool replay_summary_ok(const struct replay_summary *s, bool strict);

/*
 * Replays trace `path` with options `o`, printing differences, unsupported
 * calls and the summary to o->out.  XT_OK when the replay ran to the end
 * (whether or not anything differed: see *out); on error (unreadable or
 * corrupt trace, no usable GL, unknown backend) another code with `err`
 * set, *out then holding what was done so far.
 */
enum xt_rc replay_run(const char *path, const struct replay_options *o,
		      struct replay_summary *out, struct xt_err *err);

#endif
