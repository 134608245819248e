/*
 * drv_spirv_module.c - reads the module-level part of a SPIR-V binary
 * (SPIR-V 1.0 spec, sections 2.3-2.4 "Physical / Logical Layout") into
 * drv_smodule: names, decorations, types with their flattened slot counts,
 * constants flattened to slots, global and function variables, the entry
 * point and its execution modes.  The function body is left for
 * drv_spirv_to_ir.c.
 *
 * Names and decorations precede the types they describe, so member data is
 * stored per id on demand and completed when OpTypeStruct arrives.  Default
 * uniforms (UniformConstant, non-opaque) get std140 offsets in the constant
 * buffer in declaration order; uniform blocks keep glslang's Offset /
 * ArrayStride / MatrixStride decorations.  Every word read is bounds
 * checked: a malformed module is an error, never a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>

#include "drv_spirv.h"
#include "glapi_types.h"

#define GL_POINTS 0x0000u
#define GL_LINES 0x0001u
#define GL_LINE_STRIP 0x0003u
#define GL_TRIANGLES 0x0004u
#define GL_TRIANGLE_STRIP 0x0005u
#define GL_LINES_ADJACENCY 0x000Au
#define GL_TRIANGLES_ADJACENCY 0x000Cu

static char *str_dup(const uint32_t *w, uint32_t n_words)
{
	size_t max = (size_t)n_words * 4, len = strnlen((const char *)w, max);
	char *s = malloc(len + 1);
	if (s) {
		memcpy(s, w, len);
		s[len] = 0;
	}
	return s;
}

static struct drv_smember *member(struct drv_sid *id, uint32_t i)
{
	if (i >= 4096)
		return NULL;
	if (i >= id->n_members) {
		struct drv_smember *m = realloc(id->members, (i + 1) * sizeof *m);
		if (!m)
			return NULL;
		for (uint32_t k = id->n_members; k <= i; k++) {
			memset(&m[k], 0, sizeof m[k]);
			m[k].offset = -1;
			m[k].builtin = -1;
			m[k].location = -1;
			m[k].xfb_buffer = -1;
			m[k].xfb_offset = -1;
			m[k].stream = -1;
		}
		id->members = m;
		id->n_members = i + 1;
	}
	return &id->members[i];
}

static void decorate(struct drv_sid *id, struct drv_smember *mem, uint32_t dec, const uint32_t *op, uint32_t n)
{
	uint32_t v = n ? op[0] : 0;
	switch (dec) {
	case SpvDecorationLocation: if (mem) mem->location = (int32_t)v; else id->location = (int32_t)v; break;
	case SpvDecorationComponent: if (!mem) id->component = (int32_t)v; break;
	case SpvDecorationBuiltIn: if (mem) mem->builtin = (int32_t)v; else id->builtin = (int32_t)v; break;
	case SpvDecorationBinding: id->binding = (int32_t)v; break;
	case SpvDecorationDescriptorSet: id->set = (int32_t)v; break;
	case SpvDecorationXfbBuffer: if (mem) mem->xfb_buffer = (int32_t)v; else id->xfb_buffer = (int32_t)v; break;
	case SpvDecorationXfbStride: id->xfb_stride = (int32_t)v; break;
	case SpvDecorationOffset: if (mem) mem->offset = (int32_t)v; else id->xfb_offset = (int32_t)v; break;
	case SpvDecorationStream: if (mem) mem->stream = (int32_t)v; else id->stream = (int32_t)v; break;
	case SpvDecorationArrayStride: id->array_stride = (int32_t)v; break;
	case SpvDecorationMatrixStride: if (mem) mem->matrix_stride = v; break;
	case SpvDecorationRowMajor: if (mem) mem->row_major = true; break;
	case SpvDecorationBlock: case SpvDecorationBufferBlock: id->block = true; break;
	case SpvDecorationFlat: if (mem) mem->flat = true; else id->flat = true; break;
	case SpvDecorationNoPerspective: if (mem) mem->noperspective = true; else id->noperspective = true; break;
	case SpvDecorationSpecId: id->has_spec_id = true; break;
	default: break;
	}
}

static void init_id(struct drv_sid *id)
{
	memset(id, 0, sizeof *id);
	id->location = id->component = id->builtin = id->binding = id->set = -1;
	id->xfb_buffer = id->xfb_stride = id->xfb_offset = id->stream = id->array_stride = -1;
}

uint32_t drv_stype_slot_scalar(const struct drv_smodule *m, uint32_t t, uint32_t slot)
{
	for (int guard = 0; guard < 64; guard++) {
		const struct drv_sid *ty = drv_stype(m, t);
		if (!ty)
			return 0;
		switch (ty->op) {
		case SpvOpTypeVector:
		case SpvOpTypeMatrix:
		case SpvOpTypeArray: {
			const struct drv_sid *e = drv_stype(m, ty->elem);
			if (!e || !e->slots)
				return 0;
			slot %= e->slots * (ty->count ? ty->count : 1);
			slot %= e->slots;
			t = ty->elem;
			break;
		}
		case SpvOpTypeStruct:
			for (uint32_t i = 0; i < ty->n_members; i++) {
				const struct drv_sid *e = drv_stype(m, ty->members[i].type);
				if (!e)
					return 0;
				if (slot < e->slots) {
					t = ty->members[i].type;
					break;
				}
				slot -= e->slots;
			}
			if (t == (uint32_t)(ty - m->ids))
				return 0;
			break;
		default:
			return t;
		}
	}
	return 0;
}

unsigned drv_stype_slot_dwords(const struct drv_smodule *m, uint32_t t, uint32_t slot)
{
	const struct drv_sid *s = drv_stype(m, drv_stype_slot_scalar(m, t, slot));
	return s && s->width == 64 ? 2 : 1;
}

unsigned drv_stype_dwords(const struct drv_smodule *m, uint32_t t)
{
	const struct drv_sid *ty = drv_stype(m, t);
	unsigned n = 0;
	if (!ty)
		return 0;
	for (uint32_t i = 0; i < ty->slots; i++)
		n += drv_stype_slot_dwords(m, t, i);
	return n;
}

unsigned drv_stype_locations(const struct drv_smodule *m, uint32_t t)
{
	const struct drv_sid *ty = drv_stype(m, t);
	if (!ty)
		return 1;
	switch (ty->op) {
	case SpvOpTypeVector: {
		const struct drv_sid *e = drv_stype(m, ty->elem);
		return e && e->width == 64 && ty->count > 2 ? 2 : 1;
	}
	case SpvOpTypeMatrix:
	case SpvOpTypeArray:
		return ty->count * drv_stype_locations(m, ty->elem);
	case SpvOpTypeStruct: {
		unsigned n = 0;
		for (uint32_t i = 0; i < ty->n_members; i++)
			n += drv_stype_locations(m, ty->members[i].type);
		return n;
	}
	default:
		return 1;
	}
}

unsigned drv_stype_slot_loc_dword(const struct drv_smodule *m, uint32_t t, uint32_t slot)
{
	const struct drv_sid *ty = drv_stype(m, t);
	const struct drv_sid *e;
	if (!ty)
		return 0;
	switch (ty->op) {
	case SpvOpTypeVector:
		e = drv_stype(m, ty->elem);
		return slot * (e && e->width == 64 ? 2 : 1);
	case SpvOpTypeMatrix:
	case SpvOpTypeArray:
		e = drv_stype(m, ty->elem);
		if (!e || !e->slots)
			return 0;
		return (slot / e->slots) * 4 * drv_stype_locations(m, ty->elem) +
		       drv_stype_slot_loc_dword(m, ty->elem, slot % e->slots);
	case SpvOpTypeStruct: {
		unsigned locs = 0;
		for (uint32_t i = 0; i < ty->n_members; i++) {
			e = drv_stype(m, ty->members[i].type);
			if (!e)
				return 0;
			if (slot < e->slots)
				return locs * 4 + drv_stype_slot_loc_dword(m, ty->members[i].type, slot);
			slot -= e->slots;
			locs += drv_stype_locations(m, ty->members[i].type);
		}
		return 0;
	}
	default:
		return 0;
	}
}

unsigned drv_stype_slot_dword_offset(const struct drv_smodule *m, uint32_t t, uint32_t slot)
{
	unsigned n = 0;
	for (uint32_t i = 0; i < slot; i++)
		n += drv_stype_slot_dwords(m, t, i);
	return n;
}

bool drv_io_lookup(const struct drv_io_layout *l, const char *key, uint32_t *dw)
{
	for (uint32_t i = 0; i < l->n_vars; i++)
		if (!strcmp(l->vars[i].key, key)) {
			*dw = l->vars[i].dw;
			return true;
		}
	return false;
}

/* GL 4.6 §7.4.1 (Shader Interface Matching): an interface variable matches
 * the one of the other stage with the same name, or, for SPIR-V
 * (ARB_gl_spirv, where names are only debug information), with the same
 * location and component.  A block member without a location of its own
 * keeps matching by name. */
