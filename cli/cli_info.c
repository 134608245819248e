/*
 * cli_info.c - `xfbtrace info`: what a trace holds, at a glance.
 *
 * One pass over the records: properties (last value wins), calls per
 * function, observations per kind, threads, contexts, frames, the form and
 * sizes of the file.  A trace that ends in corruption is summarised up to
 * the damage, and the damage is reported (exit 2).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_format.h"
#include "trace_reader.h"
#include "xt_fault.h"
#include "xt_json.h"

#define CMD "info"
#define MAX_FUNC_ID (1u << 20) /* ids beyond this are not counted per function */

struct named_count {
	char *name;
	uint64_t count;
};

struct info {
	uint64_t records, calls, observations, frames, threads, contexts, memwrites, layouts;
	uint64_t payload_bytes, first_call, last_call;
	bool any_call;
	uint64_t *per_func;          /* indexed by func_id */
	uint32_t per_func_len;
	struct named_count *props;   /* key -> value text in name, count unused */
	char **prop_values;
	size_t nprops;
	struct named_count *kinds;   /* observation kinds */
	size_t nkinds;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xfbtrace info [--json] FILE\n"
		"\n"
		"Summarises trace FILE: capture properties (program, driver, revision),\n"
		"the number of calls per function, observations per kind, threads,\n"
		"contexts and frames.\n"
		"\n"
		"  --json   one JSON object, for scripts; \"complete\": false and \"damage\"\n"
		"           (the message) when the records end early\n"
		"\n"
		"exit status: 0 the whole trace was read, 2 error: a damaged trace (cut,\n"
		"bit flips, a record that does not decode) is named with the file offset\n"
		"of the damage, after a summary of the records before it; a spool cut at\n"
		"any byte is named with the byte, the region and the record the cut fell in\n");
}

static int count_cmp(const void *a, const void *b)
{
	const struct named_count *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

static enum xt_rc bump(struct named_count **arr, size_t *n, const char *name, size_t len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen((*arr)[i].name) == len && !memcmp((*arr)[i].name, name, len)) {
			(*arr)[i].count++;
			return XT_OK;
		}
	struct named_count *g = xt_realloc(*arr, (*n + 1) * sizeof **arr);
	if (!g)
		return XT_ERR_NOMEM;
	*arr = g;
	g[*n].name = xt_malloc(len + 1);
	if (!g[*n].name)
		return XT_ERR_NOMEM;
	memcpy(g[*n].name, name, len);
	g[*n].name[len] = '\0';
	g[*n].count = 1;
	++*n;
	return XT_OK;
}

static enum xt_rc set_property(struct info *in, const char *key, const struct trace_value *v)
{
	struct xt_buf text = XT_BUF_INIT;
	enum xt_rc rc;

	if (v->tag == TRACE_TAG_STRING)
		rc = xt_buf_append(&text, v->mem.bytes, v->mem.len);
	else
		rc = cli_value_text(&text, v, CLI_PARAM_FMT_NONE, true);
	rc = rc ? rc : xt_buf_append(&text, "", 1);
	if (rc) {
		xt_buf_fini(&text);
		return rc;
	}
	for (size_t i = 0; i < in->nprops; i++)
		if (!strcmp(in->props[i].name, key)) {
			free(in->prop_values[i]);
			in->prop_values[i] = (char *)xt_buf_detach(&text, NULL);
			return XT_OK;
		}
	rc = bump(&in->props, &in->nprops, key, strlen(key));
	char **pv = rc ? NULL : xt_realloc(in->prop_values, in->nprops * sizeof *pv);
	if (!pv) {
		xt_buf_fini(&text);
		return XT_ERR_NOMEM;
	}
	in->prop_values = pv;
	pv[in->nprops - 1] = (char *)xt_buf_detach(&text, NULL);
	return XT_OK;
}

static enum xt_rc count_call(struct info *in, uint32_t func_id)
{
	if (func_id >= MAX_FUNC_ID)
		return XT_OK;
	if (func_id >= in->per_func_len) {
		uint32_t len = func_id + 256;
		uint64_t *p = xt_realloc(in->per_func, len * sizeof *p);
		if (!p)
			return XT_ERR_NOMEM;
		memset(p + in->per_func_len, 0, (len - in->per_func_len) * sizeof *p);
		in->per_func = p;
		in->per_func_len = len;
	}
	in->per_func[func_id]++;
	return XT_OK;
}

static enum xt_rc gather(struct trace_reader *r, struct info *in)
{
	struct xt_arena arena;
	struct trace_record rec;
	enum xt_rc rc;

