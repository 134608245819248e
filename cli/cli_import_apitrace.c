/*
 * cli_import_apitrace.c - `xfbtrace import-apitrace`: an apitrace trace
 * (.trace) as an xfbtrace trace (trace/trace_apitrace_import.h), and the
 * helper that lets dump / info / replay read .trace files directly.
 *
 * apitrace records no transform-feedback output, so an imported trace has
 * no golden observations.  Unless --no-reference is given, the import then
 * replays the trace once on the host backend and stores the observations
 * that replay made as the trace's golden ones (PROPERTY "reference" says
 * so): the first host replay is the reference run, and later replays
 * (another driver, the sim) are checked against it with `replay --check`.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "replay.h"
#include "trace_apitrace.h"
#include "trace_apitrace_import.h"
#include "trace_enc.h"
#include "trace_reader.h"
#include "trace_spool.h"
#include "xt_fault.h"
#include "xt_revision.h"

#define CMD "import-apitrace"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace import-apitrace [--no-reference] [--quiet] IN.trace -o OUT.xfbt\n"
		"\n"
		"Translates apitrace trace IN (apitrace 11.1 or later; snappy, gzip, zstd\n"
		"or brotli) into xfbtrace trace OUT: calls numbered as `apitrace dump`\n"
		"numbers them, blobs as client memory, apitrace's memcpy fake calls as\n"
		"mapped-memory writes, EGL context creation as CONTEXT records.  What\n"
		"cannot be translated is listed by function and first call number; such\n"
		"calls stay in OUT marked, and replay reports them.\n"
		"\n"
		"apitrace records no TF output, so OUT has no golden observations of its\n"
		"own: the import replays OUT once on the host backend and keeps the\n"
		"observations of that replay as the reference that `replay --check`\n"
		"compares later replays with.\n"
		"\n"
		"  -o FILE         the xfbtrace trace to write (replaced if it exists)\n"
		"  --no-reference  skip the host replay: OUT has no observations\n"
		"  --quiet         print only problems\n"
		"\n"
		"dump, info and replay also read .trace files directly (translated on\n"
		"the fly, without a reference run).\n");
}

static bool looks_like_xfbtrace(const char *path, bool *apitrace)
{
	uint8_t head[8] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t n = 0;

	*apitrace = false;
	if (f) {
		n = fread(head, 1, sizeof head, f);
		fclose(f);
	}
	if (n == 8 && !memcmp(head, TRACE_MAGIC, 8))
		return true;
	size_t len = strlen(path);
	*apitrace = trace_apitrace_sniff(head, n) ||
		    (len > 6 && !strcmp(path + len - 6, ".trace") && n > 0);
	return false;
}

static void print_result(FILE *f, const struct trace_at_import_result *res, bool quiet)
{
	if (!quiet)
		fprintf(f, "apitrace %s trace, format %u: %" PRIu64 " calls (%" PRIu64
			" incomplete, %" PRIu64 " fake), %" PRIu64 " memory writes, %" PRIu64
			" context events, %" PRIu64 " threads\n", res->container, res->version,
			res->calls, res->incomplete, res->fake_calls, res->memwrites,
			res->contexts, res->threads);
	for (size_t i = 0; i < res->nuntranslated; i++) {
		const struct trace_at_untranslated *u = &res->untranslated[i];
		fprintf(f, "not translated: %s (call %" PRIu64 ", %" PRIu64 " call%s): %s\n",
			u->function, u->first_call, u->count, u->count == 1 ? "" : "s",
			u->reason);
	}
}

int cli_apitrace_open_path(const char *cmd, const char *path, char **use, bool *imported)
{
	struct trace_at_import_result res = { 0 };
	struct xt_err err;
	bool apitrace;
	char tmpl[] = "/tmp/xfbtrace-apitrace-XXXXXX";
	int fd;

	*use = NULL;
	*imported = false;
	if (looks_like_xfbtrace(path, &apitrace) || !apitrace)
		return CLI_EXIT_OK;
	fd = mkstemp(tmpl);
	if (fd < 0)
		return cli_fail(cmd, "cannot create a temporary file for the translation of %s",
				path);
	close(fd);
	xt_err_clear(&err);
	if (trace_apitrace_import(path, tmpl, &res, &err)) {
		unlink(tmpl);
		trace_at_import_result_fini(&res);
		return cli_fail(cmd, "%s: %s", path, xt_err_msg(&err));
	}
	/* Problems go to stderr: stdout belongs to the command. */
	print_result(stderr, &res, true);
	trace_at_import_result_fini(&res);
	*use = xt_strdup(tmpl);
	if (!*use) {
		unlink(tmpl);
		return cli_fail(cmd, "out of memory");
	}
	*imported = true;
	return CLI_EXIT_OK;
}

