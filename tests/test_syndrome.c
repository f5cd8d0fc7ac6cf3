/*
 * test_syndrome - every registered gen_syndrome and xor_syndrome
 * implementation against the reference, called directly through
 * raidx__run_gen_syndrome() / raidx__run_xor_syndrome().
 *
 *   gen shapes    every disks 3..40, and 64, 128, 257, with the blocks
 *                 starting in one L1 set (the crowded blocks' group
 *                 passes) and spread over 16; also data blocks that alias
 *                 each other (allowed: they are only read);
 *   crowded       windows of 9-21 blocks in 24 disks on 64 KiB blocks and
 *                 more, crowded in one L1 set and spread;
 *   windows       every (start, stop) for every disks 3..24, with the data
 *                 pointers outside the window NULL (the contract says they
 *                 are not read), and the read-modify-write round trip:
 *                 xor_syndrome with the old window contents then with the
 *                 new turns the old P/Q into a fresh gen_syndrome of the new
 *                 stripe;
 *   lengths       every length 0..300 and around every granule, blocks
 *                 against a guard page after them, then before them;
 *   offsets       block addresses 0..63 past a 64-byte boundary;
 *   large         65536+13 on 6 disks (AVX2 x4 runs x2's code from 48 KiB
 *                 blocks), random lengths up to 1 MiB, 257 disks at 8 KiB,
 *                 and the x86 kernels' long-block loops and unroll turns.
 *
 * Data blocks are read-only while the kernels run, every block has
 * canaries, and where the kernel leaves a tail it is also run alone on its
 * bulk to check it does not write past it.
 */
#include "test_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct tlist LG, LX; /* gen_syndrome, xor_syndrome */
static unsigned long runs;

static unsigned base_gran(void)
{
	unsigned g = LG.maxgran > LX.maxgran ? LG.maxgran : LX.maxgran;
	return g > 64 ? g : 64;
}

/* Garbage that differs from `exp` in every byte. */
static void garbage(uint8_t *g, const uint8_t *exp, size_t len, struct rng *r)
{
	rng_fill(r, g, len);
	for (size_t i = 0; i < len; i++)
		g[i] = exp[i] ^ (g[i] | 1);
}

/*
 * gen_syndrome: ptrs[0..disks-3] data (read-only now), P and Q writable.
 * Every implementation must turn garbage P/Q into expP/expQ.
 */
static void check_gen(struct tstripe *s, unsigned disks, void **ptrs,
		      const uint8_t *expP, const uint8_t *expQ, const char *shape)
{
	size_t len = s->len;
	uint8_t *P = ptrs[disks - 2], *Q = ptrs[disks - 1];
	uint8_t *gP = t_malloc(len), *gQ = t_malloc(len);

	garbage(gP, expP, len, &t_rng);
	garbage(gQ, expQ, len, &t_rng);
	for (unsigned k = 0; k < LG.n; k++) {
		const struct raidx__impl *im = LG.v[k];
		size_t bulk = len & ~(size_t)(im->granule - 1);

		t_ctx("op=gen_syndrome impl=%s disks=%u %s len=%zu place=%s off=%u",
		      im->name, disks, shape, len, pl_name(s->place), s->off);
		if (bulk && bulk < len) {
			memcpy(P, gP, len);
			memcpy(Q, gQ, len);
			im->fn.gen(disks, bulk, ptrs);
			t_cmp("P (kernel alone on its bulk)", P, expP, bulk);
			t_cmp("Q (kernel alone on its bulk)", Q, expQ, bulk);
			t_cmp("P beyond the kernel's bulk (must be untouched)",
			      P + bulk, gP + bulk, len - bulk);
			t_cmp("Q beyond the kernel's bulk (must be untouched)",
			      Q + bulk, gQ + bulk, len - bulk);
		}
		memcpy(P, gP, len);
		memcpy(Q, gQ, len);
		raidx__run_gen_syndrome(im, disks, len, ptrs);
		t_cmp("P", P, expP, len);
		t_cmp("Q", Q, expQ, len);
		ts_check(s);
		runs++;
	}
	free(gP);
	free(gQ);
}

/*
 * A gen_syndrome case on blocks 0..disks-1 of s.  With nalias > 0 the data
 * blocks alias each other: data z is block z % nalias.
 */
static void gen_case(struct tstripe *s, unsigned disks, unsigned nalias)
{
	void *ptrs[RAIDX_MAX_DISKS];
	size_t len = s->len;
	uint8_t *expP = t_malloc(len), *expQ = t_malloc(len);
	char shape[64] = "";

	for (unsigned z = 0; z < disks; z++) {
		ptrs[z] = s->blk[z];
		ts_fill(s, z, &t_rng);
	}
	if (nalias) {
		for (unsigned z = 0; z < disks - 2; z++)
			ptrs[z] = s->blk[z % nalias];
		snprintf(shape, sizeof shape, "data aliased to %u blocks", nalias);
	}
	void *eptrs[RAIDX_MAX_DISKS];
	memcpy(eptrs, ptrs, sizeof(void *) * disks);
	eptrs[disks - 2] = expP;
	eptrs[disks - 1] = expQ;
	raidx__ref_gen_syndrome(disks, len, eptrs);

	for (unsigned z = 0; z < disks - 2; z++)
		ts_ro(s, z, 1);
	check_gen(s, disks, ptrs, expP, expQ, shape);
	ts_ro_all(s, 0);
	free(expP);
	free(expQ);
}

