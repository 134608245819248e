/*
 * cli_set_reg.c - the register overrides of `xfbtrace replay --set-reg`
 * (replay.h, struct replay_reg_override): what-if experiments on the sim
 * backend, named as the register database names registers and fields
 * (specs/gfx8_regs.xml through pm4/pm4_regs.h).
 *
 *   SPEC     = ITEM [ "," ITEM ]...
 *   ITEM     = REGISTER [ "." FIELD ] "=" VALUE [ "@" CALLS ]
 *   VALUE    = 0xHEX | DECIMAL | FLOAT (a whole register: its f32 bits,
 *              e.g. PA_CL_VPORT_XOFFSET_0=40.0) | ENUM (a field with value
 *              names, e.g. CB_BLEND0_CONTROL.COLOR_SRCBLEND=BLEND_ZERO)
 *   CALLS    = A-B | A- | -B | N (the calls whose draws it applies to;
 *              default: all)
 *
 * Names are the database's, case-insensitive.  Several items of one
 * register, or of one register's fields, all apply, in order.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pm4_regs.h"
#include "replay.h"
#include "xt_fault.h"

/* Up to three registers whose names start with `prefix`, for a hint. */
static void similar_regs(const char *prefix, char *out, size_t n)
{
	size_t k = 0, len = strlen(prefix), found = 0;

	out[0] = '\0';
	for (uint32_t i = 0; i < pm4_num_regs && found < 3 && len; i++) {
		const struct pm4_reg_info *r = &pm4_regs[i];
		if (r->space >= PM4_SPACE_PACKET || strncmp(r->name, prefix, len))
			continue;
		k += (size_t)snprintf(out + k, k < n ? n - k : 0, "%s%s", found ? ", " : " (did you mean ",
				      r->name);
		found++;
	}
	if (found && k < n)
		snprintf(out + k, n - k, "?)");
}

static void field_list(const struct pm4_reg_info *r, char *out, size_t n)
{
	size_t k = 0;

	out[0] = '\0';
	for (uint32_t i = 0; i < r->num_fields && k < n; i++)
		k += (size_t)snprintf(out + k, n - k, "%s%s", i ? " " : "", r->fields[i].name);
}

/* A whole-register value, as the register database types it: for an f32
 * register a float with a point or an exponent (its bits) or 0xHEX bits;
 * for any other an integer (0xHEX, decimal).  A float for an integer
 * register, or a bare decimal for an f32 one, is refused: either is more
 * likely a slip than the bits meant. */
static bool parse_whole(const char *s, bool f32, uint32_t *out)
{
	char *end;

	if (f32 && *s >= '0' && *s <= '9' && !strpbrk(s, "xX.eE"))
		return false;
	if (*s >= '0' && *s <= '9' && (!f32 || strpbrk(s, "xX"))) {
		errno = 0;
		unsigned long long v = strtoull(s, &end, 0);
		if (!*end && !errno && v <= UINT32_MAX) {
			*out = (uint32_t)v;
			return true;
		}
	}
	if (!f32 || !*s || isspace((unsigned char)*s) || !strpbrk(s, ".eE") || strpbrk(s, "xX"))
		return false;
	errno = 0;
	float f = strtof(s, &end);
	if (*end || errno || !isfinite(f))
		return false;
	memcpy(out, &f, 4);
	return true;
}

/* One ITEM into *o; false with `msg` set on an error. */
static bool parse_item(char *item, struct replay_reg_override *o, char *msg, size_t n)
{
	char *eq = strchr(item, '='), *at, *dot, hint[256];
	const struct pm4_reg_info *r;
	const struct pm4_field_info *f = NULL;
	char *end;

	if (!eq || eq == item) {
		snprintf(msg, n, "'%s': expected REGISTER[.FIELD]=VALUE[@CALLS]", item);
		return false;
	}
	*eq = '\0';
	const char *value = eq + 1;
	o->first_call = 0;
	o->last_call = UINT64_MAX;
	if ((at = strchr(value, '@'))) {
		*at = '\0';
		if (!cli_parse_range(at + 1, &o->first_call, &o->last_call)) {
			snprintf(msg, n, "%s: bad call range '%s' (A-B, A-, -B or N)", item, at + 1);
			return false;
		}
	}
	for (char *p = item; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	if ((dot = strchr(item, '.')))
		*dot = '\0';
	r = pm4_reg_by_name(item);
	if (!r || r->space >= PM4_SPACE_PACKET) {
		similar_regs(item, hint, sizeof hint);
		snprintf(msg, n, "unknown register '%s'%s", item, hint);
		return false;
	}
	if (dot && !(f = pm4_reg_field(r, dot + 1))) {
		field_list(r, hint, sizeof hint);
		snprintf(msg, n, "register %s has no field '%s' (its fields: %s)", r->name, dot + 1,
			 r->num_fields ? hint : "none");
		return false;
	}
	o->reg = r->offset;
	if (!f) {
		o->mask = UINT32_MAX;
		const bool f32 = r->type == PM4_TYPE_F32;
		if (!parse_whole(value, f32, &o->value)) {
			if (f32)
				snprintf(msg, n, "%s holds a float: bad value '%s' (a float such as 1.5 or "
					 "2.0, or 0xHEX for its bits)", r->name, value);
			else
				snprintf(msg, n, "%s holds an integer: bad value '%s' (0xHEX or a decimal "
					 "below 2^32)", r->name, value);
			return false;
		}
		return true;
	}
	uint32_t x;
	unsigned long long v;
	errno = 0;
	v = *value >= '0' && *value <= '9' ? strtoull(value, &end, 0) : 0;
	if (*value >= '0' && *value <= '9' && !*end && !errno) {
		if (f->width < 32 && v >> f->width) {
			snprintf(msg, n, "%s.%s: %s does not fit its %u bits", r->name, f->name, value,
				 f->width);
			return false;
		}
		x = (uint32_t)v;
	} else {
		char up[128];
		size_t i;
		for (i = 0; value[i] && i + 1 < sizeof up; i++)
			up[i] = (char)toupper((unsigned char)value[i]);
		up[i] = '\0';
		if (!f->enum_info || !pm4_enum_value(f->enum_info, up, &x)) {
			snprintf(msg, n, "%s.%s: bad value '%s' (an integer%s)", r->name, f->name, value,
				 f->enum_info ? " or a value name of its enum" : "");
			return false;
		}
	}
	o->mask = f->mask;
	o->value = pm4_field_set(f, 0, x);
	return true;
}

bool cli_set_reg_parse(const char *spec, struct replay_reg_override **list, size_t *n, char *msg,
		       size_t msg_size)
{
	char *copy = xt_malloc(strlen(spec) + 1), *save = NULL;
	bool ok = true;

	if (!copy) {
		snprintf(msg, msg_size, "out of memory");
		return false;
	}
	strcpy(copy, spec);
	if (!*copy) {
		snprintf(msg, msg_size, "empty --set-reg");
		ok = false;
	}
	for (char *item = strtok_r(copy, ",", &save); ok && item; item = strtok_r(NULL, ",", &save)) {
		struct replay_reg_override o, *grown;
		if (!(ok = parse_item(item, &o, msg, msg_size)))
			break;
		if (!(grown = xt_realloc(*list, (*n + 1) * sizeof *grown))) {
			snprintf(msg, msg_size, "out of memory");
			ok = false;
			break;
		}
		*list = grown;
		grown[(*n)++] = o;
	}
	xt_free(copy);
	return ok;
}
