/*
 * drv_hw.h - what the files of the hardware layer share: buffer objects on
 * the winsys (drv_winsys.h) and the command stream, recorded in host memory
 * (as radeonsi records into a CS buffer), copied into an indirect buffer
 * and submitted at flush (drv_hw_screen.c).
 *
 * Submission is synchronous (the winsys executes an IB to the end before
 * submit_ib returns), so after drv_ws_flush() the CPU may read and write
 * every BO, and the IB memory is reused by the next flush.
 */
#ifndef DRV_HW_H
#define DRV_HW_H

#include <stdbool.h>
#include <stdint.h>

#include "drv_winsys.h"
#include "pm4_pkt.h"
#include "xt_buf.h"
#include "xt_rc.h"

struct drv_bo {
	struct drv_winsys_bo *ws_bo;
	uint64_t va;               /* GPU virtual address */
	uint64_t size_bytes;
	uint8_t *map;              /* CPU view (always mapped: unified memory) */
};

struct drv_ws {
	struct drv_winsys *winsys;
	struct pm4_cs cs;          /* the command stream being recorded */
	uint32_t *cs_storage;
	uint32_t cs_max_dw;
	struct drv_bo *ib;         /* IB memory, reused by every flush */
	struct xt_buf call_pm4;    /* dwords submitted since drv_ws_call_begin */
	uint64_t submits;          /* IBs submitted */
};

enum xt_rc drv_ws_init(struct drv_ws *ws, struct drv_winsys *winsys);
void drv_ws_fini(struct drv_ws *ws);

/* A zero-filled BO; NULL when out of memory. align 0 = 256 bytes. */
struct drv_bo *drv_bo_create(struct drv_ws *ws, uint64_t size_bytes, uint64_t align_bytes);
/* NULL is a no-op. */
void drv_bo_destroy(struct drv_ws *ws, struct drv_bo *bo);

/*
 * Room for `dw` more dwords in the command stream: flushes first when the
 * stream is full.  Returns the stream (never NULL); a packet that still
 * does not fit sets cs->overflow, which drv_ws_flush reports.
 */
struct pm4_cs *drv_ws_cs(struct drv_ws *ws, uint32_t dw);
/* Submits the recorded stream (if any) and starts a new one.  XT_ERR_NOMEM
 * when the IB could not be allocated; a stream that overflowed is
 * XT_ERR_INTERNAL (the driver reserves too little). */
enum xt_rc drv_ws_flush(struct drv_ws *ws);
/* Starts collecting the dwords submitted for one call. */
void drv_ws_call_begin(struct drv_ws *ws);

#endif
