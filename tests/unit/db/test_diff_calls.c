/*
 * test_diff_calls.c - the per-call comparisons of diff/ (diff_align.c,
 * diff_regs.c): edit scripts over keyed items, register states compared
 * field by field, PM4 split into packets whatever the bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "pm4_pkt.h"
#include "pm4_regs.h"
#include "xt_json.h"
#include "xt_test.h"

static bool same_never(size_t i, size_t j, void *ctx)
{
	return false;
}

static bool same_always(size_t i, size_t j, void *ctx)
{
	return true;
}

static void test_align_marks_insertions_deletions_and_changes(void)
{
	const uint32_t a[] = { 1, 2, 3, 4 }, b[] = { 1, 3, 5, 4 };
	struct diff_edit *e;
	size_t n;

	/* 1 2 3 4 -> 1 3 5 4: keep 1, delete 2, keep 3, insert 5, keep 4 */
	static const struct diff_edit want[] = {
		{ DIFF_EDIT_SAME, 0, 0 }, { DIFF_EDIT_DELETED, 1, -1 }, { DIFF_EDIT_SAME, 2, 1 },
		{ DIFF_EDIT_INSERTED, -1, 2 }, { DIFF_EDIT_SAME, 3, 3 },
	};
	CHECK_EQ_INT(diff_align(a, 4, b, 4, same_always, NULL, &e, &n), XT_OK);
	CHECK_EQ_INT(n, 5);
	for (size_t i = 0; i < n && i < 5; i++) {
		CHECK_EQ_INT(e[i].op, want[i].op);
		CHECK_EQ_INT(e[i].a, want[i].a);
		CHECK_EQ_INT(e[i].b, want[i].b);
	}
	free(e);
	CHECK_EQ_INT(diff_align(a, 4, a, 4, same_never, NULL, &e, &n), XT_OK);
	CHECK_EQ_INT(n, 4);
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ_INT(e[i].op, DIFF_EDIT_CHANGED);
		CHECK(e[i].a == (int32_t)i && e[i].b == (int32_t)i);
	}
	free(e);
	CHECK_EQ_INT(diff_align(a, 0, b, 0, same_always, NULL, &e, &n), XT_OK);
	CHECK_EQ_INT(n, 0);
	free(e);
}

static void test_regs_compare_names_the_changed_field(void)
{
	const uint32_t a[] = { REG_VGT_STRMOUT_VTX_STRIDE_0, 4, REG_VGT_STRMOUT_CONFIG, 1 };
	const uint32_t b[] = { REG_VGT_STRMOUT_VTX_STRIDE_0, 5, REG_VGT_STRMOUT_CONFIG, 1,
			       0x28ffc, 7 };
	struct diff_field *f;
	size_t n;

	CHECK_EQ_INT(diff_regs_compare(a, 2, b, 3, &f, &n), XT_OK);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_STR(f[0].reg_name, "VGT_STRMOUT_VTX_STRIDE_0");
	CHECK_EQ_STR(f[0].field, "STRIDE");
	CHECK_EQ_INT(f[0].a, 4);
	CHECK_EQ_INT(f[0].b, 5);
	CHECK(f[0].in_a && f[0].in_b);
	/* 0x28ffc is no register of the database: its whole value, B only */
	CHECK_EQ_INT(f[1].reg, 0x28ffc);
	CHECK(f[1].reg_name == NULL && f[1].field == NULL);
	CHECK_EQ_INT(f[1].a, 0);
	CHECK_EQ_INT(f[1].b, 7);
	CHECK(!f[1].in_a && f[1].in_b);
	free(f);
	CHECK_EQ_INT(diff_regs_compare(a, 2, a, 2, &f, &n), XT_OK);
	CHECK_EQ_INT(n, 0);
	free(f);
}

/* A register the database types f32 is compared as a float: its JSON
 * carries the float text beside the bits. */
static void test_regs_compare_marks_f32_registers(void)
{
	const uint32_t a[] = { REG_PA_CL_VPORT_XOFFSET_0, 0x42000000, REG_VGT_STRMOUT_CONFIG, 1 };
	const uint32_t b[] = { REG_PA_CL_VPORT_XOFFSET_0, 0x42200000, REG_VGT_STRMOUT_CONFIG, 3 };
	struct xt_buf out = XT_BUF_INIT;
	struct xt_jw w;
	struct diff_field *f;
	size_t n;

	CHECK_EQ_INT(diff_regs_compare(a, 2, b, 2, &f, &n), XT_OK);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_STR(f[0].reg_name, "PA_CL_VPORT_XOFFSET_0");
	CHECK(f[0].f32 && f[0].field == NULL);
	CHECK_EQ_STR(f[1].field, "STREAMOUT_1_EN");
	CHECK(!f[1].f32);
	xt_jw_init(&w, &out);
	xt_jw_arr(&w);
	diff_field_json(&w, &f[0], false);
	diff_field_json(&w, &f[1], false);
	xt_jw_end(&w);
	CHECK_EQ_INT(xt_jw_done(&w), XT_OK);
	CHECK_EQ_INT(xt_buf_append(&out, "", 1), XT_OK);
	CHECK(strstr((char *)out.data, "\"a_text\":\"32.0f (0x42000000)\","
		     "\"b_text\":\"40.0f (0x42200000)\"") != NULL);
	/* Only f32 registers have the texts. */
	CHECK(strstr(strstr((char *)out.data, "STREAMOUT_1_EN"), "a_text") == NULL);
	xt_buf_fini(&out);
	free(f);
}

