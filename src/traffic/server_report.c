// SPDX-License-Identifier: GPL-2.0-or-later
/* The app's view of each server test (lr_server_test_hooks): the test's parameters and live
 * stream counters once the streams run, and its results, merged with the client's by stream
 * id, once they stopped. Runs on the session thread; owns the results it hands over. */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"
#include "server_priv.h"
#include "stream_result.h"

static void name_of(const struct sockaddr_storage *sa, socklen_t sl, char *host, size_t hlen,
		    uint16_t *port)
{
	char serv[8];

	if (getnameinfo((const struct sockaddr *)sa, sl, host, (socklen_t)hlen, serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
		*port = (uint16_t)strtoul(serv, NULL, 10); /* NI_NUMERICSERV: digits */
		/* a dual-stack socket names IPv4 peers ::ffff:a.b.c.d; iperf3 prints a.b.c.d */
		if (!strncmp(host, "::ffff:", 7) && strchr(host + 7, '.'))
			memmove(host, host + 7, strlen(host + 7) + 1);
	}
}

static void fd_names(int fd, char *lhost, char *rhost, size_t hlen, uint16_t *lport,
		     uint16_t *rport)
{
	struct sockaddr_storage sa;
	socklen_t sl = sizeof(sa);

	if (getsockname(fd, (struct sockaddr *)&sa, &sl) == 0)
		name_of(&sa, sl, lhost, hlen, lport);
	sl = sizeof(sa);
	if (getpeername(fd, (struct sockaddr *)&sa, &sl) == 0)
		name_of(&sa, sl, rhost, hlen, rport);
}

void lr_server_watch_begin(struct session *ss)
{
	const struct lr_server_test_hooks *h = ss->srv->o.watch;
	const struct lr_stream_stats **st;
	struct lr_server_test_info *in;
	struct timespec rt;

	if (!h || !h->test_begin || ss->watch_begun)
		return;
	in = calloc(1, sizeof(*in));
	st = calloc(ss->n ? ss->n : 1, sizeof(*st));
	ss->wres = calloc(1, sizeof(*ss->wres));
	if (!in || !st || !ss->wres) {
		lr_log(LR_LOG_WARN, "server: test from %s: out of memory: not shown", ss->peer);
		free(in);
		free(st);
		free(ss->wres);
		ss->wres = NULL;
		return;
	}
	fd_names(ss->ctl_fd, in->local_host, in->remote_host, sizeof(in->local_host),
		 &in->local_port, &in->remote_port);
	in->udp = ss->p.udp;
	in->reverse = ss->p.reverse && !ss->p.bidir;
	in->bidir = ss->p.bidir;
	in->parallel = ss->p.parallel;
	in->len = ss->p.len;
	in->bitrate_bps = ss->p.bandwidth_bps;
	in->time_s = ss->p.time_s;
	in->omit_s = ss->p.omit_s;
	in->num_bytes = ss->p.num_bytes;
	in->blockcount = ss->p.blockcount;
	memcpy(in->client_version, ss->p.client_version, sizeof(in->client_version));
	in->start_ns = ss->t0_ns;
	clock_gettime(CLOCK_REALTIME, &rt);
	in->start_real_ns = (uint64_t)rt.tv_sec * LR_NSEC_PER_SEC + (uint64_t)rt.tv_nsec -
			    (lr_clock_mono_ns() - ss->t0_ns);
	lr_server_sock_facts(ss, &in->have_sockbuf, &in->sock_bufsize, &in->sndbuf_actual,
			     &in->rcvbuf_actual, &in->tcp_mss_default);
	in->n_streams = ss->n;
	for (unsigned i = 0; i < ss->n; i++) {
		const struct lr_stream_params *sp = lr_stream_params(ss->streams[i]);
		struct lr_server_stream_info *si = &in->streams[i];

		si->id = sp->id;
		si->sender = sp->sender;
		fd_names(sp->fd, si->local_host, si->remote_host, sizeof(si->local_host),
			 &si->local_port, &si->remote_port);
		st[i] = lr_stream_stats(ss->streams[i]);
	}
	ss->watch_begun = true;
	h->test_begin(h->arg, in, st, ss->n);
	free(st);
	free(in);
}

/* Both ends' results by stream id, in the client's terms (client_sends = the server receives,
 * sum_up = client -> server): this side's counts, and the client's where it sent them (peer may
 * be NULL: a test that ended without the exchange). -O's omitted datagrams are left out. */
void lr_server_merge_results(struct session *ss, const struct lr_proto_results *loc,
			     const struct lr_proto_results *peer, struct lr_traffic_results *R)
{
	memset(R, 0, sizeof(*R));
	R->complete = peer != NULL;
	R->udp = ss->p.udp;
	R->reverse = ss->p.reverse && !ss->p.bidir;
	R->bidir = ss->p.bidir;
	R->parallel = ss->p.parallel;
	R->len = ss->p.len;
	R->bitrate_bps = ss->p.bandwidth_bps;
	R->duration_ns = lr_clock_mono_ns() - ss->t0_ns;
	memcpy(R->cookie, ss->cookie, sizeof(R->cookie));
	fd_names(ss->ctl_fd, R->local_host, R->remote_host, sizeof(R->local_host), &R->local_port,
		 &R->remote_port);
	R->server_view = true;
	lr_traffic_results_merge(R, loc, peer, ss->streams, ss->omit, false);
}

void lr_server_watch_results(struct session *ss, const struct lr_proto_results *loc,
			     const struct lr_proto_results *peer)
{
	if (!ss->wres)
		return;
	lr_server_merge_results(ss, loc, peer, ss->wres);
	lr_server_local_facts(ss, ss->wres);
	ss->wres_filled = true;
}

void lr_server_watch_end(struct session *ss)
{
	const struct lr_server_test_hooks *h = ss->srv->o.watch;

	if (!ss->watch_begun || ss->watch_ended)
		return;
	ss->watch_ended = true;
	if (!ss->wres_filled) { /* no results exchange: this side's counts */
		struct lr_proto_results *loc = calloc(1, sizeof(*loc));

		if (loc) {
			lr_server_local_results(ss, loc);
			lr_server_watch_results(ss, loc, NULL);
			free(loc);
		}
		if (ss->wres)
			ss->wres->stopped = true;
	}
	if (ss->wres && ss->fail) {
		snprintf(ss->wres->server_error, sizeof(ss->wres->server_error), "%s", ss->fail);
		ss->wres->server_error_end = ss->fail_end;
	}
	if (ss->wres && h->test_end)
		h->test_end(h->arg, ss->wres);
	free(ss->wres);
	ss->wres = NULL;
}
