/*
 * fuzz_params.h - the parameter space of xfb-fuzz-case: one random point of
 * transform feedback semantics is one value per parameter below.
 *
 * Every parameter is an index into a small list of named values; value 0 of
 * each list is its default, the simplest choice, so that a failing case can
 * be shrunk by setting parameters back to 0 one at a time
 * (scripts/fuzz_tf.py).  A seed draws every parameter in the order of the
 * table, whatever --set overrides, so a case is `--seed N` plus overrides.
 * fuzz_params_normalize() then makes the point valid for its API (GL core,
 * GL compatibility, GLES 3.2) by moving values that the API or another
 * parameter rules out back towards their defaults; it is deterministic, so
 * the printed point is the point that runs.
 */
#ifndef FUZZ_PARAMS_H
#define FUZZ_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

/* X(ID, "name", values...) - value lists live in fuzz_params.c. */
enum fuzz_param {
	FP_API,          /* core | compat | gles */
	FP_PRIM,         /* draw mode */
	FP_DRAW,         /* draw call */
	FP_COUNT,        /* vertices (indices) per draw */
	FP_FIRST,        /* first vertex / first index */
	FP_INSTANCES,
	FP_BASE_INSTANCE,
	FP_BASE_VERTEX,
	FP_INDEX_TYPE,   /* uint | ushort | ubyte */
	FP_INDEX_PATTERN,/* sequential | reversed | shuffled with repeats */
	FP_RESTART,      /* none | fixed index | glPrimitiveRestartIndex */
	FP_RESTART_POS,  /* where in the index list the restart index goes */
	FP_PROVOKING,    /* last (GL default) | first */
	FP_CLIENT_MEM,   /* vertex / index / indirect data from client memory (compat, GLES);
			  * indirect_buffer: the indirect commands in a buffer */
	FP_V0, FP_V1, FP_V2, FP_V3, /* varying kinds; v0 always present */
	FP_CAP_POS,      /* capture gl_Position */
	FP_CAP_PSIZE,    /* capture gl_PointSize */
	FP_CAP_CLIP,     /* capture gl_ClipDistance[] */
	FP_CAP_COMPAT,   /* capture gl_FrontColor (compat) */
	FP_ARR_ELEM,     /* capture one element of an array varying instead of all */
	FP_MODE,         /* interleaved | separate | xfb_* layout qualifiers */
	FP_SKIP,         /* gl_SkipComponentsN before a varying (interleaved) */
	FP_NEXT_BUFFER,  /* gl_NextBuffer before v1 (interleaved) */
	FP_XFB_STRIDE,   /* extra xfb_stride bytes (layout mode) */
	FP_BUF_OFFSET,   /* bind offset of the TF buffers */
	FP_BUF_SIZE,     /* whole buffer | small range (overflow) */
	FP_BIND,         /* glBindBufferBase | glBindBufferRange | glBindBuffersRange */
	FP_PAUSE,        /* none | pause+draw+resume | pause, other TF object, resume */
	FP_NBEGIN,       /* begin / end pairs into the same buffers */
	FP_DISCARD,      /* rasterizer discard on | off */
	FP_GS,           /* no geometry shader | one */
	FP_GS_OUT,       /* points | line_strip | triangle_strip */
	FP_GS_EMIT,      /* vertices emitted per invocation */
	FP_GS_MAXV_EXTRA,/* max_vertices above the emitted count */
	FP_GS_ENDPRIM,   /* EndPrimitive after every N vertices */
	FP_GS_INVOC,     /* invocations */
	FP_GS_STREAMS,   /* none | stream 1 captured | stream 1 with no buffer */
	FP_Q_PG,         /* GL_PRIMITIVES_GENERATED */
	FP_Q_WRITTEN,    /* GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN */
	FP_Q_INDEXED,    /* queries through glBeginQueryIndexed */
	FP_Q_OVERFLOW,   /* none | TF overflow (stream 0) | TF stream overflow (any) */
	FP_Q_OCCL,       /* none | samples | any samples | any conservative */
	FP_COND,         /* conditional rendering mode */
	FP_COND_SRC,     /* occlusion | overflow query */
	FP_A_FMT,        /* vertex attribute format */
	FP_A_COMPS,      /* components 4 | 3 | 2 | 1 */
	FP_A_STRIDE,     /* extra stride bytes */
	FP_A_OFFSET,     /* attribute offset bytes */
	FP_B_DIV,        /* divisor of the second attribute */
	/* Drawn after all the others, so that adding them changed no seed's
	 * earlier values. */
	FP_CLIP_PLANES,  /* clip planes enabled: glEnable(GL_CLIP_DISTANCEi) */
	FP_CULL,         /* gl_CullDistance[0] written */
	FP_N
};

