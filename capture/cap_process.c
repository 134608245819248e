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

/* The variables that carry the capture, as this process got them.  These
 * statics (and the real functions below) are part of the capture's process
 * state (cap_state.h): set once by the constructors when the library is
 * loaded, read-only afterwards, so the wrappers need no lock. */
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

/* Bounds of what the exec wrappers put on the stack. */
#define MAX_ENV 65536
#define MAX_ARGS 65536

static size_t env_count(char *const envp[])
{
	size_t n = 0;

	while (envp && envp[n] && n <= MAX_ENV)
		n++;
	return n;
}

/* The value of LD_PRELOAD in `envp` (n entries), NULL if unset. */
static const char *env_preload(char *const envp[], size_t n)
{
	for (size_t j = 0; j < n; j++)
		if (!strncmp(envp[j], "LD_PRELOAD=", 11))
			return envp[j] + 11;
	return NULL;
}

/*
 * Fills `out` (room for n + N_CARRIED + 2 pointers) with `envp` plus what it
 * lacks of the capture's variables, and `pre` (room for "LD_PRELOAD=",
 * this library, a space and the old value) with an LD_PRELOAD that names
 * this library.  False when nothing is missing: use envp as it is.  No
 * allocation and no lock: the wrappers may run in a vfork() child.
 */
static bool fill_capture_env(char *const envp[], size_t n, char **out, char *pre, size_t pre_cap)
{
	const char *old = env_preload(envp, n);
	bool need[N_CARRIED], missing = false, add_preload;
	size_t k = 0;

	for (size_t i = 0; i < N_CARRIED; i++) {
		size_t len = strlen(carried[i]);
		need[i] = carried_env[i] != NULL;
		for (size_t j = 0; need[i] && j < n; j++)
			if (!strncmp(envp[j], carried[i], len) && envp[j][len] == '=')
				need[i] = false;
		missing |= need[i];
	}
	add_preload = self_path[0] && (!old || !has_preload(old));
	if (!missing && !add_preload)
		return false;
	for (size_t j = 0; j < n; j++)
		if (!add_preload || strncmp(envp[j], "LD_PRELOAD=", 11))
			out[k++] = envp[j];
	for (size_t i = 0; i < N_CARRIED; i++)
		if (need[i])
			out[k++] = carried_env[i];
	if (add_preload) {
		snprintf(pre, pre_cap, "LD_PRELOAD=%s%s%s", self_path, old && *old ? " " : "",
			 old ? old : "");
		out[k++] = pre;
	}
	out[k] = NULL;
	return true;
}

/* The real functions, resolved at load (not in a vfork() child). */
typedef int (*exec_fn)(const char *, char *const[], char *const[]);
typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);
static exec_fn real_execve, real_execvpe;
static spawn_fn real_spawn, real_spawnp;

__attribute__((constructor)) static void cap_process_resolve(void)
{
	void *p;

	p = dlsym(RTLD_NEXT, "execve");
	memcpy(&real_execve, &p, sizeof p);
	p = dlsym(RTLD_NEXT, "execvpe");
	memcpy(&real_execvpe, &p, sizeof p);
	p = dlsym(RTLD_NEXT, "posix_spawn");
	memcpy(&real_spawn, &p, sizeof p);
	p = dlsym(RTLD_NEXT, "posix_spawnp");
	memcpy(&real_spawnp, &p, sizeof p);
}

/* Runs `call` with envp completed by fill_capture_env, on the stack. */
#define WITH_CAPTURE_ENV(envp, env, call)                                              \
	do {                                                                           \
		size_t n_ = env_count(envp);                                           \
		const char *old_ = env_preload(envp, n_ <= MAX_ENV ? n_ : 0);           \
		size_t cap_ = strlen(self_path) + (old_ ? strlen(old_) : 0) + 16;       \
		char *out_[n_ <= MAX_ENV ? n_ + N_CARRIED + 2 : 1];                     \
		char pre_[cap_];                                                       \
		char *const *env = n_ <= MAX_ENV &&                                    \
			fill_capture_env(envp, n_, out_, pre_, cap_) ? out_ : (envp);   \
		call;                                                                  \
	} while (0)

static int exec_with(bool search, const char *file, char *const argv[], char *const envp[])
{
	exec_fn real = search ? real_execvpe : real_execve;
	int rc;

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	WITH_CAPTURE_ENV(envp, env, rc = real(file, argv, env));
	return rc;
}

/* execl / execlp / execle: the variadic list as an array on the stack (and
 * the envp after its NULL when `with_env`). */
#define EXEC_LIST(search, with_env, file, arg)                                         \
	do {                                                                           \
		va_list ap_, count_;                                                   \
		size_t n_ = 1;   /* arguments before the NULL (arg: nonnull) */ \
		va_start(ap_, arg);                                                    \
		va_copy(count_, ap_);                                                  \
		while (n_ <= MAX_ARGS && va_arg(count_, const char *))                 \
			n_++;                                                          \
		va_end(count_);                                                        \
		if (n_ > MAX_ARGS) {                                                   \
			va_end(ap_);                                                   \
			errno = E2BIG;                                                 \
			return -1;                                                     \
		}                                                                      \
		char *argv_[n_ + 1];                                                   \
		for (size_t i_ = 0; i_ < n_; i_++)                                     \
			argv_[i_] = i_ ? va_arg(ap_, char *) : (char *)(arg);          \
		argv_[n_] = NULL;                                                      \
		(void)va_arg(ap_, char *);  /* the list's NULL */                     \
		char *const *envp_ = (with_env) ? va_arg(ap_, char *const *) : environ; \
		va_end(ap_);                                                           \
		return exec_with(search, file, argv_, envp_);                          \
	} while (0)

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
	EXEC_LIST(false, false, path, arg);
}

CAP_EXPORT int execlp(const char *file, const char *arg, ...)
{
	EXEC_LIST(true, false, file, arg);
}

CAP_EXPORT int execle(const char *path, const char *arg, ...)
{
	EXEC_LIST(false, true, path, arg);
}

static int spawn(bool search, pid_t *pid, const char *path,
		 const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
		 char *const argv[], char *const envp[])
{
	spawn_fn real = search ? real_spawnp : real_spawn;
	int rc;

	if (!real)
		return ENOSYS;
	WITH_CAPTURE_ENV(envp, env, rc = real(pid, path, fa, attr, argv, env));
	return rc;
}

CAP_EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
			   const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	return spawn(false, pid, path, fa, attr, argv, envp);
}

CAP_EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
			    const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	return spawn(true, pid, file, fa, attr, argv, envp);
}
