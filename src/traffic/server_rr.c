// SPDX-License-Identifier: GPL-2.0-or-later
/* The server's half of --rr's negotiation (docs/wire.md part 4): a client that asked for the
 * request/response test gets the acknowledgement right after its parameters, before the
 * peer-stats offer and CREATE_STREAMS; its data streams then answer requests (stream_rr.c). */
#include <stdlib.h>
#include <string.h>

#include "linerate/core/log.h"
#include "linerate/traffic/rr.h"
#include "server_priv.h"

int lr_server_rr_ack(struct session *ss)
{
	struct lr_proto_conn cc = {.fd = ss->ctl_fd, .stop = &ss->stop, .side_fd = -1};
	struct lr_rr_ask a = {ss->p.rr_req_bytes, ss->p.rr_resp_bytes};
	uint8_t st = LR_RR_ACK_STATE;
	char *body = NULL;
	size_t len;
	int rc;

	if (!a.req_bytes)
		return 0;
	rc = lr_rr_ack_encode(&a, &body, &len);
	if (rc == 0)
		rc = lr_proto_write(&cc, &st, 1, CTL_TIMEOUT_NS);
	if (rc == 0)
		rc = lr_proto_msg_send(&cc, body, len);
	free(body);
	if (rc < 0)
		lr_log(LR_LOG_WARN, "server: test from %s: --rr acknowledgement not sent: %s",
		       ss->peer, strerror(-rc));
	else
		lr_log(LR_LOG_INFO,
		       "server: test from %s: request/response, %u x %s_RR %u,%u bytes", ss->peer,
		       ss->p.parallel, ss->p.udp ? "UDP" : "TCP", a.req_bytes, a.resp_bytes);
	return rc;
}

void lr_server_rr_log(struct session *ss)
{
	struct lr_rr_result r = {0};

	for (unsigned i = 0; ss->streams && i < ss->n; i++)
		if (ss->streams[i])
			lr_stream_rr_add(ss->streams[i], &r);
	if (r.on)
		lr_log(LR_LOG_INFO,
		       "server: test from %s: %llu transactions answered (%s_RR %u,%u "
		       "bytes, %u flows)",
		       ss->peer, (unsigned long long)r.transactions, r.udp ? "UDP" : "TCP",
		       r.req_bytes, r.resp_bytes, r.flows);
}
