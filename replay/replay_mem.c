/*
 * replay_mem.c - client memory shadows and mapped ranges (replay_mem.h).
 * Few of either exist at a time, so both are small arrays searched
 * linearly.
 */
#include "replay_mem.h"

#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>

#include "xt_fault.h"

#define SEGMENT_BYTES ((uint64_t)256 << 20)
#define MAX_SEGMENTS 64
#define PAGE_BYTES 4096u

struct segment {
	uint64_t base;     /* recorded address of byte 0 (page-aligned) */
	uint8_t *mem;      /* SEGMENT_BYTES, MAP_NORESERVE */
};

struct mapping {
	uint64_t key;
	uint64_t rec;      /* recorded address of the mapping */
	uint8_t *ptr;      /* the replay's mapping */
	uint64_t length;
};

struct replay_mem {
	struct segment seg[MAX_SEGMENTS];
	unsigned nseg;
	struct mapping *map;
	size_t nmap, capmap;
};

struct replay_mem *replay_mem_create(void)
{
	return xt_calloc(1, sizeof(struct replay_mem));
}

void replay_mem_destroy(struct replay_mem *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->nseg; i++)
		munmap(m->seg[i].mem, SEGMENT_BYTES);
	xt_free(m->map);
	xt_free(m);
}

void *replay_mem_client(struct replay_mem *m, uint64_t addr)
{
	for (unsigned i = 0; i < m->nseg; i++)
		if (addr >= m->seg[i].base && addr - m->seg[i].base < SEGMENT_BYTES)
			return m->seg[i].mem + (addr - m->seg[i].base);
	if (m->nseg == MAX_SEGMENTS)
		return NULL;
	void *mem = mmap(NULL, SEGMENT_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED)
		return NULL;
	struct segment *s = &m->seg[m->nseg++];
	s->base = addr & ~(uint64_t)(PAGE_BYTES - 1);
	s->mem = mem;
	return s->mem + (addr - s->base);
}

enum xt_rc replay_mem_map(struct replay_mem *m, uint64_t key, uint64_t rec_ptr, void *ptr,
			  uint64_t length)
{
	replay_mem_unmap(m, key);
	if (m->nmap == m->capmap) {
		size_t cap = m->capmap ? 2 * m->capmap : 8;
		struct mapping *n = xt_realloc(m->map, cap * sizeof *n);
		if (!n)
			return XT_ERR_NOMEM;
		m->map = n;
		m->capmap = cap;
	}
	m->map[m->nmap++] = (struct mapping){ key, rec_ptr, ptr, length };
	return XT_OK;
}

void replay_mem_unmap(struct replay_mem *m, uint64_t key)
{
	for (size_t i = 0; i < m->nmap; i++) {
		if (m->map[i].key == key) {
			m->map[i] = m->map[--m->nmap];
			return;
		}
	}
}

void replay_mem_unmap_high(struct replay_mem *m, uint32_t high)
{
	for (size_t i = 0; i < m->nmap;) {
		if ((uint32_t)(m->map[i].key >> 32) == high)
			m->map[i] = m->map[--m->nmap];
		else
			i++;
	}
}

/* Copies the part of [addr, addr+n) inside [base, base+len) to dst+... */
static bool copy_overlap(uint8_t *dst, uint64_t base, uint64_t len, uint64_t addr,
			 const uint8_t *data, size_t n)
{
	uint64_t lo = addr > base ? addr : base;
	uint64_t hi_a = addr + n, hi_b = base + len;
	uint64_t hi = hi_a < hi_b ? hi_a : hi_b;

	if (hi_a < addr || hi_b < base || lo >= hi)
		return false;
	memcpy(dst + (lo - base), data + (lo - addr), (size_t)(hi - lo));
	return true;
}

unsigned replay_mem_write(struct replay_mem *m, uint64_t addr, const uint8_t *data, size_t n)
{
	unsigned places = 0;

	for (unsigned i = 0; i < m->nseg; i++)
		places += copy_overlap(m->seg[i].mem, m->seg[i].base, SEGMENT_BYTES, addr, data, n);
	for (size_t i = 0; i < m->nmap; i++)
		places += copy_overlap(m->map[i].ptr, m->map[i].rec, m->map[i].length, addr, data, n);
	return places;
}
