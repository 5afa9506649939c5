// SPDX-License-Identifier: GPL-2.0-or-later
/* The netlink dump loop shared by the per-tick collectors (see nldump.h). */
#include <errno.h>
#include <stdbool.h>
#include <linux/netlink.h>
#include <netlink/msg.h>
#include <string.h>
#include <sys/socket.h>

#include "linerate/collect/nldump.h"
#include "linerate/core/log.h"

int lr_nldump_run(struct lr_nldump *d, struct nlmsghdr *req, lr_nldump_cb cb, void *arg,
		  const char *what)
{
	uint32_t seq = ++d->seq;
	bool done = false;
	int err = 0;
	ssize_t n;

	req->nlmsg_flags |= NLM_F_REQUEST | NLM_F_DUMP;
	req->nlmsg_seq = seq;
	if (send(d->fd, req, req->nlmsg_len, 0) < 0) {
		lr_log(LR_LOG_WARN, "netlink %s: %s", what, strerror(errno));
		return -errno;
	}
	while (!done) {
		struct nlmsghdr *h;
		int left;

		n = recv(d->fd, d->buf, d->buf_len, MSG_TRUNC);	/* returns the real length */
		if (n < 0) {
			if (errno == EINTR)
				continue;
			lr_log(LR_LOG_WARN, "netlink %s: %s", what, strerror(errno));
			return -errno;
		}
		if ((size_t)n > d->buf_len) {	/* cannot happen with the kernel's 32 KiB parts */
			lr_log(LR_LOG_WARN, "netlink %s: %zd-byte message truncated", what, n);
			n = (ssize_t)d->buf_len;
		}
		left = (int)n;
		for (h = (struct nlmsghdr *)d->buf; nlmsg_ok(h, left); h = nlmsg_next(h, &left)) {
			if (h->nlmsg_seq != seq)
				continue;	/* a late reply to an earlier, abandoned dump */
			if (h->nlmsg_type == NLMSG_DONE) {
				done = true;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = nlmsg_data(h);

				if (e->error)
					return e->error;	/* already -errno */
				done = true;
				break;
			}
			if (!err)
				err = cb(h, arg);
		}
	}
	return err;
}

int lr_nldump_walk(const void *buf, size_t len, lr_nldump_cb cb, void *arg)
{
	size_t off = 0;

	while (len - off >= NLMSG_HDRLEN) {
		uint32_t msg[2048];	/* the aligned copy */
		struct nlmsghdr h;
		int rc;

		memcpy(&h, (const char *)buf + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len - off ||
		    h.nlmsg_len > sizeof(msg))
			return -EINVAL;
		if (h.nlmsg_type == NLMSG_DONE)
			break;
		memcpy(msg, (const char *)buf + off, h.nlmsg_len);
		rc = cb((struct nlmsghdr *)msg, arg);
		if (rc)
			return rc;
		off += NLMSG_ALIGN(h.nlmsg_len);
		if (off > len)
			break;
	}
	return 0;
}
