/*
 * drv_hw_screen.c - the hardware layer's screen and contexts (drv_pipe.h):
 * buffer objects and command submission on the winsys the driver was
 * handed (drv_winsys.h), buffers, and which context's state the GPU holds.
 *
 * The command stream is recorded in host memory (as radeonsi records into
 * a CS buffer) and copied into one IB BO at flush; the IB BO grows by
 * doubling when a stream is larger than it.  All contexts of a screen
 * share that stream and the GPU behind it.
 */
#include <string.h>

#include "drv_hw.h"
#include "xt_fault.h"

#define CS_MAX_DW (1u << 16)        /* flush when a stream reaches this */

/* ---- screen and command stream ------------------------------------------------ */

enum xt_rc drv_pipe_screen_create(struct drv_winsys *ws, struct drv_pipe_screen **out)
{
	struct drv_pipe_screen *s = xt_calloc(1, sizeof *s);

	*out = NULL;
	if (!s)
		return XT_ERR_NOMEM;
	s->winsys = ws;
	s->cs_max_dw = CS_MAX_DW;
	s->cs_storage = xt_malloc((size_t)CS_MAX_DW * 4);
	if (!s->cs_storage) {
		xt_free(s);
		return XT_ERR_NOMEM;
	}
	pm4_cs_init(&s->cs, s->cs_storage, CS_MAX_DW);
	xt_buf_init(&s->call_pm4);
	*out = s;
	return XT_OK;
}

void drv_pipe_screen_destroy(struct drv_pipe_screen *s)
{
	if (!s)
		return;
	drv_bo_destroy(s, s->ib);
	xt_free(s->cs_storage);
	xt_buf_fini(&s->call_pm4);
	xt_free(s);
}

struct drv_bo *drv_bo_create(struct drv_pipe_screen *s, uint64_t size_bytes, uint64_t align_bytes)
{
	struct drv_bo *bo = xt_calloc(1, sizeof *bo);

	if (!bo)
		return NULL;
	if (!size_bytes)
		size_bytes = 4;          /* GL allows size 0; the winsys does not */
	if (s->winsys->ops->bo_create(s->winsys, size_bytes, align_bytes, &bo->ws_bo) != XT_OK) {
		xt_free(bo);
		return NULL;
	}
	bo->va = s->winsys->ops->bo_va(bo->ws_bo);
	bo->size_bytes = size_bytes;
	bo->map = s->winsys->ops->bo_map(bo->ws_bo);
	return bo;
}

void drv_bo_destroy(struct drv_pipe_screen *s, struct drv_bo *bo)
{
	if (!bo)
		return;
	s->winsys->ops->bo_destroy(s->winsys, bo->ws_bo);
	xt_free(bo);
}

struct pm4_cs *drv_hw_cs(struct drv_pipe_screen *s, uint32_t dw)
{
	if (s->cs.max_dw - s->cs.cdw < dw && s->cs.cdw)
		drv_hw_flush(s);
	return &s->cs;
}

enum xt_rc drv_hw_flush(struct drv_pipe_screen *s)
{
	uint32_t n = s->cs.cdw;
	bool overflow = !pm4_cs_ok(&s->cs);

	pm4_cs_init(&s->cs, s->cs_storage, s->cs_max_dw);
	if (!n)
		return overflow ? XT_ERR_INTERNAL : XT_OK;
	if (!s->ib || s->ib->size_bytes < (uint64_t)n * 4) {
		uint64_t size = s->ib ? s->ib->size_bytes : 1u << 16;
		while (size < (uint64_t)n * 4)
			size *= 2;
		drv_bo_destroy(s, s->ib);
		s->ib = drv_bo_create(s, size, 256);
		if (!s->ib)
			return XT_ERR_NOMEM;
	}
	memcpy(s->ib->map, s->cs_storage, (size_t)n * 4);
	xt_buf_append(&s->call_pm4, s->cs_storage, (size_t)n * 4);
	s->submits++;
	s->winsys->ops->submit_ib(s->winsys, s->ib->va, n);
	return overflow ? XT_ERR_INTERNAL : XT_OK;
}

/* ---- buffers ------------------------------------------------------------------ */

