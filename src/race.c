/*
 * race.c - calls that stream from memory pick their kernel by timing
 * themselves.
 *
 * Why: beyond the last-level cache the fastest kernel is not a property of
 * the CPU but of the moment.  On the Turin-like Zen 5 of 2026-12-05 a
 * program that alternated kernels on one 16+2 xor_syndrome window [8,15]
 * of 16 MiB blocks for 40 s (best of each second) read gfni_avx512x4 at
 * 1.02-1.04x of avx512x1 for 18 s, then 0.85-0.87x for the next 20 s, on
 * the same buffers; 8+2 [0,7] went from 44 to 35 GB/s at one second with
 * gfni_avx2x2 from last to first.  Default raidx bench runs missed the
 * 0.95 goal on 5-13 of their 42 cells of 16 MiB in every run of the eleven
 * passes before, whatever the start-up pick was, because the pick cannot
 * see the state the call will run in.  A call of that size, though, lasts
 * a millisecond or more: timing it costs two clock reads (tens of
 * nanoseconds), and the state lasts seconds, hundreds of calls.
 *
 * How: per operation a small table of call shapes (the op's block count,
 * window or lost blocks, and length: calls of one shape are comparable by
 * time alone).  The first calls of a shape run every candidate once (the
 * op's selectable kernels within RACE_PRIO_SPAN of priority of the best,
 * so portable code next to AVX-512 is not tried), then the RACE_KEEP
 * fastest of them (the size-class pick always among them) twice more, in
 * turn, each time two calls in a row of which the second is timed; the
 * leader is the fastest by its better timed call, and the pick itself
 * where it is within RACE_PICK_TIE of that, so a shape whose candidates are
 * level keeps the calibrated choice.  After that two calls in RACE_PROBE
 * run one of the kept rivals in turn, the second timed; a rival whose
 * call beats the leader's moving average (1/8 weight per call) by
 * RACE_TIE runs the next call too, timed, and takes the lead if that one
 * beats it as well.
 *
 * Why probes that often, and confirmed at once: the state that decides the
 * order lasts seconds, but a call that races is rarely alone in them.  In
 * raidx bench a raced cell's row makes tens of calls after learning (one
 * per round, 18-63 per recheck) among the other rows' calls, over a second
 * or two, and a throwaway program alternating two kernels on 16 MiB blocks
 * read 8+2 [0,4] gfni_avx512x4 at 0.97, 1.12 and 1.00-1.07x of avx2x2's
 * time in three runs a few seconds apart.  With two calls in 32 and the
 * second win at the rival's next probe (three rivals: 96 calls later), a
 * rival took about 200 calls to lead, and in a traced run of the 18 raced
 * cells of gen_syndrome and xor_syndrome none did; now it takes at most
 * 49 calls, 3 x 16 + 1 (test_race).  Six alternations of `raidx bench
 * --len 16m` (42 cells each; Turin-like Zen 5, 2026-12-06): cells whose
 * rechecked pick read below 0.95 went from 4, 4, 2, 4, 1, 4 to 0, 2, 1,
 * 0, 5, 0, and the mean rechecked ratio rose in 5 of the 6 pairs
 * (0.984-0.993 to 0.986-0.995).
 *
 * Why the first round only prunes: its first call is often the first on
 * freshly written blocks (raidx bench's check before it times a row, an
 * application's first write), and with the leader taken from both rounds
 * the pick, which runs first, read fastest in 9 of 15 cells of a 16 MiB
 * run, by up to 10%.
 *
 * Why two calls at a time: beyond the LLC no block is read again from
 * the cache, but a normal-store kernel leaves the LLC full of dirty lines
 * that the next call writes back, whatever kernel it runs.  Timed right
 * after a streaming (non-temporal) kernel, a normal-store one reads faster
 * than it runs in a row: with every call timed, avx2x4 and avx2x2 led
 * 16+2 rebuilds at 16 MiB by 8-20% in their learning calls after
 * gfni_avx512nt, and then read 0.91-0.93 of gfni_avx512nt in raidx
 * bench's rechecks of the same cells.  So a candidate's first call after
 * another kernel is not timed, nor the leader's first after a probe.
 *
 * Why only from memory (raidx__race_limit, select.c: the recoveries'
 * large class, the LLC and an eighth): a race of the non-temporal and the
 * normal-store twin between the L2 and the LLC was tried (2026-12-01,
 * select.c "Size classes") and dropped: there a store policy is paid for
 * largely by the calls after it (reads of its output from the cache, or
 * not), which a probe of one or two calls cannot see.  Beyond the LLC
 * only the write-back is carried over, and one untimed call absorbs it.
 *
 * Threads: every field is an atomic, read and written relaxed.  Two
 * threads on one shape share its table entry (their calls contend for the
 * same memory, so each sees the same state).  A shape has two places in
 * the table; when both hold other shapes called within the last second,
 * its calls run the pick unraced rather than evict one.  A torn update
 * (one thread's leader with another's times) can only make a call run a
 * slower candidate for a while: every candidate computes the same bytes.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "raidx_impl.h"

/* Candidates more than this far below the op's best priority are not
 * raced: on x86 that leaves SSE2 and portable code out where AVX2 or
 * better runs (priorities 20-25 and 10-12 against 35-61). */
