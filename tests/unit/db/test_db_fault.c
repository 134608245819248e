/*
 * test_db_fault.c - every allocation failure while opening a database,
 * recording a trace, writing a run and diffing two runs is reported
 * cleanly and leaves the database consistent: the n-th allocation is made
 * to fail for n = 1, 2, 3 ... until the operation succeeds (SQLite's habit).
 * SQLite's own allocator is routed through the same fault counter, so its
 * out-of-memory paths are walked too; so are the trace reader's I/O faults
 * while a trace is recorded.
 *
 * After each failure: PRAGMA integrity_check says ok, and there is no
 * partial golden run (the golden run is written in one transaction).
 */
#include <inttypes.h>

#include "db_test_util.h"
#include "xt_test.h"
#include "diff.h"
#include "xt_fault.h"

static sqlite3_mem_methods real_mem;

static void *fault_malloc(int n)
{
	return xt_fault_hit(XT_FAULT_ALLOC) ? NULL : real_mem.xMalloc(n);
}

static void *fault_realloc(void *p, int n)
{
	return xt_fault_hit(XT_FAULT_ALLOC) ? NULL : real_mem.xRealloc(p, n);
}

static void route_sqlite_allocations(void)
{
	sqlite3_mem_methods m;
	sqlite3_config(SQLITE_CONFIG_GETMALLOC, &real_mem);
	m = real_mem;
	m.xMalloc = fault_malloc;
	m.xRealloc = fault_realloc;
	if (sqlite3_config(SQLITE_CONFIG_MALLOC, &m) != SQLITE_OK)
		fprintf(stderr, "could not route SQLite's allocations\n");
}

enum phase { PHASE_OPEN, PHASE_RECORD, PHASE_RUN, PHASE_DIFF };

static const char *db_path;
static const char *trace_path;
static int64_t golden_id, run_id;

static enum xt_rc nop_cb(const struct diff_obs *d, void *ctx)
{
	(void)d;
	++*(int *)ctx;
	return XT_OK;
}

/* Brings the database to the state before `phase`, faults disarmed. */
static void prepare(enum phase phase)
{
	struct db *db;
	struct xt_err err;
	struct db_trace_ref ref;
	dtu_rm_db(db_path);
	if (phase == PHASE_OPEN)
		return;
	CHECK_EQ_INT(db_open(&db, db_path, DB_OPEN_CREATE, &err), XT_OK);
	if (phase >= PHASE_RUN) {
		CHECK_EQ_INT(db_trace_record(db, trace_path, NULL, &ref), XT_OK);
		golden_id = ref.golden_run_id;
	}
	if (phase >= PHASE_DIFF) {
		struct db_run *run;
		struct db_run_desc d = { .trace_id = ref.trace_id, .backend = "host", .revision = "r" };
		static float data[256];
		dtu_fill(data, 256, 9);
		struct db_obs o = { .call_no = 1, .kind = "tf_buffer", .primitive_mode = "GL_POINTS",
				    .fields_json = "{\"after\":\"end\",\"buffer\":7,\"offset\":0,\"size\":1024}",
				    .layout_json = "{\"mode\":\"GL_INTERLEAVED_ATTRIBS\","
						   "\"strides\":[16],\"varyings\":[{\"name\":\"pos\",\"type\":"
						   "\"GL_FLOAT_VEC4\",\"size\":1,\"buffer\":0,\"offset\":0}]}",
				    .data = data, .data_bytes = sizeof data };
		CHECK_EQ_INT(db_run_begin(db, &d, &run), XT_OK);
		CHECK_EQ_INT(db_run_add_observation(run, &o), XT_OK);
		run_id = db_run_id(run);
		CHECK_EQ_INT(db_run_finish(run, DB_RUN_OK, NULL), XT_OK);
	}
	db_close(db);
}

