/*
 * cli_dump.c - `xfbtrace dump`: print a trace's records in order, as text
 * for people or as JSON lines for scripts.
 *
 * A call's RET record follows its CALL directly in merged order (same order
 * key, same thread), so a call is held open until the next record arrives
 * and printed as one line with its return value and outputs.  Values are
 * rendered before the reader moves on: decoded values borrow the record.
 */
#include <getopt.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_format.h"
#include "glapi.h"
#include "trace_query.h"
#include "trace_reader.h"
#include "xt_json.h"

#define CMD "dump"

enum dump_format { DUMP_TEXT, DUMP_JSONL };

struct dumper {
	enum dump_format fmt;
	bool full;               /* text: print values in full, TF data decoded */
	bool no_data;            /* jsonl: bytes of blobs and memory left out */
	bool grep;               /* print only lines matching `re` */
	regex_t re;
	struct xt_buf line;      /* the record being printed */
	struct xt_jw jw;         /* jsonl: the writer of `line` */
	bool call_open;          /* line holds a call awaiting its RET */
	uint64_t call_no;
	const char *const *params; /* parameter names of the open call */
	uint32_t nparams;
	const char *func;        /* its name, borrowed from the reader */
	struct trace_queries *queries; /* query targets, from every call so far */
	uint32_t thread_no;      /* the last call's thread */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace dump [--calls A-B] [--format text|jsonl] [--full] [--no-data]\n"
		"                     [--grep REGEX] FILE\n"
		"\n"
		"Prints every record of trace FILE in global order: calls with their\n"
		"arguments, return values and outputs, observations (TF buffer\n"
		"contents, query results, read-back data), properties, threads,\n"
		"contexts and frames.  A query observation is followed by the query's\n"
		"target, \"(GL_PRIMITIVES_GENERATED)\" (jsonl: \"target\", and \"stream\"\n"
		"for glBeginQueryIndexed), as the trace's calls before it set it.\n"
		"\n"
		"  --calls A-B     only calls A to B (either end may be left open)\n"
		"  --format F      text (default) or jsonl: one JSON object per line,\n"
		"                  {\"type\":\"call\",\"no\":N,\"thread\":T,\"name\":...,\n"
		"                  \"args\":{...},\"ret\":...} or {\"type\":\"observation\",\n"
		"                  \"call\":N,\"kind\":...}\n"
		"  --full          text: do not elide long strings and arrays, and print\n"
		"                  the data of each tf_buffer observation decoded by its\n"
		"                  layout: one line per vertex, every varying's value\n"
		"  --no-data       jsonl: leave out the bytes of blobs and memory (their\n"
		"                  \"hex\"); sizes and addresses stay\n"
		"  --grep REGEX    only the records whose printed line matches REGEX (POSIX\n"
		"                  extended, case-sensitive): a call with its arguments and\n"
		"                  result, an observation with its fields\n"
		"\n"
		"exit status: 0 the whole trace was read, 2 error (a damaged trace: the\n"
		"records before the damage are printed, the error names its offset)\n");
}

static const char *record_type_name(uint16_t type)
{
	switch (type) {
	case TRACE_REC_CALL: return "call";
	case TRACE_REC_RET: return "ret";
	case TRACE_REC_OBSERVATION: return "observation";
	case TRACE_REC_PROPERTY: return "property";
	case TRACE_REC_THREAD: return "thread";
	case TRACE_REC_CONTEXT: return "context";
	case TRACE_REC_FRAME: return "frame";
	case TRACE_REC_MEMWRITE: return "memwrite";
	case TRACE_REC_LAYOUT: return "layout";
	}
	return NULL;
}

static const char *param_name(struct dumper *d, uint32_t i, char tmp[16])
{
	if (d->params && i < d->nparams)
		return d->params[i];
	snprintf(tmp, 16, "arg%u", i);
	return tmp;
}

static enum xt_rc flush_line(struct dumper *d)
{
	if (d->call_open && d->fmt == DUMP_JSONL) {
		xt_jw_end(&d->jw);
		enum xt_rc rc = xt_jw_done(&d->jw);
		if (rc)
			return rc;
	}
	d->call_open = false;
	if (d->grep && d->line.len) {
		if (xt_buf_append(&d->line, "", 1))
			return XT_ERR_NOMEM;
		bool match = regexec(&d->re, (const char *)d->line.data, 0, NULL, 0) == 0;
		d->line.len--;
		if (!match)
			xt_buf_reset(&d->line);
	}
	if (d->line.len) {
		if (xt_buf_append(&d->line, "\n", 1))
			return XT_ERR_NOMEM;
		cli_write_buf(&d->line);
		xt_buf_reset(&d->line);
	}
	return XT_OK;
}

