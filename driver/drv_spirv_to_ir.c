/*
 * drv_spirv_to_ir.c - the entry point's body (SPIR-V 1.0 sections 2.11
 * "Structured Control Flow", 3.32 instructions, GLSL.std.450) to scalar
 * driver IR (drv_ir.h).
 *
 * Control flow.  SPIR-V gives a CFG whose constructs are marked by
 * OpSelectionMerge / OpLoopMerge.  The blocks are walked from the entry,
 * keeping a stack of open constructs; every branch target is classified
 * against the innermost ones:
 *   innermost loop's merge            -> BREAK
 *   innermost loop's continue target  -> CONTINUE (from the body)
 *   innermost loop's header           -> end of the continue construct
 *   innermost selection's merge       -> end of the IF arm
 *   anything else                     -> the block is emitted inline here.
 * A header with OpLoopMerge opens LOOP ... CONTINUE_POINT <continue
 * construct> ENDLOOP; OpSelectionMerge + OpBranchConditional opens IF /
 * ELSE / ENDIF; an OpBranchConditional without a merge (a loop's exit test,
 * a conditional break) becomes an IF whose arm jumps.  A block reached twice
 * means the CFG is not structured the way this walk expects: an error, not
 * a guess.  OpSwitch is refused (glslang's optimizer rarely leaves one),
 * except the one its merge-return pass makes when it inlines a function
 * with early returns: `OpSwitch %const %default` with no cases, a block
 * that branches to its merge to leave it.  That is a loop run once
 * (switch_once): LOOP <default> BREAK CONTINUE_POINT ENDLOOP, a branch to
 * the merge inside being a BREAK, as for any loop.
 *
 * Phis.  An OpPhi gets one reg per scalar slot; the branch from a
 * predecessor writes the incoming value into it (under that path's exec
 * mask, so each lane keeps its own incoming value) and the block reads it
 * at its top.  This is out-of-SSA by copies, which the exec-mask machine
 * makes exact without critical-edge splitting.
 *
 * Values.  Every SPIR-V value is flattened to scalar slots (drv_spirv.h);
 * composites (construct / extract / insert / shuffle) only move IR value
 * ids around, and arithmetic is selected to gpu_model opcodes slot by slot.
 * Constants become a fresh CONST at every use (drv_ra rematerializes them),
 * so a constant never depends on the exec mask where it was first used.
 *
 * Variables.  Function / Private / Input / Output variables live in regs,
 * one per slot.  A dynamic index into them is a chain of compares and
 * selects over the candidate slots (there is no indexed register access in
 * the ISA).  Uniforms (default block: DRV_DESC_CONST at std140 offsets;
 * blocks: DRV_DESC_UBO(i) at glslang's offsets) are LOAD_BUF with a
 * constant and, for dynamic indices, a computed byte offset.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "drv_spirv.h"
#include "gm_isa.h"

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

static uint32_t K(struct ctx *c, uint32_t v) { return drv_ir_const(c->ir, 1, v); }
static uint32_t K64(struct ctx *c, uint64_t v) { return drv_ir_const(c->ir, 2, v); }

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static bool is64(struct ctx *c, uint32_t v) { return c->ir->vals[v].size == 2; }

/* A float constant of v's width. */
static uint32_t FK(struct ctx *c, uint32_t like, double v)
{
	return is64(c, like) ? K64(c, dbits(v)) : K(c, fbits((float)v));
}

static uint32_t V1(struct ctx *c, unsigned op, uint32_t a) { return drv_ir_valu(c->ir, op, gm_isa_ops[op].dst_regs, a, 0, 0); }
static uint32_t V2(struct ctx *c, unsigned op, uint32_t a, uint32_t b) { return drv_ir_valu(c->ir, op, gm_isa_ops[op].dst_regs, a, b, 0); }
static uint32_t V3(struct ctx *c, unsigned op, uint32_t a, uint32_t b, uint32_t d) { return drv_ir_valu(c->ir, op, gm_isa_ops[op].dst_regs, a, b, d); }

static uint32_t VF(struct ctx *c, unsigned op, uint8_t flags, uint32_t a, uint32_t b)
{
	struct drv_ins in = { .op = DRV_OP_VALU, .gm_op = (uint16_t)op, .size = gm_isa_ops[op].dst_regs,
			      .flags = flags, .n_src = 2, .src = { a, b } };
	return drv_ir_emit(c->ir, &in);
}

static uint32_t lo(struct ctx *c, uint32_t v) { return drv_ir_op1(c->ir, DRV_OP_SPLIT_LO, 1, v, 0, 0); }
static uint32_t hi(struct ctx *c, uint32_t v) { return drv_ir_op1(c->ir, DRV_OP_SPLIT_HI, 1, v, 0, 0); }
static uint32_t pack(struct ctx *c, uint32_t l, uint32_t h)
{
	struct drv_ins in = { .op = DRV_OP_PACK64, .size = 2, .n_src = 2, .src = { l, h } };
	return drv_ir_emit(c->ir, &in);
}

static uint32_t fadd_(struct ctx *c, uint32_t a, uint32_t b) { return is64(c, a) ? V2(c, GM_OP_V_ADD_F64, a, b) : V2(c, GM_OP_V_ADD_F32, a, b); }
static uint32_t fsub_(struct ctx *c, uint32_t a, uint32_t b) { return is64(c, a) ? VF(c, GM_OP_V_ADD_F64, GM_FLAG_NEG1, a, b) : V2(c, GM_OP_V_SUB_F32, a, b); }
static uint32_t fmul_(struct ctx *c, uint32_t a, uint32_t b) { return is64(c, a) ? V2(c, GM_OP_V_MUL_F64, a, b) : V2(c, GM_OP_V_MUL_F32, a, b); }
static uint32_t fdiv_(struct ctx *c, uint32_t a, uint32_t b) { return is64(c, a) ? V2(c, GM_OP_V_DIV_F64, a, b) : V2(c, GM_OP_V_DIV_F32, a, b); }
static uint32_t fmin_(struct ctx *c, uint32_t a, uint32_t b) { return is64(c, a) ? V2(c, GM_OP_V_MIN_F64, a, b) : V2(c, GM_OP_V_MIN_F32, a, b); }
static uint32_t fmax_(struct ctx *c, uint32_t a, uint32_t b) { return is64(c, a) ? V2(c, GM_OP_V_MAX_F64, a, b) : V2(c, GM_OP_V_MAX_F32, a, b); }
static uint32_t ffloor_(struct ctx *c, uint32_t a) { return is64(c, a) ? V1(c, GM_OP_V_FLOOR_F64, a) : V1(c, GM_OP_V_FLOOR_F32, a); }
static uint32_t ftrunc_(struct ctx *c, uint32_t a) { return is64(c, a) ? V1(c, GM_OP_V_TRUNC_F64, a) : V1(c, GM_OP_V_TRUNC_F32, a); }
static uint32_t ffract_(struct ctx *c, uint32_t a) { return is64(c, a) ? V1(c, GM_OP_V_FRACT_F64, a) : V1(c, GM_OP_V_FRACT_F32, a); }
static uint32_t fsqrt_(struct ctx *c, uint32_t a) { return is64(c, a) ? V1(c, GM_OP_V_SQRT_F64, a) : V1(c, GM_OP_V_SQRT_F32, a); }
static uint32_t frsq_(struct ctx *c, uint32_t a) { return is64(c, a) ? V1(c, GM_OP_V_RSQ_F64, a) : V1(c, GM_OP_V_RSQ_F32, a); }
/* a * b + d with two roundings (what a CPU computing a*b+d does) */
static uint32_t fmad_(struct ctx *c, uint32_t a, uint32_t b, uint32_t d)
{
	return is64(c, a) ? fadd_(c, fmul_(c, a, b), d) : V3(c, GM_OP_V_MAD_F32, a, b, d);
}
static uint32_t fneg_(struct ctx *c, uint32_t a)
{
	if (is64(c, a))
		return pack(c, lo(c, a), V2(c, GM_OP_V_XOR_B32, hi(c, a), K(c, 0x80000000u)));
	return V2(c, GM_OP_V_XOR_B32, a, K(c, 0x80000000u));
}
static uint32_t fabs_(struct ctx *c, uint32_t a)
{
	if (is64(c, a))
		return pack(c, lo(c, a), V2(c, GM_OP_V_AND_B32, hi(c, a), K(c, 0x7FFFFFFFu)));
	return V2(c, GM_OP_V_AND_B32, a, K(c, 0x7FFFFFFFu));
}
static uint32_t fceil_(struct ctx *c, uint32_t a)
{
	return is64(c, a) ? fneg_(c, ffloor_(c, fneg_(c, a))) : V1(c, GM_OP_V_CEIL_F32, a);
}

enum cmpk { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };
static uint32_t fcmp(struct ctx *c, enum cmpk k, uint32_t a, uint32_t b)
{
	static const unsigned f32[] = { GM_OP_V_CMP_EQ_F32, GM_OP_V_CMP_NE_F32, GM_OP_V_CMP_LT_F32,
					GM_OP_V_CMP_LE_F32, GM_OP_V_CMP_GT_F32, GM_OP_V_CMP_GE_F32 };
	static const unsigned f64[] = { GM_OP_V_CMP_EQ_F64, GM_OP_V_CMP_NE_F64, GM_OP_V_CMP_LT_F64,
					GM_OP_V_CMP_LE_F64, GM_OP_V_CMP_GT_F64, GM_OP_V_CMP_GE_F64 };
	return drv_ir_cmp(c->ir, is64(c, a) ? f64[k] : f32[k], a, b);
}
static uint32_t icmp(struct ctx *c, unsigned op, uint32_t a, uint32_t b) { return drv_ir_cmp(c->ir, op, a, b); }
static uint32_t bnot(struct ctx *c, uint32_t a) { return V2(c, GM_OP_V_XOR_B32, a, K(c, 1)); }
static uint32_t sel(struct ctx *c, uint32_t cond, uint32_t t, uint32_t f) { return drv_ir_select(c->ir, cond, t, f); }

/* --- ids -------------------------------------------------------------------- */

static struct drv_sid *sid(struct ctx *c, uint32_t id)
{
	return id < c->m->bound ? &c->m->ids[id] : NULL;
}

static uint32_t type_slots(struct ctx *c, uint32_t t)
{
	const struct drv_sid *ty = drv_stype(c->m, t);
	return ty ? ty->slots : 0;
}

/* The IR values of operand `id` (n slots).  Constants are materialized
 * into `tmp`, which must hold type_slots entries. */
static const uint32_t *operand(struct ctx *c, uint32_t id, uint32_t **tmp, uint32_t *n)
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
static bool get(struct ctx *c, uint32_t id, struct opnd *o)
{
	o->tmp = NULL;
	o->n = 0;
	o->v = operand(c, id, &o->tmp, &o->n);
	if (!o->v)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: operand %%%u is not a value", id);
	return true;
}
static void put(struct opnd *o) { free(o->tmp); o->tmp = NULL; }

