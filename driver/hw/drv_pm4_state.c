/*
 * drv_pm4_state.c - everything a draw emits besides streamout: the IB
 * preamble, the state atoms (shader + SPI registers, rasterizer discard,
 * primitive restart), the descriptor table and user SGPRs of the shader
 * ABI (drv_shader.h), the upload ring, and the draw packets, in
 * radeonsi's order (si_draw_vbo: atoms, shader pm4 state, descriptors and
 * user SGPRs, then si_emit_draw_registers and si_emit_draw_packets); and
 * the drv_pipe.h calls that feed them: shader upload, the state setters,
 * drv_pipe_draw_begin / _reserve / drv_pipe_draw.
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

#include "drv_hw.h"
#include "xt_fault.h"

#define RING_BYTES (4u << 20)

/* ---- preamble and upload ring ----------------------------------------------------- */

static void emit_preamble(struct drv_pipe *pipe)
{
	struct pm4_cs *cs = drv_hw_cs(pipe->screen, 32);

	pm4_context_control(cs, 0x80000000u, 0x80000000u);
	pm4_set_context_reg(cs, REG_VGT_GS_MODE, VGT_GS_MODE_MODE(V_GS_OFF));
	pm4_set_context_reg(cs, REG_VGT_SHADER_STAGES_EN, 0);
	pipe->gs_on = false;
	pm4_set_context_reg(cs, REG_VGT_INDX_OFFSET, 0);
	pm4_set_context_reg(cs, REG_VGT_STRMOUT_DRAW_OPAQUE_OFFSET, 0);
}

void drv_pm4_init(struct drv_pipe *pipe)
{
	pipe->dirty = (1u << DRV_ATOM_COUNT) - 1;
	emit_preamble(pipe);
	pipe->dirty &= ~(1u << DRV_ATOM_INIT);
	drv_pipe_flush(pipe);
}

void drv_pm4_invalidate(struct drv_pipe *pipe)
{
	emit_preamble(pipe);                       /* GS off, opaque offset 0 ... */
	pipe->dirty = ((1u << DRV_ATOM_COUNT) - 1) & ~(1u << DRV_ATOM_INIT);
	pipe->prim_type = pipe->index_type = pipe->gs_out_prim = pipe->num_instances = 0;
	pipe->vs_va = 0;
	pipe->ps_va = 0;
	pipe->vs_out_cntl = 0;
	memset(pipe->fb_va, 0, sizeof pipe->fb_va);
	pipe->strmout_known = false;
	pipe->opaque_offset = 0;
	pipe->gs_rings_emitted = false;
}

void drv_pm4_fini(struct drv_pipe *pipe)
{
	drv_bo_destroy(pipe->screen, pipe->ring);
	drv_bo_destroy(pipe->screen, pipe->esgs_ring);
	drv_bo_destroy(pipe->screen, pipe->gsvs_ring);
	pipe->ring = pipe->esgs_ring = pipe->gsvs_ring = NULL;
}

/* Makes room for `bytes` in the ring; false when out of memory. */
static bool ring_reserve(struct drv_pipe *pipe, uint64_t bytes)
{
	if (pipe->ring && pipe->ring_used + bytes <= pipe->ring->size_bytes)
		return true;
	drv_pipe_flush(pipe);
	if (!pipe->ring || bytes > pipe->ring->size_bytes) {
		uint64_t size = RING_BYTES;
		while (size < bytes)
			size *= 2;
		drv_bo_destroy(pipe->screen, pipe->ring);
		pipe->ring = drv_bo_create(pipe->screen, size, 256);
		if (!pipe->ring)
			return false;
	}
	pipe->ring_used = 0;
	pipe->ring_generation++;
	return true;
}

uint64_t drv_pm4_upload(struct drv_pipe *pipe, const void *data, uint64_t n, uint64_t align)
{
	uint64_t at;

	if (!align)
		align = 4;
	at = (pipe->ring_used + align - 1) & ~(align - 1);
	if (!pipe->ring || at + n > pipe->ring->size_bytes) {
		if (!ring_reserve(pipe, n + align))
			return 0;
		at = 0;
	}
	if (data && n)
		memcpy(pipe->ring->map + at, data, n);
	pipe->ring_used = at + n;
	return pipe->ring->va + at;
}

/* Every hardware stage's binary (the VS, or ES + GS + copy shader) goes
 * into the one code BO, 256-byte aligned (drv_pm4_code_offset). */
bool drv_pipe_shader_upload(struct drv_pipe_screen *screen, struct drv_pipe_shader *sh,
			    const struct drv_program *prog)
{
	drv_bo_destroy(screen, sh->code);
	sh->code = NULL;
	if (!prog->hw[DRV_HW_VS].present && !prog->hw[DRV_HW_COPY].present)
		return true;
	sh->code = drv_bo_create(screen, drv_pm4_code_offset(prog, DRV_HW_COUNT), 256);
	if (!sh->code)
		return false;
	for (unsigned hw = 0; hw < DRV_HW_COUNT; hw++)
		if (prog->hw[hw].present)
			memcpy(sh->code->map + drv_pm4_code_offset(prog, (enum drv_hw_stage)hw),
			       prog->hw[hw].code, (size_t)prog->hw[hw].size_dw * 4);
	return true;
}

void drv_pipe_shader_release(struct drv_pipe_screen *screen, struct drv_pipe_shader *sh)
{
	drv_bo_destroy(screen, sh->code);
	sh->code = NULL;
}

/* ---- state the state tracker sets ------------------------------------------------------ */

