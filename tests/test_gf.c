/*
 * test_gf - the field itself, from the definition.
 *
 *   - the tests' own arithmetic (test_util.c: carry-less multiply, then
 *     reduction by 0x11d bit by bit) is checked to be a field with
 *     generator 2;
 *   - every generated table (raidx__gf_exp/log/inv/mul/mul_lo/mul_hi/affine)
 *     is checked against it, raidx__gf_affine by emulating vgf2p8affineqb in
 *     C (output bit i = parity(matrix byte 7-i & x)) for every c and x;
 *   - the recovery coefficients raidx__recov_coef() for every pair;
 *   - hand-checkable Q vectors, worked out in the comments, through every
 *     gen_syndrome implementation and the public function;
 *   - known answers for P/Q computed from the definition with the tests'
 *     own arithmetic, for every gen_syndrome implementation at disks 3..40,
 *     64, 128, 257, and for every xor_syndrome implementation on random
 *     windows.
 */
#include "test_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct tlist LG, LX;

/* ---- the model itself ------------------------------------------------- */

static void test_model(void)
{
	uint8_t g = 1;
	unsigned order = 0;

	/* Hand-worked products: x * x^7 = x^8 = x^4 + x^3 + x^2 + 1. */
	t_ctx("model: hand products");
	t_expect_int("tm_mul(2, 0x80)", tm_mul(2, 0x80), 0x1d);
	t_expect_int("tm_mul(0x80, 2)", tm_mul(0x80, 2), 0x1d);
	/* 0x53 * 8: 0x53 -> 0xa6 -> 0x14c ^ 0x11d = 0x51 -> 0xa2. */
	t_expect_int("tm_mul(0x53, 8)", tm_mul(0x53, 8), 0xa2);
	/* 2 * 0x8e = 0x11c, ^ 0x11d = 1: 0x8e is the inverse of 2. */
	t_expect_int("tm_mul(2, 0x8e)", tm_mul(2, 0x8e), 1);
	/* (x + 1)^2 = x^2 + 1 in characteristic 2. */
	t_expect_int("tm_mul(3, 3)", tm_mul(3, 3), 5);

	/* 2 has order 255: it generates the multiplicative group. */
	do {
		g = tm_mul(g, 2);
		order++;
	} while (g != 1 && order < 300);
	t_expect_int("order of 2", order, 255);

	/* A commutative ring without zero divisors (so a field): every nonzero
	 * a has exactly one b with a * b = 1; distributivity on samples. */
	for (unsigned a = 0; a < 256; a++) {
		unsigned ninv = 0;
		for (unsigned b = 0; b < 256; b++) {
			uint8_t ab = tm_mul((uint8_t)a, (uint8_t)b);
			if (ab != tm_mul((uint8_t)b, (uint8_t)a)) {
				t_fail("model: %u * %u not commutative", a, b);
				return;
			}
			if (a && b && !ab) {
				t_fail("model: %u * %u = 0", a, b);
				return;
			}
			ninv += ab == 1;
		}
		if (a && ninv != 1)
			t_fail("model: %u has %u inverses", a, ninv);
	}
	for (unsigned i = 0; i < 20000; i++) {
		uint8_t a = (uint8_t)rng_next(&t_rng), b = (uint8_t)rng_next(&t_rng),
			c = (uint8_t)rng_next(&t_rng);
		if (tm_mul(a, b ^ c) != (tm_mul(a, b) ^ tm_mul(a, c)) ||
		    tm_mul(a, tm_mul(b, c)) != tm_mul(tm_mul(a, b), c))
			t_fail("model: not distributive/associative at %u %u %u", a, b, c);
	}
	t_log("model: carry-less multiply mod 0x11d is a field, 2 has order 255");
}

/* ---- the library's tables --------------------------------------------- */

/* What vgf2p8affineqb does to one byte x with matrix A (no constant). */
static uint8_t affine_byte(uint64_t A, uint8_t x)
{
	uint8_t out = 0;
	for (int i = 0; i < 8; i++) {
		uint8_t row = (uint8_t)(A >> (8 * (7 - i)));
		out |= (uint8_t)((__builtin_popcount(row & x) & 1) << i);
	}
	return out;
}

