/*
 * drv_pm4_so.c - the streamout and query packet sequences, as radeonsi
 * emits them on GFX8 (docs/gcn-streamout.md §6; si_state_streamout.c and
 * si_query.c of Mesa 18):
 *
 *   flush   SET_UCONFIG_REG CP_STRMOUT_CNTL = 0; EVENT_WRITE
 *           SO_VGTSTREAMOUT_FLUSH; WAIT_REG_MEM CP_STRMOUT_CNTL == 1   (§6.1)
 *   begin   flush; per target: SET_CONTEXT_REG BUFFER_SIZE_i, VTX_STRIDE_i;
 *           STRMOUT_BUFFER_UPDATE from the packet (begin) or from the
 *           filled-size slot (resume)                                   (§6.2)
 *   enable  SET_CONTEXT_REG VGT_STRMOUT_CONFIG, VGT_STRMOUT_BUFFER_CONFIG (§6.3)
 *   end     flush; per target: STRMOUT_BUFFER_UPDATE storing FILLED_SIZE
 *           to the slot, BUFFER_SIZE_i = 0                              (§6.4)
 *   DrawTF  VGT_STRMOUT_DRAW_OPAQUE_VERTEX_STRIDE; COPY_DATA slot ->
 *           VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE                  (§6.6)
 *   query   EVENT_WRITE SAMPLE_STREAMOUTSTATS[n] at begin (+0) / end (+16)
 *           of a 32-byte slot per stream                                (§6.7)
 *   occl.   EVENT_WRITE ZPASS_DONE (index 1) at begin (+0) / end (+8) of a
 *           16-byte pair per render backend, the pairs of backends the GPU
 *           lacks pre-set to valid zeros (si_query_hw_prepare_buffer)  (§6.7)
 *   render  SET_PREDICATION PRED_OP = PRIMCOUNT over each stream's slot,
 *   cond    CONTINUE on all but the first, before the draws, whose packets
 *           carry the PREDICATE bit (si_emit_query_predication)         (§6.7)
 *
 * Differences from radeonsi, on purpose:
 * - radeonsi emits the begin as an atom before the next draw; here the
 *   GL call that starts streamout emits it, so that the PM4 of
 *   glBeginTransformFeedback / glResumeTransformFeedback shows it.
 * - radeonsi leaves VGT_STRMOUT_DRAW_OPAQUE_OFFSET at 0, so a DrawTF of a
 *   target bound at a non-zero offset counts offset / stride vertices too
 *   (docs/gcn-streamout.md §6.6); GL wants the captured vertices, so the
 *   offset register gets the bind offset (as PAL does), and is written only
 *   when it changes (it stays 0 in the common case).
 * - No IB-boundary suspend / resume (§6.5): gm keeps the VGT state across
 *   IBs, and a session never spans a context switch.
 * - BUFFER_SIZE_i reaches past the end of the target by the bytes of a
 *   vertex that nothing records (so_targets): GL drops a primitive only
 *   when recording its vertices would write past the end (GL 4.6 §13.3.2),
 *   the VGT when its whole strides do not fit.
 */
#include <stdlib.h>
#include <string.h>

#include "drv_hw.h"

#define SO_REG_STRIDE 0x10u   /* VGT_STRMOUT_BUFFER_SIZE_n are 16 bytes apart */

/*
 * Test-only driver bug: XFBTRACE_SIM_TEST_FAULT=stride_off_by_one makes
 * the begin program every VGT_STRMOUT_VTX_STRIDE_n one dword too large,
 * so that tests (tests/integration/test_web.py) get two sim runs of one
 * trace that differ because the driver behaved differently.
 */
static uint32_t test_fault_stride(void)
{
	const char *f = getenv("XFBTRACE_SIM_TEST_FAULT");
	return f && !strcmp(f, "stride_off_by_one") ? 1 : 0;
}

