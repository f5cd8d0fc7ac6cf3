/*
 * simd_avx512_gfni.h - the GFNI kernels, written once for two vector widths.
 *
 * Included by gfni_avx512.c (zmm, masked tails) and gfni_avx2.c (ymm, no
 * byte masks in AVX2), after they define the dialect:
 *
 *   V, VB                vector type and its size in bytes
 *   RX_MASKED            1: the last partial vector is loaded and stored
 *                        with byte masks (granule 1); 0: the kernels are
 *                        registered with granule VB and never see a tail
 *   KMASK, kmask(n)      mask type, mask of the low n bytes
 *   ld(p, off, tail, k)  load one vector (masked when tail)
 *   st(p, off, v, tail, k)
 *   xor2(a, b), xor3(a, b, c), vzero()
 *   vmat(m)              broadcast a 64-bit affine matrix
 *   aff(x, M)            vgf2p8affineqb x, M, 0: the GF(2^8) product c*x
 *                        when M = raidx__gf_affine[c]
 *   vstream(p, v)        non-temporal store to a VB-aligned p
 *
 * The maths
 * ---------
 * vgf2p8affineqb multiplies every byte by an 8x8 bit matrix.  Multiplying by
 * a constant c in GF(2^8) is linear over GF(2), so it is such a matrix
 * (raidx__gf_affine[c], built by tools/gengf.c for the RAID-6 polynomial
 * 0x11d).  vgf2p8mulb would be a general product, but modulo 0x11b (AES):
 * wrong for RAID-6.  So multiply-by-2 is ONE instruction (the AVX-512BW
 * form needs 3, AVX2 needs 4-5), and a multiply by any constant too (the
 * nibble-table form needs 5-6).
 *
 * Horner two disks per step: with h the running Q,
 *
 *     h' = 2*(2*h ^ D_z) ^ D_{z-1} = 4*h ^ 2*D_z ^ D_{z-1}
 *        = vpternlogq_0x96(affine(h, M4), affine(D_z, M2), D_{z-1})
 *
 * Per two disks: 2 affines and 1 three-way XOR for Q, and 1 three-way XOR
 * for P (P ^ D_z ^ D_{z-1}): 4 ops, i.e. 2 per disk per vector, against
 * 2 x (affine + XOR) + P = 5 one disk at a time.  It also halves the
 * dependency chain through h (one affine + one XOR per two disks), so fewer
 * independent vectors per step are needed to hide the affine's latency of
 * several cycles; x2 and x4 are both registered and measured.  AVX2 has
 * no three-way XOR: there the step is 2 affines + 4 vpxor per two disks per
 * 32 bytes, the same op count as one disk at a time but half the chain.
 *
 * Per data disk per 64 bytes (loads not counted):
 *   gfni_avx512  1 vgf2p8affineqb + 1 vpternlogq          = 2 ops
 *   avx512 (BW)  vpaddb + vpshufb + 1.5 vpternlogq          = 3.5 ops
 *   gfni_avx2    2 x (1 vgf2p8affineqb + 2 vpxor)           = 6 ops
 *   avx2 (Linux) 2 x (vpcmpgtb, vpaddb, vpand, 3 x vpxor)   = 12 ops
 *
 * xor_syndrome: Horner over the window [start, stop] only; the disks below
 * start are not read, and the whole window sum is multiplied by g^start with
 * ONE affine (raidx__gf_affine[g^start]) instead of `start` multiply-by-2
 * steps.  Normal stores (P and Q were just read; they are in cache).
 *
 * Recovery in one pass (see struct rx_rplan): survivors by Horner, where the
 * jump over failed disks is folded into the first step of the next run (one
 * affine by g^(dist) or g^(dist+1)), so a failed disk costs nothing; then
 *
 *   2data:  Dx = A*Pxy ^ B*Q ^ (B g^low)*h,  Dy = Pxy ^ Dx
 *   datap:  Dx = g^-x*Q ^ (g^-x g^low)*h,    P = (XOR of survivors) ^ Dx
 *
 * (Pxy = P ^ XOR of survivors, Q of survivors = g^low * h), three affines
 * per vector at most, folded constants, no scratch block, data read once.
 */

#include "x86_groups.h"

/* ---- gen_syndrome ------------------------------------------------------ */

/*
 * Fold data blocks hi down to lo (none when hi < lo) into p (XOR) and h
 * (Horner's rule), two blocks a step: h*4 ^ a*2 ^ b, two affine multiplies
 * and one ternary XOR.  The one loop of gen_syndrome, xor_syndrome and the
 * recoveries' runs of survivors.
 */
RX_INLINE void horner_down(uint8_t **d, int hi, int lo, size_t off, unsigned U,
			   int tail, KMASK k, V m2, V m4, V *p, V *h)
{
	int z = hi;

	for (; z >= lo + 1; z -= 2) {
		const uint8_t *d1 = d[z], *d0 = d[z - 1];
		RX_UNROLL
		for (unsigned u = 0; u < U; u++) {
			V a = ld(d1, off + u * VB, tail, k);
			V b = ld(d0, off + u * VB, tail, k);
			p[u] = xor3(p[u], a, b);
			h[u] = xor3(aff(h[u], m4), aff(a, m2), b);
		}
	}
	if (z == lo) {
		RX_UNROLL
		for (unsigned u = 0; u < U; u++) {
			V a = ld(d[lo], off + u * VB, tail, k);
			p[u] = xor2(p[u], a);
			h[u] = xor2(aff(h[u], m2), a);
		}
	}
}

/* gen_fixed below */
#ifndef GEN_FIXED_MAX
#define GEN_FIXED_MAX 16
#endif
_Static_assert(GEN_FIXED_MAX == 8 || GEN_FIXED_MAX == 16,
	       "RX_BY_WIDTH has cases for 8 or 16 blocks");

struct gk {
	V m2, m4;
};

#ifndef RX_V512
/* A store of the output at p + off: streamed past the cache when nt (p +
 * off VB-aligned, no tail), else normal (masked when tail).  The 512-bit
 * files share simd_avx512.h's. */
RX_INLINE void put(uint8_t *p, size_t off, V v, int tail, KMASK k, int nt)
{
	if (nt)
		vstream(p + off, v);
	else
		st(p, off, v, tail, k);
}
#endif

/* U vectors at off: P and Q of the data blocks d[hi..lo], stored at pp
 * and qq (streamed when nt).  first: from block hi alone; else the blocks
 * are folded into the P and Q already stored there (Horner's rule carries
 * on from the blocks above hi: gen_grouped's later passes).  A whole
 * stripe is hi = top, lo = 0, first. */
RX_INLINE void gen_step(uint8_t **d, int hi, int lo, int first, uint8_t *pp,
			uint8_t *qq, size_t off, unsigned U, int tail, KMASK k,
			const struct gk *K, int nt)
{
	V p[4], h[4];

	RX_UNROLL
	for (unsigned u = 0; u < U; u++) {
		if (first) {
			p[u] = h[u] = ld(d[hi], off + u * VB, tail, k);
		} else {
			p[u] = ld(pp, off + u * VB, tail, k);
			h[u] = ld(qq, off + u * VB, tail, k);
		}
	}
	horner_down(d, hi - first, lo, off, U, tail, k, K->m2, K->m4, p, h);
	RX_UNROLL
	for (unsigned u = 0; u < U; u++) {
		put(pp, off + u * VB, p[u], tail, k, nt);
		put(qq, off + u * VB, h[u], tail, k, nt);
	}
}

/* Single vectors of the stripe from off to len, the last one masked, in
 * the general form (RX_NOINLINE). */
RX_NOINLINE void gen_tail(unsigned disks, void **ptrs, size_t off, size_t len)
{
	uint8_t **d = (uint8_t **)ptrs;
	struct gk K;

	K.m2 = vmat(raidx__gf_affine[2]);
	K.m4 = vmat(raidx__gf_affine[4]);
	for (; off < len; off += VB)
		gen_step(d, (int)disks - 3, 0, 1, d[disks - 2], d[disks - 1], off,
			 1, RX_MASKED, kmask(len - off), &K, 0);
}

/*
 * nd: 0 for any stripe, or its number of data blocks as a literal (1 to
 * GEN_FIXED_MAX; see gen_fixed).  With a literal, the blocks' pointers sit
 * in a local array that the stores through P and Q cannot alias, so they
 * stay in registers, and the Horner steps are straight-line code; the
 * general form reloads each pointer from ptrs[] after every store and
 * loops over the disks inside the loop over the offsets.  nt: stream P and
 * Q from the first VB-aligned offset (head: the bytes before it, through
 * a masked normal store).
 */
RX_INLINE void gen_run(unsigned disks, size_t len, void **ptrs, unsigned U,
		       int nt, size_t head, unsigned nd)
{
	uint8_t *w[GEN_FIXED_MAX];
	uint8_t **d = (uint8_t **)ptrs;
	uint8_t *pp = d[disks - 2], *qq = d[disks - 1];
	int z = (int)disks - 3;
	struct gk K;
	size_t off = 0;

	if (nd) {
		for (unsigned i = 0; i < nd; i++)
			w[i] = d[i];
		d = w, z = (int)nd - 1;
	}
	K.m2 = vmat(raidx__gf_affine[2]);
	K.m4 = vmat(raidx__gf_affine[4]);
	if (head) {
		gen_tail(disks, ptrs, 0, head);
		off = head;
	}
	for (; off + U * VB <= len; off += U * VB)
		gen_step(d, z, 0, 1, pp, qq, off, U, 0, 0, &K, nt);
	if (off < len)
		gen_tail(disks, ptrs, off, len);
	/* Order the weakly-ordered streaming stores before what follows. */
	if (nt)
		_mm_sfence();
}

