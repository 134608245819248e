/*
 * cli_ingest.c - `xfbtrace ingest`: record a trace and its golden run (the
 * capture's own observations) in a results database (docs/db.md).
 *
 * The first writer of runs: replay adds its runs next to the golden run
 * that ingest (or replay itself, through the same db_trace_record) wrote.
 * Recording a trace that is already in the database changes nothing.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "db.h"

#define CMD "ingest"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace ingest [--db FILE] [--label L] TRACE\n"
		"\n"
		"Records trace TRACE in results database FILE (created when missing),\n"
		"with the observations the capture made as the trace's golden run.  A\n"
		"trace is known by the hash of its records, so recording it again (or\n"
		"its compacted form) changes nothing.\n"
		"\n"
		"  --db FILE    the results database (default: $XFBTRACE_DB)\n"
		"  --label L    a label for the golden run\n");
}

int cli_ingest_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "label", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *db_path = NULL, *label = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': db_path = optarg; break;
		case 'l': label = optarg; break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default: usage(stderr); return CLI_EXIT_ERROR;
		}
	}
	if (optind + 1 == argc && !(db_path = cli_db_path(db_path)))
		return cli_fail(CMD, "no database: give --db FILE or set XFBTRACE_DB");
	if (optind + 1 != argc) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}

	struct db *db;
	struct xt_err err;
	struct db_trace_ref ref;
	if (db_open(&db, db_path, DB_OPEN_CREATE, &err))
		return cli_fail(CMD, "%s", xt_err_msg(&err));
	if (db_trace_record(db, argv[optind], label, &ref)) {
		int status = cli_fail(CMD, "%s", xt_err_msg(db_err(db)));
		db_close(db);
		return status;
	}
	if (ref.created)
		printf("trace %.12s (id %" PRId64 ") recorded; golden run %" PRId64 "\n", ref.hash,
		       ref.trace_id, ref.golden_run_id);
	else
		printf("trace %.12s (id %" PRId64 ") was recorded already; golden run %" PRId64 "\n",
		       ref.hash, ref.trace_id, ref.golden_run_id);
	db_close(db);
	return CLI_EXIT_OK;
}