/* Defines result `id` of type `t` with the given slot values (copied). */
static bool def(struct ctx *c, uint32_t id, uint32_t t, const uint32_t *v, uint32_t n)
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

/* --- variables and pointers -------------------------------------------------- */

static bool is_reg_storage(uint32_t sc)
{
	return sc == SpvStorageClassFunction || sc == SpvStorageClassPrivate || sc == SpvStorageClassInput ||
	       sc == SpvStorageClassOutput;
}

static struct drv_svar *var_of(struct ctx *c, uint32_t id)
{
	struct drv_sid *s = sid(c, id);
	return s && s->kind == DRV_SID_VAR ? &c->m->vars[s->var] : NULL;
}

/* Combines a candidate set with k * step for k < count. */
static bool cands_add(struct ctx *c, struct drv_sptr *p, uint32_t step, uint32_t count)
{
	uint32_t n0 = p->n_cands ? p->n_cands : 1, nn = n0 * count, *nc;
	if (!count || nn > MAX_CANDIDATES)
		return FAIL(c, XT_ERR_UNSUPPORTED, "dynamic indexing over %u elements of a local, input or output is too large for the driver", nn);
	nc = malloc(nn * sizeof *nc);
	if (!nc)
		return FAIL(c, XT_ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < n0; i++)
		for (uint32_t k = 0; k < count; k++)
			nc[i * count + k] = (p->n_cands ? p->cands[i] : 0) + k * step;
	free(p->cands);
	p->cands = nc;
	p->n_cands = nn;
	return true;
}

/* The pointer an id denotes (a variable or an access chain), copied into *out. */
static bool pointer(struct ctx *c, uint32_t id, struct drv_sptr *out)
{
	struct drv_sid *s = sid(c, id);
	memset(out, 0, sizeof *out);
	out->builtin = -1;
	if (s && s->kind == DRV_SID_VAR) {
		struct drv_svar *v = &c->m->vars[s->var];
		out->var = s->var;
		out->type = v->type;
		out->byte = v->storage == SpvStorageClassUniformConstant ? v->mem_offset : 0;
		out->builtin = v->builtin;
		v->used = true;
		return true;
	}
	if (s && s->kind == DRV_SID_POINTER && s->ptr) {
		*out = *s->ptr;
		if (s->ptr->n_cands) {
			out->cands = malloc(s->ptr->n_cands * sizeof *out->cands);
			if (!out->cands)
				return FAIL(c, XT_ERR_NOMEM, "out of memory");
			memcpy(out->cands, s->ptr->cands, s->ptr->n_cands * sizeof *out->cands);
		}
		return true;
	}
	return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: %%%u is not a pointer", id);
}

static uint32_t scalar_bytes(struct ctx *c, uint32_t t)
{
	const struct drv_sid *s = drv_stype(c->m, drv_stype_slot_scalar(c->m, t, 0));
	return s && s->width == 64 ? 8 : 4;
}

/* Matrix stride (std140) of a matrix type when no decoration says. */
static uint32_t std140_col_stride(struct ctx *c, uint32_t mat)
{
	const struct drv_sid *t = drv_stype(c->m, mat);
	uint32_t size, align;
	drv_stype_std140(c->m, t ? t->elem : 0, &size, &align);
	return size <= 16 ? 16 : 32;
}

static bool access_chain(struct ctx *c, const uint32_t *w, uint32_t n)
{
	struct drv_sptr p;
	struct drv_svar *v;
	struct drv_sid *res;
	bool reg;

	if (n < 4 || !pointer(c, w[3], &p))
		return c->rc == XT_OK ? FAIL(c, XT_ERR_CORRUPT, "SPIR-V: bad access chain") : false;
	v = &c->m->vars[p.var];
	reg = is_reg_storage(v->storage);
	for (uint32_t i = 4; i < n; i++) {
		const struct drv_sid *t = drv_stype(c->m, p.type), *ix = sid(c, w[i]);
		bool is_const = ix && ix->kind == DRV_SID_CONST;
		uint32_t k = is_const ? (uint32_t)ix->cval[0] : 0;
		if (!t || !ix)
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: bad access chain index");
		if (t->op == SpvOpTypeStruct) {
			if (!is_const || k >= t->n_members)
				return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: struct index must be a constant in range");
			for (uint32_t j = 0; j < k; j++)
				p.slot += type_slots(c, t->members[j].type);
			p.byte += drv_stype_member_offset(c->m, p.type, k);
			if (t->members[k].builtin >= 0)
				p.builtin = t->members[k].builtin;
			if (drv_stype(c->m, t->members[k].type) &&
			    drv_stype(c->m, t->members[k].type)->op == SpvOpTypeMatrix) {
				p.mat_stride = t->members[k].matrix_stride ? t->members[k].matrix_stride
									   : std140_col_stride(c, t->members[k].type);
				p.row_major = t->members[k].row_major;
			} else {
				uint32_t el, base = drv_stype_strip_arrays(c->m, t->members[k].type, &el);
				if (drv_stype(c->m, base) && drv_stype(c->m, base)->op == SpvOpTypeMatrix) {
					p.mat_stride = t->members[k].matrix_stride ? t->members[k].matrix_stride
										   : std140_col_stride(c, base);
					p.row_major = t->members[k].row_major;
				}
			}
			p.type = t->members[k].type;
			continue;
		}
		if (t->op != SpvOpTypeArray && t->op != SpvOpTypeVector && t->op != SpvOpTypeMatrix)
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: access chain into a non-composite");
		{
			uint32_t es = type_slots(c, t->elem), bstride;
			if (t->op == SpvOpTypeArray) {
				bstride = drv_stype_array_stride(c->m, p.type);
			} else if (t->op == SpvOpTypeMatrix) {
				if (!p.mat_stride)
					p.mat_stride = std140_col_stride(c, p.type);
				bstride = p.row_major ? scalar_bytes(c, p.type) : p.mat_stride;
				p.vec_stride = p.row_major ? p.mat_stride : 0;
			} else {
				bstride = p.vec_stride ? p.vec_stride : scalar_bytes(c, p.type);
			}
			if (is_const) {
				if (k >= t->count && t->count)
					k = t->count - 1;     /* out of range: undefined, clamp */
				p.slot += k * es;
				p.byte += k * bstride;
			} else {
				struct opnd o;
				uint32_t idx;
				if (!get(c, w[i], &o))
					return false;
				idx = o.v[0];
				put(&o);
				if (reg) {
					uint32_t d = V2(c, GM_OP_V_MUL_LO_U32, idx, K(c, es));
					p.dyn_slot = p.dyn_slot ? V2(c, GM_OP_V_ADD_U32, p.dyn_slot, d) : d;
					if (!cands_add(c, &p, es, t->count))
						return false;
				} else {
					uint32_t d = V2(c, GM_OP_V_MUL_LO_U32, idx, K(c, bstride));
					p.dyn_byte = p.dyn_byte ? V2(c, GM_OP_V_ADD_U32, p.dyn_byte, d) : d;
				}
			}
			if (t->op == SpvOpTypeVector)
				p.vec_stride = 0;
			p.type = t->elem;
		}
	}
	res = sid(c, w[2]);
	if (!res) {
		free(p.cands);
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: bad access chain result");
	}
	if (res->ptr)
		free(res->ptr->cands);
	free(res->ptr);
	res->ptr = malloc(sizeof *res->ptr);
	if (!res->ptr) {
		free(p.cands);
		return FAIL(c, XT_ERR_NOMEM, "out of memory");
	}
	*res->ptr = p;
	res->kind = DRV_SID_POINTER;
	res->type = w[1];
	return true;
}

/* Loads a memory (uniform) value of type t at the pointer's byte offset. */
static bool load_mem(struct ctx *c, const struct drv_sptr *p, uint32_t t, uint32_t byte, uint32_t vec_stride,
		     uint32_t mat_stride, bool row_major, uint32_t *out, uint32_t *k)
{
	const struct drv_sid *ty = drv_stype(c->m, t);
	const struct drv_svar *v = &c->m->vars[p->var];
	uint32_t slot = v->storage == SpvStorageClassUniformConstant ? DRV_DESC_CONST : DRV_DESC_UBO((uint32_t)v->ubo);
	if (!ty)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: load of an untyped value");
	switch (ty->op) {
	case SpvOpTypeBool:
	case SpvOpTypeInt:
	case SpvOpTypeFloat: {
		uint32_t x = drv_ir_op1(c->ir, DRV_OP_LOAD_BUF, ty->width == 64 ? 2 : 1, p->dyn_byte, slot, byte);
		if (ty->op == SpvOpTypeBool)
			x = icmp(c, GM_OP_V_CMP_NE_I32, x, K(c, 0));
		out[(*k)++] = x;
		return true;
	}
	case SpvOpTypeVector: {
		uint32_t sb = scalar_bytes(c, t);
		for (uint32_t i = 0; i < ty->count; i++)
			if (!load_mem(c, p, ty->elem, byte + i * (vec_stride ? vec_stride : sb), 0, 0, false, out, k))
				return false;
		return true;
	}
	case SpvOpTypeMatrix: {
		uint32_t ms = mat_stride ? mat_stride : std140_col_stride(c, t), sb = scalar_bytes(c, t);
		for (uint32_t col = 0; col < ty->count; col++)
			if (!load_mem(c, p, ty->elem, byte + col * (row_major ? sb : ms), row_major ? ms : 0, 0, false, out, k))
				return false;
		return true;
	}
	case SpvOpTypeArray: {
		uint32_t st = drv_stype_array_stride(c->m, t);
		for (uint32_t i = 0; i < ty->count; i++)
			if (!load_mem(c, p, ty->elem, byte + i * st, 0, mat_stride, row_major, out, k))
				return false;
		return true;
	}
	case SpvOpTypeStruct:
		for (uint32_t i = 0; i < ty->n_members; i++) {
			const struct drv_smember *mb = &ty->members[i];
			if (!load_mem(c, p, mb->type, byte + drv_stype_member_offset(c->m, t, i), 0,
				      mb->matrix_stride, mb->row_major, out, k))
				return false;
		}
		return true;
	default:
		return FAIL(c, XT_ERR_UNSUPPORTED, "loading this kind of uniform (opaque type) is not supported by the driver");
	}
}

