/* CPU feature detection for targets without SIMD kernels: none. */
#include "raidx_impl.h"

uint32_t raidx__cpu_detect(void)
{
	return 0;
}

void raidx__cpu_ident(char *buf, size_t size)
{
	if (size)
		buf[0] = 0;
	strncat(buf, "generic", size ? size - 1 : 0);
}

size_t raidx__cpu_llc_bytes(void)
{
	return 0;
}

/* No rule measured on one CPU model applies here (raidx_impl.h). */
uint32_t raidx__cpu_traits(void)
{
	return 0;
}
