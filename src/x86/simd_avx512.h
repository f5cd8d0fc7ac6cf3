/*
 * simd_avx512.h - what the AVX-512 and GFNI kernel files (avx512.c,
 * gfni_avx2.c, gfni_avx512.c) share:
 *
 *  - the choice between the real intrinsics and SIMDe's emulation of them.
 *    Built normally, a kernel file includes <immintrin.h> and is compiled
 *    with its ISA flags (-mavx512f -mavx512bw -mavx512vl, -mgfni, ...): that
 *    is the code that ships.  Built with RAIDX_SIMDE defined (cmake/simde.cmake
 *    compiles each file a second time that way, with -mavx2 only), the same
 *    intrinsic names resolve to SIMDe's portable emulation, the exported table
 *    is renamed raidx__impls_<isa>_simde, its implementations are named
 *    "<name>@simde" and need no CPU feature.  The test suite then checks the
 *    kernels' logic against the reference on any x86-64 machine, including
 *    those without AVX-512 or GFNI.
 *
 *  - the masked and non-temporal memory operations, which SIMDe 0.7 does not
 *    emulate (and which, where a SIMDe version does, may read all 64 bytes of
 *    a masked load, which would fault on the tests' guard pages).  In SIMDe
 *    mode they are written out byte by byte, touching only the bytes whose
 *    mask bit is set, as the hardware promises; the streaming store checks
 *    the 64-byte alignment the real instruction requires and aborts, as the
 *    real one faults, so the tests see a misaligned stream store too.
 *
 *  - the plan of a one-pass recovery (which disks survive, in which runs),
 *    plain C used by every recovery kernel.
 */
#ifndef RAIDX_SIMD_AVX512_H
#define RAIDX_SIMD_AVX512_H

/*
 * GCC 12's generic tuning treats a load folded into an instruction as free
 * and loads the same data vector again for each instruction that uses it
 * (P and Q both use every disk): with 4 vectors per step, objdump showed up
 * to 2 loads per disk per vector instead of 1, which on cores with one
 * 512-bit load per cycle (Zen 4) would make the in-cache loop load-bound.
 * Tuned for an AVX-512 core it keeps the vector in a register (checked the
 * same way).  These files only run on such cores (gfni_avx2.c on cores of
 * the same generations), and tuning changes no instruction set.  Clang
 * keeps one load per vector as is.
 */
#if !defined(RAIDX_SIMDE) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#pragma GCC target("tune=icelake-server")
#endif

#include "raidx_impl.h"

#ifdef RAIDX_SIMDE
/* SIMDe forces every emulated operation inline by default; in kernels whose
 * steps are unrolled that makes functions so large that one file takes
 * minutes to compile (worse with sanitizers).  Out-of-line operations cost
 * little in an emulation and test the same logic. */
#define SIMDE_NO_INLINE
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
#include <simde/x86/gfni.h>
#include <stdlib.h>
#define RX_TABLE(isa) RAIDX__IMPL_TABLE(isa##_simde)
/* A function one kernel file lends another, renamed like the tables. */
#define RX_SHARED(fn) fn##_simde
#define RX_NAME(s) s "@simde"
#define RX_FEATURES(f) 0u
/* Emulated kernels are for tests: RAIDX__F_EMULATED keeps them out of the
 * calibration and the static choice, unless RAIDX_EMULATE names the
 * features they stand in for (RX_EMU_FEATURES); then they compete with the
 * real kernels' priorities. */
#define RX_PRIO(p) (p)
#define RX_FLAGS(f) ((f) | RAIDX__F_EMULATED)
#define RX_EMU_FEATURES(f) (f)
#else
#include <immintrin.h>
#define RX_TABLE(isa) RAIDX__IMPL_TABLE(isa)
#define RX_SHARED(fn) fn
#define RX_NAME(s) s
#define RX_FEATURES(f) (f)
#define RX_PRIO(p) (p)
#define RX_FLAGS(f) (f)
#define RX_EMU_FEATURES(f) 0u
#endif

/* A table entry (see RAIDX__ENTRY in raidx_impl.h), renamed in SIMDe mode. */
#define RX_ENTRY(nm_, op_, prio_, granule_, features_, kind_, fn_, flags_) \
	{ .name = RX_NAME(nm_), .op = (op_), .priority = RX_PRIO(prio_),       \
	  .granule = (granule_), .features = RX_FEATURES(features_),           \
	  .fn.kind_ = (fn_), .flags = RX_FLAGS(flags_) | RX_VEC_FLAGS,         \
	  .emu_features = RX_EMU_FEATURES(features_) }