static void test_gen_shapes(void)
{
	unsigned list[48], n = 0;
	unsigned base = base_gran();
	struct tstripe *s = ts_new(257, 4 * base);
	unsigned long r0 = runs;

	for (unsigned d = 3; d <= 40; d++)
		list[n++] = d;
	list[n++] = 64;
	list[n++] = 128;
	list[n++] = 257;
	for (unsigned i = 0; i < n; i++) {
		ts_use(s, list[i]);
		ts_place(s, t_shape_len(&LG, &t_rng), (int)rng_below(&t_rng, PL_SPREAD),
			 rng_below(&t_rng, 64));
		gen_case(s, list[i], 0);
		/* and spread over the L1's sets: the one-pass loops where the
		 * placements above take the crowded blocks' group passes */
		ts_place(s, t_shape_len(&LG, &t_rng), PL_SPREAD, rng_below(&t_rng, 64));
		gen_case(s, list[i], 0);
	}
	/* Data blocks only read: the same block may stand for several. */
	ts_use(s, 20);
	ts_place(s, t_shape_len(&LG, &t_rng), PL_END, 0);
	gen_case(s, 20, 3);
	ts_use(s, 257);
	ts_place(s, t_shape_len(&LG, &t_rng), PL_START, 0);
	gen_case(s, 257, 1);
	t_log("gen_syndrome shapes: disks 3..40, 64, 128, 257, each crowded in "
	      "an L1 set and spread; aliased data; %lu runs", runs - r0);
	ts_free(s);
}

/* ---- xor_syndrome ---------------------------------------------------- */

/*
 * xor_syndrome over [start, stop] of the stripe in ptrs (data outside the
 * window NULL), P/Q starting from P0/Q0; every implementation must give
 * expP/expQ.
 */
static void check_xsyn(struct tstripe *s, unsigned disks, unsigned start,
		       unsigned stop, void **ptrs, const uint8_t *P0,
		       const uint8_t *Q0, const uint8_t *expP,
		       const uint8_t *expQ)
{
	size_t len = s->len;
	uint8_t *P = ptrs[disks - 2], *Q = ptrs[disks - 1];

	for (unsigned k = 0; k < LX.n; k++) {
		const struct raidx__impl *im = LX.v[k];
		size_t bulk = len & ~(size_t)(im->granule - 1);

		t_ctx("op=xor_syndrome impl=%s disks=%u start=%u stop=%u len=%zu "
		      "place=%s off=%u", im->name, disks, start, stop, len,
		      pl_name(s->place), s->off);
		if (bulk && bulk < len) {
			memcpy(P, P0, len);
			memcpy(Q, Q0, len);
			im->fn.xsyn(disks, start, stop, bulk, ptrs);
			t_cmp("P (kernel alone on its bulk)", P, expP, bulk);
			t_cmp("Q (kernel alone on its bulk)", Q, expQ, bulk);
			t_cmp("P beyond the kernel's bulk (must be untouched)",
			      P + bulk, P0 + bulk, len - bulk);
			t_cmp("Q beyond the kernel's bulk (must be untouched)",
			      Q + bulk, Q0 + bulk, len - bulk);
		}
		memcpy(P, P0, len);
		memcpy(Q, Q0, len);
		raidx__run_xor_syndrome(im, disks, start, stop, len, ptrs);
		t_cmp("P", P, expP, len);
		t_cmp("Q", Q, expQ, len);
		ts_check(s);
		runs++;
	}
}

/*
 * One window on a stripe of `disks` in s (blocks 0..disks-1), with blocks
 * disks..2*disks-3 holding the new contents of the window for the round
 * trip (s must have 2*disks-2 blocks).
 */
