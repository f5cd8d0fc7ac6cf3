/*
 * portable.c - word-at-a-time kernels in plain C, for CPUs without a SIMD
 * kernel (and as the baseline the bench compares against).
 *
 * Q by Horner's rule.  Q = sum g^z D_z = (((D_n-1) * 2 ^ D_n-2) * 2 ^ ...) ^ D_0,
 * so one running value q is multiplied by 2 and XORed with the next lower
 * data block: one multiply-by-2 per data block instead of a multiply by g^z.
 *
 * Multiply-by-2 on eight bytes at once (SWAR): shift every byte left by one
 * (the mask drops the bit that would cross into the next byte) and, in the
 * bytes whose top bit was set, XOR the reduction 0x1d (x^8 = x^4+x^3+x^2+1).
 * ((v >> 7) & 0x01..01) * 0x1d puts 0x1d exactly in those bytes, since
 * 0x1d < 0x100 cannot carry.  The operation is the same in every byte, so it
 * does not matter in which order the bytes sit in the word: the kernels are
 * endian-neutral.  Loads and stores go through memcpy, which compilers turn
 * into plain (unaligned) moves.
 *
 * Unrolls: x1, x2 and x4 words per step.  More independent words per step
 * hide the latency of the multiply-by-2 chain (about 5 dependent operations
 * per data block); which one wins depends on the core, so all are
 * registered and the selection picks.
 */
#include "raidx_impl.h"

#if defined(__GNUC__)
#define RX_INLINE static inline __attribute__((always_inline))
#else
#define RX_INLINE static inline
#endif

typedef uint64_t word;
#define LSB 0x0101010101010101ull

RX_INLINE word ld(const void *p, size_t off)
{
	word w;
	memcpy(&w, (const uint8_t *)p + off, sizeof(w));
	return w;
}

RX_INLINE void st(void *p, size_t off, word w)
{
	memcpy((uint8_t *)p + off, &w, sizeof(w));
}

RX_INLINE word mul2(word v)
{
	return ((v << 1) & ~LSB) ^ (((v >> 7) & LSB) * 0x1d);
}

/* ---- XOR ------------------------------------------------------------- */

RX_INLINE void xor_words(void *dst, const void *const *srcs, unsigned nsrc,
			 size_t len, int acc, unsigned U)
{
	for (size_t off = 0; off < len; off += 8 * U) {
		word w[4];
		for (unsigned k = 0; k < U; k++)
			w[k] = acc ? ld(dst, off + 8 * k) : ld(srcs[0], off + 8 * k);
		for (unsigned s = acc ? 0 : 1; s < nsrc; s++)
			for (unsigned k = 0; k < U; k++)
				w[k] ^= ld(srcs[s], off + 8 * k);
		for (unsigned k = 0; k < U; k++)
			st(dst, off + 8 * k, w[k]);
	}
}

/* ---- P/Q ------------------------------------------------------------- */

RX_INLINE void gen_words(unsigned disks, size_t len, void **ptrs, unsigned U)
{
	unsigned z0 = disks - 3;

	for (size_t off = 0; off < len; off += 8 * U) {
		word p[4], q[4];
		for (unsigned k = 0; k < U; k++)
			p[k] = q[k] = ld(ptrs[z0], off + 8 * k);
		for (unsigned z = z0; z-- > 0;) {
			for (unsigned k = 0; k < U; k++) {
				word d = ld(ptrs[z], off + 8 * k);
				p[k] ^= d;
				q[k] = mul2(q[k]) ^ d;
			}
		}
		for (unsigned k = 0; k < U; k++) {
			st(ptrs[disks - 2], off + 8 * k, p[k]);
			st(ptrs[disks - 1], off + 8 * k, q[k]);
		}
	}
}

/*
 * Horner over the window [start, stop] only, then one more multiply-by-2 for
 * each disk below start (those disks are not read: the window's Q term is
 * (sum_{z in window} g^(z-start) D_z) * g^start).
 */
RX_INLINE void xsyn_words(unsigned disks, unsigned start, unsigned stop,
			  size_t len, void **ptrs, unsigned U)
{
	for (size_t off = 0; off < len; off += 8 * U) {
		word p[4], q[4];
		for (unsigned k = 0; k < U; k++)
			p[k] = q[k] = ld(ptrs[stop], off + 8 * k);
		for (unsigned z = stop; z-- > start;) {
			for (unsigned k = 0; k < U; k++) {
				word d = ld(ptrs[z], off + 8 * k);
				p[k] ^= d;
				q[k] = mul2(q[k]) ^ d;
			}
		}
		for (unsigned z = start; z-- > 0;)
			for (unsigned k = 0; k < U; k++)
				q[k] = mul2(q[k]);
		for (unsigned k = 0; k < U; k++) {
			st(ptrs[disks - 2], off + 8 * k, ld(ptrs[disks - 2], off + 8 * k) ^ p[k]);
			st(ptrs[disks - 1], off + 8 * k, ld(ptrs[disks - 1], off + 8 * k) ^ q[k]);
		}
	}
}

#define DEFINE_UNROLL(U)                                                       \
	static void xor_gen_x##U(void *dst, const void *const *srcs,           \
				 unsigned nsrc, size_t len)                    \
	{                                                                      \
		xor_words(dst, srcs, nsrc, len, 0, U);                         \
	}                                                                      \
	static void xor_acc_x##U(void *dst, const void *const *srcs,           \
				 unsigned nsrc, size_t len)                    \
	{                                                                      \
		xor_words(dst, srcs, nsrc, len, 1, U);                         \
	}                                                                      \
	static void gen_x##U(unsigned disks, size_t len, void **ptrs)          \
	{                                                                      \
		gen_words(disks, len, ptrs, U);                                \
	}                                                                      \
	static void xsyn_x##U(unsigned disks, unsigned start, unsigned stop,   \
			      size_t len, void **ptrs)                         \
	{                                                                      \
		xsyn_words(disks, start, stop, len, ptrs, U);                  \
	}