static void flush_vgt_streamout(struct pm4_cs *cs)
{
	struct pm4_wait_reg_mem w = {
		.function = V_WAIT_REG_MEM_EQUAL,
		.mem_space = V_WAIT_REG_MEM_SPACE_REGISTER,
		.engine = V_ENGINE_ME,
		.address = REG_CP_STRMOUT_CNTL >> 2,
		.reference = 1,
		.mask = CP_STRMOUT_CNTL_OFFSET_UPDATE_DONE(1),
		.poll_interval = 4,
	};

	pm4_set_uconfig_reg(cs, REG_CP_STRMOUT_CNTL, 0);
	pm4_event_write(cs, V_SO_VGTSTREAMOUT_FLUSH, 0);
	pm4_wait_reg_mem(cs, &w);
}

void drv_pm4_so_enable(struct drv_pipe *pipe)
{
	struct drv_pipe_so *x = pipe->so_begin_emitted ? pipe->so_current : NULL;
	/* a blit or a pixel rectangle is no draw for streamout or its
	 * queries (drv_pm4_blit.c) */
	bool en = !pipe->blitting && !pipe->pixrect && (x || pipe->prims_gen_queries > 0);
	uint32_t hw_mask = x ? x->hw_mask : 0;
	uint32_t cfg, buf_cfg;
	struct pm4_cs *cs;

	hw_mask |= hw_mask << 4 | hw_mask << 8 | hw_mask << 12;
	cfg = VGT_STRMOUT_CONFIG_STREAMOUT_0_EN(en) | VGT_STRMOUT_CONFIG_STREAMOUT_1_EN(en) |
	      VGT_STRMOUT_CONFIG_STREAMOUT_2_EN(en) | VGT_STRMOUT_CONFIG_STREAMOUT_3_EN(en);
	buf_cfg = x ? hw_mask & x->enabled_stream_buffers : 0;
	if (pipe->strmout_known && cfg == pipe->strmout_config &&
	    buf_cfg == pipe->strmout_buffer_config)
		return;
	cs = drv_hw_cs(pipe->screen, 4);
	if (pm4_set_reg_seq(cs, REG_VGT_STRMOUT_CONFIG, 2)) {
		pm4_emit(cs, cfg);
		pm4_emit(cs, buf_cfg);
	}
	pipe->strmout_known = true;
	pipe->strmout_config = cfg;
	pipe->strmout_buffer_config = buf_cfg;
	for (unsigned s = 0; s < 4; s++)
		if ((buf_cfg >> (4 * s)) & 0xF)
			pipe->stream_buffered_epoch[s]++;
}

/* Bytes of buffer b's vertex that transform feedback records: up to the
 * end of its last captured component.  The rest of the stride (an
 * xfb_stride beyond the outputs, trailing gl_SkipComponents) is never
 * written. */
static uint32_t recorded_bytes(const struct drv_tf_layout *tf, unsigned b)
{
	uint32_t end = 0;
	for (unsigned i = 0; i < tf->n_varyings; i++) {
		const struct drv_tf_varying *v = &tf->varyings[i];
		if (v->buffer == b && v->dwords && v->offset + 4 * v->dwords > end)
			end = v->offset + 4 * v->dwords;
	}
	return end;
}

/* Latches `targets` as the program's layout `tf` uses them.  GL 4.6
 * §13.3.2 records no vertex of a primitive when recording its vertices
 * would exceed the buffer's size or the bound range; the VGT writes a
 * primitive when its vertices' whole strides fit (docs/gcn-streamout.md
 * §7.3).  The two agree once BUFFER_SIZE also counts the unrecorded tail
 * of the last vertex: offset + (n - 1) * stride + recorded <= end
 * exactly when offset + n * stride <= end + (stride - recorded).  The
 * shader writes nothing past `recorded`, so nothing lands beyond the end. */
