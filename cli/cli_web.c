/*
 * cli_web.c - `xfbtrace web`: serves the web UI over a results database
 * (web/web.h) until interrupted, or for --timeout seconds.
 *
 *   xfbtrace web [--db FILE] [--port N] [--bind ADDR] [--timeout S]
 *
 * Prints the URL on stdout ("xfbtrace web: http://127.0.0.1:PORT/") and
 * flushes it, so a script that started it in the background can read the
 * port chosen for --port 0.
 *
 * Exit status: 0 stopped by a signal or the timeout, 2 error.
 */
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "db.h"
#include "web.h"

#define CMD "web"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace web [--db FILE] [--port N] [--bind ADDR] [--timeout S]\n"
		"\n"
		"Serves a local web UI over results database FILE:\n"
		"the runs, each run's calls (PM4, registers, shaders, TF buffers) and\n"
		"diffs of two runs, plus a JSON API under /api/.  Read-only on FILE.\n"
		"\n"
		"  --db FILE     the results database (default: $XFBTRACE_DB, else\n"
		"                xfbtrace.db); opened read-only, also on read-only media\n"
		"  --port N      TCP port (default 8080; 0: any free port, printed)\n"
		"  --bind ADDR   IPv4 address to listen on (default 127.0.0.1: this\n"
		"                machine only)\n"
		"  --timeout S   stop after S seconds (default: run until interrupted)\n");
}

static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (!*s || *end || v > max || *s == '-')
		return false;
	*out = v;
	return true;
}

int cli_web_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "port", required_argument, NULL, 'p' },
		{ "bind", required_argument, NULL, 'b' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct web_options o = { .db_path = "xfbtrace.db", .port = 8080 };
	unsigned long port, timeout = 0;
	const char *db_arg = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': db_arg = optarg; break;
		case 'p':
			if (!parse_uint(optarg, 65535, &port))
				return cli_fail(CMD, "--port takes 0..65535, not '%s'", optarg);
			o.port = (uint16_t)port;
			break;
		case 'b': o.bind_addr = optarg; break;
		case 't':
			if (!parse_uint(optarg, 7 * 24 * 3600, &timeout))
				return cli_fail(CMD, "--timeout takes seconds, not '%s'", optarg);
			break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default: usage(stderr); return CLI_EXIT_ERROR;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}
	o.db_path = cli_db_path(db_arg) ? cli_db_path(db_arg) : "xfbtrace.db";

	/* Block the stop signals before the server's thread starts, so they
	 * come to sigtimedwait here and not to that thread. */
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	signal(SIGPIPE, SIG_IGN);

	struct web_server *s;
	struct xt_err err;
	xt_err_clear(&err);
	char where[512];
	db_redact(o.db_path, where, sizeof where);
	if (web_server_open(&s, &o, &err))
		return cli_fail(CMD, "%s: %s", where, xt_err_msg(&err));
	printf("xfbtrace web: serving %s at http://%s:%u/\n", where,
	       o.bind_addr ? o.bind_addr : "127.0.0.1", web_server_port(s));
	fflush(stdout);
	struct timespec limit = { .tv_sec = (time_t)timeout };
	int sig = sigtimedwait(&stop, NULL, timeout ? &limit : NULL);
	while (sig < 0 && !timeout)
		sig = sigtimedwait(&stop, NULL, NULL);
	web_server_close(s);
	fprintf(stderr, "xfbtrace web: stopped (%s)\n", sig > 0 ? strsignal(sig) : "timeout");
	return CLI_EXIT_OK;
}
