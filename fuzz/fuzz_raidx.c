/*
 * fuzz_raidx.c - libFuzzer target for libraidx.
 *
 * Every public entry point is driven with fuzzer-chosen shapes, and every
 * compiled-in kernel this CPU can run is compared byte for byte with the
 * byte-wise reference (raidx__ref_*) run on a copy of the same stripe.
 * Build and run with scripts/fuzz.sh; fuzz/README.md explains the input
 * format and how to replay a crash.
 *
 * Why these checks:
 *  - Outputs: a kernel that computes the wrong P, Q, XOR or rebuilt block is
 *    the bug that silently corrupts an array, so every byte is compared with
 *    the reference, and rebuilt blocks also with the data that was lost
 *    (which checks the reference itself).
 *  - Bounds: the contract says no byte outside [ptr, ptr + len) is touched.
 *    All blocks live in one arena whose gaps are poisoned for ASan, so any
 *    load or store outside a block faults, to the byte at the end of a block
 *    and to the 8-byte ASan granule at its start (the up to 7 bytes between
 *    the granule start and a misaligned block start are addressable, so they
 *    hold a canary that is verified after every call: stray writes there are
 *    caught, only reads of them are not).  Pointers that must not be
 *    dereferenced (data outside an xor_syndrome window, the entries of a
 *    pointer array past an invalid `disks`) point into a fully poisoned
 *    block.  Pointer arrays are heap copies of exactly the documented length.
 *  - Argument checks: in "raw" mode counts, windows and failure indices are
 *    taken unfiltered and NULL pointers are injected; an independent model of
 *    raidx.h's rules predicts -EINVAL or -EFAULT (either one when both
 *    apply: raidx.h does not rank them), and on an error not one byte of any
 *    block may change ("On error nothing is written").
 *  - Inputs are read-only: after every call every block that is not an
 *    output is compared with its saved copy.
 *
 * Input layout: a HDR-byte header (missing bytes read as zero), then the
 * data bytes that fill the blocks (repeated as needed, XORed with a PRNG
 * stream unless the seed byte is 0).  See decode comments below and
 * fuzz/make_corpus.py, which writes the seeds in this format.
 *
 * Built with -DFUZZ_SELFTEST_PLANT, one xor_syndrome kernel (the last
 * runnable one) is wrapped so that it flips a Q byte for windows with
 * start > 0 spanning three or more disks: `scripts/fuzz.sh --selftest`
 * checks that the fuzzer finds it and that the comparison reports it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raidx.h"
#include "raidx_impl.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_ASAN 1
#endif
#ifdef FUZZ_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* The harness's byte loops (fill, copy, canaries) are not what is being
 * fuzzed: without coverage instrumentation they cost no
 * __sanitizer_cov_trace_cmp call per byte. */
#if defined(__clang__)
#define NOCOV __attribute__((no_sanitize("coverage")))
#define NOCOV_NOASAN __attribute__((no_sanitize("coverage", "address")))
#else
#define NOCOV
#define NOCOV_NOASAN
#endif

/* ---- limits -------------------------------------------------------------- */

#define HDR 24
#define LEN_MAX 8192u            /* block length range 0..LEN_MAX */
#define WORK_MAX (256u * 1024u)  /* len * (blocks) bound: keeps exec/s high */
#define RAW_DISKS 300u           /* raw disks/index range: past 257 */
#define RAW_NSRC 1100u           /* raw nsrc range: past RAIDX_MAX_SOURCES */
#define MAX_BLK (RAIDX_MAX_DISKS + 2) /* live blocks + dst + the dead block */
#define GAP 64u                  /* poisoned bytes before every block */
#define MAX_RUN 64

/* The fuzzer's operations: the six kernel ops, raidx_recover, and the
 * introspection/selection API. */
enum fop { F_XOR_GEN, F_XOR_ACC, F_GEN, F_XSYN, F_R2, F_RDP, F_RECOVER, F_MISC, F_NOPS };
static const char *const fop_name[F_NOPS] = {
	"xor_gen", "xor_acc", "gen_syndrome", "xor_syndrome",
	"recov_2data", "recov_datap", "recover", "misc",
};

/* Routes to a kernel: straight through raidx__run_* (the kernel with the
 * reference tail), or through the public function with the library's own
 * choice, or with a choice forced by raidx_impl_select(). */
enum route { RT_KERNEL, RT_AUTO, RT_FORCED };
static const char *const route_name[] = { "kernel", "public", "public+forced" };

static const struct raidx__impl *run_list[RAIDX_OP_COUNT][MAX_RUN];
static unsigned nrun[RAIDX_OP_COUNT];
static int verbose; /* FUZZ_RAIDX_VERBOSE=1: describe every input */

/* ---- context for failure reports ---------------------------------------- */

static struct {
	int op, raw;
	enum route route;
	const char *impl;
	unsigned disks, nsrc, a, b, nfail, fail[3];
	size_t len;
	int omode;
	int rc;              /* what the call returned */
	const char *expect;  /* what the model of raidx.h expected */
	char extra[160];
} C;

