/*
 * replay_sim.c - the sim backend: replays a trace on the driver model
 * (driver/st/drv.h: GL state tracker + shader compiler + radeonsi-style PM4)
 * running on the simulated GPU (gpu_model/), which this backend creates
 * and hands to the driver as a winsys (winsys/ws_gm.h) as a window system
 * hands a driver its GPU; it keeps the GPU to read registers and faults
 * after each call.  It makes the observations
 * the capture made, through the same observation core (observe/obs.h), so
 * that --check compares like for like.
 *
 * The driver exports GL entry points with the registry's C signatures, so
 * a GL call runs exactly as on the host backend: the recorded arguments
 * are converted by the host backend's converter (replay_args.c: names
 * remapped, client memory shadows, outputs into scratch), and the
 * generated thunk (replay_stubs.c) calls the driver's entry point.  What
 * differs from the host is where contexts come from (the driver's, created
 * from the trace's CONTEXT records; EGL / GLX calls are otherwise only
 * bookkeeping), and the GL behind the observations and read-backs
 * (replay_obs.c, shared with the host backend), which is the driver's
 * entry points (struct host.gl_proc = drv_get_proc_address).
 *
 * Per call the backend also learns what the driver could not do
 * (drv_context_take_unsupported -> replay_unsupported, by name and call
 * number) and any GPU fault the call caused (a recorded gm fault is a
 * model limit or a driver bug, and is reported the same way), and, with
 * XFBTRACE_SIM_ARTIFACTS=DIR, writes the call's artefacts:
 *
 *   DIR/calls.tsv           call  function  pm4_dwords  regs_hash  program
 *   DIR/pm4/<call>.bin      the PM4 dwords the call submitted (raw LE)
 *   DIR/regs/<hash>.bin     register state after a draw / TF / query call:
 *                           (byte offset, value) u32 pairs, ascending;
 *                           content-addressed, so unchanged states are one file
 *   DIR/shaders/<prog>.txt  the program's binaries (disassembly), once
 *
 * Read them with `xfbtrace pm4 call DIR CALL` / `xfbtrace regs DIR CALL`.
 *
 * Register overrides (replay_options.reg_overrides, `replay --set-reg`):
 * before each GL call the backend hands the GPU those whose call range
 * holds the call (gm_reg_override_set), which forces them at each of the
 * call's draws; the register state after the call shows them.
 * The same artefacts go to the replay's on_artifact hook (replay.h), which
 * `replay --db` uses to store them in the results database (docs/db.md).
 * Determinism: the driver and gm are deterministic, so two runs write
 * byte-identical artefacts.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "drv.h"
#include "gm.h"
#include "replay_host.h"
#include "ws_gm.h"
#include "xt_fault.h"
#include "xt_hash.h"
#include "xt_log.h"

/* An occlusion query of a context, by the application's name: what width-1
 * lines did to its count over its last begin / end (replay_lines.h). */
struct sim_query {
	uint64_t id;
	uint32_t target;               /* while active */
	bool active, ended;
	uint64_t segments, bound, samples;   /* at its begin; over it once ended */
};

struct sim_ctx {
	struct host_ctx hx;            /* names, error queue, program (replay_args.c) */
	struct drv_context *drv;
	uint64_t config;               /* recorded config handle (CONTEXT "create") */
	/* width-1 segments its draws rasterized while the DB counted samples,
	 * and their replay_lines_sample_bound, since it was created */
	uint64_t line_segments, line_bound;
	struct sim_query *queries;
	size_t nqueries;
};

/* The width-1 segments rasterized into one colour buffer (its GPU
 * address) since it was last cleared whole; at most SIM_LINES_MAX, later
 * ones are not kept (a difference they would explain stays one). */
#define SIM_LINES_MAX (1u << 20)
struct sim_lines {
	uint64_t va;
	struct replay_line *v;
	size_t n, cap;
	/* rectangles blits wrote with undefined or implementation-dependent
	 * values (drv.h, surface events), at most SIM_LOOSE_MAX */
	struct replay_loose *loose;
	size_t nloose;
};
#define SIM_LOOSE_MAX 4096u

/* What CONTEXT "config" and "surface" events recorded: the window-system
 * framebuffer a context draws into when a surface is made current. */
struct sim_config {
	uint64_t handle;
	int size[7];                   /* red green blue alpha depth stencil samples, -1 unknown */
};
struct sim_surface {
	uint64_t handle, config;       /* config 0: the context's */
	uint32_t width, height;        /* 0: unknown */
};

struct sim_thread {
	uint32_t no;
	struct sim_ctx *ctx;
};

struct sim {
	struct host h;                 /* only names, mem, arena, funcs are used */
	struct gm *gm;                 /* the simulated GPU */
	struct drv_winsys *ws;         /* the driver's way to it */
	struct drv_screen *screen;
	struct sim_ctx **ctx;
	size_t nctx;
	struct sim_thread *threads;
	size_t nthreads;
	unsigned (*get_error)(void);      /* the driver's glGetError */
	char describe[160];
	bool driver_reported;        /* replay_set_driver called */
	const char *artifacts;         /* directory, or NULL */
	FILE *calls_tsv;
	uint64_t last_fault_count;
	uint32_t *dumped;              /* programs whose shaders were written */
	size_t ndumped;
	struct sim_config *configs;
	size_t nconfigs;
	struct sim_surface *surfaces;
	size_t nsurfaces;
	struct sim_lines *lines;       /* per colour buffer drawn into */
	size_t nlines, lines_last;     /* lines_last: the one added to last */
	uint64_t read_va;              /* the colour buffer the last call read, 0: none */
	struct replay_reg_override *ovr;  /* replay_options.reg_overrides */
	size_t novr;
	struct gm_reg_override *active;   /* those the GPU has now, novr room */
	size_t nactive;
	struct xt_buf layout_notes;    /* the driver's layout notes printed so far */
};

