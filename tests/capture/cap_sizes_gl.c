/*
 * cap_sizes_gl.c - desktop GL (4.5 compatibility) calls whose pointer
 * arguments gl.xml sizes by COMPSIZE or not at all, each with memory the
 * capture must record in full for the replay to pass the same bytes:
 * glClearBuffer*v and glClearNamedFramebufferfv (4 values for GL_COLOR, 1
 * for GL_DEPTH), glGetUniformfv of a mat4 and a vec3, glGetActiveUniformBlockiv
 * (GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES), the viewport / scissor / depth
 * range arrays (glScissorArrayv, glDepthRangeArrayv; glViewportArrayv
 * crashed Mesa 22.3.6 llvmpipe here),
 * glNamedBufferSubData / glGetNamedBufferSubData, and
 * glMultiDrawElements under transform feedback with client-memory index
 * arrays, then with element buffer offsets: the TF output depends on
 * every index (gl_VertexID), so a replay with other indices differs.
 * Then the compatibility profile's state with sizes from other state:
 * polygon stipple, pixel maps, evaluator maps (glMap1f, glMap2f,
 * glGetMapfv), and compressed images read back (glGetCompressedTexImage,
 * EXT_direct_state_access's glGetCompressedTextureImageEXT).
 *
 * Usage: cap-sizes-gl   (exit 0; 2 on a GL error; 77 when desktop GL 4.5
 * compatibility is unavailable on surfaceless EGL)
 */
#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>

#include "cap_test_gl.h"

#include "cap_test_fbo.h"

static const char *vs =
	"#version 450 compatibility\n"
	"uniform mat4 m;\n"
	"uniform vec3 v;\n"
	"layout(std140) uniform B { vec4 b0; vec4 b1; };\n"
	"out vec4 a;\n"
	"void main() {\n"
	"  a = m * vec4(float(gl_VertexID)) + vec4(v, 0.0) + b0 + b1;\n"
	"  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n"
	"}\n";