static void test_tables(void)
{
	uint8_t g = 1;

	t_ctx("raidx__gf_exp");
	for (unsigned i = 0; i < 510; i++) {
		if (raidx__gf_exp[i] != g) {
			t_fail("raidx__gf_exp[%u] = 0x%02x, 2^%u = 0x%02x", i,
			       raidx__gf_exp[i], i, g);
			break;
		}
		g = tm_mul(g, 2);
	}
	for (unsigned n = 0; n < 1100; n++)
		if (raidx__gf_pow2(n) != tm_pow2(n)) {
			t_fail("raidx__gf_pow2(%u) = 0x%02x, expected 0x%02x", n,
			       raidx__gf_pow2(n), tm_pow2(n));
			break;
		}

	t_ctx("raidx__gf_log");
	t_expect_int("raidx__gf_log[0]", raidx__gf_log[0], 0);
	for (unsigned i = 0; i < 255; i++)
		if (raidx__gf_log[tm_pow2(i)] != i) {
			t_fail("raidx__gf_log[2^%u = 0x%02x] = %u", i, tm_pow2(i),
			       raidx__gf_log[tm_pow2(i)]);
			break;
		}

	t_ctx("raidx__gf_inv");
	t_expect_int("raidx__gf_inv[0]", raidx__gf_inv[0], 0);
	for (unsigned a = 1; a < 256; a++)
		if (tm_mul((uint8_t)a, raidx__gf_inv[a]) != 1) {
			t_fail("raidx__gf_inv[0x%02x] = 0x%02x is not its inverse", a,
			       raidx__gf_inv[a]);
			break;
		}

	t_ctx("raidx__gf_mul, mul_lo, mul_hi, affine");
	unsigned bad = 0;
	for (unsigned c = 0; c < 256 && bad < 5; c++) {
		for (unsigned x = 0; x < 256 && bad < 5; x++) {
			uint8_t want = tm_mul((uint8_t)c, (uint8_t)x);
			uint8_t nib = raidx__gf_mul_lo[c][x & 15] ^ raidx__gf_mul_hi[c][x >> 4];
			uint8_t aff = affine_byte(raidx__gf_affine[c], (uint8_t)x);
			if (raidx__gf_mul[c][x] != want || raidx__gf_mul1((uint8_t)c, (uint8_t)x) != want) {
				t_fail("raidx__gf_mul[0x%02x][0x%02x] = 0x%02x, expected 0x%02x",
				       c, x, raidx__gf_mul[c][x], want);
				bad++;
			}
			if (nib != want) {
				t_fail("mul_lo/mul_hi for c=0x%02x x=0x%02x give 0x%02x, "
				       "expected 0x%02x", c, x, nib, want);
				bad++;
			}
			if (aff != want) {
				t_fail("vgf2p8affineqb emulation with raidx__gf_affine[0x%02x] "
				       "on 0x%02x gives 0x%02x, expected 0x%02x", c, x, aff, want);
				bad++;
			}
		}
		for (unsigned n = 0; n < 16; n++) {
			if (raidx__gf_mul_lo[c][n] != tm_mul((uint8_t)c, (uint8_t)n) ||
			    raidx__gf_mul_hi[c][n] != tm_mul((uint8_t)c, (uint8_t)(n << 4))) {
				t_fail("raidx__gf_mul_lo/hi[0x%02x][%u] wrong", c, n);
				bad++;
			}
		}
	}

	/*
	 * raidx__recov_coef(x, y) gives A, B with Dx = A Pxy ^ B Qxy for
	 * Pxy = Dx ^ Dy and Qxy = 2^x Dx ^ 2^y Dy.  The map is linear, so it
	 * holds for all Dx, Dy iff it holds for (Dx, Dy) = (1, 0) and (0, 1):
	 * A ^ B 2^x = 1 and A ^ B 2^y = 0.
	 */
	t_ctx("raidx__recov_coef");
	for (unsigned x = 0; x < 255 && bad < 5; x++) {
		uint8_t gx = tm_pow2(x), gy = gx;
		for (unsigned y = x + 1; y < 255 && bad < 5; y++) {
			uint8_t a, b;
			gy = tm_mul(gy, 2);
			raidx__recov_coef(x, y, &a, &b);
			if ((a ^ tm_mul(b, gx)) != 1 || (a ^ tm_mul(b, gy)) != 0) {
				t_fail("raidx__recov_coef(%u, %u) = A 0x%02x, B 0x%02x "
				       "does not solve the 2x2 system", x, y, a, b);
				bad++;
			}
		}
	}
	t_log("tables: exp[510], pow2, log, inv, mul[256][256], mul_lo/hi, "
	      "affine (vgf2p8affineqb emulated, all c and x), recov_coef for "
	      "all 32385 pairs: checked against the model");
}

