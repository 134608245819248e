/*
 * drv_program.c - drv_program_create: runs the compiler steps of
 * drv_shader.h for one GL program and builds what GL reports about it
 * (active attributes with glBindAttribLocation applied, default-block
 * uniforms laid out once for all stages, uniform blocks, the TF layout, GS
 * parameters), then compiles each hardware stage (VS or ES + GS + copy
 * shader) with the IR validated after every pass.
 *
 * Error policy: compiled[] is the GLSL verdict (translator, including the
 * constructs it refuses by name, and glslang); valid GLSL the back end
 * cannot compile (SPIR-V reader, IR passes) does not link, is named in
 * link_log and flagged `unsupported` for the state tracker to report; a GL
 * link error goes to link_log; a bug in the compiler (the IR validator
 * failing) is reported as "internal compiler error" in link_log, never an
 * abort.  desc->compile_only (glCompileShader) stops after glslang.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "drv_program_int.h"
#include "glapi_types.h"
#include "isa.h"

static const char *const stage_names[DRV_STAGE_COUNT] = { "vertex", "geometry", "fragment" };

/* --- GL type helpers (public) ---------------------------------------------- */

const char *drv_gl_type_name(uint32_t type)
{
	const struct glapi_type *t = glapi_type_by_value(type);
	return t ? t->name : type == 0 ? "GL_NONE" : "GL_?";
}

/* --- GS and ring layouts -------------------------------------------------------- */

static enum xt_rc esgs_add(struct build *b, const char *key, uint32_t dwords, uint32_t *dw)
{
	struct drv_io_var *nv = realloc(b->esgs.vars, (b->esgs.n_vars + 1) * sizeof *nv);
	if (!nv)
		return XT_ERR_NOMEM;
	b->esgs.vars = nv;
	snprintf(nv[b->esgs.n_vars].key, sizeof nv->key, "%s", key);
	nv[b->esgs.n_vars].dw = *dw;
	nv[b->esgs.n_vars].dwords = dwords;
	b->esgs.n_vars++;
	*dw += dwords;
	return XT_OK;
}

/* The ES -> GS item: every vertex-shader output by name, then the built-ins. */
static enum xt_rc build_esgs(struct build *b)
{
	struct drv_smodule *m = &b->mod[DRV_STAGE_VERTEX];
	uint32_t dw = 0;
	char key[96];
	enum xt_rc rc;
	for (uint32_t i = 0; i < m->n_vars; i++) {
		const struct drv_svar *v = &m->vars[i];
		const struct drv_sid *t = drv_stype(m, v->type);
		if (v->storage != SpvStorageClassOutput || !t || v->builtin >= 0)
			continue;
		if (t->op == SpvOpTypeStruct && t->block) {
			for (uint32_t k = 0; k < t->n_members; k++) {
				if (t->members[k].builtin >= 0)
					continue;
				drv_io_key(m, v, v->type, (int)k, key, sizeof key);
				if ((rc = esgs_add(b, key, drv_stype_dwords(m, t->members[k].type), &dw)) != XT_OK)
					return rc;
			}
			continue;
		}
		drv_io_key(m, v, 0, -1, key, sizeof key);
		if ((rc = esgs_add(b, key, drv_stype_dwords(m, v->type), &dw)) != XT_OK)
			return rc;
	}
	b->esgs.pos_dw = dw;
	b->esgs.psize_dw = dw + 4;
	b->esgs.clip_dw = dw + 5;
	b->esgs.itemsize_dw = dw + 13;
	return XT_OK;
}

static enum xt_rc build_gs(struct build *b)
{
	struct drv_smodule *m = &b->mod[DRV_STAGE_GEOMETRY];
	struct drv_gs_info *g = &b->p->gs;
	uint32_t off = 0;

	g->max_vertices = m->gs_max_vertices;
	g->input_prim = m->gs_input_prim;
	g->output_prim = m->gs_output_prim;
	g->invocations = m->gs_invocations ? m->gs_invocations : 1;
	g->vertices_in = m->gs_vertices_in;
	g->esgs_itemsize_dw = b->esgs.itemsize_dw;
	b->gsvs_dw = calloc(m->n_vars + 1, sizeof *b->gsvs_dw);
	if (!b->gsvs_dw)
		return XT_ERR_NOMEM;
	for (unsigned s = 0; s < DRV_MAX_VERTEX_STREAMS; s++) {
		uint32_t dw = 0;
		for (uint32_t i = 0; i < m->n_vars; i++) {
			const struct drv_svar *v = &m->vars[i];
			uint32_t vs = v->stream > 0 ? (uint32_t)v->stream : 0;
			if (v->storage != SpvStorageClassOutput || vs != s)
				continue;
			b->gsvs_dw[i] = calloc(v->slots + 1, sizeof **b->gsvs_dw);
			if (!b->gsvs_dw[i])
				return XT_ERR_NOMEM;
			for (uint32_t j = 0; j < v->slots; j++) {
				b->gsvs_dw[i][j] = dw;
				dw += drv_stype_slot_dwords(m, v->type, j);
			}
			g->streams_used |= 1u << s;
		}
		g->vert_itemsize_dw[s] = dw;
		g->ring_offset_dw[s] = off;
		off += dw * g->max_vertices;
	}
	g->gsvs_itemsize_dw = off;
	/* streams the shader emits on count even without outputs */
	for (uint32_t p = m->fn_begin; p < m->fn_end;) {
		uint16_t op = (uint16_t)(m->words[p] & 0xFFFF), n = (uint16_t)(m->words[p] >> 16);
		if (!n)
			break;
		if ((op == SpvOpEmitStreamVertex) && n >= 2 && m->words[p + 1] < m->bound &&
		    m->ids[m->words[p + 1]].cval)
			g->streams_used |= 1u << (m->ids[m->words[p + 1]].cval[0] & 3);
		if (op == SpvOpEmitVertex)
			g->streams_used |= 1;
		p += n;
	}
	return XT_OK;
}

