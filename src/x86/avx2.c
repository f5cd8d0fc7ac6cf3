/*
 * avx2.c - AVX2 kernels for every operation: xor_gen, xor_acc, gen_syndrome,
 * xor_syndrome, recov_2data, recov_datap.
 *
 * The algorithms live in x86_kernels.h, written once over an abstract
 * vector; this file supplies the 32-byte dialect and the registrations.
 * These are the design notes for all x86 kernels built from the template.
 * Numbers are from the development machine (AMD EPYC Zen 3, 2 vCPUs, about
 * 2.1 GHz under load, gcc 12 -O3), best of interleaved rounds, 4 KiB blocks
 * unless said otherwise.
 *
 * ---- Q by Horner's rule -------------------------------------------------
 * Q = sum g^z D_z = ((D_n-1 * 2 ^ D_n-2) * 2 ^ ...) * 2 ^ D_0: one running
 * value q, multiplied by 2 and XORed with the next lower block.  The top
 * block starts P and Q (it is loaded, not XORed into zero), so n data blocks
 * cost n - 1 steps; ISA-L's pq_gen starts from zero and does n.
 *
 * Multiply by 2 of 32 bytes: 2v = (v + v) ^ (0x1d where v's top bit was
 * set), the add shifting every byte left (x^8 = x^4 + x^3 + x^2 + 1 gives
 * the 0x1d).  The mask comes from the sign bit: vpblendvb(0, 0x1d, v) picks
 * 0x1d in the bytes with the top bit set in one operation, where
 * vpcmpgtb + vpand take two.  A Horner step is then five vector operations
 * per 32 bytes: P ^= d, blend, add, xor, q ^= d.  (vpshufb of a 0x1d table
 * indexed by v also yields the mask in one operation, but it returns 0x1d
 * where the top bit is clear, and carrying the 0x1d offset through Q costs
 * as much as it saves.)  On Zen 3 the four vector ALU pipes then bound the
 * step at 1.25 cycles per 32 bytes, and gen_syndrome 4+2 runs at 4.0 vector
 * operations per cycle: the kernel is ALU-bound, the loads and the loop are
 * hidden.
 *
 * GCC folds vpblendvb with constant operands back into vpcmpgtb + vpand, so
 * the two constants are broadcast from the generated GF tables (log(1) = 0,
 * g^8 = 0x1d), which it cannot see into: gen_syndrome 4+2 went from 63 to
 * 71 GB/s (clang, which keeps the blend anyway: 72).
 *
 * ---- unrolls ------------------------------------------------------------
 * The multiply chain is 3 operations deep per disk, so one vector per step
 * (x1) leaves the pipes idle; x2 and x4 run independent chains.
 * gen_syndrome 16+2: x1 39-47, x2 47-58, x4 57-62 GB/s; 4+2: x2 70, x4 72.
 * So x4 is the static choice for gen_syndrome.  xor_syndrome: x4 ahead of
 * or level with x2 on most windows here (16+2 [8,15]: 44 against 42), x2
 * ahead on a few small ones (4+2 [2,3]); the calibration in select.c picks
 * per machine, the static order prefers x4.  Recovery: since the chain
 * shapes have their own loops (x86_kernels.h, rxk_surv_shape) x4 is ahead
 * of or level with x2 in cache (1.04x geomean over 36 cells), and it is
 * preferred: a calibration that sees them tied (within TIE_MARGIN,
 * select.c) keeps it.  All kernels have a granule of one vector: after the
 * unrolled loop a one-vector loop finishes the block, so only len % 32
 * bytes go to the byte-wise reference.
 *
 * Against ISA-L's pq_gen (its AVX2 path uses vpblendvb too, five
 * operations per step, but does one step more per stripe and uses
 * non-temporal stores): 0.98-1.5x where ISA-L runs at its compute speed
 * (8+2, or blocks staggered in their page offset), 2-5x where its
 * non-temporal stores stall (4+2, 16+2 with malloc'd blocks; 2.0-3.2x with
 * page-aligned blocks).  The ALU bound is the same
 * for both, so on AVX2 the gain in compute-bound cases is at most about
 * n / (n - 1).  Both lose speed on page-aligned blocks (ISA-L far more, to
 * 13-23 GB/s).  The evidence points at the L1's 8 ways: with every data block at one
 * page offset, each offset's lines of all blocks share a set, and the loss
 * grows with the blocks that do (x86_kernels.h, rxk_crowded, has the
 * measurements).  gen_syndrome with more than 8 such data blocks works in
 * passes over groups of at most 6 (6 lines, plus P and Q, fill the 8
 * ways): 1.06-1.7x of the one-pass loop page-aligned from 10+2 up.  Up to
 * 8+2 the one-pass loop stays (it ran level with the passes there).
 * xor_gen with more than 8 crowded sources, recov_datap from 16 KiB and
 * xor_syndrome windows of more than 10 blocks from 64 KiB do the same;
 * recov_2data does not.
 *
 * Pointers.  Stores through uint8_t pointers may alias anything, so a
 * compiler reloads ptrs[] after every store.  P, Q (and the rebuilt blocks)
 * are read into locals once per call: this alone took xor_syndrome on a
 * one-disk window from 0.80x to 1.0x of a Linux-style avx2x2 kernel.
 *
 * ---- xor_gen / xor_acc ----------------------------------------------------
 * 256 bytes (8 vectors) per step, sources never looped over around each
 * vector (seed 004: that costs 9 instructions per vector and "destroys
 * performance").  1 to 8 inputs (dst counts as one for xor_acc): dedicated
 * loops with every pointer in a register.  More: the 8 result vectors stay
 * in registers while sources are folded in four at a time (4 pointer loads
 * per 32 vector loads).  2 sources at 4 KiB: 2.6-3.0x ISA-L's xor_gen (which
 * uses non-temporal stores, so its output goes to DRAM); 16 sources: 1.1x.
 * From 64 KiB x 8 sources up the data no longer fits in L2 and both run at
 * the L3 bandwidth of the core (45-80 GB/s), where the ratio is 0.9-1.1x;
 * where ISA-L's non-temporal dst keeps the sources in L2 (8 x 64 KiB), it
 * is ahead by up to 10%, and so is "avx2nt".  Within a step the sources are
 * read one after the other, 8 consecutive vectors each, rather than the 8
 * sources at one offset back to back (page-aligned 8 x 4 KiB: 0.98x of
 * ISA-L before, 1.02-1.11x after; close to the noise here).
 * Normal stores: the parity is read again soon.  "avx2nt" is the
 * non-temporal twin for calls larger than the last-level cache (chosen
 * only there, see select.c).
 *
 * ---- beyond L2 -------------------------------------------------------------
 * Out of L2 the order of the memory accesses matters more than the
 * operation count (x86_kernels.h has the measurements):
 *   - every P/Q and recovery kernel steps 64 bytes (one line of each
 *     block) once a call's blocks exceed 512 KiB: the x4 kernels' 128-byte
 *     step had lost to x2 by up to 36% there;
 *   - with 21 or more blocks of 256 KiB or more (20 of 1 MiB, 18 of
 *     2 MiB; gen_syndrome: also 26 or more of 32 KiB), gen_syndrome and the
 *     recoveries run 16 KiB chunks in passes over groups of 12 blocks,
 *     and xor_gen/xor_acc with 16 or more inputs (12 from 2 MiB) in
 *     passes of up to 9 (the non-temporal twin too, with normal
 *     stores): the prefetchers follow
 *     8-12 streams but not 20-34 (1.1-2.2x over one pass with software
 *     prefetch at 26-34 disks, 1.1-1.9x for 16-24 XOR sources);
 *   - xor_syndrome windows whose blocks with P and Q are that many (21
 *     from 256 KiB, 20 from 1 MiB, 18 from 2 MiB) take the same chunks
 *     and groups, Q carrying the chain in its own block (1.01-3.6x; 34
 *     disks [0,31] 2.2-2.8x from 1 MiB, where one pass ran 0.6-0.7x
 *     ISA-L).
 *
 * ---- xor_syndrome ---------------------------------------------------------
 * Linux semantics: Horner over the window [start, stop] only, then the
 * window's Q term is multiplied by g^start for the disks below it, which are
 * not read.  Linux does that with `start` more multiply-by-2 steps; here it
 * is one constant multiply with vpshufb nibble tables once start > 2 (six
 * operations: and, shift, and, two vpshufb, xor, against three per step):
 * a one-disk window at the top of 16+2 runs 3.8-4.6x faster than the
 * Linux-style kernel, at the top of 8+2 1.7-2.1x, in the middle of 16+2
 * 1.9-2.2x.  Windows that start at disk 0 do the same work as Linux (both
 * are store-bound: two stores per 32 data bytes on a one-disk window) and
 * gain only the cheaper multiply-by-2 on wide windows (1.05-1.2x).  P and Q
 * are read-modify-written with normal stores (seed 000: non-temporal stores
 * in xor_syndrome cost 9% IOPS).
 *
 * ---- recovery ---------------------------------------------------------------
 * One pass, no scratch blocks: the surviving disks' P and Q are
 * accumulated in registers (Horner split at the lost disks, which cost only
 * their multiply-by-2), XORed with the stored P and Q, and then
 *     Dx = A * Pxy ^ B * Qxy,  Dy = Pxy ^ Dx   (raidx__recov_coef())
 * with two vpshufb nibble-table multiplies; recov_datap needs one
 * (Dx = g^-x Qx, P = Ps ^ Dx).  Against ISA-L's decode path (ec_encode_data
 * with two outputs over the k survivors, 15 vector operations per source
 * vector against our 5): 2.2-3.3x with ISA-L's tables precomputed, 3.5x
 * (4+2) to 18x (16+2) when its matrix inversion and table set-up are
 * counted, as a one-off recovery of a stripe needs them.
 */
