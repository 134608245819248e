/*
 * xt_hash_avx2.h - XXH3 built for AVX2 (xt_hash_avx2.c, compiled with
 * -mavx2 on x86-64 only).  Call only when the CPU has AVX2: xt_hash.c
 * asks.
 */
#ifndef XT_HASH_AVX2_H
#define XT_HASH_AVX2_H

#include <stddef.h>
#include <stdint.h>

#ifndef XT_HASH_HAVE_AVX2
#define XT_HASH_HAVE_AVX2 0
#endif

#if XT_HASH_HAVE_AVX2
uint64_t xt_hash64_avx2(const void *data, size_t len);
uint64_t xt_hash64_seed_avx2(const void *data, size_t len, uint64_t seed);
#endif

#endif
