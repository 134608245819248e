/*
 * obs_int.h - what the observation core's files share: version checks,
 * name translation and the buffer read-back.  Not for users of
 * the core (obs.h is).
 */
#ifndef OBS_INT_H
#define OBS_INT_H

#include "obs.h"
#include "obs_gl_enums.h"

/* Whether the context is desktop GL >= gl_major.gl_minor or, with
 * es_major > 0, GLES >= es_major.es_minor. */
bool obs_ctx_at_least(const struct obs_ctx *c, int gl_major, int gl_minor, int es_major,
		      int es_minor);

/* The application's name of a driver object name. */
uint32_t obs_app_name(const struct obs_ctx *c, enum obs_object kind, uint32_t name);

/*
 * A read-back of a buffer's bytes, in steps so that the bytes can go
 * straight into a record:
 *
 *   obs_readback_begin   makes `buffer` reachable through a target: the
 *                        caller's `bound_target` when it knows `buffer` is
 *                        bound there (the generic TRANSFORM_FEEDBACK_BUFFER
 *                        binding after glBindBufferBase, say: nothing to
 *                        change), else COPY_READ_BUFFER, whose binding is
 *                        saved and bound to `buffer`;
 *   obs_readback_size    its GL_BUFFER_SIZE;
 *   obs_readback_into    copies [offset, offset+size) into `dst` (size
 *                        bytes); NULL, or why it could not (then `dst` is
 *                        untouched);
 *   obs_readback_end     restores what begin changed; with `check`, false
 *                        when the GL raised an error since the caller's
 *                        last GetError (the bytes copied are then not to
 *                        be trusted).
 *
 * Every begin must be followed by an end.
 */
struct obs_readback {
	unsigned target;  /* the target `buffer` is read through */
	bool rebound;     /* COPY_READ_BUFFER was bound: restore `old` */
	int old;          /* COPY_READ_BUFFER_BINDING to restore */
};

void obs_readback_begin(const struct obs_ctx *c, uint32_t buffer, unsigned bound_target,
			struct obs_readback *rb);
int64_t obs_readback_size(const struct obs_ctx *c, const struct obs_readback *rb);
const char *obs_readback_into(const struct obs_ctx *c, const struct obs_readback *rb,
			      int64_t offset, int64_t size, void *dst);
bool obs_readback_end(const struct obs_ctx *c, const struct obs_readback *rb, bool check);

/*
 * The asynchronous read-back's staging (obs_async.c), for obs_tf.c.  A
 * TF observation stages one entry: obs_async_stage (room for `total`
 * bytes), obs_async_head per record (the record's bytes before its `data`
 * key; obs_async_head_done: n bytes of it, [src_start, src_start+n) of
 * buffer `src`, go to staging offset `staging_off`; n 0: "empty range"),
 * then obs_async_push_tf, which copies now or defers the copies until a
 * call may write one of the buffers (obs_async_before_write) or the
 * entry's fence is due.  Only one entry is staged at a time.
 */
#define OBS_ASYNC_MAX_RECORDS 8

struct obs_staged;
/* Room for an entry of `total` staging bytes, NULL when none can be had;
 * a full staging ring is made room in by reading the oldest entries back
 * during call `seq` (waiting for the GPU). */
struct obs_staged *obs_async_stage(const struct obs_ctx *c, struct obs_async *q, uint64_t seq,
				   size_t total);
/* Gives up a staged entry before its copies (its staging buffer goes back
 * to the free list). */
void obs_async_unstage(const struct obs_ctx *c, struct obs_async *q, struct obs_staged *e);
/* Room for a record head of at most `max` bytes, NULL when out of memory;
 * obs_async_head_done says how many were used and where its bytes are. */
uint8_t *obs_async_head(struct obs_staged *e, size_t max);
void obs_async_head_done(struct obs_staged *e, size_t used, size_t staging_off, size_t n,
			 uint32_t src, int64_t src_start);
/* Queues the staged TF entry.  With `defer` its copies wait (see
 * obs_async_before_write); else they are made now, and false says they
 * raised a GL error (a buffer the application has mapped, say): nothing
 * is queued, the staging is released and the caller reads at the call.
 * Announce the entry (obs_ctx.pending) after a true return. */
bool obs_async_push_tf(const struct obs_ctx *c, struct obs_async *q, bool defer);
/* Whether the application has `buffer` mapped (then its TF ranges are
 * copied at the TF end: a mapping may write them unseen). */
bool obs_async_buffer_mapped(const struct obs_ctx *c, uint32_t buffer);
/* A buffer range a TF pass may write: [start, end) of `buffer` (end
 * INT64_MAX: to the buffer's end, a glBindBufferBase binding). */
struct obs_tf_range {
	uint32_t buffer;
	int64_t start, end;
};
/* The TF ranges bound now (at most `max`): from the cache where it is
 * current (obs_tf.c). */
unsigned obs_tf_bound_ranges(const struct obs_ctx *c, struct obs_tf_range *out, unsigned max);
/* Whether obs_tf_bound_ranges would ask the driver nothing. */
bool obs_tf_state_current(const struct obs_ctx *c);
/* The context's CURRENT_PROGRAM as the cache holds it (no GL call); false
 * when the cache is not current. */
bool obs_tf_current_program(const struct obs_ctx *c, uint32_t *program);
/* The queue's own read-back, errors already stashed by the caller. */
void obs_async_poll_stashed(const struct obs_ctx *c, struct obs_async *q, uint64_t at,
			    enum obs_async_when when);

#endif
