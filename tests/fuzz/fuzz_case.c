/*
 * fuzz_case.c - xfb-fuzz-case: runs one random point of transform feedback
 * semantics on the system GL (issue 21's randomized differential tester).
 *
 *   xfb-fuzz-case --seed N [--only K1,K2,...] [--set KEY=VALUE]... [--print-params]
 *
 * The seed draws a point (fuzz_params.h); --only keeps the seed's values of
 * the named parameters and sets all others to their defaults; --set
 * overrides one; the point is then made valid for its API and, with
 * --print-params, printed as one line of the parameters that are not at
 * their defaults, instead of run.
 *
 * The run: a surfaceless EGL context of the point's API (GL 4.5 core or
 * compatibility, GLES 3.2), a program whose GLSL fuzz_glsl.c wrote, vertex
 * data in the chosen format, a draw of the chosen kind inside transform
 * feedback (with pauses, other TF objects, several begin / end pairs,
 * queries and conditional rendering as chosen, clip planes enabled as
 * chosen), the queries' results read back, the TF buffers read back
 * through glMapBufferRange, and where clip planes or cull distances reach
 * the rasterizer the colour buffer (cleared first) through glReadPixels.  The
 * capture library observes all of it; scripts/fuzz_tf.py compares the
 * replays with it.
 *
 * Reference self-checks (dEQP style): where the spec determines a value
 * exactly, the case also measures what the GL it runs on gives (the
 * reference the replays are compared with) and prints a deviation as one
 * line on stdout,
 *
 *   reference deviates from the spec: RULE (SECTION): DETAIL
 *
 * RULE is fixed-conversion (a_format=fixed: a passthrough probe captures
 * the converted attribute), draw-tf-count (glDrawTransformFeedback*: a
 * GL_PRIMITIVES_GENERATED query around a probe draw of points against the
 * vertices the feed pass's TF_PRIMITIVES_WRITTEN query says were
 * captured), written-without-buffer (the written query of a GS stream
 * none of whose varyings is captured must be 0), front-color-capture
 * (cap_frontcolor: a probe captures a constant gl_FrontColor, which must
 * read back clamped) or multi-draw-primitive-id (a multi-draw with a
 * geometry shader: a probe captures gl_PrimitiveIDIn, which restarts at
 * each draw of the call) or clip-distance-disabled (cap_clipdistance with
 * rasterization: a triangle covering the viewport with a negative
 * gl_ClipDistance[0] and no plane enabled must pass samples; where the
 * case writes gl_ClipDistance[1], which can be negative, and does not
 * enable its plane).  The probes are part of the case only where
 * their dimension is drawn, and the case still runs to the end (exit 0): the trace stays
 * whole and the replays are compared as ever; scripts/fuzz_tf.py names
 * the seed's class.
 *
 * Exit: 0 ran, 3 invalid case (the program's own calls raised a GL error,
 * or its shaders did not compile / link: a tester bug), 77 the context or
 * a feature is missing, 2 setup or usage error.
 *
 * GL entry points are fetched with eglGetProcAddress, so one binary serves
 * GL and GLES contexts; a capture library returns its wrappers there.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <GL/glcorearb.h>

#include "app_egl.h"
#include "fuzz_glsl.h"
#include "fuzz_params.h"

#define EXIT_INVALID 3

/* Compatibility-profile modes, not in glcorearb.h (GL 4.6 compat §10.1). */
#define FUZZ_GL_QUADS 0x0007
#define FUZZ_GL_QUAD_STRIP 0x0008
#define FUZZ_GL_POLYGON 0x0009

#define GL_FUNCS(X) \
	X(PFNGLGETERRORPROC, GetError) \
	X(PFNGLCREATESHADERPROC, CreateShader) \
	X(PFNGLSHADERSOURCEPROC, ShaderSource) \
	X(PFNGLCOMPILESHADERPROC, CompileShader) \
	X(PFNGLGETSHADERIVPROC, GetShaderiv) \
	X(PFNGLGETSHADERINFOLOGPROC, GetShaderInfoLog) \
	X(PFNGLCREATEPROGRAMPROC, CreateProgram) \
	X(PFNGLATTACHSHADERPROC, AttachShader) \
	X(PFNGLLINKPROGRAMPROC, LinkProgram) \
	X(PFNGLGETPROGRAMIVPROC, GetProgramiv) \
	X(PFNGLGETPROGRAMINFOLOGPROC, GetProgramInfoLog) \
	X(PFNGLUSEPROGRAMPROC, UseProgram) \
	X(PFNGLTRANSFORMFEEDBACKVARYINGSPROC, TransformFeedbackVaryings) \
	X(PFNGLGENBUFFERSPROC, GenBuffers) \
	X(PFNGLBINDBUFFERPROC, BindBuffer) \
	X(PFNGLBUFFERDATAPROC, BufferData) \
	X(PFNGLBINDBUFFERBASEPROC, BindBufferBase) \
	X(PFNGLBINDBUFFERRANGEPROC, BindBufferRange) \
	X(PFNGLBINDBUFFERSRANGEPROC, BindBuffersRange) \
	X(PFNGLMAPBUFFERRANGEPROC, MapBufferRange) \
	X(PFNGLUNMAPBUFFERPROC, UnmapBuffer) \
	X(PFNGLGENVERTEXARRAYSPROC, GenVertexArrays) \
	X(PFNGLBINDVERTEXARRAYPROC, BindVertexArray) \
	X(PFNGLENABLEVERTEXATTRIBARRAYPROC, EnableVertexAttribArray) \
	X(PFNGLVERTEXATTRIBPOINTERPROC, VertexAttribPointer) \
	X(PFNGLVERTEXATTRIBIPOINTERPROC, VertexAttribIPointer) \
	X(PFNGLVERTEXATTRIBLPOINTERPROC, VertexAttribLPointer) \
	X(PFNGLVERTEXATTRIBDIVISORPROC, VertexAttribDivisor) \
	X(PFNGLGENTRANSFORMFEEDBACKSPROC, GenTransformFeedbacks) \
	X(PFNGLBINDTRANSFORMFEEDBACKPROC, BindTransformFeedback) \
	X(PFNGLBEGINTRANSFORMFEEDBACKPROC, BeginTransformFeedback) \
	X(PFNGLENDTRANSFORMFEEDBACKPROC, EndTransformFeedback) \
	X(PFNGLPAUSETRANSFORMFEEDBACKPROC, PauseTransformFeedback) \
	X(PFNGLRESUMETRANSFORMFEEDBACKPROC, ResumeTransformFeedback) \
	X(PFNGLENABLEPROC, Enable) \
	X(PFNGLDISABLEPROC, Disable) \
	X(PFNGLPRIMITIVERESTARTINDEXPROC, PrimitiveRestartIndex) \
	X(PFNGLPROVOKINGVERTEXPROC, ProvokingVertex) \
	X(PFNGLDRAWARRAYSPROC, DrawArrays) \
	X(PFNGLDRAWARRAYSINSTANCEDPROC, DrawArraysInstanced) \
	X(PFNGLDRAWELEMENTSPROC, DrawElements) \
	X(PFNGLDRAWELEMENTSBASEVERTEXPROC, DrawElementsBaseVertex) \
	X(PFNGLDRAWELEMENTSINSTANCEDPROC, DrawElementsInstanced) \
	X(PFNGLDRAWELEMENTSINSTANCEDBASEVERTEXBASEINSTANCEPROC, DrawElementsInstancedBaseVertexBaseInstance) \
	X(PFNGLDRAWRANGEELEMENTSPROC, DrawRangeElements) \
	X(PFNGLDRAWRANGEELEMENTSBASEVERTEXPROC, DrawRangeElementsBaseVertex) \
	X(PFNGLMULTIDRAWARRAYSPROC, MultiDrawArrays) \
	X(PFNGLMULTIDRAWELEMENTSPROC, MultiDrawElements) \
	X(PFNGLMULTIDRAWELEMENTSBASEVERTEXPROC, MultiDrawElementsBaseVertex) \
	X(PFNGLDRAWARRAYSINDIRECTPROC, DrawArraysIndirect) \
	X(PFNGLDRAWELEMENTSINDIRECTPROC, DrawElementsIndirect) \
	X(PFNGLMULTIDRAWARRAYSINDIRECTPROC, MultiDrawArraysIndirect) \
	X(PFNGLMULTIDRAWELEMENTSINDIRECTPROC, MultiDrawElementsIndirect) \
	X(PFNGLDRAWTRANSFORMFEEDBACKPROC, DrawTransformFeedback) \
	X(PFNGLDRAWTRANSFORMFEEDBACKSTREAMPROC, DrawTransformFeedbackStream) \
	X(PFNGLDRAWTRANSFORMFEEDBACKINSTANCEDPROC, DrawTransformFeedbackInstanced) \
	X(PFNGLDRAWTRANSFORMFEEDBACKSTREAMINSTANCEDPROC, DrawTransformFeedbackStreamInstanced) \
	X(PFNGLGENQUERIESPROC, GenQueries) \
	X(PFNGLBEGINQUERYPROC, BeginQuery) \
	X(PFNGLENDQUERYPROC, EndQuery) \
	X(PFNGLBEGINQUERYINDEXEDPROC, BeginQueryIndexed) \
	X(PFNGLENDQUERYINDEXEDPROC, EndQueryIndexed) \
	X(PFNGLGETQUERYOBJECTUIVPROC, GetQueryObjectuiv) \
	X(PFNGLBEGINCONDITIONALRENDERPROC, BeginConditionalRender) \
	X(PFNGLENDCONDITIONALRENDERPROC, EndConditionalRender) \
	X(PFNGLGENFRAMEBUFFERSPROC, GenFramebuffers) \
	X(PFNGLBINDFRAMEBUFFERPROC, BindFramebuffer) \
	X(PFNGLGENRENDERBUFFERSPROC, GenRenderbuffers) \
	X(PFNGLBINDRENDERBUFFERPROC, BindRenderbuffer) \
	X(PFNGLRENDERBUFFERSTORAGEPROC, RenderbufferStorage) \
	X(PFNGLFRAMEBUFFERRENDERBUFFERPROC, FramebufferRenderbuffer) \
	X(PFNGLVIEWPORTPROC, Viewport) \
	X(PFNGLCLEARCOLORPROC, ClearColor) \
	X(PFNGLCLEARPROC, Clear) \
	X(PFNGLREADPIXELSPROC, ReadPixels)