/* The 512-bit files' entries carry RAIDX__F_ZMM: selection leaves them out
 * on CPUs that lower their clock for 512-bit vectors. */
#ifdef RX_V512
#define RX_VEC_FLAGS RAIDX__F_ZMM
#else
#define RX_VEC_FLAGS 0u
#endif

#if defined(RAIDX_SIMDE) && !defined(__OPTIMIZE__)
/* Unoptimised emulation (e.g. a Debug sanitizer build): plain functions,
 * for the same reason as SIMDE_NO_INLINE above. */
#define RX_INLINE static inline
#define RX_UNROLL
#elif defined(__GNUC__)
#define RX_INLINE static inline __attribute__((always_inline))
/* Loops over the U vectors of one step must be unrolled for the vectors to
 * stay in registers (an array indexed at run time lives in memory).  U is a
 * constant after inlining.  Clang 14 left these loops, and the arrays on
 * the stack, with "GCC unroll 8" (seen with objdump); it needs its own
 * spelling of "unroll fully". */
#if defined(__clang__)
#define RX_UNROLL _Pragma("clang loop unroll(full)")
#else
#define RX_UNROLL _Pragma("GCC unroll 8")
#endif
#else
#define RX_INLINE static inline
#define RX_UNROLL
#endif

/* Kept out of line: the single-vector tails of the loops RX_BY_WIDTH makes
 * per block count, one copy per file instead of one per loop.  Inlined,
 * they doubled each loop's code, and the sanitizer builds of .ci/run spent
 * over ten minutes on each 512-bit file. */
#if defined(__GNUC__)
#define RX_NOINLINE static __attribute__((noinline))
#else
#define RX_NOINLINE static
#endif

/* fn(args..., k) with k = n, a count of blocks from 1 to max (8 or 16),
 * passed as a literal so that the loops over the blocks unroll and their
 * pointers stay in registers; k = 0 (the general loop) for any other n. */
#define RX_WCASE(k, fn, ...)                                                   \
	case k:                                                                \
		fn(__VA_ARGS__, k);                                            \
		break;
#define RX_WCASES8(fn, ...)                                                    \
	RX_WCASE(1, fn, __VA_ARGS__) RX_WCASE(2, fn, __VA_ARGS__)              \
	RX_WCASE(3, fn, __VA_ARGS__) RX_WCASE(4, fn, __VA_ARGS__)              \
	RX_WCASE(5, fn, __VA_ARGS__) RX_WCASE(6, fn, __VA_ARGS__)              \
	RX_WCASE(7, fn, __VA_ARGS__) RX_WCASE(8, fn, __VA_ARGS__)
#define RX_WCASES16(fn, ...)                                                   \
	RX_WCASES8(fn, __VA_ARGS__)                                            \
	RX_WCASE(9, fn, __VA_ARGS__) RX_WCASE(10, fn, __VA_ARGS__)             \
	RX_WCASE(11, fn, __VA_ARGS__) RX_WCASE(12, fn, __VA_ARGS__)            \
	RX_WCASE(13, fn, __VA_ARGS__) RX_WCASE(14, fn, __VA_ARGS__)            \
	RX_WCASE(15, fn, __VA_ARGS__) RX_WCASE(16, fn, __VA_ARGS__)
#define RX_BY_WIDTH_(n, max, fn, ...)                                          \
	do {                                                                   \
		switch ((n) >= 1 && (n) <= (max) ? (n) : 0) {                  \
			RX_WCASES##max(fn, __VA_ARGS__)                        \
		default:                                                       \
			fn(__VA_ARGS__, 0);                                    \
			break;                                                 \
		}                                                              \
	} while (0)
#define RX_BY_WIDTH(n, max, fn, ...) RX_BY_WIDTH_(n, max, fn, __VA_ARGS__)

