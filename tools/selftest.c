/*
 * selftest.c - `raidx selftest`: every implementation of every operation
 * that this CPU can run, driven directly (raidx__run_*), whatever the
 * dispatcher would pick, on a quick set of shapes.
 *
 * The expected results are computed here, not by the library: XOR byte by
 * byte, and Q by Horner's rule with a shift-and-reduce multiply by g = 2,
 * without the generated GF tables.  src/ref.c sums g^z * D_z through those
 * tables, so the "ref" rows check ref.c and the tables against a second,
 * differently written derivation instead of comparing ref with itself.
 * Recovery is checked against the data that was lost.
 *
 * Every block sits in a slot between margins of random bytes, and each block
 * of a case gets its own misalignment.  After a run the whole slots are
 * compared with the expected image, so one comparison catches a wrong
 * result, a write to a block that is only read, and a write outside
 * [ptr, ptr + len).
 *
 * Shapes: lengths that are below, at and just past the granules (1 ... 513)
 * and one with several granules plus a tail (4096 + 7); disk counts from the
 * smallest stripe to the largest (3 ... 257); every xor_syndrome window and
 * every failure for the small arrays, a sample for the large ones.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "raidx_impl.h"
#include "tool.h"

/* Under AddressSanitizer the margins are also poisoned while a kernel runs,
 * so that reading past a block is caught too, not only writing. */
#if defined(__SANITIZE_ADDRESS__)
#define SELFTEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SELFTEST_ASAN 1
#endif
#endif
#ifdef SELFTEST_ASAN
#include <sanitizer/asan_interface.h>
#endif

#define MARGIN 64  /* random bytes before and after every block */
#define MAXOFF 64  /* block misalignment, 0 .. MAXOFF-1 */
#define MAXLEN 4103
#define SLOT (((MARGIN + MAXOFF + MAXLEN + MARGIN) + 63) / 64 * 64)
#define MAXSLOTS (RAIDX_MAX_SOURCES + 1)

static const size_t lens[] = { 1, 31, 63, 64, 65, 511, 512, 513, 2048, MAXLEN };
#define NLENS (sizeof(lens) / sizeof(lens[0]))

/* ---- the oracle: GF(2^8) without tables ------------------------------- */

/* x * g = x * 2 modulo x^8 + x^4 + x^3 + x^2 + 1 (0x11d). */
static uint8_t xtime(uint8_t x)
{
	return (uint8_t)((x << 1) ^ ((x & 0x80) ? 0x1d : 0));
}

/*
 * p = D_lo ^ ... ^ D_hi and q = g^lo D_lo ^ ... ^ g^hi D_hi, by Horner's rule
 * from the top: q = (...(D_hi * g ^ D_hi-1) * g ...) ^ D_lo, then times
 * g^lo.  NULL blocks outside [lo, hi] are not read.
 */
static void oracle_pq(uint8_t *const *d, unsigned lo, unsigned hi,
		      size_t len, uint8_t *p, uint8_t *q)
{
	memcpy(p, d[hi], len);
	memcpy(q, d[hi], len);
	for (unsigned z = hi; z-- > lo;) {
		for (size_t i = 0; i < len; i++) {
			p[i] ^= d[z][i];
			q[i] = xtime(q[i]) ^ d[z][i];
		}
	}
	for (unsigned k = 0; k < lo; k++)
		for (size_t i = 0; i < len; i++)
			q[i] = xtime(q[i]);
}

/* ---- test state ------------------------------------------------------ */

struct row {
	const struct raidx__impl *impl;
	int runnable;
	unsigned long checks, fails;
	char first_fail[256];
};

/* One case: op, count (nsrc or disks), parameters, length, alignment. */
struct shape {
	enum raidx_op op;
	unsigned n;    /* nsrc for the XOR ops, disks for the others */
	unsigned a, b; /* window start/stop, or failed blocks */
	int alias;     /* XOR ops: srcs[a] is dst itself */
	size_t len;
	int unaligned;
};