static struct sim *sim_of(struct replay_backend *be)
{
	return (struct sim *)be;
}

/* ---- contexts ------------------------------------------------------------------ */

static struct sim_ctx *ctx_find(struct sim *s, uint64_t handle)
{
	for (size_t i = 0; i < s->nctx; i++)
		if (s->ctx[i]->hx.handle == handle)
			return s->ctx[i];
	return NULL;
}

static struct sim_thread *thread_of(struct sim *s, uint32_t no)
{
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i].no == no)
			return &s->threads[i];
	struct sim_thread *t = xt_realloc(s->threads, (s->nthreads + 1) * sizeof *t);
	if (!t)
		return NULL;
	s->threads = t;
	t[s->nthreads] = (struct sim_thread){ .no = no };
	return &t[s->nthreads++];
}

static enum xt_rc context_create(struct sim *s, struct replay *rp, const struct trace_call *call,
				 uint64_t call_no, const struct trace_value *ev, struct xt_err *err)
{
	struct sim_ctx *share = host_value_uint(ev, "share") ? ctx_find(s, host_value_uint(ev, "share")) : NULL;
	/* Mesa (dri_util.c) makes a forward-compatible (flags bit 1, the
	 * ARB / KHR value) GL 3.1 context a core one: there is no
	 * ARB_compatibility to keep. */
	bool fwd_31 = !host_value_str_is(ev, "api", "gles") && host_value_uint(ev, "major") == 3 &&
		      host_value_uint(ev, "minor") == 1 && (host_value_uint(ev, "flags") & 2);
	struct drv_context_desc d = {
		.gles = host_value_str_is(ev, "api", "gles"),
		.core = host_value_str_is(ev, "profile", "core") || fwd_31,
		.major = (int)host_value_uint(ev, "major"),
		.minor = (int)host_value_uint(ev, "minor"),
		.share = share ? share->drv : NULL,
	};
	struct sim_ctx *x = xt_calloc(1, sizeof *x);
	struct sim_ctx **list = x ? xt_realloc(s->ctx, (s->nctx + 1) * sizeof *list) : NULL;
	enum xt_rc rc;

	if (!list) {
		xt_free(x);
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a context");
	}
	s->ctx = list;
	if (d.major > 99 || d.minor > 99)
		return XT_FAIL(err, XT_ERR_CORRUPT, "call %llu: context version %d.%d",
			       (unsigned long long)call_no, d.major, d.minor);
	rc = drv_context_create(s->screen, &d, &x->drv, err);
	if (rc != XT_OK) {
		xt_free(x);
		return rc;
	}
	list[s->nctx++] = x;
	x->config = host_value_uint(ev, "config");
	x->hx.handle = host_value_uint(ev, "context");
	x->hx.ns = (uint32_t)s->nctx;
	x->hx.share_ns = share ? share->hx.share_ns : x->hx.ns;
	drv_context_version(x->drv, &x->hx.gles, &x->hx.major, &x->hx.minor);
	x->hx.version_known = true;
	return XT_OK;
}

static const char *const config_keys[7] = { "red", "green", "blue", "alpha", "depth", "stencil",
					    "samples" };

static struct sim_config *config_find(struct sim *s, uint64_t handle)
{
	for (size_t i = 0; i < s->nconfigs; i++)
		if (s->configs[i].handle == handle)
			return &s->configs[i];
	return NULL;
}

static struct sim_surface *surface_find(struct sim *s, uint64_t handle)
{
	for (size_t i = s->nsurfaces; i-- > 0;)     /* the newest of a reused handle */
		if (s->surfaces[i].handle == handle)
			return &s->surfaces[i];
	return NULL;
}

/* CONTEXT "config": a config's buffer sizes. */
static enum xt_rc config_event(struct sim *s, const struct trace_value *ev, struct xt_err *err)
{
	struct sim_config *c = config_find(s, host_value_uint(ev, "config"));
	if (!c) {
		struct sim_config *n = xt_realloc(s->configs, (s->nconfigs + 1) * sizeof *n);
		if (!n)
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a config");
		s->configs = n;
		c = &n[s->nconfigs++];
		c->handle = host_value_uint(ev, "config");
	}
	for (unsigned k = 0; k < 7; k++) {
		const struct trace_value *v = trace_value_get(ev, config_keys[k]);
		int64_t x = !v ? -1 : v->tag == TRACE_TAG_SINT ? v->i
			  : v->tag == TRACE_TAG_UINT ? (int64_t)v->u : -1;
		c->size[k] = x < 0 || x > 64 ? -1 : (int)x;
	}
	return XT_OK;
}

/* CONTEXT "surface": a surface's config and size (a later event of the
 * same handle, at a make-current, may carry a new size). */
static enum xt_rc surface_event(struct sim *s, uint64_t call_no, const struct trace_value *ev,
			       struct xt_err *err)
{
	uint64_t w = host_value_uint(ev, "width"), h = host_value_uint(ev, "height");
	struct sim_surface *n;

