/*
 * bench.c - `raidx bench`: which kernel is fastest for each operation on this
 * machine, by how much, and against the peers (ISA-L) and the machine's own
 * limits (a plain read and a memcpy of the same bytes).
 *
 * How it measures, and why
 * ------------------------
 * Units.  GB/s is 10^9 bytes of *data read* per second: every source for
 *   xor_gen/xor_acc, the data blocks for gen_syndrome, the window's blocks
 *   for xor_syndrome, and all data blocks of the stripe for the recoveries
 *   (what a rebuild has to get through).  The same count is used for the
 *   memread/memcpy rows of a table, so a kernel's GB/s over memread's is the
 *   fraction of the machine's read bandwidth it reaches.  `--units dst`
 *   counts the destination instead for the xor ops (the Linux xor
 *   convention), which makes xor_gen with n sources look n times slower.
 *
 * Correctness first.  Before an implementation is timed on a shape and
 *   length, its output is compared byte for byte with raidx__ref_* on the
 *   same inputs; a difference aborts the run.  Inputs are periodic with a
 *   prime period (4099 bytes), so the reference only has to run over one
 *   period however long the blocks are (its output is periodic too), while
 *   every byte the kernel writes is still checked: a kernel that mishandles
 *   an offset, a loop bound or a tail shows up because no power-of-two
 *   distance is a multiple of the period.
 *
 * Timing.  clock_gettime(CLOCK_MONOTONIC) around a batch of calls.  Each
 *   implementation first runs for a short warm-up (caches, TLB, predictors,
 *   clock ramp), which also gives the time of one call; the batch size is
 *   then chosen so that one sample lasts about 2 ms, three orders of
 *   magnitude above the ~20 ns the clock costs, and each sample follows
 *   0.5 ms of untimed calls of its own (SETTLE_S).  Samples are taken in
 *   interleaved rounds, every row once per round, so a frequency or
 *   neighbour drift on a noisy machine hits every implementation alike, in
 *   an order that changes "who runs right after whom" from round to round
 *   (round_slot).  The best sample is the figure (the least disturbed
 *   run); the median is kept too (--stat median, JSON) and the summary
 *   says how far apart they were.  After 3 rounds,
 *   more are run only while some row's best is not yet confirmed by a second
 *   sample within 2% of it: a quiet machine stops at 3, a busy one keeps
 *   sampling until a disturbed sample is outvoted (at most 9).
 *
 * Busy machines.  A sample can lose the CPU to another process.  The
 *   thread's CPU time (CLOCK_THREAD_CPUTIME_ID) is read around each sample
 *   too: when the wall time exceeds it by more than 2%, the sample is timed
 *   by the CPU time instead, which leaves out the time the thread was not
 *   running (a memory-bound call of 100 ms can hardly avoid preemption when
 *   the cores are shared), and is flagged.  The median prefers the samples
 *   that kept the CPU, and the summary says how many did not.

 * Time budget.  The rounds and the sample length adapt to a budget for the
 *   whole run (--time, 45 s by default, 4 s with --quick; the rechecks of
 *   picks, see recheck_cell, come on top): each cell
 *   (operation, shape, length) gets the remaining time divided by the
 *   remaining cells.  Cells in cache need only a fraction of that; the
 *   memory-bound 16 MiB cells, whose single call can take 100 ms, use the
 *   leftover.  Cells are run length by length, the largest last, so the big
 *   cells cannot starve the small ones.  "ref" (byte-at-a-time) is only run
 *   with --all or --impl ref, and only where its estimated time fits.
 *
 * Buffers.  Each block sits in its own page-aligned slot, 64-byte aligned
 *   and staggered by 3 cache lines per block (block i at i*192 mod 4096 in
 *   its page), so that the 4 to 34 blocks a kernel streams through do not
 *   all fall into the same L1 set nor alias at 4 KiB distances (a store to
 *   P and a load from D at the same page offset stall each other on many
 *   cores).  --page-aligned puts every block at a page boundary, the worst
 *   case.  The blocks sit on transparent huge pages (as the kernel's
 *   direct map has), so 16 MiB blocks measure memory, not page walks;
 *   --small-pages puts them on 4 KiB pages, as md's stripe cache has them
 *   (see pool_get for why every cell gets the same kind).
 *   --cold cycles each call to a new stripe, enough stripes to fill twice
 *   the last-level cache, so every call reads from memory.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "raidx_impl.h"
#include "tool.h"
#include "bench.h"

#define PERIOD 4099u  /* prime period of the test data, see above */
#define PAGE 4096u
#define STAGGER 192u  /* bytes between block starts within a page */
#define MAX_LENS 64
#define MAX_DISK_ARGS 64
#define MAX_SHAPES 2048
#define MAX_RUNNERS 72
#define MAX_ROUNDS 32
#define PICK_GOAL 0.95   /* chosen/fastest the selection aims for (issue 5) */
/*
 * Untimed calls of a row before each of its samples, for about SETTLE_S:
 * a row must not be charged for the state the row before it left behind.
 * Non-temporal stores do that: they send dst to memory, and normal stores
 * right after them fetch it back from DRAM instead of L3.  Measured with a
 * throwaway program that timed 2 ms samples (as here) of avx2 xor_gen
 * right after a sample of avx2 and right after one of avx2nt, medians of
 * 150-200 such rounds: after avx2nt, 1 source at 1 MiB 0.98-1.19x (1.03
 * or more in five runs of six), 3-4 sources 1.01-1.11x, 8 sources
 * 1.03-1.13x, 2 sources at 2 MiB 1.03-1.20x; with 250 us of untimed avx2
 * calls first 0.99-1.07x, with 500 us 0.984-1.005x (two runs of four
 * cells).  avx2nt was not slowed by
 * what ran before it, and neither was anything with 4 or 16 MiB blocks or
 * in L2 (64-512 KiB: 0.98-1.01x).  Every row is settled alike.  Without
 * it the rounds leaned toward non-temporal kernels (and ISA-L's xor_gen
 * and pq_gen, which store that way) where the selection goal had missed
 * against avx2nt, though less than the above: half a row's samples follow
 * itself in the rotation, and the best sample is mostly one of those.
 * The paired ratios moved: nt/normal lower in 11 of 14 cells, by up to
 * 0.12, over twelve alternations of the bench with and without
 * (docs/performance-log.md, "Each sample settles first").  A row whose
 * call is SETTLE_S or longer is not settled: its call is long enough, as
 * at warm-up.  Until
 * 2026-12-04 that held for every row whose one call filled a sample (iters
 * 1), and on the Intel Xeon the full default run shortens samples below
 * a 6 MiB gen_syndrome call (4+2 at 1 MiB, 0.3 ms): the row right after
 * gfni_avx512x4 in the list, unsettled, took every sample straight after
 * another row's normal stores and read 11.2-14.4 GB/s against 19.1-20.1
 * for every other row in all six such runs (with the two twins' places in
 * the list swapped, the other twin did, running the same loop).  Settled,
 * 19.8-19.9 in the two runs since.
 */
#define SETTLE_S 500e-6
/* Recheck every pick that any rival beat in the first pass, not only those
 * it beat by 5%: rechecking only the apparent misses would let a slower
 * pick that read well by luck pass unchecked.  A default run: 69 rechecks
 * and 115 s, against 19-34 and 83-95 s when only the misses were. */
#define RECHECK_BELOW 1.0
#define RECHECK_PAIRS 63 /* pairs of samples of a recheck, at most */
#define RECHECK_MIN 7    /* ... and at least, whatever the time */
#define RECHECK_S 1.5    /* seconds one recheck may take beyond RECHECK_MIN */
/*
 * A recheck whose verdict is still open takes more pairs: while PICK_GOAL
 * lies inside the 90% confidence interval of the median (a sign test:
 * the pairs' order statistics that bound the median with 5% left on each
 * side), another batch of the same size is timed, up to RECHECK_ROUNDS
 * batches, and the median of all pairs decides.  Two kernels that run the
 * very same code (avx2x4 calls avx2x2 beyond 512 KiB) read 0.958-1.038 in
 * 107 rechecks of 38-63 pairs in five default runs (2026-12-01), and on a
 * busier evening 0.92 and 0.94 over 20-25 pairs at 16 MiB (gen_syndrome
 * 32+2 avx2x4nt/avx2x2nt, xor_syndrome 16+2 [14,15] avx2x4/avx2x2), so a
 * fixed band around the line was not enough: the interval follows the
 * spread the pairs actually have.  A pick that is 10% behind has its
 * interval below the line after the first batch and is not extended.
 */
#define RECHECK_ROUNDS 4
#define RECHECK_ALPHA 0.05 /* each side of the interval */
#define MAX_BLOCKS (RAIDX_MAX_SOURCES + 2) /* sources + dst + memcpy scratch */
#define SCREEN_W 120
#define CELL_W 15 /* " 1234.56  1.00x" */
#define MAX_TABLE_COLS (SCREEN_W / CELL_W)

/* ======================================================================
 * Options
 * ====================================================================== */

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };

struct opts {
	int ops[RAIDX_OP_COUNT]; /* in the order given */
	unsigned nops;
	const char *impls;       /* --impl list, NULL for the default set */
	int all;
	unsigned disks[MAX_DISK_ARGS], ndisks;
	long start, stop;        /* -1 when not given */
	size_t lens[MAX_LENS];
	unsigned nlens;
	int quick, page_aligned, cold, quiet, units_dst, stat_median, no_recheck;
	int small_pages;
	enum fmt format;
	const char *plot, *baseline;
	double budget, sample;   /* seconds */
	unsigned rmin, rmax;
	int argc;
	char **argv;
};

static void usage(FILE *f)
{
	fputs(
"usage: raidx bench [options]\n"
"\n"
"Measure every implementation of every raidx operation on this machine, next\n"
"to ISA-L (when raidx was built with it) and to the machine's limits, and show\n"
"which one is fastest, by how much, and which one raidx has chosen (*).\n"
"Where calls stream from memory and race their kernels (raidx info, \"race\"),\n"
"the chosen row is \"raidx\": the public call itself, timed as an application\n"
"makes it, after the race's learning calls.\n"
"\n"
"What is measured (defaults):\n"
"  xor_gen, xor_acc  1, 2, 3, 4, 8, 16 sources\n"
"  gen_syndrome      disks 6, 10, 18, 34 (4+2, 8+2, 16+2, 32+2)\n"
"  xor_syndrome      disks 10, 18; windows [start,stop]: stop = disks-3 with\n"
"                    start = 0, (disks>>2)-1, (disks>>1)-1, disks-4, disks-3;\n"
"                    stop = (disks>>1)-1 with start = 0, disks>>2\n"
"  recov_2data       disks 10, 18; failed pairs (0,1), (m,m+1), (k-2,k-1)\n"
"                    with k data blocks and m = (k-1)/2: first, middle, last\n"
"  recov_datap       disks 10, 18; failed data block 0, m, k-1 (and P)\n"
"  lengths           4K, 64K (in cache), 1M (L2/L3), 16M (memory) per block\n"
"Rows: every implementation this CPU can run (ref only with --all or --impl),\n"
"  isal (ISA-L's xor_gen, pq_gen, ec_encode_data_update over the window,\n"
"  and its decode path with the matrix inversion counted per call),\n"
"  linux_x2 and linux_x4 (the Linux kernel's raid6 AVX2 algorithm for\n"
"  gen_syndrome and xor_syndrome, reimplemented in bench_linux.c),\n"
"  memread (a SIMD read of the same input bytes, all blocks in step as a\n"
"  kernel reads them) and memcpy (each input block copied to a scratch\n"
"  block): what the machine allows.\n"
"\n"
"Units: GB/s = 10^9 bytes of data read per second: all sources (xor ops),\n"
"  data blocks (gen_syndrome; recovery: all data blocks of the stripe), the\n"
"  window's blocks (xor_syndrome).  Each cell also shows the ratio to the\n"
"  baseline row.\n"
"\n"
"Options:\n"
"  --op LIST         operations, comma separated (xor_gen, xor_acc,\n"
"                    gen_syndrome, xor_syndrome, recov_2data, recov_datap)\n"
"  --impl LIST       rows to show, comma separated: implementation names,\n"
"                    ref, isal, linux (both linux rows), raidx (the\n"
"                    public call: by default where it races, the chosen\n"
"                    row there; named here, in every cell, so that it\n"
"                    shows what a call costs over its kernel), memread,\n"
"                    memcpy, or all\n"
"  --all             include ref (byte-at-a-time; run only where it fits)\n"
"  --disks LIST      disks (sources for xor ops) instead of the defaults\n"
"  --len LIST        block lengths: 4k, 64K, 1M, 16M, 1000 (bytes), ...\n"
"  --start N         xor_syndrome window start / recov first failed block\n"
"  --stop N          xor_syndrome window stop / recov_2data second failed\n"
"                    block.  With --start or --stop, one shape per disks:\n"
"                    window [start (0), stop (disks-3)]; recov_2data failing\n"
"                    start (0) and stop (start+1); recov_datap failing start\n"
"  --quick           a few seconds: 4K and 64K, fewer shapes and rounds\n"
"  --page-aligned    every block at a page boundary (default: 64-byte\n"
"                    aligned, staggered by 192 bytes per block)\n"
"  --small-pages     blocks on 4 KiB pages, scattered in physical memory as\n"
"                    md's stripe cache has them (default: 2 MiB transparent\n"
"                    huge pages for every cell; the share obtained is shown)\n"
"  --cold            each call on another stripe, twice the last-level cache\n"
"                    in all, so the data comes from memory\n"
"  --baseline NAME   row the ratios refer to (default: the fastest int64*\n"
"                    portable kernel of each column)\n"
"  --units data|dst  dst: xor ops counted in destination bytes (Linux)\n"
"  --stat best|median  figure shown in tables and plot (default best)\n"
"  --format text|csv|json   csv: op,impl,disks,start,stop,len,gbps,chosen\n"
"                    (disks = sources for xor ops and blocks read for\n"
"                    memread/memcpy; start/stop = window, or the failed\n"
"                    blocks for recov_2data (faila,failb) and recov_datap\n"
"                    (faila); gbps = best, in --units).  json adds\n"
"                    median_gbps, samples, samples_lost_cpu and, for\n"
"                    raidx kernels, vs_chosen_paired: speed relative to\n"
"                    the chosen kernel, median over rounds of the ratio\n"
"                    within each round; for a rechecked chosen kernel,\n"
"                    recheck_vs (the rival), recheck_first (chosen/rival\n"
"                    speed in the rounds), recheck (median over the\n"
"                    recheck's pairs) and recheck_pairs, and where the\n"
"                    recheck found a miss, recheck_late and\n"
"                    recheck_late_pairs (the same, timed again at the end\n"
"                    of the run).  The description header goes to stderr.\n"
"  --plot FILE.svg   plot GB/s against block length (log2) for the first\n"
"                    --op (default gen_syndrome) and its first shape only;\n"
"                    without --len, lengths 1K..16M in powers of two\n"
"  --time SECONDS    time budget of the cells' rounds (default 45, quick 4);\n"
"                    rechecks come on top (default run: about 70 s more)\n"
"  --rounds N        at most N interleaved rounds per cell (default 9, quick\n"
"                    5; at least 3, more while a row's best is unconfirmed)\n"
"  --sample-ms MS    length of one timed sample (default 2)\n"
"  --no-recheck      skip the recheck of cells where another raidx kernel\n"
"                    looked faster than the chosen one (and the late\n"
"                    recheck of misses at the end of the run)\n"
"  --quiet           no progress on stderr\n"
"  --help            this text\n"
"\n"
"Every kernel's output is checked against the reference before it is timed;\n"
"a wrong result stops the run with exit status 1.  Samples that another\n"
"process preempted are timed by this thread's CPU time instead of the wall\n"
"clock; the summary says how many there were.\n", f);
}

