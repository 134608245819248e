/*
 * replay_stub.h - the per-function table that specs/emit_replay.py
 * generates into replay_stubs.c: how the host backend calls each GL
 * function (a thunk that casts the driver's entry point to the function's C
 * signature) and which hook it runs around the call.  Indexed by libglapi
 * function id (glapi.h); EGL and GLX functions have no thunk (they are
 * replayed semantically, replay_egl.c).
 */
#ifndef REPLAY_STUB_H
#define REPLAY_STUB_H

#include <stddef.h>
#include <stdint.h>

/* One argument or return value; which member is set follows the
 * parameter's C type (integers widened by signedness). */
union replay_arg {
	int64_t i;
	uint64_t u;
	float f;
	double d;
	void *p;
};

/* Calls `fn` with a[0..n-1] converted to its parameter types; stores the
 * return value, if any, in *ret. */
typedef void (*replay_thunk)(void (*fn)(void), const union replay_arg *a, union replay_arg *ret);

/*
 * What the replay does around a call besides executing it.  The names are
 * the hook names of specs/gl_annotations.py (HOOKS, and DRAW for DRAWS):
 * a hook added there without a name here fails to compile.
 */
enum replay_hook {
	REPLAY_HOOK_NONE = 0,
	REPLAY_HOOK_EGL_CREATE_CONTEXT,
	REPLAY_HOOK_EGL_DESTROY_CONTEXT,
	REPLAY_HOOK_EGL_MAKE_CURRENT,
	REPLAY_HOOK_GLX_CREATE_CONTEXT,
	REPLAY_HOOK_GLX_DESTROY_CONTEXT,
	REPLAY_HOOK_GLX_MAKE_CURRENT,
	REPLAY_HOOK_GLX_MAKE_CONTEXT_CURRENT,
	REPLAY_HOOK_SWAP,
	REPLAY_HOOK_TF_END,
	REPLAY_HOOK_TF_PAUSE,
	REPLAY_HOOK_QUERY_OBJECT,
	REPLAY_HOOK_QUERY_BUFFER_OBJECT,
	REPLAY_HOOK_BUFFER_READ,
	REPLAY_HOOK_NAMED_BUFFER_READ,
	REPLAY_HOOK_MAP,
	REPLAY_HOOK_MAP_RANGE,
	REPLAY_HOOK_NAMED_MAP,
	REPLAY_HOOK_NAMED_MAP_RANGE,
	REPLAY_HOOK_UNMAP,
	REPLAY_HOOK_NAMED_UNMAP,
	REPLAY_HOOK_FLUSH_RANGE,
	REPLAY_HOOK_NAMED_FLUSH_RANGE,
	REPLAY_HOOK_SYNC,
	REPLAY_HOOK_VERTEX_ATTRIB_DIVISOR,
	REPLAY_HOOK_DRAW,
	REPLAY_HOOK_READ_PIXELS,
};

struct replay_stub {
	replay_thunk thunk;   /* NULL: not a GL function */
	uint8_t hook;         /* enum replay_hook */
	/* For a function only extensions provide that gl.xml makes an alias
	 * of another: that other's name, and the extensions (separated by
	 * spaces); NULL for the others. */
	const char *alias;
	const char *alias_exts;
};

extern const struct replay_stub replay_stubs[];
extern const unsigned replay_stub_count;   /* = glapi_func_count() */

#endif
