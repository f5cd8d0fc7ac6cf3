/*
 * avx512.c - AVX-512 (F + BW + VL) kernels for every operation, without GFNI:
 * Skylake-SP / Cascade Lake / Cooper Lake servers, and any AVX-512 CPU when
 * GFNI is disabled.  (CPUs that also have GFNI prefer gfni_avx512.c.)
 *
 * Compiled with -mavx512f -mavx512bw -mavx512vl, so every entry requires all
 * three: the compiler may use any of them anywhere in this file.  No CPU has
 * AVX-512BW without VL, so nothing is lost.
 *
 * Any length, granule 1
 * ---------------------
 * The bulk runs in blocks of U vectors (U * 64 bytes); what is left, fewer
 * than U vectors, runs one vector at a time with byte-masked loads
 * (vmovdqu8 zmm{k}{z}, AVX512BW) and stores (vmovdqu8 m{k}), the mask
 * covering only the bytes below len.  Masked-off bytes are neither read (a
 * masked load does not fault on them) nor written.  So every kernel here
 * takes any len: no reference tail, which matters most for recovery (the
 * reference does a table multiply per byte per disk).
 *
 * XOR (xor_gen, xor_acc): vpternlogq with immediate 0x96 (a ^ b ^ c) folds
 * two sources into the accumulator in one instruction, one of the two loads
 * folded into it as a memory operand.  Per 64 bytes and per source: one load
 * and half a vector ALU op (plain vpxorq needs a whole one).  Several
 * vectors per step (XU below), each source pointer loaded once per step,
 * not once per vector (seed thread 004: a loop over sources fetching a
 * pointer per 64-byte vector ran at 1/7 of the speed of the unrolled one).
 * With 1..4 sources the pointers live in registers (a specialised copy of
 * the loop per count); 5 or more take x86_kernels.h's loops (below).
 *
 * Multiply by 2 in GF(2^8) (poly 0x11d), the heart of Q
 * ----------------------------------------------------
 * mul2(q) = (q << 1) ^ (top bit of q ? 0x1d : 0).  The usual AVX-512 form is
 * vpaddb (the shift), vpmovb2m / vpcmpgtb (top bits into a mask register),
 * a masked move of the 0x1d constant, and the XOR: with the data XORed in,
 * 4 ops (vpaddb, vpmovb2m, vmovdqu8{z}, vpternlogq); the older compare,
 * expand-to-bytes, AND, XOR sequence takes 6.  We use 3:
 *
 *     s' = vpternlogq_0x96(vpaddb(s, s), vpshufb(C, s), d)
 *
 * with C = 0x1d in every byte.  vpshufb returns C[index & 15] = 0x1d where
 * the index byte (s itself) has its top bit clear and 0 where it is set:
 * exactly the reduction of mul2, complemented, i.e. red(s) ^ 0x1d.  So each
 * step adds a known error: if the running value is s = q ^ e (e the same in
 * every byte), one step leaves q' ^ e' with
 *
 *     e' = mul2(e) ^ 0x1d
 *
 * (when e's top bit is set vpshufb sees the inverted top bit and the error
 * is e << 1 = mul2(e) ^ 0x1d again).  The error depends only on the number
 * of steps, not on the data, so it is computed once per call (mul2_err())
 * and removed with the final XOR, which is folded into the vpternlogq that
 * stores Q (xor_syndrome) or costs one vpxorq per 64 bytes of Q (gen), or
 * into the low-nibble table of a constant multiply (see below).
 *
 * Per data disk and 64 bytes, gen_syndrome (one load, not counted):
 *   this file      Q: vpaddb + vpshufb + vpternlogq = 3, P: 1/2 vpternlogq
 *                  (P ^ D_z ^ D_z-1, two disks per instruction) -> 3.5 ops
 *   mask form      vpaddb, vpmovb2m, vmovdqu8{z}, vpternlogq + 1/2 -> 4.5
 *   compare form   vpcmpgtb, vpmovm2b, vpaddb, vpandq, 3 x vpxorq   -> 7
 * On Skylake-SP 512-bit ALU ops issue on ports 0 and 5 only (vpshufb on 5):
 * 3.5 ops are 1.75 cycles per disk per 64 bytes against 1/2 cycle of loads,
 * so the kernel is ALU-bound in cache and every op saved counts.  P and Q
 * of U vectors stay in registers for the whole stripe; x1, x2, x4 (64, 128,
 * 256 bytes per step) trade the latency of the 3-op chain through Q
 * (3 cycles per disk: x1 cannot fill two ports) against loop overhead and
 * registers; the selection measures which wins.
 *
 * Multiply by a constant c (recovery, and g^start in xor_syndrome):
 *   c*x = lo[x & 15] ^ hi[x >> 4], two vpshufb lookups in 16-byte tables
 *   broadcast to the four lanes: vpandq, vpsrlw, vpandq, 2 x vpshufb and a
 *   final XOR (usually folded into a vpternlogq) = 5-6 ops.  Multiplication
 *   is linear, so the Horner error e is corrected for free by XORing c*e
 *   into every entry of the low table: lo'[i] = c*i ^ c*e.
 *
 * xor_syndrome (Linux semantics: P ^= sum, Q ^= sum g^z D_z over the window
 * [start, stop]): Horner over the window only, then the multiply by g^start
 * for the disks below it, which are not read: start single mul2 steps (3 ops
 * each) when start < 2, otherwise one constant multiply (6 ops).  Normal
 * stores: the P and Q just read are written back at once, so they are in
 * cache and a non-temporal store would only evict them (seed thread 000: the
 * x4 variant's NT stores cost Zen 5 about 9% of small-write IOPS).
 *
 * gen_syndrome "avx512x4nt" and xor_gen "avx512nt" stream their output
 * past the cache (vmovntdq), flagged RAIDX__F_NT: the selection only uses
 * them for calls larger than the last-level cache, where the output would
 * be evicted before it is read again.  vmovntdq needs 64-byte alignment: the
 * bytes up to the first boundary go through a masked normal store, then the
 * aligned bulk is streamed; when P and Q sit at different offsets modulo 64
 * they cannot both be aligned and avx512x4nt uses normal stores.  The
 * recoveries' "avx512nt" streams the rebuilt blocks the same way, for
 * calls beyond the LLC and an eighth (below).
 *
 * Recovery, one pass (recov_2data, recov_datap): for each block, P and Q of
 * the surviving disks by Horner (a failed disk only multiplies: 3 ops, no
 * load), XORed with the stored P and Q, then the constant multiplies of
 * raidx__recov_coef() with nibble tables, and the two stores.  No scratch
 * block and no zero page (Linux computes a full gen_syndrome into scratch
 * pages and then reads everything again): the data is read exactly once.
 *
 * Priorities 46-55: above AVX2 (any AVX-512 kernel does twice the work per
 * instruction), below gfni_avx512.c (56-65), whose mul2 is 1 instruction.
 */
#define RX_V512 /* the 512-bit helpers of simd_avx512.h */
#include "simd_avx512.h"

#define F_AVX512 (RAIDX_CPU_AVX512F | RAIDX_CPU_AVX512BW | RAIDX_CPU_AVX512VL)


/* (2 * s) ^ d plus the known error step (see the header); c = 0x1d bytes. */
RX_INLINE V mul2x(V s, V d, V c)
{
	return xor3(_mm512_add_epi8(s, s), _mm512_shuffle_epi8(c, s), d);
}

/* 2 * s, same error step, for a disk that is not read. */
RX_INLINE V mul2(V s, V c)
{
	return xor2(_mm512_add_epi8(s, s), _mm512_shuffle_epi8(c, s));
}

/* The error left by n steps of mul2x / mul2 started from an exact value. */
static uint8_t mul2_err(unsigned n)
{
	uint8_t e = 0;

	while (n--)
		e = raidx__gf_mul[2][e] ^ 0x1d;
	return e;
}

/* Nibble tables of c*x, with `add` XORed into the low table so that the
 * product of (x ^ e) comes out as c*x when add = c*e. */
struct ntab {
	V lo, hi;
};

static inline struct ntab ntab_make(uint8_t c, uint8_t add)
{
	uint8_t lo[16];
	struct ntab t;

	for (int i = 0; i < 16; i++)
		lo[i] = raidx__gf_mul_lo[c][i] ^ add;
	t.lo = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)lo));
	t.hi = _mm512_broadcast_i32x4(
		_mm_loadu_si128((const __m128i *)raidx__gf_mul_hi[c]));
	return t;
}

/* The two halves of c*x; the caller XORs them (with whatever else). */
RX_INLINE V nlo(V x, V tlo, V m0f)
{
	return _mm512_shuffle_epi8(tlo, _mm512_and_si512(x, m0f));
}

