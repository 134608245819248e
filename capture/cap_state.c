/*
 * cap_state.c - the capture's life cycle: lazy start at the first API call,
 * per-thread streams, fork, and stopping on internal failure.
 *
 * Start: the first wrapper call of the process opens the output with
 * O_EXCL and writes the PROPERTY records.  Names (docs/guide.md): the
 * process `xfbtrace capture` started (XFBTRACE_ROOT_PID; any process when
 * that is unset) writes XFBTRACE_OUTPUT; every other process, forked or
 * started by exec, writes <stem>.<pid>.xfbt; a name already taken (an exec
 * in the same process after its first image traced) moves on to
 * <stem>.<pid>.xfbt, then <stem>.<pid>.<N>.xfbt.  Without XFBTRACE_OUTPUT:
 * <program>.xfbt in the cwd, else <program>.<N>.xfbt.  Each process reports
 * its trace, and a capture that stopped, to `xfbtrace capture`
 * (cap_process.c).  Nothing
 * is needed at exit: every committed record is already in the spool file
 * (trace_spool.h), which `xfbtrace capture` compacts afterwards.
 *
 * Fork: instead of a getpid() per call (apitrace's cost), a pthread_atfork
 * child handler abandons the parent's spool and marks capture as not
 * started; the child's next call starts <stem>.<pid>.xfbt with call and
 * thread numbers from 0.  The handlers are registered when the library is
 * loaded, not at the first call: a program may fork before its first GL
 * call (Godot's GPU-detection children), and such a child must not take the
 * parent's file.
 *
 * Failure: cap_stop() prints one line and turns recording off for good;
 * wrappers keep forwarding calls, so the application is never harmed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cap_observe.h"
#include "cap_state.h"
#include "trace_enc.h"
#include "xt_fault.h"
#include "xt_log.h"
#include "xt_revision.h"

struct cap_global cap_g = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

__thread struct cap_thread cap_tls __attribute__((tls_model("initial-exec")));

static pthread_once_t cap_once = PTHREAD_ONCE_INIT;
/* Set in a forked child: its trace is <stem>.<pid>.xfbt. */
static unsigned cap_child_pid;

void cap_stop(const char *fmt, ...)
{
	int expected = CAP_ON;
	char msg[512];
	va_list ap;

	if (!atomic_compare_exchange_strong(&cap_g.state, &expected, CAP_STOPPED)) {
		expected = CAP_OFF;
		if (!atomic_compare_exchange_strong(&cap_g.state, &expected, CAP_STOPPED))
			return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "xfbtrace: capture stopped: %s\n", msg);
	cap_process_report("lost", cap_g.path, msg);
}

static void program_name(char *out, size_t cap)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	const char *base = "app";

	if (n > 0) {
		buf[n] = '\0';
		base = strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf;
	} else if (program_invocation_short_name && *program_invocation_short_name) {
		base = program_invocation_short_name;
	}
	snprintf(out, cap, "%.255s", base);
}

static void choose_stem(void)
{
	const char *env = getenv("XFBTRACE_OUTPUT");
	const char *obs = getenv("XFBTRACE_OBSERVE");
	char prog[256];
	size_t n;

	const char *root = getenv("XFBTRACE_ROOT_PID");

	cap_g.observe = !(obs && strcmp(obs, "0") == 0);
	cap_g.root_pid = root ? strtol(root, NULL, 10) : 0;
	if (env && *env) {
		cap_g.explicit_output = true;
		snprintf(cap_g.stem, sizeof(cap_g.stem), "%s", env);
	} else {
		program_name(prog, sizeof(prog));
		snprintf(cap_g.stem, sizeof(cap_g.stem), "%s", prog);
	}
	n = strlen(cap_g.stem);
	if (n > 5 && strcmp(cap_g.stem + n - 5, ".xfbt") == 0)
		cap_g.stem[n - 5] = '\0';
}

