/*
 * drv_lower_io.c - turns a stage's output variables (regs after
 * drv_spirv_to_ir) into what the hardware stage does with them
 * (docs/isa.md "Shader ABI", docs/gcn-streamout.md §7):
 *
 *   hardware VS   EPILOGUE; exp pos0 (gl_Position); exp param k: the output
 *                 slots feeding PS input k (drv_ps_inputs: a location of a
 *                 fragment shader input); the streamout section:
 *                 SO_BEGIN, one SO_STORE per captured scalar at its TF
 *                 buffer / byte offset, SO_END (drv_emit turns these into
 *                 radeonsi's epilogue: lane < so_vtx_count, address =
 *                 offset[b] * 4 + (write_index + lane) * stride + dst)
 *   ES            EPILOGUE; every output scalar to this lane's ESGS item at
 *                 its location-based dword (drv_io_layout)
 *   GS            EMIT_VERTEX(s): every output of stream s to the GSVS ring
 *                 at the lane's vertex counter for s, s_sendmsg gs_emit,
 *                 counter + 1; END_PRIMITIVE(s): gs_cut; then gs_done
 *   PS            EPILOGUE; exp mrt n per colour output at location n, the
 *                 last `done vm`; exp null done vm when there is none
 *   copy shader   built from nothing: per used stream s (IF stream id ==
 *                 s when several are), GSVS loads of the stream's outputs,
 *                 the position and param exports (stream 0, the one
 *                 rasterized) and the streamout section for the buffers
 *                 fed by s.
 *
 * The vertex counters are regs (one per stream, per lane), so an
 * EmitVertex under divergent control flow counts only the lanes that ran
 * it, as the hardware's per-lane emit counts do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "drv_spirv.h"
#include "isa.h"

typedef uint32_t (*value_fn)(struct drv_ir *ir, const struct drv_smodule *m, uint32_t var, uint32_t slot,
			     const void *ctx);

static uint32_t reg_value(struct drv_ir *ir, const struct drv_smodule *m, uint32_t var, uint32_t slot,
			  const void *ctx)
{
	(void)ctx;
	return drv_ir_reg_read(ir, m->vars[var].reg_base + slot);
}

static uint32_t gsvs_value(struct drv_ir *ir, const struct drv_smodule *m, uint32_t var, uint32_t slot,
			   const void *ctx)
{
	const struct drv_lower_info *info = ctx;
	uint32_t stream = m->vars[var].stream > 0 ? (uint32_t)m->vars[var].stream : 0;
	return drv_ir_op1(ir, DRV_OP_GSVS_LOAD, drv_stype_slot_dwords(m, m->vars[var].type, slot), 0, stream,
			  info->gsvs_dw[var][slot]);
}

/* Slot range of built-in `bi` within output variable v, or false. */
static bool builtin_slots(const struct drv_smodule *m, const struct drv_svar *v, int32_t bi, uint32_t *first,
			  uint32_t *count)
{
	const struct drv_sid *t = drv_stype(m, v->type);
	uint32_t slot = 0;
	if (!t)
		return false;
	if (v->builtin == bi) {
		*first = 0;
		*count = t->slots;
		return true;
	}
	if (t->op != SpvOpTypeStruct)
		return false;
	for (uint32_t k = 0; k < t->n_members; k++) {
		const struct drv_sid *mt = drv_stype(m, t->members[k].type);
		if (t->members[k].builtin == bi) {
			*first = slot;
			*count = mt ? mt->slots : 0;
			return true;
		}
		slot += mt ? mt->slots : 0;
	}
	return false;
}

/* Output variable i of `m` holds built-in `bi` at slots [first, first +
 * count), for the stream `stream` the copy shader exports. */
static bool stream_builtin(const struct drv_smodule *m, uint32_t i, int32_t bi, uint32_t stream, uint32_t *first,
			   uint32_t *count)
{
	const struct drv_svar *v = &m->vars[i];
	return v->storage == SpvStorageClassOutput && builtin_slots(m, v, bi, first, count) &&
	       !(v->stream > 0 && (uint32_t)v->stream != stream);
}

