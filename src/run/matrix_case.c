// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One matrix case into one row. The traffic numbers are the test's own results, the same a
 * single `linerate -c` with the case's options prints (-O included: the engine omits, and the
 * server omits its side as told); CPU, softirq, drops and FIFO come from the sampler's ticks
 * that fall inside the measured window (after the engine's -O mark).
 */
#include <stdio.h>
#include <string.h>

#include "linerate/diagnose/rr_sum.h"
#include "linerate/run/matrix_case.h"
#include "linerate/run/matrix_spec.h"
#include "linerate/sample/snapshot.h"

void lr_matrix_acc_init(struct lr_matrix_acc *a, const char *iface)
{
	memset(a, 0, sizeof(*a));
	a->softirq_max_pct = -1;
	a->softirq_cpu = -1;
	if (iface)
		snprintf(a->iface, sizeof(a->iface), "%s", iface);
}

bool lr_matrix_acc_wants(const struct lr_matrix_acc *a, const struct lr_snapshot *s)
{
	uint64_t start = s->mono_ns - s->interval_ns;

	if (!a->win_start_ns || !s->interval_ns || s->interval_ns > s->mono_ns)
		return false;
	if (s->mono_ns - s->interval_ns / 2 < a->win_start_ns)
		return false;	/* most of the tick was omitted, or before the test */
	return !a->win_end_ns || start < a->win_end_ns;
}

static void add_known(uint64_t *sum, bool *known, const struct lr_iface_snap *i, enum lr_metric m)
{
	if (!(i->valid & LR_M_BIT(m)))
		return;
	*sum += i->delta[m];
	*known = true;
}

/* The host's busy %: the all-CPU line when known, else the mean of the CPUs' own (the peer's
 * snapshot has per-CPU times only). false when no CPU's times are known. */
static bool host_busy(const struct lr_snapshot *s, double *busy_pct, unsigned *online)
{
	double sum = 0;

	*online = 0;
	for (size_t k = 0; k < s->n_cpus; k++)
		if (s->cpus[k].valid & LR_CPUV_TIMES) {
			sum += 100 - s->cpus[k].idle_pct;
			(*online)++;
		}
	if (s->cpu_all.valid & LR_CPUV_TIMES)
		*busy_pct = 100 - s->cpu_all.idle_pct;
	else if (*online)
		*busy_pct = sum / *online;
	else
		return false;
	if (*busy_pct < 0)
		*busy_pct = 0;
	if (!*online)
		*online = 1;
	return true;
}

static void add_cpu(struct lr_matrix_acc *a, const struct lr_snapshot *s, double dt)
{
	double busy;
	unsigned online;

	a->ticks++;
	a->wall_s += dt;
	if (!host_busy(s, &busy, &online))
		return;
	a->busy_pct_s += busy * dt;
	a->busy_cpu_s += busy / 100 * online * dt;
	a->cpu_known = true;
}

static void add_iface(struct lr_matrix_acc *a, const struct lr_iface_snap *i)
{
	if (i->softirq_max_pct > a->softirq_max_pct) {
		a->softirq_max_pct = i->softirq_max_pct;
		a->softirq_cpu = i->softirq_cpu;
	}
	add_known(&a->drops, &a->drops_known, i, LR_M_RX_DROPPED);
	add_known(&a->drops, &a->drops_known, i, LR_M_TX_DROPPED);
	add_known(&a->drops, &a->drops_known, i, LR_M_NIC_DROP);
	add_known(&a->fifo, &a->fifo_known, i, LR_M_RX_FIFO_ERRORS);
	add_known(&a->fifo, &a->fifo_known, i, LR_M_RX_MISSED_ERRORS);
	add_known(&a->fifo, &a->fifo_known, i, LR_M_RX_OVER_ERRORS);
	add_known(&a->fifo, &a->fifo_known, i, LR_M_TX_FIFO_ERRORS);
	add_known(&a->fifo, &a->fifo_known, i, LR_M_NIC_FIFO);
	if ((i->valid & LR_M_BIT(LR_M_RX_PACKETS)) && (i->valid & LR_M_BIT(LR_M_TX_PACKETS))) {
		a->rx_packets += i->delta[LR_M_RX_PACKETS];
		a->tx_packets += i->delta[LR_M_TX_PACKETS];
		a->pkts_known = true;
	}
}

bool lr_matrix_acc_add(struct lr_matrix_acc *a, const struct lr_snapshot *s)
{
	const struct lr_iface_snap *i;

	if (!lr_matrix_acc_wants(a, s))
		return false;
	add_cpu(a, s, (double)s->interval_ns / 1e9);
	i = a->iface[0] ? lr_snapshot_iface(s, a->iface) : NULL;
	if (i)
		add_iface(a, i);
	return true;
}

bool lr_matrix_acc_add_peer(struct lr_matrix_acc *a, const struct lr_snapshot *peer,
			    uint64_t arrival_ns)
{
	struct lr_snapshot at = *peer;	/* its interval, on the local clock */

	at.mono_ns = arrival_ns;
	if (!lr_matrix_acc_wants(a, &at))
		return false;
	add_cpu(a, peer, (double)peer->interval_ns / 1e9);
	for (size_t k = 0; k < peer->n_ifaces; k++)
		add_iface(a, &peer->ifaces[k]);
	return true;
}

void lr_matrix_row_case(struct lr_matrix_row *r, unsigned index, const struct lr_traffic_config *tc)
{
	lr_matrix_row_init(r);
	r->index = index;
	r->udp = tc->udp;
	r->streams = tc->parallel ? tc->parallel : 1;
	r->length = tc->length;
	r->dir = tc->bidir ? LR_MDIR_BIDIR : tc->reverse ? LR_MDIR_REVERSE : LR_MDIR_UP;
	r->bitrate_bps = tc->bitrate_bps;
	r->window = tc->window;
	r->mss = tc->mss;
	snprintf(r->congestion, sizeof(r->congestion), "%s", tc->congestion ? tc->congestion : "");
	r->rr = tc->rr_req_bytes != 0;
}

/* One direction's streams summed. */
struct dir_sum {
	uint64_t sent, received;
	int64_t packets, lost, retr;
	double jitter_s;
	unsigned n, n_jitter;
};

static void sum_dir(const struct lr_traffic_results *res, bool up, struct dir_sum *d)
{
	memset(d, 0, sizeof(*d));
	d->retr = -1;
	for (unsigned k = 0; k < res->n_streams; k++) {
		const struct lr_traffic_stream_result *e = &res->streams[k];

		if (e->client_sends != up)
			continue;
		d->n++;
		d->sent += e->sent_bytes;
		d->received += e->received_bytes;
		if (e->retransmits >= 0)
			d->retr = (d->retr < 0 ? 0 : d->retr) + e->retransmits;
		if (!e->udp)
			continue;
		if (e->packets_sent >= 0)
			d->packets += e->packets_sent;
		if (e->lost >= 0)
			d->lost += e->lost;
		d->jitter_s += e->jitter_s;
		d->n_jitter++;
	}
}

void lr_matrix_row_fill(struct lr_matrix_row *r, const struct lr_traffic_results *res,
			const struct lr_matrix_acc *a)
{
	double recv_bytes = 0, secs = 0, jitter = 0, pps = 0;
	int64_t lost = 0, packets = 0, retr = -1;
	unsigned n_jitter = 0;
	bool any = false;

	for (int up = 1; up >= 0; up--) {
		const struct lr_traffic_sum *sum = up ? &res->sum_up : &res->sum_down;
		double ss = sum->sender_s, rs = sum->receiver_s;
		struct dir_sum d;

		if (!sum->n_streams)
			continue;
		sum_dir(res, up, &d);
		if (ss > 0)
			r->sender_bps = (r->sender_bps < 0 ? 0 : r->sender_bps) + (double)d.sent * 8 / ss;
		if (rs > 0 && d.received) {
			r->receiver_bps = (r->receiver_bps < 0 ? 0 : r->receiver_bps) +
					  (double)d.received * 8 / rs;
			recv_bytes += (double)d.received;
			if (rs > secs)
				secs = rs;
			if (res->udp && d.packets >= d.lost)
				pps += (double)(d.packets - d.lost) / rs;
		}
		if (d.retr >= 0)
			retr = (retr < 0 ? 0 : retr) + d.retr;
		lost += d.lost;
		packets += d.packets;
		jitter += d.jitter_s;
		n_jitter += d.n_jitter;
		any = true;
	}
	if (!any)
		return;
	r->seconds = secs > 0 ? secs : -1;
	if (res->rr.on) {	/* rr=1: netperf's figures over the test's measured length */
		struct lr_rr_sum rs;

		lr_rr_sum_fill(&rs, &res->rr, (double)res->duration_ns / 1e9, -1, 0, -1);
		r->rr_tps = rs.tps;
		r->rr_p99_us = rs.p99_us;
	}
	r->retransmits = res->udp ? -1 : retr;
	if (res->udp) {
		r->lost = lost;
		r->lost_pct = packets > 0 ? 100.0 * (double)lost / (double)packets : -1;
		r->jitter_ms = n_jitter ? jitter / n_jitter * 1000 : -1;
		r->receiver_pps = secs > 0 ? pps : -1;
	} else if (a->pkts_known && a->wall_s > 0) {
		/* TCP has no datagrams: the test interface's packets toward the receiver
		 * (skbs on veth and loopback, where GSO packets cross whole) */
		double pk = r->dir == LR_MDIR_UP	? (double)a->tx_packets
			    : r->dir == LR_MDIR_REVERSE ? (double)a->rx_packets
							: (double)(a->rx_packets + a->tx_packets);

		r->receiver_pps = pk / a->wall_s;
	}
	if (a->cpu_known && a->wall_s > 0) {
		r->cpu_busy_pct = a->busy_pct_s / a->wall_s;
		/* netperf's: the host's busy CPU-seconds over the test per KB received (the
		 * sampled window's mean busy CPUs, times the test's measured seconds) */
		if (recv_bytes > 0 && secs > 0)
			r->service_demand = a->busy_cpu_s / a->wall_s * secs * 1e6 /
					    (recv_bytes / 1024);
	}
	r->softirq_max_pct = a->softirq_max_pct;
	r->softirq_cpu = a->softirq_cpu;
	r->drops = a->drops_known ? (int64_t)a->drops : -1;
	r->fifo = a->fifo_known ? (int64_t)a->fifo : -1;
}

void lr_matrix_row_fill_peer(struct lr_matrix_row *r, const struct lr_matrix_acc *p)
{
	double kb = r->receiver_bps > 0 && r->seconds > 0 ? r->receiver_bps * r->seconds / 8 / 1024
							   : 0;

	if (!p->ticks)
		return;	/* the peer shared nothing of this window: unknown, never 0 */
	if (p->cpu_known && p->wall_s > 0) {
		r->peer_cpu_busy_pct = p->busy_pct_s / p->wall_s;
		if (kb > 0)	/* as ours: the window's mean busy CPUs over the measured seconds */
			r->peer_service_demand = p->busy_cpu_s / p->wall_s * r->seconds * 1e6 / kb;
	}
	r->peer_softirq_max_pct = p->softirq_max_pct;
	r->peer_softirq_cpu = p->softirq_cpu;
	r->peer_drops = p->drops_known ? (int64_t)p->drops : -1;
	r->peer_fifo = p->fifo_known ? (int64_t)p->fifo : -1;
}
