/*
 * drv_gl_draw.c - every draw call (GL 4.6 chapter 10.4-10.5, ES 3.2
 * chapter 10.5): arrays, elements, instanced, base vertex / base
 * instance, range, multi, indirect and glDrawTransformFeedback*, with the
 * errors the specs require, turned into the hardware layer's draws
 * (drv_pipe.h: struct drv_pipe_draw and the state it reads).
 *
 * Index ranges: client-memory vertex arrays need the range of vertices a
 * draw reads, so for indexed draws with client arrays the indices are
 * scanned on the CPU (radeonsi / u_vbuf do the same).
 */
#include <string.h>

#include "drv_gl_int.h"

static bool mode_ok(struct drv_context *ctx, GLenum mode)
{
	switch (mode) {
	case GL_POINTS: case GL_LINES: case GL_LINE_LOOP: case GL_LINE_STRIP: case GL_TRIANGLES:
	case GL_TRIANGLE_STRIP: case GL_TRIANGLE_FAN:
		return true;
	case GL_LINES_ADJACENCY: case GL_LINE_STRIP_ADJACENCY: case GL_TRIANGLES_ADJACENCY:
	case GL_TRIANGLE_STRIP_ADJACENCY:
		return drv_gl_version_at_least(ctx, 3, 2, 3, 2);
	case GL_QUADS: case DRV_GL_QUAD_STRIP: case DRV_GL_POLYGON:
		return !ctx->gles && !ctx->core;
	case GL_PATCHES:
		drv_gl_unsupported(ctx, "GL_PATCHES (tessellation is not modelled)");
		return false;
	default:
		return false;
	}
}

/* The TF primitive mode a draw mode feeds (GL 4.6 table 13.5). */
static GLenum tf_class(GLenum mode)
{
	switch (mode) {
	case GL_POINTS: return GL_POINTS;
	case GL_LINES: case GL_LINE_LOOP: case GL_LINE_STRIP: return GL_LINES;
	case GL_LINES_ADJACENCY: case GL_LINE_STRIP_ADJACENCY: return GL_LINES;
	default: return GL_TRIANGLES;
	}
}

/*
 * With a geometry shader: the draw mode must give the GS's input primitive
 * (GL 4.6 11.3.1; no quads, strips and loops feed their list type), and
 * while TF runs the GS output must be the TF primitive mode (13.3.2, as
 * Mesa's _mesa_valid_prim_mode checks both).
 */
static bool gs_mode_ok(const struct drv_context *ctx, GLenum mode)
{
	const struct drv_program *prog = ctx->program && ctx->program->linked ? ctx->program->prog : NULL;
	GLenum out;

	if (!prog || !prog->has_gs)
		return true;
	switch (mode) {
	case GL_POINTS: case GL_LINES: case GL_LINE_LOOP: case GL_LINE_STRIP:
	case GL_TRIANGLES: case GL_TRIANGLE_STRIP: case GL_TRIANGLE_FAN:
		if (tf_class(mode) != prog->gs.input_prim)
			return false;
		break;
	case GL_LINES_ADJACENCY: case GL_LINE_STRIP_ADJACENCY:
		if (prog->gs.input_prim != GL_LINES_ADJACENCY)
			return false;
		break;
	case GL_TRIANGLES_ADJACENCY: case GL_TRIANGLE_STRIP_ADJACENCY:
		if (prog->gs.input_prim != GL_TRIANGLES_ADJACENCY)
			return false;
		break;
	default:
		return false;
	}
	if (!drv_gl_xfb_running(ctx))
		return true;
	out = prog->gs.output_prim == GL_LINE_STRIP ? GL_LINES :
	      prog->gs.output_prim == GL_TRIANGLE_STRIP ? GL_TRIANGLES : GL_POINTS;
	return out == ctx->xfb->mode;
}

