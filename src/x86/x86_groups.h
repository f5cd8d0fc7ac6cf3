/*
 * x86_groups.h - the walk of chunks and group passes shared by the x86
 * kernels that do a wide stripe in passes (x86_kernels.h's rxk_*_grouped,
 * simd_avx512_gfni.h's gen_grouped).  Plain macros, no vector types, so
 * each kernel file includes it under its own target flags.
 */
#ifndef RX_X86_GROUPS_H
#define RX_X86_GROUPS_H

/*
 * [0, len) in chunks (x86_kernels.h: RXK_GRP_CHUNK, or RXK_XSYN_CHUNK for
 * xor_syndrome on crowded blocks; simd_avx512_gfni.h: GEN_GRP_CHUNK), each
 * in passes over the nd data blocks from the top down, in balanced groups
 * of at most gmax (RXK_GRP_MAX beyond L2, RXK_CROWD_GROUP for crowded
 * blocks, GEN_GRP_MAX; the sizes are measured where each is defined).
 * PASS(hi, lo, first, last, c0, c1) does blocks hi..lo of [c0, c1); first
 * and last are constants at each expansion, so every kind of pass is its
 * own loop.
 */
#define RXK_GROUP_LO(hi, gs) ((hi) + 1 > (gs) ? (hi) + 1 - (gs) : 0u)
/* The balanced group size: nd blocks in as few groups of at most gmax as
 * will do, the sizes differing by one at most. */
#define RXK_GROUP_SIZE(nd, gmax)                                               \
	(((nd) + ((nd) + (gmax) - 1) / (gmax) - 1) / (((nd) + (gmax) - 1) / (gmax)))
#define RXK_GROUPS(len, nd, gmax, chunk, PASS)                                 \
	do {                                                                   \
		unsigned gs_ = RXK_GROUP_SIZE(nd, gmax);                       \
		for (size_t c0_ = 0, c1_; c0_ < (len); c0_ = c1_) {            \
			unsigned hi_ = (nd) - 1, lo_ = RXK_GROUP_LO(hi_, gs_); \
			c1_ = (len) - c0_ > (chunk) ? c0_ + (chunk) : (len);   \
			if (lo_ == 0)                                          \
				PASS(hi_, lo_, 1, 1, c0_, c1_);                \
			else                                                   \
				PASS(hi_, lo_, 1, 0, c0_, c1_);                \
			while (lo_ > 0) {                                      \
				hi_ = lo_ - 1;                                 \
				lo_ = RXK_GROUP_LO(hi_, gs_);                  \
				if (lo_ == 0)                                  \
					PASS(hi_, lo_, 0, 1, c0_, c1_);        \
				else                                           \
					PASS(hi_, lo_, 0, 0, c0_, c1_);        \
			}                                                      \
		}                                                              \
	} while (0)

#endif
