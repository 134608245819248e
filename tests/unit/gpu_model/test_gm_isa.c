/*
 * test_gm_isa.c - how the wave64 interpreter executes the shader ISA
 * (exec mask divergence, scalar/vector ALU, f64, transcendental, memory,
 * bounds).  The ISA's own tests (assembler, disassembler, decoder) are
 * tests/unit/isa/test_isa.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "gm_priv.h"
#include "xt_test.h"

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float ffrom(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* Assembles `src`; on failure prints the error and returns 0 dwords. */
static size_t asm_ok(const char *src, struct xt_buf *out)
{
	struct xt_err err = { 0 };
	xt_buf_init(out);
	if (isa_assemble(src, out, &err) != XT_OK) {
		fprintf(stderr, "assemble failed: %s\n", xt_err_msg(&err));
		return 0;
	}
	return out->len / 4;
}

struct runner {
	struct gm_mem mem;
	struct gm_fault_log faults;
	struct gm_wave *w;
	struct gm_prog prog;
};

static bool run_src(struct runner *r, const char *src, uint64_t exec)
{
	struct xt_buf code;
	struct gm_wave_env env = { 0 };
	size_t n = asm_ok(src, &code);

	if (!n)
		return false;
	if (gm_prog_decode_dw((const uint32_t *)code.data, (uint32_t)n, 0x1000, &r->prog) != XT_OK)
		return false;
	xt_buf_fini(&code);
	env.mem = &r->mem;
	env.faults = &r->faults;
	env.max_instructions = 100000;
	gm_wave_run(r->w, &r->prog, &env);
	gm_prog_fini(&r->prog);
	(void)exec;
	return !r->w->killed;
}

static void runner_init(struct runner *r, uint64_t exec)
{
	gm_mem_init(&r->mem);
	gm_fault_log_init(&r->faults, 16);
	r->w = calloc(1, sizeof *r->w);
	gm_wave_reset(r->w, exec, ISA_NUM_SGPRS, ISA_NUM_VGPRS);
	for (unsigned l = 0; l < 64; l++)
		r->w->v[0][l] = l;
}

static void runner_fini(struct runner *r)
{
	free(r->w);
	gm_fault_log_fini(&r->faults);
	gm_mem_fini(&r->mem);
}

static void test_wave_divergence_uses_exec_mask(void)
{
	struct runner r;
	runner_init(&r, ~0ull);
	CHECK(run_src(&r,
		"v_cvt_f32_u32 v1, v0\n"
		"v_cmp_lt_u32 vcc, v0, 10\n"
		"s_and_saveexec_b64 s[4:5], vcc\n"
		"v_mul_f32 v1, v1, 2.0\n"
		"s_andn2_b64 exec, s[4:5], exec\n"       /* else: lanes >= 10 */
		"v_add_f32 v1, v1, 100.0\n"
		"s_mov_b64 exec, s[4:5]\n"
		"s_endpgm\n", ~0ull));
	CHECK(ffrom(r.w->v[1][3]) == 6.0f);
	CHECK(ffrom(r.w->v[1][10]) == 110.0f);
	CHECK(ffrom(r.w->v[1][63]) == 163.0f);
	CHECK(gm_wave_exec(r.w) == ~0ull);
	runner_fini(&r);
}

static void test_wave_loop_and_scalar_alu(void)
{
	struct runner r;
	runner_init(&r, ~0ull);
	/* sum 1..10 in s2 with a scalar loop; per lane: v2 = v0 * 3 + 1 via ints */
	CHECK(run_src(&r,
		"s_mov_b32 s1, 0\n"
		"s_mov_b32 s2, 0\n"
		"loop:\n"
		"s_add_u32 s1, s1, 1\n"
		"s_add_u32 s2, s2, s1\n"
		"s_cmp_lt_u32 s1, 10\n"
		"s_cbranch_scc1 loop\n"
		"v_mad_u32 v2, v0, 3, 1\n"
		"v_bfe_u32 v3, 0xabcd, 4, 8\n"
		"v_findmsb_u32 v4, v0\n"
		"s_endpgm\n", ~0ull));
	CHECK_EQ_INT(r.w->s[2], 55);
	CHECK_EQ_INT(r.w->v[2][7], 22);
	CHECK_EQ_INT(r.w->v[3][0], 0xbc);
	CHECK_EQ_INT(r.w->v[4][0], 0xFFFFFFFFu);
	CHECK_EQ_INT(r.w->v[4][63], 5);
	runner_fini(&r);
}

