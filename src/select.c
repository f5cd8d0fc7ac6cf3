/*
 * select.c - choosing, for each operation and size class, the fastest kernel
 * this CPU can run, once, in a few milliseconds.
 *
 * Why measure at all: the fastest kernel depends on the core (unroll, port
 * counts, load/store bandwidth), and differs between operations: the seed
 * threads show gen_syndrome preferring x4 where xor_syndrome prefers x2, and
 * Linux choosing both from one benchmark of gen_syndrome alone.  So every
 * operation gets its own calibration, on shapes that look like real use:
 * several disk counts, xor_syndrome over whole, half, quarter and one-disk
 * windows, xor over 1..16 sources.
 *
 * Widths: the shapes fall into three widths by the data blocks a call reads
 * (narrow 1-4, mid 5-10, wide 11+, raidx__width_of()), and each width gets
 * its own pick, made on its own shapes: the unroll that keeps enough
 * independent chains in flight for a one-disk window is not the one that
 * streams sixteen blocks best.  A call is dispatched by its width (one
 * compare) and size class.
 *
 * Why it is fast: the shapes are in-cache (4 KiB blocks, 2 KiB for the
 * wide width, shape_len()), so a trial takes a microsecond or two and the
 * whole calibration about 3.5 ms on Zen 3 and 3.4-3.6 ms on the Turin-like
 * Zen 5 (medians of 20 process starts, `raidx tune --repeat 20`,
 * 2026-12-03), where the Linux boot benchmark spends hundreds.  Blocks in
 * L1 are what the kernels' compute is measured on; where a kernel's best
 * loop differs beyond L1, the kernel switches by the stripe's size itself
 * (simd_avx512.h), since trials on blocks beyond L1 cost more and rank
 * the kernels by the memory system's state.  Screening trials on one
 * shape drop the candidates more than twice as slow as the best (portable
 * kernels next to SIMD ones), and after three rounds those never within
 * 1.2x anywhere.
 *
 * Why it is stable: rounds are interleaved (A B C A B C ...) so drift on a
 * noisy machine hits every candidate alike; each candidate is judged by its
 * time relative to the fastest of the same round, the median over the
 * rounds (not by its own minimum, which may come from a faster moment of
 * the machine than its rival's); and candidates within TIE_MARGIN of the
 * best, on their worst shape and on every other shape of the width, are
 * considered equal and resolved by the fixed static priority, so that a
 * pick only departs from the static order when the measured gain is real.
 * Measured with `raidx tune --repeat 20`, six times each: 61 of 6 x
 * 360 picks off their pair's majority with the paired ratio, 69 with each
 * candidate's minimum; pairs that ever changed 24 against 36 (within this
 * machine's noise, but not worse).
 *
 * What it cannot do: on the shared 2-vCPU VMs we develop on, the order of
 * avx2x2 and avx2x4 on a given shape flips with the load on the sibling
 * hardware thread (xor_syndrome one-disk window, 4 KiB: x2 30.5 against x4
 * 27 GB/s in one process, 12.0 against 15.9 in another minutes later).  A
 * pick made at start-up is right for the machine as it was then.  A third
 * size class for calls beyond L2 (x2 looked better there in raidx bench)
 * was tried: timing two candidates per width on 64 KiB blocks took the
 * calibration from 2 to 4-9 ms, its picks changed in 9 of 10 starts, and
 * raidx bench's chosen/fastest did not improve (121 of 168 cells against
 * 127-131 without), so it is not here.
 * Five more were tried against the flips and dropped, each measured as
 * picks off their pair's majority per 20 starts of `raidx tune --repeat
 * 20`, builds alternated 20-30 times (the count itself moves between 1
 * and 21 with the machine's load, so only means over many alternations
 * say anything):
 *   - a confirmation round: a pick that departs from the static order
 *     re-timed against the static choice in 7 more rounds and kept only if
 *     it wins again: 13.1 against 5.2 of 360 without (30 alternations),
 *     and 9.0 with a 5% tie margin besides.  A departure that is real at
 *     the moment (x2 ahead in the slow regime) then passes one test and
 *     fails the other about as often, so the picks split;
 *   - a tie margin of 5% alone: 6, 10, 10 against 15, 10, 11 of 360 in
 *     three alternations, within the noise then (it is the margin now,
 *     see TIE_MARGIN);
 *   - trials of 3 or 4 us instead of 2 (5 rounds with 4 us): 17.6 and
 *     21.9 against 18.7 (20 alternations), calibration 2.7 ms;
 *   - the candidates in a rotating order in each round, so that none is
 *     always first after a change of shape: 3.8 against 3.2 (30
 *     alternations, 2026-12-01);
 *   - more rounds: 13 rounds 2.2 and 3.3 against 3.3 and 2.9 (two sets of
 *     30 alternations), 17 rounds 4.6 in the second set; calibration 3.1
 *     and 3.8 ms against 2.1-2.2.
 * Most of the flips were the kernels' doing: GCC's avx2x4 recovery ran
 * 0.70-0.84x of avx2x2 on some lost-block positions and 1.1x on others,
 * so recov_datap's pick followed whichever shape the noise favoured.
 * Since the recoveries run one loop per chain shape (x86_kernels.h), x4 is
 * ahead of or level with x2 on every recovery shape, and three runs of
 * `raidx tune --repeat 20` had 2, 5 and 4 of 360 picks off their pair's
 * majority (the runs before: 13, 6 and 31).  What flips now is the odd pick
 * where avx2x2 and avx2x4 are within a few percent, as the machine's
 * regime moves them.
 *
 * Size classes: a call that streams more than the core's L2 is "large"
 * (xor_gen of one source, a copy: more than half the last-level cache;
 * gen_syndrome of 15 or more data blocks on Zen 5: more than the L1 and a
 * sixteenth, see GEN_STREAM_MIN_BLOCKS, and of 8-14: more than three
 * quarters of the L2, see GEN_NT_MID_MIN_BLOCKS; xor_gen of 5-9 sources
 * on Zen 5: more than half the L2, see set_bounds; the recoveries: more
 * than the LLC and an eighth, see REC_LARGE_LLC_EIGHTHS).
 * There, kernels with non-temporal stores (RAIDX__F_NT) become
 * candidates: the output leaves the L2 before it is read again, and
 * bypassing the cache saves the read-for-ownership and the dirty lines'
 * trip through the L3.  Measuring that class takes milliseconds of memory
 * traffic, too slow for start-up, so at start-up the large class takes the
 * in-cache pick's "nt" twin when there is one; `raidx tune` measures it
 * for real and saves the result.
 * Until 2026-12-03 the threshold was half the LLC for every op: an L2
 * threshold for gen_syndrome had been tried on Zen 3 with avx2x4 and
 * dropped, because the twin won between L2 and half the LLC in one state
 * of the machine and lost in another (`raidx bench --op gen_syndrome
 * --disks 10,18 --len 4k,...,16m --impl avx2x4,avx2x4nt`, the twin over
 * avx2x4, paired, 64 KiB-1 MiB blocks: 1.03-1.38x in three runs at 01:19,
 * 0.90-1.17x in two at 01:22, the normal stores losing when something
 * else contended for the L3).  On the Turin-like Zen 5, with the GFNI
 * loops per stripe width (simd_avx512_gfni.h), every default raidx bench
 * run missed the 0.95 goal at 1 MiB on gen_syndrome (4+2 0.80-0.87 of the
 * twins) and xor_gen with 2-4 sources (0.83-0.90).  Two runs each of
 * `raidx bench --op gen_syndrome --disks 6,10,18,34 --len
 * 32k,128k,256k,512k,1m --impl gfni_avx512x4,gfni_avx512x4nt` and `--op
 * xor_gen --disks 1,2,3,4,8,16 --len 64k,...,2m --impl avx512,avx512nt`
 * (2026-12-03), the twin's speed over the normal kernel's by bytes a call
 * streams:
 *   below the L2 (1 MiB): gen 4+2 0.61-0.72, 8+2 0.91-0.93, 16+2 1.07-
 *     1.11; xor_gen 2-4 sources 0.51-0.85, 8 sources 0.69-0.71;
 *   1-6 MiB: gen 4+2 1.04-1.25, 8+2 1.10-1.23, 16+2 0.95-1.17, 32+2
 *     1.02-1.20; xor_gen 2 sources 1.06-1.15, 3 1.13-1.23, 4 0.95-1.23,
 *     8 and 16 0.93-1.13 (level); one source 0.35-0.83 up to 2 MiB blocks
 *     and 0.90-0.93 at 4 MiB streamed, but 1.08-1.40 at 16 MiB blocks.
 * Racing the two call by call between L2 and the LLC was tried and dropped
 * (2026-12-01): per thread and octave of call size, every 16-32 calls the
 * leader timed once and the twin run twice, the second call timed, a
 * moving average of ln(t_nt / t_normal) with 1% hysteresis choosing the
 * leader.  In a busy state it helped (xor_gen and gen_syndrome at 64 KiB
 * and 1 MiB, seven alternations: 2 misses of the 0.95 goal in the cells it
 * covered against 9), but in a quiet one its probes cost more than they
 * won (three alternations of the default bench: chosen/fastest over the 15
 * raced cells 0.983 against 0.996 on the geometric mean, 167, 167 and 168
 * of 168 cells against 168 in each), and it could lock onto the wrong
 * kernel: xor_gen with one source at 1 MiB ran 0.61-0.65x of the fastest
 * kernel in two runs of four.  The reason is in the cache: a store policy
 * is partly paid for by the calls after it.  After four non-temporal
 * calls, normal-store calls of that xor_gen took 73-91, 49-78, 40-53 and
 * 37-55 us before settling (a throwaway program, six runs), so a probe
 * with one warm-up call is biased toward the leader, and one long enough
 * to be fair costs more than the 5-10% it can win.  Beyond the LLC no
 * block outlives a call in the cache, and there calls do race their
 * kernels (race.c, from 2026-12-05).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "raidx_impl.h"

#define NW RAIDX__NWIDTH
_Atomic(const struct raidx__impl *) raidx__choice[RAIDX_OP_COUNT][RAIDX__NCLASS][NW];
/* What selection itself chose, restored by raidx_impl_select(op, NULL). */
static const struct raidx__impl *auto_pick[RAIDX_OP_COUNT][RAIDX__NCLASS][NW];
/* Writers of raidx__choice[] after the one-time selection (raidx_impl_select,
 * raidx__tune_large) take turns, so that two overlapping calls leave one
 * caller's choice in every class and width, not a mix; readers stay
 * lock-free.  op_forced[op]: op runs a kernel forced by RAIDX_IMPL or
 * raidx_impl_select, which raidx__tune_large leaves alone. */
static pthread_mutex_t choice_lock = PTHREAD_MUTEX_INITIALIZER;
static int op_forced[RAIDX_OP_COUNT];

/* written once before raidx__choice[] is published */
static size_t large_bytes;      /* the L2: see "Size classes" above */
static size_t rec_large_bytes;  /* the recoveries: the LLC and an eighth */
static struct raidx__select_report rep;
static int env_error;
static pthread_once_t select_once = PTHREAD_ONCE_INIT;

