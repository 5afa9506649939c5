// SPDX-License-Identifier: GPL-2.0-or-later
/* The client's -O: the test runs omit + time seconds, and when the omitted seconds end every
 * stream's counters are marked; the results (client_results.c) and the interval reports leave
 * what came before the marks out, as iperf3 resets its counters then. Control thread writes,
 * anyone reads once omit_at_ns is published. */
#include <stdatomic.h>
#include <stdint.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"

#include "client_priv.h"

uint64_t lr_client_omit_poll(struct lr_client *c, uint64_t now)
{
	uint64_t due = c->t0_ns + (uint64_t)c->tc.omit_s * LR_NSEC_PER_SEC;

	if (!c->tc.omit_s || !c->omit || !c->t0_ns || atomic_load(&c->omit_at_ns))
		return UINT64_MAX;
	if (now < due)
		return due - now;
	for (unsigned i = 0; i < lr_client_nstreams(c); i++) {
		const struct lr_stream_stats *st = lr_stream_stats(c->streams[i]);

		c->omit[i] = (struct lr_traffic_omit_mark){
			.bytes = atomic_load(&st->bytes),
			.packets = atomic_load(&st->packets),
			.retransmits = atomic_load(&st->retransmits),
			.lost = atomic_load(&st->lost),
			.max_seq = atomic_load(&st->max_seq),
			.out_of_order = atomic_load(&st->out_of_order),
			.at_ns = now,
		};
		lr_stream_omit_mark(c->streams[i]);
	}
	atomic_store_explicit(&c->omit_at_ns, now, memory_order_release);
	lr_log(LR_LOG_DEBUG, "client: %u omitted second(s) over", c->tc.omit_s);
	return UINT64_MAX;
}

const struct lr_traffic_omit_mark *lr_client_omit_mark(const struct lr_client *c, unsigned i)
{
	if (!c->omit || !atomic_load_explicit(&c->omit_at_ns, memory_order_acquire) ||
	    i >= lr_client_nstreams(c))
		return NULL;
	return &c->omit[i];
}

bool lr_client_omit_over(const struct lr_client *c, uint64_t *at_ns)
{
	uint64_t t = atomic_load_explicit(&c->omit_at_ns, memory_order_acquire);

	if (t && at_ns)
		*at_ns = t;
	return t != 0;
}
