/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A latency histogram with HdrHistogram's log-linear buckets: exact below 32 ns, then 32
 * buckets per power of two, so a value is known within 1/32 (3.1 %) of itself from 1 ns to
 * 2^41 ns (36 minutes; longer is counted in the last bucket). Shared by the latency probes
 * (DESIGN section 16), --rr and the views. A plain value type: the owner locks it or gives
 * each thread its own and merges. */
#ifndef LINERATE_LATHIST_H
#define LINERATE_LATHIST_H

#include <stdbool.h>
#include <stdint.h>

#define LR_LATHIST_SUB_BITS 5
#define LR_LATHIST_SUB (1u << LR_LATHIST_SUB_BITS)
#define LR_LATHIST_TOP_EXP 40 /* the last power of two with buckets of its own */
#define LR_LATHIST_BUCKETS \
	(LR_LATHIST_SUB + (LR_LATHIST_TOP_EXP - LR_LATHIST_SUB_BITS + 1) * LR_LATHIST_SUB)

struct lr_lathist {
	uint64_t count;
	uint64_t sum_ns;
	/* exact over what was added; a difference (lr_lathist_sub) knows them only to the
	 * bounds of its lowest and highest buckets. 0 when count is 0 */
	uint64_t min_ns, max_ns;
	uint32_t b[LR_LATHIST_BUCKETS];
};

/* [any] The bucket that holds ns. */
unsigned lr_lathist_index(uint64_t ns);
/* [any] The smallest and the largest value bucket i holds. */
uint64_t lr_lathist_low(unsigned i);
uint64_t lr_lathist_high(unsigned i);
/* Empties *h. */
void lr_lathist_reset(struct lr_lathist *h);
/* Counts one value. */
void lr_lathist_add(struct lr_lathist *h, uint64_t ns);
/* Adds every count of *src to *dst. */
void lr_lathist_merge(struct lr_lathist *dst, const struct lr_lathist *src);
/* *out = later - earlier: what was added between two copies of one histogram (an interval's
 * values from two cumulative copies). -EINVAL, *out emptied, when earlier is not an earlier
 * copy of later (a bucket or the count went down). out may alias later. */
int lr_lathist_sub(struct lr_lathist *out, const struct lr_lathist *later,
		   const struct lr_lathist *earlier);
/* The value at quantile q (0 < q <= 1) as HdrHistogram gives it: the highest value of the
 * bucket that holds the ceil(q * count)-th smallest value, kept within [min_ns, max_ns].
 * 0 when the histogram is empty (the caller shows unknown: check count first). */
uint64_t lr_lathist_quantile(const struct lr_lathist *h, double q);

#endif
