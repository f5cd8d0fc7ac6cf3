/*
 * test_util.h - what every raidx test shares: the seeded PRNG, failure
 * reports that carry enough context to replay a failure, guarded stripes
 * (blocks placed against PROT_NONE pages, with canaries) and the tests' own
 * GF(2^8) arithmetic.
 *
 * Nothing here calls the library, so test_threads can use it before its
 * first call into raidx, and the field arithmetic is an independent oracle
 * for the library's generated tables.
 */
#ifndef RAIDX_TEST_UTIL_H
#define RAIDX_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define T_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define T_PRINTF(a, b)
#endif

/* ---- PRNG: xoshiro256** seeded through splitmix64 ---------------------- */
struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n), n > 0. */
uint32_t rng_below(struct rng *r, uint32_t n);
/* Uniform in [lo, hi]. */
size_t rng_range(struct rng *r, size_t lo, size_t hi);
void rng_fill(struct rng *r, void *buf, size_t n);

/* ---- test run: seed, quick mode, failures ---------------------------- */
extern uint64_t t_seed;  /* printed at start; RAIDX_TEST_SEED overrides */
extern int t_quick;      /* --quick or RAIDX_TEST_QUICK=1: smaller loops */
extern struct rng t_rng; /* seeded with t_seed */
extern unsigned long t_failures;

/* Parse --quick, read RAIDX_TEST_SEED / RAIDX_TEST_QUICK, print the seed,
 * install the SIGSEGV/SIGBUS reporter.  Calls nothing in the library. */
void t_init(int argc, char **argv, const char *name);
/* Print PASS/FAIL with the elapsed time; the process exit status. */
int t_done(void);
/* Seconds since t_init(). */
double t_elapsed(void);

/* The operation being run, shown with every failure and with a crash
 * (e.g. "op=gen_syndrome impl=int64x2 disks=7 len=300 place=end"). */
void t_ctx(const char *fmt, ...) T_PRINTF(1, 2);
const char *t_ctx_str(void);

/* Report a failure with the context and the seed.  After 20 failures the
 * process exits: the first ones are the useful ones. */
void t_fail(const char *fmt, ...) T_PRINTF(1, 2);
/* Compare n bytes; on a difference report `what`, the first differing
 * index and both bytes.  Returns 1 when equal. */
int t_cmp(const char *what, const void *got, const void *exp, size_t n);
/* Check an integer result. */
int t_expect_int(const char *what, long got, long exp);

/* Progress/coverage line, prefixed with the test name. */
void t_log(const char *fmt, ...) T_PRINTF(1, 2);

void *t_malloc(size_t n);
void *t_dup(const void *p, size_t n);

/* ---- guarded stripes ------------------------------------------------- */
/*
 * n blocks, each in its own page-aligned area of at least cap + 192 bytes,
 * every area between two PROT_NONE guard pages.  ts_place() puts every
 * block of the stripe at one of:
 *   PL_END    last byte right before the guard page after it
 *   PL_START  first byte right after the guard page before it
 *   PL_OFF    at offset `off` (0..63) from a 64-byte boundary
 *   PL_MIX    block i at offset (off + 37 i) % 64: mutually misaligned
 *   PL_SPREAD as PL_MIX, and block i a further 64 * (3 i % 16) bytes in:
 *             the blocks start in 16 different L1 sets.  Every other
 *             placement starts all blocks in one set (or two), which the
 *             x86 kernels handle in group passes (x86_kernels.h,
 *             rxk_crowded); this one keeps them in their one-pass loops
 * and fills up to T_CANARY bytes on each side with a position-dependent
 * pattern that ts_check() verifies.  So an over-read or over-write at the
 * guarded end faults, and a stray write elsewhere near the block is caught.
 * Blocks can be made read-only so that a write to an input faults.
 */
enum { PL_END, PL_START, PL_OFF, PL_MIX, PL_SPREAD, PL_COUNT };
#define PL_SPREAD_MAX (64 * 15)
#define T_CANARY 96

struct tstripe {
	unsigned n;
	unsigned nuse;  /* blocks placed and checked (ts_use) */
	size_t cap, area, page, maplen, len;
	int place;
	unsigned off;
	uint8_t *map;
	uint8_t **base; /* accessible area of block i */
	uint8_t **blk;  /* where block i is now */
	uint8_t *ro;    /* block i is read-only */
};

struct tstripe *ts_new(unsigned n, size_t cap);
void ts_free(struct tstripe *s);
/* Only blocks 0..n-1 are in use from the next ts_place() on (all at first):
 * the others are neither placed nor checked. */
void ts_use(struct tstripe *s, unsigned n);
/* Place every block (all made writable first) and arm the canaries. */
void ts_place(struct tstripe *s, size_t len, int place, unsigned off);
/* Verify the canaries of every block in use (a read-only block cannot have
 * been written); 1 when intact. */
int ts_check(struct tstripe *s);
void ts_ro(struct tstripe *s, unsigned i, int ro);
void ts_ro_all(struct tstripe *s, int ro);
void ts_fill(struct tstripe *s, unsigned i, struct rng *r);
const char *pl_name(int place);

/* ---- the tests' own GF(2^8), poly 0x11d, generator 2 ------------------ */
/* Carry-less multiply, then reduction bit by bit: the definition. */
uint8_t tm_mul(uint8_t a, uint8_t b);
/* 2^n by repeated doubling. */
uint8_t tm_pow2(unsigned n);
/* P and Q of data blocks d[0..ndata-1] into p and q, straight from the
 * definition Q = sum 2^z D_z (tables built from tm_mul, not the library's). */
void tm_pq(unsigned ndata, size_t len, const uint8_t *const *d, uint8_t *p,
	   uint8_t *q);

/* ---- lengths --------------------------------------------------------- */
/* Lengths around the granules of wide kernels (bulk and tail). */
extern const size_t t_granule_lens[];
extern const unsigned t_ngranule_lens;

#endif
