/*
 * gm.c - the public face of the simulated GPU (gm.h): creation, buffer
 * objects, submission, faults, register snapshots and counters.  Everything
 * else is in the per-unit files (see gm_priv.h for the map).
 */
#include <stdlib.h>
#include <string.h>

#include "gm_priv.h"
#include "xt_fault.h"

enum xt_rc gm_create(const struct gm_options *opts, struct gm **out)
{
	struct gm *gm = xt_calloc(1, sizeof *gm);
	enum xt_rc rc;

	*out = NULL;
	if (!gm)
		return XT_ERR_NOMEM;
	if (opts)
		gm->opts = *opts;
	if (!gm->opts.max_ib_depth)
		gm->opts.max_ib_depth = 4;
	if (!gm->opts.max_packets)
		gm->opts.max_packets = 1ull << 24;
	if (!gm->opts.max_wave_instructions)
		gm->opts.max_wave_instructions = 1ull << 22;
	if (!gm->opts.max_faults_kept)
		gm->opts.max_faults_kept = 256;
	gm_mem_init(&gm->mem);
	gm->num_instances = 1;
	gm->wave = xt_malloc(sizeof *gm->wave);
	if (!gm->wave || (rc = gm_regs_init(&gm->regs)) != XT_OK ||
	    (rc = gm_fault_log_init(&gm->faults, gm->opts.max_faults_kept)) != XT_OK) {
		gm_destroy(gm);
		return XT_ERR_NOMEM;
	}
	*out = gm;
	return XT_OK;
}

void gm_destroy(struct gm *gm)
{
	if (!gm)
		return;
	gm_mem_fini(&gm->mem);
	gm_regs_fini(&gm->regs);
	gm_fault_log_fini(&gm->faults);
	xt_free(gm->wave);
	xt_free(gm->lines);
	xt_free(gm);
}

const struct gm_line *gm_lines_get(const struct gm *gm, size_t *n, uint64_t *dropped)
{
	*n = gm->nlines;
	*dropped = gm->lines_dropped;
	return gm->lines;
}

void gm_lines_reset(struct gm *gm)
{
	gm->nlines = 0;
	gm->lines_dropped = 0;
}

const char *gm_errmsg(const struct gm *gm)
{
	return xt_err_msg(&gm->err);
}

enum xt_rc gm_bo_alloc(struct gm *gm, uint64_t size_bytes, uint64_t align_bytes, struct gm_bo **out)
{
	enum xt_rc rc = gm_mem_alloc(&gm->mem, size_bytes, align_bytes, out);
	if (rc == XT_ERR_INVALID)
		return XT_FAIL(&gm->err, rc, "gm_bo_alloc: bad size %llu or alignment %llu",
			       (unsigned long long)size_bytes, (unsigned long long)align_bytes);
	if (rc)
		return XT_FAIL(&gm->err, rc, "gm_bo_alloc: out of memory for %llu bytes",
			       (unsigned long long)size_bytes);
	return XT_OK;
}

void gm_bo_free(struct gm *gm, struct gm_bo *bo)
{
	if (bo)
		gm_mem_free(&gm->mem, bo);
}

enum xt_rc gm_submit_ib(struct gm *gm, uint64_t va, uint32_t size_dw)
{
	if (!size_dw)
		return XT_FAIL(&gm->err, XT_ERR_INVALID, "gm_submit_ib: empty IB");
	gm->packets_left = gm->opts.max_packets;
	gm->abort_submit = false;
	gm_cp_run_ib(gm, va, size_dw, 0);
	return XT_OK;
}

uint64_t gm_fault_count(const struct gm *gm) { return gm->faults.total; }

const struct gm_fault *gm_fault_get(const struct gm *gm, uint64_t i)
{
	if (i >= gm->faults.total || i >= gm->faults.max_kept)
		return NULL;
	return &gm->faults.recs[i];
}

bool gm_reg_get(const struct gm *gm, uint32_t reg, uint32_t *value)
{
	if (gm_regs_space_of(reg) < 0)
		return false;
	*value = gm_regs_get(&gm->regs, reg);
	return true;
}

bool gm_reg_write_checked(struct gm *gm, uint32_t reg, uint32_t value)
{
	if (gm_regs_write(&gm->regs, reg, value))
		return true;
	gm_fault_record(&gm->faults, GM_FAULT_BAD_REGISTER, reg,
			"write of 0x%08x to 0x%06x, outside every register space", value, reg);
	return false;
}

bool gm_reg_read_checked(struct gm *gm, uint32_t reg, uint32_t *value)
{
	if (gm_reg_get(gm, reg, value))
		return true;
	gm_fault_record(&gm->faults, GM_FAULT_BAD_REGISTER, reg,
			"read of 0x%06x, outside every register space", reg);
	*value = 0;
	return false;
}

enum xt_rc gm_reg_snapshot(struct gm *gm, bool dirty_only, struct gm_reg_value **out, size_t *count)
{
	size_t n = 0, k = 0;
	struct gm_reg_value *v;
	/* Spaces in ascending address order: config, SH, context, uconfig. */
	static const enum gm_reg_space order[4] = { GM_SPACE_CONFIG, GM_SPACE_SH, GM_SPACE_CONTEXT,
						    GM_SPACE_UCONFIG };
	uint8_t want = dirty_only ? 2 : 1;

	*out = NULL;
	*count = 0;
	for (int s = 0; s < GM_REG_SPACES; s++)
		for (uint32_t i = 0; i < gm_regs_size_dw((enum gm_reg_space)s); i++)
			n += (gm->regs.written[s][i] & want) != 0;
	if (!n)
		return XT_OK;
	v = xt_malloc(n * sizeof *v);
	if (!v)
		return XT_FAIL(&gm->err, XT_ERR_NOMEM, "gm_reg_snapshot: out of memory");
	for (int o = 0; o < 4; o++) {
		enum gm_reg_space s = order[o];
		for (uint32_t i = 0; i < gm_regs_size_dw(s); i++)
			if (gm->regs.written[s][i] & want) {
				v[k].reg = gm_regs_base(s) + i * 4;
				v[k++].value = gm->regs.val[s][i];
			}
	}
	*out = v;
	*count = k;
	return XT_OK;
}

void gm_reg_clear_dirty(struct gm *gm)
{
	for (int s = 0; s < GM_REG_SPACES; s++)
		for (uint32_t i = 0; i < gm_regs_size_dw((enum gm_reg_space)s); i++)
			gm->regs.written[s][i] &= 1;
}

enum xt_rc gm_reg_override_set(struct gm *gm, const struct gm_reg_override *o, size_t n)
{
	struct gm_reg_override *copy = NULL;

	for (size_t i = 0; i < n; i++)
		if (gm_regs_space_of(o[i].reg) < 0)
			return XT_FAIL(&gm->err, XT_ERR_INVALID,
				       "register override of 0x%06x: outside every register space",
				       o[i].reg);
	if (n && !(copy = xt_malloc(n * sizeof *copy)))
		return XT_FAIL(&gm->err, XT_ERR_NOMEM, "gm_reg_override_set: out of memory");
	if (n)
		memcpy(copy, o, n * sizeof *copy);
	xt_free(gm->regs.ovr);
	gm->regs.ovr = copy;
	gm->regs.novr = n;
	return XT_OK;
}

void gm_so_stats_get(const struct gm *gm, struct gm_so_stats *out)
{
	*out = gm->stats;
	memcpy(out->prims_needed, gm->prims_needed, sizeof out->prims_needed);
	memcpy(out->prims_written, gm->prims_written, sizeof out->prims_written);
	out->zpass_samples = gm->zpass_count;
}
