/*
 * xt_arena.c - bump allocator; see xt_arena.h.
 */
#include "xt_arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xt_fault.h"

struct xt_arena_block {
	struct xt_arena_block *next;  /* older block */
	size_t size;                  /* usable bytes after the header */
	size_t used;                  /* bytes handed out */
	alignas(16) unsigned char mem[];
};

void xt_arena_init(struct xt_arena *a, size_t block_size)
{
	a->head = NULL;
	a->block_size = block_size ? block_size : 64 * 1024;
}

void xt_arena_fini(struct xt_arena *a)
{
	struct xt_arena_block *b = a->head;
	while (b) {
		struct xt_arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
}

void xt_arena_reset(struct xt_arena *a)
{
	struct xt_arena_block *b = a->head;
	if (!b)
		return;
	while (b->next) {
		struct xt_arena_block *older = b->next;
		free(b);
		b = older;
	}
	b->used = 0;
	a->head = b;
}

void *xt_arena_alloc(struct xt_arena *a, size_t size)
{
	struct xt_arena_block *b = a->head;
	size_t need = (size + 15) & ~(size_t)15;

	if (size > SIZE_MAX - 16)
		return NULL;
	if (!b || b->size - b->used < need) {
		size_t bsize = need > a->block_size ? need : a->block_size;
		struct xt_arena_block *nb = xt_malloc(sizeof *nb + bsize);
		if (!nb)
			return NULL;
		nb->size = bsize;
		nb->used = 0;
		if (b && b->used == 0) {
			/* Never leave an empty block behind a bigger one. */
			nb->next = b->next;
			free(b);
		} else {
			nb->next = b;
		}
		a->head = b = nb;
	}
	void *p = b->mem + b->used;
	b->used += need;
	return p;
}

void *xt_arena_memdup(struct xt_arena *a, const void *p, size_t n)
{
	void *d = xt_arena_alloc(a, n);
	if (d && n)
		memcpy(d, p, n);
	return d;
}

char *xt_arena_strdup(struct xt_arena *a, const char *s)
{
	return xt_arena_memdup(a, s, strlen(s) + 1);
}
