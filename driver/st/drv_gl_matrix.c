/*
 * drv_gl_matrix.c - the fixed-function matrix stacks of compatibility
 * contexts (GL 4.6 compatibility profile 12.1.1 "Matrices": glMatrixMode,
 * glLoad / glMult, glPush / glPopMatrix, glOrtho, glFrustum, glTranslate,
 * glScale, glRotate) and the matrix uniforms a GLSL program reads from
 * them (gl_ModelViewProjectionMatrix ..., drv_gl_ff_constants).
 *
 * The arithmetic follows Mesa's src/mesa/math/m_matrix.c operation by
 * operation in single precision (glOrtho takes doubles and converts them to
 * float first, as _mesa_Ortho does), so that a capture on llvmpipe replays
 * with bit-identical positions.  Assumption: inverses (used only by
 * gl_*Inverse* and gl_NormalMatrix) may differ from Mesa's Gaussian
 * elimination in the last bit.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "drv_gl_int.h"

static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };

void drv_gl_ff_stack_init(struct drv_ff_stack *s, unsigned max_depth)
{
	s->top = 0;
	s->max_depth = max_depth;
	memcpy(s->m[0], identity, sizeof identity);
}

/* ---- matrices ------------------------------------------------------------------ */

static struct drv_ff_stack *current_stack(struct drv_context *ctx)
{
	switch (ctx->ff.matrix_mode) {
	case GL_PROJECTION: return &ctx->ff.projection;
	case GL_TEXTURE: return &ctx->ff.texture[ctx->ff.active_texture];
	default: return &ctx->ff.modelview;
	}
}

static float *top_of(struct drv_context *ctx)
{
	struct drv_ff_stack *s = current_stack(ctx);
	ctx->ff.version++;
	return s->m[s->top];
}

/* product = a * b, column-major (Mesa matmul4; product may alias a). */
static void matmul4(float *product, const float *a, const float *b)
{
#define A(row, col) a[(col) * 4 + (row)]
#define B(row, col) b[(col) * 4 + (row)]
#define P(row, col) product[(col) * 4 + (row)]
	for (int i = 0; i < 4; i++) {
		const float ai0 = A(i, 0), ai1 = A(i, 1), ai2 = A(i, 2), ai3 = A(i, 3);
		P(i, 0) = ai0 * B(0, 0) + ai1 * B(1, 0) + ai2 * B(2, 0) + ai3 * B(3, 0);
		P(i, 1) = ai0 * B(0, 1) + ai1 * B(1, 1) + ai2 * B(2, 1) + ai3 * B(3, 1);
		P(i, 2) = ai0 * B(0, 2) + ai1 * B(1, 2) + ai2 * B(2, 2) + ai3 * B(3, 2);
		P(i, 3) = ai0 * B(0, 3) + ai1 * B(1, 3) + ai2 * B(2, 3) + ai3 * B(3, 3);
	}
#undef A
#undef B
#undef P
}

static void mult_top(struct drv_context *ctx, const float *m)
{
	float *t = top_of(ctx);
	matmul4(t, t, m);
}

void drv_gl_MatrixMode(GLenum mode)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (!ctx)
		return;
	if (mode != GL_MODELVIEW && mode != GL_PROJECTION && mode != GL_TEXTURE) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->ff.matrix_mode = mode;
}

void drv_gl_LoadIdentity(void)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (ctx)
		memcpy(top_of(ctx), identity, sizeof identity);
}

void drv_gl_LoadMatrixf(const GLfloat *m)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (ctx && m)
		memcpy(top_of(ctx), m, 16 * sizeof *m);
}

void drv_gl_LoadMatrixd(const GLdouble *m)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (!ctx || !m)
		return;
	float *t = top_of(ctx);
	for (int i = 0; i < 16; i++)
		t[i] = (float)m[i];
}

void drv_gl_MultMatrixf(const GLfloat *m)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (ctx && m)
		mult_top(ctx, m);
}