#ifdef RX_V512
/*
 * gen_syndrome's x4 kernels (gfni_avx512x4, avx512x4) run one of three
 * loops, by where the stripe can be:
 *
 *   x4 (256 bytes a step) while the stripe, data and P and Q, fits in L1
 *   (8+2 at 4 KiB: 40 KiB).  There it leads: 8+2 at 4 KiB x4 227-244 GB/s,
 *   x2 180-214, x1 141-167; the calibration's shapes (select.c) are such
 *   stripes, so this is what it measures when it picks x4.
 *
 *   x1 (64 bytes a step) beyond L1, on blocks shorter than
 *   RAIDX__X1_MAX_LEN.  From L2, a step that asks for 4 or 2 lines of each
 *   of 8-18 streams runs behind one that asks for 1 (the same as
 *   xor_syndrome's x4, avx512.c; presumably the L1's miss tracking, not
 *   counted: no performance counters on this VM).  A throwaway harness,
 *   min of 40 interleaved rounds, blocks staggered by 192 bytes, GFNI
 *   loops, x1 over x4 / over x2: 8+2 at 8-32 KiB 1.21-1.32 / 1.05-1.12;
 *   6+2 at 8-32 KiB 1.21-1.26 / 1.07-1.14; 10+2 at 6-16 KiB 1.31-1.37 /
 *   1.15-1.17; 16+2 at 4 KiB (72 KiB, beyond L1) 1.24-1.36 / 1.15-1.32;
 *   4+2 from 16 KiB 1.01-1.05 / 1.03-1.05.  With 4 KiB blocks brought
 *   from L2 (8 stripes in turn), 8+2: x1 123, x2 103, x4 95 GB/s; 16+2:
 *   149, 117, 106; from L3 (40 stripes) the three within 10%.  With every
 *   block at a page boundary the same (8+2 at 16 KiB: avx512x1 116 against
 *   gfni_avx512x4 92 in raidx bench --page-aligned).  Stripes that just
 *   fit stay x4: 10+2 and 4+2 at 4 and 8 KiB (48 KiB), x1 0.72-0.85x.
 *
 *   x2 from RAIDX__X1_MAX_LEN: x1/x2 0.92-1.10 at 48-64 KiB (4+2 to 10+2),
 *   and x2 level or ahead of x4 from 16 KiB in the runs that first split
 *   the loops (2026-12-02: `raidx bench --op gen_syndrome --disks
 *   4,6,8,10,12,18 --len 16k,...,256k`, x4/x2 0.61-1.03).
 *
 * Turin-like Zen 5 VM (48 KiB L1D), 2026-12-03.  gfni_avx2.c, which shares
 * the GFNI kernels, was not measured and keeps x4 (RX_V512 only).  The
 * AVX2 and SSE kernels have the same kind of rule in x86_kernels.h
 * (RXK_STEP64_MIN_BYTES: 64-byte steps once the blocks a call touches
 * pass 512 KiB, measured on Zen 3); these kernels do not share its loops,
 * and their measured turn is earlier, at L1.
 *
 * The x1 step beyond L1 holds on Zen 5 only (RAIDX__T_X1_BEYOND_L1,
 * x86/cpu_features.c; raidx__x1_max_len() is then RAIDX__X1_MAX_LEN, 64
 * KiB, else 1 and x2 runs from the L1 on).  On an Intel Xeon (2 MiB L2, 48 KiB L1), two runs of
 * `raidx bench --op gen_syndrome --disks 6,10,14,18,26,34 --len
 * 2k,4k,8k,16k,32k,64k --impl gfni_avx512x4,gfni_avx512x2` (2026-12-04),
 * x2 over x4's x1 beyond L1: 1.00-1.11 (16+2 at 8-32 KiB 1.08-1.11, 32+2
 * at 4 KiB 1.06 in the default raidx bench), x1 ahead nowhere by more
 * than 5%; xor_syndrome, `--op xor_syndrome --disks 10,18,34` at the
 * same lengths, windows of 9-32 blocks beyond L1 at 4-16 KiB: 0.89-1.10,
 * 47 of 48 cells at 0.98 or more; at 32 KiB 0.92-1.02 (4 of 16 cells
 * below 0.95, none a default shape): the x1 step pays there, less.
 */

/* f1, f2 or f4(args...) by the unroll u (1, 2, else 4), each an out-of-line
 * loop (RX_NOINLINE), so that an entry that only chooses is a few compares
 * and a tail call and saves no registers of its own (the x4 entries;
 * with the loops inlined, gfni_avx512x4's calls cost 3-7% more, see
 * simd_avx512_gfni.h). */
#define RX_TAIL_BY_UNROLL(u, f1, f2, f4, ...)                                  \
	do {                                                                   \
		unsigned rx_u_ = (u);                                          \
		if (rx_u_ == 2)                                                \
			f2(__VA_ARGS__);                                       \
		else if (rx_u_ == 1)                                           \
			f1(__VA_ARGS__);                                       \
		else                                                           \
			f4(__VA_ARGS__);                                       \
	} while (0)

/* The unroll for a call that reads or writes `streams` blocks of `len`
 * bytes (gen_syndrome: all disks; xor_syndrome: the window, P and Q). */
RX_INLINE unsigned rx_x4_unroll(unsigned streams, size_t len)
{
	if ((size_t)streams * len <= raidx__l1d_bytes())
		return 4;
	return len < raidx__x1_max_len() ? 1 : 2;
}

