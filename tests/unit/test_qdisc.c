// SPDX-License-Identifier: GPL-2.0-or-later
/* RTM_NEWQDISC replies: a recorded kernel dump (tests/fixtures/qdisc/, record.sh) read through
 * the code the live dump uses and held against `tc -s qdisc show` of the same moment (the
 * witness: every qdisc, every figure); messages built in-process for the 64-bit packet count
 * and the malformed cases; then one live dump of this process's namespace. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/gen_stats.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "linerate/collect/nllink.h"
#include "linerate/collect/qdisc.h"
#include "fakes/slurp.h"

#define FIX "tests/fixtures/qdisc/tbf-htb-mq"

/* `ip -o link` of the recording: the ifindex of a name, -1 when absent. */
static int ifindex_of(const char *dev)
{
	FILE *f = fopen(FIX ".links.txt", "r");
	char line[1024], name[32];
	int idx, found = -1;

	assert_non_null(f);
	while (found < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%d: %31[^:@]", &idx, name) == 2 && !strcmp(name, dev))
			found = idx;
	fclose(f);
	return found;
}

static const struct lr_qdisc_stats *find(const struct lr_qdisc_stats *q, size_t n, int ifindex,
					 const char *handle, const char *parent)
{
	for (size_t i = 0; i < n; i++) {
		char h[16], p[16];

		if (q[i].ifindex == ifindex &&
		    !strcmp(lr_qdisc_handle_str(q[i].handle, h, sizeof(h)), handle) &&
		    !strcmp(lr_qdisc_handle_str(q[i].parent, p, sizeof(p)), parent))
			return &q[i];
	}
	return NULL;
}

/* Each qdisc tc printed is one the collector read, with tc's kind and tc's seven figures. */
static void test_recorded_against_tc(void **state)
{
	static char buf[65536];
	size_t len = slurp(FIX ".raw", buf, sizeof(buf)), n;
	struct lr_qdisc_stats q[64];
	FILE *tc = fopen(FIX ".tc.txt", "r");
	char line[1024];
	unsigned seen = 0;

	(void)state;
	assert_non_null(tc);
	assert_int_equal(lr_qdisc_parse_all(buf, len, q, 64, &n), 0);
	while (fgets(line, sizeof(line), tc)) {
		char kind[16], handle[16], dev[32], where[16], parent[16] = "root";
		unsigned long long v[LR_QD__COUNT], rq2;
		const struct lr_qdisc_stats *e;

		if (sscanf(line, "qdisc %15s %15s dev %31s %15s %15s", kind, handle, dev, where,
			   parent) < 4)
			continue;
		if (strcmp(where, "parent"))
			strcpy(parent, "root");
		assert_non_null(fgets(line, sizeof(line), tc));
		assert_int_equal(sscanf(line, " Sent %llu bytes %llu pkt (dropped %llu, overlimits "
					"%llu requeues %llu)", &v[LR_QD_BYTES], &v[LR_QD_PACKETS],
					&v[LR_QD_DROPS], &v[LR_QD_OVERLIMITS], &v[LR_QD_REQUEUES]),
				 5);
		assert_non_null(fgets(line, sizeof(line), tc));
		assert_int_equal(sscanf(line, " backlog %llub %llup requeues %llu",
					&v[LR_QD_BACKLOG_BYTES], &v[LR_QD_QLEN], &rq2), 3);
		e = find(q, n, ifindex_of(dev), handle, parent);
		if (!e)
			fail_msg("tc's %s %s on %s (parent %s) was not read", kind, handle, dev,
				 parent);
		assert_false(e->bad);
		assert_string_equal(e->kind, kind);
		assert_int_equal(e->valid, (1u << LR_QD__COUNT) - 1);
		for (unsigned f = 0; f < LR_QD__COUNT; f++)
			if (e->v[f] != v[f])
				fail_msg("%s %s on %s: %s %llu, tc says %llu", kind, handle, dev,
					 lr_qdisc_field_name(f), (unsigned long long)e->v[f], v[f]);
		seen++;
	}
	fclose(tc);
	assert_int_equal(seen, n);	/* and nothing tc did not print */
	assert_true(seen >= 10);
	/* one from the dump for a reader of this test: the slow tbf held packets */
	assert_int_equal(find(q, n, ifindex_of("sl"), "5:", "root")->v[LR_QD_QLEN], 9);
}

static struct nl_msg *qdisc_msg(int ifindex, const char *kind)
{
	struct tcmsg t = {.tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex, .tcm_handle = 0x10000,
			  .tcm_parent = 0xffffffff};
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWQDISC, 0);

	assert_non_null(m);
	assert_int_equal(nlmsg_append(m, &t, sizeof(t), NLMSG_ALIGNTO), 0);
	if (kind)
		nla_put_string(m, TCA_KIND, kind);
	return m;
}

