/*
 * test_race - calls from memory racing their kernels (src/race.c).
 *
 *   - the policy alone, on made-up times: every candidate tried once, the
 *     kept ones twice more, two calls each time (the first round's times
 *     only prune), the fastest leads unless the pick is within 5%, a
 *     candidate far behind is never run again, a rival that becomes faster
 *     takes the lead by its first probe and the call that confirms it,
 *     one lucky probe does not, and probes are two calls in RACE_PROBE;
 *   - places in the shape table: a third shape on a busy pair runs the
 *     pick unraced instead of evicting one;
 *   - the public calls with the race on for every size (the limit set to
 *     one byte): every op on seeded-random shapes, lengths and windows,
 *     enough calls per shape that every candidate runs, each result
 *     checked against the byte-wise reference;
 *   - the same from 8 threads at once on shared and colliding shapes (the
 *     race's table is shared; .ci/run runs this under ThreadSanitizer).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raidx_impl.h"
#include "test_util.h"

#define PROBE RAIDX__RACE_PROBE /* the test checks the rate */
/* calls before the leader is decided: nc once, then the kept ones */
#define LEARN(nc, nk) ((nc) + 2 * RAIDX__RACE_ROUND2 * (nk))

/* ---- the policy on made-up times -------------------------------------- */

struct sim {
	struct raidx__race_slot s;
	unsigned nc, pref, n;
	unsigned ran[RAIDX__RACE_MAX]; /* calls per candidate */
};

static void sim_init(struct sim *m, unsigned nc, unsigned pref)
{
	memset(m, 0, sizeof(*m));
	m->nc = nc;
	m->pref = pref;
	raidx__race_reset(&m->s, 12345);
}

/* `calls` calls at times t[c] (ns) scaled by up to +-jitter/1000, seeded. */
static void sim_run(struct sim *m, const uint64_t *t, unsigned calls, unsigned jitter)
{
	for (unsigned k = 0; k < calls; k++, m->n++) {
		int timed;
		unsigned c = raidx__race_choose(&m->s, m->nc, m->pref, m->n, &timed);
		if (c >= m->nc) {
			t_fail("call %u ran candidate %u of %u", m->n, c, m->nc);
			return;
		}
		uint64_t ns = t[c];
		if (jitter)
			ns = ns * (1000 - jitter + rng_below(&t_rng, 2 * jitter + 1)) / 1000;
		if (timed)
			raidx__race_record(&m->s, m->nc, c, m->n, ns);
		m->ran[c]++;
	}
}

static unsigned sim_leader(struct sim *m)
{
	return atomic_load(&m->s.leader) - 1;
}

