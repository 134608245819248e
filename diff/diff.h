/*
 * diff.h - comparing two runs of one trace, observation by observation
 * (the engine of `xfbtrace diff`; docs/guide.md, "Results database and
 * diff").
 *
 * Observations are aligned by (call number, kind, index).  For each pair:
 * the fields (query results, buffer names, ranges, ...) are compared
 * exactly, key by key; the data is compared through the blob hashes first
 * (equal hashes: equal bytes, nothing decoded), and otherwise decoded: a
 * tf_buffer by its TF layout into vertices, varyings and components (the
 * layout decoder of trace/trace_tf.h; see diff_tf.c), anything else byte
 * by byte.
 *
 * Scalars are compared under a tolerance by the rules of trace/trace_tol.h.
 */
#ifndef DIFF_H
#define DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "db.h"
#include "glapi_types.h"
#include "trace_pixels.h"
#include "trace_tf.h"
#include "trace_tol.h"
#include "xt_arena.h"
#include "xt_buf.h"
#include "xt_rc.h"

struct diff_options {
	struct trace_tol tol;    /* parsed by trace_tol_parse */
	struct trace_img_tol img_tol;  /* images (`pixels`): trace_img_tol_parse;
	                          * all zero: exact */
	uint32_t max_items;      /* differences kept per observation (all are
	                          * counted); 0 keeps all */
	bool no_hash_shortcut;   /* decode and compare even when the blob hashes
	                          * match (benchmarks; the result is the same) */
	bool strict;             /* count classified differences too (below) */
};

/* ---- component types ------------------------------------------------------ */

/*
 * The varyings of TF layout `l` as trace_tf.h decodes them, allocated in
 * `arena`: each type from its GL name, or from its GLenum value in decimal
 * as db stores a name it does not know (GL_NONE when neither).  The web UI
 * decodes with the same.  The only failure is XT_ERR_NOMEM.
 */
enum xt_rc diff_tf_varyings(const struct db_tf_layout *l, struct xt_arena *arena,
			    struct trace_tf_varying **out);

/* ---- results -------------------------------------------------------------- */

enum diff_item_kind {
	DIFF_ITEM_COMPONENT = 0, /* one component of one vertex of a TF buffer */
	DIFF_ITEM_BYTES,         /* bytes no varying covers (or no layout) */
	DIFF_ITEM_FIELD,         /* a key of the observation's fields */
	DIFF_ITEM_SIZE,          /* data sizes differ (a, b: bytes) */
	DIFF_ITEM_DATA,          /* data present in one run only (a, b: 0/1) */
	DIFF_ITEM_LAYOUT,        /* TF layouts differ (A's decodes both) */
	DIFF_ITEM_PIXEL,         /* one pixel of an image (`pixels`) */
};

struct diff_item {
	enum diff_item_kind kind;
	/* COMPONENT */
	uint64_t vertex;             /* within the observation's range */
	int64_t primitive;           /* vertex / vertices per primitive; -1 unknown */
	const char *varying;         /* its name in the layout */
	int64_t element;             /* array element; -1 when not an array */
	uint32_t component;          /* scalar within the element */
	const char *component_name;  /* "x".."w", "[col][row]", or "" */
	enum trace_tol_scalar scalar;
	uint64_t a, b;               /* bits (COMPONENT), sizes (SIZE), flags (DATA) */
	double delta;                /* b - a */
	uint64_t ulps;               /* distance, UINT64_MAX when not meaningful */
	enum trace_tol_why why;
	/* COMPONENT and BYTES */
	uint64_t byte_offset;        /* in the data */
	uint64_t byte_count;         /* BYTES: length of the differing run */
	/* PIXEL: window coordinates, the values of run A and B (`channels`
	 * of them, in the type's units), beyond the image tolerance's max */
	int64_t x, y;
	double pixel_a[4], pixel_b[4];
	uint32_t channels;
	bool over;
	/* FIELD */
	const char *field;           /* key */
	const char *a_text, *b_text; /* JSON values; NULL when the key is absent */
};

enum diff_obs_state {
	DIFF_OBS_DIFFERENT = 0,  /* in both runs, with differences */
	DIFF_OBS_ONLY_A,         /* in run A only */
	DIFF_OBS_ONLY_B,         /* in run B only */
};

/* One differing observation, handed to the callback; everything it points
 * to is valid during the callback only. */
