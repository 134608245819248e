/*
 * cli_replay.c - `xfbtrace replay`: replay a trace on a backend and, with
 * --check, compare it with the trace's golden data (replay/replay.h).
 *
 * Exit status: 0 when everything checked matched (or without --check, when
 * the replay ran to the end), differences classified implementation-
 * dependent or precision aside unless --strict; 1 when something differed,
 * 2 on error.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"
#include "replay.h"
#include "trace_reader.h"
#include "xt_arena.h"
#include "xt_buf.h"
#include "xt_json.h"
#include "xt_revision.h"

#define CMD "replay"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace replay [--backend host|sim] [--check [--tolerance ulps=N|abs=X[,ulps=N]]\n"
		"                       [--image-tolerance max=X,pixels=N] [--diff-dir DIR]\n"
		"                       [--strict]] [--calls A-B] [--max-diffs N]\n"
		"                       [--set-reg REG[.FIELD]=VALUE[@CALLS],...]\n"
		"                       [--db FILE [--label L] | --no-db] [--json] TRACE\n"
		"       xfbtrace replay --dump-state CALL [--backend host|sim]\n"
		"                       [--format text|json] TRACE\n"
		"\n"
		"Replays every call of trace TRACE in recorded order on a backend:\n"
		"host = the system GL driver through EGL (surfaceless), with the\n"
		"contexts the trace created (API, version, profile, flags).  The\n"
		"replay reads back the same observations the capture made (TF\n"
		"buffers, query results, read-backs).\n"
		"\n"
		"  --backend B   host (the default), or sim: the driver model (driver/)\n"
		"                on the simulated GPU; XFBTRACE_SIM_ARTIFACTS=DIR keeps\n"
		"                each call's PM4, register state and shaders in DIR\n"
		"  --check       compare every observation with the trace's golden one,\n"
		"                and glGetError results, compile / link status and TF\n"
		"                varying queries with the recorded ones; print the first\n"
		"                differences and 'N observations, N match, N differ'.\n"
		"                Differences that are not about data the application\n"
		"                defined are classified, printed with their class and\n"
		"                counted apart ('classified, not counted as differences:\n"
		"                N implementation-dependent, N precision, N undefined'):\n"
		"                undefined: buffer bytes the application never defined\n"
		"                (glBufferData / glBufferStorage with NULL data,\n"
		"                invalidation, TF buffer bytes past the vertices TF\n"
		"                wrote), derived from the recorded calls; the report\n"
		"                names the bytes and why;\n"
		"                implementation-dependent: an error a pure query (glGet*,\n"
		"                glGetString*) raised only because the replay driver has\n"
		"                fewer extensions or smaller limits (glGetStringi past its\n"
		"                count, a pname it does not know, an index past its limit),\n"
		"                and the glGetError that saw only such errors; a link or\n"
		"                compile status a smaller limit of the replay driver\n"
		"                explains (its log names the limit, which the program\n"
		"                read larger at capture), and what follows from such a\n"
		"                link: GL_CURRENT_PROGRAM, errors of calls using the\n"
		"                program, TF data written while it was in use; TF data\n"
		"                equal while the drivers report the TF layout\n"
		"                differently; TF triangles of quads, quad strips and\n"
		"                polygons that are another valid tessellation of the\n"
		"                same vertices (GL 4.6 compatibility profile 13.3);\n"
		"                glGetMultisamplefv(GL_SAMPLE_POSITION) answers (GL 4.6\n"
		"                14.3.1), and, unless every answer so far was equal,\n"
		"                TF data written by a program whose GLSL reads\n"
		"                sampler2DMS textures;\n"
		"                precision: float TF data and glGetFloatv / glGetDoublev\n"
		"                values within --tolerance; images (glReadPixels)\n"
		"                within --image-tolerance.\n"
		"                Everything else, defined data and errors the\n"
		"                application checks, is a difference\n"
		"  --tolerance T ulps=N: floats may differ by N units in the last place;\n"
		"                abs=X: by X; abs=X,ulps=N: by either (the rules of\n"
		"                xfbtrace diff --tolerance)\n"
		"  --image-tolerance T\n"
		"                max=X: a pixel is within the tolerance when none of its\n"
		"                values differs by more than X, in the type's units (0..255\n"
		"                for GL_UNSIGNED_BYTE; packed types: exactly); pixels=N: an\n"
		"                image is when at most N pixels are not (default: exact).\n"
		"                A differing image is reported with the number of pixels\n"
		"                that differ, the largest difference and the first pixels\n"
		"                (window x, y: golden values, replay values)\n"
		"  --diff-dir DIR  write each differing image into DIR as\n"
		"                callN-golden.png, callN-replay.png and callN-diff.png\n"
		"                (equal pixels dimmed, within the tolerance yellow, beyond\n"
		"                red)\n"
		"  --strict      count classified differences too (exit status 1)\n"
		"  --calls A-B   replay calls up to B only, and check those from A on\n"
		"  --max-diffs N differences printed in detail (default 10)\n"
		"  --set-reg REG[.FIELD]=VALUE[@CALLS],...\n"
		"                sim backend: what-if experiments; the simulated GPU\n"
		"                forces register REG (or its field FIELD) to VALUE at\n"
		"                every draw, after the draw's packets set the state, for\n"
		"                the calls in CALLS (A-B, A-, -B or N; default all).\n"
		"                Names are the register database's (xfbtrace regs prints\n"
		"                them); VALUE is 0xHEX, a decimal (an integer register),\n"
		"                a float (a float register: PA_CL_VPORT_XOFFSET_0=40.0) or a\n"
		"                field's value name (CB_BLEND0_CONTROL.COLOR_SRCBLEND=\n"
		"                BLEND_ZERO).  Repeatable.  The recorded register state\n"
		"                shows the overrides, and the run's label (unless\n"
		"                --label) is 'set-reg SPEC', so `xfbtrace diff --regs`\n"
		"                of a plain and a perturbed run names both the differing\n"
		"                pixels and the registers\n"
		"  --db FILE     record this replay as a run in results database FILE\n"
		"                (the trace and its golden run are recorded first if\n"
		"                new; see xfbtrace runs / diff); default: $XFBTRACE_DB\n"
		"  --no-db       do not record the run, even with $XFBTRACE_DB set\n"
		"  --label L     a label for that run\n"
		"  --json        print one JSON object on stdout for CI (the report\n"
		"                goes to stderr): status ok / differ / error, exit,\n"
		"                the counts of the summary, driver, run id\n"
		"  --dump-state CALL  replay up to call CALL, then print the GL state\n"
		"                the backend's driver reports (like apitrace's replay\n"
		"                -D): the program in use with its TF varyings and\n"
		"                shaders' sources, the TF object, its bindings and the\n"
		"                bound TF buffers' contents decoded by the program's TF\n"
		"                layout, the vertex array's attributes, buffer\n"
		"                bindings, the active queries; names are the\n"
		"                application's.  `xfbtrace state` says what the trace's\n"
		"                calls set up instead.  No run is recorded\n"
		"  --format F    text (the default) or json, for --dump-state\n"
		"\n"
		"Calls that cannot be replayed are listed with their first call number.\n"
		"Exit status: 0 all equal (classified differences aside, unless\n"
		"--strict), 1 a difference in defined data or in a value or error\n"
		"the application saw, 2 error.\n");
}

/* ---- --json: the summary as one object ------------------------------------ */