static int list_has(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (list && *list) {
		size_t t = strcspn(list, ",");
		if (t == n && !strncmp(list, name, n))
			return 1;
		list += t;
		list += *list == ',';
	}
	return 0;
}

static int impl_not_runnable(const struct raidx__impl *impl)
{
	return !raidx__impl_runnable(impl);
}

/* The names of the implementations of every op for which pred() holds,
 * space-separated, each once; returns how many. */
static unsigned impl_names(char *buf, size_t size, int (*pred)(const struct raidx__impl *))
{
	size_t used = 0;
	unsigned n = 0;

	buf[0] = 0;
	for (int op = 0; op < RAIDX_OP_COUNT; op++) {
		const struct raidx__impl *const *list;
		unsigned cnt = raidx__impl_list((enum raidx_op)op, &list);
		for (unsigned i = 0; i < cnt; i++) {
			if (!pred(list[i]) || list_has(buf, list[i]->name) || used >= size)
				continue;
			used += (size_t)snprintf(buf + used, size - used, "%s%s",
						 used ? "," : "", list[i]->name);
			n++;
		}
	}
	for (char *q = buf; *q; q++)
		*q = *q == ',' ? ' ' : *q;
	return n;
}

/* "4k", "64K", "1M", "16MiB", "1000" -> bytes; 0 on error. */
static size_t parse_size(const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	unsigned shift = 0;

	if (errno || end == s)
		return 0;
	switch (tolower((unsigned char)*end)) {
	case 'k': shift = 10; end++; break;
	case 'm': shift = 20; end++; break;
	case 'g': shift = 30; end++; break;
	default: break;
	}
	if (shift && (!strcmp(end, "iB") || !strcmp(end, "ib")))
		end += 2;
	else if (*end == 'B' || *end == 'b')
		end++;
	if (*end || v == 0 || v > (1ull << 40) >> shift)
		return 0;
	return (size_t)(v << shift);
}

static int parse_list(const char *s, const char *what, int (*one)(const char *, void *),
		      void *ctx)
{
	char tok[64];

	while (*s) {
		size_t n = strcspn(s, ",");
		if (n == 0 || n >= sizeof(tok)) {
			fprintf(stderr, "bench: bad %s list\n", what);
			return -1;
		}
		memcpy(tok, s, n);
		tok[n] = '\0';
		if (one(tok, ctx))
			return -1;
		s += n;
		s += *s == ',';
	}
	return 0;
}

static int one_len(const char *tok, void *ctx)
{
	struct opts *o = ctx;
	size_t v = parse_size(tok);

	if (!v) {
		fprintf(stderr, "bench: bad length '%s' (e.g. 4k, 64K, 1M, 4096)\n", tok);
		return -1;
	}
	for (unsigned i = 0; i < o->nlens; i++)
		if (o->lens[i] == v)
			return 0;
	if (o->nlens == MAX_LENS) {
		fprintf(stderr, "bench: at most %d lengths\n", MAX_LENS);
		return -1;
	}
	o->lens[o->nlens++] = v;
	return 0;
}

static int one_disks(const char *tok, void *ctx)
{
	struct opts *o = ctx;
	char *end;
	unsigned long v = strtoul(tok, &end, 10);

	if (*end || v < 1 || v > RAIDX_MAX_SOURCES) {
		fprintf(stderr, "bench: bad disks '%s'\n", tok);
		return -1;
	}
	if (o->ndisks == MAX_DISK_ARGS) {
		fprintf(stderr, "bench: at most %d disk counts\n", MAX_DISK_ARGS);
		return -1;
	}
	o->disks[o->ndisks++] = (unsigned)v;
	return 0;
}

static int one_op(const char *tok, void *ctx)
{
	struct opts *o = ctx;
	int op = raidx_op_from_name(tok);

	if (op < 0) {
		fprintf(stderr, "bench: unknown operation '%s'\n", tok);
		return -1;
	}
	for (unsigned i = 0; i < o->nops; i++)
		if (o->ops[i] == op)
			return 0;
	o->ops[o->nops++] = op;
	return 0;
}

static int parse_long(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > RAIDX_MAX_DISKS)
		return -1;
	*out = v;
	return 0;
}

/* A decimal number and nothing after it. */
static int parse_double(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end)
		return -1;
	*out = v;
	return 0;
}

/* 0: go on; 1: exit 0 (help); -1: exit 2 (usage error). */
static int parse_args(struct opts *o, int argc, char **argv)
{
	double budget = -1, sample_ms = -1;
	long rounds = -1;

	memset(o, 0, sizeof(*o));
	o->start = o->stop = -1;
	o->argc = argc;
	o->argv = argv;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		char name[32];
		const char *eq = strchr(a, '=');

		/* --opt=value or --opt value */
		if (eq && (size_t)(eq - a) < sizeof(name)) {
			memcpy(name, a, (size_t)(eq - a));
			name[eq - a] = '\0';
			val = eq + 1;
		} else {
			snprintf(name, sizeof(name), "%s", a);
		}
#define FLAG(str) (!strcmp(name, str) && !val)
#define VALUE(str) (!strcmp(name, str) && (val || (i + 1 < argc && (val = argv[++i]))))
		if (FLAG("--help") || FLAG("-h")) {
			usage(stdout);
			return 1;
		} else if (FLAG("--all")) {
			o->all = 1;
		} else if (FLAG("--quick")) {
			o->quick = 1;
		} else if (FLAG("--page-aligned")) {
			o->page_aligned = 1;
		} else if (FLAG("--small-pages")) {
			o->small_pages = 1;
		} else if (FLAG("--no-recheck")) {
			o->no_recheck = 1;
		} else if (FLAG("--cold")) {
			o->cold = 1;
		} else if (FLAG("--quiet") || FLAG("-q")) {
			o->quiet = 1;
		} else if (VALUE("--op")) {
			if (parse_list(val, "operation", one_op, o))
				return -1;
		} else if (VALUE("--impl")) {
			o->impls = val;
		} else if (VALUE("--disks")) {
			if (parse_list(val, "disks", one_disks, o))
				return -1;
		} else if (VALUE("--len")) {
			if (parse_list(val, "length", one_len, o))
				return -1;
		} else if (VALUE("--start")) {
			if (parse_long(val, &o->start)) {
				fprintf(stderr, "bench: bad --start '%s'\n", val);
				return -1;
			}
		} else if (VALUE("--stop")) {
			if (parse_long(val, &o->stop)) {
				fprintf(stderr, "bench: bad --stop '%s'\n", val);
				return -1;
			}
		} else if (VALUE("--format")) {
			if (!strcmp(val, "text"))
				o->format = FMT_TEXT;
			else if (!strcmp(val, "csv"))
				o->format = FMT_CSV;
			else if (!strcmp(val, "json"))
				o->format = FMT_JSON;
			else {
				fprintf(stderr, "bench: --format text, csv or json\n");
				return -1;
			}
		} else if (VALUE("--plot")) {
			o->plot = val;
		} else if (VALUE("--baseline")) {
			o->baseline = val;
		} else if (VALUE("--units")) {
			if (!strcmp(val, "dst"))
				o->units_dst = 1;
			else if (strcmp(val, "data")) {
				fprintf(stderr, "bench: --units data or dst\n");
				return -1;
			}
		} else if (VALUE("--stat")) {
			if (!strcmp(val, "median"))
				o->stat_median = 1;
			else if (strcmp(val, "best")) {
				fprintf(stderr, "bench: --stat best or median\n");
				return -1;
			}
		} else if (VALUE("--time")) {
			if (parse_double(val, &budget) || !(budget > 0 && budget < 1e6)) {
				fprintf(stderr, "bench: bad --time '%s'\n", val);
				return -1;
			}
		} else if (VALUE("--rounds")) {
			if (parse_long(val, &rounds) || rounds < 1 || rounds > MAX_ROUNDS) {
				fprintf(stderr, "bench: --rounds 1..%d\n", MAX_ROUNDS);
				return -1;
			}
		} else if (VALUE("--sample-ms")) {
			if (parse_double(val, &sample_ms) ||
			    !(sample_ms >= 0.01 && sample_ms <= 1000)) {
				fprintf(stderr, "bench: bad --sample-ms '%s'\n", val);
				return -1;
			}
		} else {
			fprintf(stderr, "bench: unknown option '%s' (raidx bench --help)\n", a);
			return -1;
		}
#undef FLAG
#undef VALUE
	}

	if (!o->nops) {
		if (o->plot) {
			o->ops[o->nops++] = RAIDX_OP_GEN_SYNDROME;
		} else {
			for (int op = 0; op < RAIDX_OP_COUNT; op++)
				o->ops[o->nops++] = op;
		}
	}
	if (o->plot)
		o->nops = 1; /* the plot shows one operation */
	if (!o->nlens) {
		if (o->plot) {
			for (size_t l = 1024; l <= (o->quick ? 1u << 20 : 16u << 20); l *= 2)
				o->lens[o->nlens++] = l;
		} else {
			static const size_t full[] = { 4096, 65536, 1 << 20, 16 << 20 };
			unsigned n = o->quick ? 2 : 4;
			for (unsigned i = 0; i < n; i++)
				o->lens[o->nlens++] = full[i];
		}
	}
	o->budget = budget > 0 ? budget : o->quick ? 4 : 45;
	o->sample = (sample_ms > 0 ? sample_ms : o->quick ? 1 : 2) * 1e-3;
	o->rmax = rounds > 0 ? (unsigned)rounds : o->quick ? 5 : 9;
	o->rmin = o->rmax < 3 ? o->rmax : 3;
	if (o->impls && list_has(o->impls, "all"))
		o->all = 1;
	return 0;
}

/* ======================================================================
 * Shapes
 * ====================================================================== */

static struct bench_shape shapes[MAX_SHAPES];
static unsigned nshapes;

static void add_shape(int op, unsigned disks, unsigned start, unsigned stop)
{
	for (unsigned i = 0; i < nshapes; i++)
		if ((int)shapes[i].op == op && shapes[i].disks == disks &&
		    shapes[i].start == start && shapes[i].stop == stop)
			return;
	if (nshapes < MAX_SHAPES)
		shapes[nshapes++] = (struct bench_shape){ (enum bench_op)op, disks, start, stop };
}

/* Data blocks counted as "read" by the op (the GB/s numerator / len). */
static unsigned shape_nin(const struct bench_shape *sh)
{
	switch (sh->op) {
	case BOP_XOR_SYNDROME:
		return sh->stop - sh->start + 1;
	case BOP_GEN_SYNDROME:
	case BOP_RECOV_2DATA:
	case BOP_RECOV_DATAP:
		return sh->disks - 2;
	default: /* xor ops, memread, memcpy */
		return sh->disks;
	}
}

static const char *bop_name(enum bench_op op)
{
	return op == BOP_MEMREAD ? "memread" : op == BOP_MEMCPY ? "memcpy" : raidx_op_name((enum raidx_op)op);
}

/* Column label: "4 src", "d10 8+2", "d10 [0,7]", "d10 fail 3,4", "d10 fail 0,P". */
static void shape_label(const struct bench_shape *sh, char *buf, size_t n)
{
	switch (sh->op) {
	case BOP_XOR_GEN:
	case BOP_XOR_ACC:
		snprintf(buf, n, "%u src", sh->disks);
		break;
	case BOP_GEN_SYNDROME:
		snprintf(buf, n, "d%u %u+2", sh->disks, sh->disks - 2);
		break;
	case BOP_XOR_SYNDROME:
		snprintf(buf, n, "d%u [%u,%u]", sh->disks, sh->start, sh->stop);
		break;
	case BOP_RECOV_2DATA:
		snprintf(buf, n, "d%u fail %u,%u", sh->disks, sh->start, sh->stop);
		break;
	case BOP_RECOV_DATAP:
		snprintf(buf, n, "d%u fail %u,P", sh->disks, sh->start);
		break;
	default:
		snprintf(buf, n, "%u blocks", sh->disks);
	}
}

static void len_label(size_t len, char *buf, size_t n)
{
	if (len >= (1u << 20) && len % (1u << 20) == 0)
		snprintf(buf, n, "%zu MiB", len >> 20);
	else if (len >= 1024 && len % 1024 == 0)
		snprintf(buf, n, "%zu KiB", len >> 10);
	else
		snprintf(buf, n, "%zu B", len);
}

/* Disk counts (sources for the xor ops) of the default and of the --quick
 * run, zero-terminated.  4+2, 8+2 and 16+2 are the common arrays; 34 shows
 * how a kernel scales with a wide stripe. */
static const unsigned default_disks[RAIDX_OP_COUNT][2][8] = {
	/*                          full                    quick */
	[RAIDX_OP_XOR_GEN] =      { { 1, 2, 3, 4, 8, 16 }, { 1, 4, 16 } },
	[RAIDX_OP_XOR_ACC] =      { { 1, 2, 3, 4, 8, 16 }, { 1, 4, 16 } },
	[RAIDX_OP_GEN_SYNDROME] = { { 6, 10, 18, 34 },     { 10, 18 } },
	[RAIDX_OP_XOR_SYNDROME] = { { 10, 18 },            { 18 } },
	[RAIDX_OP_RECOV_2DATA] =  { { 10, 18 },            { 10 } },
	[RAIDX_OP_RECOV_DATAP] =  { { 10, 18 },            { 10 } },
};
#define ARRAY_N(a) (sizeof(a) / sizeof((a)[0]))

