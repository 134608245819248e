/*
 * test_trace_spool.c - the spool writer (trace/trace_spool.c) seen through
 * the reader: round trips, concurrent threads, big records, and the crash
 * behaviour docs/trace-format.md promises (SIGKILL loses nothing committed).
 * The cost of reserve + commit is measured by bench/spool_reserve.c.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>

#include "trace_test_util.h"

static void test_spool_round_trip_keeps_records_and_funcdefs(void)
{
	const char *path = tu_path("rt.xfbt");
	struct trace_reader *r;
	struct trace_record rec;
	struct xt_err err;
	struct xt_arena arena;
	size_t calls = 0, rets = 0, obs = 0, props = 0;

	CHECK_EQ_INT(tu_write_sample_spool(path, 1000), 0);
	CHECK_EQ_INT(trace_reader_open(&r, path, &err), XT_OK);
	if (!r)
		return;
	CHECK(trace_reader_is_spool(r));
	xt_arena_init(&arena, 4096);
	uint64_t expect = 0;
	while (trace_reader_next(r, &rec) == XT_OK) {
		if (rec.type == TRACE_REC_CALL) {
			struct trace_call c;
			CHECK_EQ_INT(trace_reader_decode_call(r, &rec, &arena, &c), XT_OK);
			CHECK_EQ_INT(c.no, expect);
			CHECK_EQ_INT(c.thread_no, expect % 4 == 3 ? 1 : 0);
			CHECK_EQ_STR(c.name, expect % 2 ? "glFunc1" : "glFunc0");
			CHECK_EQ_INT(c.nargs, 2);
			if (c.nargs == 2) {
				CHECK_EQ_INT(c.args[0].tag, TRACE_TAG_UINT);
				CHECK_EQ_INT(c.args[0].u, expect);
				CHECK_EQ_INT(c.args[1].mem.len, 5);
				CHECK(memcmp(c.args[1].mem.bytes, "hello", 5) == 0);
			}
			calls++;
		} else if (rec.type == TRACE_REC_RET) {
			struct trace_ret ret;
			CHECK_EQ_INT(trace_reader_decode_ret(r, &rec, &arena, &ret), XT_OK);
			CHECK_EQ_INT(ret.no, expect);
			CHECK_EQ_INT(ret.ret.i, -(int64_t)expect);
			CHECK_EQ_INT(ret.nouts, 1);
			if (ret.nouts == 1)
				CHECK(ret.out_index[0] == 1 && ret.outs[0].f == 0.5f);
			rets++;
			expect++;
		} else if (rec.type == TRACE_REC_OBSERVATION) {
			struct trace_value v;
			CHECK_EQ_INT(trace_reader_decode_value(r, &rec, &arena, &v), XT_OK);
			const struct trace_value *data = trace_value_get(&v, "data");
			CHECK(data && data->tag == TRACE_TAG_BLOB && data->mem.len == 40);
			const struct trace_value *kind = trace_value_get(&v, "kind");
			CHECK(kind && kind->tag == TRACE_TAG_STRING && kind->mem.len == 9 &&
			      memcmp(kind->mem.bytes, "tf_buffer", 9) == 0);
			obs++;
		} else if (rec.type == TRACE_REC_PROPERTY) {
			struct trace_value v;
			CHECK_EQ_INT(trace_reader_decode_value(r, &rec, &arena, &v), XT_OK);
			CHECK_EQ_INT(v.agg.count, 1);
			CHECK_EQ_STR(v.agg.keys[0], "program");
			CHECK_EQ_INT(calls, 0); /* ordered before call 0 */
			props++;
		}
		xt_arena_reset(&arena);
	}
	CHECK_EQ_INT(trace_reader_err(r)->rc, XT_OK);
	CHECK_EQ_INT(calls, 1000);
	CHECK_EQ_INT(rets, 1000);
	CHECK_EQ_INT(obs, 100);
	CHECK_EQ_INT(props, 1);
	uint32_t np = 0;
	const char *const *params = trace_reader_func_params(r, 1, &np);
	CHECK(params && np == 2 && strcmp(params[1], "b") == 0);
	CHECK(trace_reader_func_name(r, 7) == NULL);
	xt_arena_fini(&arena);
	trace_reader_close(r);
}

/* ---- several threads writing at once ----------------------------------- */

#define MT_THREADS 4
#define MT_CALLS 30000

struct mt_arg {
	struct trace_spool *s;
	atomic_ullong *seq;
	uint32_t thread_no;
	int failed;
};

static void *mt_writer(void *p)
{
	struct mt_arg *a = p;
	struct trace_spool_stream *st = trace_spool_stream_open(a->s, a->thread_no);
	char text[64];
	if (!st) {
		a->failed = 1;
		return NULL;
	}
	for (unsigned i = 0; i < MT_CALLS; i++) {
		if (i % 1000 == 0)
			a->failed |= tu_put_property(st, atomic_load(a->seq), "tick", "x");
		uint64_t seq = atomic_fetch_add(a->seq, 1);
		/* Varying sizes make regions fill at different moments. */
		snprintf(text, sizeof text, "%.*s", (int)(seq % 50), "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz");
		a->failed |= tu_put_call(st, a->thread_no, i % 3, i < 3, seq, text);
		a->failed |= tu_put_ret(st, a->thread_no, seq);
	}
	trace_spool_stream_close(st);
	return NULL;
}

