// SPDX-License-Identifier: GPL-2.0-or-later
/* Latency probes (docs/wire.md, part 3). The codec: a round trip, every refusal by its own
 * errno, the offer's probe_port and the ask's "probe" as hostile input. Then two linerates on
 * 127.0.0.1 in-process (real sockets, real threads): the client's answered count equals the
 * server responder's own count, with an idle baseline and load round trips and nothing lost;
 * a forged datagram from another socket is refused by the client, one with a wrong cookie by
 * the server (its own refused count); --no-latency asks nothing (OFF) and a server whose app
 * declines the peer view offers no port (UNOFFERED). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/traffic/peer_wire.h"
#include "linerate/traffic/probe.h"
#include "linerate/traffic/proto.h"
#include "linerate/traffic/traffic.h"

#define MS     LR_NSEC_PER_MSEC
#define COOKIE "abcdefghijklmnopqrstuvwxyz234567abcd"

/* ---- codec ---- */

static void test_round_trip(void **state)
{
	uint8_t b[LR_PROBE_SIZE_DEF];
	uint64_t seq = 0;

	(void)state;
	assert_int_equal(lr_probe_encode(b, sizeof(b), LR_PROBE_T_REQUEST, COOKIE,
					 0x0102030405060708ull, 42),
			 0);
	/* byte-exact as docs/wire.md §L2 says */
	assert_memory_equal(b, "LRpb\x01\x01\x00\x00", 8);
	assert_memory_equal(b + 8, COOKIE, 36);
	assert_memory_equal(b + 44, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	assert_memory_equal(b + 52, "\0\0\0\0\0\0\0\x2a", 8);
	assert_memory_equal(b + 60, "\0\0\0\0", 4);
	assert_int_equal(lr_probe_decode(b, sizeof(b), LR_PROBE_T_REQUEST, 0, COOKIE, &seq), 0);
	assert_true(seq == 0x0102030405060708ull);
	assert_int_equal(lr_probe_decode(b, sizeof(b), LR_PROBE_T_REQUEST, sizeof(b), COOKIE,
					 &seq),
			 0);
}

static void test_refusals(void **state)
{
	uint8_t b[LR_PROBE_SIZE_MAX + 1], m[LR_PROBE_SIZE_DEF];
	uint64_t seq = 7;

	(void)state;
	assert_int_equal(lr_probe_encode(b, LR_PROBE_HDR_BYTES - 1, 1, COOKIE, 1, 1), -EINVAL);
	assert_int_equal(lr_probe_encode(b, LR_PROBE_SIZE_MAX + 1, 1, COOKIE, 1, 1), -EINVAL);
	assert_int_equal(lr_probe_encode(b, LR_PROBE_SIZE_MAX, LR_PROBE_T_REPLY, COOKIE, 1, 1), 0);
	assert_int_equal(lr_probe_decode(b, LR_PROBE_SIZE_MAX, LR_PROBE_T_REPLY, 0, COOKIE, &seq),
			 0);
	/* sizes: short, one over the largest, not the size the client sent */
	assert_int_equal(lr_probe_decode(b, LR_PROBE_HDR_BYTES - 1, 2, 0, COOKIE, &seq),
			 -EMSGSIZE);
	assert_int_equal(lr_probe_decode(b, LR_PROBE_SIZE_MAX + 1, 2, 0, COOKIE, &seq),
			 -EMSGSIZE);
	assert_int_equal(lr_probe_decode(b, LR_PROBE_SIZE_MAX, 2, 64, COOKIE, &seq), -EMSGSIZE);
	assert_int_equal(lr_probe_encode(m, sizeof(m), LR_PROBE_T_REPLY, COOKIE, 9, 1), 0);
	m[0] = 'l';
	assert_int_equal(lr_probe_decode(m, sizeof(m), 2, 64, COOKIE, &seq), -EBADMSG);
	m[0] = 'L';
	m[3] = 'B';
	assert_int_equal(lr_probe_decode(m, sizeof(m), 2, 64, COOKIE, &seq), -EBADMSG);
	m[3] = 'b';
	m[4] = 2;
	assert_int_equal(lr_probe_decode(m, sizeof(m), 2, 64, COOKIE, &seq), -EPROTONOSUPPORT);
	m[4] = 1;
	/* a request is never taken for a reply, nor a reply for a request */
	assert_int_equal(lr_probe_decode(m, sizeof(m), LR_PROBE_T_REQUEST, 64, COOKIE, &seq),
			 -EPROTO);
	m[8 + 35] ^= 1;	/* the cookie's last character */
	assert_int_equal(lr_probe_decode(m, sizeof(m), 2, 64, COOKIE, &seq), -EACCES);
	m[8 + 35] ^= 1;
	m[8] ^= 1;	/* ... and its first */
	assert_int_equal(lr_probe_decode(m, sizeof(m), 2, 64, COOKIE, &seq), -EACCES);
	m[8] ^= 1;
	/* the reserved bytes and the padding are not read */
	m[6] = 0xff;
	m[63] = 0xff;
	assert_int_equal(lr_probe_decode(m, sizeof(m), 2, 64, COOKIE, &seq), 0);
	assert_true(seq == 9);
}

static void test_offer_port(void **state)
{
	struct lr_peer_offer o = {.version = 1, .interval_ms = 500, .max_frame = 1000,
				  .probe_port = 40001};
	char err[LR_PROTO_ERR_MAX];
	char *txt;
	size_t len;
	static const char *const bad[] = {
		"{\"v\":1,\"interval_ms\":500,\"probe_port\":0}",
		"{\"v\":1,\"interval_ms\":500,\"probe_port\":65536}",
		"{\"v\":1,\"interval_ms\":500,\"probe_port\":-1}",
		"{\"v\":1,\"interval_ms\":500,\"probe_port\":\"5201\"}",
		"{\"v\":1,\"interval_ms\":500,\"probe_port\":5201.0}",
		"{\"v\":1,\"interval_ms\":500,\"probe_port\":null}",
	};

	(void)state;
	assert_int_equal(lr_peer_offer_encode(&o, &txt, &len), 0);
	assert_non_null(strstr(txt, "\"probe_port\":40001"));
	memset(&o, 0xff, sizeof(o));
	assert_int_equal(lr_peer_offer_decode(txt, len, &o, err), 0);
	assert_int_equal(o.probe_port, 40001);
	free(txt);
	o.probe_port = 0;	/* none: the key is left out, as an older server's offer */
	assert_int_equal(lr_peer_offer_encode(&o, &txt, &len), 0);
	assert_null(strstr(txt, "probe"));
	o.probe_port = 1;
	assert_int_equal(lr_peer_offer_decode(txt, len, &o, err), 0);
	assert_int_equal(o.probe_port, 0);
	free(txt);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(lr_peer_offer_decode(bad[i], strlen(bad[i]), &o, err), -EINVAL);
}

static void test_ask(void **state)
{
	struct lr_proto_params p;
	char err[LR_PROTO_ERR_MAX];
	char *txt, buf[512];
	size_t len;
	static const char *const not_asked[] = {"0", "2", "true", "\"1\"", "1.0", "null", "[1]"};

	(void)state;
	lr_proto_params_init(&p);
	p.peer_stats = true;
	p.peer_interval_ms = 500;
	p.probe = true;
	assert_int_equal(lr_proto_params_encode(&p, &txt, &len), 0);
	assert_non_null(strstr(txt, "\"linerate_peer_stats\":{\"v\":1,\"interval_ms\":500,"
				    "\"probe\":1}"));
	lr_proto_params_init(&p);
	assert_int_equal(lr_proto_params_decode(txt, len, &p, err), 0);
	assert_true(p.peer_stats);
	assert_true(p.probe);
	free(txt);
	for (size_t i = 0; i < sizeof(not_asked) / sizeof(not_asked[0]); i++) {
		int n = snprintf(buf, sizeof(buf),
				 "{\"tcp\":true,\"time\":1,\"parallel\":1,\"len\":1000,"
				 "\"linerate_peer_stats\":{\"v\":1,\"interval_ms\":500,"
				 "\"probe\":%s}}",
				 not_asked[i]);

		lr_proto_params_init(&p);
		assert_int_equal(lr_proto_params_decode(buf, (size_t)n, &p, err), 0);
		assert_true(p.peer_stats);	/* the peer view still asked */
		assert_false(p.probe);
	}
	/* an ask without peer stats sends no probe member */
	lr_proto_params_init(&p);
	p.probe = true;
	assert_int_equal(lr_proto_params_encode(&p, &txt, &len), 0);
	assert_null(strstr(txt, "probe"));
	free(txt);
}

/* ---- two linerates in-process ---- */

struct srv {
	struct lr_server *s;
	pthread_t t;
	uint16_t port;
	bool decline;	/* the app declines the peer view: no offer */
};

static int hook_begin(void *arg, const struct lr_server_peer_test *t)
{
	const struct srv *v = arg;

	(void)t;
	return v->decline ? -EBUSY : 0;
}

static void hook_attach(void *arg, int fd)
{
	(void)arg;
	close(fd);
}

static void *srv_main(void *arg)
{
	struct srv *v = arg;

	if (lr_server_run(v->s) < 0)
		fprintf(stderr, "server run failed\n");
	return NULL;
}

static int srv_setup(void **state)
{
	struct srv *v = calloc(1, sizeof(*v));
	static struct lr_server_peer_hooks hooks = {.begin = hook_begin, .attach = hook_attach};

	hooks.arg = v;
	for (int tries = 0; tries < 50; tries++) {
		struct lr_server_opts o = {.bind = "127.0.0.1", .peer = &hooks};

		o.port = (uint16_t)(20000 + (unsigned)(getpid() * 11 + tries * 137) % 30000);
		if (lr_server_open(&v->s, &o) == 0) {
			v->port = o.port;
			break;
		}
	}
	if (!v->s)
		return -1;
	pthread_create(&v->t, NULL, srv_main, v);
	*state = v;
	return 0;
}

static int srv_teardown(void **state)
{
	struct srv *v = *state;

	lr_server_stop(v->s);
	pthread_join(v->t, NULL);
	lr_server_close(v->s);
	free(v);
	return 0;
}

static struct lr_traffic_config tcfg(const struct srv *v)
{
	return (struct lr_traffic_config){
		.host = "127.0.0.1",
		.port = v->port,
		.parallel = 1,
		.affinity = -1,
		.server_affinity = -1,
		.bitrate_bps = 50000000, /* keep it cheap */
		.peer_interval_ns = 500 * MS,
	};
}

/* The server counts a test done during the results exchange and stops its responder at the
 * session's end: its counts are final once the next test could start. */
static void server_quiet(const struct srv *v, uint64_t *answered, uint64_t *refused)
{
	uint64_t a0, r0, until = lr_clock_mono_ns() + 2 * LR_NSEC_PER_SEC;

	lr_server_probe_counts(v->s, answered, refused);
	do {
		usleep(100 * 1000);
		a0 = *answered;
		r0 = *refused;
		lr_server_probe_counts(v->s, answered, refused);
	} while ((a0 != *answered || r0 != *refused) && lr_clock_mono_ns() < until);
}

/* Sends one datagram from a fresh socket to addr (a forgery: not the server's port). */
static void forge(const struct sockaddr_storage *to, socklen_t len, const uint8_t *b, size_t n)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	assert_true(fd >= 0);
	assert_int_equal(sendto(fd, b, n, 0, (const struct sockaddr *)to, len), (ssize_t)n);
	close(fd);
}

