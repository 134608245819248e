/*
 * replay_names.h - object names and locations the application used, mapped
 * to the replay driver's: buffers, textures, programs and shaders, ...
 * (glapi.h GLAPI_O_*), uniform locations per program, attribute locations,
 * sync handles.
 *
 * A mapping is learnt where the driver hands out a name (glGen*,
 * glCreate*, glCreateProgram / Shader, glFenceSync, glGetUniformLocation)
 * by pairing the recorded result with the replay's.  A recorded name never
 * learnt maps to itself: applications may bind names they never generated
 * (compatibility profiles allow it) and the replay then does the same.
 *
 * Keys: a namespace (a context's share group for shared objects, the
 * context itself for container objects), the kind, an auxiliary key (the
 * program, for uniform locations; 0 otherwise) and the value.  The reverse
 * direction answers "which name did the application use" for observations.
 */
#ifndef REPLAY_NAMES_H
#define REPLAY_NAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "xt_rc.h"

struct replay_names;

/* An empty map; NULL when out of memory. */
struct replay_names *replay_names_create(void);
/* NULL is a no-op. */
void replay_names_destroy(struct replay_names *n);

/* Maps recorded `rec` to replay `rep` (both directions; a later mapping
 * of the same key replaces it).  XT_ERR_NOMEM leaves the map unaltered. */
enum xt_rc replay_names_set(struct replay_names *n, uint32_t ns, unsigned kind, uint64_t aux,
			    uint64_t rec, uint64_t rep);
/* The replay value of recorded `rec`; `rec` itself when none was learnt. */
uint64_t replay_names_get(const struct replay_names *n, uint32_t ns, unsigned kind,
			  uint64_t aux, uint64_t rec);
/* Whether recorded `rec` has a learnt mapping. */
bool replay_names_known(const struct replay_names *n, uint32_t ns, unsigned kind, uint64_t aux,
			uint64_t rec);
/* The recorded value of replay `rep`; `rep` itself when none was learnt. */
uint64_t replay_names_app(const struct replay_names *n, uint32_t ns, unsigned kind,
			  uint64_t aux, uint64_t rep);

#endif
