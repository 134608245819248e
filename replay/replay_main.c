/*
 * replay_main.c - the replay loop (replay.h): reads the trace in recorded
 * global order and hands each record to the backend at the right moment.
 *
 * A call is executed once its RET has been seen, i.e. when the next record
 * that is not its RET arrives (the RET directly follows its CALL in merged
 * order, trace_format.h), because the backend needs the recorded results:
 * names a glGen* returned, the pointer a map returned.  Its CALL and RET
 * payloads are copied, since the reader lends a record only until the next
 * one.  MEMWRITE records of a call arrive before its CALL and are applied
 * at once; OBSERVATION and CONTEXT records of a call arrive after its RET,
 * so after it was executed: golden observations are then compared with the
 * ones the backend made for that call.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_core.h"
#include "xt_fault.h"

static double elapsed(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

uint8_t *replay_obs_reserve(struct replay *rp, size_t max_payload)
{
	if (xt_buf_reserve(&rp->obs_bytes, max_payload) != XT_OK)
		return NULL;
	rp->obs_reserved_at = rp->obs_bytes.len;
	return rp->obs_bytes.data + rp->obs_bytes.len;
}

void replay_obs_commit(struct replay *rp, uint64_t seq, size_t n, bool timing)
{
	if (rp->nobs == rp->capobs) {
		size_t cap = rp->capobs ? 2 * rp->capobs : 16;
		struct replay_obs *o = xt_realloc(rp->obs, cap * sizeof *o);
		if (!o)
			return;
		rp->obs = o;
		rp->capobs = cap;
	}
	rp->obs[rp->nobs++] = (struct replay_obs){ .seq = seq, .offset = rp->obs_reserved_at, .len = n,
							   .timing = timing };
	rp->obs_bytes.len = rp->obs_reserved_at + n;
}

void replay_set_driver(struct replay *rp, const char *vendor, const char *renderer,
		       const char *version)
{
	snprintf(rp->sum.gl_vendor, sizeof rp->sum.gl_vendor, "%s", vendor ? vendor : "");
	snprintf(rp->sum.gl_renderer, sizeof rp->sum.gl_renderer, "%s", renderer ? renderer : "");
	snprintf(rp->sum.gl_version, sizeof rp->sum.gl_version, "%s", version ? version : "");
}

void replay_frame(struct replay *rp)
{
	rp->sum.frames++;
}

uint64_t replay_frames(const struct replay *rp)
{
	return rp->sum.frames;
}

bool replay_frame_wanted(const struct replay *rp)
{
	return replay_observing(rp) && rp->sum.frames < rp->frames_wanted;
}

static void progress(struct replay *rp)
{
	struct timespec now;

	if (!rp->opt.progress || (rp->sum.calls & 1023))
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (elapsed(&rp->start, &now) < 2 || elapsed(&rp->last_progress, &now) < 0.5)
		return;
	rp->last_progress = now;
	rp->progress_shown = true;
	fprintf(stderr, "\rxfbtrace replay: call %" PRIu64 ", frame %" PRIu64 ", %.0f s ",
		rp->last_no, rp->sum.frames, elapsed(&rp->start, &now));
}

/* Copies a record's payload into `buf` and points `copy` at it. */
static enum xt_rc own_record(struct xt_buf *buf, const struct trace_record *rec,
			     struct trace_record *copy)
{
	xt_buf_reset(buf);
	if (xt_buf_append(buf, rec->payload, rec->payload_bytes) != XT_OK)
		return XT_ERR_NOMEM;
	*copy = *rec;
	copy->payload = buf->data;
	return XT_OK;
}

bool replay_wants_artifacts(const struct replay *rp)
{
	return rp->opt.on_artifact != NULL;
}

enum xt_rc replay_artifact(struct replay *rp, const struct replay_artifact *a, struct xt_err *err)
{
	return rp->opt.on_artifact ? rp->opt.on_artifact(rp->opt.on_artifact_ctx, a, err) : XT_OK;
}

/*
 * Golden data: a trace captured with --no-observe says capture.observe = 0
 * in its header properties, and so does an apitrace import, unless it
 * names the run that gave it golden observations (property `reference`).
 * Without golden data there is nothing to compare the replay's
 * observations with: they are handed on (--db) but not counted as
 * "made where the capture made none".
 */
enum { GOLDEN_YES, GOLDEN_NONE, GOLDEN_REFERENCE };