DEFINE_UNROLL(1)
DEFINE_UNROLL(2)
DEFINE_UNROLL(4)

/* ---- recovery -------------------------------------------------------- */

/*
 * One pass, no scratch blocks: for each chunk, P and Q of the surviving data
 * are computed word-wise (Horner, with a failed disk contributing only its
 * multiply-by-2), XORed with the stored P and Q into small stack buffers that
 * stay in L1, and then the GF(2^8) constant multiplies are done byte-wise
 * from the product table, whose two rows in use also stay in L1.
 */
#define RCHUNK 512

static void survivors(unsigned disks, size_t off, size_t n, unsigned x,
		      unsigned y, int p_lost, void **ptrs, uint8_t *pxy,
		      uint8_t *qxy)
{
	for (size_t i = 0; i < n; i += 8) {
		word p = 0, q = 0;
		for (unsigned z = disks - 2; z-- > 0;) {
			q = mul2(q);
			if (z != x && z != y) {
				word d = ld(ptrs[z], off + i);
				p ^= d;
				q ^= d;
			}
		}
		st(pxy, i, p_lost ? p : p ^ ld(ptrs[disks - 2], off + i));
		st(qxy, i, q ^ ld(ptrs[disks - 1], off + i));
	}
}

static void recov_2data_int64(unsigned disks, size_t len, unsigned faila,
			      unsigned failb, void **ptrs)
{
	uint8_t pxy[RCHUNK], qxy[RCHUNK];
	uint8_t a, b;
	uint8_t *dx = ptrs[faila], *dy = ptrs[failb];

	raidx__recov_coef(faila, failb, &a, &b);
	const uint8_t *ma = raidx__gf_mul[a], *mb = raidx__gf_mul[b];

	for (size_t off = 0; off < len; off += RCHUNK) {
		size_t n = len - off < RCHUNK ? len - off : RCHUNK;
		survivors(disks, off, n, faila, failb, 0, ptrs, pxy, qxy);
		for (size_t i = 0; i < n; i++) {
			uint8_t v = ma[pxy[i]] ^ mb[qxy[i]];
			dx[off + i] = v;
			dy[off + i] = pxy[i] ^ v;
		}
	}
}

static void recov_datap_int64(unsigned disks, size_t len, unsigned faila,
			      void **ptrs)
{
	uint8_t pxy[RCHUNK], qxy[RCHUNK];
	uint8_t *dx = ptrs[faila], *p = ptrs[disks - 2];
	const uint8_t *m = raidx__gf_mul[raidx__gf_inv[raidx__gf_pow2(faila)]];

	for (size_t off = 0; off < len; off += RCHUNK) {
		size_t n = len - off < RCHUNK ? len - off : RCHUNK;
		survivors(disks, off, n, faila, faila, 1, ptrs, pxy, qxy);
		for (size_t i = 0; i < n; i++) {
			uint8_t v = m[qxy[i]];
			dx[off + i] = v;
			p[off + i] = pxy[i] ^ v;
		}
	}
}

RAIDX__IMPL_TABLE(portable) = {
	RAIDX__ENTRY("int64x1", RAIDX_OP_XOR_GEN, 10, 8, 0, xor_gen, xor_gen_x1, 0),
	RAIDX__ENTRY("int64x2", RAIDX_OP_XOR_GEN, 11, 16, 0, xor_gen, xor_gen_x2, 0),
	RAIDX__ENTRY("int64x4", RAIDX_OP_XOR_GEN, 12, 32, 0, xor_gen, xor_gen_x4, 0),
	RAIDX__ENTRY("int64x1", RAIDX_OP_XOR_ACC, 10, 8, 0, xor_gen, xor_acc_x1, 0),
	RAIDX__ENTRY("int64x2", RAIDX_OP_XOR_ACC, 11, 16, 0, xor_gen, xor_acc_x2, 0),
	RAIDX__ENTRY("int64x4", RAIDX_OP_XOR_ACC, 12, 32, 0, xor_gen, xor_acc_x4, 0),
	RAIDX__ENTRY("int64x1", RAIDX_OP_GEN_SYNDROME, 10, 8, 0, gen, gen_x1, 0),
	RAIDX__ENTRY("int64x2", RAIDX_OP_GEN_SYNDROME, 12, 16, 0, gen, gen_x2, 0),
	RAIDX__ENTRY("int64x4", RAIDX_OP_GEN_SYNDROME, 11, 32, 0, gen, gen_x4, 0),
	RAIDX__ENTRY("int64x1", RAIDX_OP_XOR_SYNDROME, 10, 8, 0, xsyn, xsyn_x1, 0),
	RAIDX__ENTRY("int64x2", RAIDX_OP_XOR_SYNDROME, 12, 16, 0, xsyn, xsyn_x2, 0),
	RAIDX__ENTRY("int64x4", RAIDX_OP_XOR_SYNDROME, 11, 32, 0, xsyn, xsyn_x4, 0),
	RAIDX__ENTRY("int64", RAIDX_OP_RECOV_2DATA, 10, 8, 0, r2, recov_2data_int64, 0),
	RAIDX__ENTRY("int64", RAIDX_OP_RECOV_DATAP, 10, 8, 0, rdp, recov_datap_int64, 0),
	RAIDX__END,
};