RX_INLINE V nhi(V x, V thi, V m0f)
{
	return _mm512_shuffle_epi8(thi, _mm512_and_si512(_mm512_srli_epi16(x, 4), m0f));
}

/* ---- XOR --------------------------------------------------------------- */

/*
 * One step of U vectors at `off` over nsrc sources s[] (xor_run's locals,
 * kept in registers; the template's pointers for its heads and tails).
 */
RX_INLINE void xor_step(uint8_t *dst, const uint8_t *const *s, unsigned nsrc,
			size_t off, int acc, unsigned U, int tail, __mmask64 k,
			int nt)
{
	V a[8];
	unsigned i = 0;

	RX_UNROLL
	for (unsigned u = 0; u < U; u++)
		a[u] = ld(acc ? dst : s[0], off + u * VB, tail, k);
	if (!acc)
		i = 1;
	/* Fully unrolled by the compiler when nsrc is a constant (xor_run). */
	for (; i + 2 <= nsrc; i += 2) {
		const uint8_t *s1 = s[i], *s2 = s[i + 1];
		RX_UNROLL
		for (unsigned u = 0; u < U; u++)
			a[u] = xor3(a[u], ld(s1, off + u * VB, tail, k),
				    ld(s2, off + u * VB, tail, k));
	}
	if (i < nsrc) {
		const uint8_t *s1 = s[i];
		RX_UNROLL
		for (unsigned u = 0; u < U; u++)
			a[u] = xor2(a[u], ld(s1, off + u * VB, tail, k));
	}
	RX_UNROLL
	for (unsigned u = 0; u < U; u++)
		put(dst, off + u * VB, a[u], tail, k, nt);
}

/* The bytes from off to len, a vector at a time, the last one masked,
 * with normal stores: the tail of every XOR loop here. */
RX_INLINE void xor_rest(uint8_t *dst, const uint8_t *const *s, unsigned nsrc,
			size_t off, size_t len, int acc)
{
	for (; off < len; off += VB)
		xor_step(dst, s, nsrc, off, acc, 1, 1, rx_prefix_mask(len - off), 0);
}

/*
 * 256 bytes per step (4 zmm accumulators).  512 (8) until 2026-12-02: on
 * the Zen 5, three alternating runs per build of `raidx bench --op
 * xor_gen,xor_acc --disks 1,2,3,4 --len 4k,16k,64k,1m --impl
 * avx512,avx2,isal`, medians: xor_acc with 2-4 sources at 64 KiB 1.08-1.14x
 * (101 -> 115 GB/s with 2), everything else level (0.97-1.05x).  The
 * pointers are in registers here, so the shorter step costs no pointer
 * loads; four independent chains still keep the loads going.
 */
#define XU 4

/* The bytes of dst up to its first 64-byte boundary (at most len), with a
 * masked normal store: vmovntdq needs the alignment.  Returns how many. */
RX_INLINE size_t xor_nt_head(uint8_t *dst, const uint8_t *const *s, unsigned nsrc,
			     size_t len, int acc)
{
	size_t head = (VB - ((uintptr_t)dst & (VB - 1))) & (VB - 1);

	if (head > len)
		head = len;
	if (head)
		xor_step(dst, s, nsrc, 0, acc, 1, 1, rx_prefix_mask(head), 0);
	return head;
}

/*
 * xor_gen and xor_acc in the L2 band (xor_l2_ymm_band, below): 32-byte
 * vectors, still vpternlogq (AVX512VL), XUY of them a step, over xor_run's
 * pointers in registers (below).  128 bytes a step ran level with 256
 * (three runs each).  xor_acc folds the sources into dst; xor_gen starts
 * from the first source.
 */
#define XUY 4

RX_INLINE void xor_run_y(uint8_t *dst, const uint8_t *const *s, unsigned N,
			 size_t len, int acc)
{
	const uint8_t *first = acc ? dst : s[0];
	size_t off = 0;

	for (; off + XUY * 32 <= len; off += XUY * 32) {
		__m256i a[XUY];
		unsigned i = acc ? 0 : 1;

		RX_UNROLL
		for (unsigned u = 0; u < XUY; u++)
			a[u] = _mm256_loadu_si256((const __m256i *)(first + off + u * 32));
		for (; i + 2 <= N; i += 2) {
			RX_UNROLL
			for (unsigned u = 0; u < XUY; u++)
				a[u] = _mm256_ternarylogic_epi64(
					a[u],
					_mm256_loadu_si256((const __m256i *)(s[i] + off + u * 32)),
					_mm256_loadu_si256((const __m256i *)(s[i + 1] + off + u * 32)),
					0x96);
		}
		if (i < N) {
			RX_UNROLL
			for (unsigned u = 0; u < XUY; u++)
				a[u] = _mm256_xor_si256(
					a[u], _mm256_loadu_si256((const __m256i *)(s[i] + off + u * 32)));
		}
		RX_UNROLL
		for (unsigned u = 0; u < XUY; u++)
			_mm256_storeu_si256((__m256i *)(dst + off + u * 32), a[u]);
	}
	xor_rest(dst, s, N, off, len, acc);
}

/* Exactly N sources (a constant in each instance), their pointers copied
 * into locals that stay in registers; ymm: xor_run_y's loop (normal
 * stores only). */
RX_INLINE void xor_run(void *dstv, const void *const *srcs, unsigned N,
		       size_t len, int acc, int nt, int ymm)
{
	uint8_t *dst = dstv;
	const uint8_t *s[8];
	size_t off = 0;

	for (unsigned i = 0; i < N; i++)
		s[i] = srcs[i];
	if (ymm) {
		xor_run_y(dst, s, N, len, acc);
		return;
	}
	if (nt) {
		off = xor_nt_head(dst, s, N, len, acc);
		for (; off + XU * VB <= len; off += XU * VB)
			xor_step(dst, s, N, off, acc, XU, 0, 0, 1);
	} else {
		for (; off + XU * VB <= len; off += XU * VB)
			xor_step(dst, s, N, off, acc, XU, 0, 0, 0);
	}
	xor_rest(dst, s, N, off, len, acc);
	if (nt)
		_mm_sfence();
}

/* 1-8 sources (xor_tmpl's rule below), each count its own loop. */
RX_INLINE void xor_any(void *dst, const void *const *srcs, unsigned nsrc,
		       size_t len, int acc, int nt, int ymm)
{
	switch (nsrc) {
	case 1: xor_run(dst, srcs, 1, len, acc, nt, ymm); break;
	case 2: xor_run(dst, srcs, 2, len, acc, nt, ymm); break;
	case 3: xor_run(dst, srcs, 3, len, acc, nt, ymm); break;
	case 4: xor_run(dst, srcs, 4, len, acc, nt, ymm); break;
	case 5: xor_run(dst, srcs, 5, len, acc, nt, ymm); break;
	case 6: xor_run(dst, srcs, 6, len, acc, nt, ymm); break;
	case 7: xor_run(dst, srcs, 7, len, acc, nt, ymm); break;
	default: xor_run(dst, srcs, 8, len, acc, nt, ymm); break;
	}
}

/*
 * xor_acc of 4-8 sources on short blocks: the loop above with the count a
 * constant, rather than the template's (below), whose 512-byte steps and
 * set-up lost on them.  Zen 5, two runs of `raidx bench --op xor_acc
 * --disks 3,4,5,6,8 --len 2k,4k,8k,16k,64k,256k,1m --impl
 * avx512,<this>,avx2 --no-recheck` (2026-12-04), the template's speed as a
 * fraction of this loop's, per cell, median:
 *   4-8 sources at 2 KiB 0.77-0.89, at 4 KiB 0.84-0.92 (4 and 8 sources
 *   at 4 KiB are default shapes), at 8 KiB 0.88-1.02;
 *   16 KiB 0.98-1.04, 64 KiB 1.00-1.09 (8 sources: 1.09 in both runs),
 *   256 KiB-1 MiB 0.96-1.00.
 * So up to XOR_ACC_RUN_MAX bytes; xor_gen, measured the same way with
 * 5-9 sources, ran level (0.97-1.03 at 4 KiB) and keeps the template.
 */
#define XOR_ACC_RUN_MAX ((size_t)8 << 10)

