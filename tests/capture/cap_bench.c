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
 * tf8-offsets: TF into 8 ranges of one buffer in turn (glBindBufferRange).
 * tf2, tf3: TF into 2 / 3 GL_DYNAMIC_COPY buffers in turn.
 * With CASE "keep" (named only): the ways of keeping one TF range per TF end
 * (bench_keep_all).  "keep-usages": the copy calls and the gather for 13 TF
 * buffer usages and storage flags.  CAP_BENCH_API=gl: a GL 4.5 core context instead.
 *
 * Usage: [CAP_BENCH_CLOCK=thread] [CAP_BENCH_TRIALS=T] [CAP_BENCH_API=gl] cap-bench [SCALE [CASE...]]
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
#include <GLES3/gl32.h>   /* enums only: the GLES 3.1 / 3.2 / GL 4.5 functions come from eglGetProcAddress */

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

/* Fences in flight, polled as the read-back polls them: the first poll of
 * a fence flushes, later ones do not. */
struct fence_ring {
	GLsync fence[PART_FENCES];
	unsigned head, count;
	bool flushed;
};

static void fences_push(struct fence_ring *r)
{
	if (r->count < PART_FENCES)
		r->fence[(r->head + r->count++) % PART_FENCES] =
			glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
}

/* Retires the fences that have signalled, oldest first. */
static void fences_poll(struct fence_ring *r)
{
	while (r->count) {
		GLenum st = glClientWaitSync(r->fence[r->head], r->flushed ? 0 :
					     GL_SYNC_FLUSH_COMMANDS_BIT, 0);
		r->flushed = true;
		if (st == GL_TIMEOUT_EXPIRED)
			break;
		glDeleteSync(r->fence[r->head]);
		r->head = (r->head + 1) % PART_FENCES;
		r->count--;
		r->flushed = false;
	}
}

/* Waits for and retires every fence left. */
static void fences_drain(struct fence_ring *r)
{
	while (r->count) {
		glClientWaitSync(r->fence[r->head], GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000);
		glDeleteSync(r->fence[r->head]);
		r->head = (r->head + 1) % PART_FENCES;
		r->count--;
	}
}

static NOINLINE void bench_tf_parts(int n, GLuint dst, bool fences)
{
	struct fence_ring ring = { .head = 0 };

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
		if ((i & 7) == 7)
			fences_push(&ring);
		fences_poll(&ring);
	}
	fences_drain(&ring);
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

/* TF into the `k` buffers `tf` in turn, each rewritten k passes later:
 * under the capture, batches of k ranges (tf2, tf3: copy calls or the
 * gather, obs_async.c's copies_cheaper). */
static NOINLINE void bench_tf_turns(int n, const GLuint *tf, int k)
{
	for (int i = 0; i < n; i++) {
		glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf[i % k]);
		glBeginTransformFeedback(GL_POINTS);
		glDrawArrays(GL_POINTS, 0, 16);
		glEndTransformFeedback();
	}
	glFinish();
}

/* TF into 8 ranges of one buffer `tf` (DYNAMIC_COPY, 8 KiB) in turn, each
 * rewritten 8 passes later: what the capture's deferred copies batch up
 * when they know which range a TF pass writes. */
