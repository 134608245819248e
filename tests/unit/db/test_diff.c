/*
 * test_diff.c - comparing runs: the TF type table, scalar comparison under
 * each tolerance (zero signs, NaN payloads, infinities), and whole diffs of
 * hand-made runs whose one changed component, gap byte, field or missing
 * observation must be named exactly.
 */
#include <inttypes.h>
#include <math.h>

#include "db_test_util.h"
#include "xt_test.h"
#include "diff.h"
#include "glapi.h"

/* Buffer 0, stride 64: pos vec4 @0, gl_SkipComponents1 @16, w mat2 @20,
 * ids int[2] @36, (gap 44..47), d double @48, (gap 56..63).
 * Buffer 1 (after gl_NextBuffer), stride 12: col vec3 @0. */
static const char *const layout_json =
	"{\"program\":9,\"mode\":\"GL_INTERLEAVED_ATTRIBS\","
	"\"strides\":[64,12],\"varyings\":["
	"{\"name\":\"pos\",\"type\":\"GL_FLOAT_VEC4\",\"size\":1,\"buffer\":0,\"offset\":0},"
	"{\"name\":\"gl_SkipComponents1\",\"type\":\"0\",\"size\":1,\"buffer\":0,\"offset\":16},"
	"{\"name\":\"w\",\"type\":\"GL_FLOAT_MAT2\",\"size\":1,\"buffer\":0,\"offset\":20},"
	"{\"name\":\"ids\",\"type\":\"GL_INT\",\"size\":2,\"buffer\":0,\"offset\":36},"
	"{\"name\":\"d\",\"type\":\"5130\",\"size\":1,\"buffer\":0,\"offset\":48},"
	"{\"name\":\"gl_NextBuffer\",\"type\":\"0\",\"size\":1,\"buffer\":0,\"offset\":0},"
	"{\"name\":\"col\",\"type\":\"GL_FLOAT_VEC3\",\"size\":1,\"buffer\":1,\"offset\":0}]}";

#define NVERT 10
#define BUF0_BYTES (NVERT * 64 + 5)
#define BUF1_BYTES (NVERT * 12)

struct runs {
	struct db *db;
	int64_t trace_id;
	uint8_t buf0[BUF0_BYTES];
	uint8_t buf1[BUF1_BYTES];
};

static void fill(struct runs *r)
{
	for (int v = 0; v < NVERT; v++) {
		uint8_t *p = r->buf0 + v * 64;
		for (int k = 0; k < 4; k++) {
			float f = (float)(v * 10 + k);
			memcpy(p + 4 * k, &f, 4);
		}
		memset(p + 16, 0xab, 4);
		for (int k = 0; k < 4; k++) {
			float f = 0.25f * (float)(v + k);
			memcpy(p + 20 + 4 * k, &f, 4);
		}
		int32_t ids[2] = { v, -v };
		memcpy(p + 36, ids, 8);
		memset(p + 44, 0, 4);
		double d = v * 1.5;
		memcpy(p + 48, &d, 8);
		memset(p + 56, 0xcd, 8);
		for (int k = 0; k < 3; k++) {
			float f = (float)k / (float)(v + 1);
			memcpy(r->buf1 + v * 12 + 4 * k, &f, 4);
		}
	}
	memset(r->buf0 + NVERT * 64, 0x11, 5);
}

static void setup(struct runs *r, const char *name)
{
	struct xt_err err;
	struct db_trace_ref ref;
	const char *path = dtu_path(name);
	dtu_rm_db(path);
	CHECK_EQ_INT(db_open(&r->db, path, DB_OPEN_CREATE, &err), XT_OK);
	CHECK_EQ_INT(dtu_write_trace(dtu_path("d.xfbt"), 1, 64), 0);
	CHECK_EQ_INT(db_trace_record(r->db, dtu_path("d.xfbt"), NULL, &ref), XT_OK);
	r->trace_id = ref.trace_id;
	fill(r);
}

/* Stores a run: the two TF buffers after call 20, a query after call 21
 * with `result`, and, when `extra`, a buffer_read after call 30. */
