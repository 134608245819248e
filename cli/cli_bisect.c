/*
 * cli_bisect.c - `xfbtrace bisect`: find the commit that changed what a
 * trace replays to (docs/guide.md, "Bisecting a regression").
 *
 * Each revision tried is checked out in a git worktree of the cache
 * (never the user's checkout), built into a build directory of its own,
 * and replayed by the xfbtrace that revision built (or, with --build, by
 * this xfbtrace in an environment pointing at that build).  Its run is
 * compared with the good revision's run: any observation that differs
 * (and with --compare registers / all, any register state of a sim call)
 * makes it bad.
 *
 * Why our own bisection and not `git bisect run`: every commit of
 * `git rev-list --first-parent --ancestry-path GOOD..BAD` is in one list,
 * so the search is a plain binary search over indices that can print
 * "[3/7]", keep per-commit verdicts in the database, and resume from the
 * cache without git's bisect state (which lives in the worktree and would
 * survive an interrupted run).  Skipped commits are routed around as git
 * does: the untested commit nearest the middle is tried instead; when only
 * skipped commits separate the last good from the first bad, the answer is
 * the set of candidates.  Merges are one step each (first parent), like
 * `git bisect --first-parent`.
 *
 * Why runs go through a scratch database: a revision's xfbtrace refuses a
 * results database newer than its own schema, so it writes into an empty
 * file and db_run_import copies the run into --db (db/db_bisect.h).
 *
 * Cache (--cache, default $XDG_CACHE_HOME/xfbtrace/bisect/<repo-hash>):
 *   worktree/           the detached worktree
 *   build-<sha>[-<h>]/  one per commit; .xfbtrace-bisect says "ok"
 *                       or "failed", and a build is never run twice; <h>
 *                       hashes --build and --meson-option when given.
 *                       With --build, the commit's build directory; with
 *                       the default Meson build, cli/xfbtrace as built
 *   incremental[-<h>]/  the default Meson build's one build directory,
 *                       reused by every commit (ninja rebuilds what a
 *                       checkout changed; ccache when installed)
 *   logs/<sha>[-<h>]-build.log, logs/<sha>[-<h>]-replay.log
 *   bisect.db           the default --db
 *   lock                one bisect per cache at a time (flock)
 * Runs already in the database (label "bisect:<sha>[-<h>]", <h> hashing
 * --build, --meson-option and --env; same trace and backend) are reused
 * without building or replaying.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_bisect.h"
#include "xt_json.h"

#define CMD "bisect"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace bisect --trace FILE --good REV --bad REV [--repo DIR]\n"
		"                       [--backend sim|host] [--db FILE] [--cache DIR]\n"
		"                       [--compare observations|registers|all]\n"
		"                       [--build CMD] [--env NAME=VALUE]... \n"
		"                       [--meson-option OPT]... [--jobs N]\n"
		"       xfbtrace bisect --db FILE --show ID | --list\n"
		"\n"
		"Finds the first commit between REV good and REV bad whose replay of\n"
		"trace FILE differs from the good revision's.  Each commit is built in\n"
		"a worktree of the cache (your checkout is never touched), replayed,\n"
		"recorded in the results database and compared with the good run.\n"
		"\n"
		"  --repo DIR     the repository (default: the one around the current\n"
		"                 directory)\n"
		"  --backend B    sim (default) or host\n"
		"  --db FILE      results database (default: $XFBTRACE_DB, else\n"
		"                 CACHE/bisect.db); runs it\n"
		"                 holds already (label bisect:<sha>, with -<hash> of\n"
		"                 --build, --meson-option and --env when given) are not\n"
		"                 replayed again\n"
		"  --cache DIR    worktree, builds and logs (default:\n"
		"                 $XDG_CACHE_HOME/xfbtrace/bisect/<repo-hash>)\n"
		"  --compare C    observations (default), registers (sim register state\n"
		"                 per call) or all\n"
		"  --build CMD    build with `sh -c CMD` in the worktree instead of Meson;\n"
		"                 $XFBTRACE_BISECT_SRC, $XFBTRACE_BISECT_BUILD (a directory\n"
		"                 per commit) and $XFBTRACE_BISECT_COMMIT are set; the\n"
		"                 replay uses BUILD/cli/xfbtrace if it exists, else this\n"
		"                 xfbtrace\n"
		"  --env N=V      set for each replay; @BUILD@ in V is the commit's build\n"
		"                 directory (LD_LIBRARY_PATH=@BUILD@/lib for a driver)\n"
		"  --meson-option OPT  passed to `meson setup` (e.g. --buildtype=plain)\n"
		"  --jobs N       ninja -j N\n"
		"  --show ID      print bisect session ID as JSON; --list: all sessions\n"
		"\n"
		"A commit that does not build, or whose replay records no run, is\n"
		"skipped (git bisect's exit 125).  Exit status: 0 first bad commit\n"
		"found, 1 not decidable (skipped commits, or BAD replays like GOOD),\n"
		"2 error.\n");
}

/* ---- one step ------------------------------------------------------------ */

