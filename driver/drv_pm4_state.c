/*
 * drv_pm4_state.c - everything a draw emits besides streamout: the IB
 * preamble, the state atoms (shader + SPI registers, rasterizer discard,
 * primitive restart), the descriptor table and user SGPRs of the shader
 * ABI (drv_shader.h), the upload ring, and the draw packets, in
 * radeonsi's order (si_draw_vbo: atoms, shader pm4 state, descriptors and
 * user SGPRs, then si_emit_draw_registers and si_emit_draw_packets).
 *
 * Vertex attributes become typed buffer descriptors (DRV_DESC_VB(loc)) as
 * radeonsi's vertex-buffer descriptors do; attributes without an array
 * become stride-0 descriptors over their 16-byte current value; client
 * memory (compatibility / ES) is copied into the upload ring for the range
 * the draw reads, as u_upload_mgr does for radeonsi.
 *
 * A program with a geometry shader runs as ES -> GS -> copy shader:
 * drv_pm4_gs.c emits that state in place of the VS's, the ring
 * descriptors and sizes, and the draw loads the user SGPRs of all three
 * stages (the ES's for indirect draws).
 *
 * The upload ring (descriptors, constants, client arrays and indices) is
 * a BO reused from the start whenever a draw does not fit: the pending IB
 * is submitted first, so nothing in flight still reads it.
 */
#include <math.h>
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

#define RING_BYTES (4u << 20)

/* ---- preamble and upload ring ----------------------------------------------------- */

static void emit_preamble(struct drv_context *ctx)
{
	struct pm4_cs *cs = drv_ws_cs(&ctx->screen->ws, 32);

	pm4_context_control(cs, 0x80000000u, 0x80000000u);
	pm4_set_context_reg(cs, REG_VGT_GS_MODE, VGT_GS_MODE_MODE(V_GS_OFF));
	pm4_set_context_reg(cs, REG_VGT_SHADER_STAGES_EN, 0);
	ctx->hw.gs_on = false;
	pm4_set_context_reg(cs, REG_VGT_INDX_OFFSET, 0);
	pm4_set_context_reg(cs, REG_VGT_STRMOUT_DRAW_OPAQUE_OFFSET, 0);
}

void drv_pm4_init(struct drv_context *ctx)
{
	ctx->hw.dirty = (1u << DRV_ATOM_COUNT) - 1;
	emit_preamble(ctx);
	ctx->hw.dirty &= ~(1u << DRV_ATOM_INIT);
	drv_gl_flush(ctx);
}

void drv_pm4_invalidate(struct drv_context *ctx)
{
	struct drv_hw *hw = &ctx->hw;

	emit_preamble(ctx);                        /* GS off, opaque offset 0 ... */
	hw->dirty = ((1u << DRV_ATOM_COUNT) - 1) & ~(1u << DRV_ATOM_INIT);
	hw->prim_type = hw->index_type = hw->gs_out_prim = hw->num_instances = 0;
	hw->vs_va = 0;
	hw->strmout_known = false;
	hw->opaque_offset = 0;
	hw->gs_rings_emitted = false;
}

/*
 * radeonsi suspends streamout and queries at the end of each IB and
 * resumes them at the start of the context's next one; the model submits
 * one IB per call and keeps the VGT state across IBs, so while one context
 * has streamout running or a query counting, another context's draws
 * would land in them.  Such interleavings are reported, never replayed
 * wrong.
 */
bool drv_pm4_gpu_free(struct drv_context *ctx)
{
	if (!drv_gl_other_context_busy(ctx))
		return true;
	drv_gl_unsupported(ctx, "drawing, streamout or a query in one context while another context "
			   "has transform feedback or a query active (the sim does not suspend them "
			   "across contexts)");
	return false;
}

void drv_pm4_fini(struct drv_context *ctx)
{
	drv_bo_destroy(&ctx->screen->ws, ctx->hw.ring);
	drv_bo_destroy(&ctx->screen->ws, ctx->hw.esgs_ring);
	drv_bo_destroy(&ctx->screen->ws, ctx->hw.gsvs_ring);
	ctx->hw.ring = ctx->hw.esgs_ring = ctx->hw.gsvs_ring = NULL;
}

/* Makes room for `bytes` in the ring; false when out of memory. */
static bool ring_reserve(struct drv_context *ctx, uint64_t bytes)
{
	struct drv_hw *hw = &ctx->hw;

	if (hw->ring && hw->ring_used + bytes <= hw->ring->size_bytes)
		return true;
	drv_gl_flush(ctx);
	if (!hw->ring || bytes > hw->ring->size_bytes) {
		uint64_t size = RING_BYTES;
		while (size < bytes)
			size *= 2;
		drv_bo_destroy(&ctx->screen->ws, hw->ring);
		hw->ring = drv_bo_create(&ctx->screen->ws, size, 256);
		if (!hw->ring)
			return false;
	}
	hw->ring_used = 0;
	hw->ring_generation++;
	return true;
}

