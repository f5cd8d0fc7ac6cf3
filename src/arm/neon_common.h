/*
 * neon_common.h - the AArch64 Advanced SIMD kernels, written once and
 * instantiated by neon.c (baseline armv8-a) and neon_sha3.c (armv8.2-a+sha3,
 * where the three-way XOR EOR3 exists).  The two files read as the same
 * algorithm; only the helpers rx_xor3() and rx_mul2_xor() change dialect,
 * chosen by __ARM_FEATURE_SHA3, which the compiler defines from the per-file
 * -march flag.  Not installed; include only from src/arm/.
 *
 * Multiply by 2 in GF(2^8) (poly 0x11d), sixteen bytes at once
 * ------------------------------------------------------------
 *     2v = (v << 1) ^ (top bit of v ? 0x1d : 0)
 * written as  (v + v) ^ (cmlt(v, #0) & 0x1d):
 *   - v + v (ADD) is the byte-wise shift left by one with no cross-lane
 *     carry, like SHL #1, but integer ADD issues on both ASIMD pipes of the
 *     Cortex-A72/A76 and Neoverse N1 class cores, while shifts by an
 *     immediate go to one of them only (the "F1"/"V1" pipe of their
 *     optimisation guides; on the four-pipe Neoverse V1, two of four).  Same
 *     latency, more throughput.
 *   - CMLT #0 on the bytes viewed as signed turns every byte whose top bit is
 *     set into 0xff and every other into 0x00.  SSHR #7 gives the same mask,
 *     but it is again a shift; a compare against zero is a plain integer op
 *     that issues on any pipe.
 *   - AND with 0x1d picks the reduction (x^8 = x^4 + x^3 + x^2 + 1) in exactly
 *     the bytes that overflowed, and one EOR applies it.
 * Four instructions, none restricted to the shift pipe.  In Horner's rule (below) the multiply is
 * always followed by an XOR of a data block, so q = 2q ^ d costs five; with
 * EOR3 (SHA3 extension) the two XORs fold into one: four.
 *
 * Multiply by a constant c (recovery, xor_syndrome's g^start)
 * -----------------------------------------------------------
 * GF multiplication distributes over XOR, so c*x = c*(x & 0x0f) ^ c*(x & 0xf0):
 * two 16-entry tables (raidx__gf_mul_lo/hi[c], built by tools/gengf.c) and
 * one TBL each on the low and the high nibble (AND #0x0f, USHR #4).  TBL
 * returns 0 for indices >= 16, but both nibble indices are < 16.  Five
 * instructions for sixteen bytes.
 *
 * P and Q: Horner's rule, two data blocks per loop step
 * -----------------------------------------------------
 * Q = sum g^z D_z = ((D_top * 2 ^ D_top-1) * 2 ^ ...) * 2 ^ D_0: one running
 * q per vector, multiplied by 2 before each lower block is XORed in.  The
 * disk loop takes two blocks per step: half the loop overhead (pointer load,
 * compare, branch), and P = P ^ (D_a ^ D_b) needs one EOR3 instead of two
 * EORs.  In plain NEON the pair is XORed first (D_a ^ D_b does not depend on
 * P), which keeps P's dependency chain one operation long per step.
 *
 * Each offset step handles U vectors (16*U bytes) of every block: U
 * independent q chains.  One q step is a chain of four dependent operations
 * (ADD/CMLT -> AND -> EOR -> EOR) of 2-3 cycles each on current cores, so a
 * single chain (x1) is latency-bound and x4 keeps both pipes busy; the
 * selection measures which unroll wins on the core at hand.  x4 uses about 20
 * of the 32 vector registers (P, Q, two loaded blocks, constants): no spills.
 *
 * Recovery in one pass, no scratch buffers
 * ----------------------------------------
 * For each step, P and Q of the surviving data are computed in registers by
 * the same Horner loop, where a failed disk only contributes its multiply by
 * 2 (its data is not read); then XORing the stored P and Q gives
 * Pxy = Dx ^ Dy and Qxy = g^x Dx ^ g^y Dy, and
 *     Dx = A*Pxy ^ B*Qxy,  Dy = Pxy ^ Dx   (raidx__recov_coef())
 * with four TBLs; both blocks are stored straight away.  Each input byte is
 * read once and each output byte written once, where the classic two-pass
 * recovery (syndromes of the survivors written into the failed blocks, then
 * read back and combined) writes the failed blocks twice and reads them once.
 *
 * XOR: sources in the inner loop, 64 or 128 bytes per source
 * -----------------------------------------------------------
 * dst may be one of the sources, so every source of a position must be read
 * before that position of dst is written: the loop over sources has to be
 * inside the loop over offsets.  Its overhead (load the source pointer, add,
 * compare, branch) is paid once per source per step, so a step covers 4 or 8
 * vectors (64/128 bytes) per source, and sources come in pairs (one EOR3 per
 * vector and pair with SHA3).  That is the lesson of seed thread 004: an
 * inner loop over sources with one 64-byte AVX-512 load per source lost most
 * of the bandwidth to loop overhead, and the fix proposed there was 512
 * bytes, i.e. eight vector loads, per source and step -- what "x2" (8 x 16
 * bytes) does here.
 *
 * Kernel contract (raidx_impl.h): len is a non-zero multiple of 16*U (the
 * registered granule), pointers may have any alignment (LD1/ST1 of bytes
 * never fault on misalignment), and nothing outside [ptr, ptr + len) is
 * touched.
 */
