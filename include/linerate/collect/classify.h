/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Driver counter classification: an `ethtool -S` name -> fifo|drop|error|pause|traffic|other.
 * A pattern table with a few driver-specific overrides. Pure. [any] */
#ifndef LINERATE_CLASSIFY_H
#define LINERATE_CLASSIFY_H

#include <stdbool.h>

enum lr_counter_cat {
	LR_CAT_FIFO,
	LR_CAT_DROP,
	LR_CAT_ERROR,
	LR_CAT_PAUSE,
	LR_CAT_TRAFFIC,
	LR_CAT_OTHER,
	LR_CAT__COUNT
};

struct lr_counter_class {
	enum lr_counter_cat cat;
	/* A per-queue / per-priority / per-TC breakdown ("rx3_missed", "rx_queue_0_drops",
	 * "rx_prio2_discards") of something another counter already totals. Category sums
	 * (nic_fifo, nic_drop, ...) skip these when the driver also exports the total. */
	bool per_queue;
};

/* driver: the GDRVINFO driver name ("i40e", "mlx5_core") or NULL when unknown. */
struct lr_counter_class lr_classify(const char *driver, const char *name);
const char *lr_counter_cat_name(enum lr_counter_cat cat); /* "fifo", "drop", ... */

#endif
