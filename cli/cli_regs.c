/*
 * cli_regs.c - `xfbtrace regs`: the per-call artefacts of a sim replay
 * (replay/replay_sim.c, XFBTRACE_SIM_ARTIFACTS=DIR) for one GL call:
 *
 *   xfbtrace regs [--pm4] [--changed] DIR CALL
 *   xfbtrace regs [--pm4] [--changed] --db FILE RUN CALL
 *
 * (the second form reads what `replay --backend sim --db FILE` stored,
 * docs/db.md "call_artifacts")
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
#include <sys/stat.h>

#include "cli.h"
#include "db.h"
#include "diff.h"
#include "pm4_decode.h"
#include "xt_buf.h"

#define CMD "regs"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace regs [--pm4] [--changed] DIR CALL\n"
		"       xfbtrace regs [--pm4] [--changed] --db FILE RUN CALL\n"
		"\n"
		"Prints the register state of the simulated GPU after call CALL of a\n"
		"sim replay whose artefacts are in DIR (XFBTRACE_SIM_ARTIFACTS=DIR\n"
		"xfbtrace replay --backend sim TRACE) or stored as run RUN in results\n"
		"database FILE (xfbtrace replay --backend sim --db FILE TRACE), with\n"
		"register fields (registers the database types f32, such as\n"
		"PA_CL_VPORT_XSCALE_0, as floats with their bits: 32.0f (0x42000000)).\n"
		"\n"
		"  --db FILE   read run RUN of the results database FILE (default:\n"
		"              $XFBTRACE_DB, when the first argument is not a directory)\n"
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

/* The artefacts of call `call` from DIR: false when there are none. */
static bool load_dir(const char *dir, unsigned long long call, bool want_pm4, bool want_prev,
		     struct xt_buf *pm4, struct xt_buf *regs, struct xt_buf *prev, bool *has_regs)
{
	char hash[64], prev_hash[64], path[4096];
	unsigned pm4_dw = 0;

	if (!find_call(dir, call, hash, prev_hash, &pm4_dw))
		return false;
	if (want_pm4 && pm4_dw) {
		snprintf(path, sizeof path, "%s/pm4/%llu.bin", dir, call);
		read_file(path, pm4);
	}
	*has_regs = strcmp(hash, "-") != 0;
	if (*has_regs) {
		snprintf(path, sizeof path, "%s/regs/%s.bin", dir, hash);
		read_file(path, regs);
	}
	if (*has_regs && want_prev && strcmp(prev_hash, "-")) {
		snprintf(path, sizeof path, "%s/regs/%s.bin", dir, prev_hash);
		read_file(path, prev);
	}
	return true;
}

/* The same from run `run` of database `db_path`: 1 none, 2 error, else 0;
 * messages name `cmd`. */
static int load_db(const char *cmd, const char *db_path, const char *run_s, unsigned long long call, bool want_pm4,
		   bool want_prev, struct xt_buf *pm4, struct xt_buf *regs, struct xt_buf *prev,
		   bool *has_regs)
{
	struct db *db;
	struct xt_err err;
	struct xt_arena arena;
	struct db_call_art_row row;
	const char *prev_hash = NULL;
	char *end;
	long long run = strtoll(run_s, &end, 10);
	enum xt_rc rc;

	if (*end || run <= 0)
		return cli_fail(cmd, "RUN must be a run id, not '%s'", run_s);
	xt_err_clear(&err);
	if (db_open(&db, db_path, DB_OPEN_EXISTING, &err))
		return cli_fail(cmd, "%s", xt_err_msg(&err));
	xt_arena_init(&arena, 4096);
	rc = db_call_art_get(db, run, call, &row, want_prev ? &prev_hash : NULL, &arena);
	if (rc == XT_ERR_NOT_FOUND) {
		/* Name the reason when it is the run: only sim runs have artefacts. */
		struct db_run_info info;
		enum xt_rc irc = db_run_get(db, run, &info, &arena);
		int ret = CLI_EXIT_DIFFERENT;
		if (irc == XT_ERR_NOT_FOUND)
			ret = cli_fail(cmd, "%s has no run %lld (see 'xfbtrace runs')", db_where(db), run);
		else if (irc == XT_OK && strcmp(info.backend, "sim"))
			ret = cli_fail(cmd, "run %lld is a %s run: only sim runs (replay --backend sim "
				       "--db) keep PM4 and registers", run, info.backend);
		else
			fprintf(stderr, "xfbtrace %s: run %lld has no artefacts for call %llu\n", cmd,
				run, call);
		xt_arena_fini(&arena);
		db_close(db);
		return ret;
	}
	if (!rc && want_pm4 && row.pm4_hash)
		rc = db_blob_get(db, row.pm4_hash, pm4);
	*has_regs = !rc && row.regs_hash;
	if (*has_regs)
		rc = db_blob_get(db, row.regs_hash, regs);
	if (!rc && *has_regs && prev_hash)
		rc = db_blob_get(db, prev_hash, prev);
	int ret = rc ? cli_fail(cmd, "%s: %s", db_where(db), xt_err_msg(db_err(db))) : 0;
	xt_arena_fini(&arena);
	db_close(db);
	return ret;
}