static bool do_load(struct ctx *c, const uint32_t *w, uint32_t n)
{
	struct drv_sptr p;
	struct drv_svar *v;
	uint32_t slots = type_slots(c, w[1]), *out, k = 0;
	bool ok = true;

	if (n < 4 || !pointer(c, w[3], &p))
		return c->rc == XT_OK ? FAIL(c, XT_ERR_CORRUPT, "SPIR-V: bad OpLoad") : false;
	v = &c->m->vars[p.var];
	out = calloc(slots ? slots : 1, sizeof *out);
	if (!out) {
		free(p.cands);
		return FAIL(c, XT_ERR_NOMEM, "out of memory");
	}
	if (is_reg_storage(v->storage)) {
		for (uint32_t j = 0; j < slots; j++) {
			if (!p.dyn_slot) {
				out[j] = drv_ir_reg_read(c->ir, v->reg_base + p.slot + j);
				continue;
			}
			out[j] = drv_ir_reg_read(c->ir, v->reg_base + p.slot + p.cands[0] + j);
			for (uint32_t q = 1; q < p.n_cands; q++) {
				uint32_t r = drv_ir_reg_read(c->ir, v->reg_base + p.slot + p.cands[q] + j);
				out[j] = sel(c, icmp(c, GM_OP_V_CMP_EQ_I32, p.dyn_slot, K(c, p.cands[q])), r, out[j]);
			}
		}
	} else if (v->storage == SpvStorageClassUniformConstant || v->storage == SpvStorageClassUniform) {
		if (v->storage == SpvStorageClassUniform && v->ubo < 0)
			ok = FAIL(c, XT_ERR_UNSUPPORTED, "uniform block '%s' is not bound to a program block", v->name);
		else
			ok = load_mem(c, &p, w[1], p.byte, p.vec_stride, p.mat_stride, p.row_major, out, &k);
	} else {
		ok = FAIL(c, XT_ERR_UNSUPPORTED, "loads from storage class %u (variable '%s') are not supported by the driver",
			  v->storage, v->name);
	}
	if (ok)
		ok = def(c, w[2], w[1], out, slots);
	free(out);
	free(p.cands);
	return ok;
}

static bool do_store(struct ctx *c, uint32_t ptr, uint32_t val)
{
	struct drv_sptr p;
	struct drv_svar *v;
	struct opnd o;

	if (!pointer(c, ptr, &p))
		return false;
	v = &c->m->vars[p.var];
	if (!is_reg_storage(v->storage)) {
		free(p.cands);
		return FAIL(c, XT_ERR_UNSUPPORTED, "stores to storage class %u (variable '%s') are not supported by the driver",
			    v->storage, v->name);
	}
	if (!get(c, val, &o)) {
		free(p.cands);
		return false;
	}
	for (uint32_t j = 0; j < o.n; j++) {
		if (!p.dyn_slot) {
			drv_ir_reg_write(c->ir, v->reg_base + p.slot + j, o.v[j]);
			continue;
		}
		for (uint32_t q = 0; q < p.n_cands; q++) {
			uint32_t r = v->reg_base + p.slot + p.cands[q] + j;
			uint32_t old = drv_ir_reg_read(c->ir, r);
			drv_ir_reg_write(c->ir, r, sel(c, icmp(c, GM_OP_V_CMP_EQ_I32, p.dyn_slot, K(c, p.cands[q])),
						       o.v[j], old));
		}
	}
	put(&o);
	free(p.cands);
	return true;
}

/* --- arithmetic ------------------------------------------------------------------ */


/* Component-wise binary ops; `b` may have one slot (broadcast). */
typedef uint32_t (*binfn)(struct ctx *c, unsigned op, uint32_t a, uint32_t b);

static uint32_t smod(struct ctx *c, uint32_t a, uint32_t b)
{
	uint32_t r = V2(c, GM_OP_V_REM_I32, a, b);
	uint32_t fix = V2(c, GM_OP_V_AND_B32, icmp(c, GM_OP_V_CMP_LT_I32, V2(c, GM_OP_V_XOR_B32, r, b), K(c, 0)),
			  icmp(c, GM_OP_V_CMP_NE_I32, r, K(c, 0)));
	return sel(c, fix, V2(c, GM_OP_V_ADD_U32, r, b), r);
}

static uint32_t binop(struct ctx *c, uint16_t op, uint32_t a, uint32_t b)
{
	switch (op) {
	case SpvOpFAdd: return fadd_(c, a, b);
	case SpvOpFSub: return fsub_(c, a, b);
	case SpvOpFMul: case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar: return fmul_(c, a, b);
	case SpvOpFDiv: return fdiv_(c, a, b);
	case SpvOpFRem: return fsub_(c, a, fmul_(c, b, ftrunc_(c, fdiv_(c, a, b))));
	case SpvOpFMod: return fsub_(c, a, fmul_(c, b, ffloor_(c, fdiv_(c, a, b))));
	case SpvOpIAdd: return V2(c, GM_OP_V_ADD_U32, a, b);
	case SpvOpISub: return V2(c, GM_OP_V_SUB_U32, a, b);
	case SpvOpIMul: return V2(c, GM_OP_V_MUL_LO_U32, a, b);
	case SpvOpUDiv: return V2(c, GM_OP_V_DIV_U32, a, b);
	case SpvOpSDiv: return V2(c, GM_OP_V_DIV_I32, a, b);
	case SpvOpUMod: return V2(c, GM_OP_V_REM_U32, a, b);
	case SpvOpSRem: return V2(c, GM_OP_V_REM_I32, a, b);
	case SpvOpSMod: return smod(c, a, b);
	case SpvOpShiftLeftLogical: return V2(c, GM_OP_V_LSHL_B32, a, b);
	case SpvOpShiftRightLogical: return V2(c, GM_OP_V_LSHR_B32, a, b);
	case SpvOpShiftRightArithmetic: return V2(c, GM_OP_V_ASHR_I32, a, b);
	case SpvOpBitwiseAnd: case SpvOpLogicalAnd: return V2(c, GM_OP_V_AND_B32, a, b);
	case SpvOpBitwiseOr: case SpvOpLogicalOr: return V2(c, GM_OP_V_OR_B32, a, b);
	case SpvOpBitwiseXor: case SpvOpLogicalNotEqual: return V2(c, GM_OP_V_XOR_B32, a, b);
	case SpvOpLogicalEqual: case SpvOpIEqual: return icmp(c, GM_OP_V_CMP_EQ_I32, a, b);
	case SpvOpINotEqual: return icmp(c, GM_OP_V_CMP_NE_I32, a, b);
	case SpvOpUGreaterThan: return icmp(c, GM_OP_V_CMP_GT_U32, a, b);
	case SpvOpSGreaterThan: return icmp(c, GM_OP_V_CMP_GT_I32, a, b);
	case SpvOpUGreaterThanEqual: return icmp(c, GM_OP_V_CMP_GE_U32, a, b);
	case SpvOpSGreaterThanEqual: return icmp(c, GM_OP_V_CMP_GE_I32, a, b);
	case SpvOpULessThan: return icmp(c, GM_OP_V_CMP_LT_U32, a, b);
	case SpvOpSLessThan: return icmp(c, GM_OP_V_CMP_LT_I32, a, b);
	case SpvOpULessThanEqual: return icmp(c, GM_OP_V_CMP_LE_U32, a, b);
	case SpvOpSLessThanEqual: return icmp(c, GM_OP_V_CMP_LE_I32, a, b);
	case SpvOpFOrdEqual: return fcmp(c, C_EQ, a, b);
	case SpvOpFUnordNotEqual: return fcmp(c, C_NE, a, b);
	case SpvOpFOrdLessThan: return fcmp(c, C_LT, a, b);
	case SpvOpFOrdGreaterThan: return fcmp(c, C_GT, a, b);
	case SpvOpFOrdLessThanEqual: return fcmp(c, C_LE, a, b);
	case SpvOpFOrdGreaterThanEqual: return fcmp(c, C_GE, a, b);
	case SpvOpFOrdNotEqual: return V2(c, GM_OP_V_OR_B32, fcmp(c, C_LT, a, b), fcmp(c, C_GT, a, b));
	case SpvOpFUnordEqual: return bnot(c, V2(c, GM_OP_V_OR_B32, fcmp(c, C_LT, a, b), fcmp(c, C_GT, a, b)));
	case SpvOpFUnordLessThan: return bnot(c, fcmp(c, C_GE, a, b));
	case SpvOpFUnordGreaterThan: return bnot(c, fcmp(c, C_LE, a, b));
	case SpvOpFUnordLessThanEqual: return bnot(c, fcmp(c, C_GT, a, b));
	case SpvOpFUnordGreaterThanEqual: return bnot(c, fcmp(c, C_LT, a, b));
	default: return 0;
	}
}

static uint32_t unop(struct ctx *c, uint16_t op, uint32_t a, uint32_t src_t, uint32_t dst_t)
{
	const struct drv_sid *ds = drv_stype(c->m, drv_stype_slot_scalar(c->m, dst_t, 0));
	const struct drv_sid *ss = drv_stype(c->m, drv_stype_slot_scalar(c->m, src_t, 0));
	bool d64 = ds && ds->width == 64;
	switch (op) {
	case SpvOpFNegate: return fneg_(c, a);
	case SpvOpSNegate: return V2(c, GM_OP_V_SUB_U32, K(c, 0), a);
	case SpvOpNot: return V1(c, GM_OP_V_NOT_B32, a);
	case SpvOpLogicalNot: return bnot(c, a);
	case SpvOpBitReverse: return V1(c, GM_OP_V_BFREV_B32, a);
	case SpvOpBitCount: return V1(c, GM_OP_V_BCNT_U32, a);
	case SpvOpConvertFToS: return V1(c, is64(c, a) ? GM_OP_V_CVT_I32_F64 : GM_OP_V_CVT_I32_F32, a);
	case SpvOpConvertFToU: return V1(c, is64(c, a) ? GM_OP_V_CVT_U32_F64 : GM_OP_V_CVT_U32_F32, a);
	case SpvOpConvertSToF: return V1(c, d64 ? GM_OP_V_CVT_F64_I32 : GM_OP_V_CVT_F32_I32, a);
	case SpvOpConvertUToF: return V1(c, d64 ? GM_OP_V_CVT_F64_U32 : GM_OP_V_CVT_F32_U32, a);
	case SpvOpFConvert:
		if (d64 == is64(c, a))
			return a;
		return V1(c, d64 ? GM_OP_V_CVT_F64_F32 : GM_OP_V_CVT_F32_F64, a);
	case SpvOpUConvert: case SpvOpSConvert: case SpvOpCopyObject: return a;
	case SpvOpIsNan: return is64(c, a) ? fcmp(c, C_NE, a, a) : icmp(c, GM_OP_V_CMP_U_F32, a, a);
	case SpvOpIsInf: return fcmp(c, C_EQ, fabs_(c, a), FK(c, a, INFINITY));
	default:
		(void)ss;
		return 0;
	}
}

/* --- GLSL.std.450 ------------------------------------------------------------------ */

