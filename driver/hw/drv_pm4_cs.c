/*
 * drv_pm4_cs.c - compute dispatches as radeonsi's si_launch_grid emits them
 * on GFX8 (docs/compute.md): the COMPUTE_* registers of the program and
 * the workgroup size, the user SGPRs, then DISPATCH_DIRECT, or SET_BASE
 * (index 1) + DISPATCH_INDIRECT for counts in a buffer.
 *
 * gl_NumWorkGroups: the shader reads three dwords at the VA in user SGPRs
 * s[2:3], as radeonsi does for an indirect dispatch: the counts uploaded
 * to the upload ring for a direct one, the indirect buffer itself for an
 * indirect one (GL 4.6 §19: the values are read at dispatch time).
 *
 * The compute registers are SH registers of their own: a dispatch does not
 * disturb what the draw atoms emitted, so it dirties none of them.
 */
#include <string.h>

#include "drv_hw.h"

#define DRV_CS_USER_SGPRS  4u
#define DRV_CS_LDS_UNIT    512u      /* COMPUTE_PGM_RSRC2.LDS_SIZE granularity (GFX7+) */
#define DRV_CS_MAX_LDS     32768u    /* GL_MAX_COMPUTE_SHARED_MEMORY_SIZE of radeonsi on GFX8 */
#define DRV_CS_MAX_THREADS 1024u     /* GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS */

bool drv_pipe_compute_upload(struct drv_pipe_screen *screen, struct drv_pipe_compute *cs,
			     const struct drv_stage_binary *bin, const uint32_t block[3], uint32_t lds_bytes)
{
	drv_bo_destroy(screen, cs->code);
	memset(cs, 0, sizeof *cs);
	cs->code = drv_bo_create(screen, (uint64_t)bin->size_dw * 4, 256);
	if (!cs->code)
		return false;
	memcpy(cs->code->map, bin->code, (size_t)bin->size_dw * 4);
	cs->num_sgprs = bin->num_sgprs;
	cs->num_vgprs = bin->num_vgprs;
	memcpy(cs->block, block, sizeof cs->block);
	cs->lds_bytes = lds_bytes;
	return true;
}

void drv_pipe_compute_release(struct drv_pipe_screen *screen, struct drv_pipe_compute *cs)
{
	drv_bo_destroy(screen, cs->code);
	memset(cs, 0, sizeof *cs);
}

static const char *launch_unsupported(const struct drv_pipe *pipe, const struct drv_pipe_compute *cs)
{
	uint64_t threads = (uint64_t)cs->block[0] * cs->block[1] * cs->block[2];

	if (!cs->code)
		return "a dispatch with no compute shader";
	if (!threads || threads > DRV_CS_MAX_THREADS)
		return "a workgroup of more than 1024 invocations";
	if (cs->lds_bytes > DRV_CS_MAX_LDS)
		return "more than 32 KiB of shared variables";
	if (pipe->render_cond)
		return "a compute dispatch under conditional rendering";
	return NULL;
}

bool drv_pipe_launch_grid(struct drv_pipe *pipe, const struct drv_pipe_compute *cs,
			  const struct drv_pipe_grid *grid)
{
	const char *why = launch_unsupported(pipe, cs);
	uint64_t va = cs->code ? cs->code->va : 0, num_va;
	uint32_t lds_units, vgprs, sgprs;
	const uint32_t initiator = COMPUTE_DISPATCH_INITIATOR_COMPUTE_SHADER_EN(1) |
				   COMPUTE_DISPATCH_INITIATOR_FORCE_START_AT_000(1) |
				   COMPUTE_DISPATCH_INITIATOR_ORDER_MODE(1);
	struct pm4_cs *pcs;

	if (why) {
		drv_hw_unsupported(pipe, why);
		return false;
	}
	if (!drv_hw_gpu_free(pipe))
		return false;
	if (grid->indirect) {
		if (!drv_pipe_buffer_storage(pipe->screen, grid->indirect)) {
			drv_hw_out_of_memory(pipe);
			return false;
		}
		num_va = grid->indirect->bo->va + grid->indirect_offset;
	} else {
		if (!grid->groups[0] || !grid->groups[1] || !grid->groups[2])
			return true;      /* GL 4.6 §19.1: no work groups, nothing runs */
		num_va = drv_pm4_upload(pipe, grid->groups, sizeof grid->groups, 16);
		if (!num_va) {
			drv_hw_out_of_memory(pipe);
			return false;
		}
	}
	vgprs = cs->num_vgprs ? (cs->num_vgprs - 1) / 4 : 0;
	sgprs = cs->num_sgprs ? (cs->num_sgprs - 1) / 8 : 0;
	lds_units = (cs->lds_bytes + DRV_CS_LDS_UNIT - 1) / DRV_CS_LDS_UNIT;

	pcs = drv_hw_cs(pipe->screen, 64);
	pm4_set_sh_reg(pcs, REG_COMPUTE_PGM_LO, (uint32_t)(va >> 8));
	pm4_set_sh_reg(pcs, REG_COMPUTE_PGM_HI, (uint32_t)(va >> 40));
	pm4_set_sh_reg(pcs, REG_COMPUTE_PGM_RSRC1,
		       COMPUTE_PGM_RSRC1_VGPRS(vgprs) | COMPUTE_PGM_RSRC1_SGPRS(sgprs));
	pm4_set_sh_reg(pcs, REG_COMPUTE_PGM_RSRC2,
		       COMPUTE_PGM_RSRC2_USER_SGPR(DRV_CS_USER_SGPRS) |
		       COMPUTE_PGM_RSRC2_TGID_X_EN(1) | COMPUTE_PGM_RSRC2_TGID_Y_EN(1) |
		       COMPUTE_PGM_RSRC2_TGID_Z_EN(1) | COMPUTE_PGM_RSRC2_TIDIG_COMP_CNT(2) |
		       COMPUTE_PGM_RSRC2_LDS_SIZE(lds_units));
	pm4_set_sh_reg(pcs, REG_COMPUTE_RESOURCE_LIMITS, 0);
	pm4_set_sh_reg(pcs, REG_COMPUTE_TMPRING_SIZE, 0);
	pm4_set_reg_seq(pcs, REG_COMPUTE_START_X, 6);
	pm4_emit(pcs, 0);
	pm4_emit(pcs, 0);
	pm4_emit(pcs, 0);
	for (unsigned i = 0; i < 3; i++)
		pm4_emit(pcs, COMPUTE_NUM_THREAD_X_NUM_THREAD_FULL(cs->block[i]));
	pm4_set_reg_seq(pcs, REG_COMPUTE_USER_DATA_0, DRV_CS_USER_SGPRS);
	pm4_emit(pcs, (uint32_t)grid->desc_table_va);
	pm4_emit(pcs, (uint32_t)(grid->desc_table_va >> 32));
	pm4_emit(pcs, (uint32_t)num_va);
	pm4_emit(pcs, (uint32_t)(num_va >> 32));
	if (grid->indirect) {
		pm4_set_base(pcs, 1, grid->indirect->bo->va);
		pm4_dispatch_indirect(pcs, (uint32_t)grid->indirect_offset, initiator);
	} else {
		pm4_dispatch_direct(pcs, grid->groups[0], grid->groups[1], grid->groups[2], initiator);
	}
	return true;
}
