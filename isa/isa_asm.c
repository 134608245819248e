/*
 * isa_asm.c - assembly text to shader dwords (docs/isa.md "Assembly
 * syntax").  Used by tests, by `xfbtrace isa asm`, and to show people what
 * a shader does; the driver's compiler emits instructions directly.
 *
 * One pass parses every line into an instruction (sizes are known without
 * labels: only literals make an instruction longer, and branches take no
 * literal), a second resolves branch labels and encodes.  Operand validity
 * is checked by isa_validate(), the same check the decoder applies, so
 * anything that assembles also decodes.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "xt_fault.h"

struct asm_item {
	struct isa_inst inst;
	bool is_dword;              /* a `.dword` directive: literal holds it */
	char label_ref[64];         /* branch target label, "" if numeric */
	unsigned line;
	size_t pos_dw;
};

struct asm_label {
	char name[64];
	size_t pos_dw;
};

struct asm_state {
	struct asm_item *items;
	size_t n_items, cap_items;
	struct asm_label *labels;
	size_t n_labels, cap_labels;
	size_t pos_dw;
	unsigned line;
	struct xt_err *err;
	/* the instruction being parsed */
	bool have_literal;
	uint32_t literal;
};

#define ASM_FAIL(st, ...) asm_fail((st), __FILE__, __LINE__, __VA_ARGS__)

__attribute__((format(printf, 4, 5)))
static enum xt_rc asm_fail(struct asm_state *st, const char *file, int line, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return xt_err_set(st->err, XT_ERR_CORRUPT, file, line, "line %u: %s", st->line, msg);
}

