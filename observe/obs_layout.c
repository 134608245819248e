/*
 * obs_layout.c - the uniform block layouts of a linked program as the
 * driver reports them (obs.h, obs_layout_read), for the capture's LAYOUT
 * records and the host replay's comparison with them.
 *
 * Only queries (glGetProgramiv, glGetActiveUniformBlockiv / Name,
 * glGetActiveUniformsiv, glGetActiveUniform): no binding is touched.
 * Every active block is recorded, whatever its declared layout: GL has no
 * query for the declared layout (std140 or shared), and the replay's
 * driver knows it from the source; the record costs a few hundred bytes
 * per link.
 */
#include <stdlib.h>
#include <string.h>

#include "obs_int.h"
#include "trace_enc.h"
#include "trace_layout.h"

void obs_layout_free(struct trace_layout *l)
{
	for (uint32_t i = 0; l && l->blocks && i < l->n_blocks; i++) {
		for (uint32_t k = 0; l->blocks[i].members && k < l->blocks[i].n_members; k++)
			free(l->blocks[i].members[k].name);
		free(l->blocks[i].members);
		free(l->blocks[i].name);
	}
	if (l) {
		free(l->blocks);
		memset(l, 0, sizeof *l);
	}
}

/* The members of block `b` (index bi); false when out of memory. */
static bool read_members(const struct obs_gl *gl, uint32_t program, unsigned bi, int name_max,
			 struct trace_layout_block *b)
{
	static const unsigned pnames[] = { OBS_GL_UNIFORM_OFFSET, OBS_GL_UNIFORM_ARRAY_STRIDE,
					   OBS_GL_UNIFORM_MATRIX_STRIDE, OBS_GL_UNIFORM_IS_ROW_MAJOR };
	int n = 0, *idx = NULL, *val = NULL;
	bool ok = false;

	gl->GetActiveUniformBlockiv(program, bi, OBS_GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, &n);
	if (n <= 0)
		return true;
	idx = calloc((size_t)n, sizeof *idx);
	val = calloc((size_t)n * 4, sizeof *val);
	b->members = calloc((size_t)n, sizeof *b->members);
	if (!idx || !val || !b->members)
		goto out;
	b->n_members = (uint32_t)n;
	gl->GetActiveUniformBlockiv(program, bi, OBS_GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES, idx);
	for (unsigned p = 0; p < 4; p++)
		gl->GetActiveUniformsiv(program, n, (const unsigned *)idx, pnames[p], val + (size_t)p * n);
	for (int k = 0; k < n; k++) {
		struct trace_layout_member *m = &b->members[k];
		int len = 0, size = 0;
		unsigned type = 0;
		if (!(m->name = calloc(1, (size_t)name_max + 1)))
			goto out;
		gl->GetActiveUniform(program, (unsigned)idx[k], name_max, &len, &size, &type, m->name);
		m->type = type;
		m->size = size > 0 ? (uint32_t)size : 0;
		m->offset = val[k] > 0 ? (uint32_t)val[k] : 0;
		m->array_stride = val[n + k] > 0 ? (uint32_t)val[n + k] : 0;
		m->matrix_stride = val[2 * n + k] > 0 ? (uint32_t)val[2 * n + k] : 0;
		m->row_major = val[3 * n + k] != 0;
	}
	ok = true;
out:
	free(idx);
	free(val);
	return ok;
}