/* Prints the object for `status` (CLI exit status); `error` is the message
 * of a failed replay or NULL. */
static void print_json(const char *trace, const struct replay_options *o,
		       const struct replay_summary *s, int status, const char *error,
		       int64_t run_id)
{
	struct xt_buf b = XT_BUF_INIT;
	struct xt_jw w;

	xt_jw_init(&w, &b);
	xt_jw_obj(&w);
	xt_jw_kstr(&w, "trace", trace);
	xt_jw_kstr(&w, "backend", o->backend);
	xt_jw_kbool(&w, "check", o->check);
	xt_jw_kstr(&w, "status", status == CLI_EXIT_OK ? "ok"
		   : status == CLI_EXIT_DIFFERENT ? "differ" : "error");
	xt_jw_ki64(&w, "exit", status);
	if (error)
		xt_jw_kstr(&w, "error", error);
	xt_jw_ku64(&w, "calls", s->calls);
	xt_jw_ku64(&w, "frames", s->frames);
	if (o->check) {
		xt_jw_kbool(&w, "golden", !s->no_golden);
		xt_jw_kobj(&w, "observations");
		xt_jw_ku64(&w, "checked", s->observations);
		xt_jw_ku64(&w, "match", s->match);
		xt_jw_ku64(&w, "match_nan", s->match_nan);
		xt_jw_ku64(&w, "differ", s->differ);
		xt_jw_ku64(&w, "not_compared", s->not_compared);
		xt_jw_ku64(&w, "lost", s->lost);
		xt_jw_ku64(&w, "images_not_drawn", s->not_drawn);
		xt_jw_end(&w);
		xt_jw_kobj(&w, "returns");
		xt_jw_ku64(&w, "compared", s->returns_compared);
		xt_jw_ku64(&w, "differ", s->returns_differ);
		xt_jw_ku64(&w, "not_compared", s->returns_skipped);
		xt_jw_end(&w);
		xt_jw_ku64(&w, "replay_errors", s->replay_errors);
		xt_jw_kobj(&w, "classified");
		xt_jw_ku64(&w, "implementation_dependent", s->impl_dependent);
		xt_jw_ku64(&w, "precision", s->precision);
		xt_jw_end(&w);
	}
	xt_jw_kobj(&w, "not_replayed");
	xt_jw_ku64(&w, "calls", s->unsupported_calls);
	xt_jw_ku64(&w, "functions", s->unsupported_funcs);
	xt_jw_end(&w);
	xt_jw_kobj(&w, "driver");
	xt_jw_kstr(&w, "vendor", s->gl_vendor);
	xt_jw_kstr(&w, "renderer", s->gl_renderer);
	xt_jw_kstr(&w, "version", s->gl_version);
	xt_jw_end(&w);
	if (run_id)
		xt_jw_ki64(&w, "run", run_id);
	xt_jw_end(&w);
	if (xt_jw_done(&w) == XT_OK) {
		cli_write_buf(&b);
		fputc('\n', stdout);
	}
	fflush(stdout);
	xt_buf_fini(&b);
}

