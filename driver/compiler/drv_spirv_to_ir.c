/*
 * drv_spirv_to_ir.c - the entry point's body (SPIR-V 1.0 sections 2.11
 * "Structured Control Flow", 3.32 instructions, GLSL.std.450) to scalar
 * driver IR (drv_ir.h).
 *
 * Control flow.  SPIR-V gives a CFG whose constructs are marked by
 * OpSelectionMerge / OpLoopMerge.  The blocks are walked from the entry,
 * keeping a stack of open constructs; every branch target is classified
 * against the innermost ones:
 *   innermost loop's merge            -> BREAK
 *   innermost loop's continue target  -> CONTINUE (from the body)
 *   innermost loop's header           -> end of the continue construct
 *   innermost selection's merge       -> end of the IF arm
 *   anything else                     -> the block is emitted inline here.
 * A header with OpLoopMerge opens LOOP ... CONTINUE_POINT <continue
 * construct> ENDLOOP; OpSelectionMerge + OpBranchConditional opens IF /
 * ELSE / ENDIF; an OpBranchConditional without a merge (a loop's exit test,
 * a conditional break) becomes an IF whose arm jumps.  A block reached twice
 * means the CFG is not structured the way this walk expects: an error, not
 * a guess.  OpSwitch is refused (glslang's optimizer rarely leaves one),
 * except the one its merge-return pass makes when it inlines a function
 * with early returns: `OpSwitch %const %default` with no cases, a block
 * that branches to its merge to leave it.  That is a loop run once
 * (switch_once): LOOP <default> BREAK CONTINUE_POINT ENDLOOP, a branch to
 * the merge inside being a BREAK, as for any loop.
 *
 * Phis.  An OpPhi gets one reg per scalar slot; the branch from a
 * predecessor writes the incoming value into it (under that path's exec
 * mask, so each lane keeps its own incoming value) and the block reads it
 * at its top.  This is out-of-SSA by copies, which the exec-mask machine
 * makes exact without critical-edge splitting.
 *
 * Values.  Every SPIR-V value is flattened to scalar slots (drv_spirv.h);
 * composites (construct / extract / insert / shuffle) only move IR value
 * ids around, and arithmetic is selected to gpu_model opcodes slot by slot.
 * Constants become a fresh CONST at every use (drv_ra rematerializes them),
 * so a constant never depends on the exec mask where it was first used.
 *
 * Variables.  Function / Private / Input / Output variables live in regs,
 * one per slot.  A dynamic index into them is a chain of compares and
 * selects over the candidate slots (there is no indexed register access in
 * the ISA).  Uniforms (default block: DRV_DESC_CONST at std140 offsets;
 * blocks: DRV_DESC_UBO(i) at glslang's offsets) are LOAD_BUF with a
 * constant and, for dynamic indices, a computed byte offset.
 *
 * Files: this one has the entry point, the inputs and one instruction's
 * dispatch; drv_spirv_mem.c variables and pointers, drv_spirv_alu.c
 * arithmetic and GLSL.std.450, drv_spirv_cfg.c the structured walk; they
 * share drv_spirv_to_ir_int.h.
 */
#include "drv_spirv_to_ir_int.h"

/* --- one instruction ------------------------------------------------------------ */

const char *drv_sx_op_name(uint16_t op)
{
	switch (op) {
	case SpvOpImageSampleDrefImplicitLod: case SpvOpImageSampleDrefExplicitLod:
		return "shadow-sampler lookup";
	case SpvOpImageDrefGather: return "textureGather of a shadow sampler";
	case SpvOpImageQuerySize: case SpvOpImageQuerySizeLod: return "textureSize / imageSize";
	case SpvOpImageQueryLod: return "textureQueryLod";
	case SpvOpImageRead: case SpvOpImageWrite: return "image load / store";
	case SpvOpSampledImage: return "separate image and sampler";
	case SpvOpAtomicIAdd: case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicIIncrement:
	case SpvOpAtomicExchange: case SpvOpAtomicCompareExchange:
		return "atomic operation";
	case SpvOpControlBarrier: case SpvOpMemoryBarrier: return "barrier";
	case SpvOpFunctionCall: return "function call the SPIR-V optimizer did not inline (recursion?)";
	case SpvOpSwitch: return "switch statement";
	case SpvOpIAddCarry: case SpvOpISubBorrow: return "uaddCarry / usubBorrow";
	case SpvOpUMulExtended: case SpvOpSMulExtended: return "umulExtended / imulExtended";
	default: return NULL;
	}
}

