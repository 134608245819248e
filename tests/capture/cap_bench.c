/*
 * cap_bench.c - per-call cost of the GL calls the capture sees most, for
 * comparing a run without LD_PRELOAD, with libxfbtrace-capture.so and with
 * apitrace (bench/).  Prints one line per case: "NAME NS_PER_CALL".
 *
 * Cases: glUniform1i, glBindBuffer, glGetIntegerv, glGetError (trivial
 * calls), glBufferSubData of
 * 1 KiB, TF begin + draw + end, map READ + unmap of 1 KiB, map WRITE +
 * fill + unmap of 1 KiB.  GLES 3 on surfaceless EGL.
 *
 * Usage: [CAP_BENCH_CLOCK=thread] [CAP_BENCH_TRIALS=T] cap-bench [SCALE [CASE...]]
 * (iterations are multiplied by SCALE, default 1; with CASEs, only those
 * run).  Each case runs T times (default 5) and prints its fastest run:
 * whatever else the machine does only ever adds time, so the fastest of a
 * few runs of thousands of calls is the steadiest estimate of a call's own
 * cost (each run is long enough to include the capture's and apitrace's
 * periodic work: spool regions, write buffers).  Each case is its own
 * non-inlined function bench_<case>, so that callgrind can count one
 * case's instructions alone (--toggle-collect=bench_tf); callgrind wants
 * CAP_BENCH_TRIALS=1.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noipa))  /* one symbol per case, for callgrind */

#include "cap_test_egl.h"

/* CLOCK_MONOTONIC, or with CAP_BENCH_CLOCK=thread the calling thread's CPU
 * time, which a loaded machine does not inflate (time spent waiting for a
 * core is not counted; work of other threads, e.g. the capture's
 * compressor, neither). */
static clockid_t bench_clock = CLOCK_MONOTONIC;
static int bench_trials = 5;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(bench_clock, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static const char *vs =
	"#version 300 es\n"
	"uniform int k;\n"
	"in vec4 pos;\n"
	"out vec4 tf_out;\n"
	"void main() { tf_out = pos + vec4(float(k)); gl_Position = pos; }\n";

static NOINLINE void bench_uniform(int n, GLint loc)
{
	for (int i = 0; i < n; i++)
		glUniform1i(loc, i);
}

/* The two queries the asynchronous read-back may make per TF end
 * (docs/performance.md, issue 23): what each costs the driver. */
static NOINLINE void bench_get_integer(int n)
{
	GLint v = 0;

	for (int i = 0; i < n; i++)
		glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &v);
}

static NOINLINE void bench_get_error(int n)
{
	for (int i = 0; i < n; i++)
		(void)glGetError();
}

static NOINLINE void bench_bind(int n, const GLuint *bufs)
{
	for (int i = 0; i < n; i++)
		glBindBuffer(GL_ARRAY_BUFFER, bufs[i & 1]);
}

static NOINLINE void bench_subdata(int n, const unsigned char *data, size_t size)
{
	for (int i = 0; i < n; i++)
		glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)size, data);
}

static NOINLINE void bench_tf(int n)
{
	for (int i = 0; i < n; i++) {
		glBeginTransformFeedback(GL_POINTS);
		glDrawArrays(GL_POINTS, 0, 16);
		glEndTransformFeedback();
	}
	glFinish();
}

/*
 * The asynchronous read-back's parts (observe/obs_async.c; issue 23), each
 * added to the TF case without the capture, to see which one a driver
 * makes expensive: a copy of the TF buffer (1 KiB) into `dst` (the
 * staging ring, or a buffer of the GPU's own memory) at a moving offset,
 * and with `fences`, a fence after every 8 iterations polled as the
 * read-back polls it (the first poll of a fence flushes).
 */
#define PART_FENCES 64
static NOINLINE void bench_tf_parts(int n, GLuint dst, bool fences)
{
	GLsync fence[PART_FENCES];
	unsigned head = 0, count = 0;
	bool flushed = false;

	for (int i = 0; i < n; i++) {
		glBeginTransformFeedback(GL_POINTS);
		glDrawArrays(GL_POINTS, 0, 16);
		glEndTransformFeedback();
		if (dst) {
			glBindBuffer(GL_COPY_WRITE_BUFFER, dst);
			glCopyBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, GL_COPY_WRITE_BUFFER, 0,
					    (GLintptr)(i & 1023) * 1024, 1024);
			glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
		}
		if (!fences)
			continue;
		if ((i & 7) == 7 && count < PART_FENCES) {
			fence[(head + count++) % PART_FENCES] =
				glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
		}
		while (count) {
			GLenum r = glClientWaitSync(fence[head], flushed ? 0 :
						    GL_SYNC_FLUSH_COMMANDS_BIT, 0);
			flushed = true;
			if (r == GL_TIMEOUT_EXPIRED)
				break;
			glDeleteSync(fence[head]);
			head = (head + 1) % PART_FENCES;
			count--;
			flushed = false;
		}
	}
	while (count) {
		glClientWaitSync(fence[head], GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000);
		glDeleteSync(fence[head]);
		head = (head + 1) % PART_FENCES;
		count--;
	}
	glFinish();
}

