// SPDX-License-Identifier: GPL-2.0-or-later
/* The traffic sessions on a lossy or dead link (issue 22), on 127.0.0.1 against peers written
 * here with the proto codecs, so that each side sees exactly what the other sent:
 *  - the server answers a resent UDP setup datagram, and a late one never counts as data (its
 *    results carry exactly the bytes this test sent);
 *  - a receiving stream does not count setup datagrams;
 *  - the client resends its UDP setup datagram until --connect-timeout, then fails naming it;
 *  - a server that goes silent after TEST_RUNNING ends the test within its bound;
 *  - -R -n over UDP against a sender that stops at the count (issue 30): the datagrams its
 *    sequence numbers say it sent, the last one lost, end the test (TEST_END) after a quiet
 *    while; a sender that stalls short of the count is left to --rcv-timeout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/app/config.h"
#include "linerate/traffic/proto.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"
#include "linerate/traffic/udp_hdr.h"

#define MS  LR_NSEC_PER_MSEC
#define LEN 1200

static struct sockaddr_in lo_addr(uint16_t port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

/* A UDP socket connected to 127.0.0.1:port, receive timeout 1 s. */
static int udp_to(uint16_t port)
{
	struct sockaddr_in a = lo_addr(port);
	struct timeval tv = {.tv_sec = 1};
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	assert_true(fd >= 0);
	assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

static void expect_reply(int fd)
{
	uint8_t b[8];

	assert_int_equal(recv(fd, b, sizeof(b), 0), 4);
	assert_true(lr_proto_udp_is_reply(b, 4));
}

static int state_of(struct lr_proto_conn *cc)
{
	int st = 0;

	assert_int_equal(lr_proto_state_recv(cc, &st, 3000 * MS), 0);
	return st;
}

static void send_data(int fd, uint64_t seq)
{
	uint8_t d[LEN] = {0};
	struct lr_udp_hdr h = {.seq = seq};

	lr_udp_hdr_set_time(&h, lr_clock_mono_ns());
	lr_udp_hdr_encode(d, &h, false);
	assert_int_equal(send(fd, d, sizeof(d), 0), LEN);
}

static void *serve(void *arg)
{
	if (lr_server_run(arg) < 0)
		fprintf(stderr, "server run failed\n");
	return NULL;
}

/* A client written here: two UDP streams, the first one's setup sent twice (the reply "lost"),
 * a late setup datagram on the second during the test, 3 + 2 data datagrams. */
static void test_server_resent_setup(void **state)
{
	struct lr_server *s = NULL;
	struct lr_proto_params p;
	struct lr_proto_results mine = {0}, *theirs = calloc(1, sizeof(*theirs));
	struct lr_proto_conn cc = {.side_fd = -1};
	struct sockaddr_in a;
	char cookie[LR_PROTO_COOKIE_LEN], err[LR_PROTO_ERR_MAX], *buf;
	size_t len;
	uint16_t port = 0;
	pthread_t t;
	int ua, ub;

	(void)state;
	for (int tries = 0; tries < 50 && !s; tries++) {
		struct lr_server_opts o = {.bind = "127.0.0.1"};

		o.port = (uint16_t)(20000 + (unsigned)(getpid() * 13 + tries * 177) % 30000);
		if (lr_server_open(&s, &o) == 0)
			port = o.port;
	}
	assert_non_null(s);
	assert_int_equal(pthread_create(&t, NULL, serve, s), 0);

	cc.fd = socket(AF_INET, SOCK_STREAM, 0);
	a = lo_addr(port);
	assert_int_equal(connect(cc.fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(lr_proto_cookie_make(cookie), 0);
	assert_int_equal(lr_proto_write(&cc, cookie, sizeof(cookie), 1000 * MS), 0);
	assert_int_equal(state_of(&cc), LR_PROTO_PARAM_EXCHANGE);
	lr_proto_params_init(&p);
	p.udp = true;
	p.parallel = 2;
	p.len = LEN;
	p.time_s = 1;
	p.bandwidth_bps = 1000000;
	assert_int_equal(lr_proto_params_encode(&p, &buf, &len), 0);
	assert_int_equal(lr_proto_msg_send(&cc, buf, len), 0);
	free(buf);
	assert_int_equal(state_of(&cc), LR_PROTO_CREATE_STREAMS);

	ua = udp_to(port);
	assert_int_equal(send(ua, lr_proto_udp_connect_msg, 4, 0), 4);
	expect_reply(ua);
	/* as if that reply had been lost: the server must answer the resend */
	assert_int_equal(send(ua, lr_proto_udp_connect_msg, 4, 0), 4);
	expect_reply(ua);
	ub = udp_to(port);
	assert_int_equal(send(ub, lr_proto_udp_connect_msg, 4, 0), 4);
	expect_reply(ub);
	assert_int_equal(state_of(&cc), LR_PROTO_TEST_START);
	assert_int_equal(state_of(&cc), LR_PROTO_TEST_RUNNING);

	/* a late setup datagram on a stream that is running, then the data */
	assert_int_equal(send(ub, lr_proto_udp_connect_msg, 4, 0), 4);
	for (uint64_t q = 1; q <= 3; q++)
		send_data(ua, q);
	for (uint64_t q = 1; q <= 2; q++)
		send_data(ub, q);
	usleep(100000);
	assert_int_equal(lr_proto_state_send(&cc, LR_PROTO_TEST_END), 0);
	assert_int_equal(state_of(&cc), LR_PROTO_EXCHANGE_RESULTS);
	mine.sender_has_retransmits = 0;
	mine.n_streams = 2;
	mine.streams[0] = (struct lr_proto_stream_result){
		.id = 1, .bytes = 3 * LEN, .packets = 3, .retransmits = -1, .end_time_s = 0.1};
	mine.streams[1] = (struct lr_proto_stream_result){
		.id = 3, .bytes = 2 * LEN, .packets = 2, .retransmits = -1, .end_time_s = 0.1};
	assert_int_equal(lr_proto_results_encode(&mine, &buf, &len), 0);
	assert_int_equal(lr_proto_msg_send(&cc, buf, len), 0);
	free(buf);
	assert_int_equal(lr_proto_msg_recv(&cc, LR_PROTO_RESULTS_MAX, 3000 * MS, &buf, &len), 0);
	assert_int_equal(lr_proto_results_decode(buf, len, theirs, err), 0);
	free(buf);
	assert_int_equal(state_of(&cc), LR_PROTO_DISPLAY_RESULTS);
	assert_int_equal(lr_proto_state_send(&cc, LR_PROTO_IPERF_DONE), 0);

	/* the server's count is what this test sent, without the 4-byte setup datagrams */
	assert_int_equal(theirs->n_streams, 2);
	assert_int_equal(theirs->streams[0].id, 1);
	assert_int_equal(theirs->streams[0].bytes, 3 * LEN);
	assert_int_equal(theirs->streams[0].packets, 3);
	assert_int_equal(theirs->streams[1].id, 3);
	assert_int_equal(theirs->streams[1].bytes, 2 * LEN);
	assert_int_equal(theirs->streams[1].errors, 0);

	close(ua);
	close(ub);
	close(cc.fd);
	lr_server_stop(s);
	pthread_join(t, NULL);
	lr_server_close(s);
	free(theirs);
}

/* A receiving stream fed setup datagrams (request, reply, legacy reply) between data: none of
 * them is bytes, packets or loss. */
static void test_receiver_ignores_setup(void **state)
{
	struct lr_stream_params sp = {.id = 1, .udp = true, .len = LEN, .cpu = -1, .no_gso = true};
	struct sockaddr_in a = lo_addr(0);
	socklen_t al = sizeof(a);
	struct lr_stream *rx;
	const struct lr_stream_stats *st;
	uint64_t t0;
	int fd, tx;

	(void)state;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &al), 0);
	tx = udp_to(ntohs(a.sin_port));
	sp.fd = fd;
	assert_int_equal(lr_stream_open(&rx, &sp), 0);
	assert_int_equal(lr_stream_start(rx), 0);
	assert_int_equal(send(tx, lr_proto_udp_connect_msg, 4, 0), 4);
	send_data(tx, 1);
	assert_int_equal(send(tx, lr_proto_udp_connect_reply, 4, 0), 4);
	send_data(tx, 2);
	assert_int_equal(send(tx, lr_proto_udp_legacy_reply, 4, 0), 4);
	send_data(tx, 3);
	st = lr_stream_stats(rx);
	t0 = lr_clock_mono_ns();
	while (atomic_load(&st->max_seq) < 3 && lr_clock_mono_ns() - t0 < 2000 * MS)
		usleep(5000);
	usleep(20000);
	lr_stream_stop(rx);
	lr_stream_join(rx);
	assert_int_equal(atomic_load(&st->bytes), 3 * LEN);
	assert_int_equal(atomic_load(&st->packets), 3);
	assert_int_equal(atomic_load(&st->lost), 0);
	assert_int_equal(atomic_load(&st->max_seq), 3);
	assert_true(atomic_load(&st->last_ns) >= t0 - 2000 * MS);
	lr_stream_close(rx);
	close(tx);
}

/* ---- a fake server for the client's side ---- */

enum fake_mode { FAKE_NO_UDP_REPLY, FAKE_SILENT_AFTER_START, FAKE_COUNT_STOPS };

struct fake {
	enum fake_mode mode;
	int lfd, ufd;
	uint16_t port;
	int setup_dgrams; /* "9876" datagrams that reached the fake */
	/* FAKE_COUNT_STOPS: the data datagrams sent (seq 1..), a bit set = not sent ("lost") */
	unsigned n_data, lost_mask;
	uint64_t test_end_ms; /* TEST_END came this long after the last datagram; 0: never */
	pthread_t t;
};

/* -R: datagrams 1..n_data to the client, those in lost_mask left out, then silence */
static uint64_t fake_send_data(struct fake *f)
{
	uint8_t d[LEN] = {0};

	for (unsigned i = 1; i <= f->n_data; i++) {
		struct lr_udp_hdr h = {.seq = i};

		if (f->lost_mask & (1u << i))
			continue;
		lr_udp_hdr_set_time(&h, lr_clock_mono_ns());
		lr_udp_hdr_encode(d, &h, false);
		if (send(f->ufd, d, sizeof(d), 0) != LEN)
			break;
		usleep(1000);
	}
	return lr_clock_mono_ns();
}

static bool readable(int fd, int ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	return poll(&p, 1, ms) > 0;
}

static void *fake_main(void *arg)
{
	struct fake *f = arg;
	struct lr_proto_conn cc = {.side_fd = -1};
	char cookie[LR_PROTO_COOKIE_LEN], *buf;
	size_t len;
	uint8_t d[2048];
	uint64_t t0 = lr_clock_mono_ns(), last;

	if (!readable(f->lfd, 5000))
		return NULL;
	cc.fd = accept(f->lfd, NULL, NULL);
	if (cc.fd < 0 || lr_proto_read(&cc, cookie, sizeof(cookie), 3000 * MS) < 0 ||
	    lr_proto_state_send(&cc, LR_PROTO_PARAM_EXCHANGE) < 0 ||
	    lr_proto_msg_recv(&cc, LR_PROTO_PARAMS_MAX, 3000 * MS, &buf, &len) < 0)
		goto out;
	free(buf);
	if (lr_proto_state_send(&cc, LR_PROTO_CREATE_STREAMS) < 0)
		goto out;
	/* count setup datagrams until the client gives up (control EOF), or answer the first */
	while (lr_clock_mono_ns() - t0 < 10000 * MS) {
		struct pollfd p[2] = {{.fd = f->ufd, .events = POLLIN},
				      {.fd = cc.fd, .events = POLLIN}};
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);
		ssize_t n;

		if (poll(p, 2, 100) <= 0)
			continue;
		if (p[1].revents && recv(cc.fd, d, sizeof(d), MSG_DONTWAIT) <= 0)
			break;
		if (!p[0].revents)
			continue;
		n = recvfrom(f->ufd, d, sizeof(d), 0, (struct sockaddr *)&from, &fl);
		if (n != 4 || memcmp(d, lr_proto_udp_connect_msg, 4))
			continue;
		f->setup_dgrams++;
		if (f->mode == FAKE_NO_UDP_REPLY)
			continue;
		if (connect(f->ufd, (struct sockaddr *)&from, fl) < 0 ||
		    send(f->ufd, lr_proto_udp_connect_reply, 4, 0) != 4 ||
		    lr_proto_state_send(&cc, LR_PROTO_TEST_START) < 0 ||
		    lr_proto_state_send(&cc, LR_PROTO_TEST_RUNNING) < 0)
			break;
		last = f->mode == FAKE_COUNT_STOPS ? fake_send_data(f) : 0;
		/* silent from now on: read whatever comes until the client closes */
		while (lr_clock_mono_ns() - t0 < 10000 * MS) {
			ssize_t got = readable(cc.fd, 100) ? recv(cc.fd, d, 1, MSG_DONTWAIT) : -1;

			if (got == 1 && (int8_t)d[0] == LR_PROTO_TEST_END && last) {
				f->test_end_ms = (lr_clock_mono_ns() - last) / MS;
				break;	/* the client then finds the control connection closed */
			}
			if (got == 0)
				break;
		}
		break;
	}
out:
	if (cc.fd >= 0)
		close(cc.fd);
	return NULL;
}

