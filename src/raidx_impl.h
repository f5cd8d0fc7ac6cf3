/*
 * raidx_impl.h - what the kernels, the dispatcher, the tests and the bench
 * share.  Not installed.
 *
 * Kernel contract
 * ---------------
 * A kernel is registered with a `granule` (a power of two).  The dispatcher
 * only calls it with len > 0 and len a multiple of its granule, and finishes
 * the remaining len % granule bytes of every block with the reference code.
 * Kernels must accept any pointer alignment (use unaligned loads, or align
 * internally), must not touch a byte outside [ptr, ptr + len), and must read
 * every input byte of a position before writing that position of an output
 * (so that xor_gen's dst may be one of its srcs).  Arguments have already
 * been validated: disks in [3, 257], windows and failure indices in range,
 * faila < failb for recov_2data.
 *
 * Every symbol that is not part of the public API is named raidx__* (two
 * underscores) and has hidden visibility, so that even the static library
 * only defines names with the raidx_ prefix.
 */
#ifndef RAIDX_IMPL_H
#define RAIDX_IMPL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "raidx.h"

#if defined(__GNUC__)
#define RX_HIDDEN __attribute__((visibility("hidden")))
#define RX_LIKELY(x) __builtin_expect(!!(x), 1)
#define RX_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define RX_HIDDEN
#define RX_LIKELY(x) (x)
#define RX_UNLIKELY(x) (x)
#endif

#define RX_NDATA_MAX 255 /* order of g in GF(2^8) */

/* ---- kernel signatures (one per op) ---------------------------------- */
typedef void (*raidx__xor_fn)(void *dst, const void *const *srcs,
			      unsigned nsrc, size_t len);
typedef void (*raidx__gen_fn)(unsigned disks, size_t len, void **ptrs);
typedef void (*raidx__xsyn_fn)(unsigned disks, unsigned start, unsigned stop,
			       size_t len, void **ptrs);
/* faila < failb <= disks-3 */
typedef void (*raidx__r2_fn)(unsigned disks, size_t len, unsigned faila,
			     unsigned failb, void **ptrs);
typedef void (*raidx__rdp_fn)(unsigned disks, size_t len, unsigned faila,
			      void **ptrs);

struct raidx__impl {
	const char *name;  /* unique within its op, e.g. "avx2x2" */
	uint8_t op;        /* enum raidx_op */
	uint8_t priority;  /* static choice: highest supported wins */
	uint16_t granule;  /* len handed to fn is a multiple of this */
	uint32_t features; /* RAIDX_CPU_* bits all required */
	union {
		raidx__xor_fn xor_gen; /* xor_gen and xor_acc */
		raidx__gen_fn gen;
		raidx__xsyn_fn xsyn;
		raidx__r2_fn r2;
		raidx__rdp_fn rdp;
	} fn;
	uint32_t flags;    /* RAIDX__F_* */
	/* RAIDX__F_EMULATED kernels: the features the real kernel needs. */
	uint32_t emu_features;
};

/* Non-temporal stores: only a candidate for calls that stream more bytes
 * than the L2 (half the LLC for a one-source xor_gen; a sixteenth more than
 * the L1 for gen_syndrome of 15 or more data blocks; select.c): the output
 * leaves the cache before it is read again anyway; not for sizes that stay
 * in it, where they cost (seed 000). */
#define RAIDX__F_NT 1u
/* A kernel built on an emulation of its instructions (SIMDe) for the tests:
 * runnable anywhere, but never chosen by calibration or priority unless
 * RAIDX_EMULATE names the features it stands in for (emu_features), so
 * that the tests can run through the dispatcher at the AVX2+GFNI, AVX-512
 * and AVX-512+GFNI levels on a CPU without them.  Only the SIMDe test
 * build of the library has such kernels. */
#define RAIDX__F_EMULATED 2u
/* 512-bit vectors: never chosen by calibration or priority on a CPU with
 * RAIDX_CPU_ZMM_DOWNCLOCK (x86/cpu_features.c says why); forcing works. */
#define RAIDX__F_ZMM 4u

/* Each implementation file exports one table, terminated by RAIDX__END.
 * dispatch.c lists the tables of the files compiled for this target.
 * Entries: RAIDX__ENTRY("avx2x2", RAIDX_OP_GEN_SYNDROME, prio, granule,
 * RAIDX_CPU_AVX2, gen, fn, 0) where the 6th argument names the fn member. */
