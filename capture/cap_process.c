/*
 * cap_process.c - the capture across processes: what each process tells
 * `xfbtrace capture` about its trace, and the environment that carries the
 * capture into programs started with exec.
 *
 * Report: `xfbtrace capture` names a file in XFBTRACE_MANIFEST; every
 * process appends one line when its trace is created and one when its
 * capture stops on an internal failure (the trace is then incomplete):
 *
 *   trace <TAB> pid <TAB> program <TAB> path
 *   lost  <TAB> pid <TAB> program <TAB> path <TAB> reason
 *
 * Each line is one write() to a file opened O_APPEND, so the lines of
 * processes running at once never interleave (Linux appends a write of a
 * regular file atomically).  That file, not a directory listing, is how the
 * command learns which traces to compact and which were lost.
 *
 * Exec: a program that starts another with its own environment (execve,
 * execvpe, execle, posix_spawn[p] with an envp that lacks them), or after
 * removing them from its own (unsetenv, then execv, execvp, execl,
 * execlp), would drop LD_PRELOAD and the XFBTRACE_* variables.  The
 * wrappers below add the values this process was loaded with to such an
 * environment, so that every program a captured program starts is
 * captured too.  Not covered: system() and popen(), which glibc runs
 * through its internal spawn with `environ` as it is.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cap_state.h"

/* The variables that carry the capture, as this process got them. */
static const char *const carried[] = {
	"XFBTRACE_OUTPUT", "XFBTRACE_MANIFEST", "XFBTRACE_ROOT_PID",
	"XFBTRACE_OBSERVE", "XFBTRACE_LOG",
};
#define N_CARRIED (sizeof carried / sizeof carried[0])
static char *carried_env[N_CARRIED];   /* "NAME=value", NULL if unset */
static char self_path[PATH_MAX];       /* this library, for LD_PRELOAD */

__attribute__((constructor)) static void cap_process_load(void)
{
	Dl_info info;

	for (size_t i = 0; i < N_CARRIED; i++) {
		const char *v = getenv(carried[i]);
		size_t n;
		if (!v)
			continue;
		n = strlen(carried[i]) + strlen(v) + 2;
		carried_env[i] = malloc(n);
		if (carried_env[i])
			snprintf(carried_env[i], n, "%s=%s", carried[i], v);
	}
	if (dladdr((const void *)cap_process_load, &info) && info.dli_fname &&
	    info.dli_fname[0] == '/')
		snprintf(self_path, sizeof self_path, "%s", info.dli_fname);
}

static void program_base(char *out, size_t cap)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);

	if (n <= 0) {
		snprintf(out, cap, "?");
		return;
	}
	buf[n] = '\0';
	snprintf(out, cap, "%.255s", strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf);
}

/* Copies `s` into `out`, tabs and newlines made spaces. */
static void field(char *out, size_t cap, const char *s)
{
	size_t i = 0;

	for (; s && s[i] && i + 1 < cap; i++)
		out[i] = s[i] == '\t' || s[i] == '\n' ? ' ' : s[i];
	out[i] = '\0';
}

void cap_process_report(const char *what, const char *path, const char *reason)
{
	const char *manifest = getenv("XFBTRACE_MANIFEST");
	char line[PATH_MAX + 1024], prog[256], p[PATH_MAX], r[512];
	int fd, n;

	if (!manifest || !*manifest)
		return;
	program_base(prog, sizeof prog);
	field(p, sizeof p, path && *path ? path : "-");
	field(r, sizeof r, reason);
	n = snprintf(line, sizeof line, reason ? "%s\t%ld\t%s\t%s\t%s\n" : "%s\t%ld\t%s\t%s\n",
		     what, (long)getpid(), prog, p, r);
	if (n <= 0 || (size_t)n >= sizeof line)
		return;
	fd = open(manifest, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)n) != n)
		fprintf(stderr, "xfbtrace: cannot report to %s\n", manifest);
	close(fd);
}

static bool has_preload(const char *value)
{
	size_t n = strlen(self_path);

	for (const char *s = value; (s = strstr(s, self_path)) != NULL; s += n)
		if ((s == value || s[-1] == ' ' || s[-1] == ':') &&
		    (s[n] == '\0' || s[n] == ' ' || s[n] == ':'))
			return true;
	return false;
}

/*
 * `envp` with what it lacks of the capture's variables, and LD_PRELOAD
 * naming this library: NULL when nothing is missing (use envp as is) or
 * out of memory.  The caller frees the array and the strings it marks in
 * *owned (one bit: the LD_PRELOAD string).
 */
