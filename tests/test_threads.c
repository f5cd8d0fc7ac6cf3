/*
 * test_threads - the first call into the library from many threads at once.
 *
 * The library picks its implementations once, at the first call, under
 * pthread_once.  This test makes 8 threads hit a barrier and then make
 * their *first* call at the same moment, each into a different entry point
 * (gen_syndrome, xor_gen, recover, impl_selected, xor_syndrome, ...), and
 * then keep working; every result is checked against the tests' own field
 * arithmetic (not the library's), and every thread must see the same
 * selection.  It runs in fresh processes: a child is forked for each round
 * before this process has called anything in the library, and the last
 * round runs in this process itself.  Public API only, through the shared
 * library.
 */
#include "raidx.h"
#include "test_util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NT 8              /* threads */
#define TD 10             /* disks per thread's stripe */
#define TLEN (2 * 4096 + 77)
#define WSTART 2          /* xor_syndrome window */
#define WSTOP 5

struct work {
	unsigned id;
	unsigned iters;
	uint8_t *blk[TD];  /* the thread's own stripe */
	uint8_t *good[TD]; /* its good contents, from the model */
	uint8_t *wP, *wQ;  /* P/Q after xor_syndrome of the window */
	uint8_t *x, *xexp; /* xor_gen of data 0..4 */
	const char *sel[RAIDX_OP_COUNT];
	unsigned long failures;
};

static struct work W[NT];
static pthread_barrier_t barrier;
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

static void tfail(struct work *w, const char *what, const uint8_t *got,
		  const uint8_t *exp, size_t n)
{
	size_t i = 0;

	if (!memcmp(got, exp, n))
		return;
	while (got[i] == exp[i])
		i++;
	pthread_mutex_lock(&fail_lock);
	t_ctx("thread %u", w->id);
	t_fail("thread %u: %s differs at byte %zu of %zu: got 0x%02x, expected 0x%02x",
	       w->id, what, i, n, got[i], exp[i]);
	w->failures++;
	pthread_mutex_unlock(&fail_lock);
}

static void tfail_rc(struct work *w, const char *what, int rc)
{
	if (!rc)
		return;
	pthread_mutex_lock(&fail_lock);
	t_ctx("thread %u", w->id);
	t_fail("thread %u: %s returned %d", w->id, what, rc);
	w->failures++;
	pthread_mutex_unlock(&fail_lock);
}

static void **ptrs_of(struct work *w, void **p)
{
	for (unsigned z = 0; z < TD; z++)
		p[z] = w->blk[z];
	return p;
}

static void restore(struct work *w)
{
	for (unsigned z = 0; z < TD; z++)
		memcpy(w->blk[z], w->good[z], TLEN);
}

static void do_gen(struct work *w)
{
	void *p[TD];
	memset(w->blk[TD - 2], 0x33, TLEN);
	memset(w->blk[TD - 1], 0xcc, TLEN);
	tfail_rc(w, "raidx_gen_syndrome", raidx_gen_syndrome(TD, TLEN, ptrs_of(w, p)));
	tfail(w, "gen_syndrome P", w->blk[TD - 2], w->good[TD - 2], TLEN);
	tfail(w, "gen_syndrome Q", w->blk[TD - 1], w->good[TD - 1], TLEN);
}

static void do_xor(struct work *w)
{
	const void *srcs[5];
	for (unsigned i = 0; i < 5; i++)
		srcs[i] = w->blk[i];
	memset(w->x, 0x77, TLEN);
	tfail_rc(w, "raidx_xor_gen", raidx_xor_gen(w->x, srcs, 5, TLEN));
	tfail(w, "xor_gen dst", w->x, w->xexp, TLEN);
	/* dst ^= the same sources: back to zero. */
	tfail_rc(w, "raidx_xor_acc", raidx_xor_acc(w->x, srcs, 5, TLEN));
	memset(w->xexp + TLEN, 0, TLEN);
	tfail(w, "xor_acc dst", w->x, w->xexp + TLEN, TLEN);
}

static void do_xsyn(struct work *w)
{
	void *p[TD];
	ptrs_of(w, p);
	tfail_rc(w, "raidx_xor_syndrome", raidx_xor_syndrome(TD, WSTART, WSTOP, TLEN, p));
	tfail(w, "xor_syndrome P", w->blk[TD - 2], w->wP, TLEN);
	tfail(w, "xor_syndrome Q", w->blk[TD - 1], w->wQ, TLEN);
	/* Applying the same window again gives the original P/Q. */
	raidx_xor_syndrome(TD, WSTART, WSTOP, TLEN, p);
	tfail(w, "xor_syndrome P twice", w->blk[TD - 2], w->good[TD - 2], TLEN);
	tfail(w, "xor_syndrome Q twice", w->blk[TD - 1], w->good[TD - 1], TLEN);
}

static void do_recov(struct work *w, unsigned a, unsigned b, int how)
{
	void *p[TD];
	unsigned f[2] = { a, b };

	memset(w->blk[a], 0xee, TLEN);
	memset(w->blk[b], 0x11, TLEN);
	if (how == 0)
		tfail_rc(w, "raidx_recov_2data", raidx_recov_2data(TD, TLEN, a, b, ptrs_of(w, p)));
	else if (how == 1)
		tfail_rc(w, "raidx_recov_datap", raidx_recov_datap(TD, TLEN, a, ptrs_of(w, p)));
	else
		tfail_rc(w, "raidx_recover", raidx_recover(TD, TLEN, 2, f, ptrs_of(w, p)));
	tfail(w, "rebuilt block a", w->blk[a], w->good[a], TLEN);
	tfail(w, "rebuilt block b", w->blk[b], w->good[b], TLEN);
}

