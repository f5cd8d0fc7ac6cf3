/*
 * dispatch.c - the registry of implementations, the choice per operation,
 * argument checks and the public entry points.
 *
 * Each implementation file exports one table of struct raidx__impl (see
 * raidx_impl.h); impl_tables.h, written by CMake, lists the tables of the
 * files compiled for this target.  At the first call (or raidx_init()) the
 * tables are sorted into one list per operation (pthread_once); select.c then
 * makes each operation's own choice.  Each public call asks select.c for the
 * implementation for its operation and size: one acquire load.
 */
#include <errno.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>

#include "raidx_impl.h"
#include "impl_tables.h" /* RAIDX_IMPL_TABLES(X): X(ref) X(portable) ... */

#define X(isa) RX_HIDDEN extern RAIDX__IMPL_TABLE(isa);
RAIDX_IMPL_TABLES(X)
#undef X

static const struct raidx__impl *const all_tables[] = {
#define X(isa) raidx__impls_##isa,
	RAIDX_IMPL_TABLES(X)
#undef X
};

#define MAX_IMPLS 64

static const struct raidx__impl *impls[RAIDX_OP_COUNT][MAX_IMPLS];
static unsigned nimpls[RAIDX_OP_COUNT];
static uint32_t cpu_features;
static pthread_once_t registry_once = PTHREAD_ONCE_INIT;

static const char *const op_names[RAIDX_OP_COUNT] = {
	"xor_gen", "xor_acc", "gen_syndrome", "xor_syndrome", "recov_2data",
	"recov_datap",
};

/* ---- CPU features and RAIDX_DISABLE ---------------------------------- */

/* Quirks are bits 24 and up (raidx.h): properties of the CPU model, which
 * disabling an instruction set does not take away. */
#define QUIRKS (~0u << 24)
#define AVX512_ALL (RAIDX_CPU_AVX512F | RAIDX_CPU_AVX512BW | RAIDX_CPU_AVX512VL | \
		    RAIDX_CPU_AVX512DQ | RAIDX_CPU_AVX512VBMI)

static const struct {
	const char *name;
	uint32_t bit;
	uint32_t implies; /* disabling this feature disables these too */
} features[] = {
	{ "sse2", RAIDX_CPU_SSE2, ~(RAIDX_CPU_NEON | RAIDX_CPU_SHA3 | QUIRKS) },
	{ "ssse3", RAIDX_CPU_SSSE3, ~(RAIDX_CPU_SSE2 | RAIDX_CPU_NEON | RAIDX_CPU_SHA3 | QUIRKS) },
	{ "avx", RAIDX_CPU_AVX, RAIDX_CPU_AVX2 | AVX512_ALL },
	/* the AVX-512 kernels are compiled with AVX2 implied (-mavx512f) */
	{ "avx2", RAIDX_CPU_AVX2, AVX512_ALL },
	{ "avx512f", RAIDX_CPU_AVX512F, AVX512_ALL & ~RAIDX_CPU_AVX512F },
	{ "avx512bw", RAIDX_CPU_AVX512BW, 0 },
	{ "avx512vl", RAIDX_CPU_AVX512VL, 0 },
	{ "avx512dq", RAIDX_CPU_AVX512DQ, 0 },
	{ "avx512vbmi", RAIDX_CPU_AVX512VBMI, 0 },
	{ "gfni", RAIDX_CPU_GFNI, 0 },
	{ "neon", RAIDX_CPU_NEON, RAIDX_CPU_SHA3 },
	{ "sha3", RAIDX_CPU_SHA3, 0 },
	{ "zmm_downclock", RAIDX_CPU_ZMM_DOWNCLOCK, 0 },
};

const char *raidx_cpu_feature_name(uint32_t bit)
{
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		if (features[i].bit == bit)
			return features[i].name;
	return NULL;
}

/*
 * RAIDX_DISABLE=name,name,...  masks detected features so that every code
 * path can be exercised on one machine.  "avx512" stands for every AVX-512
 * subset, "all" for everything (portable code only).  Disabling a feature
 * also disables the ones that need it (no AVX2 without AVX, ...).  Without
 * with_implied, the named features alone (RAIDX_EMULATE).
 */