const char *drv_sx_compiler(const struct ctx *c)
{
	switch (c->ir->stage) {
	case DRV_HW_PS: return "the driver's fragment compiler";
	case DRV_HW_GS: return "the driver's geometry compiler";
	default: return "the driver's vertex compiler";
	}
}

static bool matrix_ops(struct ctx *c, uint16_t op, const uint32_t *w)
{
	struct opnd a, b;
	const struct drv_sid *rt = drv_stype(c->m, w[1]);
	uint32_t slots = type_slots(c, w[1]), out[256];
	bool ok;

	if (!rt || slots > 256)
		return FAIL(c, XT_ERR_UNSUPPORTED, "matrix operation result too large");
	if (!get(c, w[3], &a))
		return false;
	if (op != SpvOpTranspose && !get(c, w[4], &b)) {
		put(&a);
		return false;
	}
	switch (op) {
	case SpvOpMatrixTimesVector: {     /* M (cols x rows) * v (cols) */
		uint32_t rows = slots, cols = a.n / rows;
		for (uint32_t r = 0; r < rows; r++) {
			uint32_t acc = fmul_(c, a.v[r], b.v[0]);
			for (uint32_t col = 1; col < cols; col++)
				acc = fmad_(c, a.v[col * rows + r], b.v[col], acc);
			out[r] = acc;
		}
		break;
	}
	case SpvOpVectorTimesMatrix: {     /* v (rows) * M: result[col] = drv_sx_dot(v, M[col]) */
		uint32_t rows = a.n;
		for (uint32_t col = 0; col < slots; col++)
			out[col] = drv_sx_dot(c, a.v, b.v + col * rows, rows);
		break;
	}
	case SpvOpMatrixTimesMatrix: {     /* A (k cols x rows) * B (cols x k) */
		const struct drv_sid *ct = drv_stype(c->m, rt->elem);
		uint32_t rows = ct ? ct->count : 1, cols = rt->count, k = a.n / rows;
		for (uint32_t j = 0; j < cols; j++)
			for (uint32_t r = 0; r < rows; r++) {
				uint32_t acc = fmul_(c, a.v[r], b.v[j * k]);
				for (uint32_t q = 1; q < k; q++)
					acc = fmad_(c, a.v[q * rows + r], b.v[j * k + q], acc);
				out[j * rows + r] = acc;
			}
		break;
	}
	case SpvOpOuterProduct: {          /* a (rows) x b (cols) */
		uint32_t rows = a.n;
		for (uint32_t col = 0; col < b.n; col++)
			for (uint32_t r = 0; r < rows; r++)
				out[col * rows + r] = fmul_(c, a.v[r], b.v[col]);
		break;
	}
	case SpvOpTranspose: {
		const struct drv_sid *ct = drv_stype(c->m, rt->elem);
		uint32_t rows = ct ? ct->count : 1, cols = rt->count;   /* of the result */
		for (uint32_t col = 0; col < cols; col++)
			for (uint32_t r = 0; r < rows; r++)
				out[col * rows + r] = a.v[r * cols + col];
		break;
	}
	case SpvOpDot:
		out[0] = drv_sx_dot(c, a.v, b.v, a.n);
		break;
	}
	ok = def(c, w[2], w[1], out, slots);
	put(&a);
	if (op != SpvOpTranspose)
		put(&b);
	return ok;
}

/* Slot range [first, first + count) of an extract / insert path in type t. */
static bool composite_path(struct ctx *c, uint32_t t, const uint32_t *idx, uint32_t n, uint32_t *first, uint32_t *type)
{
	*first = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct drv_sid *ty = drv_stype(c->m, t);
		if (!ty)
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: bad composite index");
		if (ty->op == SpvOpTypeStruct) {
			if (idx[i] >= ty->n_members)
				return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: member index out of range");
			for (uint32_t j = 0; j < idx[i]; j++)
				*first += type_slots(c, ty->members[j].type);
			t = ty->members[idx[i]].type;
		} else {
			if (idx[i] >= ty->count)
				return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: composite index out of range");
			*first += idx[i] * type_slots(c, ty->elem);
			t = ty->elem;
		}
	}
	*type = t;
	return true;
}

