/*
 * drv_gl_compat.c - the fixed-function state of compatibility contexts
 * that can change what a vertex shader computes (GL 4.6 compatibility
 * profile 10.3.3 "Specifying Arrays for Fixed-Function Attributes", 12.1
 * "Fixed-Function Vertex Transformations"): the client-state arrays
 * (glVertexPointer ...) and the current values (glColor4f ...), and how
 * they reach a GLSL program; the matrix stacks are in drv_gl_matrix.c.
 *
 * The shader compiler turns the compatibility built-ins into reserved
 * names (drv_shader.h drv_builtin_map: gl_Vertex -> input xt_Vertex,
 * gl_ModelViewProjectionMatrix -> uniform xt_ModelViewProjectionMatrix),
 * which get ordinary attribute locations and default-block offsets.  At a
 * draw, drv_gl_vertex_source says which array feeds a location (the
 * fixed-function array for a reserved input, else the generic one) and
 * drv_gl_ff_constants writes the matrices into the program's constant
 * buffer, as Mesa's state tracker loads STATE_MVP_MATRIX and friends into
 * the constant buffer of a program that references them.
 *
 * Drawing without a program in a compatibility context runs built-in
 * vertex and fragment programs generated from the fixed-function state
 * (drv_gl_draw_program, "the fixed-function programs" below), as Mesa's
 * ffvertex_prog.c and ff_fragment_shader.cpp build them.  With no
 * program, transform feedback cannot be active (glBeginTransformFeedback
 * requires one), so the position, the primitive counts of
 * PRIMITIVES_GENERATED and the pixels are what reach anything observable.
 * What the programs do not apply (lighting, other texture units, targets
 * and environments, fog, colour sum) is reported where the pixels are
 * drawn (drv_gl_raster.c unmodelled_state).
 *
 * Fixed-function uniforms other than the matrices (gl_ClipPlane,
 * gl_NormalScale, gl_TextureEnvColor) are reported as not modelled at the
 * draw that needs them.  These entry points raise GL_INVALID_OPERATION in
 * core and ES 2+ contexts, where they do not exist.
 */
#include <stdio.h>
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"

/* Compatibility-profile enums glcorearb.h leaves out (values from gl.xml). */
#define GL_MATRIX_MODE                0x0BA0
#define GL_MODELVIEW_STACK_DEPTH      0x0BA3
#define GL_PROJECTION_STACK_DEPTH     0x0BA4
#define GL_TEXTURE_STACK_DEPTH        0x0BA5
#define GL_MODELVIEW_MATRIX           0x0BA6
#define GL_PROJECTION_MATRIX          0x0BA7
#define GL_TEXTURE_MATRIX             0x0BA8
#define GL_MAX_MODELVIEW_STACK_DEPTH  0x0D36
#define GL_MAX_PROJECTION_STACK_DEPTH 0x0D38
#define GL_MAX_TEXTURE_STACK_DEPTH    0x0D39
#define GL_MAX_TEXTURE_COORDS         0x8871
#define GL_CURRENT_COLOR              0x0B00
#define GL_CLIENT_ACTIVE_TEXTURE      0x84E1
#define GL_NORMAL_ARRAY               0x8075
#define GL_COLOR_ARRAY                0x8076
#define GL_INDEX_ARRAY                0x8077
#define GL_TEXTURE_COORD_ARRAY        0x8078
#define GL_EDGE_FLAG_ARRAY            0x8079
#define GL_FOG_COORD_ARRAY            0x8457
#define GL_SECONDARY_COLOR_ARRAY      0x845E
#define GL_LIGHTING                   0x0B50
#define GL_LIGHT0                     0x4000
#define GL_COLOR_MATERIAL             0x0B57
#define GL_NORMALIZE                  0x0BA1
#define GL_RESCALE_NORMAL             0x803A
#define GL_FOG                        0x0B60
#define GL_ALPHA_TEST                 0x0BC0
#define GL_POINT_SPRITE               0x8861
#define GL_CLAMP_VERTEX_COLOR         0x891A
#define GL_CLAMP_FRAGMENT_COLOR       0x891B
#define GL_FLAT                       0x1D00
#define GL_SMOOTH                     0x1D01
#define GL_SHADE_MODEL                0x0B54

/* The reserved input name of each fixed-function array. */
static const char *const ff_input[DRV_FF_ARRAYS] = {
	"xt_Vertex", "xt_Normal", "xt_Color", "xt_SecondaryColor", "xt_FogCoord",
	"xt_MultiTexCoord0", "xt_MultiTexCoord1", "xt_MultiTexCoord2", "xt_MultiTexCoord3",
	"xt_MultiTexCoord4", "xt_MultiTexCoord5", "xt_MultiTexCoord6", "xt_MultiTexCoord7",
};

static void set_current(struct drv_generic_attrib *g, float x, float y, float z, float w)
{
	float f[4] = { x, y, z, w };
	memcpy(g->v, f, sizeof f);
	g->kind = GL_FLOAT;
}