static void subject_of(struct bisect *b, const char *sha, char *out, size_t n)
{
	if (cli_bisect_git(b, b->repo, NULL, "show", "-s", "--format=%s", sha, (char *)NULL))
		cli_bisect_strfmt(out, n, "?");
	else
		cli_bisect_strfmt(out, n, "%s", cli_bisect_git_out(b));
}

/*
 * Finds (or makes) the run of `sha` and its verdict: the good revision's
 * run is the reference and is "good" by definition.  Prints one progress
 * line and records the step.  Nonzero on an error that stops the bisect.
 */
static int evaluate(struct bisect *b, const char *sha, bool reference, struct outcome *o)
{
	char label[96], subject[256];
	int rc = 0;

	memset(o, 0, sizeof *o);
	o->first_call = -1;
	cli_bisect_strfmt(label, sizeof label, "bisect:%s%s", sha, b->run_variant);
	subject_of(b, sha, subject, sizeof subject);
	b->steps_done++;
	if (b->steps_done > b->steps_estimate)
		b->steps_estimate = b->steps_done;
	printf("[%d/%d] %.10s %.50s: ", b->steps_done, b->steps_estimate, sha, subject);
	fflush(stdout);
	if (!db_run_find_label(b->db, b->trace_id, b->backend, label, &o->run_id)) {
		o->run_cached = true;
		printf("run %" PRId64 " cached… ", o->run_id);
	} else if (!cli_bisect_build(b, sha, o) || !cli_bisect_replay(b, sha, label, o)) {
		o->verdict = DB_BISECT_SKIP;
	}
	if (o->verdict != DB_BISECT_SKIP) {
		if (reference)
			o->verdict = DB_BISECT_GOOD;
		else
			rc = cli_bisect_compare(b, o->run_id, o);
	}
	if (rc)
		return rc;
	printf("%s%s%s\n", db_bisect_verdict_name(o->verdict), o->reason[0] ? ": " : "", o->reason);
	if (o->verdict == DB_BISECT_BAD && o->first[0])
		printf("        %s\n", o->first);
	if (db_bisect_add_step(b->db, b->session, &(struct db_bisect_step){
		.commit = sha, .subject = subject, .verdict = o->verdict,
		.reason = o->reason[0] ? o->reason : o->first[0] ? o->first : NULL,
		.run_id = o->run_id, .build_cached = o->build_cached, .run_cached = o->run_cached,
		.build_seconds = o->build_seconds, .replay_seconds = o->replay_seconds }))
		return cli_fail(CMD, "%s: %s", db_where(b->db), xt_err_msg(db_err(b->db)));
	return 0;
}

/* ---- the search ---------------------------------------------------------- */

static int steps_left(int untested)
{
	int k = 0;
	while ((1 << k) < untested + 1)
		k++;
	return k;
}

static int finish(struct bisect *b, const struct db_bisect_result *r, int status)
{
	if (db_bisect_finish(b->db, b->session, r))
		return cli_fail(CMD, "%s: %s", db_where(b->db), xt_err_msg(db_err(b->db)));
	return status;
}

static int fail_session(struct bisect *b, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_session(struct bisect *b, int status, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "xfbtrace bisect: %s\n", msg);
	return finish(b, &(struct db_bisect_result){ .status = DB_BISECT_FAILED, .message = msg,
						     .good_run_id = b->good_run, .first_call = -1 },
		      status);
}

