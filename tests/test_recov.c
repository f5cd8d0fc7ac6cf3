/*
 * test_recov - recovery, checked byte for byte against the original
 * stripe (the rebuilt blocks are pre-filled with garbage that differs from
 * the original in every byte).
 *
 *   kernels    every registered recov_2data implementation on every pair of
 *              data blocks, every recov_datap implementation on every data
 *              block, for every disks 4..32 (3..32 for datap), and sampled
 *              failures for disks up to 257;
 *   public     raidx_recover() on every failure set of size 0, 1 and 2
 *              (data/data, data/P, data/Q, P/Q, single data, P, Q) for
 *              every disks 3..32 and sampled sets up to 257, with the
 *              library's choice and again with each runnable implementation
 *              of each operation it uses selected in turn;
 *   lengths    every length 0..300 and around every granule, blocks against
 *              a guard page after them, then before them;
 *   offsets    0..63 past a 64-byte boundary; large: 65536+13, 2*4096+77
 *              (raidx_recover rebuilds Q in 4 KiB chunks), random to 1 MiB;
 *   grouped    wide stripes at the bounds of the GFNI twins' group passes,
 *              with the LLC taken as 1 MiB (test_grouped).
 *
 * While a case runs only the blocks being rebuilt are writable: a write to
 * any other block faults, and raidx_recover's result is also compared
 * block by block with the stripe before the call.
 */
#include "test_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct tlist L2, LP, LXG, LG; /* recov_2data, recov_datap, xor_gen, gen */
static unsigned long runs;

/* The stripe under test and a copy of its good contents. */
struct st {
	struct tstripe *s;
	unsigned disks;
	size_t len;
	uint8_t *orig; /* disks * len */
	void *ptrs[RAIDX_MAX_DISKS];
	uint8_t *g[2]; /* the garbage written into the failed blocks */
};

static unsigned base_gran(void)
{
	unsigned g = 64;
	const struct tlist *ls[4] = { &L2, &LP, &LXG, &LG };
	for (int i = 0; i < 4; i++)
		if (ls[i]->maxgran > g)
			g = ls[i]->maxgran;
	return g;
}

static const uint8_t *orig_of(struct st *t, unsigned z)
{
	return t->orig + (size_t)z * t->len;
}

static const char *blk_name(struct st *t, unsigned z)
{
	static char buf[32];
	if (z == t->disks - 2)
		return "P";
	if (z == t->disks - 1)
		return "Q";
	snprintf(buf, sizeof buf, "data block %u", z);
	return buf;
}

/* A fresh consistent stripe placed in s; everything read-only after. */
static void st_setup(struct st *t, struct tstripe *s, unsigned disks,
		     size_t len, int place, unsigned off)
{
	t->s = s;
	t->disks = disks;
	t->len = len;
	ts_use(s, disks);
	ts_place(s, len, place, off);
	for (unsigned z = 0; z < disks; z++) {
		t->ptrs[z] = s->blk[z];
		if (z < disks - 2)
			ts_fill(s, z, &t_rng);
	}
	raidx__ref_gen_syndrome(disks, len, t->ptrs);
	t->orig = t_malloc((size_t)disks * len);
	for (unsigned z = 0; z < disks; z++)
		memcpy(t->orig + (size_t)z * len, s->blk[z], len);
	t->g[0] = t_malloc(len);
	t->g[1] = t_malloc(len);
	ts_ro_all(s, 1);
}

static void st_free(struct st *t)
{
	ts_ro_all(t->s, 0);
	free(t->orig);
	free(t->g[0]);
	free(t->g[1]);
}

/* Block z writable and full of garbage (kept in t->g[k]). */
static void st_fail(struct st *t, unsigned z, int k)
{
	uint8_t *g = t->g[k];
	const uint8_t *o = orig_of(t, z);

	ts_ro(t->s, z, 0);
	rng_fill(&t_rng, g, t->len);
	for (size_t i = 0; i < t->len; i++)
		g[i] = o[i] ^ (g[i] | 1);
	memcpy(t->s->blk[z], g, t->len);
}

static void st_cmp(struct st *t, unsigned z, const char *what)
{
	char buf[96];
	snprintf(buf, sizeof buf, "%s %s", what, blk_name(t, z));
	t_cmp(buf, t->s->blk[z], orig_of(t, z), t->len);
}

