/*
 * drv_spirv_mem.c - SPIR-V variables and pointers to driver IR: registers
 * for Function / Private / Input / Output variables, dynamic indexing by
 * compare-and-select chains, access chains, uniform loads from the constant
 * buffer and uniform blocks, stores (drv_spirv_to_ir_int.h).
 */
#include "drv_spirv_to_ir_int.h"

/* --- variables and pointers -------------------------------------------------- */

bool drv_sx_is_reg_storage(uint32_t sc)
{
	return sc == SpvStorageClassFunction || sc == SpvStorageClassPrivate || sc == SpvStorageClassInput ||
	       sc == SpvStorageClassOutput;
}

struct drv_svar *drv_sx_var_of(struct ctx *c, uint32_t id)
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

bool drv_sx_access_chain(struct ctx *c, const uint32_t *w, uint32_t n)
{
	struct drv_sptr p;
	struct drv_svar *v;
	struct drv_sid *res;
	bool reg;

	if (n < 4 || !pointer(c, w[3], &p))
		return c->rc == XT_OK ? FAIL(c, XT_ERR_CORRUPT, "SPIR-V: bad access chain") : false;
	v = &c->m->vars[p.var];
	reg = drv_sx_is_reg_storage(v->storage);
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
					uint32_t d = V2(c, ISA_OP_V_MUL_LO_U32, idx, K(c, es));
					p.dyn_slot = p.dyn_slot ? V2(c, ISA_OP_V_ADD_U32, p.dyn_slot, d) : d;
					if (!cands_add(c, &p, es, t->count))
						return false;
				} else {
					uint32_t d = V2(c, ISA_OP_V_MUL_LO_U32, idx, K(c, bstride));
					p.dyn_byte = p.dyn_byte ? V2(c, ISA_OP_V_ADD_U32, p.dyn_byte, d) : d;
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
			x = icmp(c, ISA_OP_V_CMP_NE_I32, x, K(c, 0));
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

bool drv_sx_load(struct ctx *c, const uint32_t *w, uint32_t n)
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
	if (drv_sx_load_sampler(c, v, &p, w[1], out, &ok)) {
		/* a sampler uniform: its slot (drv_spirv_tex.c) */
	} else if (drv_sx_is_reg_storage(v->storage)) {
		for (uint32_t j = 0; j < slots; j++) {
			if (!p.dyn_slot) {
				out[j] = drv_ir_reg_read(c->ir, v->reg_base + p.slot + j);
				continue;
			}
			out[j] = drv_ir_reg_read(c->ir, v->reg_base + p.slot + p.cands[0] + j);
			for (uint32_t q = 1; q < p.n_cands; q++) {
				uint32_t r = drv_ir_reg_read(c->ir, v->reg_base + p.slot + p.cands[q] + j);
				out[j] = sel(c, icmp(c, ISA_OP_V_CMP_EQ_I32, p.dyn_slot, K(c, p.cands[q])), r, out[j]);
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

/* An output's slot a store reaches (drv_svar.written); a dynamically
 * indexed store reaches every candidate. */
static void mark_written(struct drv_svar *v, uint32_t slot)
{
	if (v->storage == SpvStorageClassOutput)
		v->written |= 1ull << (slot < 63 ? slot : 63);
}

bool drv_sx_store(struct ctx *c, uint32_t ptr, uint32_t val)
{
	struct drv_sptr p;
	struct drv_svar *v;
	struct opnd o;

	if (!pointer(c, ptr, &p))
		return false;
	v = &c->m->vars[p.var];
	if (!drv_sx_is_reg_storage(v->storage)) {
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
			mark_written(v, p.slot + j);
			continue;
		}
		for (uint32_t q = 0; q < p.n_cands; q++) {
			uint32_t r = v->reg_base + p.slot + p.cands[q] + j;
			mark_written(v, p.slot + p.cands[q] + j);
			uint32_t old = drv_ir_reg_read(c->ir, r);
			drv_ir_reg_write(c->ir, r, sel(c, icmp(c, ISA_OP_V_CMP_EQ_I32, p.dyn_slot, K(c, p.cands[q])),
						       o.v[j], old));
		}
	}
	put(&o);
	free(p.cands);
	return true;
}
