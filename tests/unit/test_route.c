// SPDX-License-Identifier: GPL-2.0-or-later
/* The route interface: loopback addresses leave by lo (no packet is sent to find out). Whether
 * a host is on this host's link: in a network namespace of the test's own (root; a veth with
 * an IPv4 and an IPv6 prefix, and a route through a gateway for each family), the kernel's
 * route decides, as `ip route get` shows it. */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
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

static void test_loopback_is_no_link(void **state)
{
	char ifname[LR_IFNAMSIZ] = "";
	bool one = true;

	(void)state;
	/* this host's own address: a local route over lo, no wire between two ends */
	assert_int_equal(lr_route_one_link("127.0.0.1", ifname, sizeof(ifname), &one), 0);
	assert_false(one);
	assert_string_equal(ifname, "lo");
}

/* The hosts asked about in the namespace, and what `ip route get` says of each. */
static const struct {
	const char *host;
	bool one_link;
} hosts[] = {
	{"10.77.0.9", true},	/* 10.77.0.0/24 dev lrw0: on the link */
	{"10.78.1.1", false},	/* 10.78.0.0/16 via 10.77.0.254: a router between */
	{"fd77::9", true},	/* fd77::/64 dev lrw0 */
	{"fd78::1", false},	/* fd78::/48 via fd77::fe */
	{"10.79.0.1", false},	/* 10.79.0.0/16 dev lrw0, no gateway, but in none of its prefixes */
	{"10.77.0.200", false},	/* in lrw0's prefix, but 10.77.0.192/26 via 10.77.0.254 */
	{"fe80::9%lrw0", true},	/* link-local, its scope the interface */
};

/* In a child in a namespace of its own: 0 when every host is as hosts[] says, 1 + i when
 * hosts[i] is not, 50 + i when its route does not leave by lrw0; 99 when `ip` cannot build the
 * namespace, 100 + errno when it cannot be made. */
static int probe_netns(void)
{
	if (unshare(CLONE_NEWNET) < 0)
		return 100 + errno;
	if (system("set -e; exec >/dev/null 2>&1; ip link set lo up; "
		   "ip link add lrw0 type veth peer name lrw1; ip link set lrw1 up; "
		   "ip link set lrw0 up; ip addr add 10.77.0.1/24 dev lrw0; "
		   "ip route add 10.78.0.0/16 via 10.77.0.254; ip route add 10.79.0.0/16 dev lrw0; "
		   "ip route add 10.77.0.192/26 via 10.77.0.254; "
		   "ip -6 addr add fd77::1/64 dev lrw0 nodad; ip -6 route add fd78::/48 via fd77::fe"))
		return 99;
	for (unsigned i = 0; i < LR_ARRAY_SIZE(hosts); i++) {
		char ifname[LR_IFNAMSIZ] = "";
		bool one = false;

		if (lr_route_one_link(hosts[i].host, ifname, sizeof(ifname), &one) ||
		    strcmp(ifname, "lrw0"))
			return 50 + (int)i;
		if (one != hosts[i].one_link)
			return 1 + (int)i;
	}
	return 0;
}

static void test_gateway_is_not_one_link(void **state)
{
	pid_t pid;
	int st = 0, rc;

	(void)state;
	if (geteuid() != 0)
		skip();		/* a namespace of its own needs root: CI runs as root */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(probe_netns());
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	rc = WEXITSTATUS(st);
	if (rc >= 99)
		fail_msg("the namespace: %s", rc == 99 ? "`ip` could not build it"
			 : strerror(rc - 100));
	if (rc >= 50)
		fail_msg("%s: its route does not leave by lrw0", hosts[rc - 50].host);
	if (rc)
		fail_msg("%s: taken for %s", hosts[rc - 1].host,
			 hosts[rc - 1].one_link ? "not one link" : "one link");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loopback_is_lo),
		cmocka_unit_test(test_other_loopback_address),
		cmocka_unit_test(test_loopback_is_no_link),
		cmocka_unit_test(test_gateway_is_not_one_link),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