/*
 * Within 5%: a tie, keep the static preference.  5% is the tolerance raidx
 * bench checks picks against, so keeping the static kernel in a tie costs
 * at most what the goal allows.  Against 3%, 30 alternations of `raidx tune
 * --repeat 20` (2026-11-30, after the recovery kernels stopped flipping):
 * 98 against 163 picks off their pair's majority in 30 x 360 (3.3 against
 * 5.4 per 20 starts).  An earlier trial of 5% (below) was within the noise
 * while avx2x2 and avx2x4 still traded places on the recovery shapes.
 * A 10% margin (2026-12-01, 30 alternations): 2.5 against 2.8 of 360, no
 * steadier, and it would keep a static pick that is 5-10% behind.
 */
#define TIE_MARGIN 0.05
#define ROUNDS 7
#define TRIAL_NS 2000.0  /* target length of one timed trial */
#define WARMUP_NS 2e5    /* vector units and clock up before any trial */
#define WAKE_NS 5e3      /* wide vector units up again after narrow code */
#define BLOCK 4096       /* in-cache block length of the calibration */
#define MAX_BLOCKS 27

/* ---- size classes ------------------------------------------------------ */

/* Size of the largest cache level this core reaches: from sysfs (what the
 * kernel reports for this core: on the Zen 3 VMs we developed on first, 32
 * MiB of L3), else from cpuid's cache leaves, else from sysconf, capped
 * (glibc's figure can be the package's: 256 MiB on those Zen 3 VMs, 508
 * MiB on the Turin-like ones, which would keep non-temporal kernels away
 * from every realistic size). */
static size_t sysfs_llc(void)
{
	size_t best = 0;

	for (int i = 0; i < 8; i++) {
		char path[96], buf[32];
		FILE *f;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f)) {
			char *end;
			unsigned long long v = strtoull(buf, &end, 10);
			if (*end == 'K')
				v <<= 10;
			else if (*end == 'M')
				v <<= 20;
			if (v > best)
				best = (size_t)v;
		}
		fclose(f);
	}
	return best;
}

/* An LLC size from a source that may describe the whole package is taken
 * as at most this much.  The Turin-like VMs of 2026-12-02 have no sysfs
 * cache directory and hide AMD's cache leaf (0x8000001D); glibc's sysconf
 * then reads leaf 0x80000006, which reports 508 MiB there: the package,
 * sixteen 32 MiB CCDs, of which one core reaches one.  Taken at its word
 * it put the large class at 254 MiB, so no call of a realistic size got
 * non-temporal stores.  32 MiB is one CCD of Zen 3 to Zen 5 without
 * V-Cache, and what the Zen 3 VMs here reported through sysfs.
 *
 * sysfs is capped the same way since 2026-12-04: on an Intel Xeon guest
 * it reports the socket's 480 MiB of L3, shared with every other core and
 * guest, and the 240 MiB and 540 MiB bounds that followed kept normal
 * stores where they lost.  What this guest gets of that L3 shows in
 * `raidx bench --op xor_gen --disks 1,2 --len 1m,2m,4m,8m,16m,32m --impl
 * avx512,avx512nt`: the normal-store copy ran 14.7-14.8 GB/s from 2 to 8
 * MiB blocks and 8.9-9.0 from 16 MiB (32 MiB a call), where the
 * streaming one ran 14.0-14.4 (2 sources: 13.3-14.5 against 19.6-19.8).
 * With the cap, the default raidx bench's xor_gen of one source at 16
 * MiB streams (it had read 0.94-0.95 of avx512nt in two of four runs)
 * and so do the 16 MiB recoveries (gfni_avx512nt's streaming 1.04-1.20x
 * its normal loop there, one run). */
#define LLC_GUESS_MAX ((size_t)32 << 20)

static size_t llc_bytes(void)
{
	size_t s = sysfs_llc();
	if (s)
		return s > LLC_GUESS_MAX ? LLC_GUESS_MAX : s;
	s = raidx__cpu_llc_bytes();
	if (s)
		return s;
	long v = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
	v = sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (v <= 0)
		v = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
	/* Unknown (some VMs, many ARM kernels): assume a server-sized LLC, so
	 * that non-temporal stores are only used where they cannot hurt. */
	if (v <= 0 || (size_t)v > LLC_GUESS_MAX)
		return LLC_GUESS_MAX;
	return (size_t)v;
}

/* The core's L2 (sysconf, from cpuid on x86), or 0 when unknown or not a
 * size any L2 has. */
static size_t l2_bytes(void)
{
	long v = 0;
#ifdef _SC_LEVEL2_CACHE_SIZE
	v = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
	return v >= (128 << 10) && v <= (32 << 20) ? (size_t)v : 0;
}

/* raidx__l1d_bytes() (raidx_impl.h) reads this once it is set. */
_Atomic size_t raidx__l1d_cached;

/* sysconf reads cpuid's cache leaves on x86 (glibc); where it knows
 * nothing (0, or a value no L1 has) 32 KiB, the smallest L1D of the cores
 * the AVX-512 kernels run on, so that the rule that asks errs towards
 * the loop for data beyond L1.  Racing first calls store the same value. */
size_t raidx__l1d_lookup(void)
{
	size_t v;
	long s = 0;
#ifdef _SC_LEVEL1_DCACHE_SIZE
	s = sysconf(_SC_LEVEL1_DCACHE_SIZE);
#endif
	v = s >= (16 << 10) && s <= (1 << 20) ? (size_t)s : (size_t)32 << 10;
	atomic_store_explicit(&raidx__l1d_cached, v, memory_order_relaxed);
	return v;
}

/* raidx__l2_bytes() (raidx_impl.h) reads this once it is set: the L2 as
 * l2_bytes() finds it, 1 when unknown (0 means not looked up yet). */
_Atomic size_t raidx__l2_cached;

size_t raidx__l2_lookup(void)
{
	size_t v = l2_bytes();

	if (!v)
		v = 1;
	atomic_store_explicit(&raidx__l2_cached, v, memory_order_relaxed);
	return v;
}

_Atomic size_t raidx__bw_band_cached;

size_t raidx__bw_band_lookup(void)
{
	size_t v = raidx__cpu_traits() & RAIDX__T_XSYN_BW_BAND ? raidx__l2_bytes() : 1;

	atomic_store_explicit(&raidx__bw_band_cached, v, memory_order_relaxed);
	return v;
}

void raidx__bw_band_set(size_t l2)
{
	atomic_store_explicit(&raidx__bw_band_cached, l2, memory_order_relaxed);
}

_Atomic size_t raidx__x1_max_cached;

size_t raidx__x1_max_lookup(void)
{
	size_t v = raidx__cpu_traits() & RAIDX__T_X1_BEYOND_L1 ? RAIDX__X1_MAX_LEN : 1;

	atomic_store_explicit(&raidx__x1_max_cached, v, memory_order_relaxed);
	return v;
}

void raidx__x1_max_set(size_t len)
{
	atomic_store_explicit(&raidx__x1_max_cached, len, memory_order_relaxed);
}

_Atomic unsigned raidx__crowd_cached;

unsigned raidx__crowd_lookup(void)
{
	unsigned v = raidx__cpu_traits() & RAIDX__T_CROWD_X4 ? RAIDX__GEN_X4_CROWD_OVER
							   : RAIDX_MAX_DISKS;

	atomic_store_explicit(&raidx__crowd_cached, v, memory_order_relaxed);
	return v;
}

void raidx__crowd_set(unsigned over)
{
	atomic_store_explicit(&raidx__crowd_cached, over, memory_order_relaxed);
}

/*
 * gen_syndrome of GEN_STREAM_MIN_BLOCKS or more data blocks is "large" as
 * soon as the stripe outgrows the L1 by a sixteenth: there the streaming
 * twins ran up to 1.41x the normal-store kernels they twin.  Turin-like
 * Zen 5, 2026-12-03 (session 23), two runs of `raidx bench --op
 * gen_syndrome --disks 14,16,17,18,20,24,34 --len 2k,3k,4k,6k,16k,64k,256k
 * --impl gfni_avx512x4,gfni_avx512x4nt`, the twin over the normal kernel:
 *   15 and 16 data blocks from 54 KiB of stripe: 1.17-1.41 (16+2 at 4
 *     KiB, a default raidx bench shape, 1.29: it had counted as a miss
 *     against the twins, 0.76-0.84, in every default run of the day);
 *   18, 22 and 32 data blocks: 0.96-1.20, most 1.01-1.08;
 *   12 and 14 data blocks: 0.95-1.11 -- they keep normal stores;
 *   within the L1 the twins lose: 16+2 at 2 KiB 0.41-0.43, 15+2 at 3 KiB
 *     (51 KiB of stripe) 0.88-0.89, hence the sixteenth.
 * One run of the other twins: gfni_avx512x2nt 1.04-1.34 on 15 and 16 data
 * blocks from 4 KiB, 1.02-1.20 on 18-32; avx512x4nt 1.02-1.27 (but 0.74-
 * 0.86 on 14 data blocks); avx2x4nt 0.94-1.02 (the AVX2 loop is not bound
 * by its stores).  The normal-store kernels ran 98-101 GB/s on 15 and 16
 * data blocks at 4-8 KiB against 120-136 on 12-14 and 104-111 on 17: the
 * P and Q lines, read for ownership into an L1 the stripe does not fit and
 * written back from it, cost more than streaming them past the cache.
 * That was the machine's state all day, not its only one: on 2026-12-03
 * one run found the twins at 0.62-0.92x of the normal kernels on 16+2 at
 * 4 KiB, an hour before two that found them at 1.24-1.40x.  (Linux's
 * raid6 and ISA-L stream P and Q in gen_syndrome at every size.)
 * On an Intel Xeon (2026-12-04) the twins ran 0.65-0.67x the normal
 * kernels there, so the rule holds only where it was measured to pay
 * (RAIDX__T_GEN_L1_STREAM, x86/cpu_features.c); elsewhere these calls
 * keep the L2's bound.
 */
#define GEN_STREAM_MIN_BLOCKS 15

/*
 * And gen_syndrome of 8-14 data blocks (GEN_NT_MID_MIN_BLOCKS up to
 * GEN_STREAM_MIN_BLOCKS) is "large" from three quarters of the L2 on CPUs
 * with RAIDX__T_GEN_NT_MID: the stripe, P and Q no longer stay in the L2
 * from one call to the next there, as for xor_gen (set_bounds, below),
 * and the more data blocks, the earlier.  Turin-like Zen 5, 2026-12-07,
 * `raidx bench --op gen_syndrome --disks D --len ... --impl
 * gfni_avx512x4,gfni_avx512x4nt,gfni_avx512x2,gfni_avx512x2nt,avx512x4nt
 * --time 12 --no-recheck`, stripes of 700 KiB to 1 MiB (two runs, one
 * --page-aligned), each kernel over the fastest of the five:
 *   8-14 data blocks above 3/4 of the L2 (760-1020 KiB): gfni_avx512x4nt
 *     0.79-1.00, most 0.95-1.00; gfni_avx512x4 (normal stores, the pick
 *     before) 0.66-1.00, most 0.72-0.90;
 *   at 700-736 KiB: 9-12 data blocks level or ahead streaming (the normal
 *     kernel 0.84-1.00), 8 and 14 level (0.90-1.00 both);
 *   7 data blocks: normal stores ahead up to 864 KiB (the twin 0.73-1.00),
 *     behind from 927 KiB; 6: from about 960 KiB; 4: never below 1 MiB
 *     (the twin 0.56-0.88): they keep the L2's bound.
 */