uint64_t drv_pm4_upload(struct drv_context *ctx, const void *data, uint64_t n, uint64_t align)
{
	struct drv_hw *hw = &ctx->hw;
	uint64_t at;

	if (!align)
		align = 4;
	at = (hw->ring_used + align - 1) & ~(align - 1);
	if (!hw->ring || at + n > hw->ring->size_bytes) {
		if (!ring_reserve(ctx, n + align))
			return 0;
		at = 0;
	}
	if (data && n)
		memcpy(hw->ring->map + at, data, n);
	hw->ring_used = at + n;
	return hw->ring->va + at;
}

/* Every hardware stage's binary (the VS, or ES + GS + copy shader) goes
 * into the one code BO, 256-byte aligned (drv_pm4_code_offset). */
bool drv_pm4_program_upload(struct drv_context *ctx, struct drv_program_obj *p)
{
	const struct drv_program *prog = p->prog;

	drv_bo_destroy(&ctx->screen->ws, p->code_bo);
	p->code_bo = NULL;
	if (!prog->hw[DRV_HW_VS].present && !prog->hw[DRV_HW_COPY].present)
		return true;
	p->code_bo = drv_bo_create(&ctx->screen->ws, drv_pm4_code_offset(prog, DRV_HW_COUNT), 256);
	if (!p->code_bo)
		return false;
	for (unsigned hw = 0; hw < DRV_HW_COUNT; hw++)
		if (prog->hw[hw].present)
			memcpy(p->code_bo->map + drv_pm4_code_offset(prog, (enum drv_hw_stage)hw),
			       prog->hw[hw].code, (size_t)prog->hw[hw].size_dw * 4);
	return true;
}

/* ---- atoms ---------------------------------------------------------------------------- */

static void emit_shader(struct drv_context *ctx, struct pm4_cs *cs, const struct drv_program_obj *p)
{
	const struct drv_stage_binary *vs = &p->prog->hw[DRV_HW_VS];
	uint32_t rsrc1 = SPI_SHADER_PGM_RSRC1_VS_VGPRS((vs->num_vgprs ? vs->num_vgprs - 1 : 0) / 4) |
			 SPI_SHADER_PGM_RSRC1_VS_SGPRS((vs->num_sgprs ? vs->num_sgprs - 1 : 0) / 8);
	uint32_t rsrc2 = SPI_SHADER_PGM_RSRC2_VS_USER_SGPR(vs->user_sgprs) |
			 SPI_SHADER_PGM_RSRC2_VS_SO_EN(vs->so_en) |
			 SPI_SHADER_PGM_RSRC2_VS_SO_BASE0_EN(vs->so_base_en & 1) |
			 SPI_SHADER_PGM_RSRC2_VS_SO_BASE1_EN(vs->so_base_en >> 1 & 1) |
			 SPI_SHADER_PGM_RSRC2_VS_SO_BASE2_EN(vs->so_base_en >> 2 & 1) |
			 SPI_SHADER_PGM_RSRC2_VS_SO_BASE3_EN(vs->so_base_en >> 3 & 1);
	uint64_t va = p->code_bo->va;

	ctx->hw.vs_va = va;
	if (p->prog->has_gs) {
		drv_pm4_gs_emit_shaders(ctx, cs, p);
		return;
	}
	drv_pm4_gs_emit_off(ctx, cs);
	if (pm4_set_reg_seq(cs, REG_SPI_SHADER_PGM_LO_VS, 4)) {
		pm4_emit(cs, (uint32_t)(va >> 8));
		pm4_emit(cs, SPI_SHADER_PGM_HI_VS_MEM_BASE((uint32_t)(va >> 40)));
		pm4_emit(cs, rsrc1);
		pm4_emit(cs, rsrc2);
	}
}