void drv_gl_MultMatrixd(const GLdouble *m)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	float f[16];
	if (!ctx || !m)
		return;
	for (int i = 0; i < 16; i++)
		f[i] = (float)m[i];
	mult_top(ctx, f);
}

static void transpose(float *out, const float *m)
{
	for (int c = 0; c < 4; c++)
		for (int r = 0; r < 4; r++)
			out[c * 4 + r] = m[r * 4 + c];
}

void drv_gl_LoadTransposeMatrixf(const GLfloat *m)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (ctx && m)
		transpose(top_of(ctx), m);
}

void drv_gl_MultTransposeMatrixf(const GLfloat *m)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	float t[16];
	if (!ctx || !m)
		return;
	transpose(t, m);
	mult_top(ctx, t);
}

void drv_gl_PushMatrix(void)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (!ctx)
		return;
	struct drv_ff_stack *s = current_stack(ctx);
	if (s->top + 1 >= s->max_depth) {
		drv_gl_error(ctx, GL_STACK_OVERFLOW);
		return;
	}
	memcpy(s->m[s->top + 1], s->m[s->top], sizeof s->m[0]);
	s->top++;
}

void drv_gl_PopMatrix(void)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (!ctx)
		return;
	struct drv_ff_stack *s = current_stack(ctx);
	if (!s->top) {
		drv_gl_error(ctx, GL_STACK_UNDERFLOW);
		return;
	}
	s->top--;
	ctx->ff.version++;
}

/* Mesa _math_float_ortho / _math_matrix_frustum: the operands are floats. */
void drv_gl_Ortho(GLdouble left_d, GLdouble right_d, GLdouble bottom_d, GLdouble top_d,
		  GLdouble near_d, GLdouble far_d)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	float l = (float)left_d, r = (float)right_d, b = (float)bottom_d, t = (float)top_d;
	float n = (float)near_d, f = (float)far_d, m[16];

	if (!ctx)
		return;
	if (l == r || b == t || n == f) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
#define M(row, col) m[(col) * 4 + (row)]
	memcpy(m, identity, sizeof m);
	M(0, 0) = 2.0F / (r - l);
	M(0, 3) = -(r + l) / (r - l);
	M(1, 1) = 2.0F / (t - b);
	M(1, 3) = -(t + b) / (t - b);
	M(2, 2) = -2.0F / (f - n);
	M(2, 3) = -(f + n) / (f - n);
	mult_top(ctx, m);
}

void drv_gl_Frustum(GLdouble left_d, GLdouble right_d, GLdouble bottom_d, GLdouble top_d,
		    GLdouble near_d, GLdouble far_d)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	float l = (float)left_d, r = (float)right_d, b = (float)bottom_d, t = (float)top_d;
	float n = (float)near_d, f = (float)far_d, m[16];

	if (!ctx)
		return;
	if (n <= 0.0F || f <= 0.0F || n == f || l == r || t == b) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	memset(m, 0, sizeof m);
	M(0, 0) = (2.0F * n) / (r - l);
	M(0, 2) = (r + l) / (r - l);
	M(1, 1) = (2.0F * n) / (t - b);
	M(1, 2) = (t + b) / (t - b);
	M(2, 2) = -(f + n) / (f - n);
	M(2, 3) = -(2.0F * f * n) / (f - n);
	M(3, 2) = -1.0F;
	mult_top(ctx, m);
}

/* Mesa _math_matrix_translate / _math_matrix_scale work on the top in place. */
static void translate(struct drv_context *ctx, float x, float y, float z)
{
	float *m = top_of(ctx);
	m[12] = m[0] * x + m[4] * y + m[8] * z + m[12];
	m[13] = m[1] * x + m[5] * y + m[9] * z + m[13];
	m[14] = m[2] * x + m[6] * y + m[10] * z + m[14];
	m[15] = m[3] * x + m[7] * y + m[11] * z + m[15];
}

static void scale(struct drv_context *ctx, float x, float y, float z)
{
	float *m = top_of(ctx);
	for (int r = 0; r < 4; r++) {
		m[r] *= x;
		m[4 + r] *= y;
		m[8 + r] *= z;
	}
}