int main(void)
{
	static const GLfloat mat[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	static const GLfloat vec[3] = { 0.5f, 0.25f, 0.125f };
	static const GLfloat block[8] = { 100, 200, 300, 400, 1000, 2000, 3000, 4000 };
	static const GLfloat color[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
	static const GLfloat depth = 0.5f;
	static const GLint icolor[4] = { 1, 2, 3, 4 };
	static const GLint scissors[8] = { 0, 0, 1, 1, 0, 0, 1, 1 };
	static const GLdouble ranges[4] = { 0.0, 1.0, 0.25, 0.75 };
	static const GLushort idx0[3] = { 7, 3, 5 }, idx1[2] = { 11, 2 };
	static const GLushort elements[5] = { 4, 9, 1, 6, 8 };
	const void *client[2] = { idx0, idx1 };
	const void *offsets[2] = { (const void *)0, (const void *)(3 * sizeof(GLushort)) };
	const GLsizei counts[2] = { 3, 2 };
	GLfloat got_m[16], got_v[3], readback[8];
	GLint indices[2] = { -1, -1 };
	static const char *const varyings[] = { "a" };
	GLuint prog, ubo, tf, ebo, vao, fbo = 0;
	GLenum err;

	cap_test_gl_current(4, 5, EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT);
	cap_test_bind_fbo();
	glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, (GLint *)&fbo);
	prog = cap_test_gl_tf_program(vs, varyings, 1);
	glUseProgram(prog);
	glUniformMatrix4fv(glGetUniformLocation(prog, "m"), 1, GL_FALSE, mat);
	glUniform3fv(glGetUniformLocation(prog, "v"), 1, vec);
	glGetUniformfv(prog, glGetUniformLocation(prog, "m"), got_m);
	glGetUniformfv(prog, glGetUniformLocation(prog, "v"), got_v);
	glGetActiveUniformBlockiv(prog, 0, GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES, indices);

	glCreateBuffers(1, &ubo);
	glNamedBufferData(ubo, sizeof block, NULL, GL_STATIC_DRAW);
	glNamedBufferSubData(ubo, 0, sizeof block, block);
	glGetNamedBufferSubData(ubo, 0, sizeof readback, readback);
	glBindBufferBase(GL_UNIFORM_BUFFER, 0, ubo);
	glUniformBlockBinding(prog, 0, 0);

	glClearBufferfv(GL_COLOR, 0, color);
	glClearBufferfv(GL_DEPTH, 0, &depth);
	glClearNamedFramebufferfv(fbo, GL_COLOR, 0, color);
	glClearBufferiv(GL_COLOR, 0, icolor);
	glScissorArrayv(0, 2, scissors);
	glDepthRangeArrayv(0, 2, ranges);

	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(1, &tf);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tf);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 5 * 16, NULL, GL_STATIC_READ);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf);
	glEnable(GL_RASTERIZER_DISCARD);

	/* client-memory index arrays, then element buffer offsets */
	glBeginTransformFeedback(GL_POINTS);
	glMultiDrawElements(GL_POINTS, counts, GL_UNSIGNED_SHORT, client, 2);
	glEndTransformFeedback();
	glGenBuffers(1, &ebo);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof elements, elements, GL_STATIC_DRAW);
	glBeginTransformFeedback(GL_POINTS);
	glMultiDrawElements(GL_POINTS, counts, GL_UNSIGNED_SHORT, offsets, 2);
	glEndTransformFeedback();

	/* compatibility state whose read-back size is state */
	static const GLubyte stipple[128] = { 0x55, 0xaa, 1, 2, 3 };
	static const GLfloat imap[4] = { 0.0f, 0.25f, 0.5f, 1.0f };
	static const GLfloat pts1[12] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
	static const GLfloat pts2[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1 };
	static const GLubyte rgtc[8] = { 0xff, 0x00, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24 };
	GLubyte got_stipple[128], got_rgtc[8], got_rgtc_ext[8];
	GLfloat got_map[4], coeff1[12], coeff2[12], domain2[4];
	GLuint tex;
	glPolygonStipple(stipple);
	glGetPolygonStipple(got_stipple);
	glPixelMapfv(GL_PIXEL_MAP_I_TO_R, 4, imap);
	glGetPixelMapfv(GL_PIXEL_MAP_I_TO_R, got_map);
	glMap1f(GL_MAP1_VERTEX_3, 0.0f, 1.0f, 3, 4, pts1);
	glGetMapfv(GL_MAP1_VERTEX_3, GL_COEFF, coeff1);
	glMap2f(GL_MAP2_VERTEX_3, 0.0f, 1.0f, 3, 2, 0.0f, 1.0f, 6, 2, pts2);
	glGetMapfv(GL_MAP2_VERTEX_3, GL_COEFF, coeff2);
	glGetMapfv(GL_MAP2_VERTEX_3, GL_DOMAIN, domain2);
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 0, sizeof rgtc, rgtc);
	glGetCompressedTexImage(GL_TEXTURE_2D, 0, got_rgtc);
	PFNGLGETCOMPRESSEDTEXTUREIMAGEEXTPROC get_ext = (PFNGLGETCOMPRESSEDTEXTUREIMAGEEXTPROC)
		eglGetProcAddress("glGetCompressedTextureImageEXT");
	if (!get_ext) {
		fprintf(stderr, "no glGetCompressedTextureImageEXT\n");
		return 2;
	}
	get_ext(tex, GL_TEXTURE_2D, 0, got_rgtc_ext);

	glFinish();
	if ((err = glGetError()) != GL_NO_ERROR) {
		fprintf(stderr, "GL error 0x%x\n", err);
		return 2;
	}
	printf("uniform m[15] %g v[2] %g block indices %d %d readback %g\n", got_m[15], got_v[2],
	       indices[0], indices[1], readback[7]);
	return 0;
}
