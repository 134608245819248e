/*
 * drv_spirv.h - the SPIR-V module as the driver reads it: types with their
 * layouts, constants flattened to scalar slots, decorations, global
 * variables, the GS execution modes.  drv_spirv_module.c fills it;
 * drv_spirv_to_ir.c translates the entry point's body; drv_tf_layout.c and
 * drv_program.c read the variables for link-time tables.
 *
 * "Slots": every value is flattened to scalars in declaration order (a
 * struct's members, an array's elements, a matrix's columns, a vector's
 * components); a slot is one 32-bit or one 64-bit (double) scalar.
 */
#ifndef DRV_SPIRV_H
#define DRV_SPIRV_H

#include <stdbool.h>
#include <stdint.h>

#include "drv_compiler.h"

enum drv_sid_kind {
	DRV_SID_NONE,
	DRV_SID_TYPE,
	DRV_SID_CONST,        /* also OpUndef (zeros) and spec constants (defaults) */
	DRV_SID_VAR,
	DRV_SID_VALUE,        /* an SSA result inside the function */
	DRV_SID_EXTINST,      /* OpExtInstImport */
	DRV_SID_FUNCTION,
	DRV_SID_LABEL,
	DRV_SID_POINTER,      /* an access chain result */
};

struct drv_smember {
	uint32_t type;
	int32_t offset;        /* Offset decoration, -1 if none */
	uint32_t matrix_stride;
	bool row_major;
	int32_t builtin;       /* SpvBuiltIn, -1 if none */
	int32_t location;
	int32_t xfb_buffer, xfb_offset, stream;
	bool flat, noperspective;  /* interpolation of a block member */
	char *name;
};

/* An access-chain result: a variable and where in it. */
struct drv_sptr {
	uint32_t var;          /* index into drv_smodule.vars */
	uint32_t type;         /* pointee type id */
	/* register variables: slot offset, optional dynamic slot index */
	uint32_t slot;
	uint32_t dyn_slot;     /* IR value or 0 */
	uint32_t *cands;       /* possible values of dyn_slot (malloc'd) */
	uint32_t n_cands;
	/* memory variables: byte offset, optional dynamic byte offset */
	uint32_t byte;
	uint32_t dyn_byte;     /* IR value or 0 */
	uint32_t vec_stride;   /* bytes between this vector's components (row-major columns) */
	uint32_t mat_stride;   /* matrix: bytes between columns (or rows if row_major) */
	bool row_major;
	int32_t builtin;       /* when the chain selected a built-in member */
};

struct drv_sid {
	uint8_t kind;          /* enum drv_sid_kind */
	uint16_t op;           /* defining SpvOp (types: OpTypeFloat ...) */
	uint32_t type;         /* result type id (consts, vars: pointer type, values) */
	char *name;
	/* decorations */
	int32_t location, component, builtin, binding, set, xfb_buffer, xfb_stride, xfb_offset, stream;
	int32_t array_stride;
	bool block, flat, noperspective, has_spec_id;
	/* types */
	uint32_t width;        /* int / float bits */
	bool sign;
	uint32_t elem;         /* vector / matrix column / array element / pointer pointee /
				* image sampled / sampled image's image type */
	uint32_t image_dim;    /* images: SpvDim */
	bool image_depth, image_arrayed, image_ms;
	uint32_t count;        /* vector size, matrix columns, array length */
	uint32_t storage;      /* pointer storage class */
	uint32_t n_members;
	struct drv_smember *members;
	uint32_t slots;        /* flattened scalar count */
	/* constants: a value per slot (doubles as 64 bits) */
	uint64_t *cval;
	/* variables */
	uint32_t var;
	/* function values: IR value per slot (malloc'd) */
	uint32_t *comps;
	/* pointers */
	struct drv_sptr *ptr;
	/* labels: word offset of OpLabel */
	uint32_t label_word;
};

struct drv_svar {
	uint32_t id;
	uint32_t type;         /* pointee type */
	uint32_t storage;      /* SpvStorageClass */
	const char *name;      /* OpName, "" if none */
	int32_t location, component, builtin, binding, xfb_buffer, xfb_stride, xfb_offset, stream;
	bool flat, noperspective, used;
	uint32_t slots;
	uint32_t reg_base;     /* register variables: IR reg of slot 0 (consecutive) */
	uint32_t mem_offset;   /* default uniforms: byte offset in the constant buffer */
	int32_t ubo;           /* Uniform blocks: index of the program's drv_ubo */
	int32_t sampler;       /* sampler uniforms: the slot of element 0 in
				* drv_program.samplers (elements follow), -1 none */
	uint32_t init;         /* OpVariable initializer (a constant id; GLSL uniform
				* initializers), 0 if none */
	/* Output variables: bit s = a store of the translated entry point
	 * reaches slot s (drv_spirv_to_ir; slots from 63 on share bit 63),
	 * not merely a declaration: glslang declares every member of
	 * gl_PerVertex, written or not */
	uint64_t written;
};

