/*
 * test_xor - every registered xor_gen and xor_acc implementation against
 * the reference, called directly through raidx__run_xor().
 *
 *   shapes   nsrc 1..32, 255 and RAIDX_MAX_SOURCES (sources repeating
 *            blocks, which the contract allows), plain and with dst
 *            identical to srcs[0], srcs[nsrc/2], srcs[nsrc-1] or all three;
 *   lengths  every length 0..300 and around every granule, with the blocks
 *            against a guard page after them, then before them;
 *   offsets  block addresses 0..63 bytes past a 64-byte boundary, equal and
 *            mutually different;
 *   large    65536+13 and random lengths up to 1 MiB.
 *
 * Sources are read-only while a kernel runs (a write to them faults) and
 * every block has canaries around it.  Where the kernel leaves a tail to
 * the reference, it is also called alone on its bulk to check that it does
 * not write past it.
 */
#include "test_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct tlist L[2]; /* [0] xor_gen, [1] xor_acc */
static unsigned long runs;

static const char *opname(int acc)
{
	return acc ? "xor_acc" : "xor_gen";
}

static unsigned base_gran(void)
{
	unsigned g = L[0].maxgran > L[1].maxgran ? L[0].maxgran : L[1].maxgran;
	return g > 64 ? g : 64;
}

/* What dst must hold afterwards, from the reference, into exp. */
static void expect(int acc, uint8_t *exp, const uint8_t *dst0,
		   const void *const *srcs, unsigned nsrc, size_t len)
{
	if (acc) {
		memcpy(exp, dst0, len);
		raidx__ref_xor_acc(exp, srcs, nsrc, len);
	} else {
		raidx__ref_xor_gen(exp, srcs, nsrc, len);
	}
}

/*
 * Run every implementation of op `acc` with dst = block d of s (which may
 * also appear in srcs).  dst0 is dst's content before each run.
 */
static void run_all(int acc, struct tstripe *s, unsigned d,
		    const void *const *srcs, unsigned nsrc, const uint8_t *dst0,
		    const uint8_t *exp, const char *shape)
{
	size_t len = s->len;
	uint8_t *dst = s->blk[d];

	for (unsigned k = 0; k < L[acc].n; k++) {
		const struct raidx__impl *im = L[acc].v[k];
		size_t bulk = len & ~(size_t)(im->granule - 1);

		t_ctx("op=%s impl=%s %s len=%zu place=%s off=%u", opname(acc),
		      im->name, shape, len, pl_name(s->place), s->off);
		if (bulk && bulk < len) {
			memcpy(dst, dst0, len);
			im->fn.xor_gen(dst, srcs, nsrc, bulk);
			t_cmp("dst (kernel alone on its bulk)", dst, exp, bulk);
			t_cmp("dst beyond the kernel's bulk (must be untouched)",
			      dst + bulk, dst0 + bulk, len - bulk);
		}
		memcpy(dst, dst0, len);
		raidx__run_xor(im, dst, srcs, nsrc, len);
		t_cmp("dst", dst, exp, len);
		ts_check(s);
		runs++;
	}
}

/*
 * One case: blocks 0..nblk-1 of s are the distinct sources (srcs[i] =
 * block i % nblk), block `dblk` is dst; alias != 0 makes dst one of the
 * sources at the positions in `alias_at`.
 */
static void one_case(int acc, struct tstripe *s, unsigned nsrc, unsigned nblk,
		     unsigned dblk, const unsigned *alias_at, unsigned nalias,
		     struct rng *r)
{
	static const void *srcs[RAIDX_MAX_SOURCES];
	size_t len = s->len;
	char shape[96];
	unsigned d = dblk;

	for (unsigned i = 0; i < nblk; i++)
		ts_fill(s, i, r);
	ts_fill(s, dblk, r);
	for (unsigned i = 0; i < nsrc; i++)
		srcs[i] = s->blk[i % nblk];
	if (nalias) {
		d = alias_at[0] % nblk;
		for (unsigned a = 0; a < nalias; a++)
			srcs[alias_at[a]] = s->blk[d];
	}
	uint8_t *dst0 = t_dup(s->blk[d], len), *exp = t_malloc(len);
	expect(acc, exp, dst0, srcs, nsrc, len);
	for (unsigned i = 0; i < nblk; i++)
		if (i != d)
			ts_ro(s, i, 1);

