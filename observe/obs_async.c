/*
 * obs_async.c - the asynchronous read-back of observations (obs.h,
 * "asynchronous read-back"; issue 23): staging buffers, fences and the
 * queue of read-backs in flight of one GL context.
 *
 * Why: reading a TF buffer at glEndTransformFeedback (obs_tf_end) maps it,
 * and the map waits until the GPU has run everything queued before it: on
 * a real GPU that drains the pipeline at every TF end.  Here the bound
 * ranges are copied on the GPU (glCopyBufferSubData, or
 * glCopyNamedBufferSubData when the context has GL 4.5 and no binding need
 * be touched) into a staging buffer of ours, and the staging buffer is
 * read when a fence after the copy has signalled, when the application
 * synchronises anyway, or when too much is in flight.
 *
 * One fence covers several copies: it is put after every FENCE_EVERY
 * copies and at each frame's end (eglSwapBuffers), not after each copy,
 * because a fence flushes the driver's command stream (on llvmpipe it also
 * wakes its rasterizer threads: 20 us a fence on the bench machine, more
 * than the whole synchronous read-back there).
 *
 * Each queued entry is one call's observation: the head of each of its
 * records (the bytes obs_tf.c writes before `data`, so that the records
 * are byte for byte those of the synchronous read-back), where its bytes
 * lie in the staging buffer, its fence and the frame it was made in.
 * Entries are read in order (a context's fences signal in order), so
 * polling stops at the first fence that has not signalled.  Staging
 * buffers are recycled: a read-back returns its buffer to a small free
 * list, and a stage takes the smallest free one that is large enough.
 *
 * Bounds: at most MAX_IN_FLIGHT entries and MAX_BYTES_IN_FLIGHT staging
 * bytes in flight (beyond them the oldest is read back, waiting), and an
 * entry is read back, waiting if need be, two frames after its own (GPU
 * drivers let no more frames than that queue up, so the wait is short),
 * which also bounds what a trace reader holds (trace/trace_late.c).
 */
#include <stdlib.h>
#include <string.h>

#include "obs_int.h"
#include "trace_enc.h"
#include "trace_format.h"

#define MAX_IN_FLIGHT 32
#define MAX_BYTES_IN_FLIGHT ((size_t)64 << 20)
#define MAX_FREE 16
#define MIN_STAGING_BYTES 4096u
#define FRAMES_IN_FLIGHT 2
#define FENCE_EVERY 8

struct staged_rec {
	size_t head_off, head_len;  /* in heads */
	size_t staging_off, n;      /* n 0: "empty range" */
	/* A query result (n 8, the 64-bit result the GL wrote): the value
	 * follows the head as the application asked for it, then `to_buffer`
	 * TRUE; 0 for TF data (a BLOB under `data`). */
	unsigned result_bytes;      /* 4 or 8 */
	bool result_signed;
};

struct obs_staged {
	uint64_t seq;               /* the call observed */
	uint64_t frame;             /* obs_async.frame when staged */
	void *fence;                /* the fence after its copy, shared by the
				     * entries of a group; NULL until fenced */
	bool owns_fence;            /* the group's last: deletes the fence */
	unsigned buffer;            /* staging buffer; 0 until created */
	size_t capacity;            /* its size */
	size_t total;               /* bytes staged */
	unsigned nrec;
	struct staged_rec rec[OBS_ASYNC_MAX_RECORDS];
	uint8_t *heads;             /* kept across uses */
	size_t heads_len, heads_cap;
};

struct free_buffer {
	unsigned buffer;
	size_t capacity;
};

struct obs_async {
	struct obs_staged ring[MAX_IN_FLIGHT + 1];
	unsigned head, count;       /* queued: ring[head .. head+count) */
	size_t bytes;               /* staging bytes queued */
	uint64_t frame;
	unsigned unfenced;          /* the last entries queued without a fence */
	struct obs_async_stats stats;
	struct free_buffer free[MAX_FREE];
	unsigned nfree;
};

struct obs_async *obs_async_create(void)
{
	return calloc(1, sizeof(struct obs_async));
}

void obs_async_destroy(struct obs_async *q)
{
	if (!q)
		return;
	for (unsigned i = 0; i <= MAX_IN_FLIGHT; i++)
		free(q->ring[i].heads);
	free(q);
}

unsigned obs_async_pending(const struct obs_async *q)
{
	return q ? q->count : 0;
}

