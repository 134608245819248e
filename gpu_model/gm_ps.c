/*
 * gm_ps.c - the SPI for pixel shaders and the glue of the pixel pipeline
 * (docs/isa.md "Pixel shaders", docs/pixel-pipeline.md "SPI"): the draw's
 * state from the registers, the VS exports kept per vertex, quads packed
 * into waves of 16 with their primitives' interpolation data, the input
 * VGPRs, the exports, and the DB / CB work of each written sample in
 * primitive order (early Z before the shader, late Z after it).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "gm_px.h"
#include "xt_fault.h"

static float reg_f(struct gm *gm, uint32_t reg)
{
	uint32_t v = gm_regs_get(&gm->regs, reg);
	float f;
	memcpy(&f, &v, 4);
	return f;
}

static int sext4(unsigned v)
{
	return (int)(v ^ 8u) - 8;
}

static void scissor_and(struct gm_px *px, uint32_t tl, uint32_t br, bool window_offset)
{
	int32_t x0 = (int32_t)PA_SC_WINDOW_SCISSOR_TL_TL_X_GET(tl), y0 = (int32_t)PA_SC_WINDOW_SCISSOR_TL_TL_Y_GET(tl);
	int32_t x1 = (int32_t)PA_SC_WINDOW_SCISSOR_BR_BR_X_GET(br), y1 = (int32_t)PA_SC_WINDOW_SCISSOR_BR_BR_Y_GET(br);
	if (window_offset && !PA_SC_WINDOW_SCISSOR_TL_WINDOW_OFFSET_DISABLE_GET(tl)) {
		uint32_t off = gm_regs_get(&px->gm->regs, REG_PA_SC_WINDOW_OFFSET);
		int32_t ox = (int16_t)PA_SC_WINDOW_OFFSET_WINDOW_X_OFFSET_GET(off);
		int32_t oy = (int16_t)PA_SC_WINDOW_OFFSET_WINDOW_Y_OFFSET_GET(off);
		x0 += ox, x1 += ox, y0 += oy, y1 += oy;
	}
	if (x0 > px->sc_x0) px->sc_x0 = x0;
	if (y0 > px->sc_y0) px->sc_y0 = y0;
	if (x1 < px->sc_x1) px->sc_x1 = x1;
	if (y1 < px->sc_y1) px->sc_y1 = y1;
}

static bool state_fault(struct gm_px *px, uint32_t reg, const char *msg)
{
	gm_fault_record(&px->gm->faults, GM_FAULT_BAD_STATE, reg, "pixel pipeline: %s", msg);
	px->failed = true;
	return false;
}

bool gm_px_begin(struct gm *gm, struct gm_px *px)
{
	struct gm_regs *r = &gm->regs;
	uint32_t aa = gm_regs_get(r, REG_PA_SC_AA_CONFIG), mode0 = gm_regs_get(r, REG_PA_SC_MODE_CNTL_0);
	uint32_t vtx = gm_regs_get(r, REG_PA_SU_VTX_CNTL);
	uint32_t psize = gm_regs_get(r, REG_PA_SU_POINT_SIZE), minmax = gm_regs_get(r, REG_PA_SU_POINT_MINMAX);
	uint32_t ena, addr;

	memset(px, 0, offsetof(struct gm_px, vtx));
	px->gm = gm;
	if (!gm_regs_get(r, REG_SPI_SHADER_PGM_LO_PS) && !gm_regs_get(r, REG_SPI_SHADER_PGM_HI_PS))
		return false;         /* no pixel shader: nothing is drawn (docs/isa.md) */
	px->on = true;
	px->clip_cntl = gm_regs_get(r, REG_PA_CL_CLIP_CNTL);
	px->su_mode = gm_regs_get(r, REG_PA_SU_SC_MODE_CNTL);
	px->vte = gm_regs_get(r, REG_PA_CL_VTE_CNTL);
	px->vs_out_cntl = gm_regs_get(r, REG_PA_CL_VS_OUT_CNTL);
	{
		static const uint32_t sc[3] = { REG_PA_CL_VPORT_XSCALE_0, REG_PA_CL_VPORT_YSCALE_0, REG_PA_CL_VPORT_ZSCALE_0 };
		static const uint32_t of[3] = { REG_PA_CL_VPORT_XOFFSET_0, REG_PA_CL_VPORT_YOFFSET_0, REG_PA_CL_VPORT_ZOFFSET_0 };
		for (unsigned k = 0; k < 3; k++) {
			px->vp_scale[k] = (px->vte >> (2 * k) & 1) ? reg_f(gm, sc[k]) : 1.0f;
			px->vp_offset[k] = (px->vte >> (2 * k + 1) & 1) ? reg_f(gm, of[k]) : 0.0f;
		}
	}
	px->gb_x = reg_f(gm, REG_PA_CL_GB_HORZ_CLIP_ADJ);
	px->gb_y = reg_f(gm, REG_PA_CL_GB_VERT_CLIP_ADJ);
	if (!(px->gb_x >= 1.0f) || !isfinite(px->gb_x)) px->gb_x = 1.0f;
	if (!(px->gb_y >= 1.0f) || !isfinite(px->gb_y)) px->gb_y = 1.0f;
	px->disc_x = reg_f(gm, REG_PA_CL_GB_HORZ_DISC_ADJ);
	px->disc_y = reg_f(gm, REG_PA_CL_GB_VERT_DISC_ADJ);
	if (!(px->disc_x >= 1.0f) || !isfinite(px->disc_x)) px->disc_x = 1.0f;
	if (!(px->disc_y >= 1.0f) || !isfinite(px->disc_y)) px->disc_y = 1.0f;
	for (unsigned i = 0; i < 6; i++) {
		px->ucp[i][0] = reg_f(gm, REG_PA_CL_UCP_X(i));
		px->ucp[i][1] = reg_f(gm, REG_PA_CL_UCP_Y(i));
		px->ucp[i][2] = reg_f(gm, REG_PA_CL_UCP_Z(i));
		px->ucp[i][3] = reg_f(gm, REG_PA_CL_UCP_W(i));
	}
	/* state the model does not apply: a fault, never a wrong picture */
	if (px->su_mode & (PA_SU_SC_MODE_CNTL_POLY_OFFSET_FRONT_ENABLE__MASK |
			   PA_SU_SC_MODE_CNTL_POLY_OFFSET_BACK_ENABLE__MASK |
			   PA_SU_SC_MODE_CNTL_POLY_OFFSET_PARA_ENABLE__MASK))
		return state_fault(px, REG_PA_SU_SC_MODE_CNTL, "polygon offset is not modelled");
	if (PA_SC_MODE_CNTL_0_LINE_STIPPLE_ENABLE_GET(mode0))
		return state_fault(px, REG_PA_SC_MODE_CNTL_0, "line stipple is not modelled");
	if (DB_ALPHA_TO_MASK_ALPHA_TO_MASK_ENABLE_GET(gm_regs_get(r, REG_DB_ALPHA_TO_MASK)))
		return state_fault(px, REG_DB_ALPHA_TO_MASK, "alpha to coverage is not modelled");
	if (DB_DEPTH_CONTROL_DEPTH_BOUNDS_ENABLE_GET(gm_regs_get(r, REG_DB_DEPTH_CONTROL)))
		return state_fault(px, REG_DB_DEPTH_CONTROL, "the depth bounds test is not modelled");
	if (!PA_SU_VTX_CNTL_PIX_CENTER_GET(vtx))
		return state_fault(px, REG_PA_SU_VTX_CNTL, "PA_SU_VTX_CNTL.PIX_CENTER = 0 (D3D9 pixel centres) is not modelled");
	px->point_half = PA_SU_POINT_SIZE_WIDTH_GET(psize) / 16.0f;
	px->point_min = PA_SU_POINT_MINMAX_MIN_SIZE_GET(minmax) / 16.0f;
	px->point_max = PA_SU_POINT_MINMAX_MAX_SIZE_GET(minmax) / 16.0f;
	px->line_half = PA_SU_LINE_CNTL_WIDTH_GET(gm_regs_get(r, REG_PA_SU_LINE_CNTL)) / 16.0f;

	/* samples and their positions */
	px->samples = 1;
	if (PA_SC_AA_CONFIG_MSAA_NUM_SAMPLES_GET(aa) > 3)
		return state_fault(px, REG_PA_SC_AA_CONFIG, "only 1, 2, 4 and 8 samples are modelled (PA_SC_AA_CONFIG.MSAA_NUM_SAMPLES)");
	if (PA_SC_MODE_CNTL_0_MSAA_ENABLE_GET(mode0))
		px->samples = 1u << PA_SC_AA_CONFIG_MSAA_NUM_SAMPLES_GET(aa);
	{
		/* four registers per quad pixel, four samples per register */
		static const uint32_t locs[4] = { REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X1Y0_0,
						  REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y1_0, REG_PA_SC_AA_SAMPLE_LOCS_PIXEL_X1Y1_0 };
		uint32_t m0 = gm_regs_get(r, REG_PA_SC_AA_MASK_X0Y0_X1Y0), m1 = gm_regs_get(r, REG_PA_SC_AA_MASK_X0Y1_X1Y1);
		uint32_t cp = gm_regs_get(r, REG_PA_SC_CENTROID_PRIORITY_0);
		for (unsigned p = 0; p < 4; p++)
			for (unsigned s = 0; s < GM_PX_MAX_SAMPLES; s++) {
				uint32_t v = gm_regs_get(r, locs[p] + 4 * (s / 4));
				px->loc[p][s][0] = (int8_t)sext4(v >> (8 * (s % 4)) & 0xF);
				px->loc[p][s][1] = (int8_t)sext4(v >> (8 * (s % 4) + 4) & 0xF);
			}
		px->aa_mask[0] = (uint16_t)m0;
		px->aa_mask[1] = (uint16_t)(m0 >> 16);
		px->aa_mask[2] = (uint16_t)m1;
		px->aa_mask[3] = (uint16_t)(m1 >> 16);
		for (unsigned k = 0; k < GM_PX_MAX_SAMPLES; k++)
			px->centroid_order[k] = (uint8_t)((cp >> (4 * k)) & (GM_PX_MAX_SAMPLES - 1));
	}

	/* SPI */
	ena = gm_regs_get(r, REG_SPI_PS_INPUT_ENA);
	addr = gm_regs_get(r, REG_SPI_PS_INPUT_ADDR);
	if (ena != addr)
		return state_fault(px, REG_SPI_PS_INPUT_ADDR, "SPI_PS_INPUT_ADDR differs from SPI_PS_INPUT_ENA (the model requires them equal)");
	if (!(ena & 0x7F) && !(ena & 0xFF00))
		return state_fault(px, REG_SPI_PS_INPUT_ENA, "SPI_PS_INPUT_ENA enables no input (GCN requires one)");
	px->ena = ena;
	px->n_inputs = SPI_PS_IN_CONTROL_NUM_INTERP_GET(gm_regs_get(r, REG_SPI_PS_IN_CONTROL));
	if (px->n_inputs > GM_PX_MAX_PARAMS)
		return state_fault(px, REG_SPI_PS_IN_CONTROL, "SPI_PS_IN_CONTROL.NUM_INTERP above 32");
	for (unsigned i = 0; i < px->n_inputs; i++)
		px->input_cntl[i] = gm_regs_get(r, REG_SPI_PS_INPUT_CNTL(i));
	px->interp_cntl = gm_regs_get(r, REG_SPI_INTERP_CONTROL_0);
	px->db_shader = gm_regs_get(r, REG_DB_SHADER_CONTROL);
	px->z_export_fmt = SPI_SHADER_Z_FORMAT_Z_EXPORT_FORMAT_GET(gm_regs_get(r, REG_SPI_SHADER_Z_FORMAT));
	{
		unsigned zo = DB_SHADER_CONTROL_Z_ORDER_GET(px->db_shader);
		px->early_z = (zo == V_EARLY_Z_THEN_LATE_Z || zo == V_EARLY_Z_THEN_RE_Z) &&
			      !DB_SHADER_CONTROL_KILL_ENABLE_GET(px->db_shader) &&
			      !(px->db_shader & (DB_SHADER_CONTROL_Z_EXPORT_ENABLE__MASK |
						 DB_SHADER_CONTROL_STENCIL_TEST_VAL_EXPORT_ENABLE__MASK |
						 DB_SHADER_CONTROL_MASK_EXPORT_ENABLE__MASK));
	}
	if (DB_EQAA_PS_ITER_SAMPLES_GET(gm_regs_get(r, REG_DB_EQAA)))
		return state_fault(px, REG_DB_EQAA, "per-sample shading (DB_EQAA.PS_ITER_SAMPLES) is not modelled");

	/* the scissor: window, generic, screen, viewport 0 */
	px->sc_x0 = px->sc_y0 = 0;
	px->sc_x1 = px->sc_y1 = 16384;
	scissor_and(px, gm_regs_get(r, REG_PA_SC_WINDOW_SCISSOR_TL), gm_regs_get(r, REG_PA_SC_WINDOW_SCISSOR_BR), true);
	scissor_and(px, gm_regs_get(r, REG_PA_SC_GENERIC_SCISSOR_TL), gm_regs_get(r, REG_PA_SC_GENERIC_SCISSOR_BR), true);
	{
		uint32_t tl = gm_regs_get(r, REG_PA_SC_SCREEN_SCISSOR_TL), br = gm_regs_get(r, REG_PA_SC_SCREEN_SCISSOR_BR);
		int32_t x0 = (int16_t)PA_SC_SCREEN_SCISSOR_TL_TL_X_GET(tl), y0 = (int16_t)PA_SC_SCREEN_SCISSOR_TL_TL_Y_GET(tl);
		int32_t x1 = (int16_t)PA_SC_SCREEN_SCISSOR_BR_BR_X_GET(br), y1 = (int16_t)PA_SC_SCREEN_SCISSOR_BR_BR_Y_GET(br);
		if (x0 > px->sc_x0) px->sc_x0 = x0;
		if (y0 > px->sc_y0) px->sc_y0 = y0;
		if (x1 < px->sc_x1) px->sc_x1 = x1;
		if (y1 < px->sc_y1) px->sc_y1 = y1;
	}
	if (PA_SC_MODE_CNTL_0_VPORT_SCISSOR_ENABLE_GET(mode0))
		scissor_and(px, gm_regs_get(r, REG_PA_SC_VPORT_SCISSOR_TL(0)), gm_regs_get(r, REG_PA_SC_VPORT_SCISSOR_BR(0)), true);

	if (!gm_cb_load(gm, px) || !gm_db_load(gm, px))
		return false;
	if (!px->target_samples)
		px->target_samples = px->samples;
	if (px->samples > px->target_samples)
		return state_fault(px, REG_PA_SC_AA_CONFIG, "more raster samples than the surfaces have");
	if (!gm_stage_load(gm, &px->ps, REG_SPI_SHADER_PGM_LO_PS, REG_SPI_SHADER_PGM_HI_PS,
			   REG_SPI_SHADER_PGM_RSRC1_PS, REG_SPI_SHADER_PGM_RSRC2_PS,
			   REG_SPI_SHADER_USER_DATA_PS_0, "PS")) {
		px->failed = true;
		return false;
	}
	{
		/* the input VGPRs must fit the allocation */
		static const uint8_t regs[16] = { 2, 2, 2, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
		unsigned n = 0;
		for (unsigned b = 0; b < 16; b++)
			n += (ena >> b & 1) ? regs[b] : 0;
		if (n > px->ps.num_vgprs)
			return state_fault(px, REG_SPI_SHADER_PGM_RSRC1_PS,
					   "SPI_PS_INPUT_ENA loads more VGPRs than SPI_SHADER_PGM_RSRC1_PS.VGPRS allocates");
	}
	return true;
}

