// SPDX-License-Identifier: GPL-2.0-or-later
/* A server test's data streams, set up in accept order: TCP connections handed over by the
 * acceptor's pipe (with the test's -w/-M put on the listener first), UDP through iperf3's
 * 4-byte handshake, where an accepted stream answers its client's resent setup datagrams while
 * the next one is awaited. Every wait is bounded and ends when the client gives up on the
 * control connection. Session thread. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/proto.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"
#include "server_priv.h"
#include "sockopts.h"

static void set_window(struct session *ss, int fd)
{
	int rc = lr_stream_sock_window(fd, ss->p.window_bytes);

	if (rc < 0)
		lr_log(LR_LOG_WARN, "server: window %llu: %s",
		       (unsigned long long)ss->p.window_bytes, strerror(-rc));
}

/* --snd-timeout on a control or TCP data socket: unacknowledged data for that long fails it. */
void lr_server_snd_timeout(struct session *ss, int fd, unsigned int ms)
{
	if (ms && setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ms, sizeof(ms)) < 0)
		lr_log(LR_LOG_WARN, "server: test from %s: TCP_USER_TIMEOUT %u ms: %s", ss->peer,
		       ms, strerror(errno));
}

static int sock_opts_data(struct session *ss, int fd)
{
	/* the client's -N -S/--dscp --fq-rate --dont-fragment, as an iperf3 server applies them */
	struct lr_data_sockopts o = {
		.nodelay = ss->p.nodelay,
		.tos = ss->p.tos,
		.fq_rate_bps = ss->p.fqrate_bps,
		.dont_fragment = ss->p.dont_fragment,
	};
	const char *what = "";
	int rc = lr_data_sockopts_apply(fd, ss->p.udp, &o, &what);

	if (rc < 0)
		lr_log(LR_LOG_WARN, "server: test from %s: %s: %s", ss->peer, what, strerror(-rc));
	if (ss->p.window_bytes && ss->p.udp) /* TCP data sockets have it from the listener */
		set_window(ss, fd);
	if (!ss->p.udp) {
		lr_server_snd_timeout(ss, fd, ss->srv->o.snd_timeout_ms);
		if (ss->p.congestion[0] &&
		    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, ss->p.congestion,
			       (socklen_t)strlen(ss->p.congestion)) < 0)
			lr_log(LR_LOG_WARN, "server: congestion %s: %s", ss->p.congestion,
			       strerror(errno));
	}
	return 0;
}

/* iperf3 puts -w and -M on the listening socket, so the data connections' SYN-ACK already
 * carries the MSS and a window sized for the buffer; set on the accepted socket they came too
 * late for both. The acceptor makes a fresh listener once they are in. */
static int tune_listener(struct session *ss)
{
	struct lr_server *srv = ss->srv;
	int lfd;

	if (ss->p.mptcp || srv->o.mptcp) {
		/* the acceptor remakes the listener between two of its polls (50 ms) */
		atomic_store(&srv->want_mptcp, true);
		for (int i = 0; i < 200 && atomic_load(&srv->want_mptcp); i++)
			(void)lr_clock_sleep_until(lr_clock_mono_ns() + 5 * LR_NSEC_PER_MSEC);
		if (atomic_load(&srv->lproto) != IPPROTO_MPTCP) {
			lr_log(LR_LOG_WARN, "server: test from %s: no MPTCP listener", ss->peer);
			return -EPROTONOSUPPORT;
		}
	}
	lfd = srv->lfd;
	if (ss->p.window_bytes) {
		set_window(ss, lfd);
		atomic_store(&ss->srv->listener_tuned, true);
	}
	if (ss->p.mss) {
		int v = (int)ss->p.mss;

		if (setsockopt(lfd, IPPROTO_TCP, TCP_MAXSEG, &v, sizeof(v)) < 0)
			lr_log(LR_LOG_WARN, "server: MSS %d: %s", v, strerror(errno));
		atomic_store(&ss->srv->listener_tuned, true);
	}
	return 0;
}