static char *trim(char *s)
{
	char *e;
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int find_op(const char *name)
{
	for (int i = 0; i < ISA_OP_COUNT; i++)
		if (!strcmp(isa_ops[i].name, name))
			return i;
	return -1;
}

static bool parse_uint(const char *s, unsigned long *v)
{
	char *end;
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoul(s, &end, 0);
	return !errno && !*end;
}

/* Registers: s5 v3 s[4:7] v[0:3] vcc vcc_lo vcc_hi exec exec_lo exec_hi m0 scc off.
 * Returns false if `tok` is not a register name at all. */
static bool parse_reg(const char *tok, unsigned *opd, unsigned *count)
{
	static const struct { const char *n; unsigned o, c; } named[] = {
		{ "vcc", ISA_OPD_VCC_LO, 2 }, { "vcc_lo", ISA_OPD_VCC_LO, 1 }, { "vcc_hi", ISA_OPD_VCC_HI, 1 },
		{ "exec", ISA_OPD_EXEC_LO, 2 }, { "exec_lo", ISA_OPD_EXEC_LO, 1 },
		{ "exec_hi", ISA_OPD_EXEC_HI, 1 }, { "m0", ISA_OPD_M0, 1 }, { "scc", ISA_OPD_SCC, 1 },
		{ "off", ISA_OPD_NONE, 0 },
	};
	unsigned long a, b;
	char *end;

	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
		if (!strcmp(tok, named[i].n)) {
			*opd = named[i].o;
			*count = named[i].c;
			return true;
		}
	if ((tok[0] != 's' && tok[0] != 'v') || !tok[1])
		return false;
	if (tok[1] == '[') {
		a = strtoul(tok + 2, &end, 10);
		if (end == tok + 2 || *end != ':')
			return false;
		b = strtoul(end + 1, &end, 10);
		if (strcmp(end, "]") || b < a || b - a > 15)
			return false;
	} else {
		if (!isdigit((unsigned char)tok[1]))
			return false;
		a = strtoul(tok + 1, &end, 10);
		if (*end)
			return false;
		b = a;
	}
	if (tok[0] == 's' && a > ISA_OPD_SGPR_LAST)
		a = 1000;             /* rejected by validation with a clear message */
	if (tok[0] == 'v' && a >= ISA_NUM_VGPRS)
		a = 1000 - ISA_OPD_VGPR0;
	*opd = tok[0] == 's' ? (unsigned)a : ISA_OPD_VGPR0 + (unsigned)a;
	if (*opd > 1000)
		*opd = 1000;
	*count = (unsigned)(b - a + 1);
	return true;
}

static enum xt_rc set_literal(struct asm_state *st, uint32_t v, unsigned *opd)
{
	if (st->have_literal && st->literal != v)
		return ASM_FAIL(st, "only one literal value per instruction");
	st->have_literal = true;
	st->literal = v;
	*opd = ISA_OPD_LITERAL;
	return XT_OK;
}

/* A source operand: register, inline constant, or literal. `f64` says the
 * source is a double, so a non-inline float literal is its high dword. */
static enum xt_rc parse_src(struct asm_state *st, const char *tok, unsigned regs, bool f64,
			    unsigned *opd, bool *neg)
{
	unsigned cnt;
	char *end;

	*neg = false;
	if (tok[0] == '-' && isalpha((unsigned char)tok[1])) {
		*neg = true;
		tok++;
	}
	if (parse_reg(tok, opd, &cnt)) {
		if (cnt > 1 && cnt != regs)
			return ASM_FAIL(st, "'%s' is %u registers, expected %u", tok, cnt, regs);
		return XT_OK;
	}
	if (!strncmp(tok, "lit(", 4)) {
		unsigned long long v = strtoull(tok + 4, &end, 0);
		if (strcmp(end, ")") || v > 0xFFFFFFFFull)
			return ASM_FAIL(st, "bad literal '%s'", tok);
		return set_literal(st, (uint32_t)v, opd);
	}
	if (strchr(tok, '.') && strncmp(tok, "0x", 2) && strncmp(tok, "-0x", 3)) {
		double d = strtod(tok, &end);
		float f = (float)d;
		uint32_t bits;
		if (*end)
			return ASM_FAIL(st, "bad number '%s'", tok);
		for (unsigned o = ISA_OPD_F_HALF; o <= ISA_OPD_F_LAST; o++) {
			memcpy(&f, &(uint32_t){ isa_inline_value(o) }, 4);
			if ((double)f == d) {
				*opd = o;
				return XT_OK;
			}
		}
		if (f64) {
			uint64_t b64;
			memcpy(&b64, &d, 8);
			if (b64 & 0xFFFFFFFFull)
				return ASM_FAIL(st, "%s is not exact as an f64 literal (high dword only)", tok);
			return set_literal(st, (uint32_t)(b64 >> 32), opd);
		}
		f = (float)d;
		memcpy(&bits, &f, 4);
		return set_literal(st, bits, opd);
	}
	{
		long long v;
		errno = 0;
		v = strtoll(tok, &end, 0);
		if (end == tok || *end || errno || v < -2147483648LL || v > 0xFFFFFFFFLL)
			return ASM_FAIL(st, "bad operand '%s'", tok);
		if (v >= 0 && v <= 64)
			*opd = ISA_OPD_INT_FIRST + (unsigned)v;
		else if (v < 0 && v >= -16)
			*opd = ISA_OPD_INT_FIRST + 64 + (unsigned)(-v);
		else
			return set_literal(st, (uint32_t)v, opd);
	}
	return XT_OK;
}

static enum xt_rc parse_dst(struct asm_state *st, const char *tok, unsigned regs, unsigned *opd)
{
	unsigned cnt;
	if (!parse_reg(tok, opd, &cnt) || *opd == ISA_OPD_NONE || *opd == ISA_OPD_SCC)
		return ASM_FAIL(st, "expected a register, got '%s'", tok);
	if (cnt > 1 && cnt != regs)
		return ASM_FAIL(st, "'%s' is %u registers, expected %u", tok, cnt, regs);
	return XT_OK;
}

static enum xt_rc parse_modifier(struct asm_state *st, struct isa_inst *in, const char *m)
{
	unsigned cls = isa_ops[in->op].cls;
	unsigned long v;

	if (cls == ISA_CLS_VMEM) {
		if (!strncmp(m, "offset:", 7)) {
			if (!parse_uint(m + 7, &v) || v > 0xFFF)
				return ASM_FAIL(st, "offset must be 0..4095, got '%s'", m + 7);
			in->imm = (uint16_t)v;
			return XT_OK;
		}
		if (!strcmp(m, "offen")) { in->flags |= ISA_FLAG_OFFEN; return XT_OK; }
		if (!strcmp(m, "idxen")) { in->flags |= ISA_FLAG_IDXEN; return XT_OK; }
		if (!strcmp(m, "glc")) { in->flags |= ISA_FLAG_GLC; return XT_OK; }
		if (!strcmp(m, "slc")) { in->flags |= ISA_FLAG_SLC; return XT_OK; }
	}
	if (cls == ISA_CLS_DS && !strncmp(m, "offset:", 7)) {
		if (!parse_uint(m + 7, &v) || v > 0xFFF)
			return ASM_FAIL(st, "offset must be 0..4095, got '%s'", m + 7);
		in->imm = (uint16_t)v;
		return XT_OK;
	}
	if (cls == ISA_CLS_VIMG && !strcmp(m, "da")) {
		in->flags |= ISA_FLAG_DA;
		return XT_OK;
	}
	if (cls == ISA_CLS_VIMG && !strncmp(m, "dmask:", 6)) {
		if (!parse_uint(m + 6, &v) || !v || v > 0xF)
			return ASM_FAIL(st, "dmask must be 1..15, got '%s'", m + 6);
		in->imm = (uint16_t)v;
		return XT_OK;
	}
	if (cls == ISA_CLS_VOP && !strcmp(m, "clamp")) {
		in->flags |= ISA_FLAG_CLAMP;
		return XT_OK;
	}
	if (cls == ISA_CLS_EXP && !strcmp(m, "done")) {
		in->flags |= ISA_FLAG_DONE;
		return XT_OK;
	}
	if (cls == ISA_CLS_EXP && !strcmp(m, "vm")) {
		in->flags |= ISA_FLAG_VM;
		return XT_OK;
	}
	return ASM_FAIL(st, "unknown modifier '%s' for %s", m, isa_ops[in->op].name);
}

static bool is_f64_src(enum isa_op op, unsigned regs)
{
	return regs == 2 && strstr(isa_ops[op].name, "f64") != NULL;
}

#define MAX_OPS 6
#define MAX_TOKS 12

static enum xt_rc parse_inst(struct asm_state *st, char *text, struct asm_item *it)
{
	struct isa_inst *in = &it->inst;
	char *ops[MAX_OPS], *mods[MAX_TOKS];
	unsigned n_ops = 0, n_mods = 0;
	char *name = text, *rest, *p, *save = NULL;
	const struct isa_op_info *info;
	int op;
	enum xt_rc rc;

	rest = name + strcspn(name, " \t");
	if (*rest)
		*rest++ = '\0';
	memset(in, 0, sizeof *in);
	in->dst = in->src[0] = in->src[1] = in->src[2] = ISA_OPD_NONE;
	st->have_literal = false;

	if (!strcmp(name, ".dword")) {
		unsigned long v;
		rest = trim(rest);
		if (!parse_uint(rest, &v) || v > 0xFFFFFFFFul)
			return ASM_FAIL(st, "bad .dword '%s'", rest);
		it->is_dword = true;
		in->literal = (uint32_t)v;
		in->size_dw = 1;
		return XT_OK;
	}
	op = find_op(name);
	if (op < 0)
		return ASM_FAIL(st, "unknown instruction '%s'", name);
	in->op = (uint16_t)op;
	info = &isa_ops[op];

	/* Comma-separated operands; within each, the first token is the operand
	 * and further blank-separated tokens are modifiers. */
	for (char *seg = strtok_r(rest, ",", &save); seg; seg = strtok_r(NULL, ",", &save)) {
		char *s2 = NULL, *tok = strtok_r(seg, " \t", &s2);
		if (!tok)
			return ASM_FAIL(st, "empty operand");
		if (n_ops == MAX_OPS)
			return ASM_FAIL(st, "too many operands");
		ops[n_ops++] = tok;
		while ((p = strtok_r(NULL, " \t", &s2)) != NULL) {
			if (n_mods == MAX_TOKS)
				return ASM_FAIL(st, "too many modifiers");
			mods[n_mods++] = p;
		}
	}

	switch (info->cls) {
	case ISA_CLS_SOPP:
		if (n_ops > 1 || n_mods)
			return ASM_FAIL(st, "%s takes at most one number", name);
		if (n_ops) {
			unsigned long v;
			if (!parse_uint(ops[0], &v) || v > 0xFFF)
				return ASM_FAIL(st, "bad immediate '%s'", ops[0]);
			in->imm = (uint16_t)v;
		}
		break;
	case ISA_CLS_BRANCH:
		if (n_ops != 1 || n_mods)
			return ASM_FAIL(st, "%s takes one target", name);
		if (isalpha((unsigned char)ops[0][0]) || ops[0][0] == '_' || ops[0][0] == '.') {
			if (strlen(ops[0]) >= sizeof it->label_ref)
				return ASM_FAIL(st, "label too long");
			strcpy(it->label_ref, ops[0]);
		} else {
			char *end;
			long v = strtol(ops[0], &end, 0);
			if (*end)
				return ASM_FAIL(st, "bad branch target '%s'", ops[0]);
			in->simm = (int32_t)v;
		}
		break;
	case ISA_CLS_MSG: {
		unsigned long stream = 0;
		if (n_ops != 1)
			return ASM_FAIL(st, "s_sendmsg takes gs_emit|gs_cut [stream N] or gs_done");
		if (!strcmp(ops[0], "gs_emit")) in->imm = ISA_MSG_GS_EMIT;
		else if (!strcmp(ops[0], "gs_cut")) in->imm = ISA_MSG_GS_CUT;
		else if (!strcmp(ops[0], "gs_done")) in->imm = ISA_MSG_GS_DONE;
		else return ASM_FAIL(st, "unknown message '%s'", ops[0]);
		if (n_mods == 2 && !strcmp(mods[0], "stream") && parse_uint(mods[1], &stream) && stream < 4)
			in->imm |= (uint16_t)(stream << 4);
		else if (n_mods)
			return ASM_FAIL(st, "expected 'stream 0..3'");
		n_mods = 0;
		break;
	}
	case ISA_CLS_EXP: {
		unsigned long t;
		if (n_ops != 2)
			return ASM_FAIL(st, "exp takes a target and v[n:n+3]");
		if (!strncmp(ops[0], "mrt", 3) && isdigit((unsigned char)ops[0][3]) &&
		    parse_uint(ops[0] + 3, &t) && t < 8)
			in->imm = (uint16_t)(ISA_EXP_MRT0 + t);
		else if (!strcmp(ops[0], "mrtz"))
			in->imm = ISA_EXP_MRTZ;
		else if (!strcmp(ops[0], "null"))
			in->imm = ISA_EXP_NULL;
		else if (!strncmp(ops[0], "pos", 3) && parse_uint(ops[0] + 3, &t) && t < 4)
			in->imm = (uint16_t)(ISA_EXP_POS0 + t);
		else if (!strncmp(ops[0], "param", 5) && parse_uint(ops[0] + 5, &t) && t < 32)
			in->imm = (uint16_t)(ISA_EXP_PARAM0 + t);
		else
			return ASM_FAIL(st, "unknown export target '%s'", ops[0]);
		{
			unsigned o;
			if ((rc = parse_dst(st, ops[1], 4, &o)) != XT_OK)
				return rc;
			in->dst = (uint16_t)o;
		}
		break;
	}
	case ISA_CLS_VINTERP: {
		/* v_interp_p1_f32 vD, vI, attrN.c / v_interp_mov_f32 vD, p0, attrN.c */
		static const char chans[] = "xyzw";
		static const char *sels[3] = { "p10", "p20", "p0" };
		unsigned o, sel = 0, c;
		unsigned long attr;
		char *dot;
		if (n_ops != 3 || n_mods)
			return ASM_FAIL(st, "%s takes vD, %s, attrN.x|y|z|w", name,
					info->src_regs[0] ? "vI|vJ" : "p0|p10|p20");
		if ((rc = parse_dst(st, ops[0], 1, &o)) != XT_OK)
			return rc;
		in->dst = (uint16_t)o;
		if (info->src_regs[0]) {
			if (!parse_reg(ops[1], &o, &c) || !isa_opd_is_vgpr(o))
				return ASM_FAIL(st, "bad barycentric '%s' (a VGPR)", ops[1]);
			in->src[0] = (uint16_t)o;
		} else {
			for (sel = 0; sel < 3 && strcmp(ops[1], sels[sel]); sel++)
				;
			if (sel == 3)
				return ASM_FAIL(st, "expected p0, p10 or p20, got '%s'", ops[1]);
		}
		dot = strchr(ops[2], '.');
		if (strncmp(ops[2], "attr", 4) || !dot || dot[1] == '\0' || dot[2] != '\0' ||
		    !strchr(chans, dot[1]))
			return ASM_FAIL(st, "bad attribute '%s' (attrN.x|y|z|w)", ops[2]);
		*dot = '\0';
		if (!parse_uint(ops[2] + 4, &attr) || attr > 31)
			return ASM_FAIL(st, "attribute number must be 0..31");
		in->imm = ISA_INTERP_IMM((unsigned)attr, (unsigned)(strchr(chans, dot[1]) - chans), sel);
		break;
	}
	case ISA_CLS_VQPERM: {
		/* v_mov_b32_qperm vD, vS, a, b, c, d */
		unsigned o, c;
		if (n_ops != 6 || n_mods)
			return ASM_FAIL(st, "%s takes vD, vS, a, b, c, d (lanes 0..3)", name);
		if ((rc = parse_dst(st, ops[0], 1, &o)) != XT_OK)
			return rc;
		in->dst = (uint16_t)o;
		if (!parse_reg(ops[1], &o, &c) || !isa_opd_is_vgpr(o))
			return ASM_FAIL(st, "bad source '%s' (a VGPR)", ops[1]);
		in->src[0] = (uint16_t)o;
		for (unsigned i = 0; i < 4; i++) {
			unsigned long l;
			if (!parse_uint(ops[2 + i], &l) || l > 3)
				return ASM_FAIL(st, "quad lane must be 0..3, got '%s'", ops[2 + i]);
			in->imm |= (uint16_t)(l << (2 * i));
		}
		break;
	}
	case ISA_CLS_VMEM: {
		unsigned o;
		bool neg;
		if (n_ops != 4)
			return ASM_FAIL(st, "%s takes vdata, vaddr|off, s[desc], soffset", name);
		if ((rc = parse_dst(st, ops[0], info->dst_regs, &o)) != XT_OK)
			return rc;
		in->dst = (uint16_t)o;
		if (strcmp(ops[1], "off")) {
			unsigned c;
			if (!parse_reg(ops[1], &o, &c))
				return ASM_FAIL(st, "bad vaddr '%s'", ops[1]);
			in->src[0] = (uint16_t)o;
		}
		if ((rc = parse_src(st, ops[2], 4, false, &o, &neg)) != XT_OK)
			return rc;
		in->src[1] = (uint16_t)o;
		if ((rc = parse_src(st, ops[3], 1, false, &o, &neg)) != XT_OK)
			return rc;
		in->src[2] = (uint16_t)o;
		break;
	}
	default: {
		unsigned want = (info->dst_regs ? 1 : 0), o;
		unsigned si = 0;
		bool neg;
		for (unsigned i = 0; i < 3; i++)
			want += info->src_regs[i] ? 1 : 0;
		if (n_ops != want)
			return ASM_FAIL(st, "%s takes %u operands, got %u", name, want, n_ops);
		if (info->dst_regs) {
			if ((rc = parse_dst(st, ops[0], info->cls == ISA_CLS_VOPC ? 2 : info->dst_regs, &o)) != XT_OK)
				return rc;
			in->dst = (uint16_t)o;
			si = 1;
		}
		/* VIMG: `da` adds a coordinate register */
		unsigned da = 0;
		for (unsigned i = 0; info->cls == ISA_CLS_VIMG && i < n_mods; i++)
			da |= !strcmp(mods[i], "da");
		for (unsigned i = 0; i < 3; i++) {
			if (!info->src_regs[i])
				continue;
			if ((rc = parse_src(st, ops[si++], info->src_regs[i] + (i == 0 ? da : 0),
					    is_f64_src(in->op, info->src_regs[i]), &o, &neg)) != XT_OK)
				return rc;
			in->src[i] = (uint16_t)o;
			if (neg) {
				if (info->cls != ISA_CLS_VOP && info->cls != ISA_CLS_VOPC)
					return ASM_FAIL(st, "neg modifier only on vector ALU sources");
				in->flags |= (uint8_t)(1u << i);
			}
		}
		break;
	}
	}
	for (unsigned i = 0; i < n_mods; i++)
		if ((rc = parse_modifier(st, in, mods[i])) != XT_OK)
			return rc;
	in->literal = st->literal;
	in->size_dw = st->have_literal ? 3 : 2;
	if (isa_validate(in, st->err) != XT_OK)
		return ASM_FAIL(st, "%s", st->err ? st->err->msg : "invalid operands");
	return XT_OK;
}

static enum xt_rc push_item(struct asm_state *st, struct asm_item **out)
{
	if (st->n_items == st->cap_items) {
		size_t cap = st->cap_items ? st->cap_items * 2 : 64;
		struct asm_item *n = xt_realloc(st->items, cap * sizeof *n);
		if (!n)
			return XT_FAIL(st->err, XT_ERR_NOMEM, "out of memory");
		st->items = n;
		st->cap_items = cap;
	}
	*out = &st->items[st->n_items];
	memset(*out, 0, sizeof **out);
	return XT_OK;
}

static enum xt_rc add_label(struct asm_state *st, const char *name)
{
	if (!*name || strlen(name) >= sizeof st->labels[0].name)
		return ASM_FAIL(st, "bad label '%s'", name);
	for (size_t i = 0; i < st->n_labels; i++)
		if (!strcmp(st->labels[i].name, name))
			return ASM_FAIL(st, "label '%s' defined twice", name);
	if (st->n_labels == st->cap_labels) {
		size_t cap = st->cap_labels ? st->cap_labels * 2 : 16;
		struct asm_label *n = xt_realloc(st->labels, cap * sizeof *n);
		if (!n)
			return XT_FAIL(st->err, XT_ERR_NOMEM, "out of memory");
		st->labels = n;
		st->cap_labels = cap;
	}
	strcpy(st->labels[st->n_labels].name, name);
	st->labels[st->n_labels++].pos_dw = st->pos_dw;
	return XT_OK;
}

static enum xt_rc assemble_lines(struct asm_state *st, char *text)
{
	char *save = NULL;
	enum xt_rc rc;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p, *colon;
		struct asm_item *it = NULL;

		st->line++;
		/* Comments: ';', '#', '//', and C block comments on one line (the
		 * disassembler's offset column). */
		while ((p = strstr(line, "/*")) != NULL) {
			char *e = strstr(p + 2, "*/");
			if (!e)
				return ASM_FAIL(st, "unterminated /* comment");
			memset(p, ' ', (size_t)(e + 2 - p));
		}
		if ((p = strpbrk(line, ";#")) != NULL)
			*p = '\0';
		if ((p = strstr(line, "//")) != NULL)
			*p = '\0';
		line = trim(line);
		/* Labels: an identifier directly followed by ':' at the start. */
		for (;;) {
			colon = line;
			while (isalnum((unsigned char)*colon) || *colon == '_' || *colon == '.')
				colon++;
			if (colon == line || *colon != ':')
				break;
			*colon = '\0';
			if ((rc = add_label(st, line)) != XT_OK)
				return rc;
			line = trim(colon + 1);
		}
		if (!*line)
			continue;
		if ((rc = push_item(st, &it)) != XT_OK)
			return rc;
		it->line = st->line;
		it->pos_dw = st->pos_dw;
		if ((rc = parse_inst(st, line, it)) != XT_OK)
			return rc;
		st->n_items++;
		st->pos_dw += it->inst.size_dw;
	}
	return XT_OK;
}