bool obs_layout_read(const struct obs_ctx *c, uint32_t program, uint32_t app_program, struct trace_layout *out)
{
	const struct obs_gl *gl = c->gl;
	int linked = 0, n = 0, bname_max = 0, uname_max = 0;
	bool ok = true;

	memset(out, 0, sizeof *out);
	if ((c->gles ? c->major < 3 : c->major * 10 + c->minor < 31) || !gl->GetActiveUniformBlockiv ||
	    !gl->GetActiveUniformBlockName || !gl->GetActiveUniformsiv || !gl->GetActiveUniform ||
	    !gl->IsProgram || !program)
		return false;
	/* a name that is no program (a failed glLinkProgram of one): asking
	 * would raise errors of our own; glIsProgram raises none */
	if (!gl->IsProgram(program))
		return false;
	c->stash(c->user);
	gl->GetProgramiv(program, OBS_GL_LINK_STATUS, &linked);
	if (linked)
		gl->GetProgramiv(program, OBS_GL_ACTIVE_UNIFORM_BLOCKS, &n);
	if (n > 0) {
		gl->GetProgramiv(program, OBS_GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH, &bname_max);
		gl->GetProgramiv(program, OBS_GL_ACTIVE_UNIFORM_MAX_LENGTH, &uname_max);
		bname_max = bname_max > 0 ? bname_max : 256;
		uname_max = uname_max > 0 ? uname_max : 256;
		out->blocks = calloc((size_t)n, sizeof *out->blocks);
		ok = out->blocks != NULL;
		out->n_blocks = ok ? (uint32_t)n : 0;
	}
	for (uint32_t i = 0; ok && i < out->n_blocks; i++) {
		struct trace_layout_block *b = &out->blocks[i];
		int size = 0, len = 0;
		if (!(b->name = calloc(1, (size_t)bname_max + 1))) {
			ok = false;
			break;
		}
		gl->GetActiveUniformBlockName(program, i, bname_max, &len, b->name);
		gl->GetActiveUniformBlockiv(program, i, OBS_GL_UNIFORM_BLOCK_DATA_SIZE, &size);
		b->data_size = size > 0 ? (uint32_t)size : 0;
		ok = read_members(gl, program, i, uname_max, b);
	}
	/* a query the driver refused makes the answers unreliable */
	ok &= gl->GetError() == OBS_GL_NO_ERROR;
	c->drain(c->user, "uniform block layout read-back");
	out->program = app_program;
	if (!ok || !linked) {
		obs_layout_free(out);
		return false;
	}
	return true;
}


size_t obs_layout_bound(const struct trace_layout *l)
{
	size_t n = 64;

	for (uint32_t i = 0; i < l->n_blocks; i++) {
		n += 96 + strlen(l->blocks[i].name);
		for (uint32_t k = 0; k < l->blocks[i].n_members; k++)
			n += 160 + strlen(l->blocks[i].members[k].name);
	}
	return n;
}

uint8_t *obs_layout_encode(const struct trace_layout *l, uint8_t *p)
{
	p = trace_enc_map(p, 2);
	p = trace_enc_key(p, "program");
	p = trace_enc_uint(p, l->program);
	p = trace_enc_key(p, "blocks");
	p = trace_enc_array(p, l->n_blocks);
	for (uint32_t i = 0; i < l->n_blocks; i++) {
		const struct trace_layout_block *b = &l->blocks[i];
		p = trace_enc_map(p, 3);
		p = trace_enc_key(p, "name");
		p = trace_enc_string(p, b->name, strlen(b->name));
		p = trace_enc_key(p, "data_size");
		p = trace_enc_uint(p, b->data_size);
		p = trace_enc_key(p, "members");
		p = trace_enc_array(p, b->n_members);
		for (uint32_t k = 0; k < b->n_members; k++) {
			const struct trace_layout_member *m = &b->members[k];
			p = trace_enc_map(p, 7);
			p = trace_enc_key(p, "name");
			p = trace_enc_string(p, m->name, strlen(m->name));
			p = trace_enc_key(p, "type");
			p = trace_enc_uint(p, m->type);
			p = trace_enc_key(p, "size");
			p = trace_enc_uint(p, m->size);
			p = trace_enc_key(p, "offset");
			p = trace_enc_uint(p, m->offset);
			p = trace_enc_key(p, "array_stride");
			p = trace_enc_uint(p, m->array_stride);
			p = trace_enc_key(p, "matrix_stride");
			p = trace_enc_uint(p, m->matrix_stride);
			p = trace_enc_key(p, "row_major");
			p = trace_enc_bool(p, m->row_major);
		}
	}
	return p;
}
