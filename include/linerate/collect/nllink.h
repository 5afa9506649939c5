/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Link list and stats64 counters over rtnetlink (libnl-3). Stats come from one RTM_GETSTATS
 * dump per tick (IFLA_STATS_LINK_64 only: a few hundred bytes per link), falling back to the
 * stats64 inside RTM_GETLINK on kernels without it. The link list (names, mtu, operstate,
 * kind, master) is re-dumped only when an RTNLGRP_LINK notification says it changed. [sampler] */
#ifndef LINERATE_NLLINK_H
#define LINERATE_NLLINK_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/collect/metrics.h"
#include "linerate/collect/nldump.h"

struct lr_nllink;	/* opaque: the dump socket and the notification socket */
struct nlmsghdr;
struct rtnl_link_stats64;

struct lr_link_info {
	int ifindex;
	char name[LR_IFNAMSIZ];
	char kind[16];		/* IFLA_INFO_KIND ("veth", "bond", "vlan"), "" if none */
	int master;		/* IFLA_MASTER ifindex, 0 none */
	int64_t mtu;		/* -1 unknown */
	uint8_t operstate;	/* IF_OPER_*, 0 unknown */
	uint32_t flags;		/* IFF_* */
};

struct lr_link_counters {
	int ifindex;
	uint64_t v[LR_M__COUNT];
	uint64_t valid;		/* LR_M_BIT(m) */
};

typedef int (*lr_link_cb)(const struct lr_link_info *link, const struct lr_link_counters *ctr,
			  void *arg);	/* ctr NULL when the message had no stats64 */
typedef int (*lr_counters_cb)(const struct lr_link_counters *ctr, void *arg);

int lr_nllink_open(struct lr_nllink **out) LR_MUST_CHECK;	/* 0 or -errno */
void lr_nllink_close(struct lr_nllink *nl);	/* NULL-safe */

/* RTM_GETLINK dump: cb for every link. 0 or -errno. */
int lr_nllink_dump_links(struct lr_nllink *nl, lr_link_cb cb, void *arg) LR_MUST_CHECK;
/* Counters of every link: RTM_GETSTATS, or the link dump's stats64. 0 or -errno. */
int lr_nllink_dump_counters(struct lr_nllink *nl, lr_counters_cb cb, void *arg) LR_MUST_CHECK;
/* Any other rtnetlink dump on the same socket and buffer (the qdisc collector's
 * RTM_GETQDISC): req is the request's payload after the netlink header (at most 64 bytes);
 * every reply message goes to cb. 0, cb's first non-zero value, or -errno (nldump.h). */
int lr_nllink_dump_raw(struct lr_nllink *nl, int type, const void *req, size_t len,
		       lr_nldump_cb cb, void *arg, const char *what) LR_MUST_CHECK;
/* Drains link notifications without blocking; true when links changed since the last call
 * (also when the notification queue overflowed). */
bool lr_nllink_links_changed(struct lr_nllink *nl);

/* Pure translation, testable with messages built in-process. 0, or -EINVAL for a malformed
 * message, -ENOENT when it is not the expected type. */
int lr_nllink_parse_link(struct nlmsghdr *nlh, struct lr_link_info *info,
			 struct lr_link_counters *ctr, bool *has_ctr);
int lr_nllink_parse_stats(struct nlmsghdr *nlh, struct lr_link_counters *ctr);
void lr_nllink_from_stats64(const struct rtnl_link_stats64 *s, struct lr_link_counters *ctr);

#endif
