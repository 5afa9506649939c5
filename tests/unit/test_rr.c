// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --rr (traffic/rr.h): the negotiation's bytes against the ones docs/wire.md part 4 spells
 * out, and the flows on real loopback sockets, each held against a witness of its own: the
 * answering end's count, a scripted answerer's own tally of what it dropped and delayed, the
 * kernel's byte counts and the wall clock.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "linerate/core/clock.h"
#include "linerate/traffic/proto.h"
#include "linerate/traffic/rr.h"
#include "linerate/traffic/stream.h"

/* docs/wire.md part 4, byte for byte */
static const char wire_ack[] = "{\"v\":1,\"req\":64,\"resp\":1024}";

static void test_ack_bytes_as_documented(void **state)
{
	struct lr_rr_ask a = {64, 1024}, back;
	char err[LR_PROTO_ERR_MAX], *out;
	size_t len;

	(void)state;
	assert_int_equal(lr_rr_ack_encode(&a, &out, &len), 0);
	assert_int_equal(len, strlen(wire_ack));
	assert_memory_equal(out, wire_ack, len);
	free(out);
	assert_int_equal(lr_rr_ack_decode(wire_ack, strlen(wire_ack), &back, err), 0);
	assert_int_equal(back.req_bytes, 64);
	assert_int_equal(back.resp_bytes, 1024);
}

static void test_params_carry_the_ask(void **state)
{
	struct lr_proto_params p, q;
	char err[LR_PROTO_ERR_MAX], *out;
	size_t len;

	(void)state;
	lr_proto_params_init(&p);
	p.rr_req_bytes = 64;
	p.rr_resp_bytes = 1024;
	assert_int_equal(lr_proto_params_encode(&p, &out, &len), 0);
	out = realloc(out, len + 1);
	out[len] = '\0';
	assert_non_null(strstr(out, "\"linerate_rr\":{\"v\":1,\"req\":64,\"resp\":1024}"));
	assert_int_equal(lr_proto_params_decode(out, len, &q, err), 0);
	assert_int_equal(q.rr_req_bytes, 64);
	assert_int_equal(q.rr_resp_bytes, 1024);
	free(out);
}

static int decode(const char *json, struct lr_proto_params *p)
{
	char err[LR_PROTO_ERR_MAX];

	return lr_proto_params_decode(json, strlen(json), p, err);
}

static void test_params_refuse_a_bad_ask(void **state)
{
	struct lr_proto_params p;

	(void)state;
	/* iperf3 3.12's own client: no ask, a bulk test */
	assert_int_equal(
		decode("{\"tcp\":true,\"omit\":0,\"time\":10,\"parallel\":1,\"len\":131072}", &p),
		0);
	assert_int_equal(p.rr_req_bytes, 0);
	assert_int_equal(
		decode("{\"tcp\":true,\"linerate_rr\":{\"v\":1,\"req\":0,\"resp\":1}}", &p),
		-EINVAL);
	assert_int_equal(decode("{\"tcp\":true,\"linerate_rr\":{\"v\":1,\"req\":1}}", &p), -EINVAL);
	assert_int_equal(decode("{\"tcp\":true,\"linerate_rr\":[1,1]}", &p), -EINVAL);
	assert_int_equal(decode("{\"tcp\":true,\"linerate_rr\":{\"v\":1,\"req\":\"1\","
				"\"resp\":1}}",
				&p),
			 -EINVAL);
	/* one datagram each way: UDP's bound, not TCP's */
	assert_int_equal(decode("{\"udp\":true,\"len\":1460,\"linerate_rr\":{\"v\":1,"
				"\"req\":65508,\"resp\":1}}",
				&p),
			 -EINVAL);
	assert_int_equal(decode("{\"tcp\":true,\"linerate_rr\":{\"v\":1,\"req\":65508,"
				"\"resp\":1}}",
				&p),
			 0);
	assert_int_equal(p.rr_req_bytes, 65508);
}

static struct lr_stream *rr_stream(int fd, bool udp, bool client, uint32_t req, uint32_t resp)
{
	struct lr_stream_params p = {
		.fd = fd,
		.id = 1,
		.udp = udp,
		.sender = client,
		.cpu = -1,
		.rr_req_bytes = req,
		.rr_resp_bytes = resp,
		.rr_client = client,
	};
	struct lr_stream *s;

	assert_int_equal(lr_stream_open(&s, &p), 0);
	return s;
}

static void pair(int type, int *a, int *b)
{
	struct sockaddr_in x = {.sin_family = AF_INET}, y;
	socklen_t sl = sizeof(y);

	x.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (type == SOCK_STREAM) {
		int l = socket(AF_INET, SOCK_STREAM, 0);

		assert_int_equal(bind(l, (struct sockaddr *)&x, sizeof(x)), 0);
		assert_int_equal(listen(l, 1), 0);
		assert_int_equal(getsockname(l, (struct sockaddr *)&y, &sl), 0);
		*a = socket(AF_INET, SOCK_STREAM, 0);
		assert_int_equal(connect(*a, (struct sockaddr *)&y, sizeof(y)), 0);
		*b = accept(l, NULL, NULL);
		close(l);
		return;
	}
	*a = socket(AF_INET, SOCK_DGRAM, 0);
	*b = socket(AF_INET, SOCK_DGRAM, 0);
	assert_int_equal(bind(*a, (struct sockaddr *)&x, sizeof(x)), 0);
	assert_int_equal(bind(*b, (struct sockaddr *)&x, sizeof(x)), 0);
	assert_int_equal(getsockname(*b, (struct sockaddr *)&y, &sl), 0);
	assert_int_equal(connect(*a, (struct sockaddr *)&y, sizeof(y)), 0);
	sl = sizeof(y);
	assert_int_equal(getsockname(*a, (struct sockaddr *)&y, &sl), 0);
	assert_int_equal(connect(*b, (struct sockaddr *)&y, sizeof(y)), 0);
}