static int add_stream(struct session *ss, unsigned i, int fd)
{
	struct lr_stream_params sp = {
		.fd = fd,
		.id = i == 0 ? 1 : (int)i + 2,
		.udp = ss->p.udp,
		.sender = i >= ss->n_recv,
		.len = (size_t)ss->p.len,
		.rate_bps = ss->p.bandwidth_bps,
		.burst = (unsigned)ss->p.burst,
		.cpu = ss->p.server_affinity >= 0 ? ss->p.server_affinity
		       : ss->srv->o.pin		  ? ss->srv->o.cpu
						  : -1,
		.pin_set = ss->p.server_affinity < 0 && ss->srv->o.pin_set,
		.cpus = ss->srv->o.cpus,
		.no_gso = ss->srv->o.no_gso,
		.udp_64bit_seq = ss->p.udp_64bit,
		.zerocopy = ss->p.zerocopy,
		.repeating_payload = ss->p.repeating_payload,
		.skip_rx_copy = ss->p.skip_rx_copy,
		.file = ss->srv->o.file,	/* TCP only: a UDP test was refused */
		/* the client's -n/-k, shared by the streams this side sends on (TCP only:
		 * lr_server_count_shared) */
		.max_bytes = lr_server_count_shared(ss) && ss->n_send
				     ? ((ss->p.num_bytes ? ss->p.num_bytes
							 : ss->p.blockcount * ss->p.len) +
					ss->n_send - 1) / ss->n_send
				     : 0,
		.rx_len = lr_stream_tcp_read_len((size_t)ss->p.len, ss->n_recv),
		.rr_req_bytes = ss->p.rr_req_bytes,
		.rr_resp_bytes = ss->p.rr_resp_bytes,
	};

	sock_opts_data(ss, fd);
	return lr_stream_open(&ss->streams[i], &sp);
}

static int udp_listener(struct session *ss)
{
	struct lr_server *srv = ss->srv;
	int one = 1;
	int fd = socket(srv->family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0)
		return -errno;
	/* the stream sockets hold the port: without it the next listener's bind fails */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    lr_server_bind_dev(srv, fd) < 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	if (bind(fd, (struct sockaddr *)&srv->local, srv->local_len) < 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

/* The control connection spoke while the streams were being set up: the client gave up (EOF,
 * reset: -ECONNRESET) or ended the test (a byte: -ECONNABORTED); 0 when it was nothing. */
static int ctl_spoke(struct session *ss)
{
	int8_t b;
	ssize_t n = recv(ss->ctl_fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	return n == 1 ? -ECONNABORTED : -ECONNRESET;
}

/* Waits in 50 ms steps (the stop flag is checked between them) until fd is readable: 1, or
 * -ECANCELED, -ETIMEDOUT at the deadline, or what ctl_spoke says. */
static int wait_readable(struct session *ss, int fd, uint64_t deadline)
{
	for (;;) {
		struct pollfd pfd[2] = {{.fd = fd, .events = POLLIN},
					{.fd = ss->ctl_fd, .events = POLLIN}};
		int rc;

		if (atomic_load(&ss->stop))
			return -ECANCELED;
		if (lr_clock_mono_ns() >= deadline)
			return -ETIMEDOUT;
		if (poll(pfd, 2, 50) <= 0)
			continue;
		if (pfd[1].revents && (rc = ctl_spoke(ss)) < 0)
			return rc;
		if (pfd[0].revents)
			return 1;
	}
}

/* A stream socket that got a setup datagram again: the client lost our reply (or resent before
 * it came) and is still waiting for it. Answer every "9876"; nothing else can arrive before
 * TEST_START (the client sends data only after TEST_RUNNING). */
static void answer_resent(struct session *ss, int fd, unsigned i)
{
	uint8_t buf[64];
	ssize_t n;

	while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) >= 0) {
		if (n != 4 || memcmp(buf, lr_proto_udp_connect_msg, 4))
			continue;
		if (send(fd, lr_proto_udp_connect_reply, 4, MSG_NOSIGNAL | MSG_DONTWAIT) != 4)
			lr_log(LR_LOG_DEBUG, "server: stream %u: reply not resent: %s", i + 1,
			       strerror(errno));
		else
			lr_log(LR_LOG_DEBUG, "server: stream %u: setup datagram again, answered",
			       i + 1);
	}
}

/* iperf3's UDP accept of stream i: the first datagram on the listener names the peer; connect
 * to it, reply "6789", and the listener becomes the stream socket. When another stream
 * follows, its listener is bound before the reply goes out: the client sends the next "9876"
 * as soon as it has the reply, and a port with no unconnected socket would answer it with ICMP
 * refused. Meanwhile the streams already accepted answer their client's resends. */
static int udp_accept(struct session *ss, unsigned i, bool another, int *out)
{
	struct sockaddr_storage from;
	socklen_t fl = sizeof(from);
	uint8_t buf[64];
	ssize_t n;
	int rc, fd;
	uint64_t deadline = lr_clock_mono_ns() + STREAM_TIMEOUT_NS;

	for (;;) {
		struct pollfd pfd[2 + LR_PROTO_MAX_RESULTS];
		nfds_t np = 0;

		pfd[np++] = (struct pollfd){.fd = ss->udp_fd, .events = POLLIN};
		pfd[np++] = (struct pollfd){.fd = ss->ctl_fd, .events = POLLIN};
		for (unsigned j = 0; j < i; j++)
			pfd[np++] = (struct pollfd){.fd = lr_stream_params(ss->streams[j])->fd,
						    .events = POLLIN};
		if (atomic_load(&ss->stop))
			return -ECANCELED;
		if (lr_clock_mono_ns() >= deadline)
			return -ETIMEDOUT;
		if (poll(pfd, np, 50) <= 0)
			continue;
		if (pfd[1].revents && (rc = ctl_spoke(ss)) < 0)
			return rc;
		for (unsigned j = 0; j < i; j++)
			if (pfd[2 + j].revents)
				answer_resent(ss, pfd[2 + j].fd, j);
		if (!pfd[0].revents)
			continue;
		fl = sizeof(from);
		n = recvfrom(ss->udp_fd, buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)&from,
			     &fl);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0)
			return -errno;
		break;
	}
	fd = ss->udp_fd;
	ss->udp_fd = -1;
	if (connect(fd, (struct sockaddr *)&from, fl) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if (another) {
		rc = udp_listener(ss);
		if (rc < 0) {
			close(fd);
			return rc;
		}
		ss->udp_fd = rc;
	}
	if (send(fd, lr_proto_udp_connect_reply, 4, MSG_NOSIGNAL) != 4) {
		rc = -errno;
		close(fd);
		return rc;
	}
	*out = fd;
	return 0;
}