/* The slot in the clip-distance vectors of gl_CullDistance[0]. */
static unsigned cull_base(const struct drv_vs_out_info *o)
{
	unsigned n = 0;
	while (n < 8 && (o->clip_dist >> n))
		n++;
	return n;
}

void drv_vs_outputs(const struct drv_smodule *m, struct drv_vs_out_info *o)
{
	uint32_t first, count;

	memset(o, 0, sizeof *o);
	for (uint32_t i = 0; i < m->n_vars; i++) {
		if (stream_builtin(m, i, SpvBuiltInPointSize, 0, &first, &count) && count == 1)
			o->point_size |= drv_svar_written(&m->vars[i], first);
		if (stream_builtin(m, i, SpvBuiltInClipDistance, 0, &first, &count))
			for (uint32_t j = 0; j < count && j < 8; j++)
				o->clip_dist |= (uint8_t)(drv_svar_written(&m->vars[i], first + j) << j);
	}
	for (uint32_t i = 0; i < m->n_vars; i++)
		if (stream_builtin(m, i, SpvBuiltInCullDistance, 0, &first, &count))
			for (uint32_t j = 0, c = cull_base(o); j < count && c + j < 8; j++)
				o->cull_dist |= (uint8_t)(drv_svar_written(&m->vars[i], first + j) << (c + j));
	uint8_t cc = o->clip_dist | o->cull_dist;
	o->pos_exports = 1 + o->point_size + ((cc & 0x0F) != 0) + ((cc & 0xF0) != 0);
}

/* The position export (1..) and component of clip-distance slot c. */
static unsigned ccdist_export(const struct drv_vs_out_info *o, unsigned c, unsigned *comp)
{
	uint8_t cc = o->clip_dist | o->cull_dist;
	*comp = c % 4;
	return 1 + o->point_size + (c >= 4 && (cc & 0x0F));
}

/* exp pos0 = gl_Position, then the vectors drv_vs_outputs names, packed
 * into pos1.. (the misc vector: (gl_PointSize, 0, 0, 0); clip and cull
 * distances 0..3, 4..7, 0 where not written); the last one `done`. */
static void export_position(struct drv_ir *ir, const struct drv_smodule *m, value_fn val, const void *ctx,
			    uint32_t stream_filter)
{
	struct drv_vs_out_info out;
	struct drv_ins in[4];
	uint32_t first, count, zero = drv_ir_const(ir, 1, 0);

	drv_vs_outputs(m, &out);
	memset(in, 0, sizeof in);
	for (unsigned k = 0; k < out.pos_exports; k++) {
		in[k].op = DRV_OP_EXPORT_POS;
		in[k].n_src = 4;
		in[k].a = k;
		in[k].b = k + 1 == out.pos_exports;
		for (unsigned j = 0; j < 4; j++)
			in[k].src[j] = zero;
	}
	for (uint32_t i = 0; i < m->n_vars; i++) {
		if (stream_builtin(m, i, SpvBuiltInPosition, stream_filter, &first, &count) && count == 4)
			for (unsigned j = 0; j < 4; j++)
				in[0].src[j] = val(ir, m, i, first + j, ctx);
		if (out.point_size && stream_builtin(m, i, SpvBuiltInPointSize, stream_filter, &first, &count) &&
		    count == 1)
			in[1].src[0] = val(ir, m, i, first, ctx);
		if (out.clip_dist && stream_builtin(m, i, SpvBuiltInClipDistance, stream_filter, &first, &count)) {
			for (uint32_t j = 0; j < count && j < 8; j++) {
				unsigned comp, k = ccdist_export(&out, j, &comp);
				if (out.clip_dist >> j & 1)
					in[k].src[comp] = val(ir, m, i, first + j, ctx);
			}
		}
		if (out.cull_dist && stream_builtin(m, i, SpvBuiltInCullDistance, stream_filter, &first, &count)) {
			for (uint32_t j = 0, c = cull_base(&out); j < count && c + j < 8; j++) {
				unsigned comp, k = ccdist_export(&out, c + j, &comp);
				if (out.cull_dist >> (c + j) & 1)
					in[k].src[comp] = val(ir, m, i, first + j, ctx);
			}
		}
	}
	for (unsigned k = 0; k < out.pos_exports; k++)
		drv_ir_emit(ir, &in[k]);
}

