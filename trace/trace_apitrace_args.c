/*
 * trace_apitrace_args.c - apitrace values as xfbtrace values, by the kind
 * libglapi gives each parameter (the table at the top of
 * trace_apitrace_import.c): arguments into the CALL record, outputs into
 * the RET, user arrays into pending "client-array" MEMWRITEs, return
 * values; what cannot be translated is counted by function and reason.
 */
#include <stdlib.h>
#include <string.h>

#include "trace_apitrace_import_int.h"
#include "xt_fault.h"

/* ---- apitrace values ---------------------------------------------------------- */

const struct trace_at_value *trace_ati_machine(const struct trace_at_value *v)
{
	while (v->kind == TRACE_AT_REPR && v->agg.count == 2)
		v = &v->agg.items[1];
	return v;
}

bool trace_ati_int(const struct trace_at_value *v, int64_t *out)
{
	v = trace_ati_machine(v);
	switch (v->kind) {
	case TRACE_AT_SINT: *out = v->i; return true;
	case TRACE_AT_UINT: case TRACE_AT_POINTER: *out = (int64_t)v->u; return true;
	case TRACE_AT_ENUM: *out = v->en.value; return true;
	case TRACE_AT_BITMASK: *out = (int64_t)v->bm.value; return true;
	case TRACE_AT_TRUE: *out = 1; return true;
	case TRACE_AT_FALSE: case TRACE_AT_NULL: *out = 0; return true;
	default: return false;
	}
}

bool trace_ati_real(const struct trace_at_value *v, double *out)
{
	int64_t i;
	v = trace_ati_machine(v);
	if (v->kind == TRACE_AT_FLOAT) {
		*out = v->f;
		return true;
	}
	if (v->kind == TRACE_AT_DOUBLE) {
		*out = v->d;
		return true;
	}
	if (v->kind == TRACE_AT_UINT) {
		*out = (double)v->u;
		return true;
	}
	if (!trace_ati_int(v, &i))
		return false;
	*out = (double)i;
	return true;
}

static size_t elem_bytes(enum glapi_elem e)
{
	switch (e) {
	case GLAPI_E_U8: case GLAPI_E_I8: case GLAPI_E_CHAR: return 1;
	case GLAPI_E_U16: case GLAPI_E_I16: return 2;
	case GLAPI_E_U32: case GLAPI_E_I32: case GLAPI_E_F32: return 4;
	default: return 8;
	}
}

/*
 * Appends the bytes a value stands for in client memory of elements `e`:
 * blobs and strings as they are, arrays element by element (nested arrays
 * flattened), scalars as one element.  NULL: `why` says what failed.
 */
static enum xt_rc flatten(struct xt_buf *b, enum glapi_elem e, const struct trace_at_value *v,
			  int depth, const char **why)
{
	uint8_t raw[8];
	size_t n = elem_bytes(e);
	enum xt_rc rc;

	v = trace_ati_machine(v);
	if (depth > 8) {
		*why = "arrays nested too deeply";
		return XT_ERR_UNSUPPORTED;
	}
	switch (v->kind) {
	case TRACE_AT_BLOB:
	case TRACE_AT_STRING:
		return xt_buf_append(b, v->s.bytes, v->s.len) ? XT_ERR_NOMEM : XT_OK;
	case TRACE_AT_ARRAY:
		for (uint32_t i = 0; i < v->agg.count; i++)
			if ((rc = flatten(b, e, &v->agg.items[i], depth + 1, why)))
				return rc;
		return XT_OK;
	case TRACE_AT_STRUCT:
		*why = "a struct in client memory";
		return XT_ERR_UNSUPPORTED;
	default:
		break;
	}
	if (e == GLAPI_E_F32 || e == GLAPI_E_F64) {
		double d;
		if (!trace_ati_real(v, &d)) {
			*why = "a non-number where numbers belong";
			return XT_ERR_UNSUPPORTED;
		}
		if (e == GLAPI_E_F32) {
			float f = (float)d;
			memcpy(raw, &f, 4);
		} else {
			memcpy(raw, &d, 8);
		}
	} else {
		int64_t i;
		if (!trace_ati_int(v, &i)) {
			double d;
			if (!trace_ati_real(v, &d)) {
				*why = "a non-integer where integers belong";
				return XT_ERR_UNSUPPORTED;
			}
			i = (int64_t)d;
		}
		uint64_t u = (uint64_t)i;
		for (size_t k = 0; k < 8; k++)
			raw[k] = (uint8_t)(u >> (8 * k));   /* little-endian */
	}
	return xt_buf_append(b, raw, n) ? XT_ERR_NOMEM : XT_OK;
}