void drv_pipe_set_rasterizer_discard(struct drv_pipe *pipe, bool on)
{
	if (pipe->rasterizer_discard != on)
		pipe->dirty |= 1u << DRV_ATOM_RASTER;
	pipe->rasterizer_discard = on;
}

void drv_pipe_set_provoking_vertex(struct drv_pipe *pipe, bool first_vertex)
{
	if (pipe->flatshade_first != first_vertex)
		pipe->dirty |= 1u << DRV_ATOM_RASTER;
	pipe->flatshade_first = first_vertex;
}

void drv_pipe_set_primitive_restart(struct drv_pipe *pipe, bool enable, bool fixed_index,
				    uint32_t index)
{
	pipe->restart = enable;
	pipe->restart_fixed = fixed_index;
	pipe->restart_index = index;
	pipe->dirty |= 1u << DRV_ATOM_RESTART;
}

void drv_pipe_shaders_changed(struct drv_pipe *pipe)
{
	pipe->dirty |= 1u << DRV_ATOM_SHADER;
}

/* ---- atoms ---------------------------------------------------------------------------- */

static void emit_shader(struct drv_pipe *pipe, struct pm4_cs *cs, const struct drv_program *prog,
			const struct drv_pipe_shader *shader)
{
	const struct drv_stage_binary *vs = &prog->hw[DRV_HW_VS];
	uint32_t rsrc1 = SPI_SHADER_PGM_RSRC1_VS_VGPRS((vs->num_vgprs ? vs->num_vgprs - 1 : 0) / 4) |
			 SPI_SHADER_PGM_RSRC1_VS_SGPRS((vs->num_sgprs ? vs->num_sgprs - 1 : 0) / 8);
	uint32_t rsrc2 = SPI_SHADER_PGM_RSRC2_VS_USER_SGPR(vs->user_sgprs) |
			 SPI_SHADER_PGM_RSRC2_VS_SO_EN(vs->so_en) |
			 SPI_SHADER_PGM_RSRC2_VS_SO_BASE0_EN(vs->so_base_en & 1) |
			 SPI_SHADER_PGM_RSRC2_VS_SO_BASE1_EN(vs->so_base_en >> 1 & 1) |
			 SPI_SHADER_PGM_RSRC2_VS_SO_BASE2_EN(vs->so_base_en >> 2 & 1) |
			 SPI_SHADER_PGM_RSRC2_VS_SO_BASE3_EN(vs->so_base_en >> 3 & 1);
	uint64_t va = shader->code->va;

	pipe->vs_va = va;
	if (prog->has_gs) {
		drv_pm4_gs_emit_shaders(pipe, cs, prog, shader);
		return;
	}
	drv_pm4_gs_emit_off(pipe, cs);
	if (pm4_set_reg_seq(cs, REG_SPI_SHADER_PGM_LO_VS, 4)) {
		pm4_emit(cs, (uint32_t)(va >> 8));
		pm4_emit(cs, SPI_SHADER_PGM_HI_VS_MEM_BASE((uint32_t)(va >> 40)));
		pm4_emit(cs, rsrc1);
		pm4_emit(cs, rsrc2);
	}
}

