/*
 * gm_db.c - the depth / stencil backend (docs/pixel-pipeline.md "DB"):
 * linear depth and stencil surfaces, the depth and stencil tests of
 * DB_DEPTH_CONTROL, the stencil operations of DB_STENCIL_CONTROL with
 * DB_STENCILREFMASK(_BF), the viewport depth clamp, and the ZPASS counter
 * that occlusion queries read (EVENT_WRITE ZPASS_DONE, gm_cp_so.c).
 */
#include <math.h>
#include <string.h>

#include "gm_px.h"

static uint8_t *surface(struct gm *gm, uint32_t base_reg, uint64_t bytes, const char *what)
{
	uint64_t va = (uint64_t)gm_regs_get(&gm->regs, base_reg) << 8;
	uint8_t *p = gm_mem_ptr(&gm->mem, va, bytes);
	if (!p)
		gm_fault_record(&gm->faults, GM_FAULT_BAD_ADDRESS, va,
				"%s surface at 0x%llx (%llu bytes) is not inside one BO", what,
				(unsigned long long)va, (unsigned long long)bytes);
	return p;
}

bool gm_db_load(struct gm *gm, struct gm_px *px)
{
	struct gm_regs *r = &gm->regs;
	struct gm_px_db *db = &px->db;
	uint32_t zinfo = gm_regs_get(r, REG_DB_Z_INFO), sinfo = gm_regs_get(r, REG_DB_STENCIL_INFO);
	uint32_t size = gm_regs_get(r, REG_DB_DEPTH_SIZE), count = gm_regs_get(r, REG_DB_COUNT_CONTROL);
	uint64_t n;

	memset(db, 0, sizeof *db);
	db->zfmt = DB_Z_INFO_FORMAT_GET(zinfo);
	db->count = !DB_COUNT_CONTROL_ZPASS_INCREMENT_DISABLE_GET(count);
	db->depth_control = gm_regs_get(r, REG_DB_DEPTH_CONTROL);
	db->stencil_control = gm_regs_get(r, REG_DB_STENCIL_CONTROL);
	db->ref[0] = gm_regs_get(r, REG_DB_STENCILREFMASK);
	db->ref[1] = gm_regs_get(r, REG_DB_STENCILREFMASK_BF);
	{
		uint32_t zmin = gm_regs_get(r, REG_PA_SC_VPORT_ZMIN_0), zmax = gm_regs_get(r, REG_PA_SC_VPORT_ZMAX_0);
		memcpy(&db->zmin, &zmin, 4);
		memcpy(&db->zmax, &zmax, 4);
	}
	if (db->zfmt == V_Z_INVALID && !DB_STENCIL_INFO_FORMAT_GET(sinfo))
		return true;
	if (DB_DEPTH_INFO_ARRAY_MODE_GET(gm_regs_get(r, REG_DB_DEPTH_INFO)) != V_ARRAY_LINEAR_ALIGNED) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, REG_DB_DEPTH_INFO,
				"pixel pipeline: DB_DEPTH_INFO.ARRAY_MODE is not ARRAY_LINEAR_ALIGNED (the model's surfaces are linear)");
		px->failed = true;
		return false;
	}
	db->pitch = (DB_DEPTH_SIZE_PITCH_TILE_MAX_GET(size) + 1) * 8;
	db->height = (DB_DEPTH_SIZE_HEIGHT_TILE_MAX_GET(size) + 1) * 8;
	db->samples = 1u << DB_Z_INFO_NUM_SAMPLES_GET(zinfo);
	if (db->samples != px->target_samples && px->target_samples) {
		gm_fault_record(&gm->faults, GM_FAULT_BAD_STATE, REG_DB_Z_INFO,
				"pixel pipeline: depth buffer has %u samples, the colour targets %u",
				db->samples, px->target_samples);
		px->failed = true;
		return false;
	}
	if (!px->target_samples)
		px->target_samples = db->samples;
	n = (uint64_t)db->pitch * db->height * db->samples;
	if (db->zfmt != V_Z_INVALID &&
	    !(db->z = surface(gm, REG_DB_Z_READ_BASE, n * (db->zfmt == V_Z_16 ? 2 : 4), "depth")))
		px->failed = true;
	if (DB_STENCIL_INFO_FORMAT_GET(sinfo) && !(db->s = surface(gm, REG_DB_STENCIL_READ_BASE, n, "stencil")))
		px->failed = true;
	if (px->sc_x1 > (int32_t)db->pitch) px->sc_x1 = (int32_t)db->pitch;
	if (px->sc_y1 > (int32_t)db->height) px->sc_y1 = (int32_t)db->height;
	return !px->failed;
}

static bool compare(unsigned func, uint32_t a, uint32_t b)
{
	switch (func) {
	case V_FRAG_NEVER: return false;
	case V_FRAG_LESS: return a < b;
	case V_FRAG_EQUAL: return a == b;
	case V_FRAG_LEQUAL: return a <= b;
	case V_FRAG_GREATER: return a > b;
	case V_FRAG_NOTEQUAL: return a != b;
	case V_FRAG_GEQUAL: return a >= b;
	default: return true;
	}
}

static bool comparef(unsigned func, float a, float b)
{
	switch (func) {
	case V_FRAG_NEVER: return false;
	case V_FRAG_LESS: return a < b;
	case V_FRAG_EQUAL: return a == b;
	case V_FRAG_LEQUAL: return a <= b;
	case V_FRAG_GREATER: return a > b;
	case V_FRAG_NOTEQUAL: return a != b;
	case V_FRAG_GEQUAL: return a >= b;
	default: return true;
	}
}