#define RAIDX__IMPL_TABLE(isa) const struct raidx__impl raidx__impls_##isa[]
#define RAIDX__ENTRY(name_, op_, prio_, granule_, features_, kind_, fn_, flags_) \
	{ .name = (name_), .op = (op_), .priority = (prio_),                     \
	  .granule = (granule_), .features = (features_), .fn.kind_ = (fn_),     \
	  .flags = (flags_) }
#define RAIDX__END { .name = NULL }

/* ---- GF(2^8) tables, generated at build time by tools/gengf.c -------- */
RX_HIDDEN extern const uint8_t raidx__gf_exp[510]; /* g^i, i < 510 (doubled) */
RX_HIDDEN extern const uint8_t raidx__gf_log[256]; /* log_g(x), log(0) = 0 */
RX_HIDDEN extern const uint8_t raidx__gf_inv[256]; /* x^-1, inv(0) = 0 */
RX_HIDDEN extern const uint8_t raidx__gf_mul[256][256]; /* a * b */
/* Nibble tables for pshufb/tbl multiplies by a constant c:
 * c*x = lo[c][x & 15] ^ hi[c][x >> 4]. */
RX_HIDDEN extern const uint8_t raidx__gf_mul_lo[256][16];
RX_HIDDEN extern const uint8_t raidx__gf_mul_hi[256][16];
/* 8x8 bit matrices for GFNI vgf2p8affineqb computing c*x modulo 0x11d
 * (vgf2p8mulb works modulo 0x11b and is wrong for RAID-6). */
RX_HIDDEN extern const uint64_t raidx__gf_affine[256];

static inline uint8_t raidx__gf_mul1(uint8_t a, uint8_t b)
{
	return raidx__gf_mul[a][b];
}

/* g^n for any n >= 0 (exponents are taken modulo 255). */
static inline uint8_t raidx__gf_pow2(unsigned n)
{
	return raidx__gf_exp[n % 255];
}

/* Recovery coefficients for data blocks x < y:
 *   Dx = A * Pxy ^ B * Qxy,  Dy = Pxy ^ Dx
 * where Pxy = P ^ (XOR of surviving data), Qxy = Q ^ (sum g^i D_i over
 * surviving data), A = g^(y-x) / (g^(y-x) ^ 1), B = g^-x / (g^(y-x) ^ 1).
 * (From Pxy = Dx ^ Dy and Qxy = g^x Dx ^ g^y Dy.) */
static inline void raidx__recov_coef(unsigned x, unsigned y, uint8_t *a,
				     uint8_t *b)
{
	uint8_t gyx = raidx__gf_exp[y - x];
	uint8_t den = raidx__gf_inv[gyx ^ 1];
	*a = raidx__gf_mul[gyx][den];
	*b = raidx__gf_mul[raidx__gf_exp[255 - x]][den];
}

/* ---- the reference implementation (ref.c), also used for tails ------- */
RX_HIDDEN void raidx__ref_xor_gen(void *dst, const void *const *srcs,
				  unsigned nsrc, size_t len);
RX_HIDDEN void raidx__ref_xor_acc(void *dst, const void *const *srcs,
				  unsigned nsrc, size_t len);
RX_HIDDEN void raidx__ref_gen_syndrome(unsigned disks, size_t len,
				       void **ptrs);
RX_HIDDEN void raidx__ref_xor_syndrome(unsigned disks, unsigned start,
				       unsigned stop, size_t len, void **ptrs);
RX_HIDDEN void raidx__ref_recov_2data(unsigned disks, size_t len,
				      unsigned faila, unsigned failb,
				      void **ptrs);
RX_HIDDEN void raidx__ref_recov_datap(unsigned disks, size_t len,
				      unsigned faila, void **ptrs);

/* ---- the registry (dispatch.c) --------------------------------------- */
/* All compiled-in implementations of `op`, in registration order (which is
 * also the index used by raidx_impl_name()). */
RX_HIDDEN unsigned raidx__impl_list(enum raidx_op op,
				    const struct raidx__impl *const **list);
RX_HIDDEN const struct raidx__impl *raidx__impl_find(enum raidx_op op,
						     const char *name);
RX_HIDDEN int raidx__impl_runnable(const struct raidx__impl *impl);
/* May selection (calibration, static priority) choose it?  Runnable and
 * not emulated, or emulated with RAIDX_EMULATE covering what the real
 * kernel needs beyond this CPU's features. */
RX_HIDDEN int raidx__impl_selectable(const struct raidx__impl *impl);
/* Runnable, but a quirk keeps selection from choosing it (RAIDX__F_ZMM on
 * a zmm_downclock CPU); forcing still works. */
