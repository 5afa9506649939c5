// SPDX-License-Identifier: GPL-2.0-or-later
/* The synthetic per-queue snapshot of hotqueue.h. */
#include <stdlib.h>
#include <string.h>

#include "fakes/hotqueue.h"
#include "linerate/core/strutil.h"
#include "linerate/sample/snapshot.h"

#define NQ   8
#define NCPU 4

static void rate(struct lr_iface_snap *i, enum lr_metric m, double per_s)
{
	i->valid |= LR_M_BIT(m);
	i->per_s[m] = per_s;
	i->delta[m] = (uint64_t)per_s;
	i->total_valid |= LR_M_BIT(m);
	i->total[m] = (uint64_t)per_s * 60;
}

void hotqueue_build(struct lr_snapshot *s, bool hot)
{
	struct lr_iface_snap *e;

	lr_snapshot_init(s);
	s->seq = 60;
	s->real_ns = 1795960931ULL * LR_NSEC_PER_SEC;
	s->mono_ns = 100 * LR_NSEC_PER_SEC;
	s->elapsed_ns = 60 * LR_NSEC_PER_SEC;
	s->interval_ns = s->target_interval_ns = LR_NSEC_PER_SEC;
	s->ifaces = calloc(1, sizeof(*s->ifaces));
	s->n_ifaces = s->cap_ifaces = 1;
	s->cpus = calloc(NCPU, sizeof(*s->cpus));
	s->n_cpus = s->cap_cpus = NCPU;
	for (int c = 0; c < NCPU; c++) {
		struct lr_cpu_snap *k = &s->cpus[c];
		double si = hot ? (c == 3 ? 100 : 1) : 25;

		k->cpu = c;
		k->valid = LR_CPUV_TIMES;
		k->softirq_pct = si;
		k->idle_pct = 100 - si;
		k->steal_pct = -1;
		k->times_window_ns = LR_NSEC_PER_SEC;
	}
	s->cpu_all.valid = LR_CPUV_TIMES;
	s->tuning.rmem_max = s->tuning.wmem_max = 212992;
	s->tuning.netdev_max_backlog = 1000;
	s->tuning.tcp_rmem[2] = 6291456;
	s->tuning.tcp_wmem[2] = 4194304;
	s->tuning.tcp_window_scaling = s->tuning.tcp_timestamps = s->tuning.tcp_sack = 1;

	e = &s->ifaces[0];
	lr_strlcpy(e->name, "eth1", sizeof(e->name));
	e->ifindex = 3;
	e->operstate = 6;
	e->mtu = 1500;
	e->speed_mbps = 40000;
	e->duplex = 1;
	lr_strlcpy(e->driver, "i40e", sizeof(e->driver));
	e->ring_rx = e->ring_tx = e->ring_rx_max = e->ring_tx_max = 4096;
	e->interval_ns = LR_NSEC_PER_SEC;
	rate(e, LR_M_RX_PACKETS, 1e6);
	rate(e, LR_M_RX_BYTES, 1e6 * 1400);
	rate(e, LR_M_TX_PACKETS, 8000);
	rate(e, LR_M_TX_BYTES, 8000 * 66);
	e->softirq_max_pct = hot ? 100 : 25;
	e->softirq_cpu = 3;
	e->queue_source = LR_QSRC_ETHTOOL;
	e->queues = calloc(NQ, sizeof(*e->queues));
	e->n_queues = e->cap_queues = NQ;
	for (unsigned q = 0; q < NQ; q++) {
		struct lr_queue_snap *x = &e->queues[q];
		uint64_t rx = hot ? (q == 3 ? 920000 : 80000 / 7 + (q < 80000 % 7)) : 125000;

		x->queue = q;
		x->valid = LR_QV_RX_PACKETS | LR_QV_RX_BYTES | LR_QV_TX_PACKETS | LR_QV_TX_BYTES |
			   LR_QV_RX_DROPS;
		x->rx_packets = rx;
		x->rx_bytes = rx * 1400;
		x->tx_packets = 1000;
		x->tx_bytes = 1000 * 66;
		x->rx_drops = hot && q == 3 ? 1500 : 0;
		x->rx_pps = (double)x->rx_packets;
		x->tx_pps = (double)x->tx_packets;
		x->cpu = q == 7 ? -1 : (int)(q % NCPU);
		x->cpu_softirq_pct = x->cpu >= 0 ? s->cpus[x->cpu].softirq_pct : -1;
	}
}