/* With --start/--stop: the one shape they describe, or 0 if invalid. */
static int explicit_shape(const struct opts *o, int op, unsigned d)
{
	long last = (long)d - 3, s = o->start >= 0 ? o->start : 0;

	if (op == RAIDX_OP_XOR_SYNDROME) {
		long t = o->stop >= 0 ? o->stop : last;
		if (s > t || t > last)
			return 0;
		add_shape(op, d, (unsigned)s, (unsigned)t);
	} else if (op == RAIDX_OP_RECOV_2DATA) {
		long t = o->stop >= 0 ? o->stop : s + 1;
		if (s == t || s > last || t > last)
			return 0;
		add_shape(op, d, (unsigned)(s < t ? s : t), (unsigned)(s < t ? t : s));
	} else {
		if (s > last)
			return 0;
		add_shape(op, d, (unsigned)s, 0);
	}
	return 1;
}

static void shapes_for(const struct opts *o, int op, unsigned d)
{
	int quick = o->quick && !o->ndisks;
	int last = (int)d - 3, half = (int)(d >> 1) - 1, k = (int)d - 2, m = (k - 1) / 2;

	switch (op) {
	case RAIDX_OP_XOR_GEN:
	case RAIDX_OP_XOR_ACC:
		add_shape(op, d, 0, 0);
		return;
	case RAIDX_OP_GEN_SYNDROME:
		if (d >= 3 && d <= RAIDX_MAX_DISKS)
			add_shape(op, d, 0, 0);
		return;
	default:
		break;
	}
	if (d < (op == RAIDX_OP_RECOV_2DATA ? 4u : 3u) || d > RAIDX_MAX_DISKS)
		return;
	if (o->start >= 0 || o->stop >= 0) {
		if (!explicit_shape(o, op, d))
			fprintf(stderr, "bench: %s: --start/--stop out of range for %u disks, skipped\n",
				raidx_op_name((enum raidx_op)op), d);
		return;
	}
	/* { start, stop, in the quick run } */
	const int (*w)[3];
	unsigned nw;
	const int xsyn[][3] = {
		/* stop = disks-3, the windows of the seed thread */
		{ 0, last, 1 }, { (int)(d >> 2) - 1, last, 0 }, { half, last, 1 },
		{ (int)d - 4, last, 0 }, { last, last, 1 },
		/* stop = (disks>>1)-1: the first half, and its second quarter */
		{ 0, half, 1 }, { (int)(d >> 2), half, 0 },
	};
	const int r2[][3] = { { 0, 1, 1 }, { m, m + 1, 0 }, { k - 2, k - 1, 1 } };
	const int rdp[][3] = { { 0, 0, 1 }, { m, 0, 0 }, { k - 1, 0, 1 } };
	if (op == RAIDX_OP_XOR_SYNDROME)
		w = xsyn, nw = ARRAY_N(xsyn);
	else if (op == RAIDX_OP_RECOV_2DATA)
		w = r2, nw = ARRAY_N(r2);
	else
		w = rdp, nw = ARRAY_N(rdp);
	for (unsigned i = 0; i < nw; i++) {
		int s = w[i][0], t = w[i][1];
		if (quick && !w[i][2])
			continue;
		if (s < 0 || t < 0 || s > last || t > last ||
		    (op == RAIDX_OP_XOR_SYNDROME && s > t) ||
		    (op == RAIDX_OP_RECOV_2DATA && s >= t))
			continue;
		add_shape(op, d, (unsigned)s, (unsigned)t);
	}
}

static void make_shapes(const struct opts *o)
{
	for (unsigned i = 0; i < o->nops; i++) {
		int op = o->ops[i];
		const unsigned *dl = o->ndisks ? o->disks : default_disks[op][o->quick];
		unsigned nd = o->ndisks ? o->ndisks : ARRAY_N(default_disks[op][0]);
		unsigned before = nshapes;

		for (unsigned j = 0; j < nd && dl[j]; j++) {
			shapes_for(o, op, dl[j]);
			if (o->plot && nshapes > before) {
				nshapes = before + 1; /* the plot shows the first shape */
				break;
			}
		}
	}
}

/* ======================================================================
 * Cells: the blocks of one (shape, length), and the test data in them
 * ====================================================================== */

/*
 * Block layout as the op sees it (pointer array of nblk entries):
 *   xor ops   ptrs[0 .. n-1] sources, ptrs[n] destination
 *   RAID-6    the md layout: data, P = ptrs[disks-2], Q = ptrs[disks-1];
 *             for xor_syndrome the data blocks outside the window are NULL,
 *             so a kernel that reads them faults.
 * One more block, ptrs[nblk], is the memcpy row's destination.
 */
struct geom {
	unsigned nblk;
	unsigned in_lo, in_hi;  /* blocks counted as data read (and memread) */
	unsigned nout, out[2];  /* blocks the op writes (and the check compares) */
	int need_pq;            /* P and Q must match the data (recovery) */
	unsigned char present[MAX_BLOCKS];
};

static void geometry(const struct bench_shape *sh, struct geom *g)
{
	memset(g, 0, sizeof(*g));
	if (sh->op == BOP_XOR_GEN || sh->op == BOP_XOR_ACC) {
		g->nblk = sh->disks + 1;
		g->in_lo = 0, g->in_hi = sh->disks - 1;
		g->nout = 1, g->out[0] = sh->disks;
	} else {
		unsigned d = sh->disks;
		g->nblk = d;
		g->in_lo = 0, g->in_hi = d - 3;
		g->nout = 2, g->out[0] = d - 2, g->out[1] = d - 1;
		if (sh->op == BOP_XOR_SYNDROME) {
			g->in_lo = sh->start, g->in_hi = sh->stop;
		} else if (sh->op == BOP_RECOV_2DATA) {
			g->out[0] = sh->start, g->out[1] = sh->stop;
			g->need_pq = 1;
		} else if (sh->op == BOP_RECOV_DATAP) {
			g->out[0] = sh->start, g->out[1] = d - 2; /* data and P */
			g->need_pq = 1;
		}
	}
	for (unsigned b = 0; b <= g->nblk; b++)
		g->present[b] = 1;
	if (sh->op == BOP_XOR_SYNDROME)
		for (unsigned b = 0; b < sh->disks - 2; b++)
			g->present[b] = b >= sh->start && b <= sh->stop;
}

struct cell {
	struct bench_shape sh;
	size_t len, m;            /* block length; m = min(len, PERIOD) */
	struct geom g;
	unsigned stride;          /* pointers per stripe: nblk + 1 */
	unsigned nstripes, next;  /* --cold: stripes cycled through */
	void **ptrs;              /* nstripes * stride */
	uint8_t *map;             /* the blocks (in the pool) */
	uint8_t **mini_init;      /* one period of each block, before the op */
	uint8_t **mini_exp;       /* ... and after the reference op */
	double ref_s;             /* time of the reference on one period */
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of this thread: a sample whose wall time exceeds it by more
 * than 2% lost the CPU to another process for part of it (see Timing). */
static double cpu_now(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fill_pattern(uint8_t *p, size_t n, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;

	for (size_t i = 0; i < n; i++) {
		x ^= x >> 12, x ^= x << 25, x ^= x >> 27; /* xorshift64* */
		p[i] = (uint8_t)((x * 0x2545f4914f6cdd1dull) >> 56);
	}
}

static void fill_periodic(uint8_t *dst, size_t len, const uint8_t *src, size_t m)
{
	for (size_t off = 0; off < len; off += m)
		memcpy(dst + off, src, len - off < m ? len - off : m);
}

/* Offset of the first byte that differs from the periodic expectation, or
 * SIZE_MAX. */
static size_t cmp_periodic(const uint8_t *buf, size_t len, const uint8_t *exp, size_t m)
{
	for (size_t off = 0; off < len; off += m) {
		size_t n = len - off < m ? len - off : m;
		if (memcmp(buf + off, exp, n))
			for (size_t i = 0; i < n; i++)
				if (buf[off + i] != exp[i])
					return off + i;
	}
	return SIZE_MAX;
}

/* The reference implementation of `sh` on blocks of `len` bytes. */
static void run_reference(const struct bench_shape *sh, size_t len, void **p)
{
	switch (sh->op) {
	case BOP_XOR_GEN:
		raidx__ref_xor_gen(p[sh->disks], (const void *const *)p, sh->disks, len);
		break;
	case BOP_XOR_ACC:
		raidx__ref_xor_acc(p[sh->disks], (const void *const *)p, sh->disks, len);
		break;
	case BOP_GEN_SYNDROME:
		raidx__ref_gen_syndrome(sh->disks, len, p);
		break;
	case BOP_XOR_SYNDROME:
		raidx__ref_xor_syndrome(sh->disks, sh->start, sh->stop, len, p);
		break;
	case BOP_RECOV_2DATA:
		raidx__ref_recov_2data(sh->disks, len, sh->start, sh->stop, p);
		break;
	case BOP_RECOV_DATAP:
		raidx__ref_recov_datap(sh->disks, len, sh->start, p);
		break;
	default:
		break;
	}
}

/* Last-level cache of this core: the largest cache in cpu0's sysfs list
 * (the cache one core can use; glibc's _SC_LEVEL3_CACHE_SIZE adds up all
 * CCXs of an AMD package), then sysconf, then 64 MiB. */
static size_t llc_size(void)
{
	size_t best = 0;

	for (int i = 0; i < 8; i++) {
		char path[96], buf[32];
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		FILE *f = fopen(path, "r");
		if (!f)
			break;
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
			size_t v = parse_size(buf);
			if (v > best)
				best = v;
		}
		fclose(f);
	}
#ifdef _SC_LEVEL3_CACHE_SIZE
	if (!best) {
		long v = sysconf(_SC_LEVEL3_CACHE_SIZE);
		if (v > 0)
			best = (size_t)v;
	}
#endif
	return best ? best : 64u << 20;
}

/*
 * One mapping for all cells, grown when a cell needs more: the pages stay
 * faulted in from one cell to the next, so the kernel does not zero 500 MiB
 * of fresh pages for every 16 MiB cell (a fifth of their time otherwise).
 *
 * Every cell gets the same kind of page, 2 MiB transparent huge pages
 * unless --small-pages.  Huge pages, as the kernel's direct map has them,
 * so long blocks measure memory rather than page walks.  Until 2026-12-05
 * only mappings of 4 MiB or more asked for them, so the 4 KiB and 64 KiB
 * cells of a default run, whose pool is about 2.5 MiB, sat on 4 KiB pages,
 * while their late rechecks (late_rechecks), after the 16 MiB cells had
 * grown the pool, sat on huge ones.  Where the pages fall decides
 * winners in the L2 (physically indexed: the pages set which lines of the
 * blocks compete for a set).  On 8+2's [4,7] at 64 KiB (the Turin-like
 * Zen 5, `--op xor_syndrome --disks 10 --start 4 --stop 7 --len 64k --impl
 * avx512x1,avx512x2,avx512x4,gfni_avx512x4` unless said):
 *   - three default runs: avx512x2 9-14% ahead of avx512x1 in the first
 *     pass, behind it at the end of two of them (gfni_avx512x4, which
 *     runs avx512x1's loop there, 1.08 and 1.11 of avx512x2);
 *   - twelve runs of the cell alone (pools under 4 MiB, other 4 KiB
 *     pages): avx512x2 7-14% behind;
 *   - a 64 MiB pool on 4 KiB pages, three runs: avx512x2 8-12% ahead;
 *     on huge pages, three runs: avx512x1 or avx512x4 ahead; two default
 *     runs with every cell on huge pages and one with --small-pages:
 *     avx512x2 0.91-0.93 of avx512x1 (a later one on huge pages had it
 *     ahead again, 1.11).
 * So the kind of page is now the same for every cell of a run, and
 * shown; which pages a run gets still moves such cells (in the first
 * default run on huge pages, 8+2 [0,7] and 16+2 [0,8] at 64 KiB read
 * gfni_avx512x4 at 0.92 and 0.88 of avx512x1 in the first pass and 1.03
 * at the end).  The mapping is aligned to 2 MiB so that huge pages can
 * back it from its first byte; pool.huge_min keeps the least share of the
 * pool's resident memory that had them, over the run's mappings, for the
 * report.
 */
#define HUGE_PAGE ((size_t)2 << 20)

static struct {
	uint8_t *map;
	size_t len;
	int small, unchecked;  /* unchecked: mapped since the last pool_check */
	unsigned mappings;
	double huge_min;       /* -1: not known (no /proc/self/smaps) */
} pool = { .huge_min = 2 };

static uint8_t *pool_get(size_t need, int small)
{
	if (need <= pool.len && small == pool.small)
		return pool.map;
	if (pool.map)
		munmap(pool.map, pool.len);
	size_t len = need > 2 * pool.len ? need : 2 * pool.len;
	/* at least two huge pages: the 4 KiB and 64 KiB cells of a default
	 * run (about 2.5 MiB) then share one mapping */
	if (len < 2 * HUGE_PAGE)
		len = 2 * HUGE_PAGE;
	len = (len + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	/* HUGE_PAGE more than asked, then the unaligned head and the tail
	 * given back */
	uint8_t *map = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED) {
		fprintf(stderr, "bench: cannot map %zu MiB: %s\n", len >> 20, strerror(errno));
		pool.map = NULL;
		pool.len = 0;
		return NULL;
	}
	size_t head = (HUGE_PAGE - (uintptr_t)map % HUGE_PAGE) % HUGE_PAGE;
	if (head)
		munmap(map, head);
	munmap(map + head + len, HUGE_PAGE - head);
	pool.map = map + head;
	pool.len = len;
	pool.small = small;
	pool.unchecked = 1;
	pool.mappings++;
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
	madvise(pool.map, pool.len, small ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
#endif
	return pool.map;
}

/* After a cell has filled a new mapping: the share of its resident memory
 * on huge pages, from /proc/self/smaps (the mapping's own entry). */
static void pool_check(void)
{
	char line[256];
	unsigned long lo, hi;
	double rss = -1, huge = -1;
	int in = 0;

	if (!pool.unchecked)
		return;
	pool.unchecked = 0;
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f) {
		pool.huge_min = -1;
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long kb;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			if (in)
				break;
			in = lo <= (uintptr_t)pool.map && (uintptr_t)pool.map < hi;
		} else if (in && sscanf(line, "Rss: %lu kB", &kb) == 1) {
			rss = (double)kb;
		} else if (in && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1) {
			huge = (double)kb;
		}
	}
	fclose(f);
	if (rss <= 0 || huge < 0) {
		pool.huge_min = -1;
		return;
	}
	if (pool.huge_min >= 0 && huge / rss < pool.huge_min)
		pool.huge_min = huge / rss;
}

