/*
 * test_trace_late.c - late observations (trace/trace_late.c,
 * docs/trace-format.md "Late observations"): the reader delivers the
 * records a TRACE_REC_OBS_PENDING announced as OBSERVATION records of its
 * call, in its place, whichever thread's records came between; a trace
 * that ends first gives a `lost` observation naming what is missing; the
 * compacted file holds the records in place and neither record type.
 */
#include "trace_test_util.h"

/* PENDING of call `seq`: {"kind": "tf_buffer", "records": n}. */
static int put_pending(struct trace_spool_stream *st, uint64_t seq, uint64_t n)
{
	uint8_t *start = trace_spool_reserve(st, 64), *p = start;
	if (!p)
		return -1;
	p = trace_enc_map(p, 2);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, "tf_buffer", 9);
	p = trace_enc_key(p, "records");
	p = trace_enc_uint(p, n);
	trace_spool_commit(st, TRACE_REC_OBS_PENDING, TRACE_RECF_ATTACHED, seq, (size_t)(p - start));
	return 0;
}

/* LATE, read back at call `at`, of call `owner`: {"kind": "tf_buffer",
 * "index": index}. */
static int put_late(struct trace_spool_stream *st, uint64_t at, uint64_t owner, uint64_t index)
{
	uint8_t *start = trace_spool_reserve(st, 64), *p = start;
	if (!p)
		return -1;
	memcpy(p, &owner, 8);
	p += 8;
	p = trace_enc_map(p, 2);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, "tf_buffer", 9);
	p = trace_enc_key(p, "index");
	p = trace_enc_uint(p, index);
	trace_spool_commit(st, TRACE_REC_OBS_LATE, TRACE_RECF_ATTACHED, at, (size_t)(p - start));
	return 0;
}

struct seen {
	uint16_t type;
	uint64_t seq;
	char what[64];   /* an observation's kind and index, or its `of` */
};

/* The records of `path` (at most `cap`); the reader's final code in *rc. */
static size_t read_records(const char *path, struct seen *out, size_t cap, enum xt_rc *rc)
{
	struct trace_reader *r;
	struct trace_record rec;
	struct xt_err err;
	struct xt_arena arena;
	size_t n = 0;

	*rc = trace_reader_open(&r, path, &err);
	if (*rc != XT_OK) {
		fprintf(stderr, "%s: %s\n", path, xt_err_msg(&err));
		return 0;
	}
	xt_arena_init(&arena, 4096);
	while ((*rc = trace_reader_next(r, &rec)) == XT_OK && n < cap) {
		struct seen *s = &out[n++];
		struct trace_value v;
		memset(s, 0, sizeof *s);
		s->type = rec.type;
		s->seq = rec.seq;
		if (rec.type == TRACE_REC_OBSERVATION &&
		    trace_reader_decode_value(r, &rec, &arena, &v) == XT_OK) {
			const struct trace_value *kind = trace_value_get(&v, "kind");
			const struct trace_value *index = trace_value_get(&v, "index");
			const struct trace_value *of = trace_value_get(&v, "of");
			const struct trace_value *records = trace_value_get(&v, "records");
			if (kind && index)
				snprintf(s->what, sizeof s->what, "%.*s %llu", (int)kind->mem.len,
					 (const char *)kind->mem.bytes, (unsigned long long)index->u);
			else if (kind && of && records)
				snprintf(s->what, sizeof s->what, "%.*s %.*s %llu", (int)kind->mem.len,
					 (const char *)kind->mem.bytes, (int)of->mem.len,
					 (const char *)of->mem.bytes, (unsigned long long)records->u);
		}
		xt_arena_reset(&arena);
	}
	if (*rc != XT_ERR_EOF)
		fprintf(stderr, "%s: %s\n", path, xt_err_msg(trace_reader_err(r)));
	xt_arena_fini(&arena);
	trace_reader_close(r);
	return n;
}

/*
 * Thread 0: call 0 (TF end) with a pending of 2 records, call 2, a late
 * record of call 0 read back at call 2, call 4 and the second late record.
 * Thread 1: calls 1 and 3.  With `complete` false the second late record
 * is missing (the application died).
 */
static int write_spool(const char *path, int complete)
{
	struct trace_spool *s;
	struct xt_err err;
	if (trace_spool_open(&s, path, 1, &err) != XT_OK)
		return -1;
	struct trace_spool_stream *a = trace_spool_stream_open(s, 0);
	struct trace_spool_stream *b = trace_spool_stream_open(s, 1);
	int bad = !a || !b;
	bad = bad || tu_put_call(a, 0, 1, 1, 0, "end");
	bad = bad || tu_put_ret(a, 0, 0);
	bad = bad || put_pending(a, 0, 2);
	bad = bad || tu_put_call(b, 1, 2, 1, 1, "other thread");
	bad = bad || tu_put_call(a, 0, 1, 0, 2, "draw");
	bad = bad || put_late(a, 2, 0, 0);
	bad = bad || tu_put_call(b, 1, 2, 0, 3, "other thread");
	bad = bad || tu_put_call(a, 0, 1, 0, 4, "swap");
	if (complete)
		bad = bad || put_late(a, 4, 0, 1);
	trace_spool_stream_close(a);
	trace_spool_stream_close(b);
	trace_spool_close(s);
	return bad ? -1 : 0;
}

