/*
 * drv_spirv_input.c - the application's SPIR-V (drv_spirv_input.h):
 * glShaderBinary's bytes to words, and glSpecializeShader's entry point
 * and specialization constants applied to the module.
 *
 * Specialization rewrites the module instead of passing the choices down:
 * the compiler's module reader (drv_spirv_module.c) takes the entry point
 * it finds and reads OpSpecConstant* as their literal values, so a module
 * with only the chosen OpEntryPoint (and its execution modes) and the
 * constants' literals replaced is exactly what it already compiles.  A
 * module from glslang never needs this step; both paths then share every
 * later one.
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "drv_spirv.h"
#include "drv_spirv_input.h"

#define HEADER_WORDS 5u

static uint32_t bswap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

enum xt_rc drv_spirv_input_load(const void *bytes, size_t n_bytes, uint32_t **words, size_t *n_words,
				struct xt_err *err)
{
	uint32_t *w;
	size_t n = n_bytes / 4;
	bool swap;

	*words = NULL;
	*n_words = 0;
	if (!bytes || n_bytes % 4)
		return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V binary of %zu bytes is not whole words", n_bytes);
	if (n < HEADER_WORDS)
		return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V binary of %zu words is shorter than its header", n);
	w = malloc(n * sizeof *w);
	if (!w)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	memcpy(w, bytes, n * sizeof *w);
	swap = w[0] == bswap32(SpvMagicNumber);
	if (!swap && w[0] != SpvMagicNumber) {
		uint32_t magic = w[0];
		free(w);
		return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V binary has no SPIR-V magic number (0x%08x)", magic);
	}
	if (swap)
		for (size_t i = 0; i < n; i++)
			w[i] = bswap32(w[i]);
	*words = w;
	*n_words = n;
	return XT_OK;
}

static uint32_t exec_model_of(enum drv_stage stage)
{
	switch (stage) {
	case DRV_STAGE_VERTEX: return SpvExecutionModelVertex;
	case DRV_STAGE_GEOMETRY: return SpvExecutionModelGeometry;
	case DRV_STAGE_FRAGMENT: return SpvExecutionModelFragment;
	default: return ~0u;
	}
}

/* Whether the literal string at w[0..n) (NUL-padded words) is `s`. */
static bool literal_is(const uint32_t *w, uint32_t n, const char *s)
{
	size_t len = strlen(s);
	const char *p = (const char *)w;

	return (size_t)n * 4 > len && !memcmp(p, s, len) && p[len] == '\0';
}

struct walk {
	const uint32_t *w;
	size_t n;
	uint32_t entry_fn;           /* the chosen entry point's function id, 0 if none */
	uint32_t entry_model;
	uint32_t bound;
	int32_t *spec_id;            /* [bound]: SpecId decoration, -1 if none */
};

/* First pass: the entry point by name, and the SpecId decorations. */
static enum xt_rc scan(struct walk *k, const char *entry, struct xt_err *err)
{
	for (size_t p = HEADER_WORDS; p < k->n;) {
		uint16_t op = (uint16_t)(k->w[p] & 0xFFFF), len = (uint16_t)(k->w[p] >> 16);
		const uint32_t *w = k->w + p;
		if (!len || p + len > k->n)
			return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: bad instruction size at word %zu", p);
		if (op == SpvOpEntryPoint && len >= 4 && !k->entry_fn && literal_is(w + 3, len - 3u, entry)) {
			k->entry_model = w[1];
			k->entry_fn = w[2];
		}
		if (op == SpvOpDecorate && len >= 4 && w[2] == SpvDecorationSpecId && w[1] < k->bound)
			k->spec_id[w[1]] = (int32_t)w[3];
		p += len;
	}
	return XT_OK;
}

/* The value given for SpecId `id`, if any. */
static bool given(unsigned n_consts, const uint32_t *ids, const uint32_t *values, int32_t id, uint32_t *value)
{
	bool found = false;
	for (unsigned i = 0; id >= 0 && i < n_consts; i++)
		if ((int32_t)ids[i] == id) {
			*value = values[i];   /* a later entry for the same id wins */
			found = true;
		}
	return found;
}