static void streamout(struct drv_ir *ir, const struct drv_smodule *m, const struct drv_tf_layout *tf, unsigned stream,
		      value_fn val, const void *ctx)
{
	bool any = false;
	for (unsigned i = 0; i < tf->n_varyings; i++)
		any |= tf->varyings[i].out_var >= 0 && tf->varyings[i].stream == stream;
	if (!any)
		return;
	drv_ir_op0(ir, DRV_OP_SO_BEGIN, 0, stream, 0);
	for (unsigned i = 0; i < tf->n_varyings; i++) {
		const struct drv_tf_varying *t = &tf->varyings[i];
		uint32_t off = t->offset;
		if (t->out_var < 0 || t->stream != stream)
			continue;
		for (uint32_t s = 0; s < t->out_slots; s++) {
			uint32_t slot = t->out_slot + s, v = val(ir, m, (uint32_t)t->out_var, slot, ctx);
			drv_ir_op0(ir, DRV_OP_SO_STORE, v, t->buffer, off);
			off += 4 * drv_stype_slot_dwords(m, m->vars[t->out_var].type, slot);
		}
	}
	drv_ir_op0(ir, DRV_OP_SO_END, 0, stream, 0);
}

/* ES: dword of output slot `j` of v in the ESGS item, false if not passed. */
static bool esgs_dw(const struct drv_smodule *m, const struct drv_svar *v, const struct drv_io_layout *l, uint32_t j,
		    uint32_t *dw)
{
	const struct drv_sid *t = drv_stype(m, v->type);
	char key[96];
	if (t && t->op == SpvOpTypeStruct && t->block) {
		uint32_t slot = j;
		for (uint32_t k = 0; k < t->n_members; k++) {
			const struct drv_sid *mt = drv_stype(m, t->members[k].type);
			uint32_t ms = mt ? mt->slots : 0;
			if (slot < ms) {
				switch (t->members[k].builtin) {
				case SpvBuiltInPosition: *dw = l->pos_dw + slot; return true;
				case SpvBuiltInPointSize: *dw = l->psize_dw; return true;
				case SpvBuiltInClipDistance: *dw = l->clip_dw + slot; return slot < 8;
				default:
					drv_io_key(m, v, v->type, (int)k, key, sizeof key);
					if (!drv_io_lookup(l, key, dw))
						return false;
					*dw += drv_stype_slot_dword_offset(m, t->members[k].type, slot);
					return true;
				}
			}
			slot -= ms;
		}
		return false;
	}
	if (v->builtin == SpvBuiltInPosition) { *dw = l->pos_dw + j; return true; }
	if (v->builtin == SpvBuiltInPointSize) { *dw = l->psize_dw; return true; }
	if (v->builtin == SpvBuiltInClipDistance) { *dw = l->clip_dw + j; return j < 8; }
	drv_io_key(m, v, 0, -1, key, sizeof key);
	if (!drv_io_lookup(l, key, dw))
		return false;
	*dw += drv_stype_slot_dword_offset(m, v->type, j);
	return true;
}

/* Moves the last `k` instructions to the front (a prologue). */
static void rotate_to_front(struct drv_ir *ir, uint32_t k)
{
	uint32_t n = ir->n_ins, n0 = n - k;
	struct drv_ins *tmp;
	if (!k || ir->oom)
		return;
	tmp = malloc(k * sizeof *tmp);
	if (!tmp) {
		ir->oom = true;
		return;
	}
	memcpy(tmp, ir->ins + n0, k * sizeof *tmp);
	memmove(ir->ins + k, ir->ins, n0 * sizeof *tmp);
	memcpy(ir->ins, tmp, k * sizeof *tmp);
	free(tmp);
	for (uint32_t v = 1; v < ir->n_vals; v++)
		ir->vals[v].def = ir->vals[v].def >= n0 ? ir->vals[v].def - n0 : ir->vals[v].def + k;
}

