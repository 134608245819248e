/*
 * apitrace_read.c - how fast xfbtrace reads an apitrace trace, against
 * `apitrace dump` on the same file (docs/performance.md, "Reading apitrace
 * traces").
 *
 * Usage: apitrace-read TRACE [RUNS]
 *
 * TRACE should hold at least a million calls; one written by real apitrace
 * is made with
 *     apitrace trace --api egl -o big.trace build/tests/capture/cap-bench 1
 * (2.2 M calls, 21 MB).  Three timings, best of RUNS (default 3), wall
 * clock and CPU time:
 *   read     trace_apitrace_next() over every call (parse + pairing)
 *   convert  trace_apitrace_convert() into a sink that drops the records
 *            (what import-apitrace does before writing)
 *   apitrace `apitrace dump --color=never TRACE > /dev/null`, the
 *            yardstick: its parser plus text formatting, as users run it
 * and the ratios apitrace / read and apitrace / convert.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace_apitrace.h"
#include "trace_apitrace_import.h"

struct timing {
	double wall_s, cpu_s;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_s(int who)
{
	struct rusage ru;
	getrusage(who, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static int read_all(const char *path, uint64_t *calls)
{
	struct trace_apitrace *r;
	struct trace_at_call c;
	struct xt_err err;
	enum xt_rc rc;

	if (trace_apitrace_open(&r, path, &err)) {
		fprintf(stderr, "%s: %s\n", path, xt_err_msg(&err));
		return -1;
	}
	*calls = 0;
	while ((rc = trace_apitrace_next(r, &c)) == XT_OK)
		++*calls;
	if (rc != XT_ERR_EOF)
		fprintf(stderr, "%s: %s\n", path, xt_err_msg(trace_apitrace_err(r)));
	trace_apitrace_close(r);
	return rc == XT_ERR_EOF ? 0 : -1;
}

static enum xt_rc drop(void *ctx, uint16_t type, uint16_t flags, uint64_t seq,
		       const uint8_t *payload, size_t n, struct xt_err *err)
{
	*(uint64_t *)ctx += n;
	return XT_OK;
}

static int convert_all(const char *path, uint64_t *bytes)
{
	struct trace_at_import_result res = { 0 };
	struct xt_err err;
	enum xt_rc rc;

	*bytes = 0;
	rc = trace_apitrace_convert(path, drop, bytes, &res, &err);
	trace_at_import_result_fini(&res);
	if (rc)
		fprintf(stderr, "%s: %s\n", path, xt_err_msg(&err));
	return rc ? -1 : 0;
}

static int apitrace_dump(const char *path)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execlp("apitrace", "apitrace", "dump", "--color=never", path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct timing best[3] = { { 1e30, 1e30 }, { 1e30, 1e30 }, { 1e30, 1e30 } };
	uint64_t calls = 0, bytes = 0;
	int runs = argc > 2 ? atoi(argv[2]) : 3;

	if (argc < 2) {
		fprintf(stderr, "usage: apitrace-read TRACE [RUNS]\n");
		return 2;
	}
	for (int i = 0; i < runs; i++) {
		for (int k = 0; k < 3; k++) {
			double w = now_s();
			double c = cpu_s(k == 2 ? RUSAGE_CHILDREN : RUSAGE_SELF);
			int rc = k == 0 ? read_all(argv[1], &calls)
				 : k == 1 ? convert_all(argv[1], &bytes) : apitrace_dump(argv[1]);
			if (rc) {
				fprintf(stderr, "run %d, timing %d failed\n", i, k);
				return 1;
			}
			w = now_s() - w;
			c = cpu_s(k == 2 ? RUSAGE_CHILDREN : RUSAGE_SELF) - c;
			if (w < best[k].wall_s)
				best[k].wall_s = w;
			if (c < best[k].cpu_s)
				best[k].cpu_s = c;
		}
	}
	printf("%llu calls, %llu bytes of xfbtrace records\n", (unsigned long long)calls,
	       (unsigned long long)bytes);
	const char *names[] = { "read", "convert", "apitrace" };
	for (int k = 0; k < 3; k++)
		printf("%-9s %7.3f s wall %7.3f s cpu  %6.0f ns/call (cpu)\n", names[k],
		       best[k].wall_s, best[k].cpu_s, best[k].cpu_s * 1e9 / (double)calls);
	printf("ratio apitrace/read    %.1fx wall, %.1fx cpu\n", best[2].wall_s / best[0].wall_s,
	       best[2].cpu_s / best[0].cpu_s);
	printf("ratio apitrace/convert %.1fx wall, %.1fx cpu\n", best[2].wall_s / best[1].wall_s,
	       best[2].cpu_s / best[1].cpu_s);
	return 0;
}
