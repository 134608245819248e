/*
 * drv_tf_layout.c - the program's transform feedback layout: which output
 * scalars go to which buffer at which byte offset, and each buffer's stride
 * (OpenGL 4.6 core, 11.1.2.1 "Output Variables" and 13.3 "Transform
 * Feedback"; ARB_transform_feedback3 for gl_SkipComponentsN / gl_NextBuffer;
 * ARB_enhanced_layouts for xfb_buffer / xfb_offset / xfb_stride).
 *
 * Two sources, as in GL: layout qualifiers in the last vertex-processing
 * stage win (SPIR-V Offset / XfbBuffer / XfbStride decorations on outputs);
 * otherwise the glTransformFeedbackVaryings list and buffer mode.  Names are
 * parsed (ident, ".member", "[n]") and resolved against the stage's output
 * variables: plain variables, "Block.member" for output blocks, and the
 * gl_PerVertex members (gl_Position, gl_PointSize, gl_ClipDistance[n]).
 * Translated identifiers (compatibility built-ins, renamed keywords) are
 * looked up by their user names.
 *
 * Link errors, worded after the GL drivers' messages: unknown varying,
 * varying listed twice, structure without a member, index out of bounds,
 * too many components (interleaved 64 / separate 4), too many separate
 * attributes or buffers, gl_SkipComponents / gl_NextBuffer in separate mode,
 * varyings of different streams in one buffer, unaligned doubles.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "drv_spirv.h"

#define LINK_ERR(log, ...) (xt_buf_printf((log), "error: " __VA_ARGS__), xt_buf_printf((log), "\n"), XT_ERR_INVALID)

struct leaf {
	int32_t var;
	uint32_t slot, slots, type, gl_type, size, dwords, stream;
	bool has_double;
};

static const char *stage_name(enum drv_stage s)
{
	return s == DRV_STAGE_GEOMETRY ? "geometry" : "vertex";
}

static bool type_has_double(const struct drv_smodule *m, uint32_t t)
{
	const struct drv_sid *s = drv_stype(m, drv_stype_slot_scalar(m, t, 0));
	return s && s->width == 64;
}

/* One path component: an identifier or an index. */
struct comp {
	char ident[96];
	int64_t index;       /* >= 0 for "[n]" */
};

static int parse_name(const char *name, struct comp *c, int max)
{
	int n = 0;
	const char *p = name;
	while (*p) {
		if (n == max)
			return -1;
		memset(&c[n], 0, sizeof c[n]);
		c[n].index = -1;
		if (*p == '[') {
			char *e;
			long long v = strtoll(p + 1, &e, 10);
			if (e == p + 1 || *e != ']' || v < 0)
				return -1;
			c[n++].index = v;
			p = e + 1;
		} else {
			size_t k = 0;
			if (n && *p == '.')
				p++;
			if (!(isalpha((unsigned char)*p) || *p == '_'))
				return -1;
			while (isalnum((unsigned char)*p) || *p == '_') {
				if (k + 1 < sizeof c[n].ident)
					c[n].ident[k++] = *p;
				p++;
			}
			n++;
		}
	}
	return n;
}

static const char *src_ident(const struct drv_builtin_map *maps, unsigned n, const char *id)
{
	for (unsigned i = 0; i < n; i++)
		if ((maps[i].kind == DRV_BUILTIN_RENAMED || maps[i].kind == DRV_BUILTIN_OUTPUT) &&
		    !strcmp(maps[i].glsl_name, id))
			return maps[i].reserved_name;
	return id;
}

