/*
 * drv_spirv_cfg.c - the structured walk of a SPIR-V function's blocks into
 * IF / ELSE / LOOP / BREAK / CONTINUE driver IR, with phis as regs written
 * on each incoming edge (the rules are at the top of drv_spirv_to_ir.c;
 * drv_spirv_to_ir_int.h).
 */
#include "drv_spirv_to_ir_int.h"

/* --- structured walk ----------------------------------------------------------- */

struct block {
	uint32_t label;
	uint32_t begin, end;          /* words: first after OpLabel, the terminator */
	uint32_t merge_op, merge, cont;
};

static bool find_block(struct ctx *c, uint32_t label, struct block *b)
{
	const uint32_t *W = c->m->words;
	struct drv_sid *s = sid(c, label);
	uint32_t p;
	if (!s || s->kind != DRV_SID_LABEL)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: branch to %%%u, not a label", label);
	memset(b, 0, sizeof *b);
	b->label = label;
	p = s->label_word + 2;
	b->begin = p;
	while (p < c->m->fn_end) {
		uint16_t op = (uint16_t)(W[p] & 0xFFFF), n = (uint16_t)(W[p] >> 16);
		if (!n)
			break;
		if (op == SpvOpSelectionMerge || op == SpvOpLoopMerge) {
			b->merge_op = op;
			b->merge = W[p + 1];
			b->cont = op == SpvOpLoopMerge ? W[p + 2] : 0;
		}
		if (op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch || op == SpvOpReturn ||
		    op == SpvOpReturnValue || op == SpvOpKill || op == SpvOpUnreachable) {
			b->end = p;
			return true;
		}
		p += n;
	}
	return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: block %%%u has no terminator", label);
}

/* Phi writes for the edge from -> to. */
static bool edge(struct ctx *c, uint32_t from, uint32_t to)
{
	const uint32_t *W = c->m->words;
	struct drv_sid *s = sid(c, to);
	uint32_t p;
	if (!s || s->kind != DRV_SID_LABEL)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: branch to %%%u, not a label", to);
	p = s->label_word + 2;
	while (p < c->m->fn_end && (W[p] & 0xFFFF) == SpvOpPhi) {
		uint16_t n = (uint16_t)(W[p] >> 16);
		uint32_t res = W[p + 2];
		if (!n)
			break;
		for (uint32_t i = 3; i + 1 < n; i += 2)
			if (W[p + i + 1] == from) {
				struct opnd o;
				if (!get(c, W[p + i], &o))
					return false;
				for (uint32_t j = 0; j < o.n; j++)
					drv_ir_reg_write(c->ir, c->phi_reg[res] + j, o.v[j]);
				put(&o);
			}
		p += n;
	}
	return true;
}

enum target_kind { T_BLOCK, T_BREAK, T_CONTINUE, T_BACKEDGE, T_MERGE };

static enum target_kind classify(struct ctx *c, uint32_t t)
{
	for (int i = (int)c->depth - 1; i >= 0; i--) {
		const struct construct *k = &c->cs[i];
		if (!k->loop) {
			if (t == k->merge)
				return i == (int)c->depth - 1 ? T_MERGE : T_BLOCK;
			continue;
		}
		if (t == k->merge)
			return T_BREAK;
		if (t == k->header && (k->in_continue || k->cont == k->header))
			return k->in_continue ? T_BACKEDGE : T_CONTINUE;
		if (t == k->cont && !k->in_continue)
			return T_CONTINUE;
		break;       /* targets of outer loops: not structured jumps here */
	}
	return T_BLOCK;
}

bool drv_sx_walk(struct ctx *c, uint32_t label);
static bool switch_once(struct ctx *c, const struct block *b, uint32_t target);