	if (!nalias)
		snprintf(shape, sizeof shape, "nsrc=%u", nsrc);
	else if (nalias == 1)
		snprintf(shape, sizeof shape, "nsrc=%u dst=srcs[%u]", nsrc, alias_at[0]);
	else
		snprintf(shape, sizeof shape, "nsrc=%u dst=srcs[%u]=srcs[%u]=srcs[%u]",
			 nsrc, alias_at[0], alias_at[1], alias_at[2]);
	run_all(acc, s, d, srcs, nsrc, dst0, exp, shape);

	ts_ro_all(s, 0);
	free(dst0);
	free(exp);
}

static void test_shapes(void)
{
	unsigned counts[40], nc = 0;
	unsigned base = base_gran();
	struct tstripe *s = ts_new(257, 4 * base);
	unsigned long r0 = runs;

	for (unsigned c = 1; c <= 32; c++)
		counts[nc++] = c;
	counts[nc++] = 255;
	counts[nc++] = RAIDX_MAX_SOURCES;

	for (unsigned ci = 0; ci < nc; ci++) {
		unsigned c = counts[ci], nblk = c < 256 ? c : 256;
		for (int acc = 0; acc < 2; acc++) {
			unsigned sets[4][3] = { { 0 }, { c - 1 }, { c / 2 },
						{ 0, c / 2, c - 1 } };
			unsigned nsets[4] = { 1, 1, 1, 3 };

			ts_use(s, nblk + 1);
			ts_place(s, t_shape_len(&L[acc], &t_rng),
				 (int)rng_below(&t_rng, PL_COUNT), rng_below(&t_rng, 64));
			one_case(acc, s, c, nblk, nblk, NULL, 0, &t_rng);
			for (int k = 0; k < 4; k++) {
				if (c < 3 && k == 3)
					continue;
				ts_place(s, t_shape_len(&L[acc], &t_rng),
					 (int)rng_below(&t_rng, PL_COUNT),
					 rng_below(&t_rng, 64));
				one_case(acc, s, c, nblk, nblk, sets[k], nsets[k], &t_rng);
			}
		}
	}
	ts_free(s);
	t_log("shapes: nsrc 1..32, 255, %u, each plain and with dst = srcs[0], "
	      "srcs[nsrc-1], srcs[nsrc/2], all three; %lu runs",
	      RAIDX_MAX_SOURCES, runs - r0);
}

static void test_lengths(void)
{
	const struct tlist *ls[2] = { &L[0], &L[1] };
	size_t *lens;
	unsigned nl = t_sweep_lens(ls, 2, &lens);
	struct tstripe *s = ts_new(7, lens[nl - 1]);
	unsigned long r0 = runs;

	for (unsigned i = 0; i < nl; i++)
		for (int pl = PL_END; pl <= PL_START; pl++)
			for (int acc = 0; acc < 2; acc++) {
				unsigned nsrc = 1 + (unsigned)((lens[i] + (size_t)pl) % 6);
				ts_place(s, lens[i], pl, 0);
				one_case(acc, s, nsrc, nsrc, 6, NULL, 0, &t_rng);
			}
	t_log("lengths: %u lengths (%zu..%zu), guard page after and before, "
	      "nsrc 1..6; %lu runs", nl, lens[0], lens[nl - 1], runs - r0);
	ts_free(s);
	free(lens);
}

static void test_offsets(void)
{
	size_t len = 3 * base_gran() + 29;
	struct tstripe *s = ts_new(6, len);
	unsigned long r0 = runs;

	for (unsigned off = 0; off < 64; off += t_quick ? 5 : 1)
		for (int pl = PL_OFF; pl <= PL_SPREAD; pl++)
			for (int acc = 0; acc < 2; acc++) {
				ts_place(s, len, pl, off);
				one_case(acc, s, 5, 5, 5, NULL, 0, &t_rng);
			}
	t_log("offsets: 0..63, all blocks equal and mutually misaligned, "
	      "len %zu, nsrc 5; %lu runs", len, runs - r0);
	ts_free(s);
}

