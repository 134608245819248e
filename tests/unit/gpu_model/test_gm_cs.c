/*
 * test_gm_cs.c - the compute dispatcher (gm_cs.c, docs/compute.md):
 * workgroups of two waves that exchange data through LDS across
 * s_barrier, a sum by ds_add_u32, workgroup ids and thread ids in the
 * registers COMPUTE_PGM_RSRC2 names, DISPATCH_INDIRECT, and dispatch
 * state the model refuses by name.
 */
#include "gm_test_util.h"

#define LOCAL 128u     /* threads per group: two waves */

static uint64_t n_faults_of(struct gm *gm, enum gm_fault_kind k)
{
	uint64_t n = 0;
	for (uint64_t i = 0; i < gm_fault_count(gm); i++)
		n += gm_fault_get(gm, i) && gm_fault_get(gm, i)->kind == k;
	return n;
}

/*
 * Thread (g, i) of a 128-thread group: lds[i] = i + 1, barrier, lds[128] +=
 * i + 1, barrier, then out[g * 128 + i] = lds[127 - i] (the other wave's
 * value) and sums[g] = lds[128] + g.  Without the barriers the first wave
 * would read zeros from the second.
 */
static const char *exchange_shader =
	"v_lshl_b32 v1, v0, 2\n"            /* LDS byte address of lds[i] */
	"v_add_u32 v2, v0, 1\n"
	"ds_write_b32 v1, v2\n"
	"s_waitcnt 0\n"
	"s_barrier\n"
	"v_mov_b32 v3, 0\n"
	"ds_add_u32 v3, v2 offset:512\n"
	"v_sub_u32 v4, 127, v0\n"
	"v_lshl_b32 v4, v4, 2\n"
	"ds_read_b32 v5, v4\n"
	"s_waitcnt 0\n"
	"s_barrier\n"
	"ds_read_b32 v6, v3 offset:512\n"
	"s_lshl_b32 s12, s8, 7\n"           /* gl_GlobalInvocationID.x = g * 128 + i */
	"v_add_u32 v7, v0, s12\n"
	"v_lshl_b32 v7, v7, 2\n"
	"buffer_store_dword v5, v7, s[0:3], 0 offen\n"
	"v_add_u32 v6, v6, s8\n"
	"s_lshl_b32 s13, s8, 2\n"
	"v_mov_b32 v8, s13\n"
	"buffer_store_dword v6, v8, s[4:7], 0 offen\n"
	"s_endpgm\n";

static void bind_cs(struct tgpu *t, uint64_t va, const uint32_t *user, unsigned n_user, uint32_t rsrc2,
		    unsigned nx, unsigned ny, unsigned nz)
{
	pm4_set_sh_reg(&t->cs, REG_COMPUTE_PGM_LO, (uint32_t)(va >> 8));
	pm4_set_sh_reg(&t->cs, REG_COMPUTE_PGM_HI, (uint32_t)(va >> 40));
	pm4_set_sh_reg(&t->cs, REG_COMPUTE_PGM_RSRC1, COMPUTE_PGM_RSRC1_VGPRS(3) | COMPUTE_PGM_RSRC1_SGPRS(2));
	pm4_set_sh_reg(&t->cs, REG_COMPUTE_PGM_RSRC2, COMPUTE_PGM_RSRC2_USER_SGPR(n_user) | rsrc2);
	pm4_set_sh_reg(&t->cs, REG_COMPUTE_NUM_THREAD_X, nx);
	pm4_set_sh_reg(&t->cs, REG_COMPUTE_NUM_THREAD_Y, ny);
	pm4_set_sh_reg(&t->cs, REG_COMPUTE_NUM_THREAD_Z, nz);
	for (unsigned i = 0; i < n_user; i++)
		pm4_set_sh_reg(&t->cs, REG_COMPUTE_USER_DATA_0 + 4 * i, user[i]);
}

static const uint32_t initiator = COMPUTE_DISPATCH_INITIATOR_COMPUTE_SHADER_EN(1) |
				  COMPUTE_DISPATCH_INITIATOR_FORCE_START_AT_000(1);

