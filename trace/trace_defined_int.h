/*
 * trace_defined_int.h - the state of the defined-bytes tracker
 * (trace_defined.h), shared by its files: trace_defined.c (contexts,
 * bindings, buffers, programs, the answers), trace_defined_funcs.c (which
 * functions it follows), trace_defined_calls.c (what they do),
 * trace_defined_tf.c (transform feedback: sessions, primitive counts,
 * placing the vertices when the golden layout arrives, the tessellation
 * check) and trace_defined_scan.c (the queries read ahead).
 *
 * GL enum values are the registry's (gl.xml); trace/ includes no GL header
 * (docs/architecture.md), so the few the tracker needs are spelled here.
 */
#ifndef TRACE_DEFINED_INT_H
#define TRACE_DEFINED_INT_H

#include "trace_defined.h"

enum {
	DGL_POINTS = 0x0000, DGL_LINES = 0x0001, DGL_LINE_LOOP = 0x0002, DGL_LINE_STRIP = 0x0003,
	DGL_TRIANGLES = 0x0004, DGL_TRIANGLE_STRIP = 0x0005, DGL_TRIANGLE_FAN = 0x0006,
	DGL_QUADS = 0x0007, DGL_QUAD_STRIP = 0x0008, DGL_POLYGON = 0x0009,
	DGL_LINES_ADJACENCY = 0x000A, DGL_LINE_STRIP_ADJACENCY = 0x000B,
	DGL_TRIANGLES_ADJACENCY = 0x000C, DGL_TRIANGLE_STRIP_ADJACENCY = 0x000D,
	DGL_PRIMITIVE_RESTART = 0x8F9D, DGL_PRIMITIVE_RESTART_FIXED_INDEX = 0x8D69,
	DGL_VERTEX_SHADER = 0x8B31, DGL_FRAGMENT_SHADER = 0x8B30, DGL_GEOMETRY_SHADER = 0x8DD9,
	DGL_TESS_EVALUATION_SHADER = 0x8E87, DGL_TESS_CONTROL_SHADER = 0x8E88,
	DGL_COMPUTE_SHADER = 0x91B9,
	DGL_VERTEX_SHADER_BIT = 0x1, DGL_GEOMETRY_SHADER_BIT = 0x4,
	DGL_TESS_CONTROL_SHADER_BIT = 0x8, DGL_TESS_EVALUATION_SHADER_BIT = 0x10,
	DGL_MAP_READ_BIT = 0x1, DGL_MAP_WRITE_BIT = 0x2, DGL_MAP_INVALIDATE_RANGE_BIT = 0x4,
	DGL_MAP_INVALIDATE_BUFFER_BIT = 0x8,
	DGL_READ_ONLY = 0x88B8, DGL_WRITE_ONLY = 0x88B9, DGL_READ_WRITE = 0x88BA,
	DGL_TRANSFORM_FEEDBACK_BUFFER = 0x8C8E, DGL_ELEMENT_ARRAY_BUFFER = 0x8893,
	DGL_SHADER_STORAGE_BUFFER = 0x90D2, DGL_ATOMIC_COUNTER_BUFFER = 0x92C0,
	DGL_UNIFORM_BUFFER = 0x8A11,
};

/* Buffer binding points the tracker follows (slot of ctx.bind). */
enum dslot {
	DS_ARRAY, DS_PACK, DS_UNPACK, DS_UNIFORM, DS_TEXTURE, DS_XFB, DS_COPY_READ,
	DS_COPY_WRITE, DS_DRAW_INDIRECT, DS_STORAGE, DS_DISPATCH_INDIRECT, DS_QUERY,
	DS_ATOMIC, DS_PARAMETER, DS_COUNT,
	DS_ELEMENT = DS_COUNT,       /* vertex array state, not ctx.bind */
	DS_NONE,
};

/* Program stages, as bits; ST_STREAMS: a geometry shader that may emit
 * to more than one vertex stream (or whose source the trace lacks). */
enum { ST_VS = 1, ST_GS = 2, ST_TESS = 4, ST_OTHER = 8, ST_UNKNOWN = 16, ST_STREAMS = 32 };

enum { DGL_PRIMITIVES_GENERATED = 0x8C87, DGL_TF_PRIMITIVES_WRITTEN = 0x8C88 };

#define D_MAX_XFB 8                  /* TF binding points followed */

