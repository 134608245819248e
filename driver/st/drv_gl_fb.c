/*
 * drv_gl_fb.c - textures, renderbuffers and framebuffer objects as far as
 * the model needs them: which framebuffer is bound for drawing and
 * reading, the read and draw buffers, what is attached where, the internal
 * format and size of each image (so that glGetFramebufferAttachment-
 * Parameteriv answers as the capturing driver did), and the surfaces they
 * render into: level 0 of a 2D texture or a renderbuffer gets GPU storage
 * (drv_pipe_surface) at its first use as a render target, the
 * window-system framebuffer at its first use after drv_context_set_window.
 * 2D textures keep their levels' texels and parameters for sampling
 * (drv_gl_tex.c, struct drv_tex); a surface made for level 0 starts with
 * its texels, and where they cannot be (a format the sim does not sample)
 * the image's pixels are marked as not faithful
 * (drv_pipe_surface.unfaithful), so that reading them is reported.
 *
 * Textures and renderbuffers record the internal format of level 0 of the
 * last image specified (glTexImage2D / glTexStorage2D / glRenderbuffer-
 * Storage); a query about a format outside the table below is reported as
 * not modelled, by name, rather than answered with a guess.
 */
#include <stdio.h>
#include <string.h>

#include "drv_gl_int.h"
#include "xt_fault.h"


/* Bit sizes and encoding of an internal format (GL 4.6 table 8.12 / 8.13). */
struct format {
	GLenum internalformat;
	uint8_t r, g, b, a, depth, stencil;
	GLenum component_type;       /* of colour / depth components */
	bool srgb;
	enum drv_pipe_format hw;     /* as a render target; NONE: the sim renders no such image */
};

static const struct format formats[] = {
	{ GL_RGBA8, 8, 8, 8, 8, 0, 0, GL_UNSIGNED_NORMALIZED, false, DRV_FORMAT_RGBA8_UNORM },
	{ GL_RGB8, 8, 8, 8, 0, 0, 0, GL_UNSIGNED_NORMALIZED, false, DRV_FORMAT_RGBA8_UNORM },
	{ GL_RG8, 8, 8, 0, 0, 0, 0, GL_UNSIGNED_NORMALIZED, false, DRV_FORMAT_RG8_UNORM },
	{ GL_R8, 8, 0, 0, 0, 0, 0, GL_UNSIGNED_NORMALIZED, false, DRV_FORMAT_R8_UNORM },
	{ GL_RGBA16, 16, 16, 16, 16, 0, 0, GL_UNSIGNED_NORMALIZED, false, DRV_FORMAT_NONE },
	{ GL_RGB10_A2, 10, 10, 10, 2, 0, 0, GL_UNSIGNED_NORMALIZED, false, DRV_FORMAT_NONE },
	{ GL_SRGB8_ALPHA8, 8, 8, 8, 8, 0, 0, GL_UNSIGNED_NORMALIZED, true, DRV_FORMAT_NONE },
	{ GL_RGBA16F, 16, 16, 16, 16, 0, 0, GL_FLOAT, false, DRV_FORMAT_RGBA16_FLOAT },
	{ GL_RGBA32F, 32, 32, 32, 32, 0, 0, GL_FLOAT, false, DRV_FORMAT_RGBA32_FLOAT },
	{ GL_RGB32F, 32, 32, 32, 0, 0, 0, GL_FLOAT, false, DRV_FORMAT_NONE },
	{ GL_RG32F, 32, 32, 0, 0, 0, 0, GL_FLOAT, false, DRV_FORMAT_RG32_FLOAT },
	{ GL_R32F, 32, 0, 0, 0, 0, 0, GL_FLOAT, false, DRV_FORMAT_R32_FLOAT },
	{ GL_RGBA32I, 32, 32, 32, 32, 0, 0, GL_INT, false, DRV_FORMAT_RGBA32_SINT },
	{ GL_RGBA32UI, 32, 32, 32, 32, 0, 0, GL_UNSIGNED_INT, false, DRV_FORMAT_RGBA32_UINT },
	{ GL_R32I, 32, 0, 0, 0, 0, 0, GL_INT, false, DRV_FORMAT_R32_SINT },
	{ GL_R32UI, 32, 0, 0, 0, 0, 0, GL_UNSIGNED_INT, false, DRV_FORMAT_R32_UINT },
	{ GL_DEPTH_COMPONENT16, 0, 0, 0, 0, 16, 0, GL_UNSIGNED_NORMALIZED, false, DRV_FORMAT_Z16_UNORM },
	{ GL_DEPTH_COMPONENT24, 0, 0, 0, 0, 24, 0, GL_UNSIGNED_NORMALIZED, false, DRV_FORMAT_Z24_UNORM },
	{ GL_DEPTH_COMPONENT32F, 0, 0, 0, 0, 32, 0, GL_FLOAT, false, DRV_FORMAT_Z32_FLOAT },
	{ GL_DEPTH24_STENCIL8, 0, 0, 0, 0, 24, 8, GL_UNSIGNED_NORMALIZED, false, DRV_FORMAT_Z24_UNORM_S8_UINT },
	{ GL_DEPTH32F_STENCIL8, 0, 0, 0, 0, 32, 8, GL_FLOAT, false, DRV_FORMAT_Z32_FLOAT_S8_UINT },
	{ GL_STENCIL_INDEX8, 0, 0, 0, 0, 0, 8, GL_NONE, false, DRV_FORMAT_S8_UINT },
};

static const struct format *format_of(GLenum internalformat)
{
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (formats[i].internalformat == internalformat)
			return &formats[i];
	return NULL;
}

/* The sized format an unsized glTexImage internal format gets, as Mesa
 * chooses it for 8-bit-per-channel data; GL_NONE when it depends on more
 * than the model knows. */
static GLenum sized_format(GLint internalformat, GLenum type)
{
	bool bytes = type == GL_UNSIGNED_BYTE;
	switch (internalformat) {
	case GL_RGBA: case 4: return bytes ? GL_RGBA8 : type == GL_FLOAT ? GL_RGBA32F : GL_NONE;
	case GL_RGB: case 3: return bytes ? GL_RGB8 : type == GL_FLOAT ? GL_RGB32F : GL_NONE;
	/* GLES EXT_texture_format_BGRA8888: RGBA components, 8 bits each */
	case GL_BGRA: return bytes ? GL_RGBA8 : GL_NONE;
	default: return (GLenum)internalformat;
	}
}

struct image {                 /* a texture or a renderbuffer */
	bool is_image;         /* true: tells images from framebuffers in delete() */
	GLenum format;         /* internal format of level 0, GL_NONE before any image */
	uint32_t width, height, samples;
	/* level 0 as a render target: storage made at its first use as one */
	struct drv_pipe_surface surf;
	/* why level 0's texels are not what GL holds (static storage), NULL
	 * when they are: texels uploaded (which the surface gets when
	 * drv_tex_fill_surface can convert them) */
	const char *unfaithful;
	struct drv_tex *tex;   /* 2D textures: levels and parameters, NULL before any */
	struct drv_pipe_buffer ms_view;  /* multisample textures: the surface sampled */
};

enum { ATT_COLOR0, ATT_DEPTH = DRV_MAX_DRAW_BUFFERS, ATT_STENCIL, N_ATT };

struct drv_fbo {
	bool is_image;         /* false */
	GLuint name;
	GLenum read_buffer;
	GLenum draw_buffer[DRV_MAX_DRAW_BUFFERS];
	struct attachment {
		GLenum type;       /* GL_NONE, GL_TEXTURE or GL_RENDERBUFFER */
		GLuint name;
		GLint level;
	} att[N_ATT];
};