static void exchange_setup(struct tgpu *t, struct gm_bo **out, struct gm_bo **sums, unsigned groups)
{
	uint32_t user[8];
	uint64_t cs;

	*out = tgpu_bo(t, 4ull * LOCAL * groups);
	*sums = tgpu_bo(t, 4ull * groups);
	tgpu_desc(user, gm_bo_va(*out), 0, 4 * LOCAL * groups, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	tgpu_desc(user + 4, gm_bo_va(*sums), 0, 4 * groups, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	cs = tgpu_shader(t, exchange_shader);
	/* s8 = workgroup id X; LDS: 129 dwords in 512-byte units */
	bind_cs(t, cs, user, 8, COMPUTE_PGM_RSRC2_TGID_X_EN(1) | COMPUTE_PGM_RSRC2_LDS_SIZE(2), LOCAL, 1, 1);
}

static void check_exchange(struct gm_bo *out, struct gm_bo *sums, unsigned groups)
{
	unsigned bad = 0;
	for (unsigned g = 0; g < groups; g++) {
		for (unsigned i = 0; i < LOCAL; i++)
			bad += rd32(out, g * LOCAL + i) != LOCAL - i;
		CHECK_EQ_INT(rd32(sums, g), LOCAL * (LOCAL + 1) / 2 + g);
	}
	CHECK_EQ_INT(bad, 0);
}

static void test_lds_exchange_and_sum_across_barriers(void)
{
	struct tgpu t;
	struct gm_bo *out, *sums;
	struct gm_so_stats st;
	tgpu_init(&t);
	exchange_setup(&t, &out, &sums, 3);
	pm4_dispatch_direct(&t.cs, 3, 1, 1, initiator);
	tgpu_submit(&t);
	CHECK_EQ_INT(gm_fault_count(t.gm), 0);
	check_exchange(out, sums, 3);
	gm_so_stats_get(t.gm, &st);
	CHECK_EQ_INT(st.waves, 6);
	{
		uint32_t v = 0;
		CHECK(gm_reg_get(t.gm, REG_COMPUTE_DIM_X, &v) && v == 3);
	}
	tgpu_fini(&t);
}

static void test_dispatch_indirect_reads_group_counts(void)
{
	struct tgpu t;
	struct gm_bo *out, *sums, *args;
	static const uint32_t counts[4] = { 0xDEAD, 4, 1, 1 };  /* at offset 4 */
	tgpu_init(&t);
	exchange_setup(&t, &out, &sums, 4);
	args = tgpu_bo(&t, sizeof counts);
	memcpy(gm_bo_map(args), counts, sizeof counts);
	pm4_set_base(&t.cs, 1, gm_bo_va(args));
	pm4_dispatch_indirect(&t.cs, 4, initiator);
	tgpu_submit(&t);
	CHECK_EQ_INT(gm_fault_count(t.gm), 0);
	check_exchange(out, sums, 4);
	tgpu_fini(&t);
}

/* 2 x 3 x 2 groups of 4 x 2 x 1 threads: each thread writes
 * (gl_WorkGroupID, gl_LocalInvocationID) packed as g.x | g.y << 4 | g.z << 8
 * | l.x << 12 | l.y << 16 at its gl_GlobalInvocationID's linear index, and
 * the user SGPR s4 (standing for gl_NumWorkGroups.x) into a second buffer. */
static void test_ids_in_three_dimensions(void)
{
	struct tgpu t;
	struct gm_bo *out, *num;
	uint32_t user[9];
	uint64_t cs;
	const unsigned W = 2 * 4, H = 3 * 2;   /* global size: 8 x 6 x 2 */
	unsigned bad = 0;

	tgpu_init(&t);
	out = tgpu_bo(&t, 4ull * W * H * 2);
	num = tgpu_bo(&t, 4);
	tgpu_desc(user, gm_bo_va(out), 0, 4 * W * H * 2, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	tgpu_desc(user + 4, gm_bo_va(num), 0, 4, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	user[8] = 2;
	cs = tgpu_shader(&t,
		/* s9..s11 = group id X, Y, Z; v0, v1 = local id X, Y */
		"s_lshl_b32 s12, s10, 4\n"
		"s_or_b32 s12, s12, s9\n"
		"s_lshl_b32 s13, s11, 8\n"
		"s_or_b32 s12, s12, s13\n"
		"v_lshl_b32 v2, v0, 12\n"
		"v_lshl_b32 v3, v1, 16\n"
		"v_or_b32 v2, v2, v3\n"
		"v_or_b32 v2, v2, s12\n"
		/* global id = group id * local size + local id */
		"s_lshl_b32 s14, s9, 2\n"
		"v_add_u32 v4, v0, s14\n"         /* gx */
		"s_lshl_b32 s15, s10, 1\n"
		"v_add_u32 v5, v1, s15\n"         /* gy */
		"s_mul_i32 s16, s11, 48\n"        /* gz * 8 * 6 */
		"v_mul_lo_u32 v5, v5, 8\n"
		"v_add_u32 v4, v4, v5\n"
		"v_add_u32 v4, v4, s16\n"
		"v_lshl_b32 v4, v4, 2\n"
		"buffer_store_dword v2, v4, s[0:3], 0 offen\n"
		"v_mov_b32 v6, s8\n"
		"v_mov_b32 v7, 0\n"
		"buffer_store_dword v6, v7, s[4:7], 0 offen\n"
		"s_endpgm\n");
	bind_cs(&t, cs, user, 9,
		COMPUTE_PGM_RSRC2_TGID_X_EN(1) | COMPUTE_PGM_RSRC2_TGID_Y_EN(1) |
		COMPUTE_PGM_RSRC2_TGID_Z_EN(1) | COMPUTE_PGM_RSRC2_TIDIG_COMP_CNT(1), 4, 2, 1);
	pm4_dispatch_direct(&t.cs, 2, 3, 2, initiator);
	tgpu_submit(&t);
	CHECK_EQ_INT(gm_fault_count(t.gm), 0);
	for (unsigned z = 0; z < 2; z++)
		for (unsigned y = 0; y < H; y++)
			for (unsigned x = 0; x < W; x++) {
				uint32_t want = (x / 4) | (y / 2) << 4 | z << 8 | (x % 4) << 12 | (y % 2) << 16;
				bad += rd32(out, (z * H + y) * W + x) != want;
			}
	CHECK_EQ_INT(bad, 0);
	CHECK_EQ_INT(rd32(num, 0), 2);
	tgpu_fini(&t);
}

static void test_bad_dispatch_state_is_reported(void)
{
	struct tgpu t;
	struct gm_bo *out, *sums;
	tgpu_init(&t);
	exchange_setup(&t, &out, &sums, 1);
	pm4_dispatch_direct(&t.cs, 1, 1, 1, 0);           /* COMPUTE_SHADER_EN = 0 */
	pm4_set_sh_reg(&t.cs, REG_COMPUTE_NUM_THREAD_X, 2048);
	pm4_dispatch_direct(&t.cs, 1, 1, 1, initiator);   /* too many threads */
	pm4_set_sh_reg(&t.cs, REG_COMPUTE_NUM_THREAD_X, LOCAL);
	pm4_set_sh_reg(&t.cs, REG_COMPUTE_PGM_LO, 0);
	pm4_set_sh_reg(&t.cs, REG_COMPUTE_PGM_HI, 0);
	pm4_dispatch_direct(&t.cs, 1, 1, 1, initiator);   /* no program */
	pm4_dispatch_direct(&t.cs, 0, 1, 1, initiator);   /* empty: runs nothing, no fault */
	tgpu_submit(&t);
	CHECK_EQ_INT(n_faults_of(t.gm, GM_FAULT_BAD_STATE), 3);
	CHECK_EQ_INT(rd32(sums, 0), 0);
	tgpu_fini(&t);
}

/*
 * Barriers in a loop, with a wave that ends before the first one (it does
 * not hold the others back): 192 threads, wave 2 (TG_SIZE bits [11:6])
 * ends at once; for k = 0..3 thread i writes lds[i] = 10 i + k, barrier,
 * adds lds[(i + 64) % 128] (the other wave's), barrier.  out[i] = the sum,
 * out[200] = the wave count of TG_SIZE bits [5:0].
 */
static void test_barriers_in_a_loop_and_an_early_end(void)
{
	struct tgpu t;
	struct gm_bo *out;
	uint32_t user[4];
	uint64_t cs;
	unsigned bad = 0;

	tgpu_init(&t);
	out = tgpu_bo(&t, 4 * 256);
	memset(gm_bo_map(out), 0xEE, 4 * 256);
	tgpu_desc(user, gm_bo_va(out), 0, 4 * 256, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	cs = tgpu_shader(&t,
		"s_bfe_u32 s5, s4, 0x60006\n"
		"s_cmp_eq_u32 s5, 2\n"
		"s_cbranch_scc1 end\n"
		"v_lshl_b32 v1, v0, 2\n"
		"v_add_u32 v3, v0, 64\n"
		"v_and_b32 v3, v3, 127\n"
		"v_lshl_b32 v3, v3, 2\n"
		"v_mov_b32 v2, 0\n"
		"s_mov_b32 s6, 0\n"
		"loop:\n"
		"v_mul_lo_u32 v4, v0, 10\n"
		"v_add_u32 v4, v4, s6\n"
		"ds_write_b32 v1, v4\n"
		"s_waitcnt 0\n"
		"s_barrier\n"
		"ds_read_b32 v5, v3\n"
		"s_waitcnt 0\n"
		"v_add_u32 v2, v2, v5\n"
		"s_barrier\n"
		"s_add_u32 s6, s6, 1\n"
		"s_cmp_lt_u32 s6, 4\n"
		"s_cbranch_scc1 loop\n"
		"buffer_store_dword v2, v1, s[0:3], 0 offen\n"
		"s_and_b32 s7, s4, 63\n"
		"v_mov_b32 v6, s7\n"
		"v_mov_b32 v7, 800\n"
		"buffer_store_dword v6, v7, s[0:3], 0 offen\n"
		"end:\n"
		"s_endpgm\n");
	bind_cs(&t, cs, user, 4, COMPUTE_PGM_RSRC2_TG_SIZE_EN(1) | COMPUTE_PGM_RSRC2_LDS_SIZE(1), 192, 1, 1);
	pm4_dispatch_direct(&t.cs, 1, 1, 1, initiator);
	tgpu_submit(&t);
	CHECK_EQ_INT(gm_fault_count(t.gm), 0);
	for (unsigned i = 0; i < 128; i++)
		bad += rd32(out, i) != 4 * 10 * ((i + 64) % 128) + 6;
	for (unsigned i = 128; i < 192; i++)
		bad += rd32(out, i) != 0xEEEEEEEEu;
	CHECK_EQ_INT(bad, 0);
	CHECK_EQ_INT(rd32(out, 200), 3);
	tgpu_fini(&t);
}

/*
 * Buffer atomics from the 64 lanes of one wave, which the model applies in
 * lane order: every operation's final value, and the old values glc
 * returns (add, swap, cmpswap chains); without glc vdata is kept, also for
 * a lane out of bounds.
 */
static void test_buffer_atomics(void)
{
	struct tgpu t;
	struct gm_bo *mem, *ret;
	uint32_t user[8];
	uint64_t cs;
	unsigned bad = 0;
	static const uint32_t init[11] = { 0, 100, 1000, 5, 0xFFFFFFFBu, 0, 0xFFFFFFFFu, 0, 0, 7, 0 };

	tgpu_init(&t);
	mem = tgpu_bo(&t, 64);
	ret = tgpu_bo(&t, 4 * 64 * 4);
	memcpy(gm_bo_map(mem), init, sizeof init);
	tgpu_desc(user, gm_bo_va(mem), 0, 48, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	tgpu_desc(user + 4, gm_bo_va(ret), 0, 4 * 64 * 4, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	cs = tgpu_shader(&t,
		"v_lshl_b32 v13, v0, 2\n"                    /* return slot of the lane */
		"v_add_u32 v1, v0, 1\n"
		"buffer_atomic_add v1, off, s[0:3], 0 glc\n"
		"buffer_store_dword v1, v13, s[4:7], 0 offen\n"
		"v_mov_b32 v2, 1\n"
		"buffer_atomic_sub v2, off, s[0:3], 0 offset:4\n"
		"v_sub_u32 v3, v0, 32\n"
		"buffer_atomic_smin v3, off, s[0:3], 0 offset:8\n"
		"v_add_u32 v4, v0, 10\n"
		"buffer_atomic_umin v4, off, s[0:3], 0 offset:12\n"
		"v_mov_b32 v5, v0\n"
		"buffer_atomic_smax v5, off, s[0:3], 0 offset:16\n"
		"buffer_atomic_umax v5, off, s[0:3], 0 offset:20\n"
		"v_and_b32 v6, v0, 31\n"
		"v_lshl_b32 v6, 1, v6\n"
		"v_not_b32 v7, v6\n"
		"buffer_atomic_and v7, off, s[0:3], 0 offset:24\n"
		"buffer_atomic_or v6, off, s[0:3], 0 offset:28\n"
		"buffer_atomic_xor v6, off, s[0:3], 0 offset:32\n"
		"v_mov_b32 v8, v0\n"
		"buffer_atomic_swap v8, off, s[0:3], 0 offset:36 glc\n"
		"buffer_store_dword v8, v13, s[4:7], 0 offset:256 offen\n"
		"v_add_u32 v10, v0, 1\n"
		"v_mov_b32 v11, v0\n"
		"buffer_atomic_cmpswap v[10:11], off, s[0:3], 0 offset:40 glc\n"
		"buffer_store_dword v10, v13, s[4:7], 0 offset:512 offen\n"
		"v_mov_b32 v12, 77\n"
		"buffer_atomic_add v12, off, s[0:3], 0 offset:48\n"   /* out of bounds */
		"buffer_store_dword v12, v13, s[4:7], 0 offset:768 offen\n"
		"s_endpgm\n");
	bind_cs(&t, cs, user, 8, 0, 64, 1, 1);
	pm4_dispatch_direct(&t.cs, 1, 1, 1, initiator);
	tgpu_submit(&t);
	CHECK_EQ_INT(gm_fault_count(t.gm), 0);
	CHECK_EQ_INT(rd32(mem, 0), 64 * 65 / 2);
	CHECK_EQ_INT(rd32(mem, 1), 36);
	CHECK_EQ_INT(rd32(mem, 2), 0xFFFFFFE0u);
	CHECK_EQ_INT(rd32(mem, 3), 5);
	CHECK_EQ_INT(rd32(mem, 4), 63);
	CHECK_EQ_INT(rd32(mem, 5), 63);
	CHECK_EQ_INT(rd32(mem, 6), 0);
	CHECK_EQ_INT(rd32(mem, 7), 0xFFFFFFFFu);
	CHECK_EQ_INT(rd32(mem, 8), 0);
	CHECK_EQ_INT(rd32(mem, 9), 63);
	CHECK_EQ_INT(rd32(mem, 10), 64);
	for (unsigned l = 0; l < 64; l++) {
		bad += rd32(ret, l) != l * (l + 1) / 2;
		bad += rd32(ret, 64 + l) != (l ? l - 1 : 7);
		bad += rd32(ret, 128 + l) != l;
		bad += rd32(ret, 192 + l) != 77;
	}
	CHECK_EQ_INT(bad, 0);
	tgpu_fini(&t);
}

/* ds_* outside the group's LDS_SIZE read 0 and write nothing. */
static void test_lds_out_of_bounds(void)
{
	struct tgpu t;
	struct gm_bo *out;
	uint32_t user[4];
	uint64_t cs;
	tgpu_init(&t);
	out = tgpu_bo(&t, 8);
	tgpu_desc(user, gm_bo_va(out), 0, 8, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	cs = tgpu_shader(&t,
		"v_mov_b32 v1, 508\n"
		"v_mov_b32 v2, 77\n"
		"ds_write_b32 v1, v2\n"             /* last dword of 512 bytes */
		"ds_write_b32 v1, v2 offset:4\n"    /* past the end: dropped */
		"ds_read_b32 v3, v1\n"
		"ds_read_b32 v4, v1 offset:4\n"
		"v_mov_b32 v5, 0\n"
		"buffer_store_dword v3, v5, s[0:3], 0 offen\n"
		"buffer_store_dword v4, v5, s[0:3], 0 offset:4 offen\n"
		"s_endpgm\n");
	bind_cs(&t, cs, user, 4, COMPUTE_PGM_RSRC2_LDS_SIZE(1), 1, 1, 1);
	((uint32_t *)gm_bo_map(out))[1] = 0xFFFF;
	pm4_dispatch_direct(&t.cs, 1, 1, 1, initiator);
	tgpu_submit(&t);
	CHECK_EQ_INT(gm_fault_count(t.gm), 0);
	CHECK_EQ_INT(rd32(out, 0), 77);
	CHECK_EQ_INT(rd32(out, 1), 0);
	tgpu_fini(&t);
}

int main(void)
{
	XT_RUN(test_lds_exchange_and_sum_across_barriers);
	XT_RUN(test_dispatch_indirect_reads_group_counts);
	XT_RUN(test_ids_in_three_dimensions);
	XT_RUN(test_barriers_in_a_loop_and_an_early_end);
	XT_RUN(test_buffer_atomics);
	XT_RUN(test_bad_dispatch_state_is_reported);
	XT_RUN(test_lds_out_of_bounds);
	XT_TEST_MAIN_END();
}
