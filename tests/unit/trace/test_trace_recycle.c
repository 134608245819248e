/*
 * test_trace_recycle.c - recycled spool regions and PACKED chunks
 * (trace/trace_spool.c, trace_spool_pack.c, trace_spool_read.c; "Spool
 * form in detail" and "Crash behaviour" in docs/trace-format.md): every
 * committed record is read back exactly once, in order, whatever happens
 * to the writer, the compressor thread or the file.
 *
 * Small regions (a test-only tuning) make a few hundred KiB of records go
 * through hundreds of fills, so reuse, packing by writers and the reader's
 * ordering by fill index are exercised on every run.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include <zstd.h>

#include "trace_test_util.h"
#include "xt_hash.h"

#define SMALL_REGION 4096u

/* ---- reading back ---------------------------------------------------------- */

struct readback {
	enum xt_rc rc;             /* the reader's final code */
	uint64_t calls;            /* CALL records */
	uint64_t records;          /* all records */
	uint64_t max_seq_plus1;    /* 1 + the highest call seen */
	int ordered;               /* keys never decrease */
	int paired;                /* each RET directly after its CALL */
	int args_ok;               /* each CALL's first argument is its seq */
	int once;                  /* calls 0 .. max_seq are each there once */
	int no_dups;               /* no call is there twice */
	int cut_named;             /* the reader ended on "trace cut at byte N" */
	uint64_t digest;           /* of every record's type, flags, seq, payload */
};

static int quiet;             /* damaged files: no message per read */

/* Reads all of `path`, checking what struct readback lists.  `seen_cap`
 * bounds the call numbers it tracks. */
static struct readback read_back(const char *path, uint64_t seen_cap)
{
	struct readback rb = { .ordered = 1, .paired = 1, .args_ok = 1, .once = 1, .no_dups = 1 };
	struct trace_reader *r;
	struct trace_record rec;
	struct xt_err err;
	struct xt_arena arena;
	uint8_t *seen = calloc(seen_cap ? seen_cap : 1, 1);
	uint64_t prev_key = 0, last_call = UINT64_MAX;

	rb.rc = trace_reader_open(&r, path, &err);
	if (rb.rc != XT_OK) {
		if (!quiet)
			fprintf(stderr, "%s\n", xt_err_msg(&err));
		free(seen);
		return rb;
	}
	xt_arena_init(&arena, 4096);
	while ((rb.rc = trace_reader_next(r, &rec)) == XT_OK) {
		uint64_t key = 2 * rec.seq + ((rec.flags & TRACE_RECF_ATTACHED) ? 1 : 0);
		uint64_t h[3] = { rb.digest, rec.seq, (uint64_t)rec.type << 16 | rec.flags };
		rb.digest = xt_hash64(h, sizeof h) ^ xt_hash64(rec.payload, rec.payload_bytes);
		rb.ordered &= key >= prev_key;
		prev_key = key;
		rb.records++;
		if (rec.type == TRACE_REC_CALL) {
			struct trace_call c;
			if (trace_reader_decode_call(r, &rec, &arena, &c) != XT_OK) {
				rb.rc = XT_ERR_CORRUPT;
				break;
			}
			rb.args_ok &= c.nargs == 2 && c.args[0].u == c.no;
			if (c.no < seen_cap)
				seen[c.no]++;
			if (c.no + 1 > rb.max_seq_plus1)
				rb.max_seq_plus1 = c.no + 1;
			last_call = c.no;
			rb.calls++;
		} else if (rec.type == TRACE_REC_RET) {
			rb.paired &= rec.seq == last_call;
		}
		xt_arena_reset(&arena);
	}
	if (rb.rc == XT_ERR_CORRUPT)
		rb.cut_named = strstr(xt_err_msg(trace_reader_err(r)), "trace cut at byte ") != NULL;
	if (rb.rc != XT_ERR_EOF && !rb.cut_named && !quiet)
		fprintf(stderr, "read %s: %s\n", path, xt_err_msg(trace_reader_err(r)));
	for (uint64_t i = 0; i < rb.max_seq_plus1 && i < seen_cap; i++) {
		rb.once &= seen[i] == 1;
		rb.no_dups &= seen[i] <= 1;
	}
	xt_arena_fini(&arena);
	trace_reader_close(r);
	free(seen);
	return rb;
}

/* ---- writers ------------------------------------------------------------------ */

