// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Qdisc statistics over rtnetlink: one RTM_GETQDISC dump of every device on the sampler's
 * route socket (nllink.c's, with its reply buffer: the tick allocates nothing), each reply read
 * attribute by attribute with every length checked, as it is input from outside the process
 * (fuzz_qdisc). Not libnl-route's rtnl_qdisc cache: a refill allocates and frees an object per
 * qdisc per tick and parses every kind's options, which linerate never reads.
 */
#include <errno.h>
#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "linerate/collect/nldump.h"
#include "linerate/collect/nllink.h"
#include "linerate/collect/qdisc.h"

struct dump_ctx {
	struct lr_qdisc_stats *out;
	size_t cap, n;
};

/* The first attribute inside [at, end), or NULL when none is whole. */
static const struct nlattr *attr_at(const char *at, const char *end)
{
	const struct nlattr *a = (const struct nlattr *)at;

	if (end - at < NLA_HDRLEN || a->nla_len < NLA_HDRLEN || a->nla_len > end - at)
		return NULL;
	return a;
}

static int parse_stats2(const struct nlattr *nest, struct lr_qdisc_stats *out)
{
	const char *p = (const char *)nest + NLA_HDRLEN, *end = (const char *)nest + nest->nla_len;
	bool basic = false, queue = false, pkt64 = false;

	while (p < end) {
		const struct nlattr *a = attr_at(p, end);
		const char *d;
		size_t len;

		if (!a)
			return -EINVAL;
		d = (const char *)a + NLA_HDRLEN;
		len = a->nla_len - NLA_HDRLEN;
		switch (a->nla_type & NLA_TYPE_MASK) {
		case TCA_STATS_BASIC: {	/* struct gnet_stats_basic: u64 bytes, u32 packets */
			uint32_t pk;

			if (len < 12)
				return -EINVAL;
			memcpy(&out->v[LR_QD_BYTES], d, 8);
			memcpy(&pk, d + 8, 4);
			if (!pkt64)	/* PKT64 may come first */
				out->v[LR_QD_PACKETS] = pk;
			basic = true;
			break;
		}
		case TCA_STATS_PKT64:	/* the whole count, once it passed 2^32 */
			if (len != 8)
				return -EINVAL;
			memcpy(&out->v[LR_QD_PACKETS], d, 8);
			pkt64 = true;
			break;
		case TCA_STATS_QUEUE: {	/* struct gnet_stats_queue */
			struct gnet_stats_queue q;

			if (len < sizeof(q))
				return -EINVAL;
			memcpy(&q, d, sizeof(q));
			out->v[LR_QD_QLEN] = q.qlen;
			out->v[LR_QD_BACKLOG_BYTES] = q.backlog;
			out->v[LR_QD_DROPS] = q.drops;
			out->v[LR_QD_REQUEUES] = q.requeues;
			out->v[LR_QD_OVERLIMITS] = q.overlimits;
			queue = true;
			break;
		}
		default:	/* rate estimators, the kind's own xstats, hardware counters */
			break;
		}
		p += NLA_ALIGN(a->nla_len);
	}
	/* one part without the other is not how a kernel answers: nothing of it is trusted */
	if (basic != queue)
		return -EINVAL;
	if (basic)
		out->valid = LR_QD_COUNTERS | LR_QD_GAUGES;
	return 0;
}

int lr_qdisc_parse(const struct nlmsghdr *nlh, struct lr_qdisc_stats *out)
{
	const char *p, *end;
	struct tcmsg tcm;
	bool kind = false;

	memset(out, 0, sizeof(*out));
	if (nlh->nlmsg_type != RTM_NEWQDISC)
		return -ENOENT;
	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(tcm)))
		goto bad;
	memcpy(&tcm, NLMSG_DATA(nlh), sizeof(tcm));
	if (tcm.tcm_ifindex <= 0)
		goto bad;
	out->ifindex = tcm.tcm_ifindex;
	out->handle = tcm.tcm_handle;
	out->parent = tcm.tcm_parent;
	p = (const char *)nlh + NLMSG_SPACE(sizeof(tcm));
	end = (const char *)nlh + nlh->nlmsg_len;
	while (p < end) {
		const struct nlattr *a = attr_at(p, end);
		const char *d;
		size_t len;

		if (!a)
			goto bad;
		d = (const char *)a + NLA_HDRLEN;
		len = a->nla_len - NLA_HDRLEN;
		switch (a->nla_type & NLA_TYPE_MASK) {
		case TCA_KIND:	/* a NUL-terminated name, IFNAMSIZ at most */
			if (len < 2 || len > sizeof(out->kind) || !memchr(d, '\0', len) || !d[0])
				goto bad;
			memcpy(out->kind, d, len);
			kind = true;
			break;
		case TCA_STATS2:
			if (parse_stats2(a, out) < 0)
				goto bad;
			break;
		default:	/* options, the legacy TCA_STATS copy, xstats: not ours */
			break;
		}
		p += NLA_ALIGN(a->nla_len);
	}
	if (kind)
		return 0;
