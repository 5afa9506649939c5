// SPDX-License-Identifier: GPL-2.0-or-later
/* Client and server sessions against each other on 127.0.0.1 (real sockets, real stream
 * threads): a TCP and a UDP test end in DONE with both sides' counts merged; live stream info
 * while running; lr_client_stop ends a test within 200 ms; lr_client_set_rate changes a running
 * sender; a refused connection is an ERROR naming the address; a busy server says so; a data
 * stream's EPIPE ends the test as the server's reset. */
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
#include "linerate/app/config.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"
#include "fakes/loopsrv.h"
#include "../../src/traffic/client_priv.h"

#define MS LR_NSEC_PER_MSEC

static int srv_setup(void **state)
{
	struct loopsrv *v = calloc(1, sizeof(*v));

	if (!v || loopsrv_start(v, (struct lr_server_opts){0}, 7) < 0) {
		free(v);
		return -1;
	}
	*state = v;
	return 0;
}

static int srv_teardown(void **state)
{
	loopsrv_stop(*state);
	free(*state);
	return 0;
}

static struct lr_traffic_config tcfg(struct loopsrv *v)
{
	return (struct lr_traffic_config){
		.host = "127.0.0.1",
		.port = v->port,
		.parallel = 1,
		.affinity = -1,
		.server_affinity = -1,
	};
}

/* Until the server has closed the test it counted done + 1 (bounded): it ends its side after
 * the client has its results, and a loaded host runs the next test into "the server is busy". */
static void server_settles(const struct loopsrv *v, unsigned done)
{
	uint64_t until = lr_clock_mono_ns() + 5 * LR_NSEC_PER_SEC;

	while (lr_server_tests_done(v->s) <= done && lr_clock_mono_ns() < until)
		usleep(5000);
}

static struct lr_traffic_results *run(const struct loopsrv *v, struct lr_traffic_config *tc,
				      uint64_t dur, enum lr_client_state *st)
{
	struct lr_traffic_results *r = calloc(1, sizeof(*r));
	struct lr_client *c;
	unsigned done = lr_server_tests_done(v->s);

	assert_int_equal(lr_client_open(&c, tc, dur), 0);
	assert_int_equal(lr_client_state(c), LR_CLIENT_IDLE);
	assert_int_equal(lr_client_start(c), 0);
	assert_true(lr_client_wait(c, 20 * LR_NSEC_PER_SEC));
	*st = lr_client_state(c);
	assert_int_equal(lr_client_results(c, r), 0);
	lr_client_close(c);
	server_settles(v, done);
	return r;
}

static void test_tcp_bidir(void **state)
{
	struct loopsrv *v = *state;
	struct lr_traffic_config tc = tcfg(v);
	struct lr_traffic_results *r;
	enum lr_client_state st;
	unsigned done = lr_server_tests_done(v->s);

	tc.bidir = true;
	tc.parallel = 2;
	tc.bitrate_bps = 200000000; /* keep the test cheap */
	r = run(v, &tc, 500 * MS, &st);
	assert_int_equal(st, LR_CLIENT_DONE);
	assert_true(r->complete);
	assert_false(r->stopped);
	assert_int_equal(r->n_streams, 4);
	assert_int_equal(r->streams[0].id, 1);
	assert_int_equal(r->streams[1].id, 3);
	assert_int_equal(r->streams[3].id, 5);
	assert_true(r->streams[0].client_sends);
	assert_false(r->streams[2].client_sends);
	for (unsigned i = 0; i < 4; i++) {
		assert_true(r->streams[i].have_peer);
		assert_true(r->streams[i].sent_bytes > 1000000);
		assert_int_equal(r->streams[i].sent_bytes, r->streams[i].received_bytes);
	}
	assert_int_equal(r->sum_up.n_streams, 2);
	assert_int_equal(r->sum_down.n_streams, 2);
	assert_int_equal(r->sum_up.sent_bytes, r->sum_up.received_bytes);
	assert_string_equal(r->remote_host, "127.0.0.1");
	assert_int_equal(r->remote_port, v->port);
	assert_int_equal(lr_server_tests_done(v->s), done + 1);
	free(r);
}