#define GEN_NT_MID_MIN_BLOCKS 8

/*
 * The recoveries are "large" only beyond the LLC and an eighth: below it
 * their streaming twin (gfni_avx512nt; avx512nt and gfni_avx2nt, the
 * twins of avx512 and gfni_avx2, follow the same bound) lost as often as
 * it won.
 * Turin-like Zen 5, 2026-12-03 (session 24), two runs of `raidx bench
 * --op recov_2data,recov_datap --disks 6,10,18,34 --len
 * 512k,1m,2m,4m,8m --impl gfni_avx512,gfni_avx512nt`, the twin over the
 * normal kernel by bytes a call streams (disks x block):
 *   3-12 MiB: 6 disks 1.03-1.21; 10 disks 0.76-1.18 (recov_datap of
 *     disk 3 0.76-0.80, of disk 0 0.88-0.94);
 *   17-20 MiB: 18 disks 0.71-1.20 (lost blocks low in the stripe 0.71-
 *     0.82, the top ones 1.09-1.20), 34 disks at 512 KiB 0.61-1.05;
 *   34-36 MiB (18 disks at 2 MiB, 34 at 1 MiB): 0.92-1.12;
 *   40 MiB and more (10 disks at 4 MiB to 34 at 8 MiB): 1.00-1.31, every
 *     cell; 10 disks 1.07-1.31.
 * Below the LLC the survivors stay cached between calls (raidx bench
 * reruns one stripe) and the rebuilt lines do too with normal stores;
 * beyond it every line comes from memory, and streaming the rebuilt
 * blocks saves their read for ownership.  The default raidx bench's
 * 16 MiB recoveries of 8+2 had missed the 0.95 goal in most runs
 * (gfni_avx512 0.87-0.92x of avx512 or avx2x4 there).  Two runs of
 * `--disks 10,18 --len 16m --impl gfni_avx512,gfni_avx512nt,avx512,
 * avx2x4,avx2x2`: the twin 0.97-1.17x of gfni_avx512 and the fastest of
 * the five in 21 of 24 cells; recov_datap of 8+2's disk 3 stays at 0.90x
 * of avx2x2 and avx2x4 (31.7 against 35.4 GB/s).
 * Below the bound the twin runs gfni_avx512's own loop (the same machine
 * code, simd_avx512_gfni.h), so it is what the large class runs rather
 * than a rival of the in-cache pick: streaming at every size, it was
 * ahead on some 64 KiB and 1 MiB shapes of the default raidx bench and
 * behind on others, by where the lost blocks are rather than by size
 * (gfni_avx512 0.87-0.94x of it on 8+2 recov_2data and on 16+2 with the
 * top blocks lost, three runs; the twin 0.71-0.82x on 16+2 with the low
 * blocks lost, the grid above).  No rule on the call's shape explains
 * both yet.
 */
#define REC_LARGE_LLC_EIGHTHS 9

/* Every call's bound by op and block count (raidx_impl.h): one load on
 * every call's path, where a chain of tests per bound would grow with the
 * bounds.  Filled from rep.bound[] by set_bounds. */
size_t raidx__limit_at[RAIDX_OP_COUNT][RAIDX__LIMIT_NB];

/* The last entry stands for every count from RAIDX__LIMIT_NB - 1 up: no
 * bound may start above it or end at or above it. */
_Static_assert(GEN_STREAM_MIN_BLOCKS <= RAIDX__LIMIT_NB - 1 &&
	       RAIDX__XOR_NT_MID_MAX_SRC < RAIDX__LIMIT_NB - 1 &&
	       GEN_STREAM_MIN_BLOCKS - 1 < RAIDX__LIMIT_NB - 1,
	       "a bound's block range does not fit raidx__limit_at");

/* A list longer than RAIDX__NBOUND loses its tail here; test_select's
 * check of every op and block count against the rules would fail. */
static void add_bound(unsigned ops, unsigned lo, unsigned hi, size_t bytes, const char *why)
{
	if (rep.nbound < RAIDX__NBOUND)
		rep.bound[rep.nbound++] = (struct raidx__bound){ ops, lo, hi, bytes, why };
}

/*
 * xor_gen of 5-9 sources (RAIDX__XOR_NT_MID_MIN_SRC to _MAX_SRC) is
 * "large" from half the L2 on CPUs with RAIDX__T_XOR_NT_MID, and avx512nt
 * runs its 256-bit streaming loop there (x86/avx512.c, xor_l2_nt_band).
 * Between half the L2 and all of it, normal stores lost to streaming
 * ones: the sources and dst no longer stay in the L2 from one call to the
 * next, and dst's lines, read for ownership and written back, take the
 * sources' place.  Turin-like Zen 5 (1 MiB L2), 2026-12-07: that loop as
 * a temporary entry against avx512, avx512nt and avx2nt, three runs of
 * `raidx bench --op xor_gen --disks N --len ... --time 12 --no-recheck`
 * per source count with blocks and dst of 480-1024 KiB in all, and two
 * more with --page-aligned; the loop over avx512 (normal stores), paired:
 *   5-9 sources, 540-1024 KiB: 0.93-1.37, cell medians 0.99 and up
 *     (most 1.05-1.20; 8 sources at 64 KiB, 576 KiB, a default shape:
 *     1.09-1.12); below 0.97 in 7 of 165 readings (0.93-0.96), none of
 *     110 page-aligned;
 *   476-480 KiB, just under half the L2: 0.67-0.99 (streaming dst costs
 *     a trip to memory the L2 would have saved), hence half the L2;
 *   10 sources (the template's loops, streaming or not): 0.91-1.04, so
 *     the band stops at 9.  Fewer sources cross later: two more runs of
 *     2-4 sources at 672-992 KiB, avx512nt over avx512: 4 sources 0.70-
 *     0.93 up to 800 KiB, level at 864, ahead from 928 (1.12-1.30); 3
 *     sources 0.70-0.96 up to 864 KiB, ahead at 992; 2 sources behind
 *     everywhere but 992 KiB.  They keep the L2's bound.
 * Where dst is read again right after the call, streaming it sends that
 * read to memory (not measured); parity bound for the disks is not read
 * by the CPU, and the large class has made that trade beyond the L2 from
 * the start.  Not measured on other CPUs, so only this one.
 *
 * set_bounds: the size classes' bounds from the caches (see "Size
 * classes" and the bounds above), the report's list, then
 * raidx__limit_at from it.
 */
static void set_bounds(size_t llc)
{
	const unsigned G = 1u << RAIDX_OP_GEN_SYNDROME, X = 1u << RAIDX_OP_XOR_GEN;
	size_t l1 = raidx__l1d_bytes();
	unsigned tr = raidx__cpu_traits();

	rep.large_bytes = large_bytes;
	rep.nbound = 0;
	add_bound(X, 1, 1, llc / 2, "a copy: half the LLC");
	if (tr & RAIDX__T_XOR_NT_MID)
		add_bound(X, RAIDX__XOR_NT_MID_MIN_SRC, RAIDX__XOR_NT_MID_MAX_SRC,
			  large_bytes / 2, "half the L2");
	if ((tr & RAIDX__T_GEN_L1_STREAM) && l1 + l1 / 16 < large_bytes)
		add_bound(G, GEN_STREAM_MIN_BLOCKS, 0, l1 + l1 / 16, "the L1 and a sixteenth");
	if (tr & RAIDX__T_GEN_NT_MID)
		add_bound(G, GEN_NT_MID_MIN_BLOCKS, GEN_STREAM_MIN_BLOCKS - 1,
			  large_bytes / 4 * 3, "three quarters of the L2");
	add_bound(1u << RAIDX_OP_RECOV_2DATA | 1u << RAIDX_OP_RECOV_DATAP, 0, 0,
		  rec_large_bytes, "the LLC and an eighth");

	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		for (unsigned n = 0; n < RAIDX__LIMIT_NB; n++) {
			raidx__limit_at[op][n] = large_bytes;
			for (unsigned i = 0; i < rep.nbound; i++) {
				const struct raidx__bound *b = &rep.bound[i];
				if ((b->ops >> op & 1) && n >= b->min_blocks &&
				    (!b->max_blocks || n <= b->max_blocks)) {
					raidx__limit_at[op][n] = b->bytes;
					break;
				}
			}
		}
}

int raidx__bound_calls(const struct raidx__bound *b, char *buf, size_t size)
{
	const char *what = b->ops == 1u << RAIDX_OP_XOR_GEN ? "source" : "data block";
	char ops[96] = "";
	size_t o = 0;

	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		if (b->ops >> op & 1 && o < sizeof(ops))
			o += (size_t)snprintf(ops + o, sizeof(ops) - o, "%s%s", o ? ", " : "",
					      raidx_op_name(op));
	if (b->min_blocks <= 1 && !b->max_blocks)
		return snprintf(buf, size, "%s", ops);
	if (b->min_blocks == b->max_blocks)
		return snprintf(buf, size, "%s of %u %s%s", ops, b->min_blocks, what,
				b->min_blocks == 1 ? "" : "s");
	if (!b->max_blocks)
		return snprintf(buf, size, "%s of %u or more %ss", ops, b->min_blocks, what);
	return snprintf(buf, size, "%s of %u-%u %ss", ops, b->min_blocks, b->max_blocks,
			what);
}

_Atomic size_t raidx__llc_cached;

size_t raidx__llc_lookup(void)
{
	size_t v = llc_bytes();

	atomic_store_explicit(&raidx__llc_cached, v, memory_order_relaxed);
	return v;
}

void raidx__llc_set(size_t bytes)
{
	atomic_store_explicit(&raidx__llc_cached, bytes, memory_order_relaxed);
}

/* The recoveries' bound from the LLC: the size class (select_once_fn)
 * and the streaming twins' own test (raidx__rec_stream_bytes). */
static size_t rec_bound(size_t llc)
{
	return llc / 8 * REC_LARGE_LLC_EIGHTHS;
}

_Atomic size_t raidx__rec_stream_cached;

size_t raidx__rec_stream_lookup(void)
{
	size_t v = rec_bound(raidx__llc_bytes());

	atomic_store_explicit(&raidx__rec_stream_cached, v, memory_order_relaxed);
	return v;
}

void raidx__rec_stream_set(size_t bytes)
{
	atomic_store_explicit(&raidx__rec_stream_cached, bytes ? bytes : 1,
			      memory_order_relaxed);
}

/* The race of calls from memory (race.c): calls that stream more than the
 * recoveries' bound, the LLC and an eighth, whatever the op (no block of
 * such a call is still in the cache at the next one).  race_base is that
 * bound, or SIZE_MAX under RAIDX_SELECT=static or RAIDX_RACE=0;
 * raidx__race_lim[op] (read inline, raidx_impl.h) is race_base, or
 * SIZE_MAX while the op is forced. */
static _Atomic size_t race_base;
_Atomic size_t raidx__race_lim[RAIDX_OP_COUNT];

/* Under choice_lock, or before publication. */
static void race_publish(void)
{
	size_t b = atomic_load_explicit(&race_base, memory_order_relaxed);

	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		atomic_store_explicit(&raidx__race_lim[op], op_forced[op] ? SIZE_MAX : b,
				      memory_order_relaxed);
}