/* ---- hand-checkable Q vectors ----------------------------------------- */

struct vec {
	unsigned disks;
	unsigned nset;      /* data blocks listed in set[], the others zero */
	unsigned set[2][2]; /* { index, byte } */
	int all;            /* every data block = all - 1 (when all > 0) */
	uint8_t p, q;
	const char *why;
};

static const struct vec vecs[] = {
	{ 3, 1, { { 0, 0x01 } }, 0, 0x01, 0x01, "Q = 2^0 * 1" },
	{ 4, 1, { { 1, 0x01 } }, 0, 0x01, 0x02, "Q = 2^1 * 1" },
	{ 4, 1, { { 1, 0x80 } }, 0, 0x80, 0x1d, "2 * x^7 = x^8 = x^4+x^3+x^2+1" },
	{ 5, 1, { { 2, 0x80 } }, 0, 0x80, 0x3a, "4 * 0x80 = 2 * 0x1d = 0x3a" },
	{ 6, 1, { { 3, 0x53 } }, 0, 0x53, 0xa2, "8 * 0x53: 0xa6, 0x14c^0x11d=0x51, 0xa2" },
	{ 4, 2, { { 0, 0xff }, { 1, 0xff } }, 0, 0x00, 0x1c,
	  "0xff ^ 2*0xff = 0xff ^ (0x1fe^0x11d = 0xe3) = 0x1c" },
	{ 11, 1, { { 8, 0x01 } }, 0, 0x01, 0x1d, "2^8 = x^4+x^3+x^2+1" },
	{ 257, 1, { { 254, 0x01 } }, 0, 0x01, 0x8e, "2^254 = 2^-1, 2*0x8e = 0x11c^0x11d = 1" },
	{ 6, 0, { { 0, 0 } }, 2, 0x00, 0x0f, "1 ^ 2 ^ 4 ^ 8" },
	{ 257, 0, { { 0, 0 } }, 2, 0x01, 0x00,
	  "sum of 2^z, z < 255 = (2^255 - 1)/(2 - 1) = 0; 255 ones XOR to 1" },
};

static void check_const(const char *what, const uint8_t *b, size_t len, uint8_t v)
{
	for (size_t i = 0; i < len; i++)
		if (b[i] != v) {
			t_fail("%s[%zu] = 0x%02x, expected 0x%02x", what, i, b[i], v);
			return;
		}
}

static void test_vectors(void)
{
	size_t len = 3 * (LG.maxgran > 64 ? LG.maxgran : 64) + 5;
	struct tstripe *s = ts_new(257, len);
	void *ptrs[RAIDX_MAX_DISKS];
	unsigned nv = sizeof(vecs) / sizeof(vecs[0]);

	for (unsigned v = 0; v < nv; v++) {
		const struct vec *e = &vecs[v];
		ts_use(s, e->disks);
		ts_place(s, len, PL_END, 0);
		for (unsigned z = 0; z < e->disks - 2; z++)
			memset(s->blk[z], e->all ? e->all - 1 : 0, len);
		for (unsigned k = 0; k < e->nset; k++)
			memset(s->blk[e->set[k][0]], e->set[k][1], len);
		for (unsigned z = 0; z < e->disks; z++)
			ptrs[z] = s->blk[z];
		for (unsigned k = 0; k <= LG.n; k++) {
			memset(ptrs[e->disks - 2], 0x55, len);
			memset(ptrs[e->disks - 1], 0xaa, len);
			if (k < LG.n) {
				t_ctx("op=gen_syndrome vector %u (%s) impl=%s disks=%u len=%zu",
				      v, e->why, LG.v[k]->name, e->disks, len);
				raidx__run_gen_syndrome(LG.v[k], e->disks, len, ptrs);
			} else {
				t_ctx("op=raidx_gen_syndrome vector %u (%s) disks=%u len=%zu",
				      v, e->why, e->disks, len);
				t_expect_int("raidx_gen_syndrome",
					     raidx_gen_syndrome(e->disks, len, ptrs), 0);
			}
			check_const("P", ptrs[e->disks - 2], len, e->p);
			check_const("Q", ptrs[e->disks - 1], len, e->q);
			ts_check(s);
		}
	}
	ts_free(s);
	t_log("hand vectors: %u P/Q vectors through %u gen_syndrome impls (%s) "
	      "and raidx_gen_syndrome", nv, LG.n, LG.names);
}

