/*
 * test_util.c - see test_util.h.  Calls nothing in libraidx.
 */
#include "test_util.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

uint64_t t_seed;
int t_quick;
struct rng t_rng;
unsigned long t_failures;

static const char *t_name = "test";
static char ctx[512];
static struct timespec t_start;

/* ---- PRNG ------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

uint32_t rng_below(struct rng *r, uint32_t n)
{
	/* Multiply-shift: bias below 2^-32, irrelevant here. */
	return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

size_t rng_range(struct rng *r, size_t lo, size_t hi)
{
	return lo + (size_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

void rng_fill(struct rng *r, void *buf, size_t n)
{
	uint8_t *p = buf;

	while (n >= 8) {
		uint64_t v = rng_next(r);
		memcpy(p, &v, 8);
		p += 8;
		n -= 8;
	}
	if (n) {
		uint64_t v = rng_next(r);
		memcpy(p, &v, n);
	}
}

/* ---- run, context, failures ------------------------------------------ */

static struct tstripe *live[64]; /* for describing a faulting address */

static const char *describe_addr(const uint8_t *a)
{
	static char buf[160];

	for (unsigned k = 0; k < sizeof(live) / sizeof(live[0]); k++) {
		struct tstripe *s = live[k];
		if (!s || a < s->map || a >= s->map + s->maplen)
			continue;
		for (unsigned i = 0; i < s->n; i++) {
			const uint8_t *b = s->base[i];
			/* A guard page sits between two areas: name the block whose
			 * edge is nearer (before block i, or past the end of i-1). */
			long before = (long)(s->blk[i] - a);
			long past = i ? (long)(a - (s->blk[i - 1] + s->len)) : -1;
			if (a >= b - s->page && a < b && (past < 0 || before <= past))
				snprintf(buf, sizeof buf,
					 "guard page before block %u (%ld bytes before its start)",
					 i, before);
			else if (a >= b - s->page && a < b)
				snprintf(buf, sizeof buf,
					 "guard page after block %u (%ld bytes past its end)",
					 i - 1, past);
			else if (i == s->n - 1 && a >= b + s->area &&
				 a < b + s->area + s->page)
				snprintf(buf, sizeof buf,
					 "guard page after block %u (%ld bytes past its end)",
					 i, (long)(a - (s->blk[i] + s->len)));
			else if (a >= b && a < b + s->area)
				snprintf(buf, sizeof buf,
					 "block %u, read-only here: a write to an input block",
					 i);
			else
				continue;
			return buf;
		}
	}
	if ((uintptr_t)a < 65536)
		return "near address 0: a NULL block pointer was dereferenced";
	return "not in a test stripe";
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	char buf[1200];
	(void)uc;
	int n = snprintf(buf, sizeof buf,
			 "\nFAIL %s: %s at address %p: %s\n  during: %s\n"
			 "  seed=0x%016llx (RAIDX_TEST_SEED=0x%016llx to repeat)\n",
			 t_name, sig == SIGSEGV ? "SIGSEGV" : "SIGBUS", si->si_addr,
			 describe_addr(si->si_addr), ctx,
			 (unsigned long long)t_seed, (unsigned long long)t_seed);
	if (n > 0) {
		ssize_t w = write(2, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
		(void)w;
	}
	_exit(1);
}

void t_init(int argc, char **argv, const char *name)
{
	const char *e;
	struct sigaction sa;

	t_name = name;
	clock_gettime(CLOCK_MONOTONIC, &t_start);
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			t_quick = 1;
		} else {
			fprintf(stderr, "usage: %s [--quick]\n"
				"  env RAIDX_TEST_SEED=N  replay a seed\n"
				"  env RAIDX_TEST_QUICK=1 smaller loops (valgrind, qemu)\n",
				argv[0]);
			exit(2);
		}
	}
	e = getenv("RAIDX_TEST_QUICK");
	if (e && *e && strcmp(e, "0"))
		t_quick = 1;

	e = getenv("RAIDX_TEST_SEED");
	if (e && *e) {
		char *end;
		t_seed = strtoull(e, &end, 0);
		if (*end) {
			fprintf(stderr, "%s: bad RAIDX_TEST_SEED '%s'\n", name, e);
			exit(2);
		}
	} else {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t x = (uint64_t)ts.tv_sec * 1000000007ull ^
			     (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 40);
		t_seed = splitmix64(&x);
	}
	rng_seed(&t_rng, t_seed);
	printf("%s: seed=0x%016llx%s (RAIDX_TEST_SEED=0x%016llx to repeat)\n",
	       name, (unsigned long long)t_seed, t_quick ? " quick" : "",
	       (unsigned long long)t_seed);

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

double t_elapsed(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t_start.tv_sec) +
	       (double)(now.tv_nsec - t_start.tv_nsec) * 1e-9;
}

int t_done(void)
{
	if (t_failures) {
		printf("FAIL %s: %lu failure(s), seed=0x%016llx, %.2f s\n", t_name,
		       t_failures, (unsigned long long)t_seed, t_elapsed());
		return 1;
	}
	printf("PASS %s (%.2f s)\n", t_name, t_elapsed());
	return 0;
}

void t_ctx(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx, sizeof ctx, fmt, ap);
	va_end(ap);
}