static int64_t store(struct runs *r, int result, bool extra)
{
	struct db_run *run;
	struct db_run_desc d = { .trace_id = r->trace_id, .backend = "host", .revision = "r" };
	char fields[128];
	CHECK_EQ_INT(db_run_begin(r->db, &d, &run), XT_OK);
	struct db_obs b0 = { .call_no = 20, .kind = "tf_buffer", .index = 0,
			     .function = "glEndTransformFeedback", .primitive_mode = "GL_TRIANGLES",
			     .fields_json = "{\"after\":\"end\",\"buffer\":4,\"offset\":0,\"size\":645}",
			     .layout_json = layout_json, .data = r->buf0, .data_bytes = BUF0_BYTES };
	struct db_obs b1 = b0;
	b1.index = 1;
	b1.fields_json = "{\"after\":\"end\",\"buffer\":5,\"offset\":0,\"size\":120}";
	b1.data = r->buf1;
	b1.data_bytes = BUF1_BYTES;
	snprintf(fields, sizeof fields, "{\"function\":\"glGetQueryObjectuiv\",\"query\":1,"
		 "\"pname\":\"GL_QUERY_RESULT\",\"result\":%d}", result);
	struct db_obs q = { .call_no = 21, .kind = "query", .function = "glGetQueryObjectuiv",
			    .fields_json = fields };
	struct db_obs x = { .call_no = 30, .kind = "buffer_read", .function = "glGetBufferSubData",
			    .fields_json = "{}", .data = r->buf1, .data_bytes = 12 };
	CHECK_EQ_INT(db_run_add_observation(run, &b0), XT_OK);
	CHECK_EQ_INT(db_run_add_observation(run, &b1), XT_OK);
	CHECK_EQ_INT(db_run_add_observation(run, &q), XT_OK);
	if (extra)
		CHECK_EQ_INT(db_run_add_observation(run, &x), XT_OK);
	int64_t id = db_run_id(run);
	CHECK_EQ_INT(db_run_finish(run, DB_RUN_OK, NULL), XT_OK);
	return id;
}

#define MAX_SEEN 64

struct seen {
	int nobs;
	struct diff_obs obs[8];
	char kinds[8][32];
	int nitems;
	struct diff_item items[MAX_SEEN];
	char names[MAX_SEEN][64];
};

static enum xt_rc collect(const struct diff_obs *d, void *ctx)
{
	struct seen *s = ctx;
	if (s->nobs < 8) {
		snprintf(s->kinds[s->nobs], 32, "%s", d->kind);
		s->obs[s->nobs++] = *d;
	}
	for (uint32_t i = 0; i < d->nitems && s->nitems < MAX_SEEN; i++) {
		s->items[s->nitems] = d->items[i];
		snprintf(s->names[s->nitems], 64, "%s", d->items[i].varying ? d->items[i].varying
								      : d->items[i].field ? d->items[i].field : "");
		s->nitems++;
	}
	return XT_OK;
}

static enum xt_rc run_diff(struct runs *r, int64_t a, int64_t b, struct diff_options *o,
			   struct seen *s, struct diff_summary *sum)
{
	struct xt_err err;
	memset(s, 0, sizeof *s);
	enum xt_rc rc = diff_runs(r->db, a, b, o, collect, s, sum, &err);
	if (rc)
		fprintf(stderr, "diff_runs: %s\n", xt_err_msg(&err));
	return rc;
}

