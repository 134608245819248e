/*
 * glapi_types.h - the GL type table: every shading-language type token
 * (GL_FLOAT_VEC3, GL_DOUBLE_MAT2x3, GL_BOOL, ...) with its shape, the one
 * source of these facts for the observation core, the diff, the replay
 * checks, the web UI and the driver model.
 *
 * Generated (glapi_types.c) by specs/gen_gltypes.py: names and values from
 * the Khronos registry (gl.xml), the shape from the hand annotation TYPES
 * of specs/gl_annotations.py.  tests/unit/capture/test_glapi_types.c
 * checks the table against rows stated in the GL specification.  Samplers,
 * images and atomic counters have no shape and are not in it; samplers
 * have a table of their own (below), from SAMPLER_TYPES.
 */
#ifndef GLAPI_TYPES_H
#define GLAPI_TYPES_H

#include <stdbool.h>
#include <stdint.h>

enum glapi_type_base {
	GLAPI_TYPE_FLOAT = 0,
	GLAPI_TYPE_DOUBLE,
	GLAPI_TYPE_INT,
	GLAPI_TYPE_UINT,
	GLAPI_TYPE_BOOL,
};

struct glapi_type {
	uint32_t value;            /* the GLenum */
	const char *name;          /* "GL_FLOAT_VEC3" */
	enum glapi_type_base base;
	uint8_t columns;           /* 1 for scalars and vectors */
	uint8_t rows;              /* components per column */
	uint8_t components;        /* columns * rows: 16 for a mat4 */
	uint8_t component_bytes;   /* 8 for doubles, else 4 */
	bool tf;                   /* transform feedback can capture it (not a boolean) */
};

/* The table, sorted by value. */
extern const struct glapi_type glapi_types[];
extern const unsigned glapi_types_count;

/* Sampler types (GL 4.6 table 7.3): what a sampler uniform is, by the
 * dimensionality of its image (SPIR-V's Dim), arrays, multisampling and
 * depth comparison. */
enum glapi_sampler_dim {
	GLAPI_SAMPLER_1D, GLAPI_SAMPLER_2D, GLAPI_SAMPLER_3D, GLAPI_SAMPLER_CUBE,
	GLAPI_SAMPLER_RECT, GLAPI_SAMPLER_BUFFER,
};

struct glapi_sampler_type {
	uint32_t value;            /* the GLenum: GL_SAMPLER_2D, GL_INT_SAMPLER_3D, ... */
	const char *name;
	enum glapi_type_base base; /* what it returns: float, int or uint */
	enum glapi_sampler_dim dim;
	bool arrayed, multisample, shadow;
};

/* The sampler table, sorted by value. */
extern const struct glapi_sampler_type glapi_sampler_types[];
extern const unsigned glapi_sampler_types_count;

/* The sampler type of that shape, or NULL. */
const struct glapi_sampler_type *glapi_sampler_type_find(enum glapi_type_base base,
							 enum glapi_sampler_dim dim, bool arrayed,
							 bool multisample, bool shadow);

/* The type whose GLenum is `value`, or NULL. */
const struct glapi_type *glapi_type_by_value(uint32_t value);
/* The type called `name` ("GL_FLOAT_VEC3"), or NULL (also for NULL). */
const struct glapi_type *glapi_type_by_name(const char *name);
/* The type of that base and shape (columns 1: a scalar or vector of `rows`
 * components), or NULL. */
const struct glapi_type *glapi_type_find(enum glapi_type_base base, unsigned columns,
					 unsigned rows);

#endif