/* Every block equal to the original. */
static void st_cmp_all(struct st *t, const char *what)
{
	for (unsigned z = 0; z < t->disks; z++)
		st_cmp(t, z, what);
}

/* ---- the three ways of rebuilding ------------------------------------- */

/* Data blocks x and y with every recov_2data implementation. */
static void do_2data(struct st *t, unsigned x, unsigned y)
{
	size_t len = t->len;
	uint8_t *dx = t->s->blk[x], *dy = t->s->blk[y];

	for (unsigned k = 0; k < L2.n; k++) {
		const struct raidx__impl *im = L2.v[k];
		size_t bulk = len & ~(size_t)(im->granule - 1);
		int swap = (int)rng_below(&t_rng, 2);

		t_ctx("op=recov_2data impl=%s disks=%u fail=%u,%u len=%zu place=%s off=%u",
		      im->name, t->disks, swap ? y : x, swap ? x : y, len,
		      pl_name(t->s->place), t->s->off);
		if (bulk && bulk < len) {
			st_fail(t, x, 0);
			st_fail(t, y, 1);
			im->fn.r2(t->disks, bulk, x, y, t->ptrs);
			t_cmp("rebuilt data a (kernel alone on its bulk)", dx,
			      orig_of(t, x), bulk);
			t_cmp("rebuilt data b (kernel alone on its bulk)", dy,
			      orig_of(t, y), bulk);
			t_cmp("data a beyond the kernel's bulk (must be untouched)",
			      dx + bulk, t->g[0] + bulk, len - bulk);
			t_cmp("data b beyond the kernel's bulk (must be untouched)",
			      dy + bulk, t->g[1] + bulk, len - bulk);
		}
		st_fail(t, x, 0);
		st_fail(t, y, 1);
		raidx__run_recov_2data(im, t->disks, len, swap ? y : x, swap ? x : y,
				       t->ptrs);
		st_cmp(t, x, "rebuilt");
		st_cmp(t, y, "rebuilt");
		ts_check(t->s);
		ts_ro(t->s, x, 1);
		ts_ro(t->s, y, 1);
		runs++;
	}
}

/* Data block x and P with every recov_datap implementation. */
static void do_datap(struct st *t, unsigned x)
{
	size_t len = t->len;
	unsigned pi = t->disks - 2;
	uint8_t *dx = t->s->blk[x], *p = t->s->blk[pi];

	for (unsigned k = 0; k < LP.n; k++) {
		const struct raidx__impl *im = LP.v[k];
		size_t bulk = len & ~(size_t)(im->granule - 1);

		t_ctx("op=recov_datap impl=%s disks=%u fail=%u len=%zu place=%s off=%u",
		      im->name, t->disks, x, len, pl_name(t->s->place), t->s->off);
		if (bulk && bulk < len) {
			st_fail(t, x, 0);
			st_fail(t, pi, 1);
			im->fn.rdp(t->disks, bulk, x, t->ptrs);
			t_cmp("rebuilt data (kernel alone on its bulk)", dx,
			      orig_of(t, x), bulk);
			t_cmp("rebuilt P (kernel alone on its bulk)", p,
			      orig_of(t, pi), bulk);
			t_cmp("data beyond the kernel's bulk (must be untouched)",
			      dx + bulk, t->g[0] + bulk, len - bulk);
			t_cmp("P beyond the kernel's bulk (must be untouched)",
			      p + bulk, t->g[1] + bulk, len - bulk);
		}
		st_fail(t, x, 0);
		st_fail(t, pi, 1);
		raidx__run_recov_datap(im, t->disks, len, x, t->ptrs);
		st_cmp(t, x, "rebuilt");
		st_cmp(t, pi, "rebuilt");
		ts_check(t->s);
		ts_ro(t->s, x, 1);
		ts_ro(t->s, pi, 1);
		runs++;
	}
}

/* A pair of data blocks lost, then each with P: every implementation of
 * both recoveries. */
static void do_pair(struct st *t, const unsigned pair[2])
{
	do_2data(t, pair[0], pair[1]);
	do_datap(t, pair[0]);
	do_datap(t, pair[1]);
}

