// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The running test's ledger: the books' totals at each tick diffed against the last tick's,
 * each interval built by the same lr_ledger_build as the end-of-test ledger, so an interval's
 * stages sum to the test's; and a ledger as the lines its outputs print. Pure; main thread.
 */
#include <math.h>
#include <string.h>

#include "linerate/diagnose/ledger_live.h"
#include "linerate/sample/snapshot.h"

void lr_ledger_live_reset(struct lr_ledger_live *lv)
{
	memset(lv, 0, sizeof(*lv));
}

/* A counter's delta: unknown when it is unknown now or went back (a reset, another
 * interface); one first known now counts from the test's start, as the books do. */
static int64_t d(int64_t cur, int64_t prev)
{
	if (cur < 0)
		return -1;
	if (prev < 0)
		return cur;
	return cur >= prev ? cur - prev : -1;
}

static void end_delta(const struct lr_ledger_end *c, const struct lr_ledger_end *p,
		      struct lr_ledger_end *o)
{
	/* the peer's test interface is the one that moved most: another one's counters are not
	 * a delta of these (none before: they count from the start) */
	bool same = !p->iface[0] || !strcmp(c->iface, p->iface);

	*o = *c;
	o->if_tx_packets = same ? d(c->if_tx_packets, p->if_tx_packets) : -1;
	o->if_rx_packets = same ? d(c->if_rx_packets, p->if_rx_packets) : -1;
	o->tx_dropped = same ? d(c->tx_dropped, p->tx_dropped) : -1;
	o->tx_errors = same ? d(c->tx_errors, p->tx_errors) : -1;
	o->rx_missed = same ? d(c->rx_missed, p->rx_missed) : -1;
	o->rx_fifo = same ? d(c->rx_fifo, p->rx_fifo) : -1;
	o->rx_over = same ? d(c->rx_over, p->rx_over) : -1;
	o->nic_drop = same ? d(c->nic_drop, p->nic_drop) : -1;
	o->nic_fifo = same ? d(c->nic_fifo, p->nic_fifo) : -1;
	o->qdisc_drops = same ? d(c->qdisc_drops, p->qdisc_drops) : -1;
	o->softnet_dropped = d(c->softnet_dropped, p->softnet_dropped);
	o->udp_sndbuf = d(c->udp_sndbuf, p->udp_sndbuf);
	o->udp_rcvbuf = d(c->udp_rcvbuf, p->udp_rcvbuf);
	o->udp_in_errors = d(c->udp_in_errors, p->udp_in_errors);
}

void lr_ledger_input_delta(const struct lr_ledger_input *cur, const struct lr_ledger_input *prev,
			   struct lr_ledger_input *out)
{
	*out = *cur;
	out->sent = d(cur->sent, prev->sent);
	out->lost = d(cur->lost, prev->lost);
	out->tcp_segments = d(cur->tcp_segments, prev->tcp_segments);
	end_delta(&cur->snd, &prev->snd, &out->snd);
	end_delta(&cur->rcv, &prev->rcv, &out->rcv);
}

void lr_ledger_live_step(struct lr_ledger_live *lv, const struct lr_ledger_input *cur,
			 uint64_t mono_ns, uint64_t tick_ns)
{
	struct lr_ledger_input iv;

	struct lr_ledger_input tot = *cur;

	if (lv->have_prev)
		lr_ledger_input_delta(cur, &lv->prev, &iv);
	else
		iv = *cur;
	/* the peer's newest frame is not this tick: tx - rx of one interval or of the test so far
	 * is the two ends' offset (-12704 packets in a 300M run's last interval), not the wire */
	iv.wire_unaligned = tot.wire_unaligned = true;
	lr_ledger_build(&iv, &lv->interval);
	lr_ledger_build(&tot, &lv->total);
	lv->interval_s = lv->have_prev && mono_ns > lv->prev_mono_ns
				 ? (double)(mono_ns - lv->prev_mono_ns) / 1e9
				 : (double)tick_ns / 1e9;
	lv->sender_local = cur->sender_local;
	lv->prev = *cur;
	lv->prev_mono_ns = mono_ns;
	lv->have_prev = true;
	lv->steps++;
}

void lr_ledger_live_counts(const struct lr_snapshot *s, bool udp, bool reverse, int64_t *sent,
			   int64_t *lost, int64_t *sent_bytes)
{
	int64_t pk = 0, gaps = 0, retr = 0, bytes = 0;
	unsigned n = 0;

	for (size_t i = 0; i < s->n_streams; i++) {
		const struct lr_stream_snap *st = &s->streams[i];

		if (st->udp != udp || st->sender == reverse)
			continue;	/* not this direction's data on this host */
		n++;
		pk += (int64_t)st->total_packets;
		gaps += (int64_t)st->total_lost;
		retr += (int64_t)st->total_retransmits;
		bytes += (int64_t)st->total_bytes;
	}
	*sent = *lost = *sent_bytes = -1;
	if (!n)
		return;
	if (udp && !reverse) {
		*sent = pk;
	} else if (udp) {
		*sent = pk + gaps;
		*lost = gaps;
	} else if (!reverse) {
		*lost = retr;
		*sent_bytes = bytes;
	}
}

static void line(struct lr_ledger_line *o, const char *stage, bool sender, bool sender_local,
		 const struct lr_ledger *l, const char *counter, int64_t count)
{
	memset(o, 0, sizeof(*o));
	o->stage = stage;
	o->has_side = true;
	o->sender = sender;
	o->peer = sender != sender_local;
	o->host = sender ? l->snd_host : l->rcv_host;
	o->counter = counter;
	o->known = o->dg_known = count >= 0;
	o->count = count;
	o->unit = l->unit;
	o->datagrams = (double)count;
}

unsigned lr_ledger_lines(const struct lr_ledger *l, bool sender_local, struct lr_ledger_line *out)
{
	unsigned n = 0;
	bool approx = false;

	line(&out[n++], "sent", true, sender_local, l, "the engine's count", l->sent);
	for (unsigned i = 0; i < l->n_rows && n < LR_LEDGER_LINES - 3; i++) {
		const struct lr_ledger_row *r = &l->rows[i];
		struct lr_ledger_line *o = &out[n++];

		line(o, lr_ledger_stage_name(r->stage), r->sender, sender_local, l, r->counter,
		     r->count);
		o->peer = r->peer;
		o->known = o->dg_known = r->known;
		o->unit = r->unit;
		o->datagrams = r->datagrams;
		o->approx = r->approx;
		approx |= r->known && r->approx && r->datagrams != 0;
	}
	line(&out[n++], "received", false, sender_local, l, "the engine's count",
	     l->received);
	/* UDP: the receiver's sequence numbers; TCP: the sender's own retransmits */
	line(&out[n++], "lost", !l->udp, sender_local, l,
	     l->udp ? "sequence gaps" : "retransmits", l->lost);
	line(&out[n], "unaccounted", false, sender_local, l, "lost - stages",
	     l->unaccounted_known ? llround(l->unaccounted) : -1);
	out[n].has_side = out[n].peer = false;
	out[n].host = "";
	out[n].known = out[n].dg_known = l->unaccounted_known;	/* it may be negative */
	out[n].datagrams = l->unaccounted;
	out[n].approx = approx;
	return n + 1;
}
