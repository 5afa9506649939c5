// SPDX-License-Identifier: GPL-2.0-or-later
/* Latency probes (docs/wire.md, part 3). The codec: a round trip, every refusal by its own
 * errno, the offer's probe_port and the ask's "probe" as hostile input. Then two linerates on
 * 127.0.0.1 in-process (real sockets, real threads): the client's answered count equals the
 * server responder's own count, with an idle baseline and load round trips and nothing lost;
 * a forged reply from another socket is refused by the client; the server refuses a request
 * with the right cookie from another address and one with a wrong cookie (its own refused
 * count, nothing comes back), and answers a flood at its bounded rate with datagrams never
 * longer than the request (the forger's own count against the wall clock); --no-latency asks
 * nothing (OFF, the offer has no port) and a server whose app declines the peer view offers
 * none (UNOFFERED). */
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
#include "fakes/loopsrv.h"

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
	struct loopsrv l;
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

static int srv_setup(void **state)
{
	struct srv *v = calloc(1, sizeof(*v));
	static struct lr_server_peer_hooks hooks = {.begin = hook_begin, .attach = hook_attach};

	hooks.arg = v;
	if (!v || loopsrv_start(&v->l, (struct lr_server_opts){.peer = &hooks}, 11) < 0) {
		free(v);
		return -1;
	}
	*state = v;
	return 0;
}

static int srv_teardown(void **state)
{
	struct srv *v = *state;

	loopsrv_stop(&v->l);
	free(v);
	return 0;
}