static uint32_t f32_atan_01(struct ctx *c, uint32_t t)
{
	/* minimax polynomial for atan on [-1, 1], |error| < 2e-6 rad */
	static const float k[] = { -0.0117212f, 0.05265332f, -0.11643287f, 0.19354346f, -0.33262347f, 0.99997726f };
	uint32_t t2 = fmul_(c, t, t), r = K(c, fbits(k[0]));
	for (unsigned i = 1; i < 6; i++)
		r = fmad_(c, r, t2, K(c, fbits(k[i])));
	return fmul_(c, r, t);
}

static uint32_t f32_atan2(struct ctx *c, uint32_t y, uint32_t x)
{
	uint32_t ax = fabs_(c, x), ay = fabs_(c, y);
	uint32_t mx = fmax_(c, ax, ay), mn = fmin_(c, ax, ay);
	uint32_t t = fdiv_(c, mn, sel(c, fcmp(c, C_EQ, mx, K(c, 0)), K(c, fbits(1.0f)), mx));
	uint32_t r = f32_atan_01(c, t);
	r = sel(c, fcmp(c, C_GT, ay, ax), fsub_(c, K(c, fbits((float)M_PI_2)), r), r);
	r = sel(c, fcmp(c, C_LT, x, K(c, 0)), fsub_(c, K(c, fbits((float)M_PI)), r), r);
	return sel(c, fcmp(c, C_LT, y, K(c, 0)), fneg_(c, r), r);
}

static uint32_t fsign_(struct ctx *c, uint32_t a)
{
	uint32_t one = FK(c, a, 1.0), mone = FK(c, a, -1.0), zero = FK(c, a, 0.0);
	return sel(c, fcmp(c, C_GT, a, zero), one, sel(c, fcmp(c, C_LT, a, FK(c, a, 0.0)), mone, zero));
}

static uint32_t fexp2_(struct ctx *c, uint32_t a) { return V1(c, GM_OP_V_EXP_F32, a); }
static uint32_t flog2_(struct ctx *c, uint32_t a) { return V1(c, GM_OP_V_LOG_F32, a); }
static uint32_t fexp_(struct ctx *c, uint32_t a) { return fexp2_(c, fmul_(c, a, K(c, fbits(1.44269504f)))); }

static uint32_t dot(struct ctx *c, const uint32_t *a, const uint32_t *b, uint32_t n)
{
	uint32_t r = fmul_(c, a[0], b[0]);
	for (uint32_t i = 1; i < n; i++)
		r = fmad_(c, a[i], b[i], r);
	return r;
}

static uint32_t round_even_f64(struct ctx *c, uint32_t x)
{
	/* r = floor(x + 0.5); a tie that landed on an odd value goes down */
	uint32_t r = ffloor_(c, fadd_(c, x, FK(c, x, 0.5)));
	uint32_t tie = fcmp(c, C_EQ, fsub_(c, r, x), FK(c, x, 0.5));
	uint32_t half = fmul_(c, r, FK(c, x, 0.5));
	uint32_t odd = fcmp(c, C_NE, ffloor_(c, half), half);
	return sel(c, V2(c, GM_OP_V_AND_B32, tie, odd), fsub_(c, r, FK(c, x, 1.0)), r);
}

static bool ext_inst(struct ctx *c, const uint32_t *w, uint32_t n)
{
	uint32_t rt = w[1], slots = type_slots(c, rt), inst = w[4], *out;
	struct opnd a[3] = { { 0 } };
	unsigned na = n - 5u;
	bool ok = true;

	if (w[3] != c->m->glsl_ext)
		return FAIL(c, XT_ERR_UNSUPPORTED, "extended instruction set %%%u is not supported by the driver", w[3]);
	if (na > 3)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: GLSL.std.450 instruction with %u operands", na);
	for (unsigned i = 0; i < na; i++)
		if (!get(c, w[5 + i], &a[i])) {
			for (unsigned j = 0; j < i; j++)
				put(&a[j]);
			return false;
		}
	out = calloc(slots ? slots : 1, sizeof *out);
	if (!out) {
		for (unsigned i = 0; i < na; i++)
			put(&a[i]);
		return FAIL(c, XT_ERR_NOMEM, "out of memory");
	}
#define A(i, j) (a[i].v[a[i].n == 1 ? 0 : (j)])
	switch (inst) {
	case GLSLstd450Length:
		out[0] = fsqrt_(c, dot(c, a[0].v, a[0].v, a[0].n));
		break;
	case GLSLstd450Distance: {
		uint32_t d[4];
		for (uint32_t j = 0; j < a[0].n && j < 4; j++)
			d[j] = fsub_(c, a[0].v[j], a[1].v[j]);
		out[0] = fsqrt_(c, dot(c, d, d, a[0].n));
		break;
	}
	case GLSLstd450Normalize: {
		uint32_t inv = frsq_(c, dot(c, a[0].v, a[0].v, a[0].n));
		for (uint32_t j = 0; j < slots; j++)
			out[j] = fmul_(c, a[0].v[j], inv);
		break;
	}
	case GLSLstd450Cross:
		for (uint32_t j = 0; j < 3; j++) {
			uint32_t p = (j + 1) % 3, q = (j + 2) % 3;
			out[j] = fsub_(c, fmul_(c, a[0].v[p], a[1].v[q]), fmul_(c, a[0].v[q], a[1].v[p]));
		}
		break;
	case GLSLstd450Reflect: {    /* I - 2 dot(N, I) N */
		uint32_t d2 = fmul_(c, FK(c, a[0].v[0], 2.0), dot(c, a[1].v, a[0].v, a[0].n));
		for (uint32_t j = 0; j < slots; j++)
			out[j] = fsub_(c, a[0].v[j], fmul_(c, d2, a[1].v[j]));
		break;
	}
	case GLSLstd450FaceForward: {  /* dot(Nref, I) < 0 ? N : -N */
		uint32_t neg = fcmp(c, C_LT, dot(c, a[2].v, a[1].v, a[1].n), FK(c, a[1].v[0], 0.0));
		for (uint32_t j = 0; j < slots; j++)
			out[j] = sel(c, neg, a[0].v[j], fneg_(c, a[0].v[j]));
		break;
	}
	case GLSLstd450Determinant: {
		uint32_t dim = 0;
		while (dim * dim < a[0].n)
			dim++;
#define M(col, row) a[0].v[(col) * dim + (row)]
		if (dim == 2) {
			out[0] = fsub_(c, fmul_(c, M(0, 0), M(1, 1)), fmul_(c, M(1, 0), M(0, 1)));
		} else if (dim == 3) {
			uint32_t c0 = fsub_(c, fmul_(c, M(1, 1), M(2, 2)), fmul_(c, M(2, 1), M(1, 2)));
			uint32_t c1 = fsub_(c, fmul_(c, M(1, 0), M(2, 2)), fmul_(c, M(2, 0), M(1, 2)));
			uint32_t c2 = fsub_(c, fmul_(c, M(1, 0), M(2, 1)), fmul_(c, M(2, 0), M(1, 1)));
			out[0] = fadd_(c, fsub_(c, fmul_(c, M(0, 0), c0), fmul_(c, M(0, 1), c1)), fmul_(c, M(0, 2), c2));
		} else {
			ok = FAIL(c, XT_ERR_UNSUPPORTED, "determinant() of a %ux%u matrix is not supported by the driver", dim, dim);
		}
#undef M
		break;
	}
	default:
		for (uint32_t j = 0; j < slots && ok; j++) {
			uint32_t x = na > 0 ? A(0, j) : 0, y = na > 1 ? A(1, j) : 0, z = na > 2 ? A(2, j) : 0, r = 0;
			bool f64 = x && is64(c, x);
			switch (inst) {
			case GLSLstd450Round: case GLSLstd450RoundEven:
				r = f64 ? round_even_f64(c, x) : V1(c, GM_OP_V_RNDNE_F32, x); break;
			case GLSLstd450Trunc: r = ftrunc_(c, x); break;
			case GLSLstd450FAbs: r = fabs_(c, x); break;
			case GLSLstd450SAbs: r = V2(c, GM_OP_V_MAX_I32, x, V2(c, GM_OP_V_SUB_U32, K(c, 0), x)); break;
			case GLSLstd450FSign: r = fsign_(c, x); break;
			case GLSLstd450SSign: r = V2(c, GM_OP_V_MIN_I32, V2(c, GM_OP_V_MAX_I32, x, K(c, (uint32_t)-1)), K(c, 1)); break;
			case GLSLstd450Floor: r = ffloor_(c, x); break;
			case GLSLstd450Ceil: r = fceil_(c, x); break;
			case GLSLstd450Fract: r = ffract_(c, x); break;
			case GLSLstd450Radians: r = fmul_(c, x, FK(c, x, M_PI / 180.0)); break;
			case GLSLstd450Degrees: r = fmul_(c, x, FK(c, x, 180.0 / M_PI)); break;
			case GLSLstd450Sin: r = V1(c, GM_OP_V_SIN_F32, x); break;
			case GLSLstd450Cos: r = V1(c, GM_OP_V_COS_F32, x); break;
			case GLSLstd450Tan: r = fdiv_(c, V1(c, GM_OP_V_SIN_F32, x), V1(c, GM_OP_V_COS_F32, x)); break;
			case GLSLstd450Atan: r = f32_atan2(c, x, K(c, fbits(1.0f))); break;
			case GLSLstd450Atan2: r = f32_atan2(c, x, y); break;
			case GLSLstd450Asin:
				r = f32_atan2(c, x, fsqrt_(c, fsub_(c, K(c, fbits(1.0f)), fmul_(c, x, x)))); break;
			case GLSLstd450Acos:
				r = fsub_(c, K(c, fbits((float)M_PI_2)),
					 f32_atan2(c, x, fsqrt_(c, fsub_(c, K(c, fbits(1.0f)), fmul_(c, x, x))))); break;
			case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh: {
				uint32_t ep = fexp_(c, x), en = fexp_(c, fneg_(c, x));
				uint32_t s = fmul_(c, fsub_(c, ep, en), K(c, fbits(0.5f)));
				uint32_t co = fmul_(c, fadd_(c, ep, en), K(c, fbits(0.5f)));
				r = inst == GLSLstd450Sinh ? s : inst == GLSLstd450Cosh ? co : fdiv_(c, s, co);
				break;
			}
			case GLSLstd450Asinh:
				r = V1(c, GM_OP_V_LOG_F32, fadd_(c, x, fsqrt_(c, fmad_(c, x, x, K(c, fbits(1.0f))))));
				r = fmul_(c, r, K(c, fbits(0.69314718f)));
				break;
			case GLSLstd450Acosh:
				r = V1(c, GM_OP_V_LOG_F32, fadd_(c, x, fsqrt_(c, fmad_(c, x, x, K(c, fbits(-1.0f))))));
				r = fmul_(c, r, K(c, fbits(0.69314718f)));
				break;
			case GLSLstd450Atanh:
				r = fmul_(c, flog2_(c, fdiv_(c, fadd_(c, K(c, fbits(1.0f)), x), fsub_(c, K(c, fbits(1.0f)), x))),
					 K(c, fbits(0.34657359f)));
				break;
			case GLSLstd450Pow: r = fexp2_(c, fmul_(c, y, flog2_(c, x))); break;
			case GLSLstd450Exp: r = fexp_(c, x); break;
			case GLSLstd450Log: r = fmul_(c, flog2_(c, x), K(c, fbits(0.69314718f))); break;
			case GLSLstd450Exp2: r = fexp2_(c, x); break;
			case GLSLstd450Log2: r = flog2_(c, x); break;
			case GLSLstd450Sqrt: r = fsqrt_(c, x); break;
			case GLSLstd450InverseSqrt: r = frsq_(c, x); break;
			case GLSLstd450FMin: case GLSLstd450NMin: r = fmin_(c, x, y); break;
			case GLSLstd450FMax: case GLSLstd450NMax: r = fmax_(c, x, y); break;
			case GLSLstd450UMin: r = V2(c, GM_OP_V_MIN_U32, x, y); break;
			case GLSLstd450UMax: r = V2(c, GM_OP_V_MAX_U32, x, y); break;
			case GLSLstd450SMin: r = V2(c, GM_OP_V_MIN_I32, x, y); break;
			case GLSLstd450SMax: r = V2(c, GM_OP_V_MAX_I32, x, y); break;
			case GLSLstd450FClamp: case GLSLstd450NClamp: r = fmin_(c, fmax_(c, x, y), z); break;
			case GLSLstd450UClamp: r = V2(c, GM_OP_V_MIN_U32, V2(c, GM_OP_V_MAX_U32, x, y), z); break;
			case GLSLstd450SClamp: r = V2(c, GM_OP_V_MIN_I32, V2(c, GM_OP_V_MAX_I32, x, y), z); break;
			case GLSLstd450FMix: r = fmad_(c, fsub_(c, y, x), z, x); break;
			case GLSLstd450Step: r = sel(c, fcmp(c, C_LT, y, x), FK(c, y, 0.0), FK(c, y, 1.0)); break;
			case GLSLstd450SmoothStep: {
				uint32_t t = fdiv_(c, fsub_(c, z, x), fsub_(c, y, x));
				t = fmin_(c, fmax_(c, t, FK(c, t, 0.0)), FK(c, t, 1.0));
				r = fmul_(c, fmul_(c, t, t), fsub_(c, FK(c, t, 3.0), fmul_(c, FK(c, t, 2.0), t)));
				break;
			}
			case GLSLstd450Fma:
				r = f64 ? drv_ir_valu(c->ir, GM_OP_V_FMA_F64, 2, x, y, z) : V3(c, GM_OP_V_FMA_F32, x, y, z);
				break;
			case GLSLstd450Ldexp: r = V2(c, GM_OP_V_LDEXP_F32, x, y); break;
			case GLSLstd450FindILsb: r = V1(c, GM_OP_V_FINDLSB_B32, x); break;
			case GLSLstd450FindSMsb: r = V1(c, GM_OP_V_FINDMSB_I32, x); break;
			case GLSLstd450FindUMsb: r = V1(c, GM_OP_V_FINDMSB_U32, x); break;
			case GLSLstd450PackDouble2x32: r = pack(c, a[0].v[0], a[0].v[1]); break;
			case GLSLstd450UnpackDouble2x32: r = j ? hi(c, a[0].v[0]) : lo(c, a[0].v[0]); break;
			case GLSLstd450PackHalf2x16:
				r = V2(c, GM_OP_V_OR_B32, V1(c, GM_OP_V_CVT_F16_F32, a[0].v[0]),
				       V2(c, GM_OP_V_LSHL_B32, V1(c, GM_OP_V_CVT_F16_F32, a[0].v[1]), K(c, 16)));
				break;
			case GLSLstd450UnpackHalf2x16:
				r = V1(c, GM_OP_V_CVT_F32_F16, j ? V2(c, GM_OP_V_LSHR_B32, a[0].v[0], K(c, 16))
								: V2(c, GM_OP_V_AND_B32, a[0].v[0], K(c, 0xFFFF)));
				break;
			default:
				ok = FAIL(c, XT_ERR_UNSUPPORTED, "GLSL.std.450 instruction %u is not supported by the driver", inst);
				break;
			}
			if (f64 && inst != GLSLstd450PackDouble2x32 && inst != GLSLstd450UnpackDouble2x32 &&
			    (inst == GLSLstd450Sin || inst == GLSLstd450Cos || inst == GLSLstd450Pow ||
			     inst == GLSLstd450Exp || inst == GLSLstd450Log || inst == GLSLstd450Exp2 ||
			     inst == GLSLstd450Log2 || inst == GLSLstd450Ldexp))
				ok = FAIL(c, XT_ERR_UNSUPPORTED, "GLSL.std.450 instruction %u on doubles is not supported by the driver", inst);
			out[j] = r;
		}
	}
#undef A
	if (ok)
		ok = def(c, w[2], rt, out, slots);
	free(out);
	for (unsigned i = 0; i < na; i++)
		put(&a[i]);
	return ok;
}

