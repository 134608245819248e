/*
 * cap_size.c - how many bytes a pointer argument refers to, for the size
 * rules of cap_desc.h: registry lengths (`n`, `count*4`), strings passed
 * with a length, and the COMPSIZE(...) forms that specs/gl_annotations.py
 * maps to helpers here.
 *
 * Pixel data sizes follow the GL 4.6 specification, section 8.4.4.1
 * (unpacking) and 18.2 (packing): row length and alignment from the pixel
 * store state (read with the real glGetIntegerv, never tracked), skips
 * included, so the recorded extent starts at the pointer the application
 * passed.  When a size cannot be known the helper says what was missing
 * and the argument is recorded UNSIZED: never a guess.
 */
#include <stdint.h>
#include <string.h>

#include "cap_observe.h"
#include "cap_size_int.h"
#include "cap_state.h"
#include "glapi.h"
#include "glapi_types.h"
#include "trace_pixels.h"

/* trace_pixels.h's enum values must be the registry's. */
#define CHECK_PX(n) _Static_assert(TRACE_PX_##n == GL_##n, "TRACE_PX_" #n);
CHECK_PX(COLOR_INDEX) CHECK_PX(STENCIL_INDEX) CHECK_PX(DEPTH_COMPONENT) CHECK_PX(RED)
CHECK_PX(GREEN) CHECK_PX(BLUE) CHECK_PX(ALPHA) CHECK_PX(RGB) CHECK_PX(RGBA)
CHECK_PX(LUMINANCE) CHECK_PX(LUMINANCE_ALPHA) CHECK_PX(ABGR_EXT) CHECK_PX(BGR) CHECK_PX(BGRA)
CHECK_PX(RG) CHECK_PX(RG_INTEGER) CHECK_PX(DEPTH_STENCIL) CHECK_PX(RED_INTEGER)
CHECK_PX(GREEN_INTEGER) CHECK_PX(BLUE_INTEGER) CHECK_PX(ALPHA_INTEGER) CHECK_PX(RGB_INTEGER)
CHECK_PX(RGBA_INTEGER) CHECK_PX(BGR_INTEGER) CHECK_PX(BGRA_INTEGER) CHECK_PX(BYTE)
CHECK_PX(UNSIGNED_BYTE) CHECK_PX(SHORT) CHECK_PX(UNSIGNED_SHORT) CHECK_PX(INT)
CHECK_PX(UNSIGNED_INT) CHECK_PX(FLOAT) CHECK_PX(HALF_FLOAT) CHECK_PX(HALF_FLOAT_OES)
CHECK_PX(UNSIGNED_BYTE_3_3_2) CHECK_PX(UNSIGNED_SHORT_4_4_4_4) CHECK_PX(UNSIGNED_SHORT_5_5_5_1)
CHECK_PX(UNSIGNED_INT_8_8_8_8) CHECK_PX(UNSIGNED_INT_10_10_10_2)
CHECK_PX(UNSIGNED_BYTE_2_3_3_REV) CHECK_PX(UNSIGNED_SHORT_5_6_5) CHECK_PX(UNSIGNED_SHORT_5_6_5_REV)
CHECK_PX(UNSIGNED_SHORT_4_4_4_4_REV) CHECK_PX(UNSIGNED_SHORT_1_5_5_5_REV)
CHECK_PX(UNSIGNED_INT_8_8_8_8_REV) CHECK_PX(UNSIGNED_INT_2_10_10_10_REV)
CHECK_PX(UNSIGNED_INT_24_8) CHECK_PX(UNSIGNED_INT_10F_11F_11F_REV)
CHECK_PX(UNSIGNED_INT_5_9_9_9_REV) CHECK_PX(FLOAT_32_UNSIGNED_INT_24_8_REV)
#undef CHECK_PX

