/*
 * test_trace_value.c - the value decoder (trace/trace_value.c) against the
 * encoders of trace_enc.h, and against garbage.
 */
#include <math.h>

#include "trace_test_util.h"

static enum xt_rc decode(const uint8_t *buf, size_t len, struct xt_arena *a,
			 struct trace_value *v, size_t *used)
{
	struct xt_err err;
	const uint8_t *p = buf;
	enum xt_rc rc = trace_value_decode(&p, buf + len, a, v, &err);
	*used = (size_t)(p - buf);
	return rc;
}

static void test_every_encoder_round_trips(void)
{
	uint8_t buf[512], *p = buf;
	static const uint8_t mem[3] = { 1, 2, 3 };
	struct xt_arena a;
	struct trace_value v;
	size_t used;

	p = trace_enc_array(p, 17);
	p = trace_enc_null(p);
	p = trace_enc_bool(p, 0);
	p = trace_enc_bool(p, 1);
	p = trace_enc_sint(p, INT64_MIN);
	p = trace_enc_sint(p, -3);
	p = trace_enc_uint(p, UINT64_MAX);
	p = trace_enc_float(p, -1.25f);
	p = trace_enc_double(p, 1e300);
	p = trace_enc_string(p, "abc", 3);
	p = trace_enc_blob(p, mem, 3);
	p = trace_enc_enum(p, 0x8C8E);
	p = trace_enc_bitfield(p, 0xffffffffu);
	p = trace_enc_pointer(p, (void *)0x1234);
	p = trace_enc_offset(p, 64);
	p = trace_enc_memory(p, (void *)0x5000, mem, 3);
	p = trace_enc_unsized(p, (void *)0x6000, "COMPSIZE(pname)");
	p = trace_enc_map(p, 1);
	p = trace_enc_key(p, "k");
	p = trace_enc_handle(p, 99);

	xt_arena_init(&a, 1024);
	CHECK_EQ_INT(decode(buf, (size_t)(p - buf), &a, &v, &used), XT_OK);
	CHECK_EQ_INT(used, p - buf);
	CHECK_EQ_INT(v.tag, TRACE_TAG_ARRAY);
	CHECK_EQ_INT(v.agg.count, 17);
	if (v.agg.count == 17) {
		struct trace_value *it = v.agg.items;
		CHECK_EQ_INT(it[0].tag, TRACE_TAG_NULL);
		CHECK_EQ_INT(it[1].tag, TRACE_TAG_FALSE);
		CHECK_EQ_INT(it[2].tag, TRACE_TAG_TRUE);
		CHECK(it[3].tag == TRACE_TAG_SINT && it[3].i == INT64_MIN);
		CHECK(it[4].tag == TRACE_TAG_SINT && it[4].i == -3);
		CHECK(it[5].tag == TRACE_TAG_UINT && it[5].u == UINT64_MAX);
		CHECK(it[6].tag == TRACE_TAG_FLOAT && it[6].f == -1.25f);
		CHECK(it[7].tag == TRACE_TAG_DOUBLE && it[7].d == 1e300);
		CHECK(it[8].tag == TRACE_TAG_STRING && it[8].mem.len == 3 &&
		      memcmp(it[8].mem.bytes, "abc", 3) == 0);
		CHECK(it[9].tag == TRACE_TAG_BLOB && it[9].mem.len == 3 &&
		      memcmp(it[9].mem.bytes, mem, 3) == 0);
		CHECK(it[10].tag == TRACE_TAG_ENUM && it[10].u == 0x8C8E);
		CHECK(it[11].tag == TRACE_TAG_BITFIELD && it[11].u == 0xffffffffu);
		CHECK(it[12].tag == TRACE_TAG_POINTER && it[12].u == 0x1234);
		CHECK(it[13].tag == TRACE_TAG_OFFSET && it[13].u == 64);
		CHECK(it[14].tag == TRACE_TAG_MEMORY && it[14].mem.addr == 0x5000 &&
		      it[14].mem.len == 3 && memcmp(it[14].mem.bytes, mem, 3) == 0);
		CHECK(it[15].tag == TRACE_TAG_UNSIZED && it[15].mem.addr == 0x6000 && it[15].mem.len == 15 &&
		      memcmp(it[15].mem.bytes, "COMPSIZE(pname)", 15) == 0);
		const struct trace_value *h = trace_value_get(&it[16], "k");
		CHECK(h && h->tag == TRACE_TAG_HANDLE && h->u == 99);
		CHECK(trace_value_get(&it[16], "missing") == NULL);
		CHECK(trace_value_get(&it[15], "k") == NULL);
	}
	xt_arena_fini(&a);
}

