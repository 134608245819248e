/*
 * cli_proc.c - fork + execvp with a working directory, a log file, extra
 * environment and captured stdout (cli_proc.h).
 *
 * fork rather than posix_spawn: the child must chdir first, and
 * posix_spawn_file_actions_addchdir_np is a recent glibc extension.  The
 * child only calls async-signal-safe functions (and setenv / putenv, which
 * are fine: the CLI is single-threaded when it runs other programs).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_proc.h"

static void child(const char *const *argv, const struct cli_proc *p, int out_fd)
{
	int in = open("/dev/null", O_RDONLY);
	int log = p->log_path ? open(p->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)
			      : open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (in < 0 || log < 0)
		_exit(127);
	dup2(in, STDIN_FILENO);
	dup2(out_fd >= 0 ? out_fd : log, STDOUT_FILENO);
	dup2(log, STDERR_FILENO);
	if (p->cwd && chdir(p->cwd)) {
		dprintf(STDERR_FILENO, "cannot enter %s: %s\n", p->cwd, strerror(errno));
		_exit(127);
	}
	for (const char *const *e = p->env; e && *e; e++)
		putenv((char *)*e);
	execvp(argv[0], (char *const *)argv);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int cli_proc_run(const char *const *argv, const struct cli_proc *p, struct xt_err *err)
{
	int fds[2] = { -1, -1 };
	int status;
	enum xt_rc rc = XT_OK;

	if (p->out) {
		xt_buf_reset(p->out);
		if (pipe2(fds, O_CLOEXEC)) {
			XT_FAIL(err, XT_ERR_IO, "pipe: %s", strerror(errno));
			return -1;
		}
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		XT_FAIL(err, XT_ERR_IO, "fork: %s", strerror(errno));
		if (p->out) {
			close(fds[0]);
			close(fds[1]);
		}
		return -1;
	}
	if (pid == 0)
		child(argv, p, fds[1]);
	if (p->out) {
		char chunk[4096];
		ssize_t n;
		close(fds[1]);
		while ((n = read(fds[0], chunk, sizeof chunk)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				break;
			/* Out of memory: keep draining, so the child never blocks. */
			if (!rc)
				rc = xt_buf_append(p->out, chunk, (size_t)n);
		}
		close(fds[0]);
		if (!rc)
			rc = xt_buf_append(p->out, "", 1);
		if (!rc)
			p->out->len--;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			XT_FAIL(err, XT_ERR_IO, "waiting for %s: %s", argv[0], strerror(errno));
			return -1;
		}
	}
	if (rc) {
		XT_FAIL(err, rc, "out of memory reading the output of %s", argv[0]);
		return -1;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
