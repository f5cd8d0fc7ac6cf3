/*
 * test_api - the public entry points as a user sees them.
 *
 *   - every bad-input case returns its documented error (-EINVAL, -EFAULT)
 *     and leaves every buffer untouched (all blocks compared before and
 *     after); also with len == 0 (the arguments are still checked);
 *   - len == 0 with good arguments returns 0 and writes nothing;
 *   - good arguments give the reference result (NULL data pointers outside
 *     an xor_syndrome window are accepted);
 *   - introspection: raidx_op_name/from_name, raidx_impl_count/name/
 *     supported/selected, raidx_impl_select (-EINVAL, -ENOENT, -ENOTSUP,
 *     NULL resets, each supported implementation selected then used through
 *     the public function), raidx_version(), raidx_cpu_feature_name(),
 *     raidx_cpu_features() and the RAIDX_DISABLE mask (run a second time by
 *     CTest with RAIDX_DISABLE=all).
 */
#include "test_impl.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define D 10        /* disks in the stripe used for bad inputs */
#define LEN 1000    /* its block length */
#define NB (D + 3)  /* blocks: stripe + xor dst + 2 spare */
#define CAP 16384   /* longest block public_results() may use */

static struct tstripe *S;
static uint8_t *snap;

static void snapshot(void)
{
	for (unsigned i = 0; i < NB; i++)
		memcpy(snap + (size_t)i * LEN, S->blk[i], LEN);
}

/* Every block as snapshot() left it, and no byte around them written. */
static void untouched(const char *call)
{
	for (unsigned i = 0; i < NB; i++) {
		char what[160];
		snprintf(what, sizeof what, "%s: block %u (must be untouched)", call, i);
		t_cmp(what, S->blk[i], snap + (size_t)i * LEN, LEN);
	}
	ts_check(S);
}

static unsigned ncases;