void obs_async_stats_add(const struct obs_async *q, struct obs_async_stats *sum)
{
	if (!q)
		return;
	sum->staged += q->stats.staged;
	sum->at_call += q->stats.at_call;
	sum->signalled += q->stats.signalled;
	sum->waited += q->stats.waited;
}

static bool dsa(const struct obs_ctx *c)
{
	const struct obs_gl *gl = c->gl;
	return !c->gles && obs_ctx_at_least(c, 4, 5, 0, 0) && gl->CreateBuffers &&
	       gl->NamedBufferData && gl->CopyNamedBufferSubData && gl->GetNamedBufferSubData;
}

bool obs_async_usable(const struct obs_ctx *c)
{
	const struct obs_gl *gl = c->gl;
	return c->pending && c->commit_late && obs_ctx_at_least(c, 3, 2, 3, 0) && gl->GenBuffers &&
	       gl->DeleteBuffers && gl->BufferData && gl->CopyBufferSubData && gl->FenceSync &&
	       gl->ClientWaitSync && gl->DeleteSync;
}

/* ---- staging -------------------------------------------------------------- */

struct obs_staged *obs_async_stage(struct obs_async *q, uint64_t seq, size_t total)
{
	struct obs_staged *e = &q->ring[(q->head + q->count) % (MAX_IN_FLIGHT + 1)];
	int best = -1;

	if (q->count >= MAX_IN_FLIGHT)
		return NULL;
	e->seq = seq;
	e->frame = q->frame;
	e->fence = NULL;
	e->owns_fence = false;
	e->nrec = 0;
	e->heads_len = 0;
	e->total = total;
	e->buffer = 0;
	e->capacity = 0;
	for (unsigned i = 0; i < q->nfree; i++)
		if (q->free[i].capacity >= total &&
		    (best < 0 || q->free[i].capacity < q->free[best].capacity))
			best = (int)i;
	if (best >= 0) {
		e->buffer = q->free[best].buffer;
		e->capacity = q->free[best].capacity;
		q->free[best] = q->free[--q->nfree];
	} else {
		size_t cap = MIN_STAGING_BYTES;
		while (cap < total)
			cap *= 2;
		e->capacity = cap;
	}
	return e;
}

uint8_t *obs_async_head(struct obs_staged *e, size_t max)
{
	if (e->nrec >= OBS_ASYNC_MAX_RECORDS)
		return NULL;
	if (e->heads_len + max > e->heads_cap) {
		size_t cap = e->heads_cap ? e->heads_cap : 512;
		while (cap < e->heads_len + max)
			cap *= 2;
		uint8_t *n = realloc(e->heads, cap);
		if (!n)
			return NULL;
		e->heads = n;
		e->heads_cap = cap;
	}
	return e->heads + e->heads_len;
}

void obs_async_head_done(struct obs_staged *e, size_t used, size_t staging_off, size_t n)
{
	struct staged_rec *r = &e->rec[e->nrec++];

	r->head_off = e->heads_len;
	r->head_len = used;
	r->staging_off = staging_off;
	r->n = n;
	r->result_bytes = 0;
	r->result_signed = false;
	e->heads_len += used;
}

/* Gives a staging buffer back to the free list, or deletes it. */
static void release_buffer(const struct obs_ctx *c, struct obs_async *q, unsigned buffer,
			   size_t capacity)
{
	if (!buffer)
		return;
	if (q->nfree < MAX_FREE) {
		q->free[q->nfree++] = (struct free_buffer){ buffer, capacity };
		return;
	}
	c->gl->DeleteBuffers(1, &buffer);
}

void obs_async_unstage(const struct obs_ctx *c, struct obs_async *q, struct obs_staged *e)
{
	release_buffer(c, q, e->buffer, e->capacity);
	e->buffer = 0;
}

void obs_async_copy_begin(const struct obs_ctx *c, struct obs_staged *e, struct obs_copy_save *s)
{
	const struct obs_gl *gl = c->gl;

	s->read_saved = false;
	s->old_write = s->old_read = 0;
	if (dsa(c)) {
		if (!e->buffer) {
			gl->CreateBuffers(1, &e->buffer);
			gl->NamedBufferData(e->buffer, (long)e->capacity, NULL, OBS_GL_STREAM_READ);
		}
		return;
	}
	gl->GetIntegerv(OBS_GL_COPY_WRITE_BUFFER_BINDING, &s->old_write);
	if (!e->buffer) {
		gl->GenBuffers(1, &e->buffer);
		gl->BindBuffer(OBS_GL_COPY_WRITE_BUFFER, e->buffer);
		gl->BufferData(OBS_GL_COPY_WRITE_BUFFER, (long)e->capacity, NULL, OBS_GL_STREAM_READ);
	} else {
		gl->BindBuffer(OBS_GL_COPY_WRITE_BUFFER, e->buffer);
	}
}