void drv_io_key(const struct drv_smodule *m, const struct drv_svar *v, uint32_t bt, int member, char *key, size_t n)
{
	const struct drv_sid *b = drv_stype(m, bt);
	if (member >= 0 && b && (uint32_t)member < b->n_members) {
		if (m->match_by_location && b->members[member].location >= 0)
			snprintf(key, n, "@location %d", b->members[member].location);
		else
			snprintf(key, n, "%s.%s", b->name ? b->name : "",
				 b->members[member].name ? b->members[member].name : "");
	} else if (m->match_by_location && v->location >= 0) {
		snprintf(key, n, "@location %d component %d", v->location, v->component > 0 ? v->component : 0);
	} else {
		snprintf(key, n, "%s", v->name);
	}
}

static uint32_t round_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

void drv_stype_std140(const struct drv_smodule *m, uint32_t t, uint32_t *size, uint32_t *align)
{
	const struct drv_sid *ty = drv_stype(m, t);
	uint32_t es, ea;
	*size = 4;
	*align = 4;
	if (!ty)
		return;
	switch (ty->op) {
	case SpvOpTypeBool:
	case SpvOpTypeInt:
	case SpvOpTypeFloat:
		*size = *align = ty->width == 64 ? 8 : 4;
		return;
	case SpvOpTypeVector:
		drv_stype_std140(m, ty->elem, &es, &ea);
		*size = es * ty->count;
		*align = es * (ty->count == 3 ? 4 : ty->count);
		return;
	case SpvOpTypeMatrix:
	case SpvOpTypeArray: {
		uint32_t stride;
		drv_stype_std140(m, ty->elem, &es, &ea);
		ea = ea > 16 ? ea : 16;
		stride = ty->op == SpvOpTypeArray && ty->array_stride > 0 ? (uint32_t)ty->array_stride : round_up(es, ea);
		*size = stride * ty->count;
		*align = ea;
		return;
	}
	case SpvOpTypeStruct: {
		uint32_t off = 0, a = 16;
		for (uint32_t i = 0; i < ty->n_members; i++) {
			drv_stype_std140(m, ty->members[i].type, &es, &ea);
			off = ty->members[i].offset >= 0 ? (uint32_t)ty->members[i].offset : round_up(off, ea);
			off += es;
			a = ea > a ? ea : a;
		}
		*size = round_up(off, a);
		*align = a;
		return;
	}
	default:
		return;
	}
}