static void window_case(struct tstripe *s, unsigned disks, unsigned start,
			unsigned stop, int roundtrip)
{
	size_t len = s->len;
	unsigned pi = disks - 2, qi = disks - 1;
	void *ptrs[RAIDX_MAX_DISKS], *eptrs[RAIDX_MAX_DISKS];
	uint8_t *expP = t_malloc(len), *expQ = t_malloc(len);

	for (unsigned z = 0; z < disks; z++) {
		ts_fill(s, z, &t_rng);
		ptrs[z] = (z < start || (z > stop && z < pi)) ? NULL : s->blk[z];
	}
	uint8_t *P0 = t_dup(s->blk[pi], len), *Q0 = t_dup(s->blk[qi], len);
	memcpy(eptrs, ptrs, sizeof(void *) * disks);
	memcpy(expP, P0, len);
	memcpy(expQ, Q0, len);
	eptrs[pi] = expP;
	eptrs[qi] = expQ;
	raidx__ref_xor_syndrome(disks, start, stop, len, eptrs);

	for (unsigned z = 0; z < pi; z++)
		ts_ro(s, z, 1);
	check_xsyn(s, disks, start, stop, ptrs, P0, Q0, expP, expQ);

	if (roundtrip) {
		/* P/Q of the old stripe, then of the new one (window replaced). */
		void *full[RAIDX_MAX_DISKS], *nptrs[RAIDX_MAX_DISKS];
		for (unsigned z = start; z <= stop; z++) {
			ts_ro(s, disks + z - start, 0);
			ts_fill(s, disks + z - start, &t_rng);
			ts_ro(s, disks + z - start, 1);
		}
		for (unsigned z = 0; z < disks; z++)
			full[z] = s->blk[z];
		full[pi] = P0;
		full[qi] = Q0;
		raidx__ref_gen_syndrome(disks, len, full);
		for (unsigned z = start; z <= stop; z++)
			full[z] = s->blk[disks + z - start];
		full[pi] = expP;
		full[qi] = expQ;
		raidx__ref_gen_syndrome(disks, len, full);
		memcpy(nptrs, ptrs, sizeof(void *) * disks);
		for (unsigned z = start; z <= stop; z++)
			nptrs[z] = s->blk[disks + z - start];

		uint8_t *P = s->blk[pi], *Q = s->blk[qi];
		for (unsigned k = 0; k < LX.n; k++) {
			const struct raidx__impl *im = LX.v[k];
			t_ctx("op=xor_syndrome round trip impl=%s disks=%u start=%u "
			      "stop=%u len=%zu place=%s off=%u", im->name, disks,
			      start, stop, len, pl_name(s->place), s->off);
			memcpy(P, P0, len);
			memcpy(Q, Q0, len);
			raidx__run_xor_syndrome(im, disks, start, stop, len, ptrs);
			raidx__run_xor_syndrome(im, disks, start, stop, len, nptrs);
			t_cmp("P after old+new window (vs gen_syndrome of new stripe)",
			      P, expP, len);
			t_cmp("Q after old+new window (vs gen_syndrome of new stripe)",
			      Q, expQ, len);
			ts_check(s);
			runs++;
		}
	}
	ts_ro_all(s, 0);
	free(P0);
	free(Q0);
	free(expP);
	free(expQ);
}

static void test_windows(void)
{
	unsigned maxd = t_quick ? 12 : 24;
	struct tstripe *s = ts_new(2 * maxd - 2, 4 * base_gran());
	unsigned long r0 = runs, nwin = 0;

	for (unsigned disks = 3; disks <= maxd; disks++)
		for (unsigned start = 0; start <= disks - 3; start++)
			for (unsigned stop = start; stop <= disks - 3; stop++) {
				ts_use(s, disks + stop - start + 1);
				ts_place(s, t_shape_len(&LX, &t_rng),
					 (int)rng_below(&t_rng, PL_COUNT),
					 rng_below(&t_rng, 64));
				window_case(s, disks, start, stop, 1);
				nwin++;
			}
	t_log("xor_syndrome windows: every (start, stop) for disks 3..%u "
	      "(%lu windows), each also as an old/new round trip; %lu runs",
	      maxd, nwin, runs - r0);
	ts_free(s);
}

/*
 * Crowded windows: from 64 KiB, a window of more than 10 blocks crowded in
 * one L1 set is done by rxk_xsyn_grouped, in chunks of 2 KiB (a short one
 * last) and passes over groups of at most 6 blocks that carry Q's partial
 * value between them; every kind of multiply by g^start (none, one and two
 * doublings, more), windows of 12 to 21 blocks, and 9 (not grouped).
 */
static void test_crowded_windows(void)
{
	static const unsigned win[][2] = { { 0, 20 }, { 1, 12 }, { 2, 14 },
					   { 3, 21 }, { 7, 19 }, { 0, 8 },
					   { 13, 21 } };
	size_t lens[2] = { ((size_t)64 << 10) + 1013, ((size_t)64 << 10) + 2 * 2048 + 77 };
	struct tstripe *s = ts_new(24 + 22, lens[1]);
	unsigned long r0 = runs;

	for (unsigned l = 0; l < 2; l++)
		for (unsigned i = 0; i < sizeof(win) / sizeof(win[0]); i++)
			for (int k = 0; k < 2; k++) { /* crowded, then spread */
				unsigned start = win[i][0], stop = win[i][1];
				ts_use(s, 24 + stop - start + 1);
				ts_place(s, lens[l], k ? PL_SPREAD : PL_START, rng_below(&t_rng, 64));
				window_case(s, 24, start, stop, 1);
			}
	t_log("crowded windows: 24 disks, 7 windows of 9 to 21 blocks, "
	      "lengths %zu and %zu, crowded in one L1 set and spread; %lu runs",
	      lens[0], lens[1], runs - r0);
	ts_free(s);
}

/* ---- lengths, offsets, large ------------------------------------------ */

static void both_ops(struct tstripe *s, unsigned gdisks, unsigned xdisks)
{
	unsigned start = rng_below(&t_rng, xdisks - 2);
	unsigned stop = start + rng_below(&t_rng, xdisks - 2 - start);

	gen_case(s, gdisks, 0);
	window_case(s, xdisks, start, stop, 0);
}

