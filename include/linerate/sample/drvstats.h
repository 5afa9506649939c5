/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One interface's driver view for the sampler: ethtool link settings, rings, features and
 * every `ethtool -S` counter, turned into per-counter deltas, category sums (nic_fifo,
 * nic_drop, nic_error, nic_pause) and the list of non-traffic counters that moved. [sampler] */
#ifndef LINERATE_DRVSTATS_H
#define LINERATE_DRVSTATS_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/collect/metrics.h"

struct lr_drvstats;
struct lr_sysio;
struct lr_iface_snap;

/* Never fails for lack of ethtool support: an interface without it gets an object that
 * remembers why (reported in lr_iface_snap.ethtool_err) and is not asked again every tick.
 * NULL only on -ENOMEM. */
struct lr_drvstats *lr_drvstats_open(const char *ifname, const struct lr_sysio *io);
void lr_drvstats_close(struct lr_drvstats *d);	/* NULL-safe */

/* Slow-changing facts into s: speed, duplex, driver, firmware, rings, features. */
void lr_drvstats_info(struct lr_drvstats *d, struct lr_iface_snap *s);
/* One GSTATS read; per-counter deltas when have_prev; fills s->moved / s->n_moved and the
 * per-queue table s->queues / s->n_queues from the per-queue names (views into d, valid
 * until the next read) and s->ethtool_err. */
void lr_drvstats_read(struct lr_drvstats *d, bool have_prev, uint64_t now_ns, uint64_t dt_ns,
		      struct lr_iface_snap *s);
/* Writes this tick's category sums into delta[LR_M_NIC_*]; returns their LR_M_BIT valid mask
 * (a category the driver has no counter for stays unknown). */
uint64_t lr_drvstats_sums(const struct lr_drvstats *d, uint64_t *delta);
void lr_drvstats_reset(struct lr_drvstats *d, struct lr_iface_snap *s);	/* key r */

#endif
