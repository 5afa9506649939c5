// SPDX-License-Identifier: GPL-2.0-or-later
/* A stream's result from "mine + the peer's" and the per-direction sums: one rule for the
 * client and the server (the receiver's count is the receiver's, the sender's the sender's). */
#include "stream_result.h"

/* The peer's omitted datagrams: its own count, or ours when it sent none (3.12 and 3.13 send
 * no "omitted_packets"; iperf3 3.14+ then uses its own omitted count the same way). */
static int64_t peer_omitted(const struct lr_proto_stream_result *l,
			    const struct lr_proto_stream_result *p)
{
	return p->omitted_packets ? p->omitted_packets : l->omitted_packets;
}

void lr_traffic_stream_fill(struct lr_traffic_stream_result *e, bool sender,
			    const struct lr_proto_stream_result *l,
			    const struct lr_proto_stream_result *p, int64_t out_of_order)
{
	e->id = l->id;
	e->have_peer = p != NULL;
	e->retransmits = -1;
	e->out_of_order = -1;
	if (sender) {
		e->sent_bytes = l->bytes;
		e->sender_s = l->end_time_s;
		e->retransmits = l->retransmits;
		e->packets_sent = l->packets - l->omitted_packets;
		if (p) {
			e->received_bytes = p->bytes;
			e->receiver_s = p->end_time_s;
			e->packets_received = p->packets - peer_omitted(l, p);
			e->lost = p->errors - p->omitted_errors;
			e->jitter_s = p->jitter_s;
		}
	} else {
		e->received_bytes = l->bytes;
		e->receiver_s = l->end_time_s;
		e->packets_received = l->packets - l->omitted_packets;
		e->lost = l->errors - l->omitted_errors;
		e->jitter_s = l->jitter_s;
		e->out_of_order = out_of_order;
		if (p) {
			e->sent_bytes = p->bytes;
			e->sender_s = p->end_time_s;
			e->retransmits = p->retransmits;
			e->packets_sent = p->packets - peer_omitted(l, p);
		}
	}
}

void lr_traffic_sum_add(struct lr_traffic_sum *s, const struct lr_traffic_stream_result *e)
{
	s->n_streams++;
	s->sent_bytes += e->sent_bytes;
	s->received_bytes += e->received_bytes;
	if (e->sender_s > s->sender_s)
		s->sender_s = e->sender_s;
	if (e->receiver_s > s->receiver_s)
		s->receiver_s = e->receiver_s;
	if (e->retransmits >= 0 && s->retransmits >= 0)
		s->retransmits += e->retransmits;
	else
		s->retransmits = -1;
	s->packets_sent += e->packets_sent;
	s->lost += e->lost;
	s->jitter_s += e->jitter_s;
}
