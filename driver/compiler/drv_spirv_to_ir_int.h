/*
 * drv_spirv_to_ir_int.h - what the files of the SPIR-V -> IR translation
 * share: the translation context, the small IR builders and id accessors
 * (inline), and the functions one part calls in another.
 *
 *   drv_spirv_to_ir.c  entry point, inputs, one instruction
 *   drv_spirv_mem.c    variables, pointers, access chains, loads, stores
 *   drv_spirv_alu.c    arithmetic and GLSL.std.450
 *   drv_spirv_cfg.c    the structured walk of the blocks (constructs, phis)
 *
 * The overview (control flow, phis, values, variables) is at the top of
 * drv_spirv_to_ir.c.
 */
#ifndef DRV_SPIRV_TO_IR_INT_H
#define DRV_SPIRV_TO_IR_INT_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "drv_spirv.h"
#include "isa.h"

#define MAX_CONSTRUCTS 60
#define MAX_CANDIDATES 4096

struct construct {
	bool loop;
	uint32_t header, merge, cont;
	bool in_continue;
};

struct ctx {
	struct drv_smodule *m;
	struct drv_ir *ir;
	struct xt_err *err;
	const struct drv_io_layout *esgs;
	struct construct cs[MAX_CONSTRUCTS];
	unsigned depth;
	uint32_t *phi_reg;      /* [bound]: first reg of a phi's slots */
	uint8_t *visited;       /* [bound]: label emitted */
	enum xt_rc rc;
};

#define FAIL(c, code, ...) ((c)->rc = XT_FAIL((c)->err, code, __VA_ARGS__), false)

/* --- small builders -------------------------------------------------------- */

static inline uint32_t K(struct ctx *c, uint32_t v) { return drv_ir_const(c->ir, 1, v); }
static inline uint32_t K64(struct ctx *c, uint64_t v) { return drv_ir_const(c->ir, 2, v); }

static inline uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static inline bool is64(struct ctx *c, uint32_t v) { return c->ir->vals[v].size == 2; }

/* A float constant of v's width. */
static inline uint32_t FK(struct ctx *c, uint32_t like, double v)
{
	return is64(c, like) ? K64(c, dbits(v)) : K(c, fbits((float)v));
}

static inline uint32_t V1(struct ctx *c, unsigned op, uint32_t a) { return drv_ir_valu(c->ir, op, isa_ops[op].dst_regs, a, 0, 0); }
static inline uint32_t V2(struct ctx *c, unsigned op, uint32_t a, uint32_t b) { return drv_ir_valu(c->ir, op, isa_ops[op].dst_regs, a, b, 0); }
static inline uint32_t V3(struct ctx *c, unsigned op, uint32_t a, uint32_t b, uint32_t d) { return drv_ir_valu(c->ir, op, isa_ops[op].dst_regs, a, b, d); }

static inline uint32_t VF(struct ctx *c, unsigned op, uint8_t flags, uint32_t a, uint32_t b)
{
	struct drv_ins in = { .op = DRV_OP_VALU, .gm_op = (uint16_t)op, .size = isa_ops[op].dst_regs,
			      .flags = flags, .n_src = 2, .src = { a, b } };
	return drv_ir_emit(c->ir, &in);
}

static inline uint32_t lo(struct ctx *c, uint32_t v) { return drv_ir_op1(c->ir, DRV_OP_SPLIT_LO, 1, v, 0, 0); }
static inline uint32_t hi(struct ctx *c, uint32_t v) { return drv_ir_op1(c->ir, DRV_OP_SPLIT_HI, 1, v, 0, 0); }
static inline uint32_t pack(struct ctx *c, uint32_t l, uint32_t h)
{
	struct drv_ins in = { .op = DRV_OP_PACK64, .size = 2, .n_src = 2, .src = { l, h } };
	return drv_ir_emit(c->ir, &in);
}