static enum xt_rc print_call(struct dumper *d, struct trace_reader *r,
			     const struct trace_call *call)
{
	struct xt_buf *b = &d->line;
	char tmp[16];
	enum xt_rc rc;

	d->params = trace_reader_func_params(r, call->func_id, &d->nparams);
	d->func = trace_reader_func_name(r, call->func_id);
	d->call_open = true;
	d->call_no = call->no;
	if (d->fmt == DUMP_JSONL) {
		/* The line's object stays open for the RET (flush_line closes it). */
		struct xt_jw *w = &d->jw;
		xt_jw_init(w, b);
		xt_jw_obj(w);
		xt_jw_kstr(w, "type", "call");
		xt_jw_ku64(w, "no", call->no);
		xt_jw_ku64(w, "thread", call->thread_no);
		xt_jw_kstr(w, "name", call->name);
		xt_jw_kobj(w, "args");
		for (uint32_t i = 0; i < call->nargs; i++) {
			xt_jw_key(w, param_name(d, i, tmp));
			cli_value_json_ex(w, &call->args[i], cli_param_fmt_of(call->name, i), !d->no_data);
		}
		xt_jw_end(w);
		return w->rc;
	}
	rc = call->thread_no ? xt_buf_printf(b, "%" PRIu64 " @%u %s(", call->no, call->thread_no, call->name)
			     : xt_buf_printf(b, "%" PRIu64 " %s(", call->no, call->name);
	for (uint32_t i = 0; i < call->nargs && !rc; i++) {
		rc = xt_buf_printf(b, "%s%s = ", i ? ", " : "", param_name(d, i, tmp));
		rc = rc ? rc : cli_value_text(b, &call->args[i], cli_param_fmt_of(call->name, i), d->full);
	}
	return rc ? rc : xt_buf_append(b, ")", 1);
}

static enum xt_rc print_ret(struct dumper *d, const struct trace_ret *ret)
{
	struct xt_buf *b = &d->line;
	char tmp[16];
	enum xt_rc rc = XT_OK;

	if (d->fmt == DUMP_JSONL) {
		struct xt_jw *w = &d->jw;
		xt_jw_key(w, "ret");
		cli_value_json_ex(w, &ret->ret, cli_ret_fmt_of(d->func), !d->no_data);
		if (ret->nouts) {
			xt_jw_kobj(w, "outs");
			for (uint32_t i = 0; i < ret->nouts; i++) {
				xt_jw_key(w, param_name(d, ret->out_index[i], tmp));
				cli_value_json_ex(w, &ret->outs[i],
						  cli_param_fmt_of(d->func, ret->out_index[i]), !d->no_data);
			}
			xt_jw_end(w);
		}
		return w->rc;
	}
	if (ret->ret.tag != TRACE_TAG_NULL) {
		rc = xt_buf_append(b, " = ", 3);
		rc = rc ? rc : cli_value_text(b, &ret->ret, cli_ret_fmt_of(d->func), d->full);
	}
	for (uint32_t i = 0; i < ret->nouts && !rc; i++) {
		rc = xt_buf_printf(b, "%s%s -> ", i ? ", " : " [", param_name(d, ret->out_index[i], tmp));
		rc = rc ? rc : cli_value_text(b, &ret->outs[i],
					      cli_param_fmt_of(d->func, ret->out_index[i]), d->full);
		if (!rc && i + 1 == ret->nouts)
			rc = xt_buf_append(b, "]", 1);
	}
	return rc;
}

/* The target of the query a `query` observation is of, as the calls so
 * far set it (trace_query.h); false when it is not one or not known. */
static bool query_target(const struct dumper *d, const struct trace_record *rec,
			 const struct trace_value *v, struct trace_query_target *t)
{
	const struct trace_value *kind = trace_value_get(v, "kind");
	const struct trace_value *q = trace_value_get(v, "query");
	return rec->type == TRACE_REC_OBSERVATION && kind && kind->tag == TRACE_TAG_STRING &&
	       kind->mem.len == 5 && !memcmp(kind->mem.bytes, "query", 5) && q &&
	       q->tag == TRACE_TAG_UINT && !trace_value_get(v, "target") &&
	       trace_queries_lookup(d->queries, d->thread_no, q->u, t);
}

/* The GL name of a query's target (the generated tables), else hex. */
static const char *target_name(const struct trace_query_target *t, char hex[16])
{
	const char *name = glapi_enum_name(t->target);
	if (name)
		return name;
	snprintf(hex, 16, "0x%x", t->target);
	return hex;
}

