// SPDX-License-Identifier: GPL-2.0-or-later
/* iperf3 control protocol: cookies, length framing, bounded socket reads (partial, oversize,
 * truncated, timeout, stop), and the params/results JSON codecs against messages captured
 * from Debian's iperf3 3.12 client (tests/tools/iperf3_capture.py), including 3.12's unsigned
 * -1 and wrong types/ranges that must be rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/traffic/proto.h"

/* Captured from iperf3 3.12 (`iperf3 -c ... -t 1 [opts]`). */
static const char params_tcp_312[] =
	"{\"tcp\":true,\"omit\":0,\"time\":1,\"num\":0,\"blockcount\":0,\"parallel\":1,"
	"\"len\":131072,\"pacing_timer\":1000,\"client_version\":\"3.12\"}";
/* -O 2, as iperf3 -s -d printed what it received (a client that drops -O leaves the server's
 * counts including the omitted seconds) */
static const char params_omit_312[] =
	"{\"tcp\":true,\"omit\":2,\"time\":1,\"num\":0,\"blockcount\":0,\"parallel\":1,"
	"\"len\":131072,\"pacing_timer\":1000,\"client_version\":\"3.12\"}";
/* -R -P 2 -w 1M -M 1400 -C cubic */
static const char params_rev_312[] =
	"{\"tcp\":true,\"omit\":0,\"time\":1,\"num\":0,\"blockcount\":0,\"MSS\":1400,"
	"\"parallel\":2,\"reverse\":true,\"window\":1048576,\"len\":131072,\"pacing_timer\":1000,"
	"\"congestion\":\"cubic\",\"client_version\":\"3.12\"}";
/* --bidir -P 2 --get-server-output */
static const char params_bidir_312[] =
	"{\"tcp\":true,\"omit\":0,\"time\":1,\"num\":0,\"blockcount\":0,\"parallel\":2,"
	"\"bidirectional\":true,\"len\":131072,\"pacing_timer\":1000,\"get_server_output\":1,"
	"\"client_version\":\"3.12\"}";
/* -u -b 50M -l 1400 */
static const char params_udp_312[] =
	"{\"udp\":true,\"omit\":0,\"time\":1,\"num\":0,\"blockcount\":0,\"parallel\":1,"
	"\"len\":1400,\"bandwidth\":50000000,\"pacing_timer\":1000,\"client_version\":\"3.12\"}";
/* iperf3 3.12 -c ::1 -u -b 1M -L 0x2a5c3, as iperf3 -s -d printed what it received */
static const char params_flowlabel_312[] =
	"{\"udp\":true,\"omit\":0,\"time\":1,\"num\":0,\"blockcount\":0,\"parallel\":1,"
	"\"len\":32768,\"bandwidth\":1000000,\"pacing_timer\":1000,\"flowlabel\":173507,"
	"\"client_version\":\"3.12\"}";
/* results of the -R client: receive-only, so 3.12 prints -1 as 2^64-1 */
static const char results_rev_312[] =
	"{\"cpu_util_total\":0.17695976226424137,\"cpu_util_user\":0,\"cpu_util_system\":"
	"0.17695976226424137,\"sender_has_retransmits\":18446744073709551615,"
	"\"congestion_used\":\"cubic\",\"streams\":[{\"id\":1,\"bytes\":0,\"retransmits\":"
	"18446744073709551615,\"jitter\":0,\"errors\":0,\"packets\":0,\"start_time\":0,"
	"\"end_time\":1.000251},{\"id\":3,\"bytes\":0,\"retransmits\":18446744073709551615,"
	"\"jitter\":0,\"errors\":0,\"packets\":0,\"start_time\":0,\"end_time\":1.000259}]}";
static const char results_bidir_312[] =
	"{\"cpu_util_total\":33.910378086160989,\"cpu_util_user\":0.856224925765414,"
	"\"cpu_util_system\":33.053578255566272,\"sender_has_retransmits\":1,"
	"\"congestion_used\":\"bbr\",\"streams\":[{\"id\":1,\"bytes\":777256960,\"retransmits\":2,"
	"\"jitter\":0,\"errors\":0,\"packets\":0,\"start_time\":0,\"end_time\":1.001685},"
	"{\"id\":3,\"bytes\":811335680,\"retransmits\":2,\"jitter\":0,\"errors\":0,\"packets\":0,"
	"\"start_time\":0,\"end_time\":1.001692},{\"id\":4,\"bytes\":0,\"retransmits\":"
	"18446744073709551615,\"jitter\":0,\"errors\":0,\"packets\":0,\"start_time\":0,"
	"\"end_time\":1.00174},{\"id\":5,\"bytes\":0,\"retransmits\":18446744073709551615,"
	"\"jitter\":0,\"errors\":0,\"packets\":0,\"start_time\":0,\"end_time\":1.001755}]}";

