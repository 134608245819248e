/*
 * test_trace_apitrace.c - the apitrace reader (trace/trace_apitrace.h) and
 * its import (trace_apitrace_import.h).
 *
 * Synthetic streams are built byte by byte from the trace grammar
 * docs/apitrace.md describes and wrapped in apitrace's snappy
 * framing; the real trace is written at build time by apitrace 11.1
 * (make_apitrace_trace.sh: `apitrace trace --api egl` of piglit's
 * ext_transform_feedback-structs_gles3 basic-struct run), with its call
 * count as apitrace numbers them.  Hostile-input
 * tests cut and flip that trace's decompressed stream and its file and
 * require a clean error, never a crash (run under ASan).
 */
#include <snappy-c.h>
#if TEST_HAVE_ZLIB
#include <zlib.h>
#endif

#include "trace_apitrace.h"
#include "trace_apitrace_import.h"
#include "trace_test_util.h"
#include "xt_fault.h"

#include "apitrace_real_trace.h"

/* Tests of the real trace FAIL, saying why, when the build could not write
 * it: scripts/setup.sh installs apitrace and piglit, so a missing trace is a
 * broken set-up, never a pass. */
#ifdef REAL_TRACE_MISSING
#define NEED_REAL_TRACE()                                                      \
	do {                                                                   \
		fprintf(stderr, "no real apitrace trace: %s\n", REAL_TRACE_MISSING); \
		CHECK(!"the real apitrace trace was written at build time");   \
		return;                                                        \
	} while (0)
#else
#define NEED_REAL_TRACE() ((void)0)
#endif

/* ---- building streams ------------------------------------------------------ */

struct sb {
	uint8_t b[1 << 16];
	size_t n;
};

static void sb_byte(struct sb *s, uint8_t v) { s->b[s->n++] = v; }

