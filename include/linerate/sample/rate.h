/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counter maths: wrap- and reset-safe deltas, per-second rates over the measured interval,
 * stale-counter detection. Pure: no I/O, no globals. [any] */
#ifndef LINERATE_RATE_H
#define LINERATE_RATE_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/common.h"

/* Delta between two reads of a `width`-bit counter (32 or 64). Returns false and leaves *out
 * alone when cur < prev cannot be a wrap (a reset): drop that interval for this counter. */
bool lr_rate_delta(uint64_t prev, uint64_t cur, unsigned width, uint64_t *out) LR_MUST_CHECK;

/* The counter's width as the kernel keeps it: values above 2^32-1 prove 64 bits. A counter
 * that wraps at 2^32 only ever shows values <= UINT32_MAX, so both reads fit. */
unsigned lr_rate_width(uint64_t prev, uint64_t cur);

double lr_rate_per_sec(uint64_t delta, uint64_t dt_ns);	/* 0.0 when dt_ns == 0 */

/* Stale-counter tracking, for drivers that refresh stats every 1-2 s (bnxt's DMA'd stats,
 * hardware counters read by a watchdog). A counter that is known to move in steps longer than
 * the tick is "stale" between steps: its rate is held at the last real change, and the next
 * change is divided by the whole time since the previous one. That shows the true average,
 * not a 0/double sawtooth. A counter that moves every tick is never held, so a stopped load
 * reads 0 at once. */
struct lr_stale {
	uint64_t last_change_ns;	/* when the counter last moved, 0 = not yet */
	uint64_t gap_ns;		/* time between its last two changes, 0 = unknown */
	double held_per_s;		/* rate over the last real change */
};

/* Feeds one interval ending at now_ns that lasted dt_ns with this delta. Returns true when
 * the counter is stale this interval; *per_s is the rate to show either way. */
bool lr_stale_update(struct lr_stale *st, uint64_t delta, uint64_t now_ns, uint64_t dt_ns,
		     double *per_s);

#endif
