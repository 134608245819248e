/*
 * cli_capture.c - `xfbtrace capture`: run a program under the capture
 * library and turn what it recorded into compacted traces.
 *
 * The library (libxfbtrace-capture.so) is preloaded into the program and
 * writes a spool-form trace while it runs; that file survives any death of
 * the program.  Every process the program starts is captured too (the
 * library follows fork and exec, capture/cap_process.c): the program itself
 * writes FILE, every other process that makes GL calls <stem>.<pid>.xfbt,
 * and each reports its trace, or a capture that stopped, in a manifest file
 * this command names in XFBTRACE_MANIFEST.  This command is the subreaper
 * of them all: when the program and every process it left running have
 * ended, however they ended, it compacts each reported spool into the
 * final zstd form (^C while it waits for the processes the program left
 * running stops the wait; their spools are left as they are).  Exit status: the program's, or 128+signal when it was
 * killed, as shells report it; 2 when it would be 0 but a trace was lost
 * (a capture stopped), no trace holds a GL call, or compaction failed.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "trace_reader.h"
#include "xt_buf.h"
#include "xt_log.h"

#define CMD "capture"

#define CAPTURE_LIB "libxfbtrace-capture.so"

/*
 * Where the capture library is looked for when XFBTRACE_CAPTURE_LIB is not
 * set, relative to the directory of this program's real path
 * (/proc/self/exe): first where `meson install` puts it relative to bindir,
 * so that an install works wherever it was put or moved (any --prefix, a
 * DESTDIR stage run where it lies); then the build tree's capture/.  Last,
 * the absolute directory of the configured install, XFBTRACE_LIBDIR.
 */
static const char *const lib_dirs_rel[] = {
	XFBTRACE_BINDIR_TO_LIBDIR,	/* installed: <libdir>/xfbtrace */
	"../capture",			/* build tree */
};
#define N_LIB_DIRS_REL (sizeof lib_dirs_rel / sizeof lib_dirs_rel[0])

/* The directory of this program's real path into `dir`; false if unknown. */
static bool exe_dir(char dir[PATH_MAX])
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n <= 0)
		return false;
	exe[n] = '\0';
	snprintf(dir, PATH_MAX, "%s", dirname(exe));
	return true;
}

static void usage(FILE *f)
{
	char dir[PATH_MAX];

	fprintf(f,
		"usage: xfbtrace capture [-o FILE] [--observe=MODE] [--frames N|all]\n"
		"                        -- PROGRAM [ARGS...]\n"
		"\n"
		"Runs PROGRAM with the capture library preloaded.  Every GL, GLES, EGL\n"
		"and GLX call is recorded with the memory it reads, and after each\n"
		"glEndTransformFeedback / glPauseTransformFeedback the contents of the\n"
		"bound TF buffers, query results and read-back data, among them the\n"
		"pixels every glReadPixels returned (observations), and after each\n"
		"link the layout the driver chose for the program's uniform blocks\n"
		"(which a replay of shared / packed blocks follows).\n"
		"\n"
		"  -o, --output FILE   trace to write (default: <program>.xfbt here);\n"
		"                      every other process PROGRAM starts (fork, exec)\n"
		"                      that makes GL calls writes FILE's stem.<pid>.xfbt\n"
		"      --observe=MODE  async: TF buffers are copied on the GPU and read back\n"
		"                      later, so that the application does not wait for\n"
		"                      the GPU; sync: read back at the call; auto (the\n"
		"                      default): async, except sync on CPU renderers\n"
		"                      (llvmpipe), where it costs less; off: calls only\n"
		"      --no-observe    record calls only, no read-back from the driver\n"
		"                      (no observations, no uniform block layouts)\n"
		"      --frames N|all  also keep the colour buffer of the first N frames\n"
		"                      (or of all): the back buffer, read as 8-bit RGBA\n"
		"                      just before each eglSwapBuffers / glXSwapBuffers\n"
		"                      (default: none; GL 3.0 / GLES 3.0 contexts)\n"
		"  -h, --help          this text\n"
		"\n"
		"The capture ends when PROGRAM and every process it started have ended.\n"
		"The exit status is PROGRAM's (128+N when killed by signal N); 2 instead\n"
		"of 0 when a trace was lost (a process's capture stopped, e.g. on a full\n"
		"disk), no trace holds a GL call, or a trace could not be compacted.\n"
		"\n"
		"The capture library, " CAPTURE_LIB ", is the file XFBTRACE_CAPTURE_LIB\n"
		"names when it is set; otherwise the first one found of\n");
	if (!exe_dir(dir))
		snprintf(dir, sizeof dir, "<directory of this xfbtrace>");
	for (size_t i = 0; i < N_LIB_DIRS_REL; i++)
		fprintf(f, "  %s/%s/" CAPTURE_LIB "%s\n", dir, lib_dirs_rel[i],
			i == 0 ? "   (installed)" : "   (build tree)");
	fprintf(f, "  " XFBTRACE_LIBDIR "/" CAPTURE_LIB "   (configured install)\n");
}

