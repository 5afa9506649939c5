// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pacer on a simulated clock: long-run average equals the target (1 Mbit/s .. 40 Gbit/s,
 * several sizes, late wake-ups), a 1 s stall costs no more than max_burst of debt, repaid at
 * twice the rate and never in one burst, a live rate change takes effect without a burst,
 * batch sizes follow the rate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "linerate/core/common.h"
#include "linerate/traffic/pacer.h"

#define T0 1000000000000ULL /* simulated clocks start far from 0 */

/* Runs a paced sender on a simulated clock for dur_ns: each reservation waits until its due
 * time; a wait long enough to sleep (> LR_PACER_SPIN_NS, as lr_pacer_wait does) wakes up a
 * pseudo-random lateness (< late_max_ns) late. Returns bits/s over the run. */
static double run_sim(struct lr_pacer *p, uint64_t *now, uint64_t dur_ns, size_t size,
		      uint64_t late_max_ns, uint64_t *bytes_out)
{
	uint64_t start = *now, end = start + dur_ns, bytes = 0, x = 88172645463325252ULL;

	while (*now < end) {
		size_t n = lr_pacer_batch(p, *now, size, 1024);
		uint64_t at = lr_pacer_reserve(p, *now, n * size);

		bool slept = at > *now + LR_PACER_SPIN_NS;

		if (at > *now)
			*now = at;
		if (*now >= end)
			break;
		bytes += n * size;
		if (late_max_ns && slept) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			*now += x % late_max_ns;
		}
	}
	if (bytes_out)
		*bytes_out = bytes;
	return (double)bytes * 8 * LR_NSEC_PER_SEC / (double)(*now - start);
}

static void check_rate(uint64_t rate, size_t size, uint64_t dur_ns, uint64_t late_ns)
{
	struct lr_pacer p;
	uint64_t now = T0;
	double got;

	lr_pacer_init(&p, rate, now);
	got = run_sim(&p, &now, dur_ns, size, late_ns, NULL);
	/* the run ends mid-batch: allow one batch of slack plus 0.1% */
	double batch_bits = (double)lr_pacer_batch(&p, p.due_ns, size, 1024) * size * 8;
	double tol = (double)rate * 0.001 + batch_bits * LR_NSEC_PER_SEC / (double)dur_ns;

	if (got < (double)rate - tol || got > (double)rate + tol)
		fail_msg("rate %llu size %zu: got %.0f bit/s (tol %.0f)", (unsigned long long)rate,
			 size, got, tol);
}

static void test_average_exact(void **state)
{
	static const size_t sizes[] = {64, 1400, 8900, 65507, 131072};
	size_t i;

	(void)state;
	for (i = 0; i < LR_ARRAY_SIZE(sizes); i++) {
		check_rate(1000000ULL, sizes[i], 200 * LR_NSEC_PER_SEC, 0);
		check_rate(10000000ULL, sizes[i], 20 * LR_NSEC_PER_SEC, 0);
		check_rate(1000000000ULL, sizes[i], 2 * LR_NSEC_PER_SEC, 0);
		check_rate(40000000000ULL, sizes[i], LR_NSEC_PER_SEC, 0);
	}
}

/* Sleeping overshoots: the debt (below max_burst) absorbs it, the average stays exact. */
static void test_average_with_late_wakeups(void **state)
{
	static const size_t sizes[] = {64, 1400, 9000};
	size_t i;

	(void)state;
	for (i = 0; i < LR_ARRAY_SIZE(sizes); i++) {
		check_rate(1000000ULL, sizes[i], 200 * LR_NSEC_PER_SEC, 100000);
		check_rate(10000000ULL, sizes[i], 20 * LR_NSEC_PER_SEC, 100000);
		check_rate(1000000000ULL, sizes[i], 2 * LR_NSEC_PER_SEC, 100000);
		check_rate(40000000000ULL, sizes[i], LR_NSEC_PER_SEC, 100000);
	}
}

/* 64-byte datagrams at 40 Gbit/s take 12.8 ns each: truncating would be 6% off. */
static void test_fractional_ns_carried(void **state)
{
	struct lr_pacer p;
	uint64_t at = 0;
	int i;

	(void)state;
	lr_pacer_init(&p, 40000000000ULL, T0);
	for (i = 0; i < 1000000; i++)
		at = lr_pacer_reserve(&p, T0, 64);
	/* the 1,000,000th datagram leaves after 999,999 x 12.8 ns */
	assert_in_range(at - T0, 12799987, 12799988);
}

static uint64_t burst_after(struct lr_pacer *p, uint64_t now, size_t size)
{
	uint64_t bytes = 0;

	for (;;) {
		uint64_t at = lr_pacer_reserve(p, now, size);

		if (at > now)
			return bytes;
		bytes += size;
	}
}

