// SPDX-License-Identifier: GPL-2.0-or-later
/* diagnose/latency and present/latency_out: an interval from two cumulative readings is the
 * histogram of that interval's round trips alone (held against a histogram built from those
 * values only, never from the code's own subtraction); the rule's both bounds at their edges;
 * the queue the books show named; lost probes said as lost, never as a latency; and what is
 * unknown is null in -J, never 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "linerate/diagnose/latency.h"
#include "linerate/present/latency_out.h"

#define US 1000ull
#define MS 1000000ull

static struct lr_probe_stats *stats_new(enum lr_probe_state st)
{
	struct lr_probe_stats *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	p->state = st;
	return p;
}

static void add_load(struct lr_probe_stats *p, uint64_t ns)
{
	lr_lathist_add(&p->load, ns);
	p->sent++;
	p->answered++;
	p->load_sent++;
	p->load_answered++;
}

static void add_idle(struct lr_probe_stats *p, uint64_t ns)
{
	lr_lathist_add(&p->idle, ns);
	p->sent++;
	p->answered++;
}

static void test_interval_is_its_own_values(void **state)
{
	struct lr_probe_stats *a = stats_new(LR_PROBE_LOAD);
	struct lr_lathist only;
	struct lr_latency_iv iv;

	(void)state;
	lr_lathist_reset(&only);
	for (unsigned i = 0; i < 100; i++)
		add_load(a, 50 * US + i * US); /* the first interval: 50..149 us */
	struct lr_probe_stats *b = malloc(sizeof(*b));

	assert_non_null(b);
	*b = *a;
	for (unsigned i = 0; i < 200; i++) { /* the second: 1..200 ms, one lost */
		add_load(b, (i + 1) * MS);
		lr_lathist_add(&only, (i + 1) * MS);
	}
	b->sent++;
	b->load_sent++;
	b->lost++;
	b->load_lost++;
	assert_int_equal(lr_latency_interval(b, a, 1.0, 2.0, &iv), 0);
	assert_int_equal(iv.sent, 201);
	assert_int_equal(iv.answered, 200);
	assert_int_equal(iv.lost, 1);
	assert_int_equal(iv.q.count, 200);
	assert_int_equal(iv.q.p50_ns, lr_lathist_quantile(&only, 0.5));
	assert_int_equal(iv.q.p90_ns, lr_lathist_quantile(&only, 0.9));
	assert_int_equal(iv.q.p99_ns, lr_lathist_quantile(&only, 0.99));
	/* the order statistics of 1..200 ms within a bucket (1/32) */
	assert_true(iv.q.p50_ns >= 100 * (int64_t)MS && iv.q.p50_ns <= 104 * (int64_t)MS);
	assert_true(iv.q.p99_ns >= 198 * (int64_t)MS && iv.q.p99_ns <= 205 * (int64_t)MS);
	/* a difference knows its max only to its top bucket's bound */
	assert_true(iv.q.max_ns >= 200 * (int64_t)MS && iv.q.max_ns <= 207 * (int64_t)MS);
	/* the first interval, from the test's start */
	assert_int_equal(lr_latency_interval(a, NULL, 0.0, 1.0, &iv), 0);
	assert_int_equal(iv.answered, 100);
	assert_true(iv.q.p99_ns >= 148 * (int64_t)US && iv.q.p99_ns <= 153 * (int64_t)US);
	/* swapped: not an earlier reading */
	assert_int_equal(lr_latency_interval(a, b, 1.0, 2.0, &iv), -EINVAL);
	assert_int_equal(iv.q.p99_ns, -1);
	free(a);
	free(b);
}

static void test_empty_interval_unknown(void **state)
{
	struct lr_probe_stats *a = stats_new(LR_PROBE_LOAD);
	struct lr_latency_iv iv;

	(void)state;
	a->sent = a->load_sent = a->lost = a->load_lost = 3; /* every probe lost */
	assert_int_equal(lr_latency_interval(a, NULL, 0, 1, &iv), 0);
	assert_int_equal(iv.lost, 3);
	assert_int_equal(iv.answered, 0);
	assert_int_equal(iv.q.p50_ns, -1);
	assert_int_equal(iv.q.p99_ns, -1);
	assert_int_equal(iv.q.max_ns, -1);
	free(a);
}

/* A latency with n idle round trips at idle_ns and n loaded ones at load_ns. */
static struct lr_latency *lat_of(uint64_t idle_ns, uint64_t load_ns, unsigned n, uint64_t lost)
{
	struct lr_probe_stats *p = stats_new(LR_PROBE_DONE);
	struct lr_latency *l = malloc(sizeof(*l));