static enum xt_rc lower_gs(struct drv_ir *ir, const struct drv_smodule *m, const struct drv_lower_info *info,
			   struct xt_err *err)
{
	uint32_t counter[DRV_MAX_VERTEX_STREAMS], n0 = ir->n_ins, n_old;
	struct drv_ins *old;

	for (unsigned s = 0; s < DRV_MAX_VERTEX_STREAMS; s++) {
		counter[s] = drv_ir_new_reg(ir, 1);
		drv_ir_reg_write(ir, counter[s], drv_ir_const(ir, 1, 0));
	}
	rotate_to_front(ir, ir->n_ins - n0);
	/* rebuild the list, expanding EMIT_VERTEX / END_PRIMITIVE */
	n_old = ir->n_ins;
	old = ir->ins;
	ir->ins = NULL;
	ir->n_ins = ir->cap_ins = 0;
	for (uint32_t i = 0; i < n_old && !ir->oom; i++) {
		const struct drv_ins *in = &old[i];
		if (in->op == DRV_OP_EMIT_VERTEX) {
			uint32_t s = in->a, cnt = drv_ir_reg_read(ir, counter[s]);
			for (uint32_t vi = 0; vi < m->n_vars; vi++) {
				const struct drv_svar *v = &m->vars[vi];
				uint32_t vs = v->stream > 0 ? (uint32_t)v->stream : 0;
				if (v->storage != SpvStorageClassOutput || vs != s || !info->gsvs_dw[vi])
					continue;
				for (uint32_t j = 0; j < v->slots; j++) {
					struct drv_ins st = { .op = DRV_OP_GSVS_STORE, .n_src = 2, .a = s,
							      .b = info->gsvs_dw[vi][j] };
					st.src[0] = drv_ir_reg_read(ir, v->reg_base + j);
					st.src[1] = cnt;
					drv_ir_emit(ir, &st);
				}
			}
			drv_ir_op0(ir, DRV_OP_GS_MSG, 0, ISA_MSG_GS_EMIT, s);
			drv_ir_reg_write(ir, counter[s], drv_ir_valu(ir, ISA_OP_V_ADD_U32, 1, cnt, drv_ir_const(ir, 1, 1), 0));
			continue;
		}
		if (in->op == DRV_OP_END_PRIMITIVE) {
			drv_ir_op0(ir, DRV_OP_GS_MSG, 0, ISA_MSG_GS_CUT, in->a);
			continue;
		}
		{
			/* copy, keeping the value's def index in step */
			struct drv_ins *dst;
			if (ir->n_ins == ir->cap_ins) {
				uint32_t nc = ir->cap_ins ? ir->cap_ins * 2 : 256;
				struct drv_ins *p = realloc(ir->ins, nc * sizeof *p);
				if (!p) {
					ir->oom = true;
					break;
				}
				ir->ins = p;
				ir->cap_ins = nc;
			}
			dst = &ir->ins[ir->n_ins];
			*dst = *in;
			if (dst->dst)
				ir->vals[dst->dst].def = ir->n_ins;
			ir->n_ins++;
		}
	}
	free(old);
	drv_ir_op0(ir, DRV_OP_EPILOGUE, 0, 0, 0);
	drv_ir_op0(ir, DRV_OP_GS_MSG, 0, ISA_MSG_GS_DONE, 0);
	if (ir->oom)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	return XT_OK;
}

/* A user (located, non-built-in) input or output of at most 4 scalars at
 * one location: the interface of the colour outputs. */
static bool simple_io(const struct drv_smodule *m, const struct drv_svar *v)
{
	const struct drv_sid *t = drv_stype(m, v->type);
	return v->location >= 0 && v->builtin < 0 && t && v->slots <= 4 &&
	       (t->op == SpvOpTypeFloat || t->op == SpvOpTypeInt || t->op == SpvOpTypeVector) &&
	       drv_stype_slot_dwords(m, v->type, 0) == 1;
}

/* Whether every slot of v is 32 bits: what a param channel carries.
 * 64-bit inputs (flat doubles) would take two channels a slot. */
