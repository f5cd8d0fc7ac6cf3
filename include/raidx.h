/*
 * raidx.h - RAID-5/6 parity at the speed of the hardware.
 *
 * This is the only public header of libraidx.  Every exported symbol starts
 * with "raidx_" and every macro with "RAIDX_".
 *
 * ----------------------------------------------------------------------------
 * The maths
 * ----------------------------------------------------------------------------
 * Byte-compatible with Linux md RAID-6 and Intel ISA-L: arithmetic is in
 * GF(2^8) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d) and the
 * generator g = 2.  For data blocks D_0 .. D_{n-1}:
 *
 *     P = D_0 ^ D_1 ^ ... ^ D_{n-1}
 *     Q = g^0 * D_0 ^ g^1 * D_1 ^ ... ^ g^{n-1} * D_{n-1}
 *
 * byte by byte.  g has order 255, so a stripe holds at most 255 data blocks.
 *
 * ----------------------------------------------------------------------------
 * The buffer contract (applies to every function below)
 * ----------------------------------------------------------------------------
 * Layout.  The RAID-6 functions take the Linux md layout: an array `ptrs` of
 *   `disks` pointers, ptrs[0 .. disks-3] the data blocks, ptrs[disks-2] = P,
 *   ptrs[disks-1] = Q.  Every block is `len` bytes.  3 <= disks <= 257.
 *
 * Length and alignment.  Any `len` (one-byte granularity) and any pointer
 *   alignment are accepted, and no function reads or writes a byte outside
 *   [ptr, ptr + len) of any block.  Blocks that start on a 64-byte boundary
 *   are fastest, and lengths that are a multiple of 32 run without a scalar
 *   tail (the AVX-512 kernels take any length with masked loads and stores;
 *   the others leave len % 32 or less to byte-wise code).  len == 0 is a
 *   successful no-op (the arguments are still checked).
 *
 * Aliasing.  Blocks that are written (P and Q, `dst`, failed blocks) must not
 *   overlap any other block, with one exception: for raidx_xor_gen() and
 *   raidx_xor_acc(), `dst` may be *identical* to one or more of `srcs` (the
 *   same pointer): every byte of the inputs is read before the same byte of
 *   `dst` is written.  Data blocks may alias each other (they are only read).
 *
 * Errors.  Functions return 0 on success or a negative errno value:
 *   -EINVAL  a count, index or window is out of range;
 *   -EFAULT  a required pointer is NULL;
 *   -ENOENT  (raidx_impl_select) no implementation has that name;
 *   -ENOTSUP (raidx_impl_select) this CPU cannot run that implementation.
 *   On error nothing is written.
 *
 * Threads.  Every parity and recovery function may be called concurrently
 *   from any number of threads on disjoint output buffers.  The first call
 *   (or raidx_init()) picks the implementations exactly once, even when many
 *   threads race to it.  raidx_impl_select() is atomic (overlapping calls
 *   leave one caller's choice, whole) but is meant for set-up
 *   (tests, benchmarks); calls in flight finish with the kernel they started.
 *
 * ----------------------------------------------------------------------------
 * Example: compute P and Q for a 4+2 stripe, lose two data blocks, rebuild.
 *
 *     void *ptrs[6] = { d0, d1, d2, d3, p, q };   // each 4096 bytes
 *     raidx_gen_syndrome(6, 4096, ptrs);
 *     // ... d1 and d3 are lost (contents are garbage) ...
 *     unsigned fail[2] = { 1, 3 };
 *     raidx_recover(6, 4096, 2, fail, ptrs);      // d1 and d3 rebuilt
 * ----------------------------------------------------------------------------
 */
#ifndef RAIDX_H
#define RAIDX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RAIDX_VERSION_MAJOR 0
#define RAIDX_VERSION_MINOR 1
#define RAIDX_VERSION_PATCH 0
#define RAIDX_VERSION_STRING "0.1.0"
/* (major << 16) | (minor << 8) | patch, for compile-time comparisons. */
#define RAIDX_VERSION_NUMBER \
	((RAIDX_VERSION_MAJOR << 16) | (RAIDX_VERSION_MINOR << 8) | RAIDX_VERSION_PATCH)

/* Largest `disks` accepted by the RAID-6 functions: 255 data + P + Q. */
#define RAIDX_MAX_DISKS 257
/* Largest `nsrc` accepted by raidx_xor_gen() and raidx_xor_acc(). */
#define RAIDX_MAX_SOURCES 1024

#if defined(_WIN32) && defined(RAIDX_DLL)
#define RAIDX_API __declspec(dllimport)
#elif defined(__GNUC__)
#define RAIDX_API __attribute__((visibility("default")))
#else
#define RAIDX_API
#endif