/* Records other than calls: one line each (with --full, a tf_buffer
 * observation's decoded vertices follow on lines of their own). */
static enum xt_rc print_other(struct dumper *d, const struct trace_record *rec,
			      const struct trace_value *v, struct xt_arena *arena)
{
	struct xt_buf *b = &d->line;
	const char *type = record_type_name(rec->type);
	enum xt_rc rc;

	if (d->fmt == DUMP_JSONL) {
		struct xt_jw *w = &d->jw;
		xt_jw_init(w, b);
		xt_jw_obj(w);
		xt_jw_kstr(w, "type", type);
		xt_jw_ku64(w, (rec->flags & TRACE_RECF_ATTACHED) ? "call" : "before_call", rec->seq);
		if (rec->type == TRACE_REC_PROPERTY && v->tag == TRACE_TAG_MAP && v->agg.count == 1) {
			xt_jw_kstr(w, "key", v->agg.keys[0]);
			xt_jw_key(w, "value");
			cli_value_json_ex(w, &v->agg.items[0], CLI_PARAM_FMT_NONE, !d->no_data);
		} else if (v->tag == TRACE_TAG_MAP) {
			for (uint32_t i = 0; i < v->agg.count; i++) {
				/* Keys of the record itself win over the map's. */
				if (!strcmp(v->agg.keys[i], "type") || !strcmp(v->agg.keys[i], "call"))
					continue;
				xt_jw_key(w, v->agg.keys[i]);
				cli_value_json_ex(w, &v->agg.items[i], CLI_PARAM_FMT_NONE, !d->no_data);
			}
		} else {
			xt_jw_key(w, "value");
			cli_value_json_ex(w, v, CLI_PARAM_FMT_NONE, !d->no_data);
		}
		struct trace_query_target t;
		char hex[16];
		if (query_target(d, rec, v, &t)) {
			xt_jw_kstr(w, "target", target_name(&t, hex));
			if (t.indexed)
				xt_jw_ku64(w, "stream", t.stream);
		}
		xt_jw_end(w);
		return xt_jw_done(w);
	}
	if (rec->type == TRACE_REC_PROPERTY && v->tag == TRACE_TAG_MAP && v->agg.count == 1) {
		rc = xt_buf_printf(b, "# property %s = ", v->agg.keys[0]);
		return rc ? rc : cli_value_text(b, &v->agg.items[0], CLI_PARAM_FMT_NONE, d->full);
	}
	rc = xt_buf_printf(b, "%s%" PRIu64 " # %s ",
			   (rec->flags & TRACE_RECF_ATTACHED) ? "" : "before ", rec->seq, type);
	rc = rc ? rc : cli_value_text(b, v, CLI_PARAM_FMT_NONE, d->full);
	struct trace_query_target t;
	char hex[16];
	if (!rc && query_target(d, rec, v, &t))
		rc = t.indexed ? xt_buf_printf(b, " (%s, stream %u)", target_name(&t, hex), t.stream)
			       : xt_buf_printf(b, " (%s)", target_name(&t, hex));
	if (!rc && d->full && rec->type == TRACE_REC_OBSERVATION)
		rc = cli_tf_text(b, v, arena);
	return rc;
}

