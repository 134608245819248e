/*
 * test_drv_cs.c - compute dispatches through the hardware layer
 * (driver/hw/drv_pm4_cs.c) on gpu_model: a hand-assembled compute shader
 * following the driver's compute ABI (drv_pipe.h) writes, per invocation,
 * gl_NumWorkGroups and its gl_GlobalInvocationID into a storage buffer,
 * dispatched directly and indirectly; what the model cannot run is
 * reported by name.
 */
#include <stdio.h>
#include <string.h>

#include "drv_hw.h"
#include "gm.h"
#include "isa.h"
#include "ws_gm.h"
#include "xt_test.h"

static const char *reported;

static void on_oom(void *user) { (void)user; reported = "out of memory"; }
static void on_unsupported(void *user, const char *why) { (void)user; reported = why; }

struct env {
	struct gm *gm;
	struct drv_winsys *ws;
	struct drv_pipe_screen *screen;
	struct drv_pipe *pipe;
	struct drv_pipe_compute cs;
	struct drv_pipe_buffer out, table, args;
};

/* 4 x 2 x 1 invocations per group; out[(gz * H + gy) * W + gx] =
 * nx | ny << 8 | nz << 16 | gx << 24 (W = 4 * nx, H = 2 * ny). */
static const char *shader =
	"s_load_dwordx4 s[8:11], s[0:1], 0\n"     /* descriptor table slot 0: the output */
	"s_load_dwordx2 s[12:13], s[2:3], 0\n"    /* gl_NumWorkGroups */
	"s_load_dword s14, s[2:3], 8\n"
	"s_lshl_b32 s16, s4, 2\n"
	"v_add_u32 v3, v0, s16\n"                 /* gx = wg.x * 4 + local.x */
	"s_lshl_b32 s17, s5, 1\n"
	"v_add_u32 v4, v1, s17\n"                 /* gy */
	"s_lshl_b32 s18, s12, 2\n"                /* W */
	"s_lshl_b32 s19, s13, 1\n"                /* H */
	"s_mul_i32 s20, s6, s19\n"                /* gz * H */
	"v_add_u32 v4, v4, s20\n"
	"v_mul_lo_u32 v4, v4, s18\n"
	"v_add_u32 v4, v4, v3\n"
	"v_lshl_b32 v4, v4, 2\n"
	"s_lshl_b32 s21, s13, 8\n"
	"s_or_b32 s21, s21, s12\n"
	"s_lshl_b32 s22, s14, 16\n"
	"s_or_b32 s21, s21, s22\n"
	"v_lshl_b32 v5, v3, 24\n"
	"v_or_b32 v5, v5, s21\n"
	"buffer_store_dword v5, v4, s[8:11], 0 offen\n"
	"s_endpgm\n";

static void env_init(struct env *e)
{
	struct drv_pipe_report r = { NULL, on_oom, on_unsupported };
	struct xt_buf b = XT_BUF_INIT;
	struct xt_err err = { 0 };
	struct drv_stage_binary bin = { 0 };
	static const uint32_t block[3] = { 4, 2, 1 };

	memset(e, 0, sizeof *e);
	reported = NULL;
	CHECK(gm_create(NULL, &e->gm) == XT_OK);
	CHECK(ws_gm_create(e->gm, &e->ws) == XT_OK);
	CHECK(drv_pipe_screen_create(e->ws, &e->screen) == XT_OK);
	CHECK(drv_pipe_create(e->screen, &r, &e->pipe) == XT_OK);
	CHECK(isa_assemble(shader, &b, &err) == XT_OK);
	bin.present = true;
	bin.code = (uint32_t *)b.data;
	bin.size_dw = (uint32_t)(b.len / 4);
	bin.num_sgprs = 32;
	bin.num_vgprs = 8;
	CHECK(drv_pipe_compute_upload(e->screen, &e->cs, &bin, block, 0));
	xt_buf_fini(&b);
	CHECK(drv_pipe_buffer_alloc(e->screen, &e->out, 4096, NULL));
	CHECK(drv_pipe_buffer_alloc(e->screen, &e->table, 16, NULL));
	{
		uint32_t *d = (uint32_t *)drv_pipe_buffer_map(&e->table);
		uint64_t va = e->out.bo->va;
		d[0] = SQ_BUF_RSRC_WORD0_BASE_ADDRESS((uint32_t)va);
		d[1] = SQ_BUF_RSRC_WORD1_BASE_ADDRESS_HI((uint32_t)(va >> 32));
		d[2] = 4096;
		d[3] = SQ_BUF_RSRC_WORD3_DST_SEL_X(V_SQ_SEL_X) |
		       SQ_BUF_RSRC_WORD3_NUM_FORMAT(V_BUF_NUM_FORMAT_UINT) |
		       SQ_BUF_RSRC_WORD3_DATA_FORMAT(V_BUF_DATA_FORMAT_32);
	}
}

