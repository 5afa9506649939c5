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
#include "linerate/traffic/probe.h"
#include "linerate/traffic/proto.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"

#include "client_priv.h"
#include "sockopts.h"

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

/* --bind-dev, -B, and for a data stream --cport (+ the stream's index, as iperf3). */
static int bind_port(struct lr_client *c, int fd, int socktype, uint16_t port)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;	/* resolve sets it on success */
	int rc, one = 1;

	if (c->tc.bind_dev[0] && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, c->tc.bind_dev,
					    (socklen_t)strlen(c->tc.bind_dev)) < 0)
		return -errno;
	if (!c->bind && !port)
		return 0;
	rc = resolve(c->bind, port, socktype, c->peer.ss_family, &ss, &len);
	if (rc < 0)
		return rc;
	if (port && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0)
		return -errno;
	return bind(fd, (struct sockaddr *)&ss, len) < 0 ? -errno : 0;
}

static int bind_local(struct lr_client *c, int fd, int socktype)
{
	return bind_port(c, fd, socktype, 0);
}

/* A data socket: -B/--cport, -L (refused: the test fails, as iperf3's), and -N -S --fq-rate
 * --dont-fragment (logged when refused). */
static int data_sock_prepare(struct lr_client *c, int fd, int socktype)
{
	struct lr_data_sockopts o = {
		.nodelay = c->tc.nodelay,
		.tos = c->tc.tos,
		.fq_rate_bps = c->tc.fq_rate_bps,
		.dont_fragment = c->tc.dont_fragment,
	};
	const char *what = "";
	int rc;

	if (c->tc.flowlabel) {
		rc = lr_sock_flowlabel(fd, (const struct sockaddr_in6 *)&c->peer, c->tc.flowlabel);
		if (rc < 0) {
			lr_client_set_err(c, "-L/--flowlabel: unable to set IPv6 flow label %u: %s",
					  (unsigned)c->tc.flowlabel, strerror(-rc));
			return rc;
		}
	}
	rc = lr_data_sockopts_apply(fd, socktype == SOCK_DGRAM, &o, &what);
	if (rc < 0)
		lr_log(LR_LOG_WARN, "client: data stream %u: %s: %s", c->setting_up + 1, what,
		       strerror(-rc));
	if (c->setting_up == 0) {	/* iperf3's -J start: the first data socket's buffers */
		socklen_t sl = sizeof(int);

		c->res->sock_bufsize = c->tc.window;
		c->res->have_sockbuf =
			getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &c->res->sndbuf_actual, &sl) == 0 &&
			(sl = sizeof(int),
			 getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &c->res->rcvbuf_actual, &sl) == 0);
	}
	if (c->tc.cport && c->tc.cport + c->setting_up > 65535)
		return -EADDRNOTAVAIL;
	return bind_port(c, fd, socktype,
			 c->tc.cport ? (uint16_t)(c->tc.cport + c->setting_up) : 0);
}

/* The server's address for a data stream: with -L it carries the flow label (sin6_flowinfo),
 * which the kernel takes from connect() once the socket holds the label. */
static struct sockaddr_storage data_peer(const struct lr_client *c)
{
	struct sockaddr_storage ss = c->peer;

	if (c->tc.flowlabel && ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&ss)->sin6_flowinfo = htonl(c->tc.flowlabel);
	return ss;
}

/* Non-blocking connect to to, bounded by the connect timeout, the phase's deadline and the
 * stop flag; the fd stays non-blocking. */
