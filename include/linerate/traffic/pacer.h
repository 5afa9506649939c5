/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Deadline pacer for one sender: each reservation of `bytes` advances a due time by
 * bytes * 8 / rate (exact over the long run: the division remainder is carried). A stall is
 * forgiven instead of paid back in a burst: the debt never exceeds max_burst_ns. Pure maths
 * on caller-supplied times (simulated clocks in tests); the waiting helper is separate.
 * A pacer belongs to one thread. [any] */
#ifndef LINERATE_PACER_H
#define LINERATE_PACER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Default debt cap: iperf3 paces against the average since the start, so a stall's debt is
 * repaid (at LR_PACER_CATCHUP x the rate, never in a burst); only a stall longer than this is
 * forgiven (10 ms lost 3 % of a -b 50M run's datagrams on a busy host). */
#define LR_PACER_MAX_BURST_NS 1000000000ULL
#define LR_PACER_QUANTUM_NS   200000ULL /* a batch aims to last about this long */
#define LR_PACER_SPIN_NS      50000ULL /* waits shorter than this spin (yield) */
#define LR_PACER_CATCHUP      2 /* a sender behind schedule catches up at this x the rate */

struct lr_pacer {
	uint64_t rate_bps; /* 0 = unlimited */
	uint64_t due_ns; /* when the next reserved bytes may leave */
	uint64_t rem; /* carried remainder of bits * 1e9 / rate_bps */
	uint64_t max_burst_ns; /* the most a sender may be behind (then repaid at CATCHUP x) */
	uint64_t floor_ns; /* the catch-up pace: nothing leaves before this */
};

/* Starts with no debt and no credit: the first reservation may leave at now_ns. */
void lr_pacer_init(struct lr_pacer *p, uint64_t rate_bps, uint64_t now_ns);
/* Returns when these bytes may leave (<= now_ns: at once). Charges them to the schedule.
 * Behind schedule, reservations leave no faster than LR_PACER_CATCHUP x the rate (the debt is
 * repaid, not burst). rate 0: returns now_ns and charges nothing. */
uint64_t lr_pacer_reserve(struct lr_pacer *p, uint64_t now_ns, size_t bytes);
/* Live change: the part of the schedule still ahead of now_ns is rescaled to the new rate,
 * the debt is capped as for a stall, so a change never releases a burst. */
void lr_pacer_set_rate(struct lr_pacer *p, uint64_t rate_bps, uint64_t now_ns);
/* Debt cap; 0 keeps the default. */
void lr_pacer_set_max_burst(struct lr_pacer *p, uint64_t max_burst_ns);
/* How many items of item_bytes the next reservation should cover: a batch lasts about
 * LR_PACER_QUANTUM_NS at the current rate (1 item at low rates, max_items when unlimited),
 * plus what the sender is behind at now_ns up to (CATCHUP - 1) quanta, so a late sender
 * catches up in bigger batches instead of falling further behind, never in one burst.
 * Always >= 1 when max_items >= 1. */
size_t lr_pacer_batch(const struct lr_pacer *p, uint64_t now_ns, size_t item_bytes,
		      size_t max_items);
/* Waits until at_ns (CLOCK_MONOTONIC): clock_nanosleep TIMER_ABSTIME above LR_PACER_SPIN_NS,
 * sched_yield spin below; never sleeps more than slice_ns at a time and returns early
 * (false) when *stop becomes true or *gen differs from gen_seen. true = at_ns reached. */
bool lr_pacer_wait(uint64_t at_ns, uint64_t slice_ns, const atomic_bool *stop,
		   const _Atomic uint32_t *gen, uint32_t gen_seen);

#endif