void obs_async_copy(const struct obs_ctx *c, struct obs_staged *e, struct obs_copy_save *s,
		    uint32_t buffer, bool through_tf, int64_t start, size_t staging_off, size_t n)
{
	const struct obs_gl *gl = c->gl;

	if (dsa(c)) {
		gl->CopyNamedBufferSubData(buffer, e->buffer, start, (long)staging_off, (long)n);
		return;
	}
	if (!through_tf) {
		if (!s->read_saved) {
			gl->GetIntegerv(OBS_GL_COPY_READ_BUFFER_BINDING, &s->old_read);
			s->read_saved = true;
		}
		gl->BindBuffer(OBS_GL_COPY_READ_BUFFER, buffer);
	}
	gl->CopyBufferSubData(through_tf ? OBS_GL_TRANSFORM_FEEDBACK_BUFFER : OBS_GL_COPY_READ_BUFFER,
			      OBS_GL_COPY_WRITE_BUFFER, start, (long)staging_off, (long)n);
}

bool obs_async_copy_end(const struct obs_ctx *c, struct obs_async *q, struct obs_staged *e,
			struct obs_copy_save *s)
{
	const struct obs_gl *gl = c->gl;

	if (!dsa(c)) {
		if (s->read_saved)
			gl->BindBuffer(OBS_GL_COPY_READ_BUFFER, (unsigned)s->old_read);
		gl->BindBuffer(OBS_GL_COPY_WRITE_BUFFER, (unsigned)s->old_write);
	}
	if (gl->GetError() == OBS_GL_NO_ERROR)
		return true;
	q->stats.at_call++;
	/* A buffer the application has mapped, a staging buffer the driver
	 * could not allocate: this call is read synchronously, and the
	 * staging buffer (its size unsure) is not kept. */
	c->drain(c->user, "TF buffer copy");
	if (e->buffer)
		gl->DeleteBuffers(1, &e->buffer);
	e->buffer = 0;
	return false;
}

