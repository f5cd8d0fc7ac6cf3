/*
 * x86_kernels.h - the XOR, P/Q and recovery kernels written once over an
 * abstract SIMD vector, instantiated by sse2.c, ssse3.c and avx2.c (and
 * usable by any other x86 vector ISA file).  Each including file defines the
 * vector dialect, then includes this header, which defines static kernels;
 * the file lists the ones it registers in its table.  The design notes (the
 * maths, the measurements behind the unrolls) are in avx2.c.
 *
 * The including file provides:
 *
 *   typedef ... rxv;                      the vector type
 *   #define RXV_BYTES n                   its size in bytes (16, 32, 64)
 *   rxv  rxv_load(const void *p);         unaligned load
 *   void rxv_store(void *p, rxv v);       unaligned store
 *   rxv  rxv_xor(rxv a, rxv b);
 *   rxv  rxv_mul2(rxv v);                 GF(2^8) multiply of every byte by 2
 *
 * and may provide (each guarded by the macro that names it):
 *
 *   RXV_HAVE_STREAM: void rxv_stream(void *p, rxv v)  non-temporal store to
 *       an RXV_BYTES-aligned p, and void rxv_stream_fence(void);
 *   RXV_HAVE_MULC: a multiply of every byte by a constant c, typically with
 *       nibble tables and a byte shuffle:
 *       typedef ... rxv_ctab;  rxv_ctab rxv_ctab_make(uint8_t c);
 *       rxv rxv_mulc(rxv v, const rxv_ctab *t);
 *   RXV_MUL2_XOR(q, d): mul2(q) ^ d fused (e.g. ternary logic), default
 *       rxv_xor(rxv_mul2(q), d);
 *   RXV_XOR3(a, b, c): a ^ b ^ c fused, default two rxv_xor().
 *
 * and selects what to generate with RXK_WANT_XOR (xor_gen and xor_acc),
 * RXK_WANT_PQ (gen_syndrome and xor_syndrome) and RXK_WANT_RECOV
 * (recov_2data and recov_datap, needs RXV_HAVE_MULC).
 *
 * Generated kernels (all static, all take len a positive multiple of
 * RXV_BYTES, so their granule is one vector; the unrolled main loop is
 * followed by a one-vector loop for the rest):
 *
 *   rxk_xor_gen, rxk_xor_acc                      raidx__xor_fn
 *   rxk_xor_gen_stream                            (RXV_HAVE_STREAM)
 *   rxk_gen_x1, rxk_gen_x2, rxk_gen_x4            raidx__gen_fn
 *   rxk_gen_x2nt, rxk_gen_x4nt                    (RXV_HAVE_STREAM)
 *   rxk_xsyn_x1, rxk_xsyn_x2, rxk_xsyn_x4         raidx__xsyn_fn
 *   rxk_recov_2data_x1/x2/x4                      raidx__r2_fn
 *   rxk_recov_datap_x1/x2/x4                      raidx__rdp_fn
 *
 * Tuning knobs (define before including): RXK_XOR_UNROLL (vectors per XOR
 * step, default 8), RXK_XOR_FIXED_MAX (4 or 8: input counts with a
 * dedicated loop; with 8, a 9-input loop too, for RXK_XOR_PASS_MAX),
 * RXK_XSYN_MUL2_MAX (largest xor_syndrome start done by
 * repeated doubling rather than a constant multiply, default 2),
 * RXK_XSYN_FIXED_MAX (widest xor_syndrome window with its own fixed loop
 * in x2, at most and by default 8), RXK_GEN_FIXED_MAX (the same for
 * gen_syndrome's data blocks, at most and by default 12).
 *
 * No function here reads or writes outside [ptr, ptr + len), and every
 * kernel loads all inputs of a block of vectors before it stores the outputs
 * of that block, so xor_gen's dst may be one of its sources.
 */
#ifndef RX_X86_KERNELS_H
#define RX_X86_KERNELS_H
#else
#error "x86_kernels.h is a template: include it once per translation unit"
#endif

#include <xmmintrin.h>

#include "raidx_impl.h"
#include "x86_groups.h"

#if defined(__GNUC__)
#define RXK_INLINE static inline __attribute__((always_inline))
#define RXK_UNUSED __attribute__((unused))
#else
#define RXK_INLINE static inline
#define RXK_UNUSED
#endif

#ifndef RXV_MUL2_XOR
#define RXV_MUL2_XOR(q, d) rxv_xor(rxv_mul2(q), (d))
#endif
#ifndef RXV_XOR3
#define RXV_XOR3(a, b, c) rxv_xor(rxv_xor((a), (b)), (c))
#endif

#define RXK_VB ((size_t)RXV_BYTES)
#define RXK_MAXU 8 /* largest unroll any template below uses */

/*
 * Stripes with many blocks beyond L2; first, what software prefetch did
 * there (the loop is gone, its thresholds stay).  With more than
 * about 20 streams the hardware prefetchers stop keeping up: here (Zen 3)
 * gen_syndrome 32+2 on 16 MiB blocks ran at 0.5-0.7x of a plain read of the
 * same blocks, and 20+2 on 1 MiB blocks (L3) at 20 GB/s where 16+2 runs at
 * 55.  Each Horner step then also prefetched every line it would need
 * a set distance later in the same block.  Measured (median of 3
 * processes, interleaved, this header's kernels with and without):
 *   distance on 32+2 x 16 MiB, avx2x2nt: 256 B 0.8x, 512 B 0.9-1.4x,
 *     1024 B 1.4-1.7x, 2048 B 1.4-1.5x of memread (which does not prefetch)
 *   22-34 disks, 1 MiB: gen_syndrome avx2x2 1.5-2.1x, recov_2data 1.3-2x;
 *     16 MiB: 1.1-1.7x (26 disks one exception, 0.85x)
 *   10 and 18 disks, 1 MiB: 0.75-0.9x (the hardware was keeping up and the
 *     prefetches cost load slots); 16 MiB: 0.9-1.1x, within the noise
 * So prefetching was on for blocks of RXK_MANY_MIN_LEN or more when the
 * call touched RXK_MANY_MIN_STREAMS blocks or more.  There the step was at
 * most 64 bytes per block (RXK_STEP64_U): the x4 kernels, 128 bytes a
 * step, ran at half the speed of x2 on 32+2 x 16 MiB, with or without
 * prefetching, and at the speed of x2 with the 64-byte step (32 bytes: no
 * better, within noise).
 * Prefetching every call with blocks of 4 MiB or more (10 and 18 disks at
 * 16 MiB too) was tried: recov_2data up to 1.2x, xor_syndrome 0.85-1.0x,
 * so the stream count stays the condition.
 * Since then gen_syndrome and recovery do such stripes in chunks and
 * passes over groups of 12 blocks instead (rxk_gen_grouped,
 * rxk_rec_grouped: 1.1-2.2x of the prefetching loop at 26-34 disks), and
 * xor_syndrome's windows too (rxk_xsyn_grouped, with a constant multiply
 * in its first pass: 1.1-2.8x of it), so the prefetching loop is gone;
 * its thresholds (RXK_MANY_STREAMS) and its 64-byte step (RXK_STEP64_U)
 * are what those use.
 */
#ifndef RXK_MANY_MIN_LEN
#define RXK_MANY_MIN_LEN ((size_t)256 << 10)
#endif
#define RXK_STEP64_U(U) ((U) > 2 * 32 / RXV_BYTES ? 2 * 32 / RXV_BYTES : (U))
#ifndef RXK_MANY_MIN_STREAMS
#define RXK_MANY_MIN_STREAMS 21
#endif
/* A call with that many streams on blocks that long (chunks and group
 * passes, below). */
#define RXK_MANY_STREAMS(len, streams)                                         \
	((len) >= RXK_MANY_MIN_LEN && (streams) >= RXK_MANY_MIN_STREAMS)
/*
 * gen_syndrome and the recoveries go to chunks and group passes (below)
 * from one stream fewer on blocks of 1 MiB or more (RXK_GRP_LONG_LEN):
 * 20 blocks (18+2, RXK_GRP_LONG_STREAMS), where the one-pass loop ran
 * 0.70-0.86x of the grouped one.  Against the code
 * before, avx2x4 (and avx2x4nt) over ISA-L in the same run, median of
 * five alternations of `raidx bench --op gen_syndrome,recov_2data,
 * recov_datap --disks 18,19,20 --len 256k,1m,4m,16m --impl
 * avx2x4,avx2x4nt,isal` (2026-12-01): 20 disks at 1 MiB gen_syndrome 1.16
 * (nt 1.06), recov_2data 1.20-1.24, recov_datap 1.31-1.42; at 4 and
 * 16 MiB 1.04-1.27.  Not further: 20 disks at 256 KiB lost 0.90-1.00 in
 * a build that grouped them, 18 disks at 1 MiB 0.83-0.93; 19 and 18 disks
 * from 4 MiB gained 5-15% with normal stores but the non-temporal
 * gen_syndrome twin (which groups with normal stores) lost 0.89-1.00,
 * and the ungrouped cells of those runs moved by up to 10% either way.
 */
#ifndef RXK_GRP_LONG_LEN
#define RXK_GRP_LONG_LEN ((size_t)1 << 20)
#endif
#ifndef RXK_GRP_LONG_STREAMS
#define RXK_GRP_LONG_STREAMS 20
#endif
/*
 * ... and from 18 blocks (16+2, RXK_GRP_MEM_STREAMS) on blocks of 2 MiB
 * or more (RXK_GRP_MEM_LEN), where the stripe (36 MiB and up) no longer
 * fits this machine's 32 MiB L3 and comes from DRAM.  The earlier
 * bench-against-ISA-L alternations above could not see this through the
 * noise (18-19 disks from 4 MiB looked like 5-15%, with the non-temporal
 * twin 0.89-1.00), so it was measured with a throwaway program that
 * switched between the two paths from call to call in one process on the
 * same blocks (a runtime flag in a test build), 0.4-0.6 s of alternating
 * calls per cell, grouped over one-pass speed, median, two runs:
 *   recov_2data/recov_datap avx2x4, three lost blocks each (bottom,
 *   middle, top): 18 disks at 2, 4, 16 MiB 1.07-1.32; 19 disks
 *   1.09-1.36; 17 disks 0.97-1.20; 16 disks 0.88-1.16; 14 disks
 *   0.91-1.05; at 1 MiB (in L3) 0.82-1.11 up to 18 disks, 0.96-1.23
 *   at 19.  avx2x1 gained less (18 disks 0.98-1.24).
 *   gen_syndrome, three runs: grouped avx2x4 (normal stores) over the
 *   one-pass avx2x4nt, selection's pick for long blocks: 18 disks
 *   0.97-1.36 at 2, 4 and 16 MiB (one cell below 1.13), 19 disks
 *   1.05-1.42, 17 disks 0.93-0.97 in one run and 0.95-1.15 in the
 *   others, 16 disks 0.93-1.09, 10 and 14 disks 0.85-1.02 (the one-pass
 *   avx2x4 0.82-0.98).
 * So from 18 blocks, where the runs agree.  In the bench, five
 * alternations with the code before (`raidx bench --op gen_syndrome,
 * recov_2data,recov_datap --disks 17,18,19 --len 1m,2m,16m --impl
 * avx2x4,avx2x4nt,isal`, each kernel over ISA-L in its run, median):
 * the 32 changed rows (18 and 19 disks from 2 MiB) 1.00-1.67, median
 * 1.20 (gen_syndrome 1.04-1.33); the 40 unchanged ones 0.85-1.46, median
 * 1.04, which is the noise of such runs.
 */
#ifndef RXK_GRP_MEM_LEN
#define RXK_GRP_MEM_LEN ((size_t)2 << 20)
#endif
#ifndef RXK_GRP_MEM_STREAMS
#define RXK_GRP_MEM_STREAMS 18
#endif
#define RXK_GROUP_STREAMS(len, streams)                                        \
	(RXK_MANY_STREAMS(len, streams) ||                                     \
	 ((len) >= RXK_GRP_LONG_LEN && (streams) >= RXK_GRP_LONG_STREAMS) ||   \
	 ((len) >= RXK_GRP_MEM_LEN && (streams) >= RXK_GRP_MEM_STREAMS))

