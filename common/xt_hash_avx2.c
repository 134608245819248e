/*
 * xt_hash_avx2.c - XXH3 from xxhash.h inlined here and compiled with
 * -mavx2 (xxhash.h then picks its AVX2 accumulator).  Nothing else goes in
 * this file: every function in it may use AVX2 instructions.
 *
 * Each entry point ends with vzeroupper: GCC 12 puts none after XXH3's
 * inlined AVX2 loops, and legacy SSE code (glibc's, Mesa's) that runs while
 * the upper halves of the YMM registers are dirty is slowed down.  Measured
 * on the capture's TF benchmark: without it, the AVX2 hash made the
 * application thread slower than the library's SSE2 build did; with it,
 * faster.
 */
#define XXH_INLINE_ALL
#include <immintrin.h>
#include <xxhash.h>

#include "xt_hash_avx2.h"

uint64_t xt_hash64_avx2(const void *data, size_t len)
{
	const uint64_t h = XXH3_64bits(data, len);
	_mm256_zeroupper();
	return h;
}

uint64_t xt_hash64_seed_avx2(const void *data, size_t len, uint64_t seed)
{
	const uint64_t h = XXH3_64bits_withSeed(data, len, seed);
	_mm256_zeroupper();
	return h;
}