void gm_px_end(struct gm_px *px)
{
	if (px->on && !px->failed)
		gm_ps_flush(px);
	if (px->ps.ok)
		gm_stage_fini(&px->ps);
}

void gm_px_vs_wave_begin(struct gm_px *px)
{
	memset(px->vtx, 0, sizeof *px->vtx * 64);
}

void gm_px_vs_export(void *ctx, struct gm_wave *w, unsigned target, unsigned vgpr, uint64_t exec)
{
	struct gm_px *px = ctx;

	if (target >= ISA_EXP_PARAM0 && target < ISA_EXP_PARAM0 + GM_PX_MAX_PARAMS)
		px->vs_param_mask |= 1u << (target - ISA_EXP_PARAM0);
	for (unsigned l = 0; l < 64; l++) {
		struct gm_px_vtx *v = &px->vtx[l];
		float c[4];
		if (!(exec >> l & 1))
			continue;
		for (unsigned k = 0; k < 4; k++)
			memcpy(&c[k], &w->v[vgpr + k][l], 4);
		if (target == ISA_EXP_POS0) {
			memcpy(v->pos, c, sizeof c);
		} else if (target > ISA_EXP_POS0 && target < ISA_EXP_POS0 + 4) {
			/* radeonsi packs the misc vector and the clip-distance
			 * vectors after pos0 in this order, each if enabled */
			unsigned k = target - ISA_EXP_POS0, slot = 1;
			if (PA_CL_VS_OUT_CNTL_VS_OUT_MISC_VEC_ENA_GET(px->vs_out_cntl) && k == slot++)
				v->psize = c[0];
			else if (PA_CL_VS_OUT_CNTL_VS_OUT_CCDIST0_VEC_ENA_GET(px->vs_out_cntl) && k == slot++)
				memcpy(v->dist, c, sizeof c);
			else if (PA_CL_VS_OUT_CNTL_VS_OUT_CCDIST1_VEC_ENA_GET(px->vs_out_cntl) && k == slot)
				memcpy(v->dist + 4, c, sizeof c);
		} else if (target >= ISA_EXP_PARAM0 && target < ISA_EXP_PARAM0 + GM_PX_MAX_PARAMS) {
			memcpy(v->param[target - ISA_EXP_PARAM0], c, sizeof c);
		}
	}
}

