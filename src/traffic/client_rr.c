// SPDX-License-Identifier: GPL-2.0-or-later
/* The client's half of --rr's negotiation (docs/wire.md part 4): a linerate server that takes
 * the parameters' "linerate_rr" ask answers with the state byte LR_RR_ACK_STATE and the same
 * object, before anything else. Any other answer is a server that would run a bulk test
 * instead (a plain iperf3, an older linerate): the test ends here, before any data stream. */
#include <errno.h>
#include <stdlib.h>

#include "linerate/traffic/rr.h"
#include "client_priv.h"

int lr_client_rr_read_ack(struct lr_client *c)
{
	struct lr_proto_conn cc = lr_client_ctl_conn(c);
	struct lr_rr_ask ack;
	char err[LR_PROTO_ERR_MAX];
	char *buf = NULL;
	size_t len;
	int st, rc;

	if (!c->tc.rr_req_bytes)
		return 0;
	rc = lr_client_expect_state(c, &st, "waiting for the --rr acknowledgement");
	if (rc < 0)
		return rc;
	if (st != LR_RR_ACK_STATE) {
		atomic_store(&c->rr_refused, true);
		lr_client_set_err(
			c,
			"--rr needs a linerate server at %s: it answered %s (%d), not the "
			"request/response acknowledgement (a plain iperf3 or an older "
			"linerate)",
			c->host, lr_proto_state_name(st), st);
		return -EPROTONOSUPPORT;
	}
	rc = lr_proto_msg_recv(&cc, LR_RR_ACK_MAX, lr_client_left(c), &buf, &len);
	if (rc < 0) {
		lr_client_report_io_err(c, "reading the server's --rr acknowledgement", rc);
		return rc;
	}
	rc = lr_rr_ack_decode(buf, len, &ack, err);
	free(buf);
	if (rc == 0 &&
	    (ack.req_bytes != c->tc.rr_req_bytes || ack.resp_bytes != c->tc.rr_resp_bytes))
		rc = -EPROTO;
	if (rc < 0) {
		lr_client_set_err(c, "bad --rr acknowledgement from the server: %s",
				  err[0] ? err : "other sizes than asked");
		return -EPROTO;
	}
	return 0;
}

bool lr_client_rr_refused(const struct lr_client *c)
{
	return atomic_load(&c->rr_refused);
}
