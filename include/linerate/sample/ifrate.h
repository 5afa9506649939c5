/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rates derived from one interface's snapshot, as every reader needs them: -1 is unknown,
 * never 0. Pure. [any] */
#ifndef LINERATE_IFRATE_H
#define LINERATE_IFRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/collect/metrics.h"	/* enum lr_metric */

struct lr_iface_snap;

/* per_s[m] when known (valid or stale bit), else -1. */
double lr_ifrate_per_s(const struct lr_iface_snap *ifs, enum lr_metric m);
/* rx or tx bits/s from the byte rate; -1 unknown. */
double lr_ifrate_bps(const struct lr_iface_snap *ifs, bool tx);
/* The sum of the known rates of m[0..n), -1 when none is known. */
double lr_ifrate_sum_per_s(const struct lr_iface_snap *ifs, const enum lr_metric *m, size_t n);
/* Drops/s (stats64 rx+tx dropped, or the driver's drop counters when they say more) and
 * FIFO/s (rx fifo + missed + over, or the driver's fifo counters), -1 unknown. */
double lr_ifrate_drops_per_s(const struct lr_iface_snap *ifs);
double lr_ifrate_fifo_per_s(const struct lr_iface_snap *ifs);
/* Why a link's reported speed is nominal (it carries whatever the CPUs move): "veth",
 * "loopback", "bridge", "paravirtual NIC (virtio_net)", ... or NULL when the speed is a real
 * line rate. From the link kind (netlink), the driver (ethtool -i) and the name; never from the
 * rate carried. The one rule every line-rate figure follows: verdict, hints, views, CSV, report,
 * Prometheus. Any argument may be NULL or "". */
const char *lr_ifrate_nominal_why(const char *name, const char *kind, const char *driver);
/* The link speed in Mbit/s when it is a line rate; -1 when unknown or nominal. What every %
 * of link, wire utilisation and goodput ceiling is taken against. */
int64_t lr_ifrate_line_mbps(const struct lr_iface_snap *ifs);
/* Percent of the line rate of max(rx, tx) bits/s; -1 when the line rate or rate unknown. */
double lr_ifrate_line_pct(const struct lr_iface_snap *ifs);
/* Wire utilisation % of the line rate: (bytes + 24 * packets) * 8 / speed for one direction;
 * -1 unknown (no line rate). */
double lr_ifrate_wire_pct(const struct lr_iface_snap *ifs, bool tx);
/* Goodput ceiling in bits/s at this MTU: TCP with timestamps (MTU-52)/(MTU+38), UDP
 * (MTU-28)/(MTU+38) of the link speed; -1 when speed or MTU unknown. Pass a line rate
 * (lr_ifrate_line_mbps): a nominal speed has no ceiling. */
double lr_ifrate_ceiling_bps(int64_t speed_mbps, int64_t mtu, bool udp);

#endif