/*
 * Finds the capture library (see lib_dirs_rel) and writes its real path to
 * `out`.  On failure, `tried` says where it looked, for the message.
 */
static bool find_capture_lib(char out[PATH_MAX], struct xt_buf *tried)
{
	const char *env = getenv("XFBTRACE_CAPTURE_LIB");
	char dir[PATH_MAX];

	if (env && *env) {
		xt_buf_printf(tried, "XFBTRACE_CAPTURE_LIB=%s", env);
		return realpath(env, out) && access(out, R_OK) == 0;
	}
	if (exe_dir(dir)) {
		for (size_t i = 0; i < N_LIB_DIRS_REL; i++) {
			char path[PATH_MAX * 2];
			snprintf(path, sizeof path, "%s/%s/" CAPTURE_LIB, dir, lib_dirs_rel[i]);
			xt_buf_printf(tried, "%s, ", path);
			if (access(path, R_OK) == 0 && realpath(path, out))
				return true;
		}
	}
	xt_buf_printf(tried, "%s/" CAPTURE_LIB, XFBTRACE_LIBDIR);
	return realpath(XFBTRACE_LIBDIR "/" CAPTURE_LIB, out) && access(out, R_OK) == 0;
}

/* Absolute path for `path` whose directory must exist. */
static bool absolute_output(const char *path, char *out)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", path);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (!*base)
		return false;
	if (!realpath(dirname(tmp), dir))
		return false;
	return snprintf(out, PATH_MAX, "%s/%s", dir, base) < PATH_MAX;
}

static const char *signal_name(int sig)
{
	const char *s = sigabbrev_np(sig);
	return s ? s : "?";
}

/* Counts calls and observations of a trace for the closing summary. */
static enum xt_rc summarize(const char *path, uint64_t *calls, uint64_t *observations,
			    struct xt_err *err)
{
	struct trace_reader *r;
	struct trace_record rec;
	enum xt_rc rc = trace_reader_open(&r, path, err);

	*calls = *observations = 0;
	if (rc)
		return rc;
	while ((rc = trace_reader_next(r, &rec)) == XT_OK) {
		if (rec.type == TRACE_REC_CALL)
			++*calls;
		else if (rec.type == TRACE_REC_OBSERVATION)
			++*observations;
	}
	if (rc == XT_ERR_EOF)
		rc = XT_OK;
	else
		xt_err_copy(err, trace_reader_err(r));
	trace_reader_close(r);
	return rc;
}

static bool is_spool(const char *path)
{
	struct trace_reader *r;
	struct xt_err err;
	if (trace_reader_open(&r, path, &err))
		return false;
	bool spool = trace_reader_is_spool(r);
	trace_reader_close(r);
	return spool;
}

/* Compacts one spool (unless !compact: its process is still writing it) and
 * prints its summary, naming the process `prog` `pid`; false on failure. */
static bool finish_trace(const char *path, const char *prog, const char *pid, bool compact,
			 uint64_t *total)
{
	struct xt_err err;
	struct stat st;
	uint64_t calls, obs;

	xt_err_clear(&err);
	if (compact && is_spool(path) && trace_compact(path, path, &err)) {
		fprintf(stderr, "xfbtrace capture: could not compact %s: %s\n"
			"xfbtrace capture: the uncompacted trace is kept and readable\n",
			path, xt_err_msg(&err));
		return false;
	}
	if (summarize(path, &calls, &obs, &err)) {
		fprintf(stderr, "xfbtrace capture: %s: %s\n", path, xt_err_msg(&err));
		return false;
	}
	stat(path, &st);
	*total += calls;
	fprintf(stderr, "xfbtrace capture: %s %s (%s, pid %s): %llu calls, %llu observations, "
		"%lld bytes\n", compact ? "wrote" : "still running, so far", path, prog, pid, (unsigned long long)calls, (unsigned long long)obs, (long long)st.st_size);
	return true;
}

/* Set by ^C while waiting for the processes the program left running. */
static volatile sig_atomic_t stop_waiting;

static void on_interrupt(int sig)
{
	(void)sig;
	stop_waiting = 1;
}