unsigned cap_index_bytes(uint32_t type)
{
	switch (type) {
	case GL_UNSIGNED_BYTE: return 1;
	case GL_UNSIGNED_SHORT: return 2;
	case GL_UNSIGNED_INT: return 4;
	default: return 0;
	}
}

unsigned cap_type_bytes(uint32_t type)
{
	switch (type) {
	case GL_BYTE: case GL_UNSIGNED_BYTE: return 1;
	case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: case GL_HALF_FLOAT_OES: return 2;
	case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: case GL_FIXED: return 4;
	case GL_DOUBLE: return 8;
	case GL_2_BYTES: return 2;
	case GL_3_BYTES: return 3;
	case GL_4_BYTES: return 4;
	default: return 0;
	}
}

static int64_t count_of(const struct cap_pdesc *d, const union cap_arg *a)
{
	return a[d->p[0]].i;
}

/* KHR_debug (GL 4.6 section 20.9) and its forerunners: a label or message
 * of `length` chars, NUL-terminated when length is negative (k = 0; KHR,
 * ARB) or zero (k = 1; EXT, AMD, GREMEDY).  A negative length where zero
 * is the terminated case is an INVALID_VALUE the GL raises without reading
 * the string: nothing is read. */
size_t cap_lenstring_chars(const struct cap_pdesc *d, const union cap_arg *a, const char *s)
{
	int64_t length = count_of(d, a);

	if (d->k ? length == 0 : length < 0)
		return strlen(s);
	return length > 0 ? (size_t)length : 0;
}

static size_t pname_count(struct cap_ctx *x, uint32_t pname, bool indexed, const char **why)
{
	size_t lo = 0, hi = cap_pname_counts_len;

	if (indexed) {
		switch (pname) {
		case GL_VIEWPORT: case GL_SCISSOR_BOX: case GL_COLOR_WRITEMASK: return 4;
		case GL_DEPTH_RANGE: return 2;
		default: break;
		}
		if (glapi_enum_name(pname))
			return 1;
		*why = "COMPSIZE(pname): unknown pname";
		return SIZE_MAX;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cap_pname_counts[mid].pname == pname) {
			uint32_t c = cap_pname_counts[mid].count;
			GLint n = 0;
			cap_pfn_glGetIntegerv get = CAP_REAL(glGetIntegerv);
			if (!(c & 0x80000000u))
				return c;
			if (!x || !get) {
				*why = "COMPSIZE(pname): count query impossible";
				return SIZE_MAX;
			}
			cap_glerror_stash_ctx(x);
			get(c & 0x7fffffffu, &n);
			cap_glerror_drain_ctx(x, "pname count query");
			return n > 0 ? (size_t)n : 0;
		}
		if (cap_pname_counts[mid].pname < pname)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (glapi_enum_name(pname))
		return 1;
	*why = "COMPSIZE(pname): unknown pname";
	return SIZE_MAX;
}

/* Bytes of one pixel, 0 if unknown; GL_BITMAP is handled by the caller.
 * The table is trace/trace_pixels.h's, which the observations use too. */
static unsigned pixel_bytes(uint32_t format, uint32_t type)
{
	return trace_pixels_bytes(format, type);
}

struct pixel_store {
	GLint alignment, row_length, image_height, skip_pixels, skip_rows, skip_images;
};

