/*
 * pm4_regs.c - lookups over the generated register / enum / packet tables
 * (pm4_regs_gen.c, from specs/gfx8_regs.xml); see pm4_regs.h.
 *
 * The tables are small (about a hundred registers): offsets and opcodes are
 * found by binary search in the sorted arrays, names by a linear scan.
 */
#include "pm4_regs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct pm4_reg_info *pm4_reg_by_offset(uint32_t offset)
{
	uint32_t lo = 0, hi = pm4_num_regs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (pm4_regs[mid].offset == offset)
			return &pm4_regs[mid];
		if (pm4_regs[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct pm4_reg_info *pm4_reg_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (uint32_t i = 0; i < pm4_num_regs; i++)
		if (!strcmp(pm4_regs[i].name, name))
			return &pm4_regs[i];
	return NULL;
}

void pm4_f32_text(uint32_t bits, char *out, size_t n)
{
	char num[32];
	float f;

	memcpy(&f, &bits, sizeof f);
	if (isnan(f)) {
		snprintf(num, sizeof num, "nan");
	} else if (isinf(f)) {
		snprintf(num, sizeof num, "%sinf", f < 0 ? "-" : "");
	} else {
		/*
		 * The fewest significant digits that read back; 9 always do
		 * (FLT_DECIMAL_DIG).  At least the integer digits below 1e9,
		 * so that 40.0 does not read "4e+01".
		 */
		double mag = fabs((double)f);
		int digits = 1;
		for (double p = 10.0; p <= mag && mag < 1e9; p *= 10.0)
			digits++;
		for (; digits <= 9; digits++) {
			snprintf(num, sizeof num, "%.*g", digits, (double)f);
			if (strtof(num, NULL) == f)
				break;
		}
		if (!strpbrk(num, ".e"))
			strcat(num, ".0");
	}
	snprintf(out, n, "%s%s (0x%08x)", num, isfinite(f) ? "f" : "", (unsigned)bits);
}

const struct pm4_field_info *pm4_reg_field(const struct pm4_reg_info *reg,
					   const char *name)
{
	if (!reg || !name)
		return NULL;
	for (uint32_t i = 0; i < reg->num_fields; i++)
		if (!strcmp(reg->fields[i].name, name))
			return &reg->fields[i];
	return NULL;
}

bool pm4_reg_field_value(uint32_t reg_offset, const char *field,
			 uint32_t value, uint32_t *out)
{
	const struct pm4_field_info *f =
		pm4_reg_field(pm4_reg_by_offset(reg_offset), field);

	if (!f)
		return false;
	*out = pm4_field_get(f, value);
	return true;
}

const struct pm4_enum_info *pm4_enum_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (uint32_t i = 0; i < pm4_num_enums; i++)
		if (!strcmp(pm4_enums[i].name, name))
			return &pm4_enums[i];
	return NULL;
}

const char *pm4_enum_name(const struct pm4_enum_info *e, uint32_t value)
{
	if (!e)
		return NULL;
	for (uint32_t i = 0; i < e->num_values; i++)
		if (e->values[i].value == value)
			return e->values[i].name;
	return NULL;
}

bool pm4_enum_value(const struct pm4_enum_info *e, const char *name, uint32_t *out)
{
	if (!e || !name)
		return false;
	for (uint32_t i = 0; i < e->num_values; i++)
		if (!strcmp(e->values[i].name, name)) {
			*out = e->values[i].value;
			return true;
		}
	return false;
}

enum pm4_reg_space pm4_reg_space_of(uint32_t offset)
{
	if (offset >= PM4_CONFIG_REG_BASE && offset < PM4_CONFIG_REG_END)
		return PM4_SPACE_CONFIG;
	if (offset >= PM4_SH_REG_BASE && offset < PM4_SH_REG_END)
		return PM4_SPACE_SH;
	if (offset >= PM4_CONTEXT_REG_BASE && offset < PM4_CONTEXT_REG_END)
		return PM4_SPACE_CONTEXT;
	if (offset >= PM4_UCONFIG_REG_BASE && offset < PM4_UCONFIG_REG_END)
		return PM4_SPACE_UCONFIG;
	return PM4_SPACE_NONE;
}

uint32_t pm4_reg_space_base(enum pm4_reg_space space)
{
	switch (space) {
	case PM4_SPACE_CONFIG: return PM4_CONFIG_REG_BASE;
	case PM4_SPACE_SH: return PM4_SH_REG_BASE;
	case PM4_SPACE_CONTEXT: return PM4_CONTEXT_REG_BASE;
	case PM4_SPACE_UCONFIG: return PM4_UCONFIG_REG_BASE;
	default: return 0;
	}
}

const char *pm4_reg_space_name(enum pm4_reg_space space)
{
	switch (space) {
	case PM4_SPACE_CONFIG: return "config";
	case PM4_SPACE_SH: return "sh";
	case PM4_SPACE_CONTEXT: return "context";
	case PM4_SPACE_UCONFIG: return "uconfig";
	case PM4_SPACE_PACKET: return "packet";
	default: return "none";
	}
}

const struct pm4_packet_info *pm4_packet_by_opcode(unsigned opcode)
{
	uint32_t lo = 0, hi = pm4_num_packets;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (pm4_packets[mid].opcode == opcode)
			return &pm4_packets[mid];
		if (pm4_packets[mid].opcode < opcode)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct pm4_packet_info *pm4_packet_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (uint32_t i = 0; i < pm4_num_packets; i++)
		if (!strcmp(pm4_packets[i].name, name))
			return &pm4_packets[i];
	return NULL;
}

const struct pm4_pkt_dword *pm4_packet_dword(const struct pm4_packet_info *p,
					     uint32_t index)
{
	const struct pm4_pkt_dword *last;

	if (!p || index == 0 || p->num_dwords == 0)
		return NULL;
	if (index <= p->num_dwords)
		return &p->dwords[index - 1];
	last = &p->dwords[p->num_dwords - 1];
	return last->repeat ? last : NULL;
}
