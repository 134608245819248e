/*
 * drv_glslang.c - GLSL -> SPIR-V through glslang's C API (glslang 12).
 *
 * Decisions:
 *   - Client OpenGL 4.50 (GL_ARB_gl_spirv semantics): default-block
 *     uniforms stay loose UniformConstant variables with locations, as GL
 *     reports them, instead of the Vulkan rule that forbids them.
 *   - Locations and bindings are auto-mapped per stage (SPIR-V for GL
 *     wants them); each stage is linked alone in its own glslang program
 *     (glslang 12's C interface appends every generated module to one
 *     vector), and the driver matches stage interfaces by name itself.
 *   - SPIR-V 1.0 with glslang's spirv-opt pipeline.  In glslang 12 the
 *     pipeline only runs for HLSL or when `optimize_size` is set (see
 *     GlslangToSpv.cpp); disable_optimizer = false alone leaves every local
 *     in memory and every function un-inlined.  So both are set: functions
 *     are inlined (there is no call support downstream), locals promoted to
 *     SSA, early returns merged.  The optimizer also drops uniform blocks no
 *     code references, which GL keeps active (drv_program_build_uniforms):
 *     a stage that declares uniforms is generated a second time without
 *     the optimizer (`declared`), for its declarations only.
 *   - Limits: glslang's defaults with the driver's transform feedback
 *     limits (drv_shader.h), which glslang checks xfb_* qualifiers against,
 *     and its atomic counter bindings.
 *   - Some rules glslang checks while parsing, GL drivers when linking
 *     (Mesa: the xfb_stride limit and overlapping xfb_offsets are link
 *     errors, glCompileShader succeeds).  A stage whose only errors are of
 *     that kind (`link_time_errors`) counts as compiled and its errors go
 *     to the link log, which fails.  glslang stops parsing at the stride
 *     error, so a later compile error in the same shader is not seen: the
 *     verdict is then "compiled, does not link" where Mesa says "does not
 *     compile".
 * glslang keeps process-wide state: it is initialised once (pthread_once)
 * and never finalised.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>

#include "drv_compiler.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t glslang_lock = PTHREAD_MUTEX_INITIALIZER;
static glslang_resource_t limits;

static void init_glslang(void)
{
	glslang_initialize_process();
	limits = *glslang_default_resource();
	limits.max_transform_feedback_buffers = DRV_MAX_TF_BUFFERS;
	limits.max_transform_feedback_interleaved_components = DRV_MAX_TF_INTERLEAVED_COMPONENTS;
	/* glslang's default is 1; the state tracker reports 8
	 * (GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS, DRV_MAX_ATOMIC_BINDINGS) */
	limits.max_atomic_counter_bindings = 8;
}

/* glslang parse errors that GL reports at link time (top comment). */
static const char *const link_time_errors[] = {
	"'xfb_stride' : 1/4 stride is too large",
	"'xfb_offset' : overlapping offsets at",
};

/* True when every error in glslang's info log is a link-time one; the
 * summary lines ("compilation terminated", "N compilation errors") do not
 * count. */
static bool only_link_time_errors(const char *log)
{
	bool any = false;

	for (const char *l = log; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		if (n > 7 && !memcmp(l, "ERROR: ", 7)) {
			bool known = false;
			for (size_t i = 0; i < sizeof link_time_errors / sizeof link_time_errors[0]; i++) {
				const char *m = strstr(l, link_time_errors[i]);
				known |= m && m < l + n;
			}
			const char *t = strstr(l, "compilation terminated");
			const char *c = strstr(l, "compilation errors.");
			if (!known && !(t && t < l + n) && !(c && c < l + n))
				return false;
			any |= known;
		}
		l = e ? e + 1 : l + n;
	}
	return any;
}

static const glslang_stage_t gl_stage[DRV_STAGE_COUNT] = {
	[DRV_STAGE_VERTEX] = GLSLANG_STAGE_VERTEX,
	[DRV_STAGE_GEOMETRY] = GLSLANG_STAGE_GEOMETRY,
	[DRV_STAGE_FRAGMENT] = GLSLANG_STAGE_FRAGMENT,
};