RX_HIDDEN int raidx__impl_left_out(const struct raidx__impl *impl);

/* ---- selection (select.c) -------------------------------------------- */
/* Size classes: a call that streams more bytes than the L2 (half the LLC
 * for a one-source xor_gen, the L1 and a sixteenth for gen_syndrome of 15
 * or more data blocks on Zen 5) may prefer a different kernel (non-temporal
 * stores). */
enum raidx__class { RAIDX__SMALL = 0, RAIDX__LARGE, RAIDX__NCLASS };

/* Width classes: how many data blocks a call reads; selection picks a
 * kernel per width (select.c), since the unroll that suits a one-disk
 * xor_syndrome window need not suit a sixteen-block stripe. */
enum raidx__width { RAIDX__W_NARROW = 0, RAIDX__W_MID, RAIDX__W_WIDE, RAIDX__NWIDTH };

static inline enum raidx__width raidx__width_of(unsigned nblocks)
{
	return nblocks <= 4 ? RAIDX__W_NARROW : nblocks <= 10 ? RAIDX__W_MID : RAIDX__W_WIDE;
}

/* Data blocks one call reads: the sources of xor ops, the window of
 * xor_syndrome, the data blocks otherwise.  `n` is nsrc for xor ops,
 * disks otherwise. */
static inline unsigned raidx__call_blocks(enum raidx_op op, unsigned n,
					  unsigned start, unsigned stop)
{
	switch (op) {
	case RAIDX_OP_XOR_GEN:
	case RAIDX_OP_XOR_ACC:
		return n;
	case RAIDX_OP_XOR_SYNDROME:
		return stop - start + 1;
	default:
		return n - 2;
	}
}

/* select.c's picks per op, size class and width (published with release
 * stores, the small class's last), and each call's size class bound by op
 * and data blocks read (blocks from RAIDX__LIMIT_NB - 1 on share the last
 * entry; written before the picks are published).  Read inline by every
 * public call (raidx__impl_choose). */
#define RAIDX__LIMIT_NB 16
RX_HIDDEN extern _Atomic(const struct raidx__impl *)
	raidx__choice[RAIDX_OP_COUNT][RAIDX__NCLASS][RAIDX__NWIDTH];
RX_HIDDEN extern size_t raidx__limit_at[RAIDX_OP_COUNT][RAIDX__LIMIT_NB];
/* The size class bound of a call of op reading nblocks data blocks. */
static inline size_t raidx__large_limit(enum raidx_op op, unsigned nblocks)
{
	return raidx__limit_at[op][nblocks < RAIDX__LIMIT_NB ? nblocks : RAIDX__LIMIT_NB - 1];
}
/* raidx__impl_choose's first call: runs the selection once. */
RX_HIDDEN const struct raidx__impl *raidx__impl_choose_first(enum raidx_op op,
							     unsigned nblocks,
							     size_t bytes);

/* The implementation a public call of `op` uses when it reads `nblocks`
 * data blocks and streams `bytes` bytes in all (inputs plus outputs).
 * Triggers selection once.  Inline, so that a public call runs its
 * kernel with a few loads and tests in front (dispatch.c, "The public
 * calls", with the measurement). */
static inline const struct raidx__impl *raidx__impl_choose(enum raidx_op op,
							   unsigned nblocks,
							   size_t bytes)
{
	enum raidx__width w = raidx__width_of(nblocks);
	const struct raidx__impl *small =
		atomic_load_explicit(&raidx__choice[op][RAIDX__SMALL][w], memory_order_acquire);

	if (RX_UNLIKELY(!small))
		return raidx__impl_choose_first(op, nblocks, bytes);
	/* The small pick is published last (release): once it is seen, the
	 * bounds and the large pick are too. */
	if (RX_LIKELY(bytes <= raidx__large_limit(op, nblocks)))
		return small;
	return atomic_load_explicit(&raidx__choice[op][RAIDX__LARGE][w], memory_order_acquire);
}
RX_HIDDEN enum raidx__class raidx__class_of(enum raidx_op op, unsigned nblocks,
					   size_t bytes);
/* This core's L1 data cache in bytes (sysconf; 32 KiB when unknown),
 * looked up once.  Kernels whose best unroll depends on whether a stripe
 * fits in L1 ask it per call (simd_avx512.h), so the cached value is read
 * inline: as a call into select.c it cost gfni_avx512x4 3-6% against
 * gfni_avx512x2 on 4+2 to 8+2 stripes at 2-4 KiB, where the two run the
 * same loop (`raidx bench --op gen_syndrome --len 2k,4k`, 2026-12-03). */