static void print_culprit(struct bisect *b, const char *sha, const struct outcome *o,
			  char *subject, char *author, size_t n)
{
	cli_bisect_git(b, b->repo, NULL, "show", "-s", "--format=%s", sha, (char *)NULL);
	cli_bisect_strfmt(subject, n, "%s", cli_bisect_git_out(b));
	cli_bisect_git(b, b->repo, NULL, "show", "-s", "--format=%an <%ae>", sha, (char *)NULL);
	cli_bisect_strfmt(author, n, "%s", cli_bisect_git_out(b));
	const char *web = getenv("XFBTRACE_WEB_URL");
	printf("\nfirst bad commit: %s\n", sha);
	printf("  subject: %s\n  author:  %s\n", subject, author);
	if (o->first[0])
		printf("  first difference: %s\n", o->first);
	printf("  full diff: xfbtrace diff --db %s %" PRId64 " %" PRId64 "\n", db_where(b->db),
	       b->good_run, o->run_id);
	printf("  web UI:    %s/diff/%" PRId64 "/%" PRId64 "  (xfbtrace web --db %s)\n",
	       web && *web ? web : "http://localhost:8080", b->good_run, o->run_id, db_where(b->db));
	printf("  session:   xfbtrace bisect --db %s --show %" PRId64 "\n", db_where(b->db), b->session);
}

static int search(struct bisect *b, char (*list)[SHA_LEN + 1], int n)
{
	struct outcome o, culprit_o;
	enum db_bisect_verdict *v = calloc((size_t)n, sizeof *v);
	int lo = -1, hi = n - 1, rc = 0;
	if (!v)
		return cli_fail(CMD, "out of memory");
	for (int i = 0; i < n; i++)
		v[i] = (enum db_bisect_verdict)-1;

	b->steps_estimate = 2 + steps_left(n - 1);
	if ((rc = evaluate(b, b->good, true, &o)) != 0)
		goto out;
	if (o.verdict == DB_BISECT_SKIP) {
		rc = fail_session(b, CLI_EXIT_ERROR, "the good revision %.10s cannot be tested: %s",
				  b->good, o.reason);
		goto out;
	}
	b->good_run = o.run_id;
	if (b->compare_regs) {
		bool any = cli_bisect_has_regs(b, b->good_run);
		b->regs_usable = any;
		if (!any)
			fprintf(stderr, "xfbtrace bisect: --compare %s: the good run (%" PRId64 ") has no"
				" register artefacts (host backend, or a revision older than them);"
				" comparing observations only\n", b->compare, b->good_run);
		if (!any)
			b->compare_obs = true;
	}
	if ((rc = evaluate(b, b->bad, false, &culprit_o)) != 0)
		goto out;
	v[n - 1] = culprit_o.verdict;
	if (culprit_o.verdict == DB_BISECT_SKIP) {
		rc = fail_session(b, CLI_EXIT_ERROR, "the bad revision %.10s cannot be tested: %s",
				  b->bad, culprit_o.reason);
		goto out;
	}
	if (culprit_o.verdict == DB_BISECT_GOOD) {
		rc = fail_session(b, CLI_EXIT_DIFFERENT, "the bad revision %.10s replays like the good"
				  " one (compared: %s): nothing to bisect", b->bad, b->compare);
		goto out;
	}

	for (;;) {
		int untested = 0, pick = -1, mid = lo + (hi - lo) / 2;
		for (int i = lo + 1; i < hi; i++)
			untested += v[i] != DB_BISECT_SKIP;
		/* The untested commit nearest the middle: skips are routed around. */
		for (int d = 0; d < hi - lo && pick < 0; d++) {
			if (mid + d > lo && mid + d < hi && v[mid + d] != DB_BISECT_SKIP)
				pick = mid + d;
			else if (mid - d > lo && mid - d < hi && v[mid - d] != DB_BISECT_SKIP)
				pick = mid - d;
		}
		if (pick < 0)
			break;
		b->steps_estimate = b->steps_done + steps_left(untested);
		if ((rc = evaluate(b, list[pick], false, &o)) != 0)
			goto out;
		v[pick] = o.verdict;
		if (o.verdict == DB_BISECT_GOOD) {
			lo = pick;
		} else if (o.verdict == DB_BISECT_BAD) {
			hi = pick;
			culprit_o = o;
		}
	}

	char subject[256], author[256];
	if (hi - lo == 1) {
		print_culprit(b, list[hi], &culprit_o, subject, author, sizeof subject);
		rc = finish(b, &(struct db_bisect_result){
			.status = DB_BISECT_FOUND, .culprit = list[hi], .culprit_subject = subject,
			.culprit_author = author, .good_run_id = b->good_run,
			.culprit_run_id = culprit_o.run_id, .first_call = culprit_o.first_call,
			.first_difference = culprit_o.first[0] ? culprit_o.first : NULL }, CLI_EXIT_OK);
	} else {
		struct xt_buf cand = XT_BUF_INIT;
		struct xt_jw w;
		xt_jw_init(&w, &cand);
		xt_jw_arr(&w);
		printf("\nonly skipped commits are left to test; the first bad commit is one of:\n");
		for (int i = lo + 1; i <= hi && !w.rc; i++) {
			subject_of(b, list[i], subject, sizeof subject);
			printf("  %s %s%s\n", list[i], subject, i == hi ? " (bad)" : " (skipped)");
			xt_jw_str(&w, list[i]);
		}
		xt_jw_end(&w);
		enum xt_rc xrc = xt_jw_done(&w);
		xrc = xrc ? xrc : xt_buf_append(&cand, "", 1);
		printf("  session: xfbtrace bisect --db %s --show %" PRId64 "\n", db_where(b->db), b->session);
		rc = xrc ? cli_fail(CMD, "out of memory")
			 : finish(b, &(struct db_bisect_result){
				.status = DB_BISECT_AMBIGUOUS, .message = "only skipped commits left",
				.candidates_json = (const char *)cand.data, .good_run_id = b->good_run,
				.culprit_run_id = culprit_o.run_id, .first_call = culprit_o.first_call,
				.first_difference = culprit_o.first[0] ? culprit_o.first : NULL },
				CLI_EXIT_DIFFERENT);
		xt_buf_fini(&cand);
	}
out:
	free(v);
	return rc;
}