#include <immintrin.h>

#include "raidx_impl.h"

typedef __m256i rxv;
#define RXV_BYTES 32

static inline rxv rxv_load(const void *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

static inline void rxv_store(void *p, rxv v)
{
	_mm256_storeu_si256((__m256i *)p, v);
}

static inline rxv rxv_xor(rxv a, rxv b)
{
	return _mm256_xor_si256(a, b);
}

/*
 * 2v for every byte.  The blend operands come from the GF tables so that
 * GCC cannot turn the blend back into vpcmpgtb + vpand (see above); loads
 * of const tables are hoisted out of the loops.
 */
static inline rxv rxv_mul2(rxv v)
{
	rxv zero = _mm256_set1_epi8((char)raidx__gf_log[1]);   /* 0 */
	rxv poly = _mm256_set1_epi8((char)raidx__gf_exp[8]);   /* 0x1d */
	return _mm256_xor_si256(_mm256_add_epi8(v, v),
				_mm256_blendv_epi8(zero, poly, v));
}

#define RXV_HAVE_STREAM 1
static inline void rxv_stream(void *p, rxv v)
{
	_mm256_stream_si256((__m256i *)p, v);
}

static inline void rxv_stream_fence(void)
{
	_mm_sfence();
}

#define RXV_HAVE_MULC 1
typedef struct {
	rxv lo, hi;
} rxv_ctab;

/* c * x = lo[c][x & 15] ^ hi[c][x >> 4]: vpshufb looks up within each
 * 128-bit lane, so each 16-byte table is broadcast to both lanes. */
static inline rxv_ctab rxv_ctab_make(uint8_t c)
{
	rxv_ctab t;
	t.lo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)raidx__gf_mul_lo[c]));
	t.hi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)raidx__gf_mul_hi[c]));
	return t;
}

