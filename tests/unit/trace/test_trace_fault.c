/*
 * test_trace_fault.c - every allocation and I/O failure inside the trace
 * module is reported cleanly: the n-th allocation (I/O call) is made to
 * fail for n = 1, 2, 3 ... until the operation succeeds (SQLite's habit).
 * Leaks are LeakSanitizer's to find; this file checks the codes and that
 * nothing half-done is left behind.
 */
#include <dirent.h>

#include "trace_test_util.h"
#include "xt_fault.h"

/* Reads and decodes all of `path`; returns the first failure or EOF. */
static enum xt_rc read_decode_all(const char *path, size_t *n)
{
	return tu_read_all(path, n);
}

static void walk_reader(const char *path, enum xt_fault_kind kind, enum xt_rc expect)
{
	size_t want, n;
	unsigned long i;
	int ok = 1;
	CHECK_EQ_INT(read_decode_all(path, &want), XT_ERR_EOF);
	for (i = 1; i < 10000; i++) {
		xt_fault_arm(kind, i);
		enum xt_rc rc = read_decode_all(path, &n);
		int fired = xt_fault_fired(kind);
		xt_fault_arm(kind, 0);
		if (!fired) {
			ok &= rc == XT_ERR_EOF && n == want;
			break;
		}
		if (rc != expect)
			fprintf(stderr, "fault %lu: %s\n", i, xt_rc_name(rc));
		ok &= rc == expect;
	}
	CHECK(ok);
	CHECK(i > 1 && i < 10000);
	printf("  %lu faults walked reading %s\n", i - 1, strrchr(path, '/') + 1);
}

static void test_reader_reports_every_allocation_failure(void)
{
	const char *spool = tu_path("f.spool"), *packed = tu_path("f.xfbt");
	struct xt_err err;
	CHECK_EQ_INT(tu_write_sample_spool(spool, 300), 0);
	CHECK_EQ_INT(trace_compact(spool, packed, &err), XT_OK);
	walk_reader(spool, XT_FAULT_ALLOC, XT_ERR_NOMEM);
	walk_reader(packed, XT_FAULT_ALLOC, XT_ERR_NOMEM);
}

static void test_reader_reports_every_io_failure(void)
{
	const char *spool = tu_path("f.spool"), *packed = tu_path("f.xfbt");
	walk_reader(spool, XT_FAULT_IO, XT_ERR_IO);
	walk_reader(packed, XT_FAULT_IO, XT_ERR_IO);
}