static struct {
#define DECL(type, name) type name;
	GL_FUNCS(DECL)
#undef DECL
} gl;

static bool load_gl(void)
{
	bool ok = true;
#define LOAD(type, name) \
	gl.name = (type)eglGetProcAddress("gl" #name); \
	if (!gl.name) { fprintf(stderr, "no gl%s\n", #name); ok = false; }
	GL_FUNCS(LOAD)
#undef LOAD
	return ok;
}

/* Vertices in the attribute arrays: as many as a TF buffer (4096 bytes,
 * 4-byte vertices at least) can feed glDrawTransformFeedback, so that no
 * draw fetches past the arrays (undefined: robust access is not asked for). */
#define NVERTS 1024
#define NINDICES 96  /* indices in the index array */
#define BUF_BYTES 4096

static const int counts[] = { 6, 1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 33 };
static const int firsts[] = { 0, 1, 2, 5 };
static const int base_instances[] = { 0, 1, 3 };
static const int base_vertices[] = { 0, 1, 4 };
static const int restart_positions[] = { 2, 0, 1, 3, 5 };
static const int buf_offsets[] = { 0, 8, 16, 40 };
static const int buf_sizes[] = { 0, 24, 48, 96, 200 };
static const int a_stride_extra[] = { 0, 4, 12 };
static const int a_offsets[] = { 0, 4, 16 };

static const GLenum prim_enum[PR_N] = {
	GL_POINTS, GL_LINES, GL_LINE_STRIP, GL_LINE_LOOP, GL_TRIANGLES,
	GL_TRIANGLE_STRIP, GL_TRIANGLE_FAN, GL_LINES_ADJACENCY,
	GL_LINE_STRIP_ADJACENCY, GL_TRIANGLES_ADJACENCY,
	GL_TRIANGLE_STRIP_ADJACENCY, FUZZ_GL_QUADS, FUZZ_GL_QUAD_STRIP,
	FUZZ_GL_POLYGON,
};

/* The TF primitive mode a draw mode (or the GS output) needs: GL 4.6
 * compat §13.3 (quads and polygons with TRIANGLES). */
static GLenum tf_mode(const struct fuzz_point *p)
{
	if (p->v[FP_GS]) {
		static const GLenum out[] = { GL_POINTS, GL_LINES, GL_TRIANGLES };
		return out[p->v[FP_GS_OUT]];
	}
	switch (p->v[FP_PRIM]) {
	case PR_POINTS: return GL_POINTS;
	case PR_LINES: case PR_LINE_STRIP: case PR_LINE_LOOP: case PR_LINES_ADJ:
	case PR_LINE_STRIP_ADJ: return GL_LINES;
	default: return GL_TRIANGLES;
	}
}

static bool gl_errors(const char *where)
{
	bool any = false;
	for (GLenum e; (e = gl.GetError()) != GL_NO_ERROR;) {
		fprintf(stderr, "invalid case: GL error 0x%04x %s\n", (unsigned)e, where);
		any = true;
	}
	return any;
}

static GLuint shader(GLenum type, const char *src)
{
	GLuint s = gl.CreateShader(type);
	gl.ShaderSource(s, 1, &src, NULL);
	gl.CompileShader(s);
	GLint ok = 0;
	gl.GetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[4096];
		gl.GetShaderInfoLog(s, sizeof log, NULL, log);
		fprintf(stderr, "invalid case: shader does not compile:\n%s\n%s", src, log);
		return 0;
	}
	return s;
}

/* Exact small float for the vertex / component, and its half encoding. */
static int qval(int vtx, int c)
{
	return ((vtx * 5 + c * 3) % 17) - 8;
}

static uint16_t to_half(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	if (f == 0.0f)
		return (uint16_t)((b >> 16) & 0x8000);
	int e = (int)((b >> 23) & 0xff) - 127 + 15;
	return (uint16_t)(((b >> 16) & 0x8000) | ((uint32_t)e << 10) | ((b >> 13) & 0x3ff));
}

struct afmt {
	GLenum type;
	int bytes;       /* per component (packed: 4 for all four) */
	bool normalized;
	char path;       /* 'f' VertexAttribPointer, 'i' IPointer, 'l' LPointer */
};

static const struct afmt afmts[AF_N] = {
	[AF_FLOAT] = { GL_FLOAT, 4, false, 'f' },
	[AF_HALF] = { GL_HALF_FLOAT, 2, false, 'f' },
	[AF_BYTE_N] = { GL_BYTE, 1, true, 'f' },
	[AF_UBYTE_N] = { GL_UNSIGNED_BYTE, 1, true, 'f' },
	[AF_SHORT_N] = { GL_SHORT, 2, true, 'f' },
	[AF_USHORT] = { GL_UNSIGNED_SHORT, 2, false, 'f' },
	[AF_INT_N] = { GL_INT, 4, true, 'f' },
	[AF_UINT] = { GL_UNSIGNED_INT, 4, false, 'f' },
	[AF_FIXED] = { GL_FIXED, 4, false, 'f' },
	[AF_I2_10_10_10_N] = { GL_INT_2_10_10_10_REV, 0, true, 'f' },
	[AF_U2_10_10_10] = { GL_UNSIGNED_INT_2_10_10_10_REV, 0, false, 'f' },
	[AF_I_INT] = { GL_INT, 4, false, 'i' },
	[AF_I_UBYTE] = { GL_UNSIGNED_BYTE, 1, false, 'i' },
	[AF_I_SHORT] = { GL_SHORT, 2, false, 'i' },
	[AF_L_DOUBLE] = { GL_DOUBLE, 8, false, 'l' },
	[AF_DOUBLE] = { GL_DOUBLE, 8, false, 'f' },
};

/* Writes component c of vertex vtx of format af at dst. */
static void put_comp(uint8_t *dst, int af, int vtx, int c)
{
	int q = qval(vtx, c);
	union { float f; double d; int8_t i8; uint8_t u8; int16_t i16; uint16_t u16;
		int32_t i32; uint32_t u32; } u;
	size_t n = (size_t)afmts[af].bytes;
	switch (af) {
	case AF_FLOAT: u.f = (float)q / 4.0f; break;
	case AF_HALF: u.u16 = to_half((float)q / 4.0f); break;
	case AF_BYTE_N: u.i8 = (int8_t)(q * 15); break;
	case AF_UBYTE_N: u.u8 = (uint8_t)((q + 8) * 15); break;
	case AF_SHORT_N: u.i16 = (int16_t)(q * 4000); break;
	case AF_USHORT: u.u16 = (uint16_t)(q + 8); break;
	case AF_INT_N: u.i32 = q * 268435456; break;
	case AF_UINT: u.u32 = (uint32_t)(q + 8) * 100000u; break;
	case AF_FIXED: u.i32 = q * 16384; break;
	case AF_I_INT: u.i32 = q * 1000; break;
	case AF_I_UBYTE: u.u8 = (uint8_t)(q + 8); break;
	case AF_I_SHORT: u.i16 = (int16_t)(q * 300); break;
	case AF_L_DOUBLE: case AF_DOUBLE: u.d = (double)q / 4.0; break;
	default: return;
	}
	memcpy(dst + (size_t)c * n, &u, n);
}

static void put_packed(uint8_t *dst, int af, int vtx)
{
	uint32_t w = 0;
	for (int c = 0; c < 3; c++) {
		int q = qval(vtx, c);
		uint32_t f = af == AF_I2_10_10_10_N ? (uint32_t)(q * 31) & 0x3ff : (uint32_t)(q + 8) * 50u;
		w |= f << (10 * c);
	}
	uint32_t a = af == AF_I2_10_10_10_N ? (uint32_t)((vtx % 3) - 1) & 3 : (uint32_t)(vtx % 4);
	w |= a << 30;
	memcpy(dst, &w, 4);
}

struct tfset {
	GLuint obj;
	GLuint bufs[4];
};

struct run {
	struct fuzz_point p;
	struct fuzz_glsl g;
	GLenum mode, tfmode;
	int count, first;
	struct tfset main_tf, feed_tf, other_tf;
	/* client memory (client_mem) or buffer offsets */
	uint8_t *avert, *bvert, *indices;
	GLuint abuf, bbuf, ibuf, indbuf;
	uint8_t indirect[64];
	int index_size;
	GLenum index_type;
	int index_max; /* largest index value used, for DrawRangeElements */
};

static bool is_indirect(int d)
{
	return d >= DR_ARRAYS_INDIRECT && d <= DR_MULTI_ELEMENTS_INDIRECT;
}

/* Pointer of index i of the index array: client address or buffer offset. */
static const void *idx_ptr(const struct run *r, int i)
{
	size_t off = (size_t)i * (size_t)r->index_size;
	bool client = r->p.v[FP_CLIENT_MEM] && !is_indirect(r->p.v[FP_DRAW]);
	return client ? (const void *)(r->indices + off) : (const void *)off;
}

static void draw(struct run *r)
{
	const int *v = r->p.v;
	GLenum m = r->mode;
	int n = r->count, f = r->first;
	int inst = v[FP_INSTANCES] + 1;
	int bi = base_instances[v[FP_BASE_INSTANCE]], bv = base_vertices[v[FP_BASE_VERTEX]];
	int n2 = n > 1 ? n - 1 : 1, f2 = f + n + 1;
	const void *ind = v[FP_CLIENT_MEM] == 1 ? (const void *)r->indirect : NULL;
	GLenum t = r->index_type;
	GLuint stream = v[FP_GS_STREAMS] == 1 ? 1 : 0;
	switch (v[FP_DRAW]) {
	case DR_ARRAYS: gl.DrawArrays(m, f, n); break;
	case DR_ARRAYS_INST: gl.DrawArraysInstanced(m, f, n, inst); break;
	case DR_ELEMENTS: gl.DrawElements(m, n, t, idx_ptr(r, f)); break;
	case DR_ELEMENTS_BV: gl.DrawElementsBaseVertex(m, n, t, idx_ptr(r, f), bv); break;
	case DR_ELEMENTS_INST: gl.DrawElementsInstanced(m, n, t, idx_ptr(r, f), inst); break;
	case DR_ELEMENTS_INST_BV_BI:
		gl.DrawElementsInstancedBaseVertexBaseInstance(m, n, t, idx_ptr(r, f), inst, bv, (GLuint)bi);
		break;
	case DR_RANGE: gl.DrawRangeElements(m, 0, (GLuint)r->index_max, n, t, idx_ptr(r, f)); break;
	case DR_RANGE_BV:
		gl.DrawRangeElementsBaseVertex(m, 0, (GLuint)r->index_max, n, t, idx_ptr(r, f), bv);
		break;
	case DR_MULTI_ARRAYS: {
		GLint fs[2] = { f, f2 };
		GLsizei ns[2] = { n, n2 };
		gl.MultiDrawArrays(m, fs, ns, 2);
		break;
	}
	case DR_MULTI_ELEMENTS: case DR_MULTI_ELEMENTS_BV: {
		GLsizei ns[2] = { n, n2 };
		const void *ps[2] = { idx_ptr(r, f), idx_ptr(r, f2) };
		GLint bvs[2] = { bv, 0 };
		if (v[FP_DRAW] == DR_MULTI_ELEMENTS)
			gl.MultiDrawElements(m, ns, t, ps, 2);
		else
			gl.MultiDrawElementsBaseVertex(m, ns, t, ps, 2, bvs);
		break;
	}
	case DR_ARRAYS_INDIRECT: gl.DrawArraysIndirect(m, ind); break;
	case DR_ELEMENTS_INDIRECT: gl.DrawElementsIndirect(m, t, ind); break;
	case DR_MULTI_ARRAYS_INDIRECT: gl.MultiDrawArraysIndirect(m, ind, 2, 0); break;
	case DR_MULTI_ELEMENTS_INDIRECT: gl.MultiDrawElementsIndirect(m, t, ind, 2, 0); break;
	case DR_TF: gl.DrawTransformFeedback(m, r->feed_tf.obj); break;
	case DR_TF_STREAM: gl.DrawTransformFeedbackStream(m, r->feed_tf.obj, stream); break;
	case DR_TF_INST: gl.DrawTransformFeedbackInstanced(m, r->feed_tf.obj, inst); break;
	case DR_TF_STREAM_INST:
		gl.DrawTransformFeedbackStreamInstanced(m, r->feed_tf.obj, stream, inst);
		break;
	}
}

/* The indirect commands (GL 4.6 §10.4: DrawArraysIndirectCommand,
 * DrawElementsIndirectCommand), the second one as the multi-draws' second. */
static void fill_indirect(struct run *r)
{
	const int *v = r->p.v;
	GLuint inst = (GLuint)v[FP_INSTANCES] + 1, bi = (GLuint)base_instances[v[FP_BASE_INSTANCE]];
	GLuint n = (GLuint)r->count, f = (GLuint)r->first;
	GLuint n2 = n > 1 ? n - 1 : 1, f2 = f + n + 1;
	GLint bv = base_vertices[v[FP_BASE_VERTEX]];
	GLuint cmd[10];
	bool elements = v[FP_DRAW] == DR_ELEMENTS_INDIRECT || v[FP_DRAW] == DR_MULTI_ELEMENTS_INDIRECT;
	if (elements) {
		GLuint c[10] = { n, inst, f, (GLuint)bv, bi, n2, 1, f2, 0, 0 };
		memcpy(cmd, c, sizeof c);
	} else {
		GLuint c[8] = { n, inst, f, bi, n2, 1, f2, 0 };
		memcpy(cmd, c, sizeof c);
	}
	memcpy(r->indirect, cmd, sizeof cmd);
}

static void setup_indices(struct run *r)
{
	const int *v = r->p.v;
	static const GLenum types[] = { GL_UNSIGNED_INT, GL_UNSIGNED_SHORT, GL_UNSIGNED_BYTE };
	static const int sizes[] = { 4, 2, 1 };
	r->index_type = types[v[FP_INDEX_TYPE]];
	r->index_size = sizes[v[FP_INDEX_TYPE]];
	r->indices = calloc(NINDICES, 4);
	uint32_t restart_value = 0;
	if (v[FP_RESTART] == 1)
		restart_value = r->index_size == 4 ? 0xffffffffu : r->index_size == 2 ? 0xffffu : 0xffu;
	else if (v[FP_RESTART] == 2)
		restart_value = 5;
	r->index_max = 0;
	for (int i = 0; i < NINDICES; i++) {
		uint32_t x;
		switch (v[FP_INDEX_PATTERN]) {
		case 1: x = (uint32_t)(NINDICES - 1 - i); break;
		case 2: x = (uint32_t)((i * 7) % 23); break;
		default: x = (uint32_t)i;
		}
		if (v[FP_RESTART] && i == r->first + restart_positions[v[FP_RESTART_POS]])
			x = restart_value;
		else if ((int)x > r->index_max && !(v[FP_RESTART] && x == restart_value))
			r->index_max = (int)x;
		memcpy(r->indices + (size_t)i * (size_t)r->index_size, &x, (size_t)r->index_size);
	}
	if (v[FP_RESTART] == 1)
		gl.Enable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
	else if (v[FP_RESTART] == 2) {
		gl.Enable(GL_PRIMITIVE_RESTART);
		gl.PrimitiveRestartIndex(restart_value);
	}
	/* Indirect element draws read indices from a buffer even where the
	 * commands are in client memory (GL 4.6 compat §10.4, DrawElementsIndirect). */
	if (!v[FP_CLIENT_MEM] || is_indirect(v[FP_DRAW])) {
		gl.GenBuffers(1, &r->ibuf);
		gl.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->ibuf);
		gl.BufferData(GL_ELEMENT_ARRAY_BUFFER, NINDICES * r->index_size, r->indices, GL_STATIC_DRAW);
	}
}

static void setup_attribs(struct run *r)
{
	const int *v = r->p.v;
	int af = v[FP_A_FMT];
	const struct afmt *fm = &afmts[af];
	bool packed = fm->bytes == 0;
	int comps = 4 - v[FP_A_COMPS];
	int elem = packed ? 4 : fm->bytes * comps;
	int stride = elem + a_stride_extra[v[FP_A_STRIDE]];
	int off = a_offsets[v[FP_A_OFFSET]];
	if (fm->bytes == 8)
		off = (off + 7) & ~7;
	size_t a_bytes = (size_t)off + (size_t)stride * NVERTS + 16;
	r->avert = calloc(1, a_bytes);
	for (int i = 0; i < NVERTS; i++) {
		uint8_t *d = r->avert + off + (size_t)stride * (size_t)i;
		if (packed)
			put_packed(d, af, i);
		else
			for (int c = 0; c < comps; c++)
				put_comp(d, af, i, c);
	}
	float *b = calloc(NVERTS * 4, sizeof *b);
	for (int i = 0; i < NVERTS; i++)
		for (int c = 0; c < 4; c++)
			b[i * 4 + c] = (float)(((i * 3 + c) % 11) - 5) / 8.0f;
	r->bvert = (uint8_t *)b;

	bool client = v[FP_CLIENT_MEM];
	if (!client) {
		GLuint vao;
		gl.GenVertexArrays(1, &vao);
		gl.BindVertexArray(vao);
		gl.GenBuffers(1, &r->abuf);
		gl.BindBuffer(GL_ARRAY_BUFFER, r->abuf);
		gl.BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)a_bytes, r->avert, GL_STATIC_DRAW);
	} else {
		gl.BindBuffer(GL_ARRAY_BUFFER, 0);
	}
	const void *aptr = client ? (const void *)(r->avert + off) : (const void *)(size_t)off;
	GLint size = packed ? 4 : comps;
	gl.EnableVertexAttribArray(0);
	if (fm->path == 'i')
		gl.VertexAttribIPointer(0, size, fm->type, stride, aptr);
	else if (fm->path == 'l')
		gl.VertexAttribLPointer(0, size, fm->type, stride, aptr);
	else
		gl.VertexAttribPointer(0, size, fm->type, fm->normalized, stride, aptr);

	if (!client) {
		gl.GenBuffers(1, &r->bbuf);
		gl.BindBuffer(GL_ARRAY_BUFFER, r->bbuf);
		gl.BufferData(GL_ARRAY_BUFFER, NVERTS * 16, b, GL_STATIC_DRAW);
	}
	gl.EnableVertexAttribArray(2);
	gl.VertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, 16, client ? (const void *)b : NULL);
	gl.VertexAttribDivisor(2, (GLuint)v[FP_B_DIV]);
}

