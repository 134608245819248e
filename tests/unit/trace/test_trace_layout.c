/*
 * test_trace_layout.c - LAYOUT records (trace/trace_layout.h): a record as
 * the capture writes it reads back whole; every breach of the format is
 * named; and every truncation and single-bit flip of a record's value
 * either fails to decode, fails the validation or reads as a layout whose
 * names are NUL-terminated and whose members start inside their block
 * (never a crash: the sanitizer build runs the same sweep).
 */
#include <stdlib.h>
#include <string.h>

#include "trace_layout.h"
#include "trace_test_util.h"
#include "xt_arena.h"

/* What can be damaged in the record built below. */
enum damage { NONE, NO_SIZE, MEMBER_PAST_END, EMPTY_NAME, STRIDE_AS_STRING, ROW_MAJOR_AS_UINT };

static size_t build(uint8_t *buf, enum damage d)
{
	uint8_t *p = buf;

	p = trace_enc_map(p, 2);
	p = trace_enc_key(p, "program");
	p = trace_enc_uint(p, 3);
	p = trace_enc_key(p, "blocks");
	p = trace_enc_array(p, 1);
	p = trace_enc_map(p, d == NO_SIZE ? 2 : 3);
	p = trace_enc_key(p, "name");
	p = trace_enc_string(p, "Shared", d == EMPTY_NAME ? 0 : 6);
	if (d != NO_SIZE) {
		p = trace_enc_key(p, "data_size");
		p = trace_enc_uint(p, 48);
	}
	p = trace_enc_key(p, "members");
	p = trace_enc_array(p, 2);
	for (int k = 0; k < 2; k++) {
		p = trace_enc_map(p, 7);
		p = trace_enc_key(p, "name");
		p = k ? trace_enc_string(p, "Shared.m", 8) : trace_enc_string(p, "Shared.pass[0]", 14);
		p = trace_enc_key(p, "type");
		p = trace_enc_uint(p, k ? 0x8b5au : 0x1404u);
		p = trace_enc_key(p, "size");
		p = trace_enc_uint(p, k ? 1 : 8);
		p = trace_enc_key(p, "offset");
		p = trace_enc_uint(p, k ? (d == MEMBER_PAST_END ? 48 : 32) : 0);
		p = trace_enc_key(p, "array_stride");
		p = d == STRIDE_AS_STRING && !k ? trace_enc_string(p, "4", 1) : trace_enc_uint(p, k ? 0 : 4);
		p = trace_enc_key(p, "matrix_stride");
		p = trace_enc_uint(p, k ? 8 : 0);
		p = trace_enc_key(p, "row_major");
		p = d == ROW_MAJOR_AS_UINT && k ? trace_enc_uint(p, 1) : trace_enc_bool(p, 0);
	}
	return (size_t)(p - buf);
}

/* Decodes n bytes and validates them: the value's decoding failed
 * (XT_ERR_CORRUPT from the decoder), or trace_layout_of's answer. */
static enum xt_rc read_layout(const uint8_t *buf, size_t n, struct xt_arena *arena, struct trace_layout *l,
			      char *why, size_t why_n)
{
	const uint8_t *q = buf;
	struct trace_value v;
	struct xt_err e;
	enum xt_rc rc = trace_value_decode(&q, buf + n, arena, &v, &e);

	if (rc != XT_OK)
		return rc;
	return trace_layout_of(&v, arena, l, why, why_n);
}

static void test_a_record_reads_back_whole(void)
{
	uint8_t buf[1024];
	size_t n = build(buf, NONE);
	struct xt_arena arena;
	struct trace_layout l;
	char why[200] = "";

	xt_arena_init(&arena, 4096);
	CHECK_EQ_INT(read_layout(buf, n, &arena, &l, why, sizeof why), XT_OK);
	CHECK_EQ_INT(l.program, 3);
	CHECK_EQ_INT(l.n_blocks, 1);
	CHECK(!strcmp(l.blocks[0].name, "Shared"));
	CHECK_EQ_INT(l.blocks[0].data_size, 48);
	CHECK_EQ_INT(l.blocks[0].n_members, 2);
	CHECK(!strcmp(l.blocks[0].members[0].name, "Shared.pass[0]"));
	CHECK_EQ_INT(l.blocks[0].members[0].array_stride, 4);
	CHECK_EQ_INT(l.blocks[0].members[0].size, 8);
	CHECK_EQ_INT(l.blocks[0].members[1].offset, 32);
	CHECK_EQ_INT(l.blocks[0].members[1].matrix_stride, 8);
	CHECK(!l.blocks[0].members[1].row_major);
	xt_arena_fini(&arena);
}

static void test_each_breach_is_named(void)
{
	static const struct {
		enum damage d;
		const char *named;
	} cases[] = {
		{ NO_SIZE, "`data_size` is missing" },
		{ MEMBER_PAST_END, "starts at 48, past the 48 bytes of block \"Shared\"" },
		{ EMPTY_NAME, "`name` is empty" },
		{ STRIDE_AS_STRING, "`array_stride` is of the wrong type" },
		{ ROW_MAJOR_AS_UINT, "`row_major` is of the wrong type" },
	};
	uint8_t buf[1024];
	struct xt_arena arena;
	struct trace_layout l;

	xt_arena_init(&arena, 4096);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char why[200] = "";
		size_t n = build(buf, cases[i].d);
		CHECK_EQ_INT(read_layout(buf, n, &arena, &l, why, sizeof why), XT_ERR_CORRUPT);
		CHECK(strstr(why, cases[i].named) != NULL);
		if (!strstr(why, cases[i].named))
			fprintf(stderr, "  case %zu: %s\n", i, why);
	}
	xt_arena_fini(&arena);
}