/* Walks components c[k..n) from (type t, slot) to a leaf. */
static enum xt_rc walk_path(const struct drv_smodule *m, const char *name, const struct comp *c, int k, int n,
			    uint32_t t, uint32_t slot, int32_t stream, struct leaf *out, struct xt_buf *log)
{
	for (; k < n; k++) {
		const struct drv_sid *ty = drv_stype(m, t);
		if (!ty)
			return LINK_ERR(log, "transform feedback varying \"%s\" has no type", name);
		if (c[k].index >= 0) {
			const struct drv_sid *e;
			if (ty->op != SpvOpTypeArray)
				return LINK_ERR(log, "transform feedback varying \"%s\": subscripted element is not an array", name);
			if ((uint64_t)c[k].index >= ty->count)
				return LINK_ERR(log, "transform feedback varying \"%s\": array index %lld out of bounds (array size %u)",
						name, (long long)c[k].index, ty->count);
			e = drv_stype(m, ty->elem);
			slot += (uint32_t)c[k].index * (e ? e->slots : 0);
			t = ty->elem;
			continue;
		}
		if (ty->op != SpvOpTypeStruct)
			return LINK_ERR(log, "transform feedback varying \"%s\": \"%s\" is not a member of a structure", name,
					c[k].ident);
		{
			uint32_t i;
			for (i = 0; i < ty->n_members; i++)
				if (ty->members[i].name && !strcmp(ty->members[i].name, c[k].ident))
					break;
			if (i == ty->n_members)
				return LINK_ERR(log, "transform feedback varying \"%s\": no member \"%s\"", name, c[k].ident);
			for (uint32_t j = 0; j < i; j++)
				slot += drv_stype(m, ty->members[j].type) ? drv_stype(m, ty->members[j].type)->slots : 0;
			if (ty->members[i].stream >= 0)
				stream = ty->members[i].stream;
			t = ty->members[i].type;
		}
	}
	{
		uint32_t elems, base = drv_stype_strip_arrays(m, t, &elems);
		const struct drv_sid *bt = drv_stype(m, base);
		if (!bt || bt->op == SpvOpTypeStruct)
			return LINK_ERR(log, "transform feedback varying \"%s\" is a structure (or array of structures); name its members",
					name);
		out->slot = slot;
		out->type = t;
		out->slots = drv_stype(m, t)->slots;
		out->gl_type = drv_stype_gl_enum(m, base);
		out->size = elems;
		out->dwords = drv_stype_dwords(m, t);
		out->stream = stream > 0 ? (uint32_t)stream : 0;
		out->has_double = type_has_double(m, t);
	}
	return XT_OK;
}

static enum xt_rc resolve(const struct drv_smodule *m, enum drv_stage stage, const char *name,
			  const struct drv_builtin_map *maps, unsigned n_maps, struct leaf *out, struct xt_buf *log)
{
	struct comp c[16];
	int n = parse_name(name, c, 16);
	const char *id;

	if (n <= 0 || c[0].index >= 0)
		return LINK_ERR(log, "transform feedback varying \"%s\" is not a valid name", name);
	id = src_ident(maps, n_maps, c[0].ident);
	for (int k = 1; k < n; k++) {
		const char *r = c[k].index < 0 ? src_ident(maps, n_maps, c[k].ident) : c[k].ident;
		if (r != c[k].ident)
			snprintf(c[k].ident, sizeof c[k].ident, "%s", r);
	}
	for (uint32_t i = 0; i < m->n_vars; i++) {
		const struct drv_svar *v = &m->vars[i];
		uint32_t el, bt = drv_stype_strip_arrays(m, v->type, &el);
		const struct drv_sid *b = drv_stype(m, bt);
		bool block = b && b->op == SpvOpTypeStruct && b->block;
		if (v->storage != SpvStorageClassOutput)
			continue;
		out->var = (int32_t)i;
		/* a plain variable */
		if (!block && !strcmp(v->name, id))
			return walk_path(m, name, c, 1, n, v->type, 0, v->stream, out, log);
		if (!block)
			continue;
		/* Block.member (named or anonymous instance) */
		if (b->name && !strcmp(b->name, id) && n > 1)
			return walk_path(m, name, c, 1, n, v->type, 0, v->stream, out, log);
		/* gl_PerVertex members, and members of a block without an
		 * instance name, by their own names (GL 4.6 7.3.1.1) */
		for (uint32_t k = 0; k < b->n_members && v->type == bt; k++)
			if ((b->members[k].builtin >= 0 || !v->name[0]) && b->members[k].name &&
			    !strcmp(b->members[k].name, id)) {
				struct comp cc[17];
				memset(cc, 0, sizeof cc);
				cc[0].index = -1;
				snprintf(cc[0].ident, sizeof cc[0].ident, "%s", id);
				memcpy(cc + 1, c + 1, (size_t)(n - 1) * sizeof c[0]);
				return walk_path(m, name, cc, 0, n, v->type, 0, v->stream, out, log);
			}
	}
	return LINK_ERR(log, "transform feedback varying \"%s\" is not declared as an output of the %s shader",
			name, stage_name(stage));
}

