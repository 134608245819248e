/*
 * drv_pm4_gs.c - the geometry-shader pipeline of a draw, as radeonsi
 * programs it on GFX8 (si_shader_es / si_shader_gs / si_shader_vs for the
 * copy shader, si_update_vgt_shader_config, si_update_gs_ring_buffers of
 * Mesa 18; docs/gcn-streamout.md §3.2, and the captured dump of §8.3):
 *
 *   GS state   VGT_GS_MODE (SCENARIO_G, CUT_MODE from max_vertices),
 *              VGT_GSVS_RING_OFFSET_1..3, VGT_GSVS_RING_ITEMSIZE,
 *              VGT_GS_MAX_VERT_OUT, VGT_GS_VERT_ITEMSIZE[_1.._3],
 *              VGT_GS_INSTANCE_CNT, SPI_SHADER_PGM_*_GS
 *   ES state   VGT_ESGS_RING_ITEMSIZE, SPI_SHADER_PGM_*_ES
 *   copy       SPI_SHADER_PGM_*_VS (the copy shader is the hardware VS;
 *              its SO_EN / SO_BASEn_EN carry the streamout)
 *   stages     VGT_SHADER_STAGES_EN = ES_STAGE_REAL | GS_EN | VS_STAGE_COPY_SHADER
 *   rings      VGT_ESGS_RING_SIZE / VGT_GSVS_RING_SIZE (uconfig, 256-byte
 *              units) and the ring descriptors DRV_DESC_ESGS / DRV_DESC_GSVS
 *
 * The ring sizes and item layouts are the ABI of docs/isa.md "Shader ABI"
 * (what drv_program.c computes into struct drv_gs_info); the values differ
 * from radeonsi's, whose GSVS layout is component-major and swizzled.
 *
 * Rings: one ESGS and one GSVS BO per context, grown (never shrunk) to
 * hold a full wave of the largest items a draw has needed, as
 * si_update_gs_ring_buffers grows radeonsi's.  gpu_model cuts a draw into
 * subgroups that fit the rings, so any size >= one primitive works; a
 * wave's worth keeps the subgroups full.
 */
#include <string.h>

#include "drv_hw.h"

#define RING_MIN_BYTES (64u << 10)

/* VGT_GS_MODE of a GS with `max_vertices` outputs (ac_vgt_gs_mode, GFX8). */
static uint32_t gs_mode(uint32_t max_vertices)
{
	uint32_t cut = max_vertices <= 128 ? V_GS_CUT_128 : max_vertices <= 256 ? V_GS_CUT_256 :
		       max_vertices <= 512 ? V_GS_CUT_512 : V_GS_CUT_1024;

	return VGT_GS_MODE_MODE(V_GS_SCENARIO_G) | VGT_GS_MODE_CUT_MODE(cut) |
	       VGT_GS_MODE_ES_WRITE_OPTIMIZE(1) | VGT_GS_MODE_GS_WRITE_OPTIMIZE(1);
}

uint32_t drv_pm4_gs_out_prim(uint32_t output_prim)
{
	switch (output_prim) {
	case DRV_GL_POINTS: return V_POINTLIST;
	case DRV_GL_LINE_STRIP: return V_LINESTRIP;
	default: return V_TRISTRIP;
	}
}

/* ---- code ------------------------------------------------------------------------------- */

uint64_t drv_pm4_code_offset(const struct drv_program *prog, enum drv_hw_stage hw)
{
	static const enum drv_hw_stage order[] = { DRV_HW_VS, DRV_HW_COPY, DRV_HW_ES, DRV_HW_GS, DRV_HW_PS };
	uint64_t off = 0;

	for (unsigned i = 0; i < sizeof order / sizeof order[0]; i++) {
		const struct drv_stage_binary *b = &prog->hw[order[i]];
		if (order[i] == hw)
			return off;
		if (b->present)
			off += ((uint64_t)b->size_dw * 4 + 64 + 255) & ~255ull;
	}
	return off;   /* hw == DRV_HW_COUNT: the total size */
}

/* ---- shader state ------------------------------------------------------------------------ */

static uint32_t rsrc1(const struct drv_stage_binary *b)
{
	/* VGPRS / SGPRS sit at the same bits in RSRC1_VS, _GS and _ES. */
	return SPI_SHADER_PGM_RSRC1_VS_VGPRS((b->num_vgprs ? b->num_vgprs - 1 : 0) / 4) |
	       SPI_SHADER_PGM_RSRC1_VS_SGPRS((b->num_sgprs ? b->num_sgprs - 1 : 0) / 8);
}

