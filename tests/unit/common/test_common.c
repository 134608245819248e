/*
 * test_common.c - unit tests of common/: error records, buffers, arena,
 * hashing, the JSON writer and the fault-injection hooks themselves.
 */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "xt_arena.h"
#include "xt_buf.h"
#include "xt_fault.h"
#include "xt_hash.h"
#include "xt_json.h"
#include "xt_rc.h"
#include "xt_test.h"

static void test_err_records_file_and_line(void)
{
	struct xt_err e;
	xt_err_clear(&e);
	CHECK_EQ_STR(xt_err_msg(&e), "no error");
	int line = __LINE__ + 1;
	enum xt_rc rc = XT_FAIL(&e, XT_ERR_CORRUPT, "bad chunk at %d", 42);
	CHECK_EQ_INT(rc, XT_ERR_CORRUPT);
	CHECK_EQ_INT(e.line, line);
	CHECK(strstr(xt_err_msg(&e), "bad chunk at 42 (test_common.c:") != NULL);
	CHECK_EQ_INT(XT_FAIL(NULL, XT_ERR_IO, "ignored"), XT_ERR_IO);
}

static void test_buf_appends_and_detaches(void)
{
	struct xt_buf b = XT_BUF_INIT;
	for (int i = 0; i < 1000; i++)
		CHECK_EQ_INT(xt_buf_append(&b, "abc", 3), XT_OK);
	CHECK_EQ_INT(b.len, 3000);
	CHECK(xt_buf_printf(&b, "%d", 12345) == XT_OK);
	CHECK(memcmp(b.data + 3000, "12345", 5) == 0);
	size_t n;
	uint8_t *p = xt_buf_detach(&b, &n);
	CHECK_EQ_INT(n, 3005);
	CHECK(b.data == NULL && b.len == 0);
	free(p);
}

static void test_buf_keeps_contents_when_allocation_fails(void)
{
	struct xt_buf b = XT_BUF_INIT;
	CHECK_EQ_INT(xt_buf_append(&b, "xy", 2), XT_OK);
	xt_fault_arm(XT_FAULT_ALLOC, 1);
	uint8_t big[4096] = { 0 };
	CHECK_EQ_INT(xt_buf_append(&b, big, sizeof big), XT_ERR_NOMEM);
	CHECK(xt_fault_fired(XT_FAULT_ALLOC));
	CHECK_EQ_INT(b.len, 2);
	CHECK(memcmp(b.data, "xy", 2) == 0);
	xt_fault_arm(XT_FAULT_ALLOC, 0);
	/* the failure sticks, so a text built with unchecked appends shows it */
	CHECK(b.failed);
	CHECK_EQ_INT(xt_buf_append(&b, "z", 1), XT_OK);
	CHECK(b.failed);
	xt_buf_reset(&b);
	CHECK(!b.failed);
	xt_buf_fini(&b);
}

static void test_arena_survives_every_allocation_failure(void)
{
	/* Walk n = 1, 2, ... : the n-th allocation fails until none does. */
	for (unsigned long n = 1; n < 100; n++) {
		struct xt_arena a;
		int ok = 1;
		xt_arena_init(&a, 256);
		xt_fault_arm(XT_FAULT_ALLOC, n);
		for (int i = 0; i < 50 && ok; i++) {
			char *s = xt_arena_strdup(&a, "transform feedback");
			if (!s)
				ok = 0;
			else
				CHECK_EQ_STR(s, "transform feedback");
		}
		int fired = xt_fault_fired(XT_FAULT_ALLOC);
		xt_fault_arm(XT_FAULT_ALLOC, 0);
		CHECK(ok != fired);
		xt_arena_fini(&a);
		if (!fired)
			return;
	}
	CHECK(!"arena never succeeded");
}

static void test_arena_big_allocations_stay_aligned(void)
{
	struct xt_arena a;
	xt_arena_init(&a, 64);
	for (size_t sz = 1; sz < 5000; sz = sz * 3 + 1) {
		void *p = xt_arena_alloc(&a, sz);
		CHECK(p != NULL);
		CHECK(((uintptr_t)p & 15) == 0);
		memset(p, 0xab, sz);
	}
	xt_arena_reset(&a);
	CHECK(xt_arena_alloc(&a, 8) != NULL);
	xt_arena_fini(&a);
	xt_arena_fini(&a); /* a second fini is harmless */
}

/* The canonical (big-endian) hex of XXH3-128, as xxh128sum prints it,
 * computed with libxxhash directly: the anchor of xt_hash128_hex, the key
 * of every blob in the results database (docs/db.md). */
