// SPDX-License-Identifier: GPL-2.0-or-later
/* Test tool: `qstats_dump [--raw FILE] [IFINDEX]` asks the kernel's netdev family for every
 * queue's counters and prints one line per queue ("ifindex queue rx|tx packets bytes"), read
 * through linerate's collector; --raw also records the kernel's reply datagrams verbatim (the
 * unit tests' fixtures are made with it). Exit 0, 3 when the kernel has no qstats, 1 error. */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "linerate/collect/qstats.h"

static int record(const char *path, int ifindex)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_msg *msg = nlmsg_alloc();
	FILE *f = fopen(path, "wb");
	char buf[65536];
	int fam, done = 0, rc = 1;

	if (!sk || !msg || !f || genl_connect(sk) < 0 || (fam = genl_ctrl_resolve(sk, "netdev")) < 0)
		goto out;
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, fam, 0, NLM_F_DUMP, 12, 1);
	nla_put_u32(msg, 4, 1);	/* scope = queue */
	if (ifindex > 0)
		nla_put_u32(msg, 1, (unsigned)ifindex);
	if (nl_send_auto(sk, msg) < 0)
		goto out;
	while (!done) {
		int n = (int)recv(nl_socket_get_fd(sk), buf, sizeof(buf), 0);

		if (n <= 0)
			goto out;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			fwrite(h, 1, h->nlmsg_len, f);
		}
	}
	rc = 0;
out:
	if (f && fclose(f) != 0)
		rc = 1;
	nlmsg_free(msg);
	nl_socket_free(sk);
	return rc;
}

int main(int argc, char **argv)
{
	struct lr_qstats *q;
	struct lr_qstat qs[4096];
	const char *raw = NULL;
	int ifindex = 0, rc;
	size_t n;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--raw") && i + 1 < argc)
			raw = argv[++i];
		else
			ifindex = atoi(argv[i]);
	}
	rc = lr_qstats_open(&q);
	if (rc < 0) {
		fprintf(stderr, "qstats_dump: %s\n", strerror(-rc));
		return rc == -ENOENT ? 3 : 1;
	}
	rc = lr_qstats_read(q, ifindex, qs, 4096, &n);
	lr_qstats_close(q);
	if (rc < 0) {
		fprintf(stderr, "qstats_dump: %s\n", strerror(-rc));
		return rc == -EOPNOTSUPP ? 3 : 1;
	}
	for (size_t i = 0; i < n && i < 4096; i++)
		printf("%d %u %s %llu %llu\n", qs[i].ifindex, qs[i].queue,
		       lr_queue_dir_name(qs[i].dir), (unsigned long long)qs[i].v[LR_QS_PACKETS],
		       (unsigned long long)qs[i].v[LR_QS_BYTES]);
	return raw ? record(raw, ifindex) : 0;
}
