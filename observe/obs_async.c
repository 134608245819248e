/*
 * obs_async.c - the asynchronous read-back of observations (obs.h,
 * "asynchronous read-back"; issue 23): staging buffers, fences and the
 * queue of read-backs in flight of one GL context.
 *
 * Why: reading a TF buffer at glEndTransformFeedback (obs_tf_end) maps it,
 * and the map waits until the GPU has run everything queued before it: on
 * a real GPU that drains the pipeline at every TF end.  Here the bound
 * ranges are copied on the GPU (glCopyBufferSubData, or
 * glCopyNamedBufferSubData when the context has GL 4.5 or
 * ARB_direct_state_access and no binding need be touched) into staging
 * memory of ours, and the staging memory is read when a fence after the
 * copy has signalled, when the application synchronises anyway, or when
 * too much is in flight.  The staging memory is a persistently mapped
 * ring where the context has buffer storage (struct staging_ring), else a
 * staging buffer per entry.
 *
 * The copies are deferred: a TF end only queues its entry (with the
 * buffer, offset and length of each range), and the copies of every
 * deferred entry are made together, in one batch, when a call is about to
 * write one of their buffers (obs_async_before_write, called by the capture
 * for the calls of specs/gl_annotations.py's BUFFER_WRITES), when a fence
 * is due, or before anything is read back.  A copy made right behind its
 * TF pass makes the driver wait for the pass (NVIDIA: +4 us a copy, +18 us
 * for a GL_STREAM_READ buffer); made later and in a batch it costs ~0.3 us
 * (docs/performance.md).  Where writes may happen that no call announces
 * (obs_ctx.defer_copies false: a share group of several contexts, a
 * persistent write mapping) or a TF buffer is mapped, the copies are made
 * at the TF end, as before.  Deferred entries are always the newest of
 * the queue.
 *
 * One fence covers several copies: it is put after every FENCE_EVERY
 * copies (FENCE_EVERY_RING in the ring) and at each frame's end
 * (eglSwapBuffers), not after each copy nor before a write (the GL runs
 * the copies before the write anyway),
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "obs_int.h"
#include "trace_enc.h"
#include "trace_format.h"
#include "xt_log.h"

#define MAX_IN_FLIGHT 32        /* with staging buffers of their own */
#define MAX_IN_FLIGHT_RING 256  /* in the ring: a frame of a TF-heavy
				 * application holds more TF ends than 32, and
				 * waiting for one drains the GPU's queue */
#define MAX_BYTES_IN_FLIGHT ((size_t)64 << 20)
#define RING_BYTES ((size_t)16 << 20)
#define RING_ALIGN 64u
#define MAX_FREE 16
#define MIN_STAGING_BYTES 4096u
#define FRAMES_IN_FLIGHT 2
#define WRITES_PROGRAMS 8       /* programs whose buffer writes are kept */
#define FENCE_EVERY 8
#define FENCE_EVERY_RING 64     /* a fence after a batch of copies costs
				 * ~20 us on NVIDIA (it flushes them; H100,
				 * tf-heavy); the ring lets 256 copies be in
				 * flight */
#define POLL_EVERY 16           /* TF ends between two polls of the oldest
				 * fence (~0.5 us a poll on NVIDIA) */
#define GATHER_SOURCES 16       /* TF ranges per gather dispatch, at most */
#define GATHER_GROUP 64         /* invocations per work group */
#define GATHER_MAX_GROUPS 1024u /* work groups per range (they loop) */
/* A batch of at most this many ranges, all of buffers whose usage makes a
 * copy call cheap (copy_cheap), is made by copy calls rather than a gather
 * dispatch: copies_cheaper. */
#define COPY_MAX_RANGES 2

struct staged_rec {
	size_t head_off, head_len;  /* in heads */
	size_t staging_off, n;      /* n 0: "empty range" */
	/* A query result (n 8, the 64-bit result the GL wrote): the value
	 * follows the head as the application asked for it, then `to_buffer`
	 * TRUE; 0 for TF data (a BLOB under `data`). */
	unsigned result_bytes;      /* 4 or 8 */
	bool result_signed;
	uint32_t src;               /* TF data: the buffer copied from ... */
	int64_t src_start;          /* ... at this offset (n bytes) */
};

