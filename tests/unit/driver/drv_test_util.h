/*
 * drv_test_util.h - runs a compiled drv_program on gpu_model the way the
 * sim backend will: a descriptor table (drv_shader.h DRV_DESC_*), shader
 * registers from drv_stage_binary, radeonsi's streamout sequence
 * (gm_test_util.h), one auto-index draw, TF buffers read back.  Also prints
 * the program (tables + disassembly) when a test fails, so the failure shows
 * what the compiler produced.
 */
#ifndef DRV_TEST_UTIL_H
#define DRV_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv_shader.h"
#include "gm_test_util.h"

#define DT_MAX_VERTS 256

struct dt_run {
	/* inputs */
	unsigned prim;                      /* V_DI_PT_* */
	unsigned count, instances;          /* draw */
	uint32_t base_vertex;               /* s2 */
	const void *attrib[DRV_MAX_ATTRIBS];/* 16 bytes per vertex (or per instance) */
	uint32_t attrib_num_format[DRV_MAX_ATTRIBS];  /* 0 = FLOAT */
	uint32_t divisor[DRV_MAX_ATTRIBS];
	const void *consts;                 /* default-block uniforms */
	uint32_t consts_size;
	const void *ubo[DRV_MAX_UBOS];
	uint32_t ubo_size[DRV_MAX_UBOS];
	/* sampler slot k: texels (the mip levels one after the other), and
	 * its T# (BASE_ADDRESS filled in here) and S# at dword 12 */
	const void *tex[DRV_MAX_SAMPLERS];
	uint32_t tex_bytes[DRV_MAX_SAMPLERS];
	uint32_t tex_desc[DRV_MAX_SAMPLERS][16];
	uint32_t so_size_dw;                /* per buffer, 0 = 1024 */
	bool so_zero_fill;                  /* TF buffers start 0 (else 0xEE bytes) */
	/* outputs */
	uint32_t so[DRV_MAX_TF_BUFFERS][4096];
	uint32_t filled_dw[DRV_MAX_TF_BUFFERS];
	uint64_t faults;
	struct gm_so_stats stats;
};

static inline void dt_dump(const struct drv_program *p)
{
	struct xt_buf b = XT_BUF_INIT;
	drv_program_disasm(p, &b);
	xt_buf_append(&b, "", 1);
	fprintf(stderr, "%s", (const char *)b.data);
	xt_buf_fini(&b);
}

/*
 * In a test function: CHECKs that program `p` (dt_compile's) compiled and
 * linked, and where it did not destroys it and returns from the test.
 */
#define DT_REQUIRE_LINKED(p)                                                   \
	do {                                                                   \
		CHECK((p) && (p)->linked);                                     \
		if (!(p) || !(p)->linked) {                                    \
			drv_program_destroy(p);                                \
			return;                                                \
		}                                                              \
	} while (0)

/* Compiles; on a compile / link failure prints the logs. */
static inline struct drv_program *dt_compile(const char *vs, const char *gs, const char *const *varyings,
					     unsigned n_varyings, uint32_t mode)
{
	struct drv_program_desc d;
	struct drv_program *p = NULL;
	struct xt_err err = { 0 };
	memset(&d, 0, sizeof d);
	d.source[DRV_STAGE_VERTEX] = vs;
	d.source[DRV_STAGE_GEOMETRY] = gs;
	d.tf_varyings = varyings;
	d.n_tf_varyings = n_varyings;
	d.tf_mode = mode;
	if (drv_program_create(&d, &p, &err) != XT_OK) {
		fprintf(stderr, "drv_program_create: %s\n", xt_err_msg(&err));
		return NULL;
	}
	if (getenv("XFBTRACE_TEST_DUMP"))
		dt_dump(p);
	if (!p->linked) {
		for (int s = 0; s < DRV_STAGE_COUNT; s++)
			if (p->compile_log[s] && *p->compile_log[s])
				fprintf(stderr, "compile log %d:\n%s", s, p->compile_log[s]);
		fprintf(stderr, "link log:\n%s", p->link_log);
		for (int s = 0; s < DRV_STAGE_COUNT; s++)
			if (p->translated[s])
				fprintf(stderr, "translated %d:\n%s\n", s, p->translated[s]);
	}
	return p;
}