RX_HIDDEN extern _Atomic size_t raidx__l1d_cached;
RX_HIDDEN size_t raidx__l1d_lookup(void);
static inline size_t raidx__l1d_bytes(void)
{
	size_t v = atomic_load_explicit(&raidx__l1d_cached, memory_order_relaxed);

	return RX_LIKELY(v) ? v : raidx__l1d_lookup();
}
/* The same for the core's L2, or 1 when it is unknown (no rule that asks
 * applies then: see rx_xsyn_bw_band, simd_avx512.h). */
RX_HIDDEN extern _Atomic size_t raidx__l2_cached;
RX_HIDDEN size_t raidx__l2_lookup(void);
static inline size_t raidx__l2_bytes(void)
{
	size_t v = atomic_load_explicit(&raidx__l2_cached, memory_order_relaxed);

	return RX_LIKELY(v) ? v : raidx__l2_lookup();
}
/* The L2 for gfni_avx512x4's band rule (rx_xsyn_bw_band, simd_avx512.h)
 * on CPUs with RAIDX__T_XSYN_BW_BAND, 1 elsewhere (no band); read per
 * call, so cached as the L2 is.  raidx__bw_band_set() moves it for the
 * tests (0: look it up again). */
RX_HIDDEN extern _Atomic size_t raidx__bw_band_cached;
RX_HIDDEN size_t raidx__bw_band_lookup(void);
RX_HIDDEN void raidx__bw_band_set(size_t l2);
static inline size_t raidx__bw_band_l2(void)
{
	size_t v = atomic_load_explicit(&raidx__bw_band_cached, memory_order_relaxed);

	return RX_LIKELY(v) ? v : raidx__bw_band_lookup();
}
/* The 512-bit x4 kernels beyond the L1 run the one-line step (x1) on
 * blocks shorter than this on CPUs with RAIDX__T_X1_BEYOND_L1
 * (RAIDX__X1_MAX_LEN; simd_avx512.h says why), and x2's loop elsewhere (1: no block is
 * shorter).  raidx__x1_max_set() moves it for the tests (0: look it up
 * again). */
#define RAIDX__X1_MAX_LEN ((size_t)64 << 10)
RX_HIDDEN extern _Atomic size_t raidx__x1_max_cached;
RX_HIDDEN size_t raidx__x1_max_lookup(void);
RX_HIDDEN void raidx__x1_max_set(size_t len);
static inline size_t raidx__x1_max_len(void)
{
	size_t v = atomic_load_explicit(&raidx__x1_max_cached, memory_order_relaxed);

	return RX_LIKELY(v) ? v : raidx__x1_max_lookup();
}
/* More than `max` of the n blocks start in the L1 set of the first (bits
 * 6-11 of the address: 64 sets, as in every L1D of 32 or 48 KiB raidx
 * runs on).  Such blocks are crowded: md's stripe cache has one page per
 * block, and a large malloc() is page-aligned plus a fixed header, so all
 * start at one offset in their pages (x86/x86_kernels.h, rxk_crowded, has
 * what it costs).  Compares only, no table, because it runs at the head
 * of calls: gfni_avx512x4nt's with more than 16 data blocks, and
 * gfni_avx512x4's xor_syndrome windows of more than 10 beyond L1.  With
 * rxk_crowded's histogram there, 24+2 on spread blocks of 2 and 4 KiB
 * ran 0.93-0.98x of the kernel without the check; with these compares
 * 16+2, 24+2 and 32+2 read 0.96-1.02 (three runs of `raidx bench --op
 * gen_syndrome --disks 18,26,34 --len 2k,4k,64k`, Zen 5). */
