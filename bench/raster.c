/*
 * raster.c - pixel throughput of gpu_model's pixel pipeline, single thread:
 * full-screen quads (two triangles) of a smooth-colour pixel shader into a
 * 256x256 RGBA8 target, through PM4, the VS, the PA / SC / SPI, the wave64
 * interpreter and the CB; against the host CPU doing the per-pixel work of
 * the same draw as a plain scalar C loop (barycentric weights, four
 * interpolated attributes, unorm conversion, store).  The peer that
 * matters is llvmpipe on the same trace (docs/performance.md); this is the
 * model's own yardstick, measured in the same run.
 *
 * Output: pixels per second of the model and of C, and their ratio.
 * Usage: raster-bench [quads]
 */
#include <math.h>
#include <time.h>

#include "gm_raster_util.h"

#define BW 256
#define BH 256

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((optimize("no-tree-vectorize")))
static unsigned c_yardstick(unsigned quads, uint8_t *fb, double *secs)
{
	double t0 = now_s();
	unsigned sum = 0;
	for (unsigned q = 0; q < quads; q++) {
		for (unsigned y = 0; y < BH; y++)
			for (unsigned x = 0; x < BW; x++) {
				float i = (x + 0.5f) / BW, j = (y + 0.5f) / BH, c[4];
				for (unsigned k = 0; k < 4; k++) {
					float p0 = 0.1f * k, p10 = 0.5f, p20 = 0.25f;
					c[k] = __builtin_fmaf(j, p20, __builtin_fmaf(i, p10, p0));
					c[k] = c[k] < 0 ? 0 : c[k] > 1 ? 1 : c[k];
					fb[(y * BW + x) * 4 + k] = (uint8_t)nearbyintf(c[k] * 255.0f);
				}
			}
		sum += fb[q % (BW * BH * 4)];
	}
	*secs = now_s() - t0;
	return sum;
}

int main(int argc, char **argv)
{
	unsigned quads = argc > 1 ? (unsigned)atoi(argv[1]) : 20;
	struct rt r;
	struct vtx v[6];
	double t0, t_model, t_c;
	uint8_t *fb = calloc(BW * BH * 4, 1);
	unsigned sink;

	if (!quads || quads > RT_MAX_VERTICES / 6 || !fb) {
		fprintf(stderr, "usage: raster-bench [quads 1..%u]\n", RT_MAX_VERTICES / 6);
		return 2;
	}
	rt_init(&r, BW, BH, V_COLOR_8_8_8_8, V_NUMBER_UNORM, 4, 1, ps_smooth,
		SPI_PS_INPUT_ENA_PERSP_CENTER_ENA(1));
	v[0] = rt_vtx(BW, BH, 0, 0, 0, 1, 0.0f, 0.1f, 0.2f, 0.3f);
	v[1] = rt_vtx(BW, BH, BW, 0, 0, 1, 0.5f, 0.6f, 0.7f, 0.8f);
	v[2] = rt_vtx(BW, BH, BW, BH, 0, 1, 0.75f, 0.85f, 0.95f, 1.0f);
	v[3] = v[0];
	v[4] = v[2];
	v[5] = rt_vtx(BW, BH, 0, BH, 0, 1, 0.25f, 0.35f, 0.45f, 0.55f);
	for (unsigned q = 0; q < quads; q++)
		memcpy((struct vtx *)gm_bo_map(r.vb) + 6 * q, v, sizeof v);
	tgpu_draw_auto(&r.t, V_DI_PT_TRILIST, 6 * quads, 1);
	t0 = now_s();
	submit_clean(&r);
	t_model = now_s() - t0;
	sink = c_yardstick(quads, fb, &t_c);
	printf("raster: %u full-screen quads of %ux%u (%.1f Mpixels)\n", quads, BW, BH, quads * BW * BH / 1e6);
	printf("  model: %.2f s, %.2f Mpixels/s\n", t_model, quads * BW * BH / t_model / 1e6);
	printf("  C    : %.3f s, %.2f Mpixels/s (checksum %u)\n", t_c, quads * BW * BH / t_c / 1e6, sink);
	printf("  model / C time ratio: %.1f\n", t_model / t_c);
	tgpu_fini(&r.t);
	free(fb);
	return xt_test_failed_checks ? 1 : 0;
}
