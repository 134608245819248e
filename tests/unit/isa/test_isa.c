/*
 * test_isa.c - the shader ISA (isa/): assembler, disassembler round trip,
 * decoder robustness.  How gpu_model executes it is test_gm_isa.c.
 */
#include <stdio.h>
#include <string.h>

#include "isa.h"
#include "xt_test.h"

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

static void test_asm_encodes_documented_fields(void)
{
	struct xt_buf b;
	const uint32_t *dw;
	CHECK_EQ_INT(asm_ok("v_add_f32 v1, v2, 1.0\n", &b), 2);
	dw = (const uint32_t *)b.data;
	CHECK_EQ_INT(dw[0] & 0xFF, ISA_OP_V_ADD_F32);
	CHECK_EQ_INT((dw[0] >> 8) & 0x3FF, ISA_OPD_VGPR0 + 1);
	CHECK_EQ_INT((dw[0] >> 18) & 0x3FF, ISA_OPD_VGPR0 + 2);
	CHECK_EQ_INT(dw[1] & 0x3FF, 242);   /* inline 1.0 */
	xt_buf_fini(&b);
	CHECK_EQ_INT(asm_ok("s_mov_b32 s0, 0x12345678\n", &b), 3);
	CHECK_EQ_INT(((const uint32_t *)b.data)[2], 0x12345678);
	xt_buf_fini(&b);
}

static void test_asm_reports_line_of_error(void)
{
	struct xt_buf b = XT_BUF_INIT;
	struct xt_err err = { 0 };
	CHECK(isa_assemble("s_nop\n v_ad_f32 v1, v2, v3\n", &b, &err) == XT_ERR_CORRUPT);
	CHECK(strstr(err.msg, "line 2") != NULL);
	CHECK(strstr(err.msg, "v_ad_f32") != NULL);
	xt_buf_reset(&b);
	CHECK(isa_assemble("v_add_f32 s1, v2, v3\n", &b, &err) == XT_ERR_CORRUPT);
	CHECK(isa_assemble("s_branch nowhere\n", &b, &err) == XT_ERR_CORRUPT);
	CHECK(strstr(err.msg, "nowhere") != NULL);
	CHECK(isa_assemble("v_add_f32 v1, 0x11111111, 0x22222222\n", &b, &err) == XT_ERR_CORRUPT);
	CHECK(isa_assemble("v_add_f64 v[1:2], v[2:4], v[4:5]\n", &b, &err) == XT_ERR_CORRUPT);
	xt_buf_fini(&b);
}

static const char *roundtrip_src =
	"start:\n"
	"  s_load_dwordx4 s[8:11], s[0:1], 16\n"
	"  s_buffer_load_dword s12, s[8:11], 4\n"
	"  v_laneid_u32 v1\n"
	"  v_cmp_lt_u32 vcc, v1, 7\n"
	"  s_and_saveexec_b64 s[20:21], vcc\n"
	"  s_cbranch_execz skip\n"
	"  v_fma_f32 v2, -v1, 0.5, lit(0x00000005) clamp\n"
	"  v_add_f64 v[4:5], v[4:5], 1.5\n"
	"  buffer_store_dwordx4 v[4:7], v1, s[8:11], 0 offset:16 offen glc slc\n"
	"skip:\n"
	"  s_or_b64 exec, exec, s[20:21]\n"
	"  s_sendmsg gs_emit stream 2\n"
	"  exp pos0, v[4:7] done\n"
	"  s_wqm_b64 exec, exec\n"
	"  v_interp_p1_f32 v8, v0, attr3.y\n"
	"  v_interp_p2_f32 v8, v1, attr3.y\n"
	"  v_interp_mov_f32 v9, p0, attr31.w\n"
	"  v_mov_b32_qperm v10, v8, 1, 0, 3, 2\n"
	"  v_cvt_pkrtz_f16_f32 v11, v8, v9\n"
	"  exp mrt7, v[8:11] vm\n"
	"  exp mrtz, v[8:11]\n"
	"  exp null, v[0:3] done vm\n"
	"  image_load v[12:15], v[0:1], s[8:15] dmask:0xf\n"
	"  image_sample v[12:15], v[0:1], s[16:23], s[24:27] dmask:0x3\n"
	"  image_load_mip v[12:15], v[0:2], s[8:15] dmask:0xf\n"
	"  image_sample_l v[12:15], v[1:3], s[16:23], s[24:27] dmask:0x1\n"
	"  image_load v[12:15], v[0:2], s[8:15] dmask:0xf da\n"
	"  image_sample_l v[12:15], v[1:4], s[16:23], s[24:27] dmask:0xf da\n"
	"  image_sample_b v[12:15], v[1:3], s[16:23], s[24:27] dmask:0xf\n"
	"  image_sample_b v[12:15], v[1:4], s[16:23], s[24:27] dmask:0x1 da\n"
	"  image_sample_o v[12:15], v[1:3], s[16:23], s[24:27] dmask:0xf\n"
	"  image_sample_l_o v[12:15], v[1:5], s[16:23], s[24:27] dmask:0xf da\n"
	"  image_sample_b_o v[12:15], v[1:4], s[16:23], s[24:27] dmask:0x3\n"
	"  image_sample_d v[12:15], v[0:5], s[16:23], s[24:27] dmask:0xf\n"
	"  image_sample_d_o v[12:15], v[0:7], s[16:23], s[24:27] dmask:0xf da\n"
	"  image_gather4_lz v[12:15], v[0:1], s[16:23], s[24:27] dmask:0x2\n"
	"  image_gather4_lz_o v[12:15], v[0:3], s[16:23], s[24:27] dmask:0x8 da\n"
	"  s_branch start\n"
	"  s_endpgm\n";