/* Mesa _math_matrix_rotate, axis-aligned shortcuts included (they give
 * exact zeros where the general formula would not). */
static void rotate(struct drv_context *ctx, float angle, float x, float y, float z)
{
	float s = sinf((float)(angle * M_PI / 180.0)), c = cosf((float)(angle * M_PI / 180.0));
	float m[16];
	bool optimized = false;

	memcpy(m, identity, sizeof m);
	if (x == 0.0F && y == 0.0F && z != 0.0F) {
		optimized = true;
		M(0, 0) = c;
		M(1, 1) = c;
		M(0, 1) = z < 0.0F ? s : -s;
		M(1, 0) = z < 0.0F ? -s : s;
	} else if (x == 0.0F && y != 0.0F && z == 0.0F) {
		optimized = true;
		M(0, 0) = c;
		M(2, 2) = c;
		M(0, 2) = y < 0.0F ? -s : s;
		M(2, 0) = y < 0.0F ? s : -s;
	} else if (x != 0.0F && y == 0.0F && z == 0.0F) {
		optimized = true;
		M(1, 1) = c;
		M(2, 2) = c;
		M(1, 2) = x < 0.0F ? s : -s;
		M(2, 1) = x < 0.0F ? -s : s;
	}
	if (!optimized) {
		const float mag = sqrtf(x * x + y * y + z * z);
		if (mag <= 1.0e-4F)
			return;
		x /= mag;
		y /= mag;
		z /= mag;
		const float one_c = 1.0F - c;
		M(0, 0) = (one_c * x * x) + c;
		M(0, 1) = (one_c * (x * y)) - z * s;
		M(0, 2) = (one_c * (z * x)) + y * s;
		M(1, 0) = (one_c * (x * y)) + z * s;
		M(1, 1) = (one_c * y * y) + c;
		M(1, 2) = (one_c * (y * z)) - x * s;
		M(2, 0) = (one_c * (z * x)) - y * s;
		M(2, 1) = (one_c * (y * z)) + x * s;
		M(2, 2) = (one_c * z * z) + c;
	}
#undef M
	mult_top(ctx, m);
}

void drv_gl_Translatef(GLfloat x, GLfloat y, GLfloat z)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (ctx)
		translate(ctx, x, y, z);
}

void drv_gl_Translated(GLdouble x, GLdouble y, GLdouble z)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (ctx)
		translate(ctx, (float)x, (float)y, (float)z);
}

void drv_gl_Scalef(GLfloat x, GLfloat y, GLfloat z)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (ctx)
		scale(ctx, x, y, z);
}

void drv_gl_Scaled(GLdouble x, GLdouble y, GLdouble z)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (ctx)
		scale(ctx, (float)x, (float)y, (float)z);
}

void drv_gl_Rotatef(GLfloat angle, GLfloat x, GLfloat y, GLfloat z)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (ctx)
		rotate(ctx, angle, x, y, z);
}

void drv_gl_Rotated(GLdouble angle, GLdouble x, GLdouble y, GLdouble z)
{
	struct drv_context *ctx = drv_gl_compat_ctx();
	if (ctx)
		rotate(ctx, (float)angle, (float)x, (float)y, (float)z);
}

/* The minor of column-major `m` without row `row` and column `col`: the
 * determinant of the 3x3 rest, in double precision. */
