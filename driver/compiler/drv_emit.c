/*
 * drv_emit.c - driver IR (after drv_ra) to gpu_model ISA: assembly text
 * (docs/isa.md "Assembly syntax") assembled by isa_assemble, so that the
 * binary, its disassembly and the compiler's own listing agree by
 * construction.
 *
 * Fixed register map (on top of docs/isa.md "Shader ABI" and drv_shader.h):
 *   s0-s3    user SGPRs (table pointer, base vertex, start instance)
 *   s4-s9    hardware system SGPRs (streamout config / write index /
 *            offsets, es2gs_offset, gs2vs_offset + gs_wave_id)
 *   s[10:11] the wave's initial exec (EPILOGUE restores it)
 *   s[12:13] lanes that executed RETURN
 *   s[16:19] a descriptor loaded for one instruction (VB, UBO, constants)
 *   s20-s23  scratch
 *   s[24:39] streamout buffer descriptors (VS, copy) / ESGS s[24:27] and
 *            GSVS s[28:31] ring descriptors (ES, GS)
 *   s[40:43] GSVS ring descriptor (copy shader)
 *   s44-     exec-mask bookkeeping, 4 per IF (saved exec, then mask) and
 *            6 per LOOP (entry exec, break mask, continue mask)
 *   above    uniform values drv_ra kept in SGPRs (up to s91)
 *   s[92:103] the T# and S# of one image instruction (DRV_SGPR_IMG)
 *   v0-v7    hardware VGPR inputs (PS: the groups of SPI_PS_INPUT_ENA,
 *            drv_ps_input_vgpr); v8-v15 scratch within one IR instruction,
 *            except v[12:15], which keep the last attribute fetched while
 *            straight-line code reads its components
 *
 * What the simulated GPU executes per wave is what the sim's speed is made
 * of, so straight-line code reuses what it has: a descriptor already in
 * s[16:19] is not loaded again, an attribute is fetched once for all its
 * components, a compare feeding only an IF / select leaves its result in
 * vcc instead of a 0 / 1 VGPR, and uniform dwords are loaded with scalar
 * loads (x2 / x4 when consecutive).  These caches reset at every
 * control-flow marker, where paths join.
 *
 * Control flow is GCN's (docs/isa.md "Execution model"): IF narrows exec
 * with s_and_saveexec and skips an empty arm with s_cbranch_execz; ELSE
 * takes saved & ~then; ENDIF restores the saved mask minus the lanes that
 * broke, continued or returned meanwhile; BREAK / CONTINUE / RETURN move
 * the active lanes into their mask and clear exec; the loop's back edge is
 * s_cbranch_execnz after the continue mask has rejoined.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv_spirv.h"
#include "isa.h"

#define S_INIT_EXEC 10u
#define S_RET 12u
#define S_DESC 16u
#define S_SO_DESC 24u
#define S_ESGS_DESC 24u
#define S_GSVS_DESC 28u
#define S_COPY_GSVS_DESC 40u
#define S_CF_BASE DRV_SGPR_CF_BASE
#define S_SYS 4u        /* == DRV_USER_SGPRS */

struct cf {
	uint16_t op;          /* DRV_OP_IF / DRV_OP_LOOP */
	unsigned sgpr;        /* IF: S, S+2 = T; LOOP: E, B = E+2, C = E+4 */
	unsigned label;
	bool has_else;
};

struct em {
	const struct drv_ir *ir;
	const struct drv_lower_info *info;
	struct drv_stage_binary *bin;
	struct xt_buf *t;
	struct cf stack[64];
	unsigned depth, labels, next_sgpr, max_sgpr;
	bool lit_used;
	uint32_t lit;
	unsigned scratch;     /* next scratch VGPR for materialized constants */
	unsigned so_label;
	int so_sgpr[DRV_MAX_TF_BUFFERS];
	struct xt_err *err;
	enum xt_rc rc;
	/* What the straight-line code emitted so far left in registers, so that
	 * the next instruction can reuse it (reset at every control-flow marker:
	 * a label joins paths that may differ) */
	int desc_slot;        /* descriptor slot in s[16:19], -1 unknown */
	int fetch_loc;        /* attribute location fetched into v[12:15], -1 none */
	uint32_t *uses;       /* per value: instructions reading it */
	uint32_t cmp_vcc;     /* CMP value whose result is only in vcc (fused), 0 none */
	bool *merged;         /* per instruction: emitted already, with an earlier one */
};

static bool is_const(const struct em *e, uint32_t v)
{
	return e->ir->ins[e->ir->vals[v].def].op == DRV_OP_CONST && e->ir->ins[e->ir->vals[v].def].dst == v;
}

static uint64_t const_val(const struct em *e, uint32_t v)
{
	return e->ir->ins[e->ir->vals[v].def].imm;
}

/* The text of an inline constant for 32-bit bits `u`, or NULL. */
static const char *inline32(uint32_t u, char *buf, size_t n)
{
	static const struct { uint32_t bits; const char *s; } fl[] = {
		{ 0x3F000000u, "0.5" }, { 0xBF000000u, "-0.5" }, { 0x3F800000u, "1.0" }, { 0xBF800000u, "-1.0" },
		{ 0x40000000u, "2.0" }, { 0xC0000000u, "-2.0" }, { 0x40800000u, "4.0" }, { 0xC0800000u, "-4.0" },
	};
	int32_t i = (int32_t)u;
	if (i >= -16 && i <= 64) {
		snprintf(buf, n, "%d", i);
		return buf;
	}
	for (size_t k = 0; k < sizeof fl / sizeof fl[0]; k++)
		if (fl[k].bits == u)
			return fl[k].s;
	return NULL;
}