static void emit_atoms(struct drv_context *ctx, struct pm4_cs *cs, const struct drv_program_obj *p,
		       bool indexed, GLenum index_type)
{
	struct drv_hw *hw = &ctx->hw;

	if (hw->dirty & (1u << DRV_ATOM_INIT))
		emit_preamble(ctx);
	if ((hw->dirty & (1u << DRV_ATOM_SHADER)) || hw->vs_va != p->code_bo->va)
		emit_shader(ctx, cs, p);
	if (hw->dirty & (1u << DRV_ATOM_RASTER))
		pm4_set_context_reg(cs, REG_PA_CL_CLIP_CNTL,
				    PA_CL_CLIP_CNTL_DX_RASTERIZATION_KILL(ctx->rasterizer_discard));
	if (indexed) {
		bool en = ctx->primitive_restart || ctx->primitive_restart_fixed;
		uint32_t idx = ctx->primitive_restart_fixed
				       ? (index_type == GL_UNSIGNED_BYTE ? 0xFFu :
					  index_type == GL_UNSIGNED_SHORT ? 0xFFFFu : 0xFFFFFFFFu)
				       : ctx->restart_index;
		/* The fixed index depends on the index type: re-emit when it may differ. */
		if ((hw->dirty & (1u << DRV_ATOM_RESTART)) || ctx->primitive_restart_fixed) {
			pm4_set_context_reg(cs, REG_VGT_MULTI_PRIM_IB_RESET_EN,
					    VGT_MULTI_PRIM_IB_RESET_EN_RESET_EN(en));
			if (en)
				pm4_set_context_reg(cs, REG_VGT_MULTI_PRIM_IB_RESET_INDX, idx);
			hw->dirty &= ~(1u << DRV_ATOM_RESTART);
		}
	}
	hw->dirty &= ~((1u << DRV_ATOM_INIT) | (1u << DRV_ATOM_SHADER) | (1u << DRV_ATOM_RASTER));
}

/* ---- descriptors ------------------------------------------------------------------------ */

static void buf_desc(uint32_t d[4], uint64_t va, uint32_t stride, uint32_t num_records,
		     uint32_t data_format, uint32_t num_format, const uint32_t sel[4])
{
	d[0] = SQ_BUF_RSRC_WORD0_BASE_ADDRESS((uint32_t)va);
	d[1] = SQ_BUF_RSRC_WORD1_BASE_ADDRESS_HI((uint32_t)(va >> 32)) |
	       SQ_BUF_RSRC_WORD1_STRIDE(stride);
	d[2] = SQ_BUF_RSRC_WORD2_NUM_RECORDS(num_records);
	d[3] = SQ_BUF_RSRC_WORD3_DST_SEL_X(sel[0]) | SQ_BUF_RSRC_WORD3_DST_SEL_Y(sel[1]) |
	       SQ_BUF_RSRC_WORD3_DST_SEL_Z(sel[2]) | SQ_BUF_RSRC_WORD3_DST_SEL_W(sel[3]) |
	       SQ_BUF_RSRC_WORD3_NUM_FORMAT(num_format) |
	       SQ_BUF_RSRC_WORD3_DATA_FORMAT(data_format);
}

static const uint32_t sel_xyzw[4] = { V_SQ_SEL_X, V_SQ_SEL_Y, V_SQ_SEL_Z, V_SQ_SEL_W };