static bool read_pixel_store(struct cap_ctx *x, bool pack, struct pixel_store *ps)
{
	cap_pfn_glGetIntegerv get = CAP_REAL(glGetIntegerv);
	const bool es2 = x->gles && x->major < 3;

	*ps = (struct pixel_store){ 4, 0, 0, 0, 0, 0 };
	if (!get)
		return false;
	cap_glerror_stash_ctx(x);
	get(pack ? GL_PACK_ALIGNMENT : GL_UNPACK_ALIGNMENT, &ps->alignment);
	if (!es2) {
		get(pack ? GL_PACK_ROW_LENGTH : GL_UNPACK_ROW_LENGTH, &ps->row_length);
		get(pack ? GL_PACK_SKIP_PIXELS : GL_UNPACK_SKIP_PIXELS, &ps->skip_pixels);
		get(pack ? GL_PACK_SKIP_ROWS : GL_UNPACK_SKIP_ROWS, &ps->skip_rows);
		/* GLES 3 has no PACK_IMAGE_HEIGHT / PACK_SKIP_IMAGES. */
		if (!(pack && x->gles)) {
			get(pack ? GL_PACK_IMAGE_HEIGHT : GL_UNPACK_IMAGE_HEIGHT, &ps->image_height);
			get(pack ? GL_PACK_SKIP_IMAGES : GL_UNPACK_SKIP_IMAGES, &ps->skip_images);
		}
	}
	cap_glerror_drain_ctx(x, "pixel store query");
	if (ps->alignment <= 0)
		ps->alignment = 1;
	return true;
}

static size_t image_bytes(struct cap_ctx *x, bool pack, uint32_t format, uint32_t type,
			  int64_t w, int64_t h, int64_t d, unsigned dims, const char **why)
{
	struct pixel_store ps;
	uint64_t psize, row, stride, img_h, n;

	if (!x) {
		*why = "COMPSIZE(format,type,...): no current context";
		return SIZE_MAX;
	}
	if (w <= 0 || h <= 0 || d <= 0)
		return 0;
	if (!read_pixel_store(x, pack, &ps)) {
		*why = "COMPSIZE(format,type,...): pixel store unknown";
		return SIZE_MAX;
	}
	row = (uint64_t)(ps.row_length > 0 ? ps.row_length : w);
	if (type == GL_BITMAP) {
		stride = (row + 7) / 8;
		stride = (stride + (uint64_t)ps.alignment - 1) / (uint64_t)ps.alignment * (uint64_t)ps.alignment;
		return (size_t)(stride * (uint64_t)(h + (dims >= 2 ? ps.skip_rows : 0)));
	}
	psize = pixel_bytes(format, type);
	if (!psize) {
		*why = "COMPSIZE(format,type,...): unknown format/type";
		return SIZE_MAX;
	}
	stride = row * psize;
	stride = (stride + (uint64_t)ps.alignment - 1) / (uint64_t)ps.alignment * (uint64_t)ps.alignment;
	img_h = (uint64_t)(ps.image_height > 0 ? ps.image_height : h);
	n = (uint64_t)(ps.skip_pixels + w) * psize;
	if (dims >= 2)
		n += (uint64_t)(ps.skip_rows + h - 1) * stride;
	if (dims >= 3)
		n += (uint64_t)(ps.skip_images + d - 1) * stride * img_h;
	return (size_t)n;
}

static size_t tex_image_bytes(struct cap_ctx *x, const union cap_arg *a,
			      const struct cap_pdesc *d, const char **why)
{
	cap_pfn_glGetTexLevelParameteriv getl = CAP_REAL(glGetTexLevelParameteriv);
	uint32_t target = (uint32_t)a[d->p[0]].u;
	GLint level = (GLint)a[d->p[1]].i, w = 0, h = 0, depth = 0;

	if (!x || !getl) {
		*why = "COMPSIZE(target,level,format,type): texture size unknown";
		return SIZE_MAX;
	}
	cap_glerror_stash_ctx(x);
	getl(target, level, GL_TEXTURE_WIDTH, &w);
	getl(target, level, GL_TEXTURE_HEIGHT, &h);
	getl(target, level, GL_TEXTURE_DEPTH, &depth);
	cap_glerror_drain_ctx(x, "texture size query");
	return image_bytes(x, true, (uint32_t)a[d->p[2]].u, (uint32_t)a[d->p[3]].u,
			   w, h, depth, 3, why);
}

/* glClearBuffer{f,i,ui}v, glClearNamedFramebuffer*v (GL 4.6 17.4.3.1):
 * four values for GL_COLOR, one for GL_DEPTH and GL_STENCIL. */