/*
 * Stripes of up to GEN_FIXED_MAX data blocks each get a loop of their own
 * width (nd above).  Against the general loop kept as temporary kernels in
 * the same binary, two runs of `raidx bench --op gen_syndrome --disks
 * 4,6,8,10,14,18 --len 4k,16k,64k,1m` (Turin-like Zen 5, 2026-12-03),
 * fixed / general, gfni_avx512x4's unroll rule in both:
 *   4 KiB (in L1): 2+2 1.57-1.93x, 4+2 1.58-1.67x, 6+2 1.49-1.51x, 8+2
 *     1.52-1.54x; 12+2 and 16+2 (beyond L1) 0.92-1.01x;
 *   16 KiB: 0.98-1.07x; 64 KiB: 6+2 1.29-1.39x, 8+2 1.14-1.23x, 12+2
 *     1.10-1.15x, 16+2 0.97-1.01x; 1 MiB: 6+2 and 8+2 1.05-1.11x, 16+2
 *     1.13-1.14x, the rest level.
 * gfni_avx512x2 the same: 4 KiB 1.49-1.72x on 2-8 data blocks.
 */
RX_INLINE void gen_fixed(unsigned disks, size_t len, void **ptrs, unsigned U,
			 int nt, size_t head)
{
	RX_BY_WIDTH(disks - 2, GEN_FIXED_MAX, gen_run, disks, len, ptrs, U, nt, head);
}

RX_INLINE void gen_u(unsigned disks, size_t len, void **ptrs, unsigned U)
{
	gen_fixed(disks, len, ptrs, U, 0, 0);
}

/*
 * The same with P and Q streamed past the cache (non-temporal stores), for
 * stripes larger than the last-level cache (RAIDX__F_NT).  Streaming stores
 * need VB-byte alignment: with byte masks, the bytes up to the first
 * boundary go through a masked normal store when P and Q share their offset
 * modulo VB; otherwise (different offsets, or no masks and a misaligned P)
 * normal stores throughout.
 */
RX_INLINE void gen_nt_u(unsigned disks, size_t len, void **ptrs, unsigned U)
{
	long head = raidx__nt_head(len, ptrs[disks - 2], ptrs[disks - 1], VB,
				   RX_MASKED);

	if (head < 0) {
		gen_u(disks, len, ptrs, U);
		return;
	}
	gen_fixed(disks, len, ptrs, U, 1, (size_t)head);
}

/* ---- xor_syndrome ------------------------------------------------------ */

#ifndef XSYN_FIXED_MAX
#define XSYN_FIXED_MAX 8
#endif
_Static_assert(XSYN_FIXED_MAX == 8 || XSYN_FIXED_MAX == 16,
	       "RX_BY_WIDTH has cases for 8 or 16 blocks");

struct xk {
	V m2, m4, ms; /* ms: g^start */
};

/*
 * U vectors at off of the window d[lo..z] (P and Q at pp, qq): fold it by
 * Horner, multiply by g^start when mul, add into P and Q.  All loads come
 * before the stores.
 */
RX_INLINE void xsyn_step(uint8_t **d, int z, int lo, uint8_t *pp, uint8_t *qq,
			 int mul, size_t off, unsigned U, int tail, KMASK k,
			 const struct xk *K)
{
	V p[4], h[4], op[4], oq[4];

	RX_UNROLL
	for (unsigned u = 0; u < U; u++)
		p[u] = h[u] = ld(d[z], off + u * VB, tail, k);
	horner_down(d, z - 1, lo, off, U, tail, k, K->m2, K->m4, p, h);
	RX_UNROLL
	for (unsigned u = 0; u < U; u++) {
		op[u] = ld(pp, off + u * VB, tail, k);
		oq[u] = ld(qq, off + u * VB, tail, k);
	}
	RX_UNROLL
	for (unsigned u = 0; u < U; u++) {
		V q = mul ? aff(h[u], K->ms) : h[u];
		st(pp, off + u * VB, xor2(op[u], p[u]), tail, k);
		st(qq, off + u * VB, xor2(oq[u], q), tail, k);
	}
}

/* Single vectors of the window from off to len, the last one masked, in
 * the general form (RX_NOINLINE). */
RX_NOINLINE void xsyn_tail(unsigned disks, unsigned start, unsigned stop,
			   void **ptrs, size_t off, size_t len)
{
	uint8_t **d = (uint8_t **)ptrs;
	struct xk K;

	K.m2 = vmat(raidx__gf_affine[2]);
	K.m4 = vmat(raidx__gf_affine[4]);
	K.ms = vmat(raidx__gf_affine[raidx__gf_exp[start]]);
	for (; off < len; off += VB)
		xsyn_step(d, (int)stop, (int)start, d[disks - 2], d[disks - 1],
			  start != 0, off, 1, RX_MASKED, kmask(len - off), &K);
}

/*
 * nw: 0 for any window, or the window's width as a literal (1 to
 * XSYN_FIXED_MAX; see xsyn_fixed).  With a literal width the window's block
 * pointers sit in a local array that the stores through P and Q cannot
 * alias, so they stay in registers, and the Horner steps are straight-line
 * code; with the general form the compiler reloads each pointer from ptrs[]
 * after every store.
 */
RX_INLINE void xsyn_u(unsigned disks, unsigned start, unsigned stop,
		      size_t len, void **ptrs, unsigned U, unsigned nw)
{
	uint8_t *w[XSYN_FIXED_MAX];
	uint8_t **d = (uint8_t **)ptrs;
	uint8_t *pp = d[disks - 2], *qq = d[disks - 1];
	int z = (int)stop, lo = (int)start, mul = start != 0;
	struct xk K;
	size_t off = 0;

	if (nw) {
		for (unsigned i = 0; i < nw; i++)
			w[i] = d[start + i];
		d = w, z = (int)nw - 1, lo = 0;
	}
	K.m2 = vmat(raidx__gf_affine[2]);
	K.m4 = vmat(raidx__gf_affine[4]);
	K.ms = vmat(raidx__gf_affine[raidx__gf_exp[start]]);
	for (; off + U * VB <= len; off += U * VB)
		xsyn_step(d, z, lo, pp, qq, mul, off, U, 0, 0, &K);
	if (off < len)
		xsyn_tail(disks, start, stop, ptrs, off, len);
}

/*
 * Windows of up to XSYN_FIXED_MAX blocks each get a loop of their own width
 * (nw above), as x86_kernels.h's rxk_xsyn does for AVX2.  Against the
 * general loop kept as temporary kernels in the same binary, `raidx bench
 * --op xor_syndrome --len 4k,64k,1m` (Turin-like Zen 5, 2026-12-03), in
 * L1 at 4 KiB, fixed / general: gfni_avx512x4 1.37-1.51x on windows of
 * 1-8 blocks (8+2 [0,7] 268 / 192 GB/s, [2,4] 200 / 136, [7,7] 81 / 64;
 * 16+2 [14,15] 151 / 100), 1.28x on 5 blocks; gfni_avx512x2 1.33-1.57x.
 * The windows of 9 and more blocks, the same code in both, read 1.00-1.06:
 * the run's noise.  Beyond L1 the gain shrinks to level at 1 MiB, where
 * the memory sets the pace; one-block windows at 64 KiB went from 0.87-
 * 0.96x of avx2x1 and avx2x2 (in every raidx bench run before) to 1.17-
 * 1.25x.  Why 8 and not more: as rxk_xsyn (x86_kernels.h), where loops of
 * 9-16 blocks gained little and lost from 13 blocks.
 */
RX_INLINE void xsyn_fixed(unsigned disks, unsigned start, unsigned stop,
			  size_t len, void **ptrs, unsigned U)
{
	RX_BY_WIDTH(stop - start + 1, XSYN_FIXED_MAX, xsyn_u, disks, start, stop,
		    len, ptrs, U);
}

/* ---- recovery ---------------------------------------------------------- */

struct rk {
	V m2, m4;
	V r1[3], r2[3]; /* first step of run r: g^dist, g^(dist+1) */
	V ma, mb, mc;   /* final constants (see r2_step / rdp_step) */
};

static inline void rk_runs(struct rk *K, const struct rx_rplan *pl)
{
	K->m2 = vmat(raidx__gf_affine[2]);
	K->m4 = vmat(raidx__gf_affine[4]);
	for (unsigned r = 0; r < 3; r++) {
		unsigned dist = r < pl->nrun ? pl->run[r].dist : 1;
		K->r1[r] = vmat(raidx__gf_affine[raidx__gf_pow2(dist)]);
		K->r2[r] = vmat(raidx__gf_affine[raidx__gf_pow2(dist + 1)]);
	}
}

/* XOR of the survivors into p, their Horner sum (Q = g^low * h) into h.
 * ps, hs: NULL, or the partial sums of the survivors above the plan's
 * (a carried plan, rx_rplan_range), to carry on from. */