static bool slots_32bit(const struct drv_smodule *m, const struct drv_svar *v)
{
	for (uint32_t j = 0; j < v->slots; j++)
		if (drv_stype_slot_dwords(m, v->type, j) != 1)
			return false;
	return true;
}

/* The member of block variable v holding slot `slot`, and the member's
 * first slot in *first; -1 when v is not an interface block. */
static int block_member(const struct drv_smodule *m, const struct drv_svar *v, uint32_t slot, uint32_t *first)
{
	const struct drv_sid *t = drv_stype(m, v->type);
	uint32_t base = 0;
	if (!t || t->op != SpvOpTypeStruct || !t->block)
		return -1;
	for (uint32_t q = 0; q < t->n_members; q++) {
		const struct drv_sid *mt = drv_stype(m, t->members[q].type);
		uint32_t n = mt ? mt->slots : 0;
		if (slot < base + n) {
			*first = base;
			return (int)q;
		}
		base += n;
	}
	return -1;
}

/* Inserts PS input `pi` into in[0 .. n) by (location, component). */
static void insert_ps_input(const struct drv_smodule *fs, struct drv_ps_input *in, int n,
			    const struct drv_ps_input *pi)
{
	const struct drv_svar *v = &fs->vars[pi->var];
	int32_t loc = v->location + (int32_t)pi->loc;
	int k = n;
	for (; k > 0; k--) {
		const struct drv_svar *w = &fs->vars[in[k - 1].var];
		int32_t wl = w->location + (int32_t)in[k - 1].loc;
		if (wl < loc || (wl == loc && w->component <= v->component))
			break;
		in[k] = in[k - 1];
	}
	in[k] = *pi;
}

int drv_ps_inputs(const struct drv_smodule *fs, struct drv_ps_input in[32], char *why, size_t why_size)
{
	int n = 0;
	for (uint32_t i = 0; i < fs->n_vars; i++) {
		const struct drv_svar *v = &fs->vars[i];
		uint32_t locs;
		if (v->storage != SpvStorageClassInput)
			continue;
		if (v->builtin == SpvBuiltInFrontFacing || v->builtin == SpvBuiltInFragCoord)
			continue;                  /* system values (FRONT_FACE, POS_*), not interpolated */
		if (v->builtin == SpvBuiltInPointCoord && n < 32) {
			/* a PS input whose x, y the SC replaces by the point
			 * sprite's s, t (SPI_PS_INPUT_CNTL_n.PT_SPRITE_TEX,
			 * radeonsi's sprite_coord_enable); no VS output feeds it */
			struct drv_ps_input pi = { .var = i, .loc = 0, .sprite = true };
			insert_ps_input(fs, in, n++, &pi);
			continue;
		}
		if (v->builtin >= 0) {
			snprintf(why, why_size, "a fragment shader built-in input other than gl_FrontFacing, "
				 "gl_FragCoord and gl_PointCoord (gl_SampleID, gl_SamplePosition ...)");
			return -1;
		}
		if (v->location < 0) {
			snprintf(why, why_size, "a fragment shader input without a location ('%s')", v->name);
			return -1;
		}
		if (!slots_32bit(fs, v)) {
			snprintf(why, why_size, "a 64-bit fragment shader input ('%s')", v->name);
			return -1;
		}
		/* one param per location the variable takes; the slots of a
		 * location belong to one array element / column / member */
		locs = drv_stype_locations(fs, v->type);
		for (uint32_t l = 0; l < locs; l++) {
			struct drv_ps_input pi = { .var = i, .loc = l, .flat = v->flat,
						   .noperspective = v->noperspective };
			for (uint32_t j = 0; j < v->slots; j++) {
				const struct drv_sid *bt = drv_stype(fs, v->type);
				uint32_t first;
				int q;
				if (drv_stype_slot_loc_dword(fs, v->type, j) / 4 != l)
					continue;
				if ((q = block_member(fs, v, j, &first)) >= 0) {
					pi.flat |= bt->members[q].flat;
					pi.noperspective |= bt->members[q].noperspective;
				}
				break;
			}
			if (n == 32) {
				snprintf(why, why_size, "fragment shader inputs in more locations than the "
					 "hardware's 32 params ('%s' from location %d on)", v->name,
					 v->location + (int32_t)l);
				return -1;
			}
			insert_ps_input(fs, in, n++, &pi);
		}
	}
	return n;
}