static NOINLINE void bench_tf_offsets(int n, GLuint tf)
{
	for (int i = 0; i < n; i++) {
		glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf, (GLintptr)(i & 7) * 1024, 1024);
		glBeginTransformFeedback(GL_POINTS);
		glDrawArrays(GL_POINTS, 0, 16);
		glEndTransformFeedback();
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


/*
 * Ways to keep one TF range before the next pass rewrites it (issue 23,
 * docs/performance.md "One TF range per TF end"), each made after every
 * TF end of the TF case, without the capture, into a 1 MiB staging ring
 * (persistently mapped where the context has buffer storage) at a moving
 * offset; every 32 TF ends a fence (after glMemoryBarrier where shaders
 * stored), polled as the capture polls it:
 *   copy          bind the ring to GL_COPY_WRITE_BUFFER, glCopyBufferSubData, unbind
 *   copy2, copy4  copy in 2 / 4 glCopyBufferSubData calls of its halves /
 *                 quarters (a batch of 2 / 4 ranges made by copy calls)
 *   copy-named    glCopyNamedBufferSubData (GL 4.5: no binding touched)
 *   gather        the capture's gather dispatch without its glGet* save: the
 *                 compute program made current, the TF range bound at storage
 *                 binding 0 (the ring stays at binding 1), one uvec4 uniform,
 *                 glDispatchCompute(4, 1, 1), the application's program back
 *   gather-saved  the same with the queries the capture makes to save the
 *                 state (TF active / paused, program, its delete status, the
 *                 generic and two indexed storage bindings) and the restores
 *   vs-copy       the copy made by a draw instead of a dispatch: a vertex
 *                 shader storing the range's words into the ring (one point
 *                 per word, rasterizer discard on), a vertex array of its own
 *   vs-bound      vs-copy without the uniform: the ring bound with
 *                 glBindBufferRange at the range's place (binding 1), the
 *                 shader copies word i to word i
 *   vs-app-vao    vs-bound in the application's vertex array (no switch)
 *   vs-bare       vs-bound with nothing bound per TF end: the two
 *                 glUseProgram and the draw (the floor of a draw's copy)
 *   vs-attrib     vs-bound reading the range as a vertex attribute (a
 *                 vertex array of its own, glBindVertexBuffer per TF end)
 *                 instead of a storage buffer
 *   vs-image      the copy by texelFetch from a buffer texture over the TF
 *                 buffer (glTexBuffer per TF end) and imageStore into an
 *                 image buffer over the ring: no storage buffer at all
 *   vs-spare      vs-copy of a buffer no TF pass writes (is the cost waiting
 *                 for the pass?)
 *   vs-write-only vs-bound storing a constant (no read)
 *   vs-read-only  vs-bound reading the range into gl_Position (no store)
 *   use-program   only the two glUseProgram of the gather (its lower bound)
 *   dispatch-empty  the two glUseProgram and a dispatch of an empty compute shader
 *   draw-empty    the two glUseProgram and a one-point draw of a vertex shader
 *                 that touches no buffer
 */
enum keep { KEEP_NONE, KEEP_COPY, KEEP_COPY2, KEEP_COPY4, KEEP_COPY_NAMED, KEEP_GATHER,
	    KEEP_GATHER_SAVED,
	    KEEP_VS_COPY, KEEP_VS_BOUND, KEEP_VS_APP_VAO, KEEP_VS_BARE, KEEP_VS_ATTRIB,
	    KEEP_VS_IMAGE, KEEP_VS_SPARE, KEEP_VS_WRITE_ONLY, KEEP_VS_READ_ONLY,
	    KEEP_USE_PROGRAM, KEEP_DISPATCH_EMPTY, KEEP_DRAW_EMPTY };

struct keep_gl {
	GLuint app_prog, app_vao, tf, ring;
	const unsigned char *ring_map;   /* NULL where the ring is not mapped */
	GLuint gather, empty, vs_copy, vs_vao, vs_bound, vs_empty, spare;
	GLuint vs_attrib, attrib_vao, vs_image, src_tex, ring_tex, vs_write, vs_read;
	void (*bind_vertex_buffer)(GLuint, GLuint, GLintptr, GLsizei);
	void (*tex_buffer)(GLenum, GLenum, GLuint);
	GLint gather_range, vs_range;
	void (*dispatch)(GLuint, GLuint, GLuint);
	void (*barrier)(GLbitfield);
	void (*copy_named)(GLuint, GLuint, GLintptr, GLintptr, GLsizeiptr);
	void (*get64i)(GLenum, GLuint, GLint64 *);
};

#define KEEP_BYTES 1024
#define KEEP_RING (1 << 20)

static void keep_range(const struct keep_gl *k, enum keep mode, int i)
{
	const GLintptr dst = (GLintptr)(i & (KEEP_RING / KEEP_BYTES - 1)) * KEEP_BYTES;
	GLint save[5];
	GLint64 save64[4];

	switch (mode) {
	case KEEP_NONE:
		break;
	case KEEP_COPY:
		glBindBuffer(GL_COPY_WRITE_BUFFER, k->ring);
		glCopyBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, GL_COPY_WRITE_BUFFER, 0, dst,
				    KEEP_BYTES);
		glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
		break;
	case KEEP_COPY2:
	case KEEP_COPY4: {
		const GLsizeiptr part = mode == KEEP_COPY2 ? KEEP_BYTES / 2 : KEEP_BYTES / 4;
		glBindBuffer(GL_COPY_WRITE_BUFFER, k->ring);
		for (GLintptr off = 0; off < KEEP_BYTES; off += part)
			glCopyBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, GL_COPY_WRITE_BUFFER, off,
					    dst + off, part);
		glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
		break;
	}
	case KEEP_COPY_NAMED:
		k->copy_named(k->tf, k->ring, 0, dst, KEEP_BYTES);
		break;
	case KEEP_GATHER_SAVED:
		glGetIntegerv(GL_TRANSFORM_FEEDBACK_ACTIVE, &save[0]);
		glGetIntegerv(GL_TRANSFORM_FEEDBACK_PAUSED, &save[1]);
		glGetIntegerv(GL_CURRENT_PROGRAM, &save[2]);
		glGetProgramiv((GLuint)save[2], GL_DELETE_STATUS, &save[3]);
		(void)glGetError();
		glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &save[4]);
		for (GLuint b = 0; b < 2; b++) {
			glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, b, &save[b]);
			k->get64i(GL_SHADER_STORAGE_BUFFER_START, b, &save64[b * 2]);
			k->get64i(GL_SHADER_STORAGE_BUFFER_SIZE, b, &save64[b * 2 + 1]);
		}
		/* fall through */
	case KEEP_GATHER:
		glUseProgram(k->gather);
		glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, k->tf, 0, KEEP_BYTES);
		glUniform4ui(k->gather_range, 0, (GLuint)(dst / 4), KEEP_BYTES / 4, 0);
		k->dispatch(KEEP_BYTES / 4 / 64, 1, 1);
		if (mode == KEEP_GATHER_SAVED) {
			glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
			glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, k->ring);
			glBindBuffer(GL_SHADER_STORAGE_BUFFER, (GLuint)save[4]);
		}
		glUseProgram(k->app_prog);
		break;
	case KEEP_VS_COPY:
		glUseProgram(k->vs_copy);
		glBindVertexArray(k->vs_vao);
		glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, k->tf, 0, KEEP_BYTES);
		glUniform4ui(k->vs_range, 0, (GLuint)(dst / 4), KEEP_BYTES / 4, 0);
		glDrawArrays(GL_POINTS, 0, KEEP_BYTES / 4);
		glBindVertexArray(k->app_vao);
		glUseProgram(k->app_prog);
		break;
	case KEEP_VS_SPARE:
		glUseProgram(k->vs_copy);
		glBindVertexArray(k->vs_vao);
		glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, k->spare, 0, KEEP_BYTES);
		glUniform4ui(k->vs_range, 0, (GLuint)(dst / 4), KEEP_BYTES / 4, 0);
		glDrawArrays(GL_POINTS, 0, KEEP_BYTES / 4);
		glBindVertexArray(k->app_vao);
		glUseProgram(k->app_prog);
		break;
	case KEEP_VS_BOUND:
	case KEEP_VS_APP_VAO:
		glUseProgram(k->vs_bound);
		if (mode == KEEP_VS_BOUND)
			glBindVertexArray(k->vs_vao);
		glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, k->tf, 0, KEEP_BYTES);
		glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 2, k->ring, dst, KEEP_BYTES);
		glDrawArrays(GL_POINTS, 0, KEEP_BYTES / 4);
		if (mode == KEEP_VS_BOUND)
			glBindVertexArray(k->app_vao);
		glUseProgram(k->app_prog);
		break;
	case KEEP_VS_ATTRIB:
		glUseProgram(k->vs_attrib);
		glBindVertexArray(k->attrib_vao);
		k->bind_vertex_buffer(0, k->tf, 0, 4);
		glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 2, k->ring, dst, KEEP_BYTES);
		glDrawArrays(GL_POINTS, 0, KEEP_BYTES / 4);
		glBindVertexArray(k->app_vao);
		glUseProgram(k->app_prog);
		break;
	case KEEP_VS_IMAGE:
		/* gl_VertexID is the ring's word (first = dst / 4, a multiple of
		 * the range's 256 words): the source word is its low bits. */
		glUseProgram(k->vs_image);
		glBindVertexArray(k->vs_vao);
		glBindTexture(GL_TEXTURE_BUFFER, k->src_tex);
		k->tex_buffer(GL_TEXTURE_BUFFER, GL_R32UI, k->tf);
		glDrawArrays(GL_POINTS, (GLint)(dst / 4), KEEP_BYTES / 4);
		glBindVertexArray(k->app_vao);
		glUseProgram(k->app_prog);
		break;
	case KEEP_VS_WRITE_ONLY:
	case KEEP_VS_READ_ONLY:
		glUseProgram(mode == KEEP_VS_WRITE_ONLY ? k->vs_write : k->vs_read);
		glBindVertexArray(k->vs_vao);
		glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, k->tf, 0, KEEP_BYTES);
		glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 2, k->ring, dst, KEEP_BYTES);
		glDrawArrays(GL_POINTS, 0, KEEP_BYTES / 4);
		glBindVertexArray(k->app_vao);
		glUseProgram(k->app_prog);
		break;
	case KEEP_VS_BARE:
		glUseProgram(k->vs_bound);
		glDrawArrays(GL_POINTS, 0, KEEP_BYTES / 4);
		glUseProgram(k->app_prog);
		break;
	case KEEP_DRAW_EMPTY:
		glUseProgram(k->vs_empty);
		glDrawArrays(GL_POINTS, 0, 1);
		glUseProgram(k->app_prog);
		break;
	case KEEP_USE_PROGRAM:
		glUseProgram(k->gather);
		glUseProgram(k->app_prog);
		break;
	case KEEP_DISPATCH_EMPTY:
		glUseProgram(k->empty);
		k->dispatch(1, 1, 1);
		glUseProgram(k->app_prog);
		break;
	}
}