int cli_regs_show(const char *cmd, const char *db_path, const char *where, unsigned long long call,
		  bool pm4, bool registers, bool changed)
{
	struct xt_buf raw, regs, prev, out;
	bool has_regs = false;
	int ret = CLI_EXIT_OK;

	xt_buf_init(&raw);
	xt_buf_init(&regs);
	xt_buf_init(&prev);
	xt_buf_init(&out);
	/* Without --db, $XFBTRACE_DB is the database unless WHERE is a directory
	 * of artefacts. */
	struct stat st;
	if (!db_path && stat(where, &st) != 0)
		db_path = cli_db_path(NULL);
	if (db_path) {
		ret = load_db(cmd, db_path, where, call, pm4, changed, &raw, &regs, &prev, &has_regs);
	} else if (!load_dir(where, call, pm4, changed, &raw, &regs, &prev, &has_regs)) {
		fprintf(stderr, "xfbtrace %s: %s has no artefacts for call %llu\n", cmd, where, call);
		ret = CLI_EXIT_DIFFERENT;
	}
	if (ret == CLI_EXIT_OK) {
		if (pm4 && !raw.len)
			fprintf(stderr, "xfbtrace %s: call %llu submitted no PM4\n", cmd, call);
		if (raw.len) {
			char name[64];
			snprintf(name, sizeof name, "call %llu PM4", call);
			pm4_decode((const uint32_t *)raw.data, (uint32_t)(raw.len / 4),
				   &(struct pm4_decode_opts){ .name = name }, &out, NULL);
		}
		if (registers && has_regs) {
			char name[96];
			snprintf(name, sizeof name, "registers after call %llu%s", call,
				 changed ? " (changed)" : "");
			diff_regs_decode((const uint32_t *)regs.data, regs.len / 8,
					 changed && prev.len ? (const uint32_t *)prev.data : NULL,
					 prev.len / 8, name, &out);
		}
		cli_write_buf(&out);
	}
	xt_buf_fini(&raw);
	xt_buf_fini(&regs);
	xt_buf_fini(&prev);
	xt_buf_fini(&out);
	return ret;
}

int cli_regs_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pm4", no_argument, NULL, 'p' },
		{ "changed", no_argument, NULL, 'c' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool pm4 = false, changed = false;
	const char *db_path = NULL;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "pcd:h", longopts, NULL)) != -1) {
		if (opt == 'p')
			pm4 = true;
		else if (opt == 'c')
			changed = true;
		else if (opt == 'd')
			db_path = optarg;
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
	const char *where = argv[optind];
	char *end;
	unsigned long long call = strtoull(argv[optind + 1], &end, 10);
	if (*end || !argv[optind + 1][0])
		return cli_fail(CMD, "CALL must be a call number, not '%s'", argv[optind + 1]);
	return cli_regs_show(CMD, db_path, where, call, pm4, true, changed);
}