/* Until c's streams run (bounded). */
static void running(struct lr_client *c)
{
	uint64_t until = lr_clock_mono_ns() + 5 * LR_NSEC_PER_SEC;

	while (lr_client_state(c) != LR_CLIENT_RUNNING && lr_clock_mono_ns() < until)
		usleep(2000);
	assert_int_equal(lr_client_state(c), LR_CLIENT_RUNNING);
}

/* A test of 500 ms with one forged datagram sent while it runs: a reply to the client's probe
 * socket, or a request to the server's probe port (to_server). *ps: the client's counts at the
 * end, *mid its state then; *answered, *refused: what the server's own counts rose by. */
static void forged_run(struct srv *v, bool to_server, struct lr_probe_stats *ps,
		       enum lr_probe_state *mid, uint64_t *answered, uint64_t *refused)
{
	struct lr_traffic_config tc = tcfg(v);
	struct lr_client *c;
	struct lr_probe_stats st;
	struct sockaddr_storage to;
	socklen_t tl;
	uint8_t b[LR_PROBE_SIZE_DEF];
	uint64_t a0, r0;

	server_quiet(v, &a0, &r0);
	assert_int_equal(lr_client_open(&c, &tc, 500 * MS), 0);
	assert_int_equal(lr_client_probe_stats(c, &st), 0);
	assert_int_equal(st.state, LR_PROBE_OFF);
	assert_int_equal(lr_client_start(c), 0);
	running(c);
	/* from another socket of the client's address: to the client, the sender is wrong
	 * whatever it says; to the server, only the cookie is */
	assert_int_equal(lr_client_probe_addr(c, to_server, &to, &tl), 0);
	assert_int_equal(lr_probe_encode(b, sizeof(b),
					 to_server ? LR_PROBE_T_REQUEST : LR_PROBE_T_REPLY, COOKIE,
					 0, 0),
			 0);
	forge(&to, tl, b, sizeof(b));
	assert_int_equal(lr_client_probe_stats(c, &st), 0);
	*mid = st.state;
	assert_true(lr_client_wait(c, 10 * LR_NSEC_PER_SEC));
	assert_int_equal(lr_client_state(c), LR_CLIENT_DONE);
	assert_int_equal(lr_client_probe_stats(c, ps), 0);
	lr_client_close(c);
	server_quiet(v, answered, refused);
	*answered -= a0;
	*refused -= r0;
}