/* ---- --db: the replay as a run of the results database ------------------ */

struct run_sink {
	struct db *db;
	struct db_run *run;
	int64_t run_id;
	struct xt_arena arena;   /* decoded observation, per observation */
	struct xt_buf scratch;   /* db_obs_from_value's strings */
};

static enum xt_rc run_sink_open(struct run_sink *k, const char *db_path, const char *trace,
				const char *backend, const char *label, struct xt_err *err)
{
	struct db_trace_ref ref;
	enum xt_rc rc;

	xt_arena_init(&k->arena, 64 * 1024);
	xt_buf_init(&k->scratch);
	rc = db_open(&k->db, db_path, DB_OPEN_CREATE, err);
	if (rc)
		return rc;
	rc = db_trace_record(k->db, trace, NULL, &ref);
	if (!rc)
		rc = db_run_begin(k->db, &(struct db_run_desc){
			.trace_id = ref.trace_id, .backend = backend, .revision = XT_REVISION,
			.label = label }, &k->run);
	if (rc) {
		xt_err_copy(err, db_err(k->db));
		db_close(k->db);
		k->db = NULL;
		return rc;
	}
	k->run_id = db_run_id(k->run);
	return XT_OK;
}

static enum xt_rc run_sink_observation(void *ctx, uint64_t call_no, const char *function,
				       int64_t tf_primitive_mode, const struct trace_queries *queries,
				       uint32_t thread_no, const uint8_t *payload,
				       size_t payload_bytes, const char *verdict_class,
				       const char *verdict_reason, struct xt_err *err)
{
	struct run_sink *k = ctx;
	const uint8_t *p = payload;
	struct trace_value v;
	struct db_obs obs;
	enum xt_rc rc;

	xt_arena_reset(&k->arena);
	rc = trace_value_decode(&p, payload + payload_bytes, &k->arena, &v, err);
	rc = rc ? rc : db_obs_from_value(&obs, &v, call_no, function, tf_primitive_mode, queries,
					 thread_no, &k->scratch, err);
	obs.verdict_class = verdict_class;
	obs.verdict_reason = verdict_reason;
	if (!rc && (rc = db_run_add_observation(k->run, &obs)) != XT_OK)
		xt_err_copy(err, db_err(k->db));
	return rc;
}

/* A sim call's PM4, register state and shader, into the run. */
static enum xt_rc run_sink_artifact(void *ctx, const struct replay_artifact *a, struct xt_err *err)
{
	struct run_sink *k = ctx;
	enum xt_rc rc = db_run_add_call_art(k->run, &(struct db_call_art){
		.call_no = a->call_no, .function = a->function, .pm4 = a->pm4,
		.pm4_dwords = a->pm4_dwords, .regs = a->regs, .regs_bytes = a->regs_bytes,
		.program = a->program, .shader_text = a->shader_text,
		.shader_bytes = a->shader_bytes, .frame_end = a->frame_end });
	if (rc)
		xt_err_copy(err, db_err(k->db));
	return rc;
}

