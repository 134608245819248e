/*
 * pm4_decode.c - the ac_parse_ib-style PM4 decoder; the layout is described
 * in pm4_decode.h and in docs/gcn-streamout.md §8.2.
 *
 * The decoder walks the buffer with pm4_parser_next() (which does all the
 * bounds checking and resyncing) and prints each item.  Dispatch is by
 * opcode: SET_*_REG, EVENT_WRITE and NOP have their own printers, unknown
 * opcodes a raw one, and every other known packet is printed from its
 * payload layout in the database (dword name, and the fields of the register
 * or packet pseudo-register that describes it).  Adding a packet to
 * specs/gfx8_regs.xml is therefore enough to decode it.
 */
#include "pm4_decode.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pm4_pkt.h"
#include "pm4_regs.h"

#define INDENT_PKT 8    /* columns before a register name */
#define HEX_COLS 9      /* "%08x " */

struct dec {
	struct xt_buf *out;
	enum xt_rc rc;          /* sticky: first failure */
};

static void put(struct dec *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct dec *d, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (d->rc)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		d->rc = XT_ERR_INTERNAL;
		return;
	}
	d->rc = xt_buf_reserve(d->out, (size_t)n + 1);
	if (d->rc)
		return;
	va_start(ap, fmt);
	vsnprintf((char *)d->out->data + d->out->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	d->out->len += (size_t)n;
}

static void spaces(struct dec *d, unsigned n)
{
	put(d, "%*s", (int)n, "");
}

/* Starts the line of a consumed dword. */
static void dword_line(struct dec *d, uint32_t v)
{
	put(d, "%08x ", v);
}

/* Starts a line that consumes no dword. */
static void cont_line(struct dec *d)
{
	spaces(d, HEX_COLS);
}

/* ac_parse_ib's number format: small as decimal, mid with hex, big as hex or float. */
static void print_value(struct dec *d, uint32_t v, unsigned bits)
{
	int width = (int)(bits / 4);

	if (v <= 9) {
		put(d, "%u", v);
	} else if (v <= 32768) {
		put(d, "%u (0x%0*x)", v, width, v);
	} else {
		float f;

		memcpy(&f, &v, sizeof(f));
		if (isfinite(f) && fabsf(f) < 100000.0f && f * 10.0f == floorf(f * 10.0f))
			put(d, "%.1ff (0x%0*x)", (double)f, width, v);
		else
			put(d, "0x%0*x", width, v);
	}
}

static void print_field_value(struct dec *d, const struct pm4_field_info *f, uint32_t reg_value)
{
	uint32_t v = pm4_field_get(f, reg_value);
	const char *name = pm4_enum_name(f->enum_info, v);

	if (name)
		put(d, "%s", name);
	else
		print_value(d, v, f->width);
}

/*
 * "        NAME <- F0 = v0" and one aligned line per further field; `only`
 * restricts the output to one field (EVENT_WRITE shows EVENT_TYPE only).
 * Ends the line.
 */
static void print_reg(struct dec *d, const char *name, const struct pm4_reg_info *layout,
		      uint32_t value, const char *only)
{
	bool first = true;

	spaces(d, INDENT_PKT);
	put(d, "%s <- ", name);
	if (layout && layout->type == PM4_TYPE_F32) {
		char text[48];
		pm4_f32_text(value, text, sizeof text);
		put(d, "%s\n", text);
		return;
	}
	if (!layout || layout->num_fields == 0) {
		print_value(d, value, 32);
		put(d, "\n");
		return;
	}
	for (uint32_t i = 0; i < layout->num_fields; i++) {
		const struct pm4_field_info *f = &layout->fields[i];

		if (only && strcmp(f->name, only))
			continue;
		if (!first) {
			cont_line(d);
			spaces(d, INDENT_PKT + (unsigned)strlen(name) + 4);
		}
		first = false;
		put(d, "%s = ", f->name);
		print_field_value(d, f, value);
		put(d, "\n");
	}
	if (first)
		put(d, "\n");
}

/* "        NAME <- value" (ac_parse_ib's print_named_value). Ends the line. */
static void print_named(struct dec *d, const char *name, uint32_t value, unsigned bits)
{
	spaces(d, INDENT_PKT);
	put(d, "%s <- ", name);
	print_value(d, value, bits);
	put(d, "\n");
}

