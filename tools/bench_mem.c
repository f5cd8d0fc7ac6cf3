/*
 * bench_mem.c - the `memread` reference row of `raidx bench`: a read of
 * every input byte with the widest loads the CPU has and nothing else.  No
 * kernel that reads the same bytes can be faster, so it shows how close a
 * kernel is to the machine's limit at each size (L1, L2, L3, memory).
 *
 * The loads are ORed into four independent accumulators: one OR per load
 * with a one-cycle latency, so two or three loads per cycle never wait on
 * the OR chain and the loop runs at the load ports' (or memory's) speed.
 * The result goes to a volatile sink so the compiler must do every load.
 *
 * The AVX-512 and AVX2 versions are compiled with target attributes and
 * chosen at run time (libdeflate's way), so the tool itself stays baseline
 * x86-64.
 */
#include <stdint.h>
#include <string.h>

#include "bench.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define BENCH_X86 1
#endif

static volatile uint64_t sink;

/*
 * All blocks are read at the same offset, STEP bytes of each in turn, the way
 * every kernel walks a stripe: the memory system sees as many concurrent
 * streams as the kernel gives it (block after block would be one stream and,
 * for blocks of a few KiB from memory, slower than the kernels themselves).
 */
#define STEP 256

/* Bytes [i, len) of every block, 32 at a time; also the SIMD tails. */
static uint64_t read_from(const void *const *blk, unsigned n, size_t i, size_t len)
{
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, w;

	for (; i + 32 <= len; i += 32) {
		for (unsigned k = 0; k < n; k++) {
			const uint8_t *b = (const uint8_t *)blk[k] + i;
			memcpy(&w, b, 8), a0 |= w;
			memcpy(&w, b + 8, 8), a1 |= w;
			memcpy(&w, b + 16, 8), a2 |= w;
			memcpy(&w, b + 24, 8), a3 |= w;
		}
	}
	for (; i < len; i++)
		for (unsigned k = 0; k < n; k++)
			a0 |= ((const uint8_t *)blk[k])[i];
	return a0 | a1 | a2 | a3;
}

static uint64_t read_words(const void *const *blk, unsigned n, size_t len)
{
	return read_from(blk, n, 0, len);
}

#ifdef BENCH_X86
__attribute__((target("avx2"))) static uint64_t read_avx2(const void *const *blk,
							  unsigned n, size_t len)
{
	__m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
	size_t i = 0;

	/* STEP = 256 bytes (four cache lines) of each block per step: eight
	 * loads, two per accumulator. */
	for (; i + STEP <= len; i += STEP) {
		for (unsigned k = 0; k < n; k++) {
			const __m256i *v = (const __m256i *)((const uint8_t *)blk[k] + i);
			a0 = _mm256_or_si256(a0, _mm256_loadu_si256(v + 0));
			a1 = _mm256_or_si256(a1, _mm256_loadu_si256(v + 1));
			a2 = _mm256_or_si256(a2, _mm256_loadu_si256(v + 2));
			a3 = _mm256_or_si256(a3, _mm256_loadu_si256(v + 3));
			a0 = _mm256_or_si256(a0, _mm256_loadu_si256(v + 4));
			a1 = _mm256_or_si256(a1, _mm256_loadu_si256(v + 5));
			a2 = _mm256_or_si256(a2, _mm256_loadu_si256(v + 6));
			a3 = _mm256_or_si256(a3, _mm256_loadu_si256(v + 7));
		}
	}
	a0 = _mm256_or_si256(_mm256_or_si256(a0, a1), _mm256_or_si256(a2, a3));
	__m128i x = _mm_or_si128(_mm256_castsi256_si128(a0),
				 _mm256_extracti128_si256(a0, 1));
	uint64_t r = (uint64_t)_mm_cvtsi128_si64(x) |
		     (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x));
	return r | read_from(blk, n, i, len);
}

