/*
 * bench_linux.c - the `linux_x2` and `linux_x4` rows of `raidx bench`: the
 * algorithm of the Linux kernel's lib/raid6 AVX2 gen_syndrome and
 * xor_syndrome, so that raidx can be compared with it in one run on this
 * machine (the kernel's own code cannot run in user space here, and is GPL:
 * this is an independent implementation of the published algorithm, not a
 * copy of its code).
 *
 * What it does, as the kernel's avx2x2/avx2x4 do:
 *   - 2 or 4 vectors of 32 bytes per step, one Horner step per disk from the
 *     highest data disk down: q = 2q ^ d, p ^= d;
 *   - multiply by 2 as compare (vpcmpgtb against 0), add, and with 0x1d,
 *     xor: four operations, where raidx's blend takes three;
 *   - gen_syndrome: P and Q written with non-temporal stores, then sfence;
 *   - xor_syndrome: Horner over the window [start, stop] only, then one
 *     multiply by 2 per disk below start (the kernel's "left side"), then
 *     P and Q read, XORed and written with normal stores (the kernel's x4
 *     used non-temporal stores there until the patch of seed 000).
 * Lengths must be a multiple of 32 x unroll and P, Q 32-byte aligned (the
 * kernel works on whole pages); other shapes are skipped with a reason.
 */
#include <stdint.h>
#include <string.h>

#include "bench.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define LX_TARGET __attribute__((target("avx2")))
#define LX_MAXU 4

LX_TARGET static inline __m256i lx_mul2(__m256i q)
{
	__m256i m = _mm256_cmpgt_epi8(_mm256_setzero_si256(), q);
	return _mm256_xor_si256(_mm256_add_epi8(q, q),
				_mm256_and_si256(m, _mm256_set1_epi8(0x1d)));
}

LX_TARGET static inline __m256i lx_ld(const uint8_t *p)
{
	return _mm256_load_si256((const __m256i *)p);
}

/* The bodies are inlined into one function per unroll, so that U is a
 * constant and the 2 or 4 vectors live in registers as in the kernel's
 * hand-written assembly. */
#define LX_INLINE LX_TARGET static inline __attribute__((always_inline))

LX_INLINE void lx_gen(unsigned disks, size_t len, void **ptrs, unsigned U)
{
	uint8_t **d = (uint8_t **)ptrs;
	int z0 = (int)disks - 3;
	uint8_t *p = d[z0 + 1], *q = d[z0 + 2];

	for (size_t off = 0; off < len; off += 32 * (size_t)U) {
		__m256i wp[LX_MAXU], wq[LX_MAXU];
		for (unsigned k = 0; k < U; k++)
			wp[k] = wq[k] = _mm256_loadu_si256((const __m256i *)(d[z0] + off + 32 * k));
		for (int z = z0 - 1; z >= 0; z--)
			for (unsigned k = 0; k < U; k++) {
				__m256i wd = _mm256_loadu_si256((const __m256i *)(d[z] + off + 32 * k));
				wq[k] = _mm256_xor_si256(lx_mul2(wq[k]), wd);
				wp[k] = _mm256_xor_si256(wp[k], wd);
			}
		for (unsigned k = 0; k < U; k++) {
			_mm256_stream_si256((__m256i *)(p + off + 32 * k), wp[k]);
			_mm256_stream_si256((__m256i *)(q + off + 32 * k), wq[k]);
		}
	}
	_mm_sfence();
}

