/*
 * gm_vgt.c - the VGT and the SPI for a draw: index fetch, primitive
 * assembly (gm_vgt_prim.c), and launching the hardware VS in waves with
 * its user SGPRs, streamout SGPRs (gm_vgt_so.c) and input VGPRs, or
 * handing the primitives to the geometry-shader path (gm_gs.c).
 *
 * How the legacy VGT packs vertices into VS lanes when streamout is on is
 * not documented (docs/gcn-streamout.md §10.4).  Assumption: with vertex
 * reuse off, each primitive's vertices occupy consecutive lanes in
 * primitive order (list form, as the buffers receive them), and a wave
 * holds only whole primitives (floor(64 / vpp) of them), so so_vtx_count
 * is a multiple of the vertices per primitive.
 *
 * VS input VGPRs (docs/isa.md "Shader ABI"), in radeonsi's order:
 * v0 vertex id (fetched index + VGT_INDX_OFFSET, or the auto index),
 * v1 the vertex's position in the draw's list-expanded order,
 * v2 primitive id, v3 instance id.
 */
#include <stdlib.h>
#include <string.h>

#include "gm_px.h"
#include "xt_fault.h"

#define GM_MAX_DRAW_VERTICES (1u << 22)

bool gm_stage_load(struct gm *gm, struct gm_stage *st, uint32_t pgm_lo, uint32_t pgm_hi,
		   uint32_t rsrc1, uint32_t rsrc2, uint32_t user_data0, const char *name)
{
	uint32_t r1 = gm_regs_get(&gm->regs, rsrc1), r2 = gm_regs_get(&gm->regs, rsrc2);
	uint64_t va = (uint64_t)gm_regs_get(&gm->regs, pgm_lo) << 8 |
		      (uint64_t)(gm_regs_get(&gm->regs, pgm_hi) & 0xFF) << 40;

	memset(st, 0, sizeof *st);
	st->name = name;
	st->user_data0 = user_data0;
	/* RSRC1 VGPRS/SGPRS and RSRC2 USER_SGPR sit at the same bits for VS, GS and ES. */
	st->num_vgprs = (SPI_SHADER_PGM_RSRC1_VS_VGPRS_GET(r1) + 1) * 4;
	st->num_sgprs = (SPI_SHADER_PGM_RSRC1_VS_SGPRS_GET(r1) + 1) * 8;
	if (st->num_sgprs > ISA_NUM_SGPRS)
		st->num_sgprs = ISA_NUM_SGPRS;
	st->user_sgprs = SPI_SHADER_PGM_RSRC2_VS_USER_SGPR_GET(r2);
	if (st->user_sgprs > 16) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, rsrc2,
				"%s USER_SGPR = %u, but there are 16 user data registers", name, st->user_sgprs);
		return false;
	}
	if (!va) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, pgm_lo,
				"draw with no %s program (SPI_SHADER_PGM_LO/HI_%s = 0)", name, name);
		return false;
	}
	if (gm_prog_decode(&gm->mem, va, 1u << 16, &st->prog) != XT_OK) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, va, "out of memory decoding the %s", name);
		return false;
	}
	if (!st->prog.n_insts) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_SHADER, va, "%s program: %s", name, st->prog.stop_reason);
		gm_prog_fini(&st->prog);
		return false;
	}
	st->ok = true;
	return true;
}

void gm_stage_fini(struct gm_stage *st)
{
	gm_prog_fini(&st->prog);
	st->ok = false;
}

unsigned gm_stage_wave_begin(struct gm *gm, const struct gm_stage *st, uint64_t exec)
{
	struct gm_wave *w = gm->wave;
	gm_wave_reset(w, exec, st->num_sgprs, st->num_vgprs);
	for (unsigned i = 0; i < st->user_sgprs; i++)
		w->s[i] = gm_regs_get(&gm->regs, st->user_data0 + 4 * i);
	return st->user_sgprs;
}

void gm_stage_wave_run(struct gm *gm, const struct gm_stage *st, struct gm_wave_env *env)
{
	env->mem = &gm->mem;
	env->faults = &gm->faults;
	env->max_instructions = gm->opts.max_wave_instructions;
	gm_wave_run(gm->wave, &st->prog, env);
	gm->stats.waves++;
	gm->stats.lane_instructions += gm->wave->lane_instructions;
}

