/*
 * cap_observe.c - the capture's side of observations: adapts the
 * observation core (observe/obs.h), which the replay shares, to the
 * capture library.  The core reads the golden data back from the real
 * driver (docs/trace-format.md, "Observation kinds"); this file hands it
 * the real GL functions (CAP_REAL), the current context's version, the
 * thread's spool stream as the record sink and the per-context GL error
 * queue (cap_glerror_stash / drain), so the application sees no difference.
 * The names the application uses are the driver's here: no translation.
 * The TF observation gets the current context's cache and the program
 * generation that CAP_HOOK_PROGRAM calls bump (cap_context.c), so it reads
 * a program's TF layout once per link instead of at every draw.
 *
 * Asynchronous read-back (the default; XFBTRACE_OBSERVE=sync reads at the
 * call as before, docs/trace-format.md "Late observations"): a TF end is
 * observed through the context's struct obs_async (observe/obs.h), which
 * copies the ranges on the GPU and reads them later.  The sinks write the
 * announcement (TRACE_REC_OBS_PENDING, attached to the TF end) and the
 * late records (TRACE_REC_OBS_LATE, attached to the call during which they
 * were read).  The application's own synchronisation points read back what
 * has arrived (cap_observe_sync); before a context leaves its thread
 * everything is read, so that a queue is only ever used by the thread its
 * context is current on; at exit() the calling thread's queue is read.
 * What is still in flight when the process dies is named as lost by the
 * trace reader.  The core defers its copies until a call may write their
 * buffers: cap_record.c calls cap_observe_before_write before every call
 * of specs/gl_annotations.py's BUFFER_WRITES (cap_fdesc.writes), which
 * names the buffers the call may write; copies are made at the TF end
 * where writes may come that no call announces (obs_ctx.defer_copies).
 */
#include "cap_observe.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cap_state.h"
#include "obs.h"
#include "obs_gl_enums.h"
#include "trace_enc.h"
#include "trace_format.h"
#include "trace_layout.h"
#include "xt_log.h"

/* The core's private enum values must be the registry's. */
#define CHECK_ENUM(n) _Static_assert(OBS_GL_##n == GL_##n, "OBS_GL_" #n);
OBS_GL_ENUM_LIST(CHECK_ENUM)
#undef CHECK_ENUM

static uint8_t *sink_reserve(void *user, size_t max_payload)
{
	return cap_rec_reserve(max_payload);
}

static void sink_commit(void *user, uint64_t seq, size_t n)
{
	cap_rec_commit(TRACE_REC_OBSERVATION, TRACE_RECF_ATTACHED, seq, n);
}

static void sink_pending(void *user, uint64_t seq, const char *kind, uint32_t count)
{
	uint8_t *p = cap_rec_reserve(64 + strlen(kind)), *s = p;

	if (!p)
		return;
	p = trace_enc_map(p, 2);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, kind, strlen(kind));
	p = trace_enc_key(p, "records");
	p = trace_enc_uint(p, count);
	cap_rec_commit(TRACE_REC_OBS_PENDING, TRACE_RECF_ATTACHED, seq, (size_t)(p - s));
}

static void sink_commit_late(void *user, uint64_t at, size_t n)
{
	cap_rec_commit(TRACE_REC_OBS_LATE, TRACE_RECF_ATTACHED, at, n);
}

static void err_stash(void *user)
{
	cap_glerror_stash();
}

static void err_drain(void *user, const char *what)
{
	cap_glerror_drain(what);
}