/* --- one instruction ------------------------------------------------------------ */

static const char *op_name(uint16_t op)
{
	switch (op) {
	case SpvOpImageSampleImplicitLod: case SpvOpImageSampleExplicitLod: case SpvOpImageSampleDrefImplicitLod:
	case SpvOpImageSampleDrefExplicitLod: case SpvOpImageSampleProjImplicitLod: case SpvOpImageSampleProjExplicitLod:
	case SpvOpImageFetch: case SpvOpImageGather: case SpvOpImageRead: case SpvOpImageWrite: case SpvOpImageQuerySize:
	case SpvOpImageQuerySizeLod: case SpvOpImageQueryLevels: case SpvOpSampledImage: case SpvOpImage:
		return "texture / image access";
	case SpvOpAtomicIAdd: case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicIIncrement:
	case SpvOpAtomicExchange: case SpvOpAtomicCompareExchange:
		return "atomic operation";
	case SpvOpDPdx: case SpvOpDPdy: case SpvOpFwidth: return "derivative";
	case SpvOpControlBarrier: case SpvOpMemoryBarrier: return "barrier";
	case SpvOpFunctionCall: return "function call the SPIR-V optimizer did not inline (recursion?)";
	case SpvOpSwitch: return "switch statement";
	case SpvOpKill: return "discard";
	case SpvOpIAddCarry: case SpvOpISubBorrow: return "uaddCarry / usubBorrow";
	case SpvOpUMulExtended: case SpvOpSMulExtended: return "umulExtended / imulExtended";
	default: return NULL;
	}
}

static bool matrix_ops(struct ctx *c, uint16_t op, const uint32_t *w)
{
	struct opnd a, b;
	const struct drv_sid *rt = drv_stype(c->m, w[1]);
	uint32_t slots = type_slots(c, w[1]), out[256];
	bool ok;

	if (!rt || slots > 256)
		return FAIL(c, XT_ERR_UNSUPPORTED, "matrix operation result too large");
	if (!get(c, w[3], &a))
		return false;
	if (op != SpvOpTranspose && !get(c, w[4], &b)) {
		put(&a);
		return false;
	}
	switch (op) {
	case SpvOpMatrixTimesVector: {     /* M (cols x rows) * v (cols) */
		uint32_t rows = slots, cols = a.n / rows;
		for (uint32_t r = 0; r < rows; r++) {
			uint32_t acc = fmul_(c, a.v[r], b.v[0]);
			for (uint32_t col = 1; col < cols; col++)
				acc = fmad_(c, a.v[col * rows + r], b.v[col], acc);
			out[r] = acc;
		}
		break;
	}
	case SpvOpVectorTimesMatrix: {     /* v (rows) * M: result[col] = dot(v, M[col]) */
		uint32_t rows = a.n;
		for (uint32_t col = 0; col < slots; col++)
			out[col] = dot(c, a.v, b.v + col * rows, rows);
		break;
	}
	case SpvOpMatrixTimesMatrix: {     /* A (k cols x rows) * B (cols x k) */
		const struct drv_sid *ct = drv_stype(c->m, rt->elem);
		uint32_t rows = ct ? ct->count : 1, cols = rt->count, k = a.n / rows;
		for (uint32_t j = 0; j < cols; j++)
			for (uint32_t r = 0; r < rows; r++) {
				uint32_t acc = fmul_(c, a.v[r], b.v[j * k]);
				for (uint32_t q = 1; q < k; q++)
					acc = fmad_(c, a.v[q * rows + r], b.v[j * k + q], acc);
				out[j * rows + r] = acc;
			}
		break;
	}
	case SpvOpOuterProduct: {          /* a (rows) x b (cols) */
		uint32_t rows = a.n;
		for (uint32_t col = 0; col < b.n; col++)
			for (uint32_t r = 0; r < rows; r++)
				out[col * rows + r] = fmul_(c, a.v[r], b.v[col]);
		break;
	}
	case SpvOpTranspose: {
		const struct drv_sid *ct = drv_stype(c->m, rt->elem);
		uint32_t rows = ct ? ct->count : 1, cols = rt->count;   /* of the result */
		for (uint32_t col = 0; col < cols; col++)
			for (uint32_t r = 0; r < rows; r++)
				out[col * rows + r] = a.v[r * cols + col];
		break;
	}
	case SpvOpDot:
		out[0] = dot(c, a.v, b.v, a.n);
		break;
	}
	ok = def(c, w[2], w[1], out, slots);
	put(&a);
	if (op != SpvOpTranspose)
		put(&b);
	return ok;
}

/* Slot range [first, first + count) of an extract / insert path in type t. */
static bool composite_path(struct ctx *c, uint32_t t, const uint32_t *idx, uint32_t n, uint32_t *first, uint32_t *type)
{
	*first = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct drv_sid *ty = drv_stype(c->m, t);
		if (!ty)
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: bad composite index");
		if (ty->op == SpvOpTypeStruct) {
			if (idx[i] >= ty->n_members)
				return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: member index out of range");
			for (uint32_t j = 0; j < idx[i]; j++)
				*first += type_slots(c, ty->members[j].type);
			t = ty->members[idx[i]].type;
		} else {
			if (idx[i] >= ty->count)
				return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: composite index out of range");
			*first += idx[i] * type_slots(c, ty->elem);
			t = ty->elem;
		}
	}
	*type = t;
	return true;
}