static void env_fini(struct env *e)
{
	drv_pipe_buffer_release(e->screen, &e->out);
	drv_pipe_buffer_release(e->screen, &e->table);
	drv_pipe_buffer_release(e->screen, &e->args);
	drv_pipe_compute_release(e->screen, &e->cs);
	drv_pipe_destroy(e->pipe);
	drv_pipe_screen_destroy(e->screen);
	ws_gm_destroy(e->ws);
	gm_destroy(e->gm);
}

static unsigned check_grid(struct env *e, unsigned nx, unsigned ny, unsigned nz)
{
	const uint32_t *o = (const uint32_t *)drv_pipe_buffer_map(&e->out);
	unsigned W = 4 * nx, H = 2 * ny, bad = 0;
	for (unsigned z = 0; z < nz; z++)
		for (unsigned y = 0; y < H; y++)
			for (unsigned x = 0; x < W; x++)
				bad += o[(z * H + y) * W + x] != (nx | ny << 8 | nz << 16 | x << 24);
	return bad;
}

static void test_dispatch_direct(void)
{
	struct env e;
	struct drv_pipe_grid g = { .groups = { 3, 2, 2 } };
	env_init(&e);
	g.desc_table_va = e.table.bo->va;
	CHECK(drv_pipe_launch_grid(e.pipe, &e.cs, &g));
	drv_pipe_flush(e.pipe);
	CHECK(reported == NULL);
	CHECK_EQ_INT(gm_fault_count(e.gm), 0);
	CHECK_EQ_INT(check_grid(&e, 3, 2, 2), 0);
	env_fini(&e);
}

static void test_dispatch_indirect_and_num_work_groups(void)
{
	struct env e;
	struct drv_pipe_grid g = { .groups = { 9, 9, 9 } };   /* ignored */
	static const uint32_t args[4] = { 0, 2, 3, 1 };
	env_init(&e);
	CHECK(drv_pipe_buffer_alloc(e.screen, &e.args, sizeof args, args));
	g.desc_table_va = e.table.bo->va;
	g.indirect = &e.args;
	g.indirect_offset = 4;
	CHECK(drv_pipe_launch_grid(e.pipe, &e.cs, &g));
	drv_pipe_flush(e.pipe);
	CHECK(reported == NULL);
	CHECK_EQ_INT(gm_fault_count(e.gm), 0);
	CHECK_EQ_INT(check_grid(&e, 2, 3, 1), 0);
	env_fini(&e);
}

static void test_unsupported_launch_is_reported(void)
{
	struct env e;
	struct drv_pipe_grid g = { .groups = { 1, 1, 1 } };
	env_init(&e);
	e.cs.block[0] = 2048;
	CHECK(!drv_pipe_launch_grid(e.pipe, &e.cs, &g));
	CHECK(reported && strstr(reported, "1024 invocations"));
	env_fini(&e);
}

int main(void)
{
	XT_RUN(test_dispatch_direct);
	XT_RUN(test_dispatch_indirect_and_num_work_groups);
	XT_RUN(test_unsupported_launch_is_reported);
	XT_TEST_MAIN_END();
}
