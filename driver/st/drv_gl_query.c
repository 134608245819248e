/*
 * drv_gl_query.c - query objects (GL 4.6 chapter 4.2, ES 3.2 chapter 4.2)
 * for what the simulated GPU counts: GL_PRIMITIVES_GENERATED,
 * GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, GL_TRANSFORM_FEEDBACK_OVERFLOW
 * and GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, plain and indexed, and the
 * occlusion queries (ZPASS_DONE: exact while nothing is rasterized, a GPU
 * fault names a count the model cannot make), with results read by the
 * CPU or written into a query buffer.  Timer and pipeline-statistics
 * queries need a clock or counters the model does not have: they are
 * reported as not modelled.
 *
 * The counting is the hardware layer's (drv_pipe.h drv_pipe_query_*:
 * SAMPLE_STREAMOUTSTATS slots per stream); this file keeps GL's query
 * objects, targets and errors, and maps the targets to its query types.
 * Conditional rendering (GL 4.6 §10.9) on the overflow and occlusion queries is the
 * hardware layer's predication (drv_pipe_render_condition).
 */
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

/* Whether `index` is valid for `target`: only the per-stream targets take
 * an index other than 0. */
static bool index_ok(GLenum target, GLuint index)
{
	if (index >= DRV_MAX_VERTEX_STREAMS)
		return false;
	return !index || target == GL_PRIMITIVES_GENERATED ||
	       target == GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN ||
	       target == GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW;
}

/* Row of ctx->active_query for a target, -1 if the sim does not count it;
 * the row is also the hardware layer's query type (types[]). */
static int kind_of(GLenum target)
{
	switch (target) {
	case GL_PRIMITIVES_GENERATED: return 0;
	case GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN: return 1;
	case GL_TRANSFORM_FEEDBACK_OVERFLOW: return 2;
	case GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW: return 3;
	case GL_SAMPLES_PASSED: return 4;
	case GL_ANY_SAMPLES_PASSED: return 5;
	case GL_ANY_SAMPLES_PASSED_CONSERVATIVE: return 6;
	default: return -1;
	}
}

static const enum drv_pipe_query_type types[7] = {
	DRV_QUERY_PRIMITIVES_GENERATED, DRV_QUERY_PRIMITIVES_EMITTED, DRV_QUERY_SO_OVERFLOW_ANY,
	DRV_QUERY_SO_OVERFLOW, DRV_QUERY_OCCLUSION_COUNTER, DRV_QUERY_OCCLUSION_PREDICATE,
	DRV_QUERY_OCCLUSION_PREDICATE,
};

static bool target_known(GLenum t)
{
	switch (t) {
	case GL_SAMPLES_PASSED: case GL_ANY_SAMPLES_PASSED: case GL_ANY_SAMPLES_PASSED_CONSERVATIVE:
	case GL_TIME_ELAPSED: case GL_TIMESTAMP: case GL_VERTICES_SUBMITTED_ARB:
	case GL_PRIMITIVES_SUBMITTED_ARB: case GL_VERTEX_SHADER_INVOCATIONS_ARB:
		return true;
	default:
		return kind_of(t) >= 0;
	}
}

static void free_query(void *obj, void *user)
{
	struct drv_context *ctx = user;
	struct drv_query *q = obj;

	drv_pipe_query_release(ctx->pipe, &q->hw, false);
	xt_free(q);
}

void drv_gl_query_fini_all(struct drv_context *ctx)
{
	drv_names_each(&ctx->queries, free_query, ctx);
	drv_names_fini(&ctx->queries);
}

static struct drv_query *query_create(struct drv_context *ctx, GLuint id)
{
	struct drv_query *q = drv_names_get(&ctx->queries, id);

	if (q)
		return q;
	q = xt_calloc(1, sizeof *q);
	if (!q || !drv_names_set(&ctx->queries, id, q)) {
		xt_free(q);
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return NULL;
	}
	q->name = id;
	q->created = true;
	return q;
}

void drv_gl_GenQueries(GLsizei n, GLuint *ids)
{
	DRV_CTX(ctx);
	if (n < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!drv_names_gen(&ctx->queries, n, ids))
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
}