static struct drv_pipe_surface *image_surface(struct drv_context *ctx, struct image *img,
					      const char **why);

static struct image *image_get(struct drv_names *t, GLuint name)
{
	struct image *img = drv_names_get(t, name);
	if (img || !name || !drv_names_known(t, name))
		return img;
	img = xt_calloc(1, sizeof *img);
	if (img)
		img->is_image = true;
	if (img && !drv_names_set(t, name, img)) {
		xt_free(img);
		return NULL;
	}
	return img;
}

/* The error of binding a name that yielded no object: never generated
 * (GL_INVALID_OPERATION in a core context) or no memory for the object. */
static GLenum unknown_or_oom(const struct drv_names *t, GLuint name)
{
	return drv_names_known(t, name) ? GL_OUT_OF_MEMORY : GL_INVALID_OPERATION;
}

static void gen(struct drv_context *ctx, struct drv_names *t, GLsizei n, GLuint *names)
{
	if (n < 0)
		drv_gl_error(ctx, GL_INVALID_VALUE);
	else if (!drv_names_gen(t, n, names))
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
}

static void free_obj(void *obj, void *user)
{
	struct drv_context *ctx = user;
	struct image *img = obj;
	if (img && img->is_image) {
		drv_pipe_surface_release(ctx->screen->hw, &img->surf);
		drv_tex_free(ctx, img->tex);
	}
	xt_free(obj);
}

static void delete(struct drv_context *ctx, struct drv_names *t, GLsizei n, const GLuint *names)
{
	if (n < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < n; i++) {
		void *obj = drv_names_get(t, names[i]);
		if (obj && obj == (void *)ctx->fb.draw)
			ctx->fb.draw = NULL;
		if (obj && obj == (void *)ctx->fb.read)
			ctx->fb.read = NULL;
		drv_names_remove(t, names[i]);
		free_obj(obj, ctx);
	}
}

void drv_gl_fb_fini(struct drv_context *ctx)
{
	struct drv_names *tables[] = { &ctx->fb.textures, &ctx->fb.renderbuffers, &ctx->fb.framebuffers };
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		drv_names_each(tables[i], free_obj, ctx);
		drv_names_fini(tables[i]);
	}
	drv_pipe_surface_release(ctx->screen->hw, &ctx->fb.window.color);
	drv_pipe_surface_release(ctx->screen->hw, &ctx->fb.window.zs);
}

/* ---- textures ------------------------------------------------------------------------ */

void drv_gl_GenTextures(GLsizei n, GLuint *names) { DRV_CTX(ctx); gen(ctx, &ctx->fb.textures, n, names); }
void drv_gl_DeleteTextures(GLsizei n, const GLuint *names)
{
	DRV_CTX(ctx);
	delete(ctx, &ctx->fb.textures, n, names);
}

void drv_gl_ActiveTexture(GLenum texture)
{
	DRV_CTX(ctx);
	if (texture < GL_TEXTURE0 || texture >= GL_TEXTURE0 + DRV_MAX_TEXTURE_UNITS) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->fb.active_unit = texture - GL_TEXTURE0;
	/* Also selects the texture matrix of glMatrixMode(GL_TEXTURE) (drv_gl_compat.c). */
	if (ctx->fb.active_unit < DRV_FF_TEXTURE_UNITS)
		ctx->ff.active_texture = ctx->fb.active_unit;
}

void drv_gl_BindTexture(GLenum target, GLuint texture)
{
	DRV_CTX(ctx);
	if (texture && !image_get(&ctx->fb.textures, texture)) {
		drv_gl_error(ctx, unknown_or_oom(&ctx->fb.textures, texture));
		return;
	}
	if (target == GL_TEXTURE_2D)
		ctx->fb.texture_2d[ctx->fb.active_unit] = texture;
	else if (target == GL_TEXTURE_2D_ARRAY)
		ctx->fb.texture_2d_array[ctx->fb.active_unit] = texture;
	else if (target == GL_TEXTURE_3D)
		ctx->fb.texture_3d[ctx->fb.active_unit] = texture;
	else if (target == GL_TEXTURE_CUBE_MAP)
		ctx->fb.texture_cube[ctx->fb.active_unit] = texture;
	else if (target == GL_TEXTURE_2D_MULTISAMPLE)
		ctx->fb.texture_2d_ms[ctx->fb.active_unit] = texture;
}

/* The sample count an image of `samples` requested samples gets: 1 for
 * 0 or 1, else the smallest count the hardware has (2, 4, 8) that is not
 * below it (GL 4.6 §9.2.4: "no more than the next larger sample count
 * supported"; requests above DRV_MAX_SAMPLES were refused before). */
static uint32_t samples_supported(GLsizei samples)
{
	return samples <= 1 ? 1u : samples <= 2 ? 2u : samples <= 4 ? 4u : 8u;
}

/* Level 0 of a 2D texture or a renderbuffer gets a new image: its old
 * storage goes. */
static void image_define(struct drv_context *ctx, struct image *img, GLenum format, GLsizei w,
			 GLsizei h, GLsizei samples, const char *unfaithful)
{
	img->format = format;
	img->width = (uint32_t)w;
	img->height = (uint32_t)h;
	img->samples = samples_supported(samples);
	img->unfaithful = unfaithful;
	drv_pipe_surface_release(ctx->screen->hw, &img->surf);
}

static const char texels_uploaded[] = "were uploaded as texels the sim cannot keep in that format";

static bool cube_face(GLenum target)
{
	return target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
}

/* The texture of a target the sim samples (2D, 2D array, 3D, cube, 2D
 * multisample) bound to
 * unit u, NULL for none (texture 0) or another target. */
static struct image *bound_at(struct drv_context *ctx, GLenum target, unsigned u)
{
	GLuint name = target == GL_TEXTURE_2D ? ctx->fb.texture_2d[u] :
		      target == GL_TEXTURE_2D_ARRAY ? ctx->fb.texture_2d_array[u] :
		      target == GL_TEXTURE_3D ? ctx->fb.texture_3d[u] :
		      target == GL_TEXTURE_CUBE_MAP ? ctx->fb.texture_cube[u] :
		      target == GL_TEXTURE_2D_MULTISAMPLE ? ctx->fb.texture_2d_ms[u] : 0;
	return name ? drv_names_get(&ctx->fb.textures, name) : NULL;
}

GLenum drv_gl_fb_texture_format(struct drv_context *ctx, GLenum target, unsigned unit)
{
	struct image *img = unit < DRV_MAX_TEXTURE_UNITS ? bound_at(ctx, target, unit) : NULL;
	return img ? img->format : GL_NONE;
}

static struct image *bound(struct drv_context *ctx, GLenum target)
{
	return bound_at(ctx, target, ctx->fb.active_unit);
}

static struct image *bound_2d(struct drv_context *ctx)
{
	return bound(ctx, GL_TEXTURE_2D);
}

static void tex_image(struct drv_context *ctx, GLenum target, GLint level, GLint internalformat,
		      GLenum sized, GLsizei w, GLsizei h, GLsizei d, GLenum format, GLenum type,
		      const void *pixels, bool data)
{
	struct image *img;
	const char *why = NULL;
	if (!(img = bound(ctx, target)))
		return;
	if (level == 0 && target == GL_TEXTURE_2D)
		image_define(ctx, img, sized, w, h, 1, data ? texels_uploaded : NULL);
	if (!drv_tex_image(ctx, &img->tex, target, level, internalformat, w, h, d, format, type,
			   data ? pixels : NULL, &why) && why)
		drv_gl_unsupported(ctx, why);
}