static bool so_targets(struct drv_pipe *pipe, struct drv_pipe_so *x, const struct drv_tf_layout *tf,
		       const struct drv_pipe_so_target *targets)
{
	x->hw_mask = 0;
	x->enabled_stream_buffers = 0;
	for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++) {
		const struct drv_pipe_so_target *t = &targets[b];

		x->stride_dw[b] = tf->stride_bytes[b] / 4;
		x->stream_of_buffer[b] = tf->buffer_stream[b];
		if (!t->buffer || !tf->stride_bytes[b])
			continue;
		if (!drv_pipe_buffer_storage(pipe->screen, t->buffer))
			return false;
		x->hw_mask |= 1u << b;
		x->hw_va[b] = t->buffer->bo->va;
		x->hw_offset_dw[b] = (uint32_t)(t->offset >> 2);
		x->hw_size_dw[b] = (uint32_t)((t->offset + t->size) >> 2) +
				   (tf->stride_bytes[b] - recorded_bytes(tf, b)) / 4;
		x->enabled_stream_buffers |= (1u << b) << (4 * tf->buffer_stream[b]);
	}
	return true;
}

static void so_begin(struct drv_pipe *pipe, struct drv_pipe_so *x, const struct drv_tf_layout *tf,
		     const struct drv_pipe_so_target *targets, bool resume)
{
	struct pm4_cs *cs;

	if (!drv_hw_gpu_free(pipe))
		return;
	if (!resume || !x->filled) {
		if (!x->filled)
			x->filled = drv_bo_create(pipe->screen, 16, 256);
		if (!x->filled) {
			drv_hw_out_of_memory(pipe);
			return;
		}
	}
	if (!resume && !so_targets(pipe, x, tf, targets)) {
		drv_hw_out_of_memory(pipe);
		return;
	}
	cs = drv_hw_cs(pipe->screen, 16 + 10 * DRV_MAX_TF_BUFFERS);
	flush_vgt_streamout(cs);
	for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++) {
		struct pm4_strmout_buffer_update u = { .buffer_select = b };
		if (!(x->hw_mask >> b & 1))
			continue;
		if (pm4_set_reg_seq(cs, REG_VGT_STRMOUT_BUFFER_SIZE_0 + SO_REG_STRIDE * b, 2)) {
			pm4_emit(cs, x->hw_size_dw[b]);
			pm4_emit(cs, VGT_STRMOUT_VTX_STRIDE_0_STRIDE(x->stride_dw[b] +
								      test_fault_stride()));
		}
		if (resume && x->filled_valid) {
			u.offset_source = V_STRMOUT_OFFSET_FROM_MEM;
			u.src_address = x->filled->va + 4 * b;
		} else {
			u.offset_source = V_STRMOUT_OFFSET_FROM_PACKET;
			u.buffer_offset = x->hw_offset_dw[b];
		}
		pm4_strmout_buffer_update(cs, &u);
	}
	pipe->so_begin_emitted = true;
	pipe->so_current = x;
	drv_pm4_so_enable(pipe);
}

void drv_pipe_so_begin(struct drv_pipe *pipe, struct drv_pipe_so *so,
		       const struct drv_tf_layout *tf,
		       const struct drv_pipe_so_target targets[DRV_MAX_TF_BUFFERS])
{
	so_begin(pipe, so, tf, targets, false);
}

void drv_pipe_so_resume(struct drv_pipe *pipe, struct drv_pipe_so *so)
{
	so_begin(pipe, so, NULL, NULL, true);
}

void drv_pipe_so_end(struct drv_pipe *pipe, struct drv_pipe_so *x)
{
	struct pm4_cs *cs;

	if (!pipe->so_begin_emitted || pipe->so_current != x)
		return;
	cs = drv_hw_cs(pipe->screen, 16 + 9 * DRV_MAX_TF_BUFFERS);
	flush_vgt_streamout(cs);
	for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++) {
		struct pm4_strmout_buffer_update u = {
			.store_filled_size = true,
			.offset_source = V_STRMOUT_OFFSET_NONE,
			.buffer_select = b,
			.dst_address = x->filled->va + 4 * b,
		};
		if (!(x->hw_mask >> b & 1))
			continue;
		pm4_strmout_buffer_update(cs, &u);
		/* radeonsi: a zero size keeps the emitted counter from counting
		 * while streamout stays enabled for queries. */
		pm4_set_context_reg(cs, REG_VGT_STRMOUT_BUFFER_SIZE_0 + SO_REG_STRIDE * b, 0);
	}
	x->filled_valid = true;
	pipe->so_begin_emitted = false;
	drv_pm4_so_enable(pipe);
}