struct dtess_list { struct trace_defined_tess *v; size_t n, cap; };
struct dprod_list { struct trace_defined_prod *v; size_t n, cap; };

struct dbuf {
	uint32_t group, name;
	uint64_t size;                   /* of its storage */
	struct trace_ranges defined;
	const char *created_how;         /* "glBufferData(NULL)", ... */
	uint64_t created_call;
	const char *undef_how;           /* the last invalidation since, or NULL */
	uint64_t undef_call;
	uint64_t tf_bytes;               /* written by TF since created */
	uint64_t tf_first, tf_last;      /* calls of those TF sessions' ends */
	bool mapped;                     /* a mapping is open */
	uint64_t map_ptr, map_offset, map_length;
	struct dtess_list tess;
	struct dprod_list prod;
};

struct dshader {
	uint32_t group, name, type;
	bool source;                     /* its GLSL source was seen */
	bool streams;                    /* ... and names vertex streams */
	bool multisample;                /* ... and declares multisample samplers */
};

/* A query that counted primitives, its result from the golden data
 * (trace_defined_prescan): an upper bound of what TF wrote while it was
 * active, where the tracker cannot count the primitives itself. */
struct dquery {
	uint32_t thread, id, target;
	uint64_t begin, end;             /* its glBeginQuery / glEndQuery calls */
	uint64_t result;
	bool has_result;
};

struct dprogram {
	uint32_t group, name;
	uint32_t stages;                 /* at the last link, ST_* */
	bool multisample;                /* ... a stage's GLSL declares sampler2DMS* */
	uint64_t link_call;
	uint32_t attached[8];
	uint32_t nattached;              /* UINT32_MAX: more than fit, unknown */
};

struct dpipeline { uint64_t ctx; uint32_t name; uint32_t vs, gs, tess; };

struct dxfb_binding { uint32_t buffer; uint64_t offset, size; /* size 0: to the end */ };

/* A draw's primitives, waiting for the layout to be placed. */
struct dpending {
	uint64_t prims;
	uint32_t vpp;                    /* vertices per primitive: 1, 2 or 3 */
	uint32_t group;                  /* triangles per source primitive of
	                                  * undefined tessellation order; 1 none */
	uint32_t mode;
	uint64_t call;
	bool uncertain;                  /* count unknown: the rest is written */
	bool boundable;                  /* ... unless a query bounds it: the
	                                  * program emits to one stream only */
};

struct dxfb {
	uint64_t ctx;
	uint32_t name;
	struct dxfb_binding b[D_MAX_XFB];
	bool active, paused;
	uint32_t mode;                   /* primitiveMode of the session */
	uint64_t begin_call;
	uint32_t thread;                 /* that glBeginTransformFeedback's */
	uint64_t program, link_call;     /* in use at the begin */
	uint64_t pos[D_MAX_XFB];         /* bytes written from b[i].offset */
	struct dpending *pending;
	size_t npending, cappending;
	uint64_t due;                    /* End / Pause call whose layout is awaited, 0 none */
};

struct dctx {
	uint64_t handle;
	uint32_t group;
	bool gles;
	uint32_t bind[DS_COUNT];
	uint32_t vao;
	struct { uint32_t vao, buffer; } *elem;   /* element buffer per vertex array */
	size_t nelem, capelem;
	uint32_t xfb;
	uint32_t program, pipeline;
	bool restart;
	bool in_begin;                   /* between glBegin and glEnd */
	uint32_t imm_mode;
	uint64_t imm_count;
	bool imm_uncertain;
};

struct dthread { uint32_t no; uint64_t ctx; };