/*
 * Beyond L2, 64-byte steps for every kernel.  A call whose blocks (len
 * times the blocks it reads or writes) exceed RXK_STEP64_MIN_BYTES takes
 * the same 64-byte step (one line of each block) as the prefetching loop,
 * without the prefetches.  The x4 kernels' 128-byte step lost to x2 there,
 * consistently from run to run, while in L1/L2 it wins: avx2x4 / avx2x2 in
 * `raidx bench --op recov_datap,recov_2data,xor_syndrome --disks 10,18
 * --len 64k,1M --impl avx2x2,avx2x4`, two runs each:
 *   128-byte step:  recov_datap 16+2 lost 15, 1 MiB 0.64-0.65, 64 KiB
 *     0.83-0.85; recov_2data 16+2 lost 14,15, 1 MiB 0.76-0.77;
 *     xor_syndrome 18 disks [4,8], 1 MiB 0.82-0.84
 *   64-byte step from 512 KiB: the same cells 0.96-1.17, 1.03-1.05,
 *     1.04-1.19, 1.05-1.09; every other cell 0.81-1.28 both ways, as
 *     before.  A 1 MiB threshold gave the same picture (the cells in
 *     between, 8+2 at 64 KiB, are within the noise either way).
 * The 128-byte step keeps two lines of every block in flight per step, and
 * beyond L2 that many outstanding misses across 10-20 streams is what
 * costs (the same loss the prefetching loop showed at 32+2; 32-byte steps
 * were no better than 64).  512 KiB is this machine's L2 (Zen 2/3/4 have
 * 512 KiB-1 MiB; the rule is about outstanding misses, so it does not need
 * to track the exact size).
 */
#ifndef RXK_GRP_CHUNK
#define RXK_GRP_CHUNK ((size_t)16 << 10)
#endif
#ifndef RXK_GRP_MAX
#define RXK_GRP_MAX 12
#endif

/*
 * Crowded blocks: many data blocks at the same offset in their pages.
 * Then every block's line at a given offset falls in the same set of the
 * L1 (64 sets of 8 ways on Zen 3: bits 6-11 of the address pick the set),
 * and a one-pass loop that reads 16 blocks side by side asks one set to
 * hold 16 lines, and the lines the hardware prefetches next, at once.
 * That is how md's stripe cache has its blocks (one page each), and how
 * large malloc()s come out (page-aligned plus a fixed header), so it is
 * the common case, not a corner: `raidx bench --page-aligned` (2026-12-01,
 * before this, two runs, each against a run without) had avx2x4
 * gen_syndrome at 0.56-0.85x of its speed on staggered blocks for 8+2 to
 * 24+2 at 4 KiB, and 4+2 at 0.87-1.01x.
 * What it is, measured with throwaway programs on this Zen 3:
 *   - only the data blocks' offsets matter: 16+2 with the data blocks
 *     aligned and P, Q staggered ran as slowly as all aligned (45 GB/s),
 *     and the other way round as fast as all staggered (64);
 *   - the loss grows with the blocks sharing a set: 16+2 with k data
 *     blocks at each offset ran 67, 61, 56, 51, 45 GB/s for k = 1, 4, 8,
 *     12, 16;
 *   - reordering the loads (vectors of alternate blocks in rotated
 *     order), software prefetch 256 or 512 bytes ahead, and 64-byte
 *     steps did not help (0.80-1.0x of the plain loop);
 *   - passes over groups of at most 6 data blocks (6 lines, plus P and Q,
 *     fill the 8 ways), with P and Q carried between the passes in their
 *     blocks as rxk_gen_grouped does beyond L2, did: page-aligned, one
 *     process, interleaved, against the plain x4 loop: 4 KiB 12+2 1.2x,
 *     16+2 1.2-1.3x, 24+2 1.17x, 8+2 1.0x, 7+2 0.94x; 16 KiB 1.36-1.55x
 *     and 64 KiB 1.1-1.57x for 8+2 to 24+2.  Groups of 4 or 5 were
 *     slower, 7 the same, 8 slower; 2 KiB chunks the same as 16 KiB.
 *     On staggered blocks the passes cost (0.83-0.95x), so they are
 *     taken only where the blocks crowd.
 * In the library, against the one-pass loop kept as a temporary second
 * kernel in the same binary, three runs of `raidx bench --op
 * gen_syndrome --disks 6,10,12,14,18,26,34 --len 4k,16k,64k,256k --impl
 * avx2x4,<one-pass>,isal --page-aligned` (2026-12-01), avx2x4 over the
 * one-pass loop, lowest-highest of the three: at 4 KiB 10+2 1.06-1.09,
 * 12+2 1.08-1.23, 16+2 0.98-1.22, 24+2 1.11-1.16, 32+2 1.01-1.13; at 16
 * KiB-256 KiB 1.06-1.71 (most cells 1.15-1.45); 4+2 and 8+2, which run
 * the same code either way, 0.82-1.10, the noise of those runs.  Beyond
 * L2 the crowded wide stripes take groups of 6 instead of 12
 * (RXK_GRP_MAX): 24+2 and 32+2 at 256 KiB 1.24-1.48.
 * The threshold: with RXK_CROWD_MAX 6 instead of 8 (three runs, the same
 * command on 9-11 disks), 7+2 ran 0.83-0.90x at 4 KiB and 8+2 0.90-0.94x
 * (8+2 gained at 16 KiB, 1.09-1.43x, and was even from 64 KiB); 9+2,
 * grouped either way, 0.99-1.02 at 4 KiB and 1.16-1.51 at 16-64 KiB.
 * The recoveries were tried the same way (rxk_rec_grouped with groups of
 * 6).  recov_2data is not grouped: 0.72-0.85x at 24+2 4 KiB and 0.83-0.94x
 * at 10+2 to 16+2 256 KiB (its passes carry two partial syndromes and
 * test for the lost blocks), in one run of `raidx bench --op
 * recov_2data,recov_datap --disks 10,12,14,18,26 --len 4k,64k,256k
 * --page-aligned`.  recov_datap is, from RXK_CROWD_RDP_MIN_LEN: three runs
 * of `raidx bench --op recov_datap --disks 10,12,14,18,26 --len
 * 4k,16k,64k,256k --impl avx2x4,<one-pass> --page-aligned`, median of the
 * nine cells (three lost blocks) per disk count: 16 KiB 1.04-1.20x, 64
 * KiB 1.13-1.21x, 256 KiB 1.01-1.22x for 10+2 to 24+2, but 4 KiB
 * 0.96-1.09x (16+2 0.96, 12+2 0.97), where the one-pass loop stays.
 * rxk_crowded() counts the data blocks that start in the same L1 set (a
 * dozen operations for 16 pointers, against about a microsecond of work
 * for 16 x 4 KiB), and a call is grouped when more than RXK_CROWD_MAX do.
 */
#ifndef RXK_CROWD_MAX
#define RXK_CROWD_MAX 8
#endif
#ifndef RXK_CROWD_GROUP
#define RXK_CROWD_GROUP 6
#endif
#ifndef RXK_CROWD_RDP_MIN_LEN
#define RXK_CROWD_RDP_MIN_LEN ((size_t)16 << 10)
#endif
/* More than `max` of the n blocks start in one L1 set. */
RXK_INLINE int rxk_crowded_over(void *const *ptrs, unsigned n, unsigned max)
{
	uint8_t h[64] = { 0 };

	if (n <= max)
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (++h[((uintptr_t)ptrs[i] >> 6) & 63] > max)
			return 1;
	return 0;
}

RXK_INLINE int rxk_crowded(void *const *ptrs, unsigned n)
{
	return rxk_crowded_over(ptrs, n, RXK_CROWD_MAX);
}

#ifndef RXK_STEP64_MIN_BYTES
#define RXK_STEP64_MIN_BYTES ((size_t)512 << 10)
#endif

/* The main loop of a kernel over [0, len) in steps of U vectors, 64-byte
 * steps beyond RXK_STEP64_MIN_BYTES (below); BLOCK(o, u) processes u
 * vectors at offset o; streams = blocks the call reads or writes. */
#define RXK_LOOP(len, streams, U, BLOCK)                                       \
	do {                                                                   \
		size_t o_ = 0;                                                 \
		if ((len) * (size_t)(streams) >= RXK_STEP64_MIN_BYTES)        \
			for (; o_ + RXK_STEP64_U(U) * RXK_VB <= (len);         \
			     o_ += RXK_STEP64_U(U) * RXK_VB)                   \
				BLOCK(o_, RXK_STEP64_U(U));                    \
		for (; o_ + (U) * RXK_VB <= (len); o_ += (U) * RXK_VB)         \
			BLOCK(o_, (U));                                        \
		for (; o_ < (len); o_ += RXK_VB)                               \
			BLOCK(o_, 1);                                          \
	} while (0)

/*
 * Beyond RXK_STEP64_MIN_BYTES (and so on every grouped path, which
 * starts later) every loop above steps RXK_STEP64_U(U) vectors
 * whatever the unroll U, so with 32-byte vectors the x4 kernels run the x2
 * kernels' loop there; they call the x2 kernel instead (the SSE kernels' x4
 * steps 64 bytes itself and is left alone), so that one copy of the loop
 * runs for both.  Two copies of the same source had run at different
 * speeds, by where the compiler placed them: avx2x4/avx2x2 0.83-0.87 on
 * xor_syndrome 18 disks [8,15] at 64 KiB and recov_2data 18 disks lost
 * 14,15 at 64 KiB, from run to run, with the very same loop; selection
 * then had a 15% difference to get right that the kernels did not have.
 * The 64-byte step itself is not changed by this.
 */
#define RXK_X4_AS_X2(len, streams)                                             \
	(RXK_STEP64_U(4) == 2 &&                                               \
	 (len) * (size_t)(streams) >= RXK_STEP64_MIN_BYTES)

/* Byte address of vector k at offset off in block p. */
#define RXK_AT(p, off, k) ((const uint8_t *)(p) + (off) + (size_t)(k) * RXK_VB)
#define RXK_ATW(p, off, k) ((uint8_t *)(p) + (off) + (size_t)(k) * RXK_VB)

RXK_INLINE void rxk_put(void *p, rxv v, int nt)
{
#ifdef RXV_HAVE_STREAM
	if (nt) {
		rxv_stream(p, v);
		return;
	}
#endif
	(void)nt;
	rxv_store(p, v);
}

/* ========================================================================
 * XOR
 * ===================================================================== */
#ifdef RXK_WANT_XOR

#ifndef RXK_XOR_UNROLL
#define RXK_XOR_UNROLL 8
#endif
#ifndef RXK_XOR_FIXED_MAX
#define RXK_XOR_FIXED_MAX 8
#endif
/* Inputs of one pass of rxk_xor_grouped (below): dst and 8 sources, so
 * that 16 sources take two passes, not three (measured there). */
#if RXK_XOR_FIXED_MAX >= 8
#define RXK_XOR_PASS_MAX 9
#else
#define RXK_XOR_PASS_MAX RXK_XOR_FIXED_MAX
#endif

/*
 * N inputs (N a compile-time constant) whose pointers stay in registers for
 * the whole call: one pass over the blocks, U vectors at a time.
 */
RXK_INLINE void rxk_xor_fixed(uint8_t *dst, const uint8_t *const *in,
			      size_t len, unsigned N, int nt)
{
	const uint8_t *p[RXK_XOR_PASS_MAX];
	size_t off = 0;

	for (unsigned i = 0; i < N; i++)
		p[i] = in[i];
	for (; off + RXK_XOR_UNROLL * RXK_VB <= len; off += RXK_XOR_UNROLL * RXK_VB) {
		rxv v[RXK_XOR_UNROLL];
		/* Source by source, consecutive vectors of one block, rather
		 * than all sources at one offset back to back (which map to
		 * the same L1 set when blocks are page-aligned). */
		for (unsigned k = 0; k < RXK_XOR_UNROLL; k++)
			v[k] = rxv_load(RXK_AT(p[0], off, k));
		for (unsigned i = 1; i < N; i++)
			for (unsigned k = 0; k < RXK_XOR_UNROLL; k++)
				v[k] = rxv_xor(v[k], rxv_load(RXK_AT(p[i], off, k)));
		for (unsigned k = 0; k < RXK_XOR_UNROLL; k++)
			rxk_put(RXK_ATW(dst, off, k), v[k], nt);
	}
	for (; off < len; off += RXK_VB) {
		rxv v = rxv_load(p[0] + off);
		for (unsigned i = 1; i < N; i++)
			v = rxv_xor(v, rxv_load(p[i] + off));
		rxk_put(dst + off, v, nt);
	}
}