/* Long blocks of a stripe whose recoveries take the group passes: the
 * five pairs (three with --quick) straddle and fill the groups.  Returns
 * the number of pairs done. */
static unsigned long_pairs(struct st *t, unsigned disks, size_t len,
			   const unsigned pairs[5][2])
{
	unsigned n = t_quick ? 3 : 5;
	struct tstripe *s = ts_new(disks, len);

	st_setup(t, s, disks, len, PL_SPREAD, rng_below(&t_rng, 64));
	for (unsigned i = 0; i < n; i++)
		do_pair(t, pairs[i]);
	st_free(t);
	ts_free(s);
	return n;
}

/* raidx_recover() with the failure set fail[0..nfail-1] (any order). */
static void do_public(struct st *t, unsigned nfail, const unsigned *fail)
{
	const char *sel = raidx_impl_selected(RAIDX_OP_RECOV_2DATA);

	if (nfail == 2)
		t_ctx("op=raidx_recover (recov_2data=%s) disks=%u fail=%u,%u len=%zu "
		      "place=%s off=%u", sel, t->disks, fail[0], fail[1], t->len,
		      pl_name(t->s->place), t->s->off);
	else if (nfail == 1)
		t_ctx("op=raidx_recover disks=%u fail=%u len=%zu place=%s off=%u",
		      t->disks, fail[0], t->len, pl_name(t->s->place), t->s->off);
	else
		t_ctx("op=raidx_recover disks=%u no failure len=%zu place=%s off=%u",
		      t->disks, t->len, pl_name(t->s->place), t->s->off);
	for (unsigned i = 0; i < nfail; i++)
		st_fail(t, fail[i], (int)i);
	int r = raidx_recover(t->disks, t->len, nfail, fail, t->ptrs);
	t_expect_int("raidx_recover", r, 0);
	/* Rebuilt blocks equal the original; the others are unchanged. */
	for (unsigned z = 0; z < t->disks; z++) {
		int failed = (nfail > 0 && fail[0] == z) || (nfail > 1 && fail[1] == z);
		st_cmp(t, z, failed ? "rebuilt" : "not failed (must be untouched)");
	}
	ts_check(t->s);
	for (unsigned i = 0; i < nfail; i++)
		ts_ro(t->s, fail[i], 1);
	runs++;
}

/* Every failure set of size 0, 1, 2 through raidx_recover. */
static void public_all(struct st *t)
{
	unsigned f[2];

	do_public(t, 0, NULL);
	for (unsigned a = 0; a < t->disks; a++) {
		f[0] = a;
		do_public(t, 1, f);
		for (unsigned b = a + 1; b < t->disks; b++) {
			int swap = (int)rng_below(&t_rng, 2);
			f[0] = swap ? b : a;
			f[1] = swap ? a : b;
			do_public(t, 2, f);
		}
	}
}

/* A sample of the failure sets: every kind, edges and random pairs. */
static void sampled(struct st *t, unsigned npairs, int kernels, int public)
{
	unsigned nd = t->disks - 2, pi = nd, qi = nd + 1;
	unsigned pairs[64][2], n = 0;

	pairs[n][0] = 0, pairs[n++][1] = nd - 1;
	pairs[n][0] = nd / 2, pairs[n++][1] = nd - 1;
	if (nd >= 2) {
		pairs[n][0] = 0, pairs[n++][1] = 1;
		pairs[n][0] = nd - 2, pairs[n++][1] = nd - 1;
	}
	while (n < npairs && n < 64 && nd >= 2) {
		unsigned a = rng_below(&t_rng, nd), b = rng_below(&t_rng, nd);
		if (a != b)
			pairs[n][0] = a < b ? a : b, pairs[n++][1] = a < b ? b : a;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned a = pairs[i][0], b = pairs[i][1];
		if (kernels) {
			if (a != b)
				do_2data(t, a, b);
			do_datap(t, a);
			do_datap(t, b);
		}
		if (public) {
			unsigned f[2] = { b, a };
			if (a != b)
				do_public(t, 2, f);
			f[1] = pi;
			do_public(t, 2, f);
			f[1] = qi;
			do_public(t, 2, f);
			do_public(t, 1, f);
		}
	}
	if (public) {
		unsigned f[2] = { qi, pi };
		do_public(t, 2, f);
		do_public(t, 1, f);
		do_public(t, 1, f + 1);
		do_public(t, 0, NULL);
	}
}

