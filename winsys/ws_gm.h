/*
 * ws_gm.h - the driver's winsys (driver/hw/drv_winsys.h) over the
 * simulated GPU (gpu_model/gm.h): BOs are gm BOs, an IB submission is
 * gm_submit_ib.  The sim backend and the driver's tests create the GPU,
 * wrap it with ws_gm_create and hand the winsys to drv_screen_create; the
 * GPU stays theirs to inspect (registers, faults) and to destroy.
 */
#ifndef WS_GM_H
#define WS_GM_H

#include "drv_winsys.h"
#include "gm.h"
#include "xt_rc.h"

/* A winsys over `gm` (borrowed: it must outlive the winsys).
 * XT_ERR_NOMEM when out of memory. */
enum xt_rc ws_gm_create(struct gm *gm, struct drv_winsys **out);
/* Frees the winsys (not the GPU); every screen using it must be destroyed
 * first.  NULL is a no-op. */
void ws_gm_destroy(struct drv_winsys *ws);

#endif