static NOINLINE void bench_tf_keep(int n, const struct keep_gl *k, enum keep mode)
{
	struct fence_ring ring = { .head = 0 };

	for (int i = 0; i < n; i++) {
		glBeginTransformFeedback(GL_POINTS);
		glDrawArrays(GL_POINTS, 0, 16);
		glEndTransformFeedback();
		keep_range(k, mode, i);
		if ((i & 31) == 31 && ring.count < PART_FENCES) {
			if (mode != KEEP_COPY && mode != KEEP_COPY2 && mode != KEEP_COPY4 &&
			    mode != KEEP_COPY_NAMED)
				k->barrier(0x00004000);   /* GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT */
			fences_push(&ring);
		}
		fences_poll(&ring);
	}
	fences_drain(&ring);
	glFinish();
}

/* A program of `type`'s shader `src` (plus a fragment shader that never
 * runs, for GLES's link rules, when it is a vertex shader); 0 on failure. */
static GLuint keep_program(GLenum type, const char *src)
{
	static const char *fs = "#version 310 es\nprecision mediump float;\n"
				"out vec4 c;\nvoid main() { c = vec4(1.0); }\n";
	GLuint p = glCreateProgram();
	GLint ok = 0;

	for (int i = 0; i < (type == GL_VERTEX_SHADER ? 2 : 1); i++) {
		GLuint s = glCreateShader(i ? GL_FRAGMENT_SHADER : type);
		glShaderSource(s, 1, i ? &fs : &src, NULL);
		glCompileShader(s);
		glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
		if (!ok) {
			char log[1024] = "";
			glGetShaderInfoLog(s, sizeof log, NULL, log);
			fprintf(stderr, "cap-bench: shader:\n%s\n", log);
		}
		glAttachShader(p, s);
		glDeleteShader(s);
	}
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		glDeleteProgram(p);
		return 0;
	}
	return p;
}