static void test_disasm_roundtrips_to_same_dwords(void)
{
	struct xt_buf a, text = XT_BUF_INIT, b;
	size_t n = asm_ok(roundtrip_src, &a);
	CHECK(n > 0);
	CHECK(isa_disassemble((const uint32_t *)a.data, n, ISA_DISASM_OFFSETS, &text) == XT_OK);
	xt_buf_append(&text, "", 1);
	CHECK(asm_ok((const char *)text.data, &b) == n);
	CHECK(b.len == a.len && !memcmp(a.data, b.data, a.len));
	if (b.len != a.len || memcmp(a.data, b.data, a.len))
		fprintf(stderr, "%s", (const char *)text.data);
	CHECK(strstr((const char *)text.data, "v_fma_f32 v2, -v1, 0.5, lit(0x00000005) clamp") != NULL);
	xt_buf_fini(&a);
	xt_buf_fini(&b);
	xt_buf_fini(&text);
}

static void test_disasm_survives_garbage(void)
{
	uint32_t junk[257];
	struct xt_buf text = XT_BUF_INIT, b;
	uint32_t x = 12345;
	for (unsigned i = 0; i < 257; i++) {
		x = x * 1103515245u + 12345u;
		junk[i] = x ^ (x >> 7);
	}
	CHECK(isa_disassemble(junk, 257, 0, &text) == XT_OK);
	xt_buf_append(&text, "", 1);
	CHECK(asm_ok((const char *)text.data, &b) == 257);
	CHECK(b.len == sizeof junk && !memcmp(b.data, junk, sizeof junk));
	xt_buf_fini(&b);
	xt_buf_fini(&text);
}

static void test_decoder_rejects_bad_operands(void)
{
	struct isa_inst in;
	/* v_add_f32 with dst = s5 (VALU may not write SGPRs) */
	uint32_t dw[2] = { ISA_OP_V_ADD_F32 | 5u << 8 | (ISA_OPD_VGPR0 + 1) << 18, ISA_OPD_VGPR0 + 2 };
	CHECK(isa_decode(dw, 2, &in, NULL) == XT_ERR_CORRUPT);
	dw[0] = 0xFF;
	CHECK(isa_decode(dw, 2, &in, NULL) == XT_ERR_CORRUPT);
	CHECK(isa_decode(dw, 1, &in, NULL) == XT_ERR_CORRUPT);
}

/* LDS instructions (docs/isa.md "Compute shaders"): round trip, offset
 * range, operands that must be VGPRs. */
static void test_ds_encodings(void)
{
	static const char *src =
		"ds_write_b32 v1, v2\n"
		"ds_write_b32 v1, v2 offset:4092\n"
		"ds_read_b32 v3, v1 offset:8\n"
		"ds_add_u32 v0, v9 offset:512\n"
		"s_barrier\n"
		"s_endpgm\n";
	struct xt_buf a, text = XT_BUF_INIT, b;
	struct xt_err err = { 0 };
	size_t n = asm_ok(src, &a);
	CHECK(n == 12);
	CHECK(isa_disassemble((const uint32_t *)a.data, n, 0, &text) == XT_OK);
	xt_buf_append(&text, "", 1);
	CHECK(strstr((const char *)text.data, "ds_read_b32 v3, v1 offset:8") != NULL);
	CHECK(strstr((const char *)text.data, "ds_add_u32 v0, v9 offset:512") != NULL);
	CHECK(asm_ok((const char *)text.data, &b) == n);
	CHECK(b.len == a.len && !memcmp(a.data, b.data, a.len));
	CHECK(isa_assemble("ds_write_b32 v1, v2 offset:4096\n", &b, &err) != XT_OK);
	CHECK(isa_assemble("ds_write_b32 s1, v2\n", &b, &err) != XT_OK);
	CHECK(isa_assemble("ds_read_b32 s3, v1\n", &b, &err) != XT_OK);
	xt_buf_fini(&a);
	xt_buf_fini(&b);
	xt_buf_fini(&text);
}