static int pipe_take(struct session *ss, int *out)
{
	uint64_t deadline = lr_clock_mono_ns() + STREAM_TIMEOUT_NS;

	for (;;) {
		int fd, rc = wait_readable(ss, ss->pipe_rd, deadline);

		if (rc < 0)
			return rc;
		if (read(ss->pipe_rd, &fd, sizeof(fd)) == (ssize_t)sizeof(fd)) {
			*out = fd;
			return 0;
		}
	}
}

int lr_server_create_streams(struct session *ss)
{
	struct lr_proto_conn cc = lr_server_sess_conn(ss);
	int rc;

	if (ss->p.udp) {
		rc = udp_listener(ss);
		if (rc < 0) {
			lr_log(LR_LOG_ERR, "server: test from %s: UDP listener: %s", ss->peer,
			       strerror(-rc));
			lr_server_send_error(ss, 1 /* IELISTEN */);
			return rc;
		}
		ss->udp_fd = rc;
	} else {
		rc = tune_listener(ss);
		if (rc < 0) {
			lr_server_send_error_errno(ss, 202 /* IESTREAMLISTEN */, -rc);
			return rc;
		}
		atomic_store(&ss->phase, PH_ACCEPT);
	}
	rc = lr_proto_state_send(&cc, LR_PROTO_CREATE_STREAMS);
	if (rc < 0)
		return rc;
	for (unsigned i = 0; i < ss->n; i++) {
		int fd = -1;

		rc = ss->p.udp ? udp_accept(ss, i, i + 1 < ss->n, &fd) : pipe_take(ss, &fd);
		if (rc < 0) {
			lr_log(LR_LOG_WARN, "server: test from %s: data stream %u: %s", ss->peer,
			       i + 1, lr_server_io_what(rc));
			return rc;
		}
		rc = add_stream(ss, i, fd);
		if (rc < 0) {
			lr_log(LR_LOG_ERR, "server: test from %s: stream setup: %s", ss->peer,
			       strerror(-rc));
			return rc;
		}
	}
	atomic_store(&ss->phase, PH_RUN);
	return 0;
}