/* The keep cases' programs and ring; false when the context has no
 * compute shaders (GLES 3.1 / GL 4.3). */
static bool keep_init(struct keep_gl *k, GLuint app_prog, GLuint app_vao)
{
	static const char *gather =
		"#version 310 es\n"
		"layout(local_size_x = 64) in;\n"
		"uniform uvec4 u_range;\n"
		"layout(std430, binding = 0) readonly buffer Src { uint s[]; };\n"
		"layout(std430, binding = 1) writeonly buffer Ring { uint ring[]; };\n"
		"void main() {\n"
		"  uint w = gl_GlobalInvocationID.x;\n"
		"  if (w < u_range.z) ring[u_range.y + w] = s[u_range.x + w];\n"
		"}\n";
	static const char *empty =
		"#version 310 es\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
	static const char *vs_copy =
		"#version 310 es\n"
		"uniform uvec4 u_range;\n"
		"layout(std430, binding = 0) readonly buffer Src { uint s[]; };\n"
		"layout(std430, binding = 1) writeonly buffer Ring { uint ring[]; };\n"
		"void main() {\n"
		"  uint w = uint(gl_VertexID);\n"
		"  ring[u_range.y + w] = s[u_range.x + w];\n"
		"  gl_Position = vec4(0.0);\n"
		"  gl_PointSize = 1.0;\n"
		"}\n";
	static const char *vs_bound =
		"#version 310 es\n"
		"layout(std430, binding = 0) readonly buffer Src { uint s[]; };\n"
		"layout(std430, binding = 2) writeonly buffer Dst { uint d[]; };\n"
		"void main() {\n"
		"  d[gl_VertexID] = s[gl_VertexID];\n"
		"  gl_Position = vec4(0.0);\n"
		"  gl_PointSize = 1.0;\n"
		"}\n";
	static const char *vs_attrib =
		"#version 310 es\n"
		"layout(location = 0) in highp uint a;\n"
		"layout(std430, binding = 2) writeonly buffer Dst { uint d[]; };\n"
		"void main() {\n"
		"  d[gl_VertexID] = a;\n"
		"  gl_Position = vec4(0.0);\n"
		"  gl_PointSize = 1.0;\n"
		"}\n";
	static const char *vs_image =
		"#version 320 es\n"
		"layout(r32ui, binding = 0) uniform writeonly highp uimageBuffer ring;\n"
		"uniform highp usamplerBuffer src;\n"
		"void main() {\n"
		"  imageStore(ring, gl_VertexID, uvec4(texelFetch(src, gl_VertexID & 255).x));\n"
		"  gl_Position = vec4(0.0);\n"
		"  gl_PointSize = 1.0;\n"
		"}\n";
	static const char *vs_write =
		"#version 310 es\n"
		"layout(std430, binding = 2) writeonly buffer Dst { uint d[]; };\n"
		"void main() {\n"
		"  d[gl_VertexID] = uint(gl_VertexID);\n"
		"  gl_Position = vec4(0.0);\n"
		"  gl_PointSize = 1.0;\n"
		"}\n";
	static const char *vs_read =
		"#version 310 es\n"
		"layout(std430, binding = 0) readonly buffer Src { uint s[]; };\n"
		"void main() {\n"
		"  gl_Position = vec4(float(s[gl_VertexID]), 0.0, 0.0, 1.0);\n"
		"  gl_PointSize = 1.0;\n"
		"}\n";
	static const char *vs_empty =
		"#version 310 es\nvoid main() { gl_Position = vec4(0.0); gl_PointSize = 1.0; }\n";
	typedef void (*storage_fn)(GLenum, GLsizeiptr, const void *, GLbitfield);
	storage_fn storage = (storage_fn)eglGetProcAddress("glBufferStorage");
	GLint vs_blocks = 0;

	memset(k, 0, sizeof *k);
	k->app_prog = app_prog;
	k->app_vao = app_vao;
	k->dispatch = (void (*)(GLuint, GLuint, GLuint))eglGetProcAddress("glDispatchCompute");
	k->barrier = (void (*)(GLbitfield))eglGetProcAddress("glMemoryBarrier");
	k->get64i = (void (*)(GLenum, GLuint, GLint64 *))eglGetProcAddress("glGetInteger64i_v");
	k->copy_named = (void (*)(GLuint, GLuint, GLintptr, GLintptr, GLsizeiptr))
		eglGetProcAddress("glCopyNamedBufferSubData");
	if (!k->dispatch || !k->barrier || !k->get64i)
		return false;
	k->gather = keep_program(GL_COMPUTE_SHADER, gather);
	k->empty = keep_program(GL_COMPUTE_SHADER, empty);
	glGetIntegerv(GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS, &vs_blocks);
	k->vs_copy = vs_blocks >= 2 ? keep_program(GL_VERTEX_SHADER, vs_copy) : 0;
	k->vs_bound = vs_blocks >= 2 ? keep_program(GL_VERTEX_SHADER, vs_bound) : 0;
	k->vs_empty = keep_program(GL_VERTEX_SHADER, vs_empty);
	k->bind_vertex_buffer = (void (*)(GLuint, GLuint, GLintptr, GLsizei))
		eglGetProcAddress("glBindVertexBuffer");
	k->tex_buffer = (void (*)(GLenum, GLenum, GLuint))eglGetProcAddress("glTexBuffer");
	void (*attrib_format)(GLuint, GLint, GLenum, GLuint) =
		(void (*)(GLuint, GLint, GLenum, GLuint))eglGetProcAddress("glVertexAttribIFormat");
	void (*attrib_binding)(GLuint, GLuint) =
		(void (*)(GLuint, GLuint))eglGetProcAddress("glVertexAttribBinding");
	void (*bind_image)(GLuint, GLuint, GLint, GLboolean, GLint, GLenum, GLenum) =
		(void (*)(GLuint, GLuint, GLint, GLboolean, GLint, GLenum, GLenum))
		eglGetProcAddress("glBindImageTexture");
	GLint vs_images = 0;
	glGetIntegerv(GL_MAX_VERTEX_IMAGE_UNIFORMS, &vs_images);
	if (vs_blocks >= 2) {
		k->vs_write = keep_program(GL_VERTEX_SHADER, vs_write);
		k->vs_read = keep_program(GL_VERTEX_SHADER, vs_read);
	}
	if (vs_blocks >= 1 && k->bind_vertex_buffer && attrib_format && attrib_binding) {
		k->vs_attrib = keep_program(GL_VERTEX_SHADER, vs_attrib);
		glGenVertexArrays(1, &k->attrib_vao);
		glBindVertexArray(k->attrib_vao);
		glEnableVertexAttribArray(0);
		attrib_format(0, 1, GL_UNSIGNED_INT, 0);
		attrib_binding(0, 0);
	}
	(void)glGetError();   /* a context without some of these: those ways are skipped */
	if (!k->gather || !k->empty)
		return false;
	k->gather_range = glGetUniformLocation(k->gather, "u_range");
	if (k->vs_copy)
		k->vs_range = glGetUniformLocation(k->vs_copy, "u_range");
	glGenVertexArrays(1, &k->vs_vao);
	glGenBuffers(1, &k->spare);
	glBindBuffer(GL_COPY_WRITE_BUFFER, k->spare);
	glBufferData(GL_COPY_WRITE_BUFFER, KEEP_BYTES, NULL, GL_DYNAMIC_COPY);
	if (!storage)
		storage = (storage_fn)eglGetProcAddress("glBufferStorageEXT");
	glGenBuffers(1, &k->ring);
	glBindBuffer(GL_COPY_WRITE_BUFFER, k->ring);
	if (storage) {
		storage(GL_COPY_WRITE_BUFFER, KEEP_RING, NULL, 0x1 | 0x40 | 0x80 | 0x200);
		k->ring_map = glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, KEEP_RING, 0x1 | 0x40 | 0x80);
	} else {
		glBufferData(GL_COPY_WRITE_BUFFER, KEEP_RING, NULL, GL_STREAM_READ);
	}
	glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
	glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, k->ring);
	if (vs_images >= 1 && k->tex_buffer && bind_image &&
	    (k->vs_image = keep_program(GL_VERTEX_SHADER, vs_image)) != 0) {
		glGenTextures(1, &k->src_tex);
		glGenTextures(1, &k->ring_tex);
		glBindTexture(GL_TEXTURE_BUFFER, k->ring_tex);
		k->tex_buffer(GL_TEXTURE_BUFFER, GL_R32UI, k->ring);
		bind_image(0, k->ring_tex, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32UI);
		glBindTexture(GL_TEXTURE_BUFFER, 0);
		if (glGetError() != GL_NO_ERROR)
			k->vs_image = 0;
	}
	glUseProgram(app_prog);
	glBindVertexArray(app_vao);
	return glGetError() == GL_NO_ERROR;
}