void drv_pipe_so_release(struct drv_pipe *pipe, struct drv_pipe_so *so)
{
	if (pipe->so_current == so)
		pipe->so_current = NULL;
	drv_bo_destroy(pipe->screen, so->filled);
	so->filled = NULL;
}

void drv_pm4_so_draw_opaque(struct drv_pipe *pipe, struct drv_pipe_so *x, unsigned stream)
{
	struct pm4_cs *cs = drv_hw_cs(pipe->screen, 16);
	unsigned b;

	/* The first buffer of the stream, as st/mesa's draw_count[stream]. */
	for (b = 0; b < DRV_MAX_TF_BUFFERS; b++)
		if ((x->hw_mask >> b & 1) && x->stream_of_buffer[b] == stream)
			break;
	if (b == DRV_MAX_TF_BUFFERS || !x->stride_dw[b]) {
		/* Nothing was captured for this stream: a draw of 0 vertices. */
		b = 0;
	}
	if (pipe->opaque_offset != x->hw_offset_dw[b]) {
		pm4_set_context_reg(cs, REG_VGT_STRMOUT_DRAW_OPAQUE_OFFSET, x->hw_offset_dw[b]);
		pipe->opaque_offset = x->hw_offset_dw[b];
	}
	pm4_set_context_reg(cs, REG_VGT_STRMOUT_DRAW_OPAQUE_VERTEX_STRIDE,
			    x->stride_dw[b] ? x->stride_dw[b] : 1);
	pm4_copy_data(cs, PKT3_COPY_DATA_CONTROL_SRC_SEL(V_COPY_DATA_SRC_MEM) |
			  PKT3_COPY_DATA_CONTROL_DST_SEL(V_COPY_DATA_DST_REG) |
			  PKT3_COPY_DATA_CONTROL_WR_CONFIRM(1),
		      x->filled->va + 4 * b, REG_VGT_STRMOUT_DRAW_OPAQUE_BUFFER_FILLED_SIZE >> 2);
}

uint32_t drv_pipe_so_vertex_count(struct drv_pipe *pipe, struct drv_pipe_so *x, unsigned stream)
{
	uint32_t filled;
	unsigned b;

	for (b = 0; b < DRV_MAX_TF_BUFFERS; b++)
		if ((x->hw_mask >> b & 1) && x->stream_of_buffer[b] == stream)
			break;
	if (b == DRV_MAX_TF_BUFFERS || !x->stride_dw[b] || !x->filled_valid)
		return 0;
	drv_pipe_flush(pipe);
	memcpy(&filled, x->filled->map + 4 * b, 4);
	/* what the VGT computes for the opaque draw (gm_cp.c, §6.6) */
	return filled > x->hw_offset_dw[b] ? (filled - x->hw_offset_dw[b]) / x->stride_dw[b] : 0;
}

/* ---- queries ------------------------------------------------------------------- */

static uint32_t stats_event(unsigned stream)
{
	static const uint32_t ev[4] = { V_SAMPLE_STREAMOUTSTATS, V_SAMPLE_STREAMOUTSTATS1,
					V_SAMPLE_STREAMOUTSTATS2, V_SAMPLE_STREAMOUTSTATS3 };
	return ev[stream & 3];
}

/* Streams a query samples: one, or all four for DRV_QUERY_SO_OVERFLOW_ANY. */
static unsigned streams_of(const struct drv_pipe_query *q, unsigned *first)
{
	if (q->type == DRV_QUERY_SO_OVERFLOW_ANY) {
		*first = 0;
		return 4;
	}
	*first = q->stream;
	return 1;
}

/* Render backends of an occlusion slot (GFX8's most), and how many the
 * simulated GPU has: what the kernel's enabled-RB mask tells radeonsi.
 * Assumption: one, as gpu_model's GM_RENDER_BACKENDS. */
#define OCCLUSION_MAX_RBS 8
#define OCCLUSION_ENABLED_RBS 1

static bool is_occlusion(const struct drv_pipe_query *q)
{
	return q->type == DRV_QUERY_OCCLUSION_COUNTER || q->type == DRV_QUERY_OCCLUSION_PREDICATE;
}

