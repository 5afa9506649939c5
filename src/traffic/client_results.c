// SPDX-License-Identifier: GPL-2.0-or-later
/* The client's results: its own view of every stream (iperf3's send_results shape), the
 * exchange with the server, and the merge of both views by stream id into
 * struct lr_traffic_results (per stream and per-direction sums); stream_result.c builds and
 * merges them by the rules the server uses too. Control thread. */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <linux/sockios.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
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

static void merge_results(struct lr_client *c, const struct lr_proto_results *loc,
			  const struct lr_proto_results *peer)
{
	lr_traffic_results_merge(c->res, loc, peer, c->streams,
				 lr_client_omit_over(c, NULL) ? c->omit : NULL, true);
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
	lr_proto_debug_json("send_results", buf, len);
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
	lr_proto_debug_json("get_results", buf, len);
	rc = lr_proto_results_decode(buf, len, peer, err);
	if (rc < 0) {
		lr_client_set_err(c, "bad results from the server: %s", err);
		goto out;
	}
	merge_results(c, loc, peer);
	c->res->complete = true;
	if (c->tc.file) {	/* iperf3 reports the file's size as it is at the end */
		struct stat st;

		c->res->file = c->tc.file;
		c->res->file_size = stat(c->tc.file, &st) == 0 ? (int64_t)st.st_size : -1;
	}
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