static void print_pages(FILE *f)
{
	if (pool.small)
		fprintf(f, "pages: 4 KiB (--small-pages)");
	else
		fprintf(f, "pages: 2 MiB transparent huge pages asked for");
	if (pool.huge_min < 0 || pool.huge_min > 1)
		fprintf(f, "; share obtained not known\n");
	else
		fprintf(f, "; %.0f%% of the blocks' memory on huge pages (the least of %u mapping%s)\n",
			100 * pool.huge_min, pool.mappings, pool.mappings == 1 ? "" : "s");
}

static void pool_release(void)
{
	if (pool.map)
		munmap(pool.map, pool.len);
	pool.map = NULL;
	pool.len = 0;
	pool.mappings = 0;
	pool.huge_min = 2;
}

static void cell_free(struct cell *c)
{
	for (unsigned b = 0; c->mini_init && b < c->stride; b++) {
		free(c->mini_init[b]);
		free(c->mini_exp[b]);
	}
	free(c->mini_init);
	free(c->mini_exp);
	free(c->ptrs);
	memset(c, 0, sizeof(*c));
}

static int cell_setup(struct cell *c, const struct bench_shape *sh, size_t len,
		      const struct opts *o, size_t llc)
{
	struct geom *g = &c->g;
	size_t npresent = 0;

	memset(c, 0, sizeof(*c));
	c->sh = *sh;
	c->len = len;
	c->m = len < PERIOD ? len : PERIOD;
	geometry(sh, g);
	c->stride = g->nblk + 1;

	/* One period of every block: data, then (recovery) P and Q computed
	 * from it, then garbage in what the op overwrites; the reference op
	 * on a copy gives the expected outputs. */
	c->mini_init = calloc(c->stride, sizeof(*c->mini_init));
	c->mini_exp = calloc(c->stride, sizeof(*c->mini_exp));
	if (!c->mini_init || !c->mini_exp)
		goto oom;
	for (unsigned b = 0; b < c->stride; b++) {
		if (!g->present[b])
			continue;
		npresent++;
		c->mini_init[b] = malloc(c->m);
		c->mini_exp[b] = malloc(c->m);
		if (!c->mini_init[b] || !c->mini_exp[b])
			goto oom;
		fill_pattern(c->mini_init[b], c->m, b + 1);
	}
	/* For recovery: P and Q of the data, and the blocks that will be lost
	 * kept aside so that the reference's rebuild can be checked too. */
	uint8_t *lost[2] = { NULL, NULL };
	if (g->need_pq) {
		raidx__ref_gen_syndrome(sh->disks, c->m, (void **)c->mini_init);
		for (unsigned i = 0; i < g->nout; i++) {
			lost[i] = malloc(c->m);
			if (!lost[i]) {
				free(lost[0]);
				goto oom;
			}
			memcpy(lost[i], c->mini_init[g->out[i]], c->m);
			fill_pattern(c->mini_init[g->out[i]], c->m, 1000 + i);
		}
	}
	for (unsigned b = 0; b < c->stride; b++)
		if (g->present[b])
			memcpy(c->mini_exp[b], c->mini_init[b], c->m);
	double t0 = now();
	run_reference(sh, c->m, (void **)c->mini_exp);
	c->ref_s = now() - t0;
	int setup_ok = 1;
	for (unsigned i = 0; i < 2; i++) {
		if (lost[i] && memcmp(lost[i], c->mini_exp[g->out[i]], c->m))
			setup_ok = 0;
		free(lost[i]);
	}
	if (!setup_ok) {
		fprintf(stderr, "bench: internal error: the reference did not rebuild the lost blocks\n");
		cell_free(c);
		return -1;
	}

	/* The stripes themselves. */
	size_t slot = (len + PAGE - 1) / PAGE * PAGE + PAGE;
	c->nstripes = 1;
	if (o->cold) {
		size_t stripe = npresent * len;
		c->nstripes = (unsigned)((2 * llc + stripe - 1) / stripe);
		if (c->nstripes < 1)
			c->nstripes = 1;
	}
	c->map = pool_get((size_t)c->nstripes * c->stride * slot, o->small_pages);
	if (!c->map) {
		cell_free(c);
		return -1;
	}
	c->ptrs = calloc((size_t)c->nstripes * c->stride, sizeof(void *));
	if (!c->ptrs)
		goto oom;
	for (unsigned s = 0; s < c->nstripes; s++) {
		for (unsigned b = 0; b < c->stride; b++) {
			if (!g->present[b])
				continue;
			size_t at = ((size_t)s * c->stride + b) * slot +
				    (o->page_aligned ? 0 : (b * STAGGER) % PAGE);
			c->ptrs[(size_t)s * c->stride + b] = c->map + at;
			fill_periodic(c->map + at, len, c->mini_init[b], c->m);
		}
	}
	pool_check();
	return 0;
oom:
	fprintf(stderr, "bench: out of memory\n");
	cell_free(c);
	return -1;
}

/* The next stripe to run on (always stripe 0 unless --cold). */
static void **next_stripe(struct cell *c)
{
	void **p = c->ptrs + (size_t)c->next * c->stride;
	if (++c->next == c->nstripes)
		c->next = 0;
	return p;
}

/* ======================================================================
 * Runners: one row of a table, as a closure (function + its data)
 * ====================================================================== */

/* RK_OUT: a raidx kernel selection leaves out on this CPU (512-bit vectors
 * on a zmm_downclock CPU): timed and shown, but no rival of the pick, since
 * a loop of calls cannot show what its lower clock costs the code around
 * it. */
/* RK_AUTO ("raidx"): the public call itself, in cells where it races its
 * kernels (calls that stream from memory, src/race.c): what such a call
 * runs changes from call to call, so that row, not a kernel's, is the
 * chosen one there; it is never a rival.  With --impl naming it, in the
 * other cells too, not chosen there. */
enum rkind { RK_IMPL, RK_OUT, RK_PEER, RK_MEMREAD, RK_MEMCPY, RK_AUTO };
#define RK_KERNEL(k) ((k) == RK_IMPL || (k) == RK_OUT) /* a raidx kernel's row */

/* The chosen kernel timed alone against a rival that looked faster in
 * the cell's rounds (recheck_cell): the first rival it
 * still loses to, else the one it came closest to losing to; pairs == 0
 * when no rival looked faster. */
struct recheck {
	char vs[32];      /* the rival */
	double first;     /* chosen/rival speed in the rounds: the lower of
			   * the best-sample and the paired ratio */
	double ratio;     /* chosen/rival speed: median over the pairs */
	double lo, hi;    /* the pairs' lowest and highest ratio */
	unsigned pairs;
	/* A miss (ratio < PICK_GOAL) timed again the same way at the end of
	 * the run (late_rechecks; late_pairs 0: not).  Shown beside it; the
	 * verdict is the first recheck's. */
	double late;
	unsigned late_pairs;
};

struct runner {
	char name[32];
	enum rkind kind;
	int (*call)(struct runner *r, const struct cell *c, void **ptrs);
	const struct raidx__impl *impl; /* RK_IMPL, RK_OUT */
	struct bench_isal *isal;        /* RK_PEER: isal */
	unsigned lx_unroll;             /* RK_PEER: linux_x2, linux_x4 */
	int chosen;                     /* what the public call would use */
	int slow;                       /* "ref": only where it fits */
	const char *skip;               /* why it was not measured */
	unsigned iters;                 /* calls per sample */
	unsigned settle;                /* untimed calls before each sample */
	double tcall;                   /* one call: the check or warm-up */
	double samples[MAX_ROUNDS];     /* seconds per call */
	unsigned char lost_cpu[MAX_ROUNDS]; /* sample shared the CPU */
	unsigned nsamples;
	struct recheck rc;              /* chosen row: its recheck, if any */
};

static int call_impl(struct runner *r, const struct cell *c, void **p)
{
	const struct bench_shape *sh = &c->sh;

	switch (sh->op) {
	case BOP_XOR_GEN:
	case BOP_XOR_ACC:
		raidx__run_xor(r->impl, p[sh->disks], (const void *const *)p, sh->disks, c->len);
		break;
	case BOP_GEN_SYNDROME:
		raidx__run_gen_syndrome(r->impl, sh->disks, c->len, p);
		break;
	case BOP_XOR_SYNDROME:
		raidx__run_xor_syndrome(r->impl, sh->disks, sh->start, sh->stop, c->len, p);
		break;
	case BOP_RECOV_2DATA:
		raidx__run_recov_2data(r->impl, sh->disks, c->len, sh->start, sh->stop, p);
		break;
	case BOP_RECOV_DATAP:
		raidx__run_recov_datap(r->impl, sh->disks, c->len, sh->start, p);
		break;
	default:
		return -1;
	}
	return 0;
}

/* The public call, as an application makes it (RK_AUTO). */
static int call_public(struct runner *r, const struct cell *c, void **p)
{
	const struct bench_shape *sh = &c->sh;
	int e;

	(void)r;
	switch (sh->op) {
	case BOP_XOR_GEN:
		e = raidx_xor_gen(p[sh->disks], (const void *const *)p, sh->disks, c->len);
		break;
	case BOP_XOR_ACC:
		e = raidx_xor_acc(p[sh->disks], (const void *const *)p, sh->disks, c->len);
		break;
	case BOP_GEN_SYNDROME:
		e = raidx_gen_syndrome(sh->disks, c->len, p);
		break;
	case BOP_XOR_SYNDROME:
		e = raidx_xor_syndrome(sh->disks, sh->start, sh->stop, c->len, p);
		break;
	case BOP_RECOV_2DATA:
		e = raidx_recov_2data(sh->disks, c->len, sh->start, sh->stop, p);
		break;
	case BOP_RECOV_DATAP:
		e = raidx_recov_datap(sh->disks, c->len, sh->start, p);
		break;
	default:
		return -1;
	}
	return e ? -1 : 0;
}

static int call_isal(struct runner *r, const struct cell *c, void **p)
{
	(void)c;
	return bench_isal_call(r->isal, p);
}

static int call_linux(struct runner *r, const struct cell *c, void **p)
{
	return bench_linux_call(&c->sh, c->len, r->lx_unroll, p);
}

/* Read the op's input blocks, all at the same offset in turn like a kernel:
 * the fastest way to get the same bytes into the core. */
static int call_memread(struct runner *r, const struct cell *c, void **p)
{
	(void)r;
	bench_memread((const void *const *)p + c->g.in_lo, c->g.in_hi - c->g.in_lo + 1, c->len);
	return 0;
}

static int call_memcpy(struct runner *r, const struct cell *c, void **p)
{
	(void)r;
	for (unsigned b = c->g.in_lo; b <= c->g.in_hi; b++)
		memcpy(p[c->g.nblk], p[b], c->len);
	return 0;
}

/* ======================================================================
 * Results
 * ====================================================================== */

struct result {
	struct bench_shape sh;
	size_t len;
	char name[32];
	enum rkind kind;
	int chosen;
	double best, median;  /* seconds per call */
	/* Speed relative to the chosen kernel of the same cell, the median
	 * over rounds of t(chosen) / t(this) within each round (0: not an
	 * implementation, or no chosen one measured).  Each round times every
	 * row once, within milliseconds, so a change in the machine's speed
	 * between rounds (on shared VMs the sibling thread's load moves every
	 * kernel by 1.5x or more) cancels out, where the best of each row may
	 * come from different rounds. */
	double paired;
	struct recheck rc;    /* chosen row: its recheck (rc.pairs 0: none) */
	unsigned samples;
	unsigned lost_cpu;    /* samples that shared the CPU */
	const char *skip;     /* not measured, and why */
};

static struct result *results;
static size_t nresults, capresults;

static int add_result(const struct result *r)
{
	if (nresults == capresults) {
		size_t n = capresults ? 2 * capresults : 256;
		struct result *t = realloc(results, n * sizeof(*t));
		if (!t)
			return -1;
		results = t;
		capresults = n;
	}
	results[nresults++] = *r;
	return 0;
}

static int same_shape(const struct bench_shape *a, const struct bench_shape *b)
{
	return a->op == b->op && a->disks == b->disks && a->start == b->start &&
	       a->stop == b->stop;
}

static const struct result *find_result(const struct bench_shape *sh, size_t len,
					const char *name)
{
	for (size_t i = 0; i < nresults; i++)
		if (results[i].len == len && same_shape(&results[i].sh, sh) &&
		    !strcmp(results[i].name, name))
			return &results[i];
	return NULL;
}

/* The memread/memcpy result for the inputs of `sh` (measured once per
 * number of blocks and length, and shared by every table that needs it). */
static const struct result *find_mem(enum bench_op op, const struct bench_shape *sh,
				     size_t len)
{
	struct bench_shape m = { op, shape_nin(sh), 0, 0 };
	return find_result(&m, len, bop_name(op));
}

static int is_xor(enum bench_op op)
{
	return op == BOP_XOR_GEN || op == BOP_XOR_ACC;
}

/* Bytes one call is credited with, for shape `sh` (see Units above). */
static double credited_bytes(const struct opts *o, const struct bench_shape *sh, size_t len)
{
	if (o->units_dst && is_xor(sh->op))
		return (double)len;
	return (double)shape_nin(sh) * (double)len;
}

static double result_gbps(const struct opts *o, const struct result *r,
			  const struct bench_shape *as, int median)
{
	double t;

	if (!r || r->skip)
		return -1;
	t = median ? r->median : r->best;
	if (t <= 0)
		return -1;
	return credited_bytes(o, as ? as : &r->sh, r->len) / t * 1e-9;
}

/* ======================================================================
 * Measuring one cell
 * ====================================================================== */

static const char *block_name(const struct cell *c, unsigned b, char *buf, size_t n)
{
	if (is_xor(c->sh.op))
		snprintf(buf, n, "dst");
	else if (b == c->sh.disks - 2)
		snprintf(buf, n, "P");
	else if (b == c->sh.disks - 1)
		snprintf(buf, n, "Q");
	else
		snprintf(buf, n, "data block %u", b);
	return buf;
}

/* Run once on stripe 0 from the initial contents and compare every output
 * byte with the reference: 0 ok (or r->skip set), -1 wrong. */
