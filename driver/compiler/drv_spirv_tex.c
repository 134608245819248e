/*
 * drv_spirv_tex.c - texture lookups to driver IR (drv_spirv_to_ir_int.h):
 * texelFetch (OpImageFetch), texture / textureLod
 * (OpImageSample{Implicit,Explicit}Lod, the implicit one with a LOD bias
 * too) on 2D, 2D array and 3D samplers of
 * float, int and uint textures, texelFetch of 2D multisample ones (the
 * Sample operand), as DRV_OP_IMAGE (drv_ir.h; arrays and 3D with a third
 * coordinate, ISA_FLAG_DA, multisample ones with the sample there), which
 * drv_emit turns into
 * image_load(_mip) / image_sample(_l, _b) with the sampler slot's T# and S#
 * loaded from the descriptor table (docs/isa.md "Images").
 *
 * A sampler uniform element is a slot of the descriptor table's sampler
 * list (drv_program.samplers, set by drv_program_build_uniforms), known at
 * compile time: loading one (OpLoad, OpImage) yields a CONST holding the
 * slot, which the lookup reads back; nothing is emitted for it.  Sampler
 * arrays indexed by a non-constant expression are reported.
 *
 * Implicit LOD: in a fragment shader the hardware's, from the quad's
 * derivatives (the PS then runs its helper lanes, drv_ir.wqm); in the
 * other stages GL has no derivatives and takes LOD 0 (GLSL 4.60 §8.9,
 * "Texture Functions"), so they use image_sample_l with LOD 0.
 *
 * LOD bias (texture(s, P, bias), the Bias image operand): GL 4.6 §8.14.1
 * adds it to the implicit LOD (with the texture's GL_TEXTURE_LOD_BIAS,
 * the S#'s LOD_BIAS): image_sample_b in a fragment shader, the bias in
 * the first address VGPR, before the coordinates (GCN's order, as
 * radeonsi / ACO emit it); elsewhere image_sample_l at LOD 0 + bias.
 *
 * textureProj (OpImageSampleProj*): the coordinates times 1 / q in the
 * shader (radeonsi: NIR's lower_txp).  texelFetchOffset: the offset added
 * to the integer coordinates.  texture*Offset: the _o forms with GCN's
 * offset VGPR first (the model adds it in the sampled level's texels
 * before the wrap, GL 4.6 §8.14.2; adding offset / size to normalized
 * coordinates would be wrong for mipmaps).  textureGrad on 2D samplers and
 * arrays: image_sample_d(_o), the derivatives before the coordinates.
 * textureGather(Offset) (OpImageGather) on 2D samplers and arrays:
 * image_gather4_lz(_o), the channel in dmask (the base level, GL's rule,
 * as ACO emits it).
 */
#include "drv_spirv_to_ir_int.h"

/* The image type behind a sampled-image or image type id. */
static const struct drv_sid *image_type(struct ctx *c, uint32_t t)
{
	const struct drv_sid *ty = drv_stype(c->m, t);
	if (ty && ty->op == SpvOpTypeSampledImage)
		ty = drv_stype(c->m, ty->elem);
	return ty && ty->op == SpvOpTypeImage ? ty : NULL;
}

/* Why the driver cannot sample an image of this type, NULL if it can. */
static const char *image_unsupported(const struct drv_sid *img)
{
	if (img->image_ms && (img->image_arrayed || img->image_dim != SpvDim2D))
		return "multisampled array samplers (sampler2DMSArray)";
	if (img->image_depth)
		return "shadow samplers";
	if (img->image_arrayed && img->image_dim != SpvDim2D)
		return "1D and cube-map array samplers";
	switch (img->image_dim) {
	case SpvDim2D: case SpvDim3D: case SpvDimCube: return NULL;
	case SpvDim1D: return "1D samplers";
	case SpvDimRect: return "rectangle samplers";
	case SpvDimBuffer: return "buffer samplers (samplerBuffer)";
	default: return "this sampler dimensionality";
	}
}