/*
 * xor_gen and xor_acc with 5 or more inputs (dst counts for xor_acc):
 * x86_kernels.h's XOR loops, instantiated with 64-byte vectors and
 * vpternlogq for a ^ b ^ c.  Those carry what the AVX2 kernels learned (a
 * loop per input count up to 9, passes over groups of 9 inputs for 17 or
 * more, passes for crowded L1 sets), where the loop above reads two source
 * pointers from memory per step.  1-4 inputs keep the loop above (its
 * pointers in registers, and any length without a tail).  Measured on the
 * Turin-like Zen 5 VM (2026-12-02), the two in one binary, `raidx bench
 * --op xor_gen,xor_acc --disks 2,4,5,6,8,9,12,16 --len 4k,64k,1m`, GB/s:
 *   xor_gen 5-8 sources, 4 KiB: 325-347 against 260-266; 64 KiB: 139-154
 *     against 87-100 (ISA-L 138-161); 1 MiB 79-87 against 69-77;
 *   1-4 inputs: the loop above 0.95-1.16x of the template (two runs);
 *   9-16 sources at 64 KiB: both 87-95, ISA-L 92-168 (its loop holds up
 *     with 10-13 streams from L2 where these fall off; 128- and 256-byte
 *     steps, RXK_XOR_UNROLL 2 and 4, did not change that: 93-104).
 * The last len % 64 bytes take one masked step of the loop above.
 *
 * So here 10 or more inputs are grouped in cache too (the AVX2 kernels,
 * measured on the Zen 3, group from 17): passes of at most 9 inputs per
 * 16 KiB chunk of dst, which stays in L1 between passes.  Zen 5, three
 * alternating runs per build of `raidx bench --op xor_gen,xor_acc --disks
 * 8,9,10,12,13,16 --len 4k,16k,64k,256k,1m --impl avx512,avx2,isal`,
 * medians: 10-16 inputs at 4-64 KiB 1.2-1.5x of the one-pass loop (xor_gen
 * 10 sources at 64 KiB 96 -> 137 GB/s, 13 sources 93 -> 133, 16 sources at
 * 4 KiB 103 -> 137), against ISA-L 0.59-1.05x -> 0.86-1.54x; at 256 KiB and
 * 1 MiB level (ISA-L ratios 0.89-1.21x -> 0.91-1.20x).
 */
#define RXK_XOR_GRP_SMALL_MIN 10
typedef __m512i rxv;
#define RXV_BYTES 64
static inline rxv rxv_load(const void *p)
{
	return _mm512_loadu_si512(p);
}
static inline void rxv_store(void *p, rxv v)
{
	_mm512_storeu_si512(p, v);
}
static inline rxv rxv_xor(rxv a, rxv b)
{
	return _mm512_xor_si512(a, b);
}
#define RXV_XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define RXV_HAVE_STREAM 1
static inline void rxv_stream(void *p, rxv v)
{
	rx_stream_si512(p, v);
}
static inline void rxv_stream_fence(void)
{
	_mm_sfence();
}
#define RXK_WANT_XOR 1
#include "x86_kernels.h"

/*
 * XOR with 256-bit loads where the inputs come from the L3, 256 bytes a
 * step (8 ymm accumulators, the source pointers in registers), instead of
 * the 512-bit loops: from the L3 the narrower loads ran ahead on the
 * Turin-like Zen 5, as 128-bit ones did over 256-bit on the Zen 3 (avx2.c,
 * x16_xor).  Why is not known (no performance counters on this VM), and
 * in one state of the machine they only tie.  Two bands, each measured
 * with this loop as a temporary kernel in one binary (2026-12-03):
 *
 * avx512nt's xor_gen of 4-9 sources whose sources, nsrc x len bytes, are
 * a quarter of the LLC to all of it, with streaming stores (those sources
 * stay in the L3 from one call to the next; dst does not).  The AVX2
 * kernel's loop, avx2nt, ran the same.  Two runs each of `raidx bench --op
 * xor_gen --disks 1,2,3,4,5,6,8 --len 256k,512k,1m,2m,4m,8m,16m` and
 * `--disks 3,4,5,6,7,8 --len 512k,768k,1m,3m,5m,6m,8m` (--impl
 * avx512nt,<this>,avx2nt,avx512 --no-recheck), over avx512nt, per run:
 *   4-8 sources of 8-32 MiB in all: 1.02-1.22, 0.98-1.18, 1.04-1.20,
 *     0.94-1.10 (8 sources at 1 MiB, a default shape: 1.09, 1.08, 1.08,
 *     1.01; in 2 of 3 default raidx bench runs that day avx512nt had
 *     missed the selection goal there, 0.93 of sse2nt);
 *   below 8 MiB: 0.92-1.05, 0.88-1.06, 0.90-1.09, 0.89-1.03;
 *   above the LLC: 0.96-1.02, 0.79-1.02, 1.00-1.12, 0.92-1.02;
 *   1-3 sources: 0.95-1.14, no rule by size (but see below).
 * With it, three runs of `raidx bench --op xor_gen --disks 3,4,5,6,8
 * --len 768k,1m,2m,4m,8m --impl avx512nt,avx2nt,sse2nt,avx512
 * --no-recheck`: avx512nt below 0.95 of the fastest of the four in 0 of
 * 30 cells in the band, 11 of 45 outside it (avx2nt: 18 of 75 in all).
 * 9 sources joined the band on 2026-12-04.  Paired alone, this loop over
 * avx512nt's before (the template's loop for 9): 1.05-1.06 at 1 and 2 MiB
 * (9-18 MiB of sources), 0.94-0.95 at 512 KiB and 4 MiB, below and beyond
 * the band; a second set, 768 KiB-3.5 MiB, 0.99-1.10.  avx2nt's loop for
 * 9, the same loop built for AVX2, still ran 1.00-1.08x of this one there,
 * for reasons not found.  10 or more sources keep the template's loops
 * (grouped passes from 12 inputs at 2 MiB).
 *
 * The same for 2 and 3 sources from a quarter of the LLC on, with no upper
 * bound: with so few streams the loop held its lead from DRAM as well.
 * xor_gen of 2 sources at 16 MiB, a default shape, had avx512nt at 0.94 of
 * avx2nt in default raidx bench runs on 2026-12-03 and 04.  Paired alone
 * (2026-12-04), this loop over avx512nt with 2-3 sources of 8-32 MiB
 * each: 0.98-1.11 in 12 runs, 8 of them above 1.03; 1 source: 0.96-1.07,
 * no lead.  Two runs of `raidx bench --op xor_gen --disks 1,2,3 --len
 * 512k,1m,2m,4m,8m,16m,32m --impl avx512nt,<this>,avx2nt,sse2nt
 * --no-recheck`, median ratio to the fastest of the four per cell:
 *   2-3 sources of 8-96 MiB in all: this loop 0.976-1.000, avx512nt
 *     0.912-0.995 (below 0.95 in 6 of the 16 cell runs);
 *   the other 13 cells: this loop 0.955-0.997, avx512nt 0.965-1.000.
 *   Below 0.95 in all 21 cells' 42 runs: this loop 0, avx512nt 7, avx2nt
 *   3, sse2nt 19.
 *
 * xor_acc of 1-4 sources whose inputs, dst and sources ((nsrc + 1) x len
 * bytes), are half the LLC to one and a half: around the LLC, where dst
 * and part of the sources are still in it from the last call.  Against
 * avx512, three runs each of `raidx bench --op xor_acc --disks 1,2,3
 * --len 4m,8m,12m,16m,24m,32m` and `--disks 1,2,3,4 --len
 * 1m,2m,3m,4m,6m,8m,16m` (--impl avx512,avx2,<this> --no-recheck), by
 * the inputs' bytes:
 *   16-40 MiB: 1.02-1.19 in every cell of the second grid (one source at
 *     16 MiB, a default shape: 1.07, 1.05, 1.08; avx512 had missed the
 *     selection goal there against avx2 in 2 of 5 default raidx bench
 *     runs that day, 0.92-0.94); in the first grid avx512 was below 0.95
 *     of the faster of the other two in 23 of 54 cells, this loop in 5;
 *   9-15 MiB: 0.91-1.07;  up to 8 MiB: 0.84-1.03;  48-80 MiB: 0.98-1.05.
 */
#define XOR_L3_MAX_SRC 9

/* The source counts first: xor_acc of 5 or more sources and xor_gen of
 * one or more than 9 never read the LLC. */
RX_INLINE int xor_l3_band(unsigned nsrc, size_t len, int acc)
{
	if (acc ? nsrc > 4 : nsrc < 2 || nsrc > XOR_L3_MAX_SRC)
		return 0;

	size_t llc = raidx__llc_bytes();

	if (acc) {
		size_t in = ((size_t)nsrc + 1) * len;
		return in >= llc / 2 && in <= llc / 2 * 3;
	}
	size_t src = (size_t)nsrc * len;
	return src >= llc / 4 && (nsrc < 4 || src <= llc);
}

/* acc: dst is the first input.  nt (never with acc): dst streamed from
 * its first 64-byte boundary (xor_nt_head); else stored normally. */