/* The commits after good up to bad, oldest first. */
static int list_commits(struct bisect *b, char (**list)[SHA_LEN + 1], int *n)
{
	char range[2 * SHA_LEN + 8];
	cli_bisect_strfmt(range, sizeof range, "%s..%s", b->good, b->bad);
	if (cli_bisect_git(b, b->repo, NULL, "merge-base", "--is-ancestor", b->good, b->bad, (char *)NULL))
		return cli_fail(CMD, "%.10s (good) is not an ancestor of %.10s (bad)", b->good, b->bad);
	if (cli_bisect_git(b, b->repo, NULL, "rev-list", "--reverse", "--first-parent", "--ancestry-path",
		range, (char *)NULL))
		return cli_fail(CMD, "git rev-list %s failed", range);
	const char *s = cli_bisect_git_out(b);
	size_t len = strlen(s);
	*n = 0;
	*list = malloc((len / (SHA_LEN + 1) + 1) * sizeof **list);
	if (!*list)
		return cli_fail(CMD, "out of memory");
	for (const char *p = s; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		if (l == SHA_LEN) {
			memcpy((*list)[*n], p, SHA_LEN);
			(*list)[(*n)++][SHA_LEN] = '\0';
		}
		p += l + (nl != NULL);
	}
	if (*n == 0 || strcmp((*list)[*n - 1], b->bad))
		return cli_fail(CMD, "%.10s is not reached from %.10s by first parents", b->bad,
				b->good);
	return 0;
}

static int show(const char *db_path, int64_t id)
{
	struct db *db;
	struct xt_err err;
	struct xt_buf out = XT_BUF_INIT;
	if (db_open(&db, db_path, DB_OPEN_EXISTING, &err))
		return cli_fail(CMD, "%s", xt_err_msg(&err));
	int status = CLI_EXIT_OK;
	if (db_bisect_json(db, id, &out))
		status = cli_fail(CMD, "%s", xt_err_msg(db_err(db)));
	else
		printf("%.*s\n", (int)out.len, (const char *)out.data);
	xt_buf_fini(&out);
	db_close(db);
	return status;
}