/* The pixel-shader instructions' fields (docs/isa.md "Pixel shaders"). */
static void test_pixel_shader_encodings(void)
{
	struct xt_buf b = XT_BUF_INIT;
	struct xt_err err = { 0 };
	const uint32_t *dw;

	CHECK_EQ_INT(asm_ok("v_interp_mov_f32 v5, p20, attr6.z\n", &b), 2);
	dw = (const uint32_t *)b.data;
	CHECK_EQ_INT(dw[0] & 0xFF, ISA_OP_V_INTERP_MOV_F32);
	CHECK_EQ_INT(dw[1] >> 20, 2 | 6 << 2 | 1 << 7);   /* chan z, attr 6, sel P20 */
	xt_buf_fini(&b);
	CHECK_EQ_INT(asm_ok("v_mov_b32_qperm v1, v2, 3, 2, 1, 0\n", &b), 2);
	CHECK_EQ_INT(((const uint32_t *)b.data)[1] >> 20, 3 | 2 << 2 | 1 << 4);
	xt_buf_fini(&b);
	CHECK_EQ_INT(asm_ok("exp mrtz, v[0:3] done vm\n", &b), 2);
	dw = (const uint32_t *)b.data;
	CHECK_EQ_INT(dw[1] >> 20, ISA_EXP_MRTZ);
	CHECK_EQ_INT(dw[0] >> 28, ISA_FLAG_DONE | ISA_FLAG_VM);
	xt_buf_fini(&b);
	/* bad forms name what is wrong */
	CHECK(isa_assemble("v_interp_p1_f32 v0, s1, attr0.x\n", &b, &err) == XT_ERR_CORRUPT);
	CHECK(strstr(err.msg, "VGPR") != NULL);
	CHECK(isa_assemble("v_interp_p2_f32 v0, v1, attr32.x\n", &b, &err) == XT_ERR_CORRUPT);
	CHECK(isa_assemble("v_interp_p2_f32 v0, v1, attr2.q\n", &b, &err) == XT_ERR_CORRUPT);
	CHECK(isa_assemble("v_mov_b32_qperm v0, v1, 0, 1, 2, 4\n", &b, &err) == XT_ERR_CORRUPT);
	CHECK(isa_assemble("exp pos0, v[0:3] done vm\n", &b, &err) == XT_ERR_CORRUPT);
	CHECK(isa_assemble("exp mrt8, v[0:3]\n", &b, &err) == XT_ERR_CORRUPT);
	CHECK(isa_assemble("image_load v[0:3], v[4:5], s[8:15]\n", &b, &err) == XT_ERR_CORRUPT);   /* no dmask */
	CHECK(isa_assemble("image_sample v[0:3], v[4:5], s[8:15], s[2:4] dmask:0xf\n", &b, &err) == XT_ERR_CORRUPT);
	/* the mip / LOD variants take three coordinate registers */
	CHECK(isa_assemble("image_sample_l v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf\n", &b, &err) == XT_ERR_CORRUPT);
	/* da: one more coordinate register */
	CHECK(isa_assemble("image_load v[0:3], v[4:5], s[8:15] dmask:0xf da\n", &b, &err) == XT_ERR_CORRUPT);
	xt_buf_fini(&b);
	/* the decoder rejects a selector on v_interp_p1_f32 (one text form) */
	{
		struct isa_inst in;
		uint32_t d2[2] = { ISA_OP_V_INTERP_P1_F32 | (ISA_OPD_VGPR0 + 1u) << 8 | (ISA_OPD_VGPR0 + 0u) << 18,
				   ISA_OPD_NONE | ISA_OPD_NONE << 10 | (uint32_t)ISA_INTERP_IMM(0, 0, 1) << 20 };
		CHECK(isa_decode(d2, 2, &in, NULL) == XT_ERR_CORRUPT);
		d2[1] = ISA_OPD_NONE | ISA_OPD_NONE << 10;
		CHECK(isa_decode(d2, 2, &in, NULL) == XT_OK);
	}
}

int main(void)
{
	XT_RUN(test_pixel_shader_encodings);
	XT_RUN(test_asm_encodes_documented_fields);
	XT_RUN(test_asm_reports_line_of_error);
	XT_RUN(test_disasm_roundtrips_to_same_dwords);
	XT_RUN(test_ds_encodings);
	XT_RUN(test_disasm_survives_garbage);
	XT_RUN(test_decoder_rejects_bad_operands);
	XT_TEST_MAIN_END();
}