static void test_stall_no_burst(void **state)
{
	static const uint64_t rates[] = {1000000ULL, 1000000000ULL, 40000000000ULL};
	size_t i;

	(void)state;
	for (i = 0; i < LR_ARRAY_SIZE(rates); i++) {
		struct lr_pacer p;
		uint64_t now = T0, burst, cap;

		lr_pacer_init(&p, rates[i], now);
		run_sim(&p, &now, LR_NSEC_PER_SEC / 10, 1400, 0, NULL);
		now += LR_NSEC_PER_SEC; /* descheduled for a second */
		burst = burst_after(&p, now, 1400);
		cap = p.max_burst_ns * rates[i] / 8 / LR_NSEC_PER_SEC + 1400;
		if (burst > cap)
			fail_msg("rate %llu: burst %llu > %llu", (unsigned long long)rates[i],
				 (unsigned long long)burst, (unsigned long long)cap);
		assert_true(burst > 0);
		/* and after the stall the rate is the target again */
		check_rate(rates[i], 1400, LR_NSEC_PER_SEC, 0);
	}
}

/* Sends back to back (no wait) from now for dur_ns as the pacer allows, item by item; returns
 * the bytes sent and the shortest gap between two departures. */
static uint64_t catch_up(struct lr_pacer *p, uint64_t now, uint64_t dur_ns, size_t size,
			 uint64_t *min_gap)
{
	uint64_t end = now + dur_ns, bytes = 0, prev = 0;

	*min_gap = UINT64_MAX;
	for (;;) {
		uint64_t at = lr_pacer_reserve(p, now, size);

		if (at > now)
			now = at;
		if (now >= end)
			return bytes;
		if (prev && now - prev < *min_gap)
			*min_gap = now - prev;
		prev = now;
		bytes += size;
	}
}

static void test_custom_max_burst(void **state)
{
	struct lr_pacer p;
	uint64_t now = T0, bytes, gap;

	(void)state;
	lr_pacer_init(&p, 1000000000ULL, now);
	lr_pacer_set_max_burst(&p, 100000); /* 100 us = 12500 bytes at 1 Gbit/s */
	now += LR_NSEC_PER_SEC;
	/* 10 ms later the sender is 12500 bytes ahead of 10 ms at the rate: the capped debt */
	bytes = catch_up(&p, now, 10 * LR_NSEC_PER_MSEC, 1000, &gap);
	assert_in_range(bytes - 1250000, 12000, 13000);
	lr_pacer_set_max_burst(&p, 0);
	assert_int_equal(p.max_burst_ns, LR_PACER_MAX_BURST_NS);
}

/* After a 50 ms stall the debt (38 datagrams of 32 KiB at 200 Mbit/s) is repaid at twice the
 * rate: departures never closer than half a datagram's time, so a receiver whose buffer holds
 * three of them is never handed a burst (issue 10); the debt is still repaid in full. */
static void test_stall_repaid_at_catchup_pace(void **state)
{
	const uint64_t rate = 200000000ULL, dgram_ns = 32768ULL * 8 * LR_NSEC_PER_SEC / rate;
	struct lr_pacer p;
	uint64_t now = T0, bytes, gap;

	(void)state;
	lr_pacer_init(&p, rate, now);
	run_sim(&p, &now, LR_NSEC_PER_SEC / 10, 32768, 0, NULL);
	now += 50 * LR_NSEC_PER_MSEC; /* descheduled */
	bytes = catch_up(&p, now, 40 * LR_NSEC_PER_MSEC, 32768, &gap);
	if (gap + 1 < dgram_ns / LR_PACER_CATCHUP)
		fail_msg("two datagrams %llu ns apart, catch-up pace is %llu",
			 (unsigned long long)gap, (unsigned long long)(dgram_ns / 2));
	/* 40 ms at twice the rate: still repaying */
	assert_in_range(bytes, (80 * rate / 8000) - 2 * 32768, (80 * rate / 8000) + 32768);
	/* 60 ms more: the 50 ms of debt is repaid, the rate is the target again */
	bytes += catch_up(&p, now + 40 * LR_NSEC_PER_MSEC, 60 * LR_NSEC_PER_MSEC, 32768, &gap);
	assert_in_range(bytes, (150 * rate / 8000) - 2 * 32768, (150 * rate / 8000) + 32768);
}