static inline int raidx__crowded_first(void *const *ptrs, unsigned n, unsigned max)
{
	uintptr_t set0 = (uintptr_t)ptrs[0] & 0xfc0;
	unsigned miss = 0;

	if (n <= max)
		return 0;
	/* Out at the first miss that leaves fewer than max others: spread
	 * blocks, the common case, cost a few compares (xor_syndrome's
	 * 16-block window of 16+2 at 4 KiB, spread, read 0.97x in two runs
	 * with the full count at the head of each call, level with this). */
	for (unsigned i = 1; i < n; i++)
		if (((uintptr_t)ptrs[i] & 0xfc0) != set0 && ++miss > n - 1 - max)
			return 0;
	return 1;
}
/* The x4 loop on crowded and wide stripes, on CPUs with RAIDX__T_CROWD_X4
 * (simd_avx512_gfni.h says why):
 *   - gfni_avx512x4nt and x2nt on gen_syndrome calls with more than
 *     RAIDX__GEN_X4_CROWD_OVER data blocks crowded in one L1 set, and
 *     with RAIDX__X4_WIDE_MIN data blocks or more on blocks shorter than
 *     RAIDX__X4_WIDE_MAX_LEN (rx_gen_nt_x4);
 *   - gfni_avx512x4 on xor_syndrome windows of more than
 *     RAIDX__XSYN_X4_CROWD_OVER blocks crowded in one L1 set, more than
 *     RAIDX__XSYN_X4_CROWD_SHORT_OVER on blocks of at most
 *     RAIDX__XSYN_X4_SHORT_LEN, and windows of RAIDX__X4_WIDE_MIN blocks
 *     or more on blocks shorter than RAIDX__X4_WIDE_MAX_LEN
 *     (rx_xsyn_crowd_unroll).
 * raidx__crowd_over() is then RAIDX__GEN_X4_CROWD_OVER, and
 * RAIDX_MAX_DISKS (no rule for either operation: no call has more blocks)
 * elsewhere.  raidx__crowd_set() moves it for the tests (0: look it up
 * again). */
#define RAIDX__GEN_X4_CROWD_OVER 16u
#define RAIDX__XSYN_X4_CROWD_OVER 13u
#define RAIDX__XSYN_X4_CROWD_SHORT_OVER 10u
#define RAIDX__XSYN_X4_SHORT_LEN ((size_t)4096)
#define RAIDX__X4_WIDE_MIN 24u
#define RAIDX__X4_WIDE_MAX_LEN ((size_t)1 << 20)
RX_HIDDEN extern _Atomic unsigned raidx__crowd_cached;
RX_HIDDEN unsigned raidx__crowd_lookup(void);
RX_HIDDEN void raidx__crowd_set(unsigned over);
static inline unsigned raidx__crowd_over(void)
{
	unsigned v = atomic_load_explicit(&raidx__crowd_cached, memory_order_relaxed);

	return RX_LIKELY(v) ? v : raidx__crowd_lookup();
}
/* The recoveries' streaming twins stream a call only when it streams more
 * than this many bytes: the LLC and an eighth, the recoveries' large class
 * (select.c, REC_LARGE_LLC_EIGHTHS); below it they run the normal loop.
 * raidx__rec_stream_set() moves it for the tests (1: stream every call). */
RX_HIDDEN extern _Atomic size_t raidx__rec_stream_cached;
RX_HIDDEN size_t raidx__rec_stream_lookup(void);
RX_HIDDEN void raidx__rec_stream_set(size_t bytes);
static inline size_t raidx__rec_stream_bytes(void)
{
	size_t v = atomic_load_explicit(&raidx__rec_stream_cached, memory_order_relaxed);

	return RX_LIKELY(v) ? v : raidx__rec_stream_lookup();
}
/* The last-level cache as select.c sizes its classes (llc_bytes there),
 * looked up once, for avx512.c's XOR bands of inputs from the L3
 * (xor_l3_band).  raidx__llc_set() moves it for the tests (0:
 * look it up again). */
RX_HIDDEN extern _Atomic size_t raidx__llc_cached;
RX_HIDDEN size_t raidx__llc_lookup(void);
RX_HIDDEN void raidx__llc_set(size_t bytes);
static inline size_t raidx__llc_bytes(void)
{
	size_t v = atomic_load_explicit(&raidx__llc_cached, memory_order_relaxed);

	return RX_LIKELY(v) ? v : raidx__llc_lookup();
}
/*
 * Where a streaming kernel starts to stream its two outputs o1 and o2 (P
 * and Q; the two rebuilt data blocks, or the data block and P): -1 for
 * normal stores throughout, when the two never share a vb-byte boundary
 * (different offsets modulo vb, or a misaligned start without byte masks
 * to reach the boundary: `masked`); otherwise the bytes before their
 * first common boundary (at most len), which the kernel stores normally.
 * vmovntdq needs that alignment.  raidx__rec_nt_head: the same for a
 * recovery's streaming twin, and -1 within the bound above.
 */
static inline long raidx__nt_head(size_t len, const void *o1, const void *o2,
				  size_t vb, int masked)
{
	uintptr_t a1 = (uintptr_t)o1 & (vb - 1), a2 = (uintptr_t)o2 & (vb - 1);
	size_t head = (vb - a1) & (vb - 1);

	if (a1 != a2 || (!masked && a1))
		return -1;
	return (long)(head > len ? len : head);
}