static inline uint32_t fadd_(struct ctx *c, uint32_t a, uint32_t b) { return is64(c, a) ? V2(c, ISA_OP_V_ADD_F64, a, b) : V2(c, ISA_OP_V_ADD_F32, a, b); }
static inline uint32_t fsub_(struct ctx *c, uint32_t a, uint32_t b) { return is64(c, a) ? VF(c, ISA_OP_V_ADD_F64, ISA_FLAG_NEG1, a, b) : V2(c, ISA_OP_V_SUB_F32, a, b); }
static inline uint32_t fmul_(struct ctx *c, uint32_t a, uint32_t b) { return is64(c, a) ? V2(c, ISA_OP_V_MUL_F64, a, b) : V2(c, ISA_OP_V_MUL_F32, a, b); }
static inline uint32_t fdiv_(struct ctx *c, uint32_t a, uint32_t b) { return is64(c, a) ? V2(c, ISA_OP_V_DIV_F64, a, b) : V2(c, ISA_OP_V_DIV_F32, a, b); }
static inline uint32_t fmin_(struct ctx *c, uint32_t a, uint32_t b) { return is64(c, a) ? V2(c, ISA_OP_V_MIN_F64, a, b) : V2(c, ISA_OP_V_MIN_F32, a, b); }
static inline uint32_t fmax_(struct ctx *c, uint32_t a, uint32_t b) { return is64(c, a) ? V2(c, ISA_OP_V_MAX_F64, a, b) : V2(c, ISA_OP_V_MAX_F32, a, b); }
static inline uint32_t ffloor_(struct ctx *c, uint32_t a) { return is64(c, a) ? V1(c, ISA_OP_V_FLOOR_F64, a) : V1(c, ISA_OP_V_FLOOR_F32, a); }
static inline uint32_t ftrunc_(struct ctx *c, uint32_t a) { return is64(c, a) ? V1(c, ISA_OP_V_TRUNC_F64, a) : V1(c, ISA_OP_V_TRUNC_F32, a); }
static inline uint32_t ffract_(struct ctx *c, uint32_t a) { return is64(c, a) ? V1(c, ISA_OP_V_FRACT_F64, a) : V1(c, ISA_OP_V_FRACT_F32, a); }
static inline uint32_t fsqrt_(struct ctx *c, uint32_t a) { return is64(c, a) ? V1(c, ISA_OP_V_SQRT_F64, a) : V1(c, ISA_OP_V_SQRT_F32, a); }
static inline uint32_t frsq_(struct ctx *c, uint32_t a) { return is64(c, a) ? V1(c, ISA_OP_V_RSQ_F64, a) : V1(c, ISA_OP_V_RSQ_F32, a); }
/* a * b + d with two roundings (what a CPU computing a*b+d does) */
static inline uint32_t fmad_(struct ctx *c, uint32_t a, uint32_t b, uint32_t d)
{
	return is64(c, a) ? fadd_(c, fmul_(c, a, b), d) : V3(c, ISA_OP_V_MAD_F32, a, b, d);
}
static inline uint32_t fneg_(struct ctx *c, uint32_t a)
{
	if (is64(c, a))
		return pack(c, lo(c, a), V2(c, ISA_OP_V_XOR_B32, hi(c, a), K(c, 0x80000000u)));
	return V2(c, ISA_OP_V_XOR_B32, a, K(c, 0x80000000u));
}
static inline uint32_t fabs_(struct ctx *c, uint32_t a)
{
	if (is64(c, a))
		return pack(c, lo(c, a), V2(c, ISA_OP_V_AND_B32, hi(c, a), K(c, 0x7FFFFFFFu)));
	return V2(c, ISA_OP_V_AND_B32, a, K(c, 0x7FFFFFFFu));
}
static inline uint32_t fceil_(struct ctx *c, uint32_t a)
{
	return is64(c, a) ? fneg_(c, ffloor_(c, fneg_(c, a))) : V1(c, ISA_OP_V_CEIL_F32, a);
}

enum cmpk { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };
static inline uint32_t fcmp(struct ctx *c, enum cmpk k, uint32_t a, uint32_t b)
{
	static const unsigned f32[] = { ISA_OP_V_CMP_EQ_F32, ISA_OP_V_CMP_NE_F32, ISA_OP_V_CMP_LT_F32,
					ISA_OP_V_CMP_LE_F32, ISA_OP_V_CMP_GT_F32, ISA_OP_V_CMP_GE_F32 };
	static const unsigned f64[] = { ISA_OP_V_CMP_EQ_F64, ISA_OP_V_CMP_NE_F64, ISA_OP_V_CMP_LT_F64,
					ISA_OP_V_CMP_LE_F64, ISA_OP_V_CMP_GT_F64, ISA_OP_V_CMP_GE_F64 };
	return drv_ir_cmp(c->ir, is64(c, a) ? f64[k] : f32[k], a, b);
}
static inline uint32_t icmp(struct ctx *c, unsigned op, uint32_t a, uint32_t b) { return drv_ir_cmp(c->ir, op, a, b); }
static inline uint32_t bnot(struct ctx *c, uint32_t a) { return V2(c, ISA_OP_V_XOR_B32, a, K(c, 1)); }
static inline uint32_t sel(struct ctx *c, uint32_t cond, uint32_t t, uint32_t f) { return drv_ir_select(c->ir, cond, t, f); }

/* --- ids -------------------------------------------------------------------- */

static inline struct drv_sid *sid(struct ctx *c, uint32_t id)
{
	return id < c->m->bound ? &c->m->ids[id] : NULL;
}

static inline uint32_t type_slots(struct ctx *c, uint32_t t)
{
	const struct drv_sid *ty = drv_stype(c->m, t);
	return ty ? ty->slots : 0;
}

/* The IR values of operand `id` (n slots).  Constants are materialized
 * into `tmp`, which must hold type_slots entries. */
static inline const uint32_t *operand(struct ctx *c, uint32_t id, uint32_t **tmp, uint32_t *n)
{
	struct drv_sid *s = sid(c, id);
	if (!s)
		return NULL;
	if (s->kind == DRV_SID_VALUE) {
		*n = type_slots(c, s->type);
		return s->comps;
	}
	if (s->kind == DRV_SID_CONST) {
		uint32_t k = type_slots(c, s->type);
		uint32_t *v = calloc(k ? k : 1, sizeof *v);
		if (!v)
			return NULL;
		for (uint32_t i = 0; i < k; i++)
			v[i] = drv_ir_const(c->ir, drv_stype_slot_dwords(c->m, s->type, i), s->cval[i]);
		*tmp = v;
		*n = k;
		return v;
	}
	return NULL;
}

