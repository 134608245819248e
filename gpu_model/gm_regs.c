/*
 * gm_regs.c - the register file: config, SH, context and uconfig spaces
 * (docs/gcn-streamout.md §2), with "written" and "dirty" bits per register so
 * that snapshots list only registers someone set, and diffs between two
 * points of a run list only what changed.
 *
 * Assumption: all registers reset to 0, and CLEAR_STATE's "golden" context
 * state is also all zeros (the real values are firmware data we do not have).
 */
#include <string.h>

#include "gm_priv.h"
#include "xt_fault.h"

static const uint32_t space_base[GM_REG_SPACES] = {
	PM4_CONFIG_REG_BASE, PM4_SH_REG_BASE, PM4_CONTEXT_REG_BASE, PM4_UCONFIG_REG_BASE,
};
static const uint32_t space_end[GM_REG_SPACES] = {
	PM4_CONFIG_REG_END, PM4_SH_REG_END, PM4_CONTEXT_REG_END, PM4_UCONFIG_REG_END,
};

uint32_t gm_regs_base(enum gm_reg_space s) { return space_base[s]; }
uint32_t gm_regs_size_dw(enum gm_reg_space s) { return (space_end[s] - space_base[s]) >> 2; }

int gm_regs_space_of(uint32_t reg)
{
	if (reg & 3)
		return -1;
	for (int s = 0; s < GM_REG_SPACES; s++)
		if (reg >= space_base[s] && reg < space_end[s])
			return s;
	return -1;
}

enum xt_rc gm_regs_init(struct gm_regs *r)
{
	memset(r, 0, sizeof *r);
	for (int s = 0; s < GM_REG_SPACES; s++) {
		r->val[s] = xt_calloc(gm_regs_size_dw((enum gm_reg_space)s), 4);
		r->written[s] = xt_calloc(gm_regs_size_dw((enum gm_reg_space)s), 1);
		if (!r->val[s] || !r->written[s]) {
			gm_regs_fini(r);
			return XT_ERR_NOMEM;
		}
	}
	return XT_OK;
}

void gm_regs_fini(struct gm_regs *r)
{
	for (int s = 0; s < GM_REG_SPACES; s++) {
		xt_free(r->val[s]);
		xt_free(r->written[s]);
	}
	xt_free(r->ovr);
	memset(r, 0, sizeof *r);
}

bool gm_regs_write(struct gm_regs *r, uint32_t reg, uint32_t value)
{
	int s = gm_regs_space_of(reg);
	uint32_t i;

	if (s < 0)
		return false;
	i = (reg - space_base[s]) >> 2;
	r->val[s][i] = value;
	r->written[s][i] = 3;
	return true;
}

void gm_regs_clear_context(struct gm_regs *r)
{
	uint32_t n = gm_regs_size_dw(GM_SPACE_CONTEXT);
	memset(r->val[GM_SPACE_CONTEXT], 0, n * 4);
	for (uint32_t i = 0; i < n; i++)
		if (r->written[GM_SPACE_CONTEXT][i])
			r->written[GM_SPACE_CONTEXT][i] = 3;
}

void gm_regs_apply_overrides(struct gm_regs *r)
{
	for (size_t i = 0; i < r->novr; i++) {
		const struct gm_reg_override *o = &r->ovr[i];
		gm_regs_write(r, o->reg, (gm_regs_get(r, o->reg) & ~o->mask) | (o->value & o->mask));
	}
}