static int verify(struct runner *r, struct cell *c)
{
	void **p = c->ptrs;

	for (unsigned i = 0; i < c->g.nout; i++)
		fill_periodic(p[c->g.out[i]], c->len, c->mini_init[c->g.out[i]], c->m);
	double t0 = now();
	if (r->call(r, c, p)) {
		r->skip = "ISA-L returned an error for this shape";
		return 0;
	}
	r->tcall = now() - t0;
	for (unsigned i = 0; i < c->g.nout; i++) {
		unsigned b = c->g.out[i];
		const uint8_t *got = p[b];
		size_t bad = cmp_periodic(got, c->len, c->mini_exp[b], c->m);
		if (bad != SIZE_MAX) {
			char shape[48], blk[32];
			shape_label(&c->sh, shape, sizeof(shape));
			fprintf(stderr,
				"bench: WRONG RESULT: %s %s, %zu-byte blocks, implementation %s: "
				"%s differs from the reference at byte %zu (0x%02x, expected 0x%02x)\n",
				bop_name(c->sh.op), shape, c->len, r->name,
				block_name(c, b, blk, sizeof(blk)), bad, got[bad],
				c->mini_exp[b][bad % c->m]);
			return -1;
		}
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* One sample of r: seconds per call over r->iters calls; *lost tells
 * whether another process preempted it. */
static double take_sample(struct runner *r, struct cell *c, unsigned char *lost)
{
	for (unsigned i = 0; i < r->settle; i++)
		r->call(r, c, next_stripe(c));
	double c0 = cpu_now(), t0 = now();
	for (unsigned i = 0; i < r->iters; i++)
		r->call(r, c, next_stripe(c));
	double t = now() - t0, ct = cpu_now() - c0;
	/* Preempted: count only the time this thread ran. */
	*lost = c0 >= 0 && t - ct > 0.02 * t;
	if (*lost)
		t = ct;
	return t / r->iters;
}

/* Seconds one sample of r takes, its settling calls included. */
static double sample_cost(const struct runner *r)
{
	return (r->iters + r->settle) * r->tcall;
}

/* Sorts v. */
static double median_of(double *v, unsigned n)
{
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double best_sample(const struct runner *r)
{
	double b = INFINITY;
	for (unsigned k = 0; k < r->nsamples; k++)
		b = fmin(b, r->samples[k]);
	return b;
}

/* Has every row two samples within 2% of its best? */
static int all_confirmed(struct runner *const *act, unsigned na)
{
	for (unsigned i = 0; i < na; i++) {
		const struct runner *r = act[i];
		double best = best_sample(r);
		unsigned close = 0;
		for (unsigned k = 0; k < r->nsamples; k++)
			close += r->samples[k] <= best * 1.02;
		if (close < 2)
			return 0;
	}
	return 1;
}

/*
 * The row that takes place j of round k, of n rows: a Williams design
 * (positions 0, 1, n-1, 2, n-2, ... shifted by k), so that who runs right
 * after whom changes from round to round: in n rounds each row follows
 * every other exactly once when n is even (when n is odd, each pair of
 * rows is adjacent once, in one order or the other).  A call leaves the
 * cache to the next one (dirty lines to write back, or lines streamed
 * past it), and a 16 MiB sample is one call with nothing untimed before
 * it (SETTLE_S is for rows of several calls).  The earlier plain
 * rotation, j + k, kept each row behind the same neighbour in all but one
 * place of every round.
 */
static unsigned round_slot(unsigned j, unsigned k, unsigned n)
{
	unsigned w = j == 0 ? 0 : j % 2 ? (j + 1) / 2 : n - j / 2;

	return (w + k) % n;
}

/* Warm-up of a verified runner (measure_cell): its calls per sample of
 * `sample` seconds, and the settling calls before each. */
static void warm_runner(struct runner *r, struct cell *c, double sample)
{
	unsigned n = 0;
	double t0 = now(), t;

	if (r->kind == RK_AUTO) {
		/* the race's learning calls: every candidate once, the kept
		 * ones twice more (two calls each time), then one as the
		 * leader (src/race.c) */
		const struct raidx__impl *cl[RAIDX__RACE_MAX];
		unsigned learn = raidx__race_candidates((enum raidx_op)c->sh.op, cl,
							 RAIDX__RACE_MAX) +
				 2 * RAIDX__RACE_ROUND2 * RAIDX__RACE_KEEP + 1;
		for (unsigned i = 0; i < learn; i++)
			r->call(r, c, next_stripe(c));
	}
	if (r->tcall >= 4 * (sample > SETTLE_S ? sample : SETTLE_S)) {
		r->iters = 1;
		return;
	}
	do {
		r->call(r, c, next_stripe(c));
		n++;
		t = now() - t0;
	} while (t < sample / 2);
	r->tcall = t / n;
	double it = ceil(sample / r->tcall);
	r->iters = it < 1 ? 1 : it > 1e9 ? 1000000000u : (unsigned)it;
	if (r->tcall < SETTLE_S)
		r->settle = (unsigned)ceil(SETTLE_S / r->tcall);
}

/*
 * Verify, warm up and calibrate each runner, then interleaved rounds.
 * `budget` is this cell's share of the run's time; the number of rounds
 * (rmin..rmax) and the sample length follow from it.
 */
static int measure_cell(struct cell *c, struct runner *rs, unsigned nr, double budget,
			const struct opts *o)
{
	struct runner *act[MAX_RUNNERS];
	unsigned na = 0;
	double t_start = now();

	for (unsigned i = 0; i < nr; i++) {
		struct runner *r = &rs[i];
		if (r->skip)
			continue;
		if (r->slow) {
			/* ref: its time on one period, scaled, must fit */
			double est = c->ref_s * (double)c->len / (double)c->m;
			if (est * (o->rmin + 2) > budget / 2) {
				r->skip = "too slow for the time budget at this size";
				continue;
			}
		}
		if ((RK_KERNEL(r->kind) || r->kind == RK_PEER || r->kind == RK_AUTO) &&
		    verify(r, c))
			return -1;
		if (!r->skip)
			act[na++] = r;
	}
	if (!na)
		return 0;

	/* A tight budget shortens the samples before it cuts rounds. */
	double sample = budget / (na * (o->rmax + 1.5));
	if (sample > o->sample)
		sample = o->sample;
	if (sample < 2.5e-4)
		sample = 2.5e-4;

	/*
	 * Warm-up: at least one call and half a sample; gives one call's time.
	 * A checked call that already took four samples (and four SETTLE_S;
	 * memory-bound sizes, 10-200 ms) was warm-up enough: first-call
	 * effects are lost in it, and another call would cost a fifth of the
	 * cell's time.  A shorter one is timed again here, since the check's
	 * call, the first on fresh outputs, can take twice the steady time.
	 */
	for (unsigned i = 0; i < na; i++)
		warm_runner(act[i], c, sample);

	/*
	 * Rounds: at least rmin, then more while the cell's budget allows and
	 * some row's best sample is not yet confirmed by a second sample within
	 * 2% of it (on a quiet machine that is after rmin rounds; on a busy
	 * one a preempted sample is outvoted by later ones), at most rmax.
	 */
	double per_round = 0;
	for (unsigned i = 0; i < na; i++)
		per_round += sample_cost(act[i]);
	for (unsigned k = 0; k < o->rmax; k++) {
		if (k >= o->rmin &&
		    (all_confirmed(act, na) || now() - t_start + per_round > budget))
			break;
		for (unsigned j = 0; j < na; j++) {
			struct runner *r = act[round_slot(j, k, na)];
			r->samples[r->nsamples] = take_sample(r, c, &r->lost_cpu[r->nsamples]);
			r->nsamples++;
		}
	}
	return 0;
}

/* ======================================================================
 * Building the rows of one cell
 * ====================================================================== */

static int impl_wanted(const struct opts *o, const char *name)
{
	if (o->impls && !list_has(o->impls, "all"))
		return list_has(o->impls, name);
	return strcmp(name, "ref") || o->all;
}

static unsigned build_runners(struct runner *rs, const struct bench_shape *sh, size_t len,
			      const struct opts *o)
{
	const struct raidx__impl *const *list;
	unsigned n = 0, cnt = raidx__impl_list((enum raidx_op)sh->op, &list);
	/* The kernel the public call of this shape would use: its width class
	 * (data blocks read) and size class (small or large, by the bytes it
	 * streams: raidx__class_of) pick it. */
	const struct raidx__impl *cur = raidx__impl_for((enum raidx_op)sh->op, sh->disks,
							sh->start, sh->stop, len);
	/* A call that races (src/race.c) has no one kernel: the public call
	 * is timed as a row of its own, the chosen one. */
	int raced = raidx__call_bytes((enum raidx_op)sh->op, sh->disks,
				      sh->op == BOP_XOR_SYNDROME ? sh->start : 0,
				      sh->op == BOP_XOR_SYNDROME ? sh->stop : 0, len) >
			    raidx__race_limit((enum raidx_op)sh->op) &&
		    impl_wanted(o, "raidx");

	memset(rs, 0, sizeof(*rs) * MAX_RUNNERS);
	for (unsigned i = 0; i < cnt && n < MAX_RUNNERS - 6; i++) {
		if (!raidx__impl_runnable(list[i]) || !impl_wanted(o, list[i]->name))
			continue;
		struct runner *r = &rs[n++];
		snprintf(r->name, sizeof(r->name), "%s", list[i]->name);
		r->kind = raidx__impl_left_out(list[i]) ? RK_OUT : RK_IMPL;
		r->call = call_impl;
		r->impl = list[i];
		r->chosen = !raced && list[i] == cur;
		r->slow = !strcmp(list[i]->name, "ref");
	}
	/* Named in --impl, the public call in every cell: next to the kernel
	 * it runs, what the call's checks and dispatch cost (dispatch.c).
	 * Only chosen where it races; never a rival. */
	if (raced || (o->impls && list_has(o->impls, "raidx"))) {
		struct runner *r = &rs[n++];
		snprintf(r->name, sizeof(r->name), "raidx");
		r->kind = RK_AUTO;
		r->call = call_public;
		r->chosen = raced;
	}
	if (impl_wanted(o, "isal")) {
		struct runner *r = &rs[n++];
		snprintf(r->name, sizeof(r->name), "isal");
		r->kind = RK_PEER;
		r->call = call_isal;
		r->isal = bench_isal_prepare(sh, len, &r->skip);
	}
	/* Linux's raid6 algorithm, for the two operations it has */
	for (unsigned u = 2; u <= 4; u += 2) {
		char name[16];
		const char *why = NULL;
		snprintf(name, sizeof(name), "linux_x%u", u);
		int wanted = impl_wanted(o, name) || (o->impls && list_has(o->impls, "linux"));
		if ((sh->op != BOP_GEN_SYNDROME && sh->op != BOP_XOR_SYNDROME) || !wanted)
			continue;
		struct runner *r = &rs[n++];
		snprintf(r->name, sizeof(r->name), "%s", name);
		r->kind = RK_PEER;
		r->call = call_linux;
		r->lx_unroll = u;
		if (!bench_linux_check(sh, len, u, NULL, &why))
			r->skip = why;
	}
	/* memread and memcpy once per (blocks read, length) */
	for (enum bench_op op = BOP_MEMREAD; op <= BOP_MEMCPY; op++) {
		if (!impl_wanted(o, bop_name(op)) || find_mem(op, sh, len))
			continue;
		struct runner *r = &rs[n++];
		snprintf(r->name, sizeof(r->name), "%s", bop_name(op));
		r->kind = op == BOP_MEMREAD ? RK_MEMREAD : RK_MEMCPY;
		r->call = op == BOP_MEMREAD ? call_memread : call_memcpy;
	}
	return n;
}

/* Median over rounds of t(c) / t(r): r's speed relative to c. */
static double paired_ratio(const struct runner *r, const struct runner *c)
{
	double q[MAX_ROUNDS];
	unsigned n = r->nsamples < c->nsamples ? r->nsamples : c->nsamples;

	if (!n)
		return 0;
	for (unsigned k = 0; k < n; k++)
		q[k] = c->samples[k] / r->samples[k];
	return median_of(q, n);
}

/*
 * The sign test's bound for the median of n values.  With B the number of
 * values below the true median (Binomial(n, 1/2)), the median lies below
 * sorted v[j] exactly when B <= j.  Returns k, one more than the largest
 * j with P(B <= j) <= alpha, so that v[k - 1] and v[n - k] bound the
 * median with at most alpha outside on each side; 0 when n is too small
 * for any bound (fewer than 5 values at alpha 0.05).
 */
static unsigned sign_test_k(unsigned n, double alpha)
{
	double p = ldexp(1.0, -(int)n), cdf = 0; /* P(B = 0) = 2^-n */
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++) {
		cdf += p;
		if (cdf > alpha)
			break;
		k = i + 1;
		p = p * (n - i) / (i + 1); /* P(B = i + 1) */
	}
	return k;
}

/* Pairs k0..k1-1 of a recheck: chosen/rival speed, order alternating. */
static void take_pairs(struct runner *ch, struct runner *r, struct cell *c, double *q,
		       unsigned k0, unsigned k1)
{
	for (unsigned k = k0; k < k1; k++) {
		unsigned char lost;
		struct runner *a = k % 2 ? r : ch, *b = k % 2 ? ch : r;
		double ta = take_sample(a, c, &lost);
		double tb = take_sample(b, c, &lost);
		q[k] = a == ch ? tb / ta : ta / tb;
	}
}

/* Back-to-back pairs of ch and r, more while the verdict is open (see
 * RECHECK_ROUNDS): *m their median chosen/rival speed, *lo and *hi the
 * extremes; returns how many pairs. */
static unsigned recheck_pairs(struct runner *ch, struct runner *r, struct cell *c,
			      double *m, double *lo, double *hi)
{
	double per_pair = sample_cost(ch) + sample_cost(r);
	unsigned n = per_pair > 0 ? (unsigned)(RECHECK_S / per_pair) : RECHECK_PAIRS;
	n = n < RECHECK_MIN ? RECHECK_MIN : n > RECHECK_PAIRS ? RECHECK_PAIRS : n;
	double q[RECHECK_ROUNDS * RECHECK_PAIRS];
	unsigned n0 = n;

	take_pairs(ch, r, c, q, 0, n);
	for (;;) {
		*m = median_of(q, n); /* sorts q */
		unsigned k = sign_test_k(n, RECHECK_ALPHA);
		int open = !k || (q[k - 1] < PICK_GOAL && q[n - k] >= PICK_GOAL);
		if (!open || n >= RECHECK_ROUNDS * n0) /* n0 <= RECHECK_PAIRS */
			break;
		take_pairs(ch, r, c, q, n, n + n0);
		n += n0;
	}
	*lo = q[0];
	*hi = q[n - 1];
	return n;
}

/*
 * Recheck a pick.  A cell's rounds time every row of the table, 3 to 9
 * times each, and on this shared machine two runs of the *same* code read
 * 0.84-1.35x apart in them (avx2x4 calls avx2x2 beyond 512 KiB: 729 such
 * pairs over nine runs, 9% of them below 0.95).  So when another raidx
 * kernel looked faster than the chosen one (RECHECK_BELOW), by its best
 * sample or paired within the rounds, the two are timed again alone, in
 * back-to-back pairs of samples (order alternating, so neither always runs
 * second), and the chosen kernel's speed relative to the rival is the
 * median over the pairs.  A single pair still spreads 0.6-1.4x here; the
 * median of many does not.  Measured on that same code (a build that
 * rechecked every x4/x2 pair, `--op gen_syndrome,xor_syndrome,
 * recov_2data,recov_datap --len 1m --impl avx2x2,avx2x4`, two runs, 56
 * rechecks): 31 pairs read 0.946-1.076 (2 below 0.95), 63 pairs
 * 0.967-1.028; at 16 MiB (52 rechecks of 35-63 pairs, as RECHECK_S allows)
 * 0.98-1.03.  A pick that really is slower stays slower
 * (docs/performance-log.md, "Why the bench rechecks"); the first-pass
 * figures are kept and shown beside the recheck.
 */
static void recheck_cell(struct cell *c, struct runner *rs, unsigned nr)
{
	struct runner *ch = NULL, *riv[MAX_RUNNERS];
	double first[MAX_RUNNERS];
	unsigned nriv = 0;

	for (unsigned i = 0; i < nr; i++)
		if (rs[i].chosen && !rs[i].skip && rs[i].nsamples)
			ch = &rs[i];
	if (!ch || !(RK_KERNEL(ch->kind) || ch->kind == RK_AUTO))
		return;
	/* The rivals, the one the chosen kernel looked slowest against first:
	 * chosen/rival speed by best samples and paired, the lower of the two. */
	double tch = best_sample(ch);
	for (unsigned i = 0; i < nr; i++) {
		struct runner *r = &rs[i];
		if (r == ch || r->kind != RK_IMPL || r->skip || !r->nsamples)
			continue;
		double f = fmin(best_sample(r) / tch, 1 / paired_ratio(r, ch));
		if (f >= RECHECK_BELOW)
			continue;
		unsigned j = nriv++;
		for (; j > 0 && first[j - 1] > f; j--)
			riv[j] = riv[j - 1], first[j] = first[j - 1];
		riv[j] = r, first[j] = f;
	}
	/* Recheck them in turn; the first confirmed miss decides. */
	for (unsigned i = 0; i < nriv; i++) {
		struct runner *r = riv[i];
		double m, lo, hi;
		unsigned n = recheck_pairs(ch, r, c, &m, &lo, &hi);
		if (!ch->rc.pairs || m < ch->rc.ratio) {
			snprintf(ch->rc.vs, sizeof(ch->rc.vs), "%s", r->name);
			ch->rc.first = first[i];
			ch->rc.ratio = m;
			ch->rc.lo = lo;
			ch->rc.hi = hi;
			ch->rc.pairs = n;
		}
		if (m < PICK_GOAL)
			break;
	}
}

static int store_results(const struct runner *rs, unsigned nr, const struct bench_shape *sh,
			 size_t len)
{
	const struct runner *ch = NULL;

	for (unsigned i = 0; i < nr; i++)
		if (rs[i].chosen && !rs[i].skip && rs[i].nsamples)
			ch = &rs[i];
	for (unsigned i = 0; i < nr; i++) {
		const struct runner *r = &rs[i];
		struct result res;
		double s[MAX_ROUNDS];

		memset(&res, 0, sizeof(res));
		res.sh = *sh;
		res.len = len;
		snprintf(res.name, sizeof(res.name), "%s", r->name);
		res.kind = r->kind;
		res.chosen = r->chosen;
		res.rc = r->rc;
		res.skip = r->skip;
		if (r->kind == RK_MEMREAD || r->kind == RK_MEMCPY)
			res.sh = (struct bench_shape){ r->kind == RK_MEMREAD ? BOP_MEMREAD : BOP_MEMCPY,
						       shape_nin(sh), 0, 0 };
		if (!r->skip && r->nsamples) {
			/* The best of all samples; the median of those that
			 * kept the CPU, when there are any. */
			unsigned n = 0;
			res.best = best_sample(r);
			for (unsigned k = 0; k < r->nsamples; k++) {
				res.lost_cpu += r->lost_cpu[k];
				if (!r->lost_cpu[k])
					s[n++] = r->samples[k];
			}
			if (!n) /* all preempted: their CPU times, then */
				for (unsigned k = 0; k < r->nsamples; k++)
					s[n++] = r->samples[k];
			res.median = median_of(s, n);
			res.samples = r->nsamples;
			if (ch && r->kind == RK_IMPL)
				res.paired = paired_ratio(r, ch);
		} else if (!r->skip) {
			res.skip = "not measured";
		}
		if (add_result(&res))
			return -1;
	}
	return 0;
}

/*
 * The cells whose recheck found a miss, timed the same way once more at
 * the end of the run, minutes after their first recheck: the chosen kernel
 * against the same rival, set up afresh.  On the Intel Xeon of 2026-12-04
 * the 256- and 512-bit kernels now and then ran 1.7-2.8x slow for half a
 * second or more while sse2 ran at its usual speed, in one cell of a run
 * and not the next: in a default run, xor_gen of 2 sources at 4 KiB had
 * avx512 at 87 GB/s, avx2 77 and sse2 95 (240, 179 and 115 in the run
 * before), and its recheck read avx512 at 0.93 of sse2 through the spell;
 * 15 runs of `raidx bench --op xor_gen --disks 2,3 --len 4k --impl
 * sse2,avx2,avx512`: one cell of 30 so (avx512 141 against 296-335
 * elsewhere, avx2 111, sse2 122), two with every kernel slowed.  A pick
 * that is slower stays slower at the end of the run; such a spell does
 * not last that long.  The late figure is shown beside the recheck, for
 * the reader to tell the two apart; the verdict, and the summary's counts,
 * stay the first recheck's.
 */
static int late_rechecks(const struct opts *o, struct runner *rs, size_t llc)
{
	for (size_t i = 0; i < nresults; i++) {
		struct result *res = &results[i];
		struct runner *ch = NULL, *riv = NULL;
		struct cell c;
		int rc = 0;

		if (!res->chosen || !res->rc.pairs || res->rc.ratio >= PICK_GOAL)
			continue;
		unsigned nr = build_runners(rs, &res->sh, res->len, o);
		for (unsigned k = 0; k < nr; k++) {
			if (rs[k].skip)
				continue;
			if (rs[k].chosen && !strcmp(rs[k].name, res->name))
				ch = &rs[k];
			else if (rs[k].kind == RK_IMPL && !strcmp(rs[k].name, res->rc.vs))
				riv = &rs[k];
		}
		if (ch && riv && !cell_setup(&c, &res->sh, res->len, o, llc)) {
			if (verify(ch, &c) || verify(riv, &c)) {
				rc = -1;
			} else if (!ch->skip && !riv->skip) {
				double m, lo, hi;
				warm_runner(ch, &c, o->sample);
				warm_runner(riv, &c, o->sample);
				res->rc.late_pairs = recheck_pairs(ch, riv, &c, &m, &lo, &hi);
				res->rc.late = m;
			}
			cell_free(&c);
		}
		for (unsigned k = 0; k < nr; k++)
			bench_isal_free(rs[k].isal);
		if (rc)
			return rc;
	}
	return 0;
}

/* ======================================================================
 * Output: header, tables, summary, csv, json, plot
 * ====================================================================== */

static void cpu_model(char *buf, size_t n)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, n, "unknown CPU");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "model name", 10) || !strncmp(line, "Hardware", 8) ||
		    !strncmp(line, "cpu model", 9)) {
			char *v = strchr(line, ':');
			if (v) {
				v += 1 + strspn(v + 1, " \t");
				v[strcspn(v, "\n")] = '\0';
				snprintf(buf, n, "%s", v);
				break;
			}
		}
	}
	fclose(f);
}

