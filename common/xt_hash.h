/*
 * xt_hash.h - content hashing (xxHash's XXH3).
 *
 * 64-bit hashes check chunk integrity; 128-bit hashes name content-addressed
 * blobs.  The hex form of a 128-bit hash is 32 lowercase digits.
 */
#ifndef XT_HASH_H
#define XT_HASH_H

#include <stddef.h>
#include <stdint.h>

struct xt_hash128 {
	uint64_t lo, hi;
};

uint64_t xt_hash64(const void *data, size_t len);
/* XXH3-64 with a seed: the same data under another seed hashes apart. */
uint64_t xt_hash64_seed(const void *data, size_t len, uint64_t seed);
/* The same two, always through libxxhash (for tests of the AVX2 path). */
uint64_t xt_hash64_library(const void *data, size_t len);
uint64_t xt_hash64_seed_library(const void *data, size_t len, uint64_t seed);
struct xt_hash128 xt_hash128(const void *data, size_t len);
/* Writes 32 hex digits and a NUL into out[33]. */
void xt_hash128_hex(struct xt_hash128 h, char out[33]);

#endif