#define MS LR_NSEC_PER_MSEC

static void test_cookie(void **state)
{
	char a[LR_PROTO_COOKIE_LEN], b[LR_PROTO_COOKIE_LEN];

	(void)state;
	assert_int_equal(lr_proto_cookie_make(a), 0);
	assert_int_equal(lr_proto_cookie_make(b), 0);
	assert_int_equal(a[36], '\0');
	assert_int_equal(strlen(a), 36);
	assert_int_equal(strspn(a, "abcdefghijklmnopqrstuvwxyz234567"), 36);
	assert_memory_not_equal(a, b, 36);
	assert_true(lr_proto_cookie_valid(a));
	a[5] = '\n';
	assert_false(lr_proto_cookie_valid(a));
	b[36] = 'x';
	assert_false(lr_proto_cookie_valid(b));
}

static void test_state_values(void **state)
{
	(void)state;
	assert_int_equal(LR_PROTO_TEST_START, 1);
	assert_int_equal(LR_PROTO_TEST_END, 4);
	assert_int_equal(LR_PROTO_PARAM_EXCHANGE, 9);
	assert_int_equal(LR_PROTO_IPERF_DONE, 16);
	assert_int_equal((int8_t)0xff, LR_PROTO_ACCESS_DENIED);
	assert_string_equal(lr_proto_state_name(13), "EXCHANGE_RESULTS");
	assert_string_equal(lr_proto_state_name(99), "unknown");
	assert_memory_equal(lr_proto_udp_connect_msg, "9876", 4);
	assert_memory_equal(lr_proto_udp_connect_reply, "6789", 4);
}

/* The 4-byte setup datagrams on the wire (docs/wire.md 3.2): the request, the reply and the
 * legacy reply are setup; anything else, also a data datagram that starts with "9876", is not. */
static void test_udp_setup_datagrams(void **state)
{
	static const uint8_t legacy[4] = {0xb1, 0x68, 0xde, 0x3a}; /* 987654321 LE */
	uint8_t data[16] = "9876";

	(void)state;
	assert_true(lr_proto_udp_is_setup("9876", 4));
	assert_true(lr_proto_udp_is_setup("6789", 4));
	assert_true(lr_proto_udp_is_setup(legacy, 4));
	assert_true(lr_proto_udp_is_reply("6789", 4));
	assert_true(lr_proto_udp_is_reply(legacy, 4));
	assert_false(lr_proto_udp_is_reply("9876", 4));
	assert_false(lr_proto_udp_is_setup(data, sizeof(data)));
	assert_false(lr_proto_udp_is_setup("987", 3));
	assert_false(lr_proto_udp_is_setup("6788", 4));
}

static void test_len_codec(void **state)
{
	uint8_t h[4];
	uint32_t n = 0;

	(void)state;
	lr_proto_len_encode(0x01020304, h);
	assert_memory_equal(h, "\x01\x02\x03\x04", 4);
	assert_int_equal(lr_proto_len_decode(h, UINT32_MAX, &n), 0);
	assert_int_equal(n, 0x01020304);
	assert_int_equal(lr_proto_len_decode((const uint8_t *)"\xff\xff\xff\xff", 8192, &n),
			 -EMSGSIZE);
	assert_int_equal(lr_proto_len_decode((const uint8_t *)"\0\0\0\0", 8192, &n), -EMSGSIZE);
	assert_int_equal(lr_proto_len_decode((const uint8_t *)"\0\0\x20\x01", 8192, &n), -EMSGSIZE);
	assert_int_equal(lr_proto_len_decode((const uint8_t *)"\0\0\x20\0", 8192, &n), 0);
	assert_int_equal(n, 8192);
}

/* ---- params ---- */