bool drv_sx_load_sampler(struct ctx *c, const struct drv_svar *v, const struct drv_sptr *p, uint32_t t,
			 uint32_t *out, bool *ok)
{
	const struct drv_sid *ty = drv_stype(c->m, t);
	if (!ty || (ty->op != SpvOpTypeSampledImage && ty->op != SpvOpTypeImage && ty->op != SpvOpTypeSampler))
		return false;
	if (ty->op != SpvOpTypeSampledImage)
		*ok = FAIL(c, XT_ERR_UNSUPPORTED, "images and separate samplers ('%s') are not supported by the driver",
			   v->name);
	else if (v->storage != SpvStorageClassUniformConstant || v->sampler < 0)
		*ok = FAIL(c, XT_ERR_UNSUPPORTED, "a sampler that is no named sampler uniform of the program ('%s') is "
			   "not supported by the driver", v->name);
	else if (p->dyn_byte || p->dyn_slot)
		*ok = FAIL(c, XT_ERR_UNSUPPORTED, "sampler array '%s' indexed by a non-constant expression is not "
			   "supported by the driver", v->name);
	else if ((uint32_t)v->sampler + p->slot >= DRV_MAX_SAMPLERS)
		*ok = FAIL(c, XT_ERR_UNSUPPORTED, "more than %u sampler uniforms are not supported by the driver",
			   DRV_MAX_SAMPLERS);
	else
		out[0] = K(c, (uint32_t)v->sampler + p->slot);
	return true;
}

/* The sampler slot an operand (a loaded sampler, or OpImage of one) holds. */
static bool sampler_slot(struct ctx *c, uint32_t id, uint32_t *slot, const struct drv_sid **img)
{
	const struct drv_sid *s = sid(c, id);
	const struct drv_ins *def;
	const char *why;
	if (!s || s->kind != DRV_SID_VALUE || !s->comps || !(*img = image_type(c, s->type)))
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: %%%u is not a loaded sampler", id);
	def = &c->ir->ins[c->ir->vals[s->comps[0]].def];
	if (def->op != DRV_OP_CONST)
		return FAIL(c, XT_ERR_UNSUPPORTED, "a sampler that is not a uniform is not supported by the driver");
	if ((why = image_unsupported(*img)))
		return FAIL(c, XT_ERR_UNSUPPORTED, "texture lookups on %s are not supported by the driver", why);
	*slot = (uint32_t)def->imm;
	return true;
}

/*
 * A cube map's direction (x, y, z) to the face and the coordinates on it
 * (GL 4.6 §8.13, table 8.19): the major axis is the largest magnitude
 * (ties: x, then y, as Mesa), face = 2 * axis + (negative), s = (sc / |ma|
 * + 1) / 2, t = (tc / |ma| + 1) / 2; out[] = s, t, face (a float layer of
 * the cube sampled as a 6-layer array, as GCN's v_cube* prepare it).
 */
static void cube_coords(struct ctx *c, const uint32_t *r, uint32_t out[3])
{
	uint32_t ax = fabs_(c, r[0]), ay = fabs_(c, r[1]), az = fabs_(c, r[2]);
	uint32_t is_x = V2(c, ISA_OP_V_AND_B32, fcmp(c, C_GE, ax, ay), fcmp(c, C_GE, ax, az));
	uint32_t is_y = V2(c, ISA_OP_V_AND_B32, bnot(c, is_x), fcmp(c, C_GE, ay, az));
	uint32_t px = fcmp(c, C_GE, r[0], K(c, 0)), py = fcmp(c, C_GE, r[1], K(c, 0));
	uint32_t pz = fcmp(c, C_GE, r[2], K(c, 0));
	uint32_t nx = fneg_(c, r[0]), ny = fneg_(c, r[1]), nz = fneg_(c, r[2]);
	/* x major: sc = -+z, tc = -y; y major: sc = x, tc = +-z; z major: sc = +-x, tc = -y */
	uint32_t sc = sel(c, is_x, sel(c, px, nz, r[2]), sel(c, is_y, r[0], sel(c, pz, r[0], nx)));
	uint32_t tc = sel(c, is_y, sel(c, py, r[2], nz), ny);
	uint32_t ma = sel(c, is_x, ax, sel(c, is_y, ay, az));
	uint32_t face = sel(c, is_x, sel(c, px, K(c, fbits(0.0f)), K(c, fbits(1.0f))),
			    sel(c, is_y, sel(c, py, K(c, fbits(2.0f)), K(c, fbits(3.0f))),
				sel(c, pz, K(c, fbits(4.0f)), K(c, fbits(5.0f)))));
	out[0] = fmad_(c, fdiv_(c, sc, ma), K(c, fbits(0.5f)), K(c, fbits(0.5f)));
	out[1] = fmad_(c, fdiv_(c, tc, ma), K(c, fbits(0.5f)), K(c, fbits(0.5f)));
	out[2] = face;
}

