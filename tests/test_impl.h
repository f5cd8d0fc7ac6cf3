/*
 * test_impl.h - helpers for the tests that drive every registered kernel
 * directly (they link raidx_internal).
 */
#ifndef RAIDX_TEST_IMPL_H
#define RAIDX_TEST_IMPL_H

#include "raidx_impl.h"
#include "test_util.h"

#define T_MAX_IMPLS 64

/* The implementations of one op that this CPU can run. */
struct tlist {
	enum raidx_op op;
	unsigned n;
	const struct raidx__impl *v[T_MAX_IMPLS];
	unsigned maxgran;   /* largest granule among them */
	char names[1024];   /* "ref int64x1 ..." for the coverage lines */
};

/* Fill `l` with every runnable implementation of `op` (raidx__impl_list
 * order) and print the ones skipped because this CPU cannot run them. */
void t_impls(enum raidx_op op, struct tlist *l);

/* A short length for exhaustive shape loops: one to three times
 * max(64, the largest granule), plus a tail that is usually nonzero, so
 * that every kernel runs both its bulk and the reference tail. */
size_t t_shape_len(const struct tlist *l, struct rng *r);
/* The same for a given largest granule. */
size_t t_shape_len_g(unsigned maxgran, struct rng *r);

/* The length list for the length sweeps: every length 0..300 (0..96 and a
 * sample when quick), t_granule_lens[] and, for each granule g of the
 * listed implementations, g*k-1, g*k, g*k+1 for k = 1..3.  Returns the
 * count; *out is malloc'ed. */
unsigned t_sweep_lens(const struct tlist *const *lists, unsigned nlists,
		      size_t **out);

/* Feature names of a RAIDX_CPU_* mask ("avx2,gfni"). */
const char *t_feature_names(uint32_t mask);

#endif