static inline long raidx__rec_nt_head(unsigned disks, size_t len, const void *o1,
				      const void *o2, size_t vb, int masked)
{
	if ((size_t)disks * len <= raidx__rec_stream_bytes())
		return -1;
	return raidx__nt_head(len, o1, o2, vb, masked);
}
RX_HIDDEN const char *raidx__width_name(enum raidx__width w);

/* xor_gen of this many sources is "large" from half the L2 on CPUs with
 * RAIDX__T_XOR_NT_MID (select.c, where the measurements are), and there
 * avx512nt runs its 256-bit streaming loop (x86/avx512.c, xor_l2_nt_band). */
#define RAIDX__XOR_NT_MID_MIN_SRC 5
#define RAIDX__XOR_NT_MID_MAX_SRC 9

/* Bytes one call streams (inputs plus outputs), the measure of its size
 * class.  `n` is nsrc for xor ops, disks otherwise; for xor_syndrome the
 * window [start, stop] plus P and Q. */
static inline size_t raidx__call_bytes(enum raidx_op op, unsigned n,
				       unsigned start, unsigned stop,
				       size_t len)
{
	switch (op) {
	case RAIDX_OP_XOR_GEN:
	case RAIDX_OP_XOR_ACC:
		return ((size_t)n + 1) * len;
	case RAIDX_OP_XOR_SYNDROME:
		return ((size_t)stop - start + 3) * len;
	default:
		return (size_t)n * len;
	}
}
/* The choice for a call of this shape (arguments as raidx__call_bytes). */
static inline const struct raidx__impl *raidx__impl_for(enum raidx_op op,
							unsigned n,
							unsigned start,
							unsigned stop,
							size_t len)
{
	return raidx__impl_choose(op, raidx__call_blocks(op, n, start, stop),
				  raidx__call_bytes(op, n, start, stop, len));
}

/* The in-cache choice for calls of the middle width (5-10 data blocks):
 * what raidx_impl_selected() reports. */
static inline const struct raidx__impl *raidx__impl_current(enum raidx_op op)
{
	return raidx__impl_choose(op, 8, 0);
}

/* A size class bound of its own (select.c, "Size classes"): calls of the
 * ops in `ops` (1u << op each) that read min_blocks to max_blocks blocks
 * (sources for xor_gen, data blocks for the others; max_blocks 0: no upper
 * limit) are large when they stream more than `bytes`.  `why` names the
 * cache the bound comes from, as `raidx info` prints it. */
struct raidx__bound {
	unsigned ops;
	unsigned min_blocks, max_blocks;
	size_t bytes;
	const char *why;
};
#define RAIDX__NBOUND 6

/* "xor_gen of 5-9 sources", "recov_2data, recov_datap": the calls a bound
 * covers, in words; returns snprintf's count. */
RX_HIDDEN int raidx__bound_calls(const struct raidx__bound *b, char *buf, size_t size);

/* What selection did, for `raidx info` and `raidx tune`. */
struct raidx__select_report {
	const char *how;          /* "bench", "static", "tuning file", "forced" */
	double calib_ms;          /* whole calibration, all ops */
	size_t large_bytes;       /* threshold of the large class, but: */
	unsigned nbound;          /* the calls with a bound of their own */
	struct raidx__bound bound[RAIDX__NBOUND];
	size_t race_bytes;        /* calls beyond it race (race.c); 0: none */
	struct {
		const struct raidx__impl *pick[RAIDX__NCLASS][RAIDX__NWIDTH];
		const char *source;   /* how this op's pick was made */
		unsigned ncand;       /* candidates measured, best first */
		const struct raidx__impl *cand[16];
		double gbps[16];      /* on the calibration shapes, data bytes */
		/* per width: the pick's worst time on that width's shapes
		 * relative to the fastest candidate there (1.0 = fastest on
		 * every shape), and the runner-up's */
		double worst[RAIDX__NWIDTH], runner_worst[RAIDX__NWIDTH];
		const struct raidx__impl *runner[RAIDX__NWIDTH];
		/* what the calibration picked, which worst[] and runner[]
		 * describe (pick[] may be forced since) */
		const struct raidx__impl *calib[RAIDX__NWIDTH];
	} op[RAIDX_OP_COUNT];
};
RX_HIDDEN void raidx__select_report(struct raidx__select_report *r);
/* One width's pick (select.c, calibrate_op): candidate c's time on shape s
 * relative to the fastest there, paired within rounds (rel) and by each
 * candidate's fastest trial (relm), at [c * stride + s]; inw[s]: shape s
 * is of the width.  Out: the pick and the runner-up (-1: none) and their
 * worst paired rel on the width. */