/* ---- the tests -------------------------------------------------------- */

static void test_kernels(void)
{
	unsigned maxd = t_quick ? 12 : 32;
	unsigned base = base_gran();
	struct tstripe *s = ts_new(257, 4 * base);
	unsigned long r0 = runs, npair = 0;
	struct st t;

	for (unsigned disks = 3; disks <= maxd; disks++) {
		st_setup(&t, s, disks, t_shape_len_g(base_gran(), &t_rng),
			 (int)rng_below(&t_rng, PL_COUNT), rng_below(&t_rng, 64));
		for (unsigned x = 0; x < disks - 2; x++) {
			do_datap(&t, x);
			for (unsigned y = x + 1; y < disks - 2; y++) {
				do_2data(&t, x, y);
				npair++;
			}
		}
		st_cmp_all(&t, "after all kernel runs");
		st_free(&t);
	}
	t_log("kernels: every data pair (recov_2data) and every data block "
	      "(recov_datap) for disks 3..%u (%lu pairs); %lu runs", maxd, npair,
	      runs - r0);

	static const unsigned big[] = { 33, 47, 64, 100, 128, 129, 200, 254, 255, 256, 257 };
	static const unsigned big_quick[] = { 40, 257 };
	const unsigned *bl = t_quick ? big_quick : big;
	unsigned nb = t_quick ? 2 : sizeof(big) / sizeof(big[0]);
	r0 = runs;
	for (unsigned i = 0; i < nb; i++) {
		st_setup(&t, s, bl[i], t_shape_len_g(base_gran(), &t_rng),
			 (int)rng_below(&t_rng, PL_COUNT), rng_below(&t_rng, 64));
		sampled(&t, t_quick ? 6 : 24, 1, 0);
		st_cmp_all(&t, "after all kernel runs");
		st_free(&t);
	}
	t_log("kernels: sampled pairs for disks up to 257 (%u disk counts); "
	      "%lu runs", nb, runs - r0);
	ts_free(s);
}

static void test_public(void)
{
	unsigned maxd = t_quick ? 10 : 32;
	unsigned base = base_gran();
	struct tstripe *s = ts_new(257, 4 * base);
	unsigned long r0 = runs;
	struct st t;

	for (unsigned disks = 3; disks <= maxd; disks++) {
		st_setup(&t, s, disks, t_shape_len_g(base_gran(), &t_rng),
			 (int)rng_below(&t_rng, PL_COUNT), rng_below(&t_rng, 64));
		public_all(&t);
		st_free(&t);
	}
	t_log("raidx_recover: every failure set of 0, 1, 2 blocks for disks "
	      "3..%u with the library's choice; %lu runs", maxd, runs - r0);

	r0 = runs;
	for (unsigned disks = maxd + 1; disks <= RAIDX_MAX_DISKS;
	     disks += disks < 64 ? 7 : 61) {
		st_setup(&t, s, disks, t_shape_len_g(base_gran(), &t_rng),
			 (int)rng_below(&t_rng, PL_COUNT), rng_below(&t_rng, 64));
		sampled(&t, t_quick ? 4 : 12, 0, 1);
		st_free(&t);
	}
	st_setup(&t, s, RAIDX_MAX_DISKS, t_shape_len_g(base_gran(), &t_rng), PL_END, 0);
	sampled(&t, t_quick ? 4 : 12, 0, 1);
	st_free(&t);
	t_log("raidx_recover: sampled failure sets of every kind for disks "
	      "%u..257; %lu runs", maxd + 1, runs - r0);

	/* Each implementation of each operation raidx_recover uses. */
	static const unsigned dl[] = { 4, 9, 20 };
	const struct tlist *ls[4] = { &L2, &LP, &LXG, &LG };
	unsigned nsel = 0;
	r0 = runs;
	for (int k = 0; k < 4; k++) {
		for (unsigned i = 0; i < ls[k]->n; i++) {
			const char *name = ls[k]->v[i]->name;
			t_ctx("raidx_impl_select(%s, %s)", raidx_op_name(ls[k]->op), name);
			t_expect_int("raidx_impl_select", raidx_impl_select(ls[k]->op, name), 0);
			for (unsigned d = 0; d < (t_quick ? 1u : 3u); d++) {
				st_setup(&t, s, dl[d], t_shape_len_g(base_gran(), &t_rng),
					 (int)rng_below(&t_rng, PL_COUNT),
					 rng_below(&t_rng, 64));
				public_all(&t);
				st_free(&t);
			}
			nsel++;
		}
		t_expect_int("raidx_impl_select(NULL)", raidx_impl_select(ls[k]->op, NULL), 0);
	}
	t_log("raidx_recover: every failure set for disks 4, 9, 20 with each "
	      "of %u runnable implementations of recov_2data, recov_datap, "
	      "xor_gen, gen_syndrome selected; %lu runs", nsel, runs - r0);
	ts_free(s);
}