/* Checks shared by every draw; false with the error set (or unsupported). */
static bool validate(struct drv_context *ctx, GLenum mode, GLsizei count, GLsizei instances)
{
	if (!mode_ok(ctx, mode)) {
		if (!ctx->unsupported)
			drv_gl_error(ctx, GL_INVALID_ENUM);
		return false;
	}
	if (count < 0 || instances < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return false;
	}
	if (ctx->core && ctx->vao == &ctx->default_vao) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	if (drv_gl_xfb_running(ctx)) {
		bool gs = ctx->program && ctx->program->prog && ctx->program->prog->has_gs;
		if (!gs && tf_class(mode) != ctx->xfb->mode) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return false;
		}
		if (drv_gl_vertex_program(ctx) != ctx->xfb->program) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return false;
		}
	}
	if ((ctx->program && !ctx->program->linked) || !gs_mode_ok(ctx, mode)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	if (!ctx->program && !ctx->pipeline && (ctx->gles || ctx->core)) {
		/* ES: drawing with no program is undefined; core: no fixed function. */
		drv_gl_unsupported(ctx, "drawing without a program");
		return false;
	}
	return true;
}

static unsigned index_size(GLenum type)
{
	return type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 :
	       type == GL_UNSIGNED_INT ? 4 : 0;
}

/* The hardware layer's primitive of a (validated) draw mode. */
static enum drv_pipe_prim prim_of(GLenum mode)
{
	switch (mode) {
	case GL_POINTS: return DRV_PRIM_POINTS;
	case GL_LINES: return DRV_PRIM_LINES;
	case GL_LINE_LOOP: return DRV_PRIM_LINE_LOOP;
	case GL_LINE_STRIP: return DRV_PRIM_LINE_STRIP;
	case GL_TRIANGLES: return DRV_PRIM_TRIANGLES;
	case GL_TRIANGLE_STRIP: return DRV_PRIM_TRIANGLE_STRIP;
	case GL_TRIANGLE_FAN: return DRV_PRIM_TRIANGLE_FAN;
	case GL_QUADS: return DRV_PRIM_QUADS;
	case DRV_GL_QUAD_STRIP: return DRV_PRIM_QUAD_STRIP;
	case DRV_GL_POLYGON: return DRV_PRIM_POLYGON;
	case GL_LINES_ADJACENCY: return DRV_PRIM_LINES_ADJACENCY;
	case GL_LINE_STRIP_ADJACENCY: return DRV_PRIM_LINE_STRIP_ADJACENCY;
	case GL_TRIANGLES_ADJACENCY: return DRV_PRIM_TRIANGLES_ADJACENCY;
	default: return DRV_PRIM_TRIANGLE_STRIP_ADJACENCY;
	}
}

/* Whether a draw must know the range of vertices it reads: some per-vertex
 * attribute comes from client memory or is converted on upload. */
static bool needs_index_range(struct drv_context *ctx)
{
	const struct drv_program_obj *p = drv_gl_draw_program(ctx);
	const struct drv_program *prog = p ? p->prog : NULL;
	for (unsigned i = 0; i < DRV_MAX_ATTRIBS; i++) {
		struct drv_pipe_vertex_input v;
		drv_gl_vertex_input(ctx, prog, i, &v);
		if (v.enabled && !v.divisor &&
		    ((!v.buffer && v.client_ptr) ||
		     ((v.buffer || v.client_ptr) && drv_pipe_vertex_translated(&v))))
			return true;
	}
	return false;
}

static void scan_range(const uint8_t *p, unsigned isz, uint32_t count, bool restart,
		       uint32_t restart_index, uint32_t *lo, uint32_t *hi)
{
	uint32_t mn = UINT32_MAX, mx = 0;

	for (uint32_t i = 0; i < count; i++) {
		uint32_t v = isz == 1 ? p[i] : isz == 2 ? ((const uint16_t *)p)[i] : ((const uint32_t *)p)[i];
		if (restart && v == restart_index)
			continue;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
	}
	*lo = mn == UINT32_MAX ? 0 : mn;
	*hi = mn == UINT32_MAX ? 0 : mx;
}