/* The real functions, resolved now (a NULL one stays NULL). */
static void gl_table(struct obs_gl *gl)
{
	gl->GetIntegerv = CAP_REAL(glGetIntegerv);
	gl->GetIntegeri_v = CAP_REAL(glGetIntegeri_v);
	gl->GetInteger64i_v = CAP_REAL(glGetInteger64i_v);
	gl->GetError = CAP_REAL(glGetError);
	gl->GetProgramiv = CAP_REAL(glGetProgramiv);
	gl->GetProgramPipelineiv = CAP_REAL(glGetProgramPipelineiv);
	gl->GetProgramInterfaceiv = CAP_REAL(glGetProgramInterfaceiv);
	gl->GetProgramResourceiv = CAP_REAL(glGetProgramResourceiv);
	gl->GetTransformFeedbackVarying = CAP_REAL(glGetTransformFeedbackVarying);
	gl->BindBuffer = CAP_REAL(glBindBuffer);
	gl->GetBufferParameteriv = CAP_REAL(glGetBufferParameteriv);
	gl->GetBufferParameteri64v = CAP_REAL(glGetBufferParameteri64v);
	gl->GetBufferSubData = CAP_REAL(glGetBufferSubData);
	gl->MapBufferRange = CAP_REAL(glMapBufferRange);
	gl->UnmapBuffer = CAP_REAL(glUnmapBuffer);
	gl->GetQueryObjectui64v = CAP_REAL(glGetQueryObjectui64v);
	gl->GetBufferPointerv = CAP_REAL(glGetBufferPointerv);
	gl->MemoryBarrier = CAP_REAL(glMemoryBarrier);
	gl->Finish = CAP_REAL(glFinish);
	gl->GenBuffers = CAP_REAL(glGenBuffers);
	gl->DeleteBuffers = CAP_REAL(glDeleteBuffers);
	gl->BufferData = CAP_REAL(glBufferData);
	gl->CopyBufferSubData = CAP_REAL(glCopyBufferSubData);
	/* GLsync is a pointer to an incomplete struct: the core keeps it as
	 * void *, which has the same representation. */
	gl->FenceSync = (void *(*)(unsigned, unsigned))CAP_REAL(glFenceSync);
	gl->ClientWaitSync = (unsigned (*)(void *, unsigned, uint64_t))CAP_REAL(glClientWaitSync);
	gl->DeleteSync = (void (*)(void *))CAP_REAL(glDeleteSync);
	gl->CreateBuffers = CAP_REAL(glCreateBuffers);
	gl->NamedBufferData = CAP_REAL(glNamedBufferData);
	gl->CopyNamedBufferSubData = CAP_REAL(glCopyNamedBufferSubData);
	gl->GetNamedBufferSubData = CAP_REAL(glGetNamedBufferSubData);
	gl->GetNamedBufferParameteriv = CAP_REAL(glGetNamedBufferParameteriv);
	gl->BufferStorage = CAP_REAL(glBufferStorage);
	gl->BufferStorageEXT = CAP_REAL(glBufferStorageEXT);
	gl->ReadPixels = CAP_REAL(glReadPixels);
	gl->PixelStorei = CAP_REAL(glPixelStorei);
	gl->BindFramebuffer = CAP_REAL(glBindFramebuffer);
	gl->ReadBuffer = CAP_REAL(glReadBuffer);
	gl->GetFramebufferAttachmentParameteriv = CAP_REAL(glGetFramebufferAttachmentParameteriv);
	gl->GetRenderbufferParameteriv = CAP_REAL(glGetRenderbufferParameteriv);
	gl->BindRenderbuffer = CAP_REAL(glBindRenderbuffer);
	gl->GetTextureLevelParameteriv = CAP_REAL(glGetTextureLevelParameteriv);
	gl->CreateShader = CAP_REAL(glCreateShader);
	gl->ShaderSource = CAP_REAL(glShaderSource);
	gl->CompileShader = CAP_REAL(glCompileShader);
	gl->GetShaderiv = CAP_REAL(glGetShaderiv);
	gl->DeleteShader = CAP_REAL(glDeleteShader);
	gl->CreateProgram = CAP_REAL(glCreateProgram);
	gl->AttachShader = CAP_REAL(glAttachShader);
	gl->LinkProgram = CAP_REAL(glLinkProgram);
	gl->DeleteProgram = CAP_REAL(glDeleteProgram);
	gl->GetProgramResourceIndex = CAP_REAL(glGetProgramResourceIndex);
	gl->ShaderStorageBlockBinding = CAP_REAL(glShaderStorageBlockBinding);
	gl->GetUniformLocation = CAP_REAL(glGetUniformLocation);
	gl->UseProgram = CAP_REAL(glUseProgram);
	gl->Uniform4uiv = CAP_REAL(glUniform4uiv);
	gl->BindBufferBase = CAP_REAL(glBindBufferBase);
	gl->BindBufferRange = CAP_REAL(glBindBufferRange);
	gl->DispatchCompute = CAP_REAL(glDispatchCompute);
	gl->GetActiveUniformBlockiv = CAP_REAL(glGetActiveUniformBlockiv);
	gl->GetActiveUniformBlockName = CAP_REAL(glGetActiveUniformBlockName);
	gl->GetActiveUniformsiv = CAP_REAL(glGetActiveUniformsiv);
	gl->GetActiveUniform = CAP_REAL(glGetActiveUniform);
	gl->IsProgram = CAP_REAL(glIsProgram);
}