static void canonical_hex128(const void *data, size_t len, char out[33])
{
	XXH128_canonical_t c;
	XXH128_canonicalFromHash(&c, XXH3_128bits(data, len));
	for (int i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", c.digest[i]);
}

static void test_hash_is_stable_and_discriminates(void)
{
	/* XXH3-64 of the empty input is a published constant. */
	CHECK(xt_hash64("", 0) == UINT64_C(0x2D06800538D394C2));
	CHECK(xt_hash64("a", 1) != xt_hash64("b", 1));
	CHECK(xt_hash64("abc", 3) == XXH3_64bits("abc", 3));
	static const char *const inputs[] = { "", "abc", "transform feedback observation, longer than a block" };
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		char hex[33], want[33];
		size_t len = strlen(inputs[i]);
		struct xt_hash128 h = xt_hash128(inputs[i], len);
		XXH128_hash_t lib = XXH3_128bits(inputs[i], len);
		CHECK(h.lo == lib.low64 && h.hi == lib.high64);
		xt_hash128_hex(h, hex);
		canonical_hex128(inputs[i], len, want);
		CHECK_EQ_STR(hex, want);
	}
	struct xt_hash128 h1 = xt_hash128("abc", 3), h2 = xt_hash128("abd", 3);
	CHECK(h1.lo != h2.lo || h1.hi != h2.hi);
}

static void test_fault_fires_exactly_once(void)
{
	xt_fault_arm(XT_FAULT_IO, 3);
	CHECK(!xt_fault_io());
	CHECK(!xt_fault_io());
	CHECK(xt_fault_io());
	CHECK(!xt_fault_io());
	CHECK(xt_fault_fired(XT_FAULT_IO));
	xt_fault_arm(XT_FAULT_IO, 0);
	CHECK(!xt_fault_fired(XT_FAULT_IO));
}

/* The AVX2 build of long inputs (where the CPU has AVX2) hashes exactly
 * as the library does: every length around XXH3's stripe, block and
 * short/long boundaries, at every alignment, seeded and not. */
static void test_hash_long_inputs_match_the_library(void)
{
	static uint8_t buf[4096 + 64];
	uint64_t x = 0x9E3779B97F4A7C15u;
	int mismatches = 0;

	for (size_t i = 0; i < sizeof buf; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		buf[i] = (uint8_t)x;
	}
	for (size_t len = 200; len <= 4096; len += len < 1100 ? 1 : 61) {
		const uint8_t *p = buf + (len % 31);
		const uint64_t seed = len * 0x100000001B3u;
		mismatches += xt_hash64(p, len) != xt_hash64_library(p, len);
		mismatches += xt_hash64_seed(p, len, seed) != xt_hash64_seed_library(p, len, seed);
	}
	CHECK_EQ_INT(mismatches, 0);
#if defined(__x86_64__)
	printf("  (this CPU %s AVX2)\n", __builtin_cpu_supports("avx2") ? "has" : "has no");
#endif
}

/* The writer's document as a NUL-terminated string in b. */
static const char *jw_text(struct xt_buf *b)
{
	xt_buf_append(b, "", 1);
	return (const char *)b->data;
}

static void test_json_writer_places_commas_and_nests(void)
{
	struct xt_buf b = XT_BUF_INIT;
	struct xt_jw w;
	xt_jw_init(&w, &b);
	xt_jw_obj(&w);
	xt_jw_ku64(&w, "n", 18446744073709551615ull);
	xt_jw_ki64(&w, "i", -3);
	xt_jw_kstr(&w, "s", "a\"b\n");
	xt_jw_kstr(&w, "none", NULL);
	xt_jw_kbool(&w, "t", true);
	xt_jw_karr(&w, "a");
	xt_jw_num(&w, 0.5, 0);
	xt_jw_num(&w, 1.0 / 0.0, 0);
	xt_jw_obj(&w);
	xt_jw_end(&w);
	xt_jw_arr(&w);
	xt_jw_end(&w);
	xt_jw_strf(&w, "0x%04x", 0xab);
	xt_jw_hex(&w, "\x01\xff", 2);
	xt_jw_raw(&w, "{\"x\":[1]}");
	xt_jw_raw(&w, NULL);
	xt_jw_end(&w);
	xt_jw_knull(&w, "z");
	xt_jw_end(&w);
	CHECK_EQ_INT(xt_jw_done(&w), XT_OK);
	CHECK_EQ_STR(jw_text(&b), "{\"n\":18446744073709551615,\"i\":-3,\"s\":\"a\\\"b\\n\","
		     "\"none\":null,\"t\":true,\"a\":[0.5,\"inf\",{},[],\"0x00ab\",\"01ff\","
		     "{\"x\":[1]},null],\"z\":null}");
	xt_buf_fini(&b);
}