	if (w > REPLAY_MAX_SURFACE_SIZE || h > REPLAY_MAX_SURFACE_SIZE)
		return XT_FAIL(err, XT_ERR_CORRUPT, "call %llu: surface size %llux%llu",
			       (unsigned long long)call_no, (unsigned long long)w, (unsigned long long)h);
	n = xt_realloc(s->surfaces, (s->nsurfaces + 1) * sizeof *n);
	if (!n)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a surface");
	s->surfaces = n;
	n[s->nsurfaces++] = (struct sim_surface){
		.handle = host_value_uint(ev, "surface"), .config = host_value_uint(ev, "config"),
		.width = (uint32_t)w, .height = (uint32_t)h,
	};
	return XT_OK;
}

/* The window-system framebuffer of context x drawing into surface `draw`:
 * the surface's recorded size (REPLAY_DEFAULT_SURFACE_SIZE when the trace
 * does not hold it, as the host backend's pbuffers) and config (RGBA8,
 * depth 24, stencil 8 when unknown). */
static void bind_window(struct sim *s, struct sim_ctx *x, uint64_t draw)
{
	const struct sim_surface *sf = surface_find(s, draw);
	const struct sim_config *c = config_find(s, sf && sf->config ? sf->config : x->config);
	int size[7] = { 8, 8, 8, 8, 24, 8, 0 };
	struct drv_window w;

	if (!draw)
		return;
	for (unsigned k = 0; c && k < 7; k++)
		if (c->size[k] >= 0)
			size[k] = c->size[k];
	w = (struct drv_window){
		.width = sf && sf->width && sf->height ? sf->width : REPLAY_DEFAULT_SURFACE_SIZE,
		.height = sf && sf->width && sf->height ? sf->height : REPLAY_DEFAULT_SURFACE_SIZE,
		.red = size[0], .green = size[1], .blue = size[2], .alpha = size[3],
		.depth = size[4], .stencil = size[5], .samples = size[6],
	};
	drv_context_set_window(x->drv, &w);
}

static enum xt_rc sim_context(struct replay_backend *be, struct replay *rp,
			      const struct trace_call *call, uint64_t call_no,
			      const struct trace_value *ev, struct xt_err *err)
{
	struct sim *s = sim_of(be);

	if (host_value_str_is(ev, "event", "create"))
		return context_create(s, rp, call, call_no, ev, err);
	if (host_value_str_is(ev, "event", "current")) {
		struct sim_thread *t = thread_of(s, call ? call->thread_no : 0);
		uint64_t handle = host_value_uint(ev, "context");
		if (!t)
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a thread");
		t->ctx = handle ? ctx_find(s, handle) : NULL;
		if (handle && !t->ctx)
			xt_warn("replay: call %llu makes current a context the trace never created",
				(unsigned long long)call_no);
		if (t->ctx)
			bind_window(s, t->ctx, host_value_uint(ev, "draw"));
	}
	if (host_value_str_is(ev, "event", "config"))
		return config_event(s, ev, err);
	if (host_value_str_is(ev, "event", "surface"))
		return surface_event(s, call_no, ev, err);
	return XT_OK;   /* "destroy": the context lives until the end */
}

/* ---- artefacts ------------------------------------------------------------------ */

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, n, f) != n)
		xt_warn("replay: cannot write %s: %s", path, strerror(errno));
	if (f)
		fclose(f);
}

/*
 * The call's artefacts: to DIR (XFBTRACE_SIM_ARTIFACTS) and to whoever
 * takes them through the replay (replay_artifact: `replay --db` stores
 * them in the results database).  Collected only when one of the two wants
 * them.
 */
static enum xt_rc artifacts(struct sim *s, struct replay *rp, struct sim_ctx *x,
			    const struct trace_call *call, const uint32_t *pm4, uint32_t n_dw,
			    bool state_call, struct xt_err *err)
{
	char path[4096], hash[40] = "-";
	struct replay_artifact a = { .call_no = call->no, .function = call->name };
	struct gm_reg_value *regs = NULL;
	size_t count = 0;
	struct xt_buf shader;
	enum xt_rc rc;

	if ((!s->calls_tsv && !replay_wants_artifacts(rp)) || (!n_dw && !state_call))
		return XT_OK;
	xt_buf_init(&shader);
	if (n_dw) {
		a.pm4 = pm4;
		a.pm4_dwords = n_dw;
	}
	if (state_call) {
		/* A run without a call's registers would show a difference no
		 * driver made: fail with gm's message instead. */
		if ((rc = gm_reg_snapshot(s->gm, false, &regs, &count)) != XT_OK)
			return XT_FAIL(err, rc, "call %llu: %s", (unsigned long long)call->no,
				       gm_errmsg(s->gm));
		a.regs = regs;
		a.regs_bytes = count * sizeof *regs;
		xt_hash128_hex(xt_hash128(regs, a.regs_bytes), hash);
	}
	if (state_call)
		a.program = drv_context_last_draw_program(x->drv);
	if (a.program) {
		bool done = false;
		for (size_t i = 0; i < s->ndumped; i++)
			done |= s->dumped[i] == a.program;
		uint32_t *d = done ? NULL : xt_realloc(s->dumped, (s->ndumped + 1) * sizeof *d);
		if (d) {
			s->dumped = d;
			d[s->ndumped++] = a.program;
			if (drv_context_program_dump(x->drv, a.program, &shader) == XT_OK) {
				a.shader_text = (const char *)shader.data;
				a.shader_bytes = shader.len;
			}
		}
	}
	if (s->calls_tsv) {
		if (n_dw) {
			snprintf(path, sizeof path, "%s/pm4/%llu.bin", s->artifacts,
				 (unsigned long long)call->no);
			write_file(path, pm4, (size_t)n_dw * 4);
		}
		if (a.regs) {
			struct stat st;
			snprintf(path, sizeof path, "%s/regs/%s.bin", s->artifacts, hash);
			if (stat(path, &st) != 0)
				write_file(path, a.regs, a.regs_bytes);
		}
		if (a.shader_text) {
			snprintf(path, sizeof path, "%s/shaders/%u.txt", s->artifacts, a.program);
			write_file(path, a.shader_text, a.shader_bytes);
		}
		fprintf(s->calls_tsv, "%llu\t%s\t%u\t%s\t%u\n", (unsigned long long)call->no,
			call->name, n_dw, hash, a.program);
	}
	rc = replay_artifact(rp, &a, err);
	free(regs);
	xt_buf_fini(&shader);
	return rc;
}