static void note_property(struct replay *rp, const struct trace_record *rec)
{
	struct trace_value v;
	xt_arena_reset(&rp->cmp_arena);
	if (trace_reader_decode_value(rp->reader, rec, &rp->cmp_arena, &v) != XT_OK ||
	    v.tag != TRACE_TAG_MAP || v.agg.count != 1)
		return;
	const char *key = v.agg.keys[0];
	const struct trace_value *val = &v.agg.items[0];
	if (!strcmp(key, "reference"))
		rp->golden_state = GOLDEN_REFERENCE;
	else if (!strcmp(key, "capture.pixels"))
		rp->golden_pixels = true;
	else if (!strcmp(key, "capture.frames") && val->tag == TRACE_TAG_STRING) {
		char n[24] = "";
		if (val->mem.len < sizeof n)
			memcpy(n, val->mem.bytes, val->mem.len);
		rp->frames_wanted = !strcmp(n, "all") ? UINT64_MAX : strtoull(n, NULL, 10);
	}
	else if (!strcmp(key, "capture.observe") && rp->golden_state == GOLDEN_YES &&
		 val->tag == TRACE_TAG_STRING && val->mem.len == 1 && val->mem.bytes[0] == '0')
		rp->golden_state = GOLDEN_NONE;
}

bool replay_pixels_wanted(const struct replay *rp)
{
	return replay_observing(rp) && (rp->golden_pixels || rp->golden_state != GOLDEN_YES);
}

/* Counts the last call's observations that had no golden counterpart and
 * forgets them all: after emit_observations, which hands them on with
 * their verdicts (replay_check_leftovers gives the leftovers theirs). */
static void check_leftovers(struct replay *rp)
{
	if (rp->golden_state != GOLDEN_NONE)
		replay_check_leftovers(rp);   /* done already when they were emitted */
	rp->nobs = rp->obs_next = 0;
	rp->checking_obs = 0;
	xt_buf_reset(&rp->obs_bytes);
	xt_buf_reset(&rp->verdict_text);
}

const struct trace_layout *replay_call_layout(const struct replay *rp)
{
	return rp->have_layout ? &rp->layout : NULL;
}

uint32_t replay_state_thread(const struct replay *rp)
{
	return rp->last_valid ? rp->last.thread_no : 0;
}

/* Hands the observations of the last call to opt.on_observation. */
static enum xt_rc emit_observations(struct replay *rp, struct xt_err *err)
{
	if (rp->golden_state != GOLDEN_NONE)
		replay_check_leftovers(rp);
	if (!rp->opt.on_observation || !rp->last_valid)
		return XT_OK;
	uint32_t t = rp->last.thread_no;
	int64_t prim = t < REPLAY_MAX_THREADS ? (int64_t)rp->prim_mode[t] - 1 : -1;
	for (size_t i = 0; i < rp->nobs; i++) {
		const struct replay_obs *o = &rp->obs[i];
		enum xt_rc rc = rp->opt.on_observation(rp->opt.on_observation_ctx, o->seq,
						       rp->last.name, prim, rp->queries, t,
						       rp->obs_bytes.data + o->offset, o->len,
						       o->verdict_class, o->verdict_class ?
						       (const char *)rp->verdict_text.data + o->verdict_at :
						       NULL, err);
		if (rc)
			return rc;
	}
	return XT_OK;
}

static enum xt_rc execute_pending(struct replay *rp, struct xt_err *err)
{
	enum xt_rc rc;

	rc = emit_observations(rp, err);
	check_leftovers(rp);
	if (rc)
		return rc;
	rp->have_call = false;
	rp->last = rp->call;
	rp->last_no = rp->call.no;
	rp->last_valid = true;
	if (rp->call.thread_no < REPLAY_MAX_THREADS && rp->call.nargs >= 1 &&
	    rp->call.args[0].tag == TRACE_TAG_ENUM && !strcmp(rp->call.name, "glBeginTransformFeedback"))
		rp->prim_mode[rp->call.thread_no] = (uint32_t)rp->call.args[0].u + 1;
	trace_queries_call(rp->queries, &rp->call);
	trace_defined_call(rp->defined, &rp->call, rp->have_ret ? &rp->ret : NULL);
	rc = rp->be->ops->call(rp->be, rp, &rp->call, rp->have_ret ? &rp->ret : NULL, err);
	rp->have_layout = false;
	rp->sum.calls++;
	progress(rp);
	return rc;
}