/* textureSize (OpImageQuerySizeLod of a sampler's image; OpImageQuerySize
 * of a multisample one, which has one level): image_get_resinfo at the
 * level, its first 2 (2D, cube, 2D multisample) or 3 (2D array: the
 * layers; 3D) channels, integers (GL 4.6 §8.14, GLSL 4.60 §8.9.1). */
bool drv_sx_image_size(struct ctx *c, uint16_t op, const uint32_t *w, uint32_t n)
{
	const struct drv_sid *img;
	struct opnd lod = { 0 };
	uint32_t slot, out[4], comps;
	bool ok;

	if (n < 4 + (op == SpvOpImageQuerySizeLod ? 1u : 0u))
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: short image size query");
	if (!sampler_slot(c, w[3], &slot, &img))
		return false;
	if (op == SpvOpImageQueryLevels) {
		/* textureQueryLevels (GLSL 4.60 §8.9.1): the levels base..q the
		 * T# holds, image_get_resinfo's fourth channel; an incomplete
		 * texture (GL: 0, its T# one level) is reported at the draw
		 * (drv_sampler.queries_levels) */
		if (img->image_ms || type_slots(c, w[1]) != 1)
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: textureQueryLevels of a multisampled image or to "
				    "other than a scalar");
		struct drv_ins in = { .op = DRV_OP_IMAGE, .size = 4, .n_src = 1, .src = { K(c, 0) }, .a = slot,
				      .b = DRV_IMG_RESINFO };
		out[0] = drv_ir_op1(c->ir, DRV_OP_COMPONENT, 1, drv_ir_emit(c->ir, &in), 3, 0);
		if (slot < 32)
			c->ir->query_levels |= 1u << slot;
		return def(c, w[2], w[1], out, 1);
	}
	if (op == SpvOpImageQuerySize && !img->image_ms)
		return FAIL(c, XT_ERR_UNSUPPORTED, "imageSize of storage images is not supported by the driver");
	comps = img->image_arrayed || img->image_dim == SpvDim3D ? 3 : 2;
	if (type_slots(c, w[1]) != comps)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: image size query of %u components", type_slots(c, w[1]));
	if (op == SpvOpImageQuerySizeLod && !get(c, w[4], &lod))
		return false;
	struct drv_ins in = { .op = DRV_OP_IMAGE, .size = 4, .n_src = 1,
			      .src = { op == SpvOpImageQuerySizeLod ? lod.v[0] : K(c, 0) }, .a = slot,
			      .b = DRV_IMG_RESINFO };
	uint32_t res = drv_ir_emit(c->ir, &in);
	for (unsigned k = 0; k < comps; k++)
		out[k] = drv_ir_op1(c->ir, DRV_OP_COMPONENT, 1, res, k, 0);
	ok = def(c, w[2], w[1], out, comps);
	put(&lod);
	return ok;
}

/* A sampled lookup's texel offset (texture*Offset; GL 4.6 §8.14.2: added
 * to the texel coordinates of the level sampled, before the wrap) packed
 * as GCN's offset VGPR wants it: x, y (, z) signed 6-bit at bits 0, 8
 * (, 16), which holds GL's offsets (GL_MIN_PROGRAM_TEXEL_OFFSET -8 ..
 * GL_MAX_PROGRAM_TEXEL_OFFSET 7); 0 on failure. */
static uint32_t pack_offset(struct ctx *c, uint32_t id, unsigned dims)
{
	const struct drv_sid *s = sid(c, id);
	struct opnd off;
	uint32_t pk = 0;

	if (s && s->kind == DRV_SID_CONST && s->slots == dims) {
		for (unsigned k = 0; k < dims; k++)
			pk |= (s->cval[k] & 0x3fu) << (8 * k);
		return K(c, pk);
	}
	if (!get(c, id, &off))
		return 0;
	if (off.n != dims) {
		put(&off);
		c->rc = XT_FAIL(c->err, XT_ERR_CORRUPT, "SPIR-V: a texel offset of %u components", off.n);
		return 0;
	}
	for (unsigned k = 0; k < dims; k++) {
		uint32_t f = V2(c, ISA_OP_V_AND_B32, off.v[k], K(c, 0x3f));
		if (k)
			f = V2(c, ISA_OP_V_LSHL_B32, f, K(c, 8 * k));
		pk = k ? V2(c, ISA_OP_V_OR_B32, pk, f) : f;
	}
	put(&off);
	return pk;
}

