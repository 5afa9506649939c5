// SPDX-License-Identifier: GPL-2.0-or-later
/* Log-linear latency buckets (lathist.h): the index is the value's power of two and its next
 * five bits, so bucketing is a count-leading-zeros and a shift, never a search. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "linerate/core/lathist.h"

unsigned lr_lathist_index(uint64_t ns)
{
	unsigned e;

	if (ns < LR_LATHIST_SUB)
		return (unsigned)ns;
	e = 63u - (unsigned)__builtin_clzll(ns);
	if (e > LR_LATHIST_TOP_EXP)
		return LR_LATHIST_BUCKETS - 1;
	return LR_LATHIST_SUB + (e - LR_LATHIST_SUB_BITS) * LR_LATHIST_SUB +
	       (unsigned)((ns >> (e - LR_LATHIST_SUB_BITS)) & (LR_LATHIST_SUB - 1));
}

uint64_t lr_lathist_low(unsigned i)
{
	unsigned e, sub;

	if (i < LR_LATHIST_SUB)
		return i;
	e = LR_LATHIST_SUB_BITS + (i - LR_LATHIST_SUB) / LR_LATHIST_SUB;
	sub = (i - LR_LATHIST_SUB) % LR_LATHIST_SUB;
	return (uint64_t)(LR_LATHIST_SUB + sub) << (e - LR_LATHIST_SUB_BITS);
}

uint64_t lr_lathist_high(unsigned i)
{
	if (i < LR_LATHIST_SUB)
		return i;
	if (i >= LR_LATHIST_BUCKETS - 1)
		return UINT64_MAX; /* the last bucket also holds everything beyond it */
	return lr_lathist_low(i + 1) - 1;
}

void lr_lathist_reset(struct lr_lathist *h)
{
	memset(h, 0, sizeof(*h));
}

void lr_lathist_add(struct lr_lathist *h, uint64_t ns)
{
	if (!h->count || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->count++;
	h->sum_ns += ns;
	h->b[lr_lathist_index(ns)]++;
}

void lr_lathist_merge(struct lr_lathist *dst, const struct lr_lathist *src)
{
	if (!src->count)
		return;
	if (!dst->count || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	for (unsigned i = 0; i < LR_LATHIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
}

int lr_lathist_sub(struct lr_lathist *out, const struct lr_lathist *later,
		   const struct lr_lathist *earlier)
{
	unsigned lo = LR_LATHIST_BUCKETS, hi = 0;
	uint64_t max = later->max_ns;

	if (later->count < earlier->count || later->sum_ns < earlier->sum_ns)
		goto bad;
	for (unsigned i = 0; i < LR_LATHIST_BUCKETS; i++)
		if (later->b[i] < earlier->b[i])
			goto bad;
	out->count = later->count - earlier->count;
	out->sum_ns = later->sum_ns - earlier->sum_ns;
	for (unsigned i = 0; i < LR_LATHIST_BUCKETS; i++) {
		out->b[i] = later->b[i] - earlier->b[i];
		if (out->b[i]) {
			if (lo == LR_LATHIST_BUCKETS)
				lo = i;
			hi = i;
		}
	}
	if (!out->count || lo == LR_LATHIST_BUCKETS) {
		out->min_ns = out->max_ns = 0;
		return 0;
	}
	/* the cumulative extremes bound the interval's where they fall in its end buckets */
	out->min_ns = lr_lathist_low(lo);
	out->max_ns = lr_lathist_high(hi) < max ? lr_lathist_high(hi) : max;
	if (out->min_ns > out->max_ns)
		out->min_ns = out->max_ns;
	return 0;
bad:
	lr_lathist_reset(out);
	return -EINVAL;
}

uint64_t lr_lathist_quantile(const struct lr_lathist *h, double q)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	if (!(q > 0.0))
		return h->min_ns;
	rank = q >= 1.0 ? h->count : (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < LR_LATHIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			uint64_t v = lr_lathist_high(i);

			if (v > h->max_ns)
				v = h->max_ns;
			return v < h->min_ns ? h->min_ns : v;
		}
	}
	return h->max_ns;
}
