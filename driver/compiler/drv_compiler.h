/*
 * drv_compiler.h - the shader compiler's internal interfaces between its
 * steps (the order is in drv_shader.h).  Not for the state tracker.
 */
#ifndef DRV_COMPILER_H
#define DRV_COMPILER_H

#include <stdbool.h>
#include <stdint.h>

#include "drv_ir.h"
#include "drv_shader.h"
#include "xt_buf.h"
#include "xt_rc.h"

/* --- drv_glsl_translate.c -------------------------------------------------- */

/* What the application's source declares about its uniform blocks and
 * opaque uniforms, which SPIR-V no longer says (drv_glsl_layout.c):
 * glslang lays every block out as std140 and gives every block and sampler
 * a binding of its own choosing. */
enum drv_glsl_packing { DRV_PACK_SHARED, DRV_PACK_PACKED, DRV_PACK_STD140, DRV_PACK_STD430 };
struct drv_glsl_decl {
	char name[128];        /* the block name, or the uniform's name */
	bool block;            /* a uniform block, else a uniform outside blocks */
	uint8_t packing;       /* blocks: enum drv_glsl_packing, the default applied */
	int32_t binding;       /* layout(binding = N), -1 when the source gives none */
};

struct drv_translation {
	char *text;                     /* GLSL for glslang (malloc'd) */
	int src_version;                /* #version of the input (110 if none, 100 for ES) */
	bool src_es;
	bool src_compat;                /* compatibility built-ins were allowed */
	int dst_version;                /* what `text` declares */
	bool dst_es;
	struct drv_builtin_map *maps;   /* malloc'd */
	unsigned n_maps;
	struct drv_glsl_decl *decls;    /* malloc'd: each uniform block, and each
					 * uniform with an explicit binding */
	unsigned n_decls;
	/* further compilation units of the same stage (GL links several
	 * shader objects of one stage), each translated on its own; glslang
	 * parses them and links them with this one.  Borrowed, not freed by
	 * drv_translation_fini. */
	const struct drv_translation *more;
	unsigned n_more;
};

/*
 * Rewrites `src` for `stage` into GLSL glslang takes (drv_glsl_translate.c
 * top comment).  A construct it cannot honestly translate is a compile
 * error: the message, naming it, is appended to `log` and XT_ERR_UNSUPPORTED
 * returned.  On success the caller owns `out` (drv_translation_fini).
 */
enum xt_rc drv_glsl_translate(const char *src, enum drv_stage stage, bool es_context,
			      struct drv_translation *out, struct xt_buf *log);
void drv_translation_fini(struct drv_translation *t);
/* The user-visible name of a translated identifier ("xt_r_sample" ->
 * "sample"); `name` itself when it was not renamed. */
const char *drv_translation_user_name(const struct drv_builtin_map *maps, unsigned n, const char *name);
/* The reverse: the identifier in the translated source for a user name. */
const char *drv_translation_src_name(const struct drv_builtin_map *maps, unsigned n, const char *name);

/* --- drv_glsl_layout.c ------------------------------------------------------ */

/*
 * Checks the layout-qualifier rules glslang leaves out (drv_glsl_layout.c
 * top comment) on the application's source of `stage`, written for
 * `version` (es: GLSL ES).  Violations are appended to `log` as compile
 * errors and return XT_ERR_INVALID; XT_ERR_NOMEM on allocation failure.
 * The uniform blocks and explicit bindings it meets go to *decls
 * (malloc'd, *n_decls entries; the caller frees them).
 */
enum xt_rc drv_glsl_check_layouts(const char *src, enum drv_stage stage, int version, bool es,
				  struct xt_buf *log, struct drv_glsl_decl **decls, unsigned *n_decls);

/* --- drv_glslang.c ---------------------------------------------------------- */

struct drv_spirv {
	uint32_t *words;                /* malloc'd, NULL when the stage is absent */
	size_t n_words;
};

/*
 * Parses the translated stages with glslang, links them as one program
 * (so that auto-mapped locations agree between stages), and generates
 * SPIR-V per present stage.  declared[stage]: the stage's SPIR-V before
 * glslang's optimizer, which still holds every uniform block the source
 * declares (the optimizer drops unused ones, which GL keeps: see
 * drv_program_build_uniforms); words NULL when the stage declares no
 * uniform.  Compile errors go to compile_log[stage] and
 * return XT_ERR_INVALID with compiled[stage] = false; link errors to
 * link_log.
 */
enum xt_rc drv_glslang_compile(const struct drv_translation tr[DRV_STAGE_COUNT],
			       const bool present[DRV_STAGE_COUNT],
			       struct drv_spirv spv[DRV_STAGE_COUNT],
			       struct drv_spirv declared[DRV_STAGE_COUNT],
			       struct xt_buf compile_log[DRV_STAGE_COUNT], bool compiled[DRV_STAGE_COUNT],
			       struct xt_buf *link_log);

#endif
