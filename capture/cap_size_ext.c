/*
 * cap_size_ext.c - sizes of pointer arguments of vendor and legacy
 * extensions (NV_path_rendering, EXT_direct_state_access, ARB / NV
 * programs, SGIS_fog_function, IBM_multimode_draw_arrays,
 * APPLE_vertex_program_evaluators): the COMPSIZE forms, and the parameters
 * the registry leaves without a length, that specs/gl_annotations.py maps
 * to helpers here.  cap_size.c holds the core GL ones and the dispatch;
 * both follow its rule: what cannot be known is UNSIZED with the reason,
 * never a guess.
 */
#include <stdint.h>
#include <string.h>

#include "cap_observe.h"
#include "cap_size_int.h"

/* Bytes of the `n` path names (or character codes) of type `type` at `p`
 * (NV_path_rendering, "path name types"): fixed-size integers, or UTF-8 /
 * UTF-16 characters of 1 to 4 bytes, read as the GL reads them. */
size_t cap_size_path_names(int64_t n, uint32_t type, const void *p, const char **why)
{
	const uint8_t *b = p;
	size_t off = 0;

	if (n <= 0 || !p)
		return 0;
	switch (type) {
	case GL_BYTE: case GL_UNSIGNED_BYTE: return (size_t)n;
	case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_2_BYTES: return (size_t)n * 2;
	case GL_3_BYTES: return (size_t)n * 3;
	case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: case GL_4_BYTES: return (size_t)n * 4;
	case GL_UTF8_NV:
		for (int64_t i = 0; i < n; i++) {
			uint8_t c = b[off];
			/* a malformed lead byte: the GL stops there (INVALID_VALUE) */
			size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 :
				     (c & 0xf8) == 0xf0 ? 4 : 0;
			if (!len)
				return off + 1;
			off += len;
		}
		return off;
	case GL_UTF16_NV:
		for (int64_t i = 0; i < n; i++) {
			uint16_t u;
			memcpy(&u, b + off, 2);
			off += u >= 0xd800 && u < 0xdc00 ? 4 : 2;   /* a surrogate pair */
		}
		return off;
	default:
		*why = "COMPSIZE(numPaths,pathNameType,paths): unknown path name type";
		return SIZE_MAX;
	}
}

/* Values per transform of `type` (NV_path_rendering, "transform types"). */
size_t cap_size_path_transform(uint32_t type, const char **why)
{
	switch (type) {
	case GL_NONE: return 0;
	case GL_TRANSLATE_X_NV: case GL_TRANSLATE_Y_NV: return 1;
	case GL_TRANSLATE_2D_NV: return 2;
	case GL_TRANSLATE_3D_NV: return 3;
	case GL_AFFINE_2D_NV: case GL_TRANSPOSE_AFFINE_2D_NV: return 6;
	case GL_AFFINE_3D_NV: case GL_TRANSPOSE_AFFINE_3D_NV: return 12;
	default:
		*why = "COMPSIZE(transformType): unknown transform type";
		return SIZE_MAX;
	}
}

/* glGetPath{Commands,Coords,DashArray}NV: the path's count of them. */
size_t cap_size_path_param(struct cap_ctx *x, uint32_t path, uint32_t pname, const char **why)
{
	cap_pfn_glGetPathParameterivNV get = CAP_REAL(glGetPathParameterivNV);
	GLint n = 0;

	if (!x || !get) {
		*why = "COMPSIZE(path): path parameters unknown";
		return SIZE_MAX;
	}
	cap_glerror_stash_ctx(x);
	get(path, pname, &n);
	cap_glerror_drain_ctx(x, "path parameter query");
	return n > 0 ? (size_t)n : 0;
}

/* EXT_direct_state_access compressed read-backs: the level's
 * GL_TEXTURE_COMPRESSED_IMAGE_SIZE, of a texture object or of the texture
 * bound to a texture unit. */
size_t cap_size_compressed_ext(struct cap_ctx *x, bool multitex, uint32_t obj, uint32_t target,
			       int64_t level, const char **why)
{
	cap_pfn_glGetTextureLevelParameterivEXT tex = CAP_REAL(glGetTextureLevelParameterivEXT);
	cap_pfn_glGetMultiTexLevelParameterivEXT unit = CAP_REAL(glGetMultiTexLevelParameterivEXT);
	GLint n = 0;

	if (!x || (multitex ? !unit : !tex)) {
		*why = "COMPSIZE(target,lod): compressed image size unknown";
		return SIZE_MAX;
	}
	cap_glerror_stash_ctx(x);
	if (multitex)
		unit(obj, target, (GLint)level, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &n);
	else
		tex(obj, target, (GLint)level, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &n);
	cap_glerror_drain_ctx(x, "compressed image size query");
	return n > 0 ? (size_t)n : 0;
}

/* glGetNamedProgramStringEXT / glGetProgramStringNV: GL_PROGRAM_LENGTH of
 * the program for GL_PROGRAM_STRING (the only pname). */
size_t cap_size_program_string(struct cap_ctx *x, bool nv, uint32_t program, uint32_t target,
			       uint32_t pname, const char **why)
{
	cap_pfn_glGetNamedProgramivEXT named = CAP_REAL(glGetNamedProgramivEXT);
	cap_pfn_glGetProgramivNV prog_nv = CAP_REAL(glGetProgramivNV);
	GLint n = 0;

	if (pname != GL_PROGRAM_STRING_ARB)
		return 0;  /* INVALID_ENUM: nothing written */
	if (!x || (nv ? !prog_nv : !named)) {
		*why = "COMPSIZE(program,pname): program length unknown";
		return SIZE_MAX;
	}
	cap_glerror_stash_ctx(x);
	if (nv)
		prog_nv(program, GL_PROGRAM_LENGTH_NV, &n);
	else
		named(program, target, GL_PROGRAM_LENGTH_ARB, &n);
	cap_glerror_drain_ctx(x, "program length query");
	return n > 0 ? (size_t)n : 0;
}

/* glGetFogFuncSGIS: a (distance, value) pair per GL_FOG_FUNC_POINTS_SGIS. */
size_t cap_size_fog_func(struct cap_ctx *x, const char **why)
{
	cap_pfn_glGetIntegerv get = CAP_REAL(glGetIntegerv);
	GLint n = 0;

	if (!x || !get) {
		*why = "COMPSIZE(): fog function size unknown";
		return SIZE_MAX;
	}
	cap_glerror_stash_ctx(x);
	get(GL_FOG_FUNC_POINTS_SGIS, &n);
	cap_glerror_drain_ctx(x, "fog function size query");
	return n > 0 ? 2 * (size_t)n : 0;
}