static void put_stats2(struct nl_msg *m, bool basic, bool queue, const uint64_t *pkt64)
{
	struct gnet_stats_basic b = {.bytes = UINT64_C(6000000000000), .packets = 7};
	struct gnet_stats_queue q = {.qlen = 3, .backlog = 4500, .drops = 143924,
				     .requeues = 2, .overlimits = 99};
	struct nlattr *n = nla_nest_start(m, TCA_STATS2);

	if (pkt64)	/* the kernel sends it after the basic part; either order is read */
		nla_put_u64(m, TCA_STATS_PKT64, *pkt64);
	if (basic)
		nla_put(m, TCA_STATS_BASIC, sizeof(b), &b);
	if (queue)
		nla_put(m, TCA_STATS_QUEUE, sizeof(q), &q);
	nla_nest_end(m, n);
}

static void test_built_and_64bit(void **state)
{
	const uint64_t big = UINT64_C(5000000007);
	struct lr_qdisc_stats q;
	struct nl_msg *m = qdisc_msg(7, "tbf");

	(void)state;
	put_stats2(m, true, true, &big);
	assert_int_equal(lr_qdisc_parse(nlmsg_hdr(m), &q), 0);
	assert_int_equal(q.ifindex, 7);
	assert_int_equal(q.handle, 0x10000);
	assert_int_equal(q.parent, LR_QDISC_PARENT_ROOT);
	assert_string_equal(q.kind, "tbf");
	assert_int_equal(q.v[LR_QD_BYTES], UINT64_C(6000000000000));
	assert_int_equal(q.v[LR_QD_PACKETS], big);	/* PKT64 over the 32-bit field */
	assert_int_equal(q.v[LR_QD_DROPS], 143924);
	assert_int_equal(q.v[LR_QD_OVERLIMITS], 99);
	assert_int_equal(q.v[LR_QD_REQUEUES], 2);
	assert_int_equal(q.v[LR_QD_BACKLOG_BYTES], 4500);
	assert_int_equal(q.v[LR_QD_QLEN], 3);
	nlmsg_free(m);
	/* no TCA_STATS2 at all: a qdisc whose figures are unknown, not a bad reply */
	m = qdisc_msg(7, "noqueue");
	assert_int_equal(lr_qdisc_parse(nlmsg_hdr(m), &q), 0);
	assert_false(q.bad);
	assert_int_equal(q.valid, 0);
	nlmsg_free(m);
}

