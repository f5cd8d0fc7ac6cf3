/*
 * bench.h - what the files of `raidx bench` share: the shapes measured, the
 * reference rows (bench_mem.c), the ISA-L peer (bench_isal.c) and the SVG
 * plot (bench_svg.c).  The measuring itself is in bench.c.
 */
#ifndef RAIDX_BENCH_H
#define RAIDX_BENCH_H

#include <stddef.h>
#include <stdio.h>

#include "raidx.h"

/* The six operations of raidx, with the same numbers as enum raidx_op, and
 * the two reference rows that show what the memory system allows. */
enum bench_op {
	BOP_XOR_GEN = RAIDX_OP_XOR_GEN,
	BOP_XOR_ACC = RAIDX_OP_XOR_ACC,
	BOP_GEN_SYNDROME = RAIDX_OP_GEN_SYNDROME,
	BOP_XOR_SYNDROME = RAIDX_OP_XOR_SYNDROME,
	BOP_RECOV_2DATA = RAIDX_OP_RECOV_2DATA,
	BOP_RECOV_DATAP = RAIDX_OP_RECOV_DATAP,
	BOP_MEMREAD = RAIDX_OP_COUNT,
	BOP_MEMCPY,
	BOP_COUNT
};

/*
 * One shape of one operation.  `disks` is the number of sources for xor_gen
 * and xor_acc (the destination comes after them), the number of blocks read
 * for memread and memcpy, and the RAID-6 `disks` (data + P + Q) otherwise.
 * start/stop are the xor_syndrome window; for recov_2data they hold faila and
 * failb, for recov_datap start holds faila.
 */
struct bench_shape {
	enum bench_op op;
	unsigned disks, start, stop;
};

/* ---- bench_mem.c: the physical limit -------------------------------- */

/* Read every byte of the n blocks of len bytes with the widest loads this
 * CPU has (AVX2 when raidx_cpu_features() says so, else SSE2, else 64-bit
 * words), all blocks at the same offset in turn as a kernel does, folding
 * them into a sink so that the loads cannot be dropped. */
void bench_memread(const void *const *blocks, unsigned n, size_t len);
/* "avx2", "sse2" or "int64": the loads bench_memread() uses. */
const char *bench_memread_isa(void);

/* ---- bench_linux.c: Linux's raid6 AVX2 algorithm ---------------------- */

/* 1 if the "linux_x<unroll>" row can run shape sh at len (and, when ptrs is
 * not NULL, on those blocks); else 0 with the reason in *why. */
int bench_linux_check(const struct bench_shape *sh, size_t len, unsigned unroll,
		      void *const *ptrs, const char **why);
/* Run it: gen_syndrome or xor_syndrome in the raidx layout. */
int bench_linux_call(const struct bench_shape *sh, size_t len, unsigned unroll, void **ptrs);

/* ---- bench_isal.c: the peer ------------------------------------------ */

struct bench_isal;

/* 1 when raidx was built with ISA-L (RAIDX_HAVE_ISAL), else 0. */
int bench_isal_built(void);
/* "ISA-L 2.30.0", or a sentence saying why there is no isal row. */
const char *bench_isal_describe(void);
/*
 * State for running ISA-L's counterpart of `sh` on blocks of `len` bytes in
 * the raidx layout (see bench.c: for xor ops ptrs[0..n-1] are the sources
 * and ptrs[n] the destination; RAID-6 ops use the md layout).  NULL with
 * *why set when ISA-L cannot run this shape or length.
 */
struct bench_isal *bench_isal_prepare(const struct bench_shape *sh,
				      size_t len, const char **why);
/* One call; 0 on success, non-zero when ISA-L reported an error. */
int bench_isal_call(struct bench_isal *st, void **ptrs);
void bench_isal_free(struct bench_isal *st);

/* ---- bench_svg.c: the plot ------------------------------------------- */

enum bench_series_style {
	BSS_IMPL,      /* a raidx implementation */
	BSS_CHOSEN,    /* the one raidx uses: drawn thicker */
	BSS_PEER,      /* isal */
	BSS_REFERENCE, /* memread, memcpy: dashed */
};

struct bench_series {
	const char *name;
	enum bench_series_style style;
	unsigned n;       /* points */
	const double *x;  /* block lengths in bytes (> 0) */
	const double *y;  /* GB/s; a value < 0 is a missing point */
};

/* Write a self-contained SVG line chart: x on a log2 axis.  Returns 0, or -1
 * with errno set when the file cannot be written. */
int bench_plot_svg(const char *path, const char *title, const char *subtitle,
		   const char *xlabel, const char *ylabel,
		   const struct bench_series *series, unsigned nseries);

#endif