/* Continues at target t: a structured jump, or the block itself. */
static bool follow(struct ctx *c, uint32_t t)
{
	switch (classify(c, t)) {
	case T_BREAK: drv_ir_op0(c->ir, DRV_OP_BREAK, 0, 0, 0); return true;
	case T_CONTINUE: drv_ir_op0(c->ir, DRV_OP_CONTINUE, 0, 0, 0); return true;
	case T_BACKEDGE: case T_MERGE: return true;
	default: return drv_sx_walk(c, t);
	}
}

/* Goes to target t from block `from`: phi copies, then follow. */
static bool go(struct ctx *c, uint32_t from, uint32_t t)
{
	return edge(c, from, t) && follow(c, t);
}

static bool is_jump(struct ctx *c, uint32_t t)
{
	enum target_kind k = classify(c, t);
	return k == T_BREAK || k == T_CONTINUE || k == T_MERGE || k == T_BACKEDGE;
}

static bool block_body(struct ctx *c, const struct block *b)
{
	const uint32_t *W = c->m->words;
	uint32_t p = b->begin;
	while (p < b->end) {
		uint16_t op = (uint16_t)(W[p] & 0xFFFF), n = (uint16_t)(W[p] >> 16);
		if (op == SpvOpPhi) {
			uint32_t res = W[p + 2], s = type_slots(c, W[p + 1]), vals[1024];
			if (s > 1024 || !c->phi_reg[res])
				return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: bad phi %%%u", res);
			for (uint32_t j = 0; j < s; j++)
				vals[j] = drv_ir_reg_read(c->ir, c->phi_reg[res] + j);
			if (!def(c, res, W[p + 1], vals, s))
				return false;
		} else if (!drv_sx_instruction(c, op, W + p, n)) {
			return false;
		}
		if (c->ir->oom)
			return FAIL(c, XT_ERR_NOMEM, "out of memory");
		p += n;
	}
	return true;
}

static bool terminator(struct ctx *c, const struct block *b)
{
	const uint32_t *W = c->m->words;
	uint16_t op = (uint16_t)(W[b->end] & 0xFFFF);
	const uint32_t *w = W + b->end;

	switch (op) {
	case SpvOpBranch:
		return go(c, b->label, w[1]);
	case SpvOpBranchConditional: {
		struct opnd cond;
		uint32_t t = w[2], f = w[3], cv;
		bool ok = true;
		if (!get(c, w[1], &cond))
			return false;
		cv = cond.v[0];
		put(&cond);
		if (b->merge_op == SpvOpSelectionMerge) {
			if (c->depth >= MAX_CONSTRUCTS)
				return FAIL(c, XT_ERR_UNSUPPORTED, "control flow nested too deeply");
			c->cs[c->depth++] = (struct construct){ .loop = false, .header = b->label, .merge = b->merge };
			drv_ir_op0(c->ir, DRV_OP_IF, cv, 0, 0);
			ok = go(c, b->label, t);
			/* always an ELSE: an arm that goes straight to the merge
			 * still writes the merge's phis, for its own lanes only */
			drv_ir_op0(c->ir, DRV_OP_ELSE, 0, 0, 0);
			ok = ok && go(c, b->label, f);
			drv_ir_op0(c->ir, DRV_OP_ENDIF, 0, 0, 0);
			c->depth--;
			return ok && follow(c, b->merge);
		}
		/* no merge: at least one side must be a structured jump */
		if (is_jump(c, t) && is_jump(c, f)) {
			drv_ir_op0(c->ir, DRV_OP_IF, cv, 0, 0);
			ok = go(c, b->label, t);
			drv_ir_op0(c->ir, DRV_OP_ELSE, 0, 0, 0);
			ok = ok && go(c, b->label, f);
			drv_ir_op0(c->ir, DRV_OP_ENDIF, 0, 0, 0);
			return ok;
		}
		if (is_jump(c, t)) {
			drv_ir_op0(c->ir, DRV_OP_IF, cv, 0, 0);
			ok = go(c, b->label, t);
			drv_ir_op0(c->ir, DRV_OP_ENDIF, 0, 0, 0);
			return ok && go(c, b->label, f);
		}
		if (is_jump(c, f)) {
			drv_ir_op0(c->ir, DRV_OP_IF, cv, 0, 0);
			drv_ir_op0(c->ir, DRV_OP_ELSE, 0, 0, 0);
			ok = go(c, b->label, f);
			drv_ir_op0(c->ir, DRV_OP_ENDIF, 0, 0, 0);
			return ok && go(c, b->label, t);
		}
		return FAIL(c, XT_ERR_UNSUPPORTED, "unstructured conditional branch in block %%%u", b->label);
	}
	case SpvOpReturn:
		if (c->depth) {
			drv_ir_op0(c->ir, DRV_OP_RETURN, 0, 0, 0);
			c->ir->has_return = true;
		}
		return true;
	case SpvOpUnreachable:
		return true;
	case SpvOpKill: case SpvOpTerminateInvocation:
		return drv_sx_kill(c);
	case SpvOpSwitch:
		if ((W[b->end] >> 16) == 3)
			return switch_once(c, b, w[2]);
		return FAIL(c, XT_ERR_UNSUPPORTED, "switch statement is not supported by %s", drv_sx_compiler(c));
	default:
		return FAIL(c, XT_ERR_UNSUPPORTED, "%s is not supported by %s",
			    drv_sx_op_name(op) ? drv_sx_op_name(op) : "this terminator", drv_sx_compiler(c));
	}
}

