/*
 * fuzz_glsl.c - GLSL text and TF varying list of one xfb-fuzz-case point
 * (fuzz_glsl.h).
 *
 * The last vertex stage computes every varying from `vec4 s` (the vertex's
 * attributes) and `int k` (gl_VertexID, gl_InstanceID and, in a geometry
 * shader, gl_PrimitiveIDIn, gl_InvocationID and the emitted vertex), so
 * that each captured vertex is distinguishable and a wrong order shows.
 * Float math only adds small dyadic numbers and scales by powers of two:
 * every result is exact whatever contraction a compiler applies.
 *
 * Well conditioned (a differential test's expected output must be one the
 * spec determines): the conversion of a normalized attribute may be off by
 * a few ulps (GL 4.6 §2.3.4.1, "about 1 part in 10^5"), so no computed
 * value may amplify that error.
 * - s = a / 2 + b / 4 + 4 lies in [3.3, 4.7] for every normalized format:
 *   nothing derived from it cancels (only non-negative terms are added,
 *   results are negated, never subtracted from), so a relative error of
 *   s stays a relative error of the same size in every float result
 *   (scripts/fuzz_tf.py's default --tolerance, docs/status.md);
 * - integers and doubles take s through int() / floor() of s * 4 + 1/16 or
 *   s * 8 + 1/8: exact formats put s * 4 on a grid of 1/8 and s * 8 on one
 *   of 1/4, the offsets centre them between integers, and no normalized
 *   value of put_comp() / put_packed() comes closer to an integer than
 *   0.0036 (ubyte: c / 255 * 15), 18 times the spec's precision at these
 *   magnitudes; doubles are exact dyadic numbers then, not a float's
 *   rounding error seen through 29 more bits.
 *
 * Defined: GLES sizes a rasterized point by the gl_PointSize its vertex
 * shader writes and leaves the size undefined without a write (ES 3.2
 * §13.3), so a GLES vertex shader whose points are rasterized (no geometry
 * shader, rasterizer discard off) writes 1.0 where cap_pointsize does not
 * make it write 1 + (k & 3).
 *
 * Clip and cull distances (cap_clipdistance, clip_planes, cull_distance)
 * are signed so that no vertex sits on a plane's boundary either:
 * gl_ClipDistance[0] = s.x (> 3, inside), [1] = k - 0.5 and
 * gl_CullDistance[0] = k - 16.5 (half-integers: vertex 0, vertices 0..2
 * of instance 0 outside), and [2] = -gl_Position.x, the plane x = 0: in
 * window space x = 8 of the 16-pixel viewport, a pixel edge, so that a
 * primitive clipped there gains an edge 0.5 pixel from every sample.
 * Where planes are enabled or cull distances written, the vertices spread
 * over the viewport (a zigzag: no three consecutive ones on a line; |x|
 * at least 0.2, so no vertex near x = 0), so that what clipping and
 * culling remove is pixels; elsewhere they stay within a pixel, as they
 * always were.  Both keep the rule above: the spread position is a sum of
 * non-negative terms times an exact sign, and [2] its negation.
 */
#include "fuzz_glsl.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct sb {
	char *p;
	size_t len, cap;
	bool *overflowed;
};

static void put(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= b->cap - b->len) {
		*b->overflowed = true;
		b->len = b->cap - 1;
		return;
	}
	b->len += (size_t)n;
}

struct vinfo {
	const char *type; /* GLSL type of the declaration ("" for struct / block) */
	int bytes;        /* size in a TF buffer */
	bool integer;     /* needs flat */
	bool dbl;
};

static const struct vinfo vinfo[VK_N] = {
	[VK_FLOAT] = { "float", 4, false, false },
	[VK_VEC2] = { "vec2", 8, false, false },
	[VK_VEC3] = { "vec3", 12, false, false },
	[VK_VEC4] = { "vec4", 16, false, false },
	[VK_INT] = { "int", 4, true, false },
	[VK_IVEC2] = { "ivec2", 8, true, false },
	[VK_IVEC4] = { "ivec4", 16, true, false },
	[VK_UINT] = { "uint", 4, true, false },
	[VK_UVEC3] = { "uvec3", 12, true, false },
	[VK_MAT2] = { "mat2", 16, false, false },
	[VK_MAT3X2] = { "mat3x2", 24, false, false },
	[VK_MAT4] = { "mat4", 64, false, false },
	[VK_FLOAT_ARR3] = { "float", 12, false, false },
	[VK_VEC2_ARR2] = { "vec2", 16, false, false },
	[VK_DOUBLE] = { "double", 8, true, true },
	[VK_DVEC3] = { "dvec3", 24, true, true },
	[VK_DMAT2] = { "dmat2", 32, true, true },
	[VK_STRUCT] = { "", 12, true, false },
	[VK_BLOCK] = { "", 16, false, false },
};

