/*
 * diff_bench.c - how fast `xfbtrace diff` compares runs, against the
 * machine's memory bandwidth (docs/performance.md, "Diff throughput").
 *
 *   diff-bench [--gib G] [--obs-mib M] [--dir D] [--keep]
 *
 * Builds a results database in D holding one trace and three runs of G GiB
 * of TF observations each (M MiB per observation, an interleaved layout of
 * pos vec4, normal vec3, color vec4, id uint: 48 bytes per vertex):
 *   A  the reference;
 *   B  the same bytes (its blobs are A's: content addressing);
 *   C  A with 1 % of the components changed by one ulp, spread evenly.
 * Then times, with the CLI's defaults (20 differences kept per
 * observation):
 *   A vs B             equal blob hashes, nothing decoded;
 *   A vs B, decoded    --no-hash-shortcut: every blob read, decompressed,
 *                      hash-checked and compared vertex by vertex;
 *   A vs C             1 % changed: every vertex with a change is decoded;
 *   blob reads         db_blob_get of A's blobs alone (SQLite + zstd + hash);
 * and, for scale, memcmp of two equal G GiB buffers in memory (the floor
 * for comparing bytes) and memcpy of G GiB.  Throughput is GiB of one
 * run's observation data per second.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "diff.h"
#include "trace_enc.h"
#include "trace_spool.h"

#define STRIDE 48
#define COMPS 12

static const char *const layout =
	"{\"program\":1,\"mode\":\"GL_INTERLEAVED_ATTRIBS\",\"source\":\"packed\",\"strides\":[48],"
	"\"varyings\":[{\"name\":\"pos\",\"type\":\"GL_FLOAT_VEC4\",\"size\":1,\"buffer\":0,\"offset\":0},"
	"{\"name\":\"normal\",\"type\":\"GL_FLOAT_VEC3\",\"size\":1,\"buffer\":0,\"offset\":16},"
	"{\"name\":\"color\",\"type\":\"GL_FLOAT_VEC4\",\"size\":1,\"buffer\":0,\"offset\":28},"
	"{\"name\":\"id\",\"type\":\"GL_UNSIGNED_INT\",\"size\":1,\"buffer\":0,\"offset\":44}]}";

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "diff-bench: %s: %s\n", what, msg);
	exit(2);
}

/* Particle-like vertices: smooth positions and normals, quantised colours,
 * sequential ids; observation `o` shifts them so blobs differ. */
static void fill(uint8_t *p, size_t bytes, unsigned o)
{
	size_t nv = bytes / STRIDE;
	for (size_t v = 0; v < nv; v++) {
		float f[11];
		float t = (float)(o * nv + v) * 1e-4f;
		f[0] = t; f[1] = t * 0.5f + 1.0f; f[2] = 2.0f - t; f[3] = 1.0f;
		f[4] = 0.0f; f[5] = 1.0f; f[6] = 0.0f;
		f[7] = (float)(v % 256) / 255.0f; f[8] = 0.5f; f[9] = (float)(o % 256) / 255.0f; f[10] = 1.0f;
		uint32_t id = (uint32_t)(o * nv + v);
		memcpy(p + v * STRIDE, f, 44);
		memcpy(p + v * STRIDE + 44, &id, 4);
	}
}

/* A minimal trace (one property) to hang the runs on. */
static void write_trace(const char *path)
{
	struct trace_spool *s;
	struct xt_err err;
	if (trace_spool_open(&s, path, 1, &err))
		die(path, xt_err_msg(&err));
	struct trace_spool_stream *st = trace_spool_stream_open(s, 0);
	uint8_t *b = st ? trace_spool_reserve(st, 128) : NULL, *p = b;
	if (!b)
		die(path, "cannot write");
	p = trace_enc_string(p, "program", 7);
	p = trace_enc_string(p, "diff-bench", 10);
	trace_spool_commit(st, TRACE_REC_PROPERTY, 0, 0, (size_t)(p - b));
	trace_spool_stream_close(st);
	trace_spool_close(s);
}

static int64_t store_run(struct db *db, int64_t trace_id, const char *label, unsigned nobs,
			 size_t obs_bytes, double change_fraction)
{
	struct db_run *run;
	struct db_run_desc d = { .trace_id = trace_id, .backend = "bench", .revision = "bench",
				 .label = label };
	uint8_t *data = malloc(obs_bytes);
	char fields[128];
	if (!data || db_run_begin(db, &d, &run))
		die("run", xt_err_msg(db_err(db)));
	size_t comps = obs_bytes / STRIDE * COMPS;
	size_t step = change_fraction > 0 ? (size_t)(1.0 / change_fraction) : 0;
	for (unsigned o = 0; o < nobs; o++) {
		fill(data, obs_bytes, o);
		/* Every step-th component (floats only: id is component 11),
		 * one ulp up. */
		for (size_t c = step ? (o * 7) % step : comps; step && c < comps; c += step) {
			size_t v = c / COMPS, k = c % COMPS == 11 ? 10 : c % COMPS;
			uint32_t u;
			memcpy(&u, data + v * STRIDE + 4 * k, 4);
			u++;
			memcpy(data + v * STRIDE + 4 * k, &u, 4);
		}
		snprintf(fields, sizeof fields, "{\"after\":\"end\",\"buffer\":%u,\"offset\":0,\"size\":%zu}",
			 o + 1, obs_bytes);
		struct db_obs ob = { .call_no = 10 + 2 * (uint64_t)o, .kind = "tf_buffer",
				     .function = "glEndTransformFeedback", .primitive_mode = "GL_TRIANGLES",
				     .fields_json = fields, .layout_json = layout, .data = data,
				     .data_bytes = obs_bytes };
		if (db_run_add_observation(run, &ob))
			die("observation", xt_err_msg(db_err(db)));
	}
	int64_t id = db_run_id(run);
	if (db_run_finish(run, DB_RUN_OK, NULL))
		die("finish", xt_err_msg(db_err(db)));
	free(data);
	return id;
}

