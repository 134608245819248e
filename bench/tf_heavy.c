/*
 * tf_heavy.c - a transform-feedback-heavy GL 3.3 core program for the
 * sim-vs-host replay benchmark (bench/sim_vs_host.py, docs/performance.md
 * "Sim replay vs llvmpipe"): VERTICES vertices (default 1 Mi, --vertices N)
 * with three attributes go through a vertex shader with a matrix transform,
 * a normal transform, a small loop of polynomial work and five varyings
 * (14 floats, 56 bytes per vertex) into one interleaved TF buffer, in
 * DRAWS draws, under a GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN query.
 *
 * With --frames F it is instead a frame loop (bench/async_observe.py,
 * docs/performance.md "Asynchronous observations"): SYSTEMS particle
 * systems (--systems, default 64) of PARTICLES particles (--particles,
 * default 4096) each, every one a TF pass per frame (its particles read
 * from one buffer, integrated in the vertex shader, captured into the
 * other: ping-pong), then eglSwapBuffers on the pbuffer and, as a
 * driver throttles at swap, a wait for the fence of the frame before the
 * previous one (two frames in flight); F frames after 10 untimed ones, and
 * glFinish.  It prints "frame-ns N": the wall time of the F frames and the
 * final glFinish, divided by F, so that the GPU's work is counted.
 * --copies=ring adds, without any capture, the GPU work the capture's
 * asynchronous read-back does (capture/README.md): after each frame's
 * passes, one glCopyBufferSubData per system of its TF output into a
 * persistently mapped, coherent, client-storage ring (ARB_buffer_storage),
 * and a fence after them, waited for with the frame's own.  --copies=vram
 * copies into a GL_DYNAMIC_COPY buffer instead (GPU memory, where the CPU
 * cannot read at memory speed); --copies=vram+ring into that buffer, then
 * all of a frame's bytes in one copy into the ring.  --copies=thread
 * makes the --copies=ring copies on a second context, in the first one's
 * share group and current (surfaceless, EGL_KHR_surfaceless_context) on a
 * thread of its own: after its passes the frame's thread puts a fence and
 * flushes; the copier thread waits for it on the GPU (glWaitSync), copies,
 * puts its own fence and flushes; before the passes that rewrite a frame's
 * TF buffers (two frames later) the frame's thread waits on the CPU until
 * the copier has made that frame's fence, then on the GPU for it
 * (OpenGL 4.6 core §4.1.1, §5.3: a fence waited for in another context must
 * have been flushed).  The copier waits for its fence of three frames
 * before (glClientWaitSync) before it reuses that slot of the ring, and it
 * prints the wall time of its calls ("copier: ...").  Two variants take the
 * measurement apart (docs/performance.md, "Copies on a context of their
 * own"): --copies=thread-serial, where the frame's thread makes no GL call
 * while the copier copies (it waits for the copier's fence of the frame
 * right after handing it over), and --copies=thread-spare, where the copier
 * copies a shared buffer that no frame uses instead of the TF output.
 * --copies=gather makes the --copies=ring copies with compute dispatches
 * instead of copy calls (docs/performance.md, "A gather dispatch"): a
 * compute program of its own (GL 4.3, or ARB_compute_shader and
 * ARB_shader_storage_buffer_object in an older context) reads K TF buffers
 * bound as read-only shader storage blocks and writes their words into the
 * ring, bound as one more; each frame's ranges go in ceil(SYSTEMS / K)
 * dispatches (K = --gather-sources, default 16, at most what the context's
 * shader storage limits leave), with a table of (source offset, ring
 * offset, words) per source in a uniform array.  TF writes are not shader
 * stores, so the dispatch sees them without a barrier (OpenGL 4.6 core
 * §7.13.2: barriers order shader memory accesses); its stores reach the
 * persistent mapping after glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT)
 * and the fence.  The frame's program and the storage bindings are put back
 * after the dispatches, as a capture would have to.
 * --gles runs the plain frame loop (no --copies) in a GLES 3.2 context
 * instead of GL 3.3 core, the same shader as GLSL ES 3.00.
 * The ring modes but thread-spare end by comparing the ring's slot of the
 * last frame with that frame's TF output (exit 1 when they differ).
 *
 * The program checks only the written-primitive count: the benchmark
 * measures time, and `xfbtrace replay --check` compares the TF data of a
 * replay with the capture's on its own.
 *
 * Exit codes as tests/apps (0 pass, 2 setup, 77 skip).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "app_check.h"
#include "app_egl.h"
#include "app_gl.h"

#define PROG "tf-heavy"
#define DRAWS 4
#define FLOATS_PER_VERTEX 14

static const char vs[] =
	"#version 330 core\n"
	"uniform mat4 u_mvp;\n"
	"uniform mat3 u_normal;\n"
	"uniform vec4 u_tint;\n"
	"in vec4 a_pos;\n"
	"in vec3 a_normal;\n"
	"in vec2 a_uv;\n"
	"out vec4 v_pos;\n"
	"out vec3 v_normal;\n"
	"out vec4 v_color;\n"
	"out vec2 v_uv;\n"
	"out float v_weight;\n"
	"void main() {\n"
	"  vec4 p = u_mvp * a_pos;\n"
	"  vec3 n = u_normal * a_normal;\n"
	"  float w = 0.0;\n"
	"  vec2 uv = a_uv;\n"
	"  for (int i = 0; i < 4; i++) {\n"
	"    uv = uv * 0.5 + vec2(0.25, 0.125) * float(i);\n"
	"    w = w * 0.75 + uv.x;\n"
	"  }\n"
	"  float lit = max(dot(n, vec3(0.0, 0.0, 1.0)), 0.0);\n"
	"  v_pos = p;\n"
	"  v_normal = n;\n"
	"  v_color = clamp(u_tint * lit + vec4(w), 0.0, 1.0);\n"
	"  v_uv = uv;\n"
	"  v_weight = w + float(gl_VertexID & 7);\n"
	"  gl_Position = p;\n"
	"}\n";

static const char *const varyings[] = { "v_pos", "v_normal", "v_color", "v_uv", "v_weight" };

/* 9 floats per vertex: pos xyzw, normal xyz, uv. */
static float *make_vertices(uint32_t n)
{
	float *v = malloc((size_t)n * 9 * sizeof *v);
	if (!v)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		float *o = v + (size_t)i * 9;
		float x = (float)(i % 1024) / 1024.0f, y = (float)(i / 1024 % 1024) / 1024.0f;
		o[0] = x * 2.0f - 1.0f;
		o[1] = y * 2.0f - 1.0f;
		o[2] = (float)(i % 7) * 0.125f;
		o[3] = 1.0f;
		o[4] = 0.0f;
		o[5] = 0.6f;
		o[6] = 0.8f;
		o[7] = x;
		o[8] = y;
	}
	return v;
}