bool drv_sx_instruction(struct ctx *c, uint16_t op, const uint32_t *w, uint32_t n)
{
	uint32_t out[1024];
	struct opnd a, b, d;

	switch (op) {
	case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge: case SpvOpLoopMerge:
	case SpvOpPhi:
		return true;
	case SpvOpUndef: {
		uint32_t s = type_slots(c, w[1]);
		if (s > 1024)
			return FAIL(c, XT_ERR_UNSUPPORTED, "undefined value too large");
		for (uint32_t j = 0; j < s; j++)
			out[j] = drv_ir_const(c->ir, drv_stype_slot_dwords(c->m, w[1], j), 0);
		return def(c, w[2], w[1], out, s);
	}
	case SpvOpVariable: {
		struct drv_svar *v = drv_sx_var_of(c, w[2]);
		if (v && n >= 5) {
			v->used = true;
			return drv_sx_store(c, w[2], w[4]);
		}
		return true;
	}
	case SpvOpLoad: return drv_sx_load(c, w, n);
	case SpvOpStore: return n >= 3 && drv_sx_store(c, w[1], w[2]);
	case SpvOpAccessChain: case SpvOpInBoundsAccessChain: return drv_sx_access_chain(c, w, n);
	case SpvOpExtInst: return n >= 5 && drv_sx_ext_inst(c, w, n);
	case SpvOpImage: case SpvOpImageFetch: case SpvOpImageSampleImplicitLod: case SpvOpImageSampleExplicitLod:
	case SpvOpImageSampleProjImplicitLod: case SpvOpImageSampleProjExplicitLod: case SpvOpImageGather:
		return drv_sx_image(c, op, w, n);
	case SpvOpImageQuerySize: case SpvOpImageQuerySizeLod: case SpvOpImageQueryLevels:
		return drv_sx_image_size(c, op, w, n);
	case SpvOpDPdx: case SpvOpDPdy: case SpvOpFwidth: case SpvOpDPdxFine: case SpvOpDPdyFine:
	case SpvOpFwidthFine: case SpvOpDPdxCoarse: case SpvOpDPdyCoarse: case SpvOpFwidthCoarse:
		return drv_sx_derivative(c, op, w, n);
	case SpvOpCompositeConstruct: {
		uint32_t k = 0, s = type_slots(c, w[1]);
		if (s > 1024)
			return FAIL(c, XT_ERR_UNSUPPORTED, "composite too large");
		for (uint32_t i = 3; i < n; i++) {
			if (!get(c, w[i], &a))
				return false;
			for (uint32_t j = 0; j < a.n && k < s; j++)
				out[k++] = a.v[j];
			put(&a);
		}
		return def(c, w[2], w[1], out, k);
	}
	case SpvOpCompositeExtract: {
		uint32_t first, t, s;
		if (n < 4 || !get(c, w[3], &a))
			return false;
		if (!composite_path(c, sid(c, w[3])->kind == DRV_SID_CONST || sid(c, w[3])->kind == DRV_SID_VALUE ?
					    sid(c, w[3])->type : 0, w + 4, n - 4u, &first, &t)) {
			put(&a);
			return false;
		}
		s = type_slots(c, t);
		if (first + s > a.n) {
			put(&a);
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: extract out of range");
		}
		{
			bool ok = def(c, w[2], w[1], a.v + first, s);
			put(&a);
			return ok;
		}
	}
	case SpvOpCompositeInsert: {
		uint32_t first, t, s;
		bool ok;
		if (n < 5 || !get2(c, w[3], w[4], &b, &a))
			return false;
		if (a.n > 1024 || !composite_path(c, w[1], w + 5, n - 5u, &first, &t) || first + type_slots(c, t) > a.n) {
			put(&a);
			put(&b);
			return c->rc == XT_OK ? FAIL(c, XT_ERR_CORRUPT, "SPIR-V: bad insert") : false;
		}
		s = type_slots(c, t);
		memcpy(out, a.v, a.n * sizeof *out);
		for (uint32_t j = 0; j < s && j < b.n; j++)
			out[first + j] = b.v[j];
		ok = def(c, w[2], w[1], out, a.n);
		put(&a);
		put(&b);
		return ok;
	}
	case SpvOpVectorShuffle: {
		uint32_t k = 0;
		bool ok;
		if (n < 5 || !get2(c, w[3], w[4], &a, &b))
			return false;
		for (uint32_t i = 5; i < n && k < 16; i++) {
			uint32_t s = w[i];
			out[k++] = s == 0xFFFFFFFFu ? drv_ir_const(c->ir, 1, 0) : s < a.n ? a.v[s] :
				   s - a.n < b.n ? b.v[s - a.n] : drv_ir_const(c->ir, 1, 0);
		}
		ok = def(c, w[2], w[1], out, k);
		put(&a);
		put(&b);
		return ok;
	}
	case SpvOpVectorExtractDynamic: {
		bool ok;
		if (n < 5 || !get2(c, w[3], w[4], &a, &b))
			return false;
		out[0] = a.v[0];
		for (uint32_t i = 1; i < a.n; i++)
			out[0] = sel(c, icmp(c, ISA_OP_V_CMP_EQ_I32, b.v[0], K(c, i)), a.v[i], out[0]);
		ok = def(c, w[2], w[1], out, 1);
		put(&a);
		put(&b);
		return ok;
	}
	case SpvOpVectorInsertDynamic: {
		bool ok;
		if (n < 6 || !get3(c, w[3], w[4], w[5], &a, &b, &d))
			return false;
		for (uint32_t i = 0; i < a.n && i < 16; i++)
			out[i] = sel(c, icmp(c, ISA_OP_V_CMP_EQ_I32, d.v[0], K(c, i)), b.v[0], a.v[i]);
		ok = def(c, w[2], w[1], out, a.n);
		put(&a);
		put(&b);
		put(&d);
		return ok;
	}
	case SpvOpSelect: {
		bool ok;
		if (n < 6 || !get3(c, w[3], w[4], w[5], &d, &a, &b))
			return false;
		for (uint32_t j = 0; j < a.n && j < 1024; j++)
			out[j] = sel(c, d.v[d.n == 1 ? 0 : j], a.v[j], b.v[j]);
		ok = def(c, w[2], w[1], out, a.n);
		put(&a);
		put(&b);
		put(&d);
		return ok;
	}
	case SpvOpAny: case SpvOpAll: {
		bool ok;
		if (n < 4 || !get(c, w[3], &a))
			return false;
		out[0] = a.v[0];
		for (uint32_t i = 1; i < a.n; i++)
			out[0] = V2(c, op == SpvOpAny ? ISA_OP_V_OR_B32 : ISA_OP_V_AND_B32, out[0], a.v[i]);
		ok = def(c, w[2], w[1], out, 1);
		put(&a);
		return ok;
	}
	case SpvOpBitcast: {
		uint32_t s = type_slots(c, w[1]);
		bool ok;
		if (n < 4 || !get(c, w[3], &a))
			return false;
		if (s == a.n) {
			ok = def(c, w[2], w[1], a.v, s);
		} else if (s == 1 && a.n == 2) {
			out[0] = pack(c, a.v[0], a.v[1]);
			ok = def(c, w[2], w[1], out, 1);
		} else if (s == 2 && a.n == 1) {
			out[0] = lo(c, a.v[0]);
			out[1] = hi(c, a.v[0]);
			ok = def(c, w[2], w[1], out, 2);
		} else {
			ok = FAIL(c, XT_ERR_UNSUPPORTED, "bitcast between these types is not supported by the driver");
		}
		put(&a);
		return ok;
	}
	case SpvOpBitFieldInsert: {
		struct opnd o[4];
		bool ok = true;
		for (unsigned i = 0; i < 4; i++)
			if (!get(c, w[3 + i], &o[i]))
				return false;
		for (uint32_t j = 0; j < o[0].n; j++) {
			uint32_t off = o[2].v[0], cnt = o[3].v[0];
			uint32_t ones = V2(c, ISA_OP_V_SUB_U32, V2(c, ISA_OP_V_LSHL_B32, K(c, 1), cnt), K(c, 1));
			uint32_t mask = sel(c, icmp(c, ISA_OP_V_CMP_GE_U32, cnt, K(c, 32)), K(c, 0xFFFFFFFFu), ones);
			mask = V2(c, ISA_OP_V_LSHL_B32, mask, off);
			out[j] = V3(c, ISA_OP_V_BFI_B32, mask, V2(c, ISA_OP_V_LSHL_B32, o[1].v[j], off), o[0].v[j]);
		}
		ok = def(c, w[2], w[1], out, o[0].n);
		for (unsigned i = 0; i < 4; i++)
			put(&o[i]);
		return ok;
	}
	case SpvOpBitFieldSExtract: case SpvOpBitFieldUExtract: {
		struct opnd o[3];
		bool ok;
		for (unsigned i = 0; i < 3; i++)
			if (!get(c, w[3 + i], &o[i]))
				return false;
		for (uint32_t j = 0; j < o[0].n; j++) {
			uint32_t x = V3(c, op == SpvOpBitFieldSExtract ? ISA_OP_V_BFE_I32 : ISA_OP_V_BFE_U32, o[0].v[j],
					o[1].v[0], o[2].v[0]);
			out[j] = sel(c, icmp(c, ISA_OP_V_CMP_GE_U32, o[2].v[0], K(c, 32)), o[0].v[j], x);
		}
		ok = def(c, w[2], w[1], out, o[0].n);
		for (unsigned i = 0; i < 3; i++)
			put(&o[i]);
		return ok;
	}
	case SpvOpMatrixTimesVector: case SpvOpVectorTimesMatrix: case SpvOpMatrixTimesMatrix:
	case SpvOpOuterProduct: case SpvOpTranspose: case SpvOpDot:
		return n >= 4 && matrix_ops(c, op, w);
	case SpvOpEmitVertex: case SpvOpEndPrimitive:
		drv_ir_op0(c->ir, op == SpvOpEmitVertex ? DRV_OP_EMIT_VERTEX : DRV_OP_END_PRIMITIVE, 0, 0, 0);
		return true;
	case SpvOpEmitStreamVertex: case SpvOpEndStreamPrimitive: {
		const struct drv_sid *s = n >= 2 ? sid(c, w[1]) : NULL;
		if (!s || s->kind != DRV_SID_CONST || s->cval[0] >= DRV_MAX_VERTEX_STREAMS)
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: stream must be a constant below 4");
		drv_ir_op0(c->ir, op == SpvOpEmitStreamVertex ? DRV_OP_EMIT_VERTEX : DRV_OP_END_PRIMITIVE, 0,
			   (uint32_t)s->cval[0], 0);
		return true;
	}
	default:
		break;
	}

	/* component-wise unary / binary */
	if (n >= 4 && (op == SpvOpFNegate || op == SpvOpSNegate || op == SpvOpNot || op == SpvOpLogicalNot ||
		       op == SpvOpBitReverse || op == SpvOpBitCount || op == SpvOpConvertFToS ||
		       op == SpvOpConvertFToU || op == SpvOpConvertSToF || op == SpvOpConvertUToF ||
		       op == SpvOpFConvert || op == SpvOpUConvert || op == SpvOpSConvert || op == SpvOpCopyObject ||
		       op == SpvOpIsNan || op == SpvOpIsInf)) {
		struct drv_sid *src = sid(c, w[3]);
		uint32_t st = src ? src->type : 0;
		bool ok;
		if (!get(c, w[3], &a))
			return false;
		for (uint32_t j = 0; j < a.n && j < 1024; j++)
			out[j] = drv_sx_unop(c, op, a.v[j], st, w[1]);
		ok = def(c, w[2], w[1], out, a.n);
		put(&a);
		return ok;
	}
	{
		static const uint16_t bin_ops[] = {
			SpvOpFAdd, SpvOpFSub, SpvOpFMul, SpvOpFDiv, SpvOpFRem, SpvOpFMod, SpvOpIAdd, SpvOpISub,
			SpvOpIMul, SpvOpUDiv, SpvOpSDiv, SpvOpUMod, SpvOpSRem, SpvOpSMod, SpvOpShiftLeftLogical,
			SpvOpShiftRightLogical, SpvOpShiftRightArithmetic, SpvOpBitwiseAnd, SpvOpBitwiseOr,
			SpvOpBitwiseXor, SpvOpLogicalAnd, SpvOpLogicalOr, SpvOpLogicalEqual, SpvOpLogicalNotEqual,
			SpvOpIEqual, SpvOpINotEqual, SpvOpUGreaterThan, SpvOpSGreaterThan, SpvOpUGreaterThanEqual,
			SpvOpSGreaterThanEqual, SpvOpULessThan, SpvOpSLessThan, SpvOpULessThanEqual,
			SpvOpSLessThanEqual, SpvOpFOrdEqual, SpvOpFUnordEqual, SpvOpFOrdNotEqual,
			SpvOpFUnordNotEqual, SpvOpFOrdLessThan, SpvOpFUnordLessThan, SpvOpFOrdGreaterThan,
			SpvOpFUnordGreaterThan, SpvOpFOrdLessThanEqual, SpvOpFUnordLessThanEqual,
			SpvOpFOrdGreaterThanEqual, SpvOpFUnordGreaterThanEqual, SpvOpVectorTimesScalar,
			SpvOpMatrixTimesScalar,
		};
		for (size_t i = 0; i < sizeof bin_ops / sizeof bin_ops[0]; i++) {
			bool ok;
			if (bin_ops[i] != op)
				continue;
			if (n < 5 || !get2(c, w[3], w[4], &a, &b))
				return c->rc == XT_OK ? FAIL(c, XT_ERR_CORRUPT, "SPIR-V: short binary op") : false;
			for (uint32_t j = 0; j < a.n && j < 1024; j++)
				out[j] = drv_sx_binop(c, op, a.v[j], b.v[b.n == 1 ? 0 : j]);
			ok = def(c, w[2], w[1], out, a.n < 1024 ? a.n : 1024);
			put(&a);
			put(&b);
			return ok;
		}
	}
	{
		const char *what = drv_sx_op_name(op);
		if (what)
			return FAIL(c, XT_ERR_UNSUPPORTED, "%s is not supported by %s", what, drv_sx_compiler(c));
		return FAIL(c, XT_ERR_UNSUPPORTED, "SPIR-V instruction with opcode %u is not supported by the driver", op);
	}
}

