/*
 * main.c - the `xfbtrace` program: one binary, many subcommands, in the
 * style of apitrace and git.  This file only dispatches; each subcommand
 * lives in its own cli_<name>.c.
 *
 * `xfbtrace --help` lists only subcommands that work in this build.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "xt_buf.h"
#include "xt_revision.h"

struct cli_command {
	const char *name;
	const char *summary;
	int (*main)(int argc, char **argv);
};

static const struct cli_command commands[] = {
	{ "capture", "run a program and record its GL calls and TF output", cli_capture_main },
	{ "dump", "print the records of a trace (text or JSON lines)", cli_dump_main },
	{ "info", "summarise a trace: properties, calls, observations", cli_info_main },
	{ "state", "the GL state a trace set up at a call, TF buffers decoded", cli_state_main },
	{ "replay", "replay a trace on the system GL and check it against its golden data", cli_replay_main },
	{ "ingest", "record a trace and its golden run in a results database", cli_ingest_main },
	{ "runs", "list the runs in a results database", cli_runs_main },
	{ "diff", "compare the observations of two runs of a trace", cli_diff_main },
	{ "pm4", "decode PM4 command buffers, or the packets of one call of a sim replay", cli_pm4_main },
	{ "isa", "assemble / disassemble shaders of the simulated GPU's ISA", cli_isa_main },
	{ "import-apitrace", "translate an apitrace trace (.trace) into an xfbtrace trace", cli_import_apitrace_main },
	{ "regs", "register state (and PM4) of one call of a sim replay", cli_regs_main },
	{ "web", "a local web UI over a results database (runs, calls, diffs)", cli_web_main },
	{ "db", "copy runs between results stores (push to a shared PostgreSQL store)", cli_db_main },
	{ "bisect", "find the commit that changed what a trace replays to", cli_bisect_main },
};

static void print_version(void)
{
	printf("xfbtrace %s (revision %s)\n", XFBTRACE_VERSION, XT_REVISION);
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace [--color=auto|always|never] <command> [options] [args]\n"
		"       xfbtrace <command> --help      (or: xfbtrace help <command>)\n"
		"       xfbtrace --version\n"
		"\n"
		"xfbtrace captures what OpenGL / OpenGL ES programs do, with the\n"
		"transform-feedback output the driver produced, for driver debugging.\n"
		"\n"
		"commands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
		"\n"
		"options:\n"
		"  --color=WHEN   colour in the output of diff and runs: auto (the\n"
		"                 default: on a terminal, unless NO_COLOR is set),\n"
		"                 always or never\n"
		"\n"
		"environment:\n"
		"  XFBTRACE_DB    the results database of every command that takes --db\n"
		"                 when --db is not given (replay then records its run):\n"
		"                 an SQLite file, or a shared PostgreSQL store as\n"
		"                 postgresql://USER@HOST[:PORT]/DBNAME (so is --db)\n"
		"  XFBTRACE_LOG   error, warn (default), info or debug\n"
		"  NO_COLOR       set and not empty: no colour unless --color=always\n");
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "xfbtrace %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return CLI_EXIT_ERROR;
}

bool cli_parse_range(const char *s, uint64_t *first, uint64_t *last)
{
	char *end;
	const char *dash = strchr(s, '-');

	*first = 0;
	*last = UINT64_MAX;
	if (!*s)
		return false;
	if (!dash) {
		if (*s < '0' || *s > '9')
			return false;
		*first = *last = strtoull(s, &end, 10);
		return *end == '\0';
	}
	if (dash != s) {
		if (*s < '0' || *s > '9')
			return false;
		*first = strtoull(s, &end, 10);
		if (end != dash)
			return false;
	}
	if (dash[1]) {
		if (dash[1] < '0' || dash[1] > '9')
			return false;
		*last = strtoull(dash + 1, &end, 10);
		if (*end)
			return false;
	}
	return *first <= *last;
}

void cli_write_buf(const struct xt_buf *b)
{
	if (b->len)
		fwrite(b->data, 1, b->len, stdout);
}

bool cli_stdout_is_tty(void)
{
	return isatty(STDOUT_FILENO);
}

/* The --color choice: process-wide because it is the program's own global
 * option, set once by main() (or a subcommand's --color) before any output. */
static enum { COLOUR_AUTO, COLOUR_ALWAYS, COLOUR_NEVER } colour_when;

bool cli_colour_parse(const char *when)
{
	if (!strcmp(when, "auto"))
		colour_when = COLOUR_AUTO;
	else if (!strcmp(when, "always"))
		colour_when = COLOUR_ALWAYS;
	else if (!strcmp(when, "never"))
		colour_when = COLOUR_NEVER;
	else
		return false;
	return true;
}

bool cli_colour(void)
{
	const char *no = getenv("NO_COLOR");
	if (colour_when != COLOUR_AUTO)
		return colour_when == COLOUR_ALWAYS;
	return !(no && *no) && isatty(STDOUT_FILENO);
}

const char *cli_db_path(const char *given)
{
	const char *env = getenv("XFBTRACE_DB");
	return given ? given : env && *env ? env : NULL;
}

/* Runs `name --help` for `xfbtrace help NAME`. */
static int command_help(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (!strcmp(name, commands[i].name)) {
			char *argv[] = { (char *)commands[i].name, (char *)"--help", NULL };
			return commands[i].main(2, argv);
		}
	}
	fprintf(stderr, "xfbtrace: '%s' is not a command; see 'xfbtrace --help'\n", name);
	return CLI_EXIT_ERROR;
}

int main(int argc, char **argv)
{
	/* Global options come before the command. */
	while (argc >= 2 && !strncmp(argv[1], "--color", 7)) {
		const char *when = argv[1][7] == '=' ? argv[1] + 8 : argv[1][7] ? NULL
				   : argc >= 3 ? argv[2] : "";
		if (!when || !cli_colour_parse(when)) {
			fprintf(stderr, "xfbtrace: --color takes auto, always or never\n");
			return CLI_EXIT_ERROR;
		}
		int used = argv[1][7] == '=' ? 1 : 2;
		argc -= used;
		argv += used;
	}
	if (argc < 2) {
		print_help(stderr);
		return CLI_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		print_version();
		return CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "help") && argc >= 3)
		return command_help(argv[2]);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		print_help(stdout);
		return CLI_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].main(argc - 1, argv + 1);
	fprintf(stderr, "xfbtrace: '%s' is not a command; see 'xfbtrace --help'\n", argv[1]);
	return CLI_EXIT_ERROR;
}