static struct {
	uint8_t *orig, *want, *work; /* MAXSLOTS * SLOT each */
	unsigned nslots;
	size_t span; /* bytes of a slot in use: margins, offset, len */
	unsigned off[MAXSLOTS];
	uint64_t rng;
} T;

static uint64_t rnd(void)
{
	/* xorshift64*: plenty for test data, and reproducible from the seed. */
	T.rng ^= T.rng >> 12;
	T.rng ^= T.rng << 25;
	T.rng ^= T.rng >> 27;
	return T.rng * 0x2545f4914f6cdd1dull;
}

static void fill_random(uint8_t *p, size_t n)
{
	while (n >= 8) {
		uint64_t v = rnd();
		memcpy(p, &v, 8);
		p += 8;
		n -= 8;
	}
	if (n) {
		uint64_t v = rnd();
		memcpy(p, &v, n);
	}
}

static uint8_t *blk(uint8_t *buf, unsigned i)
{
	return buf + (size_t)i * SLOT + MARGIN + T.off[i];
}

static void set_ptrs(uint8_t *buf, void **p)
{
	for (unsigned i = 0; i < T.nslots; i++)
		p[i] = blk(buf, i);
}

static void copy_slots(uint8_t *dst, const uint8_t *src)
{
	for (unsigned i = 0; i < T.nslots; i++)
		memcpy(dst + (size_t)i * SLOT, src + (size_t)i * SLOT, T.span);
}

static void describe(const struct shape *s, char *buf, size_t n)
{
	const char *al = s->unaligned ? "unaligned" : "aligned";

	switch (s->op) {
	case RAIDX_OP_XOR_GEN:
	case RAIDX_OP_XOR_ACC:
		if (s->alias)
			snprintf(buf, n, "nsrc=%u len=%zu %s dst=srcs[%u]", s->n,
				 s->len, al, s->a);
		else
			snprintf(buf, n, "nsrc=%u len=%zu %s", s->n, s->len, al);
		break;
	case RAIDX_OP_XOR_SYNDROME:
		snprintf(buf, n, "disks=%u len=%zu %s window=%u..%u", s->n,
			 s->len, al, s->a, s->b);
		break;
	case RAIDX_OP_RECOV_2DATA:
		snprintf(buf, n, "disks=%u len=%zu %s fail=%u,%u", s->n, s->len,
			 al, s->a, s->b);
		break;
	case RAIDX_OP_RECOV_DATAP:
		snprintf(buf, n, "disks=%u len=%zu %s fail=%u,P", s->n, s->len,
			 al, s->a);
		break;
	default:
		snprintf(buf, n, "disks=%u len=%zu %s", s->n, s->len, al);
		break;
	}
}

static void slot_name(const struct shape *s, unsigned i, char *buf, size_t n)
{
	if (s->op == RAIDX_OP_XOR_GEN || s->op == RAIDX_OP_XOR_ACC) {
		if (i == 0)
			snprintf(buf, n, "dst");
		else
			snprintf(buf, n, "srcs[%u]", i - 1);
	} else if (i == s->n - 2) {
		snprintf(buf, n, "P");
	} else if (i == s->n - 1) {
		snprintf(buf, n, "Q");
	} else {
		snprintf(buf, n, "D%u", i);
	}
}

/* ---- building a case: the input image and the expected image ---------- */