static uint32_t feature_mask(const char *var, int with_implied)
{
	const char *s = getenv(var);
	uint32_t mask = 0;

	if (s)
		s += strspn(s, ", ");
	while (s && *s) {
		size_t n = strcspn(s, ", ");
		int known = 0;
		if (n == 3 && !strncmp(s, "all", 3))
			mask = ~0u, known = 1;
		else if (n == 6 && !strncmp(s, "avx512", 6))
			mask |= AVX512_ALL, known = 1;
		for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
			if (strlen(features[i].name) == n &&
			    !strncmp(s, features[i].name, n)) {
				mask |= features[i].bit | (with_implied ? features[i].implies : 0);
				known = 1;
			}
		/* a misspelt name would otherwise leave the feature on with
		 * no sign of it */
		if (!known)
			fprintf(stderr, "raidx: %s: unknown feature \"%.*s\"; ignored\n",
				var, (int)n, s);
		s += n;
		s += strspn(s, ", ");
	}
	return mask;
}

/* ---- registry -------------------------------------------------------- */

static int runnable(const struct raidx__impl *impl)
{
	return (impl->features & ~cpu_features) == 0;
}

/* RAIDX_EMULATE=name,...: features the SIMDe-emulated kernels may stand in
 * for (test builds only; see RAIDX__F_EMULATED). */
static uint32_t emulated_features;

/* Builds the per-op lists and reads the CPU features; never calibrates, so
 * listing implementations (tests, bench, `raidx info`) stays cheap. */
static void registry_once_fn(void)
{
	uint32_t disabled = feature_mask("RAIDX_DISABLE", 1);

	/* RAIDX_DISABLE wins over RAIDX_EMULATE: disabling what is emulated
	 * (a feature, or the zmm_downclock quirk) takes it away again. */
	emulated_features = feature_mask("RAIDX_EMULATE", 0) & ~disabled;
	/* An emulated feature stands in for the real one: on a CPU that has
	 * it, the real kernels that need it step aside, so that the tests
	 * exercise the emulated kernels through the dispatcher there too. */
	cpu_features = raidx__cpu_detect() & ~disabled & ~emulated_features;

	for (size_t t = 0; t < sizeof(all_tables) / sizeof(all_tables[0]); t++) {
		for (const struct raidx__impl *i = all_tables[t]; i->name; i++) {
			if (i->op < RAIDX_OP_COUNT && nimpls[i->op] < MAX_IMPLS)
				impls[i->op][nimpls[i->op]++] = i;
		}
	}
}

static void ensure_init(void)
{
	pthread_once(&registry_once, registry_once_fn);
}

uint32_t raidx_cpu_features(void)
{
	ensure_init();
	return cpu_features;
}

unsigned raidx__impl_list(enum raidx_op op,
			  const struct raidx__impl *const **list)
{
	ensure_init();
	if ((unsigned)op >= RAIDX_OP_COUNT) {
		*list = NULL;
		return 0;
	}
	*list = impls[op];
	return nimpls[op];
}

const struct raidx__impl *raidx__impl_find(enum raidx_op op, const char *name)
{
	ensure_init();
	if ((unsigned)op >= RAIDX_OP_COUNT || !name)
		return NULL;
	for (unsigned i = 0; i < nimpls[op]; i++)
		if (!strcmp(impls[op][i]->name, name))
			return impls[op][i];
	return NULL;
}

int raidx__impl_runnable(const struct raidx__impl *impl)
{
	ensure_init();
	return runnable(impl);
}

/* 512-bit kernels on a zmm_downclock CPU.  RAIDX_EMULATE may name the
 * quirk too, so that the tests can play such a CPU with the emulated
 * 512-bit kernels. */
static int quirk_out(const struct raidx__impl *impl)
{
	return (impl->flags & RAIDX__F_ZMM) &&
	       ((cpu_features | emulated_features) & RAIDX_CPU_ZMM_DOWNCLOCK);
}

int raidx__impl_left_out(const struct raidx__impl *impl)
{
	ensure_init();
	return runnable(impl) && quirk_out(impl);
}

int raidx__impl_selectable(const struct raidx__impl *impl)
{
	ensure_init();
	if (quirk_out(impl))
		return 0;
	if (!(impl->flags & RAIDX__F_EMULATED))
		return runnable(impl);
	/* An emulated kernel stands in for a real one only when it needs an
	 * emulated feature and the CPU (or the emulation) has all the rest. */
	return runnable(impl) && (impl->emu_features & emulated_features) &&
	       !(impl->emu_features & ~(cpu_features | emulated_features));
}

const char *raidx_op_name(enum raidx_op op)
{
	return (unsigned)op < RAIDX_OP_COUNT ? op_names[op] : NULL;
}

