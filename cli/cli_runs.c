/*
 * cli_runs.c - `xfbtrace runs`: list the runs in a results database, as an
 * aligned table for people or as JSON for scripts.
 *
 * The table is computed before it is printed (column widths depend on every
 * row); runs are few (one per replay), so holding them is cheap.
 */
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"
#include "xt_json.h"

#define CMD "runs"
#define NCOLS 9
#define DRIVER_MAX 40

enum { COL_RUN, COL_TRACE, COL_BACKEND, COL_REVISION, COL_DRIVER, COL_LABEL, COL_STARTED,
       COL_STATUS, COL_OBS };

static const char *const headers[NCOLS] = {
	"RUN", "TRACE", "BACKEND", "REVISION", "DRIVER", "LABEL", "STARTED", "STATUS",
	"OBSERVATIONS",
};

struct table {
	bool json;
	struct xt_buf out;          /* JSON: the array so far */
	struct xt_jw jw;            /* ... and its writer */
	size_t nrows;
	char **cells;               /* nrows * NCOLS, heap strings */
	int width[NCOLS];
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace runs [--db FILE] [--trace T] [--json] [--color=WHEN]\n"
		"\n"
		"Lists the runs in results database FILE: the golden run of each trace\n"
		"(its capture) and every replay, with backend, revision, driver, label,\n"
		"start time, status and number of observations.  A run whose writer is\n"
		"still at work, or died, is \"incomplete\".\n"
		"\n"
		"  --db FILE    the results database (default: $XFBTRACE_DB); read,\n"
		"               never created (a file of an older schema is migrated)\n"
		"  --trace T    only runs of trace T (its id, or a hash prefix)\n"
		"  --json       one JSON array with every column, for scripts\n"
		"  --color=WHEN auto (default: on a terminal without NO_COLOR), always,\n"
		"               never\n"
		"\n"
		"exit status: 0 listed, 2 error (no such file, not a results database)\n");
}

static enum xt_rc add_json(struct table *t, const struct db_run_info *r)
{
	db_run_json(&t->jw, r, true);
	t->nrows++;
	return t->jw.rc;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, f);
	if (vasprintf(&s, f, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

static enum xt_rc add_row(const struct db_run_info *r, void *ctx)
{
	struct table *t = ctx;
	if (t->json)
		return add_json(t, r);

	char **g = realloc(t->cells, (t->nrows + 1) * NCOLS * sizeof *g);
	if (!g)
		return XT_ERR_NOMEM;
	t->cells = g;
	char **row = g + t->nrows * NCOLS;
	char driver[DRIVER_MAX + 4] = "-";
	if (r->gl_renderer || r->gl_version) {
		snprintf(driver, sizeof driver, "%s%s%s", r->gl_renderer ? r->gl_renderer : "",
			 r->gl_renderer && r->gl_version ? ", " : "", r->gl_version ? r->gl_version : "");
		if (strlen(driver) > DRIVER_MAX)
			strcpy(driver + DRIVER_MAX - 3, "...");
	}
	/* Times to the second: "2026-11-21T07:56:04". */
	row[COL_RUN] = fmt("%" PRId64 "%s", r->id, r->golden ? "*" : "");
	row[COL_TRACE] = fmt("%" PRId64 " %.8s", r->trace_id, r->trace_hash);
	row[COL_BACKEND] = fmt("%s", r->backend);
	row[COL_REVISION] = fmt("%s", r->revision);
	row[COL_DRIVER] = fmt("%s", driver);
	row[COL_LABEL] = fmt("%s", r->label ? r->label : "-");
	row[COL_STARTED] = fmt("%.19s", r->started_at);
	row[COL_STATUS] = fmt("%s", r->status);
	row[COL_OBS] = fmt("%" PRId64, r->observations);
	t->nrows++;
	for (int i = 0; i < NCOLS; i++)
		if (!row[i])
			return XT_ERR_NOMEM;
	return XT_OK;
}

static void print_table(struct table *t, bool colour)
{
	for (int i = 0; i < NCOLS; i++)
		t->width[i] = (int)strlen(headers[i]);
	for (size_t r = 0; r < t->nrows; r++)
		for (int i = 0; i < NCOLS; i++) {
			int w = (int)strlen(t->cells[r * NCOLS + i]);
			if (w > t->width[i])
				t->width[i] = w;
		}
	printf("%s", colour ? "\033[1m" : "");
	for (int i = 0; i < NCOLS; i++)
		printf(i == COL_OBS ? "%*s" : "%-*s  ", t->width[i], headers[i]);
	printf("%s\n", colour ? "\033[0m" : "");
	for (size_t r = 0; r < t->nrows; r++) {
		char **row = t->cells + r * NCOLS;
		for (int i = 0; i < NCOLS; i++) {
			const char *on = "";
			if (colour && i == COL_STATUS)
				on = !strcmp(row[i], "ok") ? "\033[32m"
				   : !strcmp(row[i], "failed") ? "\033[31m" : "\033[33m";
			printf(i == COL_OBS ? "%s%*s%s" : "%s%-*s%s  ", on, t->width[i], row[i],
			       *on ? "\033[0m" : "");
		}
		putchar('\n');
	}
	if (t->nrows)
		printf("(* golden run: the capture's own observations)\n");
}

int cli_runs_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "trace", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "color", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *db_path = NULL, *trace = NULL;
	struct table t = { 0 };
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': db_path = optarg; break;
		case 't': trace = optarg; break;
		case 'j': t.json = true; break;
		case 'C':
			if (!cli_colour_parse(optarg))
				return cli_fail(CMD, "--color takes auto, always or never, not '%s'", optarg);
			break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default: usage(stderr); return CLI_EXIT_ERROR;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}
	if (!(db_path = cli_db_path(db_path)))
		return cli_fail(CMD, "no database: give --db FILE or set XFBTRACE_DB");

	struct db *db;
	struct xt_err err;
	int64_t trace_id = 0;
	int status = CLI_EXIT_OK;
	if (db_open(&db, db_path, DB_OPEN_EXISTING, &err))
		return cli_fail(CMD, "%s", xt_err_msg(&err));
	enum xt_rc rc = trace ? db_trace_lookup(db, trace, &trace_id) : XT_OK;
	if (!rc && t.json) {
		xt_jw_init(&t.jw, &t.out);
		xt_jw_arr(&t.jw);
	}
	rc = rc ? rc : db_runs_list(db, trace_id, add_row, &t);
	if (!rc && t.json) {
		xt_jw_end(&t.jw);
		rc = xt_jw_done(&t.jw);
	}
	if (rc) {
		status = cli_fail(CMD, "%s", db_err(db)->rc ? xt_err_msg(db_err(db)) : xt_rc_name(rc));
	} else if (t.json) {
		cli_write_buf(&t.out);
		fputc('\n', stdout);
	} else {
		print_table(&t, cli_colour());
	}
	for (size_t i = 0; i < t.nrows * NCOLS && t.cells; i++)
		free(t.cells[i]);
	free(t.cells);
	xt_buf_fini(&t.out);
	db_close(db);
	return status;
}
