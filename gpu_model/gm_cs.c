/*
 * gm_cs.c - the compute dispatcher (docs/compute.md): DISPATCH_DIRECT /
 * DISPATCH_INDIRECT launch workgroups of the COMPUTE_PGM_* program, each as
 * ceil(threads / 64) wave64 waves sharing one LDS allocation; and the ds_*
 * instructions those waves run on it.
 *
 * What the SPI hands a compute wave (COMPUTE_PGM_RSRC2):
 *   SGPRs: USER_SGPR user SGPRs (COMPUTE_USER_DATA_0..), then the
 *          workgroup id X, Y, Z (each only if its TGID_*_EN), then with
 *          TG_SIZE_EN the thread-group SGPR: bits [5:0] the group's wave
 *          count, bits [11:6] this wave's index in the group;
 *   VGPRs: v0 (, v1 (, v2)) = the thread's id in the group along X (, Y
 *          (, Z)), TIDIG_COMP_CNT + 1 of them.
 * Threads fill the waves in X-major order (thread t of the group is lane
 * t % 64 of wave t / 64; x = t % NX, y = t / NX % NY, z = t / (NX * NY)).
 *
 * The model's choice for s_barrier: the waves of one workgroup run one
 * after the other, each up to its next s_barrier (gm_wave_env
 * .yield_at_barrier); when every wave that has not ended waits there, all
 * are released.  Workgroups run one after the other in X, then Y, then Z
 * order, so memory written by one group is visible to later ones (GL
 * promises no order between groups; any order is conforming).
 *
 * LDS: LDS_SIZE * 512 bytes per group (GFX7+ granularity), zeroed at the
 * start of each group for determinism (the hardware leaves it undefined).
 * A ds_* access outside the group's allocation reads 0 and writes nothing,
 * as the hardware's LDS bounds check does.  Assumption: the model does not
 * apply GFX8's M0 limit (radeonsi sets M0 = -1 before LDS accesses).
 */
#include <stdlib.h>
#include <string.h>

#include "gm_priv.h"
#include "xt_fault.h"

#define GM_CS_MAX_THREADS  1024u    /* GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS of radeonsi */
#define GM_CS_LDS_UNIT     512u
#define GM_CS_MAX_LDS      65536u   /* LDS of a GFX8 CU */
#define GM_CS_MAX_GROUPS   (1ull << 22)  /* the model's bound on one dispatch */

void gm_wave_exec_ds(struct gm_wave *w, const struct gm_dinst *d, const struct gm_wave_env *env)
{
	const struct isa_inst *in = &d->i;
	const uint32_t *A = w->v[in->src[0] - ISA_OPD_VGPR0];
	const uint32_t *D = isa_opd_is_vgpr(in->src[1]) ? w->v[in->src[1] - ISA_OPD_VGPR0] : NULL;
	uint32_t *R = isa_opd_is_vgpr(in->dst) ? w->v[in->dst - ISA_OPD_VGPR0] : NULL;
	uint64_t exec = gm_wave_exec(w);

	for (unsigned l = 0; l < 64; l++) {
		uint64_t addr;
		uint32_t v = 0;
		bool in_range;
		if (!(exec >> l & 1))
			continue;
		/* dword accesses: the low two address bits are ignored */
		addr = ((uint64_t)A[l] + in->imm) & ~3ull;
		in_range = env->lds && addr + 4 <= env->lds_size;
		if (in_range)
			memcpy(&v, env->lds + addr, 4);
		switch (in->op) {
		case ISA_OP_DS_READ_B32:
			R[l] = v;
			break;
		case ISA_OP_DS_WRITE_B32:
			if (in_range)
				memcpy(env->lds + addr, &D[l], 4);
			break;
		case ISA_OP_DS_ADD_U32:
			v += D[l];
			if (in_range)
				memcpy(env->lds + addr, &v, 4);
			break;
		default:
			break;
		}
	}
}

struct cs_launch {
	struct gm_prog prog;
	unsigned num_sgprs, num_vgprs, user_sgprs;
	uint32_t rsrc2;
	uint32_t nt[3];            /* threads per group along X, Y, Z */
	unsigned threads, waves;
	uint32_t lds_size;
};