/* Fills the index part of d for `count` indices of `type` at `indices`. */
static bool setup_indices(struct drv_context *ctx, struct drv_pipe_draw *d, GLsizei count,
			  GLenum type, const void *indices)
{
	struct drv_buffer *eb = ctx->vao->element_buffer;
	unsigned isz = index_size(type);
	const uint8_t *data;

	if (!isz) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return false;
	}
	d->indexed = true;
	d->index_size = isz;
	d->count = (uint32_t)count;
	if (eb) {
		uint64_t off = (uint64_t)(uintptr_t)indices;
		if (!drv_gl_buffer_storage(ctx, eb))
			return false;
		if (eb->mapped && !(eb->map_access & GL_MAP_PERSISTENT_BIT)) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return false;
		}
		d->index_buffer = &eb->store;
		d->index_offset = off;
		d->index_max = off < (uint64_t)eb->size ? (uint32_t)(((uint64_t)eb->size - off) / isz) : 0;
		data = off < (uint64_t)eb->size ? drv_pipe_buffer_map(&eb->store) + off : NULL;
		if (count && d->index_max < (uint32_t)count)
			data = NULL;   /* out of range: no scan (the GPU reads 0) */
	} else {
		/* Core profile: no error, the result is undefined (GL 4.6 core
		 * 10.3.10); drivers (Mesa, llvmpipe) read the client memory as in
		 * compatibility contexts, which is what a trace recorded. */
		if (!indices && count) {
			drv_gl_unsupported(ctx, "indices at client address NULL");
			return false;
		}
		d->user_indices = indices;
		d->index_bytes = (uint32_t)count * isz;
		d->index_max = (uint32_t)count;
		data = indices;
	}
	if (needs_index_range(ctx)) {
		bool restart = ctx->primitive_restart || ctx->primitive_restart_fixed;
		uint32_t ri = ctx->primitive_restart_fixed ? (isz == 1 ? 0xFFu : isz == 2 ? 0xFFFFu : ~0u)
							   : ctx->restart_index;
		if (eb)
			drv_gl_flush(ctx);
		if (data)
			scan_range(data, isz, (uint32_t)count, restart, ri, &d->min_index, &d->max_index);
		d->have_range = true;
	}
	return true;
}

/* The state a draw of program p reads, as the hardware layer takes it. */
static void draw_state(struct drv_context *ctx, struct drv_program_obj *p,
		       struct drv_pipe_draw_state *s)
{
	const struct drv_program *prog = p->prog;

	memset(s, 0, sizeof *s);
	s->prog = prog;
	s->shader = &p->shader;
	s->consts = p->consts;
	s->consts_size = p->consts_size;
	s->consts_version = p->consts_version;
	for (unsigned i = 0; i < prog->n_ubos && i < DRV_MAX_UBOS; i++) {
		const struct drv_xfb_binding *u = &ctx->ubo[p->ubo_binding[i]];
		int64_t size;
		if (!u->buffer)
			continue;
		size = u->range ? u->size : u->buffer->size - u->offset;
		if (u->offset + size > u->buffer->size)
			size = u->buffer->size - u->offset;
		s->ubo[i] = (struct drv_pipe_ubo){ &u->buffer->store, u->offset, size };
	}
	for (unsigned loc = 0; loc < DRV_MAX_ATTRIBS; loc++)
		drv_gl_vertex_input(ctx, prog, loc, &s->vertex[loc]);
	/* A dvec3 / dvec4 input consumes two locations (GL 4.6 §11.1.1):
	 * its first two components come from the attribute's location, the
	 * others from the next, 16 bytes further on, as Mesa's state tracker
	 * splits 64-bit attributes into two vertex elements. */
	for (unsigned loc = 0; loc + 1 < DRV_MAX_ATTRIBS; loc++) {
		struct drv_pipe_vertex_input *a = &s->vertex[loc];
		if (!a->enabled || !a->doubles || a->components <= 2)
			continue;
		s->vertex[loc + 1] = *a;
		s->vertex[loc + 1].relative_offset += 16;
		s->vertex[loc + 1].components -= 2;
		a->components = 2;
		loc++;
	}
}

/* A 64-bit input the program reads from the current value (no array):
 * the generic-attribute state holds 32-bit values only. */