/*
 * Any number of inputs: the U-vector block of the result is held in
 * registers while the sources are folded in four at a time (four pointer
 * loads per 4*U vector loads, and a loop branch per four sources, instead of
 * a loop over sources around every vector).  `first` starts the sum (dst
 * itself for xor_acc), then the n pointers of `rest` are added.
 */
RXK_INLINE void rxk_xor_block_many(uint8_t *dst, const uint8_t *first,
				   const uint8_t *const *rest, unsigned n,
				   size_t off, unsigned U, int nt)
{
	rxv a[RXK_XOR_UNROLL];
	unsigned i = 0;

	for (unsigned k = 0; k < U; k++)
		a[k] = rxv_load(RXK_AT(first, off, k));
	for (; i + 4 <= n; i += 4) {
		const uint8_t *p0 = rest[i], *p1 = rest[i + 1];
		const uint8_t *p2 = rest[i + 2], *p3 = rest[i + 3];
		for (unsigned k = 0; k < U; k++) {
			rxv x = rxv_xor(rxv_load(RXK_AT(p0, off, k)), rxv_load(RXK_AT(p1, off, k)));
			rxv y = rxv_xor(rxv_load(RXK_AT(p2, off, k)), rxv_load(RXK_AT(p3, off, k)));
			a[k] = RXV_XOR3(a[k], x, y);
		}
	}
	for (; i < n; i++) {
		const uint8_t *p0 = rest[i];
		for (unsigned k = 0; k < U; k++)
			a[k] = rxv_xor(a[k], rxv_load(RXK_AT(p0, off, k)));
	}
	for (unsigned k = 0; k < U; k++)
		rxk_put(RXK_ATW(dst, off, k), a[k], nt);
}

RXK_INLINE void rxk_xor_few(uint8_t *dst, const uint8_t *const *in,
			     unsigned n, size_t len, int nt);

/*
 * Many sources beyond L2: the chunks and group passes of rxk_gen_grouped.
 * Each chunk of dst (RXK_XOR_GRP_CHUNK, below; RXK_GRP_CHUNK for crowded
 * sources) is made in passes: the first XORs up to
 * RXK_XOR_PASS_MAX (9) sources into dst, each later pass XORs dst (from
 * cache) with up to 8 more, so the memory system streams 7-9 blocks at a
 * time.  (The numbers below up to "Passes of 9" are from passes of 8.)
 * Against the one-pass loop above, in one
 * binary, three runs of `raidx bench --op xor_gen,xor_acc --disks
 * 9,12,16,24 --len 64k,256k,1M,16M` (median per cell):
 *   24 sources  256 KiB 1.08-1.14x, 1 MiB 1.76-1.85x, 16 MiB 1.75-1.76x
 *   16 sources  256 KiB 1.01-1.06x, 1 MiB 1.12-1.52x, 16 MiB 1.15-1.22x
 *   12 sources  1 MiB 0.93-1.19x;  9 sources 0.93-1.02x
 * so it is used from RXK_XOR_GRP_MIN inputs (dst counts for xor_acc) on
 * blocks of RXK_MANY_MIN_LEN or more.  Not when dst is also a source: a later
 * pass would read the dst an earlier pass has written.
 * The non-temporal twin (avx2nt) groups in the same way and then stores
 * normally: every pass but the first reads dst back, so dst is in the cache
 * when the last pass writes it, and a non-temporal store there gains
 * nothing.  Before, the twin kept its one-pass non-temporal loop up to 23
 * inputs and grouped with a non-temporal last pass from 24; against the
 * grouped normal-store kernel, three runs of `raidx bench --op xor_gen
 * --disks 16,18,24,34 --len 1M,16M --impl avx2,avx2nt`: 16-18 sources
 * 0.60-0.92x (so selection's large class lost up to 40% there), 24-34
 * sources 0.97-1.03x.
 * Crowded sources (more than RXK_CROWD_MAX in one L1 set, see rxk_crowded)
 * are grouped at any length, in passes of RXK_CROWD_GROUP inputs.  Against
 * the kernel before, kept as a temporary second kernel in one binary,
 * three runs of `raidx bench --op xor_gen --disks 8,10,12,16,18,24 --len
 * 4k,16k,64k,256k,1m --impl avx2,<before>,isal --page-aligned`
 * (2026-12-01): 16-24 sources 1.33-1.42x at 4 KiB, 1.20-1.38x at 16 KiB,
 * 1.12-1.26x at 64 KiB; 10-12 sources 0.91-1.10x at 4 KiB, 1.07-1.14x at
 * 16 KiB, 1.00-1.12x at 64 KiB; from 256 KiB 0.95-1.12x (16 sources and
 * more were grouped there already, in passes of 8).
 * Passes of 9, shared out evenly, against passes of 8 filled in order
 * (16 sources had taken three passes, the last over dst and one source;
 * 20 took 8, 8 and 6 blocks): in one process on the same blocks, the two
 * switched call by call by a run-time flag in a test build, about 1 ms of
 * calls per sample, 0.5-2 s per cell, speed ratio median (2026-12-02):
 *   avx2 xor_gen, two runs: 16-17 sources 1.03-1.11 at 256 KiB, 1 and
 *   4 MiB; 20-34 sources 1.00-1.11;  xor_acc 15-16 sources 1.04-1.10,
 *   20-24 1.00-1.07;  sse2 and avx2nt 16-24 sources 1.01-1.10
 *   crowded (page-aligned, passes of 6 balanced only), 10-24 sources at
 *   4-256 KiB: 0.99-1.06
 * With passes of 8 balanced the same way, 16-17 sources gained less
 * (1.00-1.06); the second pass is what the 9th input saves.  ISA-L's
 * xor_gen, timed alongside, had been ahead of the old passes at 16-17
 * sources on 256 KiB (1.05-1.10x) and is level with the new ones.
 * Then, in the same way, where to group from: 12-15 inputs on blocks of
 * 2, 4 and 16 MiB (avx2 and avx2nt xor_gen, avx2 xor_acc), grouped over
 * one pass: 0.96-1.36, median 1.13 (two of 24 cells below 1: 12 sources
 * at 2 MiB 0.96, 13 at 16 MiB 0.98); at 1 MiB 0.97-1.16 (12-13 sources
 * below 1), at 256 KiB 0.98-0.99, and 9-11 inputs 0.93-1.13.  So
 * RXK_XOR_GRP_MEM_MIN inputs on blocks of RXK_GRP_MEM_LEN or more (24 MiB
 * a call and up, most of this machine's 32 MiB L3) are grouped too.
 * ISA-L's xor_gen, timed alongside, had run 0.91-1.17x the speed of our
 * one pass there (median 1.05).
 */
#ifndef RXK_XOR_GRP_MIN
#define RXK_XOR_GRP_MIN 16
#endif
/*
 * And in cache: 17 or more inputs on blocks of RXK_XOR_GRP_SMALL_LEN or
 * more are grouped at any length.  In one process (a test build switching
 * the two call by call, 2 ms samples after 0.5 ms of untimed calls, two
 * runs, 2026-12-02), time grouped over one pass on 2-128 KiB blocks,
 * xor_gen with 17, 20, 24 and 34 sources and xor_acc with 16, 20 and 24
 * (17 to 34 inputs): avx2 0.80-0.99 (0.80-0.93 at 16-64 KiB), sse2
 * 0.66-0.98, no cell above 1 in either run; a third run of avx2 at 2-64
 * KiB (18 sources too) 0.85-1.01.  At 1 KiB avx2 ran 0.98-1.14
 * (a pass's set-up is not paid back on short blocks), and with 16 inputs
 * (xor_gen 16 sources, xor_acc 15) 0.94-1.05 (sse2 0.92-0.97): so from 17
 * inputs and 2 KiB.  Even in L2 the core follows 17 streams less well
 * than the 9 of a pass and dst, which stays in L1 or L2 between passes.
 */
#ifndef RXK_XOR_GRP_SMALL_MIN
#define RXK_XOR_GRP_SMALL_MIN 17
#endif
#ifndef RXK_XOR_GRP_SMALL_LEN
#define RXK_XOR_GRP_SMALL_LEN ((size_t)2 << 10)
#endif
#ifndef RXK_XOR_GRP_MEM_MIN
#define RXK_XOR_GRP_MEM_MIN 12
#endif
/* The chunk of those passes for many sources (not for crowded ones, which
 * keep RXK_GRP_CHUNK); the ISA file may set it where it was measured. */
#ifndef RXK_XOR_GRP_CHUNK
#define RXK_XOR_GRP_CHUNK RXK_GRP_CHUNK
#endif

RXK_INLINE int rxk_aliased(const uint8_t *dst, const uint8_t *const *rest,
			   unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (rest[i] == dst)
			return 1;
	return 0;
}

/* The passes over each chunk: `first` and the n blocks of `rest` are
 * N = n + 1 inputs; the first pass reads at most gmax of them, each later
 * pass dst and at most gmax - 1 more.  The fewest passes P that do it
 * read N + P - 1 blocks in all, shared out evenly so that no pass is short
 * of streams (20 inputs in passes of 9: 8, 7, 7 rather than 9, 8, 5).
 * Each pass is rxk_xor_few with normal stores, or pass where the ISA file
 * has a loop of its own for some calls (NULL otherwise; a constant either
 * way, so the test folds away).  A pass gets m inputs, in[0] == dst in
 * every pass after the first (and in the first for xor_acc). */
typedef void (*rxk_xor_pass_fn)(uint8_t *dst, const uint8_t *const *in,
				unsigned m, size_t len);
RXK_INLINE void rxk_xor_grouped(uint8_t *dst, const uint8_t *first,
				const uint8_t *const *rest, unsigned n,
				size_t len, unsigned gmax, size_t chunk,
				rxk_xor_pass_fn pass)
{
	unsigned N = n + 1;
	/* the least P with gmax + (P - 1) * (gmax - 1) >= N (N >= 2) */
	unsigned P = 1 + (N - 2) / (gmax - 1);
	unsigned slots = N + P - 1;

	for (size_t c0 = 0; c0 < len;) {
		size_t c1 = len - c0 > chunk ? c0 + chunk : len;
		const uint8_t *in[RXK_XOR_PASS_MAX];
		unsigned i = 0;

		for (unsigned j = 0; j < P; j++) {
			unsigned m = 0, take = slots / P + (j < slots % P);

			in[m++] = (j ? dst : first) + c0;
			while (m < take)
				in[m++] = rest[i++] + c0;
			if (pass)
				pass(dst + c0, in, m, c1 - c0);
			else
				rxk_xor_few(dst + c0, in, m, c1 - c0, 0);
		}
		c0 = c1;
	}
}

RXK_INLINE void rxk_xor_many(uint8_t *dst, const uint8_t *first,
			      const uint8_t *const *rest, unsigned n, size_t len,
			      int nt)
{
	size_t off = 0;

	if (!rxk_aliased(dst, rest, n)) {
		int crowded = rxk_crowded((void *const *)rest, n);
		if (crowded || (len >= RXK_MANY_MIN_LEN && n + 1 >= RXK_XOR_GRP_MIN) ||
		    (len >= RXK_XOR_GRP_SMALL_LEN && n + 1 >= RXK_XOR_GRP_SMALL_MIN) ||
		    (len >= RXK_GRP_MEM_LEN && n + 1 >= RXK_XOR_GRP_MEM_MIN)) {
			rxk_xor_grouped(dst, first, rest, n, len,
					crowded ? RXK_CROWD_GROUP : RXK_XOR_PASS_MAX,
					crowded ? RXK_GRP_CHUNK : RXK_XOR_GRP_CHUNK, NULL);
			return;
		}
	}
	for (; off + RXK_XOR_UNROLL * RXK_VB <= len; off += RXK_XOR_UNROLL * RXK_VB)
		rxk_xor_block_many(dst, first, rest, n, off, RXK_XOR_UNROLL, nt);
	for (; off < len; off += RXK_VB)
		rxk_xor_block_many(dst, first, rest, n, off, 1, nt);
}