/* One record; *stop set when the end of the --calls range is reached. */
static enum xt_rc handle(struct replay *rp, const struct trace_record *rec, bool *stop,
			 struct xt_err *err)
{
	struct trace_record copy;
	struct trace_value v;
	enum xt_rc rc;

	if (rec->type == TRACE_REC_RET && rp->have_call && !rp->have_ret && rec->seq == rp->call.no) {
		if (own_record(&rp->ret_payload, rec, &copy) != XT_OK)
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
		rc = trace_reader_decode_ret(rp->reader, &copy, &rp->arena, &rp->ret);
		if (rc != XT_OK)
			return xt_err_copy(err, trace_reader_err(rp->reader));
		rp->have_ret = true;
		return XT_OK;
	}
	if (rec->type == TRACE_REC_LAYOUT && rp->have_call && !rp->have_layout && rec->seq == rp->call.no) {
		/* with the call: the backend lays out the link's blocks by it */
		char why[200];
		rc = trace_reader_decode_value(rp->reader, rec, &rp->arena, &v);
		if (rc != XT_OK)
			return xt_err_copy(err, trace_reader_err(rp->reader));
		rc = trace_layout_of(&v, &rp->arena, &rp->layout, why, sizeof why);
		if (rc != XT_OK)
			return XT_FAIL(err, rc, "LAYOUT of call %" PRIu64 ": %s", rec->seq, why);
		rp->have_layout = true;
		return XT_OK;
	}
	if (rp->have_call && (rc = execute_pending(rp, err)) != XT_OK)
		return rc;
	switch (rec->type) {
	case TRACE_REC_CALL:
		if (rec->seq > rp->opt.last_call) {
			*stop = true;
			return XT_OK;
		}
		xt_arena_reset(&rp->arena);
		rp->last.args = NULL;
		rp->last.nargs = 0;
		if (own_record(&rp->call_payload, rec, &copy) != XT_OK)
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
		rc = trace_reader_decode_call(rp->reader, &copy, &rp->arena, &rp->call);
		if (rc != XT_OK)
			return xt_err_copy(err, trace_reader_err(rp->reader));
		rp->have_call = true;
		rp->have_ret = false;
		rp->have_layout = false;
		return XT_OK;
	case TRACE_REC_OBSERVATION:
		replay_check_observation(rp, rec->seq, rec);
		return XT_OK;
	case TRACE_REC_PROPERTY:
		note_property(rp, rec);
		return XT_OK;
	case TRACE_REC_CONTEXT:
	case TRACE_REC_MEMWRITE:
		xt_arena_reset(&rp->cmp_arena);
		rc = trace_reader_decode_value(rp->reader, rec, &rp->cmp_arena, &v);
		if (rc != XT_OK)
			return xt_err_copy(err, trace_reader_err(rp->reader));
		break;
	default:
		return XT_OK;   /* THREAD, FRAME, unknown types */
	}
	if (rec->type == TRACE_REC_CONTEXT) {
		trace_defined_context(rp->defined, rp->last_valid && rp->last_no == rec->seq
				      ? rp->last.thread_no : 0, &v);
		return rp->be->ops->context(rp->be, rp, rp->last_valid && rp->last_no == rec->seq
					    ? &rp->last : NULL, rec->seq, &v, err);
	}
	const struct trace_value *addr = trace_value_get(&v, "addr");
	const struct trace_value *data = trace_value_get(&v, "data");
	const struct trace_value *why = trace_value_get(&v, "why");
	char whys[32] = "?";
	if (!addr || addr->tag != TRACE_TAG_UINT || !data || data->tag != TRACE_TAG_BLOB)
		return XT_FAIL(err, XT_ERR_CORRUPT, "MEMWRITE of call %" PRIu64 " (chunk at %" PRIu64
			       ") lacks addr or data", rec->seq, rec->file_offset);
	if (why && why->tag == TRACE_TAG_STRING && why->mem.len < sizeof whys) {
		memcpy(whys, why->mem.bytes, why->mem.len);
		whys[why->mem.len] = '\0';
	}
	trace_defined_memwrite(rp->defined, rec->seq, addr->u, data->mem.len, whys);
	return rp->be->ops->memwrite(rp->be, rp, rec->seq, addr->u, data->mem.bytes, data->mem.len,
				     whys, err);
}

static enum xt_rc backend_create(const struct replay_options *o, struct replay_backend **out,
				 struct xt_err *err)
{
	const char *name = o->backend;

