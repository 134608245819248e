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

#endif