static bool instruction(struct ctx *c, uint16_t op, const uint32_t *w, uint32_t n)
{
	uint32_t out[1024];
	struct opnd a, b, d;

	switch (op) {
	case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge: case SpvOpLoopMerge:
	case SpvOpPhi:
		return true;
	case SpvOpUndef: {
		uint32_t s = type_slots(c, w[1]);
		if (s > 1024)
			return FAIL(c, XT_ERR_UNSUPPORTED, "undefined value too large");
		for (uint32_t j = 0; j < s; j++)
			out[j] = drv_ir_const(c->ir, drv_stype_slot_dwords(c->m, w[1], j), 0);
		return def(c, w[2], w[1], out, s);
	}
	case SpvOpVariable: {
		struct drv_svar *v = var_of(c, w[2]);
		if (v && n >= 5) {
			v->used = true;
			return do_store(c, w[2], w[4]);
		}
		return true;
	}
	case SpvOpLoad: return do_load(c, w, n);
	case SpvOpStore: return n >= 3 && do_store(c, w[1], w[2]);
	case SpvOpAccessChain: case SpvOpInBoundsAccessChain: return access_chain(c, w, n);
	case SpvOpExtInst: return n >= 5 && ext_inst(c, w, n);
	case SpvOpCompositeConstruct: {
		uint32_t k = 0, s = type_slots(c, w[1]);
		if (s > 1024)
			return FAIL(c, XT_ERR_UNSUPPORTED, "composite too large");
		for (uint32_t i = 3; i < n; i++) {
			if (!get(c, w[i], &a))
				return false;
			for (uint32_t j = 0; j < a.n && k < s; j++)
				out[k++] = a.v[j];
			put(&a);
		}
		return def(c, w[2], w[1], out, k);
	}
	case SpvOpCompositeExtract: {
		uint32_t first, t, s;
		if (n < 4 || !get(c, w[3], &a))
			return false;
		if (!composite_path(c, sid(c, w[3])->kind == DRV_SID_CONST || sid(c, w[3])->kind == DRV_SID_VALUE ?
					    sid(c, w[3])->type : 0, w + 4, n - 4u, &first, &t)) {
			put(&a);
			return false;
		}
		s = type_slots(c, t);
		if (first + s > a.n) {
			put(&a);
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: extract out of range");
		}
		{
			bool ok = def(c, w[2], w[1], a.v + first, s);
			put(&a);
			return ok;
		}
	}
	case SpvOpCompositeInsert: {
		uint32_t first, t, s;
		bool ok;
		if (n < 5 || !get(c, w[3], &b))
			return false;
		if (!get(c, w[4], &a)) {
			put(&b);
			return false;
		}
		if (a.n > 1024 || !composite_path(c, w[1], w + 5, n - 5u, &first, &t) || first + type_slots(c, t) > a.n) {
			put(&a);
			put(&b);
			return c->rc == XT_OK ? FAIL(c, XT_ERR_CORRUPT, "SPIR-V: bad insert") : false;
		}
		s = type_slots(c, t);
		memcpy(out, a.v, a.n * sizeof *out);
		for (uint32_t j = 0; j < s && j < b.n; j++)
			out[first + j] = b.v[j];
		ok = def(c, w[2], w[1], out, a.n);
		put(&a);
		put(&b);
		return ok;
	}
	case SpvOpVectorShuffle: {
		uint32_t k = 0;
		bool ok;
		if (n < 5 || !get(c, w[3], &a))
			return false;
		if (!get(c, w[4], &b)) {
			put(&a);
			return false;
		}
		for (uint32_t i = 5; i < n && k < 16; i++) {
			uint32_t s = w[i];
			out[k++] = s == 0xFFFFFFFFu ? drv_ir_const(c->ir, 1, 0) : s < a.n ? a.v[s] :
				   s - a.n < b.n ? b.v[s - a.n] : drv_ir_const(c->ir, 1, 0);
		}
		ok = def(c, w[2], w[1], out, k);
		put(&a);
		put(&b);
		return ok;
	}
	case SpvOpVectorExtractDynamic: {
		bool ok;
		if (n < 5 || !get(c, w[3], &a))
			return false;
		if (!get(c, w[4], &b)) {
			put(&a);
			return false;
		}
		out[0] = a.v[0];
		for (uint32_t i = 1; i < a.n; i++)
			out[0] = sel(c, icmp(c, GM_OP_V_CMP_EQ_I32, b.v[0], K(c, i)), a.v[i], out[0]);
		ok = def(c, w[2], w[1], out, 1);
		put(&a);
		put(&b);
		return ok;
	}
	case SpvOpVectorInsertDynamic: {
		bool ok;
		if (n < 6 || !get(c, w[3], &a))
			return false;
		if (!get(c, w[4], &b)) {
			put(&a);
			return false;
		}
		if (!get(c, w[5], &d)) {
			put(&a);
			put(&b);
			return false;
		}
		for (uint32_t i = 0; i < a.n && i < 16; i++)
			out[i] = sel(c, icmp(c, GM_OP_V_CMP_EQ_I32, d.v[0], K(c, i)), b.v[0], a.v[i]);
		ok = def(c, w[2], w[1], out, a.n);
		put(&a);
		put(&b);
		put(&d);
		return ok;
	}
	case SpvOpSelect: {
		bool ok;
		if (n < 6 || !get(c, w[3], &d))
			return false;
		if (!get(c, w[4], &a)) {
			put(&d);
			return false;
		}
		if (!get(c, w[5], &b)) {
			put(&a);
			put(&d);
			return false;
		}
		for (uint32_t j = 0; j < a.n && j < 1024; j++)
			out[j] = sel(c, d.v[d.n == 1 ? 0 : j], a.v[j], b.v[j]);
		ok = def(c, w[2], w[1], out, a.n);
		put(&a);
		put(&b);
		put(&d);
		return ok;
	}
	case SpvOpAny: case SpvOpAll: {
		bool ok;
		if (n < 4 || !get(c, w[3], &a))
			return false;
		out[0] = a.v[0];
		for (uint32_t i = 1; i < a.n; i++)
			out[0] = V2(c, op == SpvOpAny ? GM_OP_V_OR_B32 : GM_OP_V_AND_B32, out[0], a.v[i]);
		ok = def(c, w[2], w[1], out, 1);
		put(&a);
		return ok;
	}
	case SpvOpBitcast: {
		uint32_t s = type_slots(c, w[1]);
		bool ok;
		if (n < 4 || !get(c, w[3], &a))
			return false;
		if (s == a.n) {
			ok = def(c, w[2], w[1], a.v, s);
		} else if (s == 1 && a.n == 2) {
			out[0] = pack(c, a.v[0], a.v[1]);
			ok = def(c, w[2], w[1], out, 1);
		} else if (s == 2 && a.n == 1) {
			out[0] = lo(c, a.v[0]);
			out[1] = hi(c, a.v[0]);
			ok = def(c, w[2], w[1], out, 2);
		} else {
			ok = FAIL(c, XT_ERR_UNSUPPORTED, "bitcast between these types is not supported by the driver");
		}
		put(&a);
		return ok;
	}
	case SpvOpBitFieldInsert: {
		struct opnd o[4];
		bool ok = true;
		for (unsigned i = 0; i < 4; i++)
			if (!get(c, w[3 + i], &o[i]))
				return false;
		for (uint32_t j = 0; j < o[0].n; j++) {
			uint32_t off = o[2].v[0], cnt = o[3].v[0];
			uint32_t ones = V2(c, GM_OP_V_SUB_U32, V2(c, GM_OP_V_LSHL_B32, K(c, 1), cnt), K(c, 1));
			uint32_t mask = sel(c, icmp(c, GM_OP_V_CMP_GE_U32, cnt, K(c, 32)), K(c, 0xFFFFFFFFu), ones);
			mask = V2(c, GM_OP_V_LSHL_B32, mask, off);
			out[j] = V3(c, GM_OP_V_BFI_B32, mask, V2(c, GM_OP_V_LSHL_B32, o[1].v[j], off), o[0].v[j]);
		}
		ok = def(c, w[2], w[1], out, o[0].n);
		for (unsigned i = 0; i < 4; i++)
			put(&o[i]);
		return ok;
	}
	case SpvOpBitFieldSExtract: case SpvOpBitFieldUExtract: {
		struct opnd o[3];
		bool ok;
		for (unsigned i = 0; i < 3; i++)
			if (!get(c, w[3 + i], &o[i]))
				return false;
		for (uint32_t j = 0; j < o[0].n; j++) {
			uint32_t x = V3(c, op == SpvOpBitFieldSExtract ? GM_OP_V_BFE_I32 : GM_OP_V_BFE_U32, o[0].v[j],
					o[1].v[0], o[2].v[0]);
			out[j] = sel(c, icmp(c, GM_OP_V_CMP_GE_U32, o[2].v[0], K(c, 32)), o[0].v[j], x);
		}
		ok = def(c, w[2], w[1], out, o[0].n);
		for (unsigned i = 0; i < 3; i++)
			put(&o[i]);
		return ok;
	}
	case SpvOpMatrixTimesVector: case SpvOpVectorTimesMatrix: case SpvOpMatrixTimesMatrix:
	case SpvOpOuterProduct: case SpvOpTranspose: case SpvOpDot:
		return n >= 4 && matrix_ops(c, op, w);
	case SpvOpEmitVertex: case SpvOpEndPrimitive:
		drv_ir_op0(c->ir, op == SpvOpEmitVertex ? DRV_OP_EMIT_VERTEX : DRV_OP_END_PRIMITIVE, 0, 0, 0);
		return true;
	case SpvOpEmitStreamVertex: case SpvOpEndStreamPrimitive: {
		const struct drv_sid *s = n >= 2 ? sid(c, w[1]) : NULL;
		if (!s || s->kind != DRV_SID_CONST || s->cval[0] >= DRV_MAX_VERTEX_STREAMS)
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: stream must be a constant below 4");
		drv_ir_op0(c->ir, op == SpvOpEmitStreamVertex ? DRV_OP_EMIT_VERTEX : DRV_OP_END_PRIMITIVE, 0,
			   (uint32_t)s->cval[0], 0);
		return true;
	}
	default:
		break;
	}

	/* component-wise unary / binary */
	if (n >= 4 && (op == SpvOpFNegate || op == SpvOpSNegate || op == SpvOpNot || op == SpvOpLogicalNot ||
		       op == SpvOpBitReverse || op == SpvOpBitCount || op == SpvOpConvertFToS ||
		       op == SpvOpConvertFToU || op == SpvOpConvertSToF || op == SpvOpConvertUToF ||
		       op == SpvOpFConvert || op == SpvOpUConvert || op == SpvOpSConvert || op == SpvOpCopyObject ||
		       op == SpvOpIsNan || op == SpvOpIsInf)) {
		struct drv_sid *src = sid(c, w[3]);
		uint32_t st = src ? src->type : 0;
		bool ok;
		if (!get(c, w[3], &a))
			return false;
		for (uint32_t j = 0; j < a.n && j < 1024; j++)
			out[j] = unop(c, op, a.v[j], st, w[1]);
		ok = def(c, w[2], w[1], out, a.n);
		put(&a);
		return ok;
	}
	{
		static const uint16_t bin_ops[] = {
			SpvOpFAdd, SpvOpFSub, SpvOpFMul, SpvOpFDiv, SpvOpFRem, SpvOpFMod, SpvOpIAdd, SpvOpISub,
			SpvOpIMul, SpvOpUDiv, SpvOpSDiv, SpvOpUMod, SpvOpSRem, SpvOpSMod, SpvOpShiftLeftLogical,
			SpvOpShiftRightLogical, SpvOpShiftRightArithmetic, SpvOpBitwiseAnd, SpvOpBitwiseOr,
			SpvOpBitwiseXor, SpvOpLogicalAnd, SpvOpLogicalOr, SpvOpLogicalEqual, SpvOpLogicalNotEqual,
			SpvOpIEqual, SpvOpINotEqual, SpvOpUGreaterThan, SpvOpSGreaterThan, SpvOpUGreaterThanEqual,
			SpvOpSGreaterThanEqual, SpvOpULessThan, SpvOpSLessThan, SpvOpULessThanEqual,
			SpvOpSLessThanEqual, SpvOpFOrdEqual, SpvOpFUnordEqual, SpvOpFOrdNotEqual,
			SpvOpFUnordNotEqual, SpvOpFOrdLessThan, SpvOpFUnordLessThan, SpvOpFOrdGreaterThan,
			SpvOpFUnordGreaterThan, SpvOpFOrdLessThanEqual, SpvOpFUnordLessThanEqual,
			SpvOpFOrdGreaterThanEqual, SpvOpFUnordGreaterThanEqual, SpvOpVectorTimesScalar,
			SpvOpMatrixTimesScalar,
		};
		for (size_t i = 0; i < sizeof bin_ops / sizeof bin_ops[0]; i++) {
			bool ok;
			if (bin_ops[i] != op)
				continue;
			if (n < 5 || !get(c, w[3], &a))
				return c->rc == XT_OK ? FAIL(c, XT_ERR_CORRUPT, "SPIR-V: short binary op") : false;
			if (!get(c, w[4], &b)) {
				put(&a);
				return false;
			}
			for (uint32_t j = 0; j < a.n && j < 1024; j++)
				out[j] = binop(c, op, a.v[j], b.v[b.n == 1 ? 0 : j]);
			ok = def(c, w[2], w[1], out, a.n < 1024 ? a.n : 1024);
			put(&a);
			put(&b);
			return ok;
		}
	}
	{
		const char *what = op_name(op);
		if (what)
			return FAIL(c, XT_ERR_UNSUPPORTED, "%s is not supported by the driver's vertex / geometry compiler", what);
		return FAIL(c, XT_ERR_UNSUPPORTED, "SPIR-V instruction with opcode %u is not supported by the driver", op);
	}
}