static void test_policy(void)
{
	struct sim m;

	/* Learning: each once, the kept four twice again, then the fastest. */
	{
		const uint64_t t[6] = { 100000, 90000, 95000, 130000, 200000, 101000 };
		sim_init(&m, 6, 0);
		sim_run(&m, t, LEARN(6, 4), 0);
		/* kept: the pick and the three fastest others (1, 2, 5) */
		t_expect_int("kept set after round one", atomic_load(&m.s.kept),
			     (1 << 0) | (1 << 1) | (1 << 2) | (1 << 5));
		for (unsigned c = 0; c < 6; c++)
			t_expect_int("learning calls of a candidate", m.ran[c],
				     c == 3 || c == 4 ? 1 : 1 + 2 * RAIDX__RACE_ROUND2);
		sim_run(&m, t, 1, 0);
		t_expect_int("leader: the fastest, 10% ahead of the pick", sim_leader(&m), 1);
		/* steady: two probe calls in PROBE, never the slow ones */
		memset(m.ran, 0, sizeof(m.ran));
		sim_run(&m, t, 64 * PROBE - 1, 0);
		t_expect_int("leader kept on steady times", sim_leader(&m), 1);
		t_expect_int("candidates left out after round one never run",
			     m.ran[3] + m.ran[4], 0);
		unsigned probes = m.ran[0] + m.ran[2] + m.ran[5];
		t_expect_int("probes: two calls in PROBE", probes, 2 * 64);
		if (m.ran[0] < 20 || m.ran[2] < 20 || m.ran[5] < 20)
			t_fail("probes not spread over the rivals: %u %u %u", m.ran[0], m.ran[2],
			       m.ran[5]);
	}
	/* Ties keep the pick: 4% behind the fastest is level after learning. */
	{
		const uint64_t t[4] = { 100000, 96000, 99000, 150000 };
		sim_init(&m, 4, 0);
		sim_run(&m, t, LEARN(4, 4) + 1, 0);
		t_expect_int("leader within 5%: the pick", sim_leader(&m), 0);
	}
	/* ... but a rival 4% faster in the probes takes over later: the
	 * leader's moving average is steadier than learning's two calls. */
	{
		const uint64_t t[4] = { 100000, 96000, 99000, 150000 };
		sim_init(&m, 4, 0);
		sim_run(&m, t, LEARN(4, 4) + 1 + 10 * PROBE, 0);
		t_expect_int("a rival 4% faster leads after probes", sim_leader(&m), 1);
	}
	{
		const uint64_t t[4] = { 100000, 98000, 99000, 150000 };
		sim_init(&m, 4, 0);
		sim_run(&m, t, LEARN(4, 4) + 1 + 40 * PROBE, 0);
		t_expect_int("pick kept against rivals within 3%", sim_leader(&m), 0);
	}
	/* The pick need not be index 0, and a pick that is slowest by far is
	 * still kept (and left when another leads). */
	{
		const uint64_t t[5] = { 80000, 85000, 90000, 95000, 200000 };
		sim_init(&m, 5, 4);
		sim_run(&m, t, LEARN(5, 4) + 1, 0);
		t_expect_int("kept set holds the pick", atomic_load(&m.s.kept) >> 4 & 1, 1);
		t_expect_int("leader: the fastest over a slow pick", sim_leader(&m), 0);
	}
	/* The first round only prunes: a pick that was fast on its first
	 * call (fresh blocks) but is 10% behind in the second round does not
	 * lead. */
	{
		uint64_t t[4] = { 80000, 100000, 100000, 100000 };
		sim_init(&m, 4, 0);
		sim_run(&m, t, 4, 0);
		t[0] = 110000;
		sim_run(&m, t, 2 * RAIDX__RACE_ROUND2 * 4 + 1, 0);
		if (sim_leader(&m) == 0)
			t_fail("the pick led on its first-round time alone");
	}
	/* Only the second of two calls in a row is timed: a candidate whose
	 * first call after another kernel is fast (the other one's dirty
	 * lines not yet written back, say) does not lead on it.  Simulated
	 * as: candidate 1's call is 30% faster right after candidate 0's. */
	{
		struct sim q;
		const uint64_t t[2] = { 100000, 110000 };
		sim_init(&q, 2, 0);
		unsigned prev = 0;
		unsigned led1 = 0;
		for (unsigned k = 0; k < LEARN(2, 2) + 40 * PROBE; k++, q.n++) {
			int timed;
			unsigned c = raidx__race_choose(&q.s, 2, 0, q.n, &timed);
			uint64_t ns = c == 1 && prev == 0 ? 70000 : t[c];
			if (timed)
				raidx__race_record(&q.s, 2, c, q.n, ns);
			prev = c;
			led1 += atomic_load(&q.s.leader) == 2;
		}
		t_expect_int("calls led by a kernel fast only right after another one", led1, 0);
	}
	/* The state changes: a rival becomes 20% faster.  Each rival is probed
	 * every (kept - 1) * PROBE calls, and a probe it wins is confirmed by
	 * its next call: it leads by its first probe after the change. */
	{
		uint64_t t[4] = { 100000, 90000, 95000, 97000 };
		sim_init(&m, 4, 0);
		sim_run(&m, t, LEARN(4, 4) + 50, 0);
		t_expect_int("leader before the change", sim_leader(&m), 1);
		t[2] = 72000;
		unsigned k = 0;
		while (sim_leader(&m) != 2 && k < 10 * PROBE * 3)
			sim_run(&m, t, 1, 0), k++;
		t_expect_int("leader after a rival became 20% faster", sim_leader(&m), 2);
		if (k > 3 * PROBE + 1)
			t_fail("the faster rival took %u calls to lead (bound %u)", k,
			       3 * PROBE + 1);
		t_log("a rival 20%% faster led after %u calls", k);
		sim_run(&m, t, 50 * PROBE, 0);
		t_expect_int("no flapping back after the change", sim_leader(&m), 2);
	}
	/* One lucky probe is not enough. */
	{
		uint64_t t[3] = { 100000, 110000, 110000 };
		sim_init(&m, 3, 0);
		sim_run(&m, t, LEARN(3, 3) + 1, 0);
		t_expect_int("leader", sim_leader(&m), 0);
		/* run to just before the first probe, make the next call (a
		 * probe of a rival) fast once, then slow again */
		int timed;
		while (raidx__race_choose(&m.s, 3, 0, m.n, &timed) == 0)
			sim_run(&m, t, 1, 0);
		unsigned r = raidx__race_choose(&m.s, 3, 0, m.n, &timed);
		uint64_t keep = t[r];
		t[r] = 50000;
		sim_run(&m, t, 2, 0); /* the probe's two calls */
		t[r] = keep;
		t_expect_int("a won probe: the rival's next call confirms it",
			     raidx__race_choose(&m.s, 3, 0, m.n, &timed), r);
		t_expect_int("the confirming call is timed", timed, 1);
		sim_run(&m, t, 20 * PROBE, 0);
		t_expect_int("one fast probe does not take the lead", sim_leader(&m), 0);
	}
	/* Seeded jitter of +-2% around a 10% gap: the faster one leads and
	 * runs every call but the probes (no confirming calls: no probe of a
	 * rival 10% slower wins by 3%). */
	{
		const uint64_t t[4] = { 100000, 100000, 90000, 100000 };
		sim_init(&m, 4, 1);
		sim_run(&m, t, LEARN(4, 4) + 1, 20);
		memset(m.ran, 0, sizeof(m.ran));
		sim_run(&m, t, 100 * PROBE, 20);
		t_expect_int("leader under 2% jitter", sim_leader(&m), 2);
		t_expect_int("calls the fastest ran under jitter", m.ran[2], 100 * (PROBE - 2));
	}
	/* Starting over (a new shape in the slot) forgets everything. */
	raidx__race_reset(&m.s, 99);
	t_expect_int("reset: no leader", atomic_load(&m.s.leader), 0);
	t_expect_int("reset: no kept set", atomic_load(&m.s.kept), 0);
	t_expect_int("reset: calls", atomic_load(&m.s.calls), 0);
	t_log("policy: learning, ties, a slow pick, a change of state, a lucky probe, jitter");
}