static void extra_add(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;
static void extra_add(const char *fmt, ...)
{
	size_t n = strlen(C.extra);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(C.extra + n, sizeof(C.extra) - n, fmt, ap);
	va_end(ap);
}

static void describe(void)
{
	fprintf(stderr,
		"  op=%s raw=%d route=%s impl=%s len=%zu disks=%u nsrc=%u a=%u b=%u"
		" nfail=%u fail={%u,%u,%u} offset_mode=%d rc=%d expected=%s %s\n",
		fop_name[C.op], C.raw, route_name[C.route], C.impl ? C.impl : "-",
		C.len, C.disks, C.nsrc, C.a, C.b, C.nfail, C.fail[0], C.fail[1],
		C.fail[2], C.omode, C.rc, C.expect ? C.expect : "-", C.extra);
}

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2), noreturn))
#endif
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "\nfuzz_raidx: MISMATCH: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	describe();
	abort();
}

/* ---- input decoding ------------------------------------------------------ */

static unsigned u16(const uint8_t *h, unsigned i)
{
	return h[i] | (unsigned)h[i + 1] << 8;
}

/* splitmix64: a deterministic stream from the input's seed byte. */
NOCOV_NOASAN static uint64_t sm64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

NOCOV_NOASAN static void rng_fill(uint64_t *s, uint8_t *b, size_t n)
{
	while (n) {
		uint64_t v = sm64(s);
		size_t k = n < 8 ? n : 8;
		memcpy(b, &v, k);
		b += k;
		n -= k;
	}
}

/* ---- the arena: blocks separated by poisoned gaps ----------------------- */

struct layout {
	unsigned n;           /* blocks 0..n-1 are live, block n is dead */
	size_t len;
	size_t pos[MAX_BLK];  /* block i starts at arena + pos[i] */
	unsigned off[MAX_BLK];
	size_t size;
};

struct arena {
	uint8_t *mem;
	size_t cap;
};

/* W: where the code under test runs; R: the reference's copy; S: a saved
 * copy (inputs before the call, or the intact stripe before a loss). */
static struct arena W, R, S;

NOCOV static uint8_t canary(size_t x)
{
	return (uint8_t)(x * 131u + 0x5b);
}

/*
 * Offsets of the blocks from a 64-byte boundary (header byte 13):
 *   mode 0: all at offset h & 63        mode 1: PRNG offsets
 *   mode 2: from the data bytes         mode 3: (h & 63) * (i + 1) mod 64
 */
static void layout_make(struct layout *L, unsigned n, size_t len, uint8_t h13,
			const uint8_t *data, size_t dn, uint64_t *rng)
{
	size_t cur = 0;

	L->n = n;
	L->len = len;
	C.omode = h13 >> 6;
	for (unsigned i = 0; i <= n; i++) {
		unsigned off;
		switch (h13 >> 6) {
		case 0: off = h13 & 63; break;
		case 1: off = (unsigned)sm64(rng) & 63; break;
		case 2: off = dn ? data[i % dn] & 63 : 0; break;
		default: off = ((h13 & 63) * (i + 1)) & 63; break;
		}
		L->off[i] = off;
		L->pos[i] = cur + GAP + off;
		cur = (L->pos[i] + len + 63) & ~(size_t)63;
	}
	L->size = cur + GAP;
}

NOCOV static uint8_t *blk(const struct arena *a, const struct layout *L, unsigned i)
{
	return a->mem + L->pos[i];
}

NOCOV static void arena_setup(struct arena *a, const struct layout *L, int poison)
{
	if (a->mem)
		UNPOISON(a->mem, a->cap);
	if (a->cap < L->size) {
		free(a->mem);
		a->cap = (L->size + 4095) & ~(size_t)4095;
		a->mem = aligned_alloc(64, a->cap);
		if (!a->mem) {
			fprintf(stderr, "fuzz_raidx: out of memory\n");
			abort();
		}
	}
	/* The bytes between a block's ASan granule and the block itself. */
	for (unsigned i = 0; i <= L->n; i++)
		for (size_t x = L->pos[i] & ~(size_t)7; x < L->pos[i]; x++)
			a->mem[x] = canary(x);
	if (poison) {
		POISON(a->mem, a->cap);
		for (unsigned i = 0; i < L->n; i++)
			UNPOISON(a->mem + L->pos[i], L->len);
	}
}

NOCOV static void check_canaries(const struct arena *a, const struct layout *L,
			   const char *which)
{
	/* The dead block stays poisoned, and so do the bytes before an empty
	 * block: ASan itself guards those. */
	for (unsigned i = 0; L->len && i < L->n; i++)
		for (size_t x = L->pos[i] & ~(size_t)7; x < L->pos[i]; x++)
			if (a->mem[x] != canary(x))
				fail("%s: byte %zu before block %u (offset %u) was written",
				     which, L->pos[i] - x, i, L->off[i]);
}

NOCOV static void copy_blocks(struct arena *dst, const struct arena *src,
			const struct layout *L)
{
	for (unsigned i = 0; i < L->n; i++)
		memcpy(blk(dst, L, i), blk(src, L, i), L->len);
}