static void test_params_decode_312(void **state)
{
	struct lr_proto_params p;
	char err[LR_PROTO_ERR_MAX];

	(void)state;
	assert_int_equal(lr_proto_params_decode(params_tcp_312, strlen(params_tcp_312), &p, err),
			 0);
	assert_false(p.udp);
	assert_false(p.reverse);
	assert_int_equal(p.time_s, 1);
	assert_int_equal(p.parallel, 1);
	assert_int_equal(p.len, 131072);
	assert_string_equal(p.client_version, "3.12");
	assert_int_equal(p.server_affinity, -1);

	assert_int_equal(lr_proto_params_decode(params_rev_312, strlen(params_rev_312), &p, err),
			 0);
	assert_true(p.reverse);
	assert_false(p.bidir);
	assert_int_equal(p.parallel, 2);
	assert_int_equal(p.mss, 1400);
	assert_int_equal(p.window_bytes, 1048576);
	assert_string_equal(p.congestion, "cubic");

	assert_int_equal(
		lr_proto_params_decode(params_bidir_312, strlen(params_bidir_312), &p, err), 0);
	assert_true(p.bidir);
	assert_true(p.get_server_output);

	assert_int_equal(lr_proto_params_decode(params_udp_312, strlen(params_udp_312), &p, err),
			 0);
	assert_true(p.udp);
	assert_int_equal(p.len, 1400);
	assert_int_equal(p.bandwidth_bps, 50000000);
	assert_int_equal(p.flowlabel, 0);

	assert_int_equal(lr_proto_params_decode(params_flowlabel_312, strlen(params_flowlabel_312),
						&p, err), 0);
	assert_int_equal(p.flowlabel, 0x2a5c3);
}

/* Our encoder writes byte for byte what iperf3 3.12 sends for the same options. */
static void test_params_encode_matches_312(void **state)
{
	struct lr_proto_params p;
	char *out;
	size_t len;

	(void)state;
	lr_proto_params_init(&p);
	p.time_s = 1;
	snprintf(p.client_version, sizeof(p.client_version), "3.12");
	assert_int_equal(lr_proto_params_encode(&p, &out, &len), 0);
	assert_int_equal(len, strlen(params_tcp_312));
	assert_string_equal(out, params_tcp_312);
	free(out);

	p.omit_s = 2;
	assert_int_equal(lr_proto_params_encode(&p, &out, &len), 0);
	assert_string_equal(out, params_omit_312);
	free(out);
	p.omit_s = 0;

	p.mss = 1400;
	p.parallel = 2;
	p.reverse = true;
	p.window_bytes = 1048576;
	snprintf(p.congestion, sizeof(p.congestion), "cubic");
	assert_int_equal(lr_proto_params_encode(&p, &out, &len), 0);
	assert_string_equal(out, params_rev_312);
	free(out);

	lr_proto_params_init(&p);
	p.time_s = 1;
	p.udp = true;
	p.len = 1400;
	p.bandwidth_bps = 50000000;
	snprintf(p.client_version, sizeof(p.client_version), "3.12");
	assert_int_equal(lr_proto_params_encode(&p, &out, &len), 0);
	assert_string_equal(out, params_udp_312);
	free(out);
}

static void test_params_round_trip(void **state)
{
	struct lr_proto_params p, q;
	char err[LR_PROTO_ERR_MAX];
	char *out;
	size_t len;

	(void)state;
	lr_proto_params_init(&p);
	p.udp = true;
	p.bidir = true;
	p.time_s = 86400;
	p.parallel = 128;
	p.len = 65507;
	p.bandwidth_bps = 100000000000ULL;
	p.server_affinity = 3;
	p.tos = 255;
	p.udp_64bit = true;
	p.flowlabel = 0xfffff;
	assert_int_equal(lr_proto_params_encode(&p, &out, &len), 0);
	assert_null(strstr(out, "reverse")); /* false flags are omitted */
	assert_non_null(strstr(out, "\"flowlabel\":1048575")); /* iperf3's key, a number */
	assert_int_equal(lr_proto_params_decode(out, len, &q, err), 0);
	free(out);
	assert_memory_equal(&p, &q, sizeof(p));
}

static void expect_params_reject(const char *json, const char *why)
{
	struct lr_proto_params p;
	char err[LR_PROTO_ERR_MAX];

	assert_int_equal(lr_proto_params_decode(json, strlen(json), &p, err), -EINVAL);
	if (!strstr(err, why))
		fail_msg("%s: error \"%s\" lacks \"%s\"", json, err, why);
}

