/*
 * compute.c - throughput of gpu_model's compute dispatcher (gm_cs.c,
 * docs/compute.md): one DISPATCH_DIRECT of `groups` workgroups of `local`
 * threads, each thread writing its LDS slot, crossing an s_barrier (or
 * not) and storing the slot of thread local - 1 - i to a buffer, against
 * a scalar C loop doing the same per-thread work.
 *
 * Output: seconds, waves, lane-instructions per second and microseconds
 * per wave of the model, threads per second of the C yardstick, and the
 * check that every output is right.  Usage: compute-bench [groups] [local]
 * [barrier 0|1]
 */
#include <stdio.h>
#include <time.h>

#include "gm_test_util.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline))
static void c_yardstick(uint32_t *out, unsigned groups, unsigned local)
{
	uint32_t lds[1024];
	for (unsigned g = 0; g < groups; g++) {
		for (unsigned i = 0; i < local; i++)
			lds[i] = i + 1;
		for (unsigned i = 0; i < local; i++)
			out[g * local + i] = lds[local - 1 - i];
	}
}

int main(int argc, char **argv)
{
	unsigned groups = argc > 1 ? (unsigned)atoi(argv[1]) : 4096;
	unsigned local = argc > 2 ? (unsigned)atoi(argv[2]) : 128;
	unsigned barrier = argc > 3 ? (unsigned)atoi(argv[3]) : 1;
	struct tgpu t;
	struct gm_bo *out;
	struct gm_so_stats st;
	uint32_t user[4], *ref;
	uint64_t cs;
	char src[1024];
	double t0, dt, dc;
	unsigned bad = 0;
	int status;

	if (!groups || !local || local > 1024) {
		fprintf(stderr, "usage: compute-bench [groups >= 1] [local 1..1024] [barrier 0|1]\n");
		return 2;
	}
	tgpu_init(&t);
	out = tgpu_bo(&t, 4ull * local * groups);
	tgpu_desc(user, gm_bo_va(out), 0, 4 * local * groups, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	snprintf(src, sizeof src,
		 "v_lshl_b32 v1, v0, 2\n"
		 "v_add_u32 v2, v0, 1\n"
		 "ds_write_b32 v1, v2\n"
		 "%s"
		 "v_sub_u32 v4, %u, v0\n"
		 "v_lshl_b32 v4, v4, 2\n"
		 "ds_read_b32 v5, v4\n"
		 "s_mul_i32 s12, s4, %u\n"
		 "v_add_u32 v7, v0, s12\n"
		 "v_lshl_b32 v7, v7, 2\n"
		 "buffer_store_dword v5, v7, s[0:3], 0 offen\n"
		 "s_endpgm\n", barrier ? "s_waitcnt 0\ns_barrier\n" : "", local - 1, local);
	cs = tgpu_shader(&t, src);
	pm4_set_sh_reg(&t.cs, REG_COMPUTE_PGM_LO, (uint32_t)(cs >> 8));
	pm4_set_sh_reg(&t.cs, REG_COMPUTE_PGM_HI, (uint32_t)(cs >> 40));
	pm4_set_sh_reg(&t.cs, REG_COMPUTE_PGM_RSRC1, COMPUTE_PGM_RSRC1_VGPRS(1) | COMPUTE_PGM_RSRC1_SGPRS(1));
	pm4_set_sh_reg(&t.cs, REG_COMPUTE_PGM_RSRC2, COMPUTE_PGM_RSRC2_USER_SGPR(4) | COMPUTE_PGM_RSRC2_TGID_X_EN(1) |
		       COMPUTE_PGM_RSRC2_LDS_SIZE((local * 4 + 511) / 512));
	pm4_set_sh_reg(&t.cs, REG_COMPUTE_NUM_THREAD_X, local);
	pm4_set_sh_reg(&t.cs, REG_COMPUTE_NUM_THREAD_Y, 1);
	pm4_set_sh_reg(&t.cs, REG_COMPUTE_NUM_THREAD_Z, 1);
	for (unsigned i = 0; i < 4; i++)
		pm4_set_sh_reg(&t.cs, REG_COMPUTE_USER_DATA_0 + 4 * i, user[i]);
	pm4_dispatch_direct(&t.cs, groups, 1, 1, COMPUTE_DISPATCH_INITIATOR_COMPUTE_SHADER_EN(1));
	t0 = now_s();
	tgpu_submit(&t);
	dt = now_s() - t0;
	gm_so_stats_get(t.gm, &st);

	ref = malloc(4ull * local * groups);
	if (!ref)
		return 1;
	t0 = now_s();
	c_yardstick(ref, groups, local);
	dc = now_s() - t0;
	/* without the barrier only the thread's own wave's slots are written
	 * when it reads; the check is the barrier case's */
	for (unsigned k = 0; barrier && k < groups * local; k++)
		bad += rd32(out, k) != ref[k];
	printf("compute: %u groups x %u threads, barrier %u: %.4f s, %llu waves, %.1f M lane-instr/s, "
	       "%.2f us/wave; C yardstick %.1f M threads/s; faults %llu, wrong %u\n",
	       groups, local, barrier, dt, (unsigned long long)st.waves, st.lane_instructions / dt / 1e6,
	       dt / (double)st.waves * 1e6, (double)groups * local / dc / 1e6,
	       (unsigned long long)gm_fault_count(t.gm), bad);
	status = gm_fault_count(t.gm) || bad ? 1 : 0;
	free(ref);
	tgpu_fini(&t);
	return status;
}