struct gm_px_tri *gm_ps_new_tri(struct gm_px *px)
{
	if (px->failed)
		return NULL;
	if (px->n_tris == GM_PX_WAVE_QUADS)
		gm_ps_flush(px);
	px->tri_open = true;
	px->tri_quads = 0;
	return &px->tris[px->n_tris++];
}

/* Screen-space barycentrics (b1, b2) of point (fx, fy) in pixels. */
static inline void bary(const struct gm_px_tri *t, double fx, double fy, double *b1, double *b2)
{
	*b1 = t->pb[0][0] * fx + t->pb[0][1] * fy + t->pb[0][2];
	*b2 = t->pb[1][0] * fx + t->pb[1][1] * fy + t->pb[1][2];
}

static float sample_z(const struct gm_px *px, const struct gm_px_tri *t, unsigned x, unsigned y,
		      unsigned pix, unsigned s)
{
	double fx = x + 0.5, fy = y + 0.5, b1, b2;
	if (px->samples > 1) {
		fx += px->loc[pix][s][0] / 16.0;
		fy += px->loc[pix][s][1] / 16.0;
	}
	bary(t, fx, fy, &b1, &b2);
	return (float)(t->z[0] + b1 * (t->z[1] - t->z[0]) + b2 * (t->z[2] - t->z[0]));
}