static bool doubles_without_array(const struct drv_program *prog, const struct drv_pipe_draw_state *s)
{
	for (unsigned k = 0; k < prog->n_attribs; k++) {
		switch (prog->attribs[k].type) {
		case GL_DOUBLE: case GL_DOUBLE_VEC2: case GL_DOUBLE_VEC3: case GL_DOUBLE_VEC4:
		case GL_DOUBLE_MAT2: case GL_DOUBLE_MAT3: case GL_DOUBLE_MAT4:
		case GL_DOUBLE_MAT2x3: case GL_DOUBLE_MAT2x4: case GL_DOUBLE_MAT3x2:
		case GL_DOUBLE_MAT3x4: case GL_DOUBLE_MAT4x2: case GL_DOUBLE_MAT4x3:
			if (prog->attribs[k].location < DRV_MAX_ATTRIBS &&
			    !s->vertex[prog->attribs[k].location].enabled)
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

/*
 * Runs draw d with the program a draw runs now (drv_gl_draw_program) on
 * the hardware layer.  False when it did not (the error or "unsupported"
 * is recorded).
 */
static bool run(struct drv_context *ctx, const struct drv_pipe_draw *d)
{
	struct drv_program_obj *p = drv_gl_draw_program(ctx);
	struct drv_pipe_draw_state s;
	const char *tex_why = NULL;

	if (!p)
		return false;   /* drv_gl_draw_program said why */
	if (!drv_gl_vertex_color_clamp_ok(ctx, p->prog))
		return false;
	/* the surfaces a draw that reaches the rasterizer renders into */
	if (!ctx->rasterizer_discard) {
		drv_gl_fb_validate(ctx);
		drv_gl_raster_validate(ctx, p);
	}
	if (!drv_pipe_draw_begin(ctx->pipe, p->prog && p->linked ? p->prog : NULL, &p->shader))
		return false;
	ctx->state_call = true;
	ctx->last_draw_program = p->name;
	draw_state(ctx, p, &s);
	if (!drv_gl_fb_sampler_views(ctx, p->prog, s.consts, s.tex, &tex_why))
		return false;
	if (doubles_without_array(p->prog, &s)) {
		drv_gl_unsupported(ctx, "a 64-bit vertex input fed by its current value (glVertexAttribL*), "
				   "not an array");
		return false;
	}
	if (!drv_pipe_draw_reserve(ctx->pipe, &s, d))
		return false;
	if (p->prog->n_builtins) {
		if (!drv_gl_ff_constants(ctx, p))
			return false;
		s.consts_version = p->consts_version;
	}
	if (!drv_pipe_draw(ctx->pipe, &s, d))
		return false;
	if (tex_why && !ctx->rasterizer_discard)
		drv_gl_fb_mark_drawn(ctx, tex_why);
	return true;
}

static void draw_arrays(GLenum mode, GLint first, GLsizei count, GLsizei instances,
			GLuint base_instance)
{
	DRV_CTX(ctx);
	struct drv_pipe_draw d = { 0 };

	if (first < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!validate(ctx, mode, count, instances) || !count || !instances)
		return;
	d.prim = prim_of(mode);
	d.count = (uint32_t)count;
	d.instances = (uint32_t)instances;
	d.base_vertex = first;
	d.base_instance = base_instance;
	run(ctx, &d);
}

static void draw_elements(GLenum mode, GLsizei count, GLenum type, const void *indices,
			  GLsizei instances, GLint base_vertex, GLuint base_instance)
{
	DRV_CTX(ctx);
	struct drv_pipe_draw d = { 0 };

	if (!index_size(type)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!validate(ctx, mode, count, instances) || !count || !instances)
		return;
	d.prim = prim_of(mode);
	d.instances = (uint32_t)instances;
	d.base_vertex = base_vertex;
	d.base_instance = base_instance;
	if (setup_indices(ctx, &d, count, type, indices))
		run(ctx, &d);
}

void drv_gl_DrawArrays(GLenum mode, GLint first, GLsizei count)
{
	draw_arrays(mode, first, count, 1, 0);
}

void drv_gl_DrawArraysInstanced(GLenum mode, GLint first, GLsizei count, GLsizei instancecount)
{
	draw_arrays(mode, first, count, instancecount, 0);
}

void drv_gl_DrawArraysInstancedBaseInstance(GLenum mode, GLint first, GLsizei count,
					    GLsizei instancecount, GLuint baseinstance)
{
	draw_arrays(mode, first, count, instancecount, baseinstance);
}

void drv_gl_DrawElements(GLenum mode, GLsizei count, GLenum type, const void *indices)
{
	draw_elements(mode, count, type, indices, 1, 0, 0);
}

void drv_gl_DrawElementsInstanced(GLenum mode, GLsizei count, GLenum type, const void *indices,
				  GLsizei instancecount)
{
	draw_elements(mode, count, type, indices, instancecount, 0, 0);
}

void drv_gl_DrawElementsBaseVertex(GLenum mode, GLsizei count, GLenum type, const void *indices,
				   GLint basevertex)
{
	draw_elements(mode, count, type, indices, 1, basevertex, 0);
}

void drv_gl_DrawElementsInstancedBaseVertex(GLenum mode, GLsizei count, GLenum type,
					    const void *indices, GLsizei instancecount,
					    GLint basevertex)
{
	draw_elements(mode, count, type, indices, instancecount, basevertex, 0);
}

void drv_gl_DrawElementsInstancedBaseInstance(GLenum mode, GLsizei count, GLenum type,
					      const void *indices, GLsizei instancecount,
					      GLuint baseinstance)
{
	draw_elements(mode, count, type, indices, instancecount, 0, baseinstance);
}

void drv_gl_DrawElementsInstancedBaseVertexBaseInstance(GLenum mode, GLsizei count, GLenum type,
							const void *indices, GLsizei instancecount,
							GLint basevertex, GLuint baseinstance)
{
	draw_elements(mode, count, type, indices, instancecount, basevertex, baseinstance);
}

void drv_gl_DrawRangeElements(GLenum mode, GLuint start, GLuint end, GLsizei count, GLenum type,
			      const void *indices)
{
	drv_gl_DrawRangeElementsBaseVertex(mode, start, end, count, type, indices, 0);
}

void drv_gl_DrawRangeElementsBaseVertex(GLenum mode, GLuint start, GLuint end, GLsizei count,
					GLenum type, const void *indices, GLint basevertex)
{
	DRV_CTX(ctx);
	if (end < start) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/* Indices outside [start, end] are undefined behaviour; the full draw
	 * is the defined superset. */
	draw_elements(mode, count, type, indices, 1, basevertex, 0);
}

void drv_gl_MultiDrawArrays(GLenum mode, const GLint *first, const GLsizei *count,
			    GLsizei drawcount)
{
	DRV_CTX(ctx);
	if (drawcount < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < drawcount; i++)
		draw_arrays(mode, first[i], count[i], 1, 0);
}

void drv_gl_MultiDrawElementsBaseVertex(GLenum mode, const GLsizei *count, GLenum type,
					const void *const *indices, GLsizei drawcount,
					const GLint *basevertex)
{
	DRV_CTX(ctx);
	if (drawcount < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < drawcount; i++)
		draw_elements(mode, count[i], type, indices[i], 1, basevertex ? basevertex[i] : 0, 0);
}

void drv_gl_MultiDrawElements(GLenum mode, const GLsizei *count, GLenum type, const void *const *indices,
			      GLsizei drawcount)
{
	drv_gl_MultiDrawElementsBaseVertex(mode, count, type, indices, drawcount, NULL);
}

/* ---- indirect ---------------------------------------------------------------------- */

/*
 * An indirect draw whose vertex arrays are uploaded (client memory, or a
 * format converted on upload) needs the vertex range of each command,
 * which only the command knows: read the commands on the CPU after a
 * flush and draw each as the direct draw GL defines it to be (GL 4.6
 * §10.4: DrawArraysIndirect is DrawArraysInstancedBaseInstance with the
 * command's count, instanceCount, first and baseInstance;
 * DrawElementsIndirect is DrawElementsInstancedBaseVertexBaseInstance
 * with firstIndex * the index size as the offset into the element
 * buffer).  This is what Mesa's u_vbuf does for drivers whose vertex
 * buffers it translates.
 */
static void unroll_indirect(struct drv_context *ctx, GLenum mode, GLenum type, struct drv_buffer *ib,
			    uint64_t off, GLsizei drawcount, uint32_t stride, bool indexed)
{
	unsigned isz = index_size(type);
	const uint8_t *base;

	if (indexed && (!isz || !ctx->vao->element_buffer)) {
		drv_gl_error(ctx, isz ? GL_INVALID_OPERATION : GL_INVALID_ENUM);
		return;
	}
	if (ib) {
		if (!drv_gl_buffer_storage(ctx, ib))
			return;
		drv_gl_flush(ctx);
		base = drv_pipe_buffer_map(&ib->store) + off;
	} else {
		base = (const uint8_t *)(uintptr_t)off;   /* client memory */
	}
	for (GLsizei i = 0; i < drawcount; i++) {
		uint32_t c[5];
		memcpy(c, base + (uint64_t)i * stride, indexed ? 20 : 16);
		if (c[0] > INT32_MAX || c[1] > INT32_MAX)
			continue;   /* more than the model draws: nothing GL could show either */
		if (indexed)
			draw_elements(mode, (GLsizei)c[0], type, (const void *)(uintptr_t)((uint64_t)c[2] * isz),
				      (GLsizei)c[1], (GLint)c[3], c[4]);
		else
			draw_arrays(mode, (GLint)c[2], (GLsizei)c[0], (GLsizei)c[1], c[3]);
	}
}

static void draw_indirect(GLenum mode, GLenum type, const void *indirect, GLsizei drawcount,
			  GLsizei stride, bool indexed)
{
	DRV_CTX(ctx);
	struct drv_buffer *ib = ctx->draw_indirect;
	uint64_t off = (uint64_t)(uintptr_t)indirect;
	unsigned cmd = indexed ? 20 : 16;
	struct drv_pipe_draw d = { 0 };

	if (drawcount < 0 || (stride && stride % 4)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/* Compatibility contexts take the commands from client memory when no
	 * buffer is bound to GL_DRAW_INDIRECT_BUFFER (GL 4.6 compat §10.4);
	 * core and ES make that an INVALID_OPERATION.  The commands are then
	 * the CPU's to read, as for uploaded vertex arrays. */
	if (!ib && !ctx->core && !ctx->gles && indirect) {
		if (validate(ctx, mode, 0, 0))
			unroll_indirect(ctx, mode, type, NULL, off, drawcount, stride ? (uint32_t)stride : cmd,
					indexed);
		return;
	}
	if (!ib || off % 4 ||
	    (drawcount && off + (uint64_t)(drawcount - 1) * (stride ? (uint64_t)stride : cmd) + cmd >
			  (uint64_t)ib->size)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!validate(ctx, mode, 0, 0))
		return;
	if (needs_index_range(ctx)) {
		unroll_indirect(ctx, mode, type, ib, off, drawcount, stride ? (uint32_t)stride : cmd, indexed);
		return;
	}
	if (indexed) {
		if (!index_size(type)) {
			drv_gl_error(ctx, GL_INVALID_ENUM);
			return;
		}
		if (!ctx->vao->element_buffer) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		if (!setup_indices(ctx, &d, 0, type, NULL))
			return;
	}
	if (!drv_gl_buffer_storage(ctx, ib))
		return;
	d.prim = prim_of(mode);
	d.indirect_buffer = &ib->store;
	d.instances = 1;
	for (GLsizei i = 0; i < drawcount; i++) {
		d.indirect_offset = (uint32_t)(off + (uint64_t)i * (stride ? (uint64_t)stride : cmd));
		if (!run(ctx, &d))
			return;
	}
}

/*
 * ARB_indirect_parameters: the draw count is read from GL_PARAMETER_BUFFER
 * at `drawcount` and clamped to maxdrawcount.  radeonsi emits
 * DRAW_(INDEX_)INDIRECT_MULTI with COUNT_INDIRECT_ENABLE so that the CP
 * reads it; the model reads it on the CPU after a flush (as it does buffer
 * copies) and emits one indirect draw per command, which draws the same.
 */
static void draw_indirect_count(GLenum mode, GLenum type, const void *indirect, GLintptr drawcount,
				GLsizei maxdrawcount, GLsizei stride, bool indexed)
{
	DRV_CTX(ctx);
	struct drv_buffer *pb = ctx->parameter_buffer;
	uint32_t count = 0;

	if (maxdrawcount < 0 || drawcount < 0 || drawcount % 4) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!pb || (uint64_t)drawcount + 4 > (uint64_t)pb->size) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!drv_gl_buffer_storage(ctx, pb))
		return;
	drv_gl_flush(ctx);
	memcpy(&count, drv_pipe_buffer_map(&pb->store) + drawcount, 4);
	draw_indirect(mode, type, indirect, count < (uint32_t)maxdrawcount ? (GLsizei)count : maxdrawcount,
		      stride, indexed);
}

void drv_gl_MultiDrawArraysIndirectCount(GLenum mode, const void *indirect, GLintptr drawcount,
					 GLsizei maxdrawcount, GLsizei stride)
{
	draw_indirect_count(mode, 0, indirect, drawcount, maxdrawcount, stride, false);
}

void drv_gl_MultiDrawElementsIndirectCount(GLenum mode, GLenum type, const void *indirect,
					   GLintptr drawcount, GLsizei maxdrawcount, GLsizei stride)
{
	draw_indirect_count(mode, type, indirect, drawcount, maxdrawcount, stride, true);
}

void drv_gl_DrawArraysIndirect(GLenum mode, const void *indirect)
{
	draw_indirect(mode, 0, indirect, 1, 0, false);
}

void drv_gl_DrawElementsIndirect(GLenum mode, GLenum type, const void *indirect)
{
	draw_indirect(mode, type, indirect, 1, 0, true);
}

void drv_gl_MultiDrawArraysIndirect(GLenum mode, const void *indirect, GLsizei drawcount,
				    GLsizei stride)
{
	draw_indirect(mode, 0, indirect, drawcount, stride, false);
}

void drv_gl_MultiDrawElementsIndirect(GLenum mode, GLenum type, const void *indirect,
				      GLsizei drawcount, GLsizei stride)
{
	draw_indirect(mode, type, indirect, drawcount, stride, true);
}

/* ---- glDrawTransformFeedback* ---------------------------------------------------------- */

static void draw_tf(GLenum mode, GLuint id, GLuint stream, GLsizei instances)
{
	DRV_CTX(ctx);
	struct drv_xfb *x = id ? drv_names_get(&ctx->xfbs, id) : &ctx->default_xfb;
	struct drv_pipe_draw d = { 0 };

	if (stream >= DRV_MAX_VERTEX_STREAMS || !x) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!x->ended_once || x->active) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!validate(ctx, mode, 0, instances) || !instances)
		return;
	if (needs_index_range(ctx)) {
		/* Uploaded arrays need the vertex range: read the captured count
		 * back and draw what GL defines the call to be (GL 4.6 core §13.2.3:
		 * DrawArraysInstanced with first 0 and that count), as Mesa's
		 * u_vbuf reads indirect parameters for the arrays it uploads. */
		uint32_t n = drv_pipe_so_vertex_count(ctx->pipe, &x->so, stream);
		if (n && n <= INT32_MAX)
			draw_arrays(mode, 0, (GLsizei)n, instances, 0);
		return;
	}
	d.prim = prim_of(mode);
	d.instances = (uint32_t)instances;
	d.so_source = &x->so;
	d.so_stream = stream;
	run(ctx, &d);
}

void drv_gl_DrawTransformFeedback(GLenum mode, GLuint id)
{
	draw_tf(mode, id, 0, 1);
}

void drv_gl_DrawTransformFeedbackInstanced(GLenum mode, GLuint id, GLsizei instancecount)
{
	draw_tf(mode, id, 0, instancecount);
}

void drv_gl_DrawTransformFeedbackStream(GLenum mode, GLuint id, GLuint stream)
{
	draw_tf(mode, id, stream, 1);
}

void drv_gl_DrawTransformFeedbackStreamInstanced(GLenum mode, GLuint id, GLuint stream,
						 GLsizei instancecount)
{
	draw_tf(mode, id, stream, instancecount);
}