uint32_t drv_stype_member_offset(const struct drv_smodule *m, uint32_t t, uint32_t idx)
{
	const struct drv_sid *ty = drv_stype(m, t);
	uint32_t off = 0, es, ea;
	if (!ty || ty->op != SpvOpTypeStruct)
		return 0;
	for (uint32_t i = 0; i < ty->n_members && i <= idx; i++) {
		drv_stype_std140(m, ty->members[i].type, &es, &ea);
		off = ty->members[i].offset >= 0 ? (uint32_t)ty->members[i].offset : round_up(off, ea);
		if (i == idx)
			return off;
		off += es;
	}
	return off;
}

uint32_t drv_stype_array_stride(const struct drv_smodule *m, uint32_t t)
{
	const struct drv_sid *ty = drv_stype(m, t);
	uint32_t es, ea;
	if (!ty)
		return 0;
	if (ty->array_stride > 0)
		return (uint32_t)ty->array_stride;
	drv_stype_std140(m, ty->elem, &es, &ea);
	ea = ea > 16 ? ea : 16;
	return round_up(es, ea);
}

uint32_t drv_stype_strip_arrays(const struct drv_smodule *m, uint32_t t, uint32_t *elems)
{
	const struct drv_sid *ty;
	*elems = 1;
	while ((ty = drv_stype(m, t)) && ty->op == SpvOpTypeArray) {
		*elems *= ty->count;
		t = ty->elem;
	}
	return t;
}