void drv_gl_ff_init(struct drv_context *ctx)
{
	struct drv_ff *ff = &ctx->ff;

	memset(ff, 0, sizeof *ff);
	ff->matrix_mode = GL_MODELVIEW;
	ff->clamp_vertex_color = GL_TRUE;   /* the initial value (ARB_color_buffer_float) */
	for (unsigned u = 0; u < DRV_FF_TEXTURE_UNITS; u++)
		ff->tex_env_mode[u] = 0x2100;   /* GL_MODULATE (§16.1) */
	ff->shade_model = GL_SMOOTH;
	drv_gl_ff_stack_init(&ff->modelview, DRV_FF_MODELVIEW_DEPTH);
	drv_gl_ff_stack_init(&ff->projection, DRV_FF_PROJECTION_DEPTH);
	for (unsigned u = 0; u < DRV_FF_TEXTURE_UNITS; u++)
		drv_gl_ff_stack_init(&ff->texture[u], DRV_FF_TEXTURE_DEPTH);
	/* GL 4.6 compatibility table 23.7: current normal (0,0,1), color and
	 * texture coordinates (1,1,1,1) / (0,0,0,1), secondary color (0,0,0,1). */
	for (unsigned k = 0; k < DRV_FF_ARRAYS; k++)
		set_current(&ff->current[k], 0, 0, 0, 1);
	set_current(&ff->current[DRV_FF_NORMAL], 0, 0, 1, 1);
	set_current(&ff->current[DRV_FF_COLOR], 1, 1, 1, 1);
	set_current(&ff->current[DRV_FF_FOG_COORD], 0, 0, 0, 1);
	drv_gl_raster_pos_init(ctx);
}

struct drv_context *drv_gl_compat_ctx(void)
{
	struct drv_context *ctx = drv_gl_current();

	if (!ctx)
		return NULL;
	if (ctx->core || (ctx->gles && ctx->major >= 2)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	return ctx;
}

/* ---- client-state arrays ------------------------------------------------------------ */

/* The array a client-state cap names, or -1. */
static int array_of_cap(const struct drv_context *ctx, GLenum cap)
{
	switch (cap) {
	case GL_VERTEX_ARRAY: return DRV_FF_VERTEX;
	case GL_NORMAL_ARRAY: return DRV_FF_NORMAL;
	case GL_COLOR_ARRAY: return DRV_FF_COLOR;
	case GL_SECONDARY_COLOR_ARRAY: return DRV_FF_SECONDARY_COLOR;
	case GL_FOG_COORD_ARRAY: return DRV_FF_FOG_COORD;
	case GL_TEXTURE_COORD_ARRAY: return DRV_FF_TEXCOORD0 + (int)ctx->ff.client_active_texture;
	default: return -1;
	}
}

bool drv_gl_ff_set_client_cap(struct drv_context *ctx, GLenum cap, bool on)
{
	int k = ctx->core || (ctx->gles && ctx->major >= 2) ? -1 : array_of_cap(ctx, cap);
	if (k < 0)
		return false;
	ctx->vao->ff_attrib[k].enabled = on;
	return true;
}

bool drv_gl_ff_client_cap(const struct drv_context *ctx, GLenum cap, bool *on)
{
	int k = ctx->core || (ctx->gles && ctx->major >= 2) ? -1 : array_of_cap(ctx, cap);
	if (k < 0)
		return false;
	*on = ctx->vao->ff_attrib[k].enabled;
	return true;
}

bool drv_gl_ff_cap_invalid(const struct drv_context *ctx, GLenum cap)
{
	if (!ctx->core && !(ctx->gles && ctx->major >= 2))
		return false;
	switch (cap) {
	case GL_VERTEX_ARRAY: case GL_NORMAL_ARRAY: case GL_COLOR_ARRAY: case GL_INDEX_ARRAY:
	case GL_TEXTURE_COORD_ARRAY: case GL_EDGE_FLAG_ARRAY: case GL_FOG_COORD_ARRAY:
	case GL_SECONDARY_COLOR_ARRAY:
	case GL_LIGHTING: case GL_COLOR_MATERIAL: case GL_NORMALIZE: case GL_RESCALE_NORMAL:
	case GL_FOG: case GL_ALPHA_TEST: case GL_TEXTURE_1D: case GL_TEXTURE_2D:
	case GL_POINT_SPRITE:
		return true;
	default:
		return cap >= GL_LIGHT0 && cap < GL_LIGHT0 + 8;
	}
}

static void client_state(GLenum array, bool on)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (!ctx)
		return;
	/* Color-index and edge-flag arrays feed nothing a shader reads. */
	if (array == GL_INDEX_ARRAY || array == GL_EDGE_FLAG_ARRAY)
		return;
	if (!drv_gl_ff_set_client_cap(ctx, array, on))
		drv_gl_error(ctx, GL_INVALID_ENUM);
}

void drv_gl_EnableClientState(GLenum array)
{
	client_state(array, true);
}

void drv_gl_DisableClientState(GLenum array)
{
	client_state(array, false);
}