static void test_stored_type_names_and_values_reach_the_layout_decoder(void)
{
	struct db_tf_varying in[] = {
		{ "a", "GL_FLOAT_VEC4", 1, 0, 0 },
		{ "b", "35665", 1, 0, 16 },          /* GL_FLOAT_VEC3 in decimal, as db stores unknown names */
		{ "c", "GL_BOOL", 1, 0, 28 },
		{ "d", "12x", 1, 0, 32 },
		{ "e", "", 1, 0, 36 },
		{ "f", "99999999999", 1, 0, 40 },
		{ "g", "GL_DOUBLE_MAT2x3", 1, 1, 0 },
	};
	struct db_tf_layout l = { .nvaryings = 7, .varyings = in };
	struct trace_tf_varying *v;
	struct xt_arena a;

	xt_arena_init(&a, 4096);
	CHECK(diff_tf_varyings(&l, &a, &v) == XT_OK);
	CHECK_EQ_INT(v[0].type, 0x8B52);
	CHECK_EQ_INT(v[1].type, 0x8B51);
	CHECK_EQ_INT(v[2].type, 0x8B56);
	CHECK(trace_tf_type(v[2].type) == NULL);   /* known, but TF cannot hold it */
	CHECK_EQ_INT(v[3].type, 0);
	CHECK_EQ_INT(v[4].type, 0);
	CHECK_EQ_INT(v[5].type, 0);
	CHECK_EQ_STR(v[6].name, "g");
	CHECK_EQ_INT(v[6].buffer, 1);
	const struct glapi_type *t = trace_tf_type(v[6].type);
	CHECK(t && trace_tol_scalar_of(t) == TRACE_TOL_F64 && t->components == 6);
	xt_arena_fini(&a);
}

static uint64_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static void test_exact_compare_names_zero_sign_and_nan_payload(void)
{
	struct diff_options o = { 0 };
	enum trace_tol_why why;
	double delta;
	uint64_t ulps;
	CHECK(!trace_tol_differ(TRACE_TOL_F32, fbits(1.5f), fbits(1.5f), &o.tol, &why, &delta, &ulps));
	CHECK(trace_tol_differ(TRACE_TOL_F32, fbits(0.0f), fbits(-0.0f), &o.tol, &why, &delta, &ulps));
	CHECK_EQ_INT(why, TRACE_TOL_WHY_ZERO_SIGN);
	CHECK(trace_tol_differ(TRACE_TOL_F32, 0x7fc00000, 0x7fc00001, &o.tol, &why, &delta, &ulps));
	CHECK_EQ_INT(why, TRACE_TOL_WHY_NAN_PAYLOAD);
	CHECK(!trace_tol_differ(TRACE_TOL_F32, 0x7fc00001, 0x7fc00001, &o.tol, &why, &delta, &ulps));
	CHECK(trace_tol_differ(TRACE_TOL_F32, 0x7fc00000, fbits(1.0f), &o.tol, &why, &delta, &ulps));
	CHECK_EQ_INT(why, TRACE_TOL_WHY_NAN);
	CHECK(trace_tol_differ(TRACE_TOL_F32, fbits(1.0f), fbits(1.0f) + 1, &o.tol, &why, &delta, &ulps));
	CHECK_EQ_INT(ulps, 1);
	CHECK(delta > 0 && delta < 1e-6);
	/* Across zero: the smallest positive and negative denormals are 2 apart. */
	CHECK(trace_tol_differ(TRACE_TOL_F32, 0x00000001, 0x80000001, &o.tol, &why, &delta, &ulps));
	CHECK_EQ_INT(ulps, 2);
	CHECK(trace_tol_differ(TRACE_TOL_I32, (uint32_t)-3, 4, &o.tol, &why, &delta, &ulps));
	CHECK(delta == 7);
	double one = 1.0, next = nextafter(1.0, 2.0);
	uint64_t b1, b2;
	memcpy(&b1, &one, 8);
	memcpy(&b2, &next, 8);
	CHECK(trace_tol_differ(TRACE_TOL_F64, b1, b2, &o.tol, &why, &delta, &ulps));
	CHECK_EQ_INT(ulps, 1);
}