/* Whether the DB tests anything (else every sample passes). */
static bool db_tests(const struct gm_px *px)
{
	uint32_t dc = px->db.depth_control;
	return (px->db.z && DB_DEPTH_CONTROL_Z_ENABLE_GET(dc)) ||
	       (px->db.s && DB_DEPTH_CONTROL_STENCIL_ENABLE_GET(dc));
}

/* Bits set in a sample mask (inline: __builtin_popcount is a libgcc call
 * on the baseline x86-64 target, once per pixel here). */
static inline unsigned popcount8(uint8_t m)
{
	m = (uint8_t)(m - ((m >> 1) & 0x55));
	m = (uint8_t)((m & 0x33) + ((m >> 2) & 0x33));
	return (m + (m >> 4)) & 0x0F;
}

/* Early Z: the DB tests the quad's samples before the shader runs. */
static void early_z(struct gm_px *px, struct gm_px_quad *q, const struct gm_px_tri *t)
{
	if (!db_tests(px)) {
		if (px->db.count)
			for (unsigned i = 0; i < 4; i++)
				px->gm->zpass_count += popcount8(q->cov[i]);
		return;
	}
	for (unsigned i = 0; i < 4; i++) {
		unsigned x = q->x + (i & 1), y = q->y + (i >> 1), pass = 0;
		for (unsigned s = 0; s < px->target_samples && q->cov[i]; s++)
			if ((q->cov[i] >> s & 1) &&
			    gm_db_sample(px, x, y, s, sample_z(px, t, x, y, i, px->samples > 1 ? s : 0), t->front, -1))
				pass |= 1u << s;
		q->cov[i] = (uint8_t)pass;
	}
}