/* --- structured walk ----------------------------------------------------------- */

struct block {
	uint32_t label;
	uint32_t begin, end;          /* words: first after OpLabel, the terminator */
	uint32_t merge_op, merge, cont;
};

static bool find_block(struct ctx *c, uint32_t label, struct block *b)
{
	const uint32_t *W = c->m->words;
	struct drv_sid *s = sid(c, label);
	uint32_t p;
	if (!s || s->kind != DRV_SID_LABEL)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: branch to %%%u, not a label", label);
	memset(b, 0, sizeof *b);
	b->label = label;
	p = s->label_word + 2;
	b->begin = p;
	while (p < c->m->fn_end) {
		uint16_t op = (uint16_t)(W[p] & 0xFFFF), n = (uint16_t)(W[p] >> 16);
		if (!n)
			break;
		if (op == SpvOpSelectionMerge || op == SpvOpLoopMerge) {
			b->merge_op = op;
			b->merge = W[p + 1];
			b->cont = op == SpvOpLoopMerge ? W[p + 2] : 0;
		}
		if (op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch || op == SpvOpReturn ||
		    op == SpvOpReturnValue || op == SpvOpKill || op == SpvOpUnreachable) {
			b->end = p;
			return true;
		}
		p += n;
	}
	return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: block %%%u has no terminator", label);
}

/* Phi writes for the edge from -> to. */
static bool edge(struct ctx *c, uint32_t from, uint32_t to)
{
	const uint32_t *W = c->m->words;
	struct drv_sid *s = sid(c, to);
	uint32_t p;
	if (!s || s->kind != DRV_SID_LABEL)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: branch to %%%u, not a label", to);
	p = s->label_word + 2;
	while (p < c->m->fn_end && (W[p] & 0xFFFF) == SpvOpPhi) {
		uint16_t n = (uint16_t)(W[p] >> 16);
		uint32_t res = W[p + 2];
		if (!n)
			break;
		for (uint32_t i = 3; i + 1 < n; i += 2)
			if (W[p + i + 1] == from) {
				struct opnd o;
				if (!get(c, W[p + i], &o))
					return false;
				for (uint32_t j = 0; j < o.n; j++)
					drv_ir_reg_write(c->ir, c->phi_reg[res] + j, o.v[j]);
				put(&o);
			}
		p += n;
	}
	return true;
}

enum target_kind { T_BLOCK, T_BREAK, T_CONTINUE, T_BACKEDGE, T_MERGE };

static enum target_kind classify(struct ctx *c, uint32_t t)
{
	for (int i = (int)c->depth - 1; i >= 0; i--) {
		const struct construct *k = &c->cs[i];
		if (!k->loop) {
			if (t == k->merge)
				return i == (int)c->depth - 1 ? T_MERGE : T_BLOCK;
			continue;
		}
		if (t == k->merge)
			return T_BREAK;
		if (t == k->header && (k->in_continue || k->cont == k->header))
			return k->in_continue ? T_BACKEDGE : T_CONTINUE;
		if (t == k->cont && !k->in_continue)
			return T_CONTINUE;
		break;       /* targets of outer loops: not structured jumps here */
	}
	return T_BLOCK;
}

static bool walk(struct ctx *c, uint32_t label);
static bool switch_once(struct ctx *c, const struct block *b, uint32_t target);

/* Continues at target t: a structured jump, or the block itself. */
static bool follow(struct ctx *c, uint32_t t)
{
	switch (classify(c, t)) {
	case T_BREAK: drv_ir_op0(c->ir, DRV_OP_BREAK, 0, 0, 0); return true;
	case T_CONTINUE: drv_ir_op0(c->ir, DRV_OP_CONTINUE, 0, 0, 0); return true;
	case T_BACKEDGE: case T_MERGE: return true;
	default: return walk(c, t);
	}
}

/* Goes to target t from block `from`: phi copies, then follow. */
static bool go(struct ctx *c, uint32_t from, uint32_t t)
{
	return edge(c, from, t) && follow(c, t);
}

static bool is_jump(struct ctx *c, uint32_t t)
{
	enum target_kind k = classify(c, t);
	return k == T_BREAK || k == T_CONTINUE || k == T_MERGE || k == T_BACKEDGE;
}

static bool block_body(struct ctx *c, const struct block *b)
{
	const uint32_t *W = c->m->words;
	uint32_t p = b->begin;
	while (p < b->end) {
		uint16_t op = (uint16_t)(W[p] & 0xFFFF), n = (uint16_t)(W[p] >> 16);
		if (op == SpvOpPhi) {
			uint32_t res = W[p + 2], s = type_slots(c, W[p + 1]), vals[1024];
			if (s > 1024 || !c->phi_reg[res])
				return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: bad phi %%%u", res);
			for (uint32_t j = 0; j < s; j++)
				vals[j] = drv_ir_reg_read(c->ir, c->phi_reg[res] + j);
			if (!def(c, res, W[p + 1], vals, s))
				return false;
		} else if (!instruction(c, op, W + p, n)) {
			return false;
		}
		if (c->ir->oom)
			return FAIL(c, XT_ERR_NOMEM, "out of memory");
		p += n;
	}
	return true;
}

static bool terminator(struct ctx *c, const struct block *b)
{
	const uint32_t *W = c->m->words;
	uint16_t op = (uint16_t)(W[b->end] & 0xFFFF);
	const uint32_t *w = W + b->end;

	switch (op) {
	case SpvOpBranch:
		return go(c, b->label, w[1]);
	case SpvOpBranchConditional: {
		struct opnd cond;
		uint32_t t = w[2], f = w[3], cv;
		bool ok = true;
		if (!get(c, w[1], &cond))
			return false;
		cv = cond.v[0];
		put(&cond);
		if (b->merge_op == SpvOpSelectionMerge) {
			if (c->depth >= MAX_CONSTRUCTS)
				return FAIL(c, XT_ERR_UNSUPPORTED, "control flow nested too deeply");
			c->cs[c->depth++] = (struct construct){ .loop = false, .header = b->label, .merge = b->merge };
			drv_ir_op0(c->ir, DRV_OP_IF, cv, 0, 0);
			ok = go(c, b->label, t);
			/* always an ELSE: an arm that goes straight to the merge
			 * still writes the merge's phis, for its own lanes only */
			drv_ir_op0(c->ir, DRV_OP_ELSE, 0, 0, 0);
			ok = ok && go(c, b->label, f);
			drv_ir_op0(c->ir, DRV_OP_ENDIF, 0, 0, 0);
			c->depth--;
			return ok && follow(c, b->merge);
		}
		/* no merge: at least one side must be a structured jump */
		if (is_jump(c, t) && is_jump(c, f)) {
			drv_ir_op0(c->ir, DRV_OP_IF, cv, 0, 0);
			ok = go(c, b->label, t);
			drv_ir_op0(c->ir, DRV_OP_ELSE, 0, 0, 0);
			ok = ok && go(c, b->label, f);
			drv_ir_op0(c->ir, DRV_OP_ENDIF, 0, 0, 0);
			return ok;
		}
		if (is_jump(c, t)) {
			drv_ir_op0(c->ir, DRV_OP_IF, cv, 0, 0);
			ok = go(c, b->label, t);
			drv_ir_op0(c->ir, DRV_OP_ENDIF, 0, 0, 0);
			return ok && go(c, b->label, f);
		}
		if (is_jump(c, f)) {
			drv_ir_op0(c->ir, DRV_OP_IF, cv, 0, 0);
			drv_ir_op0(c->ir, DRV_OP_ELSE, 0, 0, 0);
			ok = go(c, b->label, f);
			drv_ir_op0(c->ir, DRV_OP_ENDIF, 0, 0, 0);
			return ok && go(c, b->label, t);
		}
		return FAIL(c, XT_ERR_UNSUPPORTED, "unstructured conditional branch in block %%%u", b->label);
	}
	case SpvOpReturn:
		if (c->depth) {
			drv_ir_op0(c->ir, DRV_OP_RETURN, 0, 0, 0);
			c->ir->has_return = true;
		}
		return true;
	case SpvOpUnreachable:
		return true;
	case SpvOpSwitch:
		if ((W[b->end] >> 16) == 3)
			return switch_once(c, b, w[2]);
		return FAIL(c, XT_ERR_UNSUPPORTED, "switch statement is not supported by the driver's vertex / geometry compiler");
	default:
		return FAIL(c, XT_ERR_UNSUPPORTED, "%s is not supported by the driver's vertex / geometry compiler",
			    op_name(op) ? op_name(op) : "this terminator");
	}
}

