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

/* The GLSL input type of attribute a for format value af ("vec4", "ivec4", ...). */
const char *fuzz_glsl_attrib_type(int af);

#endif