RX_INLINE void xor_l3_run(uint8_t *dst, const void *const *srcs, unsigned N,
			  size_t len, int acc, int nt)
{
	/* zeroed: gcc cannot see that only the N set below are read (a
	 * call is megabytes, so the eight stores cost nothing) */
	const uint8_t *s[XOR_L3_MAX_SRC] = { NULL };
	size_t off = 0;

	for (unsigned i = 0; i < N; i++)
		s[i] = srcs[i];
	if (nt)
		off = xor_nt_head(dst, s, N, len, 0);
	for (; off + 8 * 32 <= len; off += 8 * 32) {
		const uint8_t *first = acc ? dst : s[0];
		__m256i v[8];
		RX_UNROLL
		for (unsigned k = 0; k < 8; k++)
			v[k] = _mm256_loadu_si256((const __m256i *)(first + off + 32 * k));
		for (unsigned i = !acc; i < N; i++)
			RX_UNROLL
			for (unsigned k = 0; k < 8; k++)
				v[k] = _mm256_xor_si256(v[k], _mm256_loadu_si256(
					(const __m256i *)(s[i] + off + 32 * k)));
		RX_UNROLL
		for (unsigned k = 0; k < 8; k++) {
			__m256i *p = (__m256i *)(dst + off + 32 * k);
			if (!nt)
				_mm256_storeu_si256(p, v[k]);
			else
				_mm256_stream_si256(p, v[k]);
		}
	}
	xor_rest(dst, s, N, off, len, acc);
	if (nt)
		_mm_sfence();
}

/* N and acc constants in every loop: with acc a variable (as for 2-4
 * sources when both ops shared one switch), gcc kept the loop over
 * sources rolled, reloading the pointers from the stack each step. */
static void xor_l3(void *dst, const void *const *srcs, unsigned nsrc,
		   size_t len, int acc)
{
	if (acc) {
		switch (nsrc) {
		case 1: xor_l3_run(dst, srcs, 1, len, 1, 0); break;
		case 2: xor_l3_run(dst, srcs, 2, len, 1, 0); break;
		case 3: xor_l3_run(dst, srcs, 3, len, 1, 0); break;
		default: xor_l3_run(dst, srcs, 4, len, 1, 0); break;
		}
		return;
	}
	switch (nsrc) {
	case 2: xor_l3_run(dst, srcs, 2, len, 0, 1); break;
	case 3: xor_l3_run(dst, srcs, 3, len, 0, 1); break;
	case 4: xor_l3_run(dst, srcs, 4, len, 0, 1); break;
	case 5: xor_l3_run(dst, srcs, 5, len, 0, 1); break;
	case 6: xor_l3_run(dst, srcs, 6, len, 0, 1); break;
	case 7: xor_l3_run(dst, srcs, 7, len, 0, 1); break;
	case 8: xor_l3_run(dst, srcs, 8, len, 0, 1); break;
	default: xor_l3_run(dst, srcs, 9, len, 0, 1); break;
	}
}

/*
 * And avx512nt's xor_gen of 10 or more sources whose sources are a quarter
 * of the LLC to below all of it (10-11 sources: below half): the template's
 * group passes (rxk_xor_grouped, passes of at most 9 inputs over each chunk
 * of dst) with this 256-bit loop for each pass and 64 KiB chunks, as the
 * AVX2 kernels run them (avx2.c, RXK_XOR_GRP_CHUNK), instead of 512-bit
 * passes over 16 KiB.  16 sources at 1 MiB, a default shape, had avx512nt
 * at 0.93-0.94 of avx2nt in 5 of 8 default raidx bench runs (2026-12-03
 * and 04).  Either change alone did not close it: 64 KiB chunks with the
 * 512-bit passes read 0.97-1.03 of 16 KiB with 12-24 sources at 256 KiB-16
 * MiB, and 256-bit passes over 16 KiB chunks 0.84-1.08 (mostly below 1);
 * the two together 1.02-1.11 at 16-20 sources of 512 KiB-1 MiB, level with
 * avx2nt (2026-12-04, temporary kernels in one binary).  Against the
 * template's passes kept as a temporary kernel, nine interleaved runs of
 * `raidx bench --op xor_gen --disks 10,11,12,16,20,24,34 --len
 * 256k,...,4m --impl <template>,avx512nt,avx2nt --no-recheck` over the
 * morning's states, cells in the band: below 0.95 of the fastest of the
 * three in 16 of 112 cell runs against the template's 30; the template
 * over this, geometric mean by run set 0.968, 0.975, 0.952 and, in one
 * state where the 512-bit loops led, 1.037.  16 sources at 1 MiB: the
 * template 0.93-1.00 of this in all nine runs, avx2nt 0.97-1.05.  With
 * 10-11 sources from half the LLC (20 MiB and more) these passes ran
 * 0.84-0.91 of the template in three runs (one 256-bit pass over all the
 * sources was level with it, avx2nt still 1.03-1.10 ahead), so those keep
 * the template's; so does xor_acc with many sources, where the template
 * ran 0.92-1.22x these passes (median 0.99, 60 cell runs of four runs with
 * 10-34 sources and dst a quarter to three quarters of the LLC).
 */
#define XOR_L3_GRP_CHUNK ((size_t)64 << 10)
#define XOR_L3_GRP_HALF_MAX 12

/* Not where dst is also a source, nor where the blocks crowd an L1 set:
 * the template's grouping (rxk_xor_many) handles those. */
RX_INLINE int xor_l3_grp_band(void *dst, const void *const *srcs,
			      unsigned nsrc, size_t len)
{
	if (nsrc <= RXK_XOR_PASS_MAX)
		return 0;

	size_t llc = raidx__llc_bytes(), src = (size_t)nsrc * len;

	if (src < llc / 4 || src >= (nsrc < XOR_L3_GRP_HALF_MAX ? llc / 2 : llc))
		return 0;
	return !rxk_aliased(dst, (const uint8_t *const *)srcs, nsrc) &&
	       !rxk_crowded((void *const *)srcs, nsrc);
}

/* One pass of those: m inputs, in[0] == dst for dst ^= in[1..m-1].
 * Balanced passes of at most 9 inputs over 10 or more hold 5 to 9 (10
 * inputs: 6 and 5; 18: 7, 7 and 6), so the first pass takes 6-9 sources
 * and each later one dst and 4-8; any other count (none reaches here)
 * takes the template's loop, which is as correct. */
static void xor_l3_pass(uint8_t *dst, const uint8_t *const *in, unsigned m,
			size_t len)
{
	const void *const *v = (const void *const *)in;

	if (in[0] == dst) {
		switch (m - 1) {
		case 4: xor_l3_run(dst, v + 1, 4, len, 1, 0); return;
		case 5: xor_l3_run(dst, v + 1, 5, len, 1, 0); return;
		case 6: xor_l3_run(dst, v + 1, 6, len, 1, 0); return;
		case 7: xor_l3_run(dst, v + 1, 7, len, 1, 0); return;
		case 8: xor_l3_run(dst, v + 1, 8, len, 1, 0); return;
		}
	} else {
		switch (m) {
		case 6: xor_l3_run(dst, v, 6, len, 0, 0); return;
		case 7: xor_l3_run(dst, v, 7, len, 0, 0); return;
		case 8: xor_l3_run(dst, v, 8, len, 0, 0); return;
		case 9: xor_l3_run(dst, v, 9, len, 0, 0); return;
		}
	}
	rxk_xor_few(dst, in, m, len, 0);
}

static void xor_l3_grouped(void *dst, const void *const *srcs, unsigned nsrc,
			   size_t len)
{
	const uint8_t *const *s = (const uint8_t *const *)srcs;

	rxk_xor_grouped(dst, s[0], s + 1, nsrc - 1, len, RXK_XOR_PASS_MAX,
			XOR_L3_GRP_CHUNK, xor_l3_pass);
}

