/*
 * drv_gl_blit.c - glBlitFramebuffer (GL 4.6 §18.3.1) and glCopyTexImage2D /
 * glCopyTexSubImage2D (§8.6), done as Mesa's state tracker does them: a
 * blit of the hardware layer (drv_pipe_blit: a draw of the destination
 * rectangle whose pixel shader samples the source, radeonsi's u_blitter),
 * after GL's errors.
 *
 * glBlitFramebuffer: the read buffer of the read framebuffer goes into
 * every draw buffer of the draw framebuffer, scaled and mirrored as the
 * two rectangles say, NEAREST or LINEAR; of the per-fragment operations
 * only the pixel ownership and scissor tests apply (§18.3.1), so the
 * application's blending, write masks, depth and stencil state do not.
 * The conditional render applies (§10.10).  Depth and stencil blits are
 * not modelled: reported by name, the destination marked.
 *
 * Reading outside the read framebuffer leaves the destination pixels
 * undefined (§18.3.1), and a multisample resolve of a normalized or float
 * format is implementation-dependent: glBlitFramebuffer notes those
 * rectangles of its destinations (drv_pipe_note_loose), for a replay
 * that classifies the differences in them (drv.h, surface events).  A
 * glCopyTex*'s read outside the framebuffer (undefined texels, §8.6),
 * or a blit from pixels the sim did not draw faithfully, marks the
 * destination (drv_pipe_surface.unfaithful): a read of it is reported
 * rather than compared.
 */
#include "drv_gl_int.h"

static const char from_outside[] =
	"were written by a glCopyTexSubImage2D reading outside the read framebuffer, which GL leaves "
	"undefined (GL 4.6 §8.6)";

/* The destination pixels [*a, *b) of d0 .. d1 (either order), within
 * 0 .. limit, whose centres map inside the source's 0 .. size under
 * §18.3.1's mapping of s0 .. s1 onto d0 .. d1 (monotonic: an interval,
 * empty when *a >= *b). */
static void defined_span(int32_t s0, int32_t s1, int32_t d0, int32_t d1, uint32_t size, uint32_t limit,
			 int32_t *a, int32_t *b)
{
	int64_t lo = d0 < d1 ? d0 : d1, hi = d0 < d1 ? d1 : d0;
	lo = lo < 0 ? 0 : lo;
	hi = hi > (int64_t)limit ? (int64_t)limit : hi;
	*a = (int32_t)hi;
	*b = (int32_t)lo;
	for (int64_t x = lo; x < hi; x++) {
		double s = s0 + ((double)x + 0.5 - d0) * ((double)s1 - s0) / ((double)d1 - d0);
		if (s >= 0 && s < size) {
			if (x < *a)
				*a = (int32_t)x;
			*b = (int32_t)x + 1;
		}
	}
}

/* Notes the pixels of dst's part of the destination rectangle whose
 * source lies outside the read buffer: undefined (§18.3.1). */
static void note_outside(struct drv_context *ctx, const struct drv_pipe_blit_info *info,
			 const struct drv_pipe_surface *dst)
{
	const int32_t xlo = info->dx0 < info->dx1 ? info->dx0 : info->dx1;
	const int32_t xhi = info->dx0 < info->dx1 ? info->dx1 : info->dx0;
	const int32_t ylo = info->dy0 < info->dy1 ? info->dy0 : info->dy1;
	const int32_t yhi = info->dy0 < info->dy1 ? info->dy1 : info->dy0;
	int32_t ax, bx, ay, by;

	defined_span(info->sx0, info->sx1, info->dx0, info->dx1, info->src->width, dst->width, &ax, &bx);
	defined_span(info->sy0, info->sy1, info->dy0, info->dy1, info->src->height, dst->height, &ay, &by);
	if (ax >= bx || ay >= by) {
		drv_pipe_note_loose(ctx->pipe, dst, &(struct drv_pipe_rect){ xlo, ylo, xhi, yhi }, true);
		return;
	}
	const struct drv_pipe_rect parts[4] = {
		{ xlo, ylo, xhi, ay }, { xlo, by, xhi, yhi }, { xlo, ay, ax, by }, { bx, ay, xhi, by },
	};
	for (unsigned i = 0; i < 4; i++)
		if (parts[i].x0 < parts[i].x1 && parts[i].y0 < parts[i].y1)
			drv_pipe_note_loose(ctx->pipe, dst, &parts[i], true);
}

