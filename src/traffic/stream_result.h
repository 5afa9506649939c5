/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results both ends exchange, shared by the client (client_results.c) and the server
 * (server_session.c, server_report.c): this side's half as the message carries it, and one
 * stream's result from both ends' views. Not an API. */
#ifndef LINERATE_STREAM_RESULT_H
#define LINERATE_STREAM_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "linerate/traffic/proto.h"
#include "linerate/traffic/traffic.h"

struct lr_stream;

/* A stream's counters when the omitted seconds (-O) ended: the results leave what came before
 * out, as iperf3 resets its counters then. */
struct lr_traffic_omit_mark {
	uint64_t bytes, packets, retransmits, lost, max_seq, out_of_order;
	uint64_t at_ns; /* 0 = not taken (no -O, or the test ended first) */
};

/* This side's half of the results exchange (iperf3's send_results shape) for streams[0..n):
 * CPU use since ru0 and t0_ns, each stream's counts past its mark (marks NULL: none taken;
 * bytes and retransmits after it, loss and packets whole with the omitted part beside them)
 * and the congestion control a TCP data socket uses. Each stream's end_time_s is left 0 for
 * the caller: the client and the server time a stream each their own way. */
void lr_traffic_results_local(struct lr_proto_results *r, struct lr_stream *const *streams,
			      unsigned n, const struct lr_traffic_omit_mark *marks, bool udp,
			      const struct rusage *ru0, uint64_t t0_ns);

/* R's CPU use and congestion control of both ends, its streams (lr_traffic_stream_fill, by
 * stream id; peer NULL: no exchange) and its per-direction sums with their mean jitter, from
 * this side's results loc of streams[0..loc->n_streams) and their -O marks (NULL: none). On
 * the client side a stream that sends is the client's (client_sends), on the server side the
 * other way round. R's other fields are the caller's. */
void lr_traffic_results_merge(struct lr_traffic_results *R, const struct lr_proto_results *loc,
			      const struct lr_proto_results *peer, struct lr_stream *const *streams,
			      const struct lr_traffic_omit_mark *marks, bool client_side);

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