/* Operand access with automatic cleanup of materialized constants. */
struct opnd {
	const uint32_t *v;
	uint32_t *tmp;
	uint32_t n;
};
static inline bool get(struct ctx *c, uint32_t id, struct opnd *o)
{
	o->tmp = NULL;
	o->n = 0;
	o->v = operand(c, id, &o->tmp, &o->n);
	if (!o->v)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: operand %%%u is not a value", id);
	return true;
}
static inline void put(struct opnd *o) { free(o->tmp); o->tmp = NULL; }
/* Two / three operands at once: on failure none is left to put. */
static inline bool get2(struct ctx *c, uint32_t ia, uint32_t ib, struct opnd *a, struct opnd *b)
{
	if (!get(c, ia, a))
		return false;
	if (get(c, ib, b))
		return true;
	put(a);
	return false;
}
static inline bool get3(struct ctx *c, uint32_t ia, uint32_t ib, uint32_t id, struct opnd *a,
			struct opnd *b, struct opnd *d)
{
	if (!get2(c, ia, ib, a, b))
		return false;
	if (get(c, id, d))
		return true;
	put(a);
	put(b);
	return false;
}

/* Defines result `id` of type `t` with the given slot values (copied). */
static inline bool def(struct ctx *c, uint32_t id, uint32_t t, const uint32_t *v, uint32_t n)
{
	struct drv_sid *s = sid(c, id);
	if (!s)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: result id %u out of range", id);
	if (n != type_slots(c, t))
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: result %%%u has %u slots, its type %u", id, n, type_slots(c, t));
	free(s->comps);
	s->comps = malloc((n ? n : 1) * sizeof *s->comps);
	if (!s->comps)
		return FAIL(c, XT_ERR_NOMEM, "out of memory");
	if (n)
		memcpy(s->comps, v, n * sizeof *v);
	s->kind = DRV_SID_VALUE;
	s->type = t;
	return true;
}

/* --- across the files ------------------------------------------------------- */

/* drv_spirv_mem.c */
bool drv_sx_is_reg_storage(uint32_t storage_class);
struct drv_svar *drv_sx_var_of(struct ctx *c, uint32_t id);
bool drv_sx_access_chain(struct ctx *c, const uint32_t *w, uint32_t n);
bool drv_sx_load(struct ctx *c, const uint32_t *w, uint32_t n);
bool drv_sx_store(struct ctx *c, uint32_t ptr, uint32_t val);
/* drv_spirv_tex.c: an OpLoad of type t through pointer p into variable v
 * that loads a sampler (true; *ok its success, out[0] the value), and the
 * image instructions (OpImage, OpImageFetch, OpImageSample*Lod) */
bool drv_sx_load_sampler(struct ctx *c, const struct drv_svar *v, const struct drv_sptr *p, uint32_t t,
			 uint32_t *out, bool *ok);
bool drv_sx_image(struct ctx *c, uint16_t op, const uint32_t *w, uint32_t n);
bool drv_sx_image_size(struct ctx *c, uint16_t op, const uint32_t *w, uint32_t n);
/* drv_spirv_ps.c: fragment-shader-only instructions (derivatives, discard);
 * drv_sx_whole_quad: the shader needs its helper lanes (drv_ir.wqm) for
 * `what` (false, reported, where a discard came first) */
bool drv_sx_derivative(struct ctx *c, uint16_t op, const uint32_t *w, uint32_t n);
bool drv_sx_kill(struct ctx *c);
bool drv_sx_whole_quad(struct ctx *c, const char *what);
/* drv_spirv_alu.c: one slot of a binary / unary arithmetic or conversion
 * op, a dot product of n slots, a GLSL.std.450 OpExtInst */
uint32_t drv_sx_binop(struct ctx *c, uint16_t op, uint32_t a, uint32_t b);
uint32_t drv_sx_unop(struct ctx *c, uint16_t op, uint32_t a, uint32_t src_t, uint32_t dst_t);
uint32_t drv_sx_dot(struct ctx *c, const uint32_t *a, const uint32_t *b, uint32_t n);
bool drv_sx_ext_inst(struct ctx *c, const uint32_t *w, uint32_t n);
/* drv_spirv_to_ir.c: one instruction of a block body; an opcode's name */
bool drv_sx_instruction(struct ctx *c, uint16_t op, const uint32_t *w, uint32_t n);
const char *drv_sx_op_name(uint16_t op);
/* The compiler of the shader's stage, for messages: "the driver's
 * fragment compiler" and so on. */
const char *drv_sx_compiler(const struct ctx *c);
/* drv_spirv_cfg.c: emits the blocks reachable from `label`, structured */
bool drv_sx_walk(struct ctx *c, uint32_t label);

#endif
