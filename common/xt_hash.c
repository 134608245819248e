/*
 * xt_hash.c - XXH3 hashing through Debian's libxxhash.
 *
 * Long inputs (a TF buffer's bytes in an observation record, a chunk being
 * compacted or read) go to xt_hash_avx2.c when the CPU has AVX2: the same
 * XXH3 (its result does not depend on the vector width), from xxhash.h
 * compiled for AVX2, in about half the time of the library's SSE2 build
 * (1.3 KiB: ~45 ns against ~100 ns on the CI machine's EPYC,
 * docs/performance.md).  Up to 240 bytes XXH3 uses no vector code, so
 * short inputs stay with the library.
 */
#include "xt_hash.h"

#include <stdbool.h>
#include <stdio.h>
#include <xxhash.h>

#include "xt_hash_avx2.h"

/* XXH3's longest input hashed without vector code. */
#define XXH3_SHORT_MAX 240

#if XT_HASH_HAVE_AVX2
/* Whether the CPU runs the AVX2 build; asked once (a race only asks twice). */
static bool use_avx2(void)
{
	static int avx2 = -1;

	if (avx2 < 0) {
		__builtin_cpu_init();
		avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
	}
	return avx2;
}
#else
static bool use_avx2(void) { return false; }
#endif

uint64_t xt_hash64(const void *data, size_t len)
{
	if (len > XXH3_SHORT_MAX && use_avx2())
		return xt_hash64_avx2(data, len);
	return XXH3_64bits(data, len);
}

uint64_t xt_hash64_seed(const void *data, size_t len, uint64_t seed)
{
	if (len > XXH3_SHORT_MAX && use_avx2())
		return xt_hash64_seed_avx2(data, len, seed);
	return XXH3_64bits_withSeed(data, len, seed);
}

uint64_t xt_hash64_library(const void *data, size_t len)
{
	return XXH3_64bits(data, len);
}

uint64_t xt_hash64_seed_library(const void *data, size_t len, uint64_t seed)
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