uint32_t drv_stype_gl_enum(const struct drv_smodule *m, uint32_t t)
{
	const struct drv_sid *ty = drv_stype(m, t), *s;
	const struct glapi_type *gt;
	enum glapi_type_base base;
	unsigned n = 1;

	if (!ty)
		return 0;
	if (ty->op == SpvOpTypeMatrix) {
		const struct drv_sid *col = drv_stype(m, ty->elem);
		if (!col || col->count < 2 || col->count > 4 || ty->count < 2 || ty->count > 4)
			return 0;
		s = drv_stype(m, col->elem);
		gt = glapi_type_find(s && s->width == 64 ? GLAPI_TYPE_DOUBLE : GLAPI_TYPE_FLOAT, ty->count,
				     col->count);
		return gt ? gt->value : 0;
	}
	if (ty->op == SpvOpTypeSampledImage) {
		static const struct { uint32_t spv; enum glapi_sampler_dim dim; } dims[] = {
			{ SpvDim1D, GLAPI_SAMPLER_1D }, { SpvDim2D, GLAPI_SAMPLER_2D },
			{ SpvDim3D, GLAPI_SAMPLER_3D }, { SpvDimCube, GLAPI_SAMPLER_CUBE },
			{ SpvDimRect, GLAPI_SAMPLER_RECT }, { SpvDimBuffer, GLAPI_SAMPLER_BUFFER },
		};
		const struct drv_sid *img = drv_stype(m, ty->elem);
		const struct drv_sid *st = img ? drv_stype(m, img->elem) : NULL;
		const struct glapi_sampler_type *sam = NULL;
		if (!img || img->op != SpvOpTypeImage || !st)
			return 0;
		base = st->op == SpvOpTypeFloat ? GLAPI_TYPE_FLOAT :
		       st->op == SpvOpTypeInt && st->sign ? GLAPI_TYPE_INT : GLAPI_TYPE_UINT;
		for (size_t i = 0; i < sizeof dims / sizeof dims[0] && !sam; i++)
			if (dims[i].spv == img->image_dim)
				sam = glapi_sampler_type_find(base, dims[i].dim, img->image_arrayed,
							      img->image_ms, img->image_depth);
		return sam ? sam->value : 0;
	}
	s = ty;
	if (ty->op == SpvOpTypeVector) {
		n = ty->count;
		s = drv_stype(m, ty->elem);
	}
	if (!s || n < 1 || n > 4)
		return 0;
	switch (s->op) {
	case SpvOpTypeBool: base = GLAPI_TYPE_BOOL; break;
	case SpvOpTypeInt: base = s->sign ? GLAPI_TYPE_INT : GLAPI_TYPE_UINT; break;
	case SpvOpTypeFloat: base = s->width == 64 ? GLAPI_TYPE_DOUBLE : GLAPI_TYPE_FLOAT; break;
	default: return 0;
	}
	gt = glapi_type_find(base, 1, n);
	return gt ? gt->value : 0;
}

static enum xt_rc add_var(struct drv_smodule *m, uint32_t id, uint32_t ptr_type, uint32_t storage, struct xt_err *err)
{
	const struct drv_sid *pt = drv_stype(m, ptr_type);
	struct drv_svar *v;
	struct drv_sid *s = &m->ids[id];
	if (!pt || pt->op != SpvOpTypePointer)
		return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: OpVariable %%%u has no pointer type", id);
	if (m->n_vars % 64 == 0) {
		struct drv_svar *nv = realloc(m->vars, (m->n_vars + 64) * sizeof *nv);
		if (!nv)
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
		m->vars = nv;
	}
	v = &m->vars[m->n_vars];
	memset(v, 0, sizeof *v);
	v->id = id;
	v->type = pt->elem;
	v->storage = storage;
	v->name = s->name ? s->name : "";
	v->location = s->location;
	v->component = s->component;
	v->builtin = s->builtin;
	v->binding = s->binding;
	v->xfb_buffer = s->xfb_buffer;
	v->xfb_stride = s->xfb_stride;
	v->xfb_offset = s->xfb_offset;
	v->stream = s->stream;
	v->flat = s->flat;
	v->noperspective = s->noperspective;
	v->ubo = -1;
	v->sampler = -1;
	v->slots = drv_stype(m, pt->elem) ? drv_stype(m, pt->elem)->slots : 0;
	s->kind = DRV_SID_VAR;
	s->type = ptr_type;
	s->var = m->n_vars++;
	return XT_OK;
}

