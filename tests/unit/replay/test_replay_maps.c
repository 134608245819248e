/*
 * test_replay_maps.c - the replay's name maps (replay/replay_names.h) and
 * client memory shadows (replay/replay_mem.h), without a GL driver.
 */
#include <string.h>

#include "replay_mem.h"
#include "replay_names.h"
#include "xt_fault.h"
#include "xt_test.h"

static void test_names_map_both_ways_and_default_to_identity(void)
{
	struct replay_names *n = replay_names_create();

	CHECK(n != NULL);
	CHECK_EQ_INT(replay_names_get(n, 1, 1, 0, 5), 5);
	CHECK(!replay_names_known(n, 1, 1, 0, 5));
	CHECK_EQ_INT(replay_names_set(n, 1, 1, 0, 5, 9), XT_OK);
	CHECK_EQ_INT(replay_names_get(n, 1, 1, 0, 5), 9);
	CHECK_EQ_INT(replay_names_app(n, 1, 1, 0, 9), 5);
	/* Another namespace, kind or program is another map. */
	CHECK_EQ_INT(replay_names_get(n, 2, 1, 0, 5), 5);
	CHECK_EQ_INT(replay_names_get(n, 1, 2, 0, 5), 5);
	CHECK_EQ_INT(replay_names_get(n, 1, 1, 7, 5), 5);
	/* A later creation of the same recorded name replaces the mapping. */
	CHECK_EQ_INT(replay_names_set(n, 1, 1, 0, 5, 11), XT_OK);
	CHECK_EQ_INT(replay_names_get(n, 1, 1, 0, 5), 11);
	replay_names_destroy(n);
	replay_names_destroy(NULL);
}

static void test_names_grow_past_many_entries(void)
{
	struct replay_names *n = replay_names_create();

	for (uint64_t i = 1; i <= 5000; i++)
		CHECK_EQ_INT(replay_names_set(n, 3, 4, 0, i, i + 100000), XT_OK);
	for (uint64_t i = 1; i <= 5000; i += 499) {
		CHECK_EQ_INT(replay_names_get(n, 3, 4, 0, i), i + 100000);
		CHECK_EQ_INT(replay_names_app(n, 3, 4, 0, i + 100000), i);
	}
	replay_names_destroy(n);
}

static void test_names_set_fails_cleanly_when_out_of_memory(void)
{
	/* The n-th allocation fails, for n = 1, 2, ... until none does. */
	for (unsigned long k = 1; k < 64; k++) {
		struct replay_names *n = replay_names_create();
		CHECK(n != NULL);
		CHECK_EQ_INT(replay_names_set(n, 1, 1, 0, 1, 2), XT_OK);
		xt_fault_arm(XT_FAULT_ALLOC, k);
		enum xt_rc rc = XT_OK;
		for (uint64_t i = 10; i < 400 && rc == XT_OK; i++)
			rc = replay_names_set(n, 1, 1, 0, i, i + 1);
		const bool fired = xt_fault_fired(XT_FAULT_ALLOC);
		xt_fault_arm(XT_FAULT_ALLOC, 0);
		CHECK_EQ_INT(rc, fired ? XT_ERR_NOMEM : XT_OK);
		/* What was there before the failure is intact. */
		CHECK_EQ_INT(replay_names_get(n, 1, 1, 0, 1), 2);
		CHECK_EQ_INT(replay_names_get(n, 1, 1, 0, 10), 11);
		replay_names_destroy(n);
		if (!fired)
			return;
	}
	CHECK(!"the allocations never stopped failing");
}

static void test_client_memory_is_shadowed_by_recorded_address(void)
{
	struct replay_mem *m = replay_mem_create();
	const uint8_t bytes[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint8_t *a = replay_mem_client(m, 0x7f0000001010), *b = replay_mem_client(m, 0x7f0000001000);

	CHECK(a != NULL && b != NULL);
	CHECK(a == b + 0x10);   /* one segment: interleaved arrays stay interleaved */
	CHECK_EQ_INT(replay_mem_write(m, 0x7f000000100c, bytes, 8), 1);
	CHECK(!memcmp(b + 0xc, bytes, 8));
	CHECK_EQ_INT(replay_mem_write(m, 0x1000, bytes, 8), 0);
	replay_mem_destroy(m);
}

static void test_map_writes_land_in_the_replay_mapping_clipped(void)
{
	struct replay_mem *m = replay_mem_create();
	uint8_t mapping[16] = { 0 };
	const uint8_t bytes[8] = { 9, 9, 9, 9, 9, 9, 9, 9 };

	CHECK_EQ_INT(replay_mem_map(m, 42, 0x5000, mapping, sizeof mapping), XT_OK);
	/* Half of the write is past the mapping's end: only the rest lands. */
	CHECK_EQ_INT(replay_mem_write(m, 0x500c, bytes, 8), 1);
	CHECK(mapping[11] == 0 && mapping[12] == 9 && mapping[15] == 9);
	replay_mem_unmap(m, 42);
	CHECK_EQ_INT(replay_mem_write(m, 0x5000, bytes, 8), 0);
	/* A write that wraps around the address space touches nothing. */
	CHECK_EQ_INT(replay_mem_map(m, 43, UINT64_MAX - 7, mapping, 8), XT_OK);
	CHECK_EQ_INT(replay_mem_write(m, UINT64_MAX - 3, bytes, 8), 0);
	replay_mem_destroy(m);
}

int main(void)
{
	XT_RUN(test_names_map_both_ways_and_default_to_identity);
	XT_RUN(test_names_grow_past_many_entries);
	XT_RUN(test_names_set_fails_cleanly_when_out_of_memory);
	XT_RUN(test_client_memory_is_shadowed_by_recorded_address);
	XT_RUN(test_map_writes_land_in_the_replay_mapping_clipped);
	XT_TEST_MAIN_END();
}