static void test_wave_float_ops_and_f64(void)
{
	struct runner r;
	runner_init(&r, 0xFull);
	CHECK(run_src(&r,
		"v_mov_b32 v1, 2.0\n"
		"v_sqrt_f32 v2, v1\n"
		"v_sin_f32 v3, 0.25\n"
		"v_exp_f32 v4, 4.0\n"
		"v_log_f32 v5, 4.0\n"
		"v_cvt_f64_f32 v[6:7], v1\n"
		"v_mul_f64 v[6:7], v[6:7], 1.5\n"
		"v_div_f64 v[8:9], 1.0, v[6:7]\n"
		"v_cvt_f16_f32 v10, 1.5\n"
		"v_cvt_i32_f32 v11, -2.5\n"
		"v_add_f32 v12, v1, 4.0 clamp\n"
		"s_endpgm\n", 0xF));
	CHECK(ffrom(r.w->v[2][0]) == sqrtf(2.0f));
	CHECK(ffrom(r.w->v[3][1]) == 1.0f);      /* revolutions: sin(pi / 2) */
	CHECK(ffrom(r.w->v[4][2]) == 16.0f);
	CHECK(ffrom(r.w->v[5][3]) == 2.0f);
	{
		uint64_t b = (uint64_t)r.w->v[9][0] << 32 | r.w->v[8][0];
		double d;
		memcpy(&d, &b, 8);
		CHECK(d == 1.0 / 3.0);
	}
	CHECK_EQ_INT(r.w->v[10][0], 0x3e00);
	CHECK_EQ_INT((int32_t)r.w->v[11][0], -2);
	CHECK(ffrom(r.w->v[12][0]) == 1.0f);
	CHECK_EQ_INT(r.w->v[1][4], 0);       /* lane 4 not in exec */
	runner_fini(&r);
}

/* GFX8's v_sin_f32 / v_cos_f32 (docs/isa.md "Transcendentals"): revolutions,
 * exact at quarter turns, 0.0 outside [-256, 256], NaN for infinities. */
static void test_wave_sin_cos_take_revolutions_in_gfx8_domain(void)
{
	struct runner r;
	runner_init(&r, ~0ull);
	CHECK(run_src(&r,
		"v_sin_f32 v1, 0.5\n"
		"v_cos_f32 v2, 0.5\n"
		"v_sin_f32 v3, -0.25\n"
		"v_mov_b32 v4, 0x43960000\n"      /* 300.0 */
		"v_sin_f32 v4, v4\n"
		"v_mov_b32 v5, 0x7f800000\n"      /* +inf */
		"v_cos_f32 v5, v5\n"
		"v_mov_b32 v6, 0x3e000000\n"      /* 0.125: sin(pi / 4) */
		"v_sin_f32 v6, v6\n"
		"v_mov_b32 v7, 0x43800000\n"      /* 256.0: in the domain */
		"v_cos_f32 v7, v7\n"
		"s_endpgm\n", ~0ull));
	CHECK(ffrom(r.w->v[1][0]) == 0.0f);
	CHECK(ffrom(r.w->v[2][0]) == -1.0f);
	CHECK(ffrom(r.w->v[3][0]) == -1.0f);
	CHECK(ffrom(r.w->v[4][0]) == 0.0f);
	CHECK(isnan(ffrom(r.w->v[5][0])));
	CHECK(ffrom(r.w->v[6][0]) == (float)(M_SQRT1_2));
	CHECK(ffrom(r.w->v[7][0]) == 1.0f);
	runner_fini(&r);
}