	assert_non_null(l);
	lr_latency_init(l, false);
	for (unsigned i = 0; i < n; i++) {
		add_idle(p, idle_ns);
		add_load(p, load_ns);
	}
	p->sent += lost;
	p->lost += lost;
	p->load_sent += lost;
	p->load_lost += lost;
	lr_latency_update(l, p);
	free(p);
	return l;
}

static enum lr_latency_judgement judge(uint64_t idle_ns, uint64_t load_ns, char *line, size_t len)
{
	struct lr_latency *l = lat_of(idle_ns, load_ns, 20, 0);
	enum lr_latency_judgement j = lr_latency_judge(l, NULL, line, len);

	lr_latency_free(l);
	free(l);
	return j;
}

static void test_rule_edges(void **state)
{
	char line[400];

	(void)state;
	/* quantiles are bucket tops: values on a bucket's low edge would read 3 % higher, so
	 * each case leaves the bound a bucket's width away */
	assert_int_equal(judge(2 * MS, 7800 * US, line, sizeof(line)), LR_LATJ_HELD);
	assert_int_equal(judge(2 * MS, 8400 * US, line, sizeof(line)), LR_LATJ_ROSE);
	/* a fast link: the 1 ms floor rules, not 4 x */
	assert_int_equal(judge(20 * US, 950 * US, line, sizeof(line)), LR_LATJ_HELD);
	assert_int_equal(judge(20 * US, 1100 * US, line, sizeof(line)), LR_LATJ_ROSE);
	assert_int_equal(judge(40 * US, 90 * US, line, sizeof(line)), LR_LATJ_HELD);
	assert_string_equal(line, "latency held: p99 under load 0.09 ms, idle 0.04 ms");
}

static void test_rose_names_the_qdisc(void **state)
{
	struct lr_latency *l = lat_of(40 * US, 11 * MS, 20, 0);
	struct lr_latency_where w = {.sender_local = true,
				     .iface = "veth0",
				     .qdisc = "tbf 8001:",
				     .backlog_known = true,
				     .backlog_max_bytes = 1900000,
				     .udp_rcvbuf = -1,
				     .softnet_drop = -1};
	char line[400];

	(void)state;
	assert_int_equal(lr_latency_judge(l, &w, line, sizeof(line)), LR_LATJ_ROSE);
	assert_string_equal(line, "latency under load rose from 0.04 ms to 11 ms at p99: the "
				  "sender's qdisc backlog (tbf 8001: on veth0) held 1.9 MB");
	/* a backlog of a few packets is not the queue; the receiver's socket queue is */
	w.backlog_max_bytes = 3000;
	w.receiver_local = true;
	w.udp_rcvbuf = 12;
	assert_int_equal(lr_latency_judge(l, &w, line, sizeof(line)), LR_LATJ_ROSE);
	assert_non_null(strstr(line, "receiver's socket queue filled (12 RcvbufErrors)"));
	w.udp_rcvbuf = 0;
	w.softnet_drop = 5;
	lr_latency_judge(l, &w, line, sizeof(line));
	assert_non_null(strstr(line, "softnet backlog"));
	lr_latency_free(l);
	free(l);
}

static void test_lost_said_as_lost(void **state)
{
	struct lr_latency *l = lat_of(40 * US, 90 * US, 20, 7);
	char line[400];

	(void)state;
	assert_int_equal(lr_latency_judge(l, NULL, line, sizeof(line)), LR_LATJ_HELD);
	assert_string_equal(
		line, "latency held: p99 under load 0.09 ms, idle 0.04 ms; 7 of 47 probes lost");
	lr_latency_free(l);
	free(l);
	/* too few answered: not judged, and the lost still said */
	l = lat_of(40 * US, 90 * US, 2, 30);
	assert_int_equal(lr_latency_judge(l, NULL, line, sizeof(line)), LR_LATJ_UNKNOWN);
	assert_non_null(strstr(line, "not judged"));
	assert_non_null(strstr(line, "30 of 34 probes lost"));
	lr_latency_free(l);
	free(l);
}