static uint64_t synthetic(struct conv *c, size_t len)
{
	uint64_t a = c->next_addr;
	c->next_addr += (len + 63) & ~(uint64_t)63;
	if (c->next_addr < a || c->next_addr > OUT_BASE + (UINT64_C(1) << 40))
		c->next_addr = OUT_BASE;   /* wrapped: addresses only need to be plausible */
	return a;
}

/* A value of a function the API tables do not know, by its own type. */
enum xt_rc trace_ati_put_generic(struct conv *c, struct xt_buf *b, const struct trace_at_value *v,
			   int depth)
{
	enum xt_rc rc;
	v = trace_ati_machine(v);
	switch (v->kind) {
	case TRACE_AT_ABSENT:
	case TRACE_AT_NULL: return put_tag(b, TRACE_TAG_NULL);
	case TRACE_AT_FALSE: return put_tag(b, TRACE_TAG_FALSE);
	case TRACE_AT_TRUE: return put_tag(b, TRACE_TAG_TRUE);
	case TRACE_AT_SINT: return put_sint(b, v->i);
	case TRACE_AT_UINT: return put_tagged(b, TRACE_TAG_UINT, v->u);
	case TRACE_AT_FLOAT: return put_float(b, v->f);
	case TRACE_AT_DOUBLE: return put_double(b, v->d);
	case TRACE_AT_STRING: return put_string(b, v->s.bytes, v->s.len);
	case TRACE_AT_BLOB: return put_memory(b, synthetic(c, v->s.len), v->s.bytes, v->s.len);
	case TRACE_AT_ENUM: return put_tagged(b, TRACE_TAG_ENUM, (uint64_t)v->en.value);
	case TRACE_AT_BITMASK: return put_tagged(b, TRACE_TAG_BITFIELD, v->bm.value);
	case TRACE_AT_POINTER: return put_tagged(b, TRACE_TAG_POINTER, v->u);
	case TRACE_AT_ARRAY:
		if (depth > 16)
			return put_unsized(b, "apitrace: arrays nested too deeply");
		if ((rc = put_tagged(b, TRACE_TAG_ARRAY, v->agg.count)))
			return rc;
		for (uint32_t i = 0; i < v->agg.count; i++)
			if ((rc = trace_ati_put_generic(c, b, &v->agg.items[i], depth + 1)))
				return rc;
		return XT_OK;
	default:
		return put_unsized(b, "apitrace: a struct");
	}
}

enum xt_rc trace_ati_add_pending(struct conv *c, struct thread_state *ts, uint64_t addr,
			   const uint8_t *data, size_t len, bool client_array)
{
	struct pending_write *g = xt_realloc(ts->pw, (ts->npw + 1) * sizeof *g);
	if (!g)
		return trace_ati_nomem(c);
	ts->pw = g;
	g[ts->npw].data = xt_malloc(len ? len : 1);
	if (!g[ts->npw].data)
		return trace_ati_nomem(c);
	if (len)
		memcpy(g[ts->npw].data, data, len);
	g[ts->npw].addr = addr;
	g[ts->npw].len = len;
	g[ts->npw].client_array = client_array;
	ts->npw++;
	return XT_OK;
}

