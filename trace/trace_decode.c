/*
 * trace_decode.c - decoding the payloads of CALL, RET and the single-value
 * records (trace_reader.h; payloads in trace_format.h and
 * docs/trace-format.md "Record types").
 *
 * A record's size is rounded up to 8 bytes, so a payload may end in up to 7
 * zero bytes of padding that belong to no field.  Anything else after the
 * last field is corruption: a version-1 reader must not silently drop data
 * it does not understand inside a record type it does understand.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trace_int.h"
#include "trace_layout.h"
#include "trace_pixels.h"
#include "trace_reader.h"

/* Prefixes a value decoder's message with where the record is. */
static enum xt_rc value_fail(struct trace_reader *r, const struct trace_record *rec,
			     enum xt_rc rc, const struct xt_err *verr)
{
	char what[600];
	snprintf(what, sizeof what, "%s", verr->msg);
	return trace_reader_fail_record(r, rec, rc, verr->file, verr->line, what);
}

#define FAIL_REC(r, rec, what) \
	trace_reader_fail_record((r), (rec), XT_ERR_CORRUPT, __FILE__, __LINE__, (what))

static enum xt_rc check_padding(struct trace_reader *r, const struct trace_record *rec,
				const uint8_t *p, const uint8_t *end)
{
	if (end - p >= 8)
		return FAIL_REC(r, rec, "trailing bytes after the last field");
	for (; p < end; p++)
		if (*p)
			return FAIL_REC(r, rec, "non-zero padding after the last field");
	return XT_OK;
}

/* Decodes `n` values (n checked by the caller) into arena memory. */
static enum xt_rc decode_values(struct trace_reader *r, const struct trace_record *rec,
				const uint8_t **p, const uint8_t *end, struct xt_arena *arena,
				uint32_t n, struct trace_value **out)
{
	struct xt_err verr;
	enum xt_rc rc;
	*out = NULL;
	if (!n)
		return XT_OK;
	*out = xt_arena_alloc(arena, n * sizeof **out);
	if (!*out)
		return trace_reader_fail_record(r, rec, XT_ERR_NOMEM, __FILE__, __LINE__,
						"out of memory for the values");
	for (uint32_t i = 0; i < n; i++) {
		rc = trace_value_decode(p, end, arena, &(*out)[i], &verr);
		if (rc != XT_OK)
			return value_fail(r, rec, rc, &verr);
	}
	return XT_OK;
}

enum xt_rc trace_reader_decode_call(struct trace_reader *r, const struct trace_record *rec,
				    struct xt_arena *arena, struct trace_call *out)
{
	const uint8_t *p = rec->payload, *end = p + rec->payload_bytes;
	uint64_t nparams;
	enum xt_rc rc;

	memset(out, 0, sizeof *out);
	if (rec->type != TRACE_REC_CALL)
		return trace_reader_fail_record(r, rec, XT_ERR_INVALID, __FILE__, __LINE__,
						"not a CALL record");
	rc = trace_reader_note_funcdef(r, rec);
	if (rc != XT_OK)
		return rc;
	if (trace_get_u32(&p, end, &out->func_id) != XT_OK ||
	    trace_get_u32(&p, end, &out->thread_no) != XT_OK)
		return FAIL_REC(r, rec, "CALL payload too short");
	if ((rec->flags & TRACE_RECF_FUNCDEF) && trace_skip_funcdef(&p, end, &nparams) != XT_OK)
		return FAIL_REC(r, rec, "malformed funcdef");
	out->no = rec->seq;
	out->name = trace_reader_func_name(r, out->func_id);
	if (!out->name)
		return FAIL_REC(r, rec, "call of a function id that was never defined");
	if (trace_get_u32(&p, end, &out->nargs) != XT_OK)
		return FAIL_REC(r, rec, "CALL argument count missing");
	if (out->nargs > (uint64_t)(end - p))
		return FAIL_REC(r, rec, "CALL argument count exceeds the payload");
	rc = decode_values(r, rec, &p, end, arena, out->nargs, &out->args);
	if (rc != XT_OK)
		return rc;
	return check_padding(r, rec, p, end);
}

enum xt_rc trace_reader_decode_ret(struct trace_reader *r, const struct trace_record *rec,
				   struct xt_arena *arena, struct trace_ret *out)
{
	const uint8_t *p = rec->payload, *end = p + rec->payload_bytes;
	struct xt_err verr;
	enum xt_rc rc;