/* SPI_SHADER_PGM_LO/HI/RSRC1/RSRC2 of one stage, starting at `pgm_lo`. */
static void emit_pgm(struct pm4_cs *cs, uint32_t pgm_lo, uint64_t va, uint32_t r1, uint32_t r2)
{
	if (pm4_set_reg_seq(cs, pgm_lo, 4)) {
		pm4_emit(cs, (uint32_t)(va >> 8));
		pm4_emit(cs, SPI_SHADER_PGM_HI_VS_MEM_BASE((uint32_t)(va >> 40)));
		pm4_emit(cs, r1);
		pm4_emit(cs, r2);
	}
}

void drv_pm4_gs_emit_shaders(struct drv_pipe *pipe, struct pm4_cs *cs,
			     const struct drv_program *prog, const struct drv_pipe_shader *shader)
{
	const struct drv_gs_info *g = &prog->gs;
	const struct drv_stage_binary *es = &prog->hw[DRV_HW_ES], *gs = &prog->hw[DRV_HW_GS];
	const struct drv_stage_binary *vs = &prog->hw[DRV_HW_COPY];
	uint64_t base = shader->code->va;
	uint32_t inst = g->invocations > 127 ? 127 : g->invocations;

	/* si_shader_gs */
	pm4_set_context_reg(cs, REG_VGT_GS_MODE, gs_mode(g->max_vertices));
	if (pm4_set_reg_seq(cs, REG_VGT_GSVS_RING_OFFSET_1, 3)) {
		for (unsigned s = 1; s < 4; s++)
			pm4_emit(cs, VGT_GSVS_RING_OFFSET_1_OFFSET(g->ring_offset_dw[s]));
	}
	pm4_set_context_reg(cs, REG_VGT_GSVS_RING_ITEMSIZE,
			    VGT_GSVS_RING_ITEMSIZE_ITEMSIZE(g->gsvs_itemsize_dw));
	pm4_set_context_reg(cs, REG_VGT_GS_MAX_VERT_OUT, VGT_GS_MAX_VERT_OUT_MAX_VERT_OUT(g->max_vertices));
	if (pm4_set_reg_seq(cs, REG_VGT_GS_VERT_ITEMSIZE, 4)) {
		for (unsigned s = 0; s < 4; s++)
			pm4_emit(cs, VGT_GS_VERT_ITEMSIZE_ITEMSIZE(g->vert_itemsize_dw[s]));
	}
	/* radeonsi enables instancing for every GS (CNT = invocations >= 1). */
	pm4_set_context_reg(cs, REG_VGT_GS_INSTANCE_CNT,
			    VGT_GS_INSTANCE_CNT_CNT(inst) | VGT_GS_INSTANCE_CNT_ENABLE(inst > 0));
	emit_pgm(cs, REG_SPI_SHADER_PGM_LO_GS, base + drv_pm4_code_offset(prog, DRV_HW_GS), rsrc1(gs),
		 SPI_SHADER_PGM_RSRC2_GS_USER_SGPR(gs->user_sgprs));
	/* si_shader_es */
	pm4_set_context_reg(cs, REG_VGT_ESGS_RING_ITEMSIZE,
			    VGT_ESGS_RING_ITEMSIZE_ITEMSIZE(g->esgs_itemsize_dw));
	emit_pgm(cs, REG_SPI_SHADER_PGM_LO_ES, base + drv_pm4_code_offset(prog, DRV_HW_ES), rsrc1(es),
		 SPI_SHADER_PGM_RSRC2_ES_USER_SGPR(es->user_sgprs));
	/* si_shader_vs(copy shader) */
	emit_pgm(cs, REG_SPI_SHADER_PGM_LO_VS, base + drv_pm4_code_offset(prog, DRV_HW_COPY), rsrc1(vs),
		 SPI_SHADER_PGM_RSRC2_VS_USER_SGPR(vs->user_sgprs) |
		 SPI_SHADER_PGM_RSRC2_VS_SO_EN(vs->so_en) |
		 SPI_SHADER_PGM_RSRC2_VS_SO_BASE0_EN(vs->so_base_en & 1) |
		 SPI_SHADER_PGM_RSRC2_VS_SO_BASE1_EN(vs->so_base_en >> 1 & 1) |
		 SPI_SHADER_PGM_RSRC2_VS_SO_BASE2_EN(vs->so_base_en >> 2 & 1) |
		 SPI_SHADER_PGM_RSRC2_VS_SO_BASE3_EN(vs->so_base_en >> 3 & 1));
	/* si_update_vgt_shader_config */
	pm4_set_context_reg(cs, REG_VGT_SHADER_STAGES_EN,
			    VGT_SHADER_STAGES_EN_ES_EN(V_ES_STAGE_REAL) | VGT_SHADER_STAGES_EN_GS_EN(1) |
			    VGT_SHADER_STAGES_EN_VS_EN(V_VS_STAGE_COPY_SHADER));
	pipe->gs_on = true;
}

