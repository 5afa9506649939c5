// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The interface a host is reached through. connect() on a UDP socket makes the kernel pick
 * the route and source address without sending anything; the interface holding that source
 * address is the one the test traffic leaves by. Works unprivileged and in any namespace.
 * Whether a host is on this host's link: the kernel's own route to it (RTM_GETROUTE, what
 * `ip route get` asks), without a gateway, into a prefix of the interface's own addresses.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/collect/route.h"
#include "linerate/core/strutil.h"

static bool same_addr(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	if (!a || a->sa_family != b->ss_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
	return false;
}

int lr_route_iface(const char *host, char *ifname, size_t len)
{
	struct addrinfo hints = {.ai_socktype = SOCK_DGRAM}, *ai;
	struct sockaddr_storage local = {.ss_family = AF_UNSPEC};	/* getsockname fills it */
	socklen_t llen = sizeof(local);
	struct ifaddrs *ifa, *i;
	int fd, err = -ENOENT;

	if (getaddrinfo(host, "9", &hints, &ai))
		return -EINVAL;
	fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = -errno;
		freeaddrinfo(ai);
		return err;
	}
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 ||
	    getsockname(fd, (struct sockaddr *)&local, &llen) < 0) {
		err = -errno;
		close(fd);
		freeaddrinfo(ai);
		return err;
	}
	close(fd);
	freeaddrinfo(ai);
	if (getifaddrs(&ifa) < 0)
		return -errno;
	for (i = ifa; i; i = i->ifa_next)
		if (same_addr(i->ifa_addr, &local)) {
			lr_strlcpy(ifname, i->ifa_name, len);
			err = 0;
			break;
		}
	freeifaddrs(ifa);
	return err;
}

/* a and b agree in the bits mask sets (both of family f) */
static bool same_prefix(int f, const struct sockaddr *a, const struct sockaddr *mask,
			const void *b)
{
	const uint8_t *x, *m, *y = b;
	size_t n;

	if (!a || !mask || a->sa_family != f)
		return false;
	if (f == AF_INET) {
		x = (const uint8_t *)&((const struct sockaddr_in *)a)->sin_addr;
		m = (const uint8_t *)&((const struct sockaddr_in *)mask)->sin_addr;
		n = 4;
	} else {
		x = (const uint8_t *)&((const struct sockaddr_in6 *)a)->sin6_addr;
		m = (const uint8_t *)&((const struct sockaddr_in6 *)mask)->sin6_addr;
		n = 16;
	}
	for (size_t i = 0; i < n; i++)
		if ((x[i] ^ y[i]) & m[i])
			return false;
	return true;
}

/* The destination falls in a prefix of one of ifname's own addresses, or is its point-to-point
 * peer: a device route alone (`default dev wg0`) may lead anywhere. */
static bool on_prefix(const char *ifname, int f, const void *dst)
{
	struct ifaddrs *ifa, *i;
	bool in = false;

	if (getifaddrs(&ifa) < 0)
		return false;
	for (i = ifa; i && !in; i = i->ifa_next) {
		if (strcmp(i->ifa_name, ifname))
			continue;
		in = same_prefix(f, i->ifa_addr, i->ifa_netmask, dst);
		if (!in && (i->ifa_flags & IFF_POINTOPOINT) && i->ifa_dstaddr &&
		    i->ifa_dstaddr->sa_family == f)
			in = !memcmp(f == AF_INET
					     ? (const void *)&((struct sockaddr_in *)i->ifa_dstaddr)->sin_addr
					     : (const void *)&((struct sockaddr_in6 *)i->ifa_dstaddr)->sin6_addr,
				     dst, f == AF_INET ? 4 : 16);
	}
	freeifaddrs(ifa);
	return in;
}

/* msg: the whole request (its header first), with room for the attribute */
static void put_attr(void *msg, unsigned short type, const void *data, size_t len)
{
	struct nlmsghdr *n = msg;
	struct rtattr *a = (struct rtattr *)((char *)msg + NLMSG_ALIGN(n->nlmsg_len));

	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(a), data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(a->rta_len);
}

