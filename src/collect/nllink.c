// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtnetlink links and counters through libnl-3. Runs on the sampler thread, which owns both
 * sockets: `dump` for RTM_GETLINK/RTM_GETSTATS requests, `events` subscribed to RTNLGRP_LINK
 * so the link list is re-read only when something changed. libnl's -NLE_* codes are turned
 * into -errno here, with nl_geterror() text in the log.
 */
#include <errno.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netlink/errno.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "linerate/core/log.h"
#include "linerate/collect/nldump.h"
#include "linerate/collect/nllink.h"
#include "linerate/core/strutil.h"

struct lr_nllink {
	struct nl_sock *dump;
	struct nl_sock *events;
	bool no_getstats;	/* kernel lacks RTM_GETSTATS: use the link dump's stats64 */
	bool changed;
	uint32_t seq;
	char *buf;		/* one dump datagram; the kernel sends at most 32 KiB per part */
	size_t buf_len;
};

/* The stats64 fields in the kernel's order, which is also enum lr_metric's order. */
#define STATS64_FIELDS (sizeof(struct rtnl_link_stats64) / sizeof(__u64))

static int nlerr(int nle, const char *what)
{
	int e;

	switch (-nle) {
	case NLE_NOMEM: e = ENOMEM; break;
	case NLE_PERM: e = EPERM; break;
	case NLE_OPNOTSUPP: e = EOPNOTSUPP; break;
	case NLE_INVAL: e = EINVAL; break;
	case NLE_NODEV: e = ENODEV; break;
	case NLE_AGAIN: e = EAGAIN; break;
	case NLE_MSG_TRUNC: e = EMSGSIZE; break;
	default: e = EIO; break;
	}
	lr_log(LR_LOG_WARN, "netlink %s: %s", what, nl_geterror(nle));
	return -e;
}

static void counters_from_raw(const void *data, size_t len, struct lr_link_counters *ctr)
{
	struct rtnl_link_stats64 s;
	size_t n = len / sizeof(__u64);

	memset(&s, 0, sizeof(s));
	memcpy(&s, data, len < sizeof(s) ? len : sizeof(s));
	lr_nllink_from_stats64(&s, ctr);
	/* An older kernel's shorter struct lacks the tail fields: unknown, not 0. */
	if (n < STATS64_FIELDS && n < LR_M_NIC_FIFO)
		ctr->valid &= (UINT64_C(1) << n) - 1;
}

void lr_nllink_from_stats64(const struct rtnl_link_stats64 *s, struct lr_link_counters *ctr)
{
	const __u64 *f = (const __u64 *)s;
	unsigned n = STATS64_FIELDS < LR_M_NIC_FIFO ? (unsigned)STATS64_FIELDS : LR_M_NIC_FIFO;

	for (unsigned i = 0; i < n; i++)
		ctr->v[i] = f[i];
	ctr->valid = (UINT64_C(1) << n) - 1;
}

