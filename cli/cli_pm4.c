/*
 * cli_pm4.c - `xfbtrace pm4`: tools for PM4 command buffers.
 *
 *   xfbtrace pm4 decode [--name NAME] FILE|-
 *   xfbtrace pm4 call DIR CALL | --db FILE RUN CALL
 *
 * decode prints a raw little-endian dword file (an IB dump, e.g. what
 * ac_ib_parser reads) the way Mesa's ac_parse_ib does, with register fields
 * and enum names from the GFX8 database (pm4/pm4_decode.h).  Malformed
 * packets are reported in the output and decoding resyncs; they do not make
 * the command fail.  Exit status: 0 decoded, 2 usage or I/O error.
 *
 * call prints the packets one GL call of a sim replay submitted, from its
 * artefacts (cli_regs_show, shared with `xfbtrace regs`).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pm4_decode.h"
#include "xt_buf.h"

#define CMD "pm4"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace pm4 decode [--name NAME] FILE\n"
		"       xfbtrace pm4 call DIR CALL\n"
		"       xfbtrace pm4 call --db FILE RUN CALL\n"
		"\n"
		"decode:\n"
		"Prints the PM4 packets of FILE (raw little-endian dwords; '-' reads\n"
		"stdin) like Mesa's ac_parse_ib: one line per dword, packet names,\n"
		"'REG <- FIELD = value' with enum names, plus STRMOUT_BUFFER_UPDATE,\n"
		"COPY_DATA, CONTEXT_CONTROL, SET_PREDICATION and DRAW_INDEX_OFFSET_2,\n"
		"which ac_parse_ib leaves raw.  A bad header is reported and decoding\n"
		"resumes at the next plausible packet.\n"
		"\n"
		"  --name NAME   name in the begin/end lines (default IB)\n"
		"\n"
		"call: the packets call CALL of a sim replay submitted, decoded the same\n"
		"way, from the artefacts in DIR (XFBTRACE_SIM_ARTIFACTS=DIR xfbtrace\n"
		"replay --backend sim TRACE) or of run RUN in results database FILE\n"
		"(xfbtrace replay --backend sim --db FILE TRACE; --db defaults to\n"
		"$XFBTRACE_DB when the first argument is not a directory).  `xfbtrace\n"
		"regs` adds the register state after the call.\n"
		"\n"
		"exit status: 0 printed, 1 (call) the call has no artefacts, 2 error\n");
}

static int call_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_path = NULL;
	char *end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:h", longopts, NULL)) != -1) {
		if (c == 'd') {
			db_path = optarg;
		} else if (c == 'h') {
			usage(stdout);
			return CLI_EXIT_OK;
		} else {
			usage(stderr);
			return CLI_EXIT_ERROR;
		}
	}
	if (optind + 2 != argc) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}
	unsigned long long call = strtoull(argv[optind + 1], &end, 10);
	if (*end || !argv[optind + 1][0])
		return cli_fail(CMD, "CALL must be a call number, not '%s'", argv[optind + 1]);
	return cli_regs_show(CMD, db_path, argv[optind], call, true, false, false);
}

/* Reads all of `f` into `b`; XT_ERR_IO with errno kept on failure. */
static enum xt_rc read_all(FILE *f, struct xt_buf *b)
{
	for (;;) {
		size_t n;

		if (xt_buf_reserve(b, 65536))
			return XT_ERR_NOMEM;
		n = fread(b->data + b->len, 1, b->cap - b->len, f);
		b->len += n;
		if (n == 0)
			return ferror(f) ? XT_ERR_IO : XT_OK;
	}
}

static int decode_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pm4_decode_opts opts = { NULL };
	struct xt_buf raw = XT_BUF_INIT, text = XT_BUF_INIT;
	const char *path;
	uint32_t *dw = NULL;
	size_t num_dw;
	FILE *f;
	enum xt_rc rc;
	int c, status = CLI_EXIT_OK;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			opts.name = optarg;
			break;
		case 'h':
			usage(stdout);
			return CLI_EXIT_OK;
		default:
			usage(stderr);
			return CLI_EXIT_ERROR;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}
	path = argv[optind];
	f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return cli_fail(CMD, "%s: %s", path, strerror(errno));
	rc = read_all(f, &raw);
	if (rc == XT_ERR_IO)
		status = cli_fail(CMD, "%s: read error: %s", path, strerror(errno));
	else if (rc)
		status = cli_fail(CMD, "%s: out of memory", path);
	if (f != stdin)
		fclose(f);
	if (status)
		goto out;

	num_dw = raw.len / 4;
	if (raw.len % 4)
		fprintf(stderr, "xfbtrace %s: %s: %zu trailing bytes ignored (not a whole dword)\n",
			CMD, path, raw.len % 4);
	if (num_dw > UINT32_MAX) {
		status = cli_fail(CMD, "%s: too large", path);
		goto out;
	}
	dw = malloc(num_dw ? num_dw * 4 : 1);
	if (!dw) {
		status = cli_fail(CMD, "%s: out of memory", path);
		goto out;
	}
	for (size_t i = 0; i < num_dw; i++) {
		const uint8_t *p = raw.data + 4 * i;

		dw[i] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			(uint32_t)p[3] << 24;
	}
	if (pm4_decode(dw, (uint32_t)num_dw, &opts, &text, NULL)) {
		status = cli_fail(CMD, "%s: out of memory", path);
		goto out;
	}
	if (text.len && fwrite(text.data, 1, text.len, stdout) != text.len)
		status = cli_fail(CMD, "write error: %s", strerror(errno));
	if (fflush(stdout))
		status = cli_fail(CMD, "write error: %s", strerror(errno));
out:
	free(dw);
	xt_buf_fini(&raw);
	xt_buf_fini(&text);
	return status;
}

int cli_pm4_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_EXIT_ERROR : CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "decode"))
		return decode_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "call"))
		return call_main(argc - 1, argv + 1);
	return cli_fail(CMD, "unknown subcommand '%s' (try: decode, call)", argv[1]);
}
