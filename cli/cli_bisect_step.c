/*
 * cli_bisect_step.c - one commit of `xfbtrace bisect` (cli_bisect.h): git
 * without a shell, the cache directory and its lock, the worktree, the
 * build (Meson or --build) cached per commit, the replay into a scratch
 * database imported into --db, and the comparison with the good run.
 * The layout of the cache is described at the top of cli_bisect.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_bisect.h"
#include "cli_proc.h"
#include "diff.h"
#include "xt_hash.h"

#define CMD "bisect"

void cli_bisect_strfmt(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out, n, fmt, ap);
	va_end(ap);
}

double cli_bisect_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static bool mkdirs(const char *path)
{
	char tmp[PATH_MAX];
	cli_bisect_strfmt(tmp, sizeof tmp, "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return false;
		*p = '/';
	}
	return !mkdir(tmp, 0755) || errno == EEXIST;
}

/* Runs `git -C dir ARGS...` (NULL-terminated), stdout into b->out with the
 * trailing newline cut; returns git's exit status. */
int cli_bisect_git(struct bisect *b, const char *dir, const char *log, ...)
{
	const char *argv[24] = { "git", "-C", dir };
	int n = 3;
	va_list ap;
	struct xt_err err;

	va_start(ap, log);
	while (n < 23 && (argv[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	int status = cli_proc_run(argv, &(struct cli_proc){ .log_path = log, .out = &b->out }, &err);
	while (b->out.len && (b->out.data[b->out.len - 1] == '\n'))
		b->out.data[--b->out.len] = '\0';
	if (status < 0)
		fprintf(stderr, "xfbtrace bisect: %s\n", xt_err_msg(&err));
	return status;
}

const char *cli_bisect_git_out(struct bisect *b)
{
	return b->out.data ? (const char *)b->out.data : "";
}

int cli_bisect_resolve(struct bisect *b, const char *rev, char sha[SHA_LEN + 1])
{
	char spec[256];
	cli_bisect_strfmt(spec, sizeof spec, "%s^{commit}", rev);
	if (cli_bisect_git(b, b->repo, NULL, "rev-parse", "--verify", "--quiet", spec, (char *)NULL) ||
	    strlen(cli_bisect_git_out(b)) != SHA_LEN)
		return cli_fail(CMD, "%s: not a commit of %s", rev, b->repo);
	memcpy(sha, cli_bisect_git_out(b), SHA_LEN + 1);
	return 0;
}

/* ---- setting up: repository, cache, worktree, database ------------------ */

int cli_bisect_setup(struct bisect *b)
{
	if (!realpath(b->trace_arg, b->trace))
		return cli_fail(CMD, "%s: %s", b->trace_arg, strerror(errno));
	if (cli_bisect_git(b, b->repo_arg ? b->repo_arg : ".", NULL, "rev-parse", "--show-toplevel",
		(char *)NULL))
		return cli_fail(CMD, "%s is not in a git repository", b->repo_arg ? b->repo_arg : ".");
	cli_bisect_strfmt(b->repo, sizeof b->repo, "%s", cli_bisect_git_out(b));
	if (cli_bisect_git(b, b->repo, NULL, "rev-parse", "--path-format=absolute", "--git-common-dir",
		(char *)NULL))
		return cli_fail(CMD, "%s: cannot find its git directory", b->repo);
	if (b->cache_arg) {
		cli_bisect_strfmt(b->cache, sizeof b->cache, "%s", b->cache_arg);
	} else {
		const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
		char base[PATH_MAX];
		if (xdg && *xdg)
			cli_bisect_strfmt(base, sizeof base, "%s", xdg);
		else if (home && *home)
			cli_bisect_strfmt(base, sizeof base, "%s/.cache", home);
		else
			return cli_fail(CMD, "neither XDG_CACHE_HOME nor HOME is set: give --cache DIR");
		/* One cache per repository, shared by its worktrees. */
		const char *gitdir = cli_bisect_git_out(b);
		cli_bisect_strfmt(b->cache, sizeof b->cache, "%s/xfbtrace/bisect/%016" PRIx64, base,
			 xt_hash64(gitdir, strlen(gitdir)));
	}
	if (!mkdirs(b->cache))
		return cli_fail(CMD, "cannot create %s: %s", b->cache, strerror(errno));
	char tmp[PATH_MAX];
	cli_bisect_strfmt(tmp, sizeof tmp, "%s", b->cache);
	if (!realpath(tmp, b->cache))
		return cli_fail(CMD, "%s: %s", tmp, strerror(errno));
	/* Room for "/build-<sha>/.xfbtrace-bisect" and the like. */
	if (strlen(b->cache) > PATH_MAX - 128)
		return cli_fail(CMD, "%s: path too long", b->cache);
	cli_bisect_strfmt(b->worktree, sizeof b->worktree, "%s/worktree", b->cache);
	cli_bisect_strfmt(tmp, sizeof tmp, "%s/logs", b->cache);
	if (!mkdirs(tmp))
		return cli_fail(CMD, "cannot create %s: %s", tmp, strerror(errno));
	cli_bisect_strfmt(b->scratch, sizeof b->scratch, "%s/scratch-%ld.db", b->cache, (long)getpid());
	if (b->db_arg)
		cli_bisect_strfmt(b->db_path, sizeof b->db_path, "%s", b->db_arg);
	else
		cli_bisect_strfmt(b->db_path, sizeof b->db_path, "%s/bisect.db", b->cache);
	ssize_t n = readlink("/proc/self/exe", b->self, sizeof b->self - 1);
	if (n <= 0)
		return cli_fail(CMD, "cannot find this xfbtrace's path: %s", strerror(errno));
	b->self[n] = '\0';
	return 0;
}

/* One bisect per cache: they share the worktree. */
int cli_bisect_lock(struct bisect *b)
{
	char path[PATH_MAX];
	cli_bisect_strfmt(path, sizeof path, "%s/lock", b->cache);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return cli_fail(CMD, "%s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		fprintf(stderr, "xfbtrace bisect: waiting for another bisect using %s\n", b->cache);
		if (flock(fd, LOCK_EX))
			return cli_fail(CMD, "locking %s: %s", path, strerror(errno));
	}
	/* Held until exit: the descriptor is never closed. */
	return 0;
}

static int prepare_worktree(struct bisect *b)
{
	if (b->worktree_ready)
		return 0;
	if (!exists(b->worktree) ||
	    cli_bisect_git(b, b->worktree, NULL, "rev-parse", "--is-inside-work-tree", (char *)NULL)) {
		cli_bisect_git(b, b->repo, NULL, "worktree", "prune", (char *)NULL);
		if (cli_bisect_git(b, b->repo, NULL, "worktree", "add", "--detach", "--force", "--quiet",
			b->worktree, b->good, (char *)NULL))
			return cli_fail(CMD, "git worktree add %s failed", b->worktree);
	}
	b->worktree_ready = true;
	return 0;
}

/* ---- building and replaying one commit ---------------------------------- */

static void hash_str(uint64_t *h, const char *s)
{
	*h = xt_hash64_seed(s, strlen(s) + 1, *h);
}

void cli_bisect_variants(struct bisect *b)
{
	uint64_t h = 0;
	bool any = b->build_cmd || b->nmeson_opts;

	hash_str(&h, b->build_cmd ? b->build_cmd : "");
	for (int i = 0; i < b->nmeson_opts; i++)
		hash_str(&h, b->meson_opts[i]);
	cli_bisect_strfmt(b->build_variant, sizeof b->build_variant, any ? "-%016" PRIx64 : "", h);
	for (int i = 0; i < b->nenvs; i++)
		hash_str(&h, b->envs[i]);
	any |= b->nenvs > 0;
	cli_bisect_strfmt(b->run_variant, sizeof b->run_variant, any ? "-%016" PRIx64 : "", h);
}

/* The build directory of `sha` under the current build options. */
static void build_dir(const struct bisect *b, const char *sha, char *out, size_t n)
{
	cli_bisect_strfmt(out, n, "%s/build-%s%s", b->cache, sha, b->build_variant);
}

/* The one Meson build directory every commit is built in, incrementally:
 * a checkout changes only the files that differ, so ninja recompiles what
 * the step changed (and ccache, which Meson uses when it is installed,
 * catches commits built before).  Each commit's own directory then keeps
 * only its marker and a copy of the xfbtrace it built. */
static void shared_build_dir(const struct bisect *b, char *out, size_t n)
{
	cli_bisect_strfmt(out, n, "%s/incremental%s", b->cache, b->build_variant);
}

/* Copies executable `from` to `to` (through a temporary name, so a
 * half-copied binary is never run). */
static bool copy_exe(const char *from, const char *to)
{
	char tmp[PATH_MAX + 8], buf[1 << 16];
	bool ok = true;
	ssize_t n;
	cli_bisect_strfmt(tmp, sizeof tmp, "%s.tmp", to);
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = in < 0 ? -1 : open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		ok &= write(out, buf, (size_t)n) == n;
	ok &= in >= 0 && out >= 0 && n == 0;
	if (in >= 0)
		close(in);
	if (out >= 0)
		ok &= close(out) == 0;
	ok = ok && rename(tmp, to) == 0;
	if (!ok)
		unlink(tmp);
	return ok;
}

static void marker_path(const struct bisect *b, const char *sha, char *out, size_t n)
{
	cli_bisect_strfmt(out, n, "%s/build-%s%s/.xfbtrace-bisect", b->cache, sha, b->build_variant);
}

/* "ok", "failed" or "" (never built). */
static void read_marker(const struct bisect *b, const char *sha, char out[16])
{
	char path[PATH_MAX];
	marker_path(b, sha, path, sizeof path);
	out[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(out, 16, f))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

static void write_marker(const struct bisect *b, const char *sha, const char *what)
{
	char path[PATH_MAX];
	marker_path(b, sha, path, sizeof path);
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", what);
		fclose(f);
	}
}

/* Builds `sha` unless its build (or its failure) is cached; false: skip. */
bool cli_bisect_build(struct bisect *b, const char *sha, struct outcome *o)
{
	char dir[PATH_MAX], log[PATH_MAX], marker[16];
	struct xt_err err;
	int status;

	build_dir(b, sha, dir, sizeof dir);
	cli_bisect_strfmt(log, sizeof log, "%s/logs/%s%s-build.log", b->cache, sha, b->build_variant);
	read_marker(b, sha, marker);
	if (marker[0]) {
		o->build_cached = true;
		if (!strcmp(marker, "ok"))
			return true;
		cli_bisect_strfmt(o->reason, sizeof o->reason, "build failed (cached; log: %s)", log);
		return false;
	}
	printf("building… ");
	fflush(stdout);
	double t0 = cli_bisect_now();
	unlink(log);
	if (prepare_worktree(b) ||
	    cli_bisect_git(b, b->worktree, log, "checkout", "--detach", "--force", "--quiet", sha, (char *)NULL) ||
	    cli_bisect_git(b, b->worktree, log, "clean", "-fdxq", (char *)NULL)) {
		cli_bisect_strfmt(o->reason, sizeof o->reason, "checkout failed (log: %s)", log);
		return false;
	}
	if (!mkdirs(dir)) {
		cli_bisect_strfmt(o->reason, sizeof o->reason, "cannot create %s", dir);
		return false;
	}
	if (b->build_cmd) {
		char e_src[PATH_MAX + 32], e_build[PATH_MAX + 32], e_commit[64];
		cli_bisect_strfmt(e_src, sizeof e_src, "XFBTRACE_BISECT_SRC=%s", b->worktree);
		cli_bisect_strfmt(e_build, sizeof e_build, "XFBTRACE_BISECT_BUILD=%s", dir);
		cli_bisect_strfmt(e_commit, sizeof e_commit, "XFBTRACE_BISECT_COMMIT=%s", sha);
		const char *env[] = { e_src, e_build, e_commit, NULL };
		const char *argv[] = { "/bin/sh", "-c", b->build_cmd, NULL };
		status = cli_proc_run(argv, &(struct cli_proc){ .cwd = b->worktree, .log_path = log,
								.env = env }, &err);
	} else {
		char ninja_file[PATH_MAX + 16], shared[PATH_MAX], built[PATH_MAX + 16];
		char exe[PATH_MAX + 16], exe_dir[PATH_MAX + 8];
		const char *argv[MAX_LIST_OPTS + 8];
		int n = 0;
		status = 0;
		shared_build_dir(b, shared, sizeof shared);
		cli_bisect_strfmt(ninja_file, sizeof ninja_file, "%s/build.ninja", shared);
		if (!exists(ninja_file)) {
			/* A directory a failed set-up left behind starts over. */
			const char *rm[] = { "rm", "-rf", shared, NULL };
			if (exists(shared))
				cli_proc_run(rm, &(struct cli_proc){ .log_path = log }, &err);
			argv[n++] = "meson";
			argv[n++] = "setup";
			for (int i = 0; i < b->nmeson_opts; i++)
				argv[n++] = b->meson_opts[i];
			argv[n++] = shared;
			argv[n++] = b->worktree;
			argv[n] = NULL;
			status = cli_proc_run(argv, &(struct cli_proc){ .log_path = log }, &err);
		}
		if (!status) {
			n = 0;
			argv[n++] = "ninja";
			argv[n++] = "-C";
			argv[n++] = shared;
			if (b->jobs) {
				argv[n++] = "-j";
				argv[n++] = b->jobs;
			}
			/* Bisect needs the CLI only, not the tests and benchmarks. */
			argv[n++] = "cli/xfbtrace";
			argv[n] = NULL;
			status = cli_proc_run(argv, &(struct cli_proc){ .log_path = log }, &err);
		}
		cli_bisect_strfmt(built, sizeof built, "%s/cli/xfbtrace", shared);
		cli_bisect_strfmt(exe_dir, sizeof exe_dir, "%s/cli", dir);
		cli_bisect_strfmt(exe, sizeof exe, "%s/xfbtrace", exe_dir);
		if (!status && (!mkdirs(exe_dir) || !copy_exe(built, exe))) {
			cli_bisect_strfmt(o->reason, sizeof o->reason, "cannot copy %s to %s", built, exe);
			return false;
		}
	}
	o->build_seconds = cli_bisect_now() - t0;
	if (status < 0) {
		cli_bisect_strfmt(o->reason, sizeof o->reason, "could not run the build: %s", xt_err_msg(&err));
		return false;
	}
	write_marker(b, sha, status ? "failed" : "ok");
	if (status)
		cli_bisect_strfmt(o->reason, sizeof o->reason, "build failed (exit %d; log: %s)", status, log);
	return status == 0;
}

static void remove_scratch(const struct bisect *b)
{
	char path[PATH_MAX + 8];
	unlink(b->scratch);
	cli_bisect_strfmt(path, sizeof path, "%s-wal", b->scratch);
	unlink(path);
	cli_bisect_strfmt(path, sizeof path, "%s-shm", b->scratch);
	unlink(path);
}

/* Replays the trace with `sha`'s build into the scratch database and
 * imports the run; false: skip. */
bool cli_bisect_replay(struct bisect *b, const char *sha, const char *label, struct outcome *o)
{
	char dir[PATH_MAX], exe[PATH_MAX + 16], log[PATH_MAX];
	char env_store[MAX_LIST_OPTS][PATH_MAX];
	const char *env[MAX_LIST_OPTS + 1];
	struct xt_err err;

	build_dir(b, sha, dir, sizeof dir);
	cli_bisect_strfmt(exe, sizeof exe, "%s/cli/xfbtrace", dir);
	cli_bisect_strfmt(log, sizeof log, "%s/logs/%s%s-replay.log", b->cache, sha, b->run_variant);
	if (access(exe, X_OK))
		cli_bisect_strfmt(exe, sizeof exe, "%s", b->self);
	for (int i = 0; i < b->nenvs; i++) {
		/* NAME=VALUE with each @BUILD@ replaced by the build directory. */
		char *w = env_store[i], *end = env_store[i] + PATH_MAX - 1;
		for (const char *s = b->envs[i]; *s && w < end;) {
			if (!strncmp(s, "@BUILD@", 7)) {
				size_t room = (size_t)(end - w), len = strlen(dir);
				memcpy(w, dir, len < room ? len : room);
				w += len < room ? len : room;
				s += 7;
			} else {
				*w++ = *s++;
			}
		}
		*w = '\0';
		env[i] = env_store[i];
	}
	env[b->nenvs] = NULL;

	printf("replaying… ");
	fflush(stdout);
	double t0 = cli_bisect_now();
	remove_scratch(b);
	unlink(log);
	const char *argv[] = { exe, "replay", "--backend", b->backend, "--db", b->scratch,
			       "--label", label, b->trace, NULL };
	int status = cli_proc_run(argv, &(struct cli_proc){ .log_path = log, .env = env }, &err);
	bool ok = false;
	if (status < 0) {
		cli_bisect_strfmt(o->reason, sizeof o->reason, "could not run the replay: %s", xt_err_msg(&err));
	} else if (db_run_import(b->db, b->scratch, label, &o->run_id)) {
		cli_bisect_strfmt(o->reason, sizeof o->reason, "replay recorded no run (exit %d: %s; log: %s)",
			 status, xt_err_msg(db_err(b->db)), log);
	} else {
		ok = true;
	}
	remove_scratch(b);
	o->replay_seconds = cli_bisect_now() - t0;
	return ok;
}

/* ---- comparing with the good run ---------------------------------------- */

struct first_diff {
	bool found;
	int64_t call;
	char text[512];
};

static const char *value_text(enum trace_tol_scalar s, uint64_t bits, char *buf, size_t n)
{
	union { uint32_t u; float f; } f32 = { .u = (uint32_t)bits };
	union { uint64_t u; double d; } f64 = { .u = bits };
	switch (s) {
	case TRACE_TOL_F32: cli_bisect_strfmt(buf, n, "%.9g", f32.f); break;
	case TRACE_TOL_F64: cli_bisect_strfmt(buf, n, "%.17g", f64.d); break;
	case TRACE_TOL_I32: cli_bisect_strfmt(buf, n, "%d", (int32_t)bits); break;
	case TRACE_TOL_U32: cli_bisect_strfmt(buf, n, "%u", (uint32_t)bits); break;
	}
	return buf;
}

static enum xt_rc first_obs(const struct diff_obs *d, void *ctx)
{
	struct first_diff *f = ctx;
	char what[256] = "", va[48], vb[48];
	if (f->found)
		return XT_OK;
	f->found = true;
	f->call = (int64_t)d->call_no;
	if (d->state != DIFF_OBS_DIFFERENT) {
		cli_bisect_strfmt(what, sizeof what, "only in the %s run",
			 d->state == DIFF_OBS_ONLY_A ? "good" : "tested");
	} else if (d->nitems) {
		const struct diff_item *it = &d->items[0];
		switch (it->kind) {
		case DIFF_ITEM_COMPONENT:
			cli_bisect_strfmt(what, sizeof what, "first at vertex %" PRIu64 " %s%s%s: %s vs %s",
				 it->vertex, it->varying, *it->component_name ? "." : "",
				 it->component_name, value_text(it->scalar, it->a, va, sizeof va),
				 value_text(it->scalar, it->b, vb, sizeof vb));
			break;
		case DIFF_ITEM_FIELD:
			cli_bisect_strfmt(what, sizeof what, "%s: %s vs %s", it->field,
				 it->a_text ? it->a_text : "(absent)", it->b_text ? it->b_text : "(absent)");
			break;
		case DIFF_ITEM_SIZE:
			cli_bisect_strfmt(what, sizeof what, "data size %" PRIu64 " vs %" PRIu64 " bytes", it->a,
				 it->b);
			break;
		case DIFF_ITEM_BYTES:
			cli_bisect_strfmt(what, sizeof what, "bytes %" PRIu64 "-%" PRIu64 " differ",
				 it->byte_offset, it->byte_offset + it->byte_count - 1);
			break;
		case DIFF_ITEM_DATA:
			cli_bisect_strfmt(what, sizeof what, "data in one run only");
			break;
		case DIFF_ITEM_LAYOUT:
			cli_bisect_strfmt(what, sizeof what, "the TF layout differs");
			break;
		case DIFF_ITEM_PIXEL:
			cli_bisect_strfmt(what, sizeof what, "%" PRIu64 " pixels differ, first (%" PRId64
					  ", %" PRId64 ")", d->pixels_differ, it->x, it->y);
			break;
		}
	}
	char counts[128] = "";
	if (d->stride)
		cli_bisect_strfmt(counts, sizeof counts, ": %" PRIu64 " of %" PRIu64 " components differ",
			 d->components_differ, d->components_compared);
	cli_bisect_strfmt(f->text, sizeof f->text, "call %" PRIu64 " %s: %s #%u%s%s%s", d->call_no,
		 d->function ? d->function : "?", d->kind, d->index, counts, *what ? "; " : "", what);
	return XT_OK;
}

static enum xt_rc first_call_regs(const struct diff_call *c, void *ctx)
{
	struct first_diff *f = ctx;
	if (f->found)
		return XT_OK;
	f->found = true;
	f->call = (int64_t)c->call_no;
	if (!c->in_a || !c->in_b) {
		cli_bisect_strfmt(f->text, sizeof f->text, "call %" PRIu64 " %s: register state only in the %s run",
			 c->call_no, c->function, c->in_a ? "good" : "tested");
	} else if (c->nfields) {
		const struct diff_field *d = &c->fields[0];
		cli_bisect_strfmt(f->text, sizeof f->text, "call %" PRIu64 " %s: %zu register fields differ;"
			 " first %s%s%s: 0x%x vs 0x%x", c->call_no, c->function, c->nfields,
			 d->reg_name ? d->reg_name : "(unknown register)", d->field ? "." : "",
			 d->field ? d->field : "", d->a, d->b);
	} else {
		cli_bisect_strfmt(f->text, sizeof f->text, "call %" PRIu64 " %s: register state differs",
			 c->call_no, c->function);
	}
	return XT_OK;
}

/* Compares run `run_id` with the good run: bad when anything compared
 * differs; the earliest difference goes into o->first*. */
int cli_bisect_compare(struct bisect *b, int64_t run_id, struct outcome *o)
{
	struct diff_options opt = { .tol.mode = TRACE_TOL_EXACT, .max_items = 1 };
	struct first_diff obs = { .call = -1 }, regs = { .call = -1 };
	struct diff_summary sum;
	struct diff_calls_summary csum;
	struct xt_err err;

	xt_err_clear(&err);
	if (b->compare_obs && diff_runs(b->db, b->good_run, run_id, &opt, first_obs, &obs, &sum, &err))
		return cli_fail(CMD, "comparing runs %" PRId64 " and %" PRId64 ": %s", b->good_run,
				run_id, xt_err_msg(err.rc ? &err : db_err(b->db)));
	if (b->compare_regs && b->regs_usable &&
	    diff_calls(b->db, b->good_run, run_id, DIFF_CALLS_REGS, first_call_regs, &regs, &csum,
		       &err))
		return cli_fail(CMD, "comparing the registers of runs %" PRId64 " and %" PRId64 ": %s",
				b->good_run, run_id, xt_err_msg(err.rc ? &err : db_err(b->db)));
	const struct first_diff *f = obs.found && (!regs.found || obs.call <= regs.call) ? &obs
				     : regs.found ? &regs : NULL;
	o->verdict = f ? DB_BISECT_BAD : DB_BISECT_GOOD;
	o->first_call = f ? f->call : -1;
	cli_bisect_strfmt(o->first, sizeof o->first, "%s", f ? f->text : "");
	return 0;
}

static enum xt_rc any_art(const struct db_call_art_row *row, void *ctx)
{
	*(bool *)ctx = true;
	return XT_ERR_EOF;
}

bool cli_bisect_has_regs(struct bisect *b, int64_t run_id)
{
	bool any = false;
	db_call_art_list(b->db, run_id, 0, 1, any_art, &any);
	return any;
}
