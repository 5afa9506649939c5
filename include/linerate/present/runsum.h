/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a headless run without traffic tells a person at its end: per interface the totals and
 * mean rates over the run (the kernel's deltas summed over the measured intervals) and the
 * peaks, per CPU the mean and peak softirq and busy %. Fed one snapshot at a time; printed
 * as sar's "Average:" block (sar_text.c) or as the run's JSON (-J). [present] */
#ifndef LINERATE_RUNSUM_H
#define LINERATE_RUNSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "linerate/core/common.h"

struct lr_snapshot;

enum lr_runsum_col {
	LR_RS_RX_BYTES, LR_RS_TX_BYTES, LR_RS_RX_PACKETS, LR_RS_TX_PACKETS, LR_RS_DROPS,
	LR_RS_FIFO, LR_RS__COUNT
};

struct lr_runsum_iface {
	char name[LR_IFNAMSIZ];
	uint64_t ns;			/* measured seconds summed, in ns */
	uint64_t sum[LR_RS__COUNT];
	uint32_t known;			/* 1 << col: at least one interval knew it */
	double peak_rx_bps, peak_tx_bps, peak_rx_pps, peak_tx_pps;	/* per tick, -1 unknown */
	int64_t speed_mbps, mtu;	/* the last seen, -1 unknown */
	int64_t line_mbps;		/* the last seen line rate (lr_ifrate_line_mbps), -1 */
};

struct lr_runsum_cpu {
	int cpu;
	uint64_t ns;			/* weight of the means */
	double softirq_x_ns, busy_x_ns;	/* percent x ns */
	double softirq_peak, busy_peak;	/* -1 unknown */
};

struct lr_runsum {
	struct lr_runsum_iface *ifs;
	size_t n_ifs, cap_ifs;
	struct lr_runsum_cpu *cpus;
	size_t n_cpus, cap_cpus;
	unsigned ticks;
	uint64_t first_real_ns, last_real_ns;
};

void lr_runsum_init(struct lr_runsum *rs);
void lr_runsum_free(struct lr_runsum *rs);
/* Adds one snapshot's deltas and rates. 0 or -ENOMEM. */
int lr_runsum_add(struct lr_runsum *rs, const struct lr_snapshot *s) LR_MUST_CHECK;
/* The mean rate of col over the run (bytes and packets per second), -1 unknown. */
double lr_runsum_rate(const struct lr_runsum_iface *ri, enum lr_runsum_col col);
/* The run as JSON: {"linerate_run": {start, seconds, ticks, interfaces: [...], cpus: [...]}}. */
json_t *lr_runsum_json(const struct lr_runsum *rs);

#endif