static enum xt_rc add_entry(struct drv_tf_layout *l, const char *name, uint32_t type, uint32_t size, uint32_t buffer,
			    uint32_t offset, const struct leaf *lf)
{
	struct drv_tf_varying *v;
	struct drv_tf_varying *nv = realloc(l->varyings, (l->n_varyings + 1) * sizeof *nv);
	if (!nv)
		return XT_ERR_NOMEM;
	l->varyings = nv;
	v = &nv[l->n_varyings++];
	memset(v, 0, sizeof *v);
	snprintf(v->name, sizeof v->name, "%s", name);
	v->type = type;
	v->size = size;
	v->buffer = buffer;
	v->offset = offset;
	v->out_var = -1;
	if (lf) {
		v->dwords = lf->dwords;
		v->stream = lf->stream;
		v->out_var = lf->var;
		v->out_slot = lf->slot;
		v->out_slots = lf->slots;
	}
	return XT_OK;
}

static enum xt_rc check_streams(struct drv_tf_layout *l, struct xt_buf *log)
{
	for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++) {
		int32_t stream = -1;
		const char *first = NULL;
		for (unsigned i = 0; i < l->n_varyings; i++) {
			const struct drv_tf_varying *v = &l->varyings[i];
			if (v->buffer != b || v->out_var < 0)
				continue;
			if (stream >= 0 && (uint32_t)stream != v->stream)
				return LINK_ERR(log, "transform feedback varyings \"%s\" (stream %d) and \"%s\" (stream %u) are captured into the same buffer %u",
						first, stream, v->name, v->stream, b);
			if (stream < 0) {
				stream = (int32_t)v->stream;
				first = v->name;
			}
		}
		l->buffer_stream[b] = stream > 0 ? (uint32_t)stream : 0;
	}
	return XT_OK;
}

/* The captured leaves of a variable with xfb_offset, in declaration order
 * at consecutive offsets (doubles aligned to 8): struct members one by
 * one, arrays of arrays element by element, arrays of basic types whole. */
struct leaves {
	const struct drv_smodule *m;
	struct drv_tf_layout *l;
	struct xt_buf *log;
	int32_t var;
	uint32_t buffer, offset, stream;
};

static enum xt_rc add_leaves(struct leaves *lv, uint32_t t, const char *name, uint32_t slot)
{
	const struct drv_smodule *m = lv->m;
	const struct drv_sid *ty = drv_stype(m, t), *et = ty ? drv_stype(m, ty->elem) : NULL;
	char nm[96];
	enum xt_rc rc;
	if (!ty)
		return XT_ERR_INVALID;
	if (ty->op == SpvOpTypeStruct) {
		for (uint32_t k = 0; k < ty->n_members; k++) {
			snprintf(nm, sizeof nm, "%s.%s", name, ty->members[k].name ? ty->members[k].name : "");
			if ((rc = add_leaves(lv, ty->members[k].type, nm, slot)) != XT_OK)
				return rc;
			slot += drv_stype(m, ty->members[k].type) ? drv_stype(m, ty->members[k].type)->slots : 0;
		}
		return XT_OK;
	}
	if (ty->op == SpvOpTypeArray && et && (et->op == SpvOpTypeArray || et->op == SpvOpTypeStruct)) {
		for (uint32_t k = 0; k < ty->count; k++) {
			snprintf(nm, sizeof nm, "%s[%u]", name, k);
			if ((rc = add_leaves(lv, ty->elem, nm, slot + k * et->slots)) != XT_OK)
				return rc;
		}
		return XT_OK;
	}
	{
		struct leaf lf;
		uint32_t el, base = drv_stype_strip_arrays(m, t, &el);
		bool dbl = type_has_double(m, t);
		memset(&lf, 0, sizeof lf);
		lf.var = lv->var;
		lf.slot = slot;
		lf.slots = ty->slots;
		lf.dwords = drv_stype_dwords(m, t);
		lf.stream = lv->stream;
		if (dbl && lv->offset % 8)
			return LINK_ERR(lv->log, "xfb_offset %u of double-precision \"%s\" is not a multiple of 8", lv->offset, name);
		if ((rc = add_entry(lv->l, name, drv_stype_gl_enum(m, base), el, lv->buffer, lv->offset, &lf)) != XT_OK)
			return rc;
		lv->offset += lf.dwords * 4;
	}
	return XT_OK;
}