/*
 * What the processes reported (capture/cap_process.c): one "trace" line per
 * trace created, one "lost" line per capture that stopped on an internal
 * failure.  Compacts each trace once, prints one line per lost trace, and
 * says how many traces were written.  *lost and *traces count them.
 */
static bool finish_reported(const char *manifest, unsigned *traces, unsigned *lost,
			    uint64_t *calls)
{
	FILE *f = fopen(manifest, "r");
	char line[PATH_MAX + 1024];
	char **done = NULL;
	size_t ndone = 0;
	bool ok = true;

	*traces = *lost = 0;
	*calls = 0;
	if (!f) {
		fprintf(stderr, "xfbtrace capture: cannot read %s: %s\n", manifest, strerror(errno));
		return false;
	}
	while (fgets(line, sizeof line, f)) {
		char *fields[5] = { 0 };
		char *save = NULL, *tok = strtok_r(line, "\t\n", &save);
		unsigned n = 0;
		for (; tok && n < 5; tok = strtok_r(NULL, "\t\n", &save))
			fields[n++] = tok;
		if (n >= 5 && !strcmp(fields[0], "lost")) {
			fprintf(stderr, "xfbtrace capture: the trace of %s (pid %s), %s, is incomplete: "
				"capture stopped: %s\n", fields[2], fields[1], fields[3], fields[4]);
			++*lost;
			continue;
		}
		if (n < 4 || strcmp(fields[0], "trace"))
			continue;
		bool seen = false;
		for (size_t i = 0; i < ndone && !seen; i++)
			seen = !strcmp(done[i], fields[3]);
		char **grown = seen ? done : realloc(done, (ndone + 1) * sizeof *done);
		if (seen || !grown || !(grown[ndone] = strdup(fields[3]))) {
			done = grown ? grown : done;
			continue;
		}
		done = grown;
		ndone++;
		/* A process still running (we stopped waiting) keeps writing:
		 * its spool is summarized as it is, not compacted. */
		long pid = strtol(fields[1], NULL, 10);
		bool live = stop_waiting && pid > 0 && kill((pid_t)pid, 0) == 0;
		ok = finish_trace(fields[3], fields[2], fields[1], !live, calls) && ok;
		++*traces;
	}
	fclose(f);
	for (size_t i = 0; i < ndone; i++)
		free(done[i]);
	free(done);
	return ok;
}

