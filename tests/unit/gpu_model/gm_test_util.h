/*
 * gm_test_util.h - helpers the gpu_model tests share: a GPU with an IB
 * being built through pm4/'s packet builders, shaders assembled into BOs,
 * buffer descriptors, and radeonsi-shaped streamout sequences
 * (docs/gcn-streamout.md) so tests read like the driver will.
 */
#ifndef GM_TEST_UTIL_H
#define GM_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "gm.h"
#include "isa.h"
#include "pm4_pkt.h"
#include "xt_test.h"

struct tgpu {
	struct gm *gm;
	struct gm_bo *ib;
	struct pm4_cs cs;
	uint32_t submitted;        /* dwords of cs already submitted */
};

#define TGPU_IB_DW 65536u

static inline void tgpu_init(struct tgpu *t)
{
	gm_create(NULL, &t->gm);
	gm_bo_alloc(t->gm, TGPU_IB_DW * 4, 256, &t->ib);
	t->submitted = 0;
	pm4_cs_init(&t->cs, gm_bo_map(t->ib), TGPU_IB_DW);
}

static inline void tgpu_fini(struct tgpu *t) { gm_destroy(t->gm); }

/* Submits what was built since the last submit; prints faults. */
static inline void tgpu_submit(struct tgpu *t)
{
	uint64_t before = gm_fault_count(t->gm);
	CHECK(pm4_cs_ok(&t->cs));
	if (t->cs.cdw > t->submitted)
		gm_submit_ib(t->gm, gm_bo_va(t->ib) + t->submitted * 4ull, t->cs.cdw - t->submitted);
	t->submitted = t->cs.cdw;
	for (uint64_t i = before; i < gm_fault_count(t->gm); i++) {
		const struct gm_fault *f = gm_fault_get(t->gm, i);
		if (f)
			fprintf(stderr, "  fault %s @0x%llx: %s\n", gm_fault_kind_name(f->kind),
				(unsigned long long)f->address, f->reason);
	}
}

static inline struct gm_bo *tgpu_bo(struct tgpu *t, uint64_t size)
{
	struct gm_bo *bo = NULL;
	CHECK(gm_bo_alloc(t->gm, size, 256, &bo) == XT_OK);
	return bo;
}

/* Assembles `src` into a new BO; returns its VA (0 on failure). */
static inline uint64_t tgpu_shader(struct tgpu *t, const char *src)
{
	struct xt_buf b = XT_BUF_INIT;
	struct xt_err err = { 0 };
	struct gm_bo *bo;
	if (isa_assemble(src, &b, &err) != XT_OK) {
		fprintf(stderr, "assemble: %s\n", xt_err_msg(&err));
		CHECK(!"shader assembles");
		return 0;
	}
	bo = tgpu_bo(t, b.len);
	memcpy(gm_bo_map(bo), b.data, b.len);
	xt_buf_fini(&b);
	return gm_bo_va(bo);
}

/* Buffer descriptor (SQ_BUF_RSRC_WORD0..3) for raw dword access. */
static inline void tgpu_desc(uint32_t d[4], uint64_t va, uint32_t stride, uint32_t num_records,
			     uint32_t data_format, uint32_t num_format)
{
	d[0] = SQ_BUF_RSRC_WORD0_BASE_ADDRESS((uint32_t)va);
	d[1] = SQ_BUF_RSRC_WORD1_BASE_ADDRESS_HI((uint32_t)(va >> 32)) | SQ_BUF_RSRC_WORD1_STRIDE(stride);
	d[2] = num_records;
	d[3] = SQ_BUF_RSRC_WORD3_DST_SEL_X(V_SQ_SEL_X) | SQ_BUF_RSRC_WORD3_DST_SEL_Y(V_SQ_SEL_Y) |
	       SQ_BUF_RSRC_WORD3_DST_SEL_Z(V_SQ_SEL_Z) | SQ_BUF_RSRC_WORD3_DST_SEL_W(V_SQ_SEL_W) |
	       SQ_BUF_RSRC_WORD3_NUM_FORMAT(num_format) | SQ_BUF_RSRC_WORD3_DATA_FORMAT(data_format);
}

