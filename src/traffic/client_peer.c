// SPDX-License-Identifier: GPL-2.0-or-later
/* The client's half of the peer-stats negotiation (docs/wire.md, part 2): reading the offer a
 * linerate server sends between the parameters and CREATE_STREAMS, and handing the channel's
 * address and the test's cookie to the app, which opens the channel and reads the frames. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/log.h"
#include "linerate/traffic/peer_wire.h"
#include "linerate/traffic/proto.h"
#include "client_priv.h"

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
	pthread_mutex_unlock(&c->lock);
	return 0;
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
	}
	pthread_mutex_unlock(&c->lock);
	return ok;
}