static void setup_tf(struct run *r, struct tfset *t, bool main_set)
{
	const int *v = r->p.v;
	gl.GenTransformFeedbacks(1, &t->obj);
	gl.BindTransformFeedback(GL_TRANSFORM_FEEDBACK, t->obj);
	gl.GenBuffers(r->g.n_buffers, t->bufs);
	uint8_t *init = malloc(BUF_BYTES);
	for (int b = 0; b < r->g.n_buffers; b++) {
		/* Every byte defined: what TF does not write reads back the same. */
		for (int i = 0; i < BUF_BYTES; i++)
			init[i] = (uint8_t)(0xa0 + b * 16 + (i & 7) + (main_set ? 0 : 8));
		gl.BindBuffer(GL_ARRAY_BUFFER, t->bufs[b]);
		gl.BufferData(GL_ARRAY_BUFFER, BUF_BYTES, init, GL_STREAM_READ);
		int off = main_set ? buf_offsets[v[FP_BUF_OFFSET]] : 0;
		int size = main_set ? buf_sizes[v[FP_BUF_SIZE]] : 0;
		if (!size)
			size = BUF_BYTES - off;
		if (!main_set || v[FP_BIND] == 0) {
			gl.BindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, (GLuint)b, t->bufs[b]);
		} else if (v[FP_BIND] == 1) {
			gl.BindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, (GLuint)b, t->bufs[b], off, size);
		} else {
			GLintptr o = off;
			GLsizeiptr s = size;
			gl.BindBuffersRange(GL_TRANSFORM_FEEDBACK_BUFFER, (GLuint)b, 1, &t->bufs[b], &o, &s);
		}
	}
	free(init);
	gl.BindBuffer(GL_ARRAY_BUFFER, 0);
}