	xt_arena_init(&arena, 64 * 1024);
	while ((rc = trace_reader_next(r, &rec)) == XT_OK) {
		struct trace_value v;
		uint32_t func_id;

		in->records++;
		in->payload_bytes += rec.payload_bytes;
		xt_arena_reset(&arena);
		switch (rec.type) {
		case TRACE_REC_CALL:
			if (rec.payload_bytes < 4) {
				rc = XT_ERR_CORRUPT;
				break;
			}
			memcpy(&func_id, rec.payload, 4);
			in->calls++;
			if (!in->any_call)
				in->first_call = rec.seq;
			in->any_call = true;
			in->last_call = rec.seq;
			rc = count_call(in, func_id);
			break;
		case TRACE_REC_OBSERVATION: {
			in->observations++;
			rc = trace_reader_decode_value(r, &rec, &arena, &v);
			const struct trace_value *kind = rc ? NULL : trace_value_get(&v, "kind");
			if (kind && kind->tag == TRACE_TAG_STRING)
				rc = bump(&in->kinds, &in->nkinds, (const char *)kind->mem.bytes, kind->mem.len);
			else if (!rc)
				rc = bump(&in->kinds, &in->nkinds, "(no kind)", 9);
			break;
		}
		case TRACE_REC_PROPERTY:
			rc = trace_reader_decode_value(r, &rec, &arena, &v);
			if (!rc && v.tag == TRACE_TAG_MAP && v.agg.count == 1)
				rc = set_property(in, v.agg.keys[0], &v.agg.items[0]);
			break;
		case TRACE_REC_THREAD: in->threads++; break;
		case TRACE_REC_FRAME: in->frames++; break;
		case TRACE_REC_MEMWRITE: in->memwrites++; break;
		case TRACE_REC_LAYOUT: in->layouts++; break;
		case TRACE_REC_CONTEXT: {
			rc = trace_reader_decode_value(r, &rec, &arena, &v);
			const struct trace_value *ev = rc ? NULL : trace_value_get(&v, "event");
			if (ev && ev->tag == TRACE_TAG_STRING && ev->mem.len == 6 &&
			    !memcmp(ev->mem.bytes, "create", 6))
				in->contexts++;
			break;
		}
		}
		if (rc)
			break;
	}
	xt_arena_fini(&arena);
	return rc;
}

/* The value of property `key`, or NULL. */
static const char *property(const struct info *in, const char *key)
{
	for (size_t i = 0; i < in->nprops; i++)
		if (!strcmp(in->props[i].name, key))
			return in->prop_values[i];
	return NULL;
}

static void print_text(const char *path, struct trace_reader *r, struct info *in)
{
	struct stat st;
	stat(path, &st);
	printf("file:          %s\n", path);
	printf("form:          %s, %lld bytes (%" PRIu64 " bytes of records)\n",
	       trace_reader_is_spool(r) ? "spool (uncompacted)" : "compacted", (long long)st.st_size,
	       in->payload_bytes);
	for (size_t i = 0; i < in->nprops; i++) {
		const char *val = in->prop_values[i];
		int len = (int)strlen(val);
		printf("%-14s %.*s%s\n", in->props[i].name, len > 200 ? 200 : len, val,
		       len > 200 ? "..." : "");
	}
	printf("calls:         %" PRIu64, in->calls);
	if (in->any_call)
		printf(" (numbers %" PRIu64 "-%" PRIu64 ")", in->first_call, in->last_call);
	printf("\nthreads:       %" PRIu64 "\ncontexts:      %" PRIu64 "\nframes:        %" PRIu64
	       "\nmemory writes: %" PRIu64 "\nblock layouts: %" PRIu64 "%s\nobservations:  %" PRIu64 "\n",
	       in->threads, in->contexts, in->frames, in->memwrites, in->layouts,
	       in->layouts ? " (links with the uniform block layouts the driver chose)" : "",
	       in->observations);
	const char *source = property(in, "source");
	if (source && !strcmp(source, "apitrace"))
		printf("golden:        %s\n", property(in, "reference")
		       ? "none recorded (apitrace records no TF output); the observations are "
			 "those of the reference run (the first host replay, see 'reference')"
		       : "none (apitrace records no TF output); `xfbtrace import-apitrace` "
			 "makes the first host replay the reference run");
	if (in->nkinds)
		qsort(in->kinds, in->nkinds, sizeof *in->kinds, count_cmp);
	for (size_t i = 0; i < in->nkinds; i++)
		printf("  %8" PRIu64 "  %s\n", in->kinds[i].count, in->kinds[i].name);

	size_t nf = 0;
	struct named_count *funcs = xt_calloc(in->per_func_len ? in->per_func_len : 1, sizeof *funcs);
	if (!funcs)
		return;
	for (uint32_t id = 0; id < in->per_func_len; id++) {
		if (!in->per_func[id])
			continue;
		const char *name = trace_reader_func_name(r, id);
		funcs[nf].name = (char *)(name ? name : "(undefined)");
		funcs[nf++].count = in->per_func[id];
	}
	if (nf)
		qsort(funcs, nf, sizeof *funcs, count_cmp);
	printf("functions:     %zu\n", nf);
	for (size_t i = 0; i < nf; i++)
		printf("  %8" PRIu64 "  %s\n", funcs[i].count, funcs[i].name);
	free(funcs);
}