/* ---- rasterized lines (GL 4.6 §14.5.1, replay_lines.h) ------------------------------ */

static void lines_forget(struct sim *s, uint64_t va)
{
	for (size_t i = 0; i < s->nlines; i++) {
		if (s->lines[i].va != va && va)
			continue;
		xt_free(s->lines[i].v);
		xt_free(s->lines[i].loose);
		s->lines[i--] = s->lines[--s->nlines];
	}
}

/* The record of colour buffer `va`, made at the first use; NULL when out
 * of memory. */
static struct sim_lines *lines_of(struct sim *s, uint64_t va)
{
	struct sim_lines *b = s->lines_last < s->nlines && s->lines[s->lines_last].va == va
			      ? &s->lines[s->lines_last] : NULL;

	for (size_t i = 0; i < s->nlines && !b; i++)
		if (s->lines[i].va == va)
			b = &s->lines[i];
	if (!b) {
		struct sim_lines *n = xt_realloc(s->lines, (s->nlines + 1) * sizeof *n);
		if (!n)
			return NULL;
		s->lines = n;
		b = &n[s->nlines++];
		*b = (struct sim_lines){ .va = va };
	}
	s->lines_last = (size_t)(b - s->lines);
	return b;
}

/* A rectangle of `va` a blit wrote loosely (past SIM_LOOSE_MAX it is not
 * kept: a difference it would explain stays one). */
static void loose_add(struct sim *s, uint64_t va, const struct replay_loose *l)
{
	struct sim_lines *b = lines_of(s, va);
	struct replay_loose *v;

	if (!b || b->nloose >= SIM_LOOSE_MAX || !(v = xt_realloc(b->loose, (b->nloose + 1) * sizeof *v)))
		return;
	b->loose = v;
	v[b->nloose++] = *l;
}

static void lines_add(struct sim *s, uint64_t va, const struct replay_line *l);

/* An unscaled blit or copy (drv.h): the segments and loose rectangles of
 * the source that reach the copied rectangle go with its pixels, moved as
 * they were.  (Kept whole: near the rectangle's edge they may explain a
 * pixel the copy did not write.) */
static void copy_known(struct sim *s, const struct drv_copy *c)
{
	const struct sim_lines *from = NULL;
	struct replay_line *v = NULL;
	struct replay_loose *l = NULL;
	size_t nv = 0, nl = 0;

	for (size_t i = 0; i < s->nlines; i++)
		if (s->lines[i].va == c->src_va)
			from = &s->lines[i];
	if (!from || (!from->n && !from->nloose))
		return;
	/* copies first: adding to the destination may move the records */
	if ((from->n && !(v = xt_malloc(from->n * sizeof *v))) ||
	    (from->nloose && !(l = xt_malloc(from->nloose * sizeof *l)))) {
		xt_free(v);
		return;
	}
	if (from->n)
		memcpy(v, from->v, from->n * sizeof *v);
	if (from->nloose)
		memcpy(l, from->loose, from->nloose * sizeof *l);
	nv = from->n;
	nl = from->nloose;
	for (size_t i = 0; i < nv; i++) {
		const struct replay_line t = { c->mx * v[i].x0 + c->ox, c->my * v[i].y0 + c->oy,
					       c->mx * v[i].x1 + c->ox, c->my * v[i].y1 + c->oy };
		/* a segment explains pixels within 2 units of it */
		if (fmin(t.x0, t.x1) - 2 < c->x1 && fmax(t.x0, t.x1) + 2 > c->x0 && fmin(t.y0, t.y1) - 2 < c->y1 &&
		    fmax(t.y0, t.y1) + 2 > c->y0)
			lines_add(s, c->dst_va, &t);
	}
	for (size_t i = 0; i < nl; i++) {
		int64_t x0 = c->mx * l[i].x0 + c->ox, x1 = c->mx * l[i].x1 + c->ox;
		int64_t y0 = c->my * l[i].y0 + c->oy, y1 = c->my * l[i].y1 + c->oy;
		struct replay_loose t = { x0 < x1 ? x0 : x1, y0 < y1 ? y0 : y1, x0 < x1 ? x1 : x0, y0 < y1 ? y1 : y0,
					  l[i].undefined };
		t.x0 = t.x0 > c->x0 ? t.x0 : c->x0;
		t.y0 = t.y0 > c->y0 ? t.y0 : c->y0;
		t.x1 = t.x1 < c->x1 ? t.x1 : c->x1;
		t.y1 = t.y1 < c->y1 ? t.y1 : c->y1;
		if (t.x0 < t.x1 && t.y0 < t.y1)
			loose_add(s, c->dst_va, &t);
	}
	xt_free(v);
	xt_free(l);
}