struct trace_defined {
	bool broken;                     /* out of memory: everything is defined */
	struct dctx *ctx; size_t nctx, capctx;
	struct dthread *thr; size_t nthr, capthr;
	struct dbuf **buf; size_t nbuf, capbuf;
	struct dshader *sh; size_t nsh, capsh;
	struct dprogram *prog; size_t nprog, capprog;
	struct dpipeline *pipe; size_t npipe, cappipe;
	struct dxfb *xfb; size_t nxfb, capxfb;
	struct dquery *q; size_t nq, capq;
	/* Draws of quads, quad strips and polygons (compatibility), by
	 * thread and call: what a GL_PRIMITIVES_GENERATED query over them
	 * counts is not determined (trace_defined_query_quads). */
	struct dquad { uint32_t thread, mode; uint64_t call; } *quad;
	size_t nquad, capquad;
	/* Buffer names ever bound where shaders may store (shader storage,
	 * atomic counters, buffer textures), by share group: a draw or a
	 * dispatch may write any of them. */
	struct dname { uint32_t group, name; } *sw;
	size_t nsw, capsw;
	/* Open mappings of buffers without a record (wholly defined): their
	 * MEMWRITEs change nothing. */
	struct domap { uint64_t ptr, len; uint32_t group, name; } *omap;
	size_t nomap, capomap;
	uint32_t next_group;
	uint8_t *handler;                /* by trace func_id: enum of trace_defined.c + 1 */
	int16_t *aux;                    /* ... and its argument index */
	size_t nhandler;
	uint32_t cur_thread;             /* thread of the last call */
	struct trace_ranges scratch;
};

/* What the tracker does with a recorded function (trace_defined_funcs.c). */
enum handler {
	H_NONE = 0,
	H_BUFFER_DATA, H_NAMED_BUFFER_DATA, H_BUFFER_STORAGE, H_NAMED_BUFFER_STORAGE,
	H_STORAGE_FOREIGN, H_NAMED_STORAGE_FOREIGN, H_SUB_DATA, H_NAMED_SUB_DATA,
	H_COPY, H_NAMED_COPY, H_CLEAR, H_NAMED_CLEAR, H_INVALIDATE, H_INVALIDATE_SUB,
	H_MAP, H_NAMED_MAP, H_MAP_RANGE, H_NAMED_MAP_RANGE, H_UNMAP, H_NAMED_UNMAP,
	H_BIND, H_BIND_BASE, H_BIND_RANGE, H_BIND_OFFSET, H_BINDS_BASE, H_BINDS_RANGE,
	H_XFB_BASE, H_XFB_RANGE, H_DELETE_BUFFERS, H_BIND_VAO, H_VAO_ELEMENT, H_BIND_XFB,
	H_BEGIN_TF, H_END_TF, H_PAUSE_TF, H_RESUME_TF,
	H_SHADER_SOURCE, H_SHADER_BINARY, H_CREATE_SHADER, H_CREATE_PROGRAM, H_ATTACH, H_DETACH, H_LINK, H_PROGRAM_BINARY,
	H_CREATE_SHADER_PROGRAM, H_USE_PROGRAM, H_BIND_PIPELINE, H_USE_STAGES,
	H_ENABLE, H_DISABLE,
	H_DRAW_ARRAYS, H_DRAW_ELEMENTS, H_MULTI_ARRAYS, H_MULTI_ELEMENTS, H_DRAW_UNKNOWN,
	H_DISPATCH, H_BEGIN, H_END, H_VERTEX, H_VERTEX_ATTRIB, H_IMM_UNKNOWN,
	H_TEX_BUFFER, H_QUERY_OBJECT, H_QUERY_BUFFER_OBJECT, H_PACK,
};

/* aux: for draws, the count argument in the low byte and the instance
 * count argument (0: none) in the high byte; for H_TEX_BUFFER and
 * H_QUERY_BUFFER_OBJECT the buffer argument. */
#define DRAW(count, inst) ((count) | (inst) << 8)

/* ---- trace_defined_funcs.c ------------------------------------------------ */
/* The handler of function `name`, and in *aux its argument index. */
enum handler d_handler_classify(const char *name, int16_t *aux);

/* ---- trace_defined_scan.c ------------------------------------------------- */
/* Notes a draw of `mode` at `call`: quads, quad strips and polygons are kept. */
void d_quad_draw(struct trace_defined *d, uint32_t thread, uint64_t call, uint64_t mode);

/* ---- trace_defined.c ------------------------------------------------------ */
/* Grows *v (elements of `size`) to hold n; false (and d->broken) when out of memory. */
bool d_grow(struct trace_defined *d, void **v, size_t *cap, size_t n, size_t size);
struct dctx *d_ctx_of_thread(const struct trace_defined *d, uint32_t thread_no);
/* The context of `thread_no`, or one made up (handle 0, group 0) for calls
 * without a CONTEXT record; NULL when out of memory. */
struct dctx *d_ctx_of(struct trace_defined *d, uint32_t thread_no);
struct dbuf *d_buf_find(const struct trace_defined *d, uint32_t group, uint32_t name);
/* Forgets buffer `name`: whatever storage it gets, unless the tracker sees
 * it made, counts as wholly defined. */