void drv_gl_CreateQueries(GLenum target, GLsizei n, GLuint *ids)
{
	DRV_CTX(ctx);
	if (!target_known(target)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	drv_gl_GenQueries(n, ids);
	for (GLsizei i = 0; i < n && ctx->error == GL_NO_ERROR; i++) {
		struct drv_query *q = query_create(ctx, ids[i]);
		if (q)
			q->target = target;
	}
}

void drv_gl_DeleteQueries(GLsizei n, const GLuint *ids)
{
	DRV_CTX(ctx);
	if (n < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < n; i++) {
		struct drv_query *q = drv_names_get(&ctx->queries, ids[i]);
		bool end = false;
		if (q && q->active) {
			/* Deleting an active query ends it (GL 4.6 4.2.2). */
			int k = kind_of(q->target);
			if (k >= 0) {
				ctx->active_query[k][q->index] = NULL;
				end = true;
			}
		}
		if (q && q == ctx->cond_query) {
			/* the predication reads its slots until the end */
			drv_gl_unsupported(ctx, "deleting the query of an active conditional render");
			continue;
		}
		drv_names_remove(&ctx->queries, ids[i]);
		if (q) {
			drv_pipe_query_release(ctx->pipe, &q->hw, end);
			xt_free(q);
		}
	}
}

GLboolean drv_gl_IsQuery(GLuint id)
{
	DRV_CTX_RET(ctx, GL_FALSE);
	struct drv_query *q = drv_names_get(&ctx->queries, id);
	return q && q->created;
}

#define NO_TIMER_OR_STATISTICS \
	"timer and pipeline-statistics queries (the model has no clock or statistics counters)"

/* GL_INVALID_ENUM for a target that is no query target, GL_INVALID_VALUE
 * for an index the target does not have; false after raising either. */
static bool target_index_checked(struct drv_context *ctx, GLenum target, GLuint index)
{
	if (!target_known(target)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return false;
	}
	if (!index_ok(target, index)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return false;
	}
	return true;
}

static void begin(GLenum target, GLuint index, GLuint id)
{
	DRV_CTX(ctx);
	int k = kind_of(target);
	struct drv_query *q;

	if (!target_index_checked(ctx, target, index))
		return;
	if (k < 0) {
		drv_gl_unsupported(ctx, NO_TIMER_OR_STATISTICS);
		return;
	}
	if (!id || ctx->active_query[k][index] || !drv_names_known(&ctx->queries, id)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (ctx->cond_query && ctx->cond_query->name == id) {
		/* the predication reads the query's slots until the end */
		drv_gl_unsupported(ctx, "beginning the query of an active conditional render");
		return;
	}
	q = query_create(ctx, id);
	if (!q)
		return;
	if (q->active || (q->target && q->target != target)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!drv_pipe_query_begin(ctx->pipe, &q->hw, types[k], index))
		return;
	q->target = target;
	q->index = index;
	q->active = true;
	ctx->active_query[k][index] = q;
	ctx->state_call = true;
}

static void end(GLenum target, GLuint index)
{
	DRV_CTX(ctx);
	int k = kind_of(target);
	struct drv_query *q;

	if (!target_index_checked(ctx, target, index))
		return;
	if (k < 0) {
		drv_gl_unsupported(ctx, NO_TIMER_OR_STATISTICS);
		return;
	}
	if (!(q = ctx->active_query[k][index])) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	drv_pipe_query_end(ctx->pipe, &q->hw);
	q->active = false;
	q->ever_ended = true;
	ctx->active_query[k][index] = NULL;
	ctx->state_call = true;
}

void drv_gl_BeginQuery(GLenum target, GLuint id) { begin(target, 0, id); }
void drv_gl_EndQuery(GLenum target) { end(target, 0); }
void drv_gl_BeginQueryIndexed(GLenum target, GLuint index, GLuint id) { begin(target, index, id); }
void drv_gl_EndQueryIndexed(GLenum target, GLuint index) { end(target, index); }

static void query_iv(GLenum target, GLuint index, GLenum pname, GLint *params)
{
	DRV_CTX(ctx);
	int k = kind_of(target);

	if (!target_index_checked(ctx, target, index))
		return;
	switch (pname) {
	case GL_CURRENT_QUERY:
		*params = k >= 0 && ctx->active_query[k][index]
				  ? (GLint)ctx->active_query[k][index]->name : 0;
		return;
	case GL_QUERY_COUNTER_BITS:
		*params = k >= 0 ? 64 : 0;
		return;
	default:
		drv_gl_error(ctx, GL_INVALID_ENUM);
	}
}

void drv_gl_GetQueryiv(GLenum target, GLenum pname, GLint *params)
{
	query_iv(target, 0, pname, params);
}

void drv_gl_GetQueryIndexediv(GLenum target, GLuint index, GLenum pname, GLint *params)
{
	query_iv(target, index, pname, params);
}

/*
 * The value of `pname` for query `id`, or false with the error set.
 * *to_buffer tells that the result goes to the bound query buffer.
 */
static bool result(struct drv_context *ctx, GLuint id, GLenum pname, uint64_t *out)
{
	struct drv_query *q = drv_names_get(&ctx->queries, id);

	if (pname != GL_QUERY_RESULT && pname != GL_QUERY_RESULT_AVAILABLE &&
	    pname != GL_QUERY_RESULT_NO_WAIT && pname != GL_QUERY_TARGET) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return false;
	}
	if (!q || (pname != GL_QUERY_TARGET && (q->active || !q->ever_ended))) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	if (pname == GL_QUERY_TARGET) {
		*out = q->target;
		return true;
	}
	if (pname == GL_QUERY_RESULT_AVAILABLE) {
		*out = 1;     /* execution is synchronous */
		return true;
	}
	q->result = drv_pipe_query_result(ctx->pipe, &q->hw);
	*out = q->result;
	return true;
}

/* Stores a result: into client memory, or (query buffer bound) at offset `p`. */
static void store(struct drv_context *ctx, void *p, uint64_t v, unsigned bytes, bool is_signed)
{
	if (ctx->query_buffer) {
		uint64_t offset = (uint64_t)(uintptr_t)p;
		if (!drv_gl_buffer_storage(ctx, ctx->query_buffer) ||
		    offset + bytes > (uint64_t)ctx->query_buffer->size) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		if (bytes == 4 && v > (is_signed ? 0x7FFFFFFFull : 0xFFFFFFFFull))
			v = is_signed ? 0x7FFFFFFFull : 0xFFFFFFFFull;
		drv_pipe_buffer_write(ctx->pipe, &ctx->query_buffer->store, offset, v, bytes);
		ctx->state_call = true;
		return;
	}
	if (!p)
		return;
	if (bytes == 4) {
		uint32_t x = v > (is_signed ? 0x7FFFFFFFull : 0xFFFFFFFFull)
				     ? (is_signed ? 0x7FFFFFFFu : 0xFFFFFFFFu) : (uint32_t)v;
		memcpy(p, &x, 4);
	} else {
		memcpy(p, &v, 8);
	}
}

static void get_object(GLuint id, GLenum pname, void *params, unsigned bytes, bool is_signed)
{
	DRV_CTX(ctx);
	uint64_t v;
	if (result(ctx, id, pname, &v))
		store(ctx, params, v, bytes, is_signed);
}

void drv_gl_GetQueryObjectiv(GLuint id, GLenum pname, GLint *params)
{
	get_object(id, pname, params, 4, true);
}

void drv_gl_GetQueryObjectuiv(GLuint id, GLenum pname, GLuint *params)
{
	get_object(id, pname, params, 4, false);
}

void drv_gl_GetQueryObjecti64v(GLuint id, GLenum pname, GLint64 *params)
{
	get_object(id, pname, params, 8, true);
}

void drv_gl_GetQueryObjectui64v(GLuint id, GLenum pname, GLuint64 *params)
{
	get_object(id, pname, params, 8, false);
}

static void get_buffer_object(GLuint id, GLuint buffer, GLenum pname, GLintptr offset,
			      unsigned bytes, bool is_signed)
{
	DRV_CTX(ctx);
	struct drv_buffer *b = drv_gl_buffer_lookup(ctx, buffer);
	uint64_t v;

	if (!b) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (offset < 0 || (uint64_t)offset + bytes > (uint64_t)b->size) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!result(ctx, id, pname, &v) || !drv_gl_buffer_storage(ctx, b))
		return;
	if (bytes == 4 && v > (is_signed ? 0x7FFFFFFFull : 0xFFFFFFFFull))
		v = is_signed ? 0x7FFFFFFFull : 0xFFFFFFFFull;
	drv_pipe_buffer_write(ctx->pipe, &b->store, (uint64_t)offset, v, bytes);
	ctx->state_call = true;
}

