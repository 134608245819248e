/*
 * shader_core.c - throughput of gpu_model's shader core (the wave64
 * interpreter) on an ALU-heavy vertex shader, single thread, against the
 * host CPU running the same arithmetic as a plain scalar C loop.
 *
 * The shader transforms a vec4 per lane by a 4x4 matrix `iters` times
 * (4 v_mul_f32 + 12 v_fma_f32 per transform, plus a 3-instruction scalar
 * loop per two transforms).  The C yardstick does the same 16 float
 * operations per lane per transform, scalar (vectorisation disabled).
 *
 * Output: lane-instructions per second of the model (every executed
 * instruction times its active lanes), float ops per second of the model
 * and of C, and their ratio.  Usage: shader-core-bench [waves] [iters]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa.h"
#include "gm_priv.h"

static const float M[16] = {
	0.36f, 0.48f, -0.80f, 0.0f,
	-0.80f, 0.60f, 0.0f, 0.0f,
	0.48f, 0.64f, 0.60f, 0.0f,
	0.0f, 0.0f, 0.0f, 1.0f,
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void emit_transform(char *src, size_t *len, size_t cap, unsigned in, unsigned out)
{
	for (unsigned r = 0; r < 4; r++) {
		*len += (size_t)snprintf(src + *len, cap - *len, "v_mul_f32 v%u, s%u, v%u\n", out + r, 10 + 4 * r, in);
		for (unsigned c = 1; c < 4; c++)
			*len += (size_t)snprintf(src + *len, cap - *len, "v_fma_f32 v%u, s%u, v%u, v%u\n",
						 out + r, 10 + 4 * r + c, in + c, out + r);
	}
}

__attribute__((optimize("no-tree-vectorize")))
static float c_yardstick(unsigned waves, unsigned iters, double *secs)
{
	float acc = 0.0f;
	double t0 = now_s();
	for (unsigned w = 0; w < waves; w++) {
		for (unsigned l = 0; l < 64; l++) {
			float v[4] = { (float)l, 1.0f, 0.5f, 2.0f }, o[4];
			for (unsigned i = 0; i < iters * 2; i++) {
				for (unsigned r = 0; r < 4; r++) {
					float x = M[4 * r] * v[0];
					x = __builtin_fmaf(M[4 * r + 1], v[1], x);
					x = __builtin_fmaf(M[4 * r + 2], v[2], x);
					x = __builtin_fmaf(M[4 * r + 3], v[3], x);
					o[r] = x;
				}
				memcpy(v, o, sizeof v);
			}
			acc += v[0] + v[1] + v[2] + v[3];
		}
	}
	*secs = now_s() - t0;
	return acc;
}

int main(int argc, char **argv)
{
	unsigned waves = argc > 1 ? (unsigned)atoi(argv[1]) : 200;
	unsigned iters = argc > 2 ? (unsigned)atoi(argv[2]) : 500;
	static char src[16384];
	size_t len = 0;
	struct xt_buf bin = XT_BUF_INIT;
	struct xt_err err = { 0 };
	struct gm_prog prog;
	struct gm_mem mem;
	struct gm_fault_log faults;
	struct gm_wave *w = malloc(sizeof *w);
	struct gm_wave_env env = { 0 };
	uint64_t lane_instr = 0;
	double t0, model_s, c_s;
	float check = 0.0f, c_acc;

	len += (size_t)snprintf(src + len, sizeof src - len,
				"v_cvt_f32_u32 v1, v0\nv_mov_b32 v2, 1.0\nv_mov_b32 v3, 0.5\nv_mov_b32 v4, 2.0\n"
				"s_mov_b32 s0, %u\n", iters);
	for (unsigned i = 0; i < 16; i++) {
		uint32_t bits;
		memcpy(&bits, &M[i], 4);
		len += (size_t)snprintf(src + len, sizeof src - len, "s_mov_b32 s%u, lit(0x%08x)\n", 10 + i, bits);
	}
	len += (size_t)snprintf(src + len, sizeof src - len, "loop:\n");
	emit_transform(src, &len, sizeof src, 1, 5);
	emit_transform(src, &len, sizeof src, 5, 1);
	len += (size_t)snprintf(src + len, sizeof src - len,
				"s_sub_u32 s0, s0, 1\ns_cmp_lg_u32 s0, 0\ns_cbranch_scc1 loop\ns_endpgm\n");
	if (!w || isa_assemble(src, &bin, &err) != XT_OK) {
		fprintf(stderr, "shader-core-bench: %s\n", w ? xt_err_msg(&err) : "out of memory");
		return 2;
	}
	gm_prog_decode_dw((const uint32_t *)bin.data, (uint32_t)(bin.len / 4), 0, &prog);
	gm_mem_init(&mem);
	gm_fault_log_init(&faults, 4);
	env.mem = &mem;
	env.faults = &faults;
	env.max_instructions = 1ull << 40;

	t0 = now_s();
	for (unsigned i = 0; i < waves; i++) {
		gm_wave_reset(w, ~0ull, ISA_NUM_SGPRS, 16);
		for (unsigned l = 0; l < 64; l++)
			w->v[0][l] = l;
		gm_wave_run(w, &prog, &env);
		lane_instr += w->lane_instructions;
		for (unsigned l = 0; l < 64; l++) {
			float f[4];
			memcpy(&f[0], &w->v[1][l], 4);
			memcpy(&f[1], &w->v[2][l], 4);
			memcpy(&f[2], &w->v[3][l], 4);
			memcpy(&f[3], &w->v[4][l], 4);
			check += f[0] + f[1] + f[2] + f[3];
		}
	}
	model_s = now_s() - t0;
	c_acc = c_yardstick(waves, iters, &c_s);
	{
		double flops = (double)waves * 64 * iters * 2 * 16;
		printf("shader core: %u waves x 64 lanes x %u loop trips (%u transforms)\n", waves, iters, 2 * iters);
		printf("  model: %.3f s, %.1f M lane-instructions/s, %.1f M float-ops/s\n", model_s,
		       lane_instr / model_s / 1e6, flops / model_s / 1e6);
		printf("  C    : %.3f s, %.1f M float-ops/s (scalar loop)\n", c_s, flops / c_s / 1e6);
		printf("  ratio model/C (float-ops/s): %.3f\n", (flops / model_s) / (flops / c_s));
		printf("  results agree: %s (model %g, C %g)\n", check == c_acc ? "yes" : "no", check, c_acc);
		printf("  faults: %llu\n", (unsigned long long)faults.total);
	}
	gm_prog_fini(&prog);
	gm_mem_fini(&mem);
	gm_fault_log_fini(&faults);
	xt_buf_fini(&bin);
	free(w);
	return 0;
}