#ifndef RAIDX_NEON_COMMON_H
#define RAIDX_NEON_COMMON_H

#include <arm_neon.h>

#include "raidx_impl.h"

#if defined(__GNUC__)
#define RX_AI static inline __attribute__((always_inline))
#else
#define RX_AI static inline
#endif

/* Complete unrolling of the loops over the U vectors of a step, so that the
 * arrays of vectors live in registers.  clang 14 reads "GCC unroll 8" as an
 * unroll factor larger than the trip count and then leaves the loop rolled,
 * with the arrays on the stack; it needs its own spelling. */
#if defined(__clang__)
#define RX_UNROLL _Pragma("clang loop unroll(full)")
#else
#define RX_UNROLL _Pragma("GCC unroll 8")
#endif

#define RX_MAXV 8 /* largest number of vectors per step */

RX_AI uint8x16_t rx_ld(const void *p, size_t off)
{
	return vld1q_u8((const uint8_t *)p + off);
}

RX_AI void rx_st(void *p, size_t off, uint8x16_t v)
{
	vst1q_u8((uint8_t *)p + off, v);
}

/* a ^ b ^ c */
RX_AI uint8x16_t rx_xor3(uint8x16_t a, uint8x16_t b, uint8x16_t c)
{
#if defined(__ARM_FEATURE_SHA3)
	return veor3q_u8(a, b, c);
#else
	/* b ^ c first: a is usually the accumulator, so its chain grows by one
	 * operation instead of two. */
	return veorq_u8(a, veorq_u8(b, c));
#endif
}

/* 2 * v in GF(2^8); poly = 0x1d in every byte. */
RX_AI uint8x16_t rx_mul2(uint8x16_t v, uint8x16_t poly)
{
	uint8x16_t top = vcltzq_s8(vreinterpretq_s8_u8(v));
	return veorq_u8(vaddq_u8(v, v), vandq_u8(top, poly));
}

/* 2 * v ^ d */
RX_AI uint8x16_t rx_mul2_xor(uint8x16_t v, uint8x16_t d, uint8x16_t poly)
{
	uint8x16_t top = vcltzq_s8(vreinterpretq_s8_u8(v));
	return rx_xor3(vaddq_u8(v, v), vandq_u8(top, poly), d);
}

/* Multiplication by a constant: the two nibble tables of raidx_impl.h. */
struct rx_mulc {
	uint8x16_t lo, hi;
};

RX_AI struct rx_mulc rx_mulc_of(uint8_t c)
{
	struct rx_mulc m = { vld1q_u8(raidx__gf_mul_lo[c]),
			     vld1q_u8(raidx__gf_mul_hi[c]) };
	return m;
}

