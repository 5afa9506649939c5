// SPDX-License-Identifier: GPL-2.0-or-later
/* The client's sockets: the control connection (bounded non-blocking connect, -B bind, TCP
 * options), the params message, and the data connections opened one at a time in iperf3's
 * order (TCP: connect + cookie; UDP: the 4-byte "9876"/"6789" handshake). Control thread. */
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

static int resolve(const char *host, uint16_t port, int socktype, int family,
		   struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints = {.ai_family = family, .ai_socktype = socktype};
	struct addrinfo *ai;
	char ports[8];
	int rc;

	snprintf(ports, sizeof(ports), "%u", port);
	if (!host)
		hints.ai_flags = AI_PASSIVE;
	rc = getaddrinfo(host, ports, &hints, &ai);
	if (rc)
		return rc == EAI_SYSTEM ? -errno : -EHOSTUNREACH;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

static int bind_local(struct lr_client *c, int fd, int socktype)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;	/* resolve sets it on success */
	int rc;

	if (!c->bind)
		return 0;
	rc = resolve(c->bind, 0, socktype, c->peer.ss_family, &ss, &len);
	if (rc < 0)
		return rc;
	return bind(fd, (struct sockaddr *)&ss, len) < 0 ? -errno : 0;
}

/* Non-blocking connect bounded by a deadline and the stop flag; the fd stays non-blocking. */
static int connect_bounded(struct lr_client *c, int fd)
{
	uint64_t deadline = lr_clock_mono_ns() + CONNECT_TIMEOUT_NS;
	int soerr = 0;
	socklen_t sl = sizeof(soerr);

	if (connect(fd, (struct sockaddr *)&c->peer, c->peer_len) == 0)
		return 0;
	if (errno != EINPROGRESS)
		return -errno;
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLOUT};
		int rc;

		if (atomic_load(&c->stop))
			return -ECANCELED;
		if (lr_clock_mono_ns() >= deadline)
			return -ETIMEDOUT;
		rc = poll(&pfd, 1, 50);
		if (rc < 0 && errno != EINTR)
			return -errno;
		if (rc > 0)
			break;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
		return -errno;
	return soerr ? -soerr : 0;
}

static void apply_tcp_opts(struct lr_client *c, int fd)
{
	if (c->tc.mss) {
		int v = (int)c->tc.mss;

		if (setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &v, sizeof(v)) < 0)
			lr_log(LR_LOG_WARN, "client: TCP_MAXSEG %d: %s", v, strerror(errno));
	}
	if (c->congestion && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, c->congestion,
					(socklen_t)strlen(c->congestion)) < 0)
		lr_log(LR_LOG_WARN, "client: congestion %s: %s", c->congestion, strerror(errno));
}

static void apply_window(struct lr_client *c, int fd)
{
	int rc = c->tc.window ? lr_stream_sock_window(fd, c->tc.window) : 0;

	if (rc < 0)
		lr_log(LR_LOG_WARN, "client: window %llu: %s", (unsigned long long)c->tc.window,
		       strerror(-rc));
}

static void fmt_peer(struct lr_client *c, char *buf, size_t size)
{
	if (strchr(c->host, ':'))
		snprintf(buf, size, "[%s]:%u", c->host, c->tc.port);
	else
		snprintf(buf, size, "%s:%u", c->host, c->tc.port);
}