#define RACE_PRIO_SPAN 30
/* Kept after the first round: on Zen 5 the cells' leaders at 16 MiB came
 * from four or five kernels per op, and the fastest two or three by one
 * call each are within a few percent. */
#define RACE_KEEP RAIDX__RACE_KEEP
/* Two calls in this many probe a rival: a rival 15% slower (the largest
 * gap between the kept ones in the states above) costs 2%, one 5% slower
 * (most of them) 0.6%. */
#define RACE_PROBE RAIDX__RACE_PROBE
/* A probed rival must be this much faster than the leader's moving
 * average to lead (percent of the leader's time). */
#define RACE_TIE 97
/* The pick keeps the lead after learning unless another candidate was
 * this much faster (percent): two timed calls each are noisy by several
 * percent from memory (in one 16 MiB run xor_acc of 8 sources took avx2
 * on 7% in its learning calls, then ran 0.76-0.82 of avx512 in the cell),
 * while the gaps the race is for are 10-20% (8+2 losing disk 3, the
 * 16 MiB states above). */
#define RACE_PICK_TIE 95
/* A shape's place in the table goes to a new shape after this long
 * without a call: a second, thousands of calls from memory. */
#define RACE_IDLE_NS 1000000000u

struct race_cands {
	unsigned n;
	const struct raidx__impl *c[RAIDX__RACE_MAX];
};

static struct race_cands cands[RAIDX_OP_COUNT];
static pthread_once_t cands_once = PTHREAD_ONCE_INIT;
static struct raidx__race_slot slots[RAIDX_OP_COUNT][RAIDX__RACE_SLOTS];

static void cands_once_fn(void)
{
	for (int op = 0; op < RAIDX_OP_COUNT; op++) {
		const struct raidx__impl *const *list;
		unsigned cnt = raidx__impl_list((enum raidx_op)op, &list);
		int top = -1;
		struct race_cands *rc = &cands[op];

		for (unsigned i = 0; i < cnt; i++)
			if (raidx__impl_selectable(list[i]) && list[i]->priority > top)
				top = list[i]->priority;
		/* by priority, highest first (insertion: a dozen entries) */
		const struct raidx__impl *all[64];
		unsigned na = 0;
		for (unsigned i = 0; i < cnt && na < 64; i++) {
			const struct raidx__impl *p = list[i];
			if (!raidx__impl_selectable(p) || p->priority + RACE_PRIO_SPAN < top)
				continue;
			unsigned j = na++;
			for (; j > 0 && all[j - 1]->priority < p->priority; j--)
				all[j] = all[j - 1];
			all[j] = p;
		}
		rc->n = na < RAIDX__RACE_MAX ? na : RAIDX__RACE_MAX;
		for (unsigned i = 0; i < rc->n; i++)
			rc->c[i] = all[i];
	}
}

static uint64_t ld64(_Atomic uint64_t *p)
{
	return atomic_load_explicit(p, memory_order_relaxed);
}

static void st64(_Atomic uint64_t *p, uint64_t v)
{
	atomic_store_explicit(p, v, memory_order_relaxed);
}

static unsigned ld32(_Atomic uint32_t *p)
{
	return atomic_load_explicit(p, memory_order_relaxed);
}

static void st32(_Atomic uint32_t *p, unsigned v)
{
	atomic_store_explicit(p, v, memory_order_relaxed);
}