/* Layout from xfb_* decorations. */
static enum xt_rc from_qualifiers(const struct drv_smodule *m, struct drv_tf_layout *l, struct xt_buf *log)
{
	uint32_t end[DRV_MAX_TF_BUFFERS] = { 0 };
	int32_t stride[DRV_MAX_TF_BUFFERS] = { -1, -1, -1, -1 };
	bool dbl[DRV_MAX_TF_BUFFERS] = { false };
	enum xt_rc rc;

	l->from_xfb_qualifiers = true;
	l->mode = DRV_GL_INTERLEAVED_ATTRIBS;
	for (uint32_t i = 0; i < m->n_vars; i++) {
		const struct drv_svar *v = &m->vars[i];
		const struct drv_sid *t = drv_stype(m, v->type);
		uint32_t el, bt = drv_stype_strip_arrays(m, v->type, &el);
		const struct drv_sid *b = drv_stype(m, bt);
		if (v->storage != SpvStorageClassOutput || !t)
			continue;
		if (v->xfb_buffer >= 0 && v->xfb_stride >= 0 && v->xfb_buffer < (int32_t)DRV_MAX_TF_BUFFERS)
			stride[v->xfb_buffer] = v->xfb_stride;
		if (b && b->op == SpvOpTypeStruct && b->block) {
			uint32_t slot = 0;
			for (uint32_t e = 0; e < el; e++)
				for (uint32_t k = 0; k < b->n_members; k++) {
					const struct drv_smember *mb = &b->members[k];
					/* each element of a block array goes to the next buffer */
					int32_t buf = (mb->xfb_buffer >= 0 ? mb->xfb_buffer : v->xfb_buffer) + (int32_t)e;
					struct leaf lf;
					char name[96];
					uint32_t ms = drv_stype(m, mb->type) ? drv_stype(m, mb->type)->slots : 0;
					if (mb->offset >= 0 && buf >= 0) {
						uint32_t mel, mbt = drv_stype_strip_arrays(m, mb->type, &mel);
						memset(&lf, 0, sizeof lf);
						lf.var = (int32_t)i;
						lf.slot = slot;
						lf.slots = ms;
						lf.dwords = drv_stype_dwords(m, mb->type);
						lf.stream = mb->stream >= 0 ? (uint32_t)mb->stream : v->stream > 0 ? (uint32_t)v->stream : 0;
						if (el > 1)
							snprintf(name, sizeof name, "%s[%u].%s", b->name ? b->name : "", e, mb->name ? mb->name : "");
						else if (mb->builtin >= 0 || !v->name[0])
							/* built-ins and members of a block without an
							 * instance name go by their own names (glslang
							 * names such an instance "") */
							snprintf(name, sizeof name, "%s", mb->name ? mb->name : "");
						else
							snprintf(name, sizeof name, "%s.%s", b->name ? b->name : "", mb->name ? mb->name : "");
						if (buf >= (int32_t)DRV_MAX_TF_BUFFERS)
							return LINK_ERR(log, "xfb_buffer %d of \"%s\" is not below MAX_TRANSFORM_FEEDBACK_BUFFERS (%u)",
									buf, name, DRV_MAX_TF_BUFFERS);
						if (type_has_double(m, mb->type) && (mb->offset % 8))
							return LINK_ERR(log, "xfb_offset %d of double-precision \"%s\" is not a multiple of 8", mb->offset, name);
						if ((rc = add_entry(l, name, drv_stype_gl_enum(m, mbt), mel, (uint32_t)buf,
								    (uint32_t)mb->offset, &lf)) != XT_OK)
							return rc;
						if ((uint32_t)mb->offset + lf.dwords * 4 > end[buf])
							end[buf] = (uint32_t)mb->offset + lf.dwords * 4;
						dbl[buf] |= type_has_double(m, mb->type);
					}
					slot += ms;
				}
			continue;
		}
		if (v->xfb_offset >= 0 && v->xfb_buffer >= 0) {
			struct leaves lv = { .m = m, .l = l, .log = log, .var = (int32_t)i,
					     .buffer = (uint32_t)v->xfb_buffer, .offset = (uint32_t)v->xfb_offset,
					     .stream = v->stream > 0 ? (uint32_t)v->stream : 0 };
			if (v->xfb_buffer >= (int32_t)DRV_MAX_TF_BUFFERS)
				return LINK_ERR(log, "xfb_buffer %d of \"%s\" is not below MAX_TRANSFORM_FEEDBACK_BUFFERS (%u)",
						v->xfb_buffer, v->name, DRV_MAX_TF_BUFFERS);
			if ((rc = add_leaves(&lv, v->type, v->name, 0)) != XT_OK)
				return rc;
			if (lv.offset > end[v->xfb_buffer])
				end[v->xfb_buffer] = lv.offset;
			dbl[v->xfb_buffer] |= type_has_double(m, v->type);
		}
	}
	for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++) {
		if (stride[b] >= 0) {
			if ((uint32_t)stride[b] < end[b])
				return LINK_ERR(log, "xfb_stride %d of buffer %u is smaller than the data captured into it (%u bytes)",
						stride[b], b, end[b]);
			if (stride[b] % (dbl[b] ? 8 : 4))
				return LINK_ERR(log, "xfb_stride %d of buffer %u is not a multiple of %u", stride[b], b, dbl[b] ? 8 : 4);
			l->stride_bytes[b] = (uint32_t)stride[b];
		} else if (end[b]) {
			l->stride_bytes[b] = dbl[b] ? (end[b] + 7) / 8 * 8 : end[b];
		}
		if (end[b])
			l->buffer_mask |= 1u << b;
		if (l->stride_bytes[b] / 4 > DRV_MAX_TF_INTERLEAVED_COMPONENTS)
			return LINK_ERR(log, "buffer %u captures %u components, more than MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS (%u)",
					b, l->stride_bytes[b] / 4, DRV_MAX_TF_INTERLEAVED_COMPONENTS);
	}
	return check_streams(l, log);
}