static int run_bisect(struct bisect *b)
{
	struct xt_err err;
	struct db_trace_ref ref;
	char (*list)[SHA_LEN + 1] = NULL;
	int n = 0, rc;

	cli_bisect_variants(b);
	if ((rc = cli_bisect_setup(b)) || (rc = cli_bisect_resolve(b, b->good_arg, b->good)) ||
	    (rc = cli_bisect_resolve(b, b->bad_arg, b->bad)) || (rc = cli_bisect_lock(b)) ||
	    (rc = list_commits(b, &list, &n)))
		goto out;
	if (db_open(&b->db, b->db_path, DB_OPEN_CREATE, &err)) {
		rc = cli_fail(CMD, "%s", xt_err_msg(&err));
		goto out;
	}
	if (db_trace_record(b->db, b->trace, NULL, &ref)) {
		rc = cli_fail(CMD, "%s: %s", b->trace, xt_err_msg(db_err(b->db)));
		goto out;
	}
	b->trace_id = ref.trace_id;
	if (db_bisect_begin(b->db, &(struct db_bisect_desc){
		.trace_id = b->trace_id, .repo = b->repo, .good = b->good, .bad = b->bad,
		.backend = b->backend, .compare = b->compare, .build = b->build_cmd }, &b->session)) {
		rc = cli_fail(CMD, "%s: %s", db_where(b->db), xt_err_msg(db_err(b->db)));
		goto out;
	}
	printf("bisecting %d commits from %.10s (good) to %.10s (bad), %s backend; cache %s\n",
	       n, b->good, b->bad, b->backend, b->cache);
	rc = search(b, list, n);
	printf("bisect took %.2f s\n", cli_bisect_now() - b->started);
out:
	free(list);
	db_close(b->db);
	return rc;
}

static bool push(const char **arr, int *n, const char *s)
{
	if (*n >= MAX_LIST_OPTS)
		return false;
	arr[(*n)++] = s;
	return true;
}

int cli_bisect_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trace", required_argument, NULL, 't' },
		{ "good", required_argument, NULL, 'g' },
		{ "bad", required_argument, NULL, 'B' },
		{ "repo", required_argument, NULL, 'r' },
		{ "build", required_argument, NULL, 'c' },
		{ "backend", required_argument, NULL, 'b' },
		{ "db", required_argument, NULL, 'd' },
		{ "cache", required_argument, NULL, 'C' },
		{ "compare", required_argument, NULL, 'm' },
		{ "env", required_argument, NULL, 'e' },
		{ "meson-option", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "show", required_argument, NULL, 's' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct bisect b = { .backend = "sim", .compare = "observations", .started = cli_bisect_now() };
	const char *show_id = NULL;
	bool list = false;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't': b.trace_arg = optarg; break;
		case 'g': b.good_arg = optarg; break;
		case 'B': b.bad_arg = optarg; break;
		case 'r': b.repo_arg = optarg; break;
		case 'c': b.build_cmd = optarg; break;
		case 'b': b.backend = optarg; break;
		case 'd': b.db_arg = optarg; break;
		case 'C': b.cache_arg = optarg; break;
		case 'm': b.compare = optarg; break;
		case 'j': b.jobs = optarg; break;
		case 's': show_id = optarg; break;
		case 'l': list = true; break;
		case 'e':
			if (!strchr(optarg, '=') || *optarg == '=')
				return cli_fail(CMD, "--env takes NAME=VALUE, not '%s'", optarg);
			if (!push(b.envs, &b.nenvs, optarg))
				return cli_fail(CMD, "too many --env");
			break;
		case 'o':
			if (!push(b.meson_opts, &b.nmeson_opts, optarg))
				return cli_fail(CMD, "too many --meson-option");
			break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default: usage(stderr); return CLI_EXIT_ERROR;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}
	if (show_id || list) {
		char *end;
		long long id = show_id ? strtoll(show_id, &end, 10) : 0;
		if (!(b.db_arg = cli_db_path(b.db_arg)))
			return cli_fail(CMD, "--show and --list read --db FILE (or $XFBTRACE_DB): give it");
		if (show_id && (!*show_id || *end || id <= 0))
			return cli_fail(CMD, "--show takes a session id, not '%s'", show_id);
		return show(b.db_arg, id);
	}
	b.db_arg = cli_db_path(b.db_arg);
	if (!b.trace_arg || !b.good_arg || !b.bad_arg) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}
	if (strcmp(b.backend, "sim") && strcmp(b.backend, "host"))
		return cli_fail(CMD, "unknown backend '%s' (sim or host)", b.backend);
	b.compare_obs = !strcmp(b.compare, "observations") || !strcmp(b.compare, "all");
	b.compare_regs = !strcmp(b.compare, "registers") || !strcmp(b.compare, "all");
	if (!b.compare_obs && !b.compare_regs)
		return cli_fail(CMD, "--compare takes observations, registers or all, not '%s'",
				b.compare);
	if (b.jobs && strspn(b.jobs, "0123456789") != strlen(b.jobs))
		return cli_fail(CMD, "--jobs takes a number, not '%s'", b.jobs);
	xt_buf_init(&b.out);
	rc = run_bisect(&b);
	xt_buf_fini(&b.out);
	return rc;
}