/* --- inputs ------------------------------------------------------------------------ */

static bool input_builtin(struct ctx *c, int32_t builtin, uint32_t *sv)
{
	switch (builtin) {
	case SpvBuiltInVertexId: case SpvBuiltInVertexIndex: *sv = DRV_SV_VERTEX_ID; return true;
	case SpvBuiltInInstanceId: case SpvBuiltInInstanceIndex: *sv = DRV_SV_INSTANCE_ID; return true;
	case SpvBuiltInPrimitiveId: *sv = DRV_SV_PRIMITIVE_ID; return true;
	case SpvBuiltInInvocationId: *sv = DRV_SV_INVOCATION_ID; return true;
	case SpvBuiltInBaseVertex: *sv = DRV_SV_BASE_VERTEX; return true;
	case SpvBuiltInBaseInstance: *sv = DRV_SV_BASE_INSTANCE; return true;
	case SpvBuiltInFrontFacing: *sv = DRV_SV_FRONT_FACING; return c->ir->stage == DRV_HW_PS;
	default: return false;
	}
}

/* ESGS dword of built-in member `bi`, component j (an unwritten slot past
 * the item reads whatever the ring holds there: GL leaves it undefined). */
static bool esgs_builtin_dw(const struct drv_io_layout *l, int32_t bi, uint32_t j, uint32_t *dw)
{
	switch (bi) {
	case SpvBuiltInPosition: *dw = l->pos_dw + j; return j < 4;
	case SpvBuiltInPointSize: *dw = l->psize_dw; return true;
	case SpvBuiltInClipDistance: *dw = l->clip_dw + j; return j < 8;
	default: return false;
	}
}

