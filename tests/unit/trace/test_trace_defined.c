/*
 * test_trace_defined.c - which bytes of each buffer the application defined
 * (trace/trace_defined.h): the range sets, the tracker on recorded calls
 * built here (buffer storage, writes, mappings, TF writes placed by the
 * golden layout, tessellated quads), the tessellation check, and the way
 * it errs: whatever it cannot follow, and running out of memory, count as
 * defined, never as undefined.
 */
#include <stdarg.h>
#include <string.h>

#include "trace_defined.h"
#include "trace_defined_int.h"   /* d->q: what trace_defined_prescan would read */
#include "xt_fault.h"
#include "xt_test.h"

/* GL values (gl.xml). */
enum {
	POINTS = 0x0, TRIANGLES = 0x4, QUADS = 0x7, ARRAY_BUFFER = 0x8892,
	TF_BUFFER = 0x8C8E, VERTEX_SHADER = 0x8B31, GEOMETRY_SHADER = 0x8DD9,
	FLOAT_VEC4 = 0x8B52, MAP_WRITE = 0x2, MAP_INVALIDATE_BUFFER = 0x8,
};

/* ---- building recorded calls ------------------------------------------------- */

static struct trace_value U(uint64_t v) { return (struct trace_value){ .tag = TRACE_TAG_UINT, .u = v }; }
static struct trace_value E(uint64_t v) { return (struct trace_value){ .tag = TRACE_TAG_ENUM, .u = v }; }
static struct trace_value NUL(void) { return (struct trace_value){ .tag = TRACE_TAG_NULL }; }

static struct trace_value MEM(size_t n)
{
	static const uint8_t bytes[4096];
	struct trace_value v = { .tag = TRACE_TAG_MEMORY };
	v.mem.bytes = bytes;
	v.mem.len = n;
	return v;
}

static uint32_t func_id(const char *name)
{
	static const char *names[64];
	uint32_t i;
	for (i = 0; i < 64 && names[i] && strcmp(names[i], name); i++)
		;
	if (i < 64 && !names[i])
		names[i] = name;
	return i;
}

static uint64_t call_no;

/* Feeds call `name` with `n` arguments (and a returned value `ret`, 0: none). */
static void call(struct trace_defined *d, const char *name, uint64_t ret, int n, ...)
{
	struct trace_value args[8];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		args[i] = va_arg(ap, struct trace_value);
	va_end(ap);
	struct trace_call c = { ++call_no, func_id(name), 0, name, (uint32_t)n, args };
	struct trace_ret r = { .no = call_no, .ret = U(ret) };
	trace_defined_call(d, &c, ret ? &r : NULL);
}

/* A golden tf_buffer observation whose layout is one vec4 `a` in binding
 * point 0 with a stride of 16 bytes, of `program`. */
static void tf_observation(struct trace_defined *d, uint64_t program)
{
	const char *vkeys[] = { "name", "type", "size", "buffer", "offset" };
	struct trace_value vitems[] = {
		{ .tag = TRACE_TAG_STRING, .mem = { (const uint8_t *)"a", 1, 0 } },
		E(FLOAT_VEC4), U(1), U(0), U(0),
	};
	struct trace_value varying = { .tag = TRACE_TAG_MAP, .agg = { vitems, vkeys, 5 } };
	struct trace_value stride = U(16);
	const char *lkeys[] = { "program", "strides", "varyings" };
	struct trace_value litems[] = {
		U(program),
		{ .tag = TRACE_TAG_ARRAY, .agg = { &stride, NULL, 1 } },
		{ .tag = TRACE_TAG_ARRAY, .agg = { &varying, NULL, 1 } },
	};
	const char *keys[] = { "kind", "layout" };
	struct trace_value items[] = {
		{ .tag = TRACE_TAG_STRING, .mem = { (const uint8_t *)"tf_buffer", 9, 0 } },
		{ .tag = TRACE_TAG_MAP, .agg = { litems, lkeys, 3 } },
	};
	struct trace_value obs = { .tag = TRACE_TAG_MAP, .agg = { items, keys, 2 } };
	trace_defined_observation(d, call_no, &obs);
}