/* ---- places in the table ------------------------------------------------ */

/* Three shapes whose keys hash to the same pair of places: the first two
 * get one each, the third runs the pick unraced while both are busy, and
 * the first keeps its place and count. */
static void test_places(void)
{
	const struct raidx__impl *cl[RAIDX__RACE_MAX];
	enum raidx_op op = RAIDX_OP_XOR_SYNDROME;
	unsigned nc = raidx__race_candidates(op, cl, RAIDX__RACE_MAX);
	struct raidx__race_ticket ta, tb, tc;
	uint64_t ka = (5ull << 17) | 1, kb = (5ull << 17) | 3, kc = (5ull << 17) | 5;

	if (nc < 2) {
		t_log("places: fewer than two candidates here, nothing races");
		return;
	}
	raidx__race_begin(&ta, op, cl[0], ka);
	raidx__race_end(&ta);
	raidx__race_begin(&tb, op, cl[0], kb);
	raidx__race_end(&tb);
	const struct raidx__impl *got = raidx__race_begin(&tc, op, cl[0], kc);
	if (!ta.slot || !tb.slot || ta.slot == tb.slot)
		t_fail("two shapes on one pair of places: %p and %p", (void *)ta.slot,
		       (void *)tb.slot);
	if (tc.slot || got != cl[0])
		t_fail("a third shape evicted a busy one (or ran another kernel than the pick)");
	raidx__race_begin(&ta, op, cl[0], ka);
	raidx__race_end(&ta);
	t_expect_int("the first shape's second call", ta.n, 1);
	t_log("places: two shapes share a pair, a third runs the pick unraced");
}