void drv_gl_TexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei w, GLsizei h,
		       GLint border, GLenum format, GLenum type, const void *pixels)
{
	DRV_CTX(ctx);
	if (w < 0 || h < 0 || level < 0 || border != 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (target == GL_TEXTURE_2D) {
		tex_image(ctx, target, level, internalformat, sized_format(internalformat, type), w, h, 1, format,
			  type, pixels, pixels || ctx->pixel_unpack);
	} else if (cube_face(target)) {
		struct image *img = bound(ctx, GL_TEXTURE_CUBE_MAP);
		const char *why = NULL;
		if (img && !drv_tex_cube_face(ctx, &img->tex, target - GL_TEXTURE_CUBE_MAP_POSITIVE_X, level,
					      internalformat, w, h, format, type, pixels, &why) && why)
			drv_gl_unsupported(ctx, why);
	}
}

void drv_gl_TexStorage2D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei w, GLsizei h)
{
	DRV_CTX(ctx);
	struct image *img;
	if (levels < 1 || w < 1 || h < 1) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (target != GL_TEXTURE_2D && target != GL_TEXTURE_CUBE_MAP)
		return;
	for (GLsizei l = 0; l < levels; l++)
		tex_image(ctx, target, l, (GLint)internalformat, internalformat, w >> l ? w >> l : 1,
			  h >> l ? h >> l : 1, target == GL_TEXTURE_CUBE_MAP ? 6 : 1, GL_NONE, GL_NONE, NULL, false);
	if ((img = bound(ctx, target)))
		drv_tex_storage(img->tex, levels);
}

/* GL 4.6 §8.8: a multisample texture is one image of `samples` samples per
 * texel, rendered into as a framebuffer attachment and read by texelFetch
 * of a sampler2DMS; its storage is the surface it is rendered into, whose
 * samples follow each other per pixel (docs/pixel-pipeline.md).  The
 * sample locations are the hardware's standard ones, fixed or not
 * (fixedsamplelocations changes nothing here). */
static void tex_image_ms(GLenum target, GLsizei samples, GLenum internalformat, GLsizei w, GLsizei h)
{
	DRV_CTX(ctx);
	struct image *img;
	if (target != GL_TEXTURE_2D_MULTISAMPLE) {
		/* 2D multisample arrays and proxies: not modelled */
		static _Thread_local char why[96];
		snprintf(why, sizeof why, "multisample textures of target 0x%04X", target);
		drv_gl_unsupported(ctx, why);
		return;
	}
	if (samples < 1 || w < 0 || h < 0 || w > 16384 || h > 16384) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if ((GLuint)samples > DRV_MAX_SAMPLES) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!(img = bound(ctx, target))) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);     /* texture 0 bound */
		return;
	}
	image_define(ctx, img, internalformat, w, h, samples, NULL);
}

void drv_gl_TexImage2DMultisample(GLenum target, GLsizei samples, GLenum internalformat, GLsizei w,
				  GLsizei h, GLboolean fixedsamplelocations)
{
	tex_image_ms(target, samples, internalformat, w, h);
}

void drv_gl_TexStorage2DMultisample(GLenum target, GLsizei samples, GLenum internalformat, GLsizei w,
				    GLsizei h, GLboolean fixedsamplelocations)
{
	tex_image_ms(target, samples, internalformat, w, h);
}

/* 3D and array textures (GL 4.6 §8.5): validated; the texels of 2D array
 * and 3D textures are kept (drv_gl_tex.c), those of cube-map arrays not. */
static bool target_3d(GLenum target)
{
	return target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY ||
	       target == GL_TEXTURE_CUBE_MAP_ARRAY || target == GL_PROXY_TEXTURE_3D ||
	       target == GL_PROXY_TEXTURE_2D_ARRAY || target == GL_PROXY_TEXTURE_CUBE_MAP_ARRAY;
}

void drv_gl_TexImage3D(GLenum target, GLint level, GLint internalformat, GLsizei w, GLsizei h,
		       GLsizei d, GLint border, GLenum format, GLenum type, const void *pixels)
{
	DRV_CTX(ctx);
	if (!target_3d(target))
		drv_gl_error(ctx, GL_INVALID_ENUM);
	else if (w < 0 || h < 0 || d < 0 || level < 0 || border != 0)
		drv_gl_error(ctx, GL_INVALID_VALUE);
	else
		tex_image(ctx, target, level, internalformat, sized_format(internalformat, type), w, h, d, format,
			  type, pixels, pixels || ctx->pixel_unpack);
}

void drv_gl_TexStorage3D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei w, GLsizei h,
			 GLsizei d)
{
	DRV_CTX(ctx);
	struct image *img;
	if (!target_3d(target)) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (levels < 1 || w < 1 || h < 1 || d < 1) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei l = 0; l < levels; l++)
		tex_image(ctx, target, l, (GLint)internalformat, internalformat, w >> l ? w >> l : 1,
			  h >> l ? h >> l : 1, target != GL_TEXTURE_3D ? d : d >> l ? d >> l : 1, GL_NONE, GL_NONE,
			  NULL, false);
	if ((img = bound(ctx, target)))
		drv_tex_storage(img->tex, levels);
}

void drv_gl_TexSubImage3D(GLenum target, GLint level, GLint x, GLint y, GLint z, GLsizei w,
			  GLsizei h, GLsizei d, GLenum format, GLenum type, const void *pixels)
{
	DRV_CTX(ctx);
	if (!target_3d(target) || target == GL_PROXY_TEXTURE_3D || target == GL_PROXY_TEXTURE_2D_ARRAY ||
	    target == GL_PROXY_TEXTURE_CUBE_MAP_ARRAY)
		drv_gl_error(ctx, GL_INVALID_ENUM);
	else if (w < 0 || h < 0 || d < 0 || level < 0)
		drv_gl_error(ctx, GL_INVALID_VALUE);
	else {
		const struct drv_tex_box b = { x, y, z, w, h, d };
		struct image *img = bound(ctx, target);
		const char *why = NULL;
		if (img && !drv_tex_sub_image(ctx, img->tex, level, &b, format, type, pixels, NULL, &why) && why)
			drv_gl_unsupported(ctx, why);
	}
}

void drv_gl_TexSubImage2D(GLenum target, GLint level, GLint x, GLint y, GLsizei w, GLsizei h,
			  GLenum format, GLenum type, const void *pixels)
{
	DRV_CTX(ctx);
	struct image *img;
	const char *why = NULL;
	const struct drv_tex_box b = { x, y, cube_face(target) ? (GLint)(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X) : 0,
				       w, h, 1 };
	if (cube_face(target)) {
		if ((img = bound(ctx, GL_TEXTURE_CUBE_MAP)) &&
		    !drv_tex_sub_image(ctx, img->tex, level, &b, format, type, pixels, NULL, &why) && why)
			drv_gl_unsupported(ctx, why);
		return;
	}
	if (target != GL_TEXTURE_2D || !w || !h || !(img = bound_2d(ctx)))
		return;
	if (!drv_tex_sub_image(ctx, img->tex, level, &b, format, type, pixels, img->surf.bo ? &img->surf : NULL,
			       &why)) {
		if (why)
			drv_gl_unsupported(ctx, why);
		if (level == 0) {
			img->unfaithful = texels_uploaded;
			img->surf.unfaithful = texels_uploaded;
		}
	}
}

