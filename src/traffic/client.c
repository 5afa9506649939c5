// SPDX-License-Identifier: GPL-2.0-or-later
/* iperf3-compatible client session. lr_client_start spawns one control thread that connects,
 * exchanges cookie and params, opens the data connections one at a time (TCP: connect + cookie;
 * UDP: the 4-byte handshake), hands them to lr_stream, runs for the duration, exchanges
 * results and closes. The session owns the control socket, the control thread and the streams;
 * any thread may query state, live stream stats, change the rate or stop it. */
#include <arpa/inet.h>
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

#include "linerate/clock.h"
#include "linerate/config.h"
#include "linerate/log.h"
#include "linerate/proto.h"
#include "linerate/stream.h"
#include "linerate/traffic.h"

#ifndef LR_VERSION
#define LR_VERSION "0"
#endif
#define CTL_TIMEOUT_NS	   (30 * LR_NSEC_PER_SEC) /* iperf3's overall control read bound */
#define CONNECT_TIMEOUT_NS (10 * LR_NSEC_PER_SEC)
#define RESULTS_TIMEOUT_NS (30 * LR_NSEC_PER_SEC)

struct lr_client {
	struct lr_traffic_config tc;
	char *host, *bind, *congestion;
	uint64_t duration_ns;

	pthread_t thread;
	bool thread_started;
	atomic_bool stop;
	_Atomic int state;

	pthread_mutex_t lock; /* err, streams publication, rate, done */
	pthread_cond_t done_cond;
	char err[256];
	uint64_t rate_bps;

	int ctl_fd;
	char cookie[LR_PROTO_COOKIE_LEN];
	struct lr_proto_params params;
	struct sockaddr_storage peer;
	socklen_t peer_len;

	unsigned n_max;
	_Atomic unsigned n_streams;
	struct lr_stream **streams;
	bool *joined; /* control thread only */

	struct rusage ru0;
	uint64_t t0_ns;
	struct lr_traffic_results *res;
};

static void set_err(struct lr_client *c, const char *fmt, ...) LR_PRINTF(2, 3);
static void set_err(struct lr_client *c, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&c->lock);
	if (!c->err[0]) {
		va_start(ap, fmt);
		vsnprintf(c->err, sizeof(c->err), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&c->lock);
	lr_log(LR_LOG_ERR, "%s", c->err);
}

static void set_state(struct lr_client *c, enum lr_client_state st)
{
	pthread_mutex_lock(&c->lock);
	atomic_store(&c->state, (int)st);
	pthread_cond_broadcast(&c->done_cond);
	pthread_mutex_unlock(&c->lock);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int lr_client_open(struct lr_client **out, const struct lr_traffic_config *tc, uint64_t duration_ns)
{
	struct lr_client *c;
	unsigned p = tc->parallel ? tc->parallel : 1;

	if (!tc->host || !tc->host[0] || p > LR_PROTO_MAX_STREAMS)
		return -EINVAL;
	if (tc->length &&
	    (tc->udp ? (tc->length < LR_PROTO_UDP_MIN_LEN || tc->length > LR_PROTO_UDP_MAX_LEN)
		     : tc->length > LR_PROTO_TCP_MAX_LEN))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->res = calloc(1, sizeof(*c->res));
	c->tc = *tc;
	c->tc.parallel = p;
	c->host = strdup(tc->host);
	c->bind = dup_or_null(tc->bind);
	c->congestion = dup_or_null(tc->congestion);
	c->n_max = tc->bidir ? 2 * p : p;
	c->streams = calloc(c->n_max, sizeof(*c->streams));
	c->joined = calloc(c->n_max, sizeof(*c->joined));
	if (!c->joined || !c->res || !c->host || (tc->bind && !c->bind) ||
	    (tc->congestion && !c->congestion) || !c->streams) {
		free(c->res);
		free(c->host);
		free(c->bind);
		free(c->congestion);
		free(c->streams);
		free(c->joined);
		free(c);
		return -ENOMEM;
	}
	c->tc.host = c->host;
	c->tc.bind = c->bind;
	c->tc.congestion = c->congestion;
	if (!c->tc.port)
		c->tc.port = LR_PROTO_PORT;
	c->duration_ns = duration_ns;
	c->rate_bps = tc->udp && !tc->bitrate_set ? LR_PROTO_UDP_DEF_RATE : tc->bitrate_bps;
	c->ctl_fd = -1;
	pthread_mutex_init(&c->lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* wall-clock jumps */
		pthread_cond_init(&c->done_cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	atomic_init(&c->stop, false);
	atomic_init(&c->state, LR_CLIENT_IDLE);
	atomic_init(&c->n_streams, 0);
	*out = c;
	return 0;
}

/* ---- sockets ---- */

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
	socklen_t len;
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
	int v;

	if (!c->tc.window)
		return;
	v = c->tc.window > INT32_MAX ? INT32_MAX : (int)c->tc.window;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) < 0)
		lr_log(LR_LOG_WARN, "client: window %d: %s", v, strerror(errno));
}