static int connect_bounded(struct lr_client *c, int fd, const struct sockaddr_storage *to)
{
	uint64_t deadline = lr_clock_mono_ns() + c->connect_timeout_ns;
	int soerr = 0;
	socklen_t sl = sizeof(soerr);

	if (deadline > c->deadline_ns)
		deadline = c->deadline_ns;
	if (connect(fd, (const struct sockaddr *)to, c->peer_len) == 0)
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

void lr_client_snd_timeout(struct lr_client *c, int fd)
{
	unsigned int ms = c->tc.snd_timeout_ms;

	if (ms && setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ms, sizeof(ms)) < 0)
		lr_log(LR_LOG_WARN, "client: --snd-timeout %u ms not set (TCP_USER_TIMEOUT: %s)",
		       ms, strerror(errno));
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
	rc = resolve(c->host, c->tc.port, SOCK_STREAM, c->tc.family, &c->peer, &c->peer_len);
	if (rc < 0) {
		lr_client_set_err(c, "cannot resolve %s", c->host);
		return rc;
	}
	if (c->tc.flowlabel && c->peer.ss_family != AF_INET6) {	/* iperf3: IESETFLOW, exit 1 */
		lr_client_set_err(c, "-L/--flowlabel: unable to set IPv6 flow label: %s is not "
				  "an IPv6 address (use -6 or an IPv6 address)", c->host);
		return -EAFNOSUPPORT;
	}
	fd = socket(c->peer.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		rc = -errno;
		lr_client_set_err(c, "socket: %s", strerror(-rc));
		return rc;
	}
	rc = bind_local(c, fd, SOCK_STREAM);
	if (rc < 0) {
		lr_client_set_err(c, "cannot bind to %s: %s", c->bind ? c->bind : c->tc.bind_dev,
				  strerror(-rc));
		close(fd);
		return rc;
	}
	rc = connect_bounded(c, fd, &c->peer);
	if (rc == -ETIMEDOUT)
		lr_client_set_err(
			c, "cannot connect to %s: no answer within %.1f s (--connect-timeout)",
			where, (double)c->connect_timeout_ns / 1e9);
	else if (rc < 0 && rc != -ECANCELED)
		lr_client_set_err(c, "cannot connect to %s: %s", where, strerror(-rc));
	if (rc < 0) {
		close(fd);
		return rc;
	}
	/* iperf3 sets it too; without it the small control messages wait for Nagle */
	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
		lr_log(LR_LOG_WARN, "client: TCP_NODELAY on the control connection: %s",
		       strerror(errno));
	lr_client_snd_timeout(c, fd);
	if (c->tc.cntl_ka &&
	    (rc = lr_sock_keepalive(fd, c->tc.ka_idle, c->tc.ka_intv, c->tc.ka_cnt)) < 0)
		lr_log(LR_LOG_WARN, "client: --cntl-ka: %s", strerror(-rc));
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

	{	/* -J's tcp_mss_default: read where iperf3 reads it, the cookie sent */
		int mss = 0;
		socklen_t sl = sizeof(mss);

		if (getsockopt(c->ctl_fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &sl) == 0 && mss > 0)
			c->res->tcp_mss_default = mss;
	}
	lr_proto_params_init(p);
	p->udp = c->tc.udp;
	p->reverse = c->tc.reverse && !c->tc.bidir;
	p->bidir = c->tc.bidir;
	p->time_s = (int64_t)((c->duration_ns + LR_NSEC_PER_SEC - 1) / LR_NSEC_PER_SEC);
	p->omit_s = c->tc.omit_s;
	p->get_server_output = c->tc.get_server_output;
	p->num_bytes = c->tc.num_bytes;
	p->blockcount = c->tc.blockcount;
	if (p->num_bytes || p->blockcount)
		p->time_s = 0;	/* as iperf3: the byte or block count ends the test */
	p->nodelay = c->tc.nodelay;
	p->mptcp = c->tc.mptcp;
	p->burst = c->tc.burst;
	if (c->tc.pacing_timer_set)
		p->pacing_timer_us = c->tc.pacing_timer_us;
	p->tos = c->tc.tos;
	p->flowlabel = c->tc.flowlabel;
	p->fqrate_bps = c->tc.fq_rate_bps;
	p->zerocopy = c->tc.zerocopy;
	p->dont_fragment = c->tc.dont_fragment;
	p->skip_rx_copy = c->tc.skip_rx_copy;
	p->repeating_payload = c->tc.repeating_payload;
	p->udp_64bit = c->tc.udp_64bit;
	if (c->tc.extra_data)
		snprintf(p->extra_data, sizeof(p->extra_data), "%s", c->tc.extra_data);
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
	p->peer_stats = !c->tc.no_peer_stats;	/* docs/wire.md (part 2); iperf3 ignores the key */
	p->peer_interval_ms = (unsigned)(c->tc.peer_interval_ns / LR_NSEC_PER_MSEC);
	p->probe = p->peer_stats && !c->tc.no_latency;	/* docs/wire.md, part 3 */
	pthread_mutex_lock(&c->lock);
	c->probe_state = p->probe ? LR_PROBE_ASKED : LR_PROBE_OFF;
	pthread_mutex_unlock(&c->lock);
	if (c->auth) {	/* stamped now: the server checks it against its own clock */
		char *tok;

		rc = lr_auth_client_token(c->auth, (int64_t)time(NULL), &tok);
		if (rc == 0 && strlen(tok) >= sizeof(p->authtoken)) {
			free(tok);
			rc = -E2BIG;
		}
		if (rc < 0) {
			lr_client_set_err(c, "cannot build the authentication token: %s",
					  strerror(-rc));
			return rc;
		}
		memcpy(p->authtoken, tok, strlen(tok) + 1);
		free(tok);
	}
	rc = lr_proto_params_encode(p, &buf, &len);
	if (rc < 0) {
		lr_client_set_err(c, "cannot encode the test parameters: %s", strerror(-rc));
		return rc;
	}
	lr_proto_debug_json("send_parameters:", buf, len);
	rc = lr_proto_msg_send(&cc, buf, len);
	free(buf);
	if (rc < 0)
		lr_client_report_io_err(c, "sending the test parameters", rc);
	return rc;
}

