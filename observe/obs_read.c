/*
 * obs_read.c - the observations of data the application asked for: query
 * results (`query`), glGetBufferSubData (`buffer_read`) and read mappings
 * (`map_read`), docs/trace-format.md "Observation kinds"; plus the
 * buffer read-back the TF observation uses (obs_int.h).
 *
 * Results whose value depends on timing (GL_QUERY_RESULT_AVAILABLE,
 * GL_QUERY_RESULT_NO_WAIT) are not observations: they stay in the call's
 * RET record only.
 */
#include <stdlib.h>
#include <string.h>

#include "obs_int.h"
#include "trace_enc.h"
#include "trace_format.h"

bool obs_ctx_at_least(const struct obs_ctx *c, int gl_major, int gl_minor, int es_major,
		      int es_minor)
{
	if (c->gles)
		return es_major > 0 &&
		       (c->major > es_major || (c->major == es_major && c->minor >= es_minor));
	return c->major > gl_major || (c->major == gl_major && c->minor >= gl_minor);
}

uint32_t obs_app_name(const struct obs_ctx *c, enum obs_object kind, uint32_t name)
{
	return c->app_name && name ? c->app_name(c->user, kind, name) : name;
}

void obs_readback_begin(const struct obs_ctx *c, uint32_t buffer, unsigned bound_target,
			struct obs_readback *rb)
{
	const struct obs_gl *gl = c->gl;

	rb->old = 0;
	rb->target = bound_target;
	rb->rebound = !bound_target;
	if (rb->rebound) {
		rb->target = OBS_GL_COPY_READ_BUFFER;
		gl->GetIntegerv(OBS_GL_COPY_READ_BUFFER_BINDING, &rb->old);
		gl->BindBuffer(OBS_GL_COPY_READ_BUFFER, buffer);
	}
}

int64_t obs_readback_size(const struct obs_ctx *c, const struct obs_readback *rb)
{
	int64_t size = 0;

	c->gl->GetBufferParameteri64v(rb->target, OBS_GL_BUFFER_SIZE, &size);
	return size;
}

#define MAPPED_WHY "the buffer is mapped by the application"

/*
 * The bytes of a buffer the application has mapped, on GLES: read through
 * the application's own mapping when it is persistent, readable and covers
 * the range (EXT_buffer_storage).  The GL's writes reach such a mapping
 * after a CLIENT_MAPPED_BUFFER barrier and glFinish, neither of which
 * changes anything the application can see.
 */
