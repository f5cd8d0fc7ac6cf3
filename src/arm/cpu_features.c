/*
 * AArch64 CPU feature detection.  Advanced SIMD (NEON) is architectural on
 * AArch64, but Linux still reports it in AT_HWCAP (HWCAP_ASIMD), as it does
 * the SHA3 extension that brings the three-way XOR EOR3.
 */
#include <stdio.h>

#include "raidx_impl.h"

#if defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1ul << 1)
#endif
#ifndef HWCAP_SHA3
#define HWCAP_SHA3 (1ul << 17)
#endif
#endif

uint32_t raidx__cpu_detect(void)
{
	uint32_t f = 0;
#if defined(__linux__)
	unsigned long hw = getauxval(AT_HWCAP);
	if (hw & HWCAP_ASIMD)
		f |= RAIDX_CPU_NEON;
	if ((f & RAIDX_CPU_NEON) && (hw & HWCAP_SHA3))
		f |= RAIDX_CPU_SHA3;
#else
	f |= RAIDX_CPU_NEON; /* baseline on AArch64 */
#endif
	return f;
}

/* The MIDR (implementer, part, revision) names the core for tuning files. */
void raidx__cpu_ident(char *buf, size_t size)
{
	char midr[64] = "unknown";
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");

	if (f) {
		if (fgets(midr, sizeof(midr), f))
			midr[strcspn(midr, "\n")] = 0;
		fclose(f);
	}
	snprintf(buf, size, "aarch64 midr %s", midr);
}

/* No portable way to read the cache sizes from user space on arm64 (the
 * CCSIDR registers are privileged); select.c asks sysfs and sysconf. */
size_t raidx__cpu_llc_bytes(void)
{
	return 0;
}

/* No rule measured on one CPU model applies here (raidx_impl.h). */
uint32_t raidx__cpu_traits(void)
{
	return 0;
}