static void test_params_rejects(void **state)
{
	struct lr_proto_params p;
	char err[LR_PROTO_ERR_MAX];

	(void)state;
	/* its own code: the server answers it as iperf3's whose SCTP listener failed */
	assert_int_equal(lr_proto_params_decode("{\"sctp\":true}", 13, &p, err), -EPROTONOSUPPORT);
	assert_non_null(strstr(err, "SCTP"));
	assert_int_equal(lr_proto_params_decode("{\"burst\":0}", 11, &p, err), -EINVAL);
	expect_params_reject("{\"parallel\":\"4\"}", "\"parallel\" is not an integer");
	expect_params_reject("{\"time\":1.5}", "\"time\" is not an integer");
	expect_params_reject("{\"reverse\":1}", "\"reverse\" is not a boolean");
	expect_params_reject("{\"title\":5}", "\"title\" is not a string"); /* CVE-2024-53580 */
	expect_params_reject("{\"congestion\":[1]}", "\"congestion\" is not a string");
	expect_params_reject("{\"parallel\":0}", "\"parallel\" out of range");
	expect_params_reject("{\"parallel\":129}", "\"parallel\" out of range");
	expect_params_reject("{\"time\":86401}", "\"time\" out of range");
	expect_params_reject("{\"time\":18446744073709551615}", "\"time\" out of range");
	expect_params_reject("{\"omit\":-1}", "\"omit\" out of range");
	expect_params_reject("{\"len\":0}", "\"len\" out of range");
	expect_params_reject("{\"tcp\":true,\"len\":2097152}", "out of range for TCP");
	expect_params_reject("{\"udp\":true,\"len\":8}", "out of range for UDP");
	expect_params_reject("{\"udp\":true,\"len\":65508}", "out of range for UDP");
	expect_params_reject("{\"MSS\":40000}", "\"MSS\" out of range");
	expect_params_reject("{\"window\":-5}", "\"window\" out of range");
	expect_params_reject("{\"flowlabel\":1048576}", "\"flowlabel\" out of range");
	expect_params_reject("{\"tcp\":true,\"udp\":true}", "both");
	expect_params_reject("{\"authtoken\":5}", "\"authtoken\" is not a string");
	expect_params_reject("[1,2]", "not an object");
	expect_params_reject("{\"time\":1,\"time\":2}", "bad JSON");
	expect_params_reject("{\"tcp\":true,\"omit\":0,\"ti", "bad JSON");
	expect_params_reject("\x01\x02garbage", "bad JSON");
	expect_params_reject("{\"time\":18446744073709551616}", "bad JSON");
}

static void test_params_defaults_and_unknown_keys(void **state)
{
	static const char j[] = "{\"udp\":true,\"future_key\":{\"x\":[1,2]},\"title\":\"t\","
				"\"server_affinity\":18446744073709551615}";
	struct lr_proto_params p;
	char err[LR_PROTO_ERR_MAX];

	(void)state;
	assert_int_equal(lr_proto_params_decode(j, strlen(j), &p, err), 0);
	assert_true(p.udp);
	assert_int_equal(p.len, LR_PROTO_UDP_DEF_LEN); /* absent len, UDP: not 128 KiB */
	assert_int_equal(p.time_s, 10);
	assert_int_equal(p.server_affinity, -1); /* 2^64-1 from 3.12 read as -1 */
	/* the byte count is not NUL-terminated: decode only len bytes */
	assert_int_equal(lr_proto_params_decode("{\"parallel\":3}XXXX", 14, &p, err), 0);
	assert_int_equal(p.parallel, 3);
}

/* ---- results ---- */

static void test_results_decode_312(void **state)
{
	struct lr_proto_results *r = malloc(sizeof(*r));
	char err[LR_PROTO_ERR_MAX];

	(void)state;
	assert_int_equal(lr_proto_results_decode(results_rev_312, strlen(results_rev_312), r, err),
			 0);
	assert_int_equal(r->sender_has_retransmits, -1);
	assert_int_equal(r->n_streams, 2);
	assert_int_equal(r->streams[0].id, 1);
	assert_int_equal(r->streams[0].retransmits, -1);
	assert_int_equal(r->streams[1].id, 3);
	assert_true(r->streams[1].end_time_s > 1.0002 && r->streams[1].end_time_s < 1.0003);
	assert_string_equal(r->congestion_used, "cubic");
	assert_true(r->cpu_total > 0.17 && r->cpu_total < 0.18);

	assert_int_equal(
		lr_proto_results_decode(results_bidir_312, strlen(results_bidir_312), r, err), 0);
	assert_int_equal(r->n_streams, 4);
	assert_int_equal(r->streams[1].bytes, 811335680);
	assert_int_equal(r->streams[1].retransmits, 2);
	assert_int_equal(r->streams[3].id, 5);
	assert_int_equal(r->streams[3].retransmits, -1);
	free(r);
}