/* ---- known answers from the definition -------------------------------- */

static void test_kat(void)
{
	unsigned list[48], n = 0;
	size_t base = LG.maxgran > 64 ? LG.maxgran : 64;
	struct tstripe *s = ts_new(257, 4 * base);
	uint8_t *p = t_malloc(4 * base), *q = t_malloc(4 * base);
	uint8_t *zero = calloc(1, 4 * base);
	unsigned long runs = 0;

	for (unsigned d = 3; d <= 40; d++)
		list[n++] = d;
	list[n++] = 64;
	list[n++] = 128;
	list[n++] = 257;

	for (unsigned i = 0; i < n; i++) {
		unsigned disks = list[i];
		void *ptrs[RAIDX_MAX_DISKS];
		const uint8_t *d[RAIDX_MAX_DISKS];
		size_t len = t_shape_len(&LG, &t_rng);

		ts_use(s, disks);
		ts_place(s, len, (int)rng_below(&t_rng, PL_COUNT), rng_below(&t_rng, 64));
		for (unsigned z = 0; z < disks; z++) {
			ts_fill(s, z, &t_rng);
			ptrs[z] = s->blk[z];
			d[z] = s->blk[z];
		}
		tm_pq(disks - 2, len, d, p, q);
		for (unsigned k = 0; k < LG.n; k++) {
			t_ctx("op=gen_syndrome KAT impl=%s disks=%u len=%zu place=%s off=%u",
			      LG.v[k]->name, disks, len, pl_name(s->place), s->off);
			memset(ptrs[disks - 2], 0, len);
			memset(ptrs[disks - 1], 0, len);
			raidx__run_gen_syndrome(LG.v[k], disks, len, ptrs);
			t_cmp("P (vs definition)", ptrs[disks - 2], p, len);
			t_cmp("Q (vs definition)", ptrs[disks - 1], q, len);
			ts_check(s);
			runs++;
		}

		/* xor_syndrome: the window's own P/Q is the definition applied
		 * to the window with every other data block zero. */
		unsigned nd = disks - 2;
		unsigned start = rng_below(&t_rng, nd);
		unsigned stop = start + rng_below(&t_rng, nd - start);
		for (unsigned z = 0; z < nd; z++)
			if (z < start || z > stop) {
				d[z] = zero;
				ptrs[z] = NULL;
			}
		tm_pq(nd, len, d, p, q);
		uint8_t *P0 = t_malloc(len), *Q0 = t_malloc(len);
		rng_fill(&t_rng, P0, len);
		rng_fill(&t_rng, Q0, len);
		for (size_t b = 0; b < len; b++) {
			p[b] ^= P0[b];
			q[b] ^= Q0[b];
		}
		for (unsigned k = 0; k < LX.n; k++) {
			t_ctx("op=xor_syndrome KAT impl=%s disks=%u start=%u stop=%u "
			      "len=%zu place=%s off=%u", LX.v[k]->name, disks, start,
			      stop, len, pl_name(s->place), s->off);
			memcpy(ptrs[disks - 2], P0, len);
			memcpy(ptrs[disks - 1], Q0, len);
			raidx__run_xor_syndrome(LX.v[k], disks, start, stop, len, ptrs);
			t_cmp("P (vs definition)", ptrs[disks - 2], p, len);
			t_cmp("Q (vs definition)", ptrs[disks - 1], q, len);
			ts_check(s);
			runs++;
		}
		free(P0);
		free(Q0);
	}
	ts_free(s);
	free(p);
	free(q);
	free(zero);
	t_log("known answers from the definition: gen_syndrome (%s) and "
	      "xor_syndrome (%s, one random window each) for disks 3..40, 64, "
	      "128, 257; %lu runs", LG.names, LX.names, runs);
}

int main(int argc, char **argv)
{
	t_init(argc, argv, "test_gf");
	t_impls(RAIDX_OP_GEN_SYNDROME, &LG);
	t_impls(RAIDX_OP_XOR_SYNDROME, &LX);

	test_model();
	test_tables();
	test_vectors();
	test_kat();
	return t_done();
}