/* Program 2 of a vertex shader (and a geometry shader with `gs`) in use. */
static void program(struct trace_defined *d, bool gs)
{
	call(d, "glCreateShader", 1, 1, E(VERTEX_SHADER));
	call(d, "glCreateProgram", 2, 0);
	call(d, "glAttachShader", 0, 2, U(2), U(1));
	if (gs) {
		call(d, "glCreateShader", 3, 1, E(GEOMETRY_SHADER));
		call(d, "glAttachShader", 0, 2, U(2), U(3));
	}
	call(d, "glLinkProgram", 0, 1, U(2));
	call(d, "glUseProgram", 0, 1, U(2));
}

/* Buffer 5 of `size` bytes, made with NULL data, bound to TF point 0. */
static void tf_buffer(struct trace_defined *d, uint64_t size)
{
	call(d, "glBindBuffer", 0, 2, E(TF_BUFFER), U(5));
	call(d, "glBufferData", 0, 4, E(TF_BUFFER), U(size), NUL(), E(0x88E0));
	call(d, "glBindBufferBase", 0, 3, E(TF_BUFFER), U(0), U(5));
}

/* The undefined ranges of bytes [0, len) of buffer `b`, as "lo-hi ..." text. */
static const char *gaps(struct trace_defined *d, uint64_t b, uint64_t len, char *why)
{
	static char text[256];
	struct trace_ranges u;
	char w[256];
	size_t k = 0;

	trace_ranges_init(&u);
	text[0] = '\0';
	if (trace_defined_undefined(d, 0, b, 0, len, &u, w, sizeof w))
		for (size_t i = 0; i < u.n; i++)
			k += (size_t)snprintf(text + k, sizeof text - k, "%s%llu-%llu", i ? " " : "",
					      (unsigned long long)u.r[i].lo,
					      (unsigned long long)u.r[i].hi);
	if (why)
		strcpy(why, w);
	trace_ranges_fini(&u);
	return text;
}

static struct trace_defined *tracker(void)
{
	struct trace_defined *d = NULL;
	CHECK(trace_defined_create(&d) == XT_OK);
	call_no = 0;
	return d;
}

/* ---- range sets ------------------------------------------------------------------ */

static void test_ranges_merge_split_and_give_gaps(void)
{
	struct trace_ranges s, g;

	trace_ranges_init(&s);
	trace_ranges_init(&g);
	CHECK(trace_ranges_add(&s, 10, 20) == XT_OK);
	CHECK(trace_ranges_add(&s, 30, 40) == XT_OK);
	CHECK(trace_ranges_add(&s, 20, 30) == XT_OK);      /* touching both: one range */
	CHECK_EQ_INT(s.n, 1);
	CHECK(s.r[0].lo == 10 && s.r[0].hi == 40);
	CHECK(trace_ranges_remove(&s, 15, 25) == XT_OK);   /* splits */
	CHECK_EQ_INT(s.n, 2);
	CHECK(trace_ranges_has(&s, 14) && !trace_ranges_has(&s, 15) && trace_ranges_has(&s, 25));
	CHECK(trace_ranges_gaps(&s, 0, 50, &g) == XT_OK);
	CHECK_EQ_INT(g.n, 3);
	CHECK(g.r[0].lo == 0 && g.r[0].hi == 10 && g.r[1].lo == 15 && g.r[1].hi == 25 &&
	      g.r[2].lo == 40 && g.r[2].hi == 50);
	CHECK(trace_ranges_remove(&s, 0, 100) == XT_OK);
	CHECK_EQ_INT(s.n, 0);
	CHECK(trace_ranges_add(&s, 5, 5) == XT_OK && s.n == 0);
	trace_ranges_fini(&s);
	trace_ranges_fini(&g);
}

/* ---- buffers --------------------------------------------------------------------- */

static void test_null_data_is_undefined_until_written(void)
{
	struct trace_defined *d = tracker();
	char why[256];

	call(d, "glBindBuffer", 0, 2, E(ARRAY_BUFFER), U(7));
	call(d, "glBufferData", 0, 4, E(ARRAY_BUFFER), U(64), NUL(), E(0x88E4));
	call(d, "glBufferSubData", 0, 4, E(ARRAY_BUFFER), U(16), U(16), MEM(16));
	CHECK_EQ_STR(gaps(d, 7, 64, why), "0-16 32-64");
	CHECK_EQ_STR(why, "glBufferData(NULL) at call 2");
	CHECK_EQ_STR(gaps(d, 7, 16, NULL), "0-16");        /* only the range asked */
	call(d, "glBufferData", 0, 4, E(ARRAY_BUFFER), U(64), MEM(64), E(0x88E4));
	CHECK_EQ_STR(gaps(d, 7, 64, NULL), "");
	CHECK_EQ_STR(gaps(d, 8, 64, NULL), "");            /* never seen: defined */
	trace_defined_destroy(d);
}