RX_INLINE void surv_step(const struct rx_rplan *pl, uint8_t **d, size_t off,
			 unsigned U, int tail, KMASK k, const struct rk *K,
			 V *p, V *h, const uint8_t *ps, const uint8_t *hs)
{
	if (ps) {
		RX_UNROLL
		for (unsigned u = 0; u < U; u++) {
			p[u] = ld(ps, off + u * VB, tail, k);
			h[u] = ld(hs, off + u * VB, tail, k);
		}
	} else if (!pl->nsurv) {
		RX_UNROLL
		for (unsigned u = 0; u < U; u++)
			p[u] = h[u] = vzero();
		return;
	} else {
		RX_UNROLL
		for (unsigned u = 0; u < U; u++)
			p[u] = h[u] = ld(d[pl->top], off + u * VB, tail, k);
	}
	for (unsigned r = 0; r < pl->nrun; r++) {
		int z = (int)pl->run[r].hi, lo = (int)pl->run[r].lo;
		/* First step of the run: jump over the failed disks. */
		if (z >= lo + 1) {
			const uint8_t *d1 = d[z], *d0 = d[z - 1];
			RX_UNROLL
			for (unsigned u = 0; u < U; u++) {
				V a = ld(d1, off + u * VB, tail, k);
				V b = ld(d0, off + u * VB, tail, k);
				p[u] = xor3(p[u], a, b);
				h[u] = xor3(aff(h[u], K->r2[r]), aff(a, K->m2), b);
			}
			z -= 2;
		} else {
			RX_UNROLL
			for (unsigned u = 0; u < U; u++) {
				V a = ld(d[z], off + u * VB, tail, k);
				p[u] = xor2(p[u], a);
				h[u] = xor2(aff(h[u], K->r1[r]), a);
			}
			z -= 1;
		}
		horner_down(d, z, lo, off, U, tail, k, K->m2, K->m4, p, h);
	}
}

/*
 * The two kinds of a group pass over a wide stripe (rec_grouped): carry,
 * the survivors above the plan's were folded by earlier passes, whose
 * partial sums wait in the lost blocks' memory (2data: P's sum in Dx, h in
 * Dy; datap: P's sum in P, h in Dx); last, the pass that rebuilds the
 * blocks, else it leaves its sums there.  A one-pass recovery is neither
 * carried nor anything but last.
 */
RX_INLINE void rec_keep(uint8_t *ps, uint8_t *hs, size_t off, unsigned U,
			int tail, KMASK k, const V *p, const V *h)
{
	RX_UNROLL
	for (unsigned u = 0; u < U; u++) {
		st(ps, off + u * VB, p[u], tail, k);
		st(hs, off + u * VB, h[u], tail, k);
	}
}

/* Dx = A*Pxy ^ B*Q ^ (B g^low)*h, Dy = Pxy ^ Dx; ma = A, mb = B,
 * mc = B g^low. */
RX_INLINE void r2_step(unsigned disks, const struct rx_rplan *pl, void **ptrs,
		       unsigned x, unsigned y, size_t off, unsigned U, int tail,
		       KMASK k, const struct rk *K, int nt, int carry, int last)
{
	uint8_t **d = (uint8_t **)ptrs;
	uint8_t *pp = d[disks - 2], *qq = d[disks - 1], *dx_ = d[x], *dy_ = d[y];
	V p[4], h[4];

	surv_step(pl, d, off, U, tail, k, K, p, h, carry ? dx_ : NULL,
		  carry ? dy_ : NULL);
	if (!last) {
		rec_keep(dx_, dy_, off, U, tail, k, p, h);
		return;
	}
	RX_UNROLL
	for (unsigned u = 0; u < U; u++) {
		V pxy = xor2(p[u], ld(pp, off + u * VB, tail, k));
		V q = ld(qq, off + u * VB, tail, k);
		V dx = xor3(aff(pxy, K->ma), aff(q, K->mb), aff(h[u], K->mc));
		put(dx_, off + u * VB, dx, tail, k, nt);
		put(dy_, off + u * VB, xor2(pxy, dx), tail, k, nt);
	}
}

/* Dx = g^-x*Q ^ (g^-x g^low)*h, P = XOR of survivors ^ Dx; mb = g^-x,
 * mc = g^-x g^low. */
RX_INLINE void rdp_step(unsigned disks, const struct rx_rplan *pl, void **ptrs,
			unsigned x, size_t off, unsigned U, int tail, KMASK k,
			const struct rk *K, int nt, int carry, int last)
{
	uint8_t **d = (uint8_t **)ptrs;
	uint8_t *pp = d[disks - 2], *qq = d[disks - 1], *dx_ = d[x];
	V p[4], h[4];

	surv_step(pl, d, off, U, tail, k, K, p, h, carry ? pp : NULL,
		  carry ? dx_ : NULL);
	if (!last) {
		rec_keep(pp, dx_, off, U, tail, k, p, h);
		return;
	}
	RX_UNROLL
	for (unsigned u = 0; u < U; u++) {
		V q = ld(qq, off + u * VB, tail, k);
		V dx = xor2(aff(q, K->mb), aff(h[u], K->mc));
		put(dx_, off + u * VB, dx, tail, k, nt);
		put(pp, off + u * VB, xor2(p[u], dx), tail, k, nt);
	}
}

/* A step of either recovery: datap, data block x and P lost (y unused);
 * else data blocks x and y. */
RX_INLINE void rec_step(int datap, unsigned disks, const struct rx_rplan *pl,
			void **ptrs, unsigned x, unsigned y, size_t off,
			unsigned U, int tail, KMASK k, const struct rk *K,
			int nt, int carry, int last)
{
	if (datap)
		rdp_step(disks, pl, ptrs, x, off, U, tail, k, K, nt, carry, last);
	else
		r2_step(disks, pl, ptrs, x, y, off, U, tail, k, K, nt, carry, last);
}

/* The plan of the whole stripe and the final constants: datap, data block
 * x and P lost (y unused); else data blocks x < y. */
RX_INLINE void rec_plan(int datap, unsigned disks, unsigned x, unsigned y,
			struct rx_rplan *pl, struct rk *K)
{
	uint8_t a, b;

	rx_rplan_make(pl, disks - 2, x, datap ? x : y);
	rk_runs(K, pl);
	if (datap) {
		a = 0;
		b = raidx__gf_inv[raidx__gf_pow2(x)];
	} else {
		raidx__recov_coef(x, y, &a, &b);
	}
	K->ma = datap ? vzero() : vmat(raidx__gf_affine[a]);
	K->mb = vmat(raidx__gf_affine[b]);
	K->mc = vmat(raidx__gf_affine[raidx__gf_mul1(b, raidx__gf_pow2(pl->low))]);
}

/*
 * nt: stream the rebuilt blocks past the cache (vstream), from `head`, the
 * first offset where they are VB-aligned (the bytes before it, and the
 * last partial vector, through masked normal stores); see
 * raidx__rec_nt_head (raidx_impl.h).
 */
RX_INLINE void recov_u(int datap, unsigned disks, size_t len, unsigned x,
		       unsigned y, void **ptrs, unsigned U, int nt, size_t head)
{
	struct rx_rplan pl;
	struct rk K;
	size_t off = 0;

	rec_plan(datap, disks, x, y, &pl, &K);
	if (head) {
		rec_step(datap, disks, &pl, ptrs, x, y, 0, 1, RX_MASKED,
			 kmask(head), &K, 0, 0, 1);
		off = head;
	}
	for (; off + U * VB <= len; off += U * VB)
		rec_step(datap, disks, &pl, ptrs, x, y, off, U, 0, 0, &K, nt, 0, 1);
	for (; off < len; off += VB)
		rec_step(datap, disks, &pl, ptrs, x, y, off, 1, RX_MASKED,
			 kmask(len - off), &K, 0, 0, 1);
	if (nt)
		_mm_sfence();
}

/* The entry points the tables register, the same in both widths; the
 * including file sets RX_RECOV_U, the recovery unroll its registers allow. */
/* gen_x2, gen_x2nt and xsyn_x2 out of line: the x4 entries below call them
 * where they run x2's loop, so that the two kernels run the same machine
 * code there and should tie in the calibration (select.c resolves ties
 * by priority).  With a copy of the loop inlined in each, gfni_avx512x4
 * lost gen_syndrome's wide width to gfni_avx512x2 in 4 of 20 starts of
 * `raidx tune --repeat 20` (2026-12-03), on shapes where both ran the x2
 * loop; with the one copy still in 1-6 of 20 in six runs: the 2 us
 * trials of the same code differ by more than the 5% tie margin now and
 * then, and raidx bench times the two level (0.97-1.00 at 2 KiB). */
RX_NOINLINE void gen_x2(unsigned disks, size_t len, void **ptrs)
{
	gen_u(disks, len, ptrs, 2);
}