enum raidx__class raidx__class_of(enum raidx_op op, unsigned nblocks, size_t bytes)
{
	return bytes > raidx__large_limit(op, nblocks) ? RAIDX__LARGE : RAIDX__SMALL;
}

/* ---- static choice ----------------------------------------------------- */

static const struct raidx__impl *static_choice(enum raidx_op op, int allow_nt)
{
	const struct raidx__impl *const *list, *best = NULL;
	unsigned n = raidx__impl_list(op, &list);

	for (unsigned i = 0; i < n; i++) {
		const struct raidx__impl *c = list[i];
		if (!raidx__impl_selectable(c) || (!allow_nt && (c->flags & RAIDX__F_NT)))
			continue;
		if (!best || c->priority > best->priority)
			best = c;
	}
	return best; /* never NULL: "ref" needs nothing */
}

/* The "nt" twin of an in-cache pick ("avx2x4" -> "avx2x4nt", "avx512x4@simde"
 * -> "avx512x4nt@simde"), if selectable. */
static const struct raidx__impl *nt_twin(const struct raidx__impl *impl)
{
	char name[64];
	size_t base = strcspn(impl->name, "@");

	if (snprintf(name, sizeof(name), "%.*snt%s", (int)base, impl->name,
		     impl->name + base) >= (int)sizeof(name))
		return impl;
	const struct raidx__impl *t = raidx__impl_find(impl->op, name);
	return t && raidx__impl_selectable(t) && (t->flags & RAIDX__F_NT) ? t : impl;
}

/* ---- calibration -------------------------------------------------------- */

/* One calibration shape.  For xor ops `disks` is the number of sources; for
 * xor_syndrome a/b are start/stop, for recovery the failed data disks. */
struct shape {
	uint16_t disks;
	uint8_t a, b;
};

/* Shapes by width (raidx__width_of of the data blocks read), at least two
 * per width so that no width's pick rests on a single measurement: narrow
 * (1-4 data blocks), mid (5-10), wide (11 or more). */
static const struct shape xor_shapes[] = {
	{ 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 }, { 4, 0, 0 },
	{ 6, 0, 0 }, { 8, 0, 0 }, { 12, 0, 0 }, { 16, 0, 0 },
};
static const struct shape gen_shapes[] = {
	{ 5, 0, 0 }, { 6, 0, 0 }, { 8, 0, 0 }, { 10, 0, 0 }, { 14, 0, 0 }, { 18, 0, 0 },
};
/*
 * Windows of real partial writes: whole, halves, a quarter, one disk.
 * Mid width: the whole [0,7] and the lower half [0,4] of 8+2, the upper and
 * lower halves [8,15] and [0,8] of 16+2 (halves as raidx bench draws them,
 * split at disk disks/2 - 1).  Windows that start at disk 0 need no
 * multiply by g^start, and there avx2x4's four chains beat avx2x2's two:
 * x4's time 0.92-0.98x of x2's on [0,7], [0,4] and [0,8] (4 KiB, 300 paired
 * trials, two runs), where on [8,15], with the multiply, it was
 * 0.96-1.06x.  With only [0,7] and [8,15] at mid width, a start where x2
 * led on [8,15] by 6% and x4's lead on [0,7] read small picked x2, which
 * raidx bench then found at 0.85-0.91x of x4 on [0,4] and [0,8] (2 of 7
 * default runs, 2026-12-01).  With [0,4] and [0,8] added, 60 alternations of
 * `raidx tune --repeat 20` (2026-12-02): x2 picked for mid 9, 17 and 18
 * times in 1200 starts, against 58, 84 and 57 (a copy loop or a compute
 * loop on the other vCPU, or none); calibration about 0.1 ms longer (3.88
 * against 3.77 ms, medians of eight alternations).
 */
static const struct shape xsyn_shapes[] = {
	{ 10, 4, 7 }, { 10, 0, 3 }, { 10, 7, 7 }, { 18, 12, 15 }, { 18, 0, 0 },
	{ 10, 0, 7 }, { 18, 8, 15 }, { 10, 0, 4 }, { 18, 0, 8 },
	{ 18, 0, 15 }, { 18, 4, 15 },
};
static const struct shape r2_shapes[] = {
	{ 6, 0, 1 }, { 6, 2, 3 }, { 10, 3, 7 }, { 12, 0, 9 }, { 18, 0, 15 }, { 26, 7, 8 },
};
static const struct shape rdp_shapes[] = {
	{ 6, 1, 0 }, { 6, 3, 0 }, { 10, 4, 0 }, { 12, 0, 0 }, { 18, 15, 0 }, { 26, 12, 0 },
};

#define NSHAPES(a) (unsigned)(sizeof(a) / sizeof((a)[0]))
#define MAX_SHAPES 11
/* calibrate_op's arrays hold MAX_SHAPES shapes per operation */
_Static_assert(NSHAPES(xor_shapes) <= MAX_SHAPES && NSHAPES(gen_shapes) <= MAX_SHAPES &&
		       NSHAPES(xsyn_shapes) <= MAX_SHAPES && NSHAPES(r2_shapes) <= MAX_SHAPES &&
		       NSHAPES(rdp_shapes) <= MAX_SHAPES,
	       "MAX_SHAPES is smaller than a shape table");

static const struct {
	const struct shape *s;
	unsigned n;
} op_shapes[RAIDX_OP_COUNT] = {
	[RAIDX_OP_XOR_GEN] = { xor_shapes, NSHAPES(xor_shapes) },
	[RAIDX_OP_XOR_ACC] = { xor_shapes, NSHAPES(xor_shapes) },
	[RAIDX_OP_GEN_SYNDROME] = { gen_shapes, NSHAPES(gen_shapes) },
	[RAIDX_OP_XOR_SYNDROME] = { xsyn_shapes, NSHAPES(xsyn_shapes) },
	[RAIDX_OP_RECOV_2DATA] = { r2_shapes, NSHAPES(r2_shapes) },
	[RAIDX_OP_RECOV_DATAP] = { rdp_shapes, NSHAPES(rdp_shapes) },
};