static bool load_inputs(struct ctx *c)
{
	for (uint32_t i = 0; i < c->m->n_vars; i++) {
		struct drv_svar *v = &c->m->vars[i];
		uint32_t sv;
		if (v->storage != SpvStorageClassInput)
			continue;
		if (c->ir->stage == DRV_HW_PS && v->builtin == SpvBuiltInFragCoord) {
			for (uint32_t j = 0; j < 4 && j < v->slots; j++)
				drv_ir_reg_write(c->ir, v->reg_base + j,
						 drv_ir_op1(c->ir, DRV_OP_LOAD_SYSVAL, 1, 0, DRV_SV_FRAG_COORD_X + j, 0));
			continue;
		}
		if (input_builtin(c, v->builtin, &sv)) {
			drv_ir_reg_write(c->ir, v->reg_base, drv_ir_op1(c->ir, DRV_OP_LOAD_SYSVAL, 1, 0, sv, 0));
			continue;
		}
		if (v->builtin >= 0 && !(c->ir->stage == DRV_HW_PS && v->builtin == SpvBuiltInPointCoord))
			return FAIL(c, XT_ERR_UNSUPPORTED, "built-in input %d ('%s') is not supported by the driver",
				    v->builtin, v->name);
		if (c->ir->stage == DRV_HW_PS) {
			/* each slot: the channel of the PS input (param) its
			 * location is (drv_ps_inputs) */
			struct drv_ps_input list[32];
			char why[160];
			int n = drv_ps_inputs(c->m, list, why, sizeof why);
			if (n < 0)
				return FAIL(c, XT_ERR_UNSUPPORTED, "%s", why);
			for (uint32_t j = 0; j < v->slots; j++) {
				unsigned chan;
				int k = drv_ps_input_find(c->m, list, n, i, j, &chan);
				uint32_t mode;
				if (k < 0)
					return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: fragment input '%s' slot %u has no "
						    "PS input", v->name, j);
				mode = list[k].flat ? DRV_INTERP_FLAT
				       : list[k].noperspective ? DRV_INTERP_LINEAR : DRV_INTERP_SMOOTH;
				drv_ir_reg_write(c->ir, v->reg_base + j,
						 drv_ir_op1(c->ir, DRV_OP_INTERP, 1, 0, (uint32_t)k, chan | mode << 2));
			}
			continue;
		}
		if (c->ir->stage == DRV_HW_GS) {
			const struct drv_sid *at = drv_stype(c->m, v->type), *et;
			uint32_t es;
			if (!at || at->op != SpvOpTypeArray || !c->esgs)
				return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: geometry input '%s' is not an array", v->name);
			et = drv_stype(c->m, at->elem);
			es = et ? et->slots : 0;
			for (uint32_t k = 0; k < at->count; k++)
				for (uint32_t j = 0; j < es; j++) {
					uint32_t dw, slot = j, t = at->elem;
					int32_t bi = -1, member = -1;
					char key[96];
					/* an input block (gl_in[] or a user block): find the member */
					if (et->op == SpvOpTypeStruct) {
						for (uint32_t q = 0; q < et->n_members; q++) {
							uint32_t ms = type_slots(c, et->members[q].type);
							if (slot < ms) {
								bi = et->members[q].builtin;
								t = et->members[q].type;
								member = (int32_t)q;
								break;
							}
							slot -= ms;
						}
					}
					/* Built-ins without a fixed ES slot (gl_CullDistance,
					 * which glslang declares in every 4.50 gl_in[]) pass
					 * by name as the ES stores them (drv_lower_io.c
					 * esgs_dw); one the ES does not write reads 0
					 * (undefined: GL 4.6 §7.4.1). */
					if (bi < 0 || !esgs_builtin_dw(c->esgs, bi, slot, &dw)) {
						drv_io_key(c->m, v, at->elem, member, key, sizeof key);
						if (!drv_io_lookup(c->esgs, key, &dw)) {
							/* not written by the vertex shader: reads 0 */
							dw = c->esgs->itemsize_dw;
						} else {
							dw += drv_stype_slot_dword_offset(c->m, t, slot);
						}
					}
					drv_ir_reg_write(c->ir, v->reg_base + k * es + j,
							 drv_ir_op1(c->ir, DRV_OP_ESGS_LOAD,
								    drv_stype_slot_dwords(c->m, at->elem, j), 0, k, dw * 4));
				}
			continue;
		}
		if (v->location < 0)
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: input '%s' has no location", v->name);
		for (uint32_t j = 0; j < v->slots; j++) {
			uint32_t dw = drv_stype_slot_loc_dword(c->m, v->type, j) +
				      (v->component > 0 ? (uint32_t)v->component : 0);
			uint32_t loc = (uint32_t)v->location + dw / 4;
			if (loc >= DRV_MAX_ATTRIBS)
				return FAIL(c, XT_ERR_UNSUPPORTED, "vertex attribute '%s' uses location %u; the driver has %u",
					    v->name, loc, DRV_MAX_ATTRIBS);
			drv_ir_reg_write(c->ir, v->reg_base + j,
					 drv_ir_op1(c->ir, DRV_OP_LOAD_INPUT, drv_stype_slot_dwords(c->m, v->type, j), 0,
						    loc, dw % 4));
		}
	}
	return true;
}