static void test_results_round_trip(void **state)
{
	struct lr_proto_results *r = calloc(1, sizeof(*r)), *q = malloc(sizeof(*q));
	char err[LR_PROTO_ERR_MAX];
	char *out;
	size_t len;

	(void)state;
	r->cpu_total = 12.5;
	r->cpu_user = 2.5;
	r->cpu_system = 10;
	r->sender_has_retransmits = -1;
	r->n_streams = LR_PROTO_MAX_RESULTS;
	for (unsigned i = 0; i < r->n_streams; i++) {
		r->streams[i].id = i ? (int)i + 2 : 1;
		r->streams[i].bytes = 1ULL << 40 | i;
		r->streams[i].retransmits = -1;
		r->streams[i].jitter_s = 0.000125;
		r->streams[i].errors = 7;
		r->streams[i].packets = 123456789;
		r->streams[i].end_time_s = 3.0;
	}
	assert_int_equal(lr_proto_results_encode(r, &out, &len), 0);
	assert_int_equal(lr_proto_results_decode(out, len, q, err), 0);
	free(out);
	assert_int_equal(q->n_streams, LR_PROTO_MAX_RESULTS);
	assert_int_equal(q->sender_has_retransmits, -1);
	assert_int_equal(q->streams[200].bytes, 1ULL << 40 | 200);
	assert_int_equal(q->streams[200].id, 202);
	assert_true(q->streams[5].jitter_s == 0.000125);
	assert_int_equal(q->streams[5].omitted_packets, 0);
	free(r);
	free(q);
}

static void expect_results_reject(const char *json, int rc, const char *why)
{
	struct lr_proto_results *r = malloc(sizeof(*r));
	char err[LR_PROTO_ERR_MAX];

	assert_int_equal(lr_proto_results_decode(json, strlen(json), r, err), rc);
	free(r);
	if (!strstr(err, why))
		fail_msg("%s: error \"%s\" lacks \"%s\"", json, err, why);
}

#define HDR "{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":0,"
#define S1  "{\"id\":1,\"bytes\":5,\"retransmits\":0,\"jitter\":0,\"errors\":0,\"packets\":0"

static void test_results_rejects(void **state)
{
	char *big;
	size_t off;

	(void)state;
	expect_results_reject("{\"sender_has_retransmits\":1,\"streams\":[]}", -EINVAL,
			      "missing \"cpu_util_total\"");
	expect_results_reject(HDR "\"sender_has_retransmits\":1}", -EINVAL, "missing \"streams\"");
	expect_results_reject(HDR "\"sender_has_retransmits\":1,\"streams\":{}}", -EINVAL,
			      "not an array");
	expect_results_reject(HDR "\"sender_has_retransmits\":\"1\",\"streams\":[]}", -EINVAL,
			      "not an integer");
	expect_results_reject(HDR "\"sender_has_retransmits\":2,\"streams\":[]}", -EINVAL,
			      "out of range");
	expect_results_reject(HDR "\"sender_has_retransmits\":1,\"streams\":[1]}", -EINVAL,
			      "not an object");
	expect_results_reject(HDR "\"sender_has_retransmits\":1,\"streams\":[{\"id\":1}]}", -EINVAL,
			      "missing \"bytes\"");
	expect_results_reject(HDR "\"sender_has_retransmits\":1,\"streams\":[" S1
				  ",\"jitter\":\"x\"}]}",
			      -EINVAL, "bad JSON");
	expect_results_reject(
		HDR "\"sender_has_retransmits\":1,\"streams\":["
		    "{\"id\":1,\"bytes\":5,\"retransmits\":0,\"jitter\":\"0\",\"errors\":0,"
		    "\"packets\":0}]}",
		-EINVAL, "\"jitter\" is not a number");
	expect_results_reject(HDR
			      "\"sender_has_retransmits\":1,\"streams\":[{\"id\":1,\"bytes\":-5,"
			      "\"retransmits\":0,\"jitter\":0,\"errors\":0,\"packets\":0}]}",
			      -EINVAL, "\"bytes\" out of range");
	expect_results_reject(HDR "\"sender_has_retransmits\":1,\"streams\":[" S1
				  ",\"omitted_errors\":0}]}",
			      -EINVAL, "must come together");
	expect_results_reject(HDR "\"sender_has_retransmits\":1,\"streams\":[" S1 "}," S1 "}]}",
			      -EINVAL, "duplicate stream id");
	expect_results_reject(HDR "\"sender_has_retransmits\":1,\"streams\":[" S1 "}", -EINVAL,
			      "bad JSON");

	/* 257 streams: more than any test can have */
	big = malloc(300 * 128);
	off = (size_t)sprintf(big, HDR "\"sender_has_retransmits\":1,\"streams\":[");
	for (int i = 0; i < 257; i++)
		off += (size_t)sprintf(big + off,
				       "%s{\"id\":%d,\"bytes\":5,\"retransmits\":0,"
				       "\"jitter\":0,\"errors\":0,\"packets\":0}",
				       i ? "," : "", i + 1);
	sprintf(big + off, "]}");
	expect_results_reject(big, -E2BIG, "too many streams");
	free(big);
}