static enum xt_rc parse_type(struct drv_smodule *m, uint16_t op, const uint32_t *w, uint32_t n, struct xt_err *err)
{
	struct drv_sid *s;
	uint32_t id = w[1];
	if (n < 2 || id >= m->bound)
		return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: bad type instruction");
	s = &m->ids[id];
	s->kind = DRV_SID_TYPE;
	s->op = op;
	switch (op) {
	case SpvOpTypeVoid: break;
	case SpvOpTypeBool: s->slots = 1; s->width = 32; break;
	case SpvOpTypeInt:
		if (n < 4) return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: short OpTypeInt");
		s->width = w[2]; s->sign = w[3] != 0; s->slots = 1;
		if (s->width != 32)
			return XT_FAIL(err, XT_ERR_UNSUPPORTED, "%u-bit integers are not supported by the driver", s->width);
		break;
	case SpvOpTypeFloat:
		if (n < 3) return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: short OpTypeFloat");
		s->width = w[2]; s->slots = 1;
		if (s->width != 32 && s->width != 64)
			return XT_FAIL(err, XT_ERR_UNSUPPORTED, "%u-bit floats are not supported by the driver", s->width);
		break;
	case SpvOpTypeVector:
	case SpvOpTypeMatrix: {
		const struct drv_sid *e;
		if (n < 4 || !(e = drv_stype(m, w[2])))
			return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: bad vector/matrix type %%%u", id);
		s->elem = w[2]; s->count = w[3]; s->slots = e->slots * w[3];
		break;
	}
	case SpvOpTypeArray: {
		const struct drv_sid *e;
		if (n < 4 || !(e = drv_stype(m, w[2])) || w[3] >= m->bound || m->ids[w[3]].kind != DRV_SID_CONST ||
		    !m->ids[w[3]].cval)
			return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: bad array type %%%u", id);
		s->elem = w[2];
		s->count = (uint32_t)m->ids[w[3]].cval[0];
		if (s->count > 65536 || (uint64_t)e->slots * s->count > (1u << 20))
			return XT_FAIL(err, XT_ERR_UNSUPPORTED, "array of %u elements is too large for the driver", s->count);
		s->slots = e->slots * s->count;
		break;
	}
	case SpvOpTypeRuntimeArray:
		return XT_FAIL(err, XT_ERR_UNSUPPORTED, "runtime-sized arrays (shader storage buffers) are not supported by the driver");
	case SpvOpTypeStruct: {
		uint32_t nm = n - 2;
		if (nm && !member(s, nm - 1))
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
		s->n_members = nm;
		s->slots = 0;
		for (uint32_t i = 0; i < nm; i++) {
			const struct drv_sid *e = drv_stype(m, w[2 + i]);
			if (!e)
				return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: struct %%%u member %u has no type", id, i);
			s->members[i].type = w[2 + i];
			s->slots += e->slots;
		}
		break;
	}
	case SpvOpTypePointer:
		if (n < 4) return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: short OpTypePointer");
		s->storage = w[2]; s->elem = w[3];
		break;
	case SpvOpTypeImage:
		/* one slot, as a sampled image: a loaded image or sampler is
		 * its sampler slot, a constant (drv_spirv_tex.c) */
		if (n < 9)
			return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: short OpTypeImage");
		s->slots = 1;
		s->elem = w[2];
		s->image_dim = w[3];
		s->image_depth = w[4] == 1;
		s->image_arrayed = w[5] != 0;
		s->image_ms = w[6] != 0;
		break;
	case SpvOpTypeSampledImage:
		if (n < 3)
			return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: short OpTypeSampledImage");
		s->elem = w[2];
		s->slots = 1;
		break;
	default:      /* function, sampler: no slots */
		break;
	}
	return XT_OK;
}