int raidx_op_from_name(const char *name)
{
	for (int op = 0; name && op < RAIDX_OP_COUNT; op++)
		if (!strcmp(op_names[op], name))
			return op;
	return -EINVAL;
}

unsigned raidx_impl_count(enum raidx_op op)
{
	const struct raidx__impl *const *list;
	return raidx__impl_list(op, &list);
}

const char *raidx_impl_name(enum raidx_op op, unsigned index)
{
	const struct raidx__impl *const *list;
	unsigned n = raidx__impl_list(op, &list);
	return index < n ? list[index]->name : NULL;
}

int raidx_impl_supported(enum raidx_op op, unsigned index)
{
	const struct raidx__impl *const *list;
	unsigned n = raidx__impl_list(op, &list);
	return index < n ? runnable(list[index]) : -EINVAL;
}

const char *raidx_version(void)
{
	return RAIDX_VERSION_STRING;
}

unsigned raidx_version_number(void)
{
	return RAIDX_VERSION_NUMBER;
}

/* ---- running one implementation: kernel bulk, reference tail --------- */

static size_t bulk_of(const struct raidx__impl *impl, size_t len)
{
	return len & ~(size_t)(impl->granule - 1);
}

/* Pointer array advanced by `off` bytes, for the tail. */
static void offset_ptrs(void **out, void *const *in, unsigned n, size_t off)
{
	for (unsigned i = 0; i < n; i++)
		out[i] = in[i] ? (uint8_t *)in[i] + off : NULL;
}

void raidx__run_xor(const struct raidx__impl *impl, void *dst,
		    const void *const *srcs, unsigned nsrc, size_t len)
{
	size_t bulk = bulk_of(impl, len);

	if (bulk)
		impl->fn.xor_gen(dst, srcs, nsrc, bulk);
	if (len > bulk) {
		const void *t[RAIDX_MAX_SOURCES];
		for (unsigned i = 0; i < nsrc; i++)
			t[i] = (const uint8_t *)srcs[i] + bulk;
		if (impl->op == RAIDX_OP_XOR_ACC)
			raidx__ref_xor_acc((uint8_t *)dst + bulk, t, nsrc, len - bulk);
		else
			raidx__ref_xor_gen((uint8_t *)dst + bulk, t, nsrc, len - bulk);
	}
}

void raidx__run_gen_syndrome(const struct raidx__impl *impl, unsigned disks,
			     size_t len, void **ptrs)
{
	size_t bulk = bulk_of(impl, len);

	if (bulk)
		impl->fn.gen(disks, bulk, ptrs);
	if (len > bulk) {
		void *t[RAIDX_MAX_DISKS];
		offset_ptrs(t, ptrs, disks, bulk);
		raidx__ref_gen_syndrome(disks, len - bulk, t);
	}
}

void raidx__run_xor_syndrome(const struct raidx__impl *impl, unsigned disks,
			     unsigned start, unsigned stop, size_t len,
			     void **ptrs)
{
	size_t bulk = bulk_of(impl, len);

	if (bulk)
		impl->fn.xsyn(disks, start, stop, bulk, ptrs);
	if (len > bulk) {
		void *t[RAIDX_MAX_DISKS];
		offset_ptrs(t, ptrs, disks, bulk);
		raidx__ref_xor_syndrome(disks, start, stop, len - bulk, t);
	}
}

void raidx__run_recov_2data(const struct raidx__impl *impl, unsigned disks,
			    size_t len, unsigned faila, unsigned failb,
			    void **ptrs)
{
	size_t bulk = bulk_of(impl, len);

	if (faila > failb) {
		unsigned t = faila;
		faila = failb;
		failb = t;
	}
	if (bulk)
		impl->fn.r2(disks, bulk, faila, failb, ptrs);
	if (len > bulk) {
		void *t[RAIDX_MAX_DISKS];
		offset_ptrs(t, ptrs, disks, bulk);
		raidx__ref_recov_2data(disks, len - bulk, faila, failb, t);
	}
}

void raidx__run_recov_datap(const struct raidx__impl *impl, unsigned disks,
			    size_t len, unsigned faila, void **ptrs)
{
	size_t bulk = bulk_of(impl, len);

	if (bulk)
		impl->fn.rdp(disks, bulk, faila, ptrs);
	if (len > bulk) {
		void *t[RAIDX_MAX_DISKS];
		offset_ptrs(t, ptrs, disks, bulk);
		raidx__ref_recov_datap(disks, len - bulk, faila, t);
	}
}

