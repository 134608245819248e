/*
 * glx_to_egl.c - a test-only shim that lets apitrace's EGL tracer see the
 * GL calls of desktop-GL piglit under EGL.
 *
 * Desktop piglit resolves every GL entry point with glXGetProcAddressARB,
 * even on surfaceless EGL, and apitrace's egltrace.so exports no glX*
 * functions, so it records no GL call at all (docs/apitrace.md §5).
 * Preloaded after egltrace.so, this shim answers glXGetProcAddress[ARB]
 * with eglGetProcAddress, which egltrace.so wraps.  Used only to compare
 * xfbtrace's capture with apitrace's on the same program.
 */
#include <EGL/egl.h>

typedef void (*shim_proc)(void);

__attribute__((visibility("default"))) shim_proc glXGetProcAddressARB(const unsigned char *name);
__attribute__((visibility("default"))) shim_proc glXGetProcAddress(const unsigned char *name);

shim_proc glXGetProcAddressARB(const unsigned char *name)
{
	return (shim_proc)eglGetProcAddress((const char *)name);
}

shim_proc glXGetProcAddress(const unsigned char *name)
{
	return (shim_proc)eglGetProcAddress((const char *)name);
}
