/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which interface traffic to a host leaves by: the kernel's own route choice, asked by
 * connecting a UDP socket (no packet is sent) and matching its local address. [any] */
#ifndef LINERATE_ROUTE_H
#define LINERATE_ROUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "linerate/core/common.h"

/* host: a name or address. Fills ifname. 0, -ENOENT (no interface has the source address),
 * -EHOSTUNREACH / -ENETUNREACH (no route), -EINVAL (host does not resolve). */
int lr_route_iface(const char *host, char *ifname, size_t len) LR_MUST_CHECK;

/* Is host on this host's link (docs/design.md §14's wire stage)? The kernel's route to it
 * (RTM_GETROUTE, as `ip route get`) is unicast without a gateway, and the address falls in a
 * prefix of that interface's own addresses (or is its point-to-point peer): one L2 segment,
 * switches and all, no router. Fills ifname with the route's interface and *one_link. 0,
 * -EINVAL (does not resolve), -ENETUNREACH / -EHOSTUNREACH (no route), -errno. [any] */
int lr_route_one_link(const char *host, char *ifname, size_t len, bool *one_link) LR_MUST_CHECK;

#endif
