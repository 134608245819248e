/*
 * diff_regs.c - register states (gm_reg_snapshot's (offset, value) pairs,
 * docs/db.md "call_artifacts") printed with their fields, and compared
 * field by field: `VGT_STRMOUT_VTX_STRIDE_0.STRIDE 4 -> 5`.
 *
 * Printing turns each pair into a SET_*_REG packet of its space and runs
 * the PM4 decoder over them, so a register reads exactly as it does in a
 * PM4 dump (one format for `xfbtrace pm4`, `regs`, `diff` and the web UI).
 * Pairs come from the database and may be hostile: unsorted or duplicated
 * pairs are compared as a merge join would see them, never read out of
 * bounds.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "pm4_decode.h"
#include "pm4_pkt.h"
#include "pm4_regs.h"
#include "xt_fault.h"

/* The value of `reg` in `p` (n pairs, ascending), by binary search. */
static bool find_reg(const uint32_t *p, size_t n, uint32_t reg, uint32_t *value)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p[2 * mid] == reg) {
			*value = p[2 * mid + 1];
			return true;
		}
		if (p[2 * mid] < reg)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

enum xt_rc diff_regs_decode(const uint32_t *regs, size_t n, const uint32_t *prev, size_t nprev,
			    const char *name, struct xt_buf *out)
{
	struct xt_buf ib;
	enum xt_rc rc = XT_OK;

	xt_buf_init(&ib);
	for (size_t i = 0; i < n && !rc; i++) {
		uint32_t hdr[3], old;
		struct pm4_cs cs;
		if (prev && find_reg(prev, nprev, regs[2 * i], &old) && old == regs[2 * i + 1])
			continue;
		pm4_cs_init(&cs, hdr, 3);
		pm4_set_reg(&cs, regs[2 * i], regs[2 * i + 1]);
		if (pm4_cs_ok(&cs))
			rc = xt_buf_append(&ib, hdr, (size_t)cs.cdw * 4);
	}
	rc = rc ? rc : pm4_decode((const uint32_t *)ib.data, (uint32_t)(ib.len / 4),
				  &(struct pm4_decode_opts){ .name = name }, out, NULL);
	xt_buf_fini(&ib);
	return rc;
}

static enum xt_rc push(struct diff_field **v, size_t *n, size_t *cap, const struct diff_field *f)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct diff_field *p = xt_realloc(*v, c * sizeof *p);
		if (!p)
			return XT_ERR_NOMEM;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = *f;
	return XT_OK;
}

/* The fields of register `reg` that differ between a and b. */
static enum xt_rc compare_reg(uint32_t reg, uint32_t a, uint32_t b, bool in_a, bool in_b,
			      struct diff_field **v, size_t *n, size_t *cap)
{
	const struct pm4_reg_info *info = pm4_reg_by_offset(reg);
	struct diff_field f = { .reg = reg, .in_a = in_a, .in_b = in_b };
	enum xt_rc rc = XT_OK;

	if (!info || !info->num_fields) {
		f.reg_name = info ? info->name : NULL;
		f.f32 = info && info->type == PM4_TYPE_F32;
		f.a = a;
		f.b = b;
		return push(v, n, cap, &f);
	}
	f.reg_name = info->name;
	for (uint32_t i = 0; i < info->num_fields && !rc; i++) {
		const struct pm4_field_info *fi = &info->fields[i];
		f.a = pm4_field_get(fi, a);
		f.b = pm4_field_get(fi, b);
		if (f.a == f.b)
			continue;
		f.field = fi->name;
		f.a_name = pm4_enum_name(fi->enum_info, f.a);
		f.b_name = pm4_enum_name(fi->enum_info, f.b);
		rc = push(v, n, cap, &f);
	}
	/* Bits no field covers. */
	uint32_t covered = 0;
	for (uint32_t i = 0; i < info->num_fields; i++)
		covered |= info->fields[i].mask;
	if (!rc && (a & ~covered) != (b & ~covered)) {
		f = (struct diff_field){ .reg = reg, .reg_name = info->name, .field = "(other bits)",
					 .a = a & ~covered, .b = b & ~covered, .in_a = in_a,
					 .in_b = in_b };
		rc = push(v, n, cap, &f);
	}
	return rc;
}

enum xt_rc diff_regs_compare(const uint32_t *a, size_t na, const uint32_t *b, size_t nb,
			     struct diff_field **out, size_t *count)
{
	size_t i = 0, j = 0, n = 0, cap = 0;
	struct diff_field *v = NULL;
	enum xt_rc rc = XT_OK;

	while ((i < na || j < nb) && !rc) {
		if (j >= nb || (i < na && a[2 * i] < b[2 * j])) {
			if (a[2 * i + 1])
				rc = compare_reg(a[2 * i], a[2 * i + 1], 0, true, false, &v, &n, &cap);
			i++;
		} else if (i >= na || b[2 * j] < a[2 * i]) {
			if (b[2 * j + 1])
				rc = compare_reg(b[2 * j], 0, b[2 * j + 1], false, true, &v, &n, &cap);
			j++;
		} else {
			if (a[2 * i + 1] != b[2 * j + 1])
				rc = compare_reg(a[2 * i], a[2 * i + 1], b[2 * j + 1], true, true, &v,
						 &n, &cap);
			i++;
			j++;
		}
	}
	if (rc) {
		free(v);
		v = NULL;
		n = 0;
	}
	*out = v;
	*count = n;
	return rc;
}

void diff_field_name(const struct diff_field *f, char *out, size_t n)
{
	char reg[64];
	if (f->reg_name)
		snprintf(reg, sizeof reg, "%s", f->reg_name);
	else
		snprintf(reg, sizeof reg, "0x%05" PRIx32, f->reg);
	if (f->field)
		snprintf(out, n, "%s.%s", reg, f->field);
	else
		snprintf(out, n, "%s", reg);
}

void diff_field_json(struct xt_jw *w, const struct diff_field *f, bool with_register)
{
	char name[160];
	diff_field_name(f, name, sizeof name);
	xt_jw_obj(w);
	xt_jw_kstr(w, "name", name);
	if (with_register) {
		xt_jw_key(w, "register");
		xt_jw_strf(w, "0x%05" PRIx32, f->reg);
	}
	xt_jw_ku64(w, "a", f->a);
	xt_jw_ku64(w, "b", f->b);
	xt_jw_kstr(w, "a_name", f->a_name);
	xt_jw_kstr(w, "b_name", f->b_name);
	if (f->f32) {
		/* The printed form, so that every reader shows one format. */
		char text[48];
		pm4_f32_text(f->a, text, sizeof text);
		xt_jw_kstr(w, "a_text", text);
		pm4_f32_text(f->b, text, sizeof text);
		xt_jw_kstr(w, "b_text", text);
	}
	xt_jw_kbool(w, "in_a", f->in_a);
	xt_jw_kbool(w, "in_b", f->in_b);
	xt_jw_end(w);
}
