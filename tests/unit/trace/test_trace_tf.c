/*
 * test_trace_tf.c - the TF layout decoder (trace/trace_tf.h) that the
 * replay check, the diff and the web UI share: spans of one binding point,
 * markers, types TF cannot hold, hostile layouts, the component a byte
 * lies in, and the layout of a tf_buffer observation value.
 */
#include <string.h>

#include "trace_tf.h"
#include "xt_test.h"

#define GL_NONE_ 0x0000u
#define GL_FLOAT_ 0x1406u
#define GL_INT_ 0x1404u
#define GL_DOUBLE_ 0x140Au
#define GL_FLOAT_VEC3_ 0x8B51u
#define GL_FLOAT_MAT2x3_ 0x8B65u
#define GL_BOOL_ 0x8B56u

static void test_interleaved_layout_with_markers_gives_spans_in_layout_order(void)
{
	/* vec3 pos; skip 1; int id; next buffer; double d[2]; mat2x3 m (buffer 1) */
	const struct trace_tf_varying v[] = {
		{ "pos", GL_FLOAT_VEC3_, 1, 0, 0 },
		{ "gl_SkipComponents1", GL_NONE_, 1, 0, 12 },
		{ "id", GL_INT_, 1, 0, 16 },
		{ "gl_NextBuffer", GL_NONE_, 0, 1, 0 },
		{ "d", GL_DOUBLE_, 2, 1, 0 },
		{ "m", GL_FLOAT_MAT2x3_, 1, 1, 16 },
	};
	struct trace_tf_span spans[6];
	struct trace_tf_plan p;

	trace_tf_plan(v, 6, 0, 20, spans, &p);
	CHECK_EQ_INT(p.nspans, 2);
	CHECK_EQ_INT(p.components, 4);
	CHECK(!p.undecodable && p.past_stride == -1 && p.overlap == -1);
	CHECK_EQ_INT(spans[0].varying, 0);
	CHECK_EQ_INT(spans[0].bytes, 12);
	CHECK_EQ_INT(spans[1].varying, 2);
	CHECK(trace_tf_span_at(&p, 12) == NULL);          /* the skipped component */
	CHECK(trace_tf_span_at(&p, 17) == &spans[1]);
	CHECK(trace_tf_span_at(&p, 9) == &spans[0]);
	CHECK_EQ_INT(trace_tf_component_start(&spans[0], 9), 8);

	trace_tf_plan(v, 6, 1, 40, spans, &p);
	CHECK_EQ_INT(p.nspans, 2);
	CHECK_EQ_INT(p.components, 2 + 6);
	CHECK_EQ_INT(spans[0].bytes, 16);                 /* two doubles */
	CHECK_EQ_INT(spans[1].bytes, 24);                 /* mat2x3: 6 floats */
	CHECK_EQ_INT(trace_tf_component_start(&spans[0], 13), 8);
	CHECK_EQ_INT(spans[1].type->rows, 3);
}

static void test_no_stride_decodes_nothing(void)
{
	const struct trace_tf_varying v[] = { { "pos", GL_FLOAT_VEC3_, 1, 0, 0 } };
	struct trace_tf_span spans[1];
	struct trace_tf_plan p;
	trace_tf_plan(v, 1, 0, 0, spans, &p);
	CHECK_EQ_INT(p.nspans, 0);
	CHECK_EQ_INT(p.stride, 0);
}

static void test_hostile_layouts_are_named_not_decoded(void)
{
	const struct trace_tf_varying v[] = {
		{ "flag", GL_BOOL_, 1, 0, 0 },                /* TF cannot hold booleans */
		{ "a", GL_FLOAT_, 1, 0, 4 },
		{ "b", GL_FLOAT_VEC3_, 1, 0, 8 },             /* bytes 8..20 */
		{ "c", GL_FLOAT_, 1, 0, 12 },                 /* inside b */
		{ "far", GL_FLOAT_, 1, 0, 0xFFFFFFFFFFFFFFF0ull },
		{ "huge", GL_DOUBLE_, 0xFFFFFFFFu, 0, 0 },
		{ "none", GL_FLOAT_, 0, 0, 100 },             /* size 0: no bytes */
	};
	struct trace_tf_span spans[7];
	struct trace_tf_plan p;
	trace_tf_plan(v, 7, 0, 20, spans, &p);
	CHECK(p.undecodable);
	CHECK_EQ_INT(p.overlap, 3);
	CHECK_EQ_INT(p.past_stride, 4);
	CHECK_EQ_INT(p.nspans, 3);                        /* a, b, c; not far, huge, none */
}

