/*
 * sse2.c - SSE2 kernels: xor_gen, xor_acc, gen_syndrome, xor_syndrome.
 *
 * The same algorithms as avx2.c (see the design notes there), on 16-byte
 * vectors, from the template x86_kernels.h.  What differs:
 *
 * Multiply by 2.  SSE2 has neither pblendvb (SSE4.1) nor pshufb (SSSE3), so
 * the reduction mask is pcmpgtb(0, v) & 0x1d: four operations per multiply
 * (compare, and, add, xor) instead of three, six per data block and vector
 * for P and Q together.
 *
 * Disks below an xor_syndrome window.  Without pshufb there is no nibble
 * table multiply, so Q of the window is multiplied by g^start with `start`
 * doublings while start <= 9, and beyond that by double-and-add over the
 * bits of the constant g^start (at most 7 doublings and 8 XORs): with 255
 * disks and a window at the top, 7 doublings instead of 254.
 *
 * These kernels run on any x86-64 CPU; on the AVX2 machine they were
 * measured on they lose to the AVX2 ones everywhere (half the width), so
 * their priorities (20-29) only matter on CPUs without AVX2.  The unroll
 * order follows the AVX2 measurements: x4 for gen_syndrome (the
 * multiply-by-2 chain is 3 to 4 operations long, so four independent
 * vectors keep the ALUs busy), x2 for xor_syndrome (the seed thread
 * measured sse2x2 fastest on an Atom for every window).
 */
#include "raidx_impl.h"
#include "sse_vec.h"

#define RXV_HAVE_STREAM 1
static inline void rxv_stream(void *p, rxv v)
{
	_mm_stream_si128((__m128i *)p, v);
}

static inline void rxv_stream_fence(void)
{
	_mm_sfence();
}

#define RXK_WANT_XOR 1
#define RXK_WANT_PQ 1
#include "x86_kernels.h"

RAIDX__IMPL_TABLE(sse2) = {
#define E(name, op, prio, kind, fn, flags) \
	RAIDX__ENTRY(name, op, prio, RXV_BYTES, RAIDX_CPU_SSE2, kind, fn, flags)
	E("sse2", RAIDX_OP_XOR_GEN, 25, xor_gen, rxk_xor_gen, 0),
	E("sse2nt", RAIDX_OP_XOR_GEN, 20, xor_gen, rxk_xor_gen_stream, RAIDX__F_NT),
	E("sse2", RAIDX_OP_XOR_ACC, 25, xor_gen, rxk_xor_acc, 0),
	E("sse2x1", RAIDX_OP_GEN_SYNDROME, 21, gen, rxk_gen_x1, 0),
	E("sse2x2", RAIDX_OP_GEN_SYNDROME, 23, gen, rxk_gen_x2, 0),
	E("sse2x4", RAIDX_OP_GEN_SYNDROME, 25, gen, rxk_gen_x4, 0),
	E("sse2x4nt", RAIDX_OP_GEN_SYNDROME, 20, gen, rxk_gen_x4nt, RAIDX__F_NT),
	E("sse2x1", RAIDX_OP_XOR_SYNDROME, 21, xsyn, rxk_xsyn_x1, 0),
	E("sse2x2", RAIDX_OP_XOR_SYNDROME, 25, xsyn, rxk_xsyn_x2, 0),
	E("sse2x4", RAIDX_OP_XOR_SYNDROME, 23, xsyn, rxk_xsyn_x4, 0),
#undef E
	RAIDX__END,
};