static int run(uint32_t n_vertices)
{
	static const float mvp[16] = { 0.5f, 0, 0, 0, 0, 0.5f, 0, 0, 0, 0, -0.25f, 0,
				       0.125f, -0.25f, 0.5f, 1.0f };
	static const float normal[9] = { 1, 0, 0, 0, 0.5f, 0.5f, 0, -0.5f, 0.5f };
	GLuint prog = app_gl_program(vs, NULL, NULL, varyings, 5, GL_INTERLEAVED_ATTRIBS);
	GLuint vao, bufs[2], query;
	GLuint64 written = 0;
	float *verts = make_vertices(n_vertices);

	if (!prog || !verts) {
		free(verts);
		return APP_EXIT_SETUP;
	}
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(2, bufs);
	glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)n_vertices * 9 * 4, verts, GL_STATIC_DRAW);
	free(verts);
	static const char *const attrs[] = { "a_pos", "a_normal", "a_uv" };
	static const int sizes[] = { 4, 3, 2 }, offsets[] = { 0, 16, 28 };
	for (int i = 0; i < 3; i++) {
		GLint loc = glGetAttribLocation(prog, attrs[i]);
		if (loc < 0)
			return APP_EXIT_SETUP;
		glVertexAttribPointer((GLuint)loc, sizes[i], GL_FLOAT, GL_FALSE, 36,
				      (const void *)(uintptr_t)offsets[i]);
		glEnableVertexAttribArray((GLuint)loc);
	}
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, bufs[1]);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER,
		     (GLsizeiptr)n_vertices * FLOATS_PER_VERTEX * 4, NULL, GL_STREAM_READ);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bufs[1]);
	glUseProgram(prog);
	glUniformMatrix4fv(glGetUniformLocation(prog, "u_mvp"), 1, GL_FALSE, mvp);
	glUniformMatrix3fv(glGetUniformLocation(prog, "u_normal"), 1, GL_FALSE, normal);
	glUniform4f(glGetUniformLocation(prog, "u_tint"), 0.9f, 0.7f, 0.5f, 1.0f);
	glEnable(GL_RASTERIZER_DISCARD);
	glGenQueries(1, &query);
	glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, query);
	glBeginTransformFeedback(GL_POINTS);
	for (uint32_t d = 0; d < DRAWS; d++) {
		uint32_t first = n_vertices / DRAWS * d;
		uint32_t count = d + 1 == DRAWS ? n_vertices - first : n_vertices / DRAWS;
		glDrawArrays(GL_POINTS, (GLint)first, (GLsizei)count);
	}
	glEndTransformFeedback();
	glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
	glGetQueryObjectui64v(query, GL_QUERY_RESULT, &written);
	glDisable(GL_RASTERIZER_DISCARD);
	if (app_gl_failed(PROG))
		return APP_EXIT_SETUP;
	printf("%s: %u vertices, %llu primitives written, %d bytes per vertex\n", PROG,
	       n_vertices, (unsigned long long)written, FLOATS_PER_VERTEX * 4);
	return written == n_vertices ? APP_EXIT_PASS : APP_EXIT_MISMATCH;
}

