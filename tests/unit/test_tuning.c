// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/sys tuning reader: this host's captured sysctls and a partial hand-made tree. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/fake_sysio.h"
#include "linerate/collect/tuning.h"

static void test_this_host(void **state)
{
	struct lr_tuning_snap t;
	struct fake_sysio f;

	(void)state;
	memset(&t, 0x5a, sizeof(t));
	fake_sysio_init(&f, FIXTURES "/this-host");
	assert_int_equal(lr_tuning_read(&f.io, &t), 9);
	assert_int_equal(t.rmem_max, 4194304);
	assert_int_equal(t.wmem_max, 4194304);
	assert_int_equal(t.netdev_max_backlog, 1000);
	assert_int_equal(t.tcp_rmem[0], 4096);
	assert_int_equal(t.tcp_rmem[1], 131072);
	assert_int_equal(t.tcp_rmem[2], 33554432);
	assert_int_equal(t.tcp_wmem[1], 16384);
	assert_int_equal(t.tcp_wmem[2], 4194304);
	assert_int_equal(t.tcp_window_scaling, 1);
	assert_int_equal(t.tcp_timestamps, 1);
	assert_int_equal(t.tcp_sack, 1);
	assert_string_equal(t.tcp_congestion, "bbr");
}

/* Missing files (container without net/core), a two-number tcp_rmem and a junk value are
 * unknown (-1), never 0. */
static void test_partial_tree(void **state)
{
	struct lr_tuning_snap t;
	struct fake_sysio f;

	(void)state;
	memset(&t, 0, sizeof(t));
	fake_sysio_init(&f, FIXTURES "/handmade-sysctl");
	assert_int_equal(lr_tuning_read(&f.io, &t), 4);
	assert_int_equal(t.rmem_max, 212992);
	assert_int_equal(t.wmem_max, -1);
	assert_int_equal(t.netdev_max_backlog, -1);
	assert_int_equal(t.tcp_rmem[0], -1);
	assert_int_equal(t.tcp_rmem[2], -1);
	assert_int_equal(t.tcp_wmem[0], 4096);
	assert_int_equal(t.tcp_wmem[2], 4194304);
	assert_int_equal(t.tcp_sack, 0);
	assert_int_equal(t.tcp_timestamps, -1);
	assert_string_equal(t.tcp_congestion, "cubic");

	fake_sysio_init(&f, FIXTURES "/no-such-tree");
	assert_int_equal(lr_tuning_read(&f.io, &t), 0);
	assert_int_equal(t.rmem_max, -1);
	assert_string_equal(t.tcp_congestion, "");
}

static void test_pure_helpers(void **state)
{
	int64_t v[3];
	char w[8];

	(void)state;
	assert_int_equal(lr_tuning_parse_ints("4096\t87380\t6291456\n", 19, v, 3), 3);
	assert_int_equal(v[2], 6291456);
	assert_int_equal(lr_tuning_parse_ints("-1\n", 3, v, 3), 1);
	assert_int_equal(v[0], -1);
	assert_int_equal(lr_tuning_parse_ints("1 2 3 4", 7, v, 3), -EINVAL);
	assert_int_equal(lr_tuning_parse_ints("1x", 2, v, 3), -EINVAL);
	assert_int_equal(lr_tuning_parse_ints("-", 1, v, 3), -EINVAL);
	assert_int_equal(lr_tuning_parse_ints("9223372036854775808", 19, v, 1), -EINVAL);
	assert_int_equal(lr_tuning_parse_ints("", 0, v, 1), 0);
	assert_int_equal(lr_tuning_parse_word("reno\n", 5, w, sizeof(w)), 0);
	assert_string_equal(w, "reno");
	assert_int_equal(lr_tuning_parse_word("a b\n", 4, w, sizeof(w)), -EINVAL);
	assert_int_equal(lr_tuning_parse_word("\n", 1, w, sizeof(w)), -EINVAL);
	assert_int_equal(lr_tuning_parse_word("verylongname", 12, w, sizeof(w)), 0);
	assert_string_equal(w, "verylon");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_this_host),
		cmocka_unit_test(test_partial_tree),
		cmocka_unit_test(test_pure_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