void gm_ps_quad(struct gm_px *px, const struct gm_px_quad *q0)
{
	struct gm_px_quad q = *q0;

	if (px->failed)
		return;
	if (px->early_z) {
		early_z(px, &q, &px->tris[px->n_tris - 1]);
		if (!(q.cov[0] | q.cov[1] | q.cov[2] | q.cov[3]))
			return;
	}
	if (px->n_quads == GM_PX_WAVE_QUADS)
		gm_ps_flush(px);
	q.prim = (uint8_t)(px->n_tris - 1);
	px->quads[px->n_quads++] = q;
	px->tri_quads++;
}

static void export_ps(void *ctx, struct gm_wave *w, const struct isa_inst *in, uint64_t exec)
{
	struct gm_px *px = ctx;
	unsigned t = in->imm, v = in->dst - ISA_OPD_VGPR0;

	for (unsigned l = 0; l < 64; l++) {
		if (!(exec >> l & 1))
			continue;
		if (t < 8)
			for (unsigned k = 0; k < 4; k++)
				px->exp_col[t][l][k] = w->v[v + k][l];
		else if (t == ISA_EXP_MRTZ)
			for (unsigned k = 0; k < 4; k++)
				px->exp_z[l][k] = w->v[v + k][l];
	}
	if (t < 8)
		px->exp_col_mask |= (uint16_t)(1u << t);
	else if (t == ISA_EXP_MRTZ)
		px->exp_z_done = true;
	if (in->flags & ISA_FLAG_DONE) {
		px->done = true;
		px->done_exec = exec;
	}
}