struct diff_obs {
	enum diff_obs_state state;
	uint64_t call_no;
	const char *kind;
	uint32_t index;
	const char *function;         /* NULL when not recorded */
	int64_t buffer;               /* the fields' buffer name, -1 when none */
	int64_t query;                /* query: its name, target and stream as */
	const char *query_target;     /* db_obs_row has them (-1 / NULL) */
	int64_t query_stream;
	uint32_t stride;              /* TF buffer: bytes per vertex, 0 if undecoded */
	uint64_t vertices;            /* TF buffer: vertices compared */
	uint64_t components_compared;
	uint64_t components_differ;
	uint64_t bytes_differ;        /* bytes outside components that differ */
	uint64_t fields_differ;
	uint64_t differences;         /* all differences found, kept or not */
	const char *note;             /* why data was compared as bytes, or NULL */
	/* An image (`pixels`): its size, the pixels whose bytes differ, those
	 * beyond the image tolerance's max, the largest value difference.
	 * An image within the tolerance counts as the same. */
	uint32_t width, height;
	uint64_t pixels_differ, pixels_over;
	double pixel_max_delta;
	/* What `replay --check` said of each side against the golden data
	 * (db.h, struct db_obs), NULL when nothing.  Between the golden run
	 * and another, a class of the other's other than "differs" makes the
	 * observation `classified`: counted in diff_summary.classified and,
	 * unless diff_options.strict (for the classes `replay --check
	 * --strict` counts: undefined, implementation-dependent, precision),
	 * not as a difference (issue 19: `diff` shows the classes `replay
	 * --check` gave). */
	const char *verdict_a_class, *verdict_a_reason;
	const char *verdict_b_class, *verdict_b_reason;
	bool classified;
	bool excused;                 /* classified and not counted */
	uint32_t nitems;              /* kept (see diff_options.max_items) */
	const struct diff_item *items;
};

struct diff_summary {
	uint64_t pairs;                /* observations in both runs */
	uint64_t same;
	uint64_t different;
	uint64_t different_tf;         /* ... of which tf_buffer */
	uint64_t different_query;      /* ... of which query */
	uint64_t only_a, only_b;       /* ... all three without the classified
	                                * ones, unless diff_options.strict */
	uint64_t classified;           /* see diff_obs.classified */
	uint64_t data_bytes;           /* data of the pairs, bytes (run A's) */
	uint64_t hash_matches;         /* pairs whose data matched by hash */
	uint64_t components_compared;  /* decoded TF components */
	uint64_t components_differ;
	uint64_t bytes_differ;
	uint64_t fields_differ;
};

/* Called per differing observation, in alignment order; a non-OK return
 * stops the diff and is returned. */
typedef enum xt_rc (*diff_obs_cb)(const struct diff_obs *d, void *ctx);

/*
 * Compares run `run_a` with run `run_b` of `db`.  Both must be runs of the
 * same trace (XT_ERR_INVALID otherwise, naming both hashes).  *sum is filled
 * even when the callback was never called (the runs are the same).  A
 * corrupt row, blob or layout is XT_ERR_CORRUPT naming it; `err` says why.
 */
enum xt_rc diff_runs(struct db *db, int64_t run_a, int64_t run_b, const struct diff_options *o,
		     diff_obs_cb cb, void *ctx, struct diff_summary *sum, struct xt_err *err);

/* ---- register state, PM4 and shaders of sim runs (diff_calls.c) ---------- */

/*
 * Prints register state `regs` (n (byte offset, value) pairs, as
 * gm_reg_snapshot and docs/db.md store it) as the PM4 decoder prints
 * SET_*_REG packets, so registers read with their fields exactly as in a
 * PM4 dump, under the title `name`.  When `prev` (nprev pairs) is not NULL
 * only registers whose value differs from it are printed.  Appends to
 * `out`; the only failure is XT_ERR_NOMEM.
 */
enum xt_rc diff_regs_decode(const uint32_t *regs, size_t n, const uint32_t *prev, size_t nprev,
			    const char *name, struct xt_buf *out);

/* One register field whose value differs between two states. */
struct diff_field {
	uint32_t reg;               /* byte offset */
	const char *reg_name;       /* database name; NULL for an unknown register */
	const char *field;          /* field name; NULL: the whole value */
	uint32_t a, b;              /* the field's values (whole values for NULL) */
	const char *a_name, *b_name;/* enum names of a / b, or NULL */
	bool in_a, in_b;            /* the register is in that state at all */
	bool f32;                   /* a and b are f32 bits (PM4_TYPE_F32) */
};

/*
 * Compares register states a (na pairs) and b (nb pairs) field by field,
 * into *out (heap, the caller frees it; NULL when none) and *count, in
 * register order, then bit order.  A register of one state only counts as
 * 0 in the other (its fields are reported with in_a / in_b false).
 */
enum xt_rc diff_regs_compare(const uint32_t *a, size_t na, const uint32_t *b, size_t nb,
			     struct diff_field **out, size_t *count);
/* "VGT_STRMOUT_VTX_STRIDE_0.STRIDE"; "0x28b04" (with ".FIELD" when there
 * is one) for a register the database lacks. */
void diff_field_name(const struct diff_field *f, char *out, size_t n);
/* Field `f` as one JSON object: name, with `register` its offset
 * ("0x28b04"), a, b, a_name, b_name, in_a, in_b, and for an f32 register
 * a_text / b_text, pm4_f32_text's "0.5f (0x3f000000)" (diff --json and the
 * web API). */
void diff_field_json(struct xt_jw *w, const struct diff_field *f, bool with_register);