/* Hardware format of a vertex attribute; false (with why) when not modelled. */
static bool vertex_format(const struct drv_vattrib *a, uint32_t *dfmt, uint32_t *nfmt,
			  uint32_t sel[4], uint32_t *bytes, const char **why)
{
	unsigned n = a->size == GL_BGRA ? 4 : (unsigned)a->size;
	static const uint32_t f8[5] = { 0, V_BUF_DATA_FORMAT_8, V_BUF_DATA_FORMAT_8_8,
					V_BUF_DATA_FORMAT_8_8_8_8, V_BUF_DATA_FORMAT_8_8_8_8 };
	static const uint32_t f16[5] = { 0, V_BUF_DATA_FORMAT_16, V_BUF_DATA_FORMAT_16_16,
					 V_BUF_DATA_FORMAT_16_16_16_16, V_BUF_DATA_FORMAT_16_16_16_16 };
	static const uint32_t f32[5] = { 0, V_BUF_DATA_FORMAT_32, V_BUF_DATA_FORMAT_32_32,
					 V_BUF_DATA_FORMAT_32_32_32, V_BUF_DATA_FORMAT_32_32_32_32 };
	bool is_signed = a->type == GL_BYTE || a->type == GL_SHORT || a->type == GL_INT ||
			 a->type == GL_INT_2_10_10_10_REV;

	for (unsigned i = 0; i < 4; i++)
		sel[i] = i < n ? sel_xyzw[i] : (i == 3 ? V_SQ_SEL_1 : V_SQ_SEL_0);
	if (a->doubles) {
		*why = "double-precision vertex shader inputs (glVertexAttribLPointer)";
		return false;
	}
	if (drv_gl_vattrib_translated(a)) {
		/* converted to 32-bit floats on upload (translate_attrib) */
		*dfmt = f32[a->type == GL_UNSIGNED_INT_10F_11F_11F_REV ? 3 : n];
		*nfmt = V_BUF_NUM_FORMAT_FLOAT;
		*bytes = 4 * (a->type == GL_UNSIGNED_INT_10F_11F_11F_REV ? 3 : n);
		return true;
	}
	*nfmt = a->integer ? (is_signed ? V_BUF_NUM_FORMAT_SINT : V_BUF_NUM_FORMAT_UINT)
	      : a->normalized ? (is_signed ? V_BUF_NUM_FORMAT_SNORM : V_BUF_NUM_FORMAT_UNORM)
	      : (is_signed ? V_BUF_NUM_FORMAT_SSCALED : V_BUF_NUM_FORMAT_USCALED);
	switch (a->type) {
	case GL_BYTE: case GL_UNSIGNED_BYTE: *dfmt = f8[n]; *bytes = n; break;
	case GL_SHORT: case GL_UNSIGNED_SHORT: *dfmt = f16[n]; *bytes = 2 * n; break;
	case GL_HALF_FLOAT: *dfmt = f16[n]; *nfmt = V_BUF_NUM_FORMAT_FLOAT; *bytes = 2 * n; break;
	case GL_FLOAT: *dfmt = f32[n]; *nfmt = V_BUF_NUM_FORMAT_FLOAT; *bytes = 4 * n; break;
	case GL_INT: case GL_UNSIGNED_INT:
		*dfmt = f32[n];
		*bytes = 4 * n;
		break;
	case GL_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_2_10_10_10_REV:
		*dfmt = V_BUF_DATA_FORMAT_2_10_10_10;
		*bytes = 4;
		break;
	default:
		*why = "this vertex attribute type";
		return false;
	}
	if (a->size == GL_BGRA) {
		sel[0] = V_SQ_SEL_Z;
		sel[2] = V_SQ_SEL_X;
	}
	return true;
}

/* Number of records (elements) a binding holds from its start. */
static uint32_t records(int64_t avail, uint32_t stride, uint32_t bytes)
{
	if (avail < (int64_t)bytes)
		return 0;
	if (!stride)
		return 1;
	int64_t n = (avail - bytes) / stride + 1;
	return n > 0xFFFFFFFFll ? 0xFFFFFFFFu : (uint32_t)n;
}

/* Bytes one element of a translated attribute occupies in its source. */
static uint32_t bytes_of(const struct drv_vattrib *a)
{
	unsigned n = a->size == GL_BGRA ? 4 : (unsigned)a->size;
	return a->type == GL_UNSIGNED_INT_10F_11F_11F_REV ? 4 : a->type == GL_DOUBLE ? 8 * n : 4 * n;
}

/* An unsigned float of `mbits` mantissa and 5 exponent bits (the packed
 * 10F_11F_11F format) as a float; exact. */
static float unpack_ufloat(uint32_t v, unsigned mbits)
{
	uint32_t e = v >> mbits & 31u, m = v & ((1u << mbits) - 1);
	if (e == 31)
		return m ? NAN : INFINITY;
	if (!e)
		return ldexpf((float)m, -14 - (int)mbits);
	return ldexpf((float)(m | 1u << mbits), (int)e - 15 - (int)mbits);
}

/* One component of a translated attribute as a float (GL 4.6 10.3.5 and
 * 2.3.5 conversions, computed exactly and rounded once). */
static float translate_component(const struct drv_vattrib *a, const uint8_t *p, unsigned c)
{
	int32_t i;
	uint32_t u;
	double d;

	switch (a->type) {
	case GL_FIXED:
		memcpy(&i, p + 4 * c, 4);
		return (float)((double)i / 65536.0);
	case GL_INT:
		memcpy(&i, p + 4 * c, 4);
		d = (double)i / 2147483647.0;
		return (float)(d < -1.0 ? -1.0 : d);
	case GL_UNSIGNED_INT:
		memcpy(&u, p + 4 * c, 4);
		return (float)((double)u / 4294967295.0);
	case GL_DOUBLE:
		memcpy(&d, p + 8 * c, 8);
		return (float)d;
	default: /* GL_UNSIGNED_INT_10F_11F_11F_REV */
		memcpy(&u, p, 4);
		return c == 0 ? unpack_ufloat(u & 0x7FF, 6) : c == 1 ? unpack_ufloat(u >> 11 & 0x7FF, 6)
							    : unpack_ufloat(u >> 22, 5);
	}
}

