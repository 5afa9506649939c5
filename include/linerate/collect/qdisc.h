/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every qdisc of every interface: one RTM_GETQDISC dump per tick on the sampler's rtnetlink
 * socket (nllink.h), each RTM_NEWQDISC reply translated into a plain struct: where it sits
 * (ifindex, handle, parent), what it is (kind) and its TCA_STATS2 figures. The translation is
 * pure, so replies recorded from a kernel replay in unit tests (tests/fixtures/qdisc/) through
 * the very code the dump uses, and the fuzzer feeds it garbage. docs/design.md §14, stage
 * "qdisc". [sampler] */
#ifndef LINERATE_QDISC_H
#define LINERATE_QDISC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

/* TCA_STATS2's figures. The kernel keeps drops, overlimits and requeues as 32-bit counters
 * (struct gnet_stats_queue) that wrap; bytes are 64-bit, and packets are too: past 2^32 the
 * kernel adds TCA_STATS_PKT64 with the whole count, which is read instead. */
enum lr_qdisc_field {
	LR_QD_BYTES,		/* sent, cumulative */
	LR_QD_PACKETS,		/* sent, cumulative */
	LR_QD_DROPS,		/* cumulative, 32-bit */
	LR_QD_OVERLIMITS,	/* cumulative, 32-bit: times this qdisc itself throttled */
	LR_QD_REQUEUES,		/* cumulative, 32-bit: the driver handed a packet back */
	LR_QD_BACKLOG_BYTES,	/* gauge: bytes queued now */
	LR_QD_QLEN,		/* gauge: packets queued now */
	LR_QD__COUNT
};

#define LR_QD_BIT(f) (1u << (f))
#define LR_QD_COUNTERS                                                                  \
	(LR_QD_BIT(LR_QD_BYTES) | LR_QD_BIT(LR_QD_PACKETS) | LR_QD_BIT(LR_QD_DROPS) |    \
	 LR_QD_BIT(LR_QD_OVERLIMITS) | LR_QD_BIT(LR_QD_REQUEUES))
#define LR_QD_GAUGES (LR_QD_BIT(LR_QD_BACKLOG_BYTES) | LR_QD_BIT(LR_QD_QLEN))

/* TC_H_ROOT and TC_H_INGRESS of linux/pkt_sched.h, without pulling it into every header. */
#define LR_QDISC_PARENT_ROOT    0xffffffffu	/* the egress root */
#define LR_QDISC_PARENT_INGRESS 0xfffffff1u	/* ingress and clsact: not on the egress path */

struct lr_qdisc_stats {
	int ifindex;		/* > 0; 0 only in a bad entry whose header was unreadable */
	uint32_t handle;	/* major << 16 | minor: tc's "1:" is 0x00010000; 0 for defaults */
	uint32_t parent;	/* LR_QDISC_PARENT_*, or a class of the parent qdisc (1:10) */
	char kind[16];		/* TCA_KIND: "tbf", "pfifo_fast", "noqueue", "mq", ... */
	uint32_t valid;		/* LR_QD_BIT(f): v[f] was in the reply (all or none of TCA_STATS2's
				 * basic and queue parts) */
	uint64_t v[LR_QD__COUNT];
	bool bad;		/* the reply did not parse: of the above, only ifindex means anything */
};

struct lr_nllink;
struct nlmsghdr;

/* One dump of every qdisc of every interface on nl's socket. Fills out[0..*n) (caller-owned,
 * cap entries; the rest are counted in *n but not stored, so *n > cap says "grow"), in the
 * kernel's order: per device its root first, then the rest of its tree. A reply that does not
 * parse is an entry with bad set, so the caller can tell which interface it concerned.
 * 0 or -errno. */
int lr_qdisc_read(struct lr_nllink *nl, struct lr_qdisc_stats *out, size_t cap, size_t *n)
	LR_MUST_CHECK;

/* One reply into *out: 0, -ENOENT when it is not an RTM_NEWQDISC, -EINVAL when malformed (then
 * out->ifindex is the header's when that much was readable, else 0). */
int lr_qdisc_parse(const struct nlmsghdr *nlh, struct lr_qdisc_stats *out);

/* Replies back to back (a datagram, a recording) as the dump hands them over: each
 * RTM_NEWQDISC into out[0..*n) (bad ones included, flagged), counted as lr_qdisc_read counts.
 * 0, or -EINVAL when the framing itself is broken (what came before it is kept). */
int lr_qdisc_parse_all(const void *buf, size_t len, struct lr_qdisc_stats *out, size_t cap,
		       size_t *n);

const char *lr_qdisc_field_name(enum lr_qdisc_field f);	/* "drops", "backlog_bytes", ... */
/* tc's spelling of a handle or parent into buf ("1:", "8001:", "1:10", "ffff:fff1", "root");
 * returns buf. */
const char *lr_qdisc_handle_str(uint32_t h, char *buf, size_t len);

#endif
