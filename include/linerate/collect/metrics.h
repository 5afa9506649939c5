/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-interface counters linerate samples, one enum and one table of names: the single
 * source for CSV column mapping and labels (bmon's attr_map idea). [any] */
#ifndef LINERATE_METRICS_H
#define LINERATE_METRICS_H

#include <stdbool.h>
#include <stdint.h>

enum lr_metric {
	/* rtnl_link_stats64, in the kernel's field order */
	LR_M_RX_PACKETS,
	LR_M_TX_PACKETS,
	LR_M_RX_BYTES,
	LR_M_TX_BYTES,
	LR_M_RX_ERRORS,
	LR_M_TX_ERRORS,
	LR_M_RX_DROPPED,	/* /proc/net/dev source: rx_dropped + rx_missed_errors */
	LR_M_TX_DROPPED,
	LR_M_MULTICAST,
	LR_M_COLLISIONS,
	LR_M_RX_LENGTH_ERRORS,
	LR_M_RX_OVER_ERRORS,
	LR_M_RX_CRC_ERRORS,
	LR_M_RX_FRAME_ERRORS,
	LR_M_RX_FIFO_ERRORS,
	LR_M_RX_MISSED_ERRORS,
	LR_M_TX_ABORTED_ERRORS,
	LR_M_TX_CARRIER_ERRORS,
	LR_M_TX_FIFO_ERRORS,
	LR_M_TX_HEARTBEAT_ERRORS,
	LR_M_TX_WINDOW_ERRORS,
	LR_M_RX_COMPRESSED,
	LR_M_TX_COMPRESSED,
	LR_M_RX_NOHANDLER,
	/* Driver (`ethtool -S`) counters summed by category: sums of per-counter deltas, so a
	 * reset of one driver counter drops only that counter's interval. */
	LR_M_NIC_FIFO,
	LR_M_NIC_DROP,
	LR_M_NIC_ERROR,
	LR_M_NIC_PAUSE,
	LR_M__COUNT
};

#define LR_M_BIT(m) (UINT64_C(1) << (m))
#define LR_M_STATS64_MASK (LR_M_BIT(LR_M_NIC_FIFO) - 1)	/* the kernel's stats64 fields */
#define LR_M_NIC_MASK                                                                        \
	(LR_M_BIT(LR_M_NIC_FIFO) | LR_M_BIT(LR_M_NIC_DROP) | LR_M_BIT(LR_M_NIC_ERROR) |      \
	 LR_M_BIT(LR_M_NIC_PAUSE))

struct lr_metric_info {
	const char *name;	/* the kernel's stats64 name ("rx_missed_errors") or "nic_fifo" */
	const char *label;	/* short label for screens ("missed") */
};

const struct lr_metric_info *lr_metric_info(enum lr_metric m);

#endif