static void emit_atoms(struct drv_pipe *pipe, struct pm4_cs *cs, const struct drv_program *prog,
		       const struct drv_pipe_shader *shader, bool indexed, unsigned index_size)
{
	if (pipe->dirty & (1u << DRV_ATOM_INIT))
		emit_preamble(pipe);
	if ((pipe->dirty & (1u << DRV_ATOM_SHADER)) || pipe->vs_va != shader->code->va)
		emit_shader(pipe, cs, prog, shader);
	if (pipe->dirty & (1u << DRV_ATOM_RASTER)) {
		/* radeonsi's rasterizer state (si_create_rs_state), with the
		 * rasterization kill of GL_RASTERIZER_DISCARD and
		 * PROVOKING_VTX_LAST = !flatshade_first (drv_pm4_raster.c) */
		pm4_set_context_reg(cs, REG_PA_CL_CLIP_CNTL, drv_pm4_clip_cntl(pipe));
		pm4_set_context_reg(cs, REG_PA_SU_SC_MODE_CNTL, drv_pm4_su_sc_mode_cntl(pipe));
	}
	drv_pm4_emit_pixel_state(pipe, cs, prog, shader);
	if (indexed) {
		bool en = pipe->restart || pipe->restart_fixed;
		uint32_t idx = pipe->restart_fixed
				       ? (index_size == 1 ? 0xFFu : index_size == 2 ? 0xFFFFu : 0xFFFFFFFFu)
				       : pipe->restart_index;
		/* The fixed index depends on the index type: re-emit when it may differ. */
		if ((pipe->dirty & (1u << DRV_ATOM_RESTART)) || pipe->restart_fixed) {
			pm4_set_context_reg(cs, REG_VGT_MULTI_PRIM_IB_RESET_EN,
					    VGT_MULTI_PRIM_IB_RESET_EN_RESET_EN(en));
			if (en)
				pm4_set_context_reg(cs, REG_VGT_MULTI_PRIM_IB_RESET_INDX, idx);
			pipe->dirty &= ~(1u << DRV_ATOM_RESTART);
		}
	}
	if (pipe->dirty & (1u << DRV_ATOM_RENDER_COND))
		drv_pm4_emit_render_cond(pipe, cs);
	pipe->dirty &= ~((1u << DRV_ATOM_INIT) | (1u << DRV_ATOM_SHADER) | (1u << DRV_ATOM_RASTER) |
			 (1u << DRV_ATOM_RENDER_COND));
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
static bool vertex_format(const struct drv_pipe_vertex_input *a, uint32_t *dfmt, uint32_t *nfmt,
			  uint32_t sel[4], uint32_t *bytes, const char **why)
{
	unsigned n = a->components;
	static const uint32_t f8[5] = { 0, V_BUF_DATA_FORMAT_8, V_BUF_DATA_FORMAT_8_8,
					V_BUF_DATA_FORMAT_8_8_8_8, V_BUF_DATA_FORMAT_8_8_8_8 };
	static const uint32_t f16[5] = { 0, V_BUF_DATA_FORMAT_16, V_BUF_DATA_FORMAT_16_16,
					 V_BUF_DATA_FORMAT_16_16_16_16, V_BUF_DATA_FORMAT_16_16_16_16 };
	static const uint32_t f32[5] = { 0, V_BUF_DATA_FORMAT_32, V_BUF_DATA_FORMAT_32_32,
					 V_BUF_DATA_FORMAT_32_32_32, V_BUF_DATA_FORMAT_32_32_32_32 };
	bool is_signed = a->type == DRV_VTYPE_BYTE || a->type == DRV_VTYPE_SHORT ||
			 a->type == DRV_VTYPE_INT || a->type == DRV_VTYPE_INT_2_10_10_10;

	for (unsigned i = 0; i < 4; i++)
		sel[i] = i < n ? sel_xyzw[i] : (i == 3 ? V_SQ_SEL_1 : V_SQ_SEL_0);
	if (a->doubles) {
		/* 64-bit inputs: raw dwords, two per component, as radeonsi
		 * fetches them; the state tracker puts at most two components
		 * at one location (drv_pipe_vertex_input.doubles) */
		if (n > 2) {
			*why = "a 64-bit vertex input of more than two components at one location";
			return false;
		}
		for (unsigned i = 0; i < 4; i++)
			sel[i] = i < 2 * n ? sel_xyzw[i] : (i == 3 ? V_SQ_SEL_1 : V_SQ_SEL_0);
		*dfmt = f32[2 * n];
		*nfmt = V_BUF_NUM_FORMAT_UINT;
		*bytes = 8 * n;
		return true;
	}
	if (drv_pipe_vertex_translated(a)) {
		/* converted to 32-bit floats on upload (translate_attrib) */
		*dfmt = f32[a->type == DRV_VTYPE_UFLOAT_10F_11F_11F ? 3 : n];
		*nfmt = V_BUF_NUM_FORMAT_FLOAT;
		*bytes = 4 * (a->type == DRV_VTYPE_UFLOAT_10F_11F_11F ? 3 : n);
		return true;
	}
	*nfmt = a->integer ? (is_signed ? V_BUF_NUM_FORMAT_SINT : V_BUF_NUM_FORMAT_UINT)
	      : a->normalized ? (is_signed ? V_BUF_NUM_FORMAT_SNORM : V_BUF_NUM_FORMAT_UNORM)
	      : (is_signed ? V_BUF_NUM_FORMAT_SSCALED : V_BUF_NUM_FORMAT_USCALED);
	switch (a->type) {
	case DRV_VTYPE_BYTE: case DRV_VTYPE_UBYTE: *dfmt = f8[n]; *bytes = n; break;
	case DRV_VTYPE_SHORT: case DRV_VTYPE_USHORT: *dfmt = f16[n]; *bytes = 2 * n; break;
	case DRV_VTYPE_HALF_FLOAT: *dfmt = f16[n]; *nfmt = V_BUF_NUM_FORMAT_FLOAT; *bytes = 2 * n; break;
	case DRV_VTYPE_FLOAT: *dfmt = f32[n]; *nfmt = V_BUF_NUM_FORMAT_FLOAT; *bytes = 4 * n; break;
	case DRV_VTYPE_INT: case DRV_VTYPE_UINT:
		*dfmt = f32[n];
		*bytes = 4 * n;
		break;
	case DRV_VTYPE_INT_2_10_10_10: case DRV_VTYPE_UINT_2_10_10_10:
		*dfmt = V_BUF_DATA_FORMAT_2_10_10_10;
		*bytes = 4;
		break;
	default:
		*why = "this vertex attribute type";
		return false;
	}
	if (a->bgra) {
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
static uint32_t bytes_of(const struct drv_pipe_vertex_input *a)
{
	unsigned n = a->components;
	return a->type == DRV_VTYPE_UFLOAT_10F_11F_11F ? 4 : a->type == DRV_VTYPE_DOUBLE ? 8 * n : 4 * n;
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
static float translate_component(const struct drv_pipe_vertex_input *a, const uint8_t *p,
				 unsigned c)
{
	int32_t i;
	uint32_t u;
	double d;

	switch (a->type) {
	case DRV_VTYPE_FIXED:
		memcpy(&i, p + 4 * c, 4);
		return (float)((double)i / 65536.0);
	case DRV_VTYPE_INT:
		memcpy(&i, p + 4 * c, 4);
		d = (double)i / 2147483647.0;
		return (float)(d < -1.0 ? -1.0 : d);
	case DRV_VTYPE_UINT:
		memcpy(&u, p + 4 * c, 4);
		return (float)((double)u / 4294967295.0);
	case DRV_VTYPE_DOUBLE:
		memcpy(&d, p + 8 * c, 8);
		return (float)d;
	default: /* DRV_VTYPE_UFLOAT_10F_11F_11F */
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
static uint64_t translate_attrib(struct drv_pipe *pipe, const struct drv_pipe_vertex_input *a,
				 const uint8_t *src, uint32_t stride, uint64_t lo, uint64_t hi,
				 uint32_t *out_stride)
{
	unsigned n = a->type == DRV_VTYPE_UFLOAT_10F_11F_11F ? 3 : a->components;
	uint64_t count = hi > lo ? hi - lo : 1;
	float *f = xt_malloc(count * n * sizeof *f);
	uint64_t va;

	if (!f)
		return 0;
	for (uint64_t v = 0; v < count; v++)
		for (unsigned c = 0; c < n; c++)
			f[v * n + c] = translate_component(a, src + (lo + v) * stride, c);
	*out_stride = 4 * n;
	va = drv_pm4_upload(pipe, f, count * n * sizeof *f, 16);
	xt_free(f);
	return va ? va - lo * *out_stride : 0;
}

/* Range of vertex indices attribute b reads in draw d: [*lo, *hi). */
static void index_range(const struct drv_pipe_draw *d, const struct drv_pipe_vertex_input *b,
			uint64_t *lo, uint64_t *hi)
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

bool drv_pipe_vertex_translated(const struct drv_pipe_vertex_input *a)
{
	return !a->integer && !a->doubles &&
	       (a->type == DRV_VTYPE_FIXED || a->type == DRV_VTYPE_UFLOAT_10F_11F_11F ||
		a->type == DRV_VTYPE_DOUBLE ||
		((a->type == DRV_VTYPE_INT || a->type == DRV_VTYPE_UINT) && a->normalized));
}

/* The image formats of sampled textures (the buffer formats' encoding). */
static bool image_format(enum drv_pipe_format f, uint32_t *dfmt, uint32_t *nfmt)
{
	switch (f) {
	case DRV_FORMAT_RGBA8_UNORM: *dfmt = V_BUF_DATA_FORMAT_8_8_8_8; *nfmt = V_IMG_NUM_FORMAT_UNORM; return true;
	case DRV_FORMAT_RG8_UNORM: *dfmt = V_BUF_DATA_FORMAT_8_8; *nfmt = V_IMG_NUM_FORMAT_UNORM; return true;
	case DRV_FORMAT_R8_UNORM: *dfmt = V_BUF_DATA_FORMAT_8; *nfmt = V_IMG_NUM_FORMAT_UNORM; return true;
	case DRV_FORMAT_RGBA16_FLOAT: *dfmt = V_BUF_DATA_FORMAT_16_16_16_16; *nfmt = V_IMG_NUM_FORMAT_FLOAT; return true;
	case DRV_FORMAT_RGBA32_FLOAT: *dfmt = V_BUF_DATA_FORMAT_32_32_32_32; *nfmt = V_IMG_NUM_FORMAT_FLOAT; return true;
	case DRV_FORMAT_RG32_FLOAT: *dfmt = V_BUF_DATA_FORMAT_32_32; *nfmt = V_IMG_NUM_FORMAT_FLOAT; return true;
	case DRV_FORMAT_R32_FLOAT: *dfmt = V_BUF_DATA_FORMAT_32; *nfmt = V_IMG_NUM_FORMAT_FLOAT; return true;
	case DRV_FORMAT_RGBA32_UINT: *dfmt = V_BUF_DATA_FORMAT_32_32_32_32; *nfmt = V_IMG_NUM_FORMAT_UINT; return true;
	case DRV_FORMAT_RGBA32_SINT: *dfmt = V_BUF_DATA_FORMAT_32_32_32_32; *nfmt = V_IMG_NUM_FORMAT_SINT; return true;
	case DRV_FORMAT_R32_UINT: *dfmt = V_BUF_DATA_FORMAT_32; *nfmt = V_IMG_NUM_FORMAT_UINT; return true;
	case DRV_FORMAT_R32_SINT: *dfmt = V_BUF_DATA_FORMAT_32; *nfmt = V_IMG_NUM_FORMAT_SINT; return true;
	default: return false;
	}
}

/* 4.8 fixed point, clamped to [lo, hi] */
static uint32_t fixed_4_8(float v, float lo, float hi)
{
	v = v < lo ? lo : v > hi ? hi : v;
	return (uint32_t)(int32_t)lrintf(v * 256.0f);
}

/* The T# and S# of sampler slot k (radeonsi's si_make_texture_descriptor
 * and si_create_sampler_state for a linear 2D, 2D array, 3D or 2D MSAA texture;
 * incomplete ones, whose buffer is NULL, as 2D): 16 dwords, the
 * T# at 0 and the S# at DRV_DESC_SAMPLER_SAMP. */
static bool sampler_desc(struct drv_pipe *pipe, const struct drv_pipe_sampler_view *v, uint32_t d[16])
{
	static const uint32_t wrap[] = {
		[DRV_WRAP_REPEAT] = V_SQ_TEX_WRAP, [DRV_WRAP_MIRRORED_REPEAT] = V_SQ_TEX_MIRROR,
		[DRV_WRAP_CLAMP_TO_EDGE] = V_SQ_TEX_CLAMP_LAST_TEXEL,
		[DRV_WRAP_MIRROR_CLAMP_TO_EDGE] = V_SQ_TEX_MIRROR_ONCE_LAST_TEXEL,
		[DRV_WRAP_CLAMP_TO_BORDER] = V_SQ_TEX_CLAMP_BORDER,
	};
	static const uint32_t sel[] = { V_SQ_SEL_X, V_SQ_SEL_Y, V_SQ_SEL_Z, V_SQ_SEL_W, V_SQ_SEL_0, V_SQ_SEL_1 };
	static const uint32_t mip[] = { V_SQ_TEX_Z_FILTER_NONE, V_SQ_TEX_Z_FILTER_POINT, V_SQ_TEX_Z_FILTER_LINEAR };
	uint32_t dfmt, nfmt, w = v->width, h = v->height, pitch = v->pitch, levels = v->levels, depth = v->depth;
	uint32_t type = v->target == DRV_TEX_3D ? V_SQ_RSRC_IMG_3D : v->target == DRV_TEX_CUBE ? V_SQ_RSRC_IMG_CUBE :
			v->target == DRV_TEX_2D_ARRAY ? V_SQ_RSRC_IMG_2D_ARRAY :
			v->target == DRV_TEX_2D_MSAA ? V_SQ_RSRC_IMG_2D_MSAA : V_SQ_RSRC_IMG_2D;
	const uint8_t *sw = v->swizzle;
	static const uint8_t incomplete[4] = { DRV_SWIZZLE_0, DRV_SWIZZLE_0, DRV_SWIZZLE_0, DRV_SWIZZLE_1 };
	uint64_t va;

	if (v->buffer) {
		if (!image_format(v->format, &dfmt, &nfmt)) {
			drv_hw_unsupported(pipe, "sampling a texture of this format");
			return false;
		}
		if (v->srgb && v->format == DRV_FORMAT_RGBA8_UNORM)
			nfmt = V_IMG_NUM_FORMAT_SRGB;
		if (!drv_pipe_buffer_storage(pipe->screen, v->buffer))
			return false;
		va = v->buffer->bo->va;
	} else {
		/* incomplete: (0, 0, 0, 1) from the swizzle, over a texel */
		static const uint32_t zero = 0;
		va = drv_pm4_upload(pipe, &zero, 4, 256);
		if (!va)
			return false;
		dfmt = V_BUF_DATA_FORMAT_32;
		nfmt = v->integer ? V_IMG_NUM_FORMAT_UINT : V_IMG_NUM_FORMAT_FLOAT;
		w = h = pitch = levels = depth = 1;
		sw = incomplete;
	}
	/* si_make_texture_descriptor: a multisampled image's LAST_LEVEL is
	 * log2(samples) (it has one level; incomplete: one sample) */
	if (type == V_SQ_RSRC_IMG_2D_MSAA && v->buffer)
		levels = (v->samples >= 8 ? 3u : v->samples >= 4 ? 2u : 1u) + 1;
	memset(d, 0, 16 * sizeof *d);
	d[0] = SQ_IMG_RSRC_WORD0_BASE_ADDRESS((uint32_t)(va >> 8));
	d[1] = SQ_IMG_RSRC_WORD1_BASE_ADDRESS_HI((uint32_t)(va >> 40)) | SQ_IMG_RSRC_WORD1_DATA_FORMAT(dfmt) |
	       SQ_IMG_RSRC_WORD1_NUM_FORMAT(nfmt);
	d[2] = SQ_IMG_RSRC_WORD2_WIDTH(w - 1) | SQ_IMG_RSRC_WORD2_HEIGHT(h - 1);
	d[3] = SQ_IMG_RSRC_WORD3_DST_SEL_X(sel[sw[0]]) | SQ_IMG_RSRC_WORD3_DST_SEL_Y(sel[sw[1]]) |
	       SQ_IMG_RSRC_WORD3_DST_SEL_Z(sel[sw[2]]) | SQ_IMG_RSRC_WORD3_DST_SEL_W(sel[sw[3]]) |
	       SQ_IMG_RSRC_WORD3_BASE_LEVEL(0) | SQ_IMG_RSRC_WORD3_LAST_LEVEL(levels - 1) |
	       SQ_IMG_RSRC_WORD3_TILING_INDEX(8) | SQ_IMG_RSRC_WORD3_TYPE(type);
	d[4] = SQ_IMG_RSRC_WORD4_PITCH(pitch - 1) | SQ_IMG_RSRC_WORD4_DEPTH(depth ? depth - 1 : 0);
	d[12] = SQ_IMG_SAMP_WORD0_CLAMP_X(wrap[v->wrap_s]) | SQ_IMG_SAMP_WORD0_CLAMP_Y(wrap[v->wrap_t]) |
		SQ_IMG_SAMP_WORD0_CLAMP_Z(wrap[v->wrap_r]);
	d[13] = SQ_IMG_SAMP_WORD1_MIN_LOD(fixed_4_8(v->min_lod, 0, 15)) |
		SQ_IMG_SAMP_WORD1_MAX_LOD(fixed_4_8(v->max_lod, 0, 15));
	d[14] = SQ_IMG_SAMP_WORD2_LOD_BIAS(fixed_4_8(v->lod_bias, -16, 16) & 0x3FFF) |
		SQ_IMG_SAMP_WORD2_XY_MAG_FILTER(v->mag_linear ? V_SQ_TEX_XY_FILTER_BILINEAR : V_SQ_TEX_XY_FILTER_POINT) |
		SQ_IMG_SAMP_WORD2_XY_MIN_FILTER(v->min_linear ? V_SQ_TEX_XY_FILTER_BILINEAR : V_SQ_TEX_XY_FILTER_POINT) |
		SQ_IMG_SAMP_WORD2_MIP_FILTER(mip[v->mip]);
	d[15] = SQ_IMG_SAMP_WORD3_BORDER_COLOR_TYPE(v->border == DRV_BORDER_OPAQUE_WHITE ? V_SQ_TEX_BORDER_COLOR_OPAQUE_WHITE :
						    v->border == DRV_BORDER_OPAQUE_BLACK ? V_SQ_TEX_BORDER_COLOR_OPAQUE_BLACK :
						    V_SQ_TEX_BORDER_COLOR_TRANS_BLACK);
	return true;
}

static bool build_descriptors(struct drv_pipe *pipe, const struct drv_pipe_draw_state *state,
			      const struct drv_pipe_draw *d, uint8_t *table)
{
	uint32_t *desc = (uint32_t *)table;
	struct drv_pipe_so *x = pipe->so_begin_emitted ? pipe->so_current : NULL;
	const struct drv_program *prog = state->prog;
	const char *why = NULL;

	memset(table, 0, DRV_DESC_TABLE_SIZE);
	if (prog->has_gs)
		drv_pm4_gs_descriptors(pipe, desc);
	/* streamout buffers: base = buffer VA, NUM_RECORDS ~0, format 32 (radeonsi) */
	for (unsigned b = 0; x && b < DRV_MAX_TF_BUFFERS; b++)
		if (x->hw_mask >> b & 1)
			buf_desc(desc + 4 * DRV_DESC_SO(b), x->hw_va[b], 0, 0xFFFFFFFFu,
				 V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UNORM, sel_xyzw);
	/* default-block constants, the fixed-function matrices included */
	if (state->consts_size) {
		if (pipe->consts_shader != state->shader || pipe->consts_version != state->consts_version ||
		    pipe->consts_uploaded_gen != pipe->ring_generation) {
			pipe->consts_va = drv_pm4_upload(pipe, state->consts, state->consts_size, 256);
			pipe->consts_shader = state->shader;
			pipe->consts_version = state->consts_version;
			pipe->consts_uploaded_gen = pipe->ring_generation;
		}
		buf_desc(desc + 4 * DRV_DESC_CONST, pipe->consts_va, 0, state->consts_size,
			 V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_FLOAT, sel_xyzw);
	}
	/* uniform blocks */
	for (unsigned i = 0; i < prog->n_ubos && i < DRV_MAX_UBOS; i++) {
		const struct drv_pipe_ubo *u = &state->ubo[i];
		if (!u->buffer || !drv_pipe_buffer_storage(pipe->screen, u->buffer))
			continue;
		buf_desc(desc + 4 * DRV_DESC_UBO(i), u->buffer->bo->va + (uint64_t)u->offset, 0,
			 u->size > 0 ? (uint32_t)u->size : 0, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_FLOAT,
			 sel_xyzw);
	}
	/* the sampler list */
	for (unsigned k = 0; k < prog->n_samplers && k < DRV_MAX_SAMPLERS; k++)
		if (!sampler_desc(pipe, &state->tex[k], (uint32_t *)(table + DRV_DESC_SAMPLER_OFFSET(k))))
			return false;
	/* vertex attributes */
	for (unsigned loc = 0; loc < DRV_MAX_ATTRIBS; loc++) {
		const struct drv_pipe_vertex_input *a = &state->vertex[loc];
		uint32_t *dd = desc + 4 * DRV_DESC_VB(loc);
		uint32_t dfmt, nfmt, sel[4], bytes;
		uint64_t base;
		int64_t avail;

		if (!a->enabled || (!a->buffer && !a->client_ptr)) {
			uint64_t va = drv_pm4_upload(pipe, a->current, 16, 16);
			buf_desc(dd, va, 0, 16, V_BUF_DATA_FORMAT_32_32_32_32,
				 a->current_kind == DRV_VALUE_FLOAT ? V_BUF_NUM_FORMAT_FLOAT :
				 a->current_kind == DRV_VALUE_INT ? V_BUF_NUM_FORMAT_SINT : V_BUF_NUM_FORMAT_UINT,
				 sel_xyzw);
			continue;
		}
		if (!vertex_format(a, &dfmt, &nfmt, sel, &bytes, &why)) {
			/* Only an attribute the program reads matters. */
			for (unsigned k = 0; k < prog->n_attribs; k++)
				if (loc >= prog->attribs[k].location &&
				    loc < prog->attribs[k].location + prog->attribs[k].locations) {
					drv_hw_unsupported(pipe, why);
					return false;
				}
			continue;
		}
		((uint32_t *)(table + DRV_DESC_DIVISOR_OFFSET))[loc] = a->divisor;
		if (drv_pipe_vertex_translated(a)) {
			uint64_t lo, hi;
			uint32_t stride = 0;
			const uint8_t *from = a->client_ptr;
			if (a->buffer) {
				if (!drv_pipe_buffer_storage(pipe->screen, a->buffer))
					return false;
				drv_pipe_flush(pipe);   /* the GPU may have written it */
				from = a->buffer->bo->map + a->offset;
			}
			index_range(d, a, &lo, &hi);
			if (a->buffer && (int64_t)((hi > lo ? hi - 1 : lo) * (uint64_t)a->stride + a->relative_offset +
						   bytes_of(a)) > a->buffer_size - a->offset) {
				drv_hw_unsupported(pipe, "a translated vertex attribute read beyond its buffer");
				return false;
			}
			base = translate_attrib(pipe, a, from + a->relative_offset, a->stride, lo, hi, &stride);
			if (!base)
				return false;
			buf_desc(dd, base, stride, (uint32_t)hi, dfmt, nfmt, sel);
			continue;
		}
		if (a->buffer) {
			if (!drv_pipe_buffer_storage(pipe->screen, a->buffer))
				return false;
			base = a->buffer->bo->va + (uint64_t)a->offset + a->relative_offset;
			avail = a->buffer_size - a->offset - (int64_t)a->relative_offset;
		} else {
			uint64_t lo, hi;
			index_range(d, a, &lo, &hi);
			if (hi <= lo)
				hi = lo + 1;
			uint64_t from = lo * (uint64_t)a->stride;
			uint64_t len = (hi - lo - 1) * (uint64_t)a->stride + bytes;
			uint64_t va = drv_pm4_upload(pipe, a->client_ptr + from + a->relative_offset, len, 16);
			if (!va)
				return false;
			base = va - from;
			avail = (int64_t)(from + len);
		}
		buf_desc(dd, base, a->stride, records(avail, a->stride, bytes), dfmt, nfmt, sel);
	}
	return true;
}

/* Upper bound of the ring bytes a draw uploads. */
static uint64_t upload_bound(const struct drv_pipe_draw_state *state, const struct drv_pipe_draw *d)
{
	uint64_t n = DRV_DESC_TABLE_SIZE + 256 + state->consts_size + 256 + DRV_MAX_ATTRIBS * 32 +
		     DRV_MAX_SAMPLERS * 256;

	for (unsigned loc = 0; loc < DRV_MAX_ATTRIBS; loc++) {
		const struct drv_pipe_vertex_input *a = &state->vertex[loc];
		uint64_t lo, hi;
		if (!a->enabled || ((a->buffer || !a->client_ptr) && !drv_pipe_vertex_translated(a)))
			continue;
		index_range(d, a, &lo, &hi);
		n += (hi > lo ? hi - lo : 1) * ((uint64_t)a->stride + 16) + 64;
	}
	return n;
}

/* ---- draws ---------------------------------------------------------------------------------- */

static uint32_t prim_type(enum drv_pipe_prim prim)
{
	switch (prim) {
	case DRV_PRIM_POINTS: return V_DI_PT_POINTLIST;
	case DRV_PRIM_LINES: return V_DI_PT_LINELIST;
	case DRV_PRIM_LINE_LOOP: return V_DI_PT_LINELOOP;
	case DRV_PRIM_LINE_STRIP: return V_DI_PT_LINESTRIP;
	case DRV_PRIM_TRIANGLES: return V_DI_PT_TRILIST;
	case DRV_PRIM_TRIANGLE_STRIP: return V_DI_PT_TRISTRIP;
	case DRV_PRIM_TRIANGLE_FAN: return V_DI_PT_TRIFAN;
	case DRV_PRIM_QUADS: return V_DI_PT_QUADLIST;
	case DRV_PRIM_QUAD_STRIP: return V_DI_PT_QUADSTRIP;
	case DRV_PRIM_POLYGON: return V_DI_PT_POLYGON;
	case DRV_PRIM_LINES_ADJACENCY: return V_DI_PT_LINELIST_ADJ;
	case DRV_PRIM_LINE_STRIP_ADJACENCY: return V_DI_PT_LINESTRIP_ADJ;
	case DRV_PRIM_TRIANGLES_ADJACENCY: return V_DI_PT_TRILIST_ADJ;
	case DRV_PRIM_TRIANGLE_STRIP_ADJACENCY: return V_DI_PT_TRISTRIP_ADJ;
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
static bool gs_draw_ok(struct drv_pipe *pipe, const struct drv_program *prog)
{
	const struct drv_gs_info *g = &prog->gs;

	/* The ring item sizes are 15-bit register fields (radeonsi asserts). */
	if (g->esgs_itemsize_dw >= 1u << 15 || g->gsvs_itemsize_dw >= 1u << 15) {
		drv_hw_unsupported(pipe, "a geometry shader whose ring items exceed 32767 dwords");
		return false;
	}
	if (!drv_pm4_gs_rings(pipe, prog)) {
		drv_hw_out_of_memory(pipe);
		return false;
	}
	return true;
}

static uint32_t hw_index_type(unsigned index_size)
{
	return index_size == 1 ? V_VGT_INDEX_8 : index_size == 2 ? V_VGT_INDEX_16 : V_VGT_INDEX_32;
}

bool drv_pipe_draw_begin(struct drv_pipe *pipe, const struct drv_program *prog,
			 const struct drv_pipe_shader *shader)
{
	if (!drv_hw_gpu_free(pipe))
		return false;
	if (!prog || !shader->code) {
		/* A program without a vertex shader: the vertex stage is fixed
		 * function (compat), which the sim runs only for no program. */
		drv_hw_unsupported(pipe, "drawing with a program that has no vertex shader (fixed function)");
		return false;
	}
	return !prog->has_gs || gs_draw_ok(pipe, prog);
}

bool drv_pipe_draw_reserve(struct drv_pipe *pipe, const struct drv_pipe_draw_state *state,
			   const struct drv_pipe_draw *d)
{
	if (!ring_reserve(pipe, upload_bound(state, d) + d->index_bytes + 256)) {
		drv_hw_out_of_memory(pipe);
		return false;
	}
	pipe->user_index_va = 0;
	if (d->user_indices) {
		pipe->user_index_va = drv_pm4_upload(pipe, d->user_indices, d->index_bytes, 256);
		if (!pipe->user_index_va) {
			drv_hw_out_of_memory(pipe);
			return false;
		}
	}
	return true;
}

bool drv_pipe_draw(struct drv_pipe *pipe, const struct drv_pipe_draw_state *state,
		   const struct drv_pipe_draw *d)
{
	const struct drv_program *prog = state->prog;
	uint8_t table[DRV_DESC_TABLE_SIZE];
	uint32_t pt = prim_type(d->prim);
	uint64_t index_va = d->index_buffer ? d->index_buffer->bo->va + d->index_offset
					    : pipe->user_index_va;
	uint64_t table_va;
	uint32_t out_prim;
	struct pm4_cs *cs;

	if (!build_descriptors(pipe, state, d, table))
		return false;
	table_va = drv_pm4_upload(pipe, table, DRV_DESC_TABLE_SIZE, 256);
	if (!table_va) {
		drv_hw_out_of_memory(pipe);
		return false;
	}
	pipe->draws_points = (prog->has_gs ? drv_pm4_gs_out_prim(prog->gs.output_prim) : gs_out_prim(pt)) ==
			     V_POINTLIST;
	cs = drv_hw_cs(pipe->screen, (prog->has_gs ? 112 + 80 : 112) + DRV_PM4_PIXEL_STATE_DW);
	if (prog->has_gs)
		drv_pm4_gs_emit_rings(pipe, cs);
	emit_atoms(pipe, cs, prog, state->shader, d->indexed, d->index_size);
	/* user SGPRs: s[0:1] descriptor table, s2 base vertex, s3 start instance;
	 * with a GS every stage gets them (the ES fetches the vertices, the GS
	 * and copy shader read constants and rings through the table) */
	for (unsigned i = 0; i < (prog->has_gs ? 3u : 1u) + 1; i++) {
		static const uint32_t user_data[4] = { REG_SPI_SHADER_USER_DATA_VS_0,
						       REG_SPI_SHADER_USER_DATA_ES_0,
						       REG_SPI_SHADER_USER_DATA_GS_0,
						       REG_SPI_SHADER_USER_DATA_PS_0 };
		unsigned at = i == (prog->has_gs ? 3u : 1u) ? 3 : i;
		/* the pixel shader reads constants through the table too */
		if (at == 3 && (pipe->rasterizer_discard || !prog->hw[DRV_HW_PS].present))
			continue;
		if (pm4_set_reg_seq(cs, user_data[at], 4)) {
			pm4_emit(cs, (uint32_t)table_va);
			pm4_emit(cs, (uint32_t)(table_va >> 32));
			pm4_emit(cs, (uint32_t)d->base_vertex);
			pm4_emit(cs, d->base_instance);
		}
	}
	/* si_emit_draw_registers: the GS output primitive is what is rasterized */
	if (pipe->prim_type != pt + 1) {
		pm4_set_uconfig_reg_idx(cs, REG_VGT_PRIMITIVE_TYPE, 1, VGT_PRIMITIVE_TYPE_PRIM_TYPE(pt));
		pipe->prim_type = pt + 1;
	}
	out_prim = prog->has_gs ? drv_pm4_gs_out_prim(prog->gs.output_prim) : gs_out_prim(pt);
	if (pipe->gs_out_prim != out_prim + 1) {
		pm4_set_context_reg(cs, REG_VGT_GS_OUT_PRIM_TYPE,
				    VGT_GS_OUT_PRIM_TYPE_OUTPRIM_TYPE(out_prim));
		pipe->gs_out_prim = out_prim + 1;
	}
	/* si_emit_draw_packets */
	if (d->indexed && pipe->index_type != hw_index_type(d->index_size) + 1) {
		pm4_index_type(cs, VGT_DMA_INDEX_TYPE_INDEX_TYPE(hw_index_type(d->index_size)));
		pipe->index_type = hw_index_type(d->index_size) + 1;
	}
	if (d->so_source)
		drv_pm4_so_draw_opaque(pipe, d->so_source, d->so_stream);
	/* radeonsi's render_cond_bit: the draw packets are predicated while
	 * a render condition is set (GL 4.6 §10.9) */
	cs->predicate = pipe->render_cond != NULL;
	if (d->indirect_buffer) {
		struct pm4_draw_indirect di = {
			.data_offset = d->indirect_offset,
			/* the stage that fetches vertices: the ES with a GS (radeonsi) */
			.base_vtx_loc = ((prog->has_gs ? REG_SPI_SHADER_USER_DATA_ES_2
						       : REG_SPI_SHADER_USER_DATA_VS_2) -
					 PM4_SH_REG_BASE) >> 2,
			.start_inst_loc = ((prog->has_gs ? REG_SPI_SHADER_USER_DATA_ES_3
							 : REG_SPI_SHADER_USER_DATA_VS_3) -
					   PM4_SH_REG_BASE) >> 2,
			.draw_initiator = VGT_DRAW_INITIATOR_SOURCE_SELECT(
				d->indexed ? V_DI_SRC_SEL_DMA : V_DI_SRC_SEL_AUTO_INDEX),
		};
		pm4_set_base(cs, 1, d->indirect_buffer->bo->va);
		if (d->indexed) {
			pm4_index_base(cs, index_va, 0);
			pm4_index_buffer_size(cs, d->index_max);
		}
		pm4_draw_indirect(cs, d->indexed ? PKT3_DRAW_INDEX_INDIRECT : PKT3_DRAW_INDIRECT, &di);
		pipe->num_instances = 0;   /* the CP wrote VGT_NUM_INSTANCES from memory */
	} else {
		if (pipe->num_instances != d->instances + 1) {
			pm4_num_instances(cs, d->instances);
			pipe->num_instances = d->instances + 1;
		}
		if (d->indexed) {
			struct pm4_draw_index_2 di = {
				.max_size = d->index_max,
				.index_base = index_va,
				.index_count = d->count,
				.draw_initiator = VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_DMA),
			};
			pm4_draw_index_2(cs, &di);
		} else {
			pm4_draw_index_auto(cs, d->so_source ? 0 : d->count,
					    VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_AUTO_INDEX) |
					    VGT_DRAW_INITIATOR_USE_OPAQUE(d->so_source != NULL));
		}
	}
	cs->predicate = false;
	if (!pm4_cs_ok(cs)) {
		drv_hw_unsupported(pipe, "a draw whose packets the driver could not encode");
		return false;
	}
	if (!pipe->rasterizer_discard)
		drv_pm4_fb_drawn(pipe, prog);
	return true;
}