const char *t_ctx_str(void)
{
	return ctx;
}

void t_fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "FAIL %s: ", t_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n  during: %s\n  seed=0x%016llx (RAIDX_TEST_SEED=0x%016llx to repeat)\n",
		ctx, (unsigned long long)t_seed, (unsigned long long)t_seed);
	if (++t_failures >= 20) {
		fprintf(stderr, "%s: too many failures, stopping\n", t_name);
		exit(1);
	}
}

int t_cmp(const char *what, const void *got, const void *exp, size_t n)
{
	const uint8_t *g = got, *e = exp;

	if (!memcmp(g, e, n))
		return 1;
	size_t i = 0, ndiff = 0;
	while (g[i] == e[i])
		i++;
	for (size_t j = i; j < n; j++)
		ndiff += g[j] != e[j];
	t_fail("%s differs: first differing byte index %zu of %zu: got 0x%02x, "
	       "expected 0x%02x (%zu bytes differ)",
	       what, i, n, g[i], e[i], ndiff);
	return 0;
}

int t_expect_int(const char *what, long got, long exp)
{
	if (got == exp)
		return 1;
	t_fail("%s returned %ld, expected %ld", what, got, exp);
	return 0;
}

void t_log(const char *fmt, ...)
{
	va_list ap;
	printf("%s: [%6.2fs] ", t_name, t_elapsed());
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void *t_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "%s: out of memory (%zu bytes)\n", t_name, n);
		exit(1);
	}
	return p;
}

void *t_dup(const void *p, size_t n)
{
	void *q = t_malloc(n);
	memcpy(q, p, n);
	return q;
}

/* ---- guarded stripes -------------------------------------------------- */

struct tstripe *ts_new(unsigned n, size_t cap)
{
	struct tstripe *s = t_malloc(sizeof *s);
	long pg = sysconf(_SC_PAGESIZE);