static void test_a_write_the_tracker_cannot_place_defines_everything(void)
{
	struct trace_defined *d = tracker();

	call(d, "glBindBuffer", 0, 2, E(ARRAY_BUFFER), U(7));
	call(d, "glBufferData", 0, 4, E(ARRAY_BUFFER), U(64), NUL(), E(0x88E4));
	CHECK_EQ_STR(gaps(d, 7, 64, NULL), "0-64");
	/* A target the tracker does not follow: any buffer may have been written. */
	call(d, "glBufferSubData", 0, 4, E(0x1234), U(0), U(4), MEM(4));
	CHECK_EQ_STR(gaps(d, 7, 64, NULL), "");
	trace_defined_destroy(d);
}

static void test_mapped_writes_define_what_the_memwrites_cover(void)
{
	struct trace_defined *d = tracker();

	call(d, "glBindBuffer", 0, 2, E(ARRAY_BUFFER), U(7));
	call(d, "glBufferData", 0, 4, E(ARRAY_BUFFER), U(64), MEM(64), E(0x88E4));
	call(d, "glMapBufferRange", 0x1000, 4, E(ARRAY_BUFFER), U(0), U(64),
	     U(MAP_WRITE | MAP_INVALIDATE_BUFFER));
	CHECK_EQ_STR(gaps(d, 7, 64, NULL), "0-64");
	trace_defined_memwrite(d, call_no + 1, 0x1010, 16, "map-flush");
	CHECK_EQ_STR(gaps(d, 7, 64, NULL), "0-16 32-64");
	/* Bytes of no mapping the tracker knows: it cannot tell which buffer. */
	trace_defined_memwrite(d, call_no + 1, 0x9000, 4, "map-unmap");
	CHECK_EQ_STR(gaps(d, 7, 64, NULL), "");
	trace_defined_destroy(d);
}

/* ---- transform feedback ------------------------------------------------------------- */

static void test_tf_defines_exactly_the_vertices_it_wrote(void)
{
	struct trace_defined *d = tracker();
	char why[256];

	program(d, false);
	tf_buffer(d, 256);
	call(d, "glBeginTransformFeedback", 0, 1, E(POINTS));
	call(d, "glDrawArrays", 0, 3, E(POINTS), U(0), U(3));
	call(d, "glEndTransformFeedback", 0, 0);
	tf_observation(d, 2);
	CHECK_EQ_STR(gaps(d, 5, 256, why), "48-256");
	CHECK(strstr(why, "glBufferData(NULL) at call") && strstr(why, "TF wrote 48 bytes"));
	trace_defined_destroy(d);
}

static void test_tf_stops_at_the_first_vertex_that_does_not_fit(void)
{
	struct trace_defined *d = tracker();

	program(d, false);
	tf_buffer(d, 40);
	call(d, "glBeginTransformFeedback", 0, 1, E(POINTS));
	call(d, "glDrawArrays", 0, 3, E(POINTS), U(0), U(3));
	call(d, "glEndTransformFeedback", 0, 0);
	tf_observation(d, 2);
	CHECK_EQ_STR(gaps(d, 5, 40, NULL), "32-40");
	trace_defined_destroy(d);
}

static void test_tf_counts_it_cannot_know_write_the_whole_range(void)
{
	/* A geometry shader; a layout of another program (a pipeline the
	 * capture could not ask: program 0, no varyings); no layout at all. */
	for (int k = 0; k < 3; k++) {
		struct trace_defined *d = tracker();
		program(d, k == 0);
		tf_buffer(d, 256);
		call(d, "glBeginTransformFeedback", 0, 1, E(POINTS));
		call(d, "glDrawArrays", 0, 3, E(POINTS), U(0), U(3));
		call(d, "glEndTransformFeedback", 0, 0);
		if (k < 2)
			tf_observation(d, k == 1 ? 0 : 2);
		else
			call(d, "glFlush", 0, 0);
		CHECK_EQ_STR(gaps(d, 5, 256, NULL), "");
		trace_defined_destroy(d);
	}
}

