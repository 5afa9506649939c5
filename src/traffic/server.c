// SPDX-License-Identifier: GPL-2.0-or-later
/* iperf3-compatible server. lr_server_run (caller's thread) owns the TCP listener and every
 * connection that has not yet sent its 37-byte cookie: up to MAX_PENDING at once, each with a
 * 10 s deadline, so silent or garbage peers cannot block anyone. The first complete cookie
 * starts a test on a session thread, which runs the control protocol with bounded reads; data
 * connections with the test's cookie are handed to it through a pipe, anything else gets
 * ACCESS_DENIED. One test at a time; a failure ends only that attempt, with one log line. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <linux/sockios.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/proto.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"
#include "server_priv.h"

static void peer_name(int fd, char *buf, size_t size)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[48], port[8];

	if (getpeername(fd, (struct sockaddr *)&ss, &sl) < 0 ||
	    getnameinfo((struct sockaddr *)&ss, sl, host, sizeof(host), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(buf, size, "?");
		return;
	}
	snprintf(buf, size, strchr(host, ':') ? "[%s]:%s" : "%s:%s", host, port);
}

static void deny(int fd)
{
	int8_t b = LR_PROTO_ACCESS_DENIED;

	if (send(fd, &b, 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		lr_log(LR_LOG_DEBUG, "server: ACCESS_DENIED not sent: %s", strerror(errno));
	close(fd);
}

/* ---------------- acceptor ---------------- */

int lr_server_bind_dev(const struct lr_server *s, int fd)
{
	const char *dev = s->o.bind_dev;

	if (dev && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, dev, (socklen_t)strlen(dev)) < 0)
		return -errno;
	return 0;
}

