/*
 * xt_fault.h - allocation and I/O with fault-injection hooks for tests.
 *
 * Library code allocates through xt_malloc / xt_calloc / xt_realloc and
 * checks I/O results through xt_fault_io().  A unit test arms a fault with
 * xt_fault_arm(XT_FAULT_ALLOC, n): the n-th following allocation (1-based)
 * fails, and so the test can walk n = 1, 2, 3 ... until the operation
 * succeeds, checking that every failure is reported cleanly (SQLite's habit).
 * Unarmed, the hooks cost one relaxed atomic load.
 *
 * The counters are process-wide: the one hidden global the style allows for
 * test hooks.  Only tests arm them.
 */
#ifndef XT_FAULT_H
#define XT_FAULT_H

#include <stdbool.h>
#include <stddef.h>

enum xt_fault_kind {
	XT_FAULT_ALLOC = 0,  /* xt_malloc / xt_calloc / xt_realloc return NULL */
	XT_FAULT_IO = 1,     /* xt_fault_io() reports a failure */
	XT_FAULT_KINDS
};

/* Makes the n-th next event of `kind` fail (n >= 1); n = 0 disarms. */
void xt_fault_arm(enum xt_fault_kind kind, unsigned long n);
/* Whether an armed fault of `kind` has fired since it was armed. */
bool xt_fault_fired(enum xt_fault_kind kind);
/* Counts an event of `kind`; true when this one must fail. */
bool xt_fault_hit(enum xt_fault_kind kind);

void *xt_malloc(size_t size);
void *xt_calloc(size_t n, size_t size);
void *xt_realloc(void *p, size_t size);
char *xt_strdup(const char *s);
static inline void xt_free(void *p) { extern void free(void *); free(p); }

/* True when an injected I/O failure must happen here. */
static inline bool xt_fault_io(void) { return xt_fault_hit(XT_FAULT_IO); }

#endif