/* A fence after the entries queued without one. */
static void fence_unfenced(const struct obs_ctx *c, struct obs_async *q)
{
	void *fence;

	if (!q->unfenced)
		return;
	fence = c->gl->FenceSync(OBS_GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	if (!fence)
		return;   /* they are read when forced */
	for (unsigned i = q->count - q->unfenced; i < q->count; i++)
		q->ring[(q->head + i) % (MAX_IN_FLIGHT + 1)].fence = fence;
	q->ring[(q->head + q->count - 1) % (MAX_IN_FLIGHT + 1)].owns_fence = true;
	q->unfenced = 0;
}

void obs_async_push(const struct obs_ctx *c, struct obs_async *q)
{
	struct obs_staged *e = &q->ring[(q->head + q->count) % (MAX_IN_FLIGHT + 1)];

	q->count++;
	q->bytes += e->total;
	q->stats.staged++;
	if (++q->unfenced >= FENCE_EVERY)
		fence_unfenced(c, q);
}

/* ---- read-back ------------------------------------------------------------ */

struct read_save {
	bool bound;                 /* COPY_WRITE_BUFFER holds a staging buffer */
	int old_write;
};


#define STAGING_WHY "the read-back of the staging copy failed"

/* Reads staging bytes [off, off+n) into dst; false on a GL error. */
static bool staging_read(const struct obs_ctx *c, const struct obs_staged *e,
			 const uint8_t *mapped, size_t off, size_t n, void *dst)
{
	const struct obs_gl *gl = c->gl;

	if (dsa(c))
		gl->GetNamedBufferSubData(e->buffer, (long)off, (long)n, dst);
	else if (!c->gles)
		gl->GetBufferSubData(OBS_GL_COPY_WRITE_BUFFER, (long)off, (long)n, dst);
	else if (mapped)
		memcpy(dst, mapped + off, n);
	else
		return false;
	return c->gles || gl->GetError() == OBS_GL_NO_ERROR;
}

/* The rest of a query record: `result` as obs_query writes it, and
 * `to_buffer`; the result's key is the head's last. */
static uint8_t *query_result(const struct obs_ctx *c, const struct obs_staged *e,
			     const struct staged_rec *r, const uint8_t *mapped, uint8_t *p)
{
	uint64_t raw = 0;

	if (!staging_read(c, e, mapped, r->staging_off, 8, &raw)) {
		p = trace_enc_string(p, STAGING_WHY, strlen(STAGING_WHY));
	} else if (r->result_signed) {
		p = trace_enc_sint(p, r->result_bytes == 4 ? (int64_t)(int32_t)raw : (int64_t)raw);
	} else {
		p = trace_enc_uint(p, r->result_bytes == 4 ? (uint32_t)raw : raw);
	}
	p = trace_enc_key(p, "to_buffer");
	return trace_enc_bool(p, 1);
}

/*
 * Writes the records of the oldest entry, its bytes read from staging, as
 * late records read back during call `at`; then frees its fence and gives
 * its staging buffer back.
 */
static void read_back(const struct obs_ctx *c, struct obs_async *q, uint64_t at,
		      struct read_save *s)
{
	const struct obs_gl *gl = c->gl;
	struct obs_staged *e = &q->ring[q->head];
	const uint8_t *mapped = NULL;
	bool stop = false;
	const bool named = dsa(c);

	if (!named) {
		if (!s->bound) {
			gl->GetIntegerv(OBS_GL_COPY_WRITE_BUFFER_BINDING, &s->old_write);
			s->bound = true;
		}
		gl->BindBuffer(OBS_GL_COPY_WRITE_BUFFER, e->buffer);
		if (c->gles && e->total)
			mapped = gl->MapBufferRange(OBS_GL_COPY_WRITE_BUFFER, 0, (long)e->total,
						    OBS_GL_MAP_READ_BIT);
	}
	for (unsigned i = 0; i < e->nrec && !stop; i++) {
		const struct staged_rec *r = &e->rec[i];
		uint8_t *first = c->reserve(c->user, 8 + r->head_len + 32 + r->n + 64), *p = first;
		const char *why = NULL;
		if (!first)
			break;   /* not recording any more: the rest is lost */
		memcpy(p, &e->seq, 8);
		p += 8;
		memcpy(p, e->heads + r->head_off, r->head_len);
		p += r->head_len;
		if (r->result_bytes) {
			p = query_result(c, e, r, mapped, p);
			c->commit_late(c->user, at, (size_t)(p - first));
			continue;
		}
		uint8_t *data_key = p;
		p = trace_enc_key(p, "data");
		p = trace_enc_varint(trace_enc_tag(p, TRACE_TAG_BLOB), r->n);
		if (!r->n) {
			why = "empty range";
		} else if (named) {
			gl->GetNamedBufferSubData(e->buffer, (long)r->staging_off, (long)r->n, p);
			if (gl->GetError() != OBS_GL_NO_ERROR)
				why = STAGING_WHY;
		} else if (!c->gles) {
			gl->GetBufferSubData(OBS_GL_COPY_WRITE_BUFFER, (long)r->staging_off, (long)r->n,
					     p);
			if (gl->GetError() != OBS_GL_NO_ERROR)
				why = STAGING_WHY;
		} else if (mapped) {
			memcpy(p, mapped + r->staging_off, r->n);
		} else {
			why = STAGING_WHY;
		}
		if (why) {
			p = trace_enc_key(data_key, "unavailable");
			p = trace_enc_string(p, why, strlen(why));
		} else {
			p += r->n;
		}
		c->commit_late(c->user, at, (size_t)(p - first));
	}
	if (mapped)
		gl->UnmapBuffer(OBS_GL_COPY_WRITE_BUFFER);
	if (c->gles && e->total && !mapped)
		c->drain(c->user, "TF staging read-back");
	if (e->owns_fence)
		gl->DeleteSync(e->fence);
	release_buffer(c, q, e->buffer, e->capacity);
	if (q->unfenced > q->count - 1)
		q->unfenced = q->count - 1;   /* it was one of them */
	e->fence = NULL;
	e->owns_fence = false;
	q->bytes -= e->total;
	q->head = (q->head + 1) % (MAX_IN_FLIGHT + 1);
	q->count--;
}

/* Whether the copy of `e` has arrived: its fence has signalled (or
 * failed: then the read waits).  `known` is a fence seen signalled in this
 * poll, which the entries of its group share: asked once. */
static bool signalled(const struct obs_ctx *c, const struct obs_staged *e, void **known)
{
	if (!e->fence)
		return false;
	if (e->fence == *known)
		return true;
	if (c->gl->ClientWaitSync(e->fence, 0, 0) == OBS_GL_TIMEOUT_EXPIRED)
		return false;
	*known = e->fence;
	return true;
}

void obs_async_poll_stashed(const struct obs_ctx *c, struct obs_async *q, uint64_t at,
			    enum obs_async_when when)
{
	struct read_save s = { false, 0 };
	void *known = NULL;

	if (when == OBS_ASYNC_FRAME)
		q->frame++;
	if (when == OBS_ASYNC_FRAME || when == OBS_ASYNC_WAITED)
		fence_unfenced(c, q);
	while (q->count) {
		const struct obs_staged *e = &q->ring[q->head];
		const bool must = when == OBS_ASYNC_ALL || q->count > MAX_IN_FLIGHT - 1 ||
				  q->bytes > MAX_BYTES_IN_FLIGHT ||
				  (when == OBS_ASYNC_FRAME && e->frame + FRAMES_IN_FLIGHT <= q->frame);
		const bool arrived = signalled(c, e, &known);
		if (!must && !arrived)
			break;
		if (arrived)
			q->stats.signalled++;
		else
			q->stats.waited++;
		read_back(c, q, at, &s);
	}
	if (s.bound)
		c->gl->BindBuffer(OBS_GL_COPY_WRITE_BUFFER, (unsigned)s.old_write);
}

void obs_async_poll(const struct obs_ctx *c, struct obs_async *q, uint64_t at,
		    enum obs_async_when when)
{
	if (!q || !q->count) {
		if (q && when == OBS_ASYNC_FRAME)
			q->frame++;
		return;
	}
	c->stash(c->user);
	obs_async_poll_stashed(c, q, at, when);
}

/* ---- query results ------------------------------------------------------- */

void obs_query_async(const struct obs_ctx *c, struct obs_async *q, uint64_t seq, const char *func,
		     uint32_t id, uint32_t pname, const void *params, size_t elem_bytes)
{
	const struct obs_gl *gl = c->gl;
	struct obs_copy_save save;
	int qbuf = 0;

	/* Only a result the GL wrote into a query buffer is asked again (at
	 * the call, that waits for the GPU); one the application got in its
	 * memory is already there. */
	if (params || pname != OBS_GL_QUERY_RESULT || (elem_bytes != 4 && elem_bytes != 8)) {
		obs_query(c, seq, func, id, pname, params, elem_bytes);
		return;
	}
	c->stash(c->user);
	struct obs_staged *e = obs_async_stage(q, seq, 8);
	uint8_t *h = e ? obs_async_head(e, 256 + strlen(func)) : NULL;
	if (!h) {
		if (e)
			obs_async_unstage(c, q, e);
		obs_query(c, seq, func, id, pname, params, elem_bytes);
		return;
	}
	uint8_t *p = h;
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
	obs_async_head_done(e, (size_t)(p - h), 0, 8);
	e->rec[e->nrec - 1].result_bytes = (unsigned)elem_bytes;
	/* glGetQueryObjectiv / i64v (and the buffer forms) are signed. */
	e->rec[e->nrec - 1].result_signed = strstr(func, "Objecti") != NULL;
	/* The GL writes the result into our staging buffer, bound as the
	 * query buffer for this one call, when the GPU has it. */
	obs_async_copy_begin(c, e, &save);
	gl->GetIntegerv(OBS_GL_QUERY_BUFFER_BINDING, &qbuf);
	gl->BindBuffer(OBS_GL_QUERY_BUFFER, e->buffer);
	gl->GetQueryObjectui64v(id, OBS_GL_QUERY_RESULT, (uint64_t *)0);
	gl->BindBuffer(OBS_GL_QUERY_BUFFER, (unsigned)qbuf);
	if (!obs_async_copy_end(c, q, e, &save)) {
		obs_query(c, seq, func, id, pname, params, elem_bytes);
		return;
	}
	c->pending(c->user, seq, "query", 1);
	obs_async_push(c, q);
	obs_async_poll_stashed(c, q, seq, OBS_ASYNC_POLL);
}
