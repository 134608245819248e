/*
 * test_db.c - the results database: opening and migrating, recording
 * traces and golden runs, writing runs, the content-addressed blob store,
 * and hostile rows (edited behind the library's back) that must give
 * XT_ERR_CORRUPT with a message, never a crash or a wrong answer.
 */
#include <inttypes.h>

#include "db_test_util.h"
#include "xt_test.h"
#include "trace_reader.h"
#include "xt_hash.h"

static struct db *open_fresh(const char *name)
{
	struct db *db = NULL;
	struct xt_err err;
	const char *path = dtu_path(name);
	dtu_rm_db(path);
	if (db_open(&db, path, DB_OPEN_CREATE, &err))
		fprintf(stderr, "db_open: %s\n", xt_err_msg(&err));
	return db;
}

/* A db with the synthetic trace (nobs observations) recorded. */
static struct db *open_with_trace(const char *name, unsigned nobs, struct db_trace_ref *ref)
{
	struct db *db = open_fresh(name);
	const char *trace = dtu_path("synthetic.xfbt");
	CHECK(db != NULL);
	CHECK_EQ_INT(dtu_write_trace(trace, nobs, 4096), 0);
	if (db && db_trace_record(db, trace, "golden-label", ref))
		fprintf(stderr, "db_trace_record: %s\n", xt_err_msg(db_err(db)));
	return db;
}

