// SPDX-License-Identifier: GPL-2.0-or-later
/* The client's results: its own view of every stream (iperf3's send_results shape), the
 * exchange with the server, and the merge of both views by stream id into
 * struct lr_traffic_results (per stream and per-direction sums). Control thread. */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <linux/sockios.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/proto.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"

#include "client_priv.h"
#include "stream_result.h"

/* from its start, or from -O's mark when taken; a receiver's to the test's end (test_end, 0 =
 * not known: its last byte) */
static double stream_secs(const struct lr_stream_stats *st, uint64_t omit_at, uint64_t test_end)
{
	uint64_t a = atomic_load_explicit(&st->start_ns, memory_order_relaxed);
	uint64_t b = atomic_load_explicit(&st->end_ns, memory_order_relaxed);

	if (!a)
		return 0;
	if (omit_at > a)
		a = omit_at;
	if (test_end)
		b = test_end;
	if (!b)
		b = lr_clock_mono_ns();
	return b > a ? (double)(b - a) / 1e9 : 0;
}

/* Local view of every stream, iperf3's send_results shape (stream_result.c), timed from the
 * test's -O mark to each stream's end. */
static void local_results(struct lr_client *c, struct lr_proto_results *r)
{
	unsigned n = lr_client_nstreams(c);
	uint64_t omit_at = atomic_load(&c->omit_at_ns);

	lr_traffic_results_local(r, c->streams, n, lr_client_omit_over(c, NULL) ? c->omit : NULL,
				 c->tc.udp, &c->ru0, c->t0_ns);
	for (unsigned i = 0; i < n; i++)
		r->streams[i].end_time_s =
			stream_secs(lr_stream_stats(c->streams[i]), omit_at,
				    lr_stream_params(c->streams[i])->sender ? 0 : c->test_end_ns);
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

static void merge_results(struct lr_client *c, const struct lr_proto_results *loc,
			  const struct lr_proto_results *peer)
{
	struct lr_traffic_results *R = c->res;

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
		const struct lr_stream_params *sp = lr_stream_params(c->streams[i]);
		const struct lr_stream_stats *st = lr_stream_stats(c->streams[i]);
		const struct lr_proto_stream_result *l = &loc->streams[i], *p = NULL;
		struct lr_traffic_stream_result *e = &R->streams[i];
		const struct lr_traffic_omit_mark *m = lr_client_omit_mark(c, i);

		for (unsigned k = 0; peer && k < peer->n_streams; k++)
			if (peer->streams[k].id == l->id)
				p = &peer->streams[k];
		memset(e, 0, sizeof(*e));
		e->client_sends = sp->sender;
		e->udp = sp->udp;
		sock_ports(sp->fd, &e->local_port, &e->remote_port);
		lr_traffic_stream_fill(e, sp->sender, l, p,
				       (int64_t)(atomic_load(&st->out_of_order) -
						 (m ? m->out_of_order : 0)));
		lr_traffic_sum_add(e->client_sends ? &R->sum_up : &R->sum_down, e);
	}
	if (R->sum_up.n_streams)
		R->sum_up.jitter_s /= R->sum_up.n_streams;
	if (R->sum_down.n_streams)
		R->sum_down.jitter_s /= R->sum_down.n_streams;
}

void lr_client_fill_addrs(struct lr_client *c)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct lr_traffic_results *R = c->res;
	char port[8];

	if (getsockname(c->ctl_fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sl, R->local_host, sizeof(R->local_host), port,
			sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV) == 0)
		R->local_port = (uint16_t)strtoul(port, NULL, 10);
	sl = sizeof(ss);
	if (getpeername(c->ctl_fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sl, R->remote_host, sizeof(R->remote_host), port,
			sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV) == 0)
		R->remote_port = (uint16_t)strtoul(port, NULL, 10);
}

int lr_client_exchange_results(struct lr_client *c)
{
	struct lr_proto_conn cc = lr_client_ctl_conn(c);
	struct lr_proto_results *loc = calloc(1, sizeof(*loc)), *peer = calloc(1, sizeof(*peer));
	char err[LR_PROTO_ERR_MAX];
	char *buf = NULL;
	size_t len;
	int rc = -ENOMEM;

	if (!loc || !peer)
		goto out;
	local_results(c, loc);
	rc = lr_proto_results_encode(loc, &buf, &len);
	if (rc < 0) {
		lr_client_set_err(c, "cannot encode results: %s", strerror(-rc));
		goto out;
	}
	{
		uint8_t hdr[4]; /* lr_proto_msg_send's framing, bounded by the phase's deadline */

		lr_proto_len_encode((uint32_t)len, hdr);
		rc = lr_proto_write(&cc, hdr, sizeof(hdr), lr_client_left(c));
		if (rc == 0)
			rc = lr_proto_write(&cc, buf, len, lr_client_left(c));
	}
	free(buf);
	buf = NULL;
	if (rc < 0) {
		lr_client_report_io_err(c, "sending results", rc);
		goto out;
	}
	rc = lr_proto_msg_recv(&cc, LR_PROTO_RESULTS_MAX, lr_client_left(c), &buf, &len);
	if (rc < 0) {
		if (rc == -EMSGSIZE)
			lr_client_set_err(c, "the server's results message has a bad length");
		else
			lr_client_report_io_err(c, "receiving results", rc);
		goto out;
	}
	rc = lr_proto_results_decode(buf, len, peer, err);
	if (rc < 0) {
		lr_client_set_err(c, "bad results from the server: %s", err);
		goto out;
	}
	merge_results(c, loc, peer);
	c->res->complete = true;
	c->server_output = peer->server_output; /* kept for lr_client_server_output */
	c->server_output_json = peer->server_output_json;
	peer->server_output = NULL;
out:
	free(buf);
	free(loc);
	if (peer)
		lr_proto_results_release(peer);
	free(peer);
	return rc;
}

void lr_client_partial_results(struct lr_client *c)
{
	struct lr_proto_results *loc = calloc(1, sizeof(*loc));

	if (!loc)
		return;
	local_results(c, loc);
	merge_results(c, loc, NULL);
	free(loc);
}