/* at: 0 = begin, 1 = end */
static void sample(struct drv_pipe *pipe, struct drv_pipe_query *q, unsigned at)
{
	struct pm4_cs *cs = drv_hw_cs(pipe->screen, 16);
	unsigned first, n = streams_of(q, &first);

	memcpy(q->epoch[at], pipe->stream_buffered_epoch, sizeof q->epoch[at]);
	if (!at) {
		q->buffered_at_begin = 0;
		for (unsigned s = 0; s < 4; s++)
			if (pipe->strmout_known && (pipe->strmout_buffer_config >> (4 * s)) & 0xF)
				q->buffered_at_begin |= 1u << s;
	}

	if (is_occlusion(q)) {
		pm4_event_write_addr(cs, V_ZPASS_DONE, 1, q->slots->va + 8 * at);
		return;
	}
	for (unsigned s = first; s < first + n; s++)
		pm4_event_write_addr(cs, stats_event(s), 3, q->slots->va + 32 * s + 16 * at);
}

bool drv_pipe_query_begin(struct drv_pipe *pipe, struct drv_pipe_query *q,
			  enum drv_pipe_query_type type, unsigned stream)
{
	if (!q->slots) {
		q->slots = drv_bo_create(pipe->screen, 128, 256);
		if (!q->slots) {
			drv_hw_out_of_memory(pipe);
			return false;
		}
	}
	q->type = type;
	q->stream = stream;
	pipe->active_queries++;
	if (is_occlusion(q)) {
		pipe->occlusion_queries++;
		pipe->dirty |= 1u << DRV_ATOM_PIXEL;   /* DB_COUNT_CONTROL */
	}
	if (type == DRV_QUERY_PRIMITIVES_GENERATED) {
		pipe->prims_gen_queries++;
		drv_pm4_so_enable(pipe);
	}
	if (!drv_hw_gpu_free(pipe))
		return true;   /* counting as far as GL is concerned; reported */
	drv_pipe_flush(pipe);
	memset(q->slots->map, 0, 128);
	if (is_occlusion(q))
		for (unsigned rb = OCCLUSION_ENABLED_RBS; rb < OCCLUSION_MAX_RBS; rb++) {
			uint64_t valid[2] = { 1ull << 63, 1ull << 63 };
			memcpy(q->slots->map + 16 * rb, valid, sizeof valid);
		}
	sample(pipe, q, 0);
	return true;
}

void drv_pipe_query_end(struct drv_pipe *pipe, struct drv_pipe_query *q)
{
	sample(pipe, q, 1);
	pipe->active_queries--;
	if (is_occlusion(q)) {
		pipe->occlusion_queries--;
		pipe->dirty |= 1u << DRV_ATOM_PIXEL;
	}
	if (q->type == DRV_QUERY_PRIMITIVES_GENERATED) {
		pipe->prims_gen_queries--;
		drv_pm4_so_enable(pipe);
	}
}

void drv_pipe_query_release(struct drv_pipe *pipe, struct drv_pipe_query *q, bool end_first)
{
	if (end_first) {
		sample(pipe, q, 1);
		pipe->active_queries--;
		if (is_occlusion(q)) {
			pipe->occlusion_queries--;
			pipe->dirty |= 1u << DRV_ATOM_PIXEL;
		}
		if (q->type == DRV_QUERY_PRIMITIVES_GENERATED)
			pipe->prims_gen_queries--;
		drv_pm4_so_enable(pipe);
		/* The end sample writes into the slots, freed below. */
		drv_pipe_flush(pipe);
	}
	drv_bo_destroy(pipe->screen, q->slots);
	q->slots = NULL;
}