#define PARTICLE_VS_BODY \
	"uniform float u_dt;\n" \
	"in vec4 a_pos;\n" \
	"in vec4 a_vel;\n" \
	"out vec4 v_pos;\n" \
	"out vec4 v_vel;\n" \
	"void main() {\n" \
	"  vec4 vel = a_vel + vec4(0.0, -9.81 * u_dt, 0.0, 0.0);\n" \
	"  vec4 pos = a_pos + vel * u_dt;\n" \
	"  if (pos.y < -1.0) { pos.y = -1.0; vel.y = -vel.y * 0.5; }\n" \
	"  v_pos = pos;\n" \
	"  v_vel = vel;\n" \
	"  gl_Position = pos;\n" \
	"}\n"

static const char particle_vs[] = "#version 330 core\n" PARTICLE_VS_BODY;
/* --gles: the same for a GLES 3.2 context, with the fragment shader that
 * GLES 3 wants to link a program (never run: rasterizer discard). */
static const char particle_vs_es[] = "#version 300 es\n" PARTICLE_VS_BODY;
static const char particle_fs_es[] =
	"#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#define WARMUP_FRAMES 10

enum copies { COPIES_NONE, COPIES_RING, COPIES_GATHER, COPIES_THREAD, COPIES_THREAD_SERIAL,
	      COPIES_THREAD_SPARE, COPIES_VRAM, COPIES_VRAM_RING };

#define GATHER_MAX_SOURCES 32
#define GATHER_LOCAL_SIZE 64

/* --copies=gather: the compute program and its sources per dispatch. */
struct gather {
	GLuint prog;
	GLint range_loc;        /* uvec4 u_range[k]: source word, ring word, words */
	int k;                  /* source bindings 0 .. k - 1, the ring at binding k */
};

static bool gather_supported(void)
{
	GLint major = 0, minor = 0;
	glGetIntegerv(GL_MAJOR_VERSION, &major);
	glGetIntegerv(GL_MINOR_VERSION, &minor);
	return major > 4 || (major == 4 && minor >= 3) ||
	       (app_gl_has_extension("GL_ARB_compute_shader") &&
		app_gl_has_extension("GL_ARB_shader_storage_buffer_object"));
}

/*
 * Builds the gather program for k sources: work group (x, r) copies words
 * x * GATHER_LOCAL_SIZE + lane, x + groups, ... of source r.  Storage block
 * arrays may only be indexed with constant expressions in GLSL ES 3.10 (and
 * dynamically uniform ones in GLSL 4.30), hence one block per source and a
 * switch.  Returns false (message printed) when the context cannot.
 */