/*
 * xor_syndrome's gfni_avx512x4 the same way, with the window and P and Q
 * as the streams, except that windows of up to XSYN_X4_MAX_BLOCKS run x1
 * at every length beyond L1.  The loops are simd_avx512_gfni.h's, one per
 * window width up to 8 blocks (xsyn_fixed).  Three runs of `raidx bench
 * --op xor_syndrome --len 8k,16k,64k,256k` and two of `--len 1m,16m`
 * with those loops at a constant x1, x2 and x4 (2026-12-03), GB/s of
 * window data, x1 / x2 / x4, the two runs' figures where they differ:
 *   beyond L1, windows of 2-4 blocks: 64 KiB 8+2 [4,7] 115 / 105 / 116 and
 *     105 / 82 / 103, [6,7] 81 / 82 / 81 and 81 / 77 / 71, [2,4] 106 /
 *     105 / 96; 16 KiB [2,4] 97 / 95 / 87, [6,7] 74 / 73 / 64; one-block
 *     windows level from 16 KiB;
 *   wider windows: 16 KiB 16+2 [3,15] 143 / 115 / 97, [0,8] 140 / 114 /
 *     100; 64 KiB 8+2 [0,7] 152 / 174 / 168 and 141 / 155 / 162, 16+2
 *     [0,8] 150 / 157 / 91 -- the stripe rule above;
 *   1 and 16 MiB: all three within the runs' noise on every window
 *     (but see XSYN_X1_MIN_LEN).
 * Until the loops per width, the general loop kept x4 on these windows up
 * to 8 MiB (a harness timing it: 64 KiB [4,7] 120 / 112 / 101 for x4 / x2
 * / x1), and raidx bench had it at 0.87-0.96x of avx2x1 and avx2x2 on
 * one-block windows from 64 KiB.
 */
#define XSYN_X4_MAX_BLOCKS 4

/*
 * And wider windows x1 again from blocks of XSYN_X1_MIN_LEN: from memory or
 * L3, one line of each stream per step is level with or ahead of two.
 * gfni_avx512x4 (x2 there until then) against the same loops at x1 in one
 * binary, two runs of `raidx bench --op xor_syndrome --disks 10,18 --len
 * 256k,1m,4m,16m --no-recheck` (Turin-like Zen 5, 2026-12-03, session
 * 22), x1/x2: 8+2 [0,7] 1.02-1.11 from 1 MiB in 6 of 6, 16+2 [0,8] 0.95-
 * 1.14 (1.12-1.14 at 1 MiB), [8,15] 0.99-1.08, the others 0.95-1.07
 * around 1.00; at 256 KiB 0.88-1.14 around 1.00.  In the default raidx
 * bench runs before, the chosen gfni_avx512x4 read 0.86-0.93 of avx512x1
 * or avx512x2 on [0,7] and [8,15] at 1 MiB in some runs.  (gen_syndrome's
 * streaming x4 at x1 from 1 MiB: 0.87-1.05 of its x2, 32+2 0.87-0.97, so
 * it keeps x2.)
 */
#define XSYN_X1_MIN_LEN ((size_t)1 << 20)

RX_INLINE unsigned rx_xsyn_x4_unroll(unsigned start, unsigned stop, size_t len)
{
	unsigned streams = stop - start + 3;

	/* Windows of one or two blocks take x2 in L1: x4/x2 0.92-1.02 on
	 * one-block windows (0.92-0.95 on [0,0], which has no multiply) and
	 * 0.96-0.98 on [0,1], two runs of `raidx bench --op xor_syndrome
	 * --len 4k` per window on 10 and 18 disks (2026-12-03).  The
	 * selection's narrow shapes include [0,0] of 16+2, and picked
	 * gfni_avx512x2 for narrow windows in 17 of 20 starts. */
	if (stop - start < 2)
		return (size_t)streams * len <= raidx__l1d_bytes() ? 2 : 1;
	if (stop - start < XSYN_X4_MAX_BLOCKS)
		return (size_t)streams * len <= raidx__l1d_bytes() ? 4 : 1;
	return len >= XSYN_X1_MIN_LEN ? 1 : rx_x4_unroll(streams, len);
}