static void test_concurrent_threads_merge_in_global_order(void)
{
	const char *path = tu_path("mt.xfbt");
	struct trace_spool *s;
	struct xt_err err;
	atomic_ullong seq = 0;
	pthread_t th[MT_THREADS];
	struct mt_arg args[MT_THREADS];

	CHECK_EQ_INT(trace_spool_open(&s, path, 1, &err), XT_OK);
	if (!s)
		return;
	for (int i = 0; i < MT_THREADS; i++) {
		args[i] = (struct mt_arg){ s, &seq, (uint32_t)i + 10, 0 };
		pthread_create(&th[i], NULL, mt_writer, &args[i]);
	}
	for (int i = 0; i < MT_THREADS; i++) {
		pthread_join(th[i], NULL);
		CHECK_EQ_INT(args[i].failed, 0);
	}
	trace_spool_close(s);

	struct trace_reader *r;
	struct trace_record rec;
	struct xt_arena arena;
	uint8_t *seen = calloc(MT_THREADS * MT_CALLS, 1);
	uint64_t prev_key = 0, ncalls = 0, nrets = 0;
	int order_ok = 1, pair_ok = 1;
	uint64_t last_call = UINT64_MAX;

	CHECK_EQ_INT(trace_reader_open(&r, path, &err), XT_OK);
	if (!r) {
		free(seen);
		return;
	}
	xt_arena_init(&arena, 4096);
	while (trace_reader_next(r, &rec) == XT_OK) {
		uint64_t key = 2 * rec.seq + ((rec.flags & TRACE_RECF_ATTACHED) ? 1 : 0);
		if (key < prev_key)
			order_ok = 0;
		prev_key = key;
		if (rec.type == TRACE_REC_CALL) {
			struct trace_call c;
			CHECK_EQ_INT(trace_reader_decode_call(r, &rec, &arena, &c), XT_OK);
			if (c.no < MT_THREADS * MT_CALLS)
				seen[c.no]++;
			if (c.nargs == 2 && c.args[0].u != c.no)
				pair_ok = 0;
			if (c.nargs == 2 && c.args[1].mem.len != c.no % 50)
				pair_ok = 0;
			last_call = c.no;
			ncalls++;
		} else if (rec.type == TRACE_REC_RET) {
			if (rec.seq != last_call)  /* RET follows its CALL directly */
				pair_ok = 0;
			nrets++;
		}
		xt_arena_reset(&arena);
	}
	CHECK_EQ_INT(trace_reader_err(r)->rc, XT_OK);
	CHECK(order_ok);
	CHECK(pair_ok);
	CHECK_EQ_INT(ncalls, MT_THREADS * MT_CALLS);
	CHECK_EQ_INT(nrets, MT_THREADS * MT_CALLS);
	int all_once = 1;
	for (size_t i = 0; i < MT_THREADS * MT_CALLS; i++)
		all_once &= seen[i] == 1;
	CHECK(all_once);
	free(seen);
	xt_arena_fini(&arena);
	trace_reader_close(r);
}

/* ---- big records ---------------------------------------------------------- */

static void test_record_bigger_than_region_gets_its_own(void)
{
	const char *path = tu_path("big.xfbt");
	struct trace_spool *s;
	struct xt_err err;
	size_t big = 3 * TRACE_SPOOL_REGION_BYTES + 123;

	CHECK_EQ_INT(trace_spool_open(&s, path, 1, &err), XT_OK);
	if (!s)
		return;
	struct trace_spool_stream *st = trace_spool_stream_open(s, 0);
	CHECK(st != NULL);
	CHECK_EQ_INT(tu_put_call(st, 0, 0, 1, 0, "first"), 0);
	CHECK_EQ_INT(tu_put_observation(st, 0, big), 0);
	/* Nearly a region: does not fit what is left, so a new region. */
	CHECK_EQ_INT(tu_put_observation(st, 0, TRACE_SPOOL_REGION_BYTES - 200), 0);
	CHECK_EQ_INT(tu_put_ret(st, 0, 0), 0);
	CHECK(trace_spool_reserve(st, (size_t)-1) == NULL);
	struct xt_err last;
	trace_spool_last_error(s, &last);
	CHECK_EQ_INT(last.rc, XT_ERR_INVALID);
	trace_spool_stream_close(st);
	trace_spool_close(s);

	struct trace_reader *r;
	struct trace_record rec;
	struct xt_arena arena;
	size_t sizes[8], n = 0;
	CHECK_EQ_INT(trace_reader_open(&r, path, &err), XT_OK);
	if (!r)
		return;
	xt_arena_init(&arena, 4096);
	while (trace_reader_next(r, &rec) == XT_OK && n < 8) {
		sizes[n++] = rec.payload_bytes;
		if (rec.type == TRACE_REC_OBSERVATION) {
			struct trace_value v;
			CHECK_EQ_INT(trace_reader_decode_value(r, &rec, &arena, &v), XT_OK);
			const struct trace_value *d = trace_value_get(&v, "data");
			int ok = d != NULL;
			for (size_t i = 0; ok && i < d->mem.len; i++)
				ok = d->mem.bytes[i] == (uint8_t)i;
			CHECK(ok);
		}
		xt_arena_reset(&arena);
	}
	CHECK_EQ_INT(n, 4);
	CHECK(n == 4 && sizes[1] > big && sizes[2] > TRACE_SPOOL_REGION_BYTES - 200);
	xt_arena_fini(&arena);
	trace_reader_close(r);
}