static void test_lengths(void)
{
	const struct tlist *ls[2] = { &LG, &LX };
	size_t *lens;
	unsigned nl = t_sweep_lens(ls, 2, &lens);
	struct tstripe *s = ts_new(14, lens[nl - 1]);
	unsigned long r0 = runs;

	for (unsigned i = 0; i < nl; i++)
		for (int pl = PL_END; pl <= PL_START; pl++) {
			ts_place(s, lens[i], pl, 0);
			both_ops(s, 3 + (unsigned)(lens[i] % 10), 4 + (unsigned)((lens[i] / 3) % 10));
		}
	t_log("lengths: %u lengths (%zu..%zu), guard page after and before, "
	      "disks 3..13, random windows; %lu runs", nl, lens[0], lens[nl - 1],
	      runs - r0);
	ts_free(s);
	free(lens);
}

static void test_offsets(void)
{
	size_t len = 3 * base_gran() + 29;
	struct tstripe *s = ts_new(12, len);
	unsigned long r0 = runs;

	for (unsigned off = 0; off < 64; off += t_quick ? 5 : 1)
		for (int pl = PL_OFF; pl <= PL_SPREAD; pl++) {
			ts_place(s, len, pl, off);
			both_ops(s, 10, 12);
		}
	t_log("offsets: 0..63, all blocks equal and mutually misaligned, "
	      "len %zu, disks 10 and 12; %lu runs", len, runs - r0);
	ts_free(s);
}

/* A stripe of `disks` blocks of len bytes at a random placement. */
static struct tstripe *placed_stripe(unsigned disks, size_t len)
{
	struct tstripe *s = ts_new(disks, len);

	ts_place(s, len, (int)rng_below(&t_rng, PL_COUNT), rng_below(&t_rng, 64));
	return s;
}

/* The windows w[0..n-1] ({start, stop}) on one stripe at placement pl
 * (a random offset). */
static void windows_at(unsigned disks, size_t len, const unsigned (*w)[2],
		       unsigned n, int pl)
{
	struct tstripe *s = ts_new(disks, len);

	ts_place(s, len, pl, rng_below(&t_rng, 64));
	for (unsigned i = 0; i < n; i++)
		window_case(s, disks, w[i][0], w[i][1], 0);
	ts_free(s);
}

/* ... at a random placement. */
static void placed_windows(unsigned disks, size_t len, const unsigned (*w)[2],
			   unsigned n)
{
	windows_at(disks, len, w, n, (int)rng_below(&t_rng, PL_COUNT));
}

/* Where gen_syndrome's group passes start at len: `disks` blocks grouped,
 * one fewer not (the stripe is returned for more cases). */
static struct tstripe *group_edge(unsigned disks, size_t len)
{
	struct tstripe *s = placed_stripe(disks, len);

	gen_case(s, disks, 0);
	gen_case(s, disks - 1, 0);
	return s;
}