static void test_wave_buffer_store_load_and_bounds(void)
{
	struct runner r;
	struct gm_bo *bo;
	char src[1024];
	uint32_t *p;

	runner_init(&r, ~0ull);
	CHECK(gm_mem_alloc(&r.mem, 4096, 256, &bo) == XT_OK);
	/* descriptor: base, stride 0, NUM_RECORDS 64 bytes, DATA_FORMAT 32 (4 << 15) */
	snprintf(src, sizeof src,
		 "s_mov_b32 s4, 0x%08x\n"
		 "s_mov_b32 s5, 0x%08x\n"
		 "s_mov_b32 s6, 64\n"
		 "s_mov_b32 s7, 0x%08x\n"
		 "v_lshl_b32 v1, v0, 2\n"
		 "v_add_u32 v2, v0, 1000\n"
		 "buffer_store_dword v2, v1, s[4:7], 0 offen\n"
		 "buffer_load_dword v3, v1, s[4:7], 0 offen offset:4\n"
		 "s_mov_b32 s7, 0\n"             /* DATA_FORMAT INVALID: no-op */
		 "buffer_store_dword v0, v1, s[4:7], 0 offen\n"
		 "s_endpgm\n",
		 (uint32_t)gm_bo_va(bo), (uint32_t)(gm_bo_va(bo) >> 32), 4u << 15);
	CHECK(run_src(&r, src, ~0ull));
	p = (uint32_t *)gm_bo_map(bo);
	CHECK_EQ_INT(p[0], 1000);
	CHECK_EQ_INT(p[15], 1015);
	CHECK_EQ_INT(p[16], 0);              /* lane 16 was out of bounds */
	CHECK_EQ_INT(r.w->v[3][0], 1001);
	CHECK_EQ_INT(r.w->v[3][15], 0);      /* 60+4 >= 64: out of bounds load is 0 */
	CHECK_EQ_INT(r.faults.total, 0);
	runner_fini(&r);
}

/* Four buffer_store_dword through one address (a store run, executed in
 * one pass when every lane is in bounds) must leave memory exactly as four
 * separate stores do: all lanes in bounds, a NUM_RECORDS that cuts one
 * lane's element in the middle (per-dword bounds), and a partial exec. */
static void store_run_case(uint32_t num_records, uint64_t exec)
{
	struct runner r;
	struct gm_bo *bo;
	char src[1024];
	const uint32_t *p;
	bool ok = true;

	runner_init(&r, exec);
	CHECK(gm_mem_alloc(&r.mem, 4096, 256, &bo) == XT_OK);
	memset(gm_bo_map(bo), 0xEE, 4096);
	snprintf(src, sizeof src,
		 "s_mov_b32 s4, 0x%08x\n"
		 "s_mov_b32 s5, 0x%08x\n"
		 "s_mov_b32 s6, %u\n"
		 "s_mov_b32 s7, 0x%08x\n"
		 "v_lshl_b32 v1, v0, 4\n"
		 "v_add_u32 v2, v0, 1000\n"
		 "v_add_u32 v3, v0, 2000\n"
		 "v_add_u32 v4, v0, 3000\n"
		 "v_add_u32 v5, v0, 4000\n"
		 "buffer_store_dword v2, v1, s[4:7], 0 offen\n"
		 "buffer_store_dword v3, v1, s[4:7], 0 offen offset:4\n"
		 "buffer_store_dword v4, v1, s[4:7], 0 offen offset:8\n"
		 "buffer_store_dword v5, v1, s[4:7], 0 offen offset:12\n"
		 "s_endpgm\n",
		 (uint32_t)gm_bo_va(bo), (uint32_t)(gm_bo_va(bo) >> 32), num_records, 4u << 15);
	CHECK(run_src(&r, src, exec));
	CHECK_EQ_INT(r.w->instructions, 14);
	p = (const uint32_t *)gm_bo_map(bo);
	for (unsigned l = 0; l < 64; l++)
		for (unsigned k = 0; k < 4; k++) {
			bool written = (exec >> l & 1) && 16 * l + 4 * k + 4 <= num_records;
			uint32_t want = written ? 1000 * (k + 1) + l : 0xEEEEEEEEu;
			if (p[4 * l + k] != want) {
				if (ok)
					fprintf(stderr, "records %u lane %u dword %u: 0x%x, expected 0x%x\n",
						num_records, l, k, p[4 * l + k], want);
				ok = false;
			}
		}
	CHECK(ok);
	CHECK_EQ_INT(r.faults.total, 0);
	runner_fini(&r);
}

static void test_wave_store_runs_write_like_single_stores(void)
{
	store_run_case(4096, ~0ull);
	store_run_case(16 * 40 + 8, ~0ull);
	store_run_case(4096, 0x5555555555555555ull);
	store_run_case(16 * 20 + 4, 0xF0F0F0F0F0F0F0F0ull);
}

/* Typed fetches of 32-bit formats (copied without conversion) with a
 * DST_SEL swizzle and constant channels, as the lane-by-lane path does;
 * with every lane in bounds (the fast path) and with lanes past
 * NUM_RECORDS. */