static int dir_entries(void)
{
	DIR *d = opendir(tu_dir);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void walk_compaction(enum xt_fault_kind kind, enum xt_rc expect)
{
	const char *spool = tu_path("c.spool"), *out = tu_path("c.xfbt");
	struct xt_err err;
	unsigned long i;
	int ok = 1;
	CHECK_EQ_INT(tu_write_sample_spool(spool, 300), 0);
	unlink(out);
	int before = dir_entries();
	for (i = 1; i < 10000; i++) {
		xt_fault_arm(kind, i);
		enum xt_rc rc = trace_compact(spool, out, &err);
		int fired = xt_fault_fired(kind);
		xt_fault_arm(kind, 0);
		if (!fired) {
			ok &= rc == XT_OK;
			break;
		}
		if (rc != expect)
			fprintf(stderr, "%s fault %lu: %s\n", kind == XT_FAULT_IO ? "io" : "alloc", i,
				xt_err_msg(&err));
		ok &= rc == expect && !tu_exists(out) && dir_entries() == before;
	}
	CHECK(ok);
	CHECK(i > 2 && i < 10000);
	printf("  %lu faults walked compacting\n", i - 1);
	size_t n;
	CHECK_EQ_INT(tu_read_all(out, &n), XT_ERR_EOF);
}

static void test_compaction_reports_every_allocation_failure(void)
{
	walk_compaction(XT_FAULT_ALLOC, XT_ERR_NOMEM);
}

static void test_compaction_reports_every_io_failure(void)
{
	walk_compaction(XT_FAULT_IO, XT_ERR_IO);
}

/*
 * Opens a spool, two streams, writes 80 records across region boundaries.
 * Without the compressor thread, so that writers (and close) pack regions
 * themselves and every fault hits the same event in every run.
 */
static enum xt_rc spool_session(const char *path, struct xt_err *err)
{
	struct trace_spool *s;
	struct trace_spool_tuning tune = { .no_thread = 1 };
	enum xt_rc rc = trace_spool_open(&s, path, 1, err);
	if (rc != XT_OK)
		return rc;
	rc = trace_spool_tune(s, &tune);
	struct trace_spool_stream *a = trace_spool_stream_open(s, 0);
	struct trace_spool_stream *b = a ? trace_spool_stream_open(s, 1) : NULL;
	int bad = !a || !b || rc != XT_OK;
	for (uint64_t i = 0; i < 40 && !bad; i++) {
		bad |= tu_put_call(i % 2 ? b : a, (uint32_t)(i % 2), 0, i < 2, i, "x");
		bad |= tu_put_observation(i % 2 ? b : a, i, TRACE_SPOOL_REGION_BYTES / 8);
	}
	if (bad) {
		trace_spool_last_error(s, err);
		rc = err->rc;
	}
	trace_spool_stream_close(a);
	trace_spool_stream_close(b);
	trace_spool_close(s);
	return rc;
}

/*
 * A fault a writer sees fails its reserve (rc == expect); a fault in
 * packing (by a writer or by close) is recorded but costs no record: the
 * region stays in the file as it was, so all 80 records read back.
 */
static void walk_spool(enum xt_fault_kind kind, enum xt_rc expect)
{
	const char *path = tu_path("w.spool");
	struct xt_err err;
	unsigned long i, packing_faults = 0;
	int ok = 1;
	size_t n;
	for (i = 1; i < 1000; i++) {
		xt_fault_arm(kind, i);
		enum xt_rc rc = spool_session(path, &err);
		int fired = xt_fault_fired(kind);
		xt_fault_arm(kind, 0);
		if (!fired) {
			ok &= rc == XT_OK;
			ok &= tu_read_all(path, &n) == XT_ERR_EOF && n == 80;
			break;
		}
		if (rc == XT_OK) {
			packing_faults++;
			ok &= tu_read_all(path, &n) == XT_ERR_EOF && n == 80;
			if (n != 80)
				fprintf(stderr, "fault %lu in packing lost records: %zu of 80\n", i, n);
			continue;
		}
		if (rc != expect)
			fprintf(stderr, "fault %lu: %s (%s)\n", i, xt_rc_name(rc), xt_err_msg(&err));
		ok &= rc == expect;
		/* Whatever was written before the failure is a readable spool. */
		if (tu_exists(path))
			ok &= tu_read_all(path, &n) == XT_ERR_EOF;
	}
	CHECK(ok);
	CHECK(i > 1 && i < 1000);
	CHECK(packing_faults > 0);
	printf("  %lu faults walked writing (%lu in packing)\n", i - 1, packing_faults);
}

static void test_spool_writer_reports_every_allocation_failure(void)
{
	walk_spool(XT_FAULT_ALLOC, XT_ERR_NOMEM);
}

static void test_spool_writer_reports_every_io_failure(void)
{
	walk_spool(XT_FAULT_IO, XT_ERR_IO);
}

int main(void)
{
	XT_RUN(test_reader_reports_every_allocation_failure);
	XT_RUN(test_reader_reports_every_io_failure);
	XT_RUN(test_compaction_reports_every_allocation_failure);
	XT_RUN(test_compaction_reports_every_io_failure);
	XT_RUN(test_spool_writer_reports_every_allocation_failure);
	XT_RUN(test_spool_writer_reports_every_io_failure);
	tu_cleanup();
	XT_TEST_MAIN_END();
}
