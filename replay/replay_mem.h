/*
 * replay_mem.h - the application's memory as a replay needs it: shadows of
 * client memory by recorded address (for client-side vertex arrays, which
 * the GL reads at draw time through a pointer passed earlier) and the
 * replay's own mappings of buffer ranges the application mapped (for the
 * bytes it wrote through them).  MEMWRITE records (docs/trace-format.md)
 * are applied to both before the call they belong to runs.
 *
 * Client shadows: a pointer argument of gl*Pointer that is client memory
 * is recorded as an address only; its bytes come later, at each draw, as
 * "client-array" MEMWRITEs.  So the replay passes the GL a pointer into a
 * *segment*: a lazily committed anonymous reservation (MAP_NORESERVE) that
 * stands for the recorded addresses from the pointer's page up, and copies
 * each MEMWRITE into every segment that covers its address.  Pointers
 * within a segment's span reuse it, so interleaved arrays stay interleaved.
 */
#ifndef REPLAY_MEM_H
#define REPLAY_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "xt_rc.h"

struct replay_mem;

struct replay_mem *replay_mem_create(void);
/* Unmaps every segment.  NULL is a no-op. */
void replay_mem_destroy(struct replay_mem *m);

/*
 * The replay pointer that stands for recorded client address `addr`
 * (creating a segment when none covers it); NULL when out of address space
 * or segments (XFBTRACE's limit: 64 segments of 256 MiB).
 */
void *replay_mem_client(struct replay_mem *m, uint64_t addr);

/* The application mapped [rec_ptr, rec_ptr+length) of a buffer; the replay
 * mapped the same range at `ptr`.  `key` identifies the buffer (context
 * and name) for replay_mem_unmap. */
enum xt_rc replay_mem_map(struct replay_mem *m, uint64_t key, uint64_t rec_ptr, void *ptr,
			  uint64_t length);
/* The mapping of `key` ended. */
void replay_mem_unmap(struct replay_mem *m, uint64_t key);
/* Every mapping whose key has `high` as its upper 32 bits ended (the last
 * context of a share group was destroyed: host_map_key). */
void replay_mem_unmap_high(struct replay_mem *m, uint32_t high);

/*
 * Applies a MEMWRITE: copies into every client segment and mapping that
 * covers recorded [addr, addr+n) (bytes outside a mapping are cut).
 * Returns the number of places written (0: nothing covers it).
 */
unsigned replay_mem_write(struct replay_mem *m, uint64_t addr, const uint8_t *data, size_t n);

#endif