/* Tries `path` (O_EXCL); remembers it for reports. */
static enum xt_rc try_open(const char *path, struct xt_err *err)
{
	snprintf(cap_g.path, sizeof(cap_g.path), "%s", path);
	xt_err_clear(err);
	return trace_spool_open(&cap_g.spool, path, 0, err);
}

/* Opens the spool under the first free name of those the file comment
 * lists for this process. */
static bool open_output(unsigned child_pid)
{
	const char *env = getenv("XFBTRACE_OUTPUT");
	const long pid = (long)getpid();
	struct xt_err err;
	char path[sizeof(cap_g.stem) + 48];
	enum xt_rc rc = XT_ERR_IO;

	if (child_pid || cap_g.explicit_output) {
		const bool own = !child_pid && cap_g.explicit_output &&
				 (!cap_g.root_pid || cap_g.root_pid == pid);
		for (unsigned i = own ? 0 : 1; i < 100; i++) {
			if (i == 0)
				snprintf(path, sizeof(path), "%s", env ? env : cap_g.stem);
			else if (i == 1)
				snprintf(path, sizeof(path), "%s.%ld.xfbt", cap_g.stem, pid);
			else
				snprintf(path, sizeof(path), "%s.%ld.%u.xfbt", cap_g.stem, pid, i - 1);
			rc = try_open(path, &err);
			if (rc == XT_OK || access(path, F_OK) != 0)
				break;
		}
	} else {
		for (unsigned i = 0; i < 10000; i++) {
			if (i == 0)
				snprintf(path, sizeof(path), "%s.xfbt", cap_g.stem);
			else
				snprintf(path, sizeof(path), "%s.%u.xfbt", cap_g.stem, i);
			rc = try_open(path, &err);
			if (rc == XT_OK || access(path, F_OK) != 0)
				break;
		}
	}
	if (rc != XT_OK) {
		cap_stop("cannot create %s: %s", path, xt_err_msg(&err));
		return false;
	}
	cap_process_report("trace", path, NULL);
	return true;
}

static void thread_exit(void *arg)
{
	struct cap_thread *t = arg;

	pthread_mutex_lock(&cap_g.lock);
	if (t && t->stream && t->gen == atomic_load(&cap_g.gen) && cap_g.spool) {
		trace_spool_stream_close(t->stream);
		t->stream = NULL;
		t->gen = 0;
	}
	pthread_mutex_unlock(&cap_g.lock);
}

static void atfork_prepare(void)
{
	pthread_mutex_lock(&cap_g.lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&cap_g.lock);
}

static void atfork_child(void)
{
	struct cap_thread *t = &cap_tls;

	if (cap_g.spool) {
		trace_spool_abandon(cap_g.spool);  /* frees the streams too */
		cap_g.spool = NULL;
	}
	t->stream = NULL;
	t->gen = 0;
	if (atomic_load(&cap_g.state) == CAP_ON)
		atomic_store(&cap_g.state, CAP_OFF);
	atomic_store(&cap_g.next_seq, 0);
	atomic_store(&cap_g.next_thread, 0);
	cap_child_pid = (unsigned)getpid();
	pthread_mutex_unlock(&cap_g.lock);
}

__attribute__((constructor)) static void cap_state_load(void)
{
	if (pthread_atfork(atfork_prepare, atfork_parent, atfork_child) != 0)
		cap_stop("pthread_atfork failed");
}

static void once_init(void)
{
	choose_stem();
	if (pthread_key_create(&cap_g.thread_key, thread_exit) != 0)
		cap_stop("pthread_key_create failed");
}

