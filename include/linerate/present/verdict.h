/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end of a test: what the NIC, the CPUs and the stack saw over the run, and the verdict —
 * achieved rate against line rate and the goodput ceiling at this MTU, where loss happened
 * (NIC FIFO, driver, stack, socket), the hottest CPU, and the one next step the evidence
 * supports (no advice without evidence). Snapshots are accumulated as they come. [main] */
#ifndef LINERATE_VERDICT_H
#define LINERATE_VERDICT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "linerate/core/common.h"
#include "linerate/collect/metrics.h"

struct lr_snapshot;

#define LR_VERDICT_IFACES 64

struct lr_verdict_iface {
	char name[LR_IFNAMSIZ];
	uint64_t total[LR_M__COUNT];
	uint64_t valid;			/* LR_M_BIT: seen valid at least once */
	int64_t speed_mbps, mtu, ring_rx, ring_rx_max;
	char driver[32];
	double hot_pct;			/* the busiest serving CPU's softirq %, max over ticks */
	int hot_cpu;
	unsigned hot_ticks;		/* ticks with a serving CPU above 95 % softirq */
	bool others_idle;		/* ... while another CPU stayed under 50 % busy */
	char top_drv[3][33];		/* driver fifo/drop counters that moved most */
	uint64_t top_drv_total[3];
};

struct lr_verdict_acc {
	char want[LR_IFNAMSIZ];		/* the route interface, "" = the busiest */
	uint64_t first_ns, last_ns;
	unsigned ticks;
	struct lr_verdict_iface ifs[LR_VERDICT_IFACES];
	unsigned n_ifs;
	uint64_t tcp_retrans, udp_rcvbuf, udp_in_errors;	/* stack, over the run */
	uint32_t stack_valid;
	int64_t rmem_max, tcp_window_scaling;
};

/* What the traffic achieved, from the test's own results (-1 = not applicable / unknown). */
struct lr_verdict_traffic {
	bool ran;
	bool udp;
	unsigned parallel;
	double up_bps, down_bps;	/* receiver-side goodput, client->server / server->client */
	int64_t retransmits;
	int64_t udp_lost, udp_packets;
};

void lr_verdict_init(struct lr_verdict_acc *a, const char *iface);	/* iface may be NULL */
void lr_verdict_add(struct lr_verdict_acc *a, const struct lr_snapshot *s);
/* The interface the verdict speaks of: the wanted one, else the one that moved most bytes. */
const struct lr_verdict_iface *lr_verdict_pick(const struct lr_verdict_acc *a);

struct lr_verdict {
	const struct lr_verdict_iface *iface;	/* NULL: nothing was sampled */
	double seconds;
	double rx_bps, tx_bps;			/* the interface's own counters over the run */
	double line_pct;			/* busier direction vs link speed, -1 unknown */
	bool speed_nominal;			/* carried more than the speed it reports (veth) */
	double ceiling_bps;			/* goodput ceiling at this MTU, -1 unknown */
	double ceiling_pct;			/* achieved goodput vs ceiling, -1 unknown */
	uint64_t nic_fifo, nic_drop, stack_drop, errors;	/* loss by where it happened */
	char loss[160];				/* "NIC FIFO 1.2k (rx_missed_errors), ..." or "" */
	char next_step[256];			/* the one next step, or why there is none */
};

void lr_verdict_compute(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			struct lr_verdict *v);
void lr_verdict_print(FILE *f, const struct lr_verdict_acc *a, const struct lr_verdict *v);
/* The same as a JSON object (jansson, caller owns the reference; NULL on -ENOMEM); unknown
 * numbers are null. Headless -J adds it to iperf3's JSON as "linerate_verdict". */
struct json_t *lr_verdict_json(const struct lr_verdict_acc *a, const struct lr_verdict *v);

#endif