/* Loads the streamout SGPRs after `s` (docs/gcn-streamout.md §7.1); returns
 * the next SGPR. */
static unsigned put_so_sgprs(struct gm_wave *w, unsigned s, uint32_t rsrc2, const struct gm_so_wave *so)
{
	if (!SPI_SHADER_PGM_RSRC2_VS_SO_EN_GET(rsrc2))
		return s;
	w->s[s++] = so->config;
	w->s[s++] = so->write_index;
	for (unsigned b = 0; b < 4; b++)
		if ((rsrc2 >> (SPI_SHADER_PGM_RSRC2_VS_SO_BASE0_EN__SHIFT + b)) & 1)
			w->s[s++] = so->offset_dw[b];
	return s;
}

static void vs_draw(struct gm *gm, const struct gm_stage *st, const struct gm_prim_list *l,
		    uint32_t instance, struct gm_so_draw *sd, struct gm_px *px)
{
	unsigned vpp = l->verts_per_prim, per_wave = 64 / vpp;
	uint32_t rsrc2 = gm_regs_get(&gm->regs, REG_SPI_SHADER_PGM_RSRC2_VS);

	for (uint32_t first = 0; first < l->n; first += per_wave) {
		uint32_t prims = l->n - first < per_wave ? l->n - first : per_wave;
		unsigned lanes = prims * vpp;
		uint64_t exec = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
		struct gm_wave_env env = { 0 };
		struct gm_so_wave so;
		struct gm_wave *w = gm->wave;
		unsigned s;

		gm_so_wave(gm, sd, 0, prims, vpp, &so);
		s = gm_stage_wave_begin(gm, st, exec);
		put_so_sgprs(w, s, rsrc2, &so);
		for (unsigned l2 = 0; l2 < lanes; l2++) {
			w->v[0][l2] = l->verts[first * vpp + l2];
			w->v[1][l2] = first * vpp + l2;
			w->v[2][l2] = first + l2 / vpp;
			w->v[3][l2] = instance;
		}
		if (px) {
			env.ctx = px;
			env.export_ = gm_px_vs_export;
			gm_px_vs_wave_begin(px);
		}
		gm_stage_wave_run(gm, st, &env);
		if (px && !w->killed)
			gm_pa_prims(px, prims, vpp, l->edges ? l->edges + first : NULL);
	}
}

static bool fetch_indices(struct gm *gm, const struct gm_draw *d, uint32_t count, uint32_t *ids,
			  uint8_t *restart)
{
	uint32_t type = VGT_DMA_INDEX_TYPE_INDEX_TYPE_GET(gm_regs_get(&gm->regs, REG_VGT_DMA_INDEX_TYPE));
	unsigned isz = type == V_VGT_INDEX_32 ? 4 : type == V_VGT_INDEX_8 ? 1 : 2;
	uint32_t offset = gm_regs_get(&gm->regs, REG_VGT_INDX_OFFSET);
	bool reset_en = VGT_MULTI_PRIM_IB_RESET_EN_RESET_EN_GET(
		gm_regs_get(&gm->regs, REG_VGT_MULTI_PRIM_IB_RESET_EN));
	uint32_t reset_idx = gm_regs_get(&gm->regs, REG_VGT_MULTI_PRIM_IB_RESET_INDX);
	bool faulted = false;

	for (uint32_t k = 0; k < count; k++) {
		uint32_t raw = k;
		if (d->indexed) {
			raw = 0;      /* Assumption: fetches past MAX_SIZE read 0, as GCN's OOB rule */
			if (k < d->index_max) {
				uint8_t *p = gm_mem_ptr(&gm->mem, d->index_va + (uint64_t)k * isz, isz);
				if (p)
					memcpy(&raw, p, isz);
				else if (!faulted) {
					gm_fault_record(&gm->faults, GM_FAULT_BAD_ADDRESS, d->index_va + (uint64_t)k * isz,
							"index fetch %u from unmapped 0x%llx", k,
							(unsigned long long)(d->index_va + (uint64_t)k * isz));
					faulted = true;
				}
			}
			/* Restart compares the fetched index before VGT_INDX_OFFSET. */
			restart[k] = reset_en && raw == reset_idx;
		}
		ids[k] = raw + offset;
	}
	return true;
}

