/*
 * db.h - the results database: traces, runs, their observations and a
 * content-addressed blob store, in one SQLite file or a shared PostgreSQL
 * store (schema and both engines: docs/db.md).
 *
 * A *run* is one replay (or the capture itself) of one trace by one backend
 * at one revision.  The capture's own observations are the trace's *golden*
 * run, recorded when the trace first enters a database (db_trace_record).
 * Other runs are written by whoever produces observations (the host and sim
 * replay backends) through db_run_begin / db_run_add_observation /
 * db_run_finish.  Observation bytes go into the blob store under their
 * XXH3-128, zstd-compressed, so identical buffers of many runs and
 * revisions are stored once.
 *
 * Concurrency and crashes: the file is in WAL mode with a busy timeout, and
 * every write is one short `BEGIN IMMEDIATE` transaction, so any number of
 * processes may write runs into one file at once (on PostgreSQL: one short
 * transaction under the store's writer lock, or, adding an observation,
 * without it; docs/db.md, "A shared store").  A golden run is written
 * in a single transaction together with its trace row: after a crash it is
 * absent, never partial.  Any other run is committed with status
 * "incomplete" at db_run_begin and each observation in its own transaction;
 * a writer that dies leaves the run "incomplete" with the observations it
 * had committed.
 *
 * A `struct db` is used by one thread at a time.  Hostile database contents
 * (edited rows, corrupt blobs, malformed JSON) give XT_ERR_CORRUPT with the
 * row named in the message, never a crash.
 */
#ifndef DB_H
#define DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_query.h"
#include "trace_pixels.h"
#include "trace_reader.h"
#include "xt_arena.h"
#include "xt_buf.h"
#include "xt_json.h"
#include "xt_rc.h"

struct db;
struct db_run;

/* The schema version this build writes (PRAGMA user_version). */
#define DB_SCHEMA_VERSION 5
/* PRAGMA application_id of an xfbtrace results database ("XFBD"). */
#define DB_APPLICATION_ID 0x58464244
/* Busy timeout when XFBTRACE_DB_BUSY_MS is not set, milliseconds. */
#define DB_BUSY_TIMEOUT_MS 60000
/* Largest observation data a run may store, bytes (SQLite's row limit). */
#define DB_MAX_DATA_BYTES (512u << 20)

enum db_open_mode {
	DB_OPEN_EXISTING,  /* readers (runs, diff, regs, bisect --show): the file
	                    * must be a results database (an empty file is an
	                    * error, never made one); opened read-only, after a
	                    * migration by a writable handle when its schema
	                    * is older; nothing may be written through it */
	DB_OPEN_CREATE,    /* created when missing (writers: ingest, replay) */
	DB_OPEN_READONLY,  /* must exist at DB_SCHEMA_VERSION; never written
	                    * (SQLITE_OPEN_READONLY; `xfbtrace web`) */
	/* Both read modes open a file on read-only media (or in a directory
	 * this user cannot write) "immutable": SQLite could not create the
	 * -shm file a WAL database needs, and nobody can be writing it. */
};

/*
 * Opens (or creates) the results database at `path`, an SQLite file or a
 * postgresql:// (postgres://) URL (libpq; connection, authentication and
 * missing-database failures named, the password never).  A file: WAL mode, the busy
 * timeout (XFBTRACE_DB_BUSY_MS overrides DB_BUSY_TIMEOUT_MS), foreign keys
 * on, and the schema migrated to DB_SCHEMA_VERSION in one transaction.
 * Rejects a file that is not SQLite (XT_ERR_CORRUPT), an SQLite file of
 * another application (XT_ERR_INVALID) and a schema newer than this build
 * (XT_ERR_VERSION).  On error *out is NULL and `err` says why.
 */
enum xt_rc db_open(struct db **out, const char *path, enum db_open_mode mode,
		   struct xt_err *err);
/* Closes the database; NULL is a no-op.  Open run writers must be finished
 * or abandoned first. */
void db_close(struct db *db);
/* The last error on `db` (borrowed, valid until the next call on it). */
const struct xt_err *db_err(const struct db *db);

/* ---- traces -------------------------------------------------------------- */

struct db_trace_ref {
	int64_t trace_id;        /* traces.id */
	int64_t golden_run_id;   /* runs.id of its golden run */
	bool created;            /* this call recorded the trace */
	char hash[33];           /* content hash, 32 hex digits */
};