enum xt_rc drv_spirv_to_ir(struct drv_smodule *m, const struct drv_io_layout *esgs, struct drv_ir *ir,
			   struct xt_err *err)
{
	struct ctx c;
	const uint32_t *W = m->words;
	uint32_t p, first_label = 0;

	memset(&c, 0, sizeof c);
	c.m = m;
	c.ir = ir;
	c.err = err;
	c.esgs = esgs;
	c.phi_reg = calloc(m->bound, sizeof *c.phi_reg);
	c.visited = calloc(m->bound, 1);
	if (!c.phi_reg || !c.visited) {
		free(c.phi_reg);
		free(c.visited);
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	}

	/* labels and phis */
	for (p = m->fn_begin; p < m->fn_end;) {
		uint16_t op = (uint16_t)(W[p] & 0xFFFF), n = (uint16_t)(W[p] >> 16);
		if (!n)
			break;
		if (op == SpvOpLabel && n >= 2 && W[p + 1] < m->bound) {
			m->ids[W[p + 1]].kind = DRV_SID_LABEL;
			m->ids[W[p + 1]].label_word = p;
			if (!first_label)
				first_label = W[p + 1];
		} else if (op == SpvOpPhi && n >= 3 && W[p + 2] < m->bound) {
			uint32_t t = W[p + 1], s = type_slots(&c, t);
			c.phi_reg[W[p + 2]] = ir->n_regs;
			for (uint32_t j = 0; j < s; j++)
				drv_ir_new_reg(ir, drv_stype_slot_dwords(m, t, j));
		} else if (op == SpvOpFunctionParameter) {
			c.rc = XT_FAIL(err, XT_ERR_UNSUPPORTED, "the entry point takes parameters");
		}
		p += n;
	}
	/* register variables: one reg per slot; outputs and locals start at 0 */
	for (uint32_t i = 0; i < m->n_vars && c.rc == XT_OK; i++) {
		struct drv_svar *v = &m->vars[i];
		if (!drv_sx_is_reg_storage(v->storage))
			continue;
		v->reg_base = ir->n_regs;
		for (uint32_t j = 0; j < v->slots; j++)
			drv_ir_new_reg(ir, drv_stype_slot_dwords(m, v->type, j));
	}
	if (c.rc == XT_OK && !ir->oom && load_inputs(&c)) {
		for (uint32_t i = 0; i < m->n_vars; i++) {
			struct drv_svar *v = &m->vars[i];
			if (v->storage != SpvStorageClassOutput && v->storage != SpvStorageClassPrivate &&
			    v->storage != SpvStorageClassFunction)
				continue;
			for (uint32_t j = 0; j < v->slots; j++)
				drv_ir_reg_write(ir, v->reg_base + j,
						 drv_ir_const(ir, drv_stype_slot_dwords(m, v->type, j), 0));
		}
		if (!first_label)
			c.rc = XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: entry point without blocks");
		else
			drv_sx_walk(&c, first_label);
	}
	if (c.rc == XT_OK && ir->oom)
		c.rc = XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	free(c.phi_reg);
	free(c.visited);
	return c.rc;
}