static bool gather_init(struct gather *g, int k)
{
	GLint major = 0, minor = 0, blocks = 0, bindings = 0;
	glGetIntegerv(GL_MAJOR_VERSION, &major);
	glGetIntegerv(GL_MINOR_VERSION, &minor);
	glGetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &blocks);
	glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &bindings);
	if (blocks - 1 < k)
		k = blocks - 1;
	if (bindings - 1 < k)
		k = bindings - 1;
	if (k < 1) {
		fprintf(stderr, "%s: --copies=gather: %d compute storage blocks, %d bindings\n",
			PROG, blocks, bindings);
		return false;
	}
	const bool core43 = major > 4 || (major == 4 && minor >= 3);
	size_t cap = 4096 + (size_t)k * 160, len = 0;
	char *src = malloc(cap);
	if (!src)
		return false;
	len += (size_t)snprintf(src + len, cap - len, "%s",
		core43 ? "#version 430 core\n"
		       : "#version 330 core\n"
			 "#extension GL_ARB_compute_shader : require\n"
			 "#extension GL_ARB_shader_storage_buffer_object : require\n");
	len += (size_t)snprintf(src + len, cap - len,
		"layout(local_size_x = %d) in;\n"
		"layout(std430) writeonly buffer Ring { uint ring[]; };\n"
		"uniform uvec4 u_range[%d];\n", GATHER_LOCAL_SIZE, k);
	for (int i = 0; i < k; i++)
		len += (size_t)snprintf(src + len, cap - len,
			"layout(std430) readonly buffer Src%d { uint s%d[]; };\n", i, i);
	len += (size_t)snprintf(src + len, cap - len,
		"void main() {\n"
		"  uint r = gl_WorkGroupID.y;\n"
		"  uvec4 g = u_range[r];\n"
		"  uint step = gl_NumWorkGroups.x * %du;\n"
		"  for (uint w = gl_GlobalInvocationID.x; w < g.z; w += step) {\n"
		"    uint v = 0u;\n"
		"    switch (r) {\n", GATHER_LOCAL_SIZE);
	for (int i = 0; i < k; i++)
		len += (size_t)snprintf(src + len, cap - len,
			"    case %du: v = s%d[g.x + w]; break;\n", i, i);
	snprintf(src + len, cap - len, "    }\n    ring[g.y + w] = v;\n  }\n}\n");

	GLuint sh = glCreateShader(GL_COMPUTE_SHADER);
	const char *srcs[] = { src };
	GLint ok = GL_FALSE;
	glShaderSource(sh, 1, srcs, NULL);
	glCompileShader(sh);
	glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
	free(src);
	char log[2048] = "";
	if (!ok) {
		glGetShaderInfoLog(sh, sizeof log, NULL, log);
		fprintf(stderr, "%s: --copies=gather: compute shader:\n%s\n", PROG, log);
		glDeleteShader(sh);
		return false;
	}
	g->prog = glCreateProgram();
	glAttachShader(g->prog, sh);
	glLinkProgram(g->prog);
	glDeleteShader(sh);
	glGetProgramiv(g->prog, GL_LINK_STATUS, &ok);
	if (!ok) {
		glGetProgramInfoLog(g->prog, sizeof log, NULL, log);
		fprintf(stderr, "%s: --copies=gather: compute program:\n%s\n", PROG, log);
		return false;
	}
	/* No layout(binding) (GLSL 4.20 or ARB_shading_language_420pack): bound here. */
	for (int i = 0; i <= k; i++) {
		char name[16];
		snprintf(name, sizeof name, i < k ? "Src%d" : "Ring", i);
		GLuint index = glGetProgramResourceIndex(g->prog, GL_SHADER_STORAGE_BLOCK, name);
		if (index == GL_INVALID_INDEX) {
			fprintf(stderr, "%s: --copies=gather: no block %s\n", PROG, name);
			return false;
		}
		glShaderStorageBlockBinding(g->prog, index, (GLuint)i);
	}
	g->range_loc = glGetUniformLocation(g->prog, "u_range");
	g->k = k;
	return g->range_loc >= 0;
}

/*
 * Copies the n TF buffers src[] (bytes each, from offset 0) into the ring
 * at dst_byte, one dispatch per g->k of them, then puts back the frame's
 * program and unbinds the storage bindings used.
 */
static void gather_copy(const struct gather *g, GLuint ring, const GLuint *src, int n,
			GLsizeiptr bytes, GLintptr dst_byte, GLuint frame_prog)
{
	GLuint range[GATHER_MAX_SOURCES][4];
	const GLuint words = (GLuint)(bytes / 4);
	GLuint groups = (words + GATHER_LOCAL_SIZE - 1) / GATHER_LOCAL_SIZE;
	if (groups > 1024)
		groups = 1024;
	glUseProgram(g->prog);
	glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)g->k, ring);
	for (int first = 0; first < n; first += g->k) {
		const int m = n - first < g->k ? n - first : g->k;
		for (int i = 0; i < m; i++) {
			glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)i, src[first + i]);
			range[i][0] = 0;
			range[i][1] = (GLuint)((dst_byte + (GLintptr)(first + i) * bytes) / 4);
			range[i][2] = words;
			range[i][3] = 0;
		}
		glUniform4uiv(g->range_loc, m, &range[0][0]);
		glDispatchCompute(groups, (GLuint)m, 1);
	}
	glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
	for (int i = 0; i < n && i < g->k; i++)
		glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)i, 0);
	glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)g->k, 0);
	glUseProgram(frame_prog);
}

/*
 * --copies=thread: the copier thread and what the frame's thread hands it.
 * Frame i (counting the warm-up frames) uses slot i % 3 of written[],
 * copied[] and the ring; posted / done count the frames handed over and
 * copied (their fence made).
 */
struct copier {
	EGLDisplay dpy;
	EGLContext ctx;
	const GLuint *buf;
	GLuint spare;   /* --copies=thread-spare: copy this buffer instead of buf[] */
	int systems;
	GLsizeiptr bytes;
	GLuint ring;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	GLsync written[3], copied[3];
	int posted, done;
	bool stop, failed;
	/* The copier's wall time in glWaitSync, its first copy call, the others,
	 * and its fence and flush, summed over the frames. */
	double wait_ns, first_ns, rest_ns, fence_ns;
	pthread_t thread;
};