/*
 * Formats GCN cannot fetch (GL_FIXED, normalized 32-bit integers,
 * GL_DOUBLE through glVertexAttribPointer, 10F_11F_11F) are converted to
 * 32-bit floats for elements [lo, hi) into the upload ring, as Mesa's
 * u_vbuf translates the formats a driver lacks.  Returns the address of
 * element 0 (the descriptor base), 0 when out of ring memory.
 */
static uint64_t translate_attrib(struct drv_context *ctx, const struct drv_vattrib *a,
				 const uint8_t *src, uint32_t stride, uint64_t lo, uint64_t hi,
				 uint32_t *out_stride)
{
	unsigned n = a->type == GL_UNSIGNED_INT_10F_11F_11F_REV ? 3 : (unsigned)a->size;
	uint64_t count = hi > lo ? hi - lo : 1;
	float *f = xt_malloc(count * n * sizeof *f);
	uint64_t va;

	if (!f)
		return 0;
	for (uint64_t v = 0; v < count; v++)
		for (unsigned c = 0; c < n; c++)
			f[v * n + c] = translate_component(a, src + (lo + v) * stride, c);
	*out_stride = 4 * n;
	va = drv_pm4_upload(ctx, f, count * n * sizeof *f, 16);
	xt_free(f);
	return va ? va - lo * *out_stride : 0;
}

/* Range of vertex indices attribute a reads in draw d: [*lo, *hi). */
static void index_range(const struct drv_draw *d, const struct drv_vbinding *b, uint64_t *lo,
			uint64_t *hi)
{
	if (b->divisor) {
		*lo = d->base_instance;
		*hi = d->base_instance + (d->instances + b->divisor - 1) / b->divisor;
	} else if (d->indexed) {
		*lo = (uint64_t)((int64_t)d->min_index + d->base_vertex);
		*hi = (uint64_t)((int64_t)d->max_index + d->base_vertex) + 1;
	} else {
		*lo = (uint64_t)d->base_vertex;
		*hi = (uint64_t)d->base_vertex + d->count;
	}
}

