/* CPU feature detection for targets without SIMD kernels: none. */
#include "raidx_impl.h"

uint32_t raidx__cpu_detect(void)
{
	return 0;
}