static void *copier_main(void *arg)
{
	struct copier *c = arg;
	bool ok = eglBindAPI(EGL_OPENGL_API) &&
		  eglMakeCurrent(c->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c->ctx);

	pthread_mutex_lock(&c->lock);
	if (!ok) {
		c->failed = true;
		pthread_cond_broadcast(&c->cond);
		pthread_mutex_unlock(&c->lock);
		return NULL;
	}
	for (;;) {
		while (!c->stop && c->done == c->posted)
			pthread_cond_wait(&c->cond, &c->lock);
		if (c->done == c->posted)
			break;
		const int i = c->done, slot = i % 3;
		GLsync written = c->written[slot], old = c->copied[slot];
		pthread_mutex_unlock(&c->lock);
		if (old) {
			/* Frame i - 3's copies: its bytes are "read", the slot is free. */
			glClientWaitSync(old, GL_SYNC_FLUSH_COMMANDS_BIT, 10000000000ull);
			glDeleteSync(old);
		}
		double t[5] = { 0 };
		t[0] = now_ns();
		glWaitSync(written, 0, GL_TIMEOUT_IGNORED);
		glDeleteSync(written);
		t[1] = now_ns();
		glBindBuffer(GL_COPY_WRITE_BUFFER, c->ring);
		const int cur = i & 1;
		for (int s = 0; s < c->systems; s++) {
			glBindBuffer(GL_COPY_READ_BUFFER,
				     c->spare ? c->spare : c->buf[s * 2 + 1 - cur]);
			glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0,
					    (slot * c->systems + s) * c->bytes, c->bytes);
			if (s == 0)
				t[2] = now_ns();
		}
		t[3] = now_ns();
		GLsync copied = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
		glFlush();
		t[4] = now_ns();
		pthread_mutex_lock(&c->lock);
		c->wait_ns += t[1] - t[0];
		c->first_ns += t[2] - t[1];
		c->rest_ns += t[3] - t[2];
		c->fence_ns += t[4] - t[3];
		c->copied[slot] = copied;
		c->done++;
		pthread_cond_broadcast(&c->cond);
	}
	pthread_mutex_unlock(&c->lock);
	glFinish();
	for (int i = 0; i < 3; i++)
		if (c->copied[i])
			glDeleteSync(c->copied[i]);
	c->failed = glGetError() != GL_NO_ERROR;
	eglMakeCurrent(c->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	return NULL;
}

/* A GL 3.3 core context in ctx's share group, with ctx's config. */
static EGLContext shared_context(EGLDisplay dpy, EGLContext ctx)
{
	static const EGLint attribs[] = {
		EGL_CONTEXT_MAJOR_VERSION_KHR, 3, EGL_CONTEXT_MINOR_VERSION_KHR, 3,
		EGL_CONTEXT_OPENGL_PROFILE_MASK_KHR, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT_KHR,
		EGL_NONE,
	};
	EGLint id = 0, n = 0;
	EGLConfig config;
	if (!eglQueryContext(dpy, ctx, EGL_CONFIG_ID, &id))
		return EGL_NO_CONTEXT;
	const EGLint choose[] = { EGL_CONFIG_ID, id, EGL_NONE };
	if (!eglChooseConfig(dpy, choose, &config, 1, &n) || n < 1)
		return EGL_NO_CONTEXT;
	return eglCreateContext(dpy, config, ctx, attribs);
}

/* Frame i's TF buffers are written again by frame i + 2: wait for its copies. */
static void copier_wait(struct copier *c, int i)
{
	pthread_mutex_lock(&c->lock);
	while (c->done <= i && !c->failed)
		pthread_cond_wait(&c->cond, &c->lock);
	GLsync copied = c->failed ? 0 : c->copied[i % 3];
	pthread_mutex_unlock(&c->lock);
	if (copied)
		glWaitSync(copied, 0, GL_TIMEOUT_IGNORED);
}

