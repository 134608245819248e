/*
 * cap_size_int.h - the size helpers of cap_size_ext.c, which cap_size()
 * (cap_size.c) dispatches to.  Each returns a count of elements or bytes as
 * its comment says, or SIZE_MAX with *why set.
 */
#ifndef CAP_SIZE_INT_H
#define CAP_SIZE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cap_state.h"

/* bytes */
size_t cap_size_path_names(int64_t n, uint32_t type, const void *p, const char **why);
/* values of one transform */
size_t cap_size_path_transform(uint32_t type, const char **why);
/* elements (commands, coordinates or dashes: `pname`) */
size_t cap_size_path_param(struct cap_ctx *x, uint32_t path, uint32_t pname, const char **why);
/* bytes */
size_t cap_size_compressed_ext(struct cap_ctx *x, bool multitex, uint32_t obj, uint32_t target,
			       int64_t level, const char **why);
/* bytes */
size_t cap_size_program_string(struct cap_ctx *x, bool nv, uint32_t program, uint32_t target,
			       uint32_t pname, const char **why);
/* values */
size_t cap_size_fog_func(struct cap_ctx *x, const char **why);

#endif