static void test_udp_reverse(void **state)
{
	struct loopsrv *v = *state;
	struct lr_traffic_config tc = tcfg(v);
	struct lr_traffic_results *r;
	enum lr_client_state st;

	tc.udp = true;
	tc.reverse = true;
	tc.length = 1200;
	tc.bitrate_bps = 20000000;
	tc.bitrate_set = true;
	r = run(v, &tc, 1000 * MS, &st);
	assert_int_equal(st, LR_CLIENT_DONE);
	assert_true(r->reverse && r->udp);
	assert_int_equal(r->len, 1200);
	assert_int_equal(r->n_streams, 1);
	assert_false(r->streams[0].client_sends);
	/* 20 Mbit/s = ~2083 datagrams of 1200 B a second, over the sender's own seconds (a
	 * loaded host stretches a 1 s test) */
	{
		double bps = (double)r->streams[0].packets_sent * 1200 * 8 / r->streams[0].sender_s;

		if (bps < 16e6 || bps > 24e6)
			fail_msg("%lld datagrams in %.3f s: %.0f bit/s", (long long)r->streams[0].packets_sent,
				 r->streams[0].sender_s, bps);
	}
	/* on a loaded host a starved receiver may lose a few (its socket buffer full): the
	 * sender's count is the receiver's plus the receiver's own loss count, whatever it is */
	assert_true(r->streams[0].lost >= 0 && r->streams[0].lost < r->streams[0].packets_sent / 50);
	assert_int_equal(r->streams[0].sent_bytes,
			 r->streams[0].received_bytes + (uint64_t)r->streams[0].lost * 1200);
	assert_int_equal(r->sum_down.packets_sent, r->streams[0].packets_sent);
	free(r);
}

/* The stream's send rate in bit/s over about span_ns, divided by the time measured around it. */
static uint64_t paced_bps(const struct lr_client_stream_info *info, uint64_t span_ns)
{
	uint64_t t0 = lr_clock_mono_ns(), b0 = atomic_load(&info->stats->bytes), b1, t1;

	usleep((useconds_t)(span_ns / 1000));
	b1 = atomic_load(&info->stats->bytes);
	t1 = lr_clock_mono_ns();
	return (uint64_t)((double)(b1 - b0) * 8e9 / (double)(t1 - t0));
}

/* One of three 0.5 s windows in [lo, hi]: a host loaded beside the test may starve the sender
 * for a window; a pacer that holds the wrong rate misses all three. */
static bool paced_within(const struct lr_client_stream_info *info, uint64_t lo, uint64_t hi)
{
	for (int k = 0; k < 3; k++) {
		uint64_t bps = paced_bps(info, 500 * MS);

		if (bps >= lo && bps <= hi)
			return true;
		print_message("paced %llu bit/s, wanted %llu..%llu\n", (unsigned long long)bps,
			      (unsigned long long)lo, (unsigned long long)hi);
	}
	return false;
}

/* A client running tc until stopped, once its test runs (bounded: 5 s). */
static struct lr_client *start_until_stopped(struct lr_traffic_config *tc)
{
	struct lr_client *c;
	uint64_t t0;

	assert_int_equal(lr_client_open(&c, tc, 0), 0); /* 0: until stopped */
	assert_int_equal(lr_client_start(c), 0);
	t0 = lr_clock_mono_ns();
	while (lr_client_state(c) != LR_CLIENT_RUNNING && lr_clock_mono_ns() - t0 < 5000 * MS)
		usleep(10000);
	if (lr_client_state(c) != LR_CLIENT_RUNNING) {
		char why[256];

		lr_client_error(c, why, sizeof(why));
		fail_msg("the test is not running (state %d): %s", lr_client_state(c), why);
	}
	return c;
}

static void test_live_stop_and_rate(void **state)
{
	struct loopsrv *v = *state;
	struct lr_traffic_config tc = tcfg(v);
	struct lr_traffic_results *r = calloc(1, sizeof(*r));
	struct lr_client_stream_info info;
	struct lr_client *c;
	unsigned done;

	tc.parallel = 2;
	tc.udp = true;
	tc.length = 1000;
	tc.bitrate_bps = 8000000; /* 1000 datagrams/s per stream */
	tc.bitrate_set = true;
	done = lr_server_tests_done(v->s);
	c = start_until_stopped(&tc);
	assert_int_equal(lr_client_stream_count(c), 2);
	assert_int_equal(lr_client_stream_info(c, 1, &info), 0);
	assert_int_equal(info.id, 3);
	assert_true(info.sender && info.udp);
	assert_int_equal(lr_client_stream_info(c, 2, &info), -ENOENT);
	assert_int_equal(lr_client_stream_info(c, 0, &info), 0);

	/* rates over the time that really passed (a loaded machine oversleeps): the pacer holds
	 * 8 Mbit/s, then 32 Mbit/s after a live change, within 20 % */
	usleep(300000);
	assert_true(paced_within(&info, 6400000, 9600000));
	lr_client_set_rate(c, 32000000); /* x4 */
	usleep(200000);
	assert_true(paced_within(&info, 25600000, 38400000));

	lr_client_stop(c);
	assert_true(lr_client_wait(c, 1000 * MS)); /* bounded; how fast is bench's business */
	assert_int_equal(lr_client_state(c), LR_CLIENT_DONE);
	assert_int_equal(lr_client_results(c, r), 0);
	assert_true(r->stopped);
	assert_false(r->complete);
	assert_int_equal(r->n_streams, 2);
	assert_true(r->streams[0].sent_bytes > 1000000);
	lr_client_close(c);
	free(r);
	server_settles(v, done);

	/* the server took CLIENT_TERMINATE and serves the next test */
	tc.udp = false;
	tc.parallel = 1;
	tc.bitrate_bps = 100000000;
	{
		enum lr_client_state st;

		usleep(100000);
		r = run(v, &tc, 300 * MS, &st);
		assert_int_equal(st, LR_CLIENT_DONE);
		assert_true(r->complete);
		free(r);
	}
}

