/*
 * cap_tf_quads_gl.c - quads, a quad strip and a polygon through TF in a
 * compatibility-profile context (issue 19, "tessellation order").  With a
 * primitive mode of GL_TRIANGLES, "quads and polygons ... will be
 * tessellated and recorded as triangles (the order of tessellation within
 * a primitive is undefined)" (GL 4.6 compatibility profile §13.3): another
 * driver may record the triangles of each quad in another order, which
 * `replay --check` classifies as implementation-dependent; a vertex that
 * is not the quad's is a difference.
 *
 * Draws, TF capturing gl_Vertex as `v` (every vertex distinct), from a VBO:
 *   glDrawArrays(GL_QUADS, 0, 8)        2 quads, 4 triangles
 *   glDrawArrays(GL_POLYGON, 8, 5)      3 triangles (with `imm`: glBegin /
 *                                       glVertex4fv / glEnd instead)
 *   glDrawArrays(GL_QUAD_STRIP, 13, 6)  2 quads, 4 triangles
 * 11 triangles: 528 of the TF buffer's 1024 bytes (made with NULL data,
 * so the rest is undefined), which is then mapped whole for reading.
 *
 * With `first`, glProvokingVertex(GL_FIRST_VERTEX_CONVENTION) before the
 * draws: the provoking vertex of each triangle is one of the quad's
 * (GL 4.6 compatibility §13.6), another split for drivers that make it so.
 *
 * Usage: cap-tf-quads-gl [imm|first]   (exit 0; 1 when TF wrote another count of
 * primitives; 2 on a GL error; 77 when a desktop GL compatibility context
 * is unavailable on surfaceless EGL)
 */
#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_test_gl.h"

#include "cap_test_fbo.h"

static const char *vs =
	"#version 130\n"
	"out vec4 v;\n"
	"void main() {\n"
	"  v = gl_Vertex;\n"
	"  gl_Position = gl_Vertex;\n"
	"}\n";

int main(int argc, char **argv)
{
	static const char *const varyings[] = { "v" };
	const int imm = argc > 1 && !strcmp(argv[1], "imm");
	const int first = argc > 1 && !strcmp(argv[1], "first");
	GLfloat verts[19][4];
	GLuint prog, vbo, tfb, query;

	cap_test_gl_current(3, 0, 0);
	cap_test_bind_fbo();
	for (int i = 0; i < 19; i++) {
		verts[i][0] = (GLfloat)(i % 4) * 0.25f;
		verts[i][1] = (GLfloat)(i / 4) * 0.25f;
		verts[i][2] = (GLfloat)i;
		verts[i][3] = 1.0f;
	}

	prog = cap_test_gl_tf_program(vs, varyings, 1);
	glUseProgram(prog);

	glGenBuffers(1, &vbo);
	glBindBuffer(GL_ARRAY_BUFFER, vbo);
	glBufferData(GL_ARRAY_BUFFER, sizeof verts, verts, GL_STATIC_DRAW);
	glVertexPointer(4, GL_FLOAT, 0, (const void *)0);
	glEnableClientState(GL_VERTEX_ARRAY);

	glGenBuffers(1, &tfb);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 1024, NULL, GL_STREAM_READ);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
	glEnable(GL_RASTERIZER_DISCARD);
	glGenQueries(1, &query);

	if (first)
		glProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
	glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, query);
	glBeginTransformFeedback(GL_TRIANGLES);
	glDrawArrays(GL_QUADS, 0, 8);
	if (imm) {
		glBegin(GL_POLYGON);
		for (int i = 8; i < 13; i++)
			glVertex4fv(verts[i]);
		glEnd();
	} else {
		glDrawArrays(GL_POLYGON, 8, 5);
	}
	glDrawArrays(GL_QUAD_STRIP, 13, 6);
	glEndTransformFeedback();
	glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);

	GLuint written = 0;
	glGetQueryObjectuiv(query, GL_QUERY_RESULT, &written);
	const GLfloat *p = glMapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, GL_READ_ONLY);
	glUnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
	printf("primitives written %u\n", written);
	if (glGetError() != GL_NO_ERROR || !p)
		return 2;
	return written == 11 ? 0 : 1;
}
