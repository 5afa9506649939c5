/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iperf3's per-data-socket options, applied the same way by the client and the server: -N,
 * -S/--dscp, --fq-rate, --dont-fragment. Not an API. */
#ifndef LINERATE_SOCKOPTS_H
#define LINERATE_SOCKOPTS_H

#include <stdbool.h>
#include <stdint.h>

struct lr_data_sockopts {
	bool nodelay; /* TCP_NODELAY */
	int tos; /* IP_TOS, and IPV6_TCLASS on an IPv6 socket; 0 = leave */
	uint64_t fq_rate_bps; /* SO_MAX_PACING_RATE (bytes/s = this / 8); 0 = leave */
	bool dont_fragment; /* IP(V6)_MTU_DISCOVER = PMTUDISC_DO */
};

/* Applies o to the data socket fd (TCP when !udp). 0, or -errno of the first that failed, with
 * its name in *what. */
int lr_data_sockopts_apply(int fd, bool udp, const struct lr_data_sockopts *o, const char **what);

/* -L: the IPv6 flow label on a socket not yet connected to dst: the label is leased from the
 * kernel's flow label manager for dst (shared, created when new) and IPV6_FLOWINFO_SEND set, so
 * that connecting to dst with sin6_flowinfo = htonl(label) puts it on every packet. label is
 * 1..0xfffff. 0 or -errno (a label the kernel will not lease: EINVAL, EPERM). */
struct sockaddr_in6;
int lr_sock_flowlabel(int fd, const struct sockaddr_in6 *dst, uint32_t label);

/* Keepalive on a control socket (--cntl-ka); 0 values leave the system's. 0 or -errno. */
int lr_sock_keepalive(int fd, int idle, int intv, int cnt);

#endif