/* A geometry shader program (its source naming vertex streams when
 * `streams`) draws 3 points into a 256-byte NULL buffer, inside a
 * GL_PRIMITIVES_GENERATED query whose golden result was 2 (what
 * trace_defined_prescan reads ahead, given to the tracker directly). */
static const char *gs_draw(bool streams, bool query)
{
	static const char *const plain[] = { "#version 150\nvoid main() { EmitVertex(); }\n" };
	static const char *const multi[] = { "#version 400\nvoid main() { EmitStreamVertex(1); }\n" };
	struct trace_value src = { .tag = TRACE_TAG_ARRAY };
	struct trace_value str = { .tag = TRACE_TAG_STRING };
	struct trace_defined *d = tracker();
	static char result[64];

	str.mem.bytes = (const uint8_t *)(streams ? multi[0] : plain[0]);
	str.mem.len = strlen(streams ? multi[0] : plain[0]);
	src.agg.items = &str;
	src.agg.count = 1;
	call(d, "glCreateShader", 1, 1, E(VERTEX_SHADER));
	call(d, "glCreateShader", 3, 1, E(GEOMETRY_SHADER));
	call(d, "glShaderSource", 0, 4, U(3), U(1), src, NUL());
	call(d, "glCreateProgram", 2, 0);
	call(d, "glAttachShader", 0, 2, U(2), U(1));
	call(d, "glAttachShader", 0, 2, U(2), U(3));
	call(d, "glLinkProgram", 0, 1, U(2));
	call(d, "glUseProgram", 0, 1, U(2));
	tf_buffer(d, 256);
	if (query && d_grow(d, (void **)&d->q, &d->capq, 1, sizeof *d->q))
		d->q[d->nq++] = (struct dquery){ 0, 9, 0x8C87, call_no, call_no + 4, 2, true };
	call(d, "glBeginTransformFeedback", 0, 1, E(POINTS));
	call(d, "glDrawArrays", 0, 3, E(POINTS), U(0), U(3));
	call(d, "glEndTransformFeedback", 0, 0);
	tf_observation(d, 2);
	snprintf(result, sizeof result, "%s", gaps(d, 5, 256, NULL));
	trace_defined_destroy(d);
	return result;
}

static void test_a_primitives_query_bounds_what_a_geometry_shader_wrote(void)
{
	CHECK_EQ_STR(gs_draw(false, true), "32-256");   /* 2 points of 16 bytes */
	CHECK_EQ_STR(gs_draw(false, false), "");        /* no bound: all written */
	/* The query counts stream 0 only: a shader that may emit to other
	 * streams is not bounded by it. */
	CHECK_EQ_STR(gs_draw(true, true), "");
}

/* Whether a program's GLSL declares multisample samplers, as its last link
 * made it (replay_explain.c classifies TF data it wrote once sample
 * positions differ): only for that link, false for SPIR-V. */
static void test_programs_reading_multisample_textures_are_known(void)
{
	static const char ms[] = "#version 150\nuniform usampler2DMS t;\nvoid main() {}\n";
	static const char plain[] = "#version 150\nuniform sampler2D t;\nvoid main() {}\n";
	struct trace_value src = { .tag = TRACE_TAG_ARRAY };
	struct trace_value str = { .tag = TRACE_TAG_STRING };
	const char *ckeys[] = { "event", "context" };
	struct trace_value citems[] = { { .tag = TRACE_TAG_STRING, .mem = { (const uint8_t *)"current", 7, 0 } },
					U(0x1000) };
	struct trace_value current = { .tag = TRACE_TAG_MAP, .agg = { citems, ckeys, 2 } };
	struct trace_defined *d = tracker();
	uint64_t link;

	trace_defined_context(d, 0, &current);   /* thread 0 makes a context current */
	src.agg.items = &str;
	src.agg.count = 1;
	str.mem.bytes = (const uint8_t *)ms;
	str.mem.len = strlen(ms);
	call(d, "glCreateShader", 1, 1, E(VERTEX_SHADER));
	call(d, "glShaderSource", 0, 4, U(1), U(1), src, NUL());
	call(d, "glCreateProgram", 2, 0);
	call(d, "glAttachShader", 0, 2, U(2), U(1));
	call(d, "glLinkProgram", 0, 1, U(2));
	link = call_no;
	CHECK(trace_defined_multisample(d, 0, 2, link));
	CHECK(!trace_defined_multisample(d, 0, 2, link - 1));   /* another link */
	CHECK(!trace_defined_multisample(d, 0, 3, link));       /* another program */
	/* relinked with a source without one */
	str.mem.bytes = (const uint8_t *)plain;
	str.mem.len = strlen(plain);
	call(d, "glShaderSource", 0, 4, U(1), U(1), src, NUL());
	call(d, "glLinkProgram", 0, 1, U(2));
	CHECK(!trace_defined_multisample(d, 0, 2, call_no));
	CHECK(!trace_defined_multisample(d, 0, 2, link));
	trace_defined_destroy(d);
}

