/*
 * glapi.h - tables of the GL, GLES, EGL and GLX APIs: every function with
 * its parameter names and kinds, and GLenum value -> name.
 *
 * Generated (glapi_funcs.c, glapi_enums.c) by specs/gen_glapi.py from the
 * Khronos registry (gl.xml, glx.xml), the EGL headers and
 * specs/gl_annotations.py.  Function ids are positions in the sorted list of
 * all function names of this build: they are stable within one build only,
 * so traces store names (trace funcdefs) and consumers map them with
 * glapi_func_lookup().  All returned strings are static.
 */
#ifndef GLAPI_H
#define GLAPI_H

#include <stdbool.h>
#include <stdint.h>

enum glapi_api {
	GLAPI_API_GL = 0,   /* GL and GLES (gl.xml) */
	GLAPI_API_EGL = 1,
	GLAPI_API_GLX = 2,
};

/* How a parameter (or return value) is recorded; see trace_format.h tags. */
enum glapi_kind {
	GLAPI_K_VOID = 0,
	GLAPI_K_SINT,       /* signed integer: SINT */
	GLAPI_K_UINT,       /* unsigned integer: UINT */
	GLAPI_K_ENUM,       /* GLenum / EGLenum: ENUM */
	GLAPI_K_BITFIELD,   /* GLbitfield: BITFIELD */
	GLAPI_K_BOOL,       /* GLboolean, EGLBoolean, Bool: TRUE / FALSE */
	GLAPI_K_FLOAT,
	GLAPI_K_DOUBLE,
	GLAPI_K_HANDLE,     /* EGLDisplay, GLsync, GLXDrawable ...: HANDLE */
	GLAPI_K_POINTER,    /* an address never followed: POINTER */
	GLAPI_K_STRING,     /* NUL-terminated input string: STRING */
	GLAPI_K_STRARRAY,   /* array of strings: ARRAY of STRING */
	GLAPI_K_OUTSTRING,  /* output string: POINTER in CALL, STRING in RET */
	GLAPI_K_ATTRIBS,    /* terminated attribute list: MEMORY */
	GLAPI_K_VERTEXPTR,  /* gl*Pointer data: OFFSET or POINTER (+ MEMWRITE at draws) */
	GLAPI_K_MEM_IN,     /* input memory: MEMORY, OFFSET or UNSIZED */
	GLAPI_K_MEM_OUT,    /* output memory: POINTER in CALL, MEMORY/UNSIZED in RET */
	GLAPI_K_PTRARRAY,   /* glMultiDrawElements* indices: ARRAY of MEMORY /
			       OFFSET / NULL, one per draw */
};

/* Element type of memory a pointer parameter refers to. */
enum glapi_elem {
	GLAPI_E_U8 = 0, GLAPI_E_I8, GLAPI_E_CHAR, GLAPI_E_U16, GLAPI_E_I16,
	GLAPI_E_U32, GLAPI_E_I32, GLAPI_E_F32, GLAPI_E_U64, GLAPI_E_I64,
	GLAPI_E_F64, GLAPI_E_PTR,
};

/* The buffer binding that turns a pointer parameter into an offset. */
enum glapi_binding {
	GLAPI_B_NONE = 0,
	GLAPI_B_ARRAY,      /* GL_ARRAY_BUFFER */
	GLAPI_B_ELEMENT,    /* GL_ELEMENT_ARRAY_BUFFER */
	GLAPI_B_UNPACK,     /* GL_PIXEL_UNPACK_BUFFER */
	GLAPI_B_PACK,       /* GL_PIXEL_PACK_BUFFER */
	GLAPI_B_INDIRECT,   /* GL_DRAW_INDIRECT_BUFFER */
	GLAPI_B_QUERY,      /* GL_QUERY_BUFFER */
};

/*
 * Kinds of object name a parameter or return value holds (a replay remaps
 * them); from specs/gl_annotations.py OBJECTS / RET_OBJECTS.  Programs and
 * shaders share a namespace in GL and so a kind.  GLAPI_O_BY_ENUM is not a
 * kind but says where to find it: the enum argument `obj_enum` of the same
 * call names it (glObjectLabel's identifier), see glapi_object_of_enum().
 */
