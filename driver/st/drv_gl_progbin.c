/*
 * drv_gl_progbin.c - program binaries (GL 4.6 7.5 "Program Binaries",
 * ARB_get_program_binary): glGetProgramBinary / glProgramBinary in the
 * sim's own format, under GL_PROGRAM_BINARY_FORMAT_MESA (the format
 * radeonsi reports; GL_NUM_PROGRAM_BINARY_FORMATS is 1).
 *
 * The binary holds what the link was made from, not its machine code: the
 * shaders' GLSL units or specialized SPIR-V, the TF varyings and mode, the
 * attribute bindings.  glProgramBinary links that again, which the
 * compiler does deterministically, so the program is the one the binary
 * came from, with its uniforms at their initial values (7.5).  A binary
 * of another driver (Mesa's own blobs, as a trace captured on llvmpipe
 * holds) cannot be loaded: the link fails and the call is reported as not
 * modelled, since the capturing driver did load it.
 *
 * Layout (little-endian):
 *
 *   OFFSET  SIZE  MEANING
 *   0       8     magic "XTSIMPB\0"
 *   8       4     format version (1)
 *   12      4     total bytes
 *   16      4     flags: bit 0 = OpenGL ES context
 *   20      4     TF buffer mode (GL_INTERLEAVED_ATTRIBS / GL_SEPARATE_ATTRIBS)
 *   24      ...   records to the end, each:
 *                 4     kind (REC_*)
 *                 4     argument: the stage (units, SPIR-V), the location
 *                       (attribute bindings), 0 (TF varyings)
 *                 4     payload bytes n
 *                 n     payload (strings without NUL), padded to 4 bytes
 */
#include <stdlib.h>
#include <string.h>

#include "drv_gl_int.h"
#include "xt_buf.h"
#include "xt_fault.h"

#define MAGIC "XTSIMPB"          /* with its NUL: 8 bytes */
#define VERSION 1u
#define HEADER_BYTES 24u
#define MAX_UNITS 8u             /* shader objects a program attaches */

enum rec {
	REC_GLSL = 1,            /* a GLSL unit of stage `arg` (the stage's first unit first) */
	REC_SPIRV = 2,           /* the specialized SPIR-V words of stage `arg` */
	REC_TF_VARYING = 3,      /* a glTransformFeedbackVaryings name, in order */
	REC_ATTRIB = 4,          /* a glBindAttribLocation name, location `arg` */
};

/* The binary being written; oom is set by the first failed append. */
struct writer {
	struct xt_buf b;
	bool oom;
};

static void append(struct writer *w, const void *data, size_t n)
{
	if (n && xt_buf_append(&w->b, data, n) != XT_OK)
		w->oom = true;
}