/*
 * xor_acc of 1-8 sources and xor_gen of 2-8 whose blocks (the sources
 * and dst) are more than twice the L1 and at most half the L2, on blocks
 * of at most 96 KiB, on CPUs with RAIDX__T_XOR_L2_YMM: xor_run_y's
 * 32-byte loop.  There the inputs stream from the L2, and on the Zen 5
 * the 512-bit loops fall behind the 256-bit ones for seconds at a time
 * (avx2's xor_acc, the same width, had been ahead by 3-7% on the default
 * shapes of 3 and 4 sources at 64 KiB, a miss in several default raidx
 * bench runs).  Turin-like Zen 5, 2026-12-05, the loop as a temporary
 * entry against avx512, three runs of `raidx bench --op xor_acc --disks
 * 1,2,3,4,5 --len 32k,40k,48k,56k,64k,80k,96k,112k --impl avx512,<it>
 * --no-recheck` and two with --page-aligned, paired:
 *   1-5 sources, 32-96 KiB: 0.95-1.14, median 1.03 (3 sources at 96 KiB
 *     0.95-0.97 in all three runs, page-aligned 1.02-1.03; single
 *     readings of 0.97 elsewhere); page-aligned 0.99-1.14, median 1.03;
 *   4-5 sources at 56-96 KiB 0.99-1.14; 64 KiB, 1-4 sources: 0.99-1.08;
 *   112 KiB: 2 and 3 sources 0.94-0.99 (so blocks up to 96 KiB), 4-5
 *     1.07-1.11 and 0.91-0.93;
 * and two runs of `--disks 6,8 --len 16k,32k,48k,64k,96k,128k`: 6
 * sources at 16-64 KiB 1.03-1.18, 8 at 16-48 KiB 0.98-1.15; inputs past
 * half the L2 (6 at 96 KiB, 8 at 64 KiB, a default shape) 0.93-0.98, so
 * the band ends there.  Below twice the L1 the 512-bit loops keep their
 * lead (2 sources at 16 KiB: 1.9x; 1 source at 32 KiB 0.97-1.01).
 * xor_gen joined on 2026-12-07: its 64 KiB cells of 2-4 sources had
 * missed in default runs against avx2 (avx512 0.92-0.96 of it, then
 * 1.00-1.07 at the end of the same run), and `raidx bench --op xor_gen`
 * alone found avx512 0.94-1.11x avx2 there from run to run.  Six runs of
 * `raidx bench --op xor_gen --disks 2,3,4,8 --len 32k,64k,128k` and
 * `--disks 2,3,4,5,6 --len 48k,64k,96k` (three each, --time 10,
 * --no-recheck) with the loop as a temporary entry beside avx512 and
 * avx2, each kernel's paired speed over the fastest of the three, in the
 * band's 16 cells: this loop 0.93-1.00, below 0.95 in 3 of 57 readings
 * (all 4 sources at 64 KiB: 0.93-1.00 there, avx512 0.92-1.00), the
 * 512-bit loop 0.87-1.00, below 0.95 in 21 (2-3 sources at 64 KiB
 * 0.90-1.00; 5 and 6 sources at 64 KiB 0.87-0.92 in every run).  Beyond
 * the band, 3 sources at 128 KiB (512 KiB of blocks) read 0.89-0.96, so
 * xor_gen keeps xor_acc's bounds.  A single source (a copy) was not
 * measured and keeps the 512-bit loop.
 */
#define XOR_Y_MAX_LEN ((size_t)96 << 10)

RX_INLINE int xor_l2_ymm_band(unsigned nsrc, size_t len, int acc)
{
	if (nsrc > 8 || (!acc && nsrc < 2) || len > XOR_Y_MAX_LEN)
		return 0;

	size_t in = ((size_t)nsrc + 1) * len;

	return in > 2 * raidx__l1d_bytes() && in <= raidx__l2_bytes() / 2 &&
	       (raidx__cpu_traits() & RAIDX__T_XOR_L2_YMM);
}

/* nt: stream dst (xor_gen only). */
RX_INLINE void xor_tmpl(void *dst, const void *const *srcs, unsigned nsrc,
			size_t len, int acc, int nt)
{
	const uint8_t *const *s = (const uint8_t *const *)srcs;
	size_t head = 0;

	if (nsrc + acc <= 4 || (acc && nsrc <= 8 && len <= XOR_ACC_RUN_MAX)) {
		xor_any(dst, srcs, nsrc, len, acc, nt, 0);
		return;
	}
	/* The template streams only to a 64-byte aligned dst (and uses normal
	 * stores otherwise); large malloc()ed blocks start 16 bytes into a
	 * page, so the bytes up to the boundary take a masked step first. */
	if (nt)
		head = xor_nt_head(dst, s, nsrc, len, acc);
	size_t bulk = (len - head) & ~(size_t)(VB - 1);
	if (bulk) {
		const void *const *in = srcs;
		const void *t[RAIDX_MAX_SOURCES];
		if (head) {
			for (unsigned i = 0; i < nsrc; i++)
				t[i] = s[i] + head;
			in = t;
		}
		uint8_t *d = (uint8_t *)dst + head;
		if (acc)
			rxk_xor_acc(d, in, nsrc, bulk);
		else if (nt)
			rxk_xor_gen_stream(d, in, nsrc, bulk);
		else
			rxk_xor_gen(d, in, nsrc, bulk);
	}
	xor_rest(dst, s, nsrc, head + bulk, len, acc); /* under 64 bytes */
}

static void xor_gen_avx512(void *dst, const void *const *srcs, unsigned nsrc,
			   size_t len)
{
	if (xor_l2_ymm_band(nsrc, len, 0)) {
		xor_any(dst, srcs, nsrc, len, 0, 0, 1);
		return;
	}
	xor_tmpl(dst, srcs, nsrc, len, 0, 0);
}

/*
 * avx512nt's xor_gen of 5-9 sources whose blocks and dst are more than
 * half the L2 and at most all of it, on CPUs with RAIDX__T_XOR_NT_MID: the
 * 256-bit streaming loop of the L3 band (xor_l3_run).  Selection sends
 * these calls to the large class from half the L2 on such CPUs (select.c,
 * set_bounds, with the measurements); there the 512-bit streaming loop
 * read 0.62-0.77 of avx512's normal stores in some runs (5-9 sources at
 * 540-640 KiB, where it read 0.97-1.00 an hour before) and this loop
 * 0.93-1.37, below 0.95 of the fastest of avx512, avx512nt and avx2nt in
 * 12 of 165 readings (page-aligned 15 of 110, 10 of them 9 sources at
 * 540-890 KiB, where the 512-bit loop led).  Beyond the L2 the two
 * streaming loops ran level (0.94-1.04 at 1-9 MiB), so the template keeps
 * those calls up to the L3 band.
 */
_Static_assert(RAIDX__XOR_NT_MID_MAX_SRC <= XOR_L3_MAX_SRC,
	       "xor_l3 runs at most XOR_L3_MAX_SRC sources in one pass");

RX_INLINE int xor_l2_nt_band(unsigned nsrc, size_t len)
{
	if (nsrc < RAIDX__XOR_NT_MID_MIN_SRC || nsrc > RAIDX__XOR_NT_MID_MAX_SRC)
		return 0;

	size_t in = ((size_t)nsrc + 1) * len, l2 = raidx__l2_bytes();

	return in > l2 / 2 && in <= l2 && (raidx__cpu_traits() & RAIDX__T_XOR_NT_MID);
}

/* Streaming dst: for blocks beyond the last-level cache (RAIDX__F_NT). */
static void xor_gen_avx512nt(void *dst, const void *const *srcs,
			     unsigned nsrc, size_t len)
{
	if (xor_l3_band(nsrc, len, 0) || xor_l2_nt_band(nsrc, len)) {
		xor_l3(dst, srcs, nsrc, len, 0);
		return;
	}
	if (xor_l3_grp_band(dst, srcs, nsrc, len)) {
		xor_l3_grouped(dst, srcs, nsrc, len);
		return;
	}
	xor_tmpl(dst, srcs, nsrc, len, 0, 1);
}

static void xor_acc_avx512(void *dst, const void *const *srcs, unsigned nsrc,
			   size_t len)
{
	if (xor_l2_ymm_band(nsrc, len, 1)) {
		xor_any(dst, srcs, nsrc, len, 1, 0, 1);
		return;
	}
	if (xor_l3_band(nsrc, len, 1)) {
		xor_l3(dst, srcs, nsrc, len, 1);
		return;
	}
	xor_tmpl(dst, srcs, nsrc, len, 1, 0);
}

/* ---- gen_syndrome ------------------------------------------------------ */

/*
 * Fold data blocks hi down to lo (none when hi < lo) into p (XOR) and s
 * (Horner's rule with mul2x), two blocks a step.  The one loop of
 * gen_syndrome, xor_syndrome and the recoveries' runs of survivors.
 */
RX_INLINE void horner_down(uint8_t **d, int hi, int lo, size_t off, unsigned U,
			   int tail, __mmask64 k, V c, V *p, V *s)
{
	int z = hi;

	for (; z >= lo + 1; z -= 2) {
		const uint8_t *d1 = d[z], *d0 = d[z - 1];
		RX_UNROLL
		for (unsigned u = 0; u < U; u++) {
			V a = ld(d1, off + u * VB, tail, k);
			V b = ld(d0, off + u * VB, tail, k);
			p[u] = xor3(p[u], a, b);
			s[u] = mul2x(mul2x(s[u], a, c), b, c);
		}
	}
	if (z == lo) {
		RX_UNROLL
		for (unsigned u = 0; u < U; u++) {
			V a = ld(d[lo], off + u * VB, tail, k);
			p[u] = xor2(p[u], a);
			s[u] = mul2x(s[u], a, c);
		}
	}
}