/* ---- argument checks and public entry points ------------------------- */

static int check_xor(const void *dst, const void *const *srcs, unsigned nsrc)
{
	if (nsrc < 1 || nsrc > RAIDX_MAX_SOURCES)
		return -EINVAL;
	if (!dst || !srcs)
		return -EFAULT;
	for (unsigned i = 0; i < nsrc; i++)
		if (!srcs[i])
			return -EFAULT;
	return 0;
}

/* ptrs[lo..hi], P and Q must be present. */
static int check_stripe(unsigned disks, void *const *ptrs, unsigned lo,
			unsigned hi)
{
	if (!ptrs)
		return -EFAULT;
	for (unsigned i = lo; i <= hi; i++)
		if (!ptrs[i])
			return -EFAULT;
	if (!ptrs[disks - 2] || !ptrs[disks - 1])
		return -EFAULT;
	return 0;
}

static int disks_ok(unsigned disks)
{
	return disks >= 3 && disks <= RAIDX_MAX_DISKS;
}

/* The kernel for a public call: the size class's pick, or beyond
 * raidx__race_limit() the one the race gives (race.c), timed by race_out. */
static inline const struct raidx__impl *race_in(struct raidx__race_ticket *tk,
						enum raidx_op op, unsigned n,
						unsigned a, unsigned b, size_t len)
{
	const struct raidx__impl *impl = raidx__impl_for(op, n, a, b, len);

	tk->slot = NULL;
	if (RX_LIKELY(raidx__call_bytes(op, n, a, b, len) <= raidx__race_limit(op)))
		return impl;
	return raidx__race_begin(tk, op, impl, raidx__race_key(op, n, a, b, len));
}

static inline void race_out(const struct raidx__race_ticket *tk)
{
	if (RX_UNLIKELY(tk->slot != NULL))
		raidx__race_end(tk);
}

/*
 * The public calls.  The common call (in the cache, not raced, a length
 * the kernel takes whole) runs its kernel straight from here: the size
 * class's pick inline (raidx__impl_choose), one test for the race and the
 * kernel's granule, one indirect call.  The rest (the race's ticket and
 * timing, the reference tail) is out of line, in the *_slow functions.
 * With the ticket and raidx__run_* on every call's path, and the pick a
 * call into select.c, a public call took 2.8-4.7 ns more than its kernel
 * called directly at 4 KiB (two runs with other work on the machine).
 * Turin-like Zen 5, 2026-12-07, a throwaway loop of
 * public calls in the L1 (best of 300 x 2000 calls per shape), a build
 * of f803212 and one of this code alternated ten times, medians of the
 * pairs: 64-byte calls 0.73x (xor_gen of 2 sources, 7.84 -> 5.69 ns) and
 * 0.82x (gen_syndrome 4+2); 4 KiB calls, md's size, 0.96-0.99x on nine
 * shapes of every op (1-2.5 ns less a call).  In raidx bench, whose
 * kernel rows time raidx__run_* (`raidx bench --op gen_syndrome,xor_gen,
 * xor_syndrome --disks 6,10,18 --len 4k --impl gfni_avx512x4,avx512,raidx`,
 * three alternations of the two builds, 24 cells each): the public call
 * over its kernel's row, median 0.924 (0.857-1.080, 50 of 72 below 0.95)
 * before, 0.979 (0.944-1.050, one below 0.95) now; a one-disk update of
 * 8+2 ([7,7]), md's most common partial write, 0.87-0.94 before, 1.00-1.05
 * now.
 */
#if defined(__GNUC__) || defined(__clang__)
#define COLD __attribute__((noinline, cold))
#else
#define COLD
#endif

/* The kernel a call can run directly, or NULL (see above). */
static inline const struct raidx__impl *direct(enum raidx_op op, unsigned n, unsigned a,
					       unsigned b, size_t len)
{
	const struct raidx__impl *impl = raidx__impl_for(op, n, a, b, len);
	size_t bytes = raidx__call_bytes(op, n, a, b, len);

	if (RX_LIKELY(bytes <= raidx__race_limit(op) && !(len & (impl->granule - 1u))))
		return impl;
	return NULL;
}