LX_INLINE void lx_xsyn(unsigned disks, unsigned start, unsigned stop, size_t len,
			      void **ptrs, unsigned U)
{
	uint8_t **d = (uint8_t **)ptrs;
	uint8_t *p = d[disks - 2], *q = d[disks - 1];

	for (size_t off = 0; off < len; off += 32 * (size_t)U) {
		__m256i wp[LX_MAXU], wq[LX_MAXU];
		for (unsigned k = 0; k < U; k++)
			wp[k] = wq[k] = _mm256_loadu_si256((const __m256i *)(d[stop] + off + 32 * k));
		for (int z = (int)stop - 1; z >= (int)start; z--)
			for (unsigned k = 0; k < U; k++) {
				__m256i wd = _mm256_loadu_si256((const __m256i *)(d[z] + off + 32 * k));
				wq[k] = _mm256_xor_si256(lx_mul2(wq[k]), wd);
				wp[k] = _mm256_xor_si256(wp[k], wd);
			}
		for (int z = (int)start - 1; z >= 0; z--)
			for (unsigned k = 0; k < U; k++)
				wq[k] = lx_mul2(wq[k]);
		for (unsigned k = 0; k < U; k++) {
			__m256i np = _mm256_xor_si256(wp[k], lx_ld(p + off + 32 * k));
			__m256i nq = _mm256_xor_si256(wq[k], lx_ld(q + off + 32 * k));
			_mm256_store_si256((__m256i *)(p + off + 32 * k), np);
			_mm256_store_si256((__m256i *)(q + off + 32 * k), nq);
		}
	}
}

LX_TARGET static void lx_gen_x2(unsigned disks, size_t len, void **ptrs)
{
	lx_gen(disks, len, ptrs, 2);
}

LX_TARGET static void lx_gen_x4(unsigned disks, size_t len, void **ptrs)
{
	lx_gen(disks, len, ptrs, 4);
}

LX_TARGET static void lx_xsyn_x2(unsigned disks, unsigned start, unsigned stop, size_t len,
				 void **ptrs)
{
	lx_xsyn(disks, start, stop, len, ptrs, 2);
}

LX_TARGET static void lx_xsyn_x4(unsigned disks, unsigned start, unsigned stop, size_t len,
				 void **ptrs)
{
	lx_xsyn(disks, start, stop, len, ptrs, 4);
}

int bench_linux_check(const struct bench_shape *sh, size_t len, unsigned unroll,
		      void *const *ptrs, const char **why)
{
	if (!(raidx_cpu_features() & RAIDX_CPU_AVX2)) {
		*why = "needs AVX2";
		return 0;
	}
	if (sh->op != BOP_GEN_SYNDROME && sh->op != BOP_XOR_SYNDROME) {
		*why = "Linux's raid6 has no such kernel";
		return 0;
	}
	if (len % (32 * (size_t)unroll)) {
		*why = "the kernel's length must be a multiple of 32 x unroll (it takes pages)";
		return 0;
	}
	if (ptrs && (((uintptr_t)ptrs[sh->disks - 2] | (uintptr_t)ptrs[sh->disks - 1]) & 31)) {
		*why = "the kernel needs 32-byte aligned P and Q";
		return 0;
	}
	return 1;
}

int bench_linux_call(const struct bench_shape *sh, size_t len, unsigned unroll, void **ptrs)
{
	if (sh->op == BOP_GEN_SYNDROME)
		(unroll == 4 ? lx_gen_x4 : lx_gen_x2)(sh->disks, len, ptrs);
	else if (sh->op == BOP_XOR_SYNDROME)
		(unroll == 4 ? lx_xsyn_x4 : lx_xsyn_x2)(sh->disks, sh->start, sh->stop, len, ptrs);
	else
		return -1;
	return 0;
}

#else /* not x86 */

int bench_linux_check(const struct bench_shape *sh, size_t len, unsigned unroll,
		      void *const *ptrs, const char **why)
{
	(void)sh;
	(void)len;
	(void)unroll;
	(void)ptrs;
	*why = "the Linux AVX2 algorithm needs x86";
	return 0;
}

int bench_linux_call(const struct bench_shape *sh, size_t len, unsigned unroll, void **ptrs)
{
	(void)sh;
	(void)len;
	(void)unroll;
	(void)ptrs;
	return -1;
}

#endif