/* An output for the RET record: (argument index, value) into c->outs. */
static enum xt_rc out_memory(struct conv *c, uint32_t i, uint64_t addr,
			     const struct trace_at_value *o, enum glapi_elem e, const char *func,
			     uint64_t no)
{
	const char *why = NULL;
	enum xt_rc rc;

	xt_buf_reset(&c->tmp);
	rc = flatten(&c->tmp, e, o, 0, &why);
	if (rc == XT_ERR_NOMEM || put_u32(&c->outs, i))
		return trace_ati_nomem(c);
	c->nouts++;
	if (rc) {
		trace_ati_report(c, func, why, no);
		return put_unsized(&c->outs, why) ? trace_ati_nomem(c) : XT_OK;
	}
	return put_memory(&c->outs, addr, c->tmp.data, c->tmp.len) ? trace_ati_nomem(c) : XT_OK;
}

/* Appends argument i of known function `id` to c->call (and its output to c->outs). */
enum xt_rc trace_ati_put_arg(struct conv *c, struct thread_state *ts, int id, uint32_t i,
		       const struct trace_at_call *call)
{
	const char *func = call->sig->name;
	static const struct trace_at_value absent;
	const struct trace_at_value *a = i < call->nargs ? trace_ati_machine(&call->args[i]) : &absent;
	const struct trace_at_value *o = i < call->nargs ? trace_ati_machine(&call->outs[i]) : &absent;
	const struct trace_at_value *v = a->kind != TRACE_AT_ABSENT ? a : o;
	struct xt_buf *b = &c->call;
	struct glapi_param_info pi;
	const char *why = NULL;
	int64_t n;
	double d;
	enum xt_rc rc;

	if (!glapi_param_info(id, i, &pi))
		return put_tag(b, TRACE_TAG_NULL);
	switch (pi.kind) {
	case GLAPI_K_SINT:
	case GLAPI_K_UINT:
	case GLAPI_K_ENUM:
	case GLAPI_K_BITFIELD:
	case GLAPI_K_BOOL:
	case GLAPI_K_HANDLE:
		if (v->kind == TRACE_AT_ABSENT) {
			why = "an argument apitrace did not record";
			break;
		}
		if (!trace_ati_int(v, &n)) {
			why = "a non-integer where an integer belongs";
			break;
		}
		switch (pi.kind) {
		case GLAPI_K_SINT: return put_sint(b, n);
		case GLAPI_K_UINT: return put_tagged(b, TRACE_TAG_UINT, (uint64_t)n);
		case GLAPI_K_ENUM: return put_tagged(b, TRACE_TAG_ENUM, (uint32_t)n);
		case GLAPI_K_BITFIELD: return put_tagged(b, TRACE_TAG_BITFIELD, (uint32_t)n);
		case GLAPI_K_BOOL: return put_tag(b, n ? TRACE_TAG_TRUE : TRACE_TAG_FALSE);
		default: return put_tagged(b, TRACE_TAG_HANDLE, (uint64_t)n);
		}
	case GLAPI_K_FLOAT:
	case GLAPI_K_DOUBLE:
		if (!trace_ati_real(v, &d)) {
			why = "a non-number where a number belongs";
			break;
		}
		return pi.kind == GLAPI_K_FLOAT ? put_float(b, (float)d) : put_double(b, d);
	case GLAPI_K_POINTER:
		if (v->kind == TRACE_AT_BLOB)
			return put_tagged(b, TRACE_TAG_POINTER, synthetic(c, v->s.len));
		if (!trace_ati_int(v, &n))
			return put_tagged(b, TRACE_TAG_POINTER, 0);
		return put_tagged(b, TRACE_TAG_POINTER, (uint64_t)n);
	case GLAPI_K_STRING:
		if (v->kind == TRACE_AT_NULL || v->kind == TRACE_AT_ABSENT)
			return put_tag(b, TRACE_TAG_NULL);
		if (v->kind == TRACE_AT_ARRAY && v->agg.count == 1)
			v = trace_ati_machine(&v->agg.items[0]);
		if (v->kind == TRACE_AT_STRING || v->kind == TRACE_AT_BLOB)
			return put_string(b, v->s.bytes, v->s.len);
		why = "a string apitrace did not record as one";
		break;
	case GLAPI_K_STRARRAY:
		if (v->kind == TRACE_AT_NULL || v->kind == TRACE_AT_ABSENT)
			return put_tag(b, TRACE_TAG_NULL);
		if (v->kind != TRACE_AT_ARRAY) {
			why = "a string array apitrace did not record as an array";
			break;
		}
		if ((rc = put_tagged(b, TRACE_TAG_ARRAY, v->agg.count)))
			return rc;
		for (uint32_t k = 0; k < v->agg.count; k++) {
			const struct trace_at_value *s = trace_ati_machine(&v->agg.items[k]);
			if (s->kind == TRACE_AT_STRING || s->kind == TRACE_AT_BLOB)
				rc = put_string(b, s->s.bytes, s->s.len);
			else
				rc = put_tag(b, TRACE_TAG_NULL);
			if (rc)
				return rc;
		}
		return XT_OK;
	case GLAPI_K_OUTSTRING:
		if (a->kind == TRACE_AT_NULL || (a->kind == TRACE_AT_ABSENT &&
						 (o->kind == TRACE_AT_NULL || o->kind == TRACE_AT_ABSENT)))
			return put_tag(b, TRACE_TAG_NULL);
		if (o->kind == TRACE_AT_STRING || o->kind == TRACE_AT_BLOB) {
			uint64_t addr = synthetic(c, o->s.len + 1);
			if (put_u32(&c->outs, i) || put_string(&c->outs, o->s.bytes, o->s.len))
				return trace_ati_nomem(c);
			c->nouts++;
			return put_tagged(b, TRACE_TAG_POINTER, addr);
		}
		return put_tagged(b, TRACE_TAG_POINTER, a->kind == TRACE_AT_POINTER ? a->u
						       : synthetic(c, 1));
	case GLAPI_K_VERTEXPTR:
		if (v->kind == TRACE_AT_NULL || v->kind == TRACE_AT_ABSENT)
			return put_tag(b, TRACE_TAG_NULL);
		if (v->kind == TRACE_AT_POINTER || v->kind == TRACE_AT_UINT)
			return put_tagged(b, TRACE_TAG_OFFSET, v->u);
		if (v->kind == TRACE_AT_BLOB) {
			/* A user array apitrace copied at the draw. */
			uint64_t addr = c->client_addr;
			c->client_addr += (v->s.len + 63) & ~(uint64_t)63;
			if ((rc = trace_ati_add_pending(c, ts, addr, v->s.bytes, v->s.len, true)))
				return rc;
			return put_tagged(b, TRACE_TAG_POINTER, addr);
		}
		why = "a vertex pointer that is neither a buffer offset nor a blob";
		break;
	case GLAPI_K_MEM_OUT:
		if (a->kind == TRACE_AT_NULL)
			return put_tag(b, TRACE_TAG_NULL);
		if (o->kind == TRACE_AT_ARRAY || o->kind == TRACE_AT_BLOB || o->kind == TRACE_AT_STRING) {
			uint64_t addr = synthetic(c, 64);
			if ((rc = out_memory(c, i, addr, o, pi.elem, func, call->no)))
				return rc;
			return put_tagged(b, TRACE_TAG_POINTER, addr);
		}
		if (v->kind == TRACE_AT_POINTER) {
			/* A read-back: apitrace keeps the address only. */
			if ((pi.binding == GLAPI_B_PACK && c->pack_buffer) ||
			    (pi.binding == GLAPI_B_QUERY && c->query_buffer))
				return put_tagged(b, TRACE_TAG_OFFSET, v->u);
			return put_tagged(b, TRACE_TAG_POINTER, v->u);
		}
		if (v->kind == TRACE_AT_NULL)
			return put_tag(b, TRACE_TAG_NULL);
		return put_tagged(b, TRACE_TAG_POINTER, synthetic(c, 64));
	case GLAPI_K_PTRARRAY:
		/* glMultiDrawElements* indices: per draw, an element buffer
		 * offset (apitrace keeps the pointer value) or the index blob. */
		if (v->kind == TRACE_AT_NULL || v->kind == TRACE_AT_ABSENT)
			return put_tag(b, TRACE_TAG_NULL);
		if (v->kind != TRACE_AT_ARRAY) {
			why = "an index pointer array apitrace did not record as an array";
			break;
		}
		if ((rc = put_tagged(b, TRACE_TAG_ARRAY, v->agg.count)))
			return rc;
		for (uint32_t k = 0; k < v->agg.count; k++) {
			const struct trace_at_value *e = trace_ati_machine(&v->agg.items[k]);
			if (e->kind == TRACE_AT_BLOB)
				rc = put_memory(b, synthetic(c, e->s.len), e->s.bytes, e->s.len);
			else if (e->kind == TRACE_AT_POINTER || e->kind == TRACE_AT_UINT)
				rc = put_tagged(b, TRACE_TAG_OFFSET, e->u);
			else
				rc = put_tag(b, TRACE_TAG_NULL);
			if (rc)
				return rc;
		}
		return XT_OK;
	case GLAPI_K_ATTRIBS:
	case GLAPI_K_MEM_IN:
	default:
		if (v->kind == TRACE_AT_NULL || v->kind == TRACE_AT_ABSENT ||
		    (pi.kind == GLAPI_K_ATTRIBS && v->kind == TRACE_AT_ARRAY && !v->agg.count))
			return put_tag(b, TRACE_TAG_NULL);
		if (v->kind == TRACE_AT_POINTER || v->kind == TRACE_AT_UINT) {
			if (pi.binding != GLAPI_B_NONE)
				return put_tagged(b, TRACE_TAG_OFFSET, v->u);
			why = "client memory apitrace recorded as an address only";
			break;
		}
		xt_buf_reset(&c->tmp);
		rc = flatten(&c->tmp, pi.elem, v, 0, &why);
		if (rc == XT_ERR_NOMEM)
			return rc;
		if (rc)
			break;
		return put_memory(b, synthetic(c, c->tmp.len), c->tmp.data, c->tmp.len);
	}
	trace_ati_report(c, func, why, call->no);
	return put_unsized(b, why);
}

