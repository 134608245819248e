/*
 * diff_align.c - edit scripts over decoded items: the PM4 packets of one
 * call in two runs, or the lines of two shader disassemblies.
 *
 * Why not a text diff of the decoder's output: a register written with a
 * different value and a packet inserted before it would both show as a
 * run of changed lines; aligned by packet, the first is one CHANGED packet
 * (whose fields diff_regs can name) and the second one INSERTED packet.
 * Packets align when their keys match (opcode, and the first register for
 * SET_*_REG), so the script is a longest common subsequence of keys; items
 * aligned with different contents are CHANGED.
 *
 * The LCS is the textbook O(na * nb) table: a call submits tens to a few
 * hundred packets, and shaders have a few hundred lines.  Past
 * DIFF_ALIGN_MAX_CELLS the common prefix and suffix are matched and the
 * middle is reported as deleted then inserted, so hostile blobs cost
 * bounded time and memory.
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "pm4_pkt.h"
#include "pm4_regs.h"
#include "xt_fault.h"

static enum xt_rc edit_push(struct diff_edit **v, size_t *n, size_t *cap, enum diff_edit_op op,
			    int32_t a, int32_t b)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 32;
		struct diff_edit *p = xt_realloc(*v, c * sizeof *p);
		if (!p)
			return XT_ERR_NOMEM;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = (struct diff_edit){ op, a, b };
	return XT_OK;
}

enum xt_rc diff_align(const uint32_t *key_a, size_t na, const uint32_t *key_b, size_t nb,
		      bool (*same)(size_t i, size_t j, void *ctx), void *ctx,
		      struct diff_edit **out, size_t *count)
{
	struct diff_edit *v = NULL;
	size_t n = 0, cap = 0, pre = 0, suf = 0;
	uint32_t *t = NULL;
	enum xt_rc rc = XT_OK;

	*out = NULL;
	*count = 0;
	if (na > INT32_MAX || nb > INT32_MAX)
		return XT_ERR_INVALID;
	while (pre < na && pre < nb && key_a[pre] == key_b[pre])
		pre++;
	while (suf < na - pre && suf < nb - pre && key_a[na - 1 - suf] == key_b[nb - 1 - suf])
		suf++;
	size_t ma = na - pre - suf, mb = nb - pre - suf;
	for (size_t i = 0; i < pre && !rc; i++)
		rc = edit_push(&v, &n, &cap, same(i, i, ctx) ? DIFF_EDIT_SAME : DIFF_EDIT_CHANGED,
			       (int32_t)i, (int32_t)i);
	if (!rc && ma && mb && (ma + 1) * (mb + 1) <= DIFF_ALIGN_MAX_CELLS) {
		/* t[i][j]: LCS length of a[pre+i..] and b[pre+j..] (the middle). */
		const size_t w = mb + 1;
		t = xt_calloc((ma + 1) * w, sizeof *t);
		if (!t)
			rc = XT_ERR_NOMEM;
		for (size_t i = ma; !rc && i-- > 0;)
			for (size_t j = mb; j-- > 0;)
				t[i * w + j] = key_a[pre + i] == key_b[pre + j]
					       ? t[(i + 1) * w + j + 1] + 1
					       : (t[(i + 1) * w + j] >= t[i * w + j + 1]
						  ? t[(i + 1) * w + j] : t[i * w + j + 1]);
		size_t i = 0, j = 0;
		while (!rc && (i < ma || j < mb)) {
			size_t ai = pre + i, bj = pre + j;
			if (i < ma && j < mb && key_a[ai] == key_b[bj]) {
				rc = edit_push(&v, &n, &cap,
					       same(ai, bj, ctx) ? DIFF_EDIT_SAME : DIFF_EDIT_CHANGED,
					       (int32_t)ai, (int32_t)bj);
				i++;
				j++;
			} else if (j >= mb || (i < ma && t[(i + 1) * w + j] >= t[i * w + j + 1])) {
				rc = edit_push(&v, &n, &cap, DIFF_EDIT_DELETED, (int32_t)ai, -1);
				i++;
			} else {
				rc = edit_push(&v, &n, &cap, DIFF_EDIT_INSERTED, -1, (int32_t)bj);
				j++;
			}
		}
	} else {
		for (size_t i = 0; i < ma && !rc; i++)
			rc = edit_push(&v, &n, &cap, DIFF_EDIT_DELETED, (int32_t)(pre + i), -1);
		for (size_t j = 0; j < mb && !rc; j++)
			rc = edit_push(&v, &n, &cap, DIFF_EDIT_INSERTED, -1, (int32_t)(pre + j));
	}
	for (size_t k = 0; k < suf && !rc; k++) {
		size_t ai = na - suf + k, bj = nb - suf + k;
		rc = edit_push(&v, &n, &cap, same(ai, bj, ctx) ? DIFF_EDIT_SAME : DIFF_EDIT_CHANGED,
			       (int32_t)ai, (int32_t)bj);
	}
	free(t);
	if (rc) {
		free(v);
		return rc;
	}
	*out = v;
	*count = n;
	return XT_OK;
}

enum xt_rc diff_pm4_split(const uint32_t *dw, uint32_t n, struct diff_packet **out,
			  size_t *count)
{
	struct pm4_parser ps;
	struct pm4_packet pkt;
	struct diff_packet *v = NULL;
	size_t len = 0, cap = 0;

	*out = NULL;
	*count = 0;
	pm4_parser_init(&ps, dw, n);
	while (pm4_parser_next(&ps, &pkt)) {
		struct diff_packet p = { .offset_dw = pkt.offset_dw, .size_dw = pkt.size_dw };
		if (pkt.kind == PM4_PKT_TYPE3) {
			p.name = pkt.info ? pkt.info->name : "PKT3_UNKNOWN";
			p.key = pkt.opcode;
			if (pkt.typed && pkt.info && !strncmp(pkt.info->name, "SET_", 4) &&
			    strstr(pkt.info->name, "_REG")) {
				p.reg = pkt.u.set_reg.reg;
				p.key = pkt.opcode << 24 ^ p.reg;
			}
		} else if (pkt.kind == PM4_PKT_BAD) {
			p.name = "BAD";
			p.key = 0xBAD00000u;
		} else {
			p.name = "TYPE2_NOP";
			p.key = pkt.header;
		}
		if (len == cap) {
			size_t c = cap ? cap * 2 : 32;
			struct diff_packet *q = xt_realloc(v, c * sizeof *q);
			if (!q) {
				free(v);
				return XT_ERR_NOMEM;
			}
			v = q;
			cap = c;
		}
		v[len++] = p;
	}
	*out = v;
	*count = len;
	return XT_OK;
}