/* A register write by byte address: known -> fields, unknown -> raw. */
static void print_reg_write(struct dec *d, uint32_t reg, uint32_t value)
{
	const struct pm4_reg_info *info = pm4_reg_by_offset(reg);

	if (info) {
		print_reg(d, info->name, info, value, NULL);
	} else {
		spaces(d, INDENT_PKT);
		put(d, "0x%05x <- 0x%08x\n", reg, value);
	}
}

static void print_raw_payload(struct dec *d, const struct pm4_packet *p, uint32_t from)
{
	for (uint32_t i = from; i < p->payload_dw; i++) {
		dword_line(d, p->payload[i]);
		put(d, "\n");
	}
}

static void decode_set_reg(struct dec *d, const struct pm4_packet *p)
{
	struct pm4_set_reg s;

	if (pm4_set_reg_unpack(p, &s)) {
		print_raw_payload(d, p, 0);
		return;
	}
	dword_line(d, p->payload[0]);
	if (s.index)
		put(d, "%*sINDEX = %u", INDENT_PKT, "", s.index);
	put(d, "\n");
	for (uint32_t i = 0; i < s.num_values; i++) {
		dword_line(d, s.values[i]);
		print_reg_write(d, s.reg + 4 * i, s.values[i]);
	}
}

static void decode_event_write(struct dec *d, const struct pm4_packet *p)
{
	const struct pm4_reg_info *init = pm4_reg_by_offset(REG_VGT_EVENT_INITIATOR);
	uint32_t c = p->payload[0];

	dword_line(d, c);
	print_reg(d, "VGT_EVENT_INITIATOR", init, c, "EVENT_TYPE");
	cont_line(d);
	print_named(d, "EVENT_INDEX", PKT3_EVENT_WRITE_EVENT_CNTL_EVENT_INDEX_GET(c), 4);
	cont_line(d);
	print_named(d, "INV_L2", PKT3_EVENT_WRITE_EVENT_CNTL_INV_L2_GET(c), 1);
	if (p->payload_dw >= 2) {
		dword_line(d, p->payload[1]);
		print_named(d, "ADDRESS_LO", p->payload[1], 32);
	}
	if (p->payload_dw >= 3) {
		dword_line(d, p->payload[2]);
		print_named(d, "ADDRESS_HI", p->payload[2], 32);
	}
	print_raw_payload(d, p, 3);
}

/*
 * Name of payload dword `index` when the layout depends on the packet's own
 * fields: STRMOUT_BUFFER_UPDATE dwords 4/5 hold the offset or the source
 * address depending on OFFSET_SOURCE.
 */
static const char *dword_name(const struct pm4_packet *p, uint32_t index,
			      const struct pm4_pkt_dword *dw)
{
	if (p->opcode == PKT3_STRMOUT_BUFFER_UPDATE && (index == 4 || index == 5)) {
		uint32_t src = PKT3_STRMOUT_BUFFER_UPDATE_CONTROL_OFFSET_SOURCE_GET(p->payload[0]);

		if (src == V_STRMOUT_OFFSET_FROM_MEM)
			return index == 4 ? "SRC_ADDRESS_LO" : "SRC_ADDRESS_HI";
		if (src == V_STRMOUT_OFFSET_FROM_PACKET && index == 4)
			return "BUFFER_OFFSET";
		return "UNUSED";
	}
	return dw->name;
}

/*
 * The register a payload dword addresses: COPY_DATA source / destination
 * when its SEL says register (absolute dword address), LOAD_CONTEXT_REG_INDEX
 * REG_OFFSET (dwords from the context base).
 */
static const struct pm4_reg_info *addressed_reg(const struct pm4_packet *p, uint32_t index)
{
	uint32_t c = p->payload[0];

	if (p->opcode == PKT3_LOAD_CONTEXT_REG_INDEX && index == 3)
		return pm4_reg_by_offset(PM4_CONTEXT_REG_BASE + ((p->payload[2] & 0xFFFFu) << 2));
	if (p->opcode != PKT3_COPY_DATA)
		return NULL;
	if (index == 2 && PKT3_COPY_DATA_CONTROL_SRC_SEL_GET(c) == V_COPY_DATA_SRC_REG)
		return pm4_reg_by_offset(p->payload[1] << 2);
	if (index == 4 && PKT3_COPY_DATA_CONTROL_DST_SEL_GET(c) == V_COPY_DATA_DST_REG)
		return pm4_reg_by_offset(p->payload[3] << 2);
	return NULL;
}