static void cmp_blocks(const struct arena *got, const struct arena *exp,
		       const struct layout *L, const char *what)
{
	for (unsigned i = 0; i < L->n; i++) {
		const uint8_t *g = blk(got, L, i), *e = blk(exp, L, i);
		if (memcmp(g, e, L->len) == 0)
			continue;
		size_t j = 0;
		while (g[j] == e[j])
			j++;
		fail("%s: block %u (of %u, offset %u) byte %zu: got 0x%02x, expected 0x%02x",
		     what, i, L->n, L->off[i], j, g[j], e[j]);
	}
}

NOCOV_NOASAN static void xor_bytes(uint8_t *d, const uint8_t *s, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;
		memcpy(&x, d + i, 8);
		memcpy(&y, s + i, 8);
		x ^= y;
		memcpy(d + i, &x, 8);
	}
	for (; i < n; i++)
		d[i] ^= s[i];
}

/* Data: the input's data bytes, cycled across all blocks, XORed with the
 * PRNG unless the seed byte is 0 (then the fuzzer picks every byte). */
NOCOV static void fill_data(uint8_t *b, size_t len, const uint8_t *data, size_t dn,
			    size_t *k, uint64_t *rng, int use_rng)
{
	if (use_rng)
		rng_fill(rng, b, len);
	else
		memset(b, 0, len);
	for (size_t j = 0; dn && j < len;) {
		size_t n = dn - *k < len - j ? dn - *k : len - j;
		xor_bytes(b + j, data + *k, n);
		j += n;
		*k += n;
		if (*k == dn)
			*k = 0;
	}
}

/* Pointer arrays are described by block indices (NUL_IDX: NULL) and built
 * for each arena on the heap with exactly n entries, so that reading past
 * the documented length faults. */
#define NUL_IDX (-1)

NOCOV static void **mk_ptrs(const struct arena *a, const struct layout *L,
		      const int *idx, unsigned n)
{
	void **p = malloc((n ? n : 1) * sizeof(*p));
	if (!p)
		abort();
	p[0] = blk(a, L, L->n); /* an empty array's one entry: the dead block */
	for (unsigned i = 0; i < n; i++)
		p[i] = idx[i] == NUL_IDX ? NULL : blk(a, L, (unsigned)idx[i]);
	return p;
}

NOCOV static void check_ptrs(void **p, const struct arena *a, const struct layout *L,
		       const int *idx, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (p[i] != (idx[i] == NUL_IDX ? NULL : blk(a, L, (unsigned)idx[i])))
			fail("pointer array entry %u was modified", i);
}

/* ---- routes --------------------------------------------------------------- */

/*
 * Header byte 1 picks the route: with the top bit clear, runnable kernel
 * number (sel % r) through raidx__run_*; with it set, the public function,
 * with the library's own choice when (sel & 127) % (r + 1) is 0, else with
 * that kernel forced.  Raw mode always takes the public function (kernels
 * take validated arguments).  The top bit keeps a seed on the public path
 * whatever kernels later builds add.
 */
static const struct raidx__impl *pick_route(int rop, unsigned sel, int raw,
					    enum route *rt)
{
	unsigned r = nrun[rop];

	if (!raw && !(sel & 128)) {
		*rt = RT_KERNEL;
		return run_list[rop][sel % r];
	}
	sel = (sel & 127) % (r + 1);
	*rt = sel ? RT_FORCED : RT_AUTO;
	return sel ? run_list[rop][sel - 1] : NULL;
}

static void force(int rop, const struct raidx__impl *impl)
{
	int rc = raidx_impl_select((enum raidx_op)rop, impl ? impl->name : NULL);
	if (rc != 0)
		fail("raidx_impl_select(%s, %s) = %d, expected 0",
		     raidx_op_name((enum raidx_op)rop), impl ? impl->name : "NULL", rc);
	if (impl && strcmp(raidx_impl_selected((enum raidx_op)rop), impl->name))
		fail("raidx_impl_selected(%s) = %s after selecting %s",
		     raidx_op_name((enum raidx_op)rop),
		     raidx_impl_selected((enum raidx_op)rop), impl->name);
}

static void unforce_all(void)
{
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		force(op, NULL);
}

#ifdef FUZZ_SELFTEST_PLANT
/* The planted bug: a kernel that mishandles windows that start past disk 0
 * and span three or more disks. */
static raidx__xsyn_fn plant_real;
static const struct raidx__impl *plant_target;

static void plant_xsyn(unsigned disks, unsigned start, unsigned stop,
		       size_t len, void **ptrs)
{
	plant_real(disks, start, stop, len, ptrs);
	if (start > 0 && stop - start >= 2)
		((uint8_t *)ptrs[disks - 1])[len / 2] ^= 0x40;
}
#endif

/* Expected result from the model of raidx.h: 0, -EINVAL, -EFAULT, or (when
 * both an EINVAL and an EFAULT condition hold) either. */