static void test_tolerances_accept_close_values_but_not_nan_or_inf(void)
{
	struct diff_options o = { 0 };
	enum trace_tol_why why;
	double delta;
	uint64_t ulps;
	CHECK(trace_tol_parse("ulps=2", &o.tol));
	CHECK_EQ_INT(o.tol.mode, TRACE_TOL_ULPS);
	CHECK(!trace_tol_differ(TRACE_TOL_F32, fbits(1.0f), fbits(1.0f) + 2, &o.tol, &why, &delta, &ulps));
	CHECK(trace_tol_differ(TRACE_TOL_F32, fbits(1.0f), fbits(1.0f) + 3, &o.tol, &why, &delta, &ulps));
	CHECK(!trace_tol_differ(TRACE_TOL_F32, fbits(0.0f), fbits(-0.0f), &o.tol, &why, &delta, &ulps));
	CHECK(!trace_tol_differ(TRACE_TOL_F32, 0x7fc00000, 0xffc12345, &o.tol, &why, &delta, &ulps));
	CHECK(trace_tol_differ(TRACE_TOL_F32, 0x7fc00000, fbits(0.0f), &o.tol, &why, &delta, &ulps));
	CHECK(trace_tol_differ(TRACE_TOL_F32, fbits(INFINITY), fbits(3.4028235e38f), &o.tol, &why, &delta,
				  &ulps));
	CHECK(!trace_tol_differ(TRACE_TOL_F32, fbits(INFINITY), fbits(INFINITY), &o.tol, &why, &delta, &ulps));
	CHECK(trace_tol_differ(TRACE_TOL_I32, 1, 2, &o.tol, &why, &delta, &ulps));

	CHECK(trace_tol_parse("abs=0.01", &o.tol));
	CHECK_EQ_INT(o.tol.mode, TRACE_TOL_ABS);
	CHECK(!trace_tol_differ(TRACE_TOL_F32, fbits(1.0f), fbits(1.005f), &o.tol, &why, &delta, &ulps));
	CHECK(trace_tol_differ(TRACE_TOL_F32, fbits(1.0f), fbits(1.02f), &o.tol, &why, &delta, &ulps));
	CHECK(trace_tol_differ(TRACE_TOL_F32, fbits(-INFINITY), fbits(INFINITY), &o.tol, &why, &delta, &ulps));

	/* either: 0.01 apart near zero, 2 ulps apart for large values */
	CHECK(trace_tol_parse("ulps=2,abs=0.01", &o.tol));
	CHECK_EQ_INT(o.tol.mode, TRACE_TOL_ABS_OR_ULPS);
	CHECK(o.tol.ulps == 2 && o.tol.abs == 0.01);
	CHECK(!trace_tol_differ(TRACE_TOL_F32, fbits(0.0f), fbits(0.005f), &o.tol, &why, &delta, &ulps));
	CHECK(!trace_tol_differ(TRACE_TOL_F32, fbits(1e6f), fbits(1e6f) + 2, &o.tol, &why, &delta, &ulps));
	CHECK(trace_tol_differ(TRACE_TOL_F32, fbits(1e6f), fbits(1e6f) + 3, &o.tol, &why, &delta, &ulps));
	CHECK(trace_tol_differ(TRACE_TOL_F32, fbits(1.0f), fbits(1.02f), &o.tol, &why, &delta, &ulps));
	CHECK(trace_tol_differ(TRACE_TOL_F32, fbits(1.0f), fbits(INFINITY), &o.tol, &why, &delta, &ulps));
	CHECK(trace_tol_parse("abs=0.01,ulps=2", &o.tol));
	CHECK_EQ_INT(o.tol.mode, TRACE_TOL_ABS_OR_ULPS);

	struct diff_options keep = o;
	const char *bad[] = { "ulps=", "ulps=-1", "ulps=3x", "abs=", "abs=-1", "abs=nan", "abs=inf",
			      "rel=1", "", "abs=1,abs=2", "ulps=1,ulps=2", "abs=1,", ",ulps=1",
			      "abs=1,ulps=2,ulps=3" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK(!trace_tol_parse(bad[i], &o.tol));
		CHECK(o.tol.mode == keep.tol.mode && o.tol.abs == keep.tol.abs);
	}
}

static void test_identical_runs_have_no_differences(void)
{
	struct runs r;
	struct seen s;
	struct diff_summary sum;
	struct diff_options o = { .max_items = 10 };
	setup(&r, "same.db");
	int64_t a = store(&r, 6, false), b = store(&r, 6, false);
	CHECK_EQ_INT(run_diff(&r, a, b, &o, &s, &sum), XT_OK);
	CHECK_EQ_INT(s.nobs, 0);
	CHECK_EQ_INT(sum.pairs, 3);
	CHECK_EQ_INT(sum.same, 3);
	CHECK_EQ_INT(sum.hash_matches, 2);
	CHECK_EQ_INT(sum.components_compared, 0);
	/* Decoding everything gives the same verdict. */
	o.no_hash_shortcut = true;
	CHECK_EQ_INT(run_diff(&r, a, b, &o, &s, &sum), XT_OK);
	CHECK_EQ_INT(s.nobs, 0);
	CHECK_EQ_INT(sum.components_compared, NVERT * (4 + 4 + 2 + 1) + NVERT * 3);
	db_close(r.db);
}

