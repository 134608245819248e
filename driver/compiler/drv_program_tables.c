/*
 * drv_program_tables.c - the tables GL reports about a linked program:
 * active attributes (glBindAttribLocation and `layout(location)` applied),
 * default-block uniforms laid out once for all stages with their
 * initializers, uniform blocks (drv_program_int.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "drv_program_int.h"
#include "glapi_types.h"

/* --- tables ------------------------------------------------------------------ */

const char *drv_program_user_name(const struct build *b, enum drv_stage s, const char *name)
{
	return drv_translation_user_name(b->tr[s].maps, b->tr[s].n_maps, name);
}

/* The next token of GLSL text at *pp (comments and space skipped): its start
 * and length, 0 at the end. */
static size_t next_token(const char **pp, const char **tok)
{
	const char *p = *pp;
	for (;;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				p++;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e ? e + 2 : p + strlen(p);
		} else if (p[0] == '#') {
			while (*p && *p != '\n')
				p++;
		} else {
			break;
		}
	}
	*tok = p;
	if (!*p)
		return *pp = p, 0;
	size_t n = 1;
	if (isalnum((unsigned char)*p) || *p == '_')
		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
	*pp = p + n;
	return n;
}

static bool tok_is(const char *tok, size_t n, const char *lit)
{
	return strlen(lit) == n && !memcmp(tok, lit, n);
}

/*
 * The location a `layout(location = N) in TYPE NAME` declaration of the
 * (translated) vertex shader gives input `name`, or -1.  SPIR-V cannot tell
 * it apart from the locations glslang's auto-mapping assigns to the other
 * inputs, and in GL an explicit location wins over glBindAttribLocation.
 */
static int explicit_input_location(const char *src, const char *name)
{
	const char *p = src, *tok;
	size_t n;

	while ((n = next_token(&p, &tok)) != 0) {
		if (!tok_is(tok, n, "layout"))
			continue;
		int loc = -1, depth = 0;
		while ((n = next_token(&p, &tok)) != 0) {
			if (tok_is(tok, n, "("))
				depth++;
			else if (tok_is(tok, n, ")") && --depth <= 0)
				break;
			else if (tok_is(tok, n, "location")) {
				const char *save = p;
				if (next_token(&p, &tok) == 1 && *tok == '=' && next_token(&p, &tok) &&
				    isdigit((unsigned char)*tok))
					loc = atoi(tok);
				else
					p = save;
			}
		}
		/* qualifiers, "in", the type, then the name */
		bool is_input = false;
		const char *prev = NULL;
		size_t prev_n = 0;
		while ((n = next_token(&p, &tok)) != 0 && !tok_is(tok, n, ";") && !tok_is(tok, n, "{") &&
		       !tok_is(tok, n, "[") && !tok_is(tok, n, "=")) {
			if (tok_is(tok, n, "in") || tok_is(tok, n, "attribute"))
				is_input = true;
			prev = tok;
			prev_n = n;
		}
		if (loc >= 0 && is_input && prev && strlen(name) == prev_n && !memcmp(prev, name, prev_n))
			return loc;
	}
	return -1;
}

enum xt_rc drv_program_build_attribs(struct build *b)
{
	struct drv_smodule *m = &b->mod[DRV_STAGE_VERTEX];
	struct drv_program *p = b->p;
	uint32_t used = 0;

