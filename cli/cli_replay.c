/*
 * cli_replay.c - `xfbtrace replay`: replay a trace on a backend and, with
 * --check, compare it with the trace's golden data (replay/replay.h).
 *
 * Exit status: 0 when everything checked matched (or without --check, when
 * the replay ran to the end), 1 when something differed, 2 on error.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "replay.h"

#define CMD "replay"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace replay [--backend host] [--check] [--calls A-B]\n"
		"                       [--max-diffs N] FILE\n"
		"\n"
		"Replays every call of trace FILE in recorded order on a backend:\n"
		"host = the system GL driver through EGL (surfaceless), with the\n"
		"contexts the trace created (API, version, profile, flags).  The\n"
		"replay reads back the same observations the capture made (TF\n"
		"buffers, query results, read-backs).\n"
		"\n"
		"  --backend B   host (the default)\n"
		"  --check       compare every observation with the trace's golden one,\n"
		"                and glGetError results, compile / link status and TF\n"
		"                varying queries with the recorded ones; print the first\n"
		"                differences and 'N observations, N match, N differ'\n"
		"  --calls A-B   replay calls up to B only, and check those from A on\n"
		"  --max-diffs N differences printed in detail (default 10)\n"
		"\n"
		"Calls that cannot be replayed are listed with their first call number.\n"
		"Exit status: 0 all equal, 1 a difference, 2 error.\n");
}

int cli_replay_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "backend", required_argument, NULL, 'b' },
		{ "check", no_argument, NULL, 'c' },
		{ "calls", required_argument, NULL, 'r' },
		{ "max-diffs", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct replay_options o = {
		.backend = "host",
		.last_call = UINT64_MAX,
		.max_reported = 10,
		.out = stdout,
	};
	struct replay_summary s;
	struct xt_err err;
	char *end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o.backend = optarg;
			break;
		case 'c':
			o.check = true;
			break;
		case 'r':
			if (!cli_parse_range(optarg, &o.first_call, &o.last_call))
				return cli_fail(CMD, "bad call range '%s' (A-B, A-, -B or N)", optarg);
			break;
		case 'm':
			o.max_reported = (unsigned)strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				return cli_fail(CMD, "bad --max-diffs '%s'", optarg);
			break;
		case 'h':
			usage(stdout);
			return CLI_EXIT_OK;
		default:
			usage(stderr);
			return CLI_EXIT_ERROR;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}
	if (strcmp(o.backend, "host"))
		return cli_fail(CMD, "unknown backend '%s' (this build has: host)", o.backend);
	o.progress = isatty(STDERR_FILENO);
	xt_err_clear(&err);
	if (replay_run(argv[optind], &o, &s, &err) != XT_OK)
		return cli_fail(CMD, "%s: %s", argv[optind], xt_err_msg(&err));
	fflush(stdout);
	return replay_summary_ok(&s) ? CLI_EXIT_OK : CLI_EXIT_DIFFERENT;
}