struct drv_smodule {
	const uint32_t *words;
	uint32_t n_words;
	uint32_t bound;
	struct drv_sid *ids;   /* [bound] */
	struct drv_svar *vars;
	uint32_t n_vars;
	uint32_t exec_model;   /* SpvExecutionModel of the entry point */
	uint32_t entry;        /* function id */
	uint32_t glsl_ext;     /* id of the GLSL.std.450 import, 0 if none */
	uint32_t fn_begin, fn_end;   /* word range of the entry function's body */
	bool xfb;              /* ExecutionMode Xfb */
	bool match_by_location; /* an application's SPIR-V: interfaces match by location */
	uint32_t gs_invocations, gs_max_vertices, gs_input_prim, gs_output_prim; /* GL enums */
	uint32_t gs_vertices_in;
	uint32_t const_buffer_size;  /* bytes of default uniforms laid out (std140) */
};

/* Parses the module-level part of `words`; errors (malformed or
 * unsupported SPIR-V) name the instruction. */
enum xt_rc drv_smodule_parse(struct drv_smodule *m, const uint32_t *words, size_t n_words, struct xt_err *err);
void drv_smodule_fini(struct drv_smodule *m);

/* Type helpers. */
static inline struct drv_sid *drv_stype(const struct drv_smodule *m, uint32_t id)
{
	return id < m->bound && m->ids[id].kind == DRV_SID_TYPE ? &m->ids[id] : NULL;
}
/* The scalar type id of flattened slot `slot` of type `t`. */
uint32_t drv_stype_slot_scalar(const struct drv_smodule *m, uint32_t t, uint32_t slot);
/* Dwords of slot `slot` (1 or 2). */
unsigned drv_stype_slot_dwords(const struct drv_smodule *m, uint32_t t, uint32_t slot);
/* Total dwords of a type (for TF component counts). */
unsigned drv_stype_dwords(const struct drv_smodule *m, uint32_t t);
/* Locations a type occupies as a shader input/output (dvec3/4 take 2). */
unsigned drv_stype_locations(const struct drv_smodule *m, uint32_t t);
/* The dword, counted in 4-dword locations from the variable's first
 * location, where flattened slot `slot` of `t` lives in the ESGS ring. */
unsigned drv_stype_slot_loc_dword(const struct drv_smodule *m, uint32_t t, uint32_t slot);
/* std140 size / base alignment in bytes (decorations win when present). */
void drv_stype_std140(const struct drv_smodule *m, uint32_t t, uint32_t *size, uint32_t *align);
/* Byte offset of member `i` in struct `t`, the std140 (or decorated) layout. */
uint32_t drv_stype_member_offset(const struct drv_smodule *m, uint32_t t, uint32_t i);
uint32_t drv_stype_array_stride(const struct drv_smodule *m, uint32_t t);
/* GL type enum of a non-aggregate type (after stripping arrays), 0 if none. */
uint32_t drv_stype_gl_enum(const struct drv_smodule *m, uint32_t t);
/* Whether a store reaches slot `slot` of output variable v (drv_svar.written). */
static inline bool drv_svar_written(const struct drv_svar *v, uint32_t slot)
{
	return v->written >> (slot < 63 ? slot : 63) & 1;
}
/* Strips array levels: the element type, and the total element count. */
uint32_t drv_stype_strip_arrays(const struct drv_smodule *m, uint32_t t, uint32_t *elems);

/* --- drv_spirv_to_ir.c --------------------------------------------------- */

struct drv_io_layout;

/*
 * Translates the entry point of `m` into `ir`: register variables get regs,
 * inputs are loaded at the top (VS: LOAD_INPUT per location; GS: ESGS_LOAD
 * through `esgs`), outputs stay in regs for drv_lower_io.  `ubo_base` maps
 * the module's Uniform block variables to program UBO indices (drv_svar.ubo
 * set by the caller).  Errors name the SPIR-V construct.
 */
enum xt_rc drv_spirv_to_ir(struct drv_smodule *m, const struct drv_io_layout *esgs, struct drv_ir *ir,
			   struct xt_err *err);

/* ESGS ring layout shared by the ES (writer) and GS (reader).  Varyings
 * are matched by name, as GL matches them ("name" for variables,
 * "Block.member" for interface block members): glslang's automatic
 * locations are assigned per stage and do not agree across stages. */
struct drv_io_var {
	char key[96];
	uint32_t dw;                   /* first dword in the ESGS item */
	uint32_t dwords;
};
struct drv_io_layout {
	struct drv_io_var *vars;       /* malloc'd */
	uint32_t n_vars;
	uint32_t pos_dw, psize_dw, clip_dw;  /* built-ins */
	uint32_t itemsize_dw;
};
/* The item dword of an interface varying, false if the ES does not write it. */
bool drv_io_lookup(const struct drv_io_layout *l, const char *key, uint32_t *dw);
/* Dwords before flattened slot `slot` of type t. */
unsigned drv_stype_slot_dword_offset(const struct drv_smodule *m, uint32_t t, uint32_t slot);
/* The interface key of variable v, or of member `member` of its block type
 * bt when member >= 0. */