static inline uint64_t dt_code(struct tgpu *t, const struct drv_stage_binary *b)
{
	struct gm_bo *bo = tgpu_bo(t, b->size_dw * 4 + 16);
	memcpy(gm_bo_map(bo), b->code, b->size_dw * 4);
	return gm_bo_va(bo);
}

static inline uint32_t dt_rsrc1(const struct drv_stage_binary *b)
{
	return SPI_SHADER_PGM_RSRC1_VS_VGPRS((b->num_vgprs - 1) / 4) | SPI_SHADER_PGM_RSRC1_VS_SGPRS((b->num_sgprs - 1) / 8);
}

/* Runs `p` once per r's draw; fills r's outputs. */
static inline void dt_run(const struct drv_program *p, struct dt_run *r)
{
	struct tgpu t;
	struct gm_bo *table, *slots, *so[DRV_MAX_TF_BUFFERS] = { 0 }, *esgs = NULL, *gsvs = NULL;
	uint8_t *tb;
	uint32_t user[4], size_dw = r->so_size_dw ? r->so_size_dw : 1024;
	uint64_t before;

	tgpu_init(&t);
	table = tgpu_bo(&t, DRV_DESC_TABLE_SIZE);
	slots = tgpu_bo(&t, 64);
	tb = gm_bo_map(table);
	for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++) {
		if (!(p->tf.buffer_mask >> b & 1))
			continue;
		so[b] = tgpu_bo(&t, size_dw * 4 + 64);
		memset(gm_bo_map(so[b]), r->so_zero_fill ? 0 : 0xEE, size_dw * 4 + 64);
		tgpu_desc((uint32_t *)(tb + 16 * DRV_DESC_SO(b)), gm_bo_va(so[b]), 0, 0xFFFFFFFFu,
			  V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	}
	if (r->consts_size) {
		struct gm_bo *c = tgpu_bo(&t, r->consts_size + 16);
		memcpy(gm_bo_map(c), r->consts, r->consts_size);
		tgpu_desc((uint32_t *)(tb + 16 * DRV_DESC_CONST), gm_bo_va(c), 0, r->consts_size,
			  V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	}
	for (unsigned i = 0; i < DRV_MAX_UBOS; i++) {
		struct gm_bo *c;
		if (!r->ubo_size[i])
			continue;
		c = tgpu_bo(&t, r->ubo_size[i] + 16);
		memcpy(gm_bo_map(c), r->ubo[i], r->ubo_size[i]);
		tgpu_desc((uint32_t *)(tb + 16 * DRV_DESC_UBO(i)), gm_bo_va(c), 0, r->ubo_size[i],
			  V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
	}
	for (unsigned k = 0; k < DRV_MAX_SAMPLERS; k++) {
		struct gm_bo *c;
		uint32_t *d = (uint32_t *)(tb + DRV_DESC_SAMPLER_OFFSET(k));
		if (!r->tex[k])
			continue;
		c = tgpu_bo(&t, r->tex_bytes[k] + 256);
		memcpy(gm_bo_map(c), r->tex[k], r->tex_bytes[k]);
		memcpy(d, r->tex_desc[k], sizeof r->tex_desc[k]);
		d[0] |= SQ_IMG_RSRC_WORD0_BASE_ADDRESS((uint32_t)(gm_bo_va(c) >> 8));
		d[1] |= SQ_IMG_RSRC_WORD1_BASE_ADDRESS_HI((uint32_t)(gm_bo_va(c) >> 40));
	}
	for (unsigned l = 0; l < DRV_MAX_ATTRIBS; l++) {
		struct gm_bo *vb;
		unsigned n = r->divisor[l] ? r->instances : DT_MAX_VERTS;
		if (!r->attrib[l])
			continue;
		vb = tgpu_bo(&t, 16 * n);
		memcpy(gm_bo_map(vb), r->attrib[l], 16 * (r->divisor[l] ? r->instances : r->count + r->base_vertex));
		tgpu_desc((uint32_t *)(tb + 16 * DRV_DESC_VB(l)), gm_bo_va(vb), 16, n, V_BUF_DATA_FORMAT_32_32_32_32,
			  r->attrib_num_format[l] ? r->attrib_num_format[l] : V_BUF_NUM_FORMAT_FLOAT);
		((uint32_t *)(tb + DRV_DESC_DIVISOR_OFFSET))[l] = r->divisor[l];
	}
	if (p->has_gs) {
		esgs = tgpu_bo(&t, 1 << 20);
		gsvs = tgpu_bo(&t, 1 << 20);
		tgpu_desc((uint32_t *)(tb + 16 * DRV_DESC_ESGS), gm_bo_va(esgs), 0, 1 << 20, V_BUF_DATA_FORMAT_32,
			  V_BUF_NUM_FORMAT_UINT);
		tgpu_desc((uint32_t *)(tb + 16 * DRV_DESC_GSVS), gm_bo_va(gsvs), 0, 1 << 20, V_BUF_DATA_FORMAT_32,
			  V_BUF_NUM_FORMAT_UINT);
	}
	user[0] = (uint32_t)gm_bo_va(table);
	user[1] = (uint32_t)(gm_bo_va(table) >> 32);
	user[2] = r->base_vertex;
	user[3] = 0;

	{
		const struct drv_stage_binary *vs = &p->hw[p->has_gs ? DRV_HW_COPY : DRV_HW_VS];
		uint64_t va = dt_code(&t, vs);
		uint32_t so_bits = vs->so_en ? SPI_SHADER_PGM_RSRC2_VS_SO_EN(1) : 0;
		for (unsigned b = 0; b < 4; b++)
			if (vs->so_base_en >> b & 1)
				so_bits |= SPI_SHADER_PGM_RSRC2_VS_SO_BASE0_EN(1) << b;
		pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_LO_VS, (uint32_t)(va >> 8));
		pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_HI_VS, (uint32_t)(va >> 40));
		pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC1_VS, dt_rsrc1(vs));
		pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC2_VS, SPI_SHADER_PGM_RSRC2_VS_USER_SGPR(vs->user_sgprs) | so_bits);
		for (unsigned i = 0; i < 4; i++)
			pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_USER_DATA_VS_0 + 4 * i, user[i]);
	}
	if (p->has_gs) {
		const struct drv_stage_binary *es = &p->hw[DRV_HW_ES], *gs = &p->hw[DRV_HW_GS];
		uint64_t eva = dt_code(&t, es), gva = dt_code(&t, gs);
		const struct drv_gs_info *g = &p->gs;
		static const unsigned outprim[] = { [0] = V_POINTLIST, [3] = V_LINESTRIP, [5] = V_TRISTRIP };
		pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_LO_ES, (uint32_t)(eva >> 8));
		pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_HI_ES, (uint32_t)(eva >> 40));
		pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC1_ES, dt_rsrc1(es));
		pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC2_ES, SPI_SHADER_PGM_RSRC2_ES_USER_SGPR(4));
		pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_LO_GS, (uint32_t)(gva >> 8));
		pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_HI_GS, (uint32_t)(gva >> 40));
		pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC1_GS, dt_rsrc1(gs));
		pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_RSRC2_GS, SPI_SHADER_PGM_RSRC2_GS_USER_SGPR(4));
		for (unsigned i = 0; i < 4; i++) {
			pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_USER_DATA_ES_0 + 4 * i, user[i]);
			pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_USER_DATA_GS_0 + 4 * i, user[i]);
		}
		pm4_set_context_reg(&t.cs, REG_VGT_SHADER_STAGES_EN,
				    VGT_SHADER_STAGES_EN_ES_EN(V_ES_STAGE_REAL) | VGT_SHADER_STAGES_EN_GS_EN(1) |
				    VGT_SHADER_STAGES_EN_VS_EN(V_VS_STAGE_COPY_SHADER));
		pm4_set_context_reg(&t.cs, REG_VGT_GS_MODE, VGT_GS_MODE_MODE(V_GS_SCENARIO_G));
		pm4_set_context_reg(&t.cs, REG_VGT_GS_MAX_VERT_OUT, g->max_vertices);
		pm4_set_context_reg(&t.cs, REG_VGT_ESGS_RING_ITEMSIZE, g->esgs_itemsize_dw);
		pm4_set_context_reg(&t.cs, REG_VGT_GSVS_RING_ITEMSIZE, g->gsvs_itemsize_dw);
		pm4_set_context_reg(&t.cs, REG_VGT_GSVS_RING_OFFSET_1, g->ring_offset_dw[1]);
		pm4_set_context_reg(&t.cs, REG_VGT_GSVS_RING_OFFSET_2, g->ring_offset_dw[2]);
		pm4_set_context_reg(&t.cs, REG_VGT_GSVS_RING_OFFSET_3, g->ring_offset_dw[3]);
		pm4_set_context_reg(&t.cs, REG_VGT_GS_VERT_ITEMSIZE, g->vert_itemsize_dw[0]);
		pm4_set_context_reg(&t.cs, REG_VGT_GS_VERT_ITEMSIZE_1, g->vert_itemsize_dw[1]);
		pm4_set_context_reg(&t.cs, REG_VGT_GS_VERT_ITEMSIZE_2, g->vert_itemsize_dw[2]);
		pm4_set_context_reg(&t.cs, REG_VGT_GS_VERT_ITEMSIZE_3, g->vert_itemsize_dw[3]);
		pm4_set_context_reg(&t.cs, REG_VGT_GS_INSTANCE_CNT,
				    g->invocations > 1 ? VGT_GS_INSTANCE_CNT_ENABLE(1) | VGT_GS_INSTANCE_CNT_CNT(g->invocations) : 0);
		pm4_set_context_reg(&t.cs, REG_VGT_GS_OUT_PRIM_TYPE,
				    VGT_GS_OUT_PRIM_TYPE_OUTPRIM_TYPE(outprim[g->output_prim < 6 ? g->output_prim : 0]));
		pm4_set_uconfig_reg(&t.cs, REG_VGT_ESGS_RING_SIZE, (1 << 20) / 256);
		pm4_set_uconfig_reg(&t.cs, REG_VGT_GSVS_RING_SIZE, (1 << 20) / 256);
	}
	if (p->tf.buffer_mask) {
		uint32_t bufcfg = 0;
		for (unsigned b = 0; b < 4; b++)
			if (p->tf.buffer_mask >> b & 1)
				bufcfg |= 1u << (b + 4 * p->tf.buffer_stream[b]);
		tgpu_so_enable(&t, 0xF, bufcfg);
		tgpu_so_flush(&t);
		for (unsigned b = 0; b < 4; b++)
			if (p->tf.buffer_mask >> b & 1)
				tgpu_so_begin(&t, b, size_dw, p->tf.stride_bytes[b] / 4, 0, 0);
	}
	tgpu_draw_auto(&t, r->prim, r->count, r->instances ? r->instances : 1);
	if (p->tf.buffer_mask) {
		tgpu_so_flush(&t);
		for (unsigned b = 0; b < 4; b++)
			if (p->tf.buffer_mask >> b & 1)
				tgpu_so_end(&t, b, gm_bo_va(slots) + 4 * b);
	}
	before = gm_fault_count(t.gm);
	tgpu_submit(&t);
	r->faults = gm_fault_count(t.gm) - before;
	for (unsigned b = 0; b < 4; b++) {
		if (!so[b])
			continue;
		memcpy(r->so[b], gm_bo_map(so[b]), (size_dw < 4096 ? size_dw : 4096) * 4);
		r->filled_dw[b] = rd32(slots, b);
	}
	gm_so_stats_get(t.gm, &r->stats);
	tgpu_fini(&t);
}

static inline float dt_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t dt_u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

#endif