COLD static void xor_slow(enum raidx_op op, void *dst, const void *const *srcs,
			  unsigned nsrc, size_t len)
{
	struct raidx__race_ticket tk;
	raidx__run_xor(race_in(&tk, op, nsrc, 0, 0, len), dst, srcs, nsrc, len);
	race_out(&tk);
}

static inline int xor_call(enum raidx_op op, void *dst, const void *const *srcs,
			   unsigned nsrc, size_t len)
{
	int r = check_xor(dst, srcs, nsrc);
	if (r || !len)
		return r;
	const struct raidx__impl *k = direct(op, nsrc, 0, 0, len);
	if (RX_LIKELY(k != NULL))
		k->fn.xor_gen(dst, srcs, nsrc, len);
	else
		xor_slow(op, dst, srcs, nsrc, len);
	return 0;
}

int raidx_xor_gen(void *dst, const void *const *srcs, unsigned nsrc, size_t len)
{
	return xor_call(RAIDX_OP_XOR_GEN, dst, srcs, nsrc, len);
}

int raidx_xor_acc(void *dst, const void *const *srcs, unsigned nsrc, size_t len)
{
	return xor_call(RAIDX_OP_XOR_ACC, dst, srcs, nsrc, len);
}

COLD static void gen_slow(unsigned disks, size_t len, void **ptrs)
{
	struct raidx__race_ticket tk;
	raidx__run_gen_syndrome(race_in(&tk, RAIDX_OP_GEN_SYNDROME, disks, 0, 0, len), disks,
				len, ptrs);
	race_out(&tk);
}

int raidx_gen_syndrome(unsigned disks, size_t len, void **ptrs)
{
	if (!disks_ok(disks))
		return -EINVAL;
	int r = check_stripe(disks, ptrs, 0, disks - 3);
	if (r || !len)
		return r;
	const struct raidx__impl *k = direct(RAIDX_OP_GEN_SYNDROME, disks, 0, 0, len);
	if (RX_LIKELY(k != NULL))
		k->fn.gen(disks, len, ptrs);
	else
		gen_slow(disks, len, ptrs);
	return 0;
}

COLD static void xsyn_slow(unsigned disks, unsigned start, unsigned stop, size_t len,
			   void **ptrs)
{
	struct raidx__race_ticket tk;
	raidx__run_xor_syndrome(race_in(&tk, RAIDX_OP_XOR_SYNDROME, disks, start, stop, len),
				disks, start, stop, len, ptrs);
	race_out(&tk);
}

int raidx_xor_syndrome(unsigned disks, unsigned start, unsigned stop,
		       size_t len, void **ptrs)
{
	if (!disks_ok(disks) || start > stop || stop > disks - 3)
		return -EINVAL;
	int r = check_stripe(disks, ptrs, start, stop);
	if (r || !len)
		return r;
	const struct raidx__impl *k = direct(RAIDX_OP_XOR_SYNDROME, disks, start, stop, len);
	if (RX_LIKELY(k != NULL))
		k->fn.xsyn(disks, start, stop, len, ptrs);
	else
		xsyn_slow(disks, start, stop, len, ptrs);
	return 0;
}

COLD static void r2_slow(unsigned disks, size_t len, unsigned faila, unsigned failb,
			 void **ptrs)
{
	struct raidx__race_ticket tk;
	raidx__run_recov_2data(race_in(&tk, RAIDX_OP_RECOV_2DATA, disks, faila, failb, len),
			       disks, len, faila, failb, ptrs);
	race_out(&tk);
}

int raidx_recov_2data(unsigned disks, size_t len, unsigned faila,
		      unsigned failb, void **ptrs)
{
	if (!disks_ok(disks) || disks < 4 || faila == failb ||
	    faila > disks - 3 || failb > disks - 3)
		return -EINVAL;
	int r = check_stripe(disks, ptrs, 0, disks - 3);
	if (r || !len)
		return r;
	const struct raidx__impl *k = direct(RAIDX_OP_RECOV_2DATA, disks, faila, failb, len);
	if (RX_LIKELY(k != NULL)) /* the kernels take the lower block first */
		k->fn.r2(disks, len, faila < failb ? faila : failb,
			 faila < failb ? failb : faila, ptrs);
	else
		r2_slow(disks, len, faila, failb, ptrs);
	return 0;
}

COLD static void rdp_slow(unsigned disks, size_t len, unsigned faila, void **ptrs)
{
	struct raidx__race_ticket tk;
	raidx__run_recov_datap(race_in(&tk, RAIDX_OP_RECOV_DATAP, disks, faila, 0, len),
			       disks, len, faila, ptrs);
	race_out(&tk);
}