static void test_open_creates_schema_in_wal_mode(void)
{
	struct db *db = open_fresh("a.db");
	const char *path = dtu_path("a.db");
	char mode[32];
	CHECK(db != NULL);
	CHECK_EQ_INT(dtu_sql_int(path, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	CHECK_EQ_INT(dtu_sql_int(path, "PRAGMA application_id"), DB_APPLICATION_ID);
	CHECK_EQ_STR(dtu_sql_text(path, "PRAGMA journal_mode", mode, sizeof mode), "wal");
	CHECK_EQ_INT(dtu_sql_int(path, "SELECT count(*) FROM sqlite_schema WHERE name IN"
				 " ('traces','runs','observations','blobs','layouts')"), 5);
	/* Opening again migrates nothing and keeps the data. */
	struct db_trace_ref ref;
	struct xt_err err;
	int64_t id = 0;
	CHECK_EQ_INT(dtu_write_trace(dtu_path("keep.xfbt"), 2, 64), 0);
	CHECK_EQ_INT(db_trace_record(db, dtu_path("keep.xfbt"), "kept", &ref), XT_OK);
	db_close(db);
	db = NULL;
	CHECK_EQ_INT(db_open(&db, path, DB_OPEN_EXISTING, &err), XT_OK);
	CHECK(db != NULL);
	if (db) {
		CHECK_EQ_INT(db_trace_lookup(db, "1", &id), XT_OK);
		CHECK_EQ_INT(id, ref.trace_id);
		db_close(db);
	}
	CHECK_EQ_INT(dtu_sql_int(path, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	CHECK_EQ_INT(dtu_sql_int(path, "SELECT count(*) FROM runs WHERE label = 'kept'"), 1);
	CHECK_EQ_INT(dtu_sql_int(path, "SELECT count(*) FROM observations"), 4);
}

static void test_open_rejects_a_file_that_is_not_sqlite(void)
{
	const char *path = dtu_path("not.db");
	FILE *f = fopen(path, "wb");
	struct db *db = (struct db *)1;
	struct xt_err err;
	for (int i = 0; i < 200; i++)
		fputs("this is not an SQLite database\n", f);
	fclose(f);
	CHECK_EQ_INT(db_open(&db, path, DB_OPEN_CREATE, &err), XT_ERR_CORRUPT);
	CHECK(db == NULL);
	CHECK(strstr(err.msg, "not a database") != NULL);
}

static void test_open_rejects_another_applications_database(void)
{
	const char *path = dtu_path("other.db");
	struct db *db;
	struct xt_err err;
	dtu_rm_db(path);
	CHECK_EQ_INT(dtu_sql(path, "CREATE TABLE songs (title TEXT)"), 0);
	CHECK_EQ_INT(db_open(&db, path, DB_OPEN_CREATE, &err), XT_ERR_INVALID);
	CHECK(strstr(err.msg, "not an xfbtrace results database") != NULL);
	CHECK_EQ_INT(dtu_sql_int(path, "SELECT count(*) FROM sqlite_schema"), 1);
}

static void test_open_rejects_a_newer_schema(void)
{
	const char *path = dtu_path("new.db");
	struct db *db = open_fresh("new.db");
	struct xt_err err;
	db_close(db);
	CHECK_EQ_INT(dtu_sql(path, "PRAGMA user_version=99"), 0);
	CHECK_EQ_INT(db_open(&db, path, DB_OPEN_EXISTING, &err), XT_ERR_VERSION);
	CHECK(strstr(err.msg, "version 99") != NULL);
}

static void test_open_existing_reports_a_missing_file(void)
{
	struct db *db;
	struct xt_err err;
	CHECK_EQ_INT(db_open(&db, dtu_path("missing.db"), DB_OPEN_EXISTING, &err), XT_ERR_NOT_FOUND);
	CHECK(access(dtu_path("missing.db"), F_OK) != 0);
}

static void test_trace_record_writes_the_golden_run_once(void)
{
	struct db_trace_ref ref, again;
	struct db *db = open_with_trace("g.db", 5, &ref);
	const char *path = dtu_path("g.db");
	CHECK(ref.created);
	CHECK(ref.trace_id > 0 && ref.golden_run_id > 0);
	CHECK_EQ_INT(db_trace_record(db, dtu_path("synthetic.xfbt"), NULL, &again), XT_OK);
	CHECK(!again.created);
	CHECK_EQ_INT(again.trace_id, ref.trace_id);
	CHECK_EQ_INT(again.golden_run_id, ref.golden_run_id);
	CHECK_EQ_STR(again.hash, ref.hash);
	db_close(db);

	char text[256];
	CHECK_EQ_INT(dtu_sql_int(path, "SELECT count(*) FROM runs"), 1);
	CHECK_EQ_INT(dtu_sql_int(path, "SELECT observations FROM runs"), 10);
	CHECK_EQ_INT(dtu_sql_int(path, "SELECT data_bytes FROM runs"), 5 * 4096);
	CHECK_EQ_INT(dtu_sql_int(path, "SELECT count(*) FROM observations"), 10);
	CHECK_EQ_STR(dtu_sql_text(path, "SELECT status || ' ' || backend || ' ' || revision || ' ' ||"
				  " gl_renderer || ' ' || label FROM runs", text, sizeof text),
		     "ok capture test-rev test renderer golden-label");
	CHECK_EQ_STR(dtu_sql_text(path, "SELECT program FROM traces", text, sizeof text),
		     "dtu-synthetic");
	/* Fields keep the trace's keys, enums by name; layout and kind apart. */
	CHECK_EQ_STR(dtu_sql_text(path, "SELECT fields FROM observations WHERE kind = 'query'"
				  " AND call_no = 2", text, sizeof text),
		     "{\"function\":\"glGetQueryObjectuiv\",\"query\":1,\"pname\":\"GL_QUERY_RESULT\","
		     "\"result\":5}");
	CHECK_EQ_STR(dtu_sql_text(path, "SELECT function || ' ' || primitive_mode || ' ' || fields"
				  " FROM observations WHERE call_no = 1", text, sizeof text),
		     "glEndTransformFeedback GL_POINTS {\"after\":\"end\",\"buffer\":7,\"offset\":0,"
		     "\"size\":4096}");
	CHECK_EQ_STR(dtu_sql_text(path, "SELECT json FROM layouts", text, sizeof text),
		     "{\"program\":3,\"mode\":\"GL_INTERLEAVED_ATTRIBS\","
		     "\"strides\":[16],\"varyings\":[{\"name\":\"pos\",\"type\":\"GL_FLOAT_VEC4\","
		     "\"size\":1,\"buffer\":0,\"offset\":0}]}");
}

static void test_spool_and_compacted_forms_are_one_trace(void)
{
	struct db_trace_ref ref, packed;
	struct db *db = open_with_trace("forms.db", 3, &ref);
	const char *compacted = dtu_path("synthetic-packed.xfbt");
	struct xt_err err;
	CHECK_EQ_INT(trace_compact(dtu_path("synthetic.xfbt"), compacted, &err), XT_OK);
	CHECK_EQ_INT(db_trace_record(db, compacted, NULL, &packed), XT_OK);
	CHECK(!packed.created);
	CHECK_EQ_STR(packed.hash, ref.hash);
	db_close(db);
}

static void test_trace_record_refuses_a_corrupt_trace_and_writes_nothing(void)
{
	struct db *db = open_fresh("corrupt.db");
	const char *spool = dtu_path("c.spool"), *packed = dtu_path("c.xfbt");
	struct db_trace_ref ref;
	struct xt_err err;
	CHECK_EQ_INT(dtu_write_trace(spool, 4, 4096), 0);
	CHECK_EQ_INT(trace_compact(spool, packed, &err), XT_OK);
	CHECK_EQ_INT(truncate(packed, 3000), 0);
	CHECK_EQ_INT(db_trace_record(db, packed, NULL, &ref), XT_ERR_CORRUPT);
	CHECK(!ref.created);
	db_close(db);
	CHECK_EQ_INT(dtu_sql_int(dtu_path("corrupt.db"), "SELECT count(*) FROM traces"), 0);
	CHECK_EQ_INT(dtu_sql_int(dtu_path("corrupt.db"), "SELECT count(*) FROM runs"), 0);
}

static struct db_obs tf_obs(uint64_t call, uint32_t index, const void *data, size_t n)
{
	return (struct db_obs){ .call_no = call, .kind = "tf_buffer", .index = index,
				.function = "glEndTransformFeedback", .fields_json = "{\"after\":\"end\"}",
				.layout_json = "{\"strides\":[16],\"varyings\":[]}", .data = data,
				.data_bytes = n };
}

static void test_identical_data_is_stored_once_across_runs(void)
{
	struct db_trace_ref ref;
	struct db *db = open_with_trace("dedup.db", 2, &ref);
	const char *path = dtu_path("dedup.db");
	static float data[8192];
	long long blobs0 = dtu_sql_int(path, "SELECT count(*) FROM blobs");
	long long bytes0 = dtu_sql_int(path, "SELECT sum(length(data)) FROM blobs");
	dtu_fill(data, 8192, 42);
	for (int r = 0; r < 3; r++) {
		struct db_run *run;
		struct db_run_desc d = { .trace_id = ref.trace_id, .backend = "host", .revision = "r" };
		CHECK_EQ_INT(db_run_begin(db, &d, &run), XT_OK);
		struct db_obs o = tf_obs(1, 0, data, sizeof data);
		CHECK_EQ_INT(db_run_add_observation(run, &o), XT_OK);
		CHECK_EQ_INT(db_run_finish(run, DB_RUN_OK, NULL), XT_OK);
	}
	db_close(db);
	CHECK_EQ_INT(dtu_sql_int(path, "SELECT count(*) FROM blobs"), blobs0 + 1);
	CHECK_EQ_INT(dtu_sql_int(path, "SELECT count(*) FROM layouts"), 2);
	/* The vec4 pattern compresses: stored smaller than raw. */
	long long stored = dtu_sql_int(path, "SELECT sum(length(data)) FROM blobs") - bytes0;
	CHECK(stored > 0 && stored < (long long)sizeof data / 4);
	CHECK_EQ_INT(dtu_sql_int(path, "SELECT count(*) FROM blobs WHERE codec = 'zstd'"), blobs0 + 1);
}

static void test_blobs_round_trip_compressed_raw_and_empty(void)
{
	struct db *db = open_fresh("blob.db");
	static uint8_t random_bytes[10000], pattern[10000];
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < sizeof random_bytes; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		random_bytes[i] = (uint8_t)x;
		pattern[i] = (uint8_t)(i % 7);
	}
	struct db_trace_ref ref;
	CHECK_EQ_INT(dtu_write_trace(dtu_path("t.xfbt"), 1, 64), 0);
	CHECK_EQ_INT(db_trace_record(db, dtu_path("t.xfbt"), NULL, &ref), XT_OK);
	struct db_run *run;
	struct db_run_desc d = { .trace_id = ref.trace_id, .backend = "host", .revision = "r" };
	CHECK_EQ_INT(db_run_begin(db, &d, &run), XT_OK);
	const void *datas[3] = { random_bytes, pattern, "" };
	size_t sizes[3] = { sizeof random_bytes, sizeof pattern, 0 };
	for (int i = 0; i < 3; i++) {
		struct db_obs o = tf_obs(10 + i, 0, datas[i], sizes[i]);
		CHECK_EQ_INT(db_run_add_observation(run, &o), XT_OK);
	}
	CHECK_EQ_INT(db_run_finish(run, DB_RUN_OK, NULL), XT_OK);

	struct xt_buf out = XT_BUF_INIT;
	for (int i = 0; i < 3; i++) {
		char hex[33];
		xt_hash128_hex(xt_hash128(datas[i], sizes[i]), hex);
		CHECK_EQ_INT(db_blob_get(db, hex, &out), XT_OK);
		CHECK_EQ_INT(out.len, sizes[i]);
		CHECK(sizes[i] == 0 || !memcmp(out.data, datas[i], sizes[i]));
	}
	CHECK_EQ_INT(db_blob_get(db, "00000000000000000000000000000000", &out), XT_ERR_NOT_FOUND);
	xt_buf_fini(&out);
	db_close(db);
	char codec[16];
	char sql[128];
	char hex[33];
	xt_hash128_hex(xt_hash128(random_bytes, sizeof random_bytes), hex);
	snprintf(sql, sizeof sql, "SELECT codec FROM blobs WHERE hash = '%s'", hex);
	CHECK_EQ_STR(dtu_sql_text(dtu_path("blob.db"), sql, codec, sizeof codec), "none");
}

static void test_run_rejects_a_duplicate_observation_key(void)
{
	struct db_trace_ref ref;
	struct db *db = open_with_trace("dup.db", 1, &ref);
	struct db_run *run;
	struct db_run_desc d = { .trace_id = ref.trace_id, .backend = "host", .revision = "r" };
	uint8_t bytes[16] = { 1 };
	CHECK_EQ_INT(db_run_begin(db, &d, &run), XT_OK);
	struct db_obs o = tf_obs(5, 1, bytes, sizeof bytes);
	CHECK_EQ_INT(db_run_add_observation(run, &o), XT_OK);
	CHECK_EQ_INT(db_run_add_observation(run, &o), XT_ERR_INVALID);
	CHECK(strstr(db_err(db)->msg, "call 5, tf_buffer, index 1") != NULL);
	/* The run stays writable and counts only what was stored. */
	o.index = 2;
	CHECK_EQ_INT(db_run_add_observation(run, &o), XT_OK);
	int64_t id = db_run_id(run);
	CHECK_EQ_INT(db_run_finish(run, DB_RUN_OK, "two"), XT_OK);
	db_close(db);
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT observations FROM runs WHERE id = %" PRId64, id);
	CHECK_EQ_INT(dtu_sql_int(dtu_path("dup.db"), sql), 2);
}

static void test_run_rejects_fields_that_are_not_a_json_object(void)
{
	struct db_trace_ref ref;
	struct db *db = open_with_trace("fields.db", 1, &ref);
	struct db_run *run;
	struct db_run_desc d = { .trace_id = ref.trace_id, .backend = "host", .revision = "r" };
	CHECK_EQ_INT(db_run_begin(db, &d, &run), XT_OK);
	const char *bad[] = { "[1,2]", "{\"a\":", "42" };
	for (int i = 0; i < 3; i++) {
		struct db_obs o = { .call_no = 1, .kind = "query", .fields_json = bad[i] };
		CHECK_EQ_INT(db_run_add_observation(run, &o), XT_ERR_INVALID);
	}
	struct db_obs o = { .call_no = 1, .kind = "query", .fields_json = "{}",
			    .layout_json = "not json" };
	CHECK_EQ_INT(db_run_add_observation(run, &o), XT_ERR_INVALID);
	struct db_obs big = { .call_no = 2, .kind = "tf_buffer", .fields_json = "{}", .data = "",
			      .data_bytes = (size_t)DB_MAX_DATA_BYTES + 1 };
	CHECK_EQ_INT(db_run_add_observation(run, &big), XT_ERR_UNSUPPORTED);
	db_run_abandon(run);
	db_close(db);
	CHECK_EQ_INT(dtu_sql_int(dtu_path("fields.db"),
				 "SELECT count(*) FROM observations o JOIN runs r ON r.id = o.run_id"
				 " WHERE NOT r.golden"), 0);
}

static void test_abandoned_run_stays_incomplete_and_finished_run_is_ok(void)
{
	struct db_trace_ref ref;
	struct db *db = open_with_trace("status.db", 1, &ref);
	struct db_run *a, *b;
	struct db_run_desc d = { .trace_id = ref.trace_id, .backend = "host", .revision = "r",
				 .label = "L" };
	CHECK_EQ_INT(db_run_begin(db, &d, &a), XT_OK);
	CHECK_EQ_INT(db_run_begin(db, &d, &b), XT_OK);
	int64_t ida = db_run_id(a), idb = db_run_id(b);
	db_run_abandon(a);
	CHECK_EQ_INT(db_run_set_driver(b, "Mesa", "llvmpipe", NULL), XT_OK);
	CHECK_EQ_INT(db_run_set_driver(b, NULL, NULL, "4.5"), XT_OK);
	CHECK_EQ_INT(db_run_finish(b, DB_RUN_FAILED, "GL context lost"), XT_OK);

	struct xt_arena arena;
	struct db_run_info ia, ib;
	xt_arena_init(&arena, 4096);
	CHECK_EQ_INT(db_run_get(db, ida, &ia, &arena), XT_OK);
	CHECK_EQ_INT(db_run_get(db, idb, &ib, &arena), XT_OK);
	CHECK_EQ_STR(ia.status, "incomplete");
	CHECK(ia.finished_at == NULL);
	CHECK_EQ_STR(ib.status, "failed");
	CHECK_EQ_STR(ib.summary, "GL context lost");
	CHECK_EQ_STR(ib.label, "L");
	CHECK_EQ_STR(ib.gl_vendor, "Mesa");
	CHECK_EQ_STR(ib.gl_renderer, "llvmpipe");
	CHECK_EQ_STR(ib.gl_version, "4.5");
	CHECK(ia.gl_renderer == NULL);
	CHECK(ib.finished_at != NULL);
	CHECK_EQ_INT(db_run_get(db, 999, &ia, &arena), XT_ERR_NOT_FOUND);
	xt_arena_fini(&arena);

	struct db_run_desc other = d;
	other.trace_id = 12345;
	struct db_run *c;
	CHECK_EQ_INT(db_run_begin(db, &other, &c), XT_ERR_NOT_FOUND);
	CHECK(c == NULL);
	db_close(db);
}

static void test_blob_get_detects_bit_flips_and_lying_rows(void)
{
	struct db_trace_ref ref;
	struct db *db = open_with_trace("flip.db", 2, &ref);
	const char *path = dtu_path("flip.db");
	char hex[33];
	struct xt_buf out = XT_BUF_INIT;
	dtu_sql_text(path, "SELECT hash FROM blobs WHERE codec = 'zstd' LIMIT 1", hex, sizeof hex);
	CHECK_EQ_INT(strlen(hex), 32);
	CHECK_EQ_INT(db_blob_get(db, hex, &out), XT_OK);

	char sql[256];
	const char *edits[] = {
		/* one byte changed inside the frame */
		"UPDATE blobs SET data = substr(data, 1, 20) || x'ff' || substr(data, 22) WHERE hash = '%s'",
		"UPDATE blobs SET raw_bytes = raw_bytes + 1 WHERE hash = '%s'",
		"UPDATE blobs SET raw_bytes = -5 WHERE hash = '%s'",
		"UPDATE blobs SET codec = 'lz77' WHERE hash = '%s'",
		"UPDATE blobs SET codec = 'none' WHERE hash = '%s'",
		"UPDATE blobs SET data = 'text' WHERE hash = '%s'",
		"UPDATE blobs SET data = x'28b52ffd' WHERE hash = '%s'",
	};
	for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
		db_close(db);
		dtu_rm_db(path);
		db = open_with_trace("flip.db", 2, &ref);
		dtu_sql_text(path, "SELECT hash FROM blobs WHERE codec = 'zstd' LIMIT 1", hex, sizeof hex);
		snprintf(sql, sizeof sql, edits[i], hex);
		CHECK_EQ_INT(dtu_sql(path, sql), 0);
		enum xt_rc rc = db_blob_get(db, hex, &out);
		if (rc != XT_ERR_CORRUPT)
			fprintf(stderr, "edit %zu: %s\n", i, xt_rc_name(rc));
		CHECK_EQ_INT(rc, XT_ERR_CORRUPT);
		CHECK(strstr(db_err(db)->msg, hex) != NULL);
	}
	xt_buf_fini(&out);
	db_close(db);
}

static enum xt_rc count_rows(struct db *db, int64_t run, int *n)
{
	struct db_obs_iter *it;
	struct db_obs_row row;
	enum xt_rc rc = db_obs_iter_open(db, run, &it);
	*n = 0;
	while (!rc && (rc = db_obs_iter_next(it, &row)) == XT_OK)
		++*n;
	db_obs_iter_close(it);
	return rc;
}

static void test_observation_rows_are_checked_when_read(void)
{
	const char *path = dtu_path("rows.db");
	const char *edits[] = {
		"UPDATE observations SET call_no = 'abc' WHERE call_no = 1",
		"UPDATE observations SET call_no = -4 WHERE call_no = 1",
		"UPDATE observations SET kind = x'00' WHERE call_no = 1",
		"UPDATE observations SET idx = 1e20 WHERE call_no = 1",
		"UPDATE observations SET fields = x'00' WHERE call_no = 1",
		"UPDATE observations SET blob_hash = 'feedfacefeedfacefeedfacefeedface' WHERE call_no = 1",
		"UPDATE observations SET fields = '{\"buffer\":' WHERE call_no = 1",
		"UPDATE observations SET layout_id = 'x' WHERE call_no = 1",
	};
	for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
		struct db_trace_ref ref;
		struct db *db = open_with_trace("rows.db", 2, &ref);
		int n;
		CHECK_EQ_INT(count_rows(db, ref.golden_run_id, &n), XT_ERR_EOF);
		CHECK_EQ_INT(n, 4);
		CHECK_EQ_INT(dtu_sql(path, edits[i]), 0);
		enum xt_rc rc = count_rows(db, ref.golden_run_id, &n);
		if (rc != XT_ERR_CORRUPT)
			fprintf(stderr, "edit %zu (%s): %s\n", i, edits[i], xt_rc_name(rc));
		CHECK_EQ_INT(rc, XT_ERR_CORRUPT);
		CHECK(db_err(db)->msg[0] != '\0');
		db_close(db);
	}
}

static void test_layouts_are_checked_when_loaded(void)
{
	const char *path = dtu_path("layout.db");
	const char *layouts[] = {
		"not json at all",
		"[]",
		"{\"mode\":\"m\",\"strides\":16,\"varyings\":[]}",
		"{\"mode\":\"m\",\"strides\":[16],\"varyings\":{}}",
		"{\"mode\":\"m\",\"strides\":[-1],\"varyings\":[]}",
		"{\"mode\":\"m\",\"strides\":[1e30],\"varyings\":[]}",
		"{\"mode\":\"m\",\"strides\":[16],\"varyings\":[7]}",
		"{\"mode\":\"m\",\"strides\":[16],\"varyings\":[{\"name\":\"p\"}]}",
		"{\"mode\":\"m\",\"strides\":[16],\"varyings\":[{\"name\":1,"
		"\"type\":\"GL_FLOAT\",\"size\":1,\"buffer\":0,\"offset\":0}]}",
		"{\"mode\":\"m\",\"strides\":[16],\"varyings\":[{\"name\":\"p\","
		"\"type\":\"GL_FLOAT\",\"size\":-1,\"buffer\":0,\"offset\":0}]}",
		"{\"mode\":\"m\",\"strides\":[16],\"varyings\":[{\"name\":\"p\","
		"\"type\":\"GL_FLOAT\",\"size\":1,\"buffer\":99,\"offset\":0}]}",
		"{\"strides\":[16],\"varyings\":[]}",
	};
	struct xt_arena arena;
	struct db_tf_layout l;
	xt_arena_init(&arena, 4096);
	for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
		struct db_trace_ref ref;
		struct db *db = open_with_trace("layout.db", 1, &ref);
		CHECK_EQ_INT(db_layout_load(db, 1, &arena, &l), XT_OK);
		CHECK_EQ_INT(l.nstrides, 1);
		CHECK_EQ_INT(l.strides[0], 16);
		CHECK_EQ_INT(l.nvaryings, 1);
		CHECK_EQ_STR(l.varyings[0].type, "GL_FLOAT_VEC4");
		CHECK_EQ_STR(l.mode, "GL_INTERLEAVED_ATTRIBS");
		char *sql = sqlite3_mprintf("UPDATE layouts SET json = %Q WHERE id = 1", layouts[i]);
		CHECK_EQ_INT(dtu_sql(path, sql), 0);
		sqlite3_free(sql);
		enum xt_rc rc = db_layout_load(db, 1, &arena, &l);
		if (rc != XT_ERR_CORRUPT)
			fprintf(stderr, "layout %zu: %s\n", i, xt_rc_name(rc));
		CHECK_EQ_INT(rc, XT_ERR_CORRUPT);
		CHECK_EQ_INT(db_layout_load(db, 77, &arena, &l), XT_ERR_NOT_FOUND);
		db_close(db);
		xt_arena_reset(&arena);
	}
	xt_arena_fini(&arena);
}