/* Output components a varying takes against the geometry shader's limit
 * (a double counts as two, GL 4.6 §11.3.4). */
static int vcomps(int vk)
{
	return vinfo[vk].bytes / 4;
}

void fuzz_glsl_attrib(const struct fuzz_point *p, struct fuzz_attrib *a)
{
	static const char *const dvec[] = { "double", "dvec2", "dvec3", "dvec4" };
	static const char *const pad[] = { ", 0.0lf, 0.0lf, 1.0lf", ", 0.0lf, 1.0lf", ", 1.0lf", "" };
	int comps = 4 - p->v[FP_A_COMPS];
	switch (p->v[FP_A_FMT]) {
	case AF_I_INT: case AF_I_SHORT: a->type = "ivec4"; break;
	case AF_I_UBYTE: a->type = "uvec4"; break;
	case AF_L_DOUBLE:
		a->type = dvec[comps - 1];
		snprintf(a->as_vec4, sizeof a->as_vec4, "vec4(dvec4(a%s))", pad[comps - 1]);
		return;
	default: a->type = "vec4";
	}
	snprintf(a->as_vec4, sizeof a->as_vec4, "vec4(a)");
}

/* layout(xfb_buffer, xfb_offset) of varying slot i in layout mode. */
struct xfb_place {
	int buffer, offset;
};

static void declare(struct sb *b, const struct fuzz_point *p, int i, int vk,
		    const struct xfb_place *xp)
{
	char lay[96] = "";
	if (p->v[FP_MODE] == MODE_LAYOUT)
		snprintf(lay, sizeof lay, "layout(xfb_buffer = %d, xfb_offset = %d) ",
			 xp->buffer, xp->offset);
	const char *flat = vinfo[vk].integer ? "flat " : "";
	switch (vk) {
	case VK_FLOAT_ARR3:
		put(b, "%s%sout float v_%d[3];\n", lay, flat, i);
		break;
	case VK_VEC2_ARR2:
		put(b, "%s%sout vec2 v_%d[2];\n", lay, flat, i);
		break;
	case VK_STRUCT:
		put(b, "struct S_%d { float a; ivec2 b; };\n%s%sout S_%d v_%d;\n", i, lay, flat, i, i);
		break;
	case VK_BLOCK:
		put(b, "%sout B_%d { vec3 p; float q; } v_%d;\n", lay, i, i);
		break;
	default:
		put(b, "%s%sout %s v_%d;\n", lay, flat, vinfo[vk].type, i);
	}
}

static void assign(struct sb *b, int i, int vk)
{
	switch (vk) {
	case VK_FLOAT: put(b, "  v_%d = s.x * 0.5 + float(k + %d);\n", i, i); break;
	case VK_VEC2: put(b, "  v_%d = s.xy * 0.5 + float(k + %d);\n", i, i); break;
	case VK_VEC3: put(b, "  v_%d = s.yzw + vec3(float(k), float(%d), 0.25);\n", i, i); break;
	case VK_VEC4: put(b, "  v_%d = -(s * 2.0 + vec4(float(k), 0.0, float(%d), 0.5));\n", i, i); break;
	case VK_INT: put(b, "  v_%d = k * 3 - %d + int(s.y * 4.0 + 0.0625);\n", i, i); break;
	case VK_IVEC2: put(b, "  v_%d = ivec2(k, -k - %d);\n", i, i); break;
	case VK_IVEC4: put(b, "  v_%d = ivec4(k, %d, int(s.x * 8.0 + 0.125), -7);\n", i, i); break;
	case VK_UINT: put(b, "  v_%d = uint(k) * 7u + %du;\n", i, i); break;
	case VK_UVEC3: put(b, "  v_%d = uvec3(uint(k), uint(k) + 1u, %du);\n", i, i); break;
	case VK_MAT2: put(b, "  v_%d = mat2(s.x, s.y, float(k), float(%d));\n", i, i); break;
	case VK_MAT3X2: put(b, "  v_%d = mat3x2(s.xy, s.zw, float(k), float(%d));\n", i, i); break;
	case VK_MAT4: put(b, "  v_%d = mat4(s, s.yzwx, vec4(float(k)), vec4(float(%d)));\n", i, i); break;
	case VK_FLOAT_ARR3:
		put(b, "  v_%d[0] = s.x; v_%d[1] = s.y + float(%d); v_%d[2] = float(k);\n", i, i, i, i);
		break;
	case VK_VEC2_ARR2:
		put(b, "  v_%d[0] = s.xy; v_%d[1] = vec2(float(k), float(%d));\n", i, i, i);
		break;
	case VK_DOUBLE:
		put(b, "  v_%d = double(floor(s.x * 8.0 + 0.125)) * 0.03125lf + double(k + %d);\n", i, i);
		break;
	case VK_DVEC3:
		put(b, "  v_%d = dvec3(floor(s.xyz * 8.0 + 0.125)) * 0.125lf + double(k - %d);\n", i, i);
		break;
	case VK_DMAT2:
		put(b, "  v_%d = dmat2(double(floor(s.x * 8.0 + 0.125)) * 0.125lf,\n"
		       "              double(floor(s.y * 8.0 + 0.125)) * 0.125lf, double(k), double(%d));\n",
		    i, i);
		break;
	case VK_STRUCT: put(b, "  v_%d = S_%d(s.x + float(%d), ivec2(k, %d));\n", i, i, i, i); break;
	case VK_BLOCK: put(b, "  v_%d.p = s.xyz + float(%d); v_%d.q = float(k);\n", i, i, i); break;
	}
}

