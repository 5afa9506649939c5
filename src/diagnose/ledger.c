// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The loss ledger of one direction (docs/design.md §14): each stage's own counter on its own
 * end, converted from the kernel's unit (an skb: a GSO or GRO skb carries many datagrams) to
 * the test's with the ratio measured on that end's interface, the remainder no stage
 * explains, and the conclusion that names the stage which lost most of it. Pure; any thread.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/strutil.h"
#include "linerate/diagnose/ledger.h"

static const char *const stage_names[LR_LS__COUNT] = {
	[LR_LS_SOCKET] = "socket",	   [LR_LS_QDISC] = "qdisc",
	[LR_LS_DRIVER_TX] = "driver tx",   [LR_LS_WIRE] = "wire",
	[LR_LS_NIC_RX] = "nic rx",	   [LR_LS_BACKLOG] = "backlog",
	[LR_LS_IP] = "ip",		   [LR_LS_TRANSPORT] = "transport",
};

const char *lr_ledger_stage_name(enum lr_ledger_stage s)
{
	return (unsigned)s < LR_LS__COUNT ? stage_names[s] : "?";
}

const char *lr_ledger_dir_name(enum lr_ledger_dir d)
{
	return d == LR_LDIR_DOWN ? "down" : "up";
}

void lr_ledger_end_init(struct lr_ledger_end *e)
{
	memset(e, 0, sizeof(*e));
	e->if_tx_packets = e->if_rx_packets = -1;
	e->tx_dropped = e->tx_errors = -1;
	e->rx_missed = e->rx_fifo = e->rx_over = e->nic_drop = e->nic_fifo = -1;
	e->qdisc_drops = e->softnet_dropped = -1;
	e->udp_sndbuf = e->udp_rcvbuf = e->udp_in_errors = -1;
	for (unsigned d = 0; d < LR_SD__COUNT; d++)
		e->stack_drop[d] = -1;
}

/* a + b over the known ones; -1 when neither is known */
static int64_t sum_known(int64_t a, int64_t b)
{
	if (a < 0)
		return b;
	return b < 0 ? a : a + b;
}

/* count < 0 is unknown, except for the wire's (INT64_MIN), whose difference may be negative */
static void add_row(struct lr_ledger *l, enum lr_ledger_stage st, bool sender, bool peer,
		    const char *counter, int64_t count, double per_skb)
{
	struct lr_ledger_row *r;

	if (l->n_rows >= LR_LEDGER_STAGES)
		return;
	r = &l->rows[l->n_rows++];
	r->stage = st;
	r->sender = sender;
	r->peer = peer;
	r->counter = counter;
	r->count = count;
	r->unit = st == LR_LS_WIRE ? "packets" : "skbs";
	r->known = st == LR_LS_WIRE ? count != INT64_MIN : count >= 0;
	if (!r->known) {
		r->count = -1;
		return;
	}
	/* a kernel counter counts skbs; without a measured ratio one skb is read as one
	 * datagram, and said to be a conversion */
	r->approx = per_skb < 0 || fabs(per_skb - 1.0) > 0.01;
	/* within 1 % of one datagram an skb is one (--no-gso): the count itself, not the
	 * measurement's noise applied to it under approx=0 (8215 skbs once read 8225) */
	r->datagrams = (double)count * (r->approx && per_skb > 0 ? per_skb : 1.0);
}

/* The receiver's NIC: the stats64 FIFO family, or the driver's own counters when they say
 * more (both often count the same packets: the larger, not the sum). */
static int64_t nic_rx(const struct lr_ledger_end *e, const char **name)
{
	int64_t k = sum_known(sum_known(e->rx_missed, e->rx_fifo), e->rx_over);
	int64_t d = sum_known(e->nic_fifo, e->nic_drop);

	*name = e->rx_missed > 0 ? "rx_missed_errors"
		: e->rx_fifo > 0 ? "rx_fifo_errors"
		: e->rx_over > 0 ? "rx_over_errors"
				 : "rx_missed/fifo/over";
	if (d > k) {
		*name = "driver rx drop/fifo counters";
		return d;
	}
	return k;
}