static void test_rate_change_mid_run(void **state)
{
	struct lr_pacer p;
	uint64_t now = T0, bytes;
	double got;

	(void)state;
	lr_pacer_init(&p, 10000000ULL, now);
	got = run_sim(&p, &now, LR_NSEC_PER_SEC, 1400, 0, NULL);
	assert_in_range((uint64_t)got, 9990000, 10010000);
	lr_pacer_set_rate(&p, 100000000ULL, now);
	/* no burst at the change: what may leave at once stays under max_burst */
	assert_true(burst_after(&p, now, 1400) <=
		    p.max_burst_ns * 100000000ULL / 8 / LR_NSEC_PER_SEC + 1400);
	lr_pacer_init(&p, 10000000ULL, now);
	run_sim(&p, &now, LR_NSEC_PER_SEC, 1400, 0, NULL);
	lr_pacer_set_rate(&p, 100000000ULL, now);
	got = run_sim(&p, &now, LR_NSEC_PER_SEC, 1400, 0, &bytes);
	assert_in_range((uint64_t)got, 99800000, 100200000);
	/* and down again */
	lr_pacer_set_rate(&p, 2000000ULL, now);
	got = run_sim(&p, &now, 10 * LR_NSEC_PER_SEC, 1400, 0, NULL);
	assert_in_range((uint64_t)got, 1996000, 2004000);
}

/* Lowering the rate while a long wait is pending shortens nothing and raising it brings the
 * next departure closer: the part of the schedule ahead is rescaled. */
static void test_rate_change_rescales_pending(void **state)
{
	struct lr_pacer p;
	uint64_t at;

	(void)state;
	lr_pacer_init(&p, 1000000ULL, T0);
	lr_pacer_reserve(&p, T0, 125000); /* 1 s of debt at 1 Mbit/s */
	lr_pacer_set_rate(&p, 10000000ULL, T0);
	at = lr_pacer_reserve(&p, T0, 1);
	assert_int_equal(at - T0, LR_NSEC_PER_SEC / 10);
}

static void test_unlimited(void **state)
{
	struct lr_pacer p;

	(void)state;
	lr_pacer_init(&p, 0, T0);
	assert_int_equal(lr_pacer_reserve(&p, T0 + 5, 1 << 20), T0 + 5);
	assert_int_equal(lr_pacer_reserve(&p, T0 + 6, 1 << 20), T0 + 6);
	assert_int_equal(lr_pacer_batch(&p, T0, 64, 512), 512);
	/* unlimited -> limited starts a fresh schedule at now, no debt */
	lr_pacer_set_rate(&p, 8000ULL, T0 + 100);
	assert_int_equal(lr_pacer_reserve(&p, T0 + 100, 1000), T0 + 100);
	assert_int_equal(lr_pacer_reserve(&p, T0 + 100, 1000), T0 + 100 + LR_NSEC_PER_SEC);
}

static void test_batch_follows_rate(void **state)
{
	struct lr_pacer p;

	(void)state;
	lr_pacer_init(&p, 1000000ULL, T0);
	assert_int_equal(lr_pacer_batch(&p, T0, 1400, 64), 1);
	assert_int_equal(lr_pacer_batch(&p, T0, 64, 64), 1); /* 25 bytes per quantum */
	lr_pacer_init(&p, 1000000000ULL, T0);
	assert_int_equal(lr_pacer_batch(&p, T0, 1000, 64), 25); /* 200 us at 1 Gbit/s */
	lr_pacer_init(&p, 40000000000ULL, T0);
	assert_int_equal(lr_pacer_batch(&p, T0, 64, 1024), 1024);
	assert_int_equal(lr_pacer_batch(&p, T0, 64, 0), 0);
	/* 100 us behind at 1 Gbit/s: the next batch also carries the 12.5 kB of debt */
	lr_pacer_init(&p, 1000000000ULL, T0);
	assert_int_equal(lr_pacer_batch(&p, T0 + 100000, 1000, 1024), 37);
	/* 1 ms behind: at most a quantum of it (the rest follows at the catch-up pace) */
	assert_int_equal(lr_pacer_batch(&p, T0 + LR_NSEC_PER_MSEC, 1000, 1024),
			 LR_PACER_CATCHUP * LR_PACER_QUANTUM_NS / 8000);
	assert_int_equal(lr_pacer_batch(&p, T0 + LR_NSEC_PER_SEC, 1000, 100000),
			 LR_PACER_CATCHUP * LR_PACER_QUANTUM_NS / 8000);
	/* ahead of schedule: just the quantum */
	lr_pacer_reserve(&p, T0, 1000000);
	assert_int_equal(lr_pacer_batch(&p, T0, 1000, 1024), 25);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_average_exact),
		cmocka_unit_test(test_average_with_late_wakeups),
		cmocka_unit_test(test_fractional_ns_carried),
		cmocka_unit_test(test_stall_no_burst),
		cmocka_unit_test(test_custom_max_burst),
		cmocka_unit_test(test_stall_repaid_at_catchup_pace),
		cmocka_unit_test(test_rate_change_mid_run),
		cmocka_unit_test(test_rate_change_rescales_pending),
		cmocka_unit_test(test_unlimited),
		cmocka_unit_test(test_batch_follows_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
