// SPDX-License-Identifier: GPL-2.0-or-later
/* The route interface: loopback addresses leave by lo (no packet is sent to find out). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "linerate/core/common.h"
#include "linerate/collect/route.h"

static void test_loopback_is_lo(void **state)
{
	char ifname[LR_IFNAMSIZ] = "";

	(void)state;
	assert_int_equal(lr_route_iface("127.0.0.1", ifname, sizeof(ifname)), 0);
	assert_string_equal(ifname, "lo");
}

static void test_other_loopback_address(void **state)
{
	char ifname[LR_IFNAMSIZ] = "";

	(void)state;
	/* 127.0.0.5 is routed by lo but no interface holds it: the source is 127.0.0.1 */
	assert_int_equal(lr_route_iface("127.0.0.5", ifname, sizeof(ifname)), 0);
	assert_string_equal(ifname, "lo");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loopback_is_lo),
		cmocka_unit_test(test_other_loopback_address),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
