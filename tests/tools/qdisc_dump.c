// SPDX-License-Identifier: GPL-2.0-or-later
/* Test tool: `qdisc_dump [--raw FILE]` dumps every qdisc of this namespace through linerate's
 * collector and prints one line per qdisc ("ifindex handle parent kind bytes packets drops
 * overlimits requeues backlog_bytes qlen", handles in tc's spelling, "bad" for a reply that did
 * not parse); --raw also records the kernel's reply messages verbatim, back to back without the
 * final NLMSG_DONE (the unit tests' fixtures under tests/fixtures/qdisc/ are made with it).
 * Exit 0, or 1 on an error. */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/collect/nllink.h"
#include "linerate/collect/qdisc.h"

static int record(const char *path)
{
	struct {
		struct nlmsghdr nlh;
		struct tcmsg tcm;
	} req = {
		.nlh = {.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)), .nlmsg_type = RTM_GETQDISC,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP, .nlmsg_seq = 1},
		.tcm = {.tcm_family = AF_UNSPEC},
	};
	static char buf[65536];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), done = 0, rc = 1;
	FILE *f = fopen(path, "wb");

	if (fd < 0 || !f || send(fd, &req, req.nlh.nlmsg_len, 0) < 0)
		goto out;
	while (!done) {
		int n = (int)recv(fd, buf, sizeof(buf), 0);

		if (n <= 0)
			goto out;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			fwrite(h, 1, NLMSG_ALIGN(h->nlmsg_len), f);
		}
	}
	rc = 0;
out:
	if (f && fclose(f) != 0)
		rc = 1;
	if (fd >= 0)
		close(fd);
	return rc;
}

int main(int argc, char **argv)
{
	static struct lr_qdisc_stats qd[4096];
	struct lr_nllink *nl;
	const char *raw = NULL;
	size_t n;
	int rc;

	if (argc == 3 && !strcmp(argv[1], "--raw"))
		raw = argv[2];
	else if (argc != 1) {
		fprintf(stderr, "usage: qdisc_dump [--raw FILE]\n");
		return 1;
	}
	rc = lr_nllink_open(&nl);
	if (!rc)
		rc = lr_qdisc_read(nl, qd, 4096, &n);
	lr_nllink_close(nl);
	if (rc < 0) {
		fprintf(stderr, "qdisc_dump: %s\n", strerror(-rc));
		return 1;
	}
	for (size_t i = 0; i < n && i < 4096; i++) {
		char h[16], p[16];

		if (qd[i].bad) {
			printf("%d bad\n", qd[i].ifindex);
			continue;
		}
		printf("%d %s %s %s", qd[i].ifindex,
		       lr_qdisc_handle_str(qd[i].handle, h, sizeof(h)),
		       lr_qdisc_handle_str(qd[i].parent, p, sizeof(p)), qd[i].kind);
		for (unsigned f = 0; f < LR_QD__COUNT; f++)
			if (qd[i].valid & LR_QD_BIT(f))
				printf(" %llu", (unsigned long long)qd[i].v[f]);
			else
				printf(" -");
		printf("\n");
	}
	return raw ? record(raw) : 0;
}
