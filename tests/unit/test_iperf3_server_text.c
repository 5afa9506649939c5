// SPDX-License-Identifier: GPL-2.0-or-later
/* linerate -s's summary line against a real iperf3 3.12 server's, for the same test
 * (tests/fixtures/iperf3-server): the numbers from the iperf3 client's -J report of that test
 * (sum_received, sum_sent) through lr_iperf3_print_server_summary give the receiver line the
 * iperf3 server printed (server_output_text), byte for byte but the stream id. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/present/iperf3_out.h"
#include "linerate/traffic/traffic.h"

#define FIX "tests/fixtures/iperf3-server/"

static double num(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/* The line of text ending in "receiver" (trailing blanks cut), its "[  N]" id made "[  1]". */
static void receiver_line(const char *text, char *out, size_t len)
{
	const char *p = text, *nl;

	out[0] = '\0';
	for (; p && *p; p = nl ? nl + 1 : NULL) {
		size_t n;

		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		while (n && p[n - 1] == ' ')
			n--;
		if (n >= 8 && !strncmp(p + n - 8, "receiver", 8) && n < len && p[0] == '[') {
			memcpy(out, p, n);
			out[n] = '\0';
			memcpy(out, "[  1]", 5);
		}
	}
}

static void check_fixture(const char *file, bool udp, char unit)
{
	json_error_t jerr;
	json_t *j = json_load_file(file, 0, &jerr), *rcv, *snd;
	struct lr_traffic_results *R = calloc(1, sizeof(*R));
	struct lr_traffic_stream_result *e;
	char want[256], got[256], *buf = NULL;
	size_t blen = 0;
	FILE *f;

	assert_non_null(j);
	assert_non_null(R);
	rcv = json_object_get(json_object_get(j, "end"), "sum_received");
	snd = json_object_get(json_object_get(j, "end"), "sum_sent");
	assert_non_null(rcv);
	R->udp = udp;
	R->complete = true;
	R->parallel = 1;
	R->n_streams = 1;
	e = &R->streams[0];
	e->id = 1;
	e->client_sends = true;
	e->udp = udp;
	e->have_peer = true;
	e->sent_bytes = (uint64_t)num(snd, "bytes");
	e->sender_s = num(snd, "seconds");
	e->received_bytes = (uint64_t)num(rcv, "bytes");
	e->receiver_s = num(rcv, "seconds");
	e->retransmits = udp ? -1 : (int64_t)num(snd, "retransmits");
	e->packets_sent = (int64_t)num(snd, "packets");
	e->packets_received = (int64_t)num(rcv, "packets");
	e->lost = (int64_t)num(rcv, "lost_packets");
	e->jitter_s = num(rcv, "jitter_ms") / 1e3;
	f = open_memstream(&buf, &blen);
	assert_non_null(f);
	lr_iperf3_print_server_summary(f, R, unit);
	fclose(f);
	receiver_line(json_string_value(json_object_get(j, "server_output_text")), want,
		      sizeof(want));
	receiver_line(buf, got, sizeof(got));
	assert_true(want[0]);
	assert_string_equal(got, want);
	free(buf);
	free(R);
	json_decref(j);
}

static void test_udp_receiver_line(void **state)
{
	(void)state;
	check_fixture(FIX "udp.json", true, 'a');
}

static void test_tcp_receiver_line(void **state)
{
	(void)state;
	check_fixture(FIX "tcp.json", false, 'a');
}

/* A server run with -f K (issue 29: 1000-byte "KBytes" once went unseen): iperf3's fixed
 * byte units are 1024-based. */
static void test_tcp_receiver_line_fK(void **state)
{
	(void)state;
	check_fixture(FIX "tcp_fK.json", false, 'K');
}

/* Issue 28: a UDP -R -P 2 test stopped by s: each stream's line said 0/39144, the [SUM] line
 * 0/0 (0%): the sum took the sender's count, which a stopped test never got. */
static void test_stopped_udp_sum(void **state)
{
	struct lr_traffic_results *R = calloc(1, sizeof(*R));
	char *buf = NULL;
	size_t blen = 0;
	FILE *f;

	(void)state;
	assert_non_null(R);
	R->udp = R->reverse = R->stopped = true;
	R->parallel = R->n_streams = 2;
	for (unsigned i = 0; i < 2; i++) {
		struct lr_traffic_stream_result *e = &R->streams[i];

		e->id = 1 + 2 * (int)i;
		e->udp = true;
		e->received_bytes = 39144ULL * 1448;
		e->receiver_s = e->sender_s = 2.0;
		e->retransmits = -1;
		e->packets_received = 39144;
		lr_traffic_sum_add(&R->sum_down, e);
	}
	f = open_memstream(&buf, &blen);
	assert_non_null(f);
	lr_iperf3_print_summary(f, R, 'a', false);
	fclose(f);
	assert_non_null(strstr(buf, "0/39144 (0%)"));
	assert_non_null(strstr(buf, "0/78288 (0%)"));
	assert_null(strstr(buf, " 0/0 "));
	free(buf);
	free(R);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_receiver_line),
		cmocka_unit_test(test_tcp_receiver_line),
		cmocka_unit_test(test_tcp_receiver_line_fK),
		cmocka_unit_test(test_stopped_udp_sum),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
