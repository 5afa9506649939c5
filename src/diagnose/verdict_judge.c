// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Judging a test from the verdict's books: its rate against the link (only when the link's
 * speed is a real line rate, decided from what the interface is), every witness of loss and
 * the place the evidence points at, and the one next step the counters support within the
 * test's own limits — the lessons of the test reports linerate was built from (rx ring size,
 * IRQ/RPS spread, socket buffers, softnet backlog, jumbo frames, more streams). [main]
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"
#include "linerate/diagnose/verdict.h"
#include "verdict_priv.h"

/* A link that carried more than this share of its speed cannot be a real line: a kind we do
 * not know of yet. A guard only; the kind and driver decide. */
#define CONTRADICTED_PCT 105.0

static uint64_t tot(const struct lr_verdict_iface *v, enum lr_metric m)
{
	return v->valid & LR_M_BIT(m) ? v->total[m] : 0;
}

static void add_loss(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add_loss(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 2 >= len)
		return;
	if (used) {
		snprintf(buf + used, len - used, ", ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static void si(char *buf, size_t len, uint64_t n)
{
	lr_fmt_si(buf, len, (double)n);
}

/* Every witness that saw loss, the receiver's own count first. */
static void list_witnesses(const struct lr_verdict_iface *f, struct lr_verdict *v)
{
	char n[32];

	if (v->udp_lost > 0 && v->udp_packets > 0)
		add_loss(v->loss, sizeof(v->loss),
			 "UDP %lld of %lld datagrams (%.2f%%, the receiver's count)",
			 (long long)v->udp_lost, (long long)v->udp_packets,
			 100.0 * (double)v->udp_lost / (double)v->udp_packets);
	if (v->retransmits > 0)
		add_loss(v->loss, sizeof(v->loss),
			 "TCP %lld segments retransmitted (the senders' count)",
			 (long long)v->retransmits);
	if (v->nic_fifo) {
		si(n, sizeof(n), v->nic_fifo);
		add_loss(v->loss, sizeof(v->loss), "NIC FIFO %s (%s)", n,
			 f->top_drv[0][0] ? f->top_drv[0] : "rx_missed/fifo/over");
	}
	if (v->nic_drop) {
		si(n, sizeof(n), v->nic_drop);
		add_loss(v->loss, sizeof(v->loss), "driver %s (ethtool drop counters)", n);
	}
	if (v->stack_drop) {
		si(n, sizeof(n), v->stack_drop);
		add_loss(v->loss, sizeof(v->loss), "stack %s (%s rx/tx_dropped)", n, f->name);
	}
	if (v->softnet_drop) {
		si(n, sizeof(n), v->softnet_drop);
		add_loss(v->loss, sizeof(v->loss), "softnet %s (backlog full)", n);
	}
	if (v->udp_rcvbuf) {
		si(n, sizeof(n), v->udp_rcvbuf);
		add_loss(v->loss, sizeof(v->loss), "socket %s (UDP RcvbufErrors)", n);
	}
	if (v->udp_in_errors > v->udp_rcvbuf) { /* InErrors counts RcvbufErrors too */
		si(n, sizeof(n), v->udp_in_errors - v->udp_rcvbuf);
		add_loss(v->loss, sizeof(v->loss), "UDP InErrors %s more", n);
	}
	if (v->errors) {
		si(n, sizeof(n), v->errors);
		add_loss(v->loss, sizeof(v->loss), "errors %s (%s rx/tx_errors)", n, f->name);
	}
}

/* The one place the evidence points at: the first counter on this host that moved, in the
 * order a packet meets them on the way in; else what the test's own counts leave. */
static void name_place(const struct lr_verdict_iface *f, const struct lr_verdict_acc *a,
		       struct lr_verdict *v)
{
	char *w = v->loss_where;
	size_t len = sizeof(v->loss_where);

	if (v->nic_fifo)
		snprintf(w, len, "in %s's NIC on this host: its rx FIFO/ring overflowed", f->name);
	else if (v->nic_drop)
		snprintf(w, len, "in %s's driver on this host (%s)", f->name,
			 f->top_drv[0][0] ? f->top_drv[0] : "ethtool -S");
	else if (v->errors)
		snprintf(w, len, "on %s's link (frame errors)", f->name);
	else if (v->softnet_drop)
		snprintf(w, len,
			 "in this host's softnet backlog (cpu%d first): packets came faster "
			 "than NET_RX took them",
			 a->softnet_cpu);
	else if (v->stack_drop)
		snprintf(w, len, "in this host's stack at %s (rx/tx_dropped)", f->name);
	else if (v->udp_rcvbuf)
		snprintf(w, len, "at this host's UDP sockets: the receive buffer was full");
	else if (v->udp_lost > 0 && v->receiver_local)
		snprintf(w, len,
			 "before this host's sockets, where no counter here saw it "
			 "(a firewall rule, or the path)");
	else if (v->udp_lost > 0)
		snprintf(w, len,
			 "at the receiver or on the path: this host's counters saw none "
			 "(the receiver's own UDP RcvbufErrors and NIC counters say which)");
	else if (v->retransmits > 0 && !strcmp(f->name, "lo"))
		snprintf(w, len,
			 "inside this host (loopback), where no NIC, driver or stack counter "
			 "saw a drop");
	else if (v->retransmits > 0)
		snprintf(w, len,
			 "on the path or at the receiver: this host's NIC, driver and stack "
			 "counters saw none");
}

/* Retransmits that can cost rate: at least 0.1 % of the bytes the test moved (one segment
 * each, an MSS of the MTU's size; the ledger's rule for what D-SACK left unexplained too). A
 * few are tail-loss probes and spurious timeouts. */
static bool retrans_matter(const struct lr_verdict_traffic *t, const struct lr_verdict *v)
{
	double mss = v->iface->mtu > 52 ? (double)v->iface->mtu - 52 : 1448;
	double bytes = fmax(t->up_bps, t->down_bps) * v->seconds / 8;

	if (t->udp || v->retransmits <= 0)
		return false;
	return bytes <= 0 || (double)v->retransmits * mss >= LR_LEDGER_TCP_LOSS_MATTERS * bytes;
}

/* The senders reached their own -b: the test, not the link, set the rate (what the receiver
 * got may be less: that is loss, judged on its own). */
static bool capped(const struct lr_verdict_traffic *t)
{
	double cap, got;

	if (!t->ran || !t->bitrate_bps)
		return false;
	cap = (double)t->bitrate_bps * (t->parallel ? t->parallel : 1);
	got = fmax(fmax(t->sent_up_bps, t->sent_down_bps), fmax(t->up_bps, t->down_bps));
	return got >= 0.9 * cap;
}

static void next_step(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
		      struct lr_verdict *v)
{
	const struct lr_verdict_iface *f = v->iface;
	bool hot = v->hot_saturated;
	char c1[32], c2[32], win[96];
	char *s = v->next_step;
	size_t len = sizeof(v->next_step);
	/* what the last rules can say of the witnesses: loss listed above was too little. The
	 * rules here read softirq only; the cycles' ledger after the verdict reads every CPU
	 * time, so "saturated" says which (a CPU busy in sys or usr is the cycles' to name) */
	const char *clean = v->loss[0] ? "the loss above is too little to cap the rate, and no "
					 "CPU ran saturated in softirq"
				       : "no loss in the counters, no CPU saturated in softirq";

	/* the socket buffer is the test's own when it set -w (iperf3 sets it on both ends) */
	if (t->window_bytes) {
		snprintf(win, sizeof(win), "this test's -w %llu bytes sized the buffer: raise -w",
			 (unsigned long long)t->window_bytes);
	} else {
		snprintf(win, sizeof(win), "raise the socket buffer (-w)");
	}

	if (v->nic_fifo && f->ring_rx > 0 && f->ring_rx_max > f->ring_rx) {
		snprintf(s, len,
			 "the NIC FIFO overflowed with the rx ring at %lld of %lld: "
			 "ethtool -G %s rx %lld",
			 (long long)f->ring_rx, (long long)f->ring_rx_max, f->name,
			 (long long)f->ring_rx_max);
	} else if (v->nic_fifo && hot) {
		snprintf(s, len,
			 "the NIC FIFO overflowed while cpu%d ran %.0f%% softirq: spread the "
			 "rx queues' IRQs over more CPUs (IRQ affinity, irqbalance) or enable RPS",
			 v->hot_cpu, v->hot_pct);
	} else if (v->nic_fifo) {
		snprintf(s, len,
			 "the NIC FIFO overflowed: the host did not drain the rx ring in "
			 "time; check the ring (ethtool -g %s) and the IRQ spread",
			 f->name);
	} else if (v->nic_drop) {
		snprintf(s, len,
			 "the driver dropped packets (%s): read ethtool -S %s and the rings "
			 "(ethtool -g %s)",
			 f->top_drv[0][0] ? f->top_drv[0] : "drop counters", f->name, f->name);
	} else if (v->udp_rcvbuf) {
		snprintf(s, len,
			 "UDP socket buffers overflowed %llu times: %s (net.core.rmem_max is "
			 "%lld)",
			 (unsigned long long)v->udp_rcvbuf, win, (long long)a->rmem_max);
	} else if (v->softnet_drop) {
		snprintf(s, len,
			 "the softnet backlog overflowed %llu times: raise "
			 "net.core.netdev_max_backlog (now %lld) or spread the load (RPS)",
			 (unsigned long long)v->softnet_drop, (long long)a->netdev_max_backlog);
	} else if (v->udp_lost > 0 && !v->receiver_local) {
		snprintf(s, len,
			 "the receiver counted %lld datagrams lost and this host's counters "
			 "saw none: read the receiver's counters (linerate -s shows them); if its "
			 "UDP RcvbufErrors rose, %s and its net.core.rmem_max",
			 (long long)v->udp_lost, win);
	} else if (v->udp_lost > 0) {
		snprintf(s, len,
			 "%lld datagrams never reached this host's sockets and no counter "
			 "here saw them: check the firewall (nft list ruleset) and the sender's "
			 "counters",
			 (long long)v->udp_lost);
	} else if (hot && lr_verdict_numa_step(a, t, v, s, len)) { /* NOLINT(bugprone-branch-clone) */
		/* the hot CPU is on another node than the NIC: written by verdict_numa.c */
	} else if (hot && f->others_idle) {
		snprintf(s, len,
			 "cpu%d ran %.0f%% softirq while other CPUs idled: one queue on one "
			 "CPU caps the rate; spread IRQs/RPS%s",
			 v->hot_cpu, v->hot_pct,
			 t->ran && t->parallel == 1 && !v->capped
				 ? ", or use more streams (-P 4) so RSS spreads them"
				 : "");
	} else if (v->ceiling_pct >= 95 && f->mtu > 0 && f->mtu <= 1500 && f->speed_mbps >= 10000) {
		lr_verdict_fmt_bps(c1, sizeof(c1), v->ceiling_bps);
		lr_verdict_fmt_bps(c2, sizeof(c2),
				   (double)f->speed_mbps * 1e6 * (9000.0 - 52) / (9000 + 38));
		snprintf(s, len,
			 "at the goodput ceiling of MTU %lld (%s): jumbo frames (MTU 9000 "
			 "end to end) raise it to %s",
			 (long long)f->mtu, c1, c2);
	} else if (v->ceiling_pct >= 95) {
		snprintf(s, len,
			 "line rate reached (%.1f%% of the goodput ceiling): nothing to fix",
			 v->ceiling_pct);
	} else if (lr_verdict_numa_streams_step(a, t, v, s, len)) {
		/* the streams ran off the NIC's node while it idled: verdict_numa.c */
	} else if (retrans_matter(t, v) && !strcmp(f->name, "lo")) {
		v->step_retrans = true;
		snprintf(s, len,
			 "TCP retransmitted %lld segments on loopback, where no counter saw a "
			 "drop: a firewall rule, or a receiver too slow for its buffer (its CPU)",
			 (long long)v->retransmits);
	} else if (retrans_matter(t, v)) {
		v->step_retrans = true;
		snprintf(
			s, len,
			"TCP retransmitted %lld segments and this host's counters saw no "
			"drop: loss on the path or at the receiver; check the peer's counters, any "
			"firewall, and the MTU on both ends",
			(long long)v->retransmits);
	} else if (v->capped) {
		lr_verdict_fmt_bps(c1, sizeof(c1), (double)t->bitrate_bps);
		snprintf(s, len,
			 "the test reached its own limit (-b %s per stream x %u): the link "
			 "was not pushed; raise -b%s to find its limit",
			 c1, t->parallel ? t->parallel : 1, t->udp ? "" : " (0 = unlimited)");
	} else if (a->tcp_window_scaling == 0 && t->ran && !t->udp) {
		snprintf(s, len,
			 "TCP window scaling is off, which caps a stream's window at 64 KiB: "
			 "sysctl -w net.ipv4.tcp_window_scaling=1");
	} else if (t->ran && !t->udp && t->parallel == 1 && v->ceiling_pct >= 0 &&
		   v->ceiling_pct < 90) {
		snprintf(s, len, "one TCP stream, %s: try more streams (-P 4)", clean);
	} else if (v->speed_nominal) {
		snprintf(s, len,
			 "%s is a %s: its %lld Mbit/s is nominal, so no line-rate verdict; %s",
			 f->name, v->nominal_why, (long long)f->speed_mbps, clean);
	} else if (v->ceiling_pct < 0) {
		snprintf(s, len, "%s has no link speed%s: no line-rate verdict; %s", f->name,
			 v->nominal_why[0] ? "" : " (virtual interface)", clean);
	} else {
		snprintf(s, len, "no bottleneck visible in the counters (%s)", clean);
	}
}

static void judge_link(const struct lr_verdict_traffic *t, struct lr_verdict *v)
{
	const struct lr_verdict_iface *f = v->iface;
	const char *why = lr_ifrate_nominal_why(f->name, f->kind, f->driver);
	double wire_rx, wire_tx, speed = (double)f->speed_mbps * 1e6, goodput;

	if (why)
		lr_strlcpy(v->nominal_why, why, sizeof(v->nominal_why));
	if (f->speed_mbps <= 0)
		return;
	wire_rx = (double)(tot(f, LR_M_RX_BYTES) + 24 * tot(f, LR_M_RX_PACKETS)) * 8 / v->seconds;
	wire_tx = (double)(tot(f, LR_M_TX_BYTES) + 24 * tot(f, LR_M_TX_PACKETS)) * 8 / v->seconds;
	v->line_pct = fmax(wire_rx, wire_tx) / speed * 100;
	if (!why && v->line_pct > CONTRADICTED_PCT) {
		why = "link that carried more than its speed";
		lr_strlcpy(v->nominal_why, why, sizeof(v->nominal_why));
	}
	v->speed_nominal = why != NULL;
	if (v->speed_nominal) { /* carries whatever the CPUs move: no line, no ceiling */
		v->line_pct = -1;
		return;
	}
	v->ceiling_bps = lr_ifrate_ceiling_bps(f->speed_mbps, f->mtu, t->ran && t->udp);
	if (v->ceiling_bps > 0) {
		goodput = t->ran ? fmax(t->up_bps, t->down_bps) : fmax(v->rx_bps, v->tx_bps);
		v->ceiling_pct = goodput / v->ceiling_bps * 100;
	}
}

void lr_verdict_compute(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			struct lr_verdict *v)
{
	const struct lr_verdict_iface *f = lr_verdict_pick(a);
	uint64_t fifo_stats, win_end;

	memset(v, 0, sizeof(*v));
	v->hot_cpu = -1;
	v->line_pct = v->ceiling_bps = v->ceiling_pct = -1;
	v->udp_lost = v->udp_packets = v->retransmits = -1;
	v->iface = f;
	if (!f || !a->ticks) {
		snprintf(v->next_step, sizeof(v->next_step), "nothing was sampled");
		return;
	}
	v->sampled_seconds = (double)(a->last_ns - a->first_ns) / 1e9;
	v->seconds = v->sampled_seconds;
	if (a->win_start_ns) { /* the test's own seconds: its streams' first start .. last end */
		win_end = a->win_end_ns && a->win_end_ns < a->last_ns ? a->win_end_ns : a->last_ns;
		if (win_end > a->win_start_ns) {
			v->seconds = (double)(win_end - a->win_start_ns) / 1e9;
			v->test_window = true;
		}
	}
	if (v->seconds <= 0)
		v->seconds = 1e-9;
	v->rx_bps = (double)tot(f, LR_M_RX_BYTES) * 8 / v->seconds;
	v->tx_bps = (double)tot(f, LR_M_TX_BYTES) * 8 / v->seconds;
	v->capped = capped(t);
	v->receiver_local = t->ran && (t->reverse || t->bidir || !strcmp(f->name, "lo"));
	if (a->cpu_blocks) {
		v->hot_pct = f->hot_pct;
		v->hot_cpu = f->hot_cpu;
		v->hot_saturated = f->hot_blocks && f->hot_blocks * 4 >= a->cpu_blocks;
	} else { /* shorter than one block: the busiest tick is all there is */
		v->hot_pct = f->tick_hot_pct;
		v->hot_cpu = f->tick_hot_cpu;
		v->hot_saturated = f->tick_hot_cpu >= 0 && f->tick_hot_pct >= LR_VERDICT_HOT_PCT;
	}
	judge_link(t, v);
	/* stats64 and the driver's own counters often report the same event: take the larger */
	fifo_stats = tot(f, LR_M_RX_MISSED_ERRORS) + tot(f, LR_M_RX_FIFO_ERRORS) +
		     tot(f, LR_M_RX_OVER_ERRORS);
	v->nic_fifo = fifo_stats > tot(f, LR_M_NIC_FIFO) ? fifo_stats : tot(f, LR_M_NIC_FIFO);
	v->nic_drop = tot(f, LR_M_NIC_DROP);
	v->stack_drop = tot(f, LR_M_RX_DROPPED) + tot(f, LR_M_TX_DROPPED);
	v->errors = tot(f, LR_M_RX_ERRORS) + tot(f, LR_M_TX_ERRORS);
	v->udp_rcvbuf = a->udp_rcvbuf;
	v->udp_in_errors = a->udp_in_errors;
	v->softnet_drop = (uint64_t)(a->softnet_drops + 0.5);
	if (t->ran && t->udp) {
		v->udp_lost = t->udp_lost;
		v->udp_packets = t->udp_packets;
	}
	if (t->ran && !t->udp)
		v->retransmits = t->retransmits;
	list_witnesses(f, v);
	name_place(f, a, v);
	next_step(a, t, v);
	lr_verdict_queue_judge(a, t, v);
}
