// SPDX-License-Identifier: GPL-2.0-or-later
/* Number parsers of the command line: whole-string, no sign, suffixes, and exact values up
 * to the top of uint64_t (regressions found by fuzz_cli). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>

#include "linerate/core/strutil.h"

static void test_u64(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(lr_parse_u64("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(lr_parse_u64("18446744073709551616", &v), -ERANGE);
	assert_int_equal(lr_parse_u64("+1", &v), -EINVAL);
	assert_int_equal(lr_parse_u64("1 ", &v), -EINVAL);
	assert_int_equal(lr_parse_u64("", &v), -EINVAL);
}

static void test_double(void **state)
{
	double d = 0;

	(void)state;
	assert_int_equal(lr_parse_double("0.01", &d), 0);
	assert_true(d == 0.01);
	assert_int_equal(lr_parse_double("nan", &d), -ERANGE);
	assert_int_equal(lr_parse_double("inf", &d), -ERANGE);
	assert_int_equal(lr_parse_double("1e999", &d), -ERANGE);
	assert_int_equal(lr_parse_double(" 1", &d), -EINVAL);
	assert_int_equal(lr_parse_double("0,5", &d), -EINVAL);
}

/* llround() overflowed long long above 2^63: "9999999999999e3k" came back as 2^63. */
static void test_scaled_above_2p63(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(lr_parse_rate_bps("10000000000000000k", &v), 0);
	assert_true(v == 10000000000000000000ULL);
	assert_int_equal(lr_parse_rate_bps("18T", &v), 0);
	assert_true(v == 18000000000000ULL);
	assert_int_equal(lr_parse_size_bytes("15E", &v), -EINVAL);
	assert_int_equal(lr_parse_size_bytes("16777215T", &v), 0);
	assert_true(v == 16777215ULL << 40);
	assert_int_equal(lr_parse_size_bytes("16777216T", &v), -ERANGE);	/* 2^64 */
	assert_int_equal(lr_parse_rate_bps("-1k", &v), -EINVAL);
	assert_int_equal(lr_parse_rate_bps("k", &v), -EINVAL);
	assert_int_equal(lr_parse_rate_bps("1.5G", &v), 0);
	assert_true(v == 1500000000ULL);
	assert_int_equal(lr_parse_size_bytes("64K", &v), 0);
	assert_int_equal(v, 65536);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_double),
		cmocka_unit_test(test_scaled_above_2p63),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