/* f's n_data and lost_mask are the caller's (set before the fake's thread starts) */
static void fake_start(struct fake *f, enum fake_mode mode)
{
	unsigned n_data = f->n_data, lost_mask = f->lost_mask;

	memset(f, 0, sizeof(*f));
	f->mode = mode;
	f->n_data = n_data;
	f->lost_mask = lost_mask;
	for (int tries = 0; tries < 50; tries++) {
		struct sockaddr_in a = lo_addr(0);
		socklen_t al = sizeof(a);
		int one = 1;

		f->lfd = socket(AF_INET, SOCK_STREAM, 0);
		setsockopt(f->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		assert_int_equal(bind(f->lfd, (struct sockaddr *)&a, sizeof(a)), 0);
		assert_int_equal(listen(f->lfd, 4), 0);
		assert_int_equal(getsockname(f->lfd, (struct sockaddr *)&a, &al), 0);
		f->ufd = socket(AF_INET, SOCK_DGRAM, 0);
		if (bind(f->ufd, (struct sockaddr *)&a, sizeof(a)) == 0) {
			f->port = ntohs(a.sin_port);
			break;
		}
		close(f->ufd);
		close(f->lfd);
	}
	assert_true(f->port != 0);
	assert_int_equal(pthread_create(&f->t, NULL, fake_main, f), 0);
}

static void fake_stop(struct fake *f)
{
	pthread_join(f->t, NULL);
	close(f->lfd);
	close(f->ufd);
}

/* Runs a client against the fake; returns the wall-clock ms to DONE/ERROR, err filled. */
static uint64_t run_client(struct fake *f, struct lr_traffic_config *tc, uint64_t dur_ns, char *err,
			   size_t errlen)
{
	struct lr_client *c;
	uint64_t t0 = lr_clock_mono_ns(), ms;

	tc->host = "127.0.0.1";
	tc->port = f->port;
	tc->parallel = 1;
	tc->affinity = tc->server_affinity = -1;
	tc->udp = true;
	tc->length = LEN;
	assert_int_equal(lr_client_open(&c, tc, dur_ns), 0);
	assert_int_equal(lr_client_start(c), 0);
	assert_true(lr_client_wait(c, 15 * LR_NSEC_PER_SEC));
	ms = (lr_clock_mono_ns() - t0) / MS;
	assert_int_equal(lr_client_state(c), LR_CLIENT_ERROR);
	lr_client_error(c, err, errlen);
	lr_client_close(c);
	return ms;
}

static void test_client_resends_setup(void **state)
{
	struct lr_traffic_config tc = {.connect_timeout_ms = 800};
	struct fake f = {0};
	char err[256];
	uint64_t ms;

	(void)state;
	fake_start(&f, FAKE_NO_UDP_REPLY);
	ms = run_client(&f, &tc, 1000 * MS, err, sizeof(err));
	fake_stop(&f);
	/* 800 ms of tries at 100, 200, 250, 250 ms gaps: 4 or 5 reached the fake */
	assert_true(f.setup_dgrams >= 3 && f.setup_dgrams <= 6);
	assert_true(ms >= 700 && ms < 2000);
	assert_non_null(strstr(err, "setup of UDP data stream 1"));
	assert_non_null(strstr(err, "--connect-timeout"));
}

static void test_client_silent_server(void **state)
{
	struct lr_traffic_config tc = {.rcv_timeout_ms = 400};
	struct fake f = {0};
	char err[256];
	uint64_t ms;

	(void)state;
	fake_start(&f, FAKE_SILENT_AFTER_START);
	ms = run_client(&f, &tc, 300 * MS, err, sizeof(err));
	fake_stop(&f);
	assert_int_equal(f.setup_dgrams, 1);
	/* 300 ms of test, up to ~0.1 s of ending, then 400 ms of silence (--rcv-timeout) */
	assert_true(ms >= 650 && ms < 2000);
	assert_non_null(strstr(err, "went silent"));
	assert_non_null(strstr(err, "--rcv-timeout"));
}

/* -R -n 10 datagrams: the fake sends seq 1..10 but 4 and 10 (the last) are lost on the way */
static void test_client_count_sender_stops(void **state)
{
	struct lr_traffic_config tc = {.reverse = true, .num_bytes = 10 * LEN,
				       .rcv_timeout_ms = 3000};
	struct fake f = {.n_data = 10, .lost_mask = 1u << 4 | 1u << 10};
	char err[256];

	(void)state;
	fake_start(&f, FAKE_COUNT_STOPS);
	run_client(&f, &tc, 0, err, sizeof(err));
	fake_stop(&f);
	/* 250 ms of quiet at most a poll late; --rcv-timeout (3 s) would be far later */
	assert_true(f.test_end_ms >= 240 && f.test_end_ms < 1500);
}

/* -R -n 10 datagrams: the fake stalls after seq 5, short of the count: no TEST_END, the test
 * ends on --rcv-timeout as iperf3's does */
static void test_client_count_sender_stalls(void **state)
{
	struct lr_traffic_config tc = {.reverse = true, .num_bytes = 10 * LEN,
				       .rcv_timeout_ms = 600};
	struct fake f = {.n_data = 5};
	char err[256];

	(void)state;
	fake_start(&f, FAKE_COUNT_STOPS);
	run_client(&f, &tc, 0, err, sizeof(err));
	fake_stop(&f);
	assert_int_equal(f.test_end_ms, 0);
	assert_non_null(strstr(err, "--rcv-timeout"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_server_resent_setup),
		cmocka_unit_test(test_receiver_ignores_setup),
		cmocka_unit_test(test_client_resends_setup),
		cmocka_unit_test(test_client_silent_server),
		cmocka_unit_test(test_client_count_sender_stops),
		cmocka_unit_test(test_client_count_sender_stalls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