enum xt_rc trace_ati_put_ret(struct conv *c, struct xt_buf *b, enum glapi_kind k,
		       const struct trace_at_value *v)
{
	int64_t n;
	double d;

	v = trace_ati_machine(v);
	if (k == GLAPI_K_VOID || v->kind == TRACE_AT_ABSENT || v->kind == TRACE_AT_NULL)
		return put_tag(b, TRACE_TAG_NULL);
	switch (k) {
	case GLAPI_K_STRING:
	case GLAPI_K_OUTSTRING:
		if (v->kind == TRACE_AT_STRING || v->kind == TRACE_AT_BLOB)
			return put_string(b, v->s.bytes, v->s.len);
		return put_tag(b, TRACE_TAG_NULL);
	case GLAPI_K_FLOAT:
		return trace_ati_real(v, &d) ? put_float(b, (float)d) : put_tag(b, TRACE_TAG_NULL);
	case GLAPI_K_DOUBLE:
		return trace_ati_real(v, &d) ? put_double(b, d) : put_tag(b, TRACE_TAG_NULL);
	default:
		break;
	}
	if (!trace_ati_int(v, &n))
		return trace_ati_put_generic(c, b, v, 0);
	switch (k) {
	case GLAPI_K_SINT: return put_sint(b, n);
	case GLAPI_K_UINT: return put_tagged(b, TRACE_TAG_UINT, (uint64_t)n);
	case GLAPI_K_ENUM: return put_tagged(b, TRACE_TAG_ENUM, (uint32_t)n);
	case GLAPI_K_BITFIELD: return put_tagged(b, TRACE_TAG_BITFIELD, (uint32_t)n);
	case GLAPI_K_BOOL: return put_tag(b, n ? TRACE_TAG_TRUE : TRACE_TAG_FALSE);
	case GLAPI_K_HANDLE: return put_tagged(b, TRACE_TAG_HANDLE, (uint64_t)n);
	default: return put_tagged(b, TRACE_TAG_POINTER, (uint64_t)n);
	}
}
