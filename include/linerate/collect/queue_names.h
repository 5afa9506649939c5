/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-queue `ethtool -S` names, parsed by rules of naming, not per-driver tables: the queue
 * index, the direction and the metric of "rx_queue_3_packets" (igb, ixgbe, veth, legacy
 * virtio), "rx3_packets" / "ch3_events" (mlx5, virtio), "rx-3.packets" (i40e, ice),
 * "rxq3: rx_bytes" (be2net), "queue_3_tx_cnt" (ena), "[3]: rx_ucast_packets" (bnxt),
 * "rx_bytes[3]", "rvec_3_rx_pkts" (nfp), "3: name". Names that carry other numbers (priority,
 * packet buffer, traffic class, lane, size bucket) are not queues. [any] */
#ifndef LINERATE_QUEUE_NAMES_H
#define LINERATE_QUEUE_NAMES_H

#include <stdbool.h>

#include "linerate/core/common.h"

enum lr_queue_dir { LR_QDIR_NONE, LR_QDIR_RX, LR_QDIR_TX };	/* NONE: a channel (both) */

struct lr_queue_name {
	unsigned queue;
	enum lr_queue_dir dir;
	char metric[64];	/* the name without its queue part: "packets", "rx_bytes" */
};

struct lr_queue_names;	/* opaque: the compiled rules (read-only once open: any thread) */

int lr_queue_names_open(struct lr_queue_names **out) LR_MUST_CHECK;
void lr_queue_names_close(struct lr_queue_names *q);	/* NULL-safe */
/* true when name is a per-queue counter; fills *out. */
bool lr_queue_name_parse(const struct lr_queue_names *qn, const char *name,
			 struct lr_queue_name *out);
const char *lr_queue_dir_name(enum lr_queue_dir d);	/* "rx", "tx", "" */

/* What a per-queue metric counts, when it is one of the queue table's columns. */
enum lr_queue_metric { LR_QM_NONE, LR_QM_PACKETS, LR_QM_BYTES, LR_QM_DROPS };
/* By exact spelling after an optional "rx_"/"tx_": "packets", "pkts", "cnt" (ena), "bytes",
 * "octets", "drops", "dropped", "drop", "discards". *cast is set for the unicast/multicast/
 * broadcast parts ("ucast_packets", bnxt), which add up to the whole only when the driver has
 * no plain total for that queue (be2net has rx_pkts and rx_mcast_pkts: the second is a part). */
enum lr_queue_metric lr_queue_metric_of(const char *metric, bool *cast);

#endif