/* ---- the reference run ------------------------------------------------------------ */

struct observation {
	uint64_t call_no;
	uint8_t *payload;
	size_t bytes;
};

struct reference {
	struct observation *obs;
	size_t n, cap;
};

static enum xt_rc collect(void *ctx, uint64_t call_no, const char *function,
			  int64_t tf_primitive_mode, const struct trace_queries *queries,
			  uint32_t thread_no, const uint8_t *payload, size_t bytes,
			  const char *verdict_class, const char *verdict_reason, struct xt_err *err)
{
	struct reference *ref = ctx;

	if (ref->n == ref->cap) {
		size_t cap = ref->cap ? ref->cap * 2 : 64;
		struct observation *g = xt_realloc(ref->obs, cap * sizeof *g);
		if (!g)
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
		ref->obs = g;
		ref->cap = cap;
	}
	struct observation *o = &ref->obs[ref->n];
	o->payload = xt_malloc(bytes ? bytes : 1);
	if (!o->payload)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	memcpy(o->payload, payload, bytes);
	o->bytes = bytes;
	o->call_no = call_no;
	ref->n++;
	return XT_OK;
}

static enum xt_rc put(struct trace_spool *sp, struct trace_spool_stream *st, uint16_t type,
		      uint16_t flags, uint64_t seq, const void *payload, size_t n,
		      struct xt_err *err)
{
	uint8_t *p = trace_spool_reserve(st, n);
	if (!p) {
		trace_spool_last_error(sp, err);
		return err->rc ? err->rc : XT_FAIL(err, XT_ERR_IO, "cannot write the trace");
	}
	if (n)
		memcpy(p, payload, n);
	trace_spool_commit(st, type, flags, seq, n);
	return XT_OK;
}

static enum xt_rc put_property(struct trace_spool *sp, struct trace_spool_stream *st,
			       uint64_t seq, const char *k, const char *v, struct xt_err *err)
{
	size_t kl = strlen(k), vl = strlen(v);
	uint8_t *b = xt_malloc(2 * TRACE_ENC_MAX_BYTES_PREFIX + kl + vl), *p;
	enum xt_rc rc;

	if (!b)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	/* A PROPERTY payload: two STRING values (trace_format.h). */
	p = trace_enc_string(b, k, kl);
	p = trace_enc_string(p, v, vl);
	rc = put(sp, st, TRACE_REC_PROPERTY, 0, seq, b, (size_t)(p - b), err);
	xt_free(b);
	return rc;
}

/*
 * Rewrites trace `path` with the reference observations inserted after the
 * records of the call each belongs to (order key 2*seq+1, after its RET
 * and CONTEXT records, as the capture writes them).
 */
