/*
 * cli_proc.h - running another program from the CLI (git, meson, ninja, a
 * user's build command, another revision's xfbtrace) without a shell: the
 * program and its arguments are an argv array, so no argument is ever
 * parsed as shell syntax.
 */
#ifndef CLI_PROC_H
#define CLI_PROC_H

#include "xt_buf.h"
#include "xt_rc.h"

struct cli_proc {
	const char *cwd;            /* directory to run in; NULL: ours */
	const char *log_path;       /* stdout (unless captured) and stderr are
	                             * appended to this file; NULL: /dev/null */
	struct xt_buf *out;         /* stdout is captured here (replacing its
	                             * contents, NUL-terminated), or NULL */
	const char *const *env;     /* "NAME=VALUE" strings added to the
	                             * child's environment, NULL-terminated; or
	                             * NULL */
};

/*
 * Runs argv[0] (searched in PATH) with arguments argv (NULL-terminated),
 * stdin from /dev/null, and waits for it.  Returns its exit status, 128 + N
 * when signal N killed it, 127 when it could not be executed (the reason is
 * in the log), or -1 when it could not be started at all (`err` says why).
 */
int cli_proc_run(const char *const *argv, const struct cli_proc *p, struct xt_err *err);

#endif