/* -n/-k: each sending stream's share of the count (iperf3 counts the total). */
static uint64_t count_share(struct lr_client *c)
{
	uint64_t limit = c->tc.num_bytes ? c->tc.num_bytes : c->tc.blockcount * c->params.len;
	unsigned senders = c->tc.parallel;

	return limit ? (limit + senders - 1) / senders : 0;
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

	/* -m: the data connections only, as iperf3's (its control connection is plain TCP) */
	fd = socket(c->peer.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    c->tc.mptcp ? IPPROTO_MPTCP : 0);
	if (fd < 0)
		return -errno;
	apply_tcp_opts(c, fd);
	apply_window(c, fd);
	lr_client_snd_timeout(c, fd);
	rc = data_sock_prepare(c, fd, SOCK_STREAM);
	if (rc == 0) {
		struct sockaddr_storage to = data_peer(c);

		rc = connect_bounded(c, fd, &to);
	}
	if (rc == 0) {
		cc = (struct lr_proto_conn){.fd = fd, .stop = &c->stop, .side_fd = -1};
		rc = lr_proto_write(&cc, c->cookie, LR_PROTO_COOKIE_LEN, lr_client_left(c));
	}
	if (rc < 0) {
		close(fd);
		return rc;
	}
	*out = fd;
	return 0;
}

/* The UDP setup datagram is resent until the reply comes: first after three round trips of
 * the control connection (100 ms to 1 s), then at doubling gaps up to max(250 ms, first).
 * A resend that reaches a server which already has the stream is a late duplicate: a linerate
 * server answers it again and never counts it as data; iperf3 never answers it (its stream
 * socket is connected), so for the last stream TEST_START on the control connection is the
 * answer. In 5 s that is ~20 tries: with half of the datagrams lost both ways (a try succeeds
 * one time in four) all fail once in 300 setups; with half of the requests lost, never. */
#define UDP_GAP_CAP_NS (250 * LR_NSEC_PER_MSEC)
static uint64_t udp_first_gap_ns(struct lr_client *c)
{
	struct tcp_info ti;
	socklen_t sl = sizeof(ti);
	uint64_t ns = 100 * LR_NSEC_PER_MSEC;

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(c->ctl_fd, IPPROTO_TCP, TCP_INFO, &ti, &sl) == 0 &&
	    3ull * ti.tcpi_rtt * LR_NSEC_PER_USEC > ns)
		ns = 3ull * ti.tcpi_rtt * LR_NSEC_PER_USEC;
	return ns > LR_NSEC_PER_SEC ? LR_NSEC_PER_SEC : ns;
}

#define UDP_SETUP_CTL 1 /* the control connection spoke first: the caller reads it */

struct udp_setup {
	unsigned tries; /* setup datagrams sent */
	unsigned refused; /* ICMP port unreachable seen */
	bool by_test_start; /* the reply was lost; TEST_START said the server has the stream */
};

/* 0 when the control connection has nothing; 1 when its next byte is TEST_START; -1 when it
 * has something else (an error byte, EOF, a reset). */