	p->attribs = calloc(m->n_vars + 1, sizeof *p->attribs);
	if (!p->attribs)
		return XT_ERR_NOMEM;
	/* gl_VertexID and gl_InstanceID, when read, are active attributes
	 * too (GL 4.6 §11.1.1, ES 3.2 §11.1.1), with no location (-1); Mesa
	 * lists them first, and so do we.  They take no vertex input slot. */
	for (uint32_t i = 0; i < m->n_vars; i++) {
		const struct drv_svar *v = &m->vars[i];
		const char *name = v->builtin == SpvBuiltInVertexId || v->builtin == SpvBuiltInVertexIndex ?
				   "gl_VertexID" : v->builtin == SpvBuiltInInstanceId ||
				   v->builtin == SpvBuiltInInstanceIndex ? "gl_InstanceID" : NULL;
		const struct glapi_type *int_type = glapi_type_find(GLAPI_TYPE_INT, 1, 1);
		if (v->storage != SpvStorageClassInput || !name)
			continue;
		struct drv_attrib *a = &p->attribs[p->n_attribs++];
		snprintf(a->name, sizeof a->name, "%s", name);
		a->type = int_type ? int_type->value : 0;
		a->size = 1;
		a->location = ~0u;
		a->locations = 0;
	}
	/* Explicit layout(location) first, then glBindAttribLocation (which
	 * an explicit location overrides), then the rest keep glslang's order
	 * in the locations left free. */
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < m->n_vars; i++) {
			struct drv_svar *v = &m->vars[i];
			const char *un = drv_program_user_name(b, DRV_STAGE_VERTEX, v->name);
			uint32_t nloc = drv_stype_locations(m, v->type), el, loc = ~0u;
			bool bound = false;
			if (v->storage != SpvStorageClassInput || v->builtin >= 0)
				continue;
			/* application SPIR-V: every location is explicit */
			int explicit_loc = b->desc->spirv[DRV_STAGE_VERTEX] ? v->location :
					   explicit_input_location(b->tr[DRV_STAGE_VERTEX].text, v->name);
			for (unsigned k = 0; explicit_loc < 0 && b->desc->attrib_names &&
					     b->desc->attrib_names[k]; k++)
				if (!strcmp(b->desc->attrib_names[k], un)) {
					loc = b->desc->attrib_locations[k];
					bound = true;
				}
			if (explicit_loc >= 0) {
				loc = (uint32_t)explicit_loc;
				bound = true;
			}
			if (bound != (pass == 0))
				continue;
			if (!bound) {
				for (loc = 0; loc + nloc <= DRV_MAX_ATTRIBS; loc++)
					if (!(used >> loc & ((1u << nloc) - 1)))
						break;
			}
			if (loc + nloc > DRV_MAX_ATTRIBS) {
				xt_buf_printf(&b->llog, "error: too many vertex attributes: \"%s\" does not fit below MAX_VERTEX_ATTRIBS (%u)\n",
					      un, DRV_MAX_ATTRIBS);
				return XT_ERR_INVALID;
			}
			if (used >> loc & ((1u << nloc) - 1)) {
				xt_buf_printf(&b->llog, "error: vertex attribute \"%s\" at location %u overlaps another attribute\n",
					      un, loc);
				return XT_ERR_INVALID;
			}
			used |= ((1u << nloc) - 1) << loc;
			v->location = (int32_t)loc;
			{
				struct drv_attrib *a = &p->attribs[p->n_attribs++];
				uint32_t base = drv_stype_strip_arrays(m, v->type, &el);
				snprintf(a->name, sizeof a->name, "%s", un);
				a->type = drv_stype_gl_enum(m, base);
				a->size = el;
				a->location = loc;
				a->locations = nloc;
			}
		}
	return XT_OK;
}

static struct drv_uniform *new_uniform(struct build *b)
{
	struct drv_program *p = b->p;
	if (p->n_uniforms == b->n_uniform_cap) {
		uint32_t n = b->n_uniform_cap ? b->n_uniform_cap * 2 : 32;
		struct drv_uniform *u = realloc(p->uniforms, n * sizeof *u);
		if (!u)
			return NULL;
		p->uniforms = u;
		b->n_uniform_cap = n;
	}
	memset(&p->uniforms[p->n_uniforms], 0, sizeof p->uniforms[0]);
	return &p->uniforms[p->n_uniforms++];
}

/* Adds the leaves of a default-block uniform (or a block member: the
 * caller sets block and location) of type t at byte `off`. */