static inline rxv rxv_mulc(rxv v, const rxv_ctab *t)
{
	rxv m = _mm256_set1_epi8(0x0f);
	rxv lo = _mm256_and_si256(v, m);
	rxv hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), m);
	return _mm256_xor_si256(_mm256_shuffle_epi8(t->lo, lo),
				_mm256_shuffle_epi8(t->hi, hi));
}

/*
 * gen_syndrome on blocks of 48 KiB or more: x4 runs x2's code (64-byte
 * steps; beyond 512 KiB of blocks every x4 does).  4+2 at 64 KiB is where
 * x4 lost: in twelve runs of `raidx bench --op gen_syndrome --disks
 * 4,5,6,7,8 --len 48k,64k,96k --impl avx2x2,avx2x4`, x2/x4 was 1.24-1.39
 * in four and 0.93-1.03 in the rest; raidx bench's recheck found the pick
 * (x4) at 0.77-0.79x of x2 there in four of twelve default runs over two
 * days.  Which runs lose depends on the machine's state and on the
 * buffers' physical pages (docs/performance-log.md, "Differences that
 * move from run to run"); x4's 128-byte step gained
 * nothing on 2-6 data blocks at 48-96 KiB (x2/x4 medians 1.00-1.03, single
 * runs 0.88-1.08 but 1.30 once on 4+2 at 48 KiB).  This routing against
 * the old x4 in one binary, five runs on 1-10 data blocks at 24-128 KiB:
 * medians 0.98-1.02 where it routes.  Not from 32 KiB: there
 * x4 won on 10+2 (x2/x4 0.95).  Not by the blocks' total (from 256 KiB),
 * which took wide stripes whose x4 won: 32+2 at 8 KiB 0.90, 16+2 at
 * 16 KiB 0.93 (three runs).
 */