/* Every kind of failure once, kernels and public, on the current stripe. */
static void every_kind(struct st *t)
{
	unsigned nd = t->disks - 2;
	unsigned a = rng_below(&t_rng, nd), b = rng_below(&t_rng, nd);
	unsigned f[2];

	if (a == b)
		b = (a + 1) % nd;
	if (nd >= 2) {
		do_2data(t, a < b ? a : b, a < b ? b : a);
		f[0] = a, f[1] = b;
		do_public(t, 2, f);
	}
	do_datap(t, a);
	f[0] = t->disks - 2, f[1] = a; /* P + data */
	do_public(t, 2, f);
	f[0] = a, f[1] = t->disks - 1; /* data + Q */
	do_public(t, 2, f);
	f[0] = t->disks - 1, f[1] = t->disks - 2; /* Q + P */
	do_public(t, 2, f);
	do_public(t, 1, f);     /* Q */
	do_public(t, 1, f + 1); /* P */
	f[0] = b;
	do_public(t, 1, f);     /* data */
	do_public(t, 0, NULL);
}

static void test_lengths(void)
{
	const struct tlist *ls[4] = { &L2, &LP, &LXG, &LG };
	size_t *lens;
	unsigned nl = t_sweep_lens(ls, 4, &lens);
	struct tstripe *s = ts_new(12, lens[nl - 1]);
	unsigned long r0 = runs;
	struct st t;

	for (unsigned i = 0; i < nl; i++)
		for (int pl = PL_END; pl <= PL_START; pl++) {
			st_setup(&t, s, 4 + (unsigned)((lens[i] + (size_t)pl) % 8),
				 lens[i], pl, 0);
			every_kind(&t);
			st_free(&t);
		}
	t_log("lengths: %u lengths (%zu..%zu), guard page after and before, "
	      "disks 4..11, every kind of failure; %lu runs", nl, lens[0],
	      lens[nl - 1], runs - r0);
	ts_free(s);
	free(lens);
}

static void test_offsets(void)
{
	size_t len = 3 * base_gran() + 29;
	struct tstripe *s = ts_new(10, len);
	unsigned long r0 = runs;
	struct st t;

	for (unsigned off = 0; off < 64; off += t_quick ? 5 : 1)
		for (int pl = PL_OFF; pl <= PL_SPREAD; pl++) {
			st_setup(&t, s, 10, len, pl, off);
			every_kind(&t);
			st_free(&t);
		}
	t_log("offsets: 0..63, all blocks equal and mutually misaligned, "
	      "len %zu, disks 10; %lu runs", len, runs - r0);
	ts_free(s);
}