static enum xt_rc add_leaves(struct build *b, const struct drv_smodule *m, uint32_t t, const char *name,
			     uint32_t off, uint32_t mat_stride, bool row_major, int32_t *loc)
{
	const struct drv_sid *ty = drv_stype(m, t);
	char nm[160];
	if (!ty)
		return XT_OK;
	if (ty->op == SpvOpTypeStruct) {
		for (uint32_t i = 0; i < ty->n_members; i++) {
			enum xt_rc rc;
			snprintf(nm, sizeof nm, "%s.%s", name, ty->members[i].name ? ty->members[i].name : "");
			if ((rc = add_leaves(b, m, ty->members[i].type, nm, off + drv_stype_member_offset(m, t, i),
					     ty->members[i].matrix_stride, ty->members[i].row_major, loc)) != XT_OK)
				return rc;
		}
		return XT_OK;
	}
	if (ty->op == SpvOpTypeArray) {
		const struct drv_sid *et = drv_stype(m, ty->elem);
		uint32_t stride = drv_stype_array_stride(m, t);
		if (et && (et->op == SpvOpTypeStruct || et->op == SpvOpTypeArray)) {
			for (uint32_t i = 0; i < ty->count; i++) {
				enum xt_rc rc;
				snprintf(nm, sizeof nm, "%s[%u]", name, i);
				if ((rc = add_leaves(b, m, ty->elem, nm, off + i * stride, mat_stride, row_major, loc)) !=
				    XT_OK)
					return rc;
			}
			return XT_OK;
		}
		{
			struct drv_uniform *u = new_uniform(b);
			if (!u)
				return XT_ERR_NOMEM;
			snprintf(u->name, sizeof u->name, "%s[0]", name);
			u->type = drv_stype_gl_enum(m, ty->elem);
			u->size = ty->count;
			u->location = *loc;
			u->offset = off;
			u->array_stride = stride;
			u->matrix_stride = et && et->op == SpvOpTypeMatrix ? (mat_stride ? mat_stride : 16) : 0;
			u->row_major = et && et->op == SpvOpTypeMatrix && row_major;
			u->block = -1;
			*loc += (int32_t)ty->count;
			return XT_OK;
		}
	}
	{
		struct drv_uniform *u = new_uniform(b);
		uint32_t size, align;
		if (!u)
			return XT_ERR_NOMEM;
		drv_stype_std140(m, t, &size, &align);
		snprintf(u->name, sizeof u->name, "%s", name);
		u->type = drv_stype_gl_enum(m, t);
		u->size = 1;
		u->location = (*loc)++;
		u->offset = off;
		u->array_stride = 0;
		u->matrix_stride = ty->op == SpvOpTypeMatrix ? (mat_stride ? mat_stride : (size / ty->count <= 16 ? 16 : 32)) : 0;
		u->row_major = ty->op == SpvOpTypeMatrix && row_major;
		u->block = -1;
	}
	return XT_OK;
}

/* Writes constant slots cval[*slot...] of type t at byte `off` of buf
 * (size bytes), laid out as add_leaves lays the uniform out. */
static void write_init(const struct drv_smodule *m, uint32_t t, const uint64_t *cval, uint32_t n_slots,
		       uint32_t *slot, uint8_t *buf, uint32_t size, uint32_t off)
{
	const struct drv_sid *ty = drv_stype(m, t);
	uint32_t sz, al;

	if (!ty)
		return;
	switch (ty->op) {
	case SpvOpTypeStruct:
		for (uint32_t i = 0; i < ty->n_members; i++)
			write_init(m, ty->members[i].type, cval, n_slots, slot, buf, size,
				   off + drv_stype_member_offset(m, t, i));
		return;
	case SpvOpTypeArray:
		for (uint32_t i = 0; i < ty->count; i++)
			write_init(m, ty->elem, cval, n_slots, slot, buf, size, off + i * drv_stype_array_stride(m, t));
		return;
	case SpvOpTypeMatrix:
		drv_stype_std140(m, t, &sz, &al);
		for (uint32_t i = 0; i < ty->count; i++)
			write_init(m, ty->elem, cval, n_slots, slot, buf, size, off + i * (sz / ty->count <= 16 ? 16 : 32));
		return;
	case SpvOpTypeVector: {
		const struct drv_sid *e = drv_stype(m, ty->elem);
		uint32_t w = e && e->width == 64 ? 8 : 4;
		for (uint32_t i = 0; i < ty->count; i++)
			write_init(m, ty->elem, cval, n_slots, slot, buf, size, off + i * w);
		return;
	}
	default: {
		/* scalars; booleans as 0 / 1 in a dword */
		uint32_t w = ty->width == 64 ? 8 : 4;
		uint64_t v = *slot < n_slots ? cval[*slot] : 0;
		(*slot)++;
		if (off + w <= size)
			memcpy(buf + off, &v, w);   /* little-endian, as the GPU reads it */
		return;
	}
	}
}

/* The initial contents of the constant buffer: each default-block uniform
 * with an initializer (GLSL 4.60 4.3.5: the value at link time). */
