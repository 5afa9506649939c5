/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The peer's totals over a test (the peer view's frames summed by run/peer.h) and where on
 * the peer packets were lost: the evidence the verdict over both ends reads. Pure. [any] */
#ifndef LINERATE_PEER_LOSS_H
#define LINERATE_PEER_LOSS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/traffic/peer_wire.h"

struct lr_traffic_config;

/* The peer's totals over the test: its counters since its first reading, from the newest
 * frame (the last one once the channel ended). */
struct lr_peer_summary {
	char host[LR_PEER_HOST_MAX];
	bool ended; /* the server's last frame ("end") arrived */
	uint64_t frames;
	size_t n_ifaces;
	struct lr_peer_iface ifaces[8];
	uint32_t stack_known; /* bit (1 << lr_peer_stack) */
	uint64_t stack[LR_PS__COUNT];
	/* per ifaces[i]: the highest rx/tx bit/s of one peer row (its own interval), -1 none */
	double peak_rx_bps[8], peak_tx_bps[8];
	/* its softnet backlog over the test (every CPU's /proc/net/softnet_stat): packets
	 * dropped (backlog full) and time squeezes; the CPUs that dropped, most first */
	bool softnet_known;
	uint64_t softnet_dropped, softnet_squeezed;
	struct {
		int cpu;
		uint64_t dropped;
	} softnet_cpus[4];
	size_t n_softnet_cpus;
	int64_t netdev_max_backlog; /* its net.core.netdev_max_backlog, -1 unknown */
	bool has_tuning; /* its sysctls (an older linerate peer sends none) */
	struct lr_peer_tuning tuning;
};

/* The peer's role in the test tc describes: "the receiver", "the sender", "sender and
 * receiver". */
const char *lr_peer_loss_role(const struct lr_traffic_config *tc);
/* "veth1 rx_dropped 12, UDP RcvbufErrors 3, softnet backlog drops 5 (cpu1 5)" into buf;
 * false when nothing moved. */
bool lr_peer_loss_drops(const struct lr_peer_summary *ps, char *buf, size_t size);
/* The loss sentence: "on the receiver, peerhost: veth1 rx_missed (NIC FIFO full) 12" or
 * "...: none in its counters" (the counts come first; what does not fit is cut). The
 * dashboard's verdict panel and the headless text show it. true when a counter moved. */
bool lr_peer_loss_sentence(const struct lr_peer_summary *ps, const struct lr_traffic_config *tc,
			   char *buf, size_t size);

#endif
