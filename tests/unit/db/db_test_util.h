/*
 * db_test_util.h - helpers shared by the db/ and diff/ unit tests and their
 * test tools: a scratch directory, a writer of small synthetic traces
 * (through the real spool API, so db_trace_record reads what a capture
 * writes), raw SQL on a database file behind the library's back, and a
 * run builder that stores hand-made observations.
 */
#ifndef DB_TEST_UTIL_H
#define DB_TEST_UTIL_H

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "trace_enc.h"
#include "trace_spool.h"

#define DTU_UNUSED __attribute__((unused))

#define DTU_GL_POINTS 0x0000u
#define DTU_GL_TRIANGLES 0x0004u
#define DTU_GL_INTERLEAVED_ATTRIBS 0x8c8cu
#define DTU_GL_FLOAT_VEC4 0x8b52u
#define DTU_GL_QUERY_RESULT 0x8866u

static char dtu_dir[256];

/* A path in this test program's scratch directory (4 rotating buffers). */
static DTU_UNUSED const char *dtu_path(const char *name)
{
	static char buf[64][512];
	static int next;
	if (!dtu_dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(dtu_dir, sizeof dtu_dir, "%s/xt_db_test.XXXXXX", t ? t : "/tmp");
		if (!mkdtemp(dtu_dir)) {
			perror("mkdtemp");
			exit(1);
		}
	}
	char *b = buf[next++ & 63];
	snprintf(b, sizeof buf[0], "%s/%s", dtu_dir, name);
	return b;
}

static DTU_UNUSED void dtu_cleanup(void)
{
	char cmd[600];
	if (!dtu_dir[0])
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dtu_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dtu_dir);
}

