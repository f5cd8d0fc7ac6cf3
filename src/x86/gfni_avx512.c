/*
 * gfni_avx512.c - GFNI with 512-bit vectors (AVX-512 F + BW + VL + GFNI):
 * Ice Lake / Sapphire Rapids and later Intel servers, AMD Zen 4 and Zen 5.
 *
 * The algorithms and the instruction counts are in simd_avx512_gfni.h,
 * shared with gfni_avx2.c; this file supplies the 512-bit dialect.  The
 * three-way XOR is one vpternlogq (imm 0x96), and the last partial vector of
 * any length is loaded and stored with byte masks (AVX512BW vmovdqu8 with
 * {k}), so every kernel here has granule 1 and never leaves a tail to the
 * reference code.
 *
 * Why these kernels rank first on such CPUs (priorities 56-65, above
 * avx512.c's 46-55): per data disk per 64 bytes, gen_syndrome costs
 * 1 vgf2p8affineqb + 1 vpternlogq = 2 ops here, against vpaddb + vpshufb +
 * 1.5 vpternlogq = 3.5 ops with AVX-512BW alone (4.5 with the usual
 * vpmovb2m + masked-move multiply-by-2, 7 in Linux's avx512 code).  A
 * multiply by an arbitrary constant (recovery, g^start in xor_syndrome) is
 * 1 op against 5-6 for the nibble tables.  At 2 ALU ops against 1 load per
 * disk per 64 bytes, the loop is close to balanced between the vector ALUs
 * and the load ports on every AVX-512 core, where the BW form is ALU-bound.
 *
 * gen_syndrome "gfni_avx512x4nt" (RAIDX__F_NT) streams P and Q with
 * vmovntdq, for stripes larger than the last-level cache; see avx512.c.
 * The recoveries' "gfni_avx512nt" streams the rebuilt blocks the same way,
 * for calls beyond the LLC and an eighth (select.c, REC_LARGE_LLC_EIGHTHS).
 *
 * Every table entry requires AVX512F|AVX512BW|AVX512VL|GFNI: the file is
 * compiled with all four, and the compiler may use any of them.
 */
#define RX_V512 /* the 512-bit helpers of simd_avx512.h */
#include "simd_avx512.h"

#define RX_MASKED 1
typedef __mmask64 KMASK;

#define F_GFNI512                                                              \
	(RAIDX_CPU_AVX512F | RAIDX_CPU_AVX512BW | RAIDX_CPU_AVX512VL |         \
	 RAIDX_CPU_GFNI)

RX_INLINE KMASK kmask(size_t n)
{
	return rx_prefix_mask(n);
}


RX_INLINE V vzero(void)
{
	return _mm512_setzero_si512();
}

RX_INLINE V vmat(uint64_t m)
{
	return _mm512_set1_epi64((long long)m);
}

RX_INLINE V aff(V x, V m)
{
	return _mm512_gf2p8affine_epi64_epi8(x, m, 0);
}

/* 4 vectors (256 bytes) per step: the recovery loop has p and h per
 * vector plus up to 9 matrices live, well within 32 zmm registers.  The
 * streaming twins take 2 on stripes of 7-10 disks (rx_rec_nt_narrow,
 * simd_avx512_gfni.h). */
#define RX_RECOV_U 4
#define RX_RECOV_NT_NARROW_U 2
#include "simd_avx512_gfni.h"

/*
 * gen: x4 ahead of x2 (two disks per step already halve the affine chain;
 * four vectors add independent work for the second FP pipe pair); the
 * selection may measure otherwise.  xor_syndrome: x2, and x4, which runs
 * x1's or x2's loop where x4's falls behind (simd_avx512.h).  Seed thread
 * 002 found x2 ahead of x4 on partial windows on every CPU measured; on
 * the Turin-like Zen 5, x4 leads in L1 on every window (8+2 [0,7] at 4
 * KiB 212 against 177 GB/s, [7,7] 68 against 55), and beyond L1 it runs
 * x1's or x2's loop, so it ranks first and the selection checks.
 */
RX_TABLE(gfni_avx512) = {
	RX_ENTRY("gfni_avx512x2", RAIDX_OP_GEN_SYNDROME, 59, 1, F_GFNI512, gen, gen_x2, 0),
	RX_ENTRY("gfni_avx512x4", RAIDX_OP_GEN_SYNDROME, 60, 1, F_GFNI512, gen, gen_x4, 0),
	RX_ENTRY("gfni_avx512x4nt", RAIDX_OP_GEN_SYNDROME, 57, 1, F_GFNI512, gen, gen_x4nt, RAIDX__F_NT),
	RX_ENTRY("gfni_avx512x2nt", RAIDX_OP_GEN_SYNDROME, 56, 1, F_GFNI512, gen, gen_x2nt_any, RAIDX__F_NT),
	RX_ENTRY("gfni_avx512x2", RAIDX_OP_XOR_SYNDROME, 60, 1, F_GFNI512, xsyn, xsyn_x2_any, 0),
	RX_ENTRY("gfni_avx512x4", RAIDX_OP_XOR_SYNDROME, 61, 1, F_GFNI512, xsyn, xsyn_x4, 0),
	RX_ENTRY("gfni_avx512", RAIDX_OP_RECOV_2DATA, 60, 1, F_GFNI512, r2, recov_2data_gfni, 0),
	RX_ENTRY("gfni_avx512", RAIDX_OP_RECOV_DATAP, 60, 1, F_GFNI512, rdp, recov_datap_gfni, 0),
	RX_ENTRY("gfni_avx512nt", RAIDX_OP_RECOV_2DATA, 57, 1, F_GFNI512, r2, recov_2data_gfni_nt, RAIDX__F_NT),
	RX_ENTRY("gfni_avx512nt", RAIDX_OP_RECOV_DATAP, 57, 1, F_GFNI512, rdp, recov_datap_gfni_nt, RAIDX__F_NT),
	RAIDX__END,
};
