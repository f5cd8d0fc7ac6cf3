/*
 * neon_sha3.c - the NEON kernels again, with EOR3 (three-way XOR, from the
 * optional Armv8.2 SHA3 extension: present on e.g. Neoverse V1 (Graviton3),
 * N2 and V2 and Apple M1 and later; absent on Cortex-A72/A76 and Neoverse
 * N1 (Graviton2, Raspberry Pi 4/5), which run neon.c).  Compiled with -march=armv8.2-a+sha3, registered with
 * RAIDX_CPU_NEON | RAIDX_CPU_SHA3 (HWCAP_SHA3), so it only runs where the
 * kernel reports the extension.
 *
 * The source is neon_common.h; under __ARM_FEATURE_SHA3 its two helpers
 * become:
 *   rx_xor3(a, b, c)      one EOR3 instead of two EORs.  XOR kernels fold two
 *                         sources per instruction (per 16 bytes: two loads and
 *                         one EOR3, against two loads and two EORs); in P/Q
 *                         kernels P takes two data blocks per EOR3.
 *   rx_mul2_xor(q, d)     2q ^ d = EOR3(q + q, CMLT(q) & 0x1d, d): four
 *                         instructions instead of five.
 * Per data block and vector, gen_syndrome goes from six vector operations
 * (P: 1, Q: 5) to four and a half (P: 0.5, Q: 4), plus one load in both;
 * with GCC 12 -O3 the x4 loop body (two data blocks of 64 bytes) is 62
 * instructions in neon.c and 50 here.  The P/Q kernels are bound by those
 * vector operations, not by loads, so the saving is real throughput.
 * Recovery runs the same Horner loop and gets the same saving.
 *
 * What is not here: an x1 P/Q kernel.  A single q chain is latency-bound
 * whatever its instruction count, so EOR3 cannot make it faster, and the
 * cores with SHA3 are wide out-of-order designs that need several chains.  Names carry "eor3" so
 * that `raidx info` says which instruction made the difference.
 */
#include "neon_common.h"

#if !defined(__ARM_FEATURE_SHA3)
#error "neon_sha3.c must be compiled with -march=armv8.2-a+sha3"
#endif

RX_DEFINE_XOR(eor3, 4)
RX_DEFINE_XOR(eor3, 8)
RX_DEFINE_PQ(eor3, 2)
RX_DEFINE_PQ(eor3, 4)
RX_DEFINE_RECOV(eor3, 4)

#define F (RAIDX_CPU_NEON | RAIDX_CPU_SHA3)

RAIDX__IMPL_TABLE(neon_sha3) = {
	RAIDX__ENTRY("neon_eor3", RAIDX_OP_XOR_GEN, 30, 64, F, xor_gen, eor3_xor_gen_4, 0),
	RAIDX__ENTRY("neon_eor3x2", RAIDX_OP_XOR_GEN, 31, 128, F, xor_gen, eor3_xor_gen_8, 0),
	RAIDX__ENTRY("neon_eor3", RAIDX_OP_XOR_ACC, 30, 64, F, xor_gen, eor3_xor_acc_4, 0),
	RAIDX__ENTRY("neon_eor3x2", RAIDX_OP_XOR_ACC, 31, 128, F, xor_gen, eor3_xor_acc_8, 0),
	RAIDX__ENTRY("neon_eor3x2", RAIDX_OP_GEN_SYNDROME, 30, 32, F, gen, eor3_gen_2, 0),
	RAIDX__ENTRY("neon_eor3x4", RAIDX_OP_GEN_SYNDROME, 31, 64, F, gen, eor3_gen_4, 0),
	RAIDX__ENTRY("neon_eor3x2", RAIDX_OP_XOR_SYNDROME, 31, 32, F, xsyn, eor3_xsyn_2, 0),
	RAIDX__ENTRY("neon_eor3x4", RAIDX_OP_XOR_SYNDROME, 30, 64, F, xsyn, eor3_xsyn_4, 0),
	RAIDX__ENTRY("neon_eor3", RAIDX_OP_RECOV_2DATA, 30, 64, F, r2, eor3_r2_4, 0),
	RAIDX__ENTRY("neon_eor3", RAIDX_OP_RECOV_DATAP, 30, 64, F, rdp, eor3_rdp_4, 0),
	RAIDX__END,
};