static int dump(struct trace_reader *r, struct dumper *d, uint64_t first, uint64_t last)
{
	struct xt_arena arena;
	struct trace_record rec;
	enum xt_rc rc;
	struct xt_err err;
	int status = CLI_EXIT_OK;

	xt_arena_init(&arena, 64 * 1024);
	xt_err_clear(&err);
	while ((rc = trace_reader_next(r, &rec)) == XT_OK) {
		if (rec.seq > last)
			break;
		xt_arena_reset(&arena);
		if (rec.type == TRACE_REC_CALL && rec.seq < first) {
			/* Not printed, but its query targets are named later. */
			struct trace_call call;
			rc = trace_reader_decode_call(r, &rec, &arena, &call);
			if (rc)
				break;
			trace_queries_call(d->queries, &call);
			d->thread_no = call.thread_no;
		}
		if (rec.seq < first)
			continue;
		if (rec.type == TRACE_REC_RET) {
			struct trace_ret ret;
			rc = trace_reader_decode_ret(r, &rec, &arena, &ret);
			if (!rc && d->call_open && d->call_no == ret.no)
				rc = print_ret(d, &ret);
			if (!rc)
				rc = flush_line(d);
		} else if (rec.type == TRACE_REC_CALL) {
			struct trace_call call;
			rc = flush_line(d);
			rc = rc ? rc : trace_reader_decode_call(r, &rec, &arena, &call);
			if (!rc) {
				trace_queries_call(d->queries, &call);
				d->thread_no = call.thread_no;
			}
			rc = rc ? rc : print_call(d, r, &call);
		} else if (record_type_name(rec.type)) {
			struct trace_value v;
			rc = flush_line(d);
			rc = rc ? rc : trace_reader_decode_value(r, &rec, &arena, &v);
			rc = rc ? rc : print_other(d, &rec, &v, &arena);
			rc = rc ? rc : flush_line(d);
		} else {
			/* A record type of a newer writer: say so, keep going. */
			rc = flush_line(d);
			if (!rc && d->fmt == DUMP_JSONL) {
				struct xt_jw *w = &d->jw;
				xt_jw_init(w, &d->line);
				xt_jw_obj(w);
				xt_jw_kstr(w, "type", "unknown");
				xt_jw_ku64(w, "record_type", rec.type);
				xt_jw_ku64(w, "seq", rec.seq);
				xt_jw_ku64(w, "bytes", rec.payload_bytes);
				xt_jw_end(w);
				rc = xt_jw_done(w);
			} else if (!rc)
				rc = xt_buf_printf(&d->line, "%" PRIu64 " # unknown record type %u (%zu bytes)",
						   rec.seq, rec.type, rec.payload_bytes);
			rc = rc ? rc : flush_line(d);
		}
		if (rc) {
			/* Decoding errors are reported through the reader's err. */
			xt_err_copy(&err, trace_reader_err(r));
			if (err.rc == XT_OK)
				XT_FAIL(&err, rc, "record of call %" PRIu64 " at chunk offset %" PRIu64 ": %s",
					rec.seq, rec.file_offset, xt_rc_name(rc));
			break;
		}
	}
	flush_line(d);
	fflush(stdout);
	if (rc && rc != XT_ERR_EOF) {
		if (err.rc == XT_OK)
			xt_err_copy(&err, trace_reader_err(r));
		fprintf(stderr, "xfbtrace dump: %s\n", xt_err_msg(&err));
		status = CLI_EXIT_ERROR;
	}
	xt_arena_fini(&arena);
	return status;
}

int cli_dump_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "calls", required_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "full", no_argument, NULL, 'F' },
		{ "no-data", no_argument, NULL, 'N' },
		{ "grep", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct dumper d = { .fmt = DUMP_TEXT };
	uint64_t first = 0, last = UINT64_MAX;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!cli_parse_range(optarg, &first, &last))
				return cli_fail(CMD, "bad call range '%s' (expected A-B, A-, -B or N)", optarg);
			break;
		case 'f':
			if (!strcmp(optarg, "text"))
				d.fmt = DUMP_TEXT;
			else if (!strcmp(optarg, "jsonl"))
				d.fmt = DUMP_JSONL;
			else
				return cli_fail(CMD, "unknown format '%s' (text or jsonl)", optarg);
			break;
		case 'F': d.full = true; break;
		case 'N': d.no_data = true; break;
		case 'g': {
			int e = d.grep ? 0 : regcomp(&d.re, optarg, REG_EXTENDED | REG_NOSUB);
			if (d.grep)
				return cli_fail(CMD, "--grep is given once");
			if (e) {
				char msg[128];
				regerror(e, &d.re, msg, sizeof msg);
				return cli_fail(CMD, "bad --grep '%s': %s", optarg, msg);
			}
			d.grep = true;
			break;
		}
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default: usage(stderr); return CLI_EXIT_ERROR;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}

	struct trace_reader *r;
	struct xt_err err;
	char *imported_path;
	bool imported;
	if (cli_apitrace_open_path(CMD, argv[optind], &imported_path, &imported))
		return CLI_EXIT_ERROR;
	enum xt_rc orc = trace_reader_open(&r, imported ? imported_path : argv[optind], &err);
	if (imported) {   /* an open reader keeps the file */
		unlink(imported_path);
		free(imported_path);
	}
	if (orc)
		return cli_fail(CMD, "%s", xt_err_msg(&err));
	if (trace_queries_create(&d.queries)) {
		trace_reader_close(r);
		return cli_fail(CMD, "out of memory");
	}
	int status = dump(r, &d, first, last);
	trace_queries_destroy(d.queries);
	trace_reader_close(r);
	xt_buf_fini(&d.line);
	if (d.grep)
		regfree(&d.re);
	return status;
}