static void command_line(const struct opts *o, char *buf, size_t n)
{
	size_t used = (size_t)snprintf(buf, n, "raidx");

	for (int i = 0; i < o->argc && used < n; i++) {
		const char *a = o->argv[i];
		int quote = !*a || strpbrk(a, " \t'\"$*?;&|<>()") != NULL;
		int w = snprintf(buf + used, n - used, quote ? " '%s'" : " %s", a);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* Print `text` wrapped at the screen width, continuation lines indented. */
static void put_wrapped(FILE *f, const char *text)
{
	raidx_tool_wrap(f, text, 0, 3, SCREEN_W);
}

static void print_header(FILE *f, const struct opts *o, size_t llc)
{
	char cpu[256], cmd[1024], date[64], feats[256] = "", line[1400];
	time_t t = time(NULL);
	uint32_t fm = raidx_cpu_features();
	size_t used = 0;

	cpu_model(cpu, sizeof(cpu));
	command_line(o, cmd, sizeof(cmd));
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S %z", localtime(&t));
	for (unsigned b = 0; b < 32; b++) {
		const char *nm = raidx_cpu_feature_name(1u << b);
		if ((fm & (1u << b)) && nm && used < sizeof(feats))
			used += (size_t)snprintf(feats + used, sizeof(feats) - used, "%s%s",
						 used ? " " : "", nm);
	}
	snprintf(line, sizeof(line), "raidx bench, %s, raidx %s, isal: %s", date,
		 raidx_version(), bench_isal_describe());
	put_wrapped(f, line);
	/* The bench's figure sizes --cold's stripes (the more the surer they
	 * come from memory); the library caps what a package-wide figure
	 * claims (select.c, LLC_GUESS_MAX), and its size classes and race use
	 * that, so show both where they differ (508 and 32 MiB on the
	 * Turin-like Zen 5). */
	size_t lib = raidx__llc_bytes();
	char lib_s[64] = "";
	if (lib != llc)
		snprintf(lib_s, sizeof(lib_s), " (raidx's classes take %zu MiB)", lib >> 20);
	snprintf(line, sizeof(line), "cpu: %s; features: %s; last-level cache: %zu MiB%s", cpu,
		 used ? feats : "-", llc >> 20, lib_s);
	put_wrapped(f, line);
	snprintf(line, sizeof(line), "command: %s", cmd);
	put_wrapped(f, line);
	snprintf(line, sizeof(line), "buffers: %s; %s; %s; memread: %s loads",
		 o->page_aligned ? "every block at a page boundary"
				 : "64-byte aligned, block i at i*192 B into its pages",
		 o->small_pages ? "4 KiB pages" : "2 MiB pages asked for",
		 o->cold ? "cold (each call on another stripe, 2x the LLC in all)"
			 : "warm (the same stripe every call)",
		 bench_memread_isa());
	put_wrapped(f, line);
	snprintf(line, sizeof(line),
		 "timing: per cell, check against ref, warm-up, then %u-%u interleaved rounds of "
		 "~%.2g ms samples; %s shown; budget %.3g s",
		 o->rmin, o->rmax, o->sample * 1e3, o->stat_median ? "median" : "best", o->budget);
	put_wrapped(f, line);
	snprintf(line, sizeof(line), "units: GB/s = 10^9 bytes per second of %s",
		 o->units_dst ? "destination written for the xor ops (Linux convention), of data "
				"read otherwise"
			      : "data read (xor: all sources; gen_syndrome, recovery: data blocks; "
				"xor_syndrome: the window)");
	put_wrapped(f, line);

	/* implementations compiled in but not runnable here, and those that
	 * run but a quirk keeps out of selection */
	char names[1024];
	if (impl_names(names, sizeof(names), impl_not_runnable)) {
		snprintf(line, sizeof(line), "not runnable on this CPU (not measured): %s", names);
		put_wrapped(f, line);
	}
	if (impl_names(names, sizeof(names), raidx__impl_left_out)) {
		snprintf(line, sizeof(line), "zmm_downclock CPU: timed, but never chosen and no rival "
			 "of the pick (512-bit vectors slow the code around them): %s", names);
		put_wrapped(f, line);
	}
}

/* Names of the rows of `op`'s tables, in the order they were run. */
static unsigned row_names(enum bench_op op, const char **names, unsigned max)
{
	unsigned n = 0;

	for (size_t i = 0; i < nresults; i++) {
		const struct result *r = &results[i];
		if (r->sh.op != op || n == max)
			continue;
		unsigned j = 0;
		while (j < n && strcmp(names[j], r->name))
			j++;
		if (j == n)
			names[n++] = r->name;
	}
	for (enum bench_op m = BOP_MEMREAD; m <= BOP_MEMCPY && n < max; m++)
		for (size_t i = 0; i < nresults; i++)
			if (results[i].sh.op == m) {
				names[n++] = bop_name(m);
				break;
			}
	return n;
}

/* The result shown for row `name` in the column (sh, len). */
static const struct result *cell_result(const struct bench_shape *sh, size_t len, const char *name)
{
	if (!strcmp(name, "memread"))
		return find_mem(BOP_MEMREAD, sh, len);
	if (!strcmp(name, "memcpy"))
		return find_mem(BOP_MEMCPY, sh, len);
	return find_result(sh, len, name);
}

static double cell_gbps(const struct opts *o, const struct bench_shape *sh, size_t len,
			const char *name, int median)
{
	const struct result *r = cell_result(sh, len, name);
	return r ? result_gbps(o, r, sh, median) : -1;
}

/* Baseline of a column: --baseline NAME, or the fastest int64* kernel. */
static double baseline_gbps(const struct opts *o, const struct bench_shape *sh, size_t len,
			    const char **names, unsigned nn)
{
	if (o->baseline)
		return cell_gbps(o, sh, len, o->baseline, o->stat_median);
	double best = -1;
	for (unsigned i = 0; i < nn; i++) {
		if (strncmp(names[i], "int64", 5))
			continue;
		double v = cell_gbps(o, sh, len, names[i], o->stat_median);
		if (v > best)
			best = v;
	}
	return best;
}

struct col {
	const struct bench_shape *sh;
	size_t len;
};

static void fmt_gbps(double v, char *buf, size_t n)
{
	if (v < 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, v < 100 ? "%.2f" : "%.1f", v);
}

static void fmt_ratio(double v, char *buf, size_t n)
{
	if (v < 0)
		buf[0] = '\0';
	else
		snprintf(buf, n, v < 10 ? "%.2fx" : v < 100 ? "%.1fx" : "%.0fx", v);
}

static void print_table(const struct opts *o, enum bench_op op, const char *title,
			const struct col *cols, unsigned nc, int by_len)
{
	const char *names[MAX_RUNNERS + 2];
	unsigned nn = row_names(op, names, MAX_RUNNERS + 2), namew = 6;
	const char *notes[16];
	const char *note_rows[16];
	unsigned nnotes = 0;

	for (unsigned i = 0; i < nn; i++)
		if (strlen(names[i]) > namew)
			namew = (unsigned)strlen(names[i]);
	printf("\n%s\n", title);
	printf(" %-*s", (int)namew + 1, "impl");
	for (unsigned j = 0; j < nc; j++) {
		char lab[48];
		if (by_len)
			len_label(cols[j].len, lab, sizeof(lab));
		else
			shape_label(cols[j].sh, lab, sizeof(lab));
		printf("%*s", CELL_W, lab);
	}
	printf("\n");

	double base[MAX_TABLE_COLS];
	for (unsigned j = 0; j < nc; j++)
		base[j] = baseline_gbps(o, cols[j].sh, cols[j].len, names, nn);
	for (unsigned i = 0; i < nn; i++) {
		const struct result *any = NULL;
		int chosen = 0;
		for (unsigned j = 0; j < nc; j++) {
			const struct result *r = cell_result(cols[j].sh, cols[j].len, names[i]);
			if (r) {
				any = r;
				chosen |= r->chosen;
			}
		}
		if (!any)
			continue; /* row not measured for these columns */
		printf("%c%-*s", chosen ? '*' : ' ', (int)namew + 1, names[i]);
		for (unsigned j = 0; j < nc; j++) {
			const struct result *r = cell_result(cols[j].sh, cols[j].len, names[i]);
			double v = r ? result_gbps(o, r, cols[j].sh, o->stat_median) : -1;
			char a[16], b[16];
			fmt_gbps(v, a, sizeof(a));
			fmt_ratio(v >= 0 && base[j] > 0 ? v / base[j] : -1, b, sizeof(b));
			printf(" %7s %6s", a, b);
			if (r && r->skip && nnotes < 16) {
				unsigned k = 0;
				while (k < nnotes && (strcmp(notes[k], r->skip) || strcmp(note_rows[k], names[i])))
					k++;
				if (k == nnotes) {
					notes[nnotes] = r->skip;
					note_rows[nnotes++] = names[i];
				}
			}
		}
		printf("\n");
	}
	for (unsigned k = 0; k < nnotes; k++)
		printf("  - %s: %s\n", note_rows[k], notes[k]);
}

static unsigned table_cols(const char **names, unsigned nn)
{
	unsigned namew = 6;
	for (unsigned i = 0; i < nn; i++)
		if (strlen(names[i]) > namew)
			namew = (unsigned)strlen(names[i]);
	unsigned n = (SCREEN_W - namew - 2) / CELL_W;
	return n < 1 ? 1 : n > MAX_TABLE_COLS ? MAX_TABLE_COLS : n;
}

static void units_phrase(const struct opts *o, enum bench_op op, char *buf, size_t n)
{
	const char *what;

	if (o->units_dst && is_xor(op))
		what = "GB/s of destination written";
	else if (op == BOP_XOR_SYNDROME)
		what = "GB/s of window data read";
	else if (is_xor(op))
		what = "GB/s of sources read";
	else
		what = "GB/s of data blocks";
	if (o->baseline)
		snprintf(buf, n, "%s; x = ratio to %s", what, o->baseline);
	else
		snprintf(buf, n, "%s; x = ratio to the fastest int64* in the column", what);
}

static void print_op_tables(const struct opts *o, enum bench_op op)
{
	const char *names[MAX_RUNNERS + 2];
	unsigned nn = row_names(op, names, MAX_RUNNERS + 2), maxc = table_cols(names, nn);
	const struct bench_shape *sh[MAX_SHAPES];
	unsigned ns = 0;
	struct col cols[MAX_LENS > MAX_SHAPES ? MAX_LENS : MAX_SHAPES];
	char units[160], title[320];

	if (!nn)
		return;
	for (unsigned i = 0; i < nshapes; i++)
		if (shapes[i].op == op)
			sh[ns++] = &shapes[i];
	units_phrase(o, op, units, sizeof(units));

	if (ns == 1 && o->nlens > 1) {
		/* one shape: lengths are the columns */
		char lab[48];
		shape_label(sh[0], lab, sizeof(lab));
		for (unsigned at = 0; at < o->nlens; at += maxc) {
			unsigned nc = 0;
			for (unsigned l = at; l < o->nlens && nc < maxc; l++)
				cols[nc++] = (struct col){ sh[0], o->lens[l] };
			snprintf(title, sizeof(title), "%s %s, by block length: %s", bop_name(op), lab, units);
			print_table(o, op, title, cols, nc, 1);
		}
		return;
	}
	for (unsigned l = 0; l < o->nlens; l++) {
		char lab[32];
		unsigned nc = 0;
		for (unsigned i = 0; i < ns; i++)
			cols[nc++] = (struct col){ sh[i], o->lens[l] };
		len_label(o->lens[l], lab, sizeof(lab));
		snprintf(title, sizeof(title), "%s, %s blocks: %s", bop_name(op), lab, units);
		/* Wrap to the screen; when wrapping anyway, break where disks
		 * change so that each table is one array size. */
		unsigned at = 0;
		while (at < nc) {
			unsigned end = at + 1;
			while (end < nc && end - at < maxc &&
			       !(nc > maxc && cols[end].sh->disks != cols[end - 1].sh->disks &&
				 !is_xor(op)))
				end++;
			print_table(o, op, title, cols + at, end - at, 0);
			at = end;
		}
	}
}

static double geo_add(double *acc, unsigned *n, double v)
{
	*acc += log(v);
	(*n)++;
	return v;
}

#define SUM_COLS 8

/* Append name to the "/"-separated list in buf unless it is there. */
static void name_add(char *buf, size_t size, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = buf; *p;) {
		size_t k = strcspn(p, "/");
		if (k == n && !strncmp(p, name, n))
			return;
		p += k + (p[k] == '/');
	}
	size_t used = strlen(buf);
	snprintf(buf + used, size - used, "%s%s", used ? "/" : "", name);
}

/* The cells recheck_cell ran on: the first pass against the recheck. */
static void print_rechecks(const struct opts *o)
{
	unsigned n = 0, ok = 0;

	for (size_t i = 0; i < nresults; i++) {
		const struct result *r = &results[i];
		char a[48], b[32];
		if (!r->rc.pairs)
			continue;
		if (!n++)
			printf("\nRechecked: the chosen kernel against the ones that looked "
			       "faster,\ntimed alone in back-to-back pairs of samples: chosen/"
			       "rival speed, first pass (lower of\nbest and paired) -> median over "
			       "the pairs [lowest..highest pair]; more pairs (up to %ux) while\n"
			       "%.2f lies in the median's %.0f%% confidence interval\n",
			       RECHECK_ROUNDS, PICK_GOAL, 100 * (1 - 2 * RECHECK_ALPHA));
		ok += r->rc.ratio >= PICK_GOAL;
		shape_label(&r->sh, a, sizeof(a));
		len_label(r->len, b, sizeof(b));
		printf("  %-13s %-22s %-7s %s vs %s: %.2f -> %.2f [%.2f..%.2f], %u pairs%s",
		       bop_name(r->sh.op), a, b, r->name, r->rc.vs, r->rc.first, r->rc.ratio,
		       r->rc.lo, r->rc.hi, r->rc.pairs,
		       r->rc.ratio >= PICK_GOAL ? "" : "  MISS");
		if (r->rc.late_pairs)
			printf("; at the end of the run %.2f (%u pairs)", r->rc.late,
			       r->rc.late_pairs);
		printf("\n");
	}
	if (n)
		printf("  %u of %u rechecked picks within %.0f%% of the rival\n", ok, n,
		       (1 - PICK_GOAL) * 100);
	else if (!o->no_recheck)
		printf("\nRechecked: none needed (no kernel looked faster than the "
		       "chosen one)\n");
}

static void print_summary(const struct opts *o, double elapsed)
{
	static const char *const head[SUM_COLS] = {
		"op", "chosen", "fastest (cells won)", "chosen/fastest", "worst at",
		"paired: geo, min, cells >= 0.95", "rechecked: min, cells >= 0.95",
		"chosen/isal geo [min..max]",
	};
	char rows[RAIDX_OP_COUNT][SUM_COLS][160];
	unsigned nrows = 0, width[SUM_COLS];

	for (unsigned oi = 0; oi < o->nops; oi++) {
		enum bench_op op = (enum bench_op)o->ops[oi];
		const char *names[MAX_RUNNERS + 2];
		unsigned wins[MAX_RUNNERS + 2] = { 0 }, cells = 0, nn = row_names(op, names, MAX_RUNNERS + 2);
		/* the kernels the public calls of these cells use, in-cache
		 * first (they differ by width and size class) */
		char chosen[2][64] = { "", "" };
		double worst = INFINITY, gsum = 0, isum = 0, imin = INFINITY, imax = 0;
		double psum = 0, pmin = INFINITY, rmin = INFINITY;
		unsigned gn = 0, in = 0, pn = 0, pok = 0, rn = 0, rok = 0;
		char (*row)[160] = rows[nrows];

		snprintf(row[4], sizeof(row[4]), "-");
		for (unsigned i = 0; i < nshapes; i++) {
			if (shapes[i].op != op)
				continue;
			for (unsigned l = 0; l < o->nlens; l++) {
				size_t len = o->lens[l];
				double best = -1, ch = -1, pfast = 0, bbest = -1, bch = -1;
				const struct result *chr = NULL;
				unsigned bi = 0;
				for (unsigned j = 0; j < nn; j++) {
					const struct result *r = find_result(&shapes[i], len, names[j]);
					if (!r || (r->kind != RK_IMPL && r->kind != RK_AUTO))
						continue;
					double v = result_gbps(o, r, NULL, o->stat_median);
					double vb = result_gbps(o, r, NULL, 0);
					if (r->kind == RK_IMPL && v > best)
						best = v, bi = j;
					if (r->kind == RK_IMPL && vb > bbest)
						bbest = vb;
					if (r->paired > pfast)
						pfast = r->paired;
					if (r->chosen) {
						ch = v;
						bch = vb;
						chr = r;
						int big = raidx__class_of(
							(enum raidx_op)op,
							raidx__call_blocks((enum raidx_op)op, shapes[i].disks,
									   shapes[i].start, shapes[i].stop),
							raidx__call_bytes((enum raidx_op)op, shapes[i].disks,
									  shapes[i].start, shapes[i].stop,
									  len)) == RAIDX__LARGE;
						name_add(chosen[big], sizeof(chosen[big]), names[j]);
					}
				}
				if (best <= 0)
					continue;
				cells++;
				wins[bi]++;
				if (ch <= 0)
					continue;
				if (pfast > 0) {
					double pq = geo_add(&psum, &pn, 1 / pfast);
					pmin = fmin(pmin, pq);
					pok += pq >= PICK_GOAL;
				}
				if (!o->no_recheck) {
					/* the recheck where one ran (recheck_cell), else
					 * the first pass, which then met the goal */
					double v = chr->rc.pairs ? chr->rc.ratio
						   : fmin(bch / bbest, pfast > 0 ? 1 / pfast : 1);
					rn++;
					rok += v >= PICK_GOAL;
					rmin = fmin(rmin, fmin(v, 1));
				}
				double q = geo_add(&gsum, &gn, ch / best);
				if (q < worst) {
					char a[48], b[32];
					worst = q;
					shape_label(&shapes[i], a, sizeof(a));
					len_label(len, b, sizeof(b));
					snprintf(row[4], sizeof(row[4]), "%s, %s", a, b);
				}
				double iv = cell_gbps(o, &shapes[i], len, "isal", o->stat_median);
				if (iv > 0) {
					double q2 = geo_add(&isum, &in, ch / iv);
					imin = fmin(imin, q2);
					imax = fmax(imax, q2);
				}
			}
		}
		if (!cells)
			continue;
		snprintf(row[0], sizeof(row[0]), "%s", bop_name(op));
		if (chosen[0][0] && chosen[1][0] && strcmp(chosen[0], chosen[1]))
			snprintf(row[1], sizeof(row[1]), "%s (large: %s)", chosen[0], chosen[1]);
		else
			snprintf(row[1], sizeof(row[1]), "%s", chosen[0][0] ? chosen[0] : chosen[1]);
		/* the two kernels that won most cells */
		size_t fu = 0;
		row[2][0] = '\0';
		for (unsigned rank = 0; rank < 2; rank++) {
			unsigned bj = 0, bw = 0;
			for (unsigned j = 0; j < nn; j++)
				if (wins[j] > bw)
					bw = wins[j], bj = j;
			if (!bw || fu >= sizeof(row[2]))
				break;
			fu += (size_t)snprintf(row[2] + fu, sizeof(row[2]) - fu, "%s%s %u/%u",
					       rank ? ", " : "", names[bj], bw, cells);
			wins[bj] = 0;
		}
		if (worst >= 0.995) /* chosen was (within rounding) the fastest everywhere */
			snprintf(row[4], sizeof(row[4]), "-");
		if (gn)
			snprintf(row[3], sizeof(row[3]), "geo %.2f, min %.2f", exp(gsum / gn), worst);
		else
			snprintf(row[3], sizeof(row[3]), "(not measured)");
		if (pn)
			snprintf(row[5], sizeof(row[5]), "%.2f, %.2f, %u/%u", exp(psum / pn), pmin,
				 pok, pn);
		else
			snprintf(row[5], sizeof(row[5]), "-");
		if (rn)
			snprintf(row[6], sizeof(row[6]), "%.2f, %u/%u", rmin, rok, rn);
		else
			snprintf(row[6], sizeof(row[6]), "-");
		if (in)
			snprintf(row[7], sizeof(row[7]), "%.2f [%.2f..%.2f]", exp(isum / in), imin, imax);
		else
			snprintf(row[7], sizeof(row[7]), "-");
		nrows++;
	}

	printf("\nSummary: * chosen = what raidx uses; fastest = the raidx kernel with the highest "
	       "GB/s in most cells;\nchosen/fastest and chosen/isal = GB/s ratios per cell "
	       "(geometric mean, minimum, and where the minimum is);\npaired = chosen/fastest "
	       "from the ratios within each round (median over rounds), immune to the\n"
	       "machine changing speed between rounds; rechecked = where another kernel "
	       "looked faster,\nthe chosen one timed against it alone in "
	       "pairs of samples (listed below), else the first pass; (large: K) = the\n"
	       "kernel of the calls in the large size class (`raidx info`)\n");
	for (unsigned c = 0; c < SUM_COLS; c++) {
		width[c] = (unsigned)strlen(head[c]);
		for (unsigned r = 0; r < nrows; r++)
			if (strlen(rows[r][c]) > width[c])
				width[c] = (unsigned)strlen(rows[r][c]);
	}
	for (unsigned c = 0; c < SUM_COLS; c++)
		printf("%-*s%s", c + 1 < SUM_COLS ? (int)width[c] : 0, head[c], c + 1 < SUM_COLS ? "  " : "\n");
	for (unsigned r = 0; r < nrows; r++)
		for (unsigned c = 0; c < SUM_COLS; c++)
			printf("%-*s%s", c + 1 < SUM_COLS ? (int)width[c] : 0, rows[r][c],
			       c + 1 < SUM_COLS ? "  " : "\n");

	print_rechecks(o);

	/* How noisy was it?  best/median per measured row, and how many
	 * samples had to share the CPU with other processes. */
	unsigned nm = 0, close = 0, nsamp = 0, nlost = 0;
	double worst = 1;
	const struct result *wr = NULL;
	for (size_t i = 0; i < nresults; i++) {
		const struct result *r = &results[i];
		if (r->skip || r->median <= 0)
			continue;
		double q = r->best / r->median;
		nm++;
		nsamp += r->samples;
		nlost += r->lost_cpu;
		close += q >= 0.98;
		if (q < worst)
			worst = q, wr = r;
	}
	if (nm) {
		printf("noise: median within 2%% of best in %u of %u measurements", close, nm);
		if (wr) {
			char a[48], b[32];
			shape_label(&wr->sh, a, sizeof(a));
			len_label(wr->len, b, sizeof(b));
			if (wr->kind == RK_MEMREAD || wr->kind == RK_MEMCPY)
				printf("; widest gap %.0f%% (%s %s, %s)", (1 / worst - 1) * 100,
				       wr->name, a, b);
			else
				printf("; widest gap %.0f%% (%s %s %s, %s)", (1 / worst - 1) * 100,
				       bop_name(wr->sh.op), wr->name, a, b);
		}
		printf("\n");
		if (nlost)
			printf("busy machine: %u of %u samples (%.0f%%) were preempted by other "
			       "processes; those were timed by CPU time\n",
			       nlost, nsamp, 100.0 * nlost / nsamp);
	}
	printf("total time: %.1f s\n", elapsed);
}

/* csv/json: impl column of the reference rows names the loads used. */
static const char *record_impl(const struct result *r)
{
	if (r->kind == RK_MEMREAD)
		return bench_memread_isa();
	if (r->kind == RK_MEMCPY)
		return "libc";
	return r->name;
}

static void record_window(const struct result *r, char *s, char *t, size_t n)
{
	s[0] = t[0] = '\0';
	if (r->sh.op == BOP_XOR_SYNDROME || r->sh.op == BOP_RECOV_2DATA) {
		snprintf(s, n, "%u", r->sh.start);
		snprintf(t, n, "%u", r->sh.stop);
	} else if (r->sh.op == BOP_RECOV_DATAP) {
		snprintf(s, n, "%u", r->sh.start);
	}
}

static void print_csv(const struct opts *o)
{
	printf("op,impl,disks,start,stop,len,gbps,chosen\n");
	for (size_t i = 0; i < nresults; i++) {
		const struct result *r = &results[i];
		char s[16], t[16];
		if (r->skip)
			continue;
		record_window(r, s, t, sizeof(s));
		printf("%s,%s,%u,%s,%s,%zu,%.3f,%d\n", bop_name(r->sh.op), record_impl(r),
		       r->sh.disks, s, t, r->len, result_gbps(o, r, NULL, 0), r->chosen);
	}
}

static void print_json(const struct opts *o)
{
	int first = 1;

	printf("[");
	for (size_t i = 0; i < nresults; i++) {
		const struct result *r = &results[i];
		char s[16], t[16];
		if (r->skip)
			continue;
		record_window(r, s, t, sizeof(s));
		printf("%s\n  {\"op\": \"%s\", \"impl\": \"%s\", \"disks\": %u, \"start\": %s, "
		       "\"stop\": %s, \"len\": %zu, \"gbps\": %.3f, \"median_gbps\": %.3f, "
		       "\"samples\": %u, \"samples_lost_cpu\": %u, \"chosen\": %d, "
		       "\"vs_chosen_paired\": ",
		       first ? "" : ",", bop_name(r->sh.op), record_impl(r), r->sh.disks,
		       *s ? s : "null", *t ? t : "null", r->len, result_gbps(o, r, NULL, 0),
		       result_gbps(o, r, NULL, 1), r->samples, r->lost_cpu, r->chosen);
		if (r->paired > 0)
			printf("%.4f", r->paired);
		else
			printf("null");
		if (r->kind == RK_OUT)
			printf(", \"left_out\": \"zmm_downclock\"");
		if (r->rc.pairs)
			printf(", \"recheck_vs\": \"%s\", \"recheck_first\": %.4f, "
			       "\"recheck\": %.4f, \"recheck_pairs\": %u",
			       r->rc.vs, r->rc.first, r->rc.ratio, r->rc.pairs);
		if (r->rc.late_pairs)
			printf(", \"recheck_late\": %.4f, \"recheck_late_pairs\": %u",
			       r->rc.late, r->rc.late_pairs);
		printf("}");
		first = 0;
	}
	printf("\n]\n");
}

static int write_plot(const struct opts *o)
{
	enum bench_op op = (enum bench_op)o->ops[0];
	const struct bench_shape *sh = NULL;
	const char *names[MAX_RUNNERS + 2];
	unsigned nn = row_names(op, names, MAX_RUNNERS + 2);
	struct bench_series se[MAX_RUNNERS + 2];
	double xs[MAX_LENS], ys[MAX_RUNNERS + 2][MAX_LENS];
	char title[160], sub[400], lab[48], cpu[200], ylab[160], date[32];
	time_t t = time(NULL);

	for (unsigned i = 0; i < nshapes && !sh; i++)
		if (shapes[i].op == op)
			sh = &shapes[i];
	if (!sh) {
		fprintf(stderr, "bench: nothing measured to plot\n");
		return -1;
	}
	for (unsigned l = 0; l < o->nlens; l++)
		xs[l] = (double)o->lens[l];
	unsigned ns = 0;
	for (unsigned j = 0; j < nn; j++) {
		const struct result *any = NULL;
		int chosen = 0;
		for (unsigned l = 0; l < o->nlens; l++) {
			const struct result *r = cell_result(sh, o->lens[l], names[j]);
			ys[ns][l] = r ? result_gbps(o, r, sh, o->stat_median) : -1;
			if (r && !r->skip)
				any = r, chosen |= r->chosen;
		}
		if (!any)
			continue;
		se[ns] = (struct bench_series){
			names[j],
			any->kind == RK_MEMREAD || any->kind == RK_MEMCPY ? BSS_REFERENCE
			: any->kind == RK_PEER ? BSS_PEER
			: chosen ? BSS_CHOSEN : BSS_IMPL,
			o->nlens, xs, ys[ns],
		};
		ns++;
	}
	shape_label(sh, lab, sizeof(lab));
	cpu_model(cpu, sizeof(cpu));
	strftime(date, sizeof(date), "%Y-%m-%d", localtime(&t));
	snprintf(title, sizeof(title), "raidx bench: %s %s", bop_name(op), lab);
	snprintf(sub, sizeof(sub), "%s, raidx %s, %s, %s%s, %s of %u-%u samples", cpu,
		 raidx_version(), date, o->page_aligned ? "page-aligned" : "staggered blocks",
		 o->cold ? ", cold (data from memory)" : "", o->stat_median ? "median" : "best",
		 o->rmin, o->rmax);
	char units[160];
	units_phrase(o, op, units, sizeof(units));
	snprintf(ylab, sizeof(ylab), "%.*s (10^9 B/s)", (int)strcspn(units, ";"), units);
	if (bench_plot_svg(o->plot, title, sub, "block length (bytes per block, log2 scale)",
			   ylab, se, ns)) {
		fprintf(stderr, "bench: cannot write %s: %s\n", o->plot, strerror(errno));
		return -1;
	}
	fprintf(stderr, "bench: plot written to %s\n", o->plot);
	return 0;
}

/* ======================================================================
 * The command
 * ====================================================================== */

static void progress(int tty, unsigned done, unsigned total, const struct bench_shape *sh,
		     size_t len, double elapsed, int new_group)
{
	char a[48], b[32];

	shape_label(sh, a, sizeof(a));
	len_label(len, b, sizeof(b));
	if (tty)
		fprintf(stderr, "\r\033[K[%3u/%u] %6.1f s  %s %s, %s", done + 1, total, elapsed,
			bop_name(sh->op), a, b);
	else if (new_group)
		fprintf(stderr, "bench: [%u/%u] %.1f s  %s, %s blocks\n", done + 1, total, elapsed,
			bop_name(sh->op), b);
	fflush(stderr);
}

/* Spin for a moment so the first cell does not pay for the clock ramp. */
static void global_warmup(double seconds)
{
	static uint8_t buf[256 << 10];
	const void *blk[1] = { buf };
	double t0 = now();

	memset(buf, 1, sizeof(buf));
	while (now() - t0 < seconds)
		bench_memread(blk, 1, sizeof(buf));
}

int raidx_tool_bench(int argc, char **argv)
{
	struct opts o;
	struct runner *rs = NULL;
	int rc = parse_args(&o, argc, argv);

	if (rc)
		return rc > 0 ? 0 : 2;
	raidx_init();
	nshapes = 0;
	nresults = 0;
	make_shapes(&o);
	if (!nshapes) {
		fprintf(stderr, "bench: nothing to measure with these filters\n");
		return 2;
	}
	if (o.baseline && !impl_wanted(&o, o.baseline) && strcmp(o.baseline, "isal") &&
	    strcmp(o.baseline, "memread") && strcmp(o.baseline, "memcpy"))
		fprintf(stderr, "bench: warning: baseline %s is not among the rows measured\n",
			o.baseline);
	if (o.impls) {
		/* every name must exist somewhere */
		char tok[64];
		const char *s = o.impls;
		while (*s) {
			size_t n = strcspn(s, ",");
			snprintf(tok, sizeof(tok), "%.*s", (int)n, s);
			int known = !strcmp(tok, "all") || !strcmp(tok, "isal") ||
				    !strcmp(tok, "memread") || !strcmp(tok, "memcpy") ||
				    !strcmp(tok, "linux") || !strcmp(tok, "linux_x2") ||
				    !strcmp(tok, "linux_x4") || !strcmp(tok, "raidx");
			for (int op = 0; op < RAIDX_OP_COUNT && !known; op++)
				known = raidx__impl_find((enum raidx_op)op, tok) != NULL;
			if (!known) {
				fprintf(stderr, "bench: unknown implementation '%s' (raidx info lists them)\n", tok);
				return 2;
			}
			s += n;
			s += *s == ',';
		}
	}

	size_t llc = llc_size();
	FILE *hf = o.format == FMT_TEXT ? stdout : stderr;
	if (o.format == FMT_TEXT || !o.quiet)
		print_header(hf, &o, llc);
	fflush(hf);

	rs = calloc(MAX_RUNNERS, sizeof(*rs));
	if (!rs) {
		fprintf(stderr, "bench: out of memory\n");
		return 1;
	}
	int show = !o.quiet && (!isatty(STDOUT_FILENO) || !o.quick || o.format != FMT_TEXT);
	int tty = isatty(STDERR_FILENO);
	unsigned total = nshapes * o.nlens, done = 0;
	double t0 = now();

	global_warmup(o.quick ? 0.05 : 0.2);
	rc = 0;
	/* Length by length, the longest last (see Time budget above). */
	size_t order[MAX_LENS];
	memcpy(order, o.lens, sizeof(size_t) * o.nlens);
	qsort(order, o.nlens, sizeof(size_t), cmp_size);
	for (unsigned li = 0; li < o.nlens && !rc; li++) {
		size_t len = order[li];
		enum bench_op prev = BOP_COUNT;
		for (unsigned i = 0; i < nshapes && !rc; i++, done++) {
			struct cell c;
			const struct bench_shape *sh = &shapes[i];
			double elapsed = now() - t0;
			double budget = (o.budget - elapsed) / (total - done);

			if (budget < 0.02)
				budget = 0.02;
			if (show)
				progress(tty, done, total, sh, len, elapsed, sh->op != prev);
			prev = sh->op;
			unsigned nr = build_runners(rs, sh, len, &o);
			if (!nr)
				continue;
			if (cell_setup(&c, sh, len, &o, llc)) {
				rc = 1;
			} else {
				if (measure_cell(&c, rs, nr, budget, &o))
					rc = 1;
				else if (!o.no_recheck)
					recheck_cell(&c, rs, nr);
				if (!rc && store_results(rs, nr, sh, len))
					rc = 1;
				cell_free(&c);
			}
			for (unsigned k = 0; k < nr; k++)
				bench_isal_free(rs[k].isal);
		}
	}
	if (!rc && !o.no_recheck)
		rc = late_rechecks(&o, rs, llc) ? 1 : 0;
	if (show && tty)
		fprintf(stderr, "\r\033[K");
	free(rs);

	double elapsed = now() - t0;
	if (!rc && o.format == FMT_CSV) {
		print_csv(&o);
	} else if (!rc && o.format == FMT_JSON) {
		print_json(&o);
	} else if (!rc) {
		for (unsigned i = 0; i < o.nops; i++)
			print_op_tables(&o, (enum bench_op)o.ops[i]);
		print_summary(&o, elapsed);
		print_pages(stdout);
	}
	if (!rc && o.format != FMT_TEXT && !o.quiet) {
		print_pages(stderr);
		fprintf(stderr, "bench: total time %.1f s\n", elapsed);
	}
	if (!rc && o.plot && write_plot(&o))
		rc = 1;
	free(results);
	results = NULL;
	nresults = capresults = 0;
	pool_release();
	return rc;
}