bad:
	{
		int ifindex = out->ifindex;

		memset(out, 0, sizeof(*out));
		out->ifindex = ifindex;
		out->bad = true;
	}
	return -EINVAL;
}

/* What the dump and a recording share: every reply message, good or bad, counted. */
static int on_reply(struct nlmsghdr *nlh, void *arg)
{
	struct dump_ctx *c = arg;
	struct lr_qdisc_stats qd;

	if (lr_qdisc_parse(nlh, &qd) == -ENOENT)
		return 0;	/* not a qdisc: nothing to say about any interface */
	if (c->n < c->cap)
		c->out[c->n] = qd;
	c->n++;
	return 0;
}

int lr_qdisc_parse_all(const void *buf, size_t len, struct lr_qdisc_stats *out, size_t cap,
		       size_t *n)
{
	struct dump_ctx c = {.out = out, .cap = cap};
	int rc = lr_nldump_walk(buf, len, on_reply, &c);

	*n = c.n;
	return rc;
}

int lr_qdisc_read(struct lr_nllink *nl, struct lr_qdisc_stats *out, size_t cap, size_t *n)
{
	struct tcmsg tcm = {.tcm_family = AF_UNSPEC};	/* ifindex 0: every device */
	struct dump_ctx c = {.out = out, .cap = cap};
	int rc;

	*n = 0;
	rc = lr_nllink_dump_raw(nl, RTM_GETQDISC, &tcm, sizeof(tcm), on_reply, &c, "qdisc dump");
	if (rc < 0)
		return rc;
	*n = c.n;
	return 0;
}

const char *lr_qdisc_field_name(enum lr_qdisc_field f)
{
	static const char *const names[LR_QD__COUNT] = {
		[LR_QD_BYTES] = "bytes",
		[LR_QD_PACKETS] = "packets",
		[LR_QD_DROPS] = "drops",
		[LR_QD_OVERLIMITS] = "overlimits",
		[LR_QD_REQUEUES] = "requeues",
		[LR_QD_BACKLOG_BYTES] = "backlog_bytes",
		[LR_QD_QLEN] = "backlog_packets",
	};

	return (unsigned)f < LR_QD__COUNT ? names[f] : "?";
}

const char *lr_qdisc_handle_str(uint32_t h, char *buf, size_t len)
{
	uint32_t maj = h >> 16, min = h & 0xffff;

	if (h == LR_QDISC_PARENT_ROOT)
		snprintf(buf, len, "root");
	else if (!min)
		snprintf(buf, len, "%x:", maj);
	else if (!maj)
		snprintf(buf, len, ":%x", min);
	else
		snprintf(buf, len, "%x:%x", maj, min);
	return buf;
}