/* The copy alone: 1 KiB of a buffer no draw wrote, bound to ARRAY_BUFFER,
 * into `dst`. */
static NOINLINE void bench_copy_only(int n, GLuint dst, bool bind_once)
{
	if (bind_once)
		glBindBuffer(GL_COPY_WRITE_BUFFER, dst);
	for (int i = 0; i < n; i++) {
		if (!bind_once)
			glBindBuffer(GL_COPY_WRITE_BUFFER, dst);
		glCopyBufferSubData(GL_ARRAY_BUFFER, GL_COPY_WRITE_BUFFER, 0,
				    (GLintptr)(i & 1023) * 1024, 1024);
		if (!bind_once)
			glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
	}
	glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
	glFinish();
}

/*
 * Copies made later, in batches (what a deferred read-back would do): TF
 * passes into 8 buffers `tf` (DYNAMIC_COPY) in turn and, with `dst`,
 * after each 8 the 8 copies into `dst`.  Without dst: the passes alone.
 */
static NOINLINE void bench_tf_batched(int n, const GLuint *tf, GLuint dst)
{
	for (int i = 0; i < n; i++) {
		glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf[i & 7]);
		glBeginTransformFeedback(GL_POINTS);
		glDrawArrays(GL_POINTS, 0, 16);
		glEndTransformFeedback();
		if (!dst || (i & 7) != 7)
			continue;
		glBindBuffer(GL_COPY_WRITE_BUFFER, dst);
		for (int k = 0; k < 8; k++) {
			glBindBuffer(GL_COPY_READ_BUFFER, tf[k]);
			glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0,
					    (GLintptr)((i - 7 + k) & 1023) * 1024, 1024);
		}
		glBindBuffer(GL_COPY_READ_BUFFER, 0);
		glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
	}
	glFinish();
}

/* 1 MiB for bench_tf_parts: the staging ring (immutable storage, mapped
 * persistently for reading, client memory) when `ring` and the context has
 * EXT_buffer_storage, else a plain buffer (the GPU's memory). */
static GLuint parts_buffer(bool ring)
{
	typedef void (*storage_fn)(GLenum, GLsizeiptr, const void *, GLbitfield);
	storage_fn storage = (storage_fn)eglGetProcAddress("glBufferStorageEXT");
	GLuint b = 0;

	glGenBuffers(1, &b);
	glBindBuffer(GL_COPY_WRITE_BUFFER, b);
	if (ring && storage && strstr((const char *)glGetString(GL_EXTENSIONS), "GL_EXT_buffer_storage")) {
		storage(GL_COPY_WRITE_BUFFER, 1 << 20, NULL, 0x1 | 0x40 | 0x80 | 0x200);
		glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, 1 << 20, 0x1 | 0x40 | 0x80);
	} else {
		glBufferData(GL_COPY_WRITE_BUFFER, 1 << 20, NULL, ring ? GL_STREAM_READ : GL_DYNAMIC_COPY);
	}
	glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
	return b;
}

static NOINLINE void bench_map_read(int n, unsigned char *data, size_t size)
{
	for (int i = 0; i < n; i++) {
		const void *p = glMapBufferRange(GL_ARRAY_BUFFER, 0, (GLsizeiptr)size,
						 GL_MAP_READ_BIT);
		if (p)
			data[i & 1023] ^= ((const unsigned char *)p)[i & 1023];
		glUnmapBuffer(GL_ARRAY_BUFFER);
	}
}

static NOINLINE void bench_map_write(int n, const unsigned char *data, size_t size)
{
	for (int i = 0; i < n; i++) {
		void *p = glMapBufferRange(GL_ARRAY_BUFFER, 0, (GLsizeiptr)size,
					   GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT);
		if (p)
			memcpy(p, data, size);
		glUnmapBuffer(GL_ARRAY_BUFFER);
	}
}

/* One untimed round of the cases that compile or allocate in the driver on
 * first use (llvmpipe JIT-compiles the draw's shader variant), so that no
 * case's numbers include that. */
static void warm_up(unsigned char *data, size_t size)
{
	void *p;

	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, 16);
	glEndTransformFeedback();
	p = glMapBufferRange(GL_ARRAY_BUFFER, 0, (GLsizeiptr)size, GL_MAP_READ_BIT);
	if (p)
		data[0] ^= ((const unsigned char *)p)[0];
	glUnmapBuffer(GL_ARRAY_BUFFER);
	glFinish();
}

/* Runs `body` bench_trials times over n iterations and prints the fastest
 * run's ns per iteration as "NAME NS". */
#define TIME_CASE(name, n, body)                                             \
	do {                                                                 \
		double best_ = 0;                                            \
		for (int t_ = 0; t_ < bench_trials; t_++) {                  \
			const double t0_ = now_ns();                         \
			body;                                                \
			const double ns_ = (now_ns() - t0_) / (n);           \
			if (t_ == 0 || ns_ < best_)                          \
				best_ = ns_;                                 \
		}                                                            \
		printf("%s %.1f\n", (name), best_);                          \
	} while (0)