RX_AI uint8x16_t rx_mulc_lo(struct rx_mulc m, uint8x16_t x, uint8x16_t m0f)
{
	return vqtbl1q_u8(m.lo, vandq_u8(x, m0f));
}

RX_AI uint8x16_t rx_mulc_hi(struct rx_mulc m, uint8x16_t x)
{
	return vqtbl1q_u8(m.hi, vshrq_n_u8(x, 4));
}

RX_AI uint8x16_t rx_mulc(struct rx_mulc m, uint8x16_t x, uint8x16_t m0f)
{
	return veorq_u8(rx_mulc_lo(m, x, m0f), rx_mulc_hi(m, x));
}

/* ---- XOR --------------------------------------------------------------- */

/* dst = (acc ? dst : 0) ^ srcs[0] ^ ... ^ srcs[nsrc-1], V vectors a step. */
RX_AI void rx_xor(void *dst, const void *const *srcs, unsigned nsrc,
		  size_t len, int acc, unsigned V)
{
	for (size_t off = 0; off < len; off += 16 * V) {
		uint8x16_t w[RX_MAXV];
		unsigned s;

		if (acc) {
			RX_UNROLL for (unsigned k = 0; k < V; k++)
				w[k] = rx_ld(dst, off + 16 * k);
			s = 0;
		} else {
			RX_UNROLL for (unsigned k = 0; k < V; k++)
				w[k] = rx_ld(srcs[0], off + 16 * k);
			s = 1;
		}
		for (; s + 2 <= nsrc; s += 2) {
			const uint8_t *a = (const uint8_t *)srcs[s] + off;
			const uint8_t *b = (const uint8_t *)srcs[s + 1] + off;
			RX_UNROLL for (unsigned k = 0; k < V; k++)
				w[k] = rx_xor3(w[k], rx_ld(a, 16 * k),
					       rx_ld(b, 16 * k));
		}
		if (s < nsrc) {
			const uint8_t *a = (const uint8_t *)srcs[s] + off;
			RX_UNROLL for (unsigned k = 0; k < V; k++)
				w[k] = veorq_u8(w[k], rx_ld(a, 16 * k));
		}
		RX_UNROLL for (unsigned k = 0; k < V; k++)
			rx_st(dst, off + 16 * k, w[k]);
	}
}

/* ---- P/Q --------------------------------------------------------------- */

/*
 * Horner steps for data blocks z-1, z-2, ..., end (descending; none when
 * z == end), at byte offset `off`, on U vectors of running p and q.
 */
RX_AI void rx_horner(void *const *ptrs, size_t off, unsigned z, unsigned end,
		     uint8x16_t *p, uint8x16_t *q, uint8x16_t poly, unsigned U)
{
	for (; z >= end + 2; z -= 2) {
		const uint8_t *a = (const uint8_t *)ptrs[z - 1] + off;
		const uint8_t *b = (const uint8_t *)ptrs[z - 2] + off;
		RX_UNROLL for (unsigned k = 0; k < U; k++) {
			uint8x16_t da = rx_ld(a, 16 * k), db = rx_ld(b, 16 * k);
			p[k] = rx_xor3(p[k], da, db);
			q[k] = rx_mul2_xor(rx_mul2_xor(q[k], da, poly), db, poly);
		}
	}
	if (z > end) {
		const uint8_t *a = (const uint8_t *)ptrs[z - 1] + off;
		RX_UNROLL for (unsigned k = 0; k < U; k++) {
			uint8x16_t da = rx_ld(a, 16 * k);
			p[k] = veorq_u8(p[k], da);
			q[k] = rx_mul2_xor(q[k], da, poly);
		}
	}
}

RX_AI void rx_gen(unsigned disks, size_t len, void **ptrs, unsigned U)
{
	const unsigned top = disks - 3;
	uint8_t *P = ptrs[disks - 2], *Q = ptrs[disks - 1];
	const uint8x16_t poly = vdupq_n_u8(0x1d);

	for (size_t off = 0; off < len; off += 16 * U) {
		uint8x16_t p[RX_MAXV], q[RX_MAXV];
		RX_UNROLL for (unsigned k = 0; k < U; k++)
			p[k] = q[k] = rx_ld(ptrs[top], off + 16 * k);
		rx_horner(ptrs, off, top, 0, p, q, poly, U);
		RX_UNROLL for (unsigned k = 0; k < U; k++) {
			rx_st(P, off + 16 * k, p[k]);
			rx_st(Q, off + 16 * k, q[k]);
		}
	}
}