/* A blit that neither scales nor resolves moves the source's pixels as
 * they are: noted, so that a replay keeps what it knows of them (where
 * width-1 lines or loose blits put them) with the pixels. */
static void note_unscaled(struct drv_context *ctx, const struct drv_pipe_blit_info *info,
			  const struct drv_pipe_surface *dst)
{
	const int64_t sw = (int64_t)info->sx1 - info->sx0, sh = (int64_t)info->sy1 - info->sy0;
	const int64_t dw = (int64_t)info->dx1 - info->dx0, dh = (int64_t)info->dy1 - info->dy0;

	if (info->src->samples > 1 || (sw != dw && sw != -dw) || (sh != dh && sh != -dh))
		return;
	/* x_dst = dx0 + m (x_src - sx0), m = +-1 */
	const int32_t mx = sw == dw ? 1 : -1, my = sh == dh ? 1 : -1;
	drv_pipe_note_copy(ctx->pipe, info->src, dst,
			   &(struct drv_pipe_rect){ info->dx0 < info->dx1 ? info->dx0 : info->dx1,
						    info->dy0 < info->dy1 ? info->dy0 : info->dy1,
						    info->dx0 < info->dx1 ? info->dx1 : info->dx0,
						    info->dy0 < info->dy1 ? info->dy1 : info->dy0 },
			   mx, my, (int32_t)(info->dx0 - (int64_t)mx * info->sx0),
			   (int32_t)(info->dy0 - (int64_t)my * info->sy0));
}

/* Whether the rectangle from (x0, y0) to (x1, y1), either order, lies in
 * a w x h buffer. */
static bool inside(int32_t x0, int32_t y0, int32_t x1, int32_t y1, uint32_t w, uint32_t h)
{
	return (x0 < x1 ? x0 : x1) >= 0 && (y0 < y1 ? y0 : y1) >= 0 && (int64_t)(x0 < x1 ? x1 : x0) <= w &&
	       (int64_t)(y0 < y1 ? y1 : y0) <= h;
}

static bool integer_format(const struct drv_pipe_surface *s, bool *is_signed)
{
	const struct drv_pipe_format_info *fi = drv_pipe_format_info(s->format);
	*is_signed = fi->is_sint;
	return fi->is_uint || fi->is_sint;
}

/* The blit of src into the surfaces of dst[], after its errors: done, or
 * reported by name with the destinations marked.  copy: glCopyTex*. */
static void blit_color(struct drv_context *ctx, struct drv_pipe_blit_info *info, bool copy)
{
	const char *why = NULL;

	for (unsigned i = 0; i < 8 && !why; i++)
		if (info->dst[i])
			why = drv_pipe_blit_unsupported(info->src, info->dst[i]);
	if (why) {
		drv_gl_unsupported(ctx, why);
		for (unsigned i = 0; i < 8; i++)
			if (info->dst[i])
				info->dst[i]->unfaithful = "were written by a blit the sim does not do";
		return;
	}
	/* a draw: the call's register state is worth a snapshot */
	ctx->state_call = true;
	if (!drv_pipe_blit(ctx->pipe, info))
		return;
	const bool outside = !inside(info->sx0, info->sy0, info->sx1, info->sy1, info->src->width,
				     info->src->height);
	bool is_signed;
	const bool resolve = info->src->samples > 1 && !integer_format(info->src, &is_signed);
	for (unsigned i = 0; i < 8; i++) {
		struct drv_pipe_surface *d = info->dst[i];
		if (!d)
			continue;
		if (info->src->unfaithful)
			d->unfaithful = info->src->unfaithful;
		else if (outside && copy)
			d->unfaithful = from_outside;
		else if (outside)
			note_outside(ctx, info, d);
		note_unscaled(ctx, info, d);
		/* §18.3.1: normalized and float samples are resolved in an
		 * implementation-dependent manner */
		if (resolve)
			drv_pipe_note_loose(ctx->pipe, d, &(struct drv_pipe_rect){
				info->dx0 < info->dx1 ? info->dx0 : info->dx1, info->dy0 < info->dy1 ? info->dy0 : info->dy1,
				info->dx0 < info->dx1 ? info->dx1 : info->dx0, info->dy0 < info->dy1 ? info->dy1 : info->dy0 },
				false);
	}
}