static size_t clear_buffer_count(uint32_t buffer, const char **why)
{
	switch (buffer) {
	case GL_COLOR: return 4;
	case GL_DEPTH: case GL_STENCIL: return 1;
	default:
		*why = "COMPSIZE(buffer): unknown buffer";
		return SIZE_MAX;
	}
}

/* Components of the uniform at `location` of `program` (GL 4.6 7.10,
 * glGetUniform*v writes the whole value: 16 for a mat4): the active uniform
 * whose location range holds it, found through glGetActiveUniform and
 * glGetUniformLocation.  Assumption: the elements of an array uniform have
 * consecutive locations from that of element 0 (guaranteed for explicit
 * locations, GL 4.6 7.3.1; what Mesa assigns otherwise).  Samplers, images
 * and atomic counters hold one integer. */
static size_t uniform_components(struct cap_ctx *x, uint32_t program, int64_t location,
				 const char **why)
{
	cap_pfn_glGetProgramiv getp = CAP_REAL(glGetProgramiv);
	cap_pfn_glGetActiveUniform active = CAP_REAL(glGetActiveUniform);
	cap_pfn_glGetUniformLocation loc = CAP_REAL(glGetUniformLocation);
	GLint n = 0;
	size_t result = SIZE_MAX;

	*why = "COMPSIZE(program,location): no active uniform at that location";
	if (!x || !getp || !active || !loc) {
		*why = "COMPSIZE(program,location): no current context";
		return SIZE_MAX;
	}
	if (location < 0)
		return 0;
	cap_glerror_stash_ctx(x);
	getp(program, GL_ACTIVE_UNIFORMS, &n);
	for (GLint i = 0; i < n && result == SIZE_MAX; i++) {
		char name[256];
		GLint size = 0, base;
		GLenum type = 0;
		GLsizei len = 0;
		active(program, (GLuint)i, sizeof name, &len, &size, &type, name);
		if (len <= 0 || len >= (GLsizei)sizeof name - 1)
			continue;
		base = loc(program, name);
		if (base < 0 || location < base || location >= (int64_t)base + (size > 0 ? size : 1))
			continue;
		const struct glapi_type *t = glapi_type_by_value(type);
		result = t ? t->components : 1;
	}
	cap_glerror_drain_ctx(x, "uniform type query");
	return result;
}

/* glGetActiveUniformBlockiv: one index per active uniform of the block for
 * GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES, else one value (GL 4.6 7.6.2). */
static size_t uniform_block_count(struct cap_ctx *x, uint32_t program, uint32_t block,
				  uint32_t pname, const char **why)
{
	cap_pfn_glGetActiveUniformBlockiv get = CAP_REAL(glGetActiveUniformBlockiv);
	GLint n = 0;

	if (pname != GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES)
		return 1;
	if (!x || !get) {
		*why = "COMPSIZE(program,uniformBlockIndex,pname): no current context";
		return SIZE_MAX;
	}
	cap_glerror_stash_ctx(x);
	get(program, block, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, &n);
	cap_glerror_drain_ctx(x, "uniform block query");
	return n > 0 ? (size_t)n : 0;
}

/* GL_TEXTURE_COMPRESSED_IMAGE_SIZE of the bound texture's level (GL 4.6
 * 8.11.4). */
static size_t compressed_image_bytes(struct cap_ctx *x, uint32_t target, int64_t level,
				     const char **why)
{
	cap_pfn_glGetTexLevelParameteriv getl = CAP_REAL(glGetTexLevelParameteriv);
	GLint n = 0;

	if (!x || !getl) {
		*why = "COMPSIZE(target,level): no current context";
		return SIZE_MAX;
	}
	cap_glerror_stash_ctx(x);
	getl(target, (GLint)level, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &n);
	cap_glerror_drain_ctx(x, "compressed image size query");
	return n > 0 ? (size_t)n : 0;
}