/*
 * Vertex-stream rules of a program (ARB_gpu_shader5, GLSL 4.00 section
 * 8.12) that glslang, linking each stage alone, does not check; Mesa
 * reports both as link errors:
 *   - EmitStreamVertex / EndStreamPrimitive name a stream in
 *     [0, GL_MAX_VERTEX_STREAMS), and one other than 0 needs the points
 *     output primitive;
 *   - only stream 0 is rasterized, so a fragment shader input cannot be fed
 *     by a geometry shader output of another stream.
 */
static bool check_gs_streams(struct build *b)
{
	const struct drv_smodule *m = &b->mod[DRV_STAGE_GEOMETRY];
	const struct drv_smodule *fs = &b->mod[DRV_STAGE_FRAGMENT];

	for (uint32_t p = m->fn_begin; p < m->fn_end;) {
		uint16_t op = (uint16_t)(m->words[p] & 0xFFFF), n = (uint16_t)(m->words[p] >> 16);
		const char *fn = op == SpvOpEmitStreamVertex ? "EmitStreamVertex" : "EndStreamPrimitive";
		int32_t stream;
		if (!n)
			break;
		if ((op == SpvOpEmitStreamVertex || op == SpvOpEndStreamPrimitive) && n >= 2 &&
		    m->words[p + 1] < m->bound && m->ids[m->words[p + 1]].cval) {
			stream = (int32_t)(uint32_t)m->ids[m->words[p + 1]].cval[0];
			if (stream < 0 || stream >= (int32_t)DRV_MAX_VERTEX_STREAMS) {
				xt_buf_printf(&b->llog, "error: %s(%d): the stream must be in [0, %u]\n", fn, stream,
					      DRV_MAX_VERTEX_STREAMS - 1);
				return false;
			}
			if (stream && b->p->gs.output_prim != 0x0000u /* GL_POINTS */) {
				xt_buf_printf(&b->llog, "error: %s(%d) with a stream other than 0 needs the points "
					      "output primitive in the geometry shader\n", fn, stream);
				return false;
			}
		}
		p += n;
	}
	if (!b->parsed[DRV_STAGE_FRAGMENT])
		return true;
	for (uint32_t i = 0; i < fs->n_vars; i++) {
		const struct drv_svar *in = &fs->vars[i];
		if (in->storage != SpvStorageClassInput || in->builtin >= 0 || !in->name[0])
			continue;
		for (uint32_t k = 0; k < m->n_vars; k++) {
			const struct drv_svar *out = &m->vars[k];
			if (out->storage == SpvStorageClassOutput && out->stream > 0 && !strcmp(out->name, in->name)) {
				xt_buf_printf(&b->llog, "error: fragment shader input '%s' comes from a geometry shader "
					      "output of stream %d; only stream 0 is rasterized\n",
					      drv_program_user_name(b, DRV_STAGE_FRAGMENT, in->name), out->stream);
				return false;
			}
		}
	}
	return true;
}

/*
 * A program without a vertex shader links in GL when it has a fragment
 * shader alone, or a geometry shader in a separable program (Mesa:
 * "Geometry shader must be linked with vertex shader" otherwise); with no
 * shader at all it does not.  Transform feedback needs the vertex or
 * geometry stage's outputs, which such a program does not run here.
 */
static bool check_no_vertex_shader(struct build *b)
{
	const struct drv_program_desc *d = b->desc;
	bool gs = d->source[DRV_STAGE_GEOMETRY] || d->spirv[DRV_STAGE_GEOMETRY];
	bool fs = d->source[DRV_STAGE_FRAGMENT] || d->spirv[DRV_STAGE_FRAGMENT];

	if (!gs && !fs) {
		xt_buf_printf(&b->llog, "error: no shaders attached to the program\n");
		return false;
	}
	if (gs && !d->separable) {
		xt_buf_printf(&b->llog, "error: the geometry shader must be linked with a vertex shader\n");
		return false;
	}
	if (gs && d->n_tf_varyings) {
		xt_buf_printf(&b->llog, "error: transform feedback from a separable geometry-shader program is "
			      "not supported by the driver\n");
		b->p->unsupported = true;
		return false;
	}
	return true;
}

