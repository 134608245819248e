/*
 * cap_desc.h - the recording descriptors that specs/gen_glapi.py generates
 * into cap_desc.c: how each function's arguments are encoded, which hook
 * the capture runs around it, and which arguments of a draw give its
 * vertex range.
 *
 * The generic recorder (cap_record.c) walks these tables; the generated
 * wrappers only pack arguments.  The enums below are named in the generated
 * tables, so a rule in specs/gl_annotations.py without a matching C name
 * fails to compile.
 */
#ifndef CAP_DESC_H
#define CAP_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "cap_gl_gen.h"

enum cap_kind {
	CAP_K_VOID = 0,
	CAP_K_SINT,
	CAP_K_UINT,
	CAP_K_ENUM,
	CAP_K_BITFIELD,
	CAP_K_BOOL,
	CAP_K_FLOAT,
	CAP_K_DOUBLE,
	CAP_K_HANDLE,
	CAP_K_POINTER,
	CAP_K_STRING,   /* return values only: NUL-terminated string */
	CAP_K_IN,       /* input pointer, sized by `len` */
	CAP_K_OUT,      /* output pointer, sized by `len`, recorded in RET */
};

/* How the extent of IN / OUT memory is found. */
enum cap_len {
	CAP_LEN_NONE = 0,
	CAP_LEN_CONST,      /* k elements */
	CAP_LEN_PARAM,      /* arg[p0] * k / div elements */
	CAP_LEN_STRING,     /* NUL-terminated */
	CAP_LEN_LENSTRING,  /* arg[p0] chars; NUL-terminated when arg[p0] < 0
			       (k = 0) or arg[p0] == 0 (k = 1) */
	CAP_LEN_OUTSTRING,  /* output string, at most arg[p0] bytes */
	CAP_LEN_STRARRAY,   /* arg[p0] strings, lengths in arg[p1] (0xff: none) */
	CAP_LEN_ATTRIBS,    /* key/value pairs up to key k (elem_bytes each) */
	CAP_LEN_GLXVISUAL,  /* glXChooseVisual list (boolean keys single) */
	CAP_LEN_HELPER,     /* cap_size_*() of args p[0..np-1] */
	CAP_LEN_VERTEXPTR,  /* gl*Pointer: offset, or client memory (MEMWRITE at draws) */
	CAP_LEN_PTRARRAY,   /* arg[p2] pointers to arg[p0][i] indices of type
			       arg[p1]: offsets when an element buffer is bound */
	CAP_LEN_UNSIZED,    /* cannot be known: UNSIZED with `why` */
};

