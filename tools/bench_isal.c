/*
 * bench_isal.c - the `isal` rows of `raidx bench`: Intel ISA-L doing the same
 * job as each raidx operation, through its public API, on the same buffers.
 *
 * What is compared (and why it is the fair counterpart):
 *   xor_gen       xor_gen(n + 1, len, {srcs..., dst}): the same layout.
 *   xor_acc       ISA-L has no accumulate: xor_gen with dst as an extra
 *                 source, {dst, srcs..., dst}.  Checked like every row.
 *   gen_syndrome  pq_gen(disks, len, ptrs): the same md layout.
 *   xor_syndrome  ISA-L's read-modify-write primitive: for each data block z
 *                 of the window, ec_encode_data_update() with the 2 x k P/Q
 *                 matrix (row P all ones, row Q g^j), which does
 *                 P ^= D_z and Q ^= g^z D_z.  The expanded tables are made
 *                 once per shape (a driver would keep them per array), so
 *                 only the data passes are timed.
 *   recov_2data,  ISA-L's decode path, all of it per call, as raidx computes
 *   recov_datap   its coefficients per call: pick k surviving rows of the
 *                 (k + 2) x k encode matrix [I; 1...1; g^0...g^(k-1)], invert
 *                 them with gf_invert_matrix(), take the rows of the lost
 *                 blocks (a row of the inverse for lost data, the ones-row
 *                 times the inverse for lost P), ec_init_tables() and
 *                 ec_encode_data() the k survivors into the lost blocks.
 *                 A caller that caches decode tables per failure pattern
 *                 would skip the matrix work; at 4 KiB that work is a visible
 *                 part of the time, at 64 KiB and up it is not.
 *
 * ISA-L wants 32-byte aligned blocks (the bench aligns to 64) and, for
 * xor_gen and pq_gen, a length that is a multiple of 32; lengths are `int`.
 * Shapes it cannot take come back with a reason and the bench says so.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifdef RAIDX_HAVE_ISAL
#include <isa-l/erasure_code.h>
#include <isa-l/raid.h>
#if defined(__has_include)
#if __has_include(<isa-l.h>)
#include <isa-l.h> /* ISAL_*_VERSION */
#endif
#endif

struct bench_isal {
	struct bench_shape sh;
	int len;
	unsigned k;           /* data blocks (RAID-6 ops) */
	void **arr;           /* xor_acc: {dst, srcs..., dst} */
	unsigned char *enc;   /* (k + 2) x k encode matrix */
	unsigned char *sub;   /* k x k survivors' rows (destroyed by inversion) */
	unsigned char *inv;   /* k x k inverse */
	unsigned char *dec;   /* 2 x k decode rows */
	unsigned char *tbls;  /* 32 * k * 2 expanded tables */
	unsigned char **src;  /* k survivors */
};

int bench_isal_built(void)
{
	return 1;
}

const char *bench_isal_describe(void)
{
#ifdef ISAL_MAJOR_VERSION
#define STR_(x) #x
#define STR(x) STR_(x)
	return "ISA-L " STR(ISAL_MAJOR_VERSION) "." STR(ISAL_MINOR_VERSION) "." STR(
		ISAL_PATCH_VERSION);
#else
	return "ISA-L";
#endif
}

void bench_isal_free(struct bench_isal *st)
{
	if (!st)
		return;
	free(st->arr);
	free(st->enc);
	free(st->sub);
	free(st->inv);
	free(st->dec);
	free(st->tbls);
	free(st->src);
	free(st);
}

struct bench_isal *bench_isal_prepare(const struct bench_shape *sh,
				      size_t len, const char **why)
{
	struct bench_isal *st;

	*why = NULL;
	if (len > INT_MAX) {
		*why = "ISA-L lengths are int: block too long";
		return NULL;
	}
	if ((sh->op == BOP_XOR_GEN || sh->op == BOP_XOR_ACC ||
	     sh->op == BOP_GEN_SYNDROME) && len % 32) {
		*why = "ISA-L xor_gen/pq_gen need a length multiple of 32";
		return NULL;
	}
	if (sh->op == BOP_XOR_GEN && sh->disks < 2) {
		*why = "ISA-L xor_gen needs 2 or more sources";
		return NULL;
	}
	if (sh->op == BOP_GEN_SYNDROME && sh->disks < 4) {
		*why = "ISA-L pq_gen needs 2 or more data blocks";
		return NULL;
	}
	if (sh->op >= BOP_MEMREAD) {
		*why = "no ISA-L counterpart";
		return NULL;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		*why = "out of memory";
		return NULL;
	}
	st->sh = *sh;
	st->len = (int)len;

	if (sh->op == BOP_XOR_ACC) {
		st->arr = calloc(sh->disks + 2, sizeof(void *));
		if (!st->arr)
			goto oom;
	}
	if (sh->op >= BOP_XOR_SYNDROME) {
		unsigned k = sh->disks - 2;
		unsigned char g = 1;

		st->k = k;
		st->enc = calloc((size_t)(k + 2) * k, 1);
		st->sub = malloc((size_t)k * k);
		st->inv = malloc((size_t)k * k);
		st->dec = malloc((size_t)2 * k);
		st->tbls = malloc((size_t)32 * k * 2);
		st->src = calloc(k, sizeof(*st->src));
		if (!st->enc || !st->sub || !st->inv || !st->dec || !st->tbls ||
		    !st->src)
			goto oom;
		for (unsigned j = 0; j < k; j++) {
			st->enc[j * k + j] = 1;          /* identity: data rows */
			st->enc[k * k + j] = 1;          /* P */
			st->enc[(k + 1) * k + j] = g;    /* Q: g^j */
			g = gf_mul(g, 2);
		}
		if (sh->op == BOP_XOR_SYNDROME)
			ec_init_tables((int)k, 2, st->enc + (size_t)k * k, st->tbls);
	}
	return st;
oom:
	bench_isal_free(st);
	*why = "out of memory";
	return NULL;
}

