// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counter deltas and rates. Every rate divides by the *measured* interval, so a late tick
 * changes the divisor, not the answer. A counter going backwards on 64 bits is a reset and
 * that interval is dropped; on 32 bits it is a wrap. [any]
 */
#include "linerate/sample/rate.h"

bool lr_rate_delta(uint64_t prev, uint64_t cur, unsigned width, uint64_t *out)
{
	if (cur >= prev) {
		*out = cur - prev;
		return true;
	}
	if (width == 32 && prev <= UINT32_MAX) {	/* genuine 32-bit wrap */
		*out = (UINT32_MAX - prev) + cur + 1;
		return true;
	}
	return false;					/* 64-bit: reset, not wrap */
}

unsigned lr_rate_width(uint64_t prev, uint64_t cur)
{
	return prev > UINT32_MAX || cur > UINT32_MAX ? 64 : 32;
}

double lr_rate_per_sec(uint64_t delta, uint64_t dt_ns)
{
	if (dt_ns == 0)
		return 0.0;
	return (double)delta * (double)LR_NSEC_PER_SEC / (double)dt_ns;
}

/* Holding stops after 1.5 gaps (the refresh surely happened) and never exceeds this. */
#define STALE_MAX_NS (3 * LR_NSEC_PER_SEC)

bool lr_stale_update(struct lr_stale *st, uint64_t delta, uint64_t now_ns, uint64_t dt_ns,
		     double *per_s)
{
	uint64_t since = st->last_change_ns ? now_ns - st->last_change_ns : 0;

	if (delta) {
		/* A change covers the whole time since the previous one (a lazily refreshed
		 * counter, or a pause shorter than STALE_MAX_NS): the rate over the last real
		 * change. The very first change only knows this interval. */
		uint64_t span = st->last_change_ns && since > dt_ns && since <= STALE_MAX_NS ? since
											   : dt_ns;

		*per_s = lr_rate_per_sec(delta, span);
		st->gap_ns = st->last_change_ns ? since : 0;
		st->last_change_ns = now_ns;
		st->held_per_s = *per_s;
		return false;
	}
	if (st->last_change_ns && st->gap_ns > dt_ns + dt_ns / 2 &&
	    since < st->gap_ns + st->gap_ns / 2 && since <= STALE_MAX_NS) {
		*per_s = st->held_per_s;
		return true;
	}
	st->held_per_s = 0;
	*per_s = 0.0;
	return false;
}