/* A client flow and a server flow of this engine: the server's own count, the bytes each end
 * counted and the wall clock over the run bound the client's transactions and round trips. */
static void both_ends(bool udp)
{
	struct lr_rr_result cr = {0}, sr = {0};
	struct lr_stream *c, *s;
	int a, b;
	uint64_t t0, wall;

	pair(udp ? SOCK_DGRAM : SOCK_STREAM, &a, &b);
	c = rr_stream(a, udp, true, 100, 300);
	s = rr_stream(b, udp, false, 100, 300);
	t0 = lr_clock_mono_ns();
	assert_int_equal(lr_stream_start(s), 0);
	assert_int_equal(lr_stream_start(c), 0);
	lr_clock_sleep_until(t0 + 300 * LR_NSEC_PER_MSEC);
	lr_stream_stop(c);
	lr_stream_join(c);
	lr_stream_stop(s);
	lr_stream_join(s);
	wall = lr_clock_mono_ns() - t0;
	lr_stream_rr_add(c, &cr);
	lr_stream_rr_add(s, &sr);
	assert_true(cr.transactions > 10);
	assert_int_equal(cr.transactions, sr.transactions);
	assert_int_equal(cr.lost, 0);
	assert_int_equal(cr.rtt.count, cr.transactions);
	assert_true(cr.rtt.sum_ns <= wall); /* one in flight: round trips never overlap */
	assert_int_equal(sr.rtt.count, 0);
	/* each end's bytes are the requests: the kernel moved what both say */
	assert_int_equal(atomic_load(&lr_stream_stats(c)->bytes), 100 * cr.transactions);
	assert_int_equal(atomic_load(&lr_stream_stats(s)->bytes), 100 * sr.transactions);
	lr_stream_close(c);
	lr_stream_close(s);
}

static void test_tcp_both_ends_agree(void **state)
{
	(void)state;
	both_ends(false);
}

static void test_udp_both_ends_agree(void **state)
{
	(void)state;
	both_ends(true);
}

/* A scripted UDP answerer: answers requests echoing their first 4 bytes, leaves every 7th
 * unanswered and answers the 20th 300 ms late (after the client gave it up). Its own tally is
 * the witness. */
struct answerer {
	int fd;
	volatile bool stop;
	unsigned seen, dropped, delayed;
};

static void *answer(void *arg)
{
	struct answerer *x = arg;
	uint8_t buf[64];
	struct timeval tv = {.tv_usec = 20000};

	setsockopt(x->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while (!x->stop) {
		ssize_t n = recv(x->fd, buf, sizeof(buf), 0);

		if (n != 16)
			continue;
		if (++x->seen % 7 == 0) {
			x->dropped++;
			continue;
		}
		if (x->seen == 20) {
			x->delayed++;
			lr_clock_sleep_until(lr_clock_mono_ns() + 300 * LR_NSEC_PER_MSEC);
		}
		send(x->fd, buf, 32, 0);
	}
	return NULL;
}

static void test_udp_lost_and_late_against_the_answerer(void **state)
{
	struct answerer x = {0};
	struct lr_rr_result cr = {0};
	struct lr_stream *c;
	pthread_t th;
	int a;

	(void)state;
	pair(SOCK_DGRAM, &a, &x.fd);
	c = rr_stream(a, true, true, 16, 32);
	assert_int_equal(pthread_create(&th, NULL, answer, &x), 0);
	assert_int_equal(lr_stream_start(c), 0);
	/* 200 ms per drop: about 5 of them, and the late one, in 1.5 s */
	lr_clock_sleep_until(lr_clock_mono_ns() + 1500 * LR_NSEC_PER_MSEC);
	lr_stream_stop(c);
	lr_stream_join(c);
	x.stop = true;
	pthread_join(th, NULL);
	lr_stream_rr_add(c, &cr);
	assert_true(x.dropped >= 2);
	assert_int_equal(x.delayed, 1);
	assert_int_equal(cr.lost, x.dropped + x.delayed);
	assert_int_equal(cr.late, x.delayed);
	assert_int_equal(cr.transactions, x.seen - x.dropped - x.delayed);
	lr_stream_close(c);
	close(x.fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ack_bytes_as_documented),
		cmocka_unit_test(test_params_carry_the_ask),
		cmocka_unit_test(test_params_refuse_a_bad_ask),
		cmocka_unit_test(test_tcp_both_ends_agree),
		cmocka_unit_test(test_udp_both_ends_agree),
		cmocka_unit_test(test_udp_lost_and_late_against_the_answerer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
