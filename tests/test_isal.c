/*
 * test_isal - cross-check against Intel ISA-L, an independent
 * implementation of the same field and layout.
 *
 *   - gf_mul() and gf_inv() of ISA-L equal raidx__gf_mul / raidx__gf_inv for
 *     every operand;
 *   - pq_gen() of ISA-L and every raidx gen_syndrome implementation (and the
 *     public function) give identical P and Q for several disk counts and
 *     lengths, and ISA-L's pq_check() accepts raidx's parity;
 *   - xor_gen() of ISA-L and every raidx xor_gen implementation agree, and
 *     xor_check() accepts the result.
 *
 * ISA-L wants 32-byte aligned buffers, lengths that are multiples of 32 and
 * the destinations last in the array (for xor_gen: array[vects-1] = dst).
 * Without libisal-dev the test reports itself skipped (exit status 77).
 */
#include "test_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef RAIDX_HAVE_ISAL

int main(void)
{
	printf("SKIP isal: not built with libisal-dev\n");
	return 77;
}

#else

#include <isa-l/erasure_code.h>
#include <isa-l/raid.h>

static void *amalloc(size_t n)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, n ? n : 64)) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}

static void test_gf(void)
{
	t_ctx("isal gf_mul/gf_inv");
	for (unsigned a = 0; a < 256; a++) {
		for (unsigned b = 0; b < 256; b++)
			if (gf_mul((unsigned char)a, (unsigned char)b) != raidx__gf_mul[a][b]) {
				t_fail("gf_mul(0x%02x, 0x%02x): isal 0x%02x, raidx 0x%02x", a,
				       b, gf_mul((unsigned char)a, (unsigned char)b),
				       raidx__gf_mul[a][b]);
				return;
			}
		if (a && gf_inv((unsigned char)a) != raidx__gf_inv[a])
			t_fail("gf_inv(0x%02x): isal 0x%02x, raidx 0x%02x", a,
			       gf_inv((unsigned char)a), raidx__gf_inv[a]);
	}
	t_log("gf_mul (65536 products) and gf_inv (255) equal ISA-L's");
}

static void test_pq(struct tlist *LG)
{
	static const unsigned dl[] = { 4, 5, 6, 8, 11, 16, 24, 32, 64, 128, 257 };
	unsigned nd = sizeof(dl) / sizeof(dl[0]);
	size_t lens[6] = { 32, 64, 96, 4096, 0, 0 };
	unsigned nl = t_quick ? 4 : 6, runs = 0;

	lens[4] = 32 * rng_range(&t_rng, 4, 2048);
	lens[5] = 32 * rng_range(&t_rng, 1, 64);
	for (unsigned di = 0; di < nd; di++) {
		unsigned disks = dl[di];
		for (unsigned li = 0; li < nl; li++) {
			size_t len = lens[li];
			void *a[RAIDX_MAX_DISKS], *b[RAIDX_MAX_DISKS];
			for (unsigned z = 0; z < disks; z++) {
				a[z] = amalloc(len);
				if (z < disks - 2)
					rng_fill(&t_rng, a[z], len);
				b[z] = a[z];
			}
			uint8_t *P = amalloc(len), *Q = amalloc(len);
			b[disks - 2] = P;
			b[disks - 1] = Q;

			t_ctx("isal pq_gen disks=%u len=%zu", disks, len);
			int r = pq_gen((int)disks, (int)len, a);
			if (r) {
				t_fail("isal pq_gen(%u, %zu) returned %d", disks, len, r);
				goto next;
			}
			for (unsigned k = 0; k <= LG->n; k++) {
				memset(P, 0x5a, len);
				memset(Q, 0xa5, len);
				if (k < LG->n) {
					t_ctx("op=gen_syndrome vs isal pq_gen impl=%s disks=%u len=%zu",
					      LG->v[k]->name, disks, len);
					raidx__run_gen_syndrome(LG->v[k], disks, len, b);
				} else {
					t_ctx("op=raidx_gen_syndrome vs isal pq_gen disks=%u len=%zu",
					      disks, len);
					t_expect_int("raidx_gen_syndrome",
						     raidx_gen_syndrome(disks, len, b), 0);
				}
				t_cmp("P (vs ISA-L)", P, a[disks - 2], len);
				t_cmp("Q (vs ISA-L)", Q, a[disks - 1], len);
				t_expect_int("isal pq_check of raidx parity",
					     pq_check((int)disks, (int)len, b), 0);
				runs++;
			}
		next:
			for (unsigned z = 0; z < disks; z++)
				free(a[z]);
			free(P);
			free(Q);
		}
	}
	t_log("pq_gen: disks 4..257 (%u counts) x %u lengths (multiples of 32), "
	      "impls %s and the public function; %u comparisons", nd, nl,
	      LG->names, runs);
}