static void prepare(const struct shape *s)
{
	static uint8_t p[MAXLEN], q[MAXLEN];
	static uint8_t *d[MAXSLOTS];
	unsigned ndata = s->n - 2;

	T.nslots = s->op <= RAIDX_OP_XOR_ACC ? s->n + 1 : s->n;
	T.span = MARGIN + MAXOFF + s->len + MARGIN;
	for (unsigned i = 0; i < T.nslots; i++) {
		/* Every block gets its own misalignment (odd steps, so that
		 * neighbours differ in every low bit). */
		T.off[i] = s->unaligned ? (7 + 13 * i + (unsigned)s->len) % MAXOFF : 0;
		fill_random(T.orig + (size_t)i * SLOT, T.span);
	}
	for (unsigned i = 0; i < T.nslots; i++)
		d[i] = blk(T.orig, i);

	switch (s->op) {
	case RAIDX_OP_XOR_GEN:
	case RAIDX_OP_XOR_ACC:
		/* d[0] is dst, d[1 + k] is srcs[k]; an aliased source reads
		 * the old contents of dst. */
		if (s->alias)
			d[1 + s->a] = d[0];
		memcpy(p, s->op == RAIDX_OP_XOR_ACC ? d[0] : d[1], s->len);
		for (unsigned k = s->op == RAIDX_OP_XOR_ACC ? 0 : 1; k < s->n; k++)
			for (size_t i = 0; i < s->len; i++)
				p[i] ^= d[1 + k][i];
		copy_slots(T.want, T.orig);
		memcpy(blk(T.want, 0), p, s->len);
		break;
	case RAIDX_OP_GEN_SYNDROME:
		oracle_pq(d, 0, ndata - 1, s->len, p, q);
		copy_slots(T.want, T.orig);
		memcpy(blk(T.want, ndata), p, s->len);
		memcpy(blk(T.want, ndata + 1), q, s->len);
		break;
	case RAIDX_OP_XOR_SYNDROME:
		oracle_pq(d, s->a, s->b, s->len, p, q);
		copy_slots(T.want, T.orig);
		for (size_t i = 0; i < s->len; i++) {
			blk(T.want, ndata)[i] ^= p[i];
			blk(T.want, ndata + 1)[i] ^= q[i];
		}
		break;
	case RAIDX_OP_RECOV_2DATA:
	case RAIDX_OP_RECOV_DATAP:
		/* A consistent stripe is what is expected back; then the lost
		 * blocks are overwritten with garbage in the input. */
		oracle_pq(d, 0, ndata - 1, s->len, d[ndata], d[ndata + 1]);
		copy_slots(T.want, T.orig);
		fill_random(d[s->a], s->len);
		fill_random(s->op == RAIDX_OP_RECOV_2DATA ? d[s->b] : d[ndata],
			    s->len);
		break;
	default:
		break;
	}
}

static void run(const struct raidx__impl *impl, const struct shape *s)
{
	void *p[MAXSLOTS];

	set_ptrs(T.work, p);
	switch (s->op) {
	case RAIDX_OP_XOR_GEN:
	case RAIDX_OP_XOR_ACC: {
		void **srcs = p + 1;
		if (s->alias)
			srcs[s->a] = p[0];
		raidx__run_xor(impl, p[0], (const void *const *)srcs, s->n,
			       s->len);
		break;
	}
	case RAIDX_OP_GEN_SYNDROME:
		raidx__run_gen_syndrome(impl, s->n, s->len, p);
		break;
	case RAIDX_OP_XOR_SYNDROME:
		/* The contract: data outside the window is not read, so its
		 * pointers may be NULL. */
		for (unsigned z = 0; z < s->n - 2; z++)
			if (z < s->a || z > s->b)
				p[z] = NULL;
		raidx__run_xor_syndrome(impl, s->n, s->a, s->b, s->len, p);
		break;
	case RAIDX_OP_RECOV_2DATA:
		raidx__run_recov_2data(impl, s->n, s->len, s->a, s->b, p);
		break;
	case RAIDX_OP_RECOV_DATAP:
		raidx__run_recov_datap(impl, s->n, s->len, s->a, p);
		break;
	default:
		break;
	}
}