static void test_trace_lookup_takes_ids_and_hash_prefixes(void)
{
	struct db_trace_ref ref;
	struct db *db = open_with_trace("lookup.db", 1, &ref);
	int64_t id = 0;
	char prefix[9];
	snprintf(prefix, sizeof prefix, "%.8s", ref.hash);
	CHECK_EQ_INT(db_trace_lookup(db, "1", &id), XT_OK);
	CHECK_EQ_INT(id, ref.trace_id);
	id = 0;
	CHECK_EQ_INT(db_trace_lookup(db, prefix, &id), XT_OK);
	CHECK_EQ_INT(id, ref.trace_id);
	CHECK_EQ_INT(db_trace_lookup(db, "2", &id), XT_ERR_NOT_FOUND);
	CHECK_EQ_INT(db_trace_lookup(db, "xyz'; DROP TABLE runs; --", &id), XT_ERR_INVALID);
	db_close(db);
}

/* The one translation of SQLite's dialect into PostgreSQL's (db_pg.c):
 * each difference docs/db.md lists, spelled out. */
char *db_pg_translate(const char *sql); /* db_int.h */

static void check_translation(const char *sqlite, const char *pg)
{
	char *t = db_pg_translate(sqlite);
	CHECK(t != NULL);
	if (strcmp(t, pg))
		fprintf(stderr, "translated: %s\nexpected:   %s\n", t, pg);
	CHECK(!strcmp(t, pg));
	free(t);
}