/* glClearTexImage / glClearTexSubImage (GL 4.6 §8.21; EXT_clear_texture
 * in GLES) of a 2D, 2D array, 3D or cube-map texture's level; level 0 of
 * a 2D texture rendered into is cleared in its surface too. */
static void clear_tex(GLuint texture, GLint level, const struct drv_tex_box *box, GLenum format, GLenum type,
		      const void *data)
{
	DRV_CTX(ctx);
	struct image *img = texture ? drv_names_get(&ctx->fb.textures, texture) : NULL;
	const char *why = NULL;

	if (!img) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!drv_tex_clear(ctx, img->tex, level, box, format, type, data, img->surf.bo ? &img->surf : NULL, &why) &&
	    why) {
		drv_gl_unsupported(ctx, why);
		if (level == 0) {
			img->unfaithful = texels_uploaded;
			img->surf.unfaithful = texels_uploaded;
		}
	}
}

void drv_gl_ClearTexImage(GLuint texture, GLint level, GLenum format, GLenum type, const void *data)
{
	DRV_CTX(ctx);
	struct image *img = texture ? drv_names_get(&ctx->fb.textures, texture) : NULL;
	uint32_t s[3];

	if (!img) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!drv_tex_level_size(img->tex, level, s)) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	clear_tex(texture, level, &(struct drv_tex_box){ 0, 0, 0, (GLsizei)s[0], (GLsizei)s[1], (GLsizei)s[2] },
		  format, type, data);
}

void drv_gl_ClearTexSubImage(GLuint texture, GLint level, GLint x, GLint y, GLint z, GLsizei w, GLsizei h,
			     GLsizei d, GLenum format, GLenum type, const void *data)
{
	clear_tex(texture, level, &(struct drv_tex_box){ x, y, z, w, h, d }, format, type, data);
}

/* The surface of level 0 of the 2D texture bound to the active unit, made
 * at the first use (drv_gl_blit.c: glCopyTexSubImage2D renders into it). */
struct drv_pipe_surface *drv_gl_fb_tex2d_surface(struct drv_context *ctx, const char **why)
{
	struct image *img = bound_2d(ctx);

	*why = NULL;
	if (!img || !img->format)
		return NULL;
	return image_surface(ctx, img, why);
}

/* glTexParameter* of the 2D, 2D array or 3D texture bound to the active
 * unit (the other targets' parameters are not kept: the sim samples
 * those). */
static void tex_parameter(GLenum target, GLenum pname, const GLint *iv, const GLfloat *fv)
{
	DRV_CTX(ctx);
	struct image *img;
	struct drv_tex_params *p;
	if (!(img = bound(ctx, target)))
		return;
	if (!(p = drv_tex_params(&img->tex))) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	drv_tex_params_set(ctx, p, pname, iv, fv);
}

void drv_gl_TexParameteri(GLenum target, GLenum pname, GLint param) { tex_parameter(target, pname, &param, NULL); }
void drv_gl_TexParameterf(GLenum target, GLenum pname, GLfloat param) { tex_parameter(target, pname, NULL, &param); }
void drv_gl_TexParameteriv(GLenum target, GLenum pname, const GLint *params)
{
	tex_parameter(target, pname, params, NULL);
}
void drv_gl_TexParameterfv(GLenum target, GLenum pname, const GLfloat *params)
{
	tex_parameter(target, pname, NULL, params);
}

void drv_gl_GenerateMipmap(GLenum target)
{
	DRV_CTX(ctx);
	switch (target) {
	case GL_TEXTURE_2D: case GL_TEXTURE_2D_ARRAY: case GL_TEXTURE_3D: case GL_TEXTURE_CUBE_MAP: {
		struct image *img = bound(ctx, target);
		const char *why = NULL;
		if (img && !drv_tex_generate_mipmap(ctx, img->tex, img->surf.bo && target == GL_TEXTURE_2D ?
							   &img->surf : NULL, &why) && why)
			drv_gl_unsupported(ctx, why);
		return;
	}
	case GL_TEXTURE_1D: case GL_TEXTURE_1D_ARRAY: case GL_TEXTURE_CUBE_MAP_ARRAY:
		return;     /* their texels are not kept */
	default:
		drv_gl_error(ctx, GL_INVALID_ENUM);
	}
}

static struct drv_pipe_surface *image_surface(struct drv_context *ctx, struct image *img,
					      const char **why);
static struct image *attached_image(struct drv_context *ctx, const struct attachment *a);

/* The sampler view of a multisample texture (GL 4.6 §8.8): its surface,
 * made here if nothing rendered into it yet (its contents are then
 * undefined: the new store's zeros); without an image, incomplete
 * (§8.17), which reads (0, 0, 0, 1).  False when it cannot be made
 * (reported). */
static bool ms_view(struct drv_context *ctx, struct image *img, bool integer,
		    struct drv_pipe_sampler_view *v)
{
	const struct drv_pipe_surface *s;
	const char *why = NULL;

	memset(v, 0, sizeof *v);
	v->integer = integer;
	v->target = DRV_TEX_2D_MSAA;
	if (!img || img->format == GL_NONE || !img->width || !img->height)
		return true;
	if (!(s = image_surface(ctx, img, &why))) {
		if (why)
			drv_gl_unsupported(ctx, "sampling a multisample texture of a format the sim does not "
					   "render to");
		return false;
	}
	if (s->unfaithful) {
		/* its samples are not what GL says: reading them is reported */
		static _Thread_local char text[256];
		snprintf(text, sizeof text, "sampling a multisample texture whose samples %s", s->unfaithful);
		drv_gl_unsupported(ctx, text);
		return false;
	}
	img->ms_view.bo = s->bo;
	v->buffer = &img->ms_view;
	v->format = s->format;
	v->width = img->width;
	v->height = img->height;
	v->pitch = s->pitch;
	v->depth = 1;
	v->levels = 1;
	v->samples = s->samples;
	/* GL 4.6 table 8.11 / §15.2.1: missing components read 0, alpha 1 */
	for (unsigned c = 0; c < 4; c++)
		v->swizzle[c] = c < drv_pipe_format_info(s->format)->components ? (uint8_t)c :
				c == 3 ? DRV_SWIZZLE_1 : DRV_SWIZZLE_0;
	return true;
}

/* Why the pixels of a draw sampling a texture whose level 0 holds pixels
 * the sim did not draw as GL says (its surface's `unfaithful`) are not
 * GL's either: that reason, kept for the surfaces it marks (a few
 * distinct texts, interned for the process's lifetime; the chain of
 * textures is not repeated). */
static const char *sampled_unfaithful(const char *reason)
{
	static const char prefix[] = "were drawn sampling a texture whose pixels ";
	static char *texts[32];
	static unsigned n;
	char text[512];

	if (!strncmp(reason, prefix, sizeof prefix - 1))
		return reason;
	snprintf(text, sizeof text, "%s%s", prefix, reason);
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(texts[i], text))
			return texts[i];
	if (n == sizeof texts / sizeof texts[0] || !(texts[n] = strdup(text)))
		return "were drawn sampling a texture whose pixels the sim did not draw as GL says";
	return texts[n++];
}

/* GL 4.6 §7.10 / §11.1.3.5: sampler slot k samples the texture of its
 * sampler's type bound to the unit the uniform holds, with the parameters
 * of the sampler object bound to that unit, else the texture's own. */
