// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-queue counters over the netdev generic-netlink family (`qstats-get`, scope=queue).
 * The constants come from the kernel's Documentation/netlink/specs/netdev.yaml (uapi
 * linux/netdev.h): Debian 12's headers predate the family, so they are spelled out here.
 * The reply is parsed by hand, attribute by attribute, with every length checked: it is
 * input from outside the process (fuzz_qstats).
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/nldump.h"
#include "linerate/collect/qstats.h"
#include "linerate/core/log.h"

/* netdev.yaml (family "netdev", version 1) */
enum {
	NETDEV_CMD_QSTATS_GET_ = 12,
	QSTATS_A_IFINDEX = 1,
	QSTATS_A_QUEUE_TYPE = 2,
	QSTATS_A_QUEUE_ID = 3,
	QSTATS_A_SCOPE = 4,
	QSTATS_A_RX_PACKETS = 8,
	QSTATS_A_RX_BYTES = 9,
	QSTATS_A_TX_PACKETS = 10,
	QSTATS_A_TX_BYTES = 11,
	QSTATS_A_RX_ALLOC_FAIL = 12,
	QSTATS_A_RX_HW_DROPS = 13,
	QSTATS_A_RX_HW_DROP_OVERRUNS = 14,
	QSTATS_A_TX_HW_DROPS = 24,
	QSTATS_A_TX_STOP = 34,
	QUEUE_TYPE_RX = 0,
	QUEUE_TYPE_TX = 1,
	QSTATS_SCOPE_QUEUE = 1,
};

struct lr_qstats {
	struct nl_sock *sock;
	int family;
	struct lr_nldump dump;	/* the per-tick path: our buffer, no allocation */
};

struct dump_ctx {
	struct lr_qstat *out;
	size_t cap, n;
	int ifindex;
};

static int nle_to_errno(int nle)
{
	switch (nle < 0 ? -nle : nle) {
	case NLE_NOMEM: return -ENOMEM;
	case NLE_PERM: return -EPERM;
	case NLE_OPNOTSUPP: return -EOPNOTSUPP;
	case NLE_INVAL: return -EINVAL;
	case NLE_NODEV: return -ENODEV;
	case NLE_OBJ_NOTFOUND: return -ENOENT;
	default: return -EIO;
	}
}

int lr_qstats_open(struct lr_qstats **out)
{
	struct lr_qstats *q = calloc(1, sizeof(*q));
	int rc;

	*out = NULL;
	if (!q)
		return -ENOMEM;
	q->sock = nl_socket_alloc();
	if (!q->sock) {
		rc = -ENOMEM;
		goto err_free;
	}
	rc = genl_connect(q->sock);
	if (rc < 0) {
		lr_log(LR_LOG_WARN, "qstats: generic netlink: %s", nl_geterror(rc));
		rc = nle_to_errno(rc);
		goto err_sock;
	}
	q->family = genl_ctrl_resolve(q->sock, "netdev");
	if (q->family < 0) {	/* not an error worth a warning: an older kernel */
		lr_log(LR_LOG_DEBUG, "qstats: no netdev family: %s", nl_geterror(q->family));
		rc = -ENOENT;
		goto err_sock;
	}
	q->dump.fd = nl_socket_get_fd(q->sock);
	q->dump.buf_len = 64 * 1024;
	q->dump.buf = malloc(q->dump.buf_len);
	if (!q->dump.buf) {
		rc = -ENOMEM;
		goto err_sock;
	}
	*out = q;
	return 0;
err_sock:
	nl_socket_free(q->sock);
err_free:
	free(q);
	return rc;
}

void lr_qstats_close(struct lr_qstats *q)
{
	if (!q)
		return;
	nl_socket_free(q->sock);
	free(q->dump.buf);
	free(q);
}

/* netlink "uint": 4 or 8 bytes (the kernel sends the smallest that holds the value) */
static int attr_uint(const struct nlattr *a, uint64_t *v)
{
	size_t len = a->nla_len - NLA_HDRLEN;
	const unsigned char *p = (const unsigned char *)a + NLA_HDRLEN;

	if (len == 4) {
		uint32_t x;

		memcpy(&x, p, 4);
		*v = x;
		return 0;
	}
	if (len == 8) {
		memcpy(v, p, 8);
		return 0;
	}
	return -EINVAL;
}

static int field_of(int type, bool rx)
{
	switch (type) {
	case QSTATS_A_RX_PACKETS: return rx ? LR_QS_PACKETS : -1;
	case QSTATS_A_RX_BYTES: return rx ? LR_QS_BYTES : -1;
	case QSTATS_A_TX_PACKETS: return rx ? -1 : LR_QS_PACKETS;
	case QSTATS_A_TX_BYTES: return rx ? -1 : LR_QS_BYTES;
	case QSTATS_A_RX_ALLOC_FAIL: return rx ? LR_QS_ALLOC_FAIL : -1;
	case QSTATS_A_RX_HW_DROPS: return rx ? LR_QS_HW_DROPS : -1;
	case QSTATS_A_RX_HW_DROP_OVERRUNS: return rx ? LR_QS_HW_DROP_OVERRUNS : -1;
	case QSTATS_A_TX_HW_DROPS: return rx ? -1 : LR_QS_HW_DROPS;
	case QSTATS_A_TX_STOP: return rx ? -1 : LR_QS_TX_STOP;
	default: return -1;	/* checksum, GRO/GSO and newer counters: not ours */
	}
}