static enum raidx__width shape_width(enum raidx_op op, const struct shape *s)
{
	return raidx__width_of(raidx__call_blocks(op, s->disks, s->a, s->b));
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Data blocks one call of the shape reads (a and b are a window's start
 * and stop, or failed disks, which raidx__call_blocks ignores). */
static unsigned shape_blocks(enum raidx_op op, const struct shape *s)
{
	return raidx__call_blocks(op, s->disks, s->a, s->b);
}

/*
 * Block length of a calibration shape: BLOCK, halved for the wide width, so
 * that a wide shape (12-16 data blocks and P, Q) stays within a 48 KiB L1
 * and the trial measures the kernels' work, not the L2.  With 4 KiB blocks
 * (72 KiB a call) every AVX-512 kernel ran 90-100 GB/s on 16+2 and the
 * wide pick was a coin toss; the one it most often fell on, avx512x1, ran
 * 0.62-0.88x of the GFNI kernels beyond L2 (default bench, 18 and 34 disks
 * from 64 KiB).  Turin-like Zen 5, 2026-12-02, two alternations of `raidx
 * tune --repeat 10` each: with 4 KiB, gen_syndrome wide avx512x1 in 7 and
 * 8 starts of 10, xor_syndrome wide split 3/7 and 4/6 between avx512x1
 * and gfni_avx512x2, 4-5 distinct pick sets; with 2 KiB, gfni_avx512x4
 * and gfni_avx512x2 in every start, 1-2 distinct sets; calibration 4.3
 * and 4.5 ms against 4.2 and 4.4 (medians).
 */
static size_t shape_len(enum raidx_op op, const struct shape *s)
{
	return raidx__width_of(shape_blocks(op, s)) == RAIDX__W_WIDE ? BLOCK / 2 : BLOCK;
}

/* Data bytes one call reads (the bench's GB/s convention). */
static double data_bytes(enum raidx_op op, const struct shape *s)
{
	return (double)shape_blocks(op, s) * shape_len(op, s);
}

static void run_sized(const struct raidx__impl *impl, const struct shape *s,
		      void **blk, size_t len)
{
	switch ((enum raidx_op)impl->op) {
	case RAIDX_OP_XOR_GEN:
	case RAIDX_OP_XOR_ACC:
		raidx__run_xor(impl, blk[s->disks], (const void *const *)blk,
			       s->disks, len);
		break;
	case RAIDX_OP_GEN_SYNDROME:
		raidx__run_gen_syndrome(impl, s->disks, len, blk);
		break;
	case RAIDX_OP_XOR_SYNDROME:
		raidx__run_xor_syndrome(impl, s->disks, s->a, s->b, len, blk);
		break;
	case RAIDX_OP_RECOV_2DATA:
		raidx__run_recov_2data(impl, s->disks, len, s->a, s->b, blk);
		break;
	case RAIDX_OP_RECOV_DATAP:
		raidx__run_recov_datap(impl, s->disks, len, s->a, blk);
		break;
	default:
		break;
	}
}

static void run_once(const struct raidx__impl *impl, const struct shape *s,
		     void **blk)
{
	run_sized(impl, s, blk, shape_len((enum raidx_op)impl->op, s));
}

/* Nanoseconds per call: the minimum of one trial of `reps` calls. */
static double trial(const struct raidx__impl *impl, const struct shape *s,
		    void **blk, unsigned reps)
{
	double t0 = now_ns();
	for (unsigned r = 0; r < reps; r++)
		run_once(impl, s, blk);
	return (now_ns() - t0) / reps;
}

/* Calls per trial for TRIAL_NS: one call timed, after an untimed one
 * that brings code and data in. */
static unsigned trial_reps(const struct raidx__impl *impl, const struct shape *s,
			   void **blk)
{
	run_once(impl, s, blk);
	double one = trial(impl, s, blk, 1);
	unsigned r = one > 0 ? (unsigned)(TRIAL_NS / one) : 64;
	return r < 1 ? 1 : r > 64 ? 64 : r;
}

/*
 * Kernels on 256- or 512-bit vectors.  On the Intel Xeon of 2026-12-04
 * such a kernel timed right after a few microseconds of scalar or 128-bit
 * code ran slow for a while, presumably the core powering its wide vector
 * units back up (a 128-bit kernel was never slowed).  A 4-source 4 KiB
 * xor_gen call of avx512 after ten microseconds of sse2 calls, per call
 * (1000 tries): the first four 1.6x slow in half the tries, then 5% of
 * calls slow up to the eighteenth (about a microsecond), none after;
 * after 2 us of sse2 as often as after 10, after 0.5 us hardly.  avx2
 * after sse2 was not slowed here; 256-bit kernels count as wide all the
 * same, since Agner Fog's microarchitecture guide describes such a warm-up
 * of the upper 128 bits on Intel cores since Skylake, and it costs one
 * wake per round.  So the calibration runs a wide kernel
 * untimed for WAKE_NS before timing it after a narrow one (wake), and
 * groups the two kinds so that this is rare (see the rounds).
 */
static int wide_vectors(const struct raidx__impl *c)
{
	return !!(c->features & (RAIDX_CPU_AVX | RAIDX_CPU_AVX2 | RAIDX_CPU_AVX512F));
}

/* Before a trial of impl: if it is wide and a narrow kernel ran since the
 * last wide one (*narrow_ran), run it untimed for WAKE_NS; note a narrow
 * kernel's run. */
static void wake(const struct raidx__impl *impl, const struct shape *s, void **blk,
		 int *narrow_ran)
{
	if (!wide_vectors(impl)) {
		*narrow_ran = 1;
	} else if (*narrow_ran) {
		double t0 = now_ns();
		while (now_ns() - t0 < WAKE_NS)
			run_once(impl, s, blk);
		*narrow_ran = 0;
	}
}

#define MAX_CAND 16

/*
 * Screening: one trial of every candidate on one mid-width shape, and those
 * more than SCREEN_RATIO behind the best there are not timed further.  A
 * portable kernel is 3-10x behind an AVX2 one and, on 16 or 24 disks, a
 * single call of it takes longer than a whole trial of the others: timing
 * them on every shape took a third of the calibration.  The ratio is wide
 * because one shape stands for all widths here.
 */
#define SCREEN_RATIO 2.0

unsigned raidx__screen_keep(const double *t, const int *prio, unsigned nc,
			   unsigned char *keep)
{
	unsigned lead = 0, kept = 0;

	for (unsigned c = 1; c < nc; c++)
		if (t[c] < t[lead])
			lead = c;
	for (unsigned c = 0; c < nc; c++) {
		keep[c] = t[c] <= SCREEN_RATIO * t[lead] || prio[c] > prio[lead];
		kept += keep[c];
	}
	return kept;
}

static unsigned screen(enum raidx_op op, const struct raidx__impl **cand,
		       unsigned nc, void **blk, int *narrow_ran)
{
	const struct shape *shp = op_shapes[op].s, *s = NULL;
	double t[MAX_CAND];
	unsigned kept = 0;

	for (unsigned i = 0; i < op_shapes[op].n && !s; i++)
		if (shape_width(op, &shp[i]) == RAIDX__W_MID)
			s = &shp[i];
	if (!s || nc <= 2)
		return nc;
	/*
	 * Two trials of every candidate back to back, and the faster counts
	 * -- the leader's too.  Narrow-vector candidates first, then the
	 * wide ones, woken (wide_vectors, wake).  Until 2026-12-04 each
	 * candidate had one trial, in list order, portable kernels first, so
	 * on the Intel Xeon the trial that set the bar was often a wide
	 * kernel's slowed one, and kernels 2-4x behind stayed in: sse2 or
	 * int64x4 in 210 and 102 of 600 starts (xor_gen, xor_acc).  Timed
	 * among the wide kernels, they slowed those in every round (see the
	 * rounds).
	 *
	 * A candidate whose faster trial is more than SCREEN_RATIO behind
	 * the best is not timed further, unless the static order prefers it
	 * to the best here: screening is there to drop the slow portable
	 * kernels, and the preferred kernel is dropped only by the rounds.
	 * After a few seconds of 16 MiB streaming on the Xeon, both
	 * screening trials of gfni_avx512x2 and x4 could read 2.7x slow, and
	 * gen_syndrome went to avx512x4 on every width (1 of 15 starts right
	 * after such a burst, 2 of 3 default raidx bench runs started right
	 * after another; 0.69-0.86 of the GFNI kernels at 4 KiB).  The
	 * candidate's second trial
	 * matters too: one trial taken while the sibling hardware thread or
	 * an interrupt stole the core can run 2x slow, and with one trial,
	 * 300 process starts dropped a kernel that was the pick of every
	 * other start three times (xor_gen's avx2, recov_2data's avx2x4,
	 * recov_datap's avx2x2), and with it any chance of picking it.
	 */
	for (int g = 0; g <= 1; g++) /* narrow vectors first, then the wide */
		for (unsigned c = 0; c < nc; c++) {
			if (wide_vectors(cand[c]) != g)
				continue;
			wake(cand[c], s, blk, narrow_ran);
			unsigned reps = trial_reps(cand[c], s, blk);
			double a = trial(cand[c], s, blk, reps), b = trial(cand[c], s, blk, reps);
			t[c] = a < b ? a : b;
		}
	int prio[MAX_CAND];
	unsigned char keep[MAX_CAND];
	for (unsigned c = 0; c < nc; c++)
		prio[c] = cand[c]->priority;
	raidx__screen_keep(t, prio, nc, keep);
	for (unsigned c = 0; c < nc; c++)
		if (keep[c])
			cand[kept++] = cand[c];
	return kept;
}

#define PRUNE_AFTER 3
#define PRUNE_RATIO 1.2

/* The fastest trial of one round on shape s (pruned candidates: INFINITY). */
static double round_best(double tr[][MAX_SHAPES], unsigned nc, unsigned s)
{
	double m = INFINITY;
	for (unsigned k = 0; k < nc; k++)
		if (tr[k][s] < m)
			m = tr[k][s];
	return m;
}

/* Median of q[0..n-1], n > 0; sorts q. */
static double median(double *q, unsigned n)
{
	for (unsigned i = 1; i < n; i++) /* insertion sort: n <= ROUNDS */
		for (unsigned j = i; j > 0 && q[j] < q[j - 1]; j--) {
			double x = q[j];
			q[j] = q[j - 1];
			q[j - 1] = x;
		}
	return n % 2 ? q[n / 2] : (q[n / 2 - 1] + q[n / 2]) / 2;
}

/* One width's pick from the candidates' relative times (the rules in
 * calibrate_op's comments): pure, so that the tests can drive it. */
struct raidx__pick_out raidx__pick_width(const struct raidx__pick_in *in)
{
	const double *by[2] = { in->rel, in->relm };
	double score[2][MAX_CAND], bscore[2] = { INFINITY, INFINITY };
	unsigned lead[2] = { 0, 0 }; /* the best-scoring candidates still timed */
	unsigned nc = in->nc < MAX_CAND ? in->nc : MAX_CAND, ns = in->ns, st = in->stride;
	struct raidx__pick_out out = { -1, -1, 0, INFINITY };

	for (unsigned e = 0; e < 2; e++)
		for (unsigned c = 0; c < nc; c++) {
			score[e][c] = 0;
			for (unsigned s = 0; s < ns; s++)
				if (in->inw[s] && by[e][c * st + s] > score[e][c])
					score[e][c] = by[e][c * st + s];
			/* the best of those still timed: a pruned candidate's
			 * early score must not leave the width without a pick */
			if (!in->pruned[c] && score[e][c] < bscore[e])
				bscore[e] = score[e][c], lead[e] = c;
		}
	for (unsigned c = 0; c < nc; c++) {
		if (in->pruned[c] || (out.pick >= 0 && in->prio[c] <= in->prio[out.pick]))
			continue;
		int tie = 0;
		for (unsigned e = 0; e < 2 && !tie; e++) {
			if (score[e][c] > bscore[e] * (1 + TIE_MARGIN))
				continue;
			int level = 1;
			for (unsigned s = 0; s < ns; s++)
				if (in->inw[s] &&
				    by[e][c * st + s] > by[e][lead[e] * st + s] * (1 + TIE_MARGIN))
					level = 0;
			tie = level;
		}
		if (tie)
			out.pick = (int)c, out.pscore = score[0][c];
	}
	for (unsigned c = 0; c < nc; c++)
		if ((int)c != out.pick && score[0][c] < out.rscore)
			out.runner = (int)c, out.rscore = score[0][c];
	return out;
}

/* A width whose pick is not the candidate the static order prefers among
 * those the rounds kept: timed again head to head at the end (confirm). */
struct confirm {
	const struct raidx__impl *pick, *pref;
	double pref_score; /* pref's worst rel on the width, for the report */
	unsigned char op, w;
};

static void calibrate_op(enum raidx_op op, void **blk, int *narrow_ran,
			 struct confirm *pend, unsigned *npend)
{
	const struct raidx__impl *const *list;
	const struct raidx__impl *cand[MAX_CAND];
	unsigned n = raidx__impl_list(op, &list), nc = 0;
	unsigned ns = op_shapes[op].n;
	const struct shape *shp = op_shapes[op].s;
	double t[MAX_CAND][MAX_SHAPES];          /* best trial: the GB/s shown */
	double tr[ROUNDS][MAX_CAND][MAX_SHAPES]; /* each round's trial */
	double rel[MAX_CAND][MAX_SHAPES];        /* paired, see below */
	unsigned reps[MAX_CAND][MAX_SHAPES];

	for (unsigned i = 0; i < n && nc < MAX_CAND; i++) {
		const struct raidx__impl *c = list[i];
		/* "ref" is the oracle, never a contender; nt kernels belong to
		 * the large class. */
		if (!raidx__impl_selectable(c) || (c->flags & RAIDX__F_NT) ||
		    !strcmp(c->name, "ref"))
			continue;
		cand[nc++] = c;
	}
	nc = screen(op, cand, nc, blk, narrow_ran);
	if (nc <= 1) {
		rep.op[op].ncand = 0;
		rep.op[op].source = "only candidate";
		for (int w = 0; w < NW; w++)
			auto_pick[op][RAIDX__SMALL][w] = nc ? cand[0] : static_choice(op, 0);
		return;
	}

	/* Warm-up (code, tables, buffers) and the repetition count per trial. */
	for (unsigned c = 0; c < nc; c++) {
		wake(cand[c], &shp[0], blk, narrow_ran);
		for (unsigned s = 0; s < ns; s++) {
			reps[c][s] = trial_reps(cand[c], &shp[s], blk);
			t[c][s] = INFINITY;
		}
	}