bool drv_gl_fb_sampler_views(struct drv_context *ctx, const struct drv_program *prog, const void *consts,
			     struct drv_pipe_sampler_view *views, const char **ps_why)
{
	*ps_why = NULL;
	for (unsigned k = 0; k < prog->n_samplers && k < DRV_MAX_SAMPLERS; k++) {
		uint32_t unit = 0, type = prog->samplers[k].type;
		bool integer = type == GL_INT_SAMPLER_2D || type == GL_UNSIGNED_INT_SAMPLER_2D ||
			       type == GL_INT_SAMPLER_2D_ARRAY || type == GL_UNSIGNED_INT_SAMPLER_2D_ARRAY ||
			       type == GL_INT_SAMPLER_3D || type == GL_UNSIGNED_INT_SAMPLER_3D ||
			       type == GL_INT_SAMPLER_CUBE || type == GL_UNSIGNED_INT_SAMPLER_CUBE ||
			       type == GL_INT_SAMPLER_2D_MULTISAMPLE || type == GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE;
		GLenum target = type == GL_SAMPLER_2D_ARRAY || type == GL_INT_SAMPLER_2D_ARRAY ||
				type == GL_UNSIGNED_INT_SAMPLER_2D_ARRAY ? GL_TEXTURE_2D_ARRAY :
				type == GL_SAMPLER_3D || type == GL_INT_SAMPLER_3D || type == GL_UNSIGNED_INT_SAMPLER_3D ?
				GL_TEXTURE_3D :
				type == GL_SAMPLER_CUBE || type == GL_INT_SAMPLER_CUBE || type == GL_UNSIGNED_INT_SAMPLER_CUBE ?
				GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D;
		bool ms = type == GL_SAMPLER_2D_MULTISAMPLE || type == GL_INT_SAMPLER_2D_MULTISAMPLE ||
			  type == GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE;
		enum drv_pipe_tex_target hw_target = target == GL_TEXTURE_3D ? DRV_TEX_3D :
						     target == GL_TEXTURE_CUBE_MAP ? DRV_TEX_CUBE :
						     target == GL_TEXTURE_2D_ARRAY ? DRV_TEX_2D_ARRAY : DRV_TEX_2D;
		struct image *img = NULL;
		const struct drv_tex_params *sp = NULL;
		struct drv_tex_params defaults;
		const char *why = NULL;

		if (consts)
			memcpy(&unit, (const uint8_t *)consts + prog->samplers[k].const_offset, 4);
		if (ms) {
			if (unit < DRV_MAX_TEXTURE_UNITS)
				img = bound_at(ctx, GL_TEXTURE_2D_MULTISAMPLE, unit);
			if (!ms_view(ctx, img, integer, &views[k]))
				return false;
			continue;
		}
		if (unit < DRV_MAX_TEXTURE_UNITS) {
			img = bound_at(ctx, target, unit);
			if (ctx->sampler_binding[unit])
				sp = drv_names_get(&ctx->shared->samplers, ctx->sampler_binding[unit]);
		}
		if (!sp && img && img->tex)
			sp = drv_tex_params(&img->tex);
		if (!sp) {
			drv_tex_params_init(&defaults);
			sp = &defaults;
		}
		if (!drv_tex_view(ctx, img ? img->tex : NULL,
				  img && img->surf.bo && target == GL_TEXTURE_2D ? &img->surf : NULL, sp, integer,
				  &views[k], &why)) {
			if (why && prog->samplers[k].stages == 1u << DRV_STAGE_FRAGMENT) {
				/* the vertex processing (TF) is right; the pixels not */
				memset(&views[k], 0, sizeof views[k]);
				views[k].integer = integer;
				*ps_why = "were drawn by a fragment shader sampling a texture the sim does not sample "
					  "(its format, border colour or mip levels; docs/status.md)";
				views[k].target = hw_target;
				continue;
			}
			if (why)
				drv_gl_unsupported(ctx, why);
			return false;
		}
		/* incomplete: a T# of the sampler's type (its coordinates) */
		if (!views[k].buffer)
			views[k].target = hw_target;
		/* GLSL 4.60 §8.9.1: textureQueryLevels of an incomplete texture
		 * is 0, which a T# (at least one level) cannot answer */
		if (!views[k].buffer && prog->samplers[k].queries_levels) {
			static const char text[] = "textureQueryLevels of an incomplete texture (0 in GL; the "
						   "sim's image has one level)";
			if (prog->samplers[k].stages == 1u << DRV_STAGE_FRAGMENT) {
				*ps_why = "were drawn by a fragment shader asking textureQueryLevels of an "
					  "incomplete texture (0 in GL; the sim's image has one level)";
			} else {
				drv_gl_unsupported(ctx, text);
				return false;
			}
		}
		/* level 0 sampled from a surface whose pixels are not GL's
		 * (a draw the sim could not do drew them): neither are the
		 * values read from it */
		if (views[k].buffer && img->surf.bo && img->surf.unfaithful && target == GL_TEXTURE_2D &&
		    drv_tex_params(&img->tex)->base_level == 0) {
			if (prog->samplers[k].stages == 1u << DRV_STAGE_FRAGMENT) {
				*ps_why = sampled_unfaithful(img->surf.unfaithful);
			} else {
				static _Thread_local char text[512];
				snprintf(text, sizeof text, "sampling a texture whose pixels %s", img->surf.unfaithful);
				drv_gl_unsupported(ctx, text);
				return false;
			}
		}
	}
	return true;
}

/* ---- renderbuffers ------------------------------------------------------------------- */

void drv_gl_GenRenderbuffers(GLsizei n, GLuint *names)
{
	DRV_CTX(ctx);
	gen(ctx, &ctx->fb.renderbuffers, n, names);
}

void drv_gl_DeleteRenderbuffers(GLsizei n, const GLuint *names)
{
	DRV_CTX(ctx);
	delete(ctx, &ctx->fb.renderbuffers, n, names);
}

void drv_gl_BindRenderbuffer(GLenum target, GLuint rb)
{
	DRV_CTX(ctx);
	if (target != GL_RENDERBUFFER) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (rb && !image_get(&ctx->fb.renderbuffers, rb)) {
		drv_gl_error(ctx, unknown_or_oom(&ctx->fb.renderbuffers, rb));
		return;
	}
	ctx->fb.renderbuffer = rb;
}

void drv_gl_fb_renderbuffer_storage(GLenum target, GLsizei samples, GLenum internalformat,
				    GLsizei w, GLsizei h)
{
	DRV_CTX(ctx);
	struct image *img = drv_names_get(&ctx->fb.renderbuffers, ctx->fb.renderbuffer);
	if (target != GL_RENDERBUFFER) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!img) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (w < 0 || h < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	image_define(ctx, img, internalformat, w, h, samples, NULL);
}

void drv_gl_RenderbufferStorage(GLenum target, GLenum internalformat, GLsizei w, GLsizei h)
{
	drv_gl_fb_renderbuffer_storage(target, 0, internalformat, w, h);
}

/* An image's size and format as glGetRenderbufferParameteriv and
 * glGetTextureLevelParameteriv report them; false for a pname the sim
 * does not model. */
static bool image_value(const struct image *img, GLenum pname, GLint *out)
{
	switch (pname) {
	case GL_RENDERBUFFER_WIDTH: case GL_TEXTURE_WIDTH: *out = (GLint)img->width; return true;
	case GL_RENDERBUFFER_HEIGHT: case GL_TEXTURE_HEIGHT: *out = (GLint)img->height; return true;
	/* before any image: GL 4.6 tables 23.27 and 23.20 */
	case GL_RENDERBUFFER_INTERNAL_FORMAT:
		*out = img->format != GL_NONE ? (GLint)img->format : GL_RGBA4;
		return true;
	case GL_TEXTURE_INTERNAL_FORMAT:
		*out = img->format != GL_NONE ? (GLint)img->format : GL_RGBA;
		return true;
	case GL_RENDERBUFFER_SAMPLES: case GL_TEXTURE_SAMPLES: *out = (GLint)img->samples; return true;
	default: return false;
	}
}

