/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool through SIOCETHTOOL for one interface: driver stats (names once from
 * GSSET_INFO/GSTRINGS, values from GSTATS every tick, names re-read when the count changes),
 * link speed/duplex (GLINKSETTINGS, GSET fallback), driver info (GDRVINFO), rings (GRINGPARAM),
 * offload features (GFEATURES). All ioctls go through struct lr_sysio. [sampler] */
#ifndef LINERATE_ETHTOOL_H
#define LINERATE_ETHTOOL_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/collect/classify.h"
#include "linerate/core/common.h"

struct lr_sysio;
struct lr_ethtool; /* opaque: holds the socket and the sized buffers */

#define LR_ETH_NAME_LEN 32 /* ETH_GSTRING_LEN */

enum lr_feature { /* bits in lr_ethtool_info.features / features_known */
		  LR_FEAT_SG = 1u << 0,
		  LR_FEAT_TX_CSUM = 1u << 1,
		  LR_FEAT_RX_CSUM = 1u << 2,
		  LR_FEAT_TSO = 1u << 3,
		  LR_FEAT_GSO = 1u << 4,
		  LR_FEAT_GRO = 1u << 5,
		  LR_FEAT_LRO = 1u << 6,
};

struct lr_ethtool_info { /* "unknown" is -1 for numbers, "" for strings */
	int64_t speed_mbps;
	int duplex; /* 0 half, 1 full, -1 unknown */
	char driver[32];
	char version[32];
	char fw_version[32];
	char bus_info[32];
	int64_t ring_rx, ring_rx_max, ring_tx, ring_tx_max;
	uint32_t features, features_known;
	/* What could not be read, as -errno (0 = read fine): the dashboard says why, e.g.
	 * -EPERM as non-root, -EOPNOTSUPP on lo/veth. */
	int err_stats, err_link, err_drvinfo, err_rings, err_features;
};

/* Opens the ethtool view of ifname: socket + driver name (GDRVINFO) + stat names + buffers,
 * and a first GSTATS. 0 or -errno: -ENODEV (no such interface in the caller's netns),
 * -EINVAL (bad name), -ENOMEM. An interface whose driver has no stats (lo), or whose stats
 * the kernel refuses, opens fine with n_stats == 0 and the reason in err_stats.
 * *out is caller-owned. */
int lr_ethtool_open(struct lr_ethtool **out, const char *ifname,
		    const struct lr_sysio *io) LR_MUST_CHECK;
void lr_ethtool_close(struct lr_ethtool *et); /* NULL-safe */

/* Re-reads link settings, drvinfo, rings and features (slow-changing: call on open and when
 * the link changes or every few seconds, not every tick). Fills *out completely; what could
 * not be read is "unknown" with its -errno in err_*. Returns 0, or -ENODEV when the
 * interface is gone. The first call reads the feature names (allocates once). */
int lr_ethtool_read_info(struct lr_ethtool *et, struct lr_ethtool_info *out) LR_MUST_CHECK;

/* A GSSET_INFO (the current count; the kernel writes as many values as the driver has now,
 * whatever size we pass) then one GSTATS into the buffer sized at open with headroom. When
 * the count changed (channels changed), names are re-read first (that call may allocate)
 * and *names_changed is set; a count that moves between the two calls is retried.
 * 0 or -errno (-EOPNOTSUPP: no driver stats; the view is then empty). Does not allocate in
 * steady state. */
int lr_ethtool_read_stats(struct lr_ethtool *et, bool *names_changed) LR_MUST_CHECK;

/* Views valid until the next lr_ethtool_read_stats that sets names_changed, or close.
 * Names are NUL-terminated, at most LR_ETH_NAME_LEN chars (a 32-char kernel name has no NUL
 * of its own). Out-of-range i: NULL / LR_CAT_OTHER. Values are NULL when n_stats is 0. */
uint32_t lr_ethtool_n_stats(const struct lr_ethtool *et);
const char *lr_ethtool_stat_name(const struct lr_ethtool *et, uint32_t i);
const uint64_t *lr_ethtool_stat_values(const struct lr_ethtool *et);
struct lr_counter_class lr_ethtool_stat_class(const struct lr_ethtool *et, uint32_t i);

#endif