static void copier_post(struct copier *c)
{
	GLsync written = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	glFlush();
	pthread_mutex_lock(&c->lock);
	c->written[c->posted % 3] = written;
	c->posted++;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

static bool copier_finish(struct copier *c)
{
	pthread_mutex_lock(&c->lock);
	c->stop = true;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	return !c->failed;
}

/* The ring's slot of frame i holds frame i's TF output (i the last frame). */
static bool ring_matches(const char *ring_map, const GLuint *buf, int systems,
			 GLsizeiptr bytes, int i)
{
	char *tf = malloc((size_t)bytes);
	bool same = tf != NULL;
	for (int s = 0; same && s < systems; s++) {
		glBindBuffer(GL_COPY_READ_BUFFER, buf[s * 2 + 1 - (i & 1)]);
		glGetBufferSubData(GL_COPY_READ_BUFFER, 0, bytes, tf);
		same = !memcmp(tf, ring_map + ((i % 3) * systems + s) * bytes, (size_t)bytes);
	}
	free(tf);
	return same;
}

static int run_frames(struct app_egl *egl, int frames, int systems, int particles,
		      enum copies copies, int gather_sources, bool gles)
{
	const GLsizeiptr bytes = (GLsizeiptr)particles * 32;
	const GLbitfield ring_bits = GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT |
				     GL_MAP_COHERENT_BIT;
	GLuint ring = 0, vram = 0;
	const char *ring_map = NULL;
	GLsync copied[3] = { 0, 0, 0 };
	static const char *const pvaryings[] = { "v_pos", "v_vel" };
	GLuint prog = app_gl_program(gles ? particle_vs_es : particle_vs, NULL,
				     gles ? particle_fs_es : NULL, pvaryings, 2,
				     GL_INTERLEAVED_ATTRIBS);
	GLuint *vao = calloc((size_t)systems * 2, sizeof *vao);
	GLuint *buf = calloc((size_t)systems * 2, sizeof *buf);
	GLuint *tf_out = calloc((size_t)systems, sizeof *tf_out);
	struct gather gather = { 0 };
	float *init = malloc((size_t)particles * 8 * sizeof *init);
	GLsync fence[3] = { 0, 0, 0 };
	struct copier copier = { .ctx = EGL_NO_CONTEXT };
	bool copier_running = false;
	double start = 0;
	int rc = APP_EXIT_SETUP;

	if (!prog || !vao || !buf || !tf_out || !init)
		goto out;
	glUseProgram(prog);
	glUniform1f(glGetUniformLocation(prog, "u_dt"), 1.0f / 60.0f);
	GLint pos = glGetAttribLocation(prog, "a_pos"), vel = glGetAttribLocation(prog, "a_vel");
	if (pos < 0 || vel < 0)
		goto out;
	glGenVertexArrays(systems * 2, vao);
	glGenBuffers(systems * 2, buf);
	for (int s = 0; s < systems; s++) {
		for (int i = 0; i < particles; i++) {
			float *o = init + (size_t)i * 8;
			o[0] = (float)(i % 64) / 32.0f - 1.0f;
			o[1] = (float)(s % 8) / 8.0f;
			o[2] = (float)(i / 64 % 64) / 32.0f - 1.0f;
			o[3] = 1.0f;
			o[4] = 0.01f * (float)(i % 7);
			o[5] = 1.0f + 0.1f * (float)(s % 5);
			o[6] = -0.01f * (float)(i % 5);
			o[7] = 0.0f;
		}
		for (int k = 0; k < 2; k++) {
			glBindVertexArray(vao[s * 2 + k]);
			glBindBuffer(GL_ARRAY_BUFFER, buf[s * 2 + k]);
			glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)particles * 32, init, GL_DYNAMIC_COPY);
			glVertexAttribPointer((GLuint)pos, 4, GL_FLOAT, GL_FALSE, 32, (const void *)0);
			glVertexAttribPointer((GLuint)vel, 4, GL_FLOAT, GL_FALSE, 32, (const void *)16);
			glEnableVertexAttribArray((GLuint)pos);
			glEnableVertexAttribArray((GLuint)vel);
		}
	}
	if (copies == COPIES_GATHER) {
		if (!gather_supported()) {
			fprintf(stderr, "%s: --copies=gather: no compute shaders with shader storage "
				"(GL 4.3, ARB_compute_shader + ARB_shader_storage_buffer_object)\n",
				PROG);
			rc = APP_EXIT_SKIP;
			goto out;
		}
		if (!gather_init(&gather, gather_sources))
			goto out;
		glUseProgram(prog);
	}
	if (copies == COPIES_RING || copies == COPIES_GATHER ||
	    (copies >= COPIES_THREAD && copies <= COPIES_THREAD_SPARE) ||
	    copies == COPIES_VRAM_RING) {
		glGenBuffers(1, &ring);
		glBindBuffer(GL_COPY_WRITE_BUFFER, ring);
		glBufferStorage(GL_COPY_WRITE_BUFFER, 3 * systems * bytes, NULL,
				ring_bits | GL_CLIENT_STORAGE_BIT);
		ring_map = glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, 3 * systems * bytes, ring_bits);
		if (!ring_map) {
			fprintf(stderr, "%s: --copies: no persistently mapped ring\n", PROG);
			goto out;
		}
	}
	if (copies >= COPIES_VRAM) {
		glGenBuffers(1, &vram);
		glBindBuffer(GL_COPY_WRITE_BUFFER, vram);
		glBufferData(GL_COPY_WRITE_BUFFER, 3 * systems * bytes, NULL, GL_DYNAMIC_COPY);
	}
	if (copies >= COPIES_THREAD && copies <= COPIES_THREAD_SPARE) {
		copier.dpy = egl->dpy;
		pthread_mutex_init(&copier.lock, NULL);
		pthread_cond_init(&copier.cond, NULL);
		copier.ctx = shared_context(egl->dpy, egl->ctx);
		if (copier.ctx == EGL_NO_CONTEXT) {
			pthread_mutex_destroy(&copier.lock);
			pthread_cond_destroy(&copier.cond);
			fprintf(stderr, "%s: --copies=thread: no shared context (EGL error 0x%04x)\n",
				PROG, (unsigned)eglGetError());
			goto out;
		}
		copier.buf = buf;
		copier.systems = systems;
		copier.bytes = bytes;
		copier.ring = ring;
		if (copies == COPIES_THREAD_SPARE) {
			glGenBuffers(1, &copier.spare);
			glBindBuffer(GL_COPY_READ_BUFFER, copier.spare);
			glBufferData(GL_COPY_READ_BUFFER, bytes, init, GL_DYNAMIC_COPY);
		}
		/* The buffers' contents must be complete before the copier reads them. */
		glFinish();
		if (pthread_create(&copier.thread, NULL, copier_main, &copier)) {
			fprintf(stderr, "%s: --copies=thread: cannot start the thread\n", PROG);
			goto out;
		}
		copier_running = true;
	}
	glEnable(GL_RASTERIZER_DISCARD);
	for (int f = -WARMUP_FRAMES; f < frames; f++) {
		const int i = f + WARMUP_FRAMES, cur = i & 1, slot = i % 3;
		if (f == 0) {
			glFinish();
			start = now_ns();
		}
		if (copier_running && i >= 2)
			copier_wait(&copier, i - 2);
		for (int s = 0; s < systems; s++) {
			glBindVertexArray(vao[s * 2 + cur]);
			glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf[s * 2 + 1 - cur]);
			glBeginTransformFeedback(GL_POINTS);
			glDrawArrays(GL_POINTS, 0, particles);
			glEndTransformFeedback();
		}
		if (copier_running) {
			copier_post(&copier);
			/* --copies=thread-serial: no GL call here while the copier copies. */
			if (copies == COPIES_THREAD_SERIAL)
				copier_wait(&copier, i);
		}
		glBindBuffer(GL_COPY_WRITE_BUFFER, copies >= COPIES_VRAM ? vram : ring);
		for (int s = 0; (copies == COPIES_RING || copies >= COPIES_VRAM) && s < systems; s++) {
			glBindBuffer(GL_COPY_READ_BUFFER, buf[s * 2 + 1 - cur]);
			glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0,
					    (slot * systems + s) * bytes, bytes);
		}
		if (copies == COPIES_GATHER) {
			for (int s = 0; s < systems; s++)
				tf_out[s] = buf[s * 2 + 1 - cur];
			gather_copy(&gather, ring, tf_out, systems, bytes, slot * systems * bytes, prog);
		}
		if (copies == COPIES_VRAM_RING) {
			glBindBuffer(GL_COPY_READ_BUFFER, vram);
			glBindBuffer(GL_COPY_WRITE_BUFFER, ring);
			glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER,
					    slot * systems * bytes, slot * systems * bytes,
					    systems * bytes);
		}
		if (copies == COPIES_RING || copies == COPIES_GATHER || copies >= COPIES_VRAM)
			copied[slot] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
		if (egl->surf != EGL_NO_SURFACE)
			eglSwapBuffers(egl->dpy, egl->surf);
		/* Two frames in flight: wait for the one before the previous. */
		fence[slot] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
		const int old = (slot + 1) % 3;
		if (fence[old]) {
			glClientWaitSync(fence[old], GL_SYNC_FLUSH_COMMANDS_BIT, 10000000000ull);
			glDeleteSync(fence[old]);
			fence[old] = 0;
		}
		if (copied[old]) {
			glClientWaitSync(copied[old], 0, 0);
			glDeleteSync(copied[old]);
			copied[old] = 0;
		}
	}
	if (copier_running) {
		copier_running = false;
		if (!copier_finish(&copier)) {
			fprintf(stderr, "%s: --copies=thread: the copier thread failed\n", PROG);
			goto out;
		}
	}
	glFinish();
	const double ns = (now_ns() - start) / frames;
	if ((copies == COPIES_RING || copies == COPIES_GATHER || (copier.ctx != EGL_NO_CONTEXT && !copier.spare)) &&
	    !ring_matches(ring_map, buf, systems, bytes, frames + WARMUP_FRAMES - 1)) {
		fprintf(stderr, "%s: --copies: the ring differs from the last frame's TF output\n",
			PROG);
		rc = APP_EXIT_MISMATCH;
		goto out;
	}
	for (int i = 0; i < 3; i++) {
		if (fence[i])
			glDeleteSync(fence[i]);
		if (copied[i])
			glDeleteSync(copied[i]);
	}
	if (ring)
		glDeleteBuffers(1, &ring);
	if (vram)
		glDeleteBuffers(1, &vram);
	if (gather.prog)
		glDeleteProgram(gather.prog);
	if (copier.spare)
		glDeleteBuffers(1, &copier.spare);
	glDisable(GL_RASTERIZER_DISCARD);
	if (app_gl_failed(PROG))
		goto out;
	printf("%s: %d frames of %d particle systems x %d particles, %d bytes of TF output\n",
	       PROG, frames, systems, particles, systems * particles * 32);
	if (gather.prog)
		printf("gather: %d dispatches per frame, up to %d sources each\n",
		       (systems + gather.k - 1) / gather.k, gather.k);
	printf("frame-ns %.0f\n", ns);
	if (copier.ctx != EGL_NO_CONTEXT) {
		const double n = frames + WARMUP_FRAMES;
		printf("copier-ns-per-copy %.0f\n", (copier.first_ns + copier.rest_ns) / (n * systems));
		printf("copier: ns per frame in glWaitSync %.0f, first copy %.0f, "
		       "other copies %.0f, fence and flush %.0f\n", copier.wait_ns / n,
		       copier.first_ns / n, copier.rest_ns / n, copier.fence_ns / n);
	}
	printf("renderer: %s; %s\n", (const char *)glGetString(GL_RENDERER),
	       (const char *)glGetString(GL_VERSION));
	rc = APP_EXIT_PASS;
