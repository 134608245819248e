/*
 * test_gm_cp.c - the command processor and register file: SET_* spaces,
 * WRITE_DATA / COPY_DATA, IB chaining and nesting limits, bad packets and
 * addresses recorded as faults (never a crash or a hang), WAIT_REG_MEM that
 * cannot finish, register snapshots with dirty tracking, register
 * overrides forced at draws, determinism.
 */
#include "gm_test_util.h"

static uint64_t n_faults_of(struct gm *gm, enum gm_fault_kind k)
{
	uint64_t n = 0;
	for (uint64_t i = 0; i < gm_fault_count(gm); i++)
		n += gm_fault_get(gm, i) && gm_fault_get(gm, i)->kind == k;
	return n;
}

static void test_set_reg_packets_write_their_space(void)
{
	struct tgpu t;
	uint32_t v = 0;
	tgpu_init(&t);
	pm4_set_context_reg(&t.cs, REG_VGT_STRMOUT_CONFIG, 0xF);
	pm4_set_uconfig_reg(&t.cs, REG_VGT_NUM_INSTANCES, 3);
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_USER_DATA_VS_0 + 4, 0x1234);
	tgpu_submit(&t);
	CHECK(gm_reg_get(t.gm, REG_VGT_STRMOUT_CONFIG, &v) && v == 0xF);
	CHECK(gm_reg_get(t.gm, REG_VGT_NUM_INSTANCES, &v) && v == 3);
	CHECK(gm_reg_get(t.gm, REG_SPI_SHADER_USER_DATA_VS_0 + 4, &v) && v == 0x1234);
	CHECK(!gm_reg_get(t.gm, 0x1000, &v));
	CHECK_EQ_INT(gm_fault_count(t.gm), 0);
	tgpu_fini(&t);
}

static void test_set_reg_past_space_end_is_a_fault(void)
{
	struct tgpu t;
	tgpu_init(&t);
	pm4_emit(&t.cs, pm4_pkt3_header(PKT3_SET_CONTEXT_REG, 3, false));
	pm4_emit(&t.cs, 0x3FF);              /* last context dword, then one past it */
	pm4_emit(&t.cs, 1);
	pm4_emit(&t.cs, 2);
	pm4_set_context_reg(&t.cs, REG_VGT_STRMOUT_CONFIG, 1);  /* execution goes on */
	tgpu_submit(&t);
	CHECK_EQ_INT(n_faults_of(t.gm, GM_FAULT_BAD_REGISTER), 1);
	CHECK_EQ_INT(gm_fault_get(t.gm, 0)->packet_va, gm_bo_va(t.ib));
	{
		uint32_t v;
		CHECK(gm_reg_get(t.gm, REG_VGT_STRMOUT_CONFIG, &v) && v == 1);
	}
	tgpu_fini(&t);
}

static void test_write_data_and_copy_data(void)
{
	struct tgpu t;
	struct gm_bo *bo;
	uint32_t data[2] = { 0x11, 0x22 }, v;
	tgpu_init(&t);
	bo = tgpu_bo(&t, 64);
	pm4_write_data(&t.cs, V_WRITE_DATA_DST_MEMORY_SYNC, V_ENGINE_ME, true, gm_bo_va(bo), data, 2);
	pm4_copy_data(&t.cs, PKT3_COPY_DATA_CONTROL_SRC_SEL(V_COPY_DATA_SRC_MEM) |
			     PKT3_COPY_DATA_CONTROL_DST_SEL(V_COPY_DATA_DST_REG),
		      gm_bo_va(bo) + 4, REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE >> 2);
	pm4_copy_data(&t.cs, PKT3_COPY_DATA_CONTROL_SRC_SEL(V_COPY_DATA_SRC_IMM) |
			     PKT3_COPY_DATA_CONTROL_DST_SEL(V_COPY_DATA_DST_MEM_SYNC) |
			     PKT3_COPY_DATA_CONTROL_COUNT_SEL(1),
		      0x0000000200000001ull, gm_bo_va(bo) + 8);
	pm4_copy_data(&t.cs, PKT3_COPY_DATA_CONTROL_SRC_SEL(V_COPY_DATA_SRC_REG) |
			     PKT3_COPY_DATA_CONTROL_DST_SEL(V_COPY_DATA_DST_MEM_SYNC),
		      REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE >> 2, gm_bo_va(bo) + 16);
	tgpu_submit(&t);
	CHECK_EQ_INT(rd32(bo, 0), 0x11);
	CHECK(gm_reg_get(t.gm, REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE, &v) && v == 0x22);
	CHECK_EQ_INT(rd32(bo, 2), 1);
	CHECK_EQ_INT(rd32(bo, 3), 2);
	CHECK_EQ_INT(rd32(bo, 4), 0x22);
	CHECK_EQ_INT(gm_fault_count(t.gm), 0);
	tgpu_fini(&t);
}