static void test_large(void)
{
	size_t lens[4] = { 65536 + 13 };
	unsigned nl = t_quick ? 1 : 4;
	struct tstripe *s;
	unsigned long r0 = runs;

	for (unsigned i = 1; i < nl; i++)
		lens[i] = rng_range(&t_rng, 1, 1 << 20);
	s = ts_new(5, 1 << 20);
	for (unsigned i = 0; i < nl; i++)
		for (int acc = 0; acc < 2; acc++) {
			ts_place(s, lens[i], (int)rng_below(&t_rng, PL_COUNT),
				 rng_below(&t_rng, 64));
			one_case(acc, s, 4, 4, 4, NULL, 0, &t_rng);
		}
	ts_free(s);

	/* 16 or more inputs on blocks of 256 KiB or more: chunks in passes
	 * over groups of sources (x86_kernels.h, rxk_xor_grouped); the last
	 * chunk is short.  With dst among the later sources the kernels must
	 * not take that path. */
	size_t plen = ((size_t)256 << 10) + 4096 + 13;
	static const unsigned at[1] = { 20 };
	s = ts_new(25, plen);
	for (int acc = 0; acc < 2; acc++) {
		ts_place(s, plen, (int)rng_below(&t_rng, PL_COUNT), rng_below(&t_rng, 64));
		one_case(acc, s, 15, 15, 24, NULL, 0, &t_rng);
		one_case(acc, s, 16, 16, 24, NULL, 0, &t_rng);
		one_case(acc, s, 24, 24, 24, NULL, 0, &t_rng);
		one_case(acc, s, 24, 24, 24, at, 1, &t_rng);
		/* page-aligned dst: the non-temporal twins group too */
		ts_place(s, plen, PL_START, 0);
		one_case(acc, s, 24, 24, 24, NULL, 0, &t_rng);
		/* Blocks at one offset in their pages crowd an L1 set and take
		 * the crowded passes (16 KiB chunks); spread ones take the
		 * passes for many sources, whose chunk the ISA file may set
		 * (64 KiB on AVX2: 266240 bytes are four chunks and a short
		 * fifth).  The random placement above picks spread blocks only
		 * one time in five, so place them here too. */
		ts_place(s, plen, PL_SPREAD, rng_below(&t_rng, 64));
		one_case(acc, s, 16, 16, 24, NULL, 0, &t_rng);
		one_case(acc, s, 24, 24, 24, NULL, 0, &t_rng);
		/* passes of unequal size: xor_gen reads 9 + 9 blocks with 17
		 * sources, 8 + 7 + 7 with 20, 9 + 8 + 8 with 23 (xor_acc
		 * reads dst as one input more) */
		one_case(acc, s, 17, 17, 24, NULL, 0, &t_rng);
		one_case(acc, s, 20, 20, 24, NULL, 0, &t_rng);
		one_case(acc, s, 23, 23, 24, NULL, 0, &t_rng);
	}
	ts_free(s);

	/* 17 or more inputs (10 or more in avx512.c) are grouped from 2 KiB
	 * blocks (in cache): at the threshold, one byte below it, with a
	 * tail, at a random length up to 64 KiB (one 64 KiB chunk or several
	 * 16 KiB ones), and with dst among the sources, where the kernels
	 * must not take that path.  9 sources: xor_gen's last fixed loop,
	 * xor_acc's first grouped count in avx512.c. */
	size_t glens[5] = { 2048, 2047, 2048 + 13, 5000,
			    rng_range(&t_rng, 2048, (size_t)64 << 10) };
	static const unsigned gat[1] = { 11 },
			      gn[7] = { 9, 10, 12, 16, 17, 20, 33 };
	s = ts_new(34, (size_t)64 << 10);
	for (unsigned i = 0; i < 5; i++)
		for (int acc = 0; acc < 2; acc++) {
			ts_place(s, glens[i], (int)rng_below(&t_rng, PL_COUNT),
				 rng_below(&t_rng, 64));
			for (unsigned k = 0; k < 7; k++)
				one_case(acc, s, gn[k], gn[k], 33, NULL, 0, &t_rng);
			one_case(acc, s, 20, 20, 33, gat, 1, &t_rng);
		}
	ts_free(s);

	/* 12 or more inputs on blocks of 2 MiB or more are grouped too:
	 * xor_gen of 12 sources in passes over 7 and 6 blocks (dst and 5),
	 * xor_acc's 13 inputs over 7 and 7; 11 sources stay in one pass. */
	size_t mlen = ((size_t)2 << 20) + 4096 + 13;
	s = ts_new(13, mlen);
	for (int acc = 0; acc < 2; acc++) {
		ts_place(s, mlen, PL_SPREAD, rng_below(&t_rng, 64));
		one_case(acc, s, 12, 12, 12, NULL, 0, &t_rng);
		one_case(acc, s, 11, 11, 12, NULL, 0, &t_rng);
	}
	ts_free(s);

	/* 1-4 sources whose blocks and dst exceed 1 MiB: the AVX2 kernel's
	 * 16-byte loop (avx2.c), with a tail shorter than its 128-byte step
	 * and one shorter than a vector; 5 sources take the 256-bit loop. */
	size_t xlen = ((size_t)512 << 10) + 96 + 13;
	static const unsigned first[1] = { 0 }, last[1] = { 3 };
	s = ts_new(6, xlen);
	for (int acc = 0; acc < 2; acc++)
		for (unsigned n = 1; n <= 5; n++) {
			ts_place(s, xlen, (int)rng_below(&t_rng, PL_COUNT), rng_below(&t_rng, 64));
			one_case(acc, s, n, n, 5, NULL, 0, &t_rng);
			one_case(acc, s, n, n, 5, n == 4 ? last : first, 1, &t_rng);
		}
	ts_free(s);
	t_log("large: lengths %zu%s, nsrc 4; nsrc 15, 16, 24, 24 with "
	      "dst = srcs[20], 24 page-aligned, 16, 24, 17, 20 and 23 spread, at %zu bytes; "
	      "nsrc 9, 10, 12, 16, 17, 20, 33 and 20 with dst = srcs[11] at 2048, 2047, 2061, 5000 and %zu bytes; "
	      "nsrc 11 and 12 spread at %zu bytes; nsrc 1-5 at %zu "
	      "bytes, dst apart and dst = srcs[0] (srcs[3] for 4); %lu runs", lens[0],
	      nl > 1 ? " and 3 random up to 1 MiB" : "", plen, glens[4], mlen, xlen,
	      runs - r0);
}

