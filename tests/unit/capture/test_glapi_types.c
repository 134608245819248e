/*
 * test_glapi_types.c - the generated GL type table (specs/glapi_types.h)
 * against rows written here from the GL 4.6 specification (§7.3.1, table
 * 7.3: the type tokens and their shading-language types; §11.1.2.1: what
 * transform feedback can capture), and its lookups.
 */
#include <stdio.h>
#include <string.h>

#include "glapi.h"
#include "glapi_types.h"
#include "xt_test.h"

/* Rows as the specification states them: token, value (gl.xml), the GLSL
 * type it names, base, columns x rows, bytes of a component. */
static const struct {
	const char *name;
	uint32_t value;
	enum glapi_type_base base;
	unsigned columns, rows, component_bytes;
	bool tf;
} spec[] = {
	{ "GL_FLOAT", 0x1406, GLAPI_TYPE_FLOAT, 1, 1, 4, true },              /* float */
	{ "GL_FLOAT_VEC3", 0x8B51, GLAPI_TYPE_FLOAT, 1, 3, 4, true },         /* vec3: 3 x 4 bytes */
	{ "GL_DOUBLE", 0x140A, GLAPI_TYPE_DOUBLE, 1, 1, 8, true },            /* double: 1 x 8 bytes */
	{ "GL_DOUBLE_VEC4", 0x8FFE, GLAPI_TYPE_DOUBLE, 1, 4, 8, true },       /* dvec4 */
	{ "GL_INT_VEC2", 0x8B53, GLAPI_TYPE_INT, 1, 2, 4, true },             /* ivec2 */
	{ "GL_UNSIGNED_INT_VEC4", 0x8DC8, GLAPI_TYPE_UINT, 1, 4, 4, true },   /* uvec4 */
	{ "GL_BOOL_VEC3", 0x8B58, GLAPI_TYPE_BOOL, 1, 3, 4, false },          /* bvec3: not capturable */
	{ "GL_FLOAT_MAT2", 0x8B5A, GLAPI_TYPE_FLOAT, 2, 2, 4, true },         /* mat2 */
	{ "GL_FLOAT_MAT4", 0x8B5C, GLAPI_TYPE_FLOAT, 4, 4, 4, true },         /* mat4: 16 components */
	{ "GL_FLOAT_MAT2x3", 0x8B65, GLAPI_TYPE_FLOAT, 2, 3, 4, true },       /* mat2x3: 2 columns of 3 */
	{ "GL_FLOAT_MAT4x3", 0x8B6A, GLAPI_TYPE_FLOAT, 4, 3, 4, true },       /* mat4x3 */
	{ "GL_DOUBLE_MAT2x3", 0x8F49, GLAPI_TYPE_DOUBLE, 2, 3, 8, true },     /* dmat2x3: 6 x 8 bytes */
	{ "GL_DOUBLE_MAT3", 0x8F47, GLAPI_TYPE_DOUBLE, 3, 3, 8, true },       /* dmat3 */
	{ "GL_DOUBLE_MAT4x2", 0x8F4D, GLAPI_TYPE_DOUBLE, 4, 2, 8, true },     /* dmat4x2 */
};

static void test_table_states_what_the_gl_spec_states(void)
{
	for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++) {
		const struct glapi_type *t = glapi_type_by_name(spec[i].name);
		CHECK(t != NULL);
		if (!t)
			continue;
		CHECK_EQ_INT(t->value, spec[i].value);
		CHECK_EQ_INT(t->base, spec[i].base);
		CHECK_EQ_INT(t->columns, spec[i].columns);
		CHECK_EQ_INT(t->rows, spec[i].rows);
		CHECK_EQ_INT(t->components, spec[i].columns * spec[i].rows);
		CHECK_EQ_INT(t->component_bytes, spec[i].component_bytes);
		CHECK_EQ_INT(t->tf, spec[i].tf);
	}
	const struct glapi_type *d = glapi_type_by_name("GL_DOUBLE_MAT2x3");
	CHECK(d && d->components == 6 && d->component_bytes == 8);
	const struct glapi_type *dd = glapi_type_by_name("GL_DOUBLE");
	CHECK(dd && dd->components == 1 && dd->component_bytes == 8);
}

