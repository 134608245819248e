/*
 * replay_core.h - the state of one replay run, shared by the loop
 * (replay_main.c) and the checks and report (replay_check.c).  Backends see
 * it only through the services of replay_int.h.
 */
#ifndef REPLAY_CORE_H
#define REPLAY_CORE_H

#include <time.h>

#include "replay_int.h"
#include "trace_defined.h"
#include "trace_layout.h"
#include "trace_query.h"
#include "xt_arena.h"
#include "xt_buf.h"

#define REPLAY_MAX_THREADS 1024 /* threads whose TF primitive mode is tracked */

/* A function reported as not replayable. */
struct replay_unsup {
	char *name;
	char *why;
	uint64_t first;        /* its first call number */
	uint64_t count;
};

/* One observation the backend made after the current call. */
struct replay_obs {
	uint64_t seq;
	size_t offset, len;    /* in replay.obs_bytes */
	bool timing;           /* may derive from timer results: not compared */
	/* What the check said of it (replay_check.c): a class and its reason,
	 * NUL-terminated at verdict_at in replay.verdict_text; NULL: equal or
	 * not checked. */
	const char *verdict_class;
	size_t verdict_at;
};

struct replay {
	struct replay_options opt;
	struct replay_summary sum;
	struct replay_backend *be;
	struct trace_reader *reader;

	/* The call read but not executed yet (waiting for its RET). */
	struct xt_buf call_payload;   /* owned copy of its CALL payload */
	struct xt_buf ret_payload;    /* ... and of its RET payload */
	struct xt_arena arena;        /* decoded values of the two */
	struct trace_call call;
	struct trace_ret ret;
	bool have_call, have_ret;
	/* its LAYOUT record (the uniform block layouts of a link), in arena */
	struct trace_layout layout;
	bool have_layout;
	uint64_t last_no;             /* number of the last call executed */
	struct trace_call last;       /* it (valid until the next call) */
	bool last_valid;

	/* Observations the backend made for call last_no, in order. */
	struct xt_buf obs_bytes;
	struct replay_obs *obs;
	size_t nobs, capobs, obs_next;
	size_t obs_reserved_at;       /* offset of the open reservation */
	struct xt_buf verdict_text;   /* the reasons of their verdicts */
	size_t checking_obs;          /* index + 1 of the one being checked, 0: none */

	/* glBeginTransformFeedback primitiveMode + 1 per recorded thread
	 * (0 = none yet), for observations handed to opt.on_observation. */
	uint32_t prim_mode[REPLAY_MAX_THREADS];
	struct trace_queries *queries;     /* query targets, from the calls */

	struct replay_unsup *unsup;
	size_t nunsup;
	uint64_t unsupported_call;  /* number + 1 of the last call replay_unsupported named, 0: none */
	uint64_t *timers;             /* recorded names of timer queries */
	size_t ntimers;
	/* TF data that matched only up to NaN bit patterns, by buffer
	 * (replay_check.c): a later read-back of those bytes is compared the
	 * same way. */
	struct replay_tf_seen *tf_seen;
	size_t ntf_seen;
	/* Which bytes of each buffer the application defined, and what TF
	 * wrote (trace_defined.h), fed with every record (--check only). */
	struct trace_defined *defined;
	struct trace_ranges undef_scratch;
	/* Programs that linked at capture and not on the replay, a smaller
	 * limit of the replay driver explaining it (replay_link_failed). */
	struct replay_link_failure {
		uint64_t program, link_call;   /* the application's name, its glLinkProgram */
		char why[192];
	} *failures;
	size_t nfailures;
	/* The first glGetMultisamplefv(GL_SAMPLE_POSITION) the replay driver
	 * answered otherwise than the capture's, 0: none; and how many were
	 * compared (replay_obs.c). */
	uint64_t positions_differ, positions_compared;
	/* Groups of TF triangles an observation showed to be another valid
	 * tessellation (replay_explain.c), both sides' bytes: a later read of
	 * part of the same bytes is explained by the same rule. */
	struct replay_tess_seen {
		uint32_t thread;
		uint64_t buffer, lo, len;
		uint8_t *golden, *replay;
	} *tess_seen;
	size_t ntess_seen;
	uint64_t reported;            /* differences printed in detail */
	uint64_t nan_notes;           /* NaN-only differences printed */
	uint64_t lost_notes;          /* lost observations printed */
	uint64_t classified_notes;    /* classified differences printed */
	struct xt_arena cmp_arena;    /* decoding for comparisons */
	struct timespec start, last_progress;
	bool progress_shown;
	uint64_t frames_wanted;       /* frames whose colour buffer the capture
	                               * kept (property capture.frames) */
	bool golden_pixels;           /* property capture.pixels: the golden
	                               * data has the glReadPixels images */
	int golden_state;             /* replay_main.c: from the trace's header
	                               * properties, whether it has golden data */
};

/* Compares golden observation `golden` (a record of call `no`) with the
 * backend's next observation of that call, counting and reporting. */
void replay_check_observation(struct replay *rp, uint64_t no, const struct trace_record *golden);
/* The backend's observations of the last call that had no golden
 * counterpart: each is a difference (and gets that verdict).  Leaves them
 * in place; a second call finds none left. */
void replay_check_leftovers(struct replay *rp);
/* Prints the summary (and the not-replayed functions) to opt.out. */
void replay_check_summary(struct replay *rp, double seconds);
/* What replay_explain found in one observation's data (replay_explain.c). */
struct replay_explained {
	bool undefined, tess, consequence, multisample;
	bool whole;                   /* a tf_buffer TF wrote while a program in use
	                               * failed to link on the replay: its layout too */
	char undefined_why[448], tess_why[320], consequence_why[640], multisample_why[448];
	struct trace_value masked;    /* the replay's observation, explained bytes
	                               * (and layout) set to the golden's; in cmp_arena */
};
/* Whether golden `g` and replayed `r`, observations of call `no` that
 * differ, differ in data bytes that are undefined, another valid
 * tessellation, the consequence of a failed link or computed from
 * multisample texels at sample positions that differ: *ex then says which
 * and holds `r` with those bytes made equal. */
bool replay_explain(struct replay *rp, uint64_t no, const struct trace_value *g,
		    const struct trace_value *r, struct replay_explained *ex);
/* Frees what the checks allocated. */
void replay_check_fini(struct replay *rp);

#endif