void drv_gl_GetRenderbufferParameteriv(GLenum target, GLenum pname, GLint *params)
{
	DRV_CTX(ctx);
	static _Thread_local char why[96];
	const struct image *img = drv_names_get(&ctx->fb.renderbuffers, ctx->fb.renderbuffer);
	if (target != GL_RENDERBUFFER) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!img) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!image_value(img, pname, params)) {
		snprintf(why, sizeof why, "glGetRenderbufferParameteriv(0x%04X)", pname);
		drv_gl_unsupported(ctx, why);
	}
}

/* Level 0 only: the sim keeps no other level's size. */
void drv_gl_GetTextureLevelParameteriv(GLuint texture, GLint level, GLenum pname, GLint *params)
{
	DRV_CTX(ctx);
	static _Thread_local char why[96];
	const struct image *img = image_get(&ctx->fb.textures, texture);
	if (!img) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (level < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (level > 0 || !image_value(img, pname, params)) {
		snprintf(why, sizeof why, "glGetTextureLevelParameteriv(level %d, 0x%04X)", level, pname);
		drv_gl_unsupported(ctx, why);
	}
}

/* ---- framebuffers -------------------------------------------------------------------- */

static struct drv_fbo *fbo_get(struct drv_context *ctx, GLuint name)
{
	struct drv_fbo *fb = drv_names_get(&ctx->fb.framebuffers, name);
	if (fb || !drv_names_known(&ctx->fb.framebuffers, name))
		return fb;
	fb = xt_calloc(1, sizeof *fb);
	if (!fb)
		return NULL;
	fb->name = name;
	fb->read_buffer = GL_COLOR_ATTACHMENT0;
	fb->draw_buffer[0] = GL_COLOR_ATTACHMENT0;
	if (!drv_names_set(&ctx->fb.framebuffers, name, fb)) {
		xt_free(fb);
		return NULL;
	}
	return fb;
}

void drv_gl_GenFramebuffers(GLsizei n, GLuint *names)
{
	DRV_CTX(ctx);
	gen(ctx, &ctx->fb.framebuffers, n, names);
}

void drv_gl_DeleteFramebuffers(GLsizei n, const GLuint *names)
{
	DRV_CTX(ctx);
	delete(ctx, &ctx->fb.framebuffers, n, names);
}

/* The framebuffer bound to `target`: *out NULL for the default one; false
 * (GL_INVALID_ENUM set) for a bad target. */
static bool bound_fb(struct drv_context *ctx, GLenum target, struct drv_fbo **out)
{
	switch (target) {
	case GL_FRAMEBUFFER: case GL_DRAW_FRAMEBUFFER: *out = ctx->fb.draw; return true;
	case GL_READ_FRAMEBUFFER: *out = ctx->fb.read; return true;
	default: drv_gl_error(ctx, GL_INVALID_ENUM); return false;
	}
}

void drv_gl_BindFramebuffer(GLenum target, GLuint name)
{
	DRV_CTX(ctx);
	struct drv_fbo *fb = NULL;
	if (target != GL_FRAMEBUFFER && target != GL_DRAW_FRAMEBUFFER && target != GL_READ_FRAMEBUFFER) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (name && !(fb = fbo_get(ctx, name))) {
		drv_gl_error(ctx, unknown_or_oom(&ctx->fb.framebuffers, name));
		return;
	}
	if (target != GL_READ_FRAMEBUFFER)
		ctx->fb.draw = fb;
	if (target != GL_DRAW_FRAMEBUFFER)
		ctx->fb.read = fb;
}

/* Index into fbo.att of an attachment point; -1 when it is not one. */
static int attachment_index(GLenum attachment)
{
	if (attachment >= GL_COLOR_ATTACHMENT0 && attachment < GL_COLOR_ATTACHMENT0 + DRV_MAX_DRAW_BUFFERS)
		return ATT_COLOR0 + (int)(attachment - GL_COLOR_ATTACHMENT0);
	if (attachment == GL_DEPTH_ATTACHMENT)
		return ATT_DEPTH;
	if (attachment == GL_STENCIL_ATTACHMENT)
		return ATT_STENCIL;
	return -1;
}

static void attach(GLenum target, GLenum attachment, GLenum type, GLuint name, GLint level)
{
	DRV_CTX(ctx);
	struct drv_fbo *fb;
	int i = attachment_index(attachment);
	if (!bound_fb(ctx, target, &fb))
		return;
	if (!fb) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (i < 0 && attachment != GL_DEPTH_STENCIL_ATTACHMENT) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	struct attachment a = { name ? type : GL_NONE, name, level };
	if (attachment == GL_DEPTH_STENCIL_ATTACHMENT)
		fb->att[ATT_DEPTH] = fb->att[ATT_STENCIL] = a;
	else
		fb->att[i] = a;
}

void drv_gl_FramebufferTexture2D(GLenum target, GLenum attachment, GLenum textarget,
				 GLuint texture, GLint level)
{
	attach(target, attachment, GL_TEXTURE, texture, level);
}

void drv_gl_FramebufferTexture(GLenum target, GLenum attachment, GLuint texture, GLint level)
{
	attach(target, attachment, GL_TEXTURE, texture, level);
}

void drv_gl_FramebufferRenderbuffer(GLenum target, GLenum attachment, GLenum rbtarget, GLuint rb)
{
	attach(target, attachment, GL_RENDERBUFFER, rb, 0);
}

GLenum drv_gl_CheckFramebufferStatus(GLenum target)
{
	DRV_CTX_RET(ctx, 0);
	struct drv_fbo *fb;
	if (!bound_fb(ctx, target, &fb))
		return 0;
	return GL_FRAMEBUFFER_COMPLETE;
}

/* The internal format of an attached image, GL_NONE when unknown. */
static GLenum attached_format(struct drv_context *ctx, const struct attachment *a)
{
	struct drv_names *t = a->type == GL_TEXTURE ? &ctx->fb.textures : &ctx->fb.renderbuffers;
	const struct image *img = drv_names_get(t, a->name);
	return img && a->level == 0 ? img->format : GL_NONE;
}

static bool attachment_value(struct drv_context *ctx, const struct attachment *a, GLenum pname,
			     GLint *out)
{
	const struct format *f;

	if (pname == GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) {
		*out = (GLint)a->type;
		return true;
	}
	if (pname == GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) {
		*out = (GLint)a->name;
		return true;
	}
	if (a->type == GL_NONE) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	if (pname == GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL && a->type == GL_TEXTURE) {
		*out = a->level;
		return true;
	}
	f = format_of(attached_format(ctx, a));
	if (!f)
		return false;
	switch (pname) {
	case GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE: *out = f->r; return true;
	case GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE: *out = f->g; return true;
	case GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE: *out = f->b; return true;
	case GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE: *out = f->a; return true;
	case GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE: *out = f->depth; return true;
	case GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE: *out = f->stencil; return true;
	case GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE: *out = (GLint)f->component_type; return true;
	case GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING: *out = f->srgb ? GL_SRGB : GL_LINEAR; return true;
	default: return false;
	}
}

void drv_gl_GetFramebufferAttachmentParameteriv(GLenum target, GLenum attachment, GLenum pname,
						GLint *params)
{
	DRV_CTX(ctx);
	static _Thread_local char why[128];
	struct drv_fbo *fb;
	int i = attachment_index(attachment);

	if (!bound_fb(ctx, target, &fb))
		return;
	if (fb && attachment == GL_DEPTH_STENCIL_ATTACHMENT)
		i = ATT_DEPTH;
	if (!fb || i < 0) {
		/* The default framebuffer's formats come from the EGL / GLX config. */
		snprintf(why, sizeof why, "glGetFramebufferAttachmentParameteriv(0x%04X, 0x%04X) of %s",
			 attachment, pname, fb ? "an unknown attachment" : "the window-system framebuffer");
		drv_gl_unsupported(ctx, why);
		return;
	}
	if (!attachment_value(ctx, &fb->att[i], pname, params) && !ctx->error) {
		snprintf(why, sizeof why, "glGetFramebufferAttachmentParameteriv(pname 0x%04X) of an "
			 "image with internal format 0x%04X", pname, attached_format(ctx, &fb->att[i]));
		drv_gl_unsupported(ctx, why);
	}
}

void drv_gl_ReadBuffer(GLenum src)
{
	DRV_CTX(ctx);
	if (ctx->fb.read)
		ctx->fb.read->read_buffer = src;
	else
		ctx->fb.default_read_buffer = src;
}

void drv_gl_DrawBuffer(GLenum buf)
{
	DRV_CTX(ctx);
	if (ctx->fb.draw) {
		ctx->fb.draw->draw_buffer[0] = buf;
		for (unsigned i = 1; i < DRV_MAX_DRAW_BUFFERS; i++)
			ctx->fb.draw->draw_buffer[i] = GL_NONE;
	} else {
		ctx->fb.default_draw_buffer = buf;
	}
}

void drv_gl_DrawBuffers(GLsizei n, const GLenum *bufs)
{
	DRV_CTX(ctx);
	if (n < 0 || n > (GLsizei)DRV_MAX_DRAW_BUFFERS) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!ctx->fb.draw) {
		ctx->fb.default_draw_buffer = n ? bufs[0] : GL_NONE;
		return;
	}
	for (unsigned i = 0; i < DRV_MAX_DRAW_BUFFERS; i++)
		ctx->fb.draw->draw_buffer[i] = (GLsizei)i < n ? bufs[i] : GL_NONE;
}