static bool build_descriptors(struct drv_context *ctx, struct drv_program_obj *p,
			      const struct drv_draw *d, uint8_t *table)
{
	uint32_t *desc = (uint32_t *)table;
	struct drv_xfb *x = ctx->hw.so_begin_emitted ? ctx->hw.so_xfb : NULL;
	const struct drv_program *prog = p->prog;
	const char *why = NULL;

	memset(table, 0, DRV_DESC_TABLE_SIZE);
	if (prog->has_gs)
		drv_pm4_gs_descriptors(ctx, desc);
	/* streamout buffers: base = buffer VA, NUM_RECORDS ~0, format 32 (radeonsi) */
	for (unsigned b = 0; x && b < DRV_MAX_TF_BUFFERS; b++)
		if (x->hw_mask >> b & 1)
			buf_desc(desc + 4 * DRV_DESC_SO(b), x->hw_va[b], 0, 0xFFFFFFFFu,
				 V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UNORM, sel_xyzw);
	/* default-block constants, the fixed-function matrices included */
	if (prog->n_builtins && !drv_gl_ff_constants(ctx, p))
		return false;
	if (p->consts_size) {
		struct drv_hw *hw = &ctx->hw;
		if (hw->consts_prog != p || hw->consts_version != p->consts_version ||
		    hw->consts_uploaded_gen != hw->ring_generation) {
			hw->consts_va = drv_pm4_upload(ctx, p->consts, p->consts_size, 256);
			hw->consts_prog = p;
			hw->consts_version = p->consts_version;
			hw->consts_uploaded_gen = hw->ring_generation;
		}
		buf_desc(desc + 4 * DRV_DESC_CONST, hw->consts_va, 0, p->consts_size,
			 V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_FLOAT, sel_xyzw);
	}
	/* uniform blocks */
	for (unsigned i = 0; i < prog->n_ubos && i < DRV_MAX_UBOS; i++) {
		const struct drv_xfb_binding *u = &ctx->ubo[p->ubo_binding[i]];
		int64_t size;
		if (!u->buffer || !drv_gl_buffer_storage(ctx, u->buffer))
			continue;
		size = u->range ? u->size : u->buffer->size - u->offset;
		if (u->offset + size > u->buffer->size)
			size = u->buffer->size - u->offset;
		buf_desc(desc + 4 * DRV_DESC_UBO(i), u->buffer->bo->va + (uint64_t)u->offset, 0,
			 size > 0 ? (uint32_t)size : 0, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_FLOAT,
			 sel_xyzw);
	}
	/* vertex attributes */
	for (unsigned loc = 0; loc < DRV_MAX_ATTRIBS; loc++) {
		struct drv_vsource src;
		drv_gl_vertex_source(ctx, prog, loc, &src);
		const struct drv_vattrib *a = src.a;
		const struct drv_vbinding *b = src.b;
		uint32_t *dd = desc + 4 * DRV_DESC_VB(loc);
		uint32_t dfmt, nfmt, sel[4], bytes;
		uint64_t base;
		int64_t avail;

		if (!a->enabled || (!b->buffer && !b->client_ptr)) {
			const struct drv_generic_attrib *g = src.current;
			uint64_t va = drv_pm4_upload(ctx, g->v, 16, 16);
			buf_desc(dd, va, 0, 16, V_BUF_DATA_FORMAT_32_32_32_32,
				 g->kind == GL_FLOAT ? V_BUF_NUM_FORMAT_FLOAT :
				 g->kind == GL_INT ? V_BUF_NUM_FORMAT_SINT : V_BUF_NUM_FORMAT_UINT,
				 sel_xyzw);
			continue;
		}
		if (!vertex_format(a, &dfmt, &nfmt, sel, &bytes, &why)) {
			/* Only an attribute the program reads matters. */
			for (unsigned k = 0; k < prog->n_attribs; k++)
				if (loc >= prog->attribs[k].location &&
				    loc < prog->attribs[k].location + prog->attribs[k].locations) {
					drv_gl_unsupported(ctx, why);
					return false;
				}
			continue;
		}
		((uint32_t *)(table + DRV_DESC_DIVISOR_OFFSET))[loc] = b->divisor;
		if (drv_gl_vattrib_translated(a)) {
			uint64_t lo, hi;
			uint32_t stride = 0;
			const uint8_t *from = b->client_ptr;
			if (b->buffer) {
				if (!drv_gl_buffer_storage(ctx, b->buffer))
					return false;
				drv_gl_flush(ctx);   /* the GPU may have written it */
				from = b->buffer->bo->map + b->offset;
			}
			index_range(d, b, &lo, &hi);
			if (b->buffer && (int64_t)((hi > lo ? hi - 1 : lo) * (uint64_t)b->stride + a->relative_offset +
						   bytes_of(a)) > b->buffer->size - b->offset) {
				drv_gl_unsupported(ctx, "a translated vertex attribute read beyond its buffer");
				return false;
			}
			base = translate_attrib(ctx, a, from + a->relative_offset, (uint32_t)b->stride, lo, hi,
						&stride);
			if (!base)
				return false;
			buf_desc(dd, base, stride, (uint32_t)hi, dfmt, nfmt, sel);
			continue;
		}
		if (b->buffer) {
			if (!drv_gl_buffer_storage(ctx, b->buffer))
				return false;
			base = b->buffer->bo->va + (uint64_t)b->offset + a->relative_offset;
			avail = b->buffer->size - b->offset - (int64_t)a->relative_offset;
		} else {
			uint64_t lo, hi;
			index_range(d, b, &lo, &hi);
			if (hi <= lo)
				hi = lo + 1;
			uint64_t from = lo * (uint64_t)b->stride;
			uint64_t len = (hi - lo - 1) * (uint64_t)b->stride + bytes;
			uint64_t va = drv_pm4_upload(ctx, b->client_ptr + from + a->relative_offset, len, 16);
			if (!va)
				return false;
			base = va - from;
			avail = (int64_t)(from + len);
		}
		buf_desc(dd, base, (uint32_t)b->stride, records(avail, (uint32_t)b->stride, bytes), dfmt,
			 nfmt, sel);
	}
	return true;
}

/* Upper bound of the ring bytes a draw uploads. */
static uint64_t upload_bound(const struct drv_context *ctx, const struct drv_program_obj *p,
			     const struct drv_draw *d)
{
	uint64_t n = DRV_DESC_TABLE_SIZE + 256 + p->consts_size + 256 + DRV_MAX_ATTRIBS * 32;

	for (unsigned loc = 0; loc < DRV_MAX_ATTRIBS; loc++) {
		struct drv_vsource src;
		drv_gl_vertex_source(ctx, p->prog, loc, &src);
		const struct drv_vattrib *a = src.a;
		const struct drv_vbinding *b = src.b;
		uint64_t lo, hi;
		if (!a->enabled || ((b->buffer || !b->client_ptr) && !drv_gl_vattrib_translated(a)))
			continue;
		index_range(d, b, &lo, &hi);
		n += (hi > lo ? hi - lo : 1) * ((uint64_t)b->stride + 16) + 64;
	}
	return n;
}

/* ---- draws ---------------------------------------------------------------------------------- */

