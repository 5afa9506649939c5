// SPDX-License-Identifier: GPL-2.0-or-later
/* The server's half of the peer-stats negotiation (docs/wire.md, part 2): the offer on the
 * control connection when a client asked, and recognising the channel's hello among new
 * connections. The samples themselves come from the app through lr_server_peer_hooks: this
 * layer knows no sampler. */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/peer_wire.h"
#include "linerate/traffic/proto.h"
#include "probe_priv.h"
#include "server_priv.h"

static void numeric(int fd, bool peer, char *buf, size_t size)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int rc = peer ? getpeername(fd, (struct sockaddr *)&ss, &sl)
		      : getsockname(fd, (struct sockaddr *)&ss, &sl);

	if (rc < 0 ||
	    getnameinfo((struct sockaddr *)&ss, sl, buf, (socklen_t)size, NULL, 0, NI_NUMERICHOST))
		snprintf(buf, size, "?");
	/* a v4-mapped address routes as IPv4 */
	if (!strncmp(buf, "::ffff:", 7) && strchr(buf + 7, '.'))
		memmove(buf, buf + 7, strlen(buf + 7) + 1);
}

/* The test's probe responder on a UDP socket at the control connection's local address, on
 * an ephemeral port (docs/wire.md, part 3). Its port, or 0 when it could not start: the offer
 * then has no probe_port and the client measures no latency. */
static uint16_t probe_open(struct session *ss)
{
	struct sockaddr_storage loc = {.ss_family = AF_UNSPEC}, peer = {.ss_family = AF_UNSPEC};
	socklen_t ll = sizeof(loc), pl = sizeof(peer);
	int fd = -1, rc = -EAFNOSUPPORT;

	if (getsockname(ss->ctl_fd, (struct sockaddr *)&loc, &ll) < 0 ||
	    getpeername(ss->ctl_fd, (struct sockaddr *)&peer, &pl) < 0) {
		rc = -errno;
		goto fail;
	}
	if (loc.ss_family == AF_INET)
		((struct sockaddr_in *)&loc)->sin_port = 0;
	else if (loc.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&loc)->sin6_port = 0;
	else
		goto fail;
	fd = socket(loc.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || lr_server_bind_dev(ss->srv, fd) < 0 ||
	    bind(fd, (struct sockaddr *)&loc, ll) < 0 ||
	    getsockname(fd, (struct sockaddr *)&loc, &ll) < 0) {
		rc = -errno;
		goto fail;
	}
	rc = lr_probe_server_start(&ss->probe, fd, (struct sockaddr *)&peer, ss->cookie,
				   &ss->srv->probe_answered, &ss->srv->probe_refused);
	fd = -1;	/* taken */
	if (rc == 0)
		return ntohs(loc.ss_family == AF_INET ? ((struct sockaddr_in *)&loc)->sin_port
						      : ((struct sockaddr_in6 *)&loc)->sin6_port);
fail:
	if (fd >= 0)
		close(fd);
	lr_log(LR_LOG_WARN, "server: test from %s: no latency probes: %s", ss->peer,
	       strerror(-rc));
	return 0;
}

int lr_server_peer_offer(struct session *ss)
{
	const struct lr_server_peer_hooks *h = ss->srv->o.peer;
	struct lr_proto_conn cc = {.fd = ss->ctl_fd, .stop = &ss->stop, .side_fd = -1};
	struct lr_server_peer_test t = {0};
	struct lr_peer_offer off = {.version = LR_PEER_VERSION, .max_frame = LR_PEER_FRAME_MAX};
	uint8_t st = LR_PEER_OFFER_STATE;
	char *body = NULL;
	size_t len;
	int rc;

	if (!ss->p.peer_stats || !h || !h->begin)
		return 0;
	numeric(ss->ctl_fd, false, t.local_host, sizeof(t.local_host));
	numeric(ss->ctl_fd, true, t.remote_host, sizeof(t.remote_host));
	t.interval_ms = ss->p.peer_interval_ms;
	if (t.interval_ms < LR_PEER_INTERVAL_MIN_MS)
		t.interval_ms = LR_PEER_INTERVAL_MIN_MS;
	if (t.interval_ms > LR_PEER_INTERVAL_MAX_MS)
		t.interval_ms = LR_PEER_INTERVAL_MAX_MS;
	off.interval_ms = t.interval_ms;
	if (h->begin(h->arg, &t) < 0)
		return 0; /* declined: the test runs as a plain one */
	if (ss->p.probe)
		off.probe_port = probe_open(ss);
	rc = lr_peer_offer_encode(&off, &body, &len);
	if (rc == 0)
		rc = lr_proto_write(&cc, &st, 1, CTL_TIMEOUT_NS);
	if (rc == 0)
		rc = lr_proto_msg_send(&cc, body, len);
	free(body);
	atomic_store(&ss->peer_offered, true); /* end() must run even when the write failed */
	if (rc < 0)
		lr_log(LR_LOG_WARN, "server: test from %s: peer-stats offer not sent: %s", ss->peer,
		       strerror(-rc));
	else
		lr_log(LR_LOG_INFO, "server: test from %s: sharing this host's samples every %u ms",
		       ss->peer, t.interval_ms);
	return rc;
}

void lr_server_peer_end(struct session *ss)
{
	const struct lr_server_peer_hooks *h = ss->srv->o.peer;

	if (!atomic_load(&ss->peer_offered) || ss->peer_ended)
		return;
	ss->peer_ended = true;
	if (h->end)
		h->end(h->arg);
}

void lr_server_probe_end(struct session *ss)
{
	lr_probe_server_stop(ss->probe, ss->peer);
	ss->probe = NULL;
}

void lr_server_probe_counts(const struct lr_server *s, uint64_t *answered, uint64_t *refused)
{
	*answered = atomic_load(&s->probe_answered);
	*refused = atomic_load(&s->probe_refused);
}

bool lr_server_peer_waiting(const struct lr_server *s)
{
	const struct session *ss = s->sess;

	return ss && atomic_load(&ss->peer_offered) && !atomic_load(&ss->peer_taken) &&
	       atomic_load(&ss->phase) < PH_FINISH;
}

bool lr_server_peer_take(struct lr_server *s, struct pending *pd)
{
	struct session *ss = s->sess;
	const struct lr_server_peer_hooks *h = s->o.peer;

	if (pd->cookie[LR_PROTO_COOKIE_LEN - 1] != LR_PEER_HELLO_MARK)
		return false;
	if (!h || !lr_server_peer_waiting(s) ||
	    memcmp(pd->cookie, ss->cookie, LR_PROTO_COOKIE_LEN - 1)) {
		lr_log(LR_LOG_INFO,
		       "server: peer-stats hello from %s not for a waiting test; closed", pd->peer);
		close(pd->fd);
		pd->fd = -1;
		return true;
	}
	atomic_store(&ss->peer_taken, true);
	lr_log(LR_LOG_DEBUG, "server: peer-stats channel from %s", pd->peer);
	if (h->attach)
		h->attach(h->arg, pd->fd);
	else
		close(pd->fd);
	pd->fd = -1;
	return true;
}
