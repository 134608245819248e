/*
 * replay_errors.c - the GL errors of a replay (host and sim backends): the
 * queue of each context, drained after every call and answered to the
 * recorded glGetError calls as the GL keeps them, and which errors are
 * implementation-dependent (issue 19): a pure query past the replay
 * driver's extension count or limits, or a call that uses a program whose
 * link a smaller limit made fail (replay_link_consequence).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "replay_host.h"

void host_error_push(struct host_ctx *x, uint32_t error, const struct trace_call *call,
		     unsigned *from)
{
	if (x->nerr == HOST_MAX_ERRORS) {
		/* Full: an error of an earlier call that is classified (a
		 * query past the replay driver's extension count, raised
		 * hundreds of times by an application walking the capture
		 * driver's extension list) makes room, so that an error the
		 * application checks is never lost behind such ones. */
		unsigned i = 0;
		while (i < *from && !x->err[i].impl[0])
			i++;
		if (i == *from)
			return;
		memmove(&x->err[i], &x->err[i + 1], (x->nerr - i - 1) * sizeof x->err[0]);
		x->nerr--;
		(*from)--;
	}
	x->err[x->nerr++] = (struct host_error){ error, call->no, call->name, "" };
}

void host_obs_collect_errors(struct host *h, struct replay *rp, struct host_ctx *x,
			     const struct trace_call *call)
{
	unsigned from = x->nerr;

	/* Between glBegin and glEnd only vertex commands are allowed: a
	 * glGetError there would itself raise GL_INVALID_OPERATION.  Errors
	 * of those calls are collected after glEnd (and named after it). */
	if (!strcmp(call->name, "glBegin"))
		x->in_begin = true;
	else if (!strcmp(call->name, "glEnd"))
		x->in_begin = false;
	if (x->in_begin || !host_obs_gl(h))
		return;
	for (int i = 0; i < 8; i++) {
		GLenum e = h->obs_gl.GetError();
		if (e == GL_NO_ERROR)
			break;
		host_error_push(x, e, call, &from);
	}
	host_obs_classify_errors(h, rp, x, call, from);
}

/* The count pname of each indexed string of glGetStringi, and the name. */
static const struct { GLenum name, count; const char *what; } indexed_strings[HOST_STR_COUNT] = {
	[HOST_STR_EXTENSIONS] = { GL_EXTENSIONS, GL_NUM_EXTENSIONS, "extensions" },
	[HOST_STR_GLSL_VERSIONS] = { GL_SHADING_LANGUAGE_VERSION, GL_NUM_SHADING_LANGUAGE_VERSIONS,
				     "shading language versions" },
	[HOST_STR_SPIRV_EXTENSIONS] = { GL_SPIR_V_EXTENSIONS, GL_NUM_SPIR_V_EXTENSIONS,
					"SPIR-V extensions" },
};

void host_counts_init(struct host_ctx *x)
{
	if (x->counts_init)
		return;
	for (int k = 0; k < HOST_STR_COUNT; k++)
		x->rec_count[k] = x->rep_count[k] = -1;
	x->counts_init = true;
}

/* Which indexed string count pname `pname` is, -1 for none. */
int host_count_pname(uint64_t pname)
{
	for (int k = 0; k < HOST_STR_COUNT; k++)
		if (indexed_strings[k].count == pname)
			return k;
	return -1;
}

/* Recorded argument i as an unsigned number (ENUM, UINT, SINT >= 0). */
static bool arg_uint(const struct trace_call *call, uint32_t i, uint64_t *v)
{
	if (i >= call->nargs)
		return false;
	const struct trace_value *a = &call->args[i];
	if (a->tag == TRACE_TAG_ENUM || a->tag == TRACE_TAG_UINT ||
	    (a->tag == TRACE_TAG_SINT && a->i >= 0)) {
		*v = a->u;
		return true;
	}
	return false;
}


/*
 * A pure query (glGet{Integer,Integer64,Boolean,Float,Double}[i_]v,
 * glGetString, glGetStringi) raises GL_INVALID_ENUM only for a name the
 * driver does not know and GL_INVALID_VALUE only for an index past its
 * count or limit; the capture's driver took the same arguments without an
 * error, so such an error tells only that the replay driver has fewer
 * extensions or smaller limits.  glGetStringi's index is checked against
 * the replay driver's count itself.
 */
/*
 * An error of a call that uses a program whose link failed on the replay
 * only because of a smaller limit (replay_link_failed): one that names the
 * program (glUseProgram, glGetProgramResource*, ...), or a draw, a uniform
 * or a TF call while the application had it in use.  The replay's driver
 * had no such program to use, so the call failed as a consequence.
 */
static const char *link_consequence(struct host *h, struct replay *rp,
				    const struct trace_call *call)
{
	static const char *const uses_current[] = { "glUniform", "glDraw", "glMultiDraw",
						    "glBeginTransformFeedback", "glDispatchCompute" };
	const struct host_func *f = host_func_of(h, call);
	struct glapi_param_info pi;
	const char *w;

	for (uint32_t i = 0; f && f->id >= 0 && i < call->nargs; i++)
		if (glapi_param_info(f->id, i, &pi) && pi.obj == GLAPI_O_SHADER_OBJECT &&
		    call->args[i].tag == TRACE_TAG_UINT &&
		    (w = replay_link_consequence(rp, call, call->args[i].u, false)))
			return w;
	for (size_t i = 0; i < sizeof uses_current / sizeof uses_current[0]; i++)
		if (!strncmp(call->name, uses_current[i], strlen(uses_current[i])))
			return replay_link_consequence(rp, call, 0, true);
	return !strcmp(call->name, "glEnd") ? replay_link_consequence(rp, call, 0, true) : NULL;
}