	memset(out, 0, sizeof *out);
	if (rec->type != TRACE_REC_RET)
		return trace_reader_fail_record(r, rec, XT_ERR_INVALID, __FILE__, __LINE__,
						"not a RET record");
	out->no = rec->seq;
	if (trace_get_u32(&p, end, &out->thread_no) != XT_OK)
		return FAIL_REC(r, rec, "RET payload too short");
	rc = trace_value_decode(&p, end, arena, &out->ret, &verr);
	if (rc != XT_OK)
		return value_fail(r, rec, rc, &verr);
	if (trace_get_u32(&p, end, &out->nouts) != XT_OK)
		return FAIL_REC(r, rec, "RET output count missing");
	/* An output takes at least 5 bytes: its index and a tag. */
	if (out->nouts > (uint64_t)(end - p) / 5)
		return FAIL_REC(r, rec, "RET output count exceeds the payload");
	if (out->nouts) {
		out->out_index = xt_arena_alloc(arena, out->nouts * sizeof *out->out_index);
		out->outs = xt_arena_alloc(arena, out->nouts * sizeof *out->outs);
		if (!out->out_index || !out->outs)
			return trace_reader_fail_record(r, rec, XT_ERR_NOMEM, __FILE__, __LINE__,
							"out of memory for the outputs");
	}
	for (uint32_t i = 0; i < out->nouts; i++) {
		if (trace_get_u32(&p, end, &out->out_index[i]) != XT_OK)
			return FAIL_REC(r, rec, "RET output index missing");
		rc = trace_value_decode(&p, end, arena, &out->outs[i], &verr);
		if (rc != XT_OK)
			return value_fail(r, rec, rc, &verr);
	}
	return check_padding(r, rec, p, end);
}

enum xt_rc trace_reader_decode_value(struct trace_reader *r, const struct trace_record *rec,
				     struct xt_arena *arena, struct trace_value *out)
{
	const uint8_t *p = rec->payload, *end = p + rec->payload_bytes;
	struct xt_err verr;
	enum xt_rc rc;

	memset(out, 0, sizeof *out);
	switch (rec->type) {
	case TRACE_REC_OBSERVATION:
	case TRACE_REC_OBS_PENDING:
	case TRACE_REC_THREAD:
	case TRACE_REC_CONTEXT:
	case TRACE_REC_FRAME:
	case TRACE_REC_MEMWRITE:
	case TRACE_REC_LAYOUT:
		rc = trace_value_decode(&p, end, arena, out, &verr);
		if (rc != XT_OK)
			return value_fail(r, rec, rc, &verr);
		break;
	case TRACE_REC_PROPERTY: {
		struct trace_value key;
		rc = trace_value_decode(&p, end, arena, &key, &verr);
		if (rc != XT_OK)
			return value_fail(r, rec, rc, &verr);
		if (key.tag != TRACE_TAG_STRING || memchr(key.mem.bytes, 0, key.mem.len))
			return FAIL_REC(r, rec, "PROPERTY key is not a string");
		out->tag = TRACE_TAG_MAP;
		out->agg.count = 1;
		out->agg.items = xt_arena_alloc(arena, sizeof *out->agg.items);
		out->agg.keys = xt_arena_alloc(arena, sizeof *out->agg.keys);
		char *k = xt_arena_alloc(arena, key.mem.len + 1);
		if (!out->agg.items || !out->agg.keys || !k)
			return trace_reader_fail_record(r, rec, XT_ERR_NOMEM, __FILE__, __LINE__,
							"out of memory for a property");
		memcpy(k, key.mem.bytes, key.mem.len);
		k[key.mem.len] = '\0';
		out->agg.keys[0] = k;
		rc = trace_value_decode(&p, end, arena, &out->agg.items[0], &verr);
		if (rc != XT_OK)
			return value_fail(r, rec, rc, &verr);
		break;
	}
	default:
		return trace_reader_fail_record(r, rec, XT_ERR_INVALID, __FILE__, __LINE__,
						"record type has no single value");
	}
	return check_padding(r, rec, p, end);
}

enum xt_rc trace_reader_check_record(struct trace_reader *r, const struct trace_record *rec,
				     struct xt_arena *scratch)
{
	union {
		struct trace_call call;
		struct trace_ret ret;
		struct trace_value value;
	} u;

	switch (rec->type) {
	case TRACE_REC_CALL:
		return trace_reader_decode_call(r, rec, scratch, &u.call);
	case TRACE_REC_RET:
		return trace_reader_decode_ret(r, rec, scratch, &u.ret);
	case TRACE_REC_OBSERVATION: {
		enum xt_rc rc = trace_reader_decode_value(r, rec, scratch, &u.value);
		struct trace_pixels px;
		char why[160];
		if (rc == XT_OK && trace_pixels_is(&u.value) &&
		    trace_pixels_of(&u.value, &px, why, sizeof why) != XT_OK)
			return trace_reader_fail_record(r, rec, XT_ERR_CORRUPT, __FILE__, __LINE__, why);
		return rc;
	}
	case TRACE_REC_LAYOUT: {
		enum xt_rc rc = trace_reader_decode_value(r, rec, scratch, &u.value);
		struct trace_layout l;
		char why[200];
		if (rc == XT_OK && (rc = trace_layout_of(&u.value, scratch, &l, why, sizeof why)) != XT_OK)
			return trace_reader_fail_record(r, rec, rc, __FILE__, __LINE__, why);
		return rc;
	}
	case TRACE_REC_THREAD:
	case TRACE_REC_CONTEXT:
	case TRACE_REC_FRAME:
	case TRACE_REC_MEMWRITE:
	case TRACE_REC_PROPERTY:
		return trace_reader_decode_value(r, rec, scratch, &u.value);
	default:
		return XT_OK;
	}
}