/* The default-only OpSwitch (top comment). */
static bool switch_once(struct ctx *c, const struct block *b, uint32_t target)
{
	bool ok;

	if (b->merge_op != SpvOpSelectionMerge)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: OpSwitch in block %%%u without OpSelectionMerge", b->label);
	if (c->depth >= MAX_CONSTRUCTS)
		return FAIL(c, XT_ERR_UNSUPPORTED, "control flow nested too deeply");
	/* cont 0 is no label: only the merge is a structured jump of it */
	c->cs[c->depth++] = (struct construct){ .loop = true, .header = b->label, .merge = b->merge };
	drv_ir_op0(c->ir, DRV_OP_LOOP, 0, 0, 0);
	ok = go(c, b->label, target);
	/* lanes that reach the end of the default without a branch leave too */
	drv_ir_op0(c->ir, DRV_OP_BREAK, 0, 0, 0);
	drv_ir_op0(c->ir, DRV_OP_CONTINUE_POINT, 0, 0, 0);
	drv_ir_op0(c->ir, DRV_OP_ENDLOOP, 0, 0, 0);
	c->depth--;
	return ok && drv_sx_walk(c, b->merge);
}

bool drv_sx_walk(struct ctx *c, uint32_t label)
{
	struct block b;
	if (!find_block(c, label, &b))
		return false;
	if (c->visited[label])
		return FAIL(c, XT_ERR_UNSUPPORTED, "unstructured control flow: block %%%u reached twice", label);
	c->visited[label] = 1;
	if (b.merge_op != SpvOpLoopMerge) {
		if (!block_body(c, &b))
			return false;
		return terminator(c, &b);
	}
	/* a loop header */
	if (c->depth >= MAX_CONSTRUCTS)
		return FAIL(c, XT_ERR_UNSUPPORTED, "control flow nested too deeply");
	c->cs[c->depth++] = (struct construct){ .loop = true, .header = label, .merge = b.merge, .cont = b.cont };
	drv_ir_op0(c->ir, DRV_OP_LOOP, 0, 0, 0);
	if (!block_body(c, &b) || !terminator(c, &b))
		return false;
	drv_ir_op0(c->ir, DRV_OP_CONTINUE_POINT, 0, 0, 0);
	c->cs[c->depth - 1].in_continue = true;
	if (b.cont != label && !drv_sx_walk(c, b.cont))
		return false;
	drv_ir_op0(c->ir, DRV_OP_ENDLOOP, 0, 0, 0);
	c->depth--;
	return drv_sx_walk(c, b.merge);
}
