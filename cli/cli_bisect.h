/*
 * cli_bisect.h - what the two files of `xfbtrace bisect` share:
 * cli_bisect.c (options, the search, the report) and cli_bisect_step.c
 * (git, the cache, building, replaying and comparing one commit).
 */
#ifndef CLI_BISECT_H
#define CLI_BISECT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "db.h"
#include "db_bisect.h"
#include "xt_buf.h"

#define MAX_LIST_OPTS 32
#define SHA_LEN 40

struct bisect {
	/* options */
	const char *trace_arg, *good_arg, *bad_arg, *repo_arg, *build_cmd, *backend;
	const char *db_arg, *cache_arg, *compare, *jobs;
	const char *meson_opts[MAX_LIST_OPTS];
	int nmeson_opts;
	const char *envs[MAX_LIST_OPTS];
	int nenvs;
	bool compare_obs, compare_regs;
	/* What sets builds and runs apart besides the commit: "" with the
	 * defaults, else "-" and a hash of --build / --meson-option (builds)
	 * and of those and --env (runs), so that a cached build or run made
	 * with other options is never reused. */
	char build_variant[24], run_variant[24];
	/* resolved */
	char trace[PATH_MAX], repo[PATH_MAX], cache[PATH_MAX], worktree[PATH_MAX];
	char db_path[PATH_MAX], self[PATH_MAX], scratch[PATH_MAX];
	char good[SHA_LEN + 1], bad[SHA_LEN + 1];
	struct db *db;
	int64_t trace_id, session, good_run;
	bool regs_usable;          /* the good run has register artefacts */
	bool worktree_ready;
	int steps_done;
	int steps_estimate;
	struct xt_buf out;         /* captured stdout of git */
	double started;
};

/* What one commit turned out to be. */
struct outcome {
	enum db_bisect_verdict verdict;
	int64_t run_id;
	char reason[512];
	bool build_cached, run_cached;
	double build_seconds, replay_seconds;
	int64_t first_call;        /* -1 when none */
	char first[512];           /* what differed there */
};

/* snprintf that truncates quietly: paths fit (cli_bisect_setup bounds the
 * cache directory's length) and messages may be cut. */
void cli_bisect_strfmt(char *out, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* CLOCK_MONOTONIC, seconds. */
double cli_bisect_now(void);

/* Runs `git -C dir ARGS...` (NULL-terminated), stderr into `log` (NULL:
 * dropped), stdout into b->out without its trailing newlines; returns
 * git's exit status (-1: could not run it, said on stderr). */
int cli_bisect_git(struct bisect *b, const char *dir, const char *log, ...);
/* The captured stdout of the last cli_bisect_git ("" for none). */
const char *cli_bisect_git_out(struct bisect *b);
/* Resolves `rev` to a full commit hash of b->repo; CLI status. */
int cli_bisect_resolve(struct bisect *b, const char *rev, char sha[SHA_LEN + 1]);

/* Fills b->build_variant and b->run_variant from the options. */
void cli_bisect_variants(struct bisect *b);
/* Fills the resolved paths (trace, repo, cache, db, self); CLI status. */
int cli_bisect_setup(struct bisect *b);
/* Takes the cache's lock for the life of the process; CLI status. */
int cli_bisect_lock(struct bisect *b);

/* Builds `sha` unless its build (or its failure) is cached; false means
 * skip, with o->reason.  Prints "building… " when it builds. */
bool cli_bisect_build(struct bisect *b, const char *sha, struct outcome *o);
/* Replays the trace with `sha`'s build and imports the run into b->db
 * as o->run_id; false means skip, with o->reason. */
bool cli_bisect_replay(struct bisect *b, const char *sha, const char *label, struct outcome *o);
/* Sets o->verdict (good / bad) and o->first* by comparing run `run_id`
 * with b->good_run as b->compare_* say; CLI status. */
int cli_bisect_compare(struct bisect *b, int64_t run_id, struct outcome *o);
/* Whether run `run_id` recorded per-call register artefacts. */
bool cli_bisect_has_regs(struct bisect *b, int64_t run_id);

#endif
