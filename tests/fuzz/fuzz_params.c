/*
 * fuzz_params.c - the value lists of xfb-fuzz-case's parameters, the seed's
 * draw, overrides and the validity rules (fuzz_params.h).
 *
 * The validity rules are the API's: each names the spec rule it follows.
 * They only move a value towards its default (or turn on what a chosen
 * value needs), never draw again, so a shrunk case stays the same case.
 */
#include "fuzz_params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VALUES(...) (const char *const[]){ __VA_ARGS__ }
#define P(id, nm, ...) [id] = { nm, sizeof(VALUES(__VA_ARGS__)) / sizeof(char *), VALUES(__VA_ARGS__) }

const struct fuzz_pdef fuzz_pdefs[FP_N] = {
	P(FP_API, "api", "core", "compat", "gles"),
	P(FP_PRIM, "prim", "points", "lines", "line_strip", "line_loop", "triangles",
	  "triangle_strip", "triangle_fan", "lines_adjacency", "line_strip_adjacency",
	  "triangles_adjacency", "triangle_strip_adjacency", "quads", "quad_strip", "polygon"),
	P(FP_DRAW, "draw", "arrays", "arrays_instanced", "elements", "elements_base_vertex",
	  "elements_instanced", "elements_instanced_bv_bi", "range", "range_base_vertex",
	  "multi_arrays", "multi_elements", "multi_elements_base_vertex", "arrays_indirect",
	  "elements_indirect", "multi_arrays_indirect", "multi_elements_indirect",
	  "transform_feedback", "transform_feedback_stream", "transform_feedback_instanced",
	  "transform_feedback_stream_instanced"),
	P(FP_COUNT, "count", "6", "1", "2", "3", "4", "5", "7", "8", "9", "12", "16", "33"),
	P(FP_FIRST, "first", "0", "1", "2", "5"),
	P(FP_INSTANCES, "instances", "1", "2", "3"),
	P(FP_BASE_INSTANCE, "base_instance", "0", "1", "3"),
	P(FP_BASE_VERTEX, "base_vertex", "0", "1", "4"),
	P(FP_INDEX_TYPE, "index_type", "uint", "ushort", "ubyte"),
	P(FP_INDEX_PATTERN, "index_pattern", "sequential", "reversed", "shuffled"),
	P(FP_RESTART, "restart", "none", "fixed", "index"),
	P(FP_RESTART_POS, "restart_pos", "2", "0", "1", "3", "5"),
	P(FP_PROVOKING, "provoking", "last", "first"),
	P(FP_CLIENT_MEM, "client_mem", "0", "1", "indirect_buffer"),
#define VKINDS "none", "float", "vec2", "vec3", "vec4", "int", "ivec2", "ivec4", "uint", \
	"uvec3", "mat2", "mat3x2", "mat4", "float[3]", "vec2[2]", "double", "dvec3", \
	"dmat2", "struct", "block"
	P(FP_V0, "v0", VKINDS),
	P(FP_V1, "v1", VKINDS),
	P(FP_V2, "v2", VKINDS),
	P(FP_V3, "v3", VKINDS),
	P(FP_CAP_POS, "cap_position", "0", "1"),
	P(FP_CAP_PSIZE, "cap_pointsize", "0", "1"),
	P(FP_CAP_CLIP, "cap_clipdistance", "0", "1"),
	P(FP_CAP_COMPAT, "cap_frontcolor", "0", "1"),
	P(FP_ARR_ELEM, "array_element", "0", "1"),
	P(FP_MODE, "mode", "interleaved", "separate", "layout"),
	P(FP_SKIP, "skip", "0", "1", "2", "3", "4"),
	P(FP_NEXT_BUFFER, "next_buffer", "0", "1"),
	P(FP_XFB_STRIDE, "xfb_stride_extra", "0", "8", "16"),
	P(FP_BUF_OFFSET, "buf_offset", "0", "8", "16", "40"),
	P(FP_BUF_SIZE, "buf_size", "whole", "24", "48", "96", "200"),
	P(FP_BIND, "bind", "base", "range", "buffers_range"),
	P(FP_PAUSE, "pause", "none", "draw_while_paused", "other_object_while_paused"),
	P(FP_NBEGIN, "nbegin", "1", "2", "3"),
	P(FP_DISCARD, "discard", "1", "0"),
	P(FP_GS, "gs", "0", "1"),
	P(FP_GS_OUT, "gs_out", "points", "line_strip", "triangle_strip"),
	P(FP_GS_EMIT, "gs_emit", "3", "1", "2", "4", "6"),
	P(FP_GS_MAXV_EXTRA, "gs_max_vertices_extra", "0", "1", "5"),
	P(FP_GS_ENDPRIM, "gs_end_primitive_every", "0", "1", "2", "3"),
	P(FP_GS_INVOC, "gs_invocations", "1", "2", "3"),
	P(FP_GS_STREAMS, "gs_streams", "0", "stream1", "stream1_no_buffer"),
	P(FP_Q_PG, "q_generated", "0", "1"),
	P(FP_Q_WRITTEN, "q_written", "0", "1"),
	P(FP_Q_INDEXED, "q_indexed", "0", "1"),
	P(FP_Q_OVERFLOW, "q_overflow", "none", "overflow", "stream_overflow"),
	P(FP_Q_OCCL, "q_occlusion", "none", "samples", "any", "any_conservative"),
	P(FP_COND, "cond", "none", "wait", "no_wait", "by_region_wait", "wait_inverted",
	  "no_wait_inverted"),
	P(FP_COND_SRC, "cond_src", "occlusion", "overflow"),
	P(FP_A_FMT, "a_format", "float", "half", "byte_norm", "ubyte_norm", "short_norm",
	  "ushort", "int_norm", "uint", "fixed", "int_2_10_10_10_norm", "uint_2_10_10_10",
	  "ipointer_int", "ipointer_ubyte", "ipointer_short", "lpointer_double", "double"),
	P(FP_A_COMPS, "a_comps", "4", "3", "2", "1"),
	P(FP_A_STRIDE, "a_stride_extra", "0", "4", "12"),
	P(FP_A_OFFSET, "a_offset", "0", "4", "16"),
	P(FP_B_DIV, "b_divisor", "0", "1", "2"),
	P(FP_CLIP_PLANES, "clip_planes", "none", "1", "2", "0_1", "0_1_2"),
	P(FP_CULL, "cull_distance", "0", "1"),
};