static void test_diff_names_the_one_changed_component(void)
{
	struct runs r;
	struct seen s;
	struct diff_summary sum;
	struct diff_options o = { .max_items = 10 };
	setup(&r, "one.db");
	int64_t a = store(&r, 6, false);
	/* w[1][0] (component 2 of the mat2) of vertex 7: one ulp up. */
	uint32_t u;
	memcpy(&u, r.buf0 + 7 * 64 + 20 + 8, 4);
	u++;
	memcpy(r.buf0 + 7 * 64 + 20 + 8, &u, 4);
	int64_t b = store(&r, 6, false);
	CHECK_EQ_INT(run_diff(&r, a, b, &o, &s, &sum), XT_OK);
	CHECK_EQ_INT(sum.different, 1);
	CHECK_EQ_INT(sum.different_tf, 1);
	CHECK_EQ_INT(sum.components_differ, 1);
	CHECK_EQ_INT(s.nobs, 1);
	CHECK_EQ_INT(s.obs[0].call_no, 20);
	CHECK_EQ_INT(s.obs[0].index, 0);
	CHECK_EQ_INT(s.obs[0].buffer, 4);
	CHECK_EQ_INT(s.obs[0].stride, 64);
	CHECK_EQ_INT(s.obs[0].vertices, NVERT);
	CHECK_EQ_INT(s.nitems, 1);
	struct diff_item *it = &s.items[0];
	CHECK_EQ_INT(it->kind, DIFF_ITEM_COMPONENT);
	CHECK_EQ_INT(it->vertex, 7);
	CHECK_EQ_INT(it->primitive, 2);
	CHECK_EQ_STR(s.names[0], "w");
	CHECK_EQ_INT(it->element, -1);
	CHECK_EQ_INT(it->component, 2);
	CHECK_EQ_STR(it->component_name, "[1][0]");
	CHECK_EQ_INT(it->ulps, 1);
	CHECK_EQ_INT(it->byte_offset, 7 * 64 + 28);
	CHECK_EQ_INT(it->b, it->a + 1);
	/* One ulp is within ulps=1 and beyond ulps=0. */
	o.tol.mode = TRACE_TOL_ULPS;
	o.tol.ulps = 1;
	CHECK_EQ_INT(run_diff(&r, a, b, &o, &s, &sum), XT_OK);
	CHECK_EQ_INT(sum.different, 0);
	o.tol.ulps = 0;
	CHECK_EQ_INT(run_diff(&r, a, b, &o, &s, &sum), XT_OK);
	CHECK_EQ_INT(sum.different, 1);
	db_close(r.db);
}

static void test_diff_names_array_elements_doubles_and_the_second_buffer(void)
{
	struct runs r;
	struct seen s;
	struct diff_summary sum;
	struct diff_options o = { .max_items = 10 };
	setup(&r, "elems.db");
	int64_t a = store(&r, 6, false);
	int32_t id = 99;
	double d = -0.0;
	float f = 7.0f;
	memcpy(r.buf0 + 3 * 64 + 40, &id, 4);     /* ids[1] of vertex 3 */
	memcpy(r.buf0 + 0 * 64 + 48, &d, 8);      /* d of vertex 0 was +0.0 */
	memcpy(r.buf1 + 9 * 12 + 4, &f, 4);       /* col.y of vertex 9 */
	int64_t b = store(&r, 6, false);
	CHECK_EQ_INT(run_diff(&r, a, b, &o, &s, &sum), XT_OK);
	CHECK_EQ_INT(sum.components_differ, 3);
	CHECK_EQ_INT(s.nobs, 2);
	CHECK_EQ_INT(s.nitems, 3);
	/* Items come in vertex order within an observation. */
	CHECK_EQ_STR(s.names[0], "d");
	CHECK_EQ_INT(s.items[0].why, TRACE_TOL_WHY_ZERO_SIGN);
	CHECK_EQ_INT(s.items[0].scalar, TRACE_TOL_F64);
	CHECK_EQ_STR(s.names[1], "ids");
	CHECK_EQ_INT(s.items[1].vertex, 3);
	CHECK_EQ_INT(s.items[1].element, 1);
	CHECK_EQ_STR(s.items[1].component_name, "");
	CHECK_EQ_INT((int32_t)s.items[1].b, 99);
	CHECK_EQ_INT(s.obs[1].index, 1);
	CHECK_EQ_INT(s.obs[1].stride, 12);
	CHECK_EQ_STR(s.names[2], "col");
	CHECK_EQ_INT(s.items[2].vertex, 9);
	CHECK_EQ_STR(s.items[2].component_name, "y");
	db_close(r.db);
}