/*
 * Linux xor_syndrome: P ^= D_start ^ ... ^ D_stop, Q ^= sum g^z D_z over the
 * window.  Horner runs over the window only, giving
 * sum g^(z-start) D_z; the blocks below start are not read.  Linux then
 * multiplies by 2 once per disk below start; here start == 1 takes the one
 * multiply by 2 (4 instructions) and start >= 2 one multiply by the constant
 * g^start (5 instructions, whatever start is).
 */
RX_AI void rx_xsyn(unsigned disks, unsigned start, unsigned stop, size_t len,
		   void **ptrs, unsigned U)
{
	uint8_t *P = ptrs[disks - 2], *Q = ptrs[disks - 1];
	const uint8x16_t poly = vdupq_n_u8(0x1d), m0f = vdupq_n_u8(0x0f);
	const struct rx_mulc gs = rx_mulc_of(raidx__gf_pow2(start));

	for (size_t off = 0; off < len; off += 16 * U) {
		uint8x16_t p[RX_MAXV], q[RX_MAXV];
		RX_UNROLL for (unsigned k = 0; k < U; k++)
			p[k] = q[k] = rx_ld(ptrs[stop], off + 16 * k);
		rx_horner(ptrs, off, stop, start, p, q, poly, U);
		if (start == 1) {
			RX_UNROLL for (unsigned k = 0; k < U; k++)
				q[k] = rx_mul2(q[k], poly);
		} else if (start > 1) {
			RX_UNROLL for (unsigned k = 0; k < U; k++)
				q[k] = rx_mulc(gs, q[k], m0f);
		}
		RX_UNROLL for (unsigned k = 0; k < U; k++) {
			rx_st(P, off + 16 * k, veorq_u8(rx_ld(P, off + 16 * k), p[k]));
			rx_st(Q, off + 16 * k, veorq_u8(rx_ld(Q, off + 16 * k), q[k]));
		}
	}
}

/* ---- recovery ---------------------------------------------------------- */

/*
 * P and Q of the surviving data at `off`: Horner from the top data block
 * down, where the failed blocks x < y (y == x for one) are skipped but still
 * take their multiply by 2.  When y is the top block, p and q start at zero
 * and its multiply by 2 (of zero) is left out.
 */
RX_AI void rx_survivors(void *const *ptrs, size_t off, unsigned top,
			unsigned x, unsigned y, uint8x16_t *p, uint8x16_t *q,
			uint8x16_t poly, unsigned U)
{
	if (y < top) {
		RX_UNROLL for (unsigned k = 0; k < U; k++)
			p[k] = q[k] = rx_ld(ptrs[top], off + 16 * k);
		rx_horner(ptrs, off, top, y + 1, p, q, poly, U);
		RX_UNROLL for (unsigned k = 0; k < U; k++)
			q[k] = rx_mul2(q[k], poly);
	} else {
		RX_UNROLL for (unsigned k = 0; k < U; k++)
			p[k] = q[k] = vdupq_n_u8(0);
	}
	if (x != y) {
		rx_horner(ptrs, off, y, x + 1, p, q, poly, U);
		RX_UNROLL for (unsigned k = 0; k < U; k++)
			q[k] = rx_mul2(q[k], poly);
	}
	rx_horner(ptrs, off, x, 0, p, q, poly, U);
}