/*
 * avx512.c takes 256-bit loops where the inputs come from the L3
 * (xor_l3_band, xor_l3_grp_band): xor_gen (avx512nt) of 4-9 sources whose
 * bytes are a quarter of the LLC to all of it (2-3 sources: from a
 * quarter, with no upper bound), in one pass; of 10 or more sources, a
 * quarter to below all of it (10-11 sources: below half), in group passes
 * over 64 KiB chunks; xor_acc (avx512) of 1-4 sources whose bytes with
 * dst's are half the LLC to one and a half.  On a 32 MiB L3 that is 8-48
 * MiB, beyond what the tests above allocate.  With the LLC taken as 64 KiB
 * the bands are kilobytes: each op's bounds, a byte outside them, a
 * random length inside, with tails of every kind, random offsets, and dst
 * among the sources.  1-13 sources and 16, 17, 20 and 24, so the counts
 * just outside each band run too.  Then, with the LLC taken as 4 MiB,
 * group passes over several chunks (blocks of 64-400 KiB).
 */
static const unsigned l3_counts[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 20, 24 };
#define L3_MAX 24

/* xor_gen's band for nsrc sources, in bytes per block: [*lo, *hi]. */
static void l3_gen_band(size_t llc, unsigned nsrc, size_t *lo, size_t *hi)
{
	*lo = (llc / 4 + nsrc - 1) / nsrc;
	if (nsrc >= 10) /* below all (10-11: below half) of the LLC */
		*hi = ((nsrc < 12 ? llc / 2 : llc) - 1) / nsrc;
	else if (nsrc >= 4)
		*hi = llc / nsrc;
	else /* unbounded: the block's whole length */
		*hi = llc;
}

/* The group passes are for blocks that do not crowd an L1 set (rxk_crowded,
 * x86_kernels.h); every placement but PL_SPREAD starts all blocks at one
 * page offset, where the template groups the crowded way.  So with 10 or
 * more sources, spread blocks in all but the last case. */