static enum xt_rc count_obs(const struct diff_obs *d, void *ctx)
{
	(void)d;
	++*(uint64_t *)ctx;
	return XT_OK;
}

static double time_diff(struct db *db, int64_t a, int64_t b, bool decode, struct diff_summary *s)
{
	struct diff_options o = { .max_items = 20, .no_hash_shortcut = decode };
	struct xt_err err;
	uint64_t n = 0;
	double t = now();
	if (diff_runs(db, a, b, &o, count_obs, &n, s, &err))
		die("diff", xt_err_msg(&err));
	return now() - t;
}

static double time_blob_reads(struct db *db, int64_t run)
{
	struct db_obs_iter *it;
	struct db_obs_row row;
	struct xt_buf buf = XT_BUF_INIT;
	enum xt_rc rc;
	double t = now();
	if (db_obs_iter_open(db, run, &it))
		die("iter", xt_err_msg(db_err(db)));
	while ((rc = db_obs_iter_next(it, &row)) == XT_OK)
		if (db_blob_get(db, row.blob_hash, &buf))
			die("blob", xt_err_msg(db_err(db)));
	db_obs_iter_close(it);
	xt_buf_fini(&buf);
	return now() - t;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "gib", required_argument, NULL, 'g' },
		{ "obs-mib", required_argument, NULL, 'm' },
		{ "dir", required_argument, NULL, 'd' },
		{ "keep", no_argument, NULL, 'k' },
		{ 0 },
	};
	double gib = 1.0;
	unsigned obs_mib = 4;
	const char *dir = "/tmp";
	bool keep = false;
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'g': gib = strtod(optarg, NULL); break;
		case 'm': obs_mib = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'd': dir = optarg; break;
		case 'k': keep = true; break;
		default: return 2;
		}
	}
	size_t obs_bytes = (size_t)obs_mib << 20;
	obs_bytes -= obs_bytes % STRIDE;
	unsigned nobs = (unsigned)(gib * (1u << 30) / obs_bytes + 0.5);
	double data_gib = (double)nobs * obs_bytes / (1u << 30);
	char db_path[512], trace_path[512];
	snprintf(db_path, sizeof db_path, "%s/diff-bench-%d.db", dir, (int)getpid());
	snprintf(trace_path, sizeof trace_path, "%s/diff-bench-%d.xfbt", dir, (int)getpid());

	struct db *db;
	struct xt_err err;
	struct db_trace_ref ref;
	write_trace(trace_path);
	if (db_open(&db, db_path, DB_OPEN_CREATE, &err))
		die(db_path, xt_err_msg(&err));
	if (db_trace_record(db, trace_path, NULL, &ref))
		die(trace_path, xt_err_msg(db_err(db)));
	double t = now();
	int64_t a = store_run(db, ref.trace_id, "A", nobs, obs_bytes, 0);
	double t_store = now() - t;
	int64_t b = store_run(db, ref.trace_id, "B", nobs, obs_bytes, 0);
	int64_t cc = store_run(db, ref.trace_id, "C", nobs, obs_bytes, 0.01);

	struct diff_summary s_ab, s_abd, s_ac;
	double t_ab = time_diff(db, a, b, false, &s_ab);
	double t_abd = time_diff(db, a, b, true, &s_abd);
	double t_ac = time_diff(db, a, cc, false, &s_ac);
	double t_blobs = time_blob_reads(db, a);
	if (s_ab.different || s_abd.different || !s_ac.different)
		die("check", "unexpected verdict");

	size_t n = (size_t)nobs * obs_bytes;
	uint8_t *x = malloc(n), *y = malloc(n);
	if (!x || !y)
		die("memcmp", "out of memory");
	for (unsigned o = 0; o < nobs; o++)
		fill(x + (size_t)o * obs_bytes, obs_bytes, o);
	memcpy(y, x, n);
	t = now();
	volatile int r = memcmp(x, y, n);
	double t_memcmp = now() - t;
	t = now();
	memcpy(y, x, n);
	__asm__ volatile("" : : "r"(y) : "memory");   /* the copy must happen */
	double t_memcpy = now() - t;
	(void)r;

	printf("%u observations of %zu bytes: %.3f GiB per run; store of run A %.2f s\n", nobs,
	       obs_bytes, data_gib, t_store);
	printf("| comparison | time (s) | GiB/s | vs memcmp |\n|---|---|---|---|\n");
#define ROW(name, secs) printf("| %s | %.3f | %.2f | %.3f |\n", name, secs, data_gib / (secs), \
			       t_memcmp / (secs))
	ROW("diff A vs B, identical (hashes match)", t_ab);
	ROW("diff A vs B, identical, every buffer decoded", t_abd);
	ROW("diff A vs C, 1 % of components changed", t_ac);
	ROW("blob reads of run A alone (SQLite + zstd + hash)", t_blobs);
	ROW("memcmp of two equal buffers in memory", t_memcmp);
	ROW("memcpy of one buffer", t_memcpy);
	printf("run C: %" PRIu64 " of %" PRIu64 " components differ in %" PRIu64 " observations\n",
	       s_ac.components_differ, s_ac.components_compared, s_ac.different);
	free(x);
	free(y);
	db_close(db);
	if (!keep) {
		char p[600];
		unlink(db_path);
		snprintf(p, sizeof p, "%s-wal", db_path);
		unlink(p);
		snprintf(p, sizeof p, "%s-shm", db_path);
		unlink(p);
		unlink(trace_path);
	}
	return 0;
}