static void test_large(void)
{
	size_t lens[5] = { 65536 + 13, 2 * 4096 + 77 };
	unsigned nl = t_quick ? 2 : 5;
	struct tstripe *s = ts_new(7, 1 << 20);
	unsigned long r0 = runs;
	struct st t;

	for (unsigned i = 2; i < nl; i++)
		lens[i] = rng_range(&t_rng, 1, 1 << 20);
	for (unsigned i = 0; i < nl; i++) {
		st_setup(&t, s, 7, lens[i], (int)rng_below(&t_rng, PL_COUNT),
			 rng_below(&t_rng, 64));
		every_kind(&t);
		st_free(&t);
	}
	ts_free(s);

	/* 24 disks on long blocks: the x86 kernels' prefetching loop (see
	 * test_syndrome.c). */
	size_t plen = ((size_t)256 << 10) + 4096 + 13;
	s = ts_new(24, plen);
	st_setup(&t, s, 24, plen, (int)rng_below(&t_rng, PL_COUNT),
		 rng_below(&t_rng, 64));
	every_kind(&t);
	st_free(&t);
	ts_free(s);

	/* 38 disks on long blocks: recovery in chunks and passes over groups
	 * of data blocks [35..24], [23..12], [11..0] (x86_kernels.h,
	 * rxk_rec_grouped): lost blocks at the top, at the bottom, on both
	 * sides of a group boundary, both in one group. */
	static const unsigned pairs[][2] = { { 34, 35 }, { 23, 24 }, { 11, 12 },
					     { 0, 11 }, { 0, 35 }, { 13, 14 },
					     { 5, 30 }, { 0, 1 } };
	/* Both placements: recov_datap on blocks crowded in one L1 set takes
	 * groups of 6 ([35..30], ..., [5..0]; x86_kernels.h, rxk_crowded),
	 * which the same pairs straddle. */
	s = ts_new(38, plen);
	for (int k = 0; k < 2; k++) { /* crowded, then spread */
		st_setup(&t, s, 38, plen, k ? PL_SPREAD : PL_START, rng_below(&t_rng, 64));
		for (unsigned i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
			do_pair(&t, pairs[i]);
		st_free(&t);
	}
	ts_free(s);

	/* 20 disks of 1 MiB or more are grouped too (x86_kernels.h,
	 * RXK_GROUP_STREAMS): 18 data blocks in groups [17..9] and [8..0]. */
	static const unsigned pairs20[][2] = { { 8, 9 }, { 0, 17 }, { 16, 17 },
					       { 0, 1 }, { 3, 5 } };
	size_t glen = ((size_t)1 << 20) + 4096 + 13;
	unsigned np20 = long_pairs(&t, 20, glen, pairs20);
	/* ... and 18 disks of 2 MiB or more (RXK_GRP_MEM_LEN): 16 data
	 * blocks in groups [15..8] and [7..0]. */
	static const unsigned pairs18[][2] = { { 7, 8 }, { 0, 15 }, { 14, 15 },
					       { 0, 1 }, { 9, 12 } };
	size_t mlen = ((size_t)2 << 20) + 4096 + 13;
	unsigned np18 = long_pairs(&t, 18, mlen, pairs18);

	/* Crowded blocks from 16 KiB: recov_datap in group passes at any
	 * width above 8 data blocks (12 data: [11..6], [5..0]); every lost
	 * block, crowded and spread. */
	size_t clen = ((size_t)16 << 10) + 4096 + 13;
	s = ts_new(14, clen);
	for (int k = 0; k < 2; k++) { /* crowded, then spread */
		st_setup(&t, s, 14, clen, k ? PL_SPREAD : PL_START, rng_below(&t_rng, 64));
		for (unsigned x = 0; x < 12; x++)
			do_datap(&t, x);
		st_free(&t);
	}
	ts_free(s);

	/* 10 disks whose blocks exceed 512 KiB together: the 64-byte step
	 * loop (see test_syndrome.c). */
	size_t slen = ((size_t)64 << 10) + 4096 + 13;
	s = ts_new(10, slen);
	st_setup(&t, s, 10, slen, (int)rng_below(&t_rng, PL_COUNT),
		 rng_below(&t_rng, 64));
	every_kind(&t);
	st_free(&t);
	ts_free(s);
	t_log("large: lengths %zu, %zu%s, disks 7, every kind of failure; "
	      "24 and 38 disks at %zu bytes; 14 disks at %zu bytes (every "
	      "data+P failure); 10 disks at %zu bytes; 38 and 14 disks crowded "
	      "in one L1 set and spread; 20 disks at %zu bytes (%u pairs); "
	      "18 disks at %zu bytes (%u pairs); %lu runs",
	      lens[0], lens[1], nl > 2 ? " and 3 random up to 1 MiB" : "",
	      plen, clen, slen, glen, np20, mlen, np18, runs - r0);
}

/*
 * gfni_avx512nt's and gfni_avx2nt's group passes over wide stripes beyond
 * the cache (simd_avx512_gfni.h, rx_rec_grouped), with the LLC taken as
 * 1 MiB: 20 data blocks (groups [19..10] and [9..0]) a byte a block under
 * 13/16 of it and at it, every pair and every data block with P; 16 and
 * 19 data blocks under and at twice the LLC, and 40 (groups of 10) over
 * several 128 KiB chunks and a tail, on pairs that fill a group's edges
 * (both lost blocks just above a group, so its plan jumps over two), in
 * every placement.  Every kernel runs (do_pair), the grouped ones among
 * them.
 */
static void test_grouped(void)
{
#if defined(__x86_64__) || defined(__i386__)
	size_t llc = (size_t)1 << 20, wide = llc / 16 * 13;
	static const unsigned pairs40[][2] = { { 30, 31 }, { 29, 30 }, { 38, 39 },
					       { 0, 1 }, { 9, 10 }, { 19, 20 },
					       { 0, 39 }, { 10, 29 }, { 20, 21 },
					       { 5, 6 } };
	static const unsigned few[] = { 16, 19 };
	struct tstripe *s = ts_new(42, 200707);
	unsigned long r0 = runs;
	struct st t;

	raidx__llc_set(llc);
	for (unsigned j = 0; j < 2; j++) {
		size_t len = (wide + 21) / 22 - (j ? 0 : 1);
		st_setup(&t, s, 22, len, (int)rng_below(&t_rng, PL_COUNT),
			 rng_below(&t_rng, 64));
		for (unsigned x = 0; x < 20; x++) {
			do_datap(&t, x);
			if (t_quick && x % 4) /* valgrind: a fifth of the pairs */
				continue;
			for (unsigned y = x + 1; y < 20; y++)
				do_2data(&t, x, y);
		}
		st_free(&t);
	}
	for (unsigned i = 0; i < 2; i++)
		for (unsigned j = 0; j < 2; j++) {
			unsigned nd = few[i];
			size_t len = (2 * llc + nd + 1) / (nd + 2) - (j ? 0 : 1);
			unsigned pair[2] = { nd / 2 - 1, nd / 2 };
			st_setup(&t, s, nd + 2, len,
				 (int)rng_below(&t_rng, PL_COUNT),
				 rng_below(&t_rng, 64));
			do_pair(&t, pair);
			pair[0] = 0, pair[1] = nd - 1;
			do_pair(&t, pair);
			st_free(&t);
		}
	for (int pl = 0; pl < PL_COUNT; pl++) {
		st_setup(&t, s, 42, 200707, pl, rng_below(&t_rng, 64));
		for (unsigned i = 0; i < sizeof(pairs40) / sizeof(pairs40[0]); i++) {
			if (t_quick && pl && i > 2) /* valgrind */
				break;
			do_pair(&t, pairs40[i]);
		}
		st_free(&t);
	}
	raidx__llc_set(0);
	ts_free(s);
	t_log("grouped: LLC taken as 1 MiB; 20 data blocks under and at 13/16 "
	      "of it, every failure; 16 and 19 under and at twice it; 40 at "
	      "200707 bytes, every placement; %lu runs", runs - r0);
#endif
}

int main(int argc, char **argv)
{
	t_init(argc, argv, "test_recov");
	t_impls(RAIDX_OP_RECOV_2DATA, &L2);
	t_impls(RAIDX_OP_RECOV_DATAP, &LP);
	t_impls(RAIDX_OP_XOR_GEN, &LXG);
	t_impls(RAIDX_OP_GEN_SYNDROME, &LG);
	t_log("recov_2data impls: %s", L2.names);
	t_log("recov_datap impls: %s", LP.names);
	t_log("raidx_recover also uses xor_gen (%s) and gen_syndrome (%s)",
	      LXG.names, LG.names);

	test_kernels();
	test_public();
	test_lengths();
	test_offsets();
	test_large();
	test_grouped();
	/* The streaming twins stream only calls beyond the LLC and an eighth
	 * (select.c, REC_LARGE_LLC_EIGHTHS), which test_large's 18 disks at
	 * 2 MiB pass only where the LLC is 32 MiB or less; with the bound at
	 * one byte their streaming path, its masked head and tail, run over
	 * every length and offset above. */
	raidx__rec_stream_set(1);
	t_log("streaming twins: streaming every call from here");
	test_lengths();
	test_offsets();
	return t_done();
}
