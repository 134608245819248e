/*
 * trace_tf.h - the TF layout of a tf_buffer observation decoded into where
 * each component of a vertex lies: the one decoder of TF data, used by the
 * replay's checks against golden data (replay/replay_check.c), the diff
 * (diff/diff_tf.c) and the web UI's tables and plots (web/web_tf.c).
 *
 * A layout (docs/trace-format.md, "Observation kinds", tf_buffer) lists
 * varyings with a GL type, an array size, the binding point they are
 * captured into and their byte offset within a vertex of that binding
 * point, plus one stride per binding point.  For one binding point the
 * decoder keeps each varying TF can hold (glapi_types.h) as a *span*: its
 * elements' components lie one after the other from its offset, element e
 * component k at offset + (e * components + k) * component_bytes, matrices
 * column by column.  gl_SkipComponentsN and gl_NextBuffer are markers, not
 * data.
 *
 * Layouts come from traces and databases and may be hostile: a varying
 * that ends past the stride is left out and named, so is the first one
 * that overlaps an earlier one's bytes, and a type TF cannot capture is
 * counted; each caller decides what that means for it (an error in the
 * diff, no table in the web UI, no NaN tolerance in the replay check).
 * Nothing here allocates beyond what the caller passes in.
 */
#ifndef TRACE_TF_H
#define TRACE_TF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "glapi_types.h"
#include "trace_reader.h"
#include "xt_arena.h"
#include "xt_rc.h"

/* One varying of a layout, as the trace or the database gave it. */
struct trace_tf_varying {
	const char *name;          /* NUL-terminated */
	uint32_t type;             /* GLenum; GL_NONE for the markers */
	uint32_t size;             /* array size (components for gl_SkipComponentsN) */
	uint32_t buffer;           /* binding point */
	uint64_t offset;           /* bytes within a vertex of that binding point */
};

/* One varying of the binding point that TF data holds. */
struct trace_tf_span {
	uint32_t varying;              /* its index in the layout */
	const struct glapi_type *type; /* a type with tf set */
	uint32_t size;                 /* elements, >= 1 */
	uint64_t offset;               /* of its first component */
	uint64_t bytes;                /* size * components * component_bytes */
};

struct trace_tf_plan {
	uint64_t stride;           /* bytes per vertex; 0: none, nothing decoded */
	uint32_t nspans;           /* in layout order */
	struct trace_tf_span *spans;  /* the caller's storage */
	uint64_t components;       /* per vertex, over all spans */
	bool undecodable;          /* a varying (not a marker) of a type TF cannot hold was left out */
	int64_t past_stride;       /* first varying that ends past the stride (left out), or -1 */
	int64_t overlap;           /* first varying whose bytes overlap an earlier span's, or -1 */
};

/* Whether `name` is gl_SkipComponents1..4 or gl_NextBuffer. */
bool trace_tf_is_marker(const char *name);

/* The type `value` as TF data holds it; NULL when TF cannot capture it. */
const struct glapi_type *trace_tf_type(uint32_t value);

/*
 * The spans of binding point `index` of varyings v[0..n) with `stride`
 * bytes per vertex, into *out; `spans` holds room for n.  Varyings of size
 * 0 hold nothing and are left out.
 */
void trace_tf_plan(const struct trace_tf_varying *v, uint32_t n, uint32_t index, uint64_t stride,
		   struct trace_tf_span *spans, struct trace_tf_plan *out);

/* The byte of span `s` at which the component holding byte `at` of a
 * vertex starts (`at` inside the span). */
static inline uint64_t trace_tf_component_start(const struct trace_tf_span *s, uint64_t at)
{
	return at - (at - s->offset) % s->type->component_bytes;
}

/* The first span (in layout order) that holds byte `at` of a vertex, or NULL. */
const struct trace_tf_span *trace_tf_span_at(const struct trace_tf_plan *p, uint64_t at);

/*
 * The layout of tf_buffer observation `obs` (a MAP as trace_value_decode
 * gives it): its varyings into *v / *n (allocated in `arena`, names
 * NUL-terminated copies) and the stride of its own binding point ("index")
 * in *stride (0 when the layout has none).  A varying without a usable
 * type, buffer or offset gets GL_NONE, UINT32_MAX, UINT64_MAX.
 * XT_ERR_CORRUPT when there is no layout or its parts are not arrays;
 * XT_ERR_NOMEM.
 */
enum xt_rc trace_tf_layout_of(const struct trace_value *obs, struct xt_arena *arena,
			      struct trace_tf_varying **v, uint32_t *n, uint64_t *stride);

#endif