static enum xt_rc build_uniform_inits(struct build *b)
{
	struct drv_program *p = b->p;

	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		const struct drv_smodule *m = &b->mod[s];
		for (uint32_t i = 0; b->parsed[s] && i < m->n_vars; i++) {
			const struct drv_svar *v = &m->vars[i];
			const struct drv_sid *c = v->init < m->bound ? &m->ids[v->init] : NULL;
			const struct drv_sid *ct = c ? drv_stype(m, c->type) : NULL;
			uint32_t slot = 0;
			if (v->storage != SpvStorageClassUniformConstant || !v->init || !c ||
			    c->kind != DRV_SID_CONST || !c->cval || !ct)
				continue;
			if (!p->const_init && !(p->const_init = calloc(1, p->const_buffer_size + 16)))
				return XT_ERR_NOMEM;
			write_init(m, v->type, c->cval, ct->slots ? ct->slots : 1, &slot, p->const_init, p->const_buffer_size,
				   v->mem_offset);
		}
	}
	return XT_OK;
}

/* The initial texture units of sampler uniforms declared with
 * layout(binding = N) (GLSL 4.20 §4.4.6: element i of an array gets
 * N + i), in the constant buffer where glUniform1i writes the unit; the
 * others start at 0.  glslang binds every sampler itself, so the source's
 * qualifiers say which binding was written (drv_glsl_decl). */
static enum xt_rc build_sampler_bindings(struct build *b)
{
	struct drv_program *p = b->p;

	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		const struct drv_smodule *m = &b->mod[s];
		for (uint32_t i = 0; b->parsed[s] && i < m->n_vars; i++) {
			const struct drv_svar *v = &m->vars[i];
			const char *un = drv_program_user_name(b, (enum drv_stage)s, v->name);
			const struct drv_glsl_decl *d;
			uint32_t el;
			if (v->storage != SpvStorageClassUniformConstant || v->sampler < 0 || !un ||
			    !(d = drv_program_find_decl(b, s, un, false)) || d->binding < 0)
				continue;
			drv_stype_strip_arrays(m, v->type, &el);
			if (!p->const_init && !(p->const_init = calloc(1, p->const_buffer_size + 16)))
				return XT_ERR_NOMEM;
			for (uint32_t e = 0; e < el && v->sampler + e < p->n_samplers; e++) {
				uint32_t off = p->samplers[v->sampler + e].const_offset, unit = (uint32_t)d->binding + e;
				if (off + 4 <= p->const_buffer_size)
					memcpy(p->const_init + off, &unit, 4);
			}
		}
	}
	return XT_OK;
}

/*
 * The members of uniform block `index` (variable v's block type) as
 * active uniforms (GL 4.6 §7.3.1): named "Block.member" when the block
 * has an instance name, "member" when not (§7.3.1.1), with their offsets
 * and strides in the block and no location.
 */
static enum xt_rc add_block_members(struct build *b, const struct drv_smodule *m, const struct drv_svar *v,
				    int32_t index)
{
	uint32_t el, t = drv_stype_strip_arrays(m, v->type, &el);
	const struct drv_sid *bt = drv_stype(m, t);
	const char *bn = b->p->ubos[index].name;
	bool named = v->name && v->name[0];
	unsigned first = b->p->n_uniforms;
	int32_t loc = 0;
	char nm[160];

	for (uint32_t i = 0; bt && i < bt->n_members; i++) {
		enum xt_rc rc;
		const char *mn = bt->members[i].name ? bt->members[i].name : "";
		snprintf(nm, sizeof nm, "%s%s%s", named ? bn : "", named ? "." : "", mn);
		if ((rc = add_leaves(b, m, bt->members[i].type, nm, drv_stype_member_offset(m, t, i),
				     bt->members[i].matrix_stride, bt->members[i].row_major, &loc)) != XT_OK)
			return rc;
	}
	for (unsigned k = first; k < b->p->n_uniforms; k++) {
		b->p->uniforms[k].block = index;
		b->p->uniforms[k].location = -1;
	}
	return XT_OK;
}

/* One constant-buffer layout for all stages: the first stage to declare a
 * uniform places it; the others reuse its offset. */
/* The uniform block of variable v of stage s (its block type bt, el array
 * elements) in the program's table, added when new; its index in *index. */