struct fuzz_pdef {
	const char *name;
	int n_values;
	const char *const *values; /* names; value 0 is the default */
};

extern const struct fuzz_pdef fuzz_pdefs[FP_N];

/* Varying kinds (FP_V*), prim modes (FP_PRIM), draws (FP_DRAW): value ids. */
enum { API_CORE, API_COMPAT, API_GLES };
enum { PR_POINTS, PR_LINES, PR_LINE_STRIP, PR_LINE_LOOP, PR_TRIANGLES,
       PR_TRI_STRIP, PR_TRI_FAN, PR_LINES_ADJ, PR_LINE_STRIP_ADJ, PR_TRIS_ADJ,
       PR_TRI_STRIP_ADJ, PR_QUADS, PR_QUAD_STRIP, PR_POLYGON, PR_N };
enum { DR_ARRAYS, DR_ARRAYS_INST, DR_ELEMENTS, DR_ELEMENTS_BV, DR_ELEMENTS_INST,
       DR_ELEMENTS_INST_BV_BI, DR_RANGE, DR_RANGE_BV, DR_MULTI_ARRAYS,
       DR_MULTI_ELEMENTS, DR_MULTI_ELEMENTS_BV, DR_ARRAYS_INDIRECT,
       DR_ELEMENTS_INDIRECT, DR_MULTI_ARRAYS_INDIRECT,
       DR_MULTI_ELEMENTS_INDIRECT, DR_TF, DR_TF_STREAM, DR_TF_INST,
       DR_TF_STREAM_INST, DR_N };
enum { VK_NONE, VK_FLOAT, VK_VEC2, VK_VEC3, VK_VEC4, VK_INT, VK_IVEC2,
       VK_IVEC4, VK_UINT, VK_UVEC3, VK_MAT2, VK_MAT3X2, VK_MAT4, VK_FLOAT_ARR3,
       VK_VEC2_ARR2, VK_DOUBLE, VK_DVEC3, VK_DMAT2, VK_STRUCT, VK_BLOCK, VK_N };
enum { MODE_INTERLEAVED, MODE_SEPARATE, MODE_LAYOUT };
enum { AF_FLOAT, AF_HALF, AF_BYTE_N, AF_UBYTE_N, AF_SHORT_N, AF_USHORT,
       AF_INT_N, AF_UINT, AF_FIXED, AF_I2_10_10_10_N, AF_U2_10_10_10,
       AF_I_INT, AF_I_UBYTE, AF_I_SHORT, AF_L_DOUBLE, AF_DOUBLE, AF_N };
enum { COND_NONE, COND_WAIT, COND_NO_WAIT, COND_BY_REGION_WAIT,
       COND_WAIT_INVERTED, COND_NO_WAIT_INVERTED };

struct fuzz_point {
	int v[FP_N];
};

/* The point seed N draws (independent of any override). */
void fuzz_params_draw(struct fuzz_point *p, uint64_t seed);

/*
 * Applies "key=value" (value a name of the list or its index).  Returns
 * false for an unknown key or value.
 */
bool fuzz_params_set(struct fuzz_point *p, const char *kv);

/* Makes the point valid: see the file comment. */
void fuzz_params_normalize(struct fuzz_point *p);

/*
 * The clip distances point p writes (bit i: gl_ClipDistance[i]; none, or
 * 0 and 1, or 0, 1 and 2) and the planes it enables (bit i:
 * GL_CLIP_DISTANCEi), from cap_clipdistance and clip_planes.
 */
unsigned fuzz_clip_written(const struct fuzz_point *p);
unsigned fuzz_clip_enabled(const struct fuzz_point *p);

/* Prints every parameter that is not at its default as `key=value`, one line. */
void fuzz_params_print(const struct fuzz_point *p);

#endif
