/*
 * db_record_run.c - `db-record-run`, a stand-in for `xfbtrace replay --db`
 * in tests: it records the observations of a trace as a new, non-golden
 * run through exactly the API replay uses (db_trace_record, db_run_begin,
 * db_obs_from_value, db_run_add_observation, db_run_finish).
 *
 *   db-record-run --db FILE [--label L] [--backend B] [--delay-ms N]
 *                 [--perturb CALL:INDEX:BYTE] [--query-result CALL:VALUE] TRACE
 *
 * --perturb adds one to the byte at offset BYTE of the data of the
 * tf_buffer observation (CALL, INDEX): the honest way to get a run whose
 * bytes differ in exactly one place, since a second trace with other bytes
 * would be another trace (another content hash).  The integration tests
 * use it for the "diff names exactly that component" check, and --delay-ms
 * (a pause after each committed observation) to SIGKILL a writer mid-run.
 * --query-result sets the `result` of the query observation of call CALL
 * to VALUE (decimal or 0x hex), e.g. a sentinel such as 0xdeadbeef.
 *
 * Prints "run N" once the run is begun, then "observation K" after each.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "xt_revision.h"

#define MAX_THREADS 64

struct state {
	uint64_t call_no[MAX_THREADS];
	uint32_t func_id[MAX_THREADS];
	int64_t prim[MAX_THREADS];
	uint64_t last_call;
	uint32_t last_thread;
};

static int fail(const char *what, const char *msg)
{
	fprintf(stderr, "db-record-run: %s: %s\n", what, msg);
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "label", required_argument, NULL, 'l' },
		{ "backend", required_argument, NULL, 'b' },
		{ "delay-ms", required_argument, NULL, 'w' },
		{ "perturb", required_argument, NULL, 'p' },
		{ "query-result", required_argument, NULL, 'q' },
		{ 0 },
	};
	const char *db_path = NULL, *label = NULL, *backend = "test-replay";
	unsigned long long p_call = 0, p_index = 0, p_byte = 0;
	bool perturb = false, perturbed = false, set_result = false, result_set = false;
	unsigned long long q_call = 0, q_value = 0;
	long delay_ms = 0;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': db_path = optarg; break;
		case 'l': label = optarg; break;
		case 'b': backend = optarg; break;
		case 'w': delay_ms = strtol(optarg, NULL, 10); break;
		case 'p':
			perturb = sscanf(optarg, "%llu:%llu:%llu", &p_call, &p_index, &p_byte) == 3;
			if (!perturb)
				return fail("--perturb", "takes CALL:INDEX:BYTE");
			break;
		case 'q':
			set_result = sscanf(optarg, "%llu:%lli", &q_call, (long long *)&q_value) == 2;
			if (!set_result)
				return fail("--query-result", "takes CALL:VALUE");
			break;
		default: return 2;
		}
	}
	if (!db_path || optind + 1 != argc)
		return fail("usage", "db-record-run --db FILE [options] TRACE");
	const char *trace = argv[optind];

	struct db *db;
	struct xt_err err;
	struct db_trace_ref ref;
	if (db_open(&db, db_path, DB_OPEN_CREATE, &err))
		return fail(db_path, xt_err_msg(&err));
	if (db_trace_record(db, trace, NULL, &ref))
		return fail(trace, xt_err_msg(db_err(db)));

	struct db_run_desc desc = { .trace_id = ref.trace_id, .backend = backend,
				    .revision = XT_REVISION, .label = label };
	struct db_run *run;
	if (db_run_begin(db, &desc, &run))
		return fail("begin", xt_err_msg(db_err(db)));
	printf("run %" PRId64 "\n", db_run_id(run));
	fflush(stdout);

	struct trace_reader *r;
	struct trace_record rec;
	struct xt_arena arena;
	struct xt_buf scratch = XT_BUF_INIT;
	struct state s;
	enum xt_rc rc;
	uint64_t n = 0;
	memset(&s, 0, sizeof s);
	for (int i = 0; i < MAX_THREADS; i++)
		s.prim[i] = -1;
	if (trace_reader_open(&r, trace, &err))
		return fail(trace, xt_err_msg(&err));
	xt_arena_init(&arena, 65536);
	while ((rc = trace_reader_next(r, &rec)) == XT_OK) {
		struct trace_call call;
		struct trace_value v;
		struct db_obs obs;
		xt_arena_reset(&arena);
		if (rec.type == TRACE_REC_CALL) {
			if ((rc = trace_reader_decode_call(r, &rec, &arena, &call)))
				break;
			uint32_t t = call.thread_no < MAX_THREADS ? call.thread_no : 0;
			s.call_no[t] = call.no;
			s.func_id[t] = call.func_id;
			if (!strcmp(call.name, "glBeginTransformFeedback") && call.nargs &&
			    call.args[0].tag == TRACE_TAG_ENUM)
				s.prim[t] = (int64_t)call.args[0].u;
			s.last_thread = t;
			continue;
		}
		if (rec.type != TRACE_REC_OBSERVATION)
			continue;
		if ((rc = trace_reader_decode_value(r, &rec, &arena, &v)))
			break;
		uint32_t t = s.last_thread;
		const char *function = s.call_no[t] == rec.seq ? trace_reader_func_name(r, s.func_id[t])
							       : NULL;
		struct trace_value *res = (struct trace_value *)trace_value_get(&v, "result");
		const struct trace_value *kind = trace_value_get(&v, "kind");
		if (set_result && rec.seq == q_call && res && kind && kind->mem.len == 5 &&
		    !memcmp(kind->mem.bytes, "query", 5)) {
			*res = (struct trace_value){ .tag = TRACE_TAG_UINT, .u = q_value };
			result_set = true;
		}
		if (db_obs_from_value(&obs, &v, rec.seq, function, s.prim[t], NULL, 0, &scratch, &err))
			return fail("observation", xt_err_msg(&err));
		uint8_t *copy = NULL;
		if (perturb && obs.call_no == p_call && obs.index == p_index && obs.data &&
		    !strcmp(obs.kind, "tf_buffer")) {
			if (p_byte >= obs.data_bytes)
				return fail("--perturb", "byte offset past the data");
			copy = malloc(obs.data_bytes);
			memcpy(copy, obs.data, obs.data_bytes);
			copy[p_byte]++;
			obs.data = copy;
			perturbed = true;
		}
		if (db_run_add_observation(run, &obs))
			return fail("observation", xt_err_msg(db_err(db)));
		free(copy);
		printf("observation %" PRIu64 "\n", ++n);
		fflush(stdout);
		if (delay_ms > 0) {
			struct timespec ts = { delay_ms / 1000, (delay_ms % 1000) * 1000000L };
			nanosleep(&ts, NULL);
		}
	}
	if (rc != XT_ERR_EOF)
		return fail(trace, xt_err_msg(trace_reader_err(r)));
	if (perturb && !perturbed)
		return fail("--perturb", "no such tf_buffer observation");
	if (set_result && !result_set)
		return fail("--query-result", "no such query observation");
	if (db_run_finish(run, DB_RUN_OK, "recorded by db-record-run"))
		return fail("finish", xt_err_msg(db_err(db)));
	trace_reader_close(r);
	xt_arena_fini(&arena);
	xt_buf_fini(&scratch);
	db_close(db);
	return 0;
}