/*
 * The table of real functions.  Once every member is resolved it cannot
 * change (cap_real_ptrs keeps what it found), so it is built once and
 * shared; while some are missing (a library not loaded yet, or a context
 * version without them) it is built again at each observation into the
 * caller's `scratch`.
 */
static const struct obs_gl *gl_functions(struct obs_gl *scratch)
{
	static struct obs_gl table;
	static atomic_bool complete;

	if (atomic_load_explicit(&complete, memory_order_acquire))
		return &table;
	gl_table(scratch);
	if (!scratch->GetIntegerv || !scratch->GetIntegeri_v || !scratch->GetInteger64i_v ||
	    !scratch->GetError || !scratch->GetProgramiv || !scratch->GetProgramPipelineiv ||
	    !scratch->GetProgramInterfaceiv || !scratch->GetProgramResourceiv ||
	    !scratch->GetTransformFeedbackVarying || !scratch->BindBuffer ||
	    !scratch->GetBufferParameteriv || !scratch->GetBufferParameteri64v ||
	    !scratch->GetBufferSubData || !scratch->MapBufferRange || !scratch->UnmapBuffer ||
	    !scratch->GetQueryObjectui64v)
		return scratch;
	pthread_mutex_lock(&cap_g.lock);
	if (!atomic_load_explicit(&complete, memory_order_relaxed)) {
		table = *scratch;
		atomic_store_explicit(&complete, true, memory_order_release);
	}
	pthread_mutex_unlock(&cap_g.lock);
	return &table;
}

/*
 * Fills the core's context for the calling thread; false when observations
 * are off, no context is current or a GL function the core always needs is
 * missing (then no observation is made).
 */
static bool obs_context(struct obs_ctx *c, struct obs_gl *scratch)
{
	struct cap_ctx_info info;
	const struct obs_gl *gl;

	if (!cap_observe_enabled() || !cap_current_ctx(&info))
		return false;
	gl = gl_functions(scratch);
	if (!gl->GetIntegerv || !gl->GetIntegeri_v || !gl->GetInteger64i_v || !gl->GetError ||
	    !gl->GetProgramiv || !gl->GetTransformFeedbackVarying || !gl->BindBuffer ||
	    !gl->GetBufferParameteriv || !gl->GetBufferParameteri64v ||
	    (!info.gles && !gl->GetBufferSubData) ||
	    (info.gles && (!gl->MapBufferRange || !gl->UnmapBuffer)) || !gl->GetQueryObjectui64v)
		return false;
	*c = (struct obs_ctx){
		.gl = gl,
		.gles = info.gles,
		.major = info.major,
		.minor = info.minor,
		.ext_buffer_storage = info.ext_buffer_storage,
		.ext_dsa = info.ext_dsa,
		.ext_program_interface = info.ext_program_interface,
		.ext_shader_writes = info.ext_shader_writes,
		.ext_gather = info.ext_gather,
		/* Writes the capture does not see as calls: another context of
		 * the share group (on another thread), the CPU through a
		 * persistent mapping (cap_memory.c keeps a shadow of each). */
		.defer_copies = !info.shared &&
				atomic_load_explicit(&cap_g.shadows, memory_order_relaxed) == 0,
		.timed = xt_log_level() >= XT_LOG_INFO,
		.reserve = sink_reserve,
		.commit = sink_commit,
		.stash = err_stash,
		.drain = err_drain,
		.pending = sink_pending,
		.commit_late = sink_commit_late,
	};
	return true;
}

bool cap_observe_context(struct obs_ctx *c, struct obs_gl *scratch)
{
	return obs_context(c, scratch);
}

enum cap_observe_mode cap_observe_mode(void)
{
	static atomic_int mode = -1;
	int m = atomic_load_explicit(&mode, memory_order_relaxed);

	if (m < 0) {
		const char *v = getenv("XFBTRACE_OBSERVE");
		m = !v || strcmp(v, "sync") ? (!v || strcmp(v, "async") ? CAP_OBSERVE_AUTO :
					       CAP_OBSERVE_ASYNC) : CAP_OBSERVE_SYNC;
		atomic_store_explicit(&mode, m, memory_order_relaxed);
	}
	return (enum cap_observe_mode)m;
}