static void check_rc(int rc, int inval, int fault, const char *fn)
{
	int ok;

	C.rc = rc;
	C.expect = inval && fault ? "-EINVAL|-EFAULT" : inval ? "-EINVAL" :
		   fault ? "-EFAULT" : "0";
	if (inval && fault)
		ok = rc == -EINVAL || rc == -EFAULT;
	else if (inval)
		ok = rc == -EINVAL;
	else if (fault)
		ok = rc == -EFAULT;
	else
		ok = rc == 0;
	if (!ok)
		fail("%s returned %d, expected %s", fn, rc, C.expect);
}

/* ---- XOR ------------------------------------------------------------------ */

static void run_xor(int fop, const uint8_t *h, const uint8_t *data, size_t dn)
{
	static struct layout L;
	int acc = fop == F_XOR_ACC, raw = h[2] & 1;
	int rop = acc ? RAIDX_OP_XOR_ACC : RAIDX_OP_XOR_GEN;
	unsigned nsrc = raw ? u16(h, 5) % RAW_NSRC : 1 + u16(h, 5) % RAIDX_MAX_SOURCES;
	unsigned nb = nsrc ? nsrc : 1;
	size_t len = u16(h, 3) % (LEN_MAX + 1);
	uint64_t rng = 0x5eed0000u ^ h[12], grng = ~(uint64_t)h[12];
	size_t k = 0;
	int dst_idx, *idx, srcs_null = 0;
	enum route rt;
	const struct raidx__impl *impl = pick_route(rop, h[1], raw, &rt);

	/* Sources cycle over nb distinct blocks (data blocks may alias). */
	if (nb > RAIDX_MAX_DISKS)
		nb = RAIDX_MAX_DISKS;
	if (h[2] & 16)
		nb = 1 + h[16] % nb;
	if (len > WORK_MAX / (nsrc + 1))
		len = WORK_MAX / (nsrc + 1);

	C.nsrc = nsrc;
	C.len = len;
	C.route = rt;
	C.impl = impl ? impl->name : NULL;

	layout_make(&L, nb + 1, len, h[13], data, dn, &rng);
	arena_setup(&W, &L, 1);
	arena_setup(&R, &L, 1);
	arena_setup(&S, &L, 0);
	for (unsigned i = 0; i < nb; i++)
		fill_data(blk(&W, &L, i), len, data, dn, &k, &rng, h[12] != 0);
	rng_fill(&grng, blk(&W, &L, nb), len); /* old dst: xor_acc's input */

	idx = malloc((nsrc ? nsrc : 1) * sizeof(*idx));
	if (!idx)
		abort();
	for (unsigned i = 0; i < nsrc; i++)
		idx[i] = (int)(i % nb);
	dst_idx = (int)nb;
	if (!raw && (h[2] & 4)) {
		/* dst identical to a source (allowed for xor_gen and xor_acc) */
		dst_idx = idx[h[16] % nsrc];
		extra_add("dst=src[%u] (block %d) ", h[16] % nsrc, dst_idx);
	}
	if (raw && (h[2] & 2)) {
		unsigned ni = u16(h, 14) % (nsrc + 2);
		if (ni < nsrc)
			idx[ni] = NUL_IDX;
		else if (ni == nsrc)
			srcs_null = 1;
		else
			dst_idx = NUL_IDX;
		extra_add("null=%u ", ni);
	}

	int inval = nsrc < 1 || nsrc > RAIDX_MAX_SOURCES;
	int fault = dst_idx == NUL_IDX || srcs_null;
	for (unsigned i = 0; !inval && !srcs_null && i < nsrc; i++)
		fault |= idx[i] == NUL_IDX;

	void **sw = mk_ptrs(&W, &L, idx, nsrc), **sr = mk_ptrs(&R, &L, idx, nsrc);
	void *dw = dst_idx == NUL_IDX ? NULL : blk(&W, &L, (unsigned)dst_idx);
	void *dr = dst_idx == NUL_IDX ? NULL : blk(&R, &L, (unsigned)dst_idx);

	copy_blocks(&S, &W, &L);
	copy_blocks(&R, &W, &L);
	if (!inval && !fault) {
		if (acc)
			raidx__ref_xor_acc(dr, (const void *const *)sr, nsrc, len);
		else
			raidx__ref_xor_gen(dr, (const void *const *)sr, nsrc, len);
	}

	int rc = 0;
	if (rt == RT_KERNEL) {
		raidx__run_xor(impl, dw, (const void *const *)sw, nsrc, len);
	} else {
		if (rt == RT_FORCED)
			force(rop, impl);
		const void *const *s = srcs_null ? NULL : (const void *const *)sw;
		rc = acc ? raidx_xor_acc(dw, s, nsrc, len) : raidx_xor_gen(dw, s, nsrc, len);
		if (rt == RT_FORCED)
			force(rop, NULL);
	}
	check_rc(rc, inval, fault, acc ? "raidx_xor_acc" : "raidx_xor_gen");
	cmp_blocks(&W, (inval || fault) ? &S : &R, &L,
		   (inval || fault) ? "block changed by a call that failed" :
		   "differs from the reference");
	check_canaries(&W, &L, "code under test");
	check_canaries(&R, &L, "reference");
	check_ptrs(sw, &W, &L, idx, nsrc);
	free(sw);
	free(sr);
	free(idx);
}