/* The input VGPRs of lane l (docs/isa.md "Pixel shaders"). */
static void load_inputs(struct gm_px *px, struct gm_wave *w, unsigned l, const struct gm_px_quad *q,
			const struct gm_px_tri *t)
{
	unsigned i = l & 3, x = q->x + (i & 1), y = q->y + (i >> 1), v = 0, cov = q->cov[i];
	double cx = x + 0.5, cy = y + 0.5, b1, b2, ccx = cx, ccy = cy, cb1, cb2;
	float f[3];

#define PUT(val) do { float _f = (val); memcpy(&w->v[v++][l], &_f, 4); } while (0)
#define PUTU(val) (w->v[v++][l] = (val))
	bary(t, cx, cy, &b1, &b2);
	/* centroid: the centre unless some but not all samples are covered */
	if (cov && cov != (1u << px->target_samples) - 1 && px->samples > 1) {
		for (unsigned k = 0; k < px->samples; k++) {
			unsigned s = px->centroid_order[k];
			if (cov >> s & 1) {
				ccx = cx + px->loc[i][s][0] / 16.0;
				ccy = cy + px->loc[i][s][1] / 16.0;
				break;
			}
		}
	}
	if (ccx != cx || ccy != cy)
		bary(t, ccx, ccy, &cb1, &cb2);
	else
		cb1 = b1, cb2 = b2;
	for (uint32_t todo = px->ena & 0xFFFF; todo; todo &= todo - 1) {
		unsigned bit = (unsigned)__builtin_ctz(todo);
		double pb1 = bit == 2 || bit == 6 ? cb1 : b1, pb2 = bit == 2 || bit == 6 ? cb2 : b2;
		switch (bit) {
		case 0: case 1: case 2: {      /* PERSP_SAMPLE, CENTER, CENTROID */
			double w0 = (1 - pb1 - pb2) * t->inv_w[0], w1 = pb1 * t->inv_w[1], w2 = pb2 * t->inv_w[2];
			double s = w0 + w1 + w2;
			PUT((float)(w1 / s));
			PUT((float)(w2 / s));
			break;
		}
		case 3: {                      /* PERSP_PULL_MODEL: 1/W, I/W, J/W */
			double iw = (1 - b1 - b2) * t->inv_w[0] + b1 * t->inv_w[1] + b2 * t->inv_w[2];
			f[0] = (float)iw;
			f[1] = (float)(b1 * t->inv_w[1]);
			f[2] = (float)(b2 * t->inv_w[2]);
			PUT(f[0]); PUT(f[1]); PUT(f[2]);
			break;
		}
		case 4: case 5: case 6:        /* LINEAR_* */
			PUT((float)pb1);
			PUT((float)pb2);
			break;
		case 7: PUT(0.0f); break;
		case 8: PUT((float)cx); break;
		case 9: PUT((float)cy); break;
		case 10: PUT((float)(t->z[0] + b1 * (t->z[1] - t->z[0]) + b2 * (t->z[2] - t->z[0]))); break;
		case 11: PUT((float)((1 - b1 - b2) * t->inv_w[0] + b1 * t->inv_w[1] + b2 * t->inv_w[2])); break;
		case 12: PUT(t->front ? 1.0f : 0.0f); break;
		case 13: PUTU(0); break;
		case 14: PUTU(cov); break;
		case 15: PUTU(x | y << 16); break;
		}
	}
#undef PUT
#undef PUTU
}