static void add_name(struct fuzz_glsl *g, const char *fmt, int i, const char *member)
{
	if (g->n_names >= FUZZ_MAX_NAMES) {
		g->overflowed = true;
		return;
	}
	snprintf(g->name_store[g->n_names], sizeof g->name_store[0], fmt, i, member);
	g->names[g->n_names] = g->name_store[g->n_names];
	g->n_names++;
}

static void varying_names(struct fuzz_glsl *g, const struct fuzz_point *p, int i, int vk)
{
	bool elem = p->v[FP_ARR_ELEM];
	switch (vk) {
	case VK_STRUCT:
		add_name(g, "v_%d.%s", i, "a");
		add_name(g, "v_%d.%s", i, "b");
		break;
	case VK_BLOCK:
		add_name(g, "B_%d.%s", i, "p");
		add_name(g, "B_%d.%s", i, "q");
		break;
	case VK_FLOAT_ARR3: case VK_VEC2_ARR2:
		add_name(g, elem ? "v_%d[1]%s" : "v_%d%s", i, "");
		break;
	default:
		add_name(g, "v_%d%s", i, "");
	}
}

static const char *gs_in_layout(int prim, int *n_in)
{
	switch (prim) {
	case PR_POINTS: *n_in = 1; return "points";
	case PR_LINES: case PR_LINE_STRIP: case PR_LINE_LOOP: *n_in = 2; return "lines";
	case PR_LINES_ADJ: case PR_LINE_STRIP_ADJ: *n_in = 4; return "lines_adjacency";
	case PR_TRIS_ADJ: case PR_TRI_STRIP_ADJ: *n_in = 6; return "triangles_adjacency";
	default: *n_in = 3; return "triangles";
	}
}