struct raidx__pick_in {
	unsigned nc, ns, stride;
	const double *rel, *relm;
	const int *pruned, *prio;
	const unsigned char *inw;
};
struct raidx__pick_out {
	int pick, runner;
	double pscore, rscore;
};
RX_HIDDEN struct raidx__pick_out raidx__pick_width(const struct raidx__pick_in *in);
/* Screening (select.c, screen): which of nc candidates, with trial times
 * t[] and static priorities prio[], are timed further: keep[c] set for
 * those within SCREEN_RATIO of the fastest or preferred to it by the
 * static order.  Returns how many. */
RX_HIDDEN unsigned raidx__screen_keep(const double *t, const int *prio, unsigned nc,
				      unsigned char *keep);
/* ---- calls from memory race their kernels (race.c) --------------------
 * A public call that streams more bytes than raidx__race_limit(op) times
 * itself and runs, per call shape, whichever candidate has been fastest
 * lately (race.c says why and how).  The limit is SIZE_MAX (no race) under
 * RAIDX_SELECT=static, RAIDX_RACE=0 or a forced kernel for the op. */
#define RAIDX__RACE_MAX 16   /* candidates per op */
#define RAIDX__RACE_SLOTS 64 /* call shapes remembered per op */
#define RAIDX__RACE_KEEP 4   /* candidates kept after the first round */
#define RAIDX__RACE_ROUND2 2 /* calls of each kept one in the second round */
#define RAIDX__RACE_PROBE 16 /* two calls in this many probe a rival (race.c) */
struct raidx__race_slot {
	_Atomic uint64_t key;           /* raidx__race_key of the shape */
	_Atomic uint64_t last;          /* ns (CLOCK_MONOTONIC) of its last call */
	_Atomic uint32_t calls;         /* on this shape since it took the slot */
	_Atomic uint32_t kept;          /* bit mask of candidates after round one */
	_Atomic uint32_t leader;        /* candidate + 1; 0: still learning */
	_Atomic uint32_t strike;        /* rival + 1 that beat the leader last probe */
	_Atomic uint64_t t[RAIDX__RACE_MAX]; /* ns: best call while learning, then
					      * the leader's moving average */
};
struct raidx__race_ticket {
	struct raidx__race_slot *slot;  /* NULL: the call is not raced */
	unsigned nc, n, cand;
	int timed;                      /* the call's time counts */
	uint64_t t0;
};
/* Read on every public call, so inline: a call into select.c for it cost
 * about 1 ns of a 10-14 ns call on 64-byte blocks (Zen 5, 2026-12-06). */
RX_HIDDEN extern _Atomic size_t raidx__race_lim[RAIDX_OP_COUNT];
static inline size_t raidx__race_limit(enum raidx_op op)
{
	return atomic_load_explicit(&raidx__race_lim[op], memory_order_relaxed);
}
/* For the tests: race calls of more than `bytes` (0: the default again). */
RX_HIDDEN void raidx__race_limit_set(size_t bytes);
RX_HIDDEN uint64_t raidx__race_key(enum raidx_op op, unsigned n, unsigned a, unsigned b,
				   size_t len);
/* The kernel for this call (pick: the size class's choice), with the
 * ticket raidx__race_end() takes after the call. */
RX_HIDDEN const struct raidx__impl *raidx__race_begin(struct raidx__race_ticket *tk,
						      enum raidx_op op,
						      const struct raidx__impl *pick,
						      uint64_t key);
RX_HIDDEN void raidx__race_end(const struct raidx__race_ticket *tk);
/* The policy alone, for the tests: call n of a shape with nc candidates
 * (pref: the pick's index) runs raidx__race_choose()'s candidate, whose
 * time raidx__race_record() takes when *timed is set. */
RX_HIDDEN unsigned raidx__race_choose(struct raidx__race_slot *s, unsigned nc, unsigned pref,
				      unsigned n, int *timed);
RX_HIDDEN void raidx__race_record(struct raidx__race_slot *s, unsigned nc, unsigned cand,
				  unsigned n, uint64_t ns);
RX_HIDDEN void raidx__race_reset(struct raidx__race_slot *s, uint64_t key);
/* The op's candidates, highest priority first (up to max into out);
 * returns how many there are. */
