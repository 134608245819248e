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
	uint32_t ps_vars[32];        /* the fragment shader's inputs (drv_ps_inputs) */
	unsigned n_params;           /* the VS's param exports, one per ps_vars[0 .. n_params) */
	uint32_t n_uniform_cap;
	/* the shared / packed blocks laid out as recorded (drv_block_layout.c) */
	char laid_out[DRV_MAX_UBOS][64];
	unsigned n_laid_out;
};

/* drv_program_tables.c */
/* The name the application wrote for a translated name of stage s. */
const char *drv_program_user_name(const struct build *b, enum drv_stage s, const char *name);
/* Active attributes with glBindAttribLocation / layout locations applied. */
enum xt_rc drv_program_build_attribs(struct build *b);
/* Default-block uniforms laid out once for all stages, their initializers,
 * and the uniform blocks. */
enum xt_rc drv_program_build_uniforms(struct build *b);

/* drv_block_layout.c */
/* The source's note (drv_glsl_decl) on block or uniform `name` of stage s,
 * from its main unit or a further one; NULL when none (not declared there
 * with what is noted, or a SPIR-V stage, whose decorations say). */
const struct drv_glsl_decl *drv_program_find_decl(const struct build *b, int s, const char *name, bool block);
/* Lays the modules' shared / packed uniform blocks out as
 * desc->block_layouts records them; what it cannot goes to layout_notes. */
enum xt_rc drv_program_apply_block_layouts(struct build *b);
/* GL_UNIFORM_BLOCK_DATA_SIZE of block `name`: the recorded one when the
 * block was laid out as recorded, else std140_size. */
uint32_t drv_program_block_size(const struct build *b, const char *name, uint32_t std140_size);

#endif