#define MAX_MORE_UNITS 8u   /* a program attaches at most 8 shader objects */

/*
 * Parses the further compilation units of a stage (drv_translation.more)
 * with the first unit's settings `first`, into sh[] (in[] holds their
 * inputs, which glslang keeps pointers into).  False when one does not
 * compile (its log appended to `log`), with *rc set on allocation failure.
 */
static bool parse_more(const struct drv_translation *tr, const glslang_input_t *first,
		       glslang_shader_t *sh[MAX_MORE_UNITS], glslang_input_t in[MAX_MORE_UNITS],
		       struct xt_buf *log, enum xt_rc *rc)
{
	if (tr->n_more > MAX_MORE_UNITS) {
		xt_buf_printf(log, "error: more than %u shader objects of one stage\n", MAX_MORE_UNITS);
		return false;
	}
	for (unsigned k = 0; k < tr->n_more; k++) {
		in[k] = *first;
		in[k].code = tr->more[k].text;
		sh[k] = glslang_shader_create(&in[k]);
		if (!sh[k]) {
			*rc = XT_ERR_NOMEM;
			return false;
		}
		glslang_shader_set_options(sh[k], GLSLANG_SHADER_AUTO_MAP_LOCATIONS | GLSLANG_SHADER_AUTO_MAP_BINDINGS);
		if (!glslang_shader_preprocess(sh[k], &in[k]) || !glslang_shader_parse(sh[k], &in[k])) {
			const char *l = glslang_shader_get_info_log(sh[k]);
			xt_buf_printf(log, "%s", l && *l ? l : "glslang: parse failed\n");
			return false;
		}
	}
	return true;
}

/* Links the units of a stage into a program of their own and generates
 * SPIR-V with or without glslang's optimizer into *out; false when glslang
 * fails (its log in link_log), with *rc set. */
static bool generate(glslang_shader_t *first, glslang_shader_t *const more[MAX_MORE_UNITS],
		     glslang_stage_t stage, bool optimize, struct drv_spirv *out, struct xt_buf *link_log,
		     enum xt_rc *rc)
{
	glslang_program_t *prog = glslang_program_create();
	glslang_spv_options_t opt;
	size_t n;

	if (!prog) {
		*rc = XT_ERR_NOMEM;
		return false;
	}
	glslang_program_add_shader(prog, first);
	for (unsigned k = 0; k < MAX_MORE_UNITS && more[k]; k++)
		glslang_program_add_shader(prog, more[k]);
	if (!glslang_program_link(prog, GLSLANG_MSG_DEFAULT_BIT | GLSLANG_MSG_SPV_RULES_BIT) ||
	    !glslang_program_map_io(prog)) {
		const char *log = glslang_program_get_info_log(prog);
		xt_buf_printf(link_log, "%s", log && *log ? log : "error: glslang could not link the program\n");
		*rc = XT_ERR_INVALID;
		glslang_program_delete(prog);
		return false;
	}
	memset(&opt, 0, sizeof opt);
	opt.disable_optimizer = !optimize;
	opt.optimize_size = optimize;
	glslang_program_SPIRV_generate_with_options(prog, stage, &opt);
	n = glslang_program_SPIRV_get_size(prog);
	if (!n) {
		const char *m = glslang_program_SPIRV_get_messages(prog);
		xt_buf_printf(link_log, "error: glslang generated no SPIR-V for the shader%s%s\n",
			      m ? ": " : "", m ? m : "");
		*rc = XT_ERR_INVALID;
		glslang_program_delete(prog);
		return false;
	}
	out->words = malloc(n * 4);
	if (!out->words) {
		*rc = XT_ERR_NOMEM;
		glslang_program_delete(prog);
		return false;
	}
	glslang_program_SPIRV_get(prog, out->words);
	out->n_words = n;
	glslang_program_delete(prog);
	return true;
}