/* ---- RAID-6 ------------------------------------------------------------- */

/* The reference's answer to raidx_recover(), built from the ref kernels:
 * an oracle for the oracle (compared with the intact stripe). */
static void ref_recover(unsigned disks, size_t len, unsigned nfail,
			const unsigned *fail, void **ptrs)
{
	unsigned pidx = disks - 2, a, b;

	if (!nfail)
		return;
	a = fail[0];
	b = nfail == 2 ? fail[1] : a;
	if (a > b) {
		unsigned t = a;
		a = b;
		b = t;
	}
	if (a < pidx && b < pidx && a != b) {
		raidx__ref_recov_2data(disks, len, a, b, ptrs);
	} else if (a < pidx && b == pidx) {
		raidx__ref_recov_datap(disks, len, a, ptrs);
	} else if (a < pidx) {
		/* one data block, maybe with Q: D_a from P, then P and Q anew
		 * (rewriting P with its own value) */
		const void *srcs[RAIDX_MAX_DISKS];
		unsigned n = 0;
		for (unsigned z = 0; z <= pidx; z++)
			if (z != a)
				srcs[n++] = ptrs[z];
		raidx__ref_xor_gen(ptrs[a], srcs, n, len);
		raidx__ref_gen_syndrome(disks, len, ptrs);
	} else {
		raidx__ref_gen_syndrome(disks, len, ptrs); /* P and/or Q */
	}
}

