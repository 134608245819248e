/*
 * trace_defined.h - which bytes of each buffer object the application
 * defined, derived from a trace's recorded calls: the one model of it, for
 * the replay check (replay/replay_check.c) and, later, the diff and the web
 * UI (issue 19, "undefined bytes").
 *
 * The GL leaves the contents of a buffer undefined where the application
 * never put anything: glBufferData / glBufferStorage with NULL data,
 * glInvalidateBuffer[Sub]Data, a mapping with GL_MAP_INVALIDATE_*_BIT, the
 * part of a TF buffer no vertex was written to.  Drivers differ there
 * (NVIDIA hands out recycled memory, llvmpipe zeros), so a read-back of such
 * bytes differs between any two runs, even of the same driver.  The tracker
 * walks the calls in recorded order and keeps, per buffer, the set of byte
 * ranges that were defined since its storage was created:
 *
 *   defined by   glBufferData / glBufferStorage with data, glBufferSubData,
 *                glCopyBufferSubData (the source's defined bytes, moved),
 *                glClearBuffer[Sub]Data, the bytes of MEMWRITE records of
 *                a mapping ("map-unmap", "map-flush", "persistent": what the
 *                application wrote through it), TF writes (below), and,
 *                conservatively as a whole buffer, anything else the GPU may
 *                write: a query result into a query buffer, pixels packed
 *                into a pixel pack buffer, shader stores into buffers that
 *                were bound as shader storage / atomic counter / texture
 *                buffers (at every draw or dispatch);
 *   undefined by glBufferData / glBufferStorage with NULL data (all of it),
 *                glInvalidateBufferData / glInvalidateBufferSubData,
 *                GL_MAP_INVALIDATE_BUFFER_BIT / GL_MAP_INVALIDATE_RANGE_BIT.
 *
 * TF writes define exactly the bytes of the vertices written: the tracker
 * counts the primitives of each draw made while TF is active (mode, count,
 * instances; glBegin / glEnd counted vertex by vertex), and when the golden
 * tf_buffer observation after glEndTransformFeedback / glPause arrives, its
 * layout gives the bytes per vertex of every binding point; primitives are
 * placed from the write position on as the GL does, stopping at the first
 * one that does not fit in every buffer.  Where the count cannot be known
 * (a geometry or tessellation shader, indirect draws,
 * glDrawTransformFeedback, a program the tracker has not seen linked, no
 * layout), the whole bound range counts as written.
 *
 * The model errs one way only: whatever it cannot follow counts as defined
 * (a buffer it never saw created, a binding it does not know, a write it
 * cannot place: then every buffer of the share group becomes wholly
 * defined), so a byte is reported undefined only where the recorded calls
 * show the application never defined it.  Out of memory, it gives up the
 * same way (everything defined from then on).
 *
 * It also keeps what two other classes of issue 19 need: the TF triangles
 * made of quads, quad strips and polygons (GL 4.6 compatibility profile
 * §13.3: "the order of tessellation within a primitive is undefined"), and
 * which program was in use while TF wrote a range, with the call of its last
 * link (a replay that could not link that program differs there as a
 * consequence).
 *
 * Names are the application's (as recorded); buffers, programs and shaders
 * per share group, container objects (TF objects, vertex arrays, program
 * pipelines) per context, following the trace's CONTEXT records.
 */
#ifndef TRACE_DEFINED_H
#define TRACE_DEFINED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_reader.h"
#include "xt_rc.h"

/* ---- sets of byte ranges ------------------------------------------------ */

struct trace_range {
	uint64_t lo, hi;              /* [lo, hi), lo < hi */
};

/* Sorted, disjoint and non-adjacent ranges. */
struct trace_ranges {
	struct trace_range *r;
	size_t n, cap;
};

void trace_ranges_init(struct trace_ranges *s);
void trace_ranges_fini(struct trace_ranges *s);
void trace_ranges_clear(struct trace_ranges *s);
/* Adds [lo, hi) (nothing when lo >= hi); XT_ERR_NOMEM leaves *s as it was. */
enum xt_rc trace_ranges_add(struct trace_ranges *s, uint64_t lo, uint64_t hi);
/* Removes [lo, hi); XT_ERR_NOMEM (a range split in two) leaves *s as it was. */
enum xt_rc trace_ranges_remove(struct trace_ranges *s, uint64_t lo, uint64_t hi);
/* Whether byte `at` is in the set. */
bool trace_ranges_has(const struct trace_ranges *s, uint64_t at);
/* Into *out (cleared first): the parts of [lo, hi) that are not in *s. */
enum xt_rc trace_ranges_gaps(const struct trace_ranges *s, uint64_t lo, uint64_t hi,
			     struct trace_ranges *out);

/* ---- the tracker ---------------------------------------------------------- */

struct trace_defined;

/* XT_ERR_NOMEM or XT_OK. */
enum xt_rc trace_defined_create(struct trace_defined **out);
/* NULL is a no-op. */
void trace_defined_destroy(struct trace_defined *d);

/*
 * Reads trace `path` once before it is fed: the golden results of the
 * queries that counted primitives (GL_PRIMITIVES_GENERATED,
 * GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN), which bound what TF wrote where
 * the tracker cannot count the primitives itself (a geometry shader that
 * emits to one vertex stream): without them that TF range is all defined.
 * A trace that cannot be read is left to the feeding to report.
 */
void trace_defined_prescan(struct trace_defined *d, const char *path);

/*
 * Feeding, in the trace's global order (as the reader delivers records):
 * each call with its RET (`ret` NULL when it has none), MEMWRITE records
 * (before the call they belong to, as recorded), CONTEXT records (after
 * their call; `thread_no` is that call's thread) and the golden
 * observations (after their call).  Nothing fails: what the tracker cannot
 * follow becomes defined.
 */