static enum xt_rc parse_const(struct drv_smodule *m, uint16_t op, const uint32_t *w, uint32_t n, struct xt_err *err)
{
	struct drv_sid *s, *ty;
	if (n < 3 || w[2] >= m->bound || w[1] >= m->bound || !(ty = drv_stype(m, w[1])))
		return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: bad constant");
	s = &m->ids[w[2]];
	s->kind = DRV_SID_CONST;
	s->op = op;
	s->type = w[1];
	s->cval = calloc(ty->slots ? ty->slots : 1, sizeof *s->cval);
	if (!s->cval)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	switch (op) {
	case SpvOpConstantTrue: case SpvOpSpecConstantTrue: s->cval[0] = 1; break;
	case SpvOpConstantFalse: case SpvOpSpecConstantFalse: break;
	case SpvOpConstant: case SpvOpSpecConstant:
		if (n < 4)
			return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: short OpConstant");
		s->cval[0] = w[3] | (n >= 5 && ty->width == 64 ? (uint64_t)w[4] << 32 : 0);
		break;
	case SpvOpConstantComposite: case SpvOpSpecConstantComposite: {
		uint32_t k = 0;
		for (uint32_t i = 3; i < n; i++) {
			const struct drv_sid *c = w[i] < m->bound ? &m->ids[w[i]] : NULL;
			const struct drv_sid *ct = c ? drv_stype(m, c->type) : NULL;
			if (!c || c->kind != DRV_SID_CONST || !ct || k + ct->slots > ty->slots)
				return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: bad constituent of constant %%%u", w[2]);
			memcpy(s->cval + k, c->cval, ct->slots * sizeof *s->cval);
			k += ct->slots;
		}
		break;
	}
	default:      /* OpConstantNull, OpUndef: zeros */
		break;
	}
	return XT_OK;
}

static uint32_t gs_prim(uint32_t mode, uint32_t *verts)
{
	switch (mode) {
	case SpvExecutionModeInputPoints: *verts = 1; return GL_POINTS;
	case SpvExecutionModeInputLines: *verts = 2; return GL_LINES;
	case SpvExecutionModeInputLinesAdjacency: *verts = 4; return GL_LINES_ADJACENCY;
	case SpvExecutionModeTriangles: *verts = 3; return GL_TRIANGLES;
	case SpvExecutionModeInputTrianglesAdjacency: *verts = 6; return GL_TRIANGLES_ADJACENCY;
	default: return ~0u;
	}
}

enum xt_rc drv_smodule_parse(struct drv_smodule *m, const uint32_t *words, size_t n_words, struct xt_err *err)
{
	uint32_t p = 5;
	bool in_fn = false;
	enum xt_rc rc;