/*
 * Whether the current context reads TF buffers back asynchronously: always
 * with XFBTRACE_OBSERVE=async, never with =sync, and by default (auto)
 * unless the renderer runs on the CPU (llvmpipe, softpipe): there TF
 * output is in memory when the draw returns, so the read-back at the call
 * waits for nothing, while a copy, a fence (which wakes llvmpipe's
 * rasterizer threads) and a later read cost more (docs/performance.md,
 * "Asynchronous observations").
 */
static bool use_async(const struct cap_ctx_info *info)
{
	switch (cap_observe_mode()) {
	case CAP_OBSERVE_ASYNC: return true;
	case CAP_OBSERVE_SYNC: return false;
	default: return !info->cpu_renderer;
	}
}

/* At exit(): what the exiting thread's context has in flight is read back
 * (registered at the first asynchronous observation, so it runs before
 * the GL libraries' own exit handlers and destructors). */
static void read_back_at_exit(void)
{
	uint64_t next = atomic_load(&cap_g.next_seq);
	struct obs_async_stats st = { 0 };

	if (next)
		cap_observe_sync(next - 1, CAP_SYNC_ALL);
	if (xt_log_level() < XT_LOG_INFO)
		return;
	pthread_mutex_lock(&cap_g.lock);
	for (struct cap_ctx *x = cap_g.contexts; x; x = x->next)
		obs_async_stats_add(x->async, &st);
	pthread_mutex_unlock(&cap_g.lock);
	xt_info("capture: async observations: %llu calls copied on the GPU (%llu into the mapped "
		"ring), %llu read at the call (the copy failed); copies read after their fence: %llu, "
		"waiting: %llu; copies deferred: %llu, made in %llu batches (%llu before a call "
		"that may write their buffers); %llu batches by gather dispatches (%llu "
		"dispatches), %llu in the ring by copy calls; ns in TF ends %llu, copies %llu, "
		"fences %llu, "
		"fence polls %llu, waits %llu, read-backs %llu, write checks %llu; of the TF ends: "
		"state %llu, buffer sizes and maps %llu, staging and records %llu",
		(unsigned long long)st.staged, (unsigned long long)st.in_ring,
		(unsigned long long)st.at_call,
		(unsigned long long)st.signalled, (unsigned long long)st.waited,
		(unsigned long long)st.deferred, (unsigned long long)st.batches,
		(unsigned long long)st.before_write, (unsigned long long)st.gathered,
		(unsigned long long)st.dispatches, (unsigned long long)st.not_gathered,
		(unsigned long long)st.tf_ns,
		(unsigned long long)st.copy_ns, (unsigned long long)st.fence_ns,
		(unsigned long long)st.poll_ns, (unsigned long long)st.wait_ns,
		(unsigned long long)st.read_ns, (unsigned long long)st.check_ns,
		(unsigned long long)st.tf_state_ns, (unsigned long long)st.tf_size_ns,
		(unsigned long long)st.tf_stage_ns);
}

static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

static void register_exit(void)
{
	atexit(read_back_at_exit);
}

void cap_observe_tf_end(uint64_t seq, bool paused)
{
	struct obs_ctx c;
	struct obs_gl gl;

	if (obs_context(&c, &gl)) {
		c.tf_cache = cap_ctx_tf_cache();
		c.program_generation = cap_program_generation();
		c.tf_state_generation = cap_tf_state_generation();
		struct cap_ctx_info info;
		struct obs_async *q = cap_current_ctx(&info) && use_async(&info) &&
				      obs_async_usable(&c) ? cap_ctx_async() : NULL;
		if (q) {
			pthread_once(&exit_once, register_exit);
			obs_tf_end_async(&c, q, seq, paused);
		} else {
			obs_tf_end(&c, seq, paused);
		}
	}
}

void cap_observe_sync(uint64_t seq, enum cap_sync when)
{
	static const enum obs_async_when map[] = {
		[CAP_SYNC_POLL] = OBS_ASYNC_WAITED,
		[CAP_SYNC_FRAME] = OBS_ASYNC_FRAME,
		[CAP_SYNC_ALL] = OBS_ASYNC_ALL,
	};
	struct obs_async *q = cap_ctx_async_if_any();
	struct obs_ctx c;
	struct obs_gl gl;

	if (!q)
		return;
	if (!obs_async_pending(q))
		obs_async_poll(NULL, q, seq, map[when]);  /* no GL call: counts a frame */
	else if (obs_context(&c, &gl))
		obs_async_poll(&c, q, seq, map[when]);
}

