/*
 * trace_ranges.c - sets of byte ranges (trace_defined.h): a sorted array of
 * disjoint, non-adjacent [lo, hi) ranges.  Buffers hold few of them (one
 * per run of writes that did not touch), so a binary search and a memmove
 * beat a tree.  Every operation either completes or, out of memory, leaves
 * the set as it was.
 */
#include <string.h>

#include "trace_defined.h"
#include "xt_fault.h"

void trace_ranges_init(struct trace_ranges *s)
{
	memset(s, 0, sizeof *s);
}

void trace_ranges_fini(struct trace_ranges *s)
{
	xt_free(s->r);
	memset(s, 0, sizeof *s);
}

void trace_ranges_clear(struct trace_ranges *s)
{
	s->n = 0;
}

static enum xt_rc reserve(struct trace_ranges *s, size_t n)
{
	if (n <= s->cap)
		return XT_OK;
	size_t cap = s->cap ? s->cap * 2 : 4;
	while (cap < n)
		cap *= 2;
	struct trace_range *r = xt_realloc(s->r, cap * sizeof *r);
	if (!r)
		return XT_ERR_NOMEM;
	s->r = r;
	s->cap = cap;
	return XT_OK;
}

/* The first range whose hi >= at (n when none). */
static size_t first_ending_at_or_after(const struct trace_ranges *s, uint64_t at)
{
	size_t a = 0, b = s->n;

	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (s->r[m].hi < at)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

enum xt_rc trace_ranges_add(struct trace_ranges *s, uint64_t lo, uint64_t hi)
{
	if (lo >= hi)
		return XT_OK;
	/* Ranges i .. j-1 touch or overlap [lo, hi) and merge with it. */
	size_t i = first_ending_at_or_after(s, lo), j = i;
	while (j < s->n && s->r[j].lo <= hi)
		j++;
	if (i == j) {
		if (reserve(s, s->n + 1) != XT_OK)
			return XT_ERR_NOMEM;
		memmove(s->r + i + 1, s->r + i, (s->n - i) * sizeof *s->r);
		s->r[i] = (struct trace_range){ lo, hi };
		s->n++;
		return XT_OK;
	}
	if (s->r[i].lo < lo)
		lo = s->r[i].lo;
	if (s->r[j - 1].hi > hi)
		hi = s->r[j - 1].hi;
	s->r[i] = (struct trace_range){ lo, hi };
	memmove(s->r + i + 1, s->r + j, (s->n - j) * sizeof *s->r);
	s->n -= j - i - 1;
	return XT_OK;
}

enum xt_rc trace_ranges_remove(struct trace_ranges *s, uint64_t lo, uint64_t hi)
{
	if (lo >= hi)
		return XT_OK;
	size_t i = first_ending_at_or_after(s, lo + 1), j = i;
	while (j < s->n && s->r[j].lo < hi)
		j++;
	if (i == j)
		return XT_OK;
	/* One range that strictly contains [lo, hi) splits in two. */
	if (j - i == 1 && s->r[i].lo < lo && s->r[i].hi > hi) {
		if (reserve(s, s->n + 1) != XT_OK)
			return XT_ERR_NOMEM;
		memmove(s->r + i + 1, s->r + i, (s->n - i) * sizeof *s->r);
		s->n++;
		s->r[i].hi = lo;
		s->r[i + 1].lo = hi;
		return XT_OK;
	}
	struct trace_range head = s->r[i], tail = s->r[j - 1];
	size_t k = i;
	if (head.lo < lo)
		s->r[k++] = (struct trace_range){ head.lo, lo };
	if (tail.hi > hi)
		s->r[k++] = (struct trace_range){ hi, tail.hi };
	memmove(s->r + k, s->r + j, (s->n - j) * sizeof *s->r);
	s->n -= j - k;
	return XT_OK;
}

bool trace_ranges_has(const struct trace_ranges *s, uint64_t at)
{
	size_t i = first_ending_at_or_after(s, at + 1);
	return i < s->n && s->r[i].lo <= at && at < s->r[i].hi;
}

enum xt_rc trace_ranges_gaps(const struct trace_ranges *s, uint64_t lo, uint64_t hi,
			     struct trace_ranges *out)
{
	uint64_t at = lo;

	trace_ranges_clear(out);
	for (size_t i = first_ending_at_or_after(s, lo + 1); i < s->n && at < hi; i++) {
		if (s->r[i].lo >= hi)
			break;
		if (s->r[i].lo > at && trace_ranges_add(out, at, s->r[i].lo) != XT_OK)
			return XT_ERR_NOMEM;
		if (s->r[i].hi > at)
			at = s->r[i].hi;
	}
	if (at < hi && trace_ranges_add(out, at, hi) != XT_OK)
		return XT_ERR_NOMEM;
	return XT_OK;
}
