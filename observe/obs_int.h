/*
 * obs_int.h - what the observation core's files share: version checks,
 * name translation and the COPY_READ_BUFFER read-back.  Not for users of
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
 * Reads [offset, offset+size) of `buffer` into a new heap block (free()
 * it) through the COPY_READ_BUFFER binding, restored after.  NULL with *why
 * set when it cannot.
 */
void *obs_buffer_copy(const struct obs_ctx *c, uint32_t buffer, int64_t offset, int64_t size,
		      const char **why);

/* GL_BUFFER_SIZE of `buffer` (through COPY_READ_BUFFER, restored). */
int64_t obs_buffer_size(const struct obs_ctx *c, uint32_t buffer);

#endif