void trace_defined_call(struct trace_defined *d, const struct trace_call *call,
			const struct trace_ret *ret);
void trace_defined_memwrite(struct trace_defined *d, uint64_t call_no, uint64_t addr,
			    uint64_t n, const char *why);
void trace_defined_context(struct trace_defined *d, uint32_t thread_no,
			   const struct trace_value *event);
void trace_defined_observation(struct trace_defined *d, uint64_t call_no,
			       const struct trace_value *obs);

/*
 * The parts of bytes [offset, offset + len) of buffer `buffer` (the share
 * group current on recorded thread `thread_no`) that the application never
 * defined, into *out (buffer offsets; cleared first), and in `why` (n
 * bytes) how the buffer came to hold them ("glBufferData(NULL) at call 12,
 * TF wrote 16 bytes (calls 20-31)").  False when every byte is defined (or
 * on XT_ERR_NOMEM: then nothing is reported undefined).
 */
bool trace_defined_undefined(const struct trace_defined *d, uint32_t thread_no, uint64_t buffer,
			     uint64_t offset, uint64_t len, struct trace_ranges *out, char *why,
			     size_t n);

/*
 * Triangles that TF made of a quad, a quad strip or a polygon: `nprims`
 * triangles of `vertex_bytes` bytes per vertex from byte `offset` of the
 * buffer, in groups of `group` consecutive triangles that come from one
 * source primitive (2 for a quad and each quad of a strip; n - 2 for a
 * polygon of n vertices).
 */
struct trace_defined_tess {
	uint64_t offset;
	uint64_t nprims;
	uint32_t vertex_bytes;
	uint32_t group;
	uint64_t draw_call;           /* the draw that made them */
	uint32_t mode;                /* its primitive mode (GL_QUADS ...) */
	uint64_t written_dw;          /* bit k: TF writes dword k of a vertex (the
	                               * others are gl_SkipComponents gaps or
	                               * xfb_stride padding); 0: every byte */
};

/* The runs of such triangles in `buffer` that still hold what TF wrote,
 * in no particular order: *out borrowed until the next feeding call; their
 * count. */
size_t trace_defined_tess_runs(const struct trace_defined *d, uint32_t thread_no,
			       uint64_t buffer, const struct trace_defined_tess **out);

/*
 * Whether the `group` triangles of `vertex_bytes` bytes per vertex at
 * `replay` are a tessellation of the same source primitive as those at
 * `golden` (3 * group * vertex_bytes bytes each): the same number of
 * triangles, each made of vertices of the golden's, distinct ones where
 * the golden's triangles have distinct ones, together using every vertex
 * the golden's use.  With `written_dw` (bit k: TF writes dword k of a
 * vertex) vertices are compared in those dwords only, and every other
 * dword must be the same on both sides in place (what was there before
 * TF: a gl_SkipComponents gap, xfb_stride padding).
 */
bool trace_defined_tess_equivalent(const uint8_t *golden, const uint8_t *replay,
				   uint32_t group, uint32_t vertex_bytes, uint64_t written_dw);

/* A range of a buffer that TF wrote (the whole bound range) while
 * `program` (0: none or a pipeline the tracker did not follow) was in use,
 * `link_call` being that program's last glLinkProgram (or
 * glCreateShaderProgramv; 0 when unknown), in the TF session begun at
 * `begin_call`. */
struct trace_defined_prod {
	uint64_t lo, hi;
	uint64_t program;
	uint64_t link_call;
	uint64_t begin_call;
};

/* The ranges of `buffer` that TF wrote and that still hold what it wrote,
 * disjoint, in no particular order: *out borrowed until the next feeding
 * call; their count. */
size_t trace_defined_producers(const struct trace_defined *d, uint32_t thread_no,
			       uint64_t buffer, const struct trace_defined_prod **out);

/* The program in use on `thread_no`'s context (glUseProgram's name as
 * recorded, 0 for none) and its last link call (0 when unknown). */
uint64_t trace_defined_program(const struct trace_defined *d, uint32_t thread_no,
			       uint64_t *link_call);
/* The last link call of program `program` in `thread_no`'s share group, 0
 * when none was seen. */
uint64_t trace_defined_link_call(const struct trace_defined *d, uint32_t thread_no,
				 uint64_t program);
/* Whether program `program` of `thread_no`'s share group, as its link at
 * `link_call` made it, has a stage whose GLSL source declares a
 * multisample sampler (sampler2DMS*); false when unknown (SPIR-V,
 * program binaries, relinked since). */
bool trace_defined_multisample(const struct trace_defined *d, uint32_t thread_no, uint64_t program,
			       uint64_t link_call);

/*
 * Whether the GL_PRIMITIVES_GENERATED query `query` (stream 0) whose result
 * the observation at call `at_call` of `thread_no` reads spanned a draw of
 * quads, quad strips or polygons (compatibility profile): the first such
 * draw in *draw_call and its mode.  GL counts a primitive when it reaches
 * the Discarding Rasterization stage (GL 4.6 compatibility profile §13.5,
 * Primitive Queries) and splits quads and polygons into triangles only to
 * record them (§13.3): whether such a primitive counts once or as the
 * triangles it became is not determined, and implementations differ
 * (one may count a quad once while TF is paused and twice while it is
 * active).
 */
bool trace_defined_query_quads(const struct trace_defined *d, uint32_t thread_no, uint64_t query,
			       uint64_t at_call, uint64_t *draw_call, uint32_t *mode);

#endif