static void P(struct em *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void P(struct em *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	{
		char line[512];
		vsnprintf(line, sizeof line, fmt, ap);
		xt_buf_printf(e->t, "%s\n", line);
	}
	va_end(ap);
}

/* Starts a new instruction: literal and scratch bookkeeping. */
static void begin(struct em *e)
{
	e->lit_used = false;
	e->scratch = 8;
}

static void vreg(char *buf, size_t n, int phys, unsigned size)
{
	if (size == 2)
		snprintf(buf, n, "v[%d:%d]", phys, phys + 1);
	else
		snprintf(buf, n, "v%d", phys);
}

/* A 32-bit operand text for bits u: inline, the instruction's literal, or
 * a scratch VGPR holding it (materialized before the instruction). */
static void const32(struct em *e, uint32_t u, char *buf, size_t n, bool vgpr_only)
{
	char tmp[24];
	const char *in = inline32(u, tmp, sizeof tmp);
	if (!vgpr_only && in) {
		snprintf(buf, n, "%s", in);
		return;
	}
	if (!vgpr_only && (!e->lit_used || e->lit == u)) {
		e->lit_used = true;
		e->lit = u;
		snprintf(buf, n, "lit(0x%08x)", u);
		return;
	}
	P(e, "v_mov_b32 v%u, %s", e->scratch, in ? in : (snprintf(tmp, sizeof tmp, "lit(0x%08x)", u), tmp));
	snprintf(buf, n, "v%u", e->scratch++);
}

/* Operand text for value v (whole value). */
static void opd(struct em *e, uint32_t v, char *buf, size_t n, bool vgpr_only)
{
	const struct drv_ir_val *val = &e->ir->vals[v];
	if (is_const(e, v)) {
		uint64_t c = const_val(e, v);
		if (val->size == 1) {
			const32(e, (uint32_t)c, buf, n, vgpr_only);
			return;
		}
		P(e, "v_mov_b32 v%u, lit(0x%08x)", e->scratch, (uint32_t)c);
		P(e, "v_mov_b32 v%u, lit(0x%08x)", e->scratch + 1, (uint32_t)(c >> 32));
		snprintf(buf, n, "v[%u:%u]", e->scratch, e->scratch + 1);
		e->scratch += 2;
		return;
	}
	if (val->sgpr >= 0 && !vgpr_only) {
		snprintf(buf, n, "s%d", val->sgpr);
		return;
	}
	if (val->phys < 0) {
		e->rc = XT_FAIL(e->err, XT_ERR_INTERNAL, "value %%%u has no register", v);
		snprintf(buf, n, "v0");
		return;
	}
	vreg(buf, n, val->phys, val->size);
}

/* Operand text for one dword (half 0 / 1) of value v. */
static void opd_half(struct em *e, uint32_t v, unsigned half, char *buf, size_t n)
{
	const struct drv_ir_val *val = &e->ir->vals[v];
	if (is_const(e, v)) {
		uint64_t c = const_val(e, v);
		const32(e, (uint32_t)(val->size == 2 ? c >> (32 * half) : c), buf, n, false);
		return;
	}
	snprintf(buf, n, "v%d", val->phys + (int)half);
}

static const char *dst(struct em *e, uint32_t v, char *buf, size_t n)
{
	vreg(buf, n, e->ir->vals[v].phys, e->ir->vals[v].size);
	return buf;
}

static unsigned cf_alloc(struct em *e, unsigned n)
{
	unsigned s = e->next_sgpr;
	e->next_sgpr += n;
	if (e->next_sgpr > DRV_SGPR_IMG && e->rc == XT_OK)
		e->rc = XT_FAIL(e->err, XT_ERR_UNSUPPORTED, "control flow nested too deeply for the scalar registers");
	if (e->next_sgpr > e->max_sgpr)
		e->max_sgpr = e->next_sgpr;
	return s;
}

/* After a region: drop lanes that left it through BREAK / CONTINUE / RETURN. */
static void mask_departed(struct em *e)
{
	for (int d = (int)e->depth - 1; d >= 0; d--)
		if (e->stack[d].op == DRV_OP_LOOP) {
			unsigned s = e->stack[d].sgpr;
			P(e, "s_andn2_b64 exec, exec, s[%u:%u]", s + 2, s + 3);
			P(e, "s_andn2_b64 exec, exec, s[%u:%u]", s + 4, s + 5);
			break;
		}
	if (e->ir->has_return)
		P(e, "s_andn2_b64 exec, exec, s[%u:%u]", S_RET, S_RET + 1);
}

static void load_desc(struct em *e, unsigned sgpr, unsigned slot)
{
	if (sgpr == S_DESC) {
		if (e->desc_slot == (int)slot)
			return;
		e->desc_slot = (int)slot;
	}
	P(e, "s_load_dwordx4 s[%u:%u], s[0:1], %u", sgpr, sgpr + 3, 16 * slot);
}

/* The fetch and descriptor caches hold only within straight-line code
 * whose instructions leave s[16:20] and v[12:15] alone. */
static void cache_update(struct em *e, const struct drv_ins *in)
{
	switch (in->op) {
	case DRV_OP_NOP: case DRV_OP_CONST: case DRV_OP_MOV: case DRV_OP_VALU: case DRV_OP_CMP:
	case DRV_OP_SELECT: case DRV_OP_SPLIT_LO: case DRV_OP_SPLIT_HI: case DRV_OP_PACK64:
	case DRV_OP_REG_READ: case DRV_OP_REG_WRITE: case DRV_OP_LOAD_INPUT: case DRV_OP_LOAD_BUF:
	case DRV_OP_IMAGE: case DRV_OP_COMPONENT: case DRV_OP_QPERM:
		break;
	case DRV_OP_LOAD_SYSVAL:
		if (in->a == DRV_SV_STREAM_ID)
			e->fetch_loc = -1;
		break;
	default:
		e->desc_slot = e->fetch_loc = -1;
		break;
	}
	if (e->scratch > 12)   /* materialized constants reached v12 */
		e->fetch_loc = -1;
}

/* The CMP producing `v`, if its only use is the instruction at `at`, which
 * then reads vcc (the CMP skips its v_cndmask to a 0 / 1 value). */
static bool fusable_cmp(const struct em *e, uint32_t v, uint32_t at)
{
	uint32_t def = e->ir->vals[v].def;
	if (e->uses[v] != 1 || e->ir->ins[def].op != DRV_OP_CMP || e->ir->ins[def].dst != v || def >= at)
		return false;
	/* nothing between them may write vcc: only NOPs and CONSTs */
	for (uint32_t i = def + 1; i < at; i++)
		if (e->ir->ins[i].op != DRV_OP_NOP && e->ir->ins[i].op != DRV_OP_CONST)
			return false;
	return true;
}

/* A uniform load kept in an SGPR starts a run: how many (1, 2 or 4) of the
 * next loads read the following dwords of the same buffer into the
 * following SGPRs with nothing in between but NOPs and CONSTs, so that one
 * s_buffer_load_dwordx2 / x4 does them all (bounds are per dword either
 * way).  Marks the others merged. */
static unsigned scalar_run(struct em *e, uint32_t idx)
{
	const struct drv_ins *first = &e->ir->ins[idx];
	uint32_t at[4] = { idx }, n = 1, i = idx;

	while (n < 4) {
		const struct drv_ins *in;
		for (i++; i < e->ir->n_ins && (e->ir->ins[i].op == DRV_OP_NOP || e->ir->ins[i].op == DRV_OP_CONST);)
			i++;
		if (i >= e->ir->n_ins)
			break;
		in = &e->ir->ins[i];
		if (in->op != DRV_OP_LOAD_BUF || !in->dst || in->a != first->a || in->b != first->b + 4 * n ||
		    e->ir->vals[in->dst].sgpr != e->ir->vals[first->dst].sgpr + (int)n)
			break;
		at[n++] = i;
	}
	if (n == 3)
		n = 2;
	for (unsigned k = 1; k < n; k++)
		e->merged[at[k]] = true;
	return n;
}

/* Index of the next instruction after i that emits code, n_ins if none. */
static uint32_t next_real(const struct em *e, uint32_t i)
{
	for (i++; i < e->ir->n_ins; i++)
		if (e->ir->ins[i].op != DRV_OP_NOP && e->ir->ins[i].op != DRV_OP_CONST)
			break;
	return i;
}

/* vcc = (v != 0), unless v's CMP already left its result there */
static void cond_to_vcc(struct em *e, uint32_t v)
{
	char a[32];
	if (e->cmp_vcc == v) {
		e->cmp_vcc = 0;
		return;
	}
	opd(e, v, a, sizeof a, false);
	P(e, "v_cmp_ne_i32 vcc, %s, 0", a);
}

/* buffer op with byte offset `off` (IMM12 or, when larger, soffset) */
static void buf_offset(char *buf, size_t n, uint32_t off)
{
	if (off <= 4095)
		snprintf(buf, n, "0 offset:%u", off);
	else
		snprintf(buf, n, "lit(0x%08x)", off);
}

/*
 * An IF that only moves lanes out of the innermost loop: "IF c BREAK
 * ENDIF", and the loop-header shape glslang gives every for / while loop,
 * "IF c CONTINUE ELSE BREAK ENDIF" right before the loop's CONTINUE_POINT
 * (the continuing lanes rejoin there at once).  Three scalar instructions
 * move the lanes into the break mask and leave exec as the general
 * sequence (a dozen instructions, executed per iteration) leaves it at the
 * ENDIF / CONTINUE_POINT.  Emits that and marks the rest merged; false if
 * the IF is not of that shape.
 */
static bool loop_exit_if(struct em *e, const struct drv_ins *in, uint32_t idx)
{
	const struct drv_ir *ir = e->ir;
	uint32_t at[5];
	unsigned b = 0, n = 0;
	bool found = false, then_breaks;

	for (int k = (int)e->depth - 1; k >= 0 && !found; k--)
		if (e->stack[k].op == DRV_OP_LOOP) {
			b = e->stack[k].sgpr + 2;
			found = true;
		}
	if (!found)
		return false;
	for (uint32_t i = idx; n < 5 && (i = next_real(e, i)) < ir->n_ins;)
		at[n++] = i;
#define OP_AT(k) (n > (k) ? ir->ins[at[k]].op : DRV_OP_NOP)
	if (OP_AT(0) == DRV_OP_BREAK && OP_AT(1) == DRV_OP_ENDIF) {
		then_breaks = true;
		n = 2;
	} else if (OP_AT(0) == DRV_OP_CONTINUE && OP_AT(1) == DRV_OP_ELSE && OP_AT(2) == DRV_OP_BREAK &&
		   OP_AT(3) == DRV_OP_ENDIF && OP_AT(4) == DRV_OP_CONTINUE_POINT) {
		then_breaks = false;
		n = 4;
	} else {
		return false;
	}
#undef OP_AT
	cond_to_vcc(e, in->src[0]);
	P(e, "%s s[20:21], exec, vcc", then_breaks ? "s_and_b64" : "s_andn2_b64");
	P(e, "s_or_b64 s[%u:%u], s[%u:%u], s[20:21]", b, b + 1, b, b + 1);
	P(e, "%s exec, exec, vcc", then_breaks ? "s_andn2_b64" : "s_and_b64");
	for (unsigned k = 0; k < n; k++)
		e->merged[at[k]] = true;
	return true;
}

static void emit_ins(struct em *e, const struct drv_ins *in, uint32_t idx)
{
	char d[32], a[32], b[32], c[32], o[48];
	const struct drv_gs_info *gs = e->info ? e->info->gs : NULL;

	begin(e);
	switch (in->op) {
	case DRV_OP_NOP:
	case DRV_OP_CONST:
		break;
	case DRV_OP_MOV:
	case DRV_OP_REG_READ:
	case DRV_OP_REG_WRITE: {
		unsigned size;
		if (in->op == DRV_OP_REG_WRITE) {
			size = e->ir->regs[in->a].size;
			vreg(d, sizeof d, e->ir->regs[in->a].phys, size);
			opd(e, in->src[0], a, sizeof a, false);
		} else if (in->op == DRV_OP_REG_READ) {
			size = in->size;
			dst(e, in->dst, d, sizeof d);
			vreg(a, sizeof a, e->ir->regs[in->a].phys, size);
		} else {
			size = in->size;
			dst(e, in->dst, d, sizeof d);
			opd(e, in->src[0], a, sizeof a, false);
		}
		if (strcmp(d, a))
			P(e, "v_mov_b%u %s, %s", size == 2 ? 64 : 32, d, a);
		break;
	}
	case DRV_OP_VALU: {
		char s[3][40];
		for (unsigned i = 0; i < in->n_src; i++) {
			opd(e, in->src[i], s[i] + 1, sizeof s[i] - 1, false);
			s[i][0] = (in->flags >> i & 1) ? '-' : ' ';
		}
		xt_buf_printf(e->t, "%s %s", isa_ops[in->gm_op].name, dst(e, in->dst, d, sizeof d));
		for (unsigned i = 0; i < in->n_src; i++)
			xt_buf_printf(e->t, ",%s%s", s[i][0] == '-' ? " -" : " ", s[i] + 1);
		xt_buf_printf(e->t, "\n");
		break;
	}
	case DRV_OP_CMP: {
		uint32_t next = next_real(e, idx);
		opd(e, in->src[0], a, sizeof a, false);
		opd(e, in->src[1], b, sizeof b, false);
		P(e, "%s vcc, %s, %s", isa_ops[in->gm_op].name, a, b);
		if (next < e->ir->n_ins && (e->ir->ins[next].op == DRV_OP_IF || e->ir->ins[next].op == DRV_OP_SELECT) &&
		    e->ir->ins[next].src[0] == in->dst && fusable_cmp(e, in->dst, next)) {
			e->cmp_vcc = in->dst;
			break;
		}
		P(e, "v_cndmask_b32 %s, 0, 1, vcc", dst(e, in->dst, d, sizeof d));
		break;
	}
	case DRV_OP_SELECT:
		cond_to_vcc(e, in->src[0]);
		for (unsigned h = 0; h < in->size; h++) {
			begin(e);
			opd_half(e, in->src[2], h, b, sizeof b);
			opd_half(e, in->src[1], h, c, sizeof c);
			P(e, "v_cndmask_b32 v%d, %s, %s, vcc", e->ir->vals[in->dst].phys + (int)h, b, c);
		}
		break;
	case DRV_OP_SPLIT_LO:
	case DRV_OP_SPLIT_HI:
		opd_half(e, in->src[0], in->op == DRV_OP_SPLIT_HI, a, sizeof a);
		P(e, "v_mov_b32 %s, %s", dst(e, in->dst, d, sizeof d), a);
		break;
	case DRV_OP_PACK64:
		opd(e, in->src[0], a, sizeof a, false);
		P(e, "v_mov_b32 v%d, %s", e->ir->vals[in->dst].phys, a);
		begin(e);
		opd(e, in->src[1], b, sizeof b, false);
		P(e, "v_mov_b32 v%d, %s", e->ir->vals[in->dst].phys + 1, b);
		break;
	case DRV_OP_LOAD_INPUT:
		/* one fetch per attribute: the next components come from v[12:15] */
		if (e->fetch_loc != (int)in->a) {
			load_desc(e, S_DESC, DRV_DESC_VB(in->a));
			P(e, "s_load_dword s20, s[0:1], %u", DRV_DESC_DIVISOR_OFFSET + 4 * in->a);
			P(e, "v_div_u32 v8, v3, s20");
			P(e, "v_add_u32 v8, v8, s3");
			P(e, "v_add_u32 v9, v0, s2");
			P(e, "v_cmp_eq_i32 vcc, s20, 0");
			P(e, "v_cndmask_b32 v8, v8, v9, vcc");
			P(e, "buffer_load_format_xyzw v[12:15], v8, s[16:19], 0 idxen");
			e->fetch_loc = (int)in->a;
		}
		if (in->size == 2)
			P(e, "v_mov_b64 %s, v[%u:%u]", dst(e, in->dst, d, sizeof d), 12 + in->b, 13 + in->b);
		else
			P(e, "v_mov_b32 %s, v%u", dst(e, in->dst, d, sizeof d), 12 + in->b);
		break;
	case DRV_OP_LOAD_SYSVAL:
		dst(e, in->dst, d, sizeof d);
		switch (in->a) {
		case DRV_SV_VERTEX_ID: P(e, "v_add_u32 %s, v0, s2", d); break;
		case DRV_SV_INSTANCE_ID: P(e, "v_mov_b32 %s, v3", d); break;
		case DRV_SV_PRIMITIVE_ID: P(e, "v_mov_b32 %s, v%u", d, e->ir->stage == DRV_HW_GS ? 6 : 2); break;
		case DRV_SV_INVOCATION_ID: P(e, "v_mov_b32 %s, v7", d); break;
		case DRV_SV_BASE_VERTEX: P(e, "v_mov_b32 %s, s2", d); break;
		case DRV_SV_BASE_INSTANCE: P(e, "v_mov_b32 %s, s3", d); break;
		case DRV_SV_FRONT_FACING:
			/* FRONT_FACE: 1.0 front-facing, 0.0 back-facing */
			P(e, "v_cmp_ne_f32 vcc, 0, v%u", drv_ps_input_vgpr(e->info->ps_input_ena, 12));
			P(e, "v_cndmask_b32 %s, 0, 1, vcc", d);
			break;
		case DRV_SV_FRAG_COORD_X: case DRV_SV_FRAG_COORD_Y:
		case DRV_SV_FRAG_COORD_Z: case DRV_SV_FRAG_COORD_W:
			P(e, "v_mov_b32 %s, v%u", d,
			  drv_ps_input_vgpr(e->info->ps_input_ena, 8 + in->a - DRV_SV_FRAG_COORD_X));
			break;
		case DRV_SV_STREAM_ID:
			P(e, "s_bfe_u32 s20, s%u, 0x20018", S_SYS);
			P(e, "v_mov_b32 %s, s20", d);
			break;
		}
		break;
	case DRV_OP_LOAD_BUF:
		load_desc(e, S_DESC, in->a);
		buf_offset(o, sizeof o, in->b);
		if (e->ir->vals[in->dst].sgpr >= 0) {
			/* a value drv_ra keeps in an SGPR: the scalar load is all,
			 * for up to 4 consecutive dwords at once */
			static const char *const width[5] = { "", "", "x2", "x2", "x4" };
			unsigned n = scalar_run(e, idx);
			int s0 = e->ir->vals[in->dst].sgpr;
			if (n == 1)
				P(e, "s_buffer_load_dword s%d, s[%u:%u], %u", s0, S_DESC, S_DESC + 3, in->b);
			else
				P(e, "s_buffer_load_dword%s s[%d:%d], s[%u:%u], %u", width[n], s0, s0 + (int)n - 1,
				  S_DESC, S_DESC + 3, in->b);
		} else if ((!in->n_src || !in->src[0]) && in->size == 1 && !(in->b & 3)) {
			/* the same dword for every lane: one scalar load, then a
			 * broadcast (NUM_RECORDS bounds it the same way) */
			P(e, "s_buffer_load_dword s20, s[%u:%u], %u", S_DESC, S_DESC + 3, in->b);
			P(e, "v_mov_b32 %s, s20", dst(e, in->dst, d, sizeof d));
		} else if (in->n_src && in->src[0]) {
			opd(e, in->src[0], a, sizeof a, true);
			P(e, "buffer_load_dword%s %s, %s, s[%u:%u], %s offen", in->size == 2 ? "x2" : "",
			  dst(e, in->dst, d, sizeof d), a, S_DESC, S_DESC + 3, o);
		} else {
			P(e, "buffer_load_dword%s %s, off, s[%u:%u], %s", in->size == 2 ? "x2" : "",
			  dst(e, in->dst, d, sizeof d), S_DESC, S_DESC + 3, o);
		}
		break;
	case DRV_OP_IF: {
		struct cf *f;
		if (loop_exit_if(e, in, idx))
			break;
		f = &e->stack[e->depth++];
		f->op = DRV_OP_IF;
		f->sgpr = cf_alloc(e, DRV_SGPR_PER_IF);
		f->label = e->labels++;
		f->has_else = false;
		cond_to_vcc(e, in->src[0]);
		P(e, "s_and_saveexec_b64 s[%u:%u], vcc", f->sgpr, f->sgpr + 1);
		P(e, "s_mov_b64 s[%u:%u], exec", f->sgpr + 2, f->sgpr + 3);
		P(e, "s_cbranch_execz else_%u", f->label);
		break;
	}
	case DRV_OP_ELSE: {
		struct cf *f = &e->stack[e->depth - 1];
		f->has_else = true;
		P(e, "else_%u:", f->label);
		P(e, "s_andn2_b64 exec, s[%u:%u], s[%u:%u]", f->sgpr, f->sgpr + 1, f->sgpr + 2, f->sgpr + 3);
		P(e, "s_cbranch_execz endif_%u", f->label);
		break;
	}
	case DRV_OP_ENDIF: {
		struct cf *f = &e->stack[--e->depth];
		if (!f->has_else)
			P(e, "else_%u:", f->label);
		P(e, "endif_%u:", f->label);
		P(e, "s_mov_b64 exec, s[%u:%u]", f->sgpr, f->sgpr + 1);
		mask_departed(e);
		e->next_sgpr -= DRV_SGPR_PER_IF;
		break;
	}
	case DRV_OP_LOOP: {
		struct cf *f = &e->stack[e->depth++];
		f->op = DRV_OP_LOOP;
		f->sgpr = cf_alloc(e, DRV_SGPR_PER_LOOP);
		f->label = e->labels++;
		P(e, "s_mov_b64 s[%u:%u], exec", f->sgpr, f->sgpr + 1);
		P(e, "s_mov_b64 s[%u:%u], 0", f->sgpr + 2, f->sgpr + 3);
		P(e, "loop_%u:", f->label);
		P(e, "s_mov_b64 s[%u:%u], 0", f->sgpr + 4, f->sgpr + 5);
		break;
	}
	case DRV_OP_CONTINUE_POINT: {
		const struct cf *f = &e->stack[e->depth - 1];
		P(e, "s_or_b64 exec, exec, s[%u:%u]", f->sgpr + 4, f->sgpr + 5);
		/* rejoined: an ENDIF in the continue construct must not drop them */
		P(e, "s_mov_b64 s[%u:%u], 0", f->sgpr + 4, f->sgpr + 5);
		break;
	}
	case DRV_OP_ENDLOOP: {
		struct cf *f = &e->stack[--e->depth];
		P(e, "s_cbranch_execnz loop_%u", f->label);
		P(e, "s_mov_b64 exec, s[%u:%u]", f->sgpr, f->sgpr + 1);
		mask_departed(e);
		e->next_sgpr -= DRV_SGPR_PER_LOOP;
		break;
	}
	case DRV_OP_BREAK:
	case DRV_OP_CONTINUE: {
		for (int k = (int)e->depth - 1; k >= 0; k--)
			if (e->stack[k].op == DRV_OP_LOOP) {
				unsigned s = e->stack[k].sgpr + (in->op == DRV_OP_BREAK ? 2 : 4);
				P(e, "s_or_b64 s[%u:%u], s[%u:%u], exec", s, s + 1, s, s + 1);
				P(e, "s_mov_b64 exec, 0");
				break;
			}
		break;
	}
	case DRV_OP_RETURN:
		/* discard: the lanes leave the live mask the EPILOGUE
		 * restores for the exports (GCN's exact mask), then main */
		if (in->a)
			P(e, "s_andn2_b64 s[%u:%u], s[%u:%u], exec", S_INIT_EXEC, S_INIT_EXEC + 1, S_INIT_EXEC,
			  S_INIT_EXEC + 1);
		P(e, "s_or_b64 s[%u:%u], s[%u:%u], exec", S_RET, S_RET + 1, S_RET, S_RET + 1);
		P(e, "s_mov_b64 exec, 0");
		break;
	case DRV_OP_IMAGE: {
		/* the coordinates into v8.., the descriptors of sampler slot a
		 * from the table's sampler list (radeonsi's s_load_dwordx8 /
		 * x4), then the image instruction */
		static const char *const names[] = { "image_load", "image_load_mip", "image_sample", "image_sample_l",
						     "image_get_resinfo", "image_sample_b", "image_sample_o",
						     "image_sample_l_o", "image_sample_b_o", "image_sample_d",
						     "image_sample_d_o", "image_gather4_lz", "image_gather4_lz_o" };
		/* gather4: dmask selects the one channel gathered */
		unsigned dmask = in->b == DRV_IMG_GATHER4_LZ || in->b == DRV_IMG_GATHER4_LZ_O ? 1u << in->imm : 0xFu;
		bool sample = in->b != DRV_IMG_LOAD && in->b != DRV_IMG_LOAD_MIP && in->b != DRV_IMG_RESINFO;
		for (unsigned j = 0; j < in->n_src; j++) {
			begin(e);
			opd(e, in->src[j], a, sizeof a, false);
			P(e, "v_mov_b32 v%u, %s", 8 + j, a);
		}
		P(e, "s_load_dwordx8 s[%u:%u], s[0:1], %u", DRV_SGPR_IMG, DRV_SGPR_IMG + 7,
		  DRV_DESC_SAMPLER_OFFSET(in->a));
		b[0] = 0;
		if (sample) {
			P(e, "s_load_dwordx4 s[%u:%u], s[0:1], %u", DRV_SGPR_IMG + 8, DRV_SGPR_IMG + 11,
			  DRV_DESC_SAMPLER_OFFSET(in->a) + DRV_DESC_SAMPLER_SAMP);
			snprintf(b, sizeof b, ", s[%u:%u]", DRV_SGPR_IMG + 8, DRV_SGPR_IMG + 11);
		}
		P(e, "%s v[%d:%d], v[8:%u], s[%u:%u]%s dmask:0x%x%s", names[in->b], e->ir->vals[in->dst].phys,
		  e->ir->vals[in->dst].phys + 3, 8 + in->n_src - 1, DRV_SGPR_IMG, DRV_SGPR_IMG + 7, b, dmask,
		  in->flags & ISA_FLAG_DA ? " da" : "");
		break;
	}
	case DRV_OP_COMPONENT:
		P(e, "v_mov_b32 %s, v%d", dst(e, in->dst, d, sizeof d), e->ir->vals[in->src[0]].phys + (int)in->a);
		break;
	case DRV_OP_QPERM:
		/* the quad's lanes (GCN's DPP quad_perm): the source in a VGPR */
		opd(e, in->src[0], a, sizeof a, false);
		if (a[0] != 'v') {
			P(e, "v_mov_b32 v%u, %s", e->scratch, a);
			snprintf(a, sizeof a, "v%u", e->scratch++);
		}
		P(e, "v_mov_b32_qperm %s, %s, %u, %u, %u, %u", dst(e, in->dst, d, sizeof d), a,
		  ISA_QPERM_LANE(in->a, 0), ISA_QPERM_LANE(in->a, 1), ISA_QPERM_LANE(in->a, 2),
		  ISA_QPERM_LANE(in->a, 3));
		break;
	case DRV_OP_EPILOGUE:
		if (e->ir->has_return || e->ir->wqm)
			P(e, "s_mov_b64 exec, s[%u:%u]", S_INIT_EXEC, S_INIT_EXEC + 1);
		break;
	case DRV_OP_EXPORT_POS:
		for (unsigned j = 0; j < 4; j++) {
			begin(e);
			opd(e, in->src[j], a, sizeof a, false);
			P(e, "v_mov_b32 v%u, %s", 8 + j, a);
		}
		P(e, "exp pos%u, v[8:11]%s", in->a, in->b ? " done" : "");
		break;
	case DRV_OP_EXPORT_PARAM:
	case DRV_OP_EXPORT_MRT:
		for (unsigned j = 0; j < in->n_src; j++) {
			begin(e);
			opd(e, in->src[j], a, sizeof a, false);
			P(e, "v_mov_b32 v%u, %s", 8 + j, a);
		}
		if (in->op == DRV_OP_EXPORT_PARAM)
			P(e, "exp param%u, v[8:11]", in->a);
		else if (in->a == 8)
			P(e, "exp null, v[8:11] done vm");
		else if (in->a == DRV_EXPORT_MRTZ)
			P(e, "exp mrtz, v[8:11]%s", in->b ? " done vm" : "");
		else
			P(e, "exp mrt%u, v[8:11]%s", in->a, in->b ? " done vm" : "");
		break;
	case DRV_OP_INTERP: {
		static const char chans[] = "xyzw";
		unsigned mode = in->b >> 2, ch = in->b & 3;
		dst(e, in->dst, d, sizeof d);
		if (mode == DRV_INTERP_FLAT) {
			P(e, "v_interp_mov_f32 %s, p0, attr%u.%c", d, in->a, chans[ch]);
		} else {
			/* I, J: PERSP_CENTER's or LINEAR_CENTER's VGPRs */
			unsigned ij = drv_ps_input_vgpr(e->info->ps_input_ena, mode == DRV_INTERP_LINEAR ? 5 : 1);
			P(e, "v_interp_p1_f32 %s, v%u, attr%u.%c", d, ij, in->a, chans[ch]);
			P(e, "v_interp_p2_f32 %s, v%u, attr%u.%c", d, ij + 1, in->a, chans[ch]);
		}
		break;
	}
	case DRV_OP_SO_BEGIN: {
		const struct drv_tf_layout *tf = e->info->tf;
		unsigned k = 0;
		e->so_label = e->labels++;
		P(e, "s_bfe_u32 s20, s%u, 0x70010", S_SYS);
		P(e, "v_laneid_u32 v8");
		P(e, "v_cmp_lt_u32 vcc, v8, s20");
		P(e, "s_and_saveexec_b64 s[22:23], vcc");
		P(e, "s_cbranch_execz so_done_%u", e->so_label);
		P(e, "v_add_u32 v8, v8, s%u", S_SYS + 1);
		for (unsigned bb = 0; bb < DRV_MAX_TF_BUFFERS; bb++) {
			if (!(e->bin->so_base_en >> bb & 1))
				continue;
			e->so_sgpr[bb] = (int)(S_SYS + 2 + k++);
			if (tf->buffer_stream[bb] != in->a || !tf->stride_bytes[bb])
				continue;
			load_desc(e, S_SO_DESC + 4 * bb, DRV_DESC_SO(bb));
			P(e, "v_mul_lo_u32 v%u, v8, %u", 12 + bb, tf->stride_bytes[bb]);
			P(e, "s_lshl_b32 s21, s%d, 2", e->so_sgpr[bb]);
			P(e, "v_add_u32 v%u, v%u, s21", 12 + bb, 12 + bb);
		}
		break;
	}
	case DRV_OP_SO_STORE: {
		unsigned size = e->ir->vals[in->src[0]].size;
		e->scratch = 9;
		opd(e, in->src[0], a, sizeof a, true);
		buf_offset(o, sizeof o, in->b);
		P(e, "buffer_store_dword%s %s, v%u, s[%u:%u], %s offen glc slc", size == 2 ? "x2" : "", a, 12 + in->a,
		  S_SO_DESC + 4 * in->a, S_SO_DESC + 4 * in->a + 3, o);
		break;
	}
	case DRV_OP_SO_END:
		P(e, "so_done_%u:", e->so_label);
		P(e, "s_mov_b64 exec, s[22:23]");
		break;
	case DRV_OP_ESGS_STORE:
		e->scratch = 9;
		opd(e, in->src[0], a, sizeof a, true);
		P(e, "v_laneid_u32 v8");
		P(e, "v_mul_lo_u32 v8, v8, %u", e->info->esgs->itemsize_dw * 4);
		P(e, "v_add_u32 v8, v8, s%u", S_SYS);
		buf_offset(o, sizeof o, in->b);
		P(e, "buffer_store_dword%s %s, v8, s[%u:%u], %s offen", e->ir->vals[in->src[0]].size == 2 ? "x2" : "",
		  a, S_ESGS_DESC, S_ESGS_DESC + 3, o);
		break;
	case DRV_OP_ESGS_LOAD:
		buf_offset(o, sizeof o, in->b);
		P(e, "buffer_load_dword%s %s, v%u, s[%u:%u], %s offen", in->size == 2 ? "x2" : "",
		  dst(e, in->dst, d, sizeof d), in->a, S_ESGS_DESC, S_ESGS_DESC + 3, o);
		break;
	case DRV_OP_GSVS_STORE:
		e->scratch = 10;
		opd(e, in->src[0], a, sizeof a, true);
		opd(e, in->src[1], b, sizeof b, false);
		P(e, "v_laneid_u32 v8");
		P(e, "v_mul_lo_u32 v8, v8, %u", gs->gsvs_itemsize_dw * 4);
		P(e, "v_add_u32 v8, v8, s%u", S_SYS);
		P(e, "v_mul_lo_u32 v9, %s, %u", b, gs->vert_itemsize_dw[in->a] * 4);
		P(e, "v_add_u32 v8, v8, v9");
		buf_offset(o, sizeof o, gs->ring_offset_dw[in->a] * 4 + in->b * 4);
		P(e, "buffer_store_dword%s %s, v8, s[%u:%u], %s offen", e->ir->vals[in->src[0]].size == 2 ? "x2" : "",
		  a, S_GSVS_DESC, S_GSVS_DESC + 3, o);
		break;
	case DRV_OP_GSVS_LOAD:
		buf_offset(o, sizeof o, in->b * 4);
		P(e, "buffer_load_dword%s %s, v0, s[%u:%u], %s offen", in->size == 2 ? "x2" : "",
		  dst(e, in->dst, d, sizeof d), S_COPY_GSVS_DESC, S_COPY_GSVS_DESC + 3, o);
		break;
	case DRV_OP_GS_MSG:
		if (in->a == ISA_MSG_GS_DONE)
			P(e, "s_sendmsg gs_done");
		else
			P(e, "s_sendmsg %s stream %u", in->a == ISA_MSG_GS_EMIT ? "gs_emit" : "gs_cut", in->b);
		break;
	default:
		e->rc = XT_FAIL(e->err, XT_ERR_INTERNAL, "drv_emit: unexpected op %s", drv_op_name((enum drv_op)in->op));
		break;
	}
}

enum xt_rc drv_emit(const struct drv_ir *ir, const struct drv_lower_info *info, struct drv_stage_binary *bin,
		    struct xt_err *err)
{
	struct xt_buf text = XT_BUF_INIT, code = XT_BUF_INIT;
	struct em e;
	struct xt_err aerr = { 0 };

	memset(&e, 0, sizeof e);
	e.ir = ir;
	e.info = info;
	e.bin = bin;
	e.t = &text;
	e.err = err;
	e.next_sgpr = e.max_sgpr = S_CF_BASE;
	e.desc_slot = e.fetch_loc = -1;
	bin->user_sgprs = DRV_USER_SGPRS;
	if ((ir->stage == DRV_HW_VS || ir->stage == DRV_HW_COPY) && info->tf && info->tf->n_varyings) {
		bin->so_en = true;
		bin->so_base_en = info->tf->buffer_mask;
	}
	P(&e, "; %s", ir->stage == DRV_HW_VS ? "hardware VS" : ir->stage == DRV_HW_ES ? "ES" :
		      ir->stage == DRV_HW_GS ? "GS" : ir->stage == DRV_HW_PS ? "PS" : "copy shader");
	if (ir->has_return || ir->wqm)
		P(&e, "s_mov_b64 s[%u:%u], exec", S_INIT_EXEC, S_INIT_EXEC + 1);
	if (ir->has_return)
		P(&e, "s_mov_b64 s[%u:%u], 0", S_RET, S_RET + 1);
	/* derivatives need the whole quad: the helper lanes run until the
	 * EPILOGUE restores the covered lanes for the exports */
	if (ir->wqm)
		P(&e, "s_wqm_b64 exec, exec");
	if (ir->stage == DRV_HW_ES || ir->stage == DRV_HW_GS)
		load_desc(&e, S_ESGS_DESC, DRV_DESC_ESGS);
	if (ir->stage == DRV_HW_GS)
		load_desc(&e, S_GSVS_DESC, DRV_DESC_GSVS);
	if (ir->stage == DRV_HW_COPY)
		load_desc(&e, S_COPY_GSVS_DESC, DRV_DESC_GSVS);
	e.uses = calloc(ir->n_vals ? ir->n_vals : 1, sizeof *e.uses);
	e.merged = calloc(ir->n_ins ? ir->n_ins : 1, sizeof *e.merged);
	if (!e.uses || !e.merged) {
		free(e.uses);
		free(e.merged);
		xt_buf_fini(&text);
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	}
	for (uint32_t i = 0; i < ir->n_ins; i++)
		for (unsigned s = 0; s < ir->ins[i].n_src; s++)
			if (ir->ins[i].src[s] && ir->ins[i].src[s] < ir->n_vals)
				e.uses[ir->ins[i].src[s]]++;
	for (uint32_t i = 0; i < ir->n_ins && e.rc == XT_OK; i++) {
		if (!e.merged[i])
			emit_ins(&e, &ir->ins[i], i);
		cache_update(&e, &ir->ins[i]);
	}
	free(e.uses);
	free(e.merged);
	P(&e, "s_endpgm");
	if (e.rc != XT_OK || !text.data) {
		xt_buf_fini(&text);
		return e.rc != XT_OK ? e.rc : XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	}
	xt_buf_append(&text, "", 1);
	if (isa_assemble((const char *)text.data, &code, &aerr) != XT_OK) {
		enum xt_rc rc = XT_FAIL(err, XT_ERR_INTERNAL, "drv_emit produced invalid assembly: %s", aerr.msg);
		xt_buf_fini(&text);
		xt_buf_fini(&code);
		return rc;
	}
	bin->present = true;
	bin->asm_text = (char *)xt_buf_detach(&text, NULL);
	bin->size_dw = (uint32_t)(code.len / 4);
	bin->code = (uint32_t *)xt_buf_detach(&code, NULL);
	bin->num_vgprs = ir->num_vgprs > 16 ? ir->num_vgprs : 16;
	bin->num_vgprs = (bin->num_vgprs + 3) / 4 * 4;
	bin->num_sgprs = ISA_NUM_SGPRS;
	return XT_OK;
}