static enum xt_rc add_reference(const char *path, const struct reference *ref,
				const char *what, struct xt_err *err)
{
	struct trace_reader *r = NULL;
	struct trace_spool *sp = NULL;
	struct trace_spool_stream *st = NULL;
	struct trace_spool_tuning tune = { .no_thread = 1 };
	struct trace_record rec;
	size_t n = strlen(path) + 16, k = 0;
	char *spool_path = xt_malloc(n);
	enum xt_rc rc;
	bool first = true;

	if (!spool_path)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	snprintf(spool_path, n, "%s.ref~", path);
	rc = trace_reader_open(&r, path, err);
	if (!rc)
		rc = trace_spool_open(&sp, spool_path, 1, err);
	if (!rc)
		rc = trace_spool_tune(sp, &tune);
	if (!rc && !(st = trace_spool_stream_open(sp, 0)))
		rc = XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	while (!rc) {
		rc = trace_reader_next(r, &rec);
		bool eof = rc == XT_ERR_EOF;
		if (rc && !eof) {
			xt_err_copy(err, trace_reader_err(r));
			break;
		}
		rc = XT_OK;
		uint64_t key = eof ? UINT64_MAX
			       : 2 * rec.seq + ((rec.flags & TRACE_RECF_ATTACHED) ? 1 : 0);
		while (!rc && k < ref->n && 2 * ref->obs[k].call_no + 1 < key) {
			rc = put(sp, st, TRACE_REC_OBSERVATION, TRACE_RECF_ATTACHED,
				 ref->obs[k].call_no, ref->obs[k].payload, ref->obs[k].bytes, err);
			k++;
		}
		if (rc || eof)
			break;
		if (first && rec.type != TRACE_REC_PROPERTY) {
			first = false;
			rc = put_property(sp, st, rec.seq, "reference", what, err);
			if (rc)
				break;
		}
		rc = put(sp, st, rec.type, rec.flags, rec.seq, rec.payload, rec.payload_bytes, err);
	}
	trace_reader_close(r);
	trace_spool_stream_close(st);
	trace_spool_close(sp);
	if (!rc)
		rc = trace_compact(spool_path, path, err);
	unlink(spool_path);
	xt_free(spool_path);
	return rc;
}

static void reference_free(struct reference *ref)
{
	for (size_t i = 0; i < ref->n; i++)
		xt_free(ref->obs[i].payload);
	xt_free(ref->obs);
}

/* Replays `out` on the host and stores its observations as golden ones. */
static int make_reference(const char *out, bool quiet)
{
	struct reference ref = { 0 };
	struct replay_summary s;
	struct xt_err err;
	FILE *devnull = fopen("/dev/null", "w");
	struct replay_options o = {
		.backend = "host", .last_call = UINT64_MAX, .max_reported = 10,
		.out = quiet && devnull ? devnull : stdout,
		.on_observation = collect, .on_observation_ctx = &ref,
	};
	char what[512];
	enum xt_rc rc;

	xt_err_clear(&err);
	if (!quiet)
		printf("reference run: replaying on the host backend\n");
	rc = replay_run(out, &o, &s, &err);
	if (devnull)
		fclose(devnull);
	if (rc) {
		reference_free(&ref);
		fprintf(stderr, "xfbtrace %s: warning: no reference run (%s); %s has no "
			"observations\n", CMD, xt_err_msg(&err), out);
		return CLI_EXIT_OK;
	}
	snprintf(what, sizeof what, "host replay of an apitrace trace by xfbtrace %s: %s, %s, "
		 "%s", XT_REVISION, s.gl_vendor, s.gl_renderer, s.gl_version);
	xt_err_clear(&err);
	rc = add_reference(out, &ref, what, &err);
	if (!rc && !quiet)
		printf("reference run: %zu observations stored as golden\n", ref.n);
	reference_free(&ref);
	if (rc)
		return cli_fail(CMD, "%s: %s", out, xt_err_msg(&err));
	return CLI_EXIT_OK;
}

int cli_import_apitrace_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "no-reference", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trace_at_import_result res = { 0 };
	struct xt_err err;
	const char *out = NULL;
	bool reference = true, quiet = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'n': reference = false; break;
		case 'q': quiet = true; break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default: usage(stderr); return CLI_EXIT_ERROR;
		}
	}
	if (optind != argc - 1 || !out) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}
	xt_err_clear(&err);
	enum xt_rc rc = trace_apitrace_import(argv[optind], out, &res, &err);
	print_result(stdout, &res, quiet);
	trace_at_import_result_fini(&res);
	if (rc)
		return cli_fail(CMD, "%s: %s", argv[optind], xt_err_msg(&err));
	if (!quiet)
		printf("wrote %s\n", out);
	fflush(stdout);
	return reference ? make_reference(out, quiet) : CLI_EXIT_OK;
}