/*
 * Makes sure trace file `path` is in the database, identified by its
 * content hash (XXH3-128 of its records, so the spool and compacted forms
 * of one capture are the same trace; docs/db.md).  When it is new, the
 * trace row and its golden run (backend "capture", revision, driver and
 * time from the trace's properties, label `golden_label`, which may be NULL)
 * with every observation of the trace are written in one transaction.
 * When it is known already, nothing is written.  A corrupt trace is
 * XT_ERR_CORRUPT with the reader's message, and nothing is written.
 */
enum xt_rc db_trace_record(struct db *db, const char *path, const char *golden_label,
			   struct db_trace_ref *out);

/*
 * Finds a trace by `ref`: its id in decimal, or a prefix of at least 4 hex
 * digits of its hash.  XT_ERR_NOT_FOUND when none, XT_ERR_INVALID when the
 * prefix is ambiguous.
 */
enum xt_rc db_trace_lookup(struct db *db, const char *ref, int64_t *trace_id);

/* ---- writing a run -------------------------------------------------------- */

enum db_run_status {
	DB_RUN_INCOMPLETE = 0,  /* being written, or its writer died */
	DB_RUN_OK,              /* the backend ran the whole trace */
	DB_RUN_FAILED,          /* the backend stopped on an error (see summary) */
};

/* "incomplete", "ok", "failed". */
const char *db_run_status_name(enum db_run_status s);

struct db_run_desc {
	int64_t trace_id;         /* from db_trace_record */
	const char *backend;      /* "host", "sim", ... (not NULL) */
	const char *revision;     /* `git describe` of the writer (not NULL) */
	const char *gl_vendor;    /* host runs: GL_VENDOR etc.; NULL otherwise */
	const char *gl_renderer;
	const char *gl_version;
	const char *label;        /* user label, or NULL */
};

/*
 * Starts a run of trace desc->trace_id, committed at once with status
 * "incomplete".  *out is the writer (NULL on error).
 */
enum xt_rc db_run_begin(struct db *db, const struct db_run_desc *desc, struct db_run **out);
/* runs.id of the run being written. */
int64_t db_run_id(const struct db_run *run);

/*
 * Records the driver a run runs on (GL_VENDOR, GL_RENDERER, GL_VERSION; any
 * may be NULL, leaving that column as it is), for writers that learn them
 * only after db_run_begin, once a context exists.
 */
enum xt_rc db_run_set_driver(struct db_run *run, const char *gl_vendor, const char *gl_renderer,
			     const char *gl_version);

/*
 * One observation as the database stores it.  (call_no, kind, index) is
 * unique within a run and is what diff aligns runs by.
 */
struct db_obs {
	uint64_t call_no;          /* the call it was read after (< 2^63) */
	const char *kind;          /* "tf_buffer", "query", ... (not NULL) */
	uint32_t index;            /* tf_buffer: binding point; others: 0 */
	const char *function;      /* name of call call_no, or NULL */
	const char *primitive_mode;/* tf_buffer: the glBeginTransformFeedback
	                            * mode ("GL_TRIANGLES"), or NULL */
	const char *fields_json;   /* JSON object of the other keys (not NULL) */
	const char *layout_json;   /* tf_buffer: the TF layout as JSON; else NULL */
	const void *data;          /* the bytes read back, or NULL for none */
	size_t data_bytes;         /* at most DB_MAX_DATA_BYTES */
	/* What `replay --check` said of this observation against the golden
	 * data (docs/db.md, "Verdicts"): a class ("differs", "undefined",
	 * "implementation-dependent", "precision", "nan-pattern", "lost",
	 * "timing") and the line it printed for it; both NULL when equal or
	 * not checked.  A reason needs a class. */
	const char *verdict_class;
	const char *verdict_reason;
};

/*
 * Stores one observation of `run` in its own transaction (the data
 * compressed outside it, and not at all when the blob store has the bytes
 * already).  The same (call_no, kind, index) twice in a run is
 * XT_ERR_INVALID.  On error nothing of this observation is stored and the
 * run stays writable.
 */
enum xt_rc db_run_add_observation(struct db_run *run, const struct db_obs *obs);

