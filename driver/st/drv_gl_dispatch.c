/*
 * drv_gl_dispatch.c - drv_get_proc_address: the table of GL entry points,
 * expanded from drv_gl_api.h and sorted by name at first use, and the
 * vendor-suffix aliases (glBindBufferARB, glGenVertexArraysOES,
 * glBeginTransformFeedbackEXT ...) that name the same core function.
 */
#include <stdlib.h>
#include <string.h>

#include "drv_gl_int.h"

struct proc {
	const char *name;
	void (*fn)(void);
};

static struct proc procs[] = {
#define DRV_GL(ret, name, params) { "gl" #name, (void (*)(void))drv_gl_##name },
#include "drv_gl_api.h"
#undef DRV_GL
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct proc *)a)->name, ((const struct proc *)b)->name);
}

static void (*lookup(const char *name))(void)
{
	struct proc key = { name, NULL };
	const struct proc *p = bsearch(&key, procs, sizeof procs / sizeof procs[0], sizeof procs[0],
				       by_name);
	return p ? p->fn : NULL;
}

static void sort_once(void)
{
	static _Atomic int sorted;   /* the table is constant after this */
	if (!sorted) {
		qsort(procs, sizeof procs / sizeof procs[0], sizeof procs[0], by_name);
		sorted = 1;
	}
}

void (*drv_get_proc_address(const char *name))(void)
{
	static const char *const suffixes[] = { "ARB", "EXT", "OES", "NV" };
	void (*fn)(void);
	char base[128];
	size_t n;

	if (!name)
		return NULL;
	sort_once();
	fn = lookup(name);
	if (fn)
		return fn;
	n = strlen(name);
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		size_t k = strlen(suffixes[i]);
		if (n > k && n - k < sizeof base && !strcmp(name + n - k, suffixes[i])) {
			memcpy(base, name, n - k);
			base[n - k] = 0;
			return lookup(base);
		}
	}
	return NULL;
}