static GLuint new_query(void)
{
	GLuint q;
	gl.GenQueries(1, &q);
	return q;
}

/* ---- reference self-checks (see the file comment) ------------------------- */

#define PROBE_VERTS 16

static void deviates(const char *rule, const char *section, const char *detail)
{
	printf("reference deviates from the spec: %s (%s): %s\n", rule, section, detail);
	fflush(stdout);
}

/* A program passing attribute 0 through as `p`: the probes' program (no
 * geometry shader, so that counts of primitives are the vertices drawn). */
static GLuint probe_program(const struct run *r, GLuint fs)
{
	char src[512];
	bool gles = r->p.v[FP_API] == API_GLES;
	struct fuzz_attrib at;
	fuzz_glsl_attrib(&r->p, &at);
	snprintf(src, sizeof src,
		 "%slayout(location = 0) in %s a;\nout vec4 p;\n"
		 "void main()\n{\n  p = %s;\n  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n}\n",
		 gles ? "#version 320 es\nprecision highp float;\nprecision highp int;\n"
		      : r->p.v[FP_API] == API_COMPAT ? "#version 450 compatibility\n"
						      : "#version 450 core\n",
		 at.type, at.as_vec4);
	GLuint vs = shader(GL_VERTEX_SHADER, src);
	if (!vs)
		return 0;
	GLuint prog = gl.CreateProgram();
	gl.AttachShader(prog, vs);
	gl.AttachShader(prog, fs);
	static const char *const names[] = { "p" };
	gl.TransformFeedbackVaryings(prog, 1, names, GL_INTERLEAVED_ATTRIBS);
	gl.LinkProgram(prog);
	GLint linked = 0;
	gl.GetProgramiv(prog, GL_LINK_STATUS, &linked);
	if (!linked) {
		fprintf(stderr, "invalid case: the probe program does not link\n");
		return 0;
	}
	return prog;
}