void host_obs_classify_errors(struct host *h, struct replay *rp, struct host_ctx *x,
			      const struct trace_call *call, unsigned from)
{
	const char *because = from < x->nerr ? link_consequence(h, rp, call) : NULL;

	for (unsigned i = from; because && i < x->nerr; i++)
		snprintf(x->err[i].impl, sizeof x->err[i].impl, "a consequence of the link failure "
			 "of %s", because);
	if (because)
		return;

	const char *n = call->name;
	bool fp;
	uint64_t name = 0, index = 0;
	const bool stringi = !strcmp(n, "glGetStringi") && call->nargs == 2;
	const bool indexed = call->nargs == 3 && host_get_value_size(n, &fp);
	const bool query = stringi || indexed || (call->nargs == 2 && host_get_value_size(n, &fp)) ||
			   (!strcmp(n, "glGetString") && call->nargs == 1);

	if (from >= x->nerr || !query || !arg_uint(call, 0, &name))
		return;
	host_counts_init(x);
	for (unsigned i = from; i < x->nerr; i++) {
		struct host_error *e = &x->err[i];
		const char *pn = glapi_enum_name((uint32_t)name);
		if (e->error == GL_INVALID_ENUM) {
			snprintf(e->impl, sizeof e->impl, "the replay driver does not know %s %s",
				 stringi || n[5] == 'S' ? "name" : "pname", pn ? pn : "(unknown)");
		} else if (e->error == GL_INVALID_VALUE && indexed && arg_uint(call, 1, &index)) {
			snprintf(e->impl, sizeof e->impl, "index %" PRIu64 " of %s is past the replay "
				 "driver's limit", index, pn ? pn : "(unknown)");
		} else if (e->error == GL_INVALID_VALUE && stringi && arg_uint(call, 1, &index)) {
			int k = 0;
			while (k < HOST_STR_COUNT && indexed_strings[k].name != name)
				k++;
			if (k == HOST_STR_COUNT || !host_obs_gl(h))
				continue;
			if (x->rep_count[k] < 0) {
				GLint v = -1;
				h->obs_gl.GetIntegerv(indexed_strings[k].count, &v);
				while (h->obs_gl.GetError() != GL_NO_ERROR)
					;
				x->rep_count[k] = v < 0 ? 0 : v;
			}
			if ((int64_t)index < x->rep_count[k])
				continue;   /* within the replay's count: not explained */
			char capture[48];
			if (x->rec_count[k] >= 0)
				snprintf(capture, sizeof capture, "%" PRId64, x->rec_count[k]);
			else
				snprintf(capture, sizeof capture, "more than %" PRIu64, index);
			snprintf(e->impl, sizeof e->impl, "the replay driver has %" PRId64 " %s "
				 "(capture: %s)", x->rep_count[k], indexed_strings[k].what, capture);
		}
	}
}

void host_obs_get_error(struct host *h, struct replay *rp, struct host_ctx *x,
			const struct trace_call *call, const struct trace_ret *ret)
{
	/* The GL keeps the first error until glGetError: that is the answer.
	 * Errors the replay driver's fewer extensions or smaller limits
	 * explain are classified apart; the answer the application defined
	 * is the first of the others. */
	uint32_t replayed = x->nerr ? x->err[0].error : GL_NO_ERROR;
	uint32_t defined = GL_NO_ERROR;
	uint32_t recorded = GL_NO_ERROR;
	unsigned nimpl = 0;

	for (unsigned i = 0; i < x->nerr; i++) {
		if (x->err[i].impl[0])
			nimpl++;
		else if (defined == GL_NO_ERROR)
			defined = x->err[i].error;
	}
	if (ret && (ret->ret.tag == TRACE_TAG_ENUM || ret->ret.tag == TRACE_TAG_UINT))
		recorded = (uint32_t)ret->ret.u;
	if (replay_checking(rp, call->no)) {
		for (unsigned i = 0; i < x->nerr && recorded != replayed; i++)
			if (x->err[i].impl[0])
				replay_gl_error_impl(rp, x->err[i].call, x->err[i].func,
						     x->err[i].error, x->err[i].impl);
		if (recorded == GL_NO_ERROR && x->nerr > nimpl) {
			for (unsigned i = 0; i < x->nerr; i++)
				if (!x->err[i].impl[0])
					replay_gl_error_extra(rp, x->err[i].call, x->err[i].func,
							      x->err[i].error, call->no);
		} else if (recorded != replayed && recorded != defined) {
			replay_gl_error_differs(rp, call, recorded, nimpl ? defined : replayed);
		} else {
			replay_return_checked(rp, call, true, NULL, NULL, NULL);
		}
	}
	x->nerr = 0;
}