int drv_ps_input_find(const struct drv_smodule *fs, const struct drv_ps_input *in, int n, uint32_t var,
		      uint32_t slot, unsigned *chan)
{
	unsigned dw = drv_stype_slot_loc_dword(fs, fs->vars[var].type, slot);
	for (int k = 0; k < n; k++)
		if (in[k].var == var && in[k].loc == dw / 4) {
			*chan = dw % 4;
			return k;
		}
	return -1;
}

unsigned drv_ps_input_vgpr(uint32_t ena, unsigned bit)
{
	/* VGPRs per SPI_PS_INPUT_ENA group (docs/isa.md "Pixel shaders") */
	static const unsigned size[16] = { 2, 2, 2, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	unsigned v = 0;
	for (unsigned b = 0; b < bit && b < 16; b++)
		if (ena >> b & 1)
			v += size[b];
	return v;
}

int drv_ps_input_source(const struct drv_smodule *m, const struct drv_smodule *fs, uint32_t in, uint32_t slot,
			uint32_t *src_slot)
{
	const struct drv_svar *f = &fs->vars[in];
	const struct drv_sid *ft = drv_stype(fs, f->type);
	uint32_t first = 0;
	int q = block_member(fs, f, slot, &first);
	char want[96], key[96];

	drv_io_key(fs, f, f->type, q, want, sizeof want);
	for (uint32_t i = 0; i < m->n_vars; i++) {
		const struct drv_svar *v = &m->vars[i];
		const struct drv_sid *t = drv_stype(m, v->type);
		uint32_t base = 0;
		/* only stream 0 reaches the rasterizer (GL 4.6 §11.3.4.2) */
		if (v->storage != SpvStorageClassOutput || v->builtin >= 0 || v->stream > 0 || !t)
			continue;
		if (q < 0) {
			drv_io_key(m, v, 0, -1, key, sizeof key);
			if (strcmp(key, want) || v->slots != f->slots)
				continue;
			*src_slot = slot;
			return (int)i;
		}
		/* a block member: matched by block and member name */
		if (t->op != SpvOpTypeStruct || !t->block)
			continue;
		for (uint32_t r = 0; r < t->n_members; r++) {
			const struct drv_sid *mt = drv_stype(m, t->members[r].type);
			const struct drv_sid *fm = drv_stype(fs, ft->members[q].type);
			uint32_t n = mt ? mt->slots : 0;
			drv_io_key(m, v, v->type, (int)r, key, sizeof key);
			if (!strcmp(key, want) && fm && n == fm->slots) {
				*src_slot = base + (slot - first);
				return (int)i;
			}
			base += n;
		}
	}
	return -1;
}

/* Hardware VS or copy shader: param k = PS input k, each channel the
 * output slot feeding it (`val`: the stage's value of an output slot);
 * what no output writes is 0, w 1. */
static void export_params(struct drv_ir *ir, const struct drv_smodule *m, const struct drv_lower_info *info,
			  value_fn val, const void *ctx)
{
	const struct drv_smodule *fs = info->ps_mod;
	for (unsigned k = 0; k < info->n_params; k++) {
		const struct drv_ps_input *pi = &info->ps_inputs[k];
		const struct drv_svar *f = &fs->vars[pi->var];
		struct drv_ins in = { .op = DRV_OP_EXPORT_PARAM, .n_src = 4, .a = k };
		for (unsigned c = 0; c < 4; c++)
			in.src[c] = drv_ir_const(ir, 1, c == 3 ? 0x3F800000u : 0);
		for (uint32_t j = 0; j < f->slots; j++) {
			unsigned dw = drv_stype_slot_loc_dword(fs, f->type, j);
			uint32_t src_slot;
			int src;
			if (dw / 4 != pi->loc)
				continue;
			src = drv_ps_input_source(m, fs, pi->var, j, &src_slot);
			if (src >= 0 && src_slot < m->vars[src].slots &&
			    drv_stype_slot_dwords(m, m->vars[src].type, src_slot) == 1)
				in.src[dw % 4] = val(ir, m, (uint32_t)src, src_slot, ctx);
		}
		drv_ir_emit(ir, &in);
	}
}

/* A colour output's locations (*locs: 1, or the elements of an array of
 * scalars / vectors, element i at location + i: GL 4.6 §15.2.3, so
 * gl_FragData[n] of a legacy shader, translated to xt_FragData[8], goes
 * to draw buffer n) and the slots of each; false for other outputs. */
static bool color_output(const struct drv_smodule *m, const struct drv_svar *v, uint32_t *locs, uint32_t *per)
{
	const struct drv_sid *t = drv_stype(m, v->type), *e;
	if (v->location < 0 || v->builtin >= 0 || v->component > 0 || !t)
		return false;
	if (simple_io(m, v)) {
		*locs = 1;
		*per = v->slots;
		return true;
	}
	e = t->op == SpvOpTypeArray ? drv_stype(m, t->elem) : NULL;
	if (!e || !t->count || (e->op != SpvOpTypeFloat && e->op != SpvOpTypeInt && e->op != SpvOpTypeVector) ||
	    v->slots % t->count || v->slots / t->count > 4 || drv_stype_slot_dwords(m, v->type, 0) != 1)
		return false;
	*locs = t->count;
	*per = v->slots / t->count;
	return true;
}

/* PS: gl_FragDepth and gl_SampleMask[0] to mrtz (x = depth, z = the mask;
 * SPI_SHADER_Z_FORMAT 32_R, 32_ABGR with the mask, DB_SHADER_CONTROL
 * Z_EXPORT_ENABLE / MASK_EXPORT_ENABLE), first, then every colour output
 * (location n, index 0) to mrt n, the last export `done`; exp null when
 * there is none (radeonsi's epilogue, si_export_mrt_z then the colours). */
static enum xt_rc export_colors(struct drv_ir *ir, const struct drv_smodule *m, struct xt_err *err)
{
	int last = -1, depth = -1, mask = -1;
	for (uint32_t i = 0; i < m->n_vars; i++) {
		const struct drv_svar *v = &m->vars[i];
		if (v->storage != SpvStorageClassOutput)
			continue;
		if (v->builtin == SpvBuiltInFragDepth && v->slots == 1) {
			depth = (int)i;
			continue;
		}
		if (v->builtin == SpvBuiltInSampleMask && v->slots == 1) {
			mask = (int)i;   /* int gl_SampleMask[1]: at most 32 samples */
			continue;
		}
		uint32_t locs, per;
		if (!color_output(m, v, &locs, &per) || (uint32_t)v->location + locs > 8)
			return XT_FAIL(err, XT_ERR_UNSUPPORTED, "a fragment shader output other than a colour "
				       "(or an array of colours) of at most 4 components at locations 0..7 ('%s')",
				       v->name);
		last = (int)i;
	}
	if (depth >= 0 || mask >= 0) {
		struct drv_ins in = { .op = DRV_OP_EXPORT_MRT, .n_src = 4, .a = DRV_EXPORT_MRTZ, .b = last < 0 };
		for (unsigned c = 0; c < 4; c++)
			in.src[c] = drv_ir_const(ir, 1, 0);
		if (depth >= 0)
			in.src[0] = drv_ir_reg_read(ir, m->vars[depth].reg_base);
		if (mask >= 0)
			in.src[2] = drv_ir_reg_read(ir, m->vars[mask].reg_base);
		drv_ir_emit(ir, &in);
		if (last < 0)
			return XT_OK;
	}
	if (last < 0) {
		struct drv_ins in = { .op = DRV_OP_EXPORT_MRT, .n_src = 0, .a = 8, .b = 1 };
		drv_ir_emit(ir, &in);
		return XT_OK;
	}
	for (uint32_t i = 0; i < m->n_vars; i++) {
		const struct drv_svar *v = &m->vars[i];
		uint32_t locs = 0, per = 0;
		if (v->storage != SpvStorageClassOutput || (int)i == depth || (int)i == mask)
			continue;
		color_output(m, v, &locs, &per);
		for (uint32_t l = 0; l < locs; l++) {
			struct drv_ins in = { .op = DRV_OP_EXPORT_MRT, .n_src = 4, .a = (uint32_t)v->location + l,
					      .b = (int)i == last && l == locs - 1 };
			for (unsigned c = 0; c < 4; c++)
				in.src[c] = c < per ? drv_ir_reg_read(ir, v->reg_base + l * per + c)
						    : drv_ir_const(ir, 1, c == 3 ? 0x3F800000u : 0);
			drv_ir_emit(ir, &in);
		}
	}
	return XT_OK;
}

enum xt_rc drv_lower_io(struct drv_ir *ir, const struct drv_smodule *m, const struct drv_lower_info *info,
			struct xt_err *err)
{
	enum xt_rc rc;

	switch (ir->stage) {
	case DRV_HW_PS:
		drv_ir_op0(ir, DRV_OP_EPILOGUE, 0, 0, 0);
		if ((rc = export_colors(ir, m, err)) != XT_OK)
			return rc;
		break;
	case DRV_HW_VS:
		drv_ir_op0(ir, DRV_OP_EPILOGUE, 0, 0, 0);
		export_position(ir, m, reg_value, NULL, 0);
		export_params(ir, m, info, reg_value, NULL);
		if (info->tf && info->tf->n_varyings)
			streamout(ir, m, info->tf, 0, reg_value, NULL);
		break;
	case DRV_HW_ES:
		drv_ir_op0(ir, DRV_OP_EPILOGUE, 0, 0, 0);
		for (uint32_t i = 0; i < m->n_vars; i++) {
			const struct drv_svar *v = &m->vars[i];
			if (v->storage != SpvStorageClassOutput)
				continue;
			for (uint32_t j = 0; j < v->slots; j++) {
				uint32_t dw;
				if (!esgs_dw(m, v, info->esgs, j, &dw) || dw >= info->esgs->itemsize_dw)
					continue;
				drv_ir_op0(ir, DRV_OP_ESGS_STORE, drv_ir_reg_read(ir, v->reg_base + j), 0, dw * 4);
			}
		}
		break;
	case DRV_HW_GS:
		return lower_gs(ir, m, info, err);
	default:
		return XT_FAIL(err, XT_ERR_INTERNAL, "drv_lower_io: unexpected stage %d", ir->stage);
	}
	if (ir->oom)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	return XT_OK;
}

enum xt_rc drv_build_copy_shader(struct drv_ir *ir, const struct drv_smodule *gs, const struct drv_lower_info *info,
				 struct xt_err *err)
{
	unsigned streams = info->gs->streams_used ? info->gs->streams_used : 1, n = 0;
	for (unsigned s = 0; s < DRV_MAX_VERTEX_STREAMS; s++)
		n += streams >> s & 1;
	for (unsigned s = 0; s < DRV_MAX_VERTEX_STREAMS; s++) {
		if (!(streams >> s & 1))
			continue;
		if (n > 1) {
			uint32_t id = drv_ir_op1(ir, DRV_OP_LOAD_SYSVAL, 1, 0, DRV_SV_STREAM_ID, 0);
			drv_ir_op0(ir, DRV_OP_IF, drv_ir_cmp(ir, ISA_OP_V_CMP_EQ_I32, id, drv_ir_const(ir, 1, s)), 0, 0);
		}
		if (s == 0) {
			export_position(ir, gs, gsvs_value, info, 0);
			export_params(ir, gs, info, gsvs_value, info);
		}
		if (info->tf && info->tf->n_varyings)
			streamout(ir, gs, info->tf, s, gsvs_value, info);
		if (n > 1)
			drv_ir_op0(ir, DRV_OP_ENDIF, 0, 0, 0);
	}
	if (ir->oom)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	return XT_OK;
}