/* Bit i: GL_CLIP_DISTANCEi, per value of clip_planes. */
static const unsigned clip_plane_masks[] = { 0x0, 0x2, 0x4, 0x3, 0x7 };

unsigned fuzz_clip_enabled(const struct fuzz_point *p)
{
	return clip_plane_masks[p->v[FP_CLIP_PLANES]];
}

unsigned fuzz_clip_written(const struct fuzz_point *p)
{
	unsigned enabled = fuzz_clip_enabled(p);
	if (!p->v[FP_CAP_CLIP] && !enabled)
		return 0;
	return enabled & 0x4 ? 0x7 : 0x3;
}

/* splitmix64: each parameter's value from one step, in table order. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void fuzz_params_draw(struct fuzz_point *p, uint64_t seed)
{
	uint64_t s = seed * 0x2545f4914f6cdd1dull + 1;
	for (int i = 0; i < FP_N; i++) {
		uint64_t r = next_rand(&s);
		int n = fuzz_pdefs[i].n_values;
		/* The main dimensions are uniform; every other parameter keeps
		 * its default half of the time, so that a case turns on a few
		 * features rather than all of them (one feature the sim does
		 * not model would otherwise hide every other result). */
		bool uniform = i == FP_API || i == FP_PRIM || i == FP_DRAW || i == FP_V0 ||
			       i == FP_COUNT || i == FP_A_FMT || i == FP_MODE;
		if (!uniform && (r >> 60) < 8)
			p->v[i] = 0;
		else
			p->v[i] = (int)(r % (uint64_t)n);
	}
	if (p->v[FP_V0] == VK_NONE)
		p->v[FP_V0] = VK_FLOAT;
}

bool fuzz_params_set(struct fuzz_point *p, const char *kv)
{
	const char *eq = strchr(kv, '=');
	if (!eq)
		return false;
	for (int i = 0; i < FP_N; i++) {
		const struct fuzz_pdef *d = &fuzz_pdefs[i];
		if (strlen(d->name) != (size_t)(eq - kv) || strncmp(d->name, kv, (size_t)(eq - kv)))
			continue;
		for (int v = 0; v < d->n_values; v++) {
			if (!strcmp(d->values[v], eq + 1)) {
				p->v[i] = v;
				return true;
			}
		}
		char *end;
		long v = strtol(eq + 1, &end, 10);
		if (*end || end == eq + 1 || v < 0 || v >= d->n_values)
			return false;
		p->v[i] = (int)v;
		return true;
	}
	return false;
}