	/*
	 * Interleaved rounds, every candidate on every shape in each.  Until
	 * 2026-12-01 a candidate more than 1.5x behind on a shape after the
	 * first round was not timed there again, to save time; but then one
	 * disturbed trial of the true winner dropped it from that shape, and
	 * with it from its width, for good.  Without that pruning, five sets
	 * of 30 alternations of `raidx tune --repeat 20`, picks off their
	 * pair's majority per 360: 1.27, 0.67, 2.47, 1.33 and 1.50 against
	 * 2.77, 3.03, 2.80, 2.43 and 3.30 (means 1.45 and 2.87), for 2.4 ms
	 * of calibration instead of 2.1.  Pruning after the second or third
	 * round instead: 1.57 and 1.23 (against 0.67 and 3.03 in that set).
	 *
	 * Each trial follows one untimed call of the same kernel on the same
	 * shape.  A trial is a few calls, and the first call after another
	 * kernel or shape ran is slower (code and branch history to refill),
	 * by more for some kernels than others: avx2x4's xor_syndrome on
	 * windows that start past disk 0.  The trials without it measured
	 * x4 at a median 1.16x x2's time on the 4-block windows [4,7] of 10
	 * disks and [12,15] of 18 (2026-12-01, 100 starts), where raidx bench,
	 * which times the same call thousands of times, has x4 level or
	 * ahead (x4/x2 1.00-1.05 in three runs), and so picked x2 for narrow
	 * windows in 57 of those 100 starts; raidx bench then had x2 at
	 * 0.92x of x4 on [2,4].  With the call: x4 at 0.99x x2's time there,
	 * x2 picked in 0 of 100.  It costs about 1 ms of calibration, which
	 * the pruning below wins part of back.
	 *
	 * After PRUNE_AFTER rounds, a candidate none of whose trials so far
	 * came within PRUNE_RATIO of its round's fastest, on any shape, is
	 * timed no more (avx2x1 next to x2 and x4, as a rule).  Unlike the
	 * pruning above, one disturbed trial cannot do this: it takes every
	 * trial of the candidate on every shape.  40 alternations of `raidx
	 * tune --repeat 20` against the same code without it: picks off their
	 * pair's majority 0.30 against 1.30 per 360, xor_syndrome's narrow
	 * pick x2 8 against 29 times in 800 starts, calibration 3.4 against
	 * 3.6 ms (medians of the sets).  The round's fastest is then the
	 * fastest of fewer contenders, and a slow kernel's lucky trial no
	 * longer sets it.
	 */
	/*
	 * Each round starts the shape's candidates one further along, so that
	 * no candidate always runs right after the same one: gfni_avx512x4
	 * runs gfni_avx512x2's own code on most calibration shapes, was timed
	 * right before it in every round, and still lost gen_syndrome's wide
	 * width to it in 4-5 of 20 starts.  Four alternations of `raidx tune
	 * --repeat 20` with and without the rotation (2026-12-03): 13 and 13
	 * picks off their pair's majority in 4 x 360 -- no measurable gain in
	 * stability; kept because a fixed order is a bias nothing corrects.
	 */
	/*
	 * In each round the wide-vector candidates go first, on every shape,
	 * and the narrow ones after them, so that a wide kernel is woken once
	 * per round and not before every trial (wide_vectors, wake).  With
	 * avx512, avx2 and sse2 and the rotation, every avx512 trial followed
	 * sse2's (the rotation keeps the cyclic order), and on the Intel Xeon
	 * avx512 read 1.5-2.5x slow on some shape in all seven rounds in
	 * about one start in four; the fastest-trial measure could not help
	 * there, and xor_gen or xor_acc went to avx2 (0.58-0.75 of avx512 in
	 * raidx bench).  Starts with a pick off the kernels raidx bench finds
	 * fastest here (`raidx tune --repeat 1000 --no-large`; anything but
	 * avx512 for xor, gfni_avx512x4 or x2 for the syndromes, gfni_avx512
	 * for recovery): 41 and 21 of 1000 before (an xor op on avx2 in 31
	 * and 18), 13, 5, 16, 11 and 10 after (in 1, 0, 6, 2 and 2), for
	 * 0.1-0.2 ms more calibration (the second screening trial, the wake).
	 * WAKE_NS 0: 22 and 14; 20 us: 9 and 6, 0.25 ms slower.  Running each
	 * candidate untimed for 1 us before every trial instead was worse,
	 * 168 and 153 (xor on avx2, recovery on avx512), and 2 us, 16 and 15
	 * for 5.0 ms of calibration.
	 */
	int pruned[MAX_CAND] = { 0 };
	for (unsigned round = 0; round < ROUNDS; round++) {
		if (round == PRUNE_AFTER)
			for (unsigned c = 0; c < nc; c++) {
				pruned[c] = 1;
				for (unsigned r = 0; r < round; r++)
					for (unsigned s = 0; s < ns; s++)
						if (tr[r][c][s] <= PRUNE_RATIO * round_best(tr[r], nc, s))
							pruned[c] = 0;
			}
		for (int g = 1; g >= 0; g--) { /* wide vectors, then narrow */
			for (unsigned s = 0; s < ns; s++)
				for (unsigned k = 0; k < nc; k++) {
					unsigned c = (k + round) % nc;
					if (wide_vectors(cand[c]) != g)
						continue;
					if (pruned[c]) {
						tr[round][c][s] = INFINITY;
						continue;
					}
					wake(cand[c], &shp[s], blk, narrow_ran);
					run_once(cand[c], &shp[s], blk);
					double v = trial(cand[c], &shp[s], blk, reps[c][s]);
					tr[round][c][s] = v;
					if (v < t[c][s])
						t[c][s] = v;
				}
		}
	}

	/*
	 * Each candidate's time relative to the fastest on a shape, paired:
	 * within each round (its trials microseconds apart, the narrow
	 * candidates' a few hundred at most, see above) against the
	 * fastest of that round, the median over the rounds.  The minimum of
	 * each candidate over all rounds would compare trials taken in
	 * different states of the machine, and on a shared VM the speed of
	 * everything moves by 1.5x with the sibling thread's load (raidx bench
	 * does the same, "paired").  A pruned candidate over the rounds it
	 * ran in (for the report: it is never picked).
	 */
	for (unsigned s = 0; s < ns; s++)
		for (unsigned c = 0; c < nc; c++) {
			double q[ROUNDS];
			unsigned nr = pruned[c] ? PRUNE_AFTER : ROUNDS;
			for (unsigned r = 0; r < nr; r++)
				q[r] = tr[r][c][s] / round_best(tr[r], nc, s);
			rel[c][s] = median(q, nr);
		}

	/*
	 * Per width, the pick is the candidate whose worst shape is best: its
	 * score is the largest rel over the width's shapes (1.0 =
	 * fastest on every one), so that it is within the score of the best
	 * on each shape, which is what raidx bench checks.  A mean would let
	 * a kernel 10% behind on one-disk windows win on the strength of
	 * whole-stripe ones.  Scores within TIE_MARGIN of the best are ties,
	 * resolved by the static priority, so that the pick does not follow
	 * the noise between near-equal kernels from one start to the next --
	 * but only where the preferred candidate is within TIE_MARGIN of the
	 * best-scoring one on every shape of the width.  Two kernels whose
	 * worst shapes differ are not near-equal: on the Zen 5, xor_syndrome's
	 * narrow width had avx512x4 at 0.91-0.97 (its worst, a 4-block window)
	 * and gfni_avx512x2 at 0.82-0.90 (one-disk windows, where it runs
	 * 0.84-0.89x of avx512x4 in raidx bench); when the two scores came
	 * within 5%, the tie went to gfni_avx512x2's higher priority, in 2 of
	 * 12 starts with a copy loop on the other vCPU and in all three README
	 * runs from fresh clones (started right after the build), and those
	 * runs' one- and two-disk windows missed the 0.95 goal (5-6 cells
	 * each).  With this rule, the two builds in turn: right after a
	 * rebuild 0 of 14 narrow flips against 4 of 14 (but 1 of 14 to
	 * avx512x4 at mid width), with the copy loop 2 of 20 against 5 of 20,
	 * quiet (`raidx tune --repeat 20`, two runs each) 3 and 2 of 360 picks
	 * off their pair's majority against 3 and 1.
	 */
	/*
	 * The same scores from each candidate's fastest trial on a shape (t)
	 * against the fastest candidate's, and a candidate within the tie
	 * margin by either measure is in the tie.  On the Intel Xeon of
	 * 2026-12-04 the 256- and 512-bit kernels' trials of one op ran 2-5x
	 * slow in bursts that came and went from round to round (a third of
	 * the avx2 and avx512 trials of xor_gen, or of xor_acc, in most
	 * starts; sse2's hardly), and where such bursts fell on the same
	 * candidate in four of the seven rounds of a shape, the paired median
	 * put avx2, or sse2, ahead of avx512 on it: one start in 20-40 (four
	 * runs of `raidx tune --repeat 40`: 1, 2, 0 and 2 such picks), with
	 * scores of 0.70-0.75, and a default raidx bench after one such start
	 * had xor_acc's avx2 at 0.58-0.75 of avx512.  A burst cannot make a
	 * kernel's fastest trial faster, so by the second measure avx512 was
	 * level or ahead on every shape, and the tie goes to the static
	 * preference.  A real lead of the other kernel shows in both.  1000
	 * starts (`raidx info`) of the binaries before and after in turn:
	 * xor_gen and xor_acc picks other than avx512, of 6 per start, 142
	 * before and 18 after; gen_syndrome picks other than gfni_avx512x4
	 * 19 and 6.  (Measuring an op again when its pick was more than 15%
	 * behind on a shape by both measures, on top of this, was tried: 20
	 * such picks in 1000 starts against 14 without, so it was dropped.)
	 */
	double relm[MAX_CAND][MAX_SHAPES];
	for (unsigned s = 0; s < ns; s++) {
		double m = INFINITY;
		for (unsigned c = 0; c < nc; c++)
			if (!pruned[c] && t[c][s] < m)
				m = t[c][s];
		for (unsigned c = 0; c < nc; c++)
			relm[c][s] = t[c][s] / m;
	}
	/* The priorities, and the candidate the static order prefers among
	 * those still timed (the confirmation's), are the same for every width. */
	int prio[MAX_CAND], pref = -1;
	for (unsigned c = 0; c < nc; c++) {
		prio[c] = cand[c]->priority;
		if (!pruned[c] && (pref < 0 || prio[c] > prio[pref]))
			pref = (int)c;
	}
	for (int w = 0; w < NW; w++) {
		unsigned char inw[MAX_SHAPES];
		for (unsigned s = 0; s < ns; s++)
			inw[s] = shape_width(op, &shp[s]) == (enum raidx__width)w;
		struct raidx__pick_in in = { nc, ns, MAX_SHAPES, &rel[0][0], &relm[0][0],
					     pruned, prio, inw };
		struct raidx__pick_out out = raidx__pick_width(&in);
		const struct raidx__impl *pick = out.pick >= 0 ? cand[out.pick] : NULL;
		auto_pick[op][RAIDX__SMALL][w] = pick;
		rep.op[op].calib[w] = pick;
		rep.op[op].worst[w] = out.pscore;
		rep.op[op].runner[w] = out.runner >= 0 ? cand[out.runner] : NULL;
		rep.op[op].runner_worst[w] = out.rscore;

		if (pick && pref >= 0 && cand[pref] != pick) {
			struct confirm *q = &pend[(*npend)++];
			q->pick = pick;
			q->pref = cand[pref];
			q->op = (unsigned char)op;
			q->w = (unsigned char)w;
			q->pref_score = 0;
			for (unsigned s = 0; s < ns; s++)
				if (inw[s] && rel[pref][s] > q->pref_score)
					q->pref_score = rel[pref][s];
		}
	}