/* ---- the public calls, raced at every size ----------------------------- */

#define MAXD 20

struct job {
	struct rng rng;
	unsigned shapes, calls;
	unsigned long checked;
};

static void check_block(const char *what, const void *got, const void *exp, size_t len)
{
	if (memcmp(got, exp, len))
		t_fail("%s: wrong result through a raced call (%zu bytes)", what, len);
}

/* One shape, `calls` calls: every op, results against the reference. */
static void run_shape(struct job *j, enum raidx_op op, unsigned disks, size_t len)
{
	uint8_t *b[MAXD + 1], *r[MAXD + 1];
	unsigned n = op == RAIDX_OP_XOR_GEN || op == RAIDX_OP_XOR_ACC ? disks + 1 : disks;

	for (unsigned i = 0; i < n; i++) {
		b[i] = t_malloc(len);
		r[i] = t_malloc(len);
	}
	unsigned a = 0, c = 0;
	if (op == RAIDX_OP_XOR_SYNDROME || op == RAIDX_OP_RECOV_2DATA || op == RAIDX_OP_RECOV_DATAP) {
		a = rng_below(&j->rng, disks - 2);
		c = a + rng_below(&j->rng, disks - 2 - a);
		if (op == RAIDX_OP_RECOV_2DATA && a == c) {
			if (c + 1 < disks - 2)
				c++;
			else
				a--;
		}
	}
	for (unsigned k = 0; k < j->calls; k++) {
		for (unsigned i = 0; i < n; i++) {
			rng_fill(&j->rng, b[i], len);
			memcpy(r[i], b[i], len);
		}
		int e = 0;
		switch (op) {
		case RAIDX_OP_XOR_GEN:
			raidx__ref_xor_gen(r[disks], (const void *const *)r, disks, len);
			e = raidx_xor_gen(b[disks], (const void *const *)b, disks, len);
			check_block("xor_gen", b[disks], r[disks], len);
			break;
		case RAIDX_OP_XOR_ACC:
			raidx__ref_xor_acc(r[disks], (const void *const *)r, disks, len);
			e = raidx_xor_acc(b[disks], (const void *const *)b, disks, len);
			check_block("xor_acc", b[disks], r[disks], len);
			break;
		case RAIDX_OP_GEN_SYNDROME:
			raidx__ref_gen_syndrome(disks, len, (void **)r);
			e = raidx_gen_syndrome(disks, len, (void **)b);
			check_block("gen_syndrome P", b[disks - 2], r[disks - 2], len);
			check_block("gen_syndrome Q", b[disks - 1], r[disks - 1], len);
			break;
		case RAIDX_OP_XOR_SYNDROME:
			raidx__ref_xor_syndrome(disks, a, c, len, (void **)r);
			e = raidx_xor_syndrome(disks, a, c, len, (void **)b);
			check_block("xor_syndrome P", b[disks - 2], r[disks - 2], len);
			check_block("xor_syndrome Q", b[disks - 1], r[disks - 1], len);
			break;
		case RAIDX_OP_RECOV_2DATA:
			raidx__ref_gen_syndrome(disks, len, (void **)r);
			for (unsigned i = disks - 2; i < disks; i++)
				memcpy(b[i], r[i], len);
			memset(b[a], 0x5a, len);
			memset(b[c], 0xa5, len);
			e = raidx_recov_2data(disks, len, a, c, (void **)b);
			check_block("recov_2data a", b[a], r[a], len);
			check_block("recov_2data b", b[c], r[c], len);
			break;
		case RAIDX_OP_RECOV_DATAP:
			raidx__ref_gen_syndrome(disks, len, (void **)r);
			memcpy(b[disks - 1], r[disks - 1], len);
			memset(b[a], 0x5a, len);
			memset(b[disks - 2], 0xa5, len);
			e = raidx_recov_datap(disks, len, a, (void **)b);
			check_block("recov_datap data", b[a], r[a], len);
			check_block("recov_datap P", b[disks - 2], r[disks - 2], len);
			break;
		default:
			break;
		}
		if (e)
			t_fail("%s returned %d", raidx_op_name(op), e);
		j->checked++;
	}
	for (unsigned i = 0; i < n; i++) {
		free(b[i]);
		free(r[i]);
	}
}

