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
	/* x-major, on a row of centres, ends on vertical pixel boundaries:
	 * the rule draws x = 0..4, llvmpipe 1..5; a short segment is all
	 * ends */
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
	/* near the first end of a diagonal: (1, -1) is one unit in x and y
	 * from (0, 0), whose diamond the segment meets; (2, -1) is 1.5 from
	 * the segment in x and in y, inside a square of 1.5 but no
	 * diamond-exit fragment's neighbour */
	const struct replay_line d = { 0.5, 0.5, 10.5, 10.5 };

	CHECK(replay_line_may_differ_at(&d, 0, 0));
	CHECK(replay_line_may_differ_at(&d, 1, -1));
	CHECK(replay_line_may_differ_at(&d, 0, 2));
	CHECK(!replay_line_may_differ_at(&d, 2, -1));
	CHECK(!replay_line_may_differ_at(&d, 0, 3));
	/* the last end (10.5, 10.5) likewise */
	CHECK(replay_line_may_differ_at(&d, 10, 10));
	CHECK(replay_line_may_differ_at(&d, 11, 11));
	CHECK(!replay_line_may_differ_at(&d, 12, 9));
}

static void test_inside_a_segment_only_ties_explain_a_pixel(void)
{
	/* a long x-major segment between rows' centres: inside, every
	 * algorithm the rules allow draws the one row whose centre the
	 * segment passes within half a unit, so a difference there is no
	 * rasterization difference (a colour difference on the line is not
	 * explained) */
	const struct replay_line l = { 1.0, 3.5, 20.0, 3.5 };

	CHECK(!replay_line_may_differ_at(&l, 10, 3));
	CHECK(!replay_line_may_differ_at(&l, 10, 2));
	CHECK(replay_line_may_differ_at(&l, 2, 2));
	CHECK(replay_line_may_differ_at(&l, 19, 4));
	CHECK(replay_line_may_differ_at(&l, 21, 3));
	CHECK(!replay_line_may_differ_at(&l, 22, 3));
	/* on the boundary between rows 2 and 3: the tie is decided by the
	 * rule's perturbation, or another algorithm's own way */
	const struct replay_line tie = { 1.5, 3.0, 20.5, 3.0 };
	CHECK(replay_line_may_differ_at(&tie, 10, 2));
	CHECK(replay_line_may_differ_at(&tie, 10, 3));
	CHECK(!replay_line_may_differ_at(&tie, 10, 4));
	CHECK(!replay_line_may_differ_at(&tie, 10, 1));
	/* y-major: between columns 2 and 3, drawn downwards */
	const struct replay_line ytie = { 3.0, 20.5, 3.0, 1.5 };
	CHECK(replay_line_may_differ_at(&ytie, 2, 10));
	CHECK(replay_line_may_differ_at(&ytie, 3, 10));
	CHECK(!replay_line_may_differ_at(&ytie, 4, 10));
	/* slope 1/2 through (10.5, 6.0): a tie in column 10 only */
	const struct replay_line slope = { 0.5, 1.0, 20.5, 11.0 };
	CHECK(replay_line_may_differ_at(&slope, 10, 5));
	CHECK(replay_line_may_differ_at(&slope, 10, 6));
	CHECK(!replay_line_may_differ_at(&slope, 9, 4));
	CHECK(!replay_line_may_differ_at(&slope, 11, 6));
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
	XT_RUN(test_inside_a_segment_only_ties_explain_a_pixel);
	XT_RUN(test_a_segment_of_no_length_explains_its_neighbours_only);
	XT_RUN(test_sample_counts_differ_by_two_fragments_a_segment);
	XT_RUN(test_any_samples_passed_flips_only_within_the_bound);
	XT_TEST_MAIN_END();
}