static void *worker(void *arg)
{
	struct work *w = arg;

	pthread_barrier_wait(&barrier);

	/* The first call into the library: a different one per thread. */
	switch (w->id % 8) {
	case 0: do_gen(w); break;
	case 1: do_xor(w); break;
	case 2: do_recov(w, 7, 1, 2); break;
	case 3: w->sel[RAIDX_OP_GEN_SYNDROME] = raidx_impl_selected(RAIDX_OP_GEN_SYNDROME); break;
	case 4: do_xsyn(w); break;
	case 5: do_recov(w, 3, 6, 0); break;
	case 6: tfail_rc(w, "raidx_init", raidx_init()); break;
	default: do_recov(w, 4, TD - 2, 1); break;
	}

	for (unsigned it = 0; it < w->iters; it++) {
		do_gen(w);
		do_xor(w);
		do_xsyn(w);
		do_recov(w, it % (TD - 2), (it + 3) % (TD - 2), 0);
		do_recov(w, (it + 1) % (TD - 2), TD - 2, 1);
		/* any two blocks, P and Q included */
		do_recov(w, it % TD, (it % TD + 1 + (it / TD) % (TD - 1)) % TD, 2);
		restore(w);
	}
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		w->sel[op] = raidx_impl_selected((enum raidx_op)op);
	return NULL;
}

/* One round: NT threads, barrier, first calls, checks.  Returns the
 * number of failures. */
static unsigned long round_run(unsigned iters)
{
	pthread_t th[NT];
	unsigned long fails = 0;

	pthread_barrier_init(&barrier, NULL, NT);
	for (unsigned i = 0; i < NT; i++) {
		W[i].iters = iters;
		W[i].failures = 0;
		restore(&W[i]);
		if (pthread_create(&th[i], NULL, worker, &W[i])) {
			perror("pthread_create");
			exit(1);
		}
	}
	for (unsigned i = 0; i < NT; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&barrier);

	for (unsigned i = 0; i < NT; i++) {
		fails += W[i].failures;
		for (int op = 0; op < RAIDX_OP_COUNT; op++)
			if (!W[i].sel[op] || strcmp(W[i].sel[op], W[0].sel[op])) {
				t_fail("threads disagree on the %s implementation: %s / %s",
				       raidx_op_name((enum raidx_op)op),
				       W[i].sel[op] ? W[i].sel[op] : "NULL",
				       W[0].sel[op] ? W[0].sel[op] : "NULL");
				fails++;
			}
	}
	return fails;
}

int main(int argc, char **argv)
{
	/* Nothing below calls the library before the threads start. */
	t_init(argc, argv, "test_threads");
	unsigned rounds = t_quick ? 2 : 12, iters = t_quick ? 3 : 12;

	for (unsigned i = 0; i < NT; i++) {
		struct work *w = &W[i];
		const uint8_t *d[TD];
		w->id = i;
		for (unsigned z = 0; z < TD; z++) {
			w->blk[z] = t_malloc(TLEN);
			w->good[z] = t_malloc(TLEN);
			rng_fill(&t_rng, w->good[z], TLEN);
			d[z] = w->good[z];
		}
		tm_pq(TD - 2, TLEN, d, w->good[TD - 2], w->good[TD - 1]);

		/* xor_syndrome of the window: the model's P/Q of the window
		 * alone (other data zero), XORed into the good P/Q. */
		uint8_t *zero = calloc(1, TLEN);
		const uint8_t *wd[TD];
		for (unsigned z = 0; z < TD - 2; z++)
			wd[z] = (z >= WSTART && z <= WSTOP) ? w->good[z] : zero;
		w->wP = t_malloc(TLEN);
		w->wQ = t_malloc(TLEN);
		tm_pq(TD - 2, TLEN, wd, w->wP, w->wQ);
		for (size_t b = 0; b < TLEN; b++) {
			w->wP[b] ^= w->good[TD - 2][b];
			w->wQ[b] ^= w->good[TD - 1][b];
		}
		free(zero);

		w->x = t_malloc(TLEN);
		w->xexp = t_malloc(2 * TLEN);
		for (size_t b = 0; b < TLEN; b++) {
			uint8_t v = 0;
			for (unsigned z = 0; z < 5; z++)
				v ^= w->good[z][b];
			w->xexp[b] = v;
		}
	}

	for (unsigned r = 0; r < rounds; r++) {
		fflush(stdout);
		fflush(stderr);
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0)
			_exit(round_run(iters) ? 1 : 0);
		int status;
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			t_ctx("forked round %u", r);
			t_fail("round %u in a fresh child process failed (status 0x%x)",
			       r, status);
		}
	}
	/* The last round in this process, which has not called the library
	 * either. */
	t_ctx("in-process round");
	round_run(iters);

	t_log("%u fresh processes x %u threads racing to the first call "
	      "(8 different entry points), %u iterations each, results checked "
	      "against the tests' own arithmetic; %lu failure(s); selection "
	      "seen (gen_syndrome=%s, xor_syndrome=%s, xor_gen=%s, recov_2data=%s)",
	      rounds + 1, NT, iters, t_failures, W[0].sel[RAIDX_OP_GEN_SYNDROME],
	      W[0].sel[RAIDX_OP_XOR_SYNDROME], W[0].sel[RAIDX_OP_XOR_GEN],
	      W[0].sel[RAIDX_OP_RECOV_2DATA]);
	for (unsigned i = 0; i < NT; i++) {
		for (unsigned z = 0; z < TD; z++) {
			free(W[i].blk[z]);
			free(W[i].good[z]);
		}
		free(W[i].wP);
		free(W[i].wQ);
		free(W[i].x);
		free(W[i].xexp);
	}
	return t_done();
}