/*
 * Converts an observation MAP of a trace (docs/trace-format.md, "Observation
 * kinds") into *out: `kind`, `index` (tf_buffer) and `data` become fields of
 * their own, `layout` becomes layout_json, every other key goes into
 * fields_json, with enums by name, so that the same observation read by a
 * capture and by a replay gives the same row.  `function` is the name of
 * call `call_no` (or NULL); `tf_primitive_mode` the primitiveMode of the
 * glBeginTransformFeedback in effect, or -1 when unknown (stored beside
 * the fields, so diff can number primitives).  `queries` (NULL: none) is
 * the query targets derived from the calls so far (trace_query.h), and
 * `thread_no` the call's thread: a `query` observation of a query it knows
 * gets the fields "target" (its GL name, e.g. "GL_PRIMITIVES_GENERATED")
 * and, begun by glBeginQueryIndexed, "stream" (the index), which diff
 * shows and does not compare.  Strings live in
 * `scratch` (reset first) and the data in the map: both must outlive *out.
 * A map without a STRING `kind` is XT_ERR_CORRUPT.
 */
enum xt_rc db_obs_from_value(struct db_obs *out, const struct trace_value *map,
			     uint64_t call_no, const char *function, int64_t tf_primitive_mode,
			     const struct trace_queries *queries, uint32_t thread_no,
			     struct xt_buf *scratch, struct xt_err *err);

/*
 * Ends a run: status, summary (may be NULL) and finish time are committed,
 * and the writer is freed whatever the outcome.  On error the run stays
 * "incomplete".
 */
enum xt_rc db_run_finish(struct db_run *run, enum db_run_status status, const char *summary);
/* Frees the writer and leaves the run "incomplete".  NULL is a no-op. */
void db_run_abandon(struct db_run *run);

/* ---- per-call artefacts (sim runs; docs/db.md, call_artifacts / shaders) -- */

/*
 * What the sim backend saw of one call: the PM4 it submitted, the register
 * state after it (draw, TF and query calls), the program it drew with and,
 * the first time that program is seen in the run, its shader binaries as
 * disassembly.  Calls that end a frame (swaps) are recorded with no PM4 so
 * that a timeline can show frames.
 */
struct db_call_art {
	uint64_t call_no;           /* < 2^63 */
	const char *function;       /* not NULL */
	const uint32_t *pm4;        /* PM4 dwords, or NULL */
	uint32_t pm4_dwords;
	const void *regs;           /* (byte offset, value) u32 pairs ascending
	                             * (gm_reg_snapshot), or NULL */
	size_t regs_bytes;          /* a multiple of 8 */
	uint32_t program;           /* the draw's program, 0 for none */
	const char *shader_text;    /* `program`'s disassembly, or NULL when
	                             * already recorded for this run */
	size_t shader_bytes;
	bool frame_end;             /* a swap: the frame ends after this call */
};

/*
 * Stores `a` for `run` in one transaction, the bytes content-addressed in
 * the blob store (an unchanged register state costs one row).  The same
 * call twice is XT_ERR_INVALID.  On error nothing of `a` is stored and the
 * run stays writable.
 */
enum xt_rc db_run_add_call_art(struct db_run *run, const struct db_call_art *a);

/* A stored artefact row (strings borrowed: see each function). */
struct db_call_art_row {
	uint64_t call_no;
	const char *function;
	uint32_t pm4_dwords;
	const char *pm4_hash;       /* NULL when the call submitted no PM4 */
	const char *regs_hash;      /* NULL when no state was recorded */
	uint32_t program;           /* 0 for none */
	bool frame_end;
};

/* Called per artefact row; strings valid during the callback only; a
 * non-OK return stops the listing and is returned. */
typedef enum xt_rc (*db_call_art_cb)(const struct db_call_art_row *row, void *ctx);

/* Lists the artefacts of run `run_id` by call number (none: XT_OK, no
 * callback).  At most `limit` rows (0: all) from call `first` on. */
enum xt_rc db_call_art_list(struct db *db, int64_t run_id, uint64_t first, uint64_t limit,
			    db_call_art_cb cb, void *ctx);

/*
 * Reads the artefacts of call `call_no` of run `run_id` into *out, strings
 * copied into `arena`; out->regs_hash is then that call's state, and
 * *prev_regs_hash (when not NULL; copied into `arena`, NULL when none) the
 * last state recorded before it.  XT_ERR_NOT_FOUND when the call has none.
 */