/*
 * GL_FIXED: "a signed two's complement 16.16 scaled integer" (GL 4.6
 * §2.2, table 2.2), so c reads as c / 2^16; every value put_comp() writes
 * is q / 4, exact in binary32.  The spec's precision for the conversion is
 * that of its floating-point operations, "about 1 part in 10^5" (GL 4.6
 * §2.3.4.1): a value further off than that deviates.  Missing components
 * read as 0, 0, 1 (GL 4.6 §10.2).
 */
static void check_fixed(const struct run *r, GLuint probe)
{
	int comps = 4 - r->p.v[FP_A_COMPS];
	struct tfset t;
	gl.GenTransformFeedbacks(1, &t.obj);
	gl.BindTransformFeedback(GL_TRANSFORM_FEEDBACK, t.obj);
	gl.GenBuffers(1, t.bufs);
	gl.BindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, t.bufs[0]);
	gl.BufferData(GL_TRANSFORM_FEEDBACK_BUFFER, PROBE_VERTS * 16, NULL, GL_STREAM_READ);
	gl.BindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, t.bufs[0]);
	gl.UseProgram(probe);
	gl.Enable(GL_RASTERIZER_DISCARD);
	gl.BeginTransformFeedback(GL_POINTS);
	gl.DrawArrays(GL_POINTS, 0, PROBE_VERTS);
	gl.EndTransformFeedback();
	gl.BindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	const float *got = gl.MapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, PROBE_VERTS * 16,
					     GL_MAP_READ_BIT);
	if (!got)
		return;
	int bad = 0;
	char first[160] = "";
	for (int i = 0; i < PROBE_VERTS; i++) {
		for (int c = 0; c < 4; c++) {
			double want = c < comps ? qval(i, c) * 16384 / 65536.0 : c == 3 ? 1.0 : 0.0;
			double g = got[i * 4 + c];
			if (g == want || (want != 0.0 && g / want - 1.0 <= 1e-5 && g / want - 1.0 >= -1e-5))
				continue;
			if (!bad++) {
				uint32_t bits;
				memcpy(&bits, &got[i * 4 + c], 4);
				snprintf(first, sizeof first, "16.16 value %d of vertex %d component %d reads "
					 "as %.9g (0x%08x), not %.9g", qval(i, c) * 16384, i, c, g,
					 (unsigned)bits, want);
			}
		}
	}
	gl.UnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
	if (bad) {
		char detail[224];
		snprintf(detail, sizeof detail, "%s (%d of %d values beyond 1e-5)", first, bad,
			 PROBE_VERTS * 4);
		deviates("fixed-conversion", "GL 4.6 table 2.2, §2.3.4.1", detail);
	}
}

/*
 * glDrawTransformFeedback* draws "the number of vertices captured on
 * [the] vertex stream ... the last time transform feedback was active on"
 * the object (GL 4.6 §10.5 / ARB_transform_feedback2, 3): the feed pass's
 * TF_PRIMITIVES_WRITTEN times the vertices of its TF primitive.  The probe
 * draws them as points with the probe program (no geometry shader), in the
 * same vertex array state, under a GL_PRIMITIVES_GENERATED query, which
 * counts one primitive a point (GL 4.6 §13.3).  Instances: one.
 */
static void check_draw_tf(const struct run *r, GLuint probe, GLuint written, GLuint stream)
{
	static const int verts_of[] = { [GL_POINTS] = 1, [GL_LINES] = 2, [GL_TRIANGLES] = 3 };
	GLuint q = new_query(), got = 0;
	gl.UseProgram(probe);
	gl.Enable(GL_RASTERIZER_DISCARD);
	gl.BeginQuery(GL_PRIMITIVES_GENERATED, q);
	switch (r->p.v[FP_DRAW]) {
	case DR_TF: gl.DrawTransformFeedback(GL_POINTS, r->feed_tf.obj); break;
	case DR_TF_STREAM: gl.DrawTransformFeedbackStream(GL_POINTS, r->feed_tf.obj, stream); break;
	case DR_TF_INST: gl.DrawTransformFeedbackInstanced(GL_POINTS, r->feed_tf.obj, 1); break;
	default: gl.DrawTransformFeedbackStreamInstanced(GL_POINTS, r->feed_tf.obj, stream, 1);
	}
	gl.EndQuery(GL_PRIMITIVES_GENERATED);
	gl.GetQueryObjectuiv(q, GL_QUERY_RESULT, &got);
	GLuint want = written * (GLuint)verts_of[r->tfmode];
	if (got != want) {
		char detail[224];
		snprintf(detail, sizeof detail, "%u vertices captured on stream %u (%u primitives "
			 "written), %u drawn", want, stream, written, got);
		deviates("draw-tf-count", "GL 4.6 §10.5, ARB_transform_feedback2", detail);
	}
}

/*
 * gs_streams=stream1_no_buffer: the geometry shader emits to stream 1, no
 * varying of stream 1 is captured.  TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
 * of a stream "is incremented every time the vertices of a primitive
 * written to that stream are recorded into one or more buffer objects"
 * (ARB_transform_feedback3, GL 4.6's primitive queries): none are, so the
 * query of stream 1 must give 0.  Called with a result that is not.
 */
static void check_written_without_buffer(GLuint written)
{
	char detail[160];
	snprintf(detail, sizeof detail, "TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN of stream 1, which "
		 "has no captured varying, is %u, not 0", written);
	deviates("written-without-buffer", "ARB_transform_feedback3, primitive queries", detail);
}

/* A program of a vertex and an optional geometry shader with the case's
 * fragment shader, capturing `name` interleaved: the probes below. */