	memset(m, 0, sizeof *m);
	if (n_words < 5 || words[0] != SpvMagicNumber)
		return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: bad header");
	if (words[3] > (1u << 22))
		return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: id bound %u too large", words[3]);
	m->words = words;
	m->n_words = (uint32_t)n_words;
	m->bound = words[3];
	m->ids = calloc(m->bound, sizeof *m->ids);
	if (!m->ids)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < m->bound; i++)
		init_id(&m->ids[i]);
	m->gs_invocations = 1;

	while (p < n_words) {
		uint16_t op = (uint16_t)(words[p] & 0xFFFF), n = (uint16_t)(words[p] >> 16);
		const uint32_t *w = words + p;
		if (!n || p + n > n_words)
			return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: bad instruction size at word %u", p);
		switch (op) {
		case SpvOpName:
			if (n >= 3 && w[1] < m->bound && !m->ids[w[1]].name)
				m->ids[w[1]].name = str_dup(w + 2, n - 2u);
			break;
		case SpvOpMemberName:
			if (n >= 4 && w[1] < m->bound) {
				struct drv_smember *mb = member(&m->ids[w[1]], w[2]);
				if (mb && !mb->name)
					mb->name = str_dup(w + 3, n - 3u);
			}
			break;
		case SpvOpDecorate:
			if (n >= 3 && w[1] < m->bound)
				decorate(&m->ids[w[1]], NULL, w[2], w + 3, n - 3u);
			break;
		case SpvOpMemberDecorate:
			if (n >= 4 && w[1] < m->bound) {
				struct drv_smember *mb = member(&m->ids[w[1]], w[2]);
				if (mb)
					decorate(&m->ids[w[1]], mb, w[3], w + 4, n - 4u);
			}
			break;
		case SpvOpExtInstImport:
			if (n >= 3 && w[1] < m->bound) {
				m->ids[w[1]].kind = DRV_SID_EXTINST;
				if (!strncmp((const char *)(w + 2), "GLSL.std.450", (size_t)(n - 2) * 4))
					m->glsl_ext = w[1];
			}
			break;
		case SpvOpEntryPoint:
			if (n < 3)
				return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: short OpEntryPoint");
			m->exec_model = w[1];
			m->entry = w[2];
			break;
		case SpvOpExecutionMode:
			if (n < 3)
				break;
			switch (w[2]) {
			case SpvExecutionModeInvocations: m->gs_invocations = n > 3 ? w[3] : 1; break;
			case SpvExecutionModeOutputVertices: m->gs_max_vertices = n > 3 ? w[3] : 0; break;
			case SpvExecutionModeOutputPoints: m->gs_output_prim = GL_POINTS; break;
			case SpvExecutionModeOutputLineStrip: m->gs_output_prim = GL_LINE_STRIP; break;
			case SpvExecutionModeOutputTriangleStrip: m->gs_output_prim = GL_TRIANGLE_STRIP; break;
			case SpvExecutionModeXfb: m->xfb = true; break;
			default: {
				uint32_t v, prim = gs_prim(w[2], &v);
				if (prim != ~0u) {
					m->gs_input_prim = prim;
					m->gs_vertices_in = v;
				}
			}
			}
			break;
		case SpvOpTypeVoid: case SpvOpTypeBool: case SpvOpTypeInt: case SpvOpTypeFloat:
		case SpvOpTypeVector: case SpvOpTypeMatrix: case SpvOpTypeImage: case SpvOpTypeSampler:
		case SpvOpTypeSampledImage: case SpvOpTypeArray: case SpvOpTypeRuntimeArray:
		case SpvOpTypeStruct: case SpvOpTypePointer: case SpvOpTypeFunction:
			if ((rc = parse_type(m, op, w, n, err)) != XT_OK)
				return rc;
			break;
		case SpvOpConstantTrue: case SpvOpConstantFalse: case SpvOpConstant:
		case SpvOpConstantComposite: case SpvOpConstantNull: case SpvOpSpecConstantTrue:
		case SpvOpSpecConstantFalse: case SpvOpSpecConstant: case SpvOpSpecConstantComposite:
			if ((rc = parse_const(m, op, w, n, err)) != XT_OK)
				return rc;
			break;
		case SpvOpUndef:
			if (!in_fn && (rc = parse_const(m, op, w, n, err)) != XT_OK)
				return rc;
			break;
		case SpvOpSpecConstantOp:
			return XT_FAIL(err, XT_ERR_UNSUPPORTED, "specialization constant operations are not supported by the driver");
		case SpvOpVariable:
			if (n < 4 || w[2] >= m->bound)
				return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: bad OpVariable");
			if ((rc = add_var(m, w[2], w[1], w[3], err)) != XT_OK)
				return rc;
			m->vars[m->n_vars - 1].init = n > 4 ? w[4] : 0;
			break;
		case SpvOpFunction:
			if (n >= 3 && w[2] < m->bound)
				m->ids[w[2]].kind = DRV_SID_FUNCTION;
			if (n >= 3 && w[2] == m->entry) {
				in_fn = true;
				m->fn_begin = p + n;
			}
			break;
		case SpvOpFunctionEnd:
			if (in_fn) {
				m->fn_end = p;
				in_fn = false;
			}
			break;
		default:
			break;
		}
		p += n;
	}
	if (!m->entry || !m->fn_end)
		return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: no entry point function");

	/* default-block uniforms: std140 offsets in declaration order */
	for (uint32_t i = 0; i < m->n_vars; i++) {
		struct drv_svar *v = &m->vars[i];
		const struct drv_sid *t = drv_stype(m, v->type);
		uint32_t size, align, elems, base = drv_stype_strip_arrays(m, v->type, &elems);
		const struct drv_sid *bt = drv_stype(m, base);
		if (v->storage != SpvStorageClassUniformConstant || !t)
			continue;
		if (!bt || bt->op == SpvOpTypeImage || bt->op == SpvOpTypeSampledImage || bt->op == SpvOpTypeSampler)
			continue;
		drv_stype_std140(m, v->type, &size, &align);
		align = align < 16 && (t->op == SpvOpTypeStruct || t->op == SpvOpTypeArray) ? 16 : align;
		v->mem_offset = round_up(m->const_buffer_size, align);
		m->const_buffer_size = v->mem_offset + size;
	}
	m->const_buffer_size = round_up(m->const_buffer_size, 16);
	return XT_OK;
}

void drv_smodule_fini(struct drv_smodule *m)
{
	if (!m)
		return;
	if (m->ids) {
		for (uint32_t i = 0; i < m->bound; i++) {
			struct drv_sid *s = &m->ids[i];
			for (uint32_t k = 0; k < s->n_members; k++)
				free(s->members[k].name);
			free(s->members);
			free(s->name);
			free(s->cval);
			free(s->comps);
			if (s->ptr)
				free(s->ptr->cands);
			free(s->ptr);
		}
	}
	free(m->ids);
	free(m->vars);
	memset(m, 0, sizeof *m);
}