int raidx_recov_datap(unsigned disks, size_t len, unsigned faila, void **ptrs)
{
	if (!disks_ok(disks) || faila > disks - 3)
		return -EINVAL;
	int r = check_stripe(disks, ptrs, 0, disks - 3);
	if (r || !len)
		return r;
	const struct raidx__impl *k = direct(RAIDX_OP_RECOV_DATAP, disks, faila, 0, len);
	if (RX_LIKELY(k != NULL))
		k->fn.rdp(disks, len, faila, ptrs);
	else
		rdp_slow(disks, len, faila, ptrs);
	return 0;
}

/*
 * Q alone, when P is intact and must not be written: gen_syndrome in
 * L1-sized chunks with P redirected to a stack scratch block.  The wasted P
 * stores stay in L1; the data is read once.
 */
#define QCHUNK 4096

static void regen_q(unsigned disks, size_t len, void **ptrs)
{
	_Alignas(64) uint8_t scratch[QCHUNK];
	/* Chosen by the chunk, not the whole length: a large call's
	 * non-temporal twin would stream the scratch P out of L1 each time. */
	const struct raidx__impl *impl = raidx__impl_for(
		RAIDX_OP_GEN_SYNDROME, disks, 0, 0, len < QCHUNK ? len : QCHUNK);
	void *t[RAIDX_MAX_DISKS];

	for (size_t off = 0; off < len; off += QCHUNK) {
		size_t n = len - off < QCHUNK ? len - off : QCHUNK;
		offset_ptrs(t, ptrs, disks, off);
		t[disks - 2] = scratch;
		raidx__run_gen_syndrome(impl, disks, n, t);
	}
}

/* Data block x (or P, x == disks-2) as the XOR of all other data and P. */
static void rebuild_by_xor(unsigned disks, size_t len, unsigned x, void **ptrs)
{
	const void *srcs[RAIDX_MAX_DISKS];
	unsigned n = 0;

	for (unsigned z = 0; z < disks - 1; z++)
		if (z != x)
			srcs[n++] = ptrs[z];
	struct raidx__race_ticket tk;
	raidx__run_xor(race_in(&tk, RAIDX_OP_XOR_GEN, n, 0, 0, len), ptrs[x], srcs, n, len);
	race_out(&tk);
}

int raidx_recover(unsigned disks, size_t len, unsigned nfail,
		  const unsigned *fail, void **ptrs)
{
	unsigned a, b, pidx = disks - 2, qidx = disks - 1;

	if (!disks_ok(disks) || nfail > 2)
		return -EINVAL;
	if (nfail && !fail)
		return -EFAULT;
	if (!ptrs)
		return -EFAULT;
	for (unsigned i = 0; i < nfail; i++)
		if (fail[i] >= disks)
			return -EINVAL;
	if (nfail == 2 && fail[0] == fail[1])
		return -EINVAL;
	for (unsigned i = 0; i < disks; i++)
		if (!ptrs[i])
			return -EFAULT;
	if (!nfail || !len)
		return 0;

	a = fail[0];
	b = nfail == 2 ? fail[1] : a;
	if (a > b) {
		unsigned t = a;
		a = b;
		b = t;
	}

	if (nfail == 1) {
		if (a == qidx)
			regen_q(disks, len, ptrs);
		else
			rebuild_by_xor(disks, len, a, ptrs); /* data or P */
	} else if (b < pidx) {
		struct raidx__race_ticket tk;
		raidx__run_recov_2data(race_in(&tk, RAIDX_OP_RECOV_2DATA, disks, a, b, len),
				       disks, len, a, b, ptrs);
		race_out(&tk);
	} else if (b == pidx) {
		struct raidx__race_ticket tk;
		raidx__run_recov_datap(race_in(&tk, RAIDX_OP_RECOV_DATAP, disks, a, 0, len),
				       disks, len, a, ptrs);
		race_out(&tk);
	} else if (a < pidx) { /* data + Q */
		rebuild_by_xor(disks, len, a, ptrs);
		regen_q(disks, len, ptrs);
	} else { /* P + Q */
		struct raidx__race_ticket tk;
		raidx__run_gen_syndrome(race_in(&tk, RAIDX_OP_GEN_SYNDROME, disks, 0, 0, len),
					disks, len, ptrs);
		race_out(&tk);
	}
	return 0;
}