static void test_quads_leave_runs_of_tessellated_triangles(void)
{
	struct trace_defined *d = tracker();
	const struct trace_defined_tess *runs;

	program(d, false);
	tf_buffer(d, 1024);
	call(d, "glBeginTransformFeedback", 0, 1, E(TRIANGLES));
	call(d, "glDrawArrays", 0, 3, E(TRIANGLES), U(0), U(3));
	call(d, "glDrawArrays", 0, 3, E(QUADS), U(0), U(8));
	call(d, "glEndTransformFeedback", 0, 0);
	tf_observation(d, 2);
	CHECK_EQ_STR(gaps(d, 5, 1024, NULL), "240-1024");     /* 5 triangles */
	CHECK_EQ_INT(trace_defined_tess_runs(d, 0, 5, &runs), 1);
	CHECK_EQ_INT(runs[0].offset, 48);
	CHECK_EQ_INT(runs[0].nprims, 4);
	CHECK_EQ_INT(runs[0].group, 2);
	CHECK_EQ_INT(runs[0].mode, QUADS);
	/* New data over them: no longer TF's triangles. */
	call(d, "glBufferSubData", 0, 4, E(TF_BUFFER), U(100), U(4), MEM(4));
	CHECK_EQ_INT(trace_defined_tess_runs(d, 0, 5, &runs), 0);
	trace_defined_destroy(d);
}

static void test_tessellation_check_accepts_only_the_same_vertices(void)
{
	/* A quad a b c d, one byte per vertex. */
	const uint8_t golden[] = { 'a', 'b', 'c', 'a', 'c', 'd' };
	const uint8_t other_diagonal[] = { 'a', 'b', 'd', 'b', 'c', 'd' };
	const uint8_t reordered[] = { 'c', 'a', 'd', 'b', 'a', 'c' };
	const uint8_t foreign[] = { 'a', 'b', 'c', 'a', 'c', 'e' };
	const uint8_t missing[] = { 'a', 'b', 'c', 'a', 'c', 'b' };
	const uint8_t degenerate[] = { 'a', 'a', 'b', 'c', 'd', 'b' };

	CHECK(trace_defined_tess_equivalent(golden, other_diagonal, 2, 1, 0));
	CHECK(trace_defined_tess_equivalent(golden, reordered, 2, 1, 0));
	CHECK(!trace_defined_tess_equivalent(golden, foreign, 2, 1, 0));
	CHECK(!trace_defined_tess_equivalent(golden, missing, 2, 1, 0));
	CHECK(!trace_defined_tess_equivalent(golden, degenerate, 2, 1, 0));
}

/* Vertices of two dwords of which TF writes the first (a gl_SkipComponents1
 * gap after it): the gap holds what each place held before, the same on
 * both sides in place, so vertices are compared in the first dword only. */
static void test_tessellation_check_compares_the_dwords_tf_writes(void)
{
	uint32_t golden[12], replay[12], order[6] = { 'a', 'b', 'c', 'a', 'c', 'd' },
		 other[6] = { 'a', 'b', 'd', 'b', 'c', 'd' };
	for (int i = 0; i < 6; i++) {
		golden[2 * i] = order[i];
		replay[2 * i] = other[i];
		golden[2 * i + 1] = replay[2 * i + 1] = 0xa0a0a0a0u + (uint32_t)i;   /* in place */
	}
	CHECK(trace_defined_tess_equivalent((const uint8_t *)golden, (const uint8_t *)replay, 2, 8, 1));
	CHECK(!trace_defined_tess_equivalent((const uint8_t *)golden, (const uint8_t *)replay, 2, 8, 0));
	replay[3] ^= 1;   /* the replay wrote into a gap */
	CHECK(!trace_defined_tess_equivalent((const uint8_t *)golden, (const uint8_t *)replay, 2, 8, 1));
}

/* ---- running out of memory ------------------------------------------------------------ */