/* TF varyings one varying kind makes through glTransformFeedbackVaryings:
 * struct and block members are named one by one (GL 4.6 §11.1.2.1). */
static int n_names(int vk)
{
	return vk == VK_NONE ? 0 : (vk == VK_STRUCT || vk == VK_BLOCK) ? 2 : 1;
}

static bool is_elements(int d)
{
	return d == DR_ELEMENTS || d == DR_ELEMENTS_BV || d == DR_ELEMENTS_INST ||
	       d == DR_ELEMENTS_INST_BV_BI || d == DR_RANGE || d == DR_RANGE_BV ||
	       d == DR_MULTI_ELEMENTS || d == DR_MULTI_ELEMENTS_BV ||
	       d == DR_ELEMENTS_INDIRECT || d == DR_MULTI_ELEMENTS_INDIRECT;
}

static bool is_instanced(int d)
{
	return d == DR_ARRAYS_INST || d == DR_ELEMENTS_INST || d == DR_ELEMENTS_INST_BV_BI ||
	       d == DR_TF_INST || d == DR_TF_STREAM_INST || d == DR_ARRAYS_INDIRECT ||
	       d == DR_ELEMENTS_INDIRECT || d == DR_MULTI_ARRAYS_INDIRECT ||
	       d == DR_MULTI_ELEMENTS_INDIRECT;
}

static bool has_base_vertex(int d)
{
	return d == DR_ELEMENTS_BV || d == DR_ELEMENTS_INST_BV_BI || d == DR_RANGE_BV ||
	       d == DR_MULTI_ELEMENTS_BV || d == DR_ELEMENTS_INDIRECT ||
	       d == DR_MULTI_ELEMENTS_INDIRECT;
}

static bool has_base_instance(int d)
{
	return d == DR_ELEMENTS_INST_BV_BI || d == DR_ARRAYS_INDIRECT ||
	       d == DR_ELEMENTS_INDIRECT || d == DR_MULTI_ARRAYS_INDIRECT ||
	       d == DR_MULTI_ELEMENTS_INDIRECT;
}

static bool is_draw_tf(int d)
{
	return d == DR_TF || d == DR_TF_STREAM || d == DR_TF_INST || d == DR_TF_STREAM_INST;
}

