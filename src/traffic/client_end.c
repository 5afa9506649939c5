// SPDX-License-Identifier: GPL-2.0-or-later
/* When a client's data phase ends before -t: a -n/-k count reached (as iperf3 ends it: the
 * bytes sent or received, docs/wire.md §5.1, with a bounded wait for a UDP sender that stopped
 * at the count and lost its last datagrams), or -F's file sent whole. Read by the control
 * thread's run loop (client.c) from the streams' live counters. [control thread] */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/stream.h"
#include "client_priv.h"

#define COUNT_QUIET_NS (250 * LR_NSEC_PER_MSEC)

/* A UDP sender that stops at the count (linerate servers before issue 30, iperf3 -s with -b 0
 * or --burst) never makes up a datagram lost at its end: the receivers' highest sequence
 * numbers say it sent the count (all but each stream's last datagram), and nothing came for
 * 250 ms or 4 datagrams' time at the asked rate, whichever is longer. The results then show
 * the loss. Anything short of that is left to --rcv-timeout, as in iperf3. */
static bool udp_sender_done(struct lr_client *c, uint64_t now, uint64_t limit)
{
	uint64_t seqs = 0, last = 0, quiet = COUNT_QUIET_NS, len = c->params.len;
	unsigned n = lr_client_nstreams(c), nrx = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct lr_stream_stats *st = lr_stream_stats(c->streams[i]);
		uint64_t v = atomic_load(&st->last_ns);

		if (lr_stream_params(c->streams[i])->sender)
			continue;
		nrx++;
		seqs += atomic_load(&st->max_seq) + 1;
		last = v > last ? v : last;
	}
	if (!c->tc.udp || !nrx || !last || now < last)
		return false;
	/* -b is per stream, as iperf3's */
	if (c->params.bandwidth_bps &&
	    4 * len * 8 * LR_NSEC_PER_SEC / c->params.bandwidth_bps > quiet)
		quiet = 4 * len * 8 * LR_NSEC_PER_SEC / c->params.bandwidth_bps;
	if (now - last < quiet || seqs * len < limit)
		return false;
	lr_log(LR_LOG_INFO,
	       "client: the server stopped at the count (sequence numbers) and its last "
	       "datagrams were lost; test ended");
	return true;
}

/* -n / -k: the bytes (blocks of -l bytes) this side sent or received reached the count,
 * iperf3's end condition in every direction (its -R server sends on until TEST_END), or a UDP
 * sender that stopped there is done. */
static bool count_reached(struct lr_client *c, uint64_t now)
{
	uint64_t limit = c->tc.num_bytes ? c->tc.num_bytes : c->tc.blockcount * c->params.len;
	uint64_t sent = 0, rcvd = 0;

	if (!limit)
		return false;
	for (unsigned i = 0; i < lr_client_nstreams(c); i++) {
		uint64_t b = atomic_load(&lr_stream_stats(c->streams[i])->bytes);

		if (lr_stream_params(c->streams[i])->sender)
			sent += b;
		else
			rcvd += b;
	}
	return sent >= limit || rcvd >= limit || udp_sender_done(c, now, limit);
}

/* -F: iperf3's client sender ends the test at the file's end (under -t too): every sending
 * stream sent all of it. */
static bool file_sent(struct lr_client *c)
{
	bool any = false;

	if (!c->tc.file)
		return false;
	for (unsigned i = 0; i < lr_client_nstreams(c); i++) {
		if (!lr_stream_params(c->streams[i])->sender)
			continue;
		if (!lr_stream_file_done(c->streams[i]))
			return false;
		any = true;
	}
	return any;
}

bool lr_client_data_done(struct lr_client *c, uint64_t now)
{
	return count_reached(c, now) || file_sent(c);
}