static void fmt_peer(struct lr_client *c, char *buf, size_t size)
{
	if (strchr(c->host, ':'))
		snprintf(buf, size, "[%s]:%u", c->host, c->tc.port);
	else
		snprintf(buf, size, "%s:%u", c->host, c->tc.port);
}

static int ctl_connect(struct lr_client *c)
{
	char where[128];
	int fd, rc, one = 1;

	fmt_peer(c, where, sizeof(where));
	rc = resolve(c->host, c->tc.port, SOCK_STREAM, AF_UNSPEC, &c->peer, &c->peer_len);
	if (rc < 0) {
		set_err(c, "cannot resolve %s", c->host);
		return rc;
	}
	fd = socket(c->peer.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		rc = -errno;
		set_err(c, "socket: %s", strerror(-rc));
		return rc;
	}
	rc = bind_local(c, fd, SOCK_STREAM);
	if (rc < 0) {
		set_err(c, "cannot bind to %s: %s", c->bind, strerror(-rc));
		close(fd);
		return rc;
	}
	rc = connect_bounded(c, fd);
	if (rc < 0) {
		if (rc != -ECANCELED)
			set_err(c, "cannot connect to %s: %s", where, strerror(-rc));
		close(fd);
		return rc;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->ctl_fd = fd;
	return 0;
}

/* ---- protocol helpers ---- */

static struct lr_proto_conn ctl_conn(struct lr_client *c)
{
	return (struct lr_proto_conn){.fd = c->ctl_fd, .stop = &c->stop, .side_fd = -1};
}

static void report_io_err(struct lr_client *c, const char *what, int rc)
{
	if (rc == -ECANCELED)
		return;
	if (rc == -ECONNRESET)
		set_err(c, "server closed the control connection while %s", what);
	else if (rc == -ETIMEDOUT)
		set_err(c, "timed out while %s", what);
	else
		set_err(c, "control connection error while %s: %s", what, strerror(-rc));
}

/* Reads one state byte and handles the server's error bytes. 0 with *st, or -errno. */
static int expect_state(struct lr_client *c, int *st, const char *what, uint64_t timeout_ns)
{
	struct lr_proto_conn cc = ctl_conn(c);
	int rc = lr_proto_state_recv(&cc, st, timeout_ns);

	if (rc < 0) {
		report_io_err(c, what, rc);
		return rc;
	}
	if (*st == LR_PROTO_ACCESS_DENIED) {
		set_err(c, "the server is busy running a test; try again later");
		return -EBUSY;
	}
	if (*st == LR_PROTO_SERVER_ERROR) {
		uint8_t b[8] = {0};
		int ie;

		if (lr_proto_read(&cc, b, 8, 2 * LR_NSEC_PER_SEC) < 0)
			lr_log(LR_LOG_DEBUG, "client: SERVER_ERROR without its two ints");
		ie = (int)((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 |
			   b[3]);
		set_err(c, "the server reported an error (iperf3 error %d) while %s", ie, what);
		return -EPROTO;
	}
	if (*st == LR_PROTO_SERVER_TERMINATE) {
		set_err(c, "the server terminated the test");
		return -ECONNABORTED;
	}
	return 0;
}

static int expect_exact(struct lr_client *c, int want, const char *what, uint64_t timeout_ns)
{
	int st, rc = expect_state(c, &st, what, timeout_ns);

	if (rc < 0)
		return rc;
	if (st != want) {
		set_err(c, "unexpected message %d (%s) from the server while %s", st,
			lr_proto_state_name(st), what);
		return -EPROTO;
	}
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

static int send_params(struct lr_client *c)
{
	struct lr_proto_params *p = &c->params;
	struct lr_proto_conn cc = ctl_conn(c);
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
	p->len = c->tc.length ? c->tc.length
			      : (c->tc.udp ? udp_default_len(c) : LR_PROTO_TCP_DEF_LEN);
	pthread_mutex_lock(&c->lock);
	p->bandwidth_bps = c->rate_bps;
	pthread_mutex_unlock(&c->lock);
	if (c->congestion)
		snprintf(p->congestion, sizeof(p->congestion), "%s", c->congestion);
	/* informational for iperf3; tells a linerate server that this client drains (server.c) */
	snprintf(p->client_version, sizeof(p->client_version), "linerate %s", LR_VERSION);
	rc = lr_proto_params_encode(p, &buf, &len);
	if (rc < 0) {
		set_err(c, "cannot encode the test parameters: %s", strerror(-rc));
		return rc;
	}
	rc = lr_proto_msg_send(&cc, buf, len);
	free(buf);
	if (rc < 0)
		report_io_err(c, "sending the test parameters", rc);
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

static int create_streams(struct lr_client *c)
{
	for (unsigned i = 0; i < c->n_max; i++) {
		struct lr_stream_params sp = {
			.id = stream_id(i),
			.udp = c->tc.udp,
			.sender = stream_is_sender(c, i),
			.len = (size_t)c->params.len,
			.cpu = c->tc.affinity,
			.no_gso = c->tc.no_gso,
		};
		struct lr_stream *s;
		int fd = -1, rc;

		rc = c->tc.udp ? udp_stream_connect(c, &fd) : tcp_stream_connect(c, &fd);
		if (rc < 0) {
			if (rc != -ECANCELED) {
				char where[128];

				fmt_peer(c, where, sizeof(where));
				set_err(c, "cannot open data stream %u to %s: %s", i + 1, where,
					strerror(-rc));
			}
			return rc;
		}
		sp.fd = fd;
		pthread_mutex_lock(&c->lock);
		sp.rate_bps = sp.sender ? c->rate_bps : 0;
		rc = lr_stream_open(&s, &sp);
		if (rc == 0) {
			c->streams[i] = s;
			atomic_store(&c->n_streams, i + 1);
		}
		pthread_mutex_unlock(&c->lock);
		if (rc < 0) {
			set_err(c, "cannot set up data stream %u: %s", i + 1, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

static unsigned nstreams(const struct lr_client *c)
{
	return atomic_load(&c->n_streams);
}

static void stop_streams(struct lr_client *c, int which) /* 1 senders, 0 receivers, -1 all */
{
	unsigned n = nstreams(c);

	for (unsigned i = 0; i < n; i++)
		if (!c->joined[i] &&
		    (which < 0 || (int)lr_stream_params(c->streams[i])->sender == which))
			lr_stream_stop(c->streams[i]);
	for (unsigned i = 0; i < n; i++)
		if (!c->joined[i] &&
		    (which < 0 || (int)lr_stream_params(c->streams[i])->sender == which)) {
			lr_stream_join(c->streams[i]);
			c->joined[i] = true;
		}
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void cpu_util(struct lr_client *c, double *total, double *user, double *sys)
{
	struct rusage ru;
	double wall = (double)(lr_clock_mono_ns() - c->t0_ns) / 1e9;

	getrusage(RUSAGE_SELF, &ru);
	if (wall <= 0)
		wall = 1e-9;
	*user = (tv_s(ru.ru_utime) - tv_s(c->ru0.ru_utime)) / wall * 100.0;
	*sys = (tv_s(ru.ru_stime) - tv_s(c->ru0.ru_stime)) / wall * 100.0;
	*total = *user + *sys;
}

static double stream_secs(const struct lr_stream_stats *st)
{
	uint64_t a = atomic_load_explicit(&st->start_ns, memory_order_relaxed);
	uint64_t b = atomic_load_explicit(&st->end_ns, memory_order_relaxed);

	if (!a)
		return 0;
	if (!b)
		b = lr_clock_mono_ns();
	return b > a ? (double)(b - a) / 1e9 : 0;
}

/* Local view of every stream, iperf3's send_results shape. */
static void local_results(struct lr_client *c, struct lr_proto_results *r)
{
	unsigned n = nstreams(c);
	bool any_send = false;

	memset(r, 0, sizeof(*r));
	cpu_util(c, &r->cpu_total, &r->cpu_user, &r->cpu_system);
	for (unsigned i = 0; i < n; i++) {
		const struct lr_stream_params *sp = lr_stream_params(c->streams[i]);
		const struct lr_stream_stats *st = lr_stream_stats(c->streams[i]);
		struct lr_proto_stream_result *e = &r->streams[i];

		e->id = sp->id;
		e->bytes = atomic_load(&st->bytes);
		e->retransmits =
			sp->sender && !sp->udp ? (int64_t)atomic_load(&st->retransmits) : -1;
		e->jitter_s = sp->sender ? 0 : (double)atomic_load(&st->jitter_ns) / 1e9;
		e->errors = sp->sender ? 0 : (int64_t)atomic_load(&st->lost);
		e->packets = sp->sender ? (int64_t)atomic_load(&st->packets)
					: (int64_t)atomic_load(&st->max_seq);
		e->end_time_s = stream_secs(st);
		any_send |= sp->sender;
	}
	r->n_streams = n;
	r->sender_has_retransmits = !any_send ? -1 : (c->tc.udp ? 0 : 1);
	if (c->congestion)
		snprintf(r->congestion_used, sizeof(r->congestion_used), "%s", c->congestion);
}

static void sock_ports(int fd, uint16_t *local, uint16_t *remote)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char port[8];

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sl, NULL, 0, port, sizeof(port), NI_NUMERICSERV) ==
		    0)
		*local = (uint16_t)atoi(port);
	sl = sizeof(ss);
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sl, NULL, 0, port, sizeof(port), NI_NUMERICSERV) ==
		    0)
		*remote = (uint16_t)atoi(port);
}

static void sum_add(struct lr_traffic_sum *s, const struct lr_traffic_stream_result *e)
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

static void merge_results(struct lr_client *c, const struct lr_proto_results *loc,
			  const struct lr_proto_results *peer)
{
	struct lr_traffic_results *R = c->res;

	R->n_streams = loc->n_streams;
	R->local_cpu_total = loc->cpu_total;
	R->local_cpu_user = loc->cpu_user;
	R->local_cpu_system = loc->cpu_system;
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

		for (unsigned k = 0; peer && k < peer->n_streams; k++)
			if (peer->streams[k].id == l->id)
				p = &peer->streams[k];
		memset(e, 0, sizeof(*e));
		e->id = l->id;
		e->client_sends = sp->sender;
		e->udp = sp->udp;
		e->have_peer = p != NULL;
		sock_ports(sp->fd, &e->local_port, &e->remote_port);
		if (sp->sender) {
			e->sent_bytes = l->bytes;
			e->sender_s = l->end_time_s;
			e->retransmits = l->retransmits;
			e->packets_sent = l->packets;
			e->out_of_order = -1;
			if (p) {
				e->received_bytes = p->bytes;
				e->receiver_s = p->end_time_s;
				e->packets_received = p->packets;
				e->lost = p->errors;
				e->jitter_s = p->jitter_s;
			}
		} else {
			e->received_bytes = l->bytes;
			e->receiver_s = l->end_time_s;
			e->packets_received = l->packets;
			e->lost = l->errors;
			e->jitter_s = l->jitter_s;
			e->out_of_order = (int64_t)atomic_load(&st->out_of_order);
			e->retransmits = -1;
			if (p) {
				e->sent_bytes = p->bytes;
				e->sender_s = p->end_time_s;
				e->retransmits = p->retransmits;
				e->packets_sent = p->packets;
			}
		}
		sum_add(e->client_sends ? &R->sum_up : &R->sum_down, e);
	}
	if (R->sum_up.n_streams)
		R->sum_up.jitter_s /= R->sum_up.n_streams;
	if (R->sum_down.n_streams)
		R->sum_down.jitter_s /= R->sum_down.n_streams;
}

static void fill_addrs(struct lr_client *c)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct lr_traffic_results *R = c->res;
	char port[8];

	if (getsockname(c->ctl_fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sl, R->local_host, sizeof(R->local_host), port,
			sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV) == 0)
		R->local_port = (uint16_t)atoi(port);
	sl = sizeof(ss);
	if (getpeername(c->ctl_fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sl, R->remote_host, sizeof(R->remote_host), port,
			sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV) == 0)
		R->remote_port = (uint16_t)atoi(port);
}

/* Waits for the run to end: duration, stop, or a message from the server. 0 when the time is
 * up, 1 when stopped, -errno on a server message/error. */
static int run_phase(struct lr_client *c)
{
	uint64_t end = c->duration_ns ? c->t0_ns + c->duration_ns : UINT64_MAX;

	for (;;) {
		struct pollfd pfd = {.fd = c->ctl_fd, .events = POLLIN};
		uint64_t now = lr_clock_mono_ns();
		int ms, st, rc;

		if (atomic_load(&c->stop))
			return 1;
		if (now >= end)
			return 0;
		ms = end - now > 50 * LR_NSEC_PER_MSEC ? 50
						       : (int)((end - now) / LR_NSEC_PER_MSEC) + 1;
		rc = poll(&pfd, 1, ms);
		if (rc <= 0)
			continue;
		rc = expect_state(c, &st, "running the test", CTL_TIMEOUT_NS);
		if (rc < 0)
			return rc;
		set_err(c, "unexpected message %d (%s) from the server during the test", st,
			lr_proto_state_name(st));
		return -EPROTO;
	}
}

static int exchange_results(struct lr_client *c)
{
	struct lr_proto_conn cc = ctl_conn(c);
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
		set_err(c, "cannot encode results: %s", strerror(-rc));
		goto out;
	}
	rc = lr_proto_msg_send(&cc, buf, len);
	free(buf);
	buf = NULL;
	if (rc < 0) {
		report_io_err(c, "sending results", rc);
		goto out;
	}
	rc = lr_proto_msg_recv(&cc, LR_PROTO_RESULTS_MAX, RESULTS_TIMEOUT_NS, &buf, &len);
	if (rc < 0) {
		if (rc == -EMSGSIZE)
			set_err(c, "the server's results message has a bad length");
		else
			report_io_err(c, "receiving results", rc);
		goto out;
	}
	rc = lr_proto_results_decode(buf, len, peer, err);
	if (rc < 0) {
		set_err(c, "bad results from the server: %s", err);
		goto out;
	}
	merge_results(c, loc, peer);
	c->res->complete = true;
out:
	free(buf);
	free(loc);
	free(peer);
	return rc;
}

static void partial_results(struct lr_client *c)
{
	struct lr_proto_results *loc = calloc(1, sizeof(*loc));

	if (!loc)
		return;
	local_results(c, loc);
	merge_results(c, loc, NULL);
	free(loc);
}

static void fill_config(struct lr_client *c)
{
	struct lr_traffic_results *R = c->res;

	R->udp = c->tc.udp;
	R->reverse = c->params.reverse;
	R->bidir = c->tc.bidir;
	R->parallel = c->tc.parallel;
	R->len = c->params.len;
	R->bitrate_bps = c->params.bandwidth_bps;
	memcpy(R->cookie, c->cookie, sizeof(R->cookie));
}

#define DRAIN_MAX_NS (500 * LR_NSEC_PER_MSEC)

/* iperf3 counts only what it reads before TEST_END arrives: let the stopped TCP senders' queues
 * empty first (bounded), so both sides' byte counts agree. */
static void wait_sent_drained(struct lr_client *c)
{
	uint64_t end = lr_clock_mono_ns() + DRAIN_MAX_NS;

	while (!c->tc.udp && lr_clock_mono_ns() < end && !atomic_load(&c->stop)) {
		int pending = 0;

		for (unsigned i = 0; i < nstreams(c); i++) {
			const struct lr_stream_params *sp = lr_stream_params(c->streams[i]);
			int q = 0;

			if (sp->sender && ioctl(sp->fd, SIOCOUTQ, &q) == 0)
				pending += q;
		}
		if (!pending)
			break;
		if (lr_clock_sleep_until(lr_clock_mono_ns() + 5 * LR_NSEC_PER_MSEC) < 0)
			break;
	}
	/* acked is not yet read: give the peer's reader (and UDP in flight) a moment */
	(void)lr_clock_sleep_until(lr_clock_mono_ns() + 50 * LR_NSEC_PER_MSEC);
}

/* Receivers take what is still in flight once the server stopped: until quiet (bounded). */
static void drain_receivers(struct lr_client *c)
{
	uint64_t end = lr_clock_mono_ns() + DRAIN_MAX_NS, prev = UINT64_MAX;
	int quiet = 0;
	bool any = false;

	for (unsigned i = 0; i < nstreams(c); i++)
		any |= !lr_stream_params(c->streams[i])->sender;
	while (any && quiet < 2 && lr_clock_mono_ns() < end && !atomic_load(&c->stop)) {
		uint64_t sum = 0;

		for (unsigned i = 0; i < nstreams(c); i++)
			if (!lr_stream_params(c->streams[i])->sender)
				sum += atomic_load(&lr_stream_stats(c->streams[i])->bytes);
		quiet = sum == prev ? quiet + 1 : 0;
		prev = sum;
		if (lr_clock_sleep_until(lr_clock_mono_ns() + 20 * LR_NSEC_PER_MSEC) < 0)
			break;
	}
}

/* Receivers keep counting until the server has stopped sending (EXCHANGE_RESULTS). */
static int finish(struct lr_client *c)
{
	struct lr_proto_conn cc = ctl_conn(c);
	int rc;

	stop_streams(c, 1);
	c->res->duration_ns = lr_clock_mono_ns() - c->t0_ns;
	set_state(c, LR_CLIENT_ENDING);
	wait_sent_drained(c);
	rc = lr_proto_state_send(&cc, LR_PROTO_TEST_END);
	if (rc < 0) {
		report_io_err(c, "sending TEST_END", rc);
		return rc;
	}
	rc = expect_exact(c, LR_PROTO_EXCHANGE_RESULTS, "waiting for the results exchange",
			  CTL_TIMEOUT_NS);
	if (rc == 0)
		drain_receivers(c);
	stop_streams(c, 0);
	if (rc < 0)
		return rc;
	rc = exchange_results(c);
	if (rc < 0)
		return rc;
	rc = expect_exact(c, LR_PROTO_DISPLAY_RESULTS, "waiting for DISPLAY_RESULTS",
			  CTL_TIMEOUT_NS);
	if (rc < 0)
		return rc;
	rc = lr_proto_state_send(&cc, LR_PROTO_IPERF_DONE);
	if (rc < 0)
		report_io_err(c, "sending IPERF_DONE", rc);
	return rc;
}

static void *control_thread(void *arg)
{
	struct lr_client *c = arg;
	struct lr_proto_conn cc;
	bool started = false;
	int rc, st;

	set_state(c, LR_CLIENT_CONNECTING);
	rc = lr_proto_cookie_make(c->cookie);
	if (rc < 0) {
		set_err(c, "cannot make a cookie: %s", strerror(-rc));
		goto out;
	}
	rc = ctl_connect(c);
	if (rc < 0)
		goto out;
	cc = ctl_conn(c);
	fill_addrs(c);
	rc = lr_proto_write(&cc, c->cookie, LR_PROTO_COOKIE_LEN, CONNECT_TIMEOUT_NS);
	if (rc < 0) {
		report_io_err(c, "sending the cookie", rc);
		goto out;
	}
	rc = expect_exact(c, LR_PROTO_PARAM_EXCHANGE, "waiting for the parameter exchange",
			  CTL_TIMEOUT_NS);
	if (rc < 0)
		goto out;
	started = true;
	rc = send_params(c);
	if (rc < 0)
		goto out;
	fill_config(c);
	rc = expect_exact(c, LR_PROTO_CREATE_STREAMS, "waiting for CREATE_STREAMS", CTL_TIMEOUT_NS);
	if (rc < 0) {
		if (rc == -ECONNRESET)
			set_err(c, "the server refused the test parameters");
		goto out;
	}
	rc = create_streams(c);
	if (rc < 0)
		goto out;
	rc = expect_exact(c, LR_PROTO_TEST_START, "waiting for TEST_START", CTL_TIMEOUT_NS);
	if (rc == 0)
		rc = expect_state(c, &st, "waiting for TEST_RUNNING", CTL_TIMEOUT_NS);
	if (rc < 0)
		goto out;
	if (st != LR_PROTO_TEST_RUNNING) {
		set_err(c, "unexpected message %d (%s) instead of TEST_RUNNING", st,
			lr_proto_state_name(st));
		rc = -EPROTO;
		goto out;
	}
	getrusage(RUSAGE_SELF, &c->ru0);
	c->t0_ns = lr_clock_mono_ns();
	c->res->start_real_ns = lr_clock_real_ns();
	for (unsigned i = 0; i < nstreams(c); i++) {
		rc = lr_stream_start(c->streams[i]);
		if (rc < 0) {
			set_err(c, "cannot start data stream %u: %s", i + 1, strerror(-rc));
			goto out;
		}
	}
	set_state(c, LR_CLIENT_RUNNING);
	rc = run_phase(c);
	if (rc == 0)
		rc = finish(c);
out:
	stop_streams(c, -1);
	if (rc == 1 || rc == -ECANCELED) { /* stopped early */
		cc = ctl_conn(c);
		cc.stop = NULL;
		if (c->ctl_fd >= 0 && started)
			(void)lr_proto_state_send(&cc, LR_PROTO_CLIENT_TERMINATE);
		if (!c->res->duration_ns && c->t0_ns)
			c->res->duration_ns = lr_clock_mono_ns() - c->t0_ns;
		c->res->stopped = true;
		partial_results(c);
		rc = 0;
	} else if (rc < 0 && started && c->ctl_fd >= 0) {
		cc = ctl_conn(c);
		cc.stop = NULL;
		(void)lr_proto_state_send(&cc, LR_PROTO_IPERF_DONE);
		if (c->t0_ns)
			partial_results(c);
	}
	if (c->ctl_fd >= 0) {
		shutdown(c->ctl_fd, SHUT_WR);
		close(c->ctl_fd);
		c->ctl_fd = -1;
	}
	set_state(c, rc < 0 ? LR_CLIENT_ERROR : LR_CLIENT_DONE);
	return NULL;
}

int lr_client_start(struct lr_client *c)
{
	sigset_t all, old;
	int rc;

	if (c->thread_started)
		return -EALREADY;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&c->thread, NULL, control_thread, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return -rc;
	c->thread_started = true;
	return 0;
}

void lr_client_stop(struct lr_client *c)
{
	atomic_store(&c->stop, true);
}

void lr_client_set_rate(struct lr_client *c, uint64_t rate_bps)
{
	pthread_mutex_lock(&c->lock);
	c->rate_bps = rate_bps;
	for (unsigned i = 0; i < nstreams(c); i++)
		if (lr_stream_params(c->streams[i])->sender)
			lr_stream_set_rate(c->streams[i], rate_bps);
	pthread_mutex_unlock(&c->lock);
}

enum lr_client_state lr_client_state(const struct lr_client *c)
{
	return (enum lr_client_state)atomic_load(&c->state);
}

void lr_client_error(struct lr_client *c, char *buf, size_t size)
{
	pthread_mutex_lock(&c->lock);
	snprintf(buf, size, "%s", c->err);
	pthread_mutex_unlock(&c->lock);
}

static bool finished(const struct lr_client *c)
{
	int st = atomic_load(&c->state);

	return st == LR_CLIENT_DONE || st == LR_CLIENT_ERROR;
}

bool lr_client_wait(struct lr_client *c, uint64_t timeout_ns)
{
	uint64_t deadline = timeout_ns ? lr_clock_mono_ns() + timeout_ns : 0;
	struct timespec ts = {.tv_sec = (time_t)(deadline / LR_NSEC_PER_SEC),
			      .tv_nsec = (long)(deadline % LR_NSEC_PER_SEC)};
	bool done;

	pthread_mutex_lock(&c->lock);
	while (!finished(c)) {
		if (!deadline)
			pthread_cond_wait(&c->done_cond, &c->lock);
		else if (pthread_cond_timedwait(&c->done_cond, &c->lock, &ts) == ETIMEDOUT)
			break;
	}
	done = finished(c);
	pthread_mutex_unlock(&c->lock);
	return done;
}

unsigned lr_client_stream_count(const struct lr_client *c)
{
	return nstreams(c);
}

int lr_client_stream_info(const struct lr_client *c, unsigned i, struct lr_client_stream_info *out)
{
	const struct lr_stream_params *sp;

	if (i >= nstreams(c))
		return -ENOENT;
	sp = lr_stream_params(c->streams[i]);
	out->id = sp->id;
	out->sender = sp->sender;
	out->udp = sp->udp;
	out->stats = lr_stream_stats(c->streams[i]);
	return 0;
}

int lr_client_results(struct lr_client *c, struct lr_traffic_results *out)
{
	if (!finished(c))
		return -EAGAIN;
	*out = *c->res;
	return 0;
}

void lr_client_close(struct lr_client *c)
{
	if (!c)
		return;
	if (c->thread_started) {
		lr_client_stop(c);
		pthread_join(c->thread, NULL);
	}
	for (unsigned i = 0; i < nstreams(c); i++)
		lr_stream_close(c->streams[i]);
	if (c->ctl_fd >= 0)
		close(c->ctl_fd);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->done_cond);
	free(c->streams);
	free(c->joined);
	free(c->res);
	free(c->host);
	free(c->bind);
	free(c->congestion);
	free(c);
}