/*
 * Wide stripes beyond the cache: in chunks of GEN_GRP_CHUNK, each in
 * passes over groups of at most GEN_GRP_MAX data blocks from the top down
 * (x86_groups.h).  The first pass of a chunk starts P and Q from its top
 * block; each later one loads them, folds its group in (Horner's rule
 * continues across passes: h*g^2 ^ a*g ^ b per two blocks, as in one
 * pass) and stores them again; the last pass streams them.  P and Q's
 * chunks (128 KiB) stay in the L2 between passes, and the memory system
 * sees at most 14 streams at a time instead of 19-34: with every block of
 * a 32+2 stripe in flight at once, its one-pass loop read 20-30% slower
 * than it read 16+2's from memory.
 * Turin-like Zen 5, 2026-12-07: gfni_avx512x4nt grouped (a switch in a
 * test build) and not, in alternating runs of `raidx bench --op
 * gen_syndrome --impl gfni_avx512x4nt,gfni_avx512x4,avx2x2nt,
 * gfni_avx512x2nt --no-recheck`, read as gfni_avx512x4nt over
 * gfni_avx512x4 (the normal-store one-pass kernel, the same in both):
 *   groups of 12, 64 KiB chunks, the default placement (--disks
 *     19,...,34 --len 256k,...,16m, two or three runs): 22-34 disks at 2
 *     MiB 1.11-1.19 against 0.97-1.05, at 4 MiB 1.22-1.42 against
 *     1.00-1.06, at 16 MiB 1.07-1.25 against 1.00-1.07; 26 and 34 disks
 *     at 1 MiB 1.10-1.21 against 0.99-1.05, 24 disks at 1152 KiB
 *     1.09-1.12 against 1.04-1.05; but 19-22 disks up to 1152 KiB
 *     (stripes of 25 MiB or less) 0.83-1.05 against 0.92-1.22, and 26
 *     disks at 896 KiB (23 MiB) 1.02-1.08 against 1.08-1.17;
 *   page-aligned (--disks 19,22,26,34 --len 1m,2m,4m,16m): 26 and 34
 *     disks at 1-4 MiB 1.24-1.61 against 1.05-1.28, at 16 MiB 1.08-1.23
 *     against 1.07-1.09; 19 and 22 disks at 1 MiB 1.10-1.22 against
 *     1.25-1.29;
 *   groups of at most 6, 8 and 16 and chunks of 32 and 128 KiB (22, 26,
 *     34 disks at 2, 4 and 16 MiB): none ahead of 12 and 64 KiB (groups
 *     of 6 0.78-1.31, of 16 on 32+2 0.97-1.09);
 *   16+2, whose one pass has a loop of its own (gen_fixed): 0.62-1.19
 *     grouped against 1.13-1.37.
 * So from GEN_GRP_MIN_BLOCKS data blocks (the general one-pass loop),
 * on stripes (every block, P and Q) of 13/16 of the LLC or more: 26 MiB
 * here, where 26+2 at 1 MiB gained and 22+2 at 1152 KiB had not.  It
 * also takes 32+2 at 1 MiB, a default shape of raidx bench whose pick
 * had missed 0.95 of 256-bit streaming kernels in many runs.
 * Against the code before, builds alternating, the same measure, three
 * runs each of --disks 19,22,26,34 --len 1m,2m,4m,16m and --disks
 * 19,20,21 --len 1536k,2m,4m,16m: 22-34 disks 1.06-1.41 against
 * 0.67-1.11 (4 MiB 1.16-1.41 against 0.67-1.05); 17-19 data blocks level
 * to 5% ahead (19 disks at 1.5-2 MiB 0.97-1.10 against 1.00-1.13, at 16
 * MiB 1.02-1.15 against 1.01-1.09).  Three alternations of `raidx bench
 * --op gen_syndrome` (its default cells): 32+2 at 1 MiB 1.13-1.21
 * against 0.99-1.02, and at 16 MiB, raced, 1.11-1.17x the memread +
 * memcpy bound against 0.93-0.99.  Measured on the Zen 5 only; the
 * effect is the memory system's streams, as for the AVX2 kernels' groups
 * (RXK_GROUP_STREAMS, measured on a Zen 3).
 * The 256-bit twin, gfni_avx2x4nt (the GFNI streaming kernel of CPUs
 * without AVX-512), takes the same rule, where its one pass had read
 * level with the normal-store gfni_avx2x4 (1.00-1.11 on 26 and 34
 * disks): builds
 * alternating, three runs each of `--disks 19,22,26,34 --len
 * 1m,2m,4m,16m --impl gfni_avx2x4nt,gfni_avx2x4 --no-recheck`
 * (2026-12-07), medians per shape, 22-34 disks at 2-16 MiB and 26-34 at
 * 1 MiB 1.46-2.45 against 0.92-1.11 before, 19 disks at 2-16 MiB
 * 1.24-1.50 against 1.10-1.31.
 */
#define GEN_GRP_MIN_BLOCKS (GEN_FIXED_MAX + 1)
#define GEN_GRP_MAX 12
#define GEN_GRP_CHUNK ((size_t)64 << 10)
#define GEN_GRP_LLC_16THS 13
#define GEN_GRP_U 2

RX_INLINE int rx_gen_grouped(unsigned disks, size_t len)
{
	return disks - 2 >= GEN_GRP_MIN_BLOCKS &&
	       (size_t)disks * len >= raidx__llc_bytes() / 16 * GEN_GRP_LLC_16THS;
}

/* One pass over data blocks hi..lo of [c0, c1) (a multiple of
 * GEN_GRP_U * VB bytes), gen_step's first or later kind; stream: store P
 * and Q past the cache. */
RX_INLINE void gen_gpass(uint8_t **d, unsigned hi, unsigned lo, uint8_t *pp,
			 uint8_t *qq, size_t c0, size_t c1, int first,
			 int stream, const struct gk *K)
{
	for (size_t off = c0; off < c1; off += GEN_GRP_U * VB)
		gen_step(d, (int)hi, (int)lo, first, pp, qq, off, GEN_GRP_U, 0, 0,
			 K, stream);
}

/* The streaming twins' grouped gen_syndrome.  Streams P and Q from their
 * first VB-aligned offset when the two share it (the bytes before it, and
 * the tail after the last whole step, through gen_tail's masked normal
 * stores), else stores them normally, as gen_nt_u does. */
static void gen_grouped(unsigned disks, size_t len, void **ptrs)
{
	uint8_t *d[RAIDX_MAX_DISKS];
	uint8_t *pp = (uint8_t *)ptrs[disks - 2], *qq = (uint8_t *)ptrs[disks - 1];
	long h = raidx__nt_head(len, pp, qq, VB, RX_MASKED);
	unsigned nd = disks - 2;
	int nt = h >= 0;
	size_t head = nt ? (size_t)h : 0, n;
	struct gk K;

	/* Local copies of the pointers: the stores through P and Q cannot
	 * alias them, so a pass keeps its group's pointers in registers. */
	for (unsigned i = 0; i < nd; i++)
		d[i] = (uint8_t *)ptrs[i];
	if (head)
		gen_tail(disks, ptrs, 0, head);
	n = (len - head) / (GEN_GRP_U * VB) * (GEN_GRP_U * VB);
	K.m2 = vmat(raidx__gf_affine[2]);
	K.m4 = vmat(raidx__gf_affine[4]);
#define GEN_GRP_PASS(hi, lo, first, last, c0, c1)                              \
	gen_gpass(d, hi, lo, pp, qq, head + (c0), head + (c1), first,          \
		  nt && (last), &K)
	RXK_GROUPS(n, nd, GEN_GRP_MAX, GEN_GRP_CHUNK, GEN_GRP_PASS);
#undef GEN_GRP_PASS
	if (head + n < len)
		gen_tail(disks, ptrs, head + n, len);
	if (nt)
		_mm_sfence();
}

#ifdef RX_V512
/*
 * gfni_avx512x4's unroll, with or without streaming stores: by where the
 * stripe can be (simd_avx512.h); but in L1, x4 only for 9, 10 and 14 data
 * blocks (GEN_X4_L1_COUNTS), x2 otherwise.  x4/x2 in L1 with the loops per
 * count, `raidx bench --op gen_syndrome --impl gfni_avx512x2,gfni_avx512x4`
 * (Turin-like Zen 5):
 *   2026-12-03 morning, three runs of `--disks 3,...,8 --len 4k,8k` and two
 *   of `--disks 12,...,19 --len 1k,2k`: 1-6 data blocks 0.86-1.05 (median
 *   0.99); 8 blocks 0.98-1.02; 10-14 at 2 KiB 0.80-1.26 (11, 12 and 14
 *   blocks 1.04-1.26), at 1 KiB 0.96-1.04; 15 and 16 0.78-0.87 in 7 of 8
 *   samples; from 17, the general loop, 1.05-1.15.
 *   2026-12-03 afternoon (session 22), five runs of `--disks
 *   10,...,16 --len 2k,3k` (and 1k, 4k in two): 8 blocks 0.93-1.01; 9
 *   blocks 0.99-1.41 (1.04 or more in 7 of 10); 10 blocks 0.88-1.57 (1.05
 *   or more in 9 of 12); 11 blocks 0.76-1.04, 12 blocks 0.77-1.04 and 13
 *   blocks 0.74-1.04 (below 0.95 in about half); 14 blocks 0.98-1.17.
 * So x4's own loop where it led in both sessions, x2's where the lead came
 * and went with the machine's state (11-13) or never was (up to 8, 15-16).
 * Where the two run the same loop the calibration sees a tie and the
 * priority decides, so the picks do not flip on noise: the selection had
 * picked x2 for the narrow width in 6 of 20 starts and for the wide one
 * (12+2 and 16+2 at 2 KiB) in 11 of 20, and on the rule before this one
 * (x4 on 8-14 blocks) 6 and 15 of 360 picks were off their majority in
 * two `raidx tune --repeat 20` runs, all of them gen_syndrome x2/x4.  The
 * streaming twin ran its x4 loop throughout until then, and
 * gfni_avx512x2nt was 1.0-1.36x faster at 16 MiB (16+2 1.27-1.36x) in two
 * default raidx bench runs.
 */
#define GEN_X4_L1_COUNTS ((1u << 9) | (1u << 10) | (1u << 14))

static unsigned gen_x4_unroll(unsigned disks, size_t len)
{
	unsigned nd = disks - 2, u = rx_x4_unroll(disks, len);

	if (u == 4 && nd <= GEN_FIXED_MAX && !((GEN_X4_L1_COUNTS >> nd) & 1))
		u = 2;
	return u;
}