RX_HIDDEN unsigned raidx__race_candidates(enum raidx_op op, const struct raidx__impl **out,
					  unsigned max);
/* Measure the large class (non-temporal kernels against the in-cache pick
 * on a shape twice the LLC); tens of milliseconds to a second. */
RX_HIDDEN int raidx__tune_large(void);
/* Write the current picks as a tuning file (RAIDX_TUNING format). */
RX_HIDDEN int raidx__tuning_save(const char *path);
/* A short identity of this CPU for tuning files (vendor, model, features). */
RX_HIDDEN void raidx__cpu_ident(char *buf, size_t size);
/* The largest data or unified cache one core reaches, as the CPU describes
 * that one cache (cpuid's cache leaves on x86), 0 if it does not say. */
RX_HIDDEN size_t raidx__cpu_llc_bytes(void);

/* Run one implementation on validated arguments: the granule-aligned bulk
 * through the kernel, the tail through the reference.  The public functions
 * are argument checks around these; tests and the bench call them to drive
 * every kernel directly.  For recov_2data, faila and failb may come in either
 * order. */
RX_HIDDEN void raidx__run_xor(const struct raidx__impl *impl, void *dst,
			      const void *const *srcs, unsigned nsrc,
			      size_t len);
RX_HIDDEN void raidx__run_gen_syndrome(const struct raidx__impl *impl,
				       unsigned disks, size_t len, void **ptrs);
RX_HIDDEN void raidx__run_xor_syndrome(const struct raidx__impl *impl,
				       unsigned disks, unsigned start,
				       unsigned stop, size_t len, void **ptrs);
RX_HIDDEN void raidx__run_recov_2data(const struct raidx__impl *impl,
				      unsigned disks, size_t len,
				      unsigned faila, unsigned failb,
				      void **ptrs);
RX_HIDDEN void raidx__run_recov_datap(const struct raidx__impl *impl,
				      unsigned disks, size_t len,
				      unsigned faila, void **ptrs);

/* ---- CPU features (x86/cpu_features.c, arm/cpu_features.c) ---------- */
/* Raw detected features, before RAIDX_DISABLE masking. */
RX_HIDDEN uint32_t raidx__cpu_detect(void);
/* Traits: rules some kernels and size classes follow only on the CPU
 * models where they were measured to pay (x86/cpu_features.c says which
 * and why); 0 on every other CPU. */
#define RAIDX__T_GEN_L1_STREAM (1u << 0) /* select.c, GEN_STREAM_MIN_BLOCKS */
#define RAIDX__T_XSYN_BW_BAND (1u << 1)  /* simd_avx512.h, rx_xsyn_bw_band */
#define RAIDX__T_X1_BEYOND_L1 (1u << 2)  /* simd_avx512.h, raidx__x1_max_len */
#define RAIDX__T_CROWD_X4 (1u << 3)      /* simd_avx512_gfni.h, rx_gen_nt_x4 and
					  * rx_xsyn_crowd_unroll */
#define RAIDX__T_XOR_L2_YMM (1u << 4)    /* x86/avx512.c, xor_l2_ymm_band */
#define RAIDX__T_GEN_L3_BW (1u << 5)     /* simd_avx512_gfni.h, rx_gen_bw_l3 */
#define RAIDX__T_XOR_NT_MID (1u << 6)    /* select.c, set_bounds; x86/avx512.c,
					  * xor_l2_nt_band */
#define RAIDX__T_GEN_NT_MID (1u << 7)    /* select.c, GEN_NT_MID_MIN_BLOCKS */
RX_HIDDEN uint32_t raidx__cpu_traits(void);
#if defined(__x86_64__) || defined(__i386__)
/* The trait bits of an x86 CPU model (arguments as raidx__x86_quirks). */
RX_HIDDEN uint32_t raidx__x86_traits(const char *vendor, unsigned family,
				     unsigned model);
/* For the tests: raidx__cpu_traits() returns t from now on (0: this CPU's
 * own again).  Rules that cache a value derived from a trait (the
 * raidx__*_set() hooks above) keep theirs; xor_l2_ymm_band asks per call. */
RX_HIDDEN void raidx__cpu_traits_set(uint32_t t);
/* The quirk bits of an x86 CPU model (vendor string as cpuid leaf 0 spells
 * it, family and model with their extended fields folded in). */
RX_HIDDEN uint32_t raidx__x86_quirks(const char *vendor, unsigned family,
				     unsigned model);
#endif

#endif /* RAIDX_IMPL_H */