/* --- the pixel shader's interface ----------------------------------------------------- */

/*
 * What the fragment shader reads and writes (drv_ps_info), and so which
 * params the hardware VS exports (build.ps_inputs[0 .. n_params)), as
 * radeonsi's si_shader_ps and si_emit_spi_map decide them.  A fragment
 * shader the hardware path cannot take yet leaves ps_unsupported set and
 * the program linked; without a fragment shader the program draws no
 * pixels the model can make either (fixed-function fragment processing).
 */
/* Records why the fragment shader cannot run on the hardware, as the
 * sentence the replay prints for the pixels of the program's draws
 * (drv_pm4_ps_unusable): "pixels ... were drawn by ...". */
static enum xt_rc set_ps_unsupported(struct drv_program *p, const char *why)
{
	struct xt_buf msg;

	xt_buf_init(&msg);
	free(p->ps_unsupported);
	p->ps_unsupported = NULL;
	if (xt_buf_printf(&msg, "were drawn by a draw whose fragment processing the driver cannot "
			  "compile yet (%s), which the simulated GPU therefore does not rasterize",
			  why) != XT_OK) {
		xt_buf_fini(&msg);
		return XT_ERR_NOMEM;
	}
	p->ps_unsupported = (char *)xt_buf_detach(&msg, NULL);
	return p->ps_unsupported ? XT_OK : XT_ERR_NOMEM;
}

/* SPI_PS_INPUT_CNTL_k of PS input k: its location, FLAT_SHADE, and
 * whether an output of `last` (the last vertex stage) feeds it, which
 * the driver checks at the location's first slot. */
static void ps_input_map(struct build *b, const struct drv_smodule *last, unsigned k)
{
	const struct drv_smodule *fs = &b->mod[DRV_STAGE_FRAGMENT];
	const struct drv_ps_input *pi = &b->ps_inputs[k];
	const struct drv_svar *v = &fs->vars[pi->var];
	struct drv_ps_info *ps = &b->p->ps;
	uint32_t src_slot;

	ps->input_location[k] = (uint32_t)v->location + pi->loc;
	ps->input_flat[k] = pi->flat;
	ps->input_written[k] = false;
	ps->input_sprite[k] = pi->sprite;
	if (pi->sprite)
		return;
	for (uint32_t j = 0; j < v->slots; j++)
		if (drv_stype_slot_loc_dword(fs, v->type, j) / 4 == pi->loc) {
			ps->input_written[k] = drv_ps_input_source(last, fs, pi->var, j, &src_slot) >= 0;
			break;
		}
}

static enum xt_rc prepare_ps(struct build *b)
{
	struct drv_program *p = b->p;
	const struct drv_smodule *fs = &b->mod[DRV_STAGE_FRAGMENT];
	/* the stage whose outputs the hardware VS (the copy shader after a
	 * geometry shader) exports as params */
	const struct drv_smodule *last = &b->mod[p->has_gs ? DRV_STAGE_GEOMETRY : DRV_STAGE_VERTEX];
	struct drv_ps_info *ps = &p->ps;
	const char *why = NULL;
	char reason[160];
	int n;

	b->n_params = 0;
	if (!b->parsed[DRV_STAGE_FRAGMENT]) {
		why = "no fragment shader (fixed-function fragment processing)";
	} else if ((n = drv_ps_inputs(fs, b->ps_inputs, reason, sizeof reason)) < 0) {
		why = reason;
	} else {
		ps->n_inputs = (unsigned)n;
		/* PERSP_CENTER always (GCN needs an I, J pair), LINEAR_CENTER
		 * for noperspective inputs, POS_X..W_FLOAT for gl_FragCoord,
		 * FRONT_FACE for gl_FrontFacing; the VGPRs follow in that order
		 * and must stay within v0..v7 (drv_emit's map) */
		ps->input_ena = 1u << 1;
		for (uint32_t i = 0; i < fs->n_vars; i++) {
			const struct drv_svar *v = &fs->vars[i];
			if (v->storage != SpvStorageClassInput)
				continue;
			if (v->builtin == SpvBuiltInFrontFacing)
				ps->input_ena |= 1u << 12;
			else if (v->builtin == SpvBuiltInFragCoord)
				ps->input_ena |= 0xFu << 8;
		}
		for (unsigned k = 0; k < ps->n_inputs; k++)
			if (b->ps_inputs[k].noperspective && !b->ps_inputs[k].flat)
				ps->input_ena |= 1u << 5;
		if (drv_ps_input_vgpr(ps->input_ena, 16) > 8)
			why = "gl_FragCoord, gl_FrontFacing and noperspective inputs together (more input "
			      "VGPRs than the driver's register map has)";
		for (unsigned k = 0; k < ps->n_inputs; k++)
			ps_input_map(b, last, k);
		for (unsigned k = 0; k < ps->n_inputs && !why; k++)
			if (!ps->input_written[k] && !ps->input_sprite[k])
				why = "a fragment shader input no vertex shader output feeds (such as the "
				      "compatibility varyings gl_Color / gl_SecondaryColor / gl_TexCoord)";
		for (uint32_t i = 0; i < fs->n_vars; i++) {
			const struct drv_svar *v = &fs->vars[i];
			if (v->storage == SpvStorageClassOutput && v->builtin == SpvBuiltInFragDepth)
				ps->writes_z = true;
			else if (v->storage == SpvStorageClassOutput && v->builtin == SpvBuiltInSampleMask)
				ps->writes_mask = true;
			else if (v->storage == SpvStorageClassOutput && v->location >= 0 && v->location < 8)
				/* every location an output (an array: one an element) takes */
				for (uint32_t l = v->location, left = drv_stype_locations(fs, v->type); l < 8 && left; l++, left--)
					ps->colors_written |= 1u << l;
		}
		if (!why)
			b->n_params = ps->n_inputs;
	}
	return why ? set_ps_unsupported(p, why) : XT_OK;
}

