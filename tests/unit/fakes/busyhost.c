// SPDX-License-Identifier: GPL-2.0-or-later
/* The busy-host snapshot of busyhost.h: every pane has something to show. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakes/busyhost.h"
#include "linerate/collect/ethtool.h"
#include "linerate/core/strutil.h"
#include "linerate/sample/snapshot.h"

#define DT 0.5
#define NQ 8

static void rate(struct lr_iface_snap *i, enum lr_metric m, double per_s)
{
	i->valid |= LR_M_BIT(m);
	i->per_s[m] = per_s;
	i->delta[m] = (uint64_t)llround(per_s * DT);
	i->total_valid |= LR_M_BIT(m);
	i->total[m] = (uint64_t)llround(per_s * 600);
}

/* Ramps to v over 20 points, holds, dips for 4: graphs have a shape. */
static void series(struct lr_series *s, double v)
{
	for (uint32_t k = 0; k < 300; k++) {
		double f = k < 20 ? (double)k / 20 : k >= 60 && k < 64 ? 0.5 : 1.0;

		s->v[k % LR_HIST_LEN] = (float)(v * f);
	}
	s->head = 300 % LR_HIST_LEN;
	s->len = 300 < LR_HIST_LEN ? 300 : LR_HIST_LEN;
}

static void peak(struct lr_peak *p, double max, double avg)
{
	p->min = avg * 0.97;
	p->max = max;
	p->n = 1200;
	p->sum = avg * 1200;
}

static void iface(struct lr_iface_snap *i, const char *name, int ifindex, int64_t speed,
		  int64_t mtu, double rx_bps, double tx_bps)
{
	memset(i, 0, sizeof(*i));
	lr_strlcpy(i->name, name, sizeof(i->name));
	i->ifindex = ifindex;
	i->operstate = 6;
	i->mtu = mtu;
	i->speed_mbps = speed;
	i->duplex = speed > 0 ? 1 : -1;
	i->ring_rx = i->ring_rx_max = i->ring_tx = i->ring_tx_max = -1;
	i->interval_ns = 500 * LR_NSEC_PER_MSEC;
	i->softirq_max_pct = 3;
	i->softirq_cpu = 0;
	rate(i, LR_M_RX_BYTES, rx_bps / 8);
	rate(i, LR_M_TX_BYTES, tx_bps / 8);
	rate(i, LR_M_RX_PACKETS, rx_bps / 8 / 1448);
	rate(i, LR_M_TX_PACKETS, tx_bps / 8 / 1448);
	for (int m = LR_M_RX_ERRORS; m < LR_M_NIC_FIFO; m++)
		rate(i, m, 0);
	series(&i->hist[LR_SER_RX_BPS], rx_bps);
	series(&i->hist[LR_SER_TX_BPS], tx_bps);
	series(&i->hist[LR_SER_RX_PPS], rx_bps / 8 / 1448);
	series(&i->hist[LR_SER_TX_PPS], tx_bps / 8 / 1448);
	peak(&i->peak_rx_bps, rx_bps * 1.004, rx_bps * 0.99);
	peak(&i->peak_tx_bps, tx_bps * 1.004, tx_bps * 0.99);
	peak(&i->peak_rx_pps, rx_bps / 8 / 1448 * 1.004, rx_bps / 8 / 1448 * 0.99);
	peak(&i->peak_tx_pps, tx_bps / 8 / 1448 * 1.004, tx_bps / 8 / 1448 * 0.99);
}

static void moved(struct lr_iface_snap *i, const char *name, enum lr_counter_cat cat,
		  double per_s, uint64_t total)
{
	struct lr_drv_counter *c = &i->moved[i->n_moved++];

	lr_strlcpy(c->name, name, sizeof(c->name));
	c->cat = cat;
	c->per_s = per_s;
	c->delta = (uint64_t)llround(per_s * DT);
	c->total = total;
}