#define RXK_GEN_X4_X2_MIN_LEN ((size_t)48 << 10)

/*
 * xor_gen/xor_acc with 16 or more sources from 256 KiB (rxk_xor_grouped's
 * passes, of 8 when this was measured): chunks of 64 KiB instead of
 * gen_syndrome's 16 KiB.  The
 * 16-source 1 MiB cell (17 MiB a call, half the L3) was the selection
 * goal's commonest miss after the change above: the portable int64x4, one
 * pass at 32 bytes a step, came within 0.91-0.95x of the grouped passes
 * there in four of nine default runs.  Against 16 KiB chunks in one binary,
 * four runs of `raidx bench --op xor_gen,xor_acc --disks 16,20,24,34 --len
 * 256k,1m,4m,16m`, medians: 1 MiB 1.04 (xor_gen) and 1.05 (xor_acc) with
 * 16 sources, 1.00-1.07 with 20-24, 0.97-1.02 with 34; 256 KiB, 4 MiB and
 * 16 MiB 0.98-1.03.  In six earlier runs on 16-24 sources at 1 MiB,
 * against 16 KiB: 64 KiB medians 1.03-1.09, 32 KiB 1.03-1.07, 8 KiB
 * 0.86-0.96.  Crowded sources keep 16 KiB (their passes were measured
 * with it).  Why longer runs per stream help from L3 is not known.
 */
#define RXK_XOR_GRP_CHUNK ((size_t)64 << 10)
#define RXK_WANT_XOR 1
#define RXK_WANT_PQ 1
#define RXK_WANT_RECOV 1
#include "x86_kernels.h"

/*
 * xor_gen with 1-4 sources whose blocks, dst included, exceed 1 MiB: 16-byte
 * vectors.  Coming from L3, 128-bit loads and stores ran ahead of 256-bit
 * ones on this Zen 3 (as sse2 did ahead of this kernel, which the rechecks
 * of raidx bench found at 0.946x of sse2 over 126 pairs on 1 source at
 * 1 MiB, and at 0.95-0.96x on 2-4 sources, in four runs).  Only loads or only stores at half width did not do
 * it (2 sources 0.81-0.91x of the 256-bit loop).  Against the 256-bit loop
 * kept as a second kernel in one binary, five runs of `raidx bench --op
 * xor_gen --disks 1,2,3,4 --len 1m,2m` and five of `--len 512k,1m,2m`,
 * medians per cell: 1.02-1.07x, single runs 0.88-1.11; sse2 beside them
 * 1.02-1.07x.  With 8 sources it lost (0.94x at 1 MiB, 0.97x at 256 KiB),
 * and for 1 source at 256 KiB (0.91x), so neither is routed.  This code
 * against the 256-bit loop, four runs of `--disks 1,2,3,4,8 --len
 * 64k,256k,1m,4m`: medians 1.03-1.08x at 1 MiB, 1.03-1.09x at 4 MiB,
 * 1.04-1.08x for 3-4 sources at 256 KiB, 0.99-1.02x where it does not
 * route.  Why the narrower vectors win from L3 is not known (no
 * performance counters on these VMs).
 */
#define X16_MAX_SRC 4
#define X16_MIN_BYTES ((size_t)1 << 20)

