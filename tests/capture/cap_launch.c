/*
 * cap_launch.c - a launcher, the shape of a game launcher or a browser's
 * process model, for the capture's multi-process tests: it starts GL
 * programs in the ways a real one does, and every process that makes GL
 * calls must get a trace of its own under one `xfbtrace capture`.
 *
 * Usage: cap-launch MODE PROGRAM [ARGS...]
 *   sequential   fork + exec PROGRAM, wait, then once more
 *   parallel     fork + exec PROGRAM twice, then wait for both
 *   detach       fork + exec PROGRAM and exit without waiting
 *   linger       fork a child that makes GL calls and then sleeps for a
 *                minute (PROGRAM is not run), and exit at once
 *   exec-clean   make GL calls here, then execve PROGRAM in this process
 *                with an environment of PATH only (no LD_PRELOAD, no
 *                XFBTRACE_*), as sandboxes and launchers do
 *   unset        fork, remove every variable from the child's environment
 *                (clearenv) and execvp PROGRAM there
 *   execle       fork and execle PROGRAM (no arguments) with an
 *                environment of PATH only
 *   fsize N      exec PROGRAM with a file size limit of N bytes
 *                (RLIMIT_FSIZE, SIGXFSZ ignored): its trace cannot grow,
 *                the way a full disk stops it
 * Exit status: PROGRAM's (the first one that failed), 2 on a usage or
 * system error.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cap_test_egl.h"

static pid_t start(char **argv)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		execv(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	return pid;
}

static int finish(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		return 2;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: cap-launch MODE PROGRAM [ARGS...]\n");
		return 2;
	}
	const char *mode = argv[1];
	char **prog = argv + 2;

	if (!strcmp(mode, "sequential")) {
		int a = finish(start(prog));
		int b = finish(start(prog));
		return a ? a : b;
	}
	if (!strcmp(mode, "parallel")) {
		pid_t p1 = start(prog), p2 = start(prog);
		int a = finish(p1), b = finish(p2);
		return a ? a : b;
	}
	if (!strcmp(mode, "detach")) {
		start(prog);
		return 0;
	}
	if (!strcmp(mode, "unset")) {
		pid_t pid = fork();
		if (pid == 0) {
			clearenv();
			setenv("PATH", "/usr/bin:/bin", 1);
			execvp(prog[0], prog);
			perror(prog[0]);
			_exit(127);
		}
		return pid < 0 ? 2 : finish(pid);
	}
	if (!strcmp(mode, "linger")) {
		pid_t pid = fork();
		if (pid == 0) {
			struct cap_test_egl e;
			cap_test_egl_init(&e);
			cap_test_egl_make_current(&e, cap_test_egl_context(&e));
			glGetError();
			sleep(60);
			_exit(0);
		}
		return pid < 0 ? 2 : 0;
	}
	if (!strcmp(mode, "execle")) {
		char *env[] = { "PATH=/usr/bin:/bin", NULL };
		pid_t pid = fork();
		if (pid == 0) {
			execle(prog[0], prog[0], (char *)NULL, env);
			perror(prog[0]);
			_exit(127);
		}
		return pid < 0 ? 2 : finish(pid);
	}
	if (!strcmp(mode, "exec-clean")) {
		struct cap_test_egl e;
		char *env[] = { "PATH=/usr/bin:/bin", NULL };
		cap_test_egl_init(&e);
		cap_test_egl_make_current(&e, cap_test_egl_context(&e));
		if (glGetError() != GL_NO_ERROR)
			return 2;
		execve(prog[0], prog, env);
		perror(prog[0]);
		return 2;
	}
	if (!strcmp(mode, "fsize") && argc >= 4) {
		struct rlimit lim;
		lim.rlim_cur = lim.rlim_max = (rlim_t)strtoull(argv[2], NULL, 10);
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &lim) != 0) {
			perror("setrlimit");
			return 2;
		}
		execv(argv[3], argv + 3);
		perror(argv[3]);
		return 2;
	}
	fprintf(stderr, "cap-launch: unknown mode %s\n", mode);
	return 2;
}