/*
 * And one band where gfni_avx512x4 runs avx512.c's x1 loop instead of its
 * own: windows of 3 to 8 blocks whose call streams ((blocks + 2) x len:
 * the window, P and Q) more than 3/16 and at most 9/16 of the L2.  There
 * the AVX-512BW loop, with more instructions per 64 bytes (3 per block
 * for the doubling against 1.5, 6 for the multiply by g^start against 1),
 * runs 5-25% faster than the GFNI loops.  Two runs of `raidx bench --op
 * xor_syndrome --disks 18 --start S --stop S+W-1 --len 24k,...,192k
 * --impl avx512x1,gfni_avx512x4 --no-recheck` for S = 0, 1, 4 and W = 1
 * to 8 (Turin-like Zen 5, 1 MiB L2, 2026-12-03), gfni_avx512x4 over
 * avx512x1 with 3-8 blocks: in the band 0.80-1.08 (51 and 33 of 117 and
 * 66 cells below 0.95; 16+2's [4,8] at 48-80 KiB 0.83-0.91, once 1.07
 * at 56 KiB; [1,5] at 64-80 KiB 0.82-0.86; [4,9] at 24-64 KiB 0.85-0.94);
 * outside it 0.89-1.13 (at 640-800 KiB, just above it, 8 blocks 1.03-
 * 1.13).  One and two blocks (0.94-1.21 in the band) and, in a third run,
 * 10 and 12 blocks (1.04-1.17) keep the GFNI loops.  Of all 414 cells of
 * the two runs (1-8 blocks), those where the kernel would run below 0.95
 * of the faster of the two loops: 89 without the band, 10 with it.
 *
 * Two-block windows have a band of their own, for avx512.c's x4 loop (the
 * one avx512x4 runs on up to four blocks; its x1 loop is not the faster
 * one there): 4 x len more than 5/16 and at most 9/16 of the L2, blocks
 * over 80 KiB and up to 144 KiB on a 1 MiB L2.  Three runs of `raidx
 * bench --op xor_syndrome --disks D --start S --stop S+1 --len
 * 64k,80k,88k,96k,112k,128k,144k,160k,192k` on [0,1], [1,2], [3,4] and
 * [5,6] of 8+2 and [3,4], [11,12] and [14,15] of 16+2, against the kernel
 * without this band as a temporary entry in the same binary (Turin-like
 * Zen 5, 2026-12-05): 1.02-1.19 at 88-144 KiB (median about 1.08; once
 * 0.96, [0,1] at 144 KiB), 0.96-1.04 at 64-80 KiB and 160-192 KiB, where
 * both run the GFNI loop.  A batch twenty minutes earlier agreed (the
 * GFNI loops 0.87-0.97 of avx512x2 and avx512x4 at 96-128 KiB on [3,4],
 * [6,7], [8,9] and [14,15]).  One-block windows keep the GFNI loops:
 * there the BW x4 loop led by 5-10% at 128-192 KiB in one batch and ran
 * level or behind (0.94-0.97) in the next.
 *
 * Lower, from 3/16 to 1/4 of the L2 (blocks over 48 KiB and up to 64
 * KiB), two-block windows with a multiply (start > 0) take the x2 loop:
 * in ten default raidx bench runs 8+2 [6,7] and 16+2 [14,15] at 64 KiB
 * read avx512x2 and avx512x1 at 0.96 or more of the fastest in every run
 * and the GFNI loop in 6-8 of 10 (down to 0.88); in runs of those windows
 * alone avx512x2 read 0.96-1.00 of the fastest at 32-64 KiB (69 of 69
 * cells).  An x2 band up to 144 KiB against the kernel without it, three
 * runs of `--len 48k,56k,64k,80k,96k,112k,128k,144k,160k` on [3,4] and
 * [6,7] of 8+2 and [8,9] and [14,15] of 16+2 in one binary: 1.02-1.16 at
 * 56-96 KiB, 0.91-1.03 at 112-144 KiB (x4's band); on [0,1], whose Q
 * gets no multiply, 0.86-0.98, so start 0 keeps the GFNI loop.  In a run
 * in the other state right after, gfni_avx512x2 led at 80 KiB (avx512x2
 * 0.91-0.95 there), so the x2 band stops at 64 KiB, where avx512x2 read
 * 0.98-1.00 in that run but once 0.88 ([3,4] at 56 KiB, where every loop
 * but avx512x1 read 0.88-0.90).
 *
 * Why the longer instruction stream wins is not known (no performance
 * counters on this VM), but it is the pace, not the multiply: six
 * dependent XORs per 64-byte step added to the GFNI x1 loop (an
 * experiment, not kept: it needs inline asm to survive the compiler) took
 * [4,8] of 16+2 at 64 KiB from 124 to 143 GB/s, level with avx512x1
 * (144), and a plain SIMD read of the same seven streams (raidx bench's
 * memread row) ran 115.  Presumably the core serves these L2-resident
 * streams better when the loads come more slowly.  gen_syndrome, which
 * writes P and Q without reading them, shows it on fewer stripes (6+2 and
 * 8+2 at 48 KiB 0.82-0.84, 10+2 and 12+2 at 24-32 KiB 0.88-0.93 of
 * avx512x1, level on the rest of 3+2 to 16+2 at 16-128 KiB, one run) and
 * keeps its own loops.  On an Intel Xeon the band cost instead (the GFNI
 * loops 1.12-1.23x ahead there), so it holds only on the CPUs where it
 * was measured to pay (RAIDX__T_XSYN_BW_BAND, x86/cpu_features.c).
 *
 * Crowded windows of XSYN_BW_X2_MIN_BLOCKS (5) to 8 blocks take the x2
 * loop in the band instead: more than XSYN_BW_X2_CROWD_OVER (4) of them
 * starting in the L1 set of the first, as page-aligned buffers and md's
 * stripe cache (a page per block) place them.  The band above was
 * measured on raidx bench's default placement, blocks 3 cache lines apart
 * in their pages, where x1 leads; on page-aligned blocks x2 does.  Two
 * runs each of `raidx bench --op xor_syndrome --disks D --start S --stop
 * T --len 32k,48k,64k,80k --impl avx512x1,avx512x2,avx512x4 --no-recheck`
 * on 14 windows of 10 and 18 disks (Turin-like Zen 5, 2026-12-07), x2/x1:
 *   --page-aligned, windows of 5-8 blocks ([1,5], [0,5], [1,7], [0,7] of
 *     8+2; [4,8], [3,8], [10,15], [6,12], [8,15] of 16+2): 0.99-1.13 at
 *     48-80 KiB (median about 1.06; [0,7] 1.10-1.12, [1,7] 1.06-1.13),
 *     0.99-1.08 at 32 KiB; x4 alike (0.96-1.13);
 *   --page-aligned --small-pages (4 KiB pages scattered, as md's): the
 *     same windows 0.98-1.17, at 48-80 KiB 0.99-1.17;
 *   default placement: 0.88-1.05, mostly 0.94-1.01 (x1 stays);
 *   windows of 3-4 blocks ([2,4], [4,7], [12,15], [13,15]): page-aligned
 *     0.92-1.10 (0.92-0.94 at 64 KiB, 1.05-1.10 at 80 KiB), so x1 stays.
 * Before this rule, four --page-aligned JSON runs of raidx bench (one
 * whole, three of `--op xor_syndrome --len 64k,1m`) had the chosen
 * gfni_avx512x4, on x1's loop, at 0.93-0.95 of avx512x2 and avx512x4 on
 * 8+2 [1,7] and 16+2 [4,8] at 64 KiB in each, rechecked.  The code
 * before and after alternated, three runs each of those 28 cells: 25,
 * 25 and 26 rechecked >= 0.95 before, 27, 27 and 26 after, and neither
 * window missed after.
 *
 * Windows of eight blocks from block 0 (Q needs no multiply by g^start)
 * keep the x1 loop beyond the band, up to XSYN_BW_W8_MAX_16THS (12/16) of
 * the L2, unless crowded.  Four runs of `raidx bench --op xor_syndrome
 * --disks D --start 0 --stop S --len 60k,64k,68k,71k` and `--len
 * 76k,80k,84k,90k --impl avx512x1,gfni_avx512x4 --no-recheck` on 10 and
 * 18 disks (Turin-like Zen 5, 2026-12-07), x1/GFNI, medians of the four:
 *   8 blocks, [0,7] of 8+2 and 16+2: 1.01-1.18 at 60-76 KiB (single runs
 *     0.97-1.28), 0.99-1.18 at 80-90 KiB (16+2 level at 80-84), so the
 *     bound is 76.8 KiB for eight blocks on a 1 MiB L2;
 *   5-7 blocks from block 0: 0.97-1.04 at 60-76 KiB, level, and 0.86-1.03
 *     at 84-90 KiB;
 *   8 blocks from blocks 1, 4 and 8 of 16+2 (an earlier grid): 0.92-0.98
 *     at 64-72 KiB, so only from block 0;
 *   --page-aligned (crowded): x1 0.85-0.90 at 64-72 KiB, x2 0.93-1.02,
 *     so crowded windows keep the GFNI loop.
 * The code before and after alternated (old and new binaries), three
 * runs of a grid of avx512x1, avx512x2 and gfni_avx512x4 on [0,7] of 8+2
 * and 16+2: the pick over the fastest of the three at 60-68 KiB, medians,
 * 0.89-0.94 before and 0.99-1.00 after (level at 76 KiB); four runs each
 * of `raidx bench --op xor_syndrome --len 64k,1m --format json`: 8+2
 * [0,7] at 64 KiB, a default shape, read 0.98, 0.99, 0.94 and 0.93
 * (rechecked against avx512x1) before and 0.99-1.00 after.  Five default
 * runs of the code before had missed it in four (0.90-0.95).  The grids
 * of 2026-12-03 (above) had read the GFNI loop ahead on eight blocks just
 * above the band, with starts 0, 1 and 4 taken together; today's split by
 * start puts that lead on starts 1, 4 and 8 only.
 *
 * Returns the unroll of avx512.c's loop to run, 1, 2 or 4; 0 outside the
 * bands.
 */