/* textureGrad's derivatives, ds/dx, dt/dx, ds/dy, dt/dy into out[0..3]
 * (image_sample_d's order; a 2D sampler or array has 2 each). */
static bool grads(struct ctx *c, uint32_t dx_id, uint32_t dy_id, uint32_t out[4])
{
	struct opnd dx, dy;
	if (!get2(c, dx_id, dy_id, &dx, &dy))
		return false;
	bool ok = dx.n == 2 && dy.n == 2;
	if (ok) {
		out[0] = dx.v[0], out[1] = dx.v[1];
		out[2] = dy.v[0], out[3] = dy.v[1];
	}
	put(&dx);
	put(&dy);
	if (!ok)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: textureGrad derivatives of %u and %u components", dx.n, dy.n);
	return true;
}

bool drv_sx_image(struct ctx *c, uint16_t op, const uint32_t *w, uint32_t n)
{
	const struct drv_sid *img;
	struct opnd coord, lod = { 0 };
	uint32_t cv[4] = { 0, 0, 0, 0 };   /* the coordinates, projected / offset */
	/* OpImageGather has the component before the image operands */
	const uint32_t mo = op == SpvOpImageGather ? 6 : 5;
	uint32_t slot, mask = n > mo ? w[mo] : 0, out[4], comp = 0, lod_id = 0, bias_id = 0, off_id = 0, dx_id = 0, dy_id = 0;
	uint32_t off_pk = 0;  /* a sampled lookup's texel offset, packed for the _o forms */
	bool proj = op == SpvOpImageSampleProjImplicitLod || op == SpvOpImageSampleProjExplicitLod;
	enum drv_img_kind kind;
	unsigned da;
	bool ok;

	if (n < 4)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: short image instruction");
	if (!sampler_slot(c, w[3], &slot, &img))
		return false;
	if (op == SpvOpImage) {
		out[0] = K(c, slot);
		return def(c, w[2], w[1], out, 1);
	}
	if (n < 5)
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: short image instruction");
	if (img->image_ms && (op != SpvOpImageFetch || mask != SpvImageOperandsSampleMask || n < 7))
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: a multisampled image read other than OpImageFetch with "
			    "the Sample operand");
	if (img->image_ms) {
		/* texelFetch(sampler2DMS, P, sample): image_load of the 2D MSAA
		 * image, the sample index as its third coordinate (`da`) */
		struct opnd sample;
		if (!get(c, w[4], &coord))
			return false;
		if (!get(c, w[6], &sample)) {
			put(&coord);
			return false;
		}
		if (coord.n < 2 || type_slots(c, w[1]) != 4) {
			put(&coord);
			put(&sample);
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: texture lookup with %u coordinates", coord.n);
		}
		struct drv_ins in = { .op = DRV_OP_IMAGE, .size = 4, .n_src = 3, .flags = ISA_FLAG_DA,
				      .src = { coord.v[0], coord.v[1], sample.v[0] }, .a = slot, .b = DRV_IMG_LOAD };
		uint32_t res = drv_ir_emit(c->ir, &in);
		for (unsigned k = 0; k < 4; k++)
			out[k] = drv_ir_op1(c->ir, DRV_OP_COMPONENT, 1, res, k, 0);
		ok = def(c, w[2], w[1], out, 4);
		put(&coord);
		put(&sample);
		return ok;
	}
	{
		/* SPIR-V 1.6 §3.14: the operands follow the mask's bit order */
		uint32_t k = mo + 1;
		if (mask & ~(uint32_t)(SpvImageOperandsLodMask | SpvImageOperandsBiasMask | SpvImageOperandsGradMask |
				       SpvImageOperandsConstOffsetMask | SpvImageOperandsOffsetMask)) {
			const char *what = mask & SpvImageOperandsConstOffsetsMask ? "textureGatherOffsets" :
					   mask & SpvImageOperandsMinLodMask ? "a minimum LOD (sparse clamp)" :
					   "these image operands";
			return FAIL(c, XT_ERR_UNSUPPORTED, "texture lookups with %s are not supported by the driver",
				    what);
		}
		if ((mask & SpvImageOperandsBiasMask) &&
		    ((op != SpvOpImageSampleImplicitLod && op != SpvOpImageSampleProjImplicitLod) ||
		     (mask & SpvImageOperandsLodMask)))
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: image operand Bias other than alone on an implicit-LOD "
				    "lookup");
		if (mask & SpvImageOperandsBiasMask)
			bias_id = lod_id = k < n ? w[k++] : 0;
		if (mask & SpvImageOperandsLodMask)
			lod_id = k < n ? w[k++] : 0;
		if (mask & SpvImageOperandsGradMask) {
			dx_id = k + 1 < n ? w[k] : 0;
			dy_id = k + 1 < n ? w[k + 1] : 0;
			k += 2;
		}
		if (mask & (SpvImageOperandsConstOffsetMask | SpvImageOperandsOffsetMask))
			off_id = k < n ? w[k++] : 0;
		if (((mask & (SpvImageOperandsBiasMask | SpvImageOperandsLodMask)) && !lod_id) ||
		    ((mask & SpvImageOperandsGradMask) && !dy_id) ||
		    ((mask & (SpvImageOperandsConstOffsetMask | SpvImageOperandsOffsetMask)) && !off_id))
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: an image operand without its value");
		bool explicit_lod = op == SpvOpImageSampleExplicitLod || op == SpvOpImageSampleProjExplicitLod;
		if (op != SpvOpImageFetch &&
		    explicit_lod != !!(mask & (SpvImageOperandsLodMask | SpvImageOperandsGradMask)))
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: Lod or Grad other than on an explicit-LOD lookup");
		if (dx_id && (img->image_dim != SpvDim2D))
			return FAIL(c, XT_ERR_UNSUPPORTED, "texture lookups with explicit gradients (textureGrad) on "
				    "other than 2D and 2D array samplers are not supported by the driver");
		if (off_id && op != SpvOpImageFetch && img->image_dim == SpvDimCube)
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: a texel offset on a cube-map lookup");
		if (op == SpvOpImageGather) {
			const struct drv_sid *cs = n > 5 ? sid(c, w[5]) : NULL;
			if (img->image_dim != SpvDim2D)
				return FAIL(c, XT_ERR_UNSUPPORTED, "textureGather on other than 2D and 2D array samplers "
					    "is not supported by the driver");
			if (mask & (SpvImageOperandsBiasMask | SpvImageOperandsLodMask | SpvImageOperandsGradMask))
				return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: OpImageGather with a LOD operand");
			if (!cs || cs->kind != DRV_SID_CONST || cs->cval[0] > 3)
				return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: OpImageGather component not a constant 0..3");
			comp = (uint32_t)cs->cval[0];
		}
	}
	if (!get(c, w[4], &coord))
		return false;
	if (lod_id && !get(c, lod_id, &lod)) {
		put(&coord);
		return false;
	}
	da = img->image_arrayed || img->image_dim == SpvDim3D || img->image_dim == SpvDimCube;
	if (coord.n < 2u + da + proj || type_slots(c, w[1]) != 4) {
		put(&coord);
		put(&lod);
		return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: texture lookup with %u coordinates", coord.n);
	}
	memcpy(cv, coord.v, (coord.n < 4 ? coord.n : 4) * sizeof *cv);
	if (proj) {
		/* textureProj: the coordinates divided by q, the component
		 * after them (SPIR-V 1.6 OpImageSampleProj*; GLSL 4.60 §8.9.2),
		 * as a multiplication by 1 / q (radeonsi / ACO: NIR's
		 * lower_txp); the implicit LOD then follows the divided ones,
		 * as GL 4.6 §8.14.1 takes it from s / q */
		if (da > (img->image_dim == SpvDim3D) || img->image_dim == SpvDimCube) {
			put(&coord);
			put(&lod);
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: a projective lookup on an array or cube-map sampler");
		}
		uint32_t rq = V1(c, ISA_OP_V_RCP_F32, cv[2 + da]);
		for (unsigned k = 0; k < 2 + da; k++)
			cv[k] = fmul_(c, cv[k], rq);
	}
	if (off_id && op != SpvOpImageFetch) {
		off_pk = pack_offset(c, off_id, img->image_dim == SpvDim3D ? 3 : 2);
		if (!off_pk) {
			put(&coord);
			put(&lod);
			return false;
		}
	} else if (off_id) {
		/* texelFetchOffset: the offset added to the integer texel
		 * coordinates i, j (3D: k; not an array's layer) before the
		 * bounds check (GL 4.6 §8.14.2, "Texel Fetches": reads outside
		 * the level stay out of range, 0 here as texelFetch's) */
		struct opnd off;
		unsigned dims = img->image_dim == SpvDim3D ? 3 : 2;
		if (!get(c, off_id, &off)) {
			put(&coord);
			put(&lod);
			return false;
		}
		if (off.n != dims) {
			put(&coord);
			put(&lod);
			put(&off);
			return FAIL(c, XT_ERR_CORRUPT, "SPIR-V: a texel offset of %u components", off.n);
		}
		for (unsigned k = 0; k < dims; k++)
			cv[k] = V2(c, ISA_OP_V_ADD_U32, cv[k], off.v[k]);
		put(&off);
	}
	if (op == SpvOpImageFetch) {
		const struct drv_sid *ls = lod_id ? sid(c, lod_id) : NULL;
		kind = !lod_id || (ls && ls->kind == DRV_SID_CONST && ls->cval[0] == 0) ? DRV_IMG_LOAD : DRV_IMG_LOAD_MIP;
	} else if (op == SpvOpImageGather) {
		/* GL 4.6 §8.14.2: gathered from the base level whatever the
		 * filters, so no LOD and no helper lanes */
		kind = off_pk ? DRV_IMG_GATHER4_LZ_O : DRV_IMG_GATHER4_LZ;
	} else if (dx_id) {
		kind = off_pk ? DRV_IMG_SAMPLE_D_O : DRV_IMG_SAMPLE_D;
	} else if (c->ir->stage == DRV_HW_PS && (bias_id || !lod_id)) {
		kind = bias_id ? (off_pk ? DRV_IMG_SAMPLE_B_O : DRV_IMG_SAMPLE_B) : off_pk ? DRV_IMG_SAMPLE_O : DRV_IMG_SAMPLE;
		if (!drv_sx_whole_quad(c, "implicit-LOD texture lookups")) {
			put(&coord);
			put(&lod);
			return false;
		}
	} else {
		/* the Lod, or no derivatives: LOD 0 (+ the bias) */
		kind = off_pk ? DRV_IMG_SAMPLE_L_O : DRV_IMG_SAMPLE_L;
	}
	{
		/* GCN's address order: offset, bias, derivatives, coordinates, LOD */
		bool with_lod = kind == DRV_IMG_LOAD_MIP || kind == DRV_IMG_SAMPLE_L || kind == DRV_IMG_SAMPLE_L_O;
		struct drv_ins in = { .op = DRV_OP_IMAGE, .size = 4, .n_src = (uint8_t)(2 + da + drv_img_extra(kind)),
				      .flags = da ? ISA_FLAG_DA : 0, .a = slot, .b = kind, .imm = comp };
		unsigned b = 0;
		if (off_pk)
			in.src[b++] = off_pk;
		if (kind == DRV_IMG_SAMPLE_B || kind == DRV_IMG_SAMPLE_B_O)
			in.src[b++] = lod.v[0];
		if (dx_id && !grads(c, dx_id, dy_id, &in.src[b])) {
			put(&coord);
			put(&lod);
			return false;
		}
		b += dx_id ? 4 : 0;
		in.src[b] = cv[0];
		in.src[b + 1] = cv[1];
		if (img->image_dim == SpvDimCube)
			cube_coords(c, cv, &in.src[b]);
		else if (da)
			in.src[b + 2] = cv[2];
		if (with_lod)
			in.src[b + 2 + da] = lod_id ? lod.v[0] : K(c, 0);
		uint32_t res = drv_ir_emit(c->ir, &in);
		for (unsigned k = 0; k < 4; k++)
			out[k] = drv_ir_op1(c->ir, DRV_OP_COMPONENT, 1, res, k, 0);
	}
	ok = def(c, w[2], w[1], out, 4);
	put(&coord);
	put(&lod);
	return ok;
}