static void test_xor(struct tlist *LX)
{
	unsigned counts[] = { 1, 2, 3, 4, 5, 7, 8, 15, 16, 31, 32, 100, 255 };
	unsigned nc = sizeof(counts) / sizeof(counts[0]), runs = 0;

	for (unsigned ci = 0; ci < nc; ci++) {
		unsigned nsrc = counts[ci];
		size_t len = 32 * rng_range(&t_rng, 1, t_quick ? 64 : 512);
		void *a[256];
		const void *srcs[256];
		for (unsigned i = 0; i <= nsrc; i++) {
			a[i] = amalloc(len);
			if (i < nsrc) {
				rng_fill(&t_rng, a[i], len);
				srcs[i] = a[i];
			}
		}
		uint8_t *dst = amalloc(len);

		t_ctx("isal xor_gen nsrc=%u len=%zu", nsrc, len);
		int r = xor_gen((int)nsrc + 1, (int)len, a);
		if (r) {
			/* ISA-L's xor_gen wants at least two sources. */
			if (nsrc >= 2)
				t_fail("isal xor_gen(%u, %zu) returned %d", nsrc + 1, len, r);
			else
				t_log("isal xor_gen refuses %u source(s) (returned %d): "
				      "not compared", nsrc, r);
			goto next;
		}
		for (unsigned k = 0; k <= LX->n; k++) {
			memset(dst, 0x3c, len);
			if (k < LX->n) {
				t_ctx("op=xor_gen vs isal xor_gen impl=%s nsrc=%u len=%zu",
				      LX->v[k]->name, nsrc, len);
				raidx__run_xor(LX->v[k], dst, srcs, nsrc, len);
			} else {
				t_ctx("op=raidx_xor_gen vs isal xor_gen nsrc=%u len=%zu", nsrc, len);
				t_expect_int("raidx_xor_gen", raidx_xor_gen(dst, srcs, nsrc, len), 0);
			}
			t_cmp("dst (vs ISA-L)", dst, a[nsrc], len);
			void *chk[257];
			memcpy(chk, a, sizeof(void *) * nsrc);
			chk[nsrc] = dst;
			if (nsrc >= 2)
				t_expect_int("isal xor_check of raidx parity",
					     xor_check((int)nsrc + 1, (int)len, chk), 0);
			runs++;
		}
	next:
		for (unsigned i = 0; i <= nsrc; i++)
			free(a[i]);
		free(dst);
	}
	t_log("xor_gen: %u source counts (1..255), impls %s and the public "
	      "function; %u comparisons", nc, LX->names, runs);
}

int main(int argc, char **argv)
{
	struct tlist LG, LX;

	t_init(argc, argv, "test_isal");
	t_impls(RAIDX_OP_GEN_SYNDROME, &LG);
	t_impls(RAIDX_OP_XOR_GEN, &LX);
	test_gf();
	test_pq(&LG);
	test_xor(&LX);
	return t_done();
}

#endif