static void test_large(void)
{
	size_t lens[4] = { 65536 + 13 };
	unsigned nl = t_quick ? 1 : 4;
	struct tstripe *s = ts_new(6, 1 << 20);
	unsigned long r0 = runs;

	for (unsigned i = 1; i < nl; i++)
		lens[i] = rng_range(&t_rng, 1, 1 << 20);
	for (unsigned i = 0; i < nl; i++) {
		ts_place(s, lens[i], (int)rng_below(&t_rng, PL_COUNT),
			 rng_below(&t_rng, 64));
		both_ops(s, 6, 6);
	}
	ts_free(s);

	s = ts_new(257, 8192 + 13);
	ts_place(s, 8192 + 13, PL_END, 0);
	both_ops(s, 257, 129);
	ts_free(s);

	/* Many disks on long blocks take the x86 kernels' prefetching loop
	 * (x86_kernels.h: 21 blocks or more, 256 KiB or more); its end, where
	 * the loop without prefetches takes over, is at len - 1024 - unroll. */
	size_t plen = ((size_t)256 << 10) + 4096 + 13;
	s = placed_stripe(24, plen);
	gen_case(s, 24, 0);
	window_case(s, 24, 0, 21, 0);
	window_case(s, 24, 1, 19, 0);
	ts_free(s);

	/* gen_syndrome takes chunks of 16 KiB in passes over groups of data
	 * blocks there (x86_kernels.h, rxk_gen_grouped): 38 disks are three
	 * groups, and the last chunk is short. */
	s = placed_stripe(38, plen);
	gen_case(s, 38, 0);
	ts_free(s);

	/* ... and xor_syndrome the same for windows of 19 blocks or more
	 * (rxk_xsyn_grouped, groups of 12 on spread blocks), where Q's old
	 * contents enter the chain at the first group's lowest block times
	 * g^-(start + lo): every kind of multiply by g^start (none, one and
	 * two doublings, a constant), two and three groups of unequal size,
	 * and [14,31] (18 blocks) in one pass. */
	static const unsigned xw[][2] = { { 0, 31 }, { 1, 31 }, { 2, 30 },
					  { 7, 31 }, { 13, 31 }, { 12, 30 },
					  { 14, 31 } };
	s = ts_new(34, plen);
	ts_place(s, plen, PL_SPREAD, rng_below(&t_rng, 64));
	for (unsigned i = 0; i < sizeof(xw) / sizeof(xw[0]); i++)
		window_case(s, 34, xw[i][0], xw[i][1], 0);
	ts_free(s);

	/* ... and from 26 disks already from 32 KiB (RXK_GEN_GRP_WIDE): 26
	 * disks are two groups of 12, with a short third chunk; 25 disks stay
	 * in the one-pass loop. */
	size_t wlen = ((size_t)32 << 10) + 4096 + 13;
	ts_free(group_edge(26, wlen));

	/* ... and from 20 disks on blocks of 1 MiB or more
	 * (RXK_GROUP_STREAMS): 18 data blocks are two groups of 9, with a
	 * short last chunk; 19 disks stay in the one-pass loop. */
	size_t glen = ((size_t)1 << 20) + 4096 + 13;
	s = group_edge(20, glen);
	window_case(s, 20, 1, 18, 0); /* 18 blocks: two groups of 9 */
	window_case(s, 20, 3, 18, 0); /* 16: one pass */
	ts_free(s);

	/* ... and from 18 disks on blocks of 2 MiB or more (RXK_GRP_MEM_LEN):
	 * 16 data blocks are two groups of 8; 17 disks stay in one pass. */
	size_t mlen = ((size_t)2 << 20) + 4096 + 13;
	s = group_edge(18, mlen);
	window_case(s, 18, 0, 15, 0); /* 16 blocks: two groups of 8 */
	ts_free(s);

	/* Fewer disks whose blocks together exceed 512 KiB take the 64-byte
	 * step loop without prefetches (x86_kernels.h, RXK_STEP64_MIN_BYTES):
	 * 10 x 69645 bytes; the window [1,6] touches 8 blocks, 557 KiB. */
	size_t slen = ((size_t)64 << 10) + 4096 + 13;
	s = placed_stripe(10, slen);
	gen_case(s, 10, 0);
	window_case(s, 10, 0, 7, 0);
	window_case(s, 10, 1, 6, 0);
	ts_free(s);
	/* avx512x4's xor_syndrome runs x2's loop on windows of up to four
	 * blocks from 8 MiB (avx512.c, XSYN_X4_X2_MIN_LEN): one
	 * block with a multiply by g^start of each kind (none, one doubling,
	 * a constant) and two blocks, on 5 disks.  40 MiB of stripe: not in
	 * the quick runs (valgrind, qemu), which the full run covers. */
	static const unsigned nw[][2] = { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 1, 2 } };
	size_t nlen = ((size_t)8 << 20) + 4096 + 13;
	if (!t_quick)
		placed_windows(5, nlen, nw, 4);
	/* gfni_avx512x4's xor_syndrome runs the one-line step (x1) again on
	 * windows of more than four blocks from 1 MiB (simd_avx512.h,
	 * XSYN_X1_MIN_LEN), in the loops per window width: 8, 7, 6 and 5
	 * blocks, with a multiply by g^start of each kind. */
	static const unsigned ww[][2] = { { 0, 7 }, { 1, 7 }, { 2, 7 }, { 3, 7 } };
	size_t xlen = ((size_t)1 << 20) + 4096 + 13;
	if (!t_quick)
		placed_windows(10, xlen, ww, 4);
	/* ... and avx512x1's loop where the window, P and Q stream 3/16 to
	 * 9/16 of the L2 (simd_avx512.h, rx_xsyn_bw_band): windows of 8, 5,
	 * 4 and 3 blocks, 266 to 520 KiB in all, with a multiply by g^start
	 * of each kind.  The band holds on Zen 5 only (RAIDX__T_XSYN_BW_BAND),
	 * so the L2 is taken as 1 MiB with the band on, whatever the CPU. */
	static const unsigned bw[][2] = { { 0, 7 }, { 1, 5 }, { 4, 7 }, { 2, 4 } };
	size_t blen = ((size_t)48 << 10) + 4096 + 13;
	/* ... and avx512x4's loop on two-block windows streaming 5/16 to 9/16
	 * of it (4 x 100 KiB here), avx512x2's on those streaming 3/16 to 1/4
	 * with a multiply (4 x 56 KiB), with each kind of multiply. */
	static const unsigned b2[][2] = { { 0, 1 }, { 1, 2 }, { 3, 4 }, { 6, 7 } };
	size_t b2len = ((size_t)96 << 10) + 4096 + 13;
	size_t b3len = ((size_t)56 << 10) + 13;
	raidx__bw_band_set((size_t)1 << 20);
	placed_windows(10, blen, bw, 4);
	/* ... where windows of 5-8 blocks crowded in one L1 set take its x2
	 * loop (simd_avx512.h, XSYN_BW_X2_CROWD_OVER): each window on blocks
	 * at one offset in their pages (crowded: x2) and spread over 16 sets
	 * (x1), with a multiply by g^start of each kind. */
	static const unsigned bx[][2] = { { 0, 7 }, { 1, 5 }, { 2, 7 }, { 3, 7 } };
	windows_at(10, blen, bx, 4, PL_OFF);
	windows_at(10, blen, bx, 4, PL_SPREAD);
	placed_windows(10, b2len, b2, 4);
	placed_windows(10, b3len, b2, 4);
	/* ... and eight-block windows from block 0 streaming 9/16 to 12/16
	 * of it (10 x 68 KiB here; XSYN_BW_W8_MAX_16THS): spread, x1; crowded,
	 * the GFNI loop; on 8+2 and 16+2. */
	static const unsigned b8[][2] = { { 0, 7 } };
	size_t b8len = ((size_t)64 << 10) + 4096 + 13;
	windows_at(10, b8len, b8, 1, PL_OFF);
	windows_at(10, b8len, b8, 1, PL_SPREAD);
	windows_at(18, b8len, b8, 1, PL_SPREAD);
	raidx__bw_band_set(0);
	/* ... and gfni_avx2x2's 256-bit loop on one-block windows whose block,
	 * P and Q are more than the LLC (simd_avx512_gfni.h,
	 * rx_xsyn_ymm_band), the tail after the last 32-byte vector in the
	 * masked step: with the LLC taken as 64 KiB, 10 disks at 21846 bytes
	 * (3 x len one byte over it; a 22-byte tail) and 24 KiB + 13, windows
	 * [0,0], [1,1], [5,5] and [7,7]; 21845 bytes (not over) too. */
	static const unsigned ow[][2] = { { 0, 0 }, { 1, 1 }, { 5, 5 }, { 7, 7 } };
	static const size_t olen[] = { 21845, 21846, ((size_t)24 << 10) + 13 };
	raidx__llc_set((size_t)64 << 10);
	for (unsigned i = 0; i < 3; i++)
		placed_windows(10, olen[i], ow, 4);
	raidx__llc_set(0);
	t_log("large: lengths %zu%s (disks 6); 257 disks at 8205 bytes; "
	      "24 disks at %zu bytes (windows [0,21], [1,19]), 38 disks too, "
	      "34 disks with 7 windows of 18 to 32 blocks; "
	      "26 and 25 disks at %zu bytes; 20 and 19 disks at %zu bytes "
	      "(windows [1,18], [3,18]); 18 and 17 disks at %zu bytes "
	      "(window [0,15]); "
	      "10 disks at %zu bytes (windows [0,7], [1,6]); "
	      "%s%zu bytes (windows [0,0], [1,1], [2,2], [1,2]); "
	      "%s%zu bytes (windows [0,7], [1,7], [2,7], [3,7]); "
	      "10 disks at %zu bytes (windows [0,7], [1,5], [4,7], [2,4]; "
	      "[0,7], [1,5], [2,7], [3,7] crowded and spread) "
	      "and %zu and %zu bytes ([0,1], [1,2], [3,4], [6,7]); "
	      "LLC taken as 64 KiB: 10 disks at 21845, 21846 and 24589 bytes "
	      "(windows [0,0], [1,1], [5,5], [7,7]); %lu runs",
	      lens[0], nl > 1 ? " and 3 random up to 1 MiB" : "", plen, wlen, glen, mlen,
	      slen, t_quick ? "quick: not 5 disks at " : "5 disks at ", nlen,
	      t_quick ? "not 10 disks at " : "10 disks at ", xlen, blen, b2len,
	      b3len, runs - r0);
}