struct obs_staged {
	uint64_t seq;               /* the call observed */
	uint64_t frame;             /* obs_async.frame when staged */
	void *fence;                /* the fence after its copy, shared by the
				     * entries of a group; NULL until fenced */
	bool owns_fence;            /* the group's last: deletes the fence */
	bool in_ring;               /* staged in the ring at ring_off: `buffer`
				     * is the ring's, not the entry's */
	size_t ring_off;            /* 0 unless in_ring */
	unsigned buffer;            /* staging buffer; 0 until created */
	bool copied;                /* its copies are made (not deferred) */
	/* The deferred copies raised a GL error: the bytes were read at that
	 * moment instead (before the write that made the copy due), into
	 * `cpu` at the staging offsets; NULL with cpu_failed when that failed
	 * too. */
	uint8_t *cpu;
	bool cpu_failed;
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

/*
 * The staging ring: one buffer with immutable storage (glBufferStorage)
 * mapped once, persistently and coherently, for reading, in client memory
 * (GL_CLIENT_STORAGE_BIT: a driver keeps it in system memory, where the
 * CPU reads it at memory speed).  The copies of an entry take the bytes
 * [ring_off, ring_off + total) after `write`; entries are read back in
 * order, so the bytes in flight are [tail, write), or [tail, end of the
 * last entry before the wrap) and [0, write) once `write` has wrapped.
 * Once its fence has signalled, an entry's bytes are read with memcpy:
 * no map, no glGetBufferSubData, no binding changed (on NVIDIA, mapping a
 * buffer the GPU wrote costs about what the synchronous read-back did).
 * Where buffer storage is missing, or the ring could not be made, each
 * entry gets a staging buffer of its own (read by map or
 * glGetBufferSubData).
 */
struct staging_ring {
	unsigned buffer;            /* 0: not made yet */
	const uint8_t *map;
	size_t write, tail;
	unsigned entries;           /* entries in flight in the ring */
	bool failed;                /* making it failed: not tried again */
};

/*
 * The gather dispatch (one per context): a compute program of ours whose
 * work group (x, r) copies words of TF range r, bound as read-only shader
 * storage block Src<r> at binding r, into the ring, bound as block Ring at
 * binding k.  A table u_range[r] = (first word in the binding, ring word,
 * words) says where.  Made at the first batch in the ring.
 */
struct gather {
	unsigned program;           /* 0: not made (yet) */
	int range_loc;              /* u_range */
	int k;                      /* ranges per dispatch */
	int align;                  /* SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT */
	int64_t max_block;          /* MAX_SHADER_STORAGE_BLOCK_SIZE */
	bool failed;                /* not possible here: the copies are made */
	/* A dispatch since the last fence: the barrier before the next one
	 * is due (fence_unfenced). */
	bool unbarriered;
};

struct obs_async {
	struct obs_staged ring[MAX_IN_FLIGHT_RING + 1];
	unsigned head, count;       /* queued: ring[head .. head+count) */
	size_t bytes;               /* staging bytes queued */
	uint64_t frame;
	unsigned unfenced;          /* the last entries queued without a fence */
	struct obs_async_stats stats;
	struct free_buffer free[MAX_FREE];
	unsigned nfree;
	struct staging_ring staging;
	void *flushed;              /* the last fence polled with a flush */
	/* The last `deferred` entries queued have not been copied yet: their
	 * buffers are written by no call since their TF end. */
	unsigned deferred;
	unsigned since_poll;        /* OBS_ASYNC_POLLs skipped (POLL_EVERY) */
	/* Whether the current program may write buffers, as last asked:
	 * valid while the program and both generations stay the same. */
	bool writes_known, writes;
	uint64_t writes_program_gen, writes_state_gen;
	struct program_writes {
		uint32_t program;
		bool writes;
	} programs[WRITES_PROGRAMS];  /* asked under writes_program_gen */
	unsigned nprograms, next_program;
	struct gather gather;
};

struct obs_copy_save {
	int old_write, old_read;
	bool read_saved;
};

struct obs_async *obs_async_create(void)
{
	return calloc(1, sizeof(struct obs_async));
}

void obs_async_destroy(struct obs_async *q)
{
	if (!q)
		return;
	for (unsigned i = 0; i <= MAX_IN_FLIGHT_RING; i++) {
		free(q->ring[i].heads);
		free(q->ring[i].cpu);
	}
	free(q);
}

unsigned obs_async_pending(const struct obs_async *q)
{
	return q ? q->count : 0;
}

unsigned obs_async_deferred(const struct obs_async *q)
{
	return q ? q->deferred : 0;
}

void obs_async_stats_add(const struct obs_async *q, struct obs_async_stats *sum)
{
	if (!q)
		return;
	sum->staged += q->stats.staged;
	sum->in_ring += q->stats.in_ring;
	sum->at_call += q->stats.at_call;
	sum->signalled += q->stats.signalled;
	sum->waited += q->stats.waited;
	sum->deferred += q->stats.deferred;
	sum->batches += q->stats.batches;
	sum->before_write += q->stats.before_write;
	sum->gathered += q->stats.gathered;
	sum->dispatches += q->stats.dispatches;
	sum->not_gathered += q->stats.not_gathered;
	sum->chosen_copies += q->stats.chosen_copies;
	sum->cond_copies += q->stats.cond_copies;
	sum->tf_ns += q->stats.tf_ns;
	sum->tf_state_ns += q->stats.tf_state_ns;
	sum->tf_size_ns += q->stats.tf_size_ns;
	sum->tf_stage_ns += q->stats.tf_stage_ns;
	sum->copy_ns += q->stats.copy_ns;
	sum->fence_ns += q->stats.fence_ns;
	sum->poll_ns += q->stats.poll_ns;
	sum->wait_ns += q->stats.wait_ns;
	sum->read_ns += q->stats.read_ns;
	sum->check_ns += q->stats.check_ns;
}

uint64_t obs_async_clock(const struct obs_ctx *c)
{
	struct timespec ts;

	if (!c->timed)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Adds the ns since `start` (obs_async_clock) to *sum. */
static void timed(const struct obs_ctx *c, uint64_t *sum, uint64_t start)
{
	if (c->timed)
		*sum += obs_async_clock(c) - start;
}

void obs_async_tf_timed(const struct obs_ctx *c, struct obs_async *q, uint64_t start)
{
	timed(c, &q->stats.tf_ns, start);
}

void obs_async_part_timed(const struct obs_ctx *c, struct obs_async *q, enum obs_tf_part part,
			  uint64_t start)
{
	uint64_t *sum[] = { [OBS_TF_STATE] = &q->stats.tf_state_ns,
			    [OBS_TF_SIZES] = &q->stats.tf_size_ns,
			    [OBS_TF_STAGE] = &q->stats.tf_stage_ns };
	timed(c, sum[part], start);
}

static bool dsa(const struct obs_ctx *c)
{
	const struct obs_gl *gl = c->gl;
	return !c->gles && (obs_ctx_at_least(c, 4, 5, 0, 0) || c->ext_dsa) && gl->CreateBuffers &&
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

/* The ring's function for the context's API, NULL when there is none. */
static void (*buffer_storage(const struct obs_ctx *c))(unsigned, long, const void *, unsigned)
{
	if (!c->gl->MapBufferRange)
		return NULL;
	if (c->gles)
		return c->ext_buffer_storage ? c->gl->BufferStorageEXT : NULL;
	return obs_ctx_at_least(c, 4, 4, 0, 0) || c->ext_buffer_storage ? c->gl->BufferStorage
									 : NULL;
}

/* Makes the ring; false (for good) when the context cannot.  Errors
 * already stashed by the caller; those raised here are drained. */
static bool ring_make(const struct obs_ctx *c, struct staging_ring *r)
{
	const struct obs_gl *gl = c->gl;
	void (*storage)(unsigned, long, const void *, unsigned) = buffer_storage(c);
	int old = 0;
	void *map = NULL;

	if (r->buffer || r->failed)
		return r->buffer != 0;
	r->failed = true;
	if (!storage)
		return false;
	gl->GetIntegerv(OBS_GL_COPY_WRITE_BUFFER_BINDING, &old);
	gl->GenBuffers(1, &r->buffer);
	gl->BindBuffer(OBS_GL_COPY_WRITE_BUFFER, r->buffer);
	storage(OBS_GL_COPY_WRITE_BUFFER, (long)RING_BYTES, NULL,
		OBS_GL_MAP_READ_BIT | OBS_GL_MAP_PERSISTENT_BIT | OBS_GL_MAP_COHERENT_BIT |
		OBS_GL_CLIENT_STORAGE_BIT);
	if (gl->GetError() == OBS_GL_NO_ERROR)
		map = gl->MapBufferRange(OBS_GL_COPY_WRITE_BUFFER, 0, (long)RING_BYTES,
					 OBS_GL_MAP_READ_BIT | OBS_GL_MAP_PERSISTENT_BIT |
					 OBS_GL_MAP_COHERENT_BIT);
	gl->BindBuffer(OBS_GL_COPY_WRITE_BUFFER, (unsigned)old);
	if (!map || gl->GetError() != OBS_GL_NO_ERROR) {
		c->drain(c->user, "staging ring");
		gl->DeleteBuffers(1, &r->buffer);
		r->buffer = 0;
		return false;
	}
	r->map = map;
	r->failed = false;
	return true;
}

/* Room for `total` bytes in the ring: its offset, or SIZE_MAX when the
 * bytes in flight leave none. */
static size_t ring_alloc(struct staging_ring *r, size_t total)
{
	size_t off;

	total = (total + RING_ALIGN - 1) & ~(size_t)(RING_ALIGN - 1);
	if (!r->entries)
		r->write = r->tail = 0;
	if (r->write >= r->tail) {
		if (RING_BYTES - r->write >= total)
			off = r->write;
		else if (total < r->tail)
			off = 0;   /* wraps: [write, end) stays unused this round */
		else
			return SIZE_MAX;
	} else if (r->tail - r->write > total) {
		off = r->write;
	} else {
		return SIZE_MAX;
	}
	r->write = off + total;
	r->entries++;
	return off;
}

/* Whether `total` more bytes would fit in the ring now. */
static bool ring_fits(const struct staging_ring *r, size_t total)
{
	struct staging_ring probe = *r;
	return ring_alloc(&probe, total) != SIZE_MAX;
}

static void ring_free(struct staging_ring *r, const struct obs_staged *e)
{
	r->tail = e->ring_off + e->total;
	r->entries--;
}

static unsigned max_in_flight(const struct obs_async *q)
{
	return q->staging.buffer ? MAX_IN_FLIGHT_RING : MAX_IN_FLIGHT;
}

static void read_oldest_waiting(const struct obs_ctx *c, struct obs_async *q, uint64_t at);

struct obs_staged *obs_async_stage(const struct obs_ctx *c, struct obs_async *q, uint64_t seq,
				   size_t total)
{
	struct obs_staged *e;
	int best = -1;

	if (total <= RING_BYTES / 4 && ring_make(c, &q->staging)) {
		/* Full: the oldest copies are read back, waiting for the GPU,
		 * as when too many are in flight. */
		while (q->count && (q->count >= MAX_IN_FLIGHT_RING || !ring_fits(&q->staging, total)))
			read_oldest_waiting(c, q, seq);
		e = &q->ring[(q->head + q->count) % (MAX_IN_FLIGHT_RING + 1)];
		e->ring_off = ring_alloc(&q->staging, total);
		if (e->ring_off != SIZE_MAX) {
			e->seq = seq;
			e->frame = q->frame;
			e->fence = NULL;
			e->owns_fence = false;
			e->nrec = 0;
			e->heads_len = 0;
			e->total = total;
			e->in_ring = true;
			e->buffer = q->staging.buffer;
			e->capacity = 0;
			e->copied = false;
			return e;
		}
	}
	if (q->count >= max_in_flight(q))
		return NULL;
	e = &q->ring[(q->head + q->count) % (MAX_IN_FLIGHT_RING + 1)];
	e->in_ring = false;
	e->ring_off = 0;
	e->seq = seq;
	e->frame = q->frame;
	e->fence = NULL;
	e->owns_fence = false;
	e->nrec = 0;
	e->heads_len = 0;
	e->total = total;
	e->buffer = 0;
	e->capacity = 0;
	e->copied = false;
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

void obs_async_head_done(struct obs_staged *e, size_t used, size_t staging_off, size_t n,
			 uint32_t src, int64_t src_start)
{
	struct staged_rec *r = &e->rec[e->nrec++];

	r->src = src;
	r->src_start = src_start;
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

/* Gives back the ring bytes of the entry staged last. */
static void ring_unalloc(struct staging_ring *r, struct obs_staged *e)
{
	r->write = e->ring_off;
	r->entries--;
	e->in_ring = false;
	e->buffer = 0;
}

void obs_async_unstage(const struct obs_ctx *c, struct obs_async *q, struct obs_staged *e)
{
	if (e->in_ring) {
		ring_unalloc(&q->staging, e);
		return;
	}
	release_buffer(c, q, e->buffer, e->capacity);
	e->buffer = 0;
}

/* Saves the bindings the copies change (none with named copies). */
static void copy_save(const struct obs_ctx *c, struct obs_copy_save *s)
{
	s->read_saved = false;
	s->old_write = s->old_read = 0;
	if (!dsa(c))
		c->gl->GetIntegerv(OBS_GL_COPY_WRITE_BUFFER_BINDING, &s->old_write);
}

/* Makes `e`'s staging buffer the copies' destination (creating it). */
static void copy_target(const struct obs_ctx *c, struct obs_staged *e)
{
	const struct obs_gl *gl = c->gl;

	if (dsa(c)) {
		if (!e->buffer) {
			gl->CreateBuffers(1, &e->buffer);
			gl->NamedBufferData(e->buffer, (long)e->capacity, NULL, OBS_GL_STREAM_READ);
		}
		return;
	}
	if (!e->buffer) {
		gl->GenBuffers(1, &e->buffer);
		gl->BindBuffer(OBS_GL_COPY_WRITE_BUFFER, e->buffer);
		gl->BufferData(OBS_GL_COPY_WRITE_BUFFER, (long)e->capacity, NULL, OBS_GL_STREAM_READ);
	} else {
		gl->BindBuffer(OBS_GL_COPY_WRITE_BUFFER, e->buffer);
	}
}

static void copy_begin(const struct obs_ctx *c, struct obs_staged *e, struct obs_copy_save *s)
{
	copy_save(c, s);
	copy_target(c, e);
}

/* Copies [start, start+n) of `buffer` to staging offset `staging_off`
 * (through COPY_READ_BUFFER, saved the first time, unless named). */
static void copy_range(const struct obs_ctx *c, struct obs_staged *e, struct obs_copy_save *s,
		       uint32_t buffer, int64_t start, size_t staging_off, size_t n)
{
	const struct obs_gl *gl = c->gl;

	if (dsa(c)) {
		gl->CopyNamedBufferSubData(buffer, e->buffer, start, (long)(e->ring_off + staging_off),
					   (long)n);
		return;
	}
	if (!s->read_saved) {
		gl->GetIntegerv(OBS_GL_COPY_READ_BUFFER_BINDING, &s->old_read);
		s->read_saved = true;
	}
	gl->BindBuffer(OBS_GL_COPY_READ_BUFFER, buffer);
	gl->CopyBufferSubData(OBS_GL_COPY_READ_BUFFER, OBS_GL_COPY_WRITE_BUFFER, start,
			      (long)(e->ring_off + staging_off), (long)n);
}

/* The copies of `e`'s TF ranges. */
static void copy_ranges(const struct obs_ctx *c, struct obs_staged *e, struct obs_copy_save *s)
{
	for (unsigned i = 0; i < e->nrec; i++) {
		const struct staged_rec *r = &e->rec[i];
		if (r->n)
			copy_range(c, e, s, r->src, r->src_start, r->staging_off, r->n);
	}
}

/* Restores what copy_begin / copy_range changed; false when the copies
 * raised a GL error (left pending for the caller). */
static bool copy_restore(const struct obs_ctx *c, struct obs_copy_save *s)
{
	const struct obs_gl *gl = c->gl;

	if (!dsa(c)) {
		if (s->read_saved)
			gl->BindBuffer(OBS_GL_COPY_READ_BUFFER, (unsigned)s->old_read);
		gl->BindBuffer(OBS_GL_COPY_WRITE_BUFFER, (unsigned)s->old_write);
	}
	return gl->GetError() == OBS_GL_NO_ERROR;
}

static bool copy_end(const struct obs_ctx *c, struct obs_async *q, struct obs_staged *e,
		     struct obs_copy_save *s)
{
	const struct obs_gl *gl = c->gl;

	if (copy_restore(c, s))
		return true;
	q->stats.at_call++;
	/* A buffer the application has mapped, a staging buffer the driver
	 * could not allocate: this call is read synchronously, and the
	 * staging buffer (its size unsure) is not kept. */
	c->drain(c->user, "TF buffer copy");
	if (e->in_ring) {
		ring_unalloc(&q->staging, e);
		return false;
	}
	if (e->buffer)
		gl->DeleteBuffers(1, &e->buffer);
	e->buffer = 0;
	return false;
}

static struct obs_staged *queued(struct obs_async *q, unsigned i)
{
	return &q->ring[(q->head + i) % (MAX_IN_FLIGHT_RING + 1)];
}

/*
 * Reads the TF ranges of `e` now, into memory of its own: its deferred
 * copies failed, and the buffers still hold what the TF pass wrote (no
 * call has written them since).
 */
static void read_at_cpu(const struct obs_ctx *c, struct obs_staged *e)
{
	e->cpu = malloc(e->total ? e->total : 1);
	e->cpu_failed = !e->cpu;
	for (unsigned i = 0; e->cpu && i < e->nrec; i++) {
		const struct staged_rec *r = &e->rec[i];
		struct obs_readback rb;
		if (!r->n)
			continue;
		obs_readback_begin(c, r->src, 0, &rb);
		if (obs_readback_into(c, &rb, r->src_start, (int64_t)r->n, e->cpu + r->staging_off))
			e->cpu_failed = true;
		if (!obs_readback_end(c, &rb, true))
			e->cpu_failed = true;
	}
	if (e->cpu_failed) {
		free(e->cpu);
		e->cpu = NULL;
		c->drain(c->user, "TF buffer read-back");
	}
}

/* ---- the gather dispatch ------------------------------------------------- */

/*
 * Whether the context can run the gather at all: compute shaders and
 * shader storage blocks (GL 4.3, GLES 3.1, or obs_ctx.ext_gather in a
 * GL 3.3 context), the TF state query (GL 4.0, GLES 3.0,
 * ARB_transform_feedback2), glMemoryBarrier, and every function.
 */
static bool gather_possible(const struct obs_ctx *c)
{
	const struct obs_gl *gl = c->gl;
	const bool version = obs_ctx_at_least(c, 4, 3, 3, 1) ||
			     (!c->gles && c->ext_gather && obs_ctx_at_least(c, 3, 3, 0, 0));
	return version && gl->CreateShader && gl->ShaderSource && gl->CompileShader &&
	       gl->GetShaderiv && gl->DeleteShader && gl->CreateProgram && gl->AttachShader &&
	       gl->LinkProgram && gl->DeleteProgram && gl->GetProgramResourceIndex &&
	       gl->ShaderStorageBlockBinding && gl->GetUniformLocation && gl->UseProgram &&
	       gl->Uniform4uiv && gl->BindBufferBase && gl->BindBufferRange &&
	       gl->DispatchCompute && gl->MemoryBarrier && gl->GetProgramiv;
}

/* Whether the shader says its blocks' bindings (GLSL 4.20 / ES 3.10
 * layout(binding)); else glShaderStorageBlockBinding, which GLES lacks. */
static bool gather_bindings_in_shader(const struct obs_ctx *c)
{
	return c->gles || obs_ctx_at_least(c, 4, 3, 0, 0);
}

/* The compute shader for k ranges.  Storage block arrays may be indexed
 * only by constant expressions in GLSL ES 3.10 (dynamically uniform ones
 * in GLSL 4.30): one block per range and a switch. */
static char *gather_source(const struct obs_ctx *c, int k)
{
	const size_t cap = 1024 + (size_t)k * 160;
	const bool bind = gather_bindings_in_shader(c);
	char *src = malloc(cap);
	size_t len = 0;

	if (!src)
		return NULL;
	len += (size_t)snprintf(src, cap, "%s",
		c->gles ? "#version 310 es\n" :
		bind ? "#version 430 core\n" :
		"#version 330 core\n#extension GL_ARB_compute_shader : require\n"
		"#extension GL_ARB_shader_storage_buffer_object : require\n");
	len += (size_t)snprintf(src + len, cap - len,
		"layout(local_size_x = %d) in;\n"
		"uniform uvec4 u_range[%d];\n", GATHER_GROUP, k);
	for (int i = 0; i <= k; i++) {
		char binding[32] = "";
		if (bind)
			snprintf(binding, sizeof binding, ", binding = %d", i);
		if (i < k)
			len += (size_t)snprintf(src + len, cap - len,
				"layout(std430%s) readonly buffer Src%d { uint s%d[]; };\n",
				binding, i, i);
		else
			len += (size_t)snprintf(src + len, cap - len,
				"layout(std430%s) writeonly buffer Ring { uint ring[]; };\n",
				binding);
	}
	len += (size_t)snprintf(src + len, cap - len,
		"void main() {\n"
		"  uint r = gl_WorkGroupID.y;\n"
		"  uvec4 g = u_range[r];\n"
		"  uint step = gl_NumWorkGroups.x * %uu;\n"
		"  for (uint w = gl_GlobalInvocationID.x; w < g.z; w += step) {\n"
		"    uint v = 0u;\n"
		"    switch (r) {\n", (unsigned)GATHER_GROUP);
	for (int i = 0; i < k; i++)
		len += (size_t)snprintf(src + len, cap - len,
			"    case %du: v = s%d[g.x + w]; break;\n", i, i);
	snprintf(src + len, cap - len, "    }\n    ring[g.y + w] = v;\n  }\n}\n");
	return src;
}

/* Makes the gather program (errors already stashed; those raised here
 * are drained); false, for good, when the context cannot. */
static bool gather_make(const struct obs_ctx *c, struct gather *g)
{
	const struct obs_gl *gl = c->gl;
	int blocks = 0, bindings = 0, ok = 0, k = GATHER_SOURCES;
	const char *why = NULL;

	if (g->program || g->failed)
		return g->program != 0;
	g->failed = true;
	if (!gather_possible(c)) {
		xt_info("capture: TF copies: no gather dispatch (GL %d.%d%s: needs GL 4.3, GLES 3.1 "
			"or GL 3.3 with ARB_compute_shader and its companions); copy calls instead",
			c->major, c->minor, c->gles ? " ES" : "");
		return false;
	}
	gl->GetIntegerv(OBS_GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &blocks);
	gl->GetIntegerv(OBS_GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &bindings);
	gl->GetIntegerv(OBS_GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &g->align);
	int max_block = 0;
	gl->GetIntegerv(OBS_GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
	g->max_block = max_block;
	if (blocks - 1 < k)
		k = blocks - 1;
	if (bindings - 1 < k)
		k = bindings - 1;
	char *src = k >= 1 && g->align > 0 && max_block > 0 ? gather_source(c, k) : NULL;
	unsigned shader = src ? gl->CreateShader(OBS_GL_COMPUTE_SHADER) : 0;
	if (shader) {
		const char *const srcs[] = { src };
		gl->ShaderSource(shader, 1, srcs, NULL);
		gl->CompileShader(shader);
		gl->GetShaderiv(shader, OBS_GL_COMPILE_STATUS, &ok);
		if (ok) {
			g->program = gl->CreateProgram();
			gl->AttachShader(g->program, shader);
			gl->LinkProgram(g->program);
			gl->GetProgramiv(g->program, OBS_GL_LINK_STATUS, &ok);
		}
		gl->DeleteShader(shader);   /* freed with the program */
	}
	free(src);
	why = k < 1 ? "too few shader storage blocks" : !shader ? "no compute shader" :
	      !ok ? "the program did not compile or link" : NULL;
	for (int i = 0; !why && !gather_bindings_in_shader(c) && i <= k; i++) {
		char name[16];
		snprintf(name, sizeof name, i < k ? "Src%d" : "Ring", i);
		unsigned index = gl->GetProgramResourceIndex(g->program,
							     OBS_GL_SHADER_STORAGE_BLOCK, name);
		if (index == 0xffffffffu)   /* GL_INVALID_INDEX */
			why = "a storage block is not active";
		else
			gl->ShaderStorageBlockBinding(g->program, index, (unsigned)i);
	}
	g->range_loc = why ? -1 : gl->GetUniformLocation(g->program, "u_range");
	if (!why && g->range_loc < 0)
		why = "no u_range";
	if (!why && gl->GetError() != OBS_GL_NO_ERROR)
		why = "a GL error";
	if (why) {
		c->drain(c->user, "gather program");
		if (g->program)
			gl->DeleteProgram(g->program);
		g->program = 0;
		xt_info("capture: TF copies: no gather dispatch (%s); copy calls instead", why);
		return false;
	}
	g->k = k;
	g->failed = false;
	xt_info("capture: TF copies: gather dispatches of up to %d ranges", k);
	return true;
}

/* A TF range the gather can take: whole words, ring offsets in words. */
static bool gather_takes(const struct gather *g, const struct obs_staged *e,
			 const struct staged_rec *r)
{
	const int64_t lead = r->src_start % g->align;
	return !(r->src_start % 4) && !(r->n % 4) && !((e->ring_off + r->staging_off) % 4) &&
	       (int64_t)r->n + lead <= g->max_block && (e->ring_off + r->staging_off) / 4 +
	       r->n / 4 <= 0xffffffffu;
}

/* The application's state that the gather changes (OpenGL 4.6 core
 * §7.3 / §7.8 / §6.1.1): the current program, the shader storage
 * bindings it uses (indexed and generic). */
struct gather_save {
	int program;
	int generic;
	int buffer[GATHER_SOURCES + 1];
	int64_t start[GATHER_SOURCES + 1], size[GATHER_SOURCES + 1];
};

static void gather_save_binding(const struct obs_ctx *c, struct gather_save *s, int slot,
				unsigned index)
{
	const struct obs_gl *gl = c->gl;

	gl->GetIntegeri_v(OBS_GL_SHADER_STORAGE_BUFFER_BINDING, index, &s->buffer[slot]);
	gl->GetInteger64i_v(OBS_GL_SHADER_STORAGE_BUFFER_START, index, &s->start[slot]);
	gl->GetInteger64i_v(OBS_GL_SHADER_STORAGE_BUFFER_SIZE, index, &s->size[slot]);
}

/* A binding made by glBindBufferBase reads back start and size 0 (a
 * range has a size above 0; the indexed queries, §6.8), so Base restores
 * it. */
static void gather_restore_binding(const struct obs_ctx *c, const struct gather_save *s,
				   int slot, unsigned index)
{
	const struct obs_gl *gl = c->gl;

	if (s->buffer[slot] && s->size[slot] > 0)
		gl->BindBufferRange(OBS_GL_SHADER_STORAGE_BUFFER, index, (unsigned)s->buffer[slot],
				    (long)s->start[slot], (long)s->size[slot]);
	else
		gl->BindBufferBase(OBS_GL_SHADER_STORAGE_BUFFER, index, (unsigned)s->buffer[slot]);
}

/* One dispatch for the m ranges in table[]. */
static void gather_dispatch(const struct obs_ctx *c, struct obs_async *q,
			    unsigned table[][4], int m, unsigned max_words)
{
	unsigned groups = (max_words + GATHER_GROUP - 1) / GATHER_GROUP;

	if (groups > GATHER_MAX_GROUPS)
		groups = GATHER_MAX_GROUPS;
	c->gl->Uniform4uiv(q->gather.range_loc, m, &table[0][0]);
	c->gl->DispatchCompute(groups ? groups : 1, (unsigned)m, 1);
	q->stats.dispatches++;
}

/*
 * Makes the deferred copies, all in the ring, with gather dispatches
 * (errors already stashed; a GL error is left for the caller, as the
 * copies leave theirs).  False, with nothing done, when the gather cannot
 * run now: the copy calls are made instead.
 *
 * What it relies on: TF writes are not shader stores, so the dispatch
 * reads them without a barrier (OpenGL 4.6 core §7.13.2 asks for
 * MemoryBarrier only to order shader stores; GLES 3.1 §7.11.2 the same);
 * its own stores reach the persistent mapping of the ring after
 * MemoryBarrier(CLIENT_MAPPED_BUFFER_BARRIER_BIT) and the fence the batch
 * gets as the copies do (§6.2: a coherent mapping sees the GL's writes
 * once a fence after them has signalled).  The barrier is put once, right
 * before that fence (fence_unfenced), however many batches it covers: the
 * ring is read only after a fence of fence_unfenced has signalled, or
 * after glFinish where none could be made, and a barrier orders every
 * shader store issued before it (§7.13.2).  One per batch cost ~0.5 us
 * per TF end more on NVIDIA where every TF end is a batch
 * (docs/performance.md, "A gather dispatch").  The application's state is
 * put back exactly: the current program (glUseProgram, which is an error
 * while TF is active and not paused, §7.3: then no gather; nor while
 * the current program is flagged for deletion, which leaving it would
 * delete, §7.3), every shader storage binding the gather uses (buffer,
 * start, size) and the generic one.  Uniforms are set on our program only.
 *
 * No dispatch while the application's conditional rendering is active
 * (obs_ctx.cond_render).  What a false condition discards, as the
 * glBeginConditionalRender reference page lists it (the vertex array
 * drawing commands, Clear, ClearBuffer*; BlitFramebuffer since GL 4.4),
 * does not include DispatchCompute, but Mesa (llvmpipe, 22.3) discards it
 * then, and the observation silently keeps the bytes written after it
 * (tests/capture/cap_tf_copy_choice.c); Vulkan's
 * VK_EXT_conditional_rendering predicates dispatches too.  Buffer copies
 * are discarded by neither: the batch is made by copy calls.
 */
static bool gather_deferred(const struct obs_ctx *c, struct obs_async *q)
{
	const struct obs_gl *gl = c->gl;
	struct gather *g = &q->gather;
	struct gather_save s;
	unsigned table[GATHER_SOURCES][4], max_words = 0;
	int ranges = 0, active = 0, paused = 0, deleted = 0, m = 0;

	if (!q->staging.buffer || !gather_make(c, g))
		return false;
	for (unsigned i = q->count - q->deferred; i < q->count; i++) {
		const struct obs_staged *e = queued(q, i);
		for (unsigned j = 0; j < e->nrec; j++) {
			if (!e->rec[j].n)
				continue;
			if (!e->in_ring || !gather_takes(g, e, &e->rec[j]))
				return false;
			ranges++;
		}
	}
	if (!ranges)
		return false;
	if (c->cond_render) {
		q->stats.cond_copies++;
		return false;
	}
	gl->GetIntegerv(OBS_GL_TRANSFORM_FEEDBACK_ACTIVE, &active);
	gl->GetIntegerv(OBS_GL_TRANSFORM_FEEDBACK_PAUSED, &paused);
	gl->GetIntegerv(OBS_GL_CURRENT_PROGRAM, &s.program);
	if (s.program)
		gl->GetProgramiv((unsigned)s.program, OBS_GL_DELETE_STATUS, &deleted);
	if (gl->GetError() != OBS_GL_NO_ERROR) {
		c->drain(c->user, "gather state");
		return false;
	}
	if ((active && !paused) || deleted)
		return false;
	const int used = ranges < g->k ? ranges : g->k;
	gl->GetIntegerv(OBS_GL_SHADER_STORAGE_BUFFER_BINDING, &s.generic);
	for (int i = 0; i < used; i++)
		gather_save_binding(c, &s, i, (unsigned)i);
	gather_save_binding(c, &s, GATHER_SOURCES, (unsigned)g->k);

	gl->UseProgram(g->program);
	gl->BindBufferBase(OBS_GL_SHADER_STORAGE_BUFFER, (unsigned)g->k, q->staging.buffer);
	for (unsigned i = q->count - q->deferred; i < q->count; i++) {
		const struct obs_staged *e = queued(q, i);
		for (unsigned j = 0; j < e->nrec; j++) {
			const struct staged_rec *r = &e->rec[j];
			if (!r->n)
				continue;
			const int64_t lead = r->src_start % g->align;
			gl->BindBufferRange(OBS_GL_SHADER_STORAGE_BUFFER, (unsigned)m, r->src,
					    (long)(r->src_start - lead), (long)(lead + (int64_t)r->n));
			table[m][0] = (unsigned)(lead / 4);
			table[m][1] = (unsigned)((e->ring_off + r->staging_off) / 4);
			table[m][2] = (unsigned)(r->n / 4);
			table[m][3] = 0;
			if (table[m][2] > max_words)
				max_words = table[m][2];
			if (++m == g->k) {
				gather_dispatch(c, q, table, m, max_words);
				m = 0;
				max_words = 0;
			}
		}
	}
	if (m)
		gather_dispatch(c, q, table, m, max_words);
	g->unbarriered = true;

	for (int i = 0; i < used; i++)
		gather_restore_binding(c, &s, i, (unsigned)i);
	gather_restore_binding(c, &s, GATHER_SOURCES, (unsigned)g->k);
	gl->BindBuffer(OBS_GL_SHADER_STORAGE_BUFFER, (unsigned)s.generic);
	gl->UseProgram((unsigned)s.program);
	q->stats.gathered++;
	return true;
}

/*
 * Whether a copy call of a range of a buffer whose data store was made with
 * `usage` (obs_ctx.buffer_usage) costs less than the gather dispatch.
 * Measured on NVIDIA H100, driver 580 (docs/performance.md, "Copy calls or
 * the gather dispatch"; cap-bench `keep-usages`), right behind the TF pass
 * that wrote the range: a gather dispatch +6.2 to +6.4 us whatever the
 * usage; a copy call +4.0 to +4.15 us for the six *_DRAW and *_COPY
 * usages and for immutable storage (no flags, DYNAMIC_STORAGE or
 * MAP_READ; +5.0 with CLIENT_STORAGE, where the gather costs +7.6), +18 to
 * +20.5 us for the three *_READ usages.  Not known (0): the gather.
 */
static bool copy_cheap(uint32_t usage)
{
	if (usage & OBS_USAGE_STORAGE)
		return true;
	switch (usage) {
	case OBS_GL_STREAM_DRAW:
	case OBS_GL_STATIC_DRAW:
	case OBS_GL_DYNAMIC_DRAW:
	case OBS_GL_STREAM_COPY:
	case OBS_GL_STATIC_COPY:
	case OBS_GL_DYNAMIC_COPY:
		return true;
	default:
		return false;
	}
}

/*
 * Whether the deferred batch is made more cheaply by copy calls than by a
 * gather dispatch: at most COPY_MAX_RANGES ranges, each of a buffer whose
 * usage makes a copy cheap.  Measured as above: one, two and four copy
 * calls right behind the pass +4.0, +5.4 and +8.1 us, against +6.2 to
 * +6.4 us for a dispatch of any number of ranges: two copies still cost
 * less, three (~6.8 us) do not.  Both ways are correct on any driver; only
 * the cost differs.  The usage is what the caller saw of the application's
 * calls, no GL query.
 */
static bool copies_cheaper(const struct obs_ctx *c, struct obs_async *q)
{
	unsigned ranges = 0;

	if (!c->buffer_usage || !q->staging.buffer)
		return false;   /* without the ring there is no gather anyway */
	for (unsigned i = q->count - q->deferred; i < q->count; i++) {
		const struct obs_staged *e = queued(q, i);
		for (unsigned j = 0; j < e->nrec; j++) {
			if (!e->rec[j].n)
				continue;
			if (++ranges > COPY_MAX_RANGES ||
			    !copy_cheap(c->buffer_usage(c->user, e->rec[j].src)))
				return false;
		}
	}
	return ranges > 0;
}

/*
 * Makes the deferred copies, all in one batch (errors already stashed).
 * When they raise a GL error (which of them is not known) every entry of
 * the batch is read at the CPU instead, which the buffers still allow.
 */
static void copy_deferred(const struct obs_ctx *c, struct obs_async *q)
{
	struct obs_copy_save s;

	if (!q->deferred)
		return;
	const uint64_t t = obs_async_clock(c);
	bool ok;
	const bool cheaper = copies_cheaper(c, q);
	if (!cheaper && gather_deferred(c, q)) {
		ok = c->gl->GetError() == OBS_GL_NO_ERROR;
		if (!ok) {
			/* Not tried again: the copies are made from now on. */
			q->gather.failed = true;
			xt_info("capture: TF copies: a gather dispatch raised a GL error; "
				"copy calls from now on");
		}
	} else {
		if (q->staging.buffer && (q->gather.program || cheaper))
			q->stats.not_gathered++;
		if (cheaper)
			q->stats.chosen_copies++;
		copy_save(c, &s);
		for (unsigned i = q->count - q->deferred; i < q->count; i++) {
			struct obs_staged *e = queued(q, i);
			copy_target(c, e);
			copy_ranges(c, e, &s);
		}
		ok = copy_restore(c, &s);
	}
	if (!ok)
		c->drain(c->user, "deferred TF buffer copy");
	for (unsigned i = q->count - q->deferred; i < q->count; i++) {
		struct obs_staged *e = queued(q, i);
		if (!ok) {
			q->stats.at_call++;
			read_at_cpu(c, e);
		}
		e->copied = true;
	}
	q->deferred = 0;
	q->stats.batches++;
	timed(c, &q->stats.copy_ns, t);
}

/* A fence after the entries queued without one, their deferred copies
 * made first. */
static void fence_unfenced(const struct obs_ctx *c, struct obs_async *q)
{
	void *fence;

	copy_deferred(c, q);
	if (!q->unfenced)
		return;
	const uint64_t t = obs_async_clock(c);
	if (q->gather.unbarriered) {
		/* The gather dispatches' stores, for the ring's mapping. */
		c->gl->MemoryBarrier(OBS_GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
		q->gather.unbarriered = false;
	}
	fence = c->gl->FenceSync(OBS_GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	timed(c, &q->stats.fence_ns, t);
	if (!fence)
		return;   /* they are read when forced */
	for (unsigned i = q->count - q->unfenced; i < q->count; i++)
		queued(q, i)->fence = fence;
	queued(q, q->count - 1)->owns_fence = true;
	q->unfenced = 0;
}

/* Queues the entry staged last; puts a fence after it when enough
 * entries have none. */
static void push(const struct obs_ctx *c, struct obs_async *q)
{
	struct obs_staged *e = queued(q, q->count);

	q->count++;
	if (!e->in_ring)
		q->bytes += e->total;
	q->stats.staged++;
	if (e->in_ring)
		q->stats.in_ring++;
	if (!e->copied) {
		q->deferred++;
		q->stats.deferred++;
	}
	if (++q->unfenced >= (e->in_ring ? FENCE_EVERY_RING : FENCE_EVERY))
		fence_unfenced(c, q);
}

bool obs_async_push_tf(const struct obs_ctx *c, struct obs_async *q, bool defer)
{
	struct obs_staged *e = queued(q, q->count);
	struct obs_copy_save s;

	e->cpu = NULL;
	e->cpu_failed = false;
	if (!defer) {
		copy_deferred(c, q);   /* the deferred ones stay the newest */
		const uint64_t t = obs_async_clock(c);
		copy_begin(c, e, &s);
		copy_ranges(c, e, &s);
		const bool ok = copy_end(c, q, e, &s);
		timed(c, &q->stats.copy_ns, t);
		if (!ok)
			return false;
		e->copied = true;
	}
	push(c, q);
	return true;
}

/* ---- deferred copies: the calls that may write their buffers ------------ */

bool obs_async_buffer_mapped(const struct obs_ctx *c, uint32_t buffer)
{
	int mapped = 1;

	if (dsa(c) && c->gl->GetNamedBufferParameteriv) {
		c->gl->GetNamedBufferParameteriv(buffer, OBS_GL_BUFFER_MAPPED, &mapped);
	} else {
		struct obs_readback rb;
		obs_readback_begin(c, buffer, 0, &rb);
		c->gl->GetBufferParameteriv(rb.target, OBS_GL_BUFFER_MAPPED, &mapped);
		obs_readback_end(c, &rb, false);
	}
	return mapped != 0;
}

/* Whether a deferred copy reads one of the `n` buffers. */
static bool deferred_reads(struct obs_async *q, const uint32_t *buffers, size_t n)
{
	for (unsigned i = q->count - q->deferred; i < q->count; i++) {
		const struct obs_staged *e = queued(q, i);
		for (unsigned j = 0; j < e->nrec; j++)
			for (size_t k = 0; k < n; k++)
				if (e->rec[j].n && buffers[k] && e->rec[j].src == buffers[k])
					return true;
	}
	return false;
}

/* Whether a deferred copy reads bytes of one of the `n` ranges: a TF pass
 * writes only inside its bound ranges, so a range of the same buffer
 * that a queued TF end wrote elsewhere keeps its copy deferred (TF into
 * one buffer at moving offsets batches up as TF into several buffers). */
static bool deferred_overlaps(struct obs_async *q, const struct obs_tf_range *ranges, size_t n)
{
	for (unsigned i = q->count - q->deferred; i < q->count; i++) {
		const struct obs_staged *e = queued(q, i);
		for (unsigned j = 0; j < e->nrec; j++) {
			const struct staged_rec *r = &e->rec[j];
			for (size_t k = 0; r->n && k < n; k++)
				if (r->src == ranges[k].buffer && r->src_start < ranges[k].end &&
				    ranges[k].start < r->src_start + (int64_t)r->n)
					return true;
		}
	}
	return false;
}

/* Whether `program` (0: a pipeline or none) may write buffers. */
static bool program_may_write(const struct obs_ctx *c, uint32_t program)
{
	const struct obs_gl *gl = c->gl;
	static const unsigned blocks[] = { OBS_GL_SHADER_STORAGE_BLOCK,
					   OBS_GL_ATOMIC_COUNTER_BUFFER };
	int n = 0, pipeline = 0;
	bool writes = false;

	if (!obs_ctx_at_least(c, 4, 3, 3, 1) && !(!c->gles && c->ext_program_interface))
		/* Nothing to ask: below GL 4.2 / GLES 3.1 shaders write
		 * buffers only through these extensions. */
		return !c->gles && (c->ext_shader_writes || obs_ctx_at_least(c, 4, 2, 0, 0));
	if (!gl->GetProgramInterfaceiv || !gl->GetProgramResourceiv)
		return true;
	if (!program) {
		if (obs_ctx_at_least(c, 4, 1, 3, 1))
			gl->GetIntegerv(OBS_GL_PROGRAM_PIPELINE_BINDING, &pipeline);
		return pipeline != 0;   /* its stages' programs: not looked into */
	}
	for (unsigned i = 0; i < sizeof blocks / sizeof blocks[0] && !writes; i++) {
		n = 0;
		gl->GetProgramInterfaceiv(program, blocks[i], OBS_GL_ACTIVE_RESOURCES, &n);
		writes = n > 0;
	}
	n = 0;
	if (!writes)
		gl->GetProgramInterfaceiv(program, OBS_GL_UNIFORM, OBS_GL_ACTIVE_RESOURCES, &n);
	for (int i = 0; i < n && !writes; i++) {
		const unsigned prop = OBS_GL_TYPE;
		int type = 0;
		gl->GetProgramResourceiv(program, OBS_GL_UNIFORM, (unsigned)i, 1, &prop, 1, NULL,
					 &type);
		writes = type == OBS_GL_IMAGE_BUFFER || type == OBS_GL_INT_IMAGE_BUFFER ||
			 type == OBS_GL_UNSIGNED_INT_IMAGE_BUFFER;
	}
	if (gl->GetError() != OBS_GL_NO_ERROR) {
		c->drain(c->user, "program interface query");
		return true;   /* not known: as if it wrote */
	}
	return writes;
}

/* Puts the application's pending GL errors aside before the first GL call
 * of obs_async_before_write. */
static void stash_once(const struct obs_ctx *c, bool *stashed)
{
	if (!*stashed)
		c->stash(c->user);
	*stashed = true;
}

/* Whether the current program may write buffers: asked once per program
 * and link (the last few programs are kept). */
static bool current_program_writes(const struct obs_ctx *c, struct obs_async *q, bool *stashed)
{
	uint32_t current;
	int program = 0;

	if (q->writes_known && q->writes_state_gen == c->tf_state_generation &&
	    q->writes_program_gen == c->program_generation)
		return q->writes;
	if (obs_tf_current_program(c, &current)) {
		program = (int)current;
	} else {
		stash_once(c, stashed);
		c->gl->GetIntegerv(OBS_GL_CURRENT_PROGRAM, &program);
	}
	if (q->writes_program_gen != c->program_generation) {
		q->nprograms = q->next_program = 0;
		q->writes_program_gen = c->program_generation;
	}
	q->writes_known = false;
	for (unsigned i = 0; i < q->nprograms; i++)
		if (q->programs[i].program == (uint32_t)program) {
			q->writes = q->programs[i].writes;
			q->writes_known = true;
		}
	if (!q->writes_known) {
		stash_once(c, stashed);
		q->writes = program_may_write(c, (uint32_t)program);
		/* A pipeline's stages may change without a generation. */
		q->writes_known = program != 0;
		if (program) {
			q->programs[q->next_program] =
				(struct program_writes){ (uint32_t)program, q->writes };
			q->next_program = (q->next_program + 1) % WRITES_PROGRAMS;
			if (q->nprograms < WRITES_PROGRAMS)
				q->nprograms++;
		}
	}
	q->writes_state_gen = c->tf_state_generation;
	return q->writes;
}

void obs_async_before_write(const struct obs_ctx *c, struct obs_async *q, uint64_t seq,
			    enum obs_write kind, const uint32_t *buffers, size_t n)
{
	struct obs_tf_range tf[OBS_ASYNC_MAX_RECORDS * 4];
	bool due, stashed = false;

	(void)seq;
	if (!q || !q->deferred)
		return;
	const uint64_t t = obs_async_clock(c);
	switch (kind) {
	case OBS_WRITE_TF:
		if (!obs_tf_state_current(c))
			stash_once(c, &stashed);
		n = obs_tf_bound_ranges(c, tf, sizeof tf / sizeof tf[0]);
		due = deferred_overlaps(q, tf, n);
		break;
	case OBS_WRITE_PROGRAM:
		due = current_program_writes(c, q, &stashed);
		break;
	case OBS_WRITE_ANY:
		due = true;
		break;
	default:
		due = deferred_reads(q, buffers, n);
		break;
	}
	if (due) {
		/* The GL runs the copies before the write: no fence needed
		 * yet (one is put when FENCE_EVERY entries have none, or at
		 * the next synchronisation point). */
		stash_once(c, &stashed);
		q->stats.before_write++;
		copy_deferred(c, q);
	}
	timed(c, &q->stats.check_ns, t);
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

	if (mapped) {
		memcpy(dst, mapped + off, n);
		return true;
	}
	if (dsa(c))
		gl->GetNamedBufferSubData(e->buffer, (long)off, (long)n, dst);
	else if (!c->gles)
		gl->GetBufferSubData(OBS_GL_COPY_WRITE_BUFFER, (long)off, (long)n, dst);
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
	const uint64_t t = obs_async_clock(c);

	if (!e->copied)
		fence_unfenced(c, q);   /* not in a ring: read below, which waits */
	if (e->cpu || e->cpu_failed) {
		mapped = e->cpu;        /* read at the CPU when the copies failed */
	} else if (e->in_ring) {
		mapped = q->staging.map + e->ring_off;
	} else if (!named) {
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
		} else if (e->cpu_failed) {
			why = "the deferred copy and the read-back failed";
		} else if (e->in_ring || e->cpu) {
			memcpy(p, mapped + r->staging_off, r->n);
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
	if (e->in_ring)
		ring_free(&q->staging, e);
	else if (mapped && !e->cpu)
		gl->UnmapBuffer(OBS_GL_COPY_WRITE_BUFFER);
	free(e->cpu);
	e->cpu = NULL;
	if (c->gles && e->total && !mapped)
		c->drain(c->user, "TF staging read-back");
	if (e->owns_fence) {
		gl->DeleteSync(e->fence);
		if (q->flushed == e->fence)
			q->flushed = NULL;
	}
	if (!e->in_ring)
		release_buffer(c, q, e->buffer, e->capacity);
	if (q->unfenced > q->count - 1)
		q->unfenced = q->count - 1;   /* it was one of them */
	e->fence = NULL;
	e->owns_fence = false;
	if (!e->in_ring)
		q->bytes -= e->total;
	e->in_ring = false;
	q->head = (q->head + 1) % (MAX_IN_FLIGHT_RING + 1);
	q->count--;
	timed(c, &q->stats.read_ns, t);
}

/* Whether the copy of `e` has arrived: its fence has signalled (or
 * failed: then the read waits).  `known` is a fence seen signalled in this
 * poll, which the entries of its group share: asked once. */
static bool signalled(const struct obs_ctx *c, struct obs_async *q, const struct obs_staged *e,
		      void **known)
{
	unsigned flags = 0;

	if (!e->fence)
		return false;
	if (e->fence == *known)
		return true;
	/* The first poll of a fence flushes the commands before it, so that
	 * it signals without a later wait; the others do not. */
	if (q->flushed != e->fence) {
		flags = OBS_GL_SYNC_FLUSH_COMMANDS_BIT;
		q->flushed = e->fence;
	}
	const uint64_t t = obs_async_clock(c);
	const unsigned r = c->gl->ClientWaitSync(e->fence, flags, 0);
	timed(c, &q->stats.poll_ns, t);
	if (r == OBS_GL_TIMEOUT_EXPIRED)
		return false;
	*known = e->fence;
	return true;
}

/*
 * Waits until the copies of `e`, a ring entry, have arrived: a ring is
 * read with memcpy, which waits for nothing.  An entry without a fence
 * gets one (with the others that have none); a fence that cannot be made
 * or waited on leaves glFinish.
 */
static void wait_ring_entry(const struct obs_ctx *c, struct obs_async *q, struct obs_staged *e)
{
	const struct obs_gl *gl = c->gl;

	if (!e->fence)
		fence_unfenced(c, q);
	const uint64_t t = obs_async_clock(c);
	if (e->fence) {
		unsigned r;
		q->flushed = e->fence;
		do
			r = gl->ClientWaitSync(e->fence, OBS_GL_SYNC_FLUSH_COMMANDS_BIT,
					       (uint64_t)1000000000);
		while (r == OBS_GL_TIMEOUT_EXPIRED);
		if (r != OBS_GL_WAIT_FAILED) {
			timed(c, &q->stats.wait_ns, t);
			return;
		}
	}
	gl->Finish();
	timed(c, &q->stats.wait_ns, t);
}

/* The oldest entry read back now, waiting for the GPU if need be. */
static void read_oldest_waiting(const struct obs_ctx *c, struct obs_async *q, uint64_t at)
{
	struct read_save s = { false, 0 };
	struct obs_staged *e = &q->ring[q->head];
	void *known = NULL;

	if (signalled(c, q, e, &known)) {
		q->stats.signalled++;
	} else {
		q->stats.waited++;
		if (e->in_ring)
			wait_ring_entry(c, q, e);
	}
	read_back(c, q, at, &s);
	if (s.bound)
		c->gl->BindBuffer(OBS_GL_COPY_WRITE_BUFFER, (unsigned)s.old_write);
}

void obs_async_poll_stashed(const struct obs_ctx *c, struct obs_async *q, uint64_t at,
			    enum obs_async_when when)
{
	struct read_save s = { false, 0 };
	void *known = NULL;

	if (when == OBS_ASYNC_POLL && q->count < max_in_flight(q) &&
	    q->bytes <= MAX_BYTES_IN_FLIGHT && ++q->since_poll < POLL_EVERY)
		return;
	q->since_poll = 0;
	if (when == OBS_ASYNC_FRAME)
		q->frame++;
	if (when == OBS_ASYNC_FRAME || when == OBS_ASYNC_WAITED)
		fence_unfenced(c, q);
	while (q->count) {
		struct obs_staged *e = &q->ring[q->head];
		const bool must = when == OBS_ASYNC_ALL || q->count > max_in_flight(q) - 1 ||
				  q->bytes > MAX_BYTES_IN_FLIGHT ||
				  (when == OBS_ASYNC_FRAME && e->frame + FRAMES_IN_FLIGHT <= q->frame);
		const bool arrived = signalled(c, q, e, &known);
		if (!must && !arrived)
			break;
		if (arrived) {
			q->stats.signalled++;
		} else {
			q->stats.waited++;
			if (e->in_ring)
				wait_ring_entry(c, q, e);
		}
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
	struct obs_staged *e = obs_async_stage(c, q, seq, 8);
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
	obs_async_head_done(e, (size_t)(p - h), 0, 8, 0, 0);
	e->rec[e->nrec - 1].result_bytes = (unsigned)elem_bytes;
	/* glGetQueryObjectiv / i64v (and the buffer forms) are signed. */
	e->rec[e->nrec - 1].result_signed = strstr(func, "Objecti") != NULL;
	/* The GL writes the result into our staging buffer, bound as the
	 * query buffer for this one call, when the GPU has it. */
	copy_deferred(c, q);   /* the deferred ones stay the newest */
	e->cpu = NULL;
	e->cpu_failed = false;
	copy_begin(c, e, &save);
	gl->GetIntegerv(OBS_GL_QUERY_BUFFER_BINDING, &qbuf);
	gl->BindBuffer(OBS_GL_QUERY_BUFFER, e->buffer);
	gl->GetQueryObjectui64v(id, OBS_GL_QUERY_RESULT, (uint64_t *)(uintptr_t)e->ring_off);
	gl->BindBuffer(OBS_GL_QUERY_BUFFER, (unsigned)qbuf);
	if (!copy_end(c, q, e, &save)) {
		obs_query(c, seq, func, id, pname, params, elem_bytes);
		return;
	}
	e->copied = true;
	c->pending(c->user, seq, "query", 1);
	push(c, q);
	obs_async_poll_stashed(c, q, seq, OBS_ASYNC_POLL);
}