void drv_gl_GetQueryBufferObjectiv(GLuint id, GLuint buffer, GLenum pname, GLintptr offset)
{
	get_buffer_object(id, buffer, pname, offset, 4, true);
}

void drv_gl_GetQueryBufferObjectuiv(GLuint id, GLuint buffer, GLenum pname, GLintptr offset)
{
	get_buffer_object(id, buffer, pname, offset, 4, false);
}

void drv_gl_GetQueryBufferObjecti64v(GLuint id, GLuint buffer, GLenum pname, GLintptr offset)
{
	get_buffer_object(id, buffer, pname, offset, 8, true);
}

void drv_gl_GetQueryBufferObjectui64v(GLuint id, GLuint buffer, GLenum pname, GLintptr offset)
{
	get_buffer_object(id, buffer, pname, offset, 8, false);
}

/* GL 4.6 §10.9: the modes, plain and inverted (GL 4.5 / ARB_conditional_render_inverted). */
static bool cond_mode(GLenum mode, bool *invert, bool *wait)
{
	switch (mode) {
	case GL_QUERY_WAIT: case GL_QUERY_BY_REGION_WAIT:
		*invert = false; *wait = true; return true;
	case GL_QUERY_NO_WAIT: case GL_QUERY_BY_REGION_NO_WAIT:
		*invert = false; *wait = false; return true;
	case GL_QUERY_WAIT_INVERTED: case GL_QUERY_BY_REGION_WAIT_INVERTED:
		*invert = true; *wait = true; return true;
	case GL_QUERY_NO_WAIT_INVERTED: case GL_QUERY_BY_REGION_NO_WAIT_INVERTED:
		*invert = true; *wait = false; return true;
	default:
		return false;
	}
}