/* --- per hardware stage -------------------------------------------------------------- */

static enum xt_rc compile_hw(struct build *b, enum drv_hw_stage hw, enum drv_stage stage)
{
	struct drv_ir ir;
	struct xt_err err = { 0 };
	struct drv_lower_info info = { .tf = &b->p->tf, .esgs = &b->esgs, .gs = &b->p->gs, .gsvs_dw = b->gsvs_dw,
				       .ps_mod = &b->mod[DRV_STAGE_FRAGMENT], .ps_inputs = b->ps_inputs,
				       .n_params = hw == DRV_HW_VS || hw == DRV_HW_COPY ? b->n_params : 0,
				       .ps_input_ena = b->p->ps.input_ena };
	enum xt_rc rc;
	const char *pass = "spirv_to_ir";

	drv_ir_init(&ir, hw);
	if (hw == DRV_HW_COPY) {
		pass = "build_copy_shader";
		rc = drv_build_copy_shader(&ir, &b->mod[DRV_STAGE_GEOMETRY], &info, &err);
	} else {
		rc = drv_spirv_to_ir(&b->mod[stage], &b->esgs, &ir, &err);
	}
	if (rc == XT_OK && (rc = drv_ir_validate(&ir, pass, &err)) == XT_OK && hw != DRV_HW_COPY) {
		pass = "lower_io";
		if ((rc = drv_lower_io(&ir, &b->mod[stage], &info, &err)) == XT_OK)
			rc = drv_ir_validate(&ir, pass, &err);
	}
	if (rc == XT_OK) {
		pass = "ra";
		if ((rc = drv_ra(&ir, &err)) == XT_OK)
			rc = drv_ir_validate(&ir, pass, &err);
	}
	if (rc == XT_OK) {
		pass = "emit";
		rc = drv_emit(&ir, &info, &b->p->hw[hw], &err);
	}
	if (rc == XT_OK && hw == DRV_HW_PS)
		b->p->ps.kills = ir.kills;
	for (unsigned k = 0; rc == XT_OK && k < b->p->n_samplers && k < 32; k++)
		if (ir.query_levels >> k & 1)
			b->p->samplers[k].queries_levels = true;
	if (rc == XT_ERR_NOMEM) {
		drv_ir_fini(&ir);
		return rc;
	}
	if (rc != XT_OK && hw == DRV_HW_PS) {
		/* the program links without it: its draws' pixels are what the
		 * model cannot draw (drv_program.ps_unsupported) */
		drv_ir_fini(&ir);
		return set_ps_unsupported(b->p, rc == XT_ERR_UNSUPPORTED ? err.msg
					  : "an internal compiler error");
	}
	if (rc == XT_ERR_UNSUPPORTED && b->desc->source[stage]) {
		/* the GLSL compiled (glCompileShader said so); the back end is
		 * what falls short, which is the driver's limit, not a GL error */
		xt_buf_printf(&b->llog, "error: the %s shader uses what the driver cannot compile: %s\n",
			      stage_names[stage], err.msg);
		b->p->unsupported = true;
	} else if (rc == XT_ERR_UNSUPPORTED || rc == XT_ERR_CORRUPT) {
		xt_buf_printf(&b->clog[stage], "error: %s\n", err.msg);
		b->p->compiled[stage] = false;
	} else if (rc != XT_OK) {
		struct xt_buf dump = XT_BUF_INIT;
		drv_ir_print(&ir, &dump);
		xt_buf_printf(&b->llog, "error: internal compiler error in %s (%s shader, pass %s): %s\n",
			      hw == DRV_HW_COPY ? "the copy shader" : "the", stage_names[stage], pass, err.msg);
		if (getenv("XFBTRACE_DRV_DEBUG") && dump.data)
			xt_buf_append(&b->llog, dump.data, dump.len);
		xt_buf_fini(&dump);
	}
	drv_ir_fini(&ir);
	return rc == XT_OK ? XT_OK : XT_ERR_INVALID;
}