static void test_diff_reports_gap_and_tail_bytes_as_byte_runs(void)
{
	struct runs r;
	struct seen s;
	struct diff_summary sum;
	struct diff_options o = { .max_items = 10 };
	setup(&r, "gaps.db");
	int64_t a = store(&r, 6, false);
	r.buf0[2 * 64 + 45] ^= 1;          /* the gap after ids */
	r.buf0[2 * 64 + 17] ^= 1;          /* gl_SkipComponents1 */
	r.buf0[NVERT * 64 + 2] ^= 1;       /* past the last whole vertex */
	r.buf0[NVERT * 64 + 3] ^= 1;
	int64_t b = store(&r, 6, false);
	CHECK_EQ_INT(run_diff(&r, a, b, &o, &s, &sum), XT_OK);
	CHECK_EQ_INT(sum.components_differ, 0);
	CHECK_EQ_INT(sum.bytes_differ, 4);
	CHECK_EQ_INT(s.nitems, 3);
	CHECK_EQ_INT(s.items[0].kind, DIFF_ITEM_BYTES);
	CHECK_EQ_INT(s.items[0].byte_offset, 2 * 64 + 17);
	CHECK_EQ_INT(s.items[1].byte_offset, 2 * 64 + 45);
	CHECK_EQ_INT(s.items[2].byte_offset, NVERT * 64 + 2);
	CHECK_EQ_INT(s.items[2].byte_count, 2);
	db_close(r.db);
}

static void test_diff_reports_fields_and_one_sided_observations(void)
{
	struct runs r;
	struct seen s;
	struct diff_summary sum;
	struct diff_options o = { .max_items = 10 };
	setup(&r, "fields.db");
	int64_t a = store(&r, 6, true), b = store(&r, 7, false);
	CHECK_EQ_INT(run_diff(&r, a, b, &o, &s, &sum), XT_OK);
	CHECK_EQ_INT(sum.different, 1);
	CHECK_EQ_INT(sum.different_query, 1);
	CHECK_EQ_INT(sum.only_a, 1);
	CHECK_EQ_INT(sum.only_b, 0);
	CHECK_EQ_INT(s.nobs, 2);
	CHECK_EQ_STR(s.kinds[0], "query");
	CHECK_EQ_INT(s.obs[0].fields_differ, 1);
	CHECK_EQ_STR(s.names[0], "result");
	CHECK_EQ_INT(s.items[0].kind, DIFF_ITEM_FIELD);
	CHECK_EQ_INT(s.obs[1].state, DIFF_OBS_ONLY_A);
	CHECK_EQ_INT(s.obs[1].call_no, 30);
	/* And the other way round. */
	CHECK_EQ_INT(run_diff(&r, b, a, &o, &s, &sum), XT_OK);
	CHECK_EQ_INT(sum.only_b, 1);
	db_close(r.db);
}

static void test_diff_counts_every_difference_but_keeps_the_limit(void)
{
	struct runs r;
	struct seen s;
	struct diff_summary sum;
	struct diff_options o = { .max_items = 3 };
	setup(&r, "limit.db");
	int64_t a = store(&r, 6, false);
	for (int v = 0; v < NVERT; v++)
		r.buf0[v * 64] ^= 0x80;           /* pos.x of every vertex */
	int64_t b = store(&r, 6, false);
	CHECK_EQ_INT(run_diff(&r, a, b, &o, &s, &sum), XT_OK);
	CHECK_EQ_INT(sum.components_differ, NVERT);
	CHECK_EQ_INT(s.obs[0].nitems, 3);
	CHECK_EQ_INT(s.obs[0].differences, NVERT);
	o.max_items = 0;
	CHECK_EQ_INT(run_diff(&r, a, b, &o, &s, &sum), XT_OK);
	CHECK_EQ_INT(s.obs[0].nitems, NVERT);
	db_close(r.db);
}

