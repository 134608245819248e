/*
 * cap_test_fbo.h - the 1x1 framebuffer object every surfaceless test
 * program draws into, for GLES and desktop GL programs alike: include it
 * after the GL header of your API (GLES3/gl3.h or GL/gl.h + GL/glext.h).
 */
#ifndef CAP_TEST_FBO_H
#define CAP_TEST_FBO_H

#include <stdio.h>
#include <stdlib.h>

/* Without a surface there is no default framebuffer, and every draw fails
 * with GL_INVALID_FRAMEBUFFER_OPERATION, even with rasterizer discard:
 * binds a 1x1 framebuffer object; exits 2 when it is incomplete. */
static inline void cap_test_bind_fbo(void)
{
	GLuint fbo, rb;

	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
		fprintf(stderr, "the 1x1 framebuffer is incomplete\n");
		exit(2);
	}
}

#endif