enum xt_rc drv_glslang_compile(const struct drv_translation tr[DRV_STAGE_COUNT],
			       const bool present[DRV_STAGE_COUNT],
			       struct drv_spirv spv[DRV_STAGE_COUNT],
			       struct drv_spirv declared[DRV_STAGE_COUNT],
			       struct xt_buf compile_log[DRV_STAGE_COUNT], bool compiled[DRV_STAGE_COUNT],
			       struct xt_buf *link_log)
{
	glslang_shader_t *sh[DRV_STAGE_COUNT] = { 0 };
	glslang_input_t in[DRV_STAGE_COUNT];
	glslang_shader_t *more[DRV_STAGE_COUNT][MAX_MORE_UNITS] = { { 0 } };
	glslang_input_t more_in[DRV_STAGE_COUNT][MAX_MORE_UNITS];
	enum xt_rc rc = XT_OK;
	bool ok = true;

	pthread_once(&init_once, init_glslang);
	/* glslang's symbol-table setup is not documented as re-entrant */
	pthread_mutex_lock(&glslang_lock);
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		spv[s].words = NULL;
		spv[s].n_words = 0;
		declared[s].words = NULL;
		declared[s].n_words = 0;
		compiled[s] = false;
		if (!present[s])
			continue;
		memset(&in[s], 0, sizeof in[s]);
		in[s].language = GLSLANG_SOURCE_GLSL;
		in[s].stage = gl_stage[s];
		in[s].client = GLSLANG_CLIENT_OPENGL;
		in[s].client_version = GLSLANG_TARGET_OPENGL_450;
		in[s].target_language = GLSLANG_TARGET_SPV;
		in[s].target_language_version = GLSLANG_TARGET_SPV_1_0;
		in[s].code = tr[s].text;
		in[s].default_version = 330;
		in[s].default_profile = GLSLANG_CORE_PROFILE;
		in[s].messages = GLSLANG_MSG_DEFAULT_BIT | GLSLANG_MSG_SPV_RULES_BIT;
		in[s].resource = &limits;
		sh[s] = glslang_shader_create(&in[s]);
		if (!sh[s]) {
			rc = XT_ERR_NOMEM;
			goto out;
		}
		glslang_shader_set_options(sh[s], GLSLANG_SHADER_AUTO_MAP_LOCATIONS | GLSLANG_SHADER_AUTO_MAP_BINDINGS);
		if (!glslang_shader_preprocess(sh[s], &in[s]) || !glslang_shader_parse(sh[s], &in[s])) {
			const char *log = glslang_shader_get_info_log(sh[s]);
			if (only_link_time_errors(log)) {
				xt_buf_printf(link_log, "%s", log);
				compiled[s] = true;
			} else {
				xt_buf_printf(&compile_log[s], "%s", log ? log : "glslang: parse failed\n");
			}
			ok = false;
			continue;
		}
		compiled[s] = parse_more(&tr[s], &in[s], more[s], more_in[s], &compile_log[s], &rc);
		if (rc != XT_OK)
			goto out;
		ok &= compiled[s];
	}
	if (!ok) {
		rc = XT_ERR_INVALID;
		goto out;
	}
	/* One program per stage: glslang_program_SPIRV_generate appends to the
	 * program's word vector (and runs the optimizer over all of it), and
	 * the stages are matched by name downstream (drv_io_layout), not by
	 * glslang's per-stage automatic locations, which disagree. */
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		if (!sh[s])
			continue;
		if (!generate(sh[s], more[s], gl_stage[s], true, &spv[s], link_log, &rc))
			goto out;
		/* the blocks the optimizer may drop: only a source that says
		 * "uniform" can declare one */
		if (strstr(tr[s].text, "uniform") &&
		    !generate(sh[s], more[s], gl_stage[s], false, &declared[s], link_log, &rc))
			goto out;
	}
out:
	for (int s = 0; s < DRV_STAGE_COUNT; s++) {
		if (sh[s])
			glslang_shader_delete(sh[s]);
		for (unsigned k = 0; k < MAX_MORE_UNITS && more[s][k]; k++)
			glslang_shader_delete(more[s][k]);
	}
	pthread_mutex_unlock(&glslang_lock);
	if (rc != XT_OK)
		for (int s = 0; s < DRV_STAGE_COUNT; s++) {
			free(spv[s].words);
			spv[s].words = NULL;
			spv[s].n_words = 0;
			free(declared[s].words);
			declared[s].words = NULL;
			declared[s].n_words = 0;
		}
	return rc;
}