/* Compare the work image with the expected one; 0 if equal. */
static int verify(struct row *r, const struct shape *s)
{
	for (unsigned i = 0; i < T.nslots; i++) {
		const uint8_t *got = T.work + (size_t)i * SLOT;
		const uint8_t *want = T.want + (size_t)i * SLOT;
		size_t k;

		if (!memcmp(got, want, T.span))
			continue;
		if (r->fails++)
			return 1;
		for (k = 0; got[k] == want[k]; k++)
			;
		char cs[128], name[32], where[96];
		long pos = (long)k - (long)(MARGIN + T.off[i]);
		describe(s, cs, sizeof(cs));
		slot_name(s, i, name, sizeof(name));
		if (pos < 0)
			snprintf(where, sizeof(where), "byte %ld before %s",
				 -pos, name);
		else if ((size_t)pos >= s->len)
			snprintf(where, sizeof(where), "byte %zu after %s",
				 (size_t)pos - s->len + 1, name);
		else
			snprintf(where, sizeof(where), "%s[%ld]", name, pos);
		snprintf(r->first_fail, sizeof(r->first_fail),
			 "%s: %s is 0x%02x, expected 0x%02x", cs, where, got[k],
			 want[k]);
		return 1;
	}
	return 0;
}

/* Make the margins of the work image unreadable (ASan) or readable again. */
static void poison_margins(size_t len, int poison)
{
#ifdef SELFTEST_ASAN
	for (unsigned i = 0; i < T.nslots; i++) {
		uint8_t *slot = T.work + (size_t)i * SLOT, *b = blk(T.work, i);
		if (poison) {
			ASAN_POISON_MEMORY_REGION(slot, (size_t)(b - slot));
			ASAN_POISON_MEMORY_REGION(b + len, T.span - (size_t)(b - slot) - len);
		} else {
			ASAN_UNPOISON_MEMORY_REGION(slot, T.span);
		}
	}
#else
	(void)len;
	(void)poison;
#endif
}

static void check(struct row *rows, unsigned nrows, const struct shape *s)
{
	prepare(s);
	for (unsigned r = 0; r < nrows; r++) {
		if (!rows[r].runnable)
			continue;
		copy_slots(T.work, T.orig);
		poison_margins(s->len, 1);
		run(rows[r].impl, s);
		poison_margins(s->len, 0);
		verify(&rows[r], s);
		rows[r].checks++;
	}
}

/*
 * Lengths and alignments for case k of the K cases of one disk count.  With
 * few cases each gets every length, aligned and not; with more, the lengths
 * are dealt out over the cases so that every length is still used at each
 * disk count, with the alignment alternating.
 */
static void check_lens(struct row *rows, unsigned nrows, struct shape s,
		       unsigned k, unsigned K)
{
	unsigned m = K < 3 ? K : 3;

	for (unsigned li = 0; li < NLENS; li++) {
		if (li % m != k % m)
			continue;
		s.len = lens[li];
		if (K == 1) {
			s.unaligned = 0;
			check(rows, nrows, &s);
			s.unaligned = 1;
			check(rows, nrows, &s);
		} else {
			s.unaligned = (int)((li + k) & 1);
			check(rows, nrows, &s);
		}
	}
}