/* The drop witnesses first..last an end read, summed (each counts skbs it dropped itself) and
 * named by the one that counted most; group when none moved; -1 when it read none. */
static int64_t drops(const struct lr_ledger_end *e, enum lr_stack_drop first,
		     enum lr_stack_drop last, const char *group, const char **name)
{
	int64_t sum = -1, most = 0;

	*name = group;
	for (unsigned d = first; d <= last; d++) {
		int64_t v = e->stack_drop[d];

		if (v < 0)
			continue;
		sum = sum_known(sum, v);
		if (v > most) {
			most = v;
			*name = lr_stack_drop_name(d);
		}
	}
	return sum;
}

/* UDP's receive drops: InErrors (which counts every RcvbufError and InCsumError too) and
 * NoPorts (a datagram to a port nothing listens on), named by the one that explains most. */
static int64_t udp_transport(const struct lr_ledger_end *e, const char **name)
{
	int64_t rcvbuf = e->udp_rcvbuf > 0 ? e->udp_rcvbuf : 0;
	int64_t csum = e->stack_drop[LR_SD_UDP_IN_CSUM_ERRORS];
	int64_t noports = e->stack_drop[LR_SD_UDP_NO_PORTS];
	int64_t errs = e->udp_in_errors >= 0 ? e->udp_in_errors : e->udp_rcvbuf;
	int64_t other = errs - rcvbuf - (csum > 0 ? csum : 0), most = rcvbuf;

	*name = "UDP RcvbufErrors";	/* an unknown stage still names its counter */
	if (errs < 0 && noports < 0)
		return -1;
	*name = "UDP RcvbufErrors";
	if (csum > most) {
		most = csum;
		*name = "UDP InCsumErrors";
	}
	if (other > most) {	/* mostly not a full buffer */
		most = other;
		*name = "UDP InErrors";
	}
	if (noports > most)
		*name = "UDP NoPorts";
	return sum_known(errs, noports);
}

static double ratio(int64_t datagrams, int64_t skbs)
{
	return datagrams > 0 && skbs > 0 ? (double)datagrams / (double)skbs : -1;
}

/* The ratio of datagrams (segments) to skbs on the sending interface: what the engine sent
 * went out as tx packets or died before as the sender's stages, all of them skbs. */
static double sender_ratio(const struct lr_ledger_input *in, int64_t before_skbs)
{
	if (in->snd.if_tx_packets < 0)
		return -1;
	return ratio(in->sent, in->snd.if_tx_packets + (before_skbs > 0 ? before_skbs : 0));
}

/* Sent by one interface, never received by the other: only where they face each other, read by
 * both ends (so the peer's), unknown where an end's count is unknown or the two ends' spans
 * differ. Within the noise floor it is other traffic: the packets as read, not converted. */
static void wire_row(const struct lr_ledger_input *in, struct lr_ledger *l)
{
	const struct lr_ledger_end *s = &in->snd, *r = &in->rcv;
	bool known = !in->wire_unaligned && s->if_tx_packets >= 0 && r->if_rx_packets >= 0;
	int64_t diff = known ? s->if_tx_packets - r->if_rx_packets : INT64_MIN;
	double floor = LR_LEDGER_WIRE_NOISE_PKTS +
		       LR_LEDGER_WIRE_NOISE_SHARE * (double)(known ? s->if_tx_packets : 0);
	struct lr_ledger_row *w;

	snprintf(l->wire_counter, sizeof(l->wire_counter), "sender tx - receiver rx packets");
	add_row(l, LR_LS_WIRE, true, true, l->wire_counter, diff, l->snd_per_skb);
	w = &l->rows[l->n_rows - 1];
	if (!known || w->stage != LR_LS_WIRE || llabs(diff) > (int64_t)floor)
		return;
	w->noise = true;
	w->datagrams = (double)diff;
	w->approx = false;
	snprintf(l->wire_counter, sizeof(l->wire_counter),
		 "tx - rx, within noise (%.0f)", floor);	/* the text prints 32 */
}