static void check_in_place(const char *path, int complete)
{
	struct seen s[32];
	enum xt_rc rc;
	size_t n = read_records(path, s, 32, &rc);

	CHECK_EQ_INT(rc, XT_ERR_EOF);
	CHECK_EQ_INT((int)n, 8);
	if (n != 8)
		return;
	CHECK(s[0].type == TRACE_REC_CALL && s[0].seq == 0);
	CHECK(s[1].type == TRACE_REC_RET && s[1].seq == 0);
	CHECK(s[2].type == TRACE_REC_OBSERVATION && s[2].seq == 0);
	CHECK(!strcmp(s[2].what, "tf_buffer 0"));
	CHECK(s[3].type == TRACE_REC_OBSERVATION && s[3].seq == 0);
	CHECK(!strcmp(s[3].what, complete ? "tf_buffer 1" : "lost tf_buffer 1"));
	for (int i = 4; i < 8; i++)
		CHECK(s[i].type == TRACE_REC_CALL && s[i].seq == (uint64_t)(i - 3));
}

static void test_late_records_are_delivered_in_place_of_the_pending_one(void)
{
	const char *spool = tu_path("late.xfbt"), *packed = tu_path("late.packed.xfbt");
	struct xt_err err;

	CHECK_EQ_INT(write_spool(spool, 1), 0);
	check_in_place(spool, 1);
	CHECK_EQ_INT(trace_compact(spool, packed, &err), XT_OK);
	check_in_place(packed, 1);
}

static void test_a_pending_observation_without_its_data_is_lost(void)
{
	const char *spool = tu_path("lost.xfbt"), *packed = tu_path("lost.packed.xfbt");
	struct xt_err err;

	CHECK_EQ_INT(write_spool(spool, 0), 0);
	check_in_place(spool, 0);
	CHECK_EQ_INT(trace_compact(spool, packed, &err), XT_OK);
	check_in_place(packed, 0);
}

static void test_a_late_record_without_pending_is_corrupt(void)
{
	const char *path = tu_path("orphan.xfbt");
	struct trace_spool *s;
	struct xt_err err;
	struct seen seen[8];
	enum xt_rc rc;

	CHECK_EQ_INT(trace_spool_open(&s, path, 1, &err), XT_OK);
	struct trace_spool_stream *a = trace_spool_stream_open(s, 0);
	CHECK(a != NULL);
	CHECK_EQ_INT(tu_put_call(a, 0, 1, 1, 0, "end"), 0);
	CHECK_EQ_INT(put_late(a, 0, 7, 0), 0);
	trace_spool_stream_close(a);
	trace_spool_close(s);
	size_t n = read_records(path, seen, 8, &rc);
	CHECK_EQ_INT((int)n, 1);
	CHECK_EQ_INT(rc, XT_ERR_CORRUPT);
}

/* Every cut of a spool with late records, and every flipped byte in its
 * records, reads as records and then the end or a corruption: never a
 * crash, a leak or a late record delivered without its pending one. */
static void test_cut_and_damaged_spools_read_cleanly(void)
{
	const char *spool = tu_path("cut.xfbt"), *cut = tu_path("cut.part.xfbt");
	size_t len;
	int bad = 0;

	CHECK_EQ_INT(write_spool(spool, 1), 0);
	uint8_t *data = tu_read_file(spool, &len);
	CHECK(data != NULL);
	if (!data)
		return;
	for (size_t n = 0; n <= len; n += n < 2048 ? 8 : 4096) {
		size_t nrec;
		CHECK_EQ_INT(tu_write_file(cut, data, n), 0);
		enum xt_rc rc = tu_read_all(cut, &nrec);
		if (rc != XT_ERR_EOF && rc != XT_ERR_CORRUPT)
			bad++;
	}
	/* The records live in the first region, after the file and chunk
	 * headers: flip a byte of each. */
	for (size_t at = 64; at < 64 + 1024 && at < len; at++) {
		size_t nrec;
		data[at] ^= 0x40;
		CHECK_EQ_INT(tu_write_file(cut, data, len), 0);
		enum xt_rc rc = tu_read_all(cut, &nrec);
		if (rc != XT_ERR_EOF && rc != XT_ERR_CORRUPT)
			bad++;
		data[at] ^= 0x40;
	}
	CHECK_EQ_INT(bad, 0);
	free(data);
}

int main(void)
{
	XT_RUN(test_late_records_are_delivered_in_place_of_the_pending_one);
	XT_RUN(test_a_pending_observation_without_its_data_is_lost);
	XT_RUN(test_a_late_record_without_pending_is_corrupt);
	XT_RUN(test_cut_and_damaged_spools_read_cleanly);
	tu_cleanup();
	XT_TEST_MAIN_END();
}
