/*
 * x86 CPU feature detection.
 *
 * A CPUID flag alone is not enough: the OS must also save the wider register
 * state on context switches, which XGETBV(0) reports in XCR0 (bits 1-2: SSE
 * and AVX state; bits 5-7: AVX-512 opmask and ZMM state).  Without that check
 * a kernel could be chosen that faults, as the Linux RAID-6 code once did
 * under `qemu -cpu max,xsave=off`.
 */
#include <cpuid.h>
#include <immintrin.h>
#include <stdio.h>
#include <string.h>

#include "raidx_impl.h"

#define XCR0_SSE_AVX 0x06u
#define XCR0_AVX512 0xe0u

__attribute__((target("xsave"))) static uint64_t read_xcr0(void)
{
	return _xgetbv(0);
}

/* Vendor string, and family and model with the extended fields folded in
 * as the vendors document them (the extended model counts from family 6);
 * returns cpuid leaf 1's eax (the stepping is its low 4 bits). */
static unsigned cpu_signature(char vendor[13], unsigned *family, unsigned *model)
{
	unsigned a, b, c, d;

	__cpuid(0, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	__cpuid(1, a, b, c, d);
	*family = (a >> 8) & 15;
	*model = (a >> 4) & 15;
	if (*family == 15)
		*family += (a >> 20) & 255;
	if (*family >= 6)
		*model |= ((a >> 16) & 15) << 4;
	return a;
}

/*
 * Quirks: properties of a CPU model, not instruction sets, decided here so
 * that selection only sees bits.
 *
 * RAIDX_CPU_ZMM_DOWNCLOCK: Intel cores from Skylake-SP to Tiger Lake lower
 * their clock while they run 512-bit vector instructions (the AVX-512
 * "licence" levels of Intel's optimisation manual), and keep it lowered
 * for about two milliseconds after the last one, so the application's own
 * code on that core runs slower too; each switch of levels also slows the
 * core for about 20 us while the voltage settles.  A calibration trial of
 * a few microseconds sees none of that, only the 512-bit kernel's higher
 * throughput, so on these models selection leaves the 512-bit kernels out
 * (they can still be forced) and takes the best 256-bit ones (AVX2, or
 * GFNI on AVX2 where the CPU has GFNI, as Ice Lake and Tiger Lake do).
 * The models are those the Linux kernel marks X86_FEATURE_PREFER_YMM for
 * the same reason (2025):
 * Skylake-SP/X with Cascade Lake and Cooper Lake (family 6 model 0x55),
 * Ice Lake server (0x6a, 0x6c), Ice Lake client (0x7d, 0x7e, 0x9d) and
 * Tiger Lake (0x8c, 0x8d).  Rocket Lake, Sapphire Rapids and later Intel
 * cores, and AMD's (Zen 4 runs 512-bit operations as two 256-bit halves
 * without a clock change), are not on it.  RAIDX_DISABLE=zmm_downclock
 * clears the quirk, for an operator who has measured that the 512-bit
 * kernels pay on such a machine.
 */
uint32_t raidx__x86_quirks(const char *vendor, unsigned family, unsigned model)
{
	static const unsigned char zmm_downclock[] = {
		0x55, 0x6a, 0x6c, 0x7d, 0x7e, 0x9d, 0x8c, 0x8d,
	};

	if (strcmp(vendor, "GenuineIntel") || family != 6)
		return 0;
	for (size_t i = 0; i < sizeof(zmm_downclock); i++)
		if (model == zmm_downclock[i])
			return RAIDX_CPU_ZMM_DOWNCLOCK;
	return 0;
}

/*
 * Traits: rules the kernels and the size classes follow only on the CPU
 * models where they were measured to pay (raidx_impl.h, RAIDX__T_*).  All
 * eight were found on the Turin-like Zen 5 VMs (AMD family 0x1A, 1 MiB L2
 * per core, 48 KiB L1), and the first three cost on the next machine
 * measured, an Intel Xeon with AVX-512, AMX and GFNI (family 6, reported
 * as model 0xa7; 2 MiB L2, 48 KiB L1, a 480 MiB L3 shared with other
 * guests), 2026-12-04:
 *   - RAIDX__T_GEN_L1_STREAM (select.c, GEN_STREAM_MIN_BLOCKS): streaming P
 *     and Q of gen_syndrome with 15 or more data blocks once the stripe
 *     leaves the L1.  Zen 5: the twins 1.17-1.41x the normal stores on 15
 *     and 16 data blocks from 54 KiB of stripe.  The Xeon: default raidx
 *     bench, three runs, 16+2 at 4 KiB: gfni_avx512x4nt 0.65-0.67 of
 *     gfni_avx512x2; at 64 KiB 0.72-0.92 of gfni_avx512x4; 32+2 at 4 KiB
 *     0.84-0.86 of gfni_avx512x2.
 *   - RAIDX__T_XSYN_BW_BAND (simd_avx512.h, rx_xsyn_bw_band): avx512x1's
 *     loop inside the GFNI AVX-512 xor_syndrome kernels (gfni_avx512x4,
 *     and gfni_avx512x2 from cf3ae21) for windows of 3-8 blocks
 *     streaming 3/16 to 9/16 of the L2 (and, from 2026-12-05, avx512x4's
 *     on two-block windows streaming 5/16 to 9/16 of it, avx512x2's on
 *     those with a multiply streaming 3/16 to 1/4; not measured on the
 *     Xeon).  Zen 5: 89 of 414 cells below 0.95 of the faster loop
 *     without it, 10 with it; two blocks 1.02-1.19x.  The Xeon, two runs of
 *     `raidx bench --op xor_syndrome --len 8k,16k,32k,64k,128k,256k
 *     --impl gfni_avx512x4,gfni_avx512x2,avx512x4`, gfni_avx512x2 over
 *     gfni_avx512x4, paired: 1.12-1.23 on the default windows in the band
 *     (8+2 [0,7] and [1,7], 16+2 [4,8] and [8,15] at 64 KiB, [1,7] and
 *     [4,8] at 128 KiB), 0.92-1.08 on every other cell.
 *   - RAIDX__T_X1_BEYOND_L1 (simd_avx512.h, RAIDX__X1_MAX_LEN): the x4
 *     kernels' one-line step on stripes beyond the L1 with blocks under
 *     64 KiB.  Zen 5: x1 1.05-1.32x x2's loop there.  The Xeon: x2 1.00-
 *     1.11x x1 on gen_syndrome (the figures are at RAIDX__X1_MAX_LEN).
 *   - RAIDX__T_CROWD_X4 (simd_avx512_gfni.h, rx_gen_nt_x4 and
 *     rx_xsyn_crowd_unroll), found on the Zen 5 a day later (2026-12-05),
 *     when the machine was that one again: gfni_avx512x4nt's x4 loop on
 *     gen_syndrome with more than 16 data blocks in one L1 set
 *     (page-aligned blocks, md's placement), 1.06-1.66x its x1/x2 loops
 *     from 4 KiB to 1 MiB, and with 24 or more data blocks under 1 MiB
 *     anywhere, 0.97-1.45x; gfni_avx512x4's on xor_syndrome windows of
 *     more than 13 such blocks, 1.04-1.73x.  Not measured on the Xeon, so
 *     not taken there.
 *   - RAIDX__T_XOR_L2_YMM (avx512.c, xor_l2_ymm_band): avx512's xor_acc
 *     of 1-8 sources and xor_gen of 2-8 in a 256-bit loop where their
 *     blocks stream from the L2 (more than twice the L1, at most half the
 *     L2, blocks of at most 96 KiB).  Zen 5: xor_acc 0.95-1.14 of the
 *     512-bit loop there, median 1.03 (2026-12-05); xor_gen within 5% of
 *     the fastest of it, avx512 and avx2 in 54 of 57 readings, the
 *     512-bit loop in 36 (2026-12-07).  Not measured on the Xeon.
 *   - RAIDX__T_GEN_L3_BW (simd_avx512_gfni.h, rx_gen_bw_l3): the
 *     streaming GFNI gen_syndrome twins run avx512x4nt's loop on stripes
 *     of 6-12 data blocks whose data is 3/8 of the LLC to twice it.  Zen 5
 *     (2026-12-05): the GFNI loops at 0.75-0.99 of it there, most
 *     readings 0.79-0.94.  Not measured on the Xeon.
 *   - RAIDX__T_XOR_NT_MID (select.c, set_bounds; avx512.c,
 *     xor_l2_nt_band), 2026-12-07: xor_gen of 5-9 sources in the large
 *     class (streaming dst) from half the L2, in avx512nt's 256-bit
 *     streaming loop up to the L2.  Zen 5: 0.93-1.37 of avx512's normal
 *     stores there, most cells' medians 1.05-1.20.  Not measured on the
 *     Xeon.
 *   - RAIDX__T_GEN_NT_MID (select.c, GEN_NT_MID_MIN_BLOCKS), 2026-12-07:
 *     gen_syndrome of 8-14 data blocks in the large class from three
 *     quarters of the L2.  Zen 5: gfni_avx512x4nt 0.79-1.00 of the
 *     fastest there (most 0.95-1.00), gfni_avx512x4 0.66-1.00 (most
 *     0.72-0.90).  Not measured on the Xeon.
 * Other CPUs, unmeasured, get none: the kernels' own loops and the L2's
 * bound, which no measurement has found far behind.
 */
uint32_t raidx__x86_traits(const char *vendor, unsigned family, unsigned model)
{
	(void)model;
	if (!strcmp(vendor, "AuthenticAMD") && family == 0x1a)
		return RAIDX__T_GEN_L1_STREAM | RAIDX__T_XSYN_BW_BAND | RAIDX__T_X1_BEYOND_L1 |
		       RAIDX__T_CROWD_X4 | RAIDX__T_XOR_L2_YMM | RAIDX__T_GEN_L3_BW |
		       RAIDX__T_XOR_NT_MID | RAIDX__T_GEN_NT_MID;
	return 0;
}

/* Looked up once: each cpuid is a trip to the hypervisor in a guest, and
 * selection and the kernels' cached values each ask. */
static _Atomic uint32_t traits_cached; /* bit 31: looked up */

uint32_t raidx__cpu_traits(void)
{
	uint32_t t = atomic_load_explicit(&traits_cached, memory_order_relaxed);
	char vendor[13];
	unsigned family, model;

	if (t)
		return t & ~(1u << 31);
	if (__get_cpuid_max(0, NULL) >= 1) {
		cpu_signature(vendor, &family, &model);
		t = raidx__x86_traits(vendor, family, model);
	}
	atomic_store_explicit(&traits_cached, t | 1u << 31, memory_order_relaxed);
	return t;
}

void raidx__cpu_traits_set(uint32_t t)
{
	atomic_store_explicit(&traits_cached, t ? t | 1u << 31 : 0, memory_order_relaxed);
}

uint32_t raidx__cpu_detect(void)
{
	unsigned a, b, c, d, max;
	uint32_t f = 0;
	uint64_t xcr0 = 0;

	max = __get_cpuid_max(0, NULL);
	if (max < 1)
		return 0;
	__cpuid(1, a, b, c, d);
	if (d & (1u << 26))
		f |= RAIDX_CPU_SSE2;
	if (c & (1u << 9))
		f |= RAIDX_CPU_SSSE3;
	/* OSXSAVE (bit 27) says XGETBV may be executed. */
	if (c & (1u << 27))
		xcr0 = read_xcr0();
	if ((c & (1u << 28)) && (xcr0 & XCR0_SSE_AVX) == XCR0_SSE_AVX)
		f |= RAIDX_CPU_AVX;
	if (max < 7)
		return f;
	__cpuid_count(7, 0, a, b, c, d);
	if ((f & RAIDX_CPU_AVX) && (b & (1u << 5)))
		f |= RAIDX_CPU_AVX2;
	if ((f & RAIDX_CPU_AVX) && (xcr0 & XCR0_AVX512) == XCR0_AVX512 &&
	    (b & (1u << 16))) {
		f |= RAIDX_CPU_AVX512F;
		if (b & (1u << 30))
			f |= RAIDX_CPU_AVX512BW;
		if (b & (1u << 31))
			f |= RAIDX_CPU_AVX512VL;
		if (b & (1u << 17))
			f |= RAIDX_CPU_AVX512DQ;
		if (c & (1u << 1))
			f |= RAIDX_CPU_AVX512VBMI;
	}
	/* GFNI's legacy-SSE form needs only SSE state; every raidx GFNI kernel
	 * also requires AVX2 or AVX-512, which carry their own OS checks. */
	if (c & (1u << 8))
		f |= RAIDX_CPU_GFNI;
	if (f & RAIDX_CPU_AVX512F) {
		char vendor[13];
		unsigned family, model;
		cpu_signature(vendor, &family, &model);
		f |= raidx__x86_quirks(vendor, family, model);
	}
	return f;
}

/* "AuthenticAMD family 25 model 1 stepping 1: AMD EPYC ..." for tuning
 * files: picks measured on one CPU model are not carried to another. */
void raidx__cpu_ident(char *buf, size_t size)
{
	unsigned r[12] = { 0 }, family, model;
	char vendor[13], brand[49] = { 0 };
	unsigned a = cpu_signature(vendor, &family, &model);
	if ((unsigned)__get_cpuid_max(0x80000000, NULL) >= 0x80000004u) {
		for (unsigned i = 0; i < 3; i++)
			__cpuid(0x80000002 + i, r[4 * i], r[4 * i + 1], r[4 * i + 2],
				r[4 * i + 3]);
		memcpy(brand, r, 48);
	}
	char *s = brand;
	while (*s == ' ')
		s++;
	snprintf(buf, size, "%s family %u model %u stepping %u: %s", vendor,
		 family, model, a & 15, s);
}

/* The largest data or unified cache one core reaches, from the
 * deterministic cache leaves (Intel's leaf 4, AMD's 0x8000001D when
 * TOPOEXT says it is there), which describe one cache, not the package;
 * 0 when neither is available (some hypervisors hide both). */
size_t raidx__cpu_llc_bytes(void)
{
	unsigned a, b, c, d, leaf = 0;
	size_t best = 0;

	if (__get_cpuid_max(0, NULL) >= 4)
		leaf = 4;
	__cpuid(0, a, b, c, d);
	if (b == 0x68747541 && (unsigned)__get_cpuid_max(0x80000000, NULL) >= 0x8000001du) {
		/* "Auth"enticAMD: leaf 4 is reserved there */
		__cpuid(0x80000001, a, b, c, d);
		leaf = (c & (1u << 22)) ? 0x8000001du : 0;
	}
	for (unsigned i = 0; leaf && i < 16; i++) {
		__cpuid_count(leaf, i, a, b, c, d);
		unsigned type = a & 31; /* 0 none, 1 data, 2 instruction, 3 unified */
		if (!type)
			break;
		if (type == 2)
			continue;
		size_t size = (size_t)((b >> 22) + 1) * (((b >> 12) & 1023) + 1) *
			      ((b & 4095) + 1) * ((size_t)c + 1);
		if (size > best)
			best = size;
	}
	return best;
}