static void build_rows(const struct lr_ledger_input *in, struct lr_ledger *l)
{
	const struct lr_ledger_end *s = &in->snd, *r = &in->rcv;
	bool sp = !in->sender_local, rp = in->sender_local;	/* which end is the peer's */
	int64_t sndbuf = in->udp ? s->udp_sndbuf : -1;
	/* UDP counts every datagram its qdisc dropped (NET_XMIT_DROP) as a SndbufError too: the
	 * socket's own refusals are what is left */
	if (sndbuf > 0 && s->qdisc_drops > 0)
		sndbuf = sndbuf > s->qdisc_drops ? sndbuf - s->qdisc_drops : 0;
	int64_t drv = sum_known(s->tx_dropped, s->tx_errors), nic, ip, t;
	double gone = 0;
	const char *name = "";
	int64_t arrived;

	l->snd_per_skb = sender_ratio(in, sum_known(sum_known(sndbuf, s->qdisc_drops), drv));
	if (in->udp)
		add_row(l, LR_LS_SOCKET, true, sp, "UDP SndbufErrors, not qdisc", sndbuf,
			l->snd_per_skb);
	snprintf(l->snd_qdisc, sizeof(l->snd_qdisc), "%s", s->qdisc[0] ? s->qdisc : "qdisc drops");
	add_row(l, LR_LS_QDISC, true, sp, l->snd_qdisc, s->qdisc_drops, l->snd_per_skb);
	add_row(l, LR_LS_DRIVER_TX, true, sp, "tx_dropped + tx_errors", drv, l->snd_per_skb);
	if (in->one_link)
		wire_row(in, l);
	for (unsigned i = 0; i < l->n_rows; i++)
		if (l->rows[i].known && l->rows[i].datagrams > 0 && !l->rows[i].noise)
			gone += l->rows[i].datagrams;
	/* what reached the receiving interface, over the skbs it took in or its NIC missed */
	nic = nic_rx(r, &name);
	arrived = in->sent >= 0 ? in->sent - (int64_t)llround(gone) : -1;
	l->rcv_per_skb = r->if_rx_packets < 0 ? -1
			 : ratio(arrived, r->if_rx_packets + (nic > 0 ? nic : 0));
	add_row(l, LR_LS_NIC_RX, false, rp, name, nic, l->rcv_per_skb);
	add_row(l, LR_LS_BACKLOG, false, rp, "softnet dropped", r->softnet_dropped,
		l->rcv_per_skb);
	ip = drops(r, LR_SD_IP_IN_DISCARDS, LR_SD_IP_REASM_FAILS,
		   "Ip InDiscards..ReasmFails", &name);
	add_row(l, LR_LS_IP, false, rp, name, ip, l->rcv_per_skb);
	if (in->udp)
		t = udp_transport(r, &name);
	else
		t = drops(r, LR_SD_TCP_BACKLOG_DROP, LR_SD_TCP_OFO_DROP,
			  "TcpExt TCPBacklogDrop..OFODrop", &name);
	add_row(l, LR_LS_TRANSPORT, false, rp, name, t, l->rcv_per_skb);
}

/* "qdisc (sender), transport (receiver)": the stages no counter could be read for. */
static void unread(const struct lr_ledger *l, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < l->n_rows && n < len; i++)
		if (!l->rows[i].known)
			n += (size_t)snprintf(buf + n, len - n, "%s%s (%s)", n ? ", " : "",
					      lr_ledger_stage_name(l->rows[i].stage),
					      l->rows[i].sender ? "sender" : "receiver");
}

static bool stages_read(const struct lr_ledger *l)
{
	for (unsigned i = 0; i < l->n_rows; i++)
		if (!l->rows[i].known && l->rows[i].stage != LR_LS_WIRE)
			return false;
	return true;
}

static void fmt_count(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.0f", v);
}