void drv_gl_ClientActiveTexture(GLenum texture)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (!ctx)
		return;
	if (texture < GL_TEXTURE0 || texture >= GL_TEXTURE0 + DRV_FF_TEXTURE_UNITS) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->ff.client_active_texture = texture - GL_TEXTURE0;
}

static GLsizei elem_bytes(GLint size, GLenum type)
{
	unsigned n = size == GL_BGRA ? 4 : (unsigned)size;

	switch (type) {
	case GL_BYTE: case GL_UNSIGNED_BYTE: return (GLsizei)n;
	case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: return (GLsizei)(2 * n);
	case GL_DOUBLE: return (GLsizei)(8 * n);
	case GL_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_2_10_10_10_REV: return 4;
	default: return (GLsizei)(4 * n);
	}
}

/*
 * gl*Pointer of array k.  `types` lists the types the command accepts
 * (GL 4.6 compatibility table 10.3), sizes min_size..max_size (BGRA where
 * bgra), integer types normalized where `normalize` (colors, normals).
 */
static void ff_pointer(enum drv_ff_array k, GLint size, GLenum type, GLsizei stride,
		       const void *pointer, const GLenum *types, GLint min_size, GLint max_size,
		       bool bgra, bool normalize)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	bool type_ok = false;

	if (!ctx)
		return;
	for (const GLenum *t = types; *t; t++)
		type_ok |= *t == type;
	if (!type_ok) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (stride < 0 || (!(bgra && size == GL_BGRA) && (size < min_size || size > max_size))) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (ctx->vao != &ctx->default_vao && !ctx->array_buffer && pointer) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	struct drv_vattrib *a = &ctx->vao->ff_attrib[k];
	struct drv_vbinding *b = &ctx->vao->ff_binding[k];
	a->size = size;
	a->type = type;
	a->normalized = normalize && type != GL_FLOAT && type != GL_DOUBLE && type != GL_HALF_FLOAT;
	a->integer = false;
	a->doubles = false;   /* GL_DOUBLE arrays are converted to float by the GL */
	a->relative_offset = 0;
	a->binding = k;
	drv_gl_buffer_bind_slot(ctx, &b->buffer, ctx->array_buffer);
	b->client_ptr = ctx->array_buffer ? NULL : pointer;
	b->offset = ctx->array_buffer ? (int64_t)(uintptr_t)pointer : 0;
	b->stride = stride ? stride : elem_bytes(size, type);
	b->divisor = 0;
}

void drv_gl_VertexPointer(GLint size, GLenum type, GLsizei stride, const void *pointer)
{
	static const GLenum t[] = { GL_SHORT, GL_INT, GL_FLOAT, GL_HALF_FLOAT, GL_DOUBLE,
				    GL_INT_2_10_10_10_REV, GL_UNSIGNED_INT_2_10_10_10_REV, 0 };
	ff_pointer(DRV_FF_VERTEX, size, type, stride, pointer, t, 2, 4, false, false);
}

void drv_gl_NormalPointer(GLenum type, GLsizei stride, const void *pointer)
{
	static const GLenum t[] = { GL_BYTE, GL_SHORT, GL_INT, GL_FLOAT, GL_HALF_FLOAT, GL_DOUBLE,
				    GL_INT_2_10_10_10_REV, GL_UNSIGNED_INT_2_10_10_10_REV, 0 };
	ff_pointer(DRV_FF_NORMAL, 3, type, stride, pointer, t, 3, 3, false, true);
}

static const GLenum color_types[] = { GL_BYTE, GL_UNSIGNED_BYTE, GL_SHORT, GL_UNSIGNED_SHORT,
				      GL_INT, GL_UNSIGNED_INT, GL_FLOAT, GL_HALF_FLOAT, GL_DOUBLE,
				      GL_INT_2_10_10_10_REV, GL_UNSIGNED_INT_2_10_10_10_REV, 0 };

void drv_gl_ColorPointer(GLint size, GLenum type, GLsizei stride, const void *pointer)
{
	ff_pointer(DRV_FF_COLOR, size, type, stride, pointer, color_types, 3, 4, true, true);
}

void drv_gl_SecondaryColorPointer(GLint size, GLenum type, GLsizei stride, const void *pointer)
{
	ff_pointer(DRV_FF_SECONDARY_COLOR, size, type, stride, pointer, color_types, 3, 3, true, true);
}

void drv_gl_FogCoordPointer(GLenum type, GLsizei stride, const void *pointer)
{
	static const GLenum t[] = { GL_FLOAT, GL_HALF_FLOAT, GL_DOUBLE, 0 };
	ff_pointer(DRV_FF_FOG_COORD, 1, type, stride, pointer, t, 1, 1, false, false);
}

void drv_gl_TexCoordPointer(GLint size, GLenum type, GLsizei stride, const void *pointer)
{
	static const GLenum t[] = { GL_SHORT, GL_INT, GL_FLOAT, GL_HALF_FLOAT, GL_DOUBLE,
				    GL_INT_2_10_10_10_REV, GL_UNSIGNED_INT_2_10_10_10_REV, 0 };
	struct drv_context *ctx = drv_gl_current();
	if (!ctx)
		return;
	ff_pointer((enum drv_ff_array)(DRV_FF_TEXCOORD0 + ctx->ff.client_active_texture), size,
		   type, stride, pointer, t, 1, 4, false, false);
}