static struct lr_traffic_config tcfg(const struct srv *v)
{
	return (struct lr_traffic_config){
		.host = "127.0.0.1",
		.port = v->l.port,
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

	lr_server_probe_counts(v->l.s, answered, refused);
	do {
		usleep(100 * 1000);
		a0 = *answered;
		r0 = *refused;
		lr_server_probe_counts(v->l.s, answered, refused);
	} while ((a0 != *answered || r0 != *refused) && lr_clock_mono_ns() < until);
}

static uint64_t last_echo_ns;	/* when forge received its last answer */

/* Every answer waiting on fd (flags: MSG_DONTWAIT, or 0 to wait out its timeout), each
 * checked to be n bytes long: never more than was asked. */
static unsigned echoes(int fd, size_t n, int flags)
{
	uint8_t rb[LR_PROBE_SIZE_MAX + 1];
	unsigned got = 0;
	ssize_t r;

	while ((r = recv(fd, rb, sizeof(rb), MSG_TRUNC | flags)) >= 0) {
		assert_int_equal(r, (ssize_t)n);
		last_echo_ns = lr_clock_mono_ns();
		got++;
	}
	return got;
}

/* Sends count datagrams of b from a fresh socket bound to src (port 0) to addr, in bursts of
 * 100 a millisecond apart (so that no socket buffer on the way overflows), then reads what
 * comes back for 100 ms more: the number of answers. */
static unsigned forge(const char *src, const struct sockaddr_storage *to, socklen_t len,
		      const uint8_t *b, size_t n, unsigned count)
{
	struct sockaddr_in me = {.sin_family = AF_INET};
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	struct timeval tv = {.tv_usec = 100 * 1000};
	unsigned got = 0;

	assert_true(fd >= 0);
	assert_int_equal(inet_pton(AF_INET, src, &me.sin_addr), 1);
	assert_int_equal(bind(fd, (struct sockaddr *)&me, sizeof(me)), 0);
	for (unsigned i = 0; i < count; i++) {
		assert_int_equal(sendto(fd, b, n, 0, (const struct sockaddr *)to, len),
				 (ssize_t)n);
		if (i % 100 == 99) {
			usleep(1000);
			got += echoes(fd, n, MSG_DONTWAIT);
		}
	}
	assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
	got += echoes(fd, n, 0);
	close(fd);
	return got;
}

/* Until c's streams run (bounded). */
static void running(struct lr_client *c)
{
	uint64_t until = lr_clock_mono_ns() + 5 * LR_NSEC_PER_SEC;

	while (lr_client_state(c) != LR_CLIENT_RUNNING && lr_clock_mono_ns() < until)
		usleep(2000);
	assert_int_equal(lr_client_state(c), LR_CLIENT_RUNNING);
}

/* 20 bursts of 100 requests a millisecond apart: about 50 times the responder's rate */
#define FLOOD 2000

enum forgery {
	REPLY_OTHER_SOCKET,	/* a reply with the test's cookie from a socket not the server's */
	REQ_STRANGER_AND_COOKIE,	/* requests: the right cookie from 127.0.0.2, a wrong one
					 * from the client's 127.0.0.1 */
	REQ_FLOOD,		/* FLOOD requests with the test's cookie, 100 a millisecond */
};

struct forged {
	struct lr_probe_stats ps;	/* the client's counts at the end */
	enum lr_probe_state mid;	/* ... its state while the test ran */
	uint64_t answered, refused;	/* what the server's own counts rose by */
	unsigned echoes;		/* answers the forger received */
	uint64_t flood_ns;		/* the flood's wall-clock time, to its last answer */
};

/* A test of 500 ms during which one forgery is sent. */
static void forged_run(struct srv *v, enum forgery what, struct forged *f)
{
	struct lr_traffic_config tc = tcfg(v);
	struct lr_client *c;
	struct lr_client_peer peer;
	struct sockaddr_storage to;
	socklen_t tl;
	uint8_t b[LR_PROBE_HDR_BYTES];
	uint64_t a0, r0, t0;

	memset(f, 0, sizeof(*f));
	server_quiet(v, &a0, &r0);
	assert_int_equal(lr_client_open(&c, &tc, 500 * MS), 0);
	assert_int_equal(lr_client_probe_stats(c, &f->ps), 0);
	assert_int_equal(f->ps.state, LR_PROBE_OFF);
	assert_int_equal(lr_client_start(c), 0);
	running(c);
	assert_true(lr_client_peer_offer(c, &peer));
	assert_true(peer.probe_port != 0);
	assert_int_equal(lr_client_probe_addr(c, what != REPLY_OTHER_SOCKET, &to, &tl), 0);
	switch (what) {
	case REPLY_OTHER_SOCKET:
		assert_int_equal(lr_probe_encode(b, sizeof(b), LR_PROBE_T_REPLY, peer.cookie, 0, 0),
				 0);
		f->echoes = forge("127.0.0.1", &to, tl, b, sizeof(b), 1);
		break;
	case REQ_STRANGER_AND_COOKIE:
		assert_int_equal(
			lr_probe_encode(b, sizeof(b), LR_PROBE_T_REQUEST, peer.cookie, 0, 0), 0);
		f->echoes = forge("127.0.0.2", &to, tl, b, sizeof(b), 1);
		assert_int_equal(lr_probe_encode(b, sizeof(b), LR_PROBE_T_REQUEST, COOKIE, 0, 0),
				 0);
		f->echoes += forge("127.0.0.1", &to, tl, b, sizeof(b), 1);
		break;
	case REQ_FLOOD:
		assert_int_equal(
			lr_probe_encode(b, sizeof(b), LR_PROBE_T_REQUEST, peer.cookie, 0, 0), 0);
		t0 = lr_clock_mono_ns();
		f->echoes = forge("127.0.0.1", &to, tl, b, sizeof(b), FLOOD);
		f->flood_ns = last_echo_ns - t0;
		break;
	}
	assert_int_equal(lr_client_probe_stats(c, &f->ps), 0);
	f->mid = f->ps.state;
	assert_true(lr_client_wait(c, 10 * LR_NSEC_PER_SEC));
	assert_int_equal(lr_client_state(c), LR_CLIENT_DONE);
	assert_int_equal(lr_client_probe_stats(c, &f->ps), 0);
	lr_client_close(c);
	server_quiet(v, &f->answered, &f->refused);
	f->answered -= a0;
	f->refused -= r0;
}

static void test_probes_answered(void **state)
{
	struct forged f;

	forged_run(*state, REPLY_OTHER_SOCKET, &f);
	assert_int_equal(f.mid, LR_PROBE_LOAD);
	assert_int_equal(f.ps.state, LR_PROBE_DONE);
	assert_true(f.ps.idle.count > 0);
	assert_true(f.ps.load.count > 0);
	assert_int_equal(f.ps.lost, 0);
	assert_int_equal(f.ps.load_lost, 0);
	assert_int_equal(f.ps.refused, 1);	/* the forged reply */
	/* the witness: every answer the client took, the server's responder says it sent */
	assert_int_equal(f.ps.answered, f.answered);
	assert_int_equal(f.ps.sent, f.ps.answered);
	assert_int_equal(f.ps.answered, f.ps.idle.count + f.ps.load.count);
	assert_int_equal(f.ps.load_answered, f.ps.load.count);
	assert_int_equal(f.refused, 0);
	assert_int_equal(f.ps.size_bytes, LR_PROBE_SIZE_DEF);
}

static void test_server_refuses(void **state)
{
	struct forged f;

	forged_run(*state, REQ_STRANGER_AND_COOKIE, &f);
	assert_int_equal(f.echoes, 0);
	assert_int_equal(f.refused, 2);
	assert_int_equal(f.ps.answered, f.answered);
	assert_int_equal(f.ps.refused, 0);
}

/* The responder answers at most LR_PROBE_REPLY_RATE a second after a burst of a tenth of
 * that, whatever it is sent: the forger's own count of answers against the wall clock. */
static void test_server_rate_bound(void **state)
{
	struct forged f;
	double bound;

	forged_run(*state, REQ_FLOOD, &f);
	bound = LR_PROBE_REPLY_RATE / 10 + LR_PROBE_REPLY_RATE * (double)f.flood_ns / 1e9 + 1;
	assert_true(f.echoes > 0);
	assert_true(f.echoes <= bound);
	/* the server's own counts: it says it refused, and sent at least what both got (the
	 * loopback may drop some of a flood in a full socket buffer) */
	assert_true(f.refused > 0);
	assert_true(f.answered >= f.echoes + f.ps.answered);
	assert_int_equal(f.ps.idle.count + f.ps.load.count, f.ps.answered);
	fprintf(stderr, "# flood: %u of %u answered in %.1f ms (bound %.0f); server answered "
		"%llu, refused %llu; the client's probes lost %llu\n", f.echoes, FLOOD,
		(double)f.flood_ns / 1e6, bound, (unsigned long long)f.answered,
		(unsigned long long)f.refused, (unsigned long long)f.ps.lost);
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
	assert_int_equal(peer.probe_port, 0);		/* ... without a probe port */
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
		cmocka_unit_test(test_server_refuses),
		cmocka_unit_test(test_server_rate_bound),
		cmocka_unit_test(test_no_latency_off),
		cmocka_unit_test(test_declined_unoffered),
	};
	int rc = cmocka_run_group_tests(codec, NULL, NULL);

	return rc | cmocka_run_group_tests(live, srv_setup, srv_teardown);
}