/* Any known packet, printed from its database layout. */
static void decode_from_layout(struct dec *d, const struct pm4_packet *p)
{
	for (uint32_t i = 0; i < p->payload_dw; i++) {
		const struct pm4_pkt_dword *dw = pm4_packet_dword(p->info, i + 1);
		uint32_t v = p->payload[i];
		const struct pm4_reg_info *named;

		dword_line(d, v);
		if (!dw) {
			put(d, "\n");
			continue;
		}
		if (dw->layout && !dw->print_whole) {
			print_reg(d, dw->name, dw->layout, v, NULL);
			continue;
		}
		named = addressed_reg(p, i + 1);
		if (named) {
			spaces(d, INDENT_PKT);
			put(d, "%s <- ", dw->name);
			print_value(d, v, 32);
			put(d, " (%s)\n", named->name);
			continue;
		}
		print_named(d, dword_name(p, i + 1, dw), v, 32);
	}
}

static void decode_type3(struct dec *d, const struct pm4_packet *p, struct pm4_decode_stats *st)
{
	const char *pred = p->predicate ? "(predicate)" : "";

	dword_line(d, p->header);
	if (!p->info) {
		st->unknown++;
		put(d, "PKT3_UNKNOWN 0x%x%s:\n", p->opcode, pred);
		print_raw_payload(d, p, 0);
		return;
	}
	put(d, "%s%s:\n", p->info->name, pred);
	switch (p->opcode) {
	case PKT3_NOP:
		print_raw_payload(d, p, 0);
		break;
	case PKT3_SET_CONFIG_REG:
	case PKT3_SET_CONTEXT_REG:
	case PKT3_SET_SH_REG:
	case PKT3_SET_UCONFIG_REG:
	case PKT3_SET_UCONFIG_REG_INDEX:
		decode_set_reg(d, p);
		break;
	case PKT3_EVENT_WRITE:
		decode_event_write(d, p);
		break;
	default:
		decode_from_layout(d, p);
		break;
	}
	if (p->count_bad && p->payload_dw < p->info->min_dw) {
		st->short_packets++;
		cont_line(d);
		put(d, "!!!!! count in header too low !!!!!\n");
	}
}

static void decode_bad(struct dec *d, const struct pm4_parser *ps, const struct pm4_packet *p)
{
	put(d, "%08x !!!!! bad packet header 0x%08x at dword %u: %s\n",
	    p->header, p->header, p->offset_dw, p->bad_reason);
	for (uint32_t i = 1; i < p->size_dw; i++)
		put(d, "%08x %*s(skipped)\n", ps->buf[p->offset_dw + i], INDENT_PKT, "");
}

enum xt_rc pm4_decode(const uint32_t *buf, uint32_t num_dw,
		      const struct pm4_decode_opts *opts, struct xt_buf *out,
		      struct pm4_decode_stats *stats)
{
	struct dec d = { out, XT_OK };
	struct pm4_decode_stats st = { 0, 0, 0, 0 };
	const char *name = opts && opts->name ? opts->name : "IB";
	struct pm4_parser ps;
	struct pm4_packet p;

	put(&d, "------------------ %s begin ------------------\n", name);
	pm4_parser_init(&ps, buf, num_dw);
	while (!d.rc && pm4_parser_next(&ps, &p)) {
		switch (p.kind) {
		case PM4_PKT_TYPE2_NOP:
			st.packets++;
			put(&d, "%08x NOP (type 2)\n", p.header);
			break;
		case PM4_PKT_TYPE3:
			st.packets++;
			decode_type3(&d, &p, &st);
			break;
		case PM4_PKT_BAD:
			st.bad++;
			decode_bad(&d, &ps, &p);
			break;
		}
	}
	put(&d, "------------------- %s end -------------------\n", name);
	if (stats)
		*stats = st;
	return d.rc;
}
