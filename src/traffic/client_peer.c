// SPDX-License-Identifier: GPL-2.0-or-later
/* The client's half of the peer-stats negotiation (docs/wire.md, part 2): reading the offer a
 * linerate server sends between the parameters and CREATE_STREAMS, and handing the channel's
 * address and the test's cookie to the app, which opens the channel and reads the frames. */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/core/log.h"
#include "linerate/traffic/peer_wire.h"
#include "linerate/traffic/proto.h"
#include "client_priv.h"
#include "probe_priv.h"

/* The prober's socket at the control connection's local address (the server answers that
 * address only), towards the server's address and probe port. A failure leaves the test
 * without probes (state DONE, nothing sent), said in the log. */
static void probe_start(struct lr_client *c, uint16_t port)
{
	struct sockaddr_storage loc, to = c->peer;
	socklen_t ll = sizeof(loc);
	struct lr_probe_client *p = NULL;
	int fd, rc;

	if (getsockname(c->ctl_fd, (struct sockaddr *)&loc, &ll) < 0) {
		rc = -errno;
		goto fail;
	}
	if (to.ss_family == AF_INET) {
		((struct sockaddr_in *)&to)->sin_port = htons(port);
		((struct sockaddr_in *)&loc)->sin_port = 0;
	} else {
		((struct sockaddr_in6 *)&to)->sin6_port = htons(port);
		((struct sockaddr_in6 *)&loc)->sin6_port = 0;
	}
	fd = socket(to.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 ||
	    (c->tc.bind_dev[0] && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, c->tc.bind_dev,
					     (socklen_t)strlen(c->tc.bind_dev)) < 0) ||
	    bind(fd, (struct sockaddr *)&loc, ll) < 0) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		goto fail;
	}
	rc = lr_probe_client_start(&p, fd, (struct sockaddr *)&to, c->peer_len, c->cookie);
	if (rc < 0)
		goto fail;
	pthread_mutex_lock(&c->lock);
	c->probe = p;
	pthread_mutex_unlock(&c->lock);
	return;
fail:
	lr_log(LR_LOG_WARN, "client: no latency probes: %s", strerror(-rc));
	pthread_mutex_lock(&c->lock);
	c->probe_state = LR_PROBE_DONE;
	pthread_mutex_unlock(&c->lock);
}

int lr_client_peer_read_offer(struct lr_client *c)
{
	struct lr_proto_conn cc = lr_client_ctl_conn(c);
	struct lr_peer_offer off;
	char err[LR_PROTO_ERR_MAX];
	char *buf = NULL;
	size_t len;
	int rc;

	rc = lr_proto_msg_recv(&cc, LR_PEER_OFFER_MAX, lr_client_left(c), &buf, &len);
	if (rc < 0) {
		lr_client_report_io_err(c, "reading the server's peer-stats offer", rc);
		return rc;
	}
	rc = lr_peer_offer_decode(buf, len, &off, err);
	free(buf);
	if (rc < 0) {
		lr_client_set_err(c, "bad peer-stats offer from the server: %s", err);
		return -EPROTO;
	}
	pthread_mutex_lock(&c->lock);
	c->peer_offered = true;
	c->peer_interval_ms = off.interval_ms;
	c->peer_max_frame = off.max_frame;
	c->peer_probe_port = off.probe_port;
	pthread_mutex_unlock(&c->lock);
	if (off.probe_port && c->params.probe)
		probe_start(c, off.probe_port);
	return 0;
}

void lr_client_probe_unoffered(struct lr_client *c)
{
	pthread_mutex_lock(&c->lock);
	if (c->probe_state == LR_PROBE_ASKED && !c->probe)
		c->probe_state = LR_PROBE_UNOFFERED;
	pthread_mutex_unlock(&c->lock);
}

int lr_client_probe_stats(struct lr_client *c, struct lr_probe_stats *out)
{
	if (!c || !out)
		return -EINVAL;
	pthread_mutex_lock(&c->lock);
	if (c->probe)
		lr_probe_client_stats(c->probe, out);
	else
		lr_probe_stats_empty(out, (enum lr_probe_state)c->probe_state);
	pthread_mutex_unlock(&c->lock);
	return 0;
}

int lr_client_probe_addr(struct lr_client *c, bool server, struct sockaddr_storage *ss,
			 socklen_t *len)
{
	int rc = -ENOENT;

	pthread_mutex_lock(&c->lock);
	if (c->probe)
		rc = lr_probe_client_addr(c->probe, server, ss, len);
	pthread_mutex_unlock(&c->lock);
	return rc;
}

bool lr_client_peer_offer(struct lr_client *c, struct lr_client_peer *out)
{
	bool ok;

	pthread_mutex_lock(&c->lock);
	ok = c->peer_offered;
	if (ok) {
		memset(out, 0, sizeof(*out));
		memcpy(&out->addr, &c->peer, sizeof(out->addr));
		out->addr_len = c->peer_len;
		memcpy(out->cookie, c->cookie, sizeof(out->cookie));
		out->interval_ms = c->peer_interval_ms;
		out->max_frame = c->peer_max_frame;
		out->probe_port = c->peer_probe_port;
	}
	pthread_mutex_unlock(&c->lock);
	return ok;
}