/*
 * The 512-bit x4 kernels beyond the L1 with blocks under 64 KiB: the
 * one-line step (x1) on Zen 5, x2's loop elsewhere (raidx__x1_max_len,
 * simd_avx512.h).  Both ways on every CPU: gen_syndrome of 4+2 to 32+2
 * and xor_syndrome windows of 2 to 32 blocks whose stripes leave a 48 KiB
 * L1 (and a 32 KiB one), odd lengths so that the tails run too.
 */
static void test_step_rule(void)
{
	static const struct {
		unsigned disks;
		size_t len;
	} gs[] = { { 6, 16397 }, { 10, 8205 }, { 18, 4109 }, { 34, 2061 }, { 26, 3000 } };
	static const unsigned w18[][2] = { { 0, 15 }, { 0, 8 }, { 3, 15 }, { 4, 8 }, { 2, 4 } };
	static const unsigned w34[][2] = { { 0, 31 }, { 7, 31 }, { 8, 16 }, { 30, 31 } };
	static const size_t x1max[2] = { 1, RAIDX__X1_MAX_LEN };
	unsigned long r0 = runs;

	for (unsigned k = 0; k < 2; k++) {
		raidx__x1_max_set(x1max[k]);
		for (unsigned i = 0; i < sizeof(gs) / sizeof(gs[0]); i++) {
			struct tstripe *s = placed_stripe(gs[i].disks, gs[i].len);
			gen_case(s, gs[i].disks, 0);
			ts_free(s);
		}
		placed_windows(18, 4109, w18, 5);
		placed_windows(34, 2061, w34, 4);
		placed_windows(34, 16397, w34, 4);
	}
	raidx__x1_max_set(0);
	t_log("x4 step rule both ways: gen_syndrome 4+2..32+2 and windows of 2-32 "
	      "blocks beyond L1; %lu runs", runs - r0);
}