static bool cs_load(struct gm *gm, struct cs_launch *c)
{
	uint32_t r1 = gm_regs_get(&gm->regs, REG_COMPUTE_PGM_RSRC1);
	uint64_t va = (uint64_t)gm_regs_get(&gm->regs, REG_COMPUTE_PGM_LO) << 8 |
		      (uint64_t)(gm_regs_get(&gm->regs, REG_COMPUTE_PGM_HI) & 0xFF) << 40;
	static const uint32_t num_thread[3] = { REG_COMPUTE_NUM_THREAD_X, REG_COMPUTE_NUM_THREAD_Y,
						REG_COMPUTE_NUM_THREAD_Z };

	c->rsrc2 = gm_regs_get(&gm->regs, REG_COMPUTE_PGM_RSRC2);
	c->num_vgprs = (COMPUTE_PGM_RSRC1_VGPRS_GET(r1) + 1) * 4;
	c->num_sgprs = (COMPUTE_PGM_RSRC1_SGPRS_GET(r1) + 1) * 8;
	if (c->num_sgprs > ISA_NUM_SGPRS)
		c->num_sgprs = ISA_NUM_SGPRS;
	c->user_sgprs = COMPUTE_PGM_RSRC2_USER_SGPR_GET(c->rsrc2);
	if (c->user_sgprs > 16) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, REG_COMPUTE_PGM_RSRC2,
				"COMPUTE_PGM_RSRC2.USER_SGPR = %u, but there are 16 user data registers",
				c->user_sgprs);
		return false;
	}
	c->threads = 1;
	for (unsigned i = 0; i < 3; i++) {
		/* (the three registers share one field layout) */
		c->nt[i] = COMPUTE_NUM_THREAD_X_NUM_THREAD_FULL_GET(gm_regs_get(&gm->regs, num_thread[i]));
		c->threads *= c->nt[i];
	}
	if (!c->threads || c->threads > GM_CS_MAX_THREADS) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, REG_COMPUTE_NUM_THREAD_X,
				"dispatch of %u x %u x %u threads per workgroup (COMPUTE_NUM_THREAD_*): "
				"the model runs 1 to %u", c->nt[0], c->nt[1], c->nt[2], GM_CS_MAX_THREADS);
		return false;
	}
	c->waves = (c->threads + 63) / 64;
	c->lds_size = COMPUTE_PGM_RSRC2_LDS_SIZE_GET(c->rsrc2) * GM_CS_LDS_UNIT;
	if (c->lds_size > GM_CS_MAX_LDS) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, REG_COMPUTE_PGM_RSRC2,
				"COMPUTE_PGM_RSRC2.LDS_SIZE asks %u bytes, a CU has %u", c->lds_size, GM_CS_MAX_LDS);
		return false;
	}
	if (!va) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, REG_COMPUTE_PGM_LO,
				"dispatch with no compute program (COMPUTE_PGM_LO/HI = 0)");
		return false;
	}
	if (gm_prog_decode(&gm->mem, va, 1u << 16, &c->prog) != XT_OK) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, va, "out of memory decoding the compute shader");
		return false;
	}
	if (!c->prog.n_insts) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_SHADER, va, "compute program: %s", c->prog.stop_reason);
		gm_prog_fini(&c->prog);
		return false;
	}
	return true;
}

static void wave_begin(struct gm *gm, const struct cs_launch *c, struct gm_wave *w, unsigned wi,
		       const uint32_t group[3])
{
	unsigned first = wi * 64, n = c->threads - first < 64 ? c->threads - first : 64;
	unsigned s = c->user_sgprs, comps = COMPUTE_PGM_RSRC2_TIDIG_COMP_CNT_GET(c->rsrc2) + 1;

	gm_wave_reset(w, n == 64 ? ~0ull : (1ull << n) - 1, c->num_sgprs, c->num_vgprs);
	for (unsigned i = 0; i < c->user_sgprs; i++)
		w->s[i] = gm_regs_get(&gm->regs, REG_COMPUTE_USER_DATA_0 + 4 * i);
	for (unsigned i = 0; i < 3; i++)
		if (c->rsrc2 >> (COMPUTE_PGM_RSRC2_TGID_X_EN__SHIFT + i) & 1)
			w->s[s++] = group[i];
	if (COMPUTE_PGM_RSRC2_TG_SIZE_EN_GET(c->rsrc2))
		w->s[s++] = c->waves | wi << 6;
	for (unsigned l = 0; l < n; l++) {
		unsigned t = first + l;
		uint32_t id[3] = { t % c->nt[0], t / c->nt[0] % c->nt[1], t / (c->nt[0] * c->nt[1]) };
		for (unsigned k = 0; k < comps && k < 3 && k < c->num_vgprs; k++)
			w->v[k][l] = id[k];
	}
}

