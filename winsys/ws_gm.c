/*
 * ws_gm.c - drv_winsys.h on gpu_model: one-to-one onto gm's BO and IB
 * calls, which already have the winsys contract's shape (zero-filled,
 * always-mapped BOs at stable VAs from a deterministic allocator;
 * synchronous execution, faults recorded in the GPU's fault log).
 */
#include "ws_gm.h"
#include "xt_fault.h"

struct ws_gm {
	struct drv_winsys base;
	struct gm *gm;
};

static struct gm *gm_of(struct drv_winsys *ws)
{
	return ((struct ws_gm *)ws)->gm;
}

static enum xt_rc bo_create(struct drv_winsys *ws, uint64_t size_bytes, uint64_t align_bytes,
			    struct drv_winsys_bo **out)
{
	struct gm_bo *bo = NULL;
	enum xt_rc rc = gm_bo_alloc(gm_of(ws), size_bytes, align_bytes, &bo);

	*out = (struct drv_winsys_bo *)bo;
	return rc;
}

static void bo_destroy(struct drv_winsys *ws, struct drv_winsys_bo *bo)
{
	gm_bo_free(gm_of(ws), (struct gm_bo *)bo);
}

static uint64_t bo_va(const struct drv_winsys_bo *bo)
{
	return gm_bo_va((const struct gm_bo *)bo);
}

static void *bo_map(struct drv_winsys_bo *bo)
{
	return gm_bo_map((struct gm_bo *)bo);
}

static enum xt_rc submit_ib(struct drv_winsys *ws, uint64_t ib_va, uint32_t n_dw)
{
	return gm_submit_ib(gm_of(ws), ib_va, n_dw);
}

static const struct drv_winsys_ops ws_gm_ops = {
	.bo_create = bo_create,
	.bo_destroy = bo_destroy,
	.bo_va = bo_va,
	.bo_map = bo_map,
	.submit_ib = submit_ib,
};

enum xt_rc ws_gm_create(struct gm *gm, struct drv_winsys **out)
{
	struct ws_gm *w = xt_calloc(1, sizeof *w);

	*out = NULL;
	if (!w)
		return XT_ERR_NOMEM;
	w->base.ops = &ws_gm_ops;
	w->gm = gm;
	*out = &w->base;
	return XT_OK;
}

void ws_gm_destroy(struct drv_winsys *ws)
{
	xt_free(ws);
}