static void run_op(enum raidx_op op, struct row *rows, unsigned nrows)
{
	static const unsigned nsrcs[] = { 1, 2, 3, 4, 5, 8, 17, 33, 256,
					  RAIDX_MAX_SOURCES };
	static const unsigned disks[] = { 3, 4, 5, 6, 10, 18, 34, 257 };
	struct shape s = { .op = op };

	if (op == RAIDX_OP_XOR_GEN || op == RAIDX_OP_XOR_ACC) {
		for (size_t c = 0; c < sizeof(nsrcs) / sizeof(nsrcs[0]); c++) {
			s.n = nsrcs[c];
			/* Many sources: fewer lengths, the point is the count. */
			unsigned K = s.n > 33 ? 3 : 1;
			for (unsigned k = 0; k < K; k++) {
				s.alias = 0;
				check_lens(rows, nrows, s, k, K);
				/* dst passed again as one of the sources: the
				 * first, a middle or the last one. */
				s.alias = 1;
				s.a = (s.n - 1) * (unsigned)((c + k) % 3) / 2;
				check_lens(rows, nrows, s, k, K);
			}
		}
		return;
	}

	for (size_t c = 0; c < sizeof(disks) / sizeof(disks[0]); c++) {
		unsigned n = disks[c], nd = n - 2;
		/* Windows or failed blocks: at most 36 (all windows of 8). */
		unsigned pairs[48][2], K = 0;

		s.n = n;
		switch (op) {
		case RAIDX_OP_GEN_SYNDROME:
			check_lens(rows, nrows, s, 0, 1);
			continue;
		case RAIDX_OP_XOR_SYNDROME:
			/* Every window [start, stop] of a small array. */
			if (nd <= 8) {
				for (unsigned a = 0; a < nd; a++)
					for (unsigned b = a; b < nd; b++) {
						pairs[K][0] = a;
						pairs[K++][1] = b;
					}
				break;
			}
			/* Large: the whole array, the ends, halves, a middle,
			 * and a few random windows. */
			{
				const unsigned w[][2] = {
					{ 0, nd - 1 }, { 0, 0 }, { nd - 1, nd - 1 },
					{ 0, nd / 2 - 1 }, { nd / 2, nd - 1 },
					{ nd / 4, 3 * nd / 4 }, { 1, nd - 2 },
				};
				for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
					pairs[K][0] = w[i][0];
					pairs[K++][1] = w[i][1];
				}
			}
			for (unsigned i = 0; i < 3; i++) {
				unsigned a = (unsigned)(rnd() % nd);
				unsigned b = (unsigned)(rnd() % nd);
				pairs[K][0] = a < b ? a : b;
				pairs[K++][1] = a < b ? b : a;
			}
			break;
		case RAIDX_OP_RECOV_2DATA:
			if (nd < 2)
				continue;
			/* Every pair of a small array, in both orders over the
			 * cases (raidx__run_recov_2data takes either). */
			if (nd <= 8) {
				for (unsigned a = 0; a < nd; a++)
					for (unsigned b = a + 1; b < nd; b++) {
						pairs[K][K & 1] = a;
						pairs[K][!(K & 1)] = b;
						K++;
					}
				break;
			}
			{
				const unsigned f[][2] = {
					{ 0, 1 }, { nd - 1, 0 }, { nd - 2, nd - 1 },
					{ nd / 2, nd / 2 + 1 },
				};
				for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
					pairs[K][0] = f[i][0];
					pairs[K++][1] = f[i][1];
				}
			}
			while (K < 8) {
				unsigned a = (unsigned)(rnd() % nd);
				unsigned b = (unsigned)(rnd() % nd);
				if (a == b)
					continue;
				pairs[K][0] = a;
				pairs[K++][1] = b;
			}
			break;
		case RAIDX_OP_RECOV_DATAP:
			/* Every data block of a small array. */
			if (nd <= 16) {
				for (unsigned a = 0; a < nd; a++)
					pairs[K++][0] = a;
				break;
			}
			pairs[K++][0] = 0;
			pairs[K++][0] = nd - 1;
			pairs[K++][0] = nd / 2;
			for (unsigned i = 0; i < 3; i++)
				pairs[K++][0] = (unsigned)(rnd() % nd);
			break;
		default:
			continue;
		}
		for (unsigned k = 0; k < K; k++) {
			s.a = pairs[k][0];
			s.b = pairs[k][1];
			check_lens(rows, nrows, s, k, K);
		}
	}
}

/* ---- the subcommand -------------------------------------------------- */

static void print_features(uint32_t mask)
{
	for (unsigned b = 0; b < 32; b++) {
		const char *name = raidx_cpu_feature_name(1u << b);
		if ((mask & (1u << b)) && name)
			printf(" %s", name);
	}
}

static int usage(FILE *f, int status)
{
	fprintf(f, "usage: raidx selftest [--seed N]\n"
		   "Checks every implementation this CPU can run; exits 1 on"
		   " any failure.\n");
	return status;
}