void d_buf_forget(struct trace_defined *d, uint32_t group, uint32_t name);
/* New storage of `size` bytes for buffer `name`, made by `how` at `call`:
 * nothing defined yet; NULL when out of memory. */
struct dbuf *d_buf_create(struct trace_defined *d, uint32_t group, uint32_t name, uint64_t size,
			  const char *how, uint64_t call);
/* Bytes [lo, hi) of `b` now hold what was just written: defined, and no
 * longer TF's tessellated triangles or its products.  NULL `b`: nothing. */
void d_buf_define(struct trace_defined *d, struct dbuf *b, uint64_t lo, uint64_t hi);
void d_buf_define_all(struct trace_defined *d, struct dbuf *b);
/* Bytes [lo, hi) of `b` undefined by `how` at `call`. */
void d_buf_undefine(struct trace_defined *d, struct dbuf *b, uint64_t lo, uint64_t hi,
		    const char *how, uint64_t call);
/* Every buffer of `group` wholly defined: a write the tracker cannot place. */
void d_lost(struct trace_defined *d, uint32_t group);
/* Buffer `name` was bound where shaders may store into it. */
void d_shader_writable(struct trace_defined *d, uint32_t group, uint32_t name);
/* A draw or a dispatch: every buffer shaders may store into is defined. */
void d_shader_stores(struct trace_defined *d, struct dctx *x);
/* The buffer bound at slot `s` of `x` is wholly defined (a GPU write). */
void d_whole_of_slot(struct trace_defined *d, struct dctx *x, enum dslot s);
/* The element array binding of vertex array `vao` of `x`; NULL when out of memory. */
uint32_t *d_elem_slot(struct trace_defined *d, struct dctx *x, uint32_t vao);
/* What buffer target `target` has bound in `x`; *known false when the
 * tracker does not follow that target. */
uint32_t d_bound(struct trace_defined *d, struct dctx *x, uint64_t target, bool *known);
void d_set_bound(struct trace_defined *d, struct dctx *x, uint64_t target, uint32_t buffer);
/* Copies the defined bytes of [ro, ro + n) of `src` (NULL: a buffer the
 * tracker does not know, all defined) to `wo` of `dst`. */
void d_copy(struct trace_defined *d, struct dbuf *src, struct dbuf *dst, uint64_t ro,
	    uint64_t wo, uint64_t n);
struct dprogram *d_prog_find(const struct trace_defined *d, uint32_t group, uint32_t name);
/* The program's record, made (stages unknown) when there is none. */
struct dprogram *d_prog_get(struct trace_defined *d, uint32_t group, uint32_t name);
/* The program whose vertex stages feed TF in `x` (0: none), with its
 * stages (ST_*; ST_UNKNOWN when the tracker cannot tell). */
uint32_t d_feeding_program(const struct trace_defined *d, const struct dctx *x, uint32_t *stages);

/* ---- trace_defined_tf.c --------------------------------------------------- */
struct dxfb *d_xfb_get(struct trace_defined *d, struct dctx *x, uint32_t name);
void d_tf_begin(struct trace_defined *d, struct dctx *x, uint64_t call_no, uint32_t mode);
void d_tf_end(struct trace_defined *d, struct dctx *x, uint64_t call_no, bool pause);
void d_tf_resume(struct trace_defined *d, struct dctx *x);
/* A draw while `x` is current: `mode`, `count` vertices per instance (or
 * per draw of a multi-draw), `instances`; `known` false when the count of
 * primitives cannot be known. */
void d_tf_draw(struct trace_defined *d, struct dctx *x, uint64_t call_no, uint32_t mode,
	       uint64_t count, uint64_t instances, bool known, bool restart);
/* Places the pending primitives of the session awaiting `call_no`'s layout
 * (NULL layout: not known, the bound ranges are written whole). */
void d_tf_resolve(struct trace_defined *d, struct dxfb *t, const struct trace_value *layout);
/* Resolves every session whose layout did not come with its call. */
void d_tf_overdue(struct trace_defined *d, uint64_t call_no);
void d_tess_remove(struct dtess_list *l, uint64_t lo, uint64_t hi);
void d_prod_remove(struct trace_defined *d, struct dprod_list *l, uint64_t lo, uint64_t hi);

#endif