static int ctl_peek(struct lr_client *c)
{
	int8_t b;
	ssize_t n = recv(c->ctl_fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	return n == 1 && b == LR_PROTO_TEST_START ? 1 : -1;
}

/* iperf3's UDP "connect": send "9876", wait for "6789", resent with back-off until the connect
 * timeout; in -R a data datagram may overtake the reply, so datagrams that cannot be a reply
 * are skipped. 0, UDP_SETUP_CTL, or -errno. */
static int udp_stream_connect(struct lr_client *c, bool last, int *out, struct udp_setup *u)
{
	uint64_t now = lr_clock_mono_ns(), deadline = now + c->connect_timeout_ns;
	uint64_t gap = udp_first_gap_ns(c), next = now;
	uint64_t cap = gap > UDP_GAP_CAP_NS ? gap : UDP_GAP_CAP_NS;
	size_t bufsz = c->params.len > 4 ? c->params.len : 4;
	uint8_t *buf;
	int fd, rc;

	if (deadline > c->deadline_ns)
		deadline = c->deadline_ns;
	fd = socket(c->peer.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	apply_window(c, fd);
	buf = malloc(bufsz);
	rc = buf ? data_sock_prepare(c, fd, SOCK_DGRAM) : -ENOMEM;
	if (rc == 0) {
		struct sockaddr_storage to = data_peer(c);

		if (connect(fd, (const struct sockaddr *)&to, c->peer_len) < 0)
			rc = -errno;
	}
	while (rc == 0) {
		struct pollfd pfd[2] = {{.fd = fd, .events = POLLIN},
					{.fd = c->ctl_fd, .events = POLLIN}};
		uint64_t until;
		ssize_t n;

		now = lr_clock_mono_ns();
		if (atomic_load(&c->stop)) {
			rc = -ECANCELED;
			break;
		}
		if (now >= deadline) {
			rc = u->refused && u->refused >= u->tries ? -ECONNREFUSED : -ETIMEDOUT;
			break;
		}
		if (now >= next) {
			if (send(fd, lr_proto_udp_connect_msg, 4, MSG_NOSIGNAL) == 4)
				u->tries++;
			else if (errno == ECONNREFUSED) /* an earlier try's ICMP error */
				u->refused++;
			else if (errno != EAGAIN && errno != ENOBUFS && errno != EINTR) {
				rc = -errno;
				break;
			}
			next = now + gap;
			gap = 2 * gap > cap ? cap : 2 * gap;
		}
		until = next < deadline ? next : deadline;
		if (poll(pfd, 2,
			 until - now > 50 * LR_NSEC_PER_MSEC
				 ? 50
				 : (int)((until - now) / LR_NSEC_PER_MSEC) + 1) <= 0)
			continue;
		if (pfd[1].revents) {
			int k = ctl_peek(c);

			if (k > 0 && last) { /* the server has every stream: ours too */
				u->by_test_start = true;
				break;
			}
			if (k != 0) {
				rc = UDP_SETUP_CTL;
				break;
			}
		}
		if (!pfd[0].revents)
			continue;
		n = recv(fd, buf, bufsz, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == ECONNREFUSED)
				u->refused++;
			else if (errno != EAGAIN && errno != EINTR)
				rc = -errno;
			continue;
		}
		if (lr_proto_udp_is_reply(buf, (size_t)n))
			break;
		if (n < LR_PROTO_UDP_MIN_LEN) {
			rc = -EPROTO;
			break;
		}
		/* a data datagram overtook the reply: skip it */
	}
	free(buf);
	if (rc != 0) {
		close(fd);
		return rc;
	}
	*out = fd;
	return 0;
}

static void stream_failed(struct lr_client *c, unsigned i, int rc, const struct udp_setup *u)
{
	char where[128];

	fmt_peer(c, where, sizeof(where));
	if (c->tc.udp && rc == -ETIMEDOUT)
		lr_client_set_err(
			c,
			"no answer from %s to the setup of UDP data stream %u within %.1f s "
			"(%u setup datagrams sent; --connect-timeout)",
			where, i + 1, (double)c->connect_timeout_ns / 1e9, u->tries);
	else if (c->tc.udp && rc == -ECONNREFUSED)
		lr_client_set_err(c,
				  "UDP data stream %u to %s refused: nothing listens on the "
				  "server's UDP port",
				  i + 1, where);
	else if (rc == -ETIMEDOUT)
		lr_client_set_err(c,
				  "cannot open data stream %u to %s: no answer within %.1f s "
				  "(--connect-timeout)",
				  i + 1, where, (double)c->connect_timeout_ns / 1e9);
	else
		lr_client_set_err(c, "cannot open data stream %u to %s: %s", i + 1, where,
				  strerror(-rc));
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
			.pin_set = c->tc.affinity_node >= 0,
			.cpus = c->tc.affinity_cpus,
			.no_gso = c->tc.no_gso,
			.rx_len = lr_stream_tcp_read_len((size_t)c->params.len, c->n_max),
			.burst = c->tc.burst,
			.udp_64bit_seq = c->tc.udp_64bit,
			.zerocopy = c->tc.zerocopy,
			.repeating_payload = c->tc.repeating_payload,
			.skip_rx_copy = c->tc.skip_rx_copy,
			.file = c->tc.file,
			.max_bytes = count_share(c),
		};
		struct udp_setup u = {0};
		struct lr_stream *s;
		uint64_t now = lr_clock_mono_ns();
		int fd = -1, rc;

		/* each stream gets the connect timeout: many streams over a lossy link take long
		 * to set up, but a setup that goes on progressing is no hang */
		if (c->deadline_ns < now + c->connect_timeout_ns)
			c->deadline_ns = now + c->connect_timeout_ns;
		c->setting_up = i;
		rc = c->tc.udp ? udp_stream_connect(c, i + 1 == c->n_max, &fd, &u)
			       : tcp_stream_connect(c, &fd);
		if (rc == UDP_SETUP_CTL) { /* an error byte, EOF, or a message out of turn */
			char what[64];
			int st;

			snprintf(what, sizeof(what), "setting up data stream %u", i + 1);
			rc = lr_client_expect_state(c, &st, what);
			if (rc == 0) {
				lr_client_set_err(
					c, "unexpected message %d (%s) from the server while %s",
					st, lr_proto_state_name(st), what);
				rc = -EPROTO;
			}
			return rc;
		}
		if (rc < 0) {
			if (rc != -ECANCELED)
				stream_failed(c, i, rc, &u);
			return rc;
		}
		/* TEST_START before the reply datagram is a normal start (the server had every
		 * stream's datagram; its reply is still on the way): only a resend is news */
		if (u.tries > 1)
			lr_log(LR_LOG_INFO, "client: UDP data stream %u set up after %u tries%s",
			       i + 1, u.tries,
			       u.by_test_start ? " (the server's TEST_START confirmed it)" : "");
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

/* The local and remote ports of a connected socket (0 when unknown). */
static void fd_ports(int fd, uint16_t *local, uint16_t *remote)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	memset(&ss, 0, sizeof(ss));
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
		*local = ntohs(((struct sockaddr_in *)&ss)->sin_port);	/* same offset in6 */
	sl = sizeof(ss);
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) == 0)
		*remote = ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