void fuzz_params_normalize(struct fuzz_point *p)
{
	int *v = p->v;
	bool gles = v[FP_API] == API_GLES, core = v[FP_API] == API_CORE;

	/* Quads, quad strips and polygons exist in the compatibility profile
	 * only (GL 4.6 compat §10.1); a geometry shader has no
	 * input type for them (GL 4.6 §11.3, INVALID_OPERATION at draw). */
	if (v[FP_PRIM] >= PR_QUADS && (v[FP_API] != API_COMPAT))
		v[FP_PRIM] = PR_TRIANGLES;
	if (v[FP_PRIM] >= PR_QUADS)
		v[FP_GS] = 0;

	/* Line adjacency under TF without a geometry shader: Mesa 22.3 raises
	 * GL_INVALID_OPERATION at the draw (its TF mode check admits only
	 * LINES, LINE_STRIP and LINE_LOOP with TF mode LINES), which makes
	 * the case invalid; triangle adjacency passes. */
	if (!v[FP_GS] && (v[FP_PRIM] == PR_LINES_ADJ || v[FP_PRIM] == PR_LINE_STRIP_ADJ))
		v[FP_PRIM] = PR_LINES;

	if (gles) {
		/* GLES 3.2 §12.1: while TF is active the draw mode must be
		 * identical to the TF primitive mode (points, lines,
		 * triangles), or the geometry shader's output type is used. */
		if (!v[FP_GS]) {
			static const int es_mode[PR_N] = {
				[PR_POINTS] = PR_POINTS, [PR_LINES] = PR_LINES,
				[PR_LINE_STRIP] = PR_LINES, [PR_LINE_LOOP] = PR_LINES,
				[PR_LINES_ADJ] = PR_LINES, [PR_LINE_STRIP_ADJ] = PR_LINES,
				[PR_TRIANGLES] = PR_TRIANGLES, [PR_TRI_STRIP] = PR_TRIANGLES,
				[PR_TRI_FAN] = PR_TRIANGLES, [PR_TRIS_ADJ] = PR_TRIANGLES,
				[PR_TRI_STRIP_ADJ] = PR_TRIANGLES, [PR_QUADS] = PR_TRIANGLES,
				[PR_QUAD_STRIP] = PR_TRIANGLES, [PR_POLYGON] = PR_TRIANGLES,
			};
			v[FP_PRIM] = es_mode[v[FP_PRIM]];
		}
		/* No multi-draws, indirect draws under TF, glDrawTransformFeedback,
		 * base instance, glPrimitiveRestartIndex, provoking vertex, doubles,
		 * clip or cull distances (EXT_clip_cull_distance: llvmpipe has
		 * it, the sim's GLES does not), gl_SkipComponents / gl_NextBuffer, xfb layout
		 * qualifiers, overflow queries or conditional rendering in GLES 3.2. */
		static const int es_draw[DR_N] = {
			[DR_ARRAYS] = DR_ARRAYS, [DR_ARRAYS_INST] = DR_ARRAYS_INST,
			[DR_ELEMENTS] = DR_ELEMENTS, [DR_ELEMENTS_BV] = DR_ELEMENTS_BV,
			[DR_ELEMENTS_INST] = DR_ELEMENTS_INST,
			[DR_ELEMENTS_INST_BV_BI] = DR_ELEMENTS_INST, [DR_RANGE] = DR_RANGE,
			[DR_RANGE_BV] = DR_RANGE_BV, [DR_MULTI_ELEMENTS] = DR_ELEMENTS,
			[DR_MULTI_ELEMENTS_BV] = DR_ELEMENTS_BV,
			[DR_ELEMENTS_INDIRECT] = DR_ELEMENTS,
			[DR_MULTI_ELEMENTS_INDIRECT] = DR_ELEMENTS,
			[DR_TF_INST] = DR_ARRAYS_INST, [DR_TF_STREAM_INST] = DR_ARRAYS_INST,
		};
		v[FP_DRAW] = es_draw[v[FP_DRAW]];
		if (v[FP_RESTART] == 2)
			v[FP_RESTART] = 1;
		v[FP_PROVOKING] = 0;
		for (int i = FP_V0; i <= FP_V3; i++) {
			if (v[i] == VK_DOUBLE)
				v[i] = VK_FLOAT;
			else if (v[i] == VK_DVEC3)
				v[i] = VK_VEC3;
			else if (v[i] == VK_DMAT2)
				v[i] = VK_MAT2;
		}
		v[FP_CAP_CLIP] = v[FP_CLIP_PLANES] = v[FP_CULL] = 0;
		if (v[FP_GS])
			v[FP_CAP_PSIZE] = 0; /* needs EXT_geometry_point_size */
		if (v[FP_MODE] == MODE_LAYOUT)
			v[FP_MODE] = MODE_INTERLEAVED;
		v[FP_SKIP] = v[FP_NEXT_BUFFER] = 0;
		if (v[FP_BIND] == 2)
			v[FP_BIND] = 1;
		v[FP_GS_STREAMS] = 0;
		v[FP_Q_INDEXED] = 0;
		v[FP_Q_OVERFLOW] = 0;
		if (v[FP_Q_OCCL] == 1)
			v[FP_Q_OCCL] = 2; /* GLES has ANY_SAMPLES_PASSED only */
		v[FP_COND] = 0;
		if (v[FP_A_FMT] == AF_L_DOUBLE || v[FP_A_FMT] == AF_DOUBLE)
			v[FP_A_FMT] = AF_FLOAT;
	}
	/* Client-memory arrays, indices and indirect commands: not in the
	 * core profile (GL 4.6 core §10.3 needs a bound buffer). */
	if (core)
		v[FP_CLIENT_MEM] = 0;
	/* Client vertex arrays with the indirect commands in a buffer: an
	 * indirect draw's choice only. */
	if (v[FP_CLIENT_MEM] == 2 && !(v[FP_DRAW] >= DR_ARRAYS_INDIRECT &&
				      v[FP_DRAW] <= DR_MULTI_ELEMENTS_INDIRECT))
		v[FP_CLIENT_MEM] = 1;
	if (v[FP_API] != API_COMPAT)
		v[FP_CAP_COMPAT] = 0;

	/* Parameters that only matter for some draws go back to default. */
	int d = v[FP_DRAW];
	if (!is_elements(d)) {
		v[FP_INDEX_TYPE] = v[FP_INDEX_PATTERN] = v[FP_RESTART] = 0;
	}
	if (!v[FP_RESTART])
		v[FP_RESTART_POS] = 0;
	if (!is_instanced(d))
		v[FP_INSTANCES] = 0;
	if (!has_base_instance(d))
		v[FP_BASE_INSTANCE] = 0;
	if (!has_base_vertex(d))
		v[FP_BASE_VERTEX] = 0;
	if (is_draw_tf(d))
		v[FP_FIRST] = 0;

	/* Geometry shader parameters. */
	if (!v[FP_GS]) {
		v[FP_GS_OUT] = v[FP_GS_EMIT] = v[FP_GS_MAXV_EXTRA] = 0;
		v[FP_GS_ENDPRIM] = v[FP_GS_INVOC] = v[FP_GS_STREAMS] = 0;
	}
	/* GL 4.6 §11.3.4: only points may be emitted to streams other than 0. */
	if (v[FP_GS_STREAMS])
		v[FP_GS_OUT] = 0;
	if (v[FP_GS_OUT] == 0)
		v[FP_GS_ENDPRIM] = 0;
	if (v[FP_GS_STREAMS] && v[FP_MODE] == MODE_SEPARATE)
		v[FP_MODE] = MODE_INTERLEAVED;

	/* Capture lists: xfb layout qualifiers here are on user varyings only. */
	if (v[FP_MODE] == MODE_LAYOUT) {
		v[FP_CAP_POS] = v[FP_CAP_PSIZE] = v[FP_CAP_CLIP] = v[FP_CAP_COMPAT] = 0;
		v[FP_SKIP] = v[FP_NEXT_BUFFER] = v[FP_ARR_ELEM] = 0;
	} else {
		v[FP_XFB_STRIDE] = 0;
	}
	if (v[FP_MODE] != MODE_INTERLEAVED)
		v[FP_SKIP] = v[FP_NEXT_BUFFER] = 0;
	bool later = v[FP_V1] || v[FP_V2] || v[FP_V3] || v[FP_CAP_POS] || v[FP_CAP_PSIZE] ||
		     v[FP_CAP_CLIP] || v[FP_CAP_COMPAT];
	if (!later)
		v[FP_NEXT_BUFFER] = 0;
	bool arrays = false;
	for (int i = FP_V0; i <= FP_V3; i++)
		arrays |= v[i] == VK_FLOAT_ARR3 || v[i] == VK_VEC2_ARR2;
	if (!arrays)
		v[FP_ARR_ELEM] = 0;
	/* GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS is 4 (minimum of GL 4.6 §23;
	 * and at most 4 buffers with gl_NextBuffer). */
	if (v[FP_MODE] == MODE_SEPARATE) {
		int *caps[] = { &v[FP_CAP_COMPAT], &v[FP_CAP_CLIP], &v[FP_CAP_PSIZE],
				&v[FP_CAP_POS], &v[FP_V3], &v[FP_V2], &v[FP_V1] };
		for (int k = 0; k < 7; k++) {
			int n = 0;
			for (int i = FP_V0; i <= FP_V3; i++)
				n += n_names(v[i]);
			n += v[FP_CAP_POS] + v[FP_CAP_PSIZE] + v[FP_CAP_CLIP] + v[FP_CAP_COMPAT];
			if (n <= 4)
				break;
			*caps[k] = 0;
		}
	}

	/* Queries and conditional rendering: the query a mode renders on
	 * must exist (GL 4.6 §10.9). */
	if (!v[FP_COND])
		v[FP_COND_SRC] = 0;
	if (v[FP_COND] && v[FP_COND_SRC] == 0 && !v[FP_Q_OCCL])
		v[FP_Q_OCCL] = 1;
	if (v[FP_COND] && v[FP_COND_SRC] == 1 && !v[FP_Q_OVERFLOW])
		v[FP_Q_OVERFLOW] = 1;
	if (!v[FP_Q_PG] && !v[FP_Q_WRITTEN])
		v[FP_Q_INDEXED] = 0;

	/* Attribute formats: packed formats have 4 components (GL 4.6 §10.3,
	 * size BGRA or 4); doubles need 4.1. */
	if (v[FP_A_FMT] == AF_I2_10_10_10_N || v[FP_A_FMT] == AF_U2_10_10_10)
		v[FP_A_COMPS] = 0;
}

void fuzz_params_print(const struct fuzz_point *p)
{
	const char *sep = "";
	for (int i = 0; i < FP_N; i++) {
		if (!p->v[i])
			continue;
		printf("%s%s=%s", sep, fuzz_pdefs[i].name, fuzz_pdefs[i].values[p->v[i]]);
		sep = " ";
	}
	printf("\n");
}