static uint32_t prim_type(GLenum mode)
{
	switch (mode) {
	case GL_POINTS: return V_DI_PT_POINTLIST;
	case GL_LINES: return V_DI_PT_LINELIST;
	case GL_LINE_LOOP: return V_DI_PT_LINELOOP;
	case GL_LINE_STRIP: return V_DI_PT_LINESTRIP;
	case GL_TRIANGLES: return V_DI_PT_TRILIST;
	case GL_TRIANGLE_STRIP: return V_DI_PT_TRISTRIP;
	case GL_TRIANGLE_FAN: return V_DI_PT_TRIFAN;
	case GL_QUADS: return V_DI_PT_QUADLIST;
	case DRV_GL_QUAD_STRIP: return V_DI_PT_QUADSTRIP;
	case DRV_GL_POLYGON: return V_DI_PT_POLYGON;
	case GL_LINES_ADJACENCY: return V_DI_PT_LINELIST_ADJ;
	case GL_LINE_STRIP_ADJACENCY: return V_DI_PT_LINESTRIP_ADJ;
	case GL_TRIANGLES_ADJACENCY: return V_DI_PT_TRILIST_ADJ;
	case GL_TRIANGLE_STRIP_ADJACENCY: return V_DI_PT_TRISTRIP_ADJ;
	default: return V_DI_PT_NONE;
	}
}

/* VGT_GS_OUT_PRIM_TYPE of a rasterized primitive (si_conv_prim_to_gs_out). */
static uint32_t gs_out_prim(uint32_t pt)
{
	switch (pt) {
	case V_DI_PT_POINTLIST: return V_POINTLIST;
	case V_DI_PT_LINELIST: case V_DI_PT_LINESTRIP: case V_DI_PT_LINELOOP:
	case V_DI_PT_LINELIST_ADJ: case V_DI_PT_LINESTRIP_ADJ:
		return V_LINESTRIP;
	default:
		return V_TRISTRIP;
	}
}

/* Whether a GS draw fits the hardware limits; grows the rings. */
static bool gs_draw_ok(struct drv_context *ctx, const struct drv_program *prog)
{
	const struct drv_gs_info *g = &prog->gs;

	/* The ring item sizes are 15-bit register fields (radeonsi asserts). */
	if (g->esgs_itemsize_dw >= 1u << 15 || g->gsvs_itemsize_dw >= 1u << 15) {
		drv_gl_unsupported(ctx, "a geometry shader whose ring items exceed 32767 dwords");
		return false;
	}
	if (!drv_pm4_gs_rings(ctx, prog)) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return false;
	}
	return true;
}

static uint32_t hw_index_type(GLenum t)
{
	return t == GL_UNSIGNED_BYTE ? V_VGT_INDEX_8 : t == GL_UNSIGNED_SHORT ? V_VGT_INDEX_16
									      : V_VGT_INDEX_32;
}