/* What to do about the stage that lost the packets, after its numbers. */
static void advice(const struct lr_ledger *l, const struct lr_ledger_input *in,
		   const struct lr_ledger_row *r, char *buf, size_t len)
{
	const struct lr_ledger_end *e = r->sender ? &in->snd : &in->rcv;

	switch (r->stage) {
	case LR_LS_SOCKET:
		snprintf(buf, len, "the sending socket's buffer was full: raise -w or net.core.wmem_max");
		break;
	case LR_LS_QDISC:
		snprintf(buf, len, "the egress qdisc shapes or limits this traffic (tc -s qdisc show dev %s)",
			 e->iface[0] ? e->iface : "IFACE");
		break;
	case LR_LS_DRIVER_TX:
		snprintf(buf, len, "the sender's driver dropped on transmit (ethtool -S %s)",
			 e->iface[0] ? e->iface : "IFACE");
		break;
	case LR_LS_WIRE:
		snprintf(buf, len, "sent but never received: the cable, optics or a switch between "
			 "%s and %s (ethtool -S both ends: CRC, symbol errors; the switch port's "
			 "counters)", in->snd.iface[0] ? in->snd.iface : "IFACE",
			 in->rcv.iface[0] ? in->rcv.iface : "IFACE");
		break;
	case LR_LS_NIC_RX:
		snprintf(buf, len, "the receiver's NIC ran out of rx descriptors: a bigger ring "
			 "(ethtool -G %s rx N) or more queues", e->iface[0] ? e->iface : "IFACE");
		break;
	case LR_LS_BACKLOG:
		snprintf(buf, len, "the receiver's softirq backlog was full: raise "
			 "net.core.netdev_max_backlog or spread the load (RPS)");
		break;
	case LR_LS_IP:
		snprintf(buf, len, "the receiver's IP layer dropped them (%s): %s", r->counter,
			 strstr(r->counter, "InAddrErrors") ? "addressed to an address it does not "
			 "have; check the route and the destination"
			 : strstr(r->counter, "ReasmFails") ? "fragments never reassembled; keep -l "
			 "under the path MTU"
			 : strstr(r->counter, "InHdrErrors") ? "bad IP headers or TTL expired on the "
			 "way" : "no memory or a rule before routing (nstat -az 'Ip*')");
		break;
	case LR_LS_TRANSPORT:
		if (!in->udp)
			snprintf(buf, len, "the receiving TCP socket dropped segments it had no room "
				 "for (%s): raise -w and net.ipv4.tcp_rmem", r->counter);
		else if (!strcmp(r->counter, "UDP NoPorts"))
			snprintf(buf, len, "datagrams reached a port nothing listened on: the "
				 "receiving socket was not open yet or had closed");
		else if (!strcmp(r->counter, "UDP InCsumErrors"))
			snprintf(buf, len, "datagrams arrived corrupted: the NIC, the cable or the "
				 "path (ethtool -S %s)", e->iface[0] ? e->iface : "IFACE");
		else if (e->window_bytes)
			snprintf(buf, len, "the receiving socket's buffer, sized by -w %llu, was full: "
				 "raise -w and net.core.rmem_max",
				 (unsigned long long)e->window_bytes);
		else
			snprintf(buf, len, "the receiving socket's buffer was full: raise -w and "
				 "net.core.rmem_max");
		break;
	default:
		buf[0] = '\0';
	}
	(void)l;
}

/* The wire's loss is neither end's: the link between both interfaces of both hosts. */
static void wire_conclusion(const struct lr_ledger_input *in, struct lr_ledger *l,
			    const struct lr_ledger_row *w, const char *lost)
{
	snprintf(l->conclusion, sizeof(l->conclusion),
		 "%.0f of %s lost %s on the wire between the sender %s %s and the receiver %s %s: "
		 "%s %lld %s%s (%.0f %%)", w->datagrams, lost, l->unit,
		 l->snd_host[0] ? l->snd_host : "?", in->snd.iface[0] ? in->snd.iface : "?",
		 l->rcv_host[0] ? l->rcv_host : "?", in->rcv.iface[0] ? in->rcv.iface : "?",
		 w->counter, (long long)w->count, w->unit, w->approx ? " (converted)" : "",
		 100.0 * w->datagrams / (double)l->lost);
}

/* UDP: big, counted in skbs and converted at a measured ratio of more than one datagram a
 * skb, is the only stage that saw a drop, every stage was read, and its skbs can hold the whole
 * loss (LR_LEDGER_SEGS_PER_SKB_MAX). TCP's loss is retransmits, which overcount already: its
 * share (LR_LEDGER_TCP_CAUSE_SHARE) stays the rule. */