/* ---- crashes ----------------------------------------------------------------- */

#define CRASH_CALLS 5000

static void test_spool_survives_sigkill_mid_stream(void)
{
	const char *path = tu_path("crash.xfbt");
	pid_t pid = fork();
	if (pid == 0) {
		struct trace_spool *s;
		struct xt_err err;
		if (trace_spool_open(&s, path, 1, &err) != XT_OK)
			_exit(2);
		struct trace_spool_stream *a = trace_spool_stream_open(s, 0);
		struct trace_spool_stream *b = trace_spool_stream_open(s, 1);
		for (uint64_t i = 0; i < CRASH_CALLS; i++) {
			struct trace_spool_stream *st = i % 2 ? b : a;
			if (tu_put_call(st, (uint32_t)(i % 2), 0, i < 2, i, "crashing"))
				_exit(3);
		}
		/* A record being written when the signal hits: never committed. */
		uint8_t *p = trace_spool_reserve(a, 1000);
		memset(p - 16 + 4, 0xab, 1000);
		raise(SIGKILL);
		_exit(4);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	struct trace_reader *r;
	struct trace_record rec;
	struct xt_err err;
	struct xt_arena arena;
	uint64_t n = 0;
	int ok = 1;
	CHECK_EQ_INT(trace_reader_open(&r, path, &err), XT_OK);
	if (!r)
		return;
	xt_arena_init(&arena, 4096);
	enum xt_rc rc;
	while ((rc = trace_reader_next(r, &rec)) == XT_OK) {
		struct trace_call c;
		ok &= trace_reader_decode_call(r, &rec, &arena, &c) == XT_OK && c.no == n;
		n++;
		xt_arena_reset(&arena);
	}
	CHECK_EQ_INT(rc, XT_ERR_EOF);
	CHECK(ok);
	CHECK_EQ_INT(n, CRASH_CALLS);
	xt_arena_fini(&arena);
	trace_reader_close(r);
}

static void test_abandon_in_child_leaves_parent_file_intact(void)
{
	const char *path = tu_path("fork.xfbt");
	const char *child_path = tu_path("child.xfbt");
	struct trace_spool *s;
	struct xt_err err;
	CHECK_EQ_INT(trace_spool_open(&s, path, 1, &err), XT_OK);
	if (!s)
		return;
	struct trace_spool_stream *st = trace_spool_stream_open(s, 0);
	for (uint64_t i = 0; i < 100; i++)
		tu_put_call(st, 0, 0, i == 0, i, "parent");
	pid_t pid = fork();
	if (pid == 0) {
		trace_spool_abandon(s);
		if (tu_write_sample_spool(child_path, 10) != 0)
			_exit(1);
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (uint64_t i = 100; i < 200; i++)
		tu_put_call(st, 0, 0, 0, i, "parent");
	trace_spool_stream_close(st);
	trace_spool_close(s);

	size_t n;
	CHECK_EQ_INT(tu_read_all(path, &n), XT_ERR_EOF);
	CHECK_EQ_INT(n, 200);
	/* The child's own spool is whole: a property, 10 calls with their
	 * RETs, an observation on call 0 (tu_write_sample_spool). */
	CHECK_EQ_INT(tu_read_all(child_path, &n), XT_ERR_EOF);
	CHECK_EQ_INT(n, 1 + 10 + 10 + 1);
}

static void test_open_refuses_existing_file_without_overwrite(void)
{
	const char *path = tu_path("exists.xfbt");
	struct trace_spool *s;
	struct xt_err err;
	CHECK_EQ_INT(tu_write_file(path, "x", 1), 0);
	CHECK_EQ_INT(trace_spool_open(&s, path, 0, &err), XT_ERR_IO);
	CHECK(s == NULL);
	CHECK(strstr(xt_err_msg(&err), path) != NULL);
	trace_spool_close(NULL);
	trace_spool_stream_close(NULL);
}

int main(void)
{
	XT_RUN(test_spool_round_trip_keeps_records_and_funcdefs);
	XT_RUN(test_concurrent_threads_merge_in_global_order);
	XT_RUN(test_record_bigger_than_region_gets_its_own);
	XT_RUN(test_spool_survives_sigkill_mid_stream);
	XT_RUN(test_abandon_in_child_leaves_parent_file_intact);
	XT_RUN(test_open_refuses_existing_file_without_overwrite);
	tu_cleanup();
	XT_TEST_MAIN_END();
}
