/*
 * cli_regs.c - `xfbtrace regs`: the per-call artefacts of a sim replay
 * (replay/replay_sim.c, XFBTRACE_SIM_ARTIFACTS=DIR) for one GL call:
 *
 *   xfbtrace regs [--pm4] [--changed] DIR CALL
 *
 * prints the register state after call CALL (a draw, TF or query call),
 * decoded with register fields and enum names, and with --pm4 first the
 * PM4 packets the call submitted.  The state is printed by turning each
 * (register, value) pair into a SET_*_REG packet of its space and running
 * the packet decoder over them (pm4/pm4_decode.h), so registers read
 * exactly as in a PM4 dump.  --changed prints only registers whose value
 * differs from the previous snapshot in DIR/calls.tsv.
 *
 * Exit status: 0 printed, 1 no artefacts for that call, 2 usage / I/O error.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pm4_decode.h"
#include "pm4_pkt.h"
#include "xt_buf.h"

#define CMD "regs"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace regs [--pm4] [--changed] DIR CALL\n"
		"\n"
		"Prints the register state of the simulated GPU after call CALL of a\n"
		"sim replay whose artefacts are in DIR (XFBTRACE_SIM_ARTIFACTS=DIR\n"
		"xfbtrace replay --backend sim TRACE), with register fields.\n"
		"\n"
		"  --pm4       also print the PM4 packets the call submitted, decoded\n"
		"  --changed   only registers that changed since the previous snapshot\n");
}

static bool read_file(const char *path, struct xt_buf *b)
{
	FILE *f = fopen(path, "rb");
	char tmp[65536];
	size_t n;

	if (!f)
		return false;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		xt_buf_append(b, tmp, n);
	fclose(f);
	return true;
}

/* The regs hash of CALL and of the snapshot before it ("-" if none). */
static bool find_call(const char *dir, unsigned long long call, char *hash, char *prev_hash,
		      unsigned *pm4_dw)
{
	char path[4096], line[512];
	FILE *f;
	bool found = false;

	snprintf(path, sizeof path, "%s/calls.tsv", dir);
	f = fopen(path, "r");
	if (!f)
		return false;
	strcpy(prev_hash, "-");
	while (fgets(line, sizeof line, f)) {
		unsigned long long no;
		char func[128], h[64];
		unsigned dw, prog;
		if (sscanf(line, "%llu\t%127s\t%u\t%63s\t%u", &no, func, &dw, h, &prog) != 5)
			continue;
		if (no == call) {
			strcpy(hash, h);
			*pm4_dw = dw;
			found = true;
			break;
		}
		if (strcmp(h, "-"))
			strcpy(prev_hash, h);
	}
	fclose(f);
	return found;
}

static uint32_t prev_value(const struct xt_buf *prev, uint32_t reg, bool *found)
{
	const uint32_t *p = (const uint32_t *)prev->data;
	for (size_t i = 0; i + 1 < prev->len / 4; i += 2)
		if (p[i] == reg) {
			*found = true;
			return p[i + 1];
		}
	*found = false;
	return 0;
}

int cli_regs_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pm4", no_argument, NULL, 'p' },
		{ "changed", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool pm4 = false, changed = false;
	char hash[64], prev_hash[64], path[4096];
	unsigned pm4_dw = 0;
	struct xt_buf regs, prev, out, ib;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "pch", longopts, NULL)) != -1) {
		if (opt == 'p')
			pm4 = true;
		else if (opt == 'c')
			changed = true;
		else if (opt == 'h') {
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
	const char *dir = argv[optind];
	char *end;
	unsigned long long call = strtoull(argv[optind + 1], &end, 10);
	if (*end)
		return cli_fail(CMD, "CALL must be a call number, not '%s'", argv[optind + 1]);
	if (!find_call(dir, call, hash, prev_hash, &pm4_dw)) {
		fprintf(stderr, "xfbtrace regs: %s has no artefacts for call %llu\n", dir, call);
		return CLI_EXIT_DIFFERENT;
	}
	xt_buf_init(&regs);
	xt_buf_init(&prev);
	xt_buf_init(&out);
	xt_buf_init(&ib);
	if (pm4 && pm4_dw) {
		struct xt_buf raw;
		xt_buf_init(&raw);
		snprintf(path, sizeof path, "%s/pm4/%llu.bin", dir, call);
		if (read_file(path, &raw)) {
			char name[64];
			snprintf(name, sizeof name, "call %llu PM4", call);
			pm4_decode((const uint32_t *)raw.data, (uint32_t)(raw.len / 4),
				   &(struct pm4_decode_opts){ .name = name }, &out, NULL);
		}
		xt_buf_fini(&raw);
	}
	if (strcmp(hash, "-")) {
		snprintf(path, sizeof path, "%s/regs/%s.bin", dir, hash);
		if (!read_file(path, &regs)) {
			xt_buf_fini(&out);
			return cli_fail(CMD, "cannot read %s", path);
		}
		if (changed && strcmp(prev_hash, "-")) {
			snprintf(path, sizeof path, "%s/regs/%s.bin", dir, prev_hash);
			read_file(path, &prev);
		}
		/* One SET_*_REG packet per register: the decoder names the fields. */
		const uint32_t *p = (const uint32_t *)regs.data;
		for (size_t i = 0; i + 1 < regs.len / 4; i += 2) {
			uint32_t hdr[3];
			struct pm4_cs cs;
			bool had;
			uint32_t old = prev_value(&prev, p[i], &had);
			if (changed && had && old == p[i + 1])
				continue;
			pm4_cs_init(&cs, hdr, 3);
			pm4_set_reg(&cs, p[i], p[i + 1]);
			if (pm4_cs_ok(&cs))
				xt_buf_append(&ib, hdr, (size_t)cs.cdw * 4);
		}
		char name[96];
		snprintf(name, sizeof name, "registers after call %llu%s", call,
			 changed ? " (changed)" : "");
		pm4_decode((const uint32_t *)ib.data, (uint32_t)(ib.len / 4),
			   &(struct pm4_decode_opts){ .name = name }, &out, NULL);
	}
	fwrite(out.data, 1, out.len, stdout);
	xt_buf_fini(&regs);
	xt_buf_fini(&prev);
	xt_buf_fini(&out);
	xt_buf_fini(&ib);
	return CLI_EXIT_OK;
}