static double minor3(const float *m, int row, int col)
{
	double a[3][3];

	for (int c = 0, cc = 0; c < 4; c++) {
		if (c == col)
			continue;
		for (int r = 0, rr = 0; r < 4; r++)
			if (r != row)
				a[rr++][cc] = m[c * 4 + r];
		cc++;
	}
	return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
	       a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
	       a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

/* m^-1 as the adjugate over the determinant (double precision, rounded
 * once); identity when singular, as Mesa leaves a singular matrix's
 * inverse. */
static void invert(float *out, const float *m)
{
	double inv[16], det;

	/* Column-major: element (r, c) of the adjugate is the cofactor of
	 * (c, r). */
	for (int c = 0; c < 4; c++)
		for (int r = 0; r < 4; r++)
			inv[c * 4 + r] = ((r + c) & 1 ? -1.0 : 1.0) * minor3(m, c, r);
	det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
	if (det == 0.0) {
		memcpy(out, identity, sizeof identity);
		return;
	}
	for (int i = 0; i < 16; i++)
		out[i] = (float)(inv[i] / det);
}

/* The value of fixed-function uniform `name` (reserved, without "xt_");
 * false when the sim does not model it. */
static bool ff_uniform_value(const struct drv_context *ctx, const char *name, unsigned element,
			     float *out)
{
	static const char *const suffixes[] = { "", "Inverse", "Transpose", "InverseTranspose" };
	const struct drv_ff *ff = &ctx->ff;
	const float *mv = ff->modelview.m[ff->modelview.top];
	const float *p = ff->projection.m[ff->projection.top];
	float m[16], t[16];
	size_t n;

	if (!strcmp(name, "NormalMatrix")) {
		/* upper 3x3 of the inverse transpose of the modelview */
		invert(t, mv);
		transpose(out, t);
		return true;
	}
	if (!strncmp(name, "ModelViewProjectionMatrix", n = 25)) {
		matmul4(m, p, mv);
	} else if (!strncmp(name, "ModelViewMatrix", n = 15)) {
		memcpy(m, mv, sizeof m);
	} else if (!strncmp(name, "ProjectionMatrix", n = 16)) {
		memcpy(m, p, sizeof m);
	} else if (!strncmp(name, "TextureMatrix", n = 13) && element < DRV_FF_TEXTURE_UNITS) {
		const struct drv_ff_stack *s = &ff->texture[element];
		memcpy(m, s->m[s->top], sizeof m);
	} else {
		return false;
	}
	for (unsigned i = 0; i < 4; i++) {
		if (strcmp(name + n, suffixes[i]))
			continue;
		if (i & 1) {
			invert(t, m);
			memcpy(m, t, sizeof m);
		}
		if (i & 2)
			transpose(out, m);
		else
			memcpy(out, m, sizeof m);
		return true;
	}
	return false;
}

bool drv_gl_ff_constants(struct drv_context *ctx, struct drv_program_obj *p)
{
	const struct drv_program *prog = p->prog;
	bool changed = false;

	for (unsigned i = 0; i < prog->n_builtins; i++) {
		const struct drv_builtin_map *bm = &prog->builtins[i];
		if (bm->kind != DRV_BUILTIN_UNIFORM)
			continue;
		size_t rn = strlen(bm->reserved_name);
		for (unsigned k = 0; k < prog->n_uniforms; k++) {
			const struct drv_uniform *u = &prog->uniforms[k];
			if (u->block >= 0 || strncmp(u->name, bm->reserved_name, rn) ||
			    (u->name[rn] && strcmp(u->name + rn, "[0]")))
				continue;
			unsigned cols = u->type == GL_FLOAT_MAT4 ? 4 : u->type == GL_FLOAT_MAT3 ? 3 : 0;
			for (unsigned e = 0; e < u->size; e++) {
				float m[16];
				if (!cols || !ff_uniform_value(ctx, bm->reserved_name + 3, e, m)) {
					static _Thread_local char why[128];
					snprintf(why, sizeof why,
						 "the fixed-function uniform %s (the sim models the matrices only)",
						 bm->glsl_name);
					drv_gl_unsupported(ctx, why);
					return false;
				}
				for (unsigned c = 0; c < cols; c++) {
					uint64_t off = u->offset + (uint64_t)e * u->array_stride +
						       (uint64_t)c * u->matrix_stride;
					if (off + cols * 4 > p->consts_size)
						continue;
					if (memcmp(p->consts + off, &m[c * 4], cols * 4)) {
						memcpy(p->consts + off, &m[c * 4], cols * 4);
						changed = true;
					}
				}
			}
		}
	}
	if (changed)
		p->consts_version++;
	return true;
}