static void put32(struct writer *w, uint32_t v)
{
	uint8_t le[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	append(w, le, 4);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_rec(struct writer *w, enum rec kind, uint32_t arg, const void *data, size_t n)
{
	static const uint8_t pad[3];

	put32(w, kind);
	put32(w, arg);
	put32(w, (uint32_t)n);
	append(w, data, n);
	append(w, pad, (4 - n % 4) % 4);
}

uint8_t *drv_gl_progbin_pack(const struct drv_program_desc *d, uint32_t *bytes)
{
	struct writer w = { XT_BUF_INIT, false };
	uint8_t *out;
	size_t n;

	append(&w, MAGIC, 8);
	put32(&w, VERSION);
	put32(&w, 0);                     /* total, below */
	put32(&w, d->es ? 1u : 0u);
	put32(&w, d->tf_mode);
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		if (d->spirv[s])
			put_rec(&w, REC_SPIRV, (uint32_t)s, d->spirv[s], d->spirv_words[s] * 4);
		if (d->source[s])
			put_rec(&w, REC_GLSL, (uint32_t)s, d->source[s], strlen(d->source[s]));
		for (unsigned k = 0; d->source[s] && k < d->n_more_sources[s]; k++)
			put_rec(&w, REC_GLSL, (uint32_t)s, d->more_sources[s][k], strlen(d->more_sources[s][k]));
	}
	for (unsigned i = 0; i < d->n_tf_varyings; i++)
		put_rec(&w, REC_TF_VARYING, 0, d->tf_varyings[i], strlen(d->tf_varyings[i]));
	for (unsigned i = 0; d->attrib_names && d->attrib_names[i]; i++)
		put_rec(&w, REC_ATTRIB, d->attrib_locations[i], d->attrib_names[i], strlen(d->attrib_names[i]));
	if (w.oom || w.b.len > UINT32_MAX) {
		xt_buf_fini(&w.b);
		return NULL;
	}
	out = xt_buf_detach(&w.b, &n);
	if (out) {
		out[12] = (uint8_t)n;
		out[13] = (uint8_t)(n >> 8);
		out[14] = (uint8_t)(n >> 16);
		out[15] = (uint8_t)(n >> 24);
	}
	*bytes = (uint32_t)n;
	return out;
}

/* A binary taken apart: pointers into `strings` / `words` copies it owns. */
struct unpacked {
	struct drv_program_desc d;
	const char *units[DRV_STAGE_COUNT][MAX_UNITS];
	unsigned n_units[DRV_STAGE_COUNT];
	const char **tf;
	const char **attrib_names;
	uint32_t *attrib_locations;
	void *copies[64 + 2 * 256];   /* every allocation, for unpacked_fini */
	unsigned n_copies;
};

static void *keep(struct unpacked *u, void *p)
{
	if (p && u->n_copies < sizeof u->copies / sizeof u->copies[0]) {
		u->copies[u->n_copies++] = p;
		return p;
	}
	xt_free(p);
	return NULL;
}

static void unpacked_fini(struct unpacked *u)
{
	for (unsigned i = 0; i < u->n_copies; i++)
		xt_free(u->copies[i]);
}

/* Parses `n` bytes into u; false for anything but a well-formed binary of
 * this format (lengths checked against the bytes, never trusted). */
static bool unpack(const uint8_t *p, size_t n, struct unpacked *u)
{
	unsigned n_tf = 0, n_attr = 0;

	memset(u, 0, sizeof *u);
	if (n < HEADER_BYTES || memcmp(p, MAGIC, 8) || get32(p + 8) != VERSION || get32(p + 12) != n)
		return false;
	u->d.es = get32(p + 16) & 1u;
	u->d.tf_mode = get32(p + 20);
	u->tf = keep(u, xt_calloc(256 + 1, sizeof *u->tf));
	u->attrib_names = keep(u, xt_calloc(256 + 1, sizeof *u->attrib_names));
	u->attrib_locations = keep(u, xt_calloc(256 + 1, sizeof *u->attrib_locations));
	if (!u->tf || !u->attrib_names || !u->attrib_locations)
		return false;
	for (size_t off = HEADER_BYTES; off < n;) {
		uint32_t kind, arg, len;
		char *copy;
		if (n - off < 12)
			return false;
		kind = get32(p + off);
		arg = get32(p + off + 4);
		len = get32(p + off + 8);
		off += 12;
		if (len > n - off || (kind != REC_TF_VARYING && kind != REC_ATTRIB && arg >= DRV_STAGE_COUNT))
			return false;
		if (!(copy = keep(u, xt_malloc((size_t)len + 1))))
			return false;
		memcpy(copy, p + off, len);
		copy[len] = '\0';
		off += len + (4 - len % 4) % 4;
		switch (kind) {
		case REC_GLSL:
			if (u->n_units[arg] == MAX_UNITS || u->d.spirv[arg])
				return false;
			u->units[arg][u->n_units[arg]++] = copy;
			break;
		case REC_SPIRV:
			if (len % 4 || u->d.spirv[arg] || u->n_units[arg])
				return false;
			u->d.spirv[arg] = (const uint32_t *)(void *)copy;  /* malloc'd: aligned */
			u->d.spirv_words[arg] = len / 4;
			break;
		case REC_TF_VARYING:
			if (n_tf == 256)
				return false;
			u->tf[n_tf++] = copy;
			break;
		case REC_ATTRIB:
			if (n_attr == 256)
				return false;
			u->attrib_locations[n_attr] = arg;
			u->attrib_names[n_attr++] = copy;
			break;
		default:
			return false;
		}
	}
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		if (!u->n_units[s])
			continue;
		u->d.source[s] = u->units[s][0];
		u->d.more_sources[s] = &u->units[s][1];
		u->d.n_more_sources[s] = u->n_units[s] - 1;
	}
	u->d.tf_varyings = u->tf;
	u->d.n_tf_varyings = n_tf;
	u->d.attrib_names = u->attrib_names;
	u->d.attrib_locations = u->attrib_locations;
	return true;
}

void drv_gl_GetProgramBinary(GLuint program, GLsizei bufSize, GLsizei *length,
			     GLenum *binaryFormat, void *binary)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glGetProgramBinary");

	if (!p)
		return;
	if (bufSize < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/* not linked, or a buffer too small for the whole binary */
	if (!p->linked || !p->binary || (uint32_t)bufSize < p->binary_bytes) {
		if (length)
			*length = 0;
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	memcpy(binary, p->binary, p->binary_bytes);
	if (length)
		*length = (GLsizei)p->binary_bytes;
	if (binaryFormat)
		*binaryFormat = DRV_GL_PROGRAM_BINARY_FORMAT_MESA;
}

void drv_gl_ProgramBinary(GLuint program, GLenum binaryFormat, const void *binary, GLsizei length)
{
	DRV_CTX(ctx);
	struct drv_program_obj *p = drv_gl_program_lookup(ctx, program, "glProgramBinary");
	struct unpacked *u;

	if (!p)
		return;
	if (binaryFormat != DRV_GL_PROGRAM_BINARY_FORMAT_MESA) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (length < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (ctx->xfb->active && ctx->xfb->program == p) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!(u = xt_calloc(1, sizeof *u))) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	if (!binary || !unpack(binary, (size_t)length, u)) {
		/* 7.5: a binary the implementation does not accept fails the link */
		xt_free(p->log);
		p->log = xt_strdup("error: the program binary is not one this driver made\n");
		p->linked = false;
		if (binary && (size_t)length >= 8 && memcmp(binary, MAGIC, 8))
			drv_gl_unsupported(ctx, "a program binary another driver made (the capturing driver "
						"loaded it; the sim can load only its own)");
	} else {
		drv_gl_program_link_desc(ctx, p, &u->d);
	}
	unpacked_fini(u);
	xt_free(u);
}