int cli_capture_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "no-observe", no_argument, NULL, 'n' },
		{ "observe", required_argument, NULL, 'O' },
		{ "frames", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *output = NULL;
	bool observe = true;
	const char *observe_mode = NULL;   /* NULL: the library's default */
	const char *frames = NULL;         /* NULL: none */
	int c;

	optind = 1;
	/* '+': stop at the first non-option, PROGRAM's own options follow. */
	while ((c = getopt_long(argc, argv, "+o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': output = optarg; break;
		case 'n': observe = false; break;
		case 'O':
			if (!strcmp(optarg, "off")) {
				observe = false;
			} else if (!strcmp(optarg, "sync") || !strcmp(optarg, "async") ||
				   !strcmp(optarg, "auto")) {
				observe = true;
				observe_mode = optarg;
			} else {
				return cli_fail(CMD, "--observe takes auto, async, sync or off, not '%s'",
						optarg);
			}
			break;
		case 'F':
			if (strcmp(optarg, "all") && (!*optarg || strspn(optarg, "0123456789") !=
						      strlen(optarg) || strlen(optarg) > 18))
				return cli_fail(CMD, "--frames takes a number of frames or all, not '%s'",
						optarg);
			frames = optarg;
			break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default: usage(stderr); return CLI_EXIT_ERROR;
		}
	}
	if (frames && !observe)
		return cli_fail(CMD, "--frames reads back the colour buffer: it needs observations "
				"(not --no-observe / --observe=off)");
	if (optind >= argc) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}
	char **prog = argv + optind;

	char lib[PATH_MAX];
	struct xt_buf tried = XT_BUF_INIT;
	if (!find_capture_lib(lib, &tried)) {
		cli_fail(CMD, "cannot find " CAPTURE_LIB " (looked for %s%s)",
			 tried.data ? (const char *)tried.data : "it",
			 getenv("XFBTRACE_CAPTURE_LIB") && *getenv("XFBTRACE_CAPTURE_LIB")
			 ? "" : "; set XFBTRACE_CAPTURE_LIB to its path");
		xt_buf_fini(&tried);
		return CLI_EXIT_ERROR;
	}
	xt_buf_fini(&tried);
	/* The dynamic loader splits LD_PRELOAD at spaces and colons. */
	if (strpbrk(lib, " :"))
		return cli_fail(CMD, "cannot preload %s: LD_PRELOAD cannot hold a path with "
				"a space or colon (set XFBTRACE_CAPTURE_LIB to a copy elsewhere)", lib);
	xt_info("capture: preloading %s", lib);

	char default_out[PATH_MAX], out[PATH_MAX];
	if (!output) {
		char tmp[PATH_MAX];
		snprintf(tmp, sizeof tmp, "%s", prog[0]);
		snprintf(default_out, sizeof default_out, "%s.xfbt", basename(tmp));
		output = default_out;
	}
	if (!absolute_output(output, out))
		return cli_fail(CMD, "cannot write %s: %s", output,
				errno ? strerror(errno) : "not a file name");
	if (unlink(out) && errno != ENOENT)
		return cli_fail(CMD, "cannot replace %s: %s", out, strerror(errno));

	struct xt_buf preload = XT_BUF_INIT;
	const char *old = getenv("LD_PRELOAD");
	if (xt_buf_printf(&preload, "%s%s%s", lib, old && *old ? " " : "", old ? old : ""))
		return cli_fail(CMD, "out of memory");

	/* Where the processes report their traces (capture/cap_process.c). */
	char manifest[PATH_MAX + 32];
	snprintf(manifest, sizeof manifest, "%s.procs.XXXXXX", out);
	int mfd = mkstemp(manifest);
	if (mfd < 0)
		return cli_fail(CMD, "cannot create %s: %s", manifest, strerror(errno));
	close(mfd);
	/* Processes the program starts and leaves running are reparented to
	 * us, so that we can wait for them before compacting their traces. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return cli_fail(CMD, "fork: %s", strerror(errno));
	if (pid == 0) {
		setenv("LD_PRELOAD", (const char *)preload.data, 1);
		setenv("XFBTRACE_OUTPUT", out, 1);
		setenv("XFBTRACE_MANIFEST", manifest, 1);
		char root[32];
		snprintf(root, sizeof root, "%ld", (long)getpid());
		setenv("XFBTRACE_ROOT_PID", root, 1);
		if (!observe)
			setenv("XFBTRACE_OBSERVE", "0", 1);
		else if (observe_mode)
			setenv("XFBTRACE_OBSERVE", observe_mode, 1);
		if (frames)
			setenv("XFBTRACE_FRAMES", frames, 1);
		else
			unsetenv("XFBTRACE_FRAMES");
		execvp(prog[0], prog);
		fprintf(stderr, "xfbtrace capture: cannot run %s: %s\n", prog[0], strerror(errno));
		_exit(127);
	}
	xt_buf_fini(&preload);

	/* Like time(1): the terminal's ^C is for the program, not for us. */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			unlink(manifest);
			return cli_fail(CMD, "waitpid: %s", strerror(errno));
		}
	}
	/* Then every process it started that is still running; ^C stops
	 * waiting for them (their traces are then left as they are). */
	struct sigaction stop = { .sa_handler = on_interrupt };  /* no SA_RESTART */
	bool announced = false;
	int other;
	sigaction(SIGINT, &stop, NULL);
	while (!stop_waiting) {
		pid_t r = waitpid(-1, &other, WNOHANG);
		if (r > 0)
			continue;
		if (r < 0 && errno != EINTR)
			break;              /* ECHILD: none left */
		if (!announced && !stop_waiting)
			fprintf(stderr, "xfbtrace capture: waiting for the processes %s started "
				"(^C: stop waiting)\n", prog[0]);
		announced = true;
		if (waitpid(-1, &other, 0) < 0 && errno != EINTR)
			break;
	}
	if (stop_waiting)
		fprintf(stderr, "xfbtrace capture: stopped waiting: the traces of processes still "
			"running are left in spool form, which they keep writing\n");
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);

	int exit_status;
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		fprintf(stderr, "xfbtrace capture: %s was killed by signal %d (SIG%s); "
			"the trace holds every call made before\n", prog[0], sig, signal_name(sig));
		exit_status = 128 + sig;
	} else {
		exit_status = WEXITSTATUS(status);
	}

	unsigned traces, lost;
	uint64_t calls;
	bool ok = finish_reported(manifest, &traces, &lost, &calls);
	unlink(manifest);
	if (!traces)
		fprintf(stderr, "xfbtrace capture: no process of %s made a GL call; no trace written\n",
			prog[0]);
	else if (!calls)
		fprintf(stderr, "xfbtrace capture: no trace holds a GL call\n");
	else if (traces > 1)
		fprintf(stderr, "xfbtrace capture: %u traces written, one per process that made "
			"GL calls\n", traces);
	if ((!ok || lost || !calls) && exit_status == 0)
		return CLI_EXIT_ERROR;
	return exit_status;
}