static void lines_add(struct sim *s, uint64_t va, const struct replay_line *l)
{
	struct sim_lines *b = lines_of(s, va);

	if (!b)
		return;
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct replay_line *v = b->n < SIM_LINES_MAX ? xt_realloc(b->v, cap * sizeof *v) : NULL;
		if (!v)
			return;
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = *l;
}

static uint64_t arg_uint(const struct trace_call *call, uint32_t i)
{
	const struct trace_value *v = i < call->nargs ? &call->args[i] : NULL;

	return v && (v->tag == TRACE_TAG_UINT || v->tag == TRACE_TAG_ENUM) ? v->u : 0;
}

static bool occlusion_target(uint64_t target)
{
	return target == GL_SAMPLES_PASSED || target == GL_ANY_SAMPLES_PASSED ||
	       target == GL_ANY_SAMPLES_PASSED_CONSERVATIVE;
}

/* A glBeginQuery* / glEndQuery* of an occlusion query: its begin values,
 * or what happened over it. */
static void lines_query_call(struct sim *s, struct sim_ctx *x, const struct trace_call *call)
{
	const bool indexed = strstr(call->name, "Indexed") != NULL;
	const bool begin = !strncmp(call->name, "glBeginQuery", 12);
	const uint64_t target = arg_uint(call, 0);
	struct gm_so_stats st;

	if ((!begin && strncmp(call->name, "glEndQuery", 10)) || !occlusion_target(target))
		return;
	gm_so_stats_get(s->gm, &st);
	if (begin) {
		const uint64_t id = arg_uint(call, indexed ? 2 : 1);
		struct sim_query *q = NULL;
		for (size_t i = 0; i < x->nqueries && !q; i++)
			if (x->queries[i].id == id)
				q = &x->queries[i];
		if (!q) {
			struct sim_query *n = xt_realloc(x->queries, (x->nqueries + 1) * sizeof *n);
			if (!n)
				return;
			x->queries = n;
			q = &n[x->nqueries++];
		}
		*q = (struct sim_query){ id, (uint32_t)target, true, false, x->line_segments,
					 x->line_bound, st.zpass_samples };
		return;
	}
	for (size_t i = 0; i < x->nqueries; i++) {
		struct sim_query *q = &x->queries[i];
		if (!q->active || q->target != target)
			continue;
		q->active = false;
		q->ended = true;
		q->segments = x->line_segments - q->segments;
		q->bound = x->line_bound - q->bound;
		q->samples = st.zpass_samples - q->samples;
	}
}

/*
 * After a call of context x: the colour buffers it cleared whole forget
 * their segments, the segments the GPU rasterized are kept by the buffers
 * they were drawn into (and counted for x's occlusion queries), and the
 * buffer it read is remembered for sim_lines_read.
 */
static void lines_after_call(struct sim *s, struct sim_ctx *x, const struct trace_call *call)
{
	struct drv_surface_events ev;
	const struct gm_line *l;
	uint64_t dropped;
	size_t n;

	drv_context_take_surface_events(x->drv, &ev);
	if (ev.more_cleared)
		lines_forget(s, 0);
	for (unsigned i = 0; i < ev.ncleared; i++)
		lines_forget(s, ev.cleared[i]);
	/* (more than listed: those not listed explain no difference) */
	for (unsigned i = 0; i < ev.ncopies; i++)
		copy_known(s, &ev.copies[i]);
	for (unsigned i = 0; i < ev.nloose; i++) {
		const struct drv_loose *dl = &ev.loose[i];
		loose_add(s, dl->va, &(struct replay_loose){ dl->x0, dl->y0, dl->x1, dl->y1, dl->undefined });
	}
	l = gm_lines_get(s->gm, &n, &dropped);
	for (size_t i = 0; i < n; i++) {
		const struct replay_line rl = {
			(double)l[i].x0 / 256, (double)l[i].y0 / 256, (double)l[i].x1 / 256,
			(double)l[i].y1 / 256 };
		for (unsigned k = 0; k < 8; k++)
			if (l[i].cb_va[k])
				lines_add(s, l[i].cb_va[k], &rl);
		if (l[i].counted) {
			x->line_segments++;
			x->line_bound += replay_lines_sample_bound(1, l[i].samples);
		}
	}
	/* segments the GPU did not keep (dropped) are missing from the
	 * bound and the buffers: a difference they explain stays one */
	gm_lines_reset(s->gm);
	s->read_va = ev.read;
	lines_query_call(s, x, call);
}

static bool sim_lines_read(struct replay_backend *be, const struct replay_line **out, size_t *n)
{
	struct sim *s = sim_of(be);

	*out = NULL;
	*n = 0;
	if (!s->read_va)
		return false;
	for (size_t i = 0; i < s->nlines; i++) {
		if (s->lines[i].va == s->read_va) {
			*out = s->lines[i].v;
			*n = s->lines[i].n;
		}
	}
	return true;
}