	if (o->n_reg_overrides && (!name || strcmp(name, "sim")))
		return XT_FAIL(err, XT_ERR_INVALID, "register overrides need the sim backend");
	if (!name || !strcmp(name, "host"))
		return replay_host_create(out, err);
	if (!strcmp(name, "sim"))
		return replay_sim_create(o->reg_overrides, o->n_reg_overrides, out, err);
	return XT_FAIL(err, XT_ERR_INVALID, "unknown backend '%s' (this build has: host, sim)", name);
}

enum xt_rc replay_run(const char *path, const struct replay_options *o,
		      struct replay_summary *out, struct xt_err *err)
{
	struct replay rp;
	struct trace_record rec;
	struct timespec end;
	enum xt_rc rc;
	bool stop = false;

	memset(&rp, 0, sizeof rp);
	memset(out, 0, sizeof *out);
	rp.opt = *o;
	xt_arena_init(&rp.arena, 1 << 16);
	xt_arena_init(&rp.cmp_arena, 1 << 16);
	clock_gettime(CLOCK_MONOTONIC, &rp.start);
	rp.last_progress = rp.start;
	trace_ranges_init(&rp.undef_scratch);
	rc = trace_reader_open(&rp.reader, path, err);
	if (rc == XT_OK && o->check && trace_defined_create(&rp.defined) != XT_OK)
		rc = XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	if (rc == XT_OK && (o->check || o->on_observation) &&
	    trace_queries_create(&rp.queries) != XT_OK)
		rc = XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	if (rc == XT_OK)
		trace_defined_prescan(rp.defined, path);
	if (rc == XT_OK)
		rc = backend_create(o, &rp.be, err);
	while (rc == XT_OK && !stop) {
		rc = trace_reader_next(rp.reader, &rec);
		if (rc == XT_ERR_EOF) {
			rc = XT_OK;
			break;
		}
		if (rc != XT_OK) {
			xt_err_copy(err, trace_reader_err(rp.reader));
			break;
		}
		rc = handle(&rp, &rec, &stop, err);
	}
	if (rc == XT_OK && rp.have_call)
		rc = execute_pending(&rp, err);
	if (rc == XT_OK && o->state_out) {
		if (!rp.last_valid || rp.last_no != o->last_call)
			rc = XT_FAIL(err, XT_ERR_INVALID, "call %" PRIu64 " is not in the trace "
				     "(its last call is %" PRIu64 ")", o->last_call,
				     rp.last_valid ? rp.last_no : 0);
		else if (!rp.be->ops->state)
			rc = XT_FAIL(err, XT_ERR_UNSUPPORTED, "the %s backend cannot report the GL state",
				     rp.be->ops->name);
		else
			rc = rp.be->ops->state(rp.be, &rp, rp.last_no, o->state_out, err);
	}
	if (rp.be) {
		if (rc == XT_OK)
			rc = emit_observations(&rp, err);
		check_leftovers(&rp);
		rp.be->ops->finish(rp.be, &rp);
	}
	if (rp.progress_shown)
		fputc('\n', stderr);
	clock_gettime(CLOCK_MONOTONIC, &end);
	/* A replay stopped by an error (a corrupt record, no usable GL) prints
	 * no summary: counts of what it compared before would read as a
	 * verdict on the whole trace. */
	rp.sum.no_golden = rp.golden_state == GOLDEN_NONE;
	if (rp.be && rc == XT_OK) {
		replay_check_summary(&rp, elapsed(&rp.start, &end));
		if (rp.opt.check && rp.sum.no_golden && rp.opt.out)
			fprintf(rp.opt.out, "no golden data: the trace was captured without observations "
				"(capture --no-observe), so the replay's were not compared\n");
	}
	*out = rp.sum;
	if (rp.be)
		rp.be->ops->destroy(rp.be);
	trace_reader_close(rp.reader);
	replay_check_fini(&rp);
	trace_defined_destroy(rp.defined);
	trace_queries_destroy(rp.queries);
	trace_ranges_fini(&rp.undef_scratch);
	xt_buf_fini(&rp.call_payload);
	xt_buf_fini(&rp.ret_payload);
	xt_buf_fini(&rp.obs_bytes);
	xt_buf_fini(&rp.verdict_text);
	xt_free(rp.obs);
	xt_arena_fini(&rp.arena);
	xt_arena_fini(&rp.cmp_arena);
	return rc;
}