bool drv_pm4_draw(struct drv_context *ctx, const struct drv_draw *draw)
{
	struct drv_draw local = *draw;
	const struct drv_draw *d = &local;
	struct drv_program_obj *p = drv_gl_draw_program(ctx);
	struct drv_hw *hw = &ctx->hw;
	uint8_t table[DRV_DESC_TABLE_SIZE];
	uint32_t pt = prim_type(d->mode);
	uint64_t table_va;
	uint32_t out_prim;
	struct pm4_cs *cs;

	if (!p || !drv_pm4_gpu_free(ctx))
		return false;   /* drv_gl_draw_program / drv_pm4_gpu_free said why */
	if (!p->prog || !p->linked || !p->code_bo) {
		/* A program without a vertex shader: the vertex stage is fixed
		 * function (compat), which the sim runs only for no program. */
		drv_gl_unsupported(ctx, "drawing with a program that has no vertex shader (fixed function)");
		return false;
	}
	if (p->prog->has_gs && !gs_draw_ok(ctx, p->prog))
		return false;
	ctx->state_call = true;
	ctx->last_draw_program = p->name;
	if (!ring_reserve(ctx, upload_bound(ctx, p, d) + d->index_bytes + 256)) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return false;
	}
	if (d->client_indices) {
		local.index_va = drv_pm4_upload(ctx, d->client_indices, d->index_bytes, 256);
		if (!local.index_va) {
			drv_gl_error(ctx, GL_OUT_OF_MEMORY);
			return false;
		}
	}
	if (!build_descriptors(ctx, p, d, table))
		return false;
	table_va = drv_pm4_upload(ctx, table, DRV_DESC_TABLE_SIZE, 256);
	if (!table_va) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return false;
	}
	cs = drv_ws_cs(&ctx->screen->ws, p->prog->has_gs ? 96 + 80 : 96);
	if (p->prog->has_gs)
		drv_pm4_gs_emit_rings(ctx, cs);
	emit_atoms(ctx, cs, p, d->indexed, d->index_type);
	/* user SGPRs: s[0:1] descriptor table, s2 base vertex, s3 start instance;
	 * with a GS every stage gets them (the ES fetches the vertices, the GS
	 * and copy shader read constants and rings through the table) */
	for (unsigned i = 0; i < (p->prog->has_gs ? 3u : 1u); i++) {
		static const uint32_t user_data[3] = { REG_SPI_SHADER_USER_DATA_VS_0,
						       REG_SPI_SHADER_USER_DATA_ES_0,
						       REG_SPI_SHADER_USER_DATA_GS_0 };
		if (pm4_set_reg_seq(cs, user_data[i], 4)) {
			pm4_emit(cs, (uint32_t)table_va);
			pm4_emit(cs, (uint32_t)(table_va >> 32));
			pm4_emit(cs, (uint32_t)d->base_vertex);
			pm4_emit(cs, d->base_instance);
		}
	}
	/* si_emit_draw_registers: the GS output primitive is what is rasterized */
	if (hw->prim_type != pt + 1) {
		pm4_set_uconfig_reg_idx(cs, REG_VGT_PRIMITIVE_TYPE, 1, VGT_PRIMITIVE_TYPE_PRIM_TYPE(pt));
		hw->prim_type = pt + 1;
	}
	out_prim = p->prog->has_gs ? drv_pm4_gs_out_prim(p->prog->gs.output_prim) : gs_out_prim(pt);
	if (hw->gs_out_prim != out_prim + 1) {
		pm4_set_context_reg(cs, REG_VGT_GS_OUT_PRIM_TYPE,
				    VGT_GS_OUT_PRIM_TYPE_OUTPRIM_TYPE(out_prim));
		hw->gs_out_prim = out_prim + 1;
	}
	/* si_emit_draw_packets */
	if (d->indexed && hw->index_type != hw_index_type(d->index_type) + 1) {
		pm4_index_type(cs, VGT_DMA_INDEX_TYPE_INDEX_TYPE(hw_index_type(d->index_type)));
		hw->index_type = hw_index_type(d->index_type) + 1;
	}
	if (d->tf_source)
		drv_pm4_so_draw_opaque(ctx, d->tf_source, d->tf_stream);
	if (d->indirect) {
		struct pm4_draw_indirect di = {
			.data_offset = d->indirect_offset,
			/* the stage that fetches vertices: the ES with a GS (radeonsi) */
			.base_vtx_loc = ((p->prog->has_gs ? REG_SPI_SHADER_USER_DATA_ES_2
							  : REG_SPI_SHADER_USER_DATA_VS_2) -
					 PM4_SH_REG_BASE) >> 2,
			.start_inst_loc = ((p->prog->has_gs ? REG_SPI_SHADER_USER_DATA_ES_3
							    : REG_SPI_SHADER_USER_DATA_VS_3) -
					   PM4_SH_REG_BASE) >> 2,
			.draw_initiator = VGT_DRAW_INITIATOR_SOURCE_SELECT(
				d->indexed ? V_DI_SRC_SEL_DMA : V_DI_SRC_SEL_AUTO_INDEX),
		};
		pm4_set_base(cs, 1, d->indirect_base_va);
		if (d->indexed) {
			pm4_index_base(cs, d->index_va, 0);
			pm4_index_buffer_size(cs, d->index_max);
		}
		pm4_draw_indirect(cs, d->indexed ? PKT3_DRAW_INDEX_INDIRECT : PKT3_DRAW_INDIRECT, &di);
		hw->num_instances = 0;   /* the CP wrote VGT_NUM_INSTANCES from memory */
	} else {
		if (hw->num_instances != d->instances + 1) {
			pm4_num_instances(cs, d->instances);
			hw->num_instances = d->instances + 1;
		}
		if (d->indexed) {
			struct pm4_draw_index_2 di = {
				.max_size = d->index_max,
				.index_base = d->index_va,
				.index_count = d->count,
				.draw_initiator = VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_DMA),
			};
			pm4_draw_index_2(cs, &di);
		} else {
			pm4_draw_index_auto(cs, d->tf_source ? 0 : d->count,
					    VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_AUTO_INDEX) |
					    VGT_DRAW_INITIATOR_USE_OPAQUE(d->tf_source != NULL));
		}
	}
	if (!pm4_cs_ok(cs)) {
		drv_gl_unsupported(ctx, "a draw whose packets the driver could not encode");
		return false;
	}
	return true;
}
