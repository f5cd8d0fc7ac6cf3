/*
 * sse_vec.h - the 128-bit dialect of x86_kernels.h, shared by sse2.c and
 * ssse3.c (SSE2 instructions only; ssse3.c adds its pshufb multiplies).
 */
#ifndef RAIDX_SSE_VEC_H
#define RAIDX_SSE_VEC_H

#include <emmintrin.h>

typedef __m128i rxv;
#define RXV_BYTES 16

static inline rxv rxv_load(const void *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

static inline void rxv_store(void *p, rxv v)
{
	_mm_storeu_si128((__m128i *)p, v);
}

static inline rxv rxv_xor(rxv a, rxv b)
{
	return _mm_xor_si128(a, b);
}

/* 2v = (v << 1 in every byte) ^ (0x1d where the top bit of v was set). */
static inline rxv rxv_mul2(rxv v)
{
	rxv m = _mm_cmpgt_epi8(_mm_setzero_si128(), v);
	return _mm_xor_si128(_mm_add_epi8(v, v),
			     _mm_and_si128(m, _mm_set1_epi8(0x1d)));
}

#endif