static void test_pg_translation_spells_each_difference(void)
{
	check_translation("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL,"
			  " d BLOB, r REAL, s TEXT, p INTEGER, q INTEGER) WITHOUT ROWID;",
			  "CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
			  " n BIGINT NOT NULL, d BYTEA, r DOUBLE PRECISION, s TEXT COLLATE \"C\","
			  " p BIGINT, q BIGINT);");
	check_translation("ALTER TABLE t ADD COLUMN a BLOB;ALTER TABLE t ADD COLUMN b INTEGER",
			  "ALTER TABLE t ADD COLUMN a BYTEA;ALTER TABLE t ADD COLUMN b BIGINT");
	check_translation("INSERT OR IGNORE INTO blobs (hash) VALUES (?1)",
			  "INSERT INTO blobs (hash) VALUES ($1) ON CONFLICT DO NOTHING");
	check_translation("SELECT id FROM main.runs WHERE label = '?1' AND id = ?12",
			  "SELECT id FROM runs WHERE label = '?1' AND id = $12");
	check_translation("a TEXT NOT NULL CHECK (json_type(fields) = 'object'),"
			  " t TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));",
			  "a TEXT COLLATE \"C\" NOT NULL CHECK (json_typeof(fields::json) = 'object'),"
			  " t TEXT COLLATE \"C\" DEFAULT (to_char(now() AT TIME ZONE 'UTC',"
			  " 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'));");
	check_translation("SELECT json_extract(o.fields, '$.buffer') FROM observations o",
			  "SELECT CASE json_typeof(o.fields::json -> 'buffer') WHEN 'number' THEN"
			  " (o.fields::json ->> 'buffer')::numeric END FROM observations o");
}