bool drv_pipe_buffer_alloc(struct drv_pipe_screen *s, struct drv_pipe_buffer *buf,
			   uint64_t size_bytes, const void *data)
{
	struct drv_bo *bo = drv_bo_create(s, size_bytes, 256);

	if (!bo)
		return false;
	if (data && size_bytes)
		memcpy(bo->map, data, (size_t)size_bytes);
	drv_bo_destroy(s, buf->bo);
	buf->bo = bo;
	return true;
}

bool drv_pipe_buffer_storage(struct drv_pipe_screen *s, struct drv_pipe_buffer *buf)
{
	if (!buf->bo)
		buf->bo = drv_bo_create(s, 4, 256);
	return buf->bo != NULL;
}

void drv_pipe_buffer_release(struct drv_pipe_screen *s, struct drv_pipe_buffer *buf)
{
	drv_bo_destroy(s, buf->bo);
	buf->bo = NULL;
}

uint8_t *drv_pipe_buffer_map(const struct drv_pipe_buffer *buf)
{
	return buf->bo ? buf->bo->map : NULL;
}

/* ---- contexts ----------------------------------------------------------------- */

enum xt_rc drv_pipe_create(struct drv_pipe_screen *s, const struct drv_pipe_report *report,
			   struct drv_pipe **out)
{
	struct drv_pipe *pipe = xt_calloc(1, sizeof *pipe);

	*out = NULL;
	if (!pipe)
		return XT_ERR_NOMEM;
	pipe->screen = s;
	pipe->report = *report;
	pipe->next = s->pipes;
	s->pipes = pipe;
	drv_pm4_init(pipe);
	s->last = pipe;              /* its preamble is the GPU's state now */
	*out = pipe;
	return XT_OK;
}

void drv_pipe_destroy(struct drv_pipe *pipe)
{
	if (!pipe)
		return;
	drv_pm4_blit_fini(pipe);
	drv_pm4_fini(pipe);
	if (pipe->screen->last == pipe)
		pipe->screen->last = NULL;
	for (struct drv_pipe **p = &pipe->screen->pipes; *p; p = &(*p)->next) {
		if (*p == pipe) {
			*p = pipe->next;
			break;
		}
	}
	xt_free(pipe);
}

void drv_hw_out_of_memory(struct drv_pipe *pipe)
{
	pipe->report.out_of_memory(pipe->report.user);
}

void drv_hw_unsupported(struct drv_pipe *pipe, const char *why)
{
	pipe->report.unsupported(pipe->report.user, why);
}

void drv_pipe_flush(struct drv_pipe *pipe)
{
	if (drv_hw_flush(pipe->screen) == XT_ERR_NOMEM)
		drv_hw_out_of_memory(pipe);
}

/* Whether pipe has streamout running or a query counting on the GPU. */
static bool gpu_busy(const struct drv_pipe *pipe)
{
	return pipe->so_begin_emitted || pipe->active_queries > 0;
}

/*
 * radeonsi suspends streamout and queries at the end of each IB and
 * resumes them at the start of the context's next one; the model submits
 * one IB per call and keeps the VGT state across IBs, so while one context
 * has streamout running or a query counting, another context's draws
 * would land in them.  Such interleavings are reported, never replayed
 * wrong.
 */
bool drv_hw_gpu_free(struct drv_pipe *pipe)
{
	for (const struct drv_pipe *o = pipe->screen->pipes; o; o = o->next) {
		if (o != pipe && gpu_busy(o)) {
			drv_hw_unsupported(pipe, "drawing, streamout or a query in one context while another "
					   "context has transform feedback or a query active (the sim does not "
					   "suspend them across contexts)");
			return false;
		}
	}
	return true;
}

/* All contexts of a screen share one GPU: when another context used it
 * last, what pipe remembers having emitted is stale. */
void drv_pipe_call_begin(struct drv_pipe *pipe)
{
	struct drv_pipe *last = pipe->screen->last;

	xt_buf_reset(&pipe->screen->call_pm4);
	pipe->screen->last = pipe;
	if (last && last != pipe)
		drv_pm4_invalidate(pipe);
}

void drv_pipe_call_end(struct drv_pipe *pipe, const uint32_t **pm4, uint32_t *n_dw)
{
	drv_pipe_flush(pipe);
	*pm4 = (const uint32_t *)pipe->screen->call_pm4.data;
	*n_dw = (uint32_t)(pipe->screen->call_pm4.len / 4);
}
