/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One netlink dump on a socket's fd with the caller's buffer: the request is sent as given,
 * the replies are received into buf and each message is handed to a callback until
 * NLMSG_DONE. libnl's nl_send/nl_recv allocate a message per call; the collectors dump every
 * tick, so they use this instead (rtnetlink stats, netdev qstats). [sampler] */
#ifndef LINERATE_NLDUMP_H
#define LINERATE_NLDUMP_H

#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct nlmsghdr;

/* Non-zero from the callback is kept (the first one) and returned once the dump ends. */
typedef int (*lr_nldump_cb)(struct nlmsghdr *nlh, void *arg);

struct lr_nldump {
	int fd;
	uint32_t seq;		/* the last request's sequence number */
	char *buf;		/* one reply datagram */
	size_t buf_len;
};

/* Sends req (a complete message: header and payload, req->nlmsg_len bytes; its seq is set
 * here and NLM_F_REQUEST|NLM_F_DUMP added) and walks the replies. 0, the callback's first
 * non-zero value, the kernel's -errno, or -errno of send/recv. `what` names the dump in the
 * log. */
int lr_nldump_run(struct lr_nldump *d, struct nlmsghdr *req, lr_nldump_cb cb, void *arg,
		  const char *what) LR_MUST_CHECK;

/* Replies back to back in buf, as a dump receives them or a test recorded them (perhaps
 * unaligned): each message, copied aligned, to cb, until NLMSG_DONE or the end. 0, cb's first
 * non-zero value (the walk stops there), or -EINVAL when the framing is broken (a length below
 * the header, past the end, or over 8 KiB: no reply a collector reads is that long). */
int lr_nldump_walk(const void *buf, size_t len, lr_nldump_cb cb, void *arg);

#endif