/* Values per control point of an evaluator map (GL 4.6 compatibility
 * 12.1, table 12.1), 0 if not a map target. */
static unsigned map_components(uint32_t target)
{
	switch (target) {
	case GL_MAP1_INDEX: case GL_MAP2_INDEX:
	case GL_MAP1_TEXTURE_COORD_1: case GL_MAP2_TEXTURE_COORD_1:
		return 1;
	case GL_MAP1_TEXTURE_COORD_2: case GL_MAP2_TEXTURE_COORD_2:
		return 2;
	case GL_MAP1_VERTEX_3: case GL_MAP2_VERTEX_3: case GL_MAP1_NORMAL: case GL_MAP2_NORMAL:
	case GL_MAP1_TEXTURE_COORD_3: case GL_MAP2_TEXTURE_COORD_3:
		return 3;
	case GL_MAP1_VERTEX_4: case GL_MAP2_VERTEX_4: case GL_MAP1_COLOR_4: case GL_MAP2_COLOR_4:
	case GL_MAP1_TEXTURE_COORD_4: case GL_MAP2_TEXTURE_COORD_4:
		return 4;
	default:
		return 0;
	}
}

static bool map2_target(uint32_t target)
{
	return target >= GL_MAP2_COLOR_4 && target <= GL_MAP2_VERTEX_4;
}

/* Elements glMap1* / glMap2* read: the last control point's offset plus
 * its `k` components (the target's, or APPLE's `size`); strides and orders
 * the GL rejects read nothing. */
static size_t map_points_k(int64_t k, int64_t ustride, int64_t uorder, int64_t vstride,
			   int64_t vorder)
{
	if (k < 1 || uorder < 1 || vorder < 1 || ustride < k || vstride < k)
		return 0;
	return (size_t)((uorder - 1) * ustride + (vorder - 1) * vstride + k);
}

static size_t map_points(uint32_t target, int64_t ustride, int64_t uorder,
			 int64_t vstride, int64_t vorder, const char **why)
{
	unsigned k = map_components(target);

	if (!k) {
		*why = "COMPSIZE(target,...): unknown map target";
		return SIZE_MAX;
	}
	return map_points_k(k, ustride, uorder, vstride, vorder);
}

/* glGetMap*v (GL 4.6 compatibility 12.1): GL_ORDER 1 or 2 values,
 * GL_DOMAIN 2 or 4, GL_COEFF every control point. */
static size_t get_map_count(struct cap_ctx *x, uint32_t target, uint32_t query, const char **why)
{
	cap_pfn_glGetMapiv get = CAP_REAL(glGetMapiv);
	const bool two = map2_target(target);
	GLint order[2] = { 0, 0 };

	switch (query) {
	case GL_ORDER: return two ? 2 : 1;
	case GL_DOMAIN: return two ? 4 : 2;
	case GL_COEFF: break;
	default:
		*why = "COMPSIZE(target,query): unknown query";
		return SIZE_MAX;
	}
	if (!x || !get || !map_components(target)) {
		*why = "COMPSIZE(target,query): map order unknown";
		return SIZE_MAX;
	}
	cap_glerror_stash_ctx(x);
	get(target, GL_ORDER, order);
	cap_glerror_drain_ctx(x, "map order query");
	if (order[0] < 0 || order[1] < 0)
		return 0;
	return (size_t)order[0] * (size_t)(two ? order[1] : 1) * map_components(target);
}

/* glGetPixelMap*v: GL_PIXEL_MAP_*_SIZE; each map's size pname is the map's
 * value + 0x40 (GL_PIXEL_MAP_I_TO_I 0x0C70, its size 0x0CB0). */