#define XSYN_BW_X2_MIN_BLOCKS 5u
#define XSYN_BW_X2_CROWD_OVER 4u
#define XSYN_BW_W8_MAX_16THS 12u /* sixteenths of the L2 */

RX_INLINE unsigned rx_xsyn_bw_band(unsigned start, unsigned stop, size_t len,
				   void **ptrs)
{
	unsigned w = stop - start + 1;
	size_t l2 = raidx__bw_band_l2(); /* 1: no band on this CPU */

	if (w > 8 || len > l2)
		return 0;
	size_t streamed = (size_t)(w + 2) * len;
	if (streamed > l2 / 16 * 9) {
		/* eight blocks from block 0, spread: x1 a little further */
		if (w == 8 && start == 0 && streamed <= l2 / 16 * XSYN_BW_W8_MAX_16THS &&
		    !raidx__crowded_first(ptrs, w, XSYN_BW_X2_CROWD_OVER))
			return 1;
		return 0;
	}
	if (w >= 3) {
		if (streamed <= l2 / 16 * 3)
			return 0;
		return w >= XSYN_BW_X2_MIN_BLOCKS &&
			       raidx__crowded_first(ptrs + start, w, XSYN_BW_X2_CROWD_OVER)
			       ? 2
			       : 1;
	}
	if (w != 2)
		return 0;
	if (streamed > l2 / 16 * 5)
		return 4;
	return start && streamed > l2 / 16 * 3 && streamed <= l2 / 4 ? 2 : 0;
}

