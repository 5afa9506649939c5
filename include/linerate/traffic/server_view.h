/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One server test as a reader on the main thread sees it: its parameters, each stream's
 * counters read at one moment, and the results once it ended. Plain data, filled by the
 * server's watch (run/server_watch.h) and read by the views and iperf3's server text. [any] */
#ifndef LINERATE_SERVER_VIEW_H
#define LINERATE_SERVER_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/traffic/proto.h"
#include "linerate/traffic/traffic.h"

/* One stream's counters, read at one moment. */
struct lr_server_test_counts {
	uint64_t bytes, packets, retransmits, lost, out_of_order, max_seq, jitter_ns;
	uint64_t cwnd_bytes;	/* a TCP sender's last TCP_INFO snd_cwnd, 0 not read yet */
	uint64_t start_ns, end_ns;
};

/* The main thread's copy of the newest test. Large: allocate it (lr_server_watch_view_new). */
struct lr_server_test_view {
	unsigned seq; /* tests begun so far; 0 none yet */
	bool ended; /* test `seq` has ended: counts are final, res is set */
	uint64_t now_ns; /* CLOCK_MONOTONIC when the counts were read */
	struct lr_server_test_info info;
	struct lr_server_test_counts c[LR_PROTO_MAX_RESULTS]; /* info.n_streams of them */
	struct lr_traffic_results res; /* when ended */
};

#endif