enum xt_rc db_call_art_get(struct db *db, int64_t run_id, uint64_t call_no,
			   struct db_call_art_row *out, const char **prev_regs_hash,
			   struct xt_arena *arena);

/* The blob hash of program `program`'s shader text in run `run_id`
 * (33 bytes with the NUL).  XT_ERR_NOT_FOUND when not recorded. */
enum xt_rc db_shader_hash(struct db *db, int64_t run_id, uint32_t program, char hash[33]);

/* ---- copying runs between stores (xfbtrace db push; db_copy.c) ----------- */

struct db_push_stats {
	int64_t traces;            /* traces copied, each with its golden run */
	int64_t runs;              /* other runs copied */
	int64_t runs_present;      /* runs the destination held already */
	int64_t runs_unfinished;   /* "incomplete" runs, not pushed */
	int64_t blobs;             /* blobs copied */
	int64_t blob_bytes;        /* their stored (compressed) bytes */
};

/* Called after each trace or run; `done` of `total`. */
typedef void (*db_push_progress_cb)(const struct db_push_stats *s, int64_t done, int64_t total,
				    void *ctx);

/*
 * Copies every trace (with its golden run) and every finished run of `src`
 * that `dst` lacks into `dst`, either store of either engine: each run in
 * one transaction of dst with its observations, artefacts and blobs, so a
 * killed push leaves whole runs.  The source is read through the checked
 * readers: a corrupt row stops the push, naming it.  Pushing twice copies
 * nothing the second time (a run equal to one in dst in its row and the
 * checks of all its rows is "present").  Errors are dst's (db_err(dst)).
 */
enum xt_rc db_push(struct db *src, struct db *dst, db_push_progress_cb progress, void *ctx,
		   struct db_push_stats *stats);
/* Copies run `src_run` (and its trace when dst lacks it) into dst; with
 * `stats`, not when dst holds it already (*dst_run then 0). */
enum xt_rc db_run_copy(struct db *src, int64_t src_run, struct db *dst, int64_t *dst_run,
		       struct db_push_stats *stats);

/* The store as messages name it: the path, or the URL without password. */
const char *db_where(const struct db *db);
/* `where` (a path or URL) without a password, into out[n]. */
void db_redact(const char *where, char *out, size_t n);

/* ---- reading -------------------------------------------------------------- */

/* A run as listed; strings borrowed (see each function), never NULL except
 * where noted. */
struct db_run_info {
	int64_t id;
	int64_t trace_id;
	const char *trace_hash;
	const char *program;       /* the trace's program property, or NULL */
	bool golden;
	const char *backend;
	const char *revision;
	const char *gl_vendor;     /* NULL when not recorded */
	const char *gl_renderer;   /* NULL when not recorded */
	const char *gl_version;    /* NULL when not recorded */
	const char *label;         /* NULL when none */
	const char *started_at;    /* UTC, ISO 8601 */
	const char *finished_at;   /* NULL while incomplete */
	const char *status;        /* db_run_status_name() */
	const char *summary;       /* NULL when none */
	int64_t observations;      /* observations stored */
	int64_t data_bytes;        /* their data, uncompressed bytes */
};

/* Called per run; a non-OK return stops the listing and is returned. */
typedef enum xt_rc (*db_run_cb)(const struct db_run_info *run, void *ctx);

/* Lists the runs of trace `trace_id` (0: all traces) by id; the strings of
 * each row are valid during its callback only. */
enum xt_rc db_runs_list(struct db *db, int64_t trace_id, db_run_cb cb, void *ctx);
/* Reads run `run_id` into *out, its strings copied into `arena`.
 * XT_ERR_NOT_FOUND when there is no such run. */
enum xt_rc db_run_get(struct db *db, int64_t run_id, struct db_run_info *out,
		      struct xt_arena *arena);
/*
 * Run `r` as one JSON object into `w`: id, trace_id, trace_hash, program,
 * golden, backend, revision, gl_renderer, label, started_at, status,
 * summary, observations, data_bytes, and with `every_column` also
 * gl_vendor, gl_version and finished_at (`xfbtrace runs --json`; the web
 * API lists the shorter form).
 */