/*
 * gfni_avx512x4nt's and x2nt's x4 loop on Zen 5 (rx_gen_nt_x4,
 * simd_avx512_gfni.h): on stripes of more than 16 data blocks crowded in
 * one L1 set, and of 24 or more under 1 MiB anywhere.  The crowding
 * predicate on made-up pointers, then the rule both ways on every CPU:
 * gen_syndrome of 16+2 (the edge, off), 17+2, 18+2, 20+2, 22+2, 24+2
 * (the wide edge) and 32+2, page-aligned, ending at a page's end and
 * spread over the L1's sets, odd lengths so that the tails run, one of
 * them just under 1 MiB, and 24+2 to 32+2 in and around the band where
 * the GFNI twins run avx512x4nt's loop (rx_gen_bw_crowd).
 */
static void test_crowd_rule(void)
{
	static const struct {
		unsigned disks;
		size_t len;
	} gs[] = {
		{ 18, 4109 }, { 19, 4109 }, { 22, 16397 }, { 34, 2061 },
		{ 20, 65536 + 13 }, { 24, 2061 }, { 26, 8205 }, { 26, 1048573 },
		/* the BW loop's band (rx_gen_bw_crowd): in it, at its top
		 * edge, and just above it */
		{ 26, 65536 + 13 }, { 34, 524288 }, { 28, 524288 + 64 },
	};
	static const unsigned over[2] = { RAIDX_MAX_DISKS, RAIDX__GEN_X4_CROWD_OVER };
	static const int pls[] = { PL_END, PL_START, PL_SPREAD }; /* crowded, spread */
	void *p[40];
	unsigned long r0 = runs;

	/* 17 page-aligned blocks crowd one set; 16 are not more than 16; 40
	 * two to a set crowd none; 17 in the first's set among 20 others do */
	for (unsigned i = 0; i < 40; i++)
		p[i] = (void *)(uintptr_t)(0x100000 + (uintptr_t)i * 4096 + 16);
	if (!raidx__crowded_first(p, 17, 16))
		t_fail("17 blocks in one L1 set not read as crowded");
	if (raidx__crowded_first(p, 16, 16))
		t_fail("16 blocks in one L1 set read as more than 16");
	for (unsigned i = 0; i < 40; i++)
		p[i] = (void *)(uintptr_t)(0x100000 + (uintptr_t)i * 4096 + (i % 20) * 64);
	if (raidx__crowded_first(p, 40, 16))
		t_fail("40 blocks two to a set read as crowded");
	for (unsigned i = 0; i < 37; i++)
		p[i] = (void *)(uintptr_t)(0x100000 + (uintptr_t)i * 4096 + (i % 2) * (1 + i) * 64);
	if (!raidx__crowded_first(p, 37, 16))
		t_fail("19 of 37 blocks in the first one's set not read as crowded");
	/* the early way out: 16 blocks, 13 others in the first's set with
	 * the 2 misses first is crowded over 13, a third miss is not */
	for (unsigned i = 0; i < 16; i++)
		p[i] = (void *)(uintptr_t)(0x100000 + (uintptr_t)i * 4096 + (i && i < 3) * 64);
	if (!raidx__crowded_first(p, 16, 13))
		t_fail("14 of 16 blocks in one set, 2 misses first, not read as crowded over 13");
	p[15] = (void *)(uintptr_t)(0x100000 + 15 * 4096 + 128);
	if (raidx__crowded_first(p, 16, 13))
		t_fail("13 of 16 blocks in one set read as more than 13");

	for (unsigned k = 0; k < 2; k++) {
		raidx__crowd_set(over[k]);
		for (unsigned i = 0; i < sizeof(gs) / sizeof(gs[0]); i++) {
			struct tstripe *s = ts_new(gs[i].disks, gs[i].len);
			for (unsigned j = 0; j < 3; j++) {
				if (t_quick && gs[i].len > 65536 && j) /* valgrind */
					continue;
				ts_place(s, gs[i].len, pls[j], 0);
				gen_case(s, gs[i].disks, 0);
			}
			ts_free(s);
		}
	}
	raidx__crowd_set(0);
	t_log("x4 rule for crowded and wide stripes both ways: gen_syndrome "
	      "16+2 to 32+2, crowded in one L1 set and spread; %lu runs",
	      runs - r0);

	/* xor_syndrome (rx_xsyn_crowd_x4; gfni_avx512x4 and x2 both follow
	 * it, and window_case runs every kernel): windows of 32, 25 and 24
	 * blocks (wide), 23, 14 (crowded over 13), 13 and 11 (crowded over 10
	 * at a page or less) and 10, at a page, just over it, below and
	 * beyond L1, and 25 just under 1 MiB */
	static const unsigned xw[][2] = { { 0, 31 }, { 7, 31 }, { 8, 31 }, { 9, 31 },
					  { 2, 15 }, { 3, 15 }, { 0, 10 }, { 0, 9 } };
	static const size_t xl[] = { 4096, 4109, 2061, 16397, 1048573 };
	struct tstripe *s = ts_new(34, xl[4]);
	r0 = runs;
	for (unsigned k = 0; k < 2; k++) {
		raidx__crowd_set(over[k]);
		for (unsigned l = 0; l < sizeof(xl) / sizeof(xl[0]); l++) {
			for (unsigned j = 0; j < 3; j++) {
				if (t_quick && xl[l] > 65536 && j) /* valgrind */
					continue;
				ts_place(s, xl[l], pls[j], 0);
				for (unsigned i = 0; i < sizeof(xw) / sizeof(xw[0]); i++) {
					if (xl[l] > 65536 && xw[i][0] != 7)
						continue; /* one wide window that long */
					window_case(s, 34, xw[i][0], xw[i][1], 0);
				}
			}
		}
	}
	raidx__crowd_set(0);
	ts_free(s);
	t_log("x4 rule both ways: xor_syndrome windows of 10-32 blocks on 32+2, "
	      "crowded in one L1 set and spread; %lu runs", runs - r0);
}