/* The samples of the draw framebuffer's images (GL 4.6 §9.4.2: all of a
 * complete framebuffer's have the same count): the first attached one's,
 * the window's for the default framebuffer; 1 when single-sampled. */
static uint32_t draw_samples(struct drv_context *ctx)
{
	if (!ctx->fb.draw)
		return ctx->fb.window.samples > 1 ? ctx->fb.window.samples : 1;
	for (unsigned i = 0; i < N_ATT; i++) {
		const struct image *img = attached_image(ctx, &ctx->fb.draw->att[i]);
		if (img && img->format != GL_NONE)
			return img->samples;
	}
	return 1;
}

/* GL 4.6 §14.3.1: the position of sample `index` of the draw framebuffer,
 * in [0, 1] from the pixel's lower-left corner: where the hardware layer
 * programs it (drv_pipe_sample_position), so coverage and the answer
 * agree.  Implementation-dependent: another GL may answer otherwise. */
void drv_gl_GetMultisamplefv(GLenum pname, GLuint index, GLfloat *val)
{
	DRV_CTX(ctx);
	uint32_t samples = draw_samples(ctx);
	if (pname != GL_SAMPLE_POSITION) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	/* index < SAMPLES, which is 0 for a single-sampled framebuffer */
	if (samples <= 1 || !drv_pipe_sample_position(samples, index, val))
		drv_gl_error(ctx, GL_INVALID_VALUE);
}

/* glGet* of the framebuffer state (drv_gl_get.c); 0 when pname is not one. */
unsigned drv_gl_fb_get(struct drv_context *ctx, GLenum pname, double *v)
{
	switch (pname) {
	case GL_DRAW_FRAMEBUFFER_BINDING:
		v[0] = ctx->fb.draw ? ctx->fb.draw->name : 0;
		return 1;
	case GL_READ_FRAMEBUFFER_BINDING:
		v[0] = ctx->fb.read ? ctx->fb.read->name : 0;
		return 1;
	case GL_RENDERBUFFER_BINDING: v[0] = ctx->fb.renderbuffer; return 1;
	/* GL 4.6 §9.2.3.1: of the draw framebuffer */
	case GL_SAMPLES: v[0] = draw_samples(ctx) > 1 ? draw_samples(ctx) : 0; return 1;
	case GL_SAMPLE_BUFFERS: v[0] = draw_samples(ctx) > 1; return 1;
	case GL_TEXTURE_BINDING_2D_MULTISAMPLE: v[0] = ctx->fb.texture_2d_ms[ctx->fb.active_unit]; return 1;
	case GL_ACTIVE_TEXTURE: v[0] = GL_TEXTURE0 + ctx->fb.active_unit; return 1;
	case GL_TEXTURE_BINDING_2D: v[0] = ctx->fb.texture_2d[ctx->fb.active_unit]; return 1;
	case GL_READ_BUFFER:
		v[0] = ctx->fb.read ? ctx->fb.read->read_buffer : ctx->fb.default_read_buffer;
		return 1;
	case GL_DRAW_BUFFER:
		v[0] = ctx->fb.draw ? ctx->fb.draw->draw_buffer[0] : ctx->fb.default_draw_buffer;
		return 1;
	/* the pack state glReadPixels uses (drv_gl_pixels.c) */
	case GL_PACK_ALIGNMENT: v[0] = ctx->px.pack_alignment; return 1;
	case GL_PACK_ROW_LENGTH: v[0] = ctx->px.pack_row_length; return 1;
	case GL_PACK_SKIP_ROWS: v[0] = ctx->px.pack_skip_rows; return 1;
	case GL_PACK_SKIP_PIXELS: v[0] = ctx->px.pack_skip_pixels; return 1;
	default:
		if (pname >= GL_DRAW_BUFFER0 && pname < GL_DRAW_BUFFER0 + DRV_MAX_DRAW_BUFFERS) {
			v[0] = ctx->fb.draw ? ctx->fb.draw->draw_buffer[pname - GL_DRAW_BUFFER0] : GL_NONE;
			return 1;
		}
		return 0;
	}
}

/* ---- the framebuffer's surfaces -------------------------------------------------------- */

static const char not_rendered[] = "an image in a format the sim does not render to";

/* The format an image is rendered in, unsized formats as Mesa sizes them. */
static enum drv_pipe_format hw_format(GLenum internalformat)
{
	const struct format *f;
	switch (internalformat) {
	case GL_RGBA: case GL_RGB: internalformat = GL_RGBA8; break;
	case GL_DEPTH_COMPONENT: internalformat = GL_DEPTH_COMPONENT24; break;
	case GL_DEPTH_STENCIL: internalformat = GL_DEPTH24_STENCIL8; break;
	default: break;
	}
	f = format_of(internalformat);
	return f ? f->hw : DRV_FORMAT_NONE;
}

/* The image an attachment names (level 0 of a 2D texture or a
 * renderbuffer), NULL when none. */
static struct image *attached_image(struct drv_context *ctx, const struct attachment *a)
{
	if (a->type == GL_NONE || a->level != 0)
		return NULL;
	return drv_names_get(a->type == GL_TEXTURE ? &ctx->fb.textures : &ctx->fb.renderbuffers,
			     a->name);
}

