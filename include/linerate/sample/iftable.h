/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sampler's interface table: per interface, the previous raw counters, totals, peaks,
 * history, stale tracking and the ethtool handle with its driver counters. Counter sources
 * (netlink or /proc/net/dev) feed it raw readings; lr_iftable_finish turns them into the
 * interfaces of a snapshot. Interfaces come and go: a name that returns with another ifindex
 * starts a new generation with no delta for its first interval. [sampler] */
#ifndef LINERATE_IFTABLE_H
#define LINERATE_IFTABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/collect/metrics.h"
#include "linerate/core/common.h"
#include "linerate/sample/snapshot.h"

struct lr_iftable;
struct lr_sysio;
struct lr_link_info;
struct lr_link_counters;

struct lr_iftable_opts {
	const struct lr_sysio *io;
	bool ethtool;		/* read driver stats, link settings, rings (live system only) */
	bool sysfs_gauges;	/* read mtu/operstate/ifindex/speed from /sys (proc source) */
	bool history;		/* keep graph history (the dashboard; headless has no use for it) */
	const char *only;	/* -I comma list, NULL = every interface */
};

int lr_iftable_open(struct lr_iftable **out, const struct lr_iftable_opts *opts) LR_MUST_CHECK;
void lr_iftable_close(struct lr_iftable *t);	/* NULL-safe */

/* Link list (netlink): call begin, then link() for every link of the dump, then end, which
 * forgets interfaces the dump no longer had. */
void lr_iftable_links_begin(struct lr_iftable *t);
int lr_iftable_link(struct lr_iftable *t, const struct lr_link_info *info) LR_MUST_CHECK;
void lr_iftable_links_end(struct lr_iftable *t);

/* Raw counters of one interface for this tick. By ifindex (netlink; returns -ENOENT for an
 * ifindex the link list does not know yet: re-dump the links) or by name (proc source: the
 * interface is created on first sight). */
int lr_iftable_counters_by_ifindex(struct lr_iftable *t, const struct lr_link_counters *c);
int lr_iftable_counters_by_name(struct lr_iftable *t, const char *name, const uint64_t *v,
				uint64_t valid) LR_MUST_CHECK;
/* Proc source: forget interfaces that were not in this tick's file. */
void lr_iftable_drop_unseen(struct lr_iftable *t);

/* Reads ethtool (when enabled), computes deltas over dt_ns, rates, totals, peaks, history and
 * fills snap->ifaces (views into the table, valid until the next call). 0 or -ENOMEM. */
int lr_iftable_finish(struct lr_iftable *t, uint64_t now_ns, uint64_t dt_ns, bool first,
		      struct lr_snapshot *snap) LR_MUST_CHECK;

/* Names of the interfaces in the table, for the sampler's round-robin IRQ map refresh:
 * the name of entry i, NULL past the end. */
const char *lr_iftable_name(const struct lr_iftable *t, size_t i);
/* The CPUs serving an interface (copied). 0, -ENOENT or -ENOMEM. */
int lr_iftable_set_serving(struct lr_iftable *t, const char *name, const int *cpus, size_t n)
	LR_MUST_CHECK;

/* The device's NUMA node (collect/numa.h), -1 unknown. 0 or -ENOENT. */
int lr_iftable_set_numa_node(struct lr_iftable *t, const char *name, int node);

/* -I names the table has no interface for: the count, and the first of them copied to first. */
size_t lr_iftable_missing(const struct lr_iftable *t, char *first, size_t len);

/* Key r: zero totals and peaks of every interface. */
void lr_iftable_reset_totals(struct lr_iftable *t);

/* What an interface's rate graph plots: the one map from counters to the graphs' history
 * (s->hist[ser]) and peaks, for the sampler and for replay. [any] */
struct lr_iftable_graph {
	enum lr_metric m;	/* the counter: per_s[m] and delta[m] */
	double mult;		/* to the graph's unit: 8 turns bytes into bits */
	struct lr_peak *peak;	/* its peak, in s */
};
struct lr_iftable_graph lr_iftable_graph(struct lr_iface_snap *s, enum lr_series_id ser);
/* Key r on one interface: its totals and its graphs' peaks back to zero. [any] */
void lr_iftable_snap_reset_totals(struct lr_iface_snap *s);

#endif