static void test_probes_answered(void **state)
{
	struct lr_probe_stats ps;
	enum lr_probe_state mid;
	uint64_t answered, refused;

	forged_run(*state, false, &ps, &mid, &answered, &refused);
	assert_int_equal(mid, LR_PROBE_LOAD);
	assert_int_equal(ps.state, LR_PROBE_DONE);
	assert_true(ps.idle.count > 0);
	assert_true(ps.load.count > 0);
	assert_int_equal(ps.lost, 0);
	assert_int_equal(ps.load_lost, 0);
	assert_int_equal(ps.refused, 1);
	/* the witness: every answer the client took, the server's responder says it sent */
	assert_int_equal(ps.answered, answered);
	assert_int_equal(ps.sent, ps.answered);
	assert_int_equal(ps.answered, ps.idle.count + ps.load.count);
	assert_int_equal(ps.load_answered, ps.load.count);
	assert_int_equal(refused, 0);
	assert_int_equal(ps.size_bytes, LR_PROBE_SIZE_DEF);
}

static void test_wrong_cookie_refused(void **state)
{
	struct lr_probe_stats ps;
	enum lr_probe_state mid;
	uint64_t answered, refused;

	forged_run(*state, true, &ps, &mid, &answered, &refused);
	assert_int_equal(refused, 1);
	assert_int_equal(ps.answered, answered);
	assert_int_equal(ps.refused, 0);	/* no answer went to the forger's socket */
}

