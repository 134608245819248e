/*
 * drv_spirv_input.h - SPIR-V modules that come from the application
 * (ARB_gl_spirv / GL 4.6 7.2 "Shader Binaries", 7.2.1 "Shader
 * Specialization"): loading the glShaderBinary bytes, and specializing a
 * module for one entry point with the application's specialization
 * constants, so that the result is a module with one entry point that the
 * compiler's SPIR-V path (drv_spirv_module.c onwards) takes like the
 * modules glslang makes.
 */
#ifndef DRV_SPIRV_INPUT_H
#define DRV_SPIRV_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "drv_shader.h"
#include "xt_rc.h"

/*
 * Checks that the `n_bytes` at `bytes` are a SPIR-V module (whole words, a
 * header, the magic number in either byte order) and returns its words in
 * host byte order in *words (malloc'd, caller frees).  A malformed binary
 * returns XT_ERR_CORRUPT with a message naming what is wrong.
 */
enum xt_rc drv_spirv_input_load(const void *bytes, size_t n_bytes, uint32_t **words, size_t *n_words,
				struct xt_err *err);

/* Why a specialization was refused: the GL error it is. */
enum drv_spec_status {
	DRV_SPEC_OK,
	DRV_SPEC_NO_ENTRY_POINT,    /* no OpEntryPoint of that name: INVALID_VALUE */
	DRV_SPEC_WRONG_STAGE,       /* its execution model is another stage: INVALID_OPERATION */
	DRV_SPEC_NO_CONSTANT,       /* a constant index names no SpecId: INVALID_VALUE */
};

/*
 * Specializes module `words` for entry point `entry` of `stage`: the other
 * OpEntryPoint and their OpExecutionMode instructions are dropped, and the
 * specialization constants whose SpecId is ids[i] take values[i] (a
 * 32-bit value; booleans are true when non-zero; 64-bit constants take it
 * zero-extended).  On DRV_SPEC_OK *out (malloc'd) holds the new module;
 * otherwise *out is NULL and *status says which GL error the call is.
 * Returns an error code only for a module too malformed to walk or out of
 * memory.
 */
enum xt_rc drv_spirv_specialize(const uint32_t *words, size_t n_words, enum drv_stage stage,
				const char *entry, unsigned n_consts, const uint32_t *ids,
				const uint32_t *values, uint32_t **out, size_t *out_words,
				enum drv_spec_status *status, struct xt_err *err);

/*
 * Whether the compiler's module reader takes `words` (a specialized
 * module): XT_OK, or the error naming the construct it rejects, which is
 * the shader's compile log.
 */
enum xt_rc drv_spirv_input_check(const uint32_t *words, size_t n_words, struct xt_err *err);

#endif