static enum xt_rc add_ubo(struct build *b, const struct drv_smodule *m, const struct drv_svar *v,
			  const struct drv_sid *bt, uint32_t el, int s, int32_t *index)
{
	struct drv_program *p = b->p;
	const char *bn = bt->name ? bt->name : v->name;
	struct drv_ubo *nu, *u;
	uint32_t sz, al;

	for (unsigned k = 0; k < p->n_ubos; k++)
		if (!strcmp(p->ubos[k].name, bn)) {
			*index = (int32_t)k;
			p->ubos[k].stages |= 1u << s;
			return XT_OK;
		}
	if (el > 1 || p->n_ubos >= DRV_MAX_UBOS) {
		xt_buf_printf(&b->llog, "error: uniform block \"%s\": %s\n", bn,
			      el > 1 ? "arrays of uniform blocks are not supported by the driver"
				     : "too many uniform blocks (the driver has 12)");
		p->unsupported |= el > 1;      /* a gap, not a GL limit */
		return XT_ERR_INVALID;
	}
	nu = realloc(p->ubos, (p->n_ubos + 1) * sizeof *nu);
	if (!nu)
		return XT_ERR_NOMEM;
	p->ubos = nu;
	u = &nu[p->n_ubos];
	memset(u, 0, sizeof *u);
	snprintf(u->name, sizeof u->name, "%s", bn);
	drv_stype_std140(m, v->type, &sz, &al);
	u->size_bytes = drv_program_block_size(b, bn, sz);
	u->binding = 0;
	/* layout(binding = N), GLSL 4.20 §4.4.5: the initial binding, which
	 * glUniformBlockBinding changes later; of any stage declaring it */
	for (int t = 0; t < DRV_STAGE_COUNT; t++) {
		const struct drv_glsl_decl *d = drv_program_find_decl(b, t, bn, true);
		if (d && d->binding >= 0) {
			u->binding = (uint32_t)d->binding;
			break;
		}
	}
	u->stages = 1u << s;
	*index = (int32_t)p->n_ubos++;
	return add_block_members(b, m, v, *index);
}

/*
 * GL 4.6 §7.6 ("Uniform Variables"): every member of a named uniform block
 * declared with the shared, std140 or std430 layout is active, and so is
 * the block, even when no shader references it.  glslang's optimizer
 * drops unreferenced blocks, so they are taken from each stage as
 * declared (drv_glslang_compile's `declared`), after the referenced ones.
 * SPIR-V no longer says whether a block was `packed` (whose unused blocks
 * GL lets an implementation drop), so every declared block is kept, as
 * for `shared`, GLSL's default layout.
 */
static enum xt_rc add_declared_ubos(struct build *b)
{
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		const struct drv_smodule *m = &b->declared_mod[s];
		if (!b->declared_parsed[s])
			continue;
		for (uint32_t i = 0; i < m->n_vars; i++) {
			const struct drv_svar *v = &m->vars[i];
			uint32_t el, base = drv_stype_strip_arrays(m, v->type, &el);
			const struct drv_sid *bt = drv_stype(m, base);
			int32_t index;
			enum xt_rc rc;
			if (v->storage != SpvStorageClassUniform || !bt || bt->op != SpvOpTypeStruct)
				continue;
			if ((rc = add_ubo(b, m, v, bt, el, s, &index)) != XT_OK)
				return rc;
		}
	}
	return XT_OK;
}

/* The sampler slot whose texture unit is at constant-buffer offset `off`. */
static int32_t sampler_slot(const struct drv_program *p, uint32_t off)
{
	for (unsigned k = 0; k < p->n_samplers; k++)
		if (p->samplers[k].const_offset == off)
			return (int32_t)k;
	return -1;
}