static void run_raid6(int fop, const uint8_t *h, const uint8_t *data, size_t dn)
{
	static struct layout L;
	static const int fop_rop[] = {
		[F_GEN] = RAIDX_OP_GEN_SYNDROME, [F_XSYN] = RAIDX_OP_XOR_SYNDROME,
		[F_R2] = RAIDX_OP_RECOV_2DATA, [F_RDP] = RAIDX_OP_RECOV_DATAP,
	};
	int raw = h[2] & 1;
	unsigned cnt = u16(h, 5), a = u16(h, 7), b = u16(h, 9);
	unsigned disks, start = 0, stop = 0, nfail = 0, fail3[3] = { 0, 0, 0 };
	size_t len = u16(h, 3) % (LEN_MAX + 1);
	uint64_t rng = 0x5eed0000u ^ h[12], grng = ~(uint64_t)h[12];
	size_t k = 0;
	int ptrs_null = 0, fail_null = 0;
	enum route rt = RT_AUTO;
	const struct raidx__impl *impl = NULL;

	if (!raw) {
		disks = fop == F_R2 ? 4 + cnt % 254 : 3 + cnt % 255;
		unsigned ndata = disks - 2;
		switch (fop) {
		case F_XSYN:
			start = a % ndata;
			stop = start + b % (ndata - start);
			break;
		case F_R2:
			start = a % ndata;
			stop = (start + 1 + b % (ndata - 1)) % ndata; /* either order */
			break;
		case F_RDP:
			start = a % ndata;
			break;
		case F_RECOVER: {
			/* failure 0 and 1: a data block by index, or P, or Q */
			unsigned m0 = (h[11] >> 2) & 3, m1 = (h[11] >> 4) & 3;
			nfail = h[11] % 3;
			fail3[0] = m0 < 2 ? a % disks : disks - 4 + m0;
			fail3[1] = m1 < 2 ? b % disks : disks - 4 + m1;
			if (fail3[1] == fail3[0])
				fail3[1] = (fail3[0] + 1 + b % (disks - 1)) % disks;
			break;
		}
		}
	} else {
		disks = cnt % RAW_DISKS;
		start = a % RAW_DISKS;
		stop = b % RAW_DISKS;
		nfail = h[11] % 4;
		fail3[0] = start;
		fail3[1] = stop;
		fail3[2] = (a + b) % RAW_DISKS;
	}

	/* Live blocks: every entry of the array up to 257; entries past that
	 * (an invalid disks) point into the dead block. */
	unsigned nlive = disks == 0 ? 1 : disks > RAIDX_MAX_DISKS ? RAIDX_MAX_DISKS : disks;
	unsigned nent = disks ? disks : 1, dead = nlive;
	if (len > WORK_MAX / nlive)
		len = WORK_MAX / nlive;

	if (fop == F_RECOVER) {
		/* one selector per op that raidx_recover may use */
		static const int sub[4] = { RAIDX_OP_XOR_GEN, RAIDX_OP_GEN_SYNDROME,
					    RAIDX_OP_RECOV_2DATA, RAIDX_OP_RECOV_DATAP };
		for (int i = 0; i < 4; i++) {
			unsigned s = h[17 + i] % (nrun[sub[i]] + 1);
			force(sub[i], s ? run_list[sub[i]][s - 1] : NULL);
			if (s) {
				extra_add("%s=%s ", raidx_op_name((enum raidx_op)sub[i]),
					  run_list[sub[i]][s - 1]->name);
				rt = RT_FORCED;
			}
		}
	} else {
		impl = pick_route(fop_rop[fop], h[1], raw, &rt);
	}
	C.disks = disks;
	C.len = len;
	C.a = start;
	C.b = stop;
	C.nfail = nfail;
	memcpy(C.fail, fail3, sizeof(fail3));
	C.route = rt;
	C.impl = impl ? impl->name : NULL;

	layout_make(&L, nlive, len, h[13], data, dn, &rng);
	arena_setup(&W, &L, 1);
	arena_setup(&R, &L, 1);
	arena_setup(&S, &L, 0);
	for (unsigned i = 0; i < nlive; i++)
		fill_data(blk(&W, &L, i), len, data, dn, &k, &rng, h[12] != 0);

	int *idx = malloc(nent * sizeof(*idx));
	if (!idx)
		abort();
	for (unsigned i = 0; i < nent; i++)
		idx[i] = i < nlive && disks ? (int)i : (int)dead;
	if (!raw && fop == F_XSYN) {
		/* not read: NULL, or a pointer to poisoned memory */
		extra_add("outside=%s ", (h[2] & 8) ? "NULL" : "poisoned");
		for (unsigned i = 0; i < disks - 2; i++)
			if (i < start || i > stop)
				idx[i] = (h[2] & 8) ? NUL_IDX : (int)dead;
	}
	if (raw && (h[2] & 2)) {
		unsigned ni = u16(h, 14) % (nent + 2);
		if (ni < nent)
			idx[ni] = NUL_IDX;
		else if (ni == nent)
			ptrs_null = 1;
		else
			fail_null = 1;
		extra_add("null=%u ", ni);
	}

	/* The model of the argument rules in raidx.h. */
	int dok = disks >= 3 && disks <= RAIDX_MAX_DISKS;
	unsigned ld = disks - 3; /* last data index, when dok */
	int inval = !dok, fault = ptrs_null;
	unsigned lo = 0, hi = 0; /* required data pointers, besides P and Q */
	int need_all = 1;
	switch (fop) {
	case F_GEN:
		break;
	case F_XSYN:
		inval |= start > stop || (dok && stop > ld);
		lo = start;
		hi = stop;
		need_all = 0;
		break;
	case F_R2:
		inval |= start == stop || (dok && (start > ld || stop > ld));
		break;
	case F_RDP:
		inval |= dok && start > ld;
		break;
	case F_RECOVER:
		inval |= nfail > 2;
		fault |= nfail > 0 && fail_null;
		if (!fail_null && nfail <= 2) {
			for (unsigned i = 0; i < nfail; i++)
				inval |= fail3[i] >= disks;
			inval |= nfail == 2 && fail3[0] == fail3[1];
		}
		break;
	}
	if (dok && !ptrs_null && !inval) {
		for (unsigned i = 0; i < disks; i++)
			if (idx[i] == NUL_IDX &&
			    (need_all || i >= disks - 2 || (i >= lo && i <= hi)))
				fault = 1;
	}
	int valid = !inval && !fault;

	void **pw = mk_ptrs(&W, &L, idx, nent), **pr = mk_ptrs(&R, &L, idx, nent);
	unsigned *fw = NULL;
	if (fop == F_RECOVER && !fail_null) {
		fw = malloc((nfail ? nfail : 1) * sizeof(*fw));
		if (!fw)
			abort();
		memcpy(fw, fail3, nfail * sizeof(*fw));
	}

	/* Recovery: make the stripe consistent, save it, lose the blocks. */
	int recovery = fop == F_R2 || fop == F_RDP || fop == F_RECOVER;
	unsigned lost[2], nlost = 0;
	if (valid && recovery) {
		raidx__ref_gen_syndrome(disks, len, pw);
		copy_blocks(&S, &W, &L);
		if (fop == F_R2) {
			lost[nlost++] = start;
			lost[nlost++] = stop;
		} else if (fop == F_RDP) {
			lost[nlost++] = start;
			lost[nlost++] = disks - 2;
		} else {
			for (unsigned i = 0; i < nfail; i++)
				lost[nlost++] = fail3[i];
		}
		for (unsigned i = 0; i < nlost; i++)
			rng_fill(&grng, blk(&W, &L, lost[i]), len);
	} else {
		if (valid) /* old P and Q for xor_syndrome, overwritten by gen */
			for (unsigned i = disks - 2; i < disks; i++)
				rng_fill(&grng, blk(&W, &L, i), len);
		copy_blocks(&S, &W, &L);
	}
	copy_blocks(&R, &W, &L);

	if (valid) {
		switch (fop) {
		case F_GEN: raidx__ref_gen_syndrome(disks, len, pr); break;
		case F_XSYN: raidx__ref_xor_syndrome(disks, start, stop, len, pr); break;
		case F_R2:
			raidx__ref_recov_2data(disks, len, start < stop ? start : stop,
					       start < stop ? stop : start, pr);
			break;
		case F_RDP: raidx__ref_recov_datap(disks, len, start, pr); break;
		case F_RECOVER: ref_recover(disks, len, nfail, fail3, pr); break;
		}
		if (recovery)
			cmp_blocks(&R, &S, &L, "reference did not rebuild the lost data");
	}

	int rc = 0;
	const char *fn = fop_name[fop];
	if (rt == RT_KERNEL) {
		switch (fop) {
		case F_GEN: raidx__run_gen_syndrome(impl, disks, len, pw); break;
		case F_XSYN: {
			const struct raidx__impl *ki = impl;
#ifdef FUZZ_SELFTEST_PLANT
			struct raidx__impl planted;
			if (impl == plant_target) {
				planted = *impl;
				planted.fn.xsyn = plant_xsyn;
				ki = &planted;
			}
#endif
			raidx__run_xor_syndrome(ki, disks, start, stop, len, pw);
			break;
		}
		case F_R2: raidx__run_recov_2data(impl, disks, len, start, stop, pw); break;
		case F_RDP: raidx__run_recov_datap(impl, disks, len, start, pw); break;
		}
	} else {
		void **p = ptrs_null ? NULL : pw;
		if (rt == RT_FORCED && fop != F_RECOVER)
			force(fop_rop[fop], impl);
		switch (fop) {
		case F_GEN: rc = raidx_gen_syndrome(disks, len, p); fn = "raidx_gen_syndrome"; break;
		case F_XSYN: rc = raidx_xor_syndrome(disks, start, stop, len, p); fn = "raidx_xor_syndrome"; break;
		case F_R2: rc = raidx_recov_2data(disks, len, start, stop, p); fn = "raidx_recov_2data"; break;
		case F_RDP: rc = raidx_recov_datap(disks, len, start, p); fn = "raidx_recov_datap"; break;
		case F_RECOVER: rc = raidx_recover(disks, len, nfail, fw, p); fn = "raidx_recover"; break;
		}
		if (rt == RT_FORCED || fop == F_RECOVER)
			unforce_all();
	}
	check_rc(rc, inval, fault, fn);
	if (!valid)
		cmp_blocks(&W, &S, &L, "block changed by a call that failed");
	else if (recovery)
		cmp_blocks(&W, &S, &L, "rebuilt stripe differs from the original");
	else
		cmp_blocks(&W, &R, &L, "differs from the reference");
	check_canaries(&W, &L, "code under test");
	check_canaries(&R, &L, "reference");
	check_ptrs(pw, &W, &L, idx, nent);
	if (fw && memcmp(fw, fail3, nfail * sizeof(*fw)))
		fail("fail[] was modified");
	free(fw);
	free(pw);
	free(pr);
	free(idx);
}