static void test_no_latency_off(void **state)
{
	struct srv *v = *state;
	struct lr_traffic_config tc = tcfg(v);
	struct lr_probe_stats ps;
	struct lr_client *c;
	struct lr_client_peer peer;
	uint64_t a0, r0, a1, r1;

	server_quiet(v, &a0, &r0);
	tc.no_latency = true;
	assert_int_equal(lr_client_open(&c, &tc, 200 * MS), 0);
	assert_int_equal(lr_client_start(c), 0);
	assert_true(lr_client_wait(c, 10 * LR_NSEC_PER_SEC));
	assert_int_equal(lr_client_state(c), LR_CLIENT_DONE);
	assert_true(lr_client_peer_offer(c, &peer));	/* the peer view was still offered */
	assert_int_equal(lr_client_probe_stats(c, &ps), 0);
	lr_client_close(c);
	server_quiet(v, &a1, &r1);
	assert_int_equal(ps.state, LR_PROBE_OFF);
	assert_int_equal(ps.sent, 0);
	assert_int_equal(a1, a0);
}

static void test_declined_unoffered(void **state)
{
	struct srv *v = *state;
	struct lr_traffic_config tc = tcfg(v);
	struct lr_probe_stats ps;
	struct lr_client *c;
	struct lr_client_peer peer;

	v->decline = true;
	assert_int_equal(lr_client_open(&c, &tc, 200 * MS), 0);
	assert_int_equal(lr_client_start(c), 0);
	assert_true(lr_client_wait(c, 10 * LR_NSEC_PER_SEC));
	v->decline = false;
	assert_int_equal(lr_client_state(c), LR_CLIENT_DONE);
	assert_false(lr_client_peer_offer(c, &peer));
	assert_int_equal(lr_client_probe_stats(c, &ps), 0);
	lr_client_close(c);
	assert_int_equal(ps.state, LR_PROBE_UNOFFERED);
	assert_int_equal(ps.sent, 0);
	assert_int_equal(lr_client_probe_stats(NULL, &ps), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest codec[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_offer_port),
		cmocka_unit_test(test_ask),
	};
	const struct CMUnitTest live[] = {
		cmocka_unit_test(test_probes_answered),
		cmocka_unit_test(test_wrong_cookie_refused),
		cmocka_unit_test(test_no_latency_off),
		cmocka_unit_test(test_declined_unoffered),
	};
	int rc = cmocka_run_group_tests(codec, NULL, NULL);

	return rc | cmocka_run_group_tests(live, srv_setup, srv_teardown);
}