enum xt_rc drv_spirv_specialize(const uint32_t *words, size_t n_words, enum drv_stage stage,
				const char *entry, unsigned n_consts, const uint32_t *ids,
				const uint32_t *values, uint32_t **out, size_t *out_words,
				enum drv_spec_status *status, struct xt_err *err)
{
	struct walk k = { .w = words, .n = n_words };
	uint32_t *o = NULL;
	size_t on = HEADER_WORDS;
	enum xt_rc rc;

	*out = NULL;
	*out_words = 0;
	*status = DRV_SPEC_OK;
	if (!words || n_words < HEADER_WORDS || words[0] != SpvMagicNumber)
		return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: bad header");
	if (words[3] > (1u << 22))
		return XT_FAIL(err, XT_ERR_CORRUPT, "SPIR-V: id bound %u too large", words[3]);
	k.bound = words[3];
	k.spec_id = malloc((k.bound ? k.bound : 1) * sizeof *k.spec_id);
	o = malloc(n_words * sizeof *o);
	if (!k.spec_id || !o) {
		rc = XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
		goto fail;
	}
	for (uint32_t i = 0; i < k.bound; i++)
		k.spec_id[i] = -1;
	if ((rc = scan(&k, entry ? entry : "", err)) != XT_OK)
		goto fail;
	if (!k.entry_fn) {
		*status = DRV_SPEC_NO_ENTRY_POINT;
		goto refused;
	}
	if (k.entry_model != exec_model_of(stage)) {
		*status = DRV_SPEC_WRONG_STAGE;
		goto refused;
	}
	for (unsigned i = 0; i < n_consts; i++) {
		bool exists = false;
		for (uint32_t id = 0; id < k.bound && !exists; id++)
			exists = k.spec_id[id] == (int32_t)ids[i];
		if (!exists) {
			*status = DRV_SPEC_NO_CONSTANT;
			goto refused;
		}
	}
	memcpy(o, words, HEADER_WORDS * sizeof *o);
	for (size_t p = HEADER_WORDS; p < n_words;) {
		uint16_t op = (uint16_t)(words[p] & 0xFFFF), len = (uint16_t)(words[p] >> 16);
		const uint32_t *w = words + p;
		uint32_t value;
		p += len;
		if (op == SpvOpEntryPoint && len >= 3 &&
		    (w[2] != k.entry_fn || !literal_is(w + 3, len - 3u, entry ? entry : "")))
			continue;
		if ((op == SpvOpExecutionMode || op == SpvOpExecutionModeId) && len >= 2 && w[1] != k.entry_fn)
			continue;
		memcpy(o + on, w, len * sizeof *o);
		if ((op == SpvOpSpecConstantTrue || op == SpvOpSpecConstantFalse) && len >= 3 &&
		    w[2] < k.bound && given(n_consts, ids, values, k.spec_id[w[2]], &value))
			o[on] = ((uint32_t)len << 16) | (value ? SpvOpSpecConstantTrue : SpvOpSpecConstantFalse);
		if (op == SpvOpSpecConstant && len >= 4 && w[2] < k.bound &&
		    given(n_consts, ids, values, k.spec_id[w[2]], &value)) {
			o[on + 3] = value;
			if (len >= 5)
				o[on + 4] = 0;   /* 64-bit: the 32-bit value zero-extended */
		}
		on += len;
	}
	free(k.spec_id);
	*out = o;
	*out_words = on;
	return XT_OK;
refused:
	rc = XT_OK;
fail:
	free(k.spec_id);
	free(o);
	return rc;
}

enum xt_rc drv_spirv_input_check(const uint32_t *words, size_t n_words, struct xt_err *err)
{
	struct drv_smodule m;
	enum xt_rc rc = drv_smodule_parse(&m, words, n_words, err);

	drv_smodule_fini(&m);
	return rc;
}