static void sb_uint(struct sb *s, uint64_t v)
{
	while (v >= 0x80) {
		sb_byte(s, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	sb_byte(s, (uint8_t)v);
}

static void sb_str(struct sb *s, const char *str)
{
	sb_uint(s, strlen(str));
	memcpy(s->b + s->n, str, strlen(str));
	s->n += strlen(str);
}

static void sb_header(struct sb *s)
{
	sb_uint(s, 6);
	sb_uint(s, 6);
	sb_str(s, "process.name");
	sb_str(s, "/bin/test");
	sb_byte(s, 0);
}

/* Writes `stream` as apitrace's snappy framing, in chunks of `chunk` bytes. */
static void write_snappy(const char *path, const uint8_t *stream, size_t n, size_t chunk)
{
	FILE *f = fopen(path, "wb");
	size_t cap = snappy_max_compressed_length(chunk);
	char *c = malloc(cap);
	fwrite("at", 1, 2, f);
	for (size_t off = 0; off < n; off += chunk) {
		size_t len = n - off < chunk ? n - off : chunk, clen = cap;
		snappy_compress((const char *)stream + off, len, c, &clen);
		uint8_t h[4] = { (uint8_t)clen, (uint8_t)(clen >> 8), (uint8_t)(clen >> 16),
				 (uint8_t)(clen >> 24) };
		fwrite(h, 1, 4, f);
		fwrite(c, 1, clen, f);
	}
	free(c);
	fclose(f);
}

static uint8_t *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*n = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc(*n ? *n : 1);
	if (fread(b, 1, *n, f) != *n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

/* The decompressed stream of a snappy-framed file. */
static uint8_t *unsnappy(const uint8_t *file, size_t n, size_t *out_n)
{
	uint8_t *out = NULL;
	size_t len = 0;
	for (size_t off = 2; off + 4 <= n;) {
		uint32_t clen = file[off] | file[off + 1] << 8 | file[off + 2] << 16 |
				(uint32_t)file[off + 3] << 24;
		size_t ulen;
		off += 4;
		snappy_uncompressed_length((const char *)file + off, clen, &ulen);
		out = realloc(out, len + ulen);
		snappy_uncompress((const char *)file + off, clen, (char *)out + len, &ulen);
		len += ulen;
		off += clen;
	}
	*out_n = len;
	return out;
}

/* Reads every call of `path`; returns the final code, counts in *calls. */
static enum xt_rc read_all(const char *path, uint64_t *calls)
{
	struct trace_apitrace *r;
	struct trace_at_call c;
	struct xt_err err;
	enum xt_rc rc = trace_apitrace_open(&r, path, &err);

	*calls = 0;
	if (rc)
		return rc;
	while ((rc = trace_apitrace_next(r, &c)) == XT_OK)
		++*calls;
	if (rc != XT_ERR_EOF && !trace_apitrace_err(r)->msg[0])
		rc = XT_ERR_INTERNAL;   /* an error must say why */
	trace_apitrace_close(r);
	return rc;
}

/* ---- grammar ----------------------------------------------------------------- */

static void test_reader_decodes_every_value_kind(void)
{
	static struct sb s;
	struct trace_apitrace *r;
	struct trace_at_call c;
	struct xt_err err;

	s.n = 0;
	sb_header(&s);
	/* ENTER thread 0, sig 4 "f" with 12 args. */
	sb_byte(&s, 0); sb_uint(&s, 0); sb_uint(&s, 4); sb_str(&s, "f"); sb_uint(&s, 12);
	for (int i = 0; i < 12; i++)
		sb_str(&s, "a");
	sb_byte(&s, 1); sb_uint(&s, 0); sb_byte(&s, 0x03); sb_uint(&s, 5);         /* -5 */
	sb_byte(&s, 1); sb_uint(&s, 1); sb_byte(&s, 0x04); sb_uint(&s, 300);       /* 300 */
	sb_byte(&s, 1); sb_uint(&s, 2); sb_byte(&s, 0x05);
	float f = 1.5f; memcpy(s.b + s.n, &f, 4); s.n += 4;
	sb_byte(&s, 1); sb_uint(&s, 3); sb_byte(&s, 0x07); sb_str(&s, "hi");
	sb_byte(&s, 1); sb_uint(&s, 4); sb_byte(&s, 0x08); sb_uint(&s, 3);
	sb_byte(&s, 1); sb_byte(&s, 2); sb_byte(&s, 3);
	/* enum sig 1: 2 values, tagged sints; then the value, a tagged sint. */
	sb_byte(&s, 1); sb_uint(&s, 5); sb_byte(&s, 0x09); sb_uint(&s, 1); sb_uint(&s, 2);
	sb_str(&s, "GL_A"); sb_byte(&s, 0x04); sb_uint(&s, 0x8892);
	sb_str(&s, "GL_B"); sb_byte(&s, 0x04); sb_uint(&s, 0x8893);
	sb_byte(&s, 0x04); sb_uint(&s, 0x8893);
	/* bitmask sig 2: raw uint values; the value is a raw uint (no tag). */
	sb_byte(&s, 1); sb_uint(&s, 6); sb_byte(&s, 0x0a); sb_uint(&s, 2); sb_uint(&s, 1);
	sb_str(&s, "BIT"); sb_uint(&s, 4); sb_uint(&s, 0x4004);
	sb_byte(&s, 1); sb_uint(&s, 7); sb_byte(&s, 0x0b); sb_uint(&s, 2);
	sb_byte(&s, 0x04); sb_uint(&s, 1); sb_byte(&s, 0x02);
	sb_byte(&s, 1); sb_uint(&s, 8); sb_byte(&s, 0x0c); sb_uint(&s, 3); sb_str(&s, "S");
	sb_uint(&s, 1); sb_str(&s, "m"); sb_byte(&s, 0x00);
	sb_byte(&s, 1); sb_uint(&s, 9); sb_byte(&s, 0x0d); sb_uint(&s, 0x1000);
	sb_byte(&s, 1); sb_uint(&s, 10); sb_byte(&s, 0x0e); sb_byte(&s, 0x07); sb_str(&s, "x");
	sb_byte(&s, 0x04); sb_uint(&s, 9);
	sb_byte(&s, 1); sb_uint(&s, 11); sb_byte(&s, 0x0f); sb_uint(&s, 1); sb_uint(&s, 0xe9);
	sb_byte(&s, 0x05); sb_uint(&s, 1);   /* fake */
	sb_byte(&s, 0);
	/* LEAVE 0 with a return value. */
	sb_byte(&s, 1); sb_uint(&s, 0); sb_byte(&s, 2); sb_byte(&s, 0x01); sb_byte(&s, 0);
	write_snappy(tu_path("values.trace"), s.b, s.n, 7);   /* events straddle chunks */

	CHECK_EQ_INT(trace_apitrace_open(&r, tu_path("values.trace"), &err), XT_OK);
	if (!r)
		return;
	CHECK_EQ_INT(trace_apitrace_next(r, &c), XT_OK);
	CHECK_EQ_STR(c.sig->name, "f");
	CHECK_EQ_INT(c.nargs, 12);
	CHECK(c.flags & TRACE_AT_FAKE);
	CHECK(c.args[0].kind == TRACE_AT_SINT && c.args[0].i == -5);
	CHECK(c.args[1].kind == TRACE_AT_UINT && c.args[1].u == 300);
	CHECK(c.args[2].kind == TRACE_AT_FLOAT && c.args[2].f == 1.5f);
	CHECK(c.args[3].kind == TRACE_AT_STRING && c.args[3].s.len == 2 &&
	      memcmp(c.args[3].s.bytes, "hi", 2) == 0);
	CHECK(c.args[4].kind == TRACE_AT_BLOB && c.args[4].s.len == 3 &&
	      memcmp(c.args[4].s.bytes, "\x01\x02\x03", 3) == 0);
	CHECK(c.args[5].kind == TRACE_AT_ENUM && c.args[5].en.value == 0x8893 &&
	      c.args[5].en.sig->count == 2);
	CHECK(c.args[6].kind == TRACE_AT_BITMASK && c.args[6].bm.value == 0x4004);
	CHECK(c.args[7].kind == TRACE_AT_ARRAY && c.args[7].agg.count == 2 &&
	      c.args[7].agg.items[1].kind == TRACE_AT_TRUE);
	CHECK(c.args[8].kind == TRACE_AT_STRUCT && c.args[8].agg.count == 1 &&
	      c.args[8].agg.items[0].kind == TRACE_AT_NULL);
	CHECK(c.args[9].kind == TRACE_AT_POINTER && c.args[9].u == 0x1000);
	CHECK(c.args[10].kind == TRACE_AT_REPR && c.args[10].agg.items[1].u == 9);
	CHECK(c.args[11].kind == TRACE_AT_STRING && c.args[11].s.len == 2 &&
	      memcmp(c.args[11].s.bytes, "\xc3\xa9", 2) == 0);   /* é (latin-1 0xe9) in UTF-8 */
	CHECK(c.ret.kind == TRACE_AT_FALSE);
	CHECK_EQ_INT(trace_apitrace_next(r, &c), XT_ERR_EOF);
	size_t np;
	const struct trace_at_property *p = trace_apitrace_properties(r, &np);
	CHECK(np == 1 && !strcmp(p[0].value, "/bin/test"));
	trace_apitrace_close(r);
}

static void enter(struct sb *s, unsigned thread, unsigned sig, const char *name)
{
	sb_byte(s, 0); sb_uint(s, thread); sb_uint(s, sig);
	if (name) {
		sb_str(s, name); sb_uint(s, 0);
	}
	sb_byte(s, 0);
}

static void leave(struct sb *s, unsigned no)
{
	sb_byte(s, 1); sb_uint(s, no); sb_byte(s, 0);
}

static void test_reader_orders_interleaved_threads_and_flags_incomplete_calls(void)
{
	static struct sb s;
	struct trace_apitrace *r;
	struct trace_at_call c;
	struct xt_err err;

	s.n = 0;
	sb_header(&s);
	enter(&s, 0, 4, "a");   /* 0 */
	enter(&s, 1, 5, "b");   /* 1 */
	leave(&s, 1);
	enter(&s, 1, 5, NULL);  /* 2: signature reused */
	leave(&s, 0);
	leave(&s, 2);
	enter(&s, 0, 4, NULL);  /* 3: never left */
	write_snappy(tu_path("threads.trace"), s.b, s.n, 1 << 20);
	CHECK_EQ_INT(trace_apitrace_open(&r, tu_path("threads.trace"), &err), XT_OK);
	if (!r)
		return;
	const char *want[] = { "a", "b", "b", "a" };
	const unsigned thread[] = { 0, 1, 1, 0 };
	for (unsigned i = 0; i < 4; i++) {
		CHECK_EQ_INT(trace_apitrace_next(r, &c), XT_OK);
		CHECK_EQ_INT(c.no, i);
		CHECK_EQ_STR(c.sig->name, want[i]);
		CHECK_EQ_INT(c.thread, thread[i]);
		CHECK_EQ_INT(!!(c.flags & TRACE_AT_INCOMPLETE), i == 3);
	}
	CHECK_EQ_INT(trace_apitrace_next(r, &c), XT_ERR_EOF);
	trace_apitrace_close(r);
}

static void test_reader_rejects_undefined_signatures_and_bad_events(void)
{
	static struct sb s;
	uint64_t calls;

	s.n = 0;
	sb_header(&s);
	enter(&s, 0, 9, NULL);   /* sig 9 never defined: its "name" is read as... */
	write_snappy(tu_path("undef.trace"), s.b, s.n, 1 << 20);
	CHECK_EQ_INT(read_all(tu_path("undef.trace"), &calls), XT_ERR_CORRUPT);

	s.n = 0;
	sb_header(&s);
	leave(&s, 0);            /* a LEAVE of a call that never started */
	write_snappy(tu_path("leave.trace"), s.b, s.n, 1 << 20);
	CHECK_EQ_INT(read_all(tu_path("leave.trace"), &calls), XT_ERR_CORRUPT);

	s.n = 0;
	sb_uint(&s, 7);          /* a newer format */
	write_snappy(tu_path("v7.trace"), s.b, s.n, 1 << 20);
	CHECK_EQ_INT(read_all(tu_path("v7.trace"), &calls), XT_ERR_VERSION);

	s.n = 0;
	sb_header(&s);
	sb_byte(&s, 0); sb_uint(&s, 0); sb_uint(&s, 4); sb_str(&s, "f"); sb_uint(&s, 1);
	sb_str(&s, "x"); sb_byte(&s, 1); sb_uint(&s, 0);
	for (int i = 0; i < 40; i++) {   /* arrays nested 40 deep */
		sb_byte(&s, 0x0b); sb_uint(&s, 1);
	}
	sb_byte(&s, 0);
	write_snappy(tu_path("deep.trace"), s.b, s.n, 1 << 20);
	CHECK_EQ_INT(read_all(tu_path("deep.trace"), &calls), XT_ERR_CORRUPT);

	s.n = 0;
	sb_header(&s);   /* a blob claiming 2^40 bytes in a tiny file */
	sb_byte(&s, 0); sb_uint(&s, 0); sb_uint(&s, 4); sb_str(&s, "f"); sb_uint(&s, 1);
	sb_str(&s, "x"); sb_byte(&s, 1); sb_uint(&s, 0); sb_byte(&s, 0x08);
	sb_uint(&s, (uint64_t)1 << 29); sb_byte(&s, 1);
	write_snappy(tu_path("blob.trace"), s.b, s.n, 1 << 20);
	CHECK_EQ_INT(read_all(tu_path("blob.trace"), &calls), XT_ERR_CORRUPT);
}

/* ---- the real trace ---------------------------------------------------------------- */

static void test_reader_reads_a_real_apitrace_trace(void)
{
	NEED_REAL_TRACE();
	uint64_t calls;
	CHECK_EQ_INT(read_all(REAL_TRACE, &calls), XT_ERR_EOF);
	CHECK_EQ_INT(calls, REAL_TRACE_CALLS);
}

static void test_reader_reads_gzip_as_well(void)
{
#if !TEST_HAVE_ZLIB
	/* zlib is optional in trace/meson.build: without it the reader has no
	 * gzip support to test. */
	XT_SKIP("built without zlib: the reader reads no gzip traces");
#else
	NEED_REAL_TRACE();
	size_t n, sn;
	uint8_t *file = read_file(REAL_TRACE, &n);
	uint64_t calls;
	CHECK(file != NULL);
	if (!file)
		return;
	uint8_t *stream = unsnappy(file, n, &sn);
	gzFile g = gzopen(tu_path("real.gz.trace"), "wb");
	gzwrite(g, stream, (unsigned)sn);
	gzclose(g);
	CHECK_EQ_INT(read_all(tu_path("real.gz.trace"), &calls), XT_ERR_EOF);
	CHECK_EQ_INT(calls, REAL_TRACE_CALLS);
	free(stream);
	free(file);
#endif
}

static void test_reader_survives_a_cut_at_every_offset(void)
{
	NEED_REAL_TRACE();
	size_t n, sn;
	uint8_t *file = read_file(REAL_TRACE, &n);
	uint64_t calls, errors = 0;
	CHECK(file != NULL);
	if (!file)
		return;
	uint8_t *stream = unsnappy(file, n, &sn);
	CHECK(sn > 100000);
	/* The grammar: every offset of the header and the first calls, the
	 * GLenum signature sampled, every offset of the last calls. */
	for (size_t cut = 0; cut < sn; cut += (cut < 4096 || cut > sn - 8192) ? 1 : 97) {
		write_snappy(tu_path("cut.trace"), stream, cut, 1 << 20);
		enum xt_rc rc = read_all(tu_path("cut.trace"), &calls);
		CHECK(rc == XT_ERR_EOF || rc == XT_ERR_CORRUPT);
		errors += rc == XT_ERR_CORRUPT;
	}
	CHECK(errors > 1000);
	/* The container: the file cut at every offset (a whole-chunk trace). */
	for (size_t cut = 0; cut < n; cut += (cut < 64 || cut > n - 64) ? 1 : 211) {
		FILE *f = fopen(tu_path("cutf.trace"), "wb");
		fwrite(file, 1, cut, f);
		fclose(f);
		enum xt_rc rc = read_all(tu_path("cutf.trace"), &calls);
		CHECK_EQ_INT(rc, XT_ERR_CORRUPT);
	}
	free(stream);
	free(file);
}

static void test_reader_survives_flipped_bits(void)
{
	NEED_REAL_TRACE();
	size_t n, sn;
	uint8_t *file = read_file(REAL_TRACE, &n);
	uint64_t seed = 0x5eed, calls;
	CHECK(file != NULL);
	if (!file)
		return;
	uint8_t *stream = unsnappy(file, n, &sn);
	for (int i = 0; i < 1500; i++) {
		size_t at = tu_rand(&seed) % sn;
		uint8_t bit = (uint8_t)(1u << (tu_rand(&seed) % 8));
		stream[at] ^= bit;
		write_snappy(tu_path("flip.trace"), stream, sn, 1 << 20);
		enum xt_rc rc = read_all(tu_path("flip.trace"), &calls);
		CHECK(rc == XT_ERR_EOF || rc == XT_ERR_CORRUPT || rc == XT_ERR_VERSION);
		stream[at] ^= bit;
	}
	for (int i = 0; i < 300; i++) {
		size_t at = tu_rand(&seed) % n;
		uint8_t bit = (uint8_t)(1u << (tu_rand(&seed) % 8));
		file[at] ^= bit;
		FILE *f = fopen(tu_path("flipf.trace"), "wb");
		fwrite(file, 1, n, f);
		fclose(f);
		enum xt_rc rc = read_all(tu_path("flipf.trace"), &calls);
		CHECK(rc == XT_ERR_EOF || rc == XT_ERR_CORRUPT || rc == XT_ERR_VERSION);
		file[at] ^= bit;
	}
	free(stream);
	free(file);
}

static void test_reader_fails_cleanly_when_allocations_fail(void)
{
	NEED_REAL_TRACE();
	uint64_t calls;
	enum xt_rc rc = XT_ERR_NOMEM;
	unsigned long n;
	for (n = 1; n < 100000 && rc != XT_ERR_EOF; n++) {
		xt_fault_arm(XT_FAULT_ALLOC, n);
		rc = read_all(REAL_TRACE, &calls);
		xt_fault_arm(XT_FAULT_ALLOC, 0);
		CHECK(rc == XT_ERR_EOF || rc == XT_ERR_NOMEM);
	}
	CHECK_EQ_INT(rc, XT_ERR_EOF);
	CHECK_EQ_INT(calls, REAL_TRACE_CALLS);
}

/* ---- import -------------------------------------------------------------------------- */

/* Calls of the real trace that are apitrace's own: glGetStringi of the 3
 * extensions its tracer added to the driver's 144. */
#define REAL_TRACE_TRACER_CALLS 3

static void test_import_writes_calls_contexts_and_drops_only_tracer_extensions(void)
{
	NEED_REAL_TRACE();
	struct trace_at_import_result res = { 0 };
	struct xt_err err;
	struct trace_reader *r;
	struct trace_record rec;
	uint64_t calls = 0, contexts = 0;

	CHECK_EQ_INT(trace_apitrace_import(REAL_TRACE, tu_path("real.xfbt"), &res, &err), XT_OK);
	CHECK_EQ_INT(res.calls, REAL_TRACE_CALLS - REAL_TRACE_TRACER_CALLS);
	CHECK_EQ_INT(res.incomplete, 0);
	CHECK_EQ_INT(res.nuntranslated, 1);
	if (res.nuntranslated == 1) {
		CHECK_EQ_STR(res.untranslated[0].function, "glGetStringi");
		CHECK_EQ_INT(res.untranslated[0].count, REAL_TRACE_TRACER_CALLS);
	}
	trace_at_import_result_fini(&res);
	CHECK_EQ_INT(trace_reader_open(&r, tu_path("real.xfbt"), &err), XT_OK);
	if (!r)
		return;
	while (trace_reader_next(r, &rec) == XT_OK) {
		calls += rec.type == TRACE_REC_CALL;
		contexts += rec.type == TRACE_REC_CONTEXT;
	}
	CHECK_EQ_INT(trace_reader_err(r)->rc, XT_OK);
	trace_reader_close(r);
	CHECK_EQ_INT(calls, REAL_TRACE_CALLS - REAL_TRACE_TRACER_CALLS);
	CHECK(contexts >= 3);   /* create, current, release, destroy */
}

static void test_import_turns_memcpy_into_a_memwrite_of_the_unmap(void)
{
	static struct sb s;
	struct trace_at_import_result res = { 0 };
	struct xt_err err;
	struct trace_reader *r;
	struct trace_record rec;
	struct xt_arena a;
	int seen = 0;

	s.n = 0;
	sb_header(&s);
	/* 0: memcpy(dest = 0x5000, src = blob "abcd", n = 4), fake */
	sb_byte(&s, 0); sb_uint(&s, 0); sb_uint(&s, 0); sb_str(&s, "memcpy"); sb_uint(&s, 3);
	sb_str(&s, "dest"); sb_str(&s, "src"); sb_str(&s, "n");
	sb_byte(&s, 1); sb_uint(&s, 0); sb_byte(&s, 0x0d); sb_uint(&s, 0x5000);
	sb_byte(&s, 1); sb_uint(&s, 1); sb_byte(&s, 0x08); sb_str(&s, "abcd");
	sb_byte(&s, 1); sb_uint(&s, 2); sb_byte(&s, 0x04); sb_uint(&s, 4);
	sb_byte(&s, 0x05); sb_uint(&s, 1); sb_byte(&s, 0);
	leave(&s, 0);
	/* 1: glUnmapBuffer(target = 0x8892) = true */
	sb_byte(&s, 0); sb_uint(&s, 0); sb_uint(&s, 4); sb_str(&s, "glUnmapBuffer"); sb_uint(&s, 1);
	sb_str(&s, "target"); sb_byte(&s, 1); sb_uint(&s, 0); sb_byte(&s, 0x04);
	sb_uint(&s, 0x8892); sb_byte(&s, 0);
	sb_byte(&s, 1); sb_uint(&s, 1); sb_byte(&s, 2); sb_byte(&s, 0x02); sb_byte(&s, 0);
	write_snappy(tu_path("memcpy.trace"), s.b, s.n, 1 << 20);

	CHECK_EQ_INT(trace_apitrace_import(tu_path("memcpy.trace"), tu_path("memcpy.xfbt"),
					   &res, &err), XT_OK);
	CHECK_EQ_INT(res.calls, 1);
	CHECK_EQ_INT(res.memwrites, 1);
	trace_at_import_result_fini(&res);
	CHECK_EQ_INT(trace_reader_open(&r, tu_path("memcpy.xfbt"), &err), XT_OK);
	if (!r)
		return;
	xt_arena_init(&a, 4096);
	while (trace_reader_next(r, &rec) == XT_OK) {
		struct trace_value v;
		if (rec.type == TRACE_REC_MEMWRITE) {
			CHECK_EQ_INT(rec.seq, 1);
			CHECK_EQ_INT(seen, 0);   /* before the CALL */
			CHECK_EQ_INT(trace_reader_decode_value(r, &rec, &a, &v), XT_OK);
			const struct trace_value *addr = trace_value_get(&v, "addr");
			const struct trace_value *why = trace_value_get(&v, "why");
			CHECK(addr && addr->u == 0x5000);
			CHECK(why && why->mem.len == 9 && !memcmp(why->mem.bytes, "map-unmap", 9));
			seen = 1;
		} else if (rec.type == TRACE_REC_CALL) {
			CHECK_EQ_INT(seen, 1);
			seen = 2;
		}
	}
	CHECK_EQ_INT(seen, 2);
	xt_arena_fini(&a);
	trace_reader_close(r);
}

int main(void)
{
	XT_RUN(test_reader_decodes_every_value_kind);
	XT_RUN(test_reader_orders_interleaved_threads_and_flags_incomplete_calls);
	XT_RUN(test_reader_rejects_undefined_signatures_and_bad_events);
	XT_RUN(test_reader_reads_a_real_apitrace_trace);
	XT_RUN(test_reader_reads_gzip_as_well);
	XT_RUN(test_reader_survives_a_cut_at_every_offset);
	XT_RUN(test_reader_survives_flipped_bits);
	XT_RUN(test_reader_fails_cleanly_when_allocations_fail);
	XT_RUN(test_import_writes_calls_contexts_and_drops_only_tracer_extensions);
	XT_RUN(test_import_turns_memcpy_into_a_memwrite_of_the_unmap);
	tu_cleanup();
	XT_TEST_MAIN_END();
}
