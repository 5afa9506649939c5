// SPDX-License-Identifier: GPL-2.0-or-later
/* rtnetlink translation on messages built in-process (no socket), then one live dump of
 * this process's own namespace (lo is always there). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netlink/msg.h>
#include <string.h>

#include "linerate/collect/nllink.h"

static struct nl_msg *link_msg(int ifindex, const char *name, const char *kind, size_t stats_len)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC, .ifi_index = ifindex};
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWLINK, 0);
	struct rtnl_link_stats64 st;
	struct nlattr *li;

	assert_non_null(msg);
	assert_int_equal(nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO), 0);
	nla_put_string(msg, IFLA_IFNAME, name);
	nla_put_u32(msg, IFLA_MTU, 9000);
	nla_put_u8(msg, IFLA_OPERSTATE, 6);
	nla_put_u32(msg, IFLA_MASTER, 7);
	li = nla_nest_start(msg, IFLA_LINKINFO);
	nla_put_string(msg, IFLA_INFO_KIND, kind);
	nla_nest_end(msg, li);
	memset(&st, 0, sizeof(st));
	st.rx_packets = 1;
	st.tx_bytes = 4;
	st.rx_missed_errors = 16;
	st.rx_nohandler = 24;
	nla_put(msg, IFLA_STATS64, (int)stats_len, &st);
	return msg;
}

static void test_parse_link(void **state)
{
	struct nl_msg *msg = link_msg(5, "veth0", "veth", sizeof(struct rtnl_link_stats64));
	struct lr_link_info info;
	struct lr_link_counters ctr;
	bool has;

	(void)state;
	assert_int_equal(lr_nllink_parse_link(nlmsg_hdr(msg), &info, &ctr, &has), 0);
	assert_int_equal(info.ifindex, 5);
	assert_string_equal(info.name, "veth0");
	assert_string_equal(info.kind, "veth");
	assert_int_equal(info.mtu, 9000);
	assert_int_equal(info.operstate, 6);
	assert_int_equal(info.master, 7);
	assert_true(has);
	assert_int_equal(ctr.v[LR_M_RX_PACKETS], 1);
	assert_int_equal(ctr.v[LR_M_TX_BYTES], 4);
	assert_int_equal(ctr.v[LR_M_RX_MISSED_ERRORS], 16);
	assert_int_equal(ctr.v[LR_M_RX_NOHANDLER], 24);
	assert_int_equal(ctr.valid, LR_M_STATS64_MASK);
	nlmsg_free(msg);
}

/* A kernel older than 4.6 sends 23 fields (no rx_nohandler): unknown, never 0. */
static void test_short_stats64_marks_tail_unknown(void **state)
{
	struct nl_msg *msg = link_msg(5, "eth0", "", 23 * sizeof(uint64_t));
	struct lr_link_info info;
	struct lr_link_counters ctr;
	bool has;

	(void)state;
	assert_int_equal(lr_nllink_parse_link(nlmsg_hdr(msg), &info, &ctr, &has), 0);
	assert_true(ctr.valid & LR_M_BIT(LR_M_TX_COMPRESSED));
	assert_false(ctr.valid & LR_M_BIT(LR_M_RX_NOHANDLER));
	nlmsg_free(msg);
}

static void test_parse_stats(void **state)
{
	struct if_stats_msg ifsm = {.family = AF_UNSPEC, .ifindex = 9};
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWSTATS, 0);
	struct rtnl_link_stats64 st;
	struct lr_link_counters ctr;

	(void)state;
	assert_int_equal(nlmsg_append(msg, &ifsm, sizeof(ifsm), NLMSG_ALIGNTO), 0);
	memset(&st, 0, sizeof(st));
	st.rx_bytes = UINT64_C(1) << 40;
	st.rx_dropped = 3;
	nla_put(msg, IFLA_STATS_LINK_64, sizeof(st), &st);
	assert_int_equal(lr_nllink_parse_stats(nlmsg_hdr(msg), &ctr), 0);
	assert_int_equal(ctr.ifindex, 9);
	assert_int_equal(ctr.v[LR_M_RX_BYTES], UINT64_C(1) << 40);
	assert_int_equal(ctr.v[LR_M_RX_DROPPED], 3);
	/* a link message is not a stats message */
	nlmsg_free(msg);
	msg = link_msg(1, "lo", "", sizeof(st));
	assert_int_equal(lr_nllink_parse_stats(nlmsg_hdr(msg), &ctr), -2 /* -ENOENT */);
	nlmsg_free(msg);
}

static void test_malformed_link_rejected(void **state)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC, .ifi_index = 3};
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWLINK, 0);
	struct lr_link_info info;
	bool has;

	(void)state;
	assert_int_equal(nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO), 0);
	/* no IFLA_IFNAME */
	assert_int_equal(lr_nllink_parse_link(nlmsg_hdr(msg), &info, NULL, &has), -22);
	nlmsg_free(msg);
}

static int find_lo(const struct lr_link_info *l, const struct lr_link_counters *c, void *arg)
{
	if (!strcmp(l->name, "lo"))
		*(int *)arg = l->ifindex;
	return 0;
}

static int count_lo(const struct lr_link_counters *c, void *arg)
{
	if (c->ifindex == 1)
		(*(int *)arg)++;
	return 0;
}

static void test_live_dump(void **state)
{
	struct lr_nllink *nl;
	int lo = 0, seen = 0;

	(void)state;
	assert_int_equal(lr_nllink_open(&nl), 0);
	assert_int_equal(lr_nllink_dump_links(nl, find_lo, &lo), 0);
	assert_int_equal(lo, 1);
	assert_int_equal(lr_nllink_dump_counters(nl, count_lo, &seen), 0);
	assert_int_equal(seen, 1);
	lr_nllink_close(nl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_link),
		cmocka_unit_test(test_short_stats64_marks_tail_unknown),
		cmocka_unit_test(test_parse_stats),
		cmocka_unit_test(test_malformed_link_rejected),
		cmocka_unit_test(test_live_dump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