void fuzz_glsl_build(struct fuzz_glsl *g, const struct fuzz_point *p)
{
	const int *v = p->v;
	memset(g, 0, sizeof *g);
	g->has_gs = v[FP_GS];
	bool gles = v[FP_API] == API_GLES;
	const char *header = gles ? "#version 320 es\nprecision highp float;\nprecision highp int;\n"
		: v[FP_API] == API_COMPAT ? "#version 450 compatibility\n" : "#version 450 core\n";
	int streams = v[FP_GS_STREAMS];

	/* Layout mode: slots 0 and 2 in buffer 0, 1 and 3 in buffer 1, w in 2;
	 * offsets packed, doubles 8-aligned (GLSL 4.50 §4.4.2.1). */
	struct xfb_place xp[4] = { 0 };
	int used[4] = { 0 }, align8[4] = { 0 };
	for (int i = 0; i < 4; i++) {
		int vk = v[FP_V0 + i];
		if (!vk)
			continue;
		int buf = i % 2;
		if (vinfo[vk].dbl) {
			used[buf] = (used[buf] + 7) & ~7;
			align8[buf] = 1;
		}
		xp[i].buffer = buf;
		xp[i].offset = used[buf];
		used[buf] += vinfo[vk].bytes;
	}

	/* The varying declarations and assignments of the last stage. */
	char decl_buf[4096], body_buf[4096];
	struct sb decl = { decl_buf, 0, sizeof decl_buf, &g->overflowed };
	struct sb body = { body_buf, 0, sizeof body_buf, &g->overflowed };
	decl_buf[0] = body_buf[0] = '\0';
	int comps = 4;
	for (int i = 0; i < 4; i++) {
		int vk = v[FP_V0 + i];
		if (!vk)
			continue;
		declare(&decl, p, i, vk, &xp[i]);
		assign(&body, i, vk);
		comps += vcomps(vk);
	}
	if (v[FP_MODE] == MODE_LAYOUT) {
		for (int b = 0; b < 2; b++) {
			if (!used[b])
				continue;
			int stride = used[b] + v[FP_XFB_STRIDE] * 8;
			if (align8[b])
				stride = (stride + 7) & ~7;
			put(&decl, "layout(xfb_buffer = %d, xfb_stride = %d) out;\n", b, stride);
		}
	}
	unsigned clip = fuzz_clip_written(p);
	int n_clip = clip & 0x4 ? 3 : clip ? 2 : 0;
	if (clip)
		put(&decl, "out float gl_ClipDistance[%d];\n", n_clip), comps += n_clip;
	if (v[FP_CULL])
		put(&decl, "out float gl_CullDistance[1];\n"), comps += 1;
	if (v[FP_CAP_PSIZE])
		put(&body, "  gl_PointSize = 1.0 + float(k & 3);\n"), comps += 1;
	else if (gles && !g->has_gs && v[FP_PRIM] == PR_POINTS && v[FP_DISCARD])
		/* rasterized GLES points: their size is gl_PointSize, undefined
		 * where the vertex shader writes none (ES 3.2 §13.3), so it
		 * writes the size GL's state gives elsewhere */
		put(&body, "  gl_PointSize = 1.0;\n");
	if (clip)
		put(&body, "  gl_ClipDistance[0] = s.x; gl_ClipDistance[1] = float(k) - 0.5;\n");
	if (v[FP_CULL])
		put(&body, "  gl_CullDistance[0] = float(k) - 16.5;\n");
	if (v[FP_CAP_COMPAT])
		put(&body, "  gl_FrontColor = s * 0.125;\n"), comps += 4;
	if (v[FP_CLIP_PLANES] || v[FP_CULL])
		/* spread over the viewport, so that clipping changes pixels:
		 * vertex n (mod 8) near (-+(0.25 + (n & 3) * 0.1875), -+0.5), a
		 * zigzag; sums of non-negative terms, signs exact */
		put(&body, "  int n = (k >> 3) & 7;\n"
			   "  vec2 sgn = vec2(float((n >> 1) & 2), float((n & 1) * 2)) - 1.0;\n"
			   "  gl_Position = vec4(sgn * (s.xy * 0.0625 + vec2(float(k & 7) * 0.03125 +\n"
			   "                     float(n & 3) * 0.1875, 0.25)), 0.0, 1.0);\n");
	else
		put(&body, "  gl_Position = vec4(s.xy * 0.0625 + float(k & 7) * 0.03125, 0.0, 1.0);\n");
	if (clip & 0x4)
		put(&body, "  gl_ClipDistance[2] = -gl_Position.x;\n");

	/* Vertex shader. */
	struct sb vs = { g->vs, 0, sizeof g->vs, &g->overflowed };
	put(&vs, "%s", header);
	struct fuzz_attrib at;
	fuzz_glsl_attrib(p, &at);
	put(&vs, "layout(location = 0) in %s a;\nlayout(location = 2) in vec4 b;\n", at.type);
	if (g->has_gs)
		put(&vs, "out vec4 vd;\nflat out int vk;\n");
	else
		put(&vs, "%s", decl_buf);
	put(&vs, "void main()\n{\n  vec4 s = %s * 0.5 + b * 0.25 + 4.0;\n", at.as_vec4);
	put(&vs, "  int k = gl_VertexID * 8 + gl_InstanceID * 128;\n");
	if (g->has_gs)
		put(&vs, "  vd = s; vk = k;\n  gl_Position = vec4(s.xy * 0.0625, 0.0, 1.0);\n");
	else
		put(&vs, "%s", body_buf);
	put(&vs, "}\n");

	/* Geometry shader. */
	if (g->has_gs) {
		static const char *const outs[] = { "points", "line_strip", "triangle_strip" };
		int n_in;
		const char *in = gs_in_layout(v[FP_PRIM], &n_in);
		static const int emits[] = { 3, 1, 2, 4, 6 }, extras[] = { 0, 1, 5 };
		int emit = emits[v[FP_GS_EMIT]];
		if (streams)
			comps += 4;
		int maxv = emit * (streams ? 2 : 1) + extras[v[FP_GS_MAXV_EXTRA]];
		/* GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS is at least 1024 (GL 4.6
		 * §23 implementation-dependent values): fewer vertices where the outputs are wide. */
		while (maxv * comps > 1024 && maxv > 1)
			maxv--;
		if (emit * (streams ? 2 : 1) > maxv)
			emit = maxv / (streams ? 2 : 1);
		struct sb gs = { g->gs, 0, sizeof g->gs, &g->overflowed };
		put(&gs, "%s", header);
		put(&gs, "layout(%s, invocations = %d) in;\n", in, v[FP_GS_INVOC] + 1);
		put(&gs, "layout(%s, max_vertices = %d) out;\n", outs[v[FP_GS_OUT]], maxv);
		put(&gs, "in vec4 vd[];\nflat in int vk[];\n%s", decl_buf);
		if (streams)
			put(&gs, "layout(stream = 1%s) out vec4 w;\n",
			    v[FP_MODE] == MODE_LAYOUT && streams == 1
				? ", xfb_buffer = 2, xfb_offset = 0" : "");
		put(&gs, "void main()\n{\n  for (int j = 0; j < %d; j++) {\n", emit);
		put(&gs, "    int i = j %% %d;\n    vec4 s = vd[i] + float(j) * 0.5;\n", n_in);
		put(&gs, "    int k = vk[i] + gl_PrimitiveIDIn * 1000 + gl_InvocationID * 100 + j * 10;\n");
		put(&gs, "%s", body_buf);
		put(&gs, streams ? "    EmitStreamVertex(0);\n" : "    EmitVertex();\n");
		if (v[FP_GS_ENDPRIM])
			put(&gs, "    if ((j + 1) %% %d == 0) EndPrimitive();\n", v[FP_GS_ENDPRIM]);
		if (streams)
			put(&gs, "    w = s + vec4(float(k));\n    EmitStreamVertex(1);\n");
		put(&gs, "  }\n}\n");
	}

	/* Fragment shader: colour only (rasterizer discard off and the
	 * occlusion queries need fragments). */
	snprintf(g->fs, sizeof g->fs, "%s%s", header,
		 "layout(location = 0) out vec4 c;\nvoid main()\n{\n  c = vec4(1.0);\n}\n");

	/* The varying list (interleaved / separate) and the buffer count. */
	if (v[FP_MODE] == MODE_LAYOUT) {
		g->n_buffers = used[1] ? 2 : 1;
		if (streams == 1)
			g->n_buffers = 3;
		return;
	}
	for (int i = 0; i < 4; i++) {
		int vk = v[FP_V0 + i];
		if (!vk)
			continue;
		varying_names(g, p, i, vk);
		if (i == 0 && v[FP_SKIP])
			add_name(g, "gl_SkipComponents%d%s", v[FP_SKIP], "");
		if (i == 0 && v[FP_NEXT_BUFFER])
			add_name(g, "gl_NextBuffer%.0d%s", 0, "");
	}
	if (v[FP_CAP_POS])
		add_name(g, "gl_Position%.0d%s", 0, "");
	if (v[FP_CAP_PSIZE])
		add_name(g, "gl_PointSize%.0d%s", 0, "");
	if (v[FP_CAP_CLIP])
		add_name(g, v[FP_ARR_ELEM] ? "gl_ClipDistance[1]%.0d%s" : "gl_ClipDistance%.0d%s", 0, "");
	if (v[FP_CAP_COMPAT])
		add_name(g, "gl_FrontColor%.0d%s", 0, "");
	if (streams == 1) {
		add_name(g, "gl_NextBuffer%.0d%s", 0, "");
		add_name(g, "w%.0d%s", 0, "");
	}
	if (v[FP_MODE] == MODE_SEPARATE) {
		g->n_buffers = g->n_names;
	} else {
		g->n_buffers = 1;
		for (int i = 0; i < g->n_names; i++)
			g->n_buffers += !strcmp(g->names[i], "gl_NextBuffer");
	}
}