static bool sim_loose_read(struct replay_backend *be, const struct replay_loose **out, size_t *n)
{
	struct sim *s = sim_of(be);

	*out = NULL;
	*n = 0;
	if (!s->read_va)
		return false;
	for (size_t i = 0; i < s->nlines; i++) {
		if (s->lines[i].va == s->read_va) {
			*out = s->lines[i].loose;
			*n = s->lines[i].nloose;
		}
	}
	return true;
}

static bool sim_query_lines(struct replay_backend *be, uint32_t thread_no, uint64_t query,
			    uint64_t *segments, uint64_t *bound, uint64_t *samples)
{
	struct sim *s = sim_of(be);
	struct sim_thread *t = thread_of(s, thread_no);

	for (size_t i = 0; t && t->ctx && i < t->ctx->nqueries; i++) {
		const struct sim_query *q = &t->ctx->queries[i];
		if (q->id == query && q->ended) {
			*segments = q->segments;
			*bound = q->bound;
			*samples = q->samples;
			return true;
		}
	}
	return false;
}

/* ---- calls ------------------------------------------------------------------------ */

/* host_func_of, with the entry point resolved in our driver. */
static struct host_func *func_of(struct sim *s, const struct trace_call *call)
{
	struct host_func *f = host_func_of(&s->h, call);

	if (f && !f->resolved) {
		f->fn = host_func_resolve(&s->h, f->id, call->name);
		f->resolved = true;
	}
	return f;
}

/* A GPU fault the call caused: reported like a missing feature. */
static void check_faults(struct sim *s, struct replay *rp, const struct trace_call *call)
{
	struct gm *gm = s->gm;
	uint64_t n = gm_fault_count(gm);

	if (n != s->last_fault_count) {
		const struct gm_fault *f = gm_fault_get(gm, s->last_fault_count);
		static char why[300];
		snprintf(why, sizeof why, "the simulated GPU faulted (%s: %s)",
			 f ? gm_fault_kind_name(f->kind) : "?", f ? f->reason : "record not kept");
		replay_unsupported(rp, call, why);
		s->last_fault_count = n;
	}
}

/* Hands the GPU the overrides whose call range holds call `no`, when they
 * differ from the ones it has. */
static enum xt_rc overrides_for_call(struct sim *s, uint64_t no, struct xt_err *err)
{
	size_t n = 0;
	bool same = true;

	for (size_t i = 0; i < s->novr; i++) {
		const struct replay_reg_override *o = &s->ovr[i];
		if (no < o->first_call || no > o->last_call)
			continue;
		struct gm_reg_override g = { .reg = o->reg, .mask = o->mask, .value = o->value };
		same &= n < s->nactive && !memcmp(&s->active[n], &g, sizeof g);
		s->active[n++] = g;
	}
	if (same && n == s->nactive)
		return XT_OK;
	s->nactive = n;
	if (gm_reg_override_set(s->gm, s->active, n) != XT_OK)
		return XT_FAIL(err, XT_ERR_INVALID, "%s", gm_errmsg(s->gm));
	return XT_OK;
}

/*
 * Hands the driver the uniform block layouts the trace recorded with this
 * call (a link's LAYOUT record), so that it lays out `shared` / `packed`
 * blocks as the capturing driver did; none for other calls, and for a
 * link without a record (a trace from before them, an apitrace import),
 * where the driver assumes std140 and says so (layout_notes).  In the
 * call's arena; false when out of memory.
 */
static bool block_layouts(struct sim *s, struct sim_ctx *x, const struct trace_layout *l)
{
	struct drv_recorded_block *b = NULL;

	if (l && l->n_blocks && !(b = xt_arena_alloc(&s->h.arena, l->n_blocks * sizeof *b)))
		return false;
	for (uint32_t i = 0; l && i < l->n_blocks; i++) {
		const struct trace_layout_block *lb = &l->blocks[i];
		struct drv_recorded_member *m = NULL;
		if (lb->n_members && !(m = xt_arena_alloc(&s->h.arena, lb->n_members * sizeof *m)))
			return false;
		for (uint32_t k = 0; k < lb->n_members; k++)
			m[k] = (struct drv_recorded_member){ lb->members[k].name, lb->members[k].offset,
							     lb->members[k].array_stride,
							     lb->members[k].matrix_stride, lb->members[k].row_major };
		b[i] = (struct drv_recorded_block){ lb->name, lb->data_size, m, lb->n_members };
	}
	drv_context_set_block_layouts(x->drv, b, l ? l->n_blocks : 0, l != NULL);
	return true;
}

/* What the driver's links could not lay out as the capturing driver did
 * (drv_context_take_layout_notes): each distinct line once per replay, a
 * warning naming the call where it first appeared. */
static void layout_notes(struct sim *s, struct sim_ctx *x, const struct trace_call *call)
{
	struct xt_buf notes = { 0 };

	if (!drv_context_take_layout_notes(x->drv, &notes))
		return;
	for (size_t at = 0; at < notes.len;) {
		const char *line = (const char *)notes.data + at;
		const char *nl = memchr(line, '\n', notes.len - at);
		size_t n = nl ? (size_t)(nl - line) : notes.len - at;
		bool seen = false;
		for (size_t k = 0; k + n + 1 <= s->layout_notes.len && !seen;) {
			const char *o = (const char *)s->layout_notes.data + k, *e = memchr(o, '\n', s->layout_notes.len - k);
			seen = e && (size_t)(e - o) == n && !memcmp(o, line, n);
			k = e ? (size_t)(e - (const char *)s->layout_notes.data) + 1 : s->layout_notes.len;
		}
		if (!seen && n) {
			xt_warn("replay: call %llu (%s): %.*s", (unsigned long long)call->no, call->name, (int)n, line);
			xt_buf_append(&s->layout_notes, line, n);
			xt_buf_append(&s->layout_notes, "\n", 1);
		}
		at += n + 1;
	}
	xt_buf_fini(&notes);
}