static void format_fetch_case(uint32_t num_records)
{
	struct runner r;
	struct gm_bo *bo;
	char src[1024];
	float *p;
	bool ok = true;

	runner_init(&r, ~0ull);
	CHECK(gm_mem_alloc(&r.mem, 4096, 256, &bo) == XT_OK);
	p = (float *)gm_bo_map(bo);
	for (unsigned i = 0; i < 64 * 3; i++)
		p[i] = (float)i * 0.5f;
	/* stride 12, DATA_FORMAT 32_32_32 (13) FLOAT (7), DST_SEL = Z, X, 1, 0 */
	snprintf(src, sizeof src,
		 "s_mov_b32 s4, 0x%08x\n"
		 "s_mov_b32 s5, 0x%08x\n"
		 "s_mov_b32 s6, %u\n"
		 "s_mov_b32 s7, 0x%08x\n"
		 "buffer_load_format_xyzw v[4:7], v0, s[4:7], 0 idxen\n"
		 "s_endpgm\n",
		 (uint32_t)gm_bo_va(bo), (uint32_t)(gm_bo_va(bo) >> 32) | 12u << 16, num_records,
		 6u | 4u << 3 | 1u << 6 | 0u << 9 | 7u << 12 | 13u << 15);
	CHECK(run_src(&r, src, ~0ull));
	for (unsigned l = 0; l < 64; l++) {
		bool in = l < num_records;
		ok &= r.w->v[4][l] == (in ? fbits(p[3 * l + 2]) : 0);
		ok &= r.w->v[5][l] == (in ? fbits(p[3 * l]) : 0);
		ok &= r.w->v[6][l] == (in ? fbits(1.0f) : 0);
		ok &= r.w->v[7][l] == 0;
	}
	CHECK(ok);
	CHECK_EQ_INT(r.faults.total, 0);
	runner_fini(&r);
}

static void test_wave_format_fetch_swizzles_32_bit_channels(void)
{
	format_fetch_case(64);
	format_fetch_case(60);
}

static void test_wave_unmapped_access_is_a_fault(void)
{
	struct runner r;
	runner_init(&r, 1);
	CHECK(run_src(&r,
		"s_mov_b32 s4, 0x1000\n"
		"s_mov_b32 s5, 0\n"
		"s_mov_b32 s6, -1\n"
		"s_mov_b32 s7, 0x20000\n"
		"buffer_store_dword v0, off, s[4:7], 0\n"
		"s_endpgm\n", 1));
	CHECK_EQ_INT(r.faults.total, 1);
	CHECK_EQ_INT(r.faults.recs[0].kind, GM_FAULT_BAD_ADDRESS);
	CHECK_EQ_INT(r.faults.recs[0].address, 0x1000);
	runner_fini(&r);
}

static void test_wave_infinite_loop_times_out(void)
{
	struct runner r;
	runner_init(&r, 1);
	CHECK(!run_src(&r, "l: s_branch l\n s_endpgm\n", 1));
	CHECK_EQ_INT(r.faults.total, 1);
	CHECK_EQ_INT(r.faults.recs[0].kind, GM_FAULT_SHADER_TIMEOUT);
	CHECK_EQ_INT(r.w->instructions, 100000);   /* the env's max_instructions */
	runner_fini(&r);
}

static void test_wave_checks_register_allocation(void)
{
	struct runner r;
	runner_init(&r, 1);
	gm_wave_reset(r.w, 1, 16, 4);
	CHECK(!run_src(&r, "v_mov_b32 v9, 0\n s_endpgm\n", 1));
	CHECK_EQ_INT(r.faults.total, 1);
	CHECK_EQ_INT(r.faults.recs[0].kind, GM_FAULT_BAD_SHADER);
	runner_fini(&r);
}

int main(void)
{
	(void)fbits;
	XT_RUN(test_wave_divergence_uses_exec_mask);
	XT_RUN(test_wave_loop_and_scalar_alu);
	XT_RUN(test_wave_float_ops_and_f64);
	XT_RUN(test_wave_sin_cos_take_revolutions_in_gfx8_domain);
	XT_RUN(test_wave_buffer_store_load_and_bounds);
	XT_RUN(test_wave_store_runs_write_like_single_stores);
	XT_RUN(test_wave_format_fetch_swizzles_32_bit_channels);
	XT_RUN(test_wave_unmapped_access_is_a_fault);
	XT_RUN(test_wave_infinite_loop_times_out);
	XT_RUN(test_wave_checks_register_allocation);
	XT_TEST_MAIN_END();
}