enum xt_rc drv_program_build_uniforms(struct build *b)
{
	struct drv_program *p = b->p;
	uint32_t size_total = 0;
	int32_t loc = 0;
	enum xt_rc rc;

	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		struct drv_smodule *m = &b->mod[s];
		if (!b->parsed[s])
			continue;
		for (uint32_t i = 0; i < m->n_vars; i++) {
			struct drv_svar *v = &m->vars[i];
			uint32_t el, base = drv_stype_strip_arrays(m, v->type, &el);
			const struct drv_sid *bt = drv_stype(m, base);
			const char *un = drv_program_user_name(b, (enum drv_stage)s, v->name);
			bool found = false;
			if ((v->storage != SpvStorageClassUniformConstant && v->storage != SpvStorageClassUniform) || !bt)
				continue;
			if (bt->op == SpvOpTypeImage || bt->op == SpvOpTypeSampledImage || bt->op == SpvOpTypeSampler)
				continue;
			if (v->storage == SpvStorageClassUniform) {
				if ((rc = add_ubo(b, m, v, bt, el, s, &v->ubo)) != XT_OK)
					return rc;
				continue;
			}
			/* default block: shared by name across stages */
			for (unsigned k = 0; k < p->n_uniforms; k++) {
				const char *n = p->uniforms[k].name;
				size_t len = strlen(un);
				if (p->uniforms[k].block < 0 && !strncmp(n, un, len) &&
				    (n[len] == 0 || n[len] == '[' || n[len] == '.')) {
					/* the leaf offset minus the leaf's position in
					 * the variable is the variable's offset: only
					 * the first leaf starts the variable */
					v->mem_offset = p->uniforms[k].offset;
					found = true;
					break;
				}
			}
			if (found)
				continue;
			{
				uint32_t sz, al;
				drv_stype_std140(m, v->type, &sz, &al);
				if (al < 16 && (drv_stype(m, v->type)->op == SpvOpTypeStruct ||
						drv_stype(m, v->type)->op == SpvOpTypeArray))
					al = 16;
				v->mem_offset = (size_total + al - 1) / al * al;
				size_total = v->mem_offset + sz;
				if ((rc = add_leaves(b, m, v->type, un, v->mem_offset, 0, false, &loc)) != XT_OK)
					return rc;
			}
		}
	}
	/* Samplers are active uniforms too (GL 4.6 §7.6), after the others:
	 * each element a 4-byte texture unit at the end of the constant
	 * buffer, which glUniform1i sets and glGetUniformiv reads, and a
	 * sampler slot of the descriptor table (drv_program.samplers, in the
	 * same order), which the shaders sample through. */
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		struct drv_smodule *m = &b->mod[s];
		if (!b->parsed[s])
			continue;
		for (uint32_t i = 0; i < m->n_vars; i++) {
			struct drv_svar *v = &m->vars[i];
			uint32_t el, base = drv_stype_strip_arrays(m, v->type, &el);
			const struct drv_sid *bt = drv_stype(m, base);
			const char *un = drv_program_user_name(b, (enum drv_stage)s, v->name);
			uint32_t type = bt && bt->op == SpvOpTypeSampledImage ? drv_stype_gl_enum(m, base) : 0;
			char nm[sizeof p->uniforms[0].name];
			bool found = false;
			if (v->storage != SpvStorageClassUniformConstant || !type || !un)
				continue;
			snprintf(nm, sizeof nm, el > 1 || drv_stype(m, v->type)->op == SpvOpTypeArray ?
				 "%s[0]" : "%s", un);
			for (unsigned k = 0; k < p->n_uniforms && !found; k++)
				if ((found = p->uniforms[k].block < 0 && !strcmp(p->uniforms[k].name, nm)))
					v->sampler = sampler_slot(p, p->uniforms[k].offset);
			for (uint32_t e = 0; found && v->sampler >= 0 && e < el && v->sampler + e < p->n_samplers; e++)
				p->samplers[v->sampler + e].stages |= 1u << s;
			if (found)
				continue;
			struct drv_uniform *u = new_uniform(b);
			if (!u)
				return XT_ERR_NOMEM;
			snprintf(u->name, sizeof u->name, "%s", nm);
			u->type = type;
			u->size = el;
			u->location = loc;
			loc += (int32_t)el;
			u->offset = (size_total + 3) / 4 * 4;
			u->array_stride = 4;
			u->block = -1;
			size_total = u->offset + 4 * el;
			v->sampler = (int32_t)p->n_samplers;
			for (uint32_t e = 0; e < el; e++) {
				struct drv_sampler *ns = realloc(p->samplers, (p->n_samplers + 1) * sizeof *ns);
				if (!ns)
					return XT_ERR_NOMEM;
				p->samplers = ns;
				ns[p->n_samplers++] = (struct drv_sampler){ type, u->offset + 4 * e, 1u << s, false };
			}
		}
	}
	p->const_buffer_size = (size_total + 15) / 16 * 16;
	if ((rc = add_declared_ubos(b)) != XT_OK)
		return rc;
	if ((rc = build_uniform_inits(b)) != XT_OK)
		return rc;
	return build_sampler_bindings(b);
}