void gm_vgt_draw(struct gm *gm, const struct gm_draw *d)
{
	unsigned prim_type = VGT_PRIMITIVE_TYPE_PRIM_TYPE_GET(gm_regs_get(&gm->regs, REG_VGT_PRIMITIVE_TYPE));
	uint32_t stages = gm_regs_get(&gm->regs, REG_VGT_SHADER_STAGES_EN);
	bool gs = VGT_SHADER_STAGES_EN_GS_EN_GET(stages) &&
		  VGT_GS_MODE_MODE_GET(gm_regs_get(&gm->regs, REG_VGT_GS_MODE)) != V_GS_OFF;
	uint32_t count = d->count;
	struct gm_prim_list list;
	struct gm_so_draw sd;
	struct gm_stage vs;
	struct gm_px *px = NULL;
	uint32_t *ids;
	uint8_t *restart;
	enum xt_rc rc;

	gm->stats.draws++;
	if (!count)
		return;
	if (count > GM_MAX_DRAW_VERTICES) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, 0,
				"draw of %u vertices; the model draws at most %u", count, GM_MAX_DRAW_VERTICES);
		count = GM_MAX_DRAW_VERTICES;
	}
	if (!gm_prim_base_vpp(prim_type)) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, REG_VGT_PRIMITIVE_TYPE,
				"VGT_PRIMITIVE_TYPE %u is not modelled (no tessellation / 2D prims)", prim_type);
		return;
	}
	ids = xt_malloc((size_t)count * 4);
	restart = xt_calloc(count, 1);
	if (!ids || !restart) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, 0, "out of host memory for a draw of %u", count);
		goto out;
	}
	fetch_indices(gm, d, count, ids, restart);
	rc = gm_prim_assemble(prim_type, ids, d->indexed ? restart : NULL, count, gs,
			      PA_SU_SC_MODE_CNTL_PROVOKING_VTX_LAST_GET(gm_regs_get(&gm->regs, REG_PA_SU_SC_MODE_CNTL)),
			      &list);
	if (rc) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, 0, "primitive assembly failed (out of memory)");
		goto out;
	}
	/* what reaches the rasterizer after streamout goes through the pixel
	 * pipeline when a pixel shader is bound (gm_px.h) */
	if (list.n && !PA_CL_CLIP_CNTL_DX_RASTERIZATION_KILL_GET(gm_regs_get(&gm->regs, REG_PA_CL_CLIP_CNTL))) {
		px = xt_malloc(sizeof *px + 64 * sizeof *px->vtx);
		if (!px) {
			gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, 0, "out of host memory for the pixel pipeline");
		} else {
			px->vtx = (struct gm_px_vtx *)(px + 1);
			if (!gm_px_begin(gm, px)) {
				if (!px->on)
					gm->unshaded_draws++;
				gm_px_end(px);
				xt_free(px);
				px = NULL;
			}
		}
	}
	gm_so_draw_begin(gm, &sd);
	if (gs) {
		for (uint32_t i = 0; i < d->instances; i++)
			gm_gs_draw(gm, &list, i, 0, &sd, px);
	} else if (gm_stage_load(gm, &vs, REG_SPI_SHADER_PGM_LO_VS, REG_SPI_SHADER_PGM_HI_VS,
				 REG_SPI_SHADER_PGM_RSRC1_VS, REG_SPI_SHADER_PGM_RSRC2_VS,
				 REG_SPI_SHADER_USER_DATA_VS_0, "VS")) {
		for (uint32_t i = 0; i < d->instances; i++)
			vs_draw(gm, &vs, &list, i, &sd, px);
		gm_stage_fini(&vs);
	}
	if (px) {
		gm_px_end(px);
		xt_free(px);
	}
	gm_prim_list_fini(&list);
out:
	xt_free(ids);
	xt_free(restart);
}