/* Size helpers (cap_size.c). */
enum cap_size_helper {
	CAP_SIZE_NONE = 0,
	CAP_SIZE_PNAME,             /* glGet*v / gl*Parameter*v by pname */
	CAP_SIZE_PNAME_INDEXED,     /* glGet*i_v: per-index counts */
	CAP_SIZE_COUNT_TYPE,        /* count * sizeof(type) */
	CAP_SIZE_IMAGE,             /* format, type, width, height, depth + pixel store */
	CAP_SIZE_TEX_IMAGE,         /* glGetTexImage: target, level, format, type */
	CAP_SIZE_BITMAP,            /* glBitmap: width, height (GL_BITMAP pixels) */
	CAP_SIZE_INDIRECT_ARRAYS,   /* drawcount, stride (16-byte commands) */
	CAP_SIZE_INDIRECT_ELEMENTS, /* drawcount, stride (20-byte commands) */
	CAP_SIZE_CLEAR_BUFFER,      /* glClearBuffer*v: buffer (COLOR 4, else 1) */
	CAP_SIZE_UNIFORM,           /* glGetUniform*v: program, location */
	CAP_SIZE_UNIFORM_BLOCK,     /* glGetActiveUniformBlockiv: program, index, pname */
	CAP_SIZE_COMPRESSED_TEX_IMAGE, /* glGetCompressedTexImage: target, level */
	CAP_SIZE_MAP1,              /* glMap1*: target, stride, order */
	CAP_SIZE_MAP2,              /* glMap2*: target, ustride, uorder, vstride, vorder */
	CAP_SIZE_GET_MAP,           /* glGetMap*v: target, query */
	CAP_SIZE_PIXEL_MAP,         /* glGetPixelMap*v: map */
	CAP_SIZE_STIPPLE,           /* gl[Get]PolygonStipple: 32x32 bits */
	CAP_SIZE_IMAGING,           /* glGet{ColorTable,ConvolutionFilter,Histogram,
				       Minmax,SeparableFilter row}: target, format, type */
	CAP_SIZE_IMAGING_COLUMN,    /* glGetSeparableFilter column: target, format, type */
	CAP_SIZE_MAP1_SIZE,         /* glMapVertexAttrib1*APPLE: size, stride, order */
	CAP_SIZE_MAP2_SIZE,         /* glMapVertexAttrib2*APPLE: size, ustride, uorder,
				       vstride, vorder */
	CAP_SIZE_STRIDE_ARRAY,      /* count elements `stride` bytes apart: count, stride */
	CAP_SIZE_FOG_FUNC,          /* glGetFogFuncSGIS */
	/* cap_size_ext.c */
	CAP_SIZE_PATH_NAMES,        /* NV_path_rendering: count, type, the names */
	CAP_SIZE_PATH_TRANSFORMS,   /* count, transformType */
	CAP_SIZE_PATH_TRANSFORM,    /* transformType */
	CAP_SIZE_PATH_COMMANDS,     /* glGetPath*NV: path */
	CAP_SIZE_PATH_COORDS,
	CAP_SIZE_PATH_DASHES,
	CAP_SIZE_COMPRESSED_TEXTURE_EXT,  /* texture, target, lod */
	CAP_SIZE_COMPRESSED_MULTITEX_EXT, /* texunit, target, lod */
	CAP_SIZE_NAMED_PROGRAM_STRING,    /* program, target, pname */
	CAP_SIZE_PROGRAM_STRING_NV,       /* id, pname */
};

/* Buffer bindings that make a pointer an offset (glapi.h GLAPI_B_*). */
enum cap_binding {
	CAP_BIND_NONE = 0,
	CAP_BIND_ARRAY,
	CAP_BIND_ELEMENT,
	CAP_BIND_UNPACK,
	CAP_BIND_PACK,
	CAP_BIND_INDIRECT,
	CAP_BIND_QUERY,
	CAP_BIND_COUNT
};

/* What the capture does around a call besides recording it (cap_hooks.c). */
enum cap_hook {
	CAP_HOOK_NONE = 0,
	CAP_HOOK_EGL_CREATE_CONTEXT,
	CAP_HOOK_EGL_DESTROY_CONTEXT,
	CAP_HOOK_EGL_MAKE_CURRENT,
	CAP_HOOK_GLX_CREATE_CONTEXT,
	CAP_HOOK_GLX_DESTROY_CONTEXT,
	CAP_HOOK_GLX_MAKE_CURRENT,
	CAP_HOOK_GLX_MAKE_CONTEXT_CURRENT,
	CAP_HOOK_SWAP,
	CAP_HOOK_TF_END,
	CAP_HOOK_TF_PAUSE,
	CAP_HOOK_QUERY_OBJECT,
	CAP_HOOK_QUERY_BUFFER_OBJECT,
	CAP_HOOK_BUFFER_READ,
	CAP_HOOK_NAMED_BUFFER_READ,
	CAP_HOOK_MAP,
	CAP_HOOK_MAP_RANGE,
	CAP_HOOK_NAMED_MAP,
	CAP_HOOK_NAMED_MAP_RANGE,
	CAP_HOOK_UNMAP,
	CAP_HOOK_NAMED_UNMAP,
	CAP_HOOK_FLUSH_RANGE,
	CAP_HOOK_NAMED_FLUSH_RANGE,
	CAP_HOOK_SYNC,
	CAP_HOOK_VERTEX_ATTRIB_DIVISOR,
	CAP_HOOK_DRAW,
	CAP_HOOK_READ_PIXELS,
	/* Capture only (specs/gl_annotations.py CAPTURE_HOOKS), for recorded
	 * calls only: */
	CAP_HOOK_EGL_RELEASE,        /* eglTerminate, eglReleaseThread */
	CAP_HOOK_SURFACE,            /* a surface was created: config and size */
	/* Capture only, also after calls not recorded: */
	CAP_HOOK_PROGRAM,            /* a program's TF layout may change */
	CAP_HOOK_TF_TARGET_BINDING,  /* TF bindings may change (arg 0: target) */
	CAP_HOOK_TF_STATE,           /* TF bindings or TF's program may change */
	CAP_HOOK_COND_RENDER,        /* glBegin / glEndConditionalRender* */
};