static void run_job(struct job *j)
{
	for (unsigned s = 0; s < j->shapes; s++) {
		enum raidx_op op = (enum raidx_op)rng_below(&j->rng, RAIDX_OP_COUNT);
		unsigned disks = op == RAIDX_OP_XOR_GEN || op == RAIDX_OP_XOR_ACC
					 ? 1 + rng_below(&j->rng, 16)
					 : 4 + rng_below(&j->rng, MAXD - 3);
		/* a few lengths, so that threads share shapes too */
		static const size_t lens[] = { 64, 1000, 4096, 4096 + 77, 12345 };
		size_t len = lens[rng_below(&j->rng, sizeof(lens) / sizeof(lens[0]))];
		run_shape(j, op, disks, len);
	}
}

static void test_public(void)
{
	struct job j;
	const struct raidx__impl *cl[RAIDX__RACE_MAX];
	unsigned most = 0;

	for (int op = 0; op < RAIDX_OP_COUNT; op++) {
		unsigned nc = raidx__race_candidates((enum raidx_op)op, cl, RAIDX__RACE_MAX);
		if (nc > most)
			most = nc;
	}
	memset(&j, 0, sizeof(j));
	rng_seed(&j.rng, rng_next(&t_rng));
	j.shapes = t_quick ? 12 : 60;
	/* every candidate, the kept ones twice, and probes past them */
	j.calls = LEARN(most, RAIDX__RACE_KEEP) + (t_quick ? 8 : 2 * PROBE);
	run_job(&j);
	t_log("public calls raced at every size: %u shapes, %lu calls checked (%u candidates "
	      "at most per op)", j.shapes, j.checked, most);
}

#define NT 8

static struct job jobs[NT];
static pthread_barrier_t barrier;

static void *worker(void *arg)
{
	struct job *j = arg;

	pthread_barrier_wait(&barrier);
	run_job(j);
	return NULL;
}

static void test_threads(void)
{
	pthread_t th[NT];
	uint64_t shared = rng_next(&t_rng);
	unsigned long checked = 0;

	pthread_barrier_init(&barrier, NULL, NT);
	for (unsigned i = 0; i < NT; i++) {
		memset(&jobs[i], 0, sizeof(jobs[i]));
		/* half the threads walk the same shapes at once */
		rng_seed(&jobs[i].rng, i % 2 ? shared : rng_next(&t_rng));
		jobs[i].shapes = t_quick ? 4 : 16;
		jobs[i].calls = t_quick ? 12 : 40;
		pthread_create(&th[i], NULL, worker, &jobs[i]);
	}
	for (unsigned i = 0; i < NT; i++) {
		pthread_join(th[i], NULL);
		checked += jobs[i].checked;
	}
	pthread_barrier_destroy(&barrier);
	t_log("%u threads racing at once: %lu calls checked", NT, checked);
}

int main(int argc, char **argv)
{
	t_init(argc, argv, "race");
	if (raidx_init() != 0)
		t_fail("raidx_init()");
	test_policy();
	test_places();
	if (raidx__race_limit(RAIDX_OP_GEN_SYNDROME) == SIZE_MAX) {
		t_log("the race is off here (RAIDX_SELECT=static or RAIDX_RACE=0): "
		      "turning it on for the rest");
	}
	raidx__race_limit_set(1);
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		if (raidx__race_limit((enum raidx_op)op) != 1)
			t_fail("%s: race limit %zu after raidx__race_limit_set(1)",
			       raidx_op_name(op), raidx__race_limit((enum raidx_op)op));
	test_public();
	test_threads();
	return t_done();
}
