// SPDX-License-Identifier: GPL-2.0-or-later
/* iperf3's per-data-socket options, one place for the client and the server. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <linux/in6.h>

#include "sockopts.h"

static int family_of(int fd)
{
	struct sockaddr_storage ss = {0};
	socklen_t sl = sizeof(ss);

	return getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 ? ss.ss_family : AF_UNSPEC;
}

static int set(int fd, int level, int name, const void *v, socklen_t l, const char *nm,
	       const char **what)
{
	if (setsockopt(fd, level, name, v, l) == 0)
		return 0;
	*what = nm;
	return -errno;
}

int lr_data_sockopts_apply(int fd, bool udp, const struct lr_data_sockopts *o, const char **what)
{
	int one = 1, rc = 0, fam = family_of(fd);

	if (o->nodelay && !udp)
		rc = set(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one), "TCP_NODELAY", what);
	if (!rc && o->tos) {
		/* an IPv6 socket may carry IPv4 (v4-mapped): both fields, as each family
		 * reads its own */
		rc = set(fd, IPPROTO_IP, IP_TOS, &o->tos, sizeof(o->tos), "IP_TOS", what);
		if (fam == AF_INET6)
			rc = set(fd, IPPROTO_IPV6, IPV6_TCLASS, &o->tos, sizeof(o->tos),
				 "IPV6_TCLASS", what);
	}
	if (!rc && o->fq_rate_bps) {
		uint64_t bytes = o->fq_rate_bps / 8;	/* the kernel takes bytes/s (u64 since 4.x) */

		rc = set(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &bytes, sizeof(bytes),
			 "SO_MAX_PACING_RATE", what);
	}
	if (!rc && o->dont_fragment) {
		int v4 = IP_PMTUDISC_DO, v6 = IPV6_PMTUDISC_DO;

		rc = set(fd, IPPROTO_IP, IP_MTU_DISCOVER, &v4, sizeof(v4), "IP_MTU_DISCOVER", what);
		if (!rc && fam == AF_INET6)
			rc = set(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &v6, sizeof(v6),
				 "IPV6_MTU_DISCOVER", what);
	}
	return rc;
}

int lr_sock_flowlabel(int fd, const struct sockaddr_in6 *dst, uint32_t label)
{
	struct in6_flowlabel_req req;
	int one = 1;

	memset(&req, 0, sizeof(req));
	req.flr_dst = dst->sin6_addr;
	req.flr_label = htonl(label & IPV6_FLOWINFO_FLOWLABEL);
	req.flr_action = IPV6_FL_A_GET;
	req.flr_flags = IPV6_FL_F_CREATE;	/* new, or the one other streams already hold */
	req.flr_share = IPV6_FL_S_ANY;	/* -P streams share it */
	if (setsockopt(fd, IPPROTO_IPV6, IPV6_FLOWLABEL_MGR, &req, sizeof(req)) < 0 ||
	    setsockopt(fd, IPPROTO_IPV6, IPV6_FLOWINFO_SEND, &one, sizeof(one)) < 0)
		return -errno;
	return 0;
}

int lr_sock_keepalive(int fd, int idle, int intv, int cnt)
{
	int one = 1;

	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one)) < 0 ||
	    (idle && setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle)) < 0) ||
	    (intv && setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intv, sizeof(intv)) < 0) ||
	    (cnt && setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt)) < 0))
		return -errno;
	return 0;
}
