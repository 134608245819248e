/*
 * glapi_attribs.h - the EGL and GLX context-creation attribute names and
 * values that the capture (capture/cap_context.c) and the apitrace import
 * (trace/trace_apitrace_import.c) read out of eglCreateContext /
 * glXCreateContextAttribsARB attribute lists.  Written out (with a
 * trailing underscore) so that neither needs the system EGL and GLX
 * headers; the values are the registry's (egl.h, glxext.h).
 */
#ifndef GLAPI_ATTRIBS_H
#define GLAPI_ATTRIBS_H

#define EGL_NONE_ 0x3038
#define EGL_OPENGL_ES_API_ 0x30A0
#define EGL_OPENGL_API_ 0x30A2
#define EGL_CONTEXT_MAJOR_VERSION_ 0x3098
#define EGL_CONTEXT_MINOR_VERSION_ 0x30FB
#define EGL_CONTEXT_FLAGS_KHR_ 0x30FC
#define EGL_CONTEXT_OPENGL_PROFILE_MASK_ 0x30FD
#define EGL_CONTEXT_OPENGL_DEBUG_ 0x31B0
#define EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_ 0x31B1
#define EGL_CONTEXT_OPENGL_ROBUST_ACCESS_ 0x31B2

#define GLX_CONTEXT_MAJOR_VERSION_ARB_ 0x2091
#define GLX_CONTEXT_MINOR_VERSION_ARB_ 0x2092
#define GLX_CONTEXT_FLAGS_ARB_ 0x2094
#define GLX_CONTEXT_PROFILE_MASK_ARB_ 0x9126
#define GLX_CONTEXT_ES2_PROFILE_BIT_EXT_ 0x4

#endif