/* The version of the library actually linked (RAIDX_VERSION_STRING is the
 * version of this header). */
RAIDX_API const char *raidx_version(void);
RAIDX_API unsigned raidx_version_number(void);

/* ------------------------------------------------------------------------
 * RAID-5: XOR parity
 * ------------------------------------------------------------------------ */

/* dst = srcs[0] ^ srcs[1] ^ ... ^ srcs[nsrc-1]   (ISA-L xor_gen semantics).
 * 1 <= nsrc <= RAIDX_MAX_SOURCES.  With nsrc == 1 this is a copy. */
RAIDX_API int raidx_xor_gen(void *dst, const void *const *srcs, unsigned nsrc,
			    size_t len);

/* dst ^= srcs[0] ^ ... ^ srcs[nsrc-1]   (Linux xor_gen(dest, srcs, cnt, bytes)
 * semantics).  1 <= nsrc <= RAIDX_MAX_SOURCES. */
RAIDX_API int raidx_xor_acc(void *dst, const void *const *srcs, unsigned nsrc,
			    size_t len);

/* ------------------------------------------------------------------------
 * RAID-6: P/Q syndromes (Linux md layout, see above)
 * ------------------------------------------------------------------------ */

/* Write P and Q from the data blocks: ptrs[disks-2] = P, ptrs[disks-1] = Q.
 * Data blocks are only read.  3 <= disks <= 257. */
RAIDX_API int raidx_gen_syndrome(unsigned disks, size_t len, void **ptrs);

/* Read-modify-write update (Linux xor_syndrome):
 *     P ^= D_start ^ ... ^ D_stop
 *     Q ^= g^start * D_start ^ ... ^ g^stop * D_stop
 * 0 <= start <= stop <= disks-3.  Data blocks outside [start, stop] are not
 * read (their pointers may be NULL).  Calling it with the old contents of the
 * window and then with the new contents turns the P and Q of the old stripe
 * into those of the new one. */
RAIDX_API int raidx_xor_syndrome(unsigned disks, unsigned start, unsigned stop,
				 size_t len, void **ptrs);

/* ------------------------------------------------------------------------
 * RAID-6: recovery
 * ------------------------------------------------------------------------ */

/* Rebuild the two lost data blocks ptrs[faila] and ptrs[failb] in place from
 * the other data blocks, P and Q.  faila != failb, both <= disks-3 (either
 * order).  The lost blocks' old contents are ignored; P, Q and the surviving
 * data are only read. */
RAIDX_API int raidx_recov_2data(unsigned disks, size_t len, unsigned faila,
				unsigned failb, void **ptrs);

/* Rebuild the lost data block ptrs[faila] and P in place from the other data
 * blocks and Q.  faila <= disks-3. */
RAIDX_API int raidx_recov_datap(unsigned disks, size_t len, unsigned faila,
				void **ptrs);

/* Rebuild any 0, 1 or 2 lost blocks among data, P (index disks-2) and Q
 * (index disks-1), choosing the cheapest path: one lost data block is rebuilt
 * from P alone (an XOR); data+Q rebuilds the data from P and then Q; P+Q is a
 * fresh raidx_gen_syndrome().  `fail` holds nfail distinct indices below
 * `disks`, in any order.  Only the lost blocks are written. */
RAIDX_API int raidx_recover(unsigned disks, size_t len, unsigned nfail,
			    const unsigned *fail, void **ptrs);

/* ------------------------------------------------------------------------
 * Implementations: introspection and control
 *
 * Each operation has its own list of compiled-in implementations ("ref",
 * "int64x2", "avx2x2", ...), and its own choice among those this CPU can run:
 * gen_syndrome and xor_syndrome, for example, are chosen separately.
 * ------------------------------------------------------------------------ */

enum raidx_op {
	RAIDX_OP_XOR_GEN = 0,
	RAIDX_OP_XOR_ACC,
	RAIDX_OP_GEN_SYNDROME,
	RAIDX_OP_XOR_SYNDROME,
	RAIDX_OP_RECOV_2DATA,
	RAIDX_OP_RECOV_DATAP,
	RAIDX_OP_COUNT
};

/* "xor_gen", "xor_acc", "gen_syndrome", "xor_syndrome", "recov_2data",
 * "recov_datap"; NULL for an unknown op. */
RAIDX_API const char *raidx_op_name(enum raidx_op op);

/* The op whose raidx_op_name() is `name`, or -EINVAL. */
RAIDX_API int raidx_op_from_name(const char *name);