/* A TF buffer of 1 KiB with `usage`, or immutable storage with `flags`
 * (usage 0), bound to TF binding 0 and the generic binding. */
static GLuint keep_tf_buffer(GLenum usage, GLbitfield flags)
{
	typedef void (*storage_fn)(GLenum, GLsizeiptr, const void *, GLbitfield);
	storage_fn storage = (storage_fn)eglGetProcAddress("glBufferStorage");
	GLuint t = 0;

	if (!storage)
		storage = (storage_fn)eglGetProcAddress("glBufferStorageEXT");
	if (!usage && !storage)
		return 0;
	glGenBuffers(1, &t);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, t);
	if (usage)
		glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, KEEP_BYTES, NULL, usage);
	else
		storage(GL_TRANSFORM_FEEDBACK_BUFFER, KEEP_BYTES, NULL, flags);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, t);
	return t;
}

/* Whether the ring's slot of the last TF end holds the TF output (every
 * pass writes the same bytes); true where `mode` copies nothing. */
static bool keep_matches(const struct keep_gl *k, enum keep mode, int n)
{
	const void *tf;
	GLuint scratch = 0;
	bool same;

	if (!k->ring_map || mode == KEEP_NONE || mode == KEEP_VS_BARE || mode >= KEEP_VS_SPARE)
		return true;
	/* Through a buffer of our own: immutable storage without
	 * GL_MAP_READ_BIT cannot be mapped for reading. */
	glGenBuffers(1, &scratch);
	glBindBuffer(GL_COPY_WRITE_BUFFER, scratch);
	glBufferData(GL_COPY_WRITE_BUFFER, KEEP_BYTES, NULL, GL_STREAM_READ);
	glBindBuffer(GL_COPY_READ_BUFFER, k->tf);
	glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, KEEP_BYTES);
	tf = glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, KEEP_BYTES, GL_MAP_READ_BIT);
	same = tf && !memcmp(tf, k->ring_map + ((n - 1) & (KEEP_RING / KEEP_BYTES - 1)) *
			     KEEP_BYTES, KEEP_BYTES);
	glUnmapBuffer(GL_COPY_WRITE_BUFFER);
	glBindBuffer(GL_COPY_READ_BUFFER, 0);
	glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
	glDeleteBuffers(1, &scratch);
	return same;
}