static GLuint probe_program_src(const char *vs_src, const char *gs_src, GLuint fs, const char *name)
{
	GLuint vs = shader(GL_VERTEX_SHADER, vs_src);
	GLuint gs = gs_src ? shader(GL_GEOMETRY_SHADER, gs_src) : 1;
	if (!vs || !gs)
		return 0;
	GLuint prog = gl.CreateProgram();
	gl.AttachShader(prog, vs);
	if (gs_src)
		gl.AttachShader(prog, gs);
	gl.AttachShader(prog, fs);
	gl.TransformFeedbackVaryings(prog, 1, &name, GL_INTERLEAVED_ATTRIBS);
	gl.LinkProgram(prog);
	GLint linked = 0;
	gl.GetProgramiv(prog, GL_LINK_STATUS, &linked);
	if (!linked) {
		fprintf(stderr, "invalid case: a probe program does not link\n");
		return 0;
	}
	return prog;
}

/* Runs `prog` under rasterizer discard into a fresh TF buffer of `bytes`
 * with `drawfn`, and maps the result (NULL: none); unmap_probe() after. */
static const void *run_probe(GLuint prog, GLenum tfmode, int bytes, void (*drawfn)(void *), void *arg)
{
	struct tfset t;
	gl.GenTransformFeedbacks(1, &t.obj);
	gl.BindTransformFeedback(GL_TRANSFORM_FEEDBACK, t.obj);
	gl.GenBuffers(1, t.bufs);
	gl.BindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, t.bufs[0]);
	gl.BufferData(GL_TRANSFORM_FEEDBACK_BUFFER, bytes, NULL, GL_STREAM_READ);
	gl.BindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, t.bufs[0]);
	gl.UseProgram(prog);
	gl.Enable(GL_RASTERIZER_DISCARD);
	gl.BeginTransformFeedback(tfmode);
	drawfn(arg);
	gl.EndTransformFeedback();
	gl.BindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	return gl.MapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bytes, GL_MAP_READ_BIT);
}

static void draw_one_point(void *arg)
{
	(void)arg;
	gl.DrawArrays(GL_POINTS, 0, 1);
}

/*
 * cap_frontcolor (compatibility): "the vertices are fed back after vertex
 * color clamping" (GL 3.3 compat §2.15, EXT_transform_feedback; GL 4.6
 * compat §13.2), and GL_CLAMP_VERTEX_COLOR is TRUE by default
 * (ARB_color_buffer_float): gl_FrontColor = (-0.5, 0.25, 2, 1.5) is
 * captured as (0, 0.25, 1, 1).  The probe has the case's stages (a
 * pass-through geometry shader where the case has one) and its fragment
 * shader, which does not read gl_Color.
 */
static void check_front_color(const struct run *r, GLuint fs)
{
	static const char vs_color[] =
		"#version 450 compatibility\nvoid main()\n{\n"
		"  gl_FrontColor = vec4(-0.5, 0.25, 2.0, 1.5);\n"
		"  gl_Position = vec4(0.125, 0.25, 0.0, 1.0);\n}\n";
	static const char vs_plain[] =
		"#version 450 compatibility\nvoid main()\n{\n  gl_Position = vec4(0.125, 0.25, 0.0, 1.0);\n}\n";
	static const char gs[] =
		"#version 450 compatibility\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n"
		"void main()\n{\n  gl_FrontColor = vec4(-0.5, 0.25, 2.0, 1.5);\n"
		"  gl_Position = gl_in[0].gl_Position;\n  EmitVertex();\n}\n";
	GLuint prog = probe_program_src(r->g.has_gs ? vs_plain : vs_color, r->g.has_gs ? gs : NULL, fs,
					"gl_FrontColor");
	if (!prog)
		return;
	const float *got = run_probe(prog, GL_POINTS, 16, draw_one_point, NULL);
	if (!got)
		return;
	static const float want[4] = { 0.0f, 0.25f, 1.0f, 1.0f };
	if (memcmp(got, want, sizeof want)) {
		char detail[224];
		snprintf(detail, sizeof detail, "gl_FrontColor (-0.5, 0.25, 2, 1.5) is captured as "
			 "(%g, %g, %g, %g), not clamped (0, 0.25, 1, 1)", got[0], got[1], got[2], got[3]);
		deviates("front-color-capture", "GL 3.3 compat §2.15, ARB_color_buffer_float", detail);
	}
	gl.UnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
}

struct md_probe {
	const struct run *r;
	GLuint ibuf;
};

/* Two draws of points in one multi-draw call of the case's kind: 3 and 2. */
static void draw_multi_points(void *arg)
{
	const struct md_probe *m = arg;
	GLsizei ns[2] = { 3, 2 };
	switch (m->r->p.v[FP_DRAW]) {
	case DR_MULTI_ARRAYS: {
		GLint fs[2] = { 0, 3 };
		gl.MultiDrawArrays(GL_POINTS, fs, ns, 2);
		break;
	}
	default: {
		const void *ps[2] = { (const void *)0, (const void *)12 };
		GLint bvs[2] = { 1, 0 };
		gl.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->ibuf);
		if (m->r->p.v[FP_DRAW] == DR_MULTI_ELEMENTS)
			gl.MultiDrawElements(GL_POINTS, ns, GL_UNSIGNED_INT, ps, 2);
		else
			gl.MultiDrawElementsBaseVertex(GL_POINTS, ns, GL_UNSIGNED_INT, ps, 2, bvs);
		gl.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->r->ibuf);
	}
	}
}

/*
 * glMultiDrawArrays / glMultiDrawElements[BaseVertex] with a geometry
 * shader: the multi-draw "behaves identically to" a loop of single draws
 * (GL 4.6 §10.4), and gl_PrimitiveIDIn is "the number of primitives
 * processed by the geometry shader since the current set of rendering
 * primitives was started" (GL 4.6 §11.3.4.5): each draw of the loop
 * starts at 0.  The probe's GS captures gl_PrimitiveIDIn of draws of 3
 * and 2 points in one call: 0, 1, 2, 0, 1.
 */
static void check_multi_draw_primitive_id(const struct run *r, GLuint fs)
{
	static const char vs[] =
		"#version 450 core\nvoid main()\n{\n  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n}\n";
	static const char gs[] =
		"#version 450 core\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n"
		"flat out int id;\nvoid main()\n{\n  id = gl_PrimitiveIDIn;\n"
		"  gl_Position = gl_in[0].gl_Position;\n  EmitVertex();\n}\n";
	GLuint prog = probe_program_src(vs, gs, fs, "id");
	if (!prog)
		return;
	struct md_probe m = { r, 0 };
	static const GLuint idx[5] = { 0, 1, 2, 3, 4 };
	gl.GenBuffers(1, &m.ibuf);
	gl.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, m.ibuf);
	gl.BufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
	gl.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->ibuf);
	const GLint *got = run_probe(prog, GL_POINTS, 5 * 4, draw_multi_points, &m);
	if (!got)
		return;
	static const GLint want[5] = { 0, 1, 2, 0, 1 };
	if (memcmp(got, want, sizeof want)) {
		char detail[224];
		snprintf(detail, sizeof detail, "gl_PrimitiveIDIn of two draws of 3 and 2 points in one "
			 "multi-draw is %d %d %d %d %d, not 0 1 2 0 1", got[0], got[1], got[2], got[3],
			 got[4]);
		deviates("multi-draw-primitive-id", "GL 4.6 §10.4, §11.3.4.5", detail);
	}
	gl.UnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
}

/*
 * cap_clipdistance with rasterization: clipping against plane i is enabled
 * with Enable(CLIP_DISTANCEi), and the clip distance of a plane that is
 * not enabled is ignored (GL 4.6 §13.7; GLSL 4.60 §7.1: "values for
 * planes that are not enabled are ignored"): a triangle covering the
 * viewport whose gl_ClipDistance[0] is -1 everywhere, with no plane
 * enabled, passes samples.
 */
