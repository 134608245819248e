/*
 * spool_reserve.c - the capture's hot path: trace_spool_reserve +
 * trace_spool_commit of a small CALL record (8 payload bytes, 24 with the
 * record header), one thread, page faults of fresh regions included, against
 * a yardstick measured in the same run: appending the same 24 bytes with
 * memcpy to a fresh malloc'ed buffer of the same total size.
 *
 * It used to be a "test" in tests/unit/trace/test_trace_spool.c that only
 * printed its number; it is a benchmark now (`meson test --benchmark
 * spool-reserve`, or run it).  The records are read back afterwards, and a
 * count that does not match fails the run, so the number is of a spool
 * that worked.
 *
 * Output: ns per record of the spool and of memcpy, and their ratio.
 * Usage: spool-reserve-bench [records]   (default 2 000 000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "trace_enc.h"
#include "trace_reader.h"
#include "trace_spool.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Reserve + commit of n records; seconds, or < 0 on failure. */
static double spool_run(const char *path, unsigned n)
{
	struct trace_spool *s;
	struct xt_err err;
	double t0, t1;

	if (trace_spool_open(&s, path, 1, &err) != XT_OK) {
		fprintf(stderr, "trace_spool_open: %s\n", xt_err_msg(&err));
		return -1;
	}
	struct trace_spool_stream *st = trace_spool_stream_open(s, 0);
	if (!st) {
		trace_spool_close(s);
		return -1;
	}
	t0 = now_s();
	for (unsigned i = 0; i < n; i++) {
		uint8_t *p = trace_spool_reserve(st, 64);
		if (!p) {
			fprintf(stderr, "reserve failed at record %u\n", i);
			break;
		}
		p = trace_enc_u32(p, 7);
		p = trace_enc_u32(p, 0);
		trace_spool_commit(st, TRACE_REC_CALL, TRACE_RECF_ATTACHED, i, 8);
	}
	t1 = now_s();
	trace_spool_stream_close(st);
	trace_spool_close(s);
	return t1 - t0;
}

/* Records in `path`, or -1 when the reader fails before its end. */
static long long count_records(const char *path)
{
	struct trace_reader *r;
	struct trace_record rec;
	struct xt_err err;
	long long n = 0;
	enum xt_rc rc;

	if (trace_reader_open(&r, path, &err) != XT_OK) {
		fprintf(stderr, "trace_reader_open: %s\n", xt_err_msg(&err));
		return -1;
	}
	while ((rc = trace_reader_next(r, &rec)) == XT_OK)
		n++;
	if (rc != XT_ERR_EOF) {
		fprintf(stderr, "read: %s\n", xt_err_msg(trace_reader_err(r)));
		n = -1;
	}
	trace_reader_close(r);
	return n;
}

static double memcpy_run(unsigned n, unsigned char *sink)
{
	static const unsigned char rec[24] = { 1, 0, 0, 0, 8, 0, 0, 0, 7, 0, 0, 0 };
	unsigned char *buf = malloc((size_t)n * sizeof rec);
	double t0, t1;

	if (!buf)
		return -1;
	t0 = now_s();
	for (unsigned i = 0; i < n; i++) {
		memcpy(buf + (size_t)i * sizeof rec, rec, sizeof rec);
		buf[(size_t)i * sizeof rec + 16] = (unsigned char)i;
	}
	t1 = now_s();
	*sink = buf[(size_t)(n - 1) * sizeof rec + 16];
	free(buf);
	return t1 - t0;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 2000000u;
	const char *tmp = getenv("TMPDIR");
	char path[512];
	unsigned char sink = 0;

	if (n == 0) {
		fprintf(stderr, "usage: spool-reserve-bench [records]\n");
		return 2;
	}
	snprintf(path, sizeof path, "%s/xfbtrace-spool-bench-%ld.xfbt", tmp ? tmp : "/tmp", (long)getpid());
	double spool_s = spool_run(path, n);
	long long back = spool_s >= 0 ? count_records(path) : -1;
	unlink(path);
	double copy_s = memcpy_run(n, &sink);
	if (spool_s < 0 || copy_s < 0 || back != (long long)n) {
		fprintf(stderr, "spool-reserve: %lld of %u records read back\n", back, n);
		return 1;
	}
	printf("records                 %u (24 bytes each)\n", n);
	printf("spool reserve+commit    %.1f ns per record (page faults included)\n", spool_s * 1e9 / n);
	printf("memcpy yardstick        %.1f ns per record (page faults included, sink %u)\n", copy_s * 1e9 / n,
	       sink);
	printf("ratio spool / memcpy    %.2f\n", spool_s / copy_s);
	return 0;
}