static unsigned popcount32(uint32_t v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* The k-th set bit of m (k < popcount(m)). */
static unsigned nth_bit(uint32_t m, unsigned k)
{
	for (; k; k--)
		m &= m - 1;
	return (unsigned)__builtin_ctz(m);
}

/* After the first round: the pick and the RACE_KEEP - 1 fastest others
 * by their one call (a candidate whose call has not ended yet, on
 * another thread, is left out). */
static uint32_t keep_set(struct raidx__race_slot *s, unsigned nc, unsigned pref)
{
	uint32_t kept = 1u << pref;

	for (unsigned k = 1; k < RACE_KEEP && k < nc; k++) {
		int best = -1;
		for (unsigned c = 0; c < nc; c++) {
			uint64_t t = ld64(&s->t[c]);
			if ((kept >> c & 1) || !t)
				continue;
			if (best < 0 || t < ld64(&s->t[best]))
				best = (int)c;
		}
		if (best < 0)
			break;
		kept |= 1u << best;
	}
	return kept;
}

/* The leader after the second round: the fastest kept candidate by its
 * better call, or the pick when within RACE_PICK_TIE of it. */
static unsigned first_leader(struct raidx__race_slot *s, uint32_t kept, unsigned pref)
{
	unsigned best = pref;
	uint64_t tb = ld64(&s->t[pref]);

	for (uint32_t m = kept; m; m &= m - 1) {
		unsigned c = (unsigned)__builtin_ctz(m);
		uint64_t t = ld64(&s->t[c]);
		if (t && (!tb || t < tb))
			best = c, tb = t;
	}
	uint64_t tp = ld64(&s->t[pref]);
	if (tp && tp * RACE_PICK_TIE <= tb * 100)
		return pref;
	return best;
}

unsigned raidx__race_choose(struct raidx__race_slot *s, unsigned nc, unsigned pref,
			    unsigned n, int *timed)
{
	*timed = 1;
	if (n < nc)
		return n;                 /* first round: each candidate once */
	uint32_t kept = ld32(&s->kept);
	if (!kept) {
		kept = keep_set(s, nc, pref);
		/* the second round's times alone decide the leader */
		for (uint32_t k = kept; k; k &= k - 1)
			st64(&s->t[__builtin_ctz(k)], 0);
		st32(&s->kept, kept);
	}
	unsigned nk = popcount32(kept), m = n - nc;
	if (m < 2 * RAIDX__RACE_ROUND2 * nk) {
		/* second round: the kept in turn, two calls each, the first
		 * untimed (it pays for what the kernel before left behind) */
		*timed = m & 1;
		return nth_bit(kept, (m / 2) % nk);
	}
	unsigned lead = ld32(&s->leader);
	if (!lead) {
		lead = first_leader(s, kept, pref) + 1;
		st32(&s->leader, lead);
	}
	m -= 2 * RAIDX__RACE_ROUND2 * nk;
	/* the leader's first call after a probe (or the second round) pays
	 * for the other kernel's leavings: not timed, nor the next one, which
	 * follows the confirming call when there is one */
	*timed = m % RACE_PROBE > 1;
	if (m % RACE_PROBE == 0 && m) {
		/* a rival that won the probe just before runs a third call in
		 * a row, timed: a second win and it leads (raidx__race_record) */
		unsigned st = ld32(&s->strike);
		if (st && st != lead && (kept >> (st - 1) & 1)) {
			*timed = 1;
			return st - 1;
		}
	}
	if (nk > 1 && m % RACE_PROBE >= RACE_PROBE - 2) {
		/* a probe: the kept rivals in turn, two calls, the second timed */
		unsigned k = (m / RACE_PROBE) % (nk - 1);
		uint32_t rivals = kept & ~(1u << (lead - 1));
		*timed = m % RACE_PROBE == RACE_PROBE - 1;
		if (rivals)
			return nth_bit(rivals, k % popcount32(rivals));
	}
	return lead - 1;
}

void raidx__race_record(struct raidx__race_slot *s, unsigned nc, unsigned cand,
			unsigned n, uint64_t ns)
{
	uint32_t kept = ld32(&s->kept);
	unsigned lead = ld32(&s->leader);

	if (!ns)
		ns = 1;
	if (n < nc || !lead || n < nc + 2 * RAIDX__RACE_ROUND2 * popcount32(kept)) {
		/* learning: a candidate's best call */
		uint64_t t = ld64(&s->t[cand]);
		if (!t || ns < t)
			st64(&s->t[cand], ns);
		return;
	}
	if (cand == lead - 1) {
		/* the leader's moving average, 1/8 per call */
		uint64_t t = ld64(&s->t[cand]);
		st64(&s->t[cand], t ? t - t / 8 + ns / 8 : ns);
		return;
	}
	uint64_t tl = ld64(&s->t[lead - 1]);
	unsigned strike = ld32(&s->strike);
	if (ns * 100 < tl * RACE_TIE) {
		if (strike == cand + 1) {
			/* second win in a row: it leads, from its own time */
			st64(&s->t[cand], ns);
			st32(&s->leader, cand + 1);
			st32(&s->strike, 0);
		} else {
			st32(&s->strike, cand + 1);
		}
	} else if (strike == cand + 1) {
		st32(&s->strike, 0);
	}
}

void raidx__race_reset(struct raidx__race_slot *s, uint64_t key)
{
	st64(&s->key, key);
	st64(&s->last, 0);
	st32(&s->kept, 0);
	st32(&s->leader, 0);
	st32(&s->strike, 0);
	for (unsigned c = 0; c < RAIDX__RACE_MAX; c++)
		st64(&s->t[c], 0);
	atomic_store_explicit(&s->calls, 0, memory_order_relaxed);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t raidx__race_key(enum raidx_op op, unsigned n, unsigned a, unsigned b, size_t len)
{
	/* a 64-bit mix of the shape (splitmix64's finaliser); never 0 */
	uint64_t x = ((uint64_t)op << 56) ^ ((uint64_t)n << 40) ^ ((uint64_t)a << 24) ^
		     ((uint64_t)b << 8) ^ ((uint64_t)len * 0x9e3779b97f4a7c15u);
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9u;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebu;
	x ^= x >> 31;
	return x | 1;
}

const struct raidx__impl *raidx__race_begin(struct raidx__race_ticket *tk, enum raidx_op op,
					    const struct raidx__impl *pick, uint64_t key)
{
	pthread_once(&cands_once, cands_once_fn);
	const struct race_cands *rc = &cands[op];
	unsigned pref = 0;

	tk->slot = NULL;
	while (pref < rc->n && rc->c[pref] != pick)
		pref++;
	if (pref == rc->n || rc->n < 2)
		return pick; /* a pick outside the race (a tuning file's, say) */
	/* Two places a shape may live; a new shape takes the one used least
	 * lately, if that one has been idle RACE_IDLE_NS.  Otherwise the call
	 * runs the pick, unraced: two busy shapes that shared one place would
	 * restart each other's learning at every call. */
	struct raidx__race_slot *s = &slots[op][(key >> 17) % RAIDX__RACE_SLOTS];
	struct raidx__race_slot *s2 = &slots[op][((key >> 17) ^ 1) % RAIDX__RACE_SLOTS];
	uint64_t t0 = now_ns();
	if (ld64(&s->key) != key) {
		if (ld64(&s2->key) == key) {
			s = s2;
		} else {
			if (ld64(&s2->last) < ld64(&s->last))
				s = s2;
			if (ld64(&s->key) && t0 - ld64(&s->last) < RACE_IDLE_NS)
				return pick;
			raidx__race_reset(s, key);
		}
	}
	st64(&s->last, t0);
	tk->slot = s;
	tk->nc = rc->n;
	tk->n = atomic_fetch_add_explicit(&s->calls, 1, memory_order_relaxed);
	/* past 2^31 calls, start over rather than wrap */
	if (tk->n > 0x7fffffffu)
		raidx__race_reset(s, key);
	tk->cand = raidx__race_choose(s, rc->n, pref, tk->n, &tk->timed);
	tk->t0 = t0;
	return rc->c[tk->cand];
}

void raidx__race_end(const struct raidx__race_ticket *tk)
{
	uint64_t t = now_ns() - tk->t0;

	if (tk->timed)
		raidx__race_record(tk->slot, tk->nc, tk->cand, tk->n, t);
}

unsigned raidx__race_candidates(enum raidx_op op, const struct raidx__impl **out, unsigned max)
{
	pthread_once(&cands_once, cands_once_fn);
	unsigned n = cands[op].n < max ? cands[op].n : max;
	for (unsigned i = 0; i < n; i++)
		out[i] = cands[op].c[i];
	return cands[op].n;
}