static void test_redact_drops_passwords_only(void)
{
	static const char *const cases[][2] = {
		{ "postgresql://ci:s3cret@db.example:5432/results",
		  "postgresql://ci@db.example:5432/results" },
		{ "postgres://ci@db/r?password=x&sslmode=require", "postgres://ci@db/r?sslmode=require" },
		{ "postgresql:///r?host=/run/pg&password=x", "postgresql:///r?host=/run/pg" },
		{ "postgresql://db.example/r?port=5433", "postgresql://db.example/r?port=5433" },
		{ "results:with@colon.db", "results:with@colon.db" },
	};
	char out[128];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		db_redact(cases[i][0], out, sizeof out);
		CHECK_EQ_STR(out, cases[i][1]);
	}
	db_redact("postgresql://ci:s3cret@db/r", out, 12);
	CHECK_EQ_STR(out, "postgresql:");
}

int main(void)
{
	XT_RUN(test_open_creates_schema_in_wal_mode);
	XT_RUN(test_open_rejects_a_file_that_is_not_sqlite);
	XT_RUN(test_open_rejects_another_applications_database);
	XT_RUN(test_open_rejects_a_newer_schema);
	XT_RUN(test_open_existing_reports_a_missing_file);
	XT_RUN(test_trace_record_writes_the_golden_run_once);
	XT_RUN(test_spool_and_compacted_forms_are_one_trace);
	XT_RUN(test_trace_record_refuses_a_corrupt_trace_and_writes_nothing);
	XT_RUN(test_identical_data_is_stored_once_across_runs);
	XT_RUN(test_blobs_round_trip_compressed_raw_and_empty);
	XT_RUN(test_run_rejects_a_duplicate_observation_key);
	XT_RUN(test_run_rejects_fields_that_are_not_a_json_object);
	XT_RUN(test_abandoned_run_stays_incomplete_and_finished_run_is_ok);
	XT_RUN(test_blob_get_detects_bit_flips_and_lying_rows);
	XT_RUN(test_observation_rows_are_checked_when_read);
	XT_RUN(test_layouts_are_checked_when_loaded);
	XT_RUN(test_trace_lookup_takes_ids_and_hash_prefixes);
	XT_RUN(test_pg_translation_spells_each_difference);
	XT_RUN(test_redact_drops_passwords_only);
	dtu_cleanup();
	XT_TEST_MAIN_END();
}
