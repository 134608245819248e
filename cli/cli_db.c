/*
 * cli_db.c - `xfbtrace db push SRC DST`: copy the runs of one results store
 * into another, either an SQLite file or a PostgreSQL store (docs/db.md,
 * "A shared store"), so that CI workers record locally and publish.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"

#define CMD "db"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace db push [--quiet] SRC DST\n"
		"\n"
		"push: copies every trace (with its golden run) and every finished run\n"
		"of store SRC that store DST lacks into DST (created when missing), each\n"
		"run with its observations, per-call artefacts and blobs in one\n"
		"transaction.  A store is an SQLite file or a PostgreSQL URL\n"
		"(postgresql://USER@HOST[:PORT]/DBNAME); either direction works.\n"
		"Pushing again copies nothing: a run equal to one in DST is skipped.\n"
		"Runs still being written (status incomplete) are not pushed; bisect\n"
		"sessions stay in SRC.  Progress goes to stderr, about once a second.\n"
		"\n"
		"  --quiet   no progress, only errors and the summary line\n"
		"\n"
		"exit status: 0 pushed (or nothing to push), 2 error (runs copied before\n"
		"it stay in DST, whole)\n");
}

struct progress {
	bool quiet;
	struct timespec last;
};

static void on_progress(const struct db_push_stats *s, int64_t done, int64_t total, void *ctx)
{
	struct progress *p = ctx;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (p->quiet || (done < total && now.tv_sec - p->last.tv_sec < 1))
		return;
	p->last = now;
	fprintf(stderr, "xfbtrace db push: %" PRId64 "/%" PRId64 " traces and runs looked at;"
		" copied %" PRId64 " traces, %" PRId64 " runs, %" PRId64 " blobs\n", done, total,
		s->traces, s->runs, s->blobs);
}

static int push(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct progress p = { 0 };
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "hq", opts, NULL)) != -1) {
		switch (c) {
		case 'q': p.quiet = true; break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default: usage(stderr); return CLI_EXIT_ERROR;
		}
	}
	if (optind + 2 != argc) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}
	struct db *src, *dst;
	struct xt_err err;
	struct db_push_stats stats;
	if (db_open(&src, argv[optind], DB_OPEN_EXISTING, &err))
		return cli_fail(CMD, "push: %s", xt_err_msg(&err));
	if (db_open(&dst, argv[optind + 1], DB_OPEN_CREATE, &err)) {
		db_close(src);
		return cli_fail(CMD, "push: %s", xt_err_msg(&err));
	}
	clock_gettime(CLOCK_MONOTONIC, &p.last);
	int status = CLI_EXIT_OK;
	if (db_push(src, dst, on_progress, &p, &stats))
		status = cli_fail(CMD, "push: %s", xt_err_msg(db_err(dst)));
	printf("pushed %s into %s: %" PRId64 " traces, %" PRId64 " runs, %" PRId64 " blobs (%" PRId64
	       " bytes) copied; %" PRId64 " runs were there already; %" PRId64 " unfinished runs"
	       " not pushed\n", db_where(src), db_where(dst), stats.traces, stats.runs, stats.blobs,
	       stats.blob_bytes, stats.runs_present, stats.runs_unfinished);
	db_close(src);
	db_close(dst);
	return status;
}

int cli_db_main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "push"))
		return push(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	usage(stderr);
	return argc < 2 ? CLI_EXIT_ERROR : cli_fail(CMD, "unknown subcommand '%s'", argv[1]);
}