/* "keep": every way above for the first five TF buffer kinds, printed as
 * "keep:USAGE:WAY NS"; "keep-usages" (`usages`): the copies and the
 * gather for every kind (what obs_async.c's copy_cheap is made of). */
static void bench_keep_all(int n, GLuint app_prog, GLuint app_vao, GLuint tfb, bool named_ok,
			   bool usages_only)
{
	static const struct { const char *name; GLenum usage; GLbitfield flags; } usages[] = {
		{ "stream-read", GL_STREAM_READ, 0 }, { "dynamic-copy", GL_DYNAMIC_COPY, 0 },
		{ "static-draw", GL_STATIC_DRAW, 0 }, { "stream-draw", GL_STREAM_DRAW, 0 },
		{ "storage", 0, 0 },
		/* keep-usages only: */
		{ "static-read", GL_STATIC_READ, 0 }, { "dynamic-read", GL_DYNAMIC_READ, 0 },
		{ "dynamic-draw", GL_DYNAMIC_DRAW, 0 }, { "static-copy", GL_STATIC_COPY, 0 },
		{ "stream-copy", GL_STREAM_COPY, 0 },
		{ "storage-dynamic", 0, 0x0100 /* GL_DYNAMIC_STORAGE_BIT */ },
		{ "storage-map-read", 0, GL_MAP_READ_BIT },
		{ "storage-client", 0, 0x0200 /* GL_CLIENT_STORAGE_BIT */ },
	};
	const size_t nusages = usages_only ? sizeof usages / sizeof usages[0] : 5;
	static const struct { const char *name; enum keep mode; } ways[] = {
		{ "plain", KEEP_NONE }, { "copy", KEEP_COPY }, { "copy2", KEEP_COPY2 },
		{ "copy4", KEEP_COPY4 }, { "copy-named", KEEP_COPY_NAMED },
		{ "gather", KEEP_GATHER }, { "gather-saved", KEEP_GATHER_SAVED },
		{ "vs-copy", KEEP_VS_COPY }, { "vs-bound", KEEP_VS_BOUND },
		{ "vs-app-vao", KEEP_VS_APP_VAO }, { "vs-bare", KEEP_VS_BARE },
		{ "vs-attrib", KEEP_VS_ATTRIB }, { "vs-image", KEEP_VS_IMAGE },
		{ "vs-spare", KEEP_VS_SPARE }, { "vs-write-only", KEEP_VS_WRITE_ONLY },
		{ "vs-read-only", KEEP_VS_READ_ONLY }, { "use-program", KEEP_USE_PROGRAM },
		{ "dispatch-empty", KEEP_DISPATCH_EMPTY }, { "draw-empty", KEEP_DRAW_EMPTY },
	};
	struct keep_gl k;

	if (!keep_init(&k, app_prog, app_vao)) {
		fprintf(stderr, "cap-bench: keep: no compute shaders / storage buffers here\n");
		return;
	}
	for (size_t u = 0; u < nusages; u++) {
		k.tf = keep_tf_buffer(usages[u].usage, usages[u].flags);
		if (!k.tf)
			continue;
		for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
			char name[64];
			if ((ways[w].mode == KEEP_COPY_NAMED && (!named_ok || !k.copy_named)) ||
			    (ways[w].mode >= KEEP_VS_COPY && ways[w].mode <= KEEP_VS_READ_ONLY && !k.vs_copy) ||
			    (ways[w].mode == KEEP_VS_ATTRIB && !k.vs_attrib) ||
			    (ways[w].mode == KEEP_VS_IMAGE && !k.vs_image) ||
			    (ways[w].mode == KEEP_VS_WRITE_ONLY && !k.vs_write) ||
			    (ways[w].mode == KEEP_DRAW_EMPTY && !k.vs_empty))
				continue;
			/* The usage hint matters for the copy; the rest run on the
			 * two the benchmarks use. */
			if (u >= 2 && ways[w].mode >= KEEP_GATHER_SAVED)
				continue;
			if (usages_only && ways[w].mode != KEEP_NONE && ways[w].mode != KEEP_COPY &&
			    ways[w].mode != KEEP_COPY2 && ways[w].mode != KEEP_COPY4 &&
			    ways[w].mode != KEEP_GATHER)
				continue;
			snprintf(name, sizeof name, "keep:%s:%s", usages[u].name, ways[w].name);
			/* First use: compiles, allocates (vs-bare: binds). */
			keep_range(&k, ways[w].mode == KEEP_VS_BARE ? KEEP_VS_BOUND : ways[w].mode, 0);
			glFinish();
			TIME_CASE(name, n, bench_tf_keep(n, &k, ways[w].mode));
			if (glGetError() != GL_NO_ERROR)
				fprintf(stderr, "cap-bench: %s raised a GL error\n", name);
			if (!keep_matches(&k, ways[w].mode, n))
				fprintf(stderr, "cap-bench: %s: the ring differs from the TF output\n",
					name);
		}
		glDeleteBuffers(1, &k.tf);
	}
	glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, 0);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
}