static int l3_place(unsigned nsrc, unsigned i)
{
	if (nsrc >= 10 && i < 4)
		return PL_SPREAD;
	return (int)rng_below(&t_rng, PL_COUNT);
}

static void test_l3_band(void)
{
	size_t llc = (size_t)64 << 10;
	struct tstripe *s = ts_new(L3_MAX + 1, llc + 1);
	unsigned long r0 = runs;
	static const unsigned first[1] = { 0 };

	raidx__llc_set(llc);
	for (unsigned c = 0; c < sizeof(l3_counts) / sizeof(l3_counts[0]); c++) {
		unsigned nsrc = l3_counts[c], last[1] = { nsrc - 1 };
		for (int acc = 0; acc < 2; acc++) {
			size_t lo, hi;
			if (acc) { /* sources and dst */
				lo = (llc / 2 + nsrc) / (nsrc + 1);
				hi = llc / 2 * 3 / (nsrc + 1);
			} else {
				l3_gen_band(llc, nsrc, &lo, &hi);
			}
			if (hi > llc)
				hi = llc;
			size_t lens[5] = { lo - 1, lo, hi, hi + 1,
					   rng_range(&t_rng, lo, hi) };
			for (unsigned i = 0; i < 5; i++) {
				ts_place(s, lens[i], l3_place(nsrc, i),
					 rng_below(&t_rng, 64));
				one_case(acc, s, nsrc, nsrc, L3_MAX, NULL, 0, &t_rng);
				one_case(acc, s, nsrc, nsrc, L3_MAX, first, 1, &t_rng);
				one_case(acc, s, nsrc, nsrc, L3_MAX, last, 1, &t_rng);
			}
		}
	}
	ts_free(s);

	/* Group passes over chunks of 64 KiB: up to 400 KiB a block. */
	llc = (size_t)4 << 20;
	s = ts_new(L3_MAX + 1, (size_t)400 << 10);
	raidx__llc_set(llc);
	for (unsigned nsrc = 10; nsrc <= L3_MAX; nsrc++) {
		size_t lo, hi;
		l3_gen_band(llc, nsrc, &lo, &hi);
		size_t lens[3] = { lo, hi, rng_range(&t_rng, lo, hi) };
		for (unsigned i = 0; i < 3; i++) { /* all spread (l3_place) */
			ts_place(s, lens[i], l3_place(nsrc, i), rng_below(&t_rng, 64));
			one_case(0, s, nsrc, nsrc, L3_MAX, NULL, 0, &t_rng);
		}
	}
	raidx__llc_set(0);
	ts_free(s);
	t_log("L3 bands: LLC taken as 64 KiB, nsrc 1-13, 16, 17, 20, 24 at each "
	      "op's band bounds, one byte outside them and a random length "
	      "inside, dst apart, = srcs[0] and = srcs[nsrc-1]; LLC taken as 4 "
	      "MiB, nsrc 10-24 at xor_gen's bounds and inside; %lu runs",
	      runs - r0);
}

#if defined(__x86_64__) || defined(__i386__)
/* The cases of a band [lo, hi] (bytes per block) for nsrc sources, dst at
 * block dblk: lo - 1, lo, hi, hi + 1 and a random length inside (the first
 * two skipped under --quick), each at a random placement and offset, with
 * dst apart, = srcs[0] and = srcs[nsrc-1].  The L2 bands are x86 rules. */
static void band_cases(int acc, struct tstripe *s, unsigned nsrc, unsigned dblk,
		       size_t lo, size_t hi)
{
	static const unsigned first[1] = { 0 };
	unsigned last[1] = { nsrc - 1 };
	size_t lens[5] = { lo - 1, lo, hi, hi + 1, rng_range(&t_rng, lo, hi) };

	for (unsigned i = 0; i < 5; i++) {
		if (t_quick && i < 2)
			continue;
		ts_place(s, lens[i], (int)rng_below(&t_rng, PL_COUNT), rng_below(&t_rng, 64));
		one_case(acc, s, nsrc, nsrc, dblk, NULL, 0, &t_rng);
		one_case(acc, s, nsrc, nsrc, dblk, first, 1, &t_rng);
		one_case(acc, s, nsrc, nsrc, dblk, last, 1, &t_rng);
	}
}
#endif

