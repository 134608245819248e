/*
 * xt_fault.c - fault-injection counters and the allocation wrappers.
 */
#include "xt_fault.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static atomic_ulong countdown[XT_FAULT_KINDS]; /* 0 = disarmed */
static atomic_bool fired[XT_FAULT_KINDS];

void xt_fault_arm(enum xt_fault_kind kind, unsigned long n)
{
	atomic_store(&fired[kind], false);
	atomic_store(&countdown[kind], n);
}

bool xt_fault_fired(enum xt_fault_kind kind)
{
	return atomic_load(&fired[kind]);
}

bool xt_fault_hit(enum xt_fault_kind kind)
{
	unsigned long c = atomic_load_explicit(&countdown[kind], memory_order_relaxed);
	if (c == 0)
		return false;
	/* Only the caller that takes the count from 1 to 0 fails. */
	while (c != 0) {
		if (atomic_compare_exchange_weak(&countdown[kind], &c, c - 1)) {
			if (c == 1) {
				atomic_store(&fired[kind], true);
				return true;
			}
			return false;
		}
	}
	return false;
}

void *xt_malloc(size_t size)
{
	if (xt_fault_hit(XT_FAULT_ALLOC))
		return NULL;
	return malloc(size ? size : 1);
}

void *xt_calloc(size_t n, size_t size)
{
	if (xt_fault_hit(XT_FAULT_ALLOC))
		return NULL;
	return calloc(n ? n : 1, size ? size : 1);
}

void *xt_realloc(void *p, size_t size)
{
	if (xt_fault_hit(XT_FAULT_ALLOC))
		return NULL;
	return realloc(p, size ? size : 1);
}

char *xt_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xt_malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}