/* Runs one workgroup's waves to their ends, releasing them at barriers. */
static void run_group(struct gm *gm, const struct cs_launch *c, struct gm_wave *waves,
		      struct gm_wave_env *env, const uint32_t group[3])
{
	bool *done = xt_calloc(c->waves, sizeof *done);
	unsigned left = c->waves;

	if (!done) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, 0, "out of memory for a workgroup");
		return;
	}
	if (env->lds)
		memset(env->lds, 0, c->lds_size);
	for (unsigned i = 0; i < c->waves; i++)
		wave_begin(gm, c, &waves[i], i, group);
	while (left) {
		/* every wave still running goes to its next barrier or its end */
		for (unsigned i = 0; i < c->waves; i++) {
			if (done[i])
				continue;
			gm_wave_run(&waves[i], &c->prog, env);
			if (!waves[i].at_barrier) {
				done[i] = true;
				left--;
				gm->stats.waves++;
				gm->stats.lane_instructions += waves[i].lane_instructions;
			}
		}
	}
	xt_free(done);
}

void gm_cs_dispatch(struct gm *gm, const uint32_t groups[3], uint32_t initiator)
{
	struct cs_launch c;
	struct gm_wave_env env;
	struct gm_wave *waves;
	uint32_t g[3];

	gm_regs_write(&gm->regs, REG_COMPUTE_DIM_X, groups[0]);
	gm_regs_write(&gm->regs, REG_COMPUTE_DIM_Y, groups[1]);
	gm_regs_write(&gm->regs, REG_COMPUTE_DIM_Z, groups[2]);
	gm_regs_write(&gm->regs, REG_COMPUTE_DISPATCH_INITIATOR, initiator);
	if (!COMPUTE_DISPATCH_INITIATOR_COMPUTE_SHADER_EN_GET(initiator)) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, REG_COMPUTE_DISPATCH_INITIATOR,
				"dispatch with COMPUTE_DISPATCH_INITIATOR.COMPUTE_SHADER_EN = 0");
		return;
	}
	if (!groups[0] || !groups[1] || !groups[2])
		return;    /* GL 4.6 §19: an empty dispatch runs nothing */
	if ((uint64_t)groups[0] * groups[1] * groups[2] > GM_CS_MAX_GROUPS) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, REG_COMPUTE_DIM_X,
				"dispatch of %u x %u x %u workgroups: the model runs at most %llu",
				groups[0], groups[1], groups[2], (unsigned long long)GM_CS_MAX_GROUPS);
		return;
	}
	memset(&c, 0, sizeof c);
	if (!cs_load(gm, &c))
		return;
	memset(&env, 0, sizeof env);
	env.mem = &gm->mem;
	env.faults = &gm->faults;
	env.max_instructions = gm->opts.max_wave_instructions;
	env.yield_at_barrier = true;
	env.lds_size = c.lds_size;
	env.lds = c.lds_size ? xt_malloc(c.lds_size) : NULL;
	waves = xt_malloc(c.waves * sizeof *waves);
	if (!waves || (c.lds_size && !env.lds)) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, 0, "out of memory for %u compute waves", c.waves);
		goto out;
	}
	for (g[2] = 0; g[2] < groups[2]; g[2]++)
		for (g[1] = 0; g[1] < groups[1]; g[1]++)
			for (g[0] = 0; g[0] < groups[0]; g[0]++)
				run_group(gm, &c, waves, &env, g);
out:
	xt_free(waves);
	xt_free(env.lds);
	gm_prog_fini(&c.prog);
}