#define RXK_XOR_CASE(N)                                                        \
	case N:                                                                \
		rxk_xor_fixed(dst, in, len, N, nt);                                \
		return;

/* n inputs, n <= RXK_XOR_PASS_MAX. */
RXK_INLINE void rxk_xor_few(uint8_t *dst, const uint8_t *const *in,
			     unsigned n, size_t len, int nt)
{
	switch (n) {
		RXK_XOR_CASE(1)
		RXK_XOR_CASE(2)
		RXK_XOR_CASE(3)
		RXK_XOR_CASE(4)
#if RXK_XOR_FIXED_MAX >= 8
		RXK_XOR_CASE(5)
		RXK_XOR_CASE(6)
		RXK_XOR_CASE(7)
		RXK_XOR_CASE(8)
		RXK_XOR_CASE(9)
#endif
	}
}

/*
 * Up to RXK_XOR_PASS_MAX (9) inputs take a fixed loop, pointers in
 * registers; before 2026-12-02 the ninth input (xor_gen with 9 sources,
 * xor_acc with 8) went to rxk_xor_many's loop, which reads the pointers
 * from memory and folds four sources at a time.  Zen 5, three alternating
 * runs per build of `raidx bench --op xor_gen,xor_acc --disks 8,9,...
 * --len 4k,16k,64k,256k,1m --impl avx512,avx2,isal`, medians: avx512 at 64
 * KiB 93-95 -> 167 GB/s, 4 KiB 1.23-1.37x; avx2 against ISA-L 0.56-0.93x
 * -> 0.89-1.02x at 4 KiB-1 MiB.  Page-aligned blocks (the many-source
 * loop never grouped these: 8 blocks besides the first cannot crowd past
 * RXK_CROWD_MAX): 1.24-1.34x at 4 KiB, 0.91-0.97x at 16-64 KiB.
 */
RXK_INLINE void rxk_xor_gen_nt(void *dst, const void *const *srcs,
			       unsigned nsrc, size_t len, int nt)
{
	const uint8_t *const *s = (const uint8_t *const *)srcs;

	if (nsrc <= RXK_XOR_PASS_MAX)
		rxk_xor_few(dst, s, nsrc, len, nt);
	else
		rxk_xor_many(dst, s[0], s + 1, nsrc - 1, len, nt);
}

static RXK_UNUSED void rxk_xor_gen(void *dst, const void *const *srcs,
				   unsigned nsrc, size_t len)
{
	rxk_xor_gen_nt(dst, srcs, nsrc, len, 0);
}

#ifdef RXV_HAVE_STREAM
/* Non-temporal twin for blocks larger than the last-level cache; needs an
 * aligned dst, otherwise normal stores. */
static RXK_UNUSED void rxk_xor_gen_stream(void *dst, const void *const *srcs,
					  unsigned nsrc, size_t len)
{
	if ((uintptr_t)dst & (RXK_VB - 1)) {
		rxk_xor_gen_nt(dst, srcs, nsrc, len, 0);
		return;
	}
	rxk_xor_gen_nt(dst, srcs, nsrc, len, 1);
	rxv_stream_fence();
}
#endif

/* dst ^= srcs: dst is simply the first input. */
static RXK_UNUSED void rxk_xor_acc(void *dst, const void *const *srcs,
				   unsigned nsrc, size_t len)
{
	const uint8_t *const *s = (const uint8_t *const *)srcs;

	if (nsrc + 1 <= RXK_XOR_PASS_MAX) {
		const uint8_t *in[RXK_XOR_PASS_MAX];
		in[0] = dst;
		for (unsigned i = 0; i < nsrc; i++)
			in[i + 1] = s[i];
		rxk_xor_few(dst, in, nsrc + 1, len, 0);
	} else {
		rxk_xor_many(dst, dst, s, nsrc, len, 0);
	}
}

#endif /* RXK_WANT_XOR */

/* ========================================================================
 * P and Q
 * ===================================================================== */
#if defined(RXK_WANT_PQ) || defined(RXK_WANT_RECOV)

/* Q step of Horner's rule for U vectors: q = q*2 ^ d, and p ^= d. */
#define RXK_PQ_STEP(P, Q, base, off, U)                                        \
	do {                                                                   \
		for (unsigned k_ = 0; k_ < (U); k_++) {                        \
			rxv d_ = rxv_load(RXK_AT(base, off, k_));              \
			(P)[k_] = rxv_xor((P)[k_], d_);                        \
			(Q)[k_] = RXV_MUL2_XOR((Q)[k_], d_);                   \
		}                                                              \
	} while (0)

/* P and Q (without the multiply by g^lo) of data blocks hi down to lo,
 * hi >= lo, into P[], Q[]. */
RXK_INLINE void rxk_horner(rxv *P, rxv *Q, void *const *ptrs, unsigned hi,
			   unsigned lo, size_t off, unsigned U)
{
	const uint8_t *d = ptrs[hi];

	for (unsigned k = 0; k < U; k++)
		P[k] = Q[k] = rxv_load(RXK_AT(d, off, k));
	for (unsigned z = hi; z-- > lo;) {
		d = ptrs[z];
		RXK_PQ_STEP(P, Q, d, off, U);
	}
}

/* A later pass of a grouped kernel: the chain so far from p and q (at
 * their offsets po and qo), continued over data blocks hi down to lo. */
RXK_INLINE void rxk_horner_cont(rxv *P, rxv *Q, void *const *ptrs,
				unsigned hi, unsigned lo, const uint8_t *p,
				size_t po, const uint8_t *q, size_t qo,
				size_t off, unsigned U)
{
	for (unsigned k = 0; k < U; k++) {
		P[k] = rxv_load(RXK_AT(p, po, k));
		Q[k] = rxv_load(RXK_AT(q, qo, k));
	}
	for (unsigned z = hi + 1; z-- > lo;)
		RXK_PQ_STEP(P, Q, ptrs[z], off, U);
}

#endif

#ifdef RXK_WANT_PQ

RXK_INLINE void rxk_gen_block(unsigned disks, void *const *ptrs, uint8_t *p,
			      uint8_t *q, size_t off, unsigned U, int nt)
{
	rxv P[RXK_MAXU], Q[RXK_MAXU];

	rxk_horner(P, Q, ptrs, disks - 3, 0, off, U);
	for (unsigned k = 0; k < U; k++) {
		rxk_put(RXK_ATW(p, off, k), P[k], nt);
		rxk_put(RXK_ATW(q, off, k), Q[k], nt);
	}
}

/*
 * Many blocks beyond L2: chunks and groups.  A stripe of 21 or more blocks
 * of 256 KiB or more (20 of 1 MiB or more, 18 of 2 MiB or more:
 * RXK_GROUP_STREAMS) is done
 * RXK_GRP_CHUNK bytes at a time, and each chunk in passes over groups of
 * at most RXK_GRP_MAX data blocks, top down: the first pass starts
 * Horner's rule at the top block and leaves P and Q in their blocks, each
 * later pass loads them (from L1 or L2: 2 x 16 KiB),
 * continues the rule over its group and stores them again; the last pass
 * stores for good.  The maths is the same Horner chain; what changes is
 * that the memory system sees 12 streams at a time instead of 34, read 16
 * KiB apiece, which its prefetchers follow, and the extra P/Q loads and
 * stores stay in cache (two of each per group, for 12 data loads).
 * Chosen in two steps, `raidx bench --op gen_syndrome --disks 22,34 --len
 * 256k,1M,16M`: first chunk and group size, each build's grouped x2
 * against the prefetching x2 in the same run, two runs each:
 *   chunk 16 KiB, groups of 12:  22 disks 0.98-1.37x, 34 disks 1.31-1.63x
 *   groups of 16:  22 disks 0.56-1.41x, 34 disks 0.66-1.56x
 *   chunk 32 KiB:  1.05-1.52x;  chunk 4 KiB, groups of 8: 0.9-1.4x of x1
 * then the chosen one against the prefetching loop kept in the same
 * binary as a second kernel, three runs at 22, 26 and 34 disks and 256
 * KiB, 1, 4 and 16 MiB: 26 and 34 disks 1.1-2.2x (one cell 0.96x), 22
 * disks 0.93-1.5x.
 * Groups are balanced (32 data blocks: 11, 11, 10), so that no pass is
 * short of streams.
 * Wide stripes group from shorter blocks too: with 26 or more blocks of
 * 32 KiB or more (RXK_GEN_GRP_WIDE, RXK_GEN_GRP_WIDE_LEN) the stripe is
 * out of L2 already and the one-pass loop reads 26-34 streams from L3.
 * Grouped x2 against one-pass x4 (both 64-byte steps there) in one
 * binary, three runs of `raidx bench --op gen_syndrome --disks
 * 10,18,22,26,34 --len 8k,16k,32k,64k,128k`, median per cell: 34 disks
 * 0.97 at 8 KiB, 1.18 at 16, 1.27 at 32, 1.27-1.37 at 64, 1.35 at 128 KiB;
 * 26 disks 0.90, 1.02, 1.14, 1.21; 22 disks 0.92-1.06, 18 and 10 disks
 * 0.95-1.04.  The recoveries do not gain there (their grouped passes
 * test for the lost blocks per step: 0.69-0.97x at 22-26 disks, 0.88-1.13x
 * at 34), so they keep the 256 KiB threshold.
 * The non-temporal twins group in the same way and store normally, as the
 * xor_gen twin does: P and Q were read back by every pass but the first,
 * so they are in the cache when the last pass writes them.  With a
 * non-temporal last pass, six runs of `raidx bench --op gen_syndrome
 * --disks 22,26,34 --len 32k,64k,256k,1m,4m,16m --impl avx2x4,avx2x4nt`
 * (paired, 2026-12-01, in two states of the shared machine) had the twin
 * at 0.84-1.06x of avx2x4 where the stripe is grouped (26 and 34 disks
 * from 32 KiB, 22 disks from 256 KiB): 0.84-1.03x up to 256 KiB, even
 * from 1 MiB (selection's large class, where the twin is used, starts at
 * 16 MiB a call, 512 KiB blocks at 34 disks).
 */
#ifndef RXK_GEN_GRP_WIDE
#define RXK_GEN_GRP_WIDE 26
#endif
#ifndef RXK_GEN_GRP_WIDE_LEN
#define RXK_GEN_GRP_WIDE_LEN ((size_t)32 << 10)
#endif
/* U vectors at off of one group pass: data blocks hi down to lo, P and Q
 * from p and q unless `first` (a constant at each call). */
RXK_INLINE void rxk_gen_pass_block(void *const *ptrs, unsigned hi,
				   unsigned lo, int first, uint8_t *p,
				   uint8_t *q, size_t off, unsigned U)
{
	rxv P[RXK_MAXU], Q[RXK_MAXU];

	if (first)
		rxk_horner(P, Q, ptrs, hi, lo, off, U);
	else
		rxk_horner_cont(P, Q, ptrs, hi, lo, p, off, q, off, off, U);
	for (unsigned k = 0; k < U; k++) {
		rxk_put(RXK_ATW(p, off, k), P[k], 0);
		rxk_put(RXK_ATW(q, off, k), Q[k], 0);
	}
}

RXK_INLINE void rxk_gen_pass(void *const *ptrs, unsigned hi, unsigned lo,
			     int first, uint8_t *p, uint8_t *q, size_t c0,
			     size_t c1, unsigned U)
{
	size_t o = c0;

	for (; o + U * RXK_VB <= c1; o += U * RXK_VB)
		rxk_gen_pass_block(ptrs, hi, lo, first, p, q, o, U);
	for (; o < c1; o += RXK_VB)
		rxk_gen_pass_block(ptrs, hi, lo, first, p, q, o, 1);
}