static void test_layout_of_an_observation_value(void)
{
	struct trace_value str[2], vk[2][5], var[2], strides[2], top[3], layout[2];
	const char *vkeys[] = { "name", "type", "size", "buffer", "offset" };
	const char *lkeys[] = { "strides", "varyings" };
	const char *okeys[] = { "kind", "index", "layout" };
	struct trace_tf_varying *v;
	struct xt_arena a;
	uint32_t n;
	uint64_t stride;

	str[0] = (struct trace_value){ .tag = TRACE_TAG_STRING, .mem = { (const uint8_t *)"posX", 3, 0 } };
	str[1] = (struct trace_value){ .tag = TRACE_TAG_STRING, .mem = { (const uint8_t *)"id", 2, 0 } };
	for (int i = 0; i < 2; i++) {
		vk[i][0] = str[i];
		vk[i][1] = (struct trace_value){ .tag = TRACE_TAG_ENUM, .u = i ? GL_INT_ : GL_FLOAT_VEC3_ };
		vk[i][2] = (struct trace_value){ .tag = TRACE_TAG_UINT, .u = 1 };
		vk[i][3] = (struct trace_value){ .tag = TRACE_TAG_UINT, .u = 1 };
		vk[i][4] = (struct trace_value){ .tag = TRACE_TAG_UINT, .u = i ? 12 : 0 };
		var[i] = (struct trace_value){ .tag = TRACE_TAG_MAP, .agg = { vk[i], vkeys, i ? 4 : 5 } };
	}
	strides[0] = (struct trace_value){ .tag = TRACE_TAG_UINT, .u = 0 };
	strides[1] = (struct trace_value){ .tag = TRACE_TAG_UINT, .u = 16 };
	layout[0] = (struct trace_value){ .tag = TRACE_TAG_ARRAY, .agg = { strides, NULL, 2 } };
	layout[1] = (struct trace_value){ .tag = TRACE_TAG_ARRAY, .agg = { var, NULL, 2 } };
	top[0] = (struct trace_value){ .tag = TRACE_TAG_STRING, .mem = { (const uint8_t *)"tf_buffer", 9, 0 } };
	top[1] = (struct trace_value){ .tag = TRACE_TAG_UINT, .u = 1 };
	top[2] = (struct trace_value){ .tag = TRACE_TAG_MAP, .agg = { layout, lkeys, 2 } };
	struct trace_value obs = { .tag = TRACE_TAG_MAP, .agg = { top, okeys, 3 } };

	xt_arena_init(&a, 4096);
	CHECK(trace_tf_layout_of(&obs, &a, &v, &n, &stride) == XT_OK);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_INT(stride, 16);
	CHECK_EQ_STR(v[0].name, "pos");
	CHECK_EQ_INT(v[0].type, GL_FLOAT_VEC3_);
	CHECK_EQ_INT(v[1].offset, UINT64_MAX);            /* the second has no offset */
	CHECK_EQ_INT(v[1].buffer, 1);
	top[1].u = 0;
	CHECK(trace_tf_layout_of(&obs, &a, &v, &n, &stride) == XT_OK);
	CHECK_EQ_INT(stride, 0);
	layout[1].tag = TRACE_TAG_UINT;
	CHECK(trace_tf_layout_of(&obs, &a, &v, &n, &stride) == XT_ERR_CORRUPT);
	xt_arena_fini(&a);
}

int main(void)
{
	XT_RUN(test_interleaved_layout_with_markers_gives_spans_in_layout_order);
	XT_RUN(test_no_stride_decodes_nothing);
	XT_RUN(test_hostile_layouts_are_named_not_decoded);
	XT_RUN(test_layout_of_an_observation_value);
	XT_TEST_MAIN_END();
}
