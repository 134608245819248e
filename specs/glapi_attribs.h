/*
 * glapi_attribs.h - the EGL and GLX context-creation attribute names and
 * values that the capture (capture/cap_context.c) and the apitrace import
 * (trace/trace_apitrace_import.c) read out of eglCreateContext /
 * glXCreateContextAttribsARB attribute lists, and the config and surface
 * attributes the capture asks the driver for and the replay reads
 * (capture/cap_surface.c, replay/replay_egl.c).  Written out (with a
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

/* Configs and surfaces (EGL 1.5 §3.4 table 3.1, §3.5). */
#define EGL_ALPHA_SIZE_ 0x3021
#define EGL_BLUE_SIZE_ 0x3022
#define EGL_GREEN_SIZE_ 0x3023
#define EGL_RED_SIZE_ 0x3024
#define EGL_DEPTH_SIZE_ 0x3025
#define EGL_STENCIL_SIZE_ 0x3026
#define EGL_CONFIG_ID_ 0x3028
#define EGL_SAMPLES_ 0x3031
#define EGL_HEIGHT_ 0x3056
#define EGL_WIDTH_ 0x3057

/* GLX 1.4 §3.3.3 table 3.1, §3.3.5. */
#define GLX_RED_SIZE_ 8
#define GLX_GREEN_SIZE_ 9
#define GLX_BLUE_SIZE_ 10
#define GLX_ALPHA_SIZE_ 11
#define GLX_DEPTH_SIZE_ 12
#define GLX_STENCIL_SIZE_ 13
#define GLX_FBCONFIG_ID_ 0x8013
#define GLX_WIDTH_ 0x801D
#define GLX_HEIGHT_ 0x801E
#define GLX_PBUFFER_HEIGHT_ 0x8040
#define GLX_PBUFFER_WIDTH_ 0x8041
#define GLX_SAMPLES_ 100001

#define GLX_CONTEXT_MAJOR_VERSION_ARB_ 0x2091
#define GLX_CONTEXT_MINOR_VERSION_ARB_ 0x2092
#define GLX_CONTEXT_FLAGS_ARB_ 0x2094
#define GLX_CONTEXT_PROFILE_MASK_ARB_ 0x9126
#define GLX_CONTEXT_ES2_PROFILE_BIT_EXT_ 0x4

#endif