static void test_every_row_is_a_registry_enum_and_is_consistent(void)
{
	CHECK_EQ_INT(glapi_types_count, 38);
	for (unsigned i = 0; i < glapi_types_count; i++) {
		const struct glapi_type *t = &glapi_types[i];
		CHECK_EQ_STR(glapi_enum_name(t->value), t->name);
		CHECK(glapi_type_by_value(t->value) == t);
		CHECK(glapi_type_by_name(t->name) == t);
		CHECK(glapi_type_find(t->base, t->columns, t->rows) == t);
		CHECK_EQ_INT(t->components, t->columns * t->rows);
		CHECK_EQ_INT(t->component_bytes, t->base == GLAPI_TYPE_DOUBLE ? 8 : 4);
		CHECK_EQ_INT(t->tf, t->base != GLAPI_TYPE_BOOL);
		CHECK(i == 0 || glapi_types[i - 1].value < t->value);
	}
}

/* Sampler rows as table 7.3 states them: token, value (gl.xml), GLSL type. */
static void test_sampler_table_states_what_the_gl_spec_states(void)
{
	static const struct {
		uint32_t value;
		enum glapi_type_base base;
		enum glapi_sampler_dim dim;
		bool arrayed, ms, shadow;
	} rows[] = {
		{ 0x8B5E, GLAPI_TYPE_FLOAT, GLAPI_SAMPLER_2D, false, false, false },  /* sampler2D */
		{ 0x8DCF, GLAPI_TYPE_INT, GLAPI_SAMPLER_2D, true, false, false },     /* isampler2DArray */
		{ 0x910D, GLAPI_TYPE_UINT, GLAPI_SAMPLER_2D, true, true, false },     /* usampler2DMSArray */
		{ 0x900D, GLAPI_TYPE_FLOAT, GLAPI_SAMPLER_CUBE, true, false, true },  /* samplerCubeArrayShadow */
		{ 0x8B63, GLAPI_TYPE_FLOAT, GLAPI_SAMPLER_RECT, false, false, false },/* sampler2DRect */
		{ 0x8DD8, GLAPI_TYPE_UINT, GLAPI_SAMPLER_BUFFER, false, false, false },/* usamplerBuffer */
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct glapi_sampler_type *t = glapi_sampler_type_find(
			rows[i].base, rows[i].dim, rows[i].arrayed, rows[i].ms, rows[i].shadow);
		CHECK(t && t->value == rows[i].value);
	}
	CHECK_EQ_INT(glapi_sampler_types_count, 3 * 11 + 7);
	/* no shadow multisample sampler, no integer shadow sampler */
	CHECK(!glapi_sampler_type_find(GLAPI_TYPE_FLOAT, GLAPI_SAMPLER_2D, false, true, true));
	CHECK(!glapi_sampler_type_find(GLAPI_TYPE_INT, GLAPI_SAMPLER_2D, false, false, true));
}

static void test_lookups_miss_cleanly(void)
{
	CHECK(glapi_type_by_name("GL_SAMPLER_2D") == NULL);
	CHECK(glapi_type_by_name("") == NULL);
	CHECK(glapi_type_by_name(NULL) == NULL);
	CHECK(glapi_type_by_value(0) == NULL);
	CHECK(glapi_type_by_value(0x8B5E) == NULL);   /* GL_SAMPLER_2D */
	CHECK(glapi_type_find(GLAPI_TYPE_BOOL, 2, 2) == NULL);
	CHECK(glapi_type_find(GLAPI_TYPE_FLOAT, 1, 5) == NULL);
}

int main(void)
{
	XT_RUN(test_table_states_what_the_gl_spec_states);
	XT_RUN(test_every_row_is_a_registry_enum_and_is_consistent);
	XT_RUN(test_sampler_table_states_what_the_gl_spec_states);
	XT_RUN(test_lookups_miss_cleanly);
	XT_TEST_MAIN_END();
}