static char **with_capture_env(char *const envp[], char **owned)
{
	size_t n = 0, k = 0;
	bool need[N_CARRIED];
	int preload = -1;
	bool missing = false;
	char **out;

	*owned = NULL;
	for (; envp && envp[n]; n++)
		;
	for (size_t i = 0; i < N_CARRIED; i++) {
		size_t len = strlen(carried[i]);
		need[i] = carried_env[i] != NULL;
		for (size_t j = 0; need[i] && j < n; j++)
			if (!strncmp(envp[j], carried[i], len) && envp[j][len] == '=')
				need[i] = false;
		missing |= need[i];
	}
	for (size_t j = 0; j < n; j++)
		if (!strncmp(envp[j], "LD_PRELOAD=", 11))
			preload = (int)j;
	if (self_path[0] && (preload < 0 || !has_preload(envp[preload] + 11)))
		missing = true;
	if (!missing)
		return NULL;
	out = malloc((n + N_CARRIED + 2) * sizeof *out);
	if (!out)
		return NULL;
	for (size_t j = 0; j < n; j++)
		if ((int)j != preload)
			out[k++] = envp[j];
	for (size_t i = 0; i < N_CARRIED; i++)
		if (need[i])
			out[k++] = carried_env[i];
	if (self_path[0]) {
		const char *old = preload >= 0 ? envp[preload] + 11 : "";
		size_t len = strlen(self_path) + strlen(old) + 16;
		if (preload >= 0 && has_preload(old)) {
			out[k++] = envp[preload];
		} else if ((*owned = malloc(len)) != NULL) {
			snprintf(*owned, len, "LD_PRELOAD=%s%s%s", self_path, *old ? " " : "", old);
			out[k++] = *owned;
		} else if (preload >= 0) {
			out[k++] = envp[preload];
		}
	}
	out[k] = NULL;
	return out;
}

#define REAL(type, name) ((type)dlsym(RTLD_NEXT, name))

typedef int (*exec_fn)(const char *, char *const[], char *const[]);

/* The real execve (`search`: execvpe) with the capture's environment. */
static int exec_with(bool search, const char *file, char *const argv[], char *const envp[])
{
	exec_fn real = REAL(exec_fn, search ? "execvpe" : "execve");
	char *owned, **env = with_capture_env(envp, &owned);
	int rc;

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	rc = real(file, argv, env ? env : envp);
	free(env);
	free(owned);
	return rc;
}

/* execl / execlp / execle: the variadic list as an array (and the envp
 * after its NULL when `with_env`). */
static int exec_list(bool search, bool with_env, const char *file, const char *arg, va_list ap)
{
	size_t n = 1, cap = 16;
	char **argv = malloc(cap * sizeof *argv);
	char *const *envp = environ;
	int rc;

	if (!argv) {
		errno = ENOMEM;
		return -1;
	}
	argv[0] = (char *)arg;
	while (arg) {
		if (n == cap) {
			char **grown = realloc(argv, 2 * cap * sizeof *argv);
			if (!grown) {
				free(argv);
				errno = ENOMEM;
				return -1;
			}
			argv = grown;
			cap *= 2;
		}
		arg = va_arg(ap, const char *);
		argv[n++] = (char *)arg;
	}
	if (with_env)
		envp = va_arg(ap, char *const *);
	rc = exec_with(search, file, argv, envp);
	free(argv);
	return rc;
}

CAP_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	return exec_with(false, path, argv, envp);
}

CAP_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	return exec_with(true, file, argv, envp);
}

CAP_EXPORT int execv(const char *path, char *const argv[])
{
	return exec_with(false, path, argv, environ);
}

CAP_EXPORT int execvp(const char *file, char *const argv[])
{
	return exec_with(true, file, argv, environ);
}

CAP_EXPORT int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	int rc;

	va_start(ap, arg);
	rc = exec_list(false, false, path, arg, ap);
	va_end(ap);
	return rc;
}

CAP_EXPORT int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	int rc;

	va_start(ap, arg);
	rc = exec_list(true, false, file, arg, ap);
	va_end(ap);
	return rc;
}

CAP_EXPORT int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	int rc;

	va_start(ap, arg);
	rc = exec_list(false, true, path, arg, ap);
	va_end(ap);
	return rc;
}

typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);

static int spawn(const char *name, pid_t *pid, const char *path,
		 const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
		 char *const argv[], char *const envp[])
{
	spawn_fn real = REAL(spawn_fn, name);
	char *owned, **env = with_capture_env(envp, &owned);
	int rc;

	if (!real)
		return ENOSYS;
	rc = real(pid, path, fa, attr, argv, env ? env : envp);
	free(env);
	free(owned);
	return rc;
}

CAP_EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
			   const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	return spawn("posix_spawn", pid, path, fa, attr, argv, envp);
}

CAP_EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
			    const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	return spawn("posix_spawnp", pid, file, fa, attr, argv, envp);
}