/* The operation of `phase`; its result code. */
static enum xt_rc operate(enum phase phase)
{
	struct db *db;
	struct xt_err err;
	struct db_trace_ref ref;
	enum xt_rc rc = db_open(&db, db_path, DB_OPEN_CREATE, &err);
	if (rc)
		return rc;
	switch (phase) {
	case PHASE_OPEN:
		break;
	case PHASE_RECORD:
		rc = db_trace_record(db, trace_path, "L", &ref);
		break;
	case PHASE_RUN: {
		struct db_run *run;
		struct db_run_desc d = { .trace_id = 1, .backend = "host", .revision = "r" };
		static float data[512];
		dtu_fill(data, 512, 3);
		struct db_obs o = { .call_no = 1, .kind = "tf_buffer", .fields_json = "{}",
				    .layout_json = "{\"strides\":[16]}", .data = data,
				    .data_bytes = sizeof data };
		rc = db_run_begin(db, &d, &run);
		for (int i = 0; i < 3 && !rc; i++) {
			o.call_no = 1 + i;
			rc = db_run_add_observation(run, &o);
		}
		if (!rc)
			rc = db_run_finish(run, DB_RUN_OK, "done");
		else if (run)
			db_run_abandon(run);
		break;
	}
	case PHASE_DIFF: {
		xt_err_clear(&err);
		struct diff_options o = { .max_items = 4, .no_hash_shortcut = true };
		struct diff_summary sum;
		int n = 0;
		rc = diff_runs(db, golden_id, run_id, &o, nop_cb, &n, &sum, &err);
		if (!rc && (sum.components_differ == 0 || n == 0))
			rc = XT_ERR_INTERNAL;
		break;
	}
	}
	if (rc && rc != XT_ERR_NOMEM && rc != XT_ERR_IO)
		fprintf(stderr, "%s\n", err.rc ? xt_err_msg(&err) : xt_err_msg(db_err(db)));
	db_close(db);
	return rc;
}

/* The database is intact and holds no partial golden run. */
static bool consistent(void)
{
	char text[64];
	if (access(db_path, F_OK) != 0)
		return true;
	if (strcmp(dtu_sql_text(db_path, "PRAGMA integrity_check", text, sizeof text), "ok")) {
		fprintf(stderr, "integrity_check: %s\n", text);
		return false;
	}
	long long bad = dtu_sql_int(db_path,
		"SELECT count(*) FROM runs r WHERE r.golden AND (r.status != 'ok' OR r.observations !="
		" (SELECT count(*) FROM observations o WHERE o.run_id = r.id))");
	return bad <= 0;
}

static void walk(enum phase phase, enum xt_fault_kind kind, const char *what)
{
	unsigned long n;
	int ok = 1, failures = 0;
	for (n = 1; n < 100000; n++) {
		prepare(phase);
		xt_fault_arm(kind, n);
		enum xt_rc rc = operate(phase);
		bool fired = xt_fault_fired(kind);
		xt_fault_arm(kind, 0);
		if (!fired) {
			if (rc != XT_OK)
				fprintf(stderr, "%s: unfaulted run failed: %s\n", what, xt_rc_name(rc));
			ok &= rc == XT_OK;
			break;
		}
		bool expected = kind == XT_FAULT_ALLOC ? rc == XT_ERR_NOMEM : rc == XT_ERR_IO;
		/* SQLite absorbs some allocation failures (it retries or does
		 * without a cache): then the operation succeeds, as it may. */
		if (!expected && rc != XT_OK) {
			fprintf(stderr, "%s: fault %lu gave %s\n", what, n, xt_rc_name(rc));
			ok = 0;
		}
		failures += rc != XT_OK;
		if (!consistent()) {
			fprintf(stderr, "%s: fault %lu left the database inconsistent\n", what, n);
			ok = 0;
		}
	}
	CHECK(ok);
	CHECK(n > 1 && n < 100000);
	CHECK(failures > 0);
	printf("  %s: %lu faults walked, %d reported\n", what, n - 1, failures);
}

static void test_open_reports_every_allocation_failure(void)
{
	walk(PHASE_OPEN, XT_FAULT_ALLOC, "open");
}

static void test_trace_record_reports_every_allocation_failure(void)
{
	walk(PHASE_RECORD, XT_FAULT_ALLOC, "record");
}

static void test_trace_record_reports_every_io_failure(void)
{
	walk(PHASE_RECORD, XT_FAULT_IO, "record (I/O)");
}

static void test_run_writing_reports_every_allocation_failure(void)
{
	walk(PHASE_RUN, XT_FAULT_ALLOC, "run");
}

static void test_diff_reports_every_allocation_failure(void)
{
	walk(PHASE_DIFF, XT_FAULT_ALLOC, "diff");
}

int main(void)
{
	route_sqlite_allocations();
	/* Thousands of databases are created: on tmpfs their fsyncs are free. */
	if (!getenv("TMPDIR") && access("/dev/shm", W_OK) == 0)
		setenv("TMPDIR", "/dev/shm", 1);
	db_path = strdup(dtu_path("fault.db"));
	trace_path = strdup(dtu_path("fault.xfbt"));
	if (dtu_write_trace(trace_path, 2, 1024)) {
		fprintf(stderr, "could not write the test trace\n");
		return 1;
	}
	XT_RUN(test_open_reports_every_allocation_failure);
	XT_RUN(test_trace_record_reports_every_allocation_failure);
	XT_RUN(test_trace_record_reports_every_io_failure);
	XT_RUN(test_run_writing_reports_every_allocation_failure);
	XT_RUN(test_diff_reports_every_allocation_failure);
	dtu_cleanup();
	XT_TEST_MAIN_END();
}