/* DB and CB for the written lanes, in lane (= primitive) order. */
static void write_lanes(struct gm_px *px, uint64_t mask)
{
	bool zexp = DB_SHADER_CONTROL_Z_EXPORT_ENABLE_GET(px->db_shader) && px->exp_z_done;
	bool sexp = DB_SHADER_CONTROL_STENCIL_TEST_VAL_EXPORT_ENABLE_GET(px->db_shader) && px->exp_z_done;
	bool mexp = DB_SHADER_CONTROL_MASK_EXPORT_ENABLE_GET(px->db_shader) && px->exp_z_done;
	uint32_t rts = 0;          /* render targets written: on and exported */

	for (unsigned rt = 0; rt < 8; rt++)
		if (px->cb[rt].on && (px->exp_col_mask >> rt & 1))
			rts |= 1u << rt;

	for (unsigned l = 0; l < px->n_quads * 4; l++) {
		const struct gm_px_quad *q = &px->quads[l >> 2];
		const struct gm_px_tri *t = &px->tris[q->prim];
		unsigned i = l & 3, x = q->x + (i & 1), y = q->y + (i >> 1), cov = q->cov[i], pass = 0;
		uint32_t z[4];

		if (!(mask >> l & 1) || !cov)
			continue;
		/* mrtz per SPI_SHADER_Z_FORMAT: x depth, y stencil, z mask */
		memcpy(z, px->exp_z[l], sizeof z);
		if (px->z_export_fmt == V_SPI_SHADER_32_R)
			z[1] = z[2] = 0;
		if (mexp && px->z_export_fmt == V_SPI_SHADER_32_ABGR)
			cov &= z[2];
		if (px->early_z) {
			pass = cov;
		} else if (!db_tests(px)) {
			pass = cov;
			if (px->db.count)
				px->gm->zpass_count += popcount8((uint8_t)cov);
		} else {
			for (unsigned s = 0; s < px->target_samples; s++) {
				float depth;
				if (!(cov >> s & 1))
					continue;
				if (zexp)
					memcpy(&depth, &z[0], 4);
				else
					depth = sample_z(px, t, x, y, i, px->samples > 1 ? s : 0);
				if (gm_db_sample(px, x, y, s, depth, t->front,
						 sexp && px->z_export_fmt != V_SPI_SHADER_32_R ? (int)(z[1] & 0xFF) : -1))
					pass |= 1u << s;
			}
		}
		if (!pass)
			continue;
		for (uint32_t todo = rts; todo; todo &= todo - 1) {
			unsigned rt = (unsigned)__builtin_ctz(todo);
			uint32_t c[4];
			gm_cb_unpack_export(px->cb[rt].col_fmt, px->exp_col[rt][l], c);
			gm_cb_write(px, rt, x, y, (uint8_t)pass, c);
		}
	}
}

