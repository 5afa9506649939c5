/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which interface traffic to a host leaves by: the kernel's own route choice, asked by
 * connecting a UDP socket (no packet is sent) and matching its local address. [any] */
#ifndef LINERATE_ROUTE_H
#define LINERATE_ROUTE_H

#include <stddef.h>

#include "linerate/core/common.h"

/* host: a name or address. Fills ifname. 0, -ENOENT (no interface has the source address),
 * -EHOSTUNREACH / -ENETUNREACH (no route), -EINVAL (host does not resolve). */
int lr_route_iface(const char *host, char *ifname, size_t len) LR_MUST_CHECK;

#endif