static void test_json_writer_refuses_what_is_not_json(void)
{
	struct xt_buf b = XT_BUF_INIT;
	struct xt_jw w;

	xt_jw_init(&w, &b);            /* a value without its key */
	xt_jw_obj(&w);
	xt_jw_u64(&w, 1);
	CHECK_EQ_INT(xt_jw_done(&w), XT_ERR_INTERNAL);
	xt_buf_reset(&b);
	xt_jw_init(&w, &b);            /* a key in an array */
	xt_jw_arr(&w);
	xt_jw_key(&w, "k");
	CHECK_EQ_INT(xt_jw_done(&w), XT_ERR_INTERNAL);
	xt_buf_reset(&b);
	xt_jw_init(&w, &b);            /* an end too many */
	xt_jw_arr(&w);
	xt_jw_end(&w);
	xt_jw_end(&w);
	CHECK_EQ_INT(xt_jw_done(&w), XT_ERR_INTERNAL);
	xt_buf_reset(&b);
	xt_jw_init(&w, &b);            /* two documents */
	xt_jw_u64(&w, 1);
	xt_jw_u64(&w, 2);
	CHECK_EQ_INT(xt_jw_done(&w), XT_ERR_INTERNAL);
	xt_buf_reset(&b);
	xt_jw_init(&w, &b);            /* left open, and a key without its value */
	xt_jw_obj(&w);
	CHECK_EQ_INT(xt_jw_done(&w), XT_ERR_INTERNAL);
	xt_jw_key(&w, "k");
	xt_jw_end(&w);
	CHECK_EQ_INT(xt_jw_done(&w), XT_ERR_INTERNAL);
	xt_buf_reset(&b);
	xt_jw_init(&w, &b);            /* nothing at all */
	CHECK_EQ_INT(xt_jw_done(&w), XT_ERR_INTERNAL);
	xt_buf_reset(&b);
	xt_jw_init(&w, &b);            /* deeper than the writer keeps */
	for (int i = 0; i <= XT_JW_MAX_DEPTH; i++)
		xt_jw_arr(&w);
	CHECK_EQ_INT(xt_jw_done(&w), XT_ERR_INTERNAL);
	xt_buf_fini(&b);
}

/* Well-formed UTF-8 passes as is; every other byte >= 0x80 (an overlong
 * form, a surrogate, a cut or stray sequence) is escaped as U+0080..U+00FF,
 * so the output is valid UTF-8 JSON whatever the input. */
static void test_json_strings_keep_utf8_and_escape_other_bytes(void)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "GL 4.6 \xc2\xa7" "18.3.1", "\"GL 4.6 \xc2\xa7" "18.3.1\"" },   /* § */
		{ "\xe2\x82\xac \xf0\x9f\x98\x80", "\"\xe2\x82\xac \xf0\x9f\x98\x80\"" },
		{ "\xa7", "\"\\u00a7\"" },                        /* a lone continuation byte */
		{ "\xc0\xaf", "\"\\u00c0\\u00af\"" },            /* overlong '/' */
		{ "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"" }, /* a surrogate */
		{ "\xe2\x82", "\"\\u00e2\\u0082\"" },            /* cut short */
		{ "\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"" }, /* > U+10FFFF */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct xt_buf b = XT_BUF_INIT;
		CHECK_EQ_INT(xt_json_str(&b, cases[i].in, strlen(cases[i].in)), XT_OK);
		CHECK(b.len == strlen(cases[i].out) && !memcmp(b.data, cases[i].out, b.len));
		xt_buf_fini(&b);
	}
}

static void test_json_writer_reports_the_first_failed_append(void)
{
	struct xt_buf b = XT_BUF_INIT;
	struct xt_jw w;
	xt_jw_init(&w, &b);
	xt_jw_arr(&w);
	xt_fault_arm(XT_FAULT_ALLOC, 1);
	xt_jw_str(&w, "a string that needs the buffer to grow");
	xt_fault_arm(XT_FAULT_ALLOC, 0);
	xt_jw_u64(&w, 7);
	xt_jw_end(&w);
	CHECK_EQ_INT(xt_jw_done(&w), XT_ERR_NOMEM);
	CHECK_EQ_INT(b.len, 1);        /* nothing after the failure */
	xt_buf_fini(&b);
}

int main(void)
{
	XT_RUN(test_err_records_file_and_line);
	XT_RUN(test_buf_appends_and_detaches);
	XT_RUN(test_buf_keeps_contents_when_allocation_fails);
	XT_RUN(test_arena_survives_every_allocation_failure);
	XT_RUN(test_arena_big_allocations_stay_aligned);
	XT_RUN(test_hash_is_stable_and_discriminates);
	XT_RUN(test_hash_long_inputs_match_the_library);
	XT_RUN(test_fault_fires_exactly_once);
	XT_RUN(test_json_writer_places_commas_and_nests);
	XT_RUN(test_json_writer_refuses_what_is_not_json);
	XT_RUN(test_json_writer_reports_the_first_failed_append);
	XT_RUN(test_json_strings_keep_utf8_and_escape_other_bytes);
	XT_TEST_MAIN_END();
}