/* The default-only OpSwitch (top comment). */
static bool switch_once(struct ctx *c, const struct block *b, uint32_t target)
{
	bool ok;

	if (b->merge_op != SpvOpSelectionMerge)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: OpSwitch in block %%%u without OpSelectionMerge", b->label);
	if (c->depth >= MAX_CONSTRUCTS)
		return FAIL(c, XT_ERR_UNSUPPORTED, "control flow nested too deeply");
	/* cont 0 is no label: only the merge is a structured jump of it */
	c->cs[c->depth++] = (struct construct){ .loop = true, .header = b->label, .merge = b->merge };
	drv_ir_op0(c->ir, DRV_OP_LOOP, 0, 0, 0);
	ok = go(c, b->label, target);
	/* lanes that reach the end of the default without a branch leave too */
	drv_ir_op0(c->ir, DRV_OP_BREAK, 0, 0, 0);
	drv_ir_op0(c->ir, DRV_OP_CONTINUE_POINT, 0, 0, 0);
	drv_ir_op0(c->ir, DRV_OP_ENDLOOP, 0, 0, 0);
	c->depth--;
	return ok && walk(c, b->merge);
}

static bool walk(struct ctx *c, uint32_t label)
{
	struct block b;
	if (!find_block(c, label, &b))
		return false;
	if (c->visited[label])
		return FAIL(c, XT_ERR_UNSUPPORTED, "unstructured control flow: block %%%u reached twice", label);
	c->visited[label] = 1;
	if (b.merge_op != SpvOpLoopMerge) {
		if (!block_body(c, &b))
			return false;
		return terminator(c, &b);
	}
	/* a loop header */
	if (c->depth >= MAX_CONSTRUCTS)
		return FAIL(c, XT_ERR_UNSUPPORTED, "control flow nested too deeply");
	c->cs[c->depth++] = (struct construct){ .loop = true, .header = label, .merge = b.merge, .cont = b.cont };
	drv_ir_op0(c->ir, DRV_OP_LOOP, 0, 0, 0);
	if (!block_body(c, &b) || !terminator(c, &b))
		return false;
	drv_ir_op0(c->ir, DRV_OP_CONTINUE_POINT, 0, 0, 0);
	c->cs[c->depth - 1].in_continue = true;
	if (b.cont != label && !walk(c, b.cont))
		return false;
	drv_ir_op0(c->ir, DRV_OP_ENDLOOP, 0, 0, 0);
	c->depth--;
	return walk(c, b.merge);
}

/* --- inputs ------------------------------------------------------------------------ */

static bool input_builtin(struct ctx *c, int32_t builtin, uint32_t *sv)
{
	switch (builtin) {
	case SpvBuiltInVertexId: case SpvBuiltInVertexIndex: *sv = DRV_SV_VERTEX_ID; return true;
	case SpvBuiltInInstanceId: case SpvBuiltInInstanceIndex: *sv = DRV_SV_INSTANCE_ID; return true;
	case SpvBuiltInPrimitiveId: *sv = DRV_SV_PRIMITIVE_ID; return true;
	case SpvBuiltInInvocationId: *sv = DRV_SV_INVOCATION_ID; return true;
	case SpvBuiltInBaseVertex: *sv = DRV_SV_BASE_VERTEX; return true;
	case SpvBuiltInBaseInstance: *sv = DRV_SV_BASE_INSTANCE; return true;
	default: return false;
	}
}

/* ESGS dword of built-in member `bi`, component j (an unwritten slot past
 * the item reads whatever the ring holds there: GL leaves it undefined). */
static bool esgs_builtin_dw(const struct drv_io_layout *l, int32_t bi, uint32_t j, uint32_t *dw)
{
	switch (bi) {
	case SpvBuiltInPosition: *dw = l->pos_dw + j; return j < 4;
	case SpvBuiltInPointSize: *dw = l->psize_dw; return true;
	case SpvBuiltInClipDistance: *dw = l->clip_dw + j; return j < 8;
	default: return false;
	}
}

static bool load_inputs(struct ctx *c)
{
	for (uint32_t i = 0; i < c->m->n_vars; i++) {
		struct drv_svar *v = &c->m->vars[i];
		uint32_t sv;
		if (v->storage != SpvStorageClassInput)
			continue;
		if (input_builtin(c, v->builtin, &sv)) {
			drv_ir_reg_write(c->ir, v->reg_base, drv_ir_op1(c->ir, DRV_OP_LOAD_SYSVAL, 1, 0, sv, 0));
			continue;
		}
		if (v->builtin >= 0)
			return FAIL(c, XT_ERR_UNSUPPORTED, "built-in input %d ('%s') is not supported by the driver",
				    v->builtin, v->name);
		if (c->ir->stage == DRV_HW_GS) {
			const struct drv_sid *at = drv_stype(c->m, v->type), *et;
			uint32_t es;
			if (!at || at->op != SpvOpTypeArray || !c->esgs)
				return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: geometry input '%s' is not an array", v->name);
			et = drv_stype(c->m, at->elem);
			es = et ? et->slots : 0;
			for (uint32_t k = 0; k < at->count; k++)
				for (uint32_t j = 0; j < es; j++) {
					uint32_t dw, slot = j, t = at->elem;
					int32_t bi = -1, member = -1;
					char key[96];
					/* an input block (gl_in[] or a user block): find the member */
					if (et->op == SpvOpTypeStruct) {
						for (uint32_t q = 0; q < et->n_members; q++) {
							uint32_t ms = type_slots(c, et->members[q].type);
							if (slot < ms) {
								bi = et->members[q].builtin;
								t = et->members[q].type;
								member = (int32_t)q;
								break;
							}
							slot -= ms;
						}
					}
					if (bi >= 0) {
						if (!esgs_builtin_dw(c->esgs, bi, slot, &dw))
							return FAIL(c, XT_ERR_UNSUPPORTED, "geometry input built-in %d is not supported", bi);
					} else {
						drv_io_key(c->m, v, at->elem, member, key, sizeof key);
						if (!drv_io_lookup(c->esgs, key, &dw)) {
							/* not written by the vertex shader: reads 0 */
							dw = c->esgs->itemsize_dw;
						} else {
							dw += drv_stype_slot_dword_offset(c->m, t, slot);
						}
					}
					drv_ir_reg_write(c->ir, v->reg_base + k * es + j,
							 drv_ir_op1(c->ir, DRV_OP_ESGS_LOAD,
								    drv_stype_slot_dwords(c->m, at->elem, j), 0, k, dw * 4));
				}
			continue;
		}
		if (v->location < 0)
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: input '%s' has no location", v->name);
		for (uint32_t j = 0; j < v->slots; j++) {
			uint32_t dw = drv_stype_slot_loc_dword(c->m, v->type, j) +
				      (v->component > 0 ? (uint32_t)v->component : 0);
			uint32_t loc = (uint32_t)v->location + dw / 4;
			if (loc >= DRV_MAX_ATTRIBS)
				return FAIL(c, XT_ERR_UNSUPPORTED, "vertex attribute '%s' uses location %u; the driver has %u",
					    v->name, loc, DRV_MAX_ATTRIBS);
			drv_ir_reg_write(c->ir, v->reg_base + j,
					 drv_ir_op1(c->ir, DRV_OP_LOAD_INPUT, drv_stype_slot_dwords(c->m, v->type, j), 0,
						    loc, dw % 4));
		}
	}
	return true;
}

enum xt_rc drv_spirv_to_ir(struct drv_smodule *m, const struct drv_io_layout *esgs, struct drv_ir *ir,
			   struct xt_err *err)
{
	struct ctx c;
	const uint32_t *W = m->words;
	uint32_t p, first_label = 0;

	memset(&c, 0, sizeof c);
	c.m = m;
	c.ir = ir;
	c.err = err;
	c.esgs = esgs;
	c.phi_reg = calloc(m->bound, sizeof *c.phi_reg);
	c.visited = calloc(m->bound, 1);
	if (!c.phi_reg || !c.visited) {
		free(c.phi_reg);
		free(c.visited);
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	}

	/* labels and phis */
	for (p = m->fn_begin; p < m->fn_end;) {
		uint16_t op = (uint16_t)(W[p] & 0xFFFF), n = (uint16_t)(W[p] >> 16);
		if (!n)
			break;
		if (op == SpvOpLabel && n >= 2 && W[p + 1] < m->bound) {
			m->ids[W[p + 1]].kind = DRV_SID_LABEL;
			m->ids[W[p + 1]].label_word = p;
			if (!first_label)
				first_label = W[p + 1];
		} else if (op == SpvOpPhi && n >= 3 && W[p + 2] < m->bound) {
			uint32_t t = W[p + 1], s = type_slots(&c, t);
			c.phi_reg[W[p + 2]] = ir->n_regs;
			for (uint32_t j = 0; j < s; j++)
				drv_ir_new_reg(ir, drv_stype_slot_dwords(m, t, j));
		} else if (op == SpvOpFunctionParameter) {
			c.rc = XT_FAIL(err, XT_ERR_UNSUPPORTED, "the entry point takes parameters");
		}
		p += n;
	}
	/* register variables: one reg per slot; outputs and locals start at 0 */
	for (uint32_t i = 0; i < m->n_vars && c.rc == XT_OK; i++) {
		struct drv_svar *v = &m->vars[i];
		if (!is_reg_storage(v->storage))
			continue;
		v->reg_base = ir->n_regs;
		for (uint32_t j = 0; j < v->slots; j++)
			drv_ir_new_reg(ir, drv_stype_slot_dwords(m, v->type, j));
	}
	if (c.rc == XT_OK && !ir->oom && load_inputs(&c)) {
		for (uint32_t i = 0; i < m->n_vars; i++) {
			struct drv_svar *v = &m->vars[i];
			if (v->storage != SpvStorageClassOutput && v->storage != SpvStorageClassPrivate &&
			    v->storage != SpvStorageClassFunction)
				continue;
			for (uint32_t j = 0; j < v->slots; j++)
				drv_ir_reg_write(ir, v->reg_base + j,
						 drv_ir_const(ir, drv_stype_slot_dwords(m, v->type, j), 0));
		}
		if (!first_label)
			c.rc = XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: entry point without blocks");
		else
			walk(&c, first_label);
	}
	if (c.rc == XT_OK && ir->oom)
		c.rc = XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	free(c.phi_reg);
	free(c.visited);
	return c.rc;
}
