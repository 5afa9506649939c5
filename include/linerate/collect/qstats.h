/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-queue counters from the kernel's netdev generic-netlink family (`qstats-get` with
 * scope=queue, Linux >= 6.8, drivers that implement it: virtio_net, mlx5, bnxt, ice, idpf,
 * gve, ...). One dump answers every queue of every device that supports it; a device without
 * it is simply absent. The message parser is pure so that replies recorded from a kernel
 * replay in unit tests and the fuzzer feeds it garbage. [sampler] */
#ifndef LINERATE_QSTATS_H
#define LINERATE_QSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "linerate/collect/queue_names.h"
#include "linerate/core/common.h"

/* The queue-level counters we use; rx and tx queues fill different ones. */
enum lr_qstat_field {
	LR_QS_PACKETS,		/* rx-packets / tx-packets */
	LR_QS_BYTES,		/* rx-bytes / tx-bytes */
	LR_QS_HW_DROPS,		/* rx-hw-drops / tx-hw-drops: entered the device, never left */
	LR_QS_HW_DROP_OVERRUNS,	/* rx: no buffer or descriptor (the FIFO-miss family) */
	LR_QS_ALLOC_FAIL,	/* rx: skb or buffer allocation failed */
	LR_QS_TX_STOP,		/* tx: the driver stopped the queue (it was full) */
	LR_QS__COUNT
};

#define LR_QS_BIT(f) (1u << (f))

struct lr_qstat {
	int ifindex;
	unsigned queue;
	enum lr_queue_dir dir;	/* LR_QDIR_RX or LR_QDIR_TX */
	uint32_t valid;		/* LR_QS_BIT(f): v[f] was in the reply */
	uint64_t v[LR_QS__COUNT];
};

struct lr_qstats;	/* opaque: the generic-netlink socket and the family's id */
struct nlmsghdr;

/* Resolves the netdev family. 0, -ENOENT when the kernel has no such family (before 6.5),
 * other -errno. */
int lr_qstats_open(struct lr_qstats **out) LR_MUST_CHECK;
void lr_qstats_close(struct lr_qstats *q);	/* NULL-safe */

/* Dumps every queue of every device (ifindex 0) or of one. Fills out[0..*n) (caller-owned,
 * cap entries; the rest are counted in *n but not stored, so *n > cap says "grow").
 * 0, -EOPNOTSUPP when the kernel lacks qstats-get (before 6.8) or the one device has none,
 * other -errno. */
int lr_qstats_read(struct lr_qstats *q, int ifindex, struct lr_qstat *out, size_t cap,
		   size_t *n) LR_MUST_CHECK;

/* One reply message (a generic-netlink header then attributes) into *out: 0, -ENOENT when it
 * is not a per-queue reply (the device-scope form), -EINVAL when malformed. */
int lr_qstats_parse(const struct nlmsghdr *nlh, struct lr_qstat *out);

/* Replies back to back (a datagram, a recording): each per-queue one into out[0..*n), at most
 * cap; device-scope and other messages are skipped. 0, or -EINVAL when the framing or a reply
 * is malformed (what parsed before it is kept). */
int lr_qstats_parse_all(const void *buf, size_t len, struct lr_qstat *out, size_t cap,
			size_t *n);

const char *lr_qstat_field_name(enum lr_qstat_field f);	/* "packets", "hw_drops", ... */

#endif