static void queues(struct lr_iface_snap *e, size_t n_cpus)
{
	e->queue_source = LR_QSRC_ETHTOOL;
	e->queues = calloc(NQ, sizeof(*e->queues));
	e->n_queues = e->cap_queues = NQ;
	for (unsigned q = 0; q < NQ; q++) {
		struct lr_queue_snap *x = &e->queues[q];

		x->queue = q;
		x->valid = LR_QV_RX_PACKETS | LR_QV_RX_BYTES | LR_QV_TX_PACKETS | LR_QV_TX_BYTES |
			   LR_QV_RX_DROPS;
		x->rx_pps = q == 3 ? 312345 : 12345.6 + q;
		x->tx_pps = 9876.5;
		x->rx_packets = (uint64_t)(x->rx_pps * DT);
		x->rx_bytes = x->rx_packets * 8948;
		x->tx_packets = (uint64_t)(x->tx_pps * DT);
		x->tx_bytes = x->tx_packets * 66;
		x->rx_drops = q == 3 ? 1234 : 0;
		x->cpu = (int)(q % n_cpus);
		x->cpu_softirq_pct = q == 3 ? 99 : 4;
	}
}

static void streams(struct lr_snapshot *s, size_t n)
{
	s->streams = calloc(n, sizeof(*s->streams));
	s->cap_streams = s->n_streams = n;
	for (size_t k = 0; k < n; k++) {
		struct lr_stream_snap *st = &s->streams[k];

		st->id = (int)(5 + 2 * k);
		st->sender = true;
		st->valid = true;
		st->bps = 3.987654e9 - 1.1e7 * (double)k;
		st->bytes = (uint64_t)(st->bps / 8 * DT);
		st->pps = st->bps / 8 / 8948;
		st->packets = (uint64_t)(st->pps * DT);
		st->retransmits = k == 1 ? 123 : 0;
		st->total_retransmits = k == 1 ? 45678 : 0;
		st->jitter_ms = -1;
		st->cwnd_bytes = 3145728 + 65536 * (int64_t)k;
		st->rtt_us = 1234 + 10 * (int64_t)k;
		st->total_bytes = st->bytes * 1200;
		st->cpu = (int)k;
		st->node = 0;
	}
	s->traffic_generation = 1;
}

