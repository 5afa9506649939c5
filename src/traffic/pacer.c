// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Deadline pacer: the due time advances by the exact transmission time of what was reserved
 * (remainder carried, so 64-byte datagrams at 40 Gbit/s do not drift), and the debt of a sender
 * that was descheduled is capped (1 s). What it is behind is repaid, as iperf3's average since
 * the start would, but at no more than LR_PACER_CATCHUP times the target rate, never in one
 * burst: on loopback and veth a burst lands in the receiver's socket within the sender's own
 * system call, and a default 208 KiB receive buffer holds only three 32 KiB datagrams (paced
 * UDP lost datagrams where iperf3's one-datagram-per-write catch-up lost none, issue 10).
 * Runs on the stream thread that owns the pacer; lr_pacer_wait is the only part that touches
 * a clock.
 */
#include <sched.h>
#include <time.h>

#include "linerate/core/clock.h"
#include "linerate/core/common.h"
#include "linerate/traffic/pacer.h"

void lr_pacer_init(struct lr_pacer *p, uint64_t rate_bps, uint64_t now_ns)
{
	p->rate_bps = rate_bps;
	p->due_ns = now_ns;
	p->rem = 0;
	p->floor_ns = 0;
	p->max_burst_ns = LR_PACER_MAX_BURST_NS;
}

void lr_pacer_set_max_burst(struct lr_pacer *p, uint64_t max_burst_ns)
{
	p->max_burst_ns = max_burst_ns ? max_burst_ns : LR_PACER_MAX_BURST_NS;
}

static void cap_debt(struct lr_pacer *p, uint64_t now_ns)
{
	if (now_ns > p->due_ns + p->max_burst_ns) {
		p->due_ns = now_ns - p->max_burst_ns;
		p->rem = 0;
	}
}

uint64_t lr_pacer_reserve(struct lr_pacer *p, uint64_t now_ns, size_t bytes)
{
	unsigned __int128 num;
	uint64_t at, dt, leave;

	if (!p->rate_bps)
		return now_ns;
	cap_debt(p, now_ns);
	at = p->due_ns;
	num = (unsigned __int128)bytes * 8 * LR_NSEC_PER_SEC + p->rem;
	dt = (uint64_t)(num / p->rate_bps);
	p->due_ns += dt;
	p->rem = (uint64_t)(num % p->rate_bps);
	/* Behind schedule the bytes may leave now, but not sooner than the catch-up pace allows
	 * after the previous ones; on schedule the floor is already behind `at`. */
	if (at < p->floor_ns)
		at = p->floor_ns;
	leave = at > now_ns ? at : now_ns;
	p->floor_ns = leave + dt / LR_PACER_CATCHUP;
	return at;
}

void lr_pacer_set_rate(struct lr_pacer *p, uint64_t rate_bps, uint64_t now_ns)
{
	uint64_t old = p->rate_bps;

	if (rate_bps == old)
		return;
	if (old && rate_bps && p->due_ns > now_ns) {	/* ahead: the wait, at the new rate */
		unsigned __int128 ahead = (unsigned __int128)(p->due_ns - now_ns) * old / rate_bps;

		p->due_ns = now_ns + (uint64_t)ahead;
	} else {
		/* from or to unlimited, or behind: the new target starts now (a debt run up at
		 * the old rate is not the new one's to repay) */
		p->due_ns = now_ns;
	}
	p->rem = 0;
	p->floor_ns = 0;
	p->rate_bps = rate_bps;
	cap_debt(p, now_ns);
}

size_t lr_pacer_batch(const struct lr_pacer *p, uint64_t now_ns, size_t item_bytes,
		      size_t max_items)
{
	uint64_t n, span = LR_PACER_QUANTUM_NS;
	unsigned __int128 bits;

	if (!max_items)
		return 0;
	if (!p->rate_bps || !item_bytes)
		return max_items;
	if (now_ns > p->due_ns) { /* behind: part of the debt, as the catch-up pace spends it */
		uint64_t late = now_ns - p->due_ns;
		uint64_t most = LR_PACER_QUANTUM_NS * (LR_PACER_CATCHUP - 1);

		if (late > p->max_burst_ns)
			late = p->max_burst_ns;
		span += late < most ? late : most;
	}
	/* items per span = rate * span / (8 * bytes * 1e9) */
	bits = (unsigned __int128)p->rate_bps * span;
	n = (uint64_t)(bits / ((unsigned __int128)item_bytes * 8 * LR_NSEC_PER_SEC));
	if (n < 1)
		n = 1;
	return n < max_items ? (size_t)n : max_items;
}

bool lr_pacer_wait(uint64_t at_ns, uint64_t slice_ns, const atomic_bool *stop,
		   const _Atomic uint32_t *gen, uint32_t gen_seen)
{
	for (;;) {
		uint64_t now = lr_clock_mono_ns();

		if (now >= at_ns)
			return true;
		if (stop && atomic_load_explicit(stop, memory_order_relaxed))
			return false;
		if (gen && atomic_load_explicit(gen, memory_order_relaxed) != gen_seen)
			return false;
		if (at_ns - now > LR_PACER_SPIN_NS) {
			uint64_t until = at_ns;

			if (slice_ns && until - now > slice_ns)
				until = now + slice_ns;
			lr_clock_sleep_until(until); /* -EINTR: just loop and re-check */
		} else {
			sched_yield();
		}
	}
}
