/*
 * cli_capture.c - `xfbtrace capture`: run a program under the capture
 * library and turn what it recorded into compacted traces.
 *
 * The library (libxfbtrace-capture.so) is preloaded into the program and
 * writes a spool-form trace while it runs; that file survives any death of
 * the program.  When the program has ended, however it ended, this command
 * compacts the spool (and those of forked children, named <stem>.<pid>.xfbt)
 * into the final zstd form.  Exit status: the program's, or 128+signal when
 * it was killed, as shells report it; 2 when the capture itself failed.
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
		"usage: xfbtrace capture [-o FILE] [--observe=MODE] -- PROGRAM [ARGS...]\n"
		"\n"
		"Runs PROGRAM with the capture library preloaded.  Every GL, GLES, EGL\n"
		"and GLX call is recorded with the memory it reads, and after each\n"
		"glEndTransformFeedback / glPauseTransformFeedback the contents of the\n"
		"bound TF buffers, query results and read-back data (observations).\n"
		"\n"
		"  -o, --output FILE   trace to write (default: <program>.xfbt here);\n"
		"                      forked children write FILE's stem.<pid>.xfbt\n"
		"      --observe=MODE  async: TF buffers are copied on the GPU and read back\n"
		"                      later, so that the application does not wait for\n"
		"                      the GPU; sync: read back at the call; auto (the\n"
		"                      default): async, except sync on CPU renderers\n"
		"                      (llvmpipe), where it costs less; off: calls only\n"
		"      --no-observe    record calls only, no read-back from the driver\n"
		"  -h, --help          this text\n"
		"\n"
		"The exit status is PROGRAM's (128+N when killed by signal N).\n"
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

/* Compacts one spool and prints its summary; false on failure. */
static bool finish_trace(const char *path)
{
	struct xt_err err;
	struct stat st;
	uint64_t calls, obs;

	xt_err_clear(&err);
	if (is_spool(path) && trace_compact(path, path, &err)) {
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
	fprintf(stderr, "xfbtrace capture: wrote %s: %llu calls, %llu observations, %lld bytes\n",
		path, (unsigned long long)calls, (unsigned long long)obs, (long long)st.st_size);
	return true;
}

/* Compacts the traces of forked children: <dir>/<stem>.<digits><ext>. */
static bool finish_children(const char *output, time_t started)
{
	char tmp[PATH_MAX];
	bool ok = true;

	snprintf(tmp, sizeof tmp, "%s", output);
	const char *dir = dirname(tmp);
	const char *base = strrchr(output, '/') + 1;
	const char *dot = strrchr(base, '.');
	size_t stem_len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	const char *ext = dot && dot != base ? dot : "";
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return true;
	while ((e = readdir(d)) != NULL) {
		const char *n = e->d_name;
		size_t len = strlen(n), ext_len = strlen(ext);
		if (len <= stem_len + 1 + ext_len || strncmp(n, base, stem_len) || n[stem_len] != '.')
			continue;
		if (strcmp(n + len - ext_len, ext))
			continue;
		const char *p = n + stem_len + 1;
		if (p == n + len - ext_len)
			continue;
		for (; p < n + len - ext_len; p++)
			if (*p < '0' || *p > '9')
				break;
		if (p != n + len - ext_len)
			continue;
		char path[PATH_MAX * 2];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, n);
		if (stat(path, &st) || st.st_mtime < started)
			continue;
		if (is_spool(path))
			ok = finish_trace(path) && ok;
	}
	closedir(d);
	return ok;
}

int cli_capture_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "no-observe", no_argument, NULL, 'n' },
		{ "observe", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *output = NULL;
	bool observe = true;
	const char *observe_mode = NULL;   /* NULL: the library's default */
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
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default: usage(stderr); return CLI_EXIT_ERROR;
		}
	}
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

	time_t started = time(NULL);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return cli_fail(CMD, "fork: %s", strerror(errno));
	if (pid == 0) {
		setenv("LD_PRELOAD", (const char *)preload.data, 1);
		setenv("XFBTRACE_OUTPUT", out, 1);
		if (!observe)
			setenv("XFBTRACE_OBSERVE", "0", 1);
		else if (observe_mode)
			setenv("XFBTRACE_OBSERVE", observe_mode, 1);
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
		if (errno != EINTR)
			return cli_fail(CMD, "waitpid: %s", strerror(errno));
	}
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

	bool ok = true;
	if (access(out, F_OK) == 0)
		ok = finish_trace(out);
	else
		fprintf(stderr, "xfbtrace capture: %s made no GL call; no trace written\n", prog[0]);
	ok = finish_children(out, started) && ok;
	if (!ok && exit_status == 0)
		return CLI_EXIT_ERROR;
	return exit_status;
}
