/*
 * pm4_decode.h - prints a PM4 command buffer the way Mesa's ac_parse_ib
 * does (docs/gcn-streamout.md §8.2, Mesa 18 layout), plus the packets
 * ac_parse_ib leaves raw.
 *
 * Layout.  Every dword consumed starts a line: "%08x " then the decoded
 * text.  A register written by SET_*_REG (or a packet dword decoded as a
 * register) reads "        REG <- FIELD0 = v0" with one line per further
 * field, aligned under FIELD0; the field value is its enum name if it has
 * one, else a number:  <= 9 "%u";  <= 32768 "%u (0x%0*x)" (width = field
 * bits / 4);  larger: "%.1ff (0x...)" when it reads as a float with at most
 * one decimal (Assumption: our reading of ac_parse_ib's "looks like a
 * float"), else "0x%0*x".  A register without fields prints its whole
 * value; one the database types f32 (PA_CL_VPORT_XSCALE_n ...) always as
 * a float, pm4_f32_text's "0.5f (0x3f000000)" (beyond ac_parse_ib, which
 * has no register types); an unknown one "0xOOOOO <- 0xVVVVVVVV".  Lines that do not start a
 * dword are indented 9 columns past the hex.  The buffer is wrapped in
 * "------------------ <name> begin ------------------" / "... end ...".
 *
 * Field lists are those of the GFX8 database (specs/gfx8_regs.xml), so a
 * register can show one field more than a Mesa 18 dump (VGT_DRAW_INITIATOR
 * SPRITE_EN_R6XX, as Mesa 24's JSON has it).
 *
 * Beyond ac_parse_ib: STRMOUT_BUFFER_UPDATE, COPY_DATA, CONTEXT_CONTROL,
 * SET_PREDICATION, DRAW_INDEX_OFFSET_2 and LOAD_CONTEXT_REG_INDEX are decoded
 * field by field from the database; COPY_DATA register addresses are named.
 * Unknown opcodes print "PKT3_UNKNOWN 0x%x:" and their payload raw.  A dword
 * that cannot start a packet prints "!!!!! bad packet header 0x... at dword
 * N: reason" and the dwords up to the next plausible header "(skipped)";
 * then decoding resumes.  Nothing in the input can make it fail or read out
 * of bounds.
 */
#ifndef PM4_DECODE_H
#define PM4_DECODE_H

#include <stdint.h>

#include "xt_buf.h"
#include "xt_rc.h"

struct pm4_decode_opts {
	const char *name;           /* of the buffer, in the begin/end lines; NULL = "IB" */
};

struct pm4_decode_stats {
	uint32_t packets;           /* type-3 and type-2 packets */
	uint32_t unknown;           /* type-3 packets of an opcode not in the database */
	uint32_t bad;               /* bad headers (each followed by a resync) */
	uint32_t short_packets;     /* "count in header too low" */
};

/*
 * Appends the decoded text of num_dw dwords to `out`.  `opts` and `stats`
 * may be NULL.  Malformed input is reported in the text, not as an error:
 * the only failure is XT_ERR_NOMEM (out then holds a prefix of the text).
 */
enum xt_rc pm4_decode(const uint32_t *buf, uint32_t num_dw,
		      const struct pm4_decode_opts *opts, struct xt_buf *out,
		      struct pm4_decode_stats *stats);

#endif
