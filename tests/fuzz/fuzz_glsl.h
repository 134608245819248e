/*
 * fuzz_glsl.h - the shaders and the transform feedback layout of one
 * xfb-fuzz-case point: GLSL text for the vertex, geometry and fragment
 * stages and the glTransformFeedbackVaryings list, all derived from the
 * parameters alone (no GL here).
 */
#ifndef FUZZ_GLSL_H
#define FUZZ_GLSL_H

#include "fuzz_params.h"

#define FUZZ_MAX_NAMES 16
#define FUZZ_SRC_MAX 16384

struct fuzz_glsl {
	char vs[FUZZ_SRC_MAX], gs[FUZZ_SRC_MAX], fs[1024];
	bool has_gs;
	const char *names[FUZZ_MAX_NAMES]; /* glTransformFeedbackVaryings, or none in layout mode */
	char name_store[FUZZ_MAX_NAMES][32];
	int n_names;
	int n_buffers;   /* TF buffer bindings the program writes (1..4) */
	bool overflowed; /* a source buffer was too small (a tester bug) */
};

/* Builds the shaders and the varying list of point p. */
void fuzz_glsl_build(struct fuzz_glsl *g, const struct fuzz_point *p);

/*
 * Attribute 0 of point p: the GLSL type of its input `a` ("vec4", "ivec4",
 * "dvec2", ...) and an expression of `a` as a vec4.  A double array of
 * fewer than four components (glVertexAttribLPointer) has no defaults for
 * the others (ARB_vertex_attrib_64bit: "the fourth component of a
 * variable of type dvec4 will be undefined if specified using a vertex
 * array ... with a size of three"): its input has the array's size and the
 * expression supplies 0, 0, 1 as the other formats' defaults are.
 */
struct fuzz_attrib {
	const char *type;
	char as_vec4[64];
};
void fuzz_glsl_attrib(const struct fuzz_point *p, struct fuzz_attrib *a);

#endif