static enum xt_rc sim_call(struct replay_backend *be, struct replay *rp,
			   const struct trace_call *call, const struct trace_ret *ret,
			   struct xt_err *err)
{
	struct sim *s = sim_of(be);
	struct host_func *f = func_of(s, call);
	struct glapi_func_info fi;
	struct host_args args;
	union replay_arg rv = { 0 };
	const uint32_t *pm4;
	uint32_t n_dw;
	bool state_call;
	const char *why;

	if (!f)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	s->read_va = 0;
	if (f->id < 0 || !glapi_func_info(f->id, &fi)) {
		replay_unsupported(rp, call, "not a GL, GLES, EGL or GLX function of the registry");
		return XT_OK;
	}
	if (fi.api != GLAPI_API_GL) {
		/* EGL / GLX: contexts come from CONTEXT records; the rest is
		 * window-system bookkeeping the sim has no use for. */
		if (replay_stubs[f->id].hook != REPLAY_HOOK_SWAP)
			return XT_OK;
		replay_frame(rp);
		return replay_artifact(rp, &(struct replay_artifact){
			.call_no = call->no, .function = call->name, .frame_end = true }, err);
	}
	if (call->nargs != fi.nparams) {
		replay_unsupported(rp, call, "its argument count differs from the registry's");
		return XT_OK;
	}
	struct sim_thread *t = thread_of(s, call->thread_no);
	if (!t)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	if (!t->ctx) {
		replay_unsupported(rp, call, "no context was current on its thread");
		return XT_OK;
	}
	struct sim_ctx *x = t->ctx;
	drv_context_make_current(x->drv);
	if (!s->driver_reported) {
		/* The run's driver columns, from the driver model's own strings. */
		const unsigned char *(*get_string)(unsigned) =
			(const unsigned char *(*)(unsigned))drv_get_proc_address("glGetString");
		if (get_string)
			replay_set_driver(rp, (const char *)get_string(GL_VENDOR),
					  (const char *)get_string(GL_RENDERER),
					  (const char *)get_string(GL_VERSION));
		s->driver_reported = true;
	}
	if (!strcmp(call->name, "glGetError")) {
		host_obs_get_error(&s->h, rp, &x->hx, call, ret);
		return XT_OK;
	}
	if (!f->fn || !replay_stubs[f->id].thunk) {
		replay_unsupported(rp, call, "the sim driver does not implement it");
		return XT_OK;
	}
	xt_arena_reset(&s->h.arena);
	enum xt_rc rc = s->novr ? overrides_for_call(s, call->no, err) : XT_OK;
	if (rc != XT_OK)
		return rc;
	rc = host_args_convert(&s->h, &x->hx, f->id, call, ret, &args, &why);
	if (rc == XT_ERR_UNSUPPORTED) {
		replay_unsupported(rp, call, why);
		return XT_OK;
	}
	if (rc == XT_OK)
		rc = host_args_program_binary(&s->h, &x->hx, call, &args);
	if (rc != XT_OK)
		return XT_FAIL(err, rc, "call %llu: out of memory", (unsigned long long)call->no);
	if (!block_layouts(s, x, replay_call_layout(rp)))
		return XT_FAIL(err, XT_ERR_NOMEM, "call %llu: out of memory", (unsigned long long)call->no);
	drv_context_call_begin(x->drv);
	replay_stubs[f->id].thunk(f->fn, args.a, &rv);
	drv_context_set_block_layouts(x->drv, NULL, 0, false);   /* they were the call's arena's */
	drv_context_call_end(x->drv, &pm4, &n_dw, &state_call);
	unsigned from = x->hx.nerr;
	for (int i = 0; i < 8; i++) {
		unsigned e = s->get_error();
		if (!e)
			break;
		host_error_push(&x->hx, e, call, &from);
	}
	host_obs_classify_errors(&s->h, rp, &x->hx, call, from);
	why = drv_context_take_unsupported(x->drv);
	if (why)
		replay_unsupported(rp, call, why);
	layout_notes(s, x, call);
	check_faults(s, rp, call);
	rc = artifacts(s, rp, x, call, pm4, n_dw, state_call, err);
	if (rc)
		return rc;
	host_args_learn(&s->h, &x->hx, f->id, call, ret, &args, &rv);
	host_obs_after(&s->h, rp, &x->hx, f->id, call, ret, &args, &rv);
	lines_after_call(s, x, call);
	return XT_OK;
}

static enum xt_rc sim_memwrite(struct replay_backend *be, struct replay *rp, uint64_t call_no,
			       uint64_t addr, const uint8_t *data, size_t n, const char *why,
			       struct xt_err *err)
{
	host_memwrite(&sim_of(be)->h, call_no, addr, data, n, why);
	return XT_OK;
}

static void sim_finish(struct replay_backend *be, struct replay *rp)
{
	struct sim *s = sim_of(be);

	for (size_t i = 0; i < s->nctx; i++)
		host_ctx_flush_errors(&s->ctx[i]->hx, rp);
	if (s->calls_tsv)
		fflush(s->calls_tsv);
}