enum glapi_object {
	GLAPI_O_NONE = 0,
	GLAPI_O_BUFFER,
	GLAPI_O_TEXTURE,
	GLAPI_O_SHADER_OBJECT,      /* programs and shaders */
	GLAPI_O_PIPELINE,           /* program pipelines */
	GLAPI_O_VERTEX_ARRAY,
	GLAPI_O_QUERY,
	GLAPI_O_TRANSFORM_FEEDBACK,
	GLAPI_O_FRAMEBUFFER,
	GLAPI_O_RENDERBUFFER,
	GLAPI_O_SAMPLER,
	GLAPI_O_SYNC,               /* GLsync handles */
	GLAPI_O_UNIFORM_LOCATION,   /* of the program in use or named */
	GLAPI_O_ATTRIB_LOCATION,    /* vertex attribute index */
	GLAPI_O_UNIFORM_BLOCK_INDEX,/* of the program named */
	GLAPI_O_COUNT,
	GLAPI_O_BY_ENUM = GLAPI_O_COUNT,  /* the kind argument obj_enum names */
};

/* Group id of EGL enums (glapi_enum_name_in_group). */
#define GLAPI_GROUP_EGL 0

struct glapi_func_info {
	const char *name;
	unsigned nparams;
	enum glapi_kind ret_kind;
	enum glapi_api api;
	enum glapi_object ret_obj;  /* object kind of the return value */
	int ret_group;              /* enum group of the return value, -1 if none */
};

struct glapi_param_info {
	const char *name;
	enum glapi_kind kind;
	enum glapi_elem elem;
	int group;                  /* enum group id (gl.xml), -1 if none */
	enum glapi_binding binding;
	enum glapi_object obj;      /* object kind: the name(s) it holds */
	int obj_enum;               /* GLAPI_O_BY_ENUM: index of the enum
				       parameter naming the kind; else -1 */
	int len_param;              /* OUTSTRING: index of the parameter that
				       bounds it; PTRARRAY: of the pointer
				       count (the capture's size rule,
				       specs/gl_annotations.py); else -1 */
};

/* Number of functions; ids are 0 .. count-1. */
int glapi_func_count(void);
/* Id of the function called `name`, -1 if the API has no such function. */
int glapi_func_lookup(const char *name);
/* Fills *out for function `id`; false (and *out untouched) if out of range. */
bool glapi_func_info(int id, struct glapi_func_info *out);
/* Fills *out for parameter i of function `id`; false if out of range. */
bool glapi_param_info(int id, unsigned i, struct glapi_param_info *out);

/*
 * Canonical name of a GLenum value: the unsuffixed core name when there is
 * one (GL_TRIANGLES rather than an _EXT alias), else the earliest defined.
 * NULL when no GL enum has that value.  Values shared by unrelated enums
 * (0, 1, small bits) give one of them: prefer glapi_enum_name_in_group().
 */
const char *glapi_enum_name(uint32_t value);
/* The value of canonical name `name` (glapi_enum_name's inverse), by a
 * linear search: for decoding stored names, not for hot paths.  False
 * when no enum has that canonical name. */
bool glapi_enum_value(const char *name, uint32_t *value);
/*
 * Name of `value` within enum group `group` (a parameter's group, e.g.
 * PrimitiveType); falls back to glapi_enum_name() for GL groups when the
 * group has no such value; NULL for EGL values not known.  group < 0 is
 * the same as glapi_enum_name().
 */
const char *glapi_enum_name_in_group(uint32_t value, int group);
/*
 * The object kind an object-identifier enum names (GL_BUFFER,
 * GL_TEXTURE, GL_BUFFER_OBJECT_EXT ...: glObjectLabel's identifier,
 * glLabelObjectEXT's type; gl_annotations.py OBJECT_IDENTIFIERS);
 * GLAPI_O_NONE for any other value.
 */
enum glapi_object glapi_object_of_enum(uint32_t value);
/* Name of a group id ("PrimitiveType", "EGL"), NULL if out of range. */
const char *glapi_group_name(int group);
/* The glGet pname that reports what is bound to buffer target `target`
 * (GL_ARRAY_BUFFER -> GL_ARRAY_BUFFER_BINDING ...; gl_annotations.py
 * BUFFER_TARGETS); 0 for anything else. */
uint32_t glapi_buffer_binding_pname(uint32_t target);

#endif
