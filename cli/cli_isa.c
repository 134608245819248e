/*
 * cli_isa.c - `xfbtrace isa asm|disasm`: the shader ISA's assembler and
 * disassembler (docs/isa.md) on the command line, for tests and for
 * showing people what a shader does.
 *
 *   xfbtrace isa asm [-o OUT] [FILE|-]          text -> little-endian dwords
 *   xfbtrace isa disasm [--offsets] [FILE|-]    dwords -> text
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "isa.h"
#include "xt_buf.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace isa asm [-o OUT] [FILE|-]\n"
		"       xfbtrace isa disasm [--offsets] [FILE|-]\n"
		"\n"
		"asm     assembles shader text (docs/isa.md) into little-endian dwords,\n"
		"        written to OUT or stdout\n"
		"disasm  prints the instructions of a binary shader; --offsets adds\n"
		"        each instruction's dword offset and encoding\n");
}

static int read_all(const char *path, struct xt_buf *out)
{
	FILE *f = (!path || !strcmp(path, "-")) ? stdin : fopen(path, "rb");
	char chunk[65536];
	size_t n;

	if (!f)
		return cli_fail("isa", "cannot open %s", path);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		if (xt_buf_append(out, chunk, n) != XT_OK) {
			if (f != stdin)
				fclose(f);
			return cli_fail("isa", "out of memory reading %s", path ? path : "stdin");
		}
	if (f != stdin)
		fclose(f);
	return CLI_EXIT_OK;
}

static int isa_asm(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	struct xt_buf src = XT_BUF_INIT, bin = XT_BUF_INIT;
	struct xt_err err = { 0 };
	FILE *f;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1])
			return usage(stderr), CLI_EXIT_ERROR;
		else
			in = argv[i];
	}
	if ((rc = read_all(in, &src)) != CLI_EXIT_OK)
		return rc;
	if (xt_buf_append(&src, "", 1) != XT_OK)
		return cli_fail("isa", "out of memory");
	if (isa_assemble((const char *)src.data, &bin, &err) != XT_OK) {
		xt_buf_fini(&src);
		xt_buf_fini(&bin);
		return cli_fail("isa", "%s: %s", in ? in : "stdin", err.msg);
	}
	f = out ? fopen(out, "wb") : stdout;
	if (!f || fwrite(bin.data, 1, bin.len, f) != bin.len) {
		rc = cli_fail("isa", "cannot write %s", out ? out : "stdout");
	}
	if (f && f != stdout)
		fclose(f);
	xt_buf_fini(&src);
	xt_buf_fini(&bin);
	return rc;
}

static int isa_disasm(int argc, char **argv)
{
	const char *in = NULL;
	unsigned flags = 0;
	struct xt_buf bin = XT_BUF_INIT, text = XT_BUF_INIT;
	uint32_t *dw;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--offsets"))
			flags |= ISA_DISASM_OFFSETS;
		else if (argv[i][0] == '-' && argv[i][1])
			return usage(stderr), CLI_EXIT_ERROR;
		else
			in = argv[i];
	}
	if ((rc = read_all(in, &bin)) != CLI_EXIT_OK)
		return rc;
	if (bin.len % 4)
		fprintf(stderr, "xfbtrace isa: %zu trailing bytes ignored (not a whole dword)\n", bin.len % 4);
	dw = malloc(bin.len + 4);
	if (!dw)
		return cli_fail("isa", "out of memory");
	memcpy(dw, bin.data ? bin.data : (const uint8_t *)"", bin.len);
	if (isa_disassemble(dw, bin.len / 4, flags, &text) != XT_OK)
		rc = cli_fail("isa", "out of memory");
	else if (text.len && fwrite(text.data, 1, text.len, stdout) != text.len)
		rc = cli_fail("isa", "cannot write stdout");
	free(dw);
	xt_buf_fini(&bin);
	xt_buf_fini(&text);
	return rc;
}

int cli_isa_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_EXIT_ERROR : CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "asm"))
		return isa_asm(argc - 1, argv + 1);
	if (!strcmp(argv[1], "disasm"))
		return isa_disasm(argc - 1, argv + 1);
	usage(stderr);
	return CLI_EXIT_ERROR;
}