void drv_gl_BlitFramebuffer(GLint sx0, GLint sy0, GLint sx1, GLint sy1, GLint dx0, GLint dy0, GLint dx1,
			    GLint dy1, GLbitfield mask, GLenum filter)
{
	DRV_CTX(ctx);
	struct drv_pipe_blit_info info = {
		.sx0 = sx0, .sy0 = sy0, .sx1 = sx1, .sy1 = sy1, .dx0 = dx0, .dy0 = dy0, .dx1 = dx1, .dy1 = dy1,
		.linear = filter == GL_LINEAR, .render_condition = true,
	};
	const char *why;
	bool any_dst = false;

	if (mask & ~(GLbitfield)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT)) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (filter != GL_NEAREST && filter != GL_LINEAR) {
		drv_gl_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (filter == GL_LINEAR && (mask & (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	/* a buffer of mask missing in either framebuffer is ignored */
	if (mask & GL_COLOR_BUFFER_BIT) {
		info.src = drv_gl_fb_color(ctx, true, 0, &info.src_alpha_one, &why);
		for (unsigned i = 0; info.src && i < DRV_MAX_DRAW_BUFFERS; i++)
			any_dst |= (info.dst[i] = drv_gl_fb_color(ctx, false, i, NULL, &why)) != NULL;
	}
	if (info.src && any_dst) {
		bool src_signed, dst_signed;
		bool src_int = integer_format(info.src, &src_signed);
		for (unsigned i = 0; i < DRV_MAX_DRAW_BUFFERS; i++) {
			/* integer into non-integer or the other way, signed
			 * into unsigned: GL_INVALID_OPERATION */
			if (info.dst[i] && (integer_format(info.dst[i], &dst_signed) != src_int ||
					    (src_int && dst_signed != src_signed))) {
				drv_gl_error(ctx, GL_INVALID_OPERATION);
				return;
			}
			/* a multisampled draw framebuffer: GLES 3.0 §4.3.3
			 * forbids it; GL writes every sample, and from a
			 * multisampled source the sample counts agree */
			if (info.dst[i] && info.dst[i]->samples > 1 &&
			    (ctx->gles || (info.src->samples > 1 && info.src->samples != info.dst[i]->samples))) {
				drv_gl_error(ctx, GL_INVALID_OPERATION);
				return;
			}
		}
		if (src_int && filter == GL_LINEAR) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		/* a multisampled read framebuffer: the rectangles are the same
		 * (a resolve is 1:1; GL 4.6 §18.3.1) */
		if (info.src->samples > 1 && ((int64_t)sx1 - sx0 != (int64_t)dx1 - dx0 ||
					      (int64_t)sy1 - sy0 != (int64_t)dy1 - dy0)) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
	}
	if (mask & (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT)) {
		struct drv_pipe_surface *src = drv_gl_fb_zs(ctx, true, &why);
		struct drv_pipe_surface *dst = drv_gl_fb_zs(ctx, false, &why);
		if (src && dst && src->format != dst->format) {
			drv_gl_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		if (src && dst && sx0 != sx1 && sy0 != sy1 && dx0 != dx1 && dy0 != dy1) {
			drv_gl_unsupported(ctx, "glBlitFramebuffer of depth or stencil values");
			dst->unfaithful = "were written by a glBlitFramebuffer of depth or stencil values, which the "
					  "sim does not do";
		}
	}
	if (!info.src || !any_dst || sx0 == sx1 || sy0 == sy1 || dx0 == dx1 || dy0 == dy1)
		return;
	if (drv_gl_cap_enabled(ctx, GL_SCISSOR_TEST)) {
		const GLint *s = ctx->px.scissor;
		info.scissor = true;
		info.scissor_rect = (struct drv_pipe_rect){ s[0], s[1], (int32_t)((int64_t)s[0] + s[2]),
							    (int32_t)((int64_t)s[1] + s[3]) };
	}
	blit_color(ctx, &info, false);
}

/* glCopyTexSubImage2D: the w x h pixels at (x, y) of the read buffer into
 * (xoffset, yoffset) of level 0 of the bound 2D texture, 1:1 (a NEAREST
 * blit without scissor or conditional rendering, §8.6). */
void drv_gl_CopyTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint x, GLint y,
			      GLsizei w, GLsizei h)
{
	DRV_CTX(ctx);
	struct drv_pipe_blit_info info = {
		.sx0 = x, .sy0 = y, .sx1 = (int32_t)((int64_t)x + w), .sy1 = (int32_t)((int64_t)y + h),
		.dx0 = xoffset, .dy0 = yoffset, .dx1 = (int32_t)((int64_t)xoffset + w),
		.dy1 = (int32_t)((int64_t)yoffset + h),
	};
	struct drv_pipe_surface *tex;
	const char *why;
	bool a, b;

	if (target != GL_TEXTURE_2D || level != 0) {
		if (level < 0)
			drv_gl_error(ctx, GL_INVALID_VALUE);
		else
			drv_gl_unsupported(ctx, "glCopyTexSubImage2D into a cube-map face or a mip level other "
						"than 0");
		return;
	}
	if (w < 0 || h < 0 || xoffset < 0 || yoffset < 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	tex = drv_gl_fb_tex2d_surface(ctx, &why);
	if (!tex) {
		if (why)
			drv_gl_unsupported(ctx, "glCopyTexSubImage2D into a texture of a format the sim does not "
						"render to");
		else
			drv_gl_error(ctx, GL_INVALID_OPERATION);   /* no texture image */
		return;
	}
	if ((int64_t)xoffset + w > tex->width || (int64_t)yoffset + h > tex->height) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	info.src = drv_gl_fb_color(ctx, true, 0, &info.src_alpha_one, &why);
	if (!info.src) {
		if (why)
			drv_gl_unsupported(ctx, why);
		else
			drv_gl_error(ctx, GL_INVALID_OPERATION);   /* no read buffer */
		return;
	}
	/* §8.6: integer and non-integer, or signed and unsigned, formats
	 * do not mix; nor does a multisampled read buffer */
	if (integer_format(info.src, &a) != integer_format(tex, &b) || a != b || info.src->samples > 1) {
		drv_gl_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!w || !h)
		return;
	info.dst[0] = tex;
	blit_color(ctx, &info, true);
}

/* glCopyTexImage2D: a new level (as glTexImage2D without data) filled by
 * glCopyTexSubImage2D. */
void drv_gl_CopyTexImage2D(GLenum target, GLint level, GLenum internalformat, GLint x, GLint y, GLsizei w,
			   GLsizei h, GLint border)
{
	DRV_CTX(ctx);
	if (w < 0 || h < 0 || level < 0 || border != 0) {
		drv_gl_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/* no texel data: not even from a bound pixel unpack buffer */
	struct drv_buffer *unpack = ctx->pixel_unpack;
	ctx->pixel_unpack = NULL;
	drv_gl_TexImage2D(target, level, (GLint)internalformat, w, h, border, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	ctx->pixel_unpack = unpack;
	drv_gl_CopyTexSubImage2D(target, level, 0, 0, x, y, w, h);
}