/* One PM4 packet of a call, as diff aligns them. */
struct diff_packet {
	uint32_t offset_dw;         /* of its header in the call's PM4 */
	uint32_t size_dw;           /* header + payload (or the bad span) */
	uint32_t key;               /* what must match for two packets to align:
	                             * opcode, plus the first register for
	                             * SET_*_REG, type and header for the rest */
	const char *name;           /* "SET_CONTEXT_REG", "PKT3_UNKNOWN", "BAD" */
	uint32_t reg;               /* SET_*_REG: first register, else 0 */
};

/* Splits `n` dwords of PM4 into packets (pm4_parser: never fails on
 * garbage, a bad header becomes one "BAD" item).  *out is heap. */
enum xt_rc diff_pm4_split(const uint32_t *dw, uint32_t n, struct diff_packet **out,
			  size_t *count);

enum diff_edit_op {
	DIFF_EDIT_SAME = 0,         /* in both, equal */
	DIFF_EDIT_CHANGED,          /* aligned (same key), contents differ */
	DIFF_EDIT_DELETED,          /* in A only */
	DIFF_EDIT_INSERTED,         /* in B only */
};

/* One step of an edit script from A to B. */
struct diff_edit {
	enum diff_edit_op op;
	int32_t a, b;               /* index in A / B, -1 where absent */
};

/*
 * An edit script turning items A into items B: the longest common
 * subsequence of keys (dynamic programming, O(na * nb); past
 * DIFF_ALIGN_MAX_CELLS cells the common prefix and suffix are kept and the
 * middle becomes deletions then insertions), with aligned items whose
 * contents differ marked CHANGED.  key_a / key_b are the keys, same_* says
 * whether aligned items i, j are equal.  *out is heap.
 */
#define DIFF_ALIGN_MAX_CELLS (16u << 20)
enum xt_rc diff_align(const uint32_t *key_a, size_t na, const uint32_t *key_b, size_t nb,
		      bool (*same)(size_t i, size_t j, void *ctx), void *ctx,
		      struct diff_edit **out, size_t *count);

/* What diff_calls compares. */
enum {
	DIFF_CALLS_PM4 = 1u << 0,
	DIFF_CALLS_REGS = 1u << 1,
	DIFF_CALLS_SHADERS = 1u << 2,
};

/* One call whose artefacts differ (or exist in one run only); everything
 * it points to is valid during the callback only. */
struct diff_call {
	uint64_t call_no;
	const char *function;
	bool in_a, in_b;            /* artefacts recorded in that run */
	bool pm4_differs, regs_differ, shader_differs;
	/* PM4 (DIFF_CALLS_PM4) */
	const uint32_t *pm4_a, *pm4_b;
	uint32_t pm4_dw_a, pm4_dw_b;
	const struct diff_packet *packets_a, *packets_b;
	size_t npackets_a, npackets_b;
	const struct diff_edit *edits;   /* the packet edit script */
	size_t nedits;
	uint32_t packets_differ;    /* edits that are not SAME */
	/* registers (DIFF_CALLS_REGS) */
	const struct diff_field *fields;
	size_t nfields;
	/* shaders (DIFF_CALLS_SHADERS): the program's disassembly, by line */
	uint32_t program_a, program_b;
	const char *shader_a, *shader_b;  /* NUL-terminated, or NULL */
	const struct diff_edit *shader_edits;
	size_t nshader_edits;
};

struct diff_calls_summary {
	uint64_t calls_a, calls_b;  /* calls with artefacts in each run */
	uint64_t compared;          /* in both */
	uint64_t differ;            /* calls reported (incl. one-sided) */
	uint64_t pm4_differ, regs_differ, shader_differ;
	bool diverged;              /* first_* are set */
	uint64_t first_call;        /* the first call reported */
	char first_function[96];
};

typedef enum xt_rc (*diff_call_cb)(const struct diff_call *c, void *ctx);

/*
 * Compares the per-call artefacts of runs `run_a` and `run_b` (docs/db.md,
 * call_artifacts), aligned by call number: for each call in both, the PM4
 * as an edit script over packets, the register state field by field and
 * the program's shader disassembly line by line, as `what` asks; calls
 * with a difference (or in one run only) go to `cb` in call order.  Blob
 * hashes are compared first, so equal artefacts cost no decoding.  Runs of
 * different traces are XT_ERR_INVALID.  `cb` may be NULL (summary only).
 */
enum xt_rc diff_calls(struct db *db, int64_t run_a, int64_t run_b, unsigned what,
		      diff_call_cb cb, void *ctx, struct diff_calls_summary *sum,
		      struct xt_err *err);

/* Only call `call_no` (XT_ERR_NOT_FOUND when neither run has it); `cb` is
 * called even when the call is the same in both (all *_differ false). */
enum xt_rc diff_call_one(struct db *db, int64_t run_a, int64_t run_b, uint64_t call_no,
			 unsigned what, diff_call_cb cb, void *ctx, struct xt_err *err);

#endif
