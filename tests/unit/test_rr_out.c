// SPDX-License-Identifier: GPL-2.0-or-later
/* --rr's report (diagnose/rr_sum.c's figures, present/rr_out.c's text and -J) on a test whose
 * answer is known before it runs: 1000 transactions with round trips of 1, 2, ... 1000 µs over
 * 2 s, the host's CPUs half busy over a 1 s window, the server's process at 25 % of a CPU. By
 * hand: 500 transactions/s; p50 500, p90 900, p99 990, p99.9 999 µs (to the histogram's
 * resolution, 32 buckets an octave: within 2.2 %), min 1, max 1000, mean 500.5 µs; netperf's
 * service demand 0.5 × 2 s × 1e6 / 1000 = 1000 µs/Tr here and 0.25 × 2 × 1e6 / 1000 = 500
 * there. Each figure must stand under its own name, in the text and in -J. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "linerate/diagnose/rr_sum.h"
#include "linerate/present/rr_out.h"
#include "linerate/traffic/rr.h"

static void known_test(struct lr_rr_result *r, struct lr_rr_sum *s)
{
	memset(r, 0, sizeof(*r));
	r->on = true;
	r->flows = 1;
	r->req_bytes = 1;
	r->resp_bytes = 1;
	r->transactions = 1000;
	lr_lathist_reset(&r->rtt);
	for (uint64_t us = 1; us <= 1000; us++)
		lr_lathist_add(&r->rtt, us * 1000);
	lr_rr_sum_fill(s, r, 2.0, 0.5, 1.0, 25.0);
}

static void near(double got, double want, double rel)
{
	if (got < want * (1 - rel) || got > want * (1 + rel))
		fail_msg("%.3f is not within %.1f %% of %.3f", got, rel * 100, want);
}

static void test_text_names_each_figure(void **state)
{
	struct lr_rr_result r;
	struct lr_rr_sum s;
	char *text = NULL, *line;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	double min, p50, p90, p99, p999, max, mean, secs, rate, lsd, psd;
	unsigned long long count, n, hist = 0;
	unsigned req, resp;

	(void)state;
	known_test(&r, &s);
	assert_non_null(f);
	lr_rr_print(f, "peer", &r, &s);
	fclose(f);
	line = strstr(text, "per sec\n\n");
	assert_non_null(line);
	assert_int_equal(sscanf(line + strlen("per sec\n\n"), "%u %u %lf %llu %lf %lf %lf", &req,
				&resp, &secs, &count, &rate, &lsd, &psd),
			 7);
	assert_int_equal(req, 1);
	assert_int_equal(resp, 1);
	assert_int_equal(count, 1000);
	near(secs, 2.0, 1e-9);
	near(rate, 500.0, 1e-9);
	near(lsd, 1000.0, 1e-9);
	near(psd, 500.0, 1e-9);
	line = strstr(text, "Round trip (us): ");
	assert_non_null(line);
	assert_int_equal(sscanf(line, "Round trip (us): min %lf  p50 %lf  p90 %lf  p99 %lf  "
				      "p99.9 %lf  max %lf  mean %lf",
				&min, &p50, &p90, &p99, &p999, &max, &mean),
			 7);
	near(min, 1.0, 1e-9);
	near(p50, 500.0, 0.022);
	near(p90, 900.0, 0.022);
	near(p99, 990.0, 0.022);
	near(p999, 999.0, 0.022);
	near(max, 1000.0, 1e-9);
	near(mean, 500.5, 1e-9);
	/* the histogram's lines (by powers of two) hold every transaction */
	line = strstr(text, "Histogram");
	assert_non_null(line);
	while ((line = strchr(line, '\n')) && sscanf(line + 1, " %*f .. %*f %llu", &n) == 1) {
		hist += n;
		line++;
	}
	assert_int_equal(hist, 1000);
	free(text);
}

static void test_json_names_each_figure(void **state)
{
	struct lr_rr_result r;
	struct lr_rr_sum s;
	json_t *o, *lat, *b;
	json_int_t hist = 0;
	size_t i;

	(void)state;
	known_test(&r, &s);
	o = lr_rr_json(&r, &s);
	assert_non_null(o);
	lat = json_object_get(o, "latency_us");
	near(json_real_value(json_object_get(lat, "min")), 1.0, 1e-9);
	near(json_real_value(json_object_get(lat, "p50")), 500.0, 0.022);
	near(json_real_value(json_object_get(lat, "p90")), 900.0, 0.022);
	near(json_real_value(json_object_get(lat, "p99")), 990.0, 0.022);
	near(json_real_value(json_object_get(lat, "p999")), 999.0, 0.022);
	near(json_real_value(json_object_get(lat, "max")), 1000.0, 1e-9);
	near(json_real_value(json_object_get(lat, "mean")), 500.5, 1e-9);
	near(json_real_value(json_object_get(o, "transactions_per_s")), 500.0, 1e-9);
	near(json_real_value(json_object_get(o, "local_service_demand_us_per_tran")), 1000.0, 1e-9);
	near(json_real_value(json_object_get(o, "peer_service_demand_us_per_tran")), 500.0, 1e-9);
	assert_int_equal(json_integer_value(json_object_get(o, "transactions")), 1000);
	json_array_foreach(json_object_get(o, "histogram"), i, b)
		hist += json_integer_value(json_object_get(b, "count"));
	assert_int_equal(hist, 1000);
	json_decref(o);
}

/* A server whose CPU is unknown (a plain iperf3 cannot answer --rr, but a linerate that sent no
 * cpu_util_total): the peer's service demand is "unknown" in the text and null in -J. */
static void test_unknown_peer_demand(void **state)
{
	struct lr_rr_result r;
	struct lr_rr_sum s;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_t *o;

	(void)state;
	known_test(&r, &s);
	lr_rr_sum_fill(&s, &r, 2.0, 0.5, 1.0, -1);
	assert_non_null(f);
	lr_rr_print(f, "peer", &r, &s);
	fclose(f);
	assert_non_null(strstr(text, "1000.000 unknown"));
	free(text);
	o = lr_rr_json(&r, &s);
	assert_true(json_is_null(json_object_get(o, "peer_service_demand_us_per_tran")));
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_names_each_figure),
		cmocka_unit_test(test_json_names_each_figure),
		cmocka_unit_test(test_unknown_peer_demand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
