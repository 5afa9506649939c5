// SPDX-License-Identifier: GPL-2.0-or-later
/* The results both ends exchange, one rule for the client and the server: this side's half
 * (built from its streams' counters on the control or session thread), and a stream's result
 * from "mine + the peer's" with the per-direction sums (the receiver's count is the
 * receiver's, the sender's the sender's). */
#include <netdb.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "linerate/core/clock.h"
#include "linerate/traffic/stream.h"
#include "stream_result.h"

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void lr_traffic_results_local(struct lr_proto_results *r, struct lr_stream *const *streams,
			      unsigned n, const struct lr_traffic_omit_mark *marks, bool udp,
			      const struct rusage *ru0, uint64_t t0_ns)
{
	static const struct lr_traffic_omit_mark none;
	double wall = (double)(lr_clock_mono_ns() - t0_ns) / 1e9;
	bool any_send = false;
	struct rusage ru;

	memset(r, 0, sizeof(*r));
	getrusage(RUSAGE_SELF, &ru);
	if (wall <= 0)
		wall = 1e-9;
	r->cpu_user = (tv_s(ru.ru_utime) - tv_s(ru0->ru_utime)) / wall * 100.0;
	r->cpu_system = (tv_s(ru.ru_stime) - tv_s(ru0->ru_stime)) / wall * 100.0;
	r->cpu_total = r->cpu_user + r->cpu_system;
	for (unsigned i = 0; i < n; i++) {
		const struct lr_stream_params *sp = lr_stream_params(streams[i]);
		const struct lr_stream_stats *st = lr_stream_stats(streams[i]);
		const struct lr_traffic_omit_mark *m = marks ? &marks[i] : &none;
		struct lr_proto_stream_result *e = &r->streams[i];

		/* iperf3: bytes and retransmits after the omitted seconds; loss and packets
		 * whole, with the omitted part beside them */
		e->id = sp->id;
		e->bytes = atomic_load(&st->bytes);
		e->bytes -= m->bytes < e->bytes ? m->bytes : e->bytes;
		e->retransmits = sp->sender && !sp->udp
					 ? (int64_t)(atomic_load(&st->retransmits) - m->retransmits)
					 : -1;
		e->omitted_errors = sp->sender ? 0 : (int64_t)m->lost;
		e->omitted_packets = (int64_t)(sp->sender ? m->packets : m->max_seq);
		e->jitter_s = sp->sender ? 0 : (double)atomic_load(&st->jitter_ns) / 1e9;
		e->errors = sp->sender ? 0 : (int64_t)atomic_load(&st->lost);
		e->packets = sp->sender ? (int64_t)atomic_load(&st->packets)
					: (int64_t)atomic_load(&st->max_seq);
		any_send |= sp->sender;
	}
	r->n_streams = n;
	r->sender_has_retransmits = !any_send ? -1 : (udp ? 0 : 1);
	/* as iperf3: what a data socket actually uses (a -C the kernel refused is not it) */
	if (!udp && n)
		lr_tcp_congestion_read(lr_stream_params(streams[0])->fd, r->congestion_used,
				       sizeof(r->congestion_used));
}

static void sock_ports(int fd, uint16_t *local, uint16_t *remote)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char port[8];

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sl, NULL, 0, port, sizeof(port), NI_NUMERICSERV) ==
		    0)
		*local = (uint16_t)strtoul(port, NULL, 10);	/* NI_NUMERICSERV: digits */
	sl = sizeof(ss);
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sl, NULL, 0, port, sizeof(port), NI_NUMERICSERV) ==
		    0)
		*remote = (uint16_t)strtoul(port, NULL, 10);	/* NI_NUMERICSERV: digits */
}

void lr_traffic_results_merge(struct lr_traffic_results *R, const struct lr_proto_results *loc,
			      const struct lr_proto_results *peer, struct lr_stream *const *streams,
			      const struct lr_traffic_omit_mark *marks, bool client_side)
{
	R->n_streams = loc->n_streams;
	R->local_cpu_total = loc->cpu_total;
	R->local_cpu_user = loc->cpu_user;
	R->local_cpu_system = loc->cpu_system;
	memcpy(R->local_congestion, loc->congestion_used, sizeof(R->local_congestion));
	if (peer) {
		R->remote_cpu_total = peer->cpu_total;
		R->remote_cpu_user = peer->cpu_user;
		R->remote_cpu_system = peer->cpu_system;
		memcpy(R->remote_congestion, peer->congestion_used, sizeof(R->remote_congestion));
	}
	for (unsigned i = 0; i < loc->n_streams; i++) {
		const struct lr_stream_params *sp = lr_stream_params(streams[i]);
		const struct lr_stream_stats *st = lr_stream_stats(streams[i]);
		const struct lr_proto_stream_result *l = &loc->streams[i], *p = NULL;
		struct lr_traffic_stream_result *e = &R->streams[i];

		for (unsigned k = 0; peer && k < peer->n_streams; k++)
			if (peer->streams[k].id == l->id)
				p = &peer->streams[k];
		memset(e, 0, sizeof(*e));
		e->client_sends = sp->sender == client_side;
		e->udp = sp->udp;
		sock_ports(sp->fd, &e->local_port, &e->remote_port);
		lr_traffic_stream_fill(e, sp->sender, l, p,
				       (int64_t)(atomic_load(&st->out_of_order) -
						 (marks ? marks[i].out_of_order : 0)));
		lr_traffic_sum_add(e->client_sends ? &R->sum_up : &R->sum_down, e);
	}
	memset(&R->rr, 0, sizeof(R->rr));
	for (unsigned i = 0; i < loc->n_streams; i++)
		lr_stream_rr_add(streams[i], &R->rr);
	if (R->sum_up.n_streams)
		R->sum_up.jitter_s /= R->sum_up.n_streams;
	if (R->sum_down.n_streams)
		R->sum_down.jitter_s /= R->sum_down.n_streams;
}

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
	s->packets_received += e->packets_received;
	s->lost += e->lost;
	s->jitter_s += e->jitter_s;
}
