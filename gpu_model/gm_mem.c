/*
 * gm_mem.c - GPU virtual memory: buffer objects at deterministic addresses.
 *
 * VAs come from a bump pointer starting at GM_VA_BASE, each BO rounded up
 * to 64 KiB and followed by a 64 KiB hole, so the n-th allocation of a
 * given size always lands at the same VA and small overruns hit unmapped
 * memory (a recorded fault) rather than a neighbour.  Lookups binary-search
 * the sorted BO array behind a one-entry cache: CP and shader accesses are
 * strongly local.
 */
#include <stdlib.h>
#include <string.h>

#include "gm_priv.h"
#include "xt_fault.h"

#define GM_VA_GRANULE 0x10000ull

void gm_mem_init(struct gm_mem *m)
{
	memset(m, 0, sizeof *m);
	m->next_va = GM_VA_BASE;
}

void gm_mem_fini(struct gm_mem *m)
{
	for (size_t i = 0; i < m->n; i++) {
		xt_free(m->bos[i]->data);
		xt_free(m->bos[i]);
	}
	xt_free(m->bos);
	memset(m, 0, sizeof *m);
}

enum xt_rc gm_mem_alloc(struct gm_mem *m, uint64_t size, uint64_t align, struct gm_bo **out)
{
	struct gm_bo *bo;
	uint64_t span;

	*out = NULL;
	if (!size || size > (1ull << 32) || (align & (align - 1)) || align > GM_VA_GRANULE)
		return XT_ERR_INVALID;
	span = (size + GM_VA_GRANULE - 1) & ~(GM_VA_GRANULE - 1);
	if (m->next_va + span + GM_VA_GRANULE >= (1ull << 48))
		return XT_ERR_NOMEM;
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 32;
		struct gm_bo **n = xt_realloc(m->bos, cap * sizeof *n);
		if (!n)
			return XT_ERR_NOMEM;
		m->bos = n;
		m->cap = cap;
	}
	bo = xt_calloc(1, sizeof *bo);
	if (!bo)
		return XT_ERR_NOMEM;
	bo->data = xt_calloc(1, (size_t)size);
	if (!bo->data) {
		xt_free(bo);
		return XT_ERR_NOMEM;
	}
	bo->va = m->next_va;
	bo->size = size;
	m->next_va += span + GM_VA_GRANULE;
	m->bos[m->n++] = bo;       /* VAs only grow, so the array stays sorted */
	*out = bo;
	return XT_OK;
}

void gm_mem_free(struct gm_mem *m, struct gm_bo *bo)
{
	for (size_t i = 0; i < m->n; i++) {
		if (m->bos[i] != bo)
			continue;
		memmove(&m->bos[i], &m->bos[i + 1], (m->n - i - 1) * sizeof *m->bos);
		m->n--;
		for (int k = 0; k < 2; k++)
			if (m->last[k] == bo)
				m->last[k] = NULL;
		xt_free(bo->data);
		xt_free(bo);
		return;
	}
}

static struct gm_bo *find(struct gm_mem *m, uint64_t va)
{
	size_t lo = 0, hi = m->n;

	if (m->last[0] && va - m->last[0]->va < m->last[0]->size)
		return m->last[0];
	if (m->last[1] && va - m->last[1]->va < m->last[1]->size) {
		struct gm_bo *bo = m->last[1];
		m->last[1] = m->last[0];
		return m->last[0] = bo;
	}
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		struct gm_bo *bo = m->bos[mid];
		if (va < bo->va)
			hi = mid;
		else if (va - bo->va >= bo->size)
			lo = mid + 1;
		else {
			m->last[1] = m->last[0];
			return m->last[0] = bo;
		}
	}
	return NULL;
}

uint8_t *gm_mem_ptr(struct gm_mem *m, uint64_t va, uint64_t size)
{
	struct gm_bo *bo = find(m, va);
	if (!bo || size > bo->size - (va - bo->va))
		return NULL;
	return bo->data + (va - bo->va);
}

uint8_t *gm_mem_span(struct gm_mem *m, uint64_t va, uint64_t *left)
{
	struct gm_bo *bo = find(m, va);
	if (!bo) {
		*left = 0;
		return NULL;
	}
	*left = bo->size - (va - bo->va);
	return bo->data + (va - bo->va);
}

void *gm_bo_map(struct gm_bo *bo) { return bo->data; }
uint64_t gm_bo_va(const struct gm_bo *bo) { return bo->va; }