struct cap_pdesc {
	uint8_t kind;        /* enum cap_kind */
	uint8_t len;         /* enum cap_len */
	uint8_t elem_bytes;  /* bytes per element of IN / OUT memory */
	uint8_t binding;     /* enum cap_binding: may be an offset if bound */
	uint8_t helper;      /* enum cap_size_helper, for CAP_LEN_HELPER */
	uint8_t np;          /* arguments used by the rule, in p[] */
	uint8_t p[6];        /* their indices (0xff: none) */
	uint32_t k;          /* multiplier / constant / terminator */
	uint32_t div;        /* divisor, >= 1 */
	const char *why;     /* CAP_LEN_UNSIZED: what is missing */
};

#define CAP_FD_VARIABLE 0x1u  /* some argument has variable size */
#define CAP_FD_OUTS 0x2u      /* has output memory: RET even for void */
#define CAP_FD_RET 0x4u       /* returns a value */

struct cap_fdesc {
	uint16_t first;       /* first parameter in cap_params[] */
	uint8_t nparams;
	uint8_t ret_kind;     /* enum cap_kind */
	uint8_t hook;         /* enum cap_hook */
	uint8_t flags;        /* CAP_FD_* */
	uint16_t fixed_bytes; /* bound of the CALL payload without funcdef/memory */
	int16_t draw;         /* index in cap_draws[], -1 if not a draw */
	uint8_t writes;       /* enum cap_write: the buffers the call may write */
	int8_t write_arg;     /* its operand's argument index, -1 if none */
};

/* Which buffers a call may write (specs/gl_annotations.py BUFFER_WRITES):
 * before it, observations not yet copied from them are copied
 * (cap_observe_before_write). */
enum cap_write {
	CAP_W_NONE = 0,
	CAP_W_TARGET,   /* the buffer bound to target argument write_arg */
	CAP_W_BUFFER,   /* buffer name argument write_arg */
	CAP_W_NAMES,    /* the names array after count argument write_arg */
	CAP_W_TF,       /* the buffers bound to the TF binding points */
	CAP_W_PROGRAM,  /* what the current program's shaders may write */
	CAP_W_PACK,     /* the PIXEL_PACK_BUFFER binding */
	CAP_W_QUERY,    /* the QUERY_BUFFER binding */
	CAP_W_SYNC,     /* none, but another context may write after it */
};

/* Argument index of each role of a draw call, -1 if the draw has none
 * (specs/gl_annotations.py DRAWS; indirect: the commands' address or
 * offset, indirect_stride: their stride in a multi-draw). */
struct cap_draw {
	int8_t first, count, type, indices, instances, basevertex, baseinstance;
	int8_t start, end, drawcount, multi_first, multi_count, multi_indices;
	int8_t multi_basevertex, indirect, indirect_stride;
};

/* Element count of a pname (bit 31 set: read count from glGetIntegerv(low bits)). */
struct cap_pname_count {
	uint32_t pname;
	uint32_t count;
};

extern const struct cap_pdesc cap_params[];
extern const struct cap_fdesc cap_funcs[CAP_F_COUNT];
extern const struct cap_draw cap_draws[];
extern const struct cap_pname_count cap_pname_counts[];
extern const unsigned cap_pname_counts_len;
/* The exported wrapper of every function (GetProcAddress, dlsym). */
extern void (*const cap_wrappers[CAP_F_COUNT])(void);

#endif