/* The twin of gfni_avx512x2, so that a start whose calibration picks x2
 * (level with x4 in L1 on most stripes) still streams its larger-than-
 * cache calls (select.c's nt_twin): without it the large class kept x2's
 * normal stores, 0.89-0.90x of gfni_avx512x4nt on 4+2 at 1 and 16 MiB in
 * the one raidx bench run that picked x2 (2026-12-03). */
RX_NOINLINE void gen_x2nt(unsigned disks, size_t len, void **ptrs)
{
	gen_nt_u(disks, len, ptrs, 2);
}

/*
 * The x4 entries choose a loop and tail-call it (RX_TAIL_BY_UNROLL,
 * simd_avx512.h): the entry saves no registers and the choice costs a few
 * instructions and a jump.  With the loops inlined into the
 * entry, its prologue and epilogue came on top of the loop's own, and
 * gfni_avx512x4 ran 0.93-0.94x of gfni_avx512x2 on one-block windows of
 * 4 KiB (about 40 ns a call), where both run xsyn_x2 (`raidx bench --op
 * xor_syndrome --disks 18 --start 0 --stop 0 --len 1k,4k`, 2026-12-03).
 */
RX_NOINLINE void gen_x1(unsigned disks, size_t len, void **ptrs)
{
	gen_u(disks, len, ptrs, 1);
}

RX_NOINLINE void gen_x4l(unsigned disks, size_t len, void **ptrs)
{
	gen_u(disks, len, ptrs, 4);
}

RX_NOINLINE void gen_x1nt(unsigned disks, size_t len, void **ptrs)
{
	gen_nt_u(disks, len, ptrs, 1);
}

RX_NOINLINE void gen_x4lnt(unsigned disks, size_t len, void **ptrs)
{
	gen_nt_u(disks, len, ptrs, 4);
}

static void gen_x4(unsigned disks, size_t len, void **ptrs)
{
	RX_TAIL_BY_UNROLL(gen_x4_unroll(disks, len), gen_x1, gen_x2, gen_x4l,
			  disks, len, ptrs);
}

/*
 * Two kinds of stripe stream with x4's loop (four lines of each block a
 * step) where gen_x4_unroll would take x1 or x2:
 *   - crowded: more than RAIDX__GEN_X4_CROWD_OVER (16) data blocks starting
 *     in the L1 set of the first, as md's stripe cache and page-aligned
 *     buffers place them (raidx__crowded_first, raidx_impl.h), at any
 *     length.  The x1 and x2 steps read one or two lines of each of 17-32
 *     blocks that all map to one set; four consecutive lines of a block
 *     spread over four sets;
 *   - wide: RAIDX__X4_WIDE_MIN (24) data blocks or more, on blocks
 *     under RAIDX__X4_WIDE_MAX_LEN (1 MiB), wherever they are.
 * Turin-like Zen 5, 2026-12-05, gfni_avx512x4nt against its x4 loop at
 * every length (a temporary second entry in one binary), `raidx bench
 * --op gen_syndrome --no-recheck`, two or three runs each, x4/before:
 *   --page-aligned, 17-22 data blocks (--disks 19,20,21,22,24 --len
 *     4k,16k,64k,1m): 4 KiB 1.06-1.27, 16 KiB 1.39-1.53, 64 KiB
 *     1.21-1.28, 1 MiB 1.02-1.18; 24 and 32 data blocks (--disks 26,34):
 *     1.07-1.27, 1.54-1.66, 1.26-1.43, 1.02-1.15 (avx512x4nt, whose
 *     streaming loop is x4 throughout, read the same: 1.28-1.68 at 32+2
 *     4-64 KiB, which is how this was found); --disks 22,34 --len 4m,16m:
 *     0.99-1.07; 16 data blocks (--disks 18): 0.93-1.04, so the rule
 *     starts above 16;
 *   spread (raidx bench's default placement), --disks 23,24,26,30,34
 *     --len 2k,8k,32k,256k,1m,16m and --disks 18,22,26,34 --len
 *     2k,4k,16k,64k: 24-32 data blocks 1.10-1.45 at 2 KiB, 1.00-1.15 at
 *     4-32 KiB, 0.97-1.08 at 64-256 KiB, then 0.97-1.14 at 1 MiB and
 *     0.91-1.12 at 16 MiB (so not from 1 MiB); 20-22 data blocks
 *     0.86-1.08 and 16 data blocks 0.83-1.01, no rule.
 * Measured on the Zen 5 only (RAIDX__T_CROWD_X4, x86/cpu_features.c).
 */
RX_INLINE int rx_gen_nt_x4(unsigned disks, size_t len, void **ptrs)
{
	unsigned nd = disks - 2, over = raidx__crowd_over();

	if (over >= RAIDX_MAX_DISKS) /* not this CPU */
		return 0;
	if (nd >= RAIDX__X4_WIDE_MIN && len < RAIDX__X4_WIDE_MAX_LEN)
		return 1;
	return raidx__crowded_first(ptrs, nd, over);
}

/*
 * And one band of those where avx512x4nt's loop runs instead of x4's:
 * crowded stripes of RAIDX__X4_WIDE_MIN (24) data blocks or more on
 * blocks of GEN_BW_MIN_LEN (64 KiB) to GEN_BW_MAX_LEN (512 KiB), a stripe
 * of 1.6-17 MiB coming from the L3.  There the AVX-512BW loop, with 3.5
 * vector ops per block per 64 bytes against GFNI's 2, ran ahead, as
 * xor_syndrome's BW loop does in its L2 band (rx_xsyn_bw_band,
 * simd_avx512.h), presumably the same pacing.  Turin-like Zen 5,
 * 2026-12-05, the BW loop on crowded stripes as a temporary entry
 * against gfni_avx512x4nt, three runs each of `raidx bench --op
 * gen_syndrome --page-aligned --no-recheck` on --disks
 * 18,19,20,22,26,34 --len 4k,...,16m and on --disks 26,28,30,32,34 --len
 * 16k,...,2m, paired:
 *   24-32 data blocks, 64-512 KiB: 84 pairs 0.90-1.12, median 1.02;
 *     32+2 at 64 KiB 1.04-1.08 (gfni_avx512x4nt had read 0.88-0.94 of
 *     avx512x4nt there in every `raidx bench --op gen_syndrome
 *     --page-aligned` since the crowded rule), 30+2 and 28+2 at 64 KiB
 *     1.02-1.09;
 *   the same stripes from 768 KiB: 0.73-0.99 (the x4 GFNI loop keeps
 *     them); at 16-32 KiB 0.95-1.11, around 1.00; 17-20 data blocks at
 *     256 KiB-16 MiB and at 4 KiB 0.78-0.99, so not below 24.
 * Spread stripes (not crowded) keep the GFNI loops; the check costs
 * them nothing measurable: two runs of the default placement, --disks
 * 26,30,34 --len 16k,...,768k, the entry with the check over
 * gfni_avx512x4nt, 42 pairs 0.88-1.09, median 1.00.
 */
#define GEN_BW_MIN_LEN ((size_t)64 << 10)
#define GEN_BW_MAX_LEN ((size_t)512 << 10)

RX_INLINE int rx_gen_bw_crowd(unsigned disks, size_t len, void **ptrs)
{
	unsigned nd = disks - 2, over = raidx__crowd_over();

	return nd >= RAIDX__X4_WIDE_MIN && len >= GEN_BW_MIN_LEN &&
	       len <= GEN_BW_MAX_LEN && over < RAIDX_MAX_DISKS &&
	       raidx__crowded_first(ptrs, nd, over);
}

/*
 * And avx512x4nt's loop on stripes of GEN_BW_L3_MIN (6) to GEN_BW_L3_MAX
 * (12) data blocks whose data is more than 3/8 of the LLC and at most
 * twice it, crowded or not, on CPUs with RAIDX__T_GEN_L3_BW: the same
 * lead of the BW loop from the L3 as above, on narrower stripes.
 * Turin-like Zen 5, 2026-12-05, gfni_avx512x4nt over avx512x4nt, two
 * runs each of `raidx bench --op gen_syndrome --impl
 * gfni_avx512x4nt,avx512x4nt --no-recheck`, by the stripe's data bytes
 * (LLC 32 MiB):
 *   spread, --disks 9,...,15 --len 1m,1280k,1536k,1792k,2m,2560k,3m: 7-13
 *     data blocks from 13.5 MiB of data to 33 MiB 0.75-0.94 but for one
 *     reading of 7 blocks (0.99) and 13 blocks at 26 MiB (1.18 and
 *     0.97); at 11-13 MiB 0.91-0.98; at 7-10.5 MiB 0.93-0.99;
 *   page-aligned, --disks 8,9,10,12,14,15,16 --len 1m,...,6m: 10-13 data
 *     blocks from 18 MiB to 60-78 MiB 0.79-0.95 (13 blocks at 26 MiB, 2
 *     MiB blocks: 1.40-1.41); 7 and 8 blocks 0.91-1.00 from 14 MiB; 6
 *     blocks 0.95-1.04 from 18 MiB;
 *   spread, --disks 7,...,18 --len 512k,...,16m: 5-6 data blocks
 *     0.94-1.10 at every length; 8-12 blocks at 8 MiB a block 0.94-1.07
 *     (64-96 MiB of data), at 16 MiB 0.89-1.00; at 2 MiB 14 and 16 data
 *     blocks 1.24-1.52, 15 0.68-0.82 (wide stripes keep the GFNI loops'
 *     own rules);
 *   at 6-12 MiB of 7-12 data blocks (--disks 9,10,12,14 --len
 *     512k,...,1152k), spread 0.91-1.07, page-aligned 0.96-1.03: level.
 * With the rule on 7-12 data blocks up to 5/4 of the LLC, two runs of
 * --disks 8,9,10,12,14,15 --len 1m,1536k,2m,3m,4m,6m: 6 data blocks
 * 0.89-0.99 from 18 to 36 MiB; on 6-12, two runs of --disks
 * 7,8,9,10,12,14,15 at the same lengths: past 5/4 of the LLC, 7-12
 * blocks at 42-60 MiB 0.86-0.98 (page-aligned, one run: 0.83-0.96),
 * and in the band 0.93-1.07 (page-aligned 0.97-1.03), the same loop.
 * So 6-12 data blocks from above 3/8 of the LLC to twice it.  Measured
 * on the Zen 5 only.
 */
