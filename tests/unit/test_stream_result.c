// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lr_traffic_stream_fill, the one rule client and server use to merge a stream's two views:
 * against the results a real iperf3 3.12 client sent a linerate server for `-u -b 800K -l 1000
 * -t 1 -O 1` (captured with iperf3 -d: tests/fixtures/iperf3-results/). 3.12 sends no
 * "omitted_packets": its 200 datagrams include the 100 of the omitted second, which the
 * receiver's own mark supplies (iperf3 3.14+ does the same); a peer that sends the key is
 * taken at its word.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "linerate/traffic/proto.h"
#include "linerate/traffic/traffic.h"
#include "../../src/traffic/stream_result.h"

#define FIX "tests/fixtures/iperf3-results/3.12-udp-O1-client-results.json"

static void load_peer(struct lr_proto_results *r)
{
	char buf[4096], err[LR_PROTO_ERR_MAX];
	FILE *f = fopen(FIX, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(lr_proto_results_decode(buf, n, r, err), 0);
	assert_int_equal(r->n_streams, 1);
	assert_int_equal(r->streams[0].packets, 200);
	assert_int_equal(r->streams[0].omitted_packets, 0); /* 3.12 sends none */
}

/* The server received: 99 of the 100 datagrams after the mark (one still in flight at the end),
 * its highest sequence 200, 100 of them before the mark. */
static const struct lr_proto_stream_result server_rx = {
	.id = 1, .bytes = 99000, .retransmits = -1, .errors = 0, .packets = 200,
	.omitted_errors = 0, .omitted_packets = 100, .end_time_s = 1.0,
};

static void test_312_sender_omitted_from_our_mark(void **state)
{
	struct lr_proto_results *peer = calloc(1, sizeof(*peer));
	struct lr_traffic_stream_result e;

	(void)state;
	assert_non_null(peer);
	load_peer(peer);
	memset(&e, 0, sizeof(e));
	lr_traffic_stream_fill(&e, false, &server_rx, &peer->streams[0], 0);
	assert_true(e.have_peer);
	assert_int_equal(e.id, 1);
	assert_int_equal(e.sent_bytes, 100000); /* the sender's bytes after its mark */
	assert_int_equal(e.received_bytes, 99000);
	assert_int_equal(e.packets_sent, 100); /* 200 - our 100: was 200 */
	assert_int_equal(e.packets_received, 100);
	assert_int_equal(e.lost, 0);
	assert_int_equal(e.out_of_order, 0);
	lr_proto_results_release(peer);
	free(peer);
}

static void test_peer_omitted_count_wins(void **state)
{
	struct lr_proto_stream_result p = server_rx, l = server_rx;
	struct lr_traffic_stream_result e;

	(void)state;
	/* we sent 200, 101 before our mark; the peer received up to 200, 99 before its own */
	l.packets = 200;
	l.omitted_packets = 101;
	l.bytes = 99000;
	p.omitted_packets = 99;
	p.errors = 3;
	p.omitted_errors = 2;
	p.jitter_s = 0.001;
	memset(&e, 0, sizeof(e));
	lr_traffic_stream_fill(&e, true, &l, &p, 7);
	assert_int_equal(e.packets_sent, 99);
	assert_int_equal(e.packets_received, 101);
	assert_int_equal(e.lost, 1);
	assert_int_equal(e.out_of_order, -1); /* the receiver is the peer */
	assert_int_equal(e.retransmits, -1);
	assert_true(e.jitter_s > 0.0009 && e.jitter_s < 0.0011);
	/* no exchange: this side's counts only */
	memset(&e, 0, sizeof(e));
	lr_traffic_stream_fill(&e, true, &l, NULL, 7);
	assert_false(e.have_peer);
	assert_int_equal(e.received_bytes, 0);
	assert_int_equal(e.packets_sent, 99);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_312_sender_omitted_from_our_mark),
		cmocka_unit_test(test_peer_omitted_count_wins),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