static void property_file(struct cap_thread *t, uint64_t seq, const char *key,
			  const char *path, bool nul_to_space)
{
	char buf[8192];
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	while (n < (ssize_t)sizeof(buf)) {
		ssize_t r = read(fd, buf + n, sizeof(buf) - (size_t)n);
		if (r <= 0)
			break;
		n += r;
	}
	close(fd);
	while (n > 0 && (buf[n - 1] == '\0' || buf[n - 1] == '\n'))
		n--;
	for (ssize_t i = 0; nul_to_space && i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	cap_property(t, seq, key, buf, (size_t)n);
}

static void start_properties(struct cap_thread *t)
{
	uint64_t seq = atomic_load(&cap_g.next_seq);
	char buf[PATH_MAX];
	time_t now = time(NULL);
	struct tm tm;
	ssize_t n;

	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n > 0)
		cap_property(t, seq, "program", buf, (size_t)n);
	property_file(t, seq, "cmdline", "/proc/self/cmdline", true);
	n = snprintf(buf, sizeof(buf), "%ld", (long)getpid());
	cap_property(t, seq, "pid", buf, (size_t)n);
	gmtime_r(&now, &tm);
	n = (ssize_t)strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	cap_property(t, seq, "capture.time", buf, (size_t)n);
	cap_property(t, seq, "xfbtrace.revision", XT_REVISION, strlen(XT_REVISION));
	cap_property(t, seq, "capture.observe", cap_g.observe ? "1" : "0", 1);
	if (cap_g.observe) {
		static const char *const modes[] = { "auto", "async", "sync" };
		const char *m = modes[cap_observe_mode()];
		cap_property(t, seq, "capture.observe_mode", m, strlen(m));
	}
}

bool cap_thread_begin(struct cap_thread *t)
{
	bool started_here = false;
	unsigned gen;

	if (atomic_load(&cap_g.state) == CAP_STOPPED)
		return false;
	pthread_once(&cap_once, once_init);
	if (atomic_load(&cap_g.state) == CAP_OFF) {
		pthread_mutex_lock(&cap_g.lock);
		if (atomic_load(&cap_g.state) == CAP_OFF && open_output(cap_child_pid)) {
			atomic_fetch_add(&cap_g.gen, 1);
			atomic_store(&cap_g.state, CAP_ON);
			started_here = true;
		}
		pthread_mutex_unlock(&cap_g.lock);
	}
	if (atomic_load(&cap_g.state) != CAP_ON)
		return false;
	gen = atomic_load(&cap_g.gen);
	if (t->gen != gen) {
		if (!t->funcdef_seen)
			t->funcdef_seen = xt_calloc((CAP_F_COUNT + 7) / 8, 1);
		else
			memset(t->funcdef_seen, 0, (CAP_F_COUNT + 7) / 8);
		pthread_mutex_lock(&cap_g.lock);
		t->thread_no = atomic_fetch_add(&cap_g.next_thread, 1);
		t->stream = t->funcdef_seen && cap_g.spool ?
			trace_spool_stream_open(cap_g.spool, t->thread_no) : NULL;
		pthread_mutex_unlock(&cap_g.lock);
		if (!t->stream) {
			cap_stop("cannot open a stream for thread %u: out of memory", t->thread_no);
			return false;
		}
		t->gen = gen;
		t->announce = true;
		pthread_setspecific(cap_g.thread_key, t);
	}
	if (started_here)
		start_properties(t);
	return atomic_load(&cap_g.state) == CAP_ON;
}

/* With XFBTRACE_LOG=info (or debug): the spool's counters at exit, which
 * tell where the capture's time went on a byte-heavy workload (fresh
 * regions claimed, regions the application's own threads had to pack
 * because the compressor thread was behind). */
__attribute__((destructor)) static void spool_stats_at_exit(void)
{
	struct trace_spool_stats s;

	if (xt_log_level() < XT_LOG_INFO || !cap_g.spool)
		return;
	trace_spool_stats(cap_g.spool, &s);
	xt_info("capture: spool: %llu regions claimed, %llu reused, %llu for big records; "
		"%llu chunks packed (%llu by the application's threads), %llu -> %llu bytes",
		(unsigned long long)s.regions_claimed, (unsigned long long)s.regions_reused,
		(unsigned long long)s.big_regions, (unsigned long long)s.chunks_packed,
		(unsigned long long)s.packed_by_writer, (unsigned long long)s.raw_bytes,
		(unsigned long long)s.packed_bytes);
}