/* The loops per stripe width below: gfni_avx512's (simd_avx512_gfni.h) */
#define GEN_FIXED_MAX 16

/* P and Q of U vectors at `off` of the data blocks d[0..z], stored at pp and
 * qq; nt: stream the stores (aligned). */
RX_INLINE void gen_step(uint8_t **d, int z, uint8_t *pp, uint8_t *qq,
			size_t off, unsigned U, int tail, __mmask64 k, int nt,
			V c, V verr)
{
	V p[4], s[4];

	RX_UNROLL
	for (unsigned u = 0; u < U; u++)
		p[u] = s[u] = ld(d[z], off + u * VB, tail, k);
	horner_down(d, z - 1, 0, off, U, tail, k, c, p, s);
	RX_UNROLL
	for (unsigned u = 0; u < U; u++) {
		V q = xor2(s[u], verr);
		put(pp, off + u * VB, p[u], tail, k, nt);
		put(qq, off + u * VB, q, tail, k, nt);
	}
}

/* Single vectors of the stripe from off to len, the last one masked, in
 * the general form (RX_NOINLINE, simd_avx512.h). */
RX_NOINLINE void gen_tail(unsigned disks, void **ptrs, size_t off, size_t len)
{
	uint8_t **d = (uint8_t **)ptrs;
	V c = _mm512_set1_epi8(0x1d);
	V verr = _mm512_set1_epi8((char)mul2_err(disks - 3));

	for (; off < len; off += VB)
		gen_step(d, (int)disks - 3, d[disks - 2], d[disks - 1], off, 1, 1,
			 rx_prefix_mask(len - off), 0, c, verr);
}

/*
 * nd: 0 for any stripe, or its data blocks as a literal (1 to
 * GEN_FIXED_MAX): the pointers then sit in a local array that the stores
 * cannot alias and the Horner steps are straight-line code, as in
 * simd_avx512_gfni.h's gen_run.  nt: stream from `head` (the bytes before
 * it through a masked normal store).  Against the general loop (the
 * binary before, two alternations of `raidx bench --op
 * gen_syndrome,xor_syndrome --len 4k,64k,1m --impl
 * avx512x1,avx512x2,avx512x4,gfni_avx512x4`, each kernel relative to
 * gfni_avx512x4 in its run, new over old; Turin-like Zen 5, 2026-12-03):
 * gen_syndrome avx512x4 4+2 at 4 KiB 1.39x, 8+2 1.19-1.21x at 4 KiB and
 * 1.07-1.12x at 64 KiB, 16+2 1.25-1.33x at 1 MiB, 0.91-0.99x at 4 KiB
 * (beyond L1); xor_syndrome (xsyn_run below) at 4 KiB 1.19-1.57x on
 * windows of 1-8 blocks, at 64 KiB 1.0-1.3x (16+2 [8,15] 1.8-1.9x), at
 * 1 MiB 0.97-1.21x; wider windows, the same loop in both, 0.90-1.20x.
 */
RX_INLINE void gen_run(unsigned disks, size_t len, void **ptrs, unsigned U,
		       int nt, size_t head, unsigned nd)
{
	uint8_t *w[GEN_FIXED_MAX];
	uint8_t **d = (uint8_t **)ptrs;
	uint8_t *pp = d[disks - 2], *qq = d[disks - 1];
	int z = (int)disks - 3;
	V c = _mm512_set1_epi8(0x1d);
	V verr = _mm512_set1_epi8((char)mul2_err(disks - 3));
	size_t off = 0;

	if (nd) {
		for (unsigned i = 0; i < nd; i++)
			w[i] = d[i];
		d = w;
		z = (int)nd - 1;
	}
	if (head) {
		gen_tail(disks, ptrs, 0, head);
		off = head;
	}
	for (; off + U * VB <= len; off += U * VB)
		gen_step(d, z, pp, qq, off, U, 0, 0, nt, c, verr);
	if (off < len)
		gen_tail(disks, ptrs, off, len);
	/* Order the weakly-ordered streaming stores before whatever the caller
	 * does next (e.g. hand P and Q to a device). */
	if (nt)
		_mm_sfence();
}

RX_INLINE void gen_fixed(unsigned disks, size_t len, void **ptrs, unsigned U,
			 int nt, size_t head)
{
	RX_BY_WIDTH(disks - 2, GEN_FIXED_MAX, gen_run, disks, len, ptrs, U, nt, head);
}

RX_INLINE void gen_u(unsigned disks, size_t len, void **ptrs, unsigned U)
{
	gen_fixed(disks, len, ptrs, U, 0, 0);
}

/* Out of line: gen_x4 tail-calls them (RX_TAIL_BY_UNROLL, simd_avx512.h) */
RX_NOINLINE void gen_x1(unsigned disks, size_t len, void **ptrs)
{
	gen_u(disks, len, ptrs, 1);
}

RX_NOINLINE void gen_x2(unsigned disks, size_t len, void **ptrs)
{
	gen_u(disks, len, ptrs, 2);
}

RX_NOINLINE void gen_x4l(unsigned disks, size_t len, void **ptrs)
{
	gen_u(disks, len, ptrs, 4);
}

/* x4 in L1, x1 or x2 beyond (rx_x4_unroll, simd_avx512.h) */
static void gen_x4(unsigned disks, size_t len, void **ptrs)
{
	RX_TAIL_BY_UNROLL(rx_x4_unroll(disks, len), gen_x1, gen_x2, gen_x4l,
			  disks, len, ptrs);
}

/* Also gfni_avx512x4nt's and x2nt's loop in one band (rx_gen_bw_crowd,
 * simd_avx512_gfni.h). */
void RX_SHARED(raidx__avx512_gen_x4nt)(unsigned disks, size_t len, void **ptrs)
{
	long head = raidx__nt_head(len, ptrs[disks - 2], ptrs[disks - 1], VB, 1);

	if (head < 0) { /* P and Q cannot both be aligned */
		gen_x4(disks, len, ptrs);
		return;
	}
	gen_fixed(disks, len, ptrs, 4, 1, (size_t)head);
}

/* ---- xor_syndrome ------------------------------------------------------ */

struct xsyn_k {
	V c, m0f, verr;   /* verr: Horner error when start < 2 */
	struct ntab gs;   /* g^start with the error folded, when start >= 2 */
};

/* U vectors at off of the window d[lo..z] (P and Q at pp, qq); start is the
 * window's first disk (its multiply). */
RX_INLINE void xsyn_step(uint8_t **d, int z, int lo, unsigned start,
			 uint8_t *pp, uint8_t *qq, size_t off, unsigned U,
			 int tail, __mmask64 k, const struct xsyn_k *K)
{
	V p[4], s[4], op[4], oq[4];

	RX_UNROLL
	for (unsigned u = 0; u < U; u++)
		p[u] = s[u] = ld(d[z], off + u * VB, tail, k);
	horner_down(d, z - 1, lo, off, U, tail, k, K->c, p, s);
	RX_UNROLL
	for (unsigned u = 0; u < U; u++) {
		op[u] = ld(pp, off + u * VB, tail, k);
		oq[u] = ld(qq, off + u * VB, tail, k);
	}
	RX_UNROLL
	for (unsigned u = 0; u < U; u++) {
		V q;
		if (start >= 2) {
			q = xor3(oq[u], nlo(s[u], K->gs.lo, K->m0f),
				 nhi(s[u], K->gs.hi, K->m0f));
		} else {
			if (start == 1)
				s[u] = mul2(s[u], K->c);
			q = xor3(oq[u], s[u], K->verr);
		}
		st(pp, off + u * VB, xor2(op[u], p[u]), tail, k);
		st(qq, off + u * VB, q, tail, k);
	}
}

/* The loops per window width below: gfni_avx512's (simd_avx512_gfni.h) */
#define XSYN_FIXED_MAX 8

RX_INLINE void xsyn_k_make(struct xsyn_k *K, unsigned start, unsigned stop)
{
	K->c = _mm512_set1_epi8(0x1d);
	K->m0f = _mm512_set1_epi8(0x0f);
	if (start >= 2) {
		uint8_t gs = raidx__gf_exp[start];
		K->gs = ntab_make(gs, raidx__gf_mul[gs][mul2_err(stop - start)]);
		K->verr = _mm512_setzero_si512();
	} else {
		K->verr = _mm512_set1_epi8((char)mul2_err(stop));
		K->gs.lo = K->gs.hi = _mm512_setzero_si512();
	}
}

/* Single vectors of the window from off to len, the last one masked, in
 * the general form (RX_NOINLINE, simd_avx512.h). */
