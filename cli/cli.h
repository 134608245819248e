/*
 * cli.h - what the subcommand files of the `xfbtrace` program share.
 *
 * One file per subcommand (cli_<name>.c), each exporting one entry point
 * `int cli_<name>_main(int argc, char **argv)` where argv[0] is the
 * subcommand's name.  Exit statuses follow the tools users know: 0 success,
 * 1 "different" / the checked thing failed, 2 usage or runtime error.
 */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLI_EXIT_OK 0
#define CLI_EXIT_DIFFERENT 1
#define CLI_EXIT_ERROR 2

int cli_capture_main(int argc, char **argv);
int cli_dump_main(int argc, char **argv);
int cli_info_main(int argc, char **argv);
int cli_replay_main(int argc, char **argv);
int cli_ingest_main(int argc, char **argv);
int cli_db_main(int argc, char **argv);
int cli_runs_main(int argc, char **argv);
int cli_diff_main(int argc, char **argv);
int cli_pm4_main(int argc, char **argv);
int cli_isa_main(int argc, char **argv);
int cli_regs_main(int argc, char **argv);
/* Prints call CALL of a sim run (artefact directory `where`, or run `where`
 * of results database db_path): its PM4 decoded and / or the register
 * state after it (only what changed with `changed`).  CLI exit status;
 * messages name `cmd`. */
int cli_regs_show(const char *cmd, const char *db_path, const char *where, unsigned long long call,
		  bool pm4, bool registers, bool changed);
int cli_web_main(int argc, char **argv);
int cli_import_apitrace_main(int argc, char **argv);
int cli_bisect_main(int argc, char **argv);
int cli_state_main(int argc, char **argv);
/* Prints the state replay_options.state_out holds (cli_state_live.c):
 * indented text, or one JSON object; the CLI exit status. */
int cli_state_print_live(const char *cmd, const uint8_t *payload, size_t n, bool json);

/* Prints "xfbtrace <cmd>: <message>" to stderr; returns CLI_EXIT_ERROR. */
int cli_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Parses a call range "A-B", "A-", "-B" or "N" into [*first, *last]
 * (inclusive; an open end is 0 or UINT64_MAX).  False on a malformed range.
 */
bool cli_parse_range(const char *s, uint64_t *first, uint64_t *last);

/*
 * Parses one `replay --set-reg` argument (cli_set_reg.c: items
 * REGISTER[.FIELD]=VALUE[@CALLS], comma-separated) and appends its
 * overrides to *list (heap; *n of them).  False with `msg` set on an
 * unknown register, field or value name, a value that does not fit, or a
 * bad call range.
 */
struct replay_reg_override;
bool cli_set_reg_parse(const char *spec, struct replay_reg_override **list, size_t *n, char *msg,
		       size_t msg_size);

/*
 * For commands that read a trace: when `path` is an apitrace trace (.trace),
 * translates it into a temporary xfbtrace trace (cli_import_apitrace.c),
 * sets *use to its path (the caller unlinks and frees it) and *imported;
 * otherwise *use is NULL.  Returns CLI_EXIT_OK, or CLI_EXIT_ERROR after
 * printing why.
 */
int cli_apitrace_open_path(const char *cmd, const char *path, char **use, bool *imported);

/* Writes b's bytes to stdout; nothing (and no NULL handed to fwrite) when
 * it is empty. */
struct xt_buf;
void cli_write_buf(const struct xt_buf *b);

/* Whether stdout is a terminal (progress output only then). */
bool cli_stdout_is_tty(void);

/* Whether to colour stdout: --color=always / never, or by default (auto)
 * on a terminal unless NO_COLOR is set and not empty (no-color.org). */
bool cli_colour(void);
/* Sets the --color choice from "auto", "always" or "never"; false on
 * anything else. */
bool cli_colour_parse(const char *when);

/* The results database of a --db command: `given` (--db), else
 * $XFBTRACE_DB when set and not empty, else NULL. */
const char *cli_db_path(const char *given);

#endif
