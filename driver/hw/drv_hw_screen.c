/*
 * drv_hw_screen.c - buffer objects and command submission on the winsys
 * the driver was handed (drv_winsys.h).  The command stream is recorded in
 * host memory (as radeonsi records into a CS buffer) and copied into one IB
 * BO at flush; the IB BO grows by doubling when a stream is larger than it.
 */
#include <string.h>

#include "drv_hw.h"
#include "xt_fault.h"

#define CS_MAX_DW (1u << 16)        /* flush when a stream reaches this */

enum xt_rc drv_ws_init(struct drv_ws *ws, struct drv_winsys *winsys)
{
	memset(ws, 0, sizeof *ws);
	ws->winsys = winsys;
	ws->cs_max_dw = CS_MAX_DW;
	ws->cs_storage = xt_malloc((size_t)CS_MAX_DW * 4);
	if (!ws->cs_storage)
		return XT_ERR_NOMEM;
	pm4_cs_init(&ws->cs, ws->cs_storage, CS_MAX_DW);
	xt_buf_init(&ws->call_pm4);
	return XT_OK;
}

void drv_ws_fini(struct drv_ws *ws)
{
	drv_bo_destroy(ws, ws->ib);
	xt_free(ws->cs_storage);
	xt_buf_fini(&ws->call_pm4);
	memset(ws, 0, sizeof *ws);
}

struct drv_bo *drv_bo_create(struct drv_ws *ws, uint64_t size_bytes, uint64_t align_bytes)
{
	struct drv_bo *bo = xt_calloc(1, sizeof *bo);

	if (!bo)
		return NULL;
	if (!size_bytes)
		size_bytes = 4;          /* GL allows size 0; the winsys does not */
	if (ws->winsys->ops->bo_create(ws->winsys, size_bytes, align_bytes, &bo->ws_bo) != XT_OK) {
		xt_free(bo);
		return NULL;
	}
	bo->va = ws->winsys->ops->bo_va(bo->ws_bo);
	bo->size_bytes = size_bytes;
	bo->map = ws->winsys->ops->bo_map(bo->ws_bo);
	return bo;
}

void drv_bo_destroy(struct drv_ws *ws, struct drv_bo *bo)
{
	if (!bo)
		return;
	ws->winsys->ops->bo_destroy(ws->winsys, bo->ws_bo);
	xt_free(bo);
}

struct pm4_cs *drv_ws_cs(struct drv_ws *ws, uint32_t dw)
{
	if (ws->cs.max_dw - ws->cs.cdw < dw && ws->cs.cdw)
		drv_ws_flush(ws);
	return &ws->cs;
}

enum xt_rc drv_ws_flush(struct drv_ws *ws)
{
	uint32_t n = ws->cs.cdw;
	bool overflow = !pm4_cs_ok(&ws->cs);

	pm4_cs_init(&ws->cs, ws->cs_storage, ws->cs_max_dw);
	if (!n)
		return overflow ? XT_ERR_INTERNAL : XT_OK;
	if (!ws->ib || ws->ib->size_bytes < (uint64_t)n * 4) {
		uint64_t size = ws->ib ? ws->ib->size_bytes : 1u << 16;
		while (size < (uint64_t)n * 4)
			size *= 2;
		drv_bo_destroy(ws, ws->ib);
		ws->ib = drv_bo_create(ws, size, 256);
		if (!ws->ib)
			return XT_ERR_NOMEM;
	}
	memcpy(ws->ib->map, ws->cs_storage, (size_t)n * 4);
	xt_buf_append(&ws->call_pm4, ws->cs_storage, (size_t)n * 4);
	ws->submits++;
	ws->winsys->ops->submit_ib(ws->winsys, ws->ib->va, n);
	return overflow ? XT_ERR_INTERNAL : XT_OK;
}

void drv_ws_call_begin(struct drv_ws *ws)
{
	xt_buf_reset(&ws->call_pm4);
}
