/*
 * db_bisect.h - what `xfbtrace bisect` keeps in the results database:
 * bisect sessions and their steps (tables bisect_sessions, bisect_steps;
 * docs/db.md), read back by `xfbtrace bisect --show` and the web UI, and
 * the two run operations bisect needs: finding a stored run by its label
 * and importing a run from another database file.
 *
 * Why import: bisect replays each revision with that revision's own
 * xfbtrace, whose schema may be older (or newer) than this file's; an older
 * build refuses a newer database.  So each revision writes its run into a
 * scratch database of its own schema, and db_run_import copies the run into
 * this one, reading only the columns of schema version 1, which every
 * xfbtrace that has `replay --db` writes.
 *
 * Strings handed to callbacks are valid during the callback only; a
 * callback's non-OK return stops the listing and is returned.
 */
#ifndef DB_BISECT_H
#define DB_BISECT_H

#include <stdbool.h>
#include <stdint.h>

#include "db.h"
#include "xt_buf.h"
#include "xt_rc.h"

/* ---- runs ----------------------------------------------------------------- */

/*
 * The newest run of trace `trace_id` by `backend` labelled `label` that
 * finished ("ok" or "failed"); incomplete runs are ignored.  *run_id is 0
 * and the result XT_ERR_NOT_FOUND when there is none.
 */
enum xt_rc db_run_find_label(struct db *db, int64_t trace_id, const char *backend,
			     const char *label, int64_t *run_id);

/*
 * Copies the newest non-golden run labelled `label` of database file
 * `src_path` into `db`, with its observations, their layouts and blobs
 * (blobs and layouts already present are shared), in one transaction.  The
 * run's trace must be in `db` already (matched by content hash).  *run_id
 * is the new run's id.  XT_ERR_NOT_FOUND when `src_path` has no such run or
 * `db` lacks its trace; on any error nothing is written.
 */
enum xt_rc db_run_import(struct db *db, const char *src_path, const char *label,
			 int64_t *run_id);

/* ---- writing a bisect session --------------------------------------------- */

struct db_bisect_desc {
	int64_t trace_id;          /* the trace bisected */
	const char *repo;          /* top directory of the repository (not NULL) */
	const char *good;          /* full commit hashes (not NULL) */
	const char *bad;
	const char *backend;       /* "sim", "host" (not NULL) */
	const char *compare;       /* what verdicts compare: "observations",
	                            * "registers" or "all" (not NULL) */
	const char *build;         /* --build command; NULL: the Meson build */
};

/* Starts a session (status "running"); *session_id is its id. */
enum xt_rc db_bisect_begin(struct db *db, const struct db_bisect_desc *desc,
			   int64_t *session_id);

enum db_bisect_verdict {
	DB_BISECT_GOOD = 0,        /* replays like the good revision */
	DB_BISECT_BAD,             /* replays differently */
	DB_BISECT_SKIP,            /* could not be tested (build failed, ...) */
};

/* "good", "bad", "skip". */
const char *db_bisect_verdict_name(enum db_bisect_verdict v);

struct db_bisect_step {
	const char *commit;        /* full hash (not NULL) */
	const char *subject;       /* its subject line, or NULL */
	enum db_bisect_verdict verdict;
	const char *reason;        /* why (skip: what failed), or NULL */
	int64_t run_id;            /* the run compared, 0 for none */
	bool build_cached;         /* the build (or its failure) was reused */
	bool run_cached;           /* the run was found in the database */
	double build_seconds;      /* spent building in this step */
	double replay_seconds;     /* spent replaying and importing */
};

/* Appends a step (seq 0, 1, ... in call order) to session `session_id`. */
enum xt_rc db_bisect_add_step(struct db *db, int64_t session_id, const struct db_bisect_step *s);

enum db_bisect_status {
	DB_BISECT_RUNNING = 0,     /* not finished, or its process died */
	DB_BISECT_FOUND,           /* the first bad commit is known */
	DB_BISECT_AMBIGUOUS,       /* skipped commits hide it: see candidates */
	DB_BISECT_FAILED,          /* stopped: see message */
};

/* "running", "found", "ambiguous", "failed". */
const char *db_bisect_status_name(enum db_bisect_status s);

struct db_bisect_result {
	enum db_bisect_status status;
	const char *message;       /* one line for the user, or NULL */
	const char *culprit;       /* full hash, or NULL */
	const char *culprit_subject;
	const char *culprit_author;/* "Name <mail>" */
	const char *candidates_json;/* JSON array of full hashes, or NULL */
	int64_t good_run_id;       /* the reference run, 0 for none */
	int64_t culprit_run_id;    /* the culprit's run, 0 for none */
	int64_t first_call;        /* first differing call, -1 for none */
	const char *first_difference;/* what differed there, one line, or NULL */
};

/* Ends session `session_id` with `r`. */
enum xt_rc db_bisect_finish(struct db *db, int64_t session_id, const struct db_bisect_result *r);

/* ---- reading -------------------------------------------------------------- */

/* A session as stored; strings NULL where the column is NULL. */
struct db_bisect_info {
	int64_t id;
	int64_t trace_id;
	const char *trace_hash;
	const char *program;
	const char *repo, *good, *bad, *backend, *compare, *build;
	const char *started_at, *finished_at;
	const char *status;        /* db_bisect_status_name() */
	const char *message;
	const char *culprit, *culprit_subject, *culprit_author;
	const char *candidates_json;
	int64_t good_run_id;       /* 0 for none */
	int64_t culprit_run_id;    /* 0 for none */
	int64_t first_call;        /* -1 for none */
	const char *first_difference;
	int64_t steps;             /* steps stored */
};

/* As stored; see struct db_bisect_step. */
struct db_bisect_step_row {
	int64_t seq;
	const char *commit;
	const char *subject;
	const char *verdict;       /* db_bisect_verdict_name() */
	const char *reason;
	int64_t run_id;            /* 0 for none */
	bool build_cached, run_cached;
	double build_seconds, replay_seconds;
	const char *at;
};

typedef enum xt_rc (*db_bisect_cb)(const struct db_bisect_info *s, void *ctx);
typedef enum xt_rc (*db_bisect_step_cb)(const struct db_bisect_step_row *s, void *ctx);

/* Lists sessions, newest first; `session_id` 0 lists all, else that one
 * (XT_ERR_NOT_FOUND when there is no such session). */
enum xt_rc db_bisect_list(struct db *db, int64_t session_id, db_bisect_cb cb, void *ctx);
/* The steps of session `session_id` in seq order. */
enum xt_rc db_bisect_steps(struct db *db, int64_t session_id, db_bisect_step_cb cb, void *ctx);

/*
 * Appends session `session_id` as one JSON object to `out` (the shape is in
 * docs/db.md, "Bisect sessions as JSON"), or with `session_id` 0 a JSON
 * array of every session without their steps.  XT_ERR_NOT_FOUND when there
 * is no such session.
 */
enum xt_rc db_bisect_json(struct db *db, int64_t session_id, struct xt_buf *out);

#endif