static void fd_host(int fd, bool peer, char *buf, size_t size)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int rc = peer ? getpeername(fd, (struct sockaddr *)&ss, &sl)
		      : getsockname(fd, (struct sockaddr *)&ss, &sl);

	if (rc < 0 || getnameinfo((struct sockaddr *)&ss, sl, buf, (socklen_t)size, NULL, 0,
				  NI_NUMERICHOST) != 0)
		buf[0] = '\0';
}

int lr_client_start_info(struct lr_client *c, struct lr_traffic_results *out)
{
	int st = lr_client_state(c);

	if (st != LR_CLIENT_RUNNING && st != LR_CLIENT_ENDING && st != LR_CLIENT_DONE)
		return -EAGAIN;
	memset(out, 0, sizeof(*out));
	out->udp = c->tc.udp;
	out->reverse = c->params.reverse;
	out->bidir = c->tc.bidir;
	out->parallel = c->tc.parallel;
	out->len = c->params.len;
	out->bitrate_bps = c->params.bandwidth_bps;
	out->duration_ns = c->duration_ns;
	out->start_real_ns = c->res->start_real_ns;	/* written before RUNNING */
	memcpy(out->cookie, c->cookie, sizeof(out->cookie));
	fd_host(c->ctl_fd, false, out->local_host, sizeof(out->local_host));
	fd_host(c->ctl_fd, true, out->remote_host, sizeof(out->remote_host));
	fd_ports(c->ctl_fd, &out->local_port, &out->remote_port);
	out->have_sockbuf = c->res->have_sockbuf;
	out->sock_bufsize = c->res->sock_bufsize;
	out->sndbuf_actual = c->res->sndbuf_actual;
	out->rcvbuf_actual = c->res->rcvbuf_actual;
	out->tcp_mss_default = c->res->tcp_mss_default;
	for (unsigned i = 0; i < lr_client_nstreams(c) && i < LR_PROTO_MAX_RESULTS; i++) {
		const struct lr_stream_params *sp = lr_stream_params(c->streams[i]);
		struct lr_traffic_stream_result *e = &out->streams[i];

		e->id = sp->id;
		e->client_sends = sp->sender;
		e->udp = sp->udp;
		fd_ports(sp->fd, &e->local_port, &e->remote_port);
		out->n_streams = i + 1;
	}
	return 0;
}