static uint8_t stencil_op(unsigned op, uint8_t cur, uint32_t refmask)
{
	uint8_t ref = (uint8_t)DB_STENCILREFMASK_STENCILTESTVAL_GET(refmask);
	uint8_t opval = (uint8_t)DB_STENCILREFMASK_STENCILOPVAL_GET(refmask);
	switch (op) {
	case V_STENCIL_ZERO: return 0;
	case V_STENCIL_ONES: return 0xFF;
	case V_STENCIL_REPLACE_TEST: return ref;
	case V_STENCIL_REPLACE_OP: return opval;
	case V_STENCIL_ADD_CLAMP: return cur + opval > 0xFF ? 0xFF : (uint8_t)(cur + opval);
	case V_STENCIL_SUB_CLAMP: return cur < opval ? 0 : (uint8_t)(cur - opval);
	case V_STENCIL_INVERT: return (uint8_t)~cur;
	case V_STENCIL_ADD_WRAP: return (uint8_t)(cur + opval);
	case V_STENCIL_SUB_WRAP: return (uint8_t)(cur - opval);
	case V_STENCIL_AND: return cur & opval;
	case V_STENCIL_OR: return cur | opval;
	case V_STENCIL_XOR: return cur ^ opval;
	case V_STENCIL_NAND: return (uint8_t)~(cur & opval);
	case V_STENCIL_NOR: return (uint8_t)~(cur | opval);
	case V_STENCIL_XNOR: return (uint8_t)~(cur ^ opval);
	default: return cur;
	}
}

bool gm_db_sample(struct gm_px *px, unsigned x, unsigned y, unsigned s, float z, bool front, int stencil_ref)
{
	struct gm_px_db *db = &px->db;
	uint32_t dc = db->depth_control;
	size_t idx = ((size_t)y * db->pitch + x) * db->samples + s;
	bool zpass = true, spass = true;
	bool back = !front && DB_DEPTH_CONTROL_BACKFACE_ENABLE_GET(dc);
	uint32_t refmask = db->ref[back];

	/* the viewport depth range clamp */
	if (z < db->zmin) z = db->zmin;
	if (z > db->zmax) z = db->zmax;
	if (db->s && DB_DEPTH_CONTROL_STENCIL_ENABLE_GET(dc)) {
		uint8_t cur = db->s[idx], mask = (uint8_t)DB_STENCILREFMASK_STENCILMASK_GET(refmask);
		uint8_t wmask = (uint8_t)DB_STENCILREFMASK_STENCILWRITEMASK_GET(refmask), nv;
		unsigned func = back ? DB_DEPTH_CONTROL_STENCILFUNC_BF_GET(dc) : DB_DEPTH_CONTROL_STENCILFUNC_GET(dc);
		unsigned sh = back ? 12 : 0, op;
		if (stencil_ref >= 0)
			refmask = (refmask & ~0xFFu) | (uint32_t)stencil_ref;
		spass = compare(func, DB_STENCILREFMASK_STENCILTESTVAL_GET(refmask) & mask, cur & mask);
		if (spass && db->z && DB_DEPTH_CONTROL_Z_ENABLE_GET(dc))
			goto depth;   /* the stencil op depends on the depth result */
		op = (db->stencil_control >> (sh + (spass ? 4 : 0))) & 0xF;   /* FAIL or ZPASS */
		nv = stencil_op(op, cur, refmask);
		db->s[idx] = (uint8_t)((cur & ~wmask) | (nv & wmask));
		if (!spass)
			return false;
		goto counted;
	}
depth:
	if (db->z && DB_DEPTH_CONTROL_Z_ENABLE_GET(dc)) {
		unsigned func = DB_DEPTH_CONTROL_ZFUNC_GET(dc);
		bool wr = DB_DEPTH_CONTROL_Z_WRITE_ENABLE_GET(dc);
		if (db->zfmt == V_Z_32_FLOAT) {
			float cur;
			memcpy(&cur, db->z + idx * 4, 4);
			zpass = comparef(func, z, cur);
			if (zpass && wr)
				memcpy(db->z + idx * 4, &z, 4);
		} else {
			double zc = z < 0 ? 0 : z > 1 ? 1 : z;
			if (db->zfmt == V_Z_16) {
				uint16_t cur, nz = (uint16_t)nearbyint(zc * 65535.0);
				memcpy(&cur, db->z + idx * 2, 2);
				zpass = compare(func, nz, cur);
				if (zpass && wr)
					memcpy(db->z + idx * 2, &nz, 2);
			} else {
				uint32_t cur, nz = (uint32_t)nearbyint(zc * 16777215.0);
				memcpy(&cur, db->z + idx * 4, 4);
				zpass = compare(func, nz, cur & 0xFFFFFF);
				if (zpass && wr) {
					cur = (cur & 0xFF000000u) | nz;   /* the high 8 bits are kept */
					memcpy(db->z + idx * 4, &cur, 4);
				}
			}
		}
		if (db->s && DB_DEPTH_CONTROL_STENCIL_ENABLE_GET(dc)) {
			uint8_t cur = db->s[idx];
			uint8_t wmask = (uint8_t)DB_STENCILREFMASK_STENCILWRITEMASK_GET(refmask);
			unsigned sh = back ? 12 : 0;
			unsigned op = (db->stencil_control >> (sh + (zpass ? 4 : 8))) & 0xF;   /* ZPASS or ZFAIL */
			uint8_t nv;
			if (stencil_ref >= 0)
				refmask = (refmask & ~0xFFu) | (uint32_t)stencil_ref;
			nv = stencil_op(op, cur, refmask);
			db->s[idx] = (uint8_t)((cur & ~wmask) | (nv & wmask));
		}
		if (!zpass)
			return false;
	}
counted:
	(void)spass;
	if (db->count)
		px->gm->zpass_count++;
	return true;
}
