// SPDX-License-Identifier: GPL-2.0-or-later
/* The server's probe responder (docs/wire.md, part 3): one thread per test that offered a
 * probe port, from the offer to the session's end. It answers a request only when it comes
 * from the control connection's peer address and carries the test's cookie, with a datagram
 * of the request's own size (never larger: no amplification), at most LR_PROBE_REPLY_RATE a
 * second, so the port cannot be turned on a third party or the link. Everything else is
 * dropped and counted. Signals blocked; stopped by a flag it polls every 50 ms, then joined. */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/proto.h"

#include "probe_priv.h"

#define POLL_MS 50
/* the rate limit's bucket: a tenth of a second's answers in one burst at most */
#define BURST (LR_PROBE_REPLY_RATE / 10)

struct lr_probe_server {
	int fd;
	struct sockaddr_storage peer;
	char cookie[LR_PROTO_COOKIE_LEN];
	pthread_t thread;
	atomic_bool stop;
	_Atomic uint64_t *answered, *refused;	/* the server's totals */
	/* the responder's own counts, read after the join */
	uint64_t n_answered, n_stranger, n_bad, n_over;
	uint64_t tokens, refill_ns;
};

/* The address alone: the client's probe port is its own business. */
static bool from_peer(const struct lr_probe_server *r, const struct sockaddr_storage *from)
{
	if (from->ss_family != r->peer.ss_family)
		return false;
	if (from->ss_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)from)->sin_addr,
			       &((const struct sockaddr_in *)&r->peer)->sin_addr,
			       sizeof(struct in_addr));
	if (from->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)from)->sin6_addr,
			       &((const struct sockaddr_in6 *)&r->peer)->sin6_addr,
			       sizeof(struct in6_addr));
	return false;
}

static bool take_token(struct lr_probe_server *r, uint64_t now)
{
	uint64_t per = LR_NSEC_PER_SEC / LR_PROBE_REPLY_RATE;

	if (now > r->refill_ns) {
		uint64_t add = (now - r->refill_ns) / per;

		r->tokens = r->tokens + add > BURST ? BURST : r->tokens + add;
		r->refill_ns += add * per;
		if (r->tokens == BURST)
			r->refill_ns = now;
	}
	if (!r->tokens)
		return false;
	r->tokens--;
	return true;
}

static void answer(struct lr_probe_server *r)
{
	for (;;) {
		uint8_t buf[LR_PROBE_SIZE_MAX + 1];
		struct sockaddr_storage from = {.ss_family = AF_UNSPEC};
		socklen_t flen = sizeof(from);
		ssize_t n = recvfrom(r->fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC,
				     (struct sockaddr *)&from, &flen);
		uint64_t seq;

		if (n < 0)
			return;
		if (!from_peer(r, &from)) {
			r->n_stranger++;
		} else if (lr_probe_decode(buf, (size_t)n, LR_PROBE_T_REQUEST, 0, r->cookie,
					   &seq) < 0) {
			r->n_bad++;
		} else if (!take_token(r, lr_clock_mono_ns())) {
			r->n_over++;
		} else {
			buf[5] = LR_PROBE_T_REPLY; /* the request, turned round: same size */
			if (sendto(r->fd, buf, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL,
				   (struct sockaddr *)&from, flen) == n) {
				r->n_answered++;
				atomic_fetch_add(r->answered, 1);
			}
			continue;
		}
		atomic_fetch_add(r->refused, 1);
	}
}

static void *responder_main(void *arg)
{
	struct lr_probe_server *r = arg;

	while (!atomic_load(&r->stop)) {
		struct pollfd pfd = {.fd = r->fd, .events = POLLIN};

		if (poll(&pfd, 1, POLL_MS) > 0)
			answer(r);
	}
	return NULL;
}

int lr_probe_server_start(struct lr_probe_server **out, int fd, const struct sockaddr *peer,
			  const char *cookie, _Atomic uint64_t *answered,
			  _Atomic uint64_t *refused)
{
	struct lr_probe_server *r = calloc(1, sizeof(*r));
	sigset_t all, old;
	int rc;

	if (!r) {
		close(fd);
		return -ENOMEM;
	}
	r->fd = fd;
	memcpy(&r->peer, peer,
	       peer->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
					   : sizeof(struct sockaddr_in));
	memcpy(r->cookie, cookie, sizeof(r->cookie));
	r->answered = answered;
	r->refused = refused;
	r->tokens = BURST;
	r->refill_ns = lr_clock_mono_ns();
	atomic_init(&r->stop, false);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&r->thread, NULL, responder_main, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		close(fd);
		free(r);
		return -rc;
	}
	*out = r;
	return 0;
}

void lr_probe_server_stop(struct lr_probe_server *r, const char *who)
{
	if (!r)
		return;
	atomic_store(&r->stop, true);
	pthread_join(r->thread, NULL);
	lr_log(LR_LOG_INFO,
	       "server: test from %s: %llu latency probes answered; refused %llu from other "
	       "senders, %llu malformed, %llu over %u/s",
	       who, (unsigned long long)r->n_answered, (unsigned long long)r->n_stranger,
	       (unsigned long long)r->n_bad, (unsigned long long)r->n_over, LR_PROBE_REPLY_RATE);
	close(r->fd);
	free(r);
}