enum xt_rc drv_tf_layout_build(const struct drv_smodule *m, enum drv_stage stage, const struct drv_program_desc *desc,
			       const struct drv_builtin_map *maps, unsigned n_maps, struct drv_tf_layout *l,
			       struct xt_buf *log)
{
	bool separate = desc->tf_mode == DRV_GL_SEPARATE_ATTRIBS;
	uint32_t buffer = 0, offset = 0, total = 0;
	bool qualified = false;
	enum xt_rc rc;

	memset(l, 0, sizeof *l);
	l->mode = separate ? DRV_GL_SEPARATE_ATTRIBS : DRV_GL_INTERLEAVED_ATTRIBS;
	for (uint32_t i = 0; i < m->n_vars && !qualified; i++) {
		const struct drv_svar *v = &m->vars[i];
		uint32_t el, bt = drv_stype_strip_arrays(m, v->type, &el);
		const struct drv_sid *b = drv_stype(m, bt);
		if (v->storage != SpvStorageClassOutput)
			continue;
		if (v->xfb_offset >= 0)
			qualified = true;
		for (uint32_t k = 0; b && b->op == SpvOpTypeStruct && b->block && k < b->n_members; k++)
			if (b->members[k].offset >= 0)
				qualified = true;
	}
	if (qualified || m->xfb)
		return from_qualifiers(m, l, log);
	if (!desc->n_tf_varyings)
		return XT_OK;
	if (separate && desc->n_tf_varyings > DRV_MAX_TF_SEPARATE_ATTRIBS)
		return LINK_ERR(log, "too many transform feedback varyings for GL_SEPARATE_ATTRIBS: %u (MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS is %u)",
				desc->n_tf_varyings, DRV_MAX_TF_SEPARATE_ATTRIBS);
	for (unsigned i = 0; i < desc->n_tf_varyings; i++) {
		const char *name = desc->tf_varyings[i] ? desc->tf_varyings[i] : "";
		struct leaf lf;
		if (!strcmp(name, "gl_NextBuffer")) {
			if (separate)
				return LINK_ERR(log, "gl_NextBuffer is not allowed with GL_SEPARATE_ATTRIBS");
			if (l->stride_bytes[buffer] < offset)
				l->stride_bytes[buffer] = offset;
			buffer++;
			offset = 0;
			if (buffer >= DRV_MAX_TF_BUFFERS)
				return LINK_ERR(log, "gl_NextBuffer used %u times: more buffers than MAX_TRANSFORM_FEEDBACK_BUFFERS (%u)",
						buffer, DRV_MAX_TF_BUFFERS);
			if ((rc = add_entry(l, name, DRV_GL_NONE, 0, buffer, 0, NULL)) != XT_OK)
				return rc;
			continue;
		}
		if (!strncmp(name, "gl_SkipComponents", 17) && name[17] >= '1' && name[17] <= '4' && !name[18]) {
			uint32_t k = (uint32_t)(name[17] - '0');
			if (separate)
				return LINK_ERR(log, "%s is not allowed with GL_SEPARATE_ATTRIBS", name);
			if ((rc = add_entry(l, name, DRV_GL_NONE, k, buffer, offset, NULL)) != XT_OK)
				return rc;
			offset += 4 * k;
			total += k;
			continue;
		}
		if ((rc = resolve(m, stage, name, maps, n_maps, &lf, log)) != XT_OK)
			return rc;
		for (unsigned j = 0; j < l->n_varyings; j++) {
			const struct drv_tf_varying *o = &l->varyings[j];
			if (o->out_var == lf.var && o->out_slot < lf.slot + lf.slots &&
			    lf.slot < o->out_slot + o->out_slots)
				return LINK_ERR(log, "transform feedback varying \"%s\" is specified more than once (as \"%s\")",
						name, o->name);
		}
		if (separate) {
			if (lf.dwords > DRV_MAX_TF_SEPARATE_COMPONENTS)
				return LINK_ERR(log, "transform feedback varying \"%s\" has %u components, more than MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS (%u)",
						name, lf.dwords, DRV_MAX_TF_SEPARATE_COMPONENTS);
			buffer = i;
			offset = 0;
		}
		if ((rc = add_entry(l, name, lf.gl_type, lf.size, buffer, offset, &lf)) != XT_OK)
			return rc;
		offset += lf.dwords * 4;
		total += lf.dwords;
		if (separate)
			l->stride_bytes[buffer] = offset;
		l->buffer_mask |= 1u << buffer;
	}
	if (!separate) {
		if (l->stride_bytes[buffer] < offset)
			l->stride_bytes[buffer] = offset;
		if (total > DRV_MAX_TF_INTERLEAVED_COMPONENTS)
			return LINK_ERR(log, "too many components to capture: %u (MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS is %u)",
					total, DRV_MAX_TF_INTERLEAVED_COMPONENTS);
	}
	for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++)
		if (l->stride_bytes[b])
			l->buffer_mask |= 1u << b;
	return check_streams(l, log);
}