uint64_t drv_pipe_query_result(struct drv_pipe *pipe, const struct drv_pipe_query *q)
{
	const uint64_t mask = ~(1ull << 63);
	unsigned first, n = streams_of(q, &first);
	bool overflow = false;
	uint64_t sum = 0;

	drv_pipe_flush(pipe);
	if (is_occlusion(q)) {
		for (unsigned rb = 0; rb < OCCLUSION_MAX_RBS; rb++) {
			uint64_t v[2];
			memcpy(v, q->slots->map + 16 * rb, sizeof v);
			if (v[0] >> 63 && v[1] >> 63)
				sum += (v[1] & mask) - (v[0] & mask);
		}
		return q->type == DRV_QUERY_OCCLUSION_PREDICATE ? sum != 0 : sum;
	}
	for (unsigned s = first; s < first + n; s++) {
		uint64_t v[4];
		memcpy(v, q->slots->map + 32 * s, sizeof v);
		uint64_t needed = (v[2] & mask) - (v[0] & mask);
		uint64_t written = (v[3] & mask) - (v[1] & mask);
		/* GL 4.6 §13.3.2 / ARB_transform_feedback_overflow_query: a
		 * stream overflows when a primitive is not recorded because
		 * recording it would exceed a buffer's size or range.  A stream
		 * with no buffer (none of its varyings captured) records
		 * nothing and exceeds no buffer: the VGT counts its primitives
		 * as needed, not written, which is not an overflow.  So only
		 * streams that had a buffer in the query's span count. */
		bool buffered = (q->buffered_at_begin >> s & 1) || q->epoch[0][s] != q->epoch[1][s];
		overflow |= buffered && needed != written;
		sum += q->type == DRV_QUERY_PRIMITIVES_GENERATED ? needed : written;
	}
	return q->type == DRV_QUERY_SO_OVERFLOW_ANY || q->type == DRV_QUERY_SO_OVERFLOW ? overflow : sum;
}

void drv_pipe_render_condition(struct drv_pipe *pipe, const struct drv_pipe_query *q, bool invert,
			       bool wait)
{
	pipe->render_cond = q && q->slots ? q : NULL;
	pipe->render_cond_invert = invert;
	pipe->render_cond_wait = wait;
	pipe->dirty |= 1u << DRV_ATOM_RENDER_COND;
}

/* si_emit_query_predication: for the streamout-overflow types radeonsi
 * inverts the sense, because PRIMCOUNT's "visible" is "no overflow" and GL
 * draws when the query is true (overflowed): DRAW_VISIBLE = 0 unless the
 * GL mode is inverted. */
void drv_pm4_emit_render_cond(struct drv_pipe *pipe, struct pm4_cs *cs)
{
	const struct drv_pipe_query *q = pipe->render_cond;
	struct pm4_set_predication sp = { .pred_op = V_PREDICATION_OP_CLEAR };
	unsigned first, n;

	if (!q) {
		/* the CP's predication is GPU state, not context state: clear
		 * it only when some context set it */
		if (pipe->screen->predication_on)
			pm4_set_predication(cs, &sp);
		pipe->screen->predication_on = false;
		return;
	}
	pipe->screen->predication_on = true;
	sp.hint_nowait = !pipe->render_cond_wait;
	if (is_occlusion(q)) {
		/* ZPASS: "visible" is some sample passed; GL draws then */
		sp.pred_op = V_PREDICATION_OP_ZPASS;
		sp.draw_visible = !pipe->render_cond_invert;
		sp.address = q->slots->va;
		pm4_set_predication(cs, &sp);
		return;
	}
	sp.pred_op = V_PREDICATION_OP_PRIMCOUNT;
	sp.draw_visible = pipe->render_cond_invert;
	n = streams_of(q, &first);
	for (unsigned s = first; s < first + n; s++) {
		sp.address = q->slots->va + 32 * s;
		pm4_set_predication(cs, &sp);
		sp.continue_ = true;
	}
}

void drv_pipe_buffer_write(struct drv_pipe *pipe, struct drv_pipe_buffer *buf, uint64_t offset,
			   uint64_t value, unsigned bytes)
{
	struct pm4_cs *cs = drv_hw_cs(pipe->screen, 8);
	uint32_t data[2] = { (uint32_t)value, (uint32_t)(value >> 32) };

	pm4_write_data(cs, V_WRITE_DATA_DST_MEM_ASYNC, V_ENGINE_ME, true, buf->bo->va + offset, data,
		       bytes / 4);
}