/* One RTM_GETROUTE for dst (family f, 4 or 16 bytes; oif 0 or an IPv6 scope): the route's
 * type, its output interface and whether it goes through a gateway. 0 or -errno. */
static int get_route(int f, const void *dst, unsigned oif, unsigned char *type, int *out_oif,
		     bool *gateway)
{
	struct {
		struct nlmsghdr n;
		struct rtmsg r;
		char attrs[64];
	} req = {
		.n = {.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg)), .nlmsg_type = RTM_GETROUTE,
		      .nlmsg_flags = NLM_F_REQUEST, .nlmsg_seq = 1},
		.r = {.rtm_family = (unsigned char)f, .rtm_dst_len = f == AF_INET ? 32 : 128},
	};
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	union {
		struct nlmsghdr n;
		char b[8192];
	} rep;
	struct nlmsghdr *h = &rep.n;
	struct rtattr *a;
	ssize_t n;
	int fd, err = 0, len;

	put_attr(&req, RTA_DST, dst, f == AF_INET ? 4 : 16);
	if (oif)
		put_attr(&req, RTA_OIF, &oif, sizeof(oif));
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (sendto(fd, &req, req.n.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		err = -errno;
	do
		n = err ? 0 : recv(fd, rep.b, sizeof(rep.b), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err = -errno;
	close(fd);
	if (err)
		return err;
	if (!NLMSG_OK(h, (size_t)n))
		return -EBADMSG;
	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(h);

		return h->nlmsg_len >= NLMSG_LENGTH(sizeof(*e)) && e->error ? e->error : -EBADMSG;
	}
	if (h->nlmsg_type != RTM_NEWROUTE || h->nlmsg_len < NLMSG_LENGTH(sizeof(struct rtmsg)))
		return -EBADMSG;
	*type = ((struct rtmsg *)NLMSG_DATA(h))->rtm_type;
	*out_oif = 0;
	*gateway = false;
	len = (int)RTM_PAYLOAD(h);
	for (a = RTM_RTA(NLMSG_DATA(h)); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == RTA_OIF && RTA_PAYLOAD(a) >= sizeof(int))
			memcpy(out_oif, RTA_DATA(a), sizeof(int));
		else if (a->rta_type == RTA_GATEWAY || a->rta_type == RTA_VIA ||
			 a->rta_type == RTA_MULTIPATH)
			*gateway = true;
	}
	return 0;
}

int lr_route_one_link(const char *host, char *ifname, size_t len, bool *one_link)
{
	struct addrinfo hints = {.ai_socktype = SOCK_DGRAM}, *ai;
	struct in6_addr dst;
	char name[IF_NAMESIZE];
	unsigned scope = 0;
	unsigned char type;
	bool gateway;
	int f, oif = 0, err;

	*one_link = false;
	if (getaddrinfo(host, NULL, &hints, &ai))
		return -EINVAL;
	f = ai->ai_family;
	if (f == AF_INET) {
		memcpy(&dst, &((struct sockaddr_in *)ai->ai_addr)->sin_addr, 4);
	} else if (f == AF_INET6) {
		dst = ((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr;
		scope = ((struct sockaddr_in6 *)ai->ai_addr)->sin6_scope_id;	/* fe80::1%eth0 */
	} else {
		freeaddrinfo(ai);
		return -EAFNOSUPPORT;
	}
	freeaddrinfo(ai);
	err = get_route(f, &dst, scope, &type, &oif, &gateway);
	if (err)
		return err;
	if (oif <= 0 || !if_indextoname((unsigned)oif, name))
		return -ENOENT;
	lr_strlcpy(ifname, name, len);
	/* local (this host's own address, over lo), blackhole, unreachable: no link */
	*one_link = type == RTN_UNICAST && !gateway && on_prefix(name, f, &dst);
	return 0;
}
