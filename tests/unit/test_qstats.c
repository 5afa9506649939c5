// SPDX-License-Identifier: GPL-2.0-or-later
/* netdev qstats-get replies: a recorded kernel reply (tests/fixtures/qstats/, whose README
 * gives the device's own counters at the time: the witness), messages built in-process for the
 * multi-queue, 64-bit and malformed cases, then one live dump when the kernel has the family. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/genetlink.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/qstats.h"
#include "fakes/slurp.h"

static void test_recorded_virtio(void **state)
{
	char buf[4096];
	size_t len = slurp("tests/fixtures/qstats/virtio_net-eth0.raw", buf, sizeof(buf)), n;
	struct lr_qstat q[4];

	(void)state;
	assert_int_equal(lr_qstats_parse_all(buf, len, q, 4, &n), 0);
	assert_int_equal(n, 2);	/* one rx and one tx queue */
	/* ip -s link show eth0 at the recording: RX 183971644 bytes 5696 packets, TX 272019 3558 */
	assert_int_equal(q[0].ifindex, 4);
	assert_int_equal(q[0].dir, LR_QDIR_RX);
	assert_int_equal(q[0].queue, 0);
	assert_int_equal(q[0].v[LR_QS_PACKETS], 5696);
	assert_int_equal(q[0].v[LR_QS_BYTES], 183971644);
	assert_int_equal(q[1].dir, LR_QDIR_TX);
	assert_int_equal(q[1].v[LR_QS_PACKETS], 3558);
	assert_int_equal(q[1].v[LR_QS_BYTES], 272019);
	assert_true(q[0].valid & LR_QS_BIT(LR_QS_PACKETS));
	assert_false(q[0].valid & LR_QS_BIT(LR_QS_TX_STOP));	/* not in an rx reply */
}

/* a reply as the kernel builds it: ifindex, queue-type, queue-id, then counters */
static struct nl_msg *reply(int ifindex, int type, int id, bool with_queue)
{
	struct nl_msg *m = nlmsg_alloc();

	assert_non_null(m);
	assert_non_null(genlmsg_put(m, 0, 0, 30, 0, 0, 12, 1));
	nla_put_u32(m, 1, (uint32_t)ifindex);
	if (with_queue) {
		nla_put_u32(m, 2, (uint32_t)type);
		nla_put_u32(m, 3, (uint32_t)id);
	}
	return m;
}

static void test_multiqueue_and_64bit(void **state)
{
	struct lr_qstat q;
	struct nl_msg *m;

	(void)state;
	for (int id = 0; id < 4; id++) {
		m = reply(7, 0, id, true);
		nla_put_u64(m, 8, 5000000000ULL + (uint64_t)id);	/* rx-packets past 2^32 */
		nla_put_u32(m, 9, 1500u * (uint32_t)id);
		nla_put_u32(m, 14, 3);		/* rx-hw-drop-overruns */
		nla_put_u32(m, 10, 99);		/* tx-packets in an rx reply: not ours */
		assert_int_equal(lr_qstats_parse(nlmsg_hdr(m), &q), 0);
		assert_int_equal(q.queue, (unsigned)id);
		assert_int_equal(q.dir, LR_QDIR_RX);
		assert_int_equal(q.v[LR_QS_PACKETS], 5000000000ULL + (uint64_t)id);
		assert_int_equal(q.v[LR_QS_BYTES], 1500u * (unsigned)id);
		assert_int_equal(q.v[LR_QS_HW_DROP_OVERRUNS], 3);
		assert_int_equal(q.valid, LR_QS_BIT(LR_QS_PACKETS) | LR_QS_BIT(LR_QS_BYTES) |
						  LR_QS_BIT(LR_QS_HW_DROP_OVERRUNS));
		nlmsg_free(m);
	}
	m = reply(7, 1, 2, true);
	nla_put_u32(m, 10, 42);
	nla_put_u32(m, 34, 5);	/* tx-stop */
	assert_int_equal(lr_qstats_parse(nlmsg_hdr(m), &q), 0);
	assert_int_equal(q.dir, LR_QDIR_TX);
	assert_int_equal(q.v[LR_QS_PACKETS], 42);
	assert_int_equal(q.v[LR_QS_TX_STOP], 5);
	nlmsg_free(m);
}

static void test_malformed(void **state)
{
	struct lr_qstat q;
	struct nl_msg *m;
	struct nlmsghdr *h;

	(void)state;
	m = reply(7, 0, 0, false);	/* device scope: no queue */
	assert_int_equal(lr_qstats_parse(nlmsg_hdr(m), &q), -ENOENT);
	nlmsg_free(m);
	m = reply(7, 5, 0, true);	/* no such queue type */
	assert_int_equal(lr_qstats_parse(nlmsg_hdr(m), &q), -EINVAL);
	nlmsg_free(m);
	m = reply(0, 0, 0, true);	/* no device */
	assert_int_equal(lr_qstats_parse(nlmsg_hdr(m), &q), -EINVAL);
	nlmsg_free(m);
	m = reply(7, 0, 0, true);
	nla_put_u16(m, 8, 1);		/* a counter of 2 bytes */
	assert_int_equal(lr_qstats_parse(nlmsg_hdr(m), &q), -EINVAL);
	nlmsg_free(m);
	m = reply(7, 0, 0, true);
	nla_put_u32(m, 8, 1);
	h = nlmsg_hdr(m);
	((struct nlattr *)((char *)h + h->nlmsg_len - 8))->nla_len = 200;	/* runs past the end */
	assert_int_equal(lr_qstats_parse(h, &q), -EINVAL);
	h->nlmsg_len = NLMSG_HDRLEN + 2;	/* shorter than the genl header */
	assert_int_equal(lr_qstats_parse(h, &q), -EINVAL);
	nlmsg_free(m);
	{	/* framing: a length past the buffer, a length below the header */
		struct lr_qstat out[2];
		char raw[4096];
		size_t len = slurp("tests/fixtures/qstats/virtio_net-eth0.raw", raw, sizeof(raw)), k;

		assert_int_equal(lr_qstats_parse_all(raw, len - 1, out, 2, &k), -EINVAL);
		assert_int_equal(k, 1);	/* the first reply is kept */
		((struct nlmsghdr *)raw)->nlmsg_len = 3;
		assert_int_equal(lr_qstats_parse_all(raw, len, out, 2, &k), -EINVAL);
	}
}

/* Live: every queue the kernel reports belongs to a device, each direction's queues are
 * numbered from 0; skipped (by name) on a kernel without the family or qstats-get. */
static void test_live_dump(void **state)
{
	struct lr_qstats *qs;
	struct lr_qstat q[256];
	size_t n;
	int rc;

	(void)state;
	rc = lr_qstats_open(&qs);
	if (rc == -ENOENT)
		skip();
	assert_int_equal(rc, 0);
	rc = lr_qstats_read(qs, 0, q, 256, &n);
	lr_qstats_close(qs);
	if (rc == -EOPNOTSUPP)
		skip();
	assert_int_equal(rc, 0);
	for (size_t i = 0; i < n && i < 256; i++) {
		assert_true(q[i].ifindex > 0);
		assert_true(q[i].dir == LR_QDIR_RX || q[i].dir == LR_QDIR_TX);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_virtio),
		cmocka_unit_test(test_multiqueue_and_64bit),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_live_dump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
