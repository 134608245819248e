/*
 * pm4_regs.h - the GFX8 register and packet database, as C tables.
 *
 * The data lives in specs/gfx8_regs.xml (one entry per register, field, enum
 * and PM4 type-3 packet, each with a short doc); specs/gen_regs.py turns it
 * into pm4_regs_gen.h / pm4_regs_gen.c in the build directory.  This header is
 * the stable, hand-written API over those tables; it is what gpu_model/,
 * driver/, diff/ and web/ include.
 *
 * Facts come from docs/gcn-streamout.md (§2-5) and AMD's public GFX8
 * definitions as Mesa 18's sid.h spells them; entries that are inferred say
 * "Assumption:" in their doc.
 *
 * Generated names (pm4_regs_gen.h), for register REG with field FIELD:
 *
 *   REG_<REG>                    byte offset, e.g. REG_VGT_STRMOUT_CONFIG
 *                                (0x028B94u); also R_028B94_VGT_STRMOUT_CONFIG
 *   REG_<REG>__SPACE             PM4_SPACE_CONTEXT / _CONFIG / _SH / _UCONFIG
 *   <REG>_<FIELD>(x)             x shifted and masked into place:
 *                                VGT_STRMOUT_CONFIG_STREAMOUT_0_EN(1) == 0x1
 *   <REG>_<FIELD>__SHIFT / __MASK   (mask in place, e.g. 0x70 for RAST_STREAM)
 *   <REG>_<FIELD>_GET(v)         the field's value out of a register value
 *
 * Register arrays (VGT_STRMOUT_BUFFER_SIZE_0..3, SPI_SHADER_USER_DATA_VS_0..15)
 * also get an indexed form and field macros under the array's base name:
 *
 *   REG_VGT_STRMOUT_BUFFER_SIZE(n)      0x028AD0u + 0x10u * (n)
 *   REG_VGT_STRMOUT_BUFFER_SIZE__COUNT  4
 *   VGT_STRMOUT_VTX_STRIDE_STRIDE(x)    (same as VGT_STRMOUT_VTX_STRIDE_0_STRIDE)
 *
 * Enum values are V_<VALUE>: V_SO_VGTSTREAMOUT_FLUSH (0x1F), V_DI_PT_TRILIST,
 * V_DI_SRC_SEL_AUTO_INDEX, V_STRMOUT_OFFSET_FROM_MEM ... (value names are
 * unique across the whole database; the generator checks).
 *
 * Packets: PKT3_<NAME> is the opcode (PKT3_STRMOUT_BUFFER_UPDATE == 0x34).
 * Payload dwords that have bit fields get PKT3_<NAME>_<DWORD>_<FIELD>(x),
 * __SHIFT, __MASK and _GET, e.g. PKT3_STRMOUT_BUFFER_UPDATE_CONTROL_OFFSET_SOURCE(x).
 * Builders and parsers for every packet are in pm4_pkt.h.
 */
#ifndef PM4_REGS_H
#define PM4_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Register spaces and the SET_* packet that writes each (docs/gcn-streamout.md §2). */
enum pm4_reg_space {
	PM4_SPACE_CONFIG = 0,   /* 0x8000..0xB000, SET_CONFIG_REG */
	PM4_SPACE_SH = 1,       /* 0xB000..0xC000, SET_SH_REG */
	PM4_SPACE_CONTEXT = 2,  /* 0x28000..0x29000, SET_CONTEXT_REG */
	PM4_SPACE_UCONFIG = 3,  /* 0x30000..0x38000, SET_UCONFIG_REG (GFX7+) */
	PM4_SPACE_PACKET = 4,   /* not a register: the layout of a packet dword */
	PM4_SPACE_NONE = 5,     /* an offset outside every space */
};

#define PM4_CONFIG_REG_BASE   0x00008000u
#define PM4_CONFIG_REG_END    0x0000B000u
#define PM4_SH_REG_BASE       0x0000B000u
#define PM4_SH_REG_END        0x0000C000u
#define PM4_CONTEXT_REG_BASE  0x00028000u
#define PM4_CONTEXT_REG_END   0x00029000u
#define PM4_UCONFIG_REG_BASE  0x00030000u
#define PM4_UCONFIG_REG_END   0x00038000u

/* How a whole register value reads (gfx8_regs.xml type=). */
enum pm4_reg_type {
	PM4_TYPE_U32 = 0,       /* an integer, or its fields */
	PM4_TYPE_F32 = 1,       /* an IEEE-754 single, e.g. PA_CL_VPORT_XSCALE_0 */
};

struct pm4_enum_value {
	const char *name;       /* e.g. "SO_VGTSTREAMOUT_FLUSH" */
	uint32_t value;
	const char *doc;        /* never NULL ("" if none) */
};

struct pm4_enum_info {
	const char *name;       /* e.g. "VGT_EVENT_TYPE" */
	const struct pm4_enum_value *values;  /* sorted by value */
	uint32_t num_values;
	const char *doc;
};

struct pm4_field_info {
	const char *name;       /* e.g. "STREAMOUT_0_EN" */
	uint8_t shift;          /* lowest bit */
	uint8_t width;          /* bits, 1..32 */
	uint32_t mask;          /* in place: ((1 << width) - 1) << shift */
	const struct pm4_enum_info *enum_info;  /* value names, or NULL */
	const char *doc;
};

