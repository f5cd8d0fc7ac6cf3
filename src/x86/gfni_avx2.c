/*
 * gfni_avx2.c - GFNI with 256-bit vectors (AVX2 + GFNI, VEX encoding):
 * Intel Alder Lake and later client cores, Gracemont / Crestmont E-cores
 * and Sierra Forest (AVX2 and GFNI, no AVX-512), and AVX-512 CPUs when
 * AVX-512 is disabled.
 *
 * The algorithms and instruction counts are in simd_avx512_gfni.h, shared
 * with gfni_avx512.c; this file supplies the 256-bit dialect.  AVX2 has no
 * three-way XOR (xor3 is two vpxor) and no byte-masked loads and stores
 * (vpmaskmov works on 32-bit elements), so these kernels are registered with
 * granule 32: the dispatcher finishes the last len % 32 bytes with the
 * reference code.
 *
 * Priorities 44-46, above the AVX2 kernels: per data disk per 64 bytes,
 * gen_syndrome costs 2 x (1 vgf2p8affineqb + 2 vpxor) = 6 ops here, against
 * 2 x (vpcmpgtb, vpaddb, vpand, 3 x vpxor) = 12 for the classic AVX2
 * multiply-by-2; a constant multiply is 1 op instead of 5-6.  Below every
 * AVX-512 kernel, which does the same work per instruction on twice the
 * bytes.
 *
 * gen_syndrome "gfni_avx2x4nt" (RAIDX__F_NT) streams P and Q with 32-byte
 * vmovntdq for stripes larger than the last-level cache; without byte masks
 * it cannot store up to an alignment boundary, so unless P and Q are both
 * 32-byte aligned it uses normal stores.  The recoveries' "gfni_avx2nt"
 * streams the rebuilt blocks beyond the LLC and an eighth, when both are
 * 32-byte aligned (simd_avx512_gfni.h).
 *
 * Entries require exactly AVX2|GFNI (the file is compiled with -mavx2
 * -mgfni; the OS support for the ymm state comes with the AVX2 bit).
 */
#include "simd_avx512.h"

typedef __m256i V;
#define VB 32
#define RX_MASKED 0
typedef unsigned KMASK; /* unused: no partial vectors */

#define F_GFNI256 (RAIDX_CPU_AVX2 | RAIDX_CPU_GFNI)

RX_INLINE KMASK kmask(size_t n)
{
	(void)n;
	return 0;
}

RX_INLINE V ld(const void *p, size_t off, int tail, KMASK k)
{
	(void)tail;
	(void)k;
	return _mm256_loadu_si256((const __m256i *)((const uint8_t *)p + off));
}

RX_INLINE void st(void *p, size_t off, V v, int tail, KMASK k)
{
	(void)tail;
	(void)k;
	_mm256_storeu_si256((__m256i *)((uint8_t *)p + off), v);
}

RX_INLINE V xor2(V a, V b)
{
	return _mm256_xor_si256(a, b);
}

/* (a ^ b) ^ c: in Horner's step a is the chain through h, so b ^ c could go
 * first; the compiler reassociates freely either way. */
RX_INLINE V xor3(V a, V b, V c)
{
	return _mm256_xor_si256(a, _mm256_xor_si256(b, c));
}

RX_INLINE V vzero(void)
{
	return _mm256_setzero_si256();
}

RX_INLINE V vmat(uint64_t m)
{
	return _mm256_set1_epi64x((long long)m);
}

RX_INLINE V aff(V x, V m)
{
	return _mm256_gf2p8affine_epi64_epi8(x, m, 0);
}

/* vmovntdq ymm: 32-byte aligned p.  (In SIMDe mode this is the real AVX
 * instruction, which faults on a misaligned address like on the target.) */
RX_INLINE void vstream(void *p, V v)
{
	_mm256_stream_si256((__m256i *)p, v);
}

/* 2 vectors (64 bytes) per step: only 16 ymm registers, and the recovery
 * loop keeps up to 9 matrices besides p and h. */
#define RX_RECOV_U 2
#include "simd_avx512_gfni.h"


/* Also the GFNI AVX-512 xor_syndrome kernels' loop for one-block windows
 * beyond the LLC (simd_avx512_gfni.h, rx_xsyn_ymm_band, xsyn_band). */
void RX_SHARED(raidx__gfni_avx2_xsyn_x2)(unsigned disks, unsigned start,
					 unsigned stop, size_t len, void **ptrs)
{
	xsyn_x2(disks, start, stop, len, ptrs);
}

RX_TABLE(gfni_avx2) = {
	RX_ENTRY("gfni_avx2x2", RAIDX_OP_GEN_SYNDROME, 45, VB, F_GFNI256, gen, gen_x2, 0),
	RX_ENTRY("gfni_avx2x4", RAIDX_OP_GEN_SYNDROME, 46, VB, F_GFNI256, gen, gen_x4, 0),
	RX_ENTRY("gfni_avx2x4nt", RAIDX_OP_GEN_SYNDROME, 44, VB, F_GFNI256, gen, gen_x4nt, RAIDX__F_NT),
	RX_ENTRY("gfni_avx2x2", RAIDX_OP_XOR_SYNDROME, 46, VB, F_GFNI256, xsyn, xsyn_x2, 0),
	RX_ENTRY("gfni_avx2", RAIDX_OP_RECOV_2DATA, 46, VB, F_GFNI256, r2, recov_2data_gfni, 0),
	RX_ENTRY("gfni_avx2", RAIDX_OP_RECOV_DATAP, 46, VB, F_GFNI256, rdp, recov_datap_gfni, 0),
	RX_ENTRY("gfni_avx2nt", RAIDX_OP_RECOV_2DATA, 43, VB, F_GFNI256, r2, recov_2data_gfni_nt, RAIDX__F_NT),
	RX_ENTRY("gfni_avx2nt", RAIDX_OP_RECOV_DATAP, 43, VB, F_GFNI256, rdp, recov_datap_gfni_nt, RAIDX__F_NT),
	RAIDX__END,
};