void busyhost_build(struct lr_snapshot *s, size_t n_cpus, size_t n_streams, const char *tag)
{
	struct lr_iface_snap *e0, *e1, *lo, *v;
	char name[LR_IFNAMSIZ];

	lr_snapshot_init(s);
	s->seq = 1200;
	s->real_ns = 1795960931ULL * LR_NSEC_PER_SEC;
	s->mono_ns = 1000 * LR_NSEC_PER_SEC;
	s->elapsed_ns = 600 * LR_NSEC_PER_SEC;
	s->interval_ns = s->target_interval_ns = 500 * LR_NSEC_PER_MSEC;
	s->source = LR_SOURCE_NETLINK;
	s->ifaces = calloc(4, sizeof(*s->ifaces));
	s->n_ifaces = s->cap_ifaces = 4;
	e0 = &s->ifaces[0];
	e1 = &s->ifaces[1];
	lo = &s->ifaces[2];
	v = &s->ifaces[3];

	iface(e0, "eno1", 2, 1000, 1500, 123.456e6, 987.654e6);
	lr_strlcpy(e0->driver, "e1000e", sizeof(e0->driver));
	iface(e1, "ens1f0np0", 3, 40000, 9000, 38.41e9, 0.21e9);
	lr_strlcpy(e1->driver, "i40e", sizeof(e1->driver));
	lr_strlcpy(e1->driver_version, "2.8.20-k", sizeof(e1->driver_version));
	lr_strlcpy(e1->fw_version, "6.01 0x800034a4 1.1747.0", sizeof(e1->fw_version));
	lr_strlcpy(e1->bus_info, "0000:3b:00.0", sizeof(e1->bus_info));
	e1->ring_rx = e1->ring_tx = 512;
	e1->ring_rx_max = e1->ring_tx_max = 4096;
	e1->features_known = 0x7f;
	e1->features = LR_FEAT_SG | LR_FEAT_TSO | LR_FEAT_GSO | LR_FEAT_GRO | LR_FEAT_RX_CSUM;
	rate(e1, LR_M_RX_MISSED_ERRORS, 123456);
	rate(e1, LR_M_RX_DROPPED, 98765);
	rate(e1, LR_M_NIC_FIFO, 123456);
	rate(e1, LR_M_NIC_DROP, 4321);
	e1->moved = calloc(6, sizeof(*e1->moved));
	e1->cap_moved = 6;
	moved(e1, "rx_missed_errors", LR_CAT_FIFO, 123456, 98765432);
	moved(e1, "port.rx_discards", LR_CAT_FIFO, 31012, 12345678);
	moved(e1, "rx_queue_3_drops_something_long", LR_CAT_DROP, 4321, 1234567);
	moved(e1, "port.tx_dropped_link_down", LR_CAT_DROP, 0, 17);
	moved(e1, "rx_crc_errors", LR_CAT_ERROR, 12, 4567);
	e1->serving_cpus = calloc(n_cpus, sizeof(int));
	e1->cap_serving = n_cpus;
	e1->n_serving_cpus = n_cpus < 4 ? n_cpus : 4;
	for (size_t k = 0; k < e1->n_serving_cpus; k++)
		e1->serving_cpus[k] = (int)k;
	e1->softirq_max_pct = 99;
	e1->softirq_cpu = 2;
	queues(e1, n_cpus);

	iface(lo, "lo", 1, -1, 65536, 0, 0);
	lr_strlcpy(lo->kind, "loopback", sizeof(lo->kind));
	lo->operstate = 0;	/* IF_OPER_UNKNOWN, as the kernel says of lo */
	snprintf(name, sizeof(name), "veth-%s-a0", tag);
	iface(v, name, 40, 10000, 1500, 9.41e9, 9.38e9);
	lr_strlcpy(v->kind, "veth", sizeof(v->kind));

	s->cpus = calloc(n_cpus, sizeof(*s->cpus));
	s->n_cpus = s->cap_cpus = n_cpus;
	for (size_t k = 0; k < n_cpus; k++) {
		struct lr_cpu_snap *c = &s->cpus[k];

		c->cpu = (int)k;
		c->valid = LR_CPUV_TIMES | LR_CPUV_SOFTIRQS | LR_CPUV_SOFTNET;
		c->user_pct = 12.5 + (double)(k % 5);
		c->system_pct = 23.25 + (double)(k % 3);
		c->softirq_pct = k == 2 ? 99 : 1;
		c->idle_pct = k == 2 ? 0 : 100 - c->user_pct - c->system_pct - 1;
		c->steal_pct = k == 5 ? 7.5 : 0;
		c->net_rx_per_s = k == 2 ? 123456 : 2345;
		c->net_tx_per_s = 9876;
		c->softnet_processed_per_s = 531000;
		c->softnet_dropped_per_s = k == 2 ? 1234 : 0;
		c->softnet_squeezed_per_s = k == 2 ? 3100 : 0;
		c->node = (int)(k % 2);
	}
	s->cpu_all.valid = LR_CPUV_TIMES;
	s->stack.valid = LR_STACKV_TCP_RETRANS | LR_STACKV_UDP_IN_ERRORS | LR_STACKV_UDP_RCVBUF |
			 LR_STACKV_UDP_SNDBUF;
	s->stack.tcp_retrans_per_s = 12345;
	s->stack.udp_rcvbuf_errors_per_s = 98765;
	s->stack.udp_in_errors_per_s = 98765;
	s->tuning.rmem_max = s->tuning.wmem_max = 212992;
	s->tuning.netdev_max_backlog = 1000;
	s->tuning.tcp_rmem[0] = 4096;
	s->tuning.tcp_rmem[1] = 131072;
	s->tuning.tcp_rmem[2] = 6291456;
	s->tuning.tcp_wmem[0] = 4096;
	s->tuning.tcp_wmem[1] = 16384;
	s->tuning.tcp_wmem[2] = 4194304;
	s->tuning.tcp_window_scaling = s->tuning.tcp_timestamps = s->tuning.tcp_sack = 1;
	lr_strlcpy(s->tuning.tcp_congestion, "cubic", sizeof(s->tuning.tcp_congestion));
	s->numa_nodes = 2;
	if (n_streams)
		streams(s, n_streams);
}
