/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One stream's result from both ends' views, shared by the client (client_results.c) and the
 * server (server_report.c). Not an API. */
#ifndef LINERATE_STREAM_RESULT_H
#define LINERATE_STREAM_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/traffic/proto.h"
#include "linerate/traffic/traffic.h"

/* Fills e's id, counts and have_peer from this side's result l (sender: this side sent) and the
 * peer's p for the same id (NULL: no exchange): the sender's bytes and retransmits, the
 * receiver's bytes, loss and jitter, each from the end that counted them, -O's omitted
 * datagrams left out. out_of_order is this side's (already past -O's mark), used when it
 * received. A peer that sends no omitted counts (iperf3 <= 3.13) has its omitted datagrams
 * taken as this side's own, as iperf3 does. The caller sets direction, protocol and ports. */
void lr_traffic_stream_fill(struct lr_traffic_stream_result *e, bool sender,
			    const struct lr_proto_stream_result *l,
			    const struct lr_proto_stream_result *p, int64_t out_of_order);

#endif