RXK_INLINE void rxk_gen_grouped(unsigned disks, size_t len, void **ptrs,
				unsigned U, unsigned gmax)
{
	uint8_t *p = ptrs[disks - 2], *q = ptrs[disks - 1];

#define RXK_GEN_PASS(hi, lo, first, last, c0, c1)                              \
	rxk_gen_pass(ptrs, hi, lo, first, p, q, c0, c1, U)
	RXK_GROUPS(len, disks - 2, gmax, RXK_GRP_CHUNK, RXK_GEN_PASS);
#undef RXK_GEN_PASS
}

/*
 * Stripes of up to RXK_GEN_FIXED_MAX data blocks run, in x2, a loop with
 * the block count fixed at compile time (as xor_syndrome's narrow windows,
 * see RXK_XSYN_FIXED_MAX): the Horner steps are straight-line code, the
 * blocks' pointers in registers.  Against the loop over the disks, in one
 * process on the bench's staggered blocks (a test build switching the two
 * by a run-time flag call by call, 2 ms samples after 0.5 ms of untimed
 * calls, medians of 57-138 pairs, 2026-12-02): avx2x2 on 4+2, 6+2, 8+2,
 * 10+2 and 12+2 1.20-1.39x at 4 KiB and 1.02-1.29x at 64 KiB (11 data
 * blocks, between those, was not timed).  x4 with the same loops
 * ran 0.81-1.00x of x2 (at 4 KiB; from 48 KiB it runs x2's code anyway),
 * so x4 calls x2 for these stripes, and only x2 compiles them.  ISA-L's
 * pq_gen, timed alongside: 0.52-0.94x of the fixed avx2x2 at 4 KiB and
 * 0.72-0.99x at 64 KiB, where it had been 0.67-1.11x of the better of
 * the old avx2x2 and avx2x4.
 * Why 12: fixed loops for 13-16 data blocks (the same test build, two
 * runs, 2026-12-02) ran 1.01-1.05x the general avx2x2 on 13+2 and 14+2
 * at 4 KiB but 0.88-0.93x the general avx2x4, which is what x4 would give
 * up to them, and 16+2 0.93-0.96x of avx2x2 (0.83-0.87x of avx2x4); at
 * 64 KiB 0.94-1.03x.  From 13 data blocks their pointers, P, Q and the
 * offset no longer fit x86-64's 16 general registers.  Software prefetch
 * in this loop (prefetcht0 256, 512 or 1024 bytes ahead in each data
 * block, with or without prefetchw on P and Q) ran 0.69-1.02x of the loop
 * without on 6+2 to 10+2 at 4-128 KiB: in cache it costs issue slots, and
 * beyond L2 the hardware prefetchers follow 8-12 streams already.
 */
#ifndef RXK_GEN_FIXED_MAX
#define RXK_GEN_FIXED_MAX 12
#endif
_Static_assert(RXK_GEN_FIXED_MAX <= 12, "rxk_gen has cases for 12 counts");

/* nd data blocks, nd a constant; their pointers in a local array that the
 * stores through p and q cannot alias. */
RXK_INLINE void rxk_gen_fixed(size_t len, void *const *ptrs, uint8_t *p,
			      uint8_t *q, unsigned U, int nt, unsigned nd)
{
	void *w[RXK_GEN_FIXED_MAX ? RXK_GEN_FIXED_MAX : 1];

	for (unsigned i = 0; i < nd; i++)
		w[i] = ptrs[i];
#define RXK_GEN_FIXED_BLOCK(o, u) rxk_gen_block(nd + 2, w, p, q, o, u, nt)
	RXK_LOOP(len, nd + 2, U, RXK_GEN_FIXED_BLOCK);
#undef RXK_GEN_FIXED_BLOCK
}

#define RXK_GEN_FIXED(N)                                                       \
	case N:                                                                \
		rxk_gen_fixed(len, ptrs, p, q, U, nt, N);                      \
		return;

RXK_INLINE void rxk_gen(unsigned disks, size_t len, void **ptrs, unsigned U,
			int nt)
{
	/* Output pointers are read once: after a store through a uint8_t
	 * pointer the compiler would otherwise reload them from ptrs[]. */
	uint8_t *p = ptrs[disks - 2], *q = ptrs[disks - 1];

	if (RXK_GROUP_STREAMS(len, disks) ||
	    (disks >= RXK_GEN_GRP_WIDE && len >= RXK_GEN_GRP_WIDE_LEN)) {
		rxk_gen_grouped(disks, len, ptrs, RXK_STEP64_U(U),
				rxk_crowded(ptrs, disks - 2) ? RXK_CROWD_GROUP
							     : RXK_GRP_MAX);
		return;
	}
	if (rxk_crowded(ptrs, disks - 2)) {
		rxk_gen_grouped(disks, len, ptrs, U, RXK_CROWD_GROUP);
		return;
	}

	if (U == 2 && disks - 2 <= RXK_GEN_FIXED_MAX)
		switch (disks - 2) {
			RXK_GEN_FIXED(1)
			RXK_GEN_FIXED(2)
			RXK_GEN_FIXED(3)
			RXK_GEN_FIXED(4)
			RXK_GEN_FIXED(5)
			RXK_GEN_FIXED(6)
			RXK_GEN_FIXED(7)
			RXK_GEN_FIXED(8)
			RXK_GEN_FIXED(9)
			RXK_GEN_FIXED(10)
			RXK_GEN_FIXED(11)
			RXK_GEN_FIXED(12)
		}
#define RXK_GEN_BLOCK(o, u) rxk_gen_block(disks, ptrs, p, q, o, u, nt)
	RXK_LOOP(len, disks, U, RXK_GEN_BLOCK);
#undef RXK_GEN_BLOCK
}

static RXK_UNUSED void rxk_gen_x1(unsigned disks, size_t len, void **ptrs)
{
	rxk_gen(disks, len, ptrs, 1, 0);
}

static RXK_UNUSED void rxk_gen_x2(unsigned disks, size_t len, void **ptrs)
{
	rxk_gen(disks, len, ptrs, 2, 0);
}

/*
 * gen_syndrome's x4 runs x2's code on stripes of up to RXK_GEN_FIXED_MAX
 * data blocks (x2's fixed loops, above), and on blocks of
 * RXK_GEN_X4_X2_MIN_LEN bytes or more, where the ISA file sets it
 * (measured there); by default only beyond RXK_STEP64_MIN_BYTES.  The
 * non-temporal x4 follows, so that the pair stays one code.
 */
#ifndef RXK_GEN_X4_X2_MIN_LEN
#define RXK_GEN_X4_X2_MIN_LEN SIZE_MAX
#endif
#define RXK_GEN_X4_AS_X2(len, disks)                                           \
	(RXK_X4_AS_X2(len, disks) || (len) >= RXK_GEN_X4_X2_MIN_LEN ||         \
	 (disks) - 2 <= RXK_GEN_FIXED_MAX)

static RXK_UNUSED void rxk_gen_x4(unsigned disks, size_t len, void **ptrs)
{
	if (RXK_GEN_X4_AS_X2(len, disks)) {
		rxk_gen_x2(disks, len, ptrs);
		return;
	}
	rxk_gen(disks, len, ptrs, 4, 0);
}

#ifdef RXV_HAVE_STREAM
/* Non-temporal stores need aligned P and Q; otherwise normal stores. */
RXK_INLINE void rxk_gen_nt(unsigned disks, size_t len, void **ptrs, unsigned U)
{
	if (((uintptr_t)ptrs[disks - 2] | (uintptr_t)ptrs[disks - 1]) & (RXK_VB - 1)) {
		rxk_gen(disks, len, ptrs, U, 0);
		return;
	}
	rxk_gen(disks, len, ptrs, U, 1);
	rxv_stream_fence();
}

static RXK_UNUSED void rxk_gen_x2nt(unsigned disks, size_t len, void **ptrs)
{
	rxk_gen_nt(disks, len, ptrs, 2);
}

static RXK_UNUSED void rxk_gen_x4nt(unsigned disks, size_t len, void **ptrs)
{
	if (RXK_GEN_X4_AS_X2(len, disks)) {
		rxk_gen_x2nt(disks, len, ptrs);
		return;
	}
	rxk_gen_nt(disks, len, ptrs, 4);
}
#endif

/*
 * xor_syndrome.  The window's Q term is g^start * (Horner over the window),
 * so the disks below start (not read) cost only the multiply by g^start:
 * `start` multiply-by-2 steps when start is small, one constant multiply
 * otherwise.  Which of the three is fixed per call, and each has its own
 * loop (`mode` is a compile-time constant in each), so that no per-block
 * branch or spilled register is left in the loop.
 */
#ifndef RXK_XSYN_MUL2_MAX
#define RXK_XSYN_MUL2_MAX 2
#endif

/* STEP1 and STEP2: start 1 and 2 with the doublings unrolled at compile
 * time; a loop with a run-time count around each of the U vectors made GCC
 * spill the x4 kernel's accumulators (xor_syndrome 8+2 [2,4] x4 ran at
 * 0.8-0.88x of x2). */
enum { RXK_LOW_NONE, RXK_LOW_STEP1, RXK_LOW_STEP2, RXK_LOW_STEPS, RXK_LOW_MULC };

struct rxk_lower {
	unsigned steps; /* start */
	uint8_t c;      /* g^start */
#ifdef RXV_HAVE_MULC
	rxv_ctab t;
#endif
};

RXK_INLINE rxv rxk_mul_lower(rxv v, const struct rxk_lower *lw, int mode)
{
	if (mode == RXK_LOW_STEP1)
		return rxv_mul2(v);
	if (mode == RXK_LOW_STEP2)
		return rxv_mul2(rxv_mul2(v));
	if (mode == RXK_LOW_STEPS) {
		for (unsigned s = 0; s < lw->steps; s++)
			v = rxv_mul2(v);
		return v;
	}
#ifdef RXV_HAVE_MULC
	return rxv_mulc(v, &lw->t);
#else
	/* Double and add over the 8 bits of c: at most 7 doublings and 8
	 * XORs instead of up to 254 doublings. */
	rxv r = rxv_xor(v, v);
	for (unsigned c = lw->c;; c >>= 1) {
		if (c & 1)
			r = rxv_xor(r, v);
		if (c <= 1)
			break;
		v = rxv_mul2(v);
	}
	return r;
#endif
}

/*
 * Windows of up to RXK_XSYN_FIXED_MAX blocks run, in x2, a loop with the
 * window's width fixed at compile time: the Horner steps over its blocks
 * are straight-line code, with the blocks' pointers in registers, instead
 * of a loop over the disks inside the loop over the offsets.  Against that
 * general loop, in one process on the bench's staggered blocks (a test
 * build switching the two by a run-time flag call by call, 2 ms samples
 * after 0.5 ms of untimed calls, medians of 60-250 pairs, 2026-12-02):
 * avx2x2 on 20 disks, windows of 1-10 blocks from disk 0 and from disk 4,
 * 1.11-1.56x at 4 KiB, 1.14-1.50x at 64 KiB (but 1.00 on [4,11]) and
 * 1.03-1.39x at 256 KiB; on 10 and 18 disks, 3-block windows 1.26-1.57x at 4 KiB
 * and 1.07-1.47x at 64 KiB.  With x4 given the same loops, x4/x2 read
 * 0.81-1.02 (median about 0.95), so rxk_xsyn_x4 calls x2 for these
 * windows, and only x2 (U = 2) compiles them: a loop per mode and width.
 * The earlier one- and two-block loops had been measured the same way
 * (x2 1.42-1.58x on one-block windows at 4 KiB, 1.19-1.20x on two; x4
 * ran x2's from then on; on windows of 3-5 blocks past disk 2 too, where
 * its four accumulators beside the multiply's tables spilled: 0.85-0.97x
 * of x2 from 8 KiB).  A single loop per mode jumping into the
 * unrolled steps by the width (a switch with fall-through) ran 0.67-0.97x
 * of the fixed ones on 1-5 blocks, so each width has its own.
 * Why 8: widths 9-16 with their own loops, against the general x2 and x4
 * (the same kind of test build, two runs, 2026-12-02): 9 blocks (d18
 * [0,8]) 1.01-1.11x x2's general loop at 4 KiB and 64 KiB (1.01-1.08x
 * x4's), 9 from disk 7 0.99-1.03x, 10 blocks (d20 [0,9], [4,13], one run)
 * 0.96-1.07x, 13 and 16 blocks (d18 [3,15], [0,15]) 0.88-0.99x: little
 * to gain for a loop per mode and width, and a loss from 13 blocks, where
 * the pointers and the two chains no longer fit the registers.
 */