static const char *sim_describe(struct replay_backend *be)
{
	return sim_of(be)->describe;
}

static void sim_destroy(struct replay_backend *be)
{
	struct sim *s = sim_of(be);

	if (!s)
		return;
	drv_context_make_current(NULL);
	for (size_t i = 0; i < s->nctx; i++) {
		drv_context_destroy(s->ctx[i]->drv);
		xt_free(s->ctx[i]->queries);
		xt_free(s->ctx[i]);
	}
	lines_forget(s, 0);
	xt_free(s->lines);
	xt_free(s->ctx);
	xt_free(s->threads);
	xt_free(s->dumped);
	xt_buf_fini(&s->layout_notes);
	xt_free(s->configs);
	xt_free(s->surfaces);
	xt_free(s->ovr);
	xt_free(s->active);
	drv_screen_destroy(s->screen);
	ws_gm_destroy(s->ws);
	gm_destroy(s->gm);
	if (s->calls_tsv)
		fclose(s->calls_tsv);
	replay_names_destroy(s->h.names);
	replay_mem_destroy(s->h.mem);
	host_args_fini(&s->h);
	xt_arena_fini(&s->h.arena);
	xt_free(s->h.funcs);
	xt_free(s);
}

static const char *take_unsupported(void *user)
{
	return drv_context_take_unsupported(user);
}

/* The state at a call: the driver model asked through its own GL entry
 * points, in the context of the call's thread (replay_state.c). */
static enum xt_rc sim_state(struct replay_backend *be, struct replay *rp, uint64_t call_no,
			    struct xt_buf *out, struct xt_err *err)
{
	struct sim *s = (struct sim *)be;
	struct sim_thread *t = thread_of(s, replay_state_thread(rp));
	if (!t || !t->ctx)
		return XT_FAIL(err, XT_ERR_INVALID, "no GL context is current after call %" PRIu64,
			       call_no);
	const struct host_ctx *x = &t->ctx->hx;
	drv_context_make_current(t->ctx->drv);
	enum xt_rc rc = replay_state_encode(&s->h, &(struct replay_state_ctx){
		.ns = x->ns, .share_ns = x->share_ns, .gles = x->gles, .major = x->major,
		.minor = x->minor, .take_unsupported = take_unsupported, .user = t->ctx->drv },
		call_no, "sim", out, err);
	drv_context_make_current(NULL);
	return rc;
}

static const struct replay_backend_ops sim_ops = {
	.name = "sim",
	.call = sim_call,
	.context = sim_context,
	.memwrite = sim_memwrite,
	.state = sim_state,
	.finish = sim_finish,
	.lines_read = sim_lines_read,
	.loose_read = sim_loose_read,
	.query_lines = sim_query_lines,
	.describe = sim_describe,
	.destroy = sim_destroy,
};

static enum xt_rc artifacts_open(struct sim *s, struct xt_err *err)
{
	static const char *const sub[] = { "", "/pm4", "/regs", "/shaders" };
	char path[4096];

	for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		snprintf(path, sizeof path, "%s%s", s->artifacts, sub[i]);
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			return XT_FAIL(err, XT_ERR_IO, "%s: %s", path, strerror(errno));
	}
	snprintf(path, sizeof path, "%s/calls.tsv", s->artifacts);
	s->calls_tsv = fopen(path, "w");
	if (!s->calls_tsv)
		return XT_FAIL(err, XT_ERR_IO, "%s: %s", path, strerror(errno));
	fprintf(s->calls_tsv, "call\tfunction\tpm4_dwords\tregs\tprogram\n");
	return XT_OK;
}

enum xt_rc replay_sim_create(const struct replay_reg_override *ovr, size_t novr,
			     struct replay_backend **out, struct xt_err *err)
{
	struct sim *s = xt_calloc(1, sizeof *s);
	enum xt_rc rc;

	*out = NULL;
	if (!s)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	s->h.base.ops = &sim_ops;
	xt_arena_init(&s->h.arena, 1 << 16);
	s->h.gl_proc = drv_get_proc_address;
	s->h.names = replay_names_create();
	s->h.mem = replay_mem_create();
	snprintf(s->describe, sizeof s->describe,
		 "xfbtrace sim (driver/ on gpu_model GFX8, radeonsi-style PM4)");
	if (novr) {
		s->ovr = xt_malloc(novr * sizeof *s->ovr);
		s->active = xt_malloc(novr * sizeof *s->active);
		if (s->ovr)
			memcpy(s->ovr, ovr, novr * sizeof *s->ovr);
		s->novr = novr;
	}
	if (!s->h.names || !s->h.mem || (novr && (!s->ovr || !s->active))) {
		sim_destroy(&s->h.base);
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	}
	rc = gm_create(NULL, &s->gm);
	if (rc == XT_OK)
		rc = ws_gm_create(s->gm, &s->ws);
	if (rc != XT_OK)
		rc = XT_FAIL(err, rc, "cannot create the simulated GPU");
	else
		rc = drv_screen_create(s->ws, &s->screen, err);
	s->artifacts = getenv("XFBTRACE_SIM_ARTIFACTS");
	if (rc == XT_OK && s->artifacts && *s->artifacts)
		rc = artifacts_open(s, err);
	if (rc != XT_OK) {
		sim_destroy(&s->h.base);
		return rc;
	}
	s->get_error = (unsigned (*)(void))drv_get_proc_address("glGetError");
	*out = &s->h.base;
	return XT_OK;
}