/* Data blocks x < y lost. */
RX_AI void rx_recov2(unsigned disks, size_t len, unsigned x, unsigned y,
		     void **ptrs, unsigned U)
{
	const uint8_t *P = ptrs[disks - 2], *Q = ptrs[disks - 1];
	uint8_t *dx = ptrs[x], *dy = ptrs[y];
	const uint8x16_t poly = vdupq_n_u8(0x1d), m0f = vdupq_n_u8(0x0f);
	uint8_t ca, cb;

	raidx__recov_coef(x, y, &ca, &cb);
	const struct rx_mulc ma = rx_mulc_of(ca), mb = rx_mulc_of(cb);

	for (size_t off = 0; off < len; off += 16 * U) {
		uint8x16_t p[RX_MAXV], q[RX_MAXV];
		rx_survivors(ptrs, off, disks - 3, x, y, p, q, poly, U);
		RX_UNROLL for (unsigned k = 0; k < U; k++) {
			uint8x16_t pxy = veorq_u8(p[k], rx_ld(P, off + 16 * k));
			uint8x16_t qxy = veorq_u8(q[k], rx_ld(Q, off + 16 * k));
			uint8x16_t v = veorq_u8(
				rx_xor3(rx_mulc_lo(ma, pxy, m0f), rx_mulc_hi(ma, pxy),
					rx_mulc_lo(mb, qxy, m0f)),
				rx_mulc_hi(mb, qxy));
			rx_st(dx, off + 16 * k, v);
			rx_st(dy, off + 16 * k, veorq_u8(pxy, v));
		}
	}
}

/* Data block x and P lost: Dx = g^-x * (Q ^ Q of survivors), P = survivors
 * ^ Dx. */
RX_AI void rx_recovp(unsigned disks, size_t len, unsigned x, void **ptrs,
		     unsigned U)
{
	uint8_t *P = ptrs[disks - 2], *dx = ptrs[x];
	const uint8_t *Q = ptrs[disks - 1];
	const uint8x16_t poly = vdupq_n_u8(0x1d), m0f = vdupq_n_u8(0x0f);
	const struct rx_mulc mg = rx_mulc_of(raidx__gf_inv[raidx__gf_pow2(x)]);

	for (size_t off = 0; off < len; off += 16 * U) {
		uint8x16_t p[RX_MAXV], q[RX_MAXV];
		rx_survivors(ptrs, off, disks - 3, x, x, p, q, poly, U);
		RX_UNROLL for (unsigned k = 0; k < U; k++) {
			uint8x16_t v = rx_mulc(
				mg, veorq_u8(q[k], rx_ld(Q, off + 16 * k)), m0f);
			rx_st(dx, off + 16 * k, v);
			rx_st(P, off + 16 * k, veorq_u8(p[k], v));
		}
	}
}

/* ---- instantiation ----------------------------------------------------- */

/* Kernels named <prefix>_<op>_<U>, wrappers with the registry signatures. */
#define RX_DEFINE_XOR(prefix, V)                                             \
	static void prefix##_xor_gen_##V(void *dst, const void *const *srcs, \
					 unsigned nsrc, size_t len)          \
	{                                                                    \
		rx_xor(dst, srcs, nsrc, len, 0, V);                          \
	}                                                                    \
	static void prefix##_xor_acc_##V(void *dst, const void *const *srcs, \
					 unsigned nsrc, size_t len)          \
	{                                                                    \
		rx_xor(dst, srcs, nsrc, len, 1, V);                          \
	}

#define RX_DEFINE_PQ(prefix, U)                                              \
	static void prefix##_gen_##U(unsigned disks, size_t len, void **ptrs) \
	{                                                                    \
		rx_gen(disks, len, ptrs, U);                                 \
	}                                                                    \
	static void prefix##_xsyn_##U(unsigned disks, unsigned start,        \
				      unsigned stop, size_t len, void **ptrs) \
	{                                                                    \
		rx_xsyn(disks, start, stop, len, ptrs, U);                   \
	}

#define RX_DEFINE_RECOV(prefix, U)                                           \
	static void prefix##_r2_##U(unsigned disks, size_t len, unsigned x,  \
				    unsigned y, void **ptrs)                 \
	{                                                                    \
		rx_recov2(disks, len, x, y, ptrs, U);                        \
	}                                                                    \
	static void prefix##_rdp_##U(unsigned disks, size_t len, unsigned x, \
				     void **ptrs)                            \
	{                                                                    \
		rx_recovp(disks, len, x, ptrs, U);                           \
	}

#endif /* RAIDX_NEON_COMMON_H */