struct pm4_reg_info {
	const char *name;       /* e.g. "VGT_STRMOUT_CONFIG" */
	uint32_t offset;        /* byte address (0x028B94); for PM4_SPACE_PACKET
				 * (opcode << 8) | payload dword index */
	enum pm4_reg_space space;
	enum pm4_reg_type type; /* PM4_TYPE_F32: no fields */
	const struct pm4_field_info *fields;  /* in bit order; may be 0 fields:
					       * the value is printed whole */
	uint32_t num_fields;
	const char *doc;
};

/* One payload dword of a packet layout (index 1 = the dword after the header). */
struct pm4_pkt_dword {
	const char *name;       /* e.g. "CONTROL", "VGT_NUM_INDICES" */
	uint8_t index;          /* 1-based payload position */
	bool repeat;            /* this and every later dword (SET_* values, data) */
	bool print_whole;       /* print the value, not the fields (ac_parse_ib's
				 * WAIT_REG_MEM "OP <- 3") */
	const struct pm4_reg_info *layout;  /* fields: a register (packets that
					     * write one, e.g. VGT_DRAW_INITIATOR)
					     * or a packet-dword pseudo-register;
					     * NULL = plain 32-bit value */
	const char *doc;
};

struct pm4_packet_info {
	uint8_t opcode;         /* IT_OPCODE, header bits [15:8] */
	const char *name;       /* e.g. "STRMOUT_BUFFER_UPDATE" */
	uint16_t min_dw;        /* payload dwords (= header COUNT + 1), min */
	uint16_t max_dw;        /* ... and max (0x4000 = any) */
	const struct pm4_pkt_dword *dwords;   /* by index */
	uint32_t num_dwords;
	bool ac_parse_ib_raw;   /* Mesa's ac_parse_ib prints it undecoded */
	const char *doc;
};

/* The tables (pm4_regs_gen.c). pm4_regs is sorted by offset, all spaces. */
extern const struct pm4_reg_info pm4_regs[];
extern const uint32_t pm4_num_regs;
extern const struct pm4_enum_info pm4_enums[];
extern const uint32_t pm4_num_enums;
extern const struct pm4_packet_info pm4_packets[];   /* sorted by opcode */
extern const uint32_t pm4_num_packets;

/* Register whose byte address is exactly `offset`, or NULL. */
const struct pm4_reg_info *pm4_reg_by_offset(uint32_t offset);
/* Register named `name` (exact, e.g. "VGT_STRMOUT_CONFIG"), or NULL. */
const struct pm4_reg_info *pm4_reg_by_name(const char *name);
/* Field `name` of `reg`, or NULL. */
const struct pm4_field_info *pm4_reg_field(const struct pm4_reg_info *reg,
					   const char *name);
/*
 * Value of field `field` of register `reg_offset` in register value `value`.
 * False (and *out untouched) if the register or the field is unknown.
 */
bool pm4_reg_field_value(uint32_t reg_offset, const char *field,
			 uint32_t value, uint32_t *out);

static inline uint32_t pm4_field_get(const struct pm4_field_info *f, uint32_t reg_value)
{
	return (reg_value & f->mask) >> f->shift;
}

/* `reg_value` with field `f` replaced by `x` (excess bits of x dropped). */
static inline uint32_t pm4_field_set(const struct pm4_field_info *f,
				     uint32_t reg_value, uint32_t x)
{
	return (reg_value & ~f->mask) | ((x << f->shift) & f->mask);
}

/*
 * The text of an f32 register value, "32.0f (0x42000000)": the shortest
 * decimal that reads back as the same bits (".0" added to whole numbers),
 * then the bits; "nan (0x7fc00000)", "-inf (0xff800000)".  The one format
 * of every printer of PM4_TYPE_F32 registers.  Truncates to n bytes.
 */
void pm4_f32_text(uint32_t bits, char *out, size_t n);

/* Enum named `name`, or NULL. */
const struct pm4_enum_info *pm4_enum_by_name(const char *name);
/* Name of `value` in `e` (NULL-safe), or NULL when it has none. */
const char *pm4_enum_name(const struct pm4_enum_info *e, uint32_t value);
/* Value named `name` in `e`; false if there is none. */
bool pm4_enum_value(const struct pm4_enum_info *e, const char *name, uint32_t *out);

/* Space an offset falls in (PM4_SPACE_NONE outside all four). */
enum pm4_reg_space pm4_reg_space_of(uint32_t offset);
/* First byte address of a space (0 for PACKET / NONE). */
uint32_t pm4_reg_space_base(enum pm4_reg_space space);
/* "config", "sh", "context", "uconfig", "packet", "none". */
const char *pm4_reg_space_name(enum pm4_reg_space space);

/* Packet layout for an opcode, or NULL if the database does not know it. */
const struct pm4_packet_info *pm4_packet_by_opcode(unsigned opcode);
const struct pm4_packet_info *pm4_packet_by_name(const char *name);
/* Layout of payload dword `index` (1-based; repeats apply), or NULL. */
const struct pm4_pkt_dword *pm4_packet_dword(const struct pm4_packet_info *p,
					     uint32_t index);

#include "pm4_regs_gen.h"

#endif