/* ---- introspection and selection ---------------------------------------- */

static void run_misc(const uint8_t *h, const uint8_t *data, size_t dn)
{
	char str[40];
	size_t sl = dn < sizeof(str) - 1 ? dn : sizeof(str) - 1;
	/* op values include invalid ones and a huge one */
	unsigned v = (h[6] & 1) ? 0xffffffffu - h[5] % 4 : h[5] % (RAIDX_OP_COUNT + 4);
	enum raidx_op op = (enum raidx_op)v;
	int opok = v < RAIDX_OP_COUNT;
	const struct raidx__impl *const *list = NULL;
	unsigned n = opok ? raidx__impl_list(op, &list) : 0;

	memcpy(str, data, sl);
	str[sl] = 0;
	C.a = v;
	C.route = RT_AUTO;
	extra_add("name=\"%.32s\"", str);

	if (raidx_init() != 0)
		fail("raidx_init() != 0");
	if (strcmp(raidx_version(), RAIDX_VERSION_STRING) ||
	    raidx_version_number() != RAIDX_VERSION_NUMBER)
		fail("version mismatch: %s / %u", raidx_version(), raidx_version_number());

	const char *name = raidx_op_name(op);
	if (!opok != !name)
		fail("raidx_op_name(%u) = %s", v, name ? name : "NULL");
	if (name && raidx_op_from_name(name) != (int)v)
		fail("raidx_op_from_name(raidx_op_name(%u)) != %u", v, v);
	int r = raidx_op_from_name(str);
	if (r >= 0 ? (r >= RAIDX_OP_COUNT || strcmp(raidx_op_name((enum raidx_op)r), str))
		   : r != -EINVAL)
		fail("raidx_op_from_name(\"%s\") = %d", str, r);
	if (r < 0)
		for (int o = 0; o < RAIDX_OP_COUNT; o++)
			if (!strcmp(raidx_op_name((enum raidx_op)o), str))
				fail("raidx_op_from_name(\"%s\") = %d", str, r);
	if (raidx_op_from_name(NULL) != -EINVAL)
		fail("raidx_op_from_name(NULL) != -EINVAL");

	if (raidx_impl_count(op) != n)
		fail("raidx_impl_count(%u) = %u, list has %u", v, raidx_impl_count(op), n);
	unsigned i = h[7] % (n + 3);
	const char *in = raidx_impl_name(op, i);
	int sup = raidx_impl_supported(op, i);
	if (i < n) {
		if (!in || strcmp(in, list[i]->name))
			fail("raidx_impl_name(%u, %u) = %s", v, i, in ? in : "NULL");
		if (sup != raidx__impl_runnable(list[i]))
			fail("raidx_impl_supported(%u, %u) = %d", v, i, sup);
	} else if (in || sup != -EINVAL) {
		fail("raidx_impl_name/supported(%u, %u past %u) = %s / %d", v, i, n,
		     in ? in : "NULL", sup);
	}

	/* raidx_impl_select: NULL, the fuzzer's string, or a listed name. */
	const char *sel = h[8] % 3 == 0 ? NULL : h[8] % 3 == 1 ? str : i < n ? list[i]->name : str;
	const char *before = opok ? raidx_impl_selected(op) : NULL;
	if (!opok && raidx_impl_selected(op))
		fail("raidx_impl_selected(%u) is not NULL", v);
	int exp = 0;
	const struct raidx__impl *want = NULL;
	if (!opok) {
		exp = -EINVAL;
	} else if (sel) {
		for (unsigned j = 0; j < n; j++)
			if (!strcmp(list[j]->name, sel))
				want = list[j];
		exp = !want ? -ENOENT : !raidx__impl_runnable(want) ? -ENOTSUP : 0;
	}
	int rc = raidx_impl_select(op, sel);
	if (rc != exp)
		fail("raidx_impl_select(%u, %s) = %d, expected %d", v, sel ? sel : "NULL", rc, exp);
	if (opok) {
		const char *now = raidx_impl_selected(op);
		if (rc == 0 && want && strcmp(now, want->name))
			fail("selected %s, raidx_impl_selected says %s", want->name, now);
		if (rc != 0 && strcmp(now, before))
			fail("failed raidx_impl_select changed the choice %s -> %s", before, now);
		if (raidx_impl_select(op, NULL) != 0 || strcmp(raidx_impl_selected(op), before))
			fail("raidx_impl_select(NULL) did not restore %s", before);
	}

	/* CPU features: every reported bit has a name; names are non-empty. */
	uint32_t f = raidx_cpu_features();
	for (int bit = 0; bit < 32; bit++) {
		const char *fname = raidx_cpu_feature_name(1u << bit);
		if ((f >> bit & 1) && !fname)
			fail("feature bit %d reported without a name", bit);
		if (fname && !*fname)
			fail("feature bit %d has an empty name", bit);
	}
	uint32_t any = (uint32_t)h[9] | (uint32_t)h[10] << 8 | (uint32_t)h[11] << 16 |
		       (uint32_t)h[12] << 24;
	const char *an = raidx_cpu_feature_name(any);
	if (an && (any & (any - 1)))
		fail("raidx_cpu_feature_name(0x%x) = %s for several bits", any, an);
}