static char *take_log(struct xt_buf *b)
{
	char *s;
	xt_buf_append(b, "", 1);
	s = (char *)xt_buf_detach(b, NULL);
	return s ? s : calloc(1, 1);
}

/* Appends a translation's built-in maps to the program's (once each). */
static enum xt_rc add_builtin_maps(struct drv_program *p, const struct drv_translation *t)
{
	for (unsigned k = 0; k < t->n_maps; k++) {
		struct drv_builtin_map *nm;
		bool known = false;
		for (unsigned i = 0; i < p->n_builtins && !known; i++)
			known = !memcmp(&p->builtins[i], &t->maps[k], sizeof t->maps[k]);
		if (known)
			continue;
		nm = realloc(p->builtins, (p->n_builtins + 1) * sizeof *nm);
		if (!nm)
			return XT_ERR_NOMEM;
		p->builtins = nm;
		nm[p->n_builtins++] = t->maps[k];
	}
	return XT_OK;
}

/* The further shader objects of stage s (desc->more_sources), each
 * translated on its own and chained to tr[s] for glslang, which links
 * them; their built-in maps join the program's.  XT_ERR_INVALID (the log
 * in clog[s]) when one does not translate. */
static enum xt_rc translate_more(struct build *b, enum drv_stage s)
{
	const unsigned n = b->desc->n_more_sources[s];
	enum xt_rc rc;

	if (!n)
		return XT_OK;
	b->more[s] = calloc(n, sizeof *b->more[s]);
	if (!b->more[s])
		return XT_ERR_NOMEM;
	b->tr[s].more = b->more[s];
	for (unsigned i = 0; i < n; i++) {
		rc = drv_glsl_translate(b->desc->more_sources[s][i], s, b->desc->es, &b->more[s][i], &b->clog[s]);
		if (rc != XT_OK)
			return rc;
		b->tr[s].n_more = i + 1;
		if ((rc = add_builtin_maps(b->p, &b->more[s][i])) != XT_OK)
			return rc;
	}
	return XT_OK;
}

/* The application's SPIR-V stages (ARB_gl_spirv) go straight to the module
 * reader: copied into spv[], and no longer present[] for glslang.  GL does
 * not link SPIR-V and GLSL shaders into one program, so a program is one
 * or the other (its vertex stage says which). */
static enum xt_rc take_spirv(struct build *b, bool present[DRV_STAGE_COUNT])
{
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		const size_t n = b->desc->spirv_words[s];
		if (present[s] && !b->desc->spirv[s] != !b->desc->spirv[DRV_STAGE_VERTEX]) {
			xt_buf_printf(&b->llog, "error: a program cannot link SPIR-V and GLSL shaders together\n");
			return XT_ERR_INVALID;
		}
		if (!b->desc->spirv[s])
			continue;
		b->spv[s].words = malloc((n ? n : 1) * sizeof *b->spv[s].words);
		if (!b->spv[s].words)
			return XT_ERR_NOMEM;
		memcpy(b->spv[s].words, b->desc->spirv[s], n * sizeof *b->spv[s].words);
		b->spv[s].n_words = n;
		present[s] = false;
	}
	return XT_OK;
}

/* GL 4.6 compatibility §15 without a fragment shader, texturing, colour
 * sum or fog: the fragment's colour is the interpolated primary colour. */
static const char ff_fragment_shader[] = "#version 110\nvoid main() { gl_FragColor = gl_Color; }\n";

enum xt_rc drv_program_create(const struct drv_program_desc *desc, struct drv_program **out, struct xt_err *err)
{
	struct build *b;
	struct drv_program *p;
	bool present[DRV_STAGE_COUNT], ok = true, no_vs;
	enum xt_rc rc = XT_OK;
	enum drv_stage last;
	struct drv_program_desc ff;