static struct drv_pipe_surface *image_surface(struct drv_context *ctx, struct image *img,
					      const char **why)
{
	enum drv_pipe_format hw = hw_format(img->format);
	if (hw == DRV_FORMAT_NONE || !img->width || !img->height) {
		*why = not_rendered;
		return NULL;
	}
	if (!img->surf.bo) {
		if (!drv_pipe_surface_alloc(ctx->screen->hw, &img->surf, hw, img->width, img->height,
					    img->samples)) {
			drv_gl_error(ctx, GL_OUT_OF_MEMORY);
			return NULL;
		}
		/* it starts with the uploaded texels where they convert */
		img->surf.unfaithful = drv_tex_fill_surface(img->tex, &img->surf) ? NULL : img->unfaithful;
	}
	return &img->surf;
}

static struct drv_pipe_surface *window_surface(struct drv_context *ctx, bool color)
{
	struct drv_window_fb *w = &ctx->fb.window;
	struct drv_pipe_surface *s = color ? &w->color : &w->zs;
	enum drv_pipe_format f = color ? w->color_format : w->zs_format;

	if (!w->known || f == DRV_FORMAT_NONE)
		return NULL;
	if (!s->bo && !drv_pipe_surface_alloc(ctx->screen->hw, s, f, w->width, w->height, w->samples)) {
		drv_gl_error(ctx, GL_OUT_OF_MEMORY);
		return NULL;
	}
	return s;
}

static bool window_buffer(GLenum b)
{
	return b == GL_BACK || b == GL_FRONT || b == GL_FRONT_AND_BACK || b == GL_LEFT ||
	       b == GL_BACK_LEFT || b == GL_FRONT_LEFT;
}

struct drv_pipe_surface *drv_gl_fb_color(struct drv_context *ctx, bool read, unsigned i,
					 bool *alpha_one, const char **why)
{
	struct drv_fbo *fb = read ? ctx->fb.read : ctx->fb.draw;
	GLenum b;
	struct image *img;

	*why = NULL;
	if (alpha_one)
		*alpha_one = false;
	if (!fb) {
		b = read ? ctx->fb.default_read_buffer : i == 0 ? ctx->fb.default_draw_buffer : GL_NONE;
		if (!window_buffer(b))
			return NULL;
		if (alpha_one)
			*alpha_one = ctx->fb.window.alpha_one;
		return window_surface(ctx, true);
	}
	b = read ? fb->read_buffer : i < DRV_MAX_DRAW_BUFFERS ? fb->draw_buffer[i] : GL_NONE;
	if (b < GL_COLOR_ATTACHMENT0 || b >= GL_COLOR_ATTACHMENT0 + DRV_MAX_DRAW_BUFFERS)
		return NULL;
	img = attached_image(ctx, &fb->att[b - GL_COLOR_ATTACHMENT0]);
	if (!img)
		return NULL;
	if (alpha_one) {
		const struct format *f = format_of(img->format == GL_RGB ? GL_RGB8 : img->format);
		*alpha_one = f && !f->a;
	}
	return image_surface(ctx, img, why);
}

struct drv_pipe_surface *drv_gl_fb_zs(struct drv_context *ctx, bool read, const char **why)
{
	struct drv_fbo *fb = read ? ctx->fb.read : ctx->fb.draw;
	struct image *depth, *stencil;

	*why = NULL;
	if (!fb)
		return window_surface(ctx, false);
	depth = attached_image(ctx, &fb->att[ATT_DEPTH]);
	stencil = attached_image(ctx, &fb->att[ATT_STENCIL]);
	if (depth && stencil && depth != stencil) {
		*why = "separate depth and stencil images (the hardware has one depth-stencil surface)";
		return NULL;
	}
	if (!depth && !stencil)
		return NULL;
	return image_surface(ctx, depth ? depth : stencil, why);
}

void drv_gl_fb_validate(struct drv_context *ctx)
{
	struct drv_pipe_framebuffer fb = { 0 };
	const char *why;

	for (unsigned i = 0; i < DRV_MAX_DRAW_BUFFERS; i++)
		fb.cbufs[i] = drv_gl_fb_color(ctx, false, i, NULL, &why);
	fb.zsbuf = drv_gl_fb_zs(ctx, false, &why);
	drv_pipe_set_framebuffer(ctx->pipe, &fb);
}

void drv_gl_fb_mark_drawn(struct drv_context *ctx, const char *why)
{
	const char *ignored;
	struct drv_pipe_surface *s;

	for (unsigned i = 0; i < DRV_MAX_DRAW_BUFFERS; i++)
		if ((s = drv_gl_fb_color(ctx, false, i, NULL, &ignored)))
			s->unfaithful = why;
	if ((s = drv_gl_fb_zs(ctx, false, &ignored)))
		s->unfaithful = why;
}

void drv_gl_fb_size(struct drv_context *ctx, bool read, uint32_t *w, uint32_t *h)
{
	struct drv_fbo *fb = read ? ctx->fb.read : ctx->fb.draw;
	bool any = false;

	*w = *h = 0;
	if (!fb) {
		if (ctx->fb.window.known) {
			*w = ctx->fb.window.width;
			*h = ctx->fb.window.height;
		}
		return;
	}
	for (unsigned i = 0; i < N_ATT; i++) {
		const struct image *img = attached_image(ctx, &fb->att[i]);
		if (!img)
			continue;
		*w = !any || img->width < *w ? img->width : *w;
		*h = !any || img->height < *h ? img->height : *h;
		any = true;
	}
}

/* ---- the window-system framebuffer (drv.h) ---------------------------------------------- */

void drv_context_set_window(struct drv_context *ctx, const struct drv_window *win)
{
	struct drv_window_fb *w = &ctx->fb.window;
	enum drv_pipe_format color = DRV_FORMAT_NONE, zs = DRV_FORMAT_NONE;

	if (win->red <= 8 && win->green <= 8 && win->blue <= 8 && win->alpha <= 8 &&
	    win->red + win->green + win->blue > 0)
		color = DRV_FORMAT_RGBA8_UNORM;
	if (win->depth > 24)
		zs = win->stencil ? DRV_FORMAT_Z32_FLOAT_S8_UINT : DRV_FORMAT_Z32_FLOAT;
	else if (win->depth > 16)
		zs = win->stencil ? DRV_FORMAT_Z24_UNORM_S8_UINT : DRV_FORMAT_Z24_UNORM;
	else if (win->depth > 0)
		zs = win->stencil ? DRV_FORMAT_Z24_UNORM_S8_UINT : DRV_FORMAT_Z16_UNORM;
	else if (win->stencil)
		zs = DRV_FORMAT_S8_UINT;
	if (w->known && w->width == win->width && w->height == win->height &&
	    w->color_format == color && w->zs_format == zs &&
	    w->samples == (win->samples > 1 ? (uint32_t)win->samples : 1u))
		return;
	if (!w->known) {
		/* GL 4.6 §14.9.2 / §13.6.1: the scissor box (and the viewport)
		 * start as the size of the first window the context is made
		 * current with */
		ctx->px.scissor[2] = ctx->rast.viewport[2] = (GLint)win->width;
		ctx->px.scissor[3] = ctx->rast.viewport[3] = (GLint)win->height;
	}
	drv_pipe_surface_release(ctx->screen->hw, &w->color);
	drv_pipe_surface_release(ctx->screen->hw, &w->zs);
	*w = (struct drv_window_fb){
		.known = true, .width = win->width, .height = win->height,
		.samples = win->samples > 1 ? (uint32_t)win->samples : 1u,
		.color_format = color, .zs_format = zs, .alpha_one = win->alpha == 0,
	};
}
