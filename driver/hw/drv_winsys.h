/*
 * drv_winsys.h - what the driver is handed to reach a GPU, shaped like
 * radeonsi's radeon_winsys: buffer objects in GPU memory (create, address,
 * map, destroy) and indirect buffers submitted for execution.  The driver
 * never creates a GPU itself: whoever creates the screen (drv.h
 * drv_screen_create) passes a winsys, e.g. winsys/ws_gm.h's over the
 * simulated GPU.
 *
 * Contract the driver relies on:
 * - BOs are zero-filled, mapped for the CPU at all times (unified memory),
 *   and their GPU VAs are stable for their lifetime.
 * - Submission is synchronous: submit_ib has executed the IB to the end
 *   when it returns, so the CPU may then read what the GPU wrote and reuse
 *   the IB's memory.
 * - The same calls in the same order give the same VAs (the driver's PM4
 *   and everything compared downstream depend on it).
 */
#ifndef DRV_WINSYS_H
#define DRV_WINSYS_H

#include <stdint.h>

#include "xt_rc.h"

struct drv_winsys;
struct drv_winsys_bo;          /* the winsys's buffer object, opaque to the driver */

struct drv_winsys_ops {
	/* A zero-filled BO of size_bytes (> 0) aligned to align_bytes (a
	 * power of two, 0 = 256); XT_ERR_NOMEM when the GPU has no room. */
	enum xt_rc (*bo_create)(struct drv_winsys *ws, uint64_t size_bytes, uint64_t align_bytes,
				struct drv_winsys_bo **out);
	void (*bo_destroy)(struct drv_winsys *ws, struct drv_winsys_bo *bo);
	uint64_t (*bo_va)(const struct drv_winsys_bo *bo);
	/* The CPU view; valid until the BO is destroyed. */
	void *(*bo_map)(struct drv_winsys_bo *bo);
	/* Executes the IB of n_dw dwords at GPU VA ib_va to the end.  What the
	 * GPU could not execute is the winsys's to record (the driver's
	 * caller reads it there); only a call that cannot start fails. */
	enum xt_rc (*submit_ib)(struct drv_winsys *ws, uint64_t ib_va, uint32_t n_dw);
};

/* Implementations embed this first and point ops at their functions. */
struct drv_winsys {
	const struct drv_winsys_ops *ops;
};

#endif