/* Binds a hardware VS: program, resources, user SGPRs. */
static inline void tgpu_vs(struct tgpu *t, uint64_t va, unsigned user_sgprs, const uint32_t *user,
			   uint32_t so_bits)
{
	pm4_set_sh_reg(&t->cs, REG_SPI_SHADER_PGM_LO_VS, (uint32_t)(va >> 8));
	pm4_set_sh_reg(&t->cs, REG_SPI_SHADER_PGM_HI_VS, (uint32_t)(va >> 40));
	pm4_set_sh_reg(&t->cs, REG_SPI_SHADER_PGM_RSRC1_VS,
		       SPI_SHADER_PGM_RSRC1_VS_VGPRS(15) | SPI_SHADER_PGM_RSRC1_VS_SGPRS(5));
	pm4_set_sh_reg(&t->cs, REG_SPI_SHADER_PGM_RSRC2_VS,
		       SPI_SHADER_PGM_RSRC2_VS_USER_SGPR(user_sgprs) | so_bits);
	for (unsigned i = 0; i < user_sgprs; i++)
		pm4_set_sh_reg(&t->cs, REG_SPI_SHADER_USER_DATA_VS_0 + 4 * i, user[i]);
}

/* radeonsi's si_flush_vgt_streamout (docs/gcn-streamout.md). */
static inline void tgpu_so_flush(struct tgpu *t)
{
	struct pm4_wait_reg_mem w = { 0 };
	pm4_set_uconfig_reg(&t->cs, REG_CP_STRMOUT_CNTL, 0);
	pm4_event_write(&t->cs, V_SO_VGTSTREAMOUT_FLUSH, 0);
	w.function = V_WAIT_REG_MEM_EQUAL;
	w.mem_space = V_WAIT_REG_MEM_SPACE_REGISTER;
	w.address = REG_CP_STRMOUT_CNTL >> 2;
	w.reference = 1;
	w.mask = CP_STRMOUT_CNTL_OFFSET_UPDATE_DONE(1);
	w.poll_interval = 4;
	pm4_wait_reg_mem(&t->cs, &w);
}

/* si_emit_streamout_begin for buffer b: SIZE / STRIDE then the offset from
 * the packet, or (resume) from the filled-size slot. */
static inline void tgpu_so_begin(struct tgpu *t, unsigned b, uint32_t size_dw, uint32_t stride_dw,
				 uint32_t offset_dw, uint64_t resume_slot)
{
	struct pm4_strmout_buffer_update u = { 0 };
	pm4_set_reg_seq(&t->cs, REG_VGT_STRMOUT_BUFFER_SIZE(b), 2);
	pm4_emit(&t->cs, size_dw);
	pm4_emit(&t->cs, stride_dw);
	u.buffer_select = b;
	if (resume_slot) {
		u.offset_source = V_STRMOUT_OFFSET_FROM_MEM;
		u.src_address = resume_slot;
	} else {
		u.offset_source = V_STRMOUT_OFFSET_FROM_PACKET;
		u.buffer_offset = offset_dw;
	}
	pm4_strmout_buffer_update(&t->cs, &u);
}

/* si_emit_streamout_end for buffer b: store FILLED_SIZE, SIZE = 0. */
static inline void tgpu_so_end(struct tgpu *t, unsigned b, uint64_t slot)
{
	struct pm4_strmout_buffer_update u = { 0 };
	u.buffer_select = b;
	u.offset_source = V_STRMOUT_OFFSET_NONE;
	u.store_filled_size = true;
	u.dst_address = slot;
	pm4_strmout_buffer_update(&t->cs, &u);
	pm4_set_context_reg(&t->cs, REG_VGT_STRMOUT_BUFFER_SIZE(b), 0);
}

static inline void tgpu_so_enable(struct tgpu *t, uint32_t config, uint32_t buffer_config)
{
	pm4_set_reg_seq(&t->cs, REG_VGT_STRMOUT_CONFIG, 2);
	pm4_emit(&t->cs, config);
	pm4_emit(&t->cs, buffer_config);
}

static inline void tgpu_draw_auto(struct tgpu *t, unsigned prim, uint32_t count, uint32_t instances)
{
	pm4_set_uconfig_reg_idx(&t->cs, REG_VGT_PRIMITIVE_TYPE, 1, prim);
	pm4_num_instances(&t->cs, instances);
	pm4_draw_index_auto(&t->cs, count, VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_AUTO_INDEX));
}

static inline uint32_t rd32(struct gm_bo *bo, unsigned i) { return ((const uint32_t *)gm_bo_map(bo))[i]; }

#endif