static const char *read_app_mapping(const struct obs_ctx *c, const struct obs_readback *rb,
				    int64_t offset, int64_t size, void *dst)
{
	const struct obs_gl *gl = c->gl;
	int access = 0;
	int64_t map_offset = 0, map_length = 0;
	void *ptr = NULL;

	if (!gl->GetBufferPointerv || !gl->MemoryBarrier || !gl->Finish)
		return MAPPED_WHY;
	gl->GetBufferParameteriv(rb->target, OBS_GL_BUFFER_ACCESS_FLAGS, &access);
	if (!(access & OBS_GL_MAP_PERSISTENT_BIT) || !(access & OBS_GL_MAP_READ_BIT))
		return MAPPED_WHY;
	gl->GetBufferParameteri64v(rb->target, OBS_GL_BUFFER_MAP_OFFSET, &map_offset);
	gl->GetBufferParameteri64v(rb->target, OBS_GL_BUFFER_MAP_LENGTH, &map_length);
	if (offset < map_offset || offset + size > map_offset + map_length)
		return MAPPED_WHY;
	gl->GetBufferPointerv(rb->target, OBS_GL_BUFFER_MAP_POINTER, &ptr);
	if (!ptr)
		return MAPPED_WHY;
	gl->MemoryBarrier(OBS_GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
	gl->Finish();
	memcpy(dst, (const uint8_t *)ptr + (offset - map_offset), (size_t)size);
	return NULL;
}

/*
 * On desktop GL, glGetBufferSubData of a mapped buffer is an error unless
 * the mapping is persistent, so whether it is mapped (and how) is asked
 * first: one query.  On GLES the map itself fails on a mapped buffer; that is asked
 * only then: one GL call less on every read-back.  The map's error is then
 * consumed here (the caller has put the application's errors aside), as an
 * expected one, and a persistent mapping is read through
 * (read_app_mapping); any other error is the caller's to consume
 * (obs_readback_end, obs_ctx.drain), with a warning.
 */
const char *obs_readback_into(const struct obs_ctx *c, const struct obs_readback *rb,
			      int64_t offset, int64_t size, void *dst)
{
	const struct obs_gl *gl = c->gl;
	int mapped = 0, access = 0;

	if (offset < 0 || size <= 0)
		return "empty range";
	if (!c->gles) {
		/* From GL 3.0 the access flags alone say it: 0 unless mapped. */
		if (obs_ctx_at_least(c, 3, 0, 0, 0)) {
			gl->GetBufferParameteriv(rb->target, OBS_GL_BUFFER_ACCESS_FLAGS, &access);
			mapped = access != 0;
		} else {
			gl->GetBufferParameteriv(rb->target, OBS_GL_BUFFER_MAPPED, &mapped);
		}
		if (mapped && !(access & OBS_GL_MAP_PERSISTENT_BIT))
			return MAPPED_WHY;
		gl->GetBufferSubData(rb->target, offset, size, dst);
		return NULL;
	}
	const void *p = gl->MapBufferRange(rb->target, offset, size, OBS_GL_MAP_READ_BIT);
	if (!p) {
		gl->GetBufferParameteriv(rb->target, OBS_GL_BUFFER_MAPPED, &mapped);
		if (!mapped)
			return "glMapBufferRange failed";
		gl->GetError();  /* GL_INVALID_OPERATION: already mapped */
		return read_app_mapping(c, rb, offset, size, dst);
	}
	memcpy(dst, p, (size_t)size);
	gl->UnmapBuffer(rb->target);
	return NULL;
}

bool obs_readback_end(const struct obs_ctx *c, const struct obs_readback *rb, bool check)
{
	const struct obs_gl *gl = c->gl;

	if (rb->rebound)
		gl->BindBuffer(OBS_GL_COPY_READ_BUFFER, (unsigned)rb->old);
	return !check || gl->GetError() == OBS_GL_NO_ERROR;
}

/*
 * The result of a glGetQueryObject*v call, or of one whose result went to a
 * query buffer (params NULL): then it is asked for again into our memory,
 * with the query buffer binding set aside for that one call.
 */
void obs_query(const struct obs_ctx *c, uint64_t seq, const char *func, uint32_t id,
	       uint32_t pname, const void *params, size_t elem_bytes)
{
	/* glGetQueryObjectiv / i64v (and the buffer forms) are signed. */
	const bool is_signed = strstr(func, "Objecti") != NULL;
	uint64_t raw = 0;

	if (pname != OBS_GL_QUERY_RESULT || (elem_bytes != 4 && elem_bytes != 8))
		return;
	if (params) {
		memcpy(&raw, params, elem_bytes);
	} else {
		const struct obs_gl *gl = c->gl;
		int qbuf = 0;
		uint64_t v = 0;
		c->stash(c->user);
		/* params is an offset only when a query buffer is bound, so the
		 * binding exists here whatever the version (GL 4.4, or
		 * ARB_query_buffer_object below it). */
		gl->GetIntegerv(OBS_GL_QUERY_BUFFER_BINDING, &qbuf);
		if (qbuf)
			gl->BindBuffer(OBS_GL_QUERY_BUFFER, 0);
		gl->GetQueryObjectui64v(id, OBS_GL_QUERY_RESULT, &v);
		if (qbuf)
			gl->BindBuffer(OBS_GL_QUERY_BUFFER, (unsigned)qbuf);
		const bool failed = gl->GetError() != OBS_GL_NO_ERROR;
		c->drain(c->user, "query result read-back");
		if (failed)
			return;
		/* The application asked for elem_bytes; keep its truncation. */
		raw = elem_bytes == 4 ? (uint32_t)v : v;
	}
	uint8_t *start = c->reserve(c->user, 256 + strlen(func)), *p = start;
	if (!p)
		return;
	p = trace_enc_map(p, 6);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, "query", 5);
	p = trace_enc_key(p, "function");
	p = trace_enc_string(p, func, strlen(func));
	p = trace_enc_key(p, "query");
	p = trace_enc_uint(p, obs_app_name(c, OBS_OBJ_QUERY, id));
	p = trace_enc_key(p, "pname");
	p = trace_enc_enum(p, pname);
	p = trace_enc_key(p, "result");
	if (is_signed)
		p = trace_enc_sint(p, elem_bytes == 4 ? (int64_t)(int32_t)raw : (int64_t)raw);
	else
		p = trace_enc_uint(p, raw);
	p = trace_enc_key(p, "to_buffer");
	p = trace_enc_bool(p, params == NULL);
	c->commit(c->user, seq, (size_t)(p - start));
}

static void write_read_data(const struct obs_ctx *c, uint64_t seq, const char *kind,
			    uint32_t buffer, int64_t offset, int64_t size, uint32_t access,
			    bool with_access, const void *data)
{
	if (size < 0 || !data)
		return;
	uint8_t *start = c->reserve(c->user, 128 + (size_t)size), *p = start;
	if (!p)
		return;
	p = trace_enc_map(p, with_access ? 6 : 5);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, kind, strlen(kind));
	p = trace_enc_key(p, "buffer");
	p = trace_enc_uint(p, obs_app_name(c, OBS_OBJ_BUFFER, buffer));
	p = trace_enc_key(p, "offset");
	p = trace_enc_uint(p, (uint64_t)offset);
	p = trace_enc_key(p, "size");
	p = trace_enc_uint(p, (uint64_t)size);
	if (with_access) {
		p = trace_enc_key(p, "access");
		p = trace_enc_bitfield(p, access);
	}
	p = trace_enc_key(p, "data");
	p = trace_enc_blob(p, data, (size_t)size);
	c->commit(c->user, seq, (size_t)(p - start));
}

void obs_buffer_read(const struct obs_ctx *c, uint64_t seq, uint32_t buffer, int64_t offset,
		     int64_t size, const void *data)
{
	write_read_data(c, seq, "buffer_read", buffer, offset, size, 0, false, data);
}

void obs_map(const struct obs_ctx *c, uint64_t seq, uint32_t buffer, int64_t offset,
	     int64_t length, uint32_t access, const void *ptr)
{
	if (access & OBS_GL_MAP_READ_BIT)
		write_read_data(c, seq, "map_read", buffer, offset, length, access, true, ptr);
}
