/*
 * web_tf.c - a TF buffer observation of a run decoded into a table of
 * vertices x components for the web UI (tables and plots), by the TF
 * layout stored with it (docs/db.md "layouts"): the varyings of the
 * observation's binding point, each element and component a column.
 *
 * The layout is decoded by trace/trace_tf.h, as the diff and the replay
 * check decode it.  The layout and the data come from the database and may
 * be hostile: a varying that does not fit the stride or a stride of 0 make
 * the observation undecodable (have = false, XT_OK), a varying of a type
 * TF cannot hold is left out, and nothing is read out of bounds.
 * WEB_MAX_TF_VERTICES bounds the work.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "web_int.h"

#define MAX_COMPONENTS 256u

static const char *const vec_names[] = { "x", "y", "z", "w" };

/* The observation's layout id and blob hash (copied into `hash`). */
static enum xt_rc find_obs(struct db *db, int64_t run, uint64_t call, uint32_t index,
			   int64_t *layout_id, char hash[33], bool *found)
{
	struct db_obs_iter *it;
	struct db_obs_row o;
	enum xt_rc rc = db_obs_iter_open(db, run, &it);

	*found = false;
	if (rc)
		return rc;
	while ((rc = db_obs_iter_next(it, &o)) == XT_OK) {
		if (o.call_no != call || o.index != index || strcmp(o.kind, "tf_buffer"))
			continue;
		if (o.blob_hash && strlen(o.blob_hash) == 32 && o.layout_id > 0) {
			*layout_id = o.layout_id;
			memcpy(hash, o.blob_hash, 33);
			*found = true;
		}
		break;
	}
	db_obs_iter_close(it);
	return rc == XT_ERR_EOF || rc == XT_OK ? XT_OK : rc;
}

enum xt_rc web_tf_load(struct db *db, int64_t run, uint64_t call, uint32_t index,
		       struct xt_arena *arena, struct web_tf *out)
{
	struct db_tf_layout l;
	struct xt_buf data = XT_BUF_INIT;
	int64_t layout_id = 0;
	char hash[33];
	bool found;
	enum xt_rc rc;

	*out = (struct web_tf){ .pos_x = -1, .pos_y = -1 };
	rc = find_obs(db, run, call, index, &layout_id, hash, &found);
	if (rc || !found)
		return rc;
	rc = db_layout_load(db, layout_id, arena, &l);
	if (rc == XT_ERR_NOT_FOUND)
		return XT_OK;
	if (rc)
		return rc;
	if (index >= l.nstrides || !l.strides[index])
		return XT_OK;
	uint32_t stride = l.strides[index];
	struct trace_tf_varying *vars;
	struct trace_tf_span *spans;
	struct trace_tf_plan tp;
	if (diff_tf_varyings(&l, arena, &vars) ||
	    !(spans = xt_arena_alloc(arena, ((size_t)l.nvaryings + 1) * sizeof *spans)))
		return XT_ERR_NOMEM;
	trace_tf_plan(vars, l.nvaryings, index, stride, spans, &tp);
	if (tp.past_stride >= 0)
		return XT_OK;
	/* Components of one vertex: (byte offset, scalar, name), varyings in
	 * layout order. */
	uint32_t *off = xt_arena_alloc(arena, MAX_COMPONENTS * sizeof *off);
	out->comp_scalar = xt_arena_alloc(arena, MAX_COMPONENTS);
	out->comp_name = xt_arena_alloc(arena, MAX_COMPONENTS * sizeof *out->comp_name);
	if (!off || !out->comp_scalar || !out->comp_name)
		return XT_ERR_NOMEM;
	for (uint32_t i = 0; i < tp.nspans; i++) {
		const struct trace_tf_span *s = &tp.spans[i];
		const struct db_tf_varying *v = &l.varyings[s->varying];
		const struct glapi_type *t = s->type;
		const enum trace_tol_scalar scalar = trace_tol_scalar_of(t);
		uint32_t sb = t->component_bytes;
		for (uint32_t e = 0; e < v->size; e++)
			for (uint32_t k = 0; k < t->components; k++) {
				uint64_t at = s->offset + ((uint64_t)e * t->components + k) * sb;
				char name[160];
				if (out->ncomp == MAX_COMPONENTS)
					return XT_OK;
				if (v->size > 1)
					snprintf(name, sizeof name, "%s[%u].%s", v->name, e,
						 t->components <= 4 ? vec_names[k] : "?");
				else if (t->components > 1 && t->components <= 4)
					snprintf(name, sizeof name, "%s.%s", v->name, vec_names[k]);
				else if (t->components > 4)
					snprintf(name, sizeof name, "%s[%u]", v->name, k);
				else
					snprintf(name, sizeof name, "%s", v->name);
				off[out->ncomp] = (uint32_t)at;
				out->comp_scalar[out->ncomp] = (uint8_t)scalar;
				out->comp_name[out->ncomp] = xt_arena_strdup(arena, name);
				if (!out->comp_name[out->ncomp])
					return XT_ERR_NOMEM;
				/* Positions: the first float vector whose name says so,
				 * else the first float vector. */
				bool posname = strstr(v->name, "os") != NULL;
				if (k == 0 && scalar == TRACE_TOL_F32 && t->components >= 2 && e == 0 &&
				    (out->pos_x < 0 || (posname && !strstr(out->comp_name[out->pos_x], "os")))) {
					out->pos_x = (int32_t)out->ncomp;
					out->pos_y = (int32_t)out->ncomp + 1;
				}
				out->ncomp++;
			}
	}
	if (!out->ncomp)
		return XT_OK;
	rc = db_blob_get(db, hash, &data);
	if (rc) {
		xt_buf_fini(&data);
		return rc;   /* a damaged blob is an error, never an empty table */
	}
	uint64_t nv = data.len / stride;
	out->nvertices = (uint32_t)(nv > WEB_MAX_TF_VERTICES ? WEB_MAX_TF_VERTICES : nv);
	out->total_vertices = nv;
	out->bits = xt_arena_alloc(arena, ((size_t)out->nvertices * out->ncomp + 1) * sizeof *out->bits);
	if (!out->bits) {
		xt_buf_fini(&data);
		return XT_ERR_NOMEM;
	}
	for (uint32_t v = 0; v < out->nvertices; v++)
		for (uint32_t c = 0; c < out->ncomp; c++) {
			const uint8_t *p = data.data + (size_t)v * stride + off[c];
			uint64_t bits = 0;
			memcpy(&bits, p, out->comp_scalar[c] == TRACE_TOL_F64 ? 8 : 4);
			out->bits[(size_t)v * out->ncomp + c] = bits;
		}
	xt_buf_fini(&data);
	out->have = true;
	return XT_OK;
}

double web_tf_value(const struct web_tf *t, uint32_t vertex, uint32_t comp)
{
	uint64_t bits = t->bits[(size_t)vertex * t->ncomp + comp];
	uint32_t b32 = (uint32_t)bits;
	float f;
	double d;

	switch ((enum trace_tol_scalar)t->comp_scalar[comp]) {
	case TRACE_TOL_F32: memcpy(&f, &b32, 4); return f;
	case TRACE_TOL_F64: memcpy(&d, &bits, 8); return d;
	case TRACE_TOL_I32: return (int32_t)b32;
	case TRACE_TOL_U32: return b32;
	}
	return NAN;
}