	s->n = n;
	s->nuse = n;
	s->cap = cap;
	s->page = pg > 0 ? (size_t)pg : 4096;
	/* Room for a 64-byte offset, the spread and the canaries on both
	 * sides. */
	s->area = (cap + 2 * T_CANARY + 64 + PL_SPREAD_MAX + s->page - 1) /
		  s->page * s->page;
	s->maplen = (size_t)n * (s->area + s->page) + s->page;
	s->map = mmap(NULL, s->maplen, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->map == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	s->base = t_malloc(n * sizeof(*s->base));
	s->blk = t_malloc(n * sizeof(*s->blk));
	s->ro = t_malloc(n);
	for (unsigned i = 0; i < n; i++) {
		s->base[i] = s->map + s->page + (size_t)i * (s->area + s->page);
		if (mprotect(s->base[i], s->area, PROT_READ | PROT_WRITE)) {
			perror("mprotect");
			exit(1);
		}
		s->ro[i] = 0;
		s->blk[i] = s->base[i];
	}
	s->len = 0;
	s->place = PL_START;
	s->off = 0;
	for (unsigned k = 0; k < sizeof(live) / sizeof(live[0]); k++)
		if (!live[k]) {
			live[k] = s;
			break;
		}
	return s;
}

void ts_free(struct tstripe *s)
{
	if (!s)
		return;
	for (unsigned k = 0; k < sizeof(live) / sizeof(live[0]); k++)
		if (live[k] == s)
			live[k] = NULL;
	munmap(s->map, s->maplen);
	free(s->base);
	free(s->blk);
	free(s->ro);
	free(s);
}

void ts_use(struct tstripe *s, unsigned n)
{
	s->nuse = n < s->n ? n : s->n;
}

/* Canary byte at offset j of area i: changes with the position, so that a
 * block copied or shifted over its neighbourhood is still noticed. */
static uint8_t canary(unsigned i, size_t j)
{
	return (uint8_t)(0xa5 ^ (i * 29) ^ (j * 13) ^ (j >> 8));
}

static void canary_range(struct tstripe *s, unsigned i, size_t *lo0,
			 size_t *hi0, size_t *lo1, size_t *hi1)
{
	size_t b = (size_t)(s->blk[i] - s->base[i]);
	*lo0 = b > T_CANARY ? b - T_CANARY : 0;
	*hi0 = b;
	*lo1 = b + s->len;
	*hi1 = b + s->len + T_CANARY < s->area ? b + s->len + T_CANARY : s->area;
}

void ts_place(struct tstripe *s, size_t len, int place, unsigned off)
{
	if (len > s->cap) {
		fprintf(stderr, "ts_place: len %zu > cap %zu\n", len, s->cap);
		abort();
	}
	ts_ro_all(s, 0);
	s->len = len;
	s->place = place;
	s->off = off;
	for (unsigned i = 0; i < s->nuse; i++) {
		uint8_t *b = s->base[i];
		switch (place) {
		case PL_END:
			s->blk[i] = b + s->area - len;
			break;
		case PL_START:
			s->blk[i] = b;
			break;
		case PL_OFF:
			s->blk[i] = b + T_CANARY + 32 + off % 64;
			break;
		case PL_MIX:
			s->blk[i] = b + T_CANARY + 32 + (off + 37u * i) % 64;
			break;
		default:
			s->blk[i] = b + T_CANARY + 32 + (off + 37u * i) % 64 +
				    64 * ((3u * i) % 16);
			break;
		}
		size_t lo0, hi0, lo1, hi1;
		canary_range(s, i, &lo0, &hi0, &lo1, &hi1);
		for (size_t j = lo0; j < hi0; j++)
			b[j] = canary(i, j);
		for (size_t j = lo1; j < hi1; j++)
			b[j] = canary(i, j);
	}
}

int ts_check(struct tstripe *s)
{
	for (unsigned i = 0; i < s->nuse; i++) {
		const uint8_t *b = s->base[i];
		if (s->ro[i])
			continue;
		size_t r[4];
		canary_range(s, i, &r[0], &r[1], &r[2], &r[3]);
		for (int k = 0; k < 4; k += 2)
			for (size_t j = r[k]; j < r[k + 1]; j++)
				if (b[j] != canary(i, j)) {
					long rel = (long)j - (long)(s->blk[i] - b);
					t_fail("byte written outside block %u: at %ld %s "
					       "(block len %zu)", i,
					       rel < 0 ? rel : rel - (long)s->len,
					       rel < 0 ? "before its start" : "past its end",
					       s->len);
					return 0;
				}
	}
	return 1;
}

void ts_ro(struct tstripe *s, unsigned i, int ro)
{
	if (s->ro[i] == !!ro)
		return;
	if (mprotect(s->base[i], s->area, ro ? PROT_READ : PROT_READ | PROT_WRITE)) {
		perror("mprotect");
		exit(1);
	}
	s->ro[i] = !!ro;
}

void ts_ro_all(struct tstripe *s, int ro)
{
	for (unsigned i = 0; i < s->n; i++)
		ts_ro(s, i, ro);
}

void ts_fill(struct tstripe *s, unsigned i, struct rng *r)
{
	rng_fill(r, s->blk[i], s->len);
}

const char *pl_name(int place)
{
	static const char *const names[] = { "end", "start", "off", "mix", "spread" };
	return place >= 0 && place < PL_COUNT ? names[place] : "?";
}

/* ---- the tests' own field arithmetic ---------------------------------- */

uint8_t tm_mul(uint8_t a, uint8_t b)
{
	unsigned r = 0;

	/* Carry-less product: XOR of a shifted by each set bit of b. */
	for (int i = 0; i < 8; i++)
		if (b >> i & 1)
			r ^= (unsigned)a << i;
	/* Reduce modulo x^8 + x^4 + x^3 + x^2 + 1 from the top bit down. */
	for (int i = 14; i >= 8; i--)
		if (r >> i & 1)
			r ^= 0x11du << (i - 8);
	return (uint8_t)r;
}

uint8_t tm_pow2(unsigned n)
{
	uint8_t v = 1;
	for (unsigned i = 0; i < n % 255; i++)
		v = tm_mul(v, 2);
	return v;
}

void tm_pq(unsigned ndata, size_t len, const uint8_t *const *d, uint8_t *p,
	   uint8_t *q)
{
	static uint8_t mt[255][256]; /* mt[z][x] = 2^z * x, from tm_mul */
	static int ready;

	if (!ready) {
		uint8_t g = 1;
		for (unsigned z = 0; z < 255; z++) {
			for (unsigned x = 0; x < 256; x++)
				mt[z][x] = tm_mul(g, (uint8_t)x);
			g = tm_mul(g, 2);
		}
		ready = 1;
	}
	memset(p, 0, len);
	memset(q, 0, len);
	for (unsigned z = 0; z < ndata; z++)
		for (size_t i = 0; i < len; i++) {
			p[i] ^= d[z][i];
			q[i] ^= mt[z % 255][d[z][i]];
		}
}

/* ---- lengths ----------------------------------------------------------- */

/* Both sides of every power-of-two granule up to 4096 (bulk only, bulk and
 * a 1-byte tail, bulk and a nearly full tail), and 2047+64. */
const size_t t_granule_lens[] = {
	1,    7,    8,    9,    15,   16,   17,   31,   32,   33,   63,   64,
	65,   127,  128,  129,  255,  256,  257,  511,  512,  513,  767,  1023,
	1024, 1025, 1535, 2047, 2048, 2049, 2111, 3071, 4095, 4096, 4097, 8191,
	8192, 8193,
};
const unsigned t_ngranule_lens = sizeof(t_granule_lens) / sizeof(t_granule_lens[0]);