/* ---- libFuzzer entry points -------------------------------------------- */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *in, size_t n);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *v = getenv("FUZZ_RAIDX_VERBOSE");

	(void)argc;
	(void)argv;
	verbose = v && *v && *v != '0';
	raidx_init();
	fprintf(stderr, "fuzz_raidx: libraidx %s, runnable implementations:\n",
		raidx_version());
	for (int op = 0; op < RAIDX_OP_COUNT; op++) {
		const struct raidx__impl *const *list;
		unsigned n = raidx__impl_list((enum raidx_op)op, &list);
		fprintf(stderr, "  %-13s", raidx_op_name((enum raidx_op)op));
		for (unsigned i = 0; i < n; i++) {
			if (!raidx__impl_runnable(list[i]) || nrun[op] >= MAX_RUN)
				continue;
			run_list[op][nrun[op]++] = list[i];
			fprintf(stderr, " %s", list[i]->name);
		}
		fprintf(stderr, "  (auto: %s)\n", raidx_impl_selected((enum raidx_op)op));
	}
#ifdef FUZZ_SELFTEST_PLANT
	plant_target = run_list[RAIDX_OP_XOR_SYNDROME][nrun[RAIDX_OP_XOR_SYNDROME] - 1];
	plant_real = plant_target->fn.xsyn;
	fprintf(stderr, "fuzz_raidx: SELFTEST PLANT: xor_syndrome kernel '%s' corrupts Q "
		"for windows with start > 0 spanning 3+ disks\n", plant_target->name);
#endif
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t n)
{
	uint8_t h[HDR] = { 0 };
	size_t hn = n < HDR ? n : HDR;

	memcpy(h, in, hn);
	memset(&C, 0, sizeof(C));
	C.op = h[0] % F_NOPS;
	C.raw = h[2] & 1;
	switch (C.op) {
	case F_XOR_GEN:
	case F_XOR_ACC:
		run_xor(C.op, h, in + hn, n - hn);
		break;
	case F_MISC:
		run_misc(h, in + hn, n - hn);
		break;
	default:
		run_raid6(C.op, h, in + hn, n - hn);
		break;
	}
	if (verbose)
		describe();
	return 0;
}
