/*
 * cap_frames.c - the colour buffer at each swap as golden data
 * (`xfbtrace capture --frames N|all`, XFBTRACE_FRAMES): before the real
 * eglSwapBuffers / glXSwapBuffers, the back buffer of the surface being
 * swapped is read (observe/obs_pixels.c, obs_frame_read: what the frame
 * shows; after the swap the back buffer's contents are undefined); after
 * a swap that succeeded it is written as a `pixels` observation of the
 * swap call (from "swap", `frame` its number, the one of the FRAME record).
 *
 * Frames are counted per process, as FRAME records are: the first N
 * (XFBTRACE_FRAMES=N) or all ("all") are taken.  The replay reads the
 * trace's `capture.frames` property and takes the same ones.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cap_call.h"
#include "cap_observe.h"
#include "cap_state.h"
#include "glapi.h"
#include "obs.h"

/* Successful swaps so far: the number of the next frame. */
static atomic_uint_fast64_t swaps;

/* The frame being swapped on this thread, read before the swap. */
static __thread uint8_t *pending;
static __thread int32_t pending_w, pending_h;

static uint64_t frames_wanted(void)
{
	static atomic_uint_fast64_t wanted = UINT64_MAX - 1;   /* not read yet */
	uint64_t w = atomic_load_explicit(&wanted, memory_order_relaxed);

	if (w == UINT64_MAX - 1) {
		const char *v = getenv("XFBTRACE_FRAMES");
		char *end;
		w = 0;
		if (v && !strcmp(v, "all"))
			w = UINT64_MAX;
		else if (v && *v >= '0' && *v <= '9')
			w = strtoull(v, &end, 10), w = *end ? 0 : w;
		atomic_store_explicit(&wanted, w, memory_order_relaxed);
	}
	return w;
}

void cap_frames_pre(struct cap_call *c)
{
	const bool glx = c->fid == CAP_F_glXSwapBuffers;
	struct obs_ctx oc;
	struct obs_gl gl;
	int64_t w = 0, h = 0;

	free(pending);
	pending = NULL;
	if (atomic_load(&swaps) >= frames_wanted() || !cap_observe_context(&oc, &gl) ||
	    !cap_surface_size(glx, c->a[0].u, c->a[1].u, &w, &h) || w > INT32_MAX || h > INT32_MAX)
		return;
	pending = obs_frame_read(&oc, (int32_t)w, (int32_t)h);
	pending_w = (int32_t)w;
	pending_h = (int32_t)h;
}

void cap_frames_post(struct cap_call *c, bool ok)
{
	struct obs_ctx oc;
	struct obs_gl gl;
	struct glapi_func_info fi;

	if (!ok) {
		free(pending);
		pending = NULL;
		return;
	}
	const uint64_t frame = atomic_fetch_add(&swaps, 1);
	if (!pending)
		return;
	glapi_func_info((int)c->fid, &fi);
	if (cap_observe_context(&oc, &gl))
		obs_frame_commit(&oc, c->seq, fi.name, frame, pending_w, pending_h, pending);
	else
		free(pending);
	pending = NULL;
}
