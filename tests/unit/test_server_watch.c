// SPDX-License-Identifier: GPL-2.0-or-later
/* The server's test hooks and the app's watch, threads and all (run under TSan by
 * scripts/stage-tsan.sh): a linerate client's TCP test against lr_server on 127.0.0.1 with the
 * watch's hooks, a live sampler reading the incoming streams through the watch, the main
 * thread reading its view. The witness is the client's own count: the streams' per-tick bytes
 * in the snapshots add up to what the client sent (TCP, every byte delivered), and so do the
 * watch's results; a second test starts the streams over. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linerate/sample/sampler.h"
#include "linerate/run/server_watch.h"
#include "linerate/run/snapsrc.h"
#include "linerate/core/clock.h"
#include "linerate/sample/snapshot.h"
#include "linerate/traffic/traffic.h"

#define MS LR_NSEC_PER_MSEC

struct fx {
	struct lr_server *s;
	struct lr_server_watch *w;
	struct lr_snapsrc *src;
	struct lr_sampler_opts opts;
	pthread_t t;
	uint16_t port;
};

static void *srv_main(void *arg)
{
	struct fx *f = arg;

	if (lr_server_run(f->s) < 0)
		fprintf(stderr, "server run failed\n");
	return NULL;
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f || lr_server_watch_open(&f->w))
		return -1;
	f->opts.interval_ns = 20 * MS;
	f->opts.ifaces = "lo";
	if (lr_snapsrc_open(&f->src, &f->opts) || lr_snapsrc_start(f->src))
		return -1;
	lr_server_watch_set_snapsrc(f->w, f->src);
	for (int tries = 0; tries < 50 && !f->s; tries++) {
		struct lr_server_opts o = {.bind = "127.0.0.1",
					   .watch = lr_server_watch_hooks(f->w)};

		o.port = (uint16_t)(30000 + (unsigned)(getpid() * 11 + tries * 137) % 30000);
		if (lr_server_open(&f->s, &o) == 0)
			f->port = o.port;
	}
	if (!f->s)
		return -1;
	pthread_create(&f->t, NULL, srv_main, f);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	lr_server_stop(f->s);
	pthread_join(f->t, NULL);
	lr_server_close(f->s);
	lr_server_watch_set_snapsrc(f->w, NULL);
	lr_snapsrc_set_traffic(f->src, NULL);
	lr_snapsrc_close(f->src);
	lr_server_watch_close(f->w);
	free(f);
	return 0;
}

/* Runs one TCP test (client sends) while summing the received streams' per-tick bytes. */
static void one_test(struct fx *f, struct lr_server_test_view *v, unsigned want_seq)
{
	struct lr_traffic_config tc = {
		.host = "127.0.0.1",
		.port = f->port,
		.parallel = 2,
		.affinity = -1,
		.server_affinity = -1,
		.bitrate_bps = 100000000,
		.bitrate_set = true,
	};
	struct lr_traffic_results *r = calloc(1, sizeof(*r));
	struct lr_snapshot snap;
	struct lr_client *c;
	uint64_t seen = 0, sum = 0, until;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	bool cpu_seen = false;

	lr_snapshot_init(&snap);
	assert_non_null(r);
	assert_int_equal(lr_client_open(&c, &tc, 400 * MS), 0);
	assert_int_equal(lr_client_start(c), 0);
	until = lr_clock_mono_ns() + 10 * LR_NSEC_PER_SEC;
	/* until the watch has the test's end and two more ticks have read the final counts */
	for (int after = 0; after < 3 && lr_clock_mono_ns() < until;) {
		bool tick;

		lr_snapsrc_wait(f->src, seen, 50 * MS);
		tick = lr_snapsrc_read(f->src, &snap, &seen) > 0;
		if (tick)
			for (size_t i = 0; i < snap.n_streams; i++)
				if (!snap.streams[i].sender && snap.streams[i].valid) {
					sum += snap.streams[i].bytes;
					/* the CPU its thread ran on, through the server's mirror */
					cpu_seen |= snap.streams[i].cpu >= 0 && snap.streams[i].cpu < ncpu;
				}
		lr_server_watch_read(f->w, v);
		/* a tick, not a wait that timed out: on a loaded host the sampler runs late */
		after += tick && v->seq == want_seq && v->ended;
	}
	assert_true(cpu_seen);
	assert_true(lr_client_wait(c, 5 * LR_NSEC_PER_SEC));
	assert_int_equal(lr_client_state(c), LR_CLIENT_DONE);
	assert_int_equal(lr_client_results(c, r), 0);
	lr_client_close(c);
	assert_int_equal(v->seq, want_seq);
	assert_true(v->ended);
	assert_false(v->info.udp);
	assert_int_equal(v->info.parallel, 2);
	assert_int_equal(v->info.n_streams, 2);
	assert_string_equal(v->info.remote_host, "127.0.0.1");
	assert_true(r->sum_up.sent_bytes > 1000000);
	/* the witness: the client's own count of what it sent */
	assert_int_equal(v->res.sum_up.received_bytes, r->sum_up.sent_bytes);
	assert_int_equal(v->res.sum_up.sent_bytes, r->sum_up.sent_bytes);
	assert_true(v->res.complete);
	assert_int_equal(v->c[0].bytes + v->c[1].bytes, r->sum_up.sent_bytes);
	assert_int_equal(sum, r->sum_up.sent_bytes);
	lr_snapshot_free(&snap);
	free(r);
}

static void test_watch_follows_tests(void **state)
{
	struct fx *f = *state;
	struct lr_server_test_view *v = lr_server_watch_view_new();

	assert_non_null(v);
	assert_false(lr_server_watch_read(f->w, v));
	assert_int_equal(v->seq, 0);
	one_test(f, v, 1);
	one_test(f, v, 2); /* same stream ids: counted from zero again */
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_watch_follows_tests, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