void cap_observe_before_write(uint64_t seq, unsigned writes, int arg, const union cap_arg *a)
{
	struct obs_async *q = cap_ctx_async_if_any();
	enum obs_write kind = OBS_WRITE_BUFFERS;
	uint32_t name = 0;
	const uint32_t *names = &name;
	size_t n = 1;
	struct obs_ctx c;
	struct obs_gl gl;

	if (!obs_async_deferred(q) || !obs_context(&c, &gl))
		return;
	c.tf_cache = cap_ctx_tf_cache();
	c.program_generation = cap_program_generation();
	c.tf_state_generation = cap_tf_state_generation();
	switch ((enum cap_write)writes) {
	case CAP_W_TARGET:
		name = cap_ctx_bound_buffer((GLenum)a[arg].u, false);
		break;
	case CAP_W_BUFFER:
		name = (uint32_t)a[arg].u;
		break;
	case CAP_W_NAMES:
		names = (const uint32_t *)(uintptr_t)a[arg + 1].u;
		n = names && a[arg].i > 0 ? (size_t)a[arg].i : 0;
		break;
	case CAP_W_TF:
		kind = OBS_WRITE_TF;
		break;
	case CAP_W_PROGRAM:
		kind = OBS_WRITE_PROGRAM;
		break;
	case CAP_W_PACK:
		name = cap_ctx_bound_buffer(GL_PIXEL_PACK_BUFFER, false);
		break;
	case CAP_W_QUERY:
		name = cap_ctx_bound_buffer(GL_QUERY_BUFFER, false);
		break;
	case CAP_W_SYNC:
		kind = OBS_WRITE_ANY;
		break;
	default:
		return;
	}
	obs_async_before_write(&c, q, seq, kind, names, n);
}

void cap_observe_link(uint64_t seq, GLuint program)
{
	struct obs_ctx c;
	struct obs_gl gl;
	struct trace_layout l;
	uint8_t *p, *s;

	if (!obs_context(&c, &gl) || !obs_layout_read(&c, program, program, &l))
		return;
	if ((p = s = cap_rec_reserve(obs_layout_bound(&l))) != NULL) {
		p = obs_layout_encode(&l, p);
		cap_rec_commit(TRACE_REC_LAYOUT, TRACE_RECF_ATTACHED, seq, (size_t)(p - s));
	}
	obs_layout_free(&l);
}

void cap_observe_query(uint64_t seq, const char *func, GLuint id, GLenum pname,
		       const void *params, size_t elem_bytes)
{
	struct obs_ctx c;
	struct obs_gl gl;

	if (!obs_context(&c, &gl))
		return;
	struct cap_ctx_info info;
	struct obs_async *q = !params && cap_current_ctx(&info) && use_async(&info) &&
			      obs_async_usable(&c) ? cap_ctx_async() : NULL;
	if (q) {
		pthread_once(&exit_once, register_exit);
		obs_query_async(&c, q, seq, func, id, pname, params, elem_bytes);
	} else {
		obs_query(&c, seq, func, id, pname, params, elem_bytes);
	}
}

void cap_observe_buffer_read(uint64_t seq, GLuint buffer, int64_t offset, int64_t size,
			     const void *data)
{
	struct obs_ctx c;
	struct obs_gl gl;

	if (obs_context(&c, &gl))
		obs_buffer_read(&c, seq, buffer, offset, size, data);
}

void cap_observe_map(uint64_t seq, GLuint buffer, int64_t offset, int64_t length,
		     GLbitfield access, const void *ptr)
{
	struct obs_ctx c;
	struct obs_gl gl;

	if (obs_context(&c, &gl))
		obs_map(&c, seq, buffer, offset, length, access, ptr);
}

void cap_observe_read_pixels(uint64_t seq, const char *func, GLint x, GLint y, GLsizei width,
			     GLsizei height, GLenum format, GLenum type, const void *pixels,
			     size_t pixels_bytes, uint64_t pack_offset)
{
	struct obs_ctx c;
	struct obs_gl gl;

	if (obs_context(&c, &gl))
		obs_read_pixels(&c, seq, func, x, y, width, height, format, type, pixels,
				pixels_bytes, pack_offset);
}