/* Number of implementations of `op` compiled into this library (whether or
 * not this CPU can run them); 0 for an unknown op. */
RAIDX_API unsigned raidx_impl_count(enum raidx_op op);

/* Name of implementation `index` of `op`, or NULL when out of range. */
RAIDX_API const char *raidx_impl_name(enum raidx_op op, unsigned index);

/* 1 if this CPU (after RAIDX_DISABLE masking) can run implementation `index`
 * of `op`, 0 if not, -EINVAL when out of range. */
RAIDX_API int raidx_impl_supported(enum raidx_op op, unsigned index);

/* Name of the implementation that raidx_<op>() uses now for calls that fit
 * in the cache and read 5 to 10 data blocks.  The choice is made per width
 * (1-4, 5-10, 11 or more data blocks read: sources, the xor_syndrome
 * window, data disks) and per size class: calls that stream more than the
 * L2 (half the last-level cache for a one-source xor_gen, a sixteenth more
 * than the L1 for gen_syndrome of 15 or more data blocks, an eighth more
 * than the last-level cache for the recoveries) may use a
 * non-temporal-store twin (`raidx info` shows every pick).
 * raidx_impl_select() sets all of them.  Triggers the one-time selection if
 * it has not happened yet. */
RAIDX_API const char *raidx_impl_selected(enum raidx_op op);

/* Force `op` to use the implementation called `name`; name == NULL returns
 * to the library's own choice.  0, -EINVAL (bad op), -ENOENT (no such name)
 * or -ENOTSUP (this CPU cannot run it; nothing changes). */
RAIDX_API int raidx_impl_select(enum raidx_op op, const char *name);

/* Pick the implementations now instead of at the first call: a calibration
 * of a few milliseconds, or none with RAIDX_SELECT=static or RAIDX_TUNING=FILE
 * (a file written by `raidx tune --save FILE`); RAIDX_IMPL=op=name,... forces
 * kernels (items separated by commas or spaces; a later item for the same op
 * wins).  Idempotent and thread-safe.  Returns 0, or -EINVAL when one of
 * those environment variables was invalid, including a tuning file that
 * was ignored (another CPU or raidx version, unreadable, malformed): it is
 * then ignored whole, with a message on stderr, and the library works as
 * without it.
 *
 * Calls that stream more bytes than the last-level cache and an eighth
 * (`raidx info` prints the size) race their kernels: each such call is
 * timed, and per call shape (op, disk or source count, window or lost
 * blocks, length) the first calls try the candidate kernels and later
 * calls run whichever has been fastest lately, trying a rival in two calls
 * of 32.  The results are the same whichever kernel runs.  RAIDX_RACE=0
 * turns this off (RAIDX_SELECT=static and a forced kernel do too for the
 * ops they cover); any value other than 0 or 1 is invalid as above. */
RAIDX_API int raidx_init(void);

/* CPU features detected (and not masked by the RAIDX_DISABLE environment
 * variable, a comma-separated list of feature names such as "avx512,gfni"),
 * as a bit mask of RAIDX_CPU_* values. */
#define RAIDX_CPU_SSE2 (1u << 0)
#define RAIDX_CPU_SSSE3 (1u << 1)
#define RAIDX_CPU_AVX (1u << 2)
#define RAIDX_CPU_AVX2 (1u << 3)
#define RAIDX_CPU_AVX512F (1u << 4)
#define RAIDX_CPU_AVX512BW (1u << 5)
#define RAIDX_CPU_AVX512VL (1u << 6)
#define RAIDX_CPU_AVX512DQ (1u << 7)
#define RAIDX_CPU_AVX512VBMI (1u << 8)
#define RAIDX_CPU_GFNI (1u << 9)
#define RAIDX_CPU_NEON (1u << 16)
#define RAIDX_CPU_SHA3 (1u << 17)
/* Quirks (bits 24 and up) are properties of the CPU model, not instruction
 * sets.  ZMM_DOWNCLOCK ("zmm_downclock"): the core lowers its clock while it
 * runs 512-bit vectors (Intel Skylake-SP to Tiger Lake), so the library
 * never chooses its 512-bit kernels there by itself (raidx_impl_select and
 * RAIDX_IMPL still can); RAIDX_DISABLE=zmm_downclock clears the quirk. */
#define RAIDX_CPU_ZMM_DOWNCLOCK (1u << 24)
RAIDX_API uint32_t raidx_cpu_features(void);

/* Name of one RAIDX_CPU_* bit ("avx2", ...), or NULL. */
RAIDX_API const char *raidx_cpu_feature_name(uint32_t bit);

#ifdef __cplusplus
}
#endif

#endif /* RAIDX_H */