/* Whether case `name` runs: no CASE arguments, or one of them. */
static bool wanted(int argc, char **argv, const char *name)
{
	if (argc <= 2)
		return true;
	for (int i = 2; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return true;
	return false;
}

int main(int argc, char **argv)
{
	static const char *const varyings[] = { "tf_out" };
	const int scale = argc > 1 ? atoi(argv[1]) : 1;
	struct cap_test_egl egl;
	unsigned char data[1024];
	GLuint prog, bufs[2], tfb, vao;
	GLint loc;
	int n;

	if (getenv("CAP_BENCH_CLOCK") && strcmp(getenv("CAP_BENCH_CLOCK"), "thread") == 0)
		bench_clock = CLOCK_THREAD_CPUTIME_ID;
	if (getenv("CAP_BENCH_TRIALS") && atoi(getenv("CAP_BENCH_TRIALS")) > 0)
		bench_trials = atoi(getenv("CAP_BENCH_TRIALS"));
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
	warm_up(data, sizeof(data));

	n = 1000000 * scale;
	if (wanted(argc, argv, "glUniform1i"))
		TIME_CASE("glUniform1i", n, bench_uniform(n, loc));
	if (wanted(argc, argv, "glBindBuffer"))
		TIME_CASE("glBindBuffer", n, bench_bind(n, bufs));
	if (wanted(argc, argv, "glGetIntegerv"))
		TIME_CASE("glGetIntegerv", n, bench_get_integer(n));
	if (wanted(argc, argv, "glGetError"))
		TIME_CASE("glGetError", n, bench_get_error(n));

	n = 100000 * scale;
	glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
	if (wanted(argc, argv, "glBufferSubData-1KiB"))
		TIME_CASE("glBufferSubData-1KiB", n, bench_subdata(n, data, sizeof(data)));

	n = 10000 * scale;
	if (wanted(argc, argv, "tf-begin-draw-end"))
		TIME_CASE("tf-begin-draw-end", n, bench_tf(n));

	if (wanted(argc, argv, "tf+copy-ring")) {
		GLuint b = parts_buffer(true);
		TIME_CASE("tf+copy-ring", n, bench_tf_parts(n, b, false));
		glDeleteBuffers(1, &b);
	}
	if (wanted(argc, argv, "tf+copy-gpu-memory")) {
		GLuint b = parts_buffer(false);
		TIME_CASE("tf+copy-gpu-memory", n, bench_tf_parts(n, b, false));
		glDeleteBuffers(1, &b);
	}
	if (wanted(argc, argv, "copy-only-ring")) {
		GLuint b = parts_buffer(true);
		TIME_CASE("copy-only-ring", n, bench_copy_only(n, b, false));
		TIME_CASE("copy-only-ring-bound-once", n, bench_copy_only(n, b, true));
		glDeleteBuffers(1, &b);
		b = parts_buffer(false);
		TIME_CASE("copy-only-gpu-memory", n, bench_copy_only(n, b, false));
		glDeleteBuffers(1, &b);
	}
	if (wanted(argc, argv, "tf8+copies-batched")) {
		GLuint t[8], b = parts_buffer(true);
		glGenBuffers(8, t);
		for (int k = 0; k < 8; k++) {
			glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, t[k]);
			glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 64 * 16, NULL, GL_DYNAMIC_COPY);
		}
		TIME_CASE("tf8", n, bench_tf_batched(n, t, 0));
		TIME_CASE("tf8+copies-batched", n, bench_tf_batched(n, t, b));
		glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
		glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
		glDeleteBuffers(8, t);
		glDeleteBuffers(1, &b);
	}
	if (wanted(argc, argv, "tf+fences"))
		TIME_CASE("tf+fences", n, bench_tf_parts(n, 0, true));
	if (wanted(argc, argv, "tf+copy-ring+fences")) {
		GLuint b = parts_buffer(true);
		TIME_CASE("tf+copy-ring+fences", n, bench_tf_parts(n, b, true));
		glDeleteBuffers(1, &b);
	}
	if (wanted(argc, argv, "tf-dynamic-copy+copy-ring")) {
		/* The TF buffer with a usage a driver keeps in GPU memory. */
		GLuint t, b = parts_buffer(true);
		glGenBuffers(1, &t);
		glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, t);
		glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 64 * 16, NULL, GL_DYNAMIC_COPY);
		glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, t);
		TIME_CASE("tf-dynamic-copy", n, bench_tf(n));
		TIME_CASE("tf-dynamic-copy+copy-ring", n, bench_tf_parts(n, b, false));
		glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
		glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
		glDeleteBuffers(1, &t);
		glDeleteBuffers(1, &b);
	}

	n = 20000 * scale;
	if (wanted(argc, argv, "map-read-unmap-1KiB"))
		TIME_CASE("map-read-unmap-1KiB", n, bench_map_read(n, data, sizeof(data)));
	if (wanted(argc, argv, "map-write-unmap-1KiB"))
		TIME_CASE("map-write-unmap-1KiB", n, bench_map_write(n, data, sizeof(data)));
	return 0;
}