int lr_client_ctl_connect(struct lr_client *c)
{
	char where[128];
	int fd, rc, one = 1;

	fmt_peer(c, where, sizeof(where));
	rc = resolve(c->host, c->tc.port, SOCK_STREAM, AF_UNSPEC, &c->peer, &c->peer_len);
	if (rc < 0) {
		lr_client_set_err(c, "cannot resolve %s", c->host);
		return rc;
	}
	fd = socket(c->peer.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		rc = -errno;
		lr_client_set_err(c, "socket: %s", strerror(-rc));
		return rc;
	}
	rc = bind_local(c, fd, SOCK_STREAM);
	if (rc < 0) {
		lr_client_set_err(c, "cannot bind to %s: %s", c->bind, strerror(-rc));
		close(fd);
		return rc;
	}
	rc = connect_bounded(c, fd);
	if (rc < 0) {
		if (rc != -ECANCELED)
			lr_client_set_err(c, "cannot connect to %s: %s", where, strerror(-rc));
		close(fd);
		return rc;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->ctl_fd = fd;
	return 0;
}

static uint64_t udp_default_len(struct lr_client *c)
{
	int mss = 0;
	socklen_t sl = sizeof(mss);

	if (getsockopt(c->ctl_fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &sl) == 0 && mss > 0 &&
	    mss <= LR_PROTO_UDP_MAX_LEN)
		return (uint64_t)mss;
	return LR_PROTO_UDP_DEF_LEN;
}

int lr_client_send_params(struct lr_client *c)
{
	struct lr_proto_params *p = &c->params;
	struct lr_proto_conn cc = lr_client_ctl_conn(c);
	char *buf;
	size_t len;
	int rc;

	lr_proto_params_init(p);
	p->udp = c->tc.udp;
	p->reverse = c->tc.reverse && !c->tc.bidir;
	p->bidir = c->tc.bidir;
	p->time_s = (int64_t)((c->duration_ns + LR_NSEC_PER_SEC - 1) / LR_NSEC_PER_SEC);
	p->parallel = c->tc.parallel;
	p->mss = c->tc.mss;
	p->window_bytes = c->tc.window;
	p->server_affinity = c->tc.server_affinity;
	p->len = c->tc.length ? c->tc.length
			      : (c->tc.udp ? udp_default_len(c) : LR_PROTO_TCP_DEF_LEN);
	pthread_mutex_lock(&c->lock);
	p->bandwidth_bps = c->rate_bps;
	pthread_mutex_unlock(&c->lock);
	if (c->congestion)
		snprintf(p->congestion, sizeof(p->congestion), "%s", c->congestion);
	/* informational for iperf3; tells a linerate server that this client drains (server.c) */
	snprintf(p->client_version, sizeof(p->client_version), "linerate %s", lr_version());
	p->peer_stats = !c->tc.no_peer_stats;	/* docs/peer-stats.md; iperf3 ignores the key */
	p->peer_interval_ms = (unsigned)(c->tc.peer_interval_ns / LR_NSEC_PER_MSEC);
	rc = lr_proto_params_encode(p, &buf, &len);
	if (rc < 0) {
		lr_client_set_err(c, "cannot encode the test parameters: %s", strerror(-rc));
		return rc;
	}
	rc = lr_proto_msg_send(&cc, buf, len);
	free(buf);
	if (rc < 0)
		lr_client_report_io_err(c, "sending the test parameters", rc);
	return rc;
}

static bool stream_is_sender(struct lr_client *c, unsigned i)
{
	if (c->tc.bidir)
		return i < c->tc.parallel;
	return !c->tc.reverse;
}

static int stream_id(unsigned i)
{
	return i == 0 ? 1 : (int)i + 2;
}

static int tcp_stream_connect(struct lr_client *c, int *out)
{
	struct lr_proto_conn cc;
	int fd, rc;

	fd = socket(c->peer.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	apply_tcp_opts(c, fd);
	apply_window(c, fd);
	rc = bind_local(c, fd, SOCK_STREAM);
	if (rc == 0)
		rc = connect_bounded(c, fd);
	if (rc == 0) {
		cc = (struct lr_proto_conn){.fd = fd, .stop = &c->stop, .side_fd = -1};
		rc = lr_proto_write(&cc, c->cookie, LR_PROTO_COOKIE_LEN, CONNECT_TIMEOUT_NS);
	}
	if (rc < 0) {
		close(fd);
		return rc;
	}
	*out = fd;
	return 0;
}

/* iperf3's UDP "connect": send "9876", wait for "6789"; in -R a data datagram may overtake the
 * reply, so datagrams that cannot be a reply are skipped. */
static int udp_stream_connect(struct lr_client *c, int *out)
{
	uint64_t deadline = lr_clock_mono_ns() + CTL_TIMEOUT_NS;
	size_t bufsz = c->params.len > 4 ? c->params.len : 4;
	uint8_t *buf;
	int fd, rc;

	fd = socket(c->peer.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	apply_window(c, fd);
	buf = malloc(bufsz);
	rc = buf ? bind_local(c, fd, SOCK_DGRAM) : -ENOMEM;
	if (rc == 0 && connect(fd, (struct sockaddr *)&c->peer, c->peer_len) < 0)
		rc = -errno;
	if (rc == 0 && send(fd, lr_proto_udp_connect_msg, 4, MSG_NOSIGNAL) != 4)
		rc = -errno;
	while (rc == 0) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		ssize_t n;

		if (atomic_load(&c->stop)) {
			rc = -ECANCELED;
			break;
		}
		if (lr_clock_mono_ns() >= deadline) {
			rc = -ETIMEDOUT;
			break;
		}
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		n = recv(fd, buf, bufsz, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (n == 4 && (!memcmp(buf, lr_proto_udp_connect_reply, 4) ||
			       !memcmp(buf, lr_proto_udp_legacy_reply, 4)))
			break;
		if (n < LR_PROTO_UDP_MIN_LEN) {
			rc = -EPROTO;
			break;
		}
		/* a data datagram overtook the reply: skip it */
	}
	free(buf);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	*out = fd;
	return 0;
}

int lr_client_create_streams(struct lr_client *c)
{
	for (unsigned i = 0; i < c->n_max; i++) {
		struct lr_stream_params sp = {
			.id = stream_id(i),
			.udp = c->tc.udp,
			.sender = stream_is_sender(c, i),
			.len = (size_t)c->params.len,
			.cpu = c->tc.affinity,
			.no_gso = c->tc.no_gso,
			.rx_len = lr_stream_tcp_read_len((size_t)c->params.len, c->n_max),
		};
		struct lr_stream *s;
		int fd = -1, rc;

		rc = c->tc.udp ? udp_stream_connect(c, &fd) : tcp_stream_connect(c, &fd);
		if (rc < 0) {
			if (rc != -ECANCELED) {
				char where[128];

				fmt_peer(c, where, sizeof(where));
				lr_client_set_err(c, "cannot open data stream %u to %s: %s", i + 1, where,
					strerror(-rc));
			}
			return rc;
		}
		sp.fd = fd;
		pthread_mutex_lock(&c->lock);
		sp.rate_bps = c->rate_bps;
		rc = lr_stream_open(&s, &sp);
		if (rc == 0) {
			c->streams[i] = s;
			atomic_store(&c->n_streams, i + 1);
		}
		pthread_mutex_unlock(&c->lock);
		if (rc < 0) {
			lr_client_set_err(c, "cannot set up data stream %u: %s", i + 1, strerror(-rc));
			return rc;
		}
	}
	return 0;
}