/*
 * gfni_avx512x4nt's, x2nt's and gfni_avx2x4nt's group passes on stripes
 * of 17 or more data blocks from 13/16 of the LLC (simd_avx512_gfni.h,
 * rx_gen_grouped): with the LLC taken as 1 MiB, 16 (never grouped), 17
 * and 24 (two groups), 25
 * (three) and 40 (four) data blocks on stripes a byte a block
 * under the bound, at it, and of 200707-byte blocks (three whole 64 KiB
 * chunks, a partial one and a tail), in every placement (P and Q at one
 * offset from a 64-byte boundary, so with a head before the streamed
 * part, or at two, so stored normally), every kernel (gen_case).
 */
static void test_gen_grouped(void)
{
#if defined(__x86_64__) || defined(__i386__)
	static const unsigned nds[] = { 16, 17, 24, 25, 40 };
	size_t llc = (size_t)1 << 20, bound = llc / 16 * 13;
	struct tstripe *s = ts_new(42, 200707);
	unsigned long r0 = runs;

	raidx__llc_set(llc);
	for (unsigned i = 0; i < sizeof(nds) / sizeof(nds[0]); i++) {
		unsigned disks = nds[i] + 2;
		size_t at = (bound + disks - 1) / disks;
		size_t lens[3] = { at - 1, at, 200707 };
		for (unsigned j = 0; j < 3; j++) {
			for (int pl = 0; pl < PL_COUNT; pl++) {
				if (t_quick && j == 2 && pl) /* valgrind */
					continue;
				ts_place(s, lens[j], pl, rng_below(&t_rng, 64));
				gen_case(s, disks, 0);
			}
		}
	}
	raidx__llc_set(0);
	ts_free(s);
	t_log("gen groups: LLC taken as 1 MiB, 16-40 data blocks under, at and "
	      "beyond 13/16 of it, every placement; %lu runs", runs - r0);
#endif
}

/*
 * gfni_avx512x4nt's and x2nt's BW loop on 6-12 data blocks from 3/8 of
 * the LLC to twice it (simd_avx512_gfni.h, rx_gen_bw_l3; RAIDX__T_GEN_L3_BW
 * turned on for the test whatever the CPU): with the LLC taken as 1 MiB,
 * 5, 6, 12 and 13 data blocks one byte a block above 3/8, at twice the
 * LLC and one byte a block over it, every kernel (gen_case), in random
 * placements.
 */
static void test_gen_l3_band(void)
{
#if defined(__x86_64__) || defined(__i386__)
	static const unsigned nds[] = { 5, 6, 12, 13 };
	size_t llc = (size_t)1 << 20;
	struct tstripe *s = ts_new(15, 2 * llc / 5 + 1);
	unsigned long r0 = runs;

	raidx__llc_set(llc);
	raidx__cpu_traits_set(raidx__cpu_traits() | RAIDX__T_GEN_L3_BW);
	for (unsigned i = 0; i < sizeof(nds) / sizeof(nds[0]); i++) {
		size_t lo = llc / 8 * 3 / nds[i] + 1, hi = 2 * llc / nds[i];
		size_t lens[3] = { lo, hi, hi + 1 };
		for (unsigned j = 0; j < 3; j++) {
			ts_place(s, lens[j], (int)rng_below(&t_rng, PL_COUNT),
				 rng_below(&t_rng, 64));
			gen_case(s, nds[i] + 2, 0);
		}
	}
	raidx__cpu_traits_set(0);
	raidx__llc_set(0);
	ts_free(s);
	t_log("gen L3 band: LLC taken as 1 MiB, 5, 6, 12 and 13 data blocks at "
	      "the band's bounds and just outside; %lu runs", runs - r0);
#endif
}

int main(int argc, char **argv)
{
	t_init(argc, argv, "test_syndrome");
	t_impls(RAIDX_OP_GEN_SYNDROME, &LG);
	t_impls(RAIDX_OP_XOR_SYNDROME, &LX);
	t_log("gen_syndrome impls: %s", LG.names);
	t_log("xor_syndrome impls: %s", LX.names);

	test_gen_shapes();
	test_windows();
	test_crowded_windows();
	test_lengths();
	test_offsets();
	test_large();
	test_step_rule();
	test_crowd_rule();
	test_gen_l3_band();
	test_gen_grouped();
	return t_done();
}