/* Removes a database and its WAL files. */
static DTU_UNUSED void dtu_rm_db(const char *path)
{
	char p[600];
	unlink(path);
	snprintf(p, sizeof p, "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof p, "%s-shm", path);
	unlink(p);
}

/* Data of observation i: vertices of one vec4, values (i, v, 0.5, 1). */
static DTU_UNUSED void dtu_fill(float *f, size_t nfloats, unsigned i)
{
	for (size_t k = 0; k < nfloats; k++)
		f[k] = k % 4 == 0 ? (float)i : k % 4 == 1 ? (float)(k / 4) : k % 4 == 2 ? 0.5f : 1.0f;
}

/* Data of observation i that does not compress: vec4s of (i, noise,
 * noise, 1), the noise from a fixed xorshift sequence. */
static DTU_UNUSED void dtu_fill_noise(float *f, size_t nfloats, unsigned i)
{
	uint32_t x = 2463534242u + i * 7919u;
	for (size_t k = 0; k < nfloats; k++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		f[k] = k % 4 == 0 ? (float)i : k % 4 == 3 ? 1.0f : (float)x / 4294967296.0f;
	}
}

/*
 * Writes a spool-form trace: properties, then `nobs` times
 * glBeginTransformFeedback(GL_POINTS) / glEndTransformFeedback with a
 * tf_buffer observation (interleaved, one vec4 "pos", `obs_bytes` bytes of
 * dtu_fill data), and a glGetQueryObjectuiv with a query observation whose
 * result is `nobs`.  Returns 0, or -1 on failure.  dtu_write_trace fills
 * with dtu_fill.
 */
static DTU_UNUSED int dtu_write_trace_with(const char *path, unsigned nobs, size_t obs_bytes,
					   void (*fill)(float *, size_t, unsigned))
{
	struct trace_spool *s;
	struct xt_err err;
	if (trace_spool_open(&s, path, 1, &err) != XT_OK)
		return -1;
	struct trace_spool_stream *st = trace_spool_stream_open(s, 0);
	float *data = malloc(obs_bytes + 4);
	int bad = !st || !data;
	uint64_t seq = 0;
	const char *props[][2] = { { "program", "dtu-synthetic" }, { "xfbtrace.revision", "test-rev" },
				   { "gl.renderer", "test renderer" }, { "gl.version", "4.5 test" } };
	for (size_t i = 0; i < 4 && !bad; i++) {
		uint8_t *b = trace_spool_reserve(st, 256), *p = b;
		bad |= !p;
		if (bad)
			break;
		p = trace_enc_string(p, props[i][0], strlen(props[i][0]));
		p = trace_enc_string(p, props[i][1], strlen(props[i][1]));
		trace_spool_commit(st, TRACE_REC_PROPERTY, 0, 0, (size_t)(p - b));
	}
	for (unsigned i = 0; i < nobs && !bad; i++) {
		uint8_t *b, *p;
		/* Funcdefs ride on every call: defining an id again identically
		 * is allowed. */
		b = trace_spool_reserve(st, 256);
		bad |= !b;
		if (bad)
			break;
		p = trace_enc_u32(b, 0);
		p = trace_enc_u32(p, 0);
		p = trace_enc_lenbytes(p, "glBeginTransformFeedback", 24);
		p = trace_enc_varint(p, 1);
		p = trace_enc_lenbytes(p, "primitiveMode", 13);
		p = trace_enc_u32(p, 1);
		p = trace_enc_enum(p, DTU_GL_POINTS);
		trace_spool_commit(st, TRACE_REC_CALL, TRACE_RECF_ATTACHED | TRACE_RECF_FUNCDEF, seq++,
				   (size_t)(p - b));

		b = trace_spool_reserve(st, 256);
		bad |= !b;
		if (bad)
			break;
		p = trace_enc_u32(b, 1);
		p = trace_enc_u32(p, 0);
		p = trace_enc_lenbytes(p, "glEndTransformFeedback", 22);
		p = trace_enc_varint(p, 0);
		p = trace_enc_u32(p, 0);
		trace_spool_commit(st, TRACE_REC_CALL, TRACE_RECF_ATTACHED | TRACE_RECF_FUNCDEF, seq,
				   (size_t)(p - b));

		fill(data, obs_bytes / 4, i);
		b = trace_spool_reserve(st, 512 + obs_bytes);
		bad |= !b;
		if (bad)
			break;
		p = trace_enc_map(b, 8);
		p = trace_enc_key(p, "kind");
		p = trace_enc_string(p, "tf_buffer", 9);
		p = trace_enc_key(p, "after");
		p = trace_enc_string(p, "end", 3);
		p = trace_enc_key(p, "index");
		p = trace_enc_uint(p, 0);
		p = trace_enc_key(p, "buffer");
		p = trace_enc_uint(p, 7);
		p = trace_enc_key(p, "offset");
		p = trace_enc_uint(p, 0);
		p = trace_enc_key(p, "size");
		p = trace_enc_uint(p, obs_bytes);
		p = trace_enc_key(p, "layout");
		p = trace_enc_map(p, 4);
		p = trace_enc_key(p, "program");
		p = trace_enc_uint(p, 3);
		p = trace_enc_key(p, "mode");
		p = trace_enc_enum(p, DTU_GL_INTERLEAVED_ATTRIBS);
		p = trace_enc_key(p, "strides");
		p = trace_enc_array(p, 1);
		p = trace_enc_uint(p, 16);
		p = trace_enc_key(p, "varyings");
		p = trace_enc_array(p, 1);
		p = trace_enc_map(p, 5);
		p = trace_enc_key(p, "name");
		p = trace_enc_string(p, "pos", 3);
		p = trace_enc_key(p, "type");
		p = trace_enc_enum(p, DTU_GL_FLOAT_VEC4);
		p = trace_enc_key(p, "size");
		p = trace_enc_uint(p, 1);
		p = trace_enc_key(p, "buffer");
		p = trace_enc_uint(p, 0);
		p = trace_enc_key(p, "offset");
		p = trace_enc_uint(p, 0);
		p = trace_enc_key(p, "data");
		p = trace_enc_blob(p, data, obs_bytes);
		trace_spool_commit(st, TRACE_REC_OBSERVATION, TRACE_RECF_ATTACHED, seq++,
				   (size_t)(p - b));

		b = trace_spool_reserve(st, 256);
		bad |= !b;
		if (bad)
			break;
		p = trace_enc_u32(b, 2);
		p = trace_enc_u32(p, 0);
		p = trace_enc_lenbytes(p, "glGetQueryObjectuiv", 19);
		p = trace_enc_varint(p, 0);
		p = trace_enc_u32(p, 0);
		trace_spool_commit(st, TRACE_REC_CALL, TRACE_RECF_ATTACHED | TRACE_RECF_FUNCDEF, seq,
				   (size_t)(p - b));
		b = trace_spool_reserve(st, 256);
		bad |= !b;
		if (bad)
			break;
		p = trace_enc_map(b, 5);
		p = trace_enc_key(p, "kind");
		p = trace_enc_string(p, "query", 5);
		p = trace_enc_key(p, "function");
		p = trace_enc_string(p, "glGetQueryObjectuiv", 19);
		p = trace_enc_key(p, "query");
		p = trace_enc_uint(p, 1);
		p = trace_enc_key(p, "pname");
		p = trace_enc_enum(p, DTU_GL_QUERY_RESULT);
		p = trace_enc_key(p, "result");
		p = trace_enc_uint(p, nobs);
		trace_spool_commit(st, TRACE_REC_OBSERVATION, TRACE_RECF_ATTACHED, seq++,
				   (size_t)(p - b));
	}
	free(data);
	trace_spool_stream_close(st);
	trace_spool_close(s);
	return bad ? -1 : 0;
}

static DTU_UNUSED int dtu_write_trace(const char *path, unsigned nobs, size_t obs_bytes)
{
	return dtu_write_trace_with(path, nobs, obs_bytes, dtu_fill);
}

/* Runs SQL on `path` through a connection of its own (foreign keys and
 * CHECK constraints off, so tests can plant hostile rows).  0 on success. */
static DTU_UNUSED int dtu_sql(const char *path, const char *sql)
{
	sqlite3 *h;
	char *msg = NULL;
	if (sqlite3_open(path, &h) != SQLITE_OK)
		return -1;
	sqlite3_busy_timeout(h, 10000);
	int rc = sqlite3_exec(h, "PRAGMA foreign_keys=OFF; PRAGMA ignore_check_constraints=ON",
			      NULL, NULL, NULL);
	rc = rc ? rc : sqlite3_exec(h, sql, NULL, NULL, &msg);
	if (rc)
		fprintf(stderr, "dtu_sql: %s: %s\n", sql, msg ? msg : sqlite3_errmsg(h));
	sqlite3_free(msg);
	sqlite3_close(h);
	return rc ? -1 : 0;
}

/* The integer the first column of `sql`'s first row holds, or -1. */
static DTU_UNUSED long long dtu_sql_int(const char *path, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_open(path, &h) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return v;
}

/* The text of the first column of `sql`'s first row into out[n]; "" if none. */
static DTU_UNUSED const char *dtu_sql_text(const char *path, const char *sql, char *out, size_t n)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	out[0] = '\0';
	if (sqlite3_open(path, &h) != SQLITE_OK)
		return out;
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return out;
}

#endif