/* A number-looking string is left alone; only bare tokens are rewritten. */
static void test_unsigned_fix_spares_strings(void **state)
{
	static const char j[] = HDR "\"sender_has_retransmits\":1,\"congestion_used\":"
				    "\"18446744073709551615\",\"streams\":[]}";
	struct lr_proto_results r;
	char err[LR_PROTO_ERR_MAX];

	(void)state;
	assert_int_equal(lr_proto_results_decode(j, strlen(j), &r, err), 0);
	assert_string_equal(r.congestion_used, "18446744073709551615");
}

/* ---- bounded socket I/O ---- */

struct writer {
	int fd;
	const uint8_t *buf;
	size_t len;
	unsigned delay_ms; /* between single bytes */
	bool close_after;
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;

	for (size_t i = 0; i < w->len; i++) {
		if (write(w->fd, w->buf + i, 1) != 1)
			break;
		if (w->delay_ms)
			usleep(w->delay_ms * 1000);
	}
	if (w->close_after)
		shutdown(w->fd, SHUT_WR);
	return NULL;
}

static void pair(int sv[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
}

static void test_msg_round_trip_partial(void **state)
{
	static const char body[] = "{\"a\":1}";
	uint8_t wire[4 + sizeof(body) - 1];
	struct writer w;
	pthread_t t;
	int sv[2];
	struct lr_proto_conn c = {.side_fd = -1};
	char *got;
	size_t len;

	(void)state;
	pair(sv);
	lr_proto_len_encode(sizeof(body) - 1, wire);
	memcpy(wire + 4, body, sizeof(body) - 1);
	w = (struct writer){.fd = sv[0], .buf = wire, .len = sizeof(wire), .delay_ms = 3};
	pthread_create(&t, NULL, writer_main, &w); /* one byte at a time */
	c.fd = sv[1];
	assert_int_equal(lr_proto_msg_recv(&c, 8192, 2 * LR_NSEC_PER_SEC, &got, &len), 0);
	pthread_join(t, NULL);
	assert_int_equal(len, sizeof(body) - 1);
	assert_string_equal(got, body);
	free(got);

	/* and msg_send produces the same bytes */
	c.fd = sv[0];
	assert_int_equal(lr_proto_msg_send(&c, body, sizeof(body) - 1), 0);
	c.fd = sv[1];
	{
		uint8_t back[sizeof(wire)];

		assert_int_equal(lr_proto_read(&c, back, sizeof(back), LR_NSEC_PER_SEC), 0);
		assert_memory_equal(back, wire, sizeof(wire));
	}
	close(sv[0]);
	close(sv[1]);
}

static void test_msg_oversize_truncated_timeout(void **state)
{
	struct lr_proto_conn c = {.side_fd = -1};
	atomic_bool stop;
	uint64_t t0;
	char *got = NULL;
	size_t len;
	int sv[2], st;

	(void)state;
	/* 4 GiB length prefix: rejected at once, nothing allocated */
	pair(sv);
	c.fd = sv[1];
	assert_int_equal(write(sv[0], "\xff\xff\xff\xff", 4), 4);
	t0 = lr_clock_mono_ns();
	assert_int_equal(
		lr_proto_msg_recv(&c, LR_PROTO_PARAMS_MAX, 5 * LR_NSEC_PER_SEC, &got, &len),
		-EMSGSIZE);
	assert_true(lr_clock_mono_ns() - t0 < 500 * MS);
	assert_null(got);
	close(sv[0]);
	close(sv[1]);

	/* truncated body, then EOF */
	pair(sv);
	c.fd = sv[1];
	assert_int_equal(write(sv[0], "\0\0\0\x64{\"tcp\":", 11), 11);
	shutdown(sv[0], SHUT_WR);
	assert_int_equal(lr_proto_msg_recv(&c, 8192, 5 * LR_NSEC_PER_SEC, &got, &len), -ECONNRESET);
	close(sv[0]);
	close(sv[1]);

	/* silence: the deadline holds, overall (not per byte) */
	pair(sv);
	c.fd = sv[1];
	assert_int_equal(write(sv[0], "\0\0\0\x64{", 5), 5);
	t0 = lr_clock_mono_ns();
	assert_int_equal(lr_proto_msg_recv(&c, 8192, 200 * MS, &got, &len), -ETIMEDOUT);
	assert_true(lr_clock_mono_ns() - t0 >= 190 * MS);
	assert_true(lr_clock_mono_ns() - t0 < 2000 * MS);	/* generous: a loaded host */

	/* the stop flag ends the wait long before its 10 s deadline */
	atomic_init(&stop, true);
	c.stop = &stop;
	t0 = lr_clock_mono_ns();
	assert_int_equal(lr_proto_state_recv(&c, &st, 10 * LR_NSEC_PER_SEC), -ECANCELED);
	assert_true(lr_clock_mono_ns() - t0 < 2000 * MS);
	c.stop = NULL;

	/* state bytes are signed */
	assert_int_equal(write(sv[0], "\xff\xfe\x0d", 3), 3);
	assert_int_equal(lr_proto_state_recv(&c, &st, LR_NSEC_PER_SEC), 0);
	assert_int_equal(st, LR_PROTO_ACCESS_DENIED);
	assert_int_equal(lr_proto_state_recv(&c, &st, LR_NSEC_PER_SEC), 0);
	assert_int_equal(st, LR_PROTO_SERVER_ERROR);
	assert_int_equal(lr_proto_state_recv(&c, &st, LR_NSEC_PER_SEC), 0);
	assert_int_equal(st, LR_PROTO_EXCHANGE_RESULTS);
	close(sv[0]);
	close(sv[1]);
}

static int side_calls;

static void side_cb(void *arg)
{
	int fd = *(int *)arg;
	char b;

	side_calls++;
	if (read(fd, &b, 1) != 1)
		side_calls += 100;
}

/* The server answers intruders while it waits on the control socket. */
static void test_side_fd(void **state)
{
	int sv[2], side[2];
	struct lr_proto_conn c = {.side_fd = -1};
	struct writer w;
	pthread_t t;
	int st;

	(void)state;
	pair(sv);
	pair(side);
	c.fd = sv[1];
	c.side_fd = side[1];
	c.side_cb = side_cb;
	c.side_arg = &side[1];
	assert_int_equal(write(side[0], "x", 1), 1);
	w = (struct writer){.fd = sv[0], .buf = (const uint8_t *)"\x04", .len = 1};
	usleep(20000);
	pthread_create(&t, NULL, writer_main, &w);
	assert_int_equal(lr_proto_state_recv(&c, &st, LR_NSEC_PER_SEC), 0);
	pthread_join(t, NULL);
	assert_int_equal(st, LR_PROTO_TEST_END);
	assert_int_equal(side_calls, 1);
	close(sv[0]);
	close(sv[1]);
	close(side[0]);
	close(side[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cookie),
		cmocka_unit_test(test_state_values),
		cmocka_unit_test(test_udp_setup_datagrams),
		cmocka_unit_test(test_len_codec),
		cmocka_unit_test(test_params_decode_312),
		cmocka_unit_test(test_params_encode_matches_312),
		cmocka_unit_test(test_params_round_trip),
		cmocka_unit_test(test_params_rejects),
		cmocka_unit_test(test_params_defaults_and_unknown_keys),
		cmocka_unit_test(test_results_decode_312),
		cmocka_unit_test(test_results_round_trip),
		cmocka_unit_test(test_results_rejects),
		cmocka_unit_test(test_unsigned_fix_spares_strings),
		cmocka_unit_test(test_msg_round_trip_partial),
		cmocka_unit_test(test_msg_oversize_truncated_timeout),
		cmocka_unit_test(test_side_fd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