/* CLI_EXIT_OK, or CLI_EXIT_ERROR when the document could not be built. */
/* `damage`: what ended the records early (the reader's message), or NULL. */
static int print_json(const char *path, struct trace_reader *r, struct info *in,
		      const char *damage)
{
	struct xt_buf b = XT_BUF_INIT;
	struct xt_jw w;

	xt_jw_init(&w, &b);
	xt_jw_obj(&w);
	xt_jw_kstr(&w, "file", path);
	xt_jw_kbool(&w, "spool", trace_reader_is_spool(r));
	xt_jw_kbool(&w, "complete", damage == NULL);
	if (damage)
		xt_jw_kstr(&w, "damage", damage);
	else
		xt_jw_knull(&w, "damage");
	xt_jw_ku64(&w, "calls", in->calls);
	xt_jw_ku64(&w, "threads", in->threads);
	xt_jw_ku64(&w, "contexts", in->contexts);
	xt_jw_ku64(&w, "frames", in->frames);
	xt_jw_ku64(&w, "memwrites", in->memwrites);
	xt_jw_ku64(&w, "layouts", in->layouts);
	xt_jw_ku64(&w, "observations", in->observations);
	xt_jw_kobj(&w, "properties");
	for (size_t i = 0; i < in->nprops; i++)
		xt_jw_kstr(&w, in->props[i].name, in->prop_values[i]);
	xt_jw_end(&w);
	xt_jw_kobj(&w, "observation_kinds");
	for (size_t i = 0; i < in->nkinds; i++)
		xt_jw_ku64(&w, in->kinds[i].name, in->kinds[i].count);
	xt_jw_end(&w);
	xt_jw_kobj(&w, "functions");
	for (uint32_t id = 0; id < in->per_func_len; id++) {
		const char *name = trace_reader_func_name(r, id);
		if (in->per_func[id] && name)
			xt_jw_ku64(&w, name, in->per_func[id]);
	}
	xt_jw_end(&w);
	xt_jw_end(&w);
	enum xt_rc rc = xt_jw_done(&w);
	if (!rc) {
		cli_write_buf(&b);
		fputc('\n', stdout);
	}
	xt_buf_fini(&b);
	return rc ? cli_fail(CMD, "writing the JSON summary: %s", xt_rc_name(rc)) : CLI_EXIT_OK;
}

static void info_fini(struct info *in)
{
	for (size_t i = 0; i < in->nprops; i++) {
		free(in->props[i].name);
		free(in->prop_values[i]);
	}
	for (size_t i = 0; i < in->nkinds; i++)
		free(in->kinds[i].name);
	free(in->props);
	free(in->prop_values);
	free(in->kinds);
	free(in->per_func);
}

int cli_info_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	bool json = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default: usage(stderr); return CLI_EXIT_ERROR;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}

	const char *path = argv[optind];
	struct trace_reader *r;
	struct xt_err err;
	struct info in = { 0 };
	char *imported_path;
	bool imported;
	if (cli_apitrace_open_path(CMD, path, &imported_path, &imported))
		return CLI_EXIT_ERROR;
	if (trace_reader_open(&r, imported ? imported_path : path, &err)) {
		if (imported)
			unlink(imported_path);
		free(imported_path);
		return cli_fail(CMD, "%s", xt_err_msg(&err));
	}
	if (imported) {   /* an open reader keeps the file */
		unlink(imported_path);
		free(imported_path);
	}
	enum xt_rc rc = gather(r, &in);
	int status = CLI_EXIT_OK;
	if (rc != XT_ERR_EOF) {
		xt_err_copy(&err, trace_reader_err(r));
		if (err.rc == XT_OK)
			XT_FAIL(&err, rc, "after %" PRIu64 " records: %s", in.records, xt_rc_name(rc));
		fprintf(stderr, "xfbtrace info: %s: %s (summary covers the records before)\n",
			path, xt_err_msg(&err));
		status = CLI_EXIT_ERROR;
	}
	if (json) {
		int js = print_json(path, r, &in, status ? xt_err_msg(&err) : NULL);
		status = status ? status : js;
	} else {
		print_text(path, r, &in);
	}
	info_fini(&in);
	trace_reader_close(r);
	return status;
}