static void test_diff_refuses_runs_of_different_traces(void)
{
	struct db *db;
	struct xt_err err;
	struct db_trace_ref one, two;
	struct diff_summary sum;
	struct seen s;
	struct diff_options o = { 0 };
	const char *path = dtu_path("two.db");
	dtu_rm_db(path);
	CHECK_EQ_INT(db_open(&db, path, DB_OPEN_CREATE, &err), XT_OK);
	CHECK_EQ_INT(dtu_write_trace(dtu_path("one.xfbt"), 1, 64), 0);
	CHECK_EQ_INT(dtu_write_trace(dtu_path("two.xfbt"), 2, 64), 0);
	CHECK_EQ_INT(db_trace_record(db, dtu_path("one.xfbt"), NULL, &one), XT_OK);
	CHECK_EQ_INT(db_trace_record(db, dtu_path("two.xfbt"), NULL, &two), XT_OK);
	CHECK_EQ_INT(diff_runs(db, one.golden_run_id, two.golden_run_id, &o, collect, &s, &sum, &err),
		     XT_ERR_INVALID);
	CHECK(strstr(err.msg, "same trace") != NULL);
	CHECK_EQ_INT(diff_runs(db, one.golden_run_id, 77, &o, collect, &s, &sum, &err),
		     XT_ERR_NOT_FOUND);
	db_close(db);
}

static void test_diff_reports_hostile_layouts_as_corrupt(void)
{
	const char *edits[] = {
		/* col (vec3, 12 bytes) no longer fits a stride of 8 */
		"UPDATE layouts SET json = json_set(json, '$.strides[1]', 8)",
		/* pos and w overlap */
		"UPDATE layouts SET json = json_set(json, '$.varyings[2].offset', 4,"
		" '$.varyings[3].offset', 8, '$.varyings[4].offset', 12)",
		"UPDATE layouts SET json = '[]'",
	};
	for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
		struct runs r;
		struct seen s;
		struct diff_summary sum;
		struct diff_options o = { .max_items = 10, .no_hash_shortcut = true };
		setup(&r, "hostile.db");
		int64_t a = store(&r, 6, false), b = store(&r, 6, false);
		CHECK_EQ_INT(dtu_sql(dtu_path("hostile.db"), edits[i]), 0);
		struct xt_err err;
		enum xt_rc rc = diff_runs(r.db, a, b, &o, collect, &s, &sum, &err);
		if (rc != XT_ERR_CORRUPT)
			fprintf(stderr, "edit %zu: %s %s\n", i, xt_rc_name(rc), err.msg);
		CHECK_EQ_INT(rc, XT_ERR_CORRUPT);
		CHECK(strstr(err.msg, "layout") != NULL);
		db_close(r.db);
	}
}

int main(void)
{
	XT_RUN(test_stored_type_names_and_values_reach_the_layout_decoder);
	XT_RUN(test_exact_compare_names_zero_sign_and_nan_payload);
	XT_RUN(test_tolerances_accept_close_values_but_not_nan_or_inf);
	XT_RUN(test_identical_runs_have_no_differences);
	XT_RUN(test_diff_names_the_one_changed_component);
	XT_RUN(test_diff_names_array_elements_doubles_and_the_second_buffer);
	XT_RUN(test_diff_reports_gap_and_tail_bytes_as_byte_runs);
	XT_RUN(test_diff_reports_fields_and_one_sided_observations);
	XT_RUN(test_diff_counts_every_difference_but_keeps_the_limit);
	XT_RUN(test_diff_refuses_runs_of_different_traces);
	XT_RUN(test_diff_reports_hostile_layouts_as_corrupt);
	dtu_cleanup();
	XT_TEST_MAIN_END();
}