	*out = NULL;
	if (!desc)
		return XT_FAIL(err, XT_ERR_INVALID, "drv_program_create: no description");
	if (desc->ff_fragment && !desc->compile_only && desc->source[DRV_STAGE_VERTEX] &&
	    !desc->source[DRV_STAGE_FRAGMENT] && !desc->spirv[DRV_STAGE_FRAGMENT]) {
		ff = *desc;
		ff.source[DRV_STAGE_FRAGMENT] = ff_fragment_shader;
		desc = &ff;
	}
	b = calloc(1, sizeof *b);
	p = calloc(1, sizeof *p);
	if (!b || !p) {
		free(b);
		free(p);
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	}
	b->p = p;
	b->desc = desc;
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		present[s] = desc->source[s] != NULL || desc->spirv[s] != NULL;
		if (!present[s] || (p->compiled[s] = desc->spirv[s] != NULL))
			continue;
		rc = drv_glsl_translate(desc->source[s], (enum drv_stage)s, desc->es, &b->tr[s], &b->clog[s]);
		if (rc == XT_ERR_NOMEM)
			goto fail;
		p->compiled[s] = rc == XT_OK;
		ok &= rc == XT_OK;
		if (rc == XT_OK) {
			p->translated[s] = strdup(b->tr[s].text);
			for (unsigned k = 0; k < b->tr[s].n_maps; k++) {
				struct drv_builtin_map *nm = realloc(p->builtins, (p->n_builtins + 1) * sizeof *nm);
				if (!nm) {
					rc = XT_ERR_NOMEM;
					goto fail;
				}
				p->builtins = nm;
				nm[p->n_builtins++] = b->tr[s].maps[k];
			}
		}
		if (rc == XT_OK && (rc = translate_more(b, (enum drv_stage)s)) != XT_OK) {
			if (rc == XT_ERR_NOMEM)
				goto fail;
			p->compiled[s] = ok = false;
		}
	}
	rc = XT_OK;
	if (!ok)
		goto done;
	/* glslang runs for every present stage, so a lone geometry or fragment
	 * shader (glCompileShader) gets glslang's verdict too */
	rc = take_spirv(b, present);
	if (rc == XT_OK && !desc->spirv[DRV_STAGE_VERTEX])
		rc = drv_glslang_compile(b->tr, present, b->spv, b->declared, b->clog, p->compiled, &b->llog);
	if (rc == XT_ERR_NOMEM)
		goto fail;
	if (rc != XT_OK || desc->compile_only) {
		rc = XT_OK;
		goto done;
	}
	no_vs = !desc->source[DRV_STAGE_VERTEX] && !desc->spirv[DRV_STAGE_VERTEX];
	if (no_vs && !check_no_vertex_shader(b))
		goto done;
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		struct xt_err perr = { 0 };
		if (!b->spv[s].words)
			continue;
		rc = drv_smodule_parse(&b->mod[s], b->spv[s].words, b->spv[s].n_words, &perr);
		b->mod[s].match_by_location = desc->spirv[s] != NULL;
		b->parsed[s] = rc == XT_OK;
		if (rc == XT_ERR_NOMEM)
			goto fail;
		if (rc == XT_ERR_UNSUPPORTED && desc->source[s]) {
			/* glslang's SPIR-V uses what the driver does not handle */
			xt_buf_printf(&b->llog, "error: the %s shader uses what the driver cannot compile: %s\n",
				      stage_names[s], perr.msg);
			p->unsupported = true;
			ok = false;
		} else if (rc != XT_OK) {
			xt_buf_printf(&b->clog[s], "error: %s\n", perr.msg);
			p->compiled[s] = false;
			ok = false;
		}
		rc = XT_OK;
	}
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		struct xt_err perr = { 0 };
		if (!b->declared[s].words)
			continue;
		/* only its declarations are read; a module the parser refuses
		 * adds no block (the optimized one was accepted) */
		rc = drv_smodule_parse(&b->declared_mod[s], b->declared[s].words, b->declared[s].n_words, &perr);
		if (rc == XT_ERR_NOMEM)
			goto fail;
		b->declared_parsed[s] = rc == XT_OK;
		rc = XT_OK;
	}
	if (!ok)
		goto done;
	if ((rc = drv_program_apply_block_layouts(b)) != XT_OK)
		goto fail;
	if (no_vs) {
		/* no executable vertex stage: drawing reports it (fixed
		 * function); the tables answer the program queries */
		if ((rc = drv_program_build_uniforms(b)) == XT_ERR_NOMEM)
			goto fail;
		p->linked = rc == XT_OK;
		rc = XT_OK;
		goto done;
	}
	p->has_gs = b->parsed[DRV_STAGE_GEOMETRY];
	last = p->has_gs ? DRV_STAGE_GEOMETRY : DRV_STAGE_VERTEX;
	if ((rc = drv_program_build_attribs(b)) != XT_OK || (rc = drv_program_build_uniforms(b)) != XT_OK ||
	    (rc = drv_tf_layout_build(&b->mod[last], last, desc, b->tr[last].maps, b->tr[last].n_maps, &p->tf,
				      &b->llog)) != XT_OK) {
		if (rc == XT_ERR_NOMEM)
			goto fail;
		rc = XT_OK;
		goto done;
	}
	if (p->has_gs) {
		if ((rc = build_esgs(b)) != XT_OK || (rc = build_gs(b)) != XT_OK)
			goto fail;
		if (p->gs.max_vertices == 0) {
			xt_buf_printf(&b->llog, "error: the geometry shader does not declare max_vertices\n");
			goto done;
		}
		if (!check_gs_streams(b))
			goto done;
	}
	if ((rc = prepare_ps(b)) != XT_OK)
		goto fail;
	ok = compile_hw(b, p->has_gs ? DRV_HW_ES : DRV_HW_VS, DRV_STAGE_VERTEX) == XT_OK;
	if (ok && p->has_gs)
		ok = compile_hw(b, DRV_HW_GS, DRV_STAGE_GEOMETRY) == XT_OK &&
		     compile_hw(b, DRV_HW_COPY, DRV_STAGE_GEOMETRY) == XT_OK;
	/* what the last vertex stage's stores reach, known once translated */
	if (ok)
		drv_vs_outputs(&b->mod[p->has_gs ? DRV_STAGE_GEOMETRY : DRV_STAGE_VERTEX], &p->vs_out);
	if (ok && b->parsed[DRV_STAGE_FRAGMENT] && !p->ps_unsupported &&
	    (rc = compile_hw(b, DRV_HW_PS, DRV_STAGE_FRAGMENT)) == XT_ERR_NOMEM)
		goto fail;
	rc = XT_OK;
	p->linked = ok;