static void test_decoder_rejects_nesting_deeper_than_32(void)
{
	uint8_t buf[128];
	struct xt_arena a;
	struct trace_value v;
	size_t used;
	xt_arena_init(&a, 1024);
	for (int depth = 30; depth <= 34; depth++) {
		uint8_t *p = buf;
		for (int i = 0; i < depth - 1; i++)
			p = trace_enc_array(p, 1);
		p = trace_enc_null(p);
		enum xt_rc rc = decode(buf, (size_t)(p - buf), &a, &v, &used);
		CHECK_EQ_INT(rc, depth <= 32 ? XT_OK : XT_ERR_CORRUPT);
		xt_arena_reset(&a);
	}
	xt_arena_fini(&a);
}

static void test_decoder_rejects_counts_larger_than_the_bytes_left(void)
{
	uint8_t buf[32], *p;
	struct xt_arena a;
	struct trace_value v;
	size_t used;
	struct xt_err err;
	xt_arena_init(&a, 1024);

	p = trace_enc_array(buf, UINT64_C(1) << 60);
	p = trace_enc_null(p);
	CHECK_EQ_INT(decode(buf, (size_t)(p - buf), &a, &v, &used), XT_ERR_CORRUPT);
	p = trace_enc_map(buf, 3);
	p = trace_enc_key(p, "a");
	p = trace_enc_null(p);
	CHECK_EQ_INT(decode(buf, (size_t)(p - buf), &a, &v, &used), XT_ERR_CORRUPT);
	p = trace_enc_tag(buf, TRACE_TAG_STRING);
	p = trace_enc_varint(p, 1000);
	CHECK_EQ_INT(decode(buf, (size_t)(p - buf), &a, &v, &used), XT_ERR_CORRUPT);
	/* An 11-byte varint and a 10th byte with more than bit 63. */
	memset(buf, 0xff, 11);
	buf[0] = TRACE_TAG_UINT;
	CHECK_EQ_INT(decode(buf, 12, &a, &v, &used), XT_ERR_CORRUPT);
	buf[10] = 0x02;
	CHECK_EQ_INT(decode(buf, 11, &a, &v, &used), XT_ERR_CORRUPT);
	buf[10] = 0x01;
	CHECK_EQ_INT(decode(buf, 11, &a, &v, &used), XT_OK);
	CHECK(v.u == UINT64_MAX);
	/* Unknown tag, truncated double, ENUM beyond 32 bits, NUL in a key. */
	buf[0] = 0x7f;
	CHECK_EQ_INT(decode(buf, 1, &a, &v, &used), XT_ERR_CORRUPT);
	p = trace_enc_double(buf, 1.0);
	CHECK_EQ_INT(decode(buf, (size_t)(p - buf) - 1, &a, &v, &used), XT_ERR_CORRUPT);
	p = trace_enc_varint(trace_enc_tag(buf, TRACE_TAG_ENUM), UINT64_C(1) << 33);
	CHECK_EQ_INT(decode(buf, (size_t)(p - buf), &a, &v, &used), XT_ERR_CORRUPT);
	p = trace_enc_map(buf, 1);
	p = trace_enc_lenbytes(p, "a\0b", 3);
	p = trace_enc_null(p);
	CHECK_EQ_INT(decode(buf, (size_t)(p - buf), &a, &v, &used), XT_ERR_CORRUPT);
	CHECK_EQ_INT(decode(buf, 0, &a, &v, &used), XT_ERR_CORRUPT);
	/* The message says where. */
	const uint8_t *q = buf;
	buf[0] = 0x7f;
	CHECK_EQ_INT(trace_value_decode(&q, buf + 1, &a, &v, &err), XT_ERR_CORRUPT);
	CHECK(strstr(err.msg, "unknown value tag 0x7f at value byte 0") != NULL);
	xt_arena_fini(&a);
}

static void test_decoder_survives_random_bytes(void)
{
	uint64_t seed = 0x5eed;
	uint8_t buf[96];
	struct xt_arena a;
	struct trace_value v;
	size_t used;
	int ok = 1, decoded = 0;
	xt_arena_init(&a, 4096);
	for (int iter = 0; iter < 200000; iter++) {
		size_t len = tu_rand(&seed) % sizeof buf;
		for (size_t i = 0; i < len; i++) {
			uint64_t x = tu_rand(&seed);
			/* Bias towards valid tags and small varints. */
			buf[i] = (x & 3) ? (uint8_t)((x >> 8) % 0x13) : (uint8_t)(x >> 16);
		}
		enum xt_rc rc = decode(buf, len, &a, &v, &used);
		ok &= (rc == XT_OK && used <= len) || rc == XT_ERR_CORRUPT;
		decoded += rc == XT_OK;
		xt_arena_reset(&a);
	}
	CHECK(ok);
	CHECK(decoded > 1000); /* the generator reaches the success paths too */
	xt_arena_fini(&a);
}

int main(void)
{
	XT_RUN(test_every_encoder_round_trips);
	XT_RUN(test_decoder_rejects_nesting_deeper_than_32);
	XT_RUN(test_decoder_rejects_counts_larger_than_the_bytes_left);
	XT_RUN(test_decoder_survives_random_bytes);
	tu_cleanup();
	XT_TEST_MAIN_END();
}