static void test_none_unknown_in_json(void **state)
{
	struct lr_latency *l = malloc(sizeof(*l));
	struct lr_probe_stats *p = stats_new(LR_PROBE_UNOFFERED);
	char line[400];
	json_t *j;

	(void)state;
	assert_non_null(l);
	lr_latency_init(l, false);
	assert_string_equal(lr_latency_state_word(l), "unknown");
	assert_int_equal(lr_latency_judge(l, NULL, line, sizeof(line)), LR_LATJ_UNKNOWN);
	assert_string_equal(line, "");
	lr_latency_update(l, p);
	assert_string_equal(lr_latency_state_word(l), "unoffered");
	assert_int_equal(lr_latency_judge(l, NULL, line, sizeof(line)), LR_LATJ_UNKNOWN);
	assert_non_null(strstr(line, "plain iperf3"));
	j = lr_latency_json(l);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "state")), "unoffered");
	assert_true(json_is_null(json_object_get(json_object_get(j, "idle"), "p99_us")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "idle"), "count")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "load"), "lost")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "probes"), "sent")));
	assert_int_equal(json_array_size(json_object_get(j, "intervals")), 0);
	json_decref(j);
	lr_latency_free(l);
	free(l);
	free(p);
}

static void test_json_figures(void **state)
{
	struct lr_latency *l = lat_of(40 * US, 11 * MS, 20, 2);
	struct lr_latency_iv iv = {
		.start_s = 0, .end_s = 1, .sent = 22, .answered = 20, .lost = 2, .q = l->load};
	json_t *j, *e;

	(void)state;
	lr_latency_add_iv(l, &iv);
	j = lr_latency_json(l);
	assert_non_null(j);
	e = json_array_get(json_object_get(j, "intervals"), 0);
	assert_int_equal(json_integer_value(json_object_get(e, "lost")), 2);
	assert_int_equal(json_integer_value(json_object_get(e, "answered")), 20);
	/* 11 ms within its bucket */
	assert_true(json_real_value(json_object_get(e, "p99_us")) >= 11000 &&
		    json_real_value(json_object_get(e, "p99_us")) <= 11400);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "load"), "lost")),
			 2);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "idle"), "count")),
			 20);
	json_decref(j);
	lr_latency_free(l);
	free(l);
}

/* Without -J the newest LR_LATENCY_RING intervals are kept, and the newest is always there: a
 * fixed array that stopped at its end froze the dashboard's sparkline and the CSV's latency rows
 * after 3600 intervals (6 minutes at -i 0.1). -J keeps every one, and a new test starts over. */
static void test_intervals_kept(void **state)
{
	const unsigned n = LR_LATENCY_RING * 3 + 7;
	struct lr_latency *ring = lat_of(40 * US, 90 * US, 20, 0);
	struct lr_probe_stats *p = stats_new(LR_PROBE_DONE);
	struct lr_latency all;
	json_t *j;

	(void)state;
	lr_latency_init(&all, true);
	lr_latency_update(&all, p);
	free(p);
	for (unsigned k = 0; k < n; k++) {
		struct lr_latency_iv iv = {.start_s = k, .end_s = k + 1, .sent = k};

		lr_latency_add_iv(ring, &iv);
		lr_latency_add_iv(&all, &iv);
	}
	assert_int_equal(ring->n_iv, n);
	assert_int_equal(lr_latency_first_iv(ring), n - LR_LATENCY_RING);
	assert_null(lr_latency_iv_at(ring, n - LR_LATENCY_RING - 1));
	assert_null(lr_latency_iv_at(ring, n));
	for (unsigned k = n - LR_LATENCY_RING; k < n; k++)
		assert_int_equal(lr_latency_iv_at(ring, k)->sent, k);
	assert_int_equal(lr_latency_first_iv(&all), 0);
	for (unsigned k = 0; k < n; k++)
		assert_int_equal(lr_latency_iv_at(&all, k)->sent, k);
	j = lr_latency_json(&all);
	assert_int_equal(json_array_size(json_object_get(j, "intervals")), n);
	json_decref(j);
	lr_latency_reset(&all);
	assert_int_equal(all.n_iv, 0);
	assert_null(lr_latency_iv_at(&all, 0));
	assert_true(all.keep_all);
	lr_latency_free(&all);
	lr_latency_free(ring);
	free(ring);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_is_its_own_values),
		cmocka_unit_test(test_empty_interval_unknown),
		cmocka_unit_test(test_rule_edges),
		cmocka_unit_test(test_rose_names_the_qdisc),
		cmocka_unit_test(test_lost_said_as_lost),
		cmocka_unit_test(test_none_unknown_in_json),
		cmocka_unit_test(test_json_figures),
		cmocka_unit_test(test_intervals_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