/* Ends the run with the replay's outcome; frees the sink either way. */
static enum xt_rc run_sink_finish(struct run_sink *k, enum xt_rc replay_rc,
				  const struct replay_summary *s, struct xt_err *err)
{
	char summary[256], nan[64] = "";
	enum xt_rc rc;

	if (s->match_nan)
		snprintf(nan, sizeof nan, " (%llu only up to NaN bit patterns)",
			 (unsigned long long)s->match_nan);
	snprintf(summary, sizeof summary,
		 "%llu calls, %llu observations checked: %llu match%s, %llu differ%s",
		 (unsigned long long)s->calls, (unsigned long long)s->observations,
		 (unsigned long long)s->match, nan, (unsigned long long)s->differ,
		 replay_rc ? "; stopped on an error" : "");
	rc = db_run_set_driver(k->run, s->gl_vendor[0] ? s->gl_vendor : NULL,
			       s->gl_renderer[0] ? s->gl_renderer : NULL,
			       s->gl_version[0] ? s->gl_version : NULL);
	if (!rc)
		rc = db_run_finish(k->run, replay_rc ? DB_RUN_FAILED : DB_RUN_OK, summary);
	else
		db_run_abandon(k->run);
	if (rc)
		xt_err_copy(err, db_err(k->db));
	db_close(k->db);
	xt_arena_fini(&k->arena);
	xt_buf_fini(&k->scratch);
	return rc;
}

/* The command; its --set-reg overrides go to *ovr, which the caller frees
 * whichever way it returns. */
