/*
 * test_replay_lines.c - the bounds GL 4.6 §14.5.1 sets on how two line
 * rasterization algorithms may differ (replay/replay_lines.h): which
 * pixels a width-1 segment can explain, and by how many samples occlusion
 * counts over such segments may differ.
 */
#include <stdint.h>

#include "replay_lines.h"
#include "xt_test.h"

static void test_pixels_within_one_unit_of_the_rules_fragments(void)
{
	/* x-major, on a row of centres: the rule draws x = 0..4 or 1..5 */
	const struct replay_line l = { 1.0, 3.5, 6.0, 3.5 };

	for (int64_t x = 0; x <= 6; x++)
		for (int64_t y = 2; y <= 4; y++)
			CHECK(replay_line_may_differ_at(&l, x, y));
	/* one row above and below the line's own is the limit */
	CHECK(!replay_line_may_differ_at(&l, 3, 5));
	CHECK(!replay_line_may_differ_at(&l, 3, 1));
	/* past the ends: one unit from a fragment whose diamond the
	 * segment meets, no further */
	CHECK(replay_line_may_differ_at(&l, 7, 3));
	CHECK(replay_line_may_differ_at(&l, -1, 3));
	CHECK(!replay_line_may_differ_at(&l, 8, 3));
	CHECK(!replay_line_may_differ_at(&l, -2, 3));
	CHECK(!replay_line_may_differ_at(&l, 40, 40));
}

static void test_the_region_is_an_octagon_not_a_square(void)
{
	/* a diagonal: (5, 7) is one unit in x and y from (6, 6), whose
	 * diamond the segment meets; (5, 8) is 1.5 from the segment in x and
	 * in y, inside a square of 1.5 but no diamond-exit fragment's
	 * neighbour */
	const struct replay_line d = { 0.5, 0.5, 10.5, 10.5 };

	CHECK(replay_line_may_differ_at(&d, 5, 5));
	CHECK(replay_line_may_differ_at(&d, 5, 7));
	CHECK(replay_line_may_differ_at(&d, 7, 5));
	CHECK(!replay_line_may_differ_at(&d, 5, 8));
	CHECK(!replay_line_may_differ_at(&d, 8, 5));
}

static void test_a_segment_of_no_length_explains_its_neighbours_only(void)
{
	/* the rule draws nothing; another algorithm may draw one fragment */
	const struct replay_line p = { 2.5, 2.5, 2.5, 2.5 };

	CHECK(replay_line_may_differ_at(&p, 2, 2));
	CHECK(replay_line_may_differ_at(&p, 3, 3));
	CHECK(!replay_line_may_differ_at(&p, 4, 2));
	CHECK(!replay_line_may_differ_at(&p, 2, 0));
}

static void test_sample_counts_differ_by_two_fragments_a_segment(void)
{
	CHECK_EQ_INT(replay_lines_sample_bound(33, 1), 66);
	CHECK_EQ_INT(replay_lines_sample_bound(3, 4), 24);
	CHECK_EQ_INT(replay_lines_sample_bound(0, 4), 0);
	/* GL_SAMPLES_PASSED: |golden - replay| within the bound, either way */
	CHECK(replay_lines_count_allowed(16, 5, 66, false, 5));
	CHECK(replay_lines_count_allowed(5, 16, 11, false, 16));
	CHECK(!replay_lines_count_allowed(16, 5, 10, false, 5));
	CHECK(!replay_lines_count_allowed(300, 0, 66, false, 0));
	CHECK(!replay_lines_count_allowed(1, 0, 0, false, 0));
}

static void test_any_samples_passed_flips_only_within_the_bound(void)
{
	/* golden saw samples, the replay none: a count of 1 .. bound */
	CHECK(replay_lines_count_allowed(1, 0, 2, true, 0));
	CHECK(!replay_lines_count_allowed(1, 0, 0, true, 0));
	/* golden none: the replay's own count must be within the bound */
	CHECK(replay_lines_count_allowed(0, 1, 2, true, 2));
	CHECK(!replay_lines_count_allowed(0, 1, 2, true, 3));
	CHECK(!replay_lines_count_allowed(0, 1, 2, true, UINT64_MAX));
	/* equal booleans are no difference to explain */
	CHECK(!replay_lines_count_allowed(1, 1, 2, true, 1));
}

int main(void)
{
	XT_RUN(test_pixels_within_one_unit_of_the_rules_fragments);
	XT_RUN(test_the_region_is_an_octagon_not_a_square);
	XT_RUN(test_a_segment_of_no_length_explains_its_neighbours_only);
	XT_RUN(test_sample_counts_differ_by_two_fragments_a_segment);
	XT_RUN(test_any_samples_passed_flips_only_within_the_bound);
	XT_TEST_MAIN_END();
}