/* proto: 0 (TCP) or IPPROTO_MPTCP */
static int listen_socket(const struct lr_server *s, int family, const struct sockaddr *addr,
			 socklen_t len, int proto)
{
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, proto), one = 1, rc;

	if (fd < 0)
		return -errno;
	rc = lr_server_bind_dev(s, fd);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	/* without it a restart within TIME_WAIT cannot bind; serving goes on, so only say so */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0)
		lr_log(LR_LOG_WARN, "server: SO_REUSEADDR: %s", strerror(errno));
	if (family == AF_INET6) {
		int zero = 0;

		/* dual stack: an IPv6-only listener would leave IPv4 clients refused */
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)) < 0)
			lr_log(LR_LOG_WARN,
			       "server: IPv4 clients may be refused: IPV6_V6ONLY off: %s",
			       strerror(errno));
	}
	if (bind(fd, addr, len) < 0 || listen(fd, 128) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

/* A test's -w/-M went onto the listener (server_session.c) so its data connections were born
 * with them. Once they are in (or the test is over) anyone else gets a fresh listener, as in
 * iperf3: a socket buffer size cannot be unset. A connection attempt in the gap is refused.
 * A test that asks for MPTCP (want_mptcp, set by its session) gets an MPTCP listener for its
 * data connections the same way, as iperf3 remakes its listener: control connections stay
 * plain TCP. 0 or -errno (logged; the server cannot go on). */
static int listener_reset(struct lr_server *s)
{
	int proto = atomic_load(&s->want_mptcp) ? IPPROTO_MPTCP : 0;
	int fd;

	if (!proto && (!atomic_load(&s->listener_tuned) ||
		       (s->sess && atomic_load(&s->sess->phase) < PH_RUN)))
		return 0;
	atomic_store(&s->listener_tuned, proto != 0);
	close(s->lfd);
	fd = listen_socket(s, s->family, (struct sockaddr *)&s->local, s->local_len, proto);
	if (fd < 0 && proto) {	/* the session sees lproto 0 and fails its test */
		lr_log(LR_LOG_ERR, "server: MPTCP listener: %s", strerror(-fd));
		proto = 0;
		fd = listen_socket(s, s->family, (struct sockaddr *)&s->local, s->local_len, 0);
	}
	s->lfd = fd < 0 ? -1 : fd;
	atomic_store(&s->lproto, proto);
	atomic_store(&s->want_mptcp, false);
	if (fd < 0)
		lr_log(LR_LOG_ERR, "server: cannot listen again on port %u: %s", s->o.port,
		       strerror(-fd));
	return fd < 0 ? fd : 0;
}

int lr_server_open(struct lr_server **out, const struct lr_server_opts *o)
{
	struct lr_server *s = calloc(1, sizeof(*s));
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
	struct addrinfo *ai = NULL, *a;
	char ports[8];
	int rc = -EADDRNOTAVAIL;

	if (!s)
		return -ENOMEM;
	s->o = *o;
	if (!s->o.port)
		s->o.port = LR_PROTO_PORT;
	s->lfd = -1;
	atomic_init(&s->stop, false);
	atomic_init(&s->tests_done, 0);
	atomic_init(&s->listener_tuned, false);
	atomic_init(&s->want_mptcp, false);
	atomic_init(&s->lproto, 0);
	atomic_init(&s->probe_answered, 0);
	atomic_init(&s->probe_refused, 0);
	for (int i = 0; i < MAX_PENDING; i++)
		s->pend[i].fd = -1;
	snprintf(ports, sizeof(ports), "%u", s->o.port);
	if (!o->bind)
		hints.ai_family = AF_INET6;
	if (getaddrinfo(o->bind, ports, &hints, &ai) != 0) {
		hints.ai_family = AF_INET;
		if (getaddrinfo(o->bind, ports, &hints, &ai) != 0) {
			lr_log(LR_LOG_ERR, "server: cannot resolve %s", o->bind ? o->bind : "any");
			free(s);
			return -EADDRNOTAVAIL;
		}
	}
	for (a = ai; a; a = a->ai_next) {
		int fd = listen_socket(s, a->ai_family, a->ai_addr, a->ai_addrlen, 0);

		if (fd < 0) {
			rc = fd;
			continue;
		}
		s->lfd = fd;
		s->family = a->ai_family;
		memcpy(&s->local, a->ai_addr, a->ai_addrlen);
		s->local_len = a->ai_addrlen;
		break;
	}
	freeaddrinfo(ai);
	if (s->lfd < 0 && !o->bind) { /* no IPv6: retry on IPv4 */
		struct lr_server_opts o4 = s->o;

		free(s);
		o4.bind = "0.0.0.0";
		return lr_server_open(out, &o4);
	}
	if (s->lfd < 0) {
		lr_log(LR_LOG_ERR, "server: cannot listen on %s port %u: %s",
		       o->bind ? o->bind : "any", s->o.port, strerror(-rc));
		free(s);
		return rc;
	}
	if (lr_auth_server_wanted(&o->auth)) {
		char aerr[LR_AUTH_ERR_MAX];

		rc = lr_auth_server_open(&s->auth, &o->auth, aerr);
		if (rc < 0) {
			lr_log(LR_LOG_ERR, "server: %s", aerr);
			close(s->lfd);
			free(s);
			return rc;
		}
	}
	*out = s;
	return 0;
}

static void pending_drop(struct pending *pd, const char *why)
{
	if (why)
		lr_log(LR_LOG_INFO, "server: connection from %s %s", pd->peer, why);
	close(pd->fd);
	pd->fd = -1;
}

static void accept_new(struct lr_server *s)
{
	for (int k = 0; k < 64; k++) {
		int fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		struct pending *slot = NULL;
		char peer[64];

		if (fd < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
			    errno != ECONNABORTED)
				lr_log(LR_LOG_WARN, "server: accept: %s", strerror(errno));
			return;
		}
		peer_name(fd, peer, sizeof(peer));
		if (s->sess && atomic_load(&s->sess->phase) < PH_FINISH &&
		    atomic_load(&s->sess->phase) != PH_ACCEPT && !lr_server_peer_waiting(s)) {
			lr_log(LR_LOG_INFO, "server: busy; denied %s", peer);
			deny(fd);
			continue;
		}
		for (int i = 0; i < MAX_PENDING; i++) {
			if (s->pend[i].fd < 0) {
				slot = &s->pend[i];
				break;
			}
			/* evict the oldest silent one; a full cookie waiting its turn goes last */
			if (!slot || (slot->ready && !s->pend[i].ready) ||
			    (slot->ready == s->pend[i].ready &&
			     s->pend[i].deadline_ns < slot->deadline_ns))
				slot = &s->pend[i];
		}
		if (slot->fd >= 0)
			pending_drop(slot, "dropped: too many connections without a cookie");
		slot->fd = fd;
		slot->got = 0;
		slot->ready = false;
		slot->deadline_ns = lr_clock_mono_ns() + COOKIE_TIMEOUT_NS;
		memcpy(slot->peer, peer, sizeof(slot->peer));
	}
}

static void pending_cookie_done(struct lr_server *s, struct pending *pd)
{
	struct session *ss = s->sess;
	int rc;

	if (!lr_proto_cookie_valid(pd->cookie)) {
		pending_drop(pd, "sent a malformed cookie; closed");
		return;
	}
	if (ss && atomic_load(&ss->phase) >= PH_FINISH) {
		pd->ready = true; /* the previous test is closing: next in line */
		return;
	}
	if (!ss) {
		rc = lr_server_session_start(s, pd);
		if (rc < 0)
			pending_drop(pd, "could not start a session");
		return;
	}
	if (atomic_load(&ss->phase) == PH_ACCEPT &&
	    !memcmp(pd->cookie, ss->cookie, LR_PROTO_COOKIE_LEN)) {
		if (write(ss->pipe_wr, &pd->fd, sizeof(pd->fd)) == (ssize_t)sizeof(pd->fd)) {
			pd->fd = -1;
			return;
		}
		pending_drop(pd, "could not be handed to the test");
		return;
	}
	lr_log(LR_LOG_INFO, "server: busy; denied %s", pd->peer);
	deny(pd->fd);
	pd->fd = -1;
}