#ifndef RXK_XSYN_FIXED_MAX
#define RXK_XSYN_FIXED_MAX 8
#endif
_Static_assert(RXK_XSYN_FIXED_MAX <= 8, "rxk_xsyn has cases for 8 widths");

RXK_INLINE void rxk_xsyn_block(uint8_t *p, uint8_t *q, unsigned start,
			       unsigned stop, void *const *ptrs, size_t off,
			       unsigned U, const struct rxk_lower *lw, int mode,
			       unsigned nw)
{
	rxv P[RXK_MAXU], Q[RXK_MAXU];

	/* A window of nw blocks (a constant; see rxk_xsyn) has ptrs its
	 * blocks from the lowest, and the Horner loop a constant count. */
	if (nw)
		rxk_horner(P, Q, ptrs, nw - 1, 0, off, U);
	else
		rxk_horner(P, Q, ptrs, stop, start, off, U);
	if (mode != RXK_LOW_NONE)
		for (unsigned k = 0; k < U; k++)
			Q[k] = rxk_mul_lower(Q[k], lw, mode);
	for (unsigned k = 0; k < U; k++) {
		P[k] = rxv_xor(rxv_load(RXK_AT(p, off, k)), P[k]);
		Q[k] = rxv_xor(rxv_load(RXK_AT(q, off, k)), Q[k]);
	}
	for (unsigned k = 0; k < U; k++) {
		rxv_store(RXK_ATW(p, off, k), P[k]);
		rxv_store(RXK_ATW(q, off, k), Q[k]);
	}
}

RXK_INLINE void rxk_xsyn_mode(unsigned disks, unsigned start, unsigned stop,
			      size_t len, void **ptrs, unsigned U,
			      const struct rxk_lower *lw, int mode, unsigned nw)
{
	/* P and Q are read once here: the stores through uint8_t pointers
	 * would otherwise make the compiler reload them from ptrs[] for
	 * every block. */
	uint8_t *p = ptrs[disks - 2], *q = ptrs[disks - 1];
	/* A fixed window's blocks in a local array, which those stores
	 * cannot alias: the pointers stay in registers. */
	void *w[RXK_XSYN_FIXED_MAX ? RXK_XSYN_FIXED_MAX : 1];
	for (unsigned i = 0; i < nw; i++)
		w[i] = ptrs[start + i];
	void *const *bp = nw ? w : (void *const *)ptrs;

#define RXK_XSYN_BLOCK(o, u) rxk_xsyn_block(p, q, start, stop, bp, o, u, lw, mode, nw)
	RXK_LOOP(len, stop - start + 3, U, RXK_XSYN_BLOCK);
#undef RXK_XSYN_BLOCK
}

/*
 * xor_syndrome in chunks and group passes, as rxk_gen_grouped: for a
 * window of more than RXK_CROWD_XSYN_MAX blocks crowded in one L1 set
 * (rxk_crowded_over) on blocks of RXK_CROWD_XSYN_MIN_LEN or more, chunks
 * of RXK_XSYN_CHUNK bytes and groups of at most RXK_CROWD_GROUP; for a
 * window whose blocks and P and Q make a stripe that gen_syndrome would
 * group (RXK_GROUP_STREAMS), chunks of RXK_GRP_CHUNK and groups of
 * RXK_GRP_MAX.  P takes each group's sum in place (load, add the group,
 * store: its old contents are part of the result anyway).  Q carries the
 * Horner chain between the passes in its own block too, although the
 * window's term is multiplied by g^start before Q's old contents are
 * added: the first of several passes adds Q_old * g^-(start + lo1) into
 * the chain, lo1 being its group's lowest block (window-relative).  The
 * remaining blocks below lo1 carry that term by g^lo1, the last pass's
 * multiply by g^start makes it Q_old again, and the result is Q_old +
 * g^start * (the window's Horner sum) as with one pass.  That costs one
 * constant multiply per vector in the first pass of a chunk, and no
 * buffer: an earlier form kept the partial Q in a stack buffer of one
 * chunk, which held chunks to 2 KiB and would not port to a kernel stack.
 * The multiply's mode is a run-time value here: it is applied once per
 * vector of the last pass only.
 * Crowded blocks.  Against the one-pass loop kept as a temporary second
 * kernel in one binary, three runs each of
 * `raidx bench --op xor_syndrome --disks 14,18,26 --len 4k,16k,64k,256k
 * --impl avx2x4,<one-pass>,avx2x2,<its one-pass> --page-aligned` with
 * every window of more than 8 blocks grouped (2026-12-01), avx2x4 medians:
 * 4 KiB 0.84-1.16 (windows of 9-10 blocks 0.84-0.88, 13 blocks 0.92),
 * 16 KiB 0.92-1.15, 64 KiB 0.94-1.12, 256 KiB 0.95-1.40.  So only from
 * RXK_CROWD_XSYN_MIN_LEN and for more than RXK_CROWD_XSYN_MAX crowded
 * blocks; then, three runs of `--disks 14,18,26,34 --len 64k,256k,1m
 * --impl avx2x4,<one-pass>`, lowest-highest per window of 11 or more
 * blocks: 64 KiB 1.03-1.28, 256 KiB 1.00-1.47, 1 MiB 0.82-1.49 (26
 * disks [0,12] 0.82-0.97, 18 disks [3,15] 0.90-1.06, the rest 1.05 up).
 * Spread blocks: until 2026-12-01 (evening) only crowded windows were
 * grouped, and wide spread windows beyond L2 ran their one-pass loop, with
 * software prefetch from 21 streams, at 0.6-0.9x of ISA-L's
 * ec_encode_data_update (34 disks [0,31] and [7,31], 26 disks [0,23],
 * 1-2 MiB).  A throwaway program switched between the one-pass loop and
 * the stack-buffer passes call by call on the same blocks, avx2x4, chunk
 * and group size as run-time values, median of 0.25 s of alternating
 * calls per window: grouped over one pass, with 2 KiB chunks and groups
 * of 12, 8 KiB and 12, 8 KiB and 6, 16 KiB and 12, in order:
 *   256 KiB, windows of 19-32 blocks: 1.03-1.17, 1.09-1.34, 0.99-1.18,
 *     1.11-1.39; of 13-18 blocks 0.69-0.89, 0.71-0.95, 0.70-0.89,
 *     0.72-0.98;
 *   1 MiB, 19-32 blocks: 1.41-2.44, 1.66-2.84, 1.42-2.55, 1.79-2.80;
 *     17-18 blocks 0.87-1.09, 1.03-1.31, 0.92-1.40, 1.08-1.45; 16 blocks
 *     0.78-0.90 (2 KiB) to 0.93-1.12 (16 KiB);
 *   2 MiB, 16 blocks and more: 0.86-2.03 (2 KiB) to 1.02-2.88 (16 KiB);
 *   16 MiB, 16 blocks and more: 0.92-1.86 (2 KiB) to 1.10-2.26 (16 KiB);
 *   windows of 7-15 blocks everywhere: 0.65-1.21, mostly below 1.
 * So gen_syndrome's chunk, group size and thresholds, which the windows
 * meet where grouping wins (21 streams from 256 KiB, 20 from 1 MiB, 18
 * from 2 MiB).  With Q carried in its block as above, five alternations
 * of `raidx bench --op xor_syndrome --disks 18,22,26,34 --len
 * 256k,1m,2m,16m --impl avx2x4,isal` against the code before, avx2x4 over
 * ISA-L, median: the 28 grouped windows 1.01-3.58x, median 1.58 (34
 * disks [0,31] 1.22x at 256 KiB, 2.2-2.8x from 1 MiB; 26 disks [0,23]
 * 1.09x, then 1.9-2.8x), the 84 others 0.75-1.40x, median 1.00, the
 * noise of such runs; and `--disks 14,18,26,34 --len 64k,256k,1m
 * --page-aligned` (crowded windows, where only the carry changed) 0.85-
 * 1.11x, median 0.98, over 33 cells, the 51 unchanged ones 0.88-1.10x,
 * median 0.99.
 * Beyond L2 (every such call here: 64 KiB times 14 blocks) the passes
 * step 64 bytes, as RXK_LOOP does.
 */
#ifndef RXK_XSYN_CHUNK
#define RXK_XSYN_CHUNK 2048
#endif
#ifndef RXK_CROWD_XSYN_MAX
#define RXK_CROWD_XSYN_MAX 10
#endif
#ifndef RXK_CROWD_XSYN_MIN_LEN
#define RXK_CROWD_XSYN_MIN_LEN ((size_t)64 << 10)
#endif
/* U vectors at off of one group pass of xor_syndrome (see above): lin
 * multiplies Q's old contents into the chain at the first of several
 * passes. */
RXK_INLINE void rxk_xsyn_pass_block(uint8_t *p, uint8_t *q, void *const *ptrs,
				    unsigned hi, unsigned lo, int first,
				    int last, size_t off, unsigned U,
				    const struct rxk_lower *lw, int mode,
				    const struct rxk_lower *lin)
{
	rxv P[RXK_MAXU], Q[RXK_MAXU];

	if (first) {
		rxk_horner(P, Q, ptrs, hi, lo, off, U);
		for (unsigned k = 0; k < U; k++) {
			P[k] = rxv_xor(P[k], rxv_load(RXK_AT(p, off, k)));
			if (!last)
				Q[k] = rxv_xor(Q[k], rxk_mul_lower(rxv_load(RXK_AT(q, off, k)),
								   lin, RXK_LOW_MULC));
		}
	} else {
		rxk_horner_cont(P, Q, ptrs, hi, lo, p, off, q, off, off, U);
	}
	for (unsigned k = 0; k < U; k++)
		rxv_store(RXK_ATW(p, off, k), P[k]);
	for (unsigned k = 0; k < U; k++) {
		if (last && mode != RXK_LOW_NONE)
			Q[k] = rxk_mul_lower(Q[k], lw, mode);
		if (first && last) /* one group: Q's old contents still to add */
			Q[k] = rxv_xor(Q[k], rxv_load(RXK_AT(q, off, k)));
		rxv_store(RXK_ATW(q, off, k), Q[k]);
	}
}

RXK_INLINE void rxk_xsyn_pass(uint8_t *p, uint8_t *q, void *const *ptrs,
			      unsigned hi, unsigned lo, int first, int last,
			      size_t c0, size_t c1, unsigned U,
			      const struct rxk_lower *lw, int mode,
			      const struct rxk_lower *lin)
{
	size_t o = c0;

	for (; o + U * RXK_VB <= c1; o += U * RXK_VB)
		rxk_xsyn_pass_block(p, q, ptrs, hi, lo, first, last, o, U, lw,
				    mode, lin);
	for (; o < c1; o += RXK_VB)
		rxk_xsyn_pass_block(p, q, ptrs, hi, lo, first, last, o, 1, lw,
				    mode, lin);
}

RXK_INLINE void rxk_xsyn_grouped(unsigned disks, unsigned start,
				 unsigned stop, size_t len, void **ptrs,
				 unsigned U, const struct rxk_lower *lw,
				 int mode, unsigned gmax, size_t chunk)
{
	uint8_t *p = ptrs[disks - 2], *q = ptrs[disks - 1];
	void *const *w = ptrs + start; /* the window's blocks from 0 */
	unsigned nd = stop - start + 1;
	/* The first group's lowest block, as RXK_GROUPS balances them; Q's
	 * old contents enter the chain there times g^-(start + lo1). */
	unsigned lo1 = RXK_GROUP_LO(nd - 1, RXK_GROUP_SIZE(nd, gmax));
	struct rxk_lower lin;

	lin.steps = 0;
	lin.c = raidx__gf_inv[raidx__gf_pow2(start + lo1)];
#ifdef RXV_HAVE_MULC
	lin.t = rxv_ctab_make(lin.c);
#endif
#define RXK_XSYN_PASS(hi, lo, first, last, c0, c1)                             \
	rxk_xsyn_pass(p, q, w, hi, lo, first, last, c0, c1, U, lw, mode, &lin)
	RXK_GROUPS(len, nd, gmax, chunk, RXK_XSYN_PASS);
#undef RXK_XSYN_PASS
}