static int replay_cmd(int argc, char **argv, struct replay_reg_override **ovr_out)
{
	static const struct option longopts[] = {
		{ "backend", required_argument, NULL, 'b' },
		{ "check", no_argument, NULL, 'c' },
		{ "calls", required_argument, NULL, 'r' },
		{ "max-diffs", required_argument, NULL, 'm' },
		{ "db", required_argument, NULL, 'd' },
		{ "label", required_argument, NULL, 'l' },
		{ "tolerance", required_argument, NULL, 't' },
		{ "strict", no_argument, NULL, 's' },
		{ "image-tolerance", required_argument, NULL, 'i' },
		{ "diff-dir", required_argument, NULL, 'D' },
		{ "no-db", no_argument, NULL, 'N' },
		{ "json", no_argument, NULL, 'j' },
		{ "dump-state", required_argument, NULL, 'S' },
		{ "format", required_argument, NULL, 'F' },
		{ "set-reg", required_argument, NULL, 'g' },
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
	const char *db_path = NULL, *label = NULL;
	bool strict = false, no_db = false, json = false, calls = false, dump_state = false;
	bool image_options = false;
	const char *format = NULL;
	uint64_t state_call = 0;
	struct replay_reg_override **ovr = ovr_out;
	size_t novr = 0;
	char set_reg_label[512] = "", msg[512];
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
			calls = true;
			break;
		case 'S':
			state_call = strtoull(optarg, &end, 10);
			if (*end || !*optarg || *optarg == '-')
				return cli_fail(CMD, "bad --dump-state '%s' (a call number)", optarg);
			dump_state = true;
			break;
		case 'F':
			format = optarg;
			break;
		case 'g':
			if (!cli_set_reg_parse(optarg, ovr, &novr, msg, sizeof msg))
				return cli_fail(CMD, "--set-reg: %s", msg);
			snprintf(set_reg_label + strlen(set_reg_label),
				 sizeof set_reg_label - strlen(set_reg_label), "%s%s",
				 set_reg_label[0] ? "," : "set-reg ", optarg);
			break;
		case 'm':
			o.max_reported = (unsigned)strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				return cli_fail(CMD, "bad --max-diffs '%s'", optarg);
			break;
		case 'd':
			db_path = optarg;
			break;
		case 'l':
			label = optarg;
			break;
		case 't':
			if (!trace_tol_parse(optarg, &o.tol))
				return cli_fail(CMD, "bad --tolerance '%s' (ulps=N, abs=X or abs=X,ulps=N)", optarg);
			break;
		case 's':
			strict = true;
			break;
		case 'i':
			if (!trace_img_tol_parse(optarg, &o.img_tol))
				return cli_fail(CMD, "bad --image-tolerance '%s' (max=X,pixels=N)",
						optarg);
			image_options = true;
			break;
		case 'D':
			o.diff_dir = optarg;
			image_options = true;
			break;
		case 'N':
			no_db = true;
			break;
		case 'j':
			json = true;
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
	if (strcmp(o.backend, "host") && strcmp(o.backend, "sim"))
		return cli_fail(CMD, "unknown backend '%s' (this build has: host, sim)", o.backend);
	if (novr && strcmp(o.backend, "sim"))
		return cli_fail(CMD, "--set-reg sets registers of the simulated GPU: give --backend sim");
	o.reg_overrides = *ovr;
	o.n_reg_overrides = novr;
	if ((strict || o.tol.mode != TRACE_TOL_EXACT || image_options) && !o.check)
		return cli_fail(CMD, "--strict, --tolerance, --image-tolerance and --diff-dir are "
				"about --check: give --check too");
	struct stat st;
	if (o.diff_dir && (stat(o.diff_dir, &st) || !S_ISDIR(st.st_mode)))
		return cli_fail(CMD, "--diff-dir %s: not a directory", o.diff_dir);
	if (no_db && db_path)
		return cli_fail(CMD, "--db and --no-db contradict each other");
	if (format && !dump_state)
		return cli_fail(CMD, "--format is the format of --dump-state: give --dump-state CALL");
	if (format && strcmp(format, "text") && strcmp(format, "json"))
		return cli_fail(CMD, "unknown --format '%s' (text or json)", format);
	if (dump_state && (calls || db_path || json || label))
		return cli_fail(CMD, "--dump-state CALL replays up to CALL and prints the state: "
				"it takes no --calls, --db, --label or --json");
	struct xt_buf state = XT_BUF_INIT;
	if (dump_state) {
		no_db = true;   /* a run cut at CALL is no run to keep */
		o.last_call = state_call;
		o.state_out = &state;
		o.out = stderr;   /* the state alone on stdout */
	}
	db_path = no_db ? NULL : cli_db_path(db_path);
	if (label && !db_path)
		return cli_fail(CMD, "--label names a run of --db: give --db FILE too");
	if (novr && !label)
		label = set_reg_label;   /* a perturbed run says so in the run list */
	o.progress = isatty(STDERR_FILENO);
	if (json)
		o.out = stderr;
	xt_err_clear(&err);

	/* An apitrace trace is replayed through its translation. */
	char *imported_path;
	bool imported;
	if (cli_apitrace_open_path(CMD, argv[optind], &imported_path, &imported))
		return CLI_EXIT_ERROR;
	const char *trace = imported ? imported_path : argv[optind];

	struct run_sink sink = { 0 };
	if (db_path) {
		if (run_sink_open(&sink, db_path, trace, o.backend, label, &err))
			return cli_fail(CMD, "%s", xt_err_msg(&err));
		o.on_observation = run_sink_observation;
		o.on_observation_ctx = &sink;
		o.on_artifact = run_sink_artifact;
		o.on_artifact_ctx = &sink;
	}
	enum xt_rc rc = replay_run(trace, &o, &s, &err);
	fflush(stdout);
	if (imported) {
		unlink(imported_path);
		free(imported_path);
	}
	if (db_path) {
		struct xt_err derr;
		char where[512];
		xt_err_clear(&derr);
		db_redact(db_path, where, sizeof where);
		if (run_sink_finish(&sink, rc, &s, &derr))
			return cli_fail(CMD, "%s: %s", where, xt_err_msg(&derr));
		fprintf(stderr, "xfbtrace replay: recorded run %lld in %s\n", (long long)sink.run_id,
			where);
	}
	int status = rc != XT_OK ? CLI_EXIT_ERROR
		     : replay_summary_ok(&s, strict) ? CLI_EXIT_OK : CLI_EXIT_DIFFERENT;
	if (dump_state && rc == XT_OK) {
		int ps = cli_state_print_live(CMD, state.data, state.len,
					      format && !strcmp(format, "json"));
		xt_buf_fini(&state);
		return ps != CLI_EXIT_OK ? ps : status;
	}
	xt_buf_fini(&state);
	if (json)
		print_json(argv[optind], &o, &s, status, rc ? xt_err_msg(&err) : NULL, sink.run_id);
	if (rc != XT_OK)
		return cli_fail(CMD, "%s: %s", argv[optind], xt_err_msg(&err));
	return status;
}

int cli_replay_main(int argc, char **argv)
{
	struct replay_reg_override *ovr = NULL;
	int status = replay_cmd(argc, argv, &ovr);

	free(ovr);
	return status;
}