/* A TCP sender whose send fails with EPIPE ends the test as a reset by the server: EPIPE is what
 * a send gets once the peer's RST has been reported (ECONNRESET, once) and the socket is shut,
 * and test_stream's peer reset ends in either. Shutting the data socket for writing here makes
 * the EPIPE certain; the message must name the server, never "Broken pipe". */
static void test_stream_epipe_is_a_reset(void **state)
{
	struct loopsrv *v = *state;
	struct lr_traffic_config tc = tcfg(v);
	struct lr_client *c;
	char why[256];
	unsigned done;

	tc.bitrate_bps = 10000000;
	tc.bitrate_set = true;
	done = lr_server_tests_done(v->s);
	c = start_until_stopped(&tc);
	assert_int_equal(lr_client_nstreams(c), 1);
	assert_int_equal(shutdown(lr_stream_params(c->streams[0])->fd, SHUT_WR), 0);
	assert_true(lr_client_wait(c, 5000 * MS));
	assert_int_equal(lr_client_state(c), LR_CLIENT_ERROR);
	lr_client_error(c, why, sizeof(why));
	assert_string_equal(why, "the server reset data stream 1 during the test");
	lr_client_close(c);
	server_settles(v, done);
}

static void test_refused_and_busy(void **state)
{
	struct loopsrv *v = *state;
	struct lr_traffic_config tc = tcfg(v);
	struct lr_traffic_results *r;
	struct lr_client *a;
	enum lr_client_state st;
	char err[256];
	uint64_t t0;

	/* nothing listens on port+1 (the server bound only port) */
	tc.port = (uint16_t)(v->port + 1);
	assert_int_equal(lr_client_open(&a, &tc, 200 * MS), 0);
	assert_int_equal(lr_client_start(a), 0);
	assert_true(lr_client_wait(a, 5 * LR_NSEC_PER_SEC));
	assert_int_equal(lr_client_state(a), LR_CLIENT_ERROR);
	lr_client_error(a, err, sizeof(err));
	assert_non_null(strstr(err, "cannot connect to 127.0.0.1:"));
	assert_non_null(strstr(err, "Connection refused"));
	lr_client_close(a);

	/* a second client while a test runs: ACCESS_DENIED */
	tc = tcfg(v);
	tc.bitrate_bps = 10000000;
	assert_int_equal(lr_client_open(&a, &tc, 0), 0);
	assert_int_equal(lr_client_start(a), 0);
	t0 = lr_clock_mono_ns();
	while (lr_client_state(a) != LR_CLIENT_RUNNING && lr_clock_mono_ns() - t0 < 5000 * MS)
		usleep(10000);
	r = run(v, &tc, 200 * MS, &st);
	free(r);
	assert_int_equal(st, LR_CLIENT_ERROR);
	lr_client_stop(a);
	assert_true(lr_client_wait(a, 1000 * MS));
	lr_client_close(a);
}

static void test_open_rejects(void **state)
{
	struct lr_traffic_config tc = {.parallel = 1, .affinity = -1, .server_affinity = -1};
	struct lr_client *c;

	(void)state;
	assert_int_equal(lr_client_open(&c, &tc, 0), -EINVAL); /* no host */
	tc.host = "127.0.0.1";
	tc.parallel = 129;
	assert_int_equal(lr_client_open(&c, &tc, 0), -EINVAL);
	tc.parallel = 1;
	tc.udp = true;
	tc.length = 65508;
	assert_int_equal(lr_client_open(&c, &tc, 0), -EINVAL);
	lr_client_close(NULL);
	lr_server_close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_rejects),	 cmocka_unit_test(test_tcp_bidir),
		cmocka_unit_test(test_udp_reverse),	 cmocka_unit_test(test_live_stop_and_rate),
		cmocka_unit_test(test_refused_and_busy),
		cmocka_unit_test(test_stream_epipe_is_a_reset),
	};

	return cmocka_run_group_tests(tests, srv_setup, srv_teardown);
}