int lr_qstats_parse(const struct nlmsghdr *nlh, struct lr_qstat *out)
{
	const size_t head = NLMSG_HDRLEN + GENL_HDRLEN;
	uint64_t ifindex = 0, type = 0, id = 0, v;
	bool has_ifindex = false, has_type = false, has_id = false;
	int types[LR_QS__COUNT * 2], n_types = 0;	/* rx/tx sense is known only at the end */
	uint64_t raw[LR_QS__COUNT * 2];
	size_t off;

	if (nlh->nlmsg_len < head)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (off = head; off + NLA_HDRLEN <= nlh->nlmsg_len;) {
		const struct nlattr *a = (const struct nlattr *)((const char *)nlh + off);
		int t = a->nla_type & NLA_TYPE_MASK;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > nlh->nlmsg_len - off)
			return -EINVAL;
		if (t == QSTATS_A_IFINDEX || t == QSTATS_A_QUEUE_TYPE || t == QSTATS_A_QUEUE_ID) {
			if (attr_uint(a, &v) < 0)
				return -EINVAL;
			if (t == QSTATS_A_IFINDEX)
				ifindex = v, has_ifindex = true;
			else if (t == QSTATS_A_QUEUE_TYPE)
				type = v, has_type = true;
			else
				id = v, has_id = true;
		} else if (field_of(t, true) >= 0 || field_of(t, false) >= 0) {
			if (attr_uint(a, &v) < 0)
				return -EINVAL;
			if (n_types < (int)(sizeof(types) / sizeof(types[0]))) {
				types[n_types] = t;
				raw[n_types++] = v;
			}
		}
		off += NLA_ALIGN(a->nla_len);
	}
	if (!has_ifindex || ifindex == 0 || ifindex > INT32_MAX)
		return -EINVAL;
	if (!has_type || !has_id)
		return -ENOENT;	/* the device-scope form of the reply */
	if ((type != QUEUE_TYPE_RX && type != QUEUE_TYPE_TX) || id > UINT32_MAX)
		return -EINVAL;
	out->ifindex = (int)ifindex;
	out->queue = (unsigned)id;
	out->dir = type == QUEUE_TYPE_RX ? LR_QDIR_RX : LR_QDIR_TX;
	for (int i = 0; i < n_types; i++) {
		int f = field_of(types[i], type == QUEUE_TYPE_RX);

		if (f >= 0) {
			out->v[f] = raw[i];
			out->valid |= LR_QS_BIT(f);
		}
	}
	return 0;
}

struct walk_ctx {
	struct lr_qstat *out;
	size_t cap, n;
};

static int on_recorded(struct nlmsghdr *nlh, void *arg)
{
	struct walk_ctx *c = arg;
	int rc;

	if (c->n == c->cap)
		return 0;
	rc = lr_qstats_parse(nlh, &c->out[c->n]);
	if (rc == -EINVAL)
		return rc;
	if (rc == 0)
		c->n++;
	return 0;
}

int lr_qstats_parse_all(const void *buf, size_t len, struct lr_qstat *out, size_t cap,
			size_t *n)
{
	struct walk_ctx c = {.out = out, .cap = cap};
	int rc = lr_nldump_walk(buf, len, on_recorded, &c);

	*n = c.n;
	return rc;
}

static int on_reply(struct nlmsghdr *nlh, void *arg)
{
	struct dump_ctx *c = arg;
	struct lr_qstat qs;

	if (lr_qstats_parse(nlh, &qs) < 0)
		return 0;	/* the device-scope form, or a reply we cannot read: skipped */
	if (c->ifindex && qs.ifindex != c->ifindex)
		return 0;
	if (c->n < c->cap)
		c->out[c->n] = qs;
	c->n++;
	return 0;
}

static void put_u32_attr(char *at, int type, uint32_t v)
{
	struct nlattr a = { .nla_len = NLA_HDRLEN + 4, .nla_type = (uint16_t)type };

	memcpy(at, &a, sizeof(a));
	memcpy(at + NLA_HDRLEN, &v, 4);
}

int lr_qstats_read(struct lr_qstats *q, int ifindex, struct lr_qstat *out, size_t cap, size_t *n)
{
	struct dump_ctx c = { .out = out, .cap = cap, .ifindex = ifindex };
	union {
		struct nlmsghdr nlh;
		char bytes[NLMSG_HDRLEN + GENL_HDRLEN + 2 * (NLA_HDRLEN + 4)];
	} req;
	struct genlmsghdr g = { .cmd = NETDEV_CMD_QSTATS_GET_, .version = 1 };
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN;
	int rc;

	*n = 0;
	memset(&req, 0, sizeof(req));
	memcpy(req.bytes + NLMSG_HDRLEN, &g, sizeof(g));
	put_u32_attr(req.bytes + len, QSTATS_A_SCOPE, QSTATS_SCOPE_QUEUE);
	len += NLA_HDRLEN + 4;
	if (ifindex > 0) {
		put_u32_attr(req.bytes + len, QSTATS_A_IFINDEX, (uint32_t)ifindex);
		len += NLA_HDRLEN + 4;
	}
	req.nlh.nlmsg_len = (uint32_t)len;
	req.nlh.nlmsg_type = (uint16_t)q->family;
	rc = lr_nldump_run(&q->dump, &req.nlh, on_reply, &c, "qstats-get");
	if (rc < 0)
		return rc;	/* -EOPNOTSUPP: before 6.8, or the one device has none */
	*n = c.n;
	return 0;
}

const char *lr_qstat_field_name(enum lr_qstat_field f)
{
	static const char *const names[LR_QS__COUNT] = {
		[LR_QS_PACKETS] = "packets",
		[LR_QS_BYTES] = "bytes",
		[LR_QS_HW_DROPS] = "hw_drops",
		[LR_QS_HW_DROP_OVERRUNS] = "hw_drop_overruns",
		[LR_QS_ALLOC_FAIL] = "alloc_fail",
		[LR_QS_TX_STOP] = "tx_stop",
	};

	return (unsigned)f < LR_QS__COUNT ? names[f] : "?";
}