static void check_clip_distance_disabled(const struct run *r, GLuint fs)
{
	char vs[512];
	snprintf(vs, sizeof vs,
		 "#version 450 %s\nout float gl_ClipDistance[1];\nvoid main()\n{\n"
		 "  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n"
		 "  gl_ClipDistance[0] = -1.0;\n  gl_Position = vec4(p, 0.0, 1.0);\n}\n",
		 r->p.v[FP_API] == API_COMPAT ? "compatibility" : "core");
	GLuint prog = probe_program_src(vs, NULL, fs, "gl_Position");
	GLuint q = 0, passed = 0;
	if (!prog)
		return;
	gl.UseProgram(prog);
	gl.Disable(GL_RASTERIZER_DISCARD);
	gl.GenQueries(1, &q);
	gl.BeginQuery(GL_ANY_SAMPLES_PASSED, q);
	gl.DrawArrays(GL_TRIANGLES, 0, 3);
	gl.EndQuery(GL_ANY_SAMPLES_PASSED);
	gl.GetQueryObjectuiv(q, GL_QUERY_RESULT, &passed);
	if (!passed)
		deviates("clip-distance-disabled", "GL 4.6 §13.7, GLSL 4.60 §7.1",
			 "a triangle covering the viewport whose gl_ClipDistance[0] is -1, with "
			 "GL_CLIP_DISTANCE0 disabled, passes no sample: the disabled plane clipped it");
}