/* ---- current values ------------------------------------------------------------------ */

static void current(enum drv_ff_array k, float x, float y, float z, float w)
{
	struct drv_context *ctx = drv_gl_current();
	/* In ES 2+ and core these do not exist; ES 1 has them. */
	if (!ctx || ctx->core || (ctx->gles && ctx->major >= 2)) {
		if (ctx)
			drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	set_current(&ctx->ff.current[k], x, y, z, w);
}

void drv_gl_Color3f(GLfloat r, GLfloat g, GLfloat b) { current(DRV_FF_COLOR, r, g, b, 1.0f); }
void drv_gl_Color4f(GLfloat r, GLfloat g, GLfloat b, GLfloat a) { current(DRV_FF_COLOR, r, g, b, a); }

void drv_gl_Color4fv(const GLfloat *v)
{
	if (v)
		current(DRV_FF_COLOR, v[0], v[1], v[2], v[3]);
}

/* Mesa UBYTE_TO_FLOAT: u / 255.0F. */
void drv_gl_Color4ub(GLubyte r, GLubyte g, GLubyte b, GLubyte a)
{
	current(DRV_FF_COLOR, r / 255.0F, g / 255.0F, b / 255.0F, a / 255.0F);
}

void drv_gl_SecondaryColor3f(GLfloat r, GLfloat g, GLfloat b)
{
	current(DRV_FF_SECONDARY_COLOR, r, g, b, 1.0f);
}

void drv_gl_Normal3f(GLfloat x, GLfloat y, GLfloat z) { current(DRV_FF_NORMAL, x, y, z, 1.0f); }
void drv_gl_FogCoordf(GLfloat f) { current(DRV_FF_FOG_COORD, f, 0, 0, 1.0f); }
void drv_gl_TexCoord2f(GLfloat s, GLfloat t) { current(DRV_FF_TEXCOORD0, s, t, 0, 1.0f); }

void drv_gl_TexCoord4f(GLfloat s, GLfloat t, GLfloat r, GLfloat q)
{
	current(DRV_FF_TEXCOORD0, s, t, r, q);
}

static void multi_tex_coord(GLenum target, float s, float t, float r, float q)
{
	struct drv_context *ctx = drv_gl_current();
	if (ctx && (target < GL_TEXTURE0 || target >= GL_TEXTURE0 + DRV_FF_TEXTURE_UNITS)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	current((enum drv_ff_array)(DRV_FF_TEXCOORD0 + (target - GL_TEXTURE0)), s, t, r, q);
}

void drv_gl_MultiTexCoord2f(GLenum target, GLfloat s, GLfloat t)
{
	multi_tex_coord(target, s, t, 0, 1.0f);
}

void drv_gl_MultiTexCoord4f(GLenum target, GLfloat s, GLfloat t, GLfloat r, GLfloat q)
{
	multi_tex_coord(target, s, t, r, q);
}

/* ---- queries ------------------------------------------------------------------------ */

unsigned drv_gl_ff_get(struct drv_context *ctx, GLenum pname, double *v)
{
	struct drv_ff *ff = &ctx->ff;
	const struct drv_ff_stack *s = NULL;

	if (ctx->core || (ctx->gles && ctx->major >= 2))
		return 0;
	switch (pname) {
	case GL_MATRIX_MODE: v[0] = ff->matrix_mode; return 1;
	case GL_CLAMP_VERTEX_COLOR: v[0] = ff->clamp_vertex_color; return !ctx->gles;
	case GL_SHADE_MODEL: v[0] = ff->shade_model; return 1;
	case GL_CLIENT_ACTIVE_TEXTURE: v[0] = GL_TEXTURE0 + ff->client_active_texture; return 1;
	case GL_MAX_TEXTURE_COORDS: v[0] = DRV_FF_TEXTURE_UNITS; return 1;
	case GL_MODELVIEW_STACK_DEPTH: v[0] = ff->modelview.top + 1; return 1;
	case GL_PROJECTION_STACK_DEPTH: v[0] = ff->projection.top + 1; return 1;
	case GL_TEXTURE_STACK_DEPTH: v[0] = ff->texture[ff->active_texture].top + 1; return 1;
	case GL_MAX_MODELVIEW_STACK_DEPTH: v[0] = DRV_FF_MODELVIEW_DEPTH; return 1;
	case GL_MAX_PROJECTION_STACK_DEPTH: v[0] = DRV_FF_PROJECTION_DEPTH; return 1;
	case GL_MAX_TEXTURE_STACK_DEPTH: v[0] = DRV_FF_TEXTURE_DEPTH; return 1;
	case GL_CURRENT_COLOR: {
		float f[4];
		memcpy(f, ff->current[DRV_FF_COLOR].v, sizeof f);
		for (int i = 0; i < 4; i++)
			v[i] = f[i];
		return 4;
	}
	case GL_MODELVIEW_MATRIX: s = &ff->modelview; break;
	case GL_PROJECTION_MATRIX: s = &ff->projection; break;
	case GL_TEXTURE_MATRIX: s = &ff->texture[ff->active_texture]; break;
	default: {
		bool on;
		if (drv_gl_ff_client_cap(ctx, pname, &on)) {
			v[0] = on;
			return 1;
		}
		return drv_gl_raster_pos_get(ctx, pname, v);
	}
	}
	for (int i = 0; i < 16; i++)
		v[i] = s->m[s->top][i];
	return 16;
}

/* ---- what a draw reads -------------------------------------------------------------- */

/* The fixed-function array that feeds vertex input location loc of prog, or -1. */
static int ff_array_at(const struct drv_program *prog, unsigned loc)
{
	for (unsigned i = 0; prog && i < prog->n_builtins; i++) {
		const struct drv_builtin_map *m = &prog->builtins[i];
		if (m->kind != DRV_BUILTIN_ATTRIB || m->stage != DRV_STAGE_VERTEX)
			continue;
		for (unsigned k = 0; k < prog->n_attribs; k++) {
			const struct drv_attrib *a = &prog->attribs[k];
			if (a->location != loc || strcmp(a->name, m->reserved_name))
				continue;
			for (int f = 0; f < DRV_FF_ARRAYS; f++)
				if (!strcmp(ff_input[f], m->reserved_name))
					return f;
		}
	}
	return -1;
}

/* Whether some attribute of prog other than a reserved input uses location loc. */
static bool user_attrib_at(const struct drv_program *prog, unsigned loc)
{
	for (unsigned k = 0; prog && k < prog->n_attribs; k++) {
		const struct drv_attrib *a = &prog->attribs[k];
		if (loc >= a->location && loc < a->location + a->locations &&
		    strncmp(a->name, "xt_", 3))
			return true;
	}
	return false;
}

void drv_gl_vertex_source(const struct drv_context *ctx, const struct drv_program *prog,
			  unsigned loc, struct drv_vsource *out)
{
	const struct drv_vao *v = ctx->vao;
	int f = ctx->core || ctx->gles || !prog || !prog->n_builtins ? -1 : ff_array_at(prog, loc);

	if (f < 0) {
		out->a = &v->attrib[loc];
		out->b = &v->binding[v->attrib[loc].binding];
		out->current = &ctx->generic[loc];
		return;
	}
	/* Compatibility profile 10.2: generic attribute 0 is gl_Vertex; an
	 * enabled generic array 0 wins over the vertex array (Mesa's
	 * ATTRIBUTE_MAP_MODE_POSITION / GENERIC0 rule) unless a user attribute
	 * occupies location 0. */
	if (f == DRV_FF_VERTEX && !v->ff_attrib[f].enabled && v->attrib[0].enabled &&
	    !user_attrib_at(prog, 0)) {
		out->a = &v->attrib[0];
		out->b = &v->binding[v->attrib[0].binding];
		out->current = &ctx->generic[0];
		return;
	}
	out->a = &v->ff_attrib[f];
	out->b = &v->ff_binding[f];
	out->current = &ctx->ff.current[f];
}

/* ---- the fixed-function programs ------------------------------------------------ */

/*
 * Drawing without a program in a compatibility context runs GL's
 * fixed-function vertex and fragment processing, which the driver
 * compiles, as Mesa's state tracker does, into a vertex and a fragment
 * shader for the state in use (enum drv_ff_program):
 *
 * - vertex processing without lighting, texture coordinate generation or
 *   fog (GL 4.6 compatibility §12.2): the position through the modelview
 *   and projection matrices, the primary colour as it is (the lighting-off
 *   path of §12.2.1; clamped to [0, 1] with GL_CLAMP_VERTEX_COLOR, as every
 *   compatibility vertex shader's colours, drv_glsl_translate.c), texture
 *   coordinates 0 through texture matrix 0 when unit 0 textures (as a
 *   varying of its own: the compiler takes no array inputs, gl_TexCoord[],
 *   in fragment shaders yet);
 * - fragment processing without colour sum or fog (§16): the interpolated
 *   primary colour, or with a 2D texture of base format RGBA enabled on
 *   unit 0 alone, the texel at (s / q, t / q) combined by the unit's
 *   texture environment (table 16.1, RGBA row): GL_REPLACE Cs, As;
 *   GL_MODULATE Cf Cs, Af As.
 *
 * Everything else (lighting, other units, targets, formats and
 * environments, fog, colour sum) is reported by name for the pixels
 * (drv_gl_raster.c, drv_gl_ff_fragment_unmodelled); the vertex processing
 * is right regardless, so TF and queries are.
 */
/* The sources of program k with the colour smooth or `flat`
 * (glShadeModel: GLSL 1.30's flat varying, clamped as the colour outputs
 * are; gl_FrontColor is written as well, so that the state tracker sees
 * the colour outputs, drv_gl_vertex_color_clamp_ok). */
static void ff_sources(enum drv_ff_program k, bool flat, char *vs, size_t vs_size, char *fs, size_t fs_size)
{
	bool tex = k != DRV_FF_PROG_COLOR;
	const char *io_out = flat ? "out" : "varying", *io_in = flat ? "in" : "varying";
	const char *color = flat ? "ff_color" : "gl_Color";
	const char *texel = "texture2D(ff_texture0, ff_texcoord0.st / ff_texcoord0.q)";

	snprintf(vs, vs_size,
		 "#version %s\n%s%s%s%s"
		 "void main() {\n"
		 "  gl_Position = ftransform(); gl_FrontColor = gl_Color;\n%s%s"
		 "}\n",
		 flat ? "130" : "110", flat ? "flat out vec4 ff_color;\n" : "", tex ? io_out : "",
		 tex ? " vec4 ff_texcoord0;" : "", tex ? "\n" : "",
		 flat ? "  ff_color = clamp(gl_Color, 0.0, 1.0);\n" : "",
		 tex ? "  ff_texcoord0 = gl_TextureMatrix[0] * gl_MultiTexCoord0;\n" : "");
	snprintf(fs, fs_size,
		 "#version %s\n%s%s%s%s%s"
		 "void main() { gl_FragColor = %s%s%s; }\n",
		 flat ? "130" : "110", flat ? "flat in vec4 ff_color;\n" : "",
		 tex ? "uniform sampler2D ff_texture0;\n" : "", tex ? io_in : "", tex ? " vec4 ff_texcoord0;" : "",
		 tex ? "\n" : "",
		 k == DRV_FF_PROG_TEX0_REPLACE ? "" : color, k == DRV_FF_PROG_TEX0_MODULATE ? " * " : "",
		 tex ? texel : "");
}

static void ff_program_free(struct drv_context *ctx, struct drv_program_obj *p)
{
	if (!p)
		return;
	drv_program_destroy(p->prog);
	drv_pipe_shader_release(ctx->screen->hw, &p->shader);
	xt_free(p->consts);
	xt_free(p->log);
	xt_free(p);
}

static struct drv_program_obj *ff_program_build(struct drv_context *ctx, enum drv_ff_program k, bool flat)
{
	struct drv_program_desc d = { 0 };
	struct drv_program_obj *p = xt_calloc(1, sizeof *p);
	struct xt_err err = { 0 };
	char vs[512], fs[512];

	ff_sources(k, flat, vs, sizeof vs, fs, sizeof fs);
	d.source[DRV_STAGE_VERTEX] = vs;
	d.source[DRV_STAGE_FRAGMENT] = fs;
	if (!p || drv_program_create(&d, &p->prog, &err) != XT_OK) {
		xt_free(p);
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return NULL;
	}
	if (!p->prog->linked) {
		/* A compiler defect, not the application's: say so by name. */
		ff_program_free(ctx, p);
		drv_gl_unsupported(ctx, "drawing without a program: the built-in fixed-function "
				   "program does not compile");
		return NULL;
	}
	p->is_program = true;
	p->linked = true;
	/* zeroed: ff_texture0 samples unit 0 */
	p->consts_size = (p->prog->const_buffer_size + 15u) & ~15u;
	p->consts = xt_calloc(1, p->consts_size ? p->consts_size : 16);
	if (!p->consts || !drv_pipe_shader_upload(ctx->screen->hw, &p->shader, p->prog)) {
		ff_program_free(ctx, p);
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return NULL;
	}
	return p;
}

/* The texture target unit u textures with: the highest-priority one
 * enabled (§16.1: cube map, 3D, 2D, 1D), 0 when none is. */
static unsigned tex_target(const struct drv_ff *ff, unsigned u)
{
	unsigned e = ff->tex_enabled[u];
	return e & DRV_FF_TEX_CUBE ? DRV_FF_TEX_CUBE : e & DRV_FF_TEX_3D ? DRV_FF_TEX_3D :
	       e & DRV_FF_TEX_2D ? DRV_FF_TEX_2D : e & DRV_FF_TEX_1D ? DRV_FF_TEX_1D : 0;
}

static bool rgba_format(GLenum f)
{
	switch (f) {
	case GL_RGBA: case GL_RGBA8: case GL_RGBA16F: case GL_RGBA32F: case 0x805B /* GL_RGBA16 */:
		return true;
	default:
		return false;
	}
}

/* The program for the current fixed-function state; the state it does not
 * apply is reported (drv_gl_ff_fragment_unmodelled). */
static enum drv_ff_program ff_program_key(const struct drv_ff *ff)
{
	if (tex_target(ff, 0) != DRV_FF_TEX_2D)
		return DRV_FF_PROG_COLOR;
	return ff->tex_env_mode[0] == GL_REPLACE ? DRV_FF_PROG_TEX0_REPLACE
	       : ff->tex_env_mode[0] == 0x2100 /* GL_MODULATE */ ? DRV_FF_PROG_TEX0_MODULATE : DRV_FF_PROG_COLOR;
}

const char *drv_gl_ff_fragment_unmodelled(struct drv_context *ctx, const struct drv_program_obj *p)
{
	const struct drv_ff *ff = &ctx->ff;
	unsigned t = tex_target(ff, 0);

	for (unsigned u = 1; u < DRV_FF_TEXTURE_UNITS; u++)
		if (ff->tex_enabled[u])
			return "were drawn with fixed-function texturing on a unit other than 0, which the "
			       "driver does not apply";
	if (!t)
		return NULL;
	if (t != DRV_FF_TEX_2D)
		return "were drawn with fixed-function texturing of a 1D, 3D or cube-map texture, which "
		       "the driver does not apply";
	if (ff_program_key(ff) == DRV_FF_PROG_COLOR || ff->tex_env_other[0])
		return "were drawn with a fixed-function texture environment other than GL_REPLACE or "
		       "GL_MODULATE, which the driver does not apply";
	if (!rgba_format(drv_gl_fb_texture_format(ctx, GL_TEXTURE_2D, 0)))
		return "were drawn with fixed-function texturing of a texture whose base format is not "
		       "GL_RGBA, which the driver does not apply";
	return NULL;
}

bool drv_gl_ff_texturing(const struct drv_context *ctx)
{
	for (unsigned u = 0; u < DRV_FF_TEXTURE_UNITS; u++)
		if (ctx->ff.tex_enabled[u])
			return true;
	return false;
}

bool drv_gl_is_ff_program(const struct drv_context *ctx, const struct drv_program_obj *p)
{
	for (unsigned k = 0; k < DRV_FF_PROGRAMS && p; k++)
		if (p == ctx->ff.programs[k][0] || p == ctx->ff.programs[k][1])
			return true;
	return false;
}

struct drv_program_obj *drv_gl_draw_program(struct drv_context *ctx)
{
	enum drv_ff_program k;
	bool flat = ctx->ff.shade_model == GL_FLAT;

	if (ctx->program)
		return ctx->program;
	if (ctx->pipeline)
		return drv_gl_pipeline_draw_program(ctx);
	if (ctx->gles || ctx->core)
		return NULL;
	k = ff_program_key(&ctx->ff);
	if (!ctx->ff.programs[k][flat])
		ctx->ff.programs[k][flat] = ff_program_build(ctx, k, flat);
	return ctx->ff.programs[k][flat];
}

void drv_gl_ff_fini(struct drv_context *ctx)
{
	for (unsigned k = 0; k < DRV_FF_PROGRAMS; k++)
		for (unsigned flat = 0; flat < 2; flat++) {
			ff_program_free(ctx, ctx->ff.programs[k][flat]);
			ctx->ff.programs[k][flat] = NULL;
		}
}

/* ---- texturing state (compatibility §16.1) ---------------------------------------- */

static unsigned tex_cap_bit(GLenum cap)
{
	switch (cap) {
	case 0x0DE0 /* GL_TEXTURE_1D */: return DRV_FF_TEX_1D;
	case GL_TEXTURE_2D: return DRV_FF_TEX_2D;
	case GL_TEXTURE_3D: return DRV_FF_TEX_3D;
	case GL_TEXTURE_CUBE_MAP: return DRV_FF_TEX_CUBE;
	default: return 0;
	}
}

bool drv_gl_ff_set_tex_cap(struct drv_context *ctx, GLenum cap, bool on)
{
	unsigned bit = tex_cap_bit(cap), u = ctx->fb.active_unit;

	if (ctx->core || (ctx->gles && ctx->major >= 2) || !bit)
		return false;
	/* the fixed-function units (Mesa: GL_MAX_TEXTURE_UNITS) */
	if (u >= DRV_FF_TEXTURE_UNITS) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return true;
	}
	if (on)
		ctx->ff.tex_enabled[u] |= (uint8_t)bit;
	else
		ctx->ff.tex_enabled[u] &= (uint8_t)~bit;
	return true;
}

bool drv_gl_ff_tex_cap(const struct drv_context *ctx, GLenum cap, bool *on)
{
	unsigned bit = tex_cap_bit(cap), u = ctx->fb.active_unit;

	if (ctx->core || (ctx->gles && ctx->major >= 2) || !bit)
		return false;
	*on = u < DRV_FF_TEXTURE_UNITS && (ctx->ff.tex_enabled[u] & bit);
	return true;
}

/* glTexEnv (§16.1): GL_TEXTURE_ENV_MODE of the active unit is kept; any
 * other value set (the environment colour, GL_COMBINE's operands, the LOD
 * bias, point sprites' coordinate replacement) marks the unit, whose
 * texturing is then reported. */
static void tex_env(GLenum target, GLenum pname, GLint mode)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	unsigned u;

	if (!ctx)
		return;
	u = ctx->fb.active_unit;
	if (target != 0x2300 /* GL_TEXTURE_ENV */ && target != 0x8500 /* GL_TEXTURE_FILTER_CONTROL */ &&
	    target != 0x8861 /* GL_POINT_SPRITE */) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (u >= DRV_FF_TEXTURE_UNITS) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (target != 0x2300 || pname != 0x2200 /* GL_TEXTURE_ENV_MODE */) {
		ctx->ff.tex_env_other[u] = true;
		return;
	}
	switch (mode) {
	case 0x2100 /* GL_MODULATE */: case 0x2101 /* GL_DECAL */: case 0x0BE2 /* GL_BLEND */:
	case GL_REPLACE: case 0x0104 /* GL_ADD */: case 0x8570 /* GL_COMBINE */:
		ctx->ff.tex_env_mode[u] = (GLenum)mode;
		return;
	default:
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
}

void drv_gl_TexEnvi(GLenum target, GLenum pname, GLint param)
{
	tex_env(target, pname, param);
}

void drv_gl_TexEnvf(GLenum target, GLenum pname, GLfloat param)
{
	tex_env(target, pname, (GLint)param);
}

/* ---- flat shading (compatibility §14.6.4 / glShadeModel) ---------------------------- */

/* GL_FLAT: the colour varyings take the provoking vertex's value.  The
 * fixed-function programs have a flat variant (drv_gl_draw_program); the
 * application's programs do not get one (drv_gl_ff_shade_model_unmodelled). */
void drv_gl_ShadeModel(GLenum mode)
{
	struct drv_context *ctx = drv_gl_compat_ctx();

	if (!ctx)
		return;
	if (mode != GL_FLAT && mode != GL_SMOOTH) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->ff.shade_model = mode;
}

const char *drv_gl_ff_shade_model_unmodelled(const struct drv_context *ctx, const struct drv_program_obj *p)
{
	if (ctx->ff.shade_model != GL_FLAT || !p || !p->prog || drv_gl_is_ff_program(ctx, p))
		return NULL;
	/* the colour varyings reach the fragments through gl_Color /
	 * gl_SecondaryColor, or the fixed-function fragment shader of a
	 * program without one */
	for (unsigned i = 0; i < p->prog->n_builtins; i++) {
		const struct drv_builtin_map *m = &p->prog->builtins[i];
		if (m->stage == DRV_STAGE_FRAGMENT &&
		    (!strcmp(m->glsl_name, "gl_Color") || !strcmp(m->glsl_name, "gl_SecondaryColor")))
			return "were drawn with glShadeModel(GL_FLAT), which the driver does not apply to a "
			       "program's colour varyings";
	}
	return NULL;
}

/* ---- vertex colour clamping ------------------------------------------------------------ */

/* glClampColor (ARB_color_buffer_float, GL 3.0): GL_CLAMP_READ_COLOR in
 * every profile, GL_CLAMP_VERTEX_COLOR and GL_CLAMP_FRAGMENT_COLOR in
 * compatibility contexts only (core removed them: GL_INVALID_ENUM, as
 * Mesa's _mesa_ClampColor raises); clamp is GL_TRUE, GL_FALSE or
 * GL_FIXED_ONLY.  Only the vertex colour state changes what transform
 * feedback records (drv_glsl_translate.c, "Vertex colour clamping"). */
void drv_gl_ClampColor(GLenum target, GLenum clamp)
{
	DRV_CTX(ctx);
	bool compat = !ctx->core && !ctx->gles;

	if ((target != GL_CLAMP_READ_COLOR &&
	     (!compat || (target != GL_CLAMP_VERTEX_COLOR && target != GL_CLAMP_FRAGMENT_COLOR))) ||
	    (clamp != GL_TRUE && clamp != GL_FALSE && clamp != GL_FIXED_ONLY)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (target == GL_CLAMP_VERTEX_COLOR)
		ctx->ff.clamp_vertex_color = clamp;
}

static bool writes_vertex_colors(const struct drv_program *prog)
{
	static const char *const colors[] = { "gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor",
					      "gl_BackSecondaryColor" };
	for (unsigned i = 0; prog && i < prog->n_builtins; i++) {
		const struct drv_builtin_map *m = &prog->builtins[i];
		if (m->kind != DRV_BUILTIN_OUTPUT || m->stage == DRV_STAGE_FRAGMENT)
			continue;
		for (size_t k = 0; k < sizeof colors / sizeof colors[0]; k++)
			if (!strcmp(m->glsl_name, colors[k]))
				return true;
	}
	return false;
}

bool drv_gl_vertex_color_clamp_ok(struct drv_context *ctx, const struct drv_program *prog)
{
	if (ctx->core || ctx->gles || ctx->ff.clamp_vertex_color == GL_TRUE || !writes_vertex_colors(prog))
		return true;
	/* GL_FIXED_ONLY clamps while every colour buffer of the draw
	 * framebuffer is fixed-point; the sim's shaders clamp always. */
	drv_gl_unsupported(ctx, ctx->ff.clamp_vertex_color == GL_FALSE ?
			   "unclamped vertex colours (glClampColor(GL_CLAMP_VERTEX_COLOR, GL_FALSE)): "
			   "the sim's shaders always clamp them" :
			   "glClampColor(GL_CLAMP_VERTEX_COLOR, GL_FIXED_ONLY): the sim's shaders always clamp "
			   "vertex colours, whatever the framebuffer's format");
	return false;
}