void drv_io_key(const struct drv_smodule *m, const struct drv_svar *v, uint32_t bt, int member, char *key, size_t n);

/* --- link steps ------------------------------------------------------------ */

/* drv_tf_layout.c: the TF layout of the last vertex-processing stage `m`;
 * a GL link error is appended to `log` and returns XT_ERR_INVALID. */
enum xt_rc drv_tf_layout_build(const struct drv_smodule *m, enum drv_stage stage, const struct drv_program_desc *desc,
			       const struct drv_builtin_map *maps, unsigned n_maps, struct drv_tf_layout *l,
			       struct xt_buf *log);

struct drv_ps_input;

/* Where a stage's outputs go: the inputs drv_lower_io needs. */
struct drv_lower_info {
	const struct drv_tf_layout *tf;      /* NULL or no varyings: no streamout */
	const struct drv_io_layout *esgs;    /* ES: the ring layout */
	const struct drv_gs_info *gs;        /* GS / copy: ring sizes */
	/* GS / copy: per output variable of the GS module, the dword of each
	 * slot within its stream's vertex (gsvs_dw[var][slot]) */
	uint32_t **gsvs_dw;
	/* hardware VS / copy shader: param export k carries PS input
	 * ps_inputs[k] of fragment shader ps_mod (drv_ps_inputs,
	 * drv_ps_input_source) */
	const struct drv_smodule *ps_mod;
	const struct drv_ps_input *ps_inputs;
	unsigned n_params;
	/* PS: SPI_PS_INPUT_ENA, which places the input VGPRs */
	uint32_t ps_input_ena;
};

/* One PS input, i.e. one interpolated param (SPI_PS_INPUT_CNTL_n, attrN):
 * location `loc` of input variable `var` of the fragment shader, counted
 * from the variable's first location.  An array element, a matrix column
 * and a structure member each start a location of their own (GL 4.6
 * §4.4.1 "Input Layout Qualifiers"), so each gets its own param, with
 * the interpolation its variable or block member declares. */
struct drv_ps_input {
	uint32_t var;          /* index into fs->vars */
	uint32_t loc;
	bool flat, noperspective;
	bool sprite;           /* gl_PointCoord: the SC's point sprite (s, t), no param */
};
/* The PS inputs of fragment shader `fs`, ordered by location and
 * component, at most 32 (the hardware's params): PS input n is the n-th.
 * Returns the count, or -1 (with *why, naming the input in `name`, a
 * buffer of `name_size` bytes) for an input the driver cannot
 * interpolate. */
int drv_ps_inputs(const struct drv_smodule *fs, struct drv_ps_input in[32], char *why, size_t why_size);
/* The PS input and its channel that carry slot `slot` of input variable
 * `var`: the index into in[0 .. n), or -1. */
int drv_ps_input_find(const struct drv_smodule *fs, const struct drv_ps_input *in, int n, uint32_t var,
		      uint32_t slot, unsigned *chan);
/* The first VGPR of PS input group `bit` of SPI_PS_INPUT_ENA `ena` (bit
 * 16: the VGPRs all enabled groups take). */
unsigned drv_ps_input_vgpr(uint32_t ena, unsigned bit);
/* The output of `m` (the last vertex stage) feeding slot `slot` of input
 * variable `in` of fragment shader `fs` (GL 4.6 §7.4.1, drv_io_key:
 * block members by block and member name), and that output's slot in
 * *src_slot; -1 when none. */
int drv_ps_input_source(const struct drv_smodule *m, const struct drv_smodule *fs, uint32_t in, uint32_t slot,
			uint32_t *src_slot);
/* drv_lower_io.c: the vectors the hardware VS or copy shader of last vertex
 * stage `m` exports after pos0 (drv_vs_out_info). */
void drv_vs_outputs(const struct drv_smodule *m, struct drv_vs_out_info *o);
/* drv_lower_io.c: appends the stage epilogue (exports, streamout, ring
 * stores) and lowers EMIT_VERTEX / END_PRIMITIVE. */
enum xt_rc drv_lower_io(struct drv_ir *ir, const struct drv_smodule *m, const struct drv_lower_info *info,
			struct xt_err *err);
/* drv_lower_io.c: builds the copy shader for GS module `gs`. */
enum xt_rc drv_build_copy_shader(struct drv_ir *ir, const struct drv_smodule *gs, const struct drv_lower_info *info,
				 struct xt_err *err);

/* drv_ra.c: linear-scan VGPR allocation; errors when a program needs more
 * than the ISA has (no spilling). */
enum xt_rc drv_ra(struct drv_ir *ir, struct xt_err *err);

/* drv_emit.c: assembles `ir` into `bin` (code, register counts, text). */
enum xt_rc drv_emit(const struct drv_ir *ir, const struct drv_lower_info *info, struct drv_stage_binary *bin,
		    struct xt_err *err);

#endif