/*
 * DRAW_INDEX_2's third dword is VGT_DMA_BASE_HI, whose only field is
 * BASE_ADDR [7:0] (specs/gfx8_regs.xml): the CP used to copy the whole
 * dword into the register while pm4's unpacker (and the CP's own index
 * address) kept bits [7:0]; both now read the packet through the unpacker,
 * and the register holds the field only.
 */
static void test_draw_index_2_sets_only_base_addr_of_vgt_dma_base_hi(void)
{
	struct tgpu t;
	uint32_t v = 0;
	tgpu_init(&t);
	pm4_emit_hdr(&t.cs, PKT3_DRAW_INDEX_2, 5);
	pm4_emit(&t.cs, 0);                  /* MAX_SIZE */
	pm4_emit(&t.cs, 0x1000);             /* VGT_DMA_BASE */
	pm4_emit(&t.cs, 0xABCDEF12u);        /* VGT_DMA_BASE_HI with bits above [7:0] */
	pm4_emit(&t.cs, 0);                  /* no indices: nothing is fetched */
	pm4_emit(&t.cs, VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_DMA));
	tgpu_submit(&t);
	CHECK(gm_reg_get(t.gm, REG_VGT_DMA_BASE_HI, &v));
	CHECK_EQ_INT(v, 0x12);
	CHECK(gm_reg_get(t.gm, REG_VGT_DMA_BASE, &v));
	CHECK_EQ_INT(v, 0x1000);
	tgpu_fini(&t);
}

static void test_bad_packets_are_recorded_and_skipped(void)
{
	struct tgpu t;
	struct gm_bo *bo;
	uint32_t one = 7;
	tgpu_init(&t);
	bo = tgpu_bo(&t, 64);
	pm4_emit(&t.cs, 0x40000000);                       /* type 1: garbage */
	pm4_emit(&t.cs, pm4_pkt3_header(0xEE, 2, false)); /* unknown opcode with 2 dwords */
	pm4_emit(&t.cs, 0xDEADBEEF);
	pm4_emit(&t.cs, 0xDEADBEEF);
	pm4_emit(&t.cs, PM4_TYPE2_NOP);
	pm4_write_data(&t.cs, V_WRITE_DATA_DST_MEMORY_SYNC, V_ENGINE_ME, true, 0x10, &one, 1);  /* unmapped */
	pm4_write_data(&t.cs, V_WRITE_DATA_DST_MEMORY_SYNC, V_ENGINE_ME, true, gm_bo_va(bo), &one, 1);
	pm4_emit(&t.cs, pm4_pkt3_header(PKT3_NOP, 100, false));  /* runs past the end */
	tgpu_submit(&t);
	CHECK_EQ_INT(n_faults_of(t.gm, GM_FAULT_BAD_PACKET), 3);
	CHECK_EQ_INT(n_faults_of(t.gm, GM_FAULT_BAD_ADDRESS), 1);
	CHECK_EQ_INT(rd32(bo, 0), 7);                    /* resynced and kept going */
	tgpu_fini(&t);
}

static void test_wait_that_cannot_finish_is_reported(void)
{
	struct tgpu t;
	struct pm4_wait_reg_mem w = { 0 };
	tgpu_init(&t);
	pm4_set_uconfig_reg(&t.cs, REG_CP_STRMOUT_CNTL, 0);
	w.function = V_WAIT_REG_MEM_EQUAL;
	w.mem_space = V_WAIT_REG_MEM_SPACE_REGISTER;
	w.address = REG_CP_STRMOUT_CNTL >> 2;
	w.reference = 1;
	w.mask = 1;
	pm4_wait_reg_mem(&t.cs, &w);                      /* no SO_VGTSTREAMOUT_FLUSH before it */
	tgpu_submit(&t);
	CHECK_EQ_INT(n_faults_of(t.gm, GM_FAULT_INFINITE_WAIT), 1);
	CHECK_EQ_INT(gm_fault_get(t.gm, 0)->address, REG_CP_STRMOUT_CNTL);
	tgpu_fini(&t);
}

static void emit_ib(struct pm4_cs *cs, uint64_t va, uint32_t size_dw, bool chain)
{
	pm4_emit(cs, pm4_pkt3_header(0x3F, 3, false));
	pm4_emit(cs, (uint32_t)va);
	pm4_emit(cs, (uint32_t)(va >> 32) & 0xFFFF);
	pm4_emit(cs, size_dw | (chain ? 1u << 20 : 0) | 1u << 23);
}