int raidx_tool_selftest(int argc, char **argv)
{
	static struct row rows[64];
	unsigned long long seed = 1;
	unsigned passed = 0, failed = 0, skipped = 0;
	size_t wimpl = 4;
	struct timespec t0, t1;

	for (int i = 1; i < argc; i++) {
		char *end;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return usage(stdout, 0);
		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			/* decimal, 0x hex or 0 octal; strtoull would take "-1"
			 * as 2^64 - 1 and clamp what overflows */
			errno = 0;
			seed = strtoull(argv[++i], &end, 0);
			if (*end || !*argv[i] || errno || strchr(argv[i], '-')) {
				fprintf(stderr, "raidx selftest: bad --seed '%s'\n",
					argv[i]);
				return usage(stderr, 2);
			}
		} else if (!strcmp(argv[i], "--seed")) {
			fprintf(stderr, "raidx selftest: --seed needs a value\n");
			return usage(stderr, 2);
		} else {
			fprintf(stderr, "raidx selftest: unknown argument '%s'\n",
				argv[i]);
			return usage(stderr, 2);
		}
	}

	size_t bytes = (size_t)MAXSLOTS * SLOT;
	T.orig = aligned_alloc(64, bytes);
	T.want = aligned_alloc(64, bytes);
	T.work = aligned_alloc(64, bytes);
	if (!T.orig || !T.want || !T.work) {
		fprintf(stderr, "raidx selftest: out of memory\n");
		free(T.orig);
		free(T.want);
		free(T.work);
		return 1;
	}
	/* xorshift must not start at 0: it would return 0 for ever (all data
	 * zero, and the random failure pairs below never distinct). */
	T.rng = seed ^ 0x9e3779b97f4a7c15ull;
	if (!T.rng)
		T.rng = 0x9e3779b97f4a7c15ull;

	uint32_t active = raidx_cpu_features(), raw = raidx__cpu_detect();
	printf("raidx selftest %s, seed %llu, cpu", raidx_version(), seed);
	print_features(active);
	printf("\n");

	for (int op = 0; op < RAIDX_OP_COUNT; op++) {
		const struct raidx__impl *const *list;
		unsigned n = raidx__impl_list(op, &list);
		for (unsigned i = 0; i < n; i++)
			if (strlen(list[i]->name) > wimpl)
				wimpl = strlen(list[i]->name);
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int op = 0; op < RAIDX_OP_COUNT; op++) {
		const struct raidx__impl *const *list;
		unsigned n = raidx__impl_list(op, &list);

		if (n > sizeof(rows) / sizeof(rows[0]))
			n = sizeof(rows) / sizeof(rows[0]);
		for (unsigned i = 0; i < n; i++) {
			memset(&rows[i], 0, sizeof(rows[i]));
			rows[i].impl = list[i];
			rows[i].runnable = raidx__impl_runnable(list[i]);
		}
		run_op(op, rows, n);

		for (unsigned i = 0; i < n; i++) {
			const struct row *r = &rows[i];
			printf("%-12s  %-*s  ", raidx_op_name(op), (int)wimpl,
			       r->impl->name);
			if (!r->runnable) {
				uint32_t missing = r->impl->features & ~active;
				printf("SKIP  needs");
				print_features(missing);
				printf(missing & ~raw ? " (not on this CPU)\n" :
					" (masked by RAIDX_DISABLE)\n");
				skipped++;
			} else if (r->fails) {
				printf("FAIL  %lu of %lu checks\n", r->fails,
				       r->checks);
				printf("      first: %s\n", r->first_fail);
				failed++;
			} else {
				printf("PASS  %lu checks\n", r->checks);
				passed++;
			}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	free(T.orig);
	free(T.want);
	free(T.work);
	printf("time %.2f s\n", (double)(t1.tv_sec - t0.tv_sec) +
					 (t1.tv_nsec - t0.tv_nsec) / 1e9);
	printf("selftest: %u passed, %u failed, %u skipped\n", passed, failed,
	       skipped);
	return failed ? 1 : 0;
}