/* Call must return `want` and write nothing. */
#define BAD(want, call)                                                   \
	do {                                                              \
		t_ctx("bad input: %s", #call);                            \
		snapshot();                                               \
		t_expect_int(#call, (call), (want));                      \
		untouched(#call);                                         \
		ncases++;                                                 \
	} while (0)

static void **stripe_ptrs(void **p)
{
	for (unsigned i = 0; i < D; i++)
		p[i] = S->blk[i];
	return p;
}

static void test_bad_inputs(void)
{
	void *p[RAIDX_MAX_DISKS + 8];
	const void *srcs[RAIDX_MAX_SOURCES + 1];
	void *dst = S->blk[D];
	unsigned fail[3];
	const size_t lens[2] = { LEN, 0 };

	for (unsigned i = 0; i <= RAIDX_MAX_SOURCES; i++)
		srcs[i] = S->blk[i % D];
	ncases = 0;

	for (int li = 0; li < 2; li++) {
		size_t len = lens[li];
		for (int acc = 0; acc < 2; acc++) {
			int (*fn)(void *, const void *const *, unsigned, size_t) =
				acc ? raidx_xor_acc : raidx_xor_gen;
			BAD(-EFAULT, fn(NULL, srcs, 3, len));
			BAD(-EFAULT, fn(dst, NULL, 3, len));
			for (unsigned k = 0; k < 3; k++) {
				const void *save = srcs[k];
				srcs[k] = NULL;
				BAD(-EFAULT, fn(dst, srcs, 3, len));
				srcs[k] = save;
			}
			srcs[RAIDX_MAX_SOURCES - 1] = NULL;
			BAD(-EFAULT, fn(dst, srcs, RAIDX_MAX_SOURCES, len));
			srcs[RAIDX_MAX_SOURCES - 1] = S->blk[0];
			BAD(-EINVAL, fn(dst, srcs, 0, len));
			BAD(-EINVAL, fn(dst, srcs, RAIDX_MAX_SOURCES + 1, len));
			BAD(-EINVAL, fn(dst, srcs, UINT_MAX, len));
		}

		/* gen_syndrome */
		static const unsigned bad_disks[] = { 0, 1, 2, RAIDX_MAX_DISKS + 1,
						      1000, UINT_MAX };
		for (unsigned k = 0; k < sizeof(bad_disks) / sizeof(bad_disks[0]); k++) {
			unsigned bd = bad_disks[k];
			BAD(-EINVAL, raidx_gen_syndrome(bd, len, stripe_ptrs(p)));
			BAD(-EINVAL, raidx_xor_syndrome(bd, 0, 0, len, stripe_ptrs(p)));
			BAD(-EINVAL, raidx_recov_2data(bd, len, 0, 1, stripe_ptrs(p)));
			BAD(-EINVAL, raidx_recov_datap(bd, len, 0, stripe_ptrs(p)));
			fail[0] = 0;
			BAD(-EINVAL, raidx_recover(bd, len, 1, fail, stripe_ptrs(p)));
		}
		BAD(-EFAULT, raidx_gen_syndrome(D, len, NULL));
		for (unsigned i = 0; i < D; i++) {
			stripe_ptrs(p)[i] = NULL;
			BAD(-EFAULT, raidx_gen_syndrome(D, len, p));
		}

		/* xor_syndrome */
		BAD(-EINVAL, raidx_xor_syndrome(D, 3, 2, len, stripe_ptrs(p)));
		BAD(-EINVAL, raidx_xor_syndrome(D, 0, D - 2, len, stripe_ptrs(p)));
		BAD(-EINVAL, raidx_xor_syndrome(D, D - 2, D - 2, len, stripe_ptrs(p)));
		BAD(-EINVAL, raidx_xor_syndrome(D, 0, UINT_MAX, len, stripe_ptrs(p)));
		BAD(-EINVAL, raidx_xor_syndrome(3, 0, 1, len, stripe_ptrs(p)));
		BAD(-EFAULT, raidx_xor_syndrome(D, 0, 0, len, NULL));
		for (unsigned i = 2; i < D; i++) {
			if (i > 4 && i < D - 2)
				continue;
			/* window [2, 4]: data 2..4, P and Q in use */
			stripe_ptrs(p)[i] = NULL;
			BAD(-EFAULT, raidx_xor_syndrome(D, 2, 4, len, p));
		}

		/* recov_2data */
		BAD(-EINVAL, raidx_recov_2data(3, len, 0, 0, stripe_ptrs(p)));
		BAD(-EINVAL, raidx_recov_2data(D, len, 2, 2, stripe_ptrs(p)));
		BAD(-EINVAL, raidx_recov_2data(D, len, 0, D - 2, stripe_ptrs(p)));
		BAD(-EINVAL, raidx_recov_2data(D, len, D - 1, 0, stripe_ptrs(p)));
		BAD(-EINVAL, raidx_recov_2data(D, len, 1, UINT_MAX, stripe_ptrs(p)));
		BAD(-EFAULT, raidx_recov_2data(D, len, 0, 1, NULL));
		for (unsigned i = 0; i < D; i++) {
			stripe_ptrs(p)[i] = NULL;
			BAD(-EFAULT, raidx_recov_2data(D, len, 0, 1, p));
		}

		/* recov_datap */
		BAD(-EINVAL, raidx_recov_datap(D, len, D - 2, stripe_ptrs(p)));
		BAD(-EINVAL, raidx_recov_datap(D, len, D - 1, stripe_ptrs(p)));
		BAD(-EINVAL, raidx_recov_datap(D, len, UINT_MAX, stripe_ptrs(p)));
		BAD(-EFAULT, raidx_recov_datap(D, len, 0, NULL));
		for (unsigned i = 0; i < D; i++) {
			stripe_ptrs(p)[i] = NULL;
			BAD(-EFAULT, raidx_recov_datap(D, len, 0, p));
		}

		/* raidx_recover */
		fail[0] = 0, fail[1] = 1, fail[2] = 2;
		BAD(-EINVAL, raidx_recover(D, len, 3, fail, stripe_ptrs(p)));
		BAD(-EINVAL, raidx_recover(D, len, UINT_MAX, fail, stripe_ptrs(p)));
		BAD(-EFAULT, raidx_recover(D, len, 1, NULL, stripe_ptrs(p)));
		BAD(-EFAULT, raidx_recover(D, len, 2, NULL, stripe_ptrs(p)));
		BAD(-EFAULT, raidx_recover(D, len, 1, fail, NULL));
		fail[0] = D;
		BAD(-EINVAL, raidx_recover(D, len, 1, fail, stripe_ptrs(p)));
		fail[0] = 0, fail[1] = D;
		BAD(-EINVAL, raidx_recover(D, len, 2, fail, stripe_ptrs(p)));
		fail[0] = UINT_MAX, fail[1] = 0;
		BAD(-EINVAL, raidx_recover(D, len, 2, fail, stripe_ptrs(p)));
		fail[0] = 3, fail[1] = 3;
		BAD(-EINVAL, raidx_recover(D, len, 2, fail, stripe_ptrs(p)));
		fail[0] = D - 1, fail[1] = D - 1;
		BAD(-EINVAL, raidx_recover(D, len, 2, fail, stripe_ptrs(p)));
		fail[0] = 1, fail[1] = 4;
		for (unsigned i = 0; i < D; i++) {
			stripe_ptrs(p)[i] = NULL;
			BAD(-EFAULT, raidx_recover(D, len, 2, fail, p));
		}
	}
	t_log("bad inputs: %u cases (with len %d and 0) return their error and "
	      "write nothing", ncases, LEN);
}

/* len == 0 with good arguments: success, nothing written. */
static void test_len0(void)
{
	void *p[RAIDX_MAX_DISKS];
	const void *srcs[3] = { S->blk[0], S->blk[1], S->blk[2] };
	unsigned fail[2] = { 1, 4 };
	unsigned n0 = ncases;

	BAD(0, raidx_xor_gen(S->blk[D], srcs, 3, 0));
	BAD(0, raidx_xor_acc(S->blk[D], srcs, 3, 0));
	BAD(0, raidx_gen_syndrome(D, 0, stripe_ptrs(p)));
	BAD(0, raidx_xor_syndrome(D, 1, 3, 0, stripe_ptrs(p)));
	BAD(0, raidx_recov_2data(D, 0, 4, 1, stripe_ptrs(p)));
	BAD(0, raidx_recov_datap(D, 0, 2, stripe_ptrs(p)));
	BAD(0, raidx_recover(D, 0, 2, fail, stripe_ptrs(p)));
	BAD(0, raidx_recover(D, 0, 0, NULL, stripe_ptrs(p)));
	BAD(0, raidx_recover(D, LEN, 0, NULL, stripe_ptrs(p)));
	t_log("len 0 (and no failure): %u calls return 0 and write nothing",
	      ncases - n0);
}

/*
 * The public functions give the reference result: each call is checked
 * against raidx__ref_* on copies.  Used with the library's choice and with
 * every supported implementation selected.
 */
static void public_results(const char *label, size_t len)
{
	void *p[D], *e[D];
	uint8_t *ex = t_malloc((size_t)D * len);
	const void *srcs[5];

	if (len > CAP)
		len = CAP;
	t_ctx("public results (%s) len=%zu", label, len);
	ts_place(S, len, PL_MIX, rng_below(&t_rng, 64));
	for (unsigned i = 0; i < NB; i++)
		ts_fill(S, i, &t_rng);
	stripe_ptrs(p);
	for (unsigned i = 0; i < D; i++) {
		e[i] = ex + (size_t)i * len;
		memcpy(e[i], p[i], len);
	}

	/* xor_gen / xor_acc into block D */
	for (unsigned i = 0; i < 5; i++)
		srcs[i] = S->blk[i];
	uint8_t *x = t_dup(S->blk[D], len);
	raidx__ref_xor_acc(x, srcs, 5, len);
	t_expect_int("raidx_xor_acc", raidx_xor_acc(S->blk[D], srcs, 5, len), 0);
	t_cmp("raidx_xor_acc dst", S->blk[D], x, len);
	raidx__ref_xor_gen(x, srcs, 5, len);
	t_expect_int("raidx_xor_gen", raidx_xor_gen(S->blk[D], srcs, 5, len), 0);
	t_cmp("raidx_xor_gen dst", S->blk[D], x, len);
	free(x);

	/* gen_syndrome */
	raidx__ref_gen_syndrome(D, len, e);
	t_expect_int("raidx_gen_syndrome", raidx_gen_syndrome(D, len, p), 0);
	t_cmp("raidx_gen_syndrome P", p[D - 2], e[D - 2], len);
	t_cmp("raidx_gen_syndrome Q", p[D - 1], e[D - 1], len);

	/* xor_syndrome, NULL pointers outside the window */
	p[0] = p[1] = p[6] = p[7] = NULL;
	e[0] = e[1] = e[6] = e[7] = NULL;
	raidx__ref_xor_syndrome(D, 2, 5, len, e);
	t_expect_int("raidx_xor_syndrome", raidx_xor_syndrome(D, 2, 5, len, p), 0);
	t_cmp("raidx_xor_syndrome P", p[D - 2], e[D - 2], len);
	t_cmp("raidx_xor_syndrome Q", p[D - 1], e[D - 1], len);

	/* recov_2data / recov_datap on a consistent stripe */
	stripe_ptrs(p);
	raidx_gen_syndrome(D, len, p);
	uint8_t *o = t_malloc((size_t)D * len);
	for (unsigned i = 0; i < D; i++)
		memcpy(o + (size_t)i * len, p[i], len);
	memset(p[6], 0x5a, len);
	memset(p[2], 0xa5, len);
	t_expect_int("raidx_recov_2data", raidx_recov_2data(D, len, 6, 2, p), 0);
	t_cmp("raidx_recov_2data data 2", p[2], o + 2 * len, len);
	t_cmp("raidx_recov_2data data 6", p[6], o + 6 * len, len);
	memset(p[5], 0x5a, len);
	memset(p[D - 2], 0xa5, len);
	t_expect_int("raidx_recov_datap", raidx_recov_datap(D, len, 5, p), 0);
	t_cmp("raidx_recov_datap data 5", p[5], o + 5 * len, len);
	t_cmp("raidx_recov_datap P", p[D - 2], o + (size_t)(D - 2) * len, len);
	ts_check(S);
	free(o);
	free(ex);
}

static void test_introspection(void)
{
	static const char *const names[RAIDX_OP_COUNT] = {
		"xor_gen", "xor_acc", "gen_syndrome", "xor_syndrome", "recov_2data",
		"recov_datap",
	};
	const char *dis = getenv("RAIDX_DISABLE");
	int all_disabled = dis && !strcmp(dis, "all");
	const char *how = getenv("RAIDX_SELECT");
	int static_sel = how && !strcmp(how, "static");
	unsigned nimpl = 0, nsel = 0, nunsup = 0;

	t_ctx("introspection");
	t_expect_int("raidx_init", raidx_init(), 0);
	t_expect_int("raidx_init again", raidx_init(), 0);
	if (strcmp(raidx_version(), RAIDX_VERSION_STRING))
		t_fail("raidx_version() = \"%s\", header says \"%s\"", raidx_version(),
		       RAIDX_VERSION_STRING);
	t_expect_int("raidx_version_number", (long)raidx_version_number(),
		     RAIDX_VERSION_NUMBER);

	for (int op = 0; op < RAIDX_OP_COUNT; op++) {
		const char *n = raidx_op_name((enum raidx_op)op);
		if (!n || strcmp(n, names[op]))
			t_fail("raidx_op_name(%d) = %s, expected %s", op, n ? n : "NULL",
			       names[op]);
		t_expect_int("raidx_op_from_name", raidx_op_from_name(names[op]), op);
	}
	if (raidx_op_name(RAIDX_OP_COUNT) || raidx_op_name((enum raidx_op)-1))
		t_fail("raidx_op_name of an unknown op is not NULL");
	t_expect_int("raidx_op_from_name(\"nope\")", raidx_op_from_name("nope"), -EINVAL);
	t_expect_int("raidx_op_from_name(\"\")", raidx_op_from_name(""), -EINVAL);
	t_expect_int("raidx_op_from_name(NULL)", raidx_op_from_name(NULL), -EINVAL);
	t_expect_int("raidx_op_from_name(\"XOR_GEN\")", raidx_op_from_name("XOR_GEN"), -EINVAL);
	t_expect_int("raidx_impl_count(bad op)", raidx_impl_count(RAIDX_OP_COUNT), 0);
	if (raidx_impl_name(RAIDX_OP_COUNT, 0))
		t_fail("raidx_impl_name(bad op, 0) is not NULL");
	t_expect_int("raidx_impl_supported(bad op, 0)",
		     raidx_impl_supported(RAIDX_OP_COUNT, 0), -EINVAL);
	if (raidx_impl_selected(RAIDX_OP_COUNT))
		t_fail("raidx_impl_selected(bad op) is not NULL");
	t_expect_int("raidx_impl_select(bad op)",
		     raidx_impl_select(RAIDX_OP_COUNT, "ref"), -EINVAL);

	/* Feature names and the detected mask. */
	static const struct { uint32_t bit; const char *name; } feats[] = {
		{ RAIDX_CPU_SSE2, "sse2" },         { RAIDX_CPU_SSSE3, "ssse3" },
		{ RAIDX_CPU_AVX, "avx" },           { RAIDX_CPU_AVX2, "avx2" },
		{ RAIDX_CPU_AVX512F, "avx512f" },   { RAIDX_CPU_AVX512BW, "avx512bw" },
		{ RAIDX_CPU_AVX512VL, "avx512vl" }, { RAIDX_CPU_AVX512DQ, "avx512dq" },
		{ RAIDX_CPU_AVX512VBMI, "avx512vbmi" }, { RAIDX_CPU_GFNI, "gfni" },
		{ RAIDX_CPU_NEON, "neon" },         { RAIDX_CPU_SHA3, "sha3" },
	};
	uint32_t known = 0;
	for (unsigned i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		const char *n = raidx_cpu_feature_name(feats[i].bit);
		if (!n || strcmp(n, feats[i].name))
			t_fail("raidx_cpu_feature_name(0x%x) = %s, expected %s",
			       feats[i].bit, n ? n : "NULL", feats[i].name);
		known |= feats[i].bit;
	}
	if (raidx_cpu_feature_name(0) || raidx_cpu_feature_name(1u << 30) ||
	    raidx_cpu_feature_name(RAIDX_CPU_SSE2 | RAIDX_CPU_AVX2))
		t_fail("raidx_cpu_feature_name of 0, an unknown bit or two bits is "
		       "not NULL");
	uint32_t f = raidx_cpu_features();
	if (f & ~known)
		t_fail("raidx_cpu_features() = 0x%x has unnamed bits", f);
	if (f & ~raidx__cpu_detect())
		t_fail("raidx_cpu_features() = 0x%x is not a subset of the detected "
		       "0x%x", f, raidx__cpu_detect());
	if (all_disabled && f)
		t_fail("RAIDX_DISABLE=all but raidx_cpu_features() = 0x%x", f);
	t_log("cpu features: detected [%s], in use [%s]%s%s",
	      t_feature_names(raidx__cpu_detect()), t_feature_names(f),
	      all_disabled ? " (RAIDX_DISABLE=all)" : "",
	      static_sel ? " (RAIDX_SELECT=static)" : "");

	for (int op = 0; op < RAIDX_OP_COUNT; op++) {
		const struct raidx__impl *const *list;
		unsigned n = raidx__impl_list((enum raidx_op)op, &list);
		const char *opn = names[op];
		const struct raidx__impl *best = NULL, *non_ref = NULL;
		int have_ref = 0;

		t_ctx("introspection op=%s", opn);
		t_expect_int("raidx_impl_count", raidx_impl_count((enum raidx_op)op), n);
		if (raidx_impl_name((enum raidx_op)op, n))
			t_fail("raidx_impl_name(%s, count) is not NULL", opn);
		t_expect_int("raidx_impl_supported(op, count)",
			     raidx_impl_supported((enum raidx_op)op, n), -EINVAL);
		for (unsigned i = 0; i < n; i++) {
			const char *nm = raidx_impl_name((enum raidx_op)op, i);
			int sup = raidx_impl_supported((enum raidx_op)op, i);
			if (!nm || strcmp(nm, list[i]->name))
				t_fail("raidx_impl_name(%s, %u) = %s, registry says %s",
				       opn, i, nm ? nm : "NULL", list[i]->name);
			for (unsigned j = 0; j < i; j++)
				if (!strcmp(list[j]->name, list[i]->name))
					t_fail("%s: two implementations named %s", opn,
					       list[i]->name);
			if (list[i]->op != op)
				t_fail("%s: %s registered with op %u", opn, list[i]->name,
				       list[i]->op);
			if (!list[i]->granule || (list[i]->granule & (list[i]->granule - 1)))
				t_fail("%s: %s has granule %u, not a power of two", opn,
				       list[i]->name, list[i]->granule);
			if (sup != raidx__impl_runnable(list[i]) ||
			    sup != !(list[i]->features & ~f))
				t_fail("raidx_impl_supported(%s, %s) = %d, features need "
				       "[%s], have [%s]", opn, nm, sup,
				       t_feature_names(list[i]->features), t_feature_names(f));
			if (all_disabled && list[i]->features && sup)
				t_fail("RAIDX_DISABLE=all but %s/%s (needs %s) is supported",
				       opn, list[i]->name, t_feature_names(list[i]->features));
			have_ref |= !strcmp(list[i]->name, "ref");
			if (raidx__impl_selectable(list[i]) && !(list[i]->flags & RAIDX__F_NT)) {
				if (!best || list[i]->priority > best->priority)
					best = list[i];
				if (strcmp(list[i]->name, "ref"))
					non_ref = list[i];
			}
			nimpl++;
		}
		if (!have_ref)
			t_fail("%s: no \"ref\" implementation", opn);

		/*
		 * The library's own choice.  With RAIDX_SELECT=static it is the
		 * highest-priority runnable kernel without non-temporal stores;
		 * otherwise a calibration picks among those, and "ref" (the
		 * oracle) is never picked while another one can run.
		 */
		const char *sel = raidx_impl_selected((enum raidx_op)op);
		const struct raidx__impl *si = sel ? raidx__impl_find((enum raidx_op)op, sel) : NULL;
		if (!si) {
			t_fail("raidx_impl_selected(%s) = %s, not a registered name", opn,
			       sel ? sel : "NULL");
			continue;
		}
		if (!raidx__impl_runnable(si) || (si->flags & RAIDX__F_NT))
			t_fail("raidx_impl_selected(%s) = %s, which is not runnable or "
			       "uses non-temporal stores (not for in-cache calls)", opn, sel);
		if (static_sel && si != best)
			t_fail("RAIDX_SELECT=static but raidx_impl_selected(%s) = %s, "
			       "not the highest priority runnable %s", opn, sel,
			       best ? best->name : "?");
		if (!strcmp(sel, "ref") && non_ref)
			t_fail("raidx_impl_selected(%s) = ref although %s can run", opn,
			       non_ref->name);
		t_log("%s: %u implementations, selected %s", opn, n, sel ? sel : "NULL");

		t_expect_int("raidx_impl_select(unknown)",
			     raidx_impl_select((enum raidx_op)op, "no-such-impl"), -ENOENT);
		t_expect_int("raidx_impl_select(\"\")",
			     raidx_impl_select((enum raidx_op)op, ""), -ENOENT);
		const char *cur = sel; /* what the last successful select chose */
		for (unsigned i = 0; i < n; i++) {
			int sup = raidx__impl_runnable(list[i]);
			int r = raidx_impl_select((enum raidx_op)op, list[i]->name);
			if (!sup) {
				t_expect_int("raidx_impl_select(unsupported)", r, -ENOTSUP);
				const char *now = raidx_impl_selected((enum raidx_op)op);
				if (!now || strcmp(now, cur))
					t_fail("refused raidx_impl_select(%s, %s) changed the "
					       "selection from %s to %s", opn, list[i]->name,
					       cur, now ? now : "NULL");
				nunsup++;
				continue;
			}
			t_expect_int("raidx_impl_select(supported)", r, 0);
			const char *now = raidx_impl_selected((enum raidx_op)op);
			if (!now || strcmp(now, list[i]->name))
				t_fail("after raidx_impl_select(%s, %s), selected is %s", opn,
				       list[i]->name, now ? now : "NULL");
			cur = list[i]->name;
			char label[96];
			snprintf(label, sizeof label, "%s=%s selected", opn, list[i]->name);
			public_results(label, 3 * list[i]->granule + 61);
			public_results(label, 777);
			nsel++;
		}
		t_expect_int("raidx_impl_select(NULL)",
			     raidx_impl_select((enum raidx_op)op, NULL), 0);
		const char *back = raidx_impl_selected((enum raidx_op)op);
		if (!back || strcmp(back, sel))
			t_fail("raidx_impl_select(%s, NULL) went back to %s, not %s", opn,
			       back ? back : "NULL", sel);
	}
	t_log("introspection: %u implementations listed, %u selected and used "
	      "through the public functions, %u refused with -ENOTSUP", nimpl, nsel,
	      nunsup);
}

int main(int argc, char **argv)
{
	t_init(argc, argv, "test_api");
	S = ts_new(NB, CAP);
	snap = t_malloc((size_t)NB * LEN);
	ts_place(S, LEN, PL_END, 0);
	for (unsigned i = 0; i < NB; i++)
		ts_fill(S, i, &t_rng);

	test_bad_inputs();
	test_len0();
	test_introspection();
	public_results("library's choice", 4096);
	public_results("library's choice", 1);
	t_log("public results with the library's choice: ok");
	ts_free(S);
	free(snap);
	return t_done();
}