#define GEN_BW_L3_MIN 6
#define GEN_BW_L3_MAX 12

RX_INLINE int rx_gen_bw_l3(unsigned disks, size_t len)
{
	unsigned nd = disks - 2;

	if (nd < GEN_BW_L3_MIN || nd > GEN_BW_L3_MAX)
		return 0;

	size_t data = (size_t)nd * len, llc = raidx__llc_bytes();

	return data > llc / 8 * 3 && data <= 2 * llc &&
	       (raidx__cpu_traits() & RAIDX__T_GEN_L3_BW);
}

/* Both streaming twins' stripe rules, in one place: group passes on wide
 * stripes beyond the cache, avx512x4nt's loop in its two bands, else x4's
 * on crowded and wide stripes.  1 if the call ran. */
RX_INLINE int gen_nt_stripe_rules(unsigned disks, size_t len, void **ptrs)
{
	if (rx_gen_grouped(disks, len))
		gen_grouped(disks, len, ptrs);
	else if (rx_gen_bw_crowd(disks, len, ptrs) || rx_gen_bw_l3(disks, len))
		RX_SHARED(raidx__avx512_gen_x4nt)(disks, len, ptrs);
	else if (rx_gen_nt_x4(disks, len, ptrs))
		gen_x4lnt(disks, len, ptrs);
	else
		return 0;
	return 1;
}

static void gen_x4nt(unsigned disks, size_t len, void **ptrs)
{
	if (gen_nt_stripe_rules(disks, len, ptrs))
		return;
	RX_TAIL_BY_UNROLL(gen_x4_unroll(disks, len), gen_x1nt, gen_x2nt,
			  gen_x4lnt, disks, len, ptrs);
}

/* gfni_avx512x2nt: x2's loop, but x1's where the stripe has left L1 on
 * blocks shorter than raidx__x1_max_len(), and the stripe rules of
 * gen_x4nt (gen_nt_stripe_rules).  The large class,
 * where select.c runs this twin of gfni_avx512x2, starts there for
 * gen_syndrome of 15 or more data blocks (GEN_STREAM_MIN_BLOCKS), and a
 * default raidx bench run whose calibration had picked x2 found x2's
 * loop at 0.90x of gfni_avx512x4nt's x1 on 16+2 at 4 KiB (session 23). */
static void gen_x2nt_any(unsigned disks, size_t len, void **ptrs)
{
	if (gen_nt_stripe_rules(disks, len, ptrs))
		return;
	if (rx_x4_unroll(disks, len) == 1)
		gen_x1nt(disks, len, ptrs);
	else
		gen_x2nt(disks, len, ptrs);
}
#else
static void gen_x4(unsigned disks, size_t len, void **ptrs)
{
	gen_u(disks, len, ptrs, 4);
}

static void gen_x4nt(unsigned disks, size_t len, void **ptrs)
{
	if (rx_gen_grouped(disks, len))
		gen_grouped(disks, len, ptrs);
	else
		gen_nt_u(disks, len, ptrs, 4);
}
#endif

RX_NOINLINE void xsyn_x2(unsigned disks, unsigned start, unsigned stop,
			 size_t len, void **ptrs)
{
	xsyn_fixed(disks, start, stop, len, ptrs, 2);
}

/* gfni_avx2.c's xsyn_x2 (the 256-bit loop of gfni_avx2x2) on len, a
 * multiple of 32, lent to gfni_avx512x4 and gfni_avx512x2 for one-block
 * windows beyond the LLC (xsyn_band). */
RX_HIDDEN void RX_SHARED(raidx__gfni_avx2_xsyn_x2)(unsigned disks, unsigned start,
						    unsigned stop, size_t len,
						    void **ptrs);

#ifdef RX_V512
RX_NOINLINE void xsyn_x1(unsigned disks, unsigned start, unsigned stop,
			 size_t len, void **ptrs)
{
	xsyn_fixed(disks, start, stop, len, ptrs, 1);
}

RX_NOINLINE void xsyn_x4l(unsigned disks, unsigned start, unsigned stop,
			  size_t len, void **ptrs)
{
	xsyn_fixed(disks, start, stop, len, ptrs, 4);
}

/*
 * One-block windows (a single disk's update) whose block, P and Q, 3 x
 * len bytes, are more than the LLC: the 256-bit loop of gfni_avx2x2, the
 * last len % 32 bytes in the masked step.  From memory the 256-bit loads
 * ran level or ahead on the Turin-like Zen 5, as for the XOR kernels
 * (avx512.c, xor_l3_band).  Against gfni_avx512x4's x1 loop, the routing
 * as a temporary kernel in one binary, four runs of `raidx bench --op
 * xor_syndrome` (two at --len 16m, two at 4m,16m,32m) and two of
 * `--disks 10,18 --start S --stop S --len 4m,8m,16m,32m` (S = 0, 7, 8,
 * 15; 2026-12-04), paired: 8+2 [7,7] at 16 MiB 1.00-1.05 (median 1.03),
 * 16+2 [15,15] 1.00-1.05, [0,0] and [8,8] at 8-32 MiB 0.98-1.03, every
 * one-block window at 32 MiB 0.99-1.02; at 4 MiB, where both ran x4's
 * loop (3 x 4 MiB is inside the LLC), 0.97-1.03.  Those 16 MiB cells had missed the selection goal in
 * three of four default runs of 2026-12-04's tenth pass, gfni_avx512x4 at
 * 0.93-0.95 of gfni_avx2x2 rechecked.  Wider windows keep their loops:
 * there the 256-bit loop read 0.58-1.14 (16+2 [0,15] 0.83-0.84 at 16 MiB,
 * 8+2 [0,7] 1.08-1.14 at 32 MiB), no rule by width.  (Paired alone
 * earlier, two-block windows at 16 MiB: 0.97-0.99.)
 */
RX_INLINE int rx_xsyn_ymm_band(unsigned start, unsigned stop, size_t len)
{
	return stop == start && 3 * len > raidx__llc_bytes();
}

/*
 * x4's loop beyond L1 too, on the stripes gen_syndrome's rule found
 * (rx_gen_nt_x4, above), on CPUs with RAIDX__T_CROWD_X4:
 *   - crowded: windows of more than RAIDX__XSYN_X4_CROWD_OVER (13) blocks
 *     starting in the L1 set of the first (raidx__crowded_first), as md's
 *     stripe cache and page-aligned buffers place them, at any length; of
 *     more than RAIDX__XSYN_X4_CROWD_SHORT_OVER (10) on blocks of at most
 *     RAIDX__XSYN_X4_SHORT_LEN (4 KiB, a page), where x4's loop is the
 *     in-L1 pick up to 10 blocks anyway;
 *   - wide: RAIDX__X4_WIDE_MIN (24) blocks or more on blocks under
 *     RAIDX__X4_WIDE_MAX_LEN (1 MiB), wherever they are.
 * Turin-like Zen 5, 2026-12-05, with x1, x2 and x4 as temporary entries
 * of one loop each (`raidx bench --op xor_syndrome --no-recheck`, two
 * runs each), --page-aligned, windows [0, W-1] of 18 and 34 disks at 2
 * KiB to 1 MiB, x4 over the faster of x1 and x2: 14-16 blocks 1.03-1.13x
 * at 2-4 KiB (once 0.76), 1.00-1.24x from 8 KiB to 1 MiB (once 0.97);
 * 11-13 blocks 1.05-1.15x at 2-4 KiB (once 0.96), but 0.78-1.06x at 8-64
 * KiB; 10 blocks and fewer fit the L1 at 4 KiB (x4 already).
 * Spread (the default placement), x4 over x1: 16+2 [0,15] 0.88-0.93x at
 * 4-16 KiB, so no rule by width alone below 24; 32+2 [7,31] and [0,31]
 * 0.90-1.21x from 2 KiB to 1 MiB (below 0.98 once), 24+2 [0,23]
 * 0.93-1.19x.
 * This rule against the kernel before (a temporary entry; two runs of
 * `--disks 18,26,34 --len 2k,4k,8k,16k,64k,256k,1m`, and of `--len
 * 4m,16m` on 18 and 34 disks):
 *   - page-aligned, from 4 KiB to 1 MiB: 16+2 [0,15] 1.08-1.38x, 24+2
 *     [0,23] and [5,23] 1.04-1.58x, 32+2 [0,31], [7,31], [16,31] and
 *     [0,16] 1.08-1.73x (1.3-1.7x at 8-16 KiB), 13 and 12 blocks at 4
 *     KiB 1.18-1.24x; at 4 and 16 MiB 0.96-1.17x on those windows; the
 *     other 190 cells 0.94-1.07x;
 *   - spread: 32+2 [7,31] 1.18-1.21x at 2 KiB, 1.02-1.05x from 4 KiB,
 *     24+2 [0,23] 1.20-1.26x at 2 KiB, 0.96-0.98x at 4-8 KiB; all 294
 *     cells 0.91-1.26x, median 1.00 (0.91 twice on a one-block window
 *     that runs the same code either way, and once on 16+2 [0,15] at 1
 *     MiB, 1.01 in the other run: the runs' noise).
 * Only where the x4 loop is not the pick already, and only from 11
 * blocks, so the in-L1 calls and narrow windows never pay for the check.
 */
