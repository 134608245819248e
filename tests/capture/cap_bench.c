/*
 * cap_bench.c - per-call cost of the GL calls the capture sees most, for
 * comparing a run without LD_PRELOAD, with libxfbtrace-capture.so and with
 * apitrace (bench/).  Prints one line per case: "NAME NS_PER_CALL".
 *
 * Cases: glUniform1i, glBindBuffer (trivial calls), glBufferSubData of
 * 1 KiB, TF begin + draw + end, map READ + unmap of 1 KiB, map WRITE +
 * fill + unmap of 1 KiB.  GLES 3 on surfaceless EGL.
 *
 * Usage: cap-bench [SCALE]   (iterations are multiplied by SCALE, default 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cap_test_egl.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static const char *vs =
	"#version 300 es\n"
	"uniform int k;\n"
	"in vec4 pos;\n"
	"out vec4 tf_out;\n"
	"void main() { tf_out = pos + vec4(float(k)); gl_Position = pos; }\n";

int main(int argc, char **argv)
{
	static const char *const varyings[] = { "tf_out" };
	const int scale = argc > 1 ? atoi(argv[1]) : 1;
	struct cap_test_egl egl;
	unsigned char data[1024];
	GLuint prog, bufs[2], tfb, vao;
	GLint loc;
	double t0;
	int n;

	memset(data, 0x5a, sizeof(data));
	cap_test_egl_init(&egl);
	cap_test_egl_make_current(&egl, cap_test_egl_context(&egl));
	prog = cap_test_tf_program(vs, varyings, 1);
	glUseProgram(prog);
	loc = glGetUniformLocation(prog, "k");
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(2, bufs);
	glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
	glBufferData(GL_ARRAY_BUFFER, sizeof(data), data, GL_DYNAMIC_DRAW);
	glBindBuffer(GL_ARRAY_BUFFER, bufs[1]);
	glBufferData(GL_ARRAY_BUFFER, sizeof(data), data, GL_DYNAMIC_DRAW);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, NULL);
	glEnableVertexAttribArray(0);
	glGenBuffers(1, &tfb);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 64 * 16, NULL, GL_STREAM_READ);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
	glEnable(GL_RASTERIZER_DISCARD);
	glFinish();

	n = 1000000 * scale;
	t0 = now_ns();
	for (int i = 0; i < n; i++)
		glUniform1i(loc, i);
	printf("glUniform1i %.1f\n", (now_ns() - t0) / n);

	t0 = now_ns();
	for (int i = 0; i < n; i++)
		glBindBuffer(GL_ARRAY_BUFFER, bufs[i & 1]);
	printf("glBindBuffer %.1f\n", (now_ns() - t0) / n);

	n = 100000 * scale;
	glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
	t0 = now_ns();
	for (int i = 0; i < n; i++)
		glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof(data), data);
	printf("glBufferSubData-1KiB %.1f\n", (now_ns() - t0) / n);

	n = 10000 * scale;
	t0 = now_ns();
	for (int i = 0; i < n; i++) {
		glBeginTransformFeedback(GL_POINTS);
		glDrawArrays(GL_POINTS, 0, 16);
		glEndTransformFeedback();
	}
	glFinish();
	printf("tf-begin-draw-end %.1f\n", (now_ns() - t0) / n);

	n = 20000 * scale;
	t0 = now_ns();
	for (int i = 0; i < n; i++) {
		const void *p = glMapBufferRange(GL_ARRAY_BUFFER, 0, sizeof(data), GL_MAP_READ_BIT);
		if (p)
			data[i & 1023] ^= ((const unsigned char *)p)[i & 1023];
		glUnmapBuffer(GL_ARRAY_BUFFER);
	}
	printf("map-read-unmap-1KiB %.1f\n", (now_ns() - t0) / n);

	t0 = now_ns();
	for (int i = 0; i < n; i++) {
		void *p = glMapBufferRange(GL_ARRAY_BUFFER, 0, sizeof(data),
					   GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT);
		if (p)
			memcpy(p, data, sizeof(data));
		glUnmapBuffer(GL_ARRAY_BUFFER);
	}
	printf("map-write-unmap-1KiB %.1f\n", (now_ns() - t0) / n);
	return 0;
}