done:
	for (int s = 0; s < DRV_STAGE_COUNT; s++)
		p->compile_log[s] = take_log(&b->clog[s]);
	if (!p->linked && !b->llog.len) {
		for (int s = 0; s < DRV_STAGE_COUNT; s++)
			if (present[s] && !p->compiled[s])
				xt_buf_printf(&b->llog, "error: linking with an uncompiled %s shader\n", stage_names[s]);
	}
	p->link_log = take_log(&b->llog);
	rc = XT_OK;
fail:
	if (b->gsvs_dw) {
		for (uint32_t i = 0; i < b->mod[DRV_STAGE_GEOMETRY].n_vars + 1; i++)
			free(b->gsvs_dw[i]);
		free(b->gsvs_dw);
	}
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		drv_translation_fini(&b->tr[s]);
		for (unsigned i = 0; b->more[s] && i < desc->n_more_sources[s]; i++)
			drv_translation_fini(&b->more[s][i]);
		free(b->more[s]);
		drv_smodule_fini(&b->mod[s]);
		free(b->spv[s].words);
		drv_smodule_fini(&b->declared_mod[s]);
		free(b->declared[s].words);
		xt_buf_fini(&b->clog[s]);
	}
	xt_buf_fini(&b->llog);
	free(b->esgs.vars);
	free(b);
	if (rc != XT_OK) {
		drv_program_destroy(p);
		return XT_FAIL(err, rc, "drv_program_create: out of memory");
	}
	*out = p;
	return XT_OK;
}

void drv_program_destroy(struct drv_program *p)
{
	if (!p)
		return;
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		free(p->compile_log[s]);
		free(p->translated[s]);
	}
	for (int h = 0; h < DRV_HW_COUNT; h++) {
		free(p->hw[h].code);
		free(p->hw[h].asm_text);
	}
	free(p->ps_unsupported);
	free(p->layout_notes);
	free(p->link_log);
	free(p->attribs);
	free(p->uniforms);
	free(p->const_init);
	free(p->ubos);
	free(p->samplers);
	free(p->tf.varyings);
	free(p->builtins);
	free(p);
}

/* --- queries --------------------------------------------------------------------- */

int drv_program_attrib_location(const struct drv_program *p, const char *name)
{
	for (unsigned i = 0; p && i < p->n_attribs; i++)
		if (!strcmp(p->attribs[i].name, name))
			return (int)p->attribs[i].location;
	return -1;
}

int drv_program_uniform_location(const struct drv_program *p, const char *name, unsigned *uniform_index,
				 unsigned *element)
{
	for (unsigned i = 0; p && i < p->n_uniforms; i++) {
		const struct drv_uniform *u = &p->uniforms[i];
		size_t base = strlen(u->name);
		if (u->block >= 0)
			continue;
		if (!strcmp(u->name, name)) {
			if (uniform_index) *uniform_index = i;
			if (element) *element = 0;
			return u->location;
		}
		/* "a[0]" entries also answer "a" and "a[k]" */
		if (base > 3 && !strcmp(u->name + base - 3, "[0]") && !strncmp(u->name, name, base - 3)) {
			const char *r = name + base - 3;
			unsigned long k = 0;
			char *end;
			if (*r == 0) {
				k = 0;
			} else if (*r == '[') {
				k = strtoul(r + 1, &end, 10);
				if (end == r + 1 || strcmp(end, "]"))
					continue;
			} else {
				continue;
			}
			if (k >= u->size)
				return -1;
			if (uniform_index) *uniform_index = i;
			if (element) *element = (unsigned)k;
			return u->location + (int)k;
		}
	}
	return -1;
}

uint32_t drv_program_ubo_index(const struct drv_program *p, const char *name)
{
	for (unsigned i = 0; p && i < p->n_ubos; i++)
		if (!strcmp(p->ubos[i].name, name))
			return i;
	return 0xFFFFFFFFu;
}