RX_NOINLINE void xsyn_tail(unsigned disks, unsigned start, unsigned stop,
			   void **ptrs, size_t off, size_t len)
{
	uint8_t **d = (uint8_t **)ptrs;
	struct xsyn_k K;

	xsyn_k_make(&K, start, stop);
	for (; off < len; off += VB)
		xsyn_step(d, (int)stop, (int)start, start, d[disks - 2],
			  d[disks - 1], off, 1, 1, rx_prefix_mask(len - off), &K);
}

/* nw: 0 for any window, or its width as a literal (1 to XSYN_FIXED_MAX),
 * as simd_avx512_gfni.h's xsyn_u. */
RX_INLINE void xsyn_run(unsigned disks, unsigned start, unsigned stop,
			size_t len, void **ptrs, unsigned U, unsigned nw)
{
	uint8_t *w[XSYN_FIXED_MAX];
	uint8_t **d = (uint8_t **)ptrs;
	uint8_t *pp = d[disks - 2], *qq = d[disks - 1];
	int z = (int)stop, lo = (int)start;
	struct xsyn_k K;
	size_t off = 0;

	if (nw) {
		for (unsigned i = 0; i < nw; i++)
			w[i] = d[start + i];
		d = w;
		z = (int)nw - 1;
		lo = 0;
	}
	xsyn_k_make(&K, start, stop);
	for (; off + U * VB <= len; off += U * VB)
		xsyn_step(d, z, lo, start, pp, qq, off, U, 0, 0, &K);
	if (off < len)
		xsyn_tail(disks, start, stop, ptrs, off, len);
}

RX_INLINE void xsyn_u(unsigned disks, unsigned start, unsigned stop,
		      size_t len, void **ptrs, unsigned U)
{
	RX_BY_WIDTH(stop - start + 1, XSYN_FIXED_MAX, xsyn_run, disks, start, stop,
		    len, ptrs, U);
}

/* Also the GFNI xor_syndrome kernels' loop in one band (rx_xsyn_bw_band,
 * simd_avx512.h; xsyn_band, simd_avx512_gfni.h). */
void RX_SHARED(raidx__avx512_xsyn_x1)(unsigned disks, unsigned start,
				      unsigned stop, size_t len, void **ptrs)
{
	xsyn_u(disks, start, stop, len, ptrs, 1);
}

/* Out of line: xsyn_x4 tail-calls them, as gen_x4; both are also the GFNI
 * xor_syndrome kernels' loops on two-block windows in that band. */
void RX_SHARED(raidx__avx512_xsyn_x2)(unsigned disks, unsigned start,
				      unsigned stop, size_t len, void **ptrs)
{
	xsyn_u(disks, start, stop, len, ptrs, 2);
}

void RX_SHARED(raidx__avx512_xsyn_x4)(unsigned disks, unsigned start,
				      unsigned stop, size_t len, void **ptrs)
{
	xsyn_u(disks, start, stop, len, ptrs, 4);
}

/*
 * x4 runs x2's loop in two cases where its four lines per stream and step
 * cost more than its four Horner chains win (measured with the general
 * loop, before the loops per window width; gfni_avx512x4 has rules of its
 * own, simd_avx512.h):
 *
 * Windows of more than XSYN_X4_MAX_BLOCKS data blocks.  A step of x4 asks
 * for 4 cache lines of every stream it reads (the window's blocks, P and
 * Q).  Up to six streams (24 lines) it is the fastest of this file's
 * kernels; from seven, as soon as the blocks are not in L1, it falls to
 * 0.65-0.85x of x2, whose steps ask for half as many lines (presumably the
 * L1's miss tracking, not counted: no perf counters on this VM).  A
 * throwaway harness timing the two loops on 10 disks, GB/s of window
 * data, 4 KiB / 16 KiB / 64 KiB blocks: [0,7] x4 171 / 95 / 100, x2 145 /
 * 123 / 137; [2,7] 152 / 101 / 88 against 138 / 109 / 114; [0,4] 149 / 92
 * / 84 against 121 / 110 / 120; but [4,7] (six streams) 135 / 98 / 115
 * against 119 / 93 / 107, and [0,3], [1,4] level or ahead in raidx bench.
 * On 18 disks x4 ran 0.64-0.85x of x2 on [4,15], [8,15] and [0,8] from 16
 * KiB.  The selection calibrates on blocks in L1 (select.c), where x4 led
 * on the mid-width windows by a few percent, and picked it for them in
 * some process starts; raidx bench then had it at 0.62-0.72x of the
 * fastest on 8+2's [0,7], [1,7] and [0,4] at 64 KiB (Turin-like Zen 5,
 * 2026-12-03).  The 4 KiB lead of a 10-disk stripe held in L1 is given up
 * here; gfni_avx512x4 keeps it by a rule on the stripe's size.
 *
 * Blocks of 8 MiB or more (from memory, XSYN_X4_X2_MIN_LEN).  The narrow
 * windows ran x4/x2 0.80-0.93 at 16 MiB ([6,7] and [7,7] of 8+2, [14,15]
 * and [15,15] of 16+2; 0.96-0.98 on 2-3 block windows) and 0.92-1.05 at 4
 * MiB, level at 1 MiB and below: two runs of `raidx bench --op
 * xor_syndrome --disks 10,18 --len 64k,256k,1m,4m,16m --impl
 * avx512x1,avx512x2,avx512x4,gfni_avx512x2` on the Turin-like Zen 5
 * (2026-12-02).  8 MiB is between the two measured lengths.
 */
#define XSYN_X4_X2_MIN_LEN ((size_t)8 << 20)

static void xsyn_x4(unsigned disks, unsigned start, unsigned stop, size_t len,
		    void **ptrs)
{
	if (len >= XSYN_X4_X2_MIN_LEN || stop - start >= XSYN_X4_MAX_BLOCKS)
		RX_SHARED(raidx__avx512_xsyn_x2)(disks, start, stop, len, ptrs);
	else
		RX_SHARED(raidx__avx512_xsyn_x4)(disks, start, stop, len, ptrs);
}

/* ---- recovery ---------------------------------------------------------- */

/*
 * P and Q of the survivors for U vectors: p = XOR of surviving data,
 * s = their Q (Horner down to disk 0, failed disks multiply only) with the
 * error mul2_err(top), which the caller folds into its constant tables.
 */
RX_INLINE void surv_step(const struct rx_rplan *pl, uint8_t **d, size_t off,
			 unsigned U, int tail, __mmask64 k, V c, V *p, V *s)
{
	if (!pl->nsurv) {
		RX_UNROLL
		for (unsigned u = 0; u < U; u++)
			p[u] = s[u] = _mm512_setzero_si512();
		return;
	}
	RX_UNROLL
	for (unsigned u = 0; u < U; u++)
		p[u] = s[u] = ld(d[pl->top], off + u * VB, tail, k);
	for (unsigned r = 0; r < pl->nrun; r++) {
		for (unsigned j = 1; j < pl->run[r].dist; j++) {
			RX_UNROLL
			for (unsigned u = 0; u < U; u++)
				s[u] = mul2(s[u], c);
		}
		horner_down(d, (int)pl->run[r].hi, (int)pl->run[r].lo, off, U, tail, k,
			    c, p, s);
	}
	/* Failed disks below the lowest survivor. */
	for (unsigned j = 0; j < pl->low; j++) {
		RX_UNROLL
		for (unsigned u = 0; u < U; u++)
			s[u] = mul2(s[u], c);
	}
}

struct r2_k {
	V c, m0f;
	struct ntab ta, tb; /* A, and B with B * err folded */
};

#define RU 4 /* 256 bytes per recovery step */

RX_INLINE void r2_step(unsigned disks, const struct rx_rplan *pl, void **ptrs,
		       unsigned x, unsigned y, size_t off, unsigned U, int tail,
		       __mmask64 k, const struct r2_k *K, int nt)
{
	uint8_t **d = (uint8_t **)ptrs;
	V p[4], s[4];

	surv_step(pl, d, off, U, tail, k, K->c, p, s);
	uint8_t *pp = d[disks - 2], *qq = d[disks - 1], *dx_ = d[x], *dy_ = d[y];
	RX_UNROLL
	for (unsigned u = 0; u < U; u++) {
		V pxy = xor2(p[u], ld(pp, off + u * VB, tail, k));
		V qxy = xor2(s[u], ld(qq, off + u * VB, tail, k));
		V dx = xor3(nlo(pxy, K->ta.lo, K->m0f), nhi(pxy, K->ta.hi, K->m0f),
			    nlo(qxy, K->tb.lo, K->m0f));
		dx = xor2(dx, nhi(qxy, K->tb.hi, K->m0f));
		put(dx_, off + u * VB, dx, tail, k, nt);
		put(dy_, off + u * VB, xor2(pxy, dx), tail, k, nt);
	}
}

