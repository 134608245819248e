/*
 * xt_test.h - the minimal check harness shared by the C unit tests.
 *
 * A test file defines `static void test_<behaviour>(void)` functions and
 * lists them in main() with XT_RUN(test_name).  CHECK* macros print
 * file:line and the failed expression (and values) and count; a failing check
 * does not stop the test, so one run shows every failure.  XT_TEST_MAIN_END
 * prints "N passed, N failed" (the line test runners read) and returns the
 * exit status: 0 all passed, 1 any failed, 77 everything skipped.
 *
 * A "pass" is counted per test function that ran with no failed check.
 */
#ifndef XT_TEST_H
#define XT_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int xt_test_failed_checks __attribute__((unused)); /* failed checks in the current test */
static int xt_test_passed __attribute__((unused)), xt_test_failed __attribute__((unused)),
	xt_test_skipped __attribute__((unused));
static int xt_test_skip_current __attribute__((unused));

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__,   \
				__LINE__, #cond);                              \
			xt_test_failed_checks++;                               \
		}                                                              \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                     \
	do {                                                                   \
		long long xt_a_ = (long long)(a), xt_b_ = (long long)(b);      \
		if (xt_a_ != xt_b_) {                                          \
			fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld vs %lld)\n", \
				__FILE__, __LINE__, #a, #b, xt_a_, xt_b_);     \
			xt_test_failed_checks++;                               \
		}                                                              \
	} while (0)

#define CHECK_EQ_STR(a, b)                                                     \
	do {                                                                   \
		const char *xt_a_ = (a), *xt_b_ = (b);                         \
		if (!xt_a_ || !xt_b_ || strcmp(xt_a_, xt_b_)) {                \
			fprintf(stderr, "%s:%d: CHECK failed: %s == %s (\"%s\" vs \"%s\")\n", \
				__FILE__, __LINE__, #a, #b,                    \
				xt_a_ ? xt_a_ : "(null)", xt_b_ ? xt_b_ : "(null)"); \
			xt_test_failed_checks++;                               \
		}                                                              \
	} while (0)

/* Marks the running test skipped (with a reason) and returns from it. */
#define XT_SKIP(reason)                                                        \
	do {                                                                   \
		fprintf(stderr, "skipped: %s\n", reason);                      \
		xt_test_skip_current = 1;                                      \
		return;                                                        \
	} while (0)

#define XT_RUN(fn)                                                             \
	do {                                                                   \
		xt_test_failed_checks = 0;                                     \
		xt_test_skip_current = 0;                                      \
		fn();                                                          \
		if (xt_test_skip_current) {                                    \
			xt_test_skipped++;                                     \
			printf("SKIP %s\n", #fn);                              \
		} else if (xt_test_failed_checks) {                            \
			xt_test_failed++;                                      \
			printf("FAIL %s\n", #fn);                              \
		} else {                                                       \
			xt_test_passed++;                                      \
			printf("ok   %s\n", #fn);                              \
		}                                                              \
		fflush(stdout);                                                \
	} while (0)

#define XT_TEST_MAIN_END()                                                     \
	do {                                                                   \
		printf("%d passed, %d failed", xt_test_passed, xt_test_failed); \
		if (xt_test_skipped)                                           \
			printf(", %d skipped", xt_test_skipped);               \
		printf("\n");                                                  \
		if (xt_test_failed)                                            \
			return 1;                                              \
		return xt_test_passed ? 0 : 77;                                \
	} while (0)

#endif