uint32_t drv_program_tf_varying_max_length(const struct drv_program *p)
{
	uint32_t m = 0;
	for (unsigned i = 0; p && i < p->tf.n_varyings; i++)
		if (strlen(p->tf.varyings[i].name) + 1 > m)
			m = (uint32_t)strlen(p->tf.varyings[i].name) + 1;
	return m;
}

enum xt_rc drv_program_disasm(const struct drv_program *p, struct xt_buf *out)
{
	static const char *const hw_names[DRV_HW_COUNT] = { "VS", "ES", "GS", "copy shader", "PS" };
	xt_buf_printf(out, "program: %s\n", p->linked ? "linked" : "not linked");
	if (p->link_log && *p->link_log)
		xt_buf_printf(out, "link log:\n%s", p->link_log);
	for (int s = 0; s < DRV_STAGE_COUNT; s++)
		if (p->compile_log[s] && *p->compile_log[s])
			xt_buf_printf(out, "%s shader log:\n%s", stage_names[s], p->compile_log[s]);
	for (unsigned i = 0; i < p->n_builtins; i++)
		xt_buf_printf(out, "builtin %s -> %s (%s, %s)\n", p->builtins[i].glsl_name, p->builtins[i].reserved_name,
			      p->builtins[i].kind == DRV_BUILTIN_ATTRIB ? "input" :
			      p->builtins[i].kind == DRV_BUILTIN_UNIFORM ? "uniform" :
			      p->builtins[i].kind == DRV_BUILTIN_OUTPUT ? "output" : "renamed",
			      stage_names[p->builtins[i].stage]);
	for (unsigned i = 0; i < p->n_attribs; i++)
		xt_buf_printf(out, "attrib %s %s[%u] location %u (%u)\n", p->attribs[i].name,
			      drv_gl_type_name(p->attribs[i].type), p->attribs[i].size, p->attribs[i].location,
			      p->attribs[i].locations);
	for (unsigned i = 0; i < p->n_uniforms; i++)
		xt_buf_printf(out, "uniform %s %s[%u] location %d offset %u array_stride %u matrix_stride %u\n",
			      p->uniforms[i].name, drv_gl_type_name(p->uniforms[i].type), p->uniforms[i].size,
			      p->uniforms[i].location, p->uniforms[i].offset, p->uniforms[i].array_stride,
			      p->uniforms[i].matrix_stride);
	for (unsigned i = 0; i < p->n_ubos; i++)
		xt_buf_printf(out, "uniform block %u %s size %u\n", i, p->ubos[i].name, p->ubos[i].size_bytes);
	if (p->tf.n_varyings) {
		xt_buf_printf(out, "transform feedback (%s%s): strides", p->tf.mode == DRV_GL_SEPARATE_ATTRIBS ?
			      "separate" : "interleaved", p->tf.from_xfb_qualifiers ? ", xfb qualifiers" : "");
		for (unsigned b = 0; b < DRV_MAX_TF_BUFFERS; b++)
			xt_buf_printf(out, " %u", p->tf.stride_bytes[b]);
		xt_buf_printf(out, "\n");
		for (unsigned i = 0; i < p->tf.n_varyings; i++)
			xt_buf_printf(out, "  %s %s[%u] buffer %u offset %u stream %u\n", p->tf.varyings[i].name,
				      drv_gl_type_name(p->tf.varyings[i].type), p->tf.varyings[i].size,
				      p->tf.varyings[i].buffer, p->tf.varyings[i].offset, p->tf.varyings[i].stream);
	}
	if (p->ps_unsupported)
		xt_buf_printf(out, "no PS: %s\n", p->ps_unsupported);
	if (p->vs_out.pos_exports > 1) {
		xt_buf_printf(out, "position exports: %u (point size %s, clip distances 0x%02x", p->vs_out.pos_exports,
			      p->vs_out.point_size ? "yes" : "no", p->vs_out.clip_dist);
		if (p->vs_out.cull_dist)
			xt_buf_printf(out, ", cull distances 0x%02x", p->vs_out.cull_dist);
		xt_buf_printf(out, ")\n");
	}
	if (p->has_gs)
		xt_buf_printf(out, "gs: max_vertices %u in 0x%x out 0x%x invocations %u streams 0x%x esgs %u gsvs %u\n",
			      p->gs.max_vertices, p->gs.input_prim, p->gs.output_prim, p->gs.invocations,
			      p->gs.streams_used, p->gs.esgs_itemsize_dw, p->gs.gsvs_itemsize_dw);
	for (int h = 0; h < DRV_HW_COUNT; h++) {
		if (!p->hw[h].present)
			continue;
		xt_buf_printf(out, "--- %s: %u dwords, %u VGPRs, %u SGPRs%s\n", hw_names[h], p->hw[h].size_dw,
			      p->hw[h].num_vgprs, p->hw[h].num_sgprs, p->hw[h].so_en ? ", streamout" : "");
		isa_disassemble(p->hw[h].code, p->hw[h].size_dw, 0, out);
	}
	return XT_OK;
}