static size_t pixel_map_count(struct cap_ctx *x, uint32_t map, const char **why)
{
	cap_pfn_glGetIntegerv get = CAP_REAL(glGetIntegerv);
	GLint n = 0;

	if (map < GL_PIXEL_MAP_I_TO_I || map > GL_PIXEL_MAP_A_TO_A) {
		*why = "COMPSIZE(map): unknown pixel map";
		return SIZE_MAX;
	}
	if (!x || !get) {
		*why = "COMPSIZE(map): no current context";
		return SIZE_MAX;
	}
	cap_glerror_stash_ctx(x);
	get(map + (GL_PIXEL_MAP_I_TO_I_SIZE - GL_PIXEL_MAP_I_TO_I), &n);
	cap_glerror_drain_ctx(x, "pixel map size query");
	return n > 0 ? (size_t)n : 0;
}

/* Imaging subset read-backs (GL 4.6 compatibility 8.4.3): the width (and
 * height) of the table, filter or histogram of `target`; a minmax is two
 * values.  `column`: the separable filter's column (its height). */
static size_t imaging_bytes(struct cap_ctx *x, uint32_t target, uint32_t format, uint32_t type,
			    bool column, const char **why)
{
	GLint w = 0, h = 1;

	if (!x) {
		*why = "COMPSIZE(target,format,type): no current context";
		return SIZE_MAX;
	}
	cap_glerror_stash_ctx(x);
	switch (target) {
	case GL_COLOR_TABLE: case GL_POST_CONVOLUTION_COLOR_TABLE:
	case GL_POST_COLOR_MATRIX_COLOR_TABLE: {
		cap_pfn_glGetColorTableParameteriv get = CAP_REAL(glGetColorTableParameteriv);
		if (get)
			get(target, GL_COLOR_TABLE_WIDTH, &w);
		break;
	}
	case GL_CONVOLUTION_1D: case GL_CONVOLUTION_2D: case GL_SEPARABLE_2D: {
		cap_pfn_glGetConvolutionParameteriv get = CAP_REAL(glGetConvolutionParameteriv);
		if (get) {
			get(target, GL_CONVOLUTION_WIDTH, &w);
			if (target != GL_CONVOLUTION_1D)
				get(target, GL_CONVOLUTION_HEIGHT, &h);
		}
		if (target == GL_SEPARABLE_2D) {
			if (column)
				w = h;
			h = 1;
		}
		break;
	}
	case GL_HISTOGRAM: {
		cap_pfn_glGetHistogramParameteriv get = CAP_REAL(glGetHistogramParameteriv);
		if (get)
			get(target, GL_HISTOGRAM_WIDTH, &w);
		break;
	}
	case GL_MINMAX:
		w = 2;
		break;
	default:
		cap_glerror_drain_ctx(x, "imaging size query");
		*why = "COMPSIZE(target,format,type): unknown target";
		return SIZE_MAX;
	}
	cap_glerror_drain_ctx(x, "imaging size query");
	return image_bytes(x, true, format, type, w, h, 1, h > 1 ? 2 : 1, why);
}

static size_t times(size_t count, unsigned elem_bytes)
{
	return count == SIZE_MAX ? SIZE_MAX : count * elem_bytes;
}

