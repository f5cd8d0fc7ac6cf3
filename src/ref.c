/*
 * ref.c - the byte-at-a-time reference implementation.
 *
 * Written straight from the definitions in raidx.h, with no Horner's rule and
 * no word tricks, so that it is obviously right: it is the oracle every other
 * kernel is tested against, and the dispatcher uses it for the few tail bytes
 * a kernel leaves.
 */
#include "raidx_impl.h"

void raidx__ref_xor_gen(void *dst, const void *const *srcs, unsigned nsrc,
			size_t len)
{
	uint8_t *d = dst;

	for (size_t i = 0; i < len; i++) {
		uint8_t x = 0;
		for (unsigned s = 0; s < nsrc; s++)
			x ^= ((const uint8_t *)srcs[s])[i];
		d[i] = x;
	}
}

void raidx__ref_xor_acc(void *dst, const void *const *srcs, unsigned nsrc,
			size_t len)
{
	uint8_t *d = dst;

	for (size_t i = 0; i < len; i++) {
		uint8_t x = d[i];
		for (unsigned s = 0; s < nsrc; s++)
			x ^= ((const uint8_t *)srcs[s])[i];
		d[i] = x;
	}
}

/* P and Q contributions of data blocks [lo, hi] at byte i. */
static void pq_byte(void **ptrs, unsigned lo, unsigned hi, size_t i,
		    uint8_t *p, uint8_t *q)
{
	uint8_t pp = 0, qq = 0;

	for (unsigned z = lo; z <= hi; z++) {
		uint8_t d = ((const uint8_t *)ptrs[z])[i];
		pp ^= d;
		qq ^= raidx__gf_mul1(raidx__gf_pow2(z), d);
	}
	*p = pp;
	*q = qq;
}

void raidx__ref_gen_syndrome(unsigned disks, size_t len, void **ptrs)
{
	uint8_t *p = ptrs[disks - 2], *q = ptrs[disks - 1];

	for (size_t i = 0; i < len; i++)
		pq_byte(ptrs, 0, disks - 3, i, &p[i], &q[i]);
}

void raidx__ref_xor_syndrome(unsigned disks, unsigned start, unsigned stop,
			     size_t len, void **ptrs)
{
	uint8_t *p = ptrs[disks - 2], *q = ptrs[disks - 1];

	for (size_t i = 0; i < len; i++) {
		uint8_t dp, dq;
		pq_byte(ptrs, start, stop, i, &dp, &dq);
		p[i] ^= dp;
		q[i] ^= dq;
	}
}

/* P and Q of the surviving data at byte i, all data but x and y (y may be
 * equal to x when only one block is missing). */
static void survivors_byte(unsigned disks, void **ptrs, unsigned x,
			   unsigned y, size_t i, uint8_t *p, uint8_t *q)
{
	uint8_t pp = 0, qq = 0;

	for (unsigned z = 0; z < disks - 2; z++) {
		if (z == x || z == y)
			continue;
		uint8_t d = ((const uint8_t *)ptrs[z])[i];
		pp ^= d;
		qq ^= raidx__gf_mul1(raidx__gf_pow2(z), d);
	}
	*p = pp;
	*q = qq;
}

void raidx__ref_recov_2data(unsigned disks, size_t len, unsigned faila,
			    unsigned failb, void **ptrs)
{
	const uint8_t *p = ptrs[disks - 2], *q = ptrs[disks - 1];
	uint8_t *dx = ptrs[faila], *dy = ptrs[failb];
	unsigned x = faila, y = failb;

	/*
	 * Pxy = Dx ^ Dy and Qxy = g^x Dx ^ g^y Dy, so
	 * (g^x ^ g^y) Dx = Qxy ^ g^y Pxy.  Solve with division, the plainest
	 * form (the kernels use the precomputed raidx__recov_coef()).
	 */
	uint8_t gx = raidx__gf_pow2(x), gy = raidx__gf_pow2(y);
	uint8_t inv = raidx__gf_inv[gx ^ gy];

	for (size_t i = 0; i < len; i++) {
		uint8_t sp, sq;
		survivors_byte(disks, ptrs, x, y, i, &sp, &sq);
		uint8_t pxy = p[i] ^ sp, qxy = q[i] ^ sq;
		uint8_t a = raidx__gf_mul1(inv, qxy ^ raidx__gf_mul1(gy, pxy));
		dx[i] = a;
		dy[i] = pxy ^ a;
	}
}

void raidx__ref_recov_datap(unsigned disks, size_t len, unsigned faila,
			    void **ptrs)
{
	uint8_t *p = ptrs[disks - 2], *dx = ptrs[faila];
	const uint8_t *q = ptrs[disks - 1];
	uint8_t ginv = raidx__gf_inv[raidx__gf_pow2(faila)];

	/* Qx = Q ^ (Q of the survivors) = g^x Dx, then P = survivors ^ Dx. */
	for (size_t i = 0; i < len; i++) {
		uint8_t sp, sq;
		survivors_byte(disks, ptrs, faila, faila, i, &sp, &sq);
		uint8_t d = raidx__gf_mul1(ginv, q[i] ^ sq);
		dx[i] = d;
		p[i] = sp ^ d;
	}
}

RAIDX__IMPL_TABLE(ref) = {
	RAIDX__ENTRY("ref", RAIDX_OP_XOR_GEN, 0, 1, 0, xor_gen, raidx__ref_xor_gen, 0),
	RAIDX__ENTRY("ref", RAIDX_OP_XOR_ACC, 0, 1, 0, xor_gen, raidx__ref_xor_acc, 0),
	RAIDX__ENTRY("ref", RAIDX_OP_GEN_SYNDROME, 0, 1, 0, gen, raidx__ref_gen_syndrome, 0),
	RAIDX__ENTRY("ref", RAIDX_OP_XOR_SYNDROME, 0, 1, 0, xsyn, raidx__ref_xor_syndrome, 0),
	RAIDX__ENTRY("ref", RAIDX_OP_RECOV_2DATA, 0, 1, 0, r2, raidx__ref_recov_2data, 0),
	RAIDX__ENTRY("ref", RAIDX_OP_RECOV_DATAP, 0, 1, 0, rdp, raidx__ref_recov_datap, 0),
	RAIDX__END,
};
