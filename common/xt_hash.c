/*
 * xt_hash.c - XXH3 hashing through Debian's libxxhash.
 */
#include "xt_hash.h"

#include <stdio.h>
#include <xxhash.h>

uint64_t xt_hash64(const void *data, size_t len)
{
	return XXH3_64bits(data, len);
}

uint64_t xt_hash64_seed(const void *data, size_t len, uint64_t seed)
{
	return XXH3_64bits_withSeed(data, len, seed);
}

struct xt_hash128 xt_hash128(const void *data, size_t len)
{
	XXH128_hash_t h = XXH3_128bits(data, len);
	return (struct xt_hash128){ h.low64, h.high64 };
}

void xt_hash128_hex(struct xt_hash128 h, char out[33])
{
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.hi,
		 (unsigned long long)h.lo);
}