static void test_out_of_memory_never_reports_undefined_bytes(void)
{
	bool completed = false;

	for (unsigned long n = 1; !completed && n < 200; n++) {
		struct trace_defined *d = NULL;
		xt_fault_arm(XT_FAULT_ALLOC, n);
		if (trace_defined_create(&d) != XT_OK) {
			xt_fault_arm(XT_FAULT_ALLOC, 0);
			continue;
		}
		call_no = 0;
		program(d, false);
		tf_buffer(d, 256);
		call(d, "glBeginTransformFeedback", 0, 1, E(POINTS));
		call(d, "glDrawArrays", 0, 3, E(POINTS), U(0), U(3));
		call(d, "glEndTransformFeedback", 0, 0);
		tf_observation(d, 2);
		const bool fired = xt_fault_fired(XT_FAULT_ALLOC);
		xt_fault_arm(XT_FAULT_ALLOC, 0);
		const char *g = gaps(d, 5, 256, NULL);
		/* Either the whole answer, or nothing undefined. */
		CHECK(!strcmp(g, "48-256") || (fired && !strcmp(g, "")));
		completed = !fired;
		trace_defined_destroy(d);
	}
	CHECK(completed);
}

/* A GL_PRIMITIVES_GENERATED query (as trace_defined_prescan would read it)
 * over a draw of quads: its count is not determined (GL 4.6 compat §13.5,
 * §13.3), over triangles it is; a written query over quads is. */
static void test_a_primitives_generated_query_over_quads_is_named(void)
{
	struct trace_defined *d = tracker();
	uint64_t draw = 0;
	uint32_t mode = 0;

	program(d, false);
	CHECK(d_grow(d, (void **)&d->q, &d->capq, 3, sizeof *d->q));
	d->q[d->nq++] = (struct dquery){ 0, 9, 0x8C87, call_no + 1, call_no + 3, 0, false };
	d->q[d->nq++] = (struct dquery){ 0, 10, 0x8C87, call_no + 4, call_no + 6, 0, false };
	d->q[d->nq++] = (struct dquery){ 0, 11, 0x8C88, call_no + 1, call_no + 3, 0, false };
	call(d, "glBeginQuery", 0, 2, E(0x8C87), U(9));
	call(d, "glDrawArrays", 0, 3, E(QUADS), U(0), U(4));
	call(d, "glEndQuery", 0, 1, E(0x8C87));
	call(d, "glBeginQuery", 0, 2, E(0x8C87), U(10));
	call(d, "glDrawArrays", 0, 3, E(TRIANGLES), U(0), U(3));
	call(d, "glEndQuery", 0, 1, E(0x8C87));
	CHECK(trace_defined_query_quads(d, 0, 9, call_no + 1, &draw, &mode));
	CHECK_EQ_INT((int)draw, 7);
	CHECK_EQ_INT((int)mode, QUADS);
	CHECK(!trace_defined_query_quads(d, 0, 10, call_no + 1, &draw, &mode));
	CHECK(!trace_defined_query_quads(d, 0, 11, call_no + 1, &draw, &mode));
	/* Read before the query ended: not that span. */
	CHECK(!trace_defined_query_quads(d, 0, 9, 2, &draw, &mode));
	trace_defined_destroy(d);
}

int main(void)
{
	XT_RUN(test_ranges_merge_split_and_give_gaps);
	XT_RUN(test_null_data_is_undefined_until_written);
	XT_RUN(test_a_write_the_tracker_cannot_place_defines_everything);
	XT_RUN(test_mapped_writes_define_what_the_memwrites_cover);
	XT_RUN(test_tf_defines_exactly_the_vertices_it_wrote);
	XT_RUN(test_tf_stops_at_the_first_vertex_that_does_not_fit);
	XT_RUN(test_tf_counts_it_cannot_know_write_the_whole_range);
	XT_RUN(test_a_primitives_query_bounds_what_a_geometry_shader_wrote);
	XT_RUN(test_programs_reading_multisample_textures_are_known);
	XT_RUN(test_quads_leave_runs_of_tessellated_triangles);
	XT_RUN(test_tessellation_check_accepts_only_the_same_vertices);
	XT_RUN(test_tessellation_check_compares_the_dwords_tf_writes);
	XT_RUN(test_out_of_memory_never_reports_undefined_bytes);
	XT_RUN(test_a_primitives_generated_query_over_quads_is_named);
	XT_TEST_MAIN_END();
}