static void pending_read(struct lr_server *s, struct pending *pd)
{
	ssize_t n = recv(pd->fd, pd->cookie + pd->got, LR_PROTO_COOKIE_LEN - pd->got, MSG_DONTWAIT);

	if (n == 0) {
		pending_drop(pd, "closed before sending a cookie");
		return;
	}
	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR)
			pending_drop(pd, "failed before sending a cookie");
		return;
	}
	pd->got += (size_t)n;
	if (pd->got == LR_PROTO_COOKIE_LEN && !lr_server_peer_take(s, pd))
		pending_cookie_done(s, pd);
}

static bool stopping(struct lr_server *s)
{
	if (atomic_load(&s->stop))
		return true;
	if (s->o.should_stop && s->o.should_stop(s->o.arg)) {
		atomic_store(&s->stop, true);
		return true;
	}
	return false;
}

int lr_server_run(struct lr_server *s)
{
	struct pollfd pfd[1 + MAX_PENDING];
	int idx[1 + MAX_PENDING];
	int rc = 0;

	uint64_t active_ns = lr_clock_mono_ns(); /* --idle-timeout: the last sign of a client */

	while (!stopping(s)) {
		uint64_t now = lr_clock_mono_ns();
		nfds_t n = 0;

		/* -1: any test ends the server, a refused token too (iperf3 3.21+; 3.20 and older
		 * wait for another client) */
		if (s->sess && atomic_load(&s->sess->phase) == PH_DONE) {
			lr_server_session_end(s);
			active_ns = now;
			if (s->o.one_off)
				break;
		}
		if (s->sess)
			active_ns = now;
		if (s->o.idle_timeout_s &&
		    now - active_ns >= (uint64_t)s->o.idle_timeout_s * LR_NSEC_PER_SEC) {
			/* iperf3's restart: whatever waits is dropped; -1 ends the server */
			lr_log(LR_LOG_INFO, "server: idle for %u s (--idle-timeout)%s",
			       s->o.idle_timeout_s, s->o.one_off ? "; exiting" : "; restarting");
			for (int i = 0; i < MAX_PENDING; i++)
				if (s->pend[i].fd >= 0)
					pending_drop(&s->pend[i], NULL);
			if (s->o.one_off)
				break;
			active_ns = now;
		}
		rc = listener_reset(s);
		if (rc < 0)
			break;
		for (int i = 0; !s->sess && i < MAX_PENDING; i++)
			if (s->pend[i].fd >= 0 && s->pend[i].ready)
				pending_cookie_done(s, &s->pend[i]);
		pfd[n].fd = s->lfd;
		pfd[n].events = POLLIN;
		idx[n++] = -1;
		for (int i = 0; i < MAX_PENDING; i++) {
			struct pending *pd = &s->pend[i];

			if (pd->fd < 0)
				continue;
			if (now >= pd->deadline_ns) {
				pending_drop(pd,
					     pd->ready ? "waited 10 s for the previous test; closed"
						       : "sent no cookie within 10 s; closed");
				continue;
			}
			if (pd->ready)
				continue;
			pfd[n].fd = pd->fd;
			pfd[n].events = POLLIN;
			idx[n++] = i;
		}
		if (poll(pfd, n, 50) < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			lr_log(LR_LOG_ERR, "server: poll: %s", strerror(errno));
			break;
		}
		for (nfds_t k = 1; k < n; k++)
			if (pfd[k].revents && s->pend[idx[k]].fd >= 0)
				pending_read(s, &s->pend[idx[k]]);
		if (pfd[0].revents)
			accept_new(s);
	}
	lr_server_session_end(s);
	for (int i = 0; i < MAX_PENDING; i++)
		if (s->pend[i].fd >= 0)
			pending_drop(&s->pend[i], NULL);
	return rc;
}

void lr_server_stop(struct lr_server *s)
{
	atomic_store(&s->stop, true);
}

unsigned lr_server_tests_done(const struct lr_server *s)
{
	return atomic_load(&s->tests_done);
}

uint16_t lr_server_port(const struct lr_server *s)
{
	return s->o.port;
}

void lr_server_close(struct lr_server *s)
{
	if (!s)
		return;
	lr_server_session_end(s);
	for (int i = 0; i < MAX_PENDING; i++)
		if (s->pend[i].fd >= 0)
			close(s->pend[i].fd);
	if (s->lfd >= 0)
		close(s->lfd);
	lr_auth_server_close(s->auth);
	free(s);
}

void lr_server_set_report(struct lr_server *s,
			  char *(*report)(void *arg, const struct lr_server_report *r, bool *json),
			  void *arg)
{
	s->o.report = report;
	s->o.report_arg = arg;
}
