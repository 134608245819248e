/*
 * cap_interpose.c - how the capture gets between the application and the
 * real GL: lazy resolution of real functions, the GetProcAddress wrappers
 * and the dlopen hook.  docs/apitrace.md §3 says what apitrace does and
 * misses here, and §5 why desktop piglit needs glXGetProcAddress.
 *
 * Real functions: dlsym(RTLD_NEXT, name), then the real eglGetProcAddress,
 * then the real glXGetProcAddressARB (glvnd's stubs dispatch on the current
 * context whatever window-system API made it current).  A miss is not
 * cached: the library may be loaded later.
 *
 * GetProcAddress: eglGetProcAddress, glXGetProcAddress and
 * glXGetProcAddressARB return our wrapper for every function we know (when
 * the real one exists), so applications that resolve all entry points this
 * way (desktop piglit, even under EGL) are fully traced.
 *
 * dlopen: for the exact basenames of the GL API libraries (libGL.so[.1],
 * libEGL.so[.1], libGLESv2.so[.2], libGLESv1_CM.so[.1], libOpenGL.so[.0],
 * libGLX.so[.0]) the real library is loaded RTLD_GLOBAL (so RTLD_NEXT finds
 * it) and a handle to this library is returned, so the application's later
 * dlsym() finds our wrappers.  Calls from GL libraries themselves are left
 * alone.
 */
#define CAP_WRAPPER_PROTOTYPES
#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>

#include "cap_state.h"
#include "glapi.h"
#include "xt_log.h"

void (*cap_real_ptrs[CAP_F_COUNT])(void);

typedef void (*(*gpa_fn)(const char *))(void);

static void *(*real_dlopen_fn)(const char *, int);

static void (*lookup_next(const char *name))(void)
{
	void *p = dlsym(RTLD_NEXT, name);
	void (*f)(void);

	memcpy(&f, &p, sizeof(f));
	return f;
}

void (*cap_real_resolve(unsigned id))(void)
{
	struct glapi_func_info fi;
	void (*f)(void);

	if (id >= CAP_F_COUNT || !glapi_func_info((int)id, &fi))
		return NULL;
	f = lookup_next(fi.name);
	if (!f && strncmp(fi.name, "eglGetProcAddress", 17) != 0) {
		gpa_fn gpa = (gpa_fn)lookup_next("eglGetProcAddress");
		if (gpa)
			f = gpa(fi.name);
	}
	if (!f && strncmp(fi.name, "glXGetProcAddress", 17) != 0) {
		gpa_fn gpa = (gpa_fn)lookup_next("glXGetProcAddressARB");
		if (gpa)
			f = gpa(fi.name);
	}
	if (f)
		__atomic_store_n(&cap_real_ptrs[id], f, __ATOMIC_RELAXED);
	return f;
}

/* What GetProcAddress returns for `name` when the real one gave `real`. */
static void (*proc_wrap(const char *name, void (*real)(void)))(void)
{
	static atomic_int warned;
	void (*expected)(void) = NULL;
	int id;

	if (!real || !name)
		return real;
	id = glapi_func_lookup(name);
	if (id < 0) {
		if (!atomic_exchange(&warned, 1))
			xt_warn("capture: unknown function \"%s\" resolved: its calls are not traced "
				"(further unknown functions are not reported)", name);
		return real;
	}
	__atomic_compare_exchange_n(&cap_real_ptrs[id], &expected, real, false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return cap_wrappers[id];
}

CAP_EXPORT __eglMustCastToProperFunctionPointerType eglGetProcAddress(const char *procname)
{
	union cap_arg a[1];
	struct cap_call c;
	cap_pfn_eglGetProcAddress f = CAP_REAL(eglGetProcAddress);
	__eglMustCastToProperFunctionPointerType r;

	a[0].u = (uintptr_t)procname;
	cap_call_enter(&c, CAP_F_eglGetProcAddress, a);
	r = proc_wrap(procname, f ? f(procname) : NULL);
	c.ret.u = (uintptr_t)r;
	cap_call_leave(&c);
	return r;
}

CAP_EXPORT __GLXextFuncPtr glXGetProcAddressARB(const GLubyte *procName)
{
	union cap_arg a[1];
	struct cap_call c;
	cap_pfn_glXGetProcAddressARB f = CAP_REAL(glXGetProcAddressARB);
	__GLXextFuncPtr r;

	a[0].u = (uintptr_t)procName;
	cap_call_enter(&c, CAP_F_glXGetProcAddressARB, a);
	r = proc_wrap((const char *)procName, f ? f(procName) : NULL);
	c.ret.u = (uintptr_t)r;
	cap_call_leave(&c);
	return r;
}

CAP_EXPORT __GLXextFuncPtr glXGetProcAddress(const GLubyte *procName)
{
	union cap_arg a[1];
	struct cap_call c;
	cap_pfn_glXGetProcAddress f = CAP_REAL(glXGetProcAddress);
	__GLXextFuncPtr r;

	a[0].u = (uintptr_t)procName;
	cap_call_enter(&c, CAP_F_glXGetProcAddress, a);
	r = proc_wrap((const char *)procName, f ? f(procName) : NULL);
	c.ret.u = (uintptr_t)r;
	cap_call_leave(&c);
	return r;
}

static bool is_gl_library(const char *path)
{
	static const char *const names[] = {
		"libGL.so", "libGL.so.1", "libEGL.so", "libEGL.so.1",
		"libGLESv2.so", "libGLESv2.so.2", "libGLESv1_CM.so", "libGLESv1_CM.so.1",
		"libOpenGL.so", "libOpenGL.so.0", "libGLX.so", "libGLX.so.0",
	};
	const char *base;

	if (!path)
		return false;
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(base, names[i]) == 0)
			return true;
	return false;
}

/* Whether code at `addr` belongs to a GL/EGL/GLX library (or to us). */
static bool caller_is_gl(const void *addr)
{
	Dl_info info;
	const char *base;

	if (!dladdr(addr, &info) || !info.dli_fname)
		return false;
	base = strrchr(info.dli_fname, '/') ? strrchr(info.dli_fname, '/') + 1 : info.dli_fname;
	return strncmp(base, "libGL", 5) == 0 || strncmp(base, "libEGL", 6) == 0 ||
	       strncmp(base, "libOpenGL", 9) == 0 || strncmp(base, "libgl", 5) == 0 ||
	       strncmp(base, "libxfbtrace-capture", 19) == 0;
}

CAP_EXPORT void *dlopen(const char *filename, int flags)
{
	const void *caller = __builtin_return_address(0);
	Dl_info self;
	void *h, *me;

	if (!real_dlopen_fn) {
		void *p = dlsym(RTLD_NEXT, "dlopen");
		memcpy(&real_dlopen_fn, &p, sizeof(p));
		if (!real_dlopen_fn)
			return NULL;
	}
	if (!is_gl_library(filename) || caller_is_gl(caller))
		return real_dlopen_fn(filename, flags);
	h = real_dlopen_fn(filename, flags | RTLD_GLOBAL);
	if (!h)
		return NULL;
	if (!dladdr((const void *)cap_wrappers, &self) || !self.dli_fname)
		return h;
	/* Our own handle: dlsym() on it finds the wrappers. */
	me = real_dlopen_fn(self.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_GLOBAL);
	return me ? me : h;
}