void drv_gl_BeginConditionalRender(GLuint id, GLenum mode)
{
	DRV_CTX(ctx);
	struct drv_query *q = drv_names_get(&ctx->queries, id);
	bool invert, wait;

	if (!cond_mode(mode, &invert, &wait)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (ctx->cond_query) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if ((!q || !q->created) && id && drv_names_known(&ctx->queries, id)) {
		/* a name whose glBeginQuery the sim reported (occlusion,
		 * timer): its kind is one the model does not count */
		drv_gl_unsupported(ctx, "conditional rendering on a query the model does not count "
				   "(timer, pipeline statistics)");
		return;
	}
	if (!q || !q->created) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/* §10.9: the query must be an occlusion or a transform feedback
	 * overflow query, and not active */
	switch (q->target) {
	case GL_TRANSFORM_FEEDBACK_OVERFLOW: case GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW:
	case GL_SAMPLES_PASSED: case GL_ANY_SAMPLES_PASSED: case GL_ANY_SAMPLES_PASSED_CONSERVATIVE:
		break;
	default:
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (q->active) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	ctx->cond_query = q;
	/* A query never ended has no result: GL leaves the rendering up to the
	 * implementation; it draws (no predication), as radeonsi with an empty
	 * query buffer does. */
	drv_pipe_render_condition(ctx->pipe, q->ever_ended ? &q->hw : NULL, invert, wait);
}

void drv_gl_EndConditionalRender(void)
{
	DRV_CTX(ctx);
	if (!ctx->cond_query) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	ctx->cond_query = NULL;
	drv_pipe_render_condition(ctx->pipe, NULL, false, false);
}
