/*
 * drv_program_int.h - what drv_program.c (drv_program_create: the compiler
 * steps, GS layouts, link checks, queries) and drv_program_tables.c (the
 * attribute and uniform tables GL reports) share.
 */
#ifndef DRV_PROGRAM_INT_H
#define DRV_PROGRAM_INT_H

#include "drv_spirv.h"

struct build {
	struct drv_program *p;
	const struct drv_program_desc *desc;
	struct drv_translation tr[DRV_STAGE_COUNT];
	struct drv_translation *more[DRV_STAGE_COUNT]; /* tr[s].more, desc->n_more_sources[s] */
	struct drv_spirv spv[DRV_STAGE_COUNT];
	struct drv_smodule mod[DRV_STAGE_COUNT];
	bool parsed[DRV_STAGE_COUNT];
	/* each stage before glslang's optimizer (drv_glslang_compile), for
	 * the uniform blocks it declares */
	struct drv_spirv declared[DRV_STAGE_COUNT];
	struct drv_smodule declared_mod[DRV_STAGE_COUNT];
	bool declared_parsed[DRV_STAGE_COUNT];
	struct xt_buf clog[DRV_STAGE_COUNT];
	struct xt_buf llog;
	struct drv_io_layout esgs;
	uint32_t **gsvs_dw;          /* per GS output var */
	struct drv_ps_input ps_inputs[32]; /* the fragment shader's inputs (drv_ps_inputs) */
	unsigned n_params;           /* the VS's (copy shader's) param exports, one per ps_inputs[0 .. n_params) */
	uint32_t n_uniform_cap;
};

/* drv_program_tables.c */
/* The name the application wrote for a translated name of stage s. */
const char *drv_program_user_name(const struct build *b, enum drv_stage s, const char *name);
/* Active attributes with glBindAttribLocation / layout locations applied. */
enum xt_rc drv_program_build_attribs(struct build *b);
/* Default-block uniforms laid out once for all stages, their initializers,
 * and the uniform blocks. */
enum xt_rc drv_program_build_uniforms(struct build *b);

#endif