/* Whatever reads as valid keeps the promises trace_layout.h makes. */
static bool sane(const struct trace_layout *l)
{
	for (uint32_t i = 0; i < l->n_blocks; i++) {
		const struct trace_layout_block *b = &l->blocks[i];
		if (!b->name[0] || b->data_size > TRACE_LAYOUT_MAX_BYTES)
			return false;
		for (uint32_t k = 0; k < b->n_members; k++)
			if (!b->members[k].name[0] || b->members[k].offset >= b->data_size ||
			    b->members[k].array_stride > TRACE_LAYOUT_MAX_BYTES)
				return false;
	}
	return true;
}

static void test_truncations_and_bit_flips_read_cleanly(void)
{
	uint8_t buf[1024], bad[1024];
	size_t n = build(buf, NONE), corrupt = 0, flips = 0;
	struct xt_arena arena;
	struct trace_layout l;
	char why[200];

	xt_arena_init(&arena, 4096);
	for (size_t cut = 0; cut < n; cut++) {
		xt_arena_reset(&arena);
		CHECK(read_layout(buf, cut, &arena, &l, why, sizeof why) == XT_ERR_CORRUPT);
	}
	for (size_t at = 0; at < n; at++)
		for (int bit = 0; bit < 8; bit++) {
			memcpy(bad, buf, n);
			bad[at] ^= (uint8_t)(1u << bit);
			xt_arena_reset(&arena);
			enum xt_rc rc = read_layout(bad, n, &arena, &l, why, sizeof why);
			CHECK(rc == XT_OK || rc == XT_ERR_CORRUPT);
			if (rc == XT_OK)
				CHECK(sane(&l));
			corrupt += rc == XT_ERR_CORRUPT;
			flips++;
		}
	CHECK(corrupt > flips / 4);
	printf("  %zu of %zu flips reported as corrupt\n", corrupt, flips);
	xt_arena_fini(&arena);
}

/* A spool with one call and its LAYOUT record (damaged as `d`), compacted
 * to `packed` when not NULL. */
static int write_trace(const char *path, enum damage d, const char *packed)
{
	struct trace_spool *s;
	struct xt_err err;
	uint8_t buf[1024];
	size_t n = build(buf, d);

	if (trace_spool_open(&s, path, 1, &err) != XT_OK)
		return -1;
	struct trace_spool_stream *st = trace_spool_stream_open(s, 0);
	int bad = !st || tu_put_call(st, 0, 0, 1, 0, "link") || tu_put_ret(st, 0, 0);
	uint8_t *p = st ? trace_spool_reserve(st, n) : NULL;
	bad |= !p;
	if (p) {
		memcpy(p, buf, n);
		trace_spool_commit(st, TRACE_REC_LAYOUT, TRACE_RECF_ATTACHED, 0, n);
	}
	trace_spool_stream_close(st);
	trace_spool_close(s);
	if (!bad && packed && trace_compact(path, packed, &err) != XT_OK)
		bad = 1;
	return bad ? -1 : 0;
}

/* The reader runs the validation on every record, in both forms. */
static void test_the_reader_validates_layout_records(void)
{
	const char *spool = tu_path("layout.xfbt"), *packed = tu_path("layout.packed.xfbt");
	struct trace_reader *r;
	struct trace_record rec;
	struct xt_err err;
	size_t n = 0;

	CHECK_EQ_INT(write_trace(spool, NONE, packed), 0);
	CHECK_EQ_INT(tu_read_all(spool, &n), XT_ERR_EOF);
	CHECK_EQ_INT(n, 3);
	CHECK_EQ_INT(tu_read_all(packed, &n), XT_ERR_EOF);
	CHECK_EQ_INT(n, 3);
	CHECK_EQ_INT(write_trace(spool, MEMBER_PAST_END, NULL), 0);
	CHECK_EQ_INT(trace_reader_open(&r, spool, &err), XT_OK);
	enum xt_rc rc;
	while ((rc = trace_reader_next(r, &rec)) == XT_OK)
		;
	CHECK_EQ_INT(rc, XT_ERR_CORRUPT);
	CHECK(strstr(xt_err_msg(trace_reader_err(r)), "past the 48 bytes of block \"Shared\"") != NULL);
	CHECK(strstr(xt_err_msg(trace_reader_err(r)), "call 0") != NULL);
	trace_reader_close(r);
}

int main(void)
{
	XT_RUN(test_a_record_reads_back_whole);
	XT_RUN(test_each_breach_is_named);
	XT_RUN(test_truncations_and_bit_flips_read_cleanly);
	XT_RUN(test_the_reader_validates_layout_records);
	tu_cleanup();
	XT_TEST_MAIN_END();
}