int lr_nllink_parse_link(struct nlmsghdr *nlh, struct lr_link_info *info,
			 struct lr_link_counters *ctr, bool *has_ctr)
{
	struct nlattr *tb[IFLA_MAX + 1];
	struct ifinfomsg *ifi;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return -ENOENT;
	if (nlmsg_parse(nlh, sizeof(*ifi), tb, IFLA_MAX, NULL) < 0)
		return -EINVAL;
	ifi = nlmsg_data(nlh);
	memset(info, 0, sizeof(*info));
	info->ifindex = ifi->ifi_index;
	info->flags = ifi->ifi_flags;
	info->mtu = -1;
	if (!tb[IFLA_IFNAME])
		return -EINVAL;
	lr_strlcpy(info->name, nla_get_string(tb[IFLA_IFNAME]), sizeof(info->name));
	if (tb[IFLA_MTU] && nla_len(tb[IFLA_MTU]) >= 4)
		info->mtu = nla_get_u32(tb[IFLA_MTU]);
	if (tb[IFLA_OPERSTATE] && nla_len(tb[IFLA_OPERSTATE]) >= 1)
		info->operstate = nla_get_u8(tb[IFLA_OPERSTATE]);
	if (tb[IFLA_MASTER] && nla_len(tb[IFLA_MASTER]) >= 4)
		info->master = (int)nla_get_u32(tb[IFLA_MASTER]);
	if (tb[IFLA_LINKINFO]) {
		struct nlattr *li[IFLA_INFO_MAX + 1];

		if (nla_parse_nested(li, IFLA_INFO_MAX, tb[IFLA_LINKINFO], NULL) >= 0 &&
		    li[IFLA_INFO_KIND])
			lr_strlcpy(info->kind, nla_get_string(li[IFLA_INFO_KIND]),
				   sizeof(info->kind));
	}
	*has_ctr = false;
	if (ctr && tb[IFLA_STATS64] && nla_len(tb[IFLA_STATS64]) >= 4 * (int)sizeof(__u64)) {
		memset(ctr, 0, sizeof(*ctr));
		ctr->ifindex = info->ifindex;
		counters_from_raw(nla_data(tb[IFLA_STATS64]), (size_t)nla_len(tb[IFLA_STATS64]), ctr);
		*has_ctr = true;
	}
	return 0;
}

int lr_nllink_parse_stats(struct nlmsghdr *nlh, struct lr_link_counters *ctr)
{
	struct nlattr *tb[IFLA_STATS_MAX + 1];
	struct if_stats_msg *ifsm;

	if (nlh->nlmsg_type != RTM_NEWSTATS)
		return -ENOENT;
	if (nlmsg_parse(nlh, sizeof(*ifsm), tb, IFLA_STATS_MAX, NULL) < 0)
		return -EINVAL;
	ifsm = nlmsg_data(nlh);
	if (!tb[IFLA_STATS_LINK_64] || nla_len(tb[IFLA_STATS_LINK_64]) < 4 * (int)sizeof(__u64))
		return -EINVAL;
	memset(ctr, 0, sizeof(*ctr));
	ctr->ifindex = (int)ifsm->ifindex;
	counters_from_raw(nla_data(tb[IFLA_STATS_LINK_64]), (size_t)nla_len(tb[IFLA_STATS_LINK_64]),
			  ctr);
	return 0;
}

struct dump_ctx {
	lr_link_cb link_cb;
	lr_counters_cb ctr_cb;
	void *arg;
	int err;
};

static int on_message(struct nlmsghdr *nlh, struct dump_ctx *ctx)
{
	struct lr_link_info info;
	struct lr_link_counters ctr;
	bool has_ctr;

	if (nlh->nlmsg_type == RTM_NEWSTATS) {
		if (!lr_nllink_parse_stats(nlh, &ctr))
			return ctx->ctr_cb(&ctr, ctx->arg);
		return 0;
	}
	if (lr_nllink_parse_link(nlh, &info, &ctr, &has_ctr))
		return 0;
	if (ctx->link_cb)
		return ctx->link_cb(&info, has_ctr ? &ctr : NULL, ctx->arg);
	if (ctx->ctr_cb && has_ctr)
		return ctx->ctr_cb(&ctr, ctx->arg);
	return 0;
}

static int on_message_cb(struct nlmsghdr *nlh, void *arg)
{
	return on_message(nlh, arg);
}

