/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netperf's request/response test (--rr, DESIGN section 16, docs/wire.md part 4): the ask a
 * linerate client puts in iperf3's parameters, the server's acknowledgement, and what a test
 * counted. Each data stream is one flow with one transaction in flight: the client writes a
 * request, reads the whole response, and keeps the round trip. A plain iperf3 server ignores
 * the ask and sends no acknowledgement, so the client stops before any data. [any] thread. */
#ifndef LINERATE_RR_H
#define LINERATE_RR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "linerate/core/lathist.h"
#include "linerate/traffic/proto.h"

#define LR_RR_VERSION 1
/* The state byte of the server's acknowledgement, 'R': one iperf3 never sends */
#define LR_RR_ACK_STATE 82
#define LR_RR_ACK_MAX	256 /* bytes of the acknowledgement's JSON the client reads */
#define LR_RR_TCP_MAX	(1u << 20) /* largest request or response: TCP ... */
#define LR_RR_UDP_MAX	65507u /* ... and UDP, one datagram */
/* UDP: a transaction unanswered this long is lost and the flow goes on. Far above any round
 * trip on a LAN, so a late answer is a lost datagram rather than a slow one. At the test's end
 * each flow waits this long at most for the answer in flight (TCP too): every request the
 * server answered is a transaction at both ends */
#define LR_RR_TIMEOUT_NS (200ull * 1000 * 1000)
/* The request's first bytes (up to this many) carry the flow's transaction number and the
 * response echoes them: a UDP flow tells a late answer from the one it waits for. */
#define LR_RR_TAG_BYTES 4

/* "linerate_rr": {"v":1,"req":N,"resp":M} in the parameters; the same object acknowledges. */
struct lr_rr_ask {
	uint32_t req_bytes, resp_bytes; /* 0 = not asked */
};

/* The parameters' member: a new reference, NULL on no memory. */
json_t *lr_rr_ask_json(const struct lr_rr_ask *a);
/* From the parameters' "linerate_rr" member j (NULL = absent: *a zeroed, 0). A
 * malformed one is -EINVAL with the reason in err: a client that asked for --rr must not get a
 * bulk test instead. udp bounds the sizes to one datagram. */
int lr_rr_ask_from_json(json_t *j, bool udp, struct lr_rr_ask *a, char err[LR_PROTO_ERR_MAX]);
/* The acknowledgement's body (malloc'd, not NUL-counted) and its decoding. 0 or -errno. */
int lr_rr_ack_encode(const struct lr_rr_ask *a, char **out, size_t *len);
int lr_rr_ack_decode(const char *buf, size_t len, struct lr_rr_ask *a, char err[LR_PROTO_ERR_MAX]);

/* One test's transactions, summed over its flows. The client's counts a transaction when the
 * whole response is read (its round trip is in rtt); the server's when the whole response is
 * written (rtt empty: it sees no round trip). */
struct lr_rr_result {
	bool on; /* the test was an RR one */
	bool udp;
	unsigned flows;
	uint32_t req_bytes, resp_bytes;
	uint64_t transactions;
	uint64_t lost; /* UDP client: transactions unanswered within LR_RR_TIMEOUT_NS */
	uint64_t late; /* UDP client: answers that came after their transaction was lost */
	struct lr_lathist rtt;
};

/* Adds one flow's counts (a stream's, lr_stream_rr_add) into *sum. */
void lr_rr_result_merge(struct lr_rr_result *sum, const struct lr_rr_result *flow);

#endif