static void test_ib_nesting_chaining_and_limits(void)
{
	struct tgpu t;
	struct gm_bo *ib2, *ib3;
	struct pm4_cs c2, c3;
	uint32_t v;
	tgpu_init(&t);
	ib2 = tgpu_bo(&t, 256);
	ib3 = tgpu_bo(&t, 256);
	pm4_cs_init(&c3, gm_bo_map(ib3), 64);
	pm4_set_context_reg(&c3, REG_VGT_STRMOUT_BUFFER_CONFIG, 0x21);
	pm4_cs_init(&c2, gm_bo_map(ib2), 64);
	pm4_set_context_reg(&c2, REG_VGT_STRMOUT_CONFIG, 3);
	emit_ib(&c2, gm_bo_va(ib3), c3.cdw, true);        /* chain: ib2 continues in ib3 */
	pm4_set_context_reg(&c2, REG_VGT_STRMOUT_CONFIG, 0xBAD); /* never reached */
	emit_ib(&t.cs, gm_bo_va(ib2), c2.cdw, false);
	pm4_set_uconfig_reg(&t.cs, REG_VGT_NUM_INSTANCES, 9); /* after the nested IB returns */
	tgpu_submit(&t);
	CHECK(gm_reg_get(t.gm, REG_VGT_STRMOUT_CONFIG, &v) && v == 3);
	CHECK(gm_reg_get(t.gm, REG_VGT_STRMOUT_BUFFER_CONFIG, &v) && v == 0x21);
	CHECK(gm_reg_get(t.gm, REG_VGT_NUM_INSTANCES, &v) && v == 9);
	CHECK_EQ_INT(gm_fault_count(t.gm), 0);
	tgpu_fini(&t);

	/* an IB that calls itself: depth limit, no hang */
	tgpu_init(&t);
	emit_ib(&t.cs, gm_bo_va(t.ib), 4, false);
	tgpu_submit(&t);
	CHECK_EQ_INT(n_faults_of(t.gm, GM_FAULT_IB_DEPTH), 1);
	tgpu_fini(&t);

	/* an IB that chains to itself: packet budget, no hang */
	{
		struct gm_options o = { 0 };
		struct gm *gm;
		struct gm_bo *bo;
		struct pm4_cs c;
		o.max_packets = 10000;
		gm_create(&o, &gm);
		gm_bo_alloc(gm, 256, 256, &bo);
		pm4_cs_init(&c, gm_bo_map(bo), 64);
		emit_ib(&c, gm_bo_va(bo), 4, true);
		gm_submit_ib(gm, gm_bo_va(bo), 4);
		CHECK_EQ_INT(gm_fault_count(gm), 1);
		CHECK_EQ_INT(gm_fault_get(gm, 0)->kind, GM_FAULT_IB_DEPTH);
		gm_destroy(gm);
	}
}

static void test_register_snapshot_and_dirty(void)
{
	struct tgpu t;
	struct gm_reg_value *r;
	size_t n;
	tgpu_init(&t);
	pm4_set_context_reg(&t.cs, REG_VGT_STRMOUT_CONFIG, 1);
	pm4_set_sh_reg(&t.cs, REG_SPI_SHADER_PGM_LO_VS, 2);
	tgpu_submit(&t);
	CHECK(gm_reg_snapshot(t.gm, false, &r, &n) == XT_OK);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_INT(r[0].reg, REG_SPI_SHADER_PGM_LO_VS);      /* ascending offsets */
	CHECK_EQ_INT(r[1].reg, REG_VGT_STRMOUT_CONFIG);
	free(r);
	gm_reg_clear_dirty(t.gm);
	pm4_set_context_reg(&t.cs, REG_VGT_STRMOUT_BUFFER_CONFIG, 1);
	tgpu_submit(&t);
	CHECK(gm_reg_snapshot(t.gm, true, &r, &n) == XT_OK);
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_INT(r[0].reg, REG_VGT_STRMOUT_BUFFER_CONFIG);
	free(r);
	tgpu_fini(&t);
}

/* gm_reg_override_set: the bits are forced at each draw packet, over what
 * the packets before it wrote, and only there; a snapshot shows them. */