void gm_ps_flush(struct gm_px *px)
{
	struct gm *gm = px->gm;
	struct gm_wave *w = gm->wave;
	struct gm_wave_env env = { 0 };
	struct gm_interp ip;
	uint64_t covered = 0;
	unsigned s;

	if (!px->n_quads)
		goto reset;
	for (unsigned l = 0; l < px->n_quads * 4; l++) {
		if (px->quads[l >> 2].cov[l & 3])
			covered |= 1ull << l;
		px->lane_prim[l] = px->quads[l >> 2].prim;
	}
	s = gm_stage_wave_begin(gm, &px->ps, covered);
	if (s < ISA_NUM_SGPRS)
		w->s[s] = 0;          /* PRIM_MASK */
	for (unsigned l = 0; l < px->n_quads * 4; l++)
		load_inputs(px, w, l, &px->quads[l >> 2], &px->tris[px->quads[l >> 2].prim]);
	ip.lane_prim = px->lane_prim;
	ip.coef = &px->tris[0].coef[0][0][0];
	ip.prim_stride = sizeof px->tris[0] / sizeof(float);
	ip.n_inputs = px->n_inputs;
	env.interp = &ip;
	env.ctx = px;
	env.export_ps = export_ps;
	px->exp_col_mask = 0;
	px->exp_z_done = px->done = false;
	gm_stage_wave_run(gm, &px->ps, &env);
	px->quads_drawn += px->n_quads;
	if (!w->killed && px->done)
		write_lanes(px, px->done_exec & covered);
reset:
	/* a triangle still being scanned keeps its set-up data in slot 0 */
	if (px->tri_open && px->n_tris) {
		if (px->n_tris > 1)
			px->tris[0] = px->tris[px->n_tris - 1];
		px->n_tris = 1;
	} else {
		px->n_tris = 0;
	}
	px->n_quads = 0;
}
