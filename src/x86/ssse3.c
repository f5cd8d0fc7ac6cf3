/*
 * ssse3.c - SSSE3 recovery kernels: recov_2data and recov_datap.
 *
 * The one-pass recovery of avx2.c (see the design notes there) on 16-byte
 * vectors, from the template x86_kernels.h: the surviving disks' P and Q
 * are accumulated in registers by Horner's rule (a lost disk costs only its
 * multiply-by-2), XORed with the stored P and Q, and the two GF(2^8)
 * constant multiplies are pshufb lookups in 16-entry nibble tables:
 *     c * x = lo[c][x & 15] ^ hi[c][x >> 4]
 * (raidx__gf_mul_lo/hi).  Nothing is written but the rebuilt blocks, and no
 * scratch block is needed: Linux instead runs a full gen_syndrome into
 * zero-filled scratch pages and then a second pass with the tables.
 *
 * pshufb is what SSSE3 adds over SSE2 and the only reason this file exists;
 * the multiply-by-2 is the SSE2 one (pcmpgtb, pand, paddb, pxor).  The
 * unroll is x2: the AVX2 measurements put x2 and x4 within noise of each
 * other, and with 16 XMM registers x4 spills (four P, four Q, four tables,
 * masks).
 */
#include <tmmintrin.h>

#include "raidx_impl.h"
#include "sse_vec.h"

#define RXV_HAVE_MULC 1
typedef struct {
	rxv lo, hi;
} rxv_ctab;

static inline rxv_ctab rxv_ctab_make(uint8_t c)
{
	rxv_ctab t;
	t.lo = _mm_loadu_si128((const __m128i *)raidx__gf_mul_lo[c]);
	t.hi = _mm_loadu_si128((const __m128i *)raidx__gf_mul_hi[c]);
	return t;
}

static inline rxv rxv_mulc(rxv v, const rxv_ctab *t)
{
	rxv m = _mm_set1_epi8(0x0f);
	rxv lo = _mm_and_si128(v, m);
	rxv hi = _mm_and_si128(_mm_srli_epi16(v, 4), m);
	return _mm_xor_si128(_mm_shuffle_epi8(t->lo, lo),
			     _mm_shuffle_epi8(t->hi, hi));
}

#define RXK_WANT_RECOV 1
#include "x86_kernels.h"

RAIDX__IMPL_TABLE(ssse3) = {
	RAIDX__ENTRY("ssse3", RAIDX_OP_RECOV_2DATA, 32, RXV_BYTES, RAIDX_CPU_SSSE3,
		     r2, rxk_recov_2data_x2, 0),
	RAIDX__ENTRY("ssse3", RAIDX_OP_RECOV_DATAP, 32, RXV_BYTES, RAIDX_CPU_SSSE3,
		     rdp, rxk_recov_datap_x2, 0),
	RAIDX__END,
};