static void test_register_overrides_apply_at_draws(void)
{
	struct tgpu t;
	struct gm_reg_value *r;
	size_t n;
	uint32_t v = 0;
	const struct gm_reg_override ovr[2] = {
		{ REG_CB_BLEND0_CONTROL, CB_BLEND0_CONTROL_ENABLE__MASK, CB_BLEND0_CONTROL_ENABLE(1) },
		{ REG_PA_CL_VPORT_XSCALE_0, UINT32_MAX, 0x3F800000u },
	};
	const struct gm_reg_override bad = { 0x1000, UINT32_MAX, 1 };
	tgpu_init(&t);
	CHECK(gm_reg_override_set(t.gm, ovr, 2) == XT_OK);
	pm4_set_context_reg(&t.cs, REG_CB_BLEND0_CONTROL, 0x0101);
	tgpu_submit(&t);
	CHECK(gm_reg_get(t.gm, REG_CB_BLEND0_CONTROL, &v) && v == 0x0101);   /* no draw yet */
	tgpu_draw_auto(&t, V_DI_PT_TRILIST, 0, 1);
	tgpu_submit(&t);
	CHECK(gm_reg_get(t.gm, REG_CB_BLEND0_CONTROL, &v) && v == 0x40000101u);
	CHECK(gm_reg_get(t.gm, REG_PA_CL_VPORT_XSCALE_0, &v) && v == 0x3F800000u);
	CHECK(gm_reg_snapshot(t.gm, false, &r, &n) == XT_OK);
	bool seen = false;
	for (size_t i = 0; i < n; i++)
		seen |= r[i].reg == REG_PA_CL_VPORT_XSCALE_0 && r[i].value == 0x3F800000u;
	CHECK(seen);
	free(r);
	/* The packets set it again; the next draw forces it again. */
	pm4_set_context_reg(&t.cs, REG_CB_BLEND0_CONTROL, 0);
	tgpu_submit(&t);
	CHECK(gm_reg_get(t.gm, REG_CB_BLEND0_CONTROL, &v) && v == 0);
	tgpu_draw_auto(&t, V_DI_PT_TRILIST, 0, 1);
	tgpu_submit(&t);
	CHECK(gm_reg_get(t.gm, REG_CB_BLEND0_CONTROL, &v) && v == 0x40000000u);
	/* A bad offset changes nothing; none left: draws leave the registers. */
	CHECK(gm_reg_override_set(t.gm, &bad, 1) == XT_ERR_INVALID);
	CHECK(gm_reg_override_set(t.gm, NULL, 0) == XT_OK);
	pm4_set_context_reg(&t.cs, REG_CB_BLEND0_CONTROL, 0x0101);
	tgpu_draw_auto(&t, V_DI_PT_TRILIST, 0, 1);
	tgpu_submit(&t);
	CHECK(gm_reg_get(t.gm, REG_CB_BLEND0_CONTROL, &v) && v == 0x0101);
	CHECK_EQ_INT(gm_fault_count(t.gm), 0);
	tgpu_fini(&t);
}

/* Random dwords as an IB: faults, never a crash; twice gives the same result. */
static void run_garbage(uint32_t seed, uint64_t *faults, uint32_t *hash)
{
	struct gm *gm;
	struct gm_bo *bo;
	uint32_t *p, x = seed;
	struct gm_reg_value *r;
	size_t n;
	gm_create(NULL, &gm);
	gm_bo_alloc(gm, 4096, 256, &bo);
	p = gm_bo_map(bo);
	for (unsigned i = 0; i < 1024; i++) {
		x = x * 1664525u + 1013904223u;
		/* mostly plausible type-3 headers with small counts */
		p[i] = (i % 3 == 0) ? (0xC0000000u | ((x >> 8) & 0x3) << 16 | (x & 0xFF) << 8) : x;
	}
	gm_submit_ib(gm, gm_bo_va(bo), 1024);
	*faults = gm_fault_count(gm);
	*hash = 2166136261u;
	if (gm_reg_snapshot(gm, false, &r, &n) == XT_OK) {
		for (size_t i = 0; i < n; i++)
			*hash = (*hash ^ r[i].reg ^ r[i].value) * 16777619u;
		free(r);
	}
	for (unsigned i = 0; i < 1024; i++)
		*hash = (*hash ^ p[i]) * 16777619u;
	gm_destroy(gm);
}

static void test_garbage_ib_is_survived_deterministically(void)
{
	for (uint32_t seed = 1; seed < 30; seed++) {
		uint64_t f1, f2;
		uint32_t h1, h2;
		run_garbage(seed, &f1, &h1);
		run_garbage(seed, &f2, &h2);
		CHECK(f1 > 0);
		CHECK(f1 == f2 && h1 == h2);
	}
}

int main(void)
{
	XT_RUN(test_set_reg_packets_write_their_space);
	XT_RUN(test_set_reg_past_space_end_is_a_fault);
	XT_RUN(test_write_data_and_copy_data);
	XT_RUN(test_draw_index_2_sets_only_base_addr_of_vgt_dma_base_hi);
	XT_RUN(test_bad_packets_are_recorded_and_skipped);
	XT_RUN(test_wait_that_cannot_finish_is_reported);
	XT_RUN(test_ib_nesting_chaining_and_limits);
	XT_RUN(test_register_snapshot_and_dirty);
	XT_RUN(test_register_overrides_apply_at_draws);
	XT_RUN(test_garbage_ib_is_survived_deterministically);
	XT_TEST_MAIN_END();
}