void drv_pm4_gs_emit_off(struct drv_pipe *pipe, struct pm4_cs *cs)
{
	if (!pipe->gs_on)
		return;
	pm4_set_context_reg(cs, REG_VGT_GS_MODE, VGT_GS_MODE_MODE(V_GS_OFF));
	pm4_set_context_reg(cs, REG_VGT_SHADER_STAGES_EN, 0);
	pipe->gs_on = false;
}

/* ---- rings --------------------------------------------------------------------------------- */

/* Makes *ring at least `need` bytes; false when out of memory. */
static bool grow(struct drv_pipe *pipe, struct drv_bo **ring, uint64_t need)
{
	uint64_t size = RING_MIN_BYTES;

	if (*ring && (*ring)->size_bytes >= need)
		return true;
	while (size < need)
		size *= 2;
	/* The pending IB may still name the old ring. */
	drv_pipe_flush(pipe);
	drv_bo_destroy(pipe->screen, *ring);
	*ring = drv_bo_create(pipe->screen, size, 256);
	pipe->gs_rings_emitted = false;
	return *ring != NULL;
}

bool drv_pm4_gs_rings(struct drv_pipe *pipe, const struct drv_program *prog)
{
	const struct drv_gs_info *g = &prog->gs;

	return grow(pipe, &pipe->esgs_ring, 64ull * g->esgs_itemsize_dw * 4) &&
	       grow(pipe, &pipe->gsvs_ring, 64ull * g->gsvs_itemsize_dw * 4);
}

void drv_pm4_gs_emit_rings(struct drv_pipe *pipe, struct pm4_cs *cs)
{
	if (pipe->gs_rings_emitted)
		return;
	pm4_set_uconfig_reg(cs, REG_VGT_ESGS_RING_SIZE, (uint32_t)(pipe->esgs_ring->size_bytes / 256));
	pm4_set_uconfig_reg(cs, REG_VGT_GSVS_RING_SIZE, (uint32_t)(pipe->gsvs_ring->size_bytes / 256));
	pipe->gs_rings_emitted = true;
}

static void ring_desc(uint32_t d[4], const struct drv_bo *ring)
{
	d[0] = SQ_BUF_RSRC_WORD0_BASE_ADDRESS((uint32_t)ring->va);
	d[1] = SQ_BUF_RSRC_WORD1_BASE_ADDRESS_HI((uint32_t)(ring->va >> 32)) | SQ_BUF_RSRC_WORD1_STRIDE(0);
	d[2] = SQ_BUF_RSRC_WORD2_NUM_RECORDS((uint32_t)ring->size_bytes);
	d[3] = SQ_BUF_RSRC_WORD3_DST_SEL_X(V_SQ_SEL_X) | SQ_BUF_RSRC_WORD3_DST_SEL_Y(V_SQ_SEL_Y) |
	       SQ_BUF_RSRC_WORD3_DST_SEL_Z(V_SQ_SEL_Z) | SQ_BUF_RSRC_WORD3_DST_SEL_W(V_SQ_SEL_W) |
	       SQ_BUF_RSRC_WORD3_NUM_FORMAT(V_BUF_NUM_FORMAT_UINT) |
	       SQ_BUF_RSRC_WORD3_DATA_FORMAT(V_BUF_DATA_FORMAT_32);
}

void drv_pm4_gs_descriptors(struct drv_pipe *pipe, uint32_t *desc)
{
	ring_desc(desc + 4 * DRV_DESC_ESGS, pipe->esgs_ring);
	ring_desc(desc + 4 * DRV_DESC_GSVS, pipe->gsvs_ring);
}