	/* Report: candidates by their mean relative time (rel, as the picks),
	 * with their speed over all shapes. */
	double mean[MAX_CAND];
	unsigned order[MAX_CAND];
	for (unsigned c = 0; c < nc; c++) {
		mean[c] = 0;
		for (unsigned s = 0; s < ns; s++)
			mean[c] += rel[c][s];
		order[c] = c;
	}
	for (unsigned i = 1; i < nc; i++)
		for (unsigned j = i; j > 0 && mean[order[j]] < mean[order[j - 1]]; j--) {
			unsigned x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	rep.op[op].ncand = nc;
	rep.op[op].source = "bench";
	for (unsigned i = 0; i < nc; i++) {
		unsigned c = order[i];
		double bytes = 0, ns_total = 0;
		for (unsigned s = 0; s < ns; s++) {
			bytes += data_bytes(op, &shp[s]);
			ns_total += t[c][s];
		}
		rep.op[op].cand[i] = cand[c];
		rep.op[op].gbps[i] = ns_total > 0 ? bytes / ns_total : 0;
	}
}

#define CONFIRM_ROUNDS 5

/*
 * A width whose pick departs from the static preference (struct confirm):
 * the two timed again head to head on the width's shapes, at the end of
 * the calibration, CONFIRM_ROUNDS rounds each in alternating order, and
 * the preferred kernel taken after all where it is within TIE_MARGIN of
 * the pick on every shape (median over the rounds).  A pick that really
 * leads stays (it leads by more than the margin on some shape again); one
 * that came from trials taken in a slow moment of the preferred kernel
 * does not, and on the Intel Xeon most such moments fall in the first
 * milliseconds of a process, while this runs about 3 ms in.  Costs
 * nothing where the picks follow the static order.  Five alternations of
 * `raidx tune --repeat 1000 --no-large` against the code without it
 * (2026-12-04): starts whose picks differ from the most common set 136
 * against 256 of 5000, distinct sets 5-7 against 10-20 per 1000, picks
 * off the kernels raidx bench finds fastest here 32 against 46 (the
 * recoveries on avx512 or gfni_avx2, and xor on avx2, gone: 0 against
 * 14; what is left is gen_syndrome's and xor_syndrome's narrow width on
 * avx512x1 or avx512x4, which the head-to-head confirmed), calibration
 * median 2.93-3.01 ms against 2.91-2.99.
 */
static int confirm_pref(const struct confirm *q, void **blk, int *narrow_ran)
{
	const struct shape *shp = op_shapes[q->op].s;
	const struct raidx__impl *k[2] = { q->pick, q->pref };

	for (unsigned s = 0; s < op_shapes[q->op].n; s++) {
		if (shape_width(q->op, &shp[s]) != (enum raidx__width)q->w)
			continue;
		unsigned reps[2];
		double r[CONFIRM_ROUNDS];
		for (unsigned i = 0; i < 2; i++) {
			wake(k[i], &shp[s], blk, narrow_ran);
			reps[i] = trial_reps(k[i], &shp[s], blk);
		}
		for (unsigned round = 0; round < CONFIRM_ROUNDS; round++) {
			double t[2];
			for (unsigned j = 0; j < 2; j++) {
				unsigned i = (j + round) % 2;
				wake(k[i], &shp[s], blk, narrow_ran);
				run_once(k[i], &shp[s], blk);
				t[i] = trial(k[i], &shp[s], blk, reps[i]);
			}
			r[round] = t[1] / t[0];
		}
		if (median(r, CONFIRM_ROUNDS) > 1 + TIE_MARGIN)
			return 0;
	}
	return 1;
}

static int calibrate_all(void)
{
	/* Blocks one page plus 192 bytes apart: blocks that start at the same
	 * page offset alias in L1 sets and the 4K store-forwarding check, a
	 * layout that slows every kernel alike and so hides their differences. */
	const size_t stride = BLOCK + 192;
	size_t sz = (size_t)MAX_BLOCKS * stride + 64;
	uint8_t *arena = malloc(sz);
	void *blk[MAX_BLOCKS];
	uint64_t x = 0x9e3779b97f4a7c15ull;

	if (!arena)
		return -ENOMEM;
	uint8_t *base = (uint8_t *)(((uintptr_t)arena + 63) & ~(uintptr_t)63);
	for (size_t i = 0; i < (size_t)MAX_BLOCKS * stride; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		base[i] = (uint8_t)x;
	}
	for (unsigned i = 0; i < MAX_BLOCKS; i++)
		blk[i] = base + (size_t)i * stride;

	/*
	 * Bring the core to a steady state before the first trial: the widest
	 * vector kernel the static order would use, for WARMUP_NS.  Without
	 * it the first operation calibrated, xor_gen, and the next, xor_acc,
	 * were the likeliest to flip, to sse2 on every width at once
	 * (presumably a core or clock not yet up to speed for 256-bit work;
	 * not shown).  150 alternations of `raidx tune --repeat 20`: sse2
	 * picked for xor_gen/xor_acc 24
	 * against 36 times in 3000 starts, picks off their pair's majority
	 * 1.39 against 2.00 per 360; calibration 2.55 ms against 2.40.
	 */
	{
		static const struct shape warm = { 8, 0, 0 };
		const struct raidx__impl *k = static_choice(RAIDX_OP_XOR_GEN, 0);
		double t0 = now_ns();
		while (now_ns() - t0 < WARMUP_NS)
			run_once(k, &warm, blk);
	}
	int narrow_ran = 1; /* see wake() */
	struct confirm pend[RAIDX_OP_COUNT * NW];
	unsigned npend = 0;
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		calibrate_op(op, blk, &narrow_ran, pend, &npend);
	for (unsigned i = 0; i < npend; i++) {
		const struct confirm *q = &pend[i];
		if (!confirm_pref(q, blk, &narrow_ran))
			continue;
		auto_pick[q->op][RAIDX__SMALL][q->w] = q->pref;
		rep.op[q->op].calib[q->w] = q->pref;
		rep.op[q->op].runner[q->w] = q->pick;
		rep.op[q->op].runner_worst[q->w] = rep.op[q->op].worst[q->w];
		rep.op[q->op].worst[q->w] = q->pref_score;
	}
	free(arena);
	return 0;
}

/*
 * The large class, measured for real (`raidx tune`): for each op and width
 * that has non-temporal kernels, time them against the in-cache pick on one
 * shape of that width that streams twice its class's bound (at least the
 * L2), and keep the faster
 * unless the gain is within TIE_MARGIN (then normal stores, which never
 * hurt a later reader).
 */
int raidx__tune_large(void)
{
	static const struct shape big[RAIDX_OP_COUNT][NW] = {
		[RAIDX_OP_XOR_GEN] = { { 4, 0, 0 }, { 8, 0, 0 }, { 16, 0, 0 } },
		[RAIDX_OP_XOR_ACC] = { { 4, 0, 0 }, { 8, 0, 0 }, { 16, 0, 0 } },
		[RAIDX_OP_GEN_SYNDROME] = { { 6, 0, 0 }, { 10, 0, 0 }, { 18, 0, 0 } },
		[RAIDX_OP_XOR_SYNDROME] = { { 10, 4, 7 }, { 10, 0, 7 }, { 18, 0, 15 } },
		[RAIDX_OP_RECOV_2DATA] = { { 6, 0, 1 }, { 10, 3, 7 }, { 18, 0, 15 } },
		[RAIDX_OP_RECOV_DATAP] = { { 6, 1, 0 }, { 10, 4, 0 }, { 18, 15, 0 } },
	};
	raidx__impl_choose(0, 0, 0); /* selection done, large_bytes known */

	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		for (int w = 0; w < NW; w++) {
			const struct raidx__impl *const *list, *cand[MAX_CAND];
			unsigned n = raidx__impl_list(op, &list), nc = 0;
			const struct shape *s = &big[op][w];
			unsigned nblk = s->disks + 1;

			cand[nc++] = auto_pick[op][RAIDX__SMALL][w];
			for (unsigned i = 0; i < n && nc < MAX_CAND; i++)
				if ((list[i]->flags & RAIDX__F_NT) &&
				    raidx__impl_selectable(list[i]))
					cand[nc++] = list[i];
			if (nc == 1)
				continue;

			size_t lim = raidx__large_limit(op, raidx__call_blocks(op, s->disks,
									s->a, s->b));
			if (lim < large_bytes)
				lim = large_bytes;
			size_t len = (2 * lim / nblk + 4095) & ~(size_t)4095;
			uint8_t *mem = malloc(len * nblk + 64);
			void *blk[MAX_BLOCKS];
			if (!mem)
				return -ENOMEM;
			uint8_t *base = (uint8_t *)(((uintptr_t)mem + 63) & ~(uintptr_t)63);
			memset(base, 0x5a, len * nblk);
			for (unsigned i = 0; i < nblk; i++)
				blk[i] = base + i * len;

			double t[MAX_CAND];
			for (unsigned c = 0; c < nc; c++)
				t[c] = INFINITY;
			for (unsigned round = 0; round < 3; round++)
				for (unsigned c = 0; c < nc; c++) {
					double t0 = now_ns();
					run_sized(cand[c], s, blk, len);
					double v = now_ns() - t0;
					if (v < t[c])
						t[c] = v;
				}
			free(mem);
			unsigned best = 0;
			for (unsigned c = 1; c < nc; c++)
				if (t[c] * (1 + TIE_MARGIN) < t[best])
					best = c;
			pthread_mutex_lock(&choice_lock);
			auto_pick[op][RAIDX__LARGE][w] = cand[best];
			if (!op_forced[op]) {
				rep.op[op].pick[RAIDX__LARGE][w] = cand[best];
				atomic_store_explicit(&raidx__choice[op][RAIDX__LARGE][w], cand[best],
						      memory_order_release);
			}
			pthread_mutex_unlock(&choice_lock);
		}
	return 0;
}

/* ---- tuning files ------------------------------------------------------ */

static const char *const class_names[RAIDX__NCLASS] = { "small", "large" };
static const char *const width_names[NW] = { "narrow", "mid", "wide" };

const char *raidx__width_name(enum raidx__width w)
{
	return (unsigned)w < NW ? width_names[w] : "?";
}

static void tuning_ident(char *buf, size_t size)
{
	char cpu[160];
	raidx__cpu_ident(cpu, sizeof(cpu));
	snprintf(buf, size, "%s features=%08x", cpu, (unsigned)raidx_cpu_features());
}

/* A regular file (or a new one) is written beside `path` and renamed over
 * it, so that a process loading it (a boot path) sees the old picks or the
 * new ones, never half; anything else (/dev/stdout, a pipe) is written in
 * place. */
int raidx__tuning_save(const char *path)
{
	char ident[256], tmp[4096];
	struct stat st;
	int direct = !stat(path, &st) && !S_ISREG(st.st_mode);
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(direct ? path : tmp, "w");
	if (!f)
		return -errno;
	/* selection first: the header below prints its threshold */
	raidx__impl_choose(0, 0, 0);
	tuning_ident(ident, sizeof(ident));
	fprintf(f, "raidx-tuning 2\nversion %s\ncpu %s\n", RAIDX_VERSION_STRING, ident);
	/* One bound a line: the loader takes a line longer than its buffer
	 * for a broken file. */
	fprintf(f, "# size class: large when a call streams more than %zu bytes, but\n",
		large_bytes);
	for (unsigned i = 0; i < rep.nbound; i++) {
		char calls[128];
		raidx__bound_calls(&rep.bound[i], calls, sizeof(calls));
		fprintf(f, "#   %s: more than %zu (%s)\n", calls, rep.bound[i].bytes,
			rep.bound[i].why);
	}
	fprintf(f, "# op, size class, width (data blocks read: narrow 1-4, mid 5-10, "
		   "wide 11+), implementation\n");
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		for (int c = 0; c < RAIDX__NCLASS; c++)
			for (int w = 0; w < NW; w++)
				fprintf(f, "%s %s %s %s\n", raidx_op_name(op), class_names[c],
					width_names[w],
					atomic_load_explicit(&raidx__choice[op][c][w],
							     memory_order_acquire)->name);
	int bad = ferror(f);
	if (fclose(f) || bad) {
		int e = bad ? EIO : errno;
		if (!direct)
			remove(tmp);
		return -e;
	}
	if (!direct && rename(tmp, path)) {
		int e = errno;
		remove(tmp);
		return -e;
	}
	return 0;
}

static void warn(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "raidx: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
}

/* Load picks from `path`.  All or nothing: a file for another CPU, another
 * raidx version, or with a name this CPU cannot run is ignored whole. */
static int tuning_load(const char *path)
{
	const struct raidx__impl *got[RAIDX_OP_COUNT][RAIDX__NCLASS][NW] = { { { NULL } } };
	char line[512], ident[256], want[300];
	FILE *f = fopen(path, "r");
	int ok = 1, lineno = 0;

	if (!f) {
		warn("RAIDX_TUNING=%s: %s; ignored", path, strerror(errno));
		return -1;
	}
	tuning_ident(ident, sizeof(ident));
	while (ok && fgets(line, sizeof(line), f)) {
		char a[64], b[64], wn[64], c[200];
		size_t n = strcspn(line, "\n");
		/* A line longer than the buffer is not one this file format
		 * has; reading on would take its tail for a record. */
		if (!line[n] && !feof(f)) {
			ok = 0;
			break;
		}
		line[n] = 0;
		lineno++;
		if (lineno == 1) {
			ok = !strcmp(line, "raidx-tuning 2");
		} else if (lineno == 2) {
			snprintf(want, sizeof(want), "version %s", RAIDX_VERSION_STRING);
			if (strcmp(line, want)) {
				warn("RAIDX_TUNING=%s: written by another raidx version (%s); ignored",
				     path, line);
				fclose(f);
				return -1;
			}
		} else if (lineno == 3) {
			snprintf(want, sizeof(want), "cpu %s", ident);
			if (strcmp(line, want)) {
				warn("RAIDX_TUNING=%s: written on another CPU (%s); ignored",
				     path, line);
				fclose(f);
				return -1;
			}
		} else if (line[0] && line[0] != '#') {
			int op, cl = -1, w = -1, end = 0;
			const struct raidx__impl *impl;
			if (sscanf(line, "%63s %63s %63s %199s %n", a, b, wn, c, &end) != 4 ||
			    line[end] || (op = raidx_op_from_name(a)) < 0) {
				ok = 0;
				break;
			}
			for (int k = 0; k < RAIDX__NCLASS; k++)
				if (!strcmp(b, class_names[k]))
					cl = k;
			for (int k = 0; k < NW; k++)
				if (!strcmp(wn, width_names[k]))
					w = k;
			impl = raidx__impl_find(op, c);
			/* Only what the selection itself could have picked:
			 * a kernel it may choose on this CPU, and no
			 * non-temporal stores for in-cache calls. */
			if (cl < 0 || w < 0 || !impl || !raidx__impl_selectable(impl) ||
			    (cl == RAIDX__SMALL && (impl->flags & RAIDX__F_NT))) {
				ok = 0;
				break;
			}
			got[op][cl][w] = impl;
		}
	}
	fclose(f);
	for (int op = 0; ok && op < RAIDX_OP_COUNT; op++)
		for (int c = 0; c < RAIDX__NCLASS; c++)
			for (int w = 0; w < NW; w++)
				if (!got[op][c][w])
					ok = 0;
	if (!ok) {
		warn("RAIDX_TUNING=%s: malformed or incomplete%s; ignored", path, "");
		return -1;
	}
	memcpy(auto_pick, got, sizeof(got));
	return 0;
}

/* ---- RAIDX_IMPL=op=name,... -------------------------------------------- */

/* All or nothing, as raidx.h says of an invalid variable: the items are
 * checked first and applied only if every one is good.  Items are separated
 * by commas and/or spaces (as RAIDX_DISABLE's); a later item for the same
 * operation overrides an earlier one. */
static void apply_forced(const char *s)
{
	const struct raidx__impl *want[RAIDX_OP_COUNT] = { NULL };
	int bad = 0;

	while (s && *s) {
		char item[128], *eq;
		s += strspn(s, ", ");
		size_t n = strcspn(s, ", ");
		if (!n)
			break;
		snprintf(item, sizeof(item), "%.*s", (int)(n < 127 ? n : 127), s);
		s += n;
		eq = strchr(item, '=');
		if (!eq) {
			warn("RAIDX_IMPL: \"%s\" is not op=name%s", item, "");
			bad = 1;
			continue;
		}
		*eq = 0;
		int op = raidx_op_from_name(item);
		const struct raidx__impl *impl = op < 0 ? NULL : raidx__impl_find(op, eq + 1);
		if (op < 0) {
			warn("RAIDX_IMPL: unknown operation \"%s\"%s", item, "");
			bad = 1;
		} else if (!impl) {
			warn("RAIDX_IMPL: %s has no implementation \"%s\"", item, eq + 1);
			bad = 1;
		} else if (!raidx__impl_runnable(impl)) {
			warn("RAIDX_IMPL: this CPU cannot run %s=%s", item, eq + 1);
			bad = 1;
		} else {
			want[op] = impl;
		}
	}
	if (bad) {
		warn("RAIDX_IMPL ignored%s%s", "", "");
		env_error = 1;
		return;
	}
	for (int op = 0; op < RAIDX_OP_COUNT; op++) {
		if (!want[op])
			continue;
		for (int c = 0; c < RAIDX__NCLASS; c++)
			for (int w = 0; w < NW; w++)
				auto_pick[op][c][w] = want[op];
		op_forced[op] = 1;
		rep.op[op].source = "forced by RAIDX_IMPL";
	}
}

/* ---- the one-time selection -------------------------------------------- */

static void select_once_fn(void)
{
	const char *tuning = getenv("RAIDX_TUNING");
	const char *mode = getenv("RAIDX_SELECT");
	double t0 = now_ns();
	int done = 0;

	/* The L2, or half the LLC where that is smaller or the L2 unknown
	 * ("Size classes" above).  Half the LLC: the inputs and the output of
	 * a call that streams more do not both stay in the cache.  Measured
	 * with raidx bench on Zen 3 (32 MiB L3): gen_syndrome 16+2 with 1 MiB
	 * blocks (18 MiB a call) runs 54 GB/s with non-temporal stores against
	 * 38 with normal ones. */
	size_t llc = raidx__llc_bytes(); /* one lookup for the kernels too */
	rec_large_bytes = rec_bound(llc);
	large_bytes = l2_bytes();
	if (!large_bytes || large_bytes > llc / 2)
		large_bytes = llc / 2;
	set_bounds(llc);

	/* Every variable is checked, whichever one decides. */
	if (mode && *mode && strcmp(mode, "bench") && strcmp(mode, "static")) {
		warn("RAIDX_SELECT=%s: expected bench or static%s; using bench", mode, "");
		env_error = 1;
		mode = NULL;
	}
	if (tuning && *tuning) {
		if (tuning_load(tuning) == 0) {
			rep.how = "tuning file";
			for (int op = 0; op < RAIDX_OP_COUNT; op++)
				rep.op[op].source = "tuning file";
			done = 1;
		} else {
			/* ignored, with the reason on stderr */
			env_error = 1;
		}
	}
	if (!done && mode && !strcmp(mode, "static")) {
		rep.how = "static";
		for (int op = 0; op < RAIDX_OP_COUNT; op++)
			rep.op[op].source = "static priority";
		done = 1;
	} else if (!done) {
		rep.how = "bench";
		if (calibrate_all() != 0)
			rep.how = "static (calibration had no memory)";
		done = 1;
	}
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		for (int w = 0; w < NW; w++) {
			if (!auto_pick[op][RAIDX__SMALL][w])
				auto_pick[op][RAIDX__SMALL][w] = static_choice(op, 0);
			if (!auto_pick[op][RAIDX__LARGE][w])
				auto_pick[op][RAIDX__LARGE][w] =
					nt_twin(auto_pick[op][RAIDX__SMALL][w]);
		}
	apply_forced(getenv("RAIDX_IMPL"));
	rep.calib_ms = (now_ns() - t0) / 1e6;
	{
		const char *race = getenv("RAIDX_RACE");
		int on = !(mode && !strcmp(mode, "static"));
		if (race && *race && strcmp(race, "0") && strcmp(race, "1")) {
			warn("RAIDX_RACE=%s: expected 0 or 1%s; racing as without it", race, "");
			env_error = 1;
		} else if (race && !strcmp(race, "0")) {
			on = 0;
		}
		atomic_store_explicit(&race_base, on ? rec_large_bytes : SIZE_MAX,
				      memory_order_relaxed);
		rep.race_bytes = on ? rec_large_bytes : 0;
		race_publish();
	}

	/* Publish: the large pick first, the small one (which readers test)
	 * last, with release order so large_bytes and the report are seen. */
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		for (int w = 0; w < NW; w++) {
			for (int c = 0; c < RAIDX__NCLASS; c++)
				rep.op[op].pick[c][w] = auto_pick[op][c][w];
			atomic_store_explicit(&raidx__choice[op][RAIDX__LARGE][w],
					      auto_pick[op][RAIDX__LARGE][w],
					      memory_order_release);
			atomic_store_explicit(&raidx__choice[op][RAIDX__SMALL][w],
					      auto_pick[op][RAIDX__SMALL][w],
					      memory_order_release);
		}
}

static void ensure_selected(void)
{
	pthread_once(&select_once, select_once_fn);
}

const struct raidx__impl *raidx__impl_choose_first(enum raidx_op op, unsigned nblocks,
						   size_t bytes)
{
	enum raidx__width w = raidx__width_of(nblocks);

	ensure_selected();
	if (bytes <= raidx__large_limit(op, nblocks))
		return atomic_load_explicit(&raidx__choice[op][RAIDX__SMALL][w],
					    memory_order_acquire);
	return atomic_load_explicit(&raidx__choice[op][RAIDX__LARGE][w], memory_order_acquire);
}

int raidx_init(void)
{
	ensure_selected();
	return env_error ? -EINVAL : 0;
}

void raidx__select_report(struct raidx__select_report *r)
{
	ensure_selected();
	*r = rep;
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		for (int c = 0; c < RAIDX__NCLASS; c++)
			for (int w = 0; w < NW; w++)
				r->op[op].pick[c][w] = atomic_load_explicit(
					&raidx__choice[op][c][w], memory_order_acquire);
}

const char *raidx_impl_selected(enum raidx_op op)
{
	if ((unsigned)op >= RAIDX_OP_COUNT)
		return NULL;
	return raidx__impl_current(op)->name;
}

int raidx_impl_select(enum raidx_op op, const char *name)
{
	const struct raidx__impl *forced = NULL;

	if ((unsigned)op >= RAIDX_OP_COUNT)
		return -EINVAL;
	ensure_selected();
	if (name) {
		forced = raidx__impl_find(op, name);
		if (!forced)
			return -ENOENT;
		if (!raidx__impl_runnable(forced))
			return -ENOTSUP;
	}
	pthread_mutex_lock(&choice_lock);
	op_forced[op] = forced != NULL;
	race_publish();
	for (int w = 0; w < NW; w++) {
		atomic_store_explicit(&raidx__choice[op][RAIDX__LARGE][w],
				      forced ? forced : auto_pick[op][RAIDX__LARGE][w],
				      memory_order_release);
		atomic_store_explicit(&raidx__choice[op][RAIDX__SMALL][w],
				      forced ? forced : auto_pick[op][RAIDX__SMALL][w],
				      memory_order_release);
	}
	pthread_mutex_unlock(&choice_lock);
	return 0;
}

void raidx__race_limit_set(size_t bytes)
{
	ensure_selected();
	pthread_mutex_lock(&choice_lock);
	atomic_store_explicit(&race_base, bytes ? bytes : rec_large_bytes, memory_order_relaxed);
	race_publish();
	pthread_mutex_unlock(&choice_lock);
}