enum xt_rc isa_assemble(const char *src, struct xt_buf *out, struct xt_err *err)
{
	struct asm_state st;
	struct xt_err local;
	char *text = xt_strdup(src ? src : "");
	enum xt_rc rc;

	memset(&st, 0, sizeof st);
	st.err = err ? err : &local;
	if (!text)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	rc = assemble_lines(&st, text);
	for (size_t i = 0; i < st.n_items && !rc; i++) {
		struct asm_item *it = &st.items[i];
		st.line = it->line;
		if (it->label_ref[0]) {
			size_t j;
			for (j = 0; j < st.n_labels; j++)
				if (!strcmp(st.labels[j].name, it->label_ref))
					break;
			if (j == st.n_labels) {
				rc = ASM_FAIL(&st, "undefined label '%s'", it->label_ref);
				break;
			}
			it->inst.simm = (int32_t)((int64_t)st.labels[j].pos_dw -
						  (int64_t)(it->pos_dw + it->inst.size_dw));
		}
		if (it->is_dword)
			rc = xt_buf_append(out, &it->inst.literal, 4);
		else
			rc = isa_encode(&it->inst, out);
		if (rc)
			rc = XT_FAIL(st.err, rc, "line %u: cannot encode", it->line);
	}
	xt_free(st.items);
	xt_free(st.labels);
	xt_free(text);
	return rc;
}