out:
	if (copier_running)
		copier_finish(&copier);
	if (copier.ctx != EGL_NO_CONTEXT) {
		pthread_mutex_destroy(&copier.lock);
		pthread_cond_destroy(&copier.cond);
		eglDestroyContext(egl->dpy, copier.ctx);
	}
	free(vao);
	free(buf);
	free(tf_out);
	free(init);
	return rc;
}

int main(int argc, char **argv)
{
	uint32_t n_vertices = 1u << 20;
	int frames = 0, systems = 64, particles = 4096;
	enum copies copies = COPIES_NONE;
	int gather_sources = 16;
	bool gles = false;
	struct app_egl egl;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--vertices") && i + 1 < argc) {
			n_vertices = (uint32_t)strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
			frames = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--systems") && i + 1 < argc) {
			systems = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--particles") && i + 1 < argc) {
			particles = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--gles")) {
			gles = true;
		} else if (!strcmp(argv[i], "--copies=ring")) {
			copies = COPIES_RING;
		} else if (!strcmp(argv[i], "--copies=gather")) {
			copies = COPIES_GATHER;
		} else if (!strcmp(argv[i], "--gather-sources") && i + 1 < argc) {
			gather_sources = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--copies=thread")) {
			copies = COPIES_THREAD;
		} else if (!strcmp(argv[i], "--copies=thread-serial")) {
			copies = COPIES_THREAD_SERIAL;
		} else if (!strcmp(argv[i], "--copies=thread-spare")) {
			copies = COPIES_THREAD_SPARE;
		} else if (!strcmp(argv[i], "--copies=vram")) {
			copies = COPIES_VRAM;
		} else if (!strcmp(argv[i], "--copies=vram+ring")) {
			copies = COPIES_VRAM_RING;
		} else {
			fprintf(stderr, "usage: %s [--vertices N] | --frames F [--systems S] "
				"[--particles P]\n  [--gles | --copies=ring|gather|thread|thread-serial|"
				"thread-spare|vram|vram+ring] [--gather-sources K]\n", PROG);
			return APP_EXIT_SETUP;
		}
	}
	if (frames) {
		if (frames < 1 || systems < 1 || systems > 4096 || particles < 1 ||
		    particles > (1 << 20) || gather_sources < 1 ||
		    gather_sources > GATHER_MAX_SOURCES) {
			fprintf(stderr, "%s: bad --frames / --systems / --particles / "
				"--gather-sources (1 .. %d)\n", PROG, GATHER_MAX_SOURCES);
			return APP_EXIT_SETUP;
		}
		if (gles && copies != COPIES_NONE) {
			fprintf(stderr, "%s: --gles runs the plain frame loop only\n", PROG);
			return APP_EXIT_SETUP;
		}
		int rc = gles ? app_egl_init(&egl, APP_API_GLES, 3, 2, 16)
			      : app_egl_init(&egl, APP_API_GL_CORE, 3, 3, 16);
		if (rc != APP_EXIT_PASS)
			return rc;
		rc = run_frames(&egl, frames, systems, particles, copies, gather_sources, gles);
		app_egl_fini(&egl);
		return rc;
	}
	if (n_vertices < DRAWS || n_vertices > (1u << 24)) {
		fprintf(stderr, "%s: --vertices must be %d .. %u\n", PROG, DRAWS, 1u << 24);
		return APP_EXIT_SETUP;
	}
	int rc = app_egl_init(&egl, APP_API_GL_CORE, 3, 3, 16);
	if (rc != APP_EXIT_PASS)
		return rc;
	rc = run(n_vertices);
	app_egl_fini(&egl);
	return rc;
}