/* The width of a window that x2 runs with a fixed loop (above), x1's
 * one- and two-block windows with the constant multiply, or 0 for the
 * general loop. */
RXK_INLINE unsigned rxk_xsyn_nw(unsigned start, unsigned stop, unsigned U,
				int mulc)
{
	unsigned n = stop - start + 1;

	if (U == 2 && n <= RXK_XSYN_FIXED_MAX)
		return n;
	return U == 1 && mulc && n <= 2 ? n : 0;
}

#define RXK_XSYN_NW(M, N)                                                      \
	case N:                                                                \
		rxk_xsyn_mode(disks, start, stop, len, ptrs, U, &lw, M, N);    \
		return;
/* Run mode M's loop for a window of nw blocks (0: the general loop). */
#define RXK_XSYN_RUN(M, nw)                                                    \
	do {                                                                   \
		switch (nw) {                                                  \
			RXK_XSYN_NW(M, 1)                                      \
			RXK_XSYN_NW(M, 2)                                      \
			RXK_XSYN_NW(M, 3)                                      \
			RXK_XSYN_NW(M, 4)                                      \
			RXK_XSYN_NW(M, 5)                                      \
			RXK_XSYN_NW(M, 6)                                      \
			RXK_XSYN_NW(M, 7)                                      \
			RXK_XSYN_NW(M, 8)                                      \
		}                                                              \
		rxk_xsyn_mode(disks, start, stop, len, ptrs, U, &lw, M, 0);    \
		return;                                                        \
	} while (0)

/* Every call of rxk_xsyn_mode below passes its mode and nw as literals, in
 * branches that look alike: rxk_xsyn_mode is inlined, so each branch
 * compiles to its own loop with the mode's code fixed.  One call with the
 * mode in a variable would test it in every step of the loop. */