/* CAP_BENCH_API=gl: a desktop GL 4.5 core context instead of GLES (the
 * shaders are GLSL ES, which GL 4.5 accepts: ARB_ES3_1_compatibility). */
static EGLContext gl45_context(struct cap_test_egl *e)
{
	static const EGLint config_attribs[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
						  EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE };
	static const EGLint attribs[] = {
		EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
		EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
	};
	EGLContext ctx = EGL_NO_CONTEXT;
	EGLint n = 0;

	if (eglChooseConfig(e->dpy, config_attribs, &e->config, 1, &n) && n > 0 &&
	    eglBindAPI(EGL_OPENGL_API))
		ctx = eglCreateContext(e->dpy, e->config, EGL_NO_CONTEXT, attribs);
	if (ctx == EGL_NO_CONTEXT) {
		fprintf(stderr, "cannot create a GL 4.5 core context\n");
		exit(77);
	}
	return ctx;
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
	const bool gl45 = getenv("CAP_BENCH_API") && strcmp(getenv("CAP_BENCH_API"), "gl") == 0;
	cap_test_egl_init(&egl);
	cap_test_egl_make_current(&egl, gl45 ? gl45_context(&egl) : cap_test_egl_context(&egl));
	fprintf(stderr, "cap-bench: %s, %s\n", (const char *)glGetString(GL_VERSION),
		(const char *)glGetString(GL_RENDERER));
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
	for (int k = 2; k <= 3; k++) {
		GLuint t[3];
		char name[8];
		snprintf(name, sizeof name, "tf%d", k);
		if (!wanted(argc, argv, name))
			continue;
		glGenBuffers(k, t);
		for (int j = 0; j < k; j++) {
			glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, t[j]);
			glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 64 * 16, NULL, GL_DYNAMIC_COPY);
		}
		TIME_CASE(name, n, bench_tf_turns(n, t, k));
		glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
		glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
		glDeleteBuffers(k, t);
	}
	if (wanted(argc, argv, "tf8-offsets")) {
		GLuint t;
		glGenBuffers(1, &t);
		glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, t);
		glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 8 * 1024, NULL, GL_DYNAMIC_COPY);
		TIME_CASE("tf8-offsets", n, bench_tf_offsets(n, t));
		glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
		glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
		glDeleteBuffers(1, &t);
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

	/* Only by name: "keep" runs 40 cases, "keep-usages" 65. */
	if (argc > 2 && wanted(argc, argv, "keep"))
		bench_keep_all(n, prog, vao, tfb, gl45, false);
	if (argc > 2 && wanted(argc, argv, "keep-usages"))
		bench_keep_all(n, prog, vao, tfb, gl45, true);

	n = 20000 * scale;
	if (wanted(argc, argv, "map-read-unmap-1KiB"))
		TIME_CASE("map-read-unmap-1KiB", n, bench_map_read(n, data, sizeof(data)));
	if (wanted(argc, argv, "map-write-unmap-1KiB"))
		TIME_CASE("map-write-unmap-1KiB", n, bench_map_write(n, data, sizeof(data)));
	return 0;
}