static void test_pm4_split_keys_set_reg_by_register_and_survives_garbage(void)
{
	uint32_t buf[64];
	struct pm4_cs cs;
	struct diff_packet *p;
	size_t n;

	pm4_cs_init(&cs, buf, 64);
	pm4_set_reg(&cs, REG_VGT_STRMOUT_CONFIG, 1);
	pm4_set_reg(&cs, REG_VGT_STRMOUT_VTX_STRIDE_0, 4);
	CHECK(pm4_cs_ok(&cs));
	CHECK_EQ_INT(diff_pm4_split(buf, cs.cdw, &p, &n), XT_OK);
	CHECK_EQ_INT(n, 2);
	if (n == 2) {
		/* two 3-dword SET_CONTEXT_REGs: header, register, value */
		CHECK_EQ_INT(p[0].offset_dw, 0);
		CHECK_EQ_INT(p[0].size_dw, 3);
		CHECK_EQ_INT(p[1].offset_dw, 3);
		CHECK_EQ_INT(p[1].size_dw, 3);
		CHECK_EQ_STR(p[0].name, "SET_CONTEXT_REG");
		CHECK_EQ_STR(p[1].name, "SET_CONTEXT_REG");
		CHECK_EQ_INT(p[0].reg, REG_VGT_STRMOUT_CONFIG);
		CHECK_EQ_INT(p[1].reg, REG_VGT_STRMOUT_VTX_STRIDE_0);
		/* same opcode, other register: must not align */
		CHECK(p[0].key != p[1].key);
	}
	free(p);
	/* the same register set twice keys alike, whatever the values */
	pm4_cs_init(&cs, buf, 64);
	pm4_set_reg(&cs, REG_VGT_STRMOUT_CONFIG, 1);
	pm4_set_reg(&cs, REG_VGT_STRMOUT_CONFIG, 0xF);
	CHECK_EQ_INT(diff_pm4_split(buf, cs.cdw, &p, &n), XT_OK);
	CHECK(n == 2 && p[0].key == p[1].key);
	free(p);
	for (uint32_t seed = 1; seed < 200; seed++) {
		for (int i = 0; i < 64; i++)
			buf[i] = seed * 2654435761u ^ (uint32_t)i * 40503u;
		CHECK_EQ_INT(diff_pm4_split(buf, 64, &p, &n), XT_OK);
		uint32_t covered = 0;
		for (size_t i = 0; i < n; i++)
			covered += p[i].size_dw;
		CHECK_EQ_INT(covered, 64);
		free(p);
	}
}

static void test_regs_decode_prints_fields_and_only_changes(void)
{
	const uint32_t a[] = { REG_VGT_STRMOUT_VTX_STRIDE_0, 5, REG_VGT_STRMOUT_CONFIG, 1 };
	const uint32_t prev[] = { REG_VGT_STRMOUT_VTX_STRIDE_0, 4, REG_VGT_STRMOUT_CONFIG, 1 };
	struct xt_buf out = XT_BUF_INIT;

	CHECK_EQ_INT(diff_regs_decode(a, 2, prev, 2, "regs", &out), XT_OK);
	CHECK_EQ_INT(xt_buf_append(&out, "", 1), XT_OK);
	CHECK(strstr((char *)out.data, "VGT_STRMOUT_VTX_STRIDE_0 <- STRIDE = 5") != NULL);
	CHECK(strstr((char *)out.data, "VGT_STRMOUT_CONFIG") == NULL);
	xt_buf_fini(&out);
}

int main(void)
{
	XT_RUN(test_align_marks_insertions_deletions_and_changes);
	XT_RUN(test_regs_compare_names_the_changed_field);
	XT_RUN(test_regs_compare_marks_f32_registers);
	XT_RUN(test_pm4_split_keys_set_reg_by_register_and_survives_garbage);
	XT_RUN(test_regs_decode_prints_fields_and_only_changes);
	XT_TEST_MAIN_END();
}