RXK_INLINE void x16_xor(uint8_t *dst, const uint8_t *const *in, size_t len, unsigned n)
{
	const uint8_t *p[X16_MAX_SRC];
	size_t off = 0;

	for (unsigned i = 0; i < n; i++)
		p[i] = in[i];
	for (; off + 128 <= len; off += 128) {
		__m128i v[8];
		for (unsigned k = 0; k < 8; k++)
			v[k] = _mm_loadu_si128((const __m128i *)(p[0] + off + 16 * k));
		for (unsigned i = 1; i < n; i++)
			for (unsigned k = 0; k < 8; k++)
				v[k] = _mm_xor_si128(v[k], _mm_loadu_si128((const __m128i *)(p[i] + off + 16 * k)));
		for (unsigned k = 0; k < 8; k++)
			_mm_storeu_si128((__m128i *)(dst + off + 16 * k), v[k]);
	}
	for (unsigned i = 0; i < n; i++)
		p[i] += off;
	rxk_xor_few(dst + off, p, n, len - off, 0); /* the last < 128 bytes */
}

static void avx2_xor_gen(void *dst, const void *const *srcs, unsigned nsrc, size_t len)
{
	const uint8_t *const *s = (const uint8_t *const *)srcs;

	if (nsrc > X16_MAX_SRC || len * (nsrc + 1) < X16_MIN_BYTES) {
		rxk_xor_gen(dst, srcs, nsrc, len);
		return;
	}
	/* n a constant in each call, as in rxk_xor_few */
	switch (nsrc) {
	case 1: x16_xor(dst, s, len, 1); return;
	case 2: x16_xor(dst, s, len, 2); return;
	case 3: x16_xor(dst, s, len, 3); return;
	default: x16_xor(dst, s, len, 4); return;
	}
}

/* Static priorities (35-45) follow the measurements above; select.c
 * measures and may choose differently on another machine. */
RAIDX__IMPL_TABLE(avx2) = {
#define E(name, op, prio, kind, fn, flags) \
	RAIDX__ENTRY(name, op, prio, RXV_BYTES, RAIDX_CPU_AVX2, kind, fn, flags)
	E("avx2", RAIDX_OP_XOR_GEN, 40, xor_gen, avx2_xor_gen, 0),
	E("avx2nt", RAIDX_OP_XOR_GEN, 35, xor_gen, rxk_xor_gen_stream, RAIDX__F_NT),
	E("avx2", RAIDX_OP_XOR_ACC, 40, xor_gen, rxk_xor_acc, 0),
	E("avx2x1", RAIDX_OP_GEN_SYNDROME, 36, gen, rxk_gen_x1, 0),
	E("avx2x2", RAIDX_OP_GEN_SYNDROME, 40, gen, rxk_gen_x2, 0),
	E("avx2x4", RAIDX_OP_GEN_SYNDROME, 42, gen, rxk_gen_x4, 0),
	E("avx2x2nt", RAIDX_OP_GEN_SYNDROME, 35, gen, rxk_gen_x2nt, RAIDX__F_NT),
	E("avx2x4nt", RAIDX_OP_GEN_SYNDROME, 35, gen, rxk_gen_x4nt, RAIDX__F_NT),
	E("avx2x1", RAIDX_OP_XOR_SYNDROME, 36, xsyn, rxk_xsyn_x1, 0),
	E("avx2x2", RAIDX_OP_XOR_SYNDROME, 40, xsyn, rxk_xsyn_x2, 0),
	E("avx2x4", RAIDX_OP_XOR_SYNDROME, 41, xsyn, rxk_xsyn_x4, 0),
	E("avx2x1", RAIDX_OP_RECOV_2DATA, 36, r2, rxk_recov_2data_x1, 0),
	E("avx2x2", RAIDX_OP_RECOV_2DATA, 40, r2, rxk_recov_2data_x2, 0),
	E("avx2x4", RAIDX_OP_RECOV_2DATA, 41, r2, rxk_recov_2data_x4, 0),
	E("avx2x1", RAIDX_OP_RECOV_DATAP, 36, rdp, rxk_recov_datap_x1, 0),
	E("avx2x2", RAIDX_OP_RECOV_DATAP, 40, rdp, rxk_recov_datap_x2, 0),
	E("avx2x4", RAIDX_OP_RECOV_DATAP, 41, rdp, rxk_recov_datap_x4, 0),
#undef E
	RAIDX__END,
};