struct writer {
	struct trace_spool *s;
	atomic_ullong *seq;
	uint32_t thread_no;
	unsigned calls;
	unsigned big_every;        /* an observation larger than a region every
	                            * this many calls (0: never) */
	volatile uint64_t *committed; /* calls whose RET is committed, or NULL */
	int failed;
};

static __thread int tls_is_writer;

static void *writer_main(void *p)
{
	struct writer *w = p;
	struct trace_spool_stream *st = trace_spool_stream_open(w->s, w->thread_no);
	char text[64];
	tls_is_writer = 1;
	if (!st) {
		w->failed = 1;
		return NULL;
	}
	for (unsigned i = 0; i < w->calls && !w->failed; i++) {
		uint64_t seq = atomic_fetch_add(w->seq, 1);
		snprintf(text, sizeof text, "%.*s", (int)(seq % 40),
			 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz");
		w->failed |= tu_put_call(st, w->thread_no, i % 3, i < 3, seq, text);
		w->failed |= tu_put_ret(st, w->thread_no, seq);
		if (w->big_every && i % w->big_every == w->big_every - 1)
			w->failed |= tu_put_observation(st, seq, SMALL_REGION * 2 + 100);
		if (w->committed)
			*w->committed = seq + 1;
	}
	trace_spool_stream_close(st);
	return NULL;
}

/* Runs `n` writer threads of `calls` calls each on a spool tuned by `t`. */
static int write_spool(const char *path, const struct trace_spool_tuning *t, int n,
		       unsigned calls, unsigned big_every, struct trace_spool_stats *stats)
{
	struct trace_spool *s;
	struct xt_err err;
	atomic_ullong seq = 0;
	pthread_t th[8];
	struct writer w[8];
	int failed = 0;

	if (trace_spool_open(&s, path, 1, &err) != XT_OK || trace_spool_tune(s, t) != XT_OK)
		return -1;
	for (int i = 0; i < n; i++) {
		w[i] = (struct writer){ s, &seq, (uint32_t)i + 1, calls, i == 0 ? big_every : 0,
					NULL, 0 };
		pthread_create(&th[i], NULL, writer_main, &w[i]);
	}
	for (int i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		failed |= w[i].failed;
	}
	if (stats)
		trace_spool_stats(s, stats);
	trace_spool_close(s);
	return failed ? -1 : 0;
}

/* ---- reuse ---------------------------------------------------------------------- */

static void test_region_reuse_keeps_every_record(void)
{
	const char *path = tu_path("reuse.xfbt");
	const char *packed = tu_path("reuse.packed.xfbt");
	struct trace_spool_tuning t = { .region_bytes = SMALL_REGION, .pool_regions = 8 };
	struct trace_spool_stats st;
	struct xt_err err;
	const unsigned calls = 20000;

	CHECK_EQ_INT(write_spool(path, &t, 4, calls, 997, &st), 0);
	/* Hundreds of fills per thread went through a pool that stayed small. */
	CHECK(st.regions_reused > 1000);
	CHECK(st.chunks_packed > 1000);
	CHECK(st.regions_claimed < 64);
	CHECK(st.big_regions >= calls / 997);
	CHECK_EQ_INT(st.pack_failures, 0);
	printf("  claimed %llu, reused %llu, packed %llu (%llu by writers), %llu big\n",
	       (unsigned long long)st.regions_claimed, (unsigned long long)st.regions_reused,
	       (unsigned long long)st.chunks_packed, (unsigned long long)st.packed_by_writer,
	       (unsigned long long)st.big_regions);

	struct readback rb = read_back(path, 4 * calls);
	CHECK_EQ_INT(rb.rc, XT_ERR_EOF);
	CHECK_EQ_INT(rb.calls, 4 * calls);
	CHECK(rb.ordered && rb.paired && rb.args_ok && rb.once);

	/* The compacted form holds the same records. */
	CHECK_EQ_INT(trace_compact(path, packed, &err), XT_OK);
	struct readback rc = read_back(packed, 4 * calls);
	CHECK_EQ_INT(rc.rc, XT_ERR_EOF);
	CHECK_EQ_INT(rc.records, rb.records);
	CHECK(rc.digest == rb.digest);
}

/* Lets the compressor catch up: until its packed-chunk and claimed-region
 * counts stay the same for 4 ms and, once it runs (it starts with the first
 * full region, which the writer packs itself), it has prepared its first
 * TRACE_SPOOL_RESERVE_MIN regions; at most 2 s.  Only a heuristic: the
 * compressor runs SCHED_IDLE, so on a busy machine it may get no CPU at all
 * for longer (the test allows for that, below). */
static void wait_for_compressor(struct trace_spool *s)
{
	struct trace_spool_stats st;
	uint64_t last_packed = UINT64_MAX, last_claimed = UINT64_MAX;
	int stable = 0;

	for (int i = 0; i < 2000; i++) {
		trace_spool_stats(s, &st);
		stable = st.chunks_packed == last_packed && st.regions_claimed == last_claimed ? stable + 1 : 0;
		last_packed = st.chunks_packed;
		last_claimed = st.regions_claimed;
		if (stable >= 4 && (st.chunks_packed == 0 || st.regions_claimed >= 1 + TRACE_SPOOL_RESERVE_MIN))
			return;
		usleep(1000);
	}
}

/*
 * A writer the compressor keeps up with (it waits for the compressor about
 * once a region) recycles a handful of regions: the compressor prepares only
 * TRACE_SPOOL_RESERVE_MIN fresh ones, not more with every fill (which
 * faulted in the whole pool bound for any steady capture).  The reserve
 * doubles only when the writer finds no free region (and packs one itself):
 * on a busy machine the SCHED_IDLE compressor can fall behind whatever the
 * writer waits, so the bound allows one doubling per such shortage and is
 * the original 2 + TRACE_SPOOL_RESERVE_MIN when there was none.  (A fixed
 * 3 ms pause and a fixed bound failed under `meson test --num-processes 2`
 * on a loaded 2-core machine.)
 */
static void test_steady_writer_keeps_the_pool_small(void)
{
	const char *path = tu_path("steady.xfbt");
	struct trace_spool_tuning t = { .region_bytes = SMALL_REGION, .pool_regions = 64 };
	struct trace_spool_stats st;
	struct trace_spool *s;
	struct xt_err err;
	atomic_ullong seq = 0;
	int failed = 0;

	CHECK_EQ_INT(trace_spool_open(&s, path, 1, &err), XT_OK);
	CHECK_EQ_INT(trace_spool_tune(s, &t), XT_OK);
	struct trace_spool_stream *w = trace_spool_stream_open(s, 1);
	CHECK(w != NULL);
	for (unsigned i = 0; w && i < 6000; i++) {
		uint64_t n = atomic_fetch_add(&seq, 1);
		failed |= tu_put_call(w, 1, 0, i == 0, n, "steady");
		failed |= tu_put_ret(w, 1, n);
		/* let the compressor catch up: every quarter region while it
		 * starts, then every region */
		if (i < 400 ? i % 10 == 9 : i % 40 == 39)
			wait_for_compressor(s);
	}
	if (w)
		trace_spool_stream_close(w);
	trace_spool_stats(s, &st);
	trace_spool_close(s);
	CHECK_EQ_INT(failed, 0);
	printf("  %llu fills: claimed %llu, reused %llu, %llu packed by the writer\n",
	       (unsigned long long)(st.regions_claimed + st.regions_reused),
	       (unsigned long long)st.regions_claimed, (unsigned long long)st.regions_reused,
	       (unsigned long long)st.packed_by_writer);
	CHECK(st.regions_reused > 100);
	{
		/* The first fill is packed by the writer (the compressor starts
		 * with it); every further writer pack is a shortage. */
		uint64_t shortages = st.packed_by_writer ? st.packed_by_writer - 1 : 0, reserve = TRACE_SPOOL_RESERVE_MIN;
		for (uint64_t k = 0; k < shortages; k++)
			reserve = reserve < t.pool_regions / 2 ? reserve * 2 : t.pool_regions;
		if (shortages)
			printf("  %llu shortages (a busy machine starved the compressor): reserve %llu\n",
			       (unsigned long long)shortages, (unsigned long long)reserve);
		CHECK(st.regions_claimed <= 2 + reserve);
		CHECK(shortages * 4 < st.chunks_packed);   /* the compressor kept up, mostly */
	}
	struct readback rb = read_back(path, 6000);
	CHECK_EQ_INT(rb.rc, XT_ERR_EOF);
	CHECK_EQ_INT(rb.calls, 6000);
	CHECK(rb.ordered && rb.paired && rb.once);
}

static void test_writer_packs_every_region_without_the_thread(void)
{
	const char *path = tu_path("nothread.xfbt");
	struct trace_spool_tuning t = { .region_bytes = SMALL_REGION, .no_thread = 1 };
	struct trace_spool_stats st;

	CHECK_EQ_INT(write_spool(path, &t, 2, 5000, 0, &st), 0);
	CHECK_EQ_INT(st.chunks_packed, st.packed_by_writer); /* (before close) */
	CHECK(st.regions_claimed <= 2);  /* each stream's first region only */
	struct readback rb = read_back(path, 10000);
	CHECK_EQ_INT(rb.rc, XT_ERR_EOF);
	CHECK_EQ_INT(rb.calls, 10000);
	CHECK(rb.ordered && rb.paired && rb.args_ok && rb.once);
}

/* A reservation given up in a fresh region, then a record that does not
 * fit it: the empty fill must not leave a gap that ends the thread. */
static void test_empty_fill_leaves_no_gap(void)
{
	const char *path = tu_path("emptyfill.xfbt");
	struct trace_spool_tuning t = { .region_bytes = SMALL_REGION, .no_thread = 1 };
	struct trace_spool *s;
	struct xt_err err;
	uint64_t seq = 0;

	CHECK_EQ_INT(trace_spool_open(&s, path, 1, &err), XT_OK);
	CHECK_EQ_INT(trace_spool_tune(s, &t), XT_OK);
	struct trace_spool_stream *st = trace_spool_stream_open(s, 0);
	for (int round = 0; round < 3; round++) {
		/* Fill the current region, so the next record moves on. */
		for (int i = 0; i < 60; i++, seq++)
			tu_put_call(st, 0, 0, seq == 0, seq, "filling the region up");
		CHECK(trace_spool_reserve(st, SMALL_REGION - 200) != NULL); /* new fill */
		CHECK(trace_spool_reserve(st, 16) != NULL);                   /* given up */
		CHECK_EQ_INT(tu_put_observation(st, seq, SMALL_REGION + 10), 0); /* big */
		tu_put_call(st, 0, 0, 0, seq, "after the big one");
		seq++;
	}
	trace_spool_stream_close(st);
	trace_spool_close(s);
	struct readback rb = read_back(path, seq);
	CHECK_EQ_INT(rb.rc, XT_ERR_EOF);
	CHECK_EQ_INT(rb.calls, seq);
	CHECK(rb.ordered && rb.once);
}

/* ---- backpressure ------------------------------------------------------------ */

static atomic_int stall_release, stall_entered;

/* Stalls the compressor thread (not writers) in its first region. */
static void stall_hook(void *arg, enum trace_spool_event ev, uint32_t thread_no, uint64_t k)
{
	(void)arg;
	(void)thread_no;
	(void)k;
	if (ev != TRACE_SPOOL_EV_COMPRESS || tls_is_writer)
		return;
	atomic_store(&stall_entered, 1);
	while (!atomic_load(&stall_release))
		usleep(1000);
}

static void test_backpressure_writers_pack_while_compressor_stalls(void)
{
	const char *path = tu_path("stall.xfbt");
	struct trace_spool_tuning t = { .region_bytes = SMALL_REGION, .pool_regions = 4,
					.hook = stall_hook };
	struct trace_spool *s;
	struct trace_spool_stats st;
	struct xt_err err;
	atomic_ullong seq = 0;
	pthread_t th[3];
	struct writer w[3];

	atomic_store(&stall_release, 0);
	atomic_store(&stall_entered, 0);
	CHECK_EQ_INT(trace_spool_open(&s, path, 1, &err), XT_OK);
	CHECK_EQ_INT(trace_spool_tune(s, &t), XT_OK);
	/* A region that fills up starts the compressor; the one closed
	 * after it is queued for it, and it stalls there. */
	struct trace_spool_stream *primer = trace_spool_stream_open(s, 9);
	tls_is_writer = 1;
	for (int i = 0; i < 100; i++)
		tu_put_call(primer, 9, 7, i == 0, atomic_fetch_add(&seq, 1), "primer");
	tls_is_writer = 0;
	trace_spool_stream_close(primer);
	for (int i = 0; i < 30000 && !atomic_load(&stall_entered); i++)
		usleep(1000);
	CHECK(atomic_load(&stall_entered));
	for (int i = 0; i < 3; i++) {
		w[i] = (struct writer){ s, &seq, (uint32_t)i, 8000, 0, NULL, 0 };
		pthread_create(&th[i], NULL, writer_main, &w[i]);
	}
	/* The writers finish although the compressor never gets past its
	 * first region: they pack themselves. */
	for (int i = 0; i < 3; i++) {
		pthread_join(th[i], NULL);
		CHECK_EQ_INT(w[i].failed, 0);
	}
	trace_spool_stats(s, &st);
	CHECK(st.packed_by_writer > 100);
	CHECK(st.regions_claimed < 16);
	atomic_store(&stall_release, 1);
	trace_spool_close(s);

	struct readback rb = read_back(path, 24100);
	CHECK_EQ_INT(rb.rc, XT_ERR_EOF);
	CHECK_EQ_INT(rb.calls, 24100);
	CHECK(rb.ordered && rb.paired && rb.args_ok && rb.once);
}

/* ---- SIGKILL mid-chunk ------------------------------------------------------- */

struct kill_plan {
	enum trace_spool_event ev;  /* kill at this event ... */
	int nth;                    /* ... its nth occurrence */
	int seen;
};

static void kill_hook(void *arg, enum trace_spool_event ev, uint32_t thread_no, uint64_t k)
{
	struct kill_plan *p = arg;
	(void)thread_no;
	(void)k;
	if (ev == p->ev && ++p->seen == p->nth)
		raise(SIGKILL);
}

static const char *event_name(enum trace_spool_event ev)
{
	static const char *const names[] = { "compress", "pending", "written", "packed", "freed" };
	return names[ev];
}

/*
 * A child writes calls (one writer thread) and is killed by the hook at the
 * nth `ev` of packing, done by the compressor thread or (no_thread) by the
 * writer itself.  Every call whose RET was committed before the kill must
 * be read back once, and nothing else but possibly the one call after.
 */
static int killed_mid_chunk_is_whole(enum trace_spool_event ev, int nth, int no_thread)
{
	const char *path = tu_path("killed.xfbt");
	volatile uint64_t *committed = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int ok = 1;
	*committed = 0;
	pid_t pid = fork();
	if (pid == 0) {
		struct kill_plan plan = { ev, nth, 0 };
		struct trace_spool_tuning t = { .region_bytes = SMALL_REGION, .pool_regions = 4,
						.no_thread = no_thread, .hook = kill_hook,
						.hook_arg = &plan };
		struct trace_spool *s;
		struct xt_err err;
		atomic_ullong seq = 0;
		if (trace_spool_open(&s, path, 1, &err) != XT_OK || trace_spool_tune(s, &t) != XT_OK)
			_exit(2);
		struct writer w = { s, &seq, 0, 1000000, 0, committed, 0 };
		writer_main(&w);
		_exit(3); /* not killed: the event never came */
	}
	int status = 0;
	waitpid(pid, &status, 0);
	ok &= WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
	struct readback rb = read_back(path, 2000000);
	ok &= rb.rc == XT_ERR_EOF && rb.ordered && rb.paired && rb.args_ok && rb.once;
	ok &= rb.calls >= *committed && rb.calls <= *committed + 1;
	if (!ok)
		fprintf(stderr, "killed at %s #%d (%s): status %d, read %s, %llu calls of %llu\n",
			event_name(ev), nth, no_thread ? "writer packs" : "thread packs", status,
			xt_rc_name(rb.rc), (unsigned long long)rb.calls,
			(unsigned long long)*committed);
	munmap((void *)committed, 4096);
	return ok;
}

static void test_sigkill_mid_chunk_loses_and_duplicates_nothing(void)
{
	static const enum trace_spool_event evs[] = {
		TRACE_SPOOL_EV_COMPRESS, TRACE_SPOOL_EV_PENDING, TRACE_SPOOL_EV_WRITTEN,
		TRACE_SPOOL_EV_PACKED, TRACE_SPOOL_EV_FREED,
	};
	for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
		for (int no_thread = 0; no_thread < 2; no_thread++)
			for (int nth = 1; nth <= 40; nth += 13)
				CHECK(killed_mid_chunk_is_whole(evs[i], nth, no_thread));
}

/* ---- fork ------------------------------------------------------------------------- */

static atomic_int fork_release, fork_entered;

/* Holds the compressor inside its PENDING step, with the file lock held. */
static void fork_hook(void *arg, enum trace_spool_event ev, uint32_t thread_no, uint64_t k)
{
	(void)arg;
	(void)thread_no;
	(void)k;
	if (ev != TRACE_SPOOL_EV_PENDING || tls_is_writer || atomic_load(&fork_release))
		return;
	atomic_store(&fork_entered, 1);
	while (!atomic_load(&fork_release))
		usleep(1000);
}

static void test_fork_abandons_while_compressor_holds_the_lock(void)
{
	const char *path = tu_path("forkrun.xfbt");
	const char *child_path = tu_path("forkchild.xfbt");
	struct trace_spool_tuning t = { .region_bytes = SMALL_REGION, .hook = fork_hook };
	struct trace_spool *s;
	struct xt_err err;
	uint64_t seq = 0;

	atomic_store(&fork_release, 0);
	atomic_store(&fork_entered, 0);
	CHECK_EQ_INT(trace_spool_open(&s, path, 1, &err), XT_OK);
	CHECK_EQ_INT(trace_spool_tune(s, &t), XT_OK);
	/* A region that fills up starts the compressor; the one closed after
	 * it is queued for it, and it stops in its PENDING step with the file
	 * lock held (nothing may write meanwhile: a writer that packs needs
	 * that lock too). */
	struct trace_spool_stream *a = trace_spool_stream_open(s, 0);
	tls_is_writer = 1;
	for (; seq < 100; seq++)
		tu_put_call(a, 0, 0, seq == 0, seq, "before the fork");
	tls_is_writer = 0;
	trace_spool_stream_close(a);
	for (int i = 0; i < 30000 && !atomic_load(&fork_entered); i++)
		usleep(1000);
	CHECK(atomic_load(&fork_entered));
	pid_t pid = fork();
	if (pid == 0) {
		alarm(60); /* a deadlock fails the test instead of hanging it */
		trace_spool_abandon(s);
		size_t n;
		if (tu_write_sample_spool(child_path, 100) != 0 ||
		    tu_read_all(child_path, &n) != XT_ERR_EOF)
			_exit(1);
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	atomic_store(&fork_release, 1);
	struct trace_spool_stream *b = trace_spool_stream_open(s, 1);
	for (int i = 0; i < 20000; i++, seq++)
		tu_put_call(b, 1, 0, i == 0, seq, "after the fork");
	trace_spool_stream_close(b);
	trace_spool_close(s);

	struct trace_reader *r;
	struct trace_record rec;
	uint64_t n = 0;
	int ok = 1;
	CHECK_EQ_INT(trace_reader_open(&r, path, &err), XT_OK);
	if (!r)
		return;
	while (trace_reader_next(r, &rec) == XT_OK)
		ok &= rec.seq == n++;
	CHECK_EQ_INT(trace_reader_err(r)->rc, XT_OK);
	CHECK(ok);
	CHECK_EQ_INT(n, seq);
	trace_reader_close(r);
}

/* ---- damaged packed spools ---------------------------------------------------- */

static const char *packed_spool;   /* written once by make_packed_spool() */
static struct readback packed_intact;

static int make_packed_spool(void)
{
	struct trace_spool_tuning t = { .region_bytes = 1024, .pool_regions = 2 };
	packed_spool = strdup(tu_path("damage.xfbt"));
	if (write_spool(packed_spool, &t, 3, 300, 0, NULL) != 0)
		return -1;
	packed_intact = read_back(packed_spool, 900);
	return packed_intact.rc == XT_ERR_EOF && packed_intact.calls == 900 ? 0 : -1;
}

/* The walk of chunk headers: offsets of the chunks of `kind`. */
static size_t chunks_of(const uint8_t *data, size_t len, unsigned kind, size_t *offs, size_t cap)
{
	size_t off = TRACE_FILE_HEADER_BYTES, n = 0;
	while (off + TRACE_CHUNK_HEADER_BYTES <= len) {
		uint32_t stored;
		memcpy(&stored, data + off + 12, 4);
		if (data[off + 4] == kind && n < cap)
			offs[n++] = off;
		off += TRACE_CHUNK_HEADER_BYTES + stored;
	}
	return n;
}

static void test_packed_spool_reads_cut_at_any_length(void)
{
	const char *path = tu_path("cut.xfbt");
	size_t len, prev = SIZE_MAX;
	int ok = 1, monotonic = 1, partial = 0, named = 0;
	uint8_t *data = tu_read_file(packed_spool, &len);
	size_t offs[8];
	CHECK(data != NULL);   /* written by make_packed_spool() */
	if (!data)
		return;
	CHECK(chunks_of(data, len, TRACE_CHUNK_PACKED, offs, 8) > 3);
	CHECK(chunks_of(data, len, TRACE_CHUNK_FREE, offs, 8) > 0);
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	CHECK(fd >= 0 && write(fd, data, len) == (ssize_t)len);
	/* Longest first, so ftruncate can do the cutting. */
	for (size_t cut = len; cut-- > TRACE_FILE_HEADER_BYTES;) {
		if (cut % 5 && (cut + 1) % 32 > 2)
			continue;
		CHECK(ftruncate(fd, (off_t)cut) == 0);
		struct readback rb = read_back(path, 900);
		/* The records before the cut, then the cut named (or, cut at
		 * a chunk boundary, a file that looks whole). */
		ok &= (rb.rc == XT_ERR_EOF || rb.cut_named) && rb.ordered && rb.paired && rb.no_dups;
		named += rb.cut_named;
		if (rb.calls > prev)
			monotonic = 0;
		partial += rb.calls > 0 && rb.calls < 900;
		prev = rb.calls;
	}
	close(fd);
	CHECK(ok);
	CHECK(monotonic);
	CHECK(partial > 0);
	CHECK(named > 0);
	free(data);
}

static void test_packed_spool_bit_flips_are_reported_or_harmless(void)
{
	const char *path = tu_path("flip.xfbt");
	uint64_t seed = 0xfeed;
	size_t len, ncorrupt = 0, flips = 3000;
	int ok = 1;
	uint8_t *data = tu_read_file(packed_spool, &len);
	CHECK(data != NULL);   /* written by make_packed_spool() */
	if (!data)
		return;
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	CHECK(fd >= 0 && write(fd, data, len) == (ssize_t)len);
	for (size_t i = 0; i < flips; i++) {
		size_t at = tu_rand(&seed) % len;
		uint8_t b = data[at] ^ (uint8_t)(1u << (tu_rand(&seed) % 8));
		CHECK(pwrite(fd, &b, 1, (off_t)at) == 1);
		struct readback rb = read_back(path, 900);
		/* A closed spool has every fill packed: no zero size field
		 * can end a thread early, so a read that succeeds is the
		 * intact one. */
		if (rb.rc == XT_ERR_EOF && (rb.records != packed_intact.records ||
					    rb.digest != packed_intact.digest)) {
			fprintf(stderr, "flip at %zu read differently without an error\n", at);
			ok = 0;
		} else if (rb.rc != XT_ERR_EOF && rb.rc != XT_ERR_CORRUPT) {
			fprintf(stderr, "flip at %zu: %s\n", at, xt_rc_name(rb.rc));
			ok = 0;
		}
		ncorrupt += rb.rc == XT_ERR_CORRUPT;
		CHECK(pwrite(fd, &data[at], 1, (off_t)at) == 1);
	}
	close(fd);
	CHECK(ok);
	CHECK(ncorrupt > flips / 4);
	printf("  %zu of %zu flips reported as corrupt\n", ncorrupt, flips);
	free(data);
}

static void test_reader_rejects_a_fill_packed_twice(void)
{
	const char *path = tu_path("twice.xfbt");
	size_t len, offs[4];
	uint8_t *data = tu_read_file(packed_spool, &len);
	CHECK(data != NULL);   /* written by make_packed_spool() */
	if (!data)
		return;
	CHECK(chunks_of(data, len, TRACE_CHUNK_PACKED, offs, 4) == 4);
	uint32_t stored;
	memcpy(&stored, data + offs[1] + 12, 4);
	size_t chunk = TRACE_CHUNK_HEADER_BYTES + stored;
	uint8_t *more = malloc(len + chunk);
	memcpy(more, data, len);
	memcpy(more + len, data + offs[1], chunk);
	CHECK_EQ_INT(tu_write_file(path, more, len + chunk), 0);
	struct readback rb = read_back(path, 900);
	CHECK_EQ_INT(rb.rc, XT_ERR_CORRUPT);
	free(more);
	free(data);
}

/* A PACKED chunk turned back into PENDING: its fill is missing, so its
 * thread ends just before it (as in a cut file); the others are whole. */
static void test_reader_ends_a_thread_at_its_first_missing_fill(void)
{
	const char *path = tu_path("gap.xfbt");
	size_t len, offs[64], n;
	uint8_t *data = tu_read_file(packed_spool, &len);
	CHECK(data != NULL);   /* written by make_packed_spool() */
	if (!data)
		return;
	n = chunks_of(data, len, TRACE_CHUNK_PACKED, offs, 64);
	CHECK(n > 10);
	uint8_t *h = data + offs[n / 2];
	h[4] = TRACE_CHUNK_PENDING;
	uint32_t check = trace_chunk_header_check(h);
	memcpy(h + 20, &check, 4);
	CHECK_EQ_INT(tu_write_file(path, data, len), 0);
	struct readback rb = read_back(path, 900);
	CHECK_EQ_INT(rb.rc, XT_ERR_EOF);
	CHECK(rb.calls < 900 && rb.calls > 300);
	CHECK(rb.ordered && rb.paired && rb.no_dups);
	free(data);
}

/*
 * The state a crash leaves between packing a fill and recycling its region,
 * made by hand in the middle of a thread's fills: a FREE region of the
 * closed spool gets the records and label of fill (t, k) back, and the
 * PACKED chunk of (t, k) stays (complete) or becomes PENDING (the kill came
 * before its final header).  Either way the fill is read once.
 */
static int read_with_fill_back_in_region(int pending)
{
	const char *path = tu_path("region_back.xfbt");
	size_t len, packs[64], frees[64], np, nf;
	uint8_t *data = tu_read_file(packed_spool, &len);
	int ok = 0;
	if (!data) {
		fprintf(stderr, "cannot read %s\n", packed_spool);
		return 0;
	}
	np = chunks_of(data, len, TRACE_CHUNK_PACKED, packs, 64);
	nf = chunks_of(data, len, TRACE_CHUNK_FREE, frees, 64);
	if (np > 10 && nf > 0) {
		uint8_t *p = data + packs[np / 2], *region = data + frees[0];
		uint32_t thread_no, stored, raw, cap, check;
		uint64_t k;
		memcpy(&thread_no, p + 8, 4);
		memcpy(&stored, p + 12, 4);
		memcpy(&raw, p + 16, 4);
		memcpy(&k, p + 24, 8);
		memcpy(&cap, region + 12, 4);
		/* The frame, without the zero padding that follows it. */
		size_t frame = ZSTD_findFrameCompressedSize(p + TRACE_CHUNK_HEADER_BYTES, stored);
		size_t got = ZSTD_decompress(region + TRACE_CHUNK_HEADER_BYTES, cap,
					     p + TRACE_CHUNK_HEADER_BYTES, frame);
		if (!ZSTD_isError(got) && got == raw) {
			/* A region holding a fill has zeros after its last record
			 * (every commit zeroes the next size field).  The copy must
			 * too: the FREE region may hold an older fill, and zstd may
			 * use the room after its output as scratch. */
			memset(region + TRACE_CHUNK_HEADER_BYTES + got, 0, cap - got);
			memcpy(region + 8, &thread_no, 4);
			memcpy(region + 24, &k, 8);
			region[4] = TRACE_CHUNK_SPOOL;
			check = trace_chunk_header_check(region);
			memcpy(region + 20, &check, 4);
			if (pending) {
				p[4] = TRACE_CHUNK_PENDING;
				check = trace_chunk_header_check(p);
				memcpy(p + 20, &check, 4);
			}
			tu_write_file(path, data, len);
			struct readback rb = read_back(path, 900);
			ok = rb.rc == XT_ERR_EOF && rb.records == packed_intact.records &&
			     rb.digest == packed_intact.digest && rb.once;
		}
	}
	free(data);
	return ok;
}

static void test_reader_reads_a_packed_fill_still_in_its_region_once(void)
{
	CHECK(read_with_fill_back_in_region(0));
}

static void test_reader_reads_a_fill_whose_chunk_is_pending_from_its_region(void)
{
	CHECK(read_with_fill_back_in_region(1));
}

int main(void)
{
	XT_RUN(test_region_reuse_keeps_every_record);
	XT_RUN(test_steady_writer_keeps_the_pool_small);
	XT_RUN(test_writer_packs_every_region_without_the_thread);
	XT_RUN(test_empty_fill_leaves_no_gap);
	XT_RUN(test_backpressure_writers_pack_while_compressor_stalls);
	XT_RUN(test_sigkill_mid_chunk_loses_and_duplicates_nothing);
	XT_RUN(test_fork_abandons_while_compressor_holds_the_lock);
	if (make_packed_spool() != 0) {
		printf("could not write the damaged-spool sample\n");
		return 1;
	}
	quiet = 1;
	XT_RUN(test_packed_spool_reads_cut_at_any_length);
	XT_RUN(test_packed_spool_bit_flips_are_reported_or_harmless);
	XT_RUN(test_reader_rejects_a_fill_packed_twice);
	XT_RUN(test_reader_ends_a_thread_at_its_first_missing_fill);
	XT_RUN(test_reader_reads_a_packed_fill_still_in_its_region_once);
	XT_RUN(test_reader_reads_a_fill_whose_chunk_is_pending_from_its_region);
	free((void *)packed_spool);
	tu_cleanup();
	XT_TEST_MAIN_END();
}