RXK_INLINE void rxk_xsyn(unsigned disks, unsigned start, unsigned stop,
			 size_t len, void **ptrs, unsigned U)
{
	struct rxk_lower lw;

	lw.steps = start;
	lw.c = raidx__gf_pow2(start);
	int crowded = len >= RXK_CROWD_XSYN_MIN_LEN &&
		      rxk_crowded_over(ptrs + start, stop - start + 1, RXK_CROWD_XSYN_MAX);
	if (crowded || RXK_GROUP_STREAMS(len, stop - start + 3)) {
		int mode = !start ? RXK_LOW_NONE
			 : start == 1 ? RXK_LOW_STEP1
			 : start == 2 ? RXK_LOW_STEP2
			 : RXK_LOW_STEPS;
#ifdef RXV_HAVE_MULC
		/* made whatever the mode: the compiler cannot see that only
		 * RXK_LOW_MULC reads it, and a call this wide can afford it */
		lw.t = rxv_ctab_make(lw.c);
		if (start > RXK_XSYN_MUL2_MAX)
			mode = RXK_LOW_MULC;
#else
		if (start > 9)
			mode = RXK_LOW_MULC;
#endif
		rxk_xsyn_grouped(disks, start, stop, len, ptrs,
				 (len * (stop - start + 3) >= RXK_STEP64_MIN_BYTES)
					 ? RXK_STEP64_U(U) : U,
				 &lw, mode, crowded ? RXK_CROWD_GROUP : RXK_GRP_MAX,
				 crowded ? RXK_XSYN_CHUNK : RXK_GRP_CHUNK);
		return;
	}
	if (!start)
		RXK_XSYN_RUN(RXK_LOW_NONE, rxk_xsyn_nw(start, stop, U, 0));
#ifdef RXV_HAVE_MULC
	if (start > RXK_XSYN_MUL2_MAX) {
		lw.t = rxv_ctab_make(lw.c);
#else
	/* Double and add costs up to 7 doublings and 8 XORs. */
	if (start > 9) {
#endif
		/* x1's one- and two-block loops here: against the general
		 * loop, six runs of `raidx bench --op xor_syndrome --disks
		 * 6,10,18 --len 4k,64k` with both in one binary, median per
		 * cell, avx2x1 1.15-1.19x on one-block windows and 1.11-1.15x
		 * on two-block ones. */
		RXK_XSYN_RUN(RXK_LOW_MULC, rxk_xsyn_nw(start, stop, U, 1));
	}
	if (start == 1)
		RXK_XSYN_RUN(RXK_LOW_STEP1, rxk_xsyn_nw(start, stop, U, 0));
	if (start == 2)
		RXK_XSYN_RUN(RXK_LOW_STEP2, rxk_xsyn_nw(start, stop, U, 0));
	RXK_XSYN_RUN(RXK_LOW_STEPS, rxk_xsyn_nw(start, stop, U, 0));
}

static RXK_UNUSED void rxk_xsyn_x1(unsigned disks, unsigned start,
				   unsigned stop, size_t len, void **ptrs)
{
	rxk_xsyn(disks, start, stop, len, ptrs, 1);
}

static RXK_UNUSED void rxk_xsyn_x2(unsigned disks, unsigned start,
				   unsigned stop, size_t len, void **ptrs)
{
	rxk_xsyn(disks, start, stop, len, ptrs, 2);
}

/* Windows of up to RXK_XSYN_FIXED_MAX blocks take x2's fixed loops (see
 * there). */
static RXK_UNUSED void rxk_xsyn_x4(unsigned disks, unsigned start,
				   unsigned stop, size_t len, void **ptrs)
{
	if (stop - start + 1 <= RXK_XSYN_FIXED_MAX ||
	    RXK_X4_AS_X2(len, stop - start + 3)) {
		rxk_xsyn_x2(disks, start, stop, len, ptrs);
		return;
	}
	rxk_xsyn(disks, start, stop, len, ptrs, 4);
}

#endif /* RXK_WANT_PQ */

/* ========================================================================
 * Recovery
 * ===================================================================== */
#ifdef RXK_WANT_RECOV
#ifndef RXV_HAVE_MULC
#error "RXK_WANT_RECOV needs RXV_HAVE_MULC"
#endif

/*
 * P and Q of the surviving data blocks, all but x and y (y == x when one
 * block is lost), straight into registers.  Horner's rule runs over the runs
 * of survivors between the lost blocks; a lost block contributes only the
 * multiply-by-2 that carries the higher disks past it, and the chain starts
 * by loading s0, the highest survivor.  nl, the number of lost blocks below
 * s0, fixes the shape of the chain:
 *   nl 2: s0..y+1, *2, y-1..x+1, *2, x-1..0   (s0 = top > y > x)
 *   nl 1: s0..x+1, *2, x-1..0                  (s0 > x)
 *   nl 0: s0..0
 *   nl -1: no survivors (P = Q = 0)
 * (runs may be empty: y == x + 1, x == 0).  nl is a constant wherever this
 * is expanded: rxk_r2 and rxk_rdp switch on the shape once per call and
 * run a loop per shape, so every loop is a straight sequence of Horner
 * loops with nothing to merge after it.  The earlier form, one loop body
 * with the branches ("is anything accumulated yet?") inside, made GCC spill
 * P and Q in the x4 kernels where the branches met: avx2x4 recov_datap ran
 * 0.70-0.84x of avx2x2 at 4 KiB with the lost block in the middle or at the
 * top.  Both forms in one binary, three runs of `raidx bench --op
 * recov_2data,recov_datap --disks 6,10,18 --len 4k,64k` (36 cells, median
 * per cell), this form against that one:
 *   GCC:   avx2x4 geo 1.12x (up to 1.36x), avx2x2 1.12x; x4/x2 now 1.04
 *          geo, below 0.95 only in two 64 KiB recov_datap cells
 *   clang: avx2x4 1.08x, avx2x2 1.03x (with RXK_R2_RELOAD_TABLES below);
 *          x4/x2 1.04 geo, worst 0.95
 */
RXK_INLINE void rxk_surv_shape(rxv *P, rxv *Q, void *const *ptrs, int nl,
			       unsigned s0, unsigned x, unsigned y, size_t off,
			       unsigned U)
{
	if (nl < 0) {
		for (unsigned k = 0; k < U; k++)
			P[k] = Q[k] = rxv_xor(P[k], P[k]);
		return;
	}
	if (nl == 0) {
		rxk_horner(P, Q, ptrs, s0, 0, off, U);
		return;
	}
	rxk_horner(P, Q, ptrs, s0, (nl == 2 ? y : x) + 1, off, U);
	for (unsigned k = 0; k < U; k++)
		Q[k] = rxv_mul2(Q[k]);
	if (nl == 2) {
		for (unsigned z = y - 1; z > x; z--)
			RXK_PQ_STEP(P, Q, ptrs[z], off, U);
		for (unsigned k = 0; k < U; k++)
			Q[k] = rxv_mul2(Q[k]);
	}
	for (unsigned z = x; z-- > 0;)
		RXK_PQ_STEP(P, Q, ptrs[z], off, U);
}

/* The shape of rxk_surv_shape for lost x <= y: sets *s0, returns nl. */
RXK_INLINE int rxk_surv_nl(unsigned disks, unsigned x, unsigned y,
			   unsigned *s0)
{
	unsigned s = disks - 3; /* top data block */

	while (s == x || s == y) {
		if (s == 0)
			return -1;
		s--;
	}
	*s0 = s;
	return (x < s) + (y < s && y != x);
}

/*
 * The last step of both recoveries, from the survivors' P and Q in
 * registers; io = P, Q, Dx, Dy (recov_2data) or P, Q, Dx (recov_datap).
 *   recov_2data: Dx = A * (P ^ Ps) ^ B * (Q ^ Qs), Dy = (P ^ Ps) ^ Dx, with
 *     A and B from raidx__recov_coef(): two constant multiplies per vector
 *   recov_datap: Qx = Q ^ Qs = g^x Dx, so Dx = g^-x Qx, and P = Ps ^ Dx
 */
RXK_INLINE void rxk_r2_combine(const rxv *P, const rxv *Q,
			       uint8_t *const *io, size_t off, unsigned U,
			       const rxv_ctab *ta, const rxv_ctab *tb)
{
	for (unsigned k = 0; k < U; k++) {
		rxv pxy = rxv_xor(P[k], rxv_load(RXK_AT(io[0], off, k)));
		rxv qxy = rxv_xor(Q[k], rxv_load(RXK_AT(io[1], off, k)));
		rxv dx = rxv_xor(rxv_mulc(pxy, ta), rxv_mulc(qxy, tb));
		rxv_store(RXK_ATW(io[2], off, k), dx);
		rxv_store(RXK_ATW(io[3], off, k), rxv_xor(pxy, dx));
	}
}

RXK_INLINE void rxk_rdp_combine(const rxv *P, const rxv *Q,
				uint8_t *const *io, size_t off, unsigned U,
				const rxv_ctab *t)
{
	for (unsigned k = 0; k < U; k++) {
		rxv dx = rxv_mulc(rxv_xor(Q[k], rxv_load(RXK_AT(io[1], off, k))), t);
		rxv_store(RXK_ATW(io[2], off, k), dx);
		rxv_store(RXK_ATW(io[0], off, k), rxv_xor(P[k], dx));
	}
}

/*
 * clang keeps recov_2data's four table vectors in registers through the
 * Horner loops of the x4 kernels and spills the multiply-by-2 constants and
 * P/Q there instead: clang's avx2x4 recov_2data ran 0.65-0.80x of its
 * avx2x2 at 4 KiB.  Reading the tables from a volatile copy at every
 * combine (four loads per 128-byte step of the stripe) frees those
 * registers: 1.04x of x2.  GCC spills nothing there, and with the
 * volatile copy its x4 ran 0.3-0.6x of x2, so it reads them from
 * registers.
 */
#if defined(__clang__)
#define RXK_R2_RELOAD_TABLES 1
#else
#define RXK_R2_RELOAD_TABLES 0
#endif

/* One step of recov_2data: the survivors, then the combine.  vt: a
 * volatile copy of ta, tb (RXK_R2_RELOAD_TABLES). */
RXK_INLINE void rxk_r2_block(void *const *ptrs, int nl, unsigned s0,
			     unsigned x, unsigned y, uint8_t *const *io,
			     size_t off, unsigned U, const rxv_ctab *ta,
			     const rxv_ctab *tb, const volatile rxv_ctab *vt)
{
	rxv P[RXK_MAXU], Q[RXK_MAXU];

	rxk_surv_shape(P, Q, ptrs, nl, s0, x, y, off, U);
	if (RXK_R2_RELOAD_TABLES && U >= 4) {
		rxv_ctab a = vt[0], b = vt[1];
		rxk_r2_combine(P, Q, io, off, U, &a, &b);
	} else {
		rxk_r2_combine(P, Q, io, off, U, ta, tb);
	}
}

/* The one-pass loop of recov_2data for one shape (nl constant). */
RXK_INLINE void rxk_r2_run(unsigned disks, size_t len, int nl, unsigned s0,
			   unsigned x, unsigned y, void *const *ptrs,
			   uint8_t *const *io, unsigned U, const rxv_ctab *ta,
			   const rxv_ctab *tb, const volatile rxv_ctab *vt)
{
#define RXK_R2_BLOCK(o, u) rxk_r2_block(ptrs, nl, s0, x, y, io, o, u, ta, tb, vt)
	RXK_LOOP(len, disks, U, RXK_R2_BLOCK);
#undef RXK_R2_BLOCK
}

/*
 * Many blocks beyond L2: the chunks and group passes of rxk_gen_grouped.
 * The survivors' P and Q are carried between the passes of a chunk in the
 * lost blocks themselves (they are outputs, written last): Ps in Dx and Qs
 * in Dy (recov_2data), or Ps in Dx and Qs in P (recov_datap, where P is
 * lost too).  A lost block inside a group contributes its multiply by 2
 * only.  The last pass of a chunk combines as the one-pass kernels do
 * (rxk_r2_combine, rxk_rdp_combine).  kind: 2 = recov_2data, 1 =
 * recov_datap (y == x).
 * Against the prefetching loop (RXK_LOOP), avx2x2, both in one binary,
 * two runs of `raidx bench --op recov_2data,recov_datap --disks 26,34
 * --len 256k,1M,16M`, median of six cells (three failure shapes) per
 * length at 256 KiB, 1 MiB, 16 MiB:
 *   recov_2data  26 disks 1.20, 1.04, 1.14;  34 disks 1.28, 1.20, 0.99
 *   recov_datap  26 disks 1.24, 1.18, 1.37;  34 disks 1.26, 1.71, 1.59
 * The survivors between lost blocks are runs with no test per block: an
 * earlier version that tested every block for being lost ran 10-25%
 * slower at 10 disks (0.75-0.87x of the one-pass kernel there, now
 * 0.86-0.92x; below 21 blocks the one-pass kernels are kept).
 */
RXK_INLINE void rxk_rec_pass_block(void *const *ptrs, unsigned hi, unsigned lo,
				   unsigned x, unsigned y, int first, int last,
				   int kind, uint8_t *const *io, size_t off,
				   unsigned U, const rxv_ctab *ta,
				   const rxv_ctab *tb)
{
	/* io: P, Q, Dx, Dy (kind 2) or P, Q, Dx (kind 1); the scratch for
	 * Ps and Qs: */
	uint8_t *sp = io[2], *sq = kind == 2 ? io[3] : io[0];
	rxv P[RXK_MAXU], Q[RXK_MAXU];
	unsigned top = hi + 1; /* blocks below top are still to come */

	if (!first) {
		for (unsigned k = 0; k < U; k++) {
			P[k] = rxv_load(RXK_AT(sp, off, k));
			Q[k] = rxv_load(RXK_AT(sq, off, k));
		}
	} else if (hi != x && hi != y) {
		for (unsigned k = 0; k < U; k++)
			P[k] = Q[k] = rxv_load(RXK_AT(ptrs[hi], off, k));
		top = hi;
	} else {
		for (unsigned k = 0; k < U; k++)
			P[k] = Q[k] = rxv_xor(P[k], P[k]);
	}
	/* Runs of survivors between the lost blocks (y > x), with no test
	 * per block in the loops. */
	for (unsigned i = 0; i < (x == y ? 1u : 2u); i++) {
		unsigned l = i ? x : y;
		if (l >= top || l < lo)
			continue;
		for (unsigned z = top; z-- > l + 1;)
			RXK_PQ_STEP(P, Q, ptrs[z], off, U);
		for (unsigned k = 0; k < U; k++)
			Q[k] = rxv_mul2(Q[k]);
		top = l;
	}
	for (unsigned z = top; z-- > lo;)
		RXK_PQ_STEP(P, Q, ptrs[z], off, U);
	if (!last) {
		for (unsigned k = 0; k < U; k++) {
			rxv_store(RXK_ATW(sp, off, k), P[k]);
			rxv_store(RXK_ATW(sq, off, k), Q[k]);
		}
	} else if (kind == 2) {
		rxk_r2_combine(P, Q, io, off, U, ta, tb);
	} else {
		rxk_rdp_combine(P, Q, io, off, U, ta);
	}
}

RXK_INLINE void rxk_rec_pass(void *const *ptrs, unsigned hi, unsigned lo,
			     unsigned x, unsigned y, int first, int last,
			     int kind, uint8_t *const *io, size_t c0, size_t c1,
			     unsigned U, const rxv_ctab *ta, const rxv_ctab *tb)
{
	size_t o = c0;

	for (; o + U * RXK_VB <= c1; o += U * RXK_VB)
		rxk_rec_pass_block(ptrs, hi, lo, x, y, first, last, kind, io, o,
				   U, ta, tb);
	for (; o < c1; o += RXK_VB)
		rxk_rec_pass_block(ptrs, hi, lo, x, y, first, last, kind, io, o,
				   1, ta, tb);
}

RXK_INLINE void rxk_rec_grouped(unsigned disks, size_t len, unsigned x,
				unsigned y, void **ptrs, int kind,
				uint8_t *const *io, unsigned U, unsigned gmax,
				const rxv_ctab *ta, const rxv_ctab *tb)
{
#define RXK_REC_PASS(hi, lo, first, last, c0, c1)                              \
	rxk_rec_pass(ptrs, hi, lo, x, y, first, last, kind, io, c0, c1, U, ta, tb)
	RXK_GROUPS(len, disks - 2, gmax, RXK_GRP_CHUNK, RXK_REC_PASS);
#undef RXK_REC_PASS
}

RXK_INLINE void rxk_r2(unsigned disks, size_t len, unsigned x, unsigned y,
		       void **ptrs, unsigned U)
{
	uint8_t a, b;
	/* P, Q, Dx, Dy: read once (see rxk_gen). */
	uint8_t *const io[4] = { ptrs[disks - 2], ptrs[disks - 1], ptrs[x], ptrs[y] };
	unsigned s0 = 0;

	raidx__recov_coef(x, y, &a, &b);
	rxv_ctab ta = rxv_ctab_make(a), tb = rxv_ctab_make(b);
	if (RXK_GROUP_STREAMS(len, disks)) {
		rxk_rec_grouped(disks, len, x, y, ptrs, 2, io, RXK_STEP64_U(U),
				RXK_GRP_MAX, &ta, &tb);
		return;
	}
	volatile rxv_ctab vt[2];
	if (RXK_R2_RELOAD_TABLES) {
		vt[0] = ta;
		vt[1] = tb;
	}
	/* each shape its own loop (rxk_surv_shape) */
	switch (rxk_surv_nl(disks, x, y, &s0)) {
	case 2:
		rxk_r2_run(disks, len, 2, s0, x, y, ptrs, io, U, &ta, &tb, vt);
		break;
	case 1:
		rxk_r2_run(disks, len, 1, s0, x, y, ptrs, io, U, &ta, &tb, vt);
		break;
	case 0:
		rxk_r2_run(disks, len, 0, s0, x, y, ptrs, io, U, &ta, &tb, vt);
		break;
	default:
		rxk_r2_run(disks, len, -1, s0, x, y, ptrs, io, U, &ta, &tb, vt);
	}
}

/* One step of recov_datap: the survivors, then the combine. */
RXK_INLINE void rxk_rdp_block(void *const *ptrs, int nl, unsigned s0,
			      unsigned x, uint8_t *const *io, size_t off,
			      unsigned U, const rxv_ctab *t)
{
	rxv P[RXK_MAXU], Q[RXK_MAXU];

	rxk_surv_shape(P, Q, ptrs, nl, s0, x, x, off, U);
	rxk_rdp_combine(P, Q, io, off, U, t);
}

/* The one-pass loop of recov_datap for one shape (nl constant). */
RXK_INLINE void rxk_rdp_run(unsigned disks, size_t len, int nl, unsigned s0,
			    unsigned x, void *const *ptrs, uint8_t *const *io,
			    unsigned U, const rxv_ctab *t)
{
#define RXK_RDP_BLOCK(o, u) rxk_rdp_block(ptrs, nl, s0, x, io, o, u, t)
	RXK_LOOP(len, disks, U, RXK_RDP_BLOCK);
#undef RXK_RDP_BLOCK
}

RXK_INLINE void rxk_rdp(unsigned disks, size_t len, unsigned x, void **ptrs,
			unsigned U)
{
	uint8_t *const io[3] = { ptrs[disks - 2], ptrs[disks - 1], ptrs[x] };
	rxv_ctab t = rxv_ctab_make(raidx__gf_inv[raidx__gf_pow2(x)]);
	unsigned s0 = 0;

	if (RXK_GROUP_STREAMS(len, disks)) {
		rxk_rec_grouped(disks, len, x, x, ptrs, 1, io, RXK_STEP64_U(U),
				rxk_crowded(ptrs, disks - 2) ? RXK_CROWD_GROUP
							     : RXK_GRP_MAX,
				&t, &t);
		return;
	}
	if (len >= RXK_CROWD_RDP_MIN_LEN && rxk_crowded(ptrs, disks - 2)) {
		rxk_rec_grouped(disks, len, x, x, ptrs, 1, io, U, RXK_CROWD_GROUP,
				&t, &t);
		return;
	}
	switch (rxk_surv_nl(disks, x, x, &s0)) {
	case 1:
		rxk_rdp_run(disks, len, 1, s0, x, ptrs, io, U, &t);
		break;
	case 0:
		rxk_rdp_run(disks, len, 0, s0, x, ptrs, io, U, &t);
		break;
	default:
		rxk_rdp_run(disks, len, -1, s0, x, ptrs, io, U, &t);
	}
}

static RXK_UNUSED void rxk_recov_2data_x1(unsigned disks, size_t len,
					  unsigned faila, unsigned failb,
					  void **ptrs)
{
	rxk_r2(disks, len, faila, failb, ptrs, 1);
}

static RXK_UNUSED void rxk_recov_2data_x2(unsigned disks, size_t len,
					  unsigned faila, unsigned failb,
					  void **ptrs)
{
	rxk_r2(disks, len, faila, failb, ptrs, 2);
}

static RXK_UNUSED void rxk_recov_2data_x4(unsigned disks, size_t len,
					  unsigned faila, unsigned failb,
					  void **ptrs)
{
	if (RXK_X4_AS_X2(len, disks)) {
		rxk_recov_2data_x2(disks, len, faila, failb, ptrs);
		return;
	}
	rxk_r2(disks, len, faila, failb, ptrs, 4);
}

static RXK_UNUSED void rxk_recov_datap_x1(unsigned disks, size_t len,
					  unsigned faila, void **ptrs)
{
	rxk_rdp(disks, len, faila, ptrs, 1);
}

static RXK_UNUSED void rxk_recov_datap_x2(unsigned disks, size_t len,
					  unsigned faila, void **ptrs)
{
	rxk_rdp(disks, len, faila, ptrs, 2);
}

static RXK_UNUSED void rxk_recov_datap_x4(unsigned disks, size_t len,
					  unsigned faila, void **ptrs)
{
	if (RXK_X4_AS_X2(len, disks)) {
		rxk_recov_datap_x2(disks, len, faila, ptrs);
		return;
	}
	rxk_rdp(disks, len, faila, ptrs, 4);
}

#endif /* RXK_WANT_RECOV */