/* Rebuild the encode-matrix rows lost[0] and lost[1] (data rows < k, or the
 * P row k) from the first k surviving rows. */
static int decode(struct bench_isal *st, void **ptrs, const unsigned lost[2])
{
	unsigned k = st->k, n = 0;
	unsigned char *out[2];

	for (unsigned row = 0; row < k + 2 && n < k; row++) {
		if (row == lost[0] || row == lost[1])
			continue;
		memcpy(st->sub + (size_t)n * k, st->enc + (size_t)row * k, k);
		st->src[n++] = ptrs[row]; /* row k is ptrs[disks-2] = P, k+1 Q */
	}
	if (gf_invert_matrix(st->sub, st->inv, (int)k))
		return -1;
	for (unsigned r = 0; r < 2; r++) {
		unsigned char *d = st->dec + (size_t)r * k;
		if (lost[r] < k) {
			memcpy(d, st->inv + (size_t)lost[r] * k, k);
		} else {
			/* P = sum of all data = (1 ... 1) x inverse x survivors */
			for (unsigned j = 0; j < k; j++) {
				unsigned char s = 0;
				for (unsigned t = 0; t < k; t++)
					s ^= st->inv[(size_t)t * k + j];
				d[j] = s;
			}
		}
		out[r] = ptrs[lost[r]];
	}
	ec_init_tables((int)k, 2, st->dec, st->tbls);
	ec_encode_data(st->len, (int)k, 2, st->tbls, st->src, out);
	return 0;
}

int bench_isal_call(struct bench_isal *st, void **ptrs)
{
	const struct bench_shape *sh = &st->sh;

	switch (sh->op) {
	case BOP_XOR_GEN:
		return xor_gen((int)sh->disks + 1, st->len, ptrs);
	case BOP_XOR_ACC:
		st->arr[0] = ptrs[sh->disks];
		memcpy(st->arr + 1, ptrs, sh->disks * sizeof(void *));
		st->arr[sh->disks + 1] = ptrs[sh->disks];
		return xor_gen((int)sh->disks + 2, st->len, st->arr);
	case BOP_GEN_SYNDROME:
		return pq_gen((int)sh->disks, st->len, ptrs);
	case BOP_XOR_SYNDROME: {
		unsigned char *pq[2] = { ptrs[sh->disks - 2], ptrs[sh->disks - 1] };
		for (unsigned z = sh->start; z <= sh->stop; z++)
			ec_encode_data_update(st->len, (int)st->k, 2, (int)z,
					      st->tbls, ptrs[z], pq);
		return 0;
	}
	case BOP_RECOV_2DATA: {
		unsigned lost[2] = { sh->start, sh->stop };
		return decode(st, ptrs, lost);
	}
	case BOP_RECOV_DATAP: {
		unsigned lost[2] = { sh->start, st->k };
		return decode(st, ptrs, lost);
	}
	default:
		return -1;
	}
}

#else /* !RAIDX_HAVE_ISAL */

int bench_isal_built(void)
{
	return 0;
}

const char *bench_isal_describe(void)
{
	return "not built (libisal-dev was not found when raidx was configured)";
}

struct bench_isal *bench_isal_prepare(const struct bench_shape *sh,
				      size_t len, const char **why)
{
	(void)sh;
	(void)len;
	*why = "raidx was built without ISA-L";
	return NULL;
}

int bench_isal_call(struct bench_isal *st, void **ptrs)
{
	(void)st;
	(void)ptrs;
	return -1;
}

void bench_isal_free(struct bench_isal *st)
{
	(void)st;
}

#endif