size_t cap_size(struct cap_ctx *x, const struct cap_pdesc *d,
		const union cap_arg *a, bool output, const char **why)
{
	int64_t n;

	switch (d->len) {
	case CAP_LEN_CONST:
		return (size_t)d->k * d->elem_bytes;
	case CAP_LEN_PARAM:
		n = count_of(d, a);
		if (n <= 0)
			return 0;
		return (size_t)((uint64_t)n * d->k / d->div) * d->elem_bytes;
	case CAP_LEN_HELPER:
		break;
	default:
		*why = "no size rule";
		return SIZE_MAX;
	}
	switch (d->helper) {
	case CAP_SIZE_PNAME: {
		size_t c = pname_count(x, (uint32_t)a[d->p[d->np - 1]].u, false, why);
		return c == SIZE_MAX ? c : c * d->elem_bytes;
	}
	case CAP_SIZE_PNAME_INDEXED: {
		size_t c = pname_count(x, (uint32_t)a[d->p[0]].u, true, why);
		return c == SIZE_MAX ? c : c * d->elem_bytes;
	}
	case CAP_SIZE_COUNT_TYPE: {
		unsigned tb = cap_type_bytes((uint32_t)a[d->p[1]].u);
		n = count_of(d, a);
		if (!tb) {
			*why = "COMPSIZE(count,type): unknown type";
			return SIZE_MAX;
		}
		return n > 0 ? (size_t)n * tb : 0;
	}
	case CAP_SIZE_IMAGE: {
		/* (format, type[, width[, height[, depth]]]) */
		int64_t w = d->np > 2 ? a[d->p[2]].i : 1;
		int64_t h = d->np > 3 ? a[d->p[3]].i : 1;
		int64_t depth = d->np > 4 ? a[d->p[4]].i : 1;
		unsigned dims = d->np > 2 ? (unsigned)(d->np - 2) : 1;
		return image_bytes(x, output, (uint32_t)a[d->p[0]].u, (uint32_t)a[d->p[1]].u,
				   w, h, depth, dims, why);
	}
	case CAP_SIZE_TEX_IMAGE:
		return tex_image_bytes(x, a, d, why);
	case CAP_SIZE_BITMAP:
		/* one bit per pixel, unpacked like GL_COLOR_INDEX / GL_BITMAP data */
		return image_bytes(x, false, GL_COLOR_INDEX, GL_BITMAP, a[d->p[0]].i, a[d->p[1]].i, 1, 2,
				   why);
	case CAP_SIZE_INDIRECT_ARRAYS:
	case CAP_SIZE_INDIRECT_ELEMENTS: {
		uint64_t cmd = d->helper == CAP_SIZE_INDIRECT_ARRAYS ? 16 : 20;
		int64_t stride = a[d->p[1]].i;
		n = count_of(d, a);
		if (n <= 0)
			return 0;
		return (size_t)((uint64_t)(n - 1) * (uint64_t)(stride > 0 ? stride : (int64_t)cmd) + cmd);
	}
	case CAP_SIZE_CLEAR_BUFFER:
		return times(clear_buffer_count((uint32_t)a[d->p[0]].u, why), d->elem_bytes);
	case CAP_SIZE_UNIFORM:
		return times(uniform_components(x, (uint32_t)a[d->p[0]].u, a[d->p[1]].i, why),
			     d->elem_bytes);
	case CAP_SIZE_UNIFORM_BLOCK:
		return times(uniform_block_count(x, (uint32_t)a[d->p[0]].u, (uint32_t)a[d->p[1]].u,
						 (uint32_t)a[d->p[2]].u, why), d->elem_bytes);
	case CAP_SIZE_COMPRESSED_TEX_IMAGE:
		return compressed_image_bytes(x, (uint32_t)a[d->p[0]].u, a[d->p[1]].i, why);
	case CAP_SIZE_MAP1:
		/* one row of control points: a vorder of 1 makes vstride unused */
		return times(map_points((uint32_t)a[d->p[0]].u, a[d->p[1]].i, a[d->p[2]].i,
					INT32_MAX, 1, why), d->elem_bytes);
	case CAP_SIZE_MAP2:
		return times(map_points((uint32_t)a[d->p[0]].u, a[d->p[1]].i, a[d->p[2]].i,
					a[d->p[3]].i, a[d->p[4]].i, why), d->elem_bytes);
	case CAP_SIZE_GET_MAP:
		return times(get_map_count(x, (uint32_t)a[d->p[0]].u, (uint32_t)a[d->p[1]].u, why),
			     d->elem_bytes);
	case CAP_SIZE_PIXEL_MAP:
		return times(pixel_map_count(x, (uint32_t)a[d->p[0]].u, why), d->elem_bytes);
	case CAP_SIZE_STIPPLE:
		/* 32 x 32 bits, as glDrawPixels / glReadPixels of GL_COLOR_INDEX
		 * GL_BITMAP would unpack / pack them (GL 4.6 compatibility 14.6.2) */
		return image_bytes(x, output, GL_COLOR_INDEX, GL_BITMAP, 32, 32, 1, 2, why);
	case CAP_SIZE_IMAGING:
	case CAP_SIZE_IMAGING_COLUMN:
		return imaging_bytes(x, (uint32_t)a[d->p[0]].u, (uint32_t)a[d->p[1]].u,
				     (uint32_t)a[d->p[2]].u, d->helper == CAP_SIZE_IMAGING_COLUMN, why);
	case CAP_SIZE_MAP1_SIZE:
		return times(map_points_k(a[d->p[0]].i, a[d->p[1]].i, a[d->p[2]].i, INT32_MAX, 1),
			     d->elem_bytes);
	case CAP_SIZE_MAP2_SIZE:
		return times(map_points_k(a[d->p[0]].i, a[d->p[1]].i, a[d->p[2]].i, a[d->p[3]].i,
					  a[d->p[4]].i), d->elem_bytes);
	case CAP_SIZE_STRIDE_ARRAY:
		n = count_of(d, a);
		if (n <= 0)
			return 0;
		if (a[d->p[1]].i < 0) {
			*why = "COMPSIZE(count,stride): negative stride";
			return SIZE_MAX;
		}
		return (size_t)((uint64_t)(n - 1) * (uint64_t)a[d->p[1]].i) + d->elem_bytes;
	case CAP_SIZE_FOG_FUNC:
		return times(cap_size_fog_func(x, why), d->elem_bytes);
	case CAP_SIZE_PATH_NAMES:
		return cap_size_path_names(a[d->p[0]].i, (uint32_t)a[d->p[1]].u,
					   (const void *)(uintptr_t)a[d->p[2]].u, why);
	case CAP_SIZE_PATH_TRANSFORMS: {
		size_t k = cap_size_path_transform((uint32_t)a[d->p[1]].u, why);
		n = count_of(d, a);
		return k == SIZE_MAX ? k : n > 0 ? (size_t)n * k * d->elem_bytes : 0;
	}
	case CAP_SIZE_PATH_TRANSFORM:
		return times(cap_size_path_transform((uint32_t)a[d->p[0]].u, why), d->elem_bytes);
	case CAP_SIZE_PATH_COMMANDS:
	case CAP_SIZE_PATH_COORDS:
	case CAP_SIZE_PATH_DASHES:
		return times(cap_size_path_param(x, (uint32_t)a[d->p[0]].u,
						 d->helper == CAP_SIZE_PATH_COMMANDS ? GL_PATH_COMMAND_COUNT_NV :
						 d->helper == CAP_SIZE_PATH_COORDS ? GL_PATH_COORD_COUNT_NV :
						 GL_PATH_DASH_ARRAY_COUNT_NV, why), d->elem_bytes);
	case CAP_SIZE_COMPRESSED_TEXTURE_EXT:
	case CAP_SIZE_COMPRESSED_MULTITEX_EXT:
		return cap_size_compressed_ext(x, d->helper == CAP_SIZE_COMPRESSED_MULTITEX_EXT,
					       (uint32_t)a[d->p[0]].u, (uint32_t)a[d->p[1]].u,
					       a[d->p[2]].i, why);
	case CAP_SIZE_NAMED_PROGRAM_STRING:
		return cap_size_program_string(x, false, (uint32_t)a[d->p[0]].u, (uint32_t)a[d->p[1]].u,
					       (uint32_t)a[d->p[2]].u, why);
	case CAP_SIZE_PROGRAM_STRING_NV:
		return cap_size_program_string(x, true, (uint32_t)a[d->p[0]].u, 0,
					       (uint32_t)a[d->p[1]].u, why);
	default:
		*why = "no size helper";
		return SIZE_MAX;
	}
}
