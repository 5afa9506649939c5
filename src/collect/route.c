// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The interface a host is reached through. connect() on a UDP socket makes the kernel pick
 * the route and source address without sending anything; the interface holding that source
 * address is the one the test traffic leaves by. Works unprivileged and in any namespace.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
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