static void test_malformed(void **state)
{
	struct lr_qdisc_stats q;
	struct nl_msg *m;
	struct nlmsghdr *h;

	(void)state;
	m = qdisc_msg(7, NULL);	/* no kind */
	assert_int_equal(lr_qdisc_parse(nlmsg_hdr(m), &q), -EINVAL);
	assert_true(q.bad);
	assert_int_equal(q.ifindex, 7);	/* the interface it concerned is still known */
	nlmsg_free(m);
	m = qdisc_msg(7, "tbf");
	put_stats2(m, true, false, NULL);	/* basic without queue: half a TCA_STATS2 */
	assert_int_equal(lr_qdisc_parse(nlmsg_hdr(m), &q), -EINVAL);
	nlmsg_free(m);
	m = qdisc_msg(7, "a-kind-name-too-long");
	assert_int_equal(lr_qdisc_parse(nlmsg_hdr(m), &q), -EINVAL);
	nlmsg_free(m);
	m = qdisc_msg(7, "tbf");
	nla_put(m, TCA_STATS2, 8, "\x10\x00\x01\x00\x00\x00\x00\x00");	/* inner attr overruns */
	assert_int_equal(lr_qdisc_parse(nlmsg_hdr(m), &q), -EINVAL);
	nlmsg_free(m);
	m = qdisc_msg(7, "tbf");
	h = nlmsg_hdr(m);
	h->nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)) - 1;	/* no whole tcmsg */
	assert_int_equal(lr_qdisc_parse(h, &q), -EINVAL);
	assert_int_equal(q.ifindex, 0);
	h->nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)) + 3;	/* an attribute cut short */
	assert_int_equal(lr_qdisc_parse(h, &q), -EINVAL);
	h->nlmsg_type = RTM_NEWLINK;
	assert_int_equal(lr_qdisc_parse(h, &q), -ENOENT);
	nlmsg_free(m);
	m = qdisc_msg(0, "tbf");	/* no device */
	assert_int_equal(lr_qdisc_parse(nlmsg_hdr(m), &q), -EINVAL);
	nlmsg_free(m);
	{	/* the dump's path keeps bad replies, flagged; broken framing ends the walk */
		static char raw[65536];
		size_t len = slurp(FIX ".raw", raw, sizeof(raw)), k;
		struct lr_qdisc_stats out[64];
		struct nlmsghdr *first = (struct nlmsghdr *)raw;
		struct tcmsg *t = NLMSG_DATA(first);

		t->tcm_ifindex = -1;
		assert_int_equal(lr_qdisc_parse_all(raw, len, out, 64, &k), 0);
		assert_true(out[0].bad);
		assert_int_equal(out[0].ifindex, 0);
		assert_false(out[1].bad);
		assert_int_equal(lr_qdisc_parse_all(raw, len - 1, out, 64, &k), -EINVAL);
		assert_true(k > 1);	/* what came before is kept */
		assert_int_equal(lr_qdisc_parse_all(raw, len, out, 2, &k), 0);
		assert_true(k > 2);	/* counted past cap: the caller grows */
	}
}

static void test_handle_str(void **state)
{
	char b[16];

	(void)state;
	assert_string_equal(lr_qdisc_handle_str(0x10000, b, sizeof(b)), "1:");
	assert_string_equal(lr_qdisc_handle_str(0x80010000, b, sizeof(b)), "8001:");
	assert_string_equal(lr_qdisc_handle_str(0x10010, b, sizeof(b)), "1:10");
	assert_string_equal(lr_qdisc_handle_str(0, b, sizeof(b)), "0:");
	assert_string_equal(lr_qdisc_handle_str(LR_QDISC_PARENT_ROOT, b, sizeof(b)), "root");
	assert_string_equal(lr_qdisc_handle_str(LR_QDISC_PARENT_INGRESS, b, sizeof(b)),
			    "ffff:fff1");
}

/* Live: lo is in every namespace and its root qdisc is noqueue, which cannot queue or drop. */
static void test_live_dump(void **state)
{
	static struct lr_qdisc_stats q[1024];
	struct lr_nllink *nl;
	bool lo = false;
	size_t n;

	(void)state;
	assert_int_equal(lr_nllink_open(&nl), 0);
	assert_int_equal(lr_qdisc_read(nl, q, 1024, &n), 0);
	lr_nllink_close(nl);
	for (size_t i = 0; i < n && i < 1024; i++) {
		assert_false(q[i].bad);
		assert_true(q[i].ifindex > 0);
		if (q[i].ifindex == 1 && q[i].parent == LR_QDISC_PARENT_ROOT) {
			lo = true;
			assert_string_equal(q[i].kind, "noqueue");
			assert_int_equal(q[i].v[LR_QD_DROPS], 0);
		}
	}
	assert_true(lo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_against_tc),
		cmocka_unit_test(test_built_and_64bit),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_handle_str),
		cmocka_unit_test(test_live_dump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