int main(int argc, char **argv)
{
	struct run r;
	memset(&r, 0, sizeof r);
	uint64_t seed = 0;
	bool print_only = false;
	const char *only = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--print-params"))
			print_only = true;
		else if (!strcmp(argv[i], "--set") && i + 1 < argc)
			i++;
		else {
			fprintf(stderr, "usage: xfb-fuzz-case --seed N [--only K1,K2] "
					"[--set KEY=VALUE]... [--print-params]\n");
			return 2;
		}
	}
	fuzz_params_draw(&r.p, seed);
	if (only) {
		for (int k = 0; k < FP_N; k++) {
			const char *name = fuzz_pdefs[k].name, *s = only;
			size_t n = strlen(name);
			bool keep = false;
			for (; *s; s += strcspn(s, ","), s += *s == ',') {
				if (strcspn(s, ",") == n && !strncmp(s, name, n))
					keep = true;
			}
			if (!keep)
				r.p.v[k] = 0;
		}
		if (!r.p.v[FP_V0])
			r.p.v[FP_V0] = VK_FLOAT;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--print-params"))
			continue;
		if (!strcmp(argv[i], "--set") && !fuzz_params_set(&r.p, argv[i + 1])) {
			fprintf(stderr, "xfb-fuzz-case: bad --set %s\n", argv[i + 1]);
			return 2;
		}
		i++; /* every other option takes a value */
	}
	fuzz_params_normalize(&r.p);
	if (print_only) {
		fuzz_params_print(&r.p);
		return 0;
	}
	const int *v = r.p.v;
	fuzz_glsl_build(&r.g, &r.p);
	if (r.g.overflowed) {
		fprintf(stderr, "invalid case: generator buffers too small\n");
		return EXIT_INVALID;
	}

	struct app_egl egl;
	static const enum app_api apis[] = { APP_API_GL_CORE, APP_API_GL_COMPAT, APP_API_GLES };
	int rc = app_egl_init(&egl, apis[v[FP_API]], v[FP_API] == API_GLES ? 3 : 4,
			      v[FP_API] == API_GLES ? 2 : 5, 0);
	if (rc)
		return rc;
	if (!load_gl()) {
		app_egl_fini(&egl);
		return 77;
	}

	/* A colour target, so that drawing with rasterizer discard off is
	 * defined in a surfaceless context and occlusion queries count. */
	GLuint fbo, rb;
	gl.GenFramebuffers(1, &fbo);
	gl.BindFramebuffer(GL_FRAMEBUFFER, fbo);
	gl.GenRenderbuffers(1, &rb);
	gl.BindRenderbuffer(GL_RENDERBUFFER, rb);
	gl.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 16, 16);
	gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	gl.Viewport(0, 0, 16, 16);
	/* Clip planes and cull distances change pixels, not TF (GL 4.6 §13.3
	 * records vertices before clipping): where they reach the rasterizer,
	 * the case clears the target and reads its pixels back at the end. */
	bool read_image = (fuzz_clip_enabled(&r.p) || v[FP_CULL]) && v[FP_DISCARD] == 1;
	if (read_image) {
		gl.ClearColor(0.0f, 0.25f, 0.5f, 1.0f);
		gl.Clear(GL_COLOR_BUFFER_BIT);
	}

	GLuint prog = gl.CreateProgram();
	GLuint vs = shader(GL_VERTEX_SHADER, r.g.vs);
	GLuint gs = r.g.has_gs ? shader(GL_GEOMETRY_SHADER, r.g.gs) : 1;
	GLuint fs = shader(GL_FRAGMENT_SHADER, r.g.fs);
	if (!vs || !gs || !fs)
		return EXIT_INVALID;
	gl.AttachShader(prog, vs);
	if (r.g.has_gs)
		gl.AttachShader(prog, gs);
	gl.AttachShader(prog, fs);
	if (r.g.n_names)
		gl.TransformFeedbackVaryings(prog, r.g.n_names, r.g.names,
					     v[FP_MODE] == MODE_SEPARATE ? GL_SEPARATE_ATTRIBS
									 : GL_INTERLEAVED_ATTRIBS);
	gl.LinkProgram(prog);
	GLint linked = 0;
	gl.GetProgramiv(prog, GL_LINK_STATUS, &linked);
	if (!linked) {
		char log[4096];
		gl.GetProgramInfoLog(prog, sizeof log, NULL, log);
		fprintf(stderr, "invalid case: program does not link:\n%s\n%s", r.g.vs, log);
		for (int i = 0; i < r.g.n_names; i++)
			fprintf(stderr, "varying %s\n", r.g.names[i]);
		return EXIT_INVALID;
	}
	gl.UseProgram(prog);

	r.mode = prim_enum[v[FP_PRIM]];
	r.tfmode = tf_mode(&r.p);
	r.count = counts[v[FP_COUNT]];
	r.first = firsts[v[FP_FIRST]];
	setup_attribs(&r);
	setup_indices(&r);
	if (is_indirect(v[FP_DRAW])) {
		fill_indirect(&r);
		if (v[FP_CLIENT_MEM] != 1) {
			gl.GenBuffers(1, &r.indbuf);
			gl.BindBuffer(GL_DRAW_INDIRECT_BUFFER, r.indbuf);
			gl.BufferData(GL_DRAW_INDIRECT_BUFFER, sizeof r.indirect, r.indirect, GL_STATIC_DRAW);
		}
	}
	GLuint probe = 0;
	if (v[FP_A_FMT] == AF_FIXED || v[FP_DRAW] >= DR_TF) {
		probe = probe_program(&r, fs);
		if (!probe)
			return EXIT_INVALID;
	}
	if (v[FP_A_FMT] == AF_FIXED) {
		check_fixed(&r, probe);
		gl.UseProgram(prog);
		gl.Disable(GL_RASTERIZER_DISCARD);
	}
	int d = v[FP_DRAW];
	if (v[FP_CAP_COMPAT] && v[FP_API] == API_COMPAT) {
		check_front_color(&r, fs);
		gl.UseProgram(prog);
		gl.Disable(GL_RASTERIZER_DISCARD);
	}
	if (r.g.has_gs && (d == DR_MULTI_ARRAYS || d == DR_MULTI_ELEMENTS || d == DR_MULTI_ELEMENTS_BV)) {
		check_multi_draw_primitive_id(&r, fs);
		gl.UseProgram(prog);
		gl.Disable(GL_RASTERIZER_DISCARD);
	}
	/* The probe where a written distance that can be negative, [1], has
	 * its plane disabled ([0] is positive, [2] written only enabled). */
	if ((fuzz_clip_written(&r.p) & ~fuzz_clip_enabled(&r.p) & 0x2) && v[FP_DISCARD] == 1) {
		check_clip_distance_disabled(&r, fs);
		gl.UseProgram(prog);
	}
	/* GL 4.6 §13.7: plane i clips where CLIP_DISTANCEi is enabled (after
	 * the probe above, which needs every plane disabled). */
	for (unsigned i = 0; i < 3; i++)
		if (fuzz_clip_enabled(&r.p) >> i & 1)
			gl.Enable(GL_CLIP_DISTANCE0 + i);
	if (v[FP_PROVOKING])
		gl.ProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
	if (v[FP_DISCARD] == 0)
		gl.Enable(GL_RASTERIZER_DISCARD);
	if (gl_errors("during set-up"))
		return EXIT_INVALID;

	bool draw_tf = v[FP_DRAW] >= DR_TF;
	if (draw_tf)
		setup_tf(&r, &r.feed_tf, false);
	if (v[FP_PAUSE] == 2)
		setup_tf(&r, &r.other_tf, false);
	setup_tf(&r, &r.main_tf, true);

	/* The vertices glDrawTransformFeedback draws: a first pass into the
	 * feed object, drawn as arrays. */
	if (draw_tf) {
		GLuint stream = v[FP_GS_STREAMS] == 1 && (v[FP_DRAW] == DR_TF_STREAM ||
							  v[FP_DRAW] == DR_TF_STREAM_INST);
		GLuint q_feed = new_query(), written = 0;
		gl.BindTransformFeedback(GL_TRANSFORM_FEEDBACK, r.feed_tf.obj);
		gl.BeginQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, stream, q_feed);
		gl.BeginTransformFeedback(r.tfmode);
		gl.DrawArrays(r.mode, 0, r.count);
		gl.EndTransformFeedback();
		gl.EndQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, stream);
		gl.GetQueryObjectuiv(q_feed, GL_QUERY_RESULT, &written);
		check_draw_tf(&r, probe, written, stream);
		gl.UseProgram(prog);
		if (v[FP_DISCARD])
			gl.Disable(GL_RASTERIZER_DISCARD);
		gl.BindTransformFeedback(GL_TRANSFORM_FEEDBACK, r.main_tf.obj);
	}

	/* Queries over the first begin / end pair. */
	GLuint q_pg[2] = { 0 }, q_tw[2] = { 0 }, q_of = 0, q_oc = 0;
	int n_streams = v[FP_GS_STREAMS] ? 2 : 1;
	static const GLenum occl[] = { 0, GL_SAMPLES_PASSED, GL_ANY_SAMPLES_PASSED,
				       GL_ANY_SAMPLES_PASSED_CONSERVATIVE };
	static const GLenum ovf[] = { 0, GL_TRANSFORM_FEEDBACK_OVERFLOW,
				      GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW };
	for (int s = 0; s < n_streams; s++) {
		if (v[FP_Q_PG]) {
			q_pg[s] = new_query();
			if (v[FP_Q_INDEXED] || s)
				gl.BeginQueryIndexed(GL_PRIMITIVES_GENERATED, (GLuint)s, q_pg[s]);
			else
				gl.BeginQuery(GL_PRIMITIVES_GENERATED, q_pg[s]);
		}
		if (v[FP_Q_WRITTEN]) {
			q_tw[s] = new_query();
			if (v[FP_Q_INDEXED] || s)
				gl.BeginQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, (GLuint)s, q_tw[s]);
			else
				gl.BeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q_tw[s]);
		}
	}
	if (v[FP_Q_OVERFLOW]) {
		q_of = new_query();
		if (v[FP_Q_OVERFLOW] == 2)
			gl.BeginQuery(ovf[2], q_of);
		else
			gl.BeginQueryIndexed(ovf[1], 0, q_of);
	}
	if (v[FP_Q_OCCL]) {
		q_oc = new_query();
		gl.BeginQuery(occl[v[FP_Q_OCCL]], q_oc);
	}

	static const GLenum cond_modes[] = { 0, GL_QUERY_WAIT, GL_QUERY_NO_WAIT,
					     GL_QUERY_BY_REGION_WAIT, GL_QUERY_WAIT_INVERTED,
					     GL_QUERY_NO_WAIT_INVERTED };
	int passes = v[FP_NBEGIN] + 1 + (v[FP_COND] ? 1 : 0);
	for (int pass = 0; pass < passes; pass++) {
		bool cond = v[FP_COND] && pass == passes - 1;
		if (cond)
			gl.BeginConditionalRender(v[FP_COND_SRC] ? q_of : q_oc, cond_modes[v[FP_COND]]);
		gl.BeginTransformFeedback(r.tfmode);
		draw(&r);
		if (v[FP_PAUSE] && pass == 0) {
			gl.PauseTransformFeedback();
			if (v[FP_PAUSE] == 1) {
				draw(&r);
			} else {
				gl.BindTransformFeedback(GL_TRANSFORM_FEEDBACK, r.other_tf.obj);
				gl.BeginTransformFeedback(r.tfmode);
				draw(&r);
				gl.EndTransformFeedback();
				gl.BindTransformFeedback(GL_TRANSFORM_FEEDBACK, r.main_tf.obj);
			}
			gl.ResumeTransformFeedback();
			draw(&r);
		}
		gl.EndTransformFeedback();
		if (cond)
			gl.EndConditionalRender();
		if (pass == 0) {
			for (int s = 0; s < n_streams; s++) {
				if (q_pg[s] && (v[FP_Q_INDEXED] || s))
					gl.EndQueryIndexed(GL_PRIMITIVES_GENERATED, (GLuint)s);
				else if (q_pg[s])
					gl.EndQuery(GL_PRIMITIVES_GENERATED);
				if (q_tw[s] && (v[FP_Q_INDEXED] || s))
					gl.EndQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, (GLuint)s);
				else if (q_tw[s])
					gl.EndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
			}
			if (q_of && v[FP_Q_OVERFLOW] == 2)
				gl.EndQuery(ovf[2]);
			else if (q_of)
				gl.EndQueryIndexed(ovf[1], 0);
			if (q_oc)
				gl.EndQuery(occl[v[FP_Q_OCCL]]);
		}
	}
	if (gl_errors("in the draws"))
		return EXIT_INVALID;

	/* Read back: query results, then every TF buffer of the main set. */
	GLuint qs[] = { q_pg[0], q_pg[1], q_tw[0], q_tw[1], q_of, q_oc };
	for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
		if (!qs[i])
			continue;
		GLuint res = 0;
		gl.GetQueryObjectuiv(qs[i], GL_QUERY_RESULT, &res);
		printf("query %zu: %u\n", i, res);
		if (qs[i] == q_tw[1] && v[FP_GS_STREAMS] == 2 && res)
			check_written_without_buffer(res);
	}
	for (int b = 0; b < r.g.n_buffers; b++) {
		gl.BindBuffer(GL_COPY_READ_BUFFER, r.main_tf.bufs[b]);
		const uint8_t *m = gl.MapBufferRange(GL_COPY_READ_BUFFER, 0, 512, GL_MAP_READ_BIT);
		if (m) {
			printf("buffer %d: %02x%02x%02x%02x...\n", b, m[0], m[1], m[2], m[3]);
			gl.UnmapBuffer(GL_COPY_READ_BUFFER);
		}
	}
	if (read_image) {
		uint8_t px[16 * 16 * 4];
		unsigned lit = 0;
		gl.ReadPixels(0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, px);
		for (size_t i = 0; i < sizeof px; i += 4)
			lit += px[i] == 255;
		printf("pixels: %u of 256 drawn\n", lit);
	}
	if (gl_errors("at the end"))
		return EXIT_INVALID;
	app_egl_fini(&egl);
	return 0;
}
