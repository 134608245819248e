/*
 * drv_block_layout.c - uniform blocks laid out as the application's source
 * and, for `shared` / `packed` blocks, the capturing driver say.
 *
 * glslang decorates every uniform block with std140 offsets and strides,
 * whatever its declared layout.  For std140 (and std430) blocks that is the
 * layout GL defines.  The `shared` and `packed` layouts are
 * implementation-dependent (GLSL 4.60 §4.4.5, GLSL ES 3.00 §4.3.8.3): the
 * application asks GL for the offsets (glGetActiveUniformsiv), and a
 * replay must lay the block out as the driver that captured the trace did,
 * since the buffer contents the trace holds were written for that layout
 * (Mesa on llvmpipe packs `shared` blocks as std430).  drv_glsl_layout.c
 * notes each block's packing from the source (drv_glsl_decl); here the
 * Offset, ArrayStride and MatrixStride decorations of the parsed modules
 * of such blocks are replaced by the recorded ones
 * (drv_program_desc.block_layouts), before anything reads them.
 *
 * Honoured: members of scalar, vector and matrix types and arrays of them
 * (one array level).  A member of a struct type, an array of arrays, a
 * recorded row-majorness other than the declared one, or two members of
 * one array type with different recorded strides is not honoured: the
 * block keeps std140 and layout_notes names the member.  A member the
 * record lacks (a `packed` block's inactive member) keeps its std140
 * place.  A shared / packed block without a record is std140, noted too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "drv_program_int.h"
#include "drv_spirv.h"

static const char *const packing_names[] = {
	[DRV_PACK_SHARED] = "shared", [DRV_PACK_PACKED] = "packed",
	[DRV_PACK_STD140] = "std140", [DRV_PACK_STD430] = "std430",
};

const struct drv_glsl_decl *drv_program_find_decl(const struct build *b, int s, const char *name, bool block)
{
	unsigned n = 1 + (b->more[s] ? b->desc->n_more_sources[s] : 0);

	for (unsigned u = 0; u < n; u++) {
		const struct drv_translation *t = u ? &b->more[s][u - 1] : &b->tr[s];
		for (unsigned i = 0; i < t->n_decls; i++)
			if (t->decls[i].block == block && !strcmp(t->decls[i].name, name))
				return &t->decls[i];
	}
	return NULL;
}

static const struct drv_block_layout *find_layout(const struct drv_program_desc *d, const char *name)
{
	for (unsigned i = 0; i < d->n_block_layouts; i++)
		if (d->block_layouts[i].name && !strcmp(d->block_layouts[i].name, name))
			return &d->block_layouts[i];
	return NULL;
}

/* The recorded member for SPIR-V member `mn` of block `bn`: GL names it
 * "bn.mn" when the block has an instance name, "mn" when not, with "[0]"
 * after an array. */
static const struct drv_block_member_layout *find_member(const struct drv_block_layout *l, const char *bn,
							 const char *mn)
{
	char full[4][160];

	snprintf(full[0], sizeof full[0], "%s.%s", bn, mn);
	snprintf(full[1], sizeof full[1], "%s.%s[0]", bn, mn);
	snprintf(full[2], sizeof full[2], "%s", mn);
	snprintf(full[3], sizeof full[3], "%s[0]", mn);
	for (unsigned k = 0; k < 4; k++)
		for (unsigned i = 0; i < l->n_members; i++)
			if (l->members[i].name && !strcmp(l->members[i].name, full[k]))
				return &l->members[i];
	return NULL;
}

/* Whether the record lists members of struct member `mn` ("bn.mn.x",
 * "bn.mn[1].x", or without the block name). */
static bool has_struct_members(const struct drv_block_layout *l, const char *bn, const char *mn)
{
	char pre[2][160];

	snprintf(pre[0], sizeof pre[0], "%s.%s", bn, mn);
	snprintf(pre[1], sizeof pre[1], "%s", mn);
	for (unsigned i = 0; i < l->n_members; i++)
		for (unsigned k = 0; k < 2 && l->members[i].name; k++) {
			size_t n = strlen(pre[k]);
			if (!strncmp(l->members[i].name, pre[k], n) &&
			    (l->members[i].name[n] == '.' || l->members[i].name[n] == '['))
				return true;
		}
	return false;
}

/*
 * Replaces the decorations of block type `bt` of module m by layout l.
 * First checks that every member can be honoured (nothing is changed
 * otherwise); false with a note when one cannot.
 */
