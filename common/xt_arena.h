/*
 * xt_arena.h - a bump allocator for many small objects freed together.
 *
 * Blocks are chained; xt_arena_alloc never moves earlier allocations, so
 * pointers into the arena stay valid until xt_arena_reset / _fini.
 */
#ifndef XT_ARENA_H
#define XT_ARENA_H

#include <stddef.h>

struct xt_arena_block;

struct xt_arena {
	struct xt_arena_block *head;  /* newest block, or NULL */
	size_t block_size;            /* default size of a new block, bytes */
};

void xt_arena_init(struct xt_arena *a, size_t block_size);
/* Frees every block. */
void xt_arena_fini(struct xt_arena *a);
/* Frees all but the first block and makes it empty again. */
void xt_arena_reset(struct xt_arena *a);
/* 16-byte aligned memory, or NULL when out of memory. */
void *xt_arena_alloc(struct xt_arena *a, size_t size);
/* Copies `n` bytes (or a NUL-terminated string with _strdup) into the arena. */
void *xt_arena_memdup(struct xt_arena *a, const void *p, size_t n);
char *xt_arena_strdup(struct xt_arena *a, const char *s);

#endif
