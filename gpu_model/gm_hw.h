/*
 * gm_hw.h - where gpu_model gets register offsets, fields, enum values and
 * PM4 opcodes: the generated tables of pm4/ (specs/gfx8_regs.xml), so code
 * and database share every name.  Only what the database lacks is defined
 * here.
 */
#ifndef GM_HW_H
#define GM_HW_H

#include "pm4_pkt.h"
#include "pm4_regs.h"

/*
 * PRIVATE, TO BE REPLACED: INDIRECT_BUFFER (type-3 opcode 0x3F) is not in
 * specs/gfx8_regs.xml yet.  Layout as on GFX7/8 (amdgpu's gfx_v8_0 ring
 * code): DW1 IB_BASE_LO (dword aligned), DW2 [15:0] IB_BASE_HI,
 * DW3 [19:0] IB_SIZE in dwords, [20] CHAIN (tail-continue instead of nest),
 * [23] VALID.  Move it into the database and delete this block.
 */
#define GM_PKT3_INDIRECT_BUFFER 0x3Fu
#define GM_IB_SIZE_GET(v)       ((v) & 0xFFFFFu)
#define GM_IB_CHAIN_GET(v)      (((v) >> 20) & 1u)

/* PRIVATE, TO BE REPLACED: cache-control packets radeonsi emits on GFX8
 * that the database lacks; the model executes them as no-ops (it has no
 * caches).  Opcodes from Mesa's sid.h. */
#define GM_PKT3_SURFACE_SYNC    0x43u
#define GM_PKT3_ACQUIRE_MEM     0x58u

#endif
