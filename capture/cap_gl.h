/*
 * cap_gl.h - GL, EGL and GLX types, GL_* enums and typed pointers to the
 * REAL API functions, for the capture library's hand-written code.
 *
 * Hand-written capture code (hooks, observations) must never call the API
 * through its exported names: those are our own wrappers.  It calls
 * CAP_REAL(glGetIntegerv)(GL_ARRAY_BUFFER_BINDING, &v) instead, which
 * yields a correctly typed pointer to the real function, resolved lazily
 * (dlsym(RTLD_NEXT), then the real eglGetProcAddress, then the real
 * glXGetProcAddressARB) and cached.  The pointer is NULL when no loaded
 * library provides the function (check it for anything outside GL 1.1 /
 * GLES 2.0).  Types, enums, CAP_F_* ids and cap_pfn_* types are generated
 * into cap_gl_gen.h from the Khronos registry by specs/gen_glapi.py.
 *
 * Do not include system GL/EGL headers alongside this one.
 */
#ifndef CAP_GL_H
#define CAP_GL_H

#include "cap_gl_gen.h"

/* The real function of every id once resolved, else NULL. */
extern void (*cap_real_ptrs[CAP_F_COUNT])(void);

/*
 * Resolves the real function `id` (see above); NULL when not found now (a
 * later call tries again, since the library may be loaded later).  Thread
 * safe.  Warns once per function that a wrapper found no real function.
 */
void (*cap_real_resolve(unsigned id))(void);

static inline void (*cap_real_get(unsigned id))(void)
{
	void (*p)(void) = __atomic_load_n(&cap_real_ptrs[id], __ATOMIC_RELAXED);
	return p ? p : cap_real_resolve(id);
}

#define CAP_REAL(name) ((cap_pfn_##name)cap_real_get(CAP_F_##name))

#endif
