// SPDX-License-Identifier: GPL-2.0-or-later
/* Counter maths: wraps, resets, rates over the measured interval, stale counters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "linerate/sample/rate.h"

#define MS (1000ULL * 1000ULL)

static void test_delta_forward(void **state)
{
	uint64_t d = 7;

	(void)state;
	assert_true(lr_rate_delta(100, 250, 64, &d));
	assert_int_equal(d, 150);
	assert_true(lr_rate_delta(5, 5, 64, &d));
	assert_int_equal(d, 0);
}

static void test_delta_wraps_32bit(void **state)
{
	uint64_t d;

	(void)state;
	assert_true(lr_rate_delta(UINT32_MAX - 9, 5, 32, &d));
	assert_int_equal(d, 15);
}

static void test_delta_64bit_backwards_is_reset(void **state)
{
	uint64_t d = 42;

	(void)state;
	assert_false(lr_rate_delta(5000000, 1000, 64, &d));
	assert_int_equal(d, 42);	/* untouched */
	/* a 32-bit counter cannot have been above 2^32: that is a reset too */
	assert_false(lr_rate_delta(UINT64_C(1) << 40, 10, 32, &d));
}

static void test_width(void **state)
{
	(void)state;
	assert_int_equal(lr_rate_width(10, 20), 32);
	assert_int_equal(lr_rate_width(UINT64_C(1) << 33, 20), 64);
}

static void test_per_sec_uses_measured_interval(void **state)
{
	(void)state;
	/* 1000 bytes over a late 125 ms tick is 8000/s, not 10000/s */
	assert_true(lr_rate_per_sec(1000, 125 * MS) > 7999.999 &&
		    lr_rate_per_sec(1000, 125 * MS) < 8000.001);
	assert_true(lr_rate_per_sec(1000, 0) == 0.0);
}

/* A live counter moving every tick is never held: a stopped load reads 0 at once. */
static void test_stale_live_counter_drops_to_zero(void **state)
{
	struct lr_stale st = {0};
	uint64_t now = 1000 * MS;
	double r;

	(void)state;
	for (int i = 0; i < 10; i++) {
		now += 100 * MS;
		assert_false(lr_stale_update(&st, 1000, now, 100 * MS, &r));
		assert_true(r > 9999 && r < 10001);
	}
	now += 100 * MS;
	assert_false(lr_stale_update(&st, 0, now, 100 * MS, &r));
	assert_true(r == 0.0);
}

/* A driver refreshing every second, sampled at 100 ms: held between refreshes, and each
 * refresh is divided by the whole second, so no 0/10x sawtooth. */
static void test_stale_lazy_counter_is_held(void **state)
{
	struct lr_stale st = {0};
	uint64_t now = 1000 * MS;
	double r;
	int stale = 0;

	(void)state;
	for (int tick = 1; tick <= 50; tick++) {
		uint64_t delta = tick % 10 == 0 ? 10000 : 0;	/* 10000 per second */
		bool s;

		now += 100 * MS;
		s = lr_stale_update(&st, delta, now, 100 * MS, &r);
		stale += s;
		if (tick > 20)	/* after two refreshes the rate is steady */
			assert_true(r > 9999 && r < 10001);
	}
	assert_int_equal(stale, 27);	/* 21-29, 31-39, 41-49 */
	/* the load stops: held for at most 1.5 refresh periods, then 0 */
	for (int tick = 0; tick < 20; tick++) {
		now += 100 * MS;
		lr_stale_update(&st, 0, now, 100 * MS, &r);
	}
	assert_true(r == 0.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_forward),
		cmocka_unit_test(test_delta_wraps_32bit),
		cmocka_unit_test(test_delta_64bit_backwards_is_reset),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_per_sec_uses_measured_interval),
		cmocka_unit_test(test_stale_live_counter_drops_to_zero),
		cmocka_unit_test(test_stale_lazy_counter_is_held),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
