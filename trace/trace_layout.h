/*
 * trace_layout.h - LAYOUT records (docs/trace-format.md, "LAYOUT"): the
 * layout the capturing driver chose for each active uniform block of a
 * program, written by the capture after every successful link
 * (glLinkProgram, glProgramBinary, glCreateShaderProgramv) so that a replay
 * can lay out blocks of the implementation-dependent `shared` / `packed`
 * layouts (GLSL 4.60 §4.4.5) as that driver did.
 *
 * The struct is what observe/ fills from the GL (heap-allocated there,
 * obs_layout.c) and what trace_layout_of fills from a record (in an
 * arena): names are NUL-terminated in both.  The validation is the
 * reader's (trace_reader_next runs it on every LAYOUT record): a record
 * that breaks it is corruption, whichever consumer reads it.
 */
#ifndef TRACE_LAYOUT_H
#define TRACE_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xt_rc.h"

/* A block's size or a member's offset or stride above this is corrupt
 * (GL_MAX_UNIFORM_BLOCK_SIZE is 64 KiB on common drivers; 1 GiB leaves
 * room for any). */
#define TRACE_LAYOUT_MAX_BYTES (1u << 30)

struct trace_layout_member {
	char *name;                  /* as GL names it: "Block.member[0]" */
	uint32_t type;               /* GL type enum (GL_FLOAT_VEC4 ...) */
	uint32_t size;               /* array size, 1 for a non-array */
	uint32_t offset, array_stride, matrix_stride;
	bool row_major;
};

struct trace_layout_block {
	char *name;                  /* the block name, "Block[2]" for an array element */
	uint32_t data_size;          /* GL_UNIFORM_BLOCK_DATA_SIZE */
	uint32_t n_members;
	struct trace_layout_member *members;
};

struct trace_layout {
	uint32_t program;            /* the program name, as the application used it */
	uint32_t n_blocks;
	struct trace_layout_block *blocks;
};

struct trace_value;
struct xt_arena;

/*
 * The layout a LAYOUT record's value holds, strings and arrays in `arena`;
 * XT_ERR_CORRUPT with `why` naming the key when the value breaks the
 * format: a key missing or of the wrong type, a name empty or holding a
 * NUL, a size, offset or stride above TRACE_LAYOUT_MAX_BYTES, a member
 * starting at or past its block's data size; XT_ERR_NOMEM.
 */
enum xt_rc trace_layout_of(const struct trace_value *v, struct xt_arena *arena, struct trace_layout *out,
			   char *why, size_t n);

#endif
