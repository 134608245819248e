/*
 * cli_diff_calls.h - the per-call part of `xfbtrace diff` (--pm4, --regs,
 * --shaders), shared by cli_diff.c and cli_diff_calls.c only.
 */
#ifndef CLI_DIFF_CALLS_H
#define CLI_DIFF_CALLS_H

#include "diff.h"

/*
 * Compares the per-call artefacts of runs `run_a` and `run_b` (`what`:
 * DIFF_CALLS_* bits) and appends the result to `out`: text (a summary
 * line, the first divergent call, a block per differing call), or with
 * `json` the object that is the "calls" member of diff's JSON document.  At most
 * `limit` fields / packets / lines per call (0: all).  *differ tells
 * whether any call differs.  On error `err` says why.
 */
enum xt_rc cli_diff_calls_render(struct db *db, int64_t run_a, int64_t run_b, unsigned what,
				 bool json, uint32_t limit, struct xt_buf *out, bool *differ,
				 struct xt_err *err);

#endif