RX_INLINE int rx_xsyn_crowd_x4(unsigned start, unsigned stop, size_t len,
			       void **ptrs)
{
	unsigned nw = stop - start + 1;

	if (nw <= RAIDX__XSYN_X4_CROWD_SHORT_OVER ||
	    raidx__crowd_over() >= RAIDX_MAX_DISKS) /* not this CPU */
		return 0;
	if (nw >= RAIDX__X4_WIDE_MIN && len < RAIDX__X4_WIDE_MAX_LEN)
		return 1;
	unsigned over = len <= RAIDX__XSYN_X4_SHORT_LEN ? RAIDX__XSYN_X4_CROWD_SHORT_OVER
							: RAIDX__XSYN_X4_CROWD_OVER;
	return raidx__crowded_first(ptrs + start, nw, over);
}

RX_INLINE unsigned rx_xsyn_crowd_unroll(unsigned start, unsigned stop,
					size_t len, void **ptrs)
{
	unsigned u = rx_xsyn_x4_unroll(start, stop, len);

	if (u == 4)
		return u;
	return rx_xsyn_crowd_x4(start, stop, len, ptrs) ? 4 : u;
}

/* The bands where another file's loop leads whatever unroll the GFNI
 * loops would take: avx512.c's x1, x2 or x4 loop where the blocks are in
 * L2 (rx_xsyn_bw_band), gfni_avx2x2's beyond the LLC (rx_xsyn_ymm_band).
 * Runs that loop and returns 1, else returns 0.  Both GFNI xor_syndrome
 * kernels follow them: they are properties of the window and the caches,
 * not of either kernel's own unroll, and the calibration gives some
 * widths to gfni_avx512x2 in some starts (one fresh-clone run of the
 * default raidx bench, 2026-12-05: 8+2 [4,7] at 64 KiB 0.92 of avx512x1
 * for that reason). */
RX_INLINE int xsyn_band(unsigned disks, unsigned start, unsigned stop,
			size_t len, void **ptrs)
{
	if (rx_xsyn_ymm_band(start, stop, len)) {
		size_t bulk = len & ~(size_t)31;
		RX_SHARED(raidx__gfni_avx2_xsyn_x2)(disks, start, stop, bulk, ptrs);
		if (bulk < len)
			xsyn_tail(disks, start, stop, ptrs, bulk, len);
		return 1;
	}
	unsigned bw = rx_xsyn_bw_band(start, stop, len, ptrs);
	if (!bw)
		return 0;
	RX_TAIL_BY_UNROLL(bw, RX_SHARED(raidx__avx512_xsyn_x1),
			  RX_SHARED(raidx__avx512_xsyn_x2),
			  RX_SHARED(raidx__avx512_xsyn_x4), disks, start, stop,
			  len, ptrs);
	return 1;
}

/* gfni_avx512x2: x2's loop, but x4's on crowded and wide windows
 * (rx_xsyn_crowd_x4), as gen_x2nt_any follows gen_syndrome's rule.  The
 * calibration picks this kernel for an xor_syndrome class in some starts,
 * and its plain x2 loop read 0.61-0.95 of x4's on page-aligned windows of
 * 14-32 blocks from 8 KiB (the runs above). */
static void xsyn_x2_any(unsigned disks, unsigned start, unsigned stop,
			size_t len, void **ptrs)
{
	if (xsyn_band(disks, start, stop, len, ptrs))
		return;
	if (rx_xsyn_crowd_x4(start, stop, len, ptrs))
		xsyn_x4l(disks, start, stop, len, ptrs);
	else
		xsyn_x2(disks, start, stop, len, ptrs);
}

/* x4 in L1 (x2 on windows of one or two blocks), x1 or x2 beyond it
 * (rx_xsyn_x4_unroll, simd_avx512.h) but x4 on crowded and wide windows
 * (above), avx512.c's x1, x2 or x4 loop in bands where the blocks are in
 * L2 (rx_xsyn_bw_band), gfni_avx2x2's beyond the LLC (rx_xsyn_ymm_band);
 * a tail call, as gen_x4. */
RX_NOINLINE void xsyn_x4_any(unsigned disks, unsigned start, unsigned stop,
			     size_t len, void **ptrs)
{
	if (xsyn_band(disks, start, stop, len, ptrs))
		return;
	RX_TAIL_BY_UNROLL(rx_xsyn_crowd_unroll(start, stop, len, ptrs), xsyn_x1,
			  xsyn_x2, xsyn_x4l, disks, start, stop, len, ptrs);
}

/* One- and two-block windows in L1 (a single disk's update, the most
 * common partial write) first, in ten instructions and no stack frame;
 * the rest out of line.  With the band check and the unroll rule before
 * it, the entry pushed two registers and ran about twenty instructions
 * before its jump to xsyn_x2, and gfni_avx512x4 ran 0.96-0.97x of
 * gfni_avx512x2 on 8+2's [7,7] at 4 KiB (same loop); now 0.98-1.01
 * (three runs of `raidx bench --op xor_syndrome --len 1k,4k --impl
 * gfni_avx512x4,<old entry>,gfni_avx512x2`, 2026-12-03).  l1 is 0 until
 * looked up; xsyn_x4_any's rule looks it up. */
static void xsyn_x4(unsigned disks, unsigned start, unsigned stop, size_t len,
		    void **ptrs)
{
	size_t l1 = atomic_load_explicit(&raidx__l1d_cached, memory_order_relaxed);

	if (stop - start < 2 && (size_t)(stop - start + 3) * len <= l1)
		xsyn_x2(disks, start, stop, len, ptrs);
	else
		xsyn_x4_any(disks, start, stop, len, ptrs);
}
#endif

/* Out of line: the streaming twins below call them below their bound, so
 * that both kernels run the same machine code there (with a copy of the
 * loop inlined in the twin, it ran 0.86-0.92x of gfni_avx512 on 8+2
 * recov_datap at 64 KiB, the very same source). */
RX_NOINLINE void recov_2data_gfni(unsigned disks, size_t len, unsigned faila,
				  unsigned failb, void **ptrs)
{
	recov_u(0, disks, len, faila, failb, ptrs, RX_RECOV_U, 0, 0);
}

RX_NOINLINE void recov_datap_gfni(unsigned disks, size_t len, unsigned faila,
				  void **ptrs)
{
	recov_u(1, disks, len, faila, faila, ptrs, RX_RECOV_U, 0, 0);
}

/*
 * Recoveries of wide stripes beyond the cache in group passes, as
 * gen_grouped does gen_syndrome: each chunk of REC_GRP_CHUNK bytes in
 * passes over groups of at most GEN_GRP_MAX data blocks from the top
 * down.  A pass folds its survivors into the XOR and the Horner sum left
 * by the passes above it (its plan jumps from the last survivor they
 * folded, rx_rplan_range) and leaves them in the lost blocks' memory
 * (r2_step, rdp_step), which stays in the L2 until the last pass reads
 * them back and rebuilds the blocks there.  That pass alone streams them
 * (from their first common VB boundary, as raidx__nt_head finds it; the
 * bytes before it and the tail after the last whole step go through the
 * one-pass masked steps).
 *
 * Measured on the Turin-like Zen 5 (2026-12-07): gfni_avx512nt over
 * gfni_avx512 (the one-pass loop) in the same runs of `raidx bench --op
 * recov_2data,recov_datap --impl gfni_avx512nt,gfni_avx512 --no-recheck`,
 * medians over the cells of three or four runs.  First a test build with
 * the rule and sizes behind switches (the twin without groups:
 * 0.98-1.08):
 *   chunks of 128 KiB: 22 disks at 2 MiB 1.13, 34 at 16 MiB 1.27, 19 at
 *     2 MiB 0.99, against 1.08, 1.24 and 0.94 with gen_grouped's 64 KiB;
 *     256 KiB no better; groups of 8, 10 and 16 no better than 12 (16
 *     on 34 disks at 4 MiB 0.95, 8 on 19 disks at 2 MiB 0.87);
 *   grouped at any size from 16 data blocks: 22 disks at 2 and 3 MiB
 *     1.20 and 1.15, 26 at 1-3 MiB 1.14-1.16, 34 at 1-3 MiB 1.08-1.11;
 *     but 18 disks at 1-3 MiB 0.88-0.98, 19 at 1-2 MiB 0.95-1.01 and 20
 *     at 1 and 1.5 MiB 0.98, while from 4 MiB on 18-21 disks gain
 *     1.12-1.20 (19 and 20 at 3 MiB 1.08-1.09): with two groups, storing
 *     and reloading the sums costs about what the fewer streams save,
 *     until the stripe is well past the LLC.
 * So from 20 data blocks on stripes of 13/16 of the LLC or more
 * (gen_grouped's bound), and from 16 on stripes of twice the LLC.  The
 * final code against the code before it, builds alternating, three runs
 * of `--disks 18,19,21,22,26,34 --len 1m,2m,4m,16m`: 1.13-1.22 where the
 * rule groups (18, 19 and 21 disks at 4 and 16 MiB, 22-34 at 2-16 MiB;
 * 26 disks at 4 MiB 1.07) against 0.98-1.10 before; 1.04 and 1.08 on 34
 * and 26 disks at 1 MiB (0.92-1.29 run to run), where the twin does not
 * stream and the calibration's in-cache pick runs anyway.
 * gfni_avx2nt, the 256-bit twin, on the same rule: builds alternating,
 * three runs of `--disks 18,19,22,26,34 --len 1m,2m,4m,16m --impl
 * gfni_avx2nt,gfni_avx2`, medians per shape where it groups 1.18-2.45
 * over gfni_avx2 (34 disks at 4 MiB 2.45) against 0.99-1.13 before; the
 * shapes it leaves alone 0.99-1.04 against 1.00-1.01.
 */