/* avx512.c's xor_syndrome loops (avx512x1, avx512x2, and avx512x4's on
 * windows of up to four blocks), lent to gfni_avx512x4 and gfni_avx512x2
 * for the bands above (xsyn_band, simd_avx512_gfni.h). */
RX_HIDDEN void RX_SHARED(raidx__avx512_xsyn_x1)(unsigned disks, unsigned start,
						 unsigned stop, size_t len,
						 void **ptrs);
RX_HIDDEN void RX_SHARED(raidx__avx512_xsyn_x2)(unsigned disks, unsigned start,
						 unsigned stop, size_t len,
						 void **ptrs);
RX_HIDDEN void RX_SHARED(raidx__avx512_xsyn_x4)(unsigned disks, unsigned start,
						 unsigned stop, size_t len,
						 void **ptrs);

/* avx512.c's streaming gen_syndrome (avx512x4nt), lent to gfni_avx512x4nt
 * and x2nt for crowded wide stripes (rx_gen_bw_crowd,
 * simd_avx512_gfni.h). */
RX_HIDDEN void RX_SHARED(raidx__avx512_gen_x4nt)(unsigned disks, size_t len,
						  void **ptrs);
#endif

/* ---- masked and streaming memory operations (AVX-512 files) ---------- */
#if defined(RAIDX_SIMDE) || defined(__AVX512BW__)

/* The low n bytes (1 <= n <= 64). */
RX_INLINE __mmask64 rx_prefix_mask(size_t n)
{
	return n >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << n) - 1);
}

#ifdef RAIDX_SIMDE
static inline __m512i rx_maskz_loadu_epi8(__mmask64 k, const void *p)
{
	uint8_t b[64];

	for (unsigned i = 0; i < 64; i++)
		b[i] = (k >> i) & 1 ? ((const uint8_t *)p)[i] : 0;
	return _mm512_loadu_si512(b);
}

static inline void rx_mask_storeu_epi8(void *p, __mmask64 k, __m512i v)
{
	uint8_t b[64];

	_mm512_storeu_si512(b, v);
	for (unsigned i = 0; i < 64; i++)
		if ((k >> i) & 1)
			((uint8_t *)p)[i] = b[i];
}

static inline void rx_stream_si512(void *p, __m512i v)
{
	if ((uintptr_t)p & 63)
		abort(); /* vmovntdq faults on a misaligned address */
	_mm512_storeu_si512(p, v);
}
#else
#define rx_maskz_loadu_epi8(k, p) _mm512_maskz_loadu_epi8((k), (p))
#define rx_mask_storeu_epi8(p, k, v) _mm512_mask_storeu_epi8((p), (k), (v))
#define rx_stream_si512(p, v) _mm512_stream_si512((void *)(p), (v))
#endif