/*
 * avx512's xor_acc and xor_gen in a 256-bit loop where the blocks stream
 * from the L2 (x86/avx512.c, xor_l2_ymm_band; RAIDX__T_XOR_L2_YMM, on for
 * the test whatever the CPU): 1-9 sources at the band's bounds by this
 * CPU's L1 and L2, a byte outside each and a random length inside (tails
 * of every kind), dst apart, = srcs[0] and = srcs[nsrc-1].  The bounds
 * are the same for both ops (sources and dst); xor_gen of one source (a
 * copy) stays outside, and runs here as a check that it still does.
 */
static void test_l2_ymm_band(void)
{
#if defined(__x86_64__) || defined(__i386__)
	size_t l1 = raidx__l1d_bytes(), l2 = raidx__l2_bytes(), ymax = (size_t)96 << 10;
	unsigned long r0 = runs;

	if (l2 / 2 <= 2 * l1) {
		t_log("L2 ymm band: none with L1 %zu and L2 %zu bytes", l1, l2);
		return;
	}
	raidx__cpu_traits_set(raidx__cpu_traits() | RAIDX__T_XOR_L2_YMM);
	struct tstripe *s = ts_new(10, ymax + 1);
	for (int acc = 0; acc <= 1; acc++) {
		for (unsigned nsrc = 1; nsrc <= 9; nsrc++) {
			size_t lo = 2 * l1 / (nsrc + 1) + 1, hi = l2 / 2 / (nsrc + 1);
			if (hi > ymax)
				hi = ymax;
			if (lo > hi)
				continue;
			band_cases(acc, s, nsrc, 9, lo, hi);
		}
	}
	ts_free(s);
	raidx__cpu_traits_set(0);
	t_log("L2 ymm band: L1 %zu, L2 %zu bytes, xor_gen and xor_acc of 1-9 "
	      "sources at the band's bounds, one byte outside them and a random "
	      "length inside, dst apart, = srcs[0] and = srcs[nsrc-1]; %lu runs",
	      l1, l2, runs - r0);
#endif
}

/*
 * avx512nt's xor_gen of 5-9 sources in the 256-bit streaming loop where the
 * blocks and dst are more than half the L2 and at most all of it
 * (x86/avx512.c, xor_l2_nt_band; RAIDX__T_XOR_NT_MID, on for the test
 * whatever the CPU): 4-10 sources at the band's bounds by this CPU's L2, a
 * byte outside each and a random length inside (tails of every kind,
 * including dst's head up to its first 64-byte boundary), dst apart, =
 * srcs[0] and = srcs[nsrc-1]; 4 and 10 sources as a check that they stay
 * outside.
 */
static void test_l2_nt_band(void)
{
#if defined(__x86_64__) || defined(__i386__)
	size_t l2 = raidx__l2_bytes();
	unsigned long r0 = runs;

	if (l2 < 4096) {
		t_log("L2 nt band: none, L2 %zu bytes", l2);
		return;
	}
	raidx__cpu_traits_set(raidx__cpu_traits() | RAIDX__T_XOR_NT_MID);
	struct tstripe *s = ts_new(11, l2 / 5 + 1);
	for (unsigned nsrc = 4; nsrc <= 10; nsrc++) {
		size_t lo = l2 / 2 / (nsrc + 1) + 1, hi = l2 / (nsrc + 1);
		band_cases(0, s, nsrc, 10, lo, hi);
	}
	ts_free(s);
	raidx__cpu_traits_set(0);
	t_log("L2 nt band: L2 %zu bytes, xor_gen of 4-10 sources at the band's bounds, "
	      "one byte outside them and a random length inside, dst apart, = srcs[0] "
	      "and = srcs[nsrc-1]; %lu runs",
	      l2, runs - r0);
#endif
}

int main(int argc, char **argv)
{
	t_init(argc, argv, "test_xor");
	t_impls(RAIDX_OP_XOR_GEN, &L[0]);
	t_impls(RAIDX_OP_XOR_ACC, &L[1]);
	t_log("xor_gen impls: %s", L[0].names);
	t_log("xor_acc impls: %s", L[1].names);

	test_shapes();
	test_lengths();
	test_offsets();
	test_large();
	test_l3_band();
	test_l2_ymm_band();
	test_l2_nt_band();
	return t_done();
}