static bool sole_holder(const struct lr_ledger *l, const struct lr_ledger_row *big)
{
	if (!l->udp || !big->approx || big->count <= 0 || big->datagrams <= (double)big->count ||
	    !stages_read(l))
		return false;
	for (unsigned i = 0; i < l->n_rows; i++) {
		const struct lr_ledger_row *r = &l->rows[i];

		if (r != big && r->known && !r->noise && r->datagrams > 0)
			return false;
	}
	return (double)big->count * LR_LEDGER_SEGS_PER_SKB_MAX >= (double)l->lost;
}

static void conclude(const struct lr_ledger_input *in, struct lr_ledger *l)
{
	const struct lr_ledger_row *big = NULL;
	char lost[32], dg[32], act[200], notread[160];
	double share;

	for (unsigned i = 0; i < l->n_rows; i++) {
		const struct lr_ledger_row *r = &l->rows[i];

		if (r->known && !r->noise && r->datagrams > 0 &&
		    (!big || r->datagrams > big->datagrams))
			big = r;
	}
	if (l->lost < 0) {
		snprintf(l->conclusion, sizeof(l->conclusion),
			 "loss unknown: the receiver's count did not arrive");
		return;
	}
	fmt_count(lost, sizeof(lost), (double)l->lost);
	if (l->lost == 0 && l->spurious > 0) {
		l->reordered = true;
		snprintf(l->conclusion, sizeof(l->conclusion),
			 "no loss: %s spurious, the receiver already had %s (TcpExt "
			 "TCPDSACKRecvSegs on %s): packets were reordered or a timer fired early",
			 l->spurious == 1 ? "the 1 retransmitted segment was" : "every retransmit was",
			 l->spurious == 1 ? "it" : "them", l->snd_host[0] ? l->snd_host : "the sender");
		return;
	}
	if (l->lost == 0) {
		snprintf(l->conclusion, sizeof(l->conclusion), "%s",
			 l->udp ? "no loss: every datagram arrived"
				: "no loss: no segment was retransmitted");
		return;
	}
	share = l->udp ? LR_LEDGER_CAUSE_SHARE : LR_LEDGER_TCP_CAUSE_SHARE;
	if (big && (big->datagrams >= share * (double)l->lost || sole_holder(l, big))) {
		const char *host = big->sender ? l->snd_host : l->rcv_host;
		const struct lr_ledger_end *e = big->sender ? &in->snd : &in->rcv;
		char held[96] = "";

		l->largest = big;
		fmt_count(dg, sizeof(dg), big->datagrams);
		advice(l, in, big, act, sizeof(act));
		if (big->datagrams < share * (double)l->lost)	/* named by sole_holder */
			snprintf(held, sizeof(held), "; the only stage that saw a drop, its %lld %s "
				 "can hold all %s", (long long)big->count, big->unit, lost);
		if (big->stage == LR_LS_WIRE)
			wire_conclusion(in, l, big, lost);
		else
			snprintf(l->conclusion, sizeof(l->conclusion),
				 "%s of %s lost %s at the %s's %s: %s on %s%s%s %lld %s%s (%.0f %%)%s",
				 dg, lost, l->unit, big->sender ? "sender" : "receiver",
				 lr_ledger_stage_name(big->stage), big->counter,
				 host[0] ? host : "?", e->iface[0] ? " " : "", e->iface,
				 (long long)big->count, big->unit, big->approx ? " (converted)" : "",
				 100.0 * big->datagrams / (double)l->lost, held);
		snprintf(l->advice, sizeof(l->advice), "%s", act);
		return;
	}
	/* D-SACK is not guaranteed (one block per ACK, none once the connection closes): when
	 * nearly every retransmit was spurious and no counter saw a drop, the few left without
	 * one are the same reordering, not loss a firewall made (87 retransmits on lo, 83
	 * D-SACKed, nothing dropped anywhere) */
	unread(l, notread, sizeof(notread));
	/* every drop counter read (the wire is a difference, unknown live: not one of them) */
	if (!big && stages_read(l) && !l->far_unknown && l->spurious > 0 &&
	    (double)l->spurious >= LR_LEDGER_SPURIOUS_SHARE * (double)l->retransmitted &&
	    (in->tcp_segments <= 0 ||
	     (double)l->lost <= LR_LEDGER_TCP_LOSS_MATTERS * (double)in->tcp_segments)) {
		l->reordered = true;
		snprintf(l->conclusion, sizeof(l->conclusion),
			 "reordered, not lost: %lld of the %lld retransmitted segments were "
			 "spurious (TcpExt TCPDSACKRecvSegs on %s) and no counter on either end "
			 "saw a drop; the other %s had no D-SACK", (long long)l->spurious,
			 (long long)l->retransmitted, l->snd_host[0] ? l->snd_host : "the sender",
			 lost);
		return;
	}
	if (l->far_unknown) {
		snprintf(l->advice, sizeof(l->advice), "read the %s's counters (linerate -s shares "
			 "them)", in->sender_local ? "receiver" : "sender");
		snprintf(l->conclusion, sizeof(l->conclusion),
			 "%s %s lost; this host's counters account for %.0f; the %s's are unknown "
			 "(a plain iperf3 shares none)", lost, l->unit,
			 (double)l->lost - l->unaccounted, in->sender_local ? "receiver" : "sender");
		return;
	}
	if (notread[0])	/* a stage not read may hold it: say so, claim nothing more */
		snprintf(l->conclusion, sizeof(l->conclusion),
			 "unaccounted: the counters read saw none of the %s lost %s (%.0f "
			 "unaccounted); not read: %s. A filter (nftables, iptables), a policer, "
			 "the path, or a stage not read", lost, l->unit, l->unaccounted, notread);
	else
		snprintf(l->conclusion, sizeof(l->conclusion),
			 "unaccounted: no counter on either end saw the %s lost %s (%.0f "
			 "unaccounted): a filter (nftables, iptables), a policer or the path beyond "
			 "the link dropped them", lost, l->unit, l->unaccounted);
	snprintf(l->advice, sizeof(l->advice), "check the firewall on both ends (nft list "
		 "ruleset) and any policer on the path");
}