/*
 * AVX-512: 512 bytes (eight lines) of each block per step, as the AVX-512
 * kernels walk their blocks.  With the AVX2 reader, the default bench on
 * the Turin-like Zen 5 (2026-12-02) had kernels at 1.1-1.9x of this "bound"
 * on 16 MiB blocks (gen_syndrome 4+2 with non-temporal stores 1.85x),
 * which measured the reader, not the machine.
 */
__attribute__((target("avx512f"))) static uint64_t read_avx512(const void *const *blk,
							       unsigned n, size_t len)
{
	__m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
	size_t i = 0;

	for (; i + 2 * STEP <= len; i += 2 * STEP) {
		for (unsigned k = 0; k < n; k++) {
			const uint8_t *b = (const uint8_t *)blk[k] + i;
			a0 = _mm512_or_si512(a0, _mm512_loadu_si512(b + 0));
			a1 = _mm512_or_si512(a1, _mm512_loadu_si512(b + 64));
			a2 = _mm512_or_si512(a2, _mm512_loadu_si512(b + 128));
			a3 = _mm512_or_si512(a3, _mm512_loadu_si512(b + 192));
			a0 = _mm512_or_si512(a0, _mm512_loadu_si512(b + 256));
			a1 = _mm512_or_si512(a1, _mm512_loadu_si512(b + 320));
			a2 = _mm512_or_si512(a2, _mm512_loadu_si512(b + 384));
			a3 = _mm512_or_si512(a3, _mm512_loadu_si512(b + 448));
		}
	}
	a0 = _mm512_or_si512(_mm512_or_si512(a0, a1), _mm512_or_si512(a2, a3));
	uint64_t lanes[8], r = 0;
	_mm512_storeu_si512(lanes, a0);
	for (int k = 0; k < 8; k++)
		r |= lanes[k];
	return r | read_from(blk, n, i, len);
}

/* SSE2 is part of x86-64, so this needs no attribute there. */
__attribute__((target("sse2"))) static uint64_t read_sse2(const void *const *blk,
							  unsigned n, size_t len)
{
	__m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;
	size_t i = 0;

	for (; i + STEP / 2 <= len; i += STEP / 2) {
		for (unsigned k = 0; k < n; k++) {
			const __m128i *v = (const __m128i *)((const uint8_t *)blk[k] + i);
			a0 = _mm_or_si128(a0, _mm_loadu_si128(v + 0));
			a1 = _mm_or_si128(a1, _mm_loadu_si128(v + 1));
			a2 = _mm_or_si128(a2, _mm_loadu_si128(v + 2));
			a3 = _mm_or_si128(a3, _mm_loadu_si128(v + 3));
			a0 = _mm_or_si128(a0, _mm_loadu_si128(v + 4));
			a1 = _mm_or_si128(a1, _mm_loadu_si128(v + 5));
			a2 = _mm_or_si128(a2, _mm_loadu_si128(v + 6));
			a3 = _mm_or_si128(a3, _mm_loadu_si128(v + 7));
		}
	}
	a0 = _mm_or_si128(_mm_or_si128(a0, a1), _mm_or_si128(a2, a3));
	uint64_t lanes[2];
	_mm_storeu_si128((__m128i *)lanes, a0);
	return lanes[0] | lanes[1] | read_from(blk, n, i, len);
}
#endif

static uint64_t (*reader)(const void *const *, unsigned, size_t);
static const char *reader_isa;

static void pick_reader(void)
{
	reader = read_words;
	reader_isa = "int64";
#ifdef BENCH_X86
	uint32_t f = raidx_cpu_features();
	if (f & RAIDX_CPU_AVX512F) {
		reader = read_avx512;
		reader_isa = "avx512";
	} else if (f & RAIDX_CPU_AVX2) {
		reader = read_avx2;
		reader_isa = "avx2";
	} else if (f & RAIDX_CPU_SSE2) {
		reader = read_sse2;
		reader_isa = "sse2";
	}
#endif
}

void bench_memread(const void *const *blocks, unsigned n, size_t len)
{
	if (!reader)
		pick_reader();
	sink ^= reader(blocks, n, len);
}

const char *bench_memread_isa(void)
{
	if (!reader)
		pick_reader();
	return reader_isa;
}