/*
 * nt: stream the rebuilt blocks from `head`, the first offset where both
 * are 64-byte aligned (raidx__rec_nt_head); the bytes before it and the
 * last partial vector take masked normal stores.
 */
RX_INLINE void recov_2data_u(unsigned disks, size_t len, unsigned faila,
			     unsigned failb, void **ptrs, int nt, size_t head)
{
	struct rx_rplan pl;
	struct r2_k K;
	uint8_t a, b;
	size_t off = 0;

	rx_rplan_make(&pl, disks - 2, faila, failb);
	raidx__recov_coef(faila, failb, &a, &b);
	K.c = _mm512_set1_epi8(0x1d);
	K.m0f = _mm512_set1_epi8(0x0f);
	K.ta = ntab_make(a, 0);
	K.tb = ntab_make(b, raidx__gf_mul[b][pl.nsurv ? mul2_err(pl.top) : 0]);
	if (head) {
		r2_step(disks, &pl, ptrs, faila, failb, 0, 1, 1,
			rx_prefix_mask(head), &K, 0);
		off = head;
	}
	for (; off + RU * VB <= len; off += RU * VB)
		r2_step(disks, &pl, ptrs, faila, failb, off, RU, 0, 0, &K, nt);
	for (; off < len; off += VB)
		r2_step(disks, &pl, ptrs, faila, failb, off, 1, 1,
			rx_prefix_mask(len - off), &K, 0);
	if (nt)
		_mm_sfence();
}

struct rdp_k {
	V c, m0f;
	struct ntab ti; /* g^-x with the error folded */
};

RX_INLINE void rdp_step(unsigned disks, const struct rx_rplan *pl, void **ptrs,
			unsigned x, size_t off, unsigned U, int tail,
			__mmask64 k, const struct rdp_k *K, int nt)
{
	uint8_t **d = (uint8_t **)ptrs;
	V p[4], s[4];

	surv_step(pl, d, off, U, tail, k, K->c, p, s);
	uint8_t *pp = d[disks - 2], *qq = d[disks - 1], *dx_ = d[x];
	RX_UNROLL
	for (unsigned u = 0; u < U; u++) {
		V qx = xor2(s[u], ld(qq, off + u * VB, tail, k));
		V dx = xor2(nlo(qx, K->ti.lo, K->m0f), nhi(qx, K->ti.hi, K->m0f));
		put(dx_, off + u * VB, dx, tail, k, nt);
		put(pp, off + u * VB, xor2(p[u], dx), tail, k, nt);
	}
}

RX_INLINE void recov_datap_u(unsigned disks, size_t len, unsigned faila,
			     void **ptrs, int nt, size_t head)
{
	struct rx_rplan pl;
	struct rdp_k K;
	uint8_t ginv = raidx__gf_inv[raidx__gf_exp[faila]];
	size_t off = 0;

	rx_rplan_make(&pl, disks - 2, faila, faila);
	K.c = _mm512_set1_epi8(0x1d);
	K.m0f = _mm512_set1_epi8(0x0f);
	K.ti = ntab_make(ginv, raidx__gf_mul[ginv][pl.nsurv ? mul2_err(pl.top) : 0]);
	if (head) {
		rdp_step(disks, &pl, ptrs, faila, 0, 1, 1, rx_prefix_mask(head),
			 &K, 0);
		off = head;
	}
	for (; off + RU * VB <= len; off += RU * VB)
		rdp_step(disks, &pl, ptrs, faila, off, RU, 0, 0, &K, nt);
	for (; off < len; off += VB)
		rdp_step(disks, &pl, ptrs, faila, off, 1, 1,
			 rx_prefix_mask(len - off), &K, 0);
	if (nt)
		_mm_sfence();
}

/* Out of line, so that the twins below run this very machine code below
 * their bound (as gfni_avx512's, simd_avx512_gfni.h). */
RX_NOINLINE void recov_2data_avx512(unsigned disks, size_t len, unsigned faila,
				    unsigned failb, void **ptrs)
{
	recov_2data_u(disks, len, faila, failb, ptrs, 0, 0);
}

RX_NOINLINE void recov_datap_avx512(unsigned disks, size_t len, unsigned faila,
				    void **ptrs)
{
	recov_datap_u(disks, len, faila, ptrs, 0, 0);
}

/*
 * The streaming twins ("avx512nt"), for the recoveries' large class, as
 * gfni_avx512nt (simd_avx512_gfni.h): streaming only beyond the bound,
 * this kernel's own loop below it.  Over avx512 above the bound, three
 * runs of `raidx bench --op recov_2data,recov_datap --disks 6,10,18,34
 * --len 4m,8m,16m --impl avx512,avx512nt,... --no-recheck` (Turin-like
 * Zen 5, 2026-12-03): 0.95-1.57, median 1.22 on 6 disks, 1.12 on 10,
 * 1.13 on 18, 1.03 on 34.  For AVX-512 CPUs without GFNI (Skylake-SP,
 * Cascade Lake), where avx512 is the recoveries' pick.
 */
static void recov_2data_avx512nt(unsigned disks, size_t len, unsigned faila,
				 unsigned failb, void **ptrs)
{
	long head = raidx__rec_nt_head(disks, len, ptrs[faila], ptrs[failb], VB, 1);

	if (head < 0)
		recov_2data_avx512(disks, len, faila, failb, ptrs);
	else
		recov_2data_u(disks, len, faila, failb, ptrs, 1, (size_t)head);
}

static void recov_datap_avx512nt(unsigned disks, size_t len, unsigned faila,
				 void **ptrs)
{
	long head = raidx__rec_nt_head(disks, len, ptrs[faila], ptrs[disks - 2], VB, 1);

	if (head < 0)
		recov_datap_avx512(disks, len, faila, ptrs);
	else
		recov_datap_u(disks, len, faila, ptrs, 1, (size_t)head);
}

/*
 * Priorities: gen x4 > x2 > x1 (more independent chains per step win while
 * 8 P/Q registers fit; Linux's measurements agree on Skylake-SP), x4nt below
 * them all (only better past the cache); xor_syndrome x2 first, since its
 * windows are short and the seed measurements (thread 002) found x2 ahead of
 * x4 there.  The bench/selection can override any of these.
 */
RX_TABLE(avx512) = {
	RX_ENTRY("avx512", RAIDX_OP_XOR_GEN, 50, 1, F_AVX512, xor_gen, xor_gen_avx512, 0),
	RX_ENTRY("avx512nt", RAIDX_OP_XOR_GEN, 46, 1, F_AVX512, xor_gen, xor_gen_avx512nt, RAIDX__F_NT),
	RX_ENTRY("avx512", RAIDX_OP_XOR_ACC, 50, 1, F_AVX512, xor_gen, xor_acc_avx512, 0),
	RX_ENTRY("avx512x1", RAIDX_OP_GEN_SYNDROME, 47, 1, F_AVX512, gen, gen_x1, 0),
	RX_ENTRY("avx512x2", RAIDX_OP_GEN_SYNDROME, 49, 1, F_AVX512, gen, gen_x2, 0),
	RX_ENTRY("avx512x4", RAIDX_OP_GEN_SYNDROME, 50, 1, F_AVX512, gen, gen_x4, 0),
	RX_ENTRY("avx512x4nt", RAIDX_OP_GEN_SYNDROME, 46, 1, F_AVX512, gen,
		 RX_SHARED(raidx__avx512_gen_x4nt), RAIDX__F_NT),
	RX_ENTRY("avx512x1", RAIDX_OP_XOR_SYNDROME, 48, 1, F_AVX512, xsyn,
		 RX_SHARED(raidx__avx512_xsyn_x1), 0),
	RX_ENTRY("avx512x2", RAIDX_OP_XOR_SYNDROME, 50, 1, F_AVX512, xsyn,
		 RX_SHARED(raidx__avx512_xsyn_x2), 0),
	RX_ENTRY("avx512x4", RAIDX_OP_XOR_SYNDROME, 49, 1, F_AVX512, xsyn, xsyn_x4, 0),
	RX_ENTRY("avx512", RAIDX_OP_RECOV_2DATA, 50, 1, F_AVX512, r2, recov_2data_avx512, 0),
	RX_ENTRY("avx512", RAIDX_OP_RECOV_DATAP, 50, 1, F_AVX512, rdp, recov_datap_avx512, 0),
	RX_ENTRY("avx512nt", RAIDX_OP_RECOV_2DATA, 47, 1, F_AVX512, r2, recov_2data_avx512nt, RAIDX__F_NT),
	RX_ENTRY("avx512nt", RAIDX_OP_RECOV_DATAP, 47, 1, F_AVX512, rdp, recov_datap_avx512nt, RAIDX__F_NT),
	RAIDX__END,
};