void lr_ledger_build(const struct lr_ledger_input *in, struct lr_ledger *out)
{
	double known = 0;

	memset(out, 0, sizeof(*out));
	out->udp = in->udp;
	out->dir = in->dir;
	out->bidir = in->bidir;
	out->unit = in->udp ? "datagrams" : "segments";
	out->sent = in->sent;
	out->lost = in->lost;
	out->retransmitted = out->spurious = -1;
	if (!in->udp && in->lost >= 0) {
		int64_t dup = in->snd.stack_drop[LR_SD_TCP_DSACK_RECV_SEGS];

		/* a D-SACK names a segment that arrived twice: the retransmit was not needed.
		 * Host-wide, so never more than this test retransmitted */
		out->retransmitted = in->lost;
		if (dup >= 0) {
			out->spurious = dup < in->lost ? dup : in->lost;
			out->lost = in->lost - out->spurious;
		}
	}
	out->received = in->sent >= 0 && in->lost >= 0 && in->udp ? in->sent - in->lost : -1;
	snprintf(out->snd_host, sizeof(out->snd_host), "%s", in->snd.host);
	snprintf(out->rcv_host, sizeof(out->rcv_host), "%s", in->rcv.host);
	build_rows(in, out);
	for (unsigned i = 0; i < out->n_rows; i++)
		if (out->rows[i].known)
			known += out->rows[i].datagrams;
	/* the peer shared nothing (a plain iperf3): an end without a host name */
	out->far_unknown = !(in->sender_local ? in->rcv.host : in->snd.host)[0];
	out->unaccounted_known = out->lost >= 0;
	out->unaccounted = out->lost >= 0 ? (double)out->lost - known : 0;
	conclude(in, out);
	if (in->bidir) {	/* one of two ledgers: the conclusion names its direction */
		char c[sizeof(out->conclusion) + 32];

		snprintf(c, sizeof(c), "%s (%s): %s", lr_ledger_dir_name(in->dir),
			 in->dir == LR_LDIR_DOWN ? "server -> client" : "client -> server",
			 out->conclusion);
		lr_strlcpy(out->conclusion, c, sizeof(out->conclusion));
	}
}