void db_run_json(struct xt_jw *w, const struct db_run_info *r, bool every_column);

/* An observation as stored; see struct db_obs. */
struct db_obs_row {
	uint64_t call_no;
	const char *kind;
	uint32_t index;
	const char *function;      /* NULL when not recorded */
	const char *fields_json;   /* a JSON object */
	int64_t layout_id;         /* layouts.id, 0 for none */
	const char *blob_hash;     /* NULL for no data */
	int64_t data_bytes;        /* uncompressed bytes, -1 for no data */
	int64_t buffer;            /* the fields' "buffer", -1 when absent */
	/* query: the fields' "query", "target" and "stream" (db_obs_from_value);
	 * -1 / NULL when absent */
	int64_t query;
	const char *query_target;
	int64_t query_stream;
	const char *primitive_mode;/* see struct db_obs, or NULL */
	const char *verdict_class; /* see struct db_obs, or NULL */
	const char *verdict_reason;/* see struct db_obs, or NULL */
};

struct db_obs_iter;

/* Iterates over the observations of run `run_id` in (call_no, kind, index)
 * order, the order diff aligns by. */
enum xt_rc db_obs_iter_open(struct db *db, int64_t run_id, struct db_obs_iter **out);
/* The next row (strings valid until the next call); XT_ERR_EOF at the end. */
enum xt_rc db_obs_iter_next(struct db_obs_iter *it, struct db_obs_row *out);
/* NULL is a no-op. */
void db_obs_iter_close(struct db_obs_iter *it);

/*
 * Reads blob `hash` into `out` (replacing its contents): decompressed,
 * checked against its declared size and its hash.  XT_ERR_NOT_FOUND when
 * absent, XT_ERR_CORRUPT when any check fails.
 */
enum xt_rc db_blob_get(struct db *db, const char *hash, struct xt_buf *out);

/*
 * Compares two JSON objects (observation fields) key by key with SQLite's
 * JSON functions, calling cb(key, a, b) for each key whose value differs:
 * a and b are the values as JSON text, NULL where the key is absent.  Keys
 * come in a's order, then those only b has.  Malformed JSON is
 * XT_ERR_CORRUPT; a non-OK return of cb stops and is returned.
 */
typedef enum xt_rc (*db_json_diff_cb)(const char *key, const char *a, const char *b, void *ctx);
enum xt_rc db_json_object_diff(struct db *db, const char *a, const char *b, db_json_diff_cb cb,
			       void *ctx);

/*
 * A stored `pixels` observation (its row's `fields_json` and its data,
 * `len` bytes) as an image, validated as the trace reader validates the
 * record (trace_pixels_of): XT_ERR_CORRUPT naming what is wrong.  *px
 * points into `data` (db_image.c).
 */
enum xt_rc db_obs_pixels(struct db *db, const char *fields_json, const void *data, size_t len,
			 struct trace_pixels *px);

/* One varying of a TF layout (docs/trace-format.md, tf_buffer `layout`). */
struct db_tf_varying {
	const char *name;          /* as the program reports it */
	const char *type;          /* GL type name ("GL_FLOAT_VEC4"), or its
	                            * value in decimal when the name is unknown */
	uint32_t size;             /* array size; 0 for gl_NextBuffer */
	uint32_t buffer;           /* binding point */
	uint32_t offset;           /* bytes within a vertex of that buffer */
};

struct db_tf_layout {
	int64_t program;           /* the program name in the trace */
	const char *mode;          /* "GL_INTERLEAVED_ATTRIBS" / "GL_SEPARATE_ATTRIBS" */
	uint32_t nstrides;
	uint32_t *strides;         /* bytes per vertex, per binding point */
	uint32_t nvaryings;
	struct db_tf_varying *varyings;
};

/* Limits db_layout_load enforces on hostile rows. */
#define DB_LAYOUT_MAX_STRIDE (1u << 20)
#define DB_LAYOUT_MAX_BUFFERS 64u
#define DB_LAYOUT_MAX_VARYINGS 4096u

/* Loads and checks layout `layout_id`, allocating in `arena`.
 * XT_ERR_NOT_FOUND when absent, XT_ERR_CORRUPT when malformed. */
enum xt_rc db_layout_load(struct db *db, int64_t layout_id, struct xt_arena *arena,
			  struct db_tf_layout *out);

#endif