int lr_nllink_dump_raw(struct lr_nllink *nl, int type, const void *req, size_t len,
		       lr_nldump_cb cb, void *arg, const char *what)
{
	struct {
		struct nlmsghdr nlh;
		char payload[64];
	} msg;
	struct lr_nldump d = {
		.fd = nl_socket_get_fd(nl->dump), .seq = nl->seq,
		.buf = nl->buf, .buf_len = nl->buf_len,
	};
	int err;

	memset(&msg, 0, sizeof(msg));
	msg.nlh.nlmsg_len = (uint32_t)NLMSG_LENGTH(len);
	msg.nlh.nlmsg_type = (uint16_t)type;
	if (len > sizeof(msg.payload))
		return -EINVAL;
	memcpy(NLMSG_DATA(&msg.nlh), req, len);
	err = lr_nldump_run(&d, &msg.nlh, cb, arg, what);
	nl->seq = d.seq;
	return err;
}

/* One link or stats dump, each message through on_message. */
static int dump(struct lr_nllink *nl, int type, const void *req, size_t len,
		struct dump_ctx *ctx, const char *what)
{
	return lr_nllink_dump_raw(nl, type, req, len, on_message_cb, ctx, what);
}

int lr_nllink_dump_links(struct lr_nllink *nl, lr_link_cb cb, void *arg)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC};
	struct dump_ctx ctx = {.link_cb = cb, .arg = arg};

	return dump(nl, RTM_GETLINK, &ifi, sizeof(ifi), &ctx, "link dump");
}

int lr_nllink_dump_counters(struct lr_nllink *nl, lr_counters_cb cb, void *arg)
{
	struct if_stats_msg ifsm = {
		.family = AF_UNSPEC,
		.filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64),
	};
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC};
	struct dump_ctx ctx = {.ctr_cb = cb, .arg = arg};
	int err;

	if (!nl->no_getstats) {
		err = dump(nl, RTM_GETSTATS, &ifsm, sizeof(ifsm), &ctx, "stats dump");
		if (err != -EOPNOTSUPP && err != -EINVAL)
			return err;
		lr_log(LR_LOG_INFO, "RTM_GETSTATS unavailable: reading stats64 from link dumps");
		nl->no_getstats = true;
	}
	ctx.err = 0;
	return dump(nl, RTM_GETLINK, &ifi, sizeof(ifi), &ctx, "link dump");
}

bool lr_nllink_links_changed(struct lr_nllink *nl)
{
	char buf[8192];
	int fd = nl_socket_get_fd(nl->events);
	bool changed = nl->changed;

	nl->changed = false;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n > 0) {
			changed = true;
			continue;
		}
		if (n < 0 && errno == ENOBUFS) {	/* overflowed: something surely changed */
			changed = true;
			continue;
		}
		break;
	}
	return changed;
}

int lr_nllink_open(struct lr_nllink **out)
{
	struct lr_nllink *nl = calloc(1, sizeof(*nl));
	int err;

	if (!nl)
		return -ENOMEM;
	nl->dump = nl_socket_alloc();
	nl->events = nl_socket_alloc();
	if (!nl->dump || !nl->events) {
		err = -ENOMEM;
		goto err_free;
	}
	err = nl_connect(nl->dump, NETLINK_ROUTE);
	if (err < 0) {
		err = nlerr(err, "connect");
		goto err_free;
	}
	nl_socket_set_buffer_size(nl->dump, 1 << 20, 0);	/* big dumps: hundreds of links */
	nl->buf_len = 64 * 1024;
	nl->buf = malloc(nl->buf_len);
	if (!nl->buf) {
		err = -ENOMEM;
		goto err_free;
	}
	nl_socket_disable_seq_check(nl->events);
	err = nl_connect(nl->events, NETLINK_ROUTE);
	if (err >= 0)
		err = nl_socket_add_membership(nl->events, RTNLGRP_LINK);
	if (err < 0) {
		err = nlerr(err, "link notifications");
		goto err_free;
	}
	*out = nl;
	return 0;
err_free:
	free(nl->buf);
	nl_socket_free(nl->events);
	nl_socket_free(nl->dump);
	free(nl);
	return err;
}

void lr_nllink_close(struct lr_nllink *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->events);
	nl_socket_free(nl->dump);
	free(nl->buf);
	free(nl);
}