static bool apply_block(struct drv_smodule *m, struct drv_sid *bt, const char *bn,
			const struct drv_block_layout *l, struct xt_buf *notes)
{
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < bt->n_members; i++) {
			struct drv_smember *mb = &bt->members[i];
			const char *mn = mb->name ? mb->name : "";
			const struct drv_block_member_layout *r = find_member(l, bn, mn);
			struct drv_sid *mt = drv_stype(m, mb->type);
			struct drv_sid *et = mt && mt->op == SpvOpTypeArray ? drv_stype(m, mt->elem) : mt;
			if (!mt || !et)
				continue;
			if (!r && et->op == SpvOpTypeStruct && has_struct_members(l, bn, mn)) {
				xt_buf_printf(notes, "uniform block \"%s\": member \"%s\" is a struct, whose "
					      "recorded layout the driver does not apply; the block is laid out "
					      "as std140\n", bn, mn);
				return false;
			}
			if (!r)
				continue;   /* inactive where recorded: keeps its place */
			if (pass == 0) {
				const char *why = NULL;
				if (et->op == SpvOpTypeStruct)
					why = "is a struct, whose recorded layout the driver does not apply";
				else if (et->op == SpvOpTypeArray)
					why = "is an array of arrays, whose recorded layout the driver does not apply";
				else if (et->op == SpvOpTypeMatrix && r->row_major != mb->row_major)
					why = "is recorded with another matrix order than the source declares";
				else if (mt->op == SpvOpTypeArray && r->array_stride == 0)
					why = "is an array recorded without an array stride";
				else if (mt->op == SpvOpTypeArray)
					for (uint32_t j = 0; j < i && !why; j++) {
						const struct drv_block_member_layout *o =
							find_member(l, bn, bt->members[j].name ? bt->members[j].name : "");
						if (bt->members[j].type == mb->type && o && o->array_stride != r->array_stride)
							why = "shares its array type with another member of another recorded "
							      "stride";
					}
				if (why) {
					xt_buf_printf(notes, "uniform block \"%s\": member \"%s\" %s; the block is laid "
						      "out as std140\n", bn, mn, why);
					return false;
				}
				continue;
			}
			mb->offset = (int32_t)r->offset;
			if (et->op == SpvOpTypeMatrix && r->matrix_stride)
				mb->matrix_stride = r->matrix_stride;
			if (mt->op == SpvOpTypeArray)
				mt->array_stride = (int32_t)r->array_stride;
		}
	}
	return true;
}

/* Applies the recorded layouts to module m of stage s; `notes` collects
 * what could not be (each block noted once per program: `noted`). */
static void apply_module(struct build *b, int s, struct drv_smodule *m, struct xt_buf *notes, char (*noted)[64],
			 unsigned *n_noted)
{
	for (uint32_t i = 0; i < m->n_vars; i++) {
		const struct drv_svar *v = &m->vars[i];
		uint32_t el, base = drv_stype_strip_arrays(m, v->type, &el);
		struct drv_sid *bt = drv_stype(m, base);
		const struct drv_glsl_decl *d;
		const struct drv_block_layout *l;
		const char *bn;
		struct xt_buf one = { 0 };
		bool seen = false;
		if (v->storage != SpvStorageClassUniform || !bt || bt->op != SpvOpTypeStruct)
			continue;
		bn = bt->name ? bt->name : v->name;
		d = drv_program_find_decl(b, s, bn, true);
		if (!d || d->packing == DRV_PACK_STD140 || d->packing == DRV_PACK_STD430)
			continue;
		for (unsigned k = 0; k < *n_noted; k++)
			seen |= !strcmp(noted[k], bn);
		l = find_layout(b->desc, bn);
		if (!l) {
			xt_buf_printf(&one, b->desc->has_block_layouts ?
				      "uniform block \"%s\" has the %s layout and is not in the recorded "
				      "layouts (not active on the capturing driver): laid out as std140\n" :
				      "uniform block \"%s\" has the %s layout and no recorded layout: "
				      "laid out as std140\n", bn, packing_names[d->packing]);
		} else if (apply_block(m, bt, bn, l, &one) && b->n_laid_out < DRV_MAX_UBOS) {
			bool known = false;
			for (unsigned k = 0; k < b->n_laid_out; k++)
				known |= !strcmp(b->laid_out[k], bn);
			if (!known)
				snprintf(b->laid_out[b->n_laid_out++], sizeof b->laid_out[0], "%s", bn);
		}
		if (one.len && !seen) {
			xt_buf_append(notes, one.data, one.len);
			if (*n_noted < DRV_MAX_UBOS * DRV_STAGE_COUNT)
				snprintf(noted[(*n_noted)++], sizeof noted[0], "%s", bn);
		}
		xt_buf_fini(&one);
	}
}

enum xt_rc drv_program_apply_block_layouts(struct build *b)
{
	struct xt_buf notes = { 0 };
	char noted[DRV_MAX_UBOS * DRV_STAGE_COUNT][64];
	unsigned n_noted = 0;

	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		if (b->parsed[s])
			apply_module(b, s, &b->mod[s], &notes, noted, &n_noted);
		if (b->declared_parsed[s])
			apply_module(b, s, &b->declared_mod[s], &notes, noted, &n_noted);
	}
	if (notes.len) {
		free(b->p->layout_notes);
		b->p->layout_notes = strndup((const char *)notes.data, notes.len);
		xt_buf_fini(&notes);
		if (!b->p->layout_notes)
			return XT_ERR_NOMEM;
	}
	return XT_OK;
}

uint32_t drv_program_block_size(const struct build *b, const char *name, uint32_t std140_size)
{
	const struct drv_block_layout *l = find_layout(b->desc, name);

	for (unsigned k = 0; l && k < b->n_laid_out; k++)
		if (!strcmp(b->laid_out[k], name))
			return l->data_size;
	return std140_size;
}
