/*
 * neon.c - AArch64 Advanced SIMD kernels for every operation.
 *
 * NEON is part of the armv8-a baseline, so this file is compiled with no
 * extra flags, and every AArch64 Linux system reports it (HWCAP_ASIMD).  The
 * algorithms, and why they are written the way they are (ADD + CMLT for the
 * multiply by 2, TBL nibble tables for constant multiplies, Horner's rule two
 * blocks a step, one-pass recovery, sources inside the offset loop for XOR),
 * are in neon_common.h, shared with neon_sha3.c.
 *
 * What is registered, and why these unrolls:
 *   gen_syndrome, xor_syndrome: x1, x2, x4 vectors (16, 32, 64 bytes) per
 *     step.  The multiply-by-2 chain is latency-bound with one vector, and
 *     how many independent chains a core needs to fill its pipes differs
 *     between in-order little cores (Cortex-A55) and wide out-of-order ones
 *     (Neoverse V1), so all three are candidates and the start-up calibration picks per operation.  The
 *     static order (used when calibration is off) prefers x4 for
 *     gen_syndrome and x2 for xor_syndrome, whose short windows give each
 *     step little work to overlap with its P/Q read-modify-write (the seed
 *     threads measured the same preference on x86).
 *   xor_gen, xor_acc: 4 and 8 vectors (64 and 128 bytes) per source and
 *     step ("neon", "neonx2"): the loop over sources is innermost, so a wider
 *     step amortises its per-source overhead over more loads.
 *   recov_2data, recov_datap: 4 vectors (64 bytes) per step: the survivors'
 *     Horner chain is the same as gen_syndrome's, where x4 is the one that
 *     hides latency, and recovery is rare enough that one kernel suffices.
 * The granule is the step: the dispatcher finishes the last len % granule
 * bytes with the reference.
 */
#include "neon_common.h"

RX_DEFINE_XOR(neon, 4)
RX_DEFINE_XOR(neon, 8)
RX_DEFINE_PQ(neon, 1)
RX_DEFINE_PQ(neon, 2)
RX_DEFINE_PQ(neon, 4)
RX_DEFINE_RECOV(neon, 4)

#define F RAIDX_CPU_NEON

RAIDX__IMPL_TABLE(neon) = {
	RAIDX__ENTRY("neon", RAIDX_OP_XOR_GEN, 20, 64, F, xor_gen, neon_xor_gen_4, 0),
	RAIDX__ENTRY("neonx2", RAIDX_OP_XOR_GEN, 21, 128, F, xor_gen, neon_xor_gen_8, 0),
	RAIDX__ENTRY("neon", RAIDX_OP_XOR_ACC, 20, 64, F, xor_gen, neon_xor_acc_4, 0),
	RAIDX__ENTRY("neonx2", RAIDX_OP_XOR_ACC, 21, 128, F, xor_gen, neon_xor_acc_8, 0),
	RAIDX__ENTRY("neonx1", RAIDX_OP_GEN_SYNDROME, 20, 16, F, gen, neon_gen_1, 0),
	RAIDX__ENTRY("neonx2", RAIDX_OP_GEN_SYNDROME, 21, 32, F, gen, neon_gen_2, 0),
	RAIDX__ENTRY("neonx4", RAIDX_OP_GEN_SYNDROME, 22, 64, F, gen, neon_gen_4, 0),
	RAIDX__ENTRY("neonx1", RAIDX_OP_XOR_SYNDROME, 20, 16, F, xsyn, neon_xsyn_1, 0),
	RAIDX__ENTRY("neonx2", RAIDX_OP_XOR_SYNDROME, 22, 32, F, xsyn, neon_xsyn_2, 0),
	RAIDX__ENTRY("neonx4", RAIDX_OP_XOR_SYNDROME, 21, 64, F, xsyn, neon_xsyn_4, 0),
	RAIDX__ENTRY("neon", RAIDX_OP_RECOV_2DATA, 20, 64, F, r2, neon_r2_4, 0),
	RAIDX__ENTRY("neon", RAIDX_OP_RECOV_DATAP, 20, 64, F, rdp, neon_rdp_4, 0),
	RAIDX__END,
};