#define REC_GRP_MIN_BLOCKS 16
#define REC_GRP_WIDE_BLOCKS 20
#define REC_GRP_CHUNK ((size_t)128 << 10)

RX_INLINE int rx_rec_grouped(unsigned disks, size_t len)
{
	size_t bytes = (size_t)disks * len, llc = raidx__llc_bytes();

	if (disks - 2 >= REC_GRP_WIDE_BLOCKS)
		return bytes >= llc / 16 * GEN_GRP_LLC_16THS;
	return disks - 2 >= REC_GRP_MIN_BLOCKS && bytes >= 2 * llc;
}

#define REC_GRP_U 2

RX_INLINE void rec_gpass(int datap, unsigned disks, void **ptrs, unsigned x,
			 unsigned y, unsigned hi, unsigned lo, int first,
			 int last, size_t c0, size_t c1, int nt,
			 const struct rk *K0)
{
	struct rx_rplan pl;
	struct rk K = *K0;
	unsigned prev = hi + 1; /* the lowest survivor folded before */

	while (!first && (prev == x || prev == y))
		prev++;
	rx_rplan_range(&pl, hi, lo, x, datap ? x : y, !first, prev);
	rk_runs(&K, &pl);
	for (size_t off = c0; off < c1; off += REC_GRP_U * VB)
		rec_step(datap, disks, &pl, ptrs, x, y, off, REC_GRP_U, 0, 0, &K,
			 nt && last, !first, last);
}

static void rec_grouped(int datap, unsigned disks, size_t len, unsigned x,
			unsigned y, void **ptrs)
{
	struct rx_rplan pl;
	struct rk K;
	long h = raidx__nt_head(len, ptrs[x], ptrs[datap ? disks - 2 : y], VB,
				RX_MASKED);
	int nt = h >= 0;
	size_t head = nt ? (size_t)h : 0, n, off;

	rec_plan(datap, disks, x, y, &pl, &K);
	if (head)
		rec_step(datap, disks, &pl, ptrs, x, y, 0, 1, RX_MASKED,
			 kmask(head), &K, 0, 0, 1);
	n = (len - head) / (REC_GRP_U * VB) * (REC_GRP_U * VB);
#define REC_GRP_PASS(hi, lo, first, last, c0, c1)                              \
	rec_gpass(datap, disks, ptrs, x, y, hi, lo, first, last, head + (c0),  \
		  head + (c1), nt, &K)
	RXK_GROUPS(n, disks - 2, GEN_GRP_MAX, REC_GRP_CHUNK, REC_GRP_PASS);
#undef REC_GRP_PASS
	for (off = head + n; off < len; off += VB)
		rec_step(datap, disks, &pl, ptrs, x, y, off, 1, RX_MASKED,
			 kmask(len - off), &K, 0, 0, 1);
	if (nt)
		_mm_sfence();
}

/*
 * The streaming twins below take stripes of 7 to 10 disks (5 to 8 data
 * blocks and P and Q) RX_RECOV_NT_NARROW_U vectors a step, where the
 * including file sets it (gfni_avx512.c: 2 against 4).  Turin-like Zen 5,
 * 2026-12-05, the 512-bit twin at two vectors a step as a temporary
 * entry, three runs of `raidx bench --op recov_2data,recov_datap --disks
 * 6,8,10,12,14,18 --len 4m,16m --impl gfni_avx512nt,<it> --no-recheck`,
 * two over four: 8 and 10 disks at 16 MiB 0.99-1.24 (8+2 losing 0, 0 and
 * 1, 6 and 7, or 7: 1.02-1.24), but 0.91-0.98 where 8+2 loses disk 3
 * (and 3 and 4), the placement-bound cell of docs/performance-log.md's
 * fourteenth pass; 6 disks, and every width at 4 MiB up to 10 disks,
 * 0.92-1.21 around 1.00; 12 disks 0.86-1.10; 14 and 18 disks 0.83-1.02,
 * so wider stripes keep four.  Four earlier runs (`--disks 6,10,18,34
 * --len 4m,16m` and `--disks 7,...,14 --len 16m`) agreed on 7-11 disks
 * but for the middle failures.  The rule against the kernel before it as
 * a temporary entry in one binary, with the rivals beside them, three
 * runs of `--disks 6,10,18 --len 4m,16m`: 8+2 at 16 MiB 1.05-1.17 losing
 * 0, 0 and 1, 6 and 7, or 7 in two runs (0.91-0.92 in the first, whose
 * 16 MiB cells all ran slower), 0.91-0.97 losing 3; 6 disks 0.93-1.07
 * (0.93-0.94 losing 0 at 16 MiB), so 6 disks keep four.  On the Intel
 * Xeon (2026-12-04) a 128-byte step of this loop had read 0.97-1.11 of
 * the 256-byte one on 8+2 at 16 MiB (docs/performance-log.md, "Where it
 * stands (Intel Xeon, 2026-12-04)"), so the rule is not a Zen 5 trait.
 */
#ifndef RX_RECOV_NT_NARROW_U
#define RX_RECOV_NT_NARROW_U RX_RECOV_U
#endif
#define RX_REC_NT_NARROW_MIN_DISKS 7
#define RX_REC_NT_NARROW_MAX_DISKS 10

RX_INLINE int rx_rec_nt_narrow(unsigned disks)
{
	return RX_RECOV_NT_NARROW_U != RX_RECOV_U &&
	       disks >= RX_REC_NT_NARROW_MIN_DISKS &&
	       disks <= RX_REC_NT_NARROW_MAX_DISKS;
}

/*
 * The streaming twins, for the recoveries' large class: they stream the
 * rebuilt blocks only where that class starts, beyond the LLC and an
 * eighth (raidx__rec_stream_bytes; select.c's REC_LARGE_LLC_EIGHTHS has
 * the measurements), and run gfni_avx512's loop below it.  When the twin
 * streamed at every size, gfni_avx512 ran 0.87-0.94x of it in three
 * default raidx bench runs' 1 MiB cells of 8+2 recov_2data and of 16+2
 * with the top blocks lost (and 0.92-0.94x on 16+2's top blocks at 64
 * KiB), while the twin ran 0.71-0.82x of gfni_avx512 where 16+2 lost its
 * low blocks (`--disks 18 --len 512k,1m`);
 * no rule on the call's shape tells the two apart yet, and the twin is
 * what the large class runs, not a per-shape alternative.  Normal stores
 * also when the rebuilt blocks never share a VB boundary (gfni_avx2, with
 * no byte masks: unless both are 32-byte aligned).  gfni_avx2nt, the
 * 256-bit twin, over gfni_avx2 above the bound, three runs of `raidx bench
 * --op recov_2data,recov_datap --disks 6,10,18,34 --len 4m,8m,16m --impl
 * avx512,avx512nt,gfni_avx2,gfni_avx2nt,gfni_avx512,gfni_avx512nt
 * --no-recheck` (Turin-like Zen 5, 2026-12-03): 0.95-1.57, median 1.23
 * on 6 disks, 1.17 on 10, 1.11 on 18, 1.04 on 34 (gfni_avx512nt over
 * gfni_avx512 in the same runs: 0.97-1.40).
 */
RX_INLINE void recov_nt(int datap, unsigned disks, size_t len, unsigned x,
			unsigned y, void **ptrs)
{
	long head;

	if (rx_rec_grouped(disks, len)) {
		rec_grouped(datap, disks, len, x, y, ptrs);
		return;
	}
	head = raidx__rec_nt_head(disks, len, ptrs[x],
				  ptrs[datap ? disks - 2 : y], VB, RX_MASKED);
	if (head < 0 && datap)
		recov_datap_gfni(disks, len, x, ptrs);
	else if (head < 0)
		recov_2data_gfni(disks, len, x, y, ptrs);
	else if (rx_rec_nt_narrow(disks))
		recov_u(datap, disks, len, x, y, ptrs, RX_RECOV_NT_NARROW_U, 1,
			(size_t)head);
	else
		recov_u(datap, disks, len, x, y, ptrs, RX_RECOV_U, 1, (size_t)head);
}

static void recov_2data_gfni_nt(unsigned disks, size_t len, unsigned faila,
				unsigned failb, void **ptrs)
{
	recov_nt(0, disks, len, faila, failb, ptrs);
}

static void recov_datap_gfni_nt(unsigned disks, size_t len, unsigned faila,
				void **ptrs)
{
	recov_nt(1, disks, len, faila, faila, ptrs);
}