#endif /* AVX-512 */

/* ---- the plan of a one-pass recovery ---------------------------------- */

/*
 * Partial syndromes of the surviving data disks, by Horner's rule from the
 * highest survivor `top` down to the lowest `low`:
 *
 *     h = D_top;  for each survivor z below, in descending order:
 *         h = g^(z' - z) * h ^ D_z          (z' the survivor before z)
 *
 * which leaves h = sum over survivors of g^(z - low) D_z, so that the Q of
 * the survivors is g^low * h.  The survivors below top form at most three
 * runs of consecutive indices (two failed disks split [0, n) into at most
 * three runs); inside a run the distance is 1, and the first step of a run
 * jumps over the failed disks before it (`dist` = index of the previous
 * survivor minus the run's first index).  GFNI kernels do that jump as one
 * multiply by g^dist; the AVX-512BW kernel does dist - 1 multiply-only steps.
 */
struct rx_rplan {
	unsigned nsurv; /* number of surviving data disks (0: none) */
	unsigned top;   /* highest survivor */
	unsigned low;   /* lowest survivor: Q of survivors = g^low * h */
	unsigned nrun;  /* runs below top */
	struct {
		unsigned hi, lo; /* indices, hi >= lo */
		unsigned dist;   /* previous survivor - hi, >= 1 */
	} run[3];
};

/*
 * Survivors of data disks hi..lo (hi >= lo) without x and y (y == x: one
 * failure).  carry: the survivors above hi are folded already, `prev` the
 * lowest of them (a group pass of a wide stripe, simd_avx512_gfni.h's
 * rec_grouped); then every survivor here is in a run, the first jumping
 * from prev, and top is not used.
 */
static inline void rx_rplan_range(struct rx_rplan *pl, unsigned hi,
				  unsigned lo, unsigned x, unsigned y,
				  int carry, unsigned prev)
{
	int have = carry;

	pl->nsurv = 0;
	pl->nrun = 0;
	pl->top = pl->low = 0;
	if (!carry)
		prev = 0;
	for (unsigned z = hi + 1; z-- > lo;) {
		if (z == x || z == y)
			continue;
		pl->nsurv++;
		if (!have) {
			have = 1;
			pl->top = z;
		} else if (z + 1 == prev && pl->nrun && pl->run[pl->nrun - 1].lo == prev) {
			pl->run[pl->nrun - 1].lo = z;
		} else {
			pl->run[pl->nrun].hi = z;
			pl->run[pl->nrun].lo = z;
			pl->run[pl->nrun].dist = prev - z;
			pl->nrun++;
		}
		prev = z;
		pl->low = z;
	}
}

/* Survivors of data disks [0, n) without x and y (y == x: one failure). */
static inline void rx_rplan_make(struct rx_rplan *pl, unsigned n, unsigned x,
				 unsigned y)
{
	rx_rplan_range(pl, n - 1, 0, x, y, 0, 0);
}

#ifdef RX_V512
/* 512-bit vectors, shared by avx512.c and gfni_avx512.c. */
typedef __m512i V;
#define VB 64 /* bytes per vector */

/* tail != 0 only for the last partial vector: k selects the bytes. */
RX_INLINE V ld(const void *p, size_t off, int tail, __mmask64 k)
{
	const uint8_t *a = (const uint8_t *)p + off;
	return tail ? rx_maskz_loadu_epi8(k, a) : _mm512_loadu_si512(a);
}

RX_INLINE void st(void *p, size_t off, V v, int tail, __mmask64 k)
{
	uint8_t *a = (uint8_t *)p + off;
	if (tail)
		rx_mask_storeu_epi8(a, k, v);
	else
		_mm512_storeu_si512(a, v);
}

/* vmovntdq zmm: 64-byte aligned p. */
RX_INLINE void vstream(void *p, V v)
{
	rx_stream_si512(p, v);
}

/* A store of an output at p + off: streamed past the cache when nt (p +
 * off VB-aligned, no tail), else normal (masked when tail).  The 256-bit
 * GFNI file has its own, in simd_avx512_gfni.h. */
RX_INLINE void put(uint8_t *p, size_t off, V v, int tail, __mmask64 k, int nt)
{
	if (nt)
		vstream(p + off, v);
	else
		st(p, off, v, tail, k);
}

RX_INLINE V xor2(V a, V b)
{
	return _mm512_xor_si512(a, b);
}

RX_INLINE V xor3(V a, V b, V c)
{
	return _mm512_ternarylogic_epi64(a, b, c, 0x96);
}
#endif /* RX_V512 */

#endif /* RAIDX_SIMD_AVX512_H */
